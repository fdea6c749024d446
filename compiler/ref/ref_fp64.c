/*
 * Doubles (FP64) on the reference path, for every model with FP64
 * instructions (sm50 DADD/DMUL/DFMA, gfx9 v_add_f64/v_mul_f64/v_fma_f64):
 * a TGSI double is a channel pair, xy or zw, low word first (the
 * interpreter's tgsi_interp_wide.c mapping), stored channel by channel
 * as the interpreter maps them (ref_store_wide). The target names its
 * instructions and supplies compares and min/max (struct ref_fp64); what
 * the hardware lacks is expanded here, once for every target, over those
 * instructions and the 32-bit primitives:
 *
 *  - DDIV, DRCP, DRSQ and DSQRT correctly rounded (Markstein's step from
 *    an f32 reciprocal or root seed, the exponent in integer arithmetic),
 *    so the interpreter's exact double division needs no tolerance;
 *  - DLDEXP exactly, in integer arithmetic, where the model has no ldexp;
 *  - DNEG and DABS as an add of -0.0 with the source modifier (a NaN
 *    made the quiet one, as TGSI's double ops do); DFRAC, DSSG.
 *
 * Operands are register pairs with an even first register (sm50 requires
 * it; gfx9 VGPR pairs take any, and an even one costs nothing).
 * (64-bit integers never come here: ref_int64.c makes them 32-bit pairs.)
 */
#include "compiler/ref/ref.h"

#define R(x) ref_r(c, (x))

static struct isa_opnd
none(struct ref_ctx *c)
{
   return c->t->fp64->none(c);
}

/* d = op(a, b, e): the sources the op has (the rest are ignored). */
static void
dalu(struct ref_ctx *c, const char *op, unsigned d, struct isa_opnd a, struct isa_opnd b,
     struct isa_opnd e)
{
   struct isa_insn *in = ref_emit(c, op);
   const struct isa_opnd src[3] = {a, b, e};
   in->dst[0] = R(d);
   for (unsigned i = 0; i < 3 && i < in->nsrc; i++)
      in->src[i] = src[i];
}

#define K(v)        ref_imm_reg(c, (uint32_t)(v))
#define Q(op, a, b) ref_prim(c, REF_P_##op, (a), (b), 0)
#define QS(x, p, y) ref_prim(c, REF_P_SEL, (x), (p), (y))
#define F           (c->t->fp64)

/* An even-aligned register pair: FP64 operands. */
static unsigned
dpair(struct ref_ctx *c)
{
   unsigned r = ref_tmp(c);
   if (r & 1)
      r = ref_tmp(c);
   ref_tmp(c);
   return r;
}

static unsigned
dpack(struct ref_ctx *c, unsigned lo, unsigned hi)
{
   unsigned p = dpair(c);
   c->t->copy(c, p, lo);
   c->t->copy(c, p + 1, hi);
   return p;
}

/* Pair copy into registers taken before a phase's temporaries. */
static void
dkeep(struct ref_ctx *c, unsigned dst, unsigned src)
{
   c->t->copy(c, dst, src);
   c->t->copy(c, dst + 1, src + 1);
}

static unsigned
dconst(struct ref_ctx *c, uint64_t v)
{
   unsigned p = dpair(c);
   c->t->mov_imm(c, p, (uint32_t)v);
   c->t->mov_imm(c, p + 1, (uint32_t)(v >> 32));
   return p;
}

static unsigned
dop(struct ref_ctx *c, const char *op, struct isa_opnd a, struct isa_opnd b, struct isa_opnd e)
{
   unsigned d = dpair(c);
   dalu(c, op, d, a, b, e);
   return d;
}

/* The pair (x if p else y), p a 0/1 register. */
static unsigned
dsel(struct ref_ctx *c, unsigned x, unsigned p, unsigned y)
{
   unsigned lo = QS(x, p, y);
   return dpack(c, lo, QS(x + 1, p, y + 1));
}

