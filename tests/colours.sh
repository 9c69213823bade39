#!/bin/sh
# colours.sh: armies --colours C (TAP): the maxima of three colours of queens against OEIS A328283,
# decisions, the same answer on any number of threads, in parts merged, after a resume; and the
# options --colours does not take refused with one message.
. "${srcdir:-$(dirname "$0")/..}/tests/tap.sh"
RESEAL=${RESEAL:-$(dirname "$P")/tests/reseal}

# OEIS A328283: three equal armies of queens on n x n, n = 1..8 (the terms go on 5, 7, 8, ...).
want="0 0 0 1 1 2 3 4"
run 120 armies --colours 3 --table 1..8 --json --quiet
got=$(jq -r 'select(has("board")) | .size' "$T/out" | tr '\n' ' ' | sed 's/ $//')
check "three colours of queens, n = 1..8: A328283 ($got)" "[ $rc -eq 0 ] && [ '$got' = '$want' ]"
proven=$(jq -s '.[:8] | all(.optimal)' "$T/out")
check "every term proven, the table complete" "[ '$proven' = true ] &&
  tail -n 1 '$T/out' | grep -q '\"colours\":3,\"table\":\"1..8\",\"boards\":8,\"complete\":true,'"

# A limit ends a board, not the table: every board keeps its row, the stopped ones not proven.
run 120 armies --colours 3 --table 5..10 --node-limit 200000 --jobs 1 --json --quiet
check "a table stopped by a node limit: all 6 rows, 5x5 to 7x7 proven, 10x10 not, exit 3" \
  "[ $rc -eq 3 ] && [ \$(wc -l < '$T/out') -eq 7 ] && jq -se '[.[:6][].optimal] == [true, true, true, false, false, false] and .[5].board == \"10x10\" and .[5].size >= 5 and .[6].boards == 6 and .[6].complete == false' '$T/out' >/dev/null"
run 120 armies --colours 3 --table 5..10 --count --node-limit 200000 --jobs 1 --json --quiet
check "a count table stopped by a node limit: all 6 rows, the stopped ones with count null, exit 3" \
  "[ $rc -eq 3 ] && [ \$(wc -l < '$T/out') -eq 7 ] && jq -se '.[0].count == 1224 and .[1].count == 26136 and ([.[2:6][] | .count == null] | all) and .[2].optimal and (.[5].optimal | not) and .[6].complete == false' '$T/out' >/dev/null"
run 120 armies --colours 3 --table 6..9 --count --node-limit 200000 --jobs 1 --quiet
check "its text rows: 6 counted, the stopped boards with '-', the unproven marked +" \
  "[ $rc -eq 3 ] && grep -qE '^  6x6 +2  search +[0-9.]+ +26136 ' '$T/out' && grep -qE '^  7x7 +3  search +[0-9.]+ +- +- +-$' '$T/out' && grep -qE '^  9x9 +[0-9]+\\+ none +[0-9.]+ +- +- +-$' '$T/out'"

# --format, as for two colours (it was refused): the b-file of the maxima is A328283's, CSV rows
# as two armies' (a stopped board's counts empty), the same counts as the text table.
bfile=$("$P" armies --colours 3 --table 1..8 --format bfile --quiet | tr '\n' ' ')
check "--format bfile: A328283, n = 1..8" "[ '$bfile' = '1 0 2 0 3 0 4 1 5 1 6 2 7 3 8 4 ' ]"
run 60 armies --colours 3 --table 4..6 --count --format csv --quiet
check "--count --format csv: the header and the counts of the text table" \
  "[ $rc -eq 0 ] && [ \"\$(head -1 '$T/out')\" = n,maximum,proven,proof,seconds,count,unique,unique_colour ] && grep -qE '^4,1,true,search,[0-9.]+,144,18,3\$' '$T/out' && grep -qE '^6,2,true,search,[0-9.]+,26136,3318,560\$' '$T/out'"
run 60 armies --colours 3 --table 5..7 --count --node-limit 200000 --jobs 1 --format csv --quiet
check "--count --format csv stopped by a limit: the stopped board's counts empty, exit 3" \
  "[ $rc -eq 3 ] && grep -qE '^6,2,true,search,[0-9.]+,26136,3318,560\$' '$T/out' && grep -qE '^7,3,true,search,[0-9.]+,,,\$' '$T/out'"
bfile=$("$P" armies --colours 3 --table 3..6 --count --format bfile --quiet | tr '\n' ' ')
check "--count --format bfile: the classes up to symmetry and colour permutation" \
  "[ '$bfile' = '3 1 4 3 5 26 6 560 ' ]"
bfile=$("$P" armies --colours 3 --table 5..10 --format bfile --node-limit 200000 --jobs 1 --quiet |
  tr '\n' ' ')
check "--format bfile under a limit: proven rows only (5x5 to 7x7, as in JSON above)" \
  "[ '$bfile' = '5 1 6 2 7 3 ' ]"

# --export-lp and --export-mps, as for two colours (they were refused): the integer program of the
# size after the maximum, or of --size K, also when a limit stops the run; GLPK's own solver
# (glpsol, an outside program) finds the first without solution and the second with one.
run 30 armies --colours 3 --board 4 --export-lp "$T/c4.lp" --export-mps "$T/c4.mps" --quiet
check "--export-lp, --export-mps: the model of 2 of each colour after the maximum 1 on 4x4" \
  "[ $rc -eq 0 ] && grep -q '^ size2:' '$T/c4.lp' && grep -q ' = 2\$' '$T/c4.lp' &&
   grep -q MAXIMIZE '$T/c4.mps'"
run 30 armies --colours 3 --board 4 --size 1 --export-mps "$T/c41.mps" --quiet
if command -v glpsol >/dev/null 2>&1; then
  check "glpsol: the model of 2 on 4x4 has no solution" \
    "glpsol --lp '$T/c4.lp' 2>&1 | grep -q 'PROBLEM HAS NO INTEGER FEASIBLE SOLUTION'"
  check "glpsol: the model of --size 1 on 4x4 has one" \
    "glpsol --freemps '$T/c41.mps' 2>&1 | grep -q 'INTEGER OPTIMAL SOLUTION FOUND'"
  run 60 armies --colours 4 --board 5 --piece R --export-lp "$T/r5.lp" --quiet
  check "glpsol: 4 armies of rooks on 5x5, the model after the maximum has no solution" \
    "[ $rc -eq 0 ] && glpsol --lp '$T/r5.lp' 2>&1 | grep -q 'PROBLEM HAS NO INTEGER FEASIBLE SOLUTION'"
  # More colours than squares: the model of 1 of each (it overran its rows' arrays and aborted).
  run 30 armies --colours 4 --piece R --board 1 --export-lp "$T/r1.lp" --quiet
  check "4 armies of rooks on 1x1: the model of 1 of each written, no solution (it aborted)" \
    "[ $rc -eq 0 ] && glpsol --lp '$T/r1.lp' 2>&1 | grep -q 'NO .*FEASIBLE SOLUTION'"
