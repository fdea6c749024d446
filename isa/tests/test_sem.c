/*
 * The semantics of isa/sem.h against independent formulations, on special
 * values and on random inputs (fixed seed):
 *  - float arithmetic against double precision (exact for + * / sqrt once
 *    rounded back to single), rounding against rint/round/floor in double;
 *  - integer ops against 64-bit arithmetic and bit-by-bit loops;
 *  - half conversions exhaustively (all 65536 halves) and by a
 *    nearest-value property for random floats;
 *  - the ops that mirror TGSI opcodes against the TGSI meaning given in
 *    tgsi_semantics.md (e.g. RSQ = 1.0f/sqrtf(x), SSG, ROUND ties to even,
 *    shift counts & 31, MIN/MAX returning the non-NaN operand), with the
 *    documented differences (MIN/MAX of +-0, LG2's logf*1.442695f, EX2's
 *    powf) checked within a tolerance instead.
 */
#include "isa/sem.h"
#include "util/test.h"
#include "util/util.h"

#include <math.h>

static const uint32_t specials[] = {
    0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x3f000000, 0xbf000000, 0x40200000, 0xc0200000,
    0x3fc00000, 0x40000000, 0x7f7fffff, 0xff7fffff, 0x00800000, 0x80800000, 0x00000001, 0x80000001,
    0x007fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0x7fbfffff, 0x4b000000,
    0x4b000001, 0x4effffff, 0x4f000000, 0xcf000000, 0xcf000001, 0x4f800000, 0x3effffff, 0x3f7fffff,
    0x40490fdb, 0x00000002, 0x7fffffff, 0xffffffff, 0x00000010, 0x0000001f, 0x00000020, 0x00ffffff,
    0x01000000, 0x00800000, 0x0000ffff, 0x00010000, 0xfffffffe, 0x12345678,
};

static struct rng rng;

/* A random input: specials, random bits, or a "nice" float. */
static uint32_t
rnd(void)
{
   uint32_t k = rng_below(&rng, 8);
   if (k == 0)
      return specials[rng_below(&rng, ARRAY_SIZE(specials))];
   if (k == 1)
      return fui((float)((int)rng_below(&rng, 2001) - 1000) / 8.0f);
   if (k == 2)
      return rng_below(&rng, 64);
   return rng_u32(&rng);
}

static uint32_t
canon(float f)
{
   uint32_t u = fui(f);
   return is_nan_bits(u) ? SEM_CANON_NAN : u;
}

static uint32_t
dref(double d)
{
   return canon((float)d);
}

/* Distance in units in the last place between two non-NaN floats. */
static uint64_t
ulps(uint32_t a, uint32_t b)
{
   int64_t x = (a & 0x80000000u) ? -(int64_t)(a & 0x7fffffffu) : (int64_t)a;
   int64_t y = (b & 0x80000000u) ? -(int64_t)(b & 0x7fffffffu) : (int64_t)b;
   return (uint64_t)(x > y ? x - y : y - x);
}

#define N 200000

static void
test_float_arith(void)
{
   unsigned bad = 0;
   for (int i = 0; i < N; i++) {
      uint32_t a = rnd(), b = rnd(), c = rnd();
      double x = uif(a), y = uif(b), z = uif(c);
      bad += sem_fadd(a, b) != dref(x + y);
      bad += sem_fmul(a, b) != dref(x * y);
      bad += sem_fmad(a, b, c) != dref((double)(float)(x * y) + z);
      bad += sem_rcp(a) != dref(1.0 / x);
      bad += sem_sqrt(a) != dref(sqrt(x));
      /* TGSI RSQ is 1.0f / sqrtf(x): two single roundings. */
      bad += sem_rsq(a) != canon(1.0f / sqrtf(uif(a)));
      bad += sem_ffloor(a) != dref(floor(x));
      bad += sem_fceil(a) != dref(ceil(x));
      bad += sem_ftrunc(a) != dref(trunc(x));
      bad += sem_frndne(a) != dref(rint(x)); /* default mode: nearest even */
      bad += sem_frndaz(a) != dref(round(x));
      bad += sem_ffma(a, b, 0) != sem_fmul(a, b) && !(uif(a) * uif(b) == 0.0f);
      if (bad && i < 100)
         CHECKF(0, "a=%08x b=%08x c=%08x", a, b, c);
   }
   CHECKF(bad == 0, "%u float arithmetic mismatches", bad);
   /* Fused vs unfused, where they must differ. */
   uint32_t p = fui(1.0f + 0x1p-23f), q = fui(1.0f - 0x1p-23f), m1 = fui(-1.0f);
   CHECK_EQ_U(sem_fmad(p, q, m1), 0);
   CHECK_EQ_U(sem_ffma(p, q, m1), fui(-0x1p-46f));
   /* NaN results are canonical on every host. */
   CHECK_EQ_U(sem_fadd(0xffc00001, 0x3f800000), SEM_CANON_NAN);
   CHECK_EQ_U(sem_fmul(0x7f800000, 0), SEM_CANON_NAN);
   CHECK_EQ_U(sem_rsq(0xbf800000), SEM_CANON_NAN);
   CHECK_EQ_U(sem_rcp(0x80000000), 0xff800000);
   CHECK_EQ_U(sem_rsq(0), 0x7f800000);
   /* TGSI ROUND examples: 2.5 -> 2, -0.5 -> -0. */
   CHECK_EQ_U(sem_frndne(fui(2.5f)), fui(2.0f));
   CHECK_EQ_U(sem_frndne(fui(-0.5f)), 0x80000000);
   CHECK_EQ_U(sem_frndne(fui(3.5f)), fui(4.0f));
   CHECK_EQ_U(sem_frndaz(fui(2.5f)), fui(3.0f));
}

