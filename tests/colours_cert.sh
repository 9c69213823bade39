#!/bin/sh
# colours_cert.sh: count certificates of armies of several colours (TAP): `armies --colours C
# --count --cert FILE` lists one placement of each class with the count's proof, and verify
# recomputes the number of placements and both kinds of classes itself, which must be those the
# count printed; a placement dropped, doubled or changed, a number or a tree edited: refused.
. "${srcdir:-$(dirname "$0")/..}/tests/tap.sh"

# cert NAME ARGS...: writes $T/NAME.json and the count's JSON in $T/NAME.count; checks that the
# certificate verifies with the numbers the count printed.
cert() {
  name=$1
  shift
  run 60 armies "$@" --count --json --quiet
  cp "$T/out" "$T/$name.count"
  run 60 armies "$@" --count --cert "$T/$name.json" --json --quiet
  check "armies $* --count --cert: exit 0, the same counts, a certificate" \
    "[ $rc -eq 0 ] && [ -s '$T/$name.json' ] && [ \"\$(jq -c '{count, unique, unique_colour}' '$T/out')\" = \"\$(jq -c '{count, unique, unique_colour}' '$T/$name.count')\" ]"
  count=$(jq .count "$T/$name.count") unique=$(jq .unique "$T/$name.count")
  classes=$(jq .unique_colour "$T/$name.count") size=$(jq .size "$T/$name.count")
}

# 6x6, three colours of queens at the maximum 2 (tests/colours.sh and tests/test_colours.c hold
# these counts against a brute force).
cert q6 --colours 3 --board 6
q6_count=$count q6_unique=$unique q6_classes=$classes
verdict "6x6: the certificate verifies: the counts, their classes, and 3 do not fit" 0 \
  "valid: 3 armies of Q on 6x6: $count placements of 2 of each colour ($unique up to symmetry, $classes up to symmetry and colour permutation, one of each .*; 3 of each colour do not fit: 2 is the maximum$" \
  "$T/q6.json"
check "6x6: one placement a class listed ($classes)" "[ \$(jq '.placements | length' '$T/q6.json') -eq $classes ]"
cert r5 --colours 4 --board 5 --piece R
verdict "four colours of rooks on 5x5: verifies" 0 \
  "valid: 4 armies of R on 5x5: $count placements of $size of each colour ($unique up to symmetry, $classes up to .*is the maximum$" \
  "$T/r5.json"
cert b64 --colours 4 --board 6x4 --piece B
verdict "four colours of bishops on 6x4 (a rectangle): verifies" 0 \
  "valid: 4 armies of B on 6x4: $count placements of $size of each colour ($unique up to symmetry, $classes up to .*is the maximum$" \
  "$T/b64.json"
cert s2 --colours 3 --board 6 --size 1
verdict "6x6 at --size 1: verifies, no maximum claimed" 0 \
  "valid: 3 armies of Q on 6x6: $count placements of 1 of each colour ($unique up to symmetry, $classes up to symmetry and colour permutation, one of each of these classes listed and checked; [0-9]* cubes, [0-9]* leaves checked)$" \
  "$T/s2.json"
cert z3 --colours 3 --board 3
verdict "3x3: the maximum 0, the empty board alone" 0 \
  "valid: 3 armies of Q on 3x3: 1 placement of 0 of each colour .*0 is the maximum$" "$T/z3.json"

# Forgeries of the 6x6 certificate, each refused (exit 1).
forge() { # forge DESCRIPTION JQ-FILTER NEEDLE
  jq -c "$2" "$T/q6.json" >"$T/forged.json"
  verdict "$1" 1 "invalid: .*$3" "$T/forged.json"
}
count=$q6_count unique=$q6_unique classes=$q6_classes
forge "a placement dropped: refused" '.placements |= .[1:]' "placements: the $((classes - 1)) classes listed"
forge "a placement dropped, the numbers lowered to match: refused" \
  ".placements |= .[1:] | .unique_colour = $((classes - 1))" "count proof counts $count"
forge "a placement listed twice: refused" '.placements[1] = .placements[0]' "listed twice"
forge "a placement doubled in another form (its colours renumbered): refused" \
  '.placements[1] = (.placements[0] | gsub("1";"x") | gsub("2";"1") | gsub("x";"2"))' \
  "not the least of its class"
forge "a placement altered (one piece of another colour): refused" \
  '.placements[0] |= sub("2";"1")' "placements: item 0"
