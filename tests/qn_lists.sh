#!/bin/sh
# qn_lists.sh: qn listings in parts and with checkpoints (TAP), as pieces' (pieces_lists.sh):
# --list --part I/N lines merge into the listing of one run, byte for byte; a stopped listing
# resumed prints the lines of one run; forged lines, resealed, are refused before any is printed;
# --limit is a whole listing's.
. "${srcdir:-$(dirname "$0")/..}/tests/tap.sh"
RESEAL=${RESEAL:-$(dirname "$P")/tests/reseal}

# The references: one run on one thread. 7x7 holds 21,960 placements of 3 queens and 3 knights.
"$P" qn --board 7 --size 3 --list --jobs 1 >"$T/all"
"$P" qn --board 7 --size 3 --list --unique --jobs 1 >"$T/uall"
"$P" qn --board 7 --size 3 --count --json --jobs 1 >"$T/count"
lines=$(wc -l <"$T/all")
classes=$(wc -l <"$T/uall")
check "the reference listings: as many lines as the count and its classes" \
  "jq -e '.count == $lines and .unique == $classes and $lines > 20000' '$T/count' >/dev/null"
"$P" qn --board 7 --size 3 --list --jobs 2 >"$T/all2"
check "--jobs 2: the lines of one thread, in the same order" 'cmp -s "$T/all2" "$T/all"'

# --part I/N: a sealed JSON line each, merged into the same lines in the same order.
for i in 1 2 3; do "$P" qn --board 7 --size 3 --list --part $i/3 --quiet >"$T/p$i" || break; done
check "--list --part 1/3: one sealed JSON line naming the listing, with its subparts' texts" \
  "[ \$(wc -l <'$T/p1') -eq 1 ] &&
   jq -e '.list == \"placements\" and .counting and .done and (.texts | length) == .covered' \
     '$T/p1' >/dev/null && grep -q '\"digest\":\"[0-9a-f]\{16\}\"}\$' '$T/p1'"
run 60 merge "$T/p3" "$T/p1" "$T/p2"
check "merge of the three parts, in any order: the lines of one run, byte for byte" \
  "[ $rc -eq 0 ] && cmp -s '$T/out' '$T/all' &&
   one_message 'that none is missing rests on the parts' && ! grep -q 'class' '$T/err'"
run 60 merge --json "$T/p1" "$T/p2" "$T/p3"
check "merge --json: a placement object a line, then the summary: the count, on the parts' word" \
  "[ $rc -eq 0 ] && [ \$(grep -c '^{\"placement\":\"' '$T/out') -eq $lines ] &&
   tail -n 1 '$T/out' | jq -e '.problem == \"qn\" and .size == 3 and .count == $lines and
     .checked == false and .parts == 3' >/dev/null"
for i in 1 2; do
  "$P" qn --board 7 --size 3 --list --unique --part $i/2 --quiet >"$T/u$i" || break
done
run 60 merge "$T/u2" "$T/u1"
check "--list --unique in 2 parts merged: the classes' lines of one run, byte for byte" \
  "[ $rc -eq 0 ] && cmp -s '$T/out' '$T/uall'"
run 60 merge --json "$T/u1" "$T/u2"
check "merged --unique --json: count and unique as the reference's" \
  "tail -n 1 '$T/out' |
   jq -e '.count == $lines and .unique == $classes and .checked == false' >/dev/null"

# What merge refuses: nothing is printed before every line of every part is checked.
"$P" qn --board 7 --size 3 --count --part 3/3 --quiet >"$T/c3"
refuse "merge of a listing's parts with a count's: exit 2" "not a part of the same" \
  merge "$T/p1" "$T/p2" "$T/c3"
refuse "merge of a listing's parts with those of the listing of classes: exit 2" \
  "not a part of the same" merge "$T/p1" "$T/u2"
refuse "merge --cert of a listing's parts: exit 2" "these parts list" \
  merge --cert "$T/x.cert" "$T/p1" "$T/p2" "$T/p3"
# Part 3's first line made one where a queen attacks (its first square a queen: 49 digits),
# resealed.
jq -c '(.texts | map(. != null) | index(true)) as $k |
  .texts[$k] = "1111111" + .texts[$k][7:]' "$T/p3" >"$T/attack"
"$RESEAL" "$T/attack"
refuse "merge of a part with a line where pieces attack (resealed): exit 2, nothing printed" \
  "line 1 of its text is not a placement of the size in which no piece attacks another (size 3)" \
  merge "$T/p1" "$T/p2" "$T/attack"
# A class's line replaced by its mirror image, which is not its class's first (resealed).
jq -c 'def mirror: [range(0; 49; 7) as $i | .[$i:$i + 7] | explode | reverse | implode] |
    join("");
  (.texts | map(. != null and (.[0:49] | mirror) != .[0:49]) | index(true)) as $k |
  .texts[$k] = (.texts[$k][0:49] | mirror) + .texts[$k][49:]' "$T/u2" >"$T/mirror"
"$RESEAL" "$T/mirror"
refuse "merge of a listing of classes with a line not its class's first (resealed): exit 2" \
  "line 1 of its text is not the first of its class" merge "$T/u1" "$T/mirror"
# A line dropped from a part's text (resealed): the lines then fall short of the part's count.
jq -c '(.texts | map(. != null and length > 100) | index(true)) as $k |
  .texts[$k] = .texts[$k][50:]' "$T/p2" >"$T/fewer"
