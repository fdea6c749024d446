#!/bin/bash
# run_completion.sh FILE: the generated bash completion completes a
# command, an option of that command and a model name after --target.
source "$1" || exit 2
cd "$(mktemp -d)" || exit 2 # no file names to complete here
trap 'rmdir "$PWD"' EXIT
want() { # want EXPECTED WORDS...: completes the last word
   COMP_WORDS=("${@:2}")
   COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
   COMPREPLY=()
   _diffcomp
   if [ "${COMPREPLY[*]}" != "$1" ]; then
      echo "run_completion.sh: '${COMP_WORDS[*]}' completes to '${COMPREPLY[*]}', want '$1'" >&2
      exit 1
   fi
}
want check diffcomp ch
want --max-failures diffcomp check --max-f
want --print-after diffcomp compile x.tgsi --print-a
want sm50 diffcomp compile x.tgsi --target s
want --help diffcomp --h
echo "run_completion.sh: 5 completions as expected"
