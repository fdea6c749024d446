/*
 * bisect --json: a bisection's result in a stable machine-readable form
 * (the keys are listed in README "Bisecting a miscompile"). Every key is
 * always present; what the search did not name is null, so a reader
 * tests for null rather than for a key. Nothing here prints.
 */
#include "compiler/compiler.h"
#include "compiler/ir/ir.h"
#include "diff/diff.h"

#include <stdlib.h>

static const char *const outcome_names[] = {
    [DIFF_BISECT_FOUND] = "found",           [DIFF_BISECT_RANGE] = "range",
    [DIFF_BISECT_NO_FAILURE] = "no-failure", [DIFF_BISECT_NOT_OPT] = "not-opt",
    [DIFF_BISECT_NO_GOOD] = "no-good",       [DIFF_BISECT_UNTESTABLE] = "untestable",
};

static void
str_or_null(struct strbuf *o, const char *s)
{
   if (s)
      strbuf_json_str(o, s);
   else
      strbuf_printf(o, "null");
}

/* A comma list ("a, b") as a JSON array. */
static void
list_array(struct strbuf *o, const char *list)
{
   strbuf_printf(o, "[");
   for (const char *p = list; p && *p;) {
      size_t n = strcspn(p, ",");
      char *t = xasprintf("%.*s", (int)n, p);
      strbuf_printf(o, "%s", p == list ? "" : ", ");
      strbuf_json_str(o, t);
      free(t);
      p += n;
      p += strspn(p, ", ");
   }
   strbuf_printf(o, "]");
}

/* The lines of text as a JSON array. */
static void
lines_array(struct strbuf *o, const char *text)
{
   strbuf_printf(o, "[");
   bool first = true;
   for (const char *p = text; p && *p;) {
      size_t n = strcspn(p, "\n");
      char *t = xasprintf("%.*s", (int)n, p);
      strbuf_printf(o, "%s", first ? "" : ", ");
      strbuf_json_str(o, t);
      free(t);
      first = false;
      p += n + (p[n] == '\n');
   }
   strbuf_printf(o, "]");
}

static void
xform(struct strbuf *o, const struct diff_bisect *b, long long k)
{
   const struct diff_bisect_xform *x = &b->xforms[k - 1];
   strbuf_printf(o, "{\"index\": %lld, \"pass\": ", k);
   strbuf_json_str(o, x->pass);
   strbuf_printf(o, ", \"what\": ");
   strbuf_json_str(o, x->what);
   strbuf_printf(o, "}");
}

/* "transformation": the one named (or the candidates of a range), the
 * limits on each side and the command line that runs each. */
static void
transformation(struct strbuf *o, const char *file, const struct diff_bisect *b)
{
   long long n = b->bad;
   if ((b->outcome != DIFF_BISECT_FOUND && b->outcome != DIFF_BISECT_RANGE) || n < 1 ||
       n > (long long)b->nxforms) {
      strbuf_printf(o, "null");
      return;
   }
   const char *pass = b->xforms[n - 1].pass;
   long long first = n, last = n;
   while (first > 1 && !strcmp(b->xforms[first - 2].pass, pass))
      first--;
   while (last < (long long)b->nxforms && !strcmp(b->xforms[last].pass, pass))
      last++;
   if (b->outcome == DIFF_BISECT_FOUND)
      strbuf_printf(o, "{\"index\": %lld", n);
   else
      strbuf_printf(o, "{\"index\": null"); /* one of the candidates */
   strbuf_printf(o, ", \"of\": %u, \"pass\": ", b->nxforms);
   strbuf_json_str(o, pass);
   strbuf_printf(o, ", \"what\": ");
   str_or_null(o, b->outcome == DIFF_BISECT_FOUND ? b->xforms[n - 1].what : NULL);
   strbuf_printf(o, ", \"pass_first\": %lld, \"pass_last\": %lld,\n    \"candidates\": [", first,
                 last);
   for (long long k = b->good + 1; k <= n; k++) {
      strbuf_printf(o, "%s", k > b->good + 1 ? ", " : "");
      xform(o, b, k);
   }
   const char *fl = b->firings ? " --firings" : "";
   char *good = xasprintf("diffcomp bisect %s --opt-bisect-limit %lld%s", file, b->good, fl);
   char *bad = xasprintf("diffcomp bisect %s --opt-bisect-limit %lld%s", file, n, fl);
   strbuf_printf(
       o, "],\n    \"good_limit\": %lld, \"bad_limit\": %lld, \"good_command\": ", b->good, n);
   strbuf_json_str(o, good);
   strbuf_printf(o, ", \"bad_command\": ");
   strbuf_json_str(o, bad);
   strbuf_printf(o, "}");
   free(good);
   free(bad);
}

