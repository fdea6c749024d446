/*
 * Hazard insertion: what the hardware does not interlock, the program must
 * wait for. Every distance and every sync comes from isa_delay() -- the one
 * latency/hazard function the scheduler and the emulator use too -- asked
 * about the instructions as they will be encoded, on the layout opt_emit
 * encodes (so the implied branches and jumps are seen, and the loop back
 * edges).
 *
 * Stall-count models (sm50), opt_control_words(): per block, in issue
 * order, each instruction issues once every fixed-latency result it reads
 * or overwrites is ready -- isa_delay's distance in cycles, the guard
 * predicate's pred_latency -- by raising the stall count of the
 * instruction before it. A variable-latency result takes a free
 * scoreboard (wr_bar; its sources one too, rd_bar, when the class reads
 * them late); a reader, an overwriter, or a writer of such a source within
 * war_latency waits on it (the wait mask), never sooner than bar_min
 * cycles after it was set. The last instruction of every block is a flow
 * instruction (branch, SSY, SYNC, EXIT): it waits for every scoreboard
 * still set and every fixed-latency result, and stalls flow_stall cycles,
 * so every block starts with nothing in flight. The control words are a
 * function of the layout: emit recomputes them for the implied branches.
 *
 * Divergence. The emulator (like the hardware) keeps one timing state per
 * wave, and a divergent if runs its then part first, then its else part:
 * the else part's first block can follow the then part's last block
 * although no edge of the CFG says so. Likewise lanes that break out of a
 * loop jump past the lanes still waiting at a join of its body (an else
 * part, the block after an if), which run next: such a join can follow
 * any block of the loop that ends in a break and comes before it. Both
 * analyses take these extra predecessors (with minimum-PC reconvergence
 * they are the orders structured code adds).
 *
 * Delay-slot models (a3xx):
 *   1. sync flags. Results of a class with a sync (sfu: ss, tex and global
 *      loads: sy) and sources still being read by a class with a `war` sync
 *      are pending until an instruction carrying that flag issues; one flag
 *      waits for every pending producer of its kind. A consumer (RAW), a
 *      writer of a pending result (WAW) or of a pending source (WAR) gets
 *      the flag isa_delay names; `end` waits for every pending result (the
 *      outputs). The pending sets flow forward over the CFG to a fixed
 *      point, so joins and loop back edges are covered. An op that cannot
 *      carry the flag (a3xx cat5/cat6 have no (ss) bit) gets a nop carrying
 *      it in front.
 *   2. delay slots. For each source, the writers found walking backwards
 *      (into every predecessor block, around loops) within the window of
 *      the largest distance need isa_delay's distance of issue slots in
 *      between; a later writer of the same register hides an earlier one
 *      (Mesa 140e117f2b0). Implied branches and jumps count as no slot, so
 *      an emulator that counts them only sees more distance. Missing slots
 *      become (nopN) on the instruction before (cat2/cat3 without (rptN),
 *      an opt_transform) or (rptN)nop. Inputs and system values are in
 *      their registers before the first instruction (emu.h): ready for any
 *      read.
 */
#include "compiler/ir/ir.h"

#include <stdio.h>
#include <stdlib.h>

#define HZ_WINDOW 24 /* no delay is longer: the walk stops here */

/* Block `from` can run right before block `to` (block indices). */
struct hz_edge {
   unsigned to, from;
};
#define HZ_MAXSTEPS 4096

/* A slot as the fault firings name it, the same across the rounds that
 * add nops and in emit: "%12" (its instruction), "@3:branch" (a branch
 * the tree implies at the end of block 3). */
#define SLOT_FMT "%s%u%s%s"
#define SLOT_ARGS(lo, i)                                                                           \
   (lo)->v[i].in ? "%" : "@", (lo)->v[i].in ? (lo)->v[i].in->id : (lo)->v[i].block->index,         \
       (lo)->v[i].in ? "" : ":", (lo)->v[i].in ? "" : isa_sem_name((lo)->v[i].kind)

enum {
   HZ_SS = 1 << 0,
   HZ_SY = 1 << 1,
};

struct hz {
   struct ir_shader *sh;
   struct opt_ctx *ctx;
   const struct isa_model *m;
   struct opt_layout lo;
   unsigned *pad;  /* nops to insert before each slot */
   uint8_t *flags; /* HZ_SS/HZ_SY each slot needs */
   int mod_ss, mod_sy, mod_nop, mod_rpt;
   int nop_op;
   int max_nop_rpt, max_nopn;
   struct hz_edge *also; /* predecessors the CFG lacks (divergence) */
   unsigned nalso, also_cap;
   int addr_file;      /* the address registers' file, or -1 */
   unsigned first_new; /* the first value id hazard insertion made */
};

/* Issue slots an instruction takes; implied branches count none. */
static unsigned
cycles(const struct hz *z, unsigned i)
{
   const struct opt_slot *s = &z->lo.v[i];
   if (s->implied)
      return 0;
   unsigned c = 1;
   if (z->mod_rpt >= 0)
      c += (unsigned)s->insn.mod[z->mod_rpt];
   if (z->mod_nop >= 0)
      c += (unsigned)s->insn.mod[z->mod_nop];
   return c;
}

static unsigned
sync_flag(enum isa_sync s)
{
   return s == ISA_SYNC_SS ? HZ_SS : s == ISA_SYNC_SY ? HZ_SY : 0;
}

/* ------------------------------------------------------------------ */
/* 1. sync flags                                                        */

/* Pending entries: bit 2*i = slot i's result, 2*i+1 = its sources. */
struct pending {
   unsigned nw;
   uint64_t *in, *out; /* by block index */
};

static unsigned
ctz64(uint64_t w) /* w != 0 */
{
#if defined(__GNUC__)
   return (unsigned)__builtin_ctzll(w);
#else
   unsigned i = 0;
   for (; !(w & 1); w >>= 1)
      i++;
   return i;
#endif
}

/* A pending set: a bit per entry, and a summary bit per word of it that
 * is set whenever the word may be nonzero (a superset: a word cleared
 * keeps its summary bit). A sweep costs the set's bits and n / 4096
 * words, not n / 64: every slot sweeps the set, so a long program with
 * few entries pending stays linear. */
struct bitset {
   uint64_t *w, *sum;
};

/* The summary of s from its words. */
static void
bitset_summarize(struct bitset *s, unsigned nw)
{
   memset(s->sum, 0, ((nw + 63) / 64) * sizeof(uint64_t));
   for (unsigned w = 0; w < nw; w++)
      if (s->w[w])
         s->sum[w / 64] |= 1ull << (w % 64);
}

/* The first set bit at or after i, or n. */
static unsigned
next_bit(const struct bitset *s, unsigned i, unsigned n)
{
   while (i < n) {
      unsigned wi = i / 64;
      uint64_t sw = s->sum[wi / 64] >> (wi % 64);
      if (!sw) {
         i = (wi / 64 + 1) * 4096;
         continue;
      }
      unsigned next = wi + ctz64(sw);
      if (next > wi)
         i = next * 64;
      uint64_t w = s->w[next] >> (i % 64);
      if (w) {
         i += ctz64(w);
         return i < n ? i : n;
      }
      i = (next + 1) * 64;
   }
   return n;
}

