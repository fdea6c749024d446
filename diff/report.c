/*
 * Reports of a check: the summary and each case's outcome against the
 * baseline, the JSON and JUnit files, shader-db style statistics, the
 * one-line failure text, and the baseline file itself.
 *
 * Baseline format (YAML), the cases expected not to pass:
 *
 *   expected:
 *     - {shader: ../captures/fs_x.tgsi, target: a3xx, status: fail, signal: hazard}
 *     - {shader: ../captures/fs_z.tgsi, target: sm50, signal: mismatch, output: 'OUT[0].y'}
 *     - {shader: ../captures/vs_y.tgsi, status: error}    # every target
 *
 * Paths are relative to the baseline file's directory (an entry also
 * matches a case named by the same text). A case listed with status S (and
 * signal K, output O, when given) is "expected" when it ends with status S,
 * its first failing signal is K and that signal's first value is O; a
 * listed case that passes (or is skipped) is an
 * "unexpected pass"; any other fail or error is new. Entries naming cases not
 * in the run are ignored, so one baseline serves every shard.
 *
 * Everything here returns text; nothing prints. Report files are written
 * whole or not at all (diff_write_atomic, diff_write_parts).
 *
 * A streaming check (cmd_check) adds each case to a tally as it is
 * reported (diff_tally_add, in case order) and spools each case's record
 * (diff_report_json_case, diff_report_junit_case, diff_baseline_entry);
 * the heads, which sum the run, are made from the tally at the end. The
 * whole-run functions (diff_report_json, ...) are the same pieces over
 * every case, so both give the same bytes.
 */
/* realpath (baseline paths) is XSI. */
#define _XOPEN_SOURCE 700

#include "compiler/compiler.h"
#include "diff/diff.h"
#include "isa/isa.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define NAME_(n, s) s,
const char *const diff_outcome_names[DIFF_OUT_COUNT] = {DIFF_OUTCOMES(NAME_)};
#undef NAME_

/* ------------------------------------------------------------------ */
/* Baseline                                                             */

static bool
status_from_name(const char *s, enum diff_status *out)
{
   for (unsigned i = 0; s && i < DIFF_STATUS_COUNT; i++)
      if (!strcmp(s, diff_status_names[i])) {
         *out = (enum diff_status)i;
         return true;
      }
   return false;
}

/* A path's canonical form, path taken relative to dir (NULL: the working
 * directory), or NULL (a generated shader's name, a file that is gone). */
char *
diff_path_canonical(const char *dir, const char *path)
{
   char *joined = path[0] == '/' || !dir ? xstrdup(path) : xasprintf("%s/%s", dir, path);
   char *r = realpath(joined, NULL);
   free(joined);
   return r;
}

char *
diff_path_dir(const char *file)
{
   const char *slash = strrchr(file, '/');
   return slash ? xasprintf("%.*s", (int)(slash == file ? 1 : slash - file), file) : xstrdup(".");
}

static bool
baseline_entry(struct ydoc *y, int n, struct diff_baseline *b, struct diag_list *d)
{
   const char *shader = ydoc_scalar(y, ydoc_get(y, n, "shader"));
   const char *target = ydoc_scalar(y, ydoc_get(y, n, "target"));
   int sn = ydoc_get(y, n, "status"), kn = ydoc_get(y, n, "signal");
   enum diff_status st = DIFF_FAIL;
   if (!ydoc_is_map(y, n) || !shader || !*shader) {
      ydoc_error(y, n, d, "a baseline entry is a mapping with at least 'shader'");
      return false;
   }
   if (sn && (!status_from_name(ydoc_scalar(y, sn), &st) || st == DIFF_PASS)) {
      ydoc_error(y, sn, d, "status is one of fail, error, skip");
      return false;
   }
   int kind = -1;
   for (unsigned k = 0; kn && k < DIFF_SIG_COUNT; k++)
      if (ydoc_scalar(y, kn) && !strcmp(ydoc_scalar(y, kn), diff_signal_names[k]))
         kind = (int)k;
   if (kn && kind < 0) {
      ydoc_error(y, kn, d, "signal is a signal kind (mismatch, hazard, compile-error, ...)");
      return false;
   }
   int on = ydoc_get(y, n, "output");
   const char *output = ydoc_scalar(y, on);
   if (on && (!output || !*output)) {
      ydoc_error(y, on, d, "output names the first failing value (OUT[0].y, BUFFER[1], ...)");
      return false;
   }
   struct diff_baseline_entry e = {xstrdup(shader),
                                   target && strcmp(target, "*") ? xstrdup(target) : NULL,
                                   st,
                                   kind,
                                   output ? xstrdup(output) : NULL,
                                   diff_path_canonical(b->dir, shader)};
   VEC_PUSH(b->v, b->n, b->cap, e);
   return true;
}

