#!/bin/sh
# armies.sh: the armies command line, certificates and verify (TAP).
. "${srcdir:-$(dirname "$0")/..}/tests/tap.sh"

# The main job: the table for boards 1 to 8 (OEIS A250000), every line proven.
"$P" armies --table 1..8 --method search >"$T/table" 2>"$T/err"
check "table exits 0" "[ $? -eq 0 ]"
maxima=$(awk 'NR > 1 {print $2}' "$T/table" | tr '\n' ' ')
check "table maxima are A250000(1..8): $maxima" "[ \"$maxima\" = '0 0 1 2 4 5 7 9 ' ]"
check "every table line is proven" "[ \$(grep -c ' search ' \"$T/table\") -eq 8 ]"

bfile=$("$P" armies --table 1..8 --format bfile --method search | tr '\n' ' ')
check "b-file of maxima: OEIS A250000 1..8" "[ '$bfile' = '1 0 2 0 3 1 4 2 5 4 6 5 7 7 8 9 ' ]"
bfile=$("$P" armies --table 1..7 --format bfile --count --method search | tr '\n' ' ')
check "b-file of classes: OEIS A260680 1..7" "[ '$bfile' = '1 1 2 1 3 1 4 10 5 3 6 35 7 19 ' ]"
csv=$("$P" armies --table 4..5 --format csv --method search)
check "CSV table: header and one line per board" \
  "[ \"\$(echo '$csv' | head -1)\" = 'n,maximum,proven,proof,seconds' ] && [ \$(echo '$csv' | wc -l) -eq 3 ]"
out=$("$P" armies --board 8 --json --method search)
check "8x8 JSON: size 9, optimal" "echo '$out' | grep -q '\"size\":9,\"optimal\":true'"
w=$(echo "$out" | sed 's/.*"witness":"\([^"]*\)".*/\1/')
check "8x8 witness has 9 white and 9 black queens" \
  "[ \$(echo '$w' | tr -cd Q | wc -c) -eq 9 ] && [ \$(echo '$w' | tr -cd q | wc -c) -eq 9 ]"

out=$("$P" armies --board 7 --count --json)
check "7x7 count: 19 classes with colour exchange (A260680)" \
  "echo '$out' | grep -q '\"unique_colour\":19'"
w=$(echo "$out" | jq -r .witness)
"$P" armies --board 7 --list >"$T/list7"
check "7x7 count: its witness ($w) is one of the placements listed at the maximum" \
  "[ \$(wc -l <'$T/list7') -gt 1 ] && grep -qx -- '$w' '$T/list7'"
lines=$("$P" armies --board 6 --list --unique | wc -l)
check "6x6 listed up to the board's symmetries: 70 classes" "[ $lines -eq 70 ]"
out=$("$P" armies --board 8 --size 10)
check "8x8 size 10 is impossible" "echo '$out' | grep -q impossible"
out=$("$P" armies --board 5x3 --piece N --json --method search)
check "rectangle with knights answers with a proof" "echo '$out' | grep -q '\"optimal\":true'"
out=$("$P" armies --board 6 --white 2 --json --method search)
check "--white 2 on 6x6 gives the largest black army" "echo '$out' | grep -q '\"white\":2,\"size\":'"

# Methods cross-checked: integer programming (GLPK) and the race agree with the search.
for side in 4 5 6; do
  s=$("$P" armies --board $side --method search --json | sed 's/.*"size":\([0-9]*\).*/\1/')
  i=$("$P" armies --board $side --method ilp --json)
  check "${side}x$side: GLPK proves the same maximum ($s)" \
    "echo '$i' | grep -q '\"size\":$s,\"optimal\":true,\"proved_by\":\"ilp\"'"
done
out=$("$P" armies --board 7 --method race --json)
check "race on 7x7: maximum 7, proven" "echo '$out' | grep -q '\"size\":7,\"optimal\":true'"
"$P" armies --board 5 --export-lp "$T/a5.lp" --export-mps "$T/a5.mps" >/dev/null
check "--export-lp and --export-mps write the model of size 5" \
  "grep -q 'w5_b5' \"$T/a5.lp\" && grep -q 'MAXIMIZE' \"$T/a5.mps\""
refuse "--export-lp with --part: refused (a part wrote no model)" "--part" \
  armies --board 5 --size 4 --part 1/2 --export-lp "$T/p.lp"
# The model does not wait for the search: a limit that stops the run still writes it (the size
# after the best found, or --size K), for an outside solver. Nothing was written, nothing said.
run 30 armies --board 13 --size 25 --time-limit 0.5 --jobs 1 --export-lp "$T/s25.lp" \
  --export-mps "$T/s25.mps" --cert "$T/s25.json"
check "--size 25 on 13x13 stopped by a limit: the models of 25 written, no certificate, said so" \
  "[ $rc -eq 3 ] && grep -q 'w25_b25' '$T/s25.lp' && grep -q 'MAXIMIZE' '$T/s25.mps' &&
   [ ! -e '$T/s25.json' ] && grep -q 'no certificate or picture written' '$T/err'"
run 30 armies --board 13 --time-limit 0.5 --jobs 1 --local-moves 0 --export-lp "$T/m13.lp"
best=$(head -1 "$T/out" | sed -n 's/.* \([0-9]*\) or more.*/\1/p')
check "the maximum on 13x13 stopped at $best: the model of $((best + 1)) written" \
  "[ $rc -eq 3 ] && [ -n '$best' ] && grep -q 'w$((best + 1))_b$((best + 1))' '$T/m13.lp'"

# Pictures: a witness and a listing up to symmetry, valid SVG that renders.
"$P" armies --board 8 --svg "$T/a8.svg" --method search >/dev/null
check "--svg draws the witness" "grep -q '<svg' \"$T/a8.svg\""
"$P" armies --board 5 --list --unique --svg "$T/a5.svg" >/dev/null
check "--list --unique --svg draws the 6 classes" "[ \$(grep -o '<svg' \"$T/a5.svg\" | wc -l) -ge 1 ]"
run 30 armies --board 6 --list --svg "$T/a6.svg"
check "--list --svg of 560 placements: 256 drawn, and said so" \
  "[ $rc -eq 0 ] && [ \$(wc -l <'$T/out') -eq 560 ] && one_message 'draws the first 256 of the 560 placements listed'"
if command -v xmllint >/dev/null 2>&1; then
  xmllint --noout "$T/a8.svg" "$T/a5.svg" 2>/dev/null
  check "the SVG files are well-formed XML (xmllint)" "[ $? -eq 0 ]"
fi
if command -v rsvg-convert >/dev/null 2>&1; then
  rsvg-convert -o "$T/a8.png" "$T/a8.svg" 2>/dev/null
  check "the SVG renders (rsvg-convert)" "[ -s \"$T/a8.png\" ]"
