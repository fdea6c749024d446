/*
 * A verifier for the agx machine passes (opt_agx.h), run after a pass
 * when the options ask for validation (opts.validate: the tests, the
 * fuzzers). It shares no code with the passes it checks: it reads the
 * item list, the model's classes and the operands, nothing else.
 *
 *   waits   (after "wait") A linear walk of each region: an asynchronous
 *           op (a class synchronized by a wait slot) leaves its
 *           destination registers pending on its slot until a `wait` on
 *           that slot. An instruction that reads or writes a pending
 *           register, a ninth message on a slot, and a flow op, barrier
 *           or region end reached with a slot pending are errors.
 *   places  (after "half") The pass renames registers in place: the same
 *           items, maybe their 16-bit forms. Translation validation by
 *           reaching definitions in 16-bit units: every source operand
 *           must be reached by the same defining items before and after
 *           (in its region, where a write kills; a read with no write
 *           before it in its region must read the same register), and
 *           for every unit read across regions, each region's last
 *           writer of it must be the same item before and after.
 *
 * A failure is a compile error naming the pass, the item and the
 * register: a wrong program is refused before it runs.
 */
#include "compiler/opt/opt_agx.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OUTSIDE 0x80000000u /* a reaching "definition" from before the region */

static bool DC_PRINTF(4, 5)
    fail(struct agx_prog *p, const char *pass, unsigned item, const char *fmt, ...)
{
   char what[160], text[128] = "";
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(what, sizeof(what), fmt, ap);
   va_end(ap);
   if (item < p->rc->nitems)
      isa_print_insn(p->m, &p->rc->items[item].in, text, sizeof(text));
   ref_error(p->rc, "agx verifier after pass %s: item %u (%s): %s", pass, item, text, what);
   return false;
}

/* The 16-bit units operand slot touches: [*u, *u + *n). */
static bool
units(const struct agx_prog *p, const struct isa_insn *in, int slot, unsigned *u, unsigned *n)
{
   const struct isa_opnd *o = slot < ISA_MAX_DST ? &in->dst[slot] : &in->src[slot - ISA_MAX_DST];
   if (o->kind != ISA_OPND_REG)
      return false;
   if ((int)o->file == p->rc->gpr) {
      unsigned c = isa_opnd_count(p->m, in, slot);
      *u = 2u * o->index;
      *n = 2u * (c ? c : 1u);
      return true;
   }
   if ((int)o->file == p->half_file) {
      *u = o->index;
      *n = 1;
      return true;
   }
   return false;
}

/* A flow op or a barrier: it ends its region. */
static bool
ends(const struct agx_prog *p, const struct isa_insn *in)
{
   struct isa_class_info ci;
   isa_class_info(p->m, in->cls, &ci);
   return ci.flow || in->sem == ISA_SEM_BARRIER;
}

/* By item: a region starts here (the first item, a branch target, the
 * item after a flow op or barrier). */
static bool *
starts(const struct agx_prog *p, const struct isa_insn *items)
{
   const struct ref_ctx *c = p->rc;
   bool *s = xcalloc(c->nitems + 1, sizeof(bool));
   s[0] = true;
   for (unsigned l = 0; l < c->nlabels; l++)
      if (c->labels[l] >= 0 && (unsigned)c->labels[l] <= c->nitems)
         s[c->labels[l]] = true;
   for (unsigned i = 0; i + 1 < c->nitems; i++)
      if (ends(p, &items[i]))
         s[i + 1] = true;
   return s;
}

static unsigned
nunits_of(const struct agx_prog *p)
{
   struct isa_file_info fi;
   isa_file_info(p->m, (unsigned)p->rc->gpr, &fi);
   return 2u * fi.count;
}

/* ------------------------------------------------------------------ */
/* Waits                                                                */