/* a CMP b, as 0/1. */
static unsigned
dcmp(struct ref_ctx *c, const char *cond, unsigned a, unsigned b)
{
   return F->cmp(c, cond, a, b, false);
}

/* The 53-bit significand (mhi:mlo) shifted right by s (1..54), rounded
 * to nearest: above the halfway point up, below down, at it by rpos
 * (the exact value lies above: up) or, when rzero (exact), to even. The
 * low word of the result in *lo, the high word returned. */
static unsigned
round_shift(struct ref_ctx *c, unsigned mhi, unsigned mlo, unsigned s, unsigned rpos,
            unsigned rzero, unsigned *lo)
{
   unsigned one = K(1), k32 = K(32), zero = K(0);
   unsigned small = Q(ULT, s, k32), sb = Q(ISUB, s, k32);
   unsigned lo_a = Q(SHR, mlo, s);
   unsigned lo_s = Q(OR, lo_a, Q(SHL, mhi, Q(ISUB, k32, s)));
   unsigned sub_lo = QS(lo_s, small, Q(SHR, mhi, sb));
   unsigned sub_hi = QS(Q(SHR, mhi, s), small, zero);
   unsigned ones = K(~0u);
   unsigned m_lo = QS(Q(ISUB, Q(SHL, one, s), one), small, ones);
   unsigned m_hi = QS(zero, small, Q(ISUB, Q(SHL, one, sb), one));
   unsigned d_lo = Q(AND, mlo, m_lo), d_hi = Q(AND, mhi, m_hi);
   unsigned t = Q(ISUB, s, one), tsmall = Q(ULT, t, k32);
   unsigned h_lo = QS(Q(SHL, one, t), tsmall, zero);
   unsigned h_hi = QS(zero, tsmall, Q(SHL, one, Q(ISUB, t, k32)));
   unsigned hieq = Q(IEQ, d_hi, h_hi);
   unsigned gt_hi = Q(ULT, h_hi, d_hi);
   unsigned gt = Q(OR, gt_hi, Q(AND, hieq, Q(ULT, h_lo, d_lo)));
   unsigned eq = Q(AND, hieq, Q(IEQ, d_lo, h_lo));
   unsigned tie_up = Q(OR, rpos, Q(AND, rzero, Q(AND, sub_lo, one)));
   unsigned up = Q(OR, gt, Q(AND, eq, tie_up));
   unsigned nlo = Q(IADD, sub_lo, up);
   *lo = nlo;
   return Q(IADD, sub_hi, Q(ULT, nlo, up));
}

/* |x| of a pair with denormals scaled by 2^64: the scaled value and its
 * biased exponent (64 less for scaled ones). */
static unsigned
dnormalize(struct ref_ctx *c, unsigned x, unsigned *e)
{
   unsigned ah = Q(AND, x + 1, K(0x7fffffffu));
   unsigned ax = dpack(c, x, ah);
   unsigned den = Q(ULT, ah, K(0x00100000u));
   unsigned sc = dop(c, F->mul, R(ax), R(dconst(c, 0x43f0000000000000ull)), none(c)); /* 2^64 */
   unsigned x1 = dsel(c, sc, den, ax);
   unsigned k64 = K(64), zero = K(0), k20 = K(20);
   unsigned adj = QS(k64, den, zero);
   *e = Q(ISUB, Q(SHR, x1 + 1, k20), adj);
   return x1;
}

/* The significand of a normalized pair as a double in [1, 2). */
static unsigned
dsignificand(struct ref_ctx *c, unsigned x1)
{
   unsigned fracm = K(0x000fffffu), one_exp = K(0x3ff00000u);
   return dpack(c, x1, Q(OR, Q(AND, x1 + 1, fracm), one_exp));
}

