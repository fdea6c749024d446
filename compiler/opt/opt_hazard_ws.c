/*
 * Hazard insertion on wait-state models (gfx9), called by opt_hazard: the
 * two mechanisms the hardware leaves to the program, both answered by
 * isa_delay() from the model.
 *
 * Counters. A result of a class that syncs through a counter (vmcnt,
 * lgkmcnt, expcnt) is seen only after an s_waitcnt that lets that
 * counter drop far enough. Per counter the outstanding operations are
 * kept in issue order; a reader or overwriter of a result waits until the
 * count is the number of operations issued after that one -- the largest
 * safe count -- unless an operation of an `unordered` class (SMEM) is
 * outstanding on the counter, when only 0 is safe. One s_waitcnt carries
 * every counter an instruction needs; operations the wait covers leave
 * the lists.
 *
 * Wait states. A fixed-latency result the table says is not interlocked
 * (VALU writes an SGPR, VMEM reads it: 5) needs that many wait states
 * between the two issues: every instruction provides one, s_nop N
 * provides N + 1. Missing states become the fewest s_nops right before
 * the consumer.
 *
 * Control flow: nothing is assumed across blocks. Before a block's last
 * slot when it leads elsewhere (a branch, a jump, the fall-through into
 * the next block) every counter is waited for and every wait-state
 * window of the block's producers is padded out, so each block starts
 * with nothing in flight; before the end of the program every result
 * still outstanding is waited for (the outputs are read there).
 *
 * The conservative variant (conservative.c, issue 16) treats each slot
 * as a block's end: s_waitcnt 0 on every counter with anything
 * outstanding and every wait-state window padded out before it.
 */
#include "compiler/ir/ir.h"

#include <stdlib.h>

#define WS_NCNT 4 /* sync kinds VMCNT, LGKMCNT, EXPCNT map to 1..3 */

struct ws_op {
   unsigned slot;
   bool unordered;
};

struct ws {
   struct ir_shader *sh;
   struct opt_ctx *ctx;
   const struct isa_model *m;
   struct opt_layout lo;
   int nop_op, wait_op;
   int mod_nop, mod_cnt[WS_NCNT];
   int cnt_max[WS_NCNT]; /* the largest count that waits: the field's maximum means none */
   int nop_max;          /* the largest s_nop N */
   int window;           /* the most wait states any rule needs */
   struct ws_op *pend[WS_NCNT];
   unsigned npend[WS_NCNT], pend_cap[WS_NCNT];
   int64_t *issue; /* by slot: planned issue cycle */
   int64_t now;    /* the next free issue cycle */
};

static int
cnt_of(enum isa_sync s)
{
   return s == ISA_SYNC_VMCNT ? 1 : s == ISA_SYNC_LGKMCNT ? 2 : s == ISA_SYNC_EXPCNT ? 3 : 0;
}

/* Whether slot c must wait for slot p's result: isa_delay's sync for a
 * read of it (RAW) or a write over it (WAW). */
static bool
touches(const struct ws *w, unsigned p, unsigned c)
{
   const struct isa_insn *pi = &w->lo.v[p].insn, *ci = &w->lo.v[c].insn;
   for (unsigned d = 0; d < pi->ndst; d++) {
      for (unsigned s = 0; s < ci->nsrc; s++)
         if (isa_delay(w->m, pi, ISA_SLOT_DST(d), ci, ISA_SLOT_SRC(s)).sync != ISA_SYNC_NONE)
            return true;
      for (unsigned e = 0; e < ci->ndst; e++)
         if (isa_delay(w->m, pi, ISA_SLOT_DST(d), ci, ISA_SLOT_DST(e)).sync != ISA_SYNC_NONE)
            return true;
   }
   return false;
}

