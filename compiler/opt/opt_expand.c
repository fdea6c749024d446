/*
 * Expansions for instruction selection: IR ops the target has no
 * instruction for, rewritten into IR ops it has, before anything is
 * selected -- so each expansion is plain IR that the IR evaluator can
 * check against the op it replaces (the isel fixtures do).
 *
 * Integer division. GPUs like a3xx divide through the float reciprocal;
 * the estimate is then corrected with exact integer arithmetic:
 *   q  = f2u(u2f(n) * rcp(u2f(d)))          off by at most a few hundred
 *   q += f2i(i2f(n - q*d) * rcp(u2f(d)))    the signed error, now +-1
 *   q -= (n - q*d) < 0;  q += (n - q*d) >= d
 *   d >= 2^31: q = n >= d                   (the signed error overflows)
 * n - q*d is taken modulo 2^32 and read as signed; while d < 2^31 it is
 * small (|n - q*d| <= d + 2^10) so it fits. Checked against C's division
 * on 4e8 random and edge pairs and on every n in three 2^16 ranges for
 * 8192 divisors. The IR's division by 0 (~0, and 0 / -1 for the signed
 * forms) and INT_MIN / -1 = INT_MIN come out of selects and magnitudes.
 *
 * Bit fields: ibfe, ubfe and bfi with the IR's (tgsi_exec's) rules for
 * bits == 0, bits == 32 and offset + bits > 32, from shifts and selects.
 *
 * And, where the model has no instruction of the semantics: pow as
 * exp2(log2(a) * b) with C's pow(x, 0) = pow(1, y) = 1 (the reference
 * compiler's expansion, so the two agree); fmad as ffma where that is
 * allowed (opts.fuse_ffma, an inexact transformation: not for precise or
 * invariant values), else as a multiply and an add, exact; fsqrt correctly
 * rounded with one ffma Newton step (as the reference compiler does; without
 * ffma, rcp(rsq(x)), the target's approximate answer); fsign from two
 * compares; isub as an add of the negation; iabs as max(x, -x); fldexp as
 * the reference compiler's product of exact powers of two; imul_hi and
 * umul_hi from 16-bit partial products.
 */
#include "compiler/ir/ir.h"

#include <stdlib.h>

struct ex {
   struct ir_shader *sh;
   struct ir_instr *pos;
   struct opt_ctx *ctx;
};

static struct ir_instr *
op1(struct ex *x, enum ir_op op, struct ir_instr *a)
{
   return opt_build_before(x->sh, x->pos, op, 1, &a);
}

static struct ir_instr *
op2(struct ex *x, enum ir_op op, struct ir_instr *a, struct ir_instr *b)
{
   struct ir_instr *v[2] = {a, b};
   return opt_build_before(x->sh, x->pos, op, 2, v);
}

static struct ir_instr *
op3(struct ex *x, enum ir_op op, struct ir_instr *a, struct ir_instr *b, struct ir_instr *c)
{
   struct ir_instr *v[3] = {a, b, c};
   return opt_build_before(x->sh, x->pos, op, 3, v);
}

static struct ir_instr *
k(struct ex *x, uint32_t bits)
{
   return opt_imm_before(x->sh, x->pos, bits);
}

/* n / d and n % d, unsigned, for d != 0 (one call per statement: the
 * instruction order must not depend on C's argument order). */
static void
udivmod(struct ex *x, struct ir_instr *n, struct ir_instr *d, struct ir_instr **qo,
        struct ir_instr **ro)
{
   struct ir_instr *df = op1(x, IR_OP_U2F, d);
   struct ir_instr *rcp = op1(x, IR_OP_FRCP, df);
   struct ir_instr *nf = op1(x, IR_OP_U2F, n);
   struct ir_instr *est = op2(x, IR_OP_FMUL, nf, rcp);
   struct ir_instr *q0 = op1(x, IR_OP_F2U, est);
   struct ir_instr *p0 = op2(x, IR_OP_IMUL, q0, d);
   struct ir_instr *e0 = op2(x, IR_OP_ISUB, n, p0);
   struct ir_instr *ef = op1(x, IR_OP_I2F, e0);
   struct ir_instr *est1 = op2(x, IR_OP_FMUL, ef, rcp);
   struct ir_instr *c1 = op1(x, IR_OP_F2I, est1);
   struct ir_instr *q1 = op2(x, IR_OP_IADD, q0, c1);
   struct ir_instr *p1 = op2(x, IR_OP_IMUL, q1, d);
   struct ir_instr *e1 = op2(x, IR_OP_ISUB, n, p1);
   struct ir_instr *zero = k(x, 0);
   struct ir_instr *neg = op2(x, IR_OP_ILT, e1, zero); /* 0 or ~0 */
   struct ir_instr *over = op2(x, IR_OP_UGE, e1, d);
   struct ir_instr *pos = op1(x, IR_OP_INOT, neg);
   struct ir_instr *big = op2(x, IR_OP_IAND, over, pos); /* e >= d, and not negative */
   struct ir_instr *down = op2(x, IR_OP_IADD, q1, neg);  /* q - 1 where e < 0 */
   struct ir_instr *up = op2(x, IR_OP_ISUB, down, big);  /* q + 1 where e >= d */
   struct ir_instr *e_down = op2(x, IR_OP_IAND, neg, d);
   struct ir_instr *e2 = op2(x, IR_OP_IADD, e1, e_down);
   struct ir_instr *e_up = op2(x, IR_OP_IAND, big, d);
   struct ir_instr *e3 = op2(x, IR_OP_ISUB, e2, e_up);
   /* d >= 2^31: the quotient is 0 or 1 */
   struct ir_instr *top = k(x, 0x80000000u);
   struct ir_instr *huge = op2(x, IR_OP_UGE, d, top);
   struct ir_instr *ge = op2(x, IR_OP_UGE, n, d);
   struct ir_instr *one = k(x, 1);
   struct ir_instr *qh = op2(x, IR_OP_IAND, ge, one);
   struct ir_instr *rsub = op2(x, IR_OP_ISUB, n, d);
   struct ir_instr *rh = op3(x, IR_OP_BCSEL, ge, rsub, n);
   *qo = op3(x, IR_OP_BCSEL, huge, qh, up);
   *ro = op3(x, IR_OP_BCSEL, huge, rh, e3);
}

