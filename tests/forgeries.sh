#!/bin/sh
# forgeries.sh: forged and ambiguous files that no checker or reader may accept (TAP): false
# claims dressed as certificates, a maximum that certifies something else, duplicate JSON
# members, witnesses whose rows are not the board's.
. "${srcdir:-$(dirname "$0")/..}/tests/tap.sh"

# cert FILE BOARD PIECE CLAIM WITNESS-MEMBERS IW IB COMPLEMENT SPLIT CUBE...: an armies
# certificate whose every tree is one leaf; WITNESS-MEMBERS is empty or '"white":..,"black":..,
# "witness":".."' (with its trailing comma).
cert() {
  f=$1 board=$2 piece=$3 claim=$4 witness=$5 iw=$6 ib=$7 comp=$8 split=$9
  shift 9
  cubes="" trees=""
  for q in "$@"; do
    cubes="$cubes${cubes:+,}\"$q\""
    trees="$trees${trees:+,}\".\""
  done
  printf '{"format":"peaceable-certificate","version":1,"problem":"armies","board":"%s",' "$board" >"$f"
  printf '"piece":"%s","claim":"%s",%s"infeasible":{"white":%s,"black":%s,' "$piece" "$claim" \
    "$witness" "$iw" "$ib" >>"$f"
  printf '"split":[%s],"complement":%s,"cubes":[%s],"trees":[%s]}}\n' "$split" "$comp" "$cubes" \
    "$trees" >>"$f"
}

# assignments N: every string of N letters i and o; with a suffix, each followed by it.
assignments() {
  awk -v n="$1" -v suffix="$2" 'BEGIN { for (x = 0; x < 2 ^ n; x++) { s = "";
    for (i = 0; i < n; i++) s = s (int(x / 2 ^ i) % 2 ? "i" : "o"); print s suffix } }'
}

# On boards with a side of 1, a column, a diagonal and an anti-diagonal can be one square. These
# certificates split on every such line and list only the choices where the anti-diagonals (the
# last lines of the split) are "out": matched by their squares, each anti-diagonal was taken for
# the first line with its square, and every cube shut every square to white. Each claims
# something false.
diag8="9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24"
# shellcheck disable=SC2046
cert "$T/b8x1.json" 8x1 B maximum '"white":3,"black":3,"witness":"BbBbBb..",' 4 4 true \
  "$diag8" $(assignments 8 oooooooo)
run 60 armies --board 8x1 --piece B --json
check "8x1 bishops: 4 against 4 fit (BbBbBbBb)" "grep -q '\"size\":4,\"optimal\":true' \"$T/out\""
verdict "forged: 3 and 3 the maximum of bishops on 8x1: invalid" 1 "invalid: cubes" "$T/b8x1.json"
# shellcheck disable=SC2046
cert "$T/b1x8.json" 1x8 B maximum '"white":3,"black":3,"witness":"B/b/B/b/B/b/./.",' 4 4 true \
  "$diag8" $(assignments 8 oooooooo)
verdict "forged: 3 and 3 the maximum of bishops on 1x8: invalid" 1 "invalid: cubes" "$T/b1x8.json"
# 2x1: row 0, columns 1 and 2, diagonals 3 and 4, anti-diagonals 5 and 6.
# shellcheck disable=SC2046
cert "$T/q2x1.json" 2x1 Q infeasible "" 1 0 false "0,1,2,3,4,5,6" $(assignments 3 oooo)
verdict "forged: 1 white queen and 0 black do not fit on 2x1: invalid" 1 "invalid: cubes" \
  "$T/q2x1.json"
cert "$T/r1x1.json" 1x1 R infeasible "" 1 0 false "0,1" io oo
verdict "forged: 1 white rook does not fit on 1x1: invalid" 1 "invalid: cubes" "$T/r1x1.json"
# The program's own certificates on such boards are proofs, by lines and not by squares.
for b in 8x1 1x8 2x1 3x1 1x1; do
  for p in Q R B; do
    run 60 armies --board $b --piece $p --cert "$T/own.json"
    verdict "the certificate of $p on $b verifies" 0 "valid: " "$T/own.json"
  done
