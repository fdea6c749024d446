/*
 * Scratch registers placed by liveness (targets with place_scratch: agx,
 * whose 128 registers the fixed expansions overran). ref_tmp() hands out
 * virtual numbers from REF_VBASE up; after each TGSI instruction (and
 * once at the end, for the epilogue) ref_scratch_place() gives every
 * virtual register of the new items a physical one from the free part of
 * the file, [phys_next, ngpr): two virtual registers share one only where
 * their lives do not overlap.
 *
 * Lives come from a backward liveness pass over the new items, whose
 * successors are over-approximated (every item falls through, a branch
 * also goes to its label when that is among the new items; a label
 * elsewhere leaves the range, where no scratch value lives: ref.c resets
 * scratch between TGSI instructions). A full write kills; a write of a
 * half register reads the other half too. This is exact only because an
 * expansion runs at the execution mask its TGSI instruction started with
 * (agx's per-instruction loops move the whole wave; their tests write
 * nothing), so a write reaches every lane a later read of it runs on.
 *
 * Registers an operand reads or writes together (a texture's coordinates,
 * a 64-bit address pair) keep their order and distance: the run of tied
 * virtual registers is placed as one block, at the same offset modulo the
 * largest alignment an operand on it asks for.
 */
#include "compiler/ref/ref.h"

#include <limits.h>
#include <stdlib.h>

struct sp {
   struct ref_ctx *c;
   unsigned from, n;     /* items [from, from + n) */
   unsigned nv, words;   /* virtual registers [REF_VBASE, REF_VBASE + nv); bitset words */
   uint64_t *live;       /* by item: live-in, then live-out, each `words` long */
   uint64_t *occ;        /* by virtual: the items where it holds a value */
   unsigned iwords;      /* words of an item bitset */
   bool *tied;           /* by virtual: read or written together with the next */
   unsigned *align, *to; /* by virtual: alignment asked; physical register, or UINT_MAX */
   unsigned *first;      /* by virtual: the first item it holds a value at, or UINT_MAX */
   uint64_t *busy;       /* by physical register: the items it holds a placed value at */
};

static bool
bit(const uint64_t *s, unsigned i)
{
   return (s[i / 64] >> (i % 64)) & 1;
}

static void
set(uint64_t *s, unsigned i)
{
   s[i / 64] |= (uint64_t)1 << (i % 64);
}

/* The full registers operand `slot` of in touches: [*first, *first + *n);
 * *half for a half-register operand. */
static bool
span(const struct ref_ctx *c, const struct isa_insn *in, int slot, unsigned *first, unsigned *n,
     bool *half)
{
   const struct isa_opnd *o = slot < ISA_MAX_DST ? &in->dst[slot] : &in->src[slot - ISA_MAX_DST];
   if (o->kind != ISA_OPND_REG)
      return false;
   *half = c->half_file >= 0 && (int)o->file == c->half_file;
   if (*half) {
      *first = o->index / 2u;
      *n = 1;
      return true;
   }
   if ((int)o->file != c->gpr)
      return false;
   *first = o->index;
   *n = MAX2(isa_opnd_regs(c->m, in, slot), 1u);
   return true;
}

static unsigned
nslots(const struct isa_insn *in)
{
   return ISA_MAX_DST + in->nsrc;
}

static bool
slot_used(const struct isa_insn *in, unsigned s)
{
   return s < ISA_MAX_DST ? s < in->ndst : s - ISA_MAX_DST < in->nsrc;
}

/* Which virtual registers the new items name, which are tied, and the
 * alignment each block asks for. */
static void
scan(struct sp *p)
{
   struct ref_ctx *c = p->c;
   for (unsigned i = 0; i < p->n; i++) {
      const struct isa_insn *in = &c->items[p->from + i].in;
      for (unsigned s = 0; s < nslots(in); s++) {
         unsigned f, k;
         bool h;
         if (!slot_used(in, s) || !span(c, in, (int)s, &f, &k, &h) || f + k <= REF_VBASE)
            continue;
         p->nv = MAX2(p->nv, f + k - REF_VBASE);
      }
   }
   p->tied = xcalloc(p->nv + 1, sizeof(bool));
   p->align = xcalloc(p->nv + 1, sizeof(unsigned));
   for (unsigned i = 0; i < p->n; i++) {
      const struct isa_insn *in = &c->items[p->from + i].in;
      for (unsigned s = 0; s < nslots(in); s++) {
         unsigned f, k;
         bool h;
         if (!slot_used(in, s) || !span(c, in, (int)s, &f, &k, &h) || f < REF_VBASE)
            continue;
         for (unsigned j = 0; j + 1 < k; j++)
            p->tied[f - REF_VBASE + j] = true;
         unsigned a = isa_opnd_align(c->m, in, (int)s);
         p->align[f - REF_VBASE] = MAX2(p->align[f - REF_VBASE], a);
      }
   }
}

