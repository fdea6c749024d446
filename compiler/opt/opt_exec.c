/*
 * EXEC-mask control flow (gfx9): what the optimizing path needs to run the
 * structured tree on a model whose lanes diverge through an EXEC register
 * pair that the program itself computes (no hardware stack, no per-lane
 * branch). opt_emit lays the tree out with the slots below; this file
 * finds the ops, reserves the SGPR pairs that hold waiting lanes, and
 * gives liveness the linear view scalar registers need.
 *
 * Lanes are in exactly one place: running (in EXEC) or waiting in one
 * reserved pair. Joins OR the waiting lanes back in, so a killed lane
 * (taken out of EXEC only) never returns.
 *   IF p      s_and_saveexec S, p; s_andn2 S, S, exec; s_cbranch_execz ELSE
 *             (S: the lanes of the else arm)
 *   ELSE      s_andn2_saveexec S, S; s_cbranch_execz END
 *             (S: the then arm's survivors, EXEC: the else lanes)
 *   END       s_or exec, exec, S
 *   LOOP      s_mov B, 0; s_mov C, 0   HEAD: body
 *   BREAK     s_or B, B, exec; s_mov exec, 0   (CONTINUE: into C)
 *   latch     s_or exec, exec, C; s_mov C, 0; s_cbranch_execnz HEAD
 *   EXIT      s_mov exec, B
 * The pairs are numbered by nesting (an if takes one, a loop two) from
 * the top of the allocatable SGPRs down; register allocation leaves them
 * out (opt_exec_reserved).
 *
 * Registers. A VALU write reaches the active lanes only, so a vector
 * register's value in a waiting lane survives whatever the running lanes
 * do with it: liveness over the logical CFG (the tree's) is right for
 * VGPRs. A scalar register is one value for the wave, and the wave runs
 * the arms one after the other: a uniform value live into the else arm
 * must survive the then arm, one live at a loop's exit must survive every
 * iteration. opt_exec_liveness extends the scalar values' live ranges to
 * that linear order (the layout's: blocks in program order, back edges at
 * the loops' ends).
 */
#include "compiler/ir/ir.h"
#include "isa/sem.h"

#include <stdlib.h>

/* The scalar op of semantics sem on 64-bit operands without a literal. */
static int
op64(const struct isa_model *m, enum isa_sem sem)
{
   unsigned n;
   const uint16_t *ops = isa_ops_by_sem(m, sem, &n);
   int best = -1;
   unsigned best_size = ~0u;
   for (unsigned i = 0; i < n; i++) {
      struct isa_insn t;
      isa_insn_init(m, ops[i], &t);
      struct isa_class_info ci;
      isa_class_info(m, t.cls, &ci);
      unsigned w = 0;
      if (!ci.scalar || !t.ndst || sem_slot_type(m, &t, ISA_SLOT_DST(0), &w) == ISA_TYPE_NONE ||
          w != 64 || t.size >= best_size)
         continue;
      best = ops[i];
      best_size = t.size;
   }
   return best;
}

/* The branch of semantics branch that tests register pair `reg` of file
 * f: taken when it is 0 (zero) or when it is not. */
static int
exec_branch(const struct isa_model *m, unsigned f, unsigned reg, bool zero)
{
   unsigned n;
   const uint16_t *ops = isa_ops_by_sem(m, ISA_SEM_BRANCH, &n);
   for (unsigned i = 0; i < n; i++) {
      unsigned ni;
      const struct isa_implicit *im = isa_op_implicit(m, ops[i], false, &ni);
      if (ni == 1 && im[0].file == f && im[0].index == reg && im[0].count == 2 &&
          !!(im[0].flags & ISA_OPND_F_NOT) == zero)
         return ops[i];
   }
   return -1;
}

bool
opt_exec_find(const struct isa_model *m, struct opt_exec *x)
{
   memset(x, 0, sizeof(*x));
   x->and_save = opt_op_by_sem(m, ISA_SEM_AND_SAVEEXEC);
   x->andn2_save = opt_op_by_sem(m, ISA_SEM_ANDN2_SAVEEXEC);
   if (x->and_save < 0 || x->andn2_save < 0)
      return false;
   unsigned ni;
   const struct isa_implicit *im = isa_op_implicit(m, (unsigned)x->and_save, true, &ni);
   bool found = false;
   for (unsigned i = 0; i < ni && !found; i++)
      if (im[i].count == 2) {
         x->file = im[i].file;
         x->exec = im[i].index;
         found = true;
      }
   x->or64 = op64(m, ISA_SEM_OR);
   x->andn2 = op64(m, ISA_SEM_ANDN2);
   x->mov64 = op64(m, ISA_SEM_MOV);
   x->execz = exec_branch(m, x->file, x->exec, true);
   x->execnz = exec_branch(m, x->file, x->exec, false);
   x->top = opt_file_capacity(m, x->file);
   return found && x->or64 >= 0 && x->andn2 >= 0 && x->mov64 >= 0 && x->execz >= 0 &&
          x->execnz >= 0;
}

bool
opt_exec_model(const struct isa_model *m)
{
   struct opt_exec x;
   return m && opt_exec_find(m, &x);
}

/* The pairs the constructs of list l and below take at once. */
static unsigned
pairs_of(const struct ir_list *l)
{
   unsigned n = 0;
   for (unsigned i = 0; i < l->n; i++) {
      const struct ir_node *nd = l->v[i];
      if (nd->kind == IR_NODE_IF)
         n = MAX2(n, 1 + MAX2(pairs_of(&nd->then_list), pairs_of(&nd->else_list)));
      else if (nd->kind == IR_NODE_LOOP)
         n = MAX2(n, 2 + pairs_of(&nd->body));
   }
   return n;
}

