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
# valgrind cannot decode every instruction a -march=native build may use (AVX-512 here): a run it
# cannot execute dies with SIGILL, which would otherwise pass below as "no error found".
valgrind -q "$P" armies --board 4 --quiet >/dev/null 2>&1
if [ $? -eq 132 ]; then
  echo "1..0 # SKIP valgrind cannot execute this build's instructions (SIGILL; -march=native)"
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
  # 99: valgrind found an error; above 128: killed by a signal (a crash is no pass).
  if [ "$rc" -ne 99 ] && [ "$rc" -lt 128 ] && ! grep -q 'Invalid\|definitely lost\|indirectly lost' "$T/log"; then
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
run armies --colours 3 --board 6 --jobs 2 --cert "$T/c6.json"
run verify "$T/c6.json"
# A proof in three files, checked together on two threads (the file f proves cubes i % 3 = f).
"$P" armies --board 6 --size 6 --method search --cert "$T/i6.json" >/dev/null
for f in 0 1 2; do
  jq -c --argjson f $f '.infeasible.trees |= [to_entries[] |
    if .key % 3 == $f then "[" + .value + "]" else "#" end]' "$T/i6.json" >"$T/part$f.json"
done
run verify --jobs 2 "$T/part0.json" "$T/part1.json" "$T/part2.json"
run merge --cert "$T/whole.json" "$T/part0.json" "$T/part1.json" "$T/part2.json"
run chess960 --random --seed 3 --board
run armies --board 0
rm -rf "$T"
echo "1..$n"
[ "$failed" -eq 0 ]
