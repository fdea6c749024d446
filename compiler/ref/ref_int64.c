/*
 * 64-bit integer opcodes in the reference compiler (GL_ARB_gpu_shader_int64
 * as TGSI has them), written once for every target over the 32-bit scalar
 * primitives of ref.h: neither a3xx nor sm50 has a 64-bit integer ALU, so
 * each value is a pair of registers, low word first, and each opcode a
 * fixed sequence on the pair:
 *
 *  - add: the carry is (lo < a.lo) unsigned; negate: hi = -a.hi - (a.lo != 0);
 *  - multiply: the low product's high word from 16-bit partial products
 *    (ref_umul_hi) plus the two cross products;
 *  - shifts: the count masked to 6 bits, a 32-bit part (the word shifted
 *    across through a shift by 1 and then by 31 - n, so n = 0 needs no
 *    case) and a select on bit 5 (a shift of 32 or more moves whole words);
 *  - compares: the high words decide unless equal, then the low words
 *    compared unsigned; min/max select on a compare;
 *  - division: a 64-step restoring division in a loop whose count is the
 *    same in every lane (ref_ops.c's 32-bit one, widened); signs as C's;
 *  - conversions from float or double: the significand shifted by the
 *    exponent, in integer arithmetic (truncation);
 *  - conversions to float or double: the magnitude normalized (its top bit
 *    moved to bit 63), cut to 24 or 53 bits and rounded to nearest even
 *    from the guard bit and the bits below it; the rounding increment is
 *    added to the assembled bits, so a carry out of the significand
 *    raises the exponent as it must.
 *
 * Results follow the interpreter (tgsi_interp_wide.c) where it defines
 * them: U64DIV/U64MOD by 0 give ~0, I64DIV by 0 gives 0, I64MOD by 0 -1,
 * INT64_MIN / -1 gives INT64_MIN. Out-of-range float and double
 * conversions are undefined there; they give what the IR evaluator gives
 * (F2I64/D2I64: INT64_MIN; F2U64/D2U64: 0 for negatives and NaN, ~0 above
 * the range), so the two compilers agree there too.
 *
 * The channel mapping is the interpreter's: a 64-bit result pair is
 * computed when the write mask touches it (32 -> 64 conversions only when
 * it covers both channels), a compare writes the first masked channel of
 * its pair, a 64 -> 32 conversion the first (pair xy) and second (pair
 * zw) masked channels; shift counts come from src1.x and src1.z. A '-' on
 * a 64-bit integer operand negates the 64-bit value ('|x|' on one has no
 * meaning: the interpreter refuses the shader); on a double operand
 * (D2I64, D2U64) '-' and '|x|' act on the sign bit.
 *
 * As everywhere in the reference compiler, an argument list holds at most
 * one call that allocates or emits, so register numbers do not depend on
 * the C compiler's order of evaluation.
 */
#include "compiler/ref/ref.h"

#define P(op, a, b, d) ref_prim(c, REF_P_##op, (a), (b), (d))
#define P1(op, a)      ref_prim(c, REF_P_##op, (a), 0, 0)
#define P2(op, a, b)   ref_prim(c, REF_P_##op, (a), (b), 0)
#define K(v)           ref_imm_reg(c, (uint32_t)(v))

/* A 64-bit value: two registers. */
struct w64 {
   unsigned lo, hi;
};

static struct w64
pair(unsigned lo, unsigned hi)
{
   struct w64 r = {lo, hi};
   return r;
}

static struct w64
const64(struct ref_ctx *c, uint64_t v)
{
   unsigned lo = K((uint32_t)v);
   return pair(lo, K((uint32_t)(v >> 32)));
}

/* ------------------------------------------------------------------ */
/* Arithmetic on pairs                                                  */

static struct w64
add64(struct ref_ctx *c, struct w64 a, struct w64 b)
{
   unsigned lo = P2(IADD, a.lo, b.lo);
   unsigned carry = P2(ULT, lo, a.lo);
   unsigned hi = P2(IADD, a.hi, b.hi);
   return pair(lo, P2(IADD, hi, carry));
}

