/*
 * libFuzzer harness: arbitrary bytes decoded with the gfx9 (Vega) model:
 * one- and two-dword instructions, literals, SDWA dwords, with the round
 * trips of tools/fuzz/isa_decode.h.
 */
#define FUZZ_MODEL "gfx9"
#include "tools/fuzz/isa_decode.h"
