#!/bin/sh
# run_help_readme.sh SRC DIFFCOMP: --help and the READMEs are in step: every
# command that `diffcomp --help` lists is named in README.md, and every
# option a command's --help prints is named in README.md, emu/README.md or
# isa/README.md.
set -u
src=$1 dc=$2
docs="$src/README.md $src/emu/README.md $src/isa/README.md"
bad=0
cmds=$("$dc" --help | sed -n '/^commands:/,/^$/p' | awk 'NF > 1 { print $1 }')
[ -n "$cmds" ] || { echo "run_help_readme.sh: no commands in diffcomp --help" >&2; exit 2; }
for c in $cmds; do
   grep -q "diffcomp $c\b\|\`$c\`" "$src/README.md" || {
      echo "run_help_readme.sh: command '$c' is not in README.md" >&2
      bad=1
   }
done
for c in $cmds "bench interp" "bench emu" "bench compile" "bench latency" "isa bench"; do
   # shellcheck disable=SC2086 # "bench emu" is two words
   opts=$("$dc" $c --help 2>&1 | grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
   for o in $opts; do
      [ "$o" = --help ] && continue
      # shellcheck disable=SC2086
      grep -q -- "$o\b" $docs || {
         echo "run_help_readme.sh: '$c --help' names $o, no README does" >&2
         bad=1
      }
   done
done
exit $bad
