#!/bin/sh
# Issue 19: what check keeps per case does not grow with the run. The same
# check over 20 and over 200 generated shaders (one target, one worker)
# must hold the results of equally many cases at most (--stats: "held:"),
# no more than one shader's, while its reports still cover every case.
# And a run whose window of results is smaller than the run (two workers,
# slots reused many times over) gives the same reports as one whose window
# holds it all, reproducers included.
# Usage: run_check_bounded.sh DIFFCOMP SCRATCH
set -eu
exe=$1 tmp=$2
rm -rf "$tmp"
mkdir -p "$tmp"
held() {
  n=$1
  "$exe" check -q --generated "$n" --seed 1 --target a3xx -j1 --invocations 32 --no-repro \
    --stats --json "$tmp/$n.json" --junit "$tmp/$n.xml" --html "$tmp/html$n" >"$tmp/$n.out" || true
  line=$(grep '^held: ' "$tmp/$n.out") || { echo "no held: line over $n shaders"; exit 1; }
  echo "$line" | sed 's/^held: at most \([0-9]*\) case results.*/\1/'
}
small=$(held 20)
large=$(held 200)
if [ "$small" != "$large" ] || [ "$large" -gt 1 ]; then
  echo "case results held at once: $small over 20 shaders, $large over 200 (one target, -j1: 1)"
  exit 1
fi
# the reports are whole: a record per case
for n in 20 200; do
  c=$(grep -c '^    {"shader": "gen:' "$tmp/$n.json")
  t=$(grep -c '<testcase ' "$tmp/$n.xml")
  r=$(grep -c '^<tr class="st-' "$tmp/html$n/index.html")
  if [ "$c" != "$n" ] || [ "$t" != "$n" ] || [ "$r" != "$n" ]; then
    echo "over $n shaders: $c JSON records, $t JUnit testcases, $r HTML rows"
    exit 1
  fi
done
two() {
  "$exe" check -q --generated 20 --seed 2 --target a3xx,sm50 -j2 --invocations 32 --no-repro \
    --stats --json "$tmp/w$1.json" --junit "$tmp/w$1.xml" >"$tmp/w$1.out" || true
}
DIFFCOMP_CHECK_WINDOW=3 two 3
two all
if ! cmp -s "$tmp/w3.json" "$tmp/wall.json"; then
  echo "the JSON report differs with a window of 3 cases:"
  diff "$tmp/w3.json" "$tmp/wall.json" | head -20
  exit 1
fi
# JUnit: the same but for the times
if [ "$(sed 's/time="[0-9.]*"//' "$tmp/w3.xml")" != "$(sed 's/time="[0-9.]*"//' "$tmp/wall.xml")" ]; then
  echo "the JUnit report differs with a window of 3 cases"
  exit 1
fi
# Reproducers are written from the window too: a run with failing cases
# far past a window of 3 (two planted bugs) writes the same reproducers as
# one whose window holds the whole run.
bad() {
  "$exe" check -q --generated 20 --seed 2 --target a3xx,sm50 -j2 --invocations 32 \
    --inject-fault missing-ss,stall-count-short --repro-dir "$tmp/r$1" >"$tmp/r$1.out" || true
}
DIFFCOMP_CHECK_WINDOW=3 bad 3
bad all
nrepro=$(ls "$tmp/rall" 2>/dev/null | wc -l)
if [ "$nrepro" -lt 2 ] || ! diff -r "$tmp/r3" "$tmp/rall" >/dev/null; then
  echo "reproducers with a window of 3 cases differ from the whole run's ($nrepro written):"
  diff -r "$tmp/r3" "$tmp/rall" | head -20
  exit 1
fi
w=$(grep '^held: ' "$tmp/w3.out" | sed 's/^held: at most \([0-9]*\) case results.*/\1/')
if [ -z "$w" ] || [ "$w" -gt 3 ]; then
  echo "held $w case results at once with a window of 3"
  exit 1
fi
rm -rf "$tmp"
