/*
 * The golden interpreter's 32-bit ALU: float, integer, conversion and
 * compare opcodes, the REPL/CHAN opcodes and the legacy ones. Every
 * opcode is a loop over the lanes of a batch, structure-of-arrays, with the
 * switch outside the loop so the compiler can vectorize it.
 *
 * Values follow tgsi_semantics.md (tgsi_exec on x86-64) except where that
 * is host dependent: transcendentals are computed in double precision and
 * rounded once (libm float functions differ between C libraries), and
 * MIN/MAX pick between +0 and -0 by operand order, not by libm.
 *
 * Flags (enum env_flag) of a result: the union of the sources' flags, plus
 * UNDEF where the specification leaves the result undefined (the value is
 * still the tgsi_exec/x86-64 one, computed without host UB), plus the
 * opcode's inexact class, plus DENORM when a float operand or result is
 * denormal and NAN when a float result is NaN.
 *
 * The UNDEF rule: a result is undefined only if some value of an undefined
 * operand could change it. The union above over-approximates that; these
 * cases, cheap to recognise and common in real shaders, are exact instead:
 *  - SFL and STR are constants: no flags at all.
 *  - An absorbing operand decides the result alone: AND with a defined 0,
 *    OR with a defined ~0, UMUL/UMUL_HI/IMUL_HI (and UMAD's product) by a
 *    defined 0, UMIN with 0, UMAX with ~0, IMIN with INT_MIN, IMAX with
 *    INT_MAX. The result takes that operand's flags (and UMAD the addend's).
 *  - CMP/UCMP take the flags of the operand they pick (and the condition's);
 *    when the condition is undefined but both operands are the same bits,
 *    it does not matter: the result takes both operands' flags only.
 * Everything else stays a union, deliberately: float MUL by 0 (the other
 * operand may be Inf or NaN), shifts by an undefined amount, compares.
 */
/* GCC's -O2 vectorizes only loops of known trip count; the per-lane loops
 * here are the interpreter's hot path, so ask for the dynamic cost model.
 * no-trapping-math (no effect on any value: it only lets GCC evaluate a
 * float operation or compare whose result a select may drop) is what
 * lets the branch-free flag tests of tgsi_interp_lane.h vectorize, and
 * no-math-errno (errno is never read) lets sqrtf be an instruction; it
 * comes before the includes so those inline functions get it too (GCC
 * does not inline across differing options). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic", "no-trapping-math",              \
                     "no-math-errno")
#endif

#include "compiler/tgsi/tgsi.h"
#include "compiler/tgsi/tgsi_interp_lane.h"
#include "emu/emu.h"

#include <math.h>

/* MAD, DP* and LRP are two roundings, as in tgsi_exec on x86-64. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#define FOR for (unsigned i = 0; i < n; i++)

/* For lane loops whose shape depends on a constant argument. */
#if defined(__GNUC__)
#define TI_INLINE inline __attribute__((always_inline))
#else
#define TI_INLINE inline
#endif

static inline float
F(uint32_t u)
{
   return uif(u);
}

/* DENORM and NAN classification of float bits, on the magnitude m (the
 * bits without the sign): a denormal is 1 <= m <= 0x007fffff, one unsigned
 * compare of m - 1 (zero wraps round to the top); a NaN is m above the
 * infinity's bits. Branch-free so that the loops using them vectorize
 * (fewer vector operations per lane than testing exponent and mantissa
 * apart; the same result for all 2^32 inputs). */
static inline uint32_t
fclass(uint32_t x)
{
   uint32_t m = x & 0x7fffffffu;
   return (uint32_t)(m - 1u < 0x007fffffu) * ENV_F_DENORM | (uint32_t)(m > 0x7f800000u) * ENV_F_NAN;
}

static inline uint32_t
fden(uint32_t x)
{
   return (uint32_t)((x & 0x7fffffffu) - 1u < 0x007fffffu) * ENV_F_DENORM;
}

/* The magnitude of float bits less one: a denormal's lies below
 * 0x007fffff (fclass), and the smallest of several tells whether any
 * is one, with a single compare. */
static inline uint32_t
fden_key(uint32_t x)
{
   return (x & 0x7fffffffu) - 1u;
}

static inline uint32_t
min_u32(uint32_t x, uint32_t y)
{
   return x < y ? x : y;
}

static inline uint32_t
undef_if(bool c)
{
   return c ? ENV_F_UNDEF : 0;
}

static float
min_nan(float a, float b)
{
   if (a != a)
      return b;
   if (b != b)
      return a;
   return b < a ? b : a;
}

static float
max_nan(float a, float b)
{
   if (a != a)
      return b;
   if (b != b)
      return a;
   return b > a ? b : a;
}

static inline uint32_t
zsign(uint32_t a, uint32_t b)
{
   return ((a | b) & 0x7fffffffu) == 0 && a != b ? ENV_F_ZSIGN : 0;
}

/* A divisor that is a zero of unspecified sign (ZSIGN among the flags of
 * the operands) makes an infinity whose sign is not determined either:
 * UNDEF, so that neither it nor a compare of it is checked (RCP of MAX(-0,
 * +0) is +inf or -inf). RSQ, LG2 and POW of a zero are UNDEF already. */
static inline uint32_t
zsign_pole(uint32_t flags, uint32_t divisor)
{
   return (flags & ENV_F_ZSIGN) && (divisor & 0x7fffffffu) == 0 ? ENV_F_UNDEF : 0;
}

/* (int32)f truncated; x86-64 gives 0x80000000 out of range and for NaN. */
static inline uint32_t
f2i_bits(float f)
{
   return f >= -2147483648.0f && f < 2147483648.0f ? (uint32_t)(int32_t)f : 0x80000000u;
}

static inline bool
f2i_ok(float f)
{
   return f >= -2147483648.0f && f < 2147483648.0f;
}

/* (uint32)f as gcc compiles it on x86-64: through a 64-bit truncation. */
static inline uint32_t
f2u_bits(float f)
{
   if (!(f > -9223372036854775808.0f && f < 9223372036854775808.0f))
      return 0;
   return (uint32_t)(uint64_t)(int64_t)f;
}

static inline bool
f2u_ok(float f)
{
   return f > -1.0f && f < 4294967296.0f;
}

static inline uint32_t
ishr(uint32_t a, uint32_t s)
{
   s &= 31;
   return (a & 0x80000000u) ? ~(~a >> s) : a >> s;
}

static inline uint32_t
bitrev(uint32_t x)
{
   x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
   x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
   x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
   x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
   return (x >> 16) | (x << 16);
}

static inline uint32_t
popcount(uint32_t x)
{
   x = x - ((x >> 1) & 0x55555555u);
   x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
   x = (x + (x >> 4)) & 0x0f0f0f0fu;
   return (x * 0x01010101u) >> 24;
}

/* Index of the highest set bit, -1 for 0. */
static inline uint32_t
msb(uint32_t x)
{
   int i = -1;
   while (x) {
      x >>= 1;
      i++;
   }
   return (uint32_t)i;
}

static inline uint32_t
lsb(uint32_t x)
{
   if (!x)
      return 0xffffffffu;
   uint32_t i = 0;
   while (!(x & 1)) {
      x >>= 1;
      i++;
   }
   return i;
}

/* IBFE/UBFE exactly as tgsi_exec computes them, without C-level UB. */
static uint32_t
bfe(uint32_t v, uint32_t offset, uint32_t bits, bool sign)
{
   uint32_t off = offset & 31;
   if (bits == 32 && off == 0)
      return v;
   bits &= 31;
   if (bits == 0)
      return 0;
   if (bits + off < 32) {
      uint32_t x = v << (32 - bits - off);
      return sign ? ishr(x, 32 - bits) : x >> (32 - bits);
   }
   return sign ? ishr(v, off) : v >> off;
}

static uint32_t
bfi(uint32_t base, uint32_t ins, uint32_t offset, uint32_t bits)
{
   uint32_t off = offset & 31;
   if (bits >= 32)
      return bits == 32 ? ins : base;
   uint32_t mask = ((1u << bits) - 1) << off;
   return ((ins << off) & mask) | (base & ~mask);
}

/* Round-to-nearest-even float to half, with Inf and NaN kept. */
uint16_t
tgsi_interp_f32_to_f16(uint32_t f)
{
   uint32_t sign = (f >> 16) & 0x8000u;
   uint32_t e = (f >> 23) & 0xff, m = f & 0x7fffffu;
   if (e == 0xff)
      return (uint16_t)(m ? 0x7e00u : sign | 0x7c00u); /* one quiet NaN */
   int32_t he = (int32_t)e - 127 + 15;
   if (he >= 31)
      return (uint16_t)(sign | 0x7c00u);
   if (he <= 0) {
      if (he < -10)
         return (uint16_t)sign;
      m |= 0x800000u;
      uint32_t shift = (uint32_t)(14 - he);
      uint32_t hm = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
      if (rem > half || (rem == half && (hm & 1)))
         hm++;
      return (uint16_t)(sign | hm);
   }
   uint32_t hm = m >> 13, rem = m & 0x1fffu;
   uint32_t h = ((uint32_t)he << 10) | hm;
   if (rem > 0x1000u || (rem == 0x1000u && (hm & 1)))
      h++; /* may carry into the exponent, up to Inf: still correct */
   return (uint16_t)(sign | h);
}