fi
run 60 armies --colours 3 --board 12 --size 11 --node-limit 1000 --jobs 1 --export-lp "$T/s11.lp"
check "--size 11 on 12x12 stopped by a limit: its model still written, exit 3" \
  "[ $rc -eq 3 ] && grep -q '^ size2:' '$T/s11.lp' && grep -q ' = 11\$' '$T/s11.lp'"
refuse "--colours --count --export-lp: refused as for two colours" "not to --count" \
  armies --colours 3 --board 4 --count --export-lp "$T/x.lp"

run 60 armies --colours 3 --board 8 --quiet
check "8x8: the maximum 4 of each colour, proven, drawn and written" \
  "[ $rc -eq 0 ] && grep -q '^3 armies of queens on 8x8: maximum 4 of each colour, proven optimal by search (no placement of 5)' '$T/out' && grep -qE '^[.123/]+\$' '$T/out'"
run 60 armies --colours 3 --board 7 --size 3 --json --quiet
w=$(jq -r .witness "$T/out")
check "7x7 size 3: found, its witness three colours of 3 with no attack" \
  "[ $rc -eq 0 ] && jq -e '.feasible' '$T/out' >/dev/null && [ \$(echo '$w' | tr -cd 1 | wc -c) -ge 3 ] && [ \$(echo '$w' | tr -cd 3 | wc -c) -ge 3 ]"
run 60 armies --colours 3 --board 7 --size 4 --json --quiet
check "7x7 size 4: impossible" "[ $rc -eq 0 ] && jq -e '.feasible == false' '$T/out' >/dev/null"
run 60 armies --colours 4 --board 6x4 --piece B --json --quiet
check "four colours of bishops on 6x4 (a rectangle): 3 each" \
  "[ $rc -eq 0 ] && jq -e '.size == 3 and .colours == 4 and .piece == \"B\"' '$T/out' >/dev/null"

a=$("$P" armies --colours 3 --board 8 --size 4 --json --jobs 1 --quiet | jq -c '{feasible, witness}')
b=$("$P" armies --colours 3 --board 8 --size 4 --json --jobs 2 --quiet | jq -c '{feasible, witness}')
check "the same witness on 1 and 2 threads" "[ -n '$a' ] && [ '$a' = '$b' ]"

for k in 3 4; do
  for i in 1 2 3; do
    "$P" armies --colours 3 --board 7 --size $k --part $i/3 --quiet >"$T/p$k-$i.json"
  done
  run 30 merge "$T/p$k-1.json" "$T/p$k-2.json" "$T/p$k-3.json" --json
  whole=$("$P" armies --colours 3 --board 7 --size $k --json --quiet | jq -c .feasible)
  check "7x7 size $k in 3 parts, merged: as one run; a witness checked, impossible on the parts' word" \
    "[ $rc -eq 0 ] && [ \"\$(jq -c .feasible '$T/out')\" = '$whole' ] && jq -e '.checked == .feasible' '$T/out' >/dev/null"
done
# One part of one: "1 part", for the proof and for the count.
"$P" armies --colours 3 --board 6 --size 3 --part 1/1 --quiet >"$T/one"
"$P" armies --colours 3 --board 6 --size 1 --count --part 1/1 --quiet >"$T/onec"
run 30 merge "$T/one"
mv "$T/out" "$T/one.out"
run 30 merge "$T/onec"
check "merged from part 1/1: \"proven by 1 part\", \"(1 part;\"" \
  "grep -q 'impossible, proven by 1 part (' '$T/one.out' && grep -q '(1 part; ' '$T/out'"
# The witness of the lowest part that found one, as one run finds it, in any order of the files.
whole=$("$P" armies --colours 3 --board 7 --size 3 --json --quiet | jq -r .witness)
a=$("$P" merge "$T/p3-3.json" "$T/p3-1.json" "$T/p3-2.json" --json | jq -r .witness)
b=$("$P" merge "$T/p3-2.json" "$T/p3-3.json" "$T/p3-1.json" --json | jq -r .witness)
check "7x7 size 3 merged in two orders: the one run's witness both times" \
  "[ -n '$whole' ] && [ '$a' = '$whole' ] && [ '$b' = '$whole' ]"
run 30 merge "$T/p3-1.json" "$T/p3-2.json" "$T/p3-3.json"
check "... its text names the part that found it, as for two armies (it named none)" \
  "[ $rc -eq 0 ] && grep -q 'possible (part [123]/3; the witness checked)' '$T/out'"
# A part's witness edited so that two colours share a row: refused, not passed on.
sed 's/"witness":"1/"witness":"2/' "$T/p3-1.json" >"$T/forged.json"
"$RESEAL" "$T/forged.json"
run 30 merge "$T/forged.json" "$T/p3-2.json" "$T/p3-3.json"
check "a part's witness that is not peaceable: refused (exit 2)" "[ $rc -eq 2 ] && ! grep -q possible '$T/out'"
# merge --cert: a part's witness makes a certificate (as two armies'); an impossibility on the
# parts' word makes none.
run 30 merge --cert "$T/m3.json" "$T/p3-1.json" "$T/p3-2.json" "$T/p3-3.json"
check "merge --cert of 7x7 size 3 decision parts: the witness's certificate, and it verifies" \
  "[ $rc -eq 0 ] && '$P' verify '$T/m3.json' | grep -q '^valid: 3 armies of Q on 7x7: 3 of each colour fit'"
refuse "merge --cert of 7x7 size 4 decision parts (none): refused, exit 2" \
  "impossible only on their word" merge --cert "$T/m4.json" \
  "$T/p4-1.json" "$T/p4-2.json" "$T/p4-3.json"
check "... no certificate written" "[ ! -e '$T/m4.json' ]"
run 30 merge "$T/p4-1.json" "$T/p4-2.json"
check "a part missing: no answer (exit 3)" "[ $rc -eq 3 ] && ! grep -q impossible '$T/out'"

# With --cert, a checkpoint keeps every finished part's proof tree: resumed without --cert it is
# refused (the parts done then would have none), resumed with it the certificate verifies.
run 60 armies --colours 3 --board 8 --size 5 --checkpoint "$T/cc.json" --cert "$T/cc.cert" \
  --node-limit 50000 --jobs 1 --quiet
check "8x8 size 5 with --cert stopped by a node limit: exit 3, no certificate yet" \
  "[ $rc -eq 3 ] && [ -s '$T/cc.json' ] && [ ! -e '$T/cc.cert' ]"
run 60 armies --colours 3 --board 8 --size 5 --resume "$T/cc.json" --checkpoint "$T/cc.json" \
  --jobs 1 --quiet
