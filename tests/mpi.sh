#!/bin/sh
# mpi.sh: peaceable-mpi under mpirun gives the answers of one process (TAP; skipped
# when peaceable-mpi was not built: configure --with-mpi; tap-driver.sh reads a skip from the
# plan, and counts any nonzero exit, 77 included, as an error).
P=${PEACEABLE:-./peaceable}
M=${PEACEABLE_MPI:-./peaceable-mpi}
if [ ! -x "$M" ] || ! command -v mpirun >/dev/null 2>&1; then
  echo "1..0 # SKIP peaceable-mpi not built (configure --with-mpi)"
  exit 0
fi
# Open MPI refuses to run as root without these; --oversubscribe allows more ranks than cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
T=${TMPDIR:-/tmp}/peaceable-mpi.$$
mkdir -p "$T"
n=0
failed=0
check() {
  n=$((n + 1))
  if eval "$2"; then echo "ok $n - $1"; else
    failed=$((failed + 1))
    echo "not ok $n - $1"
  fi
}
strip() { sed 's/,"seconds":[0-9.]*//; s/,"nodes":[0-9]*//'; }

for np in 2 3; do
  a=$(mpirun -np $np --oversubscribe "$M" armies --board 10 --method search --json 2>/dev/null | strip)
  b=$("$P" armies --board 10 --method search --json --jobs 1 | strip)
  check "$np ranks: 10x10 maximum and witness as one process" "[ -n '$a' ] && [ '$a' = '$b' ]"
done
a=$(mpirun -np 2 --oversubscribe "$M" armies --board 11 --size 18 --json 2>/dev/null | strip)
b=$("$P" armies --board 11 --size 18 --json | strip)
check "2 ranks: 11x11 size 18 impossible, as one process" "[ -n '$a' ] && [ '$a' = '$b' ]"
mpirun -np 3 --oversubscribe "$M" armies --board 10 --size 15 --cert "$T/c.json" >/dev/null 2>&1
"$P" verify "$T/c.json" >/dev/null 2>&1
check "3 ranks: the certificate verifies" "[ $? -eq 0 ]"
a=$(mpirun -np 2 --oversubscribe "$M" armies --board 9 --count --json 2>/dev/null | strip)
b=$("$P" armies --board 9 --count --json | strip)
check "2 ranks: 9x9 counts as one process" "[ -n '$a' ] && [ '$a' = '$b' ]"
# Decisions run on the engine under MPI too: parts, checkpoints and resume. Rank 0 hands every
# part out and searches none, so the parts finished in the checkpoint were searched by the others.
a=$(mpirun -np 2 --oversubscribe "$M" armies --board 9 --size 13 --part 2/3 2>/dev/null)
b=$("$P" armies --board 9 --size 13 --part 2/3 --jobs 1 --quiet)
check "2 ranks: --part 2/3 prints the line of one process" \
  "[ -n '$a' ] && [ \"\$(echo '$a' | sed 's/,\"nodes.*//')\" = \"\$(echo '$b' | sed 's/,\"nodes.*//')\" ]"
mpirun -np 3 --oversubscribe "$M" armies --board 10 --size 15 --checkpoint "$T/ck.json" \
  --node-limit 80000 >/dev/null 2>&1
rc=$?
check "3 ranks, a node limit: exit 3, parts searched by the other ranks in the checkpoint" \
  "[ $rc -eq 3 ] && grep -q '\"found\":false},[1-9]' \"$T/ck.json\""
a=$(mpirun -np 3 --oversubscribe "$M" armies --board 10 --size 15 --checkpoint "$T/ck.json" \
  --resume "$T/ck.json" --json 2>/dev/null)
check "3 ranks, resumed: impossible, as one process" "echo '$a' | grep -q '\"feasible\":false'"
# A maximum of three colours keeps its checkpoint under MPI too, with its best army.
mpirun -np 2 --oversubscribe "$M" armies --colours 3 --board 8 --checkpoint "$T/c3.ck" \
  --node-limit 150000 --quiet >/dev/null 2>&1
rc=$?
a=$(mpirun -np 2 --oversubscribe "$M" armies --colours 3 --board 8 --checkpoint "$T/c3.ck" \
  --resume "$T/c3.ck" --json --quiet 2>/dev/null)
check "2 ranks: a maximum of three colours stopped (exit 3) and resumed: 4, proven" \
  "[ $rc -eq 3 ] && echo '$a' | grep -q '\"size\":4,\"optimal\":true,\"proved_by\":\"search\",\"checked\":false'"
# Every problem and mode through the one engine: the other ranks search, rank 0 answers.
same() {
  a=$(mpirun -np "$1" --oversubscribe "$M" $2 2>/dev/null | strip)
  b=$("$P" $2 | strip)
  check "$1 ranks: $2, as one process" "[ -n \"\$a\" ] && [ \"\$a\" = \"\$b\" ]"
}
same 3 "qn --board 8 --count --unique --json"
same 2 "qn --table 1..8 --json"
same 3 "qn --board 7 --size 4 --json"
same 2 "qn --board 8 --list --json"
same 3 "pieces --board 6 --pieces K2Q1B1N2 --unique --json"
same 2 "pieces --board 5 --pieces Q2N2 --list"
same 3 "pieces --board 6 --pieces Q2N3 --list --unique --limit 5 --json"
same 3 "armies --board 10 --count --unique --json"
same 2 "armies --board 8 --list --unique"
same 3 "armies --board 7 --colours 3 --json"
same 2 "armies --board 5 --colours 3 --size 1 --list --json"
same 3 "armies --board 5 --colours 3 --size 1 --list --unique --json"
same 2 "armies --board 8 --aggressor --json"
same 2 "armies --board 7 --piece K --json"
# Rank 0 applies the limits (the other ranks run without them) and stops their parts.
mpirun -np 3 --oversubscribe "$M" pieces --board 8 --pieces K2Q1B2R2N3 --node-limit 100000 \
  >"$T/out" 2>/dev/null