static void
test_transcendental(void)
{
   unsigned bad = 0, tgsi_far = 0;
   for (int i = 0; i < N; i++) {
      uint32_t a = rnd();
      float f = uif(a);
      long double x = f;
      uint32_t r[4] = {sem_log2(a), sem_exp2(a), sem_sin(a), sem_cos(a)};
      long double ref[4] = {log2l(x), exp2l(x), sinl(x), cosl(x)};
      for (int k = 0; k < 4; k++) {
         uint32_t e = canon((float)ref[k]);
         if (is_nan_bits(e) || is_nan_bits(r[k]))
            bad += e != r[k];
         else
            bad += ulps(r[k], e) > 1;
      }
      /* TGSI LG2 = logf(x) * 1.442695f and EX2 = powf(2, x): a few ulps apart. */
      if (f > 0 && isfinite(f)) {
         uint32_t t = canon(logf(f) * 1.442695f);
         tgsi_far += fabsf(uif(t) - uif(r[0])) > 1e-6f * fmaxf(1.0f, fabsf(uif(t)));
      }
      if (fabsf(f) < 100.0f) {
         uint32_t t = canon(powf(2.0f, f));
         tgsi_far += ulps(t, r[1]) > 2;
         tgsi_far += fabsf(sinf(f) - uif(r[2])) > 1e-6f;
      }
   }
   CHECKF(bad == 0, "%u transcendental results more than 1 ulp from long double", bad);
   CHECKF(tgsi_far == 0, "%u results far from the TGSI formulas", tgsi_far);
   CHECK_EQ_U(sem_log2(0), 0xff800000);
   CHECK_EQ_U(sem_log2(0xbf800000), SEM_CANON_NAN);
   CHECK_EQ_U(sem_exp2(fui(200.0f)), 0x7f800000);
   CHECK_EQ_U(sem_exp2(fui(3.0f)), fui(8.0f));
}

static void
test_minmax_cmp(void)
{
   unsigned bad = 0;
   for (int i = 0; i < N; i++) {
      uint32_t a = rnd(), b = rnd();
      float x = uif(a), y = uif(b);
      bool an = isnan(x), bn = isnan(y);
      /* TGSI MIN/MAX are fminf/fmaxf: the non-NaN operand wins. */
      if (!an && !bn && x != y) {
         bad += sem_fmin(a, b) != fui(fminf(x, y));
         bad += sem_fmax(a, b) != fui(fmaxf(x, y));
      } else if (an != bn) {
         bad += sem_fmin(a, b) != (an ? b : a) || sem_fmax(a, b) != (an ? b : a);
      } else if (an && bn) {
         bad += sem_fmin(a, b) != SEM_CANON_NAN || sem_fmax(a, b) != SEM_CANON_NAN;
      }
      double dx = x, dy = y;
      uint32_t want[6] = {dx<dy, dx <= dy, dx> dy, dx >= dy, dx == dy, !(dx == dy)};
      int64_t sx = (int32_t)a, sy = (int32_t)b;
      uint32_t swant[6] = {sx<sy, sx <= sy, sx> sy, sx >= sy, sx == sy, sx != sy};
      uint64_t ux = a, uy = b;
      uint32_t uwant[6] = {ux<uy, ux <= uy, ux> uy, ux >= uy, ux == uy, ux != uy};
      for (int c = 0; c <= SEM_NE; c++) { /* the six TGSI conditions */
         bad += sem_fcmp((enum sem_cond)c, a, b) != want[c];
         bad += sem_scmp((enum sem_cond)c, a, b) != swant[c];
         bad += sem_ucmp((enum sem_cond)c, a, b) != uwant[c];
      }
      /* TGSI SSG: x < 0 ? -1 : x > 0 ? 1 : 0. */
      bad += sem_fsign(a) != fui(x < 0 ? -1.0f : x > 0 ? 1.0f : 0.0f);
   }
   CHECKF(bad == 0, "%u min/max/compare mismatches", bad);
   /* Documented choice: -0 orders below +0 (TGSI's fminf returns the first). */
   CHECK_EQ_U(sem_fmin(0, 0x80000000), 0x80000000);
   CHECK_EQ_U(sem_fmin(0x80000000, 0), 0x80000000);
   CHECK_EQ_U(sem_fmax(0x80000000, 0), 0);
   CHECK_EQ_U(sem_fcmp(SEM_NE, SEM_CANON_NAN, SEM_CANON_NAN), 1);
   CHECK_EQ_U(sem_fcmp(SEM_EQ, SEM_CANON_NAN, SEM_CANON_NAN), 0);
   CHECK_EQ_U(sem_fsat(fui(1.5f)), fui(1.0f));
   CHECK_EQ_U(sem_fsat(fui(-0.5f)), 0);
   CHECK_EQ_U(sem_fsat(SEM_CANON_NAN), 0);
   CHECK_EQ_U(sem_fsat(fui(0.25f)), fui(0.25f));
}

