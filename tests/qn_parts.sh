#!/bin/sh
# qn_parts.sh: qn in parts (TAP): --part I/N results merged by `peaceable merge` equal the plain
# answers; missing, duplicate, foreign and forged parts are refused; merge --cert verifies;
# checkpoints: a run stopped (by SIGINT or a limit) and resumed gives the answer of a whole run,
# and a checkpoint of another instance is refused.
P=${PEACEABLE:-./peaceable}
T=$(mktemp -d "${TMPDIR:-/tmp}/peaceable-qn-parts.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }
# check DESCRIPTION CONDITION (a shell command list, evaluated).
check() {
  if eval "$2"; then ok "$1"; else
    not_ok "$1"
    [ -s "$T/err" ] && sed 's/^/# stderr: /' "$T/err" | head -5
  fi
}
# parts DIR ARGS...: runs parts 1/3, 2/3 and 3/3 of `qn ARGS` into DIR/1 .. DIR/3.
parts() {
  dir=$1
  shift
  mkdir -p "$T/$dir"
  for i in 1 2 3; do "$P" qn "$@" --part $i/3 --quiet >"$T/$dir/$i" 2>"$T/err" || return 1; done
}
# counts TEXT: the "N placements" and "M up to symmetry" lines of a text answer.
counts() { echo "$1" | grep -E 'placements$|up to symmetry$'; }

# A feasible decision: 8x8 holds 5 queens and 5 knights.
parts feasible --board 8 --size 5
check "feasible decision: each part is one JSON line, done" \
  "[ \$(cat \"$T\"/feasible/? | wc -l) -eq 3 ] && [ \$(cat \"$T\"/feasible/? | grep -c '\"done\":true') -eq 3 ]"
out=$("$P" merge "$T"/feasible/3 "$T"/feasible/1 "$T"/feasible/2 --cert "$T/feasible.cert" 2>"$T/err")
rc=$?
plain=$("$P" qn --board 8 --size 5 --method search 2>/dev/null | head -1)
check "merged feasible decision: possible, as the plain run says" \
  "[ $rc -eq 0 ] && echo \"\$out\" | head -1 | grep -qF '5 queens and 5 knights: possible (part' &&
   echo \"$plain\" | grep -qF ': possible'"
check "merge --cert of a feasible decision verifies" \
  "\"$P\" verify \"$T/feasible.cert\" 2>\"$T/err\" | grep -q '^valid: .*fit (witness checked)'"
json=$("$P" merge --json "$T"/feasible/1 "$T"/feasible/2 "$T"/feasible/3)
case "$json" in
  '{"problem":"qn","board":"8x8","kinds":"QN","ratio":"1:1","size":5,"feasible":true,"witness":"'*'","checked":true,"parts":3,"nodes":'*'}')
    ok "merge --json: feasible, witness (checked), parts, nodes" ;;
  *) not_ok "merge --json: $json" ;;
esac

# An infeasible decision with subparts in every part: 11x11 holds no 8 and 8.
parts infeasible --board 11 --size 8
out=$("$P" merge "$T"/infeasible/? --cert "$T/infeasible.cert" 2>"$T/err")
rc=$?
plain=$("$P" qn --board 11 --size 8 --method search 2>/dev/null)
check "merged infeasible decision: impossible, as the plain run says" \
  "[ $rc -eq 0 ] && echo \"\$out\" | grep -qF '8 queens and 8 knights: none, proven impossible by 3 parts' &&
   echo \"$plain\" | grep -qF ': none, proven impossible'"
check "merge --cert of an infeasible decision: the whole cover, verified" \
  "\"$P\" verify \"$T/infeasible.cert\" 2>\"$T/err\" | grep -q '^valid: .*8 Q and 8 N do not fit (21 cubes, 21 searched'"
# Issue 13 item 8: merge says whether its conclusion was checked.
check "merge --cert: the conclusion checked, and said so" \
  "echo \"\$out\" | grep -qF 'nodes; checked: the certificate written verifies)'"
word=$("$P" merge --json "$T"/infeasible/? 2>/dev/null | jq -c .checked)
out=$("$P" merge "$T"/infeasible/? 2>/dev/null)
check "merge without --cert: on the parts' word, and said so" \
  "[ '$word' = false ] && echo \"\$out\" | grep -qF \"nodes; on the parts' word: not checked)\""
