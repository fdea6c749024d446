/*
 * Every 64-bit integer opcode, one small shader each, compiled by the
 * reference and the optimizing compiler for a3xx and sm50 and run on the
 * emulator over edge values, against the golden interpreter bit for bit
 * (values the interpreter marks undefined aside: a zero divisor,
 * INT64_MIN / -1, out-of-range conversions).
 *
 * Lane l takes a = V[l % n] in IN[0].xy and b = V[l / n % n] in IN[0].zw
 * from the edge list V (for D2I64/D2U64 a list of doubles), shift counts
 * from IN[1].x and IN[1].z, 32-bit sources (floats or integers) from
 * IN[1].x and IN[1].y -- so every pair of edge values meets: carries
 * across bit 32, shifts by 0, 31, 32, 63 and beyond 63 (masked), INT64_MIN,
 * zero divisors, rounding ties of the conversions to float and double.
 * The run must also be clean: no hazard event, no illegal encoding.
 */
#include "compiler/compiler.h"
#include "compiler/ir/ir.h"
#include "emu/emu.h"
#include "isa/isa.h"
#include "util/test.h"

#include <stdlib.h>

enum in_kind { IN_INT, IN_DOUBLE };

static const struct {
   const char *op, *body;
   enum in_kind kind;
} cases[] = {
    {"U64ADD", "U64ADD OUT[0], IN[0], IN[0].zwxy", IN_INT},
    {"U64ADD-neg", "U64ADD OUT[0], -IN[0], IN[0].zwxy", IN_INT},
    {"U64MUL", "U64MUL OUT[0], IN[0], IN[0].zwxy", IN_INT},
    {"U64SHL", "U64SHL OUT[0], IN[0], IN[1]", IN_INT},
    {"U64SHR", "U64SHR OUT[0], IN[0], IN[1]", IN_INT},
    {"I64SHR", "I64SHR OUT[0], IN[0], IN[1]", IN_INT},
    {"I64NEG", "I64NEG OUT[0], IN[0]", IN_INT},
    {"I64ABS", "I64ABS OUT[0], IN[0]", IN_INT},
    {"I64SSG", "I64SSG OUT[0], IN[0]", IN_INT},
    {"I64MIN", "I64MIN OUT[0], IN[0], IN[0].zwxy", IN_INT},
    {"I64MAX", "I64MAX OUT[0], IN[0], IN[0].zwxy", IN_INT},
    {"U64MIN", "U64MIN OUT[0], IN[0], IN[0].zwxy", IN_INT},
    {"U64MAX", "U64MAX OUT[0], IN[0], IN[0].zwxy", IN_INT},
    {"U64SEQ", "U64SEQ OUT[0].xz, IN[0], IN[0].zwxy", IN_INT},
    {"U64SNE", "U64SNE OUT[0].yw, IN[0], IN[0].zwxy", IN_INT},
    {"I64SLT", "I64SLT OUT[0].xz, IN[0], IN[0].zwxy", IN_INT},
    {"U64SLT", "U64SLT OUT[0].xz, IN[0], IN[0].zwxy", IN_INT},
    {"I64SGE", "I64SGE OUT[0].xz, IN[0], IN[0].zwxy", IN_INT},
    {"U64SGE", "U64SGE OUT[0].xz, IN[0], IN[0].zwxy", IN_INT},
    {"U64DIV", "U64DIV OUT[0], IN[0], IN[0].zwxy", IN_INT},
    {"U64MOD", "U64MOD OUT[0], IN[0], IN[0].zwxy", IN_INT},
    {"I64DIV", "I64DIV OUT[0], IN[0], IN[0].zwxy", IN_INT},
    {"I64MOD", "I64MOD OUT[0], IN[0], IN[0].zwxy", IN_INT},
    {"U2I64", "U2I64 OUT[0], IN[1]", IN_INT},
    {"I2I64", "I2I64 OUT[0], -IN[1]", IN_INT},
    {"F2I64", "F2I64 OUT[0], IN[1]", IN_INT},
    {"F2U64", "F2U64 OUT[0], IN[1]", IN_INT},
    {"F2U64-abs", "F2U64 OUT[0], |IN[1]|", IN_INT},
    {"I642F", "I642F OUT[0].xy, IN[0]", IN_INT},
    {"U642F", "U642F OUT[0].xy, IN[0]", IN_INT},
    {"I642D", "I642D OUT[0], IN[0]", IN_INT},
    {"U642D", "U642D OUT[0], IN[0]", IN_INT},
    {"D2I64", "D2I64 OUT[0], IN[0]", IN_DOUBLE},
    {"D2U64", "D2U64 OUT[0], IN[0]", IN_DOUBLE},
    {"D2I64-neg", "D2I64 OUT[0], -IN[0]", IN_DOUBLE},
};