forge "a placement moved off its class's least form (mirrored): refused" \
  '.placements[0] |= (split("/") | map(explode | reverse | implode) | join("/"))' \
  "not the least of its class"
forge "the total changed: refused" ".total = $((count + 6))" "claim: the stated total"
forge "the classes up to symmetry changed: refused" ".unique = $((unique - 1))" "claim: the stated unique"
forge "the classes with colours changed: refused" ".unique_colour = $((classes + 1))" "claim: the stated unique_colour"
forge "a counted leaf turned into a closed one: refused" \
  '(.count.trees | map(test("c")) | index(true)) as $i | .count.trees[$i] |= sub("c";".")' \
  "does not close"
forge "a closed leaf turned into a counted one: refused" \
  '(.count.trees | map(test(",\\.")) | index(true)) as $i | .count.trees[$i] |= sub(",\\.";",c")' \
  "line open to two colours"
forge "a counted subtree left out: refused" \
  '(.count.trees | map(test("c")) | index(true)) as $i | .count.trees[$i] |= sub("c";"-")' \
  "left out without a reason"
forge "the child where a line is empty left out: refused" \
  '(.count.trees | map(test("[0-9]+,[-.c]{4}")) | index(true)) as $i | .count.trees[$i] |= sub("(?<a>[0-9]+,[-.c]{3})[.c]";"\(.a)-")' \
  "is empty is left out"
forge "a count cube removed: refused" '.count.cubes |= .[1:] | .count.trees |= .[1:]' "in no cube"
forge "a count cube given twice: refused" '.count.cubes[1] = .count.cubes[0]' "shares its class"
forge "a count cube not in first-use order: refused" \
  '(.count.cubes | map(test("^0")) | index(true)) as $i | .count.cubes[$i] |= sub("^0";"1")' \
  "first-use order"
forge "a count claimed at another size: refused" '.size = 1' "claim"
forge "the proof of the maximum taken away from a larger claim: refused" '.infeasible.size = 4' \
  "claim: a maximum"
forge "the proof of one more edited: refused" \
  '.infeasible.trees |= (. as $t | ($t | map(length) | index(max)) as $i | $t | .[$i] = ".")' \
  "does not close"
# verify --jobs: the count's trees on threads, the same verdict and numbers as on one; with two
# count trees edited (the first and the last holding a counted leaf), the first named by all.
for j in 1 2 3; do
  "$P" verify --jobs $j "$T/q6.json" >"$T/v$j" 2>&1
done
check "6x6 count: the same verdict on 1, 2 and 3 threads" \
  "grep -q '^valid: ' '$T/v1' && cmp -s '$T/v1' '$T/v2' && cmp -s '$T/v1' '$T/v3'"
jq -c '(.count.trees | [range(0; length) as $i | select(.[$i] | test("c")) | $i]) as $c |
  .count.trees[$c[0]] |= sub("c";".") | .count.trees[$c[-1]] |= sub("c";".")' "$T/q6.json" >"$T/two.json"
for j in 1 2 3; do
  "$P" verify --jobs $j "$T/two.json" >"$T/w$j" 2>&1
done
first=$(jq '.count.trees | [range(0; length) as $i | select(.[$i] | test("c")) | $i] | .[0]' "$T/q6.json")
check "two count trees edited: the first (tree $first) named on 1, 2 and 3 threads" \
  "grep -q '^invalid: tree $first of the count (' '$T/w1' && cmp -s '$T/w1' '$T/w2' && cmp -s '$T/w1' '$T/w3'"
jq -c '.count.trees[0] = "c"' "$T/z3.json" >"$T/forged.json"
refuse "a count proof at size 0: malformed" "placements, and count" verify "$T/forged.json"
jq -c '.placements = ["1../.../..."]' "$T/z3.json" >"$T/forged.json"
verdict "size 0 with a piece listed: refused" 1 "invalid: placements: of size 0" "$T/forged.json"

# Stopped by the node limit, then resumed from its checkpoint (which keeps the parts' trees and
# classes): the certificate verifies; a checkpoint of a count without --cert has no trees: refused.
run 60 armies --colours 3 --board 6 --size 2 --count --cert "$T/r.json" --node-limit 3000 \
  --checkpoint "$T/ck.json" --quiet
check "a count certificate stopped by the node limit: exit 3, no certificate, a checkpoint" \
  "[ $rc -eq 3 ] && [ ! -e '$T/r.json' ] && [ -s '$T/ck.json' ]"
run 60 armies --colours 3 --board 6 --size 2 --count --cert "$T/r.json" --checkpoint "$T/ck.json" \
  --resume "$T/ck.json" --quiet