/* Uses and kills of item i, into use and def (bitsets over virtuals). */
static void
use_def(const struct sp *p, unsigned i, uint64_t *use, uint64_t *def)
{
   const struct isa_insn *in = &p->c->items[p->from + i].in;
   memset(use, 0, p->words * 8);
   memset(def, 0, p->words * 8);
   for (unsigned s = 0; s < nslots(in); s++) {
      unsigned f, k;
      bool h;
      if (!slot_used(in, s) || !span(p->c, in, (int)s, &f, &k, &h))
         continue;
      for (unsigned j = 0; j < k; j++) {
         if (f + j < REF_VBASE)
            continue;
         unsigned v = f + j - REF_VBASE;
         if (s >= ISA_MAX_DST || h) /* a half write keeps the other half */
            set(use, v);
         if (s < ISA_MAX_DST)
            set(def, v);
      }
   }
}

static unsigned
target_of(const struct sp *p, unsigned i)
{
   const struct ref_item *it = &p->c->items[p->from + i];
   if (it->label < 0 || (unsigned)it->label >= p->c->nlabels)
      return UINT_MAX;
   int at = p->c->labels[it->label];
   if (at < (int)p->from || at >= (int)(p->from + p->n))
      return UINT_MAX;
   return (unsigned)at - p->from;
}

/* Live-in and live-out of every item, to a fixed point; then each
 * virtual's occupancy: where it is live in or out, or written. */
static void
liveness(struct sp *p)
{
   unsigned w = p->words;
   p->live = xcalloc((size_t)p->n * 2 * w + 1, sizeof(uint64_t));
   uint64_t *use = xcalloc(2 * w + 1, sizeof(uint64_t)), *def = use + w;
   for (bool changed = true; changed;) {
      changed = false;
      for (unsigned i = p->n; i-- > 0;) {
         uint64_t *in = p->live + (size_t)i * 2 * w, *out = in + w;
         unsigned t = target_of(p, i);
         for (unsigned k = 0; k < w; k++) {
            uint64_t o = i + 1 < p->n ? p->live[(size_t)(i + 1) * 2 * w + k] : 0;
            if (t != UINT_MAX)
               o |= p->live[(size_t)t * 2 * w + k];
            out[k] = o;
         }
         use_def(p, i, use, def);
         for (unsigned k = 0; k < w; k++) {
            uint64_t v = use[k] | (out[k] & ~def[k]);
            changed |= v != in[k];
            in[k] = v;
         }
      }
   }
   p->iwords = (p->n + 63) / 64;
   p->occ = xcalloc((size_t)p->nv * p->iwords + 1, sizeof(uint64_t));
   p->first = xmalloc((p->nv + 1) * sizeof(unsigned));
   for (unsigned v = 0; v < p->nv; v++)
      p->first[v] = UINT_MAX;
   for (unsigned i = 0; i < p->n; i++) {
      const uint64_t *in = p->live + (size_t)i * 2 * w, *out = in + w;
      use_def(p, i, use, def);
      for (unsigned v = 0; v < p->nv; v++)
         if (bit(in, v) || bit(out, v) || bit(def, v)) {
            set(p->occ + (size_t)v * p->iwords, i);
            p->first[v] = MIN2(p->first[v], i);
         }
   }
   free(use);
}

/* Whether virtual v may take physical register r. */
static bool
fits(const struct sp *p, unsigned v, unsigned r)
{
   const uint64_t *x = p->occ + (size_t)v * p->iwords, *y = p->busy + (size_t)r * p->iwords;
   for (unsigned k = 0; k < p->iwords; k++)
      if (x[k] & y[k])
         return false;
   return true;
}

/* Whether no value of these items is placed on physical register r yet. */
static bool
untouched(const struct sp *p, unsigned r)
{
   for (unsigned k = 0; k < p->iwords; k++)
      if (p->busy[(size_t)r * p->iwords + k])
         return false;
   return true;
}

/* Places block [b, b + len): with `fresh`, on registers no other value
 * of these items took; else lowest register first where the lives allow;
 * false when the free part of the file has no room. */