/* 64-bit integers: word boundaries, signs, rounding ties of 24 and 53
 * bits (2^53 + 1 and + 3, (2^24 + 1) << 39 and its neighbour). */
static const uint64_t ints[] = {
    0,
    1,
    3,
    ~0ull,
    ~0ull - 1,
    0x7fffffffull,
    0x80000000ull,
    0xffffffffull,
    0x100000000ull,
    0x100000001ull,
    0x1ffffffffull,
    0x7fffffffffffffffull,
    0x8000000000000000ull,
    0x8000000000000001ull,
    (1ull << 53) + 1,
    (1ull << 53) + 3,
    0ull - ((1ull << 53) + 1),
    ((1ull << 24) + 1) << 39,
    (((1ull << 24) + 1) << 39) + 1,
    0xfedcba9876543210ull,
    0x123456789abcdef0ull,
    12345678901234567ull,
    0x00000001fffffffeull,
    0xfffffff000000000ull,
};

/* Doubles (bits): fractions, the edges of the int64 and uint64 ranges,
 * infinities, NaN, a denormal. */
static const uint64_t doubles[] = {
    0x0000000000000000ull, /* 0 */
    0x8000000000000000ull, /* -0 */
    0x3fe0000000000000ull, /* 0.5 */
    0xbfefae147ae147aeull, /* -0.99 */
    0x3ff0000000000000ull, /* 1 */
    0xbff0000000000000ull, /* -1 */
    0x4330000000000001ull, /* 2^52 + 1 */
    0x4340000000000000ull, /* 2^53 */
    0x43dfffffffffffffull, /* 2^63 - 1024 */
    0x43e0000000000000ull, /* 2^63 */
    0xc3e0000000000000ull, /* -2^63 */
    0xc3e0000000000001ull, /* -2^63 - 2048 */
    0x43efffffffffffffull, /* 2^64 - 2048 */
    0x43f0000000000000ull, /* 2^64 */
    0x7e37e43c8800759cull, /* 1e300 */
    0x7ff0000000000000ull, /* inf */
    0xfff0000000000000ull, /* -inf */
    0x7ff8000000000000ull, /* NaN */
    0x0000000000000001ull, /* denormal */
    0xc19d6f3454c00000ull, /* -123456789.75 (approx.) */
    0x41f0000000080000ull, /* 2^32 + 0.5 */
    0x41e0000000000000ull, /* 2^31 */
    0x4415af1d78b58c40ull, /* 1e20 */
    0xc0c81c8000000000ull, /* -12345 */
};

/* 32-bit sources: floats (F2I64/F2U64), integers (U2I64/I2I64) and
 * shift counts all come from this list. */
static const uint32_t words32[] = {
    0x00000000u, 0x80000000u, 0x3f000000u, 0xbf000000u, 0x3f800000u, 0xbf800000u,
    0xbfe00000u, 0x4b000001u, 0x4b800000u, 0x4f000000u, 0x4f800000u, 0x4fc00000u,
    0x5e800000u, 0x5effffffu, 0x5f000000u, 0xdf000000u, 0x5f7fffffu, 0x5f800000u,
    0xdf800000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x00000001u, 0x7f7fffffu,
    0xd0153f2au, 1,           31,          32,          33,          63,
    64,          65,          7,           0xffffffffu, 0x7fffffffu, 27,
};

#define N_INT    ARRAY_SIZE(ints)
#define N_DOUBLE ARRAY_SIZE(doubles)
#define N_W      ARRAY_SIZE(words32)
#define LANES    (N_INT * N_INT)

static struct env *
make_inputs(enum in_kind kind)
{
   struct env *e = env_new(TGSI_STAGE_VERT, LANES);
   env_alloc_inputs(e, 2, 1);
   const uint64_t *v = kind == IN_DOUBLE ? doubles : ints;
   unsigned n = kind == IN_DOUBLE ? N_DOUBLE : N_INT;
   for (uint32_t l = 0; l < LANES; l++) {
      uint64_t a = v[l % n], b = v[l / n % n];
      uint32_t w[8] = {(uint32_t)a,          (uint32_t)(a >> 32),    (uint32_t)b,
                       (uint32_t)(b >> 32),  words32[l % N_W],       words32[l / N_W % N_W],
                       words32[l / 7 % N_W], words32[(l + 11) % N_W]};
      for (unsigned c = 0; c < 8; c++)
         env_in(e, 0, c / 4, c % 4)[l] = w[c];
   }
   return e;
}