done

# A maximum is of equal armies, or of black armies against a fixed white army: a witness of 6
# against 4 with the proof that 7 against 5 do not fit certifies neither (the truth is 5).
run 60 armies --board 6 --white 7 --cert "$T/w7.json"
sed 's|"white":7,"black":4,"witness":"[^"]*"|"white":6,"black":4,"witness":"Q.QQ../...Q../Q.Q.../....q./.q...q/....q."|' \
  "$T/w7.json" >"$T/w6b4.json"
run 60 armies --board 6 --json
check "6x6: the maximum is 5" "grep -q '\"size\":5,\"optimal\":true' \"$T/out\""
verdict "a 6-against-4 witness with 7 against 5 infeasible is no maximum: invalid" 1 \
  "invalid: claim" "$T/w6b4.json"
verdict "the fixed-white certificate says what it proves" 0 \
  "valid: .*the largest black army facing 7 white is 4" "$T/w7.json"
run 60 armies --board 6 --cert "$T/c6.json"
verdict "the equal-armies certificate says what it proves" 0 \
  "valid: .*the maximum of equal armies is 5" "$T/c6.json"

# One file, one reading: a member given twice is refused in every document (JSON readers differ
# on which one wins).
sed 's/"claim":"maximum"/"claim":"maximum","claim":"infeasible"/' "$T/c6.json" >"$T/dup.json"
refuse "a certificate with a member given twice: malformed" "given twice" verify "$T/dup.json"
sed 's/"white":6,/"white":6,"black":1,/' "$T/c6.json" >"$T/dup2.json"
refuse "a member given twice inside the proof: malformed" "given twice" verify "$T/dup2.json"
run 60 armies --board 6 --size 5 --part 1/1
sed 's/^{"problem":"armies"/{"problem":"armies","problem":"qn"/' "$T/out" >"$T/part.json"
refuse "a part result with a member given twice: refused by merge" "given twice" merge \
  "$T/part.json"

# One name for one board: a certificate names it WIDTHxHEIGHT exactly.
for b in 6 06x6 6X6 6x06 " 6x6" "6x6 "; do
  sed "s/\"board\":\"6x6\"/\"board\":\"$b\"/" "$T/c6.json" >"$T/board.json"
  refuse "a certificate naming the board \"$b\": malformed" "expected WIDTHxHEIGHT" verify \
    "$T/board.json"
done
run 60 qn --board 6 --cert "$T/q6.json"
sed 's/"board":"6x6"/"board":"6"/' "$T/q6.json" >"$T/board.json"
refuse "a qn certificate naming the board \"6\": malformed" "expected WIDTHxHEIGHT" verify \
  "$T/board.json"
refuse "... the message names the file" "verify: $T/board.json: board \"6\"" verify "$T/board.json"

# A malformed cube after the proof was read in part: one message, exit 2 (the checker freed the
# proof twice here once).
sed 's/"cubes":\["[io]*"/"cubes":["x"/' "$T/c6.json" >"$T/cube.json"
refuse "a malformed cube: malformed, one message" "cube 0" verify "$T/cube.json"

# A witness is the board's rows joined by '/', no more and no less.
run 60 armies --board 7 --cert "$T/c7.json"
sed 's|\("witness":"[^/"]*\)/|\1|' "$T/c7.json" >"$T/slash.json"
verdict "a witness with one '/' removed: invalid" 1 "invalid: witness" "$T/slash.json"
sed 's|\("witness":"[^/"]*\)/|\1//|' "$T/c7.json" >"$T/slash2.json"
verdict "a witness with one '/' doubled: invalid" 1 "invalid: witness" "$T/slash2.json"
sed 's|\("witness":"[^/"]*\)/\([^/"]\)|\1\2/|' "$T/c7.json" >"$T/slash3.json"
verdict "a witness with a '/' moved by one square: invalid" 1 "invalid: witness" "$T/slash3.json"
sed 's|\("witness":"[^"]*\)"|\1/"|' "$T/c7.json" >"$T/slash4.json"
verdict "a witness with a '/' at its end: invalid" 1 "invalid: witness" "$T/slash4.json"