uint32_t
tgsi_interp_f16_to_f32(uint16_t h)
{
   uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
   uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ffu;
   if (e == 0x1f)
      return sign | 0x7f800000u | (m << 13);
   if (e == 0) {
      if (!m)
         return sign;
      return sign | fui((float)m * (1.0f / 16777216.0f));
   }
   return sign | ((e + 112) << 23) | (m << 13);
}

/* GLSL-style packing helpers (PK2US, PK4B, PK4UB): round to nearest even
 * of the clamped, scaled value; NaN packs as 0. */
static uint32_t
f_to_unorm(float f, float scale)
{
   if (!(f > 0.0f))
      return 0;
   if (f > 1.0f)
      f = 1.0f;
   return (uint32_t)nearbyintf(f * scale);
}

static uint32_t
f_to_snorm8(float f)
{
   if (f != f)
      return 0;
   f = f < -1.0f ? -1.0f : f > 1.0f ? 1.0f : f;
   return (uint32_t)(int32_t)nearbyintf(f * 127.0f) & 0xffu;
}

/* ROUND for a packed component whose scaled value lies within two float
 * ulps of a rounding tie: there a correct implementation may round the
 * other way (ties away from zero, or the product rounded to float before
 * the rounding to an integer); elsewhere every one gives the same bits.
 * The product is exact in double (24 + 16 bits). A source known only
 * within a tolerance (flags) may land on either side of any tie: ROUND. */
static uint32_t
pack_tie(float f, uint32_t flags, float scale, float lo)
{
   if (flags & ENV_F_INEXACT)
      return ENV_F_ROUND;
   if (f != f)
      return 0; /* NaN: the source's NAN flag */
   f = f < lo ? lo : f > 1.0f ? 1.0f : f;
   double d = (double)f * scale;
   return fabs(d - floor(d) - 0.5) <= 0x1p-7 ? ENV_F_ROUND : 0;
}

static float
snorm8_to_f(uint32_t b)
{
   float f = (float)(int8_t)(b & 0xff) / 127.0f;
   return f < -1.0f ? -1.0f : f;
}

static float
trans(double d)
{
   return (float)d;
}

/* ------------------------------------------------------------------ */
/* Component-wise opcodes                                               */

/* The union of the ns operands' flags; an operand whose flags are the
 * batch's zero array (IMM, CONST, IN, SV) adds nothing. */
DC_LANES
static void
merge_flags(unsigned n, uint32_t *rf, const uint32_t *const *sf, unsigned ns, const uint32_t *zero)
{
   bool set = false;
   for (unsigned s = 0; s < ns; s++) {
      if (sf[s] == zero)
         continue;
      if (set)
         FOR rf[i] |= sf[s][i];
      else /* copies: memcpy's fewer instructions (comp_kernel's MOV) */
         memcpy(rf, sf[s], (size_t)n * 4);
      set = true;
   }
   if (!set)
      memset(rf, 0, (size_t)n * 4);
}

/* NaN results of arithmetic become the one quiet NaN 0x7fc00000 with the
 * NAN flag (hosts differ in the NaN they generate and propagate); denormal
 * results get DENORM. */
DC_LANES
static void
canon(unsigned n, uint32_t *r, uint32_t *rf)
{
   FOR
   {
      uint32_t c = fclass(r[i]);
      rf[i] |= c;
      r[i] = c & ENV_F_NAN ? 0x7fc00000u : r[i];
   }
}

/* Float result: DENORM for denormal operands or result, NAN for NaN. */
DC_LANES
static void
fpost(unsigned n, const uint32_t *r, uint32_t *rf, const uint32_t *const *a, unsigned ns,
      uint32_t cls)
{
   for (unsigned s = 0; s < ns; s++) {
      const uint32_t *x = a[s];
      FOR rf[i] |= fden(x[i]);
   }
   if (r)
      canon(n, (uint32_t *)r, rf);
   FOR rf[i] |= cls;
}

/* The flags of a float arithmetic result in one pass: the operands'
 * flags, DENORM for denormal operands or result, NAN (and the canonical
 * NaN) for a NaN result and the opcode's class; then only the bits of
 * keep. DENORM is one compare of the smallest fden_key of the operands
 * and the result (fclass's test on each, four vector operations a source
 * fewer). */
/* One lane of fflags for the result value val (r[i], or computed here:
 * farith). */
#define FFLAGS_LANE(val, f, key)                                                                   \
   FOR                                                                                             \
   {                                                                                               \
      uint32_t v = (val);                                                                          \
      uint32_t m = v & 0x7fffffffu;                                                                \
      uint32_t k = min_u32(m - 1u, key);                                                           \
      bool nan = m > 0x7f800000u;                                                                  \
      uint32_t cl = (uint32_t)(k < 0x007fffffu) * ENV_F_DENORM | (uint32_t)nan * ENV_F_NAN;        \
      rf[i] = ((f) | cl) & keep;                                                                   \
      r[i] = nan ? 0x7fc00000u : v;                                                                \
   }

DC_LANES
static void
fflags(unsigned n, uint32_t *restrict r, uint32_t *restrict rf, const uint32_t *const *s,
       const uint32_t *const *sf, unsigned ns, uint32_t cls, uint32_t keep)
{
   const uint32_t *a = s[0], *af = sf[0], *b = s[1], *bf = sf[1], *c = s[2], *cf = sf[2];
   switch (ns) {
   case 1:
      FFLAGS_LANE(r[i], af[i] | cls, fden_key(a[i]));
      break;
   case 2:
      FFLAGS_LANE(r[i], af[i] | bf[i] | cls, min_u32(fden_key(a[i]), fden_key(b[i])));
      break;
   default:
      FFLAGS_LANE(r[i], af[i] | bf[i] | cf[i] | cls,
                  min_u32(min_u32(fden_key(a[i]), fden_key(b[i])), fden_key(c[i])));
      break;
   }
}

/* ADD, SUB, MUL and MAD: comp_float's value and fflags' flags in one
 * pass, which reads each operand once and the result not at all (the
 * two passes were a fifth of a float shader). False for other opcodes. */
DC_LANES
static bool
farith(enum tgsi_opcode op, unsigned n, uint32_t *restrict r, uint32_t *restrict rf,
       const uint32_t *const *s, const uint32_t *const *sf, uint32_t cls, uint32_t keep)
{
   const uint32_t *a = s[0], *af = sf[0], *b = s[1], *bf = sf[1], *c = s[2], *cf = sf[2];
   switch (op) {
   case TGSI_OP_ADD:
      FFLAGS_LANE(fui(F(a[i]) + F(b[i])), af[i] | bf[i] | cls,
                  min_u32(fden_key(a[i]), fden_key(b[i])));
      return true;
   case TGSI_OP_SUB:
      FFLAGS_LANE(fui(F(a[i]) - F(b[i])), af[i] | bf[i] | cls,
                  min_u32(fden_key(a[i]), fden_key(b[i])));
      return true;
   case TGSI_OP_MUL:
      FFLAGS_LANE(fui(F(a[i]) * F(b[i])), af[i] | bf[i] | cls,
                  min_u32(fden_key(a[i]), fden_key(b[i])));
      return true;
   case TGSI_OP_MAD:
      FFLAGS_LANE(fui(F(a[i]) * F(b[i]) + F(c[i])), af[i] | bf[i] | cf[i] | cls,
                  min_u32(min_u32(fden_key(a[i]), fden_key(b[i])), fden_key(c[i])));
      return true;
   default:
      return false;
   }
}
#undef FFLAGS_LANE

/* MAD's flags after fflags: FUSE for the lanes whose product rounds
 * (elsewhere fusing cannot change the result), then CANCEL as for FMA
 * (fextra), in one pass, on 32-bit lanes but for the double product
 * (tgsi_lane_mad). The exact-sum test decides FUSE only for a lane
 * without it: a batch whose lanes all have FUSE already (a chain of
 * MADs) skips it. Each is one branch-free loop over the batch, which
 * vectorizes (blocks of 16 lanes, tested apart, ran scalar: GCC's cost
 * model wants more iterations than a block has). */
static TI_INLINE void
mad_lanes(unsigned n, bool fused, uint32_t *restrict rf, const uint32_t *restrict r,
          const uint32_t *restrict a, const uint32_t *restrict b, const uint32_t *restrict c)
{
   FOR rf[i] = tgsi_lane_mad(rf[i], !fused, F(a[i]), F(b[i]), F(c[i]), F(r[i]));
}

