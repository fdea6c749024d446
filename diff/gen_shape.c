/*
 * The generator's sink and edge shapes, written after the epilogue.
 *
 * Most values a generated body computes are dead: an output reads a few
 * float channels, and integer and bit results reach it only by chance, so
 * a miscompiled fold or select of them changes nothing that is compared.
 * The sink hashes every channel whose bits are exact (gen_chans_exact:
 * integers, and floats no inexact op touched), but a compare's result (sm50
 * keeps those in its 7 predicate registers, and the optimizing compiler
 * refuses a shader that keeps more live; a compare is seen through its
 * users), into one word, with UMAD by
 * an odd constant so that equal channels do not cancel, and writes its two
 * halves as floats in [1, 2) (0x3f800000 | 16 bits: never NaN, never a
 * denormal) into an extra output. ref against opt is bit-exact, so any
 * changed bit of any exact value is a mismatch.
 *
 * Before the sink, a few edge shapes feed it: operations whose operands
 * are values that constant folds and algebraic rules get wrong (negative
 * integers, INT_MIN, shift counts of 31 to 33, unsigned division by 0,
 * float bit patterns of +-0, +-inf, NaN and the largest float, and an
 * operand met by itself), both immediate against immediate (folded at
 * compile time) and immediate against a value; one-source ops (negate,
 * abs, sign, not, bit reverse and count, the bit finders, half packs and
 * unpacks) of four edge immediates at once or of a value; and packed halves and
 * bytes -- (x << 16) | y with y full width or masked, the swapped order,
 * byte lanes -- that gfx9 merges with SDWA. Only results TGSI fixes are
 * written: no IDIV by 0 or INT_MIN / -1, no denormal operand (flushing is
 * open), MIN/MAX only of distinct non-zero values (the sign of a zero they
 * return is open: a clamp's bounds are distinct and non-zero), a float op
 * on a value only as a compare, a select on a compare, a clamp or
 * fma(x, k, +-0.0) (FMA shaders: the sign of a zero product), and a float
 * result goes through x != x ? 0 : x (a NaN's payload is open) before its
 * bits are read.
 *
 * Additive: every choice here comes from a side stream seeded from the
 * main one's final state, and the sink reads general temporaries after the
 * last output is written, so a seed's shader keeps every line it had and
 * only gains these at its end (and the output's declaration). Compute
 * shaders have no output and a fixed layout in BUFFER[1]: each invocation
 * stores the two words raw into its own two words of a buffer of their own
 * (BUFFER[GEN_SINK_BUF], at the global id times 8; a word past a small
 * buffer's end is not stored), so the words no other invocation writes
 * are compared like outputs.
 */
#include "diff/gen_priv.h"

#include <stdio.h>
#include <string.h>

/* Integer operands that folds get wrong: negative, boundaries, float bit
 * patterns (-0.0, 1.0, -1.0), shift counts around 32. */
static const uint32_t edge_ints[] = {
    0xffffffffu, 0xfffffffeu, 0xfffffff9u, 0xffffff00u, 0x80000000u, 0x80000001u, 0x7fffffffu,
    0xffff0000u, 0x0000ffffu, 0x00010000u, 0x00008000u, 31,          32,          33,
    1,           0,           7,           0x3f800000u, 0xbf800000u, 0x00ff00ffu,
};

/* Float bit patterns: +-0, +-1, +-inf, NaN, the largest float, -2.5. */
static const uint32_t edge_floats[] = {
    0x80000000u, 0x00000000u, 0x3f800000u, 0xbf800000u, 0x7f800000u,
    0xff800000u, 0x7fc00000u, 0x7f7fffffu, 0xc0200000u, 0x40400000u,
};

/* Half-float bit patterns for UP2H: +-0, +-1, +-inf, NaN, the largest
 * half, -2.5, the smallest normal half (no denormal: flushing is open). */
static const uint16_t edge_halves[] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00,
                                       0xfc00, 0x7e00, 0x7bff, 0xc100, 0x0400};

/* Floats for F2I and the rounding ops: negative, fractional and halves
 * (where truncation, floor, nearest-even and halves-away part), in range. */
static const char *const edge_frac[] = {"-3.5", "-0.5", "-1",   "2.5",   "-2.5", "-1e+06",
                                        "0.5",  "1.5",  "-1.5", "-3.75", "1.75", "-0.75"};

enum {
   E_INT2,
   E_SHIFT,
   E_UDIV,
   E_FCMP,
   E_FARITH,
   E_FMINMAX,
   E_F2I,
   E_FMA,
   E_ROUND,
   E_SELECT,
   E_CLAMP,
   E_BOOL,
   E_UNARY
};

struct eop {
   enum tgsi_opcode op;
   uint8_t kind;
};