static void
set_bit(struct bitset *s, unsigned i, bool on)
{
   if (on) {
      s->w[i / 64] |= 1ull << (i % 64);
      s->sum[i / 4096] |= 1ull << (i / 64 % 64);
   } else {
      s->w[i / 64] &= ~(1ull << (i % 64));
   }
}

/* The flags consumer c needs against pending entry e. */
static unsigned
needs(const struct hz *z, unsigned e, const struct isa_insn *c, bool is_end)
{
   const struct isa_insn *p = &z->lo.v[e / 2].insn;
   struct isa_class_info pc;
   isa_class_info(z->m, p->cls, &pc);
   unsigned f = 0;
   if (e % 2 == 0) {
      if (is_end)
         f = sync_flag(pc.sync); /* the outputs are read when the program ends */
      for (unsigned d = 0; d < p->ndst && !is_end; d++) {
         for (unsigned s = 0; s < c->nsrc; s++)
            f |= sync_flag(isa_delay(z->m, p, ISA_SLOT_DST(d), c, ISA_SLOT_SRC(s)).sync);
         for (unsigned d2 = 0; d2 < c->ndst; d2++)
            f |= sync_flag(isa_delay(z->m, p, ISA_SLOT_DST(d), c, ISA_SLOT_DST(d2)).sync);
      }
   } else {
      for (unsigned s = 0; s < p->nsrc; s++)
         for (unsigned d2 = 0; d2 < c->ndst; d2++)
            f |= sync_flag(isa_delay(z->m, p, ISA_SLOT_SRC(s), c, ISA_SLOT_DST(d2)).sync);
   }
   return f;
}

/* The flags slot i gets: raw for the results pending (and `end`), war for
 * the sources, less what the sync faults drop. A firing is asked once
 * per slot; the fixed point visits the slot again. */
static unsigned
faulty_flags(const struct hz *z, unsigned i, unsigned raw, unsigned war)
{
   const struct opt_layout *lo = &z->lo;
   if ((raw & ~war & HZ_SS) &&
       opt_fault_fires(z->ctx, OPT_FAULT_MISSING_SS, "no (ss) on " SLOT_FMT, SLOT_ARGS(lo, i)))
      raw &= ~(unsigned)HZ_SS;
   if ((raw & ~war & HZ_SY) &&
       opt_fault_fires(z->ctx, OPT_FAULT_MISSING_SY, "no (sy) on " SLOT_FMT, SLOT_ARGS(lo, i)))
      raw &= ~(unsigned)HZ_SY;
   if ((war & ~raw) &&
       opt_fault_fires(z->ctx, OPT_FAULT_WAR_IN_FLIGHT,
                       "no sync on " SLOT_FMT " for a source still being read", SLOT_ARGS(lo, i)))
      war = 0;
   return raw | war;
}

/* Runs slot i on the pending set; returns the flags it needs. */
static unsigned
transfer(const struct hz *z, unsigned i, struct bitset *set)
{
   const struct isa_insn *c = &z->lo.v[i].insn;
   bool is_end = c->sem == ISA_SEM_END;
   unsigned fe[2] = {0, 0}; /* for results, for sources */
   unsigned n = 2 * z->lo.n;
   for (unsigned e = next_bit(set, 0, n); e < n; e = next_bit(set, e + 1, n))
      fe[e % 2] |= needs(z, e, c, is_end);
   unsigned f = faulty_flags(z, i, fe[0], fe[1]);
   for (unsigned e = next_bit(set, 0, n); f && e < n; e = next_bit(set, e + 1, n)) {
      struct isa_class_info pc;
      isa_class_info(z->m, z->lo.v[e / 2].insn.cls, &pc);
      unsigned kind = sync_flag(e % 2 ? pc.war_sync : pc.sync);
      if (kind & f)
         set_bit(set, e, false); /* one flag waits for every producer of its kind */
   }
   struct isa_class_info cc;
   isa_class_info(z->m, c->cls, &cc);
   if (sync_flag(cc.sync) && c->ndst)
      set_bit(set, 2 * i, true);
   if (sync_flag(cc.war_sync) && c->nsrc)
      set_bit(set, 2 * i + 1, true);
   return f;
}

static void
sync_flags(struct hz *z)
{
   struct ir_shader *sh = z->sh;
   struct pending p = {(2 * z->lo.n + 63) / 64 + 1, NULL, NULL};
   p.in = xcalloc((size_t)sh->nblocks * p.nw + 1, sizeof(uint64_t));
   p.out = xcalloc((size_t)sh->nblocks * p.nw + 1, sizeof(uint64_t));
   uint64_t *cur = xcalloc(p.nw, sizeof(uint64_t));
   struct bitset set = {cur, xcalloc((p.nw + 63) / 64, sizeof(uint64_t))};
   for (bool changed = true; changed;) {
      changed = false;
      for (unsigned bi = 0; bi < sh->nblocks; bi++) {
         struct ir_block *b = sh->blocks[bi];
         memset(cur, 0, p.nw * sizeof(uint64_t));
         for (unsigned k = 0; k < b->npreds; k++)
            for (unsigned w = 0; w < p.nw; w++)
               cur[w] |= p.out[(size_t)b->preds[k]->index * p.nw + w];
         for (unsigned e = 0; e < z->nalso; e++)
            for (unsigned w = 0; z->also[e].to == bi && w < p.nw; w++)
               cur[w] |= p.out[(size_t)z->also[e].from * p.nw + w];
         memcpy(p.in + (size_t)bi * p.nw, cur, p.nw * sizeof(uint64_t));
         bitset_summarize(&set, p.nw);
         for (unsigned i = z->lo.block_start[bi]; i < z->lo.block_end[bi]; i++)
            z->flags[i] = (uint8_t)transfer(z, i, &set);
         /* out only grows: a transfer is not monotone (more producers
          * pending can set a flag that clears others), and replacing out
          * made the fixed point oscillate for ever (a3xx, generated
          * pressure shader gen:465386385). A larger pending set only
          * adds sync flags: conservative, never a missing one. */
         uint64_t *out = p.out + (size_t)bi * p.nw;
         for (unsigned w = 0; w < p.nw; w++)
            if (cur[w] & ~out[w]) {
               out[w] |= cur[w];
               changed = true;
            }
      }
   }
   free(set.sum);
   free(cur);
   free(p.in);
   free(p.out);
}

/* ------------------------------------------------------------------ */
/* 2. delay slots                                                       */

/* The registers an operand covers; rel: any register of the file. */
struct span {
   int file;
   unsigned first, count;
   bool any;
};

static bool
span_of(const struct hz *z, const struct isa_insn *in, int slot, struct span *s)
{
   const struct isa_opnd *o = slot < ISA_MAX_DST ? &in->dst[slot] : &in->src[slot - ISA_MAX_DST];
   if ((o->flags & ISA_OPND_F_REL) && slot >= ISA_MAX_DST && z->addr_file >= 0) {
      /* a relative operand reads its address register (and any register of
       * its file, which the writers' checks cover as `any`) */
      s->file = z->addr_file;
      s->first = o->bank;
      s->count = 1;
      s->any = false;
      return true;
   }
   if (o->kind != ISA_OPND_REG)
      return false;
   s->file = o->file;
   s->first = o->index;
   s->count = MIN2(isa_opnd_count(z->m, in, slot), 32u);
   s->any = (o->flags & ISA_OPND_F_REL) != 0;
   return true;
}

