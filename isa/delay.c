/*
 * The one latency/hazard function (in the spirit of Mesa's ir3_delay.c):
 * how far apart two instructions must be, or which sync they need, so that
 * the later one sees the earlier one's effect. The scheduler and the
 * hazard insertion passes ask this function and keep no numbers of their
 * own. The emulator does not ask it: it derives readiness from the same
 * model facts with its own code, so that a wrong answer here shows at run
 * time (emu/README.md, "Independent of isa/delay.c").
 *
 * Everything comes from the model. For the delay-slot mechanism (a3xx):
 *
 *   RAW distance = producer class latency + consumer class read_early
 *                  - consumer slot read_delay
 *                  (+ size_mismatch when a half register aliases a full one)
 *                  - repeat slack, floored at 0;
 *   writes of an address register: addr_write before any use;
 *   producers whose class has a sync (ss/sy): distance 0, that sync;
 *   WAR: the producer class's `war` sync (tex/sfu/mem read sources late);
 *   WAW: the producer class's sync (a late result could land last).
 *
 * (rptN): sub-instruction i of the producer writes dst+i; the consumer's
 * sub-instruction j reads src+j if the source has (r), else src. Repeats
 * after the writing sub-instruction and before the reading one count as
 * elapsed slots, as in ir3_delayslots_with_repeat.
 *
 * Operands relative to an address register may touch any register of
 * their file (conservative), and read the address register itself.
 *
 * Wait-state models (gfx9): the manual table's rows for the producer and
 * consumer classes; a row may be about some consumer ops and one operand
 * of theirs (a lane select, v_div_fmas's implicit vcc), so implicit
 * operands are slots too (ISA_SLOT_IMP_DST/SRC).
 */
#include "isa/isa_priv.h"

#include <limits.h>

/* Coverage: the rule that decided an answer (check --coverage). */
static void
rule(const struct isa_model *m, const char *what)
{
   if (cover_on)
      cover_hit("hazard-rule", "%s: %s", isa_model_name(m), what);
}

static const struct isa_opnd *
slot_opnd(const struct isa_insn *in, int slot)
{
   if (slot >= 0 && slot < in->ndst)
      return &in->dst[slot];
   if (slot >= ISA_MAX_DST && slot - ISA_MAX_DST < in->nsrc)
      return &in->src[slot - ISA_MAX_DST];
   return NULL;
}

/* Implicit operands: slot_opnd's answer for ISA_SLOT_IMP_DST/SRC, built
 * in *buf from the op's `implicit:` list (*n its registers), or NULL. */
static const struct isa_opnd *
imp_opnd(const struct isa_model *m, const struct isa_insn *in, int slot, struct isa_opnd *buf,
         unsigned *n)
{
   bool dst = slot < ISA_SLOT_IMP_SRC(0);
   int k = slot - (dst ? ISA_SLOT_IMP_DST(0) : ISA_SLOT_IMP_SRC(0));
   unsigned ni;
   const struct isa_implicit *im = isa_op_implicit(m, in->op, dst, &ni);
   if (k < 0 || (unsigned)k >= ni)
      return NULL;
   *buf = (struct isa_opnd){.kind = ISA_OPND_REG, .file = im[k].file, .index = im[k].index};
   *n = im[k].count ? im[k].count : 1;
   return buf;
}

static bool
is_imp(int slot)
{
   return slot >= ISA_SLOT_IMP_DST(0);
}

static bool
is_dst(int slot)
{
   return slot < ISA_MAX_DST || (is_imp(slot) && slot < ISA_SLOT_IMP_SRC(0));
}

/* The operand in slot (an implicit one in *buf) and the registers it
 * covers as meet() counts them; NULL if the op has no such operand. */
static const struct isa_opnd *
opnd_at(const struct isa_model *m, const struct isa_insn *in, int slot, bool pairs,
        struct isa_opnd *buf, unsigned *n)
{
   if (is_imp(slot))
      return imp_opnd(m, in, slot, buf, n);
   *n = pairs ? isa_opnd_regs(m, in, slot) : isa_opnd_count(m, in, slot);
   return slot_opnd(in, slot);
}

/* The operand in slot, as opnd_at() finds it, without counting its
 * registers (the count costs more than the rest of a question that the
 * operands' files already answer). */
static const struct isa_opnd *
opnd_only(const struct isa_model *m, const struct isa_insn *in, int slot, struct isa_opnd *buf)
{
   unsigned n;
   return is_imp(slot) ? imp_opnd(m, in, slot, buf, &n) : slot_opnd(in, slot);
}