static uint32_t
ref_bfrev(uint32_t a)
{
   uint32_t r = 0;
   for (int i = 0; i < 32; i++)
      r |= ((a >> i) & 1u) << (31 - i);
   return r;
}

static uint32_t
ref_pop(uint32_t a)
{
   uint32_t n = 0;
   for (int i = 0; i < 32; i++)
      n += (a >> i) & 1u;
   return n;
}

static uint32_t
ref_clz(uint32_t a)
{
   uint32_t n = 0;
   for (int i = 31; i >= 0 && !((a >> i) & 1u); i--)
      n++;
   return n;
}

static uint32_t
ref_cls(uint32_t a)
{
   uint32_t s = a >> 31, n = 0;
   for (int i = 31; i >= 0 && ((a >> i) & 1u) == s; i--)
      n++;
   return n;
}

static void
test_integer(void)
{
   unsigned bad = 0;
   for (int i = 0; i < N; i++) {
      uint32_t a = rnd(), b = rnd(), c = rnd();
      int64_t sa = (int32_t)a, sb = (int32_t)b;
      bad += sem_iadd(a, b) != (uint32_t)((uint64_t)a + b);
      bad += sem_isub(a, b) != (uint32_t)((uint64_t)a - b);
      bad += sem_umin(a, b) != (a < b ? a : b) || sem_umax(a, b) != (a > b ? a : b);
      bad += sem_smin(a, b) != (uint32_t)(sa < sb ? sa : sb);
      bad += sem_smax(a, b) != (uint32_t)(sa > sb ? sa : sb);
      bad += sem_and(a, b) != (a & b) || sem_or(a, b) != (a | b) || sem_xor(a, b) != (a ^ b);
      bad += sem_not(a) != (a ^ 0xffffffffu);
      /* TGSI SHL/USHR/ISHR mask the count with 31. */
      bad += sem_shl(a, b) != (uint32_t)((uint64_t)a << (b % 32));
      bad += sem_shr(a, b) != (uint32_t)((uint64_t)a >> (b % 32));
      bad += sem_ashr(a, b) != (uint32_t)(int64_t)(sa / ((int64_t)1 << (b % 32)) -
                                                   (sa < 0 && sa % ((int64_t)1 << (b % 32)) != 0));
      int64_t a24 = (int64_t)(a & 0xffffff) - ((a & 0x800000) ? 0x1000000 : 0);
      int64_t b24 = (int64_t)(b & 0xffffff) - ((b & 0x800000) ? 0x1000000 : 0);
      bad += sem_umul24(a, b) != (uint32_t)((uint64_t)(a & 0xffffff) * (b & 0xffffff));
      bad += sem_smul24(a, b) != (uint32_t)(uint64_t)(a24 * b24);
      bad += sem_umad24(a, b, c) != (uint32_t)((uint64_t)(a & 0xffffff) * (b & 0xffffff) + c);
      bad += sem_smad24(a, b, c) != (uint32_t)((uint64_t)(a24 * b24) + c);
      bad += sem_mull_u(a, b) != (uint32_t)((uint64_t)(a % 65536) * (b % 65536));
      /* The ir3 32-bit multiply: mull.u, then madsh.m16 twice. */
      uint32_t t = sem_mull_u(a, b);
      t = sem_madsh_m16(a, b, t);
      t = sem_madsh_m16(b, a, t);
      bad += t != (uint32_t)((uint64_t)a * b);
      bad += sem_bfrev(a) != ref_bfrev(a) || sem_cbits(a) != ref_pop(a);
      bad += sem_clz_b(a) != ref_clz(a) || sem_clz_s(a) != ref_cls(a);
      bad += sem_sel(a, b, c) != (b != 0 ? a : c);
      /* TGSI UCMP: src0.u != 0 ? src1 : src2 -- the same select. */
      bad += sem_fsel(a, b, c) != (uif(b) != 0.0f ? a : c);
      bad += sem_iabs(a) != (uint32_t)(sa < 0 ? -sa : sa) || sem_ineg(a) != (uint32_t)-sa;
      bad += sem_fneg(sem_fneg(a)) != a || sem_fabs(a) != (a & 0x7fffffffu);
   }
   CHECKF(bad == 0, "%u integer mismatches", bad);
   CHECK_EQ_U(sem_clz_b(0), 32);
   CHECK_EQ_U(sem_clz_s(0xffffffff), 32);
   CHECK_EQ_U(sem_clz_s(1), 31);
   CHECK_EQ_U(sem_ashr(0x80000000, 31), 0xffffffff);
   CHECK_EQ_U(sem_iabs(0x80000000), 0x80000000); /* INT_MIN wraps, as TGSI IABS */
}

