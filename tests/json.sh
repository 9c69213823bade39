#!/bin/sh
# json.sh: every command's --json output is one JSON object per line with the fields that
# doc/json.md documents, of the documented types, and no other field (TAP; skipped when jq is
# not installed).
P=${PEACEABLE:-./peaceable}
if ! command -v jq >/dev/null 2>&1; then
  # The skip plan makes tap-driver.sh report SKIP; it reports any exit status but 0, 77
  # included, as an ERROR.
  echo "1..0 # SKIP jq not installed"
  exit 0
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/peaceable-json.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM
# The field types of doc/json.md, as jq functions of the object.
DEFS='
def str($k): (.[$k] | type) == "string";
def int($k): (.[$k] | type) == "number" and .[$k] == (.[$k] | floor) and .[$k] >= 0;
def bool($k): (.[$k] | type) == "boolean";
def board: str("board") and (.board | test("^[0-9]+x[0-9]+$"));
def piece: str("piece") and (.piece | test("^[KQRBN]$"));
def text($k): str($k) and (.[$k] | test("^[.A-Za-z]+(/[.A-Za-z]+)*$"));
def placement($k): text($k) and
  ((.board | split("x") | map(tonumber)) as [$w, $h] | (.[$k] | split("/")) as $rows |
   ($rows | length) == $h and all($rows[]; length == $w));
def method($k): .[$k] == "search" or .[$k] == "ilp";
def seconds: (.seconds | type) == "number" and .seconds >= 0;
def only($fields): (keys - $fields) == [];
def absent($k): has($k) | not;
def word: if has("checked") then .checked == false else true end; # resting on a checkpoint
def parts: if has("parts") then int("parts") and .parts >= 1 and has("checked") else true end; # merged
# What an answer says of its size: "optimal" for a maximum (proved_by when true), at --size K
# "feasible" (proved_by when false), or neither at --size K stopped before either was known.
def said: if has("optimal") then absent("feasible") and bool("optimal") and
    (if .optimal then method("proved_by") else absent("proved_by") end)
  elif has("feasible") then bool("feasible") and
    (if .feasible then absent("proved_by") else method("proved_by") end)
  else absent("proved_by") end;
# A total agrees with it: none when infeasible, some when feasible; a total or a full listing
# says something of the size.
def total($k): if (.[$k] | type) == "number" then
    (if .feasible == false then .[$k] == 0 elif .feasible then .[$k] > 0 else true end) and
    (has("optimal") or has("feasible"))
  else true end;
def listing: str("placement") and (.placement | test("^[.A-Za-z0-9]+(/[.A-Za-z0-9]+)*$")) and
  only(["placement"]);

def armies_max: .problem == "armies" and board and piece and
  (if has("white") then int("white") else true end) and int("size") and bool("optimal") and
  (if .optimal then method("proved_by") else absent("proved_by") end) and
  placement("witness") and int("nodes") and seconds and word and
  only(["problem", "board", "piece", "white", "size", "optimal", "proved_by", "checked",
        "witness", "nodes", "seconds"]);
def armies_decision: .problem == "armies" and board and piece and int("size") and
  bool("feasible") and
  (if .feasible then placement("witness") and absent("proved_by")
   else absent("witness") and method("proved_by") end) and
  int("nodes") and seconds and word and
  only(["problem", "board", "piece", "size", "feasible", "proved_by", "witness", "checked",
        "nodes", "seconds"]);
def aggressor: .problem == "armies" and board and piece and int("maximum") and
  bool("maximum_optimal") and
  (if .maximum_optimal then method("maximum_proved_by") else absent("maximum_proved_by") end) and
  int("aggressor") and bool("optimal") and
  (if .optimal then method("proved_by") else absent("proved_by") end) and
  placement("witness") and int("nodes") and seconds and
  only(["problem", "board", "piece", "maximum", "maximum_optimal", "maximum_proved_by",
        "aggressor", "optimal", "proved_by", "witness", "nodes", "seconds"]);
def colours: if has("colours") then int("colours") and .colours >= 3 else true end;
def coloured($k): str($k) and (.[$k] | test("^[.0-9]+(/[.0-9]+)*$"));
# A count at the maximum holds the maximum placement; one at --size K holds none.
def armies_count: .problem == "armies" and board and piece and colours and int("size") and
  said and total("count") and
  (if has("optimal") then (if has("colours") then coloured("witness") else placement("witness") end)
   else absent("witness") end) and
  ((int("count") and int("unique") and int("unique_colour")) or
   (.count == null and absent("unique") and absent("unique_colour"))) and int("nodes") and
  seconds and word and
  parts and
  only(["problem", "board", "piece", "colours", "size", "optimal", "feasible", "proved_by",
        "witness", "count", "unique", "unique_colour", "checked", "parts", "nodes", "seconds"]);
def armies_listed: .problem == "armies" and board and piece and colours and int("size") and
  said and total("count") and (if .feasible == false then absent("listed") else true end) and
  ((int("count") and (if has("unique") then int("unique") else true end)) or
   (int("listed") and .complete == false and absent("count") and absent("unique"))) and
  int("nodes") and seconds and word and
  parts and
  only(["problem", "board", "piece", "colours", "size", "optimal", "feasible", "proved_by",
        "count", "unique", "listed", "complete", "checked", "parts", "nodes", "seconds"]);
