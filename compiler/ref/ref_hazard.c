/*
 * Conservative hazard handling, layout and encoding for the reference
 * compiler. Nothing here knows an ISA: every number comes from the model
 * through isa_delay(), isa_class_info() and the hazard parameters.
 *
 * The rule is "every result waited for in full, right after its
 * producer". For each instruction P the pass asks isa_delay() what any
 * possible later instruction could need from P: P's destinations against
 * every source slot of every op of the model reading the same register
 * (RAW; a relative operand for address-register writes), and against
 * every destination slot (WAW), and P's sources against every destination
 * slot (WAR); ops of a class the model marks explicit_only (gfx9 DPP) are
 * asked only when the program has one. The largest distance and the
 * union of the syncs are then satisfied immediately after P:
 *
 *  - delay slots (a3xx): `distance` nops ((rptN)nop, N up to the model's
 *    max_nop_rpt) follow P, and the first instruction after P carries
 *    every sync flag P needs ((ss), (sy)); an instruction that cannot
 *    carry a flag gets a nop in front that carries it;
 *  - stall counts (sm50): P's stall count covers the distance (at least
 *    min_stall, flow_stall after flow ops, bar_min when P sets a
 *    scoreboard; nops with stalls when it exceeds max_stall); a P that
 *    needs a scoreboard sets write barrier 0 (results) and read barrier 1
 *    (sources) and the next instruction waits on both.
 *
 * Because every wait is complete before the next instruction, any
 * instruction may be a branch target and any path into it is safe. Branch
 * targets get the model's jump-target flag (jp role) when it has one.
 */
#include "compiler/ref/ref.h"

#include <stdlib.h>

struct need {
   int distance;
   unsigned syncs; /* bit per enum isa_sync */
   bool war_sync;  /* the sync is (also) for WAR */
};

struct probe_key {
   uint16_t op;
   uint8_t dfile[ISA_MAX_DST];
   uint8_t dkind[ISA_MAX_DST];
   uint8_t skind[ISA_MAX_SRC];
   uint8_t sflags[ISA_MAX_SRC];
};

struct probe_entry {
   struct probe_key key;
   struct need need;
};

/* A consumer the probes ask about: op's blank record, a register in slot. */
struct consumer {
   struct isa_insn q;
   int slot;
   struct isa_delay_key key;
};

/* One consumer per distinct isa_delay_key: every other op would give the
 * same answers (ops of a class mostly look alike). */
struct consumers {
   struct consumer *v;
   unsigned n, cap;
};

/* A branch of the output: its instruction, label and target slot. */
struct branch {
   unsigned at;
   int label, slot;
};

struct hz {
   struct ref_ctx *c;
   const struct isa_model *m;
   enum isa_hazard_kind kind;
   struct isa_insn *out; /* the program, waits included */
   unsigned nout, out_cap;
   struct branch *br; /* its branches, in program order */
   unsigned nbr, br_cap;
   unsigned pending; /* syncs the next instruction must carry */
   int pending_wait; /* stall models: wait mask for the next instruction */
   struct probe_entry *cache;
   unsigned ncache, cache_cap;
   struct consumers readers, writers; /* for the probes: source, destination slots */
   int role[ISA_ROLE_COUNT];
   int nop_op;
   int wait_op; /* interlocked models: the slot wait */
};

static void
merge(struct need *n, struct isa_delay d, bool war)
{
   if (d.distance > n->distance)
      n->distance = d.distance;
   if (d.sync != ISA_SYNC_NONE) {
      n->syncs |= 1u << d.sync;
      n->war_sync |= war;
   }
}

static bool
is_reg(const struct isa_opnd *o)
{
   return o->kind == ISA_OPND_REG;
}

static void
add_consumer(struct hz *h, struct consumers *cs, const struct isa_insn *blank, int slot)
{
   struct consumer c = {*blank, slot, {0, 0, 0, 0, -1, -1}};
   struct isa_opnd *o = slot < ISA_MAX_DST ? &c.q.dst[slot] : &c.q.src[slot - ISA_MAX_DST];
   *o = (struct isa_opnd){.kind = ISA_OPND_REG};
   isa_delay_key(h->m, &c.q, slot, &c.key);
   for (unsigned i = 0; i < cs->n; i++)
      if (!memcmp(&cs->v[i].key, &c.key, sizeof(c.key)))
         return;
   VEC_PUSH(cs->v, cs->n, cs->cap, c);
}