static void
test_conversions(void)
{
   unsigned bad = 0;
   /* Every half round-trips through f32; f32 values match ldexp. */
   for (uint32_t h = 0; h < 0x10000; h++) {
      uint32_t f = sem_f16_to_f32(h);
      unsigned e = (h >> 10) & 31, man = h & 0x3ff;
      if (e == 31) {
         bad += man ? !is_nan_bits(f) : f != ((h & 0x8000u) << 16 | 0x7f800000u);
         continue;
      }
      double v = e ? ldexp(1024 + man, (int)e - 25) : ldexp(man, -24);
      bad += uif(f) != (float)((h & 0x8000) ? -v : v);
      bad += sem_f32_to_f16(f) != h;
   }
   /* Random floats: the half chosen is nearest, ties to even. */
   for (int i = 0; i < N; i++) {
      uint32_t a = rnd();
      float x = uif(a);
      uint32_t h = sem_f32_to_f16(a);
      if (isnan(x)) {
         bad += h != 0x7e00 + (a & 0x80000000u ? 0x8000u : 0);
         continue;
      }
      if (fabsf(x) >= 65520.0f) { /* rounds to infinity */
         bad += (h & 0x7fff) != 0x7c00;
         continue;
      }
      double d = x, got = uif(sem_f16_to_f32(h));
      for (int k = -1; k <= 1; k += 2) {
         uint32_t n = (h & 0x7fff) == 0 && k < 0 ? (h ^ 0x8000u) | 1 : h + (uint32_t)k;
         if ((n & 0x7c00) == 0x7c00)
            continue;
         double other = uif(sem_f16_to_f32(n & 0xffff));
         double eg = fabs(got - d), eo = fabs(other - d);
         bad += eo < eg || (eo == eg && (h & 1) && !(n & 1) && other != got);
      }
   }
   /* float <-> int: saturating, NaN -> 0; round to nearest even on the way in. */
   for (int i = 0; i < N; i++) {
      uint32_t a = rnd();
      double x = uif(a), t = trunc(x);
      uint32_t ws = isnan(x)             ? 0
                    : t >= 2147483647.0  ? 0x7fffffffu
                    : t <= -2147483648.0 ? 0x80000000u
                                         : (uint32_t)(int32_t)t;
      uint32_t wu = isnan(x) ? 0 : t >= 4294967295.0 ? 0xffffffffu : t <= 0 ? 0u : (uint32_t)t;
      bad += sem_f2i(a, 1, 0) != ws || sem_f2i(a, 0, 0) != wu;
      bad += sem_f2i(a, 1, 3) != sem_f2i(sem_ffloor(a), 1, 0);
      bad += sem_f2i(a, 1, 2) != sem_f2i(sem_fceil(a), 1, 0);
      bad += sem_f2i(a, 1, 1) != sem_f2i(sem_frndne(a), 1, 0);
      /* TGSI I2F / U2F: (float)int. */
      bad += sem_i2f(a, 1) != fui((float)(int32_t)a) || sem_i2f(a, 0) != fui((float)a);
      bad += sem_i2f(a, 1) != fui((float)(double)(int32_t)a);
   }
   CHECKF(bad == 0, "%u conversion mismatches", bad);
   /* cov between types. */
   CHECK_EQ_U(sem_cov(ISA_TYPE_F32, ISA_TYPE_S32, 0, fui(-2.75f)), 0xfffffffe);
   CHECK_EQ_U(sem_cov(ISA_TYPE_F32, ISA_TYPE_S32, 1, fui(-2.5f)), 0xfffffffe);
   CHECK_EQ_U(sem_cov(ISA_TYPE_F32, ISA_TYPE_S32, 3, fui(-2.25f)), 0xfffffffd);
   CHECK_EQ_U(sem_cov(ISA_TYPE_F32, ISA_TYPE_U32, 0, fui(-2.75f)), 0);
   CHECK_EQ_U(sem_cov(ISA_TYPE_F32, ISA_TYPE_S16, 0, fui(40000.0f)), 0x7fff);
   CHECK_EQ_U(sem_cov(ISA_TYPE_F32, ISA_TYPE_S16, 0, fui(-40000.0f)), 0x8000);
   CHECK_EQ_U(sem_cov(ISA_TYPE_F32, ISA_TYPE_U8, 0, fui(300.0f)), 0xff);
   CHECK_EQ_U(sem_cov(ISA_TYPE_F32, ISA_TYPE_S8, 0, fui(-1.0f)), 0xffff);
   CHECK_EQ_U(sem_cov(ISA_TYPE_S16, ISA_TYPE_S32, 0, 0x8000), 0xffff8000);
   CHECK_EQ_U(sem_cov(ISA_TYPE_U16, ISA_TYPE_U32, 0, 0x18000), 0x8000);
   CHECK_EQ_U(sem_cov(ISA_TYPE_S32, ISA_TYPE_S16, 0, 0x12345678), 0x5678);
   CHECK_EQ_U(sem_cov(ISA_TYPE_S8, ISA_TYPE_F32, 0, 0xff), fui(-1.0f));
   CHECK_EQ_U(sem_cov(ISA_TYPE_F32, ISA_TYPE_F16, 0, fui(1.0f)), 0x3c00);
   CHECK_EQ_U(sem_cov(ISA_TYPE_F16, ISA_TYPE_F32, 0, 0xc000), fui(-2.0f));
   CHECK_EQ_U(sem_cov(ISA_TYPE_F16, ISA_TYPE_S32, 0, 0xc100), 0xfffffffe);
   CHECK_EQ_U(sem_cov(ISA_TYPE_U32, ISA_TYPE_F16, 0, 65504), 0x7bff);
   CHECK_EQ_U(sem_cov(ISA_TYPE_F32, ISA_TYPE_F32, 0, 0x7fc00001), 0x7fc00001); /* mov keeps bits */
}