static struct w64
sub64(struct ref_ctx *c, struct w64 a, struct w64 b)
{
   unsigned lo = P2(ISUB, a.lo, b.lo);
   unsigned borrow = P2(ULT, a.lo, b.lo);
   unsigned hi = P2(ISUB, a.hi, b.hi);
   return pair(lo, P2(ISUB, hi, borrow));
}

static struct w64
neg64(struct ref_ctx *c, struct w64 a)
{
   unsigned zero = K(0);
   unsigned lo = P1(INEG, a.lo);
   unsigned borrow = P2(INE, a.lo, zero);
   unsigned hi = P1(INEG, a.hi);
   return pair(lo, P2(ISUB, hi, borrow));
}

/* p != 0 ? x : y, word by word */
static struct w64
sel64(struct ref_ctx *c, struct w64 x, unsigned p, struct w64 y)
{
   unsigned lo = P(SEL, x.lo, p, y.lo);
   return pair(lo, P(SEL, x.hi, p, y.hi));
}

static struct w64
mul64(struct ref_ctx *c, struct w64 a, struct w64 b)
{
   unsigned lo = P2(IMUL, a.lo, b.lo);
   unsigned hi = ref_umul_hi(c, a.lo, b.lo);
   hi = P2(IADD, hi, P2(IMUL, a.lo, b.hi));
   hi = P2(IADD, hi, P2(IMUL, a.hi, b.lo));
   return pair(lo, hi);
}

/* a < b (signed or unsigned), 1/0 */
static unsigned
lt64(struct ref_ctx *c, struct w64 a, struct w64 b, bool sign)
{
   unsigned hlt = sign ? P2(ILT, a.hi, b.hi) : P2(ULT, a.hi, b.hi);
   unsigned heq = P2(IEQ, a.hi, b.hi);
   unsigned llt = P2(ULT, a.lo, b.lo);
   return P2(OR, hlt, P2(AND, heq, llt));
}

static unsigned
eq64(struct ref_ctx *c, struct w64 a, struct w64 b)
{
   unsigned e = P2(IEQ, a.lo, b.lo);
   return P2(AND, e, P2(IEQ, a.hi, b.hi));
}

/* 1/0 -> 0/1 */
static unsigned
not01(struct ref_ctx *c, unsigned t)
{
   return P2(XOR, t, K(1));
}

enum shift_kind { SHIFT_LEFT, SHIFT_RIGHT, SHIFT_RIGHT_ARITH };

/* a shifted by n & 63. */
static struct w64
shift64(struct ref_ctx *c, struct w64 a, unsigned n, enum shift_kind kind)
{
   unsigned k31 = K(31), k32 = K(32), one = K(1), zero = K(0);
   unsigned s = P2(AND, n, k31), inv = P2(XOR, s, k31); /* 31 - s */
   unsigned big = P2(AND, n, k32);                      /* whole words move */
   if (kind == SHIFT_LEFT) {
      unsigned lo = P2(SHL, a.lo, s);
      unsigned across = P2(SHR, P2(SHR, a.lo, one), inv);
      unsigned hi = P2(OR, P2(SHL, a.hi, s), across);
      unsigned rlo = P(SEL, zero, big, lo);
      return pair(rlo, P(SEL, lo, big, hi));
   }
   bool arith = kind == SHIFT_RIGHT_ARITH;
   unsigned hi = arith ? P2(ASHR, a.hi, s) : P2(SHR, a.hi, s);
   unsigned across = P2(SHL, P2(SHL, a.hi, one), inv);
   unsigned lo = P2(OR, P2(SHR, a.lo, s), across);
   unsigned fill = arith ? P2(ASHR, a.hi, k31) : zero;
   unsigned rlo = P(SEL, hi, big, lo);
   return pair(rlo, P(SEL, fill, big, hi));
}

/* ------------------------------------------------------------------ */
/* Division                                                             */