DC_LANES
static void
mad_flags(unsigned n, uint32_t *restrict rf, const uint32_t *restrict r, const uint32_t *restrict a,
          const uint32_t *restrict b, const uint32_t *restrict c)
{
   uint32_t all = ~0u;
   FOR all &= rf[i];
   if (all & ENV_F_FUSE)
      mad_lanes(n, true, rf, r, a, b, c);
   else
      mad_lanes(n, false, rf, r, a, b, c);
}

/* CANCEL for a transcendental that magnifies its operand's error: where
 * its condition number |x f'(x) / f(x)| (how many times the relative error
 * of x grows in f(x)) exceeds 16 -- 4 bits, as for a sum's cancellation --
 * and an operand carries an inexact class, the operand's class bounds the
 * operand, not the result: SIN of 1000 + a fused rounding step moves by
 * the step itself, 2^-14 of a value near 0. */
static inline uint32_t
magnify(uint32_t flags, double cond)
{
   /* the operand's amplification times cond, as tgsi_lane_cancel's */
   uint32_t amp = tgsi_lane_amp(flags, 1.0, cond * tgsi_lane_amp_of(flags)) |
                  (uint32_t)(cond != cond) * ENV_F_CANCEL;
   return (flags & TI_INEXACT) ? amp : flags;
}

/* Distance of x to the nearest integer (half: to the nearest n + 0.5). */
static inline double
to_step(float x, bool half)
{
   double d = (double)x - (half ? 0.5 : 0.0);
   return d - floor(d + 0.5);
}

/* The union of n flag words: a pass whose flag test needs a bit no lane
 * has can be skipped (its result would be 0 in every lane). */
DC_LANES
static uint32_t
any_flags(unsigned n, const uint32_t *rf)
{
   uint32_t any = 0;
   FOR any |= rf[i];
   return any;
}

/* Flags only some float opcodes add. */
DC_LANES
static void
fextra(enum tgsi_opcode op, unsigned n, uint32_t *rf, const uint32_t *const *s, const uint32_t *r)
{
   const uint32_t *a = s[0], *b = s[1], *c = s[2];
   switch (op) { /* ADD and SUB: comp_kernel's one pass */
   case TGSI_OP_FMA:
      FOR rf[i] = tgsi_lane_cancel(
          rf[i], F(r[i]),
          tgsi_lane_mag_max(fabs((double)F(a[i]) * F(b[i])), fabs((double)F(c[i]))));
      break;
   case TGSI_OP_LRP:
      /* a * (b - c) + c, or a * b + (1 - a) * c: the terms are the
       * product a * (b - c) and c, and an error of b or c reaches the
       * result times a or 1 - a, so a * b and a * c bound it too: b - c
       * may itself have cancelled (a = 7.5, b = 6.04, c = 6.88: terms of
       * 45 for a result of 0.6) */
      FOR
      {
         double ab = fabs((double)F(a[i]) * F(b[i])), ac = fabs((double)F(a[i]) * F(c[i]));
         double m =
             tgsi_lane_mag_max(fabs((double)F(a[i]) * (F(b[i]) - F(c[i]))), fabs((double)F(c[i])));
         rf[i] = tgsi_lane_cancel(rf[i], F(r[i]), tgsi_lane_mag_max(m, tgsi_lane_mag_max(ab, ac)));
      }
      break;
   case TGSI_OP_DIV:
      FOR rf[i] |= zsign_pole(rf[i], b[i]);
      break;
   case TGSI_OP_MIN:
   case TGSI_OP_MAX:
      FOR rf[i] |= zsign(a[i], b[i]);
      break;
   case TGSI_OP_CLAMP:
      FOR rf[i] |= zsign(a[i], b[i]) | zsign(a[i], c[i]);
      break;
   case TGSI_OP_ROUND:
      FOR rf[i] |= fabsf(F(a[i]) - truncf(F(a[i]))) == 0.5f ? ENV_F_ROUND : 0;
      if (any_flags(n, rf) & TI_INEXACT) /* tgsi_lane_edge needs an inexact class */
         FOR rf[i] |= tgsi_lane_edge(rf[i], to_step(F(a[i]), true), F(a[i]));
      break;
   case TGSI_OP_FLR:
   case TGSI_OP_CEIL:
   case TGSI_OP_TRUNC:
   case TGSI_OP_FRC:
      if (any_flags(n, rf) & TI_INEXACT)
         FOR rf[i] |= tgsi_lane_edge(rf[i], to_step(F(a[i]), false), F(a[i]));
      break;
   case TGSI_OP_SSG:
      if (any_flags(n, rf) & TI_INEXACT)
         FOR rf[i] |= tgsi_lane_edge(rf[i], F(a[i]), F(a[i]));
      break;
   default:
      break;
   }
}

/* Float arithmetic other than farith's (ADD, SUB, MUL, MAD: value and
 * flags in one pass); returns false if op is not one of these. */
DC_LANES
static bool
comp_float(enum tgsi_opcode op, unsigned n, uint32_t *r, const uint32_t *const *s)
{
   const uint32_t *a = s[0], *b = s[1], *c = s[2];
   switch (op) {
   case TGSI_OP_DIV:
      FOR r[i] = fui(F(a[i]) / F(b[i]));
      break;
   case TGSI_OP_FMA:
      FOR r[i] = fui(fmaf(F(a[i]), F(b[i]), F(c[i])));
      break;
   case TGSI_OP_LRP:
      FOR r[i] = fui(F(a[i]) * (F(b[i]) - F(c[i])) + F(c[i]));
      break;
   case TGSI_OP_MIN:
      FOR r[i] = fui(min_nan(F(a[i]), F(b[i])));
      break;
   case TGSI_OP_MAX:
      FOR r[i] = fui(max_nan(F(a[i]), F(b[i])));
      break;
   case TGSI_OP_CLAMP:
      FOR r[i] = fui(min_nan(max_nan(F(a[i]), F(b[i])), F(c[i])));
      break;
   case TGSI_OP_FRC:
      FOR r[i] = fui(F(a[i]) - floorf(F(a[i])));
      break;
   case TGSI_OP_FLR:
      FOR r[i] = fui(floorf(F(a[i])));
      break;
   case TGSI_OP_CEIL:
      FOR r[i] = fui(ceilf(F(a[i])));
      break;
   case TGSI_OP_TRUNC:
      FOR r[i] = fui(truncf(F(a[i])));
      break;
   case TGSI_OP_ROUND:
      FOR r[i] = fui(nearbyintf(F(a[i])));
      break;
   case TGSI_OP_SSG:
      FOR r[i] = fui(F(a[i]) < 0.0f ? -1.0f : F(a[i]) > 0.0f ? 1.0f : 0.0f);
      break;
   case TGSI_OP_LDEXP:
      FOR r[i] = fui(ldexpf(F(a[i]), (int32_t)b[i]));
      break;
   default:
      return false;
   }
   return true;
}

