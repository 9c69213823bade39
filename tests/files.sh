#!/bin/sh
# files.sh: files of any size and from anywhere (TAP): certificates, part results and checkpoints
# named *.gz are written gzip-compressed and read back (every file is read through zlib); "-"
# reads a certificate or part result from standard input.
. "${srcdir:-$(dirname "$0")/..}/tests/tap.sh"

gzip_magic() { [ "$(od -An -tx1 -N2 "$1" | tr -d ' ')" = 1f8b ]; }

run 60 armies --board 8 --cert "$T/c8.json.gz"
check "armies --cert FILE.gz writes a gzip file" "[ $rc -eq 0 ] && gzip_magic \"$T/c8.json.gz\""
verdict "the compressed certificate verifies" 0 "valid: .*the maximum of equal armies is 9" \
  "$T/c8.json.gz"
run 60 armies --board 8 --cert "$T/c8.json"
check "a plain certificate is plain" "[ $rc -eq 0 ] && ! gzip_magic \"$T/c8.json\""
check "compressed and plain certificates hold the same text" \
  "gzip -dc \"$T/c8.json.gz\" | cmp -s - \"$T/c8.json\""
"$P" verify - <"$T/c8.json" >"$T/out" 2>"$T/err"
check "verify - reads standard input" "[ $? -eq 0 ] && grep -q '^valid: ' \"$T/out\""
"$P" verify - <"$T/c8.json.gz" >"$T/out" 2>"$T/err"
check "verify - reads compressed standard input" "[ $? -eq 0 ] && grep -q '^valid: ' \"$T/out\""
gzip -c "$T/c8.json" >"$T/renamed.bin"
verdict "a compressed certificate of any name is read" 0 "valid: " "$T/renamed.bin"
# A damaged compressed file: one message, exit 2.
head -c 400 "$T/c8.json.gz" >"$T/cut.json.gz"
refuse "a compressed certificate cut short: malformed" "cut.json.gz" verify "$T/cut.json.gz"
# Cut in its last bytes (the check sum and length, after the whole JSON text): still refused.
for k in 1 8; do
  head -c -$k "$T/c8.json.gz" >"$T/cut$k.json.gz"
  refuse "a compressed certificate without its last $k bytes: refused" "truncated" verify \
    "$T/cut$k.json.gz"
done
# Its check sum damaged: zlib's message, without its "<fd:N>:" (the file is named already).
size=$(wc -c <"$T/c8.json.gz")
{ head -c $((size - 8)) "$T/c8.json.gz"; printf '\377\377\377\377'; tail -c 4 "$T/c8.json.gz"; } \
  >"$T/crc.json.gz"
refuse "a compressed certificate with a bad check sum: refused" "crc.json.gz: read error: incorrect data check" \
  verify "$T/crc.json.gz"
check "... and the message names no descriptor" "! grep -q '<fd:' '$T/err'"

# Proofs in several compressed files: parts with --cert FILE.gz, checked together by verify and
# merged from them.
for i in 1 2 3; do
  "$P" armies --board 9 --size 13 --part $i/3 --cert "$T/p$i.json.gz" >"$T/line$i.json"
done
check "part proofs written compressed" "gzip_magic \"$T/p1.json.gz\" && gzip_magic \"$T/p3.json.gz\""
verdict "verify reads the compressed part files as one proof" 0 \
  "valid: .*13 white and 13 black do not fit.*in 3 files" "$T/p1.json.gz" "$T/p2.json.gz" "$T/p3.json.gz"
run 60 merge --cert "$T/m.json.gz" "$T/p1.json.gz" "$T/p2.json.gz" "$T/p3.json.gz"
check "merge reads compressed part files" "[ $rc -eq 0 ] && grep -q '^valid' \"$T/out\""
verdict "the merged compressed certificate verifies" 0 "valid: .*13 white and 13 black do not fit" \
  "$T/m.json.gz"
gzip -c "$T/line1.json" >"$T/line1.json.gz"
"$P" merge - "$T/line2.json" "$T/line3.json" <"$T/line1.json" >"$T/out" 2>"$T/err"
check "merge - reads a part from standard input" "[ $? -eq 0 ] && grep -q impossible \"$T/out\""
# A proof's files are read twice by merge --cert (checked, then copied): not from standard input.
for order in first last; do
  if [ $order = first ]; then set -- - "$T/p2.json.gz" "$T/p3.json.gz"; else set -- "$T/p2.json.gz" "$T/p3.json.gz" -; fi
  "$P" merge --cert "$T/dash.json" "$@" <"$T/p1.json.gz" >"$T/out" 2>"$T/err"
  check "merge --cert with - $order: refused, one clear message, nothing written" \
    "[ $? -eq 2 ] && grep -q 'standard input (-) cannot be' \"$T/err\" && [ \$(wc -l <\"$T/err\") -eq 1 ] && [ ! -e \"$T/dash.json\" ]"
done
run 30 merge "$T/line1.json.gz" "$T/line2.json" "$T/line3.json"
check "merge reads compressed part lines" "[ $rc -eq 0 ] && grep -q impossible \"$T/out\""

# Count certificates of both problems, compressed.
run 120 armies --board 7 --count --cert "$T/k7.json.gz"
verdict "a compressed count certificate verifies" 0 "valid: .*19 up to symmetry and colour" \
  "$T/k7.json.gz"
run 60 qn --board 8 --count --cert "$T/q8.json.gz"
verdict "a compressed qn count certificate verifies" 0 "valid: qn QN 1:1 on 8x8: 16 placements" \
  "$T/q8.json.gz"

# One file for two outputs: the last written alone was kept (--cert x --svg x: the picture, exit
# 0), and an output over a file the run reads lost it (--cert over --resume's checkpoint).
refuse "--cert and --svg naming one file: refused" '--cert and --svg name one file' \
  armies --board 4 --cert "$T/one.json" --svg "$T/one.json"
check "... and nothing written" "[ ! -e '$T/one.json' ]"
refuse "--cert and --export-lp naming one file two ways: refused" \
  '--cert and --export-lp name one file' armies --board 4 --cert "$T/one.json" --export-lp "$T/./one.json"
refuse "--svg and --checkpoint naming one file: refused" '--svg and --checkpoint name one file' \
  pieces --board 5 --pieces Q5 --svg "$T/one.json" --checkpoint "$T/one.json"
run 30 armies --board 9 --size 12 --checkpoint "$T/r.json" --node-limit 100000 --jobs 1 --quiet
cp "$T/r.json" "$T/r0.json"
refuse "--cert over the --resume file: refused" 'the file is read by --resume' \
  armies --board 9 --size 12 --resume "$T/r.json" --cert "$T/r.json"
check "... the checkpoint kept" "cmp -s '$T/r.json' '$T/r0.json'"
run 60 armies --board 9 --size 12 --resume "$T/r.json" --checkpoint "$T/r.json" --quiet
check "--checkpoint over --resume: the run goes on in its file" "[ $rc -eq 0 ]"
run 30 armies --board 5 --export-lp /dev/null --export-mps /dev/null
check "two outputs to one device (/dev/null): taken, nothing is lost" "[ $rc -eq 0 ]"
refuse "merge --cert over one of its parts: refused" 'the file is read by this run' \
  merge --cert "$T/line1.json.gz" "$T/line1.json.gz" "$T/line2.json" "$T/line3.json"

tap_end
