#!/bin/sh
# parts_cert.sh: proofs in several files (doc/certificate.md, "Proofs in several files"): verify
# takes the set, checks each file with its holes taken as proven, and accepts the claim only when
# the files make one claim with one skeleton and every hole is proven in exactly one file; merge
# --cert makes them one certificate only after that check (TAP).
. "${srcdir:-$(dirname "$0")/..}/tests/tap.sh"

"$P" armies --board 8 --size 10 --method search --cert "$T/whole.json" >/dev/null 2>&1
"$P" armies --board 8 --size 11 --method search --cert "$T/other.json" >/dev/null 2>&1
check "8x8: certificates of no 10 and no 11 against as many written" \
  "jq -e '.infeasible.trees | length > 3' '$T/whole.json' >/dev/null"
# split FILE N PREFIX: N part files PREFIX0.json...: file f proves the cubes i with i % N = f and
# leaves a hole for the others (a part here is a whole cube's tree).
split() {
  f=0
  while [ $f -lt "$2" ]; do
    jq -c --argjson f $f --argjson n "$2" '.infeasible.trees |= [to_entries[] |
      if .key % $n == $f then "[" + .value + "]" else "#" end]' "$1" >"$3$f.json"
    f=$((f + 1))
  done
}
split "$T/whole.json" 3 "$T/p"
split "$T/other.json" 3 "$T/q"

run 60 verify "$T/p0.json" "$T/p1.json" "$T/p2.json"
check "three part files: valid, one verdict for the set" \
  "[ $rc -eq 0 ] && [ \$(wc -l <'$T/out') -eq 1 ] && grep -q '^valid: .*10 white and 10 black do not fit.*in 3 files, every one of its' '$T/out'"
run 60 verify --jobs 2 "$T/p2.json" "$T/p0.json" "$T/p1.json"
check "the same on two threads, in any order" "[ $rc -eq 0 ] && grep -q '^valid: ' '$T/out'"
# A file missing is no false claim: "incomplete", no verdict (exit 3, as merge of part lines
# lacking a part), never "valid".
verdict "one part file alone is not a proof: incomplete, it says so" 3 \
  "incomplete: .*p0.json is one file of a proof in parts, part 2 of [0-9]* a hole in it" "$T/p0.json"
# Alone, a part file is still checked whole, its holes taken as proven: a fault elsewhere is
# invalid (exit 1), not hidden behind "incomplete"; a file that proves every part is valid.
jq -c '.infeasible.trees[2] = "."' "$T/p0.json" >"$T/b0.json"
verdict "one part file alone with a leaf no bound closes: invalid" 1 \
  "invalid: .*b0.json: tree 2 .*a leaf's bound does not close it" "$T/b0.json"
jq -c '.infeasible.trees |= map("[" + . + "]")' "$T/whole.json" >"$T/all.json"
verdict "one file that marks every part: valid alone" 0 \
  "valid: .*10 white and 10 black do not fit.*in 1 file, every one of its" "$T/all.json"
verdict "a part file missing: incomplete, no verdict" 3 \
  "incomplete: part .* is proven in none of the 2 files" "$T/p0.json" "$T/p1.json"
# Parts are numbered from 1, as --part I/N numbers them (it said "part 0" for the first).
verdict "the first part's file missing: its part named from 1" 3 \
  "incomplete: part 1 of [0-9]* (a hole in every file) is proven in none of the 2 files" \
  "$T/p1.json" "$T/p2.json"
run 30 verify --json "$T/p0.json" "$T/p2.json"
check "... in JSON: \"valid\":null, no claim" \
  "[ $rc -eq 3 ] && jq -e '.valid == null and (has(\"claim\") | not)' '$T/out' >/dev/null"
# The same file twice is the user's slip, said as such (exit 2, as merge of lines says); two
# files that prove one part are a set that is no proof in parts (exit 1).
refuse "a part file given twice: refused, exit 2, said so" \
  "p1.json and $T/p1.json: the same file given twice" verify "$T/p0.json" "$T/p1.json" \
  "$T/p2.json" "$T/p1.json"
split "$T/whole.json" 2 "$T/h"
verdict "two files that prove one part: refused" 1 "invalid: part .* is proven twice" \
  "$T/p0.json" "$T/p1.json" "$T/p2.json" "$T/h0.json"