check "resumed without --cert: refused (exit 2)" "[ $rc -eq 2 ] && grep -q 'resume it with --cert' '$T/err'"
run 60 armies --colours 3 --board 8 --size 5 --resume "$T/cc.json" --checkpoint "$T/cc.json" \
  --cert "$T/cc.cert" --jobs 1 --quiet
verdict "resumed with --cert: its certificate verifies" 0 \
  "valid: 3 armies of Q on 8x8: 5 of each colour do not fit" "$T/cc.cert"
# A decision stopped by the node limit, then resumed from its checkpoint, as the manual says.
run 60 armies --colours 3 --board 8 --size 5 --node-limit 20000 --checkpoint "$T/ck.json" --quiet
check "8x8 size 5 stopped by the node limit: exit 3, a checkpoint kept" "[ $rc -eq 3 ] && [ -s '$T/ck.json' ]"
run 120 armies --colours 3 --board 8 --size 5 --checkpoint "$T/ck.json" --resume "$T/ck.json" --json --quiet
check "resumed: impossible" "[ $rc -eq 0 ] && jq -e '.feasible == false' '$T/out' >/dev/null"
sed 's/"size":5/"size":6/' "$T/ck.json" >"$T/bad.json"
refuse "an edited checkpoint: refused" "bad.json" armies --colours 3 --board 8 --size 5 \
  --checkpoint "$T/bad.json" --resume "$T/bad.json"

# A maximum keeps a checkpoint too (it needed --size K): each size's finished parts with the best
# army so far, so that a run stopped is resumed where it was, and a table's boards each in F.n.
run 60 armies --colours 3 --board 8 --node-limit 150000 --jobs 1 --checkpoint "$T/mx.ck" --quiet
check "the maximum on 8x8 stopped by a node limit: exit 3, not proven, the checkpoint kept" \
  "[ $rc -eq 3 ] && grep -q 'or more of each colour, not proven' '$T/out' &&
   grep -q 'finished part.* in the checkpoint' '$T/err' &&
   jq -e '.colours == 3 and .size == .best + 1 and (.best_witness | type) == \"string\"' '$T/mx.ck'"
run 60 armies --colours 3 --board 8 --jobs 1 --resume "$T/mx.ck" --checkpoint "$T/mx.ck" --json \
  --quiet
check "resumed: the maximum 4 (A328283), proven, on the checkpoint's word" \
  "[ $rc -eq 0 ] && jq -e '.size == 4 and .optimal and .checked == false' '$T/out' >/dev/null"
run 60 armies --colours 3 --board 8 --jobs 1 --resume "$T/mx.ck" --quiet
check "resumed again, in text: said to rest on the checkpoint's word" \
  "[ $rc -eq 0 ] && grep -q 'maximum 4 of each colour, proven optimal by search (no placement of 5) (resumed: in part on the checkpoint' '$T/out'"
run 60 armies --colours 3 --board 8 --node-limit 150000 --jobs 1 --checkpoint "$T/mc.ck" \
  --cert "$T/mc.json" --quiet
run 60 armies --colours 3 --board 8 --jobs 1 --resume "$T/mc.ck" --checkpoint "$T/mc.ck" \
  --cert "$T/mc2.json" --quiet
verdict "a maximum with --cert stopped and resumed with it: its certificate verifies" 0 \
  "valid: 3 armies of Q on 8x8: 4 of each colour fit (witness checked), 5 do not (190 cubes" \
  "$T/mc2.json"
jq -c '.best_witness = "123../...../...../...../....."' "$T/mx.ck" >"$T/mxf.ck"
"$RESEAL" "$T/mxf.ck"
refuse "a maximum's checkpoint whose best army attacks (resealed): refused, exit 2" \
  "its best army is not" armies --colours 3 --board 8 --resume "$T/mxf.ck"
jq -c '.best = .size' "$T/mx.ck" >"$T/mxs.ck"
"$RESEAL" "$T/mxs.ck"
refuse "a maximum's checkpoint whose best is its size (resealed): refused, exit 2" \
  "malformed checkpoint (best, best_witness, size)" armies --colours 3 --board 8 --resume "$T/mxs.ck"
jq -c '.best = .size - 2 | .size = .size - 1' "$T/mx.ck" >"$T/mxm.ck"
"$RESEAL" "$T/mxm.ck"
refuse "a maximum's checkpoint whose best army holds its size under way (resealed): refused" \
  "its best army has more than" armies --colours 3 --board 8 --resume "$T/mxm.ck"
refuse "a checkpoint of --size K resumed as a maximum: refused, the way said" \
  "resume it with that --size" armies --colours 3 --board 8 --resume "$T/ck.json"
refuse "... by two armies: refused, --colours named" "resume it with its --colours C" \
  armies --board 8 --resume "$T/mx.ck"
refuse "... with another number of colours: refused" "another board, piece or number of colours" \
  armies --colours 4 --board 8 --resume "$T/mx.ck"
run 60 armies --colours 3 --table 6..8 --node-limit 150000 --jobs 1 --checkpoint "$T/tm" --quiet \
  --format bfile
check "a table of maxima with checkpoints stopped: 6x6 and 7x7 proven, exit 3, a file a board" \
  "[ $rc -eq 3 ] && [ \"\$(cat '$T/out' | tr '\\n' ' ')\" = '6 2 7 3 ' ] && [ -s '$T/tm.8' ]"
run 60 armies --colours 3 --table 6..8 --jobs 1 --resume "$T/tm" --checkpoint "$T/tm" --quiet \
  --format bfile
check "resumed: every board proven (A328283)" \
  "[ $rc -eq 0 ] && [ \"\$(cat '$T/out' | tr '\\n' ' ')\" = '6 2 7 3 8 4 ' ]"

# The witness finder: three colours of queens on 12x12 to 16x16 at the best published armies
# (A328283: 12: 10, 13: 12, 14: 14; 15: 16, 16: 18 in published tables), as the starting size,
# each army checked here square by square with jq-free shell: no row holds two colours. A node
# limit of 1 stops the search right after the finder (a time limit would cut the finder too).
for nk in 12:10 13:12 14:14 15:16 16:18; do
  side=${nk%:*} k=${nk#*:}
  run 60 armies --colours 3 --board $side --node-limit 1 --jobs 1 --json --quiet
  check "${side}x$side: the finder's army of $k of each colour at once, not proven" \
    "[ $rc -eq 3 ] && jq -e '.size >= $k and .optimal == false' '$T/out' >/dev/null"
done
w=$(jq -r .witness "$T/out")
rows_ok=$(echo "$w" | tr '/' '\n' | awk '{c = ""; for (i = 1; i <= length($0); i++) { x = substr($0, i, 1);
  if (x != ".") { if (c != "" && c != x) bad = 1; c = x } } } END {print bad ? "no" : "yes"}')
check "its rows hold one colour each" "[ '$rows_ok' = yes ]"
a=$("$P" armies --colours 3 --board 14 --node-limit 1 --seed 7 --json --quiet 2>/dev/null | jq -r .witness)
b=$("$P" armies --colours 3 --board 14 --node-limit 1 --seed 7 --json --quiet 2>/dev/null | jq -r .witness)
check "the same seed, the same army" "[ -n '$a' ] && [ '$a' = '$b' ]"

