/*
 * Copy propagation: uses of `mov x` read x, and a phi whose sources are all
 * one value x (or the phi itself) is x. These are the only copies in the
 * SSA form, so this is also the redundant-move elimination: TGSI's separate
 * IN/OUT/TEMP files leave many MOVs behind.
 *
 * Exact: a copy has the bits of its source. The replaced value's invariant
 * flag moves to the source (precise stays where the rounding happened).
 */
#include "compiler/ir/ir.h"

#include <stdlib.h>

bool
opt_copyprop(struct ir_shader *sh, struct opt_ctx *ctx)
{
   bool progress = false;
   struct ir_instr **order;
   unsigned n = ir_program_order(sh, &order);
   for (unsigned i = 0; i < n; i++) {
      struct ir_instr *in = order[i];
      struct ir_instr *rep = NULL;
      bool faulty = false;
      if (in->op == IR_OP_MOV)
         rep = in->src[0];
      else if (in->op == IR_OP_PHI)
         rep = ir_phi_trivial_value(in);
      else if ((faulty = in->op == IR_OP_FABS && opt_fault(ctx, OPT_FAULT_COPYPROP_ABS)))
         rep = in->src[0]; /* taken for a copy: the modifier is lost */
      if (!rep)
         continue;
      if (!(faulty ? opt_fault_fires(ctx, OPT_FAULT_COPYPROP_ABS, "%%%u = fabs -> %%%u", in->id,
                                     rep->id)
                   : opt_transform(ctx, "%%%u = %s -> %%%u", in->id, ir_op_info[in->op].name,
                                   rep->id)))
         break;
      rep->flags |= in->flags & IR_VF_INVARIANT;
      opt_replace(sh, in, rep);
      progress = true;
   }
   free(order);
   return progress;
}
