#!/bin/sh
# cli.sh: golden tests of the peaceable command line (TAP).
. "${srcdir:-$(dirname "$0")/..}/tests/tap.sh"

# expect DESCRIPTION WANT_OUTPUT COMMAND...: stdout must equal WANT_OUTPUT, exit 0.
expect() {
  desc=$1 want=$2
  shift 2
  # Nodes and seconds vary from run to run (tests/json.sh checks that they are there).
  "$P" "$@" >$T/out 2>$T/err
  rc=$?
  got=$(sed 's/,"nodes":[0-9]*//; s/,"seconds":[0-9.]*//' $T/out)
  if [ "$rc" -eq 0 ] && [ "$got" = "$want" ]; then ok "$desc"; else
    not_ok "$desc"
    echo "# want: $want"
    echo "# got (exit $rc): $got"
  fi
}

expect "pieces 3x3 K1R2" 4 pieces --board 3x3 --pieces K1R2
expect "pieces 4x4 R2N4" 8 pieces --board 4x4 --pieces R2N4
expect "eight queens" "92
12 up to symmetry" pieces --board 8 --pieces Q8 --unique
expect "7x7 K2Q2B2N1" 3063828 pieces --board 7x7 --pieces K2Q2B2N1
expect "pieces json" '{"problem":"pieces","board":"8x8","pieces":"Q8","count":92,"unique":12}' \
  pieces --pieces Q8 --unique --json
lines=$("$P" pieces --pieces Q8 --list --unique | sort -u | wc -l)
[ "$lines" -eq 12 ] && ok "eight queens: 12 distinct placements listed up to symmetry" ||
  not_ok "eight queens listed up to symmetry: $lines lines"
expect "omitted counts mean one" 4 pieces --board 2x3 --pieces KN
expect "a zero count" 6 pieces --board 2x3 --pieces KN0
expect "no pieces: one empty placement" 1 pieces --board 3 --pieces K0
first=$("$P" pieces --board 4 --pieces Q4 --list | head -1)
case "$first" in
  .Q../...Q/Q.../..Q.|..Q./Q.../...Q/.Q..) ok "4 queens listed as placement text" ;;
  *) not_ok "4 queens listed as placement text: $first" ;;
esac

refuse "board 0x5" '"0x5"' pieces --board 0x5 --pieces K1
refuse "a count past the board, as written" 'count 99999999999999999999 for' pieces \
  --pieces Q99999999999999999999
refuse "one square: 'the board's 1 square'" "the board's 1 square" pieces --board 1 --pieces Q2
refuse "one letter: 'has 1 character'" "has 1 character," chess960 --position K
# A text listing cut by --limit says so on stderr (its JSON summary says "complete":false; the
# text said nothing), and a listing of exactly N does not.
for c in "pieces --board 5 --pieces Q5" "armies --board 5" "qn --board 5" \
  "armies --colours 3 --board 5 --size 1"; do
  # shellcheck disable=SC2086
  run 30 $c --list --limit 2
  check "$c --list --limit 2: two lines, the cut said" \
    "[ $rc -eq 0 ] && [ \$(wc -l <'$T/out') -eq 2 ] && one_message '--limit 2: the listing stops after 2 lines; there are more'"
done
run 30 pieces --board 5 --pieces Q5 --list --limit 10
check "a listing of exactly --limit lines: whole, nothing said" \
  "[ $rc -eq 0 ] && [ \$(wc -l <'$T/out') -eq 10 ] && [ ! -s '$T/err' ]"