fi

# Certificates: written, verified, and corrupted ones rejected.
"$P" armies --board 7 --cert "$T/c7.json" --method search >/dev/null
check "certificate written" "[ -s \"$T/c7.json\" ]"
"$P" verify "$T/c7.json" >"$T/v" 2>&1
check "certificate verifies (exit 0)" "[ $? -eq 0 ] && grep -q '^valid' \"$T/v\""
sed 's/"black":8,/"black":7,/' "$T/c7.json" >"$T/bad1.json"
"$P" verify "$T/bad1.json" >/dev/null 2>&1
check "wrong infeasible size: invalid (exit 1)" "[ $? -eq 1 ]"
# Drop one leaf from the longest tree: a branch then lacks a child.
awk 'BEGIN { m = 0 } { l[NR] = $0; if ($0 ~ /^"[0-9]/ && length($0) > m) { m = length($0); at = NR } }
  END { for (i = 1; i <= NR; i++) { if (i == at) sub(/\./, "", l[i]); print l[i] } }' \
  "$T/c7.json" >"$T/bad2.json"
"$P" verify "$T/bad2.json" >/dev/null 2>&1
rc=$?
check "damaged proof tree: not valid (exit 1 or 2)" "[ $rc -eq 1 ] || [ $rc -eq 2 ]"
# Drop the first cube and its tree (the writer puts each tree on a line of its own).
tr -d '\n' <"$T/c7.json" | sed 's/"cubes":\["[io]*",/"cubes":[/; s/"trees":\["[^"]*",/"trees":[/' \
  >"$T/bad3.json"
"$P" verify "$T/bad3.json" >"$T/v3" 2>&1
check "a missing cube: invalid, the cover check says so" "[ $? -eq 1 ] && grep -q cube \"$T/v3\""
sed 's/"witness":"\([^Q]*\)Q/"witness":"\1q/' "$T/c7.json" >"$T/bad4.json"
"$P" verify "$T/bad4.json" >"$T/v4" 2>&1
check "a recoloured witness: invalid" "[ $? -eq 1 ] && grep -q witness \"$T/v4\""
"$P" verify "$T/c7.json" --sample 10 --seed 1 >"$T/v" 2>&1
# (An audit reaches no verdict: exit 3. It was exit 0, the status of "valid", which a script that
# reads only the status took for a verified claim, even a false one.)
check "--sample 10: an audit, said to be one, exit 3" "[ $? -eq 3 ] && grep -q 'valid in the sample' \"$T/v\""
"$P" verify "$T/bad4.json" --sample 10 --seed 1 >/dev/null 2>&1
check "--sample still checks the witness" "[ $? -eq 1 ]"
# With --quiet (no seed on stderr), the verdict names the seed that checks the same sample.
"$P" verify "$T/c7.json" --sample 10 --quiet >"$T/v" 2>&1
seed=$(sed -n 's/.*(--seed \([0-9]*\) checks the same sample)$/\1/p' "$T/v")
"$P" verify "$T/c7.json" --sample 10 --quiet --seed "${seed:-0}" >"$T/v2" 2>&1
check "--sample --quiet: the verdict names its seed ($seed), which checks the same sample" \
  "[ -n '$seed' ] && cmp -s '$T/v' '$T/v2'"
"$P" armies --board 5 --piece K --jobs 1 --quiet --cert "$T/k5.json" >/dev/null 2>&1
"$P" verify "$T/k5.json" --sample 10 --quiet >"$T/v" 2>&1
check "--sample of kings, checked whole: valid, exit 0, no seed named (no sample to repeat)" \
  "[ $? -eq 0 ] && grep -q '^valid: ' '$T/v' && ! grep -q seed '$T/v'"
# A sample too small to take any leaf still checks one (it was "valid" with 0 leaves checked).
"$P" verify "$T/c7.json" --sample 1e-300 --seed 1 >"$T/v" 2>&1
check "--sample 1e-300: one leaf checked, not none" \
  "[ $? -eq 3 ] && grep -q 'valid in the sample: .*, 1 leaf checked, [0-9]* not sampled' \"$T/v\""
"$P" verify "$T/c7.json" --sample 0 >/dev/null 2>&1
check "--sample 0: exit 2" "[ $? -eq 2 ]"
printf '{"format":"peaceable-certificate","version":1,"problem":"armies"' >"$T/trunc.json"
"$P" verify "$T/trunc.json" >/dev/null 2>&1
check "a truncated file: malformed (exit 2)" "[ $? -eq 2 ]"
echo 'not json' >"$T/nj.json"
"$P" verify "$T/nj.json" >/dev/null 2>&1
check "not JSON: malformed (exit 2)" "[ $? -eq 2 ]"
"$P" verify "$T/none.json" >/dev/null 2>&1
check "a missing file: exit 2" "[ $? -eq 2 ]"
"$P" armies --board 6 --size 4 --cert "$T/f4.json" >/dev/null
"$P" verify "$T/f4.json" >"$T/v" 2>&1
check "--size 4 on 6x6 fits: a feasible certificate that verifies" \
  "[ $? -eq 0 ] && grep -q '\"claim\":\"feasible\"' \"$T/f4.json\" && grep -q '4 white and 4 black fit' \"$T/v\""
"$P" armies --board 5 --size 5 --cert "$T/c5.json" >/dev/null
"$P" verify "$T/c5.json" >/dev/null 2>&1
check "an infeasibility certificate verifies" "[ $? -eq 0 ]"
"$P" armies --board 4 --piece K --cert "$T/k4.json" --method search >/dev/null
"$P" verify "$T/k4.json" >/dev/null 2>&1
check "a kings certificate (exhaustive search leaf) verifies" "[ $? -eq 0 ]"

# Parts and merge: the decision split three ways; the parts' lines merge to the verdict (on their
# word), their certificate files verify as one proof and merge --cert makes them one certificate.
for i in 1 2 3; do
  "$P" armies --board 9 --size 13 --part $i/3 --cert "$T/part$i.json" >"$T/line$i.json"
done
check "part results are one JSON line each on stdout; each part's certificate file a proof in parts" \
  "[ \$(cat \"$T\"/line?.json | wc -l) -eq 3 ] && jq -e '.claim == \"infeasible\"' \"$T\"/part?.json >/dev/null"
