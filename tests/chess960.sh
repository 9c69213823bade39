#!/bin/sh
# chess960.sh: golden tests of 'peaceable chess960' (TAP).
. "${srcdir:-$(dirname "$0")/..}/tests/tap.sh"
err=$T/err

# expect DESCRIPTION WANT_OUTPUT COMMAND...: stdout must equal WANT_OUTPUT, exit 0.
expect() {
  desc=$1 want=$2
  shift 2
  got=$("$P" "$@" 2>$err)
  rc=$?
  if [ "$rc" -eq 0 ] && [ "$got" = "$want" ]; then ok "$desc"; else
    not_ok "$desc"
    echo "# want: $want"
    echo "# got (exit $rc): $got"
  fi
}

expect "--count" 960 chess960 --count
expect "no mode option: the count" 960 chess960
expect "--count --json" '{"problem":"chess960","count":960}' chess960 --count --json
expect "--number 518" RNBQKBNR chess960 --number 518
expect "--number 0" BBQNNRKR chess960 --number 0
expect "--number 959" RKRNNQBB chess960 --number 959
expect "--number=1" BQNBNRKR chess960 --number=1
expect "--position RNBQKBNR" 518 chess960 --position RNBQKBNR
expect "--position BBQNNRKR" 0 chess960 --position BBQNNRKR
expect "--position RKRNNQBB" 959 chess960 --position RKRNNQBB
expect "--number --json" '{"problem":"chess960","number":518,"rank":"RNBQKBNR"}' chess960 --number 518 --json
expect "--position --json" '{"problem":"chess960","number":0,"rank":"BBQNNRKR"}' chess960 --position BBQNNRKR --json
expect "--diagram" "518 RNBQKBNR
  8  r n b q k b n r
  7  p p p p p p p p
  6  . . . . . . . .
  5  . . . . . . . .
  4  . . . . . . . .
  3  . . . . . . . .
  2  P P P P P P P P
  1  R N B Q K B N R
     a b c d e f g h
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" chess960 --number 518 --diagram
expect "--diagram --json" \
  '{"problem":"chess960","number":0,"rank":"BBQNNRKR","fen":"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"}' \
  chess960 --position BBQNNRKR --diagram --json

# --all: 960 lines "N RANK", numbers 0..959 in order, ranks distinct, each a valid rank.
all=$("$P" chess960 --all)
[ "$(echo "$all" | wc -l)" -eq 960 ] && ok "--all: 960 lines" || not_ok "--all: 960 lines"
[ "$(echo "$all" | awk '$1 != NR - 1 { bad++ } END { print bad + 0 }')" -eq 0 ] &&
  ok "--all: numbered 0..959 in order" || not_ok "--all: numbered 0..959 in order"
[ "$(echo "$all" | awk '{ print $2 }' | sort -u | wc -l)" -eq 960 ] &&
  ok "--all: 960 distinct ranks" || not_ok "--all: 960 distinct ranks"
[ "$(echo "$all" | grep -cE '^[0-9]+ [KQRBN]{8}$')" -eq 960 ] &&
  ok "--all: every line is N RANK" || not_ok "--all: every line is N RANK"
[ "$(echo "$all" | sed -n 519p)" = "518 RNBQKBNR" ] && ok "--all: line 519 is 518 RNBQKBNR" ||
  not_ok "--all: line 519 is 518 RNBQKBNR"
