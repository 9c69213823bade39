#!/bin/sh
# count_cert.sh: count certificates (TAP): `armies --count --cert FILE` lists every optimal
# placement with a proof that there are no others, and verify recomputes the total and the
# classes (OEIS A260680) itself; any change to a count, a placement or the proof is refused.
. "${srcdir:-$(dirname "$0")/..}/tests/tap.sh"

# count_cert BOARD [ARGS...]: writes $T/BOARD.json.
count_cert() {
  b=$1
  shift
  run 300 armies --board "$b" --count --cert "$T/$b.json" "$@"
  check "armies $b $* --count --cert: exit 0, a certificate" "[ $rc -eq 0 ] && [ -s \"$T/$b.json\" ]"
}

# Published classes of optimal armies of queens (A260680) and our own totals, recomputed by the
# checker from the listed placements.
count_cert 6
verdict "6x6: 560 placements, 70 and 35 classes (A260680(6) = 35), maximum 5" 0 \
  "valid: .*560 placements of 5 against 5 (70 up to symmetry, 35 up to symmetry and colour exchange.*5 is the maximum" \
  "$T/6.json"
count_cert 7
verdict "7x7: 19 classes with colour exchange (A260680(7))" 0 \
  "valid: .*19 up to symmetry and colour exchange.*7 is the maximum" "$T/7.json"
count_cert 10
verdict "10x10: 6056 placements, 760 and 380 classes (A260680(10) = 380)" 0 \
  "valid: .*6056 placements of 14 against 14 (760 up to symmetry, 380 up to symmetry and colour exchange" \
  "$T/10.json"
# The count runs on the engine's threads: the certificate is the same file with any --jobs.
for j in 1 3; do
  run 300 armies --board 10 --count --cert "$T/10j$j.json" --jobs $j
  check "10x10 --count --cert with --jobs $j: the same file as with every core" \
    "[ $rc -eq 0 ] && cmp -s '$T/10.json' '$T/10j$j.json'"
done
count_cert 4
verdict "4x4: 10 classes with colour exchange (A260680(4))" 0 "valid: .* 10 up to symmetry and colour" \
  "$T/4.json"
# Other pieces, a rectangle, and a size below the maximum (no claim of a maximum then).
count_cert 5 --piece R
verdict "rooks 5x5: the count certificate verifies" 0 "valid: .*is the maximum" "$T/5.json"
count_cert 4x6 --piece B
verdict "bishops 4x6: the count certificate verifies" 0 "valid: .*is the maximum" "$T/4x6.json"
count_cert 5x3
verdict "queens 5x3: the count certificate verifies" 0 "valid: .*is the maximum" "$T/5x3.json"
run 300 armies --board 6 --count --size 4 --cert "$T/s4.json"
printed=$(head -1 "$T/out")
total=$(sed -n 's/.*"total":\([0-9]*\).*/\1/p' "$T/s4.json")
verdict "6x6 size 4: the count verifies, no maximum claimed" 0 "valid: .*of 4 against 4 ([^;]*; [^;]*)$" \
  "$T/s4.json"
check "6x6 size 4: the certificate's total ($total) is the count printed" \
  "[ -n \"$total\" ] && [ \"$printed\" = \"$total placements of 4 against 4 on 6x6\" ]"

# Forged counts: every change is refused.
c6=$T/6.json
edit() { sed "$2" "$c6" >"$T/$1.json"; }
edit total 's/"total":560/"total":561/'
verdict "a total changed: invalid" 1 "invalid: claim: the stated total" "$T/total.json"
edit totalstr 's/"total":560/"total":"560"/'
refuse "a total written as a string: malformed" "malformed armies certificate (total)" verify \
  "$T/totalstr.json"
edit unique 's/"unique":70/"unique":71/'
verdict "the classes up to symmetry changed: invalid" 1 "invalid: claim: the stated unique" \
  "$T/unique.json"
edit colour 's/"unique_colour":35/"unique_colour":34/'
verdict "the classes with colour exchange changed: invalid" 1 "invalid: claim" "$T/colour.json"
# One placement left out (the total adjusted): the proof counts it.
awk '/^"[.QqBbRr\/]*",?$/ && !done { done = 1; next } { print }' "$c6" |
  sed 's/"total":560/"total":559/' >"$T/fewer.json"