static struct ir_instr *
insert_before(struct ws *w, unsigned i, unsigned op)
{
   struct ir_instr *x = ir_mach_create(w->sh, op);
   struct opt_slot *s = &w->lo.v[i];
   x->line = s->in ? s->in->line : 0;
   if (s->in)
      ir_insert_before(s->in, x);
   else if (s->block->last && (ir_op_info[s->block->last->op].flags & IR_OPF_JUMP))
      ir_insert_before(s->block->last, x); /* an implied slot after a break (EXEC masks) */
   else
      ir_block_append(s->block, x);
   return x;
}

/* The count counter k may wait for so that slot p's operation is done:
 * the operations issued after it, or 0 with an unordered one
 * outstanding. */
static int
safe_count(const struct ws *w, int k, unsigned at, unsigned c)
{
   bool unordered = false;
   for (unsigned j = 0; j < w->npend[k]; j++)
      unordered |= w->pend[k][j].unordered;
   int n = MIN2((int)(w->npend[k] - at - 1), w->cnt_max[k]); /* more: wait for the maximum */
   if (unordered && n > 0 && k == 2 &&
       opt_fault_fires(w->ctx, OPT_FAULT_LGKM_UNORDERED,
                       "lgkmcnt(%d) with SMEM outstanding before %s%u", n,
                       w->lo.v[c].in ? "%" : "@", w->lo.v[c].in ? w->lo.v[c].in->id : c))
      return n;
   if (unordered)
      return 0;
   if (k == 1 && opt_fault_fires(w->ctx, OPT_FAULT_VMCNT_OFF_BY_ONE, "vmcnt(%d) before %s%u", n + 1,
                                 w->lo.v[c].in ? "%" : "@", w->lo.v[c].in ? w->lo.v[c].in->id : c))
      return MIN2(n + 1, w->cnt_max[k]);
   return n;
}

/* s_waitcnt before slot c: want[k] >= 0 waits counter k down to it. */
static void
emit_wait(struct ws *w, unsigned c, const int *want)
{
   bool any = false;
   for (int k = 1; k < WS_NCNT; k++)
      any |= want[k] >= 0;
   if (!any || w->wait_op < 0)
      return;
   struct ir_instr *x = insert_before(w, c, (unsigned)w->wait_op);
   for (int k = 1; k < WS_NCNT; k++) {
      if (want[k] < 0)
         continue;
      if (w->mod_cnt[k] >= 0)
         x->mach->insn.mod[w->mod_cnt[k]] = (int16_t)want[k];
      unsigned keep = (unsigned)want[k] < w->npend[k] ? (unsigned)want[k] : w->npend[k];
      memmove(w->pend[k], w->pend[k] + (w->npend[k] - keep), keep * sizeof(struct ws_op));
      w->npend[k] = keep;
   }
   w->now++;
}

static void
counters(struct ws *w, unsigned c, bool all)
{
   int want[WS_NCNT] = {-1, -1, -1, -1};
   for (int k = 1; k < WS_NCNT; k++)
      for (unsigned j = 0; j < w->npend[k]; j++) {
         int n = all ? 0 : touches(w, w->pend[k][j].slot, c) ? safe_count(w, k, j, c) : -1;
         if (n >= 0 && (want[k] < 0 || n < want[k]))
            want[k] = n;
      }
   emit_wait(w, c, want);
}

/* Wait states slot c still lacks after the producers of its block: every
 * destination of each against every source of c, the implicit ones too
 * (a row may be about an implicit source: VALU writes VCC, v_div_fmas),
 * for the producers whose class a row about c names (isa_wait_producers:
 * the others give no distance). */
