/*
 * libFuzzer harness: arbitrary bytes decoded with the a3xx model, with the
 * decode/encode/print/assemble round trips (tools/fuzz/isa_decode.h).
 */
#define FUZZ_MODEL "a3xx"
#include "tools/fuzz/isa_decode.h"