bool
diff_baseline_parse(const char *text, size_t len, const char *file, struct diff_baseline *b,
                    struct diag_list *d)
{
   memset(b, 0, sizeof(*b));
   b->dir = diff_path_dir(file);
   struct ydoc *y = ydoc_load(text, len, file, d);
   bool ok = y != NULL;
   int root = y ? ydoc_root(y) : 0, list = y ? ydoc_get(y, root, "expected") : 0;
   if (ok && !list && ydoc_is_map(y, root)) {
      ydoc_error(y, root, d, "a baseline has a list 'expected'");
      ok = false;
   }
   if (ok && !list && !ydoc_is_map(y, root))
      list = root; /* a bare list is accepted too */
   if (ok && ydoc_len(y, list) && !ydoc_item(y, list, 0)) {
      ydoc_error(y, list, d, "'expected' is a list");
      ok = false;
   }
   for (unsigned i = 0; ok && i < ydoc_len(y, list); i++)
      ok = baseline_entry(y, ydoc_item(y, list, i), b, d);
   ydoc_free(y);
   if (!ok)
      diff_baseline_free(b);
   return ok;
}

void
diff_baseline_free(struct diff_baseline *b)
{
   for (unsigned i = 0; i < b->n; i++) {
      free(b->v[i].shader);
      free(b->v[i].target);
      free(b->v[i].output);
      free(b->v[i].resolved);
   }
   free(b->v);
   free(b->dir);
   memset(b, 0, sizeof(*b));
}

/* An entry names a case when the target agrees and the shader is the same
 * file: the same text as written, or the same canonical path (the baseline's
 * paths are relative to the baseline file, the case's to the working
 * directory). */
const struct diff_baseline_entry *
diff_baseline_match(const struct diff_baseline *b, const char *shader, const char *target)
{
   char *real = NULL;
   bool tried = false;
   const struct diff_baseline_entry *hit = NULL;
   for (unsigned i = 0; b && i < b->n && !hit; i++) {
      const struct diff_baseline_entry *e = &b->v[i];
      if (e->target && strcmp(e->target, target))
         continue;
      if (e->resolved && !tried) {
         real = diff_path_canonical(NULL, shader);
         tried = true;
      }
      if ((e->resolved && real && !strcmp(e->resolved, real)) ||
          (!e->resolved && !strcmp(e->shader, shader)))
         hit = e;
   }
   free(real);
   return hit;
}

enum diff_status
diff_baseline_expect(const struct diff_baseline *b, const char *shader, const char *target)
{
   const struct diff_baseline_entry *e = diff_baseline_match(b, shader, target);
   return e ? e->status : DIFF_PASS;
}

static const char *
case_shader(const struct diff_check *c, unsigned i)
{
   return c->shaders[c->cases[i].shader].name;
}

static const char *
case_target(const struct diff_check *c, unsigned i)
{
   return c->targets[c->cases[i].target].name;
}

/* path relative to directory `from`, both made canonical; NULL if either
 * cannot be resolved. */
static char *
relative_to(const char *from, const char *path)
{
   char *a = diff_path_canonical(NULL, from), *b = diff_path_canonical(NULL, path), *rel = NULL;
   if (a && b) {
      /* The longest common run of whole components ("/x/y" vs "/x/yz": "/x"). */
      size_t common = 0;
      for (size_t i = 0; a[i] && a[i] == b[i]; i++)
         if (a[i + 1] == '/' || !a[i + 1])
            common = (b[i + 1] == '/' || !b[i + 1]) ? i + 1 : common;
      struct strbuf s = {0};
      for (const char *p = a + common; *p; p++)
         if (*p == '/')
            strbuf_printf(&s, "../");
      strbuf_printf(&s, "%s", b[common] ? b + common + (b[common] == '/') : s.s ? "" : ".");
      rel = strbuf_take(&s);
   }
   free(a);
   free(b);
   return rel;
}

/* The first signal that makes the case fail or error. */
static int
first_failing_signal(const struct diff_case_result *r)
{
   for (unsigned k = 0; k < r->nsig; k++)
      if (diff_signal_status(r->sig[k].kind) == r->status)
         return (int)r->sig[k].kind;
   return -1;
}

/* The value the first failing signal is about, as a baseline names it:
 * OUT[1].z, OUT[2][1].z (a vertex), BUFFER[0], IMAGE[1], or the value's
 * kind (discard, ...); NULL when that signal has no value. */
