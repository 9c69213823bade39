#!/bin/sh
# pieces_lists.sh: pieces listings through the engine (TAP): --part I/N lines merge into the
# listing of one run, byte for byte; --checkpoint and --resume keep the lines of the finished
# parts; a damaged checkpoint is refused and not overwritten; --limit is a whole listing's.
. "${srcdir:-$(dirname "$0")/..}/tests/tap.sh"

# The reference: one run on one thread.
"$P" pieces --board 6x5 --pieces K2Q1B1N2 --list --jobs 1 >"$T/all"
"$P" pieces --board 6x5 --pieces K2Q1B1N2 --list --unique --json --jobs 1 >"$T/uall"
count=$("$P" pieces --board 6x5 --pieces K2Q1B1N2)
check "the reference listing: as many lines ($count) as the count" \
  '[ "$(wc -l <"$T/all")" -eq "$count" ]'

# --part I/N: a JSON line each, merged into the same lines in the same order.
for i in 1 2 3; do
  "$P" pieces --board 6x5 --pieces K2Q1B1N2 --list --part $i/3 --jobs 2 >"$T/p$i" || break
done
check "--list --part 1/3: one sealed JSON line with the texts of its subparts" \
  'grep -q "^{\"problem\":\"pieces\",\"board\":\"6x5\",\"pieces\":\"K2Q1B1N2\",\"unique\":false,\"list\":\"placements\",.*\"part\":1,\"parts\":3,.*\"done\":true,\"count\":[0-9]*,\"texts\":\[.*\"digest\":\"[0-9a-f]\{16\}\"}$" "$T/p1" && [ "$(wc -l <"$T/p1")" -eq 1 ]'
"$P" merge "$T/p2" "$T/p3" "$T/p1" >"$T/merged"
check "merge of the three parts, in any order: the lines of one run, byte for byte" \
  'cmp -s "$T/merged" "$T/all"'
for i in 1 2; do
  "$P" pieces --board 6x5 --pieces K2Q1B1N2 --list --unique --part $i/2 >"$T/u$i" || break
done
"$P" merge --json "$T/u1" "$T/u2" >"$T/umerged"
"$P" merge "$T/u1" "$T/u2" 2>"$T/uerr" >/dev/null
# A part line whose count says one line more than its texts hold (resealed): refused before a
# line is printed (the whole listing was printed, then refused).
sed 's/"listed":\([0-9]*\),"texts"/"listed":1\1,"texts"/' "$T/u1" >"$T/u1f" && "${RESEAL:-$(dirname "$P")/tests/reseal}" "$T/u1f"
run 30 merge "$T/u1f" "$T/u2"
check "merge of a listing whose part says more lines than it holds: refused, nothing printed" \
  "[ $rc -eq 2 ] && [ ! -s '$T/out' ] && one_message 'its texts do not have the lines its outcome says'"
check "a merged --unique listing says that one line a class rests on the parts' word too" \
  "grep -q 'that none is missing, and that each is of a class of its own, rests on the parts' \"$T/uerr\""
# The summary's nodes and seconds are the run's own (a merge has no seconds, and says its total
# is the parts' word, and how many parts it merged).
check "the merged listing's summary: \"checked\":false and 2 parts, before nodes" \
  "tail -n 1 '$T/umerged' | grep -q ',\"checked\":false,\"parts\":2,\"nodes\":[0-9]*}\$'"
sed -i 's/,"checked":false,"parts":2//' "$T/umerged"
sed -i 's/,"nodes":[0-9]*//; s/,"seconds":[0-9.]*//' "$T/umerged" "$T/uall"
check "--list --unique in 2 parts, merge --json: the lines and the summary of one run" \
  'cmp -s "$T/umerged" "$T/uall"'
refuse "merge of a listing's part with a count's: exit 2" "not a part of the same" merge "$T/p1" \
  "$T/p2" "$("$P" pieces --board 6x5 --pieces K2Q1B1N2 --part 3/3 >"$T/c3"; echo "$T/c3")"
sed 's/"texts":\["/"texts":["Q/' "$T/p1" >"$T/edited"
refuse "merge of a listing's part edited: exit 2" "damaged or edited" merge "$T/edited" "$T/p2" \
  "$T/p3"