/* n / d and n % d unsigned: 64 steps of restoring division in a loop with
 * the same count in every lane (so the branch never diverges). q starts
 * as n and shifts n's bits out at the top into r while the quotient bits
 * come in at the bottom:
 *   (r, q) <<= 1; if (r >= d or r's top bit was shifted out) r -= d, q |= 1
 * (r < d before the shift, so r < 2d after it and one subtraction leaves
 * r < d; with a carry out, 2^64 + r - d wraps to the right value).
 * d == 0 gives q = ~0 and r = n. Results in registers taken first. */
static void
udivmod64(struct ref_ctx *c, struct w64 n, struct w64 d, struct w64 *qo, struct w64 *ro)
{
   struct w64 q, r;
   q.lo = ref_tmp(c);
   q.hi = ref_tmp(c);
   r.lo = ref_tmp(c);
   r.hi = ref_tmp(c);
   unsigned i = ref_tmp(c);
   c->t->copy(c, q.lo, n.lo);
   c->t->copy(c, q.hi, n.hi);
   c->t->mov_imm(c, r.lo, 0);
   c->t->mov_imm(c, r.hi, 0);
   c->t->mov_imm(c, i, 63);
   unsigned mark = c->scratch_next;
   int top = ref_label(c);
   ref_place(c, top);
   unsigned one = K(1), k31 = K(31), zero = K(0);
   unsigned carry = P2(SHR, r.hi, k31);
   unsigned rhi = P2(SHL, r.hi, one);
   rhi = P2(OR, rhi, P2(SHR, r.lo, k31));
   unsigned rlo = P2(SHL, r.lo, one);
   rlo = P2(OR, rlo, P2(SHR, q.hi, k31));
   unsigned qhi = P2(SHL, q.hi, one);
   qhi = P2(OR, qhi, P2(SHR, q.lo, k31));
   unsigned qlo = P2(SHL, q.lo, one);
   struct w64 rs = pair(rlo, rhi);
   unsigned ge = P2(OR, not01(c, lt64(c, rs, d, false)), carry);
   struct w64 rn = sel64(c, sub64(c, rs, d), ge, rs);
   c->t->copy(c, r.lo, rn.lo);
   c->t->copy(c, r.hi, rn.hi);
   c->t->copy(c, q.lo, P2(OR, qlo, ge));
   c->t->copy(c, q.hi, qhi);
   c->t->copy(c, i, P2(ISUB, i, one));
   unsigned more = P2(IGE, i, zero);
   c->t->branch(c, REF_TEST_INT_NZ, more, more, true, top);
   c->scratch_next = mark;
   *qo = q;
   *ro = r;
}

/* U64DIV/U64MOD/I64DIV/I64MOD. Signed: the magnitudes divided, then C's
 * signs (the quotient negative when the signs differ, the remainder with
 * the dividend's); INT64_MIN's magnitude is 2^63 unsigned, so INT64_MIN /
 * -1 comes out as INT64_MIN and the remainder 0. By zero: U64DIV ~0 (the
 * loop's own answer), U64MOD ~0, I64DIV 0, I64MOD -1. */
static struct w64
divide64(struct ref_ctx *c, enum tgsi_opcode op, struct w64 a, struct w64 b)
{
   struct w64 q, r, ones = const64(c, ~0ull), zero = const64(c, 0);
   unsigned bz = eq64(c, b, zero);
   if (op == TGSI_OP_U64DIV || op == TGSI_OP_U64MOD) {
      udivmod64(c, a, b, &q, &r);
      return op == TGSI_OP_U64DIV ? q : sel64(c, ones, bz, r);
   }
   unsigned an = P2(ILT, a.hi, zero.hi), bn = P2(ILT, b.hi, zero.hi);
   struct w64 aa = sel64(c, neg64(c, a), an, a);
   struct w64 ba = sel64(c, neg64(c, b), bn, b);
   udivmod64(c, aa, ba, &q, &r);
   if (op == TGSI_OP_I64DIV) {
      unsigned sn = P2(XOR, an, bn);
      struct w64 res = sel64(c, neg64(c, q), sn, q);
      return sel64(c, zero, bz, res);
   }
   struct w64 res = sel64(c, neg64(c, r), an, r);
   return sel64(c, ones, bz, res);
}

