#!/bin/sh
# Atomics and storage images through llc (fixtures/llvm-amdgpu/atomics):
#  1. atomics.tgsi through llc passes at seeds 1-3 (one workgroup, each
#     lane on its own words, so every returned value is checked);
#  2. llc's code uses the forms that return nothing (ds_max_u32,
#     global_atomic_or without glc), which the gfx9 model runs;
#  3. each mutation of one of llc's atomics is caught at some seed of 1-3.
# Usage: atomics.sh SOURCE_DIR BUILD_DIR; exit 77 (skipped) without
# LLVM 14's llc.
. "$(dirname "$0")/llc14.sh"
fx=$src/fixtures/llvm-amdgpu/atomics/atomics.tgsi
run() { # seed, extra sed over llc's program (or nothing)
   post=
   [ -n "$2" ] && post=" && sed -i '$2' {out}"
   "$dc" check --target gfx9 --no-repro -j 1 -q --invocations 8 --seed "$1" \
      --opt-cmd "$dc llvm cc {tgsi} -o {out}$post" "$fx" >"$tmp/out" 2>&1
}
for s in 1 2 3; do
   run $s "" || { cat "$tmp/out"; echo "FAIL: atomics.tgsi through llc, seed $s"; exit 1; }
done
"$dc" llvm cc "$fx" -o "$tmp/a.s" || exit 1
grep -q '^ds_max_u32 ' "$tmp/a.s" && grep -q '^global_atomic_or v\[[0-9:]*\], v[0-9]*, off$' "$tmp/a.s" ||
   { cat "$tmp/a.s"; echo "FAIL: llc no longer uses the atomics that return nothing"; exit 1; }
n=0
for m in 's/global_atomic_umin/global_atomic_umax/' 's/global_atomic_or /global_atomic_xor /' \
   's/ds_max_u32/ds_min_u32/' 's/ds_xor_rtn_b32/ds_or_rtn_b32/' \
   's/global_atomic_dec/global_atomic_inc/' 's/global_atomic_add /global_atomic_sub /' \
   's/global_atomic_xor \(v[0-9]*, v[0-9]*, s\)/global_atomic_and \1/'; do
   caught=
   for s in 1 2 3; do
      run $s "$m" || { caught=1; break; }
   done
   [ -n "$caught" ] || { echo "FAIL: mutation '$m' of llc's code not caught"; exit 1; }
   n=$((n + 1))
done
echo "atomics: pass at seeds 1-3; $n mutations of llc's atomics caught"
