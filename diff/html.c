/*
 * The HTML report of a check (check --html DIR): a static site that opens
 * from the file system with no network and no script. index.html holds
 * the run's facts, the summary per target and every case; radio buttons
 * and CSS sibling selectors filter the cases by status. Each case that
 * failed, errored or compared nothing has cases/cNNNN.html: its signals
 * and failing values, the lanes' inputs, the TGSI beside the reference
 * and optimizing listings, and for a hazard the issue timeline of its wave.
 */
#include "diff/diff.h"
#include "isa/isa.h"

#include <stdlib.h>
#include <string.h>

static const char css[] =
    "body{font-family:sans-serif;margin:1em 2em;color:#222}\n"
    "table{border-collapse:collapse;margin:.5em 0}\n"
    "td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}\n"
    "th{background:#eee}td.n{text-align:right}\n"
    "pre{margin:0;font-size:12px;white-space:pre}\n"
    ".st-pass{color:#1a7f37}.st-fail,.st-error{color:#c62828;font-weight:bold}\n"
    ".st-skip,.st-na{color:#777}.st-vacuous{color:#b26a00}\n"
    ".filters label{margin-right:1em;cursor:pointer}\n"
    ".code{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:1em}\n"
    ".code>div{overflow:auto;border:1px solid #ccc;padding:4px;max-height:40em}\n"
    ".hz{background:#ffcdd2}.pr{background:#fff3c4}\n";

/* The CSS class of a status ("n/a" has no slash in it). */
static const char *
st_class(enum diff_status st)
{
   return st == DIFF_NA ? "na" : diff_status_names[st];
}