static int64_t
earliest(const struct ws *w, unsigned start, unsigned c)
{
   const struct isa_insn *ci = &w->lo.v[c].insn;
   unsigned nis;
   isa_op_implicit(w->m, ci->op, false, &nis);
   int64_t at = w->now;
   /* only producers of a class with a row for c can give a distance;
    * coverage counts every question's rule, so it asks them all */
   uint64_t may = cover_on ? ~0ull : isa_wait_producers(w->m, ci);
   for (unsigned p = c; p-- > start;) {
      const struct isa_insn *pi = &w->lo.v[p].insn;
      if (w->issue[p] + 1 + w->window <= w->now)
         break;
      if (pi->cls < 64 && !((may >> pi->cls) & 1))
         continue;
      unsigned nid;
      isa_op_implicit(w->m, pi->op, true, &nid);
      for (unsigned d = 0; d < pi->ndst + nid; d++)
         for (unsigned s = 0; s < ci->nsrc + nis; s++) {
            int ps = d < pi->ndst ? ISA_SLOT_DST((int)d) : ISA_SLOT_IMP_DST((int)(d - pi->ndst));
            int cs = s < ci->nsrc ? ISA_SLOT_SRC((int)s) : ISA_SLOT_IMP_SRC((int)(s - ci->nsrc));
            struct isa_delay dl = isa_delay(w->m, pi, ps, ci, cs);
            if (dl.sync == ISA_SYNC_NONE && dl.distance > 0 && w->issue[p] + 1 + dl.distance > at)
               at = w->issue[p] + 1 + dl.distance;
         }
   }
   return at;
}

static void
pad_to(struct ws *w, unsigned c, int64_t at)
{
   while (at > w->now && w->nop_op >= 0) {
      int64_t n = MIN2(at - w->now, (int64_t)w->nop_max + 1);
      struct ir_instr *x = insert_before(w, c, (unsigned)w->nop_op);
      if (w->mod_nop >= 0)
         x->mach->insn.mod[w->mod_nop] = (int16_t)(n - 1);
      w->now += n;
   }
}

/* Before a block's last slot: no wait-state window left open. */
static void
close_windows(struct ws *w, unsigned start, unsigned c)
{
   int64_t at = w->now;
   for (unsigned p = start; p < c; p++)
      at = MAX2(at, w->issue[p] + 1 + w->window);
   bool any = false;
   for (unsigned p = start; p < c; p++)
      if (w->issue[p] + 1 + w->window > w->now)
         any = true;
   if (any)
      pad_to(w, c, at);
}

static unsigned
slot_cycles(const struct ws *w, unsigned i)
{
   const struct opt_slot *s = &w->lo.v[i];
   if (s->implied && !s->in)
      return 1;
   if (w->mod_nop >= 0 && (int)s->insn.op == w->nop_op)
      return 1u + (unsigned)s->insn.mod[w->mod_nop];
   return 1;
}

/* Whether slot i waits in full (the conservative variant, item by item:
 * a slot's value, or its block and kind for an implied branch). */
static bool
full_wait(const struct ws *w, unsigned i)
{
   const struct opt_slot *s = &w->lo.v[i];
   if (!opt_stage_conservative(w->ctx, OPT_STAGE_HAZARD))
      return false;
   if (s->in)
      return opt_conservative(w->ctx, OPT_STAGE_HAZARD, s->in->line, "%%%u", s->in->id);
   return opt_conservative(w->ctx, OPT_STAGE_HAZARD, 0, "@%u:%s", s->block->index,
                           isa_sem_name(s->kind));
}

/* A block whose last slot is an instruction of its own (the next block
 * begins with the branch or join): what it leaves in flight is waited
 * for and its wait-state windows padded out right after it. */