/* 1 when the pair is +-0, +-inf or NaN. */
static unsigned
dspecial(struct ref_ctx *c, unsigned x)
{
   unsigned ah = Q(AND, x + 1, K(0x7fffffffu));
   unsigned zero = K(0), expm = K(0x7ff00000u);
   unsigned z = Q(IEQ, Q(OR, ah, x), zero);
   return Q(OR, z, Q(UGE, ah, expm));
}

/* A double from a float approximation of f(x) (F2F, MUFU, F2F). */
static unsigned
dseed(struct ref_ctx *c, const char *mufu, unsigned x)
{
   unsigned f = ref_tmp(c), r = ref_tmp(c);
   dalu(c, F->d2f, f, R(x), none(c), none(c));
   dalu(c, mufu, r, R(f), none(c), none(c));
   return dop(c, F->f2d, R(r), none(c), none(c));
}

/* a / b correctly rounded, as the interpreter's double division. The
 * significands' quotient by Markstein's step: y = RN(1 / mb) from a float
 * seed and Newton steps with DFMA (y + y (1 - mb y) is RN(1 / mb) from a
 * 1-ulp y, except for mb = 2 - 2^-52, set directly), q0 = ma y, r = ma -
 * q0 mb exact, q = q0 + r y; then the exponent in integer arithmetic --
 * overflow gives infinity, a subnormal result is rounded from q's 53 bits
 * with the remainder's sign deciding a halfway point. Zero, infinite and
 * NaN operands take a * t, t = 1 / b (b special) or copysign(1, b). The
 * same sequence in C matched the host's division on 3e8 pairs (random,
 * near-halfway quotients, subnormal results, edge values). */
