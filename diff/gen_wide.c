/*
 * The random shader generator's 64-bit values: 64-bit integer arithmetic
 * in every shader that has integers to work with, doubles in the shaders
 * setup() marks fp64 (a3xx has no doubles: those are n/a there).
 *
 * A 64-bit value spans a channel pair of a temporary, xy or zw, low word
 * first (tgsi_interp_wide.c has the channel mapping). Integer pairs are
 * two GT_I channels, doubles two GT_D channels; a pair is a source only
 * when both of its channels have the type and are exact (a value known
 * within a tolerance is never read as bits or fed to a compare). Under
 * control flow a result goes only to a pair that already holds its type.
 *
 * Defined results: shifts take counts ANDed into [0, 63] by TGSI itself;
 * divisors are forced odd (never 0) and, for the signed ops, never -1
 * (no INT64_MIN / -1: bit 62 cleared, either sign); a float converted to
 * 64 bits is clamped first. Four divisions in ten are followed by one or
 * two companions (div_companions) on the same divisor and dividend or on
 * pairs that share one of their words, of either signedness.
 * Exactness: 64-bit integer ops are exact; DADD, DMUL and the conversions
 * round correctly (exact from exact sources); DMAD, DRCP, DSQRT, DMIN,
 * DMAX and 64-bit integer to float conversions are inexact.
 */
#include "diff/gen_priv.h"

#include <stdio.h>
#include <stdlib.h>

enum { W_BIN, W_UN, W_CMP, W_SHIFT, W_DIV };

struct wop {
   enum tgsi_opcode op;
   uint8_t kind;
   bool inexact;
};

static const struct wop int64_ops[] = {
    {TGSI_OP_U64ADD, W_BIN, false},   {TGSI_OP_U64MUL, W_BIN, false},
    {TGSI_OP_U64MIN, W_BIN, false},   {TGSI_OP_U64MAX, W_BIN, false},
    {TGSI_OP_I64MIN, W_BIN, false},   {TGSI_OP_I64MAX, W_BIN, false},
    {TGSI_OP_I64NEG, W_UN, false},    {TGSI_OP_I64ABS, W_UN, false},
    {TGSI_OP_I64SSG, W_UN, false},    {TGSI_OP_U64SHL, W_SHIFT, false},
    {TGSI_OP_U64SHR, W_SHIFT, false}, {TGSI_OP_I64SHR, W_SHIFT, false},
    {TGSI_OP_U64SEQ, W_CMP, false},   {TGSI_OP_U64SNE, W_CMP, false},
    {TGSI_OP_U64SLT, W_CMP, false},   {TGSI_OP_I64SLT, W_CMP, false},
    {TGSI_OP_U64SGE, W_CMP, false},   {TGSI_OP_I64SGE, W_CMP, false},
    {TGSI_OP_U64DIV, W_DIV, false},   {TGSI_OP_U64MOD, W_DIV, false},
    {TGSI_OP_I64DIV, W_DIV, false},   {TGSI_OP_I64MOD, W_DIV, false},
};

static const struct wop double_ops[] = {
    {TGSI_OP_DADD, W_BIN, false}, {TGSI_OP_DMUL, W_BIN, false}, {TGSI_OP_DMIN, W_BIN, true},
    {TGSI_OP_DMAX, W_BIN, true},  {TGSI_OP_DRCP, W_UN, true},   {TGSI_OP_DSQRT, W_UN, true},
    {TGSI_OP_DSLT, W_CMP, false}, {TGSI_OP_DSGE, W_CMP, false}, {TGSI_OP_DSEQ, W_CMP, false},
    {TGSI_OP_DSNE, W_CMP, false}, {TGSI_OP_DMAD, W_BIN, true},
};

/* Pair mask of temporary r holding type ty (bit 0: xy, bit 1: zw);
 * exact: both channels exact too. */
static unsigned
pairs_of(const struct gen *g, unsigned r, enum gty ty, bool exact)
{
   unsigned m = 0;
   for (unsigned p = 0; p < 2; p++) {
      bool ok = g->ty[r][2 * p] == ty && g->ty[r][2 * p + 1] == ty;
      if (exact)
         ok &= !((g->inexact[r] >> (2 * p)) & 3);
      if (ok)
         m |= 1u << p;
   }
   return m;
}