static void
head(struct strbuf *b, const char *title, const char *extra_css)
{
   strbuf_printf(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>");
   strbuf_xml_str(b, title, false);
   strbuf_printf(b, "</title>\n<style>\n%s%s</style></head>\n<body>\n", css,
                 extra_css ? extra_css : "");
}

bool
diff_html_has_page(const struct diff_check *c, unsigned i)
{
   enum diff_status st = diff_result(c, i)->status;
   return st == DIFF_FAIL || st == DIFF_ERROR || st == DIFF_VACUOUS;
}

char *
diff_html_page_name(unsigned i)
{
   return xasprintf("cases/c%04u.html", i);
}

static void
run_facts(struct strbuf *b, const struct diff_check *c)
{
   strbuf_printf(b, "<p>diffcomp %s; seed %llu, %u invocations; steps: ", DC_VERSION,
                 (unsigned long long)c->o.seed, c->o.invocations);
   strbuf_xml_str(b, diff_check_steps(c), false);
   strbuf_printf(b, "; models:");
   for (unsigned t = 0; t < c->ntargets; t++)
      strbuf_printf(b, " %s <code>%016llx</code>", c->targets[t].name,
                    (unsigned long long)isa_model_digest(c->targets[t].model));
   strbuf_printf(b, "</p>\n");
}

static void
summary_table(struct strbuf *b, const struct diff_check *c, const struct diff_tally *ty)
{
   strbuf_printf(b, "<h2>Summary</h2>\n<table class=\"summary\"><tr><th>target</th><th>cases</th>");
   for (unsigned s = 0; s < DIFF_STATUS_COUNT; s++)
      strbuf_printf(b, "<th>%s</th>", diff_status_names[s]);
   strbuf_printf(b, "</tr>\n");
   for (unsigned t = 0; t <= c->ntargets; t++) {
      unsigned n[DIFF_STATUS_COUNT] = {0}, all = 0;
      for (unsigned s = 0; s < DIFF_STATUS_COUNT; s++) {
         n[s] = t == c->ntargets ? ty->s.status[s] : ty->by_target[t][s];
         all += n[s];
      }
      strbuf_printf(b, "<tr><td>%s</td><td class=\"n\">%u</td>",
                    t < c->ntargets ? c->targets[t].name : "total", all);
      for (unsigned s = 0; s < DIFF_STATUS_COUNT; s++)
         strbuf_printf(b, "<td class=\"n\">%u</td>", n[s]);
      strbuf_printf(b, "</tr>\n");
   }
   strbuf_printf(b, "</table>\n");
}

/* Radio buttons before the table; a checked one hides the other rows. */
static void
filters(struct strbuf *b, const struct diff_tally *t, struct strbuf *rules)
{
   const unsigned *n = t->s.status, ncases = t->s.cases;
   strbuf_printf(b,
                 "<div class=\"filters\">show: "
                 "<input type=\"radio\" name=\"show\" id=\"show-all\" checked>"
                 "<label for=\"show-all\">all (%u)</label>\n",
                 ncases);
   strbuf_printf(b,
                 "<input type=\"radio\" name=\"show\" id=\"show-bad\">"
                 "<label for=\"show-bad\">not passing (%u)</label>\n",
                 ncases - n[DIFF_PASS]);
   strbuf_printf(rules, "#show-bad:checked~table tr.st-pass{display:none}\n");
   for (unsigned s = 0; s < DIFF_STATUS_COUNT; s++) {
      if (!n[s])
         continue;
      strbuf_printf(b,
                    "<input type=\"radio\" name=\"show\" id=\"show-%s\">"
                    "<label for=\"show-%s\">%s (%u)</label>\n",
                    st_class(s), st_class(s), diff_status_names[s], n[s]);
      strbuf_printf(rules, "#show-%s:checked~table tbody tr:not(.st-%s){display:none}\n",
                    st_class(s), st_class(s));
   }
}

static const char *
first_message(const struct diff_case_result *r)
{
   for (unsigned k = 0; k < r->nsig; k++)
      if (diff_signal_status(r->sig[k].kind) == r->status)
         return r->sig[k].msg;
   return r->nsig ? r->sig[0].msg : "";
}

const char diff_html_index_tail[] = "</tbody></table>\n</div>\n</body></html>\n";

char *
diff_html_index_head(const struct diff_check *c, const struct diff_tally *t)
{
   struct strbuf b = {0}, rules = {0}, body = {0};
   const struct diff_summary s = t->s;
   strbuf_printf(&body, "<h1>diffcomp check</h1>\n");
   run_facts(&body, c);
   strbuf_printf(&body,
                 "<p>%u shaders, %u cases; against the baseline: %u new failures, %u new "
                 "errors, %u expected, %u unexpected passes</p>\n",
                 s.shaders, s.cases, s.outcome[DIFF_OUT_NEW_FAIL], s.outcome[DIFF_OUT_NEW_ERROR],
                 s.outcome[DIFF_OUT_EXPECTED], s.outcome[DIFF_OUT_UNEXPECTED_PASS]);
   summary_table(&body, c, t);
   strbuf_printf(&body, "<h2>Cases</h2>\n");
   filters(&body, t, &rules);
   strbuf_printf(&body, "<table class=\"cases\"><thead><tr><th>shader</th><th>target</th>"
                        "<th>status</th><th>outcome</th><th>first signal</th></tr></thead>"
                        "<tbody>\n");
   head(&b, "diffcomp check", rules.s);
   strbuf_printf(&b, "%s", body.s);
   free(rules.s);
   free(body.s);
   return b.s;
}

void
diff_html_index_row(struct strbuf *b, const struct diff_check *c, unsigned i, unsigned page_no,
                    const struct diff_baseline *bl)
{
   const struct diff_case_result *r = diff_result(c, i);
   const char *shader = c->shaders[c->cases[i].shader].name;
   strbuf_printf(b, "<tr class=\"st-%s\"><td>", st_class(r->status));
   char *page = diff_html_has_page(c, i) ? diff_html_page_name(page_no) : NULL;
   if (page)
      strbuf_printf(b, "<a href=\"%s\">", page);
   strbuf_xml_str(b, shader, false);
   strbuf_printf(b, "%s</td><td>%s</td><td class=\"st-%s\">%s</td><td>%s</td><td>",
                 page ? "</a>" : "", c->targets[c->cases[i].target].name, st_class(r->status),
                 diff_status_names[r->status], diff_outcome_names[diff_case_outcome(c, i, bl)]);
   strbuf_xml_str(b, first_message(r), false);
   strbuf_printf(b, "</td></tr>\n");
   free(page);
}

char *
diff_html_index(const struct diff_check *c, const struct diff_baseline *bl)
{
   struct diff_tally t;
   diff_tally_all(&t, c, bl);
   struct strbuf b = {0};
   char *head = diff_html_index_head(c, &t);
   strbuf_add(&b, head);
   free(head);
   for (unsigned i = 0; i < c->ncases; i++)
      diff_html_index_row(&b, c, i, i, bl);
   strbuf_add(&b, diff_html_index_tail);
   diff_tally_fini(&t);
   return strbuf_take(&b);
}

static void
signals_table(struct strbuf *b, const struct diff_case_result *r)
{
   strbuf_printf(b, "<h2>Signals</h2>\n<table class=\"signals\"><tr><th>signal</th><th>step</th>"
                    "<th>count</th><th>message</th></tr>\n");
   for (unsigned k = 0; k < r->nsig; k++) {
      const struct diff_signal *g = &r->sig[k];
      strbuf_printf(b, "<tr><td class=\"st-%s\">%s</td><td>", st_class(diff_signal_status(g->kind)),
                    diff_signal_names[g->kind]);
      strbuf_xml_str(b, g->step, false);
      strbuf_printf(b, "</td><td class=\"n\">%llu</td><td>", (unsigned long long)g->count);
      strbuf_xml_str(b, g->msg, false);
      strbuf_printf(b, "</td></tr>\n");
   }
   strbuf_printf(b, "</table>\n");
}

/* The first differing value of each signal that has one. */
static void
values_table(struct strbuf *b, const struct diff_case_result *r)
{
   bool any = false;
   for (unsigned k = 0; k < r->nsig; k++) {
      const struct diff_signal *g = &r->sig[k];
      if (!g->has_value)
         continue;
      if (!any)
         strbuf_printf(b, "<h2>Failing values</h2>\n<table class=\"values\"><tr><th>step</th>"
                          "<th>value</th><th>register</th><th>vertex</th><th>lane</th>"
                          "<th>expected</th><th>actual</th><th>differing values</th></tr>\n");
      any = true;
      char e[64], a[64];
      diff_value_text(g->m.expected, e, sizeof(e));
      diff_value_text(g->m.actual, a, sizeof(a));
      strbuf_printf(b, "<tr><td>");
      strbuf_xml_str(b, g->step, false);
      strbuf_printf(b,
                    "</td><td>%s</td><td>%s[%u].%c</td><td class=\"n\">%u</td>"
                    "<td class=\"n\">%u</td><td>",
                    g->m.kind < DIFF_VAL_COUNT ? diff_value_names[g->m.kind] : "?",
                    g->m.kind == DIFF_VAL_BUFFER  ? "BUFFER"
                    : g->m.kind == DIFF_VAL_IMAGE ? "IMAGE"
                                                  : "OUT",
                    g->m.reg, "xyzw"[g->m.chan & 3], g -> m.vertex, g->m.lane);
      strbuf_xml_str(b, e, false);
      strbuf_printf(b, "</td><td>");
      strbuf_xml_str(b, a, false);
      strbuf_printf(b, "</td><td class=\"n\">%llu</td></tr>\n", (unsigned long long)g->count);
   }
   if (any)
      strbuf_printf(b, "</table>\n");
   for (unsigned l = 0; l < r->nlanes; l++) {
      strbuf_printf(b, "<p>lane %u inputs:", r->lanes[l].lane);
      for (unsigned v = 0; v < r->lanes[l].nvals; v++) {
         strbuf_printf(b, " ");
         strbuf_xml_str(b, r->lanes[l].vals[v].name, false);
         strbuf_printf(b, "=<code>0x%08x</code>", r->lanes[l].vals[v].bits);
      }
      strbuf_printf(b, "</p>\n");
   }
}

/* A listing; lines at the hazard's reader and producer are marked. */
static void
code_column(struct strbuf *b, const char *title, const char *text, bool ok, bool marks,
            const struct diff_case_detail *d)
{
   strbuf_printf(b, "<div><h3>%s</h3>", title);
   if (!ok) {
      strbuf_printf(b, "<p>no listing: ");
      strbuf_xml_str(b, text, false);
      strbuf_printf(b, "</p></div>\n");
      return;
   }
   strbuf_printf(b, "<pre>");
   for (const char *p = text; p && *p;) {
      const char *nl = strchr(p, '\n');
      size_t len = nl ? (size_t)(nl - p) : strlen(p);
      char *line = xstrndup(p, len);
      unsigned long pc = strtoul(line, NULL, 16);
      const char *cls = !marks || line[0] != '0' ? NULL
                        : pc == d->tl_pc         ? "hz"
                        : pc == d->tl_producer   ? "pr"
                                                 : NULL;
      if (cls)
         strbuf_printf(b, "<span class=\"%s\">", cls);
      strbuf_xml_str(b, line, false);
      strbuf_printf(b, "%s\n", cls ? "</span>" : "");
      free(line);
      p += len + (nl != NULL);
   }
   strbuf_printf(b, "</pre></div>\n");
}

/* The timeline as a picture: one row per issue, its stall (grey) before
 * it, the producer and the reader coloured, and a dashed line where the
 * producer's value was ready (the reader's cycle + early). */
static void
timeline_svg(struct strbuf *b, const struct diff_case_detail *d)
{
   const struct diff_timeline_row *r = d->rows;
   uint64_t lo = r[0].cycle - MIN2(r[0].cycle, r[0].stall), hi = r[d->nrows - 1].cycle + 1,
            ready = 0;
   for (unsigned k = 0; k < d->nrows; k++)
      if (r[k].mark == DIFF_TL_HAZARD && d->tl_early > 0)
         hi = MAX2(hi, (ready = r[k].cycle + (uint64_t)d->tl_early) + 1);
   unsigned px = (unsigned)MAX2(2, MIN2(12, 720 / (hi - lo))), rowh = 12, left = 56;
   unsigned w = left + (unsigned)(hi - lo) * px + 8, h = d->nrows * rowh + 20;
   strbuf_printf(b,
                 "<svg class=\"tl\" width=\"%u\" height=\"%u\" font-size=\"9\" "
                 "font-family=\"monospace\" role=\"img\" aria-label=\"issue timeline\">\n",
                 w, h);
   for (unsigned k = 0; k < d->nrows; k++) {
      unsigned y = k * rowh + 2;
      uint64_t x = left + (r[k].cycle - lo) * px;
      const char *fill = r[k].mark == DIFF_TL_HAZARD     ? "#c62828"
                         : r[k].mark == DIFF_TL_PRODUCER ? "#e6a100"
                                                         : "#555";
      strbuf_printf(b, "<text x=\"2\" y=\"%u\">0x%04x</text>", y + 9, r[k].pc);
      if (r[k].stall)
         strbuf_printf(b, "<rect x=\"%llu\" y=\"%u\" width=\"%u\" height=\"%u\" fill=\"#ddd\"/>",
                       (unsigned long long)(x - MIN2((uint64_t)r[k].stall * px, x - left)), y,
                       (unsigned)MIN2((uint64_t)r[k].stall * px, x - left), rowh - 2);
      strbuf_printf(b, "<rect x=\"%llu\" y=\"%u\" width=\"%u\" height=\"%u\" fill=\"%s\"/>\n",
                    (unsigned long long)x, y, px, rowh - 2, fill);
   }
   if (ready) {
      unsigned long long x = left + (ready - lo) * px;
      strbuf_printf(b,
                    "<line x1=\"%llu\" y1=\"0\" x2=\"%llu\" y2=\"%u\" stroke=\"#c62828\" "
                    "stroke-dasharray=\"3,2\"/><text x=\"%llu\" y=\"%u\" fill=\"#c62828\">"
                    "ready at %llu</text>\n",
                    x, x, h - 12, x > 60 ? x - 60 : x, h - 2, (unsigned long long)ready);
   }
   strbuf_printf(b, "</svg>\n");
}

static void
timeline_table(struct strbuf *b, const struct diff_case_detail *d)
{
   strbuf_printf(b, "<h2>Pipeline timeline (%s program)</h2>\n<p>", d->tl_prog);
   strbuf_xml_str(b, d->tl_what, false);
   strbuf_printf(b, "</p>\n");
   timeline_svg(b, d);
   strbuf_printf(b, "<table class=\"timeline\"><tr><th>cycle</th><th>stall</th><th>pc</th>"
                    "<th>instruction</th><th>waited for</th><th></th></tr>\n");
   for (unsigned k = 0; k < d->nrows; k++) {
      const struct diff_timeline_row *r = &d->rows[k];
      const char *cls = r->mark == DIFF_TL_HAZARD ? " class=\"hz\""
                        : r->mark                 ? " class=\"pr\""
                                                  : "";
      strbuf_printf(b, "<tr%s><td class=\"n\">%llu</td><td class=\"n\">%u</td><td>0x%04x</td><td>",
                    cls, (unsigned long long)r->cycle, r->stall, r->pc);
      strbuf_xml_str(b, r->text, false);
      strbuf_printf(b, "</td><td>");
      strbuf_xml_str(b, r->why, false);
      strbuf_printf(b, "</td><td>%s</td></tr>\n",
                    r->mark == DIFF_TL_HAZARD     ? "reader"
                    : r->mark == DIFF_TL_PRODUCER ? "producer"
                                                  : "");
   }
   strbuf_printf(b, "</table>\n");
}

char *
diff_html_case(const struct diff_check *c, unsigned i, const struct diff_baseline *bl,
               const struct diff_case_detail *d)
{
   struct strbuf b = {0};
   const struct diff_case_result *r = diff_result(c, i);
   const char *shader = c->shaders[c->cases[i].shader].name;
   const char *target = c->targets[c->cases[i].target].name;
   char *title = xasprintf("%s on %s: %s", shader, target, diff_status_names[r->status]);
   head(&b, title, NULL);
   strbuf_printf(&b, "<p><a href=\"../index.html\">all cases</a></p>\n<h1>");
   strbuf_xml_str(&b, shader, false);
   strbuf_printf(&b, " on %s: <span class=\"st-%s\">%s</span></h1>\n", target, st_class(r->status),
                 diff_status_names[r->status]);
   strbuf_printf(&b, "<p>outcome: %s; seed %llu, %u invocations",
                 diff_outcome_names[diff_case_outcome(c, i, bl)], (unsigned long long)c->o.seed,
                 c->o.invocations);
   if (r->repro) {
      strbuf_printf(&b, "; reproducer: <code>diffcomp repro ");
      strbuf_xml_str(&b, r->repro, false);
      strbuf_printf(&b, "</code>");
   }
   strbuf_printf(&b, "</p>\n");
   char *where = diff_case_locality(c, i); /* back end or mid-level, as the summary's where: */
   if (where) {
      strbuf_printf(&b, "<p class=\"where\">where: ");
      strbuf_xml_str(&b, where, false);
      strbuf_printf(&b, "</p>\n");
   }
   free(where);
   signals_table(&b, r);
   values_table(&b, r);
   bool marks = d->tl_prog != NULL;
   strbuf_printf(&b, "<h2>Code</h2>\n<div class=\"code\">\n");
   code_column(&b, "TGSI", d->tgsi ? d->tgsi : "the shader cannot be read", d->tgsi != NULL, false,
               d);
   code_column(&b, "ref", d->ref, d->ref_ok, marks && !strcmp(d->tl_prog, "ref"), d);
   code_column(&b, "opt", d->opt, d->opt_ok, marks && !strcmp(d->tl_prog, "opt"), d);
   strbuf_printf(&b, "</div>\n");
   if (d->tl_prog && d->nrows)
      timeline_table(&b, d);
   strbuf_printf(&b, "</body></html>\n");
   free(title);
   return b.s;
}