bool
agx_verify_waits(struct agx_prog *p)
{
   const struct ref_ctx *c = p->rc;
   int ms = isa_mod_by_role(p->m, ISA_ROLE_WAIT_SLOT);
   unsigned nunits = nunits_of(p);
   int *pend = xmalloc(nunits * sizeof(int)); /* the async item, or -1 */
   struct isa_insn *items = xmalloc((c->nitems + 1) * sizeof(*items));
   for (unsigned i = 0; i < c->nitems; i++)
      items[i] = c->items[i].in;
   bool *st = starts(p, items);
   unsigned count[2] = {0, 0};
   bool ok = true;
   for (unsigned u = 0; u < nunits; u++)
      pend[u] = -1;
   for (unsigned i = 0; i < c->nitems && ok && ms >= 0; i++) {
      const struct isa_insn *in = &c->items[i].in;
      struct isa_class_info ci;
      isa_class_info(p->m, in->cls, &ci);
      unsigned slot = (unsigned)in->mod[ms] & 1u;
      if (in->sem == ISA_SEM_WAIT) {
         for (unsigned u = 0; u < nunits; u++)
            if (pend[u] >= 0 && ((unsigned)c->items[pend[u]].in.mod[ms] & 1u) == slot)
               pend[u] = -1;
         count[slot] = 0;
         continue;
      }
      bool stop = ends(p, in);
      for (unsigned k = 0; k < in->ndst + in->nsrc && ok; k++) {
         int s = k < in->ndst ? ISA_SLOT_DST(k) : ISA_SLOT_SRC(k - in->ndst);
         unsigned u0, n;
         if (!units(p, in, s, &u0, &n))
            continue;
         for (unsigned u = u0; u < u0 + n && u < nunits && ok; u++)
            if (pend[u] >= 0)
               ok = fail(p, "wait", i, "r%u %s while pending on slot %u since item %d", u / 2,
                         k < in->ndst ? "written" : "read",
                         (unsigned)c->items[pend[u]].in.mod[ms] & 1u, pend[u]);
      }
      if (ok && stop && (count[0] || count[1]))
         ok = fail(p, "wait", i, "a flow op or barrier with slot %u pending", count[0] ? 0u : 1u);
      if (!ok || ci.sync != ISA_SYNC_WAIT_SLOT)
         goto end;
      if (++count[slot] > 8)
         ok = fail(p, "wait", i, "a ninth message pending on slot %u", slot);
      for (unsigned k = 0; k < in->ndst; k++) {
         unsigned u0, n;
         if (units(p, in, ISA_SLOT_DST(k), &u0, &n))
            for (unsigned u = u0; u < u0 + n && u < nunits; u++)
               pend[u] = (int)i;
      }
   end:
      if (ok && st[i + 1] && !stop && (count[0] || count[1]))
         ok = fail(p, "wait", i, "the region ends with slot %u pending", count[0] ? 0u : 1u);
   }
   free(pend);
   free(st);
   free(items);
   return ok;
}

/* ------------------------------------------------------------------ */
/* Places                                                               */

/* Reaching definitions of one program: per source operand, the sorted
 * distinct items (or OUTSIDE | unit) reaching its units; per unit and
 * region, the last writer. */
struct reach {
   unsigned *def;      /* by unit: the in-region writer, or OUTSIDE | unit */
   uint32_t (*src)[8]; /* by item and source: up to 8 distinct reaching defs */
   uint8_t (*nsrc)[ISA_MAX_SRC];
   unsigned *last; /* by region and unit: the last writer + 1, or 0 */
   unsigned nunits, nregions;
};

static void
add_def(uint32_t *set, uint8_t *n, uint32_t d)
{
   for (unsigned k = 0; k < *n; k++)
      if (set[k] == d)
         return;
   if (*n < 8)
      set[(*n)++] = d;
}

