#!/bin/sh
# outputs.sh: output that cannot be written (TAP). Every command and mode writing its results to
# a full device exits 2 with one message; every option naming a file the program writes is
# checked before the run, so that a bad path fails at once, not after hours of search.
if [ ! -w /dev/full ]; then
  echo "1..0 # SKIP no writable /dev/full"
  exit 77
fi
. "${srcdir:-$(dirname "$0")/..}/tests/tap.sh"

# full DESCRIPTION ARGS...: peaceable ARGS with stdout on /dev/full (killed after 60 s) exits 2
# with one message saying that writing the output failed.
full() {
  desc=$1
  shift
  timeout -s KILL 60 "$P" "$@" >/dev/full 2>"$T/err"
  rc=$?
  if [ "$rc" -eq 2 ] && one_message "writing the output failed"; then ok "$desc"; else
    not_ok "$desc"
    show
  fi
}

# Inputs for verify and merge, written by the commands themselves.
"$P" armies --board 4 --jobs 1 --quiet --cert "$T/a4.json" >/dev/null 2>&1
"$P" qn --board 4 --jobs 1 --quiet --cert "$T/q4.json" >/dev/null 2>&1
"$P" armies --board 5 --size 5 --part 1/1 --jobs 1 --quiet >"$T/ap.json" 2>/dev/null
"$P" qn --board 5 --size 3 --part 1/1 --jobs 1 --quiet >"$T/qp.json" 2>/dev/null
"$P" pieces --board 5 --pieces Q5 --part 1/1 --jobs 1 --quiet >"$T/pp.json" 2>/dev/null
for f in a4 q4 ap qp pp; do
  [ -s "$T/$f.json" ] || echo "# input $f.json was not written"
done

full "--help" --help
full "--version" --version
full "armies --help" armies --help
for h in "pieces --help" "--help pieces"; do
  # shellcheck disable=SC2086
  "$P" $h >/dev/full 2>"$T/err"
  [ $? -eq 2 ] && one_message "pieces: writing the output failed" &&
    ok "$h on a full device: the message names the command" ||
    not_ok "$h on a full device: $(cat "$T/err")"
done
full "verify --help" verify --help
full "armies: the maximum" armies --board 6 --jobs 1 --quiet
full "armies: the maximum, JSON" armies --board 6 --jobs 1 --quiet --json
full "armies --white" armies --board 5 --white 2 --jobs 1 --quiet
full "armies --size" armies --board 6 --size 5 --jobs 1 --quiet
full "armies --count" armies --board 5 --count --jobs 1 --quiet
full "armies --list" armies --board 5 --list --jobs 1 --quiet
full "armies --table (text)" armies --table 1..5 --jobs 1 --quiet
full "armies --table --format bfile" armies --table 1..8 --format bfile --jobs 1 --quiet
full "armies --table --format csv" armies --table 1..5 --format csv --jobs 1 --quiet
full "armies --table --json" armies --table 1..5 --json --jobs 1 --quiet
full "armies --table --count" armies --table 1..5 --count --jobs 1 --quiet
full "armies --part" armies --board 6 --size 5 --part 1/2 --jobs 1 --quiet
full "qn: the maximum" qn --board 5 --jobs 1 --quiet
full "qn --size" qn --board 5 --size 3 --jobs 1 --quiet
full "qn --count" qn --board 5 --count --jobs 1 --quiet
full "qn --list" qn --board 5 --list --jobs 1 --quiet
full "qn --table (text)" qn --table 1..5 --jobs 1 --quiet
full "qn --table --format bfile" qn --table 1..5 --format bfile --jobs 1 --quiet
full "qn --table --format csv" qn --table 1..5 --format csv --jobs 1 --quiet
full "qn --table --json" qn --table 1..5 --json --jobs 1 --quiet
full "qn --part" qn --board 5 --size 3 --part 1/2 --jobs 1 --quiet
full "qn --part --count" qn --board 5 --size 3 --count --part 1/2 --jobs 1 --quiet
full "pieces: a count" pieces --board 5 --pieces Q5 --jobs 1 --quiet
full "pieces --unique --json" pieces --board 5 --pieces Q5 --unique --json --jobs 1 --quiet
full "pieces --list" pieces --board 5 --pieces Q5 --list --jobs 1 --quiet
full "pieces --part" pieces --board 5 --pieces Q5 --part 1/2 --jobs 1 --quiet
full "chess960 --all" chess960 --all
full "chess960 --number" chess960 --number 518
full "chess960 --position" chess960 --position RNBQKBNR
full "chess960 --random --diagram" chess960 --random --seed 7 --diagram
full "chess960 --json" chess960 --number 3 --json
full "verify of an armies certificate" verify "$T/a4.json"
full "verify of a qn certificate" verify "$T/q4.json"
full "verify --json" verify --json "$T/a4.json"
full "merge of armies parts" merge "$T/ap.json"
full "merge of qn parts" merge "$T/qp.json"
full "merge of pieces parts" merge "$T/pp.json"