static unsigned
ddiv(struct ref_ctx *c, unsigned a, unsigned b)
{
   /* Phases keep their results in registers taken before the phase's
    * temporaries, which die with it (kernels leave little scratch). */
   unsigned out = dpair(c), spec = dpair(c), ma = dpair(c), mb = dpair(c), y = dpair(c);
   unsigned q = dpair(c), special = ref_tmp(c), sign = ref_tmp(c), ea = ref_tmp(c);
   unsigned eb = ref_tmp(c), rpos = ref_tmp(c), rzero = ref_tmp(c);
   unsigned mark = c->scratch_next, zero, v, e1, e2;
   /* specials: a * t, t = 1 / b (b special) or copysign(1, b) */
   zero = K(0);
   unsigned signm = K(0x80000000u);
   c->t->copy(c, sign, Q(AND, Q(XOR, a + 1, b + 1), signm));
   unsigned bsign = Q(AND, b + 1, signm), bh = Q(AND, b + 1, K(0x7fffffffu));
   unsigned bzero = Q(IEQ, Q(OR, bh, b), zero);
   unsigned expm = K(0x7ff00000u), blo0 = Q(IEQ, b, zero);
   unsigned binf = Q(AND, Q(IEQ, bh, expm), blo0);
   unsigned bspec = dspecial(c, b);
   c->t->copy(c, special, Q(OR, dspecial(c, a), bspec));
   unsigned qnan = K(0x7ff80000u), one_exp = K(0x3ff00000u);
   unsigned t_one = Q(OR, bsign, one_exp), t_inf = Q(OR, bsign, expm);
   unsigned t_hi = QS(qnan, bspec, t_one);
   t_hi = QS(bsign, binf, t_hi);
   t_hi = QS(t_inf, bzero, t_hi);
   dkeep(c, spec, dop(c, F->mul, R(a), R(dpack(c, zero, t_hi)), none(c)));
   c->scratch_next = mark;
   /* significands and exponents */
   v = dsignificand(c, dnormalize(c, a, &e1));
   dkeep(c, ma, v);
   c->t->copy(c, ea, e1);
   c->scratch_next = mark;
   v = dsignificand(c, dnormalize(c, b, &e2));
   dkeep(c, mb, v);
   c->t->copy(c, eb, e2);
   c->scratch_next = mark;
   /* y = RN(1 / mb) */
   dkeep(c, y, dseed(c, F->rcp32, mb));
   c->scratch_next = mark;
   for (unsigned k = 0; k < 3; k++) {
      unsigned one = dconst(c, 0x3ff0000000000000ull);
      unsigned e = dop(c, F->fma, R(y), ref_neg(R(mb)), R(one));
      dkeep(c, y, k < 2 ? dop(c, F->fma, R(y), R(e), R(y)) : dop(c, F->fma, R(e), R(y), R(y)));
      c->scratch_next = mark;
   }
   unsigned ones = K(~0u), top = K(0x3fffffffu);
   unsigned lo_ones = Q(IEQ, mb, ones);
   unsigned exc = Q(AND, lo_ones, Q(IEQ, mb + 1, top));
   dkeep(c, y, dsel(c, dconst(c, 0x3fe0000000000001ull), exc, y));
   c->scratch_next = mark;
   /* q = RN(ma / mb) and the sign of the remainder */
   unsigned q0 = dop(c, F->mul, R(ma), R(y), none(c));
   unsigned r0 = dop(c, F->fma, R(mb), ref_neg(R(q0)), R(ma));
   dkeep(c, q, dop(c, F->fma, R(r0), R(y), R(q0)));
   c->scratch_next = mark;
   unsigned r = dop(c, F->fma, R(mb), ref_neg(R(q)), R(ma)), dz = dconst(c, 0);
   c->t->copy(c, rpos, dcmp(c, "gt", r, dz));
   c->t->copy(c, rzero, dcmp(c, "eq", r, dz));
   c->scratch_next = mark;
   /* the exponent back: normal, overflow or a subnormal rounding */
   zero = K(0);
   unsigned E = Q(ISUB, Q(IADD, Q(SHR, q + 1, K(20)), ea), eb);
   unsigned frac = Q(AND, q + 1, K(0x000fffffu));
   unsigned n_hi = Q(OR, frac, Q(SHL, E, K(20)));
   unsigned implicit = K(0x00100000u), k1 = K(1), k54 = K(54), k2047 = K(2047);
   unsigned inf_hi = K(0x7ff00000u);
   unsigned mhi = Q(OR, frac, implicit), sh = Q(UMIN, Q(ISUB, k1, E), k54);
   unsigned s_lo, s_hi = round_shift(c, mhi, q, sh, rpos, rzero, &s_lo);
   unsigned normal = Q(IGE, E, k1), ovf = Q(IGE, E, k2047);
   unsigned r_lo = QS(zero, ovf, QS(q, normal, s_lo));
   unsigned r_hi = Q(OR, QS(inf_hi, ovf, QS(n_hi, normal, s_hi)), sign);
   c->t->copy(c, out, QS(spec, special, r_lo));
   c->t->copy(c, out + 1, QS(spec + 1, special, r_hi));
   c->scratch_next = out + 2;
   return out;
}

/* sqrt(x) correctly rounded: x = m 2^e with m in [1, 4) and e even (a
 * denormal x scaled by 2^64), y = 1/sqrt(m) from a float seed and two
 * Newton steps (y + y/2 (1 - (m y) y)), s0 = m y, r = m - s0^2 exact, s =
 * s0 + r y/2; the root's exponent is added to s's (the root of a double
 * is always normal). Zero, negative, infinite and NaN inputs: x itself
 * for +-0 and +inf, else NaN. The sequence in C matched the host's sqrt
 * on 1.5e8 values (random, subnormal, near-halfway roots). */
