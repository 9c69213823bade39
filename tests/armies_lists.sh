#!/bin/sh
# armies_lists.sh: listings of two armies through the engine (TAP), as pieces' and qn's: the same
# placements as a brute force; --list --part I/N lines merge into the listing of one run, byte for
# byte; a stopped listing resumed prints the lines of one run; forged lines, resealed, are refused
# before any is printed; --limit is a whole listing's.
. "${srcdir:-$(dirname "$0")/..}/tests/tap.sh"
RESEAL=${RESEAL:-$(dirname "$P")/tests/reseal}

# The references: one run on one thread. 8x8 holds 1,136 placements of 9 against 9 queens (OEIS
# A250000(8) = 9), 142 up to symmetry.
"$P" armies --board 8 --size 9 --list --jobs 1 >"$T/all"
"$P" armies --board 8 --size 9 --list --unique --jobs 1 >"$T/uall"
"$P" armies --board 8 --size 9 --count --json --jobs 1 >"$T/count"
check "the reference listings: 1136 placements and 142 classes, as the count says" \
  "[ \$(wc -l <'$T/all') -eq 1136 ] && [ \$(wc -l <'$T/uall') -eq 142 ] &&
   [ \$(sort -u '$T/all' | wc -l) -eq 1136 ] &&
   jq -e '.count == 1136 and .unique == 142' '$T/count' >/dev/null"
"$P" armies --board 8 --size 9 --list --jobs 2 >"$T/all2"
check "--jobs 2: the lines of one thread, in the same order" 'cmp -s "$T/all2" "$T/all"'
# Each line checked by plain geometry, by awk, independently of the program: 9 white (Q), 9 black
# (q), and no row, column or diagonal holding both colours (a line that does holds two queens of
# different colours next to each other on it, one attacking the other).
cat >"$T/geometry.awk" <<'EOF'
{
  split("", seen)
  w = b = 0
  for (r = 1; r <= NF; r++)
    for (f = 1; f <= length($r); f++) {
      x = substr($r, f, 1)
      if (x == ".") continue
      if (x == "Q") w++; else b++
      seen["r" r, x]; seen["f" f, x]; seen["d" (r - f), x]; seen["a" (r + f), x]
    }
  for (k in seen) {
    split(k, part, SUBSEP)
    if ((part[1], "Q") in seen && (part[1], "q") in seen) bad = 1
  }
  if (w != 9 || b != 9) bad = 1
}
END { exit bad }
EOF
check "every line listed is 9 against 9 queens, no queen attacking one of the other colour" \
  "awk -F/ -f '$T/geometry.awk' '$T/all' && ! echo 'QQQQQQQQ/Q......./......../q......./qqqqqqqq/......../q......./q.......' | awk -F/ -f '$T/geometry.awk'"

# --part I/N: a sealed JSON line each, merged into the same lines in the same order.
for i in 1 2 3; do
  "$P" armies --board 8 --size 9 --list --part $i/3 --quiet >"$T/p$i" || break
done
check "--list --part 1/3: one sealed JSON line naming the listing, with its subparts' texts" \
  "[ \$(wc -l <'$T/p1') -eq 1 ] &&
   jq -e '.list == \"placements\" and .counting and .done and (.texts | length) == .covered' \
     '$T/p1' >/dev/null && grep -q '\"digest\":\"[0-9a-f]\{16\}\"}\$' '$T/p1'"
run 60 merge "$T/p3" "$T/p1" "$T/p2"
check "merge of the three parts, in any order: the lines of one run, byte for byte" \
  "[ $rc -eq 0 ] && cmp -s '$T/out' '$T/all' &&
   one_message 'that none is missing rests on the parts'"
run 60 merge --json "$T/p1" "$T/p2" "$T/p3"
check "merge --json: a placement object a line, then the summary: the count, on the parts' word" \
  "[ $rc -eq 0 ] && [ \$(grep -c '^{\"placement\":\"' '$T/out') -eq 1136 ] &&
   tail -n 1 '$T/out' | jq -e '.problem == \"armies\" and .size == 9 and .count == 1136 and
     .checked == false and .parts == 3' >/dev/null"
