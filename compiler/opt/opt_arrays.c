/*
 * Array lowering: the TEMP arrays of the front end (array_load/array_store
 * and their _ind forms) become SSA values, one variable per cell (slot,
 * component), so every later pass sees plain values and no target needs
 * addressable registers or scratch memory.
 *
 *   direct load    the cell's current value;
 *   direct store   the cell's new value;
 *   indirect load  a chain of selects over the cells of that component,
 *                  v = bcsel(idx == j - slot, cell[j], v) from v = 0, so an
 *                  index outside the array reads 0;
 *   indirect store every cell of that component becomes
 *                  bcsel(idx == j - slot, value, cell[j]), so an index
 *                  outside the array writes nothing.
 * That is the IR's meaning (ir.h: arrays start as zeros; ir_eval reads 0
 * and drops stores outside the array), so the rewrite is exact. A select
 * per cell is what sm50, which has neither relative register addressing
 * nor per-thread memory in its model, would do anyway; the arrays of
 * shaders are small and mostly indexed by loop counters.
 *
 * SSA is rebuilt on the CFG as Braun et al. do ("Simple and Efficient
 * Construction of Static Single Assignment Form", 2013): blocks in program
 * order, a cell's value at a block entry read from its predecessors, a phi
 * where several meet, left incomplete at a loop header until its back
 * edges are done; trivial phis go at the end. Structured control flow
 * makes program order visit every predecessor first except back edges.
 *
 * Arrays with more than ARRAYS_MAX_CELLS cells in all are left alone (the
 * selects would not fit the register files without spilling: instruction
 * selection then refuses them). The lowering is a required step of the
 * backend, not an optional improvement, so it does not count as bisect
 * transformations; it runs first in the pipeline (the clean-ups then see
 * the selects) and again before selection, where nothing is left to do
 * unless --passes skipped it.
 */
#include "compiler/ir/ir.h"

#include <stdlib.h>

#define ARRAYS_MAX_CELLS 128

struct phi_todo {
   struct ir_instr *phi;
   unsigned cell;
};

struct lower {
   struct ir_shader *sh;
   unsigned ncells;
   int *base;              /* by index in sh->arrays: first cell, or -1 (not lowered) */
   struct ir_instr **defs; /* [block * ncells + cell]: current or final value; NULL unknown */
   bool *done;             /* by block: processed */
   struct ir_instr *zero;  /* imm 0 at the start of the entry block, once needed */
   struct phi_todo *todo;  /* phis whose sources are still to be read */
   unsigned ntodo, todo_cap;
   struct ir_instr **phis; /* every phi made, for the trivial-phi clean-up */
   unsigned nphis, phis_cap;
   /* the compares of the last indirect access (reused by its neighbours) */
   struct ir_instr *hit_idx, **hit;
   struct ir_block *hit_block;
   int32_t hit_slot, hit_arr;
};

static int
array_index(const struct ir_shader *sh, int32_t id)
{
   for (unsigned i = 0; i < sh->narrays; i++)
      if (sh->arrays[i].id == id)
         return (int)i;
   return -1;
}

/* The cell of (slot, comp) of the access's array, or -1 if not lowered. */
static int
cell_of(const struct lower *lw, const struct ir_instr *in, int32_t slot)
{
   int a = array_index(lw->sh, in->arr);
   if (a < 0 || lw->base[a] < 0)
      return -1;
   return lw->base[a] + (int)slot * 4 + (int)in->comp;
}

/* The arrays' initial value (ir.h: they start as zeros). */
static struct ir_instr *
zero(struct lower *lw)
{
   if (!lw->zero) {
      lw->zero = ir_instr_create(lw->sh, IR_OP_IMM, 0);
      lw->zero->type = IR_TYPE_32;
      ir_block_prepend(ir_list_first_block(&lw->sh->body), lw->zero);
   }
   return lw->zero;
}

static struct ir_instr **
def(struct lower *lw, const struct ir_block *b, unsigned cell)
{
   return &lw->defs[(size_t)b->index * lw->ncells + cell];
}

static struct ir_instr *read_end(struct lower *lw, struct ir_block *b, unsigned cell);

/* A phi for the cell at the start of b, reading each predecessor's value
 * at its end; the sources of predecessors not processed yet (back edges)
 * are read once every block is. */