# Resealed parts whose lines do not match their outcome: a text dropped (the list shorter than the
# subparts) is refused before a line is printed; a line dropped from a text is found at the end
# (the lines listed fewer than the parts say): exit 2, never a summary.
RESEAL=${RESEAL:-$(dirname "$P")/tests/reseal}
sed 's/"texts":\[\("[^"]*"\|null\),/"texts":[/' "$T/p1" >"$T/short"
"$RESEAL" "$T/short"
refuse "merge of a listing's part with a text dropped (resealed): exit 2" \
  "does not have one for each subpart" merge "$T/short" "$T/p2" "$T/p3"
sed 's/"texts":\["[^\\]*\\u000a/"texts":["/' "$T/p1" >"$T/fewer"
"$RESEAL" "$T/fewer"
run 30 merge --json "$T/fewer" "$T/p2" "$T/p3"
check "merge of a listing's part with a line dropped (resealed): exit 2, nothing printed" \
  '[ "$rc" -eq 2 ] && grep -q "its texts do not have the lines its outcome says" "$T/err" &&
   [ ! -s "$T/out" ] && ! cmp -s "$T/p1" "$T/fewer"'
# A resealed part whose first line is a placement where pieces attack (the kings side by side):
# merge checks every line before it goes out, and refuses (it printed it).
sed 's/"texts":\["[^\\]*\\u000a/"texts":["KKQBNN\/......\/......\/......\/......\\u000a/' \
  "$T/p1" >"$T/attack"
"$RESEAL" "$T/attack"
refuse "merge of a listing's part with a line where pieces attack (resealed): exit 2, nothing out" \
  "$T/attack: part 1/3: line 1 of its text is not a placement of K2Q1B1N2 on 6x5 in which no" \
  merge "$T/attack" "$T/p2" "$T/p3"
run 30 merge "$T/p1" "$T/p2" "$T/p3"
check "merge of the true parts: every line out, and a note that the completeness is their word" \
  "[ $rc -eq 0 ] && [ -s '$T/out' ] && one_message \"and none is there twice; that none is missing rests on the parts' word\""
refuse "merge --cert of a listing's parts: exit 2 (pieces have no certificates)" \
  "have no certificates" merge --cert "$T/c.json" "$T/p1" "$T/p2" "$T/p3"
refuse "--limit with --part: exit 2" "--limit" pieces --board 6x5 --pieces K2Q1B1N2 --list \
  --limit 3 --part 1/2
refuse "--limit with --checkpoint: exit 2" "--limit" pieces --board 6x5 --pieces K2Q1B1N2 --list \
  --limit 3 --checkpoint "$T/lck"

# Checkpoints (issue 13, item 10): a listing stopped by a limit keeps its finished parts and their
# lines; resumed with the same file as --checkpoint and --resume it goes on to the lines of one
# run, byte for byte.
"$P" pieces --board 6x5 --pieces K2Q1B1N2 --list --node-limit 20000 --checkpoint "$T/ck" \
  --jobs 1 >"$T/out1" 2>"$T/err"
rc=$?
done1=$(grep -c '^\[' "$T/ck")
check "--list stopped by --node-limit: exit 3, $done1 finished parts in the checkpoint" \
  '[ "$rc" -eq 3 ] && [ "$done1" -gt 0 ] && grep -q "listing on 6x5 stopped by a limit" "$T/err"'
check "... the lines printed so far are the first ones of the listing" \
  '[ -s "$T/out1" ] && head -c "$(wc -c <"$T/out1")" "$T/all" | cmp -s - "$T/out1"'
"$P" pieces --board 6x5 --pieces K2Q1B1N2 --list --node-limit 20000 --checkpoint "$T/ck" \
  --resume "$T/ck" --jobs 2 >"$T/out2" 2>"$T/err"
rc=$?
done2=$(grep -c '^\[' "$T/ck")
check "resumed and stopped again: exit 3, more finished parts ($done2)" \
  '[ "$rc" -eq 3 ] && [ "$done2" -gt "$done1" ]'
"$P" pieces --board 6x5 --pieces K2Q1B1N2 --list --checkpoint "$T/ck" --resume "$T/ck" \
  --jobs 2 >"$T/out3" 2>"$T/err"
rc=$?
check "resumed to the end from the same file: the lines of one run, byte for byte" \
  '[ "$rc" -eq 0 ] && cmp -s "$T/out3" "$T/all"'
"$P" pieces --board 6x5 --pieces K2Q1B1N2 --list --resume "$T/ck" --node-limit 1 >"$T/out4"
check "resumed from a complete checkpoint: every line without a search" \
  '[ $? -eq 0 ] && cmp -s "$T/out4" "$T/all"'