static struct ir_instr *
expand_div(struct ex *x, struct ir_instr *in)
{
   struct ir_instr *a = in->src[0], *b = in->src[1], *q, *r;
   struct ir_instr *zero = k(x, 0), *ones = k(x, ~0u);
   struct ir_instr *dz = op2(x, IR_OP_IEQ, b, zero);
   if (in->op == IR_OP_UDIV || in->op == IR_OP_UMOD) {
      udivmod(x, a, b, &q, &r);
      return op3(x, IR_OP_BCSEL, dz, ones, in->op == IR_OP_UDIV ? q : r);
   }
   /* the magnitudes' quotient and remainder, then C's signs */
   struct ir_instr *aa = op1(x, IR_OP_IABS, a);
   struct ir_instr *ba = op1(x, IR_OP_IABS, b);
   udivmod(x, aa, ba, &q, &r);
   if (in->op == IR_OP_IDIV) {
      struct ir_instr *sx = op2(x, IR_OP_IXOR, a, b);
      struct ir_instr *sn = op2(x, IR_OP_ILT, sx, zero);
      struct ir_instr *nq = op1(x, IR_OP_INEG, q);
      struct ir_instr *res = op3(x, IR_OP_BCSEL, sn, nq, q);
      return op3(x, IR_OP_BCSEL, dz, zero, res);
   }
   struct ir_instr *an = op2(x, IR_OP_ILT, a, zero);
   struct ir_instr *nr = op1(x, IR_OP_INEG, r);
   struct ir_instr *res = op3(x, IR_OP_BCSEL, an, nr, r);
   return op3(x, IR_OP_BCSEL, dz, ones, res);
}

/* ibfe/ubfe(v, offset, bits) as tgsi_exec: off = offset & 31; bits == 32
 * and off == 0: v; bits &= 31; bits == 0: 0; bits + off < 32: the field
 * moved to the top and back; else v >> off. */
static struct ir_instr *
expand_bfe(struct ex *x, struct ir_instr *in)
{
   bool sign = in->op == IR_OP_IBFE;
   enum ir_op shr = sign ? IR_OP_ISHR : IR_OP_USHR;
   struct ir_instr *v = in->src[0], *k31 = k(x, 31), *k32 = k(x, 32), *zero = k(x, 0);
   struct ir_instr *off = op2(x, IR_OP_IAND, in->src[1], k31);
   struct ir_instr *b = op2(x, IR_OP_IAND, in->src[2], k31);
   struct ir_instr *left = op2(x, IR_OP_ISUB, k32, b);
   struct ir_instr *lsh = op2(x, IR_OP_ISUB, left, off);
   struct ir_instr *t = op2(x, IR_OP_ISHL, v, lsh);
   struct ir_instr *field = op2(x, shr, t, left);
   struct ir_instr *rest = op2(x, shr, v, off);
   struct ir_instr *end = op2(x, IR_OP_IADD, b, off);
   struct ir_instr *fits = op2(x, IR_OP_ULT, end, k32);
   struct ir_instr *r = op3(x, IR_OP_BCSEL, fits, field, rest);
   struct ir_instr *b0 = op2(x, IR_OP_IEQ, b, zero);
   r = op3(x, IR_OP_BCSEL, b0, zero, r);
   struct ir_instr *w32 = op2(x, IR_OP_IEQ, in->src[2], k32);
   struct ir_instr *o0 = op2(x, IR_OP_IEQ, off, zero);
   struct ir_instr *whole = op2(x, IR_OP_IAND, w32, o0);
   return op3(x, IR_OP_BCSEL, whole, v, r);
}