# A file written to "-" (standard output) on a full device: exit 2, the failure said in one style
# for every file (it was "-: write error", "--svg \"-\": writing failed", "cannot write the model
# to standard output").
for o in "--cert -" "--svg -" "--export-lp -" "--export-mps -"; do
  # shellcheck disable=SC2086
  timeout -s KILL 60 "$P" armies --board 5 --jobs 1 --quiet $o >/dev/full 2>"$T/err"
  rc=$?
  if [ "$rc" -eq 2 ] && [ "$(grep -c 'cannot write' "$T/err")" -eq 1 ] &&
    grep -q '^peaceable: armies: standard output (-): cannot write: No space left on device$' \
      "$T/err"; then
    ok "armies $o on a full device: exit 2, 'standard output (-): cannot write: REASON'"
  else
    not_ok "armies $o on a full device"
    show
  fi
done

# A picture that cannot be written (a full disk) loses no answer: every command prints its answer,
# then writes its files, as armies did (qn and pieces printed nothing).
for c in "armies --board 6" "qn --board 6" "pieces --board 5 --pieces Q5"; do
  # shellcheck disable=SC2086
  run 60 $c --svg /dev/full
  check "$c --svg on a full device: the answer printed, exit 2, the failure said" \
    "[ $rc -eq 2 ] && [ -s '$T/out' ] && one_message '/dev/full: cannot write'"
done

# A model that cannot be written: one reason, as for every file (it said "cannot write: Write
# error on '/dev/full' - No space left on device").
for o in --export-lp --export-mps; do
  run 60 armies --board 5 $o /dev/full
  check "armies $o on a full device: exit 2, 'cannot write: REASON'" \
    "[ $rc -eq 2 ] && one_message '/dev/full: cannot write: No space left on device' &&
     ! grep -q 'Write error' '$T/err'"
done

# bad_path DESCRIPTION OPTION PATH ARGS...: peaceable ARGS, a run of minutes or hours, refuses
# the path of --OPTION at once: exit 2 within 10 s and one message naming the option and path.
bad_path() {
  desc=$1 option=$2 path=$3
  shift 3
  timeout -s KILL 10 "$P" "$@" >"$T/out" 2>"$T/err"
  rc=$?
  if [ "$rc" -eq 2 ] && one_message "--$option \"$path\"" && [ ! -s "$T/out" ]; then ok "$desc"
  else
    not_ok "$desc"
    show
  fi
}

M="$T/missing/x.out"
A15="armies --board 15 --jobs 1 --quiet"
bad_path "armies --cert in a missing directory" cert "$M" $A15 --cert "$M"
bad_path "armies --svg in a missing directory" svg "$M" $A15 --svg "$M"
bad_path "armies --export-lp in a missing directory" export-lp "$M" $A15 --export-lp "$M"
bad_path "armies --export-mps in a missing directory" export-mps "$M" $A15 --export-mps "$M"
bad_path "armies --checkpoint in a missing directory" checkpoint "$M" $A15 --checkpoint "$M"
bad_path "armies --size --cert in a missing directory" cert "$M" $A15 --size 32 --cert "$M"
bad_path "armies --part --cert in a missing directory" cert "$M" $A15 --size 32 --part 1/2 \
  --cert "$M"
bad_path "armies --list --svg in a missing directory" svg "$M" armies --board 12 --list --jobs 1 \
  --quiet --svg "$M"