# A proof that one more does not fit, relabelled as a proof for a size that fits: at least one of
# its leaves is then not closed by the bound, which the checker must see (the bound's edge, on
# squares and rectangles; bishops always fill half the board, so their proofs are of counting).
for args in "8 Q 9 10" "9 Q 12 13" "11 Q 17 18" "7x9 Q 10 11" "10x6 Q 10 11" "6 R 9 10" "5x7 R 8 9"; do
  set -- $args
  rm -f "$T/edge.json"
  run 60 armies --board "$1" --piece "$2" --size "$4" --method search --jobs 1 --cert "$T/edge.json"
  verdict "$2 on $1: the proof that $4 against $4 do not fit verifies" 0 "valid: " "$T/edge.json"
  jq -c ".infeasible.white = $3 | .infeasible.black = $3" "$T/edge.json" >"$T/edge-1.json"
  verdict "$2 on $1: relabelled as $3 against $3 (which fit): invalid" 1 \
    "invalid: .*a leaf's bound does not close it" "$T/edge-1.json"
done

# The same for a fixed white army: the proof that W white face no B + 1 black, as W against B.
for args in "8 9" "10 14" "7x9 10"; do
  set -- $args
  rm -f "$T/edge.json"
  run 60 armies --board "$1" --white "$2" --method search --jobs 1 --cert "$T/edge.json"
  jq -c '.claim = "infeasible" | del(.white, .black, .witness) | .infeasible.black -= 1' \
    "$T/edge.json" >"$T/edge-1.json"
  verdict "Q on $1, $2 white: the largest black army's proof, one black less: invalid" 1 \
    "invalid: .*a leaf's bound does not close it" "$T/edge-1.json"
done

# verify --jobs N checks one certificate's trees on N threads; the verdict and its message are
# those of one thread (the first tree in order that fails). 11x11, no 18 against 18, relabelled
# as 16 against 16: many trees fail.
rm -f "$T/edge.json"
run 60 armies --board 11 --size 18 --method search --jobs 1 --cert "$T/edge.json"
jq -c ".infeasible.white = 16 | .infeasible.black = 16" "$T/edge.json" >"$T/edge-1.json"
for j in 1 3; do
  "$P" verify --jobs $j "$T/edge.json" >"$T/v$j" 2>&1
  echo "exit $?" >>"$T/v$j"
  "$P" verify --jobs $j "$T/edge-1.json" >"$T/f$j" 2>&1
  echo "exit $?" >>"$T/f$j"
done
check "verify --jobs 1 and 3: the same verdicts (a proof, and its relabelled forgery)" \
  "cmp -s '$T/v1' '$T/v3' && cmp -s '$T/f1' '$T/f3' && grep -q '^valid: ' '$T/v1' && grep -q '^invalid: tree ' '$T/f1'"

# A count proof whose split names lines the piece does not move along (the diagonals, for rooks):
# its cubes then close squares no rook line does, and 8 of the 18 placements of 2 rooks against 2
# on 3x3 were counted as all of them (the tree: every rook line in or out, a counted leaf).
t() { [ "$1" -eq 6 ] && printf c && return; printf '%d,' "$1"; t $(($1 + 1)); t $(($1 + 1)); }
tree=$(t 0)
run 30 armies --board 3 --piece R --count --cert "$T/r3c.json" --quiet
pl='["RR./..r/..r", "R.R/.r./.r.", "R../R../.rr", "R../.rr/R..", ".RR/r../r..", ".R./.R./r.r",
  ".R./r.r/.R.", "..R/..R/rr."]'
jq -c --arg t "$tree" --argjson pl "$pl" '.count = {split: [8, 13], cubes: ["oo", "io", "ii"],
  trees: [$t, $t, $t]} | .placements = $pl | .total = 8 | .unique = 4 | .unique_colour = 3' \
  "$T/r3c.json" >"$T/r3f.json"
