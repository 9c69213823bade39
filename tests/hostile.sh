#!/bin/sh
# hostile.sh: hostile input through the command line (TAP). Each command must end within its
# bound (killed otherwise: SIGTERM may be caught) with exit 2 and exactly one message line on
# stderr, or with a correct answer; never a crash or a hang.
. "${srcdir:-$(dirname "$0")/..}/tests/tap.sh"

# A real certificate, to damage.
run 60 armies --board 4 --jobs 1 --quiet --cert "$T/c4.json"
cert="$T/c4.json"
if [ "$rc" -eq 0 ] && [ -s "$cert" ]; then ok "armies --cert writes a certificate"; else
  not_ok "armies --cert writes a certificate"
  show
fi
verdict "the undamaged certificate is valid" 0 "valid: " "$cert"
size=$(wc -c <"$cert")

# Truncated certificates.
head -c $((size / 2)) "$cert" >"$T/half.json"
refuse "a certificate cut in half" "not JSON" verify "$T/half.json"
head -c $((size - 3)) "$cert" >"$T/short.json"
refuse "a certificate without its last bytes" "not JSON" verify "$T/short.json"
head -c 1 "$cert" >"$T/one.json"
refuse "a certificate of one byte" "not JSON" verify "$T/one.json"

# Empty, not JSON, not a certificate.
: >"$T/empty.json"
refuse "an empty file" "not JSON" verify "$T/empty.json"
printf 'armies of queens on 4x4: maximum 2, proven optimal by search\n' >"$T/text.json"
refuse "a file that is not JSON (a run's output)" "not JSON" verify "$T/text.json"
printf '92\n' >"$T/number.json"
refuse "a bare JSON number" "not a peaceable certificate" verify "$T/number.json"
printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\003\000>\000' >"$T/binary.json"
refuse "a binary file" "not text: a NUL byte at byte 8" verify "$T/binary.json"
printf '{"format":"peaceable-certificate","version":1,"problem":"armies","board":"4x4"\000}' \
  >"$T/nul.json"
refuse "a NUL byte inside" "not text: a NUL byte at byte 79" verify "$T/nul.json"
printf '[1,2,3]' >"$T/array.json"
refuse "JSON that is not a certificate" "not a peaceable certificate" verify "$T/array.json"
# A part's line and a checkpoint are the program's own files of another kind: said which, and
# what takes them.
"$P" armies --board 6 --size 4 --part 1/2 --quiet >"$T/part.json"
refuse "a part's result given to verify: said so, merge named" "a part's result (--part I/N), not a certificate: 'peaceable merge'" verify "$T/part.json"
"$P" armies --board 6 --size 4 --checkpoint "$T/c.ck" --quiet >/dev/null
refuse "a checkpoint given to verify: said so, --resume named" "a checkpoint, not a certificate: a run continues from it with --resume" verify "$T/c.ck"
refuse "a directory" "$T" verify "$T"
refuse "a missing file" "$T/nosuch.json" verify "$T/nosuch.json"

# Deep nesting: 100000 brackets must not exhaust the stack.
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; }' >"$T/deep.json"
refuse "100000 opening brackets" "nesting" verify "$T/deep.json"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; for (i = 0; i < 100000; i++) printf "]"; }' \
  >"$T/deep2.json"
refuse "100000 nested arrays, closed" "nesting" verify "$T/deep2.json"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "{\"a\":"; }' >"$T/deep3.json"
refuse "100000 nested objects" "nesting" verify "$T/deep3.json"

# A file larger than the limit (a third of the memory, at least 2 GiB), sparse: refused before it
# is read. It is made larger than the whole memory, and than 3 GiB.
kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo 2>/dev/null)
gib=$(((${kb:-0} + 1048575) / 1048576 + 1))
[ "$gib" -lt 3 ] && gib=3
if truncate -s "${gib}G" "$T/huge.json" 2>/dev/null; then
  start=$(date +%s)
  refuse "a $gib GiB certificate" "larger than" verify "$T/huge.json"
  [ $(($(date +%s) - start)) -le 5 ] && ok "the $gib GiB certificate is refused within 5 s" ||
    not_ok "the $gib GiB certificate took $(($(date +%s) - start)) s to refuse"
  rm -f "$T/huge.json"
else
  ok "# SKIP no sparse files here"
fi