static struct ir_instr *
make_phi(struct lower *lw, struct ir_block *b, unsigned cell)
{
   struct ir_instr *p = ir_instr_create(lw->sh, IR_OP_PHI, b->npreds);
   p->type = IR_TYPE_32;
   for (unsigned i = 0; i < b->npreds; i++)
      p->pred[i] = b->preds[i];
   ir_block_prepend(b, p);
   VEC_PUSH(lw->phis, lw->nphis, lw->phis_cap, p);
   *def(lw, b, cell) = p; /* before reading the sources: a cycle ends here */
   bool all_done = true;
   for (unsigned i = 0; i < b->npreds; i++)
      all_done &= lw->done[b->preds[i]->index];
   if (!all_done) {
      VEC_PUSH(lw->todo, lw->ntodo, lw->todo_cap, ((struct phi_todo){p, cell}));
      return p;
   }
   for (unsigned i = 0; i < b->npreds; i++)
      ir_set_src(p, i, read_end(lw, b->preds[i], cell));
   return p;
}

/* The cell's value at the current point of b (processed or being
 * processed), read from the predecessors when b has not written it. */
static struct ir_instr *
read_cell(struct lower *lw, struct ir_block *b, unsigned cell)
{
   struct ir_instr **d = def(lw, b, cell);
   if (*d)
      return *d;
   if (b->npreds == 0)
      *d = zero(lw); /* the entry, or unreachable */
   else if (b->npreds == 1 && lw->done[b->preds[0]->index])
      *d = read_end(lw, b->preds[0], cell);
   else
      make_phi(lw, b, cell);
   return *d;
}

static struct ir_instr *
read_end(struct lower *lw, struct ir_block *b, unsigned cell)
{
   return read_cell(lw, b, cell);
}

/* idx == j - slot for every slot j of the array, built before pos (the
 * last access's compares when it had the same index, offset and block). */
static struct ir_instr **
hits(struct lower *lw, struct ir_instr *pos, unsigned slots)
{
   struct ir_instr *idx = pos->src[0];
   if (lw->hit && lw->hit_idx == idx && lw->hit_block == pos->block && lw->hit_slot == pos->slot &&
       lw->hit_arr == pos->arr)
      return lw->hit;
   free(lw->hit);
   lw->hit = xmalloc(slots * sizeof(*lw->hit));
   int32_t off = pos->slot;
   if (off &&
       opt_fault_fires_sh(lw->sh, OPT_FAULT_ARRAYS_OFFSET, "the offset of %%%u left out", pos->id))
      off = 0;
   for (unsigned j = 0; j < slots; j++) {
      struct ir_instr *k = opt_imm_before(lw->sh, pos, (uint32_t)((int32_t)j - off));
      struct ir_instr *v[2] = {idx, k};
      lw->hit[j] = opt_build_before(lw->sh, pos, IR_OP_IEQ, 2, v);
   }
   lw->hit_idx = idx;
   lw->hit_block = pos->block;
   lw->hit_slot = pos->slot;
   lw->hit_arr = pos->arr;
   return lw->hit;
}

static struct ir_instr *
select_before(struct lower *lw, struct ir_instr *pos, struct ir_instr *c, struct ir_instr *a,
              struct ir_instr *b)
{
   struct ir_instr *v[3] = {c, a, b};
   return opt_build_before(lw->sh, pos, IR_OP_BCSEL, 3, v);
}

/* Rewrites one array access of a lowered array in block b. */
static void
lower_access(struct lower *lw, struct ir_block *b, struct ir_instr *in)
{
   bool ind = in->op == IR_OP_ARRAY_LOAD_IND || in->op == IR_OP_ARRAY_STORE_IND;
   bool store = in->op == IR_OP_ARRAY_STORE || in->op == IR_OP_ARRAY_STORE_IND;
   if (!ind) {
      unsigned cell = (unsigned)cell_of(lw, in, in->slot);
      if (!store) {
         opt_replace(lw->sh, in, read_cell(lw, b, cell));
         return;
      }
      *def(lw, b, cell) = in->src[0];
      ir_instr_remove(in);
      return;
   }
   unsigned slots = (unsigned)lw->sh->arrays[array_index(lw->sh, in->arr)].slots;
   struct ir_instr **hit = hits(lw, in, slots);
   if (store) {
      for (unsigned j = 0; j < slots; j++) {
         unsigned cell = (unsigned)cell_of(lw, in, (int32_t)j);
         struct ir_instr *old = read_cell(lw, b, cell);
         *def(lw, b, cell) = select_before(lw, in, hit[j], in->src[1], old);
      }
      ir_instr_remove(in);
      return;
   }
   struct ir_instr *v = zero(lw);
   for (unsigned j = 0; j < slots; j++)
      v = select_before(lw, in, hit[j], read_cell(lw, b, (unsigned)cell_of(lw, in, (int32_t)j)), v);
   opt_replace(lw->sh, in, v);
}