/* ------------------------------------------------------------------ */
/* Conversions                                                          */

/* The magnitude m (< 2^63 + 2^63) with its top bit moved to bit 63, and
 * the index of that bit (-1 for 0, then v is 0). */
static struct w64
normalize(struct ref_ctx *c, struct w64 m, unsigned *top)
{
   unsigned hz = P2(IEQ, m.hi, K(0));
   unsigned k32 = K(32);
   unsigned mh = P2(IADD, P1(UMSB, m.hi), k32);
   unsigned n = P(SEL, P1(UMSB, m.lo), hz, mh);
   *top = n;
   return shift64(c, m, P2(ISUB, K(63), n), SHIFT_LEFT);
}

/* float bits of the unsigned m, rounded to nearest even; sign (1/0) or
 * -1 for none */
static unsigned
to_float(struct ref_ctx *c, struct w64 m, int sign)
{
   unsigned n, one = K(1);
   struct w64 v = normalize(c, m, &n);
   unsigned sig = P2(SHR, v.hi, K(8)); /* 24 bits, the top one set */
   unsigned guard = P2(AND, P2(SHR, v.hi, K(7)), one);
   unsigned rest = P2(OR, P2(AND, v.hi, K(0x7f)), v.lo);
   unsigned sticky = P2(INE, rest, K(0));
   unsigned odd = P2(AND, sig, one);
   unsigned up = P2(AND, guard, P2(OR, sticky, odd));
   unsigned k23 = K(23);
   unsigned e = P2(SHL, P2(IADD, n, K(126)), k23); /* + the top bit: 127 + n */
   unsigned bits = P2(IADD, P2(IADD, e, sig), up);
   if (sign >= 0)
      bits = P2(OR, bits, P2(SHL, (unsigned)sign, K(31)));
   unsigned zero = K(0);
   unsigned mz = P2(IEQ, P2(OR, m.lo, m.hi), zero);
   return P(SEL, zero, mz, bits);
}

/* double bits of the unsigned m, rounded to nearest even */
static struct w64
to_double(struct ref_ctx *c, struct w64 m, int sign)
{
   unsigned n, one = K(1);
   struct w64 v = normalize(c, m, &n);
   unsigned shi = P2(SHR, v.hi, K(11)); /* 53 bits: 21 here (top one set) */
   unsigned slo = P2(SHL, v.hi, K(21));
   slo = P2(OR, slo, P2(SHR, v.lo, K(11)));
   unsigned guard = P2(AND, P2(SHR, v.lo, K(10)), one);
   unsigned zero = K(0);
   unsigned sticky = P2(INE, P2(AND, v.lo, K(0x3ff)), zero);
   unsigned odd = P2(AND, slo, one);
   unsigned up = P2(AND, guard, P2(OR, sticky, odd));
   unsigned k20 = K(20);
   unsigned e = P2(SHL, P2(IADD, n, K(1022)), k20); /* + the top bit: 1023 + n */
   unsigned hi = P2(IADD, e, shi);
   struct w64 bits = add64(c, pair(slo, hi), pair(up, zero));
   if (sign >= 0)
      bits.hi = P2(OR, bits.hi, P2(SHL, (unsigned)sign, K(31)));
   unsigned mz = P2(IEQ, P2(OR, m.lo, m.hi), zero);
   return sel64(c, pair(zero, zero), mz, bits);
}

/* trunc(sig * 2^(e - bias)) for a significand sig (< 2^53) and a biased
 * exponent e; callers deal with results past 2^64. */
