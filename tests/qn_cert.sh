#!/bin/sh
# qn_cert.sh: qn certificates (peaceable qn --cert, peaceable verify) and qn --jobs (TAP).
P=${PEACEABLE:-./peaceable}
T=/tmp/peaceable-qn-cert.$$
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }

# verdict DESCRIPTION FILE EXIT NEEDLE: verify FILE must exit EXIT and print NEEDLE (stdout for
# exit 0 and 1, stderr for 2).
verdict() {
  desc=$1 file=$2 want=$3 needle=$4
  "$P" verify "$file" >$T.out 2>$T.err
  rc=$?
  if [ "$want" -eq 2 ]; then where=$T.err; else where=$T.out; fi
  if [ "$rc" -eq "$want" ] && grep -qF -- "$needle" "$where"; then ok "$desc"; else
    not_ok "$desc"
    echo "# exit $rc (want $want), stdout: $(cat $T.out), stderr: $(cat $T.err)"
  fi
}

# mutate FILE SED_SCRIPT: the certificate FILE changed by SED_SCRIPT, in $T.bad.
mutate() { sed "$2" "$1" >$T.bad; }

# Certificates of the maximum for n = 1..8 (queens and knights), written and verified.
for b in 1 2 3 4 5 6 7 8; do
  "$P" qn --board $b --method search --quiet --cert $T.$b.json >/dev/null 2>$T.err
  rc=$?
  [ $rc -eq 0 ] || echo "# qn --board $b --cert: exit $rc: $(cat $T.err)"
  verdict "QN ${b}x$b: the certificate of the maximum verifies" $T.$b.json 0 "valid: qn QN 1:1 on ${b}x$b"
done
grep -q '"claim":"maximum","size":5,' $T.8.json && grep -q '"infeasible":{"size":6,"first":6,"second":6,"split":"Q"' $T.8.json &&
  [ "$(grep -c '"leaf":"search"' $T.8.json)" -eq 10 ] &&
  ok "8x8: size 5, 6 + 6 infeasible, split by the first queen into 10 cubes" ||
  not_ok "8x8 certificate contents: $(cat $T.8.json)"

# Other kinds, ratios and boards; the split kind may be the second one (KQ: the queen).
for spec in "5x7 QN 1:1" "6 RB 1:2" "5 KQ 1:1" "6 BN 1:1" "7 QN 2:1" "4x6 NB 1:1" "3x1 NK 1:1"; do
  set -- $spec
  "$P" qn --board "$1" --kinds "$2" --ratio "$3" --method search --quiet --cert $T.k.json >/dev/null
  verdict "board $1 kinds $2 ratio $3: the certificate verifies" $T.k.json 0 "valid: qn $2 $3 on"
done
"$P" qn --board 5 --kinds KQ --method search --quiet --cert $T.k.json >/dev/null
grep -q '"split":"Q"' $T.k.json && ok "KQ: the cubes split by the queen, the second kind" ||
  not_ok "KQ split: $(cat $T.k.json)"

# --size: an infeasible size gets a proof alone, a feasible one its witness alone.
"$P" qn --board 8 --size 6 --method search --cert $T.inf.json >/dev/null
verdict "--size 6 on 8x8: the certificate of infeasibility verifies" $T.inf.json 0 "6 Q and 6 N do not"
grep -q '"claim":"infeasible"' $T.inf.json && ! grep -q '"witness"' $T.inf.json &&
  ok "--size 6: claim infeasible, no witness" || not_ok "--size 6 certificate: $(cat $T.inf.json)"
"$P" qn --board 8 --size 4 --method search --cert $T.feas.json >/dev/null
verdict "--size 4 on 8x8: the certificate of a witness verifies" $T.feas.json 0 "4 Q and 4 N fit"
grep -q '"claim":"feasible"' $T.feas.json && ! grep -q '"infeasible"' $T.feas.json &&
  ok "--size 4: claim feasible, no proof" || not_ok "--size 4 certificate: $(cat $T.feas.json)"
"$P" qn --board 6 --method ilp --quiet --cert $T.ilp.json >/dev/null
verdict "a maximum proven by GLPK gets a certificate the search checker verifies" $T.ilp.json 0 "valid"

