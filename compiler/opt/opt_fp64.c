/*
 * Double-precision expansions, for models with FP64 arithmetic (sm50:
 * DADD, DMUL, DFMA, DSETP, DMNMX, F2F) but no instruction for the rest,
 * rewritten into IR ops they have before anything is selected, so that
 * each expansion is plain IR the evaluator checks against the host's
 * double arithmetic (fixtures/passes/fp64):
 *
 *   ddiv    correctly rounded: the significands' quotient by Markstein's
 *           step -- y = RN(1 / mb) from a float reciprocal seed and three
 *           Newton steps with dfma, q0 = ma y, r = ma - q0 mb (exact),
 *           q = q0 + r y -- then the exponent in integer arithmetic:
 *           overflow gives infinity, a subnormal quotient is rounded from
 *           q's 53 bits, the remainder's sign breaking a halfway tie. Zero,
 *           infinite and NaN operands take a * t (t = 1 / b for special b,
 *           else copysign(1, b));
 *   drcp    1 / x; drsq: 1 / sqrt(x) (two roundings, as the IR says);
 *   dsqrt   correctly rounded: x = m 2^e, m in [1, 4), e even; y =
 *           1/sqrt(m) from a float seed and two Newton steps, s0 = m y,
 *           r = m - s0^2 (exact), s = s0 + r y/2, e/2 added to s's
 *           exponent. +-0 and +inf give x, negatives and NaN a NaN;
 *   dldexp  exact: the exponent field moved in integer arithmetic (the
 *           count clamped to +-4000), infinity past the largest, a
 *           subnormal rounded to even from x's 53 bits;
 *   dsign, dfract  from compares and selects, x - floor(x).
 * (dneg and dabs stay: isel folds them into an operand's flags, or adds
 * -0.0 with the flag, which makes a NaN the quiet one as TGSI does.)
 * These are the reference compiler's sequences (compiler/ref/ref_sm50.c)
 * in IR; booleans are IR masks (0/~0), made 0/1 where they are added.
 * Denormal operands are scaled by 2^64 first (dnormalize).
 */
#include "compiler/ir/ir.h"

#include <stdlib.h>

struct fx {
   struct ir_shader *sh;
   struct ir_instr *pos;
};

static struct ir_instr *
op1(struct fx *x, enum ir_op op, struct ir_instr *a)
{
   return opt_build_before(x->sh, x->pos, op, 1, &a);
}

static struct ir_instr *
op2(struct fx *x, enum ir_op op, struct ir_instr *a, struct ir_instr *b)
{
   struct ir_instr *v[2] = {a, b};
   return opt_build_before(x->sh, x->pos, op, 2, v);
}

static struct ir_instr *
op3(struct fx *x, enum ir_op op, struct ir_instr *a, struct ir_instr *b, struct ir_instr *c)
{
   struct ir_instr *v[3] = {a, b, c};
   return opt_build_before(x->sh, x->pos, op, 3, v);
}

static struct ir_instr *
k(struct fx *x, uint32_t bits)
{
   return opt_imm_before(x->sh, x->pos, bits);
}

static struct ir_instr *
kd(struct fx *x, uint64_t bits)
{
   struct ir_instr *in = opt_build_before(x->sh, x->pos, IR_OP_IMM, 0, NULL);
   in->type = IR_TYPE_64;
   in->imm = bits;
   in->flags = 0;
   return in;
}

static struct ir_instr *
lo(struct fx *x, struct ir_instr *d)
{
   return op1(x, IR_OP_UNPACK64_LO, d);
}

static struct ir_instr *
hi(struct fx *x, struct ir_instr *d)
{
   return op1(x, IR_OP_UNPACK64_HI, d);
}

/* A mask as 0/1. */
static struct ir_instr *
bit(struct fx *x, struct ir_instr *mask)
{
   return op2(x, IR_OP_IAND, mask, k(x, 1));
}

/* c ? a : b with 32-bit constants. */
static struct ir_instr *
selk(struct fx *x, struct ir_instr *c, uint32_t a, struct ir_instr *b)
{
   return op3(x, IR_OP_BCSEL, c, k(x, a), b);
}