/* A 64-bit source of type ty as ".xyxy"/".zwzw" of a temporary, or (imm)
 * an immediate pair for integers; false if there is none. *reg and *pair
 * (when given) name the temporary and its pair, *reg -1 for an immediate. */
static bool
pair_src_at(struct gen *g, enum gty ty, bool imm, struct opnd *o, int *reg, unsigned *pair)
{
   if (reg)
      *reg = -1;
   unsigned cand[GEN_MAX_TEMPS], pm[GEN_MAX_TEMPS], n = 0;
   for (unsigned r = 0; r < g->ntemp; r++)
      if (g->ready[r] && (pm[n] = pairs_of(g, r, ty, true)) != 0)
         cand[n++] = r;
   if (imm && ty == GT_I && (!n || gen_chance(g, 20))) {
      char v[4][GEN_TEXT_LEN];
      const char *vals[4];
      for (unsigned c = 0; c < 4; c++) {
         gen_int_text(g, v[c]);
         vals[c] = v[c];
      }
      gen_imm_vec(g, true, vals, o);
      return true;
   }
   if (!n)
      return false;
   unsigned k = gen_pick(g, n), p = pm[k] == 3 ? gen_pick(g, 2) : pm[k] == 2;
   snprintf(o->s, sizeof(o->s), "TEMP[%u].%s", cand[k], p ? "zwzw" : "xyxy");
   o->dep = (g->dep[cand[k]] >> (2 * p)) & 3;
   o->inexact = false;
   if (ty == GT_D && gen_chance(g, 15))
      snprintf(o->s, sizeof(o->s), "-TEMP[%u].%s", cand[k], p ? "zwzw" : "xyxy");
   if (reg) {
      *reg = (int)cand[k];
      *pair = p;
   }
   return true;
}

static bool
pair_src(struct gen *g, enum gty ty, struct opnd *o)
{
   return pair_src_at(g, ty, true, o, NULL, NULL);
}

/* A destination pair (mask .xy or .zw) for a 64-bit result of type ty. */
static void
pair_dst(struct gen *g, enum gty ty, unsigned *r, uint8_t *mask)
{
   for (int tries = 0; tries < 8; tries++) {
      unsigned t = gen_pick(g, g->ntemp), p = gen_pick(g, 2);
      if (g->depth && !(pairs_of(g, t, ty, false) & (1u << p)))
         continue;
      *r = t;
      *mask = p ? 0xc : 0x3;
      return;
   }
   /* under control flow with no pair of the type: the scratch register,
    * which no one reads as a value */
   *r = g->t_scr;
   *mask = 0x3;
}

/* A 32-bit destination channel of type ty (compares, conversions). */
static void
chan_dst(struct gen *g, enum gty ty, unsigned *r, uint8_t *mask)
{
   gen_dst_pick(g, ty, r, mask);
   unsigned c = 0;
   while (!(*mask & (1u << c)))
      c++;
   *mask = (uint8_t)(1u << c);
}

static void
record(struct gen *g, unsigned r, uint8_t mask, enum gty ty, bool dep, bool inexact)
{
   if (r < g->ntemp)
      gen_dst_set(g, r, mask, ty, dep, inexact);
}

/* "OP TEMP[r].mask, srcs" */
static void
emit_wide(struct gen *g, enum tgsi_opcode op, unsigned r, uint8_t mask, const struct opnd *s,
          unsigned n)
{
   char line[400], db[24];
   int k = snprintf(line, sizeof(line), "%s %s", tgsi_op_info[op].name, gen_dst_str(r, mask, db));
   for (unsigned i = 0; i < n; i++)
      k += snprintf(line + k, sizeof(line) - (size_t)k, ", %s", s[i].s);
   gen_emit(g, "%s", line);
}

