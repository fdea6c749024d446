/*
 * SIN and COS in revolutions against the oracle: the interpreter's bound on
 * the argument's error (compiler/tgsi/tgsi_interp_bound.c) with the
 * comparison's verdict (diff/compare.c), over random angles of growing
 * magnitude. The programs' values are the lowerings as the models compute
 * them (isa/sem.h): gfx9 v_sin_f32/v_cos_f32 of x * 1/(2 pi), agx
 * sin_pt_1/sin_pt_2 of the fraction of the turns in quarter turns.
 *
 *  - sound: every correct lowering passes at every magnitude;
 *  - needed: without the bound the gfx9 lowering fails at large angles;
 *  - tight: wrong lowerings (no 1/(2 pi), the sign flipped, COS for SIN,
 *    1/(2 pi) to 11 bits) fail on almost every lane of every range where
 *    they differ.
 */
#include "compiler/tgsi/tgsi.h"
#include "diff/diff.h"
#include "isa/sem.h"
#include "util/test.h"

#include <math.h>

#define INV_2PI 0x3e22f983u /* 1/(2 pi) as a float */

static const struct diff_cmp_opts oracle = {.mode = DIFF_CMP_ORACLE};
static uint64_t rng = 0x2545f4914f6cdd1dull;

static float
rnd(float lim)
{
   rng = rng * 6364136223846793005ull + 1442695040888963407ull;
   return lim * (2.0f * (float)((rng >> 40) * 0x1p-24) - 1.0f);
}

enum lowering { GFX9, AGX, NO_SCALE, NEGATED, SWAPPED, SHORT_SCALE, LOWERINGS };

static const char *const names[LOWERINGS] = {"gfx9",    "agx",     "no 1/(2 pi)",
                                             "negated", "swapped", "1/(2 pi) to 11 bits"};

/* sin (or cos) of x as lowering w computes it. */
static uint32_t
program(enum lowering w, bool cos, uint32_t x)
{
   uint32_t quarter = 0x3e800000u, four = 0x40800000u;
   switch (w) {
   case GFX9:
      return cos ? sem_cos_rev(sem_fmul(x, INV_2PI)) : sem_sin_rev(sem_fmul(x, INV_2PI));
   case AGX: {
      uint32_t u = cos ? sem_ffma(x, INV_2PI, quarter) : sem_fmul(x, INV_2PI);
      uint32_t f = sem_fadd(u, sem_fneg(sem_ffloor(u)));
      uint32_t t = sem_sin_pt_1(sem_fmul(f, four));
      return sem_fmul(sem_sin_pt_2(t), t);
   }
   case NO_SCALE:
      return cos ? sem_cos_rev(x) : sem_sin_rev(x);
   case NEGATED:
      return sem_fneg(program(GFX9, cos, x));
   case SWAPPED:
      return program(GFX9, !cos, x);
   default: /* SHORT_SCALE: 0x3e230000, 1/(2 pi) with 11 significant bits */
      return cos ? sem_cos_rev(sem_fmul(x, 0x3e230000u)) : sem_sin_rev(sem_fmul(x, 0x3e230000u));
   }
}

/* The interpreter's result and flag word for SIN/COS of an exact x. */
static uint32_t
interp(bool cos, uint32_t x, uint32_t *flags)
{
   uint32_t r = cos ? sem_cos(x) : sem_sin(x), xf = 0;
   const uint32_t *a[1] = {&x}, *af[1] = {&xf};
   *flags = ENV_F_TRANS;
   tgsi_interp_bound_repl(cos ? TGSI_OP_COS : TGSI_OP_SIN, false, 1, &r, flags, 1, a, af, a, af);
   return r;
}

/* Per range of |x| <= 2^k: the lanes where lowering w fails the check. */
static unsigned
failures(enum lowering w, int k, unsigned n, bool bounded)
{
   unsigned bad = 0;
   for (unsigned i = 0; i < n; i++) {
      bool cos = i & 1;
      uint32_t x = fui(rnd(ldexpf(1.0f, k))), f;
      uint32_t e = interp(cos, x, &f);
      if (!bounded)
         f &= ENV_F_ALL;
      bad += diff_value_verdict(e, program(w, cos, x), f, false, &oracle) == DIFF_V_DIFFERENT;
   }
   return bad;
}

static void
test_sound(void)
{
   unsigned n = test_reps(4000);
   for (int k = -4; k <= 20; k += 2)
      for (enum lowering w = GFX9; w <= AGX; w++) {
         unsigned bad = failures(w, k, n, true);
         CHECKF(bad == 0, "%s at |x| <= 2^%d: %u of %u lanes fail", names[w], k, bad, n);
      }
}

/* The argument's error in radians is about |x| 2^-23.3: far below the
 * TRANS class (2^-12 of the result, or 2^-20) near 0; past it near the
 * result's zeros from |x| ~ 2^4, on most lanes from 2^16 */
static void
test_needed(void)
{
   unsigned n = test_reps(4000);
   CHECK(failures(GFX9, 2, n, false) == 0);
   CHECK(failures(GFX9, 10, n, false) > 0);
   CHECK(failures(GFX9, 16, n, false) > n / 2);
   CHECK(tgsi_interp_trig_arg_err(0.0) < 0x1p-22);
   CHECK(tgsi_interp_trig_arg_err(1000.0) > 1000.0 * 0x1p-24);
   CHECK(tgsi_interp_trig_arg_err(1000.0) < 1000.0 * 0x1p-23);
   CHECK(isinf(tgsi_interp_trig_arg_err(INFINITY)));
}

static void
test_tight(void)
{
   unsigned n = test_reps(4000);
   for (int k = 0; k <= 16; k += 4)
      for (enum lowering w = NO_SCALE; w < LOWERINGS; w++) {
         unsigned bad = failures(w, k, n, true);
         /* 11 bits of 1/(2 pi) cost |x| 2^-12.6 radians: within the TRANS
          * class (2^-12 of the result) up to |x| ~ 1, past it on most
          * lanes from |x| ~ 2^4, where the bound is 2^-19 */
         unsigned want = w != SHORT_SCALE ? n * 9 / 10 : k == 0 ? 0 : k == 4 ? n / 2 : n * 9 / 10;
         CHECKF(bad >= want, "%s at |x| <= 2^%d: caught on %u of %u lanes", names[w], k, bad, n);
      }
}

int
main(void)
{
   test_sound();
   test_needed();
   test_tight();
   return test_done();
}
