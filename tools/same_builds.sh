#!/bin/sh
# Two builds of one tree (gcc and clang, or two build types) must make the
# same programs: `gen --seed S` writes the same text, `compile --digest`
# gives the same digest for every capture and generated shader, on every
# target and both paths, and `llvm ir` the same text for every capture. A difference means code whose result depends on
# the compiler, most often a call whose arguments each build IR, take a
# register or draw a random number (C leaves their order unspecified):
# compute such arguments into locals first (README "CI").
#
# Usage: tools/same_builds.sh [-n N] [-k] DIFFCOMP_A DIFFCOMP_B [-- COMPILE_OPTION...]
#   -n N  generated shaders gen --seed 1..N (default 200)
#   -k    keep the scratch directory (its path is printed)
#   options after -- go to both `compile --digest` runs (e.g. --opt inexact)
# Run from anywhere; exits 0 when the builds agree, 1 on a difference
# (the first differing lines printed), 2 on bad usage or a failed run.
set -eu
n=200 keep=0
while [ $# -gt 0 ]; do
  case "$1" in
  -n) n=$2; shift 2 ;;
  -k) keep=1; shift ;;
  -h | --help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  -*) echo "same_builds.sh: unknown option $1" >&2; exit 2 ;;
  *) break ;;
  esac
done
[ $# -ge 2 ] || { echo "usage: same_builds.sh [-n N] [-k] DIFFCOMP_A DIFFCOMP_B [-- OPTION...]" >&2; exit 2; }
a=$1 b=$2
shift 2
[ "${1:-}" = "--" ] && shift
case "$n" in '' | *[!0-9]*) echo "same_builds.sh: -n takes a count" >&2; exit 2 ;; esac
for exe in "$a" "$b"; do
  [ -x "$exe" ] || { echo "same_builds.sh: $exe is not an executable" >&2; exit 2; }
done
a=$(cd "$(dirname "$a")" && pwd)/$(basename "$a")
b=$(cd "$(dirname "$b")" && pwd)/$(basename "$b")
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/same_builds.XXXXXX")
[ "$keep" = 1 ] && echo "scratch: $tmp" || trap 'rm -rf "$tmp"' EXIT
targets=a3xx,sm50,gfx9,agx

# each build generates its own shaders: the generator's draws must agree too
for side in a b; do
  eval exe=\$$side
  mkdir -p "$tmp/$side"
  s=1
  while [ "$s" -le "$n" ]; do
    "$exe" gen --seed "$s" -o "$tmp/$side/g$s.tgsi" || { echo "same_builds.sh: $exe gen --seed $s failed" >&2; exit 2; }
    s=$((s + 1))
  done
done
status=0
s=1
while [ "$s" -le "$n" ]; do
  if ! cmp -s "$tmp/a/g$s.tgsi" "$tmp/b/g$s.tgsi"; then
    [ "$status" = 0 ] && echo "gen --seed $s writes different text:" && diff "$tmp/a/g$s.tgsi" "$tmp/b/g$s.tgsi" | head -6
    status=1
  fi
  s=$((s + 1))
done

# the same input for both: the captures and the first build's shaders
list=$(cd "$tmp/a" && ls g*.tgsi | sort -t g -k 2 -n)
for side in a b; do
  eval exe=\$$side
  (cd "$src" && "$exe" compile --digest captures/*.tgsi --target "$targets" "$@") > "$tmp/$side.cap" ||
    { echo "same_builds.sh: $exe compile --digest failed on the captures" >&2; exit 2; }
  # shellcheck disable=SC2086
  (cd "$tmp/a" && "$exe" compile --digest $list --target "$targets" "$@") > "$tmp/$side.gen" ||
    { echo "same_builds.sh: $exe compile --digest failed on the generated shaders" >&2; exit 2; }
done
# the TGSI-to-LLVM translator's text (value numbers included), captures
nll=0 dll=0
for f in "$src"/captures/*.tgsi; do
  "$a" llvm ir "$f" > "$tmp/a.ll" 2>&1 || true
  "$b" llvm ir "$f" > "$tmp/b.ll" 2>&1 || true
  nll=$((nll + 1))
  if ! cmp -s "$tmp/a.ll" "$tmp/b.ll"; then
    [ "$dll" = 0 ] && echo "llvm ir $(basename "$f") differs:" && diff "$tmp/a.ll" "$tmp/b.ll" | head -6
    dll=$((dll + 1)) status=1
  fi
done
echo "llvm ir: $dll of $nll captures differ"
ncap=$(wc -l < "$tmp/a.cap") ngen=$(wc -l < "$tmp/a.gen")
dcap=$(diff "$tmp/a.cap" "$tmp/b.cap" | grep -c '^<' || true)
dgen=$(diff "$tmp/a.gen" "$tmp/b.gen" | grep -c '^<' || true)
echo "digests: captures $dcap of $ncap differ, gen --seed 1..$n $dgen of $ngen differ"
if [ "$dcap" != 0 ] || [ "$dgen" != 0 ]; then
  cat "$tmp/a.cap" "$tmp/a.gen" > "$tmp/a.all"
  cat "$tmp/b.cap" "$tmp/b.gen" > "$tmp/b.all"
  diff "$tmp/a.all" "$tmp/b.all" | grep '^[<>]' | head -10
  status=1
fi
exit "$status"