verdict "a placement left out: invalid" 1 "invalid: placements: 559 listed" "$T/fewer.json"
# The first placement listed twice (in place of the second).
awk '/^"[.QqBbRr\/]*",?$/ { n++; if (n == 1) first = $0; if (n == 2) { print first; next } }
  { print }' "$c6" >"$T/twice.json"
verdict "a placement listed twice: invalid" 1 "invalid: placements: a placement is listed twice" \
  "$T/twice.json"
# A placement with a white and a black queen swapped: no longer peaceable.
awk '/^"[.Qq\/]*",?$/ && !done { done = 1; sub(/Q/, "x"); sub(/q/, "Q"); sub(/x/, "q") } { print }' \
  "$c6" >"$T/swap.json"
verdict "a placement changed: invalid" 1 "invalid: witness" "$T/swap.json"
# A counted leaf turned into a closed one: its bound does not close it.
awk '/"count":/ { counting = 1 } counting && /^"[0-9].*c/ && !done { done = 1; sub(/c/, ".") }
  { print }' "$c6" >"$T/leaf.json"
verdict "a counted leaf turned into a closed one: invalid" 1 "invalid: tree" "$T/leaf.json"
# The first cube of the count given twice (in place of the second): two cubes of one orbit.
tr -d '\n' <"$c6" | sed 's/\("count":{"split":\[[0-9,]*\],"cubes":\["\([io]*\)",\)"[io]*"/\1"\2"/' \
  >"$T/orbit.json"
verdict "a count cube given twice: invalid" 1 "invalid: cubes: cube 1 shares its orbit" \
  "$T/orbit.json"
# A count claimed for unequal armies, a count without placements, or of kings.
edit unequal 's/"claim":"count","white":5/"claim":"count","white":4/'
verdict "a count of unequal armies: invalid" 1 "invalid: claim" "$T/unequal.json"
sed 's/"placements":\[/"plates":[/' "$c6" >"$T/nolist.json"
refuse "a count certificate without placements: malformed" "lists its placements" verify \
  "$T/nolist.json"
sed 's/"piece":"Q"/"piece":"K"/' "$c6" >"$T/kings.json"
verdict "a queens count certificate relabelled as kings: invalid (kings count by one tree, no split)" 1 \
  "invalid: count.split: a split line is not a line of the piece" "$T/kings.json"
jq -c '.count.split = [] | .count.cubes = [""] | .count.trees = [.count.trees[0]]' "$T/kings.json" \
  >"$T/kings1.json"
verdict "the same with no split: invalid, the tree not one of kings" 1 \
  "invalid: tree 0 of the count (cube \"\")" "$T/kings1.json"
# A decision's "c" leaf is refused: a proof of infeasibility counts nothing.
run 60 armies --board 5 --size 5 --cert "$T/i5.json"
awk '/^"[0-9]/ && !done { done = 1; sub(/\./, "c") } { print }' "$T/i5.json" >"$T/ic.json"
verdict "a count leaf in a proof of infeasibility: invalid, the tree named" 1 \
  "invalid: tree [0-9]* of the proof of infeasibility (cube \"[io]*\"), at byte [0-9]*: a count leaf" \
  "$T/ic.json"
refuse "--cert with --list: refused" "--cert" armies --board 5 --list --cert "$T/x.json"
refuse "--count with --list: refused, as in qn and pieces" "--count and --list exclude" armies \
  --board 5 --count --list

# Knights and kings: the count's proof is the Russian-doll search written out (doc/certificate.md,
# "Count certificates"): one tree over the squares whose leaves "c" are white armies X, each
# counting the black armies outside N[X], and the lemmas its closed leaves rest on.
count_cert 7 --piece N
verdict "knights 7x7: 20 placements, 3 and 2 classes, maximum 18, every one listed and checked" 0 \
  "valid: armies of N on 7x7: 20 placements of 18 against 18 (3 up to symmetry, 2 up to symmetry and colour exchange, every one listed and checked.*18 is the maximum" \
  "$T/7.json"
