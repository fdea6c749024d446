#!/bin/sh
# Builds the libFuzzer harnesses (tools/fuzz/fuzz_*.c) in build-fuzz with
# clang and runs each one in turn for SECONDS (default 20: a CI smoke run).
#
#   tools/fuzz/run.sh [SECONDS] [HARNESS...]
#
# Longer local runs: tools/fuzz/run.sh 600 (ten minutes per harness). Rates
# seen on a 2-core machine (low end: both cores busy, high end: a CI smoke
# run alone): tgsi_parse 5000-11000/s, isa_decode_a3xx 2000-15000/s,
# fuzz_emu 2600-10000/s, interp_tgsi 6000-7000/s, isa_decode_sm50
# 1100-3500/s, isa_model 500-2600/s, gen and interp 650-700/s, fuzz_compile
# 12-19/s; so 10 million executions take from a quarter of an hour
# (tgsi_parse) to a week (fuzz_compile). Or run one harness by hand with any
# libFuzzer flag (the first directory is the one it writes to), e.g.
#   build-fuzz/fuzz_tgsi_parse -max_total_time=3600 -jobs=1 \
#       build-fuzz/corpus/fuzz_tgsi_parse fixtures/fuzz/fuzz_tgsi_parse
#
# Seeds: fixtures/fuzz/<harness>/, plus captures/ and the TGSI fixtures for
# the TGSI harnesses and the models and model fixtures for fuzz_isa_model;
# the growing corpus stays in build-fuzz/corpus/<harness>/.
# Crashing inputs land in build-fuzz/artifacts/<harness>/. Every file in
# fixtures/fuzz/regress/<harness>/ (crashes found earlier) is replayed first;
# FUZZ_SKIP_REGRESS=1 skips that. FUZZ_KEEP_GOING=1 runs libFuzzer in fork
# mode and keeps fuzzing past crashes (for long runs while a known crash in
# another component is still open); every crash still lands in artifacts.
# Exit status: 0 if nothing crashed. One fuzzer runs at a time (the machine
# is shared). The harnesses are built once, at the start: do not change the
# tree (or merge) while a long multi-harness run is going -- a harness would
# read, say, a newer model YAML with an older loader.
# The whole script is one function, read before it runs, so editing this
# file during a run does not disturb the run.
main() {
set -u
cd "$(dirname "$0")/../.." || exit 2
secs=${1:-20}
[ $# -gt 0 ] && shift
case $secs in *[!0-9]* | '') echo "usage: $0 [SECONDS] [HARNESS...]" >&2; exit 2 ;; esac

harnesses=$*
if [ -z "$harnesses" ]; then
   for f in tools/fuzz/fuzz_*.c; do harnesses="$harnesses $(basename "$f" .c)"; done
fi

mkdir -p build-fuzz
blog=build-fuzz/build.log
cmake -B build-fuzz -DCMAKE_C_COMPILER=clang -DDIFFCOMP_FUZZ=ON \
   -DCMAKE_BUILD_TYPE=RelWithDebInfo >$blog 2>&1 || { cat $blog; exit 2; }
# shellcheck disable=SC2086
cmake --build build-fuzz -j2 --target $harnesses >>$blog 2>&1 || { cat $blog; exit 2; }

status=0
summary=""
for h in $harnesses; do
   exe=build-fuzz/$h
   corpus=build-fuzz/corpus/$h
   art=build-fuzz/artifacts/$h
   mkdir -p "$corpus" "$art"
   regress=fixtures/fuzz/regress/$h
   if [ -d "$regress" ] && [ "${FUZZ_SKIP_REGRESS:-0}" != 1 ]; then
      for f in "$regress"/*; do
         [ -f "$f" ] || continue
         case $f in *.md | *.txt) continue ;; esac
         if "$exe" -runs=1 "$f" >"$art/regress.log" 2>&1; then
            echo "$h: regression $f: ok"
         else
            echo "$h: regression $f: CRASHES (see $art/regress.log)"
            status=1
         fi
      done
   fi
   seeds=""
   [ -d fixtures/fuzz/$h ] && seeds="fixtures/fuzz/$h"
   case $h in
   *tgsi*) seeds="$seeds captures fixtures/tgsi/good" ;;
   fuzz_isa_model) seeds="$seeds isa/models fixtures/isa fixtures/isa/bad" ;;
   esac
   dict=""
   [ -f tools/fuzz/$h.dict ] && dict="-dict=tools/fuzz/$h.dict"
   echo "== $h: $secs s"
   log=build-fuzz/$h.log
   # shellcheck disable=SC2086
   : >"$log.start" # crash files newer than this are this run's
   keep=""
   [ "${FUZZ_KEEP_GOING:-0}" = 1 ] && keep="-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1"
   # Input size limits. The decoders' cost grows with the legal words an
   # input holds (a 4 KB input of legal sm50 bundles takes ~5 ms under
   # ASan, 512 a3xx words ~2.5 ms); 256 bytes still hold 32 a3xx words or
   # 8 sm50 bundles, more than any per-word or bundle check needs, and run
   # 2.6x as many inputs a second as 1 KB (sm50). The other
   # harnesses keep libFuzzer's default (their largest seed): a truncated
   # capture or model would no longer parse.
   case $h in
   fuzz_isa_decode_*) keep="$keep -max_len=256" ;;
   esac
   # shellcheck disable=SC2086
   "$exe" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 $keep \
      -artifact_prefix="$art/" $dict "$corpus" $seeds >"$log" 2>&1
   rc=$?
   execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
   # fork mode prints no final stats: take the last "#N" progress line
   [ -z "$execs" ] && execs=$(sed -n 's/^#\([0-9]*\):* .*/\1/p' "$log" | tail -1)
   crashes=$(find "$art" -name 'crash-*' -newer "$log.start" | wc -l)
   [ "$crashes" -gt 0 ] && status=1
   cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
   if [ $rc -ne 0 ]; then
      status=1
      echo "$h: CRASH (exit $rc), log $log, artifacts in $art:"
      grep -E 'ERROR:|SUMMARY:|Test unit written' "$log" | head -5
   fi
   summary="$summary$h: ${execs:-?} executions in $secs s, $cov, corpus $(ls "$corpus" | wc -l) files, $crashes new crash files, exit $rc
"
done
printf '\n%s' "$summary"
return $status
}
main "$@"