# Certificates: written, verified, and every kind of forgery refused.
run 60 armies --colours 3 --board 7 --cert "$T/c7.json" --quiet
verdict "7x7: the maximum's certificate verifies" 0 \
  "valid: 3 armies of Q on 7x7: 3 of each colour fit (witness checked), 4 do not" "$T/c7.json"
"$P" armies --colours 3 --board 7 --size 4 --cert "$T/i7.json" --quiet >/dev/null
verdict "7x7 size 4: the certificate of infeasibility verifies" 0 \
  "valid: 3 armies of Q on 7x7: 4 of each colour do not fit" "$T/i7.json"
"$P" armies --colours 4 --board 6x4 --piece B --cert "$T/b.json" --quiet >/dev/null
verdict "four colours of bishops on 6x4: verifies" 0 "valid: 4 armies of B on 6x4: 3 of each" "$T/b.json"
forge() { # forge DESCRIPTION JQ-FILTER NEEDLE: the edited certificate is refused (exit 1)
  jq -c "$2" "$T/c7.json" >"$T/forged.json"
  verdict "$1" 1 "invalid: .*$3" "$T/forged.json"
}
forge "a maximum one lower, the same proof: refused" '.size = 2' "not 2"
forge "a smaller claim proven by the same trees: refused" '.size = 2 | .infeasible.size = 3 | .witness = "......1/......1/.3...../.33..../....22./.....2./1......"' "witness"
forge "a cube removed: refused" '.infeasible.cubes |= .[1:] | .infeasible.trees |= .[1:]' "in no cube"
forge "a cube not in first-use order: refused" '.infeasible.cubes[0] |= (.[0:-1] + "2")' "first-use order"
forge "a cube given twice: refused" '.infeasible.cubes[1] = .infeasible.cubes[0]' "twice"
forge "a subtree left out without reason: refused" '.infeasible.trees |= map(sub(",\\.\\.";",.-"))' "left out without a reason"
forge "a leaf where the bounds do not close: refused" \
  '.infeasible.trees |= (. as $t | ($t | map(length) | index(max)) as $i | $t | .[$i] = ".")' \
  "does not close"
forge "a witness with two colours on a line: refused" '.witness |= sub("1";"2")' "witness"
forge "four colours claimed with three colours' trees: refused" '.colours = 4' ""
forge "a split line that is not the piece's: refused" '.piece = "R"' ""
# verify --jobs: the trees on threads, the verdict of one thread checking them in order. Two
# trees broken (the second and the last that are not a leaf): every number of threads names the
# first of them.
for j in 1 2 3; do
  "$P" verify --jobs $j "$T/c7.json" >"$T/v$j" 2>&1
done
check "7x7: the same verdict on 1, 2 and 3 threads" \
  "grep -q '^valid: ' '$T/v1' && cmp -s '$T/v1' '$T/v2' && cmp -s '$T/v1' '$T/v3'"
jq -c '.infeasible.trees |= (. as $t | [range(0; $t | length) | select($t[.] | length > 1)] as $big |
  [range(0; $t | length)] | map(if . == $big[1] or . == $big[-1] then "." else $t[.] end))' \
  "$T/c7.json" >"$T/two.json"
for j in 1 2 3; do
  "$P" verify --jobs $j "$T/two.json" >"$T/w$j" 2>&1
done
first=$(jq '.infeasible.trees | [range(0; length) as $i | select(.[$i] | length > 1) | $i] | .[1]' \
  "$T/c7.json" 2>/dev/null)
check "two trees broken: the first named on 1, 2 and 3 threads (tree $first)" \
  "grep -q '^invalid: tree $first (' '$T/w1' && cmp -s '$T/w1' '$T/w2' && cmp -s '$T/w1' '$T/w3'"

# Counts (tests/test_colours checks them against a brute force): at the maximum, at --size, the
# same on 1 and 2 threads, in parts merged, after a resume, and none when a limit stops the run.
run 60 armies --colours 3 --board 6 --count --json --quiet
check "6x6: 26136 placements at the maximum 2, 3318 up to symmetry, 560 with colours" \
  "[ $rc -eq 0 ] && jq -e '.size == 2 and .optimal and .count == 26136 and .unique == 3318 and .unique_colour == 560' '$T/out' >/dev/null"
w=$(jq -r .witness "$T/out")
"$P" armies --colours 3 --board 6 --size 2 --list --quiet >"$T/list6"
check "6x6 count: its witness ($w) is one of the placements listed at the maximum" \
  "[ \$(wc -l <'$T/list6') -eq 26136 ] && grep -qx -- '$w' '$T/list6'"
run 60 armies --colours 3 --board 6 --count --quiet
check "6x6 in text: the three lines" \
  "[ $rc -eq 0 ] && grep -q '^26136 placements of 3 armies of 2 queens on 6x6 (the maximum)' '$T/out' && grep -q '^3318 up to symmetry\$' '$T/out' && grep -q '^560 up to symmetry and colour permutation\$' '$T/out'"
a=$("$P" armies --colours 3 --board 7 --size 2 --count --json --jobs 1 --quiet | jq -c '{count, unique, unique_colour}')
b=$("$P" armies --colours 3 --board 7 --size 2 --count --json --jobs 2 --quiet | jq -c '{count, unique, unique_colour}')
check "7x7 size 2: the same counts on 1 and 2 threads ($a)" "[ -n '$a' ] && [ '$a' = '$b' ]"
for i in 1 2 3; do
  "$P" armies --colours 3 --board 7 --size 2 --count --part $i/3 --quiet >"$T/n$i.json"
done
run 30 merge "$T/n1.json" "$T/n2.json" "$T/n3.json" --json
check "7x7 size 2 in 3 parts, merged: the same counts" \
  "[ $rc -eq 0 ] && [ \"\$(jq -c '{count, unique, unique_colour}' '$T/out')\" = '$a' ]"
sed 's/"count":\([0-9]*\)/"count":1\1/' "$T/n1.json" >"$T/forged.json"
"$RESEAL" "$T/forged.json"
run 30 merge "$T/forged.json" "$T/n2.json" "$T/n3.json"
check "a part's count edited (not a multiple of 3!): refused" "[ $rc -eq 2 ]"
run 30 merge "$T/n1.json" "$T/n2.json"
check "a count's part missing: no total (exit 3)" "[ $rc -eq 3 ] && ! grep -q placements '$T/out'"
run 60 armies --colours 3 --board 7 --size 2 --count --node-limit 5000 --checkpoint "$T/nk.json" --quiet
check "a count stopped by the node limit: exit 3, no total, a checkpoint kept" \
  "[ $rc -eq 3 ] && ! grep -q placements '$T/out' && [ -s '$T/nk.json' ]"
