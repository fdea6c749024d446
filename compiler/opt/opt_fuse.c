/*
 * Multiply-add fusion: fadd(fmul(a, b), c) becomes one multiply-add.
 *
 * With opts.fuse_ffma the result is ffma, rounded once: inexact, so it is
 * never done when the add or the multiply is precise or invariant. Without
 * it the result is fmad, rounded after the multiply and after the add, which
 * gives the same bits as the pair and is always allowed.
 *
 * The multiply stays if something else reads it. Whether that is so plays
 * no part in the decision (seed 003: fusing only single-use multiplies would
 * let a varying eliminated at link time change gl_Position's bits). The
 * multiply must be in the add's block, so fusion never moves work into a
 * loop. When both sources are multiplies, src0 is fused.
 */
#include "compiler/ir/ir.h"

#include <stdlib.h>

#define FUSE_FMT "%%%u = fadd(%%%u = fmul, %%%u) -> %s"

/* The fault that lets x (the add or the multiply) fuse inexactly though
 * it may not, or OPT_FAULT_COUNT: precise ignored (OPT_FAULT_FUSE_PRECISE),
 * or an invariant value fused when its multiply has one use, as if that
 * made it safe (OPT_FAULT_FUSE_USED_ONCE: seed 003). */
static enum opt_fault
fault_ok(const struct opt_ctx *ctx, const struct ir_instr *x, const unsigned *uses,
         const struct ir_instr *mul)
{
   if (opt_fault(ctx, OPT_FAULT_FUSE_PRECISE) && !(x->flags & IR_VF_INVARIANT))
      return OPT_FAULT_FUSE_PRECISE;
   if (opt_fault(ctx, OPT_FAULT_FUSE_USED_ONCE) && !(x->flags & IR_VF_PRECISE) && uses &&
       uses[mul->id] == 1)
      return OPT_FAULT_FUSE_USED_ONCE;
   return OPT_FAULT_COUNT;
}

/* Whether add and mul fuse; *fault: the fault that allows it (then the
 * fusion is its firing), or OPT_FAULT_COUNT. */
static bool
fusable(const struct opt_ctx *ctx, const struct ir_instr *add, const struct ir_instr *mul,
        bool ffma, const unsigned *uses, enum opt_fault *fault)
{
   *fault = OPT_FAULT_COUNT;
   if (mul->op != IR_OP_FMUL || mul->block != add->block)
      return false;
   const struct ir_instr *x[2] = {add, mul};
   for (unsigned i = 0; i < 2 && ffma; i++)
      if (!opt_inexact_ok(x[i]) && (*fault = fault_ok(ctx, x[i], uses, mul)) == OPT_FAULT_COUNT)
         return false;
   return true;
}

/* Uses of every value (OPT_FAULT_FUSE_USED_ONCE only), or NULL. */
static unsigned *
count_uses(const struct ir_shader *sh, const struct opt_ctx *ctx, struct ir_instr **order,
           unsigned n)
{
   if (!opt_fault(ctx, OPT_FAULT_FUSE_USED_ONCE))
      return NULL;
   unsigned *uses = xcalloc(sh->nvalues + 1, sizeof(unsigned));
   for (unsigned i = 0; i < n; i++)
      for (unsigned k = 0; k < order[i]->nsrc; k++)
         uses[order[i]->src[k]->id]++;
   return uses;
}

bool
opt_fuse(struct ir_shader *sh, struct opt_ctx *ctx)
{
   bool ffma = ctx->opts.fuse_ffma;
   enum ir_op op = ffma ? IR_OP_FFMA : IR_OP_FMAD;
   struct ir_instr **order;
   unsigned n = ir_program_order(sh, &order);
   unsigned *uses = count_uses(sh, ctx, order, n);
   bool progress = false;
   for (unsigned i = 0; i < n; i++) {
      struct ir_instr *add = order[i];
      if (add->op != IR_OP_FADD)
         continue;
      enum opt_fault fault;
      unsigned k = fusable(ctx, add, add->src[0], ffma, uses, &fault)   ? 0
                   : fusable(ctx, add, add->src[1], ffma, uses, &fault) ? 1
                                                                        : 2;
      if (k == 2)
         continue;
      struct ir_instr *mul = add->src[k];
      if (ffma)
         ctx->verify_class = OPT_VERIFY_FUSED; /* one rounding: opt_verify.c */
      if (!(fault != OPT_FAULT_COUNT ? opt_fault_fires(ctx, fault, FUSE_FMT, add->id, mul->id,
                                                       add->src[1 - k]->id, ir_op_info[op].name)
                                     : opt_transform(ctx, FUSE_FMT, add->id, mul->id,
                                                     add->src[1 - k]->id, ir_op_info[op].name)))
         break;
      struct ir_instr *s[3] = {mul->src[0], mul->src[1], add->src[1 - k]};
      struct ir_instr *f = opt_build_before(sh, add, op, 3, s);
      f->flags |= mul->flags & IR_VF_PRECISE;
      opt_replace(sh, add, f);
      progress = true;
   }
   free(order);
   free(uses);
   return progress;
}
