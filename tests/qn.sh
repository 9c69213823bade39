#!/bin/sh
# qn.sh: golden tests of peaceable qn (TAP).
P=${PEACEABLE:-./peaceable}
T=/tmp/peaceable-qn.$$
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }

# expect DESCRIPTION WANT_OUTPUT COMMAND...: stdout must equal WANT_OUTPUT, exit 0.
expect() {
  desc=$1 want=$2
  shift 2
  # Nodes and seconds vary from run to run (tests/json.sh checks that they are there).
  "$P" "$@" >$T.out 2>$T.err
  rc=$?
  got=$(sed 's/,"nodes":[0-9]*//; s/,"seconds":[0-9.]*//' $T.out)
  rm -f $T.out
  if [ "$rc" -eq 0 ] && [ "$got" = "$want" ]; then ok "$desc"; else
    not_ok "$desc"
    echo "# want: $want"
    echo "# got (exit $rc): $got"
  fi
}

# refuse DESCRIPTION NEEDLE COMMAND...: exit 2, one stderr line that contains NEEDLE.
refuse() {
  desc=$1 needle=$2
  shift 2
  "$P" "$@" >/dev/null 2>$T.err
  rc=$?
  lines=$(wc -l <$T.err)
  if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && grep -qF -- "$needle" $T.err; then
    ok "$desc"
  else
    not_ok "$desc"
    echo "# exit $rc, stderr: $(cat $T.err)"
  fi
}

# The maximum on 8x8, proven, with a witness drawn and as placement text.
out=$("$P" qn --board 8 --method search 2>$T.err) rc=$?
if [ $rc -eq 0 ] && echo "$out" | head -1 | grep -qF \
  "qn on 8x8: 5 queens and 5 knights, the maximum, proven by search (no placement of 6 queens and 6 knights)" &&
  [ "$(echo "$out" | grep -c '^ *[1-8]  ')" -eq 8 ] &&
  [ "$(echo "$out" | tail -1 | tr -cd Q | wc -c)" -eq 5 ] &&
  [ "$(echo "$out" | tail -1 | tr -cd N | wc -c)" -eq 5 ]; then
  ok "8x8: maximum 5 proven by search, diagram and placement text"
else
  not_ok "8x8 maximum (exit $rc): $out"
fi

expect "8x8 counts at the maximum" "qn on 8x8: 5 queens and 5 knights, the maximum, proven by search (no placement of 6 queens and 6 knights)
16 placements
2 up to symmetry" qn --board 8 --count --method search
expect "--unique alone counts too" "$("$P" qn --board 8 --count --method search)" \
  qn --board 8 --unique --method search

json=$("$P" qn --board 8 --count --json --method search)
case "$json" in
  '{"problem":"qn","board":"8x8","kinds":"QN","ratio":"1:1","size":5,"optimal":true,"proved_by":"search","witness":"'*'","count":16,"unique":2,"nodes":'*',"seconds":'*'}')
    ok "8x8 JSON: size, optimal, proved_by, witness, count, unique, nodes, seconds" ;;
  *) not_ok "8x8 JSON: $json" ;;
esac
[ "$(echo "$json" | wc -l)" -eq 1 ] && ok "JSON: one object, one line" || not_ok "JSON lines"

lines=$("$P" qn --board 8 --list --method search | sort -u | wc -l)
[ "$lines" -eq 16 ] && ok "8x8: 16 distinct placements listed" || not_ok "8x8 list: $lines"
lines=$("$P" qn --board 8 --list --unique --method search | sort -u | wc -l)
[ "$lines" -eq 2 ] && ok "8x8: 2 placements listed up to symmetry" || not_ok "8x8 unique: $lines"
lines=$("$P" qn --board 8 --list --limit 3 --method search | wc -l)
[ "$lines" -eq 3 ] && ok "--limit 3 lists 3" || not_ok "--limit 3: $lines"
first=$("$P" qn --board 8 --list --json --limit 1 --method search)
case "$first" in
  '{"placement":"'*'"}
{"problem":"qn",'*'"listed":1,"complete":false,'*) ok "--list --json: placement objects, then the summary" ;;
  *) not_ok "--list --json: $first" ;;
esac

# Every listed placement, checked by the independent pieces command: it is one of the
# placements of Q5N5 (pieces lists them in its own way; the two sets must be equal).
a=$("$P" qn --board 8 --list --method search | sort)
b=$("$P" pieces --board 8 --pieces Q5N5 --list | sort)
[ -n "$a" ] && [ "$a" = "$b" ] && ok "qn --list equals pieces --list Q5N5" ||
  not_ok "qn --list differs from pieces Q5N5"