/* Whether the program has an op of class cls. */
static bool
class_used(const struct hz *h, unsigned cls)
{
   for (unsigned i = 0; i < h->c->nitems; i++)
      if (h->c->items[i].in.cls == cls)
         return true;
   return false;
}

/* Every op's source and destination slots, one per isa_delay_key; ops of
 * an explicit_only class (gfx9 DPP) only if the program has one. */
static void
find_consumers(struct hz *h)
{
   for (unsigned op = 0; op < isa_op_count(h->m); op++) {
      struct isa_insn q;
      isa_insn_init(h->m, op, &q);
      struct isa_class_info ci;
      isa_class_info(h->m, q.cls, &ci);
      if (ci.explicit_only && !class_used(h, q.cls))
         continue;
      for (unsigned s = 0; s < q.nsrc; s++)
         add_consumer(h, &h->readers, &q, ISA_SLOT_SRC(s));
      for (unsigned d = 0; d < q.ndst; d++)
         add_consumer(h, &h->writers, &q, ISA_SLOT_DST(d));
   }
}

/* The delay from P's slot ps to consumer c reading or writing o. */
static struct isa_delay
delay_to(struct hz *h, const struct isa_insn *p, int ps, const struct consumer *c,
         struct isa_opnd o)
{
   struct isa_insn q = c->q;
   if (c->slot < ISA_MAX_DST)
      q.dst[c->slot] = o;
   else
      q.src[c->slot - ISA_MAX_DST] = o;
   return isa_delay(h->m, p, ps, &q, c->slot);
}

/* What any consumer could need from P (see the file comment). */
static struct need
probe_uncached(struct hz *h, const struct isa_insn *p)
{
   struct need n = {0, 0, false};
   if (!h->readers.n && !h->writers.n)
      find_consumers(h);
   for (unsigned ps = 0; ps < p->ndst; ps++) {
      if (!is_reg(&p->dst[ps]))
         continue;
      struct isa_opnd w = p->dst[ps];
      w.flags = 0;
      struct isa_opnd rel = {.kind = ISA_OPND_REG,
                             .file = (uint8_t)h->c->gpr,
                             .flags = ISA_OPND_F_REL,
                             .bank = w.index};
      for (unsigned k = 0; k < h->readers.n; k++) {
         merge(&n, delay_to(h, p, ISA_SLOT_DST(ps), &h->readers.v[k], w), false);
         if ((int)w.file == h->c->afile)
            merge(&n, delay_to(h, p, ISA_SLOT_DST(ps), &h->readers.v[k], rel), false);
      }
      for (unsigned k = 0; k < h->writers.n; k++)
         merge(&n, delay_to(h, p, ISA_SLOT_DST(ps), &h->writers.v[k], w), false);
   }
   for (unsigned ps = 0; ps < p->nsrc; ps++) {
      if (!is_reg(&p->src[ps]))
         continue;
      struct isa_opnd r = p->src[ps];
      r.flags = 0;
      for (unsigned k = 0; k < h->writers.n; k++)
         merge(&n, delay_to(h, p, ISA_SLOT_SRC(ps), &h->writers.v[k], r), true);
   }
   return n;
}

static struct need
probe(struct hz *h, const struct isa_insn *p)
{
   struct probe_key k;
   memset(&k, 0, sizeof(k));
   k.op = p->op;
   for (unsigned i = 0; i < p->ndst && i < ISA_MAX_DST; i++) {
      k.dfile[i] = p->dst[i].file;
      k.dkind[i] = p->dst[i].kind;
   }
   for (unsigned i = 0; i < p->nsrc && i < ISA_MAX_SRC; i++) {
      k.skind[i] = p->src[i].kind;
      k.sflags[i] = p->src[i].flags & ISA_OPND_F_REL;
   }
   for (unsigned i = 0; i < h->ncache; i++)
      if (h->cache[i].key.op == k.op && !memcmp(&h->cache[i].key, &k, sizeof(k)))
         return h->cache[i].need;
   struct probe_entry e = {k, probe_uncached(h, p)};
   VEC_PUSH(h->cache, h->ncache, h->cache_cap, e);
   return e.need;
}