/* Float compares, CMP, and float -> integer conversions. */
DC_LANES
static bool
comp_fcmp(enum tgsi_opcode op, unsigned n, uint32_t *r, uint32_t *rf, const uint32_t *const *s,
          const uint32_t *const *sf)
{
   const uint32_t *a = s[0], *b = s[1], *c = s[2];
   const uint32_t one = 0x3f800000u;
   switch (op) {
   case TGSI_OP_SLT:
      FOR r[i] = F(a[i]) < F(b[i]) ? one : 0;
      break;
   case TGSI_OP_SGE:
      FOR r[i] = F(a[i]) >= F(b[i]) ? one : 0;
      break;
   case TGSI_OP_SEQ:
      FOR r[i] = F(a[i]) == F(b[i]) ? one : 0;
      break;
   case TGSI_OP_SGT:
      FOR r[i] = F(a[i]) > F(b[i]) ? one : 0;
      break;
   case TGSI_OP_SLE:
      FOR r[i] = F(a[i]) <= F(b[i]) ? one : 0;
      break;
   case TGSI_OP_SNE:
      FOR r[i] = F(a[i]) != F(b[i]) ? one : 0;
      break;
   case TGSI_OP_FSLT:
      FOR r[i] = F(a[i]) < F(b[i]) ? ~0u : 0;
      break;
   case TGSI_OP_FSGE:
      FOR r[i] = F(a[i]) >= F(b[i]) ? ~0u : 0;
      break;
   case TGSI_OP_FSEQ:
      FOR r[i] = F(a[i]) == F(b[i]) ? ~0u : 0;
      break;
   case TGSI_OP_FSNE:
      FOR r[i] = F(a[i]) != F(b[i]) ? ~0u : 0;
      break;
   case TGSI_OP_SFL:
   case TGSI_OP_STR:
      /* Constants: the sources are not read. */
      FOR r[i] = op == TGSI_OP_STR ? one : 0;
      FOR rf[i] = 0;
      return true;
   case TGSI_OP_CMP:
      /* -0.0 and NaN select c. The selected operand's flags; an undefined
       * condition does not matter when both operands are the same bits. */
      FOR r[i] = F(a[i]) < 0.0f ? b[i] : c[i];
      FOR rf[i] = (sf[0][i] & ENV_F_UNDEF) && b[i] == c[i]
                      ? sf[1][i] | sf[2][i]
                      : sf[0][i] | fden(a[i]) | (F(a[i]) < 0.0f ? sf[1][i] : sf[2][i]);
      if (any_flags(n, sf[0]) & TI_INEXACT) /* tgsi_lane_edge needs an inexact class */
         FOR rf[i] |= tgsi_lane_edge(sf[0][i], F(a[i]), F(a[i]));
      return true;
   case TGSI_OP_UCMP:
      FOR r[i] = a[i] ? b[i] : c[i];
      FOR rf[i] = (sf[0][i] & ENV_F_UNDEF) && b[i] == c[i]
                      ? sf[1][i] | sf[2][i]
                      : sf[0][i] | (a[i] ? sf[1][i] : sf[2][i]);
      return true;
   case TGSI_OP_F2I:
      FOR r[i] = f2i_bits(F(a[i]));
      FOR rf[i] |= undef_if(!f2i_ok(F(a[i])));
      break;
   case TGSI_OP_F2U:
      FOR r[i] = f2u_bits(F(a[i]));
      FOR rf[i] |= undef_if(!f2u_ok(F(a[i])));
      break;
   case TGSI_OP_ARL:
      FOR r[i] = f2i_bits(floorf(F(a[i])));
      FOR rf[i] |= undef_if(!f2i_ok(floorf(F(a[i]))));
      break;
   case TGSI_OP_ARR:
      FOR r[i] = f2i_bits(floorf(F(a[i]) + 0.5f));
      FOR rf[i] |= undef_if(!f2i_ok(floorf(F(a[i]) + 0.5f)));
      break;
   default:
      return false;
   }
   /* A compare's result is 0 or 1 (~0): no tolerance class applies to it,
    * and none must turn its bits into ENV_F_BITS when a UIF reads them.
    * Where an inexact operand sits at the threshold the compare may still
    * flip; that risk was taken before the bits rule and is kept. */
   bool conv = op == TGSI_OP_F2I || op == TGSI_OP_F2U || op == TGSI_OP_ARL || op == TGSI_OP_ARR;
   bool inexact = any_flags(n, rf) & TI_INEXACT; /* else tgsi_lane_edge is 0 */
   if (inexact && conv)
      FOR rf[i] |= tgsi_lane_edge(rf[i], to_step(F(a[i]), op == TGSI_OP_ARR), F(a[i]));
   else if (inexact)
      FOR rf[i] |= tgsi_lane_edge(rf[i], (double)F(a[i]) - F(b[i]),
                                  tgsi_lane_mag_max(fabsf(F(a[i])), fabsf(F(b[i]))));
   if (!conv)
      FOR rf[i] &= ~(uint32_t)(ENV_F_INEXACT | ENV_F_ZSIGN);
   fpost(n, NULL, rf, s, tgsi_op_info[op].nsrc, 0);
   return true;
}

DC_LANES
static bool
comp_int_arith(enum tgsi_opcode op, unsigned n, uint32_t *r, uint32_t *rf, const uint32_t *const *s)
{
   const uint32_t *a = s[0], *b = s[1], *c = s[2];
   switch (op) {
   case TGSI_OP_UADD:
      FOR r[i] = a[i] + b[i];
      break;
   case TGSI_OP_UMUL:
      FOR r[i] = a[i] * b[i];
      break;
   case TGSI_OP_UMAD:
      FOR r[i] = a[i] * b[i] + c[i];
      break;
   case TGSI_OP_UMUL_HI:
      FOR r[i] = (uint32_t)(((uint64_t)a[i] * b[i]) >> 32);
      break;
   case TGSI_OP_IMUL_HI:
      FOR r[i] = (uint32_t)((uint64_t)((int64_t)(int32_t)a[i] * (int32_t)b[i]) >> 32);
      break;
   case TGSI_OP_UDIV:
      FOR r[i] = b[i] ? a[i] / b[i] : 0xffffffffu;
      break;
   case TGSI_OP_UMOD:
      FOR r[i] = b[i] ? a[i] % b[i] : 0xffffffffu;
      break;
   case TGSI_OP_IDIV:
      /* /0 gives 0 and INT_MIN/-1 gives INT_MIN, both undefined. */
      FOR
      {
         int32_t x = (int32_t)a[i], y = (int32_t)b[i];
         bool bad = y == 0 || (x == INT32_MIN && y == -1);
         r[i] = y == 0 ? 0 : bad ? 0x80000000u : (uint32_t)(x / y);
         rf[i] |= undef_if(bad);
      }
      break;
   case TGSI_OP_MOD:
      FOR
      {
         int32_t x = (int32_t)a[i], y = (int32_t)b[i];
         bool bad = y == 0 || (x == INT32_MIN && y == -1);
         r[i] = y == 0 ? 0xffffffffu : bad ? 0 : (uint32_t)(x % y);
         rf[i] |= undef_if(bad);
      }
      break;
   case TGSI_OP_INEG:
      FOR r[i] = 0u - a[i];
      break;
   case TGSI_OP_IABS:
      FOR r[i] = (a[i] & 0x80000000u) ? 0u - a[i] : a[i];
      break;
   case TGSI_OP_ISSG:
      FOR r[i] = (int32_t)a[i] < 0 ? 0xffffffffu : a[i] ? 1u : 0u;
      break;
   case TGSI_OP_IMAX:
      FOR r[i] = (int32_t)a[i] > (int32_t)b[i] ? a[i] : b[i];
      break;
   case TGSI_OP_IMIN:
      FOR r[i] = (int32_t)a[i] < (int32_t)b[i] ? a[i] : b[i];
      break;
   case TGSI_OP_UMAX:
      FOR r[i] = a[i] > b[i] ? a[i] : b[i];
      break;
   case TGSI_OP_UMIN:
      FOR r[i] = a[i] < b[i] ? a[i] : b[i];
      break;
   case TGSI_OP_ISLT:
      FOR r[i] = (int32_t)a[i] < (int32_t)b[i] ? ~0u : 0;
      break;
   case TGSI_OP_ISGE:
      FOR r[i] = (int32_t)a[i] >= (int32_t)b[i] ? ~0u : 0;
      break;
   case TGSI_OP_USLT:
      FOR r[i] = a[i] < b[i] ? ~0u : 0;
      break;
   case TGSI_OP_USGE:
      FOR r[i] = a[i] >= b[i] ? ~0u : 0;
      break;
   case TGSI_OP_USEQ:
      FOR r[i] = a[i] == b[i] ? ~0u : 0;
      break;
   case TGSI_OP_USNE:
      FOR r[i] = a[i] != b[i] ? ~0u : 0;
      break;
   default:
      return false;
   }
   return true;
}

DC_LANES
static bool
comp_int_bits(enum tgsi_opcode op, unsigned n, uint32_t *r, uint32_t *rf, const uint32_t *const *s)
{
   const uint32_t *a = s[0], *b = s[1], *c = s[2], *d = s[3];
   switch (op) {
   case TGSI_OP_AND:
      FOR r[i] = a[i] & b[i];
      break;
   case TGSI_OP_OR:
      FOR r[i] = a[i] | b[i];
      break;
   case TGSI_OP_XOR:
      FOR r[i] = a[i] ^ b[i];
      break;
   case TGSI_OP_NOT:
      FOR r[i] = ~a[i];
      break;
   case TGSI_OP_SHL:
      FOR r[i] = a[i] << (b[i] & 31);
      break;
   case TGSI_OP_USHR:
      FOR r[i] = a[i] >> (b[i] & 31);
      break;
   case TGSI_OP_ISHR:
      FOR r[i] = ishr(a[i], b[i]);
      break;
   case TGSI_OP_UARL:
      FOR r[i] = a[i];
      break;
   case TGSI_OP_IBFE:
      FOR
      {
         int64_t off = (int32_t)b[i], bits = (int32_t)c[i];
         r[i] = bfe(a[i], b[i], c[i], true);
         rf[i] |= undef_if(off < 0 || bits < 0 || off + bits > 32);
      }
      break;
   case TGSI_OP_UBFE:
      FOR
      {
         r[i] = bfe(a[i], b[i], c[i], false);
         rf[i] |= undef_if((uint64_t)b[i] + c[i] > 32);
      }
      break;
   case TGSI_OP_BFI:
      FOR
      {
         r[i] = bfi(a[i], b[i], c[i], d[i]);
         rf[i] |= undef_if((uint64_t)c[i] + d[i] > 32);
      }
      break;
   case TGSI_OP_BREV:
      FOR r[i] = bitrev(a[i]);
      break;
   case TGSI_OP_POPC:
      FOR r[i] = popcount(a[i]);
      break;
   case TGSI_OP_LSB:
      FOR r[i] = lsb(a[i]);
      break;
   case TGSI_OP_UMSB:
      FOR r[i] = msb(a[i]);
      break;
   case TGSI_OP_IMSB:
      FOR r[i] = msb((a[i] & 0x80000000u) ? ~a[i] : a[i]);
      break;
   case TGSI_OP_I2F:
      FOR
      {
         float f = (float)(int32_t)a[i];
         r[i] = fui(f);
         rf[i] |= (double)f != (double)(int32_t)a[i] ? ENV_F_ROUND : 0;
      }
      break;
   case TGSI_OP_U2F:
      FOR
      {
         float f = (float)a[i];
         r[i] = fui(f);
         rf[i] |= (double)f != (double)a[i] ? ENV_F_ROUND : 0;
      }
      break;
   default:
      return false;
   }
   return true;
}

