/*
 * Per-op semantics, written once: small static inline functions on 32-bit
 * lane values (raw bits in, raw bits out). The emulator runs them in per-lane
 * loops, the optimizing compiler's constant folder calls the same functions,
 * so the two can never disagree. The ISA_SEMS table in isa.h names them for
 * the YAML models (`sem: fadd`); sem_eval() dispatches on that enum.
 *
 * The functions are branch-light (selects, no loops, no calls except to
 * correctly rounded libm functions for the SFU ops) and free of undefined
 * behaviour for every input: shifts are masked, signed arithmetic wraps
 * through unsigned, float-to-int conversions clamp before they convert.
 *
 * Exact float behaviour, chosen once for every model (the hardware
 * documents none of it publicly; where it differs from TGSI the tests say
 * so):
 *  - arithmetic is IEEE single precision, round to nearest even, denormals
 *    kept (sem_ftz() flushes, for models or modes that flush);
 *  - every NaN result is the canonical quiet NaN 0x7fc00000, so results
 *    are the same on every host;
 *  - fmad rounds the product, then the sum (two roundings); ffma rounds once;
 *  - fmin/fmax return the other operand when one is NaN (IEEE minNum) and
 *    order -0 below +0;
 *  - rcp is 1/x and sqrt is sqrtf (both correctly rounded); rsq is
 *    1/sqrtf(x) (two roundings, as TGSI computes it); log2, exp2, sin and
 *    cos are the double-precision libm result rounded to single;
 *  - compares are IEEE: ordered for lt/le/gt/ge/eq (false on NaN), ne is
 *    true on NaN; they return 1 or 0;
 *  - float -> int conversions saturate (NaN -> 0); int -> float rounds to
 *    nearest even;
 *  - shift counts are taken modulo 32.
 */
#ifndef DC_SEM_H
#define DC_SEM_H

#include "isa/isa.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF /* a*b + c must round twice in sem_fmad */
#endif

/* Abstract compare conditions; models map their cond enums by name. */
enum sem_cond {
   SEM_LT,
   SEM_LE,
   SEM_GT,
   SEM_GE,
   SEM_EQ,
   SEM_NE,
   SEM_COND_COUNT,
};

#define SEM_CANON_NAN 0x7fc00000u

static inline float
sem_f(uint32_t u)
{
   float f;
   memcpy(&f, &u, 4);
   return f;
}

