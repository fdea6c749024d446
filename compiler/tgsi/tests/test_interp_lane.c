/*
 * The interpreter's per-lane flag tests (tgsi_interp_lane.h) against the
 * straightforward versions they replaced: the lowest set bit of a sum's
 * terms from the double's bits and a shift loop, 2^k through ldexp, the
 * product's rounding through fmaf, short-circuit CANCEL and EDGE. Same
 * answer on every pair of edge values (zeros, denormals, powers of two
 * around the 2^24-unit limit, Inf, NaN) and on random operands, computed
 * in lane loops compiled as tgsi_interp_alu.c compiles them (vectorized).
 */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic", "no-trapping-math",              \
                     "no-math-errno")
#endif

#include "compiler/tgsi/tgsi_interp_lane.h"
#include "util/test.h"

#include <math.h>
#include <string.h>

#define N 4096

/* ------------------------------------------------------------------ */
/* The earlier versions                                                 */

static int
ref_low_bit(double p)
{
   int e;
   double m = frexp(fabs(p), &e); /* p = m * 2^e, m in [0.5, 1) */
   uint64_t man = (uint64_t)ldexp(m, 53);
   int low = e - 53;
   while (!(man & 1)) {
      man >>= 1;
      low++;
   }
   return low;
}

static bool
ref_sum_exact(unsigned nk, const float *a, const float *b, float add)
{
   double mag = fabs((double)add);
   int lo = INT32_MAX;
   for (unsigned k = 0; k <= nk; k++) {
      double p = k < nk ? (double)a[k] * (double)b[k] : (double)add;
      if (p == 0.0)
         continue;
      if ((double)(float)p != p || isinf(p) || isnan(p))
         return false;
      lo = MIN2(lo, ref_low_bit(p));
      if (k < nk)
         mag += fabs(p);
   }
   return lo == INT32_MAX || mag < ldexp(1.0, lo + 24);
}

static bool
ref_product_rounds(float a, float b, float r)
{
   return fmaf(a, b, -r) != 0.0f;
}

static double
ref_mag_max(double x, double y)
{
   return isnan(x) ? y : isnan(y) ? x : fmax(x, y);
}

/* The amplification levels 2, 4, 8, 16 and their thermometer bits. */
static const uint32_t amp_bit[4] = {1u << 16, 1u << 17, 1u << 18, 1u << 31};

static uint32_t
ref_cancel(uint32_t flags, float r, double m)
{
   const uint32_t inexact = ENV_F_FUSE | ENV_F_LRP | ENV_F_RCP | ENV_F_TRANS;
   if (!(flags & inexact) || !(m > 0x1p-8))
      return flags;
   double amp = 1.0;
   for (unsigned k = 0; k < 4; k++)
      if (flags & amp_bit[k])
         amp = ldexp(1.0, (int)k + 1);
   double w = m * amp, a = fabs((double)r);
   uint32_t out = flags & ~ENV_AMP_MASK;
   for (unsigned k = 0; k < 4; k++)
      if (w > a * ldexp(1.0, (int)k))
         out |= amp_bit[k];
   return out | (w > a * 16.0 ? ENV_F_CANCEL : 0);
}

static uint32_t
ref_edge(uint32_t flags, double dist, double mag)
{
   double rel = (flags & ENV_F_TRANS)                ? 0x1p-12
                : (flags & ENV_F_RCP)                ? 0x1p-14
                : (flags & (ENV_F_FUSE | ENV_F_LRP)) ? 0x1p-16
                                                     : 0.0;
   return rel > 0.0 && fabs(dist) <= rel * fabs(mag) + 0x1p-20 ? ENV_F_EDGE : 0;
}

/* ------------------------------------------------------------------ */
/* Operands                                                             */

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint32_t
rnd32(void)
{
   rng ^= rng << 13;
   rng ^= rng >> 7;
   rng ^= rng << 17;
   return (uint32_t)(rng >> 16);
}

/* Values where the tests change their answer. */
static const uint32_t edges[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x00000002, 0x00000003, 0x007fffff,
    0x00400000, 0x00800000, 0x80800000, 0x00800001, 0x3f800000, 0xbf800000, 0x3f800001,
    0x3f7fffff, 0x40000000, 0x40400000, 0x3f000000, 0x3e800000, 0x3b800000, /* 2^-8 */
    0x3b800001, 0x3b7fffff, 0x4b800000,                                     /* 2^24 */
    0x4b800001, 0x4b7fffff, 0x4b000000, 0x4b000001, 0x33800000,             /* 2^-24 */
    0x34000000, 0x1f800000, 0x1f000000, 0x5f800000, 0x5f000000, 0x7f000000, 0x7f7fffff,
    0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0x3dcccccd,
    0x40490fdb, 0x42c80000, 0x3c23d70a, 0x19800000, 0x0c000000, 0x26800000};