# A part's list of texts cut short ("found" false, the witness dropped, resealed): merge refuses
# it, since a part that decides nothing has a text (or null) for each subpart it covers.
sed -e 's/"found":true/"found":false/' -e 's/,"[.QN/]*"\]/]/' "$T"/feasible/1 >"$T/short1"
"$RESEAL" "$T/short1"
"$P" merge "$T/short1" "$T"/feasible/2 "$T"/feasible/3 >"$T/out" 2>"$T/err"
rc=$?
check "a part's texts cut short: refused, exit 2, no verdict" \
  "[ $rc -eq 2 ] && grep -qF 'part 1/3: its list of texts does not have one for each subpart' '$T/err' &&
   [ ! -s '$T/out' ]"
# Issue 13 item 8: a part's witness removed ("found" false, a null for every subpart it covers,
# resealed) makes the parts say "none": merge alone repeats their word (and says so); merge --cert
# checks first, finds a placement in a cube, prints no verdict but "invalid" and writes no
# certificate.
cov=$(sed -n 's/.*"covered":\([0-9]*\).*/\1/p' "$T"/feasible/1)
nulls=$(yes null | head -n "$cov" | paste -sd, -)
sed -e 's/"found":true/"found":false/' -e "s/\"texts\":\[[^]]*\]/\"texts\":[$nulls]/" \
  "$T"/feasible/1 >"$T/forged1"
"$RESEAL" "$T/forged1"
out=$("$P" merge "$T/forged1" "$T"/feasible/2 "$T"/feasible/3 2>/dev/null)
check "parts forged to none: merge says impossible, on the parts' word" \
  "echo \"\$out\" | grep -qF \"none, proven impossible by 3 parts\" && echo \"\$out\" | grep -qF \"nodes; on the parts' word: not checked)\""
"$P" merge "$T/forged1" "$T"/feasible/2 "$T"/feasible/3 --cert "$T/forged.cert" >"$T/out" 2>"$T/err"
rc=$?
check "the same with --cert: exit 1, 'invalid', no verdict, no certificate" \
  "[ $rc -eq 1 ] && grep -q '^invalid: cube' '$T/out' && ! grep -q 'impossible' '$T/out' && [ ! -e '$T/forged.cert' ]"

# A count, with its classes: 10x10 at size 6.
parts count --board 10 --size 6 --count
out=$("$P" merge "$T"/count/? 2>"$T/err")
rc=$?
plain=$("$P" qn --board 10 --size 6 --count --method search --quiet)
check "merged count equals the plain count (placements and up to symmetry)" \
  "[ $rc -eq 0 ] && [ -n \"\$(counts \"\$plain\")\" ] && [ \"\$(counts \"\$out\")\" = \"\$(counts \"\$plain\")\" ]"
check "the parts' counts are split: no part holds them all" \
  "! grep -q '\"count\":260888,' \"$T\"/count/?"
json=$("$P" merge --json "$T"/count/?)
case "$json" in
  *'"size":6,"feasible":true,"count":260888,"unique":32621,"checked":false,"parts":3,'*)
    ok "merge --json of counts: on the parts' word (checked false)" ;;
  *) not_ok "merge --json of counts: $json" ;;
esac
"$P" merge --cert "$T/c.json" "$T"/count/? >"$T/out" 2>"$T/err"
check "merge --cert of counts: exit 2, one message, no certificate" \
  "[ $? -eq 2 ] && [ \$(wc -l <\"$T/err\") -eq 1 ] && [ ! -s \"$T/out\" ] && [ ! -e \"$T/c.json\" ]"

# What merge refuses.
"$P" merge "$T"/count/1 "$T"/count/3 >"$T/out" 2>"$T/err"
check "a missing part: exit 3, no conclusion, the part named" \
  "[ $? -eq 3 ] && [ ! -s \"$T/out\" ] && [ \$(wc -l <\"$T/err\") -eq 1 ] && grep -q 'part 2/3 is missing' \"$T/err\""
"$P" merge "$T"/count/1 "$T"/count/2 "$T"/count/2 "$T"/count/3 >"$T/out" 2>"$T/err"
check "a part given twice: exit 2, one message" \
  "[ $? -eq 2 ] && [ ! -s \"$T/out\" ] && [ \$(wc -l <\"$T/err\") -eq 1 ] && grep -q 'twice' \"$T/err\""
"$P" qn --board 10 --size 5 --count --part 2/3 --node-limit 1000 >"$T/foreign" 2>/dev/null
"$P" merge "$T"/count/1 "$T/foreign" "$T"/count/3 >"$T/out" 2>"$T/err"
check "a part of another size (another split): exit 2, one message" \
  "[ $? -eq 2 ] && [ ! -s \"$T/out\" ] && [ \$(wc -l <\"$T/err\") -eq 1 ]"