verdict "forged: 8 placements of 2 rooks against 2 on 3x3, counted through diagonal split lines: invalid" 1 \
  "invalid: count.split: a split line is not a line of the piece" "$T/r3f.json"
jq -c '.infeasible.split[0] = 8' "$T/r3c.json" >"$T/r3g.json"
verdict "forged: a rooks proof split on a diagonal: invalid" 1 \
  "invalid: infeasible.split: a split line is not a line of the piece" "$T/r3g.json"

# A feasible claim with an infeasible member the checker would not read: malformed, alone, among
# several files (which once crashed on its unread trees) and in merge.
run 30 armies --board 4 --size 2 --cert "$T/feas.json" --quiet
jq -c '. + {infeasible: {trees: ["["]}}' "$T/feas.json" >"$T/feas2.json"
refuse "a feasible claim with an infeasible member: malformed" \
  "a feasible claim has no infeasible member" verify "$T/feas2.json"
run 30 verify "$T/feas2.json" "$T/feas2.json"
check "the same in several files: exit 2, no crash" "[ $rc -eq 2 ] && grep -q 'no infeasible member' '$T/err'"
run 30 merge --cert "$T/m.json" "$T/feas2.json" "$T/feas2.json"
check "and in merge --cert: exit 2, no crash, nothing written" "[ $rc -eq 2 ] && [ ! -e '$T/m.json' ]"
run 30 armies --colours 3 --board 6 --size 2 --cert "$T/cfeas.json" --quiet
jq -c '. + {infeasible: {size: 3, split: [], cubes: [""], trees: ["."]}}' "$T/cfeas.json" >"$T/cfeas2.json"
refuse "three colours: a feasible claim with an infeasible member: malformed" \
  "a feasible claim has no infeasible member" verify "$T/cfeas2.json"

# A count leaf whose count is hard: 16 black rooks meeting 32 lines on 32x32 (a permanent). The
# checker may take long on it, but a time limit and signals stop it (it once ran on regardless).
tree=$(for l in $(seq 0 63); do
  if [ $((l % 32)) -lt 16 ]; then printf '%d,' $l; else printf '%d;' $l; fi
done)c$(printf '.%.0s' $(seq 64))
printf '{"format":"peaceable-certificate","version":1,"problem":"armies","board":"32x32","piece":"R","claim":"count","white":16,"black":16,"total":0,"unique":0,"unique_colour":0,"placements":[],"count":{"split":[],"cubes":[""],"trees":["%s"]}}' \
  "$tree" >"$T/hard.json"
run 30 verify --time-limit 2 "$T/hard.json"
check "a count leaf too hard to count: --time-limit 2 stops verify, exit 3, no verdict" \
  "[ $rc -eq 3 ] && [ ! -s '$T/out' ] && grep -q 'time limit ended the check' '$T/err'"

# A checkpoint edited and sealed again reads as the program's own: its digest guards against
# accidents, not against forgery. An answer that rests on it (a count, an impossibility, knights'
# bounds) says so, in text and JSON; a witness taken from it is checked, so a feasible answer
# does not; a run without --resume never does.
RESEAL=${RESEAL:-$(dirname "$P")/tests/reseal}
word="(resumed: in part on the checkpoint's word, not checked)"
# pieces: a subpart's count raised by 1000000 (the truth: 1664).
$P pieces --board 5 --pieces K2Q1N2 --checkpoint "$T/pc.ck" >/dev/null 2>&1
sed '0,/{"count":\([0-9]*\)}/s//{"count":100000\1}/' "$T/pc.ck" >"$T/pcf.ck" && "$RESEAL" "$T/pcf.ck"
run 30 pieces --board 5 --pieces K2Q1N2 --resume "$T/pcf.ck"
check "pieces resumed from a forged count: the total says on stderr that it rests on the checkpoint" \
  "[ $rc -eq 0 ] && [ \$(cat '$T/out') -gt 1000000 ] && grep -q \"resumed checkpoint's word, not checked\" '$T/err'"