# Corruptions: exit 1, naming the part.
mutate $T.8.json 's/"witness":"\.Q/"witness":"QQ/'
verdict "a witness piece added" $T.bad 1 "invalid: witness:"
w=$(sed -n 's/.*"witness":"\([^"]*\)".*/\1/p' $T.8.json)
moved=$(echo "$w" | sed 's/Q\./.Q/')
mutate $T.8.json "s|\"witness\":\"$w\"|\"witness\":\"$moved\"|"
[ "$moved" != "$w" ] && verdict "a witness queen moved onto an attacked square" $T.bad 1 "attack" ||
  not_ok "no queen to move in $w"
mutate $T.4.json 's|"witness":"[^"]*"|"witness":"QN../..../..../...."|'
verdict "a witness whose queen attacks its knight" $T.bad 1 "attack"
mutate $T.8.json 's|"witness":"[^"]*/|"witness":"|'
verdict "a witness row dropped" $T.bad 1 "invalid: witness: not 8 rows"
mutate $T.8.json 's/"size":5,/"size":4,/'
verdict "the witness's size changed" $T.bad 1 "invalid: witness: 5 Q and 5 N, not the 4 and 4"
mutate $T.8.json 's/"first":6/"first":7/'
verdict "the infeasible counts changed" $T.bad 1 "invalid: claim:"
mutate $T.8.json 's/"size":6,"first":6,"second":6/"size":7,"first":7,"second":7/'
verdict "the size proven infeasible is not the witness's + 1" $T.bad 1 "invalid: claim: the size proven infeasible is 7"
mutate $T.8.json 's/"board":"8x8"/"board":"8x9"/'
verdict "the board changed" $T.bad 1 "invalid: witness:"
mutate $T.8.json 's/"kinds":"QN"/"kinds":"QB"/'
verdict "the kinds changed" $T.bad 1 "invalid: witness:"
mutate $T.8.json 's/"split":"Q"/"split":"R"/'
verdict "a split kind that is not one of the kinds" $T.bad 1 "invalid: split:"
mutate $T.8.json '/"square":19,/d'
verdict "a cube removed" $T.bad 1 "invalid: cubes: no cube for square 19"
mutate $T.8.json 's/"square":27,/"square":28,/'
verdict "a cube moved off the least square of its orbit" $T.bad 1 "invalid: cubes: cube 9 (square 28) is not at the least square"
mutate $T.8.json 's/"square":18,/"square":19,/'
verdict "a cube listed twice" $T.bad 1 "invalid: cubes: square 19 has two cubes"
mutate $T.inf.json 's/"size":6,"first":6,"second":6/"size":5,"first":5,"second":5/'
verdict "a cube whose search does not close (a feasible size claimed infeasible)" $T.bad 1 \
  "(square 1): the search finds a placement of the sizes: "
mutate $T.8.json 's/"split":"Q"/"split":"N"/'
verdict "split by the knight: the same cubes hold, still valid" $T.bad 0 "valid"
mutate $T.8.json 's/"kinds":"QN"/"kinds":"NQ"/'
verdict "kinds exchanged at ratio 1:1: the same problem, still valid" $T.bad 0 "valid: qn NQ 1:1"

# Malformed: exit 2 with a message.
printf 'not json' >$T.bad
verdict "not JSON" $T.bad 2 "not JSON"
: >$T.bad
verdict "an empty file" $T.bad 2 "verify"
mutate $T.8.json 's/"board":"8x8",//'
verdict "no board" $T.bad 2 "malformed qn certificate (board"
mutate $T.8.json 's/"ratio":"1:1"/"ratio":"1-1"/'
verdict "a ratio without a colon" $T.bad 2 "malformed qn certificate (ratio"
mutate $T.8.json 's/"kinds":"QN"/"kinds":"QQ"/'
verdict "kinds twice the same" $T.bad 2 "malformed qn certificate (kinds"
mutate $T.8.json 's/"claim":"maximum"/"claim":"best"/'
verdict "an unknown claim" $T.bad 2 "malformed qn certificate (claim"
mutate $T.8.json 's/"leaf":"search"/"leaf":"magic"/'
verdict "an unknown leaf" $T.bad 2 "malformed qn certificate (cube 0"
mutate $T.8.json 's/"square":9,/"square":64,/'
verdict "a cube off the board" $T.bad 2 "malformed qn certificate (cube 4"
verdict "... the message names the file" $T.bad 2 "verify: $T.bad: malformed qn certificate"
mutate $T.8.json 's/"size":5,/"size":"5",/'
verdict "a size that is a string" $T.bad 2 "malformed qn certificate (size"
mutate $T.8.json 's/"cubes":\[/"cubes":{"a":[/; s/\]}}$/]}}}/'
verdict "cubes not an array" $T.bad 2 "malformed qn certificate (infeasible.cubes"