static bool
place_block(struct sp *p, unsigned b, unsigned len, bool fresh)
{
   struct ref_ctx *c = p->c;
   unsigned a = 1;
   for (unsigned j = 0; j < len; j++)
      a = MAX2(a, p->align[b + j]);
   for (unsigned r = c->phys_next; r + len <= c->ngpr; r++) {
      if (r % a != (REF_VBASE + b) % a)
         continue;
      bool ok = true;
      for (unsigned j = 0; j < len && ok; j++)
         ok = fits(p, b + j, r + j) && (!fresh || untouched(p, r + j));
      if (!ok)
         continue;
      for (unsigned j = 0; j < len; j++) {
         p->to[b + j] = r + j;
         for (unsigned k = 0; k < p->iwords; k++)
            p->busy[(size_t)(r + j) * p->iwords + k] |= p->occ[(size_t)(b + j) * p->iwords + k];
      }
      return true;
   }
   return false;
}

static void
rename_items(struct sp *p)
{
   struct ref_ctx *c = p->c;
   for (unsigned i = 0; i < p->n; i++) {
      struct isa_insn *in = &c->items[p->from + i].in;
      for (unsigned s = 0; s < nslots(in); s++) {
         unsigned f, k;
         bool h;
         if (!slot_used(in, s) || !span(c, in, (int)s, &f, &k, &h) || f < REF_VBASE)
            continue;
         struct isa_opnd *o = s < ISA_MAX_DST ? &in->dst[s] : &in->src[s - ISA_MAX_DST];
         unsigned r = p->to[f - REF_VBASE];
         o->index = (uint16_t)(h ? 2 * r + (o->index & 1u) : r);
      }
   }
}

static void
place(struct sp *p)
{
   struct ref_ctx *c = p->c;
   p->words = (p->nv + 63) / 64;
   liveness(p);
   p->to = xmalloc((p->nv + 1) * sizeof(unsigned));
   p->busy = xcalloc((size_t)c->ngpr * p->iwords + 1, sizeof(uint64_t));
   /* blocks in the order they start living (a linear scan's order) */
   unsigned *order = xmalloc((p->nv + 1) * sizeof(unsigned)), nb = 0;
   for (unsigned v = 0; v < p->nv; v++)
      if (v == 0 || !p->tied[v - 1])
         order[nb++] = v;
   unsigned *start = xmalloc((p->nv + 1) * sizeof(unsigned));
   for (unsigned k = 0; k < nb; k++) {
      unsigned b = order[k], s = UINT_MAX;
      for (unsigned v = b; v < p->nv && (v == b || p->tied[v - 1]); v++)
         s = MIN2(s, p->first[v]);
      start[b] = s;
   }
   for (unsigned k = 1; k < nb; k++) /* insertion sort: stable, by start */
      for (unsigned j = k; j > 0 && start[order[j]] < start[order[j - 1]]; j--) {
         unsigned t = order[j];
         order[j] = order[j - 1];
         order[j - 1] = t;
      }
   /* each value on a register of its own (as the fixed expansion had
    * them: what opt's half pass moves) if the file has room, else packed
    * by their lives */
   bool ok = false;
   for (unsigned fresh = 2; fresh-- > 0 && !ok;) {
      for (unsigned v = 0; v < p->nv; v++)
         p->to[v] = UINT_MAX;
      memset(p->busy, 0, (size_t)c->ngpr * p->iwords * sizeof(uint64_t));
      ok = true;
      for (unsigned k = 0; k < nb && ok; k++) {
         unsigned b = order[k], len = 1;
         while (b + len < p->nv && p->tied[b + len - 1])
            len++;
         if (start[b] != UINT_MAX) /* else named nowhere in these items */
            ok = place_block(p, b, len, fresh);
      }
   }
   if (!ok && c->status == COMPILE_OK)
      c->regs_short = true;
   if (!ok)
      ref_unsupported(c,
                      "out of registers: the values live at once need more than the %u free "
                      "of %u",
                      c->ngpr - c->phys_next, c->ngpr);
   for (unsigned v = 0; v < p->nv && ok; v++)
      if (p->to[v] != UINT_MAX && p->to[v] + 1 > c->max_reg)
         c->max_reg = p->to[v] + 1;
   if (c->status == COMPILE_OK)
      rename_items(p);
   free(start);
   free(order);
}

void
ref_scratch_place(struct ref_ctx *c)
{
   if (!c->t || !c->t->place_scratch || c->placed >= c->nitems) {
      c->placed = MAX2(c->placed, c->nitems);
      return;
   }
   struct sp p = {.c = c, .from = c->placed, .n = c->nitems - c->placed};
   c->placed = c->nitems;
   if (c->status != COMPILE_OK)
      return;
   scan(&p);
   if (p.nv)
      place(&p);
   free(p.live);
   free(p.occ);
   free(p.tied);
   free(p.align);
   free(p.to);
   free(p.first);
   free(p.busy);
}
