/*
 * The fuse bounds (tgsi_interp_bound.c): for chains of operations computed
 * once with every product rounded (the reference compiler) and once with
 * MUL + ADD fused (what --opt fuse-ffma allows), the difference must stay
 * within the bound the interpreter's rules give, and the rules must not be
 * vacuous: exact chains get no bound, and a bound is far below the value.
 */
#include "compiler/tgsi/tgsi.h"
#include "emu/emu.h"
#include "util/test.h"

#include <math.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static float
rnd(float lo, float hi)
{
   rng = rng * 6364136223846793005ull + 1442695040888963407ull;
   return lo + (hi - lo) * (float)((rng >> 40) * 0x1p-24);
}

static double
bound_of(uint32_t f)
{
   return env_err_value((uint16_t)(f >> ENV_ERR_SHIFT));
}

/* One component-wise op over one lane: the interpreter's flag word. */
static uint32_t
op2(enum tgsi_opcode op, float a, uint32_t af, float b, uint32_t bf, float r, uint32_t rf)
{
   uint32_t va = fui(a), vb = fui(b), vr = fui(r), z = 0;
   const uint32_t *s[3] = {&va, &vb, &z}, *sf[3] = {&af, &bf, &z};
   tgsi_interp_bound_comp(op, true, 1, &vr, &rf, s, sf);
   return rf;
}

static uint32_t
rcp1(float a, uint32_t af, float r)
{
   uint32_t va = fui(a), vr = fui(r), rf = af & ENV_F_ALL;
   const uint32_t *s[1] = {&va}, *sf[1] = {&af};
   tgsi_interp_bound_repl(TGSI_OP_RCP, true, 1, &vr, &rf, 1, s, sf, s, sf);
   return rf;
}

/* t = x*y + z (MUL then ADD), u = t*w, v = u - q, r = 1/v: the unfused and
 * the fused chain against the bound of r (and of every step). */
static void
test_chain_sound(void)
{
   unsigned checked = 0;
   for (unsigned k = 0; k < 20000; k++) {
      float x = rnd(-4, 4), y = rnd(-4, 4), z = rnd(-4, 4), w = rnd(-8, 8), q = rnd(-30, 30);
      float p = x * y;
      uint32_t pf = fmaf(x, y, -p) != 0.0f ? ENV_F_PRODUCT : 0;
      float t0 = p + z, t1 = fmaf(x, y, z);
      uint32_t tf = op2(TGSI_OP_ADD, p, pf, z, 0, t0, 0);
      CHECK(fabs((double)t0 - t1) <= bound_of(tf));
      float u0 = t0 * w, u1 = t1 * w;
      uint32_t uf = op2(TGSI_OP_MUL, t0, tf, w, 0, u0, 0);
      CHECK(fabs((double)u0 - u1) <= bound_of(uf));
      float v0 = u0 - q, v1 = u1 - q;
      uint32_t vf = op2(TGSI_OP_SUB, u0, uf, q, 0, v0, 0);
      CHECK(fabs((double)v0 - v1) <= bound_of(vf));
      float r0 = 1.0f / v0, r1 = 1.0f / v1;
      uint32_t rf = rcp1(v0, vf, r0);
      if (isfinite(bound_of(rf))) {
         CHECK(fabs((double)r0 - r1) <= bound_of(rf));
         checked++;
      }
   }
   CHECK(checked > 19000);
}

