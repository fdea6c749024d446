#!/bin/sh
# The SDWA selection-combining class (llvm-project PR 123221) against LLVM
# 14 (fixtures/llvm-amdgpu/sdwa-combine/README.md):
#  1. the TGSI shaders of the class through llc -O2 must pass (LLVM 14
#     compiles them correctly from IR);
#  2. byte1_of_word1.mir (SSA machine code with an SDWA add that already
#     selects BYTE_1 of a WORD_1 extract) through si-peephole-sdwa and the
#     rest of llc must be caught: LLVM 14 writes src0_sel:WORD_1 where
#     BYTE_3 is meant (a mismatch), while the same MIR with the pass left
#     out must pass (the fixture itself is right).
# Usage: sdwa_combine.sh SOURCE_DIR BUILD_DIR; exit 77 (skipped) without
# LLVM 14's llc, whose MIR the fixture is written in.
. "$(dirname "$0")/llc14.sh"
fx=$src/fixtures/llvm-amdgpu/sdwa-combine
llc="llc -O2 -march=amdgcn -mcpu=gfx900"

"$dc" check --target gfx9 --no-repro --opt fuse-ffma -j 1 -q \
   --opt-cmd "$dc llvm cc {tgsi} -o {out}" "$fx"/*.tgsi >"$tmp/class.out" 2>&1 ||
   { cat "$tmp/class.out"; echo "FAIL: the class through llc"; exit 1; }

"$dc" llvm ir "$fx/byte1_of_word1.tgsi" -o "$tmp/b.ll" || exit 1
for mode in before after; do
   $llc -start-$mode=si-peephole-sdwa "$fx/byte1_of_word1.mir" -o "$tmp/$mode.s" || exit 1
   "$dc" llvm asm "$tmp/b.ll" "$tmp/$mode.s" -o "$tmp/$mode.prog.s" || exit 1
   "$dc" check --target gfx9 --no-repro -j 1 -q --opt-asm "$tmp/$mode.prog.s" \
      "$fx/byte1_of_word1.tgsi" >"$tmp/$mode.out" 2>&1
   echo "$?" >"$tmp/$mode.rc"
done
grep -q 'src0_sel:WORD_1' "$tmp/before.s" || { echo "FAIL: llc no longer writes WORD_1"; exit 1; }
[ "$(cat "$tmp/before.rc")" = 1 ] && grep -q 'mismatch (ref/opt): OUT\[1\]' "$tmp/before.out" ||
   { cat "$tmp/before.out"; echo "FAIL: the wrong combine was not caught"; exit 1; }
[ "$(cat "$tmp/after.rc")" = 0 ] ||
   { cat "$tmp/after.out"; echo "FAIL: the MIR without the pass does not pass"; exit 1; }
echo "sdwa-combine: 7 shaders of the class pass through llc; the MIR case is caught:"
grep '^fail' "$tmp/before.out"
