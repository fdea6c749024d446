/*
 * Liveness of register values over the structured CFG, for register
 * allocation, its checker, the scheduler's pressure estimate and the
 * legalizer's scratch registers.
 *
 * Sets are bitsets per block over the values that can be live at a
 * block's edge (ir_liveness_alloc: the others are read only after their
 * definition in their own block, so no edge sees them). A phi's sources are live at
 * the end of the named predecessor (not at the start of the phi's block);
 * an if's condition is live at the end of the block before the if. The
 * equations are solved by iterating over the blocks backwards until
 * nothing changes, which converges for the loops' back edges.
 */
#include "compiler/ir/ir.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

static void conservative_liveness(struct ir_shader *sh, struct ir_liveness *lv);

/* Immediates and constants live in operands or the constant file, never in
 * registers that an allocator hands out. */
bool
ir_value_in_regs(const struct ir_instr *in)
{
   if (in->type == IR_TYPE_NONE || in->removed)
      return false;
   if (in->op == IR_OP_LOAD_CONST && in->mach && in->mach->reg.file >= 0) {
      struct isa_file_info fi; /* bound to a uniform register (gfx9) */
      isa_file_info(in->mach->model, (unsigned)in->mach->reg.file, &fi);
      return fi.kind != ISA_FILE_CONST;
   }
   if (in->op == IR_OP_IMM || in->op == IR_OP_LOAD_CONST || in->op == IR_OP_LOAD_CONST_IND)
      return false;
   return true;
}

/* An extract reads its texture result's registers in place: it does not
 * keep the whole group alive. */
bool
ir_use_extends_life(const struct ir_instr *user, const struct ir_instr *v)
{
   if (user->op == IR_OP_MACH && user->mach->tied_unread && opt_tied_src(user) == v)
      return false; /* OPT_FAULT_SDWA_PRESERVE_NO_USE */
   return ir_value_in_regs(v) && user->op != IR_OP_EXTRACT;
}

/* The condition of the if node that directly follows block b, or NULL. */
struct ir_instr *
ir_block_if_cond(const struct ir_block *b)
{
   const struct ir_node *n = b->node;
   unsigned i = ir_node_index(n);
   if (i == ~0u || i + 1 >= n->list->n)
      return NULL;
   return n->list->v[i + 1]->kind == IR_NODE_IF ? n->list->v[i + 1]->cond : NULL;
}

void
ir_liveness_alloc(const struct ir_shader *sh, struct ir_liveness *lv)
{
   unsigned nv = sh->nvalues, nb = sh->nblocks;
   unsigned *def_in = xcalloc(nv + 1, sizeof(unsigned)); /* block index + 1 */
   bool *member = xcalloc(nv + 1, sizeof(bool));
   for (unsigned bi = 0; bi < nb; bi++) {
      const struct ir_block *b = sh->blocks[bi];
      for (const struct ir_instr *in = b->first; in; in = in->next) {
         for (unsigned s = 0; s < in->nsrc; s++) {
            const struct ir_instr *v = in->src[s];
            if (v && v->id < nv && (in->op == IR_OP_PHI || def_in[v->id] != bi + 1))
               member[v->id] = true;
         }
         if (in->id < nv)
            def_in[in->id] = bi + 1;
      }
      const struct ir_instr *cond = ir_block_if_cond(b);
      if (cond && cond->id < nv)
         member[cond->id] = true;
   }
   lv->nvalues = nv;
   lv->bit = xmalloc((nv + 1) * sizeof(unsigned));
   lv->ids = xmalloc((nv + 1) * sizeof(unsigned));
   lv->nids = 0;
   for (unsigned id = 0; id < nv; id++) {
      lv->bit[id] = member[id] ? lv->nids : ~0u;
      if (member[id])
         lv->ids[lv->nids++] = id;
   }
   free(member);
   free(def_in);
   lv->nwords = (lv->nids + 63) / 64 + 1;
   lv->dense_words = (nv + 63) / 64 + 1;
   lv->in = xcalloc((size_t)nb * lv->nwords + 1, sizeof(uint64_t));
   lv->out = xcalloc((size_t)nb * lv->nwords + 1, sizeof(uint64_t));
}

unsigned
ir_live_next_id(const struct ir_liveness *lv, const uint64_t *set, unsigned from)
{
   unsigned lo = 0, hi = lv->nids; /* the first bit whose id >= from */
   if (from < lv->nvalues && lv->bit[from] != ~0u)
      lo = lv->bit[from];
   else
      while (lo < hi) {
         unsigned mid = lo + (hi - lo) / 2;
         if (lv->ids[mid] < from)
            lo = mid + 1;
         else
            hi = mid;
      }
   unsigned k = ir_live_next(set, lv->nwords, lo);
   return k < lv->nids ? lv->ids[k] : ~0u;
}

