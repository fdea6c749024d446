#!/bin/sh
# A miscompile of LLVM 14's AMDGPU back end that the campaign found
# (fixtures/llvm-amdgpu/flatten-cfg/README.md):
#  1. flatten_phi.tgsi through llc -O2 must be caught (a mismatch: 1.0
#     where the interpreter gives 0);
#  2. the same IR through llc -O1 must pass (FlattenCFG runs there too but
#     meets another CFG), so the translation and the run model are right;
#  3. with opt, FlattenCFG alone on flattencfg.ll (the IR llc hands it)
#     must merge the two branches into one on a condition that depends on
#     %a0, which the original result does not.
# Usage: flatten_cfg.sh SOURCE_DIR BUILD_DIR; exit 77 (skipped) without
# LLVM 14's llc.
. "$(dirname "$0")/llc14.sh"
fx=$src/fixtures/llvm-amdgpu/flatten-cfg
cat >"$tmp/llc-O1" <<'SH'
#!/bin/sh
for a; do shift; [ "$a" = -O2 ] && a=-O1; set -- "$@" "$a"; done
exec llc "$@"
SH
chmod +x "$tmp/llc-O1"
for o in O2 O1; do
   l=llc
   [ $o = O1 ] && l=$tmp/llc-O1
   "$dc" check --target gfx9 --no-repro -j 1 -q \
      --opt-cmd "$dc llvm cc {tgsi} -o {out} --llc $l" "$fx/flatten_phi.tgsi" >"$tmp/$o.out" 2>&1
   echo "$?" >"$tmp/$o.rc"
done
[ "$(cat "$tmp/O2.rc")" = 1 ] && grep -q 'mismatch (ref/opt): OUT\[1\].x' "$tmp/O2.out" ||
   { cat "$tmp/O2.out"; echo "FAIL: llc -O2's code was not caught"; exit 1; }
[ "$(cat "$tmp/O1.rc")" = 0 ] ||
   { cat "$tmp/O1.out"; echo "FAIL: llc -O1's code does not pass"; exit 1; }
if command -v opt >/dev/null 2>&1; then
   opt -S -flattencfg "$fx/flattencfg.ll" -o "$tmp/flat.ll" || exit 1
   grep -q 'and i1 %v1, %cond' "$tmp/flat.ll" ||
      { cat "$tmp/flat.ll"; echo "FAIL: FlattenCFG no longer merges the branches on %a0's test"; exit 1; }
fi
echo "flatten-cfg: caught at -O2, passes at -O1:"
grep '^fail' "$tmp/O2.out"
