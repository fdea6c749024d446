#!/bin/sh
# tools/same_builds.sh, the CI guard that a gcc and a clang build make the
# same programs, can pass and can fail: one build against itself agrees;
# against the same build with an optimizing-path fault switched on (a
# stand-in for a build that orders code differently) it reports the
# differing digests and exits 1.
# Usage: run_same_builds.sh SRC DIFFCOMP SCRATCH
set -eu
src=$1 exe=$2 tmp=$3
rm -rf "$tmp"
mkdir -p "$tmp"
"$src/tools/same_builds.sh" -n 3 "$exe" "$exe" > "$tmp/same.out" || {
  echo 'one build against itself does not agree:'; cat "$tmp/same.out"; exit 1
}
grep -q 'captures 0 of .* differ, gen --seed 1..3 0 of 24 differ' "$tmp/same.out" || {
  echo 'unexpected summary:'; cat "$tmp/same.out"; exit 1
}
# the other "build": every compile with a scheduling fault on (a3xx opt)
cat > "$tmp/other" <<EOS
#!/bin/sh
if [ "\$1" = compile ]; then exec "$exe" "\$@" --inject-fault delay-slot-short; fi
exec "$exe" "\$@"
EOS
chmod +x "$tmp/other"
rc=0
"$src/tools/same_builds.sh" -n 3 "$exe" "$tmp/other" > "$tmp/differ.out" || rc=$?
if [ "$rc" != 1 ] || ! grep -q '^< .* a3xx opt ' "$tmp/differ.out"; then
  echo "a build that makes other a3xx programs was not reported (exit $rc):"; cat "$tmp/differ.out"; exit 1
fi
# bad usage
if "$src/tools/same_builds.sh" "$exe" 2>/dev/null; then echo 'one build accepted'; exit 1; fi
rm -rf "$tmp"