/* Whether wait-state row wr is about consumer c's slot cs: the ops it
 * names, and the operand (a source slot, or an implicit source register). */
static bool
row_applies(const struct isa_model *m, const struct isa_wait_rule *wr, const struct isa_insn *c,
            int cs)
{
   bool named = !wr->nops;
   for (unsigned k = 0; k < wr->nops && wr->opv; k++)
      named |= wr->opv[k] == (int)c->op;
   if (!named)
      return false;
   if (wr->slot >= 0)
      return cs == ISA_SLOT_SRC(wr->slot);
   if (wr->imp_file >= 0) {
      struct isa_opnd b;
      unsigned n;
      const struct isa_opnd *o = is_imp(cs) && !is_dst(cs) ? imp_opnd(m, c, cs, &b, &n) : NULL;
      return o && o->file == wr->imp_file && o->index == wr->imp_index;
   }
   return true;
}

static const struct isa_slot *
model_slot(const struct isa_model *m, const struct isa_insn *in, int slot)
{
   const struct isa_op *op = &m->ops[in->op];
   if (slot < ISA_MAX_DST)
      return slot < op->ndst ? &op->slot[slot] : NULL;
   return slot - ISA_MAX_DST < op->nsrc ? &op->slot[op->ndst + slot - ISA_MAX_DST] : NULL;
}

unsigned
isa_opnd_align(const struct isa_model *m, const struct isa_insn *in, int slot)
{
   const struct isa_slot *s = in->op < m->nops ? model_slot(m, in, slot) : NULL;
   return s && s->align > 1 ? s->align : 1;
}

/* isa_opnd_count() of model slot s of in (NULL: none). */
static unsigned
slot_count(const struct isa_model *m, const struct isa_insn *in, const struct isa_slot *s)
{
   if (!s)
      return 1;
   if (s->count_mod >= 0) {
      unsigned mask = (unsigned)(uint16_t)in->mod[s->count_mod], n = 0;
      while (mask >> n)
         n++;
      return n ? n : 1;
   }
   if (s->count_slot >= 0) {
      const struct isa_op *op = &m->ops[in->op];
      int cs = s->count_slot < op->ndst ? s->count_slot : ISA_MAX_DST + s->count_slot - op->ndst;
      const struct isa_opnd *o = slot_opnd(in, cs);
      return o && o->kind == ISA_OPND_IMM && o->value >= 1 && o->value <= 64 ? o->value : 1;
   }
   unsigned n = s->count_n;
   for (unsigned k = 0; k < s->count_nterms; k++) {
      const struct isa_cterm *t = &m->cterms[s->count_term + (int)k];
      for (unsigned j = 0; j < t->nvals; j++)
         if (in->mod[t->mod] == t->val[j])
            n += t->add[j];
   }
   return n ? n : 1;
}

unsigned
isa_opnd_count(const struct isa_model *m, const struct isa_insn *in, int slot)
{
   return in->op < m->nops ? slot_count(m, in, model_slot(m, in, slot)) : 1;
}

/* The count times the registers of the operand's file one of its
 * elements takes: the width isa_opnd_type() gives (without its type,
 * which the registers do not need), the model slot looked up once. */
unsigned
isa_opnd_regs(const struct isa_model *m, const struct isa_insn *in, int slot)
{
   if (in->op >= m->nops)
      return 1;
   const struct isa_slot *s = model_slot(m, in, slot);
   unsigned n = slot_count(m, in, s), w = 32;
   const struct isa_opnd *o = slot_opnd(in, slot);
   if (!o)
      return n;
   if (s) {
      w = isa_slot_width(m, &m->ops[in->op], s, in->mod);
      /* a half file aliasing a full one: 16 bits (isa_opnd_type) */
      if (o->kind == ISA_OPND_REG && o->file < m->nfiles && m->files[o->file].half_of >= 0)
         w = 16;
   }
   unsigned fw = o->file < m->nfiles ? m->files[o->file].width : 32;
   return w > fw && fw ? n * ((w + fw - 1) / fw) : n;
}

/* A register in "full units": half registers that alias halves of a full
 * file map to that file's register (index / 2). */
struct unit {
   int file;
   unsigned index;
   bool half;
};

static struct unit
to_unit(const struct isa_model *m, unsigned file, unsigned index)
{
   int f = file < m->nfiles ? m->files[file].half_of : -1;
   if (f >= 0)
      return (struct unit){f, index / 2, true};
   return (struct unit){(int)file, index, false};
}