/* ------------------------------------------------------------------ */
/* Pieces                                                               */

/* The 53-bit significand mhi:mlo shifted right by s (1..54) and rounded
 * to nearest: above halfway up, below down, at it up when rpos (the exact
 * value lies above) or, when rzero (exact), to even. Low word in *rlo. */
static struct ir_instr *
round_shift(struct fx *x, struct ir_instr *mhi, struct ir_instr *mlo, struct ir_instr *s,
            struct ir_instr *rpos, struct ir_instr *rzero, struct ir_instr **rlo)
{
   struct ir_instr *one = k(x, 1), *k32 = k(x, 32), *zero = k(x, 0);
   struct ir_instr *small = op2(x, IR_OP_ULT, s, k32), *sb = op2(x, IR_OP_ISUB, s, k32);
   struct ir_instr *lo_a = op2(x, IR_OP_USHR, mlo, s);
   struct ir_instr *lo_b = op2(x, IR_OP_ISHL, mhi, op2(x, IR_OP_ISUB, k32, s));
   struct ir_instr *lo_far = op2(x, IR_OP_USHR, mhi, sb);
   struct ir_instr *sub_lo = op3(x, IR_OP_BCSEL, small, op2(x, IR_OP_IOR, lo_a, lo_b), lo_far);
   struct ir_instr *sub_hi = op3(x, IR_OP_BCSEL, small, op2(x, IR_OP_USHR, mhi, s), zero);
   struct ir_instr *all_ones = k(x, ~0u);
   struct ir_instr *m_lo =
       op3(x, IR_OP_BCSEL, small, op2(x, IR_OP_ISUB, op2(x, IR_OP_ISHL, one, s), one), all_ones);
   struct ir_instr *m_hi =
       op3(x, IR_OP_BCSEL, small, zero, op2(x, IR_OP_ISUB, op2(x, IR_OP_ISHL, one, sb), one));
   struct ir_instr *d_lo = op2(x, IR_OP_IAND, mlo, m_lo), *d_hi = op2(x, IR_OP_IAND, mhi, m_hi);
   struct ir_instr *t = op2(x, IR_OP_ISUB, s, one), *tsmall = op2(x, IR_OP_ULT, t, k32);
   struct ir_instr *h_lo = op3(x, IR_OP_BCSEL, tsmall, op2(x, IR_OP_ISHL, one, t), zero);
   struct ir_instr *h_hi =
       op3(x, IR_OP_BCSEL, tsmall, zero, op2(x, IR_OP_ISHL, one, op2(x, IR_OP_ISUB, t, k32)));
   struct ir_instr *hieq = op2(x, IR_OP_IEQ, d_hi, h_hi);
   struct ir_instr *lo_gt = op2(x, IR_OP_IAND, hieq, op2(x, IR_OP_ULT, h_lo, d_lo));
   struct ir_instr *gt = op2(x, IR_OP_IOR, op2(x, IR_OP_ULT, h_hi, d_hi), lo_gt);
   struct ir_instr *eq = op2(x, IR_OP_IAND, hieq, op2(x, IR_OP_IEQ, d_lo, h_lo));
   struct ir_instr *odd = op2(x, IR_OP_INE, op2(x, IR_OP_IAND, sub_lo, one), zero);
   struct ir_instr *tie_up = op2(x, IR_OP_IOR, rpos, op2(x, IR_OP_IAND, rzero, odd));
   struct ir_instr *up = bit(x, op2(x, IR_OP_IOR, gt, op2(x, IR_OP_IAND, eq, tie_up)));
   struct ir_instr *nlo = op2(x, IR_OP_IADD, sub_lo, up);
   *rlo = nlo;
   return op2(x, IR_OP_IADD, sub_hi, bit(x, op2(x, IR_OP_ULT, nlo, up)));
}

/* |d| with a denormal scaled by 2^64; its biased exponent (64 less for a
 * scaled one) in *e. */
