/*
 * The out-of-line half of the semantics: half-float conversions, cov
 * between any two types, and sem_eval(), the switch from ISA_SEM_* to the
 * inline functions of sem.h that the constant folder (and any caller that
 * has a semantics id rather than a function) uses; and sem_args_of(), the
 * one mapping from an instruction's modifiers and operands to those
 * functions' arguments, shared by the emulator's decoder and the
 * optimizing compiler's evaluator so the two cannot drift apart.
 *
 * Conversions produce the bits the destination register holds: 16- and
 * 8-bit integer results are 16-bit patterns (s8 sign-extended to 16 bits),
 * zero-extended to 32; f16 results are the 16-bit IEEE half.
 */
#include "isa/sem.h"
#include "isa/isa_priv.h"
#include "util/util.h"

/* Round to nearest even; overflow -> inf, NaN -> canonical 0x7e00. */
uint32_t
sem_f32_to_f16(uint32_t f)
{
   uint32_t sign = (f >> 16) & 0x8000u, exp = (f >> 23) & 0xffu, man = f & 0x7fffffu;
   if (exp == 0xff)
      return sign | (man ? 0x7e00u : 0x7c00u);
   int e = (int)exp - 127 + 15;
   if (e >= 31)
      return sign | 0x7c00u;
   if (e <= 0) {
      if (e < -10)
         return sign; /* below half the smallest denormal */
      man |= 0x800000u;
      unsigned shift = (unsigned)(14 - e);
      uint32_t h = man >> shift, rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
      h += rem > half || (rem == half && (h & 1));
      return sign | h;
   }
   uint32_t h = ((uint32_t)e << 10) | (man >> 13), rem = man & 0x1fffu;
   h += rem > 0x1000u || (rem == 0x1000u && (h & 1)); /* may carry into inf: correct */
   return sign | h;
}

uint32_t
sem_f16_to_f32(uint32_t h)
{
   uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
   if (exp == 0x1f)
      return sign | 0x7f800000u | (man << 13);
   if (exp)
      return sign | ((exp + 112) << 23) | (man << 13);
   if (!man)
      return sign;
   /* Denormal: normalise. */
   int e = 113;
   while (!(man & 0x400u)) {
      man <<= 1;
      e--;
   }
   return sign | ((uint32_t)e << 23) | ((man & 0x3ffu) << 13);
}

static bool
type_signed(enum isa_type t)
{
   return t == ISA_TYPE_S8 || t == ISA_TYPE_S16 || t == ISA_TYPE_S32 || t == ISA_TYPE_S64;
}

/* An integer source value widened to 32 bits according to its type. */
static uint32_t
int_in(enum isa_type t, uint32_t v)
{
   switch (t) {
   case ISA_TYPE_U8:
      return v & 0xffu;
   case ISA_TYPE_S8:
      return ((v & 0xffu) ^ 0x80u) - 0x80u;
   case ISA_TYPE_U16:
   case ISA_TYPE_B16:
      return v & 0xffffu;
   case ISA_TYPE_S16:
      return ((v & 0xffffu) ^ 0x8000u) - 0x8000u;
   default:
      return v;
   }
}

/* A 32-bit integer stored into a register of type t. */
static uint32_t
int_out(enum isa_type t, uint32_t v)
{
   switch (t) {
   case ISA_TYPE_U8:
      return v & 0xffu;
   case ISA_TYPE_S8:
      return (((v & 0xffu) ^ 0x80u) - 0x80u) & 0xffffu;
   case ISA_TYPE_U16:
   case ISA_TYPE_S16:
   case ISA_TYPE_B16:
      return v & 0xffffu;
   default:
      return v;
   }
}

/* An integer source of type t as a signed 64-bit value, and a 64-bit
 * result saturated to t's range (gfx9's clamp on integer add and sub:
 * unsigned results stop at 0 and the maximum, signed ones at both ends). */
static int64_t
int_wide(enum isa_type t, uint32_t v)
{
   uint32_t x = int_in(t, v);
   return type_signed(t) ? (int64_t)(int32_t)x : (int64_t)x;
}

static uint32_t
int_sat(enum isa_type t, int64_t x)
{
   bool s = type_signed(t);
   unsigned bits = MIN2(isa_type_bits(t), 32u);
   int64_t lo = s ? -(1ll << (bits - 1)) : 0;
   int64_t hi = s ? (1ll << (bits - 1)) - 1 : (1ll << bits) - 1;
   x = x < lo ? lo : x > hi ? hi : x;
   return int_out(t, (uint32_t)x);
}