run 120 armies --colours 3 --board 7 --size 2 --count --checkpoint "$T/nk.json" --resume "$T/nk.json" --json --quiet
check "resumed: the same counts" \
  "[ $rc -eq 0 ] && [ \"\$(jq -c '{count, unique, unique_colour}' '$T/out')\" = '$a' ]"
run 60 armies --colours 3 --board 8 --count --node-limit 1000 --quiet
check "the count at the maximum stopped before the proof: exit 3, no total" \
  "[ $rc -eq 3 ] && ! grep -q placements '$T/out'"
# The node limit is the whole run's, not each decision's: 8x8 searched 46,522 nodes under
# --node-limit 30000, its decisions of 1, 2, 3 and 4 each given the 30,000.
run 60 armies --colours 3 --board 8 --local-moves 0 --node-limit 30000 --jobs 1 --json --quiet
check "--node-limit 30000 over the decisions of a maximum: exit 3, about 30,000 nodes in all" \
  "[ $rc -eq 3 ] && jq -e '.optimal == false and .nodes >= 30000 and .nodes < 33000' '$T/out' >/dev/null"

# Lists: every placement once, peaceable, in the same order on any number of threads and merged.
"$P" armies --colours 3 --board 5 --list --jobs 1 --quiet >"$T/l1.txt"
"$P" armies --colours 3 --board 5 --list --jobs 2 --quiet >"$T/l2.txt"
check "5x5: 1224 placements listed, all different, the same order on 1 and 2 threads" \
  "[ \$(wc -l <'$T/l1.txt') -eq 1224 ] && [ \$(sort -u '$T/l1.txt' | wc -l) -eq 1224 ] && cmp -s '$T/l1.txt' '$T/l2.txt'"
"$P" armies --colours 4 --board 5 --piece R --list --quiet >"$T/l4.txt"
n4=$("$P" armies --colours 4 --board 5 --piece R --count --json --quiet | jq .count)
check "4 colours of rooks on 5x5: as many listed as counted ($n4)" \
  "[ \$(sort -u '$T/l4.txt' | wc -l) -eq $n4 ] && [ \$(wc -l <'$T/l4.txt') -eq $n4 ]"
for i in 1 2; do
  "$P" armies --colours 3 --board 5 --size 1 --list --part $i/2 --quiet >"$T/lp$i.json"
done
run 30 merge "$T/lp1.json" "$T/lp2.json"
check "the list in 2 parts, merged: the same lines in the same order" "[ $rc -eq 0 ] && cmp -s '$T/out' '$T/l1.txt'"
check "... and that none is missing rests on the parts' word, said on stderr (it said nothing)" \
  "one_message \"that none is missing rests on the parts' word\""
refuse "merge --cert of list parts: refused, exit 2 (it wrote nothing and said nothing)" \
  "count certificates of armies of several colours come from one run" merge --cert "$T/lc.json" \
  "$T/lp1.json" "$T/lp2.json"
# Lines from files are checked: a part's or a checkpoint's line where colours attack is refused
# (they were printed unchecked: a forgery hunt's finding). Sealed again after the edit.
forge='if (.[3] | length) >= 30 then .[3] = "12.../...../...../...../....3\n" + .[3][30:] else . end'
jq -c ".texts |= map(if . == null then . else [.] | map([0, 0, 0, .] | $forge | .[3]) | .[0] end)" \
  "$T/lp1.json" >"$T/lpf.json"
"$RESEAL" "$T/lpf.json"
refuse "merge of list parts with a line where colours attack (resealed): refused, exit 2" \
  "line 1 of its text is not a placement of 3 armies of 1 queen in which no piece attacks one of" \
  merge "$T/lpf.json" "$T/lp2.json"
# Lines files edited and resealed: lines_edit (tests/tap.sh).
"$P" armies --colours 3 --board 5 --size 1 --list --checkpoint "$T/l.ck" --quiet >/dev/null
lines_edit '!done && / / { print; getline; print "12.../...../...../...../....3"; done = 1; next }
  { print }' "$T/l.ck" "$T/lf.ck"
refuse "a list's checkpoint with a line where colours attack (resealed): refused, exit 2" \
  "line 1 of its text is not a placement of 3 armies of 1 queen in which no piece attacks one of" \
  armies --colours 3 --board 5 --size 1 --list --resume "$T/lf.ck"
lines_edit '!done && / / && $2 >= 60 { print $1, $2 - 30; getline; done = 1; next } { print }' \
  "$T/l.ck" "$T/lfew.ck"
refuse "a list's checkpoint with a line dropped from a part (resealed): refused, exit 2" \
  "its text does not have the lines its outcome says it listed" \
  armies --colours 3 --board 5 --size 1 --list --resume "$T/lfew.ck"
lines_edit '!done && / / { left = $2 / 30; done = 1; next } left > 0 { left--; next } { print }' \
  "$T/l.ck" "$T/lnone.ck"
refuse "a list's checkpoint with a part's lines dropped whole (resealed): refused, exit 2" \
  "its text does not have the lines its outcome says it listed" \
  armies --colours 3 --board 5 --size 1 --list --resume "$T/lnone.ck"
refuse "a list's checkpoint resumed by a listing of classes: refused, the run named as one" \
  "(this run: listing of 3 armies of 1 Q on 5x5 with --unique," \
  armies --colours 3 --board 5 --size 1 --list --unique --resume "$T/l.ck"
# With --unique a part's lines are not a multiple of its count: a text dropped whole is caught
# on the whole list (it printed no line and "unique":153).
"$P" armies --colours 3 --board 5 --size 1 --list --unique --checkpoint "$T/lu.ck" --quiet \
  >/dev/null
lines_edit '!done && / / { left = $2 / 30; done = 1; next } left > 0 { left--; next } { print }' \
  "$T/lu.ck" "$T/lu2.ck"
run 30 armies --colours 3 --board 5 --size 1 --list --unique --resume "$T/lu2.ck" --json
check "a --unique list's checkpoint with texts dropped whole (resealed): exit 2, no summary" \
  "[ $rc -eq 2 ] && grep -q 'the lines listed are not as many as the finished parts' '$T/err' &&
   ! grep -q '\"unique\"' '$T/out'"
# dropped DESCRIPTION MEMBER BYTES PART1 PART2: part 1 with the first line (BYTES) of each text
# long enough dropped, resealed, merged with part 2: exit 2, no MEMBER in the summary.
dropped() {
  jq -c ".texts |= map(if . != null and length >= $(($3 * 2)) then .[$3:] else . end)" "$4" \
    >"$T/few.json"
  "$RESEAL" "$T/few.json"
  run 30 merge --json "$T/few.json" "$5"
  check "$1" "[ $rc -eq 2 ] && grep -q 'the lines listed are not as many as the parts say' '$T/err' &&
    ! grep -q '\"$2\"' '$T/out'"
}
dropped "merge of list parts with lines dropped (resealed): exit 2, the count refused" count 30 \
  "$T/lp1.json" "$T/lp2.json"