static const struct eop edge_ops[] = {
    {TGSI_OP_ISLT, E_INT2},   {TGSI_OP_ISGE, E_INT2},    {TGSI_OP_USLT, E_INT2},
    {TGSI_OP_USGE, E_INT2},   {TGSI_OP_USEQ, E_INT2},    {TGSI_OP_USNE, E_INT2},
    {TGSI_OP_IMIN, E_INT2},   {TGSI_OP_IMAX, E_INT2},    {TGSI_OP_UMIN, E_INT2},
    {TGSI_OP_UMAX, E_INT2},   {TGSI_OP_IMUL_HI, E_INT2}, {TGSI_OP_UMUL_HI, E_INT2},
    {TGSI_OP_UADD, E_INT2},   {TGSI_OP_UMUL, E_INT2},    {TGSI_OP_AND, E_INT2},
    {TGSI_OP_OR, E_INT2},     {TGSI_OP_XOR, E_INT2},     {TGSI_OP_SHL, E_SHIFT},
    {TGSI_OP_ISHR, E_SHIFT},  {TGSI_OP_USHR, E_SHIFT},   {TGSI_OP_UDIV, E_UDIV},
    {TGSI_OP_UMOD, E_UDIV},   {TGSI_OP_FSLT, E_FCMP},    {TGSI_OP_FSGE, E_FCMP},
    {TGSI_OP_FSEQ, E_FCMP},   {TGSI_OP_FSNE, E_FCMP},    {TGSI_OP_SLT, E_FCMP},
    {TGSI_OP_SGE, E_FCMP},    {TGSI_OP_ADD, E_FARITH},   {TGSI_OP_MUL, E_FARITH},
    {TGSI_OP_MIN, E_FMINMAX}, {TGSI_OP_MAX, E_FMINMAX},  {TGSI_OP_F2I, E_F2I},
    {TGSI_OP_FMA, E_FMA},     {TGSI_OP_FMA, E_FMA},      {TGSI_OP_FLR, E_ROUND},
    {TGSI_OP_CEIL, E_ROUND},  {TGSI_OP_TRUNC, E_ROUND},  {TGSI_OP_ROUND, E_ROUND},
    {TGSI_OP_FRC, E_ROUND},   {TGSI_OP_UCMP, E_SELECT},  {TGSI_OP_UCMP, E_SELECT},
    {TGSI_OP_MIN, E_CLAMP},   {TGSI_OP_MAX, E_CLAMP},    {TGSI_OP_USEQ, E_BOOL},
    {TGSI_OP_USEQ, E_BOOL},   {TGSI_OP_SLT, E_BOOL},     {TGSI_OP_SLT, E_BOOL},
    {TGSI_OP_INEG, E_UNARY},  {TGSI_OP_IABS, E_UNARY},   {TGSI_OP_ISSG, E_UNARY},
    {TGSI_OP_NOT, E_UNARY},   {TGSI_OP_BREV, E_UNARY},   {TGSI_OP_POPC, E_UNARY},
    {TGSI_OP_UMSB, E_UNARY},  {TGSI_OP_IMSB, E_UNARY},   {TGSI_OP_LSB, E_UNARY},
    {TGSI_OP_UP2H, E_UNARY},  {TGSI_OP_UP2H, E_UNARY},   {TGSI_OP_PK2H, E_UNARY},
};

/* An integer operand: an edge immediate, or an exact integer value. */
static void
int_operand(struct gen *g, bool imm, struct opnd *o)
{
   if (imm)
      gen_imm_u(g, edge_ints[gen_pick(g, ARRAY_SIZE(edge_ints))], o);
   else
      gen_src_plain(g, GT_I, o);
}

/* Mixes channel c of TEMP[r] into the sink word TEMP[acc].x. */
static void
mix(struct gen *g, unsigned acc, unsigned r, char c)
{
   struct opnd k = {0};
   gen_imm_u(g, 0x01000193u, &k);
   gen_emit(g, "UMAD TEMP[%u].x, TEMP[%u].xxxx, %s, TEMP[%u].%c%c%c%c", acc, acc, k.s, r, c, c, c,
            c);
}

/* A float result in TEMP[s].x with a NaN made 0, into the sink. */
static void
mix_float(struct gen *g, unsigned acc, unsigned s)
{
   struct opnd z = {0};
   gen_imm_u(g, 0, &z);
   gen_emit(g, "FSNE TEMP[%u].w, TEMP[%u].xxxx, TEMP[%u].xxxx", s, s, s);
   gen_emit(g, "UCMP TEMP[%u].x, TEMP[%u].wwww, %s, TEMP[%u].xxxx", s, s, z.s, s);
   mix(g, acc, s, 'x');
}

/* A compare of a value against an edge operand into TEMP[s].y: an
 * integer mask (~0 or 0) when mask, else SLT/SGE's 1.0 or 0.0. */