run 30 pieces --board 5 --pieces K2Q1N2 --resume "$T/pcf.ck" --json
check "pieces resumed from a forged count, --json: \"checked\":false" \
  "grep -q '\"checked\":false' '$T/out'"
run 30 pieces --board 5 --pieces K2Q1N2 --json
check "pieces not resumed: 1664, no \"checked\" and no note" \
  "grep -q '\"count\":1664,' '$T/out' && ! grep -q checked '$T/out' && [ ! -s '$T/err' ]"
# armies counts: the first subpart's count doubled (the truth: 1312).
$P armies --board 5 --count --size 3 --checkpoint "$T/ac.ck" >/dev/null 2>&1
sed '0,/\[0,{"count":\([0-9]*\),/s//[0,{"count":1\1,/' "$T/ac.ck" >"$T/acf.ck" && "$RESEAL" "$T/acf.ck"
run 30 armies --board 5 --count --size 3 --resume "$T/acf.ck"
check "armies count resumed from a forged checkpoint: its total marked as the checkpoint's word" \
  "[ $rc -eq 0 ] && ! grep -q '^1312 ' '$T/out' && grep -qF \"$word\" '$T/out'"
# armies decisions: an impossibility resumed is marked, a witness resumed is not.
$P armies --board 7 --size 8 --checkpoint "$T/a8.ck" >/dev/null 2>&1
run 30 armies --board 7 --size 8 --resume "$T/a8.ck" --json
check "armies impossibility resumed: \"checked\":false" \
  "grep -q '\"feasible\":false,\"proved_by\":\"search\",\"checked\":false' '$T/out'"
$P armies --board 7 --size 7 --checkpoint "$T/a7.ck" >/dev/null 2>&1
run 30 armies --board 7 --size 7 --resume "$T/a7.ck"
check "armies witness resumed (checked): not marked" \
  "[ $rc -eq 0 ] && grep -q ': possible$' '$T/out' && ! grep -q checkpoint '$T/out'"
# qn: the checkpoint's proven impossibility is its word.
$P qn --board 6 --checkpoint "$T/q.ck" >/dev/null 2>&1
run 30 qn --board 6 --resume "$T/q.ck"
check "qn resumed with its impossibility from the checkpoint: marked" \
  "[ $rc -eq 0 ] && grep -qF \"the maximum, proven by search (no placement of 4 queens and 4 knights) $word\" '$T/out'"
# knights: the bounds are the checkpoint's word, unless --cert proves them again.
$P armies --board 5 --piece N --checkpoint "$T/n.ck" >/dev/null 2>&1
run 30 armies --board 5 --piece N --resume "$T/n.ck"
check "knights resumed without --cert: marked" "grep -qF \"$word\" '$T/out'"
run 30 armies --board 5 --piece N --resume "$T/n.ck" --cert "$T/n.json"
check "knights resumed with --cert (every bound proven again): not marked" \
  "[ $rc -eq 0 ] && grep -q 'maximum 10, proven optimal' '$T/out' && ! grep -q checkpoint '$T/out'"

