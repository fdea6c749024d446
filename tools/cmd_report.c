/*
 * diffcomp report: two runs of the check (before and after a compiler
 * change) side by side, as plain text or as a Markdown merge-request comment.
 */
#include "diff/diff.h"
#include "tools/tools.h"

#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: diffcomp report OLD.json NEW.json [options]\n\n"
    "Compares two reports of 'diffcomp check --json' case by case (shader and\n"
    "target; a shader is its file whichever directory each run was made from\n"
    "and however its path was written): per target, the totals and change of instructions, nops,\n"
    "registers, static and emulated cycles over the cases that pass in both\n"
    "runs, how many cases each helped and hurt, the shaders helped and hurt most\n"
    "(by instructions), then new failures, fixed failures, new n/a, and cases\n"
    "found in one run only; first, a note when the runs were made by other\n"
    "versions of diffcomp or other models (the digests of diffcomp --version).\n"
    "Exit code: 0, 1 if a case fails in NEW that did not in OLD, 2 on bad usage\n"
    "or an unreadable report.\n\n"
    "  --markdown   Markdown tables (for a merge-request comment)\n"
    "  --path P     the statistics of the opt (default) or ref programs\n"
    "  --top N      shaders listed each way per target (default 5)\n";

struct report_opts {
   bool md;
   unsigned top;
};

static double
pct(long long old, long long new)
{
   return old ? 100.0 * (double)(new - old) / (double)old : 0.0;
}

static void
print_totals(const struct diff_runcmp_target *t, const struct report_opts *o)
{
   if (o->md)
      printf("### %s: %u cases pass in both\n\n"
             "| | old | new | change | helped | hurt |\n|---|---:|---:|---:|---:|---:|\n",
             t->name, t->paired);
   else
      printf("%s: %u cases pass in both\n  %-16s %12s %12s %9s %7s %7s\n", t->name, t->paired, "",
             "old", "new", "change", "helped", "hurt");
   for (unsigned k = 0; k < DIFF_STAT_COUNT; k++)
      printf(o->md ? "| %s | %lld | %lld | %+.2f%% | %u | %u |\n"
                   : "  %-16s %12lld %12lld %+8.2f%% %7u %7u\n",
             diff_stat_names[k], t->old_total[k], t->new_total[k],
             pct(t->old_total[k], t->new_total[k]), t->helped[k], t->hurt[k]);
   putchar('\n');
}

/* Runs made by another version or with other models are said so first: a
 * change in the figures may come from there rather than the compiler. */
static void
print_provenance(const struct diff_run *a, const struct diff_run *b, const struct report_opts *o)
{
   const char *lead = o->md ? "> " : "note: ";
   bool v = a->version && b->version && strcmp(a->version, b->version);
   bool m = a->models && b->models && strcmp(a->models, b->models);
   if (v)
      printf("%sthe runs were made by diffcomp %s (old) and %s (new)\n", lead, a->version,
             b->version);
   if (m)
      printf("%sthe models differ: old %s; new %s\n", lead, a->models, b->models);
   if (v || m)
      putchar('\n');
}

static long long
delta(const struct diff_runcmp_change *c)
{
   return c->new_stats[DIFF_STAT_INSTRUCTIONS] - c->old_stats[DIFF_STAT_INSTRUCTIONS];
}

static int
by_delta(const void *a, const void *b)
{
   const struct diff_runcmp_change *x = *(const struct diff_runcmp_change *const *)a,
                                   *y = *(const struct diff_runcmp_change *const *)b;
   long long dx = delta(x), dy = delta(y);
   return dx < dy ? -1 : dx > dy ? 1 : strcmp(x->shader, y->shader);
}

/* The most helped (most negative delta) first, or the most hurt. */
static void
print_top(const struct diff_runcmp *r, const char *target, bool helped, const struct report_opts *o)
{
   const struct diff_runcmp_change **v = xcalloc(r->nchanges + 1, sizeof(*v));
   size_t n = 0;
   for (size_t i = 0; i < r->nchanges; i++) {
      const struct diff_runcmp_change *c = &r->changes[i];
      if (c->kind == DIFF_RUNCMP_STATS && !strcmp(c->target, target) &&
          (helped ? delta(c) < 0 : delta(c) > 0))
         v[n++] = c;
   }
   qsort(v, n, sizeof(*v), by_delta);
   if (n) {
      const char *way = helped ? "helped" : "hurt";
      if (o->md)
         printf("**%s, most %s** (instructions)\n\n", target, way);
      else
         printf("  most %s (instructions):\n", way);
      for (size_t k = 0; k < n && k < o->top; k++) {
         const struct diff_runcmp_change *c = v[helped ? k : n - 1 - k];
         long long a = c->old_stats[DIFF_STAT_INSTRUCTIONS],
                   b = c->new_stats[DIFF_STAT_INSTRUCTIONS];
         printf(o->md ? "- `%s`: %lld -> %lld (%+.1f%%)\n" : "    %-48s %6lld -> %-6lld %+.1f%%\n",
                c->shader, a, b, pct(a, b));
      }
      putchar('\n');
   }
   free(v);
}