"$P" merge "$T"/feasible/1 "$T"/count/2 "$T"/count/3 >"$T/out" 2>"$T/err"
check "a part of another board and kind of run: exit 2" "[ $? -eq 2 ] && [ ! -s \"$T/out\" ]"
sed 's/"parts":3,/"parts":1,/' "$T"/count/1 >"$T/relabelled"
"$P" merge "$T/relabelled" >"$T/out" 2>"$T/err"
check "part 1/3 of a count relabelled 1/1: exit 2, one message, no count" \
  "[ $? -eq 2 ] && [ ! -s \"$T/out\" ] && [ \$(wc -l <\"$T/err\") -eq 1 ] && grep -q 'subparts it covers' \"$T/err\""
sed 's/"split":"[0-9a-f]*"/"split":"0123456789abcdef"/' "$T"/count/2 >"$T/resplit"
"$P" merge "$T"/count/1 "$T/resplit" "$T"/count/3 >"$T/out" 2>"$T/err"
check "a part claiming another fingerprint: exit 2" "[ $? -eq 2 ] && [ ! -s \"$T/out\" ]"
# A forged witness: in the found part's text, the first two squares swapped (two queens then
# attack); edited, the line's digest no longer holds; resealed, merge checks the witness itself.
found=$(grep -l '"found":true' "$T"/feasible/? | head -1)
sed 's/\("texts":\[\(null,\)*"\)\(.\)\(.\)/\1\4\3/' "$found" >"$T/forged"
others=$(ls "$T"/feasible/? | grep -v "$found")
# shellcheck disable=SC2086
"$P" merge "$T/forged" $others >"$T/out" 2>"$T/err"
rc=$?
check "a forged witness, not resealed: exit 2, one message, nothing claimed" \
  "! cmp -s \"$T/forged\" \"$found\" && [ $rc -eq 2 ] && [ ! -s \"$T/out\" ] && [ \$(wc -l <\"$T/err\") -eq 1 ] && grep -q 'damaged or edited' \"$T/err\""
"$RESEAL" "$T/forged"
# shellcheck disable=SC2086
"$P" merge "$T/forged" $others >"$T/out" 2>"$T/err"
rc=$?
check "a forged witness (two squares swapped, resealed): exit 2, one message, nothing claimed" \
  "[ $rc -eq 2 ] && [ ! -s \"$T/out\" ] && [ \$(wc -l <\"$T/err\") -eq 1 ] && grep -q 'witness' \"$T/err\""
sed 's/"found":false/"found":true/' "$T"/infeasible/2 >"$T/claims"
"$RESEAL" "$T/claims"
"$P" merge "$T"/infeasible/1 "$T/claims" "$T"/infeasible/3 >"$T/out" 2>"$T/err"
check "a part claiming a witness it does not give (resealed): exit 2, one message" \
  "[ $? -eq 2 ] && [ ! -s \"$T/out\" ] && [ \$(wc -l <\"$T/err\") -eq 1 ]"
sed 's/"texts":\[null,/"texts":["Q",/' "$T"/infeasible/2 >"$T/texts"
"$RESEAL" "$T/texts"
"$P" merge "$T"/infeasible/1 "$T/texts" "$T"/infeasible/3 >"$T/out" 2>"$T/err"
check "a witness that is not a placement text (resealed): exit 2, one message" \
  "! cmp -s \"$T/texts\" \"$T\"/infeasible/2 && [ $? -eq 2 ] && [ ! -s \"$T/out\" ] && [ \$(wc -l <\"$T/err\") -eq 1 ]"

# A part stopped by a limit says so; merge then concludes nothing.
"$P" qn --board 10 --size 6 --count --part 1/2 --node-limit 1000 --jobs 1 >"$T/limited" 2>"$T/err"
check "a part stopped by a node limit: exit 3, \"done\":false, one message" \
  "[ $? -eq 3 ] && grep -q '\"done\":false' \"$T/limited\" && [ \$(wc -l <\"$T/err\") -eq 1 ]"
"$P" qn --board 10 --size 6 --count --part 2/2 --quiet >"$T/second"
"$P" merge "$T/limited" "$T/second" >"$T/out" 2>"$T/err"
check "merging an unfinished part: exit 3, no conclusion" \
  "[ $? -eq 3 ] && [ ! -s \"$T/out\" ] && grep -q 'part 1/2 did not finish' \"$T/err\""