"$P" merge "$T/line1.json" "$T/line2.json" "$T/line3.json" --cert "$T/nope.json" >/dev/null 2>&1
check "merge --cert of the lines of an infeasible decision: exit 2, no certificate" "[ $? -eq 2 ] && [ ! -e \"$T/nope.json\" ]"
"$P" merge "$T/line1.json" "$T/line2.json" "$T/line3.json" >"$T/m"
check "merge of all parts: impossible, on the parts' word" "[ $? -eq 0 ] && grep -q \"impossible.*on the parts' word\" \"$T/m\""
"$P" merge --cert "$T/merged.json" "$T/part1.json" "$T/part2.json" "$T/part3.json" >"$T/m"
check "merge --cert of the parts' files: checked, one certificate" "[ $? -eq 0 ] && grep -q '^valid: .*in 3 files' \"$T/m\""
"$P" verify "$T/merged.json" >/dev/null 2>&1
check "the merged certificate verifies" "[ $? -eq 0 ]"
"$P" merge "$T/line1.json" "$T/line3.json" >/dev/null 2>"$T/e"
check "a missing part: no conclusion (exit 3), named" "[ $? -eq 3 ] && grep -q 'part 2/3' \"$T/e\""
"$P" merge "$T/part1.json" "$T/part1.json" "$T/part2.json" "$T/part3.json" >/dev/null 2>&1
check "a part given twice: exit 2" "[ $? -eq 2 ]"
"$P" armies --board 9 --size 12 --part 1/3 >"$T/other.json"
"$P" merge "$T/other.json" "$T/part2.json" "$T/part3.json" >/dev/null 2>&1
check "parts of different splits: exit 2" "[ $? -eq 2 ]"

# Checkpoints: a run stopped by a limit, then resumed, gives the answer of a whole run. (Making the
# split of 10x10 at 15 takes some 50,000 nodes, which count against --node-limit.)
"$P" armies --board 10 --size 15 --checkpoint "$T/ck.json" --node-limit 80000 --jobs 1 \
  >/dev/null 2>&1
check "a limited run with a checkpoint: exit 3, checkpoint written" "[ $? -eq 3 ] && [ -s \"$T/ck.json\" ]"
out=$("$P" armies --board 10 --size 15 --resume "$T/ck.json" --checkpoint "$T/ck.json" --json)
check "resumed: impossible, as a whole run says" "echo '$out' | grep -q '\"feasible\":false'"
# A checkpoint that cannot be written while the parts run ends the run (after 5 s, its first
# write), what was found printed, not proven; a run whose parts all end keeps its answer, and the
# last write failed is said after it. Either way exit 2. (Which one a run meets depends on its
# time: under sanitizers 12x12 may pass 5 s, and so may a count of 3 s on a loaded machine. Each
# branch is checked whole.)
mkdir "$T/gone"
meanwhile 0.3 'rm -rf "$T/gone"' armies --board 14 --jobs 1 --checkpoint "$T/gone/c.json" --json \
  --quiet
check "a checkpoint that cannot be written: exit 2, said, and the army found printed, not proven" \
  "[ $rc -eq 2 ] && grep -q 'cannot write' '$T/err' && ! grep -q 'answer above is complete' '$T/err' &&
   [ \$(wc -l <'$T/out') -eq 1 ] && jq -e '.optimal == false and .size >= 20' '$T/out' >/dev/null"
# ended: not complete; whole: complete, the last write's failure said once, after the answer.
ended() { jq -e "$1" "$T/out" >/dev/null && ! grep -q 'answer above is complete' "$T/err"; }
whole() {
  jq -e "$1" "$T/out" >/dev/null && [ "$(grep -c 'cannot write' "$T/err")" -eq 1 ] &&
    [ "$(tail -n 1 "$T/err")" = "peaceable: armies: --checkpoint \"$T/gone/c.json\": the answer above \
is complete, but its last checkpoint could not be written (said above): the file holds an earlier \
stage, or nothing" ]
}
mkdir "$T/gone"
meanwhile 0.3 'rm -rf "$T/gone"' armies --board 12 --jobs 1 --checkpoint "$T/gone/c.json" --json \
  --quiet
check "12x12 (1.3 s), its last checkpoint not written: exit 2, the maximum proven, said after it" \
  "[ $rc -eq 2 ] && [ \$(wc -l <'$T/out') -eq 1 ] && grep -q 'cannot write' '$T/err' &&
   { whole '.optimal and .size == 21' || { light && ended '.optimal == false and .size >= 17'; }; }"
# A run of several stages (sizes of 12x12 from 1, each well under 5 s): after the stage whose
# last write failed, the next one is not started (it went on to the end unsaved). The directory
# goes once the first stage has written the checkpoint (a fixed delay could pass before the run
# has even started on a loaded machine).
mkdir "$T/gone"
meanwhile 0 'for i in $(seq 500); do [ -e "$T/gone/c.json" ] && break; sleep 0.01; done
  rm -rf "$T/gone"' armies --board 12 --jobs 1 --local-moves 0 --checkpoint "$T/gone/c.json" \
  --json --quiet
check "12x12 by stages, its checkpoint gone: the next stage not started, exit 2, not proven" \
  "[ $rc -eq 2 ] && [ \$(wc -l <'$T/out') -eq 1 ] && jq -e '.optimal == false' '$T/out' >/dev/null &&
   { grep -q ': not started, a write of its checkpoint having failed (above)' '$T/err' ||
     { light && grep -q 'stopped, its checkpoint not written' '$T/err'; }; }"
# Knights stopped by a limit whose last write fails: exit 2, said so (exit 3, and "finished parts
# are in the checkpoint" of a directory that was gone).
mkdir "$T/gone"
meanwhile 1 'rm -rf "$T/gone"' armies --board 10 --piece N --size 41 --jobs 1 --time-limit 3 \
  --checkpoint "$T/gone/c.json" --quiet
check "knights --size 41 stopped, its checkpoint gone: exit 2, said, nothing claimed in the checkpoint" \
  "[ $rc -eq 2 ] && [ ! -s '$T/out' ] &&
   grep -q 'stopped by a checkpoint it could not write before size 41 was decided' '$T/err' &&
   ! grep -q 'finished parts are in the checkpoint' '$T/err'"
# The same for counts (two colours, 3 s; three, 38 s): the count, or its object with null.
for c in "12 --size 21:64" "8 --colours 3 --size 4:172968"; do
  mkdir "$T/gone"
  # shellcheck disable=SC2086
  meanwhile 0.3 'rm -rf "$T/gone"' armies --board ${c%:*} --count --jobs 1 \
    --checkpoint "$T/gone/c.json" --json --quiet
  check "--board ${c%:*} --count, its checkpoint not written: exit 2, said, the count or null" \
    "[ $rc -eq 2 ] && [ \$(wc -l <'$T/out') -eq 1 ] && grep -q 'cannot write' '$T/err' &&
     { whole '.count == ${c#*:}' || ended '.count == null'; }"
done
# (Under the sanitizers the first write, when a part ends past 5 s, came at 16 s on an idle
# machine and past 20 s beside other tests; the whole count takes minutes there.)
bound=20
light && bound=60
check "... the count of 38 s ended by its first write (after 5 s): null, within ${bound} s" \
  "[ \"\$(jq -c '[.count, .seconds < $bound]' '$T/out')\" = '[null,true]' ]"