static char *
first_failing_value(const struct diff_case_result *r)
{
   int k = first_failing_signal(r);
   const struct diff_signal *s = NULL;
   for (unsigned i = 0; k >= 0 && i < r->nsig && !s; i++)
      if ((int)r->sig[i].kind == k)
         s = &r->sig[i];
   if (!s || !s->has_value)
      return NULL;
   const struct diff_mismatch *m = &s->m;
   char c = "xyzw"[m->chan & 3];
   switch (m->kind) {
   case DIFF_VAL_OUT:
   case DIFF_VAL_GS_DATA:
      return m->vertex ? xasprintf("OUT[%u][%u].%c", m->vertex, m->reg, c)
                       : xasprintf("OUT[%u].%c", m->reg, c);
   case DIFF_VAL_BUFFER:
      return xasprintf("BUFFER[%u]", m->reg);
   case DIFF_VAL_IMAGE:
      return xasprintf("IMAGE[%u]", m->reg);
   default:
      return xstrdup(diff_value_names[m->kind]);
   }
}

const char diff_baseline_head[] =
    "# diffcomp baseline: cases expected not to pass (diffcomp check --write-baseline);\n"
    "# paths are relative to this file's directory\n"
    "expected:\n";
const char diff_baseline_empty[] = "  []\n";

bool
diff_baseline_yaml_entry(struct strbuf *b, const struct diff_check *c, unsigned i, const char *dir)
{
   enum diff_status st = diff_result(c, i)->status;
   bool n = false;
   if (st == DIFF_FAIL || st == DIFF_ERROR) {
      char *rel = dir ? relative_to(dir, case_shader(c, i)) : NULL;
      int kind = first_failing_signal(diff_result(c, i));
      struct ydoc_writer *w = ydoc_writer_new();
      ydoc_writer_one_line(w); /* one entry per line, however long its path */
      ydoc_map(w, true, true);
      ydoc_kv(w, "shader", rel ? rel : case_shader(c, i));
      ydoc_kv(w, "target", case_target(c, i));
      ydoc_kv(w, "status", diff_status_names[st]);
      if (kind >= 0)
         ydoc_kv(w, "signal", diff_signal_names[kind]);
      char *value = first_failing_value(diff_result(c, i));
      if (value)
         ydoc_kv(w, "output", value);
      free(value);
      ydoc_map(w, false, true);
      char *t = ydoc_writer_finish(w);
      if (t) {
         t[strcspn(t, "\n")] = 0;
         strbuf_printf(b, "  - %s\n", t);
         n = true;
      }
      free(t);
      free(rel);
   }
   return n;
}

char *
diff_baseline_yaml(const struct diff_check *c, const char *dir)
{
   struct strbuf b = {0};
   strbuf_add(&b, diff_baseline_head);
   bool any = false;
   for (unsigned i = 0; i < c->ncases; i++)
      any |= diff_baseline_yaml_entry(&b, c, i, dir);
   if (!any)
      strbuf_add(&b, diff_baseline_empty);
   return strbuf_take(&b);
}

/* ------------------------------------------------------------------ */
/* Summary                                                              */

enum diff_outcome
diff_case_outcome(const struct diff_check *c, unsigned i, const struct diff_baseline *b)
{
   enum diff_status st = diff_result(c, i)->status;
   const struct diff_baseline_entry *e =
       diff_baseline_match(b, case_shader(c, i), case_target(c, i));
   enum diff_status want = e ? e->status : DIFF_PASS;
   if (want == DIFF_SKIP || want == DIFF_NA)
      want = DIFF_PASS;
   if (st == DIFF_PASS || st == DIFF_SKIP || st == DIFF_NA)
      return want == DIFF_PASS ? DIFF_OUT_OK : DIFF_OUT_UNEXPECTED_PASS;
   /* An entry that names its signal (and value) expects that failure,
    * not another. */
   if (st == want && (e->signal < 0 || e->signal == first_failing_signal(diff_result(c, i)))) {
      char *value = e->output ? first_failing_value(diff_result(c, i)) : NULL;
      bool same = !e->output || (value && !strcmp(value, e->output));
      free(value);
      if (same)
         return DIFF_OUT_EXPECTED;
   }
   /* a vacuous pass is no pass: new, as a failure is, unless baselined */
   return st == DIFF_FAIL || st == DIFF_VACUOUS ? DIFF_OUT_NEW_FAIL : DIFF_OUT_NEW_ERROR;
}

void
diff_tally_init(struct diff_tally *t, const struct diff_check *c, const struct diff_baseline *b)
{
   memset(t, 0, sizeof(*t));
   t->last_shader = -1;
   t->by_target = xcalloc(c->ntargets + 1, sizeof(*t->by_target));
   t->lg = xcalloc(c->ntargets + 1, sizeof(*t->lg));
   t->ngeo = xcalloc(c->ntargets + 1, sizeof(*t->ngeo));
   t->bl_used = xcalloc((b ? b->n : 0) + 1, sizeof(*t->bl_used));
}

void
diff_tally_fini(struct diff_tally *t)
{
   free(t->by_target);
   free(t->lg);
   free(t->ngeo);
   free(t->bl_used);
   free(t->cover);
   memset(t, 0, sizeof(*t));
}

