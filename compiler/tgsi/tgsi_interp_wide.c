/*
 * Doubles and 64-bit integers: each value spans a pair of channels, xy
 * (value 0) and zw (value 1), low word in the first channel. The channel
 * mapping follows tgsi_exec:
 *  - 64-bit results: pair p is computed when the write mask touches it,
 *    and its channels are stored as the mask says;
 *  - compares write a 32-bit ~0/0 to the first masked channel of the pair;
 *  - 32 -> 64 conversions (F2D, I2D, ...) read src.x for xy and src.y for
 *    zw, each only when both channels of the pair are in the mask;
 *  - 64 -> 32 conversions (D2F, ...) write the first masked channel from
 *    pair xy and the second masked channel from pair zw;
 *  - DLDEXP and the 64-bit shifts take their 32-bit operand from src1.x
 *    (pair xy) and src1.z (pair zw).
 * Source modifiers on 64-bit operands act on the 64-bit value: '-' flips
 * the double's sign or negates the integer, '|x|' clears the sign.
 *
 * These opcodes are rare, so each is a plain per-lane loop.
 */
#include "compiler/tgsi/tgsi.h"
#include "emu/emu.h"

#include <math.h>

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

static uint64_t
dclass(uint64_t x)
{
   uint64_t e = x & 0x7ff0000000000000ull, m = x & 0x000fffffffffffffull;
   return (e == 0 && m ? ENV_F_DENORM : 0) | (e == 0x7ff0000000000000ull && m ? ENV_F_NAN : 0);
}

static uint32_t
dden(uint64_t x)
{
   return (x & 0x7ff0000000000000ull) == 0 && (x & 0x000fffffffffffffull) ? ENV_F_DENORM : 0;
}

/* dden without branches (a denormal's magnitude less one lies below
 * 0x000fffffffffffff, as fclass's test for floats), for lane loops that
 * vectorize */
static inline uint32_t
dden_lane(uint64_t x)
{
   return (uint32_t)((x & 0x7fffffffffffffffull) - 1u < 0x000fffffffffffffull) * ENV_F_DENORM;
}

/* dclass without branches: DENORM as dden_lane, NAN above infinity */
static inline uint32_t
dclass_lane(uint64_t x)
{
   uint64_t m = x & 0x7fffffffffffffffull;
   return (uint32_t)(m - 1u < 0x000fffffffffffffull) * ENV_F_DENORM |
          (uint32_t)(m > 0x7ff0000000000000ull) * ENV_F_NAN;
}

static double
dmin_nan(double a, double b)
{
   return a != a ? b : b != b ? a : b < a ? b : a;
}

static double
dmax_nan(double a, double b)
{
   return a != a ? b : b != b ? a : b > a ? b : a;
}

static bool
d_in(double d, double lo, double hi)
{
   return d > lo && d < hi;
}

/* Conversions undefined out of range give x86-64's "integer indefinite". */
static uint64_t
d2i64(double d, uint32_t *f)
{
   if (d_in(d, -9223372036854775809.0, 9223372036854775808.0))
      return (uint64_t)(int64_t)d;
   *f |= ENV_F_UNDEF;
   return 0x8000000000000000ull;
}

static uint64_t
d2u64(double d, uint32_t *f)
{
   if (d_in(d, -1.0, 18446744073709551616.0))
      return (uint64_t)d;
   *f |= ENV_F_UNDEF;
   return 0x8000000000000000ull;
}

struct wide_src {
   uint64_t v;
   uint32_t f;
};

/* Value of 64-bit source si, pair p, lane i, modifiers applied. */
static struct wide_src
get64(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, unsigned si, unsigned p,
      unsigned i, const uint32_t *const lo[2], const uint32_t *const lof[2])
{
   (void)b;
   (void)p;
   const struct tgsi_interp_src *s = &ti->src[si];
   struct wide_src r = {lo[0][i] | (uint64_t)lo[1][i] << 32, lof[0][i] | lof[1][i]};
   if (s->type == TGSI_TYPE_D) {
      if (s->abs)
         r.v &= ~(1ull << 63);
      if (s->neg)
         r.v ^= 1ull << 63;
   } else if (s->neg) {
      r.v = 0 - r.v;
   }
   return r;
}

