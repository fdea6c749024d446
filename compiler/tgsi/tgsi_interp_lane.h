/*
 * Per-lane flag tests of the interpreter's float ALU (tgsi_interp_alu.c):
 * whether a product or a sum of products is exact, CANCEL and EDGE. They
 * run once per lane for every MUL, MAD, ADD, DP* and compare, so they are
 * written branch-free from float/double arithmetic that is exact by
 * construction, and inline: the lane loops that call them vectorize.
 * test_interp_lane.c holds the earlier straightforward versions (frexp-
 * style bit loops, fmaf, short-circuit tests) and checks that these give
 * the same answer on edge and random operands.
 */
#ifndef TGSI_INTERP_LANE_H
#define TGSI_INTERP_LANE_H

#include "emu/emu.h"
#include "util/util.h"

#include <float.h>
#include <math.h>

#define TI_INEXACT (ENV_F_FUSE | ENV_F_LRP | ENV_F_RCP | ENV_F_TRANS)

/* Whether the float product a * b rounds, i.e. fmaf(a, b, -r) != 0 with r
 * the rounded product: the double product p is exact (24 x 24 bits, no
 * overflow or underflow in double) and so is p - r (at most 48 bits
 * between p's lowest bit and r's rounding error), and fmaf rounds that
 * difference to float zero exactly when it is at most 2^-150 in
 * magnitude: times 2^150 and rounded to float, at most 1 (1 is a float;
 * the compare on 32-bit lanes, where a double one was a mask narrowed
 * from 64-bit lanes). NaN and infinite differences count as rounding, as
 * fmaf's NaN and infinities do. */
static inline bool
tgsi_lane_product_rounds(float a, float b, float r)
{
   double d = (double)a * (double)b - (double)r;
   return !(fabsf((float)(d * 0x1p150)) <= 1.0f);
}

/* The value of the lowest set significand bit of a finite nonzero float
 * (its unit in the last place that matters): |f| minus |f| with that bit
 * cleared (an exact subtraction), or |f| itself for a normal power of
 * two, whose only significand bit is the implicit one. */
static inline float
tgsi_lane_low_unit(float f)
{
   uint32_t u = fui(f) & 0x7fffffffu;
   float cleared = uif(u & (u - 1));
   return (u & 0x007fffffu) ? uif(u) - cleared : uif(u);
}

/* The rounding error p - f of a float product (p = x * y in double,
 * exact, f its rounding: the error is exact in double too) times 2^150,
 * rounded to float: zero exactly when the error is (the smallest nonzero
 * one is 2^-298), and of the error's sign. NaN for an infinite or NaN p. */
static inline float
tgsi_lane_product_err(double p, float f)
{
   return (float)((p - (double)f) * 0x1p150);
}

/* |p| rounded up to float's significand, from f and the error e above:
 * |f|, one up where the error has f's sign (0x7f800000 above FLT_MAX,
 * which tgsi_lane_level_f counts as 2^128); NaN for a NaN p. A magnitude
 * compared only with floats (2^-8, |r| * 2^j) compares the same so. */
static inline float
tgsi_lane_mag_up(float f, float e)
{
   bool down = (fabsf(e) > 0.0f) & (((fui(e) ^ fui(f)) >> 31) == 0);
   return uif((fui(f) & 0x7fffffffu) + (uint32_t)down);
}

/* Whether a sum of the products a[k] * b[k] (k < nk) plus add comes out
 * the same however it is computed -- fused or not, in any order: every
 * product is exact in single precision and every partial sum is too,
 * which holds when the sum of their magnitudes stays below 2^24 units of
 * the smallest bit any term has. Then MAD and DP* need no FUSE tolerance
 * for the lane (a cascade index summed from SGE results, a one-hot
 * select). Zero terms do not count; a NaN or infinite term fails.
 * A sum is walked term by term (tgsi_lane_sum_start, _product, _end), so
 * a caller with a fixed number of terms needs no loop; in float lanes
 * but for each double product (tgsi_lane_product_err):
 *  - where every term is a float, all are multiples of the unit, so the
 *    float sum of their magnitudes is exact below 2^24 units and rounds
 *    to at least 2^24 units above: one float compare decides it;
 *  - 2^24 units overflow float from a unit of 2^104: there the terms are
 *    summed divided by 8 (exactly, being multiples of 2^104), and from
 *    a unit of 2^107 on no sum of 8 terms reaches 2^24 units. */