# Certificates with one member changed. edit NAME SED-EXPRESSION: a copy of the certificate.
edit() {
  sed "$2" "$cert" >"$T/$1.json"
  cmp -s "$cert" "$T/$1.json" && echo "# the edit for $1 changed nothing"
}
edit unknown 's/"problem":"armies"/"problem":"nosuch"/'
refuse "a certificate of an unknown problem" 'no checker for problem "nosuch"' verify "$T/unknown.json"
edit verify 's/"problem":"armies"/"problem":"verify"/'
refuse "a certificate of a problem without certificates" 'no checker' verify "$T/verify.json"
edit qn 's/"problem":"armies"/"problem":"qn"/'
refuse "an armies certificate labelled qn" 'qn' verify "$T/qn.json"
edit noproblem 's/"problem":"armies",//'
refuse "a certificate without its problem" 'no checker' verify "$T/noproblem.json"
edit board 's/"board":"4x4"/"board":"99x4"/'
refuse "a certificate of a 99x4 board: one message" 'board "99x4"' verify "$T/board.json"
edit twice 's/"split":\[\([0-9]*\),[0-9]*/"split":[\1,\1/'
verdict "a split line given twice" 1 "invalid: split: line [0-9]* is given twice" "$T/twice.json"
edit control 's/"witness":"\([^"]*\)"/"witness":"\1\\n\\u001b[31m"/'
verdict "a witness with a newline and an escape: one line, invalid" 1 'invalid: witness ".*?' \
  "$T/control.json"
edit control2 's/"problem":"armies"/"problem":"x\\ny"/'
refuse "a problem name with a newline: one message line" 'no checker for problem "x?y"' \
  verify "$T/control2.json"
edit version 's/"version":1/"version":99999999999999999999999999999/'
refuse "a huge version number" "version 1" verify "$T/version.json"
edit version2 's/"version":1/"version":1e999/'
refuse "version 1e999" "version 1" verify "$T/version2.json"
edit white 's/"infeasible":{"white":[0-9]*/"infeasible":{"white":18446744073709551617/'
refuse "an army of 2^64+1" "malformed" verify "$T/white.json"
edit black 's/"infeasible":{"white":\([0-9]*\),"black":[0-9]*/"infeasible":{"white":\1,"black":-9223372036854775809/'
refuse "an army of -2^63-1" "malformed" verify "$T/black.json"
edit split 's/"split":\[[0-9]*/"split":[340282366920938463463374607431768211457/'
refuse "a split line of 2^128+1" "malformed" verify "$T/split.json"
edit tree 's/^"\.\(["]*\)/"340282366920938463463374607431768211457,..\1/'
verdict "a tree branching on line 2^128+1 is invalid" 1 "invalid: tree" "$T/tree.json"

# A 32x32 certificate with 320 pieces of each colour: checked, found invalid, at once.
awk 'BEGIN {
  row = "QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ"; empty = "................................";
  for (r = 0; r < 32; r++) {
    line = r < 10 ? row : r >= 22 ? tolower(row) : empty;
    w = w (r ? "/" : "") line;
  }
  printf "{\"format\":\"peaceable-certificate\",\"version\":1,\"problem\":\"armies\",";
  printf "\"board\":\"32x32\",\"piece\":\"Q\",\"claim\":\"maximum\",\"white\":320,\"black\":320,";
  printf "\"witness\":\"%s\",\"infeasible\":{\"white\":321,\"black\":321,\"split\":[],", w;
  printf "\"complement\":false,\"cubes\":[\"\"],\"trees\":[\".\"]}}\n";
}' >"$T/big.json"
verdict "a 32x32 certificate of 640 pieces that attack" 1 "invalid: witness" "$T/big.json"

# Many cubes: 8x8, 16 split lines closed under the symmetries (rows and columns 0, 7, 1, 6, 2,
# 5 and the four diagonals next to the long ones), every one of the 65536 assignments a cube of
# its own, each closed by counting (33 + 33 > 64 squares). Checked in a time linear in the cubes.
awk 'BEGIN {
  printf "{\"format\":\"peaceable-certificate\",\"version\":1,\"problem\":\"armies\",";
  printf "\"board\":\"8x8\",\"piece\":\"Q\",\"claim\":\"infeasible\",\"infeasible\":";
  printf "{\"white\":33,\"black\":33,\"split\":[0,7,8,15,1,6,9,14,2,5,10,13,22,24,37,39],";
  printf "\"complement\":false,\"cubes\":[";
  for (x = 0; x < 65536; x++) {
    cube = "";
    for (i = 0; i < 16; i++) cube = cube (int(x / 2 ^ i) % 2 ? "i" : "o");
    printf "%s\"%s\"", x ? "," : "", cube;
  }
  printf "],\"trees\":[";
  for (x = 0; x < 65536; x++) printf "%s\".\"", x ? "," : "";
  printf "]}}\n";
}' >"$T/cubes.json"
start=$(date +%s)
verdict "a certificate of 65536 cubes" 0 "valid: .*65536 cubes" "$T/cubes.json"
[ $(($(date +%s) - start)) -le 15 ] && ok "65536 cubes are checked within 15 s" ||
  not_ok "65536 cubes are checked within 15 s"