# Counts at a given size against the independent pieces command.
for spec in "6 QN 3" "7 QN 3" "6x5 QN 2" "5 RB 2" "5 NB 3" "4x6 KQ 2"; do
  set -- $spec
  ours=$("$P" qn --board "$1" --kinds "$2" --size "$3" --count --json --method search)
  a=$(echo "$2" | cut -c1) b=$(echo "$2" | cut -c2)
  theirs=$("$P" pieces --board "$1" --pieces "$a$3$b$3" --unique --json)
  c1=$(echo "$ours" | sed 's/.*"count":\([0-9]*\),"unique":\([0-9]*\).*/\1 \2/')
  c2=$(echo "$theirs" | sed 's/.*"count":\([0-9]*\),"unique":\([0-9]*\).*/\1 \2/')
  [ -n "$c1" ] && [ "$c1" = "$c2" ] && ok "board $1 $2 size $3: $c1 as pieces counts" ||
    not_ok "board $1 $2 size $3: qn $c1, pieces $c2"
done
ours=$("$P" qn --board 5 --kinds QN --ratio 2:1 --size 1 --count --json --method search)
theirs=$("$P" pieces --board 5 --pieces Q2N1 --unique --json)
c1=$(echo "$ours" | sed 's/.*"count":\([0-9]*\),"unique":\([0-9]*\).*/\1 \2/')
c2=$(echo "$theirs" | sed 's/.*"count":\([0-9]*\),"unique":\([0-9]*\).*/\1 \2/')
[ -n "$c1" ] && [ "$c1" = "$c2" ] && ok "--ratio 2:1 size 1 on 5x5: $c1 as pieces Q2N1" ||
  not_ok "--ratio 2:1: qn $c1, pieces $c2"

expect "--size 6 on 8x8: none, proven" \
  "qn on 8x8: 6 queens and 6 knights: none, proven impossible by search" \
  qn --board 8 --size 6 --method search
out=$("$P" qn --board 8 --size 5 --method search) && echo "$out" | head -1 | grep -qF ": possible" &&
  ok "--size 5 on 8x8: possible, with a witness" || not_ok "--size 5: $out"
expect "--size 6 --json" \
  '{"problem":"qn","board":"8x8","kinds":"QN","ratio":"1:1","size":6,"feasible":false,"proved_by":"search"}' \
  qn --board 8 --size 6 --json --method search
expect "--size 0: the empty board" \
  '{"problem":"qn","board":"3x3","kinds":"QN","ratio":"1:1","size":0,"feasible":true,"count":1,"unique":1}' \
  qn --board 3 --size 0 --count --json
out=$("$P" qn --board 1 --kinds RB --ratio 1:2 --method search | head -1)
[ "$out" = "qn on 1x1: 0 rooks and 0 bishops, the maximum, proven by search (no placement of 1 rook and 2 bishops)" ] &&
  ok "--kinds RB --ratio 1:2 on 1x1: nothing fits" || not_ok "RB 1:2 on 1x1: $out"

want="n,maximum,proven,proof,count,unique
1,0,true,search,1,1
2,0,true,search,1,1
3,0,true,search,1,1
4,1,true,search,40,5
5,2,true,search,156,20
6,3,true,search,176,22
7,4,true,search,120,15
8,5,true,search,16,2"
got=$("$P" qn --table 1..8 --format csv --method search | cut -d, -f1-4,6-7)
[ "$got" = "$want" ] && ok "--table 1..8 as csv" || not_ok "--table 1..8 as csv: $got"
expect "--table as a b-file" "6 3
7 4
8 5" qn --table 6..8 --format bfile --method search
rows=$("$P" qn --table 9..10 --json --method search | grep -c '"optimal":true,"proved_by":"search","witness":"[.QN/]*","count":')
[ "$rows" -eq 2 ] && ok "--table --json: one object per board" || not_ok "--table --json: $rows"

out=$("$P" qn --board 5 --method ilp --json)
case "$out" in *'"size":2,"optimal":true,"proved_by":"ilp"'*) ok "--method ilp proves 5x5" ;;
  *) not_ok "--method ilp: $out" ;; esac
out=$("$P" qn --board 6 --method race --json)
case "$out" in *'"size":3,"optimal":true,"proved_by":"'*) ok "--method race proves 6x6" ;;
  *) not_ok "--method race: $out" ;; esac