static unsigned
dsqrt(struct ref_ctx *c, unsigned x)
{
   unsigned out = dpair(c), m = dpair(c), y = dpair(c), s = dpair(c);
   unsigned keep = ref_tmp(c), special = ref_tmp(c), e = ref_tmp(c);
   unsigned mark = c->scratch_next, zero = K(0), eb;
   unsigned xh = Q(AND, x + 1, K(0x7fffffffu));
   unsigned iszero = Q(IEQ, Q(OR, xh, x), zero);
   unsigned expm = K(0x7ff00000u), lo0 = Q(IEQ, x, zero);
   unsigned pinf = Q(AND, Q(IEQ, x + 1, expm), lo0);
   c->t->copy(c, keep, Q(OR, iszero, pinf));
   unsigned neg = Q(UGE, x + 1, K(0x80000000u));
   c->t->copy(c, special, Q(OR, keep, Q(OR, neg, Q(UGE, xh, expm))));
   c->scratch_next = mark;
   unsigned x1 = dnormalize(c, x, &eb);
   unsigned e0 = Q(ISUB, eb, K(1023)), odd = Q(AND, e0, K(1));
   unsigned m0 = dsignificand(c, x1);
   dkeep(c, m, dsel(c, dop(c, F->add, R(m0), R(m0), none(c)), odd, m0));
   c->t->copy(c, e, Q(ISUB, e0, odd));
   c->scratch_next = mark;
   dkeep(c, y, dseed(c, F->rsq32, m));
   c->scratch_next = mark;
   for (unsigned k = 0; k < 2; k++) {
      unsigned half = dconst(c, 0x3fe0000000000000ull), one = dconst(c, 0x3ff0000000000000ull);
      unsigned h = dop(c, F->mul, R(half), R(y), none(c));
      unsigned my = dop(c, F->mul, R(m), R(y), none(c));
      unsigned t = dop(c, F->fma, R(y), ref_neg(R(my)), R(one));
      dkeep(c, y, dop(c, F->fma, R(h), R(t), R(y)));
      c->scratch_next = mark;
   }
   unsigned half = dconst(c, 0x3fe0000000000000ull);
   unsigned s0 = dop(c, F->mul, R(m), R(y), none(c));
   unsigned r = dop(c, F->fma, R(s0), ref_neg(R(s0)), R(m));
   unsigned hy = dop(c, F->mul, R(half), R(y), none(c));
   dkeep(c, s, dop(c, F->fma, R(r), R(hy), R(s0)));
   c->scratch_next = mark;
   zero = K(0);
   unsigned k1 = K(1), k20 = K(20);
   unsigned r_hi = Q(IADD, s + 1, Q(SHL, Q(ASHR, e, k1), k20));
   c->t->copy(c, out, QS(QS(x, keep, zero), special, s));
   c->t->copy(c, out + 1, QS(QS(x + 1, keep, K(0x7ff80000u)), special, r_hi));
   c->scratch_next = out + 2;
   return out;
}

/* ldexp(x, n) exactly: the exponent field moved in integer arithmetic
 * (n clamped to +-4000), infinity past the largest, a subnormal result
 * rounded from x's 53 bits (to even at halfway: the value is exact). */
static unsigned
dldexp(struct ref_ctx *c, unsigned x, unsigned n)
{
   unsigned out = dpair(c), mark = c->scratch_next;
   unsigned zero = K(0), sign = Q(AND, x + 1, K(0x80000000u));
   unsigned special = dspecial(c, x);
   unsigned spec = dop(c, F->add, R(x), R(dconst(c, 0x8000000000000000ull)), none(c)); /* + -0 */
   unsigned ex, x1 = dnormalize(c, x, &ex);
   unsigned lo_n = K((uint32_t)-4000);
   unsigned nn = Q(IMAX, Q(IMIN, n, K(4000)), lo_n);
   unsigned E = Q(IADD, ex, nn);
   unsigned frac = Q(AND, x1 + 1, K(0x000fffffu));
   unsigned n_hi = Q(OR, frac, Q(SHL, E, K(20)));
   unsigned implicit = K(0x00100000u), k1 = K(1), k54 = K(54), k2047 = K(2047);
   unsigned inf_hi = K(0x7ff00000u);
   unsigned mhi = Q(OR, frac, implicit), sh = Q(UMIN, Q(ISUB, k1, E), k54);
   unsigned s_lo, s_hi = round_shift(c, mhi, x1, sh, zero, k1, &s_lo);
   unsigned normal = Q(IGE, E, k1), ovf = Q(IGE, E, k2047);
   unsigned r_lo = QS(zero, ovf, QS(x1, normal, s_lo));
   unsigned r_hi = Q(OR, QS(inf_hi, ovf, QS(n_hi, normal, s_hi)), sign);
   c->t->copy(c, out, QS(spec, special, r_lo));
   c->t->copy(c, out + 1, QS(spec + 1, special, r_hi));
   c->scratch_next = mark;
   return out;
}