/* Divisions right after one (companions) that read its divisor -- the
 * scratch register, not written in between -- and its dividend, each with
 * one part of the key changed: none, the signedness, or one word of either
 * operand (a pair that shares the other word). opt's lowering runs one
 * loop for the divisions of a block with the same operands
 * (opt_lower_int64.c divide_loop, keyed by the signedness and the four
 * words): the same operands share it, a near miss must not. The divisor's
 * other pair takes its words XOR 2: the low word stays odd, the high word
 * keeps its sign and bit 30 (never -1), so an op of either signedness is
 * defined. a: the dividend, pair ap of TEMP[ar] (ar -1: an immediate);
 * dp: the pair the first division wrote, whose words of the divisor it
 * read. */
static void
div_companions(struct gen *g, const struct opnd *a, int ar, unsigned ap, bool dep_b, unsigned dp,
               enum tgsi_opcode first)
{
   static const enum tgsi_opcode ops[2][2] = {{TGSI_OP_U64DIV, TGSI_OP_U64MOD},
                                              {TGSI_OP_I64DIV, TGSI_OP_I64MOD}};
   static const char *const two[4] = {"2", "2", "2", "2"};
   static const char xyzw[] = "xyzw";
   if (!gen_ok(g, TGSI_OP_XOR))
      return;
   struct opnd k = {0};
   gen_imm_vec(g, true, two, &k);
   const char *same = dp ? "zwzw" : "xyxy";
   gen_emit(g, "XOR TEMP[%u].%s, TEMP[%u].%s, %s", g->t_scr, dp ? "xy" : "zw", g->t_scr, same, k.s);
   bool sign = first == TGSI_OP_I64DIV || first == TGSI_OP_I64MOD;
   struct opnd t = {0};
   unsigned n = 1 + gen_pick(g, 2);
   if (ar < 0 && pair_src_at(g, GT_I, false, &t, &ar, &ap)) {
      /* an immediate dividend's words are made for each use: the
       * companions take a temporary's pair, the second the first's key */
      a = &t;
      n = 2;
   }
   while (n--) {
      unsigned vary = gen_pick(g, 6); /* 2, 3: the dividend's low, high word; 4, 5: the divisor's */
      struct opnd s[2] = {*a, {.dep = dep_b}};
      snprintf(s[1].s, sizeof(s[1].s), "TEMP[%u].%s", g->t_scr, same);
      if ((vary == 2 || vary == 3) && ar >= 0) {
         /* the changed word from another exact integer channel of the
          * dividend's temporary (it may repeat the kept word) */
         unsigned keep = 2 * ap + (vary == 2), cand[4], nc = 0;
         for (unsigned c = 0; c < 4; c++)
            if (c != (keep ^ 1u) && g->ty[ar][c] == GT_I && !((g->inexact[ar] >> c) & 1))
               cand[nc++] = c;
         unsigned c = nc ? cand[gen_pick(g, nc)] : keep; /* keep itself qualifies */
         unsigned lo = vary == 2 ? c : keep, hi = vary == 2 ? keep : c;
         snprintf(s[0].s, sizeof(s[0].s), "TEMP[%d].%c%c%c%c", ar, xyzw[lo], xyzw[hi], xyzw[lo],
                  xyzw[hi]);
         s[0].dep = ((g->dep[ar] >> lo) | (g->dep[ar] >> hi)) & 1;
      } else if (vary == 4 || vary == 5) {
         unsigned lo = 2 * (dp ^ (vary == 4)), hi = 2 * (dp ^ (vary == 5)) + 1;
         snprintf(s[1].s, sizeof(s[1].s), "TEMP[%u].%c%c%c%c", g->t_scr, xyzw[lo], xyzw[hi],
                  xyzw[lo], xyzw[hi]);
      }
      enum tgsi_opcode op = ops[sign ^ (vary == 1)][gen_pick(g, 2)];
      unsigned r;
      uint8_t mask;
      if (!gen_ok(g, op))
         return;
      pair_dst(g, GT_I, &r, &mask);
      if (r == g->t_scr) /* no pair to write under control flow */
         return;
      emit_wide(g, op, r, mask, s, 2);
      record(g, r, mask, GT_I, s[0].dep || s[1].dep, false);
   }
}