out=$("$P" qn --board 5 --size 3 --method ilp)
[ "$out" = "qn on 5x5: 3 queens and 3 knights: none, proven impossible by ilp" ] &&
  ok "--size with --method ilp" || not_ok "--size --method ilp: $out"

# Limits and signals: exit 3 (130), never a maximum or a count claimed.
out=$("$P" qn --board 12 --node-limit 100 --method search 2>$T.err)
rc=$?
if [ $rc -eq 3 ] && echo "$out" | head -1 | grep -q "or more, not proven" &&
  ! echo "$out" | grep -q "maximum" && grep -q "not proven" $T.err; then
  ok "--node-limit: exit 3, size found, not proven"
else
  not_ok "--node-limit: exit $rc: $out"
fi
# The integer program takes the node limit too (its branch-and-bound nodes): it ran to the proof.
# A checkpoint written before any part finished says so (it said "finished parts are in the
# checkpoint" over "done":[]: 9x9 KN's first part alone is some 840 million nodes).
rm -f $T.ck
"$P" qn --board 9 --kinds KN --node-limit 1000000 --checkpoint $T.ck >/dev/null 2>$T.err
rc=$?
[ $rc -eq 3 ] && grep -q '(no part had finished: the checkpoint holds none)' $T.err &&
  [ "$(jq -c .done $T.ck)" = "[]" ] && ok "a checkpoint with no part finished: said so" ||
  not_ok "a checkpoint with no part finished: exit $rc: $(cat $T.err)"
rm -f $T.ck
# Making the parts of a large board (32x32: 17 million at size 3) stops at the deadline too: the
# run took 1.7 s of a --time-limit of 0.5 (not under the sanitizers: their runs are slower).
"$P" qn --board 32 --time-limit 0.5 --json >$T.out 2>$T.err
rc=$?
bound=1.2
[ -n "${PEACEABLE_LIGHT:-}" ] && bound=20
[ $rc -eq 3 ] && jq -e ".optimal == false and .seconds < $bound" $T.out >/dev/null &&
  ok "32x32 --time-limit 0.5: stopped within $bound s, while its parts were being made" ||
  not_ok "32x32 --time-limit 0.5: exit $rc: $(cat $T.out)"
out=$(timeout 60 "$P" qn --board 10 --node-limit 1 --method ilp --jobs 1 2>$T.err)
rc=$?
if [ $rc -eq 3 ] && echo "$out" | head -1 | grep -q "or more, not proven"; then
  ok "--node-limit with --method ilp: exit 3, not proven"
else
  not_ok "--node-limit with --method ilp: exit $rc: $out"
fi
out=$("$P" qn --board 12 --node-limit 100 --json --method search 2>/dev/null)
case "$out" in *'"optimal":false'*) ok "--node-limit --json: optimal false" ;;
  *) not_ok "--node-limit --json: $out" ;; esac
out=$("$P" qn --board 12 --count --node-limit 2000000 --method search 2>$T.err)
rc=$?
if [ $rc -eq 3 ] && echo "$out" | head -1 | grep -q "the maximum, proven" &&
  ! echo "$out" | grep -q "placements" && grep -q "counting on 12x12 stopped by a limit: no total" $T.err; then
  ok "a limit while counting: exit 3, no total"
else
  not_ok "limit while counting: exit $rc: $out"
fi
"$P" qn --board 16 --count --method search >$T.out 2>$T.err &
pid=$!
sleep 1
kill -INT $pid
wait $pid
rc=$?
if [ $rc -eq 130 ] && ! grep -q "placements" $T.out; then ok "SIGINT: exit 130, no count"; else
  not_ok "SIGINT: exit $rc: $(cat $T.out)"
fi
"$P" qn --table 14..15 --time-limit 1 --method search >$T.out 2>/dev/null
rc=$?
# Every board has its row, as the armies table has (the qn table dropped the rows after the first
# board stopped): 14 and 15 without counts ("-"); 14x14 stopped at its half of the second (it
# took the whole second, and 15x15 had nothing left).
if [ $rc -eq 3 ] && [ "$(grep -c '^ *1[45]x1[45] .* - *-$' $T.out)" -eq 2 ] &&
  awk '$1 == "14x14" { exit !($4 < 0.8) }' $T.out; then
  ok "--time-limit on a table: exit 3, a row for every board, marked not proven"
