#!/bin/sh
# A campaign of generated shaders through LLVM's AMDGPU back end (README
# "Checking LLVM's AMDGPU back end"): generates shaders from seeds FIRST..
# LAST, keeps those `diffcomp llvm ir` translates (the others need what
# the translator refuses), checks them on gfx9
# with llc as the optimizing compiler, in chunks, and prints the figures
# of llc's code (instructions, SDWA and PRESERVE, s_nop wait states,
# s_waitcnt) and every failure line.
#
#   tools/llvm_campaign.sh [-j N] [--size N] [--chunk N] [--out DIR]
#                          [--ops llvm|llvm-direct] [--stages frag,vert,comp] FIRST LAST
#
# --stages cycles the stages over the seeds (default: the seed picks);
# --ops llvm-direct leaves out indirect addressing (its constant reads
# are global loads).
#
# Exit status: 0 every kept shader passed, 1 a failure, 2 bad usage.
set -eu

jobs=2
size=40
chunk=500
out=llvm-campaign
ops=llvm
stages=
while [ $# -gt 2 ]; do
   case "$1" in
   -j) jobs=$2; shift 2 ;;
   --size) size=$2; shift 2 ;;
   --chunk) chunk=$2; shift 2 ;;
   --out) out=$2; shift 2 ;;
   --ops) ops=$2; shift 2 ;;
   --stages) stages=$(echo "$2" | tr , ' '); shift 2 ;;
   *) echo "usage: $0 [-j N] [--size N] [--chunk N] [--out DIR] [--ops SET] [--stages LIST] FIRST LAST" >&2; exit 2 ;;
   esac
done
[ $# -eq 2 ] || { echo "usage: $0 [-j N] [--size N] [--chunk N] [--out DIR] [--ops SET] [--stages LIST] FIRST LAST" >&2; exit 2; }
first=$1
last=$2
root=$(cd "$(dirname "$0")/.." && pwd)
dc=${DIFFCOMP:-$root/build/diffcomp}
command -v llc >/dev/null 2>&1 || { echo "$0: llc not found (Debian package llvm)" >&2; exit 2; }

mkdir -p "$out/tgsi" "$out/code"
kept=0
refused=0
s=$first
while [ "$s" -le "$last" ]; do
   f="$out/tgsi/gen_$s.tgsi"
   st=
   if [ -n "$stages" ]; then
      set -- $stages
      shift $((s % $#))
      st="--stage $1"
   fi
   "$dc" gen --seed "$s" --size "$size" --ops "$ops" $st -o "$f"
   if "$dc" llvm ir "$f" -o /dev/null 2>/dev/null; then
      kept=$((kept + 1))
   else
      rm -f "$f"
      refused=$((refused + 1))
   fi
   s=$((s + 1))
done
echo "seeds $first..$last (size $size): $kept translated, $refused refused by the translator"

# Each compile leaves llc's program under code/ for the figures.
code=$(cd "$out/code" && pwd)
ls "$out/tgsi" | sed "s|^|$out/tgsi/|" >"$out/all.list"
split -l "$chunk" "$out/all.list" "$out/chunk."
status=0
for c in "$out"/chunk.*; do
   "$dc" check @"$c" --target gfx9 --opt fuse-ffma -j "$jobs" -q \
      --repro-dir "$out/repro" \
      --opt-cmd "$dc llvm cc {tgsi} -o {out} && cp {out} $code/\$\$.s" \
      >"$c.out" 2>&1 || status=1
   grep -E '^(fail|error) ' "$c.out" || true
   grep -E '^gfx9 ' "$c.out" || true
done

# Figures of llc's code: every program the check compiled.
cat "$code"/*.s 2>/dev/null | awk '
   /^[ \t]*$/ || /^[ \t]*;/ || /^\./ || /:[ \t]*$/ { next }
   { n++ }
   /_sdwa/ { sdwa++ }
   /UNUSED_PRESERVE/ { pres++ }
   /^[ \t]*s_nop/ { nop++; ws += $2 + 1 }
   /^[ \t]*s_waitcnt/ { wc++ }
   END { printf "llc code: %d instructions, %d SDWA (%d PRESERVE), %d s_nop (%d wait states), %d s_waitcnt\n", n, sdwa, pres, nop, ws, wc }'
exit $status
