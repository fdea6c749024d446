#!/bin/sh
# A miscompile of LLVM 14's AMDGPU back end that the campaign found
# (fixtures/llvm-amdgpu/vmem-waw/README.md):
#  1. waw_sample.tgsi through llc must be caught: a texture sample writes
#     a VGPR whose global load is still pending (waw);
#  2. llc's code must show the cause: global_load_dword into a VGPR, then,
#     in a block reached by a branch, image_sample_l over it with no
#     s_waitcnt vmcnt before it in that block;
#  3. the same code with s_waitcnt vmcnt(0) before the sample (what later
#     LLVM inserts) must pass, so the translation and the run model are
#     right.
# Usage: vmem_waw.sh SOURCE_DIR BUILD_DIR; exit 77 (skipped) without
# LLVM 14's llc.
. "$(dirname "$0")/llc14.sh"
fx=$src/fixtures/llvm-amdgpu/vmem-waw
fix='s/^\(image_sample\)/s_waitcnt vmcnt(0)\n\1/'
for v in llc fixed; do
   post=
   [ $v = fixed ] && post=" && sed -i '$fix' {out}"
   "$dc" check --target gfx9 --no-repro -j 1 -q \
      --opt-cmd "$dc llvm cc {tgsi} -o {out}$post" "$fx/waw_sample.tgsi" >"$tmp/$v.out" 2>&1
   echo "$?" >"$tmp/$v.rc"
done
[ "$(cat "$tmp/llc.rc")" = 1 ] && grep -q 'hazard (emu opt): opt program: waw' "$tmp/llc.out" ||
   { cat "$tmp/llc.out"; echo "FAIL: llc's code was not caught"; exit 1; }
"$dc" llvm cc "$fx/waw_sample.tgsi" -o "$tmp/w.s" || exit 1
awk '/^global_load_dword v[0-9]+,/ { r = substr($2, 2) + 0; load = 1 }
     /^[A-Za-z0-9_$.]+:$/ { waited = 0 }
     /^s_waitcnt vmcnt/ { waited = 1 }
     load && !waited && /^image_sample/ { x = $2; sub(/^v\[/, "", x); sub(/:.*/, "", x)
        if (x + 0 == r) found = 1 }
     END { exit !found }' "$tmp/w.s" ||
   { cat "$tmp/w.s"; echo "FAIL: llc's code no longer samples into a VGPR with a global load pending"; exit 1; }
[ "$(cat "$tmp/fixed.rc")" = 0 ] ||
   { cat "$tmp/fixed.out"; echo "FAIL: the code with s_waitcnt vmcnt(0) before the sample does not pass"; exit 1; }
echo "vmem-waw: caught in llc's code, passes with s_waitcnt vmcnt(0) before the sample:"
grep '^fail' "$tmp/llc.out"