refuse "a listing's checkpoint resumed by a count: exit 2" "another" pieces --board 6x5 \
  --pieces K2Q1B1N2 --resume "$T/ck"
refuse "a listing's checkpoint resumed by a listing with --unique: exit 2" "another" pieces \
  --board 6x5 --pieces K2Q1B1N2 --list --unique --resume "$T/ck"
# The lines of the parts emitted are not in the checkpoint but in its lines file, FILE.lines,
# appended as they go out (a listing's checkpoint held them all and was written again every 5 s:
# 8x8 K2Q2B2N1 --list --checkpoint grew to 24 GB of memory and was killed after 80 s).
check "... the checkpoint holds no line; its lines file holds them, and its mark" \
  '! grep -q "/" "$T/ck" && [ "$(jq .lines.bytes "$T/ck")" -eq "$(wc -c <"$T/ck.lines")" ] &&
   [ "$(jq .lines.parts "$T/ck")" -eq "$(grep -c "^\[" "$T/ck")" ]'
cp "$T/ck.lines" "$T/ck2.lines"
cp "$T/ck" "$T/ck2"
"$P" pieces --board 6x5 --pieces K2Q1B1N2 --list --checkpoint "$T/ck3" --resume "$T/ck2" \
  --jobs 2 >"$T/out5" 2>"$T/err"
check "resumed into another checkpoint file: the lines of one run; its lines file made anew" \
  '[ $? -eq 0 ] && cmp -s "$T/out5" "$T/all" && cmp -s "$T/ck.lines" "$T/ck3.lines"'
sed 's/"nodes":\([0-9]\)/"nodes":1\1/' "$T/ck" >"$T/damaged"
cp "$T/ck.lines" "$T/damaged.lines"
cp "$T/damaged" "$T/kept"
refuse "a damaged listing checkpoint: exit 2" "damaged or edited" pieces --board 6x5 \
  --pieces K2Q1B1N2 --list --checkpoint "$T/damaged" --resume "$T/damaged"
check "... and it is not overwritten" '! cmp -s "$T/damaged" "$T/ck" && cmp -s "$T/damaged" "$T/kept"'
cp "$T/ck" "$T/edited"
sed '2s/\./Q/' "$T/ck.lines" >"$T/edited.lines"
refuse "a listing's lines file edited: exit 2" "its lines file $T/edited.lines: damaged or edited" \
  pieces --board 6x5 --pieces K2Q1B1N2 --list --resume "$T/edited"
cp "$T/ck" "$T/alone"
refuse "a listing's lines file missing: exit 2" "its lines file $T/alone.lines: cannot read it" \
  pieces --board 6x5 --pieces K2Q1B1N2 --list --resume "$T/alone"
refuse "a listing's checkpoint with a lines file resumed by --part: exit 2" "resume it whole" \
  pieces --board 6x5 --pieces K2Q1B1N2 --list --resume "$T/ck" --part 1/2
# A checkpoint's lines are placements printed: each is checked when it is read, not taken on the
# file's word (they were printed unchecked: a forgery hunt's finding). The lines file edited, its
# mark in the checkpoint and the checkpoint sealed again. A record is "PART BYTES", then its lines.
cp "$T/ck" "$T/attack.ck"
awk '!done && / / { print; getline; print "KKQBNN/....../....../....../......"; done = 1; next }
  { print }' "$T/ck.lines" >"$T/attack.ck.lines"
"$RESEAL" "$T/attack.ck"
refuse "a listing's lines file with a line where pieces attack (resealed): refused, exit 2" \
  "line 1 of its text is not a placement of K2Q1B1N2 on 6x5 in which no piece attacks another" \
  pieces --board 6x5 --pieces K2Q1B1N2 --list --resume "$T/attack.ck"
cp "$T/ck" "$T/fewer.ck"
awk '!done && / / && $2 >= 70 { print $1, $2 - 35; getline; done = 1; next } { print }' \
  "$T/ck.lines" >"$T/fewer.ck.lines"
"$RESEAL" "$T/fewer.ck"
refuse "a listing's lines file with a line dropped from a part (resealed): refused, exit 2" \
  "its text does not have the lines its outcome says it listed" \
  pieces --board 6x5 --pieces K2Q1B1N2 --list --resume "$T/fewer.ck"
cp "$T/ck" "$T/notext.ck"
awk '!done && / / { left = $2 / 35; done = 1; next } left > 0 { left--; next } { print }' \
  "$T/ck.lines" >"$T/notext.ck.lines"
"$RESEAL" "$T/notext.ck"
refuse "a listing's lines file with a part's lines dropped whole (resealed): refused, exit 2" \
  "its text does not have the lines its outcome says it listed" \
  pieces --board 6x5 --pieces K2Q1B1N2 --list --resume "$T/notext.ck"
cp "$T/ck" "$T/twice.ck"
awk '!done && / / { print $1, $2 + 35; getline; print; print; done = 1; next } { print }' \
  "$T/ck.lines" >"$T/twice.ck.lines"
"$RESEAL" "$T/twice.ck"
refuse "a listing's lines file with a line there twice, its count not raised (resealed): exit 2" \
  "its text does not have the lines its outcome says it listed" \
  pieces --board 6x5 --pieces K2Q1B1N2 --list --resume "$T/twice.ck"
cp "$T/ck" "$T/dup.ck"
awk '!done && / / && $2 >= 70 { print; getline a; getline b; print a; print a; done = 1; next }
  { print }' "$T/ck.lines" >"$T/dup.ck.lines"
"$RESEAL" "$T/dup.ck"
refuse "a listing's lines file with a line in place of the next one in its part (resealed): exit 2" \
  "a line of one of its parts is there twice" \
  pieces --board 6x5 --pieces K2Q1B1N2 --list --resume "$T/dup.ck"
# A record's length near 2^64 wrapped the reader's sums: a heap overflow (the sanitizers' run
# says), a crash or an abort, before any hash was checked (a review's finding). A NUL in a
# record's head passed the checks and the file was cut short. Both refused, the file untouched.
cp "$T/ck" "$T/huge.ck"
awk '!done && / / { print $1, "18446744073709551615"; done = 1; next } { print }' \
  "$T/ck.lines" >"$T/huge.ck.lines"
refuse "a record's length of 2^64 - 1: refused, exit 2" "its lines file $T/huge.ck.lines" \
  pieces --board 6x5 --pieces K2Q1B1N2 --list --resume "$T/huge.ck"
# A mark of 10^18 bytes (sealed again, the lines file away meanwhile) and a first record as long:
# it asked for an allocation of 10^18 bytes and aborted; refused now, the file being shorter.
sed 's/"bytes":[0-9]*/"bytes":1000000000000000000/' "$T/ck" >"$T/far.ck"
"$RESEAL" "$T/far.ck"
awk '!done && / / { print $1, "900000000000000000"; done = 1; next } { print }' \
  "$T/ck.lines" >"$T/far.ck.lines"
refuse "a mark past the lines file's end, a record as long (resealed): refused, exit 2" \
  "its lines file $T/far.ck.lines" pieces --board 6x5 --pieces K2Q1B1N2 --list --resume "$T/far.ck"
# A part padded past 64 MB with its own first line (a second record of the part, resealed): too
# long to be checked whole, it was checked line by line only, and the resume printed 70 times the
# listing, exit 0 (a second review's finding). Every part's lines are counted now.
cp "$T/ck" "$T/pad.ck"
awk '!done && / / { print; n = $2 / 35; for (i = 0; i < n; i++) { getline l; print l }
    print $1, 67108895; for (i = 0; i < 1917397; i++) print l; done = 1; next } { print }' \
  "$T/ck.lines" >"$T/pad.ck.lines"
