#!/bin/sh
# Doubles and 64-bit integers through llc (fixtures/llvm-amdgpu/doubles):
#  1. doubles.tgsi through llc passes at seeds 1-3, without --opt
#     fuse-ffma (every word of each double reaches an output);
#  2. llc's code has the f64 division (v_div_scale_f64 .. v_div_fixup_f64)
#     and v_sqrt_f64, which the gfx9 model runs;
#  3. each mutation of llc's f64 code is caught at some seed of 1-3.
# Usage: doubles.sh SOURCE_DIR BUILD_DIR; exit 77 (skipped) without
# LLVM 14's llc.
. "$(dirname "$0")/llc14.sh"
fx=$src/fixtures/llvm-amdgpu/doubles/doubles.tgsi
run() { # seed, extra sed over llc's program (or nothing)
   post=
   [ -n "$2" ] && post=" && sed -i '$2' {out}"
   "$dc" check --target gfx9 --no-repro -j 1 -q --seed "$1" \
      --opt-cmd "$dc llvm cc {tgsi} -o {out}$post" "$fx" >"$tmp/out" 2>&1
}
for s in 1 2 3; do
   run $s "" || { cat "$tmp/out"; echo "FAIL: doubles.tgsi through llc, seed $s"; exit 1; }
done
"$dc" llvm cc "$fx" -o "$tmp/a.s" || exit 1
for op in v_div_scale_f64 v_rcp_f64_e32 v_div_fmas_f64 v_div_fixup_f64 v_sqrt_f64_e32; do
   grep -q "^$op " "$tmp/a.s" || { cat "$tmp/a.s"; echo "FAIL: llc no longer emits $op"; exit 1; }
done
n=0
for m in 's/^v_rcp_f64_e32 /v_sqrt_f64_e32 /' 's/^v_sqrt_f64_e32 /v_rcp_f64_e32 /' \
   's/^v_cmp_o_f64_e32 /v_cmp_u_f64_e32 /' 's/^v_cvt_f32_f64_e32 /v_cvt_i32_f64_e32 /' \
   's/^v_div_fixup_f64 \(v\[[0-9:]*\]\), \(v\[[0-9:]*\]\), .*$/v_div_fixup_f64 \1, \2, \2, \2/' \
   's/^v_floor_f64_e32 /v_ceil_f64_e32 /'; do
   caught=
   for s in 1 2 3; do
      run $s "$m" || { caught=1; break; }
   done
   [ -n "$caught" ] || { printf "FAIL: mutation '%s' of llc's code not caught\n" "$m"; exit 1; }
   n=$((n + 1))
done
echo "doubles: pass at seeds 1-3; $n mutations of llc's f64 code caught"