static void
test_rules(void)
{
   /* exact operands, no product rounding: no bound at all */
   CHECK(op2(TGSI_OP_ADD, 1.5f, 0, 2.25f, 0, 3.75f, 0) >> ENV_ERR_SHIFT == 0);
   CHECK(op2(TGSI_OP_MUL, 1.5f, 0, 2.25f, 0, 3.375f, 0) >> ENV_ERR_SHIFT == 0);
   /* an ADD of a rounded product: about an ulp of the product */
   uint32_t f = op2(TGSI_OP_ADD, 1.0f / 3.0f, ENV_F_PRODUCT, 1.0f, 0, 4.0f / 3.0f, 0);
   CHECK(bound_of(f) > 0x1p-26 && bound_of(f) < 0x1p-20);
   /* a compare whose operands are closer than their bounds: EDGE */
   uint32_t eb = tgsi_interp_bound_bits(0x1p-10);
   CHECK(op2(TGSI_OP_SLT, 1.0f, eb, 1.0f + 0x1p-12f, 0, 1.0f, 0) & ENV_F_EDGE);
   CHECK(!(op2(TGSI_OP_SLT, 1.0f, eb, 2.0f, 0, 1.0f, 0) & ENV_F_EDGE));
   CHECK(op2(TGSI_OP_SLT, 1.0f, eb, 2.0f, 0, 1.0f, 0) >> ENV_ERR_SHIFT == 0);
   /* a reciprocal of a value its bound reaches zero from: unbounded */
   CHECK(isinf(bound_of(rcp1(0x1p-11f, eb, 2048.0f))));
   /* MIN keeps the larger bound; a texture lookup of a bounded coordinate
    * is unbounded near a rounding, exact elsewhere, of an exact one exact */
   CHECK(bound_of(op2(TGSI_OP_MIN, 1.0f, eb, 2.0f, 0, 1.0f, 0)) == 0x1p-10);
   CHECK(isinf(bound_of(tgsi_interp_bound_lookup(eb | ENV_F_FUSE, true))));
   CHECK(tgsi_interp_bound_lookup(eb | ENV_F_FUSE, false) == ENV_F_FUSE);
   CHECK(tgsi_interp_bound_lookup(ENV_F_FUSE, true) == ENV_F_FUSE);
   /* a bound relative to the value, +inf where it reaches zero */
   CHECK(tgsi_interp_bound_rel(fui(4.0f), eb) == 0x1p-12);
   CHECK(tgsi_interp_bound_rel(fui(4.0f), 0) == 0.0);
   CHECK(isinf(tgsi_interp_bound_rel(fui(0x1p-11f), eb)));
   CHECK(isinf(tgsi_interp_bound_rel(fui(-0.0f), eb)));
   CHECK(isinf(tgsi_interp_bound_rel(fui(INFINITY), eb)));
   /* encoding rounds up and saturates */
   CHECK(bound_of(tgsi_interp_bound_bits(1.0 + 0x1p-20)) > 1.0);
   CHECK(isinf(bound_of(tgsi_interp_bound_bits(NAN))));
   CHECK(tgsi_interp_bound_bits(0.0) == 0);
}

/* The encoding and the ulp as first written (frexp, ldexp, nextafterf):
 * the bit-level versions must agree everywhere. */
static uint32_t
bits_ref(double d)
{
   if (d != d || d >= 0x1p127)
      return 0x7f80u << ENV_ERR_SHIFT;
   if (!(d > 0.0))
      return 0;
   float f = (float)d;
   if ((double)f < d)
      f = nextafterf(f, INFINITY);
   uint32_t u = fui(f);
   uint32_t hi = (u >> 16) + ((u & 0xffffu) != 0);
   while (hi & 7u) /* rounded up clear of the amplification (ENV_AMP_MASK) */
      hi++;
   return (hi < 0x7f80u ? hi : 0x7f80u) << ENV_ERR_SHIFT;
}

static double
ulp_ref(double m)
{
   if (isinf(m) || m != m)
      return INFINITY;
   if (m < 0x1p-126)
      return 0x1p-149;
   int e;
   frexp(m, &e);
   return ldexp(1.0, e - 24);
}

static double
trig_ref(double x)
{
   double m = fabs(x);
   if (m != m || isinf(m))
      return INFINITY;
   double c = 0.15915493667125702;
   return 6.283185307179586 * (m * fabs(c - 0.15915494309189535) + 0.5 * ulp_ref(m * c + 0.25));
}

