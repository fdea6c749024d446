/*
 * The coverage report of a check run (check --coverage FILE): which
 * transformation kinds, legalization paths, hazard rules, sync kinds, ISA
 * ops and encodings the optimizing compiles of the run exercised, and
 * which they did not.
 *
 * Each case carries the counts of its own compile (result.cover, filled in
 * the worker); the tally adds them up in case order as the cases are
 * reported (diff_cover_sum: one dump holds the sum, in the order points were
 * first counted), and the report lays the sum over the universe the
 * compiler and the models declare, so it is the same for any -j. A point
 * counted but not declared is listed as unlisted (a kind missing from
 * opt_transform_kinds). A kind only an --opt mode the run lacks can make
 * is listed as off and left out of the count; so is a point the compiler
 * says no input reaches (opt_cover_unreachable), listed as unreachable
 * with why. One of those that a run does count shows as unlisted too.
 */
#include "compiler/compiler.h"
#include "compiler/ir/ir.h"
#include "diff/diff.h"
#include "isa/isa.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kinds[] = {"transform", "legalize", "hazard-rule",
                                    "sync",      "isa-op",   "encoding"};

static unsigned
kind_index(const char *k)
{
   unsigned i = 0;
   while (i + 1 < ARRAY_SIZE(kinds) && strcmp(kinds[i], k))
      i++;
   return i;
}

static int
by_kind_name(const void *a, const void *b)
{
   const struct cover_point *x = *(const struct cover_point *const *)a;
   const struct cover_point *y = *(const struct cover_point *const *)b;
   return strcmp(x->name, y->name);
}

/* One section: the points of kind k, exercised first (with counts), then
 * `off` (points outside this run's universe, with why). */
static void
section(struct strbuf *t, struct strbuf *sum, const char *k, const bool *declared, const char *off)
{
   size_t n = cover_count(), m = 0, hit = 0, listed = 0;
   const struct cover_point **v = xcalloc(n + 1, sizeof(*v));
   for (size_t i = 0; i < n; i++)
      if (!strcmp(cover_get(i)->kind, k) && (declared[i] || cover_get(i)->count)) {
         v[m] = cover_get(i);
         listed += declared[i];
         hit += declared[i] && v[m]->count;
         m++;
      }
   qsort(v, m, sizeof(*v), by_kind_name);
   double pct = listed ? 100.0 * (double)hit / (double)listed : 0.0;
   strbuf_printf(t, "%s: %zu of %zu exercised (%.1f%%)\n", k, hit, listed, pct);
   strbuf_printf(sum, "%s%s %zu/%zu (%.1f%%)", sum->n ? ", " : "", k, hit, listed, pct);
   for (size_t i = 0; i < m; i++)
      if (v[i]->count)
         strbuf_printf(t, "  %10llu  %s\n", (unsigned long long)v[i]->count, v[i]->name);
   for (size_t i = 0; i < m; i++)
      if (!v[i]->count)
         strbuf_printf(t, "  %10s  %s\n", "-", v[i]->name);
   for (size_t i = 0; i < n; i++) /* counted, not declared */
      if (!declared[i] && cover_get(i)->count && !strcmp(cover_get(i)->kind, k))
         strbuf_printf(t, "  unlisted    %s\n", cover_get(i)->name);
   strbuf_printf(t, "%s\n", off);
   free(v);
}

/* Whether the run's --opt list holds mode `name`. */
static bool
mode_on(const struct diff_check *c, const char *name)
{
   for (unsigned b = 0; b < DIFF_INEXACT_COUNT; b++)
      if (!strcmp(diff_inexact_names[b], name))
         return (c->o.inexact >> b) & 1u;
   return false;
}

void
diff_cover_sum(char **sum, const char *add)
{
   cover_reset(); /* between compiles: nothing is counting */
   cover_load(*sum);
   cover_load(add);
   free(*sum);
   *sum = cover_dump();
   cover_reset();
}

char *
diff_report_coverage(const struct diff_check *c, const struct diff_tally *tally, char **summary)
{
   cover_reset();
   /* a kind only an --opt mode makes is outside a run without it: listed
    * as off, out of the count; so is a point no input can reach (the
    * compiler says why): listed as unreachable */
   struct strbuf off[ARRAY_SIZE(kinds)] = {{0}};
   for (unsigned i = 0; opt_transform_kinds[i].what; i++) {
      const struct opt_transform_kind *k = &opt_transform_kinds[i];
      const char *why = opt_cover_unreachable(NULL, "transform", k->what);
      if (why)
         strbuf_printf(&off[0], "  %10s  %s (%s)\n", "unreachable", k->what, why);
      else if (!k->needs || mode_on(c, k->needs))
         cover_declare("transform", k->what);
      else
         strbuf_printf(&off[0], "  %10s  %s (needs --opt %s)\n", "off", k->what, k->needs);
   }
   bool *out = NULL;
   size_t nout = 0;
   for (unsigned t = 0; t < c->ntargets; t++) {
      const struct isa_model *m = c->targets[t].model;
      if (!m)
         continue;
      opt_legalize_cover_declare(m);
      size_t from = cover_count();
      isa_cover_declare(m);
      out = xrealloc(out, (cover_count() + 1) * sizeof(bool));
      for (; nout < cover_count(); nout++) {
         const struct cover_point *p = cover_get(nout);
         const char *why = nout < from ? NULL : opt_cover_unreachable(m, p->kind, p->name);
         out[nout] = why != NULL;
         if (why)
            strbuf_printf(&off[kind_index(p->kind)], "  %10s  %s (%s)\n", "unreachable", p->name,
                          why);
      }
      opt_emit_cover_declare(m);
   }
   size_t nd = cover_count();
   unsigned compiles = tally->compiles;
   cover_load(tally->cover);
   bool *declared = xcalloc(cover_count() + 1, sizeof(bool));
   for (size_t i = 0; i < nd; i++)
      declared[i] = i >= nout || !out[i];
   free(out);
   struct strbuf t = {0}, sum = {0};
   strbuf_printf(
       &t,
       "# diffcomp check --coverage: %u optimizing compiles of %u cases; count, or - when "
       "not exercised\n\n",
       compiles, tally->s.cases);
   for (unsigned k = 0; k < ARRAY_SIZE(kinds); k++) {
      section(&t, &sum, kinds[k], declared, off[k].s ? off[k].s : "");
      free(off[k].s);
   }
   free(declared);
   cover_reset();
   *summary = sum.s ? sum.s : xstrdup("");
   return t.s;
}
