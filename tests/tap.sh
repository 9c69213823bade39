# tap.sh: the shell tests' TAP helpers, sourced by tests/*.sh (". tests/tap.sh" from $srcdir).
# Sets P (the program), T (a scratch folder, removed at exit), and counts results for tap_end.
P=${PEACEABLE:-./peaceable}
T=${TMPDIR:-/tmp}/peaceable-$(basename "$0" .sh).$$
mkdir -p "$T" || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }
# jq -e FILTER [FILES]: jq's own -e exits 0 when its input holds no value at all, so a check made
# with it could not fail on a command that printed nothing. Here -e needs at least one value, and
# every value must pass FILTER.
jq() {
  if [ "$1" = "-e" ]; then
    filter=$2
    shift 2
    command jq -e -n "[inputs] | length > 0 and all(.[]; $filter)" "$@"
  else
    command jq "$@"
  fi
}
# check DESCRIPTION CONDITION: CONDITION is evaluated by the shell.
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

# light: true when PEACEABLE_LIGHT is set, as .ci/run sets it for the suite under sanitizers,
# whose build runs five to ten times slower: the longest computations then take a smaller
# instance of the same code paths (the plain suite runs them in full).
light() { [ -n "${PEACEABLE_LIGHT:-}" ]; }

# run SECONDS ARGS...: runs peaceable, killed after SECONDS; sets rc, output in $T/out, $T/err.
run() {
  limit=$1
  shift
  timeout -s KILL "$limit" "$P" "$@" >"$T/out" 2>"$T/err"
  rc=$?
}

# meanwhile SECONDS ACTION ARGS...: runs peaceable ARGS in the background (output in $T/out and
# $T/err), runs the shell command ACTION after SECONDS ($pid is the run's), then waits for the
# run; sets rc.
meanwhile() {
  secs=$1 action=$2
  shift 2
  "$P" "$@" >"$T/out" 2>"$T/err" &
  pid=$!
  sleep "$secs"
  eval "$action"
  wait "$pid"
  rc=$?
}

# one_message NEEDLE: stderr is exactly one line "peaceable: ..." that contains NEEDLE.
one_message() {
  [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q '^peaceable: ' "$T/err" && grep -qF -- "$1" "$T/err"
}

# A listing's checkpoint keeps its lines in its lines file, FILE.lines: records "PART BYTES" and
# the part's lines. lines_edit AWK FROM TO: TO.lines is FROM.lines edited by AWK, TO the checkpoint
# FROM with its mark of the lines file made that of TO.lines, sealed again ($RESEAL).
lines_edit() {
  awk "$1" "$2.lines" >"$3.lines"
  cp "$2" "$3"
  "$RESEAL" "$3"
}

# line_moved FROM TO: as lines_edit, the first line of the lines file replaced by a line of
# another part (the first line of the first record whose part number differs).
line_moved() {
  awk 'NR == FNR {
      if (/ /) p = $1; else if (a == "") a = p; else if (p != a && s == "") s = $0
      next
    }
    !/ / && !done { print s; done = 1; next } { print }' "$1.lines" "$1.lines" >"$2.lines"
  cp "$1" "$2"
  "$RESEAL" "$2"
}

show() { echo "# exit $rc; stdout: $(head -c 200 "$T/out"); stderr: $(head -c 300 "$T/err")"; }

# refuse DESCRIPTION NEEDLE ARGS...: exit 2, nothing on stdout, one message containing NEEDLE.
refuse() {
  desc=$1 needle=$2
  shift 2
  run 30 "$@"
  if [ "$rc" -eq 2 ] && [ ! -s "$T/out" ] && one_message "$needle"; then ok "$desc"; else
    not_ok "$desc"
    show
  fi
}

# verdict DESCRIPTION EXIT PREFIX FILE [ARGS...]: verify FILE exits EXIT with one line PREFIX...
# on stdout and nothing on stderr.
verdict() {
  desc=$1 want=$2 prefix=$3
  shift 3
  # Checking a large proof under sanitizers (a light run) takes several times longer.
  run "$(light && echo 150 || echo 30)" verify "$@"
  if [ "$rc" -eq "$want" ] && [ ! -s "$T/err" ] && [ "$(wc -l <"$T/out")" -eq 1 ] &&
    grep -q "^$prefix" "$T/out"; then ok "$desc"; else
    not_ok "$desc"
    show
  fi
}

# tap_end: the plan, and the exit status.
tap_end() {
  echo "1..$n"
  [ "$failed" -eq 0 ]
}