static bool
is_plain_float(enum tgsi_opcode op)
{
   switch (op) {
   case TGSI_OP_ADD:
   case TGSI_OP_SUB:
   case TGSI_OP_MUL:
   case TGSI_OP_DIV:
   case TGSI_OP_MAD:
   case TGSI_OP_FMA:
   case TGSI_OP_LRP:
   case TGSI_OP_MIN:
   case TGSI_OP_MAX:
   case TGSI_OP_CLAMP:
   case TGSI_OP_FRC:
   case TGSI_OP_FLR:
   case TGSI_OP_CEIL:
   case TGSI_OP_TRUNC:
   case TGSI_OP_ROUND:
   case TGSI_OP_SSG:
      return true;
   default:
      return false;
   }
}

/* EDGE for an approximated result (RCP, RSQ, EX2, LG2, POW, SIN...) within
 * its tolerance (2^-12 relative, and a little more) of the float range's
 * end, or infinite: an implementation may round it across, to infinity
 * (POW as EX2(LG2(x) * y) of x near FLT_MAX) or back to a finite value,
 * and what follows (0 * inf, inf - x) then differs without bound. An
 * infinity from an operand that is an exact zero or infinity (RCP(0),
 * LG2(0), EX2(inf), POW(0, -1)) is a pole every implementation meets
 * exactly: no EDGE. */
static inline uint32_t
near_overflow(uint32_t r, uint32_t cls, uint32_t a, uint32_t b)
{
   /* branch-free, so that exec_repl's loop vectorizes */
   uint32_t m = r & 0x7fffffffu, ma = a & 0x7fffffffu, mb = b & 0x7fffffffu;
   bool near = ((cls & (ENV_F_TRANS | ENV_F_RCP)) != 0) & (m >= 0x7f7ff000u) & (m <= 0x7f800000u);
   bool pole = (ma == 0) | (ma == 0x7f800000u) | (mb == 0) | (mb == 0x7f800000u);
   return (uint32_t)(near & !((m == 0x7f800000u) & pole)) * ENV_F_EDGE;
}

static uint32_t
op_class(enum tgsi_opcode op)
{
   switch (op) {
   case TGSI_OP_MAD:
   case TGSI_OP_DP2:
   case TGSI_OP_DP3:
   case TGSI_OP_DP4:
   case TGSI_OP_DPH:
   case TGSI_OP_XPD:
      return ENV_F_FUSE;
   case TGSI_OP_LRP:
      return ENV_F_FUSE | ENV_F_LRP;
   case TGSI_OP_DIV:
   case TGSI_OP_RCP:
   case TGSI_OP_RSQ:
   case TGSI_OP_SQRT:
      return ENV_F_RCP;
   case TGSI_OP_NRM:
   case TGSI_OP_NRM4:
      return ENV_F_RCP | ENV_F_FUSE;
   /* A normalized unpack is a division of the field by 2^n - 1 (GLSL's
    * unpackUnorm4x8 is f / 255.0), which compilers make a product with the
    * reciprocal, as for DIV by a constant: a division's class, so the
    * error is carried through the arithmetic after it (an ulp of the
    * quotient is two of a sum a binade below). */
   case TGSI_OP_UP2US:
   case TGSI_OP_UP4B:
   case TGSI_OP_UP4UB:
      return ENV_F_RCP;
   case TGSI_OP_SIN:
   case TGSI_OP_COS:
   case TGSI_OP_SCS:
   case TGSI_OP_EX2:
   case TGSI_OP_LG2:
   case TGSI_OP_POW:
   case TGSI_OP_EXP:
   case TGSI_OP_LOG:
   case TGSI_OP_LIT:
      return ENV_F_TRANS;
   case TGSI_OP_PK2H:
      return ENV_F_PK16; /* PK2US, PK4B, PK4UB: ROUND at ties only (pack_tie) */
   default:
      return 0;
   }
}

/* An operand equal to z decides the result of op; 0 if op has none. */
static bool
absorbing(enum tgsi_opcode op, uint32_t *z)
{
   switch (op) {
   case TGSI_OP_AND:
   case TGSI_OP_UMUL:
   case TGSI_OP_UMUL_HI:
   case TGSI_OP_IMUL_HI:
   case TGSI_OP_UMAD:
   case TGSI_OP_UMIN:
      *z = 0;
      return true;
   case TGSI_OP_OR:
   case TGSI_OP_UMAX:
      *z = ~0u;
      return true;
   case TGSI_OP_IMIN:
      *z = 0x80000000u;
      return true;
   case TGSI_OP_IMAX:
      *z = 0x7fffffffu;
      return true;
   default:
      return false;
   }
}

/* A defined operand (of the first two) equal to the absorbing element
 * decides the result: the other operand's flags do not reach it. UMAD's
 * addend still does. */
DC_LANES
static void
absorb_flags(enum tgsi_opcode op, unsigned n, uint32_t *rf, const uint32_t *const *s,
             const uint32_t *const *sf, const uint32_t *zero)
{
   uint32_t z;
   /* nothing to drop where every operand's flags are the zero array:
    * the union is 0, and so is what an absorbing operand keeps */
   bool none = sf[0] == zero && sf[1] == zero && (op != TGSI_OP_UMAD || sf[2] == zero);
   if (none || !absorbing(op, &z))
      return;
   const uint32_t *a = s[0], *b = s[1], *af = sf[0], *bf = sf[1], *cf = sf[2];
   uint32_t cm = op == TGSI_OP_UMAD ? ~0u : 0;
   FOR
   {
      bool ka = a[i] == z && !(af[i] & ENV_F_UNDEF), kb = b[i] == z && !(bf[i] & ENV_F_UNDEF);
      uint32_t keep = (ka ? af[i] : bf[i]) | (cf[i] & cm);
      rf[i] = ka || kb ? keep : rf[i];
   }
}

/* One component-wise channel: r = op(s...). */
DC_LANES
static bool
comp_kernel(enum tgsi_opcode op, unsigned n, uint32_t *r, uint32_t *rf, const uint32_t *const *s,
            const uint32_t *const *sf, unsigned ns, const uint32_t *zero)
{
   if (op == TGSI_OP_MOV || op == TGSI_OP_ABS) {
      /* Bit copies: NaN payloads survive. memcpy's is fewer instructions
       * than GCC's loop (its alignment peeling). */
      if (op == TGSI_OP_ABS)
         FOR r[i] = s[0][i] & 0x7fffffffu;
      else
         memcpy(r, s[0], (size_t)n * 4);
      memcpy(rf, sf[0], (size_t)n * 4);
      return true;
   }
   /* One float, not two packed halves: no PK16. PRODUCT marks a MUL's
    * own product for the ADD or SUB that takes it; every other op drops
    * it here (no flag test below reads it). */
   bool addsub = op == TGSI_OP_ADD || op == TGSI_OP_SUB;
   uint32_t keep = ~(uint32_t)ENV_F_PK16 & (addsub ? ~0u : ~(uint32_t)ENV_F_PRODUCT);
   uint32_t cls = op == TGSI_OP_MAD ? 0 : op_class(op);
   bool one_pass = farith(op, n, r, rf, s, sf, cls, keep);
   if (one_pass || comp_float(op, n, r, s)) {
      if (!one_pass)
         fflags(n, r, rf, s, sf, ns, cls, keep);
      const uint32_t *a = s[0], *b = s[1];
      if (addsub) {
         /* a MUL then an ADD: fused or not; then CANCEL (fextra's), and
          * PRODUCT is used up: one pass, which changes nothing where no
          * lane has PRODUCT or an inexact class */
         if (!(any_flags(n, rf) & (ENV_F_PRODUCT | TI_INEXACT)))
            return true;
         FOR
         {
            uint32_t f = rf[i] | (rf[i] & ENV_F_PRODUCT ? ENV_F_FUSE : 0);
            float x = fabsf(F(a[i])), y = fabsf(F(b[i]));
            float big = x > y ? x : y; /* tgsi_lane_mag_max's, in float */
            f = tgsi_lane_cancel_f(f, F(r[i]), y != y ? x : big);
            rf[i] = f & ~(uint32_t)ENV_F_PRODUCT;
         }
         return true;
      }
      if (op == TGSI_OP_MUL) { /* no fextra; PRODUCT marks this product alone */
         FOR rf[i] |= tgsi_lane_product_rounds(F(a[i]), F(b[i]), F(r[i])) ? ENV_F_PRODUCT : 0;
         return true;
      }
      if (op == TGSI_OP_MAD)
         mad_flags(n, rf, r, s[0], s[1], s[2]);
      else
         fextra(op, n, rf, s, r);
      return true;
   }
   merge_flags(n, rf, sf, ns, zero);
   if (comp_fcmp(op, n, r, rf, s, sf)) {
      FOR rf[i] &= ~(uint32_t)ENV_F_PK16; /* a truth value */
      return true;
   }
   if (!comp_int_arith(op, n, r, rf, s) && !comp_int_bits(op, n, r, rf, s))
      return false;
   absorb_flags(op, n, rf, s, sf, zero);
   return true;
}

