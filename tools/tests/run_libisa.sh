#!/bin/sh
# run_libisa.sh SRC BUILD: installs the build into a temporary prefix,
# builds the README's libdcisa example (the indented block after
# `<!-- example libdcisa -->`) against the installed header, library and
# pkg-config file, runs it from another directory, then again after the
# prefix was moved (the library finds its models relative to itself).
set -u
src=$1 build=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/diffcomp-libisa-XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() {
   echo "run_libisa.sh: $*" >&2
   exit 1
}
cmake --install "$build" --prefix "$tmp/p" >/dev/null || fail "cmake --install failed"
awk 'f == 1 && /^    / { print substr($0, 5); b = 1; next }
     f == 1 && b && !/^$/ { exit }
     f == 1 && /^$/ { if (b) print ""; next }
     /^<!-- example libdcisa -->/ { f = 1 }' "$src/README.md" >"$tmp/dis.c"
[ -s "$tmp/dis.c" ] || fail "no libdcisa example in README.md"
pc=$(find "$tmp/p" -name diffcomp-isa.pc) || fail "no diffcomp-isa.pc installed"
[ -n "$pc" ] || fail "no diffcomp-isa.pc installed"
export PKG_CONFIG_PATH="${pc%/*}"
flags=$(pkg-config --cflags --libs diffcomp-isa) || fail "pkg-config diffcomp-isa failed"
case $flags in *"$tmp/p"*) ;; *) fail "pkg-config gives no path in the prefix: $flags" ;; esac
mkdir "$tmp/elsewhere" && cd "$tmp/elsewhere" || exit 2
# shellcheck disable=SC2086
${CC:-cc} -std=c11 -Wall -Wextra -Werror "$tmp/dis.c" -o dis $flags || fail "the example does not build"
want='0008  FADD R1, R0, R2
0010  EXIT
0018  NOP'
unset DIFFCOMP_ISA_PATH
libdir=$(pkg-config --variable=libdir diffcomp-isa)
out=$(LD_LIBRARY_PATH="$libdir" ./dis) || fail "the example failed: $out"
[ "$out" = "$want" ] || fail "the example printed:
$out"
mv "$tmp/p" "$tmp/moved"
out=$(LD_LIBRARY_PATH="$tmp/moved/${libdir#"$tmp/p/"}" ./dis 2>&1) || fail "after the move: $out"
[ "$out" = "$want" ] || fail "after the move the example printed:
$out"
echo "run_libisa.sh: the README example builds with pkg-config and runs: $(echo "$out" | wc -l) lines"