static void
test_eval(void)
{
   struct sem_args a = {.cond = SEM_GE, .type = ISA_TYPE_F32};
   uint32_t src[4] = {fui(2.0f), fui(3.0f), fui(4.0f), 0}, d = 0;
   CHECK(sem_eval(ISA_SEM_FADD, &a, src, &d) && d == fui(5.0f));
   CHECK(sem_eval(ISA_SEM_FMAD, &a, src, &d) && d == fui(10.0f));
   CHECK(sem_eval(ISA_SEM_FCMP, &a, src, &d) && d == 0);
   CHECK(sem_eval(ISA_SEM_FCMPSEL, &a, src, &d) && d == 0);
   a.cond = SEM_LT;
   CHECK(sem_eval(ISA_SEM_FCMPSEL, &a, src, &d) && d == fui(4.0f));
   CHECK(sem_eval(ISA_SEM_RCP, &a, src, &d) && d == fui(0.5f));
   a.src_type = ISA_TYPE_F32;
   a.dst_type = ISA_TYPE_S32;
   CHECK(sem_eval(ISA_SEM_COV, &a, src, &d) && d == 2);
   CHECK(!sem_eval(ISA_SEM_LDG, &a, src, &d));
   CHECK(!sem_eval(ISA_SEM_BRANCH, &a, src, &d));
   /* Every pure ALU semantics has an evaluator. */
   static const enum isa_sem pure[] = {
       ISA_SEM_MOV,     ISA_SEM_COV,    ISA_SEM_FADD,   ISA_SEM_FMUL,    ISA_SEM_FMIN,
       ISA_SEM_FMAX,    ISA_SEM_FMAD,   ISA_SEM_FFMA,   ISA_SEM_FCMP,    ISA_SEM_FSIGN,
       ISA_SEM_FFLOOR,  ISA_SEM_FCEIL,  ISA_SEM_FTRUNC, ISA_SEM_FRNDNE,  ISA_SEM_FRNDAZ,
       ISA_SEM_FABSNEG, ISA_SEM_IADD,   ISA_SEM_ISUB,   ISA_SEM_IABSNEG, ISA_SEM_UMUL24,
       ISA_SEM_SMUL24,  ISA_SEM_MULL_U, ISA_SEM_UMAD24, ISA_SEM_SMAD24,  ISA_SEM_MADSH_M16,
       ISA_SEM_UMIN,    ISA_SEM_UMAX,   ISA_SEM_SMIN,   ISA_SEM_SMAX,    ISA_SEM_UCMP,
       ISA_SEM_SCMP,    ISA_SEM_AND,    ISA_SEM_OR,     ISA_SEM_XOR,     ISA_SEM_NOT,
       ISA_SEM_SHL,     ISA_SEM_SHR,    ISA_SEM_ASHR,   ISA_SEM_BFREV,   ISA_SEM_CBITS,
       ISA_SEM_CLZ_B,   ISA_SEM_CLZ_S,  ISA_SEM_SEL,    ISA_SEM_FSEL,    ISA_SEM_FCMPSEL,
       ISA_SEM_ICMPSEL, ISA_SEM_RCP,    ISA_SEM_RSQ,    ISA_SEM_LOG2,    ISA_SEM_EXP2,
       ISA_SEM_SIN,     ISA_SEM_COS,    ISA_SEM_SQRT};
   for (unsigned i = 0; i < ARRAY_SIZE(pure); i++)
      CHECKF(sem_eval(pure[i], &a, src, &d), "no evaluator for %s", isa_sem_name(pure[i]));
   CHECK(sem_cond_find("ge") == SEM_GE && sem_cond_find("x") < 0);
   /* Source modifiers: float vs integer meaning. */
   CHECK_EQ_U(sem_srcmod(fui(2.0f), ISA_OPND_F_NEG | ISA_OPND_F_ABS, 1), fui(-2.0f));
   CHECK_EQ_U(sem_srcmod(5, ISA_OPND_F_NEG, 0), 0xfffffffb);
   CHECK_EQ_U(sem_srcmod(0xfffffffb, ISA_OPND_F_ABS, 0), 5);
   /* a 16-bit slot: the half's own sign */
   CHECK_EQ_U(sem_srcmod16(0x3c00, ISA_OPND_F_NEG, 1), 0xbc00);
   CHECK_EQ_U(sem_srcmod16(0xbc00, ISA_OPND_F_ABS, 1), 0x3c00);
   CHECK_EQ_U(sem_srcmod16(0x3c00, ISA_OPND_F_NEG | ISA_OPND_F_ABS, 1), 0xbc00);
   CHECK_EQ_U(sem_srcmod16(0xfffb, ISA_OPND_F_ABS, 0), 5);
   CHECK_EQ_U(sem_srcmod16(5, ISA_OPND_F_NEG, 0), 0xfffb);
   CHECK_EQ_U(sem_ftz(0x00000001), 0);
   CHECK_EQ_U(sem_ftz(0x80000010), 0x80000000);
   CHECK_EQ_U(sem_ftz(0x00800000), 0x00800000);
}

