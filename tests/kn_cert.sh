#!/bin/sh
# kn_cert.sh: armies of kings and knights proven by the least closed neighbourhood (TAP): maxima
# against GLPK on small boards, certificates (kings: the leaf "k"; knights: lemmas and trees)
# verified on squares and rectangles, and forged or edited certificates refused.
. "${srcdir:-$(dirname "$0")/..}/tests/tap.sh"

# The maxima agree with GLPK's integer program (a method that shares nothing with the profile).
for b in 3 4 5 6 4x6 7x3 2x9; do
  run 120 armies --board $b --piece K --json --method search --quiet
  mine=$(sed -n 's/.*"size":\([0-9]*\).*/\1/p' "$T/out")
  run 120 armies --board $b --piece K --json --method ilp --quiet
  glpk=$(sed -n 's/.*"size":\([0-9]*\).*/\1/p' "$T/out")
  check "kings on $b: maximum $mine, as GLPK proves" "[ -n '$mine' ] && [ '$mine' = '$glpk' ]"
done

# Certificates of the maximum, of a fixed white army and of infeasibility verify, quickly.
for b in 1 2 3 8 1x7 5x3 16 13x17 32; do
  run 30 armies --board $b --piece K --cert "$T/k.json" --quiet
  verdict "the kings certificate of $b verifies" 0 "valid: armies of K on " "$T/k.json"
done
run 30 armies --board 8 --piece K --white 20 --cert "$T/w20.json" --quiet
verdict "20 white kings face at most 35 black on 8x8: verified" 0 \
  "valid: .*the largest black army facing 20 white is 35" "$T/w20.json"
run 30 armies --board 8 --piece K --size 28 --cert "$T/i28.json" --quiet
verdict "28 against 28 kings on 8x8 do not fit: verified" 0 "valid: .* 28 white and 28 black do not" \
  "$T/i28.json"
run 30 armies --board 8 --piece K --cert "$T/k8.json" --quiet
check "the 8x8 kings proof is the one leaf \"k\"" "grep -q '\"trees\":\[' '$T/k8.json' && grep -q '^\"k\"\]' '$T/k8.json'"

# Forgeries: a false claim, the leaf given to knights, to a split, with text after it.
sed 's/"white":28,"black":28/"white":27,"black":27/' "$T/i28.json" >"$T/f1.json"
verdict "forged: 27 against 27 kings do not fit on 8x8: invalid" 1 "invalid: tree" "$T/f1.json"
sed 's/"white":20,"black":35,/"white":20,"black":34,/; s/"white":20,"black":36,/"white":20,"black":35,/' \
  "$T/w20.json" >"$T/f2.json"
verdict "forged: 20 white kings face at most 34 black: invalid" 1 "invalid: " "$T/f2.json"
sed 's/"piece":"K"/"piece":"N"/; s/KKKKKKKK/NNNNNNNN/g; s/kkkkkkkk/nnnnnnnn/g' "$T/i28.json" >"$T/f3.json"
verdict "the leaf \"k\" for knights: invalid" 1 "invalid: tree" "$T/f3.json"
sed 's/"split":\[\]/"split":[0]/; s/"cubes":\[""\]/"cubes":["i"]/' "$T/i28.json" >"$T/f4.json"
verdict "the leaf \"k\" under a split: invalid" 1 "invalid: " "$T/f4.json"
sed 's/^"k"\]/"k."]/' "$T/i28.json" >"$T/f5.json"
verdict "the leaf \"k\" with text after it: invalid" 1 "invalid: tree" "$T/f5.json"
sed 's/"board":"8x8"/"board":"9x8"/; s/KKKKKKKK\//KKKKKKKK.\//g' "$T/i28.json" >"$T/f6.json"
verdict "the 8x8 proof read on 9x8 (where 28 against 28 fit): invalid" 1 "invalid: tree" "$T/f6.json"

# Knights: the maxima agree with GLPK; certificates verify, 8x8 included (24, no 25 against 25).
for b in 3 4 5 6 4x6 7x3 2x9; do
  run 120 armies --board $b --piece N --json --method search --quiet
  mine=$(sed -n 's/.*"size":\([0-9]*\).*/\1/p' "$T/out")
  run 120 armies --board $b --piece N --json --method ilp --quiet
  glpk=$(sed -n 's/.*"size":\([0-9]*\).*/\1/p' "$T/out")
  check "knights on $b: maximum $mine, as GLPK proves" "[ -n '$mine' ] && [ '$mine' = '$glpk' ]"