static bool
bool_of(struct gen *g, unsigned s, bool mask)
{
   /* every relation, the not-equal ones too (a reference may write those
    * as an equality with swapped arms: a boolean whose false arm is set) */
   static const enum tgsi_opcode masks[] = {TGSI_OP_ISLT, TGSI_OP_ISGE, TGSI_OP_USLT, TGSI_OP_USGE,
                                            TGSI_OP_USEQ, TGSI_OP_USNE, TGSI_OP_FSLT, TGSI_OP_FSGE,
                                            TGSI_OP_FSEQ, TGSI_OP_FSNE};
   static const enum tgsi_opcode floats[] = {TGSI_OP_SLT, TGSI_OP_SGE};
   enum tgsi_opcode op =
       mask ? masks[gen_pick(g, ARRAY_SIZE(masks))] : floats[gen_pick(g, ARRAY_SIZE(floats))];
   bool fl = op == TGSI_OP_FSLT || op == TGSI_OP_FSGE || op == TGSI_OP_FSEQ || op == TGSI_OP_FSNE ||
             op == TGSI_OP_SLT || op == TGSI_OP_SGE;
   struct opnd a = {0}, b = {0};
   int r = fl ? gen_pick_temp_exact(g, GT_F) : -1;
   if (!gen_ok(g, op) || (fl && r < 0))
      return false;
   /* against an edge operand, or against another value (whose registers
    * then still hold what the compare read when its result is tested) */
   bool two = gen_chance(g, 70);
   int r2 = fl && two ? gen_pick_temp_exact(g, GT_F) : -1;
   if (fl) {
      gen_temp_src(g, (unsigned)r, gen_chans_exact(g, (unsigned)r, GT_F), &a);
      if (r2 >= 0)
         gen_temp_src(g, (unsigned)r2, gen_chans_exact(g, (unsigned)r2, GT_F), &b);
      else
         gen_imm_u(g, edge_floats[gen_pick(g, ARRAY_SIZE(edge_floats))], &b);
   } else {
      int_operand(g, false, &a);
      int_operand(g, !two, &b);
   }
   if (gen_chance(g, 50)) {
      struct opnd t = a;
      a = b;
      b = t;
   }
   gen_emit(g, "%s TEMP[%u].y, %s, %s", tgsi_op_info[op].name, s, a.s, b.s);
   return true;
}

/* A test of a compare's result into TEMP[s].z -- of a mask (~0 or 0) by
 * equality or order against 0 or ~0 (!c, c != 0, c < 0 signed...), or of
 * SLT's 1.0/0.0 against 0.0 or 1.0 -- sometimes tested again (!!c), then
 * a select on it into the sink: the boolean algebra that optimizers fold
 * into the compare (as itself, as its negation, or as a constant). */
static bool
bool_test(struct gen *g, unsigned acc, unsigned s, bool mask)
{
   static const enum tgsi_opcode mtests[] = {TGSI_OP_USEQ, TGSI_OP_USNE, TGSI_OP_ISLT,
                                             TGSI_OP_ISGE, TGSI_OP_USLT, TGSI_OP_USGE};
   static const enum tgsi_opcode ftests[] = {TGSI_OP_FSEQ, TGSI_OP_FSNE, TGSI_OP_FSLT,
                                             TGSI_OP_FSGE, TGSI_OP_SLT,  TGSI_OP_SGE};
   enum tgsi_opcode test =
       mask ? mtests[gen_pick(g, ARRAY_SIZE(mtests))] : ftests[gen_pick(g, ARRAY_SIZE(ftests))];
   if (!gen_ok(g, test) || !gen_ok(g, TGSI_OP_UCMP) || !bool_of(g, s, mask))
      return false;
   struct opnd k = {0}, x = {0}, y = {0};
   if (mask)
      gen_imm_u(g, gen_chance(g, 75) ? 0 : 0xffffffffu, &k);
   else
      gen_imm_u(g, gen_chance(g, 75) ? 0 : 0x3f800000u, &k);
   bool swap = gen_chance(g, 25); /* 0 < c as well as c < 0 */
   char c[GEN_TEXT_LEN];
   snprintf(c, sizeof(c), "TEMP[%u].yyyy", s);
   gen_emit(g, "%s TEMP[%u].z, %s, %s", tgsi_op_info[test].name, s, swap ? k.s : c, swap ? c : k.s);
   if (gen_chance(g, 25) && gen_ok(g, TGSI_OP_USEQ)) {
      gen_imm_u(g, 0, &k);
      gen_emit(g, "USEQ TEMP[%u].z, TEMP[%u].zzzz, %s", s, s, k.s);
   }
   /* two distinct arms: an edge integer, or a value and an edge integer */
   uint32_t kx = edge_ints[gen_pick(g, ARRAY_SIZE(edge_ints))];
   uint32_t ky = edge_ints[gen_pick(g, ARRAY_SIZE(edge_ints))];
   gen_imm_u(g, kx, &x);
   if (kx == ky || gen_chance(g, 30))
      gen_src_plain(g, GT_I, &y);
   else
      gen_imm_u(g, ky, &y);
   gen_emit(g, "UCMP TEMP[%u].x, TEMP[%u].zzzz, %s, %s", s, s, x.s, y.s);
   mix(g, acc, s, 'x');
   return true;
}

/* An IMM line of four distinct entries of table t (n >= 4), as integers,
 * each entry the pair (t[i] << 16 | t[j]) when pairs. */
static void
edge_vec(struct gen *g, const void *t, bool halves, unsigned n, bool pairs, struct opnd *o)
{
   char v[4][GEN_TEXT_LEN];
   const char *vals[4] = {v[0], v[1], v[2], v[3]};
   unsigned used[4];
   for (unsigned c = 0; c < 4; c++) {
      unsigned i;
      do {
         i = gen_pick(g, n);
      } while (c && !pairs && (i == used[0] || (c > 1 && i == used[1]) || (c > 2 && i == used[2])));
      used[c] = i;
      uint32_t x = halves ? ((const uint16_t *)t)[i] : ((const uint32_t *)t)[i];
      if (pairs)
         x = x << 16 | ((const uint16_t *)t)[gen_pick(g, n)];
      snprintf(v[c], GEN_TEXT_LEN, "%u", x);
   }
   gen_imm_vec(g, true, vals, o);
}