/* Source si's pair p with its TGSI modifiers (on the double's sign). */
static unsigned
dfetch(struct ref_ctx *c, const struct tgsi_insn *in, unsigned si, unsigned p)
{
   struct tgsi_insn raw = *in;
   raw.src[si].neg = raw.src[si].abs = false;
   unsigned lo = ref_fetch(c, &raw, si, 2 * p), hi = ref_fetch(c, &raw, si, 2 * p + 1);
   if (in->src[si].abs)
      hi = Q(AND, hi, K(0x7fffffffu));
   if (in->src[si].neg)
      hi = Q(XOR, hi, K(0x80000000u));
   return dpack(c, lo, hi);
}

/* One 64-bit result pair of a double opcode. */
static unsigned
dpair_op(struct ref_ctx *c, const struct tgsi_insn *in, unsigned p)
{
   enum tgsi_opcode op = in->op;
   if (op == TGSI_OP_F2D || op == TGSI_OP_I2D || op == TGSI_OP_U2D) {
      unsigned v = ref_fetch(c, in, 0, p);
      return dop(c,
                 op == TGSI_OP_F2D   ? F->f2d
                 : op == TGSI_OP_I2D ? F->i2d
                                     : F->u2d,
                 R(v), none(c), none(c));
   }
   unsigned a = dfetch(c, in, 0, p);
   unsigned mzero = 0, b = 0;
   switch (op) {
   case TGSI_OP_DADD:
   case TGSI_OP_DMUL:
   case TGSI_OP_DDIV:
   case TGSI_OP_DMIN:
   case TGSI_OP_DMAX:
   case TGSI_OP_DMAD:
   case TGSI_OP_DFMA:
      b = dfetch(c, in, 1, p);
      break;
   default:
      break;
   }
   switch (op) {
   case TGSI_OP_DADD:
      return dop(c, F->add, R(a), R(b), none(c));
   case TGSI_OP_DMUL:
      return dop(c, F->mul, R(a), R(b), none(c));
   case TGSI_OP_DFMA:
      return dop(c, F->fma, R(a), R(b), R(dfetch(c, in, 2, p)));
   case TGSI_OP_DMAD: /* two roundings, as the interpreter computes it */
   {
      unsigned ab = dop(c, F->mul, R(a), R(b), none(c)), cc = dfetch(c, in, 2, p);
      return dop(c, F->add, R(ab), R(cc), none(c));
   }
   case TGSI_OP_DMIN:
   case TGSI_OP_DMAX:
      return F->minmax(c, a, b, op == TGSI_OP_DMAX);
   case TGSI_OP_DDIV:
      return ddiv(c, a, b);
   case TGSI_OP_DRCP:
      return ddiv(c, dconst(c, 0x3ff0000000000000ull), a);
   case TGSI_OP_DSQRT:
      return dsqrt(c, a);
   case TGSI_OP_DRSQ: /* 1 / sqrt, two roundings */
   {
      unsigned one = dconst(c, 0x3ff0000000000000ull);
      return ddiv(c, one, dsqrt(c, a));
   }
   case TGSI_OP_DNEG: /* + -0: the sign flipped, a NaN made the quiet one */
   case TGSI_OP_DABS:
      mzero = dconst(c, 0x8000000000000000ull);
      return dop(c, F->add, op == TGSI_OP_DNEG ? ref_neg(R(a)) : ref_abs(R(a)), R(mzero), none(c));
   case TGSI_OP_DFLR:
      return dop(c, F->floor, R(a), none(c), none(c));
   case TGSI_OP_DCEIL:
      return dop(c, F->ceil, R(a), none(c), none(c));
   case TGSI_OP_DTRUNC:
      return dop(c, F->trunc, R(a), none(c), none(c));
   case TGSI_OP_DROUND:
      return dop(c, F->rndne, R(a), none(c), none(c));
   case TGSI_OP_DFRAC: {
      unsigned fl = dop(c, F->floor, R(a), none(c), none(c));
      return dop(c, F->add, R(a), ref_neg(R(fl)), none(c));
   }
   case TGSI_OP_DSSG: {
      unsigned dz = dconst(c, 0), lt = dcmp(c, "lt", a, dz), gt = dcmp(c, "gt", a, dz);
      unsigned mone = K(0xbff00000u), pone = K(0x3ff00000u), z = K(0);
      unsigned hi = QS(mone, lt, QS(pone, gt, z));
      return dpack(c, K(0), hi);
   }
   case TGSI_OP_DLDEXP: {
      unsigned n = ref_fetch(c, in, 1, 2 * p);
      return F->ldexp ? dop(c, F->ldexp, R(a), R(n), none(c)) : dldexp(c, a, n);
   }
   default:
      ref_unsupported(c, "no expansion for this double opcode");
      return a;
   }
}

