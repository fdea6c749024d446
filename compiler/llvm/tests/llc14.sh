# Sourced by the fixture scripts that need LLVM 14's llc (its MIR and its
# bugs are version-specific): with arguments SOURCE_DIR BUILD_DIR, sets
# src, dc (the diffcomp binary) and tmp (removed on exit); exits 77
# (skipped) without LLVM 14's llc.
set -u
src=$1
dc=$2/diffcomp
command -v llc >/dev/null 2>&1 || exit 77
llc --version | grep -q 'LLVM version 14\.' || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