else
  not_ok "--time-limit: exit $rc: $(cat $T.out)"
fi
# Each board of a table gets an equal share of the nodes left, as in the armies table (the first
# took them all: 10x10 had none, "size":0).
"$P" qn --table 9..10 --node-limit 3000 --json --quiet >$T.out 2>/dev/null
rc=$?
if [ $rc -eq 3 ] && [ "$(jq -c 'select(has("board")) | [.board, .nodes]' $T.out | tr -d '\n')" = '["9x9",1500]["10x10",1500]' ]; then
  ok "--node-limit 3000 on a table of two boards: 1500 nodes each"
else
  not_ok "--node-limit on a table: exit $rc: $(cat $T.out)"
fi
# ... and a limit below the number of boards still limits each (the first had no limit at all).
"$P" qn --table 11..12 --node-limit 1 --method search --json --quiet >$T.out 2>/dev/null
rc=$?
if [ $rc -eq 3 ] && [ "$(jq -c 'select(has("board")) | [.board, .optimal, .nodes]' $T.out | tr -d '\n')" = '["11x11",false,1]["12x12",false,1]' ]; then
  ok "--node-limit 1 on a table of two boards: one node each, neither proven"
else
  not_ok "--node-limit 1 on a table: exit $rc: $(cat $T.out)"
fi
# A fraction of a second, as armies takes it; the integer program gets it as GLPK's time limit.
start=$(date +%s.%N)
"$P" qn --board 24 --method ilp --time-limit 0.5 >$T.out 2>$T.err
rc=$?
took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
if [ $rc -eq 3 ] && grep -q 'not proven' $T.out && awk -v t="$took" 'BEGIN { exit !(t < 5) }'; then
  ok "--time-limit 0.5 with --method ilp: exit 3 within seconds, the witness not proven"
else not_ok "--time-limit 0.5: exit $rc after $took s"; fi

# Messages: a count stopped before it found anything says "no total", not "0 placements so far";
# a proof of one cube says "1 cube".
"$P" qn --board 12 --size 8 --count --node-limit 20000 --jobs 1 --method search --quiet \
  >/dev/null 2>$T.err
rc=$?
if [ $rc -eq 3 ] && grep -q 'counting on 12x12 stopped by a limit: no total' $T.err && ! grep -q ' 0 placements' $T.err; then
  ok "a count stopped before its first placement: no total, no \"0 placements so far\""
else not_ok "count stopped early: exit $rc: $(cat $T.err)"; fi
"$P" qn --board 2 --cert $T.c2.json >/dev/null 2>&1
"$P" verify $T.c2.json | grep -q '(1 cube, 1 searched' && ok "verify: \"1 cube\", not \"1 cubes\"" ||
  not_ok "verify: $("$P" verify $T.c2.json)"

refuse "kinds of one letter" '"Q"' qn --kinds Q
refuse "kinds twice the same" '"QQ"' qn --kinds QQ
refuse "unknown kind letter" '"QZ"' qn --kinds QZ
refuse "ratio without colon" '"2"' qn --ratio 2
refuse "ratio zero" '"0:1"' qn --ratio 0:1
refuse "negative size" '"-1"' qn --size -1
refuse "size too large" "do not fit" qn --board 4 --size 9
refuse "table reversed" '"5..3"' qn --table 5..3
refuse "table from 0" '"0..3"' qn --table 0..3
refuse "table with board" "--table" qn --table 1..3 --board 5
# --count with --table, as armies --table --count takes it: the rows count anyway (it was refused).
[ "$("$P" qn --table 1..6 --count --method search --format csv | cut -d, -f1-4,6-7)" = \
  "$("$P" qn --table 1..6 --method search --format csv | cut -d, -f1-4,6-7)" ] &&
  ok "--table --count: the table, counts and all" || not_ok "--table --count"
refuse "unknown format" '"xml"' qn --table 1..3 --format xml
refuse "format without table" '"csv"' qn --format csv
refuse "limit without list" '"3"' qn --limit 3
refuse "count and list" "--count and --list" qn --count --list
refuse "unknown method" '"magic"' qn --method magic
refuse "zero time limit" '"0"' qn --time-limit 0
refuse "bad node limit" '"x"' qn --node-limit x
refuse "bad board" '"9y9"' qn --board 9y9
refuse "an option qn does not take" '"--pieces"' qn --pieces Q1

