#!/bin/sh
# gen_docs.sh man|completion DIFFCOMP OUT [MODELS_DIR]: writes diffcomp's man page or its
# bash completion from the help text of the built binary (`diffcomp
# --help` and each `diffcomp COMMAND --help`), so neither can drift from
# --help. Run at build time (CMakeLists.txt); both are installed.
set -eu
mode=$1 exe=$2 out=$3 models=${4:-}
tmp="$out.tmp"

commands() {
   "$exe" --help | awk '/^commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 } f && /^$/ { f = 0 }'
}

# roff-safe text: backslashes doubled, a leading . or ' escaped.
roff() {
   sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"
}

man_page() {
   version=$("$exe" --version | head -1 | awk '{ print $2 }')
   printf '.TH DIFFCOMP 1 "" "diffcomp %s" "User Commands"\n' "$version"
   printf '.SH NAME\ndiffcomp \\- differential validation of GPU shader compilers without a GPU\n'
   printf '.SH SYNOPSIS\n.nf\n'
   "$exe" --help | awk 'NR == 1 || (/^       diffcomp/ && !d) { sub(/^usage: /, ""); sub(/^ +/, ""); print; next } { d = 1 }' | roff
   printf '.fi\n.SH DESCRIPTION\n'
   "$exe" --help | awk '/^$/ { n++; next } n == 1 { print }' | roff
   printf '.PP\nWith no command, or with file names first, diffcomp runs \\fBcheck\\fR.\n'
   printf 'The README that comes with diffcomp explains each command at length.\n'
   printf '.SH COMMANDS\n'
   "$exe" --help | awk '/^commands:/ { f = 1; next } f && /^  [a-z]/ { print } f && /^$/ { f = 0 }' |
      while read -r name summary; do
         printf '.TP\n.B %s\n' "$name"
         printf '%s\n' "$summary" | roff
      done
   printf '.SH "COMMAND OPTIONS"\n'
   for c in $(commands); do
      printf '.SS "diffcomp %s"\n.nf\n' "$c"
      "$exe" "$c" --help | roff
      printf '.fi\n'
   done
   cat <<'EOF'
.SH EXIT STATUS
.TP
.B 0
every case as expected (passed, skipped or n/a, or failed as the baseline says)
.TP
.B 1
new failures, or unexpected passes
.TP
.B 2
bad usage, an unreadable file, or cases that could not be checked
.TP
.B 125
with \fBcheck \-\-git\-bisect\fR: the revision cannot be tested
.TP
.B 130
the run was interrupted (Ctrl\-C); the summary and reports cover what finished
.SH ENVIRONMENT
.TP
.B DIFFCOMP_ISA_PATH
directories searched first for a model named on the command line
.TP
.B NO_COLOR
no colour in the terminal
.TP
.BR CI_NODE_INDEX ", " CI_NODE_TOTAL
the shard a check runs when \fB\-\-shard\fR is not given
.SH FILES
.TP
.I PREFIX/share/diffcomp/models/*.yaml
the ISA models; the installed binary finds them relative to itself
.SH SEE ALSO
The ISA library installed beside diffcomp: the header \fIdiffcomp/isa.h\fR,
\fBpkg\-config diffcomp\-isa\fR. The README.md installed in the doc directory.
EOF
}

# The completion: commands first, then each command's options as its
# --help lists them; model names for the commands that take one.
completion() {
   printf '# bash completion for diffcomp (generated from its --help by tools/gen_docs.sh)\n'
   printf '_diffcomp() {\n'
   printf '   local cur=${COMP_WORDS[COMP_CWORD]} cmd=check i\n'
   printf '   for ((i = 1; i < COMP_CWORD; i++)); do\n'
   printf '      case ${COMP_WORDS[i]} in\n'
   printf '         %s) cmd=${COMP_WORDS[i]}; break ;;\n' "$(commands | paste -sd '|')"
   printf '         -*) ;;\n         *) break ;;\n      esac\n   done\n'
   printf '   local opts\n   case $cmd in\n'
   for c in $(commands); do
      o=$("$exe" "$c" --help | grep -o -- '--[a-z][a-z0-9-]*' | grep -vx -- --help | sort -u | paste -sd ' ')
      printf '      %s) opts="%s --help" ;;\n' "$c" "$o"
   done
   printf '   esac\n'
   printf '   if ((COMP_CWORD == 1)); then\n'
   printf '      COMPREPLY=($(compgen -W "%s --help --version" -- "$cur") $(compgen -f -X "!*.tgsi" -- "$cur") $(compgen -d -- "$cur"))\n' "$(commands | paste -sd ' ')"
   printf '      return\n   fi\n'
   printf '   case ${COMP_WORDS[COMP_CWORD-1]} in\n'
   names=$(cd "${models:-.}" 2>/dev/null && ls -- *.yaml 2>/dev/null | sed 's/\.yaml$//' | paste -sd ' ')
   printf '      --target) COMPREPLY=($(compgen -W "%s" -- "$cur")); return ;;\n' "$names"
   printf '      --html|--repro-dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;\n'
   printf '   esac\n'
   printf '   if [[ $cur == -* ]]; then\n'
   printf '      COMPREPLY=($(compgen -W "$opts" -- "$cur"))\n'
   printf '   else\n'
   printf '      COMPREPLY=($(compgen -f -- "$cur"))\n'
   printf '   fi\n}\n'
   printf 'complete -o filenames -F _diffcomp diffcomp\n'
}

case $mode in
man) man_page >"$tmp" ;;
completion) completion >"$tmp" ;;
*)
   echo "usage: gen_docs.sh man|completion DIFFCOMP OUT" >&2
   exit 2
   ;;
esac
mv "$tmp" "$out"