verdict "resumed: the certificate verifies" 0 "valid: 3 armies of Q on 6x6: $q6_count placements of 2" \
  "$T/r.json"
"$P" armies --colours 3 --board 6 --size 2 --count --node-limit 3000 --checkpoint "$T/ck2.json" \
  --quiet 2>/dev/null
refuse "a count's checkpoint without trees, resumed for a certificate: refused" "another board" \
  armies --colours 3 --board 6 --size 2 --count --cert "$T/r2.json" --checkpoint "$T/ck2.json" \
  --resume "$T/ck2.json" --quiet

# A count certificate made on a resumed checkpoint: written once it verifies. The checkpoint's
# counts are its word (sealed, not proven): a forged one, sealed again, gave a certificate that
# verify refuses, written, exit 0; now nothing is written, exit 2.
RESEAL=${RESEAL:-$(dirname "$P")/tests/reseal}
run 60 armies --colours 3 --board 6 --size 2 --count --cert "$T/rc.json" --checkpoint "$T/rc.ck" \
  --node-limit 20000 --jobs 1 --quiet
run 120 armies --colours 3 --board 6 --size 2 --count --cert "$T/rc.json" --resume "$T/rc.ck" \
  --jobs 1 --quiet
check "a count resumed with --cert: the certificate written verifies" \
  "[ $rc -eq 0 ] && '$P' verify '$T/rc.json' | grep -q '^valid: 3 armies .*26136 placements'"
sed 's/^\[0,{"count":\([0-9]*\),"fixed":\([0-9]*\),"fixed_colour":\([0-9]*\)}/[0,{"count":60\1,"fixed":60\2,"fixed_colour":60\3}/' \
  "$T/rc.ck" >"$T/rcf.ck"
"$RESEAL" "$T/rcf.ck"
run 120 armies --colours 3 --board 6 --size 2 --count --cert "$T/rcf.json" --resume "$T/rcf.ck" \
  --jobs 1 --quiet
check "a count resumed on a forged checkpoint with --cert: not written, exit 2, said why" \
  "! cmp -s '$T/rc.ck' '$T/rcf.ck' && [ $rc -eq 2 ] && [ ! -e '$T/rcf.json' ] &&
   grep -q 'not written: made in part on the resumed checkpoint.s word, the certificate does not verify' '$T/err'"
# The same for two armies: a checkpoint whose every part is "none", its proof a hole ('#', the
# syntax of a file of a proof in parts), sealed again. The check before writing took holes as
# proven elsewhere: it wrote the certificate of "14 against 14 do not fit on 10x10", exit 0.
run 60 armies --board 10 --size 14 --cert "$T/h0.json" --checkpoint "$T/h.ck" --node-limit 20 \
  --jobs 1 --quiet
jq -c '. as $d | [.done[][0]] as $h | .done += [range(0; $d.subparts) |
  select(. as $i | $h | index($i) | not) | [., {"found": false}, 0, "#"]]' "$T/h.ck" >"$T/hf.ck"
"$RESEAL" "$T/hf.ck"
run 120 armies --board 10 --size 14 --cert "$T/hf.json" --resume "$T/hf.ck" --jobs 1 --quiet
check "a decision resumed on holes with --cert: not written, exit 2, said why" \
  "[ $rc -eq 2 ] && [ ! -e '$T/hf.json' ] && grep -q 'does not verify (.*a file of a proof in parts' '$T/err'"
refuse "--colours --list with --cert: refused" "--list takes no --cert" armies --colours 3 \
  --board 5 --list --cert "$T/x.json"
"$P" armies --board 5 --colours 3 --cert "$T/c35.json" --quiet >/dev/null
verdict "a colours certificate given twice: each a whole proof, its leaves counted" 0 \
  "valid: 3 armies .*1577 leaves checked.*in 2 files, each a whole proof (3154 leaves" \
  "$T/c35.json" "$T/c35.json"
# A sampled check says how many leaves it left out, as for two armies (it said "some").
run 60 verify --sample 50 --seed 3 "$T/c35.json"
left=$(sed -n 's/.* \([0-9]*\) leaves checked, \([0-9]*\) not sampled).*/\1+\2/p' "$T/out")
check "verify --sample 50 of a colours certificate: valid in the sample, checked and left out add up" \
  "[ $rc -eq 3 ] && grep -q '^valid in the sample: ' '$T/out' && [ -n '$left' ] &&
   [ \$(($left)) -eq 1577 ]"
tap_end