/* --stats: both programs' figures, and per target the logs of opt/ref
 * for the geometric mean over the cases where both ran. */
static void
tally_stats(struct diff_tally *t, const struct diff_check *c, unsigned i)
{
   const struct diff_prog_stats *x = &diff_result(c, i)->ref, *y = &diff_result(c, i)->opt;
   if (!x->valid || !y->valid)
      return;
   uint64_t ref[4] = {x->instructions, x->nops, x->registers, x->cycles};
   uint64_t opt[4] = {y->instructions, y->nops, y->registers, y->cycles};
   t->both++;
   for (unsigned k = 0; k < 4; k++) {
      t->m[k].ref += ref[k];
      t->m[k].opt += opt[k];
      t->m[k].helped += opt[k] < ref[k];
      t->m[k].hurt += opt[k] > ref[k];
   }
   if (!x->emu_cycles || !y->emu_cycles || !x->instructions || !x->registers || !y->instructions ||
       !y->registers)
      return;
   unsigned tg = c->cases[i].target;
   t->lg[tg][0] += log((double)y->instructions / x->instructions);
   t->lg[tg][1] += log((double)y->registers / x->registers);
   t->lg[tg][2] += log((double)y->emu_cycles / (double)x->emu_cycles);
   t->ngeo[tg]++;
}

void
diff_tally_add(struct diff_tally *t, const struct diff_check *c, unsigned i,
               const struct diff_baseline *b)
{
   struct diff_summary *s = &t->s;
   const struct diff_case_result *r = diff_result(c, i);
   bool new_shader = t->last_shader != (int)c->cases[i].shader;
   t->last_shader = (int)c->cases[i].shader;
   s->cases++;
   s->shaders += new_shader;
   s->status[r->status]++;
   t->by_target[c->cases[i].target][r->status]++;
   s->outcome[diff_case_outcome(c, i, b)]++;
   bool seen[DIFF_SIG_COUNT] = {false};
   for (unsigned k = 0; k < r->nsig; k++)
      if (!seen[r->sig[k].kind]) {
         seen[r->sig[k].kind] = true;
         s->signals[r->sig[k].kind]++;
      }
   s->compared += r->compared;
   s->undefined += r->undefined;
   s->unchecked += r->unchecked;
   s->tolerated += r->tolerated;
   s->low += diff_case_low(r);
   if (new_shader) {
      s->outputs += r->outputs;
      s->nan += r->nan;
   }
   tally_stats(t, c, i);
   t->seconds += r->seconds;
   const struct diff_baseline_entry *e =
       diff_baseline_match(b, case_shader(c, i), case_target(c, i));
   if (e)
      t->bl_used[e - b->v] = true;
   if (r->cover) {
      t->compiles++;
      if (c->o.coverage)
         diff_cover_sum(&t->cover, r->cover);
   }
}

void
diff_tally_all(struct diff_tally *t, const struct diff_check *c, const struct diff_baseline *b)
{
   diff_tally_init(t, c, b);
   for (unsigned i = 0; i < c->ncases; i++)
      diff_tally_add(t, c, i, b);
}

void
diff_summarize(const struct diff_check *c, const struct diff_baseline *b, struct diff_summary *s)
{
   struct diff_tally t;
   diff_tally_all(&t, c, b);
   *s = t.s;
   diff_tally_fini(&t);
}

bool
diff_case_low(const struct diff_case_result *r)
{
   uint64_t all = r->compared + r->undefined + r->unchecked;
   if (r->status == DIFF_VACUOUS)
      return true;
   return r->status == DIFF_PASS && all && r->compared * 100 < all * DIFF_LOW_COMPARED_PCT;
}

/* ------------------------------------------------------------------ */
/* Text of a case                                                       */

/* The first max lines of msg; the rest (an IR validation failure carries
 * the whole shader) is counted: the JSON report and the reproducer keep
 * the whole message. */
static void
msg_cut(struct strbuf *b, const char *msg, unsigned max)
{
   const char *end = msg;
   for (unsigned n = 0; n < max && end; n++) {
      end = strchr(end, '\n');
      end = end ? end + 1 : NULL;
   }
   if (!end || !*end) {
      strbuf_printf(b, "%s", msg);
      return;
   }
   unsigned more = 1;
   for (const char *p = end; *p; p++)
      more += *p == '\n' && p[1];
   strbuf_printf(b, "%.*s    [%u more line%s in the JSON report and the reproducer]",
                 (int)(end - msg), msg, more, more == 1 ? "" : "s");
}