static int
addr_file(const struct isa_model *m)
{
   for (unsigned f = 0; f < m->nfiles; f++)
      if (m->files[f].kind == ISA_FILE_ADDRESS)
         return (int)f;
   return -1;
}

/* The registers operand o touches at repeat step k, as a unit; relative
 * operands are "any register of the file" (index ~0u). */
static bool
opnd_unit(const struct isa_model *m, const struct isa_opnd *o, unsigned k, struct unit *u)
{
   if (o->kind != ISA_OPND_REG && o->kind != ISA_OPND_CONST)
      return false;
   if (o->file >= m->nfiles)
      return false;
   *u = to_unit(m, o->file, o->index + k);
   if (o->flags & ISA_OPND_F_REL)
      u->index = ~0u;
   return true;
}

static bool
units_meet(struct unit a, struct unit b)
{
   return a.file == b.file && (a.index == b.index || a.index == ~0u || b.index == ~0u);
}

/* Does anything written through (w, nw registers, repeated wr times)
 * meet anything read through (r, nr, repeated rr times, advancing if r_inc)?
 * Returns the largest "slack" needed: base - (j + wr - i) over meeting
 * sub-instructions i (writer) and j (reader), plus the model's
 * size_mismatch where a half register meets a full one if `mismatch`, or
 * INT_MIN if none meet. */
static int
meet(const struct isa_model *m, const struct isa_opnd *w, unsigned nw, unsigned wr,
     const struct isa_opnd *r, unsigned nr, unsigned rr, bool r_inc, int base, bool mismatch,
     bool *found)
{
   int best = -1000000;
   *found = false;
   for (unsigned i = 0; i <= wr; i++)
      for (unsigned a = 0; a < nw; a++) {
         struct unit uw;
         if (!opnd_unit(m, w, i + a, &uw))
            continue;
         for (unsigned j = 0; j <= rr; j++)
            for (unsigned b = 0; b < nr; b++) {
               struct unit ur;
               if (!opnd_unit(m, r, (r_inc ? j : 0) + b, &ur) || !units_meet(uw, ur))
                  continue;
               *found = true;
               /* the parameter looked up only when it applies: delays are asked often */
               int extra =
                   uw.half != ur.half && mismatch ? isa_hazard_param(m, "size_mismatch", 0) : 0;
               if (extra)
                  rule(m, "raw, half and full registers overlap");
               int d = base + extra - (int)(j + wr - i);
               best = d > best ? d : best;
            }
      }
   return best;
}

/* Whether meet() can find anything of w and r: both are registers (or
 * constants) of files whose units are one file; every unit of an operand
 * is of the same file, whatever its index, so no other pair meets. */
static bool
may_meet(const struct isa_model *m, const struct isa_opnd *w, const struct isa_opnd *r)
{
   if ((w->kind != ISA_OPND_REG && w->kind != ISA_OPND_CONST) || w->file >= m->nfiles ||
       (r->kind != ISA_OPND_REG && r->kind != ISA_OPND_CONST) || r->file >= m->nfiles)
      return false;
   return to_unit(m, w->file, 0).file == to_unit(m, r->file, 0).file;
}

/* Does operand r read address register `index` of the address file? */
static bool
reads_addr(const struct isa_model *m, const struct isa_opnd *r, const struct isa_opnd *w)
{
   int af = addr_file(m);
   return af >= 0 && w->kind == ISA_OPND_REG && w->file == af && (r->flags & ISA_OPND_F_REL) &&
          r->bank == w->index;
}

static unsigned
rpt(const struct isa_model *m, const struct isa_insn *in)
{
   int r = m->role_mod[ISA_ROLE_RPT];
   return r >= 0 && in->mod[r] > 0 ? (unsigned)in->mod[r] : 0;
}

/* Whether a row of the wait-state table can be about producer p and
 * consumer c: their classes, the consumer ops it names (row_applies'
 * first test). Without one a result p writes needs no wait states. */
static bool
row_may_apply(const struct isa_wait_rule *wr, const struct isa_insn *c)
{
   if (wr->second_cls != (int)c->cls || wr->states <= 0)
      return false;
   bool named = !wr->nops;
   for (unsigned k = 0; k < wr->nops && wr->opv; k++)
      named |= wr->opv[k] == (int)c->op;
   return named;
}