/* A one-source op of edge operands into the sink, on four channels, its
 * source four edge immediates (a compile-time fold) when imm, else a
 * value: the integer ops (negate, abs, sign, not, bit reverse and count,
 * the bit finders) of edge integers; UP2H of two words of two edge halves,
 * every half read; PK2H of two pairs of edge floats (TGSI packs every NaN
 * as 0x7e00) or of an exact float value. */
static bool
edge_unary(struct gen *g, unsigned acc, unsigned s, enum tgsi_opcode op, bool imm)
{
   const char *name = tgsi_op_info[op].name;
   struct opnd a = {0};
   if (op == TGSI_OP_UP2H) {
      if (!gen_ok(g, TGSI_OP_MOV))
         return false;
      if (imm)
         edge_vec(g, edge_halves, true, ARRAY_SIZE(edge_halves), true, &a);
      else
         int_operand(g, false, &a);
      for (unsigned w = 0; w < 2; w++) {
         gen_emit(g, "UP2H TEMP[%u].xy, %s%s", s, a.s, imm ? (w ? ".yyyy" : ".xxxx") : "");
         mix_float(g, acc, s);
         gen_emit(g, "MOV TEMP[%u].x, TEMP[%u].yyyy", s, s);
         mix_float(g, acc, s);
         if (!imm)
            break;
      }
      return true;
   }
   if (op == TGSI_OP_PK2H) {
      int r = imm ? -1 : gen_pick_temp_exact(g, GT_F);
      if (r >= 0) {
         gen_temp_src(g, (unsigned)r, gen_chans_exact(g, (unsigned)r, GT_F), &a);
         gen_emit(g, "PK2H TEMP[%u].x, %s", s, a.s);
         mix(g, acc, s, 'x');
         return true;
      }
      edge_vec(g, edge_floats, false, ARRAY_SIZE(edge_floats), false, &a);
      gen_emit(g, "PK2H TEMP[%u].x, %s", s, a.s);
      gen_emit(g, "PK2H TEMP[%u].y, %s.zwzw", s, a.s);
      mix(g, acc, s, 'x');
      mix(g, acc, s, 'y');
      return true;
   }
   if (imm)
      edge_vec(g, edge_ints, false, ARRAY_SIZE(edge_ints), false, &a);
   else
      int_operand(g, false, &a);
   gen_emit(g, "%s TEMP[%u], %s", name, s, a.s);
   for (unsigned c = 0; c < 4; c++)
      mix(g, acc, s, "xyzw"[c]);
   return true;
}