kn7=$T/kn7.json
cp "$T/7.json" "$kn7"
run 60 armies --board 6 --piece K --count --cert "$T/k6.json"
verdict "kings 6x6: 256 placements, 33 and 17 classes, maximum 14" 0 \
  "valid: armies of K on 6x6: 256 placements of 14 against 14 (33 up to symmetry, 17 up to symmetry and colour exchange" \
  "$T/k6.json"
count_cert 7x4 --piece K
verdict "kings 7x4 (searched by columns): 2 placements of 12 against 12" 0 \
  "valid: armies of K on 7x4: 2 placements of 12 against 12" "$T/7x4.json"
check "kings 7x4: the count's proof says it numbers the squares by columns" \
  "jq -e '.count.order == \"columns\" and (.count.lemmas | type == \"array\")' '$T/7x4.json' >/dev/null"
# 191196, 23970 and 12197 are also what the square-by-square search of the build before gave
# (19.7 s; this search: well under a second).
run 60 armies --board 6 --piece N --count --size 12 --cert "$T/n6.json"
verdict "knights 6x6 --size 12: 191196 placements, a count below the maximum, no maximum claimed" 0 \
  "valid: armies of N on 6x6: 191196 placements of 12 against 12 (23970 up to symmetry, 12197 up to symmetry and colour exchange, every one listed and checked; 1 cube, [0-9]* leaves checked)\$" \
  "$T/n6.json"
# Any change to the count, the list or the proof is refused.
jq -c '.total = 21' "$kn7" >"$T/f1.json"
verdict "knights: a total of 21 stated for 20: invalid" 1 "invalid: claim: the stated total" "$T/f1.json"
jq -c '.placements |= .[1:]' "$kn7" >"$T/f2.json"
verdict "knights: a placement left out of the list: invalid" 1 \
  "invalid: placements: 19 listed, but the count proof counts 20" "$T/f2.json"
jq -c '.count.trees[0] |= sub("c"; ".")' "$kn7" >"$T/f3.json"
verdict "knights: a count leaf \"c\" made a closed leaf \".\": invalid, the count's tree named" 1 \
  "invalid: tree 0 of the count .*the count's tree: a leaf's bound does not close it" "$T/f3.json"
jq -c '.count.trees[0] |= sub("^x"; "c")' "$kn7" >"$T/f4.json"
verdict "knights: a count leaf with squares still to choose: invalid" 1 \
  "invalid: tree 0 of the count .*squares still to choose" "$T/f4.json"
jq -c '.count.lemmas[0].least += 1' "$kn7" >"$T/f5.json"
verdict "knights: a count's lemma claiming one more: invalid, the lemma named" 1 \
  "invalid: tree 0 of the count .*lemma 0: a leaf's bound does not close it" "$T/f5.json"
jq -c '.count.lemmas = []' "$kn7" >"$T/f6.json"
verdict "knights: the count's lemmas dropped: invalid" 1 "invalid: tree 0 of the count" "$T/f6.json"
jq -c '.count.lemmas[0].tree |= sub("\\."; "c")' "$kn7" >"$T/f9.json"
verdict "knights: a count leaf \"c\" in a lemma of the count: invalid" 1 \
  "invalid: tree 0 of the count .*lemma 0: a count leaf" "$T/f9.json"
run 60 armies --board 6 --piece N --size 15 --cert "$T/n15.json"
jq -c '.infeasible.trees[0] |= sub("\\."; "c")' "$T/n15.json" >"$T/f10.json"
verdict "knights: a count leaf \"c\" in a proof of infeasibility: invalid" 1 \
  "invalid: tree 0 of the proof of infeasibility .*a count leaf" "$T/f10.json"
jq -c '.count.lemmas = []' "$c6" >"$T/f7.json"
refuse "lemmas in a queens count: malformed" "count: lemmas" verify "$T/f7.json"
jq -c '.count.order = "columns"' "$c6" >"$T/f8.json"
refuse "an order in a queens count: malformed" "count: order" verify "$T/f8.json"