/* The consumer's source registers not yet written on the path walked. */
struct wants {
   int cslot[ISA_MAX_SRC];
   struct span sp[ISA_MAX_SRC];
   uint32_t open[ISA_MAX_SRC];
   unsigned n;
};

/* A point the walk reached: the end of a block, so far back, with these
 * registers still open. */
struct wseen {
   unsigned block, elapsed;
   uint32_t open[ISA_MAX_SRC];
};

struct walk {
   const struct hz *z;
   const struct isa_insn *c;
   int need;
   unsigned steps;
   uint64_t faults;    /* the delay faults this walk applies (1 << OPT_FAULT_*) */
   struct wseen *seen; /* the walk from a point seen is the same: once */
   unsigned nseen, seen_cap;
};

/* The distance the faults that shorten delay slots leave (d otherwise). */
static int
fault_distance(const struct walk *wk, const struct isa_insn *p, const struct span *ps, int cslot,
               int d)
{
   const struct hz *z = wk->z;
   struct isa_class_info pc, cc;
   isa_class_info(z->m, p->cls, &pc);
   isa_class_info(z->m, wk->c->cls, &cc);
   if (((wk->faults >> OPT_FAULT_READ_EARLY) & 1) && ps->file != z->addr_file)
      d -= cc.read_early; /* the ALU -> ALU distance for every consumer */
   if (((wk->faults >> OPT_FAULT_SEL_SRC3) & 1) && wk->c->sem == ISA_SEM_SEL &&
       cslot == ISA_SLOT_SRC(2))
      d -= 2; /* as if sel read its third source late, like mad */
   if (((wk->faults >> OPT_FAULT_ADDR_DELAY) & 1) && ps->file == z->addr_file)
      d = MIN2(d, pc.latency); /* a0.x as an ordinary ALU result */
   if ((wk->faults >> OPT_FAULT_DELAY_SHORT) & 1)
      d--;
   return d;
}

/* Producer slot j, `elapsed` issue slots before the consumer: its delay
 * for the registers still open; it closes the registers it writes. */
static void
visit(struct walk *wk, struct wants *w, unsigned j, unsigned elapsed)
{
   const struct isa_insn *p = &wk->z->lo.v[j].insn;
   for (unsigned d = 0; d < p->ndst; d++) {
      struct span ps;
      if (!span_of(wk->z, p, ISA_SLOT_DST(d), &ps))
         continue;
      for (unsigned i = 0; i < w->n; i++) {
         if (!w->open[i] || w->sp[i].file != ps.file)
            continue;
         uint32_t hit = 0;
         for (unsigned r = 0; r < w->sp[i].count; r++) {
            unsigned reg = w->sp[i].first + r;
            if (ps.any || w->sp[i].any || (reg >= ps.first && reg < ps.first + ps.count))
               hit |= 1u << r;
         }
         if (!(hit & w->open[i]))
            continue;
         struct isa_delay dl = isa_delay(wk->z->m, p, ISA_SLOT_DST(d), wk->c, w->cslot[i]);
         dl.distance = fault_distance(wk, p, &ps, w->cslot[i], dl.distance);
         if (dl.sync == ISA_SYNC_NONE && dl.distance - (int)elapsed > wk->need)
            wk->need = dl.distance - (int)elapsed;
         if (!ps.any)
            w->open[i] &= ~hit;
      }
   }
}

static bool
any_open(const struct wants *w)
{
   for (unsigned i = 0; i < w->n; i++)
      if (w->open[i])
         return true;
   return false;
}

/* Walks back over slots [start, end) of a block, then into its
 * predecessors; `elapsed` counts the issue slots (and nops) between the
 * position and the consumer. */
/* Whether the walk was at the end of block with w open, elapsed back,
 * already (joins and loops reach blocks by many paths); notes it. */
static bool
seen_before(struct walk *wk, const struct wants *w, unsigned block, unsigned elapsed)
{
   struct wseen p = {block, elapsed, {0}};
   memcpy(p.open, w->open, sizeof(p.open));
   for (unsigned i = 0; i < wk->nseen; i++)
      if (wk->seen[i].block == block && wk->seen[i].elapsed == elapsed &&
          !memcmp(wk->seen[i].open, p.open, sizeof(p.open)))
         return true;
   VEC_PUSH(wk->seen, wk->nseen, wk->seen_cap, p);
   return false;
}

static void
walk_back(struct walk *wk, struct wants w, unsigned block, unsigned end, unsigned elapsed)
{
   const struct hz *z = wk->z;
   unsigned start = z->lo.block_start[block];
   if (end == z->lo.block_end[block] && seen_before(wk, &w, block, elapsed))
      return;
   for (unsigned j = end; j-- > start;) {
      if (j + 1 < end)
         elapsed += cycles(z, j + 1) + z->pad[j + 1];
      if (elapsed >= HZ_WINDOW || ++wk->steps > HZ_MAXSTEPS)
         return;
      visit(wk, &w, j, elapsed);
      if (!any_open(&w))
         return;
   }
   if (end > start)
      elapsed += cycles(z, start) + z->pad[start];
   /* the divergence predecessors first: the CFG's can take every step */
   for (unsigned e = 0; e < z->nalso; e++)
      if (z->also[e].to == block) {
         unsigned pb = z->also[e].from;
         walk_back(wk, w, pb, z->lo.block_end[pb], elapsed);
      }
   const struct ir_block *b = z->sh->blocks[block];
   for (unsigned k = 0; k < b->npreds; k++) {
      unsigned pb = b->preds[k]->index;
      walk_back(wk, w, pb, z->lo.block_end[pb], elapsed);
   }
}

/* The nops slot i needs in front of it, with the delay faults `faults`. */
static unsigned
walk_nops(const struct hz *z, unsigned i, uint64_t faults)
{
   const struct isa_insn *c = &z->lo.v[i].insn;
   struct walk wk = {z, c, 0, 0, faults, NULL, 0, 0};
   struct wants w = {{0}, {{0}}, {0}, 0};
   for (unsigned s = 0; s < c->nsrc; s++) {
      if (!span_of(z, c, ISA_SLOT_SRC(s), &w.sp[w.n]))
         continue;
      w.cslot[w.n] = ISA_SLOT_SRC(s);
      w.open[w.n] = w.sp[w.n].count >= 32 ? ~0u : (1u << w.sp[w.n].count) - 1;
      w.n++;
   }
   if (!w.n)
      return 0;
   walk_back(&wk, w, z->lo.v[i].block->index, i, 0);
   free(wk.seen);
   return wk.need > 0 ? (unsigned)wk.need : 0;
}

/* The nops slot i needs; a delay fault fires where it makes them fewer. */
static unsigned
nops_needed(const struct hz *z, unsigned i)
{
   static const enum opt_fault delay_faults[] = {OPT_FAULT_READ_EARLY, OPT_FAULT_SEL_SRC3,
                                                 OPT_FAULT_ADDR_DELAY, OPT_FAULT_DELAY_SHORT};
   unsigned need = walk_nops(z, i, 0);
   uint64_t on = 0;
   for (unsigned k = 0; k < ARRAY_SIZE(delay_faults); k++) {
      enum opt_fault f = delay_faults[k];
      unsigned n = opt_fault(z->ctx, f) ? walk_nops(z, i, on | 1ull << f) : need;
      if (n < need && opt_fault_fires(z->ctx, f, "%u nops, not %u, before " SLOT_FMT, n, need,
                                      SLOT_ARGS(&z->lo, i))) {
         need = n;
         on |= 1ull << f;
      }
   }
   return need;
}