# A count stopped before its maximum was proven says why: interrupted (it said "stopped"), or a
# limit; it prints what it found as a stopped maximum does ("N or more, not proven", as qn's count
# and its own JSON do; it printed nothing), and no count.
meanwhile 1 'kill -INT $pid' armies --board 9 --piece N --count --quiet
check "knights 9x9 --count, SIGINT before the maximum: exit 130, \"interrupted\", no count" \
  "[ $rc -eq 130 ] && one_message 'interrupted on 9x9 before the maximum was proven (' &&
   ! grep -q placements '$T/out'"
run 60 armies --board 9 --piece N --count --node-limit 10000 --quiet
check "... --node-limit 10000: exit 3, \"a limit stopped the run\", the army found, no count" \
  "[ $rc -eq 3 ] && one_message 'a limit stopped the run on 9x9 before the maximum was proven (' &&
   head -1 '$T/out' | grep -q '^armies of knights on 9x9: [0-9]* or more, not proven$' &&
   [ \$(wc -l <'$T/out') -eq 12 ] && ! grep -q placements '$T/out'"
run 60 armies --board 10 --list --node-limit 100
check "... a listing so stopped: exit 3, \"no list\" (it said \"no count\")" \
  "[ $rc -eq 3 ] && one_message 'before the maximum was proven (' && one_message ': no list' &&
   [ ! -s '$T/out' ]"
# With --cert, the witness found is kept as a maximum's is, and said so (it wrote nothing).
run 60 armies --board 11 --count --node-limit 1000 --cert "$T/cw.json" --quiet
"$P" verify "$T/cw.json" >"$T/v" 2>&1
check "--count --cert stopped before the maximum: exit 3, --cert holds the witness alone, valid" \
  "[ $rc -eq 3 ] && one_message 'holds the witness alone' && jq -e '.claim == \"feasible\"' '$T/cw.json' >/dev/null &&
   grep -q '^valid: armies of Q on 11x11: [0-9]* white and [0-9]* black fit (witness checked)$' '$T/v'"
run 60 armies --colours 3 --board 9 --count --node-limit 1000 --cert "$T/cw3.json" --quiet
"$P" verify "$T/cw3.json" >"$T/v" 2>&1
check "... the same with --colours 3, the army found printed" \
  "[ $rc -eq 3 ] && one_message 'holds the witness alone' &&
   head -1 '$T/out' | grep -q '^3 armies of queens on 9x9: [0-9]* or more of each colour, not proven$' &&
   grep -q '^valid: 3 armies of Q on 9x9: [0-9]* of each colour fit (witness checked)$' '$T/v'"
cp "$T/ck.json" "$T/ck-kept.json"
refuse "--checkpoint over a checkpoint not resumed: refused, the file kept" \
  "holds a checkpoint already: continue its run with --resume" armies --board 9 --size 12 \
  --checkpoint "$T/ck.json" --node-limit 20000 --jobs 1
check "... the checkpoint there is unchanged" "cmp -s '$T/ck.json' '$T/ck-kept.json'"
"$P" armies --board 10 --size 14 --resume "$T/ck.json" >/dev/null 2>&1
check "resuming another size: exit 2" "[ $? -eq 2 ]"
"$P" armies --board 9 --size 15 --resume "$T/ck.json" >/dev/null 2>&1
check "resuming on another board: exit 2" "[ $? -eq 2 ]"
# A resumed run that writes a certificate has the proof of every part: with --cert, checkpoints
# keep the finished parts' proof trees (issue 13, item 9); a checkpoint without is refused.
"$P" armies --board 10 --size 15 --resume "$T/ck.json" --checkpoint "$T/ck.json" \
  --cert "$T/nocert.json" >/dev/null 2>"$T/e"
check "--cert resuming a checkpoint without trees: exit 2, nothing written" \
  "[ $? -eq 2 ] && grep -q 'has no proof (a run without --cert finished it)' \"$T/e\" && [ ! -e \"$T/nocert.json\" ]"
"$P" armies --board 10 --size 15 --cert "$T/ckc.cert" --checkpoint "$T/ckc.json" \
  --node-limit 80000 --jobs 1 >/dev/null 2>&1
rc=$?
check "--cert --checkpoint stopped by a node limit: exit 3, the finished parts with their trees" \
  "[ $rc -eq 3 ] && grep -q '\"found\":false},[0-9]*,\"' \"$T/ckc.json\" && [ ! -e \"$T/ckc.cert\" ]"
# Resumed without --cert, it would finish parts without trees and could no longer certify.
cp "$T/ckc.json" "$T/ckc.before"
"$P" armies --board 10 --size 15 --checkpoint "$T/ckc.json" --resume "$T/ckc.json" --jobs 1 \
  >/dev/null 2>"$T/e"
check "that checkpoint resumed without --cert: exit 2, the checkpoint left as it was" \
  "[ $? -eq 2 ] && grep -q 'resume it with --cert' \"$T/e\" && cmp -s \"$T/ckc.json\" \"$T/ckc.before\""
"$P" armies --board 10 --size 15 --cert "$T/ckc.cert" --checkpoint "$T/ckc.json" \
  --resume "$T/ckc.json" --jobs 2 >/dev/null 2>&1
rc=$?
"$P" verify "$T/ckc.cert" >"$T/v" 2>&1
check "resumed with --cert: exit 0, the certificate verifies" \
  "[ $rc -eq 0 ] && grep -q '^valid' \"$T/v\""
"$P" armies --board 11 --cert "$T/ckm.cert" --checkpoint "$T/ckm.json" --method search \
  --node-limit 300000 --jobs 2 >/dev/null 2>&1
rc=$?
"$P" armies --board 11 --cert "$T/ckm.cert" --checkpoint "$T/ckm.json" --resume "$T/ckm.json" \
  --method search --jobs 2 >/dev/null 2>&1
rc2=$?
"$P" verify "$T/ckm.cert" >"$T/v" 2>&1
check "a maximum with --cert stopped (exit $rc), resumed (exit $rc2): its certificate verifies" \
  "[ $rc -eq 3 ] && [ $rc2 -eq 0 ] && grep -q 'maximum of equal armies is 17' \"$T/v\""
# Interrupted by SIGINT while proving the maximum, then resumed.
"$P" armies --board 11 --checkpoint "$T/ck2.json" --method search --jobs 2 >/dev/null 2>&1 &
pid=$!
sleep 0.5
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
check "SIGINT: exit 130 (or finished first)" "[ $rc -eq 130 ] || [ $rc -eq 0 ]"
out=$("$P" armies --board 11 --resume "$T/ck2.json" --method search --json 2>/dev/null)
check "resumed after SIGINT: maximum 17, optimal" "echo '$out' | grep -q '\"size\":17,\"optimal\":true'"