# 32x32 boards and hundreds of pieces on the command line: a correct answer, an honest limit or a
# refusal.
run 30 pieces --board 32 --pieces Q2
# Two non-attacking queens on n x n: n(n-1)(n-2)(3n-1)/6 (OEIS A036464) = 471200 for n = 32.
[ "$rc" -eq 0 ] && [ "$(cat "$T/out")" = 471200 ] && ok "two queens on 32x32" ||
  { not_ok "two queens on 32x32"; show; }
run 30 pieces --board 32 --pieces Q2000
[ "$rc" -eq 2 ] && one_message "Q2000" && ok "2000 queens on 32x32: refused" ||
  { not_ok "2000 queens on 32x32"; show; }
# No placement exists: 200 queens need 200 rows. Either the answer 0, an honest stop at the time
# limit (exit 3, no count), or a refusal; within the limit.
for spec in K200Q200R200B200N200 N600 B300 K1Q1R1B1N1; do
  run 30 pieces --board 32 --pieces "$spec" --time-limit 1
  case $spec in K1Q1R1B1N1) zero= ;; *) zero=0 ;; esac
  if { [ "$rc" -eq 3 ] && [ ! -s "$T/out" ] && one_message "stopped by a limit after"; } ||
    { [ "$rc" -eq 2 ] && [ ! -s "$T/out" ] && one_message "$spec"; } ||
    { [ "$rc" -eq 0 ] && [ -n "$zero" ] && [ "$(cat "$T/out")" = "$zero" ]; }; then
    ok "pieces $spec on 32x32 with a 1 s limit (exit $rc)"
  else
    not_ok "pieces $spec on 32x32 with a 1 s limit"
    show
  fi
done
run 30 armies --board 32 --node-limit 1000 --jobs 1 --quiet --method search
if [ "$rc" -eq 3 ] && grep -q "not proven" "$T/out" && ! grep -q "optimal" "$T/out"; then
  ok "armies on 32x32 stopped by --node-limit: exit 3, not proven"
else
  not_ok "armies on 32x32 stopped by --node-limit"
  show
fi
run 30 armies --board 32 --piece K --size 300 --node-limit 100000 --jobs 1 --quiet --method search
w=$(tail -1 "$T/out" | tr -cd K | wc -c)
b=$(tail -1 "$T/out" | tr -cd k | wc -c)
if [ "$rc" -eq 0 ] && [ "$w" -ge 300 ] && [ "$b" -ge 300 ]; then
  ok "300 against 300 kings on 32x32: a witness"
elif [ "$rc" -eq 3 ]; then
  ok "300 against 300 kings on 32x32: an honest stop"
else
  not_ok "300 against 300 kings on 32x32"
  show
fi
refuse "a 33x33 board" '"33x33"' armies --board 33x33
refuse "a board side of 2^64" '"18446744073709551616"' pieces --board 18446744073709551616 \
  --pieces Q1
refuse "a node limit of 2^64+1" "18446744073709551617" armies --node-limit 18446744073709551617

# Checkpoints and part results: from another board, another problem, or damaged.
run 60 armies --board 4 --jobs 1 --quiet --checkpoint "$T/ck4.json"
if [ "$rc" -eq 0 ] && [ -s "$T/ck4.json" ]; then
  refuse "a checkpoint of another board" "another board" armies --board 5 --jobs 1 \
    --resume "$T/ck4.json"
  refuse "a checkpoint of another piece" "another board or piece" armies --board 4 --piece R \
    --jobs 1 --resume "$T/ck4.json"
  refuse "a certificate as a checkpoint" "not a checkpoint" armies --board 4 --jobs 1 \
    --resume "$cert"
  head -c 30 "$T/ck4.json" >"$T/ck-short.json"
  refuse "a truncated checkpoint" "not JSON" armies --board 4 --jobs 1 --resume "$T/ck-short.json"
  refuse "a checkpoint given to merge: said to be one" "is a checkpoint: continue its run with --resume" merge "$T/ck4.json"