/* A value of one of several shapes: an edge value, random bits, a small
 * integer times a power of two (exact sums), or a random float in a range. */
static float
pick(void)
{
   uint32_t k = rnd32() % 5;
   switch (k) {
   case 0:
      return uif(edges[rnd32() % ARRAY_SIZE(edges)]);
   case 1:
      return uif(rnd32());
   case 2:
      return ldexpf((float)((int32_t)(rnd32() % 4096) - 2048), (int)(rnd32() % 80) - 60);
   case 3:
      return ldexpf((float)(rnd32() & 0xffffff), (int)(rnd32() % 300) - 160);
   default:
      return (float)(int32_t)(rnd32() % 33) - 16.0f;
   }
}

static uint32_t
pick_flags(void)
{
   static const uint32_t classes[] = {ENV_F_FUSE,  ENV_F_LRP,   ENV_F_RCP,
                                      ENV_F_TRANS, ENV_F_UNDEF, ENV_F_DENORM};
   uint32_t f = 0;
   for (unsigned k = 0; k < ARRAY_SIZE(classes); k++)
      f |= rnd32() % 3 == 0 ? classes[k] : 0;
   static const uint32_t amps[] = {0, 0x10000u, 0x30000u, 0x70000u, 0x80070000u};
   return f | amps[rnd32() % ARRAY_SIZE(amps)];
}

static float A[4][N], B[4][N], C[N], R[N];
static double M[N], D[N];
static uint32_t FL[N], got[N], want[N];

/* The rounded MUL result as the interpreter stores it (canonical NaN). */
static float
mul(float a, float b)
{
   float r = a * b;
   return r != r ? uif(0x7fc00000u) : r;
}

/* MAD's result, two roundings (canonical NaN). */
static float
mad(float a, float b, float c)
{
   float r = a * b;
   r = r + c;
   return r != r ? uif(0x7fc00000u) : r;
}

/* MAD's flags as mad_flags computed them on doubles: FUSE unless test
 * and the sum is exact, then CANCEL with the larger of |a * b| and |c|. */
static uint32_t
ref_mad(uint32_t flags, bool test, float a, float b, float c, float r)
{
   bool exact = test && ref_sum_exact(1, &a, &b, c);
   uint32_t f = flags | (exact ? 0 : ENV_F_FUSE);
   return ref_cancel(f, r, ref_mag_max(fabs((double)a * b), fabs((double)c)));
}

/* DP's result as the interpreter sums it (canonical NaN). */
static float
dot(unsigned nk, float (*a)[N], float (*b)[N], unsigned i)
{
   float r = a[0][i] * b[0][i];
   for (unsigned k = 1; k < nk; k++)
      r = r + a[k][i] * b[k][i];
   return r != r ? uif(0x7fc00000u) : r;
}

/* dp_flags' whole test on lane i: FUSE from the sum walk, then CANCEL
 * with the walk's m. */
static uint32_t
walk_dp(unsigned nk, unsigned i)
{
   struct tgsi_lane_sum s = tgsi_lane_sum_start(0.0f);
   for (unsigned k = 0; k < nk; k++)
      s = tgsi_lane_sum_product(s, A[k][i], B[k][i]);
   uint32_t f = FL[i] | (tgsi_lane_sum_end(s) ? 0 : ENV_F_FUSE);
   return tgsi_lane_cancel_m(f, dot(nk, A, B, i), s.m);
}

/* DP's flags as dp_flags computed them on doubles. */
static uint32_t
ref_dp(unsigned nk, float (*a)[N], float (*b)[N], unsigned i)
{
   float x[4], y[4];
   double m = 0.0;
   for (unsigned k = 0; k < nk; k++) {
      x[k] = a[k][i];
      y[k] = b[k][i];
      m = ref_mag_max(m, fabs((double)x[k] * y[k]));
   }
   uint32_t f = FL[i] | (ref_sum_exact(nk, x, y, 0.0f) ? 0 : ENV_F_FUSE);
   return ref_cancel(f, dot(nk, a, b, i), m);
}

/* ------------------------------------------------------------------ */
/* Comparisons, one lane loop per test                                  */