/* A 64-bit op of table t on values of type ty. */
static bool
stmt_op(struct gen *g, const struct wop *t, unsigned nt, enum gty ty)
{
   const struct wop *w = &t[gen_pick(g, nt)];
   if (!gen_ok(g, w->op))
      return false;
   struct opnd s[3] = {0};
   unsigned ns = w->kind == W_UN ? 1 : w->op == TGSI_OP_DMAD ? 3 : 2;
   int ar = -1; /* the first source's temporary and pair */
   unsigned ap = 0;
   for (unsigned i = 0; i < ns; i++)
      if (!(w->kind == W_SHIFT && i == 1) && !pair_src_at(g, ty, true, &s[i], i ? NULL : &ar, &ap))
         return false;
   if (w->kind == W_SHIFT) {
      gen_src_plain(g, GT_I, &s[1]);
   } else if (w->kind == W_DIV) {
      /* divisor: low word odd (never 0); unsigned, high word positive;
       * signed, either sign but never -1 (bit 62 clear: no INT64_MIN /
       * -1), so that the quotient's and the remainder's signs, which the
       * division loop's expansion carries from before the loop to after
       * it, take both values */
      static const char *const mu[4] = {"1", "2147483647", "1", "2147483647"};
      static const char *const ms[4] = {"1", "3221225471", "1", "3221225471"};
      bool is_signed = w->op == TGSI_OP_I64DIV || w->op == TGSI_OP_I64MOD;
      struct opnd k = {0};
      if (!gen_ok(g, TGSI_OP_OR) || !gen_ok(g, TGSI_OP_AND))
         return false;
      gen_imm_vec(g, true, is_signed ? ms : mu, &k);
      gen_emit(g, "OR TEMP[%u].xz, %s, %s", g->t_scr, s[1].s, k.s);
      gen_emit(g, "AND TEMP[%u].yw, %s, %s", g->t_scr, s[1].s, k.s);
      snprintf(s[1].s, sizeof(s[1].s), "TEMP[%u]", g->t_scr);
   }
   bool dep = s[0].dep || s[1].dep || s[2].dep;
   unsigned r;
   uint8_t mask;
   if (w->kind == W_CMP) {
      chan_dst(g, GT_I, &r, &mask);
      /* the first masked channel takes pair xy */
      emit_wide(g, w->op, r, mask, s, ns);
      record(g, r, mask, GT_I, dep, false);
      return true;
   }
   pair_dst(g, ty, &r, &mask);
   emit_wide(g, w->op, r, mask, s, ns);
   record(g, r, mask, ty, dep, w->inexact);
   /* drawn without advancing the state: a division without companions
    * leaves the rest of the shader as it was before there were any */
   if (w->kind == W_DIV && r != g->t_scr && hash64(&g->rng, sizeof(g->rng), 0xd1f) % 100 < 40)
      div_companions(g, &s[0], ar, ap, s[1].dep, mask == 0xc, w->op);
   return true;
}