done
for b in 1 2 3 1x7 8x1 5x3 7 8; do
  run 120 armies --board $b --piece N --cert "$T/n.json" --method search --quiet
  verdict "the knights certificate of $b verifies" 0 "valid: armies of N on " "$T/n.json"
done
check "the 8x8 knights maximum is 24, proven by lemmas" \
  "grep -q '\"white\":24,\"black\":24' '$T/n.json' && grep -q '^\"lemmas\":\[' '$T/n.json'"
run 60 armies --board 6 --piece N --white 10 --cert "$T/w10.json" --method search --quiet
verdict "a fixed white army of knights: verified" 0 "valid: .*the largest black army facing 10 white" \
  "$T/w10.json"
run 60 armies --board 6 --piece N --size 15 --cert "$T/n15.json" --method search --quiet
verdict "15 against 15 knights on 6x6 do not fit: verified" 0 "valid: .* 15 white and 15 black do not" \
  "$T/n15.json"

# Forgeries of knights proofs: a false claim, a lemma made stronger, dropped, or used before it
# is proven, text after a tree, lemmas given to queens.
sed 's/"white":15,"black":15/"white":14,"black":14/' "$T/n15.json" >"$T/g1.json"
verdict "forged: 14 against 14 knights do not fit on 6x6: invalid" 1 "invalid: tree" "$T/g1.json"
awk '!done && /"least":/ { match($0, /"least":[0-9]+/); v = substr($0, RSTART + 8, RLENGTH - 8)
  sub(/"least":[0-9]+/, "\"least\":" v + 1); done = 1 } { print }' "$T/n15.json" >"$T/g2.json"
verdict "a lemma claiming one more than its tree proves: invalid" 1 "invalid: tree .*: lemma 0: " \
  "$T/g2.json"
awk '/^{"from":/ { sub(/\],$/, ""); sub(/,$/, ""); l[n++] = $0; next }
  n && !done { for (i = n - 1; i >= 0; i--) print l[i] (i ? "," : "],"); done = 1 } { print }' \
  "$T/n15.json" >"$T/g3.json"
verdict "lemmas listed before the lemmas they rest on: invalid" 1 "invalid: tree .*: lemma [0-9]*: " "$T/g3.json"
sed 's/"lemmas":\[/"lemmas":[],"unused":[/' "$T/n15.json" >"$T/g4.json"
verdict "the tree without its lemmas: invalid" 1 "invalid: tree .*: the claim.s tree: " "$T/g4.json"
sed 's/^"\([x.]*\)"\]}}$/"\1."]}}/' "$T/n15.json" >"$T/g5.json"
verdict "the claim's tree with text after its end: invalid" 1 "invalid: tree .*: the claim.s tree: " \
  "$T/g5.json"
sed 's/"piece":"N"/"piece":"Q"/; s/N/Q/g; s/n/q/g' "$T/n15.json" >"$T/g6.json"
run 30 verify "$T/g6.json"
check "lemmas in a certificate of queens: malformed (exit 2)" "[ $rc -eq 2 ]"

sed 's/"lemmas":\[/"lemmas":[1,/' "$T/n15.json" >"$T/g7.json"
refuse "a lemma that is not an object: malformed" "lemmas" verify "$T/g7.json"
sed '0,/"least":/s/"least":/"extra":0,"least":/' "$T/n15.json" >"$T/g8.json"
refuse "a lemma with a fifth member: malformed" "lemmas" verify "$T/g8.json"
sed '0,/"from":[0-9]*/s/"from":[0-9]*/"from":37/' "$T/n15.json" >"$T/g9.json"
refuse "a lemma on a suffix off the board: malformed" "lemmas" verify "$T/g9.json"

# The published terms, every one proven: kings on boards 1..16 (A176222's terms 0, 3, 5, 10, ...
# from board 2 on, by the profile) and knights on boards 1..9 (A355509, by the Russian-doll
# search; 9x9 has 81 squares, past one word of bits).
run 60 armies --piece K --table 1..16 --format bfile --quiet
check "kings 1..16: 0 0 3 5 10 14 21 27 36 44 55 65 78 90 105 119 (A176222), all proven" \
  "[ $rc -eq 0 ] && [ \"\$(cut -d' ' -f2 '$T/out' | tr '\n' ' ')\" = \
'0 0 3 5 10 14 21 27 36 44 55 65 78 90 105 119 ' ]"
# A355509 1..9 (1..8 in a light run: 9x9 takes 26 s of one core on the plain build).
knights='0 2 3 6 10 14 18 24 32 '
light && knights='0 2 3 6 10 14 18 24 '
run 300 armies --piece N --table 1..$(echo $knights | wc -w) --format csv --method search --jobs 1 \
  --quiet