static unsigned
compare(const char *what, unsigned round)
{
   unsigned bad = 0;
   for (unsigned i = 0; i < N; i++)
      if (got[i] != want[i] && bad++ < 5)
         fprintf(stderr,
                 "%s round %u lane %u: a %08x %08x %08x %08x b %08x %08x %08x %08x c %08x"
                 " flags %x: got %x, want %x\n",
                 what, round, i, fui(A[0][i]), fui(A[1][i]), fui(A[2][i]), fui(A[3][i]),
                 fui(B[0][i]), fui(B[1][i]), fui(B[2][i]), fui(B[3][i]), fui(C[i]), FL[i], got[i],
                 want[i]);
   return bad;
}

static void
fill(bool all_edges, unsigned round)
{
   for (unsigned i = 0; i < N; i++) {
      for (unsigned k = 0; k < 4; k++) {
         A[k][i] = pick();
         B[k][i] = pick();
      }
      if (all_edges) { /* every pair of edge values */
         unsigned ne = ARRAY_SIZE(edges), x = (round * N + i) % (ne * ne);
         A[0][i] = uif(edges[x / ne]);
         B[0][i] = uif(edges[x % ne]);
      }
      C[i] = pick();
      R[i] = mul(A[0][i], B[0][i]);
      FL[i] = pick_flags();
   }
}

static void
test_product(unsigned round)
{
   for (unsigned i = 0; i < N; i++)
      got[i] = tgsi_lane_product_rounds(A[0][i], B[0][i], R[i]);
   for (unsigned i = 0; i < N; i++)
      want[i] = ref_product_rounds(A[0][i], B[0][i], R[i]);
   CHECK(compare("product_rounds", round) == 0);
}

/* MAD's test: one product and an addend. */
static void
test_mad(unsigned round)
{
   for (unsigned i = 0; i < N; i++) {
      float x = A[0][i], y = B[0][i];
      got[i] = tgsi_lane_sum_exact(1, &x, &y, C[i]);
   }
   for (unsigned i = 0; i < N; i++)
      want[i] = ref_sum_exact(1, &A[0][i], &B[0][i], C[i]);
   CHECK(compare("sum_exact mad", round) == 0);
   /* mad_flags' whole test, with and without the exact-sum part */
   for (unsigned t = 0; t < 2; t++) {
      for (unsigned i = 0; i < N; i++)
         got[i] = tgsi_lane_mad(FL[i], t, A[0][i], B[0][i], C[i], mad(A[0][i], B[0][i], C[i]));
      for (unsigned i = 0; i < N; i++)
         want[i] = ref_mad(FL[i], t, A[0][i], B[0][i], C[i], mad(A[0][i], B[0][i], C[i]));
      CHECK(compare("mad", round) == 0);
   }
}

/* DP2..DP4's test, term by term as tgsi_interp_alu.c walks it. */
static void
test_dp(unsigned nk, unsigned round)
{
   for (unsigned i = 0; i < N; i++) {
      struct tgsi_lane_sum s = tgsi_lane_sum_start(0.0f);
      for (unsigned k = 0; k < nk; k++)
         s = tgsi_lane_sum_product(s, A[k][i], B[k][i]);
      got[i] = tgsi_lane_sum_end(s);
   }
   for (unsigned i = 0; i < N; i++) {
      float x[4] = {A[0][i], A[1][i], A[2][i], A[3][i]};
      float y[4] = {B[0][i], B[1][i], B[2][i], B[3][i]};
      want[i] = ref_sum_exact(nk, x, y, 0.0f);
   }
   CHECK(compare("sum_exact dp", round) == 0);
   for (unsigned i = 0; i < N; i++) {
      got[i] = walk_dp(nk, i);
      want[i] = ref_dp(nk, A, B, i);
   }
   CHECK(compare("dp", round) == 0);
}

/* CANCEL of ADD and MAD with the magnitude from mag_max, and mag_max
 * itself (two NaNs may give either NaN). */
static void
test_cancel(unsigned round)
{
   for (unsigned i = 0; i < N; i++) {
      double x = fabs((double)A[0][i] * B[0][i]), y = fabs((double)C[i]);
      M[i] = tgsi_lane_mag_max(x, y);
      float r = A[0][i] * B[0][i] + C[i];
      got[i] = tgsi_lane_cancel(FL[i], r, M[i]);
   }
   unsigned bad = 0;
   for (unsigned i = 0; i < N; i++) {
      double x = fabs((double)A[0][i] * B[0][i]), y = fabs((double)C[i]);
      double m = ref_mag_max(x, y);
      bad += !(m == M[i] || (isnan(m) && isnan(M[i])));
      float r = A[0][i] * B[0][i] + C[i];
      want[i] = ref_cancel(FL[i], r, m);
   }
   CHECK(bad == 0);
   CHECK(compare("cancel", round) == 0);
}