/* Whether the instruction encodes with modifier `mod` set to value. */
static bool
can_carry(struct hz *h, const struct isa_insn *in, int mod, int value)
{
   if (mod < 0)
      return false;
   struct isa_insn t = *in;
   t.mod[mod] = (int16_t)value;
   return isa_check_insn(h->m, &t, NULL) == ISA_ERR_OK;
}

static int
sync_role(enum isa_sync s)
{
   switch (s) {
   case ISA_SYNC_SS:
      return ISA_ROLE_SS;
   case ISA_SYNC_SY:
      return ISA_ROLE_SY;
   default:
      return -1;
   }
}

static struct isa_insn *
push(struct hz *h, const struct isa_insn *in)
{
   VEC_PUSH(h->out, h->nout, h->out_cap, *in);
   return &h->out[h->nout - 1];
}

static struct isa_insn
make_nop(struct hz *h)
{
   struct isa_insn n;
   isa_insn_init(h->m, (unsigned)h->nop_op, &n);
   return n;
}

/* Puts the pending syncs (and, for stall models, the wait mask) on `in`,
 * or on a nop emitted in front of it when `in` cannot carry them. */
static void
apply_pending(struct hz *h, struct isa_insn *in)
{
   bool ok = true;
   for (unsigned s = 0; s < ISA_SYNC_COUNT; s++) {
      if (!(h->pending & (1u << s)))
         continue;
      int role = sync_role((enum isa_sync)s);
      if (role < 0)
         continue;
      ok &= can_carry(h, in, h->role[role], 1);
   }
   if (h->pending_wait)
      ok &= can_carry(h, in, h->role[ISA_ROLE_WAIT_MASK], h->pending_wait);
   struct isa_insn nop;
   struct isa_insn *dst = in;
   if (!ok) {
      nop = make_nop(h);
      dst = &nop;
   }
   for (unsigned s = 0; s < ISA_SYNC_COUNT; s++) {
      int role = sync_role((enum isa_sync)s);
      if ((h->pending & (1u << s)) && role >= 0 && h->role[role] >= 0)
         dst->mod[h->role[role]] = 1;
   }
   if (h->pending_wait && h->role[ISA_ROLE_WAIT_MASK] >= 0)
      dst->mod[h->role[ISA_ROLE_WAIT_MASK]] |= (int16_t)h->pending_wait;
   if (!ok) {
      int stall = h->role[ISA_ROLE_STALL];
      if (stall >= 0)
         nop.mod[stall] = (int16_t)isa_hazard_param(h->m, "min_stall", 1);
      push(h, &nop);
   }
   h->pending = 0;
   h->pending_wait = 0;
}

/* delay slots: `n` nops after the producer. */
static void
emit_nops(struct hz *h, int n)
{
   int rpt = h->role[ISA_ROLE_RPT];
   int maxr = isa_hazard_param(h->m, "max_nop_rpt", 0);
   while (n > 0) {
      struct isa_insn nop = make_nop(h);
      int k = rpt >= 0 ? MIN2(n, maxr + 1) : 1;
      if (rpt >= 0)
         nop.mod[rpt] = (int16_t)(k - 1);
      apply_pending(h, &nop);
      push(h, &nop);
      n -= k;
   }
}