/* One operation on edge operands into TEMP[s].x, mixed into the sink. */
static bool
edge_op(struct gen *g, unsigned acc, unsigned s)
{
   const struct eop *e = &edge_ops[gen_pick(g, ARRAY_SIZE(edge_ops))];
   if (!gen_ok(g, e->op))
      return false;
   const char *name = tgsi_op_info[e->op].name;
   struct opnd a = {0}, b = {0};
   /* which operand is an immediate: both (a compile-time fold), a, or b */
   unsigned which = gen_pick(g, 3);
   bool self = gen_chance(g, 15); /* an operand met by itself */
   switch (e->kind) {
   case E_INT2:
   case E_SHIFT:
   case E_UDIV:
      int_operand(g, which != 2, &a);
      int_operand(g, which != 1, &b);
      if (self && which == 2)
         a = b;
      else if (self)
         b = a;
      gen_emit(g, "%s TEMP[%u].x, %s, %s", name, s, a.s, b.s);
      mix(g, acc, s, 'x');
      return true;
   case E_FCMP:
   case E_FARITH:
   case E_FMINMAX: {
      /* float bit patterns (immediates as UINT32: registers are untyped) */
      uint32_t x = edge_floats[gen_pick(g, ARRAY_SIZE(edge_floats))];
      uint32_t y = edge_floats[gen_pick(g, ARRAY_SIZE(edge_floats))];
      if (e->kind == E_FMINMAX) {
         /* distinct, not both zero: the sign of a zero MIN/MAX returns is open */
         if (!(x << 1) && !(y << 1))
            y = 0x3f800000u;
         if (x == y)
            y ^= 0x80000000u;
      }
      /* a value only against a compare: x + -0.0 or x * 1.0 of a denormal
       * x is open (flushing), a compare's result is not */
      if (which == 0 || e->kind != E_FCMP) {
         gen_imm_u(g, x, &a);
         gen_imm_u(g, y, &b);
      } else {
         struct opnd *v = which == 1 ? &b : &a, *k = which == 1 ? &a : &b;
         int r = gen_pick_temp_exact(g, GT_F);
         if (r < 0)
            return false;
         gen_temp_src(g, (unsigned)r, gen_chans_exact(g, (unsigned)r, GT_F), v);
         gen_imm_u(g, x, k);
         if (self)
            *k = *v;
      }
      gen_emit(g, "%s TEMP[%u].x, %s, %s", name, s, a.s, b.s);
      if (e->kind == E_FCMP && e->op != TGSI_OP_SLT && e->op != TGSI_OP_SGE)
         mix(g, acc, s, 'x');
      else
         mix_float(g, acc, s);
      return true;
   }
   case E_FMA: { /* fma(x, k, +-0.0): the sign of a zero product (fma shaders only) */
      static const uint32_t ks[] = {0x80000000u, 0, 0xbf800000u, 0xc0200000u, 0x40400000u};
      struct opnd c = {0};
      int r = gen_pick_temp_exact(g, GT_F);
      if (!g->fma || r < 0)
         return false;
      gen_temp_src(g, (unsigned)r, gen_chans_exact(g, (unsigned)r, GT_F), &a);
      gen_imm_u(g, ks[gen_pick(g, ARRAY_SIZE(ks))], &b);
      gen_imm_u(g, gen_chance(g, 70) ? 0 : 0x80000000u, &c);
      gen_emit(g, "FMA TEMP[%u].x, %s, %s, %s", s, a.s, b.s, c.s);
      mix_float(g, acc, s);
      return true;
   }
   case E_ROUND: /* a rounding op of a constant: a compile-time fold */
      gen_imm_f(g, edge_frac[gen_pick(g, ARRAY_SIZE(edge_frac))], &a);
      gen_emit(g, "%s TEMP[%u].x, %s", name, s, a.s);
      mix_float(g, acc, s);
      return true;
   case E_SELECT: { /* a < b ? a : b (or >), which is not fmin/fmax for NaN or -0, +0 */
      if (!gen_ok(g, TGSI_OP_FSLT))
         return false;
      uint32_t x = edge_floats[gen_pick(g, ARRAY_SIZE(edge_floats))];
      int r = gen_pick_temp_exact(g, GT_F);
      gen_imm_u(g, x, &a);
      if (which == 0 || r < 0)
         gen_imm_u(g, edge_floats[gen_pick(g, ARRAY_SIZE(edge_floats))], &b);
      else
         gen_temp_src(g, (unsigned)r, gen_chans_exact(g, (unsigned)r, GT_F), &b);
      if (which == 2) {
         struct opnd t = a;
         a = b;
         b = t;
      }
      bool lt = gen_chance(g, 50);
      gen_emit(g, "FSLT TEMP[%u].y, %s, %s", s, lt ? a.s : b.s, lt ? b.s : a.s);
      gen_emit(g, "UCMP TEMP[%u].x, TEMP[%u].yyyy, %s, %s", s, s, a.s, b.s);
      mix_float(g, acc, s);
      return true;
   }
   case E_CLAMP: { /* min(max(x, lo), hi), lo < hi non-zero: a NaN x gives lo */
      static const char *const lo[] = {"-1", "-2.5", "0.5", "1"};
      static const char *const hi[] = {"2", "3", "1000", "1.5"};
      if (!gen_ok(g, TGSI_OP_MIN) || !gen_ok(g, TGSI_OP_MAX))
         return false;
      unsigned k = gen_pick(g, ARRAY_SIZE(lo));
      int r = gen_pick_temp_exact(g, GT_F);
      if (which == 0 || r < 0)
         gen_imm_u(g, edge_floats[gen_pick(g, ARRAY_SIZE(edge_floats))], &a);
      else
         gen_temp_src(g, (unsigned)r, gen_chans_exact(g, (unsigned)r, GT_F), &a);
      struct opnd l = {0}, h = {0};
      gen_imm_f(g, lo[k], &l);
      gen_imm_f(g, hi[k], &h);
      bool maxfirst = gen_chance(g, 50);
      gen_emit(g, "%s TEMP[%u].x, %s, %s", maxfirst ? "MAX" : "MIN", s, a.s, maxfirst ? l.s : h.s);
      gen_emit(g, "%s TEMP[%u].x, TEMP[%u].xxxx, %s", maxfirst ? "MIN" : "MAX", s, s,
               maxfirst ? h.s : l.s);
      mix_float(g, acc, s);
      return true;
   }
   case E_BOOL:
      return bool_test(g, acc, s, e->op == TGSI_OP_USEQ);
   case E_UNARY:
      return edge_unary(g, acc, s, e->op, which != 2);
   default: { /* E_F2I */
      gen_imm_f(g, edge_frac[gen_pick(g, ARRAY_SIZE(edge_frac))], &a);
      gen_emit(g, "F2I TEMP[%u].x, %s", s, a.s);
      mix(g, acc, s, 'x');
      return true;
   }
   }
}