def armies_listing: if has("placement") then listing else armies_listed end;
def colours_max: .problem == "armies" and board and piece and int("colours") and int("size") and
  bool("optimal") and (if .optimal then method("proved_by") else absent("proved_by") end) and
  coloured("witness") and int("nodes") and seconds and
  only(["problem", "board", "piece", "colours", "size", "optimal", "proved_by", "witness",
        "nodes", "seconds"]);
def colours_decision: .problem == "armies" and board and piece and int("colours") and
  int("size") and bool("feasible") and
  (if .feasible then coloured("witness") and absent("proved_by")
   else absent("witness") and method("proved_by") end) and int("nodes") and seconds and word and
  only(["problem", "board", "piece", "colours", "size", "feasible", "proved_by", "witness",
        "checked", "nodes", "seconds"]);
def outcome: bool("found") and
  (if .found then placement("witness") and int("at") else absent("witness") and absent("at") end);
def texts: (.texts | type) == "array" and all(.texts[]; type == "string" or type == "null");
def armies_part: .problem == "armies" and board and piece and int("white") and int("black") and
  str("split") and (.split | test("^[0-9a-f]{16}$")) and int("subparts") and int("part") and
  int("parts") and .part >= 1 and .part <= .parts and bool("done") and
  (if .done then outcome else absent("found") end) and int("nodes") and
  absent("texts") and
  int("covered") and str("digest") and (.digest | test("^[0-9a-f]{16}$")) and
  only(["problem", "board", "piece", "white", "black", "split", "subparts", "part", "parts",
        "covered", "done", "found", "at", "nodes", "witness", "digest"]);
def merged: .problem == "armies" and board and piece and
  (if has("white") then int("white") and .white != .size else true end) and int("size") and
  bool("feasible") and
  (if .feasible then placement("witness") and absent("proved_by")
   else absent("witness") and .proved_by == "search" end) and
  bool("checked") and .checked == .feasible and int("parts") and int("nodes") and
  only(["problem", "board", "piece", "white", "size", "feasible", "proved_by", "witness",
        "checked", "parts", "nodes"]);
def part_certificate: .format == "peaceable-certificate" and .problem == "armies" and
  .claim == "infeasible" and (.infeasible.trees | type) == "array" and
  any(.infeasible.trees[]; test("\\[")) and any(.infeasible.trees[]; test("#"));
def finished($board): type == "array" and (length == 3 or length == 4) and (.[0] | type) == "number" and
  (.[1] | type) == "object" and (.[1] | .board = $board | outcome) and
  (.[2] | type) == "number" and (if length == 4 then (.[3] | type) == "string" else true end);
def checkpoint: .format == "peaceable-checkpoint" and .version == 2 and .problem == "armies" and
  board and piece and int("white") and int("black") and str("split") and int("subparts") and
  (.best | type) == "number" and .best >= -1 and
  (if .best >= 0 then placement("best_witness") else absent("best_witness") end) and
  .board as $board | (.done | type) == "array" and all(.done[]; finished($board)) and
  int("nodes") and
  str("digest") and (.digest | test("^[0-9a-f]{16}$")) and
  only(["format", "version", "problem", "board", "piece", "white", "black", "split",
        "subparts", "best", "best_witness", "done", "nodes", "digest"]);
def knights_checkpoint: .format == "peaceable-checkpoint" and .version == 2 and
  .problem == "armies" and board and .piece == "N" and
  (.best | type) == "number" and .best >= -1 and
  (if .best >= 0 then placement("best_witness") else absent("best_witness") end) and
  (.learnt | type) == "object" and (.learnt.order == "rows" or .learnt.order == "columns") and
  (.learnt.lo | type) == "array" and (.learnt.hi | type) == "array" and
  . as $c | (.learnt.lo | length) as $n | $n > 0 and (.learnt.hi | length) == $n and
  all(range(0; $n); . as $q | ($n - $q) as $m | ($c.learnt.lo[$q] | length) == $m and
    ($c.learnt.hi[$q] | length) == $m and all($c.learnt.lo[$q][]; type == "number") and
    all($c.learnt.hi[$q][]; type == "number")) and
  str("digest") and (.digest | test("^[0-9a-f]{16}$")) and
  only(["format", "version", "problem", "board", "piece", "best", "best_witness", "learnt",
    "digest"]);

def qn_head: .problem == "qn" and board and str("kinds") and (.kinds | test("^[KQRBN]{2}$")) and
  str("ratio") and (.ratio | test("^[0-9]+:[0-9]+$")) and int("size");
def qn: qn_head and said and total("count") and
  (if .feasible == false or (has("optimal") or has("feasible") | not) or
      (has("feasible") and has("count"))
   then absent("witness") else placement("witness") end) and
  (if has("count") then (int("count") and int("unique") and .optimal != false) or
     (.count == null and absent("unique"))
   else absent("unique") end) and int("nodes") and seconds and word and
  only(["problem", "board", "kinds", "ratio", "size", "optimal", "feasible", "proved_by",
        "witness", "count", "unique", "checked", "nodes", "seconds"]);