static void
reach_walk(const struct agx_prog *p, const struct isa_insn *items, const bool *st, struct reach *r)
{
   unsigned n = p->rc->nitems, region = 0;
   r->src = xcalloc(n + 1, sizeof(*r->src) * ISA_MAX_SRC);
   r->nsrc = xcalloc(n + 1, sizeof(*r->nsrc));
   r->def = xmalloc(r->nunits * sizeof(unsigned));
   r->last = xcalloc((size_t)r->nregions * r->nunits, sizeof(unsigned));
   for (unsigned u = 0; u < r->nunits; u++)
      r->def[u] = OUTSIDE | u;
   for (unsigned i = 0; i < n; i++) {
      if (i > 0 && st[i]) {
         region++;
         for (unsigned u = 0; u < r->nunits; u++)
            r->def[u] = OUTSIDE | u;
      }
      const struct isa_insn *in = &items[i];
      for (unsigned k = 0; k < in->nsrc && k < ISA_MAX_SRC; k++) {
         unsigned u0, c;
         if (units(p, in, ISA_SLOT_SRC(k), &u0, &c))
            for (unsigned u = u0; u < u0 + c && u < r->nunits; u++)
               add_def(r->src[(size_t)i * ISA_MAX_SRC + k], &r->nsrc[i][k], r->def[u]);
      }
      for (unsigned k = 0; k < in->ndst; k++) {
         unsigned u0, c;
         if (units(p, in, ISA_SLOT_DST(k), &u0, &c))
            for (unsigned u = u0; u < u0 + c && u < r->nunits; u++) {
               r->def[u] = i;
               r->last[(size_t)region * r->nunits + u] = i + 1;
            }
      }
   }
}

static void
reach_free(struct reach *r)
{
   free(r->src);
   free(r->nsrc);
   free(r->def);
   free(r->last);
}

static bool
same_set(const uint32_t *a, unsigned na, const uint32_t *b, unsigned nb)
{
   if (na != nb)
      return false;
   for (unsigned i = 0; i < na; i++) {
      unsigned j = 0;
      while (j < nb && b[j] != a[i])
         j++;
      if (j == nb)
         return false;
   }
   return true;
}

bool
agx_verify_places(struct agx_prog *p, const struct isa_insn *before)
{
   const struct ref_ctx *c = p->rc;
   struct isa_insn *after = xmalloc((c->nitems + 1) * sizeof(*after));
   for (unsigned i = 0; i < c->nitems; i++)
      after[i] = c->items[i].in;
   bool *st = starts(p, before), *st2 = starts(p, after);
   unsigned nregions = 1, nunits = nunits_of(p);
   for (unsigned i = 1; i < c->nitems; i++)
      nregions += st[i];
   struct reach a = {.nunits = nunits, .nregions = nregions}, b = a;
   reach_walk(p, before, st, &a);
   reach_walk(p, after, st, &b);
   bool ok = memcmp(st, st2, c->nitems + 1) == 0 ||
             fail(p, "half", 0, "%s", "the regions changed (a flow op moved)");
   free(st);
   free(st2);
   bool *across = xcalloc(nunits, sizeof(bool));
   for (unsigned i = 0; i < c->nitems && ok; i++)
      for (unsigned k = 0; k < before[i].nsrc && k < ISA_MAX_SRC && ok; k++) {
         const uint32_t *sa = a.src[(size_t)i * ISA_MAX_SRC + k],
                        *sb = b.src[(size_t)i * ISA_MAX_SRC + k];
         for (unsigned j = 0; j < a.nsrc[i][k]; j++)
            if (sa[j] & OUTSIDE)
               across[sa[j] & ~OUTSIDE] = true;
         if (!same_set(sa, a.nsrc[i][k], sb, b.nsrc[i][k]))
            ok = fail(p, "half", i,
                      "source %u reads another value than before the pass (from item %d, was "
                      "item %d)",
                      k, b.nsrc[i][k] ? (int)(sb[0] & ~OUTSIDE) : -1,
                      a.nsrc[i][k] ? (int)(sa[0] & ~OUTSIDE) : -1);
      }
   for (unsigned r = 0; r < nregions && ok; r++)
      for (unsigned u = 0; u < nunits && ok; u++)
         if (across[u] && a.last[(size_t)r * nunits + u] != b.last[(size_t)r * nunits + u])
            ok = fail(p, "half", b.last[(size_t)r * nunits + u] - 1u,
                      "r%u, read in another region, is last written here (was item %d)", u / 2,
                      (int)a.last[(size_t)r * nunits + u] - 1);
   free(across);
   reach_free(&a);
   reach_free(&b);
   free(after);
   return ok;
}
