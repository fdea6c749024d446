/*
 * Algebraic simplification: identities that replace an instruction by one
 * of its sources, a constant, or a cheaper instruction.
 *
 * The float rules are exact in IEEE 754 (NaN payloads aside, see ir.h):
 *   x * 1 = x, x * -1 = -x, x / 1 = x, x + -0 = x (also for x = -0 and +0),
 *   --x = x, |-x| = |x|, ||x|| = |x|, sat(sat x) = sat x, min(x, x) = x,
 *   fma(1, b, c) = b + c, fma(a, b, -0) = a * b (one rounding either way;
 *   the same for the unfused fmad).
 * Not exact, so not here unless marked: x + 0.0 is not x (-0 + 0 = +0);
 * x * 0 is not 0 (NaN, Inf, and -0 for negative x); x - x is not 0 (Inf).
 * Those are the INEXACT rules below: they run only with opts.inexact and
 * never on a precise or invariant value, and they never look at how many
 * users a value has (seed 003: that would make one value compile
 * differently in two shaders).
 */
#include "compiler/ir/ir.h"

#include <stdlib.h>

#define F_ONE      0x3f800000u
#define F_NEG_ONE  0xbf800000u
#define F_ZERO     0x00000000u
#define F_NEG_ZERO 0x80000000u

struct rule_ctx {
   struct ir_shader *sh;
   struct opt_ctx *ctx;
   struct ir_instr *in;
   enum opt_fault fault; /* a faulty rule's fault (its rewrite is the firing), or COUNT */
};

static bool
is_imm(const struct ir_instr *v, uint32_t bits)
{
   return opt_is_imm(v, bits);
}

static bool
imm_value(const struct ir_instr *v, uint32_t *bits)
{
   if (v->op != IR_OP_IMM || v->type != IR_TYPE_32)
      return false;
   *bits = (uint32_t)v->imm;
   return true;
}

/* The counter's yes to rewriting `in` by the rule `what`. */
static bool
agreed(struct rule_ctx *r, const char *what)
{
   const char *op = ir_op_info[r->in->op].name;
   if (r->fault != OPT_FAULT_COUNT)
      return opt_fault_fires(r->ctx, r->fault, "%%%u = %s: %s", r->in->id, op, what);
   r->ctx->rule = what;
   bool yes = opt_transform(r->ctx, "%%%u = %s: %s", r->in->id, op, what);
   r->ctx->rule = NULL;
   return yes;
}

/* Applies one rewrite: `in` becomes rep. */
static bool
apply(struct rule_ctx *r, const char *what, struct ir_instr *rep)
{
   if (!agreed(r, what))
      return false;
   rep->flags |= r->in->flags & IR_VF_INVARIANT;
   opt_replace(r->sh, r->in, rep);
   return true;
}

/* Like apply, but the replacement is a new instruction built only once the
 * counter agreed, so a refused rewrite leaves nothing behind. */
static bool
apply_new(struct rule_ctx *r, const char *what, enum ir_op op, unsigned nsrc, struct ir_instr *a,
          struct ir_instr *b)
{
   if (!agreed(r, what))
      return false;
   struct ir_instr *s[2] = {a, b};
   struct ir_instr *rep = opt_build_before(r->sh, r->in, op, nsrc, s);
   opt_replace(r->sh, r->in, rep);
   return true;
}

static bool
apply_imm(struct rule_ctx *r, const char *what, uint32_t bits)
{
   if (!agreed(r, what))
      return false;
   struct ir_instr *rep = opt_imm_before(r->sh, r->in, bits);
   rep->flags = r->in->flags & IR_VF_INVARIANT;
   opt_replace(r->sh, r->in, rep);
   return true;
}

/* The rule about to be asked for is inexact (opt_verify.c holds it to
 * that class); the counter's no resets the claim. */
static struct rule_ctx *
claim_inexact(struct rule_ctx *r)
{
   r->ctx->verify_class = OPT_VERIFY_INEXACT;
   return r;
}

/* For a COMM op: the source that is not the immediate `bits`, or NULL. */
static struct ir_instr *
other_than_imm(const struct ir_instr *in, uint32_t bits)
{
   if (is_imm(in->src[1], bits))
      return in->src[0];
   if (is_imm(in->src[0], bits))
      return in->src[1];
   return NULL;
}

/* OPT_FAULT_MINMAX_NAN: min(max(x, lo), hi) -> max(min(x, hi), lo) for
 * constant bounds, taken for exact; for a NaN x the first is lo, the
 * second hi (min and max return the operand that is not NaN). */