# --unique lists one placement of each class up to the board's symmetries: as many lines as the
# count's classes (which tests/test_colours.c holds against a brute force), all different, none
# the mirror image of another (7x7 size 2, 131937 lines, not in a light run).
big="--colours 3 --board 7 --size 2"
light && big=
for a in "--colours 3 --board 6" "--colours 4 --board 5 --piece R" "--colours 4 --board 6x4 --piece B" \
  ${big:+"$big"}; do
  u=$("$P" armies $a --count --json --quiet | jq .unique)
  "$P" armies $a --list --unique --quiet >"$T/u.txt"
  mirrors=$(awk -F/ '{ m = ""; for (i = 1; i <= NF; i++) { r = ""; for (j = length($i); j >= 1; j--)
    r = r substr($i, j, 1); m = m (i > 1 ? "/" : "") r } if (m != $0) print m }' "$T/u.txt" |
    sort | comm -12 - "$(sort "$T/u.txt" >"$T/us.txt"; echo "$T/us.txt")" | wc -l)
  check "armies $a --list --unique: $u lines, all different, no mirror image of another" \
    "[ -n '$u' ] && [ \$(wc -l <'$T/u.txt') -eq $u ] && [ \$(sort -u '$T/u.txt' | wc -l) -eq $u ] && [ $mirrors -eq 0 ]"
done
"$P" armies --colours 3 --board 6 --list --unique --jobs 1 --quiet >"$T/u1.txt"
for i in 1 2; do
  "$P" armies --colours 3 --board 6 --size 2 --list --unique --part $i/2 --quiet >"$T/up$i.json"
done
run 30 merge "$T/up1.json" "$T/up2.json"
check "--list --unique in 2 parts, merged: the same lines in the same order" \
  "[ $rc -eq 0 ] && cmp -s '$T/out' '$T/u1.txt'"
dropped "... with lines dropped from a part (resealed): exit 2, the classes refused" unique 42 \
  "$T/up1.json" "$T/up2.json"

# --svg draws the witness, each colour in a fill of its own.
run 60 armies --colours 3 --board 7 --svg "$T/w7.svg" --quiet
check "7x7 --svg: the witness drawn, 9 pieces" \
  "[ $rc -eq 0 ] && grep -q '<svg' '$T/w7.svg' && [ \$(grep -c '<text class=\"p\"' '$T/w7.svg') -ge 9 ]"
run 60 armies --colours 5 --board 8 --piece R --size 2 --svg "$T/w5.svg" --quiet
fills=$(grep -o 'fill="#[0-9a-f]*"' "$T/w5.svg" | sort -u | wc -l)
check "5 colours of rooks, 8x8 size 2 --svg: five fills for the pieces ($fills)" \
  "[ $rc -eq 0 ] && [ $fills -eq 5 ]"
if command -v xmllint >/dev/null 2>&1; then
  check "the pictures are well-formed XML" "xmllint --noout '$T/w7.svg' '$T/w5.svg' 2>/dev/null"
fi
refuse "--colours --svg with --count: refused" "--svg draws the witness of one board" armies \
  --colours 3 --board 5 --count --svg "$T/x.svg"
# With --list, the listing's first placements, as two armies and qn draw them (it was refused):
# 5x5's 153 classes of 1 of each colour, a board each; of its 1,224 placements, the first 256,
# and said so.
run 60 armies --colours 3 --board 5 --size 1 --list --unique --svg "$T/l5.svg"
check "--colours --list --unique --svg: a board for each of the 153 classes listed" \
  "[ $rc -eq 0 ] && [ \$(wc -l <'$T/out') -eq 153 ] && [ \$(grep -c '^<g>' '$T/l5.svg') -eq 153 ] &&
   [ ! -s '$T/err' ]"
run 60 armies --colours 3 --board 5 --size 1 --list --svg "$T/l5all.svg"
check "--colours --list --svg of 1,224 placements: the first 256, and said so" \
  "[ $rc -eq 0 ] && [ \$(grep -c '^<g>' '$T/l5all.svg') -eq 256 ] &&
   one_message 'draws the first 256 of the 1224 placements listed'"

refuse "--colours 1: refused" "--colours" armies --colours 1
run 30 armies --colours 3 --board 4 --size 1
check "one of each colour: '3 armies of 1 queen' (it said 1 queens)" \
  "[ $rc -eq 0 ] && head -1 '$T/out' | grep -q '^3 armies of 1 queen on 4x4: possible'"
run 30 armies --board 3 --piece N --white 1
check "one white knight: '1 white knight on 3x3 faces' (it said 1 white knights ... face)" \
  "[ $rc -eq 0 ] && head -1 '$T/out' | grep -q '^1 white knight on 3x3 faces at most 8 black'"
refuse "--colours 3 --aggressor: refused (it was ignored: the maximum printed)" \
  "--colours takes no --aggressor yet" armies --colours 3 --board 4 --aggressor
refuse "--colours 16: refused" "--colours" armies --colours 16
refuse "--colours 1025: the range it states is the true one (it said 2 to 1024)" \
  '--colours "1025": expected a whole number from 2 to 15' armies --colours 1025
# --unique alone counts: refused where --count is (--svg was dropped without a word, --method ilp
# counted by search).
refuse "--colours --unique --svg: refused as --count --svg is" "not --count" \
  armies --colours 3 --board 5 --unique --svg "$T/u.svg"
refuse "--colours --unique --method ilp: refused as --count --method ilp is" "run by search" \
  armies --colours 3 --board 5 --unique --method ilp
refuse "--colours with kings: refused" "--colours takes Q, R or B" armies --colours 3 --piece K
run 30 armies --colours 3 --board 5 --unique --json --quiet
check "--colours --unique without --list counts, as for two armies (it was refused)" \
  "[ $rc -eq 0 ] && jq -e '.count == 1224 and .unique == 153' '$T/out' >/dev/null"
refuse "--colours with --count and --list: refused" "exclude each other" armies --colours 3 \
  --count --list
refuse "--colours 5 --size 4 on 4x4 (20 pieces, 16 squares): refused" "do not fit on 16 squares" \
  armies --colours 5 --size 4 --board 4
refuse "--colours --count with --part but no --size: refused" "needs --size" armies --colours 3 \
  --count --part 1/2
refuse "--colours with --cert and --part: refused" "--cert takes one board" armies --colours 3 \
  --size 3 --part 1/2 --cert "$T/c.json"
refuse "--colours --count with a checkpoint but no --size: refused" "need --size" armies \
  --colours 3 --count --checkpoint "$T/x.json"
