#!/bin/sh
# manpage.sh: doc/peaceable.1 documents what the program offers (TAP): the commands of
# 'peaceable --help' are the subsections of COMMANDS, each command's options in
# 'peaceable COMMAND --help' are the option entries of its subsection (name and value
# placeholder), and the exit codes of 'peaceable --help' are those of EXIT STATUS.
P=${PEACEABLE:-./peaceable}
LC_ALL=C
export LC_ALL
MAN=${srcdir:-$(dirname "$0")/..}/doc/peaceable.1
T=$(mktemp -d "${TMPDIR:-/tmp}/peaceable-manpage.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }
# same DESCRIPTION FILE_A FILE_B: the two sorted lists are equal; the differences otherwise.
same() {
  if cmp -s "$2" "$3"; then ok "$1"; else
    not_ok "$1"
    comm -23 "$2" "$3" | sed 's/^/# only in --help: /'
    comm -13 "$2" "$3" | sed 's/^/# only in the man page: /'
  fi
}

if [ ! -r "$MAN" ]; then
  echo "1..1"
  echo "not ok 1 - the man page $MAN is readable"
  exit 1
fi

# The man page's option entries: "COMMAND<tab>--name PLACEHOLDER", from a ".TP" followed by
# ".B \-\-name" or ".BI \-\-name " PLACEHOLDER"" in the subsection ".SS COMMAND" of COMMANDS.
awk -v commands="$T/man-commands" '
  /^\.SH/ { in_commands = ($0 ~ /^\.SH "?COMMANDS"?[ \t]*$/); command = ""; next }
  !in_commands { next }
  /^\.SS/ { command = $0; sub(/^\.SS[ \t]+/, "", command); gsub(/"/, "", command);
            gsub(/\\-/, "-", command); print command > commands; tp = 0; next }
  /^\.TP/ { tp = 1; next }
  tp && /^\.BI? +\\-\\-/ {
    tag = $0; sub(/^\.BI? +/, "", tag); gsub(/\\-/, "-", tag); gsub(/"/, "", tag);
    gsub(/[ \t]+/, " ", tag); sub(/ $/, "", tag);
    print command "\t" tag
  }
  { tp = 0 }
' "$MAN" >"$T/man-options"
touch "$T/man-commands"

# The commands of 'peaceable --help': the first word of each line under "Commands:".
"$P" --help >"$T/help" 2>&1
awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on && /^  [^ ]/ { print $1 }' \
  "$T/help" | sort >"$T/help-commands"
grep -v '^peaceable-mpi$' "$T/man-commands" | sort >"$T/man-commands-sorted"

ncommands=$(wc -l <"$T/help-commands")
echo "1..$((ncommands + 4))"

if [ "$ncommands" -ge 6 ]; then ok "peaceable --help lists $ncommands commands"; else
  not_ok "peaceable --help lists the commands (found $ncommands)"
fi
same "the man page has a subsection for every command and no other" \
  "$T/help-commands" "$T/man-commands-sorted"

# Each command: the options of its --help ("--name PLACEHOLDER" before two spaces; a left
# column that fills the 24 characters is followed by one space only, and a placeholder starts
# with a capital letter) against its man page entries.
for c in $(cat "$T/help-commands"); do
  "$P" "$c" --help 2>&1 | awk '
    /^  --/ {
      s = substr($0, 3); i = index(s, "  ");
      if (i > 0) left = substr(s, 1, i - 1);
      else { split(s, w, " "); left = w[1]; if (w[2] ~ /^[A-Z]/) left = left " " w[2] }
      print left
    }' | sort >"$T/help-$c"
  awk -F '\t' -v c="$c" '$1 == c { print $2 }' "$T/man-options" | sort >"$T/man-$c"
  if [ "$(wc -l <"$T/help-$c")" -lt 2 ] || [ "$(wc -l <"$T/man-$c")" -lt 2 ]; then
    not_ok "$c: options parsed from --help ($(wc -l <"$T/help-$c")) and from the man page ($(
      wc -l <"$T/man-$c"))"
  else
    same "$c: the options of --help are those the man page documents" "$T/help-$c" "$T/man-$c"
  fi
done

# Exit codes: "Exit codes: 0 done; 1 ...; 130 interrupted." in --help; ".TP" ".B N" entries
# under EXIT STATUS in the man page.
sed -n '/^Exit codes:/,/^$/p' "$T/help" | tr ';:' '\n\n' |
  sed -n 's/^ *\([0-9][0-9]*\) .*/\1/p' | sort >"$T/help-codes"
awk '/^\.SH/ { on = ($0 ~ /EXIT STATUS/); next }
     on && /^\.TP/ { tp = 1; next }
     on && tp && /^\.B +[0-9]+ *$/ { print $2 }
     { tp = 0 }' "$MAN" | sort >"$T/man-codes"
if [ "$(wc -l <"$T/help-codes")" -ge 5 ]; then
  same "the exit codes of --help are those of EXIT STATUS" "$T/help-codes" "$T/man-codes"
else
  not_ok "exit codes parsed from --help: $(tr '\n' ' ' <"$T/help-codes")"
fi

# The page renders without warnings (when groff is installed).
if command -v groff >/dev/null 2>&1; then
  warnings=$(groff -man -ww -z "$MAN" 2>&1)
  if [ -z "$warnings" ]; then ok "groff renders the man page without warnings"; else
    not_ok "groff renders the man page without warnings"
    echo "$warnings" | sed 's/^/# /'
  fi
else
  ok "groff renders the man page without warnings # SKIP groff not installed"
fi

[ "$failed" -eq 0 ]
