/*
 * libFuzzer harness: arbitrary bytes decoded with the sm50 (Maxwell) model,
 * bundles and control words included, with the round trips of
 * tools/fuzz/isa_decode.h.
 */
#define FUZZ_MODEL "sm50"
#include "tools/fuzz/isa_decode.h"
