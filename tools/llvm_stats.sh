#!/bin/sh
# LLVM's AMDGPU back end against diffcomp's compilers on gfx9, and
# llvm-mca against the gfx9 model's cycle estimate (README "Checking
# LLVM's AMDGPU back end"):
#
#   tools/llvm_stats.sh [--out DIR] FILE.tgsi...
#
# Checks the shaders twice on gfx9 (llc as opt, then diffcomp's own opt),
# and for each shader that passes with llc prints one row: instructions,
# registers and emulated cycles per wave of the reference, diffcomp's opt
# and llc; then, for llc's code, the model's static cycle estimate, its
# emulated cycles per wave and llvm-mca's (-mcpu=gfx900, one iteration)
# total cycles, and the Pearson correlation of llvm-mca's figure with each.
# Exit status: 0 printed, 2 bad usage or a missing tool.
set -eu

out=llvm-stats
if [ "${1:-}" = --out ]; then
   out=$2
   shift 2
fi
[ $# -gt 0 ] || { echo "usage: $0 [--out DIR] FILE.tgsi..." >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
dc=${DIFFCOMP:-$root/build/diffcomp}
for t in llc llvm-mca; do
   command -v $t >/dev/null 2>&1 || { echo "$0: $t not found (Debian package llvm)" >&2; exit 2; }
done
mkdir -p "$out"
inv=1024

"$dc" check "$@" --target gfx9 --no-repro --opt fuse-ffma -j 2 -q --invocations $inv \
   --opt-cmd "$dc llvm cc {tgsi} -o {out}" --json "$out/llc.json" >/dev/null 2>&1 || true
"$dc" check "$@" --target gfx9 --no-repro --opt fuse-ffma -j 2 -q --invocations $inv \
   --json "$out/opt.json" >/dev/null 2>&1 || true

# "shader status ref_i ref_r ref_e opt_i opt_r opt_e opt_c" per case.
cases() {
   awk '
      /"shader":/ { match($0, /"shader": "[^"]*"/); sh = substr($0, RSTART + 11, RLENGTH - 12)
                    match($0, /"status": "[^"]*"/); st = substr($0, RSTART + 11, RLENGTH - 12) }
      /"signals":/ && sh != "" {
         r = "- - -"; o = "- - - -"
         if (match($0, /"ref": \{[^}]*\}/)) r = fig(substr($0, RSTART, RLENGTH), 0)
         if (match($0, /"opt": \{[^}]*\}/)) o = fig(substr($0, RSTART, RLENGTH), 1)
         print sh, st, r, o; sh = ""
      }
      function num(s, k) { if (!match(s, "\"" k "\": [0-9]+")) return "-"
                           s = substr(s, RSTART, RLENGTH); sub(/.*: /, "", s); return s }
      function fig(s, c) { return num(s, "instructions") " " num(s, "registers") " " \
                                  num(s, "emulated_cycles") (c ? " " num(s, "cycles") : "") }' "$1"
}
cases "$out/llc.json" >"$out/llc.txt"
cases "$out/opt.json" >"$out/opt.txt"

waves=$(( (inv + 63) / 64 ))
printf '%-34s %17s %17s %17s %20s\n' "shader (passing with llc)" "ref: ins reg cyc" "opt: ins reg cyc" \
   "llc: ins reg cyc" "llc: est emu mca"
while read -r sh st ri rr re li lr le lc; do
   [ "$st" = pass ] || continue
   name=$(basename "$sh" .tgsi)
   "$dc" llvm ir "$sh" -o "$out/$name.ll" 2>/dev/null || continue
   llc -O2 -march=amdgcn -mcpu=gfx900 "$out/$name.ll" -o "$out/$name.s" || continue
   grep -v amd_amdgpu_isa "$out/$name.s" >"$out/$name.mca.s"
   mca=$(llvm-mca -mtriple=amdgcn -mcpu=gfx900 -iterations=1 "$out/$name.mca.s" 2>/dev/null |
         awk '/^Total Cycles:/ { print $3 }')
   own=$(awk -v s="$sh" '$1 == s && $2 == "pass" { print $6, $7, $8 }' "$out/opt.txt")
   [ -n "$own" ] || own="- - -"
   set -- $own
   oe=$2
   [ "$3" = - ] || oe=$(($3 / waves))
   printf '%-34s %5s %5s %5s %5s %5s %5s %5s %5s %5s %6s %6s %6s\n' "$name" "$ri" "$rr" \
      $((re / waves)) "$1" "$2" "${oe:-}" "$li" "$lr" $((le / waves)) "$lc" $((le / waves)) "${mca:--}"
done <"$out/llc.txt" | tee "$out/rows.txt"
awk '$NF != "-" { n++; x = $(NF - 2); y = $NF; e = $(NF - 1)
                  sx += x; sy += y; sxx += x * x; syy += y * y; sxy += x * y
                  se += e; see += e * e; sey += e * y }
     function r(sa, sb, saa, sbb, sab) { d = sqrt((n * saa - sa * sa) * (n * sbb - sb * sb))
                                         return d ? (n * sab - sa * sb) / d : 0 }
     END { if (n > 1) printf "llvm-mca total cycles vs the model on llc'"'"'s code, %d shaders: " \
                             "r = %.3f (static estimate), r = %.3f (emulated cycles per wave)\n", n,
                             r(sx, sy, sxx, syy, sxy), r(se, sy, see, syy, sey) }' "$out/rows.txt"