static uint64_t
wide_unary(enum tgsi_opcode op, uint64_t a, uint32_t *f)
{
   double d = uid(a);
   switch (op) {
   case TGSI_OP_DABS:
      return a & ~(1ull << 63);
   case TGSI_OP_DNEG:
      return a ^ (1ull << 63);
   case TGSI_OP_DRCP:
      *f |= ENV_F_RCP;
      return dui(1.0 / d);
   case TGSI_OP_DSQRT:
      *f |= ENV_F_RCP | (d < 0.0 ? ENV_F_UNDEF : 0);
      return dui(sqrt(d));
   case TGSI_OP_DRSQ:
      *f |= ENV_F_RCP | (d <= 0.0 ? ENV_F_UNDEF : 0);
      return dui(1.0 / sqrt(d));
   case TGSI_OP_DFRAC:
      return dui(d - floor(d));
   case TGSI_OP_DFLR:
      return dui(floor(d));
   case TGSI_OP_DTRUNC:
      return dui(trunc(d));
   case TGSI_OP_DCEIL:
      return dui(ceil(d));
   case TGSI_OP_DROUND:
      *f |= fabs(d - trunc(d)) == 0.5 ? ENV_F_ROUND : 0;
      return dui(nearbyint(d));
   case TGSI_OP_DSSG:
      return dui(d < 0.0 ? -1.0 : d > 0.0 ? 1.0 : 0.0);
   case TGSI_OP_D2U64:
      return d2u64(d, f);
   case TGSI_OP_D2I64:
      return d2i64(d, f);
   case TGSI_OP_U642D: {
      double r = (double)a;
      *f |= r >= 18446744073709551616.0 || (uint64_t)r != a ? ENV_F_ROUND : 0;
      return dui(r);
   }
   case TGSI_OP_I642D: {
      double r = (double)(int64_t)a;
      *f |= r >= 9223372036854775807.0 || (int64_t)r != (int64_t)a ? ENV_F_ROUND : 0;
      return dui(r);
   }
   case TGSI_OP_I64ABS:
      return (int64_t)a < 0 ? 0 - a : a;
   case TGSI_OP_I64SSG:
      return (int64_t)a < 0 ? ~0ull : a ? 1 : 0;
   case TGSI_OP_I64NEG:
      return 0 - a;
   default:
      return 0;
   }
}

static uint64_t
idiv64(uint64_t a, uint64_t b, bool mod, uint32_t *f)
{
   int64_t x = (int64_t)a, y = (int64_t)b;
   if (y == 0) {
      *f |= ENV_F_UNDEF;
      return mod ? ~0ull : 0;
   }
   if (x == INT64_MIN && y == -1) {
      *f |= ENV_F_UNDEF;
      return mod ? 0 : a;
   }
   return (uint64_t)(mod ? x % y : x / y);
}

static inline uint64_t
wide_binary(enum tgsi_opcode op, uint64_t a, uint64_t b, uint32_t *f)
{
   double x = uid(a), y = uid(b);
   switch (op) {
   case TGSI_OP_DADD:
      return dui(x + y);
   case TGSI_OP_DMUL:
      return dui(x * y);
   case TGSI_OP_DDIV:
      *f |= ENV_F_RCP;
      return dui(x / y);
   case TGSI_OP_DMIN:
   case TGSI_OP_DMAX:
      if (((a | b) & ~(1ull << 63)) == 0 && a != b)
         *f |= ENV_F_ZSIGN;
      return dui(op == TGSI_OP_DMIN ? dmin_nan(x, y) : dmax_nan(x, y));
   case TGSI_OP_U64ADD:
      return a + b;
   case TGSI_OP_U64MUL:
      return a * b;
   case TGSI_OP_U64DIV:
   case TGSI_OP_U64MOD:
      if (!b) {
         *f |= ENV_F_UNDEF;
         return ~0ull;
      }
      return op == TGSI_OP_U64DIV ? a / b : a % b;
   case TGSI_OP_I64DIV:
      return idiv64(a, b, false, f);
   case TGSI_OP_I64MOD:
      return idiv64(a, b, true, f);
   case TGSI_OP_I64MIN:
      return (int64_t)a < (int64_t)b ? a : b;
   case TGSI_OP_U64MIN:
      return a < b ? a : b;
   case TGSI_OP_I64MAX:
      return (int64_t)a > (int64_t)b ? a : b;
   case TGSI_OP_U64MAX:
      return a > b ? a : b;
   default:
      return 0;
   }
}