void
ir_live_expand(const struct ir_liveness *lv, const uint64_t *set, uint64_t *dense)
{
   memset(dense, 0, lv->dense_words * sizeof(uint64_t));
   for (unsigned k = ir_live_next(set, lv->nwords, 0); k < lv->nids;
        k = ir_live_next(set, lv->nwords, k + 1))
      ir_live_set(dense, lv->ids[k], true);
}

void
ir_live_add(const struct ir_liveness *lv, const uint64_t *set, uint64_t *dense)
{
   for (unsigned k = ir_live_next(set, lv->nwords, 0); k < lv->nids;
        k = ir_live_next(set, lv->nwords, k + 1))
      ir_live_set(dense, lv->ids[k], true);
}

void
ir_live_remove(const struct ir_liveness *lv, const uint64_t *set, uint64_t *dense)
{
   for (unsigned k = ir_live_next(set, lv->nwords, 0); k < lv->nids;
        k = ir_live_next(set, lv->nwords, k + 1))
      ir_live_set(dense, lv->ids[k], false);
}

static void
block_transfer(const struct ir_liveness *lv, const struct ir_block *b, uint64_t *live,
               const uint64_t *out)
{
   memcpy(live, out, lv->nwords * sizeof(uint64_t));
   for (const struct ir_instr *in = b->last; in; in = in->prev) {
      ir_live_mark(lv, live, in->id, false);
      if (in->op == IR_OP_PHI)
         continue;
      for (unsigned i = 0; i < in->nsrc; i++)
         if (ir_live_bit(lv, in->src[i]->id) != ~0u && ir_use_extends_life(in, in->src[i]))
            ir_live_mark(lv, live, in->src[i]->id, true);
   }
}

/* OPT_FAULT_LIVE_PHI_SRC, OPT_FAULT_LIVE_IF_COND: v, not otherwise live
 * out of b, is left out of b's live-out set. */
static bool
fault_drops(struct ir_shader *sh, const struct ir_liveness *lv, enum opt_fault f,
            const uint64_t *out, const struct ir_instr *v, const struct ir_block *b)
{
   return opt_fault_sh(sh, f) && !ir_live_test(lv, out, v->id) &&
          opt_fault_fires_sh(sh, f, "%%%u not live out of @%u", v->id, b->index);
}

/* OPT_FAULT_LIVE_ONE_SWEEP: the sets after one backward sweep (saved in
 * first[]) are kept when they differ from the fixed point. */
static void
fault_one_sweep(struct ir_shader *sh, struct ir_liveness *lv, const uint64_t *first, size_t n)
{
   if (memcmp(first, lv->in, n * sizeof(uint64_t)) ||
       memcmp(first + n, lv->out, n * sizeof(uint64_t)))
      if (opt_fault_fires_sh(sh, OPT_FAULT_LIVE_ONE_SWEEP, "liveness of %u blocks after one sweep",
                             sh->nblocks)) {
         memcpy(lv->in, first, n * sizeof(uint64_t));
         memcpy(lv->out, first + n, n * sizeof(uint64_t));
      }
}

void
ir_liveness(struct ir_shader *sh, struct ir_liveness *lv)
{
   if (!sh->cfg_valid)
      ir_compute_cfg(sh);
   ir_liveness_alloc(sh, lv);
   unsigned nb = sh->nblocks, nw = lv->nwords;
   uint64_t *tmp = xcalloc(nw, sizeof(uint64_t)), *first = NULL;
   size_t n = (size_t)nb * nw + 1;
   for (bool changed = true, swept = false; changed; swept = true) {
      if (swept && !first && opt_fault_sh(sh, OPT_FAULT_LIVE_ONE_SWEEP)) {
         first = xmalloc(2 * n * sizeof(uint64_t));
         memcpy(first, lv->in, n * sizeof(uint64_t));
         memcpy(first + n, lv->out, n * sizeof(uint64_t));
      }
      changed = false;
      for (unsigned bi = nb; bi-- > 0;) {
         struct ir_block *b = sh->blocks[bi];
         uint64_t *out = lv->out + (size_t)bi * nw, *in = lv->in + (size_t)bi * nw;
         memset(tmp, 0, nw * sizeof(uint64_t));
         for (unsigned s = 0; s < b->nsuccs; s++) {
            struct ir_block *succ = b->succs[s];
            const uint64_t *sin = lv->in + (size_t)succ->index * nw;
            for (unsigned w = 0; w < nw; w++)
               tmp[w] |= sin[w];
            for (struct ir_instr *p = succ->first; p && p->op == IR_OP_PHI; p = p->next)
               for (unsigned k = 0; k < p->nsrc; k++)
                  if (p->pred[k] == b && ir_value_in_regs(p->src[k]) &&
                      !fault_drops(sh, lv, OPT_FAULT_LIVE_PHI_SRC, tmp, p->src[k], b))
                     ir_live_mark(lv, tmp, p->src[k]->id, true);
         }
         struct ir_instr *cond = ir_block_if_cond(b);
         if (cond && ir_value_in_regs(cond) &&
             !fault_drops(sh, lv, OPT_FAULT_LIVE_IF_COND, tmp, cond, b))
            ir_live_mark(lv, tmp, cond->id, true);
         if (memcmp(tmp, out, nw * sizeof(uint64_t))) {
            memcpy(out, tmp, nw * sizeof(uint64_t));
            changed = true;
         }
         block_transfer(lv, b, tmp, out);
         if (memcmp(tmp, in, nw * sizeof(uint64_t))) {
            memcpy(in, tmp, nw * sizeof(uint64_t));
            changed = true;
         }
      }
   }
   if (first)
      fault_one_sweep(sh, lv, first, n);
   free(first);
   free(tmp);
   if (sh->fault_ctx && opt_stage_conservative(sh->fault_ctx, OPT_STAGE_LIVE))
      conservative_liveness(sh, lv);
   opt_exec_liveness(sh, lv); /* gfx9: scalar values live in the linear order */
}