# A decision's part stopped: merge says "no answer" (it said "no total", which a decision has not).
"$P" qn --board 10 --size 7 --part 1/2 --node-limit 1000 --jobs 1 >"$T/dlimited" 2>/dev/null
"$P" qn --board 10 --size 7 --part 2/2 --quiet >"$T/dsecond"
"$P" merge "$T/dlimited" "$T/dsecond" >"$T/out" 2>"$T/err"
check "merging a decision's unfinished part: exit 3, \"no answer\"" \
  "[ $? -eq 3 ] && [ ! -s \"$T/out\" ] && grep -q 'part 1/2 did not finish: no answer' \"$T/err\""
"$P" qn --board 10 --size 6 --count --part 1/2 --quiet >"$T/first"
for order in "first limited" "limited first"; do
  (cd "$T" && "$P" merge $order second) >"$T/out" 2>"$T/err"
  check "part 1/2 given twice, once unfinished ($order): exit 2, \"appears twice\"" \
    "[ $? -eq 2 ] && [ ! -s \"$T/out\" ] && grep -q 'part 1/2 appears twice' \"$T/err\""
done

# Size 0 (one subpart, the empty board), and a split into as many parts as there are subparts.
"$P" qn --board 3 --size 0 --count --part 1/1 >"$T/z1"
check "size 0 in parts: one placement, the empty board" \
  "\"$P\" merge \"$T/z1\" | grep -qx '1 placement'"
"$P" qn --board 3 --size 0 --count --part 2/2 >"$T/out" 2>"$T/err"
check "size 0 in 2 parts: exit 2, one message (its split has one part)" \
  "[ $? -eq 2 ] && [ ! -s \"$T/out\" ] && [ \$(wc -l <\"$T/err\") -eq 1 ]"
for i in 1 2 3 4 5 6 7 8 9; do "$P" qn --board 5 --size 2 --count --part $i/9 --quiet; done >"$T/many"
out=$("$P" merge "$T/many")
plain=$("$P" qn --board 5 --size 2 --count --method search --quiet)
check "5x5 in 9 parts (one file of 9 lines): the plain count" \
  "[ \"\$(counts \"\$out\")\" = \"\$(counts \"\$plain\")\" ]"

# Checkpoints: a count interrupted by SIGINT, then resumed.
"$P" qn --board 12 --size 8 --count --jobs 1 --checkpoint "$T/ck" --quiet >"$T/out" 2>"$T/err" &
pid=$!
sleep 0.3
kill -INT $pid
wait $pid
rc=$?
check "SIGINT: exit 130, no total, the checkpoint written" \
  "[ $rc -eq 130 ] && ! grep -q 'placements' \"$T/out\" && grep -q '\"size\":8,\"counting\":true,\"split\"' \"$T/ck\""
out=$("$P" qn --board 12 --size 8 --count --jobs 2 --resume "$T/ck" --checkpoint "$T/ck" --quiet 2>"$T/err")
check "resumed after SIGINT: the count of a whole run (302316, 37820 up to symmetry)" \
  "[ \"\$(counts \"\$out\")\" = '302316 placements
37820 up to symmetry' ]"
out=$("$P" qn --board 12 --size 8 --count --resume "$T/ck" --quiet --json 2>"$T/err")
case "$out" in *'"count":302316,"unique":37820,"checked":false,"nodes":'*) ok "a finished checkpoint resumed: the same count, on the checkpoint's word" ;;
  *) not_ok "finished checkpoint resumed: $out" ;; esac

# A maximum stopped by a node limit in its proof, then resumed.
"$P" qn --board 12 --method search --jobs 1 --node-limit 300000 --checkpoint "$T/max" \
  --json >"$T/out" 2>"$T/err"
check "a limited maximum: exit 3, not optimal, the decision's parts saved" \
  "[ $? -eq 3 ] && grep -q '\"optimal\":false' \"$T/out\" && grep -q '\"size\":9,\"counting\":false,\"split\"' \"$T/max\""
out=$("$P" qn --board 12 --method search --resume "$T/max" --checkpoint "$T/max" --json 2>"$T/err")
check "resumed: maximum 8, optimal" "echo '$out' | grep -q '\"size\":8,\"optimal\":true'"
"$P" qn --board 14 --count --method search --time-limit 1 --checkpoint "$T/tl" >"$T/out" 2>"$T/err"
check "--time-limit with a checkpoint: exit 3, no count claimed" \
  "[ $? -eq 3 ] && ! grep -q 'placements' \"$T/out\" && [ -s \"$T/tl\" ]"