static bool
wide_cmp(enum tgsi_opcode op, uint64_t a, uint64_t b)
{
   double x = uid(a), y = uid(b);
   switch (op) {
   case TGSI_OP_DSLT:
      return x < y;
   case TGSI_OP_DSGE:
      return x >= y;
   case TGSI_OP_DSEQ:
      return x == y;
   case TGSI_OP_DSNE:
      return x != y;
   case TGSI_OP_U64SEQ:
      return a == b;
   case TGSI_OP_U64SNE:
      return a != b;
   case TGSI_OP_I64SLT:
      return (int64_t)a < (int64_t)b;
   case TGSI_OP_U64SLT:
      return a < b;
   case TGSI_OP_I64SGE:
      return (int64_t)a >= (int64_t)b;
   default: /* U64SGE */
      return a >= b;
   }
}

static inline uint64_t
wide_shift(enum tgsi_opcode op, uint64_t a, uint32_t s)
{
   switch (op) {
   case TGSI_OP_DLDEXP:
      return dui(ldexp(uid(a), (int32_t)s));
   case TGSI_OP_U64SHL:
      return a << (s & 63);
   case TGSI_OP_U64SHR:
      return a >> (s & 63);
   default: /* I64SHR, arithmetic */
      s &= 63;
      return (a >> 63) ? ~(~a >> s) : a >> s;
   }
}

static uint64_t
from32(enum tgsi_opcode op, uint32_t x, uint32_t *f)
{
   float fx = uif(x);
   switch (op) {
   case TGSI_OP_F2D:
      return dui((double)fx);
   case TGSI_OP_I2D:
      return dui((double)(int32_t)x);
   case TGSI_OP_U2D:
      return dui((double)x);
   case TGSI_OP_F2I64:
      return d2i64((double)fx, f);
   case TGSI_OP_F2U64:
      return d2u64((double)fx, f);
   case TGSI_OP_U2I64:
      return x;
   default: /* I2I64 */
      return (uint64_t)(int64_t)(int32_t)x;
   }
}

static uint32_t
to32(enum tgsi_opcode op, uint64_t a, uint32_t *f)
{
   double d = uid(a);
   switch (op) {
   case TGSI_OP_D2F: {
      float r = (float)d;
      *f |= (double)r != d && d == d ? ENV_F_ROUND : 0;
      return fui(r);
   }
   case TGSI_OP_D2I:
      if (d_in(d, -2147483649.0, 2147483648.0))
         return (uint32_t)(int32_t)d;
      *f |= ENV_F_UNDEF;
      return 0x80000000u;
   case TGSI_OP_D2U:
      if (d_in(d, -1.0, 4294967296.0))
         return (uint32_t)d;
      *f |= ENV_F_UNDEF;
      return d_in(d, -9223372036854775808.0, 9223372036854775808.0) ? (uint32_t)(uint64_t)(int64_t)d
                                                                    : 0;
   case TGSI_OP_U642F: {
      float r = (float)a;
      *f |= (double)r != (double)a || r >= 18446744073709551616.0f ? ENV_F_ROUND : 0;
      return fui(r);
   }
   default: { /* I642F */
      float r = (float)(int64_t)a;
      *f |= r >= 9223372036854775808.0f || (int64_t)r != (int64_t)a ? ENV_F_ROUND : 0;
      return fui(r);
   }
   }
}