static struct w64
scale(struct ref_ctx *c, struct w64 sig, unsigned e, uint32_t bias)
{
   unsigned b = K(bias);
   struct w64 left = shift64(c, sig, P2(ISUB, e, b), SHIFT_LEFT);
   unsigned k63 = K(63);
   unsigned rn = P2(UMIN, P2(ISUB, b, e), k63); /* >= 53: 0 */
   struct w64 right = shift64(c, sig, rn, SHIFT_RIGHT);
   return sel64(c, left, P2(IGE, e, b), right);
}

/* F2I64/F2U64/D2I64/D2U64 from the value's high word hi (the float, or
 * the double's high word) and its significand and exponent. */
static struct w64
from_real(struct ref_ctx *c, enum tgsi_opcode op, unsigned hi, struct w64 sig, unsigned e,
          unsigned nan)
{
   bool dbl = op == TGSI_OP_D2I64 || op == TGSI_OP_D2U64;
   bool sign = op == TGSI_OP_F2I64 || op == TGSI_OP_D2I64;
   struct w64 mag = scale(c, sig, e, dbl ? 1075 : 150);
   unsigned neg = P2(SHR, hi, K(31));
   uint32_t limit = (dbl ? 1023 : 127) + (sign ? 63 : 64); /* 2^63 or 2^64 */
   unsigned big = P2(IGE, e, K(limit));
   if (sign) { /* out of range and NaN: INT64_MIN */
      struct w64 r = sel64(c, neg64(c, mag), neg, mag);
      return sel64(c, const64(c, 0x8000000000000000ull), big, r);
   }
   /* negative and NaN: 0; at or past 2^64: ~0 */
   struct w64 r = sel64(c, const64(c, ~0ull), big, mag);
   unsigned zero = P2(OR, neg, nan);
   return sel64(c, const64(c, 0), zero, r);
}

static struct w64
from_float(struct ref_ctx *c, enum tgsi_opcode op, unsigned x)
{
   unsigned k23 = K(23), k0xff = K(0xff);
   unsigned e = P2(AND, P2(SHR, x, k23), k0xff);
   unsigned fracm = K(0x7fffff), implicit = K(0x800000);
   unsigned sig = P2(OR, P2(AND, x, fracm), implicit);
   unsigned inf = K(0x7f800000u);
   unsigned nan = P2(ULT, inf, P2(AND, x, K(0x7fffffffu)));
   return from_real(c, op, x, pair(sig, K(0)), e, nan);
}

static struct w64
from_double(struct ref_ctx *c, enum tgsi_opcode op, struct w64 x)
{
   unsigned k20 = K(20), k0x7ff = K(0x7ff);
   unsigned e = P2(AND, P2(SHR, x.hi, k20), k0x7ff);
   unsigned fracm = K(0xfffff), implicit = K(0x100000);
   unsigned shi = P2(OR, P2(AND, x.hi, fracm), implicit);
   unsigned ah = P2(AND, x.hi, K(0x7fffffffu)), inf = K(0x7ff00000u);
   unsigned above = P2(ULT, inf, ah);
   unsigned frac = P2(INE, x.lo, K(0));
   unsigned nan = P2(OR, above, P2(AND, P2(IEQ, ah, inf), frac));
   return from_real(c, op, x.hi, pair(x.lo, shi), e, nan);
}

/* ------------------------------------------------------------------ */
/* Operands and dispatch                                                */

static bool
is_double_src(enum tgsi_opcode op)
{
   return op == TGSI_OP_D2I64 || op == TGSI_OP_D2U64;
}

/* Source si's pair p with its modifiers. */
static struct w64
fetch64(struct ref_ctx *c, const struct tgsi_insn *in, unsigned si, unsigned p)
{
   struct tgsi_insn raw = *in;
   raw.src[si].neg = raw.src[si].abs = false;
   unsigned lo = ref_fetch(c, &raw, si, 2 * p);
   struct w64 v = pair(lo, ref_fetch(c, &raw, si, 2 * p + 1));
   if (is_double_src(in->op)) {
      if (in->src[si].abs)
         v.hi = P2(AND, v.hi, K(0x7fffffffu));
      if (in->src[si].neg)
         v.hi = P2(XOR, v.hi, K(0x80000000u));
      return v;
   }
   return in->src[si].neg ? neg64(c, v) : v;
}

