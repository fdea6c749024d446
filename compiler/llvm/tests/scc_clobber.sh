#!/bin/sh
# A miscompile of LLVM 14's AMDGPU back end that the campaign found
# (fixtures/llvm-amdgpu/scc-clobber/README.md):
#  1. indirect_const_after_store.tgsi through llc -O2 must be caught: a
#     mismatch against the gfx9 reference on OUT[0].x;
#  2. the same IR through llc -O1 must pass (the translation is right);
#  3. scc_clobber.ll (reduced by llvm-reduce) must still show the cause in
#     the selected machine code: a live SCC definition overwritten by
#     another before any instruction reads it.
# Usage: scc_clobber.sh SOURCE_DIR BUILD_DIR; exit 77 (skipped) without
# LLVM 14's llc.
. "$(dirname "$0")/llc14.sh"
fx=$src/fixtures/llvm-amdgpu/scc-clobber
# llc with -O1 where diffcomp llvm cc passes -O2
cat >"$tmp/llc-O1" <<'SH'
#!/bin/sh
for a; do shift; [ "$a" = -O2 ] && a=-O1; set -- "$@" "$a"; done
exec llc "$@"
SH
chmod +x "$tmp/llc-O1"

for o in O2 O1; do
   llc=llc
   [ $o = O1 ] && llc="$tmp/llc-O1"
   "$dc" check --target gfx9 --no-repro --opt fuse-ffma -j 1 -q \
      --opt-cmd "$dc llvm cc {tgsi} -o {out} --llc $llc" \
      "$fx/indirect_const_after_store.tgsi" >"$tmp/$o.out" 2>&1
   echo "$?" >"$tmp/$o.rc"
done
[ "$(cat "$tmp/O2.rc")" = 1 ] && grep -q 'mismatch (ref/opt): OUT\[0\].x' "$tmp/O2.out" ||
   { cat "$tmp/O2.out"; echo "FAIL: llc -O2's code was not caught"; exit 1; }
[ "$(cat "$tmp/O1.rc")" = 0 ] || { cat "$tmp/O1.out"; echo "FAIL: llc -O1's code does not pass"; exit 1; }

llc -O2 -march=amdgcn -mcpu=gfx900 -stop-after=amdgpu-isel "$fx/scc_clobber.ll" -o "$tmp/isel.mir" ||
   exit 1
awk '/^ *bb\./ { live = 0 }
     { u = $0 ~ /implicit \$scc|= COPY \$scc|S_CBRANCH_SCC/
       d = $0 ~ /implicit-def \$scc|^ *\$scc = COPY/
       if (u) live = 0
       if (d) { if (live) { print "clobbered SCC: " prev " / " $0; found = 1 } live = 1; prev = $0 } }
     END { exit !found }' "$tmp/isel.mir" ||
   { echo "FAIL: the selected code of scc_clobber.ll no longer clobbers SCC"; exit 1; }
echo "scc-clobber: caught with llc -O2, passes with -O1:"
grep '^fail' "$tmp/O2.out"