struct tgsi_lane_sum {
   float mag;  /* sum of the terms' magnitudes, rounded */
   float mag8; /* the same of the magnitudes / 8 */
   float unit; /* smallest low unit of a nonzero term; Inf: none */
   float m;    /* the largest product's magnitude, rounded up (mag_up) */
   bool ok;    /* every nonzero term finite and a float */
};

static inline struct tgsi_lane_sum
tgsi_lane_sum_start(float add)
{
   float u = tgsi_lane_low_unit(add);
   bool zero = add == 0.0f;
   struct tgsi_lane_sum s = {fabsf(add), fabsf(add) * 0.125f, zero ? INFINITY : u, 0.0f,
                             zero | (fabsf(add) <= FLT_MAX)};
   return s;
}

/* A zero product counts as a float in no unit; a product that is not a
 * float fails whatever its unit, so its rounding f = 0 may stand for a
 * zero product. m follows tgsi_lane_mag_max over the products. */
static inline struct tgsi_lane_sum
tgsi_lane_sum_product(struct tgsi_lane_sum s, float a, float b)
{
   double p = (double)a * (double)b;
   float f = (float)p;
   float e = tgsi_lane_product_err(p, f);
   s.ok &= (e == 0.0f) & (fabsf(f) <= FLT_MAX);
   float u = tgsi_lane_low_unit(f);
   s.unit = ((f != 0.0f) & (u < s.unit)) ? u : s.unit;
   s.mag += fabsf(f);
   s.mag8 += fabsf(f) * 0.125f;
   float pm = tgsi_lane_mag_up(f, e);
   float big = s.m > pm ? s.m : pm;
   s.m = pm != pm ? s.m : big;
   return s;
}

static inline bool
tgsi_lane_sum_end(struct tgsi_lane_sum s)
{
   bool small = s.mag < s.unit * 0x1p24f;
   bool big = (s.mag8 < s.unit * 0x1p21f) | (s.unit > 0x1p106f);
   bool hi = s.unit > 0x1p103f; /* masks: a select of bools kept the loop scalar */
   return s.ok & ((hi & big) | (!hi & small));
}

static inline bool
tgsi_lane_sum_exact(unsigned nk, const float *a, const float *b, float add)
{
   struct tgsi_lane_sum s = tgsi_lane_sum_start(add);
   for (unsigned k = 0; k < nk; k++)
      s = tgsi_lane_sum_product(s, a[k], b[k]);
   return tgsi_lane_sum_end(s);
}

/* The larger of two magnitudes (|x|, never -0); a NaN gives the other
 * (two NaNs give a NaN). */
static inline double
tgsi_lane_mag_max(double x, double y)
{
   /* two selects of one compare each: GCC 12 leaves a loop scalar
    * where the two compares are or-ed into one mask */
   double big = x > y ? x : y;
   return y != y ? x : big;
}

/* CANCEL: a sum r whose largest term has magnitude m cancelled by more
 * than 4 bits while a term carries an inexact class. Each term's error is
 * bounded relative to the term (its class's tolerance times m), so r's is
 * too, not relative to r: x - y with x = y exact in the interpreter and
 * one ulp apart on the GPU is 0 against 2^-17 for x near 100. Below m =
 * 2^-8 the absolute 2^-20 of every class still bounds it.
 * The 4 bits are for a chain, not for each sum: the error a term brings
 * is its class's bound times the amplification the term carries
 * (ENV_AMP_MASK: 1, 2, 4, 8 or 16), so r's is that times m / |r|, which
 * is r's amplification (rounded up to the next level, or back to 1 where
 * the sum did not cancel) and CANCEL beyond 16: two sums cancelling 15
 * times each (15 x 15 x an ulp of a DIV) are CANCEL. Returns the flags
 * with CANCEL and the new amplification (flags unchanged where no term
 * is inexact or m <= 2^-8). */