static bool
wait_row_may_apply(const struct isa_model *m, const struct isa_insn *p, const struct isa_insn *c)
{
   for (unsigned i = 0; i < m->nwait_rules; i++)
      if (m->wait_rules[i].first_cls == (int)p->cls && row_may_apply(&m->wait_rules[i], c))
         return true;
   return false;
}

uint64_t
isa_wait_producers(const struct isa_model *m, const struct isa_insn *c)
{
   if (m->nclasses > 64)
      return ~0ull;
   uint64_t set = 0;
   for (unsigned i = 0; c->op < m->nops && i < m->nwait_rules; i++) {
      const struct isa_wait_rule *wr = &m->wait_rules[i];
      if (wr->first_cls >= 0 && wr->first_cls < 64 && row_may_apply(wr, c))
         set |= 1ull << wr->first_cls;
   }
   return set;
}

static struct isa_delay
raw(const struct isa_model *m, const struct isa_insn *p, int ps, const struct isa_insn *c, int cs)
{
   /* wait-state models (gfx9) name 64-bit operands by their first register */
   bool pairs = m->hazard == ISA_HAZARD_WAIT_STATES;
   struct isa_opnd wb, rb;
   unsigned nw, nr;
   struct isa_delay none = {0, ISA_SYNC_NONE};
   /* Wait-state models: no sync and no row for the pair is no wait, found
    * or not (below). Coverage counts the rule it takes: asked in full. */
   if (m->hazard == ISA_HAZARD_WAIT_STATES && !cover_on &&
       m->classes[p->cls].sync == ISA_SYNC_NONE && !wait_row_may_apply(m, p, c))
      return none;
   const struct isa_opnd *w = opnd_only(m, p, ps, &wb), *r = opnd_only(m, c, cs, &rb);
   if (!may_meet(m, w, r) && !reads_addr(m, r, w))
      return none; /* as below: nothing found, no address read */
   w = opnd_at(m, p, ps, pairs, &wb, &nw);
   r = opnd_at(m, c, cs, pairs, &rb, &nr);
   const struct isa_class *pc = &m->classes[p->cls], *cc = &m->classes[c->cls];
   const struct isa_slot *sl = is_imp(cs) ? NULL : model_slot(m, c, cs);
   bool found;
   int base = pc->latency < 0 ? 0 : pc->latency;
   if (m->hazard == ISA_HAZARD_DELAY_SLOTS)
      base += cc->read_early - (sl ? sl->read_delay : 0);
   int need =
       meet(m, w, nw, rpt(m, p), r, nr, rpt(m, c), r->flags & ISA_OPND_F_R, base, true, &found);
   bool addr = reads_addr(m, r, w);
   if (!found && !addr)
      return none;
   if (cover_on) {
      if (rpt(m, p) || rpt(m, c))
         rule(m, "raw, a repeated instruction");
      if (m->hazard == ISA_HAZARD_DELAY_SLOTS && (cc->read_early || (sl && sl->read_delay)))
         rule(m, "raw, a source read late or early");
      if (addr)
         rule(m, "raw, an address register read by a relative operand");
   }
   if (pc->sync != ISA_SYNC_NONE) {
      if (cover_on)
         cover_hit("hazard-rule", "%s: raw, wait by %s", isa_model_name(m),
                   isa_sync_name(pc->sync));
      return (struct isa_delay){0, pc->sync};
   }
   if (m->hazard == ISA_HAZARD_DELAY_SLOTS && w->file < m->nfiles &&
       m->files[w->file].kind == ISA_FILE_ADDRESS) {
      rule(m, "raw, address register write");
      need = isa_hazard_param(m, "addr_write", need);
   }
   if (m->hazard == ISA_HAZARD_STALL_COUNTS && w->file < m->nfiles &&
       m->files[w->file].kind == ISA_FILE_PREDICATE) {
      rule(m, "raw, predicate latency");
      need = isa_hazard_param(m, "pred_latency", need);
   }
   if (m->hazard == ISA_HAZARD_INTERLOCKED)
      need = 0;
   if (m->hazard == ISA_HAZARD_WAIT_STATES) {
      /* The manual wait-state table: rows for this producer and consumer
       * class (and the register's file, the consumer ops and the operand,
       * if the row names them). */
      need = 0;
      for (unsigned i = 0; i < m->nwait_rules; i++) {
         const struct isa_wait_rule *wr = &m->wait_rules[i];
         if (wr->first_cls == (int)p->cls && wr->second_cls == (int)c->cls &&
             (wr->file < 0 || wr->file == w->file) && wr->states > need &&
             row_applies(m, wr, c, cs))
            need = wr->states;
      }
   }
   rule(m, need > 0 ? "raw, fixed latency" : "raw, no wait");
   return (struct isa_delay){need > 0 ? need : 0, ISA_SYNC_NONE};
}