else
  not_ok "armies --checkpoint writes a checkpoint"
  show
fi
refuse "an empty file given to merge" "no part results" merge "$T/empty.json"
refuse "a certificate given to merge" "is a certificate" merge "$cert"
refuse "deep nesting given to merge" "nesting" merge "$T/deep.json"
refuse "a truncated file given to merge" "not a whole certificate or checkpoint (cut short" merge \
  "$T/half.json"
printf '{"problem":"armies","board":"5x5","piece":"K","white":5,"black":5,"split":"0",%s\n' \
  '"subparts":0,"part":1,"parts":1,"done":true,"found":false}' >"$T/kings-part.json"
refuse "a part result of kings given to merge" '"K"' merge "$T/kings-part.json"
# A part that found a witness: merge checks the witness, it does not trust it.
run 60 armies --board 6 --size 5 --part 1/1 --jobs 1 --quiet
if [ "$rc" -eq 0 ] && grep -q '"found":true' "$T/out"; then
  cp "$T/out" "$T/found.json"
  run 30 merge "$T/found.json"
  [ "$rc" -eq 0 ] && grep -q possible "$T/out" && ok "merge of a part with a true witness" ||
    { not_ok "merge of a part with a true witness"; show; }
  { printf '  \t\r\n\n'; cat "$T/found.json"; printf ' \n'; } >"$T/spaced.json"
  run 30 merge "$T/spaced.json"
  [ "$rc" -eq 0 ] && grep -q possible "$T/out" &&
    ok "merge of the part between lines of spaces: they are skipped, as empty lines are" ||
    { not_ok "merge of the part between lines of spaces"; show; }
  sed 's|"witness":"[^"]*"|"witness":"Q..Q../...Q.Q/Q...../..q.q./.q..../q.q..."|' \
    "$T/found.json" >"$T/forged.json"
  "$RESEAL" "$T/forged.json" # sealed again: the witness itself is checked, not only the digest
  refuse "merge of a part whose witness attacks" "its witness is not 5 white against 5" \
    merge "$T/forged.json"
  sed 's/"board":"6x6"/"board":"0x6"/' "$T/found.json" >"$T/board0.json"
  refuse "merge of a part of a 0x6 board: one message" 'board "0x6"' merge "$T/board0.json"
  sed 's|"witness":"[^"]*"|"witness":"......\\n"|' "$T/found.json" >"$T/forged2.json"
  "$RESEAL" "$T/forged2.json"
  refuse "merge of a part whose witness is not a placement" "placement" merge "$T/forged2.json"
  sed 's|"witness":"[^"]*"|"witness":"....../....../....../....../....../......"|' \
    "$T/found.json" >"$T/forged3.json"
  "$RESEAL" "$T/forged3.json"
  refuse "merge of a part whose witness is empty" "its witness is not" merge "$T/forged3.json"
else
  not_ok "armies --part 1/1 of 6x6 size 5 finds a witness"
  show
fi

# A check that takes long (an exhaustive leaf "s" for 28 against 28 kings on 8x8, in place of
# the leaf "k" that closes it at once) ends on SIGTERM and on SIGINT with exit 130 and no verdict.
run 60 armies --board 8 --piece K --jobs 1 --quiet --method search --cert "$T/k8.json"
sed 's/^"k"]/"s"]/' "$T/k8.json" >"$T/kslow.json"
for sig in TERM INT; do
  timeout -k 10 --preserve-status -s $sig 1 "$P" verify "$T/kslow.json" >"$T/out" 2>"$T/err"
  rc=$?
  if [ "$rc" -eq 130 ] && [ ! -s "$T/out" ] && one_message "interrupted"; then
    ok "verify interrupted by SIG$sig: exit 130, no verdict"
  elif [ "$rc" -eq 0 ] && grep -q '^valid: ' "$T/out"; then
    ok "verify of the 8x8 kings certificate with an exhaustive leaf ended within 1 s: valid, SIG$sig not needed"
  else
    not_ok "verify interrupted by SIG$sig"
    show
  fi
done