/* The values of set a missing from set b (both of lv), as " %N" words
 * (at most 8). */
static char *
missing(const struct ir_liveness *lv, const uint64_t *a, const uint64_t *b)
{
   char *t = xstrdup("");
   unsigned n = 0;
   for (unsigned k = ir_live_next(a, lv->nwords, 0); k < lv->nids;
        k = ir_live_next(a, lv->nwords, k + 1)) {
      if (ir_live_has(b, k))
         continue;
      unsigned id = lv->ids[k];
      char *u = n < 8 ? xasprintf("%s %%%u", t, id) : n == 8 ? xasprintf("%s ...", t) : NULL;
      if (u) {
         free(t);
         t = u;
      }
      n++;
   }
   return t;
}

/* Set to (of lv) takes the values of set from (of v). */
static void
copy_set(const struct ir_liveness *lv, uint64_t *to, const struct ir_liveness *v,
         const uint64_t *from)
{
   memset(to, 0, lv->nwords * sizeof(uint64_t));
   for (unsigned k = ir_live_next(from, v->nwords, 0); k < v->nids;
        k = ir_live_next(from, v->nwords, k + 1)) {
      bool ok = ir_live_mark(lv, to, v->ids[k], true);
      assert(ok); /* both universes are the same values */
      (void)ok;
   }
}

/* The conservative variant (conservative.c): the blocks it picks take the
 * validator's sets, computed by its own code; the difference is noted. */
static void
conservative_liveness(struct ir_shader *sh, struct ir_liveness *lv)
{
   struct ir_liveness v;
   ir_validate_liveness(sh, &v);
   uint64_t *vin = xcalloc(lv->nwords, sizeof(uint64_t));
   uint64_t *vout = xcalloc(lv->nwords, sizeof(uint64_t));
   for (unsigned bi = 0; bi < sh->nblocks; bi++) {
      struct ir_block *b = sh->blocks[bi];
      if (!opt_conservative_sh(sh, OPT_STAGE_LIVE, b->first ? b->first->line : 0, "@%u", bi))
         continue;
      uint64_t *in = ir_live_in_set(lv, bi), *out = ir_live_out_set(lv, bi);
      copy_set(lv, vin, &v, ir_live_in_set(&v, bi));
      copy_set(lv, vout, &v, ir_live_out_set(&v, bi));
      char *lo = missing(lv, vout, out), *li = missing(lv, vin, in);
      char *xo = missing(lv, out, vout), *xi = missing(lv, in, vin);
      if (*lo || *li || *xo || *xi)
         opt_cons_note(sh->fault_ctx, OPT_STAGE_LIVE,
                       "@%u: live out lacks%s, has extra%s; live in lacks%s, has extra%s", bi,
                       *lo ? lo : " -", *xo ? xo : " -", *li ? li : " -", *xi ? xi : " -");
      free(lo), free(li), free(xo), free(xi);
      memcpy(in, vin, lv->nwords * sizeof(uint64_t));
      memcpy(out, vout, lv->nwords * sizeof(uint64_t));
   }
   free(vin);
   free(vout);
   ir_liveness_free(&v);
}

void
ir_liveness_free(struct ir_liveness *lv)
{
   free(lv->in);
   free(lv->out);
   free(lv->ids);
   free(lv->bit);
   lv->in = lv->out = NULL;
   lv->ids = lv->bit = NULL;
}