static int
exec_comp(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti)
{
   unsigned ns = tgsi_op_info[ti->op].nsrc, mask = ti->dst.mask;
   const uint32_t *s[TGSI_MAX_SRC] = {0}, *sf[TGSI_MAX_SRC] = {0};
   for (unsigned c = 0; c < 4; c++) {
      if (!(mask & (1u << c)))
         continue;
      for (unsigned k = 0; k < ns; k++)
         tgsi_interp_fetch(b, ti, k, c, &s[k], &sf[k]);
      for (unsigned k = ns; k < TGSI_MAX_SRC; k++)
         s[k] = sf[k] = b->zero;
      if (!comp_kernel(ti->op, b->n, b->res_v[c], b->res_f[c], s, sf, ns, b->zero))
         return -1;
      if (b->bounds)
         tgsi_interp_bound_comp(ti->op, b->bound_fuse, b->n, b->res_v[c], b->res_f[c], s, sf);
   }
   return (int)mask;
}

/* ------------------------------------------------------------------ */
/* REPL: one value from the .x (after swizzle) of the sources            */

DC_LANES
static void
repl_math(enum tgsi_opcode op, unsigned n, uint32_t *r, uint32_t *rf, const uint32_t *a,
          const uint32_t *b)
{
   switch (op) {
   case TGSI_OP_RCP:
      FOR r[i] = fui(1.0f / F(a[i]));
      FOR rf[i] |= zsign_pole(rf[i], a[i]);
      break;
   case TGSI_OP_RSQ:
      FOR r[i] = fui(1.0f / sqrtf(F(a[i])));
      FOR rf[i] |= undef_if(F(a[i]) <= 0.0f);
      break;
   case TGSI_OP_SQRT:
      FOR r[i] = fui(sqrtf(F(a[i])));
      FOR rf[i] |= undef_if(F(a[i]) < 0.0f);
      break;
   case TGSI_OP_EX2: /* condition number |x ln 2| */
      FOR r[i] = fui(trans(exp2((double)F(a[i]))));
      FOR rf[i] = undef_if(F(a[i]) >= 128.0f) | magnify(rf[i], fabs(F(a[i]) * 0.6931471805599453));
      break;
   case TGSI_OP_LG2: /* 1 / |ln x| */
      FOR r[i] = fui(trans(log2((double)F(a[i]))));
      FOR rf[i] = undef_if(F(a[i]) <= 0.0f) | magnify(rf[i], 1.0 / fabs(log((double)F(a[i]))));
      break;
   case TGSI_OP_POW: /* |b| in a, |b ln a| in b */
      FOR r[i] = fui(trans(pow((double)F(a[i]), (double)F(b[i]))));
      FOR rf[i] =
          undef_if(F(a[i]) < 0.0f || (F(a[i]) == 0.0f && F(b[i]) <= 0.0f)) |
          magnify(rf[i], fmax(fabs((double)F(b[i])), fabs(F(b[i]) * log(fabs((double)F(a[i]))))));
      break;
   case TGSI_OP_SIN: /* |x cos x / sin x| */
      FOR r[i] = fui(trans(sin((double)F(a[i]))));
      FOR rf[i] = magnify(rf[i], F(a[i]) == 0.0f ? 1.0 : fabs(F(a[i]) / tan((double)F(a[i]))));
      break;
   case TGSI_OP_COS: /* |x tan x| */
      FOR r[i] = fui(trans(cos((double)F(a[i]))));
      FOR rf[i] = magnify(rf[i], fabs(F(a[i]) * tan((double)F(a[i]))));
      break;
   default:
      break;
   }
}

/* FUSE and CANCEL of DP2/DP3/DP4/DPH (h: the fourth term is b.w alone).
 * Inline with constant nch and h, so the lane loop vectorizes. */
static TI_INLINE void
dp_flags(unsigned n, unsigned nch, bool h, uint32_t *rf, const uint32_t *r,
         const uint32_t *const *a, const uint32_t *const *bb)
{
   const uint32_t *x0 = a[0], *x1 = a[1], *x2 = nch > 2 ? a[2] : NULL;
   const uint32_t *x3 = nch > 3 ? (h ? bb[3] : a[3]) : NULL;
   const uint32_t *y0 = bb[0], *y1 = bb[1], *y2 = nch > 2 ? bb[2] : NULL;
   const uint32_t *y3 = nch > 3 && !h ? bb[3] : NULL;
   FOR
   {
      float xa = F(x0[i]), ya = F(y0[i]), xb = F(x1[i]), yb = F(y1[i]);
      float xc = nch > 2 ? F(x2[i]) : 0.0f, yc = nch > 2 ? F(y2[i]) : 0.0f;
      float xd = nch > 3 ? F(x3[i]) : 0.0f, yd = nch > 3 ? (h ? 1.0f : F(y3[i])) : 0.0f;
      struct tgsi_lane_sum sum = tgsi_lane_sum_start(0.0f);
      sum = tgsi_lane_sum_product(sum, xa, ya);
      sum = tgsi_lane_sum_product(sum, xb, yb);
      if (nch > 2)
         sum = tgsi_lane_sum_product(sum, xc, yc);
      if (nch > 3)
         sum = tgsi_lane_sum_product(sum, xd, yd);
      uint32_t f = rf[i] | (tgsi_lane_sum_end(sum) ? 0 : ENV_F_FUSE);
      rf[i] = tgsi_lane_cancel_m(f, F(r[i]), sum.m);
   }
}

/* The operands' flags and DENORM of the nch channels of one or two
 * sources, in one pass (constant nch and two: the loop vectorizes). */
static TI_INLINE void
repl_merge_n(unsigned n, unsigned nch, bool two, uint32_t *restrict rf, const uint32_t *const *a,
             const uint32_t *const *af, const uint32_t *const *bb, const uint32_t *const *bf)
{
   const uint32_t *a0 = a[0], *a1 = a[nch > 1], *a2 = a[nch > 2 ? 2 : 0], *a3 = a[nch > 3 ? 3 : 0];
   const uint32_t *f0 = af[0], *f1 = af[nch > 1], *f2 = af[nch > 2 ? 2 : 0];
   const uint32_t *f3 = af[nch > 3 ? 3 : 0];
   const uint32_t *b0 = two ? bb[0] : a0, *b1 = two ? bb[nch > 1] : a0;
   const uint32_t *b2 = two ? bb[nch > 2 ? 2 : 0] : a0, *b3 = two ? bb[nch > 3 ? 3 : 0] : a0;
   const uint32_t *g0 = two ? bf[0] : f0, *g1 = two ? bf[nch > 1] : f0;
   const uint32_t *g2 = two ? bf[nch > 2 ? 2 : 0] : f0, *g3 = two ? bf[nch > 3 ? 3 : 0] : f0;
   FOR
   {
      /* DENORM: one compare of the smallest fden_key (fflags) */
      uint32_t f = f0[i], k = fden_key(a0[i]);
      if (nch > 1)
         f |= f1[i], k = min_u32(k, fden_key(a1[i]));
      if (nch > 2)
         f |= f2[i], k = min_u32(k, fden_key(a2[i]));
      if (nch > 3)
         f |= f3[i], k = min_u32(k, fden_key(a3[i]));
      if (two) {
         f |= g0[i], k = min_u32(k, fden_key(b0[i]));
         if (nch > 1)
            f |= g1[i], k = min_u32(k, fden_key(b1[i]));
         if (nch > 2)
            f |= g2[i], k = min_u32(k, fden_key(b2[i]));
         if (nch > 3)
            f |= g3[i], k = min_u32(k, fden_key(b3[i]));
      }
      f |= (uint32_t)(k < 0x007fffffu) * ENV_F_DENORM;
      rf[i] = f;
   }
}