/* One 64-bit result pair (64 -> 64, 64 x 64 -> 64, 64 x 32 -> 64, 32 -> 64). */
static struct w64
op64(struct ref_ctx *c, const struct tgsi_insn *in, unsigned p)
{
   enum tgsi_opcode op = in->op;
   unsigned x;
   switch (op) {
   case TGSI_OP_U2I64:
      x = ref_fetch(c, in, 0, p);
      return pair(x, K(0));
   case TGSI_OP_I2I64:
      x = ref_fetch(c, in, 0, p);
      return pair(x, P2(ASHR, x, K(31)));
   case TGSI_OP_F2I64:
   case TGSI_OP_F2U64:
      return from_float(c, op, ref_fetch(c, in, 0, p));
   default:
      break;
   }
   struct w64 a = fetch64(c, in, 0, p), b = {0, 0};
   switch (op) {
   case TGSI_OP_I64NEG:
      return neg64(c, a);
   case TGSI_OP_I64ABS: {
      unsigned neg = P2(ILT, a.hi, K(0));
      return sel64(c, neg64(c, a), neg, a);
   }
   case TGSI_OP_I64SSG: { /* hi: the sign spread; lo: that, or 1 when non-zero */
      unsigned hi = P2(ASHR, a.hi, K(31));
      unsigned zero = K(0);
      unsigned nz = P2(INE, P2(OR, a.lo, a.hi), zero);
      return pair(P2(OR, hi, nz), hi);
   }
   case TGSI_OP_I642D:
   case TGSI_OP_U642D:
      if (op == TGSI_OP_I642D) {
         unsigned neg = P2(ILT, a.hi, K(0));
         return to_double(c, sel64(c, neg64(c, a), neg, a), (int)neg);
      }
      return to_double(c, a, -1);
   case TGSI_OP_D2I64:
   case TGSI_OP_D2U64:
      return from_double(c, op, a);
   case TGSI_OP_U64SHL:
   case TGSI_OP_U64SHR:
   case TGSI_OP_I64SHR:
      x = ref_fetch(c, in, 1, 2 * p);
      return shift64(c, a, x,
                     op == TGSI_OP_U64SHL   ? SHIFT_LEFT
                     : op == TGSI_OP_U64SHR ? SHIFT_RIGHT
                                            : SHIFT_RIGHT_ARITH);
   default:
      break;
   }
   b = fetch64(c, in, 1, p);
   switch (op) {
   case TGSI_OP_U64ADD:
      return add64(c, a, b);
   case TGSI_OP_U64MUL:
      return mul64(c, a, b);
   case TGSI_OP_I64MIN:
   case TGSI_OP_U64MIN: /* a < b ? a : b */
      return sel64(c, a, lt64(c, a, b, op == TGSI_OP_I64MIN), b);
   case TGSI_OP_I64MAX:
   case TGSI_OP_U64MAX: /* a > b ? a : b */
      return sel64(c, a, lt64(c, b, a, op == TGSI_OP_I64MAX), b);
   default: /* U64DIV, U64MOD, I64DIV, I64MOD */
      return divide64(c, op, a, b);
   }
}

/* One 32-bit result from pair p: a compare (~0/0) or I642F/U642F. */
static unsigned
op32(struct ref_ctx *c, const struct tgsi_insn *in, unsigned p)
{
   enum tgsi_opcode op = in->op;
   struct w64 a = fetch64(c, in, 0, p);
   if (op == TGSI_OP_U642F)
      return to_float(c, a, -1);
   if (op == TGSI_OP_I642F) {
      unsigned neg = P2(ILT, a.hi, K(0));
      return to_float(c, sel64(c, neg64(c, a), neg, a), (int)neg);
   }
   struct w64 b = fetch64(c, in, 1, p);
   unsigned t;
   switch (op) {
   case TGSI_OP_U64SEQ:
      t = eq64(c, a, b);
      break;
   case TGSI_OP_U64SNE:
      t = not01(c, eq64(c, a, b));
      break;
   case TGSI_OP_I64SLT:
   case TGSI_OP_U64SLT:
      t = lt64(c, a, b, op == TGSI_OP_I64SLT);
      break;
   default: /* I64SGE, U64SGE */
      t = not01(c, lt64(c, a, b, op == TGSI_OP_I64SGE));
      break;
   }
   return P1(INEG, t);
}