# Issue 13, item 10: the manual's sequence with the default method (the race): a maximum
# interrupted with a checkpoint, then resumed with --checkpoint and --resume of the same file,
# continues (the checkpoint keeps the best size either method found) and ends at the maximum.
"$P" qn --board 16 --checkpoint "$T/race" --quiet >"$T/out" 2>"$T/err" &
pid=$!
sleep 1
kill -INT $pid
wait $pid
rc=$?
check "a maximum interrupted: exit 130 (or done first), the checkpoint written" \
  "{ [ $rc -eq 130 ] || [ $rc -eq 0 ]; } && grep -q '\"best\":' \"$T/race\""
out=$("$P" qn --board 16 --checkpoint "$T/race" --resume "$T/race" --json 2>"$T/err")
check "... resumed from and into the same file: maximum 12, optimal" \
  "[ $? -eq 0 ] && echo '$out' | grep -q '\"size\":12,\"optimal\":true' && grep -q '\"best\":12' \"$T/race\""

# The same on 18x18, whose proof takes minutes: interrupted, the checkpoint holds the best size
# found (B, 13 on an idle machine) and the decision under way (B + 1); resumed from and into it
# under a time limit, the run takes it up (exit 3, not a refusal) and loses neither.
"$P" qn --board 18 --checkpoint "$T/r18" --quiet >"$T/out" 2>"$T/err" &
pid=$!
sleep 2
kill -INT $pid
wait $pid
rc=$?
best=$(grep -o '"best":[0-9]*' "$T/r18" | cut -d: -f2)
check "18x18 interrupted: exit 130, the best size B and the decision of B + 1 in the checkpoint" \
  "[ $rc -eq 130 ] && [ \"\${best:-0}\" -ge 1 ] && grep -q \"\\\"size\\\":\$((best + 1)),\\\"counting\\\":false,\\\"split\\\"\" \"$T/r18\""