static void
test_encoding(void)
{
   const double edge[] = {
       0.0,          -0.0,     0x1p-160,      0x1p-149,           0x1p-150, 0x1.8p-150,   0x1p-126,
       0x1.fffp-127, 1.0,      1.0 + 0x1p-40, 0x1.fffffep127,     0x1p127,  0x1p-127 * 3, -1.0,
       3.0e38,       INFINITY, NAN,           0x1.0000010000001p0};
   for (unsigned k = 0; k < sizeof(edge) / sizeof(edge[0]); k++) {
      CHECKF(tgsi_interp_bound_bits(edge[k]) == bits_ref(edge[k]), "%a", edge[k]);
      CHECKF(tgsi_interp_trig_arg_err(edge[k]) == trig_ref(edge[k]) ||
                 (isinf(trig_ref(edge[k])) && isinf(tgsi_interp_trig_arg_err(edge[k]))),
             "%a", edge[k]);
   }
   for (unsigned k = 0; k < 200000; k++) {
      rng = rng * 6364136223846793005ull + 1442695040888963407ull;
      uint64_t u = rng >> 1; /* nonnegative doubles of every exponent */
      double d;
      memcpy(&d, &u, 8);
      CHECKF(tgsi_interp_bound_bits(d) == bits_ref(d), "%a", d);
      double x = ldexp(1.0 + (double)(rng >> 12) * 0x1p-52, (int)(rng % 300) - 150);
      CHECKF(tgsi_interp_trig_arg_err(x) == trig_ref(x), "%a", x);
   }
}

/* Without fuse, operands with no bound give no bound, which the rules
 * find for a whole block at once: it must agree with the lane-by-lane
 * rules (forced here by one bounded lane in the block), also on infinite
 * and NaN operands, whose product with a zero bound is unbounded. */
static void
test_exact_block(void)
{
   enum { N = 64 };
   const enum tgsi_opcode ops[] = {
       TGSI_OP_ADD, TGSI_OP_MUL, TGSI_OP_MAD, TGSI_OP_LRP,   TGSI_OP_DIV, TGSI_OP_MIN, TGSI_OP_FLR,
       TGSI_OP_SLT, TGSI_OP_CMP, TGSI_OP_F2I, TGSI_OP_LDEXP, TGSI_OP_DP3, TGSI_OP_RCP, TGSI_OP_POW};
   const float special[] = {INFINITY, -INFINITY, NAN, 0.0f, 3.0e38f};
   unsigned unbounded = 0;
   for (unsigned o = 0; o < sizeof(ops) / sizeof(ops[0]); o++) {
      enum tgsi_opcode op = ops[o];
      bool repl = op == TGSI_OP_DP3 || op == TGSI_OP_RCP || op == TGSI_OP_POW;
      static uint32_t v[4][N], f[4][N], r[N], rf[3][N];
      for (unsigned t = 0; t < 50; t++) {
         for (unsigned c = 0; c < 4; c++)
            for (unsigned i = 0; i < N; i++) {
               float x = rnd(-8, 8);
               if (t % 2 && i % 7 == c)
                  x = special[(i + t) % 5];
               v[c][i] = fui(x);
               f[c][i] = ENV_F_FUSE;
            }
         for (unsigned i = 0; i < N; i++)
            r[i] = fui(rnd(-8, 8));
         for (unsigned pass = 0; pass < 3; pass++) {
            /* pass 1: lane 0 of operand 0 bounded, so every lane goes
             * through the rules one by one; pass 2: as pass 0, but the
             * operands the op does not read are bounded and infinite in
             * every lane, which the exact test does not look at */
            f[0][0] = ENV_F_FUSE | (pass == 1 ? tgsi_interp_bound_bits(0x1p-10) : 0);
            if (pass == 2) {
               if (repl)
                  break;
               for (unsigned c = tgsi_op_info[op].nsrc; c < 4; c++)
                  for (unsigned i = 0; i < N; i++) {
                     v[c][i] = fui(INFINITY);
                     f[c][i] = ENV_F_FUSE | tgsi_interp_bound_bits(0x1p-10);
                  }
            }
            for (unsigned i = 0; i < N; i++)
               rf[pass][i] = ENV_F_FUSE | 0x1230000u;
            const uint32_t *s[4] = {v[0], v[1], v[2], v[3]}, *sf[4] = {f[0], f[1], f[2], f[3]};
            if (repl)
               tgsi_interp_bound_repl(op, false, N, r, rf[pass], 3, s, sf, s + 1, sf + 1);
            else
               tgsi_interp_bound_comp(op, false, N, r, rf[pass], s, sf);
         }
         for (unsigned i = 1; i < N; i++) {
            CHECKF(rf[0][i] == rf[1][i], "%s lane %u: %x against %x", tgsi_op_info[op].name, i,
                   rf[0][i], rf[1][i]);
            unbounded += isinf(bound_of(rf[0][i]));
         }
         for (unsigned i = 0; i < N && !repl; i++)
            CHECKF(rf[0][i] == rf[2][i], "%s, unread operands bounded, lane %u: %x against %x",
                   tgsi_op_info[op].name, i, rf[0][i], rf[2][i]);
      }
   }
   CHECK(unbounded > 0); /* the products of infinite operands */
}