/* bfi(base, insert, offset, bits): bits >= 32 gives insert; else the
 * mask ((1 << bits) - 1) << (offset & 31) takes insert << offset. */
static struct ir_instr *
expand_bfi(struct ex *x, struct ir_instr *in)
{
   struct ir_instr *base = in->src[0], *ins = in->src[1], *bits = in->src[3];
   struct ir_instr *k31 = k(x, 31), *one = k(x, 1), *k32 = k(x, 32);
   struct ir_instr *off = op2(x, IR_OP_IAND, in->src[2], k31);
   struct ir_instr *p = op2(x, IR_OP_ISHL, one, bits);
   struct ir_instr *low = op2(x, IR_OP_ISUB, p, one);
   struct ir_instr *m = op2(x, IR_OP_ISHL, low, off);
   struct ir_instr *is = op2(x, IR_OP_ISHL, ins, off);
   struct ir_instr *a = op2(x, IR_OP_IAND, is, m);
   struct ir_instr *nm = op1(x, IR_OP_INOT, m);
   struct ir_instr *keep = op2(x, IR_OP_IAND, base, nm);
   struct ir_instr *r = op2(x, IR_OP_IOR, a, keep);
   struct ir_instr *all = op2(x, IR_OP_UGE, bits, k32);
   return op3(x, IR_OP_BCSEL, all, ins, r);
}

static struct ir_instr *
expand_pow(struct ex *x, struct ir_instr *in)
{
   struct ir_instr *a = in->src[0], *b = in->src[1];
   struct ir_instr *lg = op1(x, IR_OP_FLOG2, a);
   struct ir_instr *m = op2(x, IR_OP_FMUL, lg, b);
   struct ir_instr *e = op1(x, IR_OP_FEXP2, m);
   struct ir_instr *one = k(x, 0x3f800000u);
   if (!(b->op == IR_OP_IMM && ((uint32_t)b->imm & 0x7fffffffu))) {
      struct ir_instr *zero = k(x, 0);
      struct ir_instr *b0 = op2(x, IR_OP_FEQ, b, zero);
      e = op3(x, IR_OP_BCSEL, b0, one, e);
   }
   struct ir_instr *a1 = op2(x, IR_OP_FEQ, a, one);
   return op3(x, IR_OP_BCSEL, a1, one, e);
}

/* sqrt(a) correctly rounded where the model has no sqrt but has ffma: the
 * reference compiler's sequence (ref_sm50.c sqrt_exact), so the two agree
 * bit for bit. One Newton step on s0 = a * rsq(a): r = a - s0 * s0 (exact
 * with ffma), s = s0 + r * (rsq(a) / 2); a below 2^-102 is scaled by
 * 2^100 and the root by 2^-50 so that r cannot underflow. Zero, negative,
 * infinite and NaN inputs take rcp(rsq(a)), which is IEEE for them. */
static struct ir_instr *
expand_sqrt(struct ex *x, struct ir_instr *in)
{
   struct ir_instr *a = in->src[0];
   struct ir_instr *inf = k(x, 0x7f800000u), *zero = k(x, 0);
   struct ir_instr *big = op2(x, IR_OP_UGE, a, inf); /* +inf, NaN, negative */
   struct ir_instr *z = op2(x, IR_OP_IEQ, a, zero);
   struct ir_instr *spec = op2(x, IR_OP_IOR, big, z);
   struct ir_instr *small = op2(x, IR_OP_ULT, a, k(x, 0x0c800000u));
   struct ir_instr *up = op2(x, IR_OP_FMUL, a, k(x, 0x71800000u)); /* 2^100 */
   struct ir_instr *xs = op3(x, IR_OP_BCSEL, small, up, a);
   struct ir_instr *y = op1(x, IR_OP_FRSQ, xs);
   struct ir_instr *s0 = op2(x, IR_OP_FMUL, xs, y);
   struct ir_instr *ns0 = op1(x, IR_OP_FNEG, s0);
   struct ir_instr *r = op3(x, IR_OP_FFMA, ns0, s0, xs);
   struct ir_instr *hy = op2(x, IR_OP_FMUL, y, k(x, 0x3f000000u));
   struct ir_instr *s1 = op3(x, IR_OP_FFMA, r, hy, s0);
   struct ir_instr *down = op2(x, IR_OP_FMUL, s1, k(x, 0x26800000u)); /* 2^-50 */
   struct ir_instr *s = op3(x, IR_OP_BCSEL, small, down, s1);
   struct ir_instr *naive = op1(x, IR_OP_FRCP, op1(x, IR_OP_FRSQ, a));
   return op3(x, IR_OP_BCSEL, spec, naive, s);
}

/* The high word of the 32 x 32 product from 16-bit halves (no model has
 * a high multiply): hi = ah*bh + (lh >> 16) + (hl >> 16) + (((ll >> 16) +
 * lo16(lh) + lo16(hl)) >> 16); signed: minus b where a < 0 and a where
 * b < 0. */
