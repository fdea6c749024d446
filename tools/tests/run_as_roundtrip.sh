#!/bin/sh
# run_as_roundtrip.sh SRC DIFFCOMP: on every target, what `as` prints reads
# back with `dis --hex`, as the README shows it for sm50: fs_phong (texture,
# constants, literals) is compiled by both paths with compile -o (an
# emulator assembly program, which `as` takes as it is), assembled,
# disassembled from the hex words
# without an unknown or illegal word, and the disassembly assembles to the
# same words again.
set -u
src=$1 dc=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/diffcomp-asrt-XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
bad=0
for t in a3xx sm50 gfx9 agx; do
   for p in ref opt; do
      for f in fs_phong; do
         s=$tmp/$t-$p-$f
         if ! "$dc" compile "$src/captures/$f.tgsi" --target "$t" --path "$p" -o "$s.s" >/dev/null; then
            echo "run_as_roundtrip.sh: $f does not compile for $t ($p)" >&2
            bad=1
            continue
         fi
         "$dc" as "$t" "$s.s" >"$s.hex" || { echo "as $t $s.s failed" >&2; bad=1; continue; }
         # shellcheck disable=SC2046 # one argument per word
         "$dc" dis "$t" --hex $(sed 's/^/0x/' "$s.hex") >"$s.dis"
         rc=$?
         if [ $rc != 0 ] || grep -q '??\|ILLEGAL' "$s.dis"; then
            echo "run_as_roundtrip.sh: $t $p $f: dis --hex of as's words exits $rc:" >&2
            grep '??\|ILLEGAL' "$s.dis" | head -3 >&2
            bad=1
            continue
         fi
         # "0008: 5c58000000270001  FADD R1, R0, R2" -> "FADD R1, R0, R2"
         sed 's/^[0-9a-f]*: *[0-9a-f]*  //' "$s.dis" >"$s.text"
         "$dc" as "$t" "$s.text" >"$s.hex2" || { echo "as $t $s.text failed" >&2; bad=1; continue; }
         if ! cmp -s "$s.hex" "$s.hex2"; then
            echo "run_as_roundtrip.sh: $t $p $f: the disassembly assembles to other words:" >&2
            diff "$s.hex" "$s.hex2" | head -4 >&2
            bad=1
         fi
      done
   done
done
exit $bad