bad_path "armies --cert naming a directory" cert "$T" $A15 --cert "$T"
bad_path "armies --cert naming a directory, with a slash" cert "$T/" $A15 --cert "$T/"
bad_path "armies --checkpoint empty" checkpoint "" $A15 --checkpoint ""
if mkfifo "$T/fifo" 2>/dev/null; then
  bad_path "armies --cert naming a pipe (it would be replaced)" cert "$T/fifo" $A15 \
    --cert "$T/fifo"
  bad_path "armies --checkpoint naming a pipe" checkpoint "$T/fifo" $A15 --checkpoint "$T/fifo"
fi
# A picture named FILE.gz is compressed, as certificates are (it was written plain).
timeout -s KILL 30 "$P" armies --board 5 --jobs 1 --quiet --svg "$T/w.svg.gz" >/dev/null 2>"$T/err"
rc=$?
if [ "$rc" -eq 0 ] && gzip -t "$T/w.svg.gz" 2>/dev/null && gzip -dc "$T/w.svg.gz" | grep -q '</svg>'
then ok "armies --svg FILE.gz: gzip-compressed"; else
  not_ok "armies --svg FILE.gz"
  show
fi
# A picture is written straight to its file: a device will do.
timeout -s KILL 30 "$P" armies --board 5 --jobs 1 --quiet --svg /dev/stdout >"$T/out" 2>"$T/err"
rc=$?
if [ "$rc" -eq 0 ] && grep -q '</svg>' "$T/out"; then ok "armies --svg /dev/stdout"; else
  not_ok "armies --svg /dev/stdout"
  show
fi
Q24="qn --board 24 --jobs 1 --quiet"
bad_path "qn --cert in a missing directory" cert "$M" $Q24 --cert "$M"
bad_path "qn --svg in a missing directory" svg "$M" $Q24 --svg "$M"
bad_path "qn --checkpoint in a missing directory" checkpoint "$M" $Q24 --checkpoint "$M"
bad_path "qn --part --cert in a missing directory" cert "$M" $Q24 --size 18 --part 1/2 --cert "$M"
bad_path "qn --svg naming a directory" svg "$T" $Q24 --svg "$T"
P12="pieces --board 12 --pieces K4Q3B3N4 --jobs 1 --quiet"
bad_path "pieces --svg in a missing directory" svg "$M" $P12 --svg "$M"
bad_path "pieces --checkpoint in a missing directory" checkpoint "$M" $P12 --checkpoint "$M"
bad_path "pieces --list --svg in a missing directory" svg "$M" $P12 --list --svg "$M"
bad_path "merge --cert in a missing directory" cert "$M" merge "$T/ap.json" --cert "$M"
bad_path "merge --cert naming a directory" cert "$T" merge "$T/qp.json" --cert "$T"
MPI=${PEACEABLE_MPI:-./peaceable-mpi}
if [ -x "$MPI" ] && command -v mpirun >/dev/null 2>&1; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  timeout -s KILL 20 mpirun -np 2 --oversubscribe "$MPI" $A15 --cert "$M" >"$T/out" 2>"$T/err"
  rc=$?
  if [ "$rc" -eq 2 ] && grep -qF -- "--cert \"$M\"" "$T/err"; then
    ok "peaceable-mpi: --cert in a missing directory"
  else
    not_ok "peaceable-mpi: --cert in a missing directory"
    show
  fi
fi

# The check creates nothing and changes nothing: runs stopped before they write.
mkdir "$T/d"
echo keep >"$T/d/kept.json"
echo earlier >"$T/d/left.json.tmp"
"$P" armies --board 15 --size 33 --jobs 1 --quiet --time-limit 0.3 --cert "$T/d/new.json" \
  --svg "$T/d/kept.json" --export-lp "$T/d/left.json" >/dev/null 2>&1
rc=$?
# (runs that find nothing before they stop: a run stopped after a witness or a placement keeps it)
"$P" qn --board 12 --kinds KN --size 30 --method search --jobs 1 --quiet --time-limit 0.3 \
  --cert "$T/d/new.json" >/dev/null 2>&1
"$P" pieces --board 12 --pieces K24Q6 --jobs 1 --quiet --time-limit 0.3 \
  --svg "$T/d/new.json" >/dev/null 2>&1
[ "$rc" -eq 3 ] && ok "armies with output paths stopped by --time-limit: exit 3" ||
  not_ok "armies with output paths stopped by --time-limit: exit $rc"