static struct ir_instr *
dnormalize(struct fx *x, struct ir_instr *d, struct ir_instr **e)
{
   struct ir_instr *abs_mask = k(x, 0x7fffffffu);
   struct ir_instr *ah = op2(x, IR_OP_IAND, hi(x, d), abs_mask);
   struct ir_instr *ad = op2(x, IR_OP_PACK64, lo(x, d), ah);
   struct ir_instr *den = op2(x, IR_OP_ULT, ah, k(x, 0x00100000u));
   struct ir_instr *sc = op2(x, IR_OP_DMUL, ad, kd(x, 0x43f0000000000000ull)); /* 2^64 */
   struct ir_instr *d1 = op3(x, IR_OP_BCSEL, den, sc, ad);
   struct ir_instr *adj = selk(x, den, 64, k(x, 0));
   struct ir_instr *k20 = k(x, 20);
   *e = op2(x, IR_OP_ISUB, op2(x, IR_OP_USHR, hi(x, d1), k20), adj);
   return d1;
}

/* The significand of a normalized double, as a double in [1, 2). */
static struct ir_instr *
dsignificand(struct fx *x, struct ir_instr *d1)
{
   struct ir_instr *frac_mask = k(x, 0x000fffffu);
   struct ir_instr *f = op2(x, IR_OP_IAND, hi(x, d1), frac_mask);
   struct ir_instr *one_exp = k(x, 0x3ff00000u);
   struct ir_instr *m_hi = op2(x, IR_OP_IOR, f, one_exp);
   return op2(x, IR_OP_PACK64, lo(x, d1), m_hi);
}

/* Mask: d is +-0, +-inf or NaN. */
static struct ir_instr *
dspecial(struct fx *x, struct ir_instr *d)
{
   struct ir_instr *abs_mask = k(x, 0x7fffffffu);
   struct ir_instr *ah = op2(x, IR_OP_IAND, hi(x, d), abs_mask);
   struct ir_instr *zero = k(x, 0);
   struct ir_instr *z = op2(x, IR_OP_IEQ, op2(x, IR_OP_IOR, ah, lo(x, d)), zero);
   return op2(x, IR_OP_IOR, z, op2(x, IR_OP_UGE, ah, k(x, 0x7ff00000u)));
}

/* A double from the float approximation op(float(d)). */
static struct ir_instr *
dseed(struct fx *x, enum ir_op op, struct ir_instr *d)
{
   return op1(x, IR_OP_F2D, op1(x, op, op1(x, IR_OP_D2F, d)));
}

/* The result of an exponent computation: E the biased exponent of the
 * significand mant (hi word hm, lo word lm, its fraction in frac), a
 * subnormal rounded by round_shift; overflow gives infinity; sign ORed. */
static struct ir_instr *
assemble(struct fx *x, struct ir_instr *E, struct ir_instr *frac, struct ir_instr *lm,
         struct ir_instr *rpos, struct ir_instr *rzero, struct ir_instr *sign)
{
   struct ir_instr *n_hi = op2(x, IR_OP_IOR, frac, op2(x, IR_OP_ISHL, E, k(x, 20)));
   struct ir_instr *mhi = op2(x, IR_OP_IOR, frac, k(x, 0x00100000u));
   struct ir_instr *k54 = k(x, 54);
   struct ir_instr *sh = op2(x, IR_OP_UMIN, op2(x, IR_OP_ISUB, k(x, 1), E), k54);
   struct ir_instr *s_lo, *s_hi = round_shift(x, mhi, lm, sh, rpos, rzero, &s_lo);
   struct ir_instr *normal = op2(x, IR_OP_IGE, E, k(x, 1));
   struct ir_instr *ovf = op2(x, IR_OP_IGE, E, k(x, 2047));
   struct ir_instr *fin_lo = op3(x, IR_OP_BCSEL, normal, lm, s_lo);
   struct ir_instr *r_lo = op3(x, IR_OP_BCSEL, ovf, k(x, 0), fin_lo);
   struct ir_instr *r_hi = selk(x, ovf, 0x7ff00000u, op3(x, IR_OP_BCSEL, normal, n_hi, s_hi));
   return op2(x, IR_OP_PACK64, r_lo, op2(x, IR_OP_IOR, r_hi, sign));
}

