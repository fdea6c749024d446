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
    * is unbounded, of an exact one exact */
   CHECK(bound_of(op2(TGSI_OP_MIN, 1.0f, eb, 2.0f, 0, 1.0f, 0)) == 0x1p-10);
   CHECK(isinf(bound_of(tgsi_interp_bound_lookup(eb | ENV_F_FUSE))));
   CHECK(tgsi_interp_bound_lookup(ENV_F_FUSE) == ENV_F_FUSE);
   /* encoding rounds up and saturates */
   CHECK(bound_of(tgsi_interp_bound_bits(1.0 + 0x1p-20)) > 1.0);
   CHECK(isinf(bound_of(tgsi_interp_bound_bits(NAN))));
   CHECK(tgsi_interp_bound_bits(0.0) == 0);
}

int
main(void)
{
   test_rules();
   test_chain_sound();
   return test_done();
}
