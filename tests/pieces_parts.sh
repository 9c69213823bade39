#!/bin/sh
# pieces_parts.sh: pieces on threads and in parts (TAP): --jobs gives the answers and the listing of
# one thread; --part I/N results merge into the count; merge refuses missing, repeated and foreign
# parts; --checkpoint and --resume survive a limit and a signal; foreign checkpoints are refused.
P=${PEACEABLE:-./peaceable}
T=$(mktemp -d "${TMPDIR:-/tmp}/peaceable-pieces-parts.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }
check() { # check DESCRIPTION CONDITION-STATUS
  if [ "$2" -eq 0 ]; then ok "$1"; else not_ok "$1"; fi
}

# fails DESCRIPTION STATUS NEEDLE COMMAND...: exit STATUS, nothing on stdout, one stderr line
# containing NEEDLE.
fails() {
  desc=$1 status=$2 needle=$3
  shift 3
  "$P" "$@" >"$T/out" 2>"$T/err"
  rc=$?
  if [ "$rc" -eq "$status" ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
    grep -qF -- "$needle" "$T/err"; then
    ok "$desc"
  else
    not_ok "$desc"
    echo "# exit $rc, stdout $(wc -c <"$T/out") bytes, stderr: $(cat "$T/err")"
  fi
}

# same_jobs DESCRIPTION COMMAND...: the output with --jobs 2 and 4 is that of --jobs 1, byte for
# byte, and not empty; all exit 0 and print nothing on stderr (no progress for short runs).
same_jobs() {
  desc=$1
  shift
  "$P" "$@" --jobs 1 >"$T/j1" 2>"$T/err1"
  r1=$?
  "$P" "$@" --jobs 2 >"$T/j2" 2>"$T/err2"
  r2=$?
  "$P" "$@" --jobs 4 >"$T/j4" 2>"$T/err4"
  r4=$?
  # The summary's nodes and seconds vary with the threads; the rest must not.
  for j in 1 2 4; do
    sed -i 's/,"nodes":[0-9]*//; s/,"seconds":[0-9.]*//' "$T/j$j"
  done
  if [ "$r1$r2$r4" = 000 ] && [ -s "$T/j1" ] && cmp -s "$T/j1" "$T/j2" && cmp -s "$T/j1" "$T/j4" &&
    [ ! -s "$T/err1" ] && [ ! -s "$T/err2" ] && [ ! -s "$T/err4" ]; then
    ok "$desc"
  else
    not_ok "$desc"
    echo "# exits $r1 $r2 $r4; $(wc -c <"$T/j1") $(wc -c <"$T/j2") $(wc -c <"$T/j4") bytes"
    cat "$T/err1" "$T/err2" "$T/err4" | sed 's/^/# /'
  fi
}

# Threads: the same counts, and the same listing in the same order, as one thread. The larger
# counts take long enough (over 10 ms) for the other threads to join.
same_jobs "6x9 K2Q1B2R2N3 --unique --json: the same with 1, 2 and 4 jobs" pieces --board 6x9 \
  --pieces K2Q1B2R2N3 --unique --json
want=$(cat "$T/j1")
same_jobs "9x9 Q9 --unique --json (one kind alone): the same" pieces --board 9 --pieces Q9 \
  --unique --json
same_jobs "4x32 N20 (beyond 2^64): the same" pieces --board 4x32 --pieces N20
same_jobs "--list of the first 600,000 of 8x8 K2Q1B2R2N3: the same bytes" pieces --board 8 \
  --pieces K2Q1B2R2N3 --list --limit 600000 --quiet
same_jobs "6x6 K2Q1R1B1N2 --list --unique --json: the same bytes" pieces --board 6 \
  --pieces K2Q1R1B1N2 --list --unique --json
# A listing's other threads join after 0.1 s: this one takes about 0.2 s on one thread.
same_jobs "12x12 Q12 --list --unique --json (several words, threads joining): the same bytes" \
  pieces --board 12 --pieces Q12 --list --unique --json
[ "$(wc -l <"$T/j1")" -eq 1788 ] && tail -1 "$T/j1" | grep -q '"count":14200,"unique":1787}$'
check "12x12 Q12 --list --unique --json: 1787 classes of 14200, then the summary" $?
same_jobs "6x5 K2Q1B1N2 --list: the same bytes" pieces --board 6x5 --pieces K2Q1B1N2 --list
[ "$(wc -l <"$T/j1")" -eq "$("$P" pieces --board 6x5 --pieces K2Q1B1N2 --jobs 1)" ]
check "6x5 K2Q1B1N2 --list: as many lines as the count" $?
"$P" pieces --board 8 --pieces K2Q1B2R2N3 --list --jobs 2 | head -3 >"$T/head"
[ "$(wc -l <"$T/head")" -eq 3 ]
check "--list --jobs 2 streams: the first 3 of 1,112,088,800 placements, then the reader ends it" $?

# --part I/N merges into the count.
for i in 1 2 3; do
  "$P" pieces --board 6x9 --pieces K2Q1B2R2N3 --unique --part $i/3 --jobs 2 >"$T/p$i" || break
done
grep -q '"problem":"pieces","board":"6x9","pieces":"K2Q1R2B2N3","unique":true,"split":"[0-9a-f]\{16\}","subparts":[0-9]*,"part":1,"parts":3,"covered":[0-9]*,"done":true,"count":[0-9]*,"fixed":[0-9]*,"nodes":[0-9]*,"digest":"[0-9a-f]\{16\}"}$' "$T/p1"
check "--part 1/3 prints one JSON line" $?
got=$("$P" merge --json "$T/p1" "$T/p2" "$T/p3" | sed 's/,"nodes":[0-9]*//')
# A merge says its total is the parts' word ("checked":false) and its parts where a run says its seconds.
[ "$got" = "$(echo "$want" | sed 's/"pieces":"K2Q1B2R2N3"/"pieces":"K2Q1R2B2N3"/; s/}$/,"checked":false,"parts":3}/')" ]
check "merge --json of parts 1/3..3/3: the count and --unique of one run ($got)" $?
# No piece at all: the part line names its pieces as the command line takes them (it said "").
"$P" pieces --board 6x6 --pieces Q0 --part 1/1 >"$T/p0"
[ "$(jq -r .pieces "$T/p0")" = K0 ] && [ "$("$P" merge "$T/p0")" = 1 ]
check "--pieces Q0 --part 1/1: \"pieces\":\"K0\", merged into the count 1" $?
cat "$T/p3" "$T/p1" "$T/p2" >"$T/all"
[ "$("$P" merge "$T/all")" = "20678840
5169710 up to symmetry" ]
check "merge of the parts in one file, in any order: the text of the count" $?
for i in 1 2; do
  "$P" pieces --board 7x7 --pieces K2Q2B2N1 --part $i/2 >"$T/c$i" || break
done
[ "$("$P" merge "$T/c1" "$T/c2")" = 3063828 ]
check "7x7 K2Q2B2N1 in 2 parts: 3063828" $?

fails "merge with part 3/3 missing: exit 3, no total" 3 "part 3/3 is missing" merge "$T/p1" \
  "$T/p2"
fails "merge with part 2/3 twice: exit 2, both files named" 2 \
  "part 2/3 appears twice: $T/p2 and $T/p2" merge "$T/p1" "$T/p2" "$T/p2" "$T/p3"
fails "merge of a part of another count: exit 2" 2 "not a part of the same" merge "$T/p1" \
  "$T/c2" "$T/p2" "$T/p3"
"$P" pieces --board 6x9 --pieces K2Q1B2R2N3 --part 1/3 >"$T/plain1"
fails "merge of a part without --unique among parts with it: exit 2" 2 "not a part of the same" \
  merge "$T/p1" "$T/plain1" "$T/p2" "$T/p3"
sed 's/"split":"[0-9a-f]*"/"split":"0123456789abcdef"/' "$T/p1" >"$T/forged"
fails "merge of parts of another split: exit 2" 2 "not of the split this program makes" merge \
  "$T/forged"
sed 's/"count":[0-9]*/"count":1.5/' "$T/p1" >"$T/bad"
fails "merge of a part edited (its digest not made again): exit 2" 2 "damaged or edited" merge \
  "$T/bad" "$T/p2" "$T/p3"
cat "$T/p2" "$T/bad" >"$T/two"
fails "... the message names the file and the line" 2 "$T/two, line 2 (part 1/3) is damaged" merge \
  "$T/two" "$T/p3"
"$RESEAL" "$T/bad"
fails "merge of a part whose count is not a whole number: exit 2, the file named" 2 \
  "$T/bad: part 1/3: its count is not a whole number" merge "$T/bad" "$T/p2" "$T/p3"
sed 's/"count":[0-9]*/"count":340282366920938463463374607431768211456/' "$T/p1" >"$T/big"
"$RESEAL" "$T/big"
fails "merge of a part with a count of 2^128: exit 2" 2 "not a whole number" merge "$T/big" \
  "$T/p2" "$T/p3"
# A genuine part of a 40-way split relabelled "part 1 of 1" claims the whole count: refused, also
# when its digest is made again (the subparts it covers are those of 1/40).
"$P" pieces --board 6x9 --pieces K2Q1B2R2N3 --part 1/40 >"$T/p40"
sed 's/"parts":40,/"parts":1,/' "$T/p40" >"$T/relabelled"
fails "merge of part 1/40 relabelled 1/1: exit 2" 2 "damaged or edited" merge "$T/relabelled"
"$RESEAL" "$T/relabelled"
fails "... also with its digest made again (it covers the subparts of 1/40)" 2 \
  "subparts it covers" merge "$T/relabelled"
"$P" pieces --board 6x9 --pieces K2Q1B2R2N3 --part 1/2 --node-limit 20000 >"$T/u1" 2>"$T/err"
rc=$?
"$P" pieces --board 6x9 --pieces K2Q1B2R2N3 --part 2/2 >"$T/u2"
[ "$rc" -eq 3 ] && grep -q '"done":false' "$T/u1" && ! grep -q '"count"' "$T/u1"
check "--part stopped by --node-limit: exit 3, a line with done false and no count" $?
fails "merge with an unfinished part: exit 3, no total, the file named" 3 \
  "$T/u1: part 1/2 did not finish" merge "$T/u1" "$T/u2"
fails "--part 0/3 is refused" 2 '"0/3"' pieces --board 7 --pieces K2Q2B2N1 --part 0/3
fails "--part 4/3 is refused" 2 '"4/3"' pieces --board 7 --pieces K2Q2B2N1 --part 4/3
fails "--part beyond the subparts is refused" 2 "splits into" pieces --board 3 --pieces K1 \
  --part 1/1000
fails "--jobs 0 is refused" 2 '"0"' pieces --board 7 --pieces K2Q2B2N1 --jobs 0

# Checkpoints: a run stopped by a limit keeps its finished parts; resumed, it gives the answer of
# an uninterrupted run, counting only the rest.
"$P" pieces --board 6x9 --pieces K2Q1B2R2N3 --unique --node-limit 800000 --checkpoint "$T/ck" \
  >"$T/out" 2>"$T/err"
rc=$?
done1=$(grep -c '^\[' "$T/ck")
[ "$rc" -eq 3 ] && [ ! -s "$T/out" ] && grep -q "($done1 finished parts are in the checkpoint)" "$T/err" &&
  [ "$done1" -gt 0 ] && [ ! -e "$T/ck.tmp" ]
check "stopped by --node-limit: exit 3, no total, $done1 finished parts in the checkpoint, said so" $?
"$P" pieces --board 6x9 --pieces K2Q1B2R2N3 --unique --node-limit 800000 --checkpoint "$T/ck" \
  --resume "$T/ck" >"$T/out" 2>"$T/err"
rc=$?
done2=$(grep -c '^\[' "$T/ck")
[ "$rc" -eq 3 ] && [ "$done2" -gt "$done1" ]
check "resumed and stopped again: exit 3, more finished parts ($done2)" $?
got=$("$P" pieces --board 6x9 --pieces N3B2R2K2Q1 --unique --resume "$T/ck" --checkpoint "$T/ck" \
  --jobs 2)
[ "$got" = "20678840
5169710 up to symmetry" ]
check "resumed to the end (pieces spelt otherwise, 2 jobs): the total of one run" $?
total=$(sed -n 's/.*"subparts":\([0-9]*\).*/\1/p' "$T/ck")
[ "$(grep -c '^\[' "$T/ck")" -eq "$total" ]
check "the last checkpoint holds all $total parts" $?
[ "$("$P" pieces --board 6x9 --pieces K2Q1B2R2N3 --unique --resume "$T/ck" --node-limit 1)" = "$got" ]
check "resumed from a complete checkpoint: the total without a search" $?

# A signal: exit 130, the checkpoint written, and the rest counted on resuming (one thread: the
# run takes about 0.3 s here).
"$P" pieces --board 8 --pieces K2Q1B2R2N3 --checkpoint "$T/sig" --jobs 1 >"$T/out" 2>"$T/err" &
pid=$!
sleep 0.1
kill -INT "$pid"
wait "$pid"
rc=$?
if [ "$rc" -eq 0 ]; then
  n=$((n + 2))
  echo "ok $((n - 1)) # SKIP the run was over before SIGINT"
  echo "ok $n # SKIP the run was over before SIGINT"
else
  parts=$(grep -c '^\[' "$T/sig")
  [ "$rc" -eq 130 ] && [ ! -s "$T/out" ] && grep -q "interrupted" "$T/err" && [ -s "$T/sig" ]
  check "SIGINT: exit 130, no total, the checkpoint written ($parts finished parts)" $?
  [ "$("$P" pieces --board 8 --pieces K2Q1B2R2N3 --resume "$T/sig")" = 1112088800 ]
  check "resumed after SIGINT: 1112088800, as an uninterrupted run" $?
fi
# SIGINT, then resumed with the same file as --checkpoint and --resume: the work goes on from the
# finished parts, to the answer of an uninterrupted run.
"$P" pieces --board 8x9 --pieces K2Q1B2R2N3 --unique --checkpoint "$T/same" --jobs 2 >"$T/out" \
  2>"$T/err" &
pid=$!
sleep 0.5
kill -INT "$pid"
wait "$pid"
rc=$?
parts=$(grep -c '^\[' "$T/same")
got=$("$P" pieces --board 8x9 --pieces K2Q1B2R2N3 --unique --checkpoint "$T/same" --resume "$T/same" \
  --jobs 2)
[ "$rc" -eq 130 ] && [ "$parts" -gt 0 ] && [ "$got" = "14688768264
3672192066 up to symmetry" ] && [ "$(grep -c '^\[' "$T/same")" -gt "$parts" ]
check "SIGINT ($parts parts done), resumed from the same --checkpoint file: the total of one run" $?
"$P" pieces --board 8x9 --pieces K3Q1B2R2N3 --checkpoint "$T/term" >"$T/out" 2>"$T/err" &
pid=$!
sleep 0.2
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] && [ ! -s "$T/out" ] && grep -q '"subparts":' "$T/term" &&
  grep -q "interrupted" "$T/err"
check "SIGTERM in a run of many seconds: exit 130 at once, no total, the checkpoint written" $?

# Checkpoints of something else are refused with one message, exit 2.
fails "a checkpoint of another board: exit 2" 2 "another board" pieces --board 9x6 \
  --pieces K2Q1B2R2N3 --unique --resume "$T/ck"
fails "a checkpoint of other pieces: exit 2" 2 "another board, pieces" pieces --board 6x9 \
  --pieces K2Q1B2R2N2 --unique --resume "$T/ck"
fails "a checkpoint with --unique resumed without: exit 2" 2 "--unique" pieces --board 6x9 \
  --pieces K2Q1B2R2N3 --resume "$T/ck"
sed 's/"problem":"pieces"/"problem":"armies"/' "$T/ck" >"$T/armies"
fails "a checkpoint of another problem: exit 2" 2 "another problem" pieces --board 6x9 \
  --pieces K2Q1B2R2N3 --unique --resume "$T/armies"
sed 's/^\[0,/[99999999,/' "$T/ck" >"$T/badpart"
cp "$T/badpart" "$T/edited"
fails "a checkpoint edited (its digest not made again): exit 2" 2 "damaged or edited" pieces \
  --board 6x9 --pieces K2Q1B2R2N3 --unique --resume "$T/edited" --checkpoint "$T/edited"
cmp -s "$T/edited" "$T/badpart"
check "... and that refused checkpoint is not overwritten" $?
"$RESEAL" "$T/badpart"
fails "a checkpoint with a part beyond the split: exit 2" 2 "malformed" pieces --board 6x9 \
  --pieces K2Q1B2R2N3 --unique --resume "$T/badpart"
fails "a missing checkpoint: exit 2, the option named" 2 "pieces: --resume $T/none: No such file" \
  pieces --board 8 --pieces K2Q1B2R2N3 --resume "$T/none"

# Finished parts whose counts do not add up to a count (fuzz_checkpoint found that such a refusal
# still wrote --checkpoint): exit 2, one message, and no checkpoint written.
c0=$(sed -n 's/^\[0,{"count":\([0-9]*\),.*/\1/p' "$T/ck")
sed "s/^\[0,{\"count\":$c0,/[0,{\"count\":$((c0 + 1)),/" "$T/ck" >"$T/notwhole"
"$RESEAL" "$T/notwhole"
fails "a checkpoint whose counts are not a whole number of classes: exit 2" 2 "do not add up" \
  pieces --board 6x9 --pieces K2Q1B2R2N3 --unique --resume "$T/notwhole" --checkpoint "$T/nw1"
[ -n "$c0" ] && ! cmp -s "$T/ck" "$T/notwhole" && [ ! -e "$T/nw1" ]
check "... and that refusal writes no checkpoint" $?
max=340282366920938463463374607431768211455
sed "s/^\[\([01]\),{\"count\":[0-9]*,/[\1,{\"count\":$max,/" "$T/ck" >"$T/past128"
"$RESEAL" "$T/past128"
fails "a checkpoint whose counts add up past 2^128: exit 2" 2 "do not add up" pieces --board 6x9 \
  --pieces K2Q1B2R2N3 --unique --resume "$T/past128" --checkpoint "$T/nw2"
[ "$(grep -c "$max" "$T/past128")" -eq 2 ] && [ ! -e "$T/nw2" ]
check "... and that refusal writes no checkpoint either" $?

# A part line that rests on a checkpoint's outcomes says so, "checked":false, as every resumed
# answer does (it said nothing); merge takes it.
"$P" pieces --board 6 --pieces Q4 --part 1/2 --checkpoint "$T/pw.ck" --quiet >"$T/pw1"
"$P" pieces --board 6 --pieces Q4 --part 2/2 --quiet >"$T/pw2"
"$P" pieces --board 6 --pieces Q4 --part 1/2 --resume "$T/pw.ck" --quiet >"$T/pw1r"
[ "$(jq -c '[.count, .checked]' "$T/pw1r")" = "[$(jq .count "$T/pw1"),false]" ] &&
  [ "$(jq -c 'has("checked")' "$T/pw1")" = false ] &&
  [ "$("$P" merge "$T/pw1r" "$T/pw2" 2>/dev/null)" = "$("$P" merge "$T/pw1" "$T/pw2" 2>/dev/null)" ]
check "a part line resumed from a checkpoint: \"checked\":false; merged as the part run whole" $?

# gone ARGS...: pieces ARGS --checkpoint in a directory removed 0.3 s into the run; sets rc.
gone() {
  mkdir "$T/gone"
  "$P" pieces "$@" --checkpoint "$T/gone/c.json" --quiet >"$T/out" 2>"$T/err" &
  pid=$!
  sleep 0.3
  rm -rf "$T/gone"
  wait "$pid"
  rc=$?
}
# A checkpoint that cannot be written ends the count: its object says "count":null. (The count
# takes 12 s: its first checkpoint, after 5 s, fails, and the count stops there.)
gone --board 9 --pieces K2Q1B2R2N3 --jobs 1 --json
[ $rc -eq 2 ] && grep -q 'cannot write' "$T/err" && [ "$(wc -l <"$T/out")" -eq 1 ] &&
  [ "$(jq -c .count "$T/out")" = null ] && [ "$(jq '.seconds < 11' "$T/out")" = true ]
check "pieces: a checkpoint that cannot be written: exit 2, said, \"count\":null, stopped then" $?
# The same for a part: its line says "done":false, as for a limit.
gone --board 9 --pieces K2Q1B2R2N3 --jobs 1 --part 1/1
[ $rc -eq 2 ] && grep -q 'cannot write' "$T/err" && [ "$(wc -l <"$T/out")" -eq 1 ] &&
  [ "$(jq -c '[.part, .parts, .done, .count]' "$T/out")" = '[1,1,false,null]' ]
check "pieces --part 1/1: a checkpoint that cannot be written: exit 2, its line done false" $?

echo "1..$n"
[ "$failed" -eq 0 ]