static bool
is_double_result(enum tgsi_opcode op)
{
   if (op == TGSI_OP_D2U64 || op == TGSI_OP_D2I64)
      return false;
   return tgsi_op_info[op].type == TGSI_TYPE_D || op == TGSI_OP_U642D || op == TGSI_OP_I642D ||
          op == TGSI_OP_F2D || op == TGSI_OP_I2D || op == TGSI_OP_U2D;
}

static void
put64(struct tgsi_interp_batch *b, unsigned c0, unsigned i, uint64_t v, uint32_t f)
{
   b->res_v[c0][i] = (uint32_t)v;
   b->res_v[c0 + 1][i] = (uint32_t)(v >> 32);
   b->res_f[c0][i] = b->res_f[c0 + 1][i] = f;
}

/* The lane loop of pair64_arith for one opcode (a constant in each call,
 * so each loop is straight-line code). */
static inline __attribute__((always_inline)) void
arith_lanes(unsigned n, enum tgsi_opcode op, const uint32_t *const v[3][2],
            const uint32_t *const vf[3][2], const uint64_t andm[3], const uint64_t xorm[3],
            uint32_t *restrict r0, uint32_t *restrict r1, uint32_t *restrict f0,
            uint32_t *restrict f1)
{
   /* the operands' words in locals and each operand written out: GCC
    * vectorizes no loop nest (over k) and reloads pointers it may alias */
   const uint32_t *restrict a0 = v[0][0], *restrict a1 = v[0][1], *restrict af0 = vf[0][0],
                            *restrict af1 = vf[0][1];
   const uint32_t *restrict b0 = v[1][0], *restrict b1 = v[1][1], *restrict bf0 = vf[1][0],
                            *restrict bf1 = vf[1][1];
   const bool mad = op == TGSI_OP_DMAD;
   const uint32_t *restrict c0 = v[mad ? 2 : 0][0], *restrict c1 = v[mad ? 2 : 0][1];
   const uint32_t *restrict cf0 = vf[mad ? 2 : 0][0], *restrict cf1 = vf[mad ? 2 : 0][1];
   const uint64_t am = andm[0], ax = xorm[0], bm = andm[1], bx = xorm[1];
   const uint64_t cm = andm[mad ? 2 : 0], cx = xorm[mad ? 2 : 0];
   for (unsigned i = 0; i < n; i++) {
      uint64_t a = ((a0[i] | (uint64_t)a1[i] << 32) & am) ^ ax;
      uint64_t bb = ((b0[i] | (uint64_t)b1[i] << 32) & bm) ^ bx;
      uint32_t f =
          (mad ? ENV_F_FUSE : 0) | af0[i] | af1[i] | dden_lane(a) | bf0[i] | bf1[i] | dden_lane(bb);
      uint64_t c = 0;
      if (mad) {
         c = ((c0[i] | (uint64_t)c1[i] << 32) & cm) ^ cx;
         f |= cf0[i] | cf1[i] | dden_lane(c);
      }
      double x = uid(a), y = uid(bb);
      uint64_t r = op == TGSI_OP_DADD   ? dui(x + y)
                   : op == TGSI_OP_DMUL ? dui(x * y)
                                        : dui(x * y + uid(c));
      uint32_t k = dclass_lane(r);
      f |= k;
      r = k & ENV_F_NAN ? 0x7ff8000000000000ull : r; /* one quiet NaN, as for floats */
      r0[i] = (uint32_t)r;
      r1[i] = (uint32_t)(r >> 32);
      f0[i] = f1[i] = f;
   }
}

/* DADD, DMUL and DMAD of double sources: pair64's lane loop with the
 * opcode and the modifiers (masks) chosen once, not per lane. The same
 * fetches in the same order, the same values and flags. */