# Letters in either case mean the same pieces, and the answer names them in capitals (it echoed
# "pieces":"q8").
run 30 pieces --board 8 --pieces q8 --json
check "--pieces q8: the 92 placements of Q8, named Q8" "[ $rc -eq 0 ] && grep -q '\"pieces\":\"Q8\",\"count\":92,' '$T/out'"
run 30 armies --board 5 --list --limit 2 --quiet
check "--quiet: no note of the cut" "[ $rc -eq 0 ] && [ ! -s '$T/err' ]"
run 30 pieces --board 8 --pieces Q8 --node-limit 1
check "one node: 'after 1 node'" "[ $rc -eq 3 ] && one_message 'after 1 node:'"
refuse "armies --part with --method ilp (qn refuses it too)" "--part searches its part: --method \"ilp\" does not apply" armies --board 8 --size 9 --part 1/2 --method ilp
refuse "armies --limit without --list" '--limit "2" applies to --list of one board only' armies \
  --board 6 --limit 2
refuse "armies --colours --limit without --list" '--limit "2" applies to --list of one board' \
  armies --board 6 --colours 3 --limit 2
refuse "qn --part with --method ilp" "--part searches its part: --method \"ilp\" does not apply" qn --board 8 --size 5 --part 1/2 --method ilp
refuse "--format with --json: exit 2" '--format "csv" and --json' qn --table 1..2 --format csv --json
refuse "--time-limit in hexadecimal: exit 2 (strtod read 0x10 as 16 s)" \
  'expected a decimal number of seconds' armies --board 4 --time-limit 0x10
refuse "--time-limit inf: exit 2" 'expected a decimal number of seconds' qn --board 4 --time-limit inf
refuse "verify - -: standard input given twice, exit 2" 'given more than once' verify - -
refuse "merge - -: standard input given twice, exit 2" 'given more than once' merge - -
refuse "--format with --json (armies): exit 2" '--format "csv" and --json' armies --table 1..2 \
  --format csv --json
refuse "an unexpected argument: the hint names peaceable" "(see 'peaceable qn --help')" qn foo
refuse "board 33x2" '"33x2"' pieces --board 33x2 --pieces K1
refuse "board 8y8" '"8y8"' pieces --board 8y8 --pieces K1
refuse "board -3" '"-3"' pieces --board -3 --pieces K1
refuse "board empty" 'board ""' pieces --board "" --pieces K1
refuse "unknown piece letter" "'Z'" pieces --pieces K1Z2
refuse "negative count" "K-1" pieces --pieces K-1
refuse "absurd count" "99999999999999999999" pieces --pieces Q99999999999999999999
refuse "more pieces than squares" "do not fit" pieces --board 3 --pieces K5N5
refuse "empty piece spec" 'pieces ""' pieces --pieces ""
refuse "missing piece spec" "--pieces" pieces --board 3
refuse "unknown option" '"--frobnicate"' pieces --frobnicate
refuse "unknown command" 'unknown command "nosuch"' nosuch
refuse "verify of an empty file name: named as \"\" (it said \": No such file\")" \
  'verify: "": No such file' verify ""
refuse "option without its value" '"--board"' pieces --board
refuse "an option given twice: refused (the second value was taken silently)" \
  '--board given twice ("5", then another)' pieces --board 5 --board 6 --pieces Q5
refuse "stray argument" '"extra"' pieces --pieces K1 extra

out=$("$P" --help) && echo "$out" | grep -q pieces && ok "--help lists the problems" || not_ok "--help"
out=$("$P" --version) && echo "$out" | grep -q '^peaceable ' && ok "--version" || not_ok "--version"
out=$("$P" pieces --help) && echo "$out" | grep -q -- '--pieces SPEC' && ok "pieces --help" ||
  not_ok "pieces --help"
out=$("$P" armies --board 5 --list --limit 3) && [ "$(echo "$out" | wc -l)" -eq 3 ] &&
  ok "armies --list --limit 3: three lines, exit 0" || not_ok "armies --list --limit 3"
out=$("$P" armies --board 6 --colours 3 --list --limit 3 --jobs 2) &&
  [ "$(echo "$out" | wc -l)" -eq 3 ] && ok "armies --colours 3 --list --limit 3: three lines, exit 0" ||
  not_ok "armies --colours 3 --list --limit 3"
