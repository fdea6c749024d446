/*
 * Wait placement (agx; Mesa agx_insert_waits.c). A device load or store
 * (a class synchronized by a wait slot) leaves its slot pending; the
 * destination registers of a load are not written until a `wait` on the
 * slot. The pass walks the program and waits on a slot
 *
 *   - before the first instruction that reads or writes a register a
 *     pending load of the slot writes (RAW, WAW: isa_delay's answer);
 *   - before an async op that would be the slot's 9th pending message
 *     (at most 8 per slot);
 *   - on every pending slot before a flow op or barrier and before a
 *     branch target (the end of a region: waits never cross one).
 *
 * The reference waits right after every async op; waiting later is the
 * optional rewrite (one transformation per async op whose wait moves):
 * past the bisection limit, or when it is refused, the wait follows the op.
 *
 * The conservative variant (stage wait, conservative.c) waits on every
 * pending slot before an instruction, needed or not; an item is the
 * instruction, "#N" by its index in the pass's input (the same in every
 * compile that differs only in this pass's choices). As a whole stage it
 * also moves no wait (opt_transform refuses), so nothing is ever pending.
 */
#include "compiler/opt/opt_agx.h"

#include <stdlib.h>

#define MAX_PENDING 8 /* messages pending per slot (AGX_MAX_PENDING) */

struct slot {
   unsigned pend[MAX_PENDING]; /* the async ops pending, by input index */
   unsigned count;
   int op; /* an async op of the slot (for the fault's text) */
};

struct wt {
   struct agx_prog *p;
   int wait_op, mod_slot;
   struct slot s[2];
   struct ref_item *out;
   unsigned nout, cap;
   unsigned *pos; /* by input item: its output index */
};

/* A wait on `named` (the slot the instruction says); the pass then takes
 * `slot` as drained. The two differ only under the wrong-slot fault. */
static void
emit_wait_on(struct wt *w, unsigned slot, unsigned named, int tgsi)
{
   struct ref_item it = {.label = -1, .target_slot = -1, .tgsi = tgsi};
   isa_insn_init(w->p->m, (unsigned)w->wait_op, &it.in);
   it.in.mod[w->mod_slot] = (int16_t)named;
   VEC_PUSH(w->out, w->nout, w->cap, it);
   memset(&w->s[slot], 0, sizeof(w->s[slot]));
   w->s[slot].op = -1;
}

static void
emit_wait(struct wt *w, unsigned slot, int tgsi)
{
   emit_wait_on(w, slot, slot, tgsi);
}

/* Whether instruction in must wait for a pending op of slot s: isa_delay's
 * sync for a read of one of its results (RAW) or a write over one (WAW). */
static bool
needs(const struct wt *w, const struct isa_insn *in, unsigned s)
{
   const struct isa_model *m = w->p->m;
   for (unsigned j = 0; j < w->s[s].count && j < MAX_PENDING; j++) {
      const struct isa_insn *p = &w->p->rc->items[w->s[s].pend[j]].in;
      for (unsigned d = 0; d < p->ndst; d++)
         for (unsigned k = 0; k < in->ndst + in->nsrc; k++) {
            int slot = k < in->ndst ? ISA_SLOT_DST(k) : ISA_SLOT_SRC(k - in->ndst);
            if (isa_delay(m, p, ISA_SLOT_DST(d), in, slot).sync != ISA_SYNC_NONE)
               return true;
         }
   }
   return false;
}

static void
add_pending(struct wt *w, unsigned s, unsigned i)
{
   if (w->s[s].count < MAX_PENDING)
      w->s[s].pend[w->s[s].count] = i;
   w->s[s].count++;
   w->s[s].op = (int)i;
}

static bool
async(const struct wt *w, const struct isa_insn *in)
{
   struct isa_class_info ci;
   isa_class_info(w->p->m, in->cls, &ci);
   return ci.sync == ISA_SYNC_WAIT_SLOT;
}

/* Whether instruction i waits in full (the conservative variant). */
static bool
full_wait(struct wt *w, unsigned i)
{
   const struct ref_item *it = &w->p->rc->items[i];
   unsigned line = it->tgsi >= 0 ? w->p->rc->s->insns[it->tgsi].loc.line : 0;
   return opt_conservative(w->p->ctx, OPT_STAGE_WAIT, line, "#%u", i);
}

static void
place(struct wt *w, unsigned i)
{
   struct agx_prog *p = w->p;
   const struct ref_item *it = &p->rc->items[i];
   bool full = (w->s[0].count || w->s[1].count) && full_wait(w, i);
   for (unsigned s = 0; s < 2; s++) {
      if (!w->s[s].count)
         continue;
      if (agx_ends_region(p, i) || full) {
         emit_wait(w, s, it->tgsi);
         continue;
      }
      if (!needs(w, &it->in, s) || opt_fault_fires(p->ctx, OPT_FAULT_AGX_WAIT_MISSING,
                                                   "no wait on slot %u before #%u", s, i))
         continue;
      bool wrong = opt_fault_fires(p->ctx, OPT_FAULT_AGX_WAIT_SLOT,
                                   "the wait on slot %u before #%u names slot %u", s, i, s ^ 1u);
      emit_wait_on(w, s, wrong ? s ^ 1u : s, it->tgsi);
   }
   w->pos[i] = w->nout;
   VEC_PUSH(w->out, w->nout, w->cap, *it);
   if (!async(w, &it->in))
      return;
   unsigned s = (unsigned)it->in.mod[w->mod_slot] & 1u;
   add_pending(w, s, i);
   if (!opt_transform(p->ctx, "wait: slot %u after %u moved to its first reader", s, i))
      emit_wait(w, s, it->tgsi);
   else
      p->st->waits_deferred++;
}

bool
opt_agx_wait(struct agx_prog *p)
{
   struct ref_ctx *c = p->rc;
   struct wt w = {.p = p,
                  .wait_op = isa_op_find(p->m, "wait"),
                  .mod_slot = isa_mod_by_role(p->m, ISA_ROLE_WAIT_SLOT)};
   if (w.wait_op < 0 || w.mod_slot < 0)
      return false;
   w.s[0].op = w.s[1].op = -1;
   w.pos = xmalloc((c->nitems + 1) * sizeof(unsigned));
   for (unsigned i = 0; i < c->nitems; i++) {
      /* a 9th message on a slot waits for the 8 before it */
      const struct isa_insn *in = &c->items[i].in;
      unsigned s = (unsigned)in->mod[w.mod_slot] & 1u;
      if (async(&w, in) && w.s[s].count >= MAX_PENDING)
         emit_wait(&w, s, c->items[i].tgsi);
      /* a branch target: the fall-through path waits before it */
      if (p->start[i] && i > 0)
         for (unsigned k = 0; k < 2; k++)
            if (w.s[k].count)
               emit_wait(&w, k, c->items[i].tgsi);
      place(&w, i);
   }
   w.pos[c->nitems] = w.nout;
   for (unsigned l = 0; l < c->nlabels; l++)
      if (c->labels[l] >= 0)
         c->labels[l] = (int)w.pos[c->labels[l]];
   free(c->items);
   c->items = w.out;
   c->nitems = w.nout;
   c->items_cap = w.cap;
   free(w.pos);
   return true;
}