/* "stage" and "instruction": the stage search's answer. */
static void
stage(struct strbuf *o, const struct diff_repro *r, const struct diff_bisect *b)
{
   const struct diff_bisect_stages *st = &b->st;
   if (!st->ran || st->named < 0) {
      strbuf_printf(o, "  \"stage\": null,\n  \"instruction\": null,\n");
      return;
   }
   strbuf_printf(o, "  \"stage\": {\"name\": ");
   strbuf_json_str(o, opt_stage_names[st->named]);
   strbuf_printf(o,
                 ", \"only_with_later\": %s, \"exposed_by_transformation\": %s, "
                 "\"own_pass\": %s, \"also_passing\": [",
                 st->combo ? "true" : "false", st->exposed ? "true" : "false",
                 st->own ? "true" : "false");
   bool any = false;
   for (int s = 0; s < OPT_STAGE_COUNT; s++)
      if ((st->passing & (1u << s)) && s != st->named) {
         strbuf_printf(o, "%s", any ? ", " : "");
         strbuf_json_str(o, opt_stage_names[s]);
         any = true;
      }
   strbuf_printf(o, "], \"hazard\": ");
   str_or_null(o, st->hazard);
   strbuf_printf(o, "},\n  \"instruction\": ");
   if (!st->nneed) {
      strbuf_printf(o, "null,\n");
      return;
   }
   strbuf_printf(o, "{\"items\": [");
   for (unsigned i = 0; i < st->nneed; i++) {
      const struct diff_bisect_item *it = &st->need[i];
      /* the TGSI source line the item comes from */
      const char *p = r->text;
      for (unsigned k = 1; p && k < it->line; k++)
         p = (p = strchr(p, '\n')) ? p + 1 : NULL;
      p = p && it->line ? p + strspn(p, " \t") : NULL;
      char *src = p ? xasprintf("%.*s", (int)strcspn(p, "\n"), p) : NULL;
      strbuf_printf(o, "%s{\"name\": ", i ? ", " : "");
      strbuf_json_str(o, it->name);
      strbuf_printf(o, ", \"tgsi_line\": %u, \"tgsi\": ", it->line);
      str_or_null(o, src);
      strbuf_printf(o, "}");
      free(src);
   }
   strbuf_printf(o, "], \"alone_passes\": %s, \"items_listed\": %u,\n    \"notes\": ",
                 st->item_alone ? "true" : "false", st->nitems);
   lines_array(o, st->notes);
   strbuf_printf(o, "},\n");
}

static void
probes(struct strbuf *o, const struct diff_bisect *b)
{
   strbuf_printf(o, "  \"probes\": [");
   for (unsigned i = 0; i < b->nprobes; i++) {
      const struct diff_bisect_probe *p = &b->probes[i];
      strbuf_printf(o, "%s\n    {\"limit\": ", i ? "," : "");
      if (p->limit >= 0)
         strbuf_printf(o, "%lld", p->limit);
      else
         strbuf_printf(o, "null");
      strbuf_printf(o, ", \"verdict\": \"%s\", \"result\": ", diff_bisect_verdict_names[p->v]);
      strbuf_json_str(o, p->why);
      strbuf_printf(o, "}");
   }
   strbuf_printf(o, "],\n  \"stage_probes\": [");
   for (unsigned i = 0; i < b->st.nprobes; i++) {
      const struct diff_bisect_stage_probe *p = &b->st.probes[i];
      strbuf_printf(o, "%s\n    {\"conservative\": ", i ? "," : "");
      strbuf_json_str(o, p->label);
      strbuf_printf(o, ", \"verdict\": \"%s\", \"result\": ", diff_bisect_verdict_names[p->v]);
      strbuf_json_str(o, p->why);
      strbuf_printf(o, "}");
   }
   strbuf_printf(o, "]");
}

char *
diff_bisect_json(const char *file, const struct diff_repro *r, const struct diff_bisect *b,
                 const struct diff_where *w, int exit)
{
   struct strbuf o = {0};
   strbuf_printf(&o, "{\n  \"version\": \"%s\", \"reproducer\": ", DC_VERSION);
   strbuf_json_str(&o, file);
   strbuf_printf(&o, ", \"shader\": ");
   strbuf_json_str(&o, r->shader);
   strbuf_printf(&o, ", \"target\": ");
   strbuf_json_str(&o, r->target);
   strbuf_printf(&o,
                 ",\n  \"seed\": %llu, \"invocations\": %u, \"exit\": %d, \"outcome\": \"%s\", "
                 "\"why\": ",
                 (unsigned long long)r->o.seed, r->o.invocations, exit, outcome_names[b->outcome]);
   str_or_null(&o, b->why);
   strbuf_printf(&o,
                 ",\n  \"firings_only\": %s, \"fell_back\": %s, \"hide_firings\": %s, "
                 "\"transformations\": %u,\n  \"pass\": ",
                 b->firings ? "true" : "false", b->fell_back ? "true" : "false",
                 b->hide_firings ? "true" : "false", b->nxforms);
   bool named = b->outcome == DIFF_BISECT_FOUND || b->outcome == DIFF_BISECT_RANGE;
   str_or_null(&o, named && b->bad >= 1 && b->bad <= (long long)b->nxforms
                       ? b->xforms[b->bad - 1].pass
                       : NULL);
   strbuf_printf(&o, ",\n  \"transformation\": ");
   transformation(&o, file, b);
   strbuf_printf(&o, ",\n");
   stage(&o, r, b);
   strbuf_printf(&o, "  \"where\": ");
   if (w) {
      strbuf_printf(&o, "{\"verdict\": \"%s\", \"passes_on\": ", diff_where_names[w->verdict]);
      list_array(&o, w->passes);
      strbuf_printf(&o, ", \"fails_on\": ");
      list_array(&o, w->fails);
      strbuf_printf(&o, ", \"text\": ");
      str_or_null(&o, w->text);
      strbuf_printf(&o, "}");
   } else {
      strbuf_printf(&o, "null");
   }
   strbuf_printf(&o, ",\n");
   probes(&o, b);
   strbuf_printf(&o, "\n}\n");
   return o.s;
}