/* MIN2(isa_type_bits(t), 32), inline for the common integer types. */
static inline unsigned
int_bits(enum isa_type t)
{
   switch (t) {
   case ISA_TYPE_U8:
   case ISA_TYPE_S8:
      return 8;
   case ISA_TYPE_U16:
   case ISA_TYPE_S16:
   case ISA_TYPE_B16:
      return 16;
   case ISA_TYPE_U32:
   case ISA_TYPE_S32:
   case ISA_TYPE_B32:
      return 32;
   default:
      return MIN2(isa_type_bits(t), 32u);
   }
}

/* Saturating float -> narrow integer. */
static uint32_t
f2i_narrow(uint32_t f32, enum isa_type to, unsigned round)
{
   bool s = type_signed(to);
   uint32_t v = sem_f2i(f32, s, round);
   unsigned bits = int_bits(to);
   int64_t lo = s ? -(1ll << (bits - 1)) : 0;
   int64_t hi = s ? (1ll << (bits - 1)) - 1 : (1ll << bits) - 1;
   int64_t x = s ? (int64_t)(int32_t)v : (int64_t)v;
   x = x < lo ? lo : x > hi ? hi : x;
   return int_out(to, (uint32_t)x);
}

/* One conversion with the type classes given: sem_cov and sem_cov_lanes
 * (which classifies once per instruction) share it. */
static inline uint32_t
cov1(enum isa_type from, enum isa_type to, bool ff, bool tf, unsigned round, uint32_t v)
{
   if (from == to)
      return v;
   if (ff && tf) {
      if (from == ISA_TYPE_F16)
         return sem_f16_to_f32(v & 0xffffu);
      return sem_f32_to_f16(v);
   }
   if (ff) {
      uint32_t f32 = from == ISA_TYPE_F16 ? sem_f16_to_f32(v & 0xffffu) : v;
      return f2i_narrow(f32, to, round);
   }
   uint32_t x = int_in(from, v);
   if (tf) {
      uint32_t f32 = sem_i2f(x, type_signed(from));
      return to == ISA_TYPE_F16 ? sem_f32_to_f16(f32) : f32;
   }
   return int_out(to, x);
}

uint32_t
sem_cov(enum isa_type from, enum isa_type to, unsigned round, uint32_t v)
{
   return cov1(from, to, isa_type_is_float(from), isa_type_is_float(to), round, v);
}

/* cov1 over n lanes; where it is inlined with constant types, the type
 * switches fold away and only the one conversion stays in the loop. */
#if defined(__GNUC__)
#define SEM_INLINE inline __attribute__((always_inline))
#else
#define SEM_INLINE inline
#endif
static SEM_INLINE void
cov_loop(enum isa_type from, enum isa_type to, bool ff, bool tf, unsigned round, unsigned n,
         uint32_t *d, const uint32_t *s)
{
   for (unsigned i = 0; i < n; i++)
      d[i] = cov1(from, to, ff, tf, round, s[i]);
}

/* The pairs of these types get a loop of their own (the float flag is
 * isa_type_is_float's). */
/* clang-format off */
#define COV_FROM(X) X(F16, 1) X(F32, 1) X(U8, 0) X(S8, 0) X(U16, 0) X(S16, 0) X(U32, 0) X(S32, 0)
#define COV_TO(Y, F, FF) \
   Y(F, FF, F16, 1) Y(F, FF, F32, 1) Y(F, FF, U8, 0) Y(F, FF, S8, 0) \
   Y(F, FF, U16, 0) Y(F, FF, S16, 0) Y(F, FF, U32, 0) Y(F, FF, S32, 0)