static bool
is_access(const struct ir_instr *in)
{
   return in->op == IR_OP_ARRAY_LOAD || in->op == IR_OP_ARRAY_LOAD_IND ||
          in->op == IR_OP_ARRAY_STORE || in->op == IR_OP_ARRAY_STORE_IND;
}

/* Chooses the arrays to lower (all of them while they fit); false if none
 * is accessed. */
static bool
choose(struct lower *lw)
{
   struct ir_shader *sh = lw->sh;
   bool *used = xcalloc(sh->narrays + 1, sizeof(bool));
   bool any = false;
   for (unsigned i = 0; i < sh->nvalues; i++) {
      struct ir_instr *in = sh->values[i];
      int a = in && !in->removed && is_access(in) ? array_index(sh, in->arr) : -1;
      if (a >= 0)
         used[a] = any = true;
   }
   lw->base = xmalloc((sh->narrays + 1) * sizeof(int));
   for (unsigned a = 0; a < sh->narrays; a++) {
      unsigned n = (unsigned)sh->arrays[a].slots * 4;
      lw->base[a] = -1;
      if (used[a] && lw->ncells + n <= ARRAYS_MAX_CELLS) {
         lw->base[a] = (int)lw->ncells;
         lw->ncells += n;
      }
   }
   free(used);
   return any && lw->ncells;
}

/* Phis whose sources are one value (or the phi itself) become that value,
 * until none is left; a phi reading only itself (a loop nothing enters)
 * reads 0. A worklist: a replaced phi's phi users are looked at again, so
 * the work is the phis and their uses, not rounds over every phi (the
 * result is the same: removing trivial phis is confluent). */
static void
remove_trivial_phis(struct lower *lw)
{
   struct ir_instr **q = NULL;
   unsigned n = 0, cap = 0;
   for (unsigned i = 0; i < lw->nphis; i++)
      VEC_PUSH(q, n, cap, lw->phis[i]);
   for (unsigned h = 0; h < n; h++) {
      struct ir_instr *p = q[h];
      if (p->removed)
         continue;
      struct ir_instr *v = ir_phi_trivial_value(p);
      bool self = true;
      for (unsigned k = 0; k < p->nsrc; k++)
         self &= p->src[k] == p;
      if (!v && self)
         v = zero(lw);
      if (!v)
         continue;
      for (unsigned u = 0; u < p->nuses; u++) {
         struct ir_instr *w = p->uses[u].user;
         if (w && w != p && w->op == IR_OP_PHI && ir_use_live(p, &p->uses[u]))
            VEC_PUSH(q, n, cap, w);
      }
      opt_replace(lw->sh, p, v);
   }
   free(q);
}

/* Drops the lowered arrays from the shader's declarations. */
static void
drop_arrays(struct lower *lw)
{
   struct ir_shader *sh = lw->sh;
   unsigned n = 0;
   for (unsigned a = 0; a < sh->narrays; a++)
      if (lw->base[a] < 0)
         sh->arrays[n++] = sh->arrays[a];
   sh->narrays = n;
}

bool
opt_arrays(struct ir_shader *sh, struct opt_ctx *ctx)
{
   (void)ctx;
   struct lower lw = {.sh = sh};
   if (!choose(&lw)) {
      free(lw.base);
      return false;
   }
   ir_compute_cfg(sh);
   lw.defs = xcalloc((size_t)sh->nblocks * lw.ncells + 1, sizeof(*lw.defs));
   lw.done = xcalloc(sh->nblocks + 1, sizeof(bool));
   for (unsigned bi = 0; bi < sh->nblocks; bi++) {
      struct ir_block *b = sh->blocks[bi];
      for (struct ir_instr *in = b->first, *next; in; in = next) {
         next = in->next;
         if (is_access(in) && cell_of(&lw, in, 0) >= 0)
            lower_access(&lw, b, in);
      }
      lw.done[bi] = true;
   }
   for (unsigned i = 0; i < lw.ntodo; i++) {
      struct ir_instr *p = lw.todo[i].phi;
      for (unsigned k = 0; k < p->nsrc; k++)
         ir_set_src(p, k, read_end(&lw, p->pred[k], lw.todo[i].cell));
   }
   remove_trivial_phis(&lw);
   drop_arrays(&lw);
   free(lw.base);
   free(lw.defs);
   free(lw.done);
   free(lw.todo);
   free(lw.phis);
   free(lw.hit);
   sh->cfg_valid = false;
   return true;
}