# The same in the default race (the integer program finds witnesses too; 13x13, still running
# after 0.8 s now that 11x11 is proven sooner; 11x11 after 0.3 s in a light run), resumed with
# the same file as --checkpoint and --resume: the run goes on from the finished parts (it used to
# refuse its own checkpoint, exit 3 and overwrite it), and the checkpoint's best is the best found.
big=13 big_max=24 nap=0.8
light && big=11 big_max=17 nap=0.3
"$P" armies --board $big --checkpoint "$T/ck3.json" --jobs 2 >"$T/race.out" 2>&1 &
pid=$!
sleep $nap
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
best=$(sed -n 's/.*"best":\([-0-9]*\).*/\1/p' "$T/ck3.json")
found=$(sed -n 's/.*interrupted on [0-9x]* before the proof: size \([0-9]*\) found.*/\1/p' "$T/race.out")
check "SIGINT in the race: exit 130, the checkpoint's best ($best) the size found (${found:-?})" \
  "[ $rc -eq 130 ] && [ -n '$found' ] && [ '$best' = '$found' ]"
cp "$T/ck3.json" "$T/ck3.orig"
sed 's/"nodes":\([0-9]\)/"nodes":1\1/' "$T/ck3.json" >"$T/ck3.edited"
cp "$T/ck3.edited" "$T/ck3.bad"
"$P" armies --board $big --checkpoint "$T/ck3.bad" --resume "$T/ck3.bad" >/dev/null 2>"$T/e"
rc=$?
check "an edited checkpoint: exit 2, one message, not overwritten" \
  "[ $rc -eq 2 ] && [ \$(wc -l <\"$T/e\") -eq 1 ] && grep -q 'damaged or edited' \"$T/e\" && cmp -s \"$T/ck3.bad\" \"$T/ck3.edited\" && ! cmp -s \"$T/ck3.orig\" \"$T/ck3.edited\""
out=$("$P" armies --board $big --checkpoint "$T/ck3.json" --resume "$T/ck3.json" --json 2>/dev/null)
whole=$("$P" armies --board $big --json 2>/dev/null)
check "resumed with the same --checkpoint file: maximum $big_max, optimal, as an uninterrupted run" \
  "echo '$out' | grep -q '\"size\":$big_max,\"optimal\":true' && echo '$whole' | grep -q '\"size\":$big_max,\"optimal\":true'"

# SIGINT during a long local search on a board whose split settles it (5x5: no part left to
# search): the run stops there, exit 130, the witness in the checkpoint. It used to go on to the
# proof and end "proven optimal", exit 0, as if no signal had come.
meanwhile 1 'kill -INT $pid' armies --board 5 --local-moves 2000000000 --checkpoint "$T/ck5.json"
check "5x5, SIGINT in a long local search: exit 130, \"not proven\", the checkpoint's best 4" \
  "[ $rc -eq 130 ] && grep -q 'not proven' '$T/out' && ! grep -q optimal '$T/out' &&
   jq -e '.best == 4' '$T/ck5.json' >/dev/null"
run 30 armies --board 5 --resume "$T/ck5.json" --json
check "... resumed: maximum 4, optimal" "jq -e '.size == 4 and .optimal' '$T/out' >/dev/null"

# A part run with a checkpoint, stopped and resumed: the line of the part run whole.
"$P" armies --board 10 --size 15 --part 2/3 --checkpoint "$T/pck.json" --node-limit 60000 \
  --jobs 1 --quiet >/dev/null
rc=$?
"$P" armies --board 10 --size 15 --part 2/3 --checkpoint "$T/pck.json" --resume "$T/pck.json" \
  --quiet >"$T/pck.line"