for i in 1 2; do
  "$P" armies --board 8 --size 9 --list --unique --part $i/2 --quiet >"$T/u$i" || break
done
run 60 merge "$T/u2" "$T/u1"
check "--list --unique in 2 parts merged: the classes' lines of one run, byte for byte" \
  "[ $rc -eq 0 ] && cmp -s '$T/out' '$T/uall'"
run 60 merge --json "$T/u1" "$T/u2"
check "merged --unique --json: count 1136 and unique 142" \
  "tail -n 1 '$T/out' | jq -e '.count == 1136 and .unique == 142 and .checked == false' \
     >/dev/null"

# What merge refuses: nothing is printed before every line of every part is checked.
"$P" armies --board 8 --size 9 --count --part 3/3 --quiet >"$T/c3"
refuse "merge of a listing's parts with a count's: exit 2" "not a part of the same" \
  merge "$T/p1" "$T/p2" "$T/c3"
refuse "merge of a listing's parts with those of the listing of classes: exit 2" \
  "not a part of the same" merge "$T/p1" "$T/u2"
refuse "merge --cert of a listing's parts: exit 2" "not to listings" \
  merge --cert "$T/x.cert" "$T/p1" "$T/p2" "$T/p3"
# Part 3's first line made one where queens attack (its first row all white), resealed.
jq -c '(.texts | map(. != null and . != "") | index(true)) as $k |
  .texts[$k] = "11111111" + .texts[$k][8:]' "$T/p3" >"$T/attack"
"$RESEAL" "$T/attack"
refuse "merge of a part with a line where queens attack (resealed): exit 2, nothing printed" \
  "line 1 of its text is not the armies of the size with no piece attacking one of the other colour (9 against 9)" \
  merge "$T/p1" "$T/p2" "$T/attack"
# A class's line replaced by its mirror image, which is not its class's first (resealed).
jq -c 'def mirror: [range(0; 64; 8) as $i | .[$i:$i + 8] | explode | reverse | implode] |
    join("");
  (.texts | map(. != null and length > 0 and (.[0:64] | mirror) != .[0:64]) | index(true)) as $k |
  .texts[$k] = (.texts[$k][0:64] | mirror) + .texts[$k][64:]' "$T/u2" >"$T/mirror"
"$RESEAL" "$T/mirror"
refuse "merge of a listing of classes with a line not its class's first (resealed): exit 2" \
  "line 1 of its text is not the first of its class" merge "$T/u1" "$T/mirror"
# A line dropped from a part's text (resealed): the lines then fall short of the part's count.
jq -c '(.texts | map(. != null and length > 65) | index(true)) as $k |
  .texts[$k] = .texts[$k][65:]' "$T/p2" >"$T/fewer"
"$RESEAL" "$T/fewer"
refuse "merge of a part with a line dropped (resealed): exit 2, nothing printed" \
  "lines its outcome says" merge "$T/p1" "$T/fewer" "$T/p3"
# A line of part 1's first text moved into part 2's (its count and lines as before, resealed).
jq -c --slurpfile o "$T/p1" '(.texts | map(. != null and . != "") | index(true)) as $k |
  ($o[0].texts | map(. != null and . != "") | index(true)) as $j |
  .texts[$k] = $o[0].texts[$j][0:65] + .texts[$k][65:]' "$T/p2" >"$T/moved"
"$RESEAL" "$T/moved"
refuse "merge of a part with another part's line in place of its own (resealed): exit 2" \
  "line 1 of its text is of another subpart" merge "$T/p1" "$T/moved" "$T/p3"
# Outcomes that do not agree with their lines, or with the symmetries (resealed): refused before
# a line is printed (Burnside's check came after the lines; a count of 0 beside them was taken).
jq -c '.fixed += 1' "$T/p1" >"$T/burnside"
"$RESEAL" "$T/burnside"
refuse "merge of a part whose Burnside's sum is off by one (resealed): exit 2, nothing printed" \
  "do not add up" merge "$T/burnside" "$T/p2" "$T/p3"