/* Compares and 64 -> 32 conversions: one 32-bit value per pair. */
static unsigned
dto32(struct ref_ctx *c, const struct tgsi_insn *in, unsigned p)
{
   unsigned a = dfetch(c, in, 0, p), d = ref_tmp(c);
   switch (in->op) {
   case TGSI_OP_D2F:
      dalu(c, F->d2f, d, R(a), none(c), none(c));
      return d;
   case TGSI_OP_D2I:
   case TGSI_OP_D2U:
      dalu(c, in->op == TGSI_OP_D2I ? F->d2i : F->d2u, d, R(a), none(c), none(c));
      return d;
   default: {
      static const struct {
         enum tgsi_opcode op;
         const char *cond;
      } cmps[] = {
          {TGSI_OP_DSLT, "lt"}, {TGSI_OP_DSGE, "ge"}, {TGSI_OP_DSEQ, "eq"}, {TGSI_OP_DSNE, "ne"}};
      unsigned b = dfetch(c, in, 1, p);
      for (unsigned k = 0; k < ARRAY_SIZE(cmps); k++)
         if (cmps[k].op == in->op) {
            return F->cmp(c, cmps[k].cond, a, b, true);
         }
      ref_unsupported(c, "no expansion for this double opcode");
      return d;
   }
   }
}

static void
dpair_result(struct ref_ctx *c, const struct tgsi_insn *in, unsigned p, unsigned res[2])
{
   res[0] = dpair_op(c, in, p);
   res[1] = res[0] + 1;
}

bool
ref_fp64_wide(struct ref_ctx *c, const struct tgsi_insn *in)
{
   enum tgsi_opcode op = in->op;
   enum ref_wide_shape shape = REF_WIDE_PAIR;
   if (op == TGSI_OP_D2F || op == TGSI_OP_D2I || op == TGSI_OP_D2U)
      shape = REF_WIDE_TO32;
   else if (op == TGSI_OP_DSLT || op == TGSI_OP_DSGE || op == TGSI_OP_DSEQ || op == TGSI_OP_DSNE)
      shape = REF_WIDE_CMP;
   else if (op == TGSI_OP_F2D || op == TGSI_OP_I2D || op == TGSI_OP_U2D)
      shape = REF_WIDE_FROM32;
   ref_store_wide(c, in, shape, dto32, dpair_result);
   return true;
}

#undef QS
#undef Q
#undef K
#undef F