"$RESEAL" "$T/pad.ck"
refuse "a part padded past 64 MB (resealed): refused, exit 2, nothing printed" \
  "its text does not have the lines its outcome says it listed" \
  pieces --board 6x5 --pieces K2Q1B1N2 --list --resume "$T/pad.ck"
rm -f "$T/pad.ck.lines"
# A checkpoint resumed whose name is the lines file --checkpoint would write: refused (it was
# written over, and lost when the run stopped while it read the lines back).
cp "$T/ck" "$T/z.lines"
cp "$T/ck.lines" "$T/z.lines.lines"
refuse "--resume Z.lines --checkpoint Z: refused, exit 2" "the lines file that --checkpoint" \
  pieces --board 6x5 --pieces K2Q1B1N2 --list --resume "$T/z.lines" --checkpoint "$T/z"
check "... and Z.lines is the checkpoint still" 'cmp -s "$T/z.lines" "$T/ck"'
cp "$T/ck" "$T/nul.ck"
awk '!done && / / { printf "%s\0junk\n", $0; done = 1; next } { print }' "$T/ck.lines" \
  >"$T/nul.ck.lines"
cp "$T/nul.ck.lines" "$T/nul.kept"
refuse "a NUL in a record's head: refused, exit 2" "its lines file $T/nul.ck.lines" \
  pieces --board 6x5 --pieces K2Q1B1N2 --list --resume "$T/nul.ck" --checkpoint "$T/nul.ck"
