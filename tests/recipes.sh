#!/bin/sh
# recipes.sh: the recipes of README.md and doc/peaceable.1 for runs in parts, merged into a
# certificate, work as printed (TAP). Each command is taken from the text, with one substitution
# where the text's board would be slow (said in the test's name), run by sh in an empty
# directory where "peaceable" and "./peaceable" are the program under test, and the merged
# certificate must pass 'peaceable verify'.
P=${PEACEABLE:-./peaceable}
case $P in /*) ;; *) P=$(pwd)/$P ;; esac
SRC=$(cd "${srcdir:-$(dirname "$0")/..}" && pwd)
README=$SRC/README.md
MAN=$SRC/doc/peaceable.1
T=${TMPDIR:-/tmp}/peaceable-recipes.$$
mkdir -p "$T/bin" || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM
ln -s "$P" "$T/bin/peaceable"
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }

# fresh NAME: an empty directory $T/NAME to run a recipe in, made current.
fresh() {
  mkdir "$T/$1" && cd "$T/$1" && ln -s "$T/bin/peaceable" peaceable
}

# run COMMAND: runs one command line of a recipe as printed (killed after 120 s); sets rc, its
# stdout in $T/out and stderr in $T/err.
run() {
  echo "# \$ $1"
  PATH="$T/bin:$PATH" timeout -s KILL 120 sh -c "$1" >"$T/out" 2>"$T/err"
  rc=$?
}

show() { echo "# exit $rc; stdout: $(head -c 300 "$T/out"); stderr: $(head -c 300 "$T/err")"; }

# substitute TEXT FROM TO: TEXT with its one occurrence of FROM replaced by TO; fails (prints
# nothing) when FROM does not occur exactly once, so that a recipe changed in the text is noticed.
substitute() {
  case $1 in *"$2"*"$2"*) return 1 ;; *"$2"*) ;; *) return 1 ;; esac
  printf '%s\n' "${1%%"$2"*}$3${1#*"$2"}"
}

# ---- README.md: ten armies parts with --cert, merged into a certificate, verified.
# Lines of the README's shell examples are "$ COMMAND   # comment".
readme_line() { grep -e "$1" "$README" | head -1 | sed 's/^\$ //; s/ *#.*$//'; }
part=$(readme_line '^\$ \./peaceable armies .*--part 3/10')
together=$(readme_line '^\$ \./peaceable verify part')
merge=$(readme_line '^\$ \./peaceable merge --cert')
small=$(substitute "$part" "--board 12 --size 22" "--board 8 --size 10")
if [ -n "$small" ] && [ -n "$merge" ]; then
  ok "README.md: the armies recipe in parts is there"
else
  not_ok "README.md: the armies recipe in parts is there (part: '$part', merge: '$merge')"
fi
if [ -n "$small" ] && [ -n "$merge" ] && fresh readme-armies; then
  all=true
  for i in 1 2 3 4 5 6 7 8 9 10; do
    cmd=$(substitute "$small" "--part 3/10" "--part $i/10") &&
      cmd=$(substitute "$cmd" "part3." "part$i.") || cmd=false
    run "$cmd"
    [ "$rc" -eq 0 ] || {
      all=false
      show
    }
  done
  $all && ok "README.md: the ten parts run (--board 12 --size 22 made --board 8 --size 10)" ||
    not_ok "README.md: the ten parts run (--board 12 --size 22 made --board 8 --size 10)"
  run "$together"
  if [ "$rc" -eq 0 ] && grep -q "^valid: .*10 white and 10 black do not fit.*in 10 files" "$T/out"; then
    ok "README.md: verify as printed checks the ten files as one proof"
  else
    not_ok "README.md: verify as printed checks the ten files as one proof ('$together')"
    show
  fi
  run "$merge"
  if [ "$rc" -eq 0 ] && grep -q "^valid: .*in 10 files" "$T/out"; then
    ok "README.md: merge --cert as printed checks the files, then writes the certificate"
  else
    not_ok "README.md: merge --cert as printed checks the files, then writes the certificate"
    show
  fi
  run "peaceable verify c12.json"
  if [ "$rc" -eq 0 ] && grep -q "^valid: .*10 white and 10 black do not fit" "$T/out"; then
    ok "README.md: the merged certificate verifies"
  else
    not_ok "README.md: the merged certificate verifies"
    show
  fi
fi

# ---- README.md: a pieces count in two parts, merged: the count of one run.
part=$(readme_line '^\$ \./peaceable pieces .*--part 1/2')
merge=$(readme_line '^\$ \./peaceable merge p1')
small=$(substitute "$part" "--board 9" "--board 6")
if [ -n "$small" ] && [ -n "$merge" ] && fresh readme-pieces; then
  all=true
  for i in 1 2; do
    cmd=$(substitute "$small" "--part 1/2" "--part $i/2") &&
      cmd=$(substitute "$cmd" "p1." "p$i.") || cmd=false
    run "$cmd"
    [ "$rc" -eq 0 ] || all=false
  done
  run "$merge"
  got=$(cat "$T/out")
  want=$("$P" pieces --board 6 --pieces K2Q1B2R2N3 --jobs 1 --quiet)
  if $all && [ "$rc" -eq 0 ] && [ -n "$want" ] && [ "$got" = "$want" ]; then
    ok "README.md: pieces in two parts, merged as printed, count as one run (--board 9 made 6)"
  else
    not_ok "README.md: pieces in two parts, merged as printed, count as one run (--board 9 made 6)"
    show
  fi
else
  not_ok "README.md: the pieces recipe in parts is there (part: '$part', merge: '$merge')"
fi

# ---- doc/peaceable.1, EXAMPLES: four armies parts with --cert, merged and verified.
# man_block TEXT: the lines of the .nf block after the paragraph starting with TEXT, with the
# roff escapes \- and \& taken out.
man_block() {
  awk -v text="$1" '
    index($0, text) == 1 { found = 1 }
    found && /^\.nf/ { inside = 1; next }
    inside && /^\.fi/ { exit }
    inside { print }
  ' "$MAN" | sed 's/\\-/-/g; s/\\&//g'
}
man_block "Whether 18 queens" >"$T/man-recipe"
first=$(sed -n 1p "$T/man-recipe")
last_part=$(grep -e '--part 4/4' "$T/man-recipe")
rest=$(grep -v -e '--part' -e '^\.\.\.$' "$T/man-recipe")
small=$(substitute "$first" "--board 11 --size 18" "--board 8 --size 10")
want_last=$(substitute "$first" "--part 1/4" "--part 4/4") &&
  want_last=$(substitute "$want_last" "p1." "p4.")
if [ -n "$small" ] && [ -n "$rest" ] && [ "$last_part" = "$want_last" ] &&
  [ "$(sed -n 2p "$T/man-recipe")" = "..." ]; then
  ok "peaceable.1: the recipe in parts is there, parts 1 and 4 alike"
else
  not_ok "peaceable.1: the recipe in parts is there, parts 1 and 4 alike"
  sed 's/^/# /' "$T/man-recipe"
fi
if [ -n "$small" ] && [ -n "$rest" ] && fresh man-armies; then
  all=true
  for i in 1 2 3 4; do
    cmd=$(substitute "$small" "--part 1/4" "--part $i/4") &&
      cmd=$(substitute "$cmd" "p1." "p$i.") || cmd=false
    run "$cmd"
    [ "$rc" -eq 0 ] || all=false
  done
  $all && ok "peaceable.1: the four parts run (--board 11 --size 18 made --board 8 --size 10)" ||
    not_ok "peaceable.1: the four parts run (--board 11 --size 18 made --board 8 --size 10)"
  # The lines after the parts (merge, verify) as printed, each of which must succeed.
  all=true
  echo "$rest" >"$T/man-rest"
  while IFS= read -r cmd; do
    run "$cmd"
    [ "$rc" -eq 0 ] || {
      all=false
      show
    }
  done <"$T/man-rest"
  if $all && grep -q "merge" "$T/man-rest" &&
    grep -q "^valid: .*10 white and 10 black do not fit" "$T/out"; then
    ok "peaceable.1: merged as printed, and the certificate verifies"
  else
    not_ok "peaceable.1: merged as printed, and the certificate verifies"
  fi
  [ -s c.json ] || echo "# no c.json"
  run "peaceable verify c.json"
  [ "$rc" -eq 0 ] && ok "peaceable.1: peaceable verify c.json" || {
    not_ok "peaceable.1: peaceable verify c.json"
    show
  }
fi

# ---- doc/peaceable.1, EXAMPLES: a certificate written and checked, as printed.
cmd=$(man_block "The maximum on 8" | grep -e '--cert')
if [ -n "$cmd" ] && fresh man-cert; then
  run "$cmd"
  if [ "$rc" -eq 0 ] && grep -q "^valid: " "$T/out"; then
    ok "peaceable.1: a certificate written and checked, as printed"
  else
    not_ok "peaceable.1: a certificate written and checked, as printed"
    show
  fi
else
  not_ok "peaceable.1: the recipe of a certificate written and checked is there"
fi

# ---- README.md: a table stopped, then gone on with from its boards' checkpoints.
first=$(readme_line '^\$ \./peaceable qn --table .*--time-limit')
again=$(readme_line '^\$ \./peaceable qn --table .*--resume')
small=$(substitute "$first" "1..14" "5..9") &&
  small=$(substitute "$small" "--time-limit 3600" "--node-limit 20000")
again=$(substitute "$again" "1..14" "5..9")
if [ -n "$small" ] && [ -n "$again" ] && fresh readme-table; then
  run "$small"
  first_rc=$rc
  run "$again"
  if [ "$first_rc" -eq 3 ] && [ "$rc" -eq 0 ] && grep -q '^  9x9 *6 .* 16 *2$' "$T/out"; then
    ok "README.md: a table stopped and gone on with, as printed (1..14 made 5..9, a node limit)"
  else
    not_ok "README.md: a table stopped and gone on with, as printed ('$small', then '$again')"
    show
  fi
else
  not_ok "README.md: the recipe of a table with checkpoints is there ('$first', '$again')"
fi

echo "1..$n"
[ "$failed" -eq 0 ]