struct isa_delay
isa_delay(const struct isa_model *m, const struct isa_insn *producer, int pslot,
          const struct isa_insn *consumer, int cslot)
{
   struct isa_delay none = {0, ISA_SYNC_NONE};
   if (producer->op >= m->nops || consumer->op >= m->nops)
      return none;
   struct isa_opnd ab, bb;
   unsigned na, nb;
   const struct isa_opnd *a = opnd_only(m, producer, pslot, &ab);
   const struct isa_opnd *b = opnd_only(m, consumer, cslot, &bb);
   if (!a || !b)
      return none;
   bool pdst = is_dst(pslot), cdst = is_dst(cslot);
   if (pdst && !cdst)
      return raw(m, producer, pslot, consumer, cslot);
   if (!pdst && !cdst)
      return none; /* two reads */
   /* WAR (producer reads, consumer writes) or WAW: does the write meet? */
   bool addr = !pdst && reads_addr(m, a, b);
   if (!addr && !may_meet(m, b, a))
      return none; /* as below: nothing found */
   /* registers as raw() counts them (wait-state models: 64-bit operands
    * by their first register) */
   bool pairs = m->hazard == ISA_HAZARD_WAIT_STATES;
   a = opnd_at(m, producer, pslot, pairs, &ab, &na);
   b = opnd_at(m, consumer, cslot, pairs, &bb, &nb);
   bool found;
   meet(m, b, nb, rpt(m, consumer), a, na, rpt(m, producer), !pdst && (a->flags & ISA_OPND_F_R), 0,
        false, &found);
   if (addr)
      found = true;
   if (!found)
      return none;
   const struct isa_class *pc = &m->classes[producer->cls];
   enum isa_sync s = pdst ? pc->sync : pc->war;
   if (cover_on)
      cover_hit("hazard-rule", "%s: %s, %s", isa_model_name(m), pdst ? "waw" : "war",
                s == ISA_SYNC_NONE ? "no sync" : isa_sync_name(s));
   if (pdst && s == ISA_SYNC_NONE && m->hazard == ISA_HAZARD_STALL_COUNTS && pc->latency > 0)
      return (struct isa_delay){pc->latency, ISA_SYNC_NONE};
   return (struct isa_delay){0, s};
}

/* Keep in step with isa_delay() and raw(): everything they read of the
 * consumer that is not the operand in cslot (class, the slot's read delay,
 * its register count -- a register operand in cslot counts as 1 if the
 * count comes from cslot itself -- and the repeat count). */
void
isa_delay_key(const struct isa_model *m, const struct isa_insn *consumer, int cslot,
              struct isa_delay_key *out)
{
   memset(out, 0, sizeof(*out));
   out->cls = out->op = out->slot = -1;
   if (consumer->op >= m->nops)
      return;
   const struct isa_slot *sl = is_imp(cslot) ? NULL : model_slot(m, consumer, cslot);
   out->cls = consumer->cls;
   out->read_delay = sl ? sl->read_delay : 0;
   out->count = is_imp(cslot) ? 1 : isa_opnd_count(m, consumer, cslot);
   out->rpt = rpt(m, consumer);
   /* a row naming the op answers for it and one of its operands alone */
   for (unsigned i = 0; i < m->nwait_rules; i++)
      if (m->wait_rules[i].nops && isa_wait_rule_op(m, i, consumer->op)) {
         out->op = (int)consumer->op;
         out->slot = cslot;
      }
}

static bool
has_pred_file(const struct isa_model *m)
{
   for (unsigned f = 0; f < m->nfiles; f++)
      if (m->files[f].kind == ISA_FILE_PREDICATE)
         return true;
   return false;
}

/* Whether raw() can answer "no wait" on model m: on an interlocked or a
 * wait-state model, with repeats (slots elapse inside them; only when
 * `repeats`), or when a result of a class without a sync can be ready
 * within its distance (class latency, plus the smallest read_early, less
 * the largest read_delay), or the address or predicate parameter that
 * replaces the distance is 0. Stall-count and delay-slot models whose
 * every fixed-latency result takes cycles never can. */