static void
signal_line(struct strbuf *b, const struct diff_check *c, unsigned i, const struct diff_signal *s)
{
   strbuf_printf(b, "%s %s %s: %s", diff_status_names[diff_result(c, i)->status], case_target(c, i),
                 case_shader(c, i), diff_signal_names[s->kind]);
   if (s->step && *s->step)
      strbuf_printf(b, " (%s)", s->step);
   strbuf_printf(b, ": ");
   msg_cut(b, s->msg, DIFF_MSG_LINES);
   bool values = s->kind == DIFF_SIG_MISMATCH || s->kind == DIFF_SIG_INVARIANCE;
   if (s->count > 1)
      strbuf_printf(b, " [%llu %s]", (unsigned long long)s->count, values ? "values" : "events");
}

char *
diff_case_lines(const struct diff_check *c, unsigned i)
{
   const struct diff_case_result *r = diff_result(c, i);
   struct strbuf b = {0};
   for (unsigned k = 0; k < r->nsig; k++) {
      if (k)
         strbuf_printf(&b, "\n");
      signal_line(&b, c, i, &r->sig[k]);
      if (k == 0 && r->repro)
         strbuf_printf(&b, " [repro: %s]", r->repro);
   }
   if (!r->nsig)
      strbuf_printf(&b, "%s %s %s", diff_status_names[r->status], case_target(c, i),
                    case_shader(c, i));
   return strbuf_take(&b);
}

/* Back end or mid-level (diff_case_where): the where: sentence of case
 * i, or NULL. */
char *
diff_case_locality(const struct diff_check *c, unsigned i)
{
   struct diff_where w;
   diff_case_where(c, i, &w);
   char *t = w.text;
   w.text = NULL;
   diff_where_free(&w);
   return t;
}

/* ------------------------------------------------------------------ */
/* JSON                                                                 */

static void
json_float_text(struct strbuf *b, uint32_t bits)
{
   float x = uif(bits);
   char t[32];
   if (x != x)
      snprintf(t, sizeof(t), "nan");
   else if (isinf(x))
      snprintf(t, sizeof(t), "%sinf", x < 0 ? "-" : "");
   else
      snprintf(t, sizeof(t), "%.9g", (double)x);
   strbuf_json_str(b, t);
}

static void
json_value(struct strbuf *b, const struct diff_mismatch *m)
{
   strbuf_printf(b, ", \"value\": {\"what\": ");
   strbuf_json_str(b, diff_value_names[m->kind]);
   strbuf_printf(b, ", \"reg\": %u, \"chan\": \"%c\", \"vertex\": %u, \"lane\": %u", m->reg,
                 "xyzw"[m->chan & 3], m -> vertex, m -> lane);
   strbuf_printf(b, ", \"expected\": \"0x%08x\", \"actual\": \"0x%08x\", \"expected_float\": ",
                 m->expected, m->actual);
   json_float_text(b, m->expected);
   strbuf_printf(b, ", \"actual_float\": ");
   json_float_text(b, m->actual);
   strbuf_printf(b, ", \"flags\": [");
   for (unsigned f = 0, n = 0; f < ENV_F_COUNT; f++)
      if (m->flags & (1u << f)) {
         strbuf_printf(b, n++ ? ", " : "");
         strbuf_json_str(b, env_flag_names[f]);
      }
   strbuf_printf(b, "]}");
}

static void
json_prog(struct strbuf *b, const char *key, const struct diff_prog_stats *p)
{
   if (!p->valid) {
      strbuf_printf(b, ", \"%s\": null", key);
      return;
   }
   strbuf_printf(b,
                 ", \"%s\": {\"instructions\": %u, \"nops\": %u, \"registers\": %u, \"cycles\": "
                 "%llu, \"emulated_cycles\": %llu}",
                 key, p->instructions, p->nops, p->registers, (unsigned long long)p->cycles,
                 (unsigned long long)p->emu_cycles);
}