/* CANCEL's level at the ends of its integer count: results of 0, a
 * denormal, FLT_MAX, infinities and NaN, magnitudes at and around 2^-8,
 * above every float and infinite, each a power of two away from the
 * other (the compares' equal cases), at every amplification level. */
static void
test_cancel_ends(void)
{
   static const float rs[] = {0.0f, -0.0f, 0x1p-149f,       0x1.8p-140f, 0x1p-126f, 1.0f,
                              1.5f, -3.0f, 0x1.fffffep127f, INFINITY,    -INFINITY, NAN};
   static const double ms[] = {0x1p-8,  0x1.0000000000001p-8, 0x1p-7,  1.0,      1.5, 3.0,
                               0x1p128, 0x1.fffffep127,       0x1p200, INFINITY, NAN};
   static const uint32_t amps[] = {0, 0x10000u, 0x30000u, 0x70000u, 0x80070000u};
   unsigned bad = 0;
   for (unsigned ri = 0; ri < ARRAY_SIZE(rs); ri++)
      for (unsigned mi = 0; mi < ARRAY_SIZE(ms); mi++)
         for (int e = -6; e <= 6; e++)
            for (unsigned ai = 0; ai < ARRAY_SIZE(amps); ai++) {
               float r = rs[ri] * ldexpf(1.0f, e);
               uint32_t fl = ENV_F_FUSE | amps[ai];
               uint32_t got1 = tgsi_lane_cancel(fl, r, ms[mi]);
               uint32_t want1 = ref_cancel(fl, r, ms[mi]);
               if (got1 != want1 && bad++ < 5)
                  fprintf(stderr, "cancel r %a m %a flags %x: got %x, want %x\n", (double)r, ms[mi],
                          fl, got1, want1);
               /* ADD's and SUB's, the magnitude a float */
               float mf = (float)ms[mi] * ldexpf(1.0f, -e);
               got1 = tgsi_lane_cancel_f(fl, r, mf);
               want1 = ref_cancel(fl, r, (double)mf);
               if (got1 != want1 && bad++ < 5)
                  fprintf(stderr, "cancel_f r %a m %a flags %x: got %x, want %x\n", (double)r,
                          (double)mf, fl, got1, want1);
            }
   CHECK(bad == 0);
}

/* mad_flags' test at its float ends: products that underflow (to 0 or
 * a denormal), products and addends from 2^104 up (2^24 units overflow
 * float; their sum may too), a product between FLT_MAX and 2^128 - 2^103
 * (f = FLT_MAX, m rounded up to 2^128) with addends that leave r at
 * FLT_MAX / 2, each value with either sign. */
static void
test_mad_ends(void)
{
   static const uint32_t vs[] = {
       0x00000000, 0x00000001, 0x00000003, 0x1a000000, /* 2^-75 */
       0x1a400000, 0x1f800000, 0x3b800000, 0x3f800000, 0x3f800001, 0x3f7fffff,
       0x40400000, 0x4b800000, 0x5f000000, 0x5f800000, 0x73800000,             /* 2^104 */
       0x74000000, 0x7f000000, 0x7effffff, 0x7f7fffff, 0x7f7ffffe, 0x3f8005a9, /* x ... */
       0x7f7ff4ae, /* ... times y: just above FLT_MAX */
       0x7f800000, 0x7fc00000};
   static const uint32_t fls[] = {0, ENV_F_FUSE, ENV_F_RCP | 0x10000u, ENV_F_LRP | 0x80070000u};
   unsigned nv = ARRAY_SIZE(vs), bad = 0;
   for (unsigned k = 0; k < nv * nv * nv * 8; k++) {
      unsigned sg = k % 8, v = k / 8;
      float a = uif(vs[v % nv] | (sg & 1u) << 31), b = uif(vs[v / nv % nv] | (sg & 2u) << 30);
      float c = uif(vs[v / nv / nv] | (sg & 4u) << 29), r = mad(a, b, c);
      for (unsigned fi = 0; fi < ARRAY_SIZE(fls); fi++)
         for (unsigned t = 0; t < 2; t++) {
            uint32_t got1 = tgsi_lane_mad(fls[fi], t, a, b, c, r);
            uint32_t want1 = ref_mad(fls[fi], t, a, b, c, r);
            if (got1 != want1 && bad++ < 5)
               fprintf(stderr, "mad %a * %a + %a flags %x test %u: got %x, want %x\n", (double)a,
                       (double)b, (double)c, fls[fi], t, got1, want1);
         }
   }
   CHECK(bad == 0);
}