static struct ir_instr *
expand_mul_hi(struct ex *x, struct ir_instr *in)
{
   struct ir_instr *a = in->src[0], *b = in->src[1], *k16 = k(x, 16), *mask = k(x, 0xffff);
   struct ir_instr *al = op2(x, IR_OP_IAND, a, mask);
   struct ir_instr *bl = op2(x, IR_OP_IAND, b, mask);
   struct ir_instr *ah = op2(x, IR_OP_USHR, a, k16);
   struct ir_instr *bh = op2(x, IR_OP_USHR, b, k16);
   struct ir_instr *ll = op2(x, IR_OP_IMUL, al, bl);
   struct ir_instr *lh = op2(x, IR_OP_IMUL, al, bh);
   struct ir_instr *hl = op2(x, IR_OP_IMUL, ah, bl);
   struct ir_instr *hh = op2(x, IR_OP_IMUL, ah, bh);
   struct ir_instr *mid = op2(x, IR_OP_USHR, ll, k16);
   mid = op2(x, IR_OP_IADD, mid, op2(x, IR_OP_IAND, lh, mask));
   mid = op2(x, IR_OP_IADD, mid, op2(x, IR_OP_IAND, hl, mask));
   struct ir_instr *hi = op2(x, IR_OP_IADD, hh, op2(x, IR_OP_USHR, lh, k16));
   hi = op2(x, IR_OP_IADD, hi, op2(x, IR_OP_USHR, hl, k16));
   hi = op2(x, IR_OP_IADD, hi, op2(x, IR_OP_USHR, mid, k16));
   if (in->op == IR_OP_UMUL_HI)
      return hi;
   struct ir_instr *zero = k(x, 0);
   struct ir_instr *an = op2(x, IR_OP_ILT, a, zero);
   struct ir_instr *bn = op2(x, IR_OP_ILT, b, zero);
   hi = op2(x, IR_OP_ISUB, hi, op3(x, IR_OP_BCSEL, an, b, zero));
   return op2(x, IR_OP_ISUB, hi, op3(x, IR_OP_BCSEL, bn, a, zero));
}

/* ldexp(a, n) as the reference compiler takes it: n clamped to [-300,
 * 300], split as 3k + rest with |k| = |n| / 4, then a * 2^k * 2^k * 2^k *
 * 2^rest -- each factor exact, so only the products round, and a
 * result that is finite or a denormal comes out as ldexpf gives it. */
static struct ir_instr *
expand_ldexp(struct ex *x, struct ir_instr *in)
{
   struct ir_instr *a = in->src[0], *lim = k(x, 300);
   struct ir_instr *lo = op1(x, IR_OP_INEG, lim);
   struct ir_instr *m = op2(x, IR_OP_IMAX, in->src[1], lo);
   m = op2(x, IR_OP_IMIN, m, lim);
   struct ir_instr *mag = op2(x, IR_OP_IMAX, m, op1(x, IR_OP_INEG, m));
   struct ir_instr *q = op2(x, IR_OP_USHR, mag, k(x, 2));
   struct ir_instr *neg = op2(x, IR_OP_ILT, m, k(x, 0));
   struct ir_instr *kk = op3(x, IR_OP_BCSEL, neg, op1(x, IR_OP_INEG, q), q);
   struct ir_instr *rest = op2(x, IR_OP_ISUB, m, op2(x, IR_OP_IMUL, kk, k(x, 3)));
   struct ir_instr *fk = op1(x, IR_OP_FEXP2, op1(x, IR_OP_I2F, kk));
   struct ir_instr *r = op2(x, IR_OP_FMUL, a, fk);
   r = op2(x, IR_OP_FMUL, r, fk);
   r = op2(x, IR_OP_FMUL, r, fk);
   return op2(x, IR_OP_FMUL, r, op1(x, IR_OP_FEXP2, op1(x, IR_OP_I2F, rest)));
}

/* sign(x) = (0 < x) - (x < 0) in floats: NaN and -0 give +0. */
static struct ir_instr *
expand_fsign(struct ex *x, struct ir_instr *in)
{
   struct ir_instr *zero = k(x, 0);
   struct ir_instr *pos = op2(x, IR_OP_SLT, zero, in->src[0]);
   struct ir_instr *neg = op2(x, IR_OP_SLT, in->src[0], zero);
   struct ir_instr *nn = op1(x, IR_OP_FNEG, neg);
   return op2(x, IR_OP_FADD, pos, nn);
}

/* Does the model have an op of the semantics? (opt_op_by_sem finds one
 * exactly when there is any: asked per instruction, it also builds a
 * record per candidate.) */
static bool
has(const struct isa_model *m, enum isa_sem sem)
{
   unsigned n = 0;
   if (m)
      isa_ops_by_sem(m, sem, &n);
   return n > 0;
}

/* The fusion fault that allows fusing the fmad in (opt_fuse.c has their
 * other hooks), or OPT_FAULT_COUNT: precise ignored, or an invariant value
 * fused when its result has one use. */