# --time-limit bounds the whole run, whatever proves it (GLPK included) and however many sizes
# or boards it takes: exit 3, "not proven", within a few seconds of the limit.
limited() {
  desc=$1
  shift
  start=$(date +%s)
  run 30 "$@" --time-limit 1 --quiet
  took=$(($(date +%s) - start))
  if [ "$rc" -eq 3 ] && grep -q 'not proven' "$T/err" && ! grep -qi 'optimal' "$T/out" &&
    [ "$took" -le 4 ]; then ok "$desc: exit 3 after ${took} s"; else
    not_ok "$desc: exit $rc after ${took} s"
    show
  fi
}
for method in ilp race search; do
  limited "armies 24x24 --method $method --time-limit 1" armies --board 24 --method $method
done
limited "armies --table 1..16 --time-limit 1" armies --table 1..16
limited "qn 24x24 --method ilp --time-limit 1" qn --board 24 --method ilp

# verify --time-limit: the same check stops at the limit with exit 3 and no verdict.
start=$(date +%s)
run 30 verify --time-limit 0.5 "$T/kslow.json"
if [ "$rc" -eq 3 ] && [ ! -s "$T/out" ] && one_message "time limit" &&
  [ $(($(date +%s) - start)) -le 5 ]; then ok "verify --time-limit 0.5: exit 3, no verdict"; else
  not_ok "verify --time-limit 0.5: exit 3, no verdict"
  show
fi
refuse "verify --time-limit 0" "time-limit" verify --time-limit 0 "$T/kslow.json"

# A decision settled while it is split has no parts to share: --part I/N with N above 1 says so
# (it said "splits into 0 parts; N may be 1 to 1"); part 1/1 is its whole line.
refuse "--part 1/2 of a decision with no parts: refused, and said why" \
  "is settled while it is split, with no parts to share; N may only be 1" \
  armies --board 6 --size 6 --part 1/2
run 30 armies --board 6 --size 6 --part 1/1
check "--part 1/1 of that decision: its line, done, nothing found" \
  "[ $rc -eq 0 ] && grep -q '\"subparts\":0,\"part\":1,\"parts\":1,\"covered\":0,\"done\":true,\"found\":false' '$T/out'"

# A file without an end (a device, a pipe, a gzip bomb) is read under the time limit: verify
# of an endless pipe once read on past --time-limit and SIGINT, up to a third of the memory.
yes '{"a":' | "$P" verify - --time-limit 0.3 >"$T/out" 2>"$T/err"
rc=$?
check "verify of an endless text, --time-limit 0.3: exit 3, stopped while reading" \
  "[ $rc -eq 3 ] && one_message 'the time limit ended while it was read'"
# Bytes that are not text (a NUL byte: no JSON holds one) end the read at once: /dev/zero was read
# up to the size limit (gigabytes), then refused.
head -c 1000000 /dev/zero | gzip -c >"$T/zeros.gz"
for f in /dev/zero "$T/zeros.gz"; do
  refuse "verify of $f: not text, refused at once" "not text: a NUL byte at byte" verify "$f"
done
run 20 merge /dev/zero
check "merge /dev/zero: refused at once" "[ $rc -eq 2 ] && one_message 'not text: a NUL byte at byte 1'"
run 20 armies --board 6 --resume /dev/zero
check "armies --resume /dev/zero: refused at once" \
  "[ $rc -eq 2 ] && one_message 'not text: a NUL byte at byte 1'"
# Files of a proof in parts read and checked on threads, stopped by the time limit: one message
# (each thread said it, and each file read when the limit came: four lines).
for i in 1 2 3 4; do
  "$P" armies --board 11 --size 18 --method search --part $i/4 --cert "$T/s$i.json.gz" --quiet \
    >/dev/null 2>&1
done
run 30 verify --jobs 2 --time-limit 0.05 "$T/s1.json.gz" "$T/s2.json.gz" "$T/s3.json.gz" \
  "$T/s4.json.gz"
check "verify of 4 part files, --time-limit 0.05: exit 3, one message" \
  "[ $rc -eq 3 ] && one_message 'the time limit ended'"
# merge --cert checks them as verify does, now under --time-limit too (it was refused).
run 30 merge --jobs 2 --time-limit 0.05 --cert "$T/s.json" "$T/s1.json.gz" "$T/s2.json.gz" \
  "$T/s3.json.gz" "$T/s4.json.gz"
check "merge --cert of 4 part files, --time-limit 0.05: exit 3, one message, nothing written" \
  "[ $rc -eq 3 ] && one_message 'the time limit ended' && [ ! -e '$T/s.json' ]"