/* ------------------------------------------------------------------ */
/* Changing the IR                                                      */

static struct ir_instr *
new_nop(struct hz *z)
{
   return ir_mach_create(z->sh, (unsigned)z->nop_op);
}

/* Puts instruction x in front of slot i. */
static void
insert_before_slot(struct hz *z, unsigned i, struct ir_instr *x)
{
   struct opt_slot *s = &z->lo.v[i];
   x->line = s->in ? s->in->line : 0;
   if (s->in)
      ir_insert_before(s->in, x);
   else
      ir_block_append(s->block, x);
}

/* Can slot i's instruction carry modifier mod = v (as encoded)? */
static bool
can_carry(const struct hz *z, const struct isa_insn *rec, int mod, int v)
{
   if (mod < 0)
      return false;
   struct isa_insn t = *rec;
   t.mod[mod] = (int16_t)v;
   return opt_check_insn(z->ctx, z->m, &t) == ISA_ERR_OK;
}

static void
apply_flags(struct hz *z)
{
   for (unsigned i = 0; i < z->lo.n; i++) {
      unsigned f = z->flags[i];
      if (!f)
         continue;
      struct opt_slot *s = &z->lo.v[i];
      bool real = s->in && s->in->op == IR_OP_MACH;
      int mods[2] = {f & HZ_SS ? z->mod_ss : -1, f & HZ_SY ? z->mod_sy : -1};
      bool carry = real;
      for (unsigned k = 0; k < 2 && carry; k++)
         carry = mods[k] < 0 || can_carry(z, &s->insn, mods[k], 1);
      struct ir_instr *x = carry ? s->in : new_nop(z);
      for (unsigned k = 0; k < 2; k++)
         if (mods[k] >= 0)
            x->mach->insn.mod[mods[k]] = 1;
      if (!carry)
         insert_before_slot(z, i, x);
   }
}

/* n nops in front of slot i: first as (nopN) of the instruction before it
 * in the same block, the rest as (rptN)nop. */
static void
apply_pad(struct hz *z, unsigned i, unsigned n, bool full)
{
   struct opt_slot *s = &z->lo.v[i];
   if (i > 0 && z->lo.v[i - 1].block == s->block && !z->lo.v[i - 1].implied && z->mod_nop >= 0 &&
       !full) {
      struct opt_slot *p = &z->lo.v[i - 1];
      int cur = p->insn.mod[z->mod_nop];
      unsigned room = z->max_nopn > cur ? (unsigned)(z->max_nopn - cur) : 0;
      unsigned want = MIN2(room, n), k = want;
      while (k && !can_carry(z, &p->insn, z->mod_nop, cur + (int)k))
         k--;
      bool unencodable = k < want && opt_fault_fires(z->ctx, OPT_FAULT_NOP_FOLD,
                                                     "fold %u nops into %%%u, which can take %u",
                                                     want, p->in->id, k);
      if (unencodable)
         k = want;
      if (k && (unencodable || opt_transform(z->ctx, "fold %u nops into %%%u", k, p->in->id))) {
         p->in->mach->insn.mod[z->mod_nop] = (int16_t)(cur + (int)k);
         n -= k;
         if (s->in) /* the slot's wait now sits on another instruction: say which */
            opt_cons_note(z->ctx, OPT_STAGE_HAZARD,
                          "%%%u: the %u nop%s before %%%u folded into %%%u", s->in->id, k,
                          k == 1 ? "" : "s", s->in->id, p->in->id);
      }
   }
   while (n) {
      struct ir_instr *x = new_nop(z);
      unsigned k = MIN2(n, (unsigned)z->max_nop_rpt + 1);
      if (z->mod_rpt >= 0 && k > 1)
         x->mach->insn.mod[z->mod_rpt] = (int16_t)(k - 1);
      else
         k = 1;
      insert_before_slot(z, i, x);
      n -= k;
   }
}

/* ------------------------------------------------------------------ */
/* Stall counts and scoreboards                                         */

#define CW_MAX_SB 8
#define CW_GUARDS 64 /* guard modifier values whose names are kept read */
enum { GUARD_NONE = 1, GUARD_POS, GUARD_NEG };

/* Units whose per-unit state is set; the scans that reset or drain look
 * only at these, not at every unit of every file. */
struct unit_list {
   unsigned *v;
   unsigned n, cap;
};

struct cw {
   const struct isa_model *m;
   const struct ir_shader *sh; /* for its faults */
   const struct opt_layout *lo;
   struct opt_control *out;
   int64_t *t;      /* issue cycle of each slot */
   int gpr, pred;   /* files */
   unsigned stride; /* units per file */
   unsigned nfiles;
   int *fixed;    /* by file: its fixed register (RZ), -1 */
   int guard_mod; /* the guard predicate's modifier, -1 */
   /* by guard modifier value below CW_GUARDS: its name read once (0 not
    * yet, GUARD_NONE, GUARD_POS or GUARD_NEG) and its predicate register */
   unsigned char guard_kind[CW_GUARDS];
   unsigned guard_reg[CW_GUARDS];
   int *writer;                      /* by unit: slot of the last write in the block, -1 */
   int *wsb;                         /* by unit: scoreboard its pending variable write holds, -1 */
   int *rsb;                         /* by unit: scoreboard of a pending late read of it, -1 */
   struct unit_list touched;         /* units given a writer or an rsb since the reset */
   struct unit_list held[CW_MAX_SB]; /* units that took each scoreboard (some since retaken) */
   int sb_owner[CW_MAX_SB];
   int64_t sb_set[CW_MAX_SB];
   unsigned nsb, max_stall, min_stall, bar_min, war_latency, pred_latency, flow_stall;
   int alu_latency; /* the copy op's class: what a fixed-latency result takes */
   unsigned cur;    /* the slot requirements() looks at (fault firings name it) */
};

static unsigned
unit_of(const struct cw *c, unsigned file, unsigned index)
{
   return file * c->stride + index;
}

/* The units operand `slot` of record x covers (none for immediates,
 * constants and fixed registers). */
static unsigned
units(const struct cw *c, const struct isa_insn *x, const struct ir_instr *in, int slot,
      unsigned *u, unsigned max)
{
   const struct isa_opnd *o = slot < ISA_MAX_DST ? &x->dst[slot] : &x->src[slot - ISA_MAX_DST];
   if (o->kind != ISA_OPND_REG || o->file >= c->nfiles)
      return 0;
   unsigned n = MIN2(opt_opnd_count(c->m, x, in, slot), max), k = 0;
   for (unsigned i = 0; i < n; i++)
      if ((int)(o->index + i) != c->fixed[o->file] && o->index + i < c->stride)
         u[k++] = unit_of(c, o->file, o->index + i);
   return k;
}

/* What guard modifier value v names: GUARD_NONE (PT), or a predicate
 * register *reg read as it is (GUARD_POS) or negated (GUARD_NEG). */
static unsigned char
guard_of(const struct cw *c, int v, unsigned *reg)
{
   const char *name = isa_mod_value_name(c->m, (unsigned)c->guard_mod, v);
   if (!name || (sscanf(name, "p%u", reg) != 1 && sscanf(name, "np%u", reg) != 1))
      return GUARD_NONE;
   return name[0] == 'n' ? GUARD_NEG : GUARD_POS;
}