/* Packed halves or bytes of two integer values into TEMP[s].x. */
static bool
packed(struct gen *g, unsigned acc, unsigned s)
{
   static const enum tgsi_opcode need[] = {TGSI_OP_SHL, TGSI_OP_USHR, TGSI_OP_AND, TGSI_OP_OR,
                                           TGSI_OP_UADD};
   if (!gen_ok_all(g, need, ARRAY_SIZE(need)))
      return false;
   struct opnd a = {0}, b = {0}, k16 = {0}, k8 = {0}, m = {0};
   gen_src_plain(g, GT_I, &a);
   gen_src_plain(g, GT_I, &b);
   gen_imm_u(g, 16, &k16);
   gen_imm_u(g, 8, &k8);
   switch (gen_pick(g, 6)) {
   case 0: /* (a << 16) | b, b full width */
      gen_emit(g, "SHL TEMP[%u].y, %s, %s", s, a.s, k16.s);
      gen_emit(g, "OR TEMP[%u].x, TEMP[%u].yyyy, %s", s, s, b.s);
      break;
   case 1: /* (a << 16) | (b & 0xffff) */
      gen_imm_u(g, 0xffff, &m);
      gen_emit(g, "SHL TEMP[%u].y, %s, %s", s, a.s, k16.s);
      gen_emit(g, "AND TEMP[%u].z, %s, %s", s, b.s, m.s);
      gen_emit(g, "OR TEMP[%u].x, TEMP[%u].zzzz, TEMP[%u].yyyy", s, s, s);
      break;
   case 2: /* (a & 0xffff) | (b >> 16 << 16) */
      gen_imm_u(g, 0xffff, &m);
      gen_emit(g, "AND TEMP[%u].y, %s, %s", s, a.s, m.s);
      gen_emit(g, "USHR TEMP[%u].z, %s, %s", s, b.s, k16.s);
      gen_emit(g, "SHL TEMP[%u].z, TEMP[%u].zzzz, %s", s, s, k16.s);
      gen_emit(g, "OR TEMP[%u].x, TEMP[%u].yyyy, TEMP[%u].zzzz", s, s, s);
      break;
   case 3: /* a 16-bit sum in the low half under (b << 16) */
      gen_imm_u(g, 0x7fff, &m);
      gen_emit(g, "AND TEMP[%u].y, %s, %s", s, a.s, m.s);
      gen_emit(g, "AND TEMP[%u].z, %s, %s", s, b.s, m.s);
      gen_emit(g, "UADD TEMP[%u].y, TEMP[%u].yyyy, TEMP[%u].zzzz", s, s, s);
      gen_emit(g, "SHL TEMP[%u].z, %s, %s", s, b.s, k16.s);
      gen_emit(g, "OR TEMP[%u].x, TEMP[%u].yyyy, TEMP[%u].zzzz", s, s, s);
      break;
   case 4: /* (a << 24) | b */
      gen_imm_u(g, 24, &m);
      gen_emit(g, "SHL TEMP[%u].y, %s, %s", s, a.s, m.s);
      gen_emit(g, "OR TEMP[%u].x, %s, TEMP[%u].yyyy", s, b.s, s);
      break;
   default: /* byte lanes swapped: ((a >> 8) & 0x00ff00ff) | ((b << 8) & 0xff00ff00) */
      gen_imm_u(g, 0x00ff00ffu, &m);
      gen_emit(g, "USHR TEMP[%u].y, %s, %s", s, a.s, k8.s);
      gen_emit(g, "AND TEMP[%u].y, TEMP[%u].yyyy, %s", s, s, m.s);
      gen_imm_u(g, 0xff00ff00u, &m);
      gen_emit(g, "SHL TEMP[%u].z, %s, %s", s, b.s, k8.s);
      gen_emit(g, "AND TEMP[%u].z, TEMP[%u].zzzz, %s", s, s, m.s);
      gen_emit(g, "OR TEMP[%u].x, TEMP[%u].yyyy, TEMP[%u].zzzz", s, s, s);
      break;
   }
   mix(g, acc, s, 'x');
   return true;
}

/* The inexact float channels (MAD, RCP, POW, conversions... results:
 * correct implementations differ within a tolerance) into TEMP[acc2].x.
 * ref and opt run on the same emulator and must agree to the bit (the
 * comparison's rule between them), except where no model fixes the bits:
 * a NaN's payload, the sign of a zero, a denormal (flushed or not). So a
 * channel goes in as 0 unless |x| >= 2^-126 (FSGE is false for NaN). The
 * interpreter marks the word BITS: it is compared between ref and opt only,
 * and under an inexact transform (fuse-ffma) the interpreter makes its
 * bound unbounded (an integer view of a value within a bound). */
static void
mix_inexact(struct gen *g, unsigned acc2, unsigned s)
{
   if (!gen_ok(g, TGSI_OP_FSGE))
      return;
   struct opnd tiny = {0}, z = {0};
   gen_imm_u(g, 0x00800000u, &tiny);
   gen_imm_u(g, 0, &z);
   for (unsigned r = 0; r < g->ntemp; r++) {
      uint8_t e = g->ready[r] ? gen_chans_of(g, r, GT_F) & g->inexact[r] : 0;
      e &= (uint8_t)~g->cmp[r];
      for (unsigned c = 0; c < 4; c++) {
         if (!(e & (1u << c)))
            continue;
         char ch = "xyzw"[c];
         gen_emit(g, "FSGE TEMP[%u].w, |TEMP[%u].%c%c%c%c|, %s", s, r, ch, ch, ch, ch, tiny.s);
         gen_emit(g, "UCMP TEMP[%u].x, TEMP[%u].wwww, TEMP[%u].%c%c%c%c, %s", s, s, r, ch, ch, ch,
                  ch, z.s);
         mix(g, acc2, s, 'x');
      }
   }
}

/* Double pairs, both words: an exact one into the exact word acc (a NaN
 * made 0: its payload is open), an inexact one (DDIV, DSQRT, DRCP, DMIN,
 * DMAX, DMAD) into acc2, also with a zero made +0 (DMIN/DMAX leave its
 * sign open). DDIV, DSQRT and DRCP round correctly on every path, so ref
 * and opt agree to the bit and a wrong last step of an expansion shows. */
