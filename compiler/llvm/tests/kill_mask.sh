#!/bin/sh
# A miscompile of LLVM 14's AMDGPU back end that the campaign found
# (fixtures/llvm-amdgpu/kill-mask/README.md):
#  1. kill_cont.tgsi through llc must be caught: a lane the interpreter
#     keeps is discarded;
#  2. llc's code must show the cause: the lanes to kill computed as
#     s_xor_b64 of the keep mask with EXEC, then taken off the live mask;
#  3. the same code with the upstream fix's instruction in its place
#     (s_andn2_b64 EXEC, keep: llvm-project PR 122736) must pass, so the
#     translation and the run model are right.
# Usage: kill_mask.sh SOURCE_DIR BUILD_DIR; exit 77 (skipped) without
# LLVM 14's llc.
. "$(dirname "$0")/llc14.sh"
fx=$src/fixtures/llvm-amdgpu/kill-mask
fix='s/s_xor_b64 \(s\[[0-9:]*\]\), \(s\[[0-9:]*\]\), exec$/s_andn2_b64 \1, exec, \2/'
for v in llc fixed; do
   post=
   [ $v = fixed ] && post=" && sed -i '$fix' {out}"
   "$dc" check --target gfx9 --no-repro -j 1 -q \
      --opt-cmd "$dc llvm cc {tgsi} -o {out}$post" "$fx/kill_cont.tgsi" >"$tmp/$v.out" 2>&1
   echo "$?" >"$tmp/$v.rc"
done
[ "$(cat "$tmp/llc.rc")" = 1 ] && grep -q 'discard lane [0-9]*: expected kept, got discarded' "$tmp/llc.out" ||
   { cat "$tmp/llc.out"; echo "FAIL: llc's code was not caught"; exit 1; }
"$dc" llvm cc "$fx/kill_cont.tgsi" -o "$tmp/k.s" || exit 1
awk '/^s_xor_b64 s\[[0-9:]*\], s\[[0-9:]*\], exec$/ { x = substr($2, 1, length($2) - 1) }
     x && /^s_andn2_b64/ && $NF == x { found = 1 }
     END { exit !found }' "$tmp/k.s" ||
   { cat "$tmp/k.s"; echo "FAIL: llc's code no longer takes an XOR with EXEC off the live mask"; exit 1; }
[ "$(cat "$tmp/fixed.rc")" = 0 ] ||
   { cat "$tmp/fixed.out"; echo "FAIL: the code with the fix's instruction does not pass"; exit 1; }
echo "kill-mask: caught in llc's code, passes with the upstream fix's s_andn2_b64:"
grep '^fail' "$tmp/llc.out"