static void
drain_after(struct ws *w, unsigned start, unsigned t)
{
   struct ir_instr *at = w->lo.v[t].in;
   if (!at || w->lo.v[t].implied || (ir_op_info[at->op].flags & IR_OPF_JUMP))
      return;
   /* after the extracts that name at's components: they stay right
    * after it (ir_mach_check) and emit nothing */
   for (struct ir_instr *e = at->next; e && e->op == IR_OP_EXTRACT && e->src[0] == w->lo.v[t].in;
        e = e->next)
      at = e;
   int64_t until = w->now;
   for (unsigned p = start; p <= t; p++)
      until = MAX2(until, w->issue[p] + 1 + w->window);
   while (until > w->now && w->nop_op >= 0) {
      int64_t n = MIN2(until - w->now, (int64_t)w->nop_max + 1);
      struct ir_instr *x = ir_mach_create(w->sh, (unsigned)w->nop_op);
      x->line = at->line;
      if (w->mod_nop >= 0)
         x->mach->insn.mod[w->mod_nop] = (int16_t)(n - 1);
      ir_insert_after(at, x);
      w->now += n;
   }
   bool any = false;
   for (int k = 1; k < WS_NCNT; k++)
      any |= w->npend[k] > 0;
   if (!any || w->wait_op < 0)
      return;
   struct ir_instr *x = ir_mach_create(w->sh, (unsigned)w->wait_op);
   x->line = at->line;
   for (int k = 1; k < WS_NCNT; k++)
      if (w->npend[k] && w->mod_cnt[k] >= 0)
         x->mach->insn.mod[w->mod_cnt[k]] = 0;
   ir_insert_after(at, x);
}

static void
block(struct ws *w, unsigned start, unsigned end, bool last)
{
   for (int k = 1; k < WS_NCNT; k++)
      w->npend[k] = 0;
   for (unsigned i = start; i < end; i++) {
      struct opt_slot *s = &w->lo.v[i];
      bool tail = i + 1 == end;
      bool ends = s->insn.sem == ISA_SEM_END;
      bool full = full_wait(w, i);
      counters(w, i, full || ends || (tail && !last));
      if (full || (tail && !last && !ends))
         close_windows(w, start, i);
      int64_t at = earliest(w, start, i);
      if (at > w->now && opt_fault_fires(w->ctx, OPT_FAULT_MISSING_SNOP, "no s_nop before %s%u",
                                         s->in ? "%" : "@", s->in ? s->in->id : i))
         at = w->now;
      pad_to(w, i, at);
      w->issue[i] = w->now;
      w->now += slot_cycles(w, i);
      struct isa_class_info ci;
      isa_class_info(w->m, s->insn.cls, &ci);
      int k = cnt_of(ci.sync);
      if (k) {
         struct ws_op o = {i, ci.unordered};
         VEC_PUSH(w->pend[k], w->npend[k], w->pend_cap[k], o);
      }
   }
   if (!last && end > start)
      drain_after(w, start, end - 1);
}

void
opt_hazard_wait_states(struct ir_shader *sh, struct opt_ctx *ctx)
{
   struct ws w = {.sh = sh, .ctx = ctx, .m = sh->model};
   w.nop_op = opt_op_by_sem(w.m, ISA_SEM_NOP);
   w.wait_op = opt_op_by_sem(w.m, ISA_SEM_WAITCNT);
   w.mod_nop = isa_mod_by_role(w.m, ISA_ROLE_NOPS);
   w.mod_cnt[1] = isa_mod_by_role(w.m, ISA_ROLE_VMCNT);
   w.mod_cnt[2] = isa_mod_by_role(w.m, ISA_ROLE_LGKMCNT);
   w.mod_cnt[3] = isa_mod_by_role(w.m, ISA_ROLE_EXPCNT);
   w.nop_max = isa_hazard_param(w.m, "nop_max", 0);
   w.cnt_max[1] = isa_hazard_param(w.m, "vmcnt_max", 63) - 1;
   w.cnt_max[2] = isa_hazard_param(w.m, "lgkmcnt_max", 15) - 1;
   w.cnt_max[3] = isa_hazard_param(w.m, "expcnt_max", 7) - 1;
   w.window = isa_wait_states_max(w.m);
   opt_layout_build(sh, &w.lo);
   w.issue = xcalloc(w.lo.n + 1, sizeof(*w.issue));
   for (unsigned b = 0; b < sh->nblocks; b++) {
      unsigned s = w.lo.block_start[b], e = w.lo.block_end[b];
      if (s < e)
         block(&w, s, e, b + 1 == sh->nblocks);
   }
   free(w.issue);
   for (int k = 0; k < WS_NCNT; k++)
      free(w.pend[k]);
   opt_layout_free(&w.lo);
   sh->cfg_valid = false;
}