# A count stopped before the maximum is known: exit 3 and one message ("no count"), not a second
# one about placements counted so far; stdout has the army found, "not proven", and no count.
run 30 armies --board 14 --count --time-limit 1
check "a count stopped before the maximum: exit 3, one message" \
  "[ $rc -eq 3 ] && one_message 'no count' && grep -q 'or more, not proven' \"$T/out\" &&
   ! grep -q placements \"$T/out\""

# qn: equal queens and knights, 8x8: 16 placements of the maximum 5, 2 up to symmetry (the
# project's brief); the checker enumerates each cube and finds every placement in the list.
run 60 qn --board 8 --count --cert "$T/q8.json"
check "qn 8x8 --count --cert: exit 0" "[ $rc -eq 0 ] && [ -s \"$T/q8.json\" ]"
verdict "qn 8x8: 16 placements, 2 up to symmetry, 6 does not fit" 0 \
  "valid: qn QN 1:1 on 8x8: 16 placements of 5 Q and 5 N (2 up to symmetry.*6 Q and 6 N do not" \
  "$T/q8.json"
q8=$T/q8.json
sed 's/"total":16/"total":17/' "$q8" >"$T/qt.json"
verdict "qn: a total changed: invalid" 1 "invalid: claim: the stated total" "$T/qt.json"
sed 's/"unique":2/"unique":"2"/' "$q8" >"$T/qs.json"
refuse "qn: unique written as a string: malformed" "malformed qn certificate (total and unique" \
  verify "$T/qs.json"
sed 's/"unique":2/"unique":1/' "$q8" >"$T/qu.json"
verdict "qn: the classes changed: invalid" 1 "invalid: claim: the stated unique" "$T/qu.json"
# One placement left out: the list is no longer closed under the symmetries.
awk '/^"[.QN\/]*",?$/ && !done { done = 1; next } { print }' "$q8" |
  sed 's/"total":16/"total":15/' >"$T/qf.json"
verdict "qn: a placement left out: invalid" 1 "invalid: placements: the image" "$T/qf.json"
# Half the placements left out (totals adjusted): whether or not the rest is closed under the
# symmetries, the cube searches find placements that are not listed.
awk '/^"[.QN\/]*",?$/ { n++; if (n <= 8) next } { print }' "$q8" |
  sed 's/"total":16/"total":8/; s/"unique":2/"unique":1/' | tr -d '\n' |
  sed 's/"placements":\[,/"placements":[/' >"$T/qc.json"
verdict "qn: half the placements left out: invalid" 1 "invalid: " "$T/qc.json"
run 60 qn --board 6 --count --size 2 --cert "$T/q6s2.json"
verdict "qn 6x6 size 2: a count without a maximum verifies" 0 "valid: qn QN 1:1 on 6x6: [0-9]* placements of 2 Q and 2 N ([0-9]* up to symmetry; [^;]*)$" \
  "$T/q6s2.json"
refuse "qn --count --cert with --checkpoint: refused" "--count --cert" qn --board 6 --count \
  --cert "$T/x.json" --checkpoint "$T/ck.json"

# Small armies: each black queen is on one line of each direction and every line decided "out"
# holds one, so a count closes nodes with more such lines in a direction than black pieces (the
# checker knows the rule too). 8x8 at 0 took 17 s and at 1 took 5.7 s; 1 against 1 is the
# 64 x 63 ordered pairs less the 2 x 728 pairs of squares a queen's move apart.
for k in 0 1; do
  start=$(date +%s.%N)
  run 60 armies --board 8 --size $k --count --jobs 1 --quiet --cert "$T/small$k.json"
  took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  want=$([ $k -eq 0 ] && echo "1 placement of 0" || echo "2576 placements of 1")
  check "8x8 count at $k: '$want' in under 3 s (took $took s)" \
    "[ $rc -eq 0 ] && grep -q '^$want against' '$T/out' && awk -v t=$took 'BEGIN { exit !(t < 3) }'"
  verdict "8x8 count at $k: its certificate verifies" 0 "valid: armies of Q on 8x8: $want against" \
    "$T/small$k.json"
done

tap_end