static inline uint32_t
sem_u(float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

static inline int
sem_isnan(uint32_t u)
{
   return (u & 0x7fffffffu) > 0x7f800000u;
}

/* Canonicalizes NaN results. */
static inline uint32_t
sem_fres(float f)
{
   uint32_t u = sem_u(f);
   return sem_isnan(u) ? SEM_CANON_NAN : u;
}

/* Denormal -> zero of the same sign. */
static inline uint32_t
sem_ftz(uint32_t u)
{
   return (u & 0x7f800000u) ? u : (u & 0x80000000u);
}

/* ---- source modifiers and saturation ------------------------------- */

static inline uint32_t
sem_fneg(uint32_t a)
{
   return a ^ 0x80000000u;
}

static inline uint32_t
sem_fabs(uint32_t a)
{
   return a & 0x7fffffffu;
}

static inline uint32_t
sem_ineg(uint32_t a)
{
   return 0u - a;
}

static inline uint32_t
sem_iabs(uint32_t a)
{
   return (int32_t)a < 0 ? 0u - a : a;
}

/* Applies operand flags (ISA_OPND_F_ABS first, then NEG); float or integer
 * meaning depending on the slot's type. */
static inline uint32_t
sem_srcmod(uint32_t v, unsigned flags, int is_float)
{
   if (flags & ISA_OPND_F_ABS)
      v = is_float ? sem_fabs(v) : sem_iabs(v);
   if (flags & ISA_OPND_F_NEG)
      v = is_float ? sem_fneg(v) : sem_ineg(v);
   if (flags & ISA_OPND_F_NOT)
      v = ~v;
   return v;
}

/* Clamp to [0, 1]; NaN -> 0. */
static inline uint32_t
sem_fsat(uint32_t a)
{
   float f = sem_f(a);
   return sem_isnan(a) ? 0u : f <= 0.0f ? 0u : f >= 1.0f ? 0x3f800000u : a;
}

/* ---- float ALU ----------------------------------------------------- */

static inline uint32_t
sem_fadd(uint32_t a, uint32_t b)
{
   return sem_fres(sem_f(a) + sem_f(b));
}

static inline uint32_t
sem_fmul(uint32_t a, uint32_t b)
{
   return sem_fres(sem_f(a) * sem_f(b));
}

static inline uint32_t
sem_fmad(uint32_t a, uint32_t b, uint32_t c)
{
   float p = sem_f(a) * sem_f(b);
   return sem_fres(p + sem_f(c));
}

static inline uint32_t
sem_ffma(uint32_t a, uint32_t b, uint32_t c)
{
   return sem_fres(fmaf(sem_f(a), sem_f(b), sem_f(c)));
}

/* Total order on non-NaN values with -0 < +0. */
static inline int
sem_flt_signed0(uint32_t a, uint32_t b)
{
   float x = sem_f(a), y = sem_f(b);
   return x < y || (x == y && (a & 0x80000000u) && !(b & 0x80000000u));
}

static inline uint32_t
sem_fmin(uint32_t a, uint32_t b)
{
   uint32_t r = sem_isnan(a) ? b : sem_isnan(b) ? a : sem_flt_signed0(b, a) ? b : a;
   return sem_isnan(r) ? SEM_CANON_NAN : r;
}

static inline uint32_t
sem_fmax(uint32_t a, uint32_t b)
{
   uint32_t r = sem_isnan(a) ? b : sem_isnan(b) ? a : sem_flt_signed0(a, b) ? b : a;
   return sem_isnan(r) ? SEM_CANON_NAN : r;
}

static inline int
sem_fcmp_bool(enum sem_cond c, uint32_t a, uint32_t b)
{
   float x = sem_f(a), y = sem_f(b);
   switch (c) {
   case SEM_LT:
      return x < y;
   case SEM_LE:
      return x <= y;
   case SEM_GT:
      return x > y;
   case SEM_GE:
      return x >= y;
   case SEM_EQ:
      return x == y;
   default:
      return x != y;
   }
}

/* 1 if the condition holds, else 0. */
static inline uint32_t
sem_fcmp(enum sem_cond c, uint32_t a, uint32_t b)
{
   return (uint32_t)sem_fcmp_bool(c, a, b);
}

static inline uint32_t
sem_ucmp(enum sem_cond c, uint32_t a, uint32_t b)
{
   int r[SEM_COND_COUNT] = {a<b, a <= b, a> b, a >= b, a == b, a != b};
   return (uint32_t)r[(unsigned)c < SEM_COND_COUNT ? c : SEM_NE];
}

static inline uint32_t
sem_scmp(enum sem_cond c, uint32_t a, uint32_t b)
{
   int32_t x = (int32_t)a, y = (int32_t)b;
   int r[SEM_COND_COUNT] = {x<y, x <= y, x> y, x >= y, x == y, x != y};
   return (uint32_t)r[(unsigned)c < SEM_COND_COUNT ? c : SEM_NE];
}

/* -1.0, 0.0 or 1.0; NaN and -0.0 give +0.0 (as TGSI SSG). */
static inline uint32_t
sem_fsign(uint32_t a)
{
   float x = sem_f(a);
   return x > 0.0f ? 0x3f800000u : x < 0.0f ? 0xbf800000u : 0u;
}

static inline uint32_t
sem_ffloor(uint32_t a)
{
   return sem_fres(floorf(sem_f(a)));
}

static inline uint32_t
sem_fceil(uint32_t a)
{
   return sem_fres(ceilf(sem_f(a)));
}

static inline uint32_t
sem_ftrunc(uint32_t a)
{
   return sem_fres(truncf(sem_f(a)));
}

/* Round half to even, independent of the host rounding mode. */
static inline uint32_t
sem_frndne(uint32_t a)
{
   float x = sem_f(a), t = truncf(x), d = fabsf(x - t);
   float away = t + copysignf(1.0f, x);
   float even = fmodf(t, 2.0f) == 0.0f ? t : away;
   float r = d > 0.5f ? away : d < 0.5f ? t : even;
   return sem_fres(fabsf(x) >= 8388608.0f ? x : copysignf(r, x));
}

/* Round half away from zero. */
static inline uint32_t
sem_frndaz(uint32_t a)
{
   return sem_fres(roundf(sem_f(a)));
}

/* ---- SFU ----------------------------------------------------------- */

static inline uint32_t
sem_rcp(uint32_t a)
{
   return sem_fres(1.0f / sem_f(a));
}

static inline uint32_t
sem_rsq(uint32_t a)
{
   return sem_fres(1.0f / sqrtf(sem_f(a)));
}

static inline uint32_t
sem_sqrt(uint32_t a)
{
   return sem_fres(sqrtf(sem_f(a)));
}

static inline uint32_t
sem_log2(uint32_t a)
{
   return sem_fres((float)log2((double)sem_f(a)));
}

static inline uint32_t
sem_exp2(uint32_t a)
{
   return sem_fres((float)exp2((double)sem_f(a)));
}

static inline uint32_t
sem_sin(uint32_t a)
{
   return sem_fres((float)sin((double)sem_f(a)));
}

static inline uint32_t
sem_cos(uint32_t a)
{
   return sem_fres((float)cos((double)sem_f(a)));
}

/* ---- integer ALU --------------------------------------------------- */

static inline uint32_t
sem_iadd(uint32_t a, uint32_t b)
{
   return a + b;
}

static inline uint32_t
sem_isub(uint32_t a, uint32_t b)
{
   return a - b;
}

static inline uint32_t
sem_umin(uint32_t a, uint32_t b)
{
   return a < b ? a : b;
}

static inline uint32_t
sem_umax(uint32_t a, uint32_t b)
{
   return a > b ? a : b;
}

static inline uint32_t
sem_smin(uint32_t a, uint32_t b)
{
   return (int32_t)a < (int32_t)b ? a : b;
}

static inline uint32_t
sem_smax(uint32_t a, uint32_t b)
{
   return (int32_t)a > (int32_t)b ? a : b;
}

static inline uint32_t
sem_and(uint32_t a, uint32_t b)
{
   return a & b;
}

static inline uint32_t
sem_or(uint32_t a, uint32_t b)
{
   return a | b;
}

static inline uint32_t
sem_xor(uint32_t a, uint32_t b)
{
   return a ^ b;
}

static inline uint32_t
sem_not(uint32_t a)
{
   return ~a;
}

static inline uint32_t
sem_shl(uint32_t a, uint32_t b)
{
   return a << (b & 31);
}

static inline uint32_t
sem_shr(uint32_t a, uint32_t b)
{
   return a >> (b & 31);
}

/* Arithmetic shift without relying on signed >>: fill with the sign. */
static inline uint32_t
sem_ashr(uint32_t a, uint32_t b)
{
   uint32_t s = b & 31, fill = 0u - (a >> 31);
   return (a >> s) | (s ? fill << (32 - s) : 0u);
}

static inline uint32_t
sem_sext24(uint32_t a)
{
   return ((a & 0xffffffu) ^ 0x800000u) - 0x800000u;
}

/* Low 32 bits of the product of the low 24 bits. */
static inline uint32_t
sem_umul24(uint32_t a, uint32_t b)
{
   return (uint32_t)((uint64_t)(a & 0xffffffu) * (b & 0xffffffu));
}

static inline uint32_t
sem_smul24(uint32_t a, uint32_t b)
{
   return (uint32_t)((uint64_t)sem_sext24(a) * (uint64_t)sem_sext24(b));
}

/* ir3 mull.u: product of the low 16 bits (the first step of a 32-bit
 * multiply; two madsh.m16 add the cross terms). */
static inline uint32_t
sem_mull_u(uint32_t a, uint32_t b)
{
   return (a & 0xffffu) * (b & 0xffffu);
}

static inline uint32_t
sem_umad24(uint32_t a, uint32_t b, uint32_t c)
{
   return sem_umul24(a, b) + c;
}

static inline uint32_t
sem_smad24(uint32_t a, uint32_t b, uint32_t c)
{
   return sem_smul24(a, b) + c;
}

/* ir3 madsh.m16: ((a >> 16) * (b & 0xffff)) << 16, plus c. */
static inline uint32_t
sem_madsh_m16(uint32_t a, uint32_t b, uint32_t c)
{
   return (((a >> 16) * (b & 0xffffu)) << 16) + c;
}

static inline uint32_t
sem_bfrev(uint32_t a)
{
   a = ((a >> 1) & 0x55555555u) | ((a & 0x55555555u) << 1);
   a = ((a >> 2) & 0x33333333u) | ((a & 0x33333333u) << 2);
   a = ((a >> 4) & 0x0f0f0f0fu) | ((a & 0x0f0f0f0fu) << 4);
   a = ((a >> 8) & 0x00ff00ffu) | ((a & 0x00ff00ffu) << 8);
   return (a >> 16) | (a << 16);
}

static inline uint32_t
sem_cbits(uint32_t a)
{
   a = a - ((a >> 1) & 0x55555555u);
   a = (a & 0x33333333u) + ((a >> 2) & 0x33333333u);
   a = (a + (a >> 4)) & 0x0f0f0f0fu;
   return (a * 0x01010101u) >> 24;
}

/* Leading zeros; 32 for 0. */
static inline uint32_t
sem_clz_b(uint32_t a)
{
   a |= a >> 1;
   a |= a >> 2;
   a |= a >> 4;
   a |= a >> 8;
   a |= a >> 16;
   return 32 - sem_cbits(a);
}

/* Leading bits equal to the sign bit; 32 for 0 and -1 (so that
 * ifind_msb(x) = 31 - clz.s(x)). */
static inline uint32_t
sem_clz_s(uint32_t a)
{
   return sem_clz_b(a ^ (0u - (a >> 31)));
}

/* ---- selects ------------------------------------------------------- */

/* sel.b32/s32: cond != 0 ? a : b. */
static inline uint32_t
sem_sel(uint32_t a, uint32_t cond, uint32_t b)
{
   return cond ? a : b;
}

/* sel.f32: the condition is a float; -0.0 is false, NaN is true. */
static inline uint32_t
sem_fsel(uint32_t a, uint32_t cond, uint32_t b)
{
   return (cond & 0x7fffffffu) ? a : b;
}

/* ---- conversions --------------------------------------------------- */

uint32_t sem_f32_to_f16(uint32_t f);
uint32_t sem_f16_to_f32(uint32_t h);

/* Float to integer with saturation; round: 0 truncate, 1 nearest even,
 * 2 toward +inf, 3 toward -inf. NaN -> 0. */
static inline uint32_t
sem_f2i(uint32_t a, int is_signed, unsigned round)
{
   float x = sem_f(a);
   float r = round == 1   ? sem_f(sem_frndne(a))
             : round == 2 ? ceilf(x)
             : round == 3 ? floorf(x)
                          : truncf(x);
   if (sem_isnan(a))
      return 0;
   if (is_signed)
      return r >= 2147483648.0f   ? 0x7fffffffu
             : r < -2147483648.0f ? 0x80000000u
                                  : (uint32_t)(int32_t)r;
   return r >= 4294967296.0f ? 0xffffffffu : r <= 0.0f ? 0u : (uint32_t)r;
}

static inline uint32_t
sem_i2f(uint32_t a, int is_signed)
{
   return is_signed ? sem_u((float)(int32_t)a) : sem_u((float)a);
}

/* ---- the table-driven entry point ---------------------------------- */

/* What an op's semantics needs besides its sources: the compare condition,
 * the types of a conversion and its rounding, and the op's operand type
 * (which decides float vs integer behaviour of shared semantics). */
struct sem_args {
   enum sem_cond cond;
   enum isa_type type, src_type, dst_type;
   unsigned round;
};

/* sem.c */
/* Computes one lane of an ALU semantics; false for semantics that are not
 * a pure function of the sources (flow, memory, texture). */
bool sem_eval(enum isa_sem s, const struct sem_args *a, const uint32_t *src, uint32_t *dst);
uint32_t sem_cov(enum isa_type from, enum isa_type to, unsigned round, uint32_t v);
int sem_cond_find(const char *name);

#endif
