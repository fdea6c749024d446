#!/bin/sh
# run_readme.sh SRC BUILD NAME: runs the README recipe NAME as written.
#
# A recipe is the indented block after a line `<!-- recipe NAME: CODES -->`
# in SRC/README.md: each command (a line, with its `\` continuations) runs
# under sh in a fresh temporary directory holding links to the tree's
# captures/, fixtures/, .ci/ and the build directory as build/ (also on
# PATH as `diffcomp`), and must exit with its code in CODES (in order;
# 0 when CODES runs out). Nothing is written into the tree.
#
# A campaign (minutes or hours: `<!-- campaign NAME: SECONDS -->`) cannot
# run whole in a test: each of its commands must start as written, i.e. be
# still running after SECONDS (then it is stopped) or end with status 0.
set -u
src=$1 build=$2 name=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/diffcomp-recipe-XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
for d in captures fixtures .ci isa tools; do
   [ -e "$src/$d" ] && ln -s "$src/$d" "$tmp/$d"
done
ln -s "$build" "$tmp/build"
awk -v name="$name" '
   found == 0 && $0 ~ "^<!-- (recipe|campaign) " name ":" {
      found = 1; codes = $0; sub("^<!-- (recipe|campaign) " name ": *", "", codes); sub(" *-->.*", "", codes)
      if ($0 ~ "^<!-- campaign ") codes = "campaign " codes
      print codes > "/dev/stderr"; next }
   found == 1 && /^    / { inblock = 1; line = substr($0, 5)
      if (cont != "") line = cont line
      if (line ~ /\\$/) { cont = substr(line, 1, length(line) - 1); next }
      cont = ""; print line; next }
   found == 1 && inblock && !/^    / && !/^$/ { exit }
' "$src/README.md" >"$tmp/recipe.cmds" 2>"$tmp/recipe.codes"
codes=$(cat "$tmp/recipe.codes")
secs=
case $codes in campaign\ *) secs=${codes#campaign } codes= ;; esac
if [ ! -s "$tmp/recipe.cmds" ]; then
   echo "run_readme.sh: no recipe '$name' in $src/README.md" >&2
   exit 2
fi
cd "$tmp" || exit 2
PATH="$build:$PATH"
DIFFCOMP="$build/diffcomp" # fixtures/extcc/mycc.sh uses it
export PATH DIFFCOMP
n=0 bad=0
while IFS= read -r cmd; do
   n=$((n + 1))
   want=$(echo "$codes" | awk -v i="$n" '{ print (i <= NF ? $i : 0) }')
   echo "\$ $cmd"
   if [ -n "$secs" ]; then
      timeout -k 5 "$secs" sh -c "$cmd" </dev/null
      rc=$?
      [ $rc = 124 ] && rc=0 && echo "(still running after $secs s: stopped)"
   else
      sh -c "$cmd" </dev/null
      rc=$?
   fi
   if [ "$rc" != "$want" ]; then
      echo "run_readme.sh: recipe $name, command $n exited $rc, the README says $want" >&2
      bad=1
   fi
done <"$tmp/recipe.cmds"
exit $bad
