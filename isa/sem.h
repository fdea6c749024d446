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
 *    order -0 below +0: no source documents the hardware's zero, and a
 *    symmetric choice keeps them commutative, as the models declare and
 *    the legalizers rely on (check_facts.c verifies it); TGSI leaves the
 *    sign open, so the check accepts either zero;
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

/* Abstract compare conditions; models map their cond enums by name
 * (sem_cond_find). lt..eq are ordered (false on NaN), ne is true on NaN
 * (unordered; "neu" is another name for it). The rest are the sm50 set:
 * f/t constant, num/nan (neither/either operand NaN), the unordered
 * ltu..equ (true on NaN) and the ordered not-equal one; then agx's ltn and
 * gtn, "NaN loses" (a NaN b makes it true, else a NaN a false, else a < b
 * or a > b: the compare of minNum/maxNum). For integers the unordered
 * forms equal the ordered ones, num is true and nan false. */
enum sem_cond {
   SEM_LT,
   SEM_LE,
   SEM_GT,
   SEM_GE,
   SEM_EQ,
   SEM_NE,
   SEM_F,
   SEM_T,
   SEM_NUM,
   SEM_NAN,
   SEM_LTU,
   SEM_LEU,
   SEM_GTU,
   SEM_GEU,
   SEM_EQU,
   SEM_ONE,
   SEM_LTN,
   SEM_GTN,
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

/* sem_srcmod for a 16-bit slot that holds its value's own bits (a
 * conversion or move reading a half, the value not widened first): a float
 * modifier acts on the half's sign, bit 15; an integer one on the low 16
 * bits taken as signed. */
static inline uint32_t
sem_srcmod16(uint32_t v, unsigned flags, int is_float)
{
   if (!is_float && (flags & (ISA_OPND_F_ABS | ISA_OPND_F_NEG)))
      v = sem_srcmod((uint32_t)(int32_t)(int16_t)(uint16_t)v,
                     flags & (ISA_OPND_F_ABS | ISA_OPND_F_NEG), 0) &
          0xffffu;
   else if (is_float) {
      if (flags & ISA_OPND_F_ABS)
         v &= ~0x8000u;
      if (flags & ISA_OPND_F_NEG)
         v ^= 0x8000u;
   }
   if (flags & ISA_OPND_F_NOT)
      v = ~v;
   return v;
}

/* The modifiers of a source slot: on a half's sign when the slot is 16
 * bits read unconverted, else as sem_srcmod. */
static inline uint32_t
sem_srcmod_slot(uint32_t v, unsigned flags, int is_float, bool half)
{
   return half ? sem_srcmod16(v, flags, is_float) : sem_srcmod(v, flags, is_float);
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

/* A condition on two values; float compares widen to double exactly, so
 * one table serves both widths. NE (the default) is true on NaN. */
static inline int
sem_cmp_cond(enum sem_cond c, double x, double y)
{
   int un = x != x || y != y;
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
   case SEM_F:
      return 0;
   case SEM_T:
      return 1;
   case SEM_NUM:
      return !un;
   case SEM_NAN:
      return un;
   case SEM_LTU:
      return un || x < y;
   case SEM_LEU:
      return un || x <= y;
   case SEM_GTU:
      return un || x > y;
   case SEM_GEU:
      return un || x >= y;
   case SEM_EQU:
      return un || x == y;
   case SEM_ONE:
      return !un && x != y;
   case SEM_LTN:
      return y != y || (x == x && x < y);
   case SEM_GTN:
      return y != y || (x == x && x > y);
   default:
      return x != y;
   }
}

static inline int
sem_fcmp_bool(enum sem_cond c, uint32_t a, uint32_t b)
{
   return sem_cmp_cond(c, (double)sem_f(a), (double)sem_f(b));
}

/* 1 if the condition holds, else 0. */
static inline uint32_t
sem_fcmp(enum sem_cond c, uint32_t a, uint32_t b)
{
   return (uint32_t)sem_fcmp_bool(c, a, b);
}

/* An integer compare from "a < b" and "a == b". */
static inline uint32_t
sem_icmp_from(enum sem_cond c, int lt, int eq)
{
   switch (c) {
   case SEM_LT:
   case SEM_LTU:
   case SEM_LTN:
      return (uint32_t)lt;
   case SEM_LE:
   case SEM_LEU:
      return (uint32_t)(lt || eq);
   case SEM_GT:
   case SEM_GTU:
   case SEM_GTN:
      return (uint32_t)(!lt && !eq);
   case SEM_GE:
   case SEM_GEU:
      return (uint32_t)!lt;
   case SEM_EQ:
   case SEM_EQU:
      return (uint32_t)eq;
   case SEM_F:
   case SEM_NAN:
      return 0;
   case SEM_T:
   case SEM_NUM:
      return 1;
   default:
      return (uint32_t)!eq;
   }
}

static inline uint32_t
sem_ucmp(enum sem_cond c, uint32_t a, uint32_t b)
{
   return sem_icmp_from(c, a < b, a == b);
}

static inline uint32_t
sem_scmp(enum sem_cond c, uint32_t a, uint32_t b)
{
   return sem_icmp_from(c, (int32_t)a < (int32_t)b, a == b);
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

/* ---- sub-dword selects (GFX9 SDWA) ---------------------------------- */

/* SdwaSel: BYTE_0..BYTE_3 = 0..3, WORD_0 = 4, WORD_1 = 5, DWORD = 6. */
enum sem_sdwa_sel { SEM_SEL_BYTE0, SEM_SEL_WORD0 = 4, SEM_SEL_WORD1, SEM_SEL_DWORD };
/* DstUnused: what the bits outside dst_sel become. */
enum sem_sdwa_unused { SEM_UNUSED_PAD, SEM_UNUSED_SEXT, SEM_UNUSED_PRESERVE };

static inline void
sem_sdwa_field(unsigned sel, unsigned *shift, unsigned *bits)
{
   *bits = sel < 4 ? 8 : sel < 6 ? 16 : 32;
   *shift = sel < 4 ? 8 * sel : sel < 6 ? 16 * (sel - 4) : 0;
}

/* A source select: the field moved down to bit 0, zero- or (sext)
 * sign-extended from its top bit; DWORD (and anything past it) is v. */
static inline uint32_t
sem_sdwa_src(uint32_t v, unsigned sel, bool sext)
{
   unsigned shift, bits;
   sem_sdwa_field(sel, &shift, &bits);
   if (bits >= 32)
      return v;
   uint32_t x = (v >> shift) & ((1u << bits) - 1);
   uint32_t sign = 1u << (bits - 1);
   return sext ? (x ^ sign) - sign : x;
}

/* A destination select: the low bits of r placed in the field; the other
 * bits 0 (PAD), the field's sign above it and 0 below (SEXT), or old's
 * (PRESERVE: the instruction reads its destination). */
static inline uint32_t
sem_sdwa_dst(uint32_t r, uint32_t old, unsigned sel, unsigned unused)
{
   unsigned shift, bits;
   sem_sdwa_field(sel, &shift, &bits);
   if (bits >= 32)
      return r;
   uint32_t fmask = ((1u << bits) - 1) << shift;
   uint32_t placed = (r << shift) & fmask;
   if (unused == SEM_UNUSED_PRESERVE)
      return placed | (old & ~fmask);
   uint32_t above = shift + bits >= 32 ? 0u : ~0u << (shift + bits);
   if (unused == SEM_UNUSED_SEXT && (r >> (bits - 1) & 1u))
      return placed | above;
   return placed;
}

/* ---- selects ------------------------------------------------------- */

/* sel.b32/s32: cond != 0 ? a : b. */
static inline uint32_t
sem_sel(uint32_t a, uint32_t cond, uint32_t b)
{
   return cond ? a : b;
}

/* v_cndmask_b32: bit 0 of c picks b, else a. */
static inline uint32_t
sem_cndmask(uint32_t a, uint32_t b, uint32_t c)
{
   return c & 1 ? b : a;
}

/* ICMPSEL compares without sign for float and unsigned types. */
static inline bool
sem_icmpsel_unsigned(enum isa_type t)
{
   return isa_type_is_float(t) || t == ISA_TYPE_U32 || t == ISA_TYPE_U16;
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

/* ---- Maxwell (sm50) ------------------------------------------------ */

/* Predicate combine of setp-style ops (PredSetOp); predicates are bit 0
 * of a lane value, so a NOT source modifier (~v) negates them. */
enum sem_bop {
   SEM_BOP_AND,
   SEM_BOP_OR,
   SEM_BOP_XOR,
};

static inline uint32_t
sem_bop(enum sem_bop op, uint32_t a, uint32_t b)
{
   a &= 1;
   b &= 1;
   return op == SEM_BOP_OR ? a | b : op == SEM_BOP_XOR ? a ^ b : a & b;
}

/* FSETP/ISETP/PSETP results: p = cmp OP acc, q = !cmp OP acc. */
static inline void
sem_setp(uint32_t cmp, uint32_t acc, enum sem_bop op, uint32_t *p, uint32_t *q)
{
   *p = sem_bop(op, cmp, acc);
   *q = sem_bop(op, cmp ^ 1, acc);
}

/* FSET: (cmp OP acc) ? (bf ? 1.0f : all ones) : 0. */
static inline uint32_t
sem_fset(uint32_t cmp, uint32_t acc, enum sem_bop op, int bf)
{
   return sem_bop(op, cmp, acc) ? (bf ? 0x3f800000u : 0xffffffffu) : 0u;
}

/* FMNMX/IMNMX: the minimum if predicate p holds, else the maximum. */
static inline uint32_t
sem_fmnmx(uint32_t a, uint32_t b, uint32_t p)
{
   return (p & 1) ? sem_fmin(a, b) : sem_fmax(a, b);
}

static inline uint32_t
sem_imnmx(uint32_t a, uint32_t b, uint32_t p, int is_signed)
{
   if (is_signed)
      return (p & 1) ? sem_smin(a, b) : sem_smax(a, b);
   return (p & 1) ? sem_umin(a, b) : sem_umax(a, b);
}

/* ---- Doubles (sm50 FP64): 64-bit values, low word first in registers.
 * IEEE double, round to nearest even, denormals kept, every NaN result
 * the canonical quiet NaN 0x7ff8000000000000. */
#define SEM_CANON_DNAN 0x7ff8000000000000ull

static inline double
sem_d(uint64_t u)
{
   double d;
   memcpy(&d, &u, sizeof(d));
   return d;
}

static inline uint64_t
sem_dres(double d)
{
   uint64_t u;
   if (d != d)
      return SEM_CANON_DNAN;
   memcpy(&u, &d, sizeof(u));
   return u;
}

static inline int
sem_disnan(uint64_t a)
{
   return (a & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}

static inline uint64_t
sem_dadd(uint64_t a, uint64_t b)
{
   return sem_dres(sem_d(a) + sem_d(b));
}

static inline uint64_t
sem_dmul(uint64_t a, uint64_t b)
{
   return sem_dres(sem_d(a) * sem_d(b));
}

static inline uint64_t
sem_dfma(uint64_t a, uint64_t b, uint64_t c)
{
   return sem_dres(fma(sem_d(a), sem_d(b), sem_d(c)));
}

/* DMNMX: as FMNMX -- the other operand when one is NaN, -0 below +0. */
static inline uint64_t
sem_dmnmx(uint64_t a, uint64_t b, uint32_t p)
{
   if (sem_disnan(a) || sem_disnan(b))
      return sem_disnan(a) && sem_disnan(b) ? SEM_CANON_DNAN : sem_disnan(a) ? b : a;
   double x = sem_d(a), y = sem_d(b);
   int b_lt = y < x || (y == x && (b >> 63) > (a >> 63)); /* b below a, -0 < +0 */
   return (p & 1) ? (b_lt ? b : a) : (b_lt ? a : b);
}

/* v_min_f64 / v_max_f64 (gfx9): DMNMX with the predicate fixed. */
static inline uint64_t
sem_dmin(uint64_t a, uint64_t b)
{
   return sem_dmnmx(a, b, 1);
}

static inline uint64_t
sem_dmax(uint64_t a, uint64_t b)
{
   return sem_dmnmx(a, b, 0);
}

/* v_ldexp_f64: a * 2^n exactly, rounded once where the result is
 * subnormal; NaN the canonical one. */
static inline uint64_t
sem_dldexp(uint64_t a, uint32_t n)
{
   return sem_dres(ldexp(sem_d(a), (int32_t)n));
}

static inline int
sem_dcmp_bool(enum sem_cond c, uint64_t a, uint64_t b)
{
   return sem_cmp_cond(c, sem_d(a), sem_d(b));
}

static inline uint64_t
sem_f2d(uint32_t a)
{
   return sem_dres((double)sem_f(a));
}

static inline uint32_t
sem_d2f(uint64_t a)
{
   return sem_fres((float)sem_d(a));
}

/* Integral rounding of a double: 0 nearest even, 1 floor, 2 ceil, 3 trunc. */
static inline uint64_t
sem_dround(uint64_t a, unsigned mode)
{
   double d = sem_d(a);
   double r = mode == 1 ? floor(d) : mode == 2 ? ceil(d) : mode == 3 ? trunc(d) : nearbyint(d);
   return sem_dres(r);
}

/* Truncating conversions to 32-bit integers, saturating, NaN -> 0. */
static inline uint32_t
sem_d2i(uint64_t a)
{
   double d = sem_d(a);
   return d != d               ? 0u
          : d >= 2147483648.0  ? 0x7fffffffu
          : d <= -2147483649.0 ? 0x80000000u
                               : (uint32_t)(int32_t)d;
}

static inline uint32_t
sem_d2u(uint64_t a)
{
   double d = sem_d(a);
   return d != d || d <= -1.0 ? 0u : d >= 4294967296.0 ? 0xffffffffu : (uint32_t)d;
}

/* SHF: funnel shift of the 64-bit value hi:lo [NAK OpShf fold, sm50].
 * type: 0 = 32-bit (I32 and U32 encode alike), 2 = U64, 3 = S64. The
 * count is clamped to the type width, or masked to it with wrap. Left
 * shifts return the high word (the .HI bit is illegal there); right
 * shifts return the high word with high, else the low one. Only S64
 * shifts right arithmetically (the 32-bit type ignores signedness); a
 * signed count of 64 fills with the sign (newer NAK). */
static inline uint32_t
sem_shf(int right, uint32_t lo, uint32_t sh, uint32_t hi, unsigned type, int wrap, int high)
{
   uint64_t x = ((uint64_t)hi << 32) | lo;
   unsigned bits = type == 2 || type == 3 ? 64 : 32;
   unsigned s = wrap ? (sh & (bits - 1)) : (sh < bits ? sh : bits);
   uint64_t r;
   if (!right)
      r = s >= 64 ? 0 : x << s;
   else if (type == 3)
      r = s >= 64 ? 0 - (x >> 63) : (x >> s) | (s ? (0 - (x >> 63)) << (64 - s) : 0);
   else
      r = s >= 64 ? 0 : x >> s;
   return (!right || high) ? (uint32_t)(r >> 32) : (uint32_t)r;
}

/* SHL/SHR: the count clamps at 32 (or, with wrap, is taken modulo 32);
 * signed SHR fills with the sign bit; brev reverses a first. */
static inline uint32_t
sem_shl_clamp(uint32_t a, uint32_t b, int wrap)
{
   uint32_t s = wrap ? b & 31 : b;
   return s >= 32 ? 0 : a << s;
}

static inline uint32_t
sem_shr_clamp(uint32_t a, uint32_t b, int is_signed, int wrap, int brev)
{
   uint32_t s = wrap ? b & 31 : b >= 32 ? 32 : b;
   if (brev)
      a = sem_bfrev(a);
   uint32_t fill = is_signed ? 0u - (a >> 31) : 0;
   return s >= 32 ? fill : (a >> s) | (s ? fill << (32 - s) : 0);
}

/* XMAD, unsigned 16x16 multiply-add [Mesa gm107 emitter, yuzu]:
 * a16/b16 are the low halves, or the high ones with a_h1/b_h1; the
 * product shifts left 16 with psl; mode changes c: 1 CLO c & 0xffff,
 * 2 CHI c >> 16, 4 CBCC c + (b << 16) (b the whole register); mrg puts
 * the low half of b into the result's high half. */
static inline uint32_t
sem_xmad(uint32_t a, uint32_t b, uint32_t c, int a_h1, int b_h1, int psl, int mrg, unsigned mode)
{
   uint32_t a16 = a_h1 ? a >> 16 : a & 0xffffu, b16 = b_h1 ? b >> 16 : b & 0xffffu;
   uint32_t p = a16 * b16;
   if (psl)
      p <<= 16;
   uint32_t cc = mode == 1 ? c & 0xffffu : mode == 2 ? c >> 16 : mode == 4 ? c + (b << 16) : c;
   uint32_t d = p + cc;
   return mrg ? (d & 0xffffu) | (b << 16) : d;
}

static inline uint32_t
sem_iscadd(uint32_t a, uint32_t b, uint32_t shift)
{
   return (a << (shift & 31)) + b;
}

static inline uint32_t
sem_iadd3(uint32_t a, uint32_t b, uint32_t c)
{
   return a + b + c;
}

/* ---- gfx9 (GCN) VALU ------------------------------------------------ */
/* AMD's definitions (the Vega ISA as LLVM's AMDGPU back end and ACO read
 * it), for what llc emits: the legacy multiply (0 * anything = 0, DX9),
 * fract below 1.0, sin/cos of revolutions, byte conversions, the
 * three-source integer ops, 3-way min/max/median, bfe with 5-bit offset
 * and width, bfi as a bit select, ffbh/ffbl with ~0 for no bit. */

static inline uint32_t
sem_fsub(uint32_t a, uint32_t b)
{
   return sem_fadd(a, sem_fneg(b));
}

static inline uint32_t
sem_fmul_legacy(uint32_t a, uint32_t b)
{
   if (!(a & 0x7fffffffu) || !(b & 0x7fffffffu))
      return (a ^ b) & 0x80000000u;
   return sem_fmul(a, b);
}

/* x - floor(x), at most the largest float below 1.0; NaN for NaN and
 * +-inf. */
static inline uint32_t
sem_fract(uint32_t a)
{
   float x = sem_f(a);
   if (x != x || x - x != 0.0f)
      return SEM_CANON_NAN;
   float r = x - floorf(x);
   return r < 0x1.fffffep-1f ? sem_fres(r) : 0x3f7fffffu;
}

/* sin/cos of x revolutions (x * 2 pi radians), on the fraction of x. */
static inline uint32_t
sem_sin_rev(uint32_t a)
{
   double x = (double)sem_f(a);
   if (x != x || x - x != 0.0)
      return SEM_CANON_NAN;
   return sem_fres((float)sin(6.283185307179586 * (x - floor(x))));
}

static inline uint32_t
sem_cos_rev(uint32_t a)
{
   double x = (double)sem_f(a);
   if (x != x || x - x != 0.0)
      return SEM_CANON_NAN;
   return sem_fres((float)cos(6.283185307179586 * (x - floor(x))));
}

/* ---- agx (G13) sine halves ---------------------------------------- */
/* applegpu: sin(x) is sin_pt_2(t) * t with t = sin_pt_1(r), r the angle
 * in quarter turns, in [0, 4). What each half returns is not documented.
 * MODEL CHOICE: t is r folded into [-1, 1] with the same sine (r, 2 - r,
 * r - 4: exact), and sin_pt_2 is sin(t pi / 2) / t (pi / 2 at 0), rounded
 * once, so the product is sin(r pi / 2) after two roundings. Any r is
 * taken modulo 4 (into [-2, 2]) first; inf and NaN give NaN. */
static inline uint32_t
sem_sin_pt_1(uint32_t a)
{
   double x = (double)sem_f(a);
   if (x != x || x - x != 0.0)
      return SEM_CANON_NAN;
   double t = x - 4.0 * round(x / 4.0); /* exact: |t| <= 2 keeps x's low bits */
   t = t > 1.0 ? 2.0 - t : t < -1.0 ? -2.0 - t : t;
   return sem_fres((float)t);
}

static inline uint32_t
sem_sin_pt_2(uint32_t a)
{
   double t = (double)sem_f(a);
   if (t == 0.0)
      return sem_fres((float)1.5707963267948966);
   return sem_fres((float)(sin(1.5707963267948966 * t) / t));
}

static inline uint32_t
sem_cvt_ubyte(uint32_t a, unsigned n)
{
   return sem_fres((float)((a >> (8 * n)) & 0xffu));
}

/* v_ldexp_f32: a * 2^b, b a signed integer. */
static inline uint32_t
sem_ldexp(uint32_t a, uint32_t b)
{
   return sem_fres(ldexpf(sem_f(a), (int32_t)b));
}

/* v_perm_b32: each result byte picks by the byte of c: 0-7 a byte of
 * {a, b} (b the low word), 8-11 the sign of b[15], b[31], a[15], a[31]
 * spread over the byte, 12 zero, 13 and up 0xff. */
static inline uint32_t
sem_perm(uint32_t a, uint32_t b, uint32_t c)
{
   uint64_t ab = (uint64_t)a << 32 | b;
   uint32_t r = 0;
   for (unsigned i = 0; i < 4; i++) {
      unsigned sel = (c >> (8 * i)) & 0xffu;
      uint32_t byte = sel < 8     ? (uint32_t)(ab >> (8 * sel)) & 0xffu
                      : sel == 8  ? (b >> 15 & 1u) * 0xffu
                      : sel == 9  ? (b >> 31) * 0xffu
                      : sel == 10 ? (a >> 15 & 1u) * 0xffu
                      : sel == 11 ? (a >> 31) * 0xffu
                      : sel == 12 ? 0u
                                  : 0xffu;
      r |= byte << (8 * i);
   }
   return r;
}

static inline uint32_t
sem_mul_hi_u(uint32_t a, uint32_t b)
{
   return (uint32_t)(((uint64_t)a * b) >> 32);
}

static inline uint32_t
sem_mul_hi_i(uint32_t a, uint32_t b)
{
   return (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int32_t)b) >> 32);
}

static inline uint32_t
sem_fmed3(uint32_t a, uint32_t b, uint32_t c)
{
   if (sem_isnan(a) || sem_isnan(b) || sem_isnan(c))
      return sem_fmin(sem_fmin(a, b), c);
   uint32_t mx = sem_fmax(sem_fmax(a, b), c);
   if (mx == a)
      return sem_fmax(b, c);
   if (mx == b)
      return sem_fmax(a, c);
   return sem_fmax(a, b);
}

static inline uint32_t
sem_imed3(uint32_t a, uint32_t b, uint32_t c, int sg)
{
   uint32_t f = sg ? 0x80000000u : 0; /* signed order by flipping the sign */
   uint32_t x = a ^ f, y = b ^ f, z = c ^ f;
   uint32_t lo = x < y ? x : y, hi = x < y ? y : x;
   uint32_t m = z < hi ? z : hi;
   return (m > lo ? m : lo) ^ f;
}

/* v_bfe: offset and width are 5 bits; width 0 gives 0. */
static inline uint32_t
sem_bfe3(uint32_t a, uint32_t off, uint32_t w, int sg)
{
   off &= 31;
   w &= 31;
   if (!w)
      return 0;
   if (off + w < 32) {
      uint32_t x = a << (32 - off - w);
      return sg ? (uint32_t)((int32_t)x >> (32 - w)) : x >> (32 - w);
   }
   return sg ? (uint32_t)((int32_t)a >> off) : a >> off;
}

/* Leading zeros; ~0 for 0. */
static inline uint32_t
sem_ffbh(uint32_t a)
{
   return a ? sem_clz_b(a) : 0xffffffffu;
}

/* v_ffbh_i32: the leading bits equal to the sign bit (the index, from
 * the MSB, of the first bit that differs from it); ~0 for 0 and -1. */
static inline uint32_t
sem_ffbh_i(uint32_t a)
{
   uint32_t x = (a >> 31) ? ~a : a;
   return x ? sem_clz_b(x) : 0xffffffffu;
}

/* Trailing zeros; ~0 for 0. */
static inline uint32_t
sem_ffbl(uint32_t a)
{
   return a ? 32 - sem_clz_b(~a & (a - 1)) : 0xffffffffu;
}

/* FLO: bit index of the most significant 1 (signed: of the most
 * significant bit that differs from the sign), 0xffffffff if none. */
static inline uint32_t
sem_flo(uint32_t a, int is_signed)
{
   uint32_t x = is_signed ? a ^ (0u - (a >> 31)) : a;
   return x ? 31 - sem_clz_b(x) : 0xffffffffu;
}

/* BFE: range = position | width << 8 (bytes); the PTX bfe definition:
 * bits of a from position on, width of them, padded with the sign of
 * the last extracted bit (signed, width > 0) or zeros; brev reverses a
 * first (BFE.BREV a, 0x2000 is a full reverse). */
static inline uint32_t
sem_bfe(uint32_t a, uint32_t range, int is_signed, int brev)
{
   uint32_t pos = range & 0xffu, len = (range >> 8) & 0xffu;
   if (brev)
      a = sem_bfrev(a);
   uint32_t top = pos + len - 1 < 31 ? pos + len - 1 : 31; /* used only if len > 0 */
   uint32_t sbit = is_signed && len ? (a >> top) & 1 : 0;
   uint32_t fill = 0u - sbit;
   if (!len || pos >= 32)
      return fill;
   uint32_t v = a >> pos;
   uint32_t n = len < 32 - pos ? len : 32 - pos; /* bits that exist */
   return n >= 32 ? v : (v & ((1u << n) - 1)) | (fill << n);
}

/* BFI: base with `width` bits at `position` replaced by the low bits of
 * ins (range = position | width << 8); bits past 31 are dropped. */
static inline uint32_t
sem_bfi(uint32_t ins, uint32_t range, uint32_t base)
{
   uint32_t pos = range & 0xffu, len = (range >> 8) & 0xffu;
   if (!len || pos >= 32)
      return base;
   uint32_t n = len < 32 - pos ? len : 32 - pos;
   uint32_t mask = (n >= 32 ? 0xffffffffu : (1u << n) - 1) << pos;
   return (base & ~mask) | ((ins << pos) & mask);
}

/* ---- gfx9 64-bit VALU shifts (v_lshlrev_b64 and kin) ---------------- */

/* The count is taken modulo 64. */
static inline uint64_t
sem_shl64(uint64_t a, uint32_t n)
{
   return a << (n & 63u);
}

static inline uint64_t
sem_shr64(uint64_t a, uint32_t n)
{
   return a >> (n & 63u);
}

static inline uint64_t
sem_ashr64(uint64_t a, uint32_t n)
{
   uint64_t s = 0u - (a >> 63); /* all ones when negative */
   unsigned k = n & 63u;
   return (a >> k) | (k ? s << (64u - k) : 0u);
}

/* ---- the table-driven entry point ---------------------------------- */

/* What an op's semantics needs besides its sources: the compare condition,
 * the types of a conversion and its rounding, and the op's operand type
 * (which decides float vs integer behaviour of shared semantics). */
struct sem_args {
   enum sem_cond cond;
   enum isa_type type, src_type, dst_type;
   unsigned round;
   /* sm50: predicate combines (roles setop, setop2), SEM_FL_* flags
    * from the flag roles, an op-specific mode (role xmode: XMAD C mode
    * 0/1/2/4; role shftype: SHF type 0/2/3), and which sources carry
    * ISA_OPND_F_HI (bit i: source i; the semantics takes the half). */
   enum sem_bop bop, bop2;
   unsigned flags;
   unsigned mode;
   unsigned hi_srcs;
};

enum {
   SEM_FL_WRAP = 1 << 0, /* role wrap */
   SEM_FL_HI = 1 << 1,   /* role hi */
   SEM_FL_BREV = 1 << 2, /* role brev */
   SEM_FL_PSL = 1 << 3,  /* role psl */
   SEM_FL_MRG = 1 << 4,  /* role mrg */
   SEM_FL_BF = 1 << 5,   /* role bf */
   SEM_FL_SAT = 1 << 6,  /* role isat: an integer result saturates (gfx9 clamp) */
};

/* The modifier value names the semantics read from every instruction:
 * compare conditions, rounding (both spellings), predicate combines and
 * lane modes. A model resolves them once at load (sem_build_values), so
 * per-instruction lookups compare integers, not strings. */
#define SEM_VALUE_NAMES(X)                                                                         \
   X(LT, "lt")                                                                                     \
   X(LE, "le")                                                                                     \
   X(GT, "gt")                                                                                     \
   X(GE, "ge")                                                                                     \
   X(EQ, "eq")                                                                                     \
   X(NE, "ne")                                                                                     \
   X(F, "f")                                                                                       \
   X(T, "t")                                                                                       \
   X(NUM, "num")                                                                                   \
   X(NAN, "nan")                                                                                   \
   X(LTU, "ltu")                                                                                   \
   X(LEU, "leu")                                                                                   \
   X(GTU, "gtu")                                                                                   \
   X(GEU, "geu")                                                                                   \
   X(EQU, "equ")                                                                                   \
   X(ONE, "one")                                                                                   \
   X(LTN, "ltn")                                                                                   \
   X(GTN, "gtn")                                                                                   \
   X(NEU, "neu")                                                                                   \
   X(DEFAULT, "default")                                                                           \
   X(EVEN, "even")                                                                                 \
   X(POS_INF, "pos_inf")                                                                           \
   X(NEG_INF, "neg_inf")                                                                           \
   X(RZ, "rz")                                                                                     \
   X(RN, "rn")                                                                                     \
   X(RP, "rp")                                                                                     \
   X(RM, "rm")                                                                                     \
   X(AND, "and")                                                                                   \
   X(OR, "or")                                                                                     \
   X(XOR, "xor")                                                                                   \
   X(IDX, "idx")                                                                                   \
   X(UP, "up")                                                                                     \
   X(DOWN, "down")                                                                                 \
   X(BFLY, "bfly")                                                                                 \
   X(ALL, "all")                                                                                   \
   X(ANY, "any")

#define SEM_VN_ENUM_(n, s) SEM_VN_##n,
enum sem_vname { SEM_VALUE_NAMES(SEM_VN_ENUM_) SEM_VN_COUNT };
#undef SEM_VN_ENUM_

/* sem.c */
/* Computes one lane of an ALU semantics; false for semantics that are not
 * a pure function of the sources (flow, memory, texture). dst holds
 * ISA_MAX_DST values: the setp semantics write two (p, q). */
bool sem_eval(enum isa_sem s, const struct sem_args *a, const uint32_t *src, uint32_t *dst);
uint32_t sem_cov(enum isa_type from, enum isa_type to, unsigned round, uint32_t v);
/* sem_cov over n lanes: d[i] = sem_cov(from, to, round, s[i]). */
void sem_cov_lanes(enum isa_type from, enum isa_type to, unsigned round, unsigned n, uint32_t *d,
                   const uint32_t *s);
int sem_cond_find(const char *name);
/* The arguments of in's semantics, by modifier roles: the compare
 * condition (the op's flip modifier, or the cond role) and rounding by
 * value name, the predicate combines, the flag roles, the op mode, the
 * halves, and the types of source 0 and destination 0 (sem_slot_type).
 * The emulator and the optimizing compiler's evaluator both use it. */
void sem_args_of(const struct isa_model *m, const struct isa_insn *in, struct sem_args *a);
/* A slot's data type as the semantics take it: isa_opnd_type narrowed to
 * its 16-bit form when the slot is 16 bits wide; *width (if not NULL)
 * gets the width. */
enum isa_type sem_slot_type(const struct isa_model *m, const struct isa_insn *in, int slot,
                            unsigned *width);
/* isa_mod_value(m, mod, the name of v), from the model's table. */
int sem_mod_value(const struct isa_model *m, unsigned mod, enum sem_vname v);

/* ---- special operand values ---------------------------------------- */

/* The operand values where implementations and rewrites go wrong: signed
 * zeros, infinities, NaNs, denormals, +-1, integer boundaries, shift counts
 * of 32 and more, rounding ties. Each entry says which kinds of operand it
 * is special for (a float, an integer, a shift count, a boolean, and the
 * 64-bit forms); sem_special.c. The optimizing compiler's per-rewrite
 * verification (compiler/opt/opt_verify.c) runs every rewrite on them. */
enum sem_special_kind {
   SEM_SPK_F32 = 1 << 0,
   SEM_SPK_I32 = 1 << 1,
   SEM_SPK_SHIFT = 1 << 2,
   SEM_SPK_BOOL = 1 << 3,
   SEM_SPK_F64 = 1 << 4,
   SEM_SPK_I64 = 1 << 5,
};

struct sem_special {
   uint64_t bits;
   uint8_t kinds; /* enum sem_special_kind */
   const char *name;
};

extern const struct sem_special sem_specials[];
extern const unsigned sem_nspecials;

/* s_bfe_u32/s_bfe_i32: b holds the offset in bits 4:0 and the width in
 * bits 22:16; a width of 32 or more takes every bit from the offset up. */
static inline uint32_t
sem_s_bfe(uint32_t a, uint32_t b, int sg)
{
   uint32_t off = b & 31u, w = (b >> 16) & 0x7fu;
   if (!w)
      return 0;
   if (w >= 32)
      return sg ? (uint32_t)((int32_t)a >> off) : a >> off;
   return sem_bfe3(a, off, w, sg);
}

/* v_alignbit_b32: the 64-bit {a, b} (a high) shifted right by c[4:0]. */
static inline uint32_t
sem_alignbit(uint32_t a, uint32_t b, uint32_t c)
{
   return (uint32_t)((((uint64_t)a << 32) | b) >> (c & 31u));
}

/* The biased exponent of a float. */
static inline int
sem_fexp(uint32_t a)
{
   return (int)((a >> 23) & 0xffu);
}

static inline int
sem_fdenorm(double x)
{
   return x != 0.0 && fabs(x) < 0x1p-126;
}

/*
 * The f32 division of llc (v_div_scale, v_rcp, Newton steps in v_fma,
 * v_div_fmas, v_div_fixup), numerator n and denominator d:
 *  - div_scale(s0, d, n) gives s0 scaled by 2^64 or 2^-64 where the
 *    quotient or its steps would leave the normal range: both operands
 *    alike (d denormal, 1/d denormal, n tiny), or one of them, which it
 *    says with vcc (n/d past 2^96: d up; n/d denormal: n up, or d down
 *    when 1/d is denormal too); s0 is n or d.
 *  - div_fmas(a, b, c) is fma(a, b, c), rounded once after the scale that
 *    undoes a one-sided one where vcc is set: 2^64 for a quotient scaled
 *    down (c at least 2), else 2^-64.
 *  - div_fixup(q, d, n) gives the special cases (NaN, infinities, zeros)
 *    from d and n, an infinity where the steps overflowed (q infinite or
 *    NaN), zero past 2^-150, else q with the sign of n / d.
 */
static inline uint32_t
sem_div_scale(uint32_t s0, uint32_t d, uint32_t n, uint32_t *vcc)
{
   double fd = sem_f(d), fn = sem_f(n);
   int up = 0;
   *vcc = 0;
   if (fd == 0.0 || fn == 0.0)
      return SEM_CANON_NAN;
   if (sem_fexp(n) - sem_fexp(d) >= 96) {
      *vcc = 1;
      up = s0 == d ? 64 : 0;
   } else if (sem_fdenorm(fd)) {
      up = 64;
   } else if (sem_fdenorm(1.0 / fd) && sem_fdenorm(fn / fd)) {
      *vcc = 1;
      up = s0 == d ? -64 : 0;
   } else if (sem_fdenorm(1.0 / fd)) {
      up = -64;
   } else if (sem_fdenorm(fn / fd)) {
      *vcc = 1;
      up = s0 == n ? 64 : 0;
   } else if (sem_fexp(n) <= 23) {
      up = 64;
   }
   return up ? sem_fres(ldexpf(sem_f(s0), up)) : s0;
}

/* One rounding of a * b + c, scaled first: the product is exact in
 * double, the sum's error t comes from TwoSum, and where t is not 0 the
 * sum is made odd (round to odd), so that rounding it to float, scaled
 * or denormal, rounds the exact value. */
static inline uint32_t
sem_div_fmas(uint32_t a, uint32_t b, uint32_t c, uint32_t vcc)
{
   double p = (double)sem_f(a) * sem_f(b), x = sem_f(c), s = p + x;
   double bb = s - p, t = (p - (s - bb)) + (x - bb);
   uint64_t u;
   memcpy(&u, &s, 8);
   if (t != 0.0 && isfinite(s) && !(u & 1u)) {
      u += (t > 0.0) == (s > 0.0) ? 1 : (uint64_t)-1;
      memcpy(&s, &u, 8);
   }
   if (vcc & 1u)
      s = ldexp(s, sem_fexp(c) > 127 ? 64 : -64);
   return sem_fres((float)s);
}

static inline uint32_t
sem_div_fixup(uint32_t q, uint32_t d, uint32_t n)
{
   uint32_t sign = (d ^ n) & 0x80000000u;
   uint32_t ad = d & 0x7fffffffu, an = n & 0x7fffffffu;
   if (sem_isnan(n) || sem_isnan(d) || (!ad && !an) || (ad == 0x7f800000u && an == 0x7f800000u))
      return SEM_CANON_NAN;
   if (!ad || an == 0x7f800000u)
      return sign | 0x7f800000u;
   if (ad == 0x7f800000u || !an || sem_fexp(n) - sem_fexp(d) < -150)
      return sign;
   if (sem_fexp(q) == 255) /* the steps overflowed: so does the quotient */
      return sign | 0x7f800000u;
   return sign | (q & 0x7fffffffu);
}

/*
 * llc's f64 division (v_div_scale_f64, v_rcp_f64, Newton steps in
 * v_fma_f64, v_div_fmas_f64, v_div_fixup_f64): the f32 rules above with
 * the double's constants (scales 2^128, an exponent gap of 768, denormal
 * below 2^-1022, a numerator exponent of at most 53, zero past 2^-1075).
 * MODEL CHOICE: v_div_fmas_f64 rounds before its scale, so a quotient
 * that is denormal may round twice (the f32 op rounds to odd first); a
 * normal one is exact. v_rcp_f64 and v_sqrt_f64 are correctly rounded,
 * as the model's v_rcp_f32 and v_sqrt_f32 are (the hardware's are
 * approximations).
 */
static inline int
sem_dexp(uint64_t a)
{
   return (int)((a >> 52) & 0x7ffu);
}

static inline int
sem_ddenorm(double x)
{
   return x != 0.0 && fabs(x) < 0x1p-1022;
}

static inline uint64_t
sem_ddiv_scale(uint64_t s0, uint64_t d, uint64_t n, uint32_t *vcc)
{
   double fd = sem_d(d), fn = sem_d(n);
   int up = 0;
   *vcc = 0;
   if (fd == 0.0 || fn == 0.0)
      return SEM_CANON_DNAN;
   if (sem_dexp(n) - sem_dexp(d) >= 768) {
      *vcc = 1;
      up = s0 == d ? 128 : 0;
   } else if (sem_ddenorm(fd)) {
      up = 128;
   } else if (sem_ddenorm(1.0 / fd) && sem_ddenorm(fn / fd)) {
      *vcc = 1;
      up = s0 == d ? -128 : 0;
   } else if (sem_ddenorm(1.0 / fd)) {
      up = -128;
   } else if (sem_ddenorm(fn / fd)) {
      *vcc = 1;
      up = s0 == n ? 128 : 0;
   } else if (sem_dexp(n) <= 53) {
      up = 128;
   }
   return up ? sem_dres(ldexp(sem_d(s0), up)) : s0;
}

static inline uint64_t
sem_ddiv_fmas(uint64_t a, uint64_t b, uint64_t c, uint32_t vcc)
{
   double s = fma(sem_d(a), sem_d(b), sem_d(c));
   if (vcc & 1u)
      s = ldexp(s, sem_dexp(c) > 1023 ? 128 : -128);
   return sem_dres(s);
}

static inline uint64_t
sem_ddiv_fixup(uint64_t q, uint64_t d, uint64_t n)
{
   const uint64_t sg = 1ull << 63, inf = 0x7ff0000000000000ull;
   uint64_t sign = (d ^ n) & sg, ad = d & ~sg, an = n & ~sg;
   if (sem_disnan(n) || sem_disnan(d) || (!ad && !an) || (ad == inf && an == inf))
      return SEM_CANON_DNAN;
   if (!ad || an == inf)
      return sign | inf;
   if (ad == inf || !an || sem_dexp(n) - sem_dexp(d) < -1075)
      return sign;
   if (sem_dexp(q) == 0x7ff) /* the steps overflowed: so does the quotient */
      return sign | inf;
   return sign | (q & ~sg);
}

/* ---- cube maps (gfx9 v_cubeid/v_cubesc/v_cubetc/v_cubema) ----------- */

/* The major axis of direction (x, y, z), as AMD documents the four ops:
 * z when |z| >= |x| and |z| >= |y|, else y when |y| >= |x|, else x (ties
 * go to z, then y; a compare with a NaN is false, so a NaN falls through
 * towards x). The sign tests are `< 0`, so -0 picks the positive face.
 * Every consumer of a cube direction uses this one rule: these ops, and
 * the texture sampler (emu/env.c) the golden interpreter and every
 * emulator share. */
enum sem_cube_part { SEM_CUBE_ID, SEM_CUBE_SC, SEM_CUBE_TC, SEM_CUBE_MA };

static inline uint32_t
sem_cube(enum sem_cube_part part, uint32_t x, uint32_t y, uint32_t z)
{
   float fx = sem_f(x), fy = sem_f(y), fz = sem_f(z);
   float ax = fabsf(fx), ay = fabsf(fy), az = fabsf(fz);
   float id, sc, tc, ma;
   if (az >= ax && az >= ay) { /* +Z 4, -Z 5 */
      id = fz < 0.0f ? 5.0f : 4.0f;
      sc = fz < 0.0f ? -fx : fx;
      tc = -fy;
      ma = 2.0f * fz;
   } else if (ay >= ax) { /* +Y 2, -Y 3 */
      id = fy < 0.0f ? 3.0f : 2.0f;
      sc = fx;
      tc = fy < 0.0f ? -fz : fz;
      ma = 2.0f * fy;
   } else { /* +X 0, -X 1 */
      id = fx < 0.0f ? 1.0f : 0.0f;
      sc = fx < 0.0f ? fz : -fz;
      tc = -fy;
      ma = 2.0f * fx;
   }
   float r[4] = {id, sc, tc, ma};
   return sem_fres(r[part]);
}

/* A face coordinate as the gfx9 texture unit takes it, from sc (or tc)
 * and ma (sem_cube): sc / |ma| + 1.5, in [1, 2] (ma is twice the major
 * coordinate); the texel is that minus 1, in [0, 1], scaled by the face's
 * size. The division is correctly rounded: compilers divide exactly. */
static inline float
sem_cube_coord(float sc, float ma)
{
   return sc / fabsf(ma) + 1.5f;
}

/* gfx9 scalar ops on 64-bit values (mov not and or xor andn2 orn2
 * cselect, ucmp by a->cond, the saveexec family: d1 is the new exec);
 * false if s is not
 * one. sem_scc: the SCC a scalar op with an implicit scc destination
 * writes, from its first two sources and its result (isa.h). */
bool sem_salu64(enum isa_sem s, const struct sem_args *a, const uint64_t *src, uint64_t *d0,
                uint64_t *d1);
uint32_t sem_scc(enum isa_sem s, enum isa_type t, uint64_t a, uint64_t b, uint64_t d);

#endif