/* The gfx9 VALU semantics (sem.h's GCN block), each against a
 * formulation written here from the Vega ISA's definitions. */
static uint32_t
ev(enum isa_sem s, uint32_t a, uint32_t b, uint32_t c)
{
   struct sem_args args = {.type = ISA_TYPE_U32};
   uint32_t src[4] = {a, b, c, 0}, d = 0xdeadbeefu;
   CHECKF(sem_eval(s, &args, src, &d), "no evaluator for %s", isa_sem_name(s));
   return d;
}

/* llc's f32 division (v_div_scale twice, v_rcp, four v_fma, v_div_fmas,
 * v_div_fixup, the order llc -O2 emits) of n by d. */
static uint32_t
llc_fdiv(uint32_t n, uint32_t d)
{
   uint32_t vcc, ign;
   uint32_t den = sem_div_scale(d, d, n, &ign), r = sem_rcp(den);
   uint32_t e = sem_ffma(den ^ 0x80000000u, r, fui(1.0f));
   r = sem_ffma(e, r, r);
   uint32_t num = sem_div_scale(n, d, n, &vcc);
   uint32_t q = sem_fmul(num, r);
   uint32_t e2 = sem_ffma(den ^ 0x80000000u, q, num);
   q = sem_ffma(e2, r, q);
   uint32_t e3 = sem_ffma(den ^ 0x80000000u, q, num);
   return sem_div_fixup(sem_div_fmas(e3, r, q, vcc), d, n);
}

/* The division ops give the correctly rounded quotient (canonical NaN),
 * random and special operands, the scaled cases among them: quotients past
 * 2^96, denormal quotients and denominators, huge denominators. */
static void
test_div(void)
{
   static const uint32_t hard[][2] = {
       {0x7f7fffff, 0x00800000}, {0x00000001, 0x7f7fffff}, {0x00800000, 0x7f000000},
       {0x7f000000, 0x00000003}, {0x00000005, 0x00000003}, {0x3f800000, 0x7e800000},
       {0x0000ffff, 0x40400000}, {0x437f0000, 0x437f0000}, {0x42c80000, 0x437f0000},
   };
   unsigned bad = 0;
   for (unsigned i = 0; i < N + ARRAY_SIZE(hard); i++) {
      uint32_t n = i < ARRAY_SIZE(hard) ? hard[i][0] : rnd();
      uint32_t d = i < ARRAY_SIZE(hard) ? hard[i][1] : rnd();
      uint32_t want = canon(uif(n) / uif(d)), got = llc_fdiv(n, d);
      if (got != want && bad++ < 5)
         CHECKF(0, "%08x / %08x: %08x, want %08x", n, d, got, want);
   }
   CHECK_EQ_U(bad, 0);
}