/* Runs one compiled program; the number of defined values that differ
 * from gold, or ~0u when the run is not clean. */
static unsigned
run_program(const char *what, const struct emu_program *p, const struct env *inputs,
            const struct env *gold, unsigned *compared)
{
   struct diag_list d = {0};
   struct emu_code *code = NULL;
   struct env *e = env_clone(inputs);
   struct emu_result r = {0};
   unsigned bad = ~0u;
   if (emu_load(p, &code, &d) == EMU_OK && env_alloc_outputs(e, gold->nout, 1) &&
       emu_run(code, e, NULL, &r, &d) == EMU_OK) {
      bad = 0;
      for (unsigned k = 0; k < EMU_EV_COUNT; k++)
         if (r.counts[k]) {
            fprintf(stderr, "  %s: %llu %s event(s)\n", what, (unsigned long long)r.counts[k],
                    emu_event_names[k]);
            bad = ~0u;
         }
      for (unsigned ch = 0; ch < 4 && bad != ~0u; ch++) {
         size_t o = env_out_index(gold, 0, 0, ch);
         for (uint32_t l = 0; l < gold->nlanes; l++) {
            if (gold->out_flags[o + l] & ENV_F_UNDEF)
               continue;
            ++*compared;
            if (gold->out[o + l] == e->out[o + l])
               continue;
            if (bad++ < 3)
               fprintf(stderr, "  %s: OUT[0].%c lane %u: interp 0x%08x, emu 0x%08x\n", what,
                       "xyzw"[ch], l, gold -> out[o + l], e -> out[o + l]);
         }
      }
   } else {
      fprintf(stderr, "  %s: %s\n", what, diag_first_error(&d));
   }
   emu_result_free(&r);
   emu_code_free(code);
   env_free(e);
   diag_clear(&d);
   return bad;
}

static void
run_case(const struct isa_model *m, unsigned k)
{
   char *text = xasprintf("VERT\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], GENERIC[0]\n"
                          "  0: %s\n  1: END\n",
                          cases[k].body);
   struct diag_list d = {0};
   struct tgsi_shader *s = tgsi_parse(text, strlen(text), cases[k].op, NULL, &d);
   CHECKF(s != NULL, "%s: %s", cases[k].op, diag_first_error(&d));
   struct env *inputs = s ? make_inputs(cases[k].kind) : NULL;
   struct env *gold = inputs ? env_clone(inputs) : NULL;
   bool ok = gold && tgsi_interp_run(s, gold, NULL, &d) == TGSI_INTERP_OK;
   CHECKF(ok, "%s: interpreter: %s", cases[k].op, diag_first_error(&d));
   for (unsigned path = 0; path < 2 && ok; path++) {
      struct emu_program p = {0};
      struct opt_options o = {.validate = true, .bisect_limit = -1};
      enum compile_status cs =
          path ? opt_compile(s, m, &o, &p, NULL, NULL, &d) : ref_compile(s, m, &p, NULL, &d);
      char what[96];
      snprintf(what, sizeof(what), "%s %s %s", cases[k].op, isa_model_name(m),
               path ? "opt" : "ref");
      CHECKF(cs == COMPILE_OK, "%s: %s", what, diag_first_error(&d));
      unsigned compared = 0;
      if (cs == COMPILE_OK) {
         unsigned bad = run_program(what, &p, inputs, gold, &compared);
         CHECKF(bad == 0, "%s: %u differences", what, bad);
         CHECKF(compared >= LANES, "%s: only %u values defined", what, compared);
      }
      emu_program_free(&p);
      diag_clear(&d);
   }
   env_free(inputs);
   env_free(gold);
   tgsi_shader_free(s);
   diag_clear(&d);
   free(text);
}

int
main(void)
{
   static const char *const models[] = {"a3xx", "sm50"};
   for (unsigned i = 0; i < ARRAY_SIZE(models); i++) {
      struct isa_model *m = NULL;
      struct diag_list d = {0};
      if (isa_open(models[i], &m, &d) != ISA_ERR_OK) {
         CHECKF(false, "model %s: %s", models[i], diag_first_error(&d));
         diag_clear(&d);
         continue;
      }
      for (unsigned k = 0; k < ARRAY_SIZE(cases); k++)
         run_case(m, k);
      isa_close(m);
   }
   return test_done();
}
