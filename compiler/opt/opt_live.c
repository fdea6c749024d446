/*
 * Liveness of register values over the structured CFG, for register
 * allocation, its checker, the scheduler's pressure estimate and the
 * legalizer's scratch registers.
 *
 * Sets are bitsets over value ids, per block. A phi's sources are live at
 * the end of the named predecessor (not at the start of the phi's block);
 * an if's condition is live at the end of the block before the if. The
 * equations are solved by iterating over the blocks backwards until
 * nothing changes, which converges for the loops' back edges.
 */
#include "compiler/ir/ir.h"

#include <stdlib.h>

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

static void
block_transfer(const struct ir_block *b, uint64_t *live, unsigned nwords, const uint64_t *out)
{
   memcpy(live, out, nwords * sizeof(uint64_t));
   for (const struct ir_instr *in = b->last; in; in = in->prev) {
      ir_live_set(live, in->id, false);
      if (in->op == IR_OP_PHI)
         continue;
      for (unsigned i = 0; i < in->nsrc; i++)
         if (ir_use_extends_life(in, in->src[i]))
            ir_live_set(live, in->src[i]->id, true);
   }
}

/* OPT_FAULT_LIVE_PHI_SRC, OPT_FAULT_LIVE_IF_COND: v, not otherwise live
 * out of b, is left out of b's live-out set. */
static bool
fault_drops(struct ir_shader *sh, enum opt_fault f, const uint64_t *out, const struct ir_instr *v,
            const struct ir_block *b)
{
   return opt_fault_sh(sh, f) && !ir_live_has(out, v->id) &&
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
   unsigned nb = sh->nblocks, nw = (sh->nvalues + 63) / 64 + 1;
   lv->nwords = nw;
   lv->in = xcalloc((size_t)nb * nw + 1, sizeof(uint64_t));
   lv->out = xcalloc((size_t)nb * nw + 1, sizeof(uint64_t));
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
                      !fault_drops(sh, OPT_FAULT_LIVE_PHI_SRC, tmp, p->src[k], b))
                     ir_live_set(tmp, p->src[k]->id, true);
         }
         struct ir_instr *cond = ir_block_if_cond(b);
         if (cond && ir_value_in_regs(cond) &&
             !fault_drops(sh, OPT_FAULT_LIVE_IF_COND, tmp, cond, b))
            ir_live_set(tmp, cond->id, true);
         if (memcmp(tmp, out, nw * sizeof(uint64_t))) {
            memcpy(out, tmp, nw * sizeof(uint64_t));
            changed = true;
         }
         block_transfer(b, tmp, nw, out);
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

/* The values of set a missing from set b, as " %N" words (at most 8). */
static char *
missing(const uint64_t *a, const uint64_t *b, unsigned nw)
{
   char *t = xstrdup("");
   unsigned n = 0;
   for (unsigned w = 0; w < nw; w++)
      for (unsigned k = 0; k < 64; k++) {
         if (!(((a[w] & ~b[w]) >> k) & 1))
            continue;
         unsigned id = w * 64 + k;
         char *u = n < 8 ? xasprintf("%s %%%u", t, id) : n == 8 ? xasprintf("%s ...", t) : NULL;
         if (u) {
            free(t);
            t = u;
         }
         n++;
      }
   return t;
}

/* The conservative variant (conservative.c): the blocks it picks take the
 * validator's sets, computed by its own code; the difference is noted. */
static void
conservative_liveness(struct ir_shader *sh, struct ir_liveness *lv)
{
   struct ir_liveness v;
   ir_validate_liveness(sh, &v);
   unsigned nw = MIN2(lv->nwords, v.nwords);
   for (unsigned bi = 0; bi < sh->nblocks; bi++) {
      struct ir_block *b = sh->blocks[bi];
      if (!opt_conservative_sh(sh, OPT_STAGE_LIVE, b->first ? b->first->line : 0, "@%u", bi))
         continue;
      uint64_t *in = lv->in + (size_t)bi * lv->nwords, *out = lv->out + (size_t)bi * lv->nwords;
      const uint64_t *vin = v.in + (size_t)bi * v.nwords, *vout = v.out + (size_t)bi * v.nwords;
      char *lo = missing(vout, out, nw), *li = missing(vin, in, nw);
      char *xo = missing(out, vout, nw), *xi = missing(in, vin, nw);
      if (*lo || *li || *xo || *xi)
         opt_cons_note(sh->fault_ctx, OPT_STAGE_LIVE,
                       "@%u: live out lacks%s, has extra%s; live in lacks%s, has extra%s", bi,
                       *lo ? lo : " -", *xo ? xo : " -", *li ? li : " -", *xi ? xi : " -");
      free(lo), free(li), free(xo), free(xi);
      memset(in, 0, lv->nwords * sizeof(uint64_t));
      memset(out, 0, lv->nwords * sizeof(uint64_t));
      memcpy(in, vin, nw * sizeof(uint64_t));
      memcpy(out, vout, nw * sizeof(uint64_t));
   }
   ir_liveness_free(&v);
}

void
ir_liveness_free(struct ir_liveness *lv)
{
   free(lv->in);
   free(lv->out);
   lv->in = lv->out = NULL;
}