DC_LANES
static bool
pair64_arith(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, unsigned p)
{
   enum tgsi_opcode op = ti->op;
   unsigned nw = op == TGSI_OP_DADD || op == TGSI_OP_DMUL ? 2 : op == TGSI_OP_DMAD ? 3 : 0;
   if (!nw)
      return false;
   for (unsigned k = 0; k < nw; k++)
      if (ti->src[k].type != TGSI_TYPE_D)
         return false;
   const uint32_t *v[3][2], *vf[3][2];
   uint64_t andm[3] = {0, 0, 0}, xorm[3] = {0, 0, 0};
   for (unsigned k = 0; k < nw; k++) {
      for (unsigned h = 0; h < 2; h++)
         tgsi_interp_fetch(b, ti, k, 2 * p + h, &v[k][h], &vf[k][h]);
      andm[k] = ti->src[k].abs ? ~(1ull << 63) : ~0ull;
      xorm[k] = ti->src[k].neg ? 1ull << 63 : 0;
   }
   uint32_t *r0 = b->res_v[2 * p], *r1 = b->res_v[2 * p + 1];
   uint32_t *f0 = b->res_f[2 * p], *f1 = b->res_f[2 * p + 1];
   if (op == TGSI_OP_DADD)
      arith_lanes(b->n, TGSI_OP_DADD, v, vf, andm, xorm, r0, r1, f0, f1);
   else if (op == TGSI_OP_DMUL)
      arith_lanes(b->n, TGSI_OP_DMUL, v, vf, andm, xorm, r0, r1, f0, f1);
   else
      arith_lanes(b->n, TGSI_OP_DMAD, v, vf, andm, xorm, r0, r1, f0, f1);
   return true;
}

/* The lane loop of pair64_int for one opcode (a constant in each call):
 * wide_binary or wide_shift folded to its one case. */
static inline __attribute__((always_inline)) void
int_lanes(unsigned n, enum tgsi_opcode op, bool shift, const uint32_t *const v[2][2],
          const uint32_t *const vf[2][2], const uint64_t negm[2], const uint32_t *s32,
          const uint32_t *s32f, uint32_t *restrict r0, uint32_t *restrict r1, uint32_t *restrict f0,
          uint32_t *restrict f1)
{
   const unsigned nw = shift ? 1 : 2;
   for (unsigned i = 0; i < n; i++) {
      uint64_t a[2] = {0, 0};
      uint32_t f = 0;
      for (unsigned k = 0; k < nw; k++) {
         /* get64's negation: (x ^ ~0) - ~0 is 0 - x */
         a[k] = ((v[k][0][i] | (uint64_t)v[k][1][i] << 32) ^ negm[k]) - negm[k];
         f |= vf[k][0][i] | vf[k][1][i];
      }
      uint64_t r;
      if (shift) {
         f |= s32f[i];
         r = wide_shift(op, a[0], s32[i]);
      } else {
         r = wide_binary(op, a[0], a[1], &f);
      }
      r0[i] = (uint32_t)r;
      r1[i] = (uint32_t)(r >> 32);
      f0[i] = f1[i] = f;
   }
}

/* The opcodes pair64_int takes, and whether each is a shift. */
#define INT_LANES_OPS(X)                                                                           \
   X(TGSI_OP_U64ADD, false)                                                                        \
   X(TGSI_OP_U64MUL, false)                                                                        \
   X(TGSI_OP_U64MIN, false)                                                                        \
   X(TGSI_OP_U64MAX, false)                                                                        \
   X(TGSI_OP_I64MIN, false)                                                                        \
   X(TGSI_OP_I64MAX, false)                                                                        \
   X(TGSI_OP_U64SHL, true)                                                                         \
   X(TGSI_OP_U64SHR, true)                                                                         \
   X(TGSI_OP_I64SHR, true)

#define INT_LANES_TAKES(OP, SHIFT)                                                                 \
   case OP:                                                                                        \
      return true;
#define INT_LANES_RUN(OP, SHIFT)                                                                   \
   case OP:                                                                                        \
      int_lanes(b->n, OP, SHIFT, v, vf, negm, s32, s32f, r0, r1, f0, f1);                          \
      break;

