#!/usr/bin/env bash
# Seed sweeps: the check without any fault over many input seeds, where a
# failure is a false positive (or a real compiler bug) to triage.
#
#   tools/sweep.sh [-j N] [--build DIR] [--out DIR] [WHAT FROM TO [N]]...
#
# WHAT is one of
#   captures   captures/*.tgsi at seeds FROM..TO
#   generated  N generated shaders (default 1000) at seeds FROM..TO
#   ffma       captures/*.tgsi with --opt fuse-ffma at seeds FROM..TO
#   genffma    N generated shaders with --opt fuse-ffma (N as generated's)
#   geninexact N generated shaders with --opt inexact
# With no WHAT, the long sweep: captures 1 200, generated 1 20 1000,
# ffma 1 50, genffma 1 5 1000, geninexact 1 5 1000. Each run's failure lines go to OUT (default sweep-out/) as
# WHAT-sSEED.txt with its reproducers under WHAT-sSEED/ and every case's
# status and reason in WHAT-sSEED.json; a line per run and a total per
# WHAT go to stdout. Exit 1 if any run failed, 2 if a run
# could not check its cases.
set -uo pipefail
cd "$(dirname "$0")/.."

jobs=2
build=build
out=sweep-out
while [ $# -gt 0 ]; do
  case "$1" in
    -j) jobs="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) break ;;
  esac
done
[ $# -eq 0 ] && set -- captures 1 200 generated 1 20 1000 ffma 1 50 genffma 1 5 1000 geninexact 1 5 1000
exe="$build/diffcomp"
[ -x "$exe" ] || { echo "sweep.sh: $exe not built" >&2; exit 2; }
mkdir -p "$out"

status=0
while [ $# -gt 0 ]; do
  what="$1" from="${2:?FROM}" to="${3:?TO}"
  shift 3
  n=1000
  if [[ "$what" =~ ^gen ]] && [ $# -gt 0 ] && [[ "$1" =~ ^[0-9]+$ ]]; then
    n="$1"
    shift
  fi
  case "$what" in
    captures) args=(captures/*.tgsi) ;;
    generated) args=(--generated "$n") ;;
    genffma) args=(--opt fuse-ffma --generated "$n") ;;
    geninexact) args=(--opt inexact --generated "$n") ;;
    ffma) args=(--opt fuse-ffma captures/*.tgsi) ;;
    *) echo "sweep.sh: unknown sweep '$what'" >&2; exit 2 ;;
  esac
  runs=0 failed=0 cases=0 fails=0 t0=$SECONDS
  for ((s = from; s <= to; s++)); do
    log="$out/$what-s$s.txt"
    "$exe" check -q -j "$jobs" --seed "$s" --repro-dir "$out/$what-s$s" \
      --json "$out/$what-s$s.json" "${args[@]}" >"$log" 2>&1
    rc=$?
    nf=$(grep -c '^fail ' "$log")
    nc=$(sed -n 's/^[0-9]* shaders, \([0-9]*\) cases.*/\1/p' "$log")
    runs=$((runs + 1)) cases=$((cases + ${nc:-0})) fails=$((fails + nf))
    if [ $rc -ne 0 ]; then
      failed=$((failed + 1))
      [ $rc -eq 1 ] && [ $status -eq 0 ] && status=1
      [ $rc -ge 2 ] && status=2
      echo "$what seed $s: exit $rc, $nf failing cases ($log)"
      grep '^fail ' "$log" | sed 's/^/  /'
    fi
  done
  echo "$what seeds $from..$to: $runs runs, $failed with failures, $fails failing of $cases cases, $((SECONDS - t0)) s"
done
exit $status