/* The guard predicate a record reads, as a unit, or -1 (PT). */
static int
guard_unit(struct cw *c, const struct isa_insn *x)
{
   int gm = c->guard_mod;
   if (gm < 0 || c->pred < 0)
      return -1;
   int v = x->mod[gm];
   unsigned reg = 0;
   unsigned char kind;
   if (v >= 0 && v < CW_GUARDS) {
      if (!c->guard_kind[v])
         c->guard_kind[v] = guard_of(c, v, &c->guard_reg[v]);
      kind = c->guard_kind[v];
      reg = c->guard_reg[v];
   } else {
      kind = guard_of(c, v, &reg);
   }
   if (kind == GUARD_NONE)
      return -1;
   if (kind == GUARD_NEG &&
       opt_fault_fires_sh(c->sh, OPT_FAULT_NEG_GUARD_UNREAD, SLOT_FMT " @!P%u not read",
                          SLOT_ARGS(c->lo, c->cur), reg))
      return -1;
   return (int)unit_of(c, (unsigned)c->pred, reg);
}

static void
need_raw(struct cw *c, unsigned u, const struct isa_insn *x, int cslot, int64_t *need,
         unsigned *wait)
{
   int w = c->writer[u];
   if (w < 0)
      return;
   const struct opt_layout *lo = c->lo;
   if (c->wsb[u] >= 0) {
      if (!(*wait & (1u << c->wsb[u])) &&
          !opt_fault_fires_sh(c->sh, OPT_FAULT_MISSING_WAIT,
                              "no wait in " SLOT_FMT " for the scoreboard of " SLOT_FMT,
                              SLOT_ARGS(lo, c->cur), SLOT_ARGS(lo, w)))
         *wait |= 1u << c->wsb[u];
      return;
   }
   const struct isa_insn *p = &lo->v[w].insn;
   int64_t d = cslot < 0 ? (int64_t)c->pred_latency : 0;
   for (unsigned k = 0; cslot >= 0 && k < p->ndst; k++)
      d = MAX2(d, isa_delay(c->m, p, ISA_SLOT_DST(k), x, cslot).distance);
   if ((int)(u / c->stride) == c->pred && d > c->alu_latency &&
       opt_fault_fires_sh(c->sh, OPT_FAULT_PRED_LATENCY,
                          SLOT_FMT " reads the predicate of " SLOT_FMT " after the GPR latency",
                          SLOT_ARGS(lo, c->cur), SLOT_ARGS(lo, w)))
      d = c->alu_latency;
   if (p->sem == ISA_SEM_XMAD && d != c->alu_latency &&
       opt_fault_fires_sh(c->sh, OPT_FAULT_IMUL_FIXED, SLOT_FMT " (XMAD) as fixed latency",
                          SLOT_ARGS(lo, w)))
      d = c->alu_latency;
   if (cslot >= 0 && d > 0 && c->t[w] + d > *need &&
       opt_fault_fires_sh(c->sh, OPT_FAULT_STALL_SHORT,
                          "stall one cycle short between " SLOT_FMT " and " SLOT_FMT,
                          SLOT_ARGS(lo, w), SLOT_ARGS(lo, c->cur)))
      d--;
   *need = MAX2(*need, c->t[w] + d);
}

/* Whether writing unit u through x's destination d must wait on read
 * barrier r, the pending late read of u by the slot that set it:
 * isa_delay's WAR answer, asked about u itself on both sides (as the
 * RAW questions are). A barrier whose reader is not found waits. */
static bool
war_waits(const struct cw *c, unsigned u, const struct isa_insn *x, unsigned d, int r)
{
   int o = c->sb_owner[r];
   if (o < 0)
      return true;
   const struct isa_insn *rd = &c->lo->v[o].insn;
   unsigned us[16];
   for (unsigned s = 0; s < rd->nsrc; s++) {
      unsigned n = units(c, rd, c->lo->v[o].in, ISA_SLOT_SRC(s), us, 16);
      for (unsigned k = 0; k < n; k++) {
         if (us[k] != u)
            continue;
         struct isa_insn rs = *rd, xs = *x;
         rs.src[s].index = xs.dst[d].index = (uint16_t)(u % c->stride);
         if (isa_delay(c->m, &rs, ISA_SLOT_SRC(s), &xs, ISA_SLOT_DST(d)).sync != ISA_SYNC_NONE)
            return true;
      }
   }
   return false;
}

/* What slot i must wait for, and from when it may issue. */
static void
requirements(struct cw *c, unsigned i, int64_t now, int64_t *need, unsigned *wait)
{
   const struct isa_insn *x = &c->lo->v[i].insn;
   unsigned u[16];
   c->cur = i;
   struct isa_insn xs = *x; /* isa_delay asks about the register itself: a
                             * unit past the model's count (opt_opnd_count) */
   for (unsigned s = 0; s < x->nsrc; s++) {
      unsigned n = units(c, x, c->lo->v[i].in, ISA_SLOT_SRC(s), u, 16);
      for (unsigned k = 0; k < n; k++) {
         xs.src[s].index = (uint16_t)(u[k] % c->stride);
         need_raw(c, u[k], &xs, ISA_SLOT_SRC(s), need, wait);
      }
      xs.src[s].index = x->src[s].index; /* one copy, each source as it was */
   }
   int g = guard_unit(c, x);
   if (g >= 0)
      need_raw(c, (unsigned)g, x, -1, need, wait);
   for (unsigned d = 0; d < x->ndst; d++) {
      unsigned n = units(c, x, c->lo->v[i].in, ISA_SLOT_DST(d), u, 16);
      for (unsigned k = 0; k < n; k++) {
         need_raw(c, u[k], x, ISA_SLOT_DST(d), need, wait); /* WAW */
         int r = c->rsb[u[k]];
         if (r >= 0 && now - c->sb_set[r] < (int64_t)c->war_latency && war_waits(c, u[k], x, d, r))
            *wait |= 1u << r; /* WAR: a late read of this register is pending */
      }
   }
   struct isa_class_info ci;
   isa_class_info(c->m, x->cls, &ci);
   bool last = i + 1 == c->lo->block_end[c->lo->v[i].block->index];
   if (ci.flow && last) { /* drain: every result ready, every scoreboard waited */
      unsigned set = 0;
      for (unsigned k = 0; k < c->nsb; k++)
         if (c->sb_owner[k] >= 0)
            set |= 1u << k;
      if ((set & ~*wait) == 0 ||
          !opt_fault_fires_sh(c->sh, OPT_FAULT_BRANCH_DRAIN,
                              SLOT_FMT " ends its block with scoreboards still set",
                              SLOT_ARGS(c->lo, i)))
         *wait |= set;
      for (unsigned k = 0; k < c->touched.n; k++) {
         unsigned un = c->touched.v[k];
         if (c->writer[un] >= 0 && c->wsb[un] < 0) {
            const struct isa_insn *p = &c->lo->v[c->writer[un]].insn;
            struct isa_class_info pc;
            isa_class_info(c->m, p->cls, &pc);
            *need = MAX2(*need, c->t[c->writer[un]] + MAX2(pc.latency, 0));
         }
      }
   }
   int64_t bar = INT64_MIN;
   for (unsigned k = 0; k < c->nsb; k++)
      if (*wait & (1u << k))
         bar = MAX2(bar, c->sb_set[k] + (int64_t)c->bar_min);
   if (bar > *need && !opt_fault_fires_sh(c->sh, OPT_FAULT_BAR_EARLY,
                                          SLOT_FMT " waits too soon after its barrier is set",
                                          SLOT_ARGS(c->lo, i)))
      *need = bar;
}