# A pipe that gives nothing: the deadline is seen while it waits (it was seen only when data came).
mkfifo "$T/fifo"
(sleep 4; echo '{}') >"$T/fifo" &
writer=$!
start=$(date +%s%N)
"$P" verify --time-limit 0.3 "$T/fifo" >"$T/out" 2>"$T/err"
rc=$? took=$((($(date +%s%N) - start) / 1000000))
kill "$writer" 2>/dev/null
check "verify of a pipe that waits, --time-limit 0.3: exit 3 before the data comes (${took} ms)" \
  "[ $rc -eq 3 ] && [ $took -lt 2000 ] && one_message 'the time limit ended while it was read'"

# read_interrupted ARGS...: peaceable ARGS with standard input from a pipe that waits, SIGINT
# after half a second; sets rc.
read_interrupted() {
  (sleep 4; echo '{}') >"$T/fifo" &
  writer=$!
  "$P" "$@" <"$T/fifo" >"$T/out" 2>"$T/err" &
  pid=$!
  sleep 0.5
  kill -INT $pid
  wait $pid
  rc=$?
  kill "$writer" 2>/dev/null
}
# --resume - and merge - read standard input under the time limit and stop at a signal (exit 3 and
# 130): the time limit was not seen while the pipe waited, and a signal gave exit 2.
for cmd in "armies --board 10 --size 15" "pieces --board 6 --pieces Q6" "qn --board 8"; do
  (sleep 4; echo '{}') >"$T/fifo" &
  writer=$!
  start=$(date +%s%N)
  # shellcheck disable=SC2086
  "$P" $cmd --resume - --time-limit 0.3 <"$T/fifo" >"$T/out" 2>"$T/err"
  rc=$? took=$((($(date +%s%N) - start) / 1000000))
  kill "$writer" 2>/dev/null
  check "$cmd --resume - from a pipe that waits, --time-limit 0.3: exit 3 at once (${took} ms)" \
    "[ $rc -eq 3 ] && [ $took -lt 2000 ] && grep -q -- '--resume -: the time limit ended while it was read' '$T/err'"
  # shellcheck disable=SC2086
  read_interrupted $cmd --resume -
  check "$cmd --resume - from a pipe that waits, SIGINT: exit 130" \
    "[ $rc -eq 130 ] && grep -q -- '--resume -: interrupted while it was read' '$T/err'"
done
# A read stopped so finds nothing: armies wrote a certificate of 0 against 0 over --cert's file,
# and qn --json printed no object (armies and pieces print theirs).
echo keep >"$T/keep.json"
(sleep 4; echo '{}') >"$T/fifo" &
writer=$!
"$P" armies --board 11 --resume - --time-limit 0.3 --cert "$T/keep.json" <"$T/fifo" >"$T/out" 2>"$T/err"
rc=$?
kill "$writer" 2>/dev/null
check "armies --resume - stopped in its read, --cert: exit 3, the file not written over" \
  "[ $rc -eq 3 ] && [ \"\$(cat '$T/keep.json')\" = keep ]"
(sleep 4; echo '{}') >"$T/fifo" &
writer=$!
"$P" qn --board 11 --resume - --time-limit 0.3 --json <"$T/fifo" >"$T/out" 2>"$T/err"
rc=$?
kill "$writer" 2>/dev/null
check "qn --resume - stopped in its read, --json: exit 3, its object, size 0 not optimal" \
  "[ $rc -eq 3 ] && grep -q '^{\"problem\":\"qn\",\"board\":\"11x11\",.*\"size\":0,\"optimal\":false,' '$T/out'"
read_interrupted merge -
check "merge - from a pipe that waits, SIGINT: exit 130 (it was 2)" \
  "[ $rc -eq 130 ] && one_message 'interrupted while it was read'"

# gzip: members one after another are one file; bytes after the last member are refused (zlib
# ignored them, so a certificate with anything appended verified).
"$P" armies --board 6 --cert "$T/c6.json" >/dev/null 2>&1
gzip -c "$T/c6.json" >"$T/c6.json.gz"
{ cat "$T/c6.json.gz"; printf 'anything'; } >"$T/tail.json.gz"
refuse "a compressed certificate with bytes after its stream: refused" \
  "tail.json.gz: bytes after its compressed stream" verify "$T/tail.json.gz"
{ head -c 100 "$T/c6.json" | gzip -c; tail -c +101 "$T/c6.json" | gzip -c; } >"$T/two.json.gz"
run 30 verify "$T/two.json.gz"
check "a certificate compressed in two gzip members: one file, valid" \
  "[ $rc -eq 0 ] && grep -q '^valid: ' '$T/out'"

tap_end