check "knights 1..$(echo $knights | wc -w): $knights(A355509), all proven by search" \
  "[ $rc -eq 0 ] && [ \"\$(sed 1d '$T/out' | cut -d, -f2 | tr '\n' ' ')\" = '$knights' ] &&
   [ \"\$(sed 1d '$T/out' | cut -d, -f3,4 | sort -u)\" = 'true,search' ]"

# Knights past 64 squares: the maxima agree with GLPK; certificates of several words of bits
# verify, and edited ones are refused.
for b in 6x11 3x22; do
  run 120 armies --board $b --piece N --json --method search --quiet
  mine=$(sed -n 's/.*"size":\([0-9]*\).*/\1/p' "$T/out")
  run 120 armies --board $b --piece N --json --method ilp --quiet
  glpk=$(sed -n 's/.*"size":\([0-9]*\).*/\1/p' "$T/out")
  check "knights on $b: maximum $mine, as GLPK proves" "[ -n '$mine' ] && [ '$mine' = '$glpk' ]"
done
for b in 5x13 3x22; do
  run 120 armies --board $b --piece N --cert "$T/m.json" --method search --quiet
  verdict "the knights certificate of $b verifies" 0 "valid: armies of N on $b: " "$T/m.json"
done
run 120 armies --board 5x13 --piece N --size 29 --cert "$T/m513.json" --method search --quiet
verdict "29 against 29 knights do not fit on 5x13: verified" 0 "valid: .* 29 white and 29 black do not" \
  "$T/m513.json"
sed 's/"white":29,"black":29/"white":28,"black":28/' "$T/m513.json" >"$T/h1.json"
verdict "forged: 28 against 28 knights do not fit on 5x13: invalid" 1 "invalid: tree" "$T/h1.json"
awk '!done && /"least":/ { match($0, /"least":[0-9]+/); v = substr($0, RSTART + 8, RLENGTH - 8)
  sub(/"least":[0-9]+/, "\"least\":" v + 1); done = 1 } { print }' "$T/m513.json" >"$T/h2.json"
verdict "5x13: a lemma claiming one more than its tree proves: invalid" 1 "invalid: tree .*: lemma 0: " \
  "$T/h2.json"
sed 's/"board":"5x13"/"board":"13x5"/; s|NNNNN/|NNNNNNNNNNNNN/|' "$T/m513.json" >"$T/h3.json"
run 30 verify "$T/h3.json"
check "the 5x13 proof read on 13x5: refused" "[ $rc -ne 0 ]"

# A board wider than tall is searched and proven column by column ("order":"columns"): 13x5 as
# fast as 5x13, its certificate verified, and read row by row, or the order given to kings or
# named otherwise, refused.
run 60 armies --board 13x5 --piece N --cert "$T/c135.json" --method search --quiet
check "13x5 knights: 28, proven column by column" \
  "[ $rc -eq 0 ] && grep -q '\"white\":28,\"black\":28' '$T/c135.json' && grep -q '\"order\":\"columns\"' '$T/c135.json'"
verdict "the 13x5 certificate (column by column) verifies" 0 "valid: armies of N on 13x5: 28 " "$T/c135.json"
sed '/^"order":"columns",$/d' "$T/c135.json" >"$T/o1.json"
verdict "the 13x5 proof read row by row: invalid" 1 "invalid: tree" "$T/o1.json"
sed 's/^"order":"columns",$/"order":"rows",/' "$T/c135.json" >"$T/o2.json"
refuse "an order other than columns: malformed" "order" verify "$T/o2.json"
sed 's/"infeasible":{/"infeasible":{"order":"columns",/' "$T/i28.json" >"$T/o3.json"
refuse "an order in a certificate of kings: malformed" "order" verify "$T/o3.json"

