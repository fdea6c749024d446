#!/bin/sh
# diffcomp report pairs runs made from different directories: one capture
# checked from the source tree as captures/X and from captures/ as ./X,
# the two reports compared from a third directory, must pair as one case;
# neither report names an absolute directory.
# Usage: run_report_dirs.sh SRC DIFFCOMP SCRATCH
set -eu
src=$1 exe=$2 tmp=$3
rm -rf "$tmp"
mkdir -p "$tmp/elsewhere"
cd "$src"
"$exe" check captures/vs_mvp_basic.tgsi --target a3xx --no-repro -q --json "$tmp/a.json" >/dev/null
cd "$src/captures"
"$exe" check ./vs_mvp_basic.tgsi --target a3xx --no-repro -q --json "$tmp/b.json" >/dev/null
# a report names no directory of this machine: "dir" is relative to it
if grep -q '"dir": "/' "$tmp/a.json" "$tmp/b.json"; then
  echo 'a report records an absolute working directory'; exit 1
fi
cd "$tmp/elsewhere"
out=$("$exe" report ../a.json ../b.json)
case "$out" in
*"a3xx: 1 cases pass in both"*) ;;
*) printf 'the two runs did not pair:\n%s\n' "$out"; exit 1 ;;
esac
case "$out" in
*"only in"*) printf 'a case is counted in one run only:\n%s\n' "$out"; exit 1 ;;
esac
rm -rf "$tmp"