/* stall counts: the producer's control fields. */
static void
set_stall(struct hz *h, struct isa_insn *in, struct need n)
{
   const struct isa_model *m = h->m;
   struct isa_class_info ci;
   isa_class_info(m, in->cls, &ci);
   int stall = MAX2(n.distance, isa_hazard_param(m, "min_stall", 1));
   if (ci.flow)
      stall = MAX2(stall, isa_hazard_param(m, "flow_stall", 0));
   if (n.syncs & (1u << ISA_SYNC_SCOREBOARD)) {
      stall = MAX2(stall, isa_hazard_param(m, "bar_min", 0));
      bool has_dst = false;
      for (unsigned d = 0; d < in->ndst; d++)
         has_dst |= in->dst[d].kind == ISA_OPND_REG;
      if (has_dst && h->role[ISA_ROLE_WR_BAR] >= 0) {
         in->mod[h->role[ISA_ROLE_WR_BAR]] = 0;
         h->pending_wait |= 1;
      }
      if ((n.war_sync || !has_dst) && h->role[ISA_ROLE_RD_BAR] >= 0) {
         in->mod[h->role[ISA_ROLE_RD_BAR]] = 1;
         h->pending_wait |= 2;
      }
   }
   int maxs = isa_hazard_param(m, "max_stall", 15);
   if (h->role[ISA_ROLE_STALL] >= 0)
      in->mod[h->role[ISA_ROLE_STALL]] = (int16_t)MIN2(stall, maxs);
   for (stall -= maxs; stall > 0; stall -= maxs) {
      struct isa_insn nop = make_nop(h);
      if (h->role[ISA_ROLE_STALL] >= 0)
         nop.mod[h->role[ISA_ROLE_STALL]] = (int16_t)MIN2(stall, maxs);
      push(h, &nop);
   }
}

/* wait states (gfx9): s_nop with the most wait states it gives after a
 * producer some consumer needs wait states from, and s_waitcnt with
 * every counter at 0 after one that counts on a counter. */
static void
emit_wait_states(struct hz *h, struct need n)
{
   if (n.distance > 0 && h->role[ISA_ROLE_NOPS] >= 0) {
      struct isa_insn nop = make_nop(h);
      nop.mod[h->role[ISA_ROLE_NOPS]] = (int16_t)isa_hazard_param(h->m, "nop_max", 15);
      push(h, &nop);
   }
   unsigned counters = (1u << ISA_SYNC_VMCNT) | (1u << ISA_SYNC_LGKMCNT) | (1u << ISA_SYNC_EXPCNT);
   unsigned nw;
   const uint16_t *w = isa_ops_by_sem(h->m, ISA_SEM_WAITCNT, &nw);
   if (!(n.syncs & counters) || !nw)
      return;
   struct isa_insn wc;
   isa_insn_init(h->m, w[0], &wc);
   static const enum isa_role roles[3] = {ISA_ROLE_VMCNT, ISA_ROLE_LGKMCNT, ISA_ROLE_EXPCNT};
   for (unsigned k = 0; k < 3; k++)
      if (h->role[roles[k]] >= 0)
         wc.mod[h->role[roles[k]]] = 0;
   push(h, &wc);
}

/* Interlocked models (agx): the hardware waits for fixed-latency results;
 * an op of a class synchronized by a wait slot (loads, stores) is followed
 * by a wait on its slot, stores included (their messages count against
 * the slot's pending limit). */
static void
emit_slot_wait(struct hz *h, const struct isa_insn *in)
{
   struct isa_class_info ci;
   isa_class_info(h->m, in->cls, &ci);
   int slot = h->role[ISA_ROLE_WAIT_SLOT];
   if (ci.sync != ISA_SYNC_WAIT_SLOT || slot < 0 || h->wait_op < 0 || h->c->waits_placed)
      return;
   struct isa_insn w;
   isa_insn_init(h->m, (unsigned)h->wait_op, &w);
   w.mod[slot] = in->mod[slot];
   push(h, &w);
}

/* Emits one item with its waits; returns the position a branch to it
 * lands on (a nop emitted in front of it, for a sync or the jump-target
 * flag, is part of it). */