# Past 484 squares the exact search stops: a maximum is the witness finder's army alone (it was
# refused), marked not proven (exit 3), its certificate a claim that it fits; anything that needs
# the search is refused, a table of counts that reaches such a board at once.
run 60 armies --colours 3 --board 24 --json --quiet --cert "$T/f24.json" --local-moves 3000000
check "24x24, three colours: the finder's army, at least 36, not proven, exit 3" \
  "[ $rc -eq 3 ] && jq -e '.board == \"24x24\" and .optimal == false and .size >= 36' '$T/out' >/dev/null"
verdict "... its certificate: a claim that it fits, valid" 0 "valid: 3 armies of Q on 24x24: " \
  "$T/f24.json"
run 60 armies --colours 4 --board 23x25 --piece R --quiet --local-moves 1000000
check "23x25, four armies of rooks: a finder's army in text, not proven, said why, exit 3" \
  "[ $rc -eq 3 ] && grep -q '^4 armies of rooks on 23x25: [0-9]* or more of each colour, not proven' '$T/out' && grep -q 'past the exact search' '$T/err'"
run 60 armies --colours 3 --board 24 --local-moves 100000 --export-lp "$T/f24.lp" --quiet
size=$(head -1 "$T/out" | sed -n 's/.*: \([0-9]*\) or more.*/\1/p')
check "... --export-lp there: the model of the size after the finder's ($size + 1) written" \
  "[ $rc -eq 3 ] && [ -n '$size' ] && grep -q ' = $((size + 1))\$' '$T/f24.lp'"
# The armies of four colours doc/benchmarks.md records above a published table (its witnesses in
# doc/frontier): each verifies, and the finder finds as many again from its defaults.
SRC=${srcdir:-$(dirname "$0")/..}
for side in 28 29 30; do
  want=$(jq -r .size "$SRC/doc/frontier/colours4-${side}x$side.json")
  verdict "doc/frontier: 4 armies of $want queens on ${side}x$side" 0 \
    "valid: 4 armies of Q on ${side}x$side: $want of each colour fit (witness checked)" \
    "$SRC/doc/frontier/colours4-${side}x$side.json"
done
run 60 armies --colours 4 --board 28 --json --quiet
check "4 armies on 28x28 by the finder's defaults: 39, as recorded" \
  "[ $rc -eq 3 ] && jq -e '.size >= 39' '$T/out' >/dev/null"
refuse "--colours --size on a board past the search: refused" "at most 484 squares" armies \
  --colours 3 --board 23 --size 5
# ... and a table of counts that reaches one, at once (after the boards before it had run, and
# had taken their shares of the time with it).
refuse "--colours --table --count up to a board past the search: refused at once" \
  "(23x23 has 529" armies --colours 3 --table 21..23 --count --time-limit 60
# The integer program (--method ilp, GLPK) against the search: the same maxima, proven, for three
# to five colours of queens, rooks and bishops, and on rectangles; sizes it decides by itself.
for case in "3 Q 1..6" "4 Q 1..6" "5 Q 1..6" "3 R 1..5" "3 B 1..5" "4 B 1..5"; do
  set -- $case
  run 120 armies --colours $1 --piece $2 --table $3 --method ilp --json --quiet
  ilp=$(jq -r 'select(has("board")) | "\(.size) \(.optimal) \(.proved_by)"' "$T/out" | tr '\n' ' ')
  run 120 armies --colours $1 --piece $2 --table $3 --method search --json --quiet
  search=$(jq -r 'select(has("board")) | "\(.size) \(.optimal) ilp"' "$T/out" | tr '\n' ' ')
  check "$1 colours of $2 on $3: the integer program's maxima are the search's ($ilp)" \
    "[ -n '$ilp' ] && [ '$ilp' = '$search' ] && ! echo '$ilp' | grep -q false"
done
for b in 4x6 3x7 6x4; do
  got=$("$P" armies --colours 3 --board $b --method ilp --json --quiet | jq -r .size)
  want=$("$P" armies --colours 3 --board $b --json --quiet | jq -r .size)
  check "3 colours on $b: the integer program's maximum $got is the search's" "[ '$got' = '$want' ]"
done
run 60 armies --colours 3 --board 6 --size 2 --method ilp --json --quiet
w=$(jq -r .witness "$T/out")
check "6x6 size 2 by ilp: found, its witness with pieces of colours 1 and 3" \
  "[ $rc -eq 0 ] && [ \"\$(jq -r .feasible '$T/out')\" = true ] && [ \$(echo '$w' | tr -cd 1 | wc -c) -ge 2 ] && [ \$(echo '$w' | tr -cd 3 | wc -c) -ge 2 ]"
run 60 armies --colours 3 --board 6 --size 3 --method ilp --quiet
check "6x6 size 3 by ilp: impossible, proven by ilp" \
  "[ $rc -eq 0 ] && grep -q 'impossible, proven by ilp' '$T/out'"
refuse "--colours --method ilp with --count: refused" "run by search" armies --colours 3 \
  --method ilp --count
refuse "--colours --method race: refused" "search or ilp" armies --colours 3 --method race
# More than 10 colours: Hall's condition for every set of colours by a flow (the sets are too
# many to list), in the search and in the checker. On a 1xN board bishops attack nothing, so C
# colours of k fit exactly when C k <= N.
run 30 armies --colours 15 --board 1x32 --piece B --size 2 --time-limit 10 --jobs 1 --json --quiet
check "15 colours of bishops on 1x32, size 2: found within the time limit (none in 10 s before)" \
  "[ $rc -eq 0 ] && jq -e '.feasible' '$T/out' >/dev/null"
run 30 armies --colours 15 --board 1x32 --piece B --jobs 1 --json --quiet --cert "$T/many.json"
check "15 colours of bishops on 1x32: the maximum 2, proven" \
  "[ $rc -eq 0 ] && jq -e '.size == 2 and .optimal' '$T/out' >/dev/null"
verdict "its certificate verifies (Hall's condition for all 15 colours closes 3)" 0 \
  "valid: 15 armies of B on 1x32: 2 of each colour fit.*the maximum is 2$" "$T/many.json"
w=$(printf '%s/' 1 2 3 4 5 6 7 8 9 a b c d e f . . . . . . . . . . . . . . . . . | sed 's,/$,,')
jq -c --arg w "$w" '.size = 1 | .witness = $w | .infeasible.size = 2' "$T/many.json" >"$T/many1.json"
verdict "a forged proof that 2 do not fit there: invalid" 1 \
  "invalid: tree 0 (cube \"\"), at byte 0: a leaf's bound does not close it" "$T/many1.json"
run 60 armies --colours 12 --board 8x5 --piece B --jobs 1 --json --quiet --cert "$T/many2.json"
verdict "12 colours of bishops on 8x5: the maximum's certificate verifies" 0 \
  "valid: 12 armies of B on 8x5: .* fit (witness checked), .* do not (9 cubes, [0-9]* leaves checked)" \
  "$T/many2.json"