def qn_listed: qn_head and said and total("count") and
  (.optimal == true or .feasible == true or .feasible == false and .count == 0 or
   (.optimal != true and .listed == 0)) and
  ((int("count") and absent("listed") and absent("complete")) or
   (int("listed") and .complete == false and absent("count"))) and
  (if has("unique") then int("unique") and has("count") else true end) and
  int("nodes") and seconds and word and parts and
  only(["problem", "board", "kinds", "ratio", "size", "optimal", "feasible", "proved_by", "count",
        "unique", "listed", "complete", "checked", "parts", "nodes", "seconds"]);
def qn_listing: if has("placement") then listing else qn_listed end;
def qn_row: qn_head and bool("optimal") and
  (if .optimal then method("proved_by") else absent("proved_by") end) and placement("witness") and
  ((.optimal and int("count") and int("unique")) or (.count == null and absent("unique"))) and
  int("nodes") and seconds and
  only(["problem", "board", "kinds", "ratio", "size", "optimal", "proved_by", "witness", "count",
        "unique", "nodes", "seconds"]);

def table_end($members): str("table") and (.table | test("^[0-9]+[.][.][0-9]+$")) and
  int("boards") and bool("complete") and seconds and
  only(["problem"] + $members + ["table", "boards", "complete", "seconds"]);
def armies_table_end: .problem == "armies" and piece and colours and
  table_end(["piece", "colours"]);
def qn_table_end: .problem == "qn" and str("kinds") and str("ratio") and
  table_end(["kinds", "ratio"]);
def armies_table(row): if has("table") then armies_table_end else row end;

def pieces: .problem == "pieces" and board and str("pieces") and
  ((int("count") and absent("listed") and absent("complete")) or
   (.count == null and absent("unique") and absent("listed") and absent("complete")) or
   (int("listed") and .complete == false and absent("count"))) and
  (if has("unique") then int("unique") and has("count") else true end) and int("nodes") and
  (if has("seconds") then seconds and word and absent("parts")
   else .checked == false and int("parts") end) and
  only(["problem", "board", "pieces", "count", "unique", "listed", "complete", "nodes",
        "checked", "parts", "seconds"]);
def pieces_listing: if has("placement") then listing else pieces end;

def chess_count: .problem == "chess960" and int("count") and only(["problem", "count"]);
def chess_rank: .problem == "chess960" and int("number") and .number < 960 and str("rank") and
  (.rank | test("^[KQRBN]{8}$")) and (if has("seed") then int("seed") else true end) and
  (if has("fen") then str("fen") and (.fen | test("^[kqrbn]{8}/pppppppp/8/8/8/8/PPPPPPPP/"))
   else true end) and
  only(["problem", "number", "rank", "seed", "fen"]);
'

# The checks are gathered and then judged by one jq run (jq takes a tenth of a second to
# start). Check k keeps its description in $T/desc.k, a reason it already failed in $T/why.k,
# its output lines prefixed with "k " in $T/lines, and its filter in $T/filters.
k=0
: >"$T/lines"
: >"$T/filters"

# expect DESCRIPTION FILTER FILE: FILE must be one or more lines, each one JSON object (and
# nothing more) for which FILTER holds.
expect() {
  k=$((k + 1))
  echo "$1" >"$T/desc.$k"
  if [ ! -s "$3" ]; then
    echo "no output" >"$T/why.$k"
  fi
  sed "s/^/$k /" "$3" >>"$T/lines"
  if [ -n "$(tail -c 1 "$3")" ]; then
    echo "the output does not end with a newline" >"$T/why.$k"
    echo >>"$T/lines"
  fi
  printf 'elif $k == %d then (%s)\n' "$k" "$2" >>"$T/filters"
}

# check DESCRIPTION EXIT FILTER ARGS...: runs peaceable ARGS; the exit status must be EXIT and
# the output must pass expect FILTER.
check() {
  desc=$1 want=$2 filter=$3
  shift 3
  "$P" "$@" >"$T/out" 2>"$T/err"
  rc=$?
  expect "$desc" "$filter" "$T/out"
  if [ "$rc" -ne "$want" ]; then
    echo "exit $rc, expected $want; stderr: $(head -c 200 "$T/err")" >"$T/why.$k"
  fi
}

# verdict DESCRIPTION: a check made here, true when the last command succeeded.
verdict() {
  rc=$?
  k=$((k + 1))
  echo "$1" >"$T/desc.$k"
  [ "$rc" -eq 0 ] || echo "false" >"$T/why.$k"
}

# armies
check "armies maximum" 0 'armies_max and .optimal and .size == 4' \
  armies --board 5 --method search --json --quiet
check "armies maximum, race" 0 'armies_max and .optimal' armies --board 5x4 --json --quiet
check "armies --white" 0 'armies_max and .optimal and .white == 3' \
  armies --board 5 --white 3 --method search --json --quiet
check "armies of knights" 0 'armies_max and .piece == "N"' \
  armies --board 4 --piece N --json --quiet
check "armies stopped by a node limit: not optimal" 3 'armies_max and (.optimal | not)' \
  armies --board 9 --method search --node-limit 5 --json --quiet
check "armies --table" 0 'armies_table(armies_max and .optimal)' \
  armies --table 1..5 --method search --json
[ "$(grep -c '"table"' "$T/out")" -eq 1 ] &&
  tail -n 1 "$T/out" | grep -q '"table":"1..5","boards":5,"complete":true,'