static void
test_gcn(void)
{
   CHECK_EQ_U(ev(ISA_SEM_FSUB, fui(1.0f), fui(3.0f), 0), fui(-2.0f));
   /* DX9 multiply: 0 * inf and 0 * NaN are 0 */
   CHECK_EQ_U(ev(ISA_SEM_FMUL_LEGACY, 0, 0x7f800000u, 0), 0);
   CHECK_EQ_U(ev(ISA_SEM_FMUL_LEGACY, 0x7fc00000u, 0, 0), 0);
   CHECK_EQ_U(ev(ISA_SEM_FMUL_LEGACY, fui(1.5f), fui(2.0f), 0), fui(3.0f));
   /* fract stays below 1.0 where x - floor(x) rounds to 1 */
   CHECK_EQ_U(ev(ISA_SEM_FRACT, fui(-1e-8f), 0, 0), 0x3f7fffffu);
   CHECK_EQ_U(ev(ISA_SEM_FRACT, fui(-1.25f), 0, 0), fui(0.75f));
   CHECK_EQ_U(ev(ISA_SEM_SIN_REV, fui(0.25f), 0, 0), fui(1.0f));
   CHECK_EQ_U(ev(ISA_SEM_COS_REV, fui(-2.0f), 0, 0), fui(1.0f));
   CHECK_EQ_U(ev(ISA_SEM_CVT_UBYTE2, 0x12ab3456u, 0, 0), fui(171.0f));
   CHECK_EQ_U(ev(ISA_SEM_CVT_UBYTE3, 0xff000000u, 0, 0), fui(255.0f));
   CHECK_EQ_U(ev(ISA_SEM_MUL_HI_U, 0xffffffffu, 0xffffffffu, 0), 0xfffffffeu);
   CHECK_EQ_U(ev(ISA_SEM_MUL_HI_I, 0xffffffffu, 0xffffffffu, 0), 0);
   CHECK_EQ_U(ev(ISA_SEM_MUL_HI_I, 0x80000000u, 2, 0), 0xffffffffu);
   CHECK_EQ_U(ev(ISA_SEM_MUL_LO, 0xfffffffeu, 0x7fffff00u, 0), 0x200);
   CHECK_EQ_U(ev(ISA_SEM_LSHL_OR, 3, 33, 4), 6 | 4);
   CHECK_EQ_U(ev(ISA_SEM_LSHL_ADD, 3, 4, 5), 53);
   CHECK_EQ_U(ev(ISA_SEM_ADD_LSHL, 3, 4, 2), 28);
   CHECK_EQ_U(ev(ISA_SEM_OR3, 1, 2, 4), 7);
   CHECK_EQ_U(ev(ISA_SEM_AND_OR, 0xf0, 0x3c, 1), 0x31);
   CHECK_EQ_U(ev(ISA_SEM_XAD, 5, 3, 10), 16);
   CHECK_EQ_U(ev(ISA_SEM_FMAX3, fui(1.0f), 0x7fc00000u, fui(-2.0f)), fui(1.0f));
   CHECK_EQ_U(ev(ISA_SEM_FMIN3, fui(1.0f), fui(3.0f), fui(-2.0f)), fui(-2.0f));
   CHECK_EQ_U(ev(ISA_SEM_FMED3, fui(5.0f), fui(0.0f), fui(1.0f)), fui(1.0f));
   CHECK_EQ_U(ev(ISA_SEM_FMED3, fui(-5.0f), fui(0.0f), fui(1.0f)), fui(0.0f));
   CHECK_EQ_U(ev(ISA_SEM_SMED3, (uint32_t)-5, 7, 2), 2);
   CHECK_EQ_U(ev(ISA_SEM_UMED3, (uint32_t)-5, 7, 2), 7);
   CHECK_EQ_U(ev(ISA_SEM_SMAX3, (uint32_t)-5, (uint32_t)-7, (uint32_t)-2), (uint32_t)-2);
   CHECK_EQ_U(ev(ISA_SEM_UMIN3, (uint32_t)-5, 7, 9), 7);
   /* bfe: offset and width are 5 bits, width 0 gives 0 */
   CHECK_EQ_U(ev(ISA_SEM_UBFE3, 0xabcd1234u, 8, 8), 0x12);
   CHECK_EQ_U(ev(ISA_SEM_SBFE3, 0xabcd1234u, 28, 4), 0xfffffffau);
   CHECK_EQ_U(ev(ISA_SEM_UBFE3, 0xabcd1234u, 4, 32), 0);
   CHECK_EQ_U(ev(ISA_SEM_SBFE3, 0x80000000u, 31, 16), 0xffffffffu);
   CHECK_EQ_U(ev(ISA_SEM_BITSEL, 0xff00ff00u, 0x12345678u, 0x9abcdef0u), 0x12bc56f0u);
   CHECK_EQ_U(ev(ISA_SEM_FFBH, 0, 0, 0), 0xffffffffu);
   CHECK_EQ_U(ev(ISA_SEM_FFBH, 1, 0, 0), 31);
   CHECK_EQ_U(ev(ISA_SEM_FFBH_I, 0, 0, 0), 0xffffffffu);
   CHECK_EQ_U(ev(ISA_SEM_FFBH_I, 0xffffffffu, 0, 0), 0xffffffffu);
   CHECK_EQ_U(ev(ISA_SEM_FFBH_I, 1, 0, 0), 31);
   CHECK_EQ_U(ev(ISA_SEM_FFBH_I, 0xfffffffeu, 0, 0), 31);
   CHECK_EQ_U(ev(ISA_SEM_FFBH_I, 0x80000000u, 0, 0), 1);
   CHECK_EQ_U(ev(ISA_SEM_FFBH_I, 0x00010000u, 0, 0), 15);
   CHECK_EQ_U(ev(ISA_SEM_FFBL, 0, 0, 0), 0xffffffffu);
   CHECK_EQ_U(ev(ISA_SEM_FFBL, 0x80000000u, 0, 0), 31);
   CHECK_EQ_U(ev(ISA_SEM_FFBL, 12, 0, 0), 2);
   CHECK_EQ_U(ev(ISA_SEM_BCNT, 0xf0f0u, 3, 0), 11);
   CHECK_EQ_U(ev(ISA_SEM_LDEXP, fui(1.5f), (uint32_t)-2, 0), fui(0.375f));
   CHECK_EQ_U(ev(ISA_SEM_LDEXP, fui(1.0f), 200, 0), 0x7f800000u);
   CHECK_EQ_U(ev(ISA_SEM_PERM, 0x11223344u, 0x55668899u, 0x0c070004u), 0x00119944u);
   CHECK_EQ_U(ev(ISA_SEM_PERM, 0x00008000u, 0x80000000u, 0x0d0b0a09u), 0xff00ffffu);
   /* s_bfe: offset in bits 4:0, width in 22:16 */
   CHECK_EQ_U(ev(ISA_SEM_S_UBFE, 0xabcd1234u, 0x80008u, 0), 0x12);
   CHECK_EQ_U(ev(ISA_SEM_S_SBFE, 0xabcd1234u, 0x4001cu, 0), 0xfffffffau);
   CHECK_EQ_U(ev(ISA_SEM_S_UBFE, 0xabcd1234u, 0x200004u, 0), 0x0abcd123u);
   CHECK_EQ_U(ev(ISA_SEM_S_SBFE, 0xabcd1234u, 0x00004u, 0), 0);
   CHECK_EQ_U(ev(ISA_SEM_IABS, 0xfffffffbu, 0, 0), 5);
   CHECK_EQ_U(ev(ISA_SEM_IABS, 0x80000000u, 0, 0), 0x80000000u);
   CHECK_EQ_U(ev(ISA_SEM_BITSET0, 33, 0xffffffffu, 0), 0xfffffffdu); /* bit 33 & 31 */
   CHECK_EQ_U(ev(ISA_SEM_BITSET1, 31, 1, 0), 0x80000001u);
   CHECK_EQ_U(ev(ISA_SEM_BITCMP0, 0x8u, 35, 0), 0); /* bit 35 & 31 = 3 is set */
   CHECK_EQ_U(ev(ISA_SEM_BITCMP1, 0x8u, 35, 0), 1);
   CHECK_EQ_U(ev(ISA_SEM_BITCMP0, 0x8u, 4, 0), 1);
   CHECK_EQ_U(ev(ISA_SEM_BITCMP1, 0x80000000u, 31, 0), 1);
   CHECK_EQ_U(ev(ISA_SEM_ALIGNBIT, 0x12345678u, 0x9abcdef0u, 8), 0x789abcdeu);
   CHECK_EQ_U(ev(ISA_SEM_ALIGNBIT, 0x12345678u, 0x9abcdef0u, 32), 0x9abcdef0u);
   {
      uint64_t m = 0x0000000000108421ull, w = 0, z = 0;
      uint64_t src[3] = {m, 0, 0};
      CHECK(sem_salu64(ISA_SEM_WQM, &(struct sem_args){0}, src, &w, &z));
      CHECK(w == 0x0000000000f0ffffull); /* quads 0-3 and 5 had a lane, 4 none */
   }
   /* the carry ops: sum or difference, then the carry (borrow) bit */
   static const struct {
      enum isa_sem s;
      uint32_t a, b, c, d0, d1;
   } co[] = {
       {ISA_SEM_ADD_CO, 0xffffffffu, 1, 0, 0, 1},
       {ISA_SEM_ADD_CO, 0x7fffffffu, 1, 0, 0x80000000u, 0},
       {ISA_SEM_SUB_CO, 1, 2, 0, 0xffffffffu, 1},
       {ISA_SEM_SUB_CO, 2, 2, 0, 0, 0},
       {ISA_SEM_ADDC_CO, 0xffffffffu, 0, 1, 0, 1},
       {ISA_SEM_ADDC_CO, 0xfffffffeu, 0, 1, 0xffffffffu, 0},
       {ISA_SEM_ADDC_CO, 0xffffffffu, 0xffffffffu, 1, 0xffffffffu, 1},
       {ISA_SEM_SUBB_CO, 0, 0, 1, 0xffffffffu, 1},
       {ISA_SEM_SUBB_CO, 5, 4, 1, 0, 0},
       {ISA_SEM_SUBB_CO, 5, 5, 0, 0, 0},
   };
   for (unsigned i = 0; i < ARRAY_SIZE(co); i++) {
      uint32_t src[ISA_MAX_SRC] = {co[i].a, co[i].b, co[i].c}, d[ISA_MAX_DST] = {0};
      struct sem_args a = {0};
      CHECK(sem_eval(co[i].s, &a, src, d));
      CHECKF(d[0] == co[i].d0 && d[1] == co[i].d1, "carry case %u: %08x %u", i, d[0], d[1]);
   }
}