bool
ref_int64_op(enum tgsi_opcode op)
{
   switch (op) {
   case TGSI_OP_U64ADD:
   case TGSI_OP_U64MUL:
   case TGSI_OP_U64SHL:
   case TGSI_OP_U64SHR:
   case TGSI_OP_I64SHR:
   case TGSI_OP_I64NEG:
   case TGSI_OP_I64ABS:
   case TGSI_OP_I64SSG:
   case TGSI_OP_I64MIN:
   case TGSI_OP_I64MAX:
   case TGSI_OP_U64MIN:
   case TGSI_OP_U64MAX:
   case TGSI_OP_U64DIV:
   case TGSI_OP_U64MOD:
   case TGSI_OP_I64DIV:
   case TGSI_OP_I64MOD:
   case TGSI_OP_U64SEQ:
   case TGSI_OP_U64SNE:
   case TGSI_OP_I64SLT:
   case TGSI_OP_U64SLT:
   case TGSI_OP_I64SGE:
   case TGSI_OP_U64SGE:
   case TGSI_OP_U2I64:
   case TGSI_OP_I2I64:
   case TGSI_OP_F2I64:
   case TGSI_OP_F2U64:
   case TGSI_OP_I642F:
   case TGSI_OP_U642F:
   case TGSI_OP_I642D:
   case TGSI_OP_U642D:
   case TGSI_OP_D2I64:
   case TGSI_OP_D2U64:
      return true;
   default:
      return false;
   }
}

/* One 32-bit result of pair p (64 -> 32 conversions, compares) and one
 * 64-bit result pair, each copied into registers taken before the pair's
 * temporaries, which then die (a long expansion in a shader with many
 * TGSI registers leaves little scratch). */
static unsigned
word_result(struct ref_ctx *c, const struct tgsi_insn *in, unsigned p)
{
   unsigned r = ref_tmp(c), mark = c->scratch_next;
   c->t->copy(c, r, op32(c, in, p));
   c->scratch_next = mark;
   return r;
}

static void
pair_result(struct ref_ctx *c, const struct tgsi_insn *in, unsigned p, unsigned res[2])
{
   res[0] = ref_tmp(c);
   res[1] = ref_tmp(c);
   unsigned mark = c->scratch_next;
   struct w64 v = op64(c, in, p);
   c->t->copy(c, res[0], v.lo);
   c->t->copy(c, res[1], v.hi);
   c->scratch_next = mark;
}

enum compile_status
ref_int64(struct ref_ctx *c, const struct tgsi_insn *in)
{
   enum tgsi_opcode op = in->op;
   enum ref_wide_shape shape = REF_WIDE_PAIR;
   if (op == TGSI_OP_I642F || op == TGSI_OP_U642F)
      shape = REF_WIDE_TO32;
   else if (op == TGSI_OP_U64SEQ || op == TGSI_OP_U64SNE || op == TGSI_OP_I64SLT ||
            op == TGSI_OP_U64SLT || op == TGSI_OP_I64SGE || op == TGSI_OP_U64SGE)
      shape = REF_WIDE_CMP;
   else if (op == TGSI_OP_U2I64 || op == TGSI_OP_I2I64 || op == TGSI_OP_F2I64 ||
            op == TGSI_OP_F2U64)
      shape = REF_WIDE_FROM32;
   if (in->sat)
      return ref_unsupported(c, "_SAT on a 64-bit integer result");
   ref_store_wide(c, in, shape, word_result, pair_result);
   return c->status;
}