"$P" qn --board 18 --checkpoint "$T/r18" --resume "$T/r18" --time-limit 1 --quiet >"$T/out" 2>"$T/err"
rc=$?
again=$(grep -o '"best":[0-9]*' "$T/r18" | cut -d: -f2)
check "... resumed from and into the same file: taken up (exit 3, one message), nothing lost" \
  "[ $rc -eq 3 ] && [ \$(wc -l <\"$T/err\") -eq 1 ] && grep -q 'found, maximum not proven' \"$T/err\" &&
   [ \"\${again:-0}\" -ge \"\${best:-1}\" ] && grep -q '\"counting\":false,\"split\"' \"$T/r18\""

# Checkpoints of something else are refused: exit 2 and one message.
for args in "--board 11 --size 8 --count" "--board 12 --size 7 --count" "--board 12 --size 8" \
  "--board 12 --kinds QB --size 8 --count" "--board 12 --ratio 2:1 --size 4 --count" \
  "--board 12 --count"; do
  # shellcheck disable=SC2086
  "$P" qn $args --resume "$T/ck" >/dev/null 2>"$T/err"
  check "resume $args from a 12x12 size 8 count: exit 2, one message" \
    "[ $? -eq 2 ] && [ \$(wc -l <\"$T/err\") -eq 1 ]"
done
"$P" qn --board 12 --method search --node-limit 300000 --checkpoint "$T/max3" --quiet >/dev/null 2>&1
sed 's/"split":"[0-9a-f]*"/"split":"0123456789abcdef"/' "$T/max3" >"$T/max4"
cp "$T/max4" "$T/edited"
"$P" qn --board 12 --method search --resume "$T/edited" --checkpoint "$T/edited" >/dev/null 2>"$T/err"
check "an edited checkpoint (its digest not made again): exit 2, one message, not overwritten" \
  "[ $? -eq 2 ] && [ \$(wc -l <\"$T/err\") -eq 1 ] && grep -q 'damaged or edited' \"$T/err\" && cmp -s \"$T/max4\" \"$T/edited\""
"$RESEAL" "$T/max4"
"$P" qn --board 12 --method search --resume "$T/max4" >/dev/null 2>"$T/err"
check "a checkpoint of another split: exit 2, one message" \
  "[ $? -eq 2 ] && [ \$(wc -l <\"$T/err\") -eq 1 ] && grep -q 'another split' \"$T/err\""
sed 's/"best_witness":"Q/"best_witness":"N/' "$T/max3" >"$T/max5"
"$RESEAL" "$T/max5"
"$P" qn --board 12 --method search --resume "$T/max5" >/dev/null 2>"$T/err"
check "a checkpoint with a false witness: exit 2, one message" \
  "[ $? -eq 2 ] && [ \$(wc -l <\"$T/err\") -eq 1 ] && grep -q 'witness' \"$T/err\""
# A decision's finished part claiming a witness: without its text, or with a text that is no
# placement of the size (resealed): exit 2, one message, nothing claimed, the file kept.
sed 's/^\[0,{"found":false},\([0-9]*\)\]/[0,{"found":true},\1]/' "$T/max3" >"$T/claim1"
sed 's/^\[0,{"found":false},\([0-9]*\)\]/[0,{"found":true},\1,"Q"]/' "$T/max3" >"$T/claim2"
for f in claim1 claim2; do
  "$RESEAL" "$T/$f"
  cp "$T/$f" "$T/$f.kept"
  "$P" qn --board 12 --method search --resume "$T/$f" --checkpoint "$T/$f" >"$T/out" 2>"$T/err"
  check "a checkpoint's part claiming a witness ($f): exit 2, one message, not overwritten" \
    "! cmp -s \"$T/$f\" \"$T/max3\" && [ $? -eq 2 ] && [ ! -s \"$T/out\" ] && [ \$(wc -l <\"$T/err\") -eq 1 ] && cmp -s \"$T/$f\" \"$T/$f.kept\""
done
"$P" armies --board 6 --size 5 --checkpoint "$T/armies" --method search >/dev/null 2>&1
"$P" qn --board 6 --size 5 --resume "$T/armies" >/dev/null 2>"$T/err"
check "a checkpoint of armies: exit 2, one message" \
  "[ $? -eq 2 ] && [ \$(wc -l <\"$T/err\") -eq 1 ] && grep -q 'not a checkpoint of qn' \"$T/err\""

# A size proven impossible, resumed from its checkpoint: the answer without a search (it read an
# unset witness, fuzz_checkpoint's first finding; the sanitizer build stopped on it).
"$P" qn --board 7 --size 5 --method search --checkpoint "$T/no5" >/dev/null 2>&1
out=$("$P" qn --board 7 --size 5 --resume "$T/no5" --json 2>"$T/err")
check "a size proven impossible, resumed: impossible on the checkpoint's word, no message" \
  "[ $? -eq 0 ] && [ ! -s \"$T/err\" ] && echo '$out' | grep -q '\"size\":5,\"feasible\":false,\"proved_by\":\"search\",\"checked\":false,\"nodes\":0,'"

# Finished parts whose counts add up past 2^128 - 1 (forged, resealed): exit 2 and one message,
# no count (it printed a second message, which blamed a limit; found by fuzz_checkpoint).
max=340282366920938463463374607431768211455
sed "s/\[\([01]\),{\"count\":[0-9]*,/[\1,{\"count\":$max,/g" "$T/ck" >"$T/past128"
"$RESEAL" "$T/past128"
"$P" qn --board 12 --size 8 --count --resume "$T/past128" --json >"$T/out" 2>"$T/err"
check "a count resumed past 2^128: exit 2, one message, no count" \
  "[ $? -eq 2 ] && [ \$(grep -o $max \"$T/past128\" | wc -l) -eq 2 ] && [ \$(wc -l <\"$T/err\") -eq 1 ] &&
   grep -q 'do not add up' \"$T/err\" && ! grep -q '\"count\"' \"$T/out\""

# A new run stopped before any decision leaves the checkpoint its message names (none was
# written: a limit spent in the heuristic stopped it first); resumed, the maximum.
"$P" qn --board 8 --method search --jobs 1 --node-limit 1 --checkpoint "$T/early" >/dev/null \
  2>"$T/err"
check "stopped before any decision: exit 3, the checkpoint its message names written" \
  "[ $? -eq 3 ] && grep -q 'in the checkpoint' \"$T/err\" && grep -q '\"best\":' \"$T/early\""
out=$("$P" qn --board 8 --method search --resume "$T/early" --json 2>"$T/err")
check "... and resumed from it: maximum 5, optimal" "echo '$out' | grep -q '\"size\":5,\"optimal\":true'"

# A checkpoint claiming that size 0 does not fit: refused (fuzz_checkpoint: a maximum resumed from
# it was taken as proven at size -1 and the run aborted; with --size 0 it answered "none").
ck_head='{"format":"peaceable-checkpoint","version":2,"problem":"qn","board":"8x8","kinds":"QN",'
ck_tail='"counting":false,"best":-1,"infeasible":0,"proved_by":"search","nodes":0}'
for size in null 0; do
  echo "$ck_head\"ratio\":\"1:1\",\"size\":$size,$ck_tail" >"$T/inf0"
  "$RESEAL" "$T/inf0"
  [ "$size" = null ] && args= || args="--size $size"
  # shellcheck disable=SC2086
  "$P" qn --board 8 --method search $args --resume "$T/inf0" >"$T/out" 2>"$T/err"
  check "a checkpoint with infeasible 0 (size $size): exit 2, one message, nothing on stdout" \
    "[ $? -eq 2 ] && [ ! -s \"$T/out\" ] && [ \$(wc -l <\"$T/err\") -eq 1 ] && grep -q malformed \"$T/err\""
done

# Usage.
for args in "--part 1/3" "--part 4/3 --size 3" "--part 0/3 --size 3" \
  "--part 1/3 --size 3 --list --limit 3" "--part 1/3 --size 3 --svg x" \
  "--part 1/3 --size 3 --method ilp" "--table 1..3 --part 1/2" "--list --limit 3 --resume x"; do
  # shellcheck disable=SC2086
  "$P" qn $args >/dev/null 2>"$T/err"
  check "qn $args: exit 2, one message" "[ $? -eq 2 ] && [ \$(wc -l <\"$T/err\") -eq 1 ]"
done

# A part takes --checkpoint and --resume, as armies' and pieces' parts do (it refused them): stopped
# and resumed, its line is the line of an uninterrupted part, marked "checked":false, and merges
# to the count of one run. A whole run refuses a part's checkpoint, and says why.
"$P" qn --board 9 --size 6 --count --part 1/2 --jobs 1 >"$T/w1"
"$P" qn --board 9 --size 6 --count --part 2/2 --jobs 1 >"$T/w2"
"$P" qn --board 9 --size 6 --count --part 1/2 --checkpoint "$T/pa.ck" --node-limit 2000 --jobs 1 \
  >"$T/s1" 2>"$T/err"
check "qn --part --checkpoint stopped by a limit: exit 3, its line not done, the checkpoint written" \
  "[ $? -eq 3 ] && grep -q '\"done\":false' '$T/s1' && [ -s '$T/pa.ck' ] &&
   grep -q '[0-9] finished parts\{0,1\} \(is\|are\) in the checkpoint' '$T/err'"
"$P" qn --board 9 --size 6 --count --part 1/2 --resume "$T/pa.ck" --jobs 1 >"$T/r1"
strip='s/"checked":false,//; s/"nodes":[0-9]*,"digest":"[0-9a-f]*"//'
check "qn --part --resume: the line of an uninterrupted part, marked \"checked\":false" \
  "grep -q '\"checked\":false' '$T/r1' && [ \"\$(sed '$strip' '$T/r1')\" = \"\$(sed '$strip' '$T/w1')\" ]"
check "qn --part --resume, merged: the count of one run" \
  "[ \"\$('$P' merge '$T/r1' '$T/w2' --json | jq -c '[.count, .unique]')\" = \
     \"\$('$P' qn --board 9 --size 6 --count --json | jq -c '[.count, .unique]')\" ]"
"$P" qn --board 9 --size 6 --count --resume "$T/pa.ck" >"$T/out" 2>"$T/err"
check "qn --resume of a part's checkpoint without --part: exit 2, said so" \
  "[ $? -eq 2 ] && grep -q 'the checkpoint of a part (--part I/N).*resume it with its --part' '$T/err'"

# merge --cert - writes the certificate on standard output, checked before a byte of it is
# written, and the answer on standard error; a part of one subpart says "1 part".
out=$("$P" merge --cert - "$T"/infeasible/? 2>"$T/err" | "$P" verify - 2>&1)
check "merge --cert -: the certificate, checked, on stdout (verify - says valid)" \
  "echo \"\$out\" | grep -q '^valid: .*8 Q and 8 N do not' &&
   grep -qF 'none, proven impossible by 3 parts' '$T/err'"
"$P" qn --board 11 --size 8 --part 1/1 --quiet >"$T/one" 2>"$T/err"
out=$("$P" merge "$T/one" 2>"$T/err")
check "merge of a part 1/1: 'proven impossible by 1 part'" \
  "echo \"\$out\" | grep -qF 'proven impossible by 1 part ('"
# --resume - reads the checkpoint from standard input (the run opens it more than once).
rm -f "$T/ck"
"$P" qn --board 10 --count --checkpoint "$T/ck" --node-limit 20000 --quiet >/dev/null 2>&1
"$P" qn --board 10 --count --resume - --quiet <"$T/ck" >"$T/out" 2>"$T/err"
rc=$?
plain=$("$P" qn --board 10 --count --quiet)
check "--resume - (a checkpoint on standard input): the answer of a whole run, on its word" \
  "[ $rc -eq 0 ] && [ \"\$(sed \"s/ (resumed: in part on the checkpoint's word, not checked)//\" '$T/out')\" = \"\$plain\" ] &&
   grep -q \"(resumed: in part on the checkpoint's word\" '$T/out'"

# A checkpoint of the count that cannot be written: the maximum proven and the count are printed
# (the count's parts all ended: its last write failed), and said after; or, under sanitizers, past
# 5 s of the count, the count ended there, "count":null.
mkdir "$T/gone"
"$P" qn --board 12 --count --jobs 1 --checkpoint "$T/gone/c.json" --json --quiet >"$T/out" \
  2>"$T/err" &
pid=$!
# After the maximum (0.03 s here; several times that under sanitizers), before the count's end.
if [ -n "${PEACEABLE_LIGHT:-}" ]; then sleep 1.5; else sleep 0.3; fi
rm -rf "$T/gone"
wait "$pid"
rc=$?
check "a count's checkpoint that cannot be written: exit 2, said, the maximum with its count" \
  "[ $rc -eq 2 ] && grep -q 'cannot write' '$T/err' && [ \$(wc -l <'$T/out') -eq 1 ] &&
   { { [ \"\$(jq -c '[.size, .optimal, .count, .unique]' '$T/out')\" = '[8,true,302316,37820]' ] &&
       tail -n 1 '$T/err' | grep -q 'answer above is complete, but its last checkpoint'; } ||
     { [ -n \"\${PEACEABLE_LIGHT:-}\" ] &&
       [ \"\$(jq -c '[.size, .optimal, .count]' '$T/out')\" = '[8,true,null]' ] &&
       ! grep -q 'answer above is complete' '$T/err'; }; }"

# A checkpoint that cannot be written once the run has begun: what was found is printed, not
# proven, exit 2 (it printed nothing). The directory goes once the run has written its first
# checkpoint, at its start; the run (kings and knights on 9x9, a minute and more) stops at its
# next write, 5 s on. (11x11 queens and knights, 0.1 s, could end before the directory went.)
mkdir "$T/gq"
"$P" qn --board 9 --kinds KN --method search --jobs 1 --checkpoint "$T/gq/c.json" --json --quiet \
  >"$T/out" 2>"$T/err" &
pid=$!
for i in $(seq 500); do [ -e "$T/gq/c.json" ] && break; sleep 0.01; done
# (Moved away at once, not removed: the run writes a checkpoint at the end of each of its first
# sizes' decisions, milliseconds apart, and a file it may create while rm -rf empties the
# directory would keep the directory there, the run then going on to its end; once, under the
# sanitizers, this test failed, its cause not seen. A write under way when it moves fails at its
# rename instead.)
mv "$T/gq" "$T/gq.gone"
wait "$pid"
rc=$?
check "qn: its checkpoint not written after the start: exit 2, the witness found, not proven" \
  "[ $rc -eq 2 ] && [ \$(wc -l <'$T/out') -eq 1 ] &&
   jq -e '.optimal == false and (.witness | length) == 89' '$T/out' >/dev/null &&
   [ \$(grep -c 'cannot write\|cannot rename' '$T/err') -eq 1 ] &&
   grep -q 'a checkpoint that could not be written stopped the run before the proof' '$T/err'"

# From 15x15 on, a part is the first three queens, not two (the first parts held minutes of
# search): 16x16's decision of 12 in three parts, merged, is the whole run's, witness and all.
whole=$("$P" qn --board 16 --size 12 --json --quiet --method search | jq -r .witness)
for i in 1 2 3; do
  "$P" qn --board 16 --size 12 --part $i/3 --jobs 1 --quiet >"$T/d$i.json"
done
"$P" merge --json "$T/d1.json" "$T/d2.json" "$T/d3.json" >"$T/out" 2>"$T/err"
rc=$?
check "16x16 --size 12 in 3 parts of three queens: the whole run's witness, merged" \
  "[ $rc -eq 0 ] && jq -e '.subparts > 20000' '$T/d1.json' >/dev/null &&
   jq -e --arg w '$whole' '.feasible and .witness == \$w' '$T/out' >/dev/null"

# A decision the bounds leave in one part: N may only be 1 (it said "N may be 1 to 1").
"$P" qn --board 10 --size 8 --part 1/3 --quiet >"$T/out" 2>"$T/err"
rc=$?
check "qn --part 1/3 of a decision of one part: refused, N may only be 1" \
  "[ $rc -eq 2 ] && [ ! -s '$T/out' ] && grep -q 'splits into 1 part; N may only be 1' '$T/err'"

echo "1..$n"
[ "$failed" -eq 0 ]