jq -c '.count = 0' "$T/p1" >"$T/nocount"
"$RESEAL" "$T/nocount"
refuse "merge of a part whose count is 0 beside its lines (resealed): exit 2, nothing printed" \
  "its count is not the placements it listed" merge "$T/nocount" "$T/p2" "$T/p3"

refuse "--limit with --part: exit 2" "--limit" armies --board 8 --size 9 --list --limit 5 --part 1/3
refuse "--limit with --checkpoint: exit 2" "--limit" \
  armies --board 8 --size 9 --list --limit 5 --checkpoint "$T/lim"
refuse "--list --part without --size: exit 2" "needs --size K" armies --board 8 --list --part 1/3
refuse "knights' --list with --checkpoint: exit 2" "not --count or --list" \
  armies --board 5 --piece N --list --checkpoint "$T/kn"

# --checkpoint: a listing stopped by a node limit keeps its finished parts' lines beside the
# checkpoint; resumed, it prints every line of one run again, then the rest.
"$P" armies --board 9 --size 12 --list --jobs 1 >"$T/all9"
run 60 armies --board 9 --size 12 --list --checkpoint "$T/ck" --node-limit 400000 --jobs 1 --quiet
check "a listing stopped by a node limit: exit 3, lines printed, its lines file kept" \
  "[ $rc -eq 3 ] && [ -s '$T/out' ] && [ \$(wc -l <'$T/out') -lt 200 ] &&
   [ \$(wc -l <'$T/all9') -eq 200 ] && [ -s '$T/ck.lines' ] &&
   one_message 'finished parts are in the checkpoint'"
run 60 armies --board 9 --size 12 --list --resume "$T/ck" --checkpoint "$T/ck" --jobs 2 --quiet
check "resumed: the lines of one run, byte for byte, and a note that it rests on the checkpoint" \
  "[ $rc -eq 0 ] && cmp -s '$T/out' '$T/all9' &&
   one_message 'the listing rests in part on the resumed checkpoint'"
run 60 armies --board 9 --size 12 --list --resume "$T/ck" --json
check "resumed again, --json: the summary says \"checked\":false" \
  "[ $rc -eq 0 ] && tail -n 1 '$T/out' | jq -e '.checked == false and .count == 200' >/dev/null"
refuse "a listing's checkpoint resumed by a count: exit 2" "another" \
  armies --board 9 --size 12 --count --resume "$T/ck"
refuse "a listing's checkpoint resumed by a listing of classes: exit 2" "another" \
  armies --board 9 --size 12 --list --unique --resume "$T/ck"
# The lines file's first line made one where queens attack, the checkpoint resealed.
lines_edit '!done && / / { print; getline; print "111111111" substr($0, 10); done = 1; next }
  { print }' "$T/ck" "$T/attack.ck"
refuse "a listing's lines file with a line where queens attack (resealed): exit 2, nothing out" \
  "line 1 of its text is not the armies of the size with no piece attacking one of the other colour (12 against 12)" \
  armies --board 9 --size 12 --list --resume "$T/attack.ck"
# The first line of the lines file replaced by a line of a later part, the checkpoint resealed:
# each line is checked to be of its part, so no placement comes twice (it was printed twice).
line_moved "$T/ck" "$T/moved.ck"
refuse "a listing's lines file with a line of another part (resealed): exit 2, nothing out" \
  "line 1 of its text is of another subpart" armies --board 9 --size 12 --list --resume "$T/moved.ck"
# The maximum's listing: its decisions, then its lines, in the same checkpoint, stopped in them.
"$P" armies --board 9 --list --jobs 1 >"$T/max"
run 60 armies --board 9 --list --checkpoint "$T/mk" --node-limit 1200000 --jobs 1
stopped=$rc
run 60 armies --board 9 --list --resume "$T/mk"
check "the maximum's listing stopped in its lines, then resumed: the lines of one run" \
  "[ $stopped -eq 3 ] && [ $rc -eq 0 ] && cmp -s '$T/out' '$T/max' &&
   [ \$(wc -l <'$T/max') -eq 200 ]"

tap_end