static enum opt_fault
fault_fuse_ok(const struct ex *x, const struct ir_instr *in)
{
   if (opt_fault(x->ctx, OPT_FAULT_FUSE_PRECISE) && !(in->flags & IR_VF_INVARIANT))
      return OPT_FAULT_FUSE_PRECISE;
   if (!opt_fault(x->ctx, OPT_FAULT_FUSE_USED_ONCE) || (in->flags & IR_VF_PRECISE))
      return OPT_FAULT_COUNT;
   unsigned uses = 0;
   for (unsigned i = 0; i < x->sh->nvalues; i++) {
      const struct ir_instr *u = x->sh->values[i];
      for (unsigned k = 0; u && !u->removed && k < u->nsrc; k++)
         uses += u->src[k] == in;
   }
   return uses == 1 ? OPT_FAULT_FUSE_USED_ONCE : OPT_FAULT_COUNT;
}

/* Whether the fmad in becomes an ffma: an inexact transformation, or the
 * firing of the fault that allows it. */
static bool
fuse_fmad(struct ex *x, const struct ir_instr *in)
{
#define FMAD_FMT "fmad %%%u as ffma (one rounding: inexact)"
   enum opt_fault f = opt_inexact_ok(in) ? OPT_FAULT_COUNT : fault_fuse_ok(x, in);
   if (!opt_inexact_ok(in) && f == OPT_FAULT_COUNT)
      return false;
   x->ctx->verify_class = OPT_VERIFY_FUSED; /* opt_verify.c */
   return f == OPT_FAULT_COUNT ? opt_transform(x->ctx, FMAD_FMT, in->id)
                               : opt_fault_fires(x->ctx, f, FMAD_FMT, in->id);
#undef FMAD_FMT
}

/* The replacement for in, or NULL when the model selects it as it is. */
static struct ir_instr *
expand_one(struct ex *x, const struct isa_model *m, struct ir_instr *in)
{
   switch (in->op) {
   case IR_OP_UDIV:
   case IR_OP_UMOD:
   case IR_OP_IDIV:
   case IR_OP_IMOD:
      return expand_div(x, in);
   case IR_OP_IBFE:
   case IR_OP_UBFE:
      return expand_bfe(x, in);
   case IR_OP_BFI:
      return expand_bfi(x, in);
   case IR_OP_FPOW:
      return expand_pow(x, in);
   case IR_OP_FMAD:
      if (has(m, ISA_SEM_FMAD))
         return NULL;
      /* inexact: rounded once; only with fuse_ffma, never for precise or
       * invariant values */
      if (x->ctx->opts.fuse_ffma && has(m, ISA_SEM_FFMA) && fuse_fmad(x, in))
         return opt_build_before(x->sh, in, IR_OP_FFMA, 3, in->src);
      /* exact: round the product, then the sum */
      return op2(x, IR_OP_FADD, op2(x, IR_OP_FMUL, in->src[0], in->src[1]), in->src[2]);
   case IR_OP_FSQRT:
      if (has(m, ISA_SEM_SQRT))
         return NULL;
      if (has(m, ISA_SEM_FFMA))
         return expand_sqrt(x, in);
      return op1(x, IR_OP_FRCP, op1(x, IR_OP_FRSQ, in->src[0]));
   case IR_OP_FSIGN:
      return has(m, ISA_SEM_FSIGN) ? NULL : expand_fsign(x, in);
   case IR_OP_FLDEXP:
      return expand_ldexp(x, in);
   case IR_OP_UMUL_HI:
   case IR_OP_IMUL_HI:
      return expand_mul_hi(x, in);
   case IR_OP_ISUB:
      return has(m, ISA_SEM_ISUB) ? NULL
                                  : op2(x, IR_OP_IADD, in->src[0], op1(x, IR_OP_INEG, in->src[1]));
   case IR_OP_IABS:
      return has(m, ISA_SEM_IABSNEG)
                 ? NULL
                 : op2(x, IR_OP_IMAX, in->src[0], op1(x, IR_OP_INEG, in->src[0]));
   default:
      return NULL;
   }
}

/* a / b correctly rounded, IEEE with denormals (TXP's projection): the
 * reference compiler's ref_fdiv step for step, so the two agree to the
 * bit. The significands' quotient by Markstein's step (y = rcp(mb), q0 =
 * ma * y, r = ma - q0 * mb exact with ffma, q = q0 + r * y), the exponent
 * put back in integer arithmetic (overflow: infinity; a subnormal result
 * rounded from q's 24 bits, the remainder's sign deciding ties); denormal
 * operands scaled by 2^24; zero, infinite and NaN operands take a *
 * rcp(b) (b special) or a * copysign(1, b). One call per statement: the
 * instruction order must not depend on C's argument order. */
