#!/bin/sh
# layout.sh: the layout the one-engine issue asks for, as facts of the tree (TAP): no source file
# of src/ or problems/ over 900 lines, no function over 100 (from its first line to its closing
# brace, as clang-format lays them out: a function's closing brace alone at the line's start),
# threads started in one place (pthread_create in src/core/util.c only), and every C source as
# clang-format lays it out.
. "${srcdir:-$(dirname "$0")/..}/tests/tap.sh"
top=${srcdir:-$(dirname "$0")/..}
files=$(cd "$top" && find src problems -name '*.[ch]' | sort)
check "the sources are found" "[ -n \"$files\" ]"

long=$(cd "$top" && for f in $files; do
  [ "$(wc -l <"$f")" -gt 900 ] && echo "$f"
done | tr '\n' ' ')
check "no source file over 900 lines${long:+ (over: $long)}" "[ -z \"$long\" ]"

# functions LIMIT FILES...: the functions over LIMIT lines, as FILE:LINE:LINES.
functions() {
  limit=$1
  shift
  awk -v limit="$limit" '
    FNR == 1 { infn = 0; sig = 0 }
    infn && /^}/ { n = FNR - start + 1; if (n > limit) print FILENAME ":" start ":" n; infn = 0; next }
    infn { next }
    !sig && /^[A-Za-z_]/ { start = FNR; sig = 1 }
    sig && /\) \{$/ { infn = 1; sig = 0; next }
    sig && (/;$/ || /^}/ || /[^)] \{$/) { sig = 0 }' "$@"
}
big=$(cd "$top" && functions 100 $(echo "$files" | grep '\.c$') | tr '\n' ' ')
check "no function over 100 lines${big:+ (over: $big)}" "[ -z \"$big\" ]"
# The measure itself: a function of 101 lines is found, one of 100 is not.
{
  echo 'static int f(int x) {'
  i=0
  while [ $i -lt 98 ]; do echo '  x++;'; i=$((i + 1)); done
  echo '}'
} >"$T/f100.c"
{ sed '$d' "$T/f100.c"; echo '  x++;'; echo '}'; } >"$T/f101.c"
check "the measure finds a function of 101 lines and passes one of 100" \
  "[ -z \"\$(functions 100 \"$T/f100.c\")\" ] && [ \"\$(functions 100 \"$T/f101.c\")\" = \"$T/f101.c:1:101\" ]"

# The layout of the text: every C source as clang-format (.clang-format, `make format`) lays it
# out. The test needs clang-format (installed by the README's test command); without it, skipped.
if command -v clang-format >/dev/null 2>&1; then
  cfiles=$(cd "$top" && find src problems tests -name '*.[ch]' | sort)
  drift=$(cd "$top" && for f in $cfiles; do
    clang-format --dry-run "$f" 2>&1 | grep -q 'warning:' && echo "$f"
  done | tr '\n' ' ')
  check "every C source is as clang-format lays it out${drift:+ (not: $drift)}" "[ -z \"$drift\" ]"
  printf 'int f(int x) { if (x) {\n return 1; }\n  return 0;\n}\n' >"$T/ugly.c"
  cp "$top/.clang-format" "$T/.clang-format"
  check "the measure finds a file clang-format would change" \
    "clang-format --dry-run '$T/ugly.c' 2>&1 | grep -q 'warning:'"
else
  ok "every C source is as clang-format lays it out # SKIP clang-format not installed"
fi

threads=$(cd "$top" && grep -l 'pthread_create' $files | tr '\n' ' ')
check "threads are started in src/core/util.c only (found in: $threads)" \
  "[ \"$threads\" = 'src/core/util.c ' ]"
tap_end