#define COV_CASE_(F, FF, T, TF) \
   case ISA_TYPE_##F * ISA_TYPE_COUNT + ISA_TYPE_##T: \
      cov_loop(ISA_TYPE_##F, ISA_TYPE_##T, FF, TF, round, n, d, s); \
      return;
#define COV_FROM_(F, FF) COV_TO(COV_CASE_, F, FF)
/* clang-format on */

void
sem_cov_lanes(enum isa_type from, enum isa_type to, unsigned round, unsigned n, uint32_t *d,
              const uint32_t *s)
{
   switch ((unsigned)from * ISA_TYPE_COUNT + (unsigned)to) {
      COV_FROM(COV_FROM_)
   default:
      cov_loop(from, to, isa_type_is_float(from), isa_type_is_float(to), round, n, d, s);
   }
}
#undef COV_FROM_
#undef COV_CASE_
#undef COV_TO
#undef COV_FROM

#define SEM_VN_NAME_(n, s) s,
static const char *const value_names[SEM_VN_COUNT] = {SEM_VALUE_NAMES(SEM_VN_NAME_)};
#undef SEM_VN_NAME_

/* The condition names open the list, in enum sem_cond order. */
_Static_assert(SEM_VN_LT == (int)SEM_LT && SEM_VN_ONE == (int)SEM_ONE &&
                   SEM_VN_NEU == (int)SEM_COND_COUNT,
               "SEM_VALUE_NAMES starts with the sem_cond names");

int
sem_cond_find(const char *name)
{
   for (int i = 0; i < SEM_COND_COUNT; i++)
      if (!strcmp(value_names[i], name))
         return i;
   return !strcmp(name, "neu") ? SEM_NE : -1;
}

static bool
eval_unary(enum isa_sem s, const struct sem_args *a, uint32_t x, uint32_t *d)
{
   switch (s) {
   case ISA_SEM_MOV:
   case ISA_SEM_FABSNEG:
   case ISA_SEM_IABSNEG:
      *d = x; /* the source modifiers did the work */
      return true;
   case ISA_SEM_COV:
      *d = sem_cov(a->src_type, a->dst_type, a->round, x);
      return true;
   case ISA_SEM_FSIGN:
      *d = sem_fsign(x);
      return true;
   case ISA_SEM_FFLOOR:
      *d = sem_ffloor(x);
      return true;
   case ISA_SEM_FCEIL:
      *d = sem_fceil(x);
      return true;
   case ISA_SEM_FTRUNC:
      *d = sem_ftrunc(x);
      return true;
   case ISA_SEM_FRNDNE:
      *d = sem_frndne(x);
      return true;
   case ISA_SEM_FRNDAZ:
      *d = sem_frndaz(x);
      return true;
   case ISA_SEM_NOT:
      *d = sem_not(x);
      return true;
   case ISA_SEM_BFREV:
      *d = sem_bfrev(x);
      return true;
   case ISA_SEM_CBITS:
      *d = sem_cbits(x);
      return true;
   case ISA_SEM_CLZ_B:
      *d = sem_clz_b(x);
      return true;
   case ISA_SEM_CLZ_S:
      *d = sem_clz_s(x);
      return true;
   case ISA_SEM_RCP:
      *d = sem_rcp(x);
      return true;
   case ISA_SEM_RSQ:
      *d = sem_rsq(x);
      return true;
   case ISA_SEM_LOG2:
      *d = sem_log2(x);
      return true;
   case ISA_SEM_EXP2:
      *d = sem_exp2(x);
      return true;
   case ISA_SEM_SIN:
      *d = sem_sin(x);
      return true;
   case ISA_SEM_COS:
      *d = sem_cos(x);
      return true;
   case ISA_SEM_SQRT:
      *d = sem_sqrt(x);
      return true;
   default:
      return false;
   }
}

static bool
eval_binary(enum isa_sem s, const struct sem_args *a, uint32_t x, uint32_t y, uint32_t *d)
{
   switch (s) {
   case ISA_SEM_FADD:
      *d = sem_fadd(x, y);
      return true;
   case ISA_SEM_FMUL:
      *d = sem_fmul(x, y);
      return true;
   case ISA_SEM_FMIN:
      *d = sem_fmin(x, y);
      return true;
   case ISA_SEM_FMAX:
      *d = sem_fmax(x, y);
      return true;
   case ISA_SEM_FCMP:
      *d = sem_fcmp(a->cond, x, y);
      return true;
   case ISA_SEM_UCMP:
      *d = sem_ucmp(a->cond, x, y);
      return true;
   case ISA_SEM_SCMP:
      *d = sem_scmp(a->cond, x, y);
      return true;
   case ISA_SEM_IADD:
      *d = a->flags & SEM_FL_SAT
               ? int_sat(a->type, (int64_t)int_wide(a->type, x) + int_wide(a->type, y))
               : sem_iadd(x, y);
      return true;
   case ISA_SEM_ISUB:
      *d = a->flags & SEM_FL_SAT
               ? int_sat(a->type, (int64_t)int_wide(a->type, x) - int_wide(a->type, y))
               : sem_isub(x, y);
      return true;
   case ISA_SEM_UMUL24:
      *d = sem_umul24(x, y);
      return true;
   case ISA_SEM_SMUL24:
      *d = sem_smul24(x, y);
      return true;
   case ISA_SEM_MULL_U:
      *d = sem_mull_u(x, y);
      return true;
   case ISA_SEM_MUL_LO: /* the low 32 bits of the full product (gfx9 v_mul_lo_u32) */
      *d = x * y;
      return true;
   case ISA_SEM_UMIN:
      *d = sem_umin(x, y);
      return true;
   case ISA_SEM_UMAX:
      *d = sem_umax(x, y);
      return true;
   case ISA_SEM_SMIN:
      *d = sem_smin(x, y);
      return true;
   case ISA_SEM_SMAX:
      *d = sem_smax(x, y);
      return true;
   case ISA_SEM_AND:
      *d = sem_and(x, y);
      return true;
   case ISA_SEM_OR:
      *d = sem_or(x, y);
      return true;
   case ISA_SEM_XOR:
      *d = sem_xor(x, y);
      return true;
   case ISA_SEM_ANDN2:
      *d = x & ~y;
      return true;
   case ISA_SEM_ORN2:
      *d = x | ~y;
      return true;
   case ISA_SEM_SHL:
      *d = sem_shl(x, y);
      return true;
   case ISA_SEM_SHR:
      *d = sem_shr(x, y);
      return true;
   case ISA_SEM_ASHR:
      *d = sem_ashr(x, y);
      return true;
   default:
      return false;
   }
}

/* The sm50 semantics with three sources or two results. */
static bool
eval_sm50(enum isa_sem s, const struct sem_args *a, const uint32_t *src, uint32_t *dst)
{
   bool sg = type_signed(a->type);
   switch (s) {
   case ISA_SEM_FSETP:
      sem_setp((uint32_t)sem_fcmp_bool(a->cond, src[0], src[1]), src[2], a->bop, &dst[0], &dst[1]);
      return true;
   case ISA_SEM_ISETP:
      sem_setp(sg ? sem_scmp(a->cond, src[0], src[1]) : sem_ucmp(a->cond, src[0], src[1]), src[2],
               a->bop, &dst[0], &dst[1]);
      return true;
   case ISA_SEM_PSETP:
      sem_setp(sem_bop(a->bop2, src[0], src[1]), src[2], a->bop, &dst[0], &dst[1]);
      return true;
   case ISA_SEM_FSET:
      *dst = sem_fset((uint32_t)sem_fcmp_bool(a->cond, src[0], src[1]), src[2], a->bop,
                      (a->flags & SEM_FL_BF) != 0);
      return true;
   case ISA_SEM_FMNMX:
      *dst = sem_fmnmx(src[0], src[1], src[2]);
      return true;
   case ISA_SEM_IMNMX:
      *dst = sem_imnmx(src[0], src[1], src[2], sg);
      return true;
   case ISA_SEM_SHF_L:
   case ISA_SEM_SHF_R:
      *dst = sem_shf(s == ISA_SEM_SHF_R, src[0], src[1], src[2], a->mode,
                     (a->flags & SEM_FL_WRAP) != 0, (a->flags & SEM_FL_HI) != 0);
      return true;
   case ISA_SEM_SHL_CLAMP:
      *dst = sem_shl_clamp(src[0], src[1], (a->flags & SEM_FL_WRAP) != 0);
      return true;
   case ISA_SEM_SHR_CLAMP:
      *dst = sem_shr_clamp(src[0], src[1], sg, (a->flags & SEM_FL_WRAP) != 0,
                           (a->flags & SEM_FL_BREV) != 0);
      return true;
   case ISA_SEM_XMAD:
      *dst = sem_xmad(src[0], src[1], src[2], a->hi_srcs & 1, (a->hi_srcs >> 1) & 1,
                      (a->flags & SEM_FL_PSL) != 0, (a->flags & SEM_FL_MRG) != 0, a->mode);
      return true;
   case ISA_SEM_ISCADD:
      *dst = sem_iscadd(src[0], src[1], src[2]);
      return true;
   case ISA_SEM_IADD3:
      *dst = sem_iadd3(src[0], src[1], src[2]);
      return true;
   case ISA_SEM_FLO:
      *dst = sem_flo(src[0], sg);
      return true;
   case ISA_SEM_BFE:
      *dst = sem_bfe(src[0], src[1], sg, (a->flags & SEM_FL_BREV) != 0);
      return true;
   case ISA_SEM_BFI:
      *dst = sem_bfi(src[0], src[1], src[2]);
      return true;
   default:
      return false;
   }
}

/* The gfx9 (GCN) VALU semantics (sem.h). */
static bool
eval_gcn(enum isa_sem s, const uint32_t *x, uint32_t *d)
{
   switch (s) {
   case ISA_SEM_FSUB:
      *d = sem_fsub(x[0], x[1]);
      return true;
   case ISA_SEM_FMUL_LEGACY:
      *d = sem_fmul_legacy(x[0], x[1]);
      return true;
   case ISA_SEM_FRACT:
      *d = sem_fract(x[0]);
      return true;
   case ISA_SEM_CUBEID:
   case ISA_SEM_CUBESC:
   case ISA_SEM_CUBETC:
   case ISA_SEM_CUBEMA:
      *d = sem_cube((enum sem_cube_part)(s - ISA_SEM_CUBEID), x[0], x[1], x[2]);
      return true;
   case ISA_SEM_SIN_REV:
      *d = sem_sin_rev(x[0]);
      return true;
   case ISA_SEM_COS_REV:
      *d = sem_cos_rev(x[0]);
      return true;
   case ISA_SEM_SIN_PT_1:
      *d = sem_sin_pt_1(x[0]);
      return true;
   case ISA_SEM_SIN_PT_2:
      *d = sem_sin_pt_2(x[0]);
      return true;
   case ISA_SEM_CVT_UBYTE0:
   case ISA_SEM_CVT_UBYTE1:
   case ISA_SEM_CVT_UBYTE2:
   case ISA_SEM_CVT_UBYTE3:
      *d = sem_cvt_ubyte(x[0], (unsigned)(s - ISA_SEM_CVT_UBYTE0));
      return true;
   case ISA_SEM_MUL_HI_U:
      *d = sem_mul_hi_u(x[0], x[1]);
      return true;
   case ISA_SEM_MUL_HI_I:
      *d = sem_mul_hi_i(x[0], x[1]);
      return true;
   case ISA_SEM_LSHL_OR:
      *d = (x[0] << (x[1] & 31)) | x[2];
      return true;
   case ISA_SEM_LSHL_ADD:
      *d = (x[0] << (x[1] & 31)) + x[2];
      return true;
   case ISA_SEM_ADD_LSHL:
      *d = (x[0] + x[1]) << (x[2] & 31);
      return true;
   case ISA_SEM_OR3:
      *d = x[0] | x[1] | x[2];
      return true;
   case ISA_SEM_AND_OR:
      *d = (x[0] & x[1]) | x[2];
      return true;
   case ISA_SEM_XAD:
      *d = (x[0] ^ x[1]) + x[2];
      return true;
   case ISA_SEM_FMAX3:
      *d = sem_fmax(sem_fmax(x[0], x[1]), x[2]);
      return true;
   case ISA_SEM_FMIN3:
      *d = sem_fmin(sem_fmin(x[0], x[1]), x[2]);
      return true;
   case ISA_SEM_FMED3:
      *d = sem_fmed3(x[0], x[1], x[2]);
      return true;
   case ISA_SEM_SMAX3:
      *d = sem_smax(sem_smax(x[0], x[1]), x[2]);
      return true;
   case ISA_SEM_SMIN3:
      *d = sem_smin(sem_smin(x[0], x[1]), x[2]);
      return true;
   case ISA_SEM_UMAX3:
      *d = sem_umax(sem_umax(x[0], x[1]), x[2]);
      return true;
   case ISA_SEM_UMIN3:
      *d = sem_umin(sem_umin(x[0], x[1]), x[2]);
      return true;
   case ISA_SEM_SMED3:
   case ISA_SEM_UMED3:
      *d = sem_imed3(x[0], x[1], x[2], s == ISA_SEM_SMED3);
      return true;
   case ISA_SEM_UBFE3:
   case ISA_SEM_SBFE3:
      *d = sem_bfe3(x[0], x[1], x[2], s == ISA_SEM_SBFE3);
      return true;
   case ISA_SEM_BITSEL:
      *d = (x[0] & x[1]) | (~x[0] & x[2]);
      return true;
   case ISA_SEM_FFBH:
      *d = sem_ffbh(x[0]);
      return true;
   case ISA_SEM_FFBH_I:
      *d = sem_ffbh_i(x[0]);
      return true;
   case ISA_SEM_FFBL:
      *d = sem_ffbl(x[0]);
      return true;
   /* The carry ops (v_add_co_u32 and kin): the second result is the
    * lane's carry (borrow) bit; addc/subb take the carry in as their
    * third source, one bit per lane. */
   case ISA_SEM_LDEXP:
      *d = sem_ldexp(x[0], x[1]);
      return true;
   case ISA_SEM_PERM:
      *d = sem_perm(x[0], x[1], x[2]);
      return true;
   case ISA_SEM_ADD_CO:
      d[0] = x[0] + x[1];
      d[1] = d[0] < x[0];
      return true;
   case ISA_SEM_SUB_CO:
      d[0] = x[0] - x[1];
      d[1] = x[1] > x[0];
      return true;
   case ISA_SEM_ADDC_CO: {
      uint64_t t = (uint64_t)x[0] + x[1] + (x[2] & 1);
      d[0] = (uint32_t)t;
      d[1] = (uint32_t)(t >> 32);
      return true;
   }
   case ISA_SEM_SUBB_CO: {
      uint64_t t = (uint64_t)x[0] - x[1] - (x[2] & 1);
      d[0] = (uint32_t)t;
      d[1] = (uint32_t)(t >> 32) & 1;
      return true;
   }
   case ISA_SEM_BCNT:
      *d = sem_cbits(x[0]) + x[1];
      return true;
   case ISA_SEM_S_UBFE:
   case ISA_SEM_S_SBFE:
      *d = sem_s_bfe(x[0], x[1], s == ISA_SEM_S_SBFE);
      return true;
   case ISA_SEM_IABS:
      *d = (int32_t)x[0] < 0 ? 0u - x[0] : x[0];
      return true;
   /* s_bitset0/1_b32: x[1] is the destination's old value */
   case ISA_SEM_BITSET0:
      *d = x[1] & ~(1u << (x[0] & 31u));
      return true;
   case ISA_SEM_BITSET1:
      *d = x[1] | 1u << (x[0] & 31u);
      return true;
   /* s_bitcmp0/1_b32: SCC is bit (x[1] & 31) of x[0], tested for 0 or 1 */
   case ISA_SEM_BITCMP0:
      *d = (x[0] >> (x[1] & 31u) & 1u) == 0;
      return true;
   case ISA_SEM_BITCMP1:
      *d = x[0] >> (x[1] & 31u) & 1u;
      return true;
   case ISA_SEM_ALIGNBIT:
      *d = sem_alignbit(x[0], x[1], x[2]);
      return true;
   case ISA_SEM_DIV_SCALE:
      d[0] = sem_div_scale(x[0], x[1], x[2], &d[1]);
      return true;
   case ISA_SEM_DIV_FMAS: /* x[3]: the lane's vcc bit */
      *d = sem_div_fmas(x[0], x[1], x[2], x[3]);
      return true;
   case ISA_SEM_DIV_FIXUP:
      *d = sem_div_fixup(x[0], x[1], x[2]);
      return true;
   default:
      return false;
   }
}

bool
sem_eval(enum isa_sem s, const struct sem_args *a, const uint32_t *src, uint32_t *dst)
{
   if (eval_sm50(s, a, src, dst) || eval_gcn(s, src, dst))
      return true;
   switch (s) {
   case ISA_SEM_FMAD:
      *dst = sem_fmad(src[0], src[1], src[2]);
      return true;
   case ISA_SEM_FFMA:
      *dst = sem_ffma(src[0], src[1], src[2]);
      return true;
   case ISA_SEM_UMAD24:
      *dst = sem_umad24(src[0], src[1], src[2]);
      return true;
   case ISA_SEM_SMAD24:
      *dst = sem_smad24(src[0], src[1], src[2]);
      return true;
   case ISA_SEM_MADSH_M16:
      *dst = sem_madsh_m16(src[0], src[1], src[2]);
      return true;
   case ISA_SEM_SEL:
      *dst = sem_sel(src[0], src[1], src[2]);
      return true;
   case ISA_SEM_CNDMASK:
      *dst = sem_cndmask(src[0], src[1], src[2]);
      return true;
   case ISA_SEM_CSELECT:
      *dst = src[2] & 1 ? src[0] : src[1];
      return true;
   case ISA_SEM_FSEL:
      *dst = sem_fsel(src[0], src[1], src[2]);
      return true;
   case ISA_SEM_FCMPSEL:
      *dst = sem_fcmp_bool(a->cond, src[0], src[1]) ? src[2] : src[3];
      return true;
   case ISA_SEM_ICMPSEL:
      *dst = (sem_icmpsel_unsigned(a->type) ? sem_ucmp(a->cond, src[0], src[1])
                                            : sem_scmp(a->cond, src[0], src[1]))
                 ? src[2]
                 : src[3];
      return true;
   default:
      break;
   }
   int ar = isa_sem_arity(s);
   if (ar == 1)
      return eval_unary(s, a, src[0], dst);
   if (ar == 2)
      return eval_binary(s, a, src[0], src[1], dst);
   return false;
}

/* ------------------------------------------------------------------ */
/* Instruction -> sem_args                                              */

enum isa_type
sem_slot_type(const struct isa_model *m, const struct isa_insn *in, int slot, unsigned *width)
{
   unsigned w;
   enum isa_type t = isa_opnd_type(m, in, slot, &w);
   if (width)
      *width = w;
   if (w != 16)
      return t;
   switch (t) {
   case ISA_TYPE_F32:
      return ISA_TYPE_F16;
   case ISA_TYPE_U32:
      return ISA_TYPE_U16;
   case ISA_TYPE_S32:
      return ISA_TYPE_S16;
   case ISA_TYPE_B32:
      return ISA_TYPE_B16;
   default:
      return t;
   }
}

/* Resolves every SEM_VALUE_NAMES entry for every modifier once, at model
 * load: sem_args_of runs for every instruction the emulator loads. */
void
sem_build_values(struct isa_model *m)
{
   m->sem_values = xcalloc(m->nmods ? m->nmods : 1, SEM_VN_COUNT * sizeof(*m->sem_values));
   for (unsigned k = 0; k < m->nmods; k++)
      for (unsigned v = 0; v < SEM_VN_COUNT; v++)
         m->sem_values[k * SEM_VN_COUNT + v] = isa_mod_value(m, k, value_names[v]);
}

int
sem_mod_value(const struct isa_model *m, unsigned mod, enum sem_vname v)
{
   return mod < m->nmods ? m->sem_values[mod * SEM_VN_COUNT + v] : -1;
}

static int
mod_val(const struct isa_model *m, const struct isa_insn *in, enum isa_role r)
{
   int k = isa_mod_by_role(m, r);
   return k >= 0 && k < ISA_MAX_MODS ? in->mod[k] : 0;
}

/* The compare condition: the op's flip modifier (the sm50 compares whose
 * operands the scheduler may swap), else the cond role, by value name;
 * ne when the op has neither. */
static enum sem_cond
cond_of(const struct isa_model *m, const struct isa_insn *in)
{
   /* The condition names open SEM_VALUE_NAMES; neu is another name for ne. */
   int flip = m->ops[in->op].flip_mod;
   int cm = flip >= 0 ? flip : isa_mod_by_role(m, ISA_ROLE_COND);
   for (unsigned i = 0; cm >= 0 && i <= SEM_VN_NEU; i++)
      if (sem_mod_value(m, (unsigned)cm, (enum sem_vname)i) == in->mod[cm])
         return i == SEM_VN_NEU ? SEM_NE : (enum sem_cond)i;
   return SEM_NE;
}

/* Rounding by value name -> sem_f2i/sem_cov rounding (0 truncate, 1
 * nearest even, 2 toward +inf, 3 toward -inf). Both spellings in use (ir3
 * "(even)", NVIDIA ".RM"); a missing entry truncates. */
static unsigned
round_of(const struct isa_model *m, const struct isa_insn *in)
{
   int rm = isa_mod_by_role(m, ISA_ROLE_ROUND);
   unsigned round = 0;
   for (unsigned i = 0; rm >= 0 && i <= SEM_VN_RM - SEM_VN_DEFAULT; i++)
      if (sem_mod_value(m, (unsigned)rm, (enum sem_vname)(SEM_VN_DEFAULT + i)) == in->mod[rm])
         round = i % 4;
   return round;
}

void
sem_args_of(const struct isa_model *m, const struct isa_insn *in, struct sem_args *a)
{
   memset(a, 0, sizeof(*a));
   a->cond = cond_of(m, in);
   a->round = round_of(m, in);
   static const enum sem_vname bops[] = {SEM_VN_AND, SEM_VN_OR, SEM_VN_XOR};
   static const enum sem_bop bopv[] = {SEM_BOP_AND, SEM_BOP_OR, SEM_BOP_XOR};
   int sm = isa_mod_by_role(m, ISA_ROLE_SETOP), sm2 = isa_mod_by_role(m, ISA_ROLE_SETOP2);
   for (unsigned i = 0; i < ARRAY_SIZE(bops); i++) {
      if (sm >= 0 && sem_mod_value(m, (unsigned)sm, bops[i]) == in->mod[sm])
         a->bop = bopv[i];
      if (sm2 >= 0 && sem_mod_value(m, (unsigned)sm2, bops[i]) == in->mod[sm2])
         a->bop2 = bopv[i];
   }
   static const struct {
      enum isa_role role;
      unsigned flag;
   } flags[] = {{ISA_ROLE_WRAP, SEM_FL_WRAP}, {ISA_ROLE_HI, SEM_FL_HI},
                {ISA_ROLE_BREV, SEM_FL_BREV}, {ISA_ROLE_PSL, SEM_FL_PSL},
                {ISA_ROLE_MRG, SEM_FL_MRG},   {ISA_ROLE_BF, SEM_FL_BF},
                {ISA_ROLE_ISAT, SEM_FL_SAT}};
   for (unsigned i = 0; i < ARRAY_SIZE(flags); i++)
      if (mod_val(m, in, flags[i].role))
         a->flags |= flags[i].flag;
   int xm = mod_val(m, in, ISA_ROLE_XMODE);
   a->mode = (unsigned)(xm ? xm : mod_val(m, in, ISA_ROLE_SHFTYPE));
   for (unsigned i = 0; i < in->nsrc; i++)
      if (in->src[i].flags & ISA_OPND_F_HI)
         a->hi_srcs |= 1u << i;
   a->src_type = in->nsrc ? sem_slot_type(m, in, ISA_SLOT_SRC(0), NULL) : ISA_TYPE_NONE;
   a->dst_type = in->ndst ? sem_slot_type(m, in, ISA_SLOT_DST(0), NULL) : ISA_TYPE_NONE;
   a->type = in->nsrc ? a->src_type : a->dst_type;
}

/* ------------------------------------------------------------------ */
/* Scalar ops (gfx9 SALU): 64-bit values, the saveexec family, SCC.    */

bool
sem_salu64(enum isa_sem s, const struct sem_args *args, const uint64_t *src, uint64_t *d0,
           uint64_t *d1)
{
   uint64_t a = src[0], b = src[1];
   switch (s) {
   case ISA_SEM_UCMP: /* s_cmp_eq_u64 and s_cmp_lg_u64 */
      switch (args->cond) {
      case SEM_EQ:
         *d0 = a == b;
         return true;
      case SEM_NE:
         *d0 = a != b;
         return true;
      default:
         return false;
      }
   case ISA_SEM_MOV:
      *d0 = a;
      return true;
   case ISA_SEM_SHL64: /* s_lshl_b64, s_lshr_b64, s_ashr_i64 (SCC: not 0) */
      *d0 = sem_shl64(a, (uint32_t)b);
      return true;
   case ISA_SEM_SHR64:
      *d0 = sem_shr64(a, (uint32_t)b);
      return true;
   case ISA_SEM_ASHR64:
      *d0 = sem_ashr64(a, (uint32_t)b);
      return true;
   case ISA_SEM_NOT:
      *d0 = ~a;
      return true;
   case ISA_SEM_AND:
      *d0 = a & b;
      return true;
   case ISA_SEM_OR:
      *d0 = a | b;
      return true;
   case ISA_SEM_XOR:
      *d0 = a ^ b;
      return true;
   case ISA_SEM_ANDN2:
      *d0 = a & ~b;
      return true;
   case ISA_SEM_ORN2:
      *d0 = a | ~b;
      return true;
   case ISA_SEM_CSELECT:
      *d0 = src[2] & 1 ? a : b;
      return true;
   case ISA_SEM_WQM: /* s_wqm_b64: every quad with a lane set, whole */
      *d0 = 0;
      for (unsigned q = 0; q < 64; q += 4)
         *d0 |= (a >> q & 15u) ? 15ull << q : 0;
      return true;
   case ISA_SEM_AND_SAVEEXEC: /* src[1] is exec */
      *d0 = b;
      *d1 = a & b;
      return true;
   case ISA_SEM_OR_SAVEEXEC:
      *d0 = b;
      *d1 = a | b;
      return true;
   case ISA_SEM_XOR_SAVEEXEC:
      *d0 = b;
      *d1 = a ^ b;
      return true;
   case ISA_SEM_ANDN2_SAVEEXEC:
      *d0 = b;
      *d1 = a & ~b;
      return true;
   default:
      return false;
   }
}

uint32_t
sem_scc(enum isa_sem s, enum isa_type t, uint64_t a, uint64_t b, uint64_t d)
{
   bool sg = t == ISA_TYPE_S32 || t == ISA_TYPE_S64;
   uint32_t x = (uint32_t)a, y = (uint32_t)b, r = (uint32_t)d;
   switch (s) {
   case ISA_SEM_SCMP:
   case ISA_SEM_UCMP:
      return d != 0;
   case ISA_SEM_IADD: /* u32: the carry out; s32: signed overflow */
      return sg ? ((~(x ^ y) & (x ^ r)) >> 31) : r < x;
   case ISA_SEM_ISUB: /* u32: the borrow; s32: signed overflow */
      return sg ? (((x ^ y) & (x ^ r)) >> 31) : x < y;
   case ISA_SEM_SMIN:
      return (int32_t)x < (int32_t)y;
   case ISA_SEM_UMIN:
      return x < y;
   case ISA_SEM_SMAX:
      return (int32_t)x > (int32_t)y;
   case ISA_SEM_UMAX:
      return x > y;
   default: /* bitwise, shifts and the saveexec family: the result is not 0 */
      return d != 0;
   }
}