# A count is checked whole under --sample: a sample of its leaves let this forgery through with
# exit status 0 ("valid in the sample: ... 14 placements"; the truth is 18): the real 3x3 rooks
# count with one counted cube's leaf made a bound leaf, its 4 placements dropped.
cat >"$T/r3f.json" <<'END'
{"format": "peaceable-certificate", "version": 1, "problem": "armies", "board": "3x3", "piece": "R", "claim": "count", "white": 2, "black": 2, "total": 14, "unique": 3, "unique_colour": 3, "placements": ["..R/..R/rr.", "..r/..r/RR.", "..r/RR./..r", ".R./.R./r.r", ".R./r.r/.R.", ".RR/r../r..", ".r./R.R/.r.", ".rr/R../R..", "R../R../.rr", "RR./..r/..r", "r../.RR/r..", "r../r../.RR", "r.r/.R./.R.", "rr./..R/..R"], "count": {"split": [0, 2, 5, 3, 1, 4], "cubes": ["iiiooo", "ioioio", "ioooii", "ooiiio", "iiiioo", "ioiiio", "ioioii", "ioiooo", "ooioio", "ooooii", "iiiiii", "iiiiio", "iiioii", "iiioio", "iiooii", "iiooio", "iioooo", "ioooio", "iooooo", "ooooio", "oooooo"], "trees": [".", "c", "c", "c", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", "."]}, "infeasible": {"white": 3, "black": 3, "complement": true, "split": [0, 2, 5, 3, 1, 4], "cubes": ["iiiooo", "ioioio", "ooiiio", "iiiioo", "ioiooo", "ooioio", "iiooio", "iioooo", "ioooio", "iooooo", "ooooio", "oooooo"], "trees": [".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", "."]}}
END
run 30 verify --jobs 1 --sample 50 --seed 2 "$T/r3f.json"
check "a forged count under --sample 50: invalid, exit 1 (a count is never sampled)" \
  "[ $rc -eq 1 ] && grep -q '^invalid: tree 0 of the count' '$T/out'"
$P armies --board 3 --piece R --count --cert "$T/r3.json" >/dev/null 2>&1
run 30 verify --jobs 1 --sample 50 --seed 2 "$T/r3.json"
check "the true count under --sample 50: its 18 placements, every count leaf checked (exit 3: the proof of 3 against 3 sampled)" \
  "[ $rc -eq 3 ] && grep -q ': 18 placements of 2 against 2' '$T/out'"

# A false claim under --sample: 2 against 2 queens "do not fit" on 4x4 (they do), its first cube
# one that closes, the rest of the proof false. A sample that took only that cube said "valid in
# the sample" with exit 0, the status of a verified claim (found by a forgery hunt). An audit is
# no verdict: exit 3, and "valid":null in JSON; the whole check says invalid.
cat >"$T/f22.json" <<'END'
{"format": "peaceable-certificate", "version": 1, "problem": "armies", "board": "4x4", "piece": "Q", "claim": "infeasible", "infeasible": {"white": 2, "black": 2, "complement": true, "split": [0, 3, 7, 4, 1, 2, 6, 5, 11, 18], "cubes": ["oooooooooo", "ooiiiiooio", "ooiiiioooo", "ioiiioooio", "oiiiioooio", "oiioioioio", "iiiiiooooo", "iiiiooooio", "iiioioioio", "iiioioiooo", "iiioioooio", "iioiioioio", "iioiioiooo", "iioiioooio", "iiooioioio", "iiooioiooo", "ioiiiioooo", "ioiiiooooo", "ioioiiiooo", "ioioiiooio", "ioioiioooo", "ioioioioio", "ioioioiooo", "iooiiiiooo", "iooiioooio", "ioooiiiioo", "oiiiiooooo", "oiioioiooo", "oiioioooio", "oioiioioio", "oioiioiooo", "ooiiiiiooo", "ooiiioooio", "ooiiiooooo", "ooioiiiooo", "ooioiiooio", "ooioiioooo", "oooiiiiooo", "iiiiioioio", "iiiiioiooo", "iiiiioooio", "iiioiooooo", "iiioooooio", "ioiiiiiooo", "ioioiiiioo", "ioioioooio", "ioioiooooo", "ioooiiiooo", "ioooioioio", "ioooioiooo", "oiioiooooo", "oiioooooio", "oioiioooio", "oiooioioio", "oiooioiooo", "ooioioooio", "ooioiooooo", "oooiioooio", "iiiiiiiioo", "iiiiiiiooo", "iiiiiioooo", "iiiioooooo", "iiioiiiioo", "iiioiiiooo", "iiioiioooo", "iiiooooooo", "iioiiiiooo", "iiooiiiioo", "iiooiiiooo", "iiooiiooio", "iiooiioooo", "iiooioooio", "iiooiooooo", "iiooooooio", "iioooooooo", "ioioooooio", "ioiooooooo", "ioooiiooio", "ioooiioooo", "ioooioooio", "ioooiooooo", "ioooooooio", "iooooooooo", "oiooioooio", "oiooiooooo", "ooooiiiioo", "ooooiiiooo", "ooooiiooio", "ooooiioooo", "ooooioioio", "ooooioiooo", "ooooioooio", "ooooiooooo", "ooooooooio", "oooooooooo"], "trees": [".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", ".", "."]}}
END
run 30 verify --sample 0.001 --seed 3 "$T/f22.json"
check "a false claim sampled to one closing cube: exit 3 (no verdict), not 0" \
  "[ $rc -eq 3 ] && grep -q '^valid in the sample: .*1 leaf checked' '$T/out'"
run 30 verify --sample 0.001 --seed 3 --json "$T/f22.json"
check "... --json: \"valid\":null, \"sampled\":true, exit 3" \
  "[ $rc -eq 3 ] && jq -e '.valid == null and .sampled' '$T/out' >/dev/null"
run 30 verify "$T/f22.json"
check "... checked whole: invalid, exit 1" "[ $rc -eq 1 ] && grep -q '^invalid: ' '$T/out'"

# A count of a size that does not fit (no placements) with the proof that one more does not fit
# either: it claimed that size the maximum, and verified (exit 0) for queens, three colours,
# kings, knights and qn. Each is made of two true certificates.
forge_max() {
  name=$1 count=$2 next=$3
  shift 3
  "$P" "$@" --count --cert "$T/$name-c.json" >/dev/null 2>&1
  "$P" $(echo "$*" | sed "s/--size $count/--size $next/") --cert "$T/$name-n.json" >/dev/null 2>&1
  jq -c --slurpfile n "$T/$name-n.json" '.infeasible = $n[0].infeasible' "$T/$name-c.json" \
    >"$T/$name.json"
  run 30 verify --jobs 1 "$T/$name.json"
  check "a count of none at $count as the maximum ($name): invalid, exit 1" \
    "[ $rc -eq 1 ] && grep -q '^invalid: claim: a count of none is no maximum' '$T/out'"
}
forge_max q4 3 4 armies --board 4 --jobs 1 --size 3
forge_max c3q5 2 3 armies --board 5 --colours 3 --jobs 1 --size 2
forge_max k4 6 7 armies --board 4 --piece K --jobs 1 --size 6
forge_max n4 7 8 armies --board 4 --piece N --jobs 1 --size 7
# qn writes a size that does not fit as an impossibility: its count certificate is made by hand,
# the count's proof that of the impossibility.
"$P" qn --board 5 --jobs 1 --size 3 --cert "$T/qn5-3.json" >/dev/null 2>&1
"$P" qn --board 5 --jobs 1 --size 4 --cert "$T/qn5-4.json" >/dev/null 2>&1
jq -c --slurpfile n "$T/qn5-4.json" '.claim = "count" | .size = 3 | .total = 0 | .unique = 0 |
  .placements = [] | .count = .infeasible | .infeasible = $n[0].infeasible' "$T/qn5-3.json" \
  >"$T/qn5.json"
run 30 verify --jobs 1 "$T/qn5.json"
check "a qn count of none at 3 with the proof that 4 do not fit: invalid, exit 1" \
  "[ $rc -eq 1 ] && grep -q '^invalid: claim: a count of none is no maximum' '$T/out'"

# What the format does not allow, though the claims are true: the leaf "s" (an exhaustive search)
# for a line piece, kings' and knights' trees in two cubes, a witness in a count.
"$P" armies --board 4 --size 3 --jobs 1 --cert "$T/q4-3.json" >/dev/null 2>&1
jq -c '.infeasible.split = [] | .infeasible.cubes = [""] | .infeasible.trees = ["s"]' \
  "$T/q4-3.json" >"$T/q4s.json"
run 30 verify --jobs 1 "$T/q4s.json"
check "queens proven by the leaf \"s\": invalid, exit 1" \
  "[ $rc -eq 1 ] && grep -q 'the leaf \"s\" is for kings and knights' '$T/out'"
"$P" armies --board 4 --piece N --size 7 --method search --jobs 1 --cert "$T/n4-7.json" >/dev/null 2>&1
jq -c '.infeasible.cubes = ["", ""] | .infeasible.trees = ["s", "s"] | del(.infeasible.lemmas)' \
  "$T/n4-7.json" >"$T/n4ss.json"
run 30 verify --jobs 1 "$T/n4ss.json"
check "knights proven in two cubes: invalid, exit 1" "[ $rc -eq 1 ] && grep -q 'in one cube' '$T/out'"
"$P" armies --board 5 --count --jobs 1 --cert "$T/q5c.json" >/dev/null 2>&1
jq -c '.witness = "garbage"' "$T/q5c.json" >"$T/q5cw.json"
run 30 verify --jobs 1 "$T/q5cw.json"
check "a count with a witness: malformed, exit 2" \
  "[ $rc -eq 2 ] && grep -q 'a count certificate has no witness' '$T/err'"

# Members of a claim that the certificate's checker never reads say what nothing checks: a valid
# certificate with a false total, size or colours beside its claim verified, and verify --json
# gave them as its proven "claim". Each is refused as malformed; the true ones stay valid.
"$P" armies --board 5 --jobs 1 --quiet --cert "$T/m5.json" >/dev/null 2>&1
"$P" qn --board 6 --jobs 1 --quiet --cert "$T/qn6.json" >/dev/null 2>&1
"$P" armies --colours 3 --board 5 --jobs 1 --quiet --cert "$T/c5.json" >/dev/null 2>&1
# Members read, but of a type their checker takes for none (a witness that is no string, beside
# a claim without one): read as absent, checked by nothing, and verified.
"$P" armies --board 5 --size 5 --jobs 1 --quiet --cert "$T/i5.json" >/dev/null 2>&1
"$P" armies --board 4 --count --jobs 1 --quiet --cert "$T/n4.json" >/dev/null 2>&1
"$P" qn --board 5 --size 3 --jobs 1 --quiet --cert "$T/qi5.json" >/dev/null 2>&1
"$P" armies --colours 3 --board 4 --count --jobs 1 --quiet --cert "$T/cn4.json" >/dev/null 2>&1
for forged in "m5.json|.total = 1|total" "m5.json|.size = 9|size" \
  "m5.json|.infeasible.size = 2|infeasible.size" "m5.json|.unique_colour = 1|unique_colour" \
  "qn6.json|.colours = 9|colours" "qn6.json|.white = 40|white" "qn6.json|.unique = 77|unique" \
  "c5.json|.white = 1|white" "c5.json|.count = {}|count" "i5.json|.witness = 12|witness" \
  "n4.json|.witness = true|witness" "qi5.json|.witness = 5|witness" \
  "cn4.json|.witness = 3|witness"; do
  file=${forged%%|*} rest=${forged#*|}
  edit=${rest%|*} member=${rest#*|}
  jq -c "$edit" "$T/$file" >"$T/extra.json"
  run 30 verify --json --jobs 1 "$T/$file"
  good=$rc
  run 30 verify --json --jobs 1 "$T/extra.json"
  check "$file with $edit, which nothing checks: malformed, exit 2 (the true one valid)" \
    "[ $good -eq 0 ] && [ $rc -eq 2 ] && [ ! -s '$T/out' ] && one_message 'its member \"$member\" is not part of its claim'"
done

# Part lines whose nodes pass 2^64 together (one forged to 2^64 - 1, resealed): refused, not
# added modulo 2^64 (merge printed "nodes":133).
for i in 1 2; do "$P" armies --board 6 --size 4 --count --part $i/2 --quiet >"$T/nc$i"; done
sed 's/"nodes":[0-9]*/"nodes":18446744073709551615/' "$T/nc1" >"$T/nc1f" && "$RESEAL" "$T/nc1f"
run 30 merge "$T/nc1f" "$T/nc2"
check "part lines whose nodes pass 2^64: refused, exit 2" \
  "[ $rc -eq 2 ] && [ ! -s '$T/out' ] && one_message 'pass 2^64'"

tap_end