# Single mutations of a small certificate: every character of the witness changed, every cube
# removed, every number moved by one. Each one must be rejected (exit 1, or 2 when malformed).
"$P" qn --board 6 --method search --quiet --cert $T.6.json >/dev/null
w=$(sed -n 's/.*"witness":"\([^"]*\)".*/\1/p' $T.6.json)
tried=0 accepted=""
# rejected NAME: verify $T.bad must exit 1 or 2.
rejected() {
  "$P" verify $T.bad >/dev/null 2>&1
  rc=$?
  [ $rc -eq 1 ] || [ $rc -eq 2 ] || accepted="$accepted $1(exit $rc)"
  tried=$((tried + 1))
}
i=1
while [ $i -le ${#w} ]; do
  c=$(echo "$w" | cut -c$i)
  case $c in .) r=Q ;; Q) r=N ;; N) r=. ;; *) r=Q ;; esac
  bad=$(echo "$w" | sed "s|.|$r|$i")
  mutate $T.6.json "s|\"witness\":\"$w\"|\"witness\":\"$bad\"|"
  rejected "witness@$i"
  i=$((i + 1))
done
for sq in $(sed -n 's/.*"square":\([0-9]*\),.*/\1/p' $T.6.json); do
  mutate $T.6.json "/\"square\":$sq,/d"
  rejected "cube$sq"
done
for script in 's/"size":3,/"size":2,/' 's/"size":3,/"size":4,/' 's/"size":4,"first"/"size":3,"first"/' \
  's/"size":4,"first"/"size":5,"first"/' 's/"first":4/"first":3/' 's/"first":4/"first":5/' \
  's/"second":4/"second":3/' 's/"second":4/"second":5/' 's/"board":"6x6"/"board":"6x7"/' \
  's/"board":"6x6"/"board":"7x6"/' 's/"ratio":"1:1"/"ratio":"1:2"/' 's/"ratio":"1:1"/"ratio":"2:1"/' \
  's/"kinds":"QN"/"kinds":"QB"/' 's/"split":"Q"/"split":"K"/' 's/"claim":"maximum"/"claim":"feasible"/' \
  's/"claim":"maximum"/"claim":"infeasible"/' 's/"version":1/"version":2/' 's/"problem":"qn"/"problem":"armies"/'; do
  mutate $T.6.json "$script"
  if cmp -s $T.bad $T.6.json; then accepted="$accepted unchanged:$script"; else rejected "$script"; fi
done
[ $tried -ge 60 ] && [ -z "$accepted" ] && ok "$tried single mutations of the 6x6 certificate: all rejected" ||
  not_ok "mutations not rejected ($tried tried):$accepted"

# --sample: the witness and the cover always, a share of the cubes.
"$P" verify --sample 30 --seed 7 $T.8.json >$T.out 2>&1
rc=$?
[ $rc -eq 3 ] && grep -q "^valid in the sample: qn" $T.out && ok "--sample 30: valid in the sample, exit 3 (an audit)" ||
  not_ok "--sample 30: exit $rc: $(cat $T.out)"
"$P" verify --sample 1e-300 --seed 7 $T.8.json >$T.out 2>&1
rc=$?
[ $rc -eq 3 ] && grep -q "^valid in the sample: qn.*, 1 searched," $T.out &&
  ok "--sample 1e-300: one cube searched, not none" || not_ok "--sample 1e-300: exit $rc: $(cat $T.out)"
mutate $T.8.json '/"square":19,/d'
"$P" verify --sample 1 --seed 7 $T.bad >$T.out 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "invalid: cubes:" $T.out && ok "--sample still checks the cover" ||
  not_ok "--sample and a missing cube: exit $rc: $(cat $T.out)"

# verify --json: one object with the verdict, and the claim found valid.
out=$("$P" verify --json $T.8.json)
case "$out" in '{"problem":"qn","valid":true,"sampled":false,"message":"qn QN 1:1 on 8x8: '*'","claim":{"board":"8x8","kinds":"QN","ratio":"1:1","claim":"maximum","size":5,"witness":'*',"infeasible":{"size":6,'*'}}}')
  ok "verify --json: valid, with its claim" ;; *) not_ok "verify --json: $out" ;; esac