static void
mix_doubles(struct gen *g, unsigned acc, unsigned acc2, unsigned s)
{
   static const enum tgsi_opcode need[] = {TGSI_OP_DSEQ, TGSI_OP_DSNE, TGSI_OP_AND};
   if (!g->fp64 || !gen_ok_all(g, need, ARRAY_SIZE(need)))
      return;
   struct opnd z = {0}, dz = {0};
   static const char *const zeros[4] = {"0", "0", "0", "0"};
   gen_imm_u(g, 0, &z);
   gen_imm_vec(g, true, zeros, &dz);
   for (unsigned r = 0; r < g->ntemp; r++) {
      if (!g->ready[r])
         continue;
      for (unsigned p = 0; p < 2; p++) {
         if (g->ty[r][2 * p] != GT_D || g->ty[r][2 * p + 1] != GT_D)
            continue;
         const char *sw = p ? "zwzw" : "xyxy";
         bool inexact = (g->inexact[r] >> (2 * p)) & 3;
         gen_emit(g, "DSEQ TEMP[%u].w, TEMP[%u].%s, TEMP[%u].%s", s, r, sw, r, sw);
         if (inexact) {
            gen_emit(g, "DSNE TEMP[%u].z, TEMP[%u].%s, %s", s, r, sw, dz.s);
            gen_emit(g, "AND TEMP[%u].w, TEMP[%u].wwww, TEMP[%u].zzzz", s, s, s);
         }
         gen_emit(g, "UCMP TEMP[%u].xy, TEMP[%u].wwww, TEMP[%u].%s, %s", s, s, r, sw, z.s);
         mix(g, inexact ? acc2 : acc, s, 'x');
         mix(g, inexact ? acc2 : acc, s, 'y');
      }
   }
}

/* Subgroup votes under a lane-dependent condition (shaders with an FMA,
 * which a3xx -- no subgroup operations either -- already leaves out): UIF on a bit or
 * two of a lane key (gen_lane_key), then VOTE_ANY, VOTE_ALL or VOTE_EQ of the
 * condition itself (true in every lane the arm runs), an integer uniform,
 * or an exact integer (masked to a bit or two in half of them), BALLOT's mask (.xy: the high word
 * is 0 in a 32-lane subgroup) or READ_FIRST, mixed into the sink inside the arm. The active lanes
 * of each subgroup are what the interpreter's execution mask says, so a vote that counts lanes the
 * branch left out (or misses a lane it took) changes the hash. Sometimes a second condition nests
 * inside. */
static void
votes(struct gen *g, unsigned acc, unsigned s)
{
   static const enum tgsi_opcode ops[] = {TGSI_OP_VOTE_ANY, TGSI_OP_VOTE_ALL, TGSI_OP_VOTE_EQ,
                                          TGSI_OP_BALLOT, TGSI_OP_READ_FIRST};
   static const uint32_t bits[] = {1, 2, 3, 5, 0x10};
   if (!gen_ok_all(g, ops, ARRAY_SIZE(ops)) || !gen_ok(g, TGSI_OP_UIF) || !gen_ok(g, TGSI_OP_AND))
      return;
   for (unsigned n = 1 + gen_pick(g, 3); n--;) {
      unsigned nest = gen_chance(g, 25) ? 2 : 1;
      for (unsigned d = 0; d < nest; d++) {
         struct opnd c = {0}, k = {0};
         /* a bit or two of a lane key's top byte (gen_cf.c: taken by
          * some lanes of nearly every subgroup and not by others), else
          * of an exact integer, whose low bits often agree in all lanes */
         if (gen_lane_key(g, s, 'w')) {
            gen_imm_u(g, bits[gen_pick(g, ARRAY_SIZE(bits))] << 27, &k);
            gen_emit(g, "AND TEMP[%u].w, TEMP[%u].wwww, %s", s, s, k.s);
         } else {
            gen_src_plain(g, GT_I, &c);
            gen_imm_u(g, bits[gen_pick(g, ARRAY_SIZE(bits))], &k);
            gen_emit(g, "AND TEMP[%u].w, %s, %s", s, c.s, k.s);
         }
         gen_emit(g, "UIF TEMP[%u].wwww", s);
         g->depth++;
      }
      enum tgsi_opcode op = ops[gen_pick(g, ARRAY_SIZE(ops))];
      struct opnd v = {0}, k = {0};
      switch (gen_pick(g, 4)) {
      case 0: /* the condition: true in every lane the arm runs */
         snprintf(v.s, sizeof(v.s), "TEMP[%u].wwww", s);
         break;
      case 1: /* an integer uniform: equal in every lane */
      {
         const char *swizzle = gen_chance(g, 50) ? "xxxx" : "yyyy";
         unsigned slot = g->nconst + gen_pick(g, GEN_INT_CONSTS);
         snprintf(v.s, sizeof(v.s), "CONST[0][%u].%s", slot, swizzle);
      }
         g->used_iconst = true;
         if (g->noconst) /* (an immediate is uniform too) */
            gen_imm_u(g, 0x12345u, &v);
         break;
      case 2: /* a lane's value masked to a bit or two */
         gen_src_plain(g, GT_I, &v);
         gen_imm_u(g, bits[gen_pick(g, 3)], &k);
         gen_emit(g, "AND TEMP[%u].z, %s, %s", s, v.s, k.s);
         snprintf(v.s, sizeof(v.s), "TEMP[%u].zzzz", s);
         break;
      default:
         gen_src_plain(g, GT_I, &v);
         break;
      }
      bool ballot = op == TGSI_OP_BALLOT;
      gen_emit(g, "%s TEMP[%u].%s, %s", tgsi_op_info[op].name, s, ballot ? "xy" : "x", v.s);
      mix(g, acc, s, 'x');
      if (ballot)
         mix(g, acc, s, 'y');
      for (unsigned d = 0; d < nest; d++) {
         g->depth--;
         gen_emit(g, "ENDIF");
      }
   }
}

