#!/bin/sh
# The mutation benchmark: a seeded sample of mutants over compiler/opt,
# isa/delay.c and isa/codec.c, each run in every optimizer mode (default,
# --opt fuse-ffma, --opt inexact) on the captures plus check --generated's
# shaders, under nice -n 19 and within a time limit (seconds, the whole run,
# the coverage runs included). Prints killed / runtime / compile-time /
# survived / unreached per file. Extra arguments go to mutate.py.
#   SAMPLE (300) SEED (1) GENERATED (40) LIMIT (840) BUILD (build)
cd "$(dirname "$0")/../.." || exit 2
exec nice -n 19 python3 tools/mutate/mutate.py --build "${BUILD:-build}" \
   --sample "${SAMPLE:-300}" --seed "${SEED:-1}" --generated "${GENERATED:-40}" \
   --invocations 256 --time-limit "${LIMIT:-840}" "$@"
