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

/* Inexact fusion ignoring precise (OPT_FAULT_FUSE_PRECISE), or allowed
 * for an invariant value when its multiply has one use, as if that made
 * it safe (OPT_FAULT_FUSE_USED_ONCE: seed 003). */
static bool
fault_ok(const struct opt_ctx *ctx, const struct ir_instr *x, const unsigned *uses,
         const struct ir_instr *mul)
{
   if (opt_fault(ctx, OPT_FAULT_FUSE_PRECISE) && !(x->flags & IR_VF_INVARIANT))
      return true;
   return opt_fault(ctx, OPT_FAULT_FUSE_USED_ONCE) && !(x->flags & IR_VF_PRECISE) && uses &&
          uses[mul->id] == 1;
}

static bool
fusable(const struct opt_ctx *ctx, const struct ir_instr *add, const struct ir_instr *mul,
        bool ffma, const unsigned *uses)
{
   if (mul->op != IR_OP_FMUL || mul->block != add->block)
      return false;
   return !ffma || ((opt_inexact_ok(add) || fault_ok(ctx, add, uses, mul)) &&
                    (opt_inexact_ok(mul) || fault_ok(ctx, mul, uses, mul)));
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
      unsigned k = fusable(ctx, add, add->src[0], ffma, uses)   ? 0
                   : fusable(ctx, add, add->src[1], ffma, uses) ? 1
                                                                : 2;
      if (k == 2)
         continue;
      struct ir_instr *mul = add->src[k];
      if (!opt_transform(ctx, "%%%u = fadd(%%%u = fmul, %%%u) -> %s", add->id, mul->id,
                         add->src[1 - k]->id, ir_op_info[op].name))
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