verdict "armies --table: five rows, then one summary object, complete"
check "armies --aggressor" 0 'aggressor and .optimal and .aggressor == 4' \
  armies --board 5 --aggressor --json --quiet
check "armies --table --aggressor" 0 'armies_table(aggressor and .optimal)' \
  armies --table 3..6 --aggressor --json --quiet
tail -n 1 "$T/out" | grep -q '"table":"3..6","boards":4,"complete":true,'
verdict "armies --table --aggressor: the summary last"
check "armies --size, feasible" 0 'armies_decision and .feasible' \
  armies --board 5 --size 4 --json --quiet
check "armies --size, infeasible" 0 'armies_decision and (.feasible | not)' \
  armies --board 5 --size 5 --json --quiet
check "armies --count" 0 'armies_count and .optimal and .count == 18' \
  armies --board 5 --count --json --quiet
check "armies --unique --size" 0 'armies_count and .feasible and absent("optimal")' \
  armies --board 4x5 --unique --size 3 --json --quiet
check "armies --count --size K, none: feasible false, proved by the count's search" 0 \
  'armies_count and .feasible == false and .proved_by == "search" and .count == 0' \
  armies --board 5 --size 6 --count --json --quiet
check "armies --colours 3 --count --size K, none: feasible false" 0 \
  'armies_count and .feasible == false and .proved_by == "search" and .count == 0' \
  armies --colours 3 --board 5 --size 4 --count --json --quiet
check "armies --list --size K, none: feasible false, count 0" 0 \
  'armies_listing and .feasible == false and .count == 0' \
  armies --board 5 --size 6 --list --json --quiet
check "armies --colours 3 --table" 0 'armies_table(colours_max and .optimal)' \
  armies --colours 3 --table 3..5 --json --quiet
tail -n 1 "$T/out" | grep -q '"piece":"Q","colours":3,"table":"3..5","boards":3,"complete":true,'
verdict "armies --colours 3 --table: the summary last, with the colours"
check "armies --table --count" 0 'armies_table(armies_count and .optimal)' \
  armies --table 2..5 --count --json
check "armies --table --count stopped by a limit: the summary not complete" 3 \
  'armies_table(armies_count) and (.complete | not)' \
  armies --table 9..10 --count --node-limit 300 --json --quiet
[ "$(grep -c '"count":null' "$T/out")" -eq 2 ] &&
  tail -n 1 "$T/out" | grep -q '"table":"9..10","boards":2,"complete":false,'
verdict "armies --table --count stopped: two rows without counts, then the summary, not complete"
check "armies --list" 0 'armies_listing' armies --board 4 --list --json --quiet
[ "$(grep -c '"problem"' "$T/out")" -eq 1 ] && tail -n 1 "$T/out" | grep -q '"count":112,'
verdict "armies --list: the placements, then one summary object with the count"
check "armies --list --unique" 0 'armies_listing' armies --board 5 --list --unique --json --quiet
check "armies --list --limit 3: three placements, then listed 3, complete false, the maximum" 0 \
  'armies_listing and (has("placement") or (.listed == 3 and .complete == false and .optimal))' \
  armies --board 5 --list --limit 3 --json --quiet
[ "$(grep -c '"placement"' "$T/out")" -eq 3 ]
verdict "armies --list --limit 3: exactly three placements"
check "armies --colours 3 --list --limit 2: two placements, then listed 2" 0 \
  'armies_listing and (has("placement") or (.listed == 2 and .complete == false))' \
  armies --board 6 --colours 3 --list --limit 2 --json --quiet
check "armies kings --list --limit 2: two placements, then listed 2" 0 \
  'armies_listing and (has("placement") or (.listed == 2 and .complete == false))' \
  armies --board 6 --piece K --list --limit 2 --json --quiet