"$RESEAL" "$T/fewer"
refuse "merge of a part with a line dropped (resealed): exit 2, nothing printed" \
  "lines its outcome says" merge "$T/p1" "$T/fewer" "$T/p3"
# A listing of classes whose count is below its classes (resealed): refused (it merged into
# "count":2 beside 22 classes).
jq -c '.count = 1' "$T/u1" >"$T/below"
"$RESEAL" "$T/below"
refuse "merge of classes whose count is below them (resealed): exit 2, nothing printed" \
  "its count is below the classes it listed" merge "$T/below" "$T/u2"
# A line of part 1's first text moved into part 2's (its count and lines as before, resealed).
jq -c --slurpfile o "$T/p1" '(.texts | map(. != null and . != "") | index(true)) as $k |
  ($o[0].texts | map(. != null and . != "") | index(true)) as $j |
  .texts[$k] = $o[0].texts[$j][0:50] + .texts[$k][50:]' "$T/p2" >"$T/moved"
"$RESEAL" "$T/moved"
refuse "merge of a part with another part's line in place of its own (resealed): exit 2" \
  "line 1 of its text is of another subpart" merge "$T/p1" "$T/moved" "$T/p3"

refuse "--limit with --part: exit 2" "--limit" qn --board 7 --size 3 --list --limit 5 --part 1/3
refuse "--limit with --checkpoint: exit 2" "--limit" \
  qn --board 7 --size 3 --list --limit 5 --checkpoint "$T/lim"
refuse "--list --part without --size: exit 2" "needs --size K" qn --board 7 --list --part 1/3

# --checkpoint: a listing stopped by a node limit keeps its finished parts' lines beside the
# checkpoint; resumed, it prints every line of one run again, then the rest.
"$P" qn --board 8 --size 4 --list --jobs 1 >"$T/all8"
run 60 qn --board 8 --size 4 --list --checkpoint "$T/ck" --node-limit 10000 --jobs 1 --quiet
check "a listing stopped by a node limit: exit 3, lines printed, its lines file kept" \
  "[ $rc -eq 3 ] && [ -s '$T/out' ] && [ \$(wc -l <'$T/out') -lt \$(wc -l <'$T/all8') ] &&
   [ -s '$T/ck.lines' ] && one_message 'finished parts are in the checkpoint'"
run 60 qn --board 8 --size 4 --list --resume "$T/ck" --checkpoint "$T/ck" --jobs 2 --quiet
check "resumed: the lines of one run, byte for byte, and a note that it rests on the checkpoint" \
  "[ $rc -eq 0 ] && cmp -s '$T/out' '$T/all8' &&
   one_message 'the listing rests in part on the resumed checkpoint'"
run 60 qn --board 8 --size 4 --list --resume "$T/ck" --json
check "resumed again, --json: the summary says \"checked\":false" \
  "[ $rc -eq 0 ] && tail -n 1 '$T/out' | jq -e '.checked == false and .count > 70000' >/dev/null"
refuse "a listing's checkpoint resumed by a count: exit 2" "another" \
  qn --board 8 --size 4 --count --resume "$T/ck"
refuse "a listing's checkpoint resumed by a listing of classes: exit 2" "another" \
  qn --board 8 --size 4 --list --unique --resume "$T/ck"
# The lines file's first line made one where a queen attacks, the checkpoint resealed.
lines_edit '!done && / / { print; getline; print "11111111" substr($0, 9); done = 1; next }
  { print }' "$T/ck" "$T/attack.ck"
refuse "a listing's lines file with a line where pieces attack (resealed): exit 2, nothing out" \
  "line 1 of its text is not a placement of the size in which no piece attacks another (size 4)" \
  qn --board 8 --size 4 --list --resume "$T/attack.ck"
# The first line of the lines file replaced by a line of a later part, the checkpoint resealed:
# each line is checked to be of its part (the least image of its queens' squares begins the
# part's), so no placement comes twice (it was printed twice).
line_moved "$T/ck" "$T/moved.ck"
refuse "a listing's lines file with a line of another part (resealed): exit 2, nothing out" \
  "line 1 of its text is of another subpart" qn --board 8 --size 4 --list --resume "$T/moved.ck"
# Two finished parts' counts of 2^127 each (resealed): refused when read, before a line is
# printed (the sum passing 2^128 was found after every line was out).
"$P" qn --board 8 --size 4 --list --unique --checkpoint "$T/uk" --node-limit 10000 --jobs 1 \
  >/dev/null 2>&1
big=170141183460469231731687303715884105728
sed -z "s/{\"count\":[0-9][0-9]*/{\"count\":X$big/; s/{\"count\":[0-9][0-9]*/{\"count\":$big/;
  s/X$big/$big/" "$T/uk" >"$T/big.uk"
cp "$T/uk.lines" "$T/big.uk.lines"
"$RESEAL" "$T/big.uk"
refuse "a listing's checkpoint whose counts pass 2^128 (resealed): exit 2, nothing printed" \
  "past what an outcome holds" qn --board 8 --size 4 --list --unique --resume "$T/big.uk"
# The maximum's listing: its decisions, then its lines, in the same checkpoint.
"$P" qn --board 8 --list --jobs 1 >"$T/max"
run 60 qn --board 8 --list --checkpoint "$T/mk" --jobs 1
run 60 qn --board 8 --list --resume "$T/mk"
check "the maximum's listing resumed from its own checkpoint: the lines of one run" \
  "[ $rc -eq 0 ] && [ \$(wc -l <'$T/max') -eq 16 ] && cmp -s '$T/out' '$T/max'"

tap_end