mutate $T.8.json '/"square":19,/d'
out=$("$P" verify --json $T.bad)
case "$out" in '{"problem":"qn","valid":false,"sampled":false,"message":"cubes: no cube for square 19'*)
  ok "verify --json: invalid, naming the part" ;; *) not_ok "verify --json invalid: $out" ;; esac

# Usage.
"$P" qn --table 1..3 --cert $T.x.json >/dev/null 2>$T.err
[ $? -eq 2 ] && grep -q -- "--cert" $T.err && [ ! -e $T.x.json ] && ok "--cert with --table: exit 2" ||
  not_ok "--cert with --table"
"$P" qn --board 4 --cert /nonexistent-dir/c.json >/dev/null 2>$T.err
[ $? -eq 2 ] && grep -q "nonexistent-dir" $T.err && ok "an unwritable --cert path: exit 2 (I/O)" ||
  not_ok "unwritable --cert: $(cat $T.err)"
# A maximum not proven claims no maximum: its certificate holds the witness found alone (claim
# feasible, as armies writes it), which verify checks as that and nothing more.
"$P" qn --board 12 --node-limit 100 --method search --cert $T.x.json >/dev/null 2>&1
rc=$?
"$P" verify $T.x.json >$T.out 2>&1
[ $rc -eq 3 ] && grep -q '"claim":"feasible"' $T.x.json && ! grep -q '"infeasible"' $T.x.json &&
  grep -q '^valid: qn QN 1:1 on 12x12: [0-9]* Q and [0-9]* N fit (witness checked)$' $T.out &&
  ok "no maximum claimed when it is not proven: the witness alone, claim feasible" ||
  not_ok "a certificate of a maximum not proven: $(cat $T.out)"
# The same for a count stopped before its maximum was proven (it wrote nothing, said nothing).
"$P" qn --board 9 --count --node-limit 1000 --cert $T.xc.json >/dev/null 2>$T.err
rc=$?
"$P" verify $T.xc.json >$T.out 2>&1
[ $rc -eq 3 ] && grep -q 'holds the witness alone' $T.err && grep -q '"claim":"feasible"' $T.xc.json &&
  grep -q '^valid: qn QN 1:1 on 9x9: [0-9]* Q and [0-9]* N fit (witness checked)$' $T.out &&
  ok "--count stopped before the maximum: --cert holds the witness alone, said so" ||
  not_ok "--count stopped before the maximum, --cert: exit $rc: $(cat $T.err $T.out)"

# --jobs: the same output for 1, 2 and 3 threads (listings in the same order, the same
# witnesses, counts and certificates).
for args in "--board 8 --list" "--board 9 --list --unique" "--board 7x9 --kinds RB --list --limit 40" \
  "--board 10 --count --json" "--board 9 --size 6 --json" "--board 9 --size 7 --json"; do
  # The nodes and seconds vary with the threads; the rest must not.
  a=$("$P" qn $args --method search --quiet --jobs 1 | sed 's/,"nodes":[0-9]*,"seconds":[0-9.]*//' | cksum)
  b=$("$P" qn $args --method search --quiet --jobs 2 | sed 's/,"nodes":[0-9]*,"seconds":[0-9.]*//' | cksum)
  c=$("$P" qn $args --method search --quiet --jobs 3 | sed 's/,"nodes":[0-9]*,"seconds":[0-9.]*//' | cksum)
  [ "$a" = "$b" ] && [ "$a" = "$c" ] && ok "qn $args: the same with 1, 2 and 3 jobs" ||
    not_ok "qn $args differs between jobs: $a / $b / $c"
done
"$P" qn --board 9 --method search --quiet --jobs 1 --cert $T.j1.json >/dev/null
"$P" qn --board 9 --method search --quiet --jobs 2 --cert $T.j2.json >/dev/null
cmp -s $T.j1.json $T.j2.json && ok "--cert: the same certificate with 1 and 2 jobs" ||
  not_ok "--cert differs between jobs"
"$P" qn --board 4 --jobs 0 >/dev/null 2>$T.err
[ $? -eq 2 ] && grep -q '"0"' $T.err && ok "--jobs 0: exit 2" || not_ok "--jobs 0: $(cat $T.err)"
"$P" qn --help | grep -q -- '--jobs N' && "$P" qn --help | grep -q -- '--cert FILE' &&
  ok "qn --help lists --jobs and --cert" || not_ok "qn --help"