/* Whether gen_shape_sink writes a sink (known before: a geometry shader's
 * earlier vertices carry the sink's output too). */
bool
gen_shape_sink_ok(struct gen *g)
{
   static const enum tgsi_opcode need[] = {TGSI_OP_UMAD, TGSI_OP_AND,  TGSI_OP_USHR, TGSI_OP_OR,
                                           TGSI_OP_MOV,  TGSI_OP_FSNE, TGSI_OP_UCMP};
   return gen_ok_all(g, need, ARRAY_SIZE(need)) &&
          (g->stage != TGSI_STAGE_COMP || (gen_ok(g, TGSI_OP_STORE) && gen_ok(g, TGSI_OP_SHL)));
}

/* Writes the sink into OUT[g->nout] (declared by the caller when true). */
bool
gen_shape_sink(struct gen *g)
{
   if (!gen_shape_sink_ok(g))
      return false;
   /* the side stream: the main stream's choices stay as they were */
   struct rng side;
   rng_seed(&side, hash64(&g->rng, sizeof(g->rng), 0x5a4e));
   struct rng main_rng = g->rng;
   size_t nbytes = g->nbytes;
   g->rng = side;
   g->nbytes = g->pos;

   unsigned acc = g->t_loop, s = g->t_scr;
   struct opnd k = {0}, m = {0}, one = {0};
   gen_imm_u(g, 0x9e3779b9u, &k);
   gen_emit(g, "MOV TEMP[%u].x, %s", acc, k.s);
   /* the shapes read no compare result either (marked inexact meanwhile) */
   uint8_t inexact[GEN_MAX_TEMPS];
   memcpy(inexact, g->inexact, sizeof(inexact));
   for (unsigned r = 0; r < g->ntemp; r++)
      g->inexact[r] |= g->cmp[r];
   for (unsigned n = 2 + gen_pick(g, 5); n--;)
      if (!(gen_chance(g, 35) ? packed(g, acc, s) : edge_op(g, acc, s)))
         packed(g, acc, s);
   /* only where an FMA already makes the shader n/a on a3xx */
   if (g->fma && gen_chance(g, 67) && g->body.s && strstr(g->body.s, " FMA "))
      votes(g, acc, s);
   memcpy(g->inexact, inexact, sizeof(inexact));
   for (unsigned r = 0; r < g->ntemp; r++) {
      uint8_t e = g->ready[r] ? gen_chans_exact(g, r, GT_I) | gen_chans_exact(g, r, GT_F) : 0;
      e &= (uint8_t)~g->cmp[r]; /* kept to the end, compares fill sm50's 7 predicates */
      for (unsigned c = 0; c < 4; c++)
         if (e & (1u << c))
            mix(g, acc, r, "xyzw"[c]);
   }
   unsigned acc2 = g->t_loop + 1;
   gen_imm_u(g, 0x85ebca6bu, &k);
   gen_emit(g, "MOV TEMP[%u].x, %s", acc2, k.s);
   mix_doubles(g, acc, acc2, s);
   mix_inexact(g, acc2, s);
   if (g->stage == TGSI_STAGE_COMP) {
      gen_imm_u(g, 3, &k);
      gen_emit(g, "SHL TEMP[%u].x, TEMP[%u].xxxx, %s", s, g->t_gid, k.s);
      gen_emit(g, "MOV TEMP[%u].y, TEMP[%u].xxxx", acc, acc2);
      gen_emit(g, "STORE BUFFER[%u].xy, TEMP[%u].xxxx, TEMP[%u]", GEN_SINK_BUF, s, acc);
      g->rng = main_rng;
      g->nbytes = nbytes;
      return true;
   }
   gen_imm_u(g, 0xffff, &m);
   gen_imm_u(g, 16, &k);
   gen_imm_u(g, 0x3f800000u, &one);
   gen_emit(g, "AND TEMP[%u].y, TEMP[%u].xxxx, %s", s, acc, m.s);
   gen_emit(g, "USHR TEMP[%u].z, TEMP[%u].xxxx, %s", s, acc, k.s);
   gen_emit(g, "AND TEMP[%u].x, TEMP[%u].xxxx, %s", s, acc2, m.s);
   gen_emit(g, "USHR TEMP[%u].w, TEMP[%u].xxxx, %s", s, acc2, k.s);
   gen_emit(g, "OR TEMP[%u], TEMP[%u], %s", s, s, one.s);
   char o[24];
   gen_emit(g, "MOV %s, TEMP[%u]", gen_out_reg(g, g->nout, o), s);

   g->rng = main_rng;
   g->nbytes = nbytes;
   return true;
}
