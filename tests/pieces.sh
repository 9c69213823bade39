#!/bin/sh
# pieces.sh: the pieces command line: listing, limits, symmetry, JSON, SVG, big counts (TAP).
P=${PEACEABLE:-./peaceable}
T=${TMPDIR:-/tmp}/peaceable-pieces.$$
mkdir -p "$T" || exit 1
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }
check() { # check DESCRIPTION CONDITION-STATUS
  if [ "$2" -eq 0 ]; then ok "$1"; else not_ok "$1"; fi
}

# expect DESCRIPTION WANT_OUTPUT COMMAND...: stdout must equal WANT_OUTPUT, exit 0.
expect() {
  desc=$1 want=$2
  shift 2
  # Nodes and seconds vary from run to run (tests/json.sh checks that they are there).
  "$P" "$@" >"$T/out" 2>"$T/err"
  rc=$?
  got=$(sed 's/,"nodes":[0-9]*//; s/,"seconds":[0-9.]*//' "$T/out")
  if [ "$rc" -eq 0 ] && [ "$got" = "$want" ]; then ok "$desc"; else
    not_ok "$desc"
    echo "# want: $want"
    echo "# got (exit $rc): $got $(cat "$T/err")"
  fi
}

# lines DESCRIPTION WANT COMMAND...: stdout must have WANT lines, exit 0.
lines() {
  desc=$1 want=$2
  shift 2
  "$P" "$@" >"$T/out" 2>"$T/err"
  rc=$?
  got=$(wc -l <"$T/out")
  if [ "$rc" -eq 0 ] && [ "$got" -eq "$want" ]; then ok "$desc"; else
    not_ok "$desc"
    echo "# want $want lines, got $got (exit $rc): $(cat "$T/err")"
  fi
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

# --list: every placement once, in the placement format, as many as --count says.
count=$("$P" pieces --board 6x5 --pieces K2Q1B1N2)
"$P" pieces --board 6x5 --pieces K2Q1B1N2 --list >"$T/list"
check "--list exits 0" $?
[ "$(wc -l <"$T/list")" -eq "$count" ] && [ "$(sort -u "$T/list" | wc -l)" -eq "$count" ]
check "--list: $count distinct lines, as many as the count" $?
! grep -qvE '^[.KQBN]{6}(/[.KQBN]{6}){4}$' "$T/list"
check "--list: every line is 5 rows of 6 squares" $?
bad=$(awk '{ line = $0; k = gsub(/K/, "", line); q = gsub(/Q/, "", line); b = gsub(/B/, "", line)
  nn = gsub(/N/, "", line); if (k != 2 || q != 1 || b != 1 || nn != 2) c++ } END { print c + 0 }' \
  "$T/list")
[ "$bad" -eq 0 ]
check "--list: every line holds K2 Q1 B1 N2" $?

# Streaming: the first lines of 1,112,088,800 placements come at once, and the run ends when
# the reader does.
first=$("$P" pieces --board 8 --pieces K2Q1B2R2N3 --list | head -3 | wc -l)
[ "$first" -eq 3 ]
check "--list streams: the first 3 of 1,112,088,800 placements" $?

# --limit
lines "--limit 4 lists 4" 4 pieces --pieces Q8 --list --limit 4
"$P" pieces --pieces Q8 --list --limit 4 >"$T/four"
"$P" pieces --pieces Q8 --list | head -4 | cmp -s - "$T/four"
check "--limit 4 lists the first 4 of the full listing" $?
lines "--limit beyond the count lists them all" 92 pieces --pieces Q8 --list --limit 1000
fails "--limit 0 is refused" 2 '"0"' pieces --pieces Q8 --list --limit 0
fails "--limit without --list or --svg is refused" 2 "--limit" pieces --pieces Q8 --limit 3
fails "--count with --list is refused" 2 "exclude" pieces --pieces Q8 --count --list

# --unique: counts by Burnside, lists canonical forms; both agree, and the listed are a subset
# of the full listing.
expect "8x8 Q8 --unique" "92
12 up to symmetry" pieces --pieces Q8 --unique
"$P" pieces --pieces Q8 --list --unique >"$T/unique"
"$P" pieces --pieces Q8 --list | sort >"$T/all"
[ "$(sort -u "$T/unique" | wc -l)" -eq 12 ] && [ "$(sort "$T/unique" | comm -23 - "$T/all" | wc -l)" -eq 0 ]
check "8x8 Q8 --list --unique: 12 distinct placements among the 92" $?
u=$("$P" pieces --board 6x5 --pieces K2Q1B1N2 --unique | sed -n 's/ up to symmetry//p')
[ "$("$P" pieces --board 6x5 --pieces K2Q1B1N2 --list --unique | wc -l)" -eq "$u" ]
check "6x5 K2Q1B1N2: $u listed up to symmetry, as Burnside's count" $?
lines "--unique --limit 3 lists 3" 3 pieces --pieces Q8 --list --unique --limit 3
expect "7x7 K2Q2B2N1 --unique" "3063828
382990 up to symmetry" pieces --board 7 --pieces K2Q2B2N1 --unique

# --json
expect "--json count" '{"problem":"pieces","board":"7x7","pieces":"K2Q2B2N1","count":3063828}' \
  pieces --board 7 --pieces K2Q2B2N1 --json
"$P" pieces --board 4 --pieces Q4 --list --json >"$T/json"
expect "--json list" '{"placement":".Q../...Q/Q.../..Q."}
{"placement":"..Q./Q.../...Q/.Q.."}
{"problem":"pieces","board":"4x4","pieces":"Q4","count":2}' pieces --board 4 --pieces Q4 --list --json
expect "--json list --unique: the canonical form" '{"placement":"..Q./Q.../...Q/.Q.."}
{"problem":"pieces","board":"4x4","pieces":"Q4","count":2,"unique":1}' \
  pieces --board 4 --pieces Q4 --list --json --unique
expect "--json list --limit: no count" '{"placement":".Q../...Q/Q.../..Q."}
{"problem":"pieces","board":"4x4","pieces":"Q4","listed":1,"complete":false}' \
  pieces --board 4 --pieces Q4 --list --json --limit 1

# --svg: a picture of the first placements.
"$P" pieces --pieces Q8 --unique --svg "$T/q8.svg" >"$T/out"
check "--svg exits 0" $?
expect "--svg keeps the count on stdout" "92
12 up to symmetry" pieces --pieces Q8 --unique --svg "$T/q8.svg"
head -1 "$T/q8.svg" | grep -q '^<?xml' && grep -q '^<svg xmlns="http://www.w3.org/2000/svg"' "$T/q8.svg" &&
  [ "$(tail -1 "$T/q8.svg")" = "</svg>" ]
check "--svg writes an SVG document" $?
[ "$(grep -c '^<g>' "$T/q8.svg")" -eq 12 ]
check "--svg draws the 12 placements up to symmetry" $?
[ "$(grep -c '♛' "$T/q8.svg")" -eq 96 ] && [ "$(grep -c '♕' "$T/q8.svg")" -eq 96 ]
check "--svg draws 8 queens a board as chess glyphs" $?
grep -q '>a</text>' "$T/q8.svg" && grep -q '>h</text>' "$T/q8.svg" &&
  grep -q '>1</text>' "$T/q8.svg" && grep -q '>8</text>' "$T/q8.svg"
check "--svg labels files a-h and ranks 1-8" $?
"$P" pieces --pieces Q8 --list --limit 2 --svg "$T/two.svg" >/dev/null
[ "$(grep -c '^<g>' "$T/two.svg")" -eq 2 ]
check "--svg with --list --limit 2 draws 2 boards" $?
"$P" pieces --board 32 --pieces K1 --svg "$T/many.svg" --limit 1001 >/dev/null 2>"$T/err"
[ $? -eq 0 ] && [ "$(grep -c '^<g>' "$T/many.svg")" -eq 1000 ] &&
  grep -q 'draws at most 1000 placements, not --limit.s 1001' "$T/err"
check "--svg with --limit 1001: 1000 boards drawn, and said so (it said nothing)" $?
"$P" pieces --board 3 --pieces Q4 --svg "$T/none.svg" >/dev/null &&
  grep -q 'no placement' "$T/none.svg"
check "--svg with no placement draws the empty board, captioned" $?
fails "--svg into a missing directory fails, naming the file" 2 "$T/no/such.svg" \
  pieces --pieces Q8 --svg "$T/no/such.svg"

# Counts beyond 2^64, and refusals beyond 2^128.
expect "4x32 N20: beyond 2^64" \
  '{"problem":"pieces","board":"4x32","pieces":"N20","count":49951120508415127904}' \
  pieces --board 4x32 --pieces N20 --json
fails "32x32 N30 could pass 2^128-1: refused, the option named" 2 \
  '--pieces "N30" on 32x32: the count could exceed 2^128-1' pieces --board 32 --pieces N30
fails "32x32 N30 --list --json needs a count: refused" 2 "2^128" pieces --board 32 --pieces N30 \
  --list --json
lines "32x32 N30 --list --limit 2 needs no count" 2 pieces --board 32 --pieces N30 --list \
  --limit 2

# Limits: exit 3, no total on stdout, a line on stderr saying so (as every command says it).
fails "--node-limit stops the count" 3 "counting on 8x8 stopped by a limit after" pieces --board 8 --pieces K2Q1B2R2N3 \
  --node-limit 1000
fails "--time-limit stops the count" 3 "no total" pieces --board 16 --pieces K4Q2B2R2N4 \
  --time-limit 0.2
"$P" pieces --board 16 --pieces K4Q2B2R2N4 --time-limit 0.2 --json >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 3 ] && [ "$(wc -l <"$T/out")" -eq 1 ] && grep -q '"count":null,' "$T/out" &&
  grep -q "no total" "$T/err" && ok "--time-limit stops the JSON count too: its object, \"count\":null" ||
  not_ok "--time-limit stops the JSON count too"
"$P" pieces --board 8 --pieces K2Q1B2R2N3 --list --node-limit 100000 >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 3 ] && [ -s "$T/out" ] && grep -q "listing on 8x8 stopped by a limit after 100000 nodes: no total" "$T/err"
check "--node-limit stops a listing (exit 3), lines so far kept" $?
fails "--time-limit 0 is refused" 2 '"0"' pieces --pieces Q8 --time-limit 0
fails "--time-limit abc is refused" 2 '"abc"' pieces --pieces Q8 --time-limit abc
fails "--node-limit -5 is refused" 2 '"-5"' pieces --pieces Q8 --node-limit -5
expect "a generous --node-limit lets the count finish" 92 pieces --pieces Q8 --node-limit 1000000

rm -rf "$T"
echo "1..$n"
[ "$failed" -eq 0 ]