DC_LANES
static void
repl_merge(unsigned n, unsigned nch, bool two, uint32_t *restrict rf, const uint32_t *const *a,
           const uint32_t *const *af, const uint32_t *const *bb, const uint32_t *const *bf)
{
   switch (nch * 2 + two) {
   case 2:
      repl_merge_n(n, 1, false, rf, a, af, bb, bf);
      break;
   case 3:
      repl_merge_n(n, 1, true, rf, a, af, bb, bf);
      break;
   case 4:
      repl_merge_n(n, 2, false, rf, a, af, bb, bf);
      break;
   case 5:
      repl_merge_n(n, 2, true, rf, a, af, bb, bf);
      break;
   case 6:
      repl_merge_n(n, 3, false, rf, a, af, bb, bf);
      break;
   case 7:
      repl_merge_n(n, 3, true, rf, a, af, bb, bf);
      break;
   case 8:
      repl_merge_n(n, 4, false, rf, a, af, bb, bf);
      break;
   default:
      repl_merge_n(n, 4, true, rf, a, af, bb, bf);
      break;
   }
}

DC_LANES
static int
exec_repl(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti)
{
   unsigned n = b->n, mask = ti->dst.mask;
   enum tgsi_opcode op = ti->op;
   int first = -1;
   for (unsigned c = 0; c < 4 && first < 0; c++)
      if (mask & (1u << c))
         first = (int)c;
   if (first < 0)
      return 0;
   uint32_t *r = b->res_v[first], *rf = b->res_f[first];
   const uint32_t *a[4], *af[4], *bb[4], *bf[4];
   unsigned ns = tgsi_op_info[op].nsrc;
   unsigned nch = op == TGSI_OP_DP2                           ? 2
                  : op == TGSI_OP_DP3                         ? 3
                  : op == TGSI_OP_DP4                         ? 4
                  : op == TGSI_OP_DPH                         ? 4
                  : op == TGSI_OP_PK4B || op == TGSI_OP_PK4UB ? 4
                  : op == TGSI_OP_PK2H || op == TGSI_OP_PK2US ? 2
                                                              : 1;
   for (unsigned c = 0; c < nch; c++) {
      tgsi_interp_fetch(b, ti, 0, c, &a[c], &af[c]);
      if (ns > 1)
         tgsi_interp_fetch(b, ti, 1, c, &bb[c], &bf[c]);
   }
   if (ns > 1)
      repl_merge(n, nch, true, rf, a, af, bb, bf);
   else
      repl_merge(n, nch, false, rf, a, af, bb, bf);
   switch (op) {
   case TGSI_OP_DP2:
      FOR r[i] = fui(F(a[0][i]) * F(bb[0][i]) + F(a[1][i]) * F(bb[1][i]));
      break;
   case TGSI_OP_DP3:
      FOR r[i] =
          fui((F(a[0][i]) * F(bb[0][i]) + F(a[1][i]) * F(bb[1][i])) + F(a[2][i]) * F(bb[2][i]));
      break;
   case TGSI_OP_DP4:
      FOR r[i] =
          fui(((F(a[0][i]) * F(bb[0][i]) + F(a[1][i]) * F(bb[1][i])) + F(a[2][i]) * F(bb[2][i])) +
              F(a[3][i]) * F(bb[3][i]));
      break;
   case TGSI_OP_DPH:
      FOR r[i] =
          fui(((F(a[0][i]) * F(bb[0][i]) + F(a[1][i]) * F(bb[1][i])) + F(a[2][i]) * F(bb[2][i])) +
              F(bb[3][i]));
      break;
   case TGSI_OP_PK2H:
      FOR r[i] = tgsi_interp_f32_to_f16(a[0][i]) | (uint32_t)tgsi_interp_f32_to_f16(a[1][i]) << 16;
      break;
   case TGSI_OP_PK2US:
      FOR r[i] = f_to_unorm(F(a[0][i]), 65535.0f) | f_to_unorm(F(a[1][i]), 65535.0f) << 16;
      for (unsigned c = 0; c < 2; c++)
         FOR rf[i] |= pack_tie(F(a[c][i]), rf[i], 65535.0f, 0.0f);
      break;
   case TGSI_OP_PK4UB:
      FOR r[i] = f_to_unorm(F(a[0][i]), 255.0f) | f_to_unorm(F(a[1][i]), 255.0f) << 8 |
                 f_to_unorm(F(a[2][i]), 255.0f) << 16 | f_to_unorm(F(a[3][i]), 255.0f) << 24;
      for (unsigned c = 0; c < 4; c++)
         FOR rf[i] |= pack_tie(F(a[c][i]), rf[i], 255.0f, 0.0f);
      break;
   case TGSI_OP_PK4B:
      FOR r[i] = f_to_snorm8(F(a[0][i])) | f_to_snorm8(F(a[1][i])) << 8 |
                 f_to_snorm8(F(a[2][i])) << 16 | f_to_snorm8(F(a[3][i])) << 24;
      for (unsigned c = 0; c < 4; c++)
         FOR rf[i] |= pack_tie(F(a[c][i]), rf[i], 127.0f, -1.0f);
      break;
   default:
      repl_math(op, n, r, rf, a[0], ns > 1 ? bb[0] : NULL);
      break;
   }
   bool packs =
       op == TGSI_OP_PK2H || op == TGSI_OP_PK2US || op == TGSI_OP_PK4B || op == TGSI_OP_PK4UB;
   if (!packs)
      canon(n, r, rf);
   if (op == TGSI_OP_DP2)
      dp_flags(n, 2, false, rf, r, a, bb);
   else if (op == TGSI_OP_DP3)
      dp_flags(n, 3, false, rf, r, a, bb);
   else if (op == TGSI_OP_DP4) /* h constant in each call: the loop vectorizes */
      dp_flags(n, 4, false, rf, r, a, bb);
   else if (op == TGSI_OP_DPH)
      dp_flags(n, 4, true, rf, r, a, bb);
   else {
      uint32_t cls = op_class(op);
      const uint32_t *a1 = ns > 1 ? bb[0] : a[0];
      FOR rf[i] |= cls | near_overflow(r[i], cls, a[0][i], a1[i]);
   }
   if (b->bounds)
      tgsi_interp_bound_repl(op, b->bound_fuse, n, r, rf, nch, a, af, bb, bf);
   for (unsigned c = (unsigned)first + 1; c < 4; c++) {
      if (mask & (1u << c)) {
         memcpy(b->res_v[c], r, n * 4);
         memcpy(b->res_f[c], rf, n * 4);
      }
   }
   return (int)mask;
}

/* ------------------------------------------------------------------ */
/* CHAN: a formula per destination channel                              */

DC_LANES
static void
set_const(unsigned n, uint32_t *r, uint32_t *rf, uint32_t v, const uint32_t *f)
{
   FOR r[i] = v;
   FOR rf[i] = f ? f[i] : 0;
}

DC_LANES
static void
exec_lit(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, unsigned mask)
{
   unsigned n = b->n;
   const uint32_t *x, *y, *w, *xf, *yf, *wf;
   tgsi_interp_fetch(b, ti, 0, 0, &x, &xf);
   tgsi_interp_fetch(b, ti, 0, 1, &y, &yf);
   tgsi_interp_fetch(b, ti, 0, 3, &w, &wf);
   set_const(n, b->res_v[0], b->res_f[0], 0x3f800000u, NULL);
   set_const(n, b->res_v[3], b->res_f[3], 0x3f800000u, NULL);
   uint32_t *r = b->res_v[1], *rf = b->res_f[1];
   FOR r[i] = fui(max_nan(F(x[i]), 0.0f));
   FOR rf[i] = xf[i] | fden(x[i]) | zsign(x[i], 0); /* MAX(-0, 0): either zero */
   if (!(mask & 4))
      return;
   r = b->res_v[2];
   rf = b->res_f[2];
   FOR
   {
      float base = max_nan(F(y[i]), 0.0f);
      float e = F(w[i]);
      /* NaN stays NaN; clamping NaN to [-128, 128] is undefined (a
       * max/min clamp gives -128, a compare-and-select clamp NaN) */
      e = e < -128.0f ? -128.0f : e > 128.0f ? 128.0f : e;
      bool on = F(x[i]) > 0.0f;
      r[i] = on ? fui(trans(pow((double)base, (double)e))) : 0;
      rf[i] = xf[i] | fden(x[i]) |
              (on ? yf[i] | wf[i] | fden(y[i]) | fden(w[i]) | zsign(y[i], 0) | ENV_F_TRANS |
                        undef_if((base == 0.0f && e < 0.0f) || e != e)
                  : 0);
   }
   canon(n, r, rf);
}

