#!/bin/sh
# tables.sh: a table with checkpoints (TAP): --checkpoint F keeps board n's run in F.n, --resume F
# takes them up, so that a table stopped loses nothing; its rows are then those of one run.
. "${srcdir:-$(dirname "$0")/..}/tests/tap.sh"

# rows FILE: each JSON row's board, size, optimality and counts, one a line (not its witness,
# nodes or seconds, nor the mark of a resumed answer), and the summary's completeness.
rows() {
  command jq -c 'if .table then {table, complete} else {board, size, optimal, count, unique}
    end' "$1"
}

# Two armies of queens: a node limit stops the larger boards; resumed, every row is proven and
# is the row of one run (to 11x11 under sanitizers, whose build is slower).
hi=12
light && hi=11
run 120 armies --table 8..$hi --json --quiet
rows "$T/out" >"$T/plain"
run 120 armies --table 8..$hi --checkpoint "$T/a" --node-limit 100000 --json --quiet
check "armies: a table stopped by a node limit: exit 3, a checkpoint a board (F.8 to F.$hi)" \
  "[ $rc -eq 3 ] && [ -s '$T/a.8' ] && [ -s '$T/a.$hi' ] &&
   jq -e 'select(.board == \"${hi}x$hi\") | .optimal == false' '$T/out' >/dev/null"
run 120 armies --table 8..$hi --checkpoint "$T/a" --resume "$T/a" --json --quiet
rows "$T/out" >"$T/resumed"
check "armies: resumed, the rows of one run, each marked as resting on the checkpoint" \
  "[ $rc -eq 0 ] && [ -s '$T/plain' ] && cmp -s '$T/plain' '$T/resumed' &&
   jq -e 'select(.board == \"${hi}x$hi\") | .checked == false' '$T/out' >/dev/null"
run 120 armies --table 8..$hi --checkpoint "$T/a" --resume "$T/a"
check "armies: resumed again, in text: the note that the table rests on the checkpoints" \
  "[ $rc -eq 0 ] && [ \$(wc -l <'$T/out') -eq $((hi - 6)) ] &&
   one_message 'the table rests in part on the resumed checkpoint'"
# A board's checkpoint of a finished maximum answers at once: the local search is not run again
# (2e9 moves take about 90 s; resuming a finished 12x12 took 0.8 s, most of it the
# local search's default moves).
run 20 armies --board $hi --resume "$T/a.$hi" --local-moves 2000000000 --json
check "armies: a finished board's checkpoint resumed at once, no local search run again" \
  "[ $rc -eq 0 ] && jq -e '.optimal == true and .checked == false' '$T/out' >/dev/null"
refuse "armies: a table's checkpoints are not written over (its board's file named)" \
  "$T/a.8 holds a checkpoint of board 8 already" armies --table 8..$hi --checkpoint "$T/a"
refuse "armies: --resume of a table with no board's checkpoint: refused, no header printed" \
  "no board of the table has a checkpoint" armies --table 8..12 --resume "$T/none"
refuse "a table takes no --resume - (its boards have a file each)" "--resume - with --table" \
  armies --table 8..12 --resume -
refuse "a table takes no --part" "not to --table" qn --table 5..9 --part 1/2

# A table of counts (qn: the maximum and its counts on each board) stopped and resumed.
run 120 qn --table 5..9 --json --quiet
rows "$T/out" >"$T/plain"
run 120 qn --table 5..9 --checkpoint "$T/q" --node-limit 20000 --json --quiet
check "qn: a table stopped by a node limit: exit 3, a row without its count" \
  "[ $rc -eq 3 ] && jq -e 'select(.board == \"9x9\") | .count == null' '$T/out' >/dev/null"
run 120 qn --table 5..9 --checkpoint "$T/q" --resume "$T/q" --json --quiet
rows "$T/out" >"$T/resumed"
check "qn: resumed, the rows of one run" \
  "[ $rc -eq 0 ] && [ -s '$T/plain' ] && cmp -s '$T/plain' '$T/resumed'"

# Tables from board 1: boards where nothing fits (size 0) saved checkpoints their resume refused
# as malformed (qn aborted), so no such table could be resumed.
run 60 qn --table 1..4 --checkpoint "$T/q1" --json --quiet
rows "$T/out" >"$T/plain"
run 60 qn --table 1..4 --checkpoint "$T/q1" --resume "$T/q1" --json --quiet
rows "$T/out" >"$T/resumed"
check "qn: a table from board 1 resumed, the rows of one run" \
  "[ $rc -eq 0 ] && [ -s '$T/plain' ] && cmp -s '$T/plain' '$T/resumed'"
run 60 armies --table 1..4 --count --checkpoint "$T/a1" --json --quiet
rows "$T/out" >"$T/plain"
run 60 armies --table 1..4 --count --checkpoint "$T/a1" --resume "$T/a1" --json --quiet
rows "$T/out" >"$T/resumed"
check "armies: a table of counts from board 1 resumed, the rows of one run" \
  "[ $rc -eq 0 ] && [ -s '$T/plain' ] && cmp -s '$T/plain' '$T/resumed'"
# Each row says whether it rests on its own checkpoint (the rows after the first resumed one all
# said "checked":false, also those run from the start).
run 60 qn --table 5..5 --checkpoint "$T/q5" --quiet
run 60 qn --table 5..7 --checkpoint "$T/q5" --resume "$T/q5" --json --quiet
check "a resumed table marks the rows resumed alone" \
  "[ $rc -eq 0 ] &&
   jq -e 'select(.board) | (.checked == false) == (.board == \"5x5\")' '$T/out' >/dev/null"
# A board's file is tried before the table runs (a board whose file could not be written printed
# a row "size 0, optimal" and stopped the table).
mkdir "$T/d.6"
refuse "a table's board file that cannot be written: refused at once" \
  '--checkpoint "'"$T"'/d.6": is a directory' qn --table 5..7 --checkpoint "$T/d"

# Armies of three colours, counts at --size 2, stopped and resumed.
run 120 armies --colours 3 --table 5..7 --count --size 2 --json --quiet
rows "$T/out" >"$T/plain"
run 120 armies --colours 3 --table 5..7 --count --size 2 --checkpoint "$T/c" --node-limit 3000 \
  --json --quiet
check "--colours: a table of counts stopped by a node limit: exit 3" \
  "[ $rc -eq 3 ] && [ -s '$T/c.7' ]"
run 120 armies --colours 3 --table 5..7 --count --size 2 --checkpoint "$T/c" --resume "$T/c" \
  --json --quiet
rows "$T/out" >"$T/resumed"
check "--colours: resumed, the rows of one run" \
  "[ $rc -eq 0 ] && [ -s '$T/plain' ] && cmp -s '$T/plain' '$T/resumed'"

tap_end