/* ------------------------------------------------------------------ */
/* The expansions                                                       */

static struct ir_instr *
ddiv(struct fx *x, struct ir_instr *a, struct ir_instr *b)
{
   struct ir_instr *signm = k(x, 0x80000000u), *zero = k(x, 0);
   struct ir_instr *b_hi = hi(x, b);
   struct ir_instr *sign = op2(x, IR_OP_IAND, op2(x, IR_OP_IXOR, hi(x, a), b_hi), signm);
   /* specials: a * t */
   struct ir_instr *bsign = op2(x, IR_OP_IAND, hi(x, b), signm);
   struct ir_instr *abs_mask = k(x, 0x7fffffffu);
   struct ir_instr *bh = op2(x, IR_OP_IAND, hi(x, b), abs_mask);
   struct ir_instr *bzero = op2(x, IR_OP_IEQ, op2(x, IR_OP_IOR, bh, lo(x, b)), zero);
   struct ir_instr *blo_zero = op2(x, IR_OP_IEQ, lo(x, b), zero);
   struct ir_instr *inf_hi = k(x, 0x7ff00000u);
   struct ir_instr *binf = op2(x, IR_OP_IAND, op2(x, IR_OP_IEQ, bh, inf_hi), blo_zero);
   struct ir_instr *bspec = dspecial(x, b);
   struct ir_instr *special = op2(x, IR_OP_IOR, dspecial(x, a), bspec);
   struct ir_instr *t_hi = selk(x, bspec, 0x7ff80000u, op2(x, IR_OP_IOR, bsign, k(x, 0x3ff00000u)));
   t_hi = op3(x, IR_OP_BCSEL, binf, bsign, t_hi);
   t_hi = op3(x, IR_OP_BCSEL, bzero, op2(x, IR_OP_IOR, bsign, k(x, 0x7ff00000u)), t_hi);
   struct ir_instr *spec = op2(x, IR_OP_DMUL, a, op2(x, IR_OP_PACK64, zero, t_hi));
   /* significands and exponents */
   struct ir_instr *ea, *eb;
   struct ir_instr *ma = dsignificand(x, dnormalize(x, a, &ea));
   struct ir_instr *mb = dsignificand(x, dnormalize(x, b, &eb));
   /* y = RN(1 / mb); mb = 2 - 2^-52 is the one the steps miss */
   struct ir_instr *one = kd(x, 0x3ff0000000000000ull), *nmb = op1(x, IR_OP_DNEG, mb);
   struct ir_instr *y = dseed(x, IR_OP_FRCP, mb);
   for (unsigned i = 0; i < 3; i++) {
      struct ir_instr *e = op3(x, IR_OP_DFMA, y, nmb, one);
      y = i < 2 ? op3(x, IR_OP_DFMA, y, e, y) : op3(x, IR_OP_DFMA, e, y, y);
   }
   struct ir_instr *exc_hi_word = k(x, 0x3fffffffu);
   struct ir_instr *exc_hi = op2(x, IR_OP_IEQ, hi(x, mb), exc_hi_word);
   struct ir_instr *all_ones = k(x, ~0u);
   struct ir_instr *exc_lo = op2(x, IR_OP_IEQ, lo(x, mb), all_ones);
   struct ir_instr *exc = op2(x, IR_OP_IAND, exc_lo, exc_hi);
   y = op3(x, IR_OP_BCSEL, exc, kd(x, 0x3fe0000000000001ull), y);
   /* q = RN(ma / mb) and the remainder's sign */
   struct ir_instr *q0 = op2(x, IR_OP_DMUL, ma, y);
   struct ir_instr *r0 = op3(x, IR_OP_DFMA, mb, op1(x, IR_OP_DNEG, q0), ma);
   struct ir_instr *q = op3(x, IR_OP_DFMA, r0, y, q0);
   struct ir_instr *r = op3(x, IR_OP_DFMA, mb, op1(x, IR_OP_DNEG, q), ma);
   struct ir_instr *dz = kd(x, 0);
   struct ir_instr *rpos = op2(x, IR_OP_DLT, dz, r), *rzero = op2(x, IR_OP_DEQ, r, dz);
   /* the exponent back */
   struct ir_instr *qh = hi(x, q);
   struct ir_instr *E =
       op2(x, IR_OP_ISUB, op2(x, IR_OP_IADD, op2(x, IR_OP_USHR, qh, k(x, 20)), ea), eb);
   struct ir_instr *frac = op2(x, IR_OP_IAND, qh, k(x, 0x000fffffu));
   struct ir_instr *res = assemble(x, E, frac, lo(x, q), rpos, rzero, sign);
   return op3(x, IR_OP_BCSEL, special, spec, res);
}

