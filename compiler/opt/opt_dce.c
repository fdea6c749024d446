/*
 * Dead-code elimination: keeps what has an effect (stores, kills, jumps,
 * atomics...) and the conditions of ifs, and everything they read; removes
 * the rest, one instruction per transformation.
 *
 * Removal runs backwards through program order, so a dead instruction's
 * dead users are gone before it is. The one exception is a dead loop-header
 * phi reading a later dead value over the back edge; that source is first
 * pointed at the phi itself (still valid SSA, and the phi is dead anyway),
 * so the shader stays valid wherever a bisect limit cuts the pass.
 */
#include "compiler/ir/ir.h"

#include <stdlib.h>

#define LIVE 1u

static void
mark_live(struct ir_instr *in, struct ir_instr ***work, unsigned *n, unsigned *cap)
{
   if (in->mark & LIVE)
      return;
   in->mark |= LIVE;
   VEC_PUSH(*work, *n, *cap, in);
}

static void
mark_conds(const struct ir_list *l, struct ir_instr ***work, unsigned *n, unsigned *cap)
{
   for (unsigned i = 0; i < l->n; i++) {
      const struct ir_node *nd = l->v[i];
      if (nd->kind == IR_NODE_IF)
         mark_live(nd->cond, work, n, cap);
      mark_conds(&nd->then_list, work, n, cap);
      mark_conds(&nd->else_list, work, n, cap);
      mark_conds(&nd->body, work, n, cap);
   }
}

/* Dead header phis of the loops around `dead` stop reading it. */
static void
unhook_back_edges(struct ir_instr *dead)
{
   for (struct ir_node *n = dead->block->node->parent; n; n = n->parent) {
      if (n->kind != IR_NODE_LOOP)
         continue;
      struct ir_block *header = ir_list_first_block(&n->body);
      for (struct ir_instr *phi = header->first; phi && phi->op == IR_OP_PHI; phi = phi->next)
         for (unsigned s = 0; s < phi->nsrc; s++)
            if (phi->src[s] == dead)
               ir_set_src(phi, s, phi);
   }
}

bool
opt_dce(struct ir_shader *sh, struct opt_ctx *ctx)
{
   struct ir_instr **order, **work = NULL;
   unsigned n = ir_program_order(sh, &order), nwork = 0, cap = 0;
   for (unsigned i = 0; i < n; i++)
      order[i]->mark = 0;
   for (unsigned i = 0; i < n; i++)
      if (ir_instr_has_effect(order[i]) &&
          !(order[i]->op == IR_OP_KILL_IF && opt_fault(ctx, OPT_FAULT_DCE_KILL)) &&
          !(order[i]->op == IR_OP_ATOMIC && opt_fault(ctx, OPT_FAULT_DCE_ATOMIC)))
         mark_live(order[i], &work, &nwork, &cap);
   mark_conds(&sh->body, &work, &nwork, &cap);
   while (nwork) {
      struct ir_instr *in = work[--nwork];
      for (unsigned s = 0; s < in->nsrc; s++)
         mark_live(in->src[s], &work, &nwork, &cap);
   }
   bool progress = false;
   for (unsigned i = n; i-- > 0;) {
      struct ir_instr *in = order[i];
      if (in->mark & LIVE)
         continue;
      enum opt_fault f = OPT_FAULT_COUNT;
      if (in->op == IR_OP_KILL_IF && opt_fault(ctx, OPT_FAULT_DCE_KILL))
         f = OPT_FAULT_DCE_KILL;
      else if (in->op == IR_OP_ATOMIC && opt_fault(ctx, OPT_FAULT_DCE_ATOMIC))
         f = OPT_FAULT_DCE_ATOMIC; /* its result unused: taken for dead */
      if (!(f != OPT_FAULT_COUNT
                ? opt_fault_fires(ctx, f, "remove %%%u = %s", in->id, ir_op_info[in->op].name)
                : opt_transform(ctx, "remove dead %%%u = %s", in->id, ir_op_info[in->op].name)))
         break;
      opt_verify_remove(ctx, in);
      unhook_back_edges(in);
      ir_instr_remove(in);
      progress = true;
   }
   for (unsigned i = 0; i < n; i++)
      order[i]->mark = 0;
   free(order);
   free(work);
   return progress;
}