void
diff_report_json_case(struct strbuf *b, const struct diff_check *c, unsigned i,
                      const struct diff_baseline *bl, bool first)
{
   const struct diff_case_result *r = diff_result(c, i);
   strbuf_printf(b, first ? "\n" : ",\n");
   strbuf_printf(b, "    {\"shader\": ");
   strbuf_json_str(b, case_shader(c, i));
   strbuf_printf(b, ", \"target\": ");
   strbuf_json_str(b, case_target(c, i));
   strbuf_printf(b, ", \"status\": \"%s\", \"outcome\": \"%s\",\n     \"signals\": [",
                 diff_status_names[r->status], diff_outcome_names[diff_case_outcome(c, i, bl)]);
   for (unsigned k = 0; k < r->nsig; k++) {
      const struct diff_signal *s = &r->sig[k];
      strbuf_printf(b, "%s\n       {\"kind\": \"%s\", \"step\": ", k ? "," : "",
                    diff_signal_names[s->kind]);
      strbuf_json_str(b, s->step);
      strbuf_printf(b, ", \"message\": ");
      strbuf_json_str(b, s->msg);
      strbuf_printf(b, ", \"count\": %llu", (unsigned long long)s->count);
      if (s->has_value)
         json_value(b, &s->m);
      strbuf_printf(b, "}");
   }
   strbuf_printf(b, "]");
   json_prog(b, "ref", &r->ref);
   json_prog(b, "opt", &r->opt);
   strbuf_printf(
       b,
       ",\n     \"values\": {\"compared\": %llu, \"undefined\": %llu, \"unchecked\": %llu, "
       "\"tolerated\": %llu, \"low\": %s, \"outputs\": %llu, \"nan\": %llu}",
       (unsigned long long)r->compared, (unsigned long long)r->undefined,
       (unsigned long long)r->unchecked, (unsigned long long)r->tolerated,
       diff_case_low(r) ? "true" : "false", (unsigned long long)r->outputs,
       (unsigned long long)r->nan);
   strbuf_printf(b, ", \"lanes\": [");
   for (unsigned l = 0; l < r->nlanes; l++) {
      strbuf_printf(b, "%s{\"lane\": %u, \"inputs\": {", l ? ", " : "", r->lanes[l].lane);
      for (unsigned v = 0; v < r->lanes[l].nvals; v++) {
         strbuf_printf(b, v ? ", " : "");
         strbuf_json_str(b, r->lanes[l].vals[v].name);
         strbuf_printf(b, ": \"0x%08x\"", r->lanes[l].vals[v].bits);
      }
      strbuf_printf(b, "}}");
   }
   strbuf_printf(b, "], \"locality\": ");
   struct diff_where w;
   diff_case_where(c, i, &w);
   if (w.text)
      strbuf_json_str(b, w.text);
   else
      strbuf_printf(b, "null");
   strbuf_printf(b, ", \"where\": \"%s\"", diff_where_names[w.verdict]);
   diff_where_free(&w);
   strbuf_printf(b, ", \"repro\": ");
   if (r->repro)
      strbuf_json_str(b, r->repro);
   else
      strbuf_printf(b, "null");
   strbuf_printf(b, "}");
}

const char diff_report_json_tail[] = "\n  ]\n}\n";

char *
diff_report_json_head(const struct diff_check *c, const struct diff_tally *t, const char *dir)
{
   const struct diff_summary s = t->s;
   struct strbuf b = {0};
   strbuf_printf(&b,
                 "{\n  \"summary\": {\"shaders\": %u, \"cases\": %u, \"pass\": %u, \"fail\": %u, "
                 "\"error\": %u, \"skip\": %u, \"n/a\": %u, \"vacuous\": %u, \"low\": %u,\n",
                 s.shaders, s.cases, s.status[DIFF_PASS], s.status[DIFF_FAIL], s.status[DIFF_ERROR],
                 s.status[DIFF_SKIP], s.status[DIFF_NA], s.status[DIFF_VACUOUS], s.low);
   strbuf_printf(&b, "              \"outcomes\": {");
   for (unsigned o = 0; o < DIFF_OUT_COUNT; o++)
      strbuf_printf(&b, "%s\"%s\": %u", o ? ", " : "", diff_outcome_names[o], s.outcome[o]);
   strbuf_printf(&b, "},\n              \"version\": \"%s\", \"models\": {", DC_VERSION);
   for (unsigned t = 0; t < c->ntargets; t++)
      strbuf_printf(&b, "%s\"%s\": \"%016llx\"", t ? ", " : "", c->targets[t].name,
                    (unsigned long long)isa_model_digest(c->targets[t].model));
   /* the working directory the shaders' paths are relative to, itself
    * relative to the report's directory (so that a report does not name
    * the machine's directories), for `diffcomp report` to pair runs made
    * from different directories */
   char *cwd = dir ? relative_to(dir, ".") : NULL;
   strbuf_printf(&b, "}");
   if (cwd) {
      strbuf_printf(&b, ", \"dir\": ");
      strbuf_json_str(&b, cwd);
   }
   free(cwd);
   strbuf_printf(&b, ",\n              \"seed\": %llu, \"invocations\": %u, \"steps\": ",
                 (unsigned long long)c->o.seed, c->o.invocations);
   strbuf_json_str(&b, diff_check_steps(c));
   strbuf_printf(&b, ", \"targets\": [");
   for (unsigned t = 0; t < c->ntargets; t++) {
      strbuf_printf(&b, t ? ", " : "");
      strbuf_json_str(&b, c->targets[t].name);
   }
   strbuf_printf(&b,
                 "],\n              \"values\": {\"compared\": %llu, \"undefined\": %llu, "
                 "\"unchecked\": %llu, \"tolerated\": %llu, \"outputs\": %llu, \"nan\": %llu}},\n"
                 "  \"cases\": [",
                 (unsigned long long)s.compared, (unsigned long long)s.undefined,
                 (unsigned long long)s.unchecked, (unsigned long long)s.tolerated,
                 (unsigned long long)s.outputs, (unsigned long long)s.nan);
   return strbuf_take(&b);
}