out=$("$P" --help pieces) && [ "$out" = "$("$P" pieces --help)" ] &&
  ok "--help pieces: the help of pieces (it gave the general help)" || not_ok "--help pieces"
refuse "--help of an unknown command: exit 2 (it gave the general help, exit 0)" \
  'unknown command "nosuch"' --help nosuch
"$P" >/dev/null 2>&1
[ $? -eq 2 ] && ok "no arguments: usage, exit 2" || not_ok "no arguments: exit 2"
out=$("$P" --help --version) && [ "$out" = "$("$P" --help)" ] &&
  ok "--help --version: the help, as after a command (it said: unknown problem \"--version\")" ||
  not_ok "--help --version"
out=$("$P" --version --help) && [ "$out" = "$("$P" --version)" ] && ok "--version --help: the version" ||
  not_ok "--version --help"
# ... and among options given before any command (it said: unknown command "--json").
out=$("$P" --json --version) && [ "$out" = "$("$P" --version)" ] &&
  ok "--json --version: the version" || not_ok "--json --version: $out"
out=$("$P" --board 5 --help) && [ "$out" = "$("$P" --help)" ] &&
  ok "--board 5 --help: the help" || not_ok "--board 5 --help"
out=$("$P" --json qn --help) && [ "$out" = "$("$P" qn --help)" ] &&
  ok "--json qn --help: qn's help (it gave the general one)" || not_ok "--json qn --help"

# One meaning per option in every command: --version answers after any command, --quiet is
# accepted by all of them.
for c in armies qn pieces chess960 verify merge; do
  out=$("$P" $c --version 2>&1) && [ "$out" = "$("$P" --version)" ] && ok "$c --version" ||
    not_ok "$c --version: $out"
  "$P" $c --help | grep -q -- '--quiet' && ok "$c --help lists --quiet" ||
    not_ok "$c --help lists --quiet"
done
# A value means one thing and is refused with one message in every command that takes it (read
# once into typed values): --colours read --method only to tell ilp from the rest, and refused
# --format for lack of it before it looked at it.
for c in "armies" "armies --colours 3" "qn"; do
  refuse "$c --method foo: not a method" '--method "foo": expected search, ilp or race' \
    $c --method foo
  refuse "$c --format csv without --table" '--format "csv" applies to --table only' \
    $c --format csv
  refuse "$c --size x" '--size "x": expected a whole number from 0 to 1024' $c --size x
done
for c in "armies" "armies --colours 3" "qn" "pieces --pieces Q2"; do
  refuse "$c --board 33" '--board "33": expected N or WIDTHxHEIGHT, each from 1 to 32' \
    $c --board 33
  refuse "$c --limit 0" '--limit "0": expected a whole number from 1 to' $c --list --limit 0
done
# Numbers are decimal everywhere (--sample took "0x10" as 16 % and " 50" as 50 %), digits alone
# (--size -0 was 0).
refuse "armies --size -0: refused" '--size "-0": expected a whole number' armies --size -0
refuse "verify --sample 0x10: refused" '--sample "0x10": expected a percentage' verify \
  --sample 0x10 x
for c in "armies" "armies --colours 3" "chess960 --random" "verify --sample 5 x"; do
  refuse "$c --seed -1" '--seed "-1": expected a whole number from 0 to' $c --seed -1
done
out=$("$P" chess960 --number 518 --quiet) && [ "$out" = RNBQKBNR ] && ok "chess960 --quiet" ||
  not_ok "chess960 --quiet"
# --jobs 1 runs one thread: the default method is then the search alone, not a race of two.
"$P" armies --board 13 --jobs 1 --quiet >/dev/null 2>&1 &
pid=$!
sleep 1
threads=$(sed -n 's/^Threads:[ \t]*//p' /proc/$pid/status 2>/dev/null)
kill $pid 2>/dev/null
wait $pid 2>/dev/null
[ "$threads" = 1 ] && ok "armies --jobs 1: one thread" || not_ok "armies --jobs 1: $threads threads"

tap_end