check "3 ranks: a pieces count stopped by a node limit, exit 3 and no total" \
  "[ $? -eq 3 ] && ! grep -q '[0-9]' \"$T/out\""
# A time limit cut rank 0's local search alone: rank 1 climbed from another start and the job
# aborted ("rank 1 does not follow rank 0's runs", exit 4). Every rank runs the same moves now.
mpirun -np 2 --oversubscribe "$M" armies --board 12 --time-limit 0.3 >"$T/out" 2>/dev/null
check "2 ranks, 12x12 stopped by a time limit: exit 3, the armies found, not proven" \
  "[ $? -eq 3 ] && grep -q 'not proven' \"$T/out\""
# A table keeps a checkpoint a board under MPI too; resumed, its rows are those of one process.
mpirun -np 2 --oversubscribe "$M" armies --table 8..11 --checkpoint "$T/tb" --node-limit 60000 \
  --json >/dev/null 2>&1
rc=$?
a=$(mpirun -np 2 --oversubscribe "$M" armies --table 8..11 --checkpoint "$T/tb" --resume "$T/tb" \
  --json 2>/dev/null | jq -c '{board, size, optimal}')
b=$("$P" armies --table 8..11 --json | jq -c '{board, size, optimal}')
check "2 ranks: a table stopped (exit 3) and resumed from its boards' checkpoints, as one process" \
  "[ $rc -eq 3 ] && [ -n \"\$a\" ] && [ \"\$a\" = \"\$b\" ]"
mpirun -np 2 --oversubscribe "$M" armies --board 8 --method race >/dev/null 2>&1
check "--method race under MPI: refused, exit 2" "[ $? -eq 2 ]"
mpirun -np 3 --oversubscribe "$M" qn --board 8 --count --cert "$T/qn.json" >/dev/null 2>&1
"$P" verify "$T/qn.json" >/dev/null 2>&1
check "3 ranks: a qn count certificate verifies" "[ $? -eq 0 ]"
out=$(mpirun -np 1 "$M" --version 2>/dev/null)
check "peaceable-mpi --version names peaceable-mpi" "[ '$out' = 'peaceable-mpi $("$P" --version | cut -d' ' -f2)' ]"
# Count certificates: the other ranks hold no trees or placements (rank 0 does); they failed
# (exit 4: "rank 1 does not follow rank 0's runs") or aborted (exit 134).
for args in "armies --board 7 --count" "armies --board 6 --count --size 4" \
  "armies --board 6 --piece B --count" "armies --board 5 --colours 3 --count"; do
  mpirun -np 2 --oversubscribe "$M" $args --cert "$T/mc.json" >"$T/mo" 2>/dev/null
  rc=$?
  # shellcheck disable=SC2086
  "$P" $args --cert "$T/pc.json" >"$T/po" 2>/dev/null
  check "2 ranks: $args --cert: the answer and certificate of one process" \
    "[ $rc -eq 0 ] && cmp -s '$T/mo' '$T/po' && cmp -s '$T/mc.json' '$T/pc.json'"
done
# A rank that runs other work than rank 0 (here another command line: MPMD) stops the job
# with a message, never a mixed answer.
mpirun --oversubscribe -np 1 "$M" armies --board 9 --count : -np 1 "$M" armies --board 10 \
  --count >"$T/out" 2>"$T/err"
rc=$?
check "a rank astray (another board): stopped, no answer, the message names both runs" \
  "[ $rc -ne 0 ] && ! grep -q '[0-9]' \"$T/out\" && grep -q 'rank 1 does not follow.*9x9.*10x10' \"$T/err\""
mpirun --oversubscribe -np 1 "$M" qn --board 9 --count : -np 1 "$M" verify "$T/none" \
  >"$T/out" 2>"$T/err"
rc=$?
check "a rank astray (done at once): stopped, no answer" \
  "[ $rc -ne 0 ] && ! grep -q '[0-9]' \"$T/out\" && grep -q 'does not follow' \"$T/err\""
mpirun -np 2 --oversubscribe "$M" armies --board 0 >/dev/null 2>&1
check "bad input under MPI: exit 2" "[ $? -eq 2 ]"

# Rank 0 may write its checkpoint before the other ranks start: they write no file and do not
# take it for another run's (they refused it, and rank 0 stopped: "rank 1 does not follow").
M_ABS=$(cd "$(dirname "$M")" && pwd)/$(basename "$M")
printf '#!/bin/sh\n[ "${OMPI_COMM_WORLD_RANK:-0}" = 0 ] || sleep 1\nexec "%s" "$@"\n' "$M_ABS" \
  >"$T/late.sh"
chmod +x "$T/late.sh"
mpirun -np 2 --oversubscribe "$T/late.sh" qn --board 10 --count --checkpoint "$T/late.ck" \
  --json >"$T/out" 2>"$T/err"
rc=$?
a=$(strip <"$T/out")
b=$("$P" qn --board 10 --count --json | strip)
check "a checkpoint written by rank 0 before the other ranks start: the answer of one process" \
  "[ $rc -eq 0 ] && [ -n '$a' ] && [ '$a' = '$b' ]"
mpirun -np 2 --oversubscribe "$M" qn --board 10 --count --checkpoint "$T/late.ck" >"$T/out" \
  2>"$T/err"
check "... and a new run over that checkpoint: refused (exit 2), not written over" \
  "[ $? -eq 2 ] && grep -q 'holds a checkpoint already' '$T/err'"

rm -rf "$T"
echo "1..$n"
[ "$failed" -eq 0 ]