static struct ir_instr *
exact_div(struct ex *x, struct ir_instr *a, struct ir_instr *b)
{
   struct ir_instr *absm = k(x, 0x7fffffffu), *signm = k(x, 0x80000000u), *inf = k(x, 0x7f800000u);
   struct ir_instr *fracm = k(x, 0x7fffffu), *one_exp = k(x, 0x3f800000u), *k23 = k(x, 23);
   struct ir_instr *zero = k(x, 0);
   struct ir_instr *A = op2(x, IR_OP_IAND, a, absm);
   struct ir_instr *B = op2(x, IR_OP_IAND, b, absm);
   struct ir_instr *sign = op2(x, IR_OP_IXOR, a, b);
   sign = op2(x, IR_OP_IAND, sign, signm);
   struct ir_instr *az = op2(x, IR_OP_IEQ, A, zero), *bz = op2(x, IR_OP_IEQ, B, zero);
   struct ir_instr *ainf = op2(x, IR_OP_UGE, A, inf), *binf = op2(x, IR_OP_UGE, B, inf);
   struct ir_instr *aspec = op2(x, IR_OP_IOR, az, ainf), *bspec = op2(x, IR_OP_IOR, bz, binf);
   struct ir_instr *bsign = op2(x, IR_OP_IAND, b, signm);
   struct ir_instr *one_b = op2(x, IR_OP_IOR, bsign, one_exp);
   struct ir_instr *rb = op1(x, IR_OP_FRCP, b);
   struct ir_instr *t = op3(x, IR_OP_BCSEL, bspec, rb, one_b);
   struct ir_instr *spec = op2(x, IR_OP_FMUL, a, t);
   struct ir_instr *norm_min = k(x, 0x800000u), *scale = k(x, 0x4b800000u), *adj = k(x, 24);
   struct ir_instr *m[2], *e[2];
   for (unsigned i = 0; i < 2; i++) {
      struct ir_instr *v = i ? B : A;
      struct ir_instr *den = op2(x, IR_OP_ULT, v, norm_min);
      struct ir_instr *scaled = op2(x, IR_OP_FMUL, v, scale);
      struct ir_instr *v1 = op3(x, IR_OP_BCSEL, den, scaled, v);
      struct ir_instr *sub = op3(x, IR_OP_BCSEL, den, adj, zero);
      struct ir_instr *ex = op2(x, IR_OP_USHR, v1, k23);
      e[i] = op2(x, IR_OP_ISUB, ex, sub);
      struct ir_instr *frac = op2(x, IR_OP_IAND, v1, fracm);
      m[i] = op2(x, IR_OP_IOR, frac, one_exp);
   }
   struct ir_instr *y = op1(x, IR_OP_FRCP, m[1]);
   struct ir_instr *q0 = op2(x, IR_OP_FMUL, m[0], y);
   struct ir_instr *nq0 = op1(x, IR_OP_FNEG, q0);
   struct ir_instr *r0 = op3(x, IR_OP_FFMA, nq0, m[1], m[0]);
   struct ir_instr *q = op3(x, IR_OP_FFMA, r0, y, q0);
   struct ir_instr *nq = op1(x, IR_OP_FNEG, q);
   struct ir_instr *r = op3(x, IR_OP_FFMA, nq, m[1], m[0]);
   struct ir_instr *qe = op2(x, IR_OP_USHR, q, k23);
   qe = op2(x, IR_OP_IADD, qe, e[0]);
   struct ir_instr *E = op2(x, IR_OP_ISUB, qe, e[1]);
   struct ir_instr *qf = op2(x, IR_OP_IAND, q, fracm);
   struct ir_instr *Eh = op2(x, IR_OP_ISHL, E, k23);
   struct ir_instr *normal = op2(x, IR_OP_IOR, qf, Eh);
   /* subnormal: round (q's 24 bits) >> (1 - E), shift at most 25 */
   struct ir_instr *M = op2(x, IR_OP_IOR, qf, norm_min), *one = k(x, 1), *k25 = k(x, 25);
   struct ir_instr *sh = op2(x, IR_OP_ISUB, one, E);
   sh = op2(x, IR_OP_UMIN, sh, k25);
   struct ir_instr *sub = op2(x, IR_OP_USHR, M, sh);
   struct ir_instr *p = op2(x, IR_OP_ISHL, one, sh);
   p = op2(x, IR_OP_ISUB, p, one);
   struct ir_instr *D = op2(x, IR_OP_IAND, M, p);
   struct ir_instr *sh1 = op2(x, IR_OP_ISUB, sh, one);
   struct ir_instr *H = op2(x, IR_OP_ISHL, one, sh1);
   struct ir_instr *fzero = k(x, 0);
   struct ir_instr *rgt = op2(x, IR_OP_FLT, fzero, r), *req = op2(x, IR_OP_FEQ, r, fzero);
   struct ir_instr *odd = op2(x, IR_OP_IAND, sub, one);
   struct ir_instr *tie_up = op2(x, IR_OP_IAND, req, odd);
   tie_up = op2(x, IR_OP_IOR, rgt, tie_up);
   struct ir_instr *H1 = op2(x, IR_OP_IADD, H, one);
   struct ir_instr *above = op2(x, IR_OP_UGE, D, H1);
   struct ir_instr *half = op2(x, IR_OP_IEQ, D, H);
   struct ir_instr *up = op2(x, IR_OP_IAND, half, tie_up);
   up = op2(x, IR_OP_IOR, above, up);
   struct ir_instr *inc = op3(x, IR_OP_BCSEL, up, one, zero);
   sub = op2(x, IR_OP_IADD, sub, inc);
   struct ir_instr *isnorm = op2(x, IR_OP_IGE, E, one);
   struct ir_instr *res = op3(x, IR_OP_BCSEL, isnorm, normal, sub);
   struct ir_instr *k255 = k(x, 255);
   struct ir_instr *over = op2(x, IR_OP_IGE, E, k255);
   res = op3(x, IR_OP_BCSEL, over, inf, res);
   res = op2(x, IR_OP_IOR, res, sign);
   struct ir_instr *special = op2(x, IR_OP_IOR, aspec, bspec);
   return op3(x, IR_OP_BCSEL, special, spec, res);
}