verdict "a file of another claim among them: refused" 1 "invalid: .*q1.json: not the claim of" \
  "$T/p0.json" "$T/q1.json" "$T/p2.json"
# A file that proves cube 1 without marking it as a part has another skeleton.
jq -c '.infeasible.trees[1] |= ltrimstr("[") | .infeasible.trees[1] |= rtrimstr("]")' \
  "$T/p1.json" >"$T/s1.json"
verdict "a file whose trees differ outside its parts: refused" 1 \
  "invalid: .*s1.json: its trees are not those of" "$T/p0.json" "$T/s1.json" "$T/p2.json"
# A part whose tree is a bare leaf that no bound closes.
jq -c '.infeasible.trees[1] = "[.]"' "$T/p1.json" >"$T/l1.json"
verdict "a part's tree that does not prove it: refused, the file named" 1 \
  "invalid: .*l1.json: tree 1 .*a leaf's bound does not close it" "$T/p0.json" "$T/l1.json" \
  "$T/p2.json"
for forged in '[[.]]' '[.' '[#]' '.]' '[.][.]'; do
  jq -c --arg t "$forged" '.infeasible.trees[1] = $t' "$T/p1.json" >"$T/f1.json"
  run 30 verify "$T/p0.json" "$T/f1.json" "$T/p2.json"
  check "a malformed part ($forged): refused" "[ $rc -eq 1 ] && grep -q '^invalid: .*f1.json: tree 1' '$T/out'"
done
jq -c '.claim = "feasible"' "$T/p1.json" >"$T/c1.json"
run 30 verify "$T/p0.json" "$T/c1.json" "$T/p2.json"
check "a file that is no proof of infeasibility: refused" "[ $rc -ne 0 ] && ! grep -q '^valid' '$T/out'"

run 60 merge --cert "$T/merged.json" "$T/p0.json" "$T/p1.json" "$T/p2.json"
check "merge --cert: the files checked, then one certificate" \
  "[ $rc -eq 0 ] && grep -q '^valid: ' '$T/out' && [ -s '$T/merged.json' ]"
check "the merged certificate's trees are the whole proof's" \
  "[ \"\$(jq -c .infeasible '$T/merged.json')\" = \"\$(jq -c .infeasible '$T/whole.json')\" ]"
verdict "the merged certificate verifies" 0 "valid: armies of Q on 8x8: 10 white" "$T/merged.json"
run 60 merge --cert "$T/none.json" "$T/p0.json" "$T/p1.json"
check "merge --cert with a part missing: no certificate, incomplete (exit 3)" \
  "[ $rc -eq 3 ] && [ ! -e '$T/none.json' ] && grep -q '^incomplete: ' '$T/out' && ! grep -q impossible '$T/out'"
refuse "merge of certificates without --cert: refused" "is a certificate" merge "$T/p0.json" \
  "$T/p1.json" "$T/p2.json"
# part_files NAME BOARD SIZE PARTS: the files $T/NAME1.json to NAME3.json of parts 1 to 3 of
# armies --board BOARD --size SIZE in PARTS parts.
part_files() {
  for i in 1 2 3; do
    "$P" armies --board "$2" --size "$3" --part "$i/$4" --cert "$T/$1$i.json" --quiet >/dev/null 2>&1
  done
}
# Parts that find a placement write its witness: the witness settles the claim, in verify and in
# merge --cert (the set of files was refused as "not a proof of infeasibility").
part_files w 8 9 3
check "8x8 --size 9 in 3 parts: the parts wrote witnesses" \
  "jq -e '.claim == \"feasible\"' '$T/w1.json' >/dev/null"
verdict "the parts' witnesses: valid, the witness settles it" 0 \
  "valid: armies of Q on 8x8: 9 white and 9 black fit (witness checked); in 3 files, the witness of" \
  "$T/w1.json" "$T/w2.json" "$T/w3.json"
run 60 merge --cert "$T/wm.json" "$T/w1.json" "$T/w2.json" "$T/w3.json"
check "merge --cert of the parts' witnesses: a witness certificate" \
  "[ $rc -eq 0 ] && grep -q '^valid: ' '$T/out' && jq -e '.claim == \"feasible\" and .white == 9' '$T/wm.json' >/dev/null"