static bool
clamp_reorder(struct rule_ctx *r)
{
   struct ir_instr *in = r->in, *mx = in->src[0], *hi = in->src[1];
   uint32_t b;
   if (mx->op != IR_OP_FMAX || !imm_value(hi, &b) || !imm_value(mx->src[1], &b) ||
       !opt_fault_fires(r->ctx, OPT_FAULT_MINMAX_NAN,
                        "%%%u = fmin(fmax(x, lo), hi) -> fmax(fmin(x, hi), lo)", in->id))
      return false;
   struct ir_instr *s[2] = {mx->src[0], hi};
   struct ir_instr *mn = opt_build_before(r->sh, in, IR_OP_FMIN, 2, s);
   s[0] = mn;
   s[1] = mx->src[1];
   opt_replace(r->sh, in, opt_build_before(r->sh, in, IR_OP_FMAX, 2, s));
   return true;
}

static bool
float_rules(struct rule_ctx *r)
{
   struct ir_instr *in = r->in, *x;
   bool inexact = r->ctx->opts.inexact && opt_inexact_ok(in);
   switch (in->op) {
   case IR_OP_FADD:
      if ((x = other_than_imm(in, F_NEG_ZERO)))
         return apply(r, "x + -0.0 -> x", x);
      if (inexact && (x = other_than_imm(in, F_ZERO)))
         return apply(claim_inexact(r), "x + 0.0 -> x (inexact)", x);
      if (inexact && ((in->src[1]->op == IR_OP_FNEG && in->src[1]->src[0] == in->src[0]) ||
                      (in->src[0]->op == IR_OP_FNEG && in->src[0]->src[0] == in->src[1])))
         return apply_imm(claim_inexact(r), "x + -x -> 0.0 (inexact)", F_ZERO);
      return false;
   case IR_OP_FMUL:
      if ((x = other_than_imm(in, F_ONE)))
         return apply(r, "x * 1.0 -> x", x);
      if ((x = other_than_imm(in, F_NEG_ONE)))
         return apply_new(r, "x * -1.0 -> -x", IR_OP_FNEG, 1, x, NULL);
      if (inexact && other_than_imm(in, F_ZERO))
         return apply_imm(claim_inexact(r), "x * 0.0 -> 0.0 (inexact)", F_ZERO);
      return false;
   case IR_OP_FDIV:
      if (is_imm(in->src[1], F_ONE))
         return apply(r, "x / 1.0 -> x", in->src[0]);
      return false;
   case IR_OP_FNEG:
      if (in->src[0]->op == IR_OP_FNEG)
         return apply(r, "--x -> x", in->src[0]->src[0]);
      return false;
   case IR_OP_FABS:
      if (in->src[0]->op == IR_OP_FNEG || in->src[0]->op == IR_OP_FABS)
         return apply_new(r, "|-x| or ||x|| -> |x|", IR_OP_FABS, 1, in->src[0]->src[0], NULL);
      return false;
   case IR_OP_FSAT:
      if (in->src[0]->op == IR_OP_FSAT)
         return apply(r, "sat(sat x) -> sat x", in->src[0]);
      return false;
   case IR_OP_FMIN:
   case IR_OP_FMAX:
      if (in->src[0] == in->src[1])
         return apply(r, "min/max(x, x) -> x", in->src[0]);
      if (in->op == IR_OP_FMIN && opt_fault(r->ctx, OPT_FAULT_MINMAX_NAN))
         return clamp_reorder(r);
      return false;
   case IR_OP_FFMA:
   case IR_OP_FMAD:
      if (is_imm(in->src[0], F_ONE))
         return apply_new(r, "fma(1.0, b, c) -> b + c", IR_OP_FADD, 2, in->src[1], in->src[2]);
      if (is_imm(in->src[1], F_ONE))
         return apply_new(r, "fma(a, 1.0, c) -> a + c", IR_OP_FADD, 2, in->src[0], in->src[2]);
      if (is_imm(in->src[2], F_NEG_ZERO))
         return apply_new(r, "fma(a, b, -0.0) -> a * b", IR_OP_FMUL, 2, in->src[0], in->src[1]);
      if (is_imm(in->src[2], F_ZERO) && opt_fault(r->ctx, OPT_FAULT_FMA_PLUS_ZERO)) {
         r->fault = OPT_FAULT_FMA_PLUS_ZERO; /* -0 * 1 + +0 is +0, -0 * 1 is -0 */
         return apply_new(r, "fma(a, b, +0.0) -> a * b", IR_OP_FMUL, 2, in->src[0], in->src[1]);
      }
      return false;
   default:
      return false;
   }
}