# A count at a size that does not fit is a count's certificate, of none, as armies' (it was an
# infeasibility certificate): verify says 0 placements; one with a placement hidden is refused.
"$P" qn --board 5 --size 3 --count --cert $T.none.json >$T.out 2>&1
"$P" verify $T.none.json >$T.v 2>&1 && grep -q '^valid: .*: 0 placements of 3 Q and 3 N' $T.v &&
  jq -e '.claim == "count" and .total == 0 and .placements == []' $T.none.json >/dev/null &&
  ok "qn --size 3 --count --cert on 5x5: a count certificate of none, valid" ||
  not_ok "qn count of none: $(cat $T.out $T.v)"
"$P" qn --board 5 --size 2 --count --cert $T.two.json >/dev/null 2>&1
jq -c '.total = 0 | .unique = 0 | .placements = []' $T.two.json >$T.twof.json
"$P" verify $T.twof.json >$T.v 2>&1
[ $? -eq 1 ] && grep -q 'the search finds a placement that is not listed' $T.v &&
  ok "a count certificate of none where placements fit: invalid" || not_ok "forged none: $(cat $T.v)"
# Size 0 (3x3: nothing fits): the count of the empty board certified (it was refused as "size 0
# is never infeasible"), and a list without the empty placement refused.
"$P" qn --board 3 --count --cert $T.c3.json >$T.out 2>&1
"$P" verify $T.c3.json >$T.v 2>&1 && grep -q '^valid: .*: 1 placement of 0 Q and 0 N' $T.v &&
  grep -q '^1 placement$' $T.out && ok "3x3: the count of size 0 certified, '1 placement'" ||
  not_ok "3x3 count of size 0: $(cat $T.out $T.v)"
jq -c '.placements = []' $T.c3.json >$T.c3f.json
"$P" verify $T.c3f.json >$T.v 2>&1
[ $? -eq 1 ] && grep -q 'size 0 has exactly one placement' $T.v &&
  ok "3x3: a count of size 0 without the empty placement refused" || not_ok "3x3 forged: $(cat $T.v)"
# ... and its count's proof must still be one of size 0 in form (its cubes are not searched).
for edit in '.count.first = 1' '.count.split = "K"' '.count.cubes = []'; do
  jq -c "$edit" $T.c3.json >$T.c3f.json
  "$P" verify $T.c3f.json >$T.v 2>&1
  [ $? -eq 1 ] && grep -q '^invalid: ' $T.v && ok "3x3: a count of size 0 with $edit refused" ||
    not_ok "3x3 forged ($edit): $(cat $T.v)"
done

# verify --jobs N: qn's cubes are searched on N threads, and the verdict is that of one thread
# (for a forgery, the first cube in order whose search completes a placement: with size 2 every
# cube holds one, and the threads find theirs at once).
mutate $T.inf.json 's/"size":6,"first":6,"second":6/"size":2,"first":2,"second":2/'
"$P" qn --board 9 --count --unique --cert $T.c9.json >/dev/null 2>&1
for j in 1 3; do
  "$P" verify --jobs $j $T.bad >$T.f$j 2>&1
  echo "exit $?" >>$T.f$j
  "$P" verify --jobs $j $T.c9.json >$T.v$j 2>&1
  echo "exit $?" >>$T.v$j
done
cmp -s $T.f1 $T.f3 && grep -q '^invalid: .*the search finds a placement' $T.f1 &&
  cmp -s $T.v1 $T.v3 && grep -q '^valid: .* placements of' $T.v1 &&
  ok "verify --jobs 1 and 3: the same verdicts (a count, a forgery)" ||
  not_ok "verify --jobs: $(cat $T.f1 $T.f3 $T.v1 $T.v3)"

# --cert with --list is refused, as by armies (it wrote the maximum's certificate).
"$P" qn --board 5 --list --cert $T.l.json >$T.out 2>$T.err
rc=$?
[ $rc -eq 2 ] && [ ! -s $T.out ] && [ ! -e $T.l.json ] &&
  grep -q 'not to --list or --table' $T.err &&
  ok "qn --list --cert: refused, exit 2, nothing written" || not_ok "qn --list --cert: exit $rc"

rm -f $T.*
echo "1..$n"
[ "$failed" -eq 0 ]