static const char *
status_name(enum diff_status s)
{
   return s == DIFF_STATUS_COUNT ? "absent" : diff_status_names[s];
}

static unsigned
print_changes(const struct diff_runcmp *r, enum diff_runcmp_kind kind, const char *title,
              const struct report_opts *o)
{
   unsigned n = 0;
   for (size_t i = 0; i < r->nchanges; i++)
      n += r->changes[i].kind == kind;
   if (!n)
      return 0;
   printf(o->md ? "**%s (%u)**\n\n" : "%s (%u):\n", title, n);
   for (size_t i = 0; i < r->nchanges; i++) {
      const struct diff_runcmp_change *c = &r->changes[i];
      if (c->kind == kind)
         printf(o->md ? "- `%s` %s: %s -> %s\n" : "  %-48s %-6s %s -> %s\n", c->shader, c->target,
                status_name(c->old_status), status_name(c->new_status));
   }
   putchar('\n');
   return n;
}

int
cmd_report(int argc, char **argv)
{
   struct report_opts o = {.top = 5};
   const char *files[2] = {NULL, NULL}, *path = "opt";
   unsigned nfiles = 0;
   for (int i = 1; i < argc; i++) {
      const char *v;
      uint64_t u;
      if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
         fputs(usage_text, stdout);
         return EXIT_OK;
      } else if (!strcmp(argv[i], "--markdown")) {
         o.md = true;
      } else if (opt_value(argc, argv, &i, "--path", &v)) {
         if (!v || (strcmp(v, "opt") && strcmp(v, "ref")))
            return usage_error("--path takes opt or ref");
         path = v;
      } else if (opt_value(argc, argv, &i, "--top", &v)) {
         if (!parse_u64(v, &u) || u > 1000)
            return usage_error("--top takes a number up to 1000");
         o.top = (unsigned)u;
      } else if (argv[i][0] == '-' && argv[i][1]) {
         return usage_error("report: unknown option '%s' (see diffcomp report --help)", argv[i]);
      } else if (nfiles < 2) {
         files[nfiles++] = argv[i];
      } else {
         return usage_error("report takes two reports, OLD.json and NEW.json");
      }
   }
   if (nfiles != 2) {
      fputs(usage_text, stderr);
      return EXIT_USAGE;
   }
   struct diff_run runs[2];
   struct diag_list d = {0};
   bool ok = diff_run_load(files[0], path, &runs[0], &d);
   if (ok && !diff_run_load(files[1], path, &runs[1], &d)) {
      diff_run_free(&runs[0]);
      ok = false;
   }
   print_diags(&d, stderr);
   diag_clear(&d);
   if (!ok)
      return EXIT_USAGE;
   struct diff_runcmp r;
   diff_runcmp(&runs[0], &runs[1], &r);
   if (o.md)
      printf("## diffcomp: %s -> %s (%s programs)\n\n", files[0], files[1], path);
   print_provenance(&runs[0], &runs[1], &o);
   for (size_t t = 0; t < r.ntargets; t++) {
      print_totals(&r.targets[t], &o);
      print_top(&r, r.targets[t].name, true, &o);
      print_top(&r, r.targets[t].name, false, &o);
   }
   unsigned fails = print_changes(&r, DIFF_RUNCMP_NEW_FAILURE, "new failures", &o);
   print_changes(&r, DIFF_RUNCMP_FIXED, "fixed failures", &o);
   print_changes(&r, DIFF_RUNCMP_NEW_NA, "new n/a", &o);
   print_changes(&r, DIFF_RUNCMP_ADDED, "only in the new run", &o);
   print_changes(&r, DIFF_RUNCMP_GONE, "only in the old run", &o);
   diff_runcmp_free(&r);
   diff_run_free(&runs[0]);
   diff_run_free(&runs[1]);
   return fails ? EXIT_FAIL : EXIT_OK;
}