/* 32 <-> 64-bit conversions. */
static bool
stmt_convert64(struct gen *g)
{
   struct opnd s[1] = {0};
   unsigned r;
   uint8_t mask;
   unsigned kind = gen_pick(g, g->fp64 ? 6 : 3);
   switch (kind) {
   case 0: { /* 32-bit integer -> 64 */
      enum tgsi_opcode op = gen_chance(g, 50) ? TGSI_OP_U2I64 : TGSI_OP_I2I64;
      if (!gen_ok(g, op))
         return false;
      gen_src_plain(g, GT_I, &s[0]);
      pair_dst(g, GT_I, &r, &mask);
      emit_wide(g, op, r, mask, s, 1);
      record(g, r, mask, GT_I, s[0].dep, false);
      return true;
   }
   case 1: { /* 64-bit integer -> float: rounds */
      enum tgsi_opcode op = gen_chance(g, 50) ? TGSI_OP_U642F : TGSI_OP_I642F;
      if (!gen_ok(g, op) || !pair_src(g, GT_I, &s[0]))
         return false;
      chan_dst(g, GT_F, &r, &mask);
      emit_wide(g, op, r, mask, s, 1);
      record(g, r, mask, GT_F, s[0].dep, true);
      return true;
   }
   case 2: { /* float -> 64-bit integer, clamped first (exact source) */
      enum tgsi_opcode op = gen_chance(g, 50) ? TGSI_OP_F2U64 : TGSI_OP_F2I64;
      if (!gen_ok(g, op) || !gen_ok(g, TGSI_OP_MAX) || !gen_ok(g, TGSI_OP_MIN))
         return false;
      struct opnd f = {0};
      gen_src_exact(g, &f);
      gen_clamp_to_scratch(g, &f, op == TGSI_OP_F2U64 ? "0" : "-1e+06", "1e+06", &s[0]);
      pair_dst(g, GT_I, &r, &mask);
      emit_wide(g, op, r, mask, s, 1);
      record(g, r, mask, GT_I, s[0].dep, false);
      return true;
   }
   case 3: { /* float or integer -> double: exact */
      static const enum tgsi_opcode ops[] = {TGSI_OP_F2D, TGSI_OP_I2D, TGSI_OP_U2D};
      enum tgsi_opcode op = ops[gen_pick(g, 3)];
      if (!gen_ok(g, op))
         return false;
      if (op == TGSI_OP_F2D)
         gen_src_any(g, GT_F, &s[0]);
      else
         gen_src_plain(g, GT_I, &s[0]);
      pair_dst(g, GT_D, &r, &mask);
      emit_wide(g, op, r, mask, s, 1);
      record(g, r, mask, GT_D, s[0].dep, s[0].inexact);
      return true;
   }
   default: { /* double -> float: rounds once, correctly */
      if (!gen_ok(g, TGSI_OP_D2F))
         return false;
      unsigned cand[GEN_MAX_TEMPS], pm[GEN_MAX_TEMPS], n = 0;
      for (unsigned t = 0; t < g->ntemp; t++)
         if ((pm[n] = pairs_of(g, t, GT_D, false)) != 0)
            cand[n++] = t;
      if (!n)
         return false;
      unsigned k = gen_pick(g, n), p = pm[k] == 3 ? gen_pick(g, 2) : pm[k] == 2;
      bool inexact = (g->inexact[cand[k]] >> (2 * p)) & 3;
      snprintf(s[0].s, sizeof(s[0].s), "TEMP[%u].%s", cand[k], p ? "zwzw" : "xyxy");
      chan_dst(g, GT_F, &r, &mask);
      emit_wide(g, TGSI_OP_D2F, r, mask, s, 1);
      record(g, r, mask, GT_F, (g->dep[cand[k]] >> (2 * p)) & 3, inexact);
      return true;
   }
   }
}

/* Doubles as (low word, high word): +-0, +-1, +-inf, NaN, the smallest
 * normal, the smallest subnormal and the largest finite, each of both
 * signs (-4.9e-324 is the one double whose high word is 0x80000000 and
 * whose low word is not 0: a sign test of the high word alone, or against
 * 0x80000000 off by one, meets it), the largest subnormal, 0.1, 3, -0.75. */
static const uint32_t dspecials[][2] = {
    {0, 0},
    {0, 0x80000000u},
    {0, 0x3ff00000u},
    {0, 0xbff00000u},
    {0, 0x7ff00000u},
    {0, 0xfff00000u},
    {0, 0x7ff80000u},
    {0, 0x00100000u},
    {1, 0},
    {0xffffffffu, 0x7fefffffu},
    {0x9999999au, 0x3fb99999u},
    {0, 0x40080000u},
    {0, 0xbfe80000u},
    {0, 0x80100000u},
    {1, 0x80000000u},
    {0xffffffffu, 0xffefffffu},
    {0xffffffffu, 0x000fffffu},
};

/* DLDEXP counts that make subnormal, tiny, huge and overflowing results
 * from operands near 1, and the clamp's neighbourhood (+-4000). */
static const char *const dexps[] = {"-1074", "-1070", "-1050", "-1023", "-1022",     "-600",
                                    "1000",  "1023",  "1024",  "2000",  "4294965296"};

/* A special double as an immediate line {lo, hi, lo, hi}. */
static void
dspecial(struct gen *g, struct opnd *o)
{
   char v[4][GEN_TEXT_LEN];
   const char *vals[4];
   unsigned k = gen_pick(g, ARRAY_SIZE(dspecials));
   for (unsigned c = 0; c < 4; c++) {
      snprintf(v[c], GEN_TEXT_LEN, "%u", dspecials[k][c & 1]);
      vals[c] = v[c];
   }
   gen_imm_vec(g, true, vals, o);
}