/* Frees the scoreboards waited for. Only the units that took one can
 * still hold it; a unit rewritten since holds another or none. */
static void
release(struct cw *c, unsigned wait)
{
   for (unsigned k = 0; k < c->nsb; k++) {
      if (!(wait & (1u << k)))
         continue;
      c->sb_owner[k] = -1;
      for (unsigned h = 0; h < c->held[k].n; h++) {
         unsigned un = c->held[k].v[h];
         if (c->wsb[un] == (int)k)
            c->wsb[un] = -1;
         if (c->rsb[un] == (int)k)
            c->rsb[un] = -1;
      }
      c->held[k].n = 0;
   }
}

/* Unit un gets a writer (var: on scoreboard sb) or a late read on sb. */
static void
mark_unit(struct cw *c, unsigned un, int sb)
{
   if (c->writer[un] < 0 && c->rsb[un] < 0)
      VEC_PUSH(c->touched.v, c->touched.n, c->touched.cap, un);
   if (sb >= 0)
      VEC_PUSH(c->held[sb].v, c->held[sb].n, c->held[sb].cap, un);
}

/* Everything before is drained: no unit has a writer or a scoreboard. */
static void
reset_units(struct cw *c)
{
   for (unsigned k = 0; k < c->touched.n; k++) {
      unsigned un = c->touched.v[k];
      c->writer[un] = c->wsb[un] = c->rsb[un] = -1;
   }
   c->touched.n = 0;
   for (unsigned k = 0; k < CW_MAX_SB; k++) {
      c->held[k].n = 0;
      c->sb_owner[k] = -1, c->sb_set[k] = INT64_MIN / 2;
   }
}

/* A free scoreboard; when all are taken, the oldest, which slot i then
 * waits for first. */
static int
take_sb(struct cw *c, unsigned i, unsigned *wait)
{
   int best = -1;
   for (unsigned k = 0; k < c->nsb && best < 0; k++)
      if (c->sb_owner[k] < 0)
         best = (int)k;
   if (best < 0) {
      best = 0;
      for (unsigned k = 1; k < c->nsb; k++)
         if (c->sb_set[k] < c->sb_set[best])
            best = (int)k;
      *wait |= 1u << best;
   }
   c->sb_owner[best] = (int)i;
   return best;
}

/* Whether slot i waits in full (conservative.c): every scoreboard, the
 * longest stall before and after it, its own barriers set. Nops are no
 * items (their ids depend on the nops before them). */
static bool
cw_full_wait(const struct cw *c, unsigned i)
{
   const struct opt_slot *s = &c->lo->v[i];
   if (!c->sh->fault_ctx || !opt_stage_conservative(c->sh->fault_ctx, OPT_STAGE_HAZARD) ||
       (s->in && s->in->op == IR_OP_MACH && s->in->mach->insn.sem == ISA_SEM_NOP))
      return false;
   return opt_conservative_sh(c->sh, OPT_STAGE_HAZARD, s->in ? s->in->line : 0, SLOT_FMT,
                              SLOT_ARGS(c->lo, i));
}

/* The slots of one block. fresh: everything before is drained (the
 * previous block ended in a flow instruction); otherwise the block
 * continues the one before it in the layout (a predicated break's block
 * follows its if's block with no branch between). */
static void
block_controls(struct cw *c, unsigned start, unsigned end, bool fresh, int64_t *clock)
{
   if (fresh)
      reset_units(c);
   int64_t now = fresh ? 0 : *clock;
   for (unsigned i = start; i < end; i++) {
      const struct isa_insn *x = &c->lo->v[i].insn;
      struct isa_class_info ci;
      isa_class_info(c->m, x->cls, &ci);
      int64_t need = now;
      unsigned wait = 0;
      requirements(c, i, now, &need, &wait);
      bool var = ci.sync == ISA_SYNC_SCOREBOARD && x->ndst;
      bool late = ci.war_sync == ISA_SYNC_SCOREBOARD && x->nsrc;
      bool full = cw_full_wait(c, i);
      if (full) { /* everything before it done, its own scoreboards set */
         wait = (1u << c->nsb) - 1;
         if (i > 0)
            need = MAX2(need, c->t[i - 1] + (int64_t)c->max_stall);
      } else if (x->sem == ISA_SEM_XMAD && (var || late) &&
                 opt_fault_fires_sh(c->sh, OPT_FAULT_IMUL_FIXED,
                                    SLOT_FMT " (XMAD) as fixed latency", SLOT_ARGS(c->lo, i)))
         var = late = false; /* as a fixed-latency ALU op */
      if (late && !full &&
          opt_fault_fires_sh(c->sh, OPT_FAULT_NO_READ_BAR,
                             "no read barrier on the sources of " SLOT_FMT, SLOT_ARGS(c->lo, i)))
         late = false;
      unsigned pre = wait;
      int sb = var || late ? take_sb(c, i, &wait) : -1;
      if (wait != pre) /* an evicted scoreboard: bar_min again */
         requirements(c, i, now, &need, &wait);
      if (need > now && (i > start || !fresh)) {
         int64_t add = need - now;
         c->out[i - 1].stall += (unsigned)add;
         if (c->out[i - 1].stall > c->max_stall) {
            c->out[i].nops_before +=
                (c->out[i - 1].stall - c->max_stall + c->max_stall - 1) / c->max_stall;
            c->out[i - 1].stall = c->max_stall;
         }
         now = need;
      }
      c->t[i] = now;
      release(c, wait);
      if (sb >= 0)
         c->sb_owner[sb] = (int)i; /* an evicted scoreboard was released just now */
      c->out[i].wait = wait;
      unsigned u[16];
      for (unsigned d = 0; d < x->ndst; d++) {
         unsigned n = units(c, x, c->lo->v[i].in, ISA_SLOT_DST(d), u, 16);
         for (unsigned k = 0; k < n; k++) {
            mark_unit(c, u[k], var ? sb : -1);
            c->writer[u[k]] = (int)i;
            c->wsb[u[k]] = var ? sb : -1;
         }
      }
      for (unsigned s = 0; late && s < x->nsrc; s++) {
         unsigned n = units(c, x, c->lo->v[i].in, ISA_SLOT_SRC(s), u, 16);
         for (unsigned k = 0; k < n; k++) {
            mark_unit(c, u[k], sb);
            c->rsb[u[k]] = sb;
         }
      }
      if (sb >= 0)
         c->sb_set[sb] = now;
      c->out[i].wr_bar = var ? sb : -1;
      c->out[i].rd_bar = late ? sb : -1;
      bool flow = ci.flow && !full &&
                  (c->flow_stall <= 1 ||
                   !opt_fault_fires_sh(c->sh, OPT_FAULT_FLOW_STALL,
                                       "flow op " SLOT_FMT " stalls 1 cycle", SLOT_ARGS(c->lo, i)));
      c->out[i].stall = full ? c->max_stall : MAX2(c->min_stall, flow ? c->flow_stall : 1);
      now += c->out[i].stall;
   }
   *clock = now;
}