static inline uint32_t
tgsi_lane_amp(uint32_t flags, double a, double w)
{
   uint32_t lv = (uint32_t)(w > a) << 16 | (uint32_t)(w > a * 2.0) << 17 |
                 (uint32_t)(w > a * 4.0) << 18 | (uint32_t)(w > a * 8.0) << 31;
   return (flags & ~ENV_AMP_MASK) | lv | (uint32_t)(w > a * 16.0) * ENV_F_CANCEL;
}

/* The level a flag word carries: the number of its thermometer's bits
 * (shifts and adds, no selects: the lane loops vectorize). */
static inline uint32_t
tgsi_lane_amp_count(uint32_t flags)
{
   return (flags >> 16 & 1u) + (flags >> 17 & 1u) + (flags >> 18 & 1u) + (flags >> 31);
}

/* The amplification a flag word carries: 2 to its level. */
static inline double
tgsi_lane_amp_of(uint32_t flags)
{
   return (double)(int32_t)(1u << tgsi_lane_amp_count(flags));
}

/* The flags with the level lv (before clamping) where on; an infinite
 * or NaN r is level 0. */
static inline uint32_t
tgsi_lane_level(uint32_t flags, bool on, int32_t lv, float r)
{
   lv += (int32_t)tgsi_lane_amp_count(flags);
   lv = lv < 0 ? 0 : lv > 5 ? 5 : lv;
   lv = (fui(r) & 0x7fffffffu) < 0x7f800000u ? lv : 0;
   uint32_t t = (1u << lv) - 1u; /* thermometer: bit j for level > j */
   uint32_t amp = (flags & ~ENV_AMP_MASK) | (t & 7u) << 16 | (t >> 3 & 1u) << 31 |
                  (t >> 4 & 1u) * ENV_F_CANCEL;
   return on ? amp : flags;
}

/* tgsi_lane_amp's level for a sum, in integers: m * 2^k > |r| * 2^j
 * (k the flags' level) holds for the j below the exponent difference of
 * m and |r| plus one where m's significand is the larger, plus k: the
 * new level, 0 to 5 (5: CANCEL), one count where the double compares
 * were five, each a double multiply and a mask narrowed to 32 bits. It
 * needs |r| finite (an infinite or NaN r is level 0, as every compare
 * false was); 0 counts as smaller than every m > 0, and an infinite m as
 * larger than every finite |r|, as the bits of non-negative doubles
 * order them. */
static inline uint32_t
tgsi_lane_cancel(uint32_t flags, float r, double m)
{
   bool on = ((flags & TI_INEXACT) != 0) & (m > 0x1p-8);
   uint64_t bm = dui(m), br = dui(fabs((double)r));
   const uint64_t sig = 0x000fffffffffffffu;
   int32_t lv = (int32_t)(bm >> 52) - (int32_t)(br >> 52) +
                (int32_t)((int64_t)(bm & sig) > (int64_t)(br & sig));
   return tgsi_lane_level(flags, on, lv, r);
}

/* tgsi_lane_cancel's level from float bits: bm the magnitude m's, br
 * |r|'s. The count is the same as on doubles (the j with m > |r| * 2^j are
 * those below it, whatever the format), and bm = 0x7f800000 counts as
 * 2^128, its exponent field one above FLT_MAX's. A denormal or zero r is
 * below m > 2^-8 by more than the 5 levels, as its exponent field of 0
 * says. */
static inline int32_t
tgsi_lane_level_f(uint32_t bm, uint32_t br)
{
   return (int32_t)(bm >> 23) - (int32_t)(br >> 23) +
          (int32_t)((bm & 0x007fffffu) > (br & 0x007fffffu));
}

/* tgsi_lane_cancel for a magnitude m rounded up to float's significand
 * (tgsi_lane_mag_up: the same compares with 2^-8 and |r| * 2^j), on the
 * floats' bits; 0x7f800000 is 2^128 here, above a product just over
 * FLT_MAX whose rounding f = FLT_MAX leaves r finite. */
static inline uint32_t
tgsi_lane_cancel_m(uint32_t flags, float r, float m)
{
   bool on = ((flags & TI_INEXACT) != 0) & (m > 0x1p-8f);
   return tgsi_lane_level(flags, on, tgsi_lane_level_f(fui(m), fui(r) & 0x7fffffffu), r);
}