/* TXP on a target whose texture unit does not project (sm50): the
 * spatial coordinates and the shadow reference divided by the projection
 * exactly, as the interpreter and the reference compiler divide; a target
 * with neither projection nor ffma gets a * rcp(w). */
static bool
expand_proj(struct ex *x, const struct isa_model *m, struct ir_instr *in)
{
   int pj = -1;
   for (unsigned i = 0; i < in->nsrc; i++)
      if (in->role[i] == IR_TEXSRC_proj)
         pj = (int)i;
   if (pj < 0 || isa_mod_by_role(m, ISA_ROLE_TEX_PROJ) >= 0)
      return false;
   struct ir_instr *w = in->src[pj];
   unsigned nsp = tgsi_texture_spatial_coords((enum tgsi_texture)in->target), c = 0;
   for (unsigned i = 0; i < in->nsrc; i++) {
      bool coord = in->role[i] == IR_TEXSRC_coord && c++ < nsp;
      if (!coord && in->role[i] != IR_TEXSRC_cmp)
         continue;
      ir_set_src(in, i,
                 has(m, ISA_SEM_FFMA) ? exact_div(x, in->src[i], w)
                                      : op2(x, IR_OP_FMUL, in->src[i], op1(x, IR_OP_FRCP, w)));
   }
   for (unsigned i = (unsigned)pj; i + 1 < in->nsrc; i++) {
      ir_set_src(in, i, in->src[i + 1]);
      in->role[i] = in->role[i + 1];
   }
   in->nsrc--;
   return true;
}

static bool
is_cube(int32_t t)
{
   return t == TGSI_TEX_T_CUBE || t == TGSI_TEX_T_SHADOWCUBE || t == TGSI_TEX_T_CUBE_ARRAY ||
          t == TGSI_TEX_T_SHADOWCUBE_ARRAY;
}

/* sel(zmaj, z, sel(ymaj, y, x)): one per statement (see exact_div). */
static struct ir_instr *
pick(struct ex *x, struct ir_instr *zmaj, struct ir_instr *ymaj, struct ir_instr *z,
     struct ir_instr *y, struct ir_instr *xv)
{
   struct ir_instr *yx = op3(x, IR_OP_BCSEL, ymaj, y, xv);
   return op3(x, IR_OP_BCSEL, zmaj, z, yx);
}

/* A cube lookup on a target whose texture unit takes a face and its
 * coordinates (gfx9, which has v_cubeid): the face of the direction as
 * sem_cube picks it (the major axis z, then y, then x on ties), sc / |ma|
 * + 1.5 and tc / |ma| + 1.5 divided exactly (|ma| twice the major
 * coordinate's magnitude), the face plus 8 times the layer rounded and
 * clamped to 0..65535 -- the reference compiler's cube_coords, so the two
 * agree to the bit; the lookup (or LODQ) is then a 2-D array one. TXD,
 * fetches and size queries keep their cube target (isel refuses TXD). */