[ ! -e "$T/d/new.json" ] && [ ! -e "$T/d/new.json.tmp" ] &&
  ok "no file is left where nothing was written" || not_ok "files left: $(ls "$T/d")"
[ "$(cat "$T/d/kept.json")" = keep ] && ok "an existing file is not truncated by the check" ||
  not_ok "an existing file is not truncated by the check"
[ "$(cat "$T/d/left.json.tmp")" = earlier ] &&
  ok "a temporary file left by an earlier run is not truncated by the check" ||
  not_ok "a temporary file left by an earlier run is not truncated by the check"

# A checkpoint given to both --checkpoint and --resume survives the check and is resumed.
"$P" armies --board 13 --jobs 1 --quiet --time-limit 0.5 --checkpoint "$T/ck.json" >/dev/null \
  2>&1
cp "$T/ck.json" "$T/ck0.json" 2>/dev/null
"$P" armies --board 13 --jobs 1 --quiet --time-limit 0.5 --checkpoint "$T/ck.json" \
  --resume "$T/ck.json" >/dev/null 2>"$T/err"
rc=$?
if [ "$rc" -eq 3 ] && grep -q '"peaceable-checkpoint"' "$T/ck.json" &&
  grep -q '"peaceable-checkpoint"' "$T/ck0.json"; then
  ok "--checkpoint FILE --resume FILE: resumed, and FILE is still a checkpoint"
else
  not_ok "--checkpoint FILE --resume FILE: resumed, and FILE is still a checkpoint"
  show
fi

# "-" is standard output where a file is written, and standard input where one is read. The file
# has standard output to itself: the results go to standard error.
"$P" armies --board 5 --jobs 1 --quiet --cert - >"$T/dash" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] && "$P" verify - <"$T/dash" >"$T/verdict" 2>&1 && grep -q '^valid' "$T/verdict" &&
  grep -q 'maximum 4' "$T/err" && [ ! -e ./- ] &&
  ok "--cert -: the certificate alone on standard output (verify - reads it), the results on standard error" ||
  not_ok "--cert - (exit $rc)"
"$P" armies --board 5 --jobs 1 --quiet --json --cert - 2>"$T/err" | "$P" verify - >/dev/null 2>&1 &&
  [ "$(jq -r .size "$T/err")" = 4 ] &&
  ok "--json --cert -: piped to verify -, the JSON results on standard error" ||
  not_ok "--json --cert -"
"$P" armies --board 5 --jobs 1 --quiet --cert "$T/c5.json" >/dev/null 2>&1
"$P" verify - <"$T/c5.json" >/dev/null 2>&1
[ $? -eq 0 ] && ok "verify -: the certificate from standard input" || not_ok "verify -"
"$P" pieces --pieces Q8 --quiet --svg - 2>"$T/err" >"$T/dash" && xmllint --noout "$T/dash" &&
  grep -q '<svg' "$T/dash" && grep -q '^92$' "$T/err" && [ ! -e ./- ] &&
  ok "--svg -: the picture alone on standard output (well-formed XML), the count on standard error" ||
  not_ok "--svg -"
"$P" armies --board 5 --size 4 --jobs 1 --quiet --export-lp - 2>/dev/null | head -1 | grep -q '^\\\* Problem' &&
  "$P" armies --board 5 --size 4 --jobs 1 --quiet --export-lp - 2>/dev/null | grep -qi '^maximize' &&
  ok "--export-lp -: the model alone on standard output" || not_ok "--export-lp -"
"$P" armies --board 5 --size 4 --jobs 1 --quiet --export-mps - 2>/dev/null | head -1 | grep -q '^\*' &&
  "$P" armies --board 5 --size 4 --jobs 1 --quiet --export-mps - 2>/dev/null | grep -q '^\* Objective sense: MAXIMIZE' &&
  ok "--export-mps -: the model alone on standard output, marked maximised" || not_ok "--export-mps -"
"$P" armies --board 5 --jobs 1 --quiet --cert - >"$T/out" 2>&-
rc=$?
[ "$rc" -eq 2 ] && [ ! -s "$T/out" ] &&
  ok "--cert - with standard error closed: exit 2, the results not mixed into standard output" ||
  not_ok "--cert - with standard error closed (exit $rc)"
"$P" armies --board 5 --cert - --svg - >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && [ ! -s "$T/out" ] && one_message "--cert - and --svg -: one file at most" &&
  ok "--cert - --svg -: refused (one file at most on standard output), exit 2" || not_ok "--cert - --svg -"