/* The model's files and hazard parameters; per-unit state all clear. */
static void
cw_init(struct cw *c, const struct isa_model *m)
{
   c->nfiles = isa_file_count(m);
   c->fixed = xmalloc((c->nfiles + 1) * sizeof(int));
   for (unsigned f = 0; f < c->nfiles; f++) {
      struct isa_file_info fi;
      isa_file_info(m, f, &fi);
      c->stride = MAX2(c->stride, fi.count);
      c->fixed[f] = fi.fixed;
      if (fi.kind == ISA_FILE_FULL && c->gpr < 0)
         c->gpr = (int)f;
      if (fi.kind == ISA_FILE_PREDICATE && c->pred < 0)
         c->pred = (int)f;
   }
   c->guard_mod = isa_mod_by_role(m, ISA_ROLE_GUARD);
   c->nsb = MIN2((unsigned)isa_hazard_param(m, "scoreboards", 6), (unsigned)CW_MAX_SB);
   c->max_stall = (unsigned)isa_hazard_param(m, "max_stall", 15);
   c->min_stall = (unsigned)isa_hazard_param(m, "min_stall", 1);
   c->bar_min = (unsigned)isa_hazard_param(m, "bar_min", 2);
   c->war_latency = (unsigned)isa_hazard_param(m, "war_latency", 1 << 20);
   c->pred_latency = (unsigned)isa_hazard_param(m, "pred_latency", 13);
   c->flow_stall = (unsigned)isa_hazard_param(m, "flow_stall", 1);
   struct isa_op_info copy;
   struct isa_class_info copy_cls;
   isa_op_info(m, opt_copy_op(m), &copy);
   isa_class_info(m, copy.cls, &copy_cls);
   c->alu_latency = MAX2(copy_cls.latency, 1);
   size_t nu = (size_t)c->stride * c->nfiles + 1;
   c->writer = xmalloc(nu * sizeof(int));
   c->wsb = xmalloc(nu * sizeof(int));
   c->rsb = xmalloc(nu * sizeof(int));
   memset(c->writer, 0xff, nu * sizeof(int)); /* -1: the resets clear only what was set */
   memset(c->wsb, 0xff, nu * sizeof(int));
   memset(c->rsb, 0xff, nu * sizeof(int));
}

static void
cw_free(struct cw *c)
{
   free(c->t);
   free(c->fixed);
   free(c->writer);
   free(c->wsb);
   free(c->rsb);
   free(c->touched.v);
   for (unsigned k = 0; k < CW_MAX_SB; k++)
      free(c->held[k].v);
}

/* The control fields of every slot of the layout (stall-count models). */
void
opt_control_words(const struct isa_model *m, const struct opt_layout *lo,
                  const struct ir_shader *sh, struct opt_control *out)
{
   struct cw c = {.m = m, .sh = sh, .lo = lo, .out = out, .gpr = -1, .pred = -1};
   memset(out, 0, (lo->n + 1) * sizeof(*out));
   cw_init(&c, m);
   c.t = xcalloc(lo->n + 1, sizeof(int64_t));
   bool fresh = true;
   int64_t clock = 0;
   /* In layout order, which is not always block order: a predicated
    * break's arm comes before the other arm of its if (opt_emit). */
   for (unsigned i = 0, end; i < lo->n; i = end) {
      unsigned b = lo->v[i].block->index;
      end = lo->block_start[b] == i && lo->block_end[b] > i ? lo->block_end[b] : i + 1;
      block_controls(&c, i, end, fresh, &clock);
      struct isa_class_info ci;
      isa_class_info(m, lo->v[end - 1].insn.cls, &ci);
      fresh = ci.flow;
   }
   cw_free(&c);
}

/* The value of scoreboard sb (-1: none) in control field mod, or -1. */
static int
bar_value(const struct isa_model *m, int mod, int sb)
{
   if (sb < 0)
      return isa_mod_value(m, (unsigned)mod, "none");
   char name[16];
   snprintf(name, sizeof(name), "sb%d", sb);
   return isa_mod_value(m, (unsigned)mod, name);
}

void
opt_control_fields(const struct isa_model *m, struct opt_control_fields *cf)
{
   cf->m = m;
   cf->stall = isa_mod_by_role(m, ISA_ROLE_STALL);
   cf->wait = isa_mod_by_role(m, ISA_ROLE_WAIT_MASK);
   cf->wr = isa_mod_by_role(m, ISA_ROLE_WR_BAR);
   cf->rd = isa_mod_by_role(m, ISA_ROLE_RD_BAR);
   for (int k = 0; k < OPT_CONTROL_BARS + 1; k++) {
      cf->wr_val[k] = cf->wr >= 0 ? bar_value(m, cf->wr, k - 1) : -1;
      cf->rd_val[k] = cf->rd >= 0 ? bar_value(m, cf->rd, k - 1) : -1;
   }
}

/* A scoreboard's value from the table, or looked up past its end. */
static int
bar_of(const struct opt_control_fields *cf, const int *val, int mod, int sb)
{
   if (sb < 0)
      return val[0];
   return sb < OPT_CONTROL_BARS ? val[sb + 1] : bar_value(cf->m, mod, sb);
}

/* Writes control fields into a record. */
void
opt_apply_control(const struct opt_control_fields *cf, const struct opt_control *ctl,
                  struct isa_insn *x)
{
   if (cf->stall >= 0)
      x->mod[cf->stall] = (int16_t)ctl->stall;
   if (cf->wait >= 0)
      x->mod[cf->wait] = (int16_t)ctl->wait;
   if (cf->wr >= 0) {
      int v = bar_of(cf, cf->wr_val, cf->wr, ctl->wr_bar);
      if (v >= 0)
         x->mod[cf->wr] = (int16_t)v;
   }
   if (cf->rd >= 0) {
      int v = bar_of(cf, cf->rd_val, cf->rd, ctl->rd_bar);
      if (v >= 0)
         x->mod[cf->rd] = (int16_t)v;
   }
}

static void
stall_counts(struct hz *z)
{
   for (int round = 0; round < 4; round++) {
      opt_layout_build(z->sh, &z->lo);
      struct opt_control *ctl = xcalloc(z->lo.n + 1, sizeof(*ctl));
      opt_control_words(z->m, &z->lo, z->sh, ctl);
      bool nops = false;
      for (unsigned i = 0; i < z->lo.n; i++) {
         nops |= ctl[i].nops_before > 0;
         for (unsigned k = 0; k < ctl[i].nops_before; k++) {
            struct ir_instr *x = new_nop(z);
            insert_before_slot(z, i, x);
         }
      }
      struct opt_control_fields cf;
      opt_control_fields(z->m, &cf);
      if (!nops)
         for (unsigned i = 0; i < z->lo.n; i++)
            if (z->lo.v[i].in && z->lo.v[i].in->op == IR_OP_MACH)
               opt_apply_control(&cf, &ctl[i], &z->lo.v[i].in->mach->insn);
      if (!nops && z->ctx) { /* the final layout's words, for emit */
         free(z->ctx->controls);
         z->ctx->controls = ctl;
         z->ctx->ncontrols = z->lo.n;
         ctl = NULL;
      }
      free(ctl);
      opt_layout_free(&z->lo);
      z->sh->cfg_valid = false;
      ir_compute_cfg(z->sh);
      if (!nops)
         return;
   }
}

