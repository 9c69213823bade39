#!/bin/sh
# local.sh: the local search that gives the armies outer loop its starting witness on large
# boards (TAP). Its witnesses are checked by `peaceable verify`, as "feasible" certificates;
# the sizes asked for are modest floors, far below the best known (OEIS A250000).
. "${srcdir:-$(dirname "$0")/..}/tests/tap.sh"

# A run that ends right after the local search: --node-limit 1 stops the exact search at once.
LOCAL="--node-limit 1 --method search --jobs 1 --json --quiet"

field() { sed -n "s/.*\"$1\":\\([^,}]*\\).*/\\1/p" "$T/out" | tr -d '"'; }

# found DESCRIPTION WxH PIECE WHITE FLOOR ARGS...: the run stops by its node limit (exit 3, not
# optimal; or exit 0 when the search proves the local search's size optimal at once), and its
# witness of at least FLOOR black pieces (and WHITE white, or as many as black when WHITE is -)
# passes verify: --cert writes it alone (claim "feasible") though no maximum is proven.
found() {
  desc=$1 board=$2 piece=$3 white=$4 floor=$5
  shift 5
  rm -f "$T/cert.json"
  run 60 armies --board "$board" --piece "$piece" $LOCAL --cert "$T/cert.json" "$@"
  size=$(field size)
  [ "$white" = - ] && white=$size
  claim=feasible
  [ "$rc" -eq 0 ] && claim=maximum
  want="\"claim\":\"$claim\",\"white\":$white,\"black\":$size,\"witness\":\"$(field witness)\""
  if { [ "$rc" -eq 0 ] || { [ "$rc" -eq 3 ] && [ "$(field optimal)" = false ]; }; } &&
    [ "${size:-0}" -ge "$floor" ] && grep -qF "$want" "$T/cert.json" 2>/dev/null &&
    "$P" verify "$T/cert.json" >/dev/null 2>&1; then ok "$desc: $size, verified"; else
    not_ok "$desc (size ${size:-none})"
    show
  fi
}

found "12x12 queens" 12x12 Q - 18 --local-moves 2000000
found "16x16 queens" 16x16 Q - 32 --local-moves 4000000
found "20x12 queens" 20x12 Q - 24 --local-moves 2000000
found "16x16 rooks" 16x16 R - 50 --local-moves 1000000
found "16x16 bishops" 16x16 B - 60 --local-moves 1000000
found "16x16 kings" 16x16 K - 90 --local-moves 4000000
found "16x16 knights" 16x16 N - 70 --local-moves 4000000
found "16x16, 20 white queens" 16x16 Q 20 40 --white 20 --local-moves 4000000

# The same seed gives the same witness; the default seed is 1.
run 60 armies --board 16 $LOCAL --local-moves 2000000 --seed 7
first=$(field witness)
run 60 armies --board 16 $LOCAL --local-moves 2000000 --seed 7
check "--seed 7 twice: the same witness" "[ -n '$first' ] && [ '$first' = '$(field witness)' ]"
run 60 armies --board 16 $LOCAL --local-moves 2000000 --seed 1
one=$(field witness)
run 60 armies --board 16 $LOCAL --local-moves 2000000
check "no --seed is --seed 1" "[ -n '$one' ] && [ '$one' = '$(field witness)' ]"
# And for three armies (another local search, the same default and the same refusal).
run 60 armies --colours 3 --board 16 $LOCAL --local-moves 200000 --seed 1
one=$(field witness)
run 60 armies --colours 3 --board 16 $LOCAL --local-moves 200000
check "--colours 3: no --seed is --seed 1" "[ -n '$one' ] && [ '$one' = '$(field witness)' ]"
run 60 armies --colours 3 --board 16 $LOCAL --local-moves 200000 --seed 2
check "--colours 3: --seed 2 is another walk" "[ -n '$one' ] && [ '$one' != '$(field witness)' ]"

# Small boards are left to the exact search: the same proven maxima as without it.
run 60 armies --board 8 --json --method search --jobs 1
check "8x8: 9, proven (no local search below 144 squares)" \
  "[ \"\$(field size)\" = 9 ] && [ \"\$(field optimal)\" = true ]"
run 60 armies --board 6 --json --method search --jobs 1 --local-moves 100000
check "6x6 with --local-moves: 5, proven" \
  "[ \"\$(field size)\" = 5 ] && [ \"\$(field optimal)\" = true ]"

# A table under a time limit: a line for every board, the unproven ones marked, exit 3.
run 60 armies --table 8..13 --time-limit 3 --method search --jobs 1 --quiet
rows=$(awk 'NR > 1' "$T/out" | wc -l)
check "--table 8..13 --time-limit 3: exit 3, 6 lines, 8x8 proven, 13x13 marked +" \
  "[ $rc -eq 3 ] && [ $rows -eq 6 ] && grep -q ' 8x8 *9  search' '$T/out' &&
   grep -q '13x13 *[0-9]*+ none' '$T/out'"
# (13 and 14: a fast core proves 12x12 within its share of the 2 s.)
run 60 armies --table 13..14 --time-limit 2 --method search --jobs 1 --quiet --json
check "--table --json under a limit: a line a board, \"optimal\":false" \
  "[ $rc -eq 3 ] && [ \$(grep -c '\"optimal\":false' '$T/out') -eq 2 ]"

refuse "--local-moves -1" "local-moves" armies --board 16 --local-moves -1
refuse "--seed x" "seed" armies --board 16 --seed x
refuse "--local-moves with --size" "--size" armies --board 16 --size 30 --local-moves 1000
refuse "--seed with --size" "--size" armies --board 16 --size 30 --seed 2
refuse "--colours 3: --seed with --size" "a maximum" armies --colours 3 --board 9 --size 4 --seed 2
refuse "--colours 3: --local-moves with --size" "a maximum" armies --colours 3 --board 9 --size 4 \
  --local-moves 10

tap_end