static unsigned
emit_item(struct hz *h, const struct ref_item *src, bool is_target)
{
   unsigned begin = h->nout;
   int jp = is_target ? h->role[ISA_ROLE_JP] : -1;
   struct isa_insn in = src->in;
   if (src->label >= 0) /* a placeholder target, so the record checks */
      in.src[src->target_slot] = ref_imm(0);
   if (jp >= 0 && !can_carry(h, &in, jp, 1)) {
      struct isa_insn nop = make_nop(h);
      apply_pending(h, &nop);
      nop.mod[jp] = 1;
      push(h, &nop);
   }
   apply_pending(h, &in);
   if (jp >= 0 && h->nout > begin)
      h->out[begin].mod[jp] = 1;
   else if (jp >= 0)
      in.mod[jp] = 1;
   if (src->label >= 0) {
      struct branch b = {h->nout, src->label, src->target_slot};
      VEC_PUSH(h->br, h->nbr, h->br_cap, b);
   }
   struct isa_insn *it = push(h, &in);
   if (h->kind == ISA_HAZARD_INTERLOCKED) {
      emit_slot_wait(h, it);
      return begin;
   }
   struct need n = probe(h, it);
   if (h->kind == ISA_HAZARD_STALL_COUNTS) {
      set_stall(h, it, n);
   } else if (h->kind == ISA_HAZARD_WAIT_STATES) {
      emit_wait_states(h, n);
   } else {
      for (unsigned s = 0; s < ISA_SYNC_COUNT; s++)
         if (n.syncs & (1u << s))
            h->pending |= 1u << s;
      emit_nops(h, n.distance);
   }
   return begin;
}

static void
count_stats(struct hz *h, struct compile_stats *st)
{
   int rpt = h->role[ISA_ROLE_RPT], nopn = h->role[ISA_ROLE_NOPS], stall = h->role[ISA_ROLE_STALL];
   st->instructions = h->nout;
   st->registers = h->c->max_reg;
   for (unsigned i = 0; i < h->nout; i++) {
      const struct isa_insn *in = &h->out[i];
      uint64_t cyc = 1;
      if (in->sem == ISA_SEM_NOP)
         st->nops++;
      if (in->sem == ISA_SEM_NOP && rpt >= 0)
         cyc += (uint64_t)in->mod[rpt];
      if (nopn >= 0)
         cyc += (uint64_t)in->mod[nopn];
      if (stall >= 0 && in->mod[stall] > 1)
         cyc = (uint64_t)in->mod[stall];
      st->cycles += cyc;
   }
}

/* The program encoded with zero branch offsets (emit_item gave every
 * branch a placeholder target), each instruction's byte address in addr,
 * or NULL (a reference-compiler bug, reported). Encoding is tried first
 * without diagnostics: only a failure needs the instruction-by-instruction
 * checks, which name the culprit. */
static uint8_t *
encode_zeroed(struct ref_ctx *c, struct hz *h, size_t *len, uint32_t *addr)
{
   uint8_t *code = NULL;
   if (isa_encode_program_at(c->m, h->out, h->nout, &code, len, addr, NULL) == ISA_ERR_OK)
      return code;
   for (unsigned i = 0; i < h->nout; i++) {
      struct diag_list d = {0};
      if (isa_check_insn(c->m, &h->out[i], &d) != ISA_ERR_OK) {
         char text[256];
         isa_print_insn(c->m, &h->out[i], text, sizeof(text));
         ref_error(c, "instruction %u (%s) does not encode: %s (a reference-compiler bug)", i, text,
                   diag_first_error(&d));
         diag_clear(&d);
         return NULL;
      }
      diag_clear(&d);
   }
   if (isa_encode_program(c->m, h->out, h->nout, &code, len, c->d) != ISA_ERR_OK)
      ref_error(c, "the program does not encode (a reference-compiler bug)");
   free(code);
   return NULL;
}

/* Writes every branch's target immediate the way its slot counts
 * (isa_slot_info.pcrel). Byte addresses are where the encoder put each
 * instruction (so bundle control words are counted as the model lays them
 * out); branch encodings have a fixed size, so the offsets do not move
 * anything. */
static void
resolve_targets(struct ref_ctx *c, struct hz *h, const unsigned *pos, const uint32_t *addr)
{
   for (unsigned k = 0; k < h->nbr; k++) {
      const struct branch *b = &h->br[k];
      unsigned i = b->at, t = pos[c->labels[b->label]];
      struct isa_slot_info si;
      if (t >= h->nout || !isa_slot_info(c->m, h->out[i].op, false, (unsigned)b->slot, &si)) {
         ref_error(c, "a branch target outside the program");
         break;
      }
      struct isa_op_info oi;
      isa_op_info(c->m, h->out[i].op, &oi);
      int64_t v;
      switch (si.pcrel) {
      case ISA_PCREL_INSN:
         v = (int64_t)t - i;
         break;
      case ISA_PCREL_INSN_NEXT:
         v = (int64_t)t - i - 1;
         break;
      case ISA_PCREL_BYTE:
         v = (int64_t)addr[t] - addr[i];
         break;
      case ISA_PCREL_BYTE_NEXT:
         v = (int64_t)addr[t] - addr[i] - oi.size;
         break;
      case ISA_PCREL_DWORD_NEXT:
         v = ((int64_t)addr[t] - addr[i] - oi.size) / 4;
         break;
      default:
         ref_error(c, "the model does not say how branch slot %s counts", si.name);
         v = 0;
         break;
      }
      h->out[i].src[b->slot] = ref_imm((uint32_t)(int32_t)v);
   }
}

