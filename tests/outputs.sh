#!/bin/sh
# outputs.sh: output that cannot be written (TAP). Every command and mode writing its results to
# a full device exits 2 with one message; every option naming a file the program writes is
# checked before the run, so that a bad path fails at once, not after hours of search.
P=${PEACEABLE:-./peaceable}
T=${TMPDIR:-/tmp}/peaceable-outputs.$$
mkdir -p "$T" || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM
if [ ! -w /dev/full ]; then
  echo "1..0 # SKIP no writable /dev/full"
  exit 77
fi
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }

show() { echo "# exit $rc; stderr: $(head -c 300 "$T/err")"; }

# one_message NEEDLE: stderr is exactly one line "peaceable: ..." that contains NEEDLE.
one_message() {
  [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q '^peaceable: ' "$T/err" && grep -qF -- "$1" "$T/err"
}

# full DESCRIPTION ARGS...: peaceable ARGS with stdout on /dev/full (killed after 60 s) exits 2
# with one message saying that writing the output failed.
full() {
  desc=$1
  shift
  timeout -s KILL 60 "$P" "$@" >/dev/full 2>"$T/err"
  rc=$?
  if [ "$rc" -eq 2 ] && one_message "writing the output failed"; then ok "$desc"; else
    not_ok "$desc"
    show
  fi
}

# Inputs for verify and merge, written by the commands themselves.
"$P" armies --board 4 --jobs 1 --quiet --cert "$T/a4.json" >/dev/null 2>&1
"$P" qn --board 4 --jobs 1 --quiet --cert "$T/q4.json" >/dev/null 2>&1
"$P" armies --board 5 --size 5 --part 1/1 --jobs 1 --quiet >"$T/ap.json" 2>/dev/null
"$P" qn --board 5 --size 3 --part 1/1 --jobs 1 --quiet >"$T/qp.json" 2>/dev/null
"$P" pieces --board 5 --pieces Q5 --part 1/1 --jobs 1 --quiet >"$T/pp.json" 2>/dev/null
for f in a4 q4 ap qp pp; do
  [ -s "$T/$f.json" ] || echo "# input $f.json was not written"
done

full "--help" --help
full "--version" --version
full "armies --help" armies --help
full "verify --help" verify --help
full "armies: the maximum" armies --board 6 --jobs 1 --quiet
full "armies: the maximum, JSON" armies --board 6 --jobs 1 --quiet --json
full "armies --white" armies --board 5 --white 2 --jobs 1 --quiet
full "armies --size" armies --board 6 --size 5 --jobs 1 --quiet
full "armies --count" armies --board 5 --count --jobs 1 --quiet
full "armies --list" armies --board 5 --list --jobs 1 --quiet
full "armies --table (text)" armies --table 1..5 --jobs 1 --quiet
full "armies --table --format bfile" armies --table 1..8 --format bfile --jobs 1 --quiet
full "armies --table --format csv" armies --table 1..5 --format csv --jobs 1 --quiet
full "armies --table --json" armies --table 1..5 --json --jobs 1 --quiet
full "armies --table --count" armies --table 1..5 --count --jobs 1 --quiet
full "armies --part" armies --board 5 --size 5 --part 1/2 --jobs 1 --quiet
full "qn: the maximum" qn --board 5 --jobs 1 --quiet
full "qn --size" qn --board 5 --size 3 --jobs 1 --quiet
full "qn --count" qn --board 5 --count --jobs 1 --quiet
full "qn --list" qn --board 5 --list --jobs 1 --quiet
full "qn --table (text)" qn --table 1..5 --jobs 1 --quiet
full "qn --table --format bfile" qn --table 1..5 --format bfile --jobs 1 --quiet
full "qn --table --format csv" qn --table 1..5 --format csv --jobs 1 --quiet
full "qn --table --json" qn --table 1..5 --json --jobs 1 --quiet
full "qn --part" qn --board 5 --size 3 --part 1/2 --jobs 1 --quiet
full "qn --part --count" qn --board 5 --size 3 --count --part 1/2 --jobs 1 --quiet
full "pieces: a count" pieces --board 5 --pieces Q5 --jobs 1 --quiet
full "pieces --unique --json" pieces --board 5 --pieces Q5 --unique --json --jobs 1 --quiet
full "pieces --list" pieces --board 5 --pieces Q5 --list --jobs 1 --quiet
full "pieces --part" pieces --board 5 --pieces Q5 --part 1/2 --jobs 1 --quiet
full "chess960 --all" chess960 --all
full "chess960 --number" chess960 --number 518
full "chess960 --position" chess960 --position RNBQKBNR
full "chess960 --random --board" chess960 --random --seed 7 --board
full "chess960 --json" chess960 --number 3 --json
full "verify of an armies certificate" verify "$T/a4.json"
full "verify of a qn certificate" verify "$T/q4.json"
full "verify --json" verify --json "$T/a4.json"
full "merge of armies parts" merge "$T/ap.json"
full "merge of qn parts" merge "$T/qp.json"
full "merge of pieces parts" merge "$T/pp.json"

echo "1..$n"
[ "$failed" -eq 0 ]
