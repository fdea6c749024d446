/*
 * libFuzzer harness: arbitrary bytes decoded with the agx (Apple G13)
 * model: variable-length instructions (2 to 10 bytes), short and long
 * forms, with the round trips of tools/fuzz/isa_decode.h.
 */
#define FUZZ_MODEL "agx"
#include "tools/fuzz/isa_decode.h"
