#!/bin/sh
# valgrind.sh: a representative run of each command under valgrind: no leak, no invalid access
# (TAP; skipped without valgrind, and in sanitizer builds, which valgrind cannot run).
P=${PEACEABLE:-./peaceable}
if ! command -v valgrind >/dev/null 2>&1; then
  echo "1..0 # SKIP valgrind not installed"
  exit 0
fi
if ldd "$P" 2>/dev/null | grep -q 'libasan\|libubsan'; then
  echo "1..0 # SKIP built with sanitizers"
  exit 0
fi
T=${TMPDIR:-/tmp}/peaceable-valgrind.$$
mkdir -p "$T"
n=0
failed=0
run() {
  n=$((n + 1))
  valgrind --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=99 -q \
    "$P" "$@" >/dev/null 2>"$T/log"
  rc=$?
  if [ "$rc" -ne 99 ] && ! grep -q 'Invalid\|definitely lost\|indirectly lost' "$T/log"; then
    echo "ok $n - valgrind: peaceable $*"
  else
    failed=$((failed + 1))
    echo "not ok $n - valgrind: peaceable $*"
    sed 's/^/# /' "$T/log" | head -20
  fi
}
run armies --board 6 --method race --cert "$T/a6.json"
run armies --board 5 --count
run armies --board 8 --size 10 --jobs 2 --checkpoint "$T/ck.json"
run armies --board 8 --size 10 --part 1/2 --cert "$T/p1.json"
"$P" armies --board 8 --size 10 --part 2/2 --cert "$T/p2.json" >/dev/null
run merge "$T/p1.json" "$T/p2.json" --cert "$T/m.json"
run verify "$T/a6.json"
run qn --board 6 --count --method search --jobs 2
run qn --board 6 --cert "$T/q6.json" --method search
run verify "$T/q6.json"
run pieces --board 5 --pieces K2Q1N2 --unique
run pieces --board 4 --pieces Q4 --list --svg "$T/p.svg"
run chess960 --random --seed 3 --board
run armies --board 0
rm -rf "$T"
echo "1..$n"
[ "$failed" -eq 0 ]