/* agx's sine halves (a MODEL CHOICE, isa/sem.h): sin_pt_1 folds the
 * quarter turns exactly; sin_pt_2(t) * t is sin(r pi / 2) within two
 * roundings of the sine of the angle itself (no fold), at every 1/256
 * of [0, 4) and at random points. */
static void
test_agx_sine(void)
{
   CHECK_EQ_U(ev(ISA_SEM_SIN_PT_1, fui(1.5f), 0, 0), fui(0.5f));
   CHECK_EQ_U(ev(ISA_SEM_SIN_PT_1, fui(3.5f), 0, 0), fui(-0.5f));
   CHECK_EQ_U(ev(ISA_SEM_SIN_PT_1, fui(4.0f), 0, 0), 0);
   CHECK_EQ_U(ev(ISA_SEM_SIN_PT_1, fui(-1e-9f), 0, 0), fui(-1e-9f));
   CHECK_EQ_U(ev(ISA_SEM_SIN_PT_1, 0x7f800000u, 0, 0), SEM_CANON_NAN);
   CHECK_EQ_U(ev(ISA_SEM_SIN_PT_2, 0, 0, 0), fui(1.5707964f));
   for (unsigned k = 0; k < 1024 + 256; k++) {
      float r = k < 1024 ? (float)k / 256.0f : (float)rng_below(&rng, 1u << 24) * 0x1p-22f;
      uint32_t t = ev(ISA_SEM_SIN_PT_1, fui(r), 0, 0);
      float got = uif(sem_fmul(ev(ISA_SEM_SIN_PT_2, t, 0, 0), t));
      double turns = (double)r / 4.0, want = sin(6.283185307179586 * turns);
      CHECKF(fabs((double)got - want) <= 0x1p-22 * fabs(want) + 0x1p-40,
             "sine at %.9g: %.9g, want %.9g", (double)r, (double)got, want);
   }
}

int
main(void)
{
   rng_seed(&rng, 20240815);
   test_gcn();
   test_agx_sine();
   test_div();
   test_float_arith();
   test_transcendental();
   test_minmax_cmp();
   test_integer();
   test_conversions();
   test_eval();
   return test_done();
}