/* The rules' lane loops (vectorized, branch-free) against the same rules
 * run one lane at a time (the loops' scalar tail): bounded, exact,
 * infinite, NaN and zero operands, PRODUCT marks, fuse off and on, and a
 * lane count that leaves a tail. */
static void
test_lanes_vs_one(void)
{
   enum { N = 67 };
   const enum tgsi_opcode ops[] = {TGSI_OP_ADD, TGSI_OP_SUB, TGSI_OP_MUL, TGSI_OP_MAD, TGSI_OP_LRP,
                                   TGSI_OP_DP2, TGSI_OP_DP3, TGSI_OP_DP4, TGSI_OP_DPH};
   const float special[] = {INFINITY, -INFINITY, NAN, 0.0f, -0.0f, 3.0e38f, 0x1p-140f};
   const double bounds[] = {0.0, 0x1p-30, 0x1p-10, 1.0, 0x1p130, INFINITY};
   static uint32_t v[8][N], f[8][N], r[N], rf[N];
   unsigned bounded = 0;
   for (unsigned o = 0; o < sizeof(ops) / sizeof(ops[0]); o++) {
      enum tgsi_opcode op = ops[o];
      bool repl = op >= TGSI_OP_DP2 || op == TGSI_OP_DPH;
      unsigned nch = op == TGSI_OP_DP2 ? 2 : op == TGSI_OP_DP3 ? 3 : 4;
      for (unsigned t = 0; t < 40; t++) {
         bool fuse = t % 2;
         for (unsigned c = 0; c < 8; c++)
            for (unsigned i = 0; i < N; i++) {
               float x = rnd(-100, 100) * (i % 3 ? 1.0f : 0x1p-20f);
               if (i % 11 == c)
                  x = special[(i + t) % 7];
               v[c][i] = fui(x);
               f[c][i] = (i % 5 == 0 ? ENV_F_PRODUCT : 0) |
                         tgsi_interp_bound_bits(bounds[(i * 7 + c + t) % 6]);
            }
         for (unsigned i = 0; i < N; i++)
            r[i] = fui(rnd(-100, 100));
         for (unsigned i = 0; i < N; i++)
            rf[i] = ENV_F_FUSE;
         const uint32_t *s[4] = {v[0], v[1], v[2], v[3]}, *sf[4] = {f[0], f[1], f[2], f[3]};
         const uint32_t *u[4] = {v[4], v[5], v[6], v[7]}, *uf[4] = {f[4], f[5], f[6], f[7]};
         if (repl)
            tgsi_interp_bound_repl(op, fuse, N, r, rf, nch, s, sf, u, uf);
         else
            tgsi_interp_bound_comp(op, fuse, N, r, rf, s, sf);
         for (unsigned i = 0; i < N; i++) {
            uint32_t one = ENV_F_FUSE;
            const uint32_t *s1[4], *sf1[4], *u1[4], *uf1[4];
            for (unsigned c = 0; c < 4; c++) {
               s1[c] = &v[c][i];
               sf1[c] = &f[c][i];
               u1[c] = &v[c + 4][i];
               uf1[c] = &f[c + 4][i];
            }
            if (repl)
               tgsi_interp_bound_repl(op, fuse, 1, &r[i], &one, nch, s1, sf1, u1, uf1);
            else
               tgsi_interp_bound_comp(op, fuse, 1, &r[i], &one, s1, sf1);
            CHECKF(rf[i] == one, "%s fuse %d lane %u: %x against %x", tgsi_op_info[op].name, fuse,
                   i, rf[i], one);
            bounded += bound_of(rf[i]) > 0.0 && !isinf(bound_of(rf[i]));
         }
      }
   }
   CHECK(bounded > 1000);
}

int
main(void)
{
   test_encoding();
   test_exact_block();
   test_lanes_vs_one();
   test_rules();
   test_chain_sound();
   return test_done();
}