bool
isa_raw_no_wait_possible(const struct isa_model *m, bool repeats)
{
   bool addr = addr_file(m) >= 0, pred = has_pred_file(m);
   if (m->hazard == ISA_HAZARD_INTERLOCKED || m->hazard == ISA_HAZARD_WAIT_STATES ||
       (repeats && m->role_mod[ISA_ROLE_RPT] >= 0))
      return true;
   if (addr && m->hazard == ISA_HAZARD_DELAY_SLOTS && isa_hazard_param(m, "addr_write", 1) <= 0)
      return true;
   if (pred && m->hazard == ISA_HAZARD_STALL_COUNTS && isa_hazard_param(m, "pred_latency", 1) <= 0)
      return true;
   int early = INT_MAX, late = 0;
   for (unsigned c = 0; c < m->nclasses; c++)
      early = m->classes[c].read_early < early ? m->classes[c].read_early : early;
   for (unsigned o = 0; o < m->nops; o++)
      for (unsigned k = 0; k < m->ops[o].ndst + m->ops[o].nsrc; k++)
         late = m->ops[o].slot[k].read_delay > late ? m->ops[o].slot[k].read_delay : late;
   if (m->hazard != ISA_HAZARD_DELAY_SLOTS)
      early = late = 0;
   for (unsigned o = 0; o < m->nops; o++) {
      const struct isa_class *pc = &m->classes[m->ops[o].cls];
      int base = pc->latency < 0 ? 0 : pc->latency;
      if (m->ops[o].ndst && pc->sync == ISA_SYNC_NONE && base + early - late <= 0)
         return true;
   }
   return false;
}

/* The rules above that can decide an answer on model m, as coverage
 * points (the universe check --coverage lists). */
void
isa_cover_declare(const struct isa_model *m)
{
   const char *mn = isa_model_name(m);
   bool sync[ISA_SYNC_COUNT] = {false}, war[ISA_SYNC_COUNT] = {false}, late = false;
   for (unsigned c = 0; c < m->nclasses; c++) {
      sync[m->classes[c].sync] = war[m->classes[c].war] = true;
      late |= m->classes[c].read_early != 0;
   }
   for (unsigned o = 0; o < m->nops; o++)
      for (unsigned k = 0; k < m->ops[o].ndst + m->ops[o].nsrc; k++)
         late |= m->ops[o].slot[k].read_delay != 0;
   char *t;
   for (int s = 0; s < ISA_SYNC_COUNT; s++) {
      if (s != ISA_SYNC_NONE && sync[s]) {
         cover_declare("hazard-rule", t = xasprintf("%s: raw, wait by %s", mn, isa_sync_name(s)));
         free(t);
      }
      if (sync[s]) {
         cover_declare("hazard-rule",
                       t = xasprintf("%s: waw, %s", mn, s ? isa_sync_name(s) : "no sync"));
         free(t);
      }
      if (war[s]) {
         cover_declare("hazard-rule",
                       t = xasprintf("%s: war, %s", mn, s ? isa_sync_name(s) : "no sync"));
         free(t);
      }
   }
   bool addr = addr_file(m) >= 0, pred = has_pred_file(m), alias = false;
   for (unsigned f = 0; f < m->nfiles; f++)
      alias |= m->files[f].alias >= 0;
   /* an interlocked model never needs a distance (raw() answers 0); on
    * the others "no wait" needs a result that can be ready in time */
   const char *always[] = {"raw, no wait", "raw, fixed latency"};
   for (unsigned i = 0; i < (m->hazard == ISA_HAZARD_INTERLOCKED ? 1u : 2u); i++) {
      if (i == 0 && !isa_raw_no_wait_possible(m, true))
         continue;
      cover_declare("hazard-rule", t = xasprintf("%s: %s", mn, always[i]));
      free(t);
   }
   const struct {
      bool when;
      const char *what;
   } opt[] = {
       {m->role_mod[ISA_ROLE_RPT] >= 0, "raw, a repeated instruction"},
       {m->hazard == ISA_HAZARD_DELAY_SLOTS && late, "raw, a source read late or early"},
       {addr, "raw, an address register read by a relative operand"},
       {addr && m->hazard == ISA_HAZARD_DELAY_SLOTS, "raw, address register write"},
       {pred && m->hazard == ISA_HAZARD_STALL_COUNTS, "raw, predicate latency"},
       {alias && isa_hazard_param(m, "size_mismatch", 0) != 0,
        "raw, half and full registers overlap"},
   };
   for (unsigned i = 0; i < sizeof(opt) / sizeof(opt[0]); i++)
      if (opt[i].when) {
         cover_declare("hazard-rule", t = xasprintf("%s: %s", mn, opt[i].what));
         free(t);
      }
}