/* tgsi_lane_cancel for a magnitude m that is a float (ADD, SUB: the
 * larger operand), on the floats' bits: 32-bit lanes throughout. An
 * infinite m is above every finite r. */
static inline uint32_t
tgsi_lane_cancel_f(uint32_t flags, float r, float m)
{
   bool on = ((flags & TI_INEXACT) != 0) & (m > 0x1p-8f);
   uint32_t bm = fui(m) & 0x7fffffffu;
   int32_t lv = tgsi_lane_level_f(bm, fui(r) & 0x7fffffffu);
   lv = bm == 0x7f800000u ? 5 : lv;
   return tgsi_lane_level(flags, on, lv, r);
}

/* MAD's flags for r = x * y + z: FUSE unless test and the sum is exact
 * (tgsi_lane_sum_exact of one product), then CANCEL with m the larger of
 * |x * y| and |z| (tgsi_lane_cancel), in 32-bit lanes where the double
 * product's tests were 64-bit ones, each mask narrowed to 32 bits:
 *  - the product's rounding error p - f (f = x * y rounded, exact in
 *    double) times 2^150, rounded to float: zero exactly when the error
 *    is (the smallest nonzero one is 2^-298), and of the error's sign;
 *  - where the product is a float the sum of the magnitudes is exact in
 *    float below 2^24 units and rounds to at least 2^24 units above, so
 *    one float compare decides it; 2^24 units overflow to Inf from a unit
 *    of 2^104, where the sum is below it unless it overflows too, and
 *    from 2^105 on every sum of two floats is below it;
 *  - m is compared only with floats (2^-8, |r| * 2^j), so it may be
 *    rounded up to float's significand: |f|, one up where the error has
 *    f's sign (0x7f800000, 2^128 to the count, above FLT_MAX); a NaN
 *    product stays NaN and mag_max's choice is unchanged. */
static inline uint32_t
tgsi_lane_mad(uint32_t flags, bool test, float x, float y, float z, float r)
{
   double p = (double)x * (double)y;
   float f = (float)p;
   float e = tgsi_lane_product_err(p, f);
   uint32_t af = fui(f) & 0x7fffffffu, az = fui(z) & 0x7fffffffu;
   float ua = az == 0 ? INFINITY : tgsi_lane_low_unit(z);
   float up = tgsi_lane_low_unit(f);
   float unit = ((af != 0) & (up < ua)) ? up : ua;
   float mz = uif(az), mf = uif(af);
   bool fin = (mz <= FLT_MAX) & (mf <= FLT_MAX);
   bool below = (mz + mf < unit * 0x1p24f) | (unit > 0x1p104f);
   bool exact = test & fin & (e == 0.0f) & below;
   flags |= exact ? 0 : ENV_F_FUSE;
   float pm = tgsi_lane_mag_up(f, e);
   float big = pm > mz ? pm : mz; /* tgsi_lane_mag_max's */
   return tgsi_lane_cancel_m(flags, r, mz != mz ? pm : big);
}

/* EDGE: a compare, rounding or conversion whose operand carries an
 * inexact class and lies within that class's relative bound (the
 * oracle's R: FUSE and LRP 2^-16, RCP 2^-14, TRANS 2^-12) or 2^-20 of the
 * threshold: the GPU's operand may sit on the other side, and the result
 * jumps by a whole step (FLR of 2.9999999 against 3; SLT flips). dist is
 * the operand's distance to the threshold, mag its size. */
static inline double
tgsi_lane_edge_rel(uint32_t flags)
{
   return (flags & ENV_F_TRANS)                ? 0x1p-12
          : (flags & ENV_F_RCP)                ? 0x1p-14
          : (flags & (ENV_F_FUSE | ENV_F_LRP)) ? 0x1p-16
                                               : 0.0;
}

static inline uint32_t
tgsi_lane_edge(uint32_t flags, double dist, double mag)
{
   double rel = tgsi_lane_edge_rel(flags);
   bool e = (rel > 0.0) & (fabs(dist) <= rel * fabs(mag) + 0x1p-20);
   return (uint32_t)e * ENV_F_EDGE;
}

#endif