# The same numbering both ways, on a spread of ranks.
bad=0
for line in $(echo "$all" | awk 'NR % 97 == 1 { print $1 ":" $2 }'); do
  num=${line%%:*} rank=${line#*:}
  [ "$("$P" chess960 --position "$rank")" = "$num" ] || bad=$((bad + 1))
  [ "$("$P" chess960 --number "$num")" = "$rank" ] || bad=$((bad + 1))
done
[ $bad -eq 0 ] && ok "--all agrees with --number and --position" ||
  not_ok "--all agrees with --number and --position ($bad disagree)"
json=$("$P" chess960 --all --json)
[ "$(echo "$json" | grep -cE '^\{"problem":"chess960","number":[0-9]+,"rank":"[KQRBN]{8}"\}$')" -eq 960 ] &&
  ok "--all --json: 960 objects" || not_ok "--all --json: 960 objects"
boards=$("$P" chess960 --all --diagram | grep -c ' w KQkq - 0 1$')
[ "$boards" -eq 960 ] && ok "--all --diagram: 960 FENs" || not_ok "--all --diagram: $boards FENs"

# --random: deterministic for a seed, a valid rank, and seeds differ.
r1=$("$P" chess960 --random --seed 42) r2=$("$P" chess960 --random --seed 42)
[ -n "$r1" ] && [ "$r1" = "$r2" ] && ok "--random --seed 42 repeats: $r1" ||
  not_ok "--random --seed 42 repeats: $r1 / $r2"
echo "$all" | grep -qx "$r1" && ok "--random gives a line of --all" ||
  not_ok "--random gives a line of --all: $r1"
distinct=$(for s in 1 2 3 4 5 6 7 8 9 10; do "$P" chess960 --random --seed $s; done | sort -u |
  wc -l)
[ "$distinct" -ge 8 ] && ok "--random: 10 seeds give $distinct ranks" ||
  not_ok "--random: 10 seeds give only $distinct ranks"
out=$("$P" chess960 --random --seed 7 --json)
echo "$out" | grep -qE '^\{"problem":"chess960","number":[0-9]+,"rank":"[KQRBN]{8}","seed":7\}$' &&
  ok "--random --json" || not_ok "--random --json: $out"
out=$("$P" chess960 --random 2>$err)
rc=$?
seed=$(sed -n 's/.*--seed \([0-9]*\).*/\1/p' $err)
[ $rc -eq 0 ] && [ -n "$seed" ] && [ "$("$P" chess960 --random --seed "$seed")" = "$out" ] &&
  ok "--random without --seed names a clock seed that repeats it" ||
  not_ok "--random without --seed: exit $rc, $out, stderr $(cat $err)"
out=$("$P" chess960 --random --quiet 2>$err)
[ $? -eq 0 ] && [ -n "$out" ] && [ ! -s $err ] && ok "--random --quiet: no note of the seed" ||
  not_ok "--random --quiet: $(cat $err)"
"$P" chess960 --random --seed 3 --diagram | grep -q ' w KQkq - 0 1$' && ok "--random --diagram" ||
  not_ok "--random --diagram"

refuse "--number 960" '"960"' chess960 --number 960
refuse "--number -1" '"-1"' chess960 --number -1
refuse "--number abc" '"abc"' chess960 --number abc
refuse "--number empty" '--number ""' chess960 --number ""
refuse "--position too short: the option named" \
  '--position "RNBQKBN": has 7 characters, a back rank has 8 squares' chess960 --position RNBQKBN
refuse "--position too long" "has 9 characters" chess960 --position RNBQKBNRR
refuse "--position empty" "has 0 characters" chess960 --position ""
refuse "--position lower case" "lower case" chess960 --position rnbqkbnr
refuse "--position not a piece" "'X' is not a piece letter" chess960 --position RNBQKBNX
refuse "--position pawn" "'P' is not a piece letter" chess960 --position RNBQKBNP
refuse "--position wrong counts" "this has 1 R" chess960 --position RNBQKBNN
refuse "--position two queens" "this has 2 Q" chess960 --position RQBQKBNR
refuse "--position RRBQKBNN: king outside" "king must stand between the rooks" \
  chess960 --position RRBQKBNN
refuse "--position king on a corner" "king must stand between the rooks" \
  chess960 --position KRBQRBNN
refuse "--position bishops on dark squares" "opposite colours, these are both dark" \
  chess960 --position BRBQKRNN
refuse "--position bishops on light squares" "opposite colours, these are both light" \
  chess960 --position RBNBKRNQ
refuse "two modes" "--all and --number" chess960 --all --number 3
refuse "--seed without --random" "only to --random" chess960 --number 3 --seed 4
refuse "--seed not a number" '--seed "x"' chess960 --random --seed x
refuse "--seed negative" '--seed "-5"' chess960 --random --seed -5
refuse "--diagram without a rank" "--diagram shows" chess960 --diagram
refuse "--diagram takes no value" "takes no value" chess960 --number 1 --diagram=8
refuse "--count --diagram" "--diagram shows" chess960 --count --diagram
refuse "an option of another problem" '"--pieces"' chess960 --pieces K1
refuse "a stray argument" '"RNBQKBNR"' chess960 RNBQKBNR

out=$("$P" chess960 --help) && echo "$out" | grep -q -- '--position RANK' &&
  echo "$out" | grep -q 'X-FEN' && echo "$out" | grep -q -- '--diagram  ' &&
  ok "chess960 --help: options, default and FEN convention" || not_ok "chess960 --help"
"$P" --help | grep -q chess960 && ok "peaceable --help lists chess960" ||
  not_ok "peaceable --help lists chess960"

refuse "--board: not chess960's (one meaning per option name: a board's size)" "--board" \
  chess960 --number 518 --board
tap_end