static struct ir_instr *
dsqrt(struct fx *x, struct ir_instr *d)
{
   struct ir_instr *zero = k(x, 0), *dh = hi(x, d), *dl = lo(x, d);
   struct ir_instr *ah = op2(x, IR_OP_IAND, dh, k(x, 0x7fffffffu));
   struct ir_instr *iszero = op2(x, IR_OP_IEQ, op2(x, IR_OP_IOR, ah, dl), zero);
   struct ir_instr *lo_zero = op2(x, IR_OP_IEQ, dl, zero);
   struct ir_instr *pinf = op2(x, IR_OP_IAND, op2(x, IR_OP_IEQ, dh, k(x, 0x7ff00000u)), lo_zero);
   struct ir_instr *keep = op2(x, IR_OP_IOR, iszero, pinf);
   struct ir_instr *not_finite = op2(x, IR_OP_UGE, ah, k(x, 0x7ff00000u));
   struct ir_instr *negative = op2(x, IR_OP_UGE, dh, k(x, 0x80000000u));
   struct ir_instr *bad = op2(x, IR_OP_IOR, negative, not_finite);
   struct ir_instr *special = op2(x, IR_OP_IOR, keep, bad);
   struct ir_instr *eb, *d1 = dnormalize(x, d, &eb);
   struct ir_instr *e0 = op2(x, IR_OP_ISUB, eb, k(x, 1023));
   struct ir_instr *odd = op2(x, IR_OP_IAND, e0, k(x, 1));
   struct ir_instr *m0 = dsignificand(x, d1);
   struct ir_instr *m = op3(x, IR_OP_BCSEL, odd, op2(x, IR_OP_DADD, m0, m0), m0);
   struct ir_instr *e = op2(x, IR_OP_ISUB, e0, odd);
   struct ir_instr *half = kd(x, 0x3fe0000000000000ull), *one = kd(x, 0x3ff0000000000000ull);
   struct ir_instr *y = dseed(x, IR_OP_FRSQ, m);
   for (unsigned i = 0; i < 2; i++) {
      struct ir_instr *h = op2(x, IR_OP_DMUL, half, y);
      struct ir_instr *my = op2(x, IR_OP_DMUL, m, y);
      struct ir_instr *t = op3(x, IR_OP_DFMA, y, op1(x, IR_OP_DNEG, my), one);
      y = op3(x, IR_OP_DFMA, h, t, y);
   }
   struct ir_instr *s0 = op2(x, IR_OP_DMUL, m, y);
   struct ir_instr *r = op3(x, IR_OP_DFMA, s0, op1(x, IR_OP_DNEG, s0), m);
   struct ir_instr *s = op3(x, IR_OP_DFMA, r, op2(x, IR_OP_DMUL, half, y), s0);
   struct ir_instr *k20 = k(x, 20);
   struct ir_instr *half_e = op2(x, IR_OP_ISHL, op2(x, IR_OP_ISHR, e, k(x, 1)), k20);
   struct ir_instr *r_hi = op2(x, IR_OP_IADD, hi(x, s), half_e);
   struct ir_instr *s_lo = lo(x, s);
   struct ir_instr *o_lo = op3(x, IR_OP_BCSEL, special, op3(x, IR_OP_BCSEL, keep, dl, zero), s_lo);
   struct ir_instr *o_hi =
       op3(x, IR_OP_BCSEL, special, op3(x, IR_OP_BCSEL, keep, dh, k(x, 0x7ff80000u)), r_hi);
   return op2(x, IR_OP_PACK64, o_lo, o_hi);
}