# The time limit holds on large boards, where one node of the search can take milliseconds (its
# knapsack bound): 22x22 once ran 7 to 12 s past --time-limit 1.
start=$(date +%s.%N)
run 60 armies --colours 3 --board 22 --piece B --size 100 --jobs 1 --time-limit 1
took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
check "22x22, 3 colours of 100 bishops, --time-limit 1: exit 3 within 4 s (took $took s)" \
  "[ $rc -eq 3 ] && awk -v t=$took 'BEGIN { exit !(t < 4) }'"
# ... and the witness finder's moves: 30x30 took its 18 million (2 s here, 10 s and more under
# sanitizers) whatever the limit; 20 million moves asked for are cut by the limit too.
start=$(date +%s.%N)
run 60 armies --colours 3 --board 30 --local-moves 20000000 --time-limit 0.5 --json --quiet
took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
check "30x30, 3 colours, --time-limit 0.5: the finder's army by then, exit 3 within 1.5 s (took $took s)" \
  "[ $rc -eq 3 ] && jq -e '.size >= 30' '$T/out' >/dev/null && awk -v t=$took 'BEGIN { exit !(t < 1.5) }'"
start=$(date +%s.%N)
run 60 armies --colours 3 --board 20 --local-moves 60000000 --time-limit 1 --jobs 1 --quiet
took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
check "20x20, 60 million moves, --time-limit 1: exit 3 within 2.5 s, the search had its half (took $took s)" \
  "[ $rc -eq 3 ] && awk -v t=$took 'BEGIN { exit !(t < 2.5) }'"

# A listing hands a long part's lines on as it goes: the first line comes at once, and --limit
# ends the run there. 9x9 at 3 held its first part's lines (533 MB after 40 s) and printed none;
# qn 14x14 at 8 likewise (3 GB after 15 s).
run 60 armies --board 9 --colours 3 --size 3 --list --limit 1 --jobs 1 --time-limit 30 --json --quiet
check "--colours 3 9x9 --size 3 --list --limit 1: one line, exit 0, well within the time limit" \
  "[ $rc -eq 0 ] && [ \$(grep -c placement '$T/out') -eq 1 ] &&
   jq -e 'select(has(\"listed\")) | .listed == 1 and .seconds < 20' '$T/out' >/dev/null"
run 60 qn --board 14 --size 8 --list --limit 1 --jobs 1 --time-limit 30 --json --quiet
check "qn 14x14 --size 8 --list --limit 1: one line, exit 0, well within the time limit" \
  "[ $rc -eq 0 ] && [ \$(grep -c placement '$T/out') -eq 1 ] &&
   jq -e 'select(has(\"listed\")) | .listed == 1 and .seconds < 20' '$T/out' >/dev/null"
tl=2
light && tl=20 # (under the sanitizers: time to find a first piece of lines to hand on)
run 60 qn --board 14 --size 9 --list --jobs 2 --time-limit $tl --json --quiet
check "qn 14x14 --size 9 --list stopped by --time-limit: the lines found so far, counted" \
  "[ $rc -eq 3 ] && lines=\$(grep -c placement '$T/out') && [ \$lines -gt 0 ] &&
   tail -n 1 '$T/out' | command jq -e --argjson n \$lines '.listed == \$n and .complete == false' >/dev/null"

# A count stopped after its maximum was proven: the maximum printed, as its own run prints it,
# and with --cert its certificate, said so (8x8: the maximum 4 proven in 253,325 nodes).
run 60 armies --colours 3 --board 8 --count --node-limit 1000000 --cert "$T/m8.json" --quiet --jobs 1
check "3 colours 8x8 --count stopped after the maximum: the maximum printed, its certificate kept and valid" \
  "[ $rc -eq 3 ] && grep -q 'maximum 4 of each colour, proven optimal' '$T/out' && grep -q 'holds the size' '$T/err' &&
   '$P' verify '$T/m8.json' | grep -q 'the maximum is 4'"
run 60 armies --colours 3 --board 8 --count --node-limit 300000 --json --quiet --jobs 1
check "... --node-limit 300000: the whole run's, the maximum's nodes and the count's (it took 556,429)" \
  "[ $rc -eq 3 ] && jq -e '.optimal and .count == null and .nodes >= 300000 and .nodes < 320000' '$T/out' >/dev/null"

# --table --count --size K, as for two armies: a row a board, none where K does not fit.
run 60 armies --colours 3 --table 2..5 --count --size 1 --json --quiet
one=$("$P" armies --colours 3 --board 5 --count --size 1 --json --quiet | jq -c '[.count, .unique, .unique_colour]')
check "--colours 3 --table 2..5 --count --size 1: 2x2 none, 5x5 as its own count, a summary" \
  "[ $rc -eq 0 ] && [ \$(grep -c '\"board\"' '$T/out') -eq 4 ] &&
   jq -e 'select(.board == \"2x2\") | .count == 0 and .feasible == false' '$T/out' >/dev/null &&
   [ \"\$(jq -c 'select(.board == \"5x5\") | [.count, .unique, .unique_colour]' '$T/out')\" = '$one' ] &&
   tail -n 1 '$T/out' | jq -e '.complete' >/dev/null"

# --size 0, as two armies and qn take it (it was refused by --colours alone): the empty board,
# possible, one placement; its certificate verifies; its parts merge; a count of it has no parts.
run 30 armies --colours 3 --board 4 --size 0 --json --cert "$T/zero.json"
check "--colours 3 --size 0: possible, the empty board its witness" \
  "[ $rc -eq 0 ] && jq -e '.size == 0 and .feasible and .witness == \"..../..../..../....\"' \
     '$T/out' >/dev/null"
verdict "--colours 3 --size 0 --cert: valid" 0 "valid: 3 armies of Q on 4x4: 0 of each colour fit" \
  "$T/zero.json"
run 30 armies --colours 3 --board 4 --size 0 --count --json
check "--colours 3 --size 0 --count: 1 placement, 1 class, 1 with colour permutation" \
  "[ $rc -eq 0 ] && jq -e '.count == 1 and .unique == 1 and .unique_colour == 1' '$T/out' >/dev/null"
run 30 armies --colours 3 --board 4 --size 0 --list
check "--colours 3 --size 0 --list: the empty board, one line" \
  "[ $rc -eq 0 ] && [ \"\$(cat '$T/out')\" = '..../..../..../....' ]"
"$P" armies --colours 3 --board 4 --size 0 --part 1/2 >"$T/z1"
"$P" armies --colours 3 --board 4 --size 0 --part 2/2 >"$T/z2"
run 30 merge --json "$T/z1" "$T/z2"
check "--colours 3 --size 0 in 2 parts, merged: possible, the witness checked" \
  "[ $rc -eq 0 ] && jq -e '.size == 0 and .feasible and .checked' '$T/out' >/dev/null"
refuse "--colours 3 --size 0 --count --part 1/2: refused, no parts to run" "runs no parts" \
  armies --colours 3 --board 4 --size 0 --count --part 1/2

tap_end