# Checkpoints of knights: the bounds the search learnt (doc/json.md, "Knights' checkpoints"),
# written while it searches and when it stops, taken up by --resume, so that a long proof
# stopped loses nothing; what the proof uses of them is proven again as lemmas.
RESEAL=${RESEAL:-$(dirname "$P")/tests/reseal}
kn7="armies --board 7 --piece N --method search --jobs 1 --local-moves 0 --json --quiet"
nodes() { sed -n 's/.*"nodes":\([0-9]*\).*/\1/p' "$T/out"; }
run 60 $kn7
fresh=$(nodes)
run 60 $kn7 --node-limit 3000000 --checkpoint "$T/k7.ck"
stopped=$(nodes)
check "7x7 knights stopped by --node-limit: exit 3, its checkpoint sealed, with the bounds learnt and the best witness (18)" \
  "[ $rc -eq 3 ] && grep -q '\"best\":18,\"best_witness\":\"' '$T/k7.ck' && grep -q '\"learnt\":{\"order\":\"rows\",\"lo\":\[' '$T/k7.ck' && grep -q '\"digest\":\"[0-9a-f]\{16\}\"}' '$T/k7.ck'"
run 60 $kn7 --resume "$T/k7.ck" --checkpoint "$T/k7.ck"
check "resumed: 18 proven, with the nodes of the stopped run saved ($fresh fresh, $stopped before the stop, $(nodes) after)" \
  "[ $rc -eq 0 ] && grep -q '\"size\":18,\"optimal\":true' '$T/out' && [ $(nodes) -lt \$((fresh - stopped / 2)) ]"
run 60 $kn7 --resume "$T/k7.ck"
check "resumed from the finished checkpoint: under a tenth of the nodes" \
  "[ $rc -eq 0 ] && grep -q '\"size\":18,\"optimal\":true' '$T/out' && [ $(nodes) -lt \$((fresh / 10)) ]"
run 60 $kn7 --resume "$T/k7.ck" --cert "$T/k7.json"
verdict "the certificate of a resumed knights run verifies" 0 "valid: armies of N on 7x7: 18 white" \
  "$T/k7.json"
# Bounds that do not hold: every one at its largest, sealed again (the digest is no defence).
jq -c '.learnt.lo |= map(. as $r | [range(0; $r | length)] | map($r | length - 1)) |
  .learnt.hi |= map(map(-1))' "$T/k7.ck" >"$T/f7.ck" && "$RESEAL" "$T/f7.ck"
refuse "forged bounds resumed with --cert: refused, no certificate" "does not hold" \
  $kn7 --resume "$T/f7.ck" --cert "$T/f7.json"
check "no certificate of the forged bounds is written" "[ ! -e '$T/f7.json' ]"
# The same in a race of the search and GLPK (the default on two threads): the search's error ends
# the run, not taken for a limit, and no certificate of the witness alone is written.
refuse "forged bounds resumed with --cert in a race: refused" "does not hold" \
  armies --board 7 --piece N --jobs 2 --method race --local-moves 0 --quiet --resume "$T/f7.ck" \
  --cert "$T/f7r.json"
check "no certificate is written in the race either" "[ ! -e '$T/f7r.json' ]"
jq -c '.learnt.hi |= map(map(0))' "$T/k7.ck" >"$T/f8.ck" && "$RESEAL" "$T/f8.ck"
refuse "a found set below a proven bound: malformed" "malformed checkpoint (learnt" \
  $kn7 --resume "$T/f8.ck"
jq -c '.learnt.lo |= .[1:]' "$T/k7.ck" >"$T/f9.ck" && "$RESEAL" "$T/f9.ck"
refuse "a table of another board's size: malformed" "malformed checkpoint (learnt" \
  $kn7 --resume "$T/f9.ck"
refuse "a knights checkpoint resumed for queens: refused" "another board or piece" \
  armies --board 7 --resume "$T/k7.ck"
refuse "a knights checkpoint resumed on 7x8: refused" "another board or piece" \
  armies --board 7x8 --piece N --resume "$T/k7.ck"
refuse "kings take no checkpoint (decided at once)" "--checkpoint and --resume work for" \
  armies --board 7 --piece K --checkpoint "$T/kk.ck"
refuse "knights counts take no checkpoint" "--checkpoint and --resume work for" \
  armies --board 5 --piece N --count --size 3 --checkpoint "$T/kk.ck"
refuse "knights take no --part" "--part works for queens, rooks and bishops" \
  armies --board 7 --piece N --size 10 --part 1/2