/* The sum walk's float ends with up to four terms: units from 2^104 to
 * 2^110, where 2^24 units overflow float and the sum is taken / 8, sums
 * around 2^128 and beyond, products just over FLT_MAX. */
static void
test_dp_ends(void)
{
   static const uint32_t vs[] = {0x00000000, 0x3f800000, 0x40400000, 0x3f800001, 0x3fc00000,
                                 0x59800000, 0x5a000000, 0x5a800000, 0x5b000000, 0x5f000000,
                                 0x5f800000, 0x73800000, 0x74000000, 0x74800000, 0x7f000000,
                                 0x7f400000, 0x7f7fffff, 0x7f7ffffe, 0x7effffff, 0x3f8005a9,
                                 0x7f7ff4ae, 0x1a000000, 0x00000001, 0x7f800000};
   unsigned nv = ARRAY_SIZE(vs);
   for (unsigned round = 0; round < 64; round++) {
      for (unsigned i = 0; i < N; i++) {
         for (unsigned k = 0; k < 4; k++) {
            A[k][i] = uif(vs[rnd32() % nv] | (uint32_t)(rnd32() % 4 == 0) << 31);
            B[k][i] = uif(vs[rnd32() % (nv - 1)]);
         }
         C[i] = uif(vs[rnd32() % (nv - 1)]);
         FL[i] = pick_flags() | ENV_F_FUSE;
      }
      for (unsigned nk = 1; nk <= 4; nk++) {
         for (unsigned i = 0; i < N; i++) {
            float x[4] = {A[0][i], A[1][i], A[2][i], A[3][i]};
            float y[4] = {B[0][i], B[1][i], B[2][i], B[3][i]};
            got[i] = tgsi_lane_sum_exact(nk, x, y, C[i]);
            want[i] = ref_sum_exact(nk, x, y, C[i]);
         }
         CHECK(compare("sum_exact ends", round) == 0);
         if (nk < 2)
            continue;
         for (unsigned i = 0; i < N; i++) {
            got[i] = walk_dp(nk, i);
            want[i] = ref_dp(nk, A, B, i);
         }
         CHECK(compare("dp ends", round) == 0);
      }
   }
}

/* EDGE of a compare: distance a - b, magnitude the larger operand. */
static void
test_edge(unsigned round)
{
   for (unsigned i = 0; i < N; i++)
      D[i] = (double)A[0][i] - B[0][i];
   for (unsigned i = 0; i < N; i++)
      got[i] = tgsi_lane_edge(FL[i], D[i], tgsi_lane_mag_max(fabsf(A[0][i]), fabsf(B[0][i])));
   for (unsigned i = 0; i < N; i++)
      want[i] = ref_edge(FL[i], D[i], ref_mag_max(fabsf(A[0][i]), fabsf(B[0][i])));
   CHECK(compare("edge", round) == 0);
}

/* The tests must see both answers often, or agreement means little. */
static void
test_coverage(void)
{
   unsigned exact = 0, rounds = 0;
   fill(false, 0);
   for (unsigned i = 0; i < N; i++) {
      float x = A[0][i], y = B[0][i];
      exact += tgsi_lane_sum_exact(1, &x, &y, C[i]);
      rounds += tgsi_lane_product_rounds(A[0][i], B[0][i], R[i]);
   }
   CHECKF(exact > N / 16 && exact < N - N / 16, "%u of %u exact", exact, N);
   CHECKF(rounds > N / 8 && rounds < N - N / 8, "%u of %u round", rounds, N);
}

int
main(void)
{
   unsigned ne = ARRAY_SIZE(edges), edge_rounds = (ne * ne + N - 1) / N;
   for (unsigned round = 0; round < edge_rounds + test_reps(100); round++) {
      fill(round < edge_rounds, round);
      test_product(round);
      test_mad(round);
      for (unsigned nk = 2; nk <= 4; nk++)
         test_dp(nk, round);
      test_cancel(round);
      test_edge(round);
   }
   test_cancel_ends();
   test_mad_ends();
   test_dp_ends();
   test_coverage();
   return test_done();
}