"$P" armies --board 5 --checkpoint - >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && [ ! -s "$T/out" ] && one_message "--checkpoint -" &&
  ok "--checkpoint -: refused (a checkpoint is a file), exit 2" || not_ok "--checkpoint -"

# A checkpoint that can no longer be written (its folder removed during the run): the run,
# interrupted, ends with exit 2 and the write's message, never "the finished parts are in the
# checkpoint".
mkdir "$T/gone"
"$P" pieces --board 9 --pieces K2Q1R2B2N3 --jobs 1 --checkpoint "$T/gone/x.ck" >"$T/out" 2>"$T/err" &
pid=$!
sleep 0.3
rm -rf "$T/gone"
sleep 1
kill -INT $pid
wait $pid
rc=$?
check "a checkpoint whose folder is gone: exit 2, 'cannot write', nothing said saved" \
  "[ $rc -eq 2 ] && grep -q 'cannot write' '$T/err' && ! grep -q 'in the checkpoint' '$T/err' && [ ! -e '$T/gone' ]"

# A run that a limit stops keeps what it found: the picture of its witness (armies and qn wrote
# none and said nothing), and with --cert a certificate of the witness alone (qn and --colours
# wrote none and said nothing).
run 60 armies --board 8 --node-limit 1000 --jobs 1 --svg "$T/lim.svg"
check "armies stopped by a limit: exit 3, the witness drawn" \
  "[ $rc -eq 3 ] && grep -q '</svg>' '$T/lim.svg'"
run 60 qn --board 9 --node-limit 500 --method search --jobs 1 --cert "$T/lim-qn.json" \
  --svg "$T/lim-qn.svg"
check "qn stopped by a limit: exit 3, the witness drawn and certified alone, said so" \
  "[ $rc -eq 3 ] && grep -q '</svg>' '$T/lim-qn.svg' &&
   grep -q 'cert holds the witness alone' '$T/err'"
verdict "... its certificate verifies: 5 and 5 fit" 0 "valid: qn QN 1:1 on 9x9: 5 Q and 5 N fit" \
  "$T/lim-qn.json"
run 60 armies --colours 3 --board 7 --node-limit 100 --local-moves 0 --jobs 1 \
  --cert "$T/lim-c.json" --svg "$T/lim-c.svg"
check "--colours stopped by a limit: exit 3, the witness drawn and certified alone, said so" \
  "[ $rc -eq 3 ] && grep -q '</svg>' '$T/lim-c.svg' &&
   grep -q 'cert holds the witness alone' '$T/err'"
verdict "... its certificate verifies: 1 of each colour fits" 0 \
  "valid: 3 armies of Q on 7x7: 1 of each colour fit" "$T/lim-c.json"
# pieces --list --svg: the picture's placements are searched first, within the limit; a limit
# that stopped them printed nothing at all (no JSON summary) and drew nothing.
run 60 pieces --board 8 --pieces Q8 --node-limit 300 --list --json --jobs 1 --svg "$T/lim-p.svg"
check "pieces --list --svg stopped by a limit in the picture's search: the summary, and the picture" \
  "[ $rc -eq 3 ] && tail -n 1 '$T/out' | grep -q '\"listed\":0,\"complete\":false' &&
   grep -q '</svg>' '$T/lim-p.svg'"
# A picture that cannot be written is exit 2, also after a limit (it said 3, the limit's).
mkdir "$T/gone2"
meanwhile 0.5 'rm -rf "$T/gone2"' pieces --board 12 --pieces Q8N8 --jobs 1 --time-limit 2 \
  --svg "$T/gone2/p.svg"
check "pieces --svg whose folder went, stopped by a limit: exit 2, 'cannot write'" \
  "[ $rc -eq 2 ] && grep -q 'gone2/p.svg' '$T/err'"
run 60 pieces --board 8 --pieces Q8 --node-limit 3000 --jobs 1 --svg "$T/lim-p2.svg" --json
check "pieces --svg, the count stopped by a limit: no total, the picture drawn" \
  "[ $rc -eq 3 ] && grep -q '\"count\":null' '$T/out' && grep -q '</svg>' '$T/lim-p2.svg'"