out=$("$P" qn --help) && echo "$out" | grep -q -- '--kinds XY' && echo "$out" | grep -q -- '--ratio A:B' &&
  echo "$out" | grep -q -- '--table A..B' && ok "qn --help lists its options" || not_ok "qn --help"
"$P" --help | grep -q '^  qn ' && ok "--help lists qn" || not_ok "--help lists qn"
expect "--quiet changes nothing on stdout" "$("$P" qn --board 6 --method search)" \
  qn --board 6 --quiet --method search

"$P" qn --board 8 --svg $T.svg --method search >/dev/null 2>&1
if grep -q '<svg' $T.svg 2>/dev/null && { ! command -v xmllint >/dev/null 2>&1 ||
  xmllint --noout $T.svg 2>/dev/null; }; then ok "--svg draws the witness (valid XML)"; else
  not_ok "--svg draws the witness"
fi
# With --list, the listing's first placements, as armies draws them (it was refused): 5x5's 156,
# a board each; of 8x8's 73,674 placements of 4, the first 256, and said so.
"$P" qn --board 5 --list --svg $T.svg >$T.out 2>$T.err
[ $? -eq 0 ] && [ "$(wc -l <$T.out)" -eq 156 ] && [ "$(grep -c '^<g>' $T.svg)" -eq 156 ] &&
  [ ! -s $T.err ] && ok "--list --svg: a board for each of the 156 placements listed" ||
  not_ok "--list --svg: $(head -c 200 $T.err)"
"$P" qn --board 8 --size 4 --list --svg $T.svg >$T.out 2>$T.err
[ $? -eq 0 ] && [ "$(grep -c '^<g>' $T.svg)" -eq 256 ] &&
  grep -q 'draws the first 256 of the 73674 placements listed' $T.err &&
  ok "--list --svg of 73,674 placements: the first 256, and said so" ||
  not_ok "--list --svg of 73,674: $(head -c 200 $T.err)"
"$P" qn --table 3..4 --svg $T.svg >/dev/null 2>&1
[ $? -eq 2 ] && ok "--svg with --table: exit 2" || not_ok "--svg with --table: exit 2"
rm -f $T.svg
# An infeasible size: the picture is the empty board, captioned; its listing's summary says so.
"$P" qn --board 6 --size 4 --svg $T.svg --quiet >/dev/null
[ $? -eq 0 ] && grep -q "no placement" $T.svg && ok "--svg of an infeasible size: the empty board" ||
  not_ok "--svg of an infeasible size"
rm -f $T.svg
out=$("$P" qn --board 5 --size 3 --list --json | tail -1)
case "$out" in *'"size":3,"feasible":false,"proved_by":"search","count":0'*) ok "--list --json of an infeasible size: feasible false" ;;
  *) not_ok "--list --json of an infeasible size: $out" ;; esac
# Progress on a terminal, in the style of every message: "peaceable: qn: ..." (it was
# "peaceable: qn 11x11: ...", and armies' "peaceable: armies 12x12, ...").
if command -v script >/dev/null 2>&1; then
  timeout -s KILL 60 script -qc "'$P' qn --board 11 --kinds KN --jobs 1 --time-limit 3" /dev/null |
    tr '\r' '\n' >$T.out
  if grep -q '^peaceable: qn: 11x11: deciding size [0-9]*: [0-9]*/[0-9]* parts, ' $T.out; then
    ok "progress on a terminal: 'peaceable: qn: 11x11: deciding size ...'"
  else
    not_ok "progress on a terminal: $(grep -a peaceable $T.out | head -2)"
  fi
else
  ok "progress on a terminal # SKIP script not installed"
fi
# A count stopped after its maximum was proven keeps the maximum's certificate with --cert, and
# says so (12x12: the maximum 8 in about 0.5 million nodes, its count in about 6 million).
rm -f $T.c12.json
"$P" qn --board 12 --count --quiet --jobs 1 --node-limit 3000000 --cert $T.c12.json >$T.out 2>$T.err
rc=$?
if [ $rc -eq 3 ] && grep -q 'holds the size' $T.err && grep -q 'the maximum, proven by search' $T.out &&
  "$P" verify $T.c12.json | grep -q '8 Q and 8 N fit (witness checked); 9 Q and 9 N do not fit'; then
  ok "a count stopped after its maximum: the maximum's certificate, said so, and it verifies"
else
  not_ok "a count stopped after its maximum: exit $rc, $(cat $T.err)"
fi
rm -f $T.err $T.out $T.c12.json
echo "1..$n"
[ "$failed" -eq 0 ]