static bool
int_rules(struct rule_ctx *r)
{
   struct ir_instr *in = r->in, *x;
   uint32_t k;
   switch (in->op) {
   case IR_OP_IADD:
      if ((x = other_than_imm(in, 0)))
         return apply(r, "x + 0 -> x", x);
      return false;
   case IR_OP_ISUB:
      if (is_imm(in->src[1], 0))
         return apply(r, "x - 0 -> x", in->src[0]);
      if (in->src[0] == in->src[1])
         return apply_imm(r, "x - x -> 0", 0);
      return false;
   case IR_OP_IMUL:
      if ((x = other_than_imm(in, 1)))
         return apply(r, "x * 1 -> x", x);
      if (other_than_imm(in, 0))
         return apply_imm(r, "x * 0 -> 0", 0);
      return false;
   case IR_OP_IAND:
      if (other_than_imm(in, 0))
         return apply_imm(r, "x & 0 -> 0", 0);
      if ((x = other_than_imm(in, ~0u)))
         return apply(r, "x & ~0 -> x", x);
      if (in->src[0] == in->src[1])
         return apply(r, "x & x -> x", in->src[0]);
      return false;
   case IR_OP_IOR:
      if ((x = other_than_imm(in, 0)))
         return apply(r, "x | 0 -> x", x);
      if (other_than_imm(in, ~0u))
         return apply_imm(r, "x | ~0 -> ~0", ~0u);
      if (in->src[0] == in->src[1])
         return apply(r, "x | x -> x", in->src[0]);
      return false;
   case IR_OP_IXOR:
      if ((x = other_than_imm(in, 0)))
         return apply(r, "x ^ 0 -> x", x);
      if (in->src[0] == in->src[1])
         return apply_imm(r, "x ^ x -> 0", 0);
      return false;
   case IR_OP_ISHL:
   case IR_OP_ISHR:
   case IR_OP_USHR:
      if (imm_value(in->src[1], &k) && k >= 32 && opt_fault(r->ctx, OPT_FAULT_SHIFT_UNMASKED)) {
         r->fault = OPT_FAULT_SHIFT_UNMASKED; /* the rewrite is its firing */
         return in->op == IR_OP_ISHR ? apply_new(r, "x >> 32+ -> sign fill", IR_OP_ISHR, 2,
                                                 in->src[0], opt_imm_before(r->sh, in, 31))
                                     : apply_imm(r, "shift by 32+ -> 0", 0);
      }
      if (imm_value(in->src[1], &k) && (k & 31) == 0)
         return apply(r, "shift by 0 (mod 32) -> x", in->src[0]);
      return false;
   case IR_OP_INEG:
   case IR_OP_INOT:
      if (in->src[0]->op == in->op)
         return apply(r, "op(op x) -> x", in->src[0]->src[0]);
      return false;
   case IR_OP_IMIN:
   case IR_OP_IMAX:
   case IR_OP_UMIN:
   case IR_OP_UMAX:
      if (in->src[0] == in->src[1])
         return apply(r, "min/max(x, x) -> x", in->src[0]);
      return false;
   case IR_OP_IEQ:
   case IR_OP_IGE:
   case IR_OP_UGE:
      if (in->src[0] == in->src[1])
         return apply_imm(r, "x == x, x >= x -> ~0", ~0u);
      return false;
   case IR_OP_INE:
   case IR_OP_ILT:
   case IR_OP_ULT:
      if (in->src[0] == in->src[1])
         return apply_imm(r, "x != x, x < x -> 0", 0);
      return false;
   case IR_OP_UDIV:
   case IR_OP_IDIV:
      if (is_imm(in->src[1], 1))
         return apply(r, "x / 1 -> x", in->src[0]);
      return false;
   case IR_OP_BCSEL:
      if (in->src[1] == in->src[2])
         return apply(r, "c ? x : x -> x", in->src[1]);
      if (imm_value(in->src[0], &k))
         return apply(r, "constant condition", k ? in->src[1] : in->src[2]);
      if (in->src[0]->op == IR_OP_FLT && in->src[0]->src[0] == in->src[1] &&
          in->src[0]->src[1] == in->src[2] && opt_fault(r->ctx, OPT_FAULT_SEL_TO_MIN)) {
         r->fault = OPT_FAULT_SEL_TO_MIN; /* NaN b: the select gives b, fmin a */
         return apply_new(r, "a < b ? a : b -> fmin(a, b)", IR_OP_FMIN, 2, in->src[1], in->src[2]);
      }
      return false;
   default:
      return false;
   }
}

bool
opt_algebraic(struct ir_shader *sh, struct opt_ctx *ctx)
{
   struct ir_instr **order;
   unsigned n = ir_program_order(sh, &order);
   bool progress = false;
   for (unsigned i = 0; i < n && !ctx->limit_hit; i++) {
      struct rule_ctx r = {sh, ctx, order[i], OPT_FAULT_COUNT};
      if (float_rules(&r) || int_rules(&r))
         progress = true;
   }
   free(order);
   return progress;
}