DC_LANES
static void
exec_exp_log(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti)
{
   unsigned n = b->n;
   const uint32_t *x, *xf;
   tgsi_interp_fetch(b, ti, 0, 0, &x, &xf);
   uint32_t *r0 = b->res_v[0], *r1 = b->res_v[1], *r2 = b->res_v[2];
   if (ti->op == TGSI_OP_EXP) {
      FOR
      {
         float f = F(x[i]), fl = floorf(f);
         r0[i] = fui(trans(exp2((double)fl)));
         r1[i] = fui(f - fl);
         r2[i] = fui(trans(exp2((double)f)));
      }
      FOR b->res_f[0][i] = xf[i] | fden(x[i]) | ENV_F_TRANS | undef_if(F(x[i]) >= 128.0f);
      FOR b->res_f[1][i] = xf[i] | fden(x[i]);
      FOR b->res_f[2][i] = xf[i] | fden(x[i]) | ENV_F_TRANS | undef_if(F(x[i]) >= 128.0f);
   } else {
      FOR
      {
         double a = fabs((double)F(x[i]));
         float lg = trans(log2(a)), fl = floorf(lg);
         r0[i] = fui(fl);
         r1[i] = fui((float)a / trans(exp2((double)fl)));
         r2[i] = fui(lg);
      }
      for (unsigned c = 0; c < 3; c++)
         FOR b->res_f[c][i] = xf[i] | fden(x[i]) | ENV_F_TRANS | undef_if(F(x[i]) == 0.0f);
   }
   for (unsigned c = 0; c < 3; c++)
      canon(n, b->res_v[c], b->res_f[c]);
   set_const(n, b->res_v[3], b->res_f[3], 0x3f800000u, NULL);
}

DC_LANES
static void
exec_dst_xpd(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti)
{
   unsigned n = b->n;
   const uint32_t *a[4], *af[4], *c[4], *cf[4];
   for (unsigned k = 0; k < 4; k++) {
      tgsi_interp_fetch(b, ti, 0, k, &a[k], &af[k]);
      tgsi_interp_fetch(b, ti, 1, k, &c[k], &cf[k]);
   }
   if (ti->op == TGSI_OP_DST) {
      set_const(n, b->res_v[0], b->res_f[0], 0x3f800000u, NULL);
      FOR b->res_v[1][i] = fui(F(a[1][i]) * F(c[1][i]));
      FOR b->res_f[1][i] = af[1][i] | cf[1][i] | fden(a[1][i]) | fden(c[1][i]);
      canon(n, b->res_v[1], b->res_f[1]);
      set_const(n, b->res_v[2], b->res_f[2], 0, af[2]);
      FOR b->res_v[2][i] = a[2][i];
      set_const(n, b->res_v[3], b->res_f[3], 0, cf[3]);
      FOR b->res_v[3][i] = c[3][i];
      return;
   }
   /* XPD: a.yzx * b.zxy - a.zxy * b.yzx, w = 1. */
   static const unsigned p[3] = {1, 2, 0}, q[3] = {2, 0, 1};
   for (unsigned k = 0; k < 3; k++) {
      uint32_t *r = b->res_v[k], *rf = b->res_f[k];
      const uint32_t *a1 = a[p[k]], *b1 = c[q[k]], *a2 = a[q[k]], *b2 = c[p[k]];
      FOR r[i] = fui(F(a1[i]) * F(b1[i]) - F(a2[i]) * F(b2[i]));
      FOR rf[i] = af[p[k]][i] | cf[q[k]][i] | af[q[k]][i] | cf[p[k]][i] | fden(a1[i]) |
                  fden(b1[i]) | fden(a2[i]) | fden(b2[i]) | ENV_F_FUSE;
      /* a difference of products: CANCEL as MAD's (a1*b1 + -(a2*b2)) */
      FOR rf[i] = tgsi_lane_cancel(
          rf[i], F(r[i]),
          tgsi_lane_mag_max(fabs((double)F(a1[i]) * F(b1[i])), fabs((double)F(a2[i]) * F(b2[i]))));
      canon(n, r, rf);
   }
   set_const(n, b->res_v[3], b->res_f[3], 0x3f800000u, NULL);
}

/* NRM (xyz, w = 1) and NRM4: src * rsq(dot(src, src)). */
DC_LANES
static void
exec_nrm(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti)
{
   unsigned n = b->n, k = ti->op == TGSI_OP_NRM ? 3 : 4;
   const uint32_t *a[4], *af[4];
   for (unsigned c = 0; c < k; c++)
      tgsi_interp_fetch(b, ti, 0, c, &a[c], &af[c]);
   uint32_t *len = b->scratch[0], *lf = b->scratch[1];
   FOR
   {
      float d = F(a[0][i]) * F(a[0][i]) + F(a[1][i]) * F(a[1][i]);
      d = d + F(a[2][i]) * F(a[2][i]);
      if (k == 4)
         d = d + F(a[3][i]) * F(a[3][i]);
      len[i] = fui(1.0f / sqrtf(d));
      lf[i] = undef_if(!(d > 0.0f));
   }
   for (unsigned c = 0; c < k; c++)
      FOR lf[i] |= af[c][i] | fden(a[c][i]);
   uint32_t cls = op_class(ti->op);
   for (unsigned c = 0; c < k; c++) {
      FOR b->res_v[c][i] = fui(F(a[c][i]) * F(len[i]));
      FOR b->res_f[c][i] = lf[i] | cls;
      canon(n, b->res_v[c], b->res_f[c]);
   }
   if (k == 3)
      set_const(n, b->res_v[3], b->res_f[3], 0x3f800000u, NULL);
}

DC_LANES
static void
exec_unpack(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti)
{
   unsigned n = b->n;
   const uint32_t *x, *xf;
   tgsi_interp_fetch(b, ti, 0, 0, &x, &xf);
   uint32_t cls = op_class(ti->op);
   for (unsigned c = 0; c < 4; c++) {
      uint32_t *r = b->res_v[c];
      switch (ti->op) {
      case TGSI_OP_UP2H:
         FOR r[i] = tgsi_interp_f16_to_f32((uint16_t)(x[i] >> (c & 1 ? 16 : 0)));
         break;
      case TGSI_OP_UP2US:
         FOR r[i] = fui((float)((x[i] >> (c & 1 ? 16 : 0)) & 0xffff) / 65535.0f);
         break;
      case TGSI_OP_UP4UB:
         FOR r[i] = fui((float)((x[i] >> (8 * c)) & 0xff) / 255.0f);
         break;
      default: /* UP4B */
         FOR r[i] = fui(snorm8_to_f(x[i] >> (8 * c)));
         break;
      }
      FOR b->res_f[c][i] = (xf[i] & ~(uint32_t)ENV_F_PK16) | cls;
      if (ti->op == TGSI_OP_UP2H)
         canon(n, r, b->res_f[c]);
   }
}

DC_LANES
static void
exec_scs(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti)
{
   unsigned n = b->n;
   const uint32_t *x, *xf;
   tgsi_interp_fetch(b, ti, 0, 0, &x, &xf);
   FOR b->res_v[0][i] = fui(trans(cos((double)F(x[i]))));
   FOR b->res_v[1][i] = fui(trans(sin((double)F(x[i]))));
   for (unsigned c = 0; c < 2; c++) {
      FOR b->res_f[c][i] = xf[i] | fden(x[i]) | ENV_F_TRANS;
      if (b->bounds) /* the bound of COS and of SIN, with the argument's */
         tgsi_interp_bound_repl(c ? TGSI_OP_SIN : TGSI_OP_COS, b->bound_fuse, n, b->res_v[c],
                                b->res_f[c], 1, &x, &xf, &x, &xf);
      canon(n, b->res_v[c], b->res_f[c]);
   }
   set_const(n, b->res_v[2], b->res_f[2], 0, NULL);
   set_const(n, b->res_v[3], b->res_f[3], 0x3f800000u, NULL);
}

int
tgsi_interp_exec_alu(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti)
{
   unsigned mask = ti->dst.mask;
   switch (ti->op) {
   case TGSI_OP_RCP:
   case TGSI_OP_RSQ:
   case TGSI_OP_SQRT:
   case TGSI_OP_EX2:
   case TGSI_OP_LG2:
   case TGSI_OP_POW:
   case TGSI_OP_SIN:
   case TGSI_OP_COS:
   case TGSI_OP_DP2:
   case TGSI_OP_DP3:
   case TGSI_OP_DP4:
   case TGSI_OP_DPH:
   case TGSI_OP_PK2H:
   case TGSI_OP_PK2US:
   case TGSI_OP_PK4B:
   case TGSI_OP_PK4UB:
      return exec_repl(b, ti);
   case TGSI_OP_LIT:
      exec_lit(b, ti, mask);
      return (int)mask;
   case TGSI_OP_EXP:
   case TGSI_OP_LOG:
      exec_exp_log(b, ti);
      return (int)mask;
   case TGSI_OP_DST:
   case TGSI_OP_XPD:
      exec_dst_xpd(b, ti);
      return (int)mask;
   case TGSI_OP_NRM:
   case TGSI_OP_NRM4:
      exec_nrm(b, ti);
      return (int)mask;
   case TGSI_OP_UP2H:
   case TGSI_OP_UP2US:
   case TGSI_OP_UP4B:
   case TGSI_OP_UP4UB:
      exec_unpack(b, ti);
      return (int)mask;
   case TGSI_OP_SCS:
      exec_scs(b, ti);
      return (int)mask;
   default:
      if (!is_plain_float(ti->op) && tgsi_op_info[ti->op].flags & TGSI_OPF_OTHR)
         return -1;
      return exec_comp(b, ti);
   }
}