char *
diff_report_json(const struct diff_check *c, const struct diff_baseline *bl, const char *dir)
{
   struct diff_tally t;
   diff_tally_all(&t, c, bl);
   struct strbuf b = {0};
   char *head = diff_report_json_head(c, &t, dir);
   strbuf_add(&b, head);
   free(head);
   for (unsigned i = 0; i < c->ncases; i++)
      diff_report_json_case(&b, c, i, bl, i == 0);
   strbuf_add(&b, diff_report_json_tail);
   diff_tally_fini(&t);
   return strbuf_take(&b);
}

/* ------------------------------------------------------------------ */
/* JUnit                                                                */

void
diff_report_junit_case(struct strbuf *b, const struct diff_check *c, unsigned i,
                       const struct diff_baseline *bl)
{
   const struct diff_case_result *r = diff_result(c, i);
   enum diff_outcome o = diff_case_outcome(c, i, bl);
   strbuf_printf(b, "    <testcase classname=\"diffcomp.");
   strbuf_xml_str(b, case_target(c, i), true);
   strbuf_printf(b, "\" name=\"");
   strbuf_xml_str(b, case_shader(c, i), true);
   strbuf_printf(b, "\" time=\"%.3f\"", r->seconds);
   if (o == DIFF_OUT_OK && r->status == DIFF_PASS) {
      strbuf_printf(b, "/>\n");
      return;
   }
   strbuf_printf(b, ">\n");
   char *text = diff_case_lines(c, i);
   const char *first = r->nsig ? r->sig[0].msg : "";
   const char *tag = o == DIFF_OUT_NEW_FAIL || o == DIFF_OUT_UNEXPECTED_PASS ? "failure"
                     : o == DIFF_OUT_NEW_ERROR                               ? "error"
                                                                             : "skipped";
   const char *type = o == DIFF_OUT_UNEXPECTED_PASS ? "unexpected-pass"
                      : r->nsig                     ? diff_signal_names[r->sig[0].kind]
                                                    : diff_status_names[r->status];
   strbuf_printf(b, "      <%s type=\"%s\" message=\"", tag, type);
   if (o == DIFF_OUT_EXPECTED)
      strbuf_printf(b, "expected by the baseline: ");
   if (o == DIFF_OUT_UNEXPECTED_PASS)
      strbuf_printf(
          b, "passes, but the baseline expects %s",
          diff_status_names[diff_baseline_expect(bl, case_shader(c, i), case_target(c, i))]);
   else {
      size_t len = strcspn(first, "\n"); /* a message attribute is one line */
      char *one = xstrndup(first, len);
      strbuf_xml_str(b, one, true);
      if (first[len])
         strbuf_printf(b, " [...]");
      free(one);
   }
   strbuf_printf(b, "\">");
   strbuf_xml_str(b, text, true);
   strbuf_printf(b, "</%s>\n    </testcase>\n", tag);
   free(text);
}

const char diff_report_junit_tail[] = "  </testsuite>\n</testsuites>\n";