/* The run's other operand: a special (a fold of it when the run is one
 * too), another exact double, or the run itself. */
static void
run_operand(struct gen *g, const struct opnd *self, struct opnd *o)
{
   unsigned k = gen_pick(g, 10);
   if (k < 4 || (k < 8 && !pair_src(g, GT_D, o)))
      dspecial(g, o);
   else if (k >= 8)
      *o = *self;
}

/* The start of a run: a double uniform as it is, so that the input
 * profiles' doubles (specials, and boundaries: DBL_MAX and its neighbours,
 * 2^1023, the smallest normal, subnormals, 2^k and one ulp either side)
 * reach the run's ops at run time; a double made from a float or an
 * integer is never near those limits. x + -0 is x for every x. */
static bool
run_from_uniform(struct gen *g, unsigned r, uint8_t mask)
{
   static const char *const mz[4] = {"0", "2147483648", "0", "2147483648"};
   struct opnd s[2] = {0};
   if (!gen_ok(g, TGSI_OP_DADD))
      return false;
   snprintf(s[0].s, sizeof(s[0].s), "CONST[0][%u].%s", g->nconst + GEN_INT_CONSTS,
            gen_chance(g, 50) ? "xyxy" : "zwzw");
   gen_imm_vec(g, true, mz, &s[1]);
   emit_wide(g, TGSI_OP_DADD, r, mask, s, 2);
   g->used_dconst = true;
   return true;
}

/* A run of doubles that feed each other (fp64 shaders): a double made
 * from an exact float or integer or a double uniform, then 2 to 5 operations each on the
 * last result and a special, another double or itself -- DADD, DMUL,
 * DFMA, DDIV and DSQRT and DRCP (on specials too: 0, infinities, NaN,
 * negatives, subnormals), DLDEXP by counts that make subnormal and
 * overflowing results, DMIN/DMAX, and while the run is exact DSSG, DFLR,
 * DCEIL, DTRUNC, DROUND and DABS -- so a miscompiled expansion (sm50
 * builds DDIV, DSQRT, DRCP and DLDEXP from integer and DFMA steps) meets
 * the operands it gets wrong and its result is observed: the sink hashes
 * every double pair (gen_shape.c). */