# A file named through a symbolic link is written where the link leads, the link kept: the rename
# of an atomic write replaced the link with a file (the checkpoint it led to went stale).
mkdir -p "$T/real"
ln -s real/c.json "$T/c-link.json"
ln -s real/ck.json "$T/ck-link.json"
ln -s "$T/real/q.json.gz" "$T/q-link.gz"
run 60 armies --board 5 --jobs 1 --quiet --cert "$T/c-link.json"
check "--cert through a symbolic link: written where it leads, the link kept" \
  "[ $rc -eq 0 ] && [ -L '$T/c-link.json' ] && [ -s '$T/real/c.json' ]"
verdict "... and it verifies" 0 "valid: armies of Q on 5x5" "$T/real/c.json"
run 60 qn --board 5 --jobs 1 --quiet --cert "$T/q-link.gz"
check "--cert through an absolute link to a .gz name not there yet: written there" \
  "[ $rc -eq 0 ] && [ -L '$T/q-link.gz' ] && [ -s '$T/real/q.json.gz' ]"
run 60 armies --board 11 --jobs 1 --quiet --time-limit 0.5 --checkpoint "$T/ck-link.json"
run 60 armies --board 11 --jobs 1 --quiet --resume "$T/ck-link.json" --checkpoint "$T/ck-link.json"
check "--checkpoint through a link, resumed through it: the link kept, the run done" \
  "[ $rc -eq 0 ] && [ -L '$T/ck-link.json' ] && grep -q 'maximum 17' '$T/out'"
ln -s loop-b "$T/loop-a"
ln -s loop-a "$T/loop-b"
refuse "--cert through a loop of links: refused before the run" "cannot follow its symbolic link" \
  armies --board 5 --jobs 1 --cert "$T/loop-a"

# A pipe whose reader is gone (peaceable ... | head -1): the run stops at once, as interrupted,
# with exit 2 and a message, and writes its last checkpoint. SIGPIPE killed it (exit 141, the
# checkpoint unwritten); ignored (as a parent may leave it), the writes failed while the listing
# ran to its end (13 s for 11x11).
# closed NAME IGNORE ARGS...: peaceable ARGS | head -1, SIGPIPE ignored when IGNORE is 1; sets rc
# and took (ms).
closed() {
  name=$1 ignore=$2
  shift 2
  start=$(date +%s%N)
  (
    [ "$ignore" = 1 ] && trap '' PIPE
    { "$P" "$@" 2>"$T/err"; echo $? >"$T/rc"; } | head -1 >"$T/out"
  )
  rc=$(cat "$T/rc") took=$((($(date +%s%N) - start) / 1000000))
}
for ignore in 0 1; do
  closed list "$ignore" armies --board 11 --list --jobs 1 --quiet
  check "armies --list | head -1 (SIGPIPE ignored: $ignore): exit 2 at once (${took} ms), said why" \
    "[ $rc -eq 2 ] && [ $took -lt 6000 ] && [ -s '$T/out' ] &&
     grep -q 'writing the output failed: its reader closed the pipe' '$T/err'"
done
# A picture written to a pipe whose reader leaves: that write's message alone, exit 2 (the output
# on standard output was blamed too).
mkfifo "$T/p.svg"
(sleep 1; head -c 10 "$T/p.svg" >/dev/null) &
run 60 armies --board 7 --list --svg "$T/p.svg" --jobs 1 --quiet
wait
check "--svg to a pipe whose reader leaves: exit 2, its own message alone" \
  "[ $rc -eq 2 ] && one_message 'p.svg: cannot write: Broken pipe'"
rm -f "$T/pipe-ck.json"
closed ck 0 pieces --board 8 --pieces Q3N5 --list --jobs 1 --quiet --checkpoint "$T/pipe-ck.json"
check "pieces --list --checkpoint | head -1: exit 2, said why, the checkpoint written" \
  "[ $rc -eq 2 ] && grep -q 'its reader closed the pipe' '$T/err' && [ -s '$T/pipe-ck.json' ]"
lines=$("$P" pieces --board 8 --pieces Q3N5 --list --jobs 1 --quiet --resume "$T/pipe-ck.json" 2>/dev/null | sort -u | wc -l)
check "... resumed, the listing is whole: 782072 placements, each once ($lines)" "[ $lines -eq 782072 ]"

tap_end