char *
diff_report_junit_head(const struct diff_check *c, const struct diff_tally *ty)
{
   const struct diff_summary s = ty->s;
   unsigned fails = s.outcome[DIFF_OUT_NEW_FAIL] + s.outcome[DIFF_OUT_UNEXPECTED_PASS];
   unsigned errors = s.outcome[DIFF_OUT_NEW_ERROR];
   unsigned skipped = s.outcome[DIFF_OUT_EXPECTED] + s.status[DIFF_SKIP] + s.status[DIFF_NA];
   double t = ty->seconds;
   struct strbuf b = {0};
   strbuf_printf(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
   strbuf_printf(
       &b,
       "<testsuites name=\"diffcomp\" tests=\"%u\" failures=\"%u\" errors=\"%u\" time=\"%.3f\">\n",
       s.cases, fails, errors, t);
   strbuf_printf(&b,
                 "  <testsuite name=\"diffcomp check\" tests=\"%u\" failures=\"%u\" errors=\"%u\" "
                 "skipped=\"%u\" time=\"%.3f\">\n",
                 s.cases, fails, errors, skipped, t);
   strbuf_printf(&b, "    <properties>\n      <property name=\"diffcomp-version\" value=\"%s\"/>\n",
                 DC_VERSION);
   for (unsigned k = 0; k < c->ntargets; k++)
      strbuf_printf(&b, "      <property name=\"model-%s\" value=\"%016llx\"/>\n",
                    c->targets[k].name, (unsigned long long)isa_model_digest(c->targets[k].model));
   strbuf_printf(&b, "    </properties>\n");
   return strbuf_take(&b);
}

char *
diff_report_junit(const struct diff_check *c, const struct diff_baseline *bl)
{
   struct diff_tally t;
   diff_tally_all(&t, c, bl);
   struct strbuf b = {0};
   char *head = diff_report_junit_head(c, &t);
   strbuf_add(&b, head);
   free(head);
   for (unsigned i = 0; i < c->ncases; i++)
      diff_report_junit_case(&b, c, i, bl);
   strbuf_add(&b, diff_report_junit_tail);
   diff_tally_fini(&t);
   return strbuf_take(&b);
}

/* ------------------------------------------------------------------ */
/* Statistics                                                           */

/* Per target, the geometric mean of opt/ref over the cases where both
 * programs compiled and ran: instructions, registers, emulated cycles. */
static void
stats_geomean(struct strbuf *b, const struct diff_check *c, const struct diff_tally *ty)
{
   strbuf_printf(b, "geometric mean of opt/ref per case (programs that both ran):\n");
   strbuf_printf(b, "  %-10s %6s %13s %10s %16s\n", "target", "cases", "instructions", "registers",
                 "emulated cycles");
   for (unsigned t = 0; t < c->ntargets; t++) {
      const double *lg = ty->lg[t];
      unsigned n = ty->ngeo[t];
      if (n)
         strbuf_printf(b, "  %-10s %6u %12.3fx %9.3fx %15.3fx\n", c->targets[t].name, n,
                       exp(lg[0] / n), exp(lg[1] / n), exp(lg[2] / n));
      else
         strbuf_printf(b, "  %-10s %6u %13s %10s %16s\n", c->targets[t].name, 0u, "-", "-", "-");
   }
}

char *
diff_report_stats_tally(const struct diff_check *c, const struct diff_tally *t)
{
   static const char *const names[4] = {"instructions", "nops", "registers", "cycles"};
   struct strbuf b = {0};
   strbuf_printf(&b, "totals over %u of %u cases with both programs (ref -> opt):\n", t->both,
                 t->s.cases);
   strbuf_printf(&b, "  %-13s %12s %12s %9s %7s %7s\n", "", "ref", "opt", "change", "helped",
                 "hurt");
   for (unsigned k = 0; k < 4; k++) {
      const struct diff_metric *m = &t->m[k];
      char pct[16] = "-";
      if (m->ref)
         snprintf(pct, sizeof(pct), "%+.2f%%",
                  100.0 * ((double)m->opt - (double)m->ref) / (double)m->ref);
      strbuf_printf(&b, "  %-13s %12llu %12llu %9s %7u %7u\n", names[k], (unsigned long long)m->ref,
                    (unsigned long long)m->opt, pct, m->helped, m->hurt);
   }
   stats_geomean(&b, c, t);
   return strbuf_take(&b);
}

char *
diff_report_stats(const struct diff_check *c)
{
   struct diff_tally t;
   diff_tally_all(&t, c, NULL);
   char *text = diff_report_stats_tally(c, &t);
   diff_tally_fini(&t);
   return text;
}

/* ------------------------------------------------------------------ */
/* Files                                                                */

/* Copies the rest of spool `from` (from its start) to f. */
static bool
copy_spool(FILE *from, FILE *f)
{
   char buf[65536];
   size_t n;
   bool ok = fflush(from) == 0 && fseek(from, 0, SEEK_SET) == 0;
   while (ok && (n = fread(buf, 1, sizeof(buf), from)) > 0)
      ok = fwrite(buf, 1, n, f) == n;
   return ok && !ferror(from);
}

bool
diff_write_parts(const char *path, const char *head, FILE *body, const char *tail,
                 struct diag_list *d)
{
   char *tmp = xasprintf("%s.tmp%ld", path, (long)getpid());
   FILE *f = fopen(tmp, "w");
   bool ok =
       f && fputs(head, f) >= 0 && (!body || copy_spool(body, f)) && (!tail || fputs(tail, f) >= 0);
   if (f && fclose(f) != 0)
      ok = false;
   if (ok && rename(tmp, path) != 0)
      ok = false;
   if (!ok) {
      diag_add(d, DIAG_ERROR, NULL, 0, 0, NULL, "cannot write %s: %s", path, strerror(errno));
      remove(tmp);
   }
   free(tmp);
   return ok;
}

bool
diff_write_atomic(const char *path, const char *text, struct diag_list *d)
{
   return diff_write_parts(path, text, NULL, NULL, d);
}

bool
diff_write_parts_fd(int fd, const char *head, FILE *body, const char *tail)
{
   FILE *f = fdopen(dup(fd), "w");
   bool ok =
       f && fputs(head, f) >= 0 && (!body || copy_spool(body, f)) && (!tail || fputs(tail, f) >= 0);
   if (f && fclose(f) != 0)
      ok = false;
   return ok;
}