static bool
stmt_double_run(struct gen *g)
{
   static const enum tgsi_opcode need[] = {TGSI_OP_F2D,  TGSI_OP_I2D,    TGSI_OP_DADD,
                                           TGSI_OP_DMUL, TGSI_OP_DDIV,   TGSI_OP_DSQRT,
                                           TGSI_OP_DRCP, TGSI_OP_DLDEXP, TGSI_OP_DFMA};
   for (unsigned i = 0; i < ARRAY_SIZE(need); i++)
      if (!gen_ok(g, need[i]))
         return false;
   unsigned r;
   uint8_t mask;
   struct opnd s[3] = {0}, self = {0}, neg = {0};
   pair_dst(g, GT_D, &r, &mask);
   if (r >= g->ntemp) /* under control flow with no double pair: it would be dead */
      return false;
   const char *sw = mask == 0x3 ? "xyxy" : "zwzw";
   snprintf(self.s, sizeof(self.s), "TEMP[%u].%s", r, sw);
   snprintf(neg.s, sizeof(neg.s), "-TEMP[%u].%s", r, sw);
   if (!g->noconst && gen_chance(g, 30) && run_from_uniform(g, r, mask)) {
      /* nothing to convert */
   } else {
      bool from_int = gen_chance(g, 35);
      if (from_int)
         gen_src_plain(g, GT_I, &s[0]);
      else
         gen_src_exact(g, &s[0]);
      emit_wide(g, from_int ? TGSI_OP_I2D : TGSI_OP_F2D, r, mask, s, 1);
   }
   bool dep = s[0].dep, inexact = false;
   record(g, r, mask, GT_D, dep, inexact);
   for (unsigned n = 2 + gen_pick(g, 4); n--;) {
      static const enum tgsi_opcode ops[] = {
          TGSI_OP_DADD, TGSI_OP_DMUL,   TGSI_OP_DDIV,   TGSI_OP_DDIV, TGSI_OP_DSQRT, TGSI_OP_DRCP,
          TGSI_OP_DFMA, TGSI_OP_DLDEXP, TGSI_OP_DLDEXP, TGSI_OP_DMIN, TGSI_OP_DMAX};
      /* the exact unary ops, on an exact run only (the rounding ops jump
       * at thresholds): their results keep every bit of the sign or the
       * integer part, which a later D2F would round away */
      static const enum tgsi_opcode exact_ops[] = {TGSI_OP_DSSG,   TGSI_OP_DFLR,   TGSI_OP_DCEIL,
                                                   TGSI_OP_DTRUNC, TGSI_OP_DROUND, TGSI_OP_DABS};
      enum tgsi_opcode op = ops[gen_pick(g, ARRAY_SIZE(ops))];
      if (!inexact && gen_chance(g, 25)) {
         enum tgsi_opcode e = exact_ops[gen_pick(g, ARRAY_SIZE(exact_ops))];
         op = gen_ok(g, e) ? e : op;
      }
      unsigned ns = 2;
      s[0] = gen_chance(g, 15) ? neg : self;
      bool exact_un = false;
      for (unsigned i = 0; i < ARRAY_SIZE(exact_ops); i++)
         exact_un |= op == exact_ops[i];
      if (exact_un) { /* of specials too: -0.75, -0, -1, infinities, NaN */
         ns = 1;
         if (gen_chance(g, 30))
            dspecial(g, &s[0]);
      } else if (op == TGSI_OP_DSQRT || op == TGSI_OP_DRCP) {
         ns = 1;
         if (gen_chance(g, 30))
            dspecial(g, &s[0]);
      } else if (op == TGSI_OP_DLDEXP) {
         gen_imm_u(g, (uint32_t)strtoul(dexps[gen_pick(g, ARRAY_SIZE(dexps))], NULL, 10), &s[1]);
      } else {
         run_operand(g, &self, &s[1]);
         if (op == TGSI_OP_DDIV && gen_chance(g, 50)) { /* a special or another double / the run */
            struct opnd t = s[0];
            s[0] = s[1];
            s[1] = t;
         }
         if (op == TGSI_OP_DFMA) {
            ns = 3;
            run_operand(g, &self, &s[2]);
         }
      }
      for (unsigned i = 0; i < ns; i++)
         dep |= s[i].dep;
      /* DDIV, DSQRT, DRCP: correctly rounded on every path, but the
       * interpreter calls them RCP; DMIN/DMAX: a zero's sign is open */
      inexact |= op == TGSI_OP_DDIV || op == TGSI_OP_DSQRT || op == TGSI_OP_DRCP ||
                 op == TGSI_OP_DMIN || op == TGSI_OP_DMAX;
      /* most steps into another pair, so that the sink sees more of them
       * than the last (a later DLDEXP or DMUL by 0 flattens a value) */
      unsigned r2;
      uint8_t m2;
      pair_dst(g, GT_D, &r2, &m2);
      if (r2 < g->ntemp && gen_chance(g, 60)) {
         r = r2;
         mask = m2;
      }
      emit_wide(g, op, r, mask, s, ns);
      record(g, r, mask, GT_D, dep, inexact);
      sw = mask == 0x3 ? "xyxy" : "zwzw";
      snprintf(self.s, sizeof(self.s), "TEMP[%u].%s", r, sw);
      snprintf(neg.s, sizeof(neg.s), "-TEMP[%u].%s", r, sw);
   }
   return true;
}

bool
gen_stmt_wide(struct gen *g)
{
   unsigned k = gen_pick(g, 10);
   if (g->fp64 && k >= 3 && k < 8 && stmt_double_run(g))
      return true;
   if (k < 3)
      return stmt_convert64(g);
   if (k < 5 || !g->fp64)
      return stmt_op(g, int64_ops, ARRAY_SIZE(int64_ops), GT_I);
   return stmt_op(g, double_ops, ARRAY_SIZE(double_ops), GT_D);
}