/* ------------------------------------------------------------------ */
/* The pass                                                             */

static bool
list_empty(const struct ir_list *l)
{
   return l->n == 1 && l->v[0]->kind == IR_NODE_BLOCK && !l->v[0]->block->first;
}

static void
add_also(struct hz *z, const struct ir_block *to, const struct ir_block *from)
{
   struct hz_edge e = {to->index, from->index};
   VEC_PUSH(z->also, z->nalso, z->also_cap, e);
}

struct hz_loop {
   const struct ir_block **breaks, **joins;
   unsigned nbreaks, njoins, bcap, jcap;
};

static void divergence_list(struct hz *z, const struct ir_list *l, struct hz_loop *lp);

/* A loop: each join of its body can follow each earlier break. */
static void
divergence_loop(struct hz *z, const struct ir_node *n)
{
   struct hz_loop lp = {0};
   divergence_list(z, &n->body, &lp);
   for (unsigned j = 0; j < lp.njoins; j++)
      for (unsigned b = 0; b < lp.nbreaks; b++)
         if (lp.breaks[b]->index < lp.joins[j]->index)
            add_also(z, lp.joins[j], lp.breaks[b]);
   free(lp.breaks);
   free(lp.joins);
}

/* The else part of a divergent if runs after its then part; lp gathers
 * the breaks and joins of the innermost loop. */
static void
divergence_list(struct hz *z, const struct ir_list *l, struct hz_loop *lp)
{
   for (unsigned i = 0; i < l->n; i++) {
      const struct ir_node *n = l->v[i];
      if (n->kind == IR_NODE_LOOP) {
         divergence_loop(z, n);
         continue;
      }
      if (n->kind == IR_NODE_BLOCK) {
         if (lp && n->block->last && n->block->last->op == IR_OP_BREAK)
            VEC_PUSH(lp->breaks, lp->nbreaks, lp->bcap, n->block);
         continue;
      }
      const struct ir_block *els = ir_list_first_block(&n->else_list);
      if (!list_empty(&n->else_list))
         add_also(z, els, ir_list_last_block(&n->then_list));
      if (lp) {
         VEC_PUSH(lp->joins, lp->njoins, lp->jcap, els);
         VEC_PUSH(lp->joins, lp->njoins, lp->jcap, l->v[i + 1]->block);
      }
      divergence_list(z, &n->then_list, lp);
      divergence_list(z, &n->else_list, lp);
   }
}

static void
divergence_edges(struct hz *z)
{
   z->nalso = 0;
   divergence_list(z, &z->sh->body, NULL);
}

/* ------------------------------------------------------------------ */
/* The conservative variant (conservative.c): a full wait               */

/* Whether slot i waits in full: an item of the conservative stage (the
 * instructions hazard insertion itself adds are none). */
static bool
full_wait(const struct hz *z, unsigned i)
{
   const struct opt_slot *s = &z->lo.v[i];
   if (!opt_stage_conservative(z->ctx, OPT_STAGE_HAZARD) || (s->in && s->in->id >= z->first_new))
      return false;
   return opt_conservative(z->ctx, OPT_STAGE_HAZARD, s->in ? s->in->line : 0, SLOT_FMT,
                           SLOT_ARGS(&z->lo, i));
}

/* The longest delay any pair can need: the longest fixed latency, the
 * longest early read and the size-mismatch penalty, or an address write. */
static unsigned
longest_delay(const struct isa_model *m)
{
   int lat = 0, early = 0;
   for (unsigned c = 0; c < isa_class_count(m); c++) {
      struct isa_class_info ci;
      isa_class_info(m, c, &ci);
      lat = MAX2(lat, ci.latency);
      early = MAX2(early, ci.read_early);
   }
   int d = lat + early + isa_hazard_param(m, "size_mismatch", 0);
   return (unsigned)MAX2(d, isa_hazard_param(m, "addr_write", 0));
}

static void
delay_slots(struct hz *z)
{
   opt_layout_build(z->sh, &z->lo);
   z->flags = xcalloc(z->lo.n + 1, sizeof(uint8_t));
   sync_flags(z);
   for (unsigned i = 0; i < z->lo.n; i++)
      if (full_wait(z, i))
         z->flags[i] = (z->mod_ss >= 0 ? HZ_SS : 0) | (z->mod_sy >= 0 ? HZ_SY : 0);
   apply_flags(z);
   free(z->flags);
   opt_layout_free(&z->lo);
   z->sh->cfg_valid = false;
   ir_compute_cfg(z->sh);
   divergence_edges(z);

   opt_layout_build(z->sh, &z->lo);
   z->pad = xcalloc(z->lo.n + 1, sizeof(unsigned));
   unsigned longest = longest_delay(z->m);
   bool *full = xcalloc(z->lo.n + 1, sizeof(bool));
   for (unsigned i = 0; i < z->lo.n; i++) {
      full[i] = full_wait(z, i);
      z->pad[i] = full[i] ? longest : nops_needed(z, i);
   }
   for (unsigned i = 0; i < z->lo.n; i++)
      if (z->pad[i])
         apply_pad(z, i, z->pad[i], full[i]);
   free(full);
   free(z->pad);
   opt_layout_free(&z->lo);
}

bool
opt_hazard(struct ir_shader *sh, struct opt_ctx *ctx)
{
   if (!sh->model)
      return false;
   struct hz z = {.sh = sh, .ctx = ctx, .m = sh->model, .first_new = sh->nvalues};
   z.mod_ss = isa_mod_by_role(z.m, ISA_ROLE_SS);
   z.mod_sy = isa_mod_by_role(z.m, ISA_ROLE_SY);
   z.mod_nop = isa_mod_by_role(z.m, ISA_ROLE_NOPS);
   z.mod_rpt = isa_mod_by_role(z.m, ISA_ROLE_RPT);
   z.nop_op = opt_op_by_sem(z.m, ISA_SEM_NOP);
   z.addr_file = -1;
   for (unsigned f = 0; f < isa_file_count(z.m) && z.addr_file < 0; f++) {
      struct isa_file_info fi;
      isa_file_info(z.m, f, &fi);
      if (fi.kind == ISA_FILE_ADDRESS)
         z.addr_file = (int)f;
   }
   z.max_nop_rpt = isa_hazard_param(z.m, "max_nop_rpt", 0);
   z.max_nopn = isa_hazard_param(z.m, "max_nopn", 0);
   ir_compute_cfg(sh);
   divergence_edges(&z);
   if (isa_hazard_kind(z.m) == ISA_HAZARD_DELAY_SLOTS && z.nop_op >= 0) {
      delay_slots(&z);
   } else if (isa_hazard_kind(z.m) == ISA_HAZARD_STALL_COUNTS && z.nop_op >= 0) {
      stall_counts(&z);
   } else if (isa_hazard_kind(z.m) == ISA_HAZARD_WAIT_STATES) {
      opt_hazard_wait_states(sh, ctx);
   } else {
      ir_error(ctx->diags, sh, 0, "unsupported: hazard model %s of %s",
               isa_hazard_name(isa_hazard_kind(z.m)), isa_model_name(z.m));
      ctx->failed = true;
   }
   free(z.also);
   sh->cfg_valid = false;
   return true;
}