unsigned
opt_exec_pairs(const struct ir_shader *sh)
{
   return pairs_of(&sh->body);
}

unsigned
opt_exec_reserved(const struct ir_shader *sh, unsigned file)
{
   struct opt_exec x;
   if (!sh->model || !opt_exec_find(sh->model, &x) || file != x.file)
      return 0;
   return MIN2(2 * opt_exec_pairs(sh), x.top);
}

unsigned
opt_exec_pair_reg(const struct opt_exec *x, unsigned depth)
{
   return x->top - 2 * (depth + 1);
}

/* ------------------------------------------------------------------ */
/* Linear liveness of scalar values                                     */

struct lin {
   unsigned *loop_of; /* by block: the innermost loop around it, ~0u none */
   unsigned *outer;   /* by loop: its enclosing loop, ~0u none */
   unsigned *end;     /* by loop: the index of its body's last block */
   bool *back;        /* by loop: a block of its body jumps back to the top */
   unsigned nloops;
};

static void
loops_of(const struct ir_list *l, struct lin *li, unsigned cur)
{
   for (unsigned i = 0; i < l->n; i++) {
      const struct ir_node *nd = l->v[i];
      if (nd->kind == IR_NODE_BLOCK) {
         li->loop_of[nd->block->index] = cur;
      } else if (nd->kind == IR_NODE_IF) {
         loops_of(&nd->then_list, li, cur);
         loops_of(&nd->else_list, li, cur);
      } else {
         unsigned k = li->nloops++;
         li->outer[k] = cur;
         li->end[k] = ir_list_last_block(&nd->body)->index;
         const struct ir_block *h = ir_list_first_block(&nd->body);
         li->back[k] = !h;
         for (unsigned p = 0; h && p < h->npreds; p++)
            li->back[k] |= h->preds[p]->index >= h->index;
         loops_of(&nd->body, li, k);
      }
   }
}

static unsigned
count_loops(const struct ir_list *l)
{
   unsigned n = 0;
   for (unsigned i = 0; i < l->n; i++) {
      const struct ir_node *nd = l->v[i];
      if (nd->kind == IR_NODE_LOOP)
         n += 1 + count_loops(&nd->body);
      else if (nd->kind == IR_NODE_IF)
         n += count_loops(&nd->then_list) + count_loops(&nd->else_list);
   }
   return n;
}

/* Whether loop k is, or is inside, loop j. */
static bool
loop_within(const struct lin *li, unsigned k, unsigned j)
{
   for (; k != ~0u; k = li->outer[k])
      if (k == j)
         return true;
   return false;
}

/* The last block v must live to in the linear order: its last use, and
 * the end of every loop holding a use but not its definition (the back
 * edge brings the wave round). *through says that v lives past the end
 * of that block too, where the back edge leaves after the block's own
 * code: in a loop that lanes re-enter only by CONT, the last block leads
 * nowhere (it breaks, or follows an if whose arms both jump), so logical
 * liveness may end v there, at a read before a new scalar's write. A loop
 * that no lane re-enters (RET's one-pass wrapper) needs no such care. */
static unsigned
linear_end(const struct lin *li, unsigned def, unsigned last, const unsigned *use_blocks,
           unsigned nuse, bool *through)
{
   unsigned dl = li->loop_of[def], round = 0, back = 0;
   bool any = false;
   for (unsigned u = 0; u < nuse; u++)
      for (unsigned k = li->loop_of[use_blocks[u]]; k != ~0u; k = li->outer[k])
         if (dl == ~0u || !loop_within(li, dl, k)) {
            round = MAX2(round, li->end[k]);
            if (li->back[k]) {
               back = MAX2(back, li->end[k]);
               any = true;
            }
         }
   last = MAX2(last, round);
   *through = any && back == last;
   return last;
}

static bool
scalar_value(const struct ir_instr *v, unsigned file)
{
   return v && !v->removed && ir_value_in_regs(v) && ir_reg_file(v) == (int)file && v->block;
}

void
opt_exec_liveness(struct ir_shader *sh, struct ir_liveness *lv)
{
   struct opt_exec x;
   if (!sh->model || !opt_exec_find(sh->model, &x) || !sh->nblocks)
      return;
   struct lin li = {0};
   unsigned nl = count_loops(&sh->body);
   li.loop_of = xcalloc(sh->nblocks + 1, sizeof(unsigned));
   li.end = xcalloc(nl + 1, sizeof(unsigned));
   li.outer = xcalloc(nl + 1, sizeof(unsigned));
   li.back = xcalloc(nl + 1, sizeof(bool));
   loops_of(&sh->body, &li, ~0u);
   unsigned *ub = xcalloc(sh->nblocks + 1, sizeof(unsigned));
   /* a value outside the universe is in no set: it keeps to its block */
   for (unsigned k = 0; k < lv->nids; k++) {
      unsigned id = lv->ids[k];
      struct ir_instr *v = id < sh->nvalues ? sh->values[id] : NULL;
      if (!scalar_value(v, x.file))
         continue;
      unsigned def = v->block->index, last = def, nuse = 0;
      for (unsigned bi = def; bi < sh->nblocks; bi++) {
         if (ir_live_has(ir_live_in_set(lv, bi), k) || ir_live_has(ir_live_out_set(lv, bi), k)) {
            last = bi;
            ub[nuse++] = bi;
         }
      }
      bool through;
      last = linear_end(&li, def, last, ub, nuse, &through);
      for (unsigned bi = def; bi <= last; bi++) {
         if (bi > def)
            ir_live_set(ir_live_in_set(lv, bi), k, true);
         if (bi < last || through)
            ir_live_set(ir_live_out_set(lv, bi), k, true);
      }
   }
   free(ub);
   free(li.loop_of);
   free(li.end);
   free(li.outer);
   free(li.back);
}