verdict "the merged witness verifies" 0 "valid: armies of Q on 8x8: 9 white and 9 black fit" \
  "$T/wm.json"
# The usual mix: parts that found nothing wrote their part of the proof, one part its witness.
part_files m 7 7 64
check "7x7 --size 7 in 64 parts: parts 1 and 2 wrote proofs, part 3 a witness" \
  "[ \"\$(jq -r .claim '$T/m1.json' '$T/m2.json' '$T/m3.json' | tr '\n' ' ')\" = 'infeasible infeasible feasible ' ]"
verdict "proofs in part and a witness: the witness settles it" 0 \
  "valid: armies of Q on 7x7: 7 white and 7 black fit (witness checked); in 3 files, the witness of .*m3.json" \
  "$T/m1.json" "$T/m2.json" "$T/m3.json"
verdict "a witness beside the parts of another claim: refused" 1 \
  "invalid: .*p0.json: not the claim of .*w1.json" "$T/w1.json" "$T/p0.json"
cat "$T/p0.json" "$T/p1.json" "$T/p2.json" >"$T/all.json"
refuse "merge --cert of the part files in one stream on standard input: refused, said why" \
  "standard input (-), line 1: a certificate or a checkpoint among part results: give each as a" \
  merge --cert "$T/mm.json" - <"$T/all.json"
# A certificate that does not come in parts (a count's), given with another: exit 2, said so (it
# said "neither a proof of infeasibility nor a witness" of a count that holds one).
"$P" armies --board 4 --piece K --count --cert "$T/k4.json" --quiet >/dev/null
refuse "a count certificate among part files: refused, exit 2, verify each alone" \
  "k4.json: only proofs of infeasibility of two armies and their witnesses come in several files" \
  verify "$T/p0.json" "$T/k4.json"
# A part file that says what nothing checks (a false total beside its claim): refused, and not
# passed on as the files' claim by verify --json.
jq -c '.infeasible.total = 1' "$T/p1.json" >"$T/px.json"
refuse "a part file with a member nothing checks: malformed, exit 2" \
  "px.json: malformed: its member \"infeasible.total\" is not part of its claim" \
  verify --json "$T/p0.json" "$T/px.json" "$T/p2.json"
jq -c '.witness |= (.[0:9] | ascii_downcase) + .[9:]' "$T/w1.json" >"$T/wf.json"
verdict "a forged witness among the parts: refused" 1 "invalid: " "$T/wf.json" "$T/w2.json"
verdict "a whole proof given twice: valid, and said so" 0 \
  "valid: .*10 white and 10 black do not fit.*in 2 files, each a whole proof" "$T/whole.json" \
  "$T/whole.json"
# merge --cert reads the files again to write the merged proof: a file that changed after its
# check (here a pipe that gives a checked part twice, then another proof) is refused, nothing
# written. It wrote the unchecked text after "valid", exit 0, or crashed on it.
mkfifo "$T/swap.json"
# shellcheck disable=SC2002
(cat "$T/p0.json" >"$T/swap.json" && sleep 1 && cat "$T/p0.json" >"$T/swap.json" && sleep 1 &&
  jq -c '.infeasible.trees |= map("#")' "$T/p0.json" >"$T/swap.json") >/dev/null 2>&1 &
swapper=$!
run 60 merge --cert "$T/sw.json" "$T/swap.json" "$T/p1.json" "$T/p2.json"
kill "$swapper" 2>/dev/null
timeout 2 cat "$T/swap.json" >/dev/null 2>&1 # a writer left waiting (the merge read less)
check "merge --cert of a file changed after its check: refused, exit 2, nothing written" \
  "[ $rc -eq 2 ] && grep -q 'swap.json changed after it was checked: nothing written' '$T/err' &&
   [ ! -e '$T/sw.json' ]"
echo '{"format":"peaceable-certificate","version":1,"problem":"qn"}' >"$T/qn.json"
run 30 merge --cert "$T/x.json" "$T/qn.json" "$T/p0.json"
check "merge's messages name merge, not verify" \
  "[ $rc -ne 0 ] && grep -q '^peaceable: merge: ' '$T/err' && ! grep -q 'verify:' '$T/err'"
tap_end