check "... and the lines file is not cut" 'cmp -s "$T/nul.ck.lines" "$T/nul.kept"'
refuse "--checkpoint naming the lines file of the checkpoint resumed: refused, exit 2" \
  "the lines file of the checkpoint resumed" \
  pieces --board 6x5 --pieces K2Q1B1N2 --list --resume "$T/ck" --checkpoint "$T/ck.lines"
# Through a link, the lines file is beside the checkpoint written (the link's target), where a
# resume of the target looks for it (it was beside the link).
mkdir "$T/real"
ln -s "$T/real/ck" "$T/link"
"$P" pieces --board 6x5 --pieces K2Q1B1N2 --list --node-limit 20000 --checkpoint "$T/link" \
  --jobs 1 >/dev/null 2>&1
check "--checkpoint through a link: the lines file beside its target" \
  '[ -s "$T/real/ck.lines" ] && [ ! -e "$T/link.lines" ] &&
   "$P" pieces --board 6x5 --pieces K2Q1B1N2 --list --resume "$T/real/ck" 2>/dev/null |
     cmp -s - "$T/all"'

# Texts kept in a checkpoint (of parts finished before their turn, or of a --part run): a
# placement given twice, its part's count raised to match (resealed): every line is a placement,
# the counts add up, yet one line is there twice. A merge printed it twice, a resume took it.
"$P" pieces --board 6x5 --pieces K2Q1B1N2 --list --part 1/1 --checkpoint "$T/pck" >/dev/null
first=$(jq -r '[.done[] | select(length == 4)][0][3] | split("\n")[0]' "$T/pck")
jq -c --arg l "$first" '.done |= map(if length == 4 and (.[3] | startswith($l)) then
  .[1].count += 1 | .[3] += $l + "\n" else . end)' "$T/pck" >"$T/twice.pck"
"$RESEAL" "$T/twice.pck"
refuse "a --part checkpoint with a line there twice (resealed): refused, exit 2, said so" \
  "a line of its finished parts is there twice ($first)" \
  pieces --board 6x5 --pieces K2Q1B1N2 --list --part 1/1 --resume "$T/twice.pck"
l1=$(jq -r '.texts | map(select(type == "string" and . != "")) | .[0] | split("\n")[0]' "$T/p1")
jq -c --arg l "$l1" '(.texts | map(type == "string" and . != "") | index(true)) as $i |
  .texts[$i] += $l + "\n" | .count += 1' \
  "$T/p1" >"$T/p1twice"
"$RESEAL" "$T/p1twice"
refuse "merge of listing parts with a line there twice (resealed): refused, exit 2, nothing printed" \
  "a line of the parts' texts is there twice ($l1)" merge "$T/p1twice" "$T/p2" "$T/p3"

# A signal in a listing with a checkpoint: exit 130, then resumed to the full listing (the signal
# at 0.05 s: with its lines file the run takes some 0.2 s, and was over before 0.2 s).
"$P" pieces --board 7x7 --pieces K2Q2B2N1 --list --unique --checkpoint "$T/sig" --jobs 2 >"$T/s1" \
  2>"$T/err" &
pid=$!
sleep 0.05
kill -INT "$pid"
wait "$pid"
rc=$?
if [ "$rc" -eq 0 ]; then
  n=$((n + 1))
  echo "ok $n # SKIP the run was over before SIGINT"
else
  "$P" pieces --board 7x7 --pieces K2Q2B2N1 --list --unique --checkpoint "$T/sig" --resume "$T/sig" \
    --jobs 2 >"$T/s2"
  check "SIGINT in a listing (exit $rc), resumed: the listing of one run, byte for byte" \
    '[ "$rc" -eq 130 ] && [ "$(wc -l <"$T/s2")" -gt 300000 ] &&
     "$P" pieces --board 7x7 --pieces K2Q2B2N1 --list --unique --jobs 1 | cmp -s - "$T/s2"'
fi

tap_end