static bool
expand_cube(struct ex *x, const struct isa_model *m, struct ir_instr *in)
{
   int32_t t = in->target;
   bool arr = t == TGSI_TEX_T_CUBE_ARRAY || t == TGSI_TEX_T_SHADOWCUBE_ARRAY;
   unsigned c[4], nc = 0;
   if (!is_cube(t) || !has(m, ISA_SEM_CUBEID) || !has(m, ISA_SEM_FFMA) ||
       (in->kind != IR_TEX_tex && in->kind != IR_TEX_txb && in->kind != IR_TEX_txl &&
        in->kind != IR_TEX_lodq))
      return false;
   for (unsigned i = 0; i < in->nsrc && nc < 4; i++)
      if (in->role[i] == IR_TEXSRC_coord)
         c[nc++] = i;
   if (nc < (arr ? 4u : 3u))
      return false;
   struct ir_instr *X = in->src[c[0]], *Y = in->src[c[1]], *Z = in->src[c[2]];
   struct ir_instr *ax = op1(x, IR_OP_FABS, X), *ay = op1(x, IR_OP_FABS, Y);
   struct ir_instr *az = op1(x, IR_OP_FABS, Z), *zero = k(x, 0);
   struct ir_instr *zx = op2(x, IR_OP_FGE, az, ax), *zy = op2(x, IR_OP_FGE, az, ay);
   struct ir_instr *zmaj = op2(x, IR_OP_IAND, zx, zy), *ymaj = op2(x, IR_OP_FGE, ay, ax);
   struct ir_instr *xneg = op2(x, IR_OP_FLT, X, zero), *yneg = op2(x, IR_OP_FLT, Y, zero);
   struct ir_instr *zneg = op2(x, IR_OP_FLT, Z, zero);
   struct ir_instr *nx = op1(x, IR_OP_FNEG, X), *ny = op1(x, IR_OP_FNEG, Y);
   struct ir_instr *nz = op1(x, IR_OP_FNEG, Z);
   /* +X 0, -X 1, +Y 2, -Y 3, +Z 4, -Z 5 */
   struct ir_instr *id_pz = k(x, 0x40800000u), *id_nz = k(x, 0x40a00000u);
   struct ir_instr *idz = op3(x, IR_OP_BCSEL, zneg, id_nz, id_pz);
   struct ir_instr *id_py = k(x, 0x40000000u), *id_ny = k(x, 0x40400000u);
   struct ir_instr *idy = op3(x, IR_OP_BCSEL, yneg, id_ny, id_py);
   struct ir_instr *idx = op3(x, IR_OP_BCSEL, xneg, k(x, 0x3f800000u), zero);
   struct ir_instr *scz = op3(x, IR_OP_BCSEL, zneg, nx, X);
   struct ir_instr *scx = op3(x, IR_OP_BCSEL, xneg, Z, nz);
   struct ir_instr *tcy = op3(x, IR_OP_BCSEL, yneg, nz, Z);
   struct ir_instr *id = pick(x, zmaj, ymaj, idz, idy, idx);
   struct ir_instr *sc = pick(x, zmaj, ymaj, scz, X, scx);
   struct ir_instr *tc = pick(x, zmaj, ymaj, ny, tcy, ny);
   struct ir_instr *am = pick(x, zmaj, ymaj, az, ay, ax);
   struct ir_instr *ma = op2(x, IR_OP_FMUL, am, k(x, 0x40000000u)); /* exact */
   struct ir_instr *half3 = k(x, 0x3fc00000u);
   struct ir_instr *sq = exact_div(x, sc, ma);
   struct ir_instr *s1 = op2(x, IR_OP_FADD, sq, half3);
   struct ir_instr *tq = exact_div(x, tc, ma);
   struct ir_instr *t1 = op2(x, IR_OP_FADD, tq, half3);
   struct ir_instr *face = id;
   if (arr) {
      struct ir_instr *l = op2(x, IR_OP_FADD, in->src[c[3]], k(x, 0x3f000000u));
      l = op1(x, IR_OP_FFLOOR, l);
      l = op2(x, IR_OP_FMAX, l, zero);
      l = op2(x, IR_OP_FMIN, l, k(x, 0x477fff00u));        /* 65535 */
      face = op3(x, IR_OP_FFMA, l, k(x, 0x41000000u), id); /* exact */
   }
   ir_set_src(in, c[0], s1);
   ir_set_src(in, c[1], t1);
   ir_set_src(in, c[2], face);
   if (arr) {
      for (unsigned i = c[3]; i + 1 < in->nsrc; i++) {
         ir_set_src(in, i, in->src[i + 1]);
         in->role[i] = in->role[i + 1];
      }
      in->nsrc--;
   }
   bool shadow = t == TGSI_TEX_T_SHADOWCUBE || t == TGSI_TEX_T_SHADOWCUBE_ARRAY;
   in->target = shadow ? TGSI_TEX_T_SHADOW2D_ARRAY : TGSI_TEX_T_2D_ARRAY;
   return true;
}

/* Expands every op the model cannot select directly, until the
 * expansions' own ops need none (division expands into isub, which sm50
 * expands into iadd and ineg); returns progress. */
bool
opt_expand(struct ir_shader *sh, struct opt_ctx *ctx)
{
   bool progress = false, more = true;
   for (unsigned round = 0; more && round < 8; round++) { /* expansions nest 2 deep */
      struct ir_instr **order;
      unsigned n = ir_program_order(sh, &order);
      more = false;
      for (unsigned i = 0; i < n; i++) {
         struct ir_instr *in = order[i];
         struct ex x = {sh, in, ctx};
         if (in->op == IR_OP_TEX &&
             (expand_proj(&x, sh->model, in) || expand_cube(&x, sh->model, in))) {
            more = progress = true;
            continue;
         }
         struct ir_instr *r = expand_one(&x, sh->model, in);
         if (r) {
            opt_replace(sh, in, r);
            more = progress = true;
         }
      }
      free(order);
   }
   return progress;
}