static bool
int_lanes_takes(enum tgsi_opcode op)
{
   switch (op) {
      INT_LANES_OPS(INT_LANES_TAKES)
   default:
      return false;
   }
}

/* The 64-bit integer opcodes of two 64-bit sources, and the shifts: pair64's
 * lane loop with the opcode and the negations chosen once, not per lane.
 * The same fetches in the same order, the same values and flags. */
static bool
pair64_int(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, int kind, unsigned p)
{
   enum tgsi_opcode op = ti->op;
   bool shift = kind == TGSI_WIDE_SHIFT;
   if ((kind != TGSI_WIDE_BINARY && !shift) || !int_lanes_takes(op))
      return false;
   unsigned nw = shift ? 1 : 2;
   for (unsigned k = 0; k < nw; k++)
      if (ti->src[k].type == TGSI_TYPE_D)
         return false;
   const uint32_t *v[2][2], *vf[2][2], *s32 = NULL, *s32f = NULL;
   uint64_t negm[2] = {0, 0};
   for (unsigned k = 0; k < nw; k++) {
      for (unsigned h = 0; h < 2; h++)
         tgsi_interp_fetch(b, ti, k, 2 * p + h, &v[k][h], &vf[k][h]);
      negm[k] = ti->src[k].neg ? ~0ull : 0;
   }
   if (shift)
      tgsi_interp_fetch(b, ti, 1, 2 * p, &s32, &s32f);
   uint32_t *r0 = b->res_v[2 * p], *r1 = b->res_v[2 * p + 1];
   uint32_t *f0 = b->res_f[2 * p], *f1 = b->res_f[2 * p + 1];
   switch (op) {
      INT_LANES_OPS(INT_LANES_RUN)
   default:
      break;
   }
   return true;
}

#undef INT_LANES_TAKES
#undef INT_LANES_RUN
#undef INT_LANES_OPS

/* One pair of a 64-bit-result opcode. */
static void
pair64(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, int kind, unsigned p)
{
   enum tgsi_opcode op = ti->op;
   if (pair64_arith(b, ti, p) || pair64_int(b, ti, kind, p))
      return;
   unsigned nw = kind == TGSI_WIDE_TERNARY ? 3 : kind == TGSI_WIDE_BINARY ? 2 : 1;
   const uint32_t *v[3][2], *vf[3][2], *s32 = NULL, *s32f = NULL;
   if (kind == TGSI_WIDE_FROM32) {
      tgsi_interp_fetch(b, ti, 0, p, &s32, &s32f);
      nw = 0;
   }
   for (unsigned k = 0; k < nw; k++)
      for (unsigned h = 0; h < 2; h++)
         tgsi_interp_fetch(b, ti, k, 2 * p + h, &v[k][h], &vf[k][h]);
   if (kind == TGSI_WIDE_SHIFT)
      tgsi_interp_fetch(b, ti, 1, 2 * p, &s32, &s32f);
   bool dbl = is_double_result(op);
   for (unsigned i = 0; i < b->n; i++) {
      struct wide_src a[3] = {{0, 0}, {0, 0}, {0, 0}};
      uint32_t f = 0;
      for (unsigned k = 0; k < nw; k++) {
         a[k] = get64(b, ti, k, p, i, v[k], vf[k]);
         f |= a[k].f;
         if (tgsi_op_info[op].type == TGSI_TYPE_D)
            f |= dden(a[k].v);
      }
      uint64_t r;
      switch (kind) {
      case TGSI_WIDE_UNARY:
         r = wide_unary(op, a[0].v, &f);
         break;
      case TGSI_WIDE_BINARY:
         r = wide_binary(op, a[0].v, a[1].v, &f);
         break;
      case TGSI_WIDE_TERNARY:
         if (op == TGSI_OP_DFMA) {
            r = dui(fma(uid(a[0].v), uid(a[1].v), uid(a[2].v)));
         } else {
            r = dui(uid(a[0].v) * uid(a[1].v) + uid(a[2].v));
            f |= ENV_F_FUSE;
         }
         break;
      case TGSI_WIDE_SHIFT:
         f |= s32f[i];
         r = wide_shift(op, a[0].v, s32[i]);
         break;
      default: /* TGSI_WIDE_FROM32 */
         f |= s32f[i];
         if (tgsi_op_info[op].type == TGSI_TYPE_F)
            f |= (s32[i] & 0x7f800000u) == 0 && (s32[i] & 0x7fffffu) ? ENV_F_DENORM : 0;
         r = from32(op, s32[i], &f);
         break;
      }
      if (dbl) {
         uint32_t c = (uint32_t)dclass(r);
         f |= c;
         if (c & ENV_F_NAN)
            r = 0x7ff8000000000000ull; /* one quiet NaN, as for floats */
      }
      put64(b, 2 * p, i, r, f);
   }
}