static struct ir_instr *
dldexp(struct fx *x, struct ir_instr *d, struct ir_instr *n)
{
   struct ir_instr *sign_mask = k(x, 0x80000000u);
   struct ir_instr *sign = op2(x, IR_OP_IAND, hi(x, d), sign_mask);
   struct ir_instr *special = dspecial(x, d);
   struct ir_instr *spec = op2(x, IR_OP_DADD, d, kd(x, 0x8000000000000000ull)); /* + -0 */
   struct ir_instr *ex, *d1 = dnormalize(x, d, &ex);
   struct ir_instr *n_min = k(x, (uint32_t)-4000);
   struct ir_instr *nn = op2(x, IR_OP_IMAX, op2(x, IR_OP_IMIN, n, k(x, 4000)), n_min);
   struct ir_instr *E = op2(x, IR_OP_IADD, ex, nn);
   struct ir_instr *frac_mask = k(x, 0x000fffffu);
   struct ir_instr *frac = op2(x, IR_OP_IAND, hi(x, d1), frac_mask);
   struct ir_instr *all_ones = k(x, ~0u), *zero = k(x, 0), *m_lo = lo(x, d1);
   struct ir_instr *res = assemble(x, E, frac, m_lo, zero, all_ones, sign);
   return op3(x, IR_OP_BCSEL, special, spec, res);
}

static struct ir_instr *
dsign(struct fx *x, struct ir_instr *d)
{
   struct ir_instr *dz = kd(x, 0);
   struct ir_instr *lt = op2(x, IR_OP_DLT, d, dz), *gt = op2(x, IR_OP_DLT, dz, d);
   struct ir_instr *h = selk(x, lt, 0xbff00000u, selk(x, gt, 0x3ff00000u, k(x, 0)));
   return op2(x, IR_OP_PACK64, k(x, 0), h);
}

static struct ir_instr *
expand_one(struct fx *x, struct ir_instr *in)
{
   struct ir_instr *a = in->nsrc ? in->src[0] : NULL;
   switch (in->op) {
   case IR_OP_DDIV:
      return ddiv(x, a, in->src[1]);
   case IR_OP_DRCP:
      return ddiv(x, kd(x, 0x3ff0000000000000ull), a);
   case IR_OP_DSQRT:
      return dsqrt(x, a);
   case IR_OP_DRSQ: {
      struct ir_instr *root = dsqrt(x, a);
      return ddiv(x, kd(x, 0x3ff0000000000000ull), root);
   }
   case IR_OP_DLDEXP:
      return dldexp(x, a, in->src[1]);
   case IR_OP_DSIGN:
      return dsign(x, a);
   case IR_OP_DFRACT:
      return op2(x, IR_OP_DADD, a, op1(x, IR_OP_DNEG, op1(x, IR_OP_DFLOOR, a)));
   default:
      return NULL;
   }
}

/* Models with FP64 arithmetic: DFMA and F2F from and to f32. */
static bool
fp64_model(const struct isa_model *m)
{
   return m && opt_op_by_sem(m, ISA_SEM_DFMA) >= 0 && opt_op_by_sem(m, ISA_SEM_D2F) >= 0 &&
          opt_op_by_sem(m, ISA_SEM_F2D) >= 0;
}

bool
opt_fp64(struct ir_shader *sh, struct opt_ctx *ctx)
{
   (void)ctx;
   if (!fp64_model(sh->model))
      return false;
   bool progress = false;
   struct ir_instr **order;
   unsigned n = ir_program_order(sh, &order);
   for (unsigned i = 0; i < n; i++) {
      struct ir_instr *in = order[i];
      struct fx x = {sh, in};
      struct ir_instr *r = expand_one(&x, in);
      if (r) {
         r->flags = in->flags;
         opt_replace(sh, in, r);
         progress = true;
      }
   }
   free(order);
   return progress;
}