# --limit at exactly the total: the listing runs to its end and is complete (one less: cut short).
for c in "18|armies --board 5 --list" "6|armies --board 5 --list --unique" \
  "144|armies --board 4 --colours 3 --list --jobs 2" "18|armies --board 4 --colours 3 --list --unique" \
  "16|qn --board 8 --list" "16|pieces --board 6 --pieces Q4N2 --list --jobs 2" \
  "2|pieces --board 6 --pieces Q4N2 --list --unique"; do
  n=${c%%|*} args=${c#*|}
  # shellcheck disable=SC2086
  check "$args --limit $n, its total: complete" 0 \
    "has(\"placement\") or ((if has(\"unique\") then .unique else .count end) == $n and (has(\"listed\") | not))" \
    $args --limit $n --json --quiet
  [ "$(grep -c '"placement"' "$T/out")" -eq "$n" ]
  verdict "$args --limit $n: all $n placements"
  # shellcheck disable=SC2086
  check "$args --limit $((n - 1)): cut short" 0 \
    "has(\"placement\") or (.listed == $((n - 1)) and .complete == false)" \
    $args --limit $((n - 1)) --json --quiet
done
check "armies --count stopped: its object, \"count\":null, nothing said of the size" 3 \
  'armies_count and .count == null and absent("feasible") and absent("optimal")' \
  armies --board 8 --count --size 9 --node-limit 2000 --jobs 1 --json --quiet
check "armies --size stopped: its object, size, nodes and seconds, nothing said of the size" 3 \
  '.problem == "armies" and board and piece and .size == 13 and int("nodes") and seconds and
   only(["problem","board","piece","size","nodes","seconds"])' \
  armies --board 11 --size 13 --node-limit 1000 --jobs 1 --json --quiet
check "armies --colours 3 --size stopped: its object, nothing said of the size" 3 \
  '.problem == "armies" and .colours == 3 and .size == 6 and int("nodes") and seconds and
   only(["problem","board","piece","colours","size","nodes","seconds"])' \
  armies --colours 3 --board 9 --size 6 --node-limit 10000 --jobs 1 --json --quiet
check "qn --size stopped: its object, nothing said of the size" 3 \
  '.problem == "qn" and .size == 8 and int("nodes") and seconds and
   only(["problem","board","kinds","ratio","size","nodes","seconds"])' \
  qn --board 12 --size 8 --method search --node-limit 1000 --jobs 1 --json --quiet
check "armies --list stopped: the placements, then listed and complete false" 3 \
  'armies_listing and (has("placement") or .feasible)' \
  armies --board 8 --list --size 4 --node-limit 20000 --jobs 1 --json --quiet
[ "$(grep -c '"placement"' "$T/out")" -gt 0 ] &&
  tail -n 1 "$T/out" | grep -q "\"listed\":$(grep -c '"placement"' "$T/out"),\"complete\":false"
verdict "armies --list stopped: its summary counts the placements printed"
check "armies --list stopped before the maximum is proven: a summary, none listed" 3 \
  'armies_listed and .listed == 0' armies --board 8 --list --json --node-limit 5 --jobs 1 --quiet
check "armies --colours 3 --list stopped before the maximum is proven: a summary, none listed" 3 \
  'armies_listed and .listed == 0' armies --colours 3 --board 6 --list --json --node-limit 5 \
  --jobs 1 --quiet
"$P" armies --board 7 --size 8 --checkpoint "$T/a8.ck" --quiet >/dev/null 2>&1
check "armies --size resumed (an impossibility on the checkpoint's word)" 0 \
  'armies_decision and .checked == false' armies --board 7 --size 8 --resume "$T/a8.ck" --json --quiet

# armies of three colours: the same shapes (issue 14: one JSON shape for one kind of answer)
check "armies --colours 3 maximum" 0 'colours_max and .optimal and .size == 1' \
  armies --colours 3 --board 5 --json --quiet
check "armies --colours 3 --size, feasible" 0 'colours_decision and .feasible' \
  armies --colours 3 --board 6 --size 2 --json --quiet
check "armies --colours 3 --size, infeasible" 0 'colours_decision and (.feasible | not)' \
  armies --colours 3 --board 6 --size 3 --json --quiet
check "armies --colours 3 --count" 0 'armies_count and .colours == 3 and .count == 1224' \
  armies --colours 3 --board 5 --count --json --quiet
check "armies --colours 3 --list --unique" 0 'armies_listing' \
  armies --colours 3 --board 5 --list --unique --json --quiet
[ "$(grep -c '"placement"' "$T/out")" -eq 153 ] && [ "$(grep -c '"problem"' "$T/out")" -eq 1 ] &&
  tail -n 1 "$T/out" | grep -q '"count":1224,"unique":153,'
verdict "armies --colours 3 --list --unique: 153 placement objects, then one summary"
check "armies --colours 3 --count stopped: its object, \"count\":null" 3 \
  'armies_count and .colours == 3 and .count == null' \
  armies --colours 3 --board 7 --count --size 3 --node-limit 20000 --jobs 1 --json --quiet
check "armies --colours 3 --list stopped: the placements, then listed and complete false" 3 \
  'armies_listing and (has("placement") or .feasible)' \
  armies --colours 3 --board 7 --list --size 3 --node-limit 200000 --jobs 1 --json --quiet
[ "$(grep -c '"placement"' "$T/out")" -gt 0 ] &&
  tail -n 1 "$T/out" | grep -q "\"listed\":$(grep -c '"placement"' "$T/out"),\"complete\":false"
verdict "armies --colours 3 --list stopped: its summary counts the placements printed"
"$P" armies --colours 3 --board 6 --size 2 --list --json --checkpoint "$T/cl.ck" --quiet >/dev/null
check "armies --colours 3 --list resumed: its summary says \"checked\":false" 0 \
  'armies_listing and (has("placement") or .checked == false)' \
  armies --colours 3 --board 6 --size 2 --list --json --resume "$T/cl.ck" --quiet

# armies parts, merge and checkpoints
check "armies --part (without --json: JSON anyway)" 0 'armies_part and .found' \
  armies --board 6 --size 5 --part 1/2 --quiet
cp "$T/out" "$T/found1"
"$P" armies --board 6 --size 5 --part 2/2 --quiet >"$T/found2" 2>/dev/null
for i in 1 2 3; do
  "$P" armies --board 7 --size 8 --part $i/3 --cert "$T/none$i" --quiet >/dev/null 2>&1
done
jq -c . "$T/none1" "$T/none2" "$T/none3" >"$T/none"
expect "armies --part --cert of an infeasible size: certificates with holes and marked parts" \
  'part_certificate' "$T/none"
for i in 1 2 3; do
  "$P" armies --board 7 --size 8 --part $i/3 --quiet >>"$T/partlines" 2>/dev/null
done
expect "armies --part of an infeasible size: lines without trees" \
  'armies_part and .done and (.found | not)' "$T/partlines"
check "merge, feasible (checked)" 0 'merged and .feasible' merge "$T/found1" "$T/found2" --json
"$P" armies --board 7 --size 7 --count --part 1/2 --quiet >"$T/cnt1"
"$P" armies --board 7 --size 7 --count --part 2/2 --quiet >"$T/cnt2"
check "merge of count parts: the object of armies --count --size, checked false" 0 \
  '(. + {seconds: 0} | armies_count) and .size == 7 and .feasible and .count == 304 and .checked == false and .parts == 2' merge "$T/cnt1" "$T/cnt2" \
  --json
check "merge, infeasible (on the parts' word)" 0 'merged and (.feasible | not)' \
  merge "$T/partlines" --json
for i in 1 2; do
  "$P" qn --board 6 --size 4 --part $i/2 >"$T/qnp$i"
  "$P" armies --board 6 --colours 3 --size 3 --part $i/2 >"$T/c3p$i"
  "$P" pieces --board 5 --pieces Q3K1 --part $i/2 >"$T/pp$i"
done
# Every merged answer ends alike: checked, the number of parts, their nodes.
check "qn merge, impossible: proved_by search, checked false, 2 parts" 0 \
  '.problem == "qn" and .feasible == false and .proved_by == "search" and .checked == false and
   .parts == 2' merge "$T/qnp1" "$T/qnp2" --json
check "colours merge, impossible: proved_by search, checked false, 2 parts" 0 \
  '.colours == 3 and .feasible == false and .proved_by == "search" and .checked == false and
   .parts == 2 and (keys_unsorted[-3:] == ["checked", "parts", "nodes"])' merge "$T/c3p1" "$T/c3p2" --json
check "pieces merge: the object of a count, checked false, 2 parts" 0 \
  'pieces and .count == 328 and .checked == false and .parts == 2' merge "$T/pp1" "$T/pp2" --json
for i in 1 2; do
  "$P" armies --colours 3 --board 5 --size 1 --count --part $i/2 --quiet >"$T/c3n$i"
  "$P" armies --colours 3 --board 5 --size 1 --list --part $i/2 --quiet >"$T/c3l$i"
done
check "colours merge of a count: the object of --count --size, checked false" 0 \
  '(. + {seconds: 0} | armies_count) and .feasible and .count == 1224 and .checked == false and
   .parts == 2' \
  merge "$T/c3n1" "$T/c3n2" --json
check "colours merge of a listing: the placements, then the summary of --list --size" 0 \
  'has("placement") or ((. + {seconds: 0} | armies_listed) and .feasible and .count == 1224 and .parts == 2)' \
  merge "$T/c3l1" "$T/c3l2" --json
check "merge --cert of part certificates: the checker's verdict" 0 '.problem == "armies" and .valid' \
  merge --json --cert "$T/merged.json" "$T/none1" "$T/none2" "$T/none3"
"$P" armies --board 7 --size 8 --cert "$T/c.json" --checkpoint "$T/ck.json" --quiet \
  >/dev/null 2>&1
# A checkpoint may span lines (outside strings): one object once they are joined.
if [ -s "$T/ck.json" ]; then tr '\n' ' ' <"$T/ck.json" && echo; fi >"$T/ck.line"
expect "armies --checkpoint writes one checkpoint object" 'checkpoint' "$T/ck.line"
"$P" armies --board 6 --piece N --method search --checkpoint "$T/kn.json" --quiet >/dev/null 2>&1
if [ -s "$T/kn.json" ]; then tr '\n' ' ' <"$T/kn.json" && echo; fi >"$T/kn.line"
expect "armies --piece N --checkpoint writes one knights' checkpoint object" 'knights_checkpoint' \
  "$T/kn.line"

# qn
check "qn maximum" 0 'qn and .optimal and .size == 2 and absent("count")' \
  qn --board 5 --method search --json --quiet
check "qn --kinds --ratio" 0 'qn and .kinds == "QR" and .ratio == "1:2"' \
  qn --board 5 --kinds QR --ratio 1:2 --json --quiet
check "qn --size, feasible" 0 'qn and .feasible' qn --board 5 --size 2 --json --quiet
check "qn --size, infeasible" 0 'qn and (.feasible | not)' qn --board 5 --size 3 --json --quiet
check "qn --count" 0 'qn and .optimal and .count == 156' qn --board 5 --count --json --quiet
"$P" qn --board 6 --checkpoint "$T/q.ck" --quiet >/dev/null 2>&1
check "qn resumed (its impossibility on the checkpoint's word)" 0 'qn and .optimal and .checked == false' \
  qn --board 6 --resume "$T/q.ck" --json --quiet
check "qn --unique --size" 0 'qn and has("count")' qn --board 5 --size 1 --unique --json --quiet
check "qn --size infeasible --count" 0 'qn and .count == 0' \
  qn --board 5 --size 3 --count --json --quiet
check "qn stopped by a node limit: not optimal" 3 'qn and (.optimal | not)' \
  qn --board 8 --method search --node-limit 5 --json --quiet
check "qn --table" 0 'if has("table") then qn_table_end and .complete else qn_row end' \
  qn --table 1..5 --json --quiet
tail -n 1 "$T/out" | grep -q '"kinds":"QN","ratio":"1:1","table":"1..5","boards":5,"complete":true,'
verdict "qn --table: the summary last"
check "qn --table stopped by a limit: every board has its row, the stopped ones not optimal" 3 \
  'if has("table") then qn_table_end and (.complete | not) else qn_row end' \
  qn --table 6..9 --node-limit 3000 --jobs 1 --json --quiet
[ "$(grep -c '"board"' "$T/out")" -eq 4 ] &&
  tail -n 2 "$T/out" | head -n 1 | grep -q '"optimal":false,' &&
  tail -n 1 "$T/out" | grep -q '"table":"6..9","boards":4,"complete":false,'
verdict "qn --table stopped: four rows, the last one not optimal, then the summary"
check "qn --list" 0 'qn_listing' qn --board 5 --list --json --quiet
[ "$(grep -c '"problem"' "$T/out")" -eq 1 ] && tail -n 1 "$T/out" | grep -q '"count":156,'
verdict "qn --list: the placements, then one summary object with the count"
check "qn --size --count stopped before the size was decided: its object, \"count\":null" 3 \
  'qn and absent("optimal") and absent("feasible") and .count == null' \
  qn --board 12 --size 8 --count --node-limit 1000 \
  --json --quiet
check "qn --size --list stopped before the size was decided: its summary, listed 0" 3 \
  'qn_listing and .listed == 0 and absent("optimal") and absent("feasible")' \
  qn --board 12 --size 8 --list --node-limit 1000 --json --quiet
check "qn --list --unique --limit" 0 'qn_listing and (has("placement") or .complete == false)' \
  qn --board 5 --list --unique --limit 3 --json
check "qn --list stopped before the maximum is proven: a summary, none listed" 3 \
  'qn_listed and .listed == 0 and .complete == false' \
  qn --board 8 --list --node-limit 2000 --jobs 1 --json --quiet
check "qn --size --count stopped: its object, \"count\":null" 3 \
  'qn and .feasible and has("count") and .count == null' \
  qn --board 6 --size 3 --count --node-limit 10 --jobs 1 --json --quiet
check "qn --count stopped before the maximum is proven: its object, \"count\":null" 3 \
  'qn and has("count") and .count == null and .optimal == false' \
  qn --board 8 --count --node-limit 2000 --jobs 1 --json --quiet
check "qn --size --count: no witness, as armies' counts at --size have none" 0 \
  'qn and .feasible and .count == 156 and absent("witness")' qn --board 5 --size 2 --count --json
# Listings in parts, merged, and resumed: the summary of one run's, with "checked":false.
for i in 1 2; do "$P" qn --board 6 --size 3 --list --part $i/2 --quiet >"$T/ql$i"; done
check "qn --list parts merged: the placements, then one summary, on the parts' word" 0 \
  'has("placement") or ((. + {seconds: 0} | qn_listed) and .count == 176 and .parts == 2)' \
  merge --json "$T/ql1" "$T/ql2"
for i in 1 2; do "$P" armies --board 6 --size 5 --list --part $i/2 --quiet >"$T/al$i"; done
check "armies --list parts merged: the placements, then one summary, on the parts' word" 0 \
  'has("placement") or ((. + {seconds: 0} | armies_listed) and .count == 560 and .parts == 2)' \
  merge --json "$T/al1" "$T/al2"
"$P" qn --board 6 --size 3 --list --checkpoint "$T/qlck" --quiet >/dev/null
check "qn --list resumed: the placements, then the summary, \"checked\":false" 0 \
  'qn_listing and (has("placement") or .checked == false)' \
  qn --board 6 --size 3 --list --resume "$T/qlck" --json --quiet
"$P" armies --board 6 --size 5 --list --checkpoint "$T/alck" --quiet >/dev/null
check "armies --list resumed: the placements, then the summary, \"checked\":false" 0 \
  'armies_listing and (has("placement") or .checked == false)' \
  armies --board 6 --size 5 --list --resume "$T/alck" --json --quiet

# pieces
check "pieces count" 0 'pieces and .count == 92 and absent("unique")' \
  pieces --pieces Q8 --json --quiet
check "pieces --unique" 0 'pieces and .count == 92 and .unique == 12' \
  pieces --pieces Q8 --unique --json --quiet
check "pieces, none" 0 'pieces and .count == 0' pieces --board 3 --pieces Q4 --json
check "pieces count stopped: its object, \"count\":null" 3 'pieces and has("count") and .count == null' \
  pieces --board 8 --pieces K3Q1B3R1N5 --unique --node-limit 3000000 --jobs 1 --json --quiet
check "pieces --list" 0 'pieces_listing' pieces --board 6 --pieces Q6 --list --json
[ "$(grep -c '"problem"' "$T/out")" -eq 1 ] && tail -n 1 "$T/out" | grep -q '"problem"'
verdict "pieces --list: the placements, then one summary object"
check "pieces --list --unique" 0 'pieces_listing' pieces --board 5 --pieces Q5 --list --unique --json
check "pieces --list --limit" 0 'pieces_listing and (has("placement") or .complete == false)' \
  pieces --board 5 --pieces Q5 --list --limit 2 --json
check "pieces --list stopped: the placements, then listed and complete false" 3 \
  'pieces_listing and (has("placement") or .complete == false)' \
  pieces --board 7 --pieces K2Q2N2 --list --node-limit 20000 --jobs 1 --json --quiet
[ "$(grep -c '"placement"' "$T/out")" -gt 0 ] &&
  tail -n 1 "$T/out" | grep -q "\"listed\":$(grep -c '"placement"' "$T/out"),\"complete\":false"
verdict "pieces --list stopped: its summary counts the placements printed"
"$P" pieces --board 5 --pieces K2Q1N2 --checkpoint "$T/p.ck" --quiet >/dev/null 2>&1
check "pieces resumed (a count on the checkpoint's word)" 0 'pieces and .checked == false' \
  pieces --board 5 --pieces K2Q1N2 --resume "$T/p.ck" --json --quiet
check "pieces, mixed" 0 'pieces and .pieces == "K2Q1N1" and seconds' \
  pieces --board 4 --pieces K2Q1N1 --json

# chess960
check "chess960 count" 0 'chess_count and .count == 960' chess960 --json
check "chess960 --number" 0 'chess_rank and .rank == "RNBQKBNR" and absent("fen")' \
  chess960 --number 518 --json
check "chess960 --position --diagram" 0 'chess_rank and .number == 518 and has("fen")' \
  chess960 --position RNBQKBNR --diagram --json
check "chess960 --random --seed" 0 'chess_rank and .seed == 7' chess960 --random --seed 7 --json
check "chess960 --all" 0 'if has("number") then chess_rank else chess_count end' \
  chess960 --all --json
[ "$(grep -c '"number"' "$T/out")" -eq 960 ] && tail -n 1 "$T/out" | grep -q '"count":960'
verdict "chess960 --all: 960 ranks, then one summary object with the count"

# verify
"$P" armies --board 5 --cert "$T/c5.json" --quiet >/dev/null 2>&1
# A valid verdict gives the claim it proves, as the certificate states it (no arrays: no proof).
def_claim='(.claim | type) == "object" and ([.claim | .. | arrays] | length) == 0 and
  (.claim | has("format") or has("version") or has("problem") | not)'
check "verify --json: the verdict and the claim checked" 0 ".problem == \"armies\" and .valid == true and
  bool(\"sampled\") and str(\"message\") and $def_claim and .claim.board == \"5x5\" and
  .claim.piece == \"Q\" and .claim.claim == \"maximum\" and .claim.white == 4 and .claim.black == 4 and
  .claim.infeasible.white == 5 and (.claim.witness | length) == 29 and
  (.claim.infeasible | has(\"complement\") | not) and
  only([\"problem\", \"valid\", \"sampled\", \"message\", \"claim\"])" verify "$T/c5.json" --json
check "verify --sample --json: the seed, to check the same sample again; no verdict (valid null, exit 3)" 3 \
  '.valid == null and .sampled and .seed == 7 and
   only(["problem", "valid", "sampled", "seed", "message", "claim"])' \
  verify "$T/c5.json" --sample 10 --seed 7 --json --quiet
"$P" qn --board 6 --count --cert "$T/q6.json" --quiet >/dev/null 2>&1
check "verify --json of a qn count: its claim, the count and the size" 0 \
  ".problem == \"qn\" and .valid and $def_claim and .claim.kinds == \"QN\" and .claim.claim == \"count\"" \
  verify "$T/q6.json" --json
jq -c '.white = 5 | .black = 5' "$T/c5.json" >"$T/c5f.json"
check "verify --json of an invalid certificate: no claim" 1 '.valid == false and absent("claim")' \
  verify "$T/c5f.json" --json
todo=0

# The judgement: the lines that fail their filter (or are not one JSON object), as "k text".
if ! jq -R -r "$DEFS"'
    def check($k): if false then true
'"$(cat "$T/filters")"'
      else false end;
    index(" ") as $i | (.[:$i] | tonumber) as $k | .[$i + 1:] as $text |
    if (try ($text | fromjson | type == "object" and check($k)) catch false) then empty
    else "\($k) \($text[:200])" end' "$T/lines" >"$T/bad" 2>"$T/jq-err"; then
  echo "# jq failed: $(head -c 300 "$T/jq-err")"
  seq 1 "$k" | sed 's/$/ (jq failed)/' >"$T/bad"
fi

echo "1..$k"
failed=0
i=0
while [ "$i" -lt "$k" ]; do
  i=$((i + 1))
  directive=""
  [ "$i" -eq "$todo" ] && directive=" # TODO verify prints text"
  if [ ! -e "$T/why.$i" ] && ! grep -q "^$i " "$T/bad"; then
    echo "ok $i - $(cat "$T/desc.$i")$directive"
  else
    echo "not ok $i - $(cat "$T/desc.$i")$directive"
    [ -n "$directive" ] || failed=$((failed + 1))
    [ -e "$T/why.$i" ] && sed 's/^/# /' "$T/why.$i"
    grep "^$i " "$T/bad" | head -3 | sed 's/^[0-9]* /# bad line: /'
  fi
done
[ "$failed" -eq 0 ]