/* Re-encodes the branches in place (their offsets changed; nothing else
 * did, control words included); false if one does not encode. */
static bool
patch_branches(struct ref_ctx *c, struct hz *h, const uint32_t *addr, uint8_t *code)
{
   for (unsigned k = 0; k < h->nbr; k++) {
      uint8_t word[16];
      size_t n = 0;
      unsigned i = h->br[k].at;
      if (isa_encode(c->m, &h->out[i], word, &n, NULL) != ISA_ERR_OK)
         return false;
      memcpy(code + addr[i], word, n);
   }
   return true;
}

/* The final program: the zero-offset encoding with its branches patched. */
static void
encode(struct ref_ctx *c, struct hz *h, const unsigned *pos, struct emu_program *out)
{
   size_t len = 0;
   uint32_t *addr = xmalloc((h->nout + 1) * sizeof(uint32_t));
   uint8_t *code = encode_zeroed(c, h, &len, addr);
   if (code)
      resolve_targets(c, h, pos, addr);
   if (code && c->status == COMPILE_OK && patch_branches(c, h, addr, code)) {
      out->code = code;
      out->size = len;
      code = NULL;
   } else if (c->status == COMPILE_OK && isa_encode_program(c->m, h->out, h->nout, &out->code,
                                                            &out->size, c->d) != ISA_ERR_OK) {
      ref_error(c, "the program does not encode (a reference-compiler bug)");
   }
   free(code);
   free(addr);
}

enum compile_status
ref_finish(struct ref_ctx *c, struct emu_program *out, struct compile_stats *stats)
{
   struct hz h = {.c = c, .m = c->m, .kind = isa_hazard_kind(c->m)};
   for (unsigned r = 0; r < ISA_ROLE_COUNT; r++)
      h.role[r] = isa_mod_by_role(c->m, (enum isa_role)r);
   h.nop_op = isa_op_find(c->m, "nop");
   unsigned nn;
   const uint16_t *nops = isa_ops_by_sem(c->m, ISA_SEM_NOP, &nn);
   if (h.nop_op < 0 && nn) /* gfx9 s_nop */
      h.nop_op = nops[0];
   h.wait_op = isa_op_find(c->m, "wait");
   if (h.nop_op < 0 && h.kind != ISA_HAZARD_INTERLOCKED)
      return ref_error(c, "model %s has no nop", isa_model_name(c->m));
   bool *target = xcalloc(c->nitems + 1, sizeof(bool));
   for (unsigned i = 0; i < c->nitems; i++) {
      int l = c->items[i].label;
      if (l >= 0 && c->labels[l] >= 0)
         target[c->labels[l]] = true;
      else if (l >= 0)
         ref_error(c, "branch to a label that was never placed");
   }
   unsigned *pos = xmalloc(sizeof(unsigned) * (c->nitems + 1));
   for (unsigned i = 0; i < c->nitems; i++)
      pos[i] = emit_item(&h, &c->items[i], target[i]);
   pos[c->nitems] = h.nout;
   free(target);
   /* the items are all in h.out now: give their memory back before encoding */
   free(c->items);
   c->items = NULL;
   c->nitems = c->items_cap = 0;
   if (c->status == COMPILE_OK)
      encode(c, &h, pos, out);
   if (stats && c->status == COMPILE_OK)
      count_stats(&h, stats);
   free(pos);
   free(h.out);
   free(h.br);
   free(h.cache);
   free(h.readers.v);
   free(h.writers.v);
   return c->status;
}
