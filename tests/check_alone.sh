#!/bin/sh
# check_alone.sh: the checkers are a library of their own (TAP). tests/check_alone links them with
# libcheck.a and libpqcore.a only; here it must give `peaceable verify`'s verdicts, and the
# checkers' objects must name no symbol of the search, the calculus or the integer programs.
. "${srcdir:-$(dirname "$0")/..}/tests/tap.sh"
build=$(cd "$(dirname "$P")" && pwd)
alone=$build/tests/check_alone

check "tests/check_alone was built from the checkers and the core alone" "[ -x \"$alone\" ]"
# Every pq_ symbol the checkers use is defined in libcheck.a or libpqcore.a.
defined=$(nm -g --defined-only "$build/libcheck.a" "$build/libpqcore.a" 2>/dev/null |
  awk 'NF == 3 {print $3}' | sort -u)
used=$(nm -u "$build/libcheck.a" 2>/dev/null | awk '$1 == "U" && $2 ~ /^pq_/ {print $2}' | sort -u)
foreign=$(echo "$used" | while read -r sym; do
  [ -n "$sym" ] && ! echo "$defined" | grep -qx "$sym" && echo "$sym"
done | tr '\n' ' ')
check "the checkers' objects use pq_ symbols of libcheck.a and libpqcore.a only${foreign:+ (also: $foreign)}" \
  "[ -n \"$used\" ] && [ -z \"$foreign\" ]"
for sym in pq_search_run pq_calc_new pq_sym_square pq_armies_decide pq_qn_decide pq_lp_solve \
  pq_board_new pq_board_parse; do
  check "the checkers do not reference $sym" "! nm -u \"$build/libcheck.a\" | grep -qw $sym"
done

# The same verdicts as peaceable verify: valid certificates of every kind, forged and damaged
# ones refused.
same() {
  desc=$1 file=$2
  "$P" verify "$file" >"$T/v1" 2>/dev/null
  r1=$?
  "$alone" "$file" >"$T/v2" 2>/dev/null
  r2=$?
  check "$desc: exit $r1 from both, same verdict" "[ $r1 -eq $r2 ] && cmp -s \"$T/v1\" \"$T/v2\""
}
"$P" armies --board 7 --cert "$T/a7.json" >/dev/null
same "armies 7x7 maximum" "$T/a7.json"
"$P" armies --board 6 --piece B --cert "$T/b6.json" >/dev/null
same "armies 6x6 bishops maximum" "$T/b6.json"
"$P" armies --board 5x3 --piece K --cert "$T/k53.json" >/dev/null
same "armies 5x3 kings maximum" "$T/k53.json"
"$P" armies --board 8 --size 10 --cert "$T/i8.json" >/dev/null
same "armies 8x8 size 10 infeasible" "$T/i8.json"
"$P" qn --board 8 --cert "$T/q8.json" >/dev/null
same "qn 8x8 maximum" "$T/q8.json"
"$P" armies --colours 3 --board 6 --count --cert "$T/c6.json" --quiet >/dev/null
same "armies of 3 colours, 6x6 count" "$T/c6.json"
sed 's/"unique":3318/"unique":3319/' "$T/c6.json" >"$T/badc.json"
same "armies of 3 colours, a count's classes changed" "$T/badc.json"
sed 's/"white":7,"black":7/"white":8,"black":7/' "$T/a7.json" >"$T/bad.json"
same "armies, a witness miscounted" "$T/bad.json"
sed 's/"size":5/"size":6/' "$T/q8.json" >"$T/badq.json"
same "qn, a size changed" "$T/badq.json"
"$alone" "$T/a7.json" >"$T/v" 2>&1
check "check_alone says valid for a valid certificate" "[ $? -eq 0 ] && grep -q '^valid: ' \"$T/v\""
"$alone" "$T/bad.json" >"$T/v" 2>&1
check "check_alone says invalid for a forged one" "[ $? -eq 1 ] && grep -q '^invalid: ' \"$T/v\""

tap_end