"$P" armies --board 10 --size 15 --part 2/3 --quiet >"$T/whole.line"
check "--part 2/3 stopped (exit $rc), resumed from its checkpoint: the line of a whole run, but \"checked\":false (its finished parts are the checkpoint's word)" \
  "[ $rc -eq 3 ] && grep -q '\"done\":true' \"$T/pck.line\" &&
   [ \"\$(jq -c .checked '$T/pck.line')\" = false ] &&
   [ \"\$(jq -c 'del(.checked, .digest)' '$T/pck.line')\" = \"\$(jq -c 'del(.digest)' '$T/whole.line')\" ]"

# A part relabelled: part 1/4 of an impossible decision presented as part 1/1 was merged into
# "impossible" from a quarter of the search; the subparts it covers give it away.
"$P" armies --board 7 --size 8 --part 1/4 | sed 's/"parts":4,/"parts":1,/' >"$T/relabelled"
"$P" merge "$T/relabelled" >"$T/out" 2>"$T/e"
check "merge of part 1/4 relabelled 1/1: exit 2, nothing claimed" \
  "[ $? -eq 2 ] && [ ! -s \"$T/out\" ] && grep -q 'subparts it covers' \"$T/e\""

# A part line whose witness is said to be found in another part's subpart (resealed): refused. It
# was merged, the witness (checked) credited to the other part.
RESEAL=${RESEAL:-$(dirname "$P")/tests/reseal}
"$P" armies --board 8 --size 9 --part 1/2 --jobs 1 | jq -c '.at = (.at + 1)' >"$T/at1"
"$RESEAL" "$T/at1"
"$P" armies --board 8 --size 9 --part 2/2 --jobs 1 >"$T/at2"
refuse "merge of a part whose witness is credited to a subpart of the other part: exit 2" \
  "part 1/2: its witness is said to be of a part it does not cover" merge "$T/at1" "$T/at2"
# The same in a checkpoint: a finished subpart whose witness is said to be of another.
"$P" armies --board 10 --size 14 --jobs 1 --checkpoint "$T/atck" --quiet >/dev/null
jq -c '.done |= map(if .[1].found then .[1].at = (.[1].at + 1) else . end)' "$T/atck" >"$T/atck2"
"$RESEAL" "$T/atck2"
refuse "a checkpoint whose witness is said to be of another subpart: exit 2" \
  "its witness is said to be of another part" armies --board 10 --size 14 --jobs 1 \
  --resume "$T/atck2"

# Counts of line pieces run in parts through the engine: the same totals and classes with any
# number of threads, in parts merged, and resumed after SIGINT from the same checkpoint file.
strip_s() { sed 's/,"seconds":[0-9.]*//'; }
c1=$("$P" armies --board 8 --count --size 8 --jobs 1 --json | strip_s)
c2=$("$P" armies --board 8 --count --size 8 --jobs 2 --json | strip_s)
check "--count --jobs 2: the totals and classes of --jobs 1 ($c1)" \
  "[ -n '$c1' ] && [ '$c1' = '$c2' ] && echo '$c1' | grep -q '\"count\":286858,\"unique\":35993,\"unique_colour\":17999'"
for i in 1 2 3; do "$P" armies --board 8 --count --size 8 --part $i/3 >"$T/cp$i"; done
check "--count --part 1/3: one sealed line with its counts" \
  "grep -q '\"counting\":true,.*\"part\":1,\"parts\":3,\"covered\":[0-9]*,\"done\":true,\"count\":[0-9]*,\"fixed\":[0-9]*,\"fixed_colour\":[0-9]*,\"nodes\":[0-9]*,\"digest\":\"[0-9a-f]*\"}\$' \"$T/cp1\""
whole=$("$P" armies --board 8 --count --size 8)
merged=$("$P" merge "$T/cp3" "$T/cp1" "$T/cp2")
check "--count in 3 parts merged: every count and class of the whole count, on the parts' word" \
  "[ \"\$(echo \"$merged\" | sed 's/ (on the parts.*)\$//')\" = \"$whole\" ] && echo \"$merged\" | grep -qF \"(on the parts' word: not checked;\""
"$P" merge "$T/cp1" "$T/cp2" >/dev/null 2>"$T/e"
check "--count parts merged with one missing: exit 3" "[ $? -eq 3 ] && grep -q 'part 3/3 is missing' \"$T/e\""
# 10x10 at 13 (9x9 at 11 in a light run).
count="--board 10 --count --size 13"
light && count="--board 9 --count --size 11"
whole=$("$P" armies $count --jobs 2)
"$P" armies $count --jobs 1 --checkpoint "$T/cck" >/dev/null 2>&1 &
pid=$!
sleep 0.2
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
parts=$(grep -c '^\[' "$T/cck")
out=$("$P" armies $count --checkpoint "$T/cck" --resume "$T/cck")
# (The count resumed says that it rests in part on the checkpoint's word.)
word=" (resumed: in part on the checkpoint's word, not checked)"
check "--count: SIGINT (exit $rc, $parts parts done), resumed from the same --checkpoint file: the whole count" \
  "[ $rc -eq 130 ] && [ \"\$(echo \"$out\" | sed \"s/\$word//\")\" = \"$whole\" ] &&
   echo \"$out\" | grep -qF \"\$word\" && [ \$(grep -c '^\[' \"$T/cck\") -gt $parts ]"
# A count at the maximum with --checkpoint (it needed --size K): stopped while finding the maximum
# (the checkpoint of its decisions), resumed and stopped while counting (the count's, which says
# its maximum), resumed to the end: the whole count, its maximum on the checkpoint's word. 9x9:
# the maximum 12 in 91,187 nodes, the count in 333,121 in all.
k9="--board 9 --count --jobs 1 --method search --quiet"
whole=$("$P" armies $k9 --json | jq -c '[.size, .count, .unique, .unique_colour]')
"$P" armies $k9 --checkpoint "$T/k9" --node-limit 30000 >/dev/null 2>"$T/e1"
rc1=$?
grep -q '"counting"' "$T/k9" && stage1=count || stage1=maximum
"$P" armies $k9 --checkpoint "$T/k9" --resume "$T/k9" --node-limit 150000 >/dev/null 2>"$T/e2"
rc2=$?
grep -q '"maximum":12,' "$T/k9" && stage2=count || stage2=maximum
run 60 armies $k9 --checkpoint "$T/k9" --resume "$T/k9" --json
check "--count at the maximum, stopped in its maximum ($stage1), then in its count ($stage2), resumed: the whole count, on the checkpoint's word" \
  "[ $rc1 -eq 3 ] && [ $stage1 = maximum ] && [ $rc2 -eq 3 ] && [ $stage2 = count ] && [ $rc -eq 0 ] &&
   [ \"\$(jq -c '[.size, .count, .unique, .unique_colour]' '$T/out')\" = '$whole' ] && jq -e '.checked == false' '$T/out' >/dev/null"
refuse "a plain maximum resumed from a count's checkpoint: refused" "a checkpoint of a count" \
  armies --board 9 --resume "$T/k9"
"$P" armies --board 8 --size 9 --count --checkpoint "$T/s9" --node-limit 1000 --quiet >/dev/null 2>&1
refuse "a count at the maximum resumed from a count's at --size K: refused, --size named" \
  "resume it with its --size" armies --board 8 --count --resume "$T/s9"

# Limits: an honest status, exit 3, never "optimal".
"$P" armies --board 10 --node-limit 100 --method search --json >"$T/lim" 2>"$T/limerr"
rc=$?
check "node limit: exit 3" "[ $rc -eq 3 ]"
check "node limit: not optimal" "grep -q '\"optimal\":false' \"$T/lim\" && grep -q 'not proven' \"$T/limerr\""
# ... and knights keep to it (they checked it every 65,536 nodes: 131,099 for a limit of 1).
# --method ilp proves the maximum of a count too, as in qn (it was searched, "proved_by":"search"),
# and the count's certificate still verifies (its proof searched again).
run 60 armies --board 5 --count --method ilp --cert "$T/ilp5.json" --json
check "--count --method ilp: the maximum proven by GLPK, the count as by search" \
  "[ $rc -eq 0 ] && jq -e '.proved_by == \"ilp\" and .size == 4 and .count == 18' '$T/out' >/dev/null"
verdict "... its certificate verifies" 0 "valid: armies of Q on 5x5: 18 placements" "$T/ilp5.json"
# A node limit below the number of boards still limits each (the first board's share was 0, no
# limit: 11x11 was proven, 923,697 nodes past a limit of 1).
run 60 armies --table 11..12 --node-limit 1 --jobs 1 --json --quiet
check "--table 11..12 --node-limit 1: exit 3, both rows not proven, a few thousand nodes each" \
  "[ $rc -eq 3 ] && [ \"\$(jq -c 'select(has(\"board\")) | [.optimal, .nodes < 20000]' '$T/out' | tr -d '\n')\" = '[false,true][false,true]' ]"
# ... and so does each message of a count table and of an aggressor table ("counting stopped by a
# limit: no total" twice, "the largest aggressor not proven" three times, no board named).
run 60 armies --table 5..9 --node-limit 20000 --count --jobs 1 --quiet
check "a count table stopped by --node-limit: every message names its board" \
  "[ $rc -eq 3 ] && [ \$(wc -l <'$T/err') -ge 2 ] && ! grep -qv ' on [0-9]*x[0-9]* ' '$T/err'"
run 60 armies --table 4..6 --aggressor --node-limit 500 --jobs 1 --quiet
check "an aggressor table stopped by --node-limit: every message names its board" \
  "[ $rc -eq 3 ] && [ \$(wc -l <'$T/err') -eq 3 ] && ! grep -qv ' on [456]x[456] before the proof' '$T/err'"
# A table's boards stopped by a limit: each message names its board (it named none).
run 60 armies --table 9..10 --node-limit 3000 --quiet
check "a table stopped by --node-limit: exit 3, a message for each board, naming it" \
  "[ $rc -eq 3 ] && [ \$(grep -c 'a limit stopped the run on' '$T/err') -eq 2 ] &&
   grep -q 'on 9x9 before the proof' '$T/err' && grep -q 'on 10x10 before the proof' '$T/err'"
run 60 armies --board 8 --piece N --node-limit 1 --jobs 1 --json --quiet
check "knights 8x8 --node-limit 1: exit 3, at most 2 nodes (it took 131,099)" \
  "[ $rc -eq 3 ] && jq -e '.optimal == false and .nodes <= 2' '$T/out' >/dev/null"
# The split's own nodes count against the limit: 11x11 at 13 took 5,099 nodes, 5,000 or so of
# them making the split, and answered under --node-limit 1000, exit 0.
run 60 armies --board 11 --size 13 --node-limit 1000 --jobs 1 --json --quiet
check "11x11 --size 13 --node-limit 1000: exit 3, no answer (the split alone passes the limit)" \
  "[ $rc -eq 3 ] && ! grep -q feasible '$T/out' && grep -q 'before size 13 was decided' '$T/err'"
run 60 armies --board 11 --size 13 --node-limit 20000 --jobs 1 --json --quiet
check "... --node-limit 20000: the witness, its nodes the split's and the parts'" \
  "[ $rc -eq 0 ] && jq -e '.feasible and .nodes > 1000 and .nodes <= 20000' '$T/out' >/dev/null"
# The integer program stops at the node limit too (its branch-and-bound nodes), and the colours'.
run 60 armies --board 10 --node-limit 1 --method ilp --jobs 1 --local-moves 0
check "node limit with --method ilp: exit 3, not proven" "[ $rc -eq 3 ] && grep -q 'not proven' '$T/err'"
run 60 armies --colours 3 --board 7 --node-limit 1 --method ilp --jobs 1 --local-moves 0
check "node limit with --colours 3 --method ilp: exit 3" "[ $rc -eq 3 ]"
# An infeasible --size draws the empty board, captioned.
run 60 armies --board 4 --size 3 --svg "$T/none.svg"
check "--svg of an infeasible size: the empty board" "[ $rc -eq 0 ] && grep -q 'no placement' '$T/none.svg'"
# Counts and lists of line pieces look at the limits and signals while they visit the placements
# of a leaf (rooks 8x8, 6 against 6, ran past 600 s with --time-limit 2, and past SIGTERM).
run 30 armies --board 8 --piece R --size 6 --count --time-limit 1 --jobs 1
check "rooks count with --time-limit 1: exit 3 at once, no total" \
  "[ $rc -eq 3 ] && grep -q 'no total' '$T/err' && ! grep -q placements '$T/out'"
run 30 armies --board 6 --piece R --size 4 --count --node-limit 1000
check "rooks count with --node-limit: exit 3, no total" "[ $rc -eq 3 ] && ! grep -q placements '$T/out'"
# Parts smaller than the solver's interval of polls: the engine counts their nodes and checks the
# limits between parts (10x10 at 14 takes 1.28 million nodes in parts of a few thousand).
run 60 armies --board 10 --size 14 --count --node-limit 100000 --jobs 1 --json --quiet
check "queens 10x10 --size 14 --count --node-limit 100000: exit 3, no total (\"count\":null)" \
  "[ $rc -eq 3 ] && [ \$(wc -l <'$T/out') -eq 1 ] && grep -q '\"count\":null,' '$T/out' && grep -q 'no total' '$T/err'"
run 60 armies --board 10 --count --node-limit 500000 --jobs 1 --quiet
check "a count stopped after its maximum was proven: the maximum printed as its own run prints it, no total" \
  "[ $rc -eq 3 ] && grep -q '^armies of queens on 10x10: maximum 14, proven optimal by search (no placement of 15)' '$T/out' && ! grep -q placements '$T/out' && grep -q 'no total' '$T/err'"
run 60 armies --board 10 --count --node-limit 500000 --jobs 1 --quiet --cert "$T/c10.json"
check "... with --cert: the maximum's certificate, said so, and it verifies" \
  "[ $rc -eq 3 ] && grep -q 'holds the size' '$T/err' && '$P' verify '$T/c10.json' | grep -q 'the maximum of equal armies is 14'"
run 60 armies --board 10 --size 14 --count --part 1/2 --node-limit 100000 --jobs 1 --json --quiet
check "its --part 1/2 under the same limit: not done, exit 3, and says so" \
  "[ $rc -eq 3 ] && jq -e '.done == false' '$T/out' >/dev/null && grep -q 'part 1/2 stopped by a limit' '$T/err'"
run 60 armies --board 8 --size 8 --list --json --node-limit 2000 --jobs 1 --quiet
check "a listing stopped by a node limit: exit 3, its lines, then listed and complete false" \
  "[ $rc -eq 3 ] && lines=\$(grep -c placement '$T/out') && tail -n 1 '$T/out' | jq -e \".listed == \$lines and .complete == false and (has(\\\"count\\\") | not)\" >/dev/null && grep -q 'listed, no total' '$T/err'"
run 60 armies --board 10 --size 15 --part 1/2 --node-limit 1000 --jobs 1 --quiet
check "a decision's --part 1/2 stopped by a node limit: exit 3, says so" \
  "[ $rc -eq 3 ] && jq -e '.done == false' '$T/out' >/dev/null && grep -q 'part 1/2 stopped by a limit: its line says \"done\":false' '$T/err'"
run 30 armies --board 11 --size 6 --list --time-limit 0.5 --jobs 1
check "queens list with --time-limit 0.5: exit 3" "[ $rc -eq 3 ]"
timeout -s KILL 30 "$P" armies --board 8 --piece R --size 6 --count --jobs 2 >"$T/out" 2>"$T/err" &
pid=$!
sleep 1
kill -TERM $pid 2>/dev/null
wait $pid
check "rooks count stopped by SIGTERM: exit 130, no total" "[ $? -eq 130 ] && ! grep -q placements '$T/out'"
# --white W: the witness holds exactly W white pieces (the local search's had more; with no black
# army the white one was missing), and its certificate verifies.
for args in "--board 5 --piece N --white 9" "--board 6 --piece B --white 15" "--board 5 --white 13"; do
  run 60 armies $args --cert "$T/w.json" --json
  white=$(jq -r .witness "$T/out" | tr -cd 'QKRBN' | wc -c)
  want=$(echo "$args" | sed 's/.*--white //')
  check "armies $args: a witness of $want white, certified" \
    "[ $rc -eq 0 ] && [ $white -eq $want ] && \"\$P\" verify '$T/w.json' >/dev/null"
done
run 60 armies --board 6 --piece B --white 15 --jobs 1 --checkpoint "$T/wck.json"
run 60 armies --board 6 --piece B --white 15 --jobs 1 --resume "$T/wck.json"
check "--white: its checkpoint (a witness of W white) resumes" \
  "[ $rc -eq 0 ] && grep -q 'face at most 18 black: proven' '$T/out'"
run 60 armies --colours 3 --board 5 --size 2 --svg "$T/c3.svg"
check "--colours --svg of an infeasible size: the empty board" \
  "[ $rc -eq 0 ] && grep -q 'no placement' '$T/c3.svg'"
run 30 armies --board 14 --white 20 --time-limit 1 --jobs 1
check "--white stopped by a limit: 'B black or more, not proven', no upper bound claimed" \
  "[ $rc -eq 3 ] && grep -q 'black or more, not proven' '$T/out' && ! grep -q 'at most' '$T/out'"
# A table of counts stopped by its time limit still prints a row for every board, its count "-".
run 60 armies --table 10..12 --count --time-limit 2 --jobs 1
check "--table --count stopped: a row for every board, no count where stopped, exit 3" \
  "[ $rc -eq 3 ] && [ \$(grep -c '^ *1[0-2]x1[0-2] ' '$T/out') -eq 3 ] && grep -q ' -  *- *-$' '$T/out'"
refuse "--table with --list: refused (it was ignored)" "no --board or --list" armies --table 1..3 \
  --list
"$P" armies --board 10 --count --node-limit 100 --method search >"$T/lim2" 2>&1
check "node limit while counting: exit 3, no total" "[ $? -eq 3 ] && grep -q 'no count\|no total' \"$T/lim2\""

# Bad input: exit 2 and a message naming the value.
for args in "--piece Z" "--board 0" "--size 40" "--size -1" "--table 0..3" "--table 5..2" \
  "--white 3 --size 2" "--method magic" "--jobs 0" "--part 4/3 --size 3" "--part 1/2" \
  "--piece N --part 1/2 --size 3" "--resume /nonexistent" "--format csv" \
  "--table 1..3 --format xml" "--count --svg x.svg" "--board 7 --size 8 --part 1/2 --svg x.svg"; do
  # shellcheck disable=SC2086
  "$P" armies $args >/dev/null 2>"$T/e"
  check "armies $args: exit 2 with one message" "[ $? -eq 2 ] && [ \$(wc -l <\"$T/e\") -eq 1 ]"
done

refuse "--table with --board: refused (each side has its own row)" "takes no --board" armies \
  --table 3..4 --board 5
refuse "--table with --size, no --count: refused" "nor --size but with --count" armies \
  --table 3..4 --size 2
run 60 armies --table 4..5 --count --size 2 --quiet
check "--table --count --size 2: a count a board, under \"size\", no proof claimed" \
  "[ $rc -eq 0 ] && head -1 '$T/out' | grep -q '^board    size  proof' && grep -q '^  5x5       2  -  .* 3004 ' '$T/out'"
# Issue 14, messages: one placement is "1 placement", not "1 placements".
run 60 armies --board 2 --count --quiet
check "--count of one placement: \"1 placement\"" \
  "[ $rc -eq 0 ] && head -1 '$T/out' | grep -qx '1 placement of 0 against 0 on 2x2 (the maximum)'"
# Kings and knights count by the Russian-doll search (test_armies checks it against the sum
# over every white set): the 7x7 counts, which the square-by-square search before it took 16 s
# (kings) and 169 s (knights) to give, the same values in seconds; 8x8's kings (472) and
# knights (52) follow (that search gave no total in 300 s).
run 20 armies --board 7 --piece N --count --json --quiet
check "knights 7x7 --count: 20 placements of 18 against 18, 3 classes, 2 with colour exchange" \
  "[ $rc -eq 0 ] && jq -e '.size == 18 and .count == 20 and .unique == 3 and .unique_colour == 2' '$T/out' >/dev/null"
run 20 armies --board 7 --piece K --count --json --quiet
check "kings 7x7 --count: 4 placements of 21 against 21, 1 class" \
  "[ $rc -eq 0 ] && jq -e '.size == 21 and .count == 4 and .unique == 1 and .unique_colour == 1' '$T/out' >/dev/null"
# The limits stop a count of kings or knights while it visits the black armies of one white army
# (millions of placements of 3 against 3 on 8x8).
run 30 armies --board 8 --piece K --size 3 --count --time-limit 1 --quiet
check "kings 8x8 --size 3 --count --time-limit 1: stopped, exit 3, no total" \
  "[ $rc -eq 3 ] && one_message 'no total' && [ ! -s '$T/out' ]"
run 30 armies --board 8 --piece N --size 3 --count --node-limit 100000 --quiet
check "knights 8x8 --size 3 --count --node-limit 100000: stopped, exit 3, no total" \
  "[ $rc -eq 3 ] && one_message 'no total' && [ ! -s '$T/out' ]"
# A long count of kings shows its progress on a terminal (nodes, rate, time; there are no parts).
if command -v script >/dev/null 2>&1; then
  timeout -s KILL 120 script -qc "'$P' armies --board 10 --piece K --count" /dev/null >"$T/tty"
  check "kings 10x10 --count on a terminal: progress with nodes and rate, in the style of every message, then the count" \
    "grep -q 'peaceable: armies: count of kings 10x10, 44 against 44: [0-9.e+]* nodes, [0-9.e+]* nodes/s' '$T/tty' && grep -q '768 placements of 44 against 44' '$T/tty'"
else
  ok "kings 10x10 --count on a terminal: progress # SKIP script not installed"
fi
# Progress keeps one clock from the command's start (the local search's seconds count), and a
# time limit says when it stops the run. (Not under sanitizers: their local search may take the
# whole limit, leaving no parts to show.)
if light; then
  ok "progress: one clock over the run # SKIP under sanitizers"
else
  run 30 armies --board 14 --time-limit 5 --jobs 1
  ls_secs=$(sed -n 's/.*local search: [0-9]* in \([0-9]*\)\..*/\1/p' "$T/err")
  el_secs=$(sed -n 's/.*parts, .* \([0-9]*\) s elapsed, .*; the time limit stops it in [0-9]* s$/\1/p' "$T/err" | head -1)
  check "progress: elapsed counts from the command's start, the time limit's stop said" \
    "[ $rc -eq 3 ] && [ -n '$ls_secs' ] && [ -n '$el_secs' ] && [ '$el_secs' -ge '$ls_secs' ] && [ '$el_secs' -ge 1 ]" || show
fi
run 30 armies --table 1..8 --piece K --count --format csv --quiet
check "kings --table 1..8 --count: a count a board, 8x8's 472 placements of 27 against 27" \
  "[ $rc -eq 0 ] && grep -q '^8,27,.*,472,59,30' '$T/out'"
tap_end