run 60 armies --board 7 --piece N --white 10 --method search --jobs 1 --quiet --checkpoint "$T/w10.ck"
refuse "a checkpoint of --white 10 resumed for equal armies: refused, and said why" \
  "its witness is of 10 white against 28 black, not of equal armies" \
  armies --board 7 --piece N --method search --resume "$T/w10.ck"
# SIGTERM in a long proof: exit 130, the bounds learnt so far in the checkpoint.
# The climb's decisions each write the file when they end (within the first second); the proof of
# 33 runs for seconds more, so only the save on the signal writes it after the marker.
"$P" armies --board 9 --piece N --method search --jobs 1 --quiet --checkpoint "$T/k9.ck" \
  >"$T/out" 2>"$T/err" &
pid=$!
sleep 1.5
touch "$T/marker"
sleep 0.5
kill -TERM "$pid"
wait "$pid"
rc=$?
check "SIGTERM in the 9x9 knights proof: exit 130, interrupted, the checkpoint written on the signal" \
  "[ $rc -eq 130 ] && grep -q 'interrupted' '$T/err' && grep -q '\"learnt\":{' '$T/k9.ck' && [ '$T/k9.ck' -nt '$T/marker' ]"
# A board wider than tall is searched column by column, and so are its bounds: stopped, resumed
# with --cert, and the proof made from the bounds resumed verifies.
run 60 armies --board 9x6 --piece N --method search --jobs 1 --local-moves 0 --quiet \
  --node-limit 2000000 --checkpoint "$T/k96.ck"
check "9x6 knights stopped: its bounds by columns" "[ $rc -eq 3 ] && grep -q '\"order\":\"columns\"' '$T/k96.ck'"
run 120 armies --board 9x6 --piece N --method search --jobs 1 --local-moves 0 --quiet \
  --resume "$T/k96.ck" --cert "$T/k96.json"
verdict "9x6 knights resumed with --cert: the proof verifies" 0 "valid: armies of N on 9x6: 21 white" \
  "$T/k96.json"

# The proof written after the search (here from bounds resumed, so that the search is done at
# once and the signal comes while the proof is written) stops on SIGINT: it once ran on to the
# end, deaf to signals, and a large board's proof outgrew the memory first.
run 60 armies --board 8 --piece N --method search --jobs 1 --local-moves 0 --quiet \
  --checkpoint "$T/k8.ck"
"$P" armies --board 8 --piece N --method search --jobs 1 --local-moves 0 --quiet \
  --resume "$T/k8.ck" --cert "$T/k8p.json" >"$T/out" 2>"$T/err" &
pid=$!
sleep 0.5
kill -INT "$pid"
wait "$pid"
rc=$?
check "SIGINT while the 8x8 knights proof is written: exit 130, not proven, no proof written" \
  "[ $rc -eq 130 ] && grep -q 'not proven' '$T/out' && [ -s '$T/k8p.json' ] &&
   ! grep -q '\"infeasible\"' '$T/k8p.json'"

# A knights' proof goes to a temporary file once past 64 MiB (11x11's is 12 GB): a TMPDIR where
# none can be made is refused before the search, not found hours later when the proof is written.
TMPDIR=/nonexistent/peaceable timeout -s KILL 30 "$P" armies --board 9 --piece N \
  --cert "$T/kt.json" >"$T/out" 2>"$T/err"
rc=$?
check "9x9 knights --cert with no temporary file to be had: refused at once, nothing written" \
  "[ $rc -eq 2 ] && [ ! -s '$T/out' ] && [ ! -e '$T/kt.json' ] && one_message 'TMPDIR'"
TMPDIR=/nonexistent/peaceable timeout -s KILL 30 "$P" armies --board 6 --piece N \
  --cert "$T/kt.json" --quiet >"$T/out" 2>"$T/err"
check "6x6 knights --cert with the same TMPDIR: its proof stays in memory, written" \
  "[ $? -eq 0 ] && [ -s '$T/kt.json' ]"

run 60 armies --board 6 --piece N --cert "$T/n6s.json" --quiet
run 60 verify --sample 10 --json "$T/n6s.json"
check "verify --sample on knights: checked whole, and said so (it announced a sample it did not draw)" \
  "[ $rc -eq 0 ] && jq -e '.valid and (.sampled | not)' '$T/out' >/dev/null && grep -q 'knights are checked whole' '$T/err'"
tap_end