/* Compares and 64 -> 32 conversions: one 32-bit result per pair. */
static void
pair32(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, int kind, unsigned p,
       unsigned chan)
{
   unsigned nw = kind == TGSI_WIDE_CMP ? 2 : 1;
   const uint32_t *v[2][2], *vf[2][2];
   for (unsigned k = 0; k < nw; k++)
      for (unsigned h = 0; h < 2; h++)
         tgsi_interp_fetch(b, ti, k, 2 * p + h, &v[k][h], &vf[k][h]);
   for (unsigned i = 0; i < b->n; i++) {
      struct wide_src a[2] = {{0, 0}, {0, 0}};
      uint32_t f = 0;
      for (unsigned k = 0; k < nw; k++) {
         a[k] = get64(b, ti, k, p, i, v[k], vf[k]);
         f |= a[k].f;
         if (tgsi_op_info[ti->op].type == TGSI_TYPE_D)
            f |= dden(a[k].v);
      }
      uint32_t r;
      if (kind == TGSI_WIDE_CMP) {
         r = wide_cmp(ti->op, a[0].v, a[1].v) ? ~0u : 0;
         f &= ~(uint32_t)(ENV_F_INEXACT | ENV_F_ZSIGN); /* as 32-bit compares */
      } else {
         r = to32(ti->op, a[0].v, &f);
         if (ti->op == TGSI_OP_D2F || ti->op == TGSI_OP_U642F || ti->op == TGSI_OP_I642F) {
            f |= (r & 0x7f800000u) == 0 && (r & 0x7fffffu) ? ENV_F_DENORM : 0;
            if ((r & 0x7f800000u) == 0x7f800000u && (r & 0x7fffffu)) {
               r = 0x7fc00000u;
               f |= ENV_F_NAN;
            }
         }
      }
      b->res_v[chan][i] = r;
      b->res_f[chan][i] = f;
   }
}

int
tgsi_interp_exec_wide(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti)
{
   int kind = tgsi_wide_kind(ti->op);
   if (kind < 0)
      return -1;
   unsigned mask = ti->dst.mask, out = 0;
   if (kind == TGSI_WIDE_TO32) {
      unsigned m = mask;
      for (unsigned p = 0; p < 2 && m; p++) {
         unsigned c = 0;
         while (!(m & (1u << c)))
            c++;
         m &= ~(1u << c);
         pair32(b, ti, kind, p, c);
         out |= 1u << c;
      }
      return (int)out;
   }
   for (unsigned p = 0; p < 2; p++) {
      unsigned pm = (mask >> (2 * p)) & 3;
      if (!pm)
         continue;
      if (kind == TGSI_WIDE_CMP) {
         unsigned c = 2 * p + (pm & 1 ? 0 : 1);
         pair32(b, ti, kind, p, c);
         out |= 1u << c;
      } else if (kind == TGSI_WIDE_FROM32) {
         if (pm == 3) {
            pair64(b, ti, kind, p);
            out |= 3u << (2 * p);
         }
      } else {
         pair64(b, ti, kind, p);
         out |= pm << (2 * p);
      }
   }
   return (int)out;
}
