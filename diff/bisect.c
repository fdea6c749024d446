/*
 * Bisecting a miscompile: which pass, and which single transformation of
 * the optimizing compiler, turns a reproducer's case bad.
 *
 * Every optional change the optimizing compiler makes, and every firing
 * of a fault the reproducer injects, goes through one counter
 * (compiler/ir/pass.c, opt_transform), so a compile with limit N makes the
 * first N transformations of the unlimited compile and no other: the
 * compiler is deterministic, and transformations 1..N happen before the
 * limit can change anything. Limit 0 is the compile with no optional
 * change and no fault; the unlimited compile is limit M, M the number it
 * makes.
 *
 * Each run of the case ("probe") goes through the check's runner
 * (diff_check_run: worker process, timeout) with an opt_override that
 * compiles at the limit, and is judged against the reproducer: bad when it
 * has a signal of a kind the reproducer failed with, skip when it fails
 * some other way (opt does not compile, a crash, a timeout, another kind of
 * failure), good otherwise. The search:
 *
 *   1. the unlimited probe must be bad (else nothing to bisect), limit 0
 *      good (bad: the failure is not a transformation's; skip: no start);
 *   2. the pass: the transformations, listed by one compile in process
 *      with the BISECT log, fall into runs of one pass each; a binary
 *      search over the limits that end a run finds the first run whose
 *      end is bad;
 *   3. the transformation: a binary search over the limits inside it.
 *
 * When limit 0 gives no good run (a shader that fits the registers only
 * optimized: a skip) and the reproducer injects faults, the search runs
 * again with only the faults' firings counted (opt_options.bisect_firings):
 * every optional change is made, limit 0 is the fault-free compile, and
 * the transformations are the firings.
 *
 * A skip is searched around as `git bisect skip` does: the next untried
 * limit nearest the middle is tried instead. When skips leave no limit
 * between the last good and the first bad one, the answer is that range.
 * The search assumes one good-to-bad step; if the case flips more than
 * once it finds one of them. Nothing here prints.
 */
#include "compiler/compiler.h"
#include "compiler/ir/ir.h"
#include "diff/diff.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

/* A runaway search (every limit a skip) stops after this many probes. */
#define MAX_PROBES 200

const char *const diff_bisect_verdict_names[3] = {"good", "bad", "skip"};

void
diff_bisect_init(struct diff_bisect *b)
{
   memset(b, 0, sizeof(*b));
   b->jobs = 1;
   b->good = b->bad = -1;
   b->st.named = -1;
}

/* Frees the results, keeps the settings. */
static void
clear_results(struct diff_bisect *b)
{
   for (unsigned i = 0; i < b->nxforms; i++) {
      free(b->xforms[i].pass);
      free(b->xforms[i].what);
   }
   for (unsigned i = 0; i < b->nprobes; i++)
      free(b->probes[i].why);
   free(b->xforms);
   free(b->probes);
   free(b->ir_before);
   free(b->ir_after);
   free(b->code_before);
   free(b->code_after);
   free(b->why);
   for (unsigned i = 0; i < b->st.nprobes; i++) {
      free(b->st.probes[i].label);
      free(b->st.probes[i].why);
   }
   free(b->st.probes);
   free(b->st.item);
   for (unsigned i = 0; i < b->st.nneed; i++)
      free(b->st.need[i].name);
   free(b->st.need);
   free(b->st.notes);
   free(b->st.hazard);
   free(b->st.code_before);
   free(b->st.code_after);
   free(b->st.why);
   memset(&b->st, 0, sizeof(b->st));
   b->st.named = -1;
   b->xforms = NULL;
   b->probes = NULL;
   b->ir_before = b->ir_after = b->code_before = b->code_after = b->why = NULL;
   b->nxforms = b->xforms_cap = b->nprobes = b->probes_cap = 0;
   b->good = b->bad = -1;
}

void
diff_bisect_fini(struct diff_bisect *b)
{
   clear_results(b);
   isa_close(b->model);
   free(b->model_name);
   memset(b, 0, sizeof(*b));
}

/* ------------------------------------------------------------------ */
/* Compiling at a limit                                                 */

static enum compile_status
compile(const struct diff_bisect *b, const struct tgsi_shader *s, const struct isa_model *m,
        const struct opt_options *o, struct emu_program *out, char **log, struct diag_list *d)
{
   if (b->compile)
      return b->compile(b->compile_ctx, s, m, o, out, log, d) ? COMPILE_OK : COMPILE_ERROR;
   return opt_compile(s, m, o, out, NULL, log, d);
}

/* The items of a conservative stage a run treats so: those ranked below
 * `from` on in the listing, or the one named `only`. */
struct pick {
   int stage;
   const char *const *names; /* sorted */
   const unsigned *rank;     /* by sorted name: its place in the listing */
   unsigned n, from;
   const char *only;
   const char *const *also; /* always conservative too */
   unsigned nalso;
};

struct probe_ctx {
   const struct diff_bisect *b;
   const struct diff_check *c;
   long long limit;
   unsigned cons; /* conservative stages */
   struct pick *pick;
};

static int
cmp_name(const void *a, const void *b)
{
   return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool
pick_item(void *ctx, enum opt_stage st, const char *item)
{
   const struct pick *p = ctx;
   if ((int)st != p->stage)
      return true;
   for (unsigned i = 0; i < p->nalso; i++)
      if (!strcmp(item, p->also[i]))
         return true;
   if (p->only)
      return !strcmp(item, p->only);
   const char *const *f = p->n ? bsearch(&item, p->names, p->n, sizeof(*f), cmp_name) : NULL;
   return f && p->rank[f - p->names] >= p->from;
}

/* The check's options for opt, cut at limit; dump_at > 0 logs the IR;
 * cons and pick make stages conservative. */
static void
limited_options(const struct diff_bisect *b, const struct diff_check *c, long long limit,
                long long dump_at, const struct probe_ctx *pc, struct opt_options *o)
{
   diff_check_opt_options(c, o);
   o->bisect = limit >= 0 || dump_at > 0;
   o->bisect_limit = limit;
   o->dump_at = dump_at;
   o->bisect_firings = b->firings;
   o->hide_firings = b->hide_firings;
   if (pc && pc->cons) {
      o->conservative = pc->cons;
      o->cons_pick = pc->pick ? pick_item : NULL;
      o->cons_ctx = pc->pick;
   }
}

/* The check's opt_override during a probe: a refusal stays one, as in
 * the check's own run (the reproducer's opt-refused). */
static enum compile_status
probe_compile(void *ctx, const struct tgsi_shader *s, const struct isa_model *m,
              struct emu_program *out, struct diag_list *d)
{
   const struct probe_ctx *p = ctx;
   struct opt_options o;
   limited_options(p->b, p->c, p->limit, 0, p, &o);
   char *log = NULL;
   enum compile_status cs = compile(p->b, s, m, &o, out, &log, d);
   free(log);
   return cs;
}

/* Sets c (initialised) up as r's case with b's runner settings. The
 * target's model, when b holds it open (diff_bisect_run), is lent rather
 * than loaded again: loading and checking a model cost most of a small
 * probe. */
static bool
setup(const struct diff_repro *r, const struct diff_bisect *b, struct diff_check *c,
      struct diag_list *d)
{
   diff_check_init(c);
   c->o.jobs = b->jobs;
   c->o.timeout_ms = b->timeout_ms;
   if (b->model && r->target && !strcmp(b->model_name, r->target)) {
      struct diff_target t = {xstrdup(r->target), b->model};
      VEC_PUSH(c->targets, c->ntargets, c->targets_cap, t);
   }
   return diff_repro_setup(r, c, d);
}

/* diff_check_fini, the lent model given back first. */
static void
teardown(const struct diff_bisect *b, struct diff_check *c)
{
   for (unsigned i = 0; i < c->ntargets; i++)
      if (b->model && c->targets[i].model == b->model)
         c->targets[i].model = NULL;
   diff_check_fini(c);
}

/* ------------------------------------------------------------------ */
/* Judging a probe                                                      */

static bool
has_kind(const struct diff_case_result *r, enum diff_signal_kind k)
{
   for (unsigned i = 0; i < r->nsig; i++)
      if (r->sig[i].kind == k)
         return true;
   return false;
}

static enum diff_bisect_verdict
judge(const struct diff_case_result *want, const struct diff_case_result *got)
{
   for (unsigned i = 0; i < want->nsig; i++)
      if (diff_signal_status(want->sig[i].kind) == DIFF_FAIL && has_kind(got, want->sig[i].kind))
         return DIFF_BISECT_BAD;
   return got->status == DIFF_PASS ? DIFF_BISECT_GOOD : DIFF_BISECT_SKIP;
}

/* Whether the optimizing compiler itself died in r's run (a crash or a
 * timeout while compiling): then it cannot be compiled in this process. */
static bool
opt_died(const struct diff_case_result *r)
{
   for (unsigned i = 0; i < r->nsig; i++)
      if ((r->sig[i].kind == DIFF_SIG_CRASH || r->sig[i].kind == DIFF_SIG_TIMEOUT) &&
          (!strcmp(r->sig[i].step, "opt") || !strcmp(r->sig[i].step, "invariance")))
         return true;
   return false;
}

static bool
run_probe_cons(const struct diff_repro *r, struct diff_bisect *b, long long limit, unsigned cons,
               struct pick *pick, enum diff_bisect_verdict *v, char **lines, bool *died,
               struct diag_list *d)
{
   struct diff_check c;
   bool ok = setup(r, b, &c, d);
   if (ok) {
      struct probe_ctx p = {b, &c, limit, cons, pick};
      c.opt_override = probe_compile;
      c.opt_override_ctx = &p;
      diff_check_run(&c, NULL, NULL);
      const struct diff_case_result *got = &c.results[0];
      *v = judge(&r->seen, got);
      if (died)
         *died = opt_died(got);
      if (lines)
         *lines = got->nsig ? diff_case_lines(&c, 0) : xstrdup("pass");
   }
   teardown(b, &c);
   return ok;
}

static bool
run_probe(const struct diff_repro *r, struct diff_bisect *b, long long limit,
          enum diff_bisect_verdict *v, char **lines, bool *died, struct diag_list *d)
{
   return run_probe_cons(r, b, limit, 0, NULL, v, lines, died, d);
}

bool
diff_bisect_probe(const struct diff_repro *r, struct diff_bisect *b, long long limit,
                  enum diff_bisect_verdict *v, char **lines, struct diag_list *d)
{
   return run_probe(r, b, limit, v, lines, NULL, d);
}

/* ------------------------------------------------------------------ */
/* The transformations, from one logged compile in this process         */

/* Parses "BISECT: pass NAME transformation N (what)" lines. */
static void
read_log(struct diff_bisect *b, const char *log)
{
   for (const char *p = log; p && *p;) {
      const char *nl = strchr(p, '\n');
      size_t len = nl ? (size_t)(nl - p) : strlen(p);
      char pass[64];
      long long n;
      int at = 0;
      if (sscanf(p, "BISECT: pass %63s transformation %lld (%n", pass, &n, &at) == 2 && at &&
          (size_t)at < len && n == (long long)b->nxforms + 1) {
         const char *end = p + len;
         while (end > p + at && end[-1] != ')')
            end--;
         VEC_RESERVE(b->xforms, b->xforms_cap, b->nxforms + 1);
         struct diff_bisect_xform *x = &b->xforms[b->nxforms++];
         x->pass = xstrdup(pass);
         x->what = xasprintf("%.*s", (int)(end > p + at ? end - 1 - (p + at) : 0), p + at);
      }
      p = nl ? nl + 1 : NULL;
   }
}

static struct tgsi_shader *
parse(const struct diff_repro *r, const struct diff_check *c, struct diag_list *d)
{
   struct tgsi_parse_opts po = c->o.popts;
   tgsi_read_dialect(r->text, strlen(r->text), &po);
   return tgsi_parse(r->text, strlen(r->text), r->shader, &po, d);
}

/* Compiles r's shader in process at limit; *ir gets the IR logged at
 * dump_at ("IR at transformation ..." to the next BISECT line) and *code
 * the program's listing, or the transformations go to b when ir is NULL. */
static bool
logged_compile_cons(const struct diff_repro *r, struct diff_bisect *b, long long limit,
                    long long dump_at, const struct probe_ctx *pc, char **ir, char **code,
                    char **rawlog, struct diag_list *d)
{
   struct diff_check c;
   struct tgsi_shader *s = NULL;
   bool ok = setup(r, b, &c, d) && (s = parse(r, &c, d));
   if (ok) {
      struct opt_options o;
      limited_options(b, &c, limit, dump_at, pc, &o);
      o.bisect = true;
      struct emu_program prog;
      char *log = NULL;
      memset(&prog, 0, sizeof(prog));
      /* a compile that fails here failed in the probes too: their verdict
       * says so, its diagnostics are not the run's */
      struct diag_list cd = {0};
      compile(b, s, c.targets[0].model, &o, &prog, &log, &cd);
      diag_clear(&cd);
      if (rawlog) {
         *rawlog = log ? log : xstrdup("");
         log = NULL;
         *code =
             prog.size ? isa_print_program(c.targets[0].model, prog.code, prog.size, NULL) : NULL;
      } else if (!ir) {
         read_log(b, log);
      } else {
         const char *t = log ? strstr(log, "IR at transformation ") : NULL;
         const char *end = t ? strstr(t, "\nBISECT: ") : NULL;
         *ir = t ? xasprintf("%.*s", (int)(end ? end + 1 - t : (long)strlen(t)), t) : NULL;
         *code =
             prog.size ? isa_print_program(c.targets[0].model, prog.code, prog.size, NULL) : NULL;
      }
      emu_program_free(&prog);
      free(log);
   }
   tgsi_shader_free(s);
   teardown(b, &c);
   return ok;
}

static bool
logged_compile(const struct diff_repro *r, struct diff_bisect *b, long long limit,
               long long dump_at, char **ir, char **code, struct diag_list *d)
{
   return logged_compile_cons(r, b, limit, dump_at, NULL, ir, code, NULL, d);
}

/* ------------------------------------------------------------------ */
/* The search                                                           */

static const struct diff_bisect_probe *
find_probe(const struct diff_bisect *b, long long limit)
{
   for (unsigned i = 0; i < b->nprobes; i++)
      if (b->probes[i].limit == limit)
         return &b->probes[i];
   return NULL;
}

/* The verdict at limit, probing once per limit. */
static bool
verdict(const struct diff_repro *r, struct diff_bisect *b, long long limit,
        enum diff_bisect_verdict *v, bool *died, struct diag_list *d)
{
   const struct diff_bisect_probe *p = find_probe(b, limit);
   if (p) {
      *v = p->v;
      return true;
   }
   char *why = NULL;
   bool dead = false;
   if (!run_probe(r, b, limit, v, &why, &dead, d))
      return false;
   if (died)
      *died = dead;
   VEC_RESERVE(b->probes, b->probes_cap, b->nprobes + 1);
   b->probes[b->nprobes++] = (struct diff_bisect_probe){limit, *v, why};
   return true;
}

/* Narrows good < bad (verdicts good and bad) over the candidate limits
 * cand[0..n) (ascending): binary search, a skip replaced by the untried
 * candidate nearest the middle. */
static bool
search(const struct diff_repro *r, struct diff_bisect *b, const long long *cand, unsigned n,
       struct diag_list *d)
{
   while (b->nprobes < MAX_PROBES) {
      unsigned lo = 0, hi = n;
      while (lo < n && cand[lo] <= b->good)
         lo++;
      while (hi > lo && cand[hi - 1] >= b->bad)
         hi--;
      /* the untried (or not skipped) candidate nearest the middle */
      unsigned mid = lo + (hi - lo) / 2, pick = hi;
      for (unsigned k = 0; k < 2 * (hi - lo) && pick == hi; k++) {
         unsigned i = k % 2 ? mid - (k + 1) / 2 : mid + k / 2;
         if (i < lo || i >= hi)
            continue;
         const struct diff_bisect_probe *p = find_probe(b, cand[i]);
         if (!p || p->v != DIFF_BISECT_SKIP)
            pick = i;
      }
      if (pick == hi)
         return true;
      enum diff_bisect_verdict v;
      if (!verdict(r, b, cand[pick], &v, NULL, d))
         return false;
      if (v == DIFF_BISECT_GOOD)
         b->good = cand[pick];
      else if (v == DIFF_BISECT_BAD)
         b->bad = cand[pick];
   }
   return true;
}

/* Steps 2 and 3 of the search, from good 0 and bad M. */
static bool
bisect_xforms(const struct diff_repro *r, struct diff_bisect *b, struct diag_list *d)
{
   long long *cand = xcalloc(b->nxforms + 1, sizeof(*cand));
   unsigned n = 0;
   for (unsigned i = 1; i < b->nxforms; i++)
      if (strcmp(b->xforms[i].pass, b->xforms[i - 1].pass))
         cand[n++] = i; /* the limit that ends the run holding transformation i */
   bool ok = search(r, b, cand, n, d);
   n = 0;
   for (long long l = b->good + 1; ok && l < b->bad; l++)
      cand[n++] = l;
   ok = ok && search(r, b, cand, n, d);
   free(cand);
   return ok;
}

/* ------------------------------------------------------------------ */
/* The mandatory stages (issue 16)                                      */

#define ALL_STAGES ((1u << OPT_STAGE_COUNT) - 1)
#define MAX_ITEMS  8 /* wrong places named at most */

/* Whether the reproducer's target has stage s (all when unknown). */
static bool
has_stage(const struct diff_bisect *b, int s)
{
   return !b->stages || (b->stages >> s) & 1;
}

static bool
stage_probe(const struct diff_repro *r, struct diff_bisect *b, unsigned cons, struct pick *pick,
            char *label, enum diff_bisect_verdict *v, struct diag_list *d)
{
   char *why = NULL;
   bool ok = run_probe_cons(r, b, -1, cons, pick, v, &why, NULL, d);
   struct diff_bisect_stages *st = &b->st;
   VEC_RESERVE(st->probes, st->probes_cap, st->nprobes + 1);
   st->probes[st->nprobes++] =
       (struct diff_bisect_stage_probe){label, ok ? *v : DIFF_BISECT_SKIP, why ? why : xstrdup("")};
   return ok;
}

/* The stage: each alone, from the end of the pipeline backwards; the
 * liveness first when it is one of those that pass (its variant changes
 * the program only where the ordinary liveness is wrong; the stages that
 * use it pass too, only because they stop asking it), else the last one
 * that passes. When none does alone: every stage from one on, from the
 * end backwards. */
static bool
name_stage(const struct diff_repro *r, struct diff_bisect *b, struct diag_list *d)
{
   struct diff_bisect_stages *st = &b->st;
   enum diff_bisect_verdict v;
   unsigned mine = b->stages ? b->stages : ALL_STAGES;
   int last = OPT_STAGE_COUNT - 1;
   while (last > 0 && !has_stage(b, last))
      last--;
   for (int s = OPT_STAGE_COUNT; s-- > 0;) {
      if (!has_stage(b, s))
         continue;
      if (!stage_probe(r, b, 1u << s, NULL, xasprintf("%s", opt_stage_names[s]), &v, d))
         return false;
      if (v == DIFF_BISECT_GOOD)
         st->passing |= 1u << s;
   }
   if (st->passing & (1u << OPT_STAGE_LIVE))
      st->named = OPT_STAGE_LIVE;
   for (int s = OPT_STAGE_COUNT; s-- > 0 && st->named < 0;)
      if (st->passing & (1u << s))
         st->named = s;
   for (int s = last; s-- > 0 && st->named < 0;) {
      if (!has_stage(b, s))
         continue;
      char *label = xasprintf("%s..%s", opt_stage_names[s], opt_stage_names[last]);
      if (!stage_probe(r, b, mine & ~((1u << s) - 1), NULL, label, &v, d))
         return false;
      if (v == DIFF_BISECT_GOOD) {
         st->named = s;
         st->combo = true;
      }
   }
   if (st->named < 0)
      st->why = xstrdup("no stage's conservative variant makes the case pass, alone or with "
                        "every later stage's: the failure is not one mandatory stage's (or "
                        "the conservative variants share it)");
   return true;
}

/* The items a compile of the stage lists ("CONSERVE: stage S item X line
 * L"), in order; lines[] their TGSI lines. */
static unsigned
read_items(const char *log, const char *stage, char ***items, unsigned **lines)
{
   unsigned n = 0, cap = 0, lcap = 0;
   *items = NULL;
   *lines = NULL;
   char *head = xasprintf("CONSERVE: stage %s item ", stage);
   for (const char *p = log; p && *p;) {
      const char *nl = strchr(p, '\n');
      size_t len = nl ? (size_t)(nl - p) : strlen(p), h = strlen(head);
      const char *ln = NULL;
      for (const char *q = p + len; q > p + h && !ln; q--)
         if (!strncmp(q - 6, " line ", 6) && q - 6 >= p + h)
            ln = q - 6;
      if (len > h && !strncmp(p, head, h) && ln) {
         VEC_RESERVE(*items, cap, n + 1);
         VEC_RESERVE(*lines, lcap, n + 1);
         (*items)[n] = xasprintf("%.*s", (int)(ln - (p + h)), p + h);
         (*lines)[n++] = (unsigned)strtoul(ln + 6, NULL, 10);
      }
      p = nl ? nl + 1 : NULL;
   }
   free(head);
   return n;
}

/* The notes the stage logged about item ("CONSERVE-NOTE: stage S item
 * ITEM: TEXT" lines, as "ITEM: TEXT"). */
static char *
read_notes(const char *log, const char *stage, const char *item)
{
   char *head = xasprintf("CONSERVE-NOTE: stage %s item ", stage), *out = NULL;
   size_t h = strlen(head), k = strlen(item);
   for (const char *p = log; p && *p;) {
      const char *nl = strchr(p, '\n');
      size_t len = nl ? (size_t)(nl - p) : strlen(p);
      if (len > h + k && !strncmp(p, head, h) && !strncmp(p + h, item, k) && p[h + k] == ':') {
         char *line = xasprintf("%.*s\n", (int)(len - h), p + h);
         if (!out || !strstr(out, line)) { /* stages that ask again note again */
            char *t = xasprintf("%s%s", out ? out : "", line);
            free(out);
            out = t;
         }
         free(line);
      }
      p = nl ? nl + 1 : NULL;
   }
   free(head);
   return out;
}

/* The ordinary compile's notes (log) about the values `names` names
 * ("ITEM: instruction %N" -> "%N: what was done to it"), added to the
 * stage's notes. */
static void
add_value_notes(struct diff_bisect_stages *st, const char *names, const char *log,
                const char *stage)
{
   char *add = NULL;
   for (const char *p = names ? strchr(names, '%') : NULL; p; p = strchr(p + 1, '%')) {
      size_t k = 1 + strspn(p + 1, "0123456789");
      char id[16];
      if (k < 2 || k >= sizeof(id))
         continue;
      snprintf(id, sizeof(id), "%.*s", (int)k, p);
      char *nt = read_notes(log, stage, id);
      if (nt && (!add || !strstr(add, nt)) && (!st->notes || !strstr(st->notes, nt))) {
         char *t = xasprintf("%s%s", add ? add : "", nt);
         free(add);
         add = t;
      }
      free(nt);
   }
   if (add) {
      char *t = xasprintf("%s%s", st->notes ? st->notes : "", add);
      free(st->notes);
      free(add);
      st->notes = t;
   }
}

/* Inside the named stage: the items ranked below k conservative, k
 * binary-searched between none (bad) and all (good); the item named is
 * the last one that takes, and a run with it alone says whether it is
 * enough. */
static bool
name_item(const struct diff_repro *r, struct diff_bisect *b, struct diag_list *d)
{
   struct diff_bisect_stages *st = &b->st;
   const char *sname = opt_stage_names[st->named];
   struct pick pk = {.stage = st->named};
   struct probe_ctx pc = {b, NULL, -1, 1u << st->named, &pk};
   char *log = NULL, *code0 = NULL, **items = NULL;
   unsigned *lines = NULL;
   if (!logged_compile_cons(r, b, -1, 0, &pc, NULL, &code0, &log, d))
      return false;
   unsigned n = st->nitems = read_items(log, sname, &items, &lines);
   const char **sorted = xcalloc(n + 1, sizeof(*sorted));
   unsigned *rank = xcalloc(n + 1, sizeof(*rank));
   for (unsigned i = 0; i < n; i++)
      sorted[i] = items[i];
   qsort(sorted, n, sizeof(*sorted), cmp_name);
   for (unsigned i = 0; i < n; i++)
      for (unsigned j = 0; j < n; j++)
         if (sorted[i] == items[j])
            rank[i] = j;
   pk.names = sorted;
   pk.rank = rank;
   pk.n = n;
   enum diff_bisect_verdict v0 = DIFF_BISECT_SKIP, v1 = DIFF_BISECT_SKIP, v;
   bool ok = n > 0;
   pk.from = n;
   if (ok &&
       (ok = stage_probe(r, b, 1u << st->named, &pk, xasprintf("%s: no item", sname), &v0, d))) {
      pk.from = 0;
      ok = stage_probe(r, b, 1u << st->named, &pk, xasprintf("%s: all %u items", sname, n), &v1, d);
   }
   if (!n)
      st->why = xasprintf("%s lists no item to search", sname);
   else if (ok && (v0 != DIFF_BISECT_BAD || v1 != DIFF_BISECT_GOOD))
      st->why = xasprintf("%s item by item: no item gives %s, all %u give %s: not searched", sname,
                          diff_bisect_verdict_names[v0], n, diff_bisect_verdict_names[v1]);
   /* the items needed: the first one of the shortest good suffix -- the
    * latest place whose treatment cures the case (a hazard is cured by a
    * full wait anywhere between the write and the early read: the read is
    * the place) -- then again above it with those found kept
    * conservative, until they alone pass (several wrong places) */
   const char *need[MAX_ITEMS];
   unsigned nneed = 0, lo = 0, lines_of[MAX_ITEMS]; /* from lo on, with those found: good */
   while (ok && !st->why && nneed < MAX_ITEMS && lo < n) {
      unsigned hi = n; /* from hi on, with those found: bad */
      pk.also = need;
      pk.nalso = nneed;
      if (nneed) {
         pk.from = n;
         ok = stage_probe(r, b, 1u << st->named, &pk,
                          xasprintf("%s: the %u found alone", sname, nneed), &v, d);
         if (v == DIFF_BISECT_GOOD)
            break;
      }
      while (ok && !st->why && hi - lo > 1) {
         pk.from = lo + (hi - lo) / 2;
         ok = stage_probe(
             r, b, 1u << st->named, &pk,
             xasprintf("%s: items %u..%u%s", sname, pk.from + 1, n, nneed ? " and found" : ""), &v,
             d);
         if (v == DIFF_BISECT_GOOD)
            lo = pk.from;
         else if (v == DIFF_BISECT_BAD)
            hi = pk.from;
         else
            st->why =
                xasprintf("%s: items %u..%u is a skip: the search stops", sname, pk.from + 1, n);
      }
      if (st->why || !ok)
         break;
      lines_of[nneed] = lines[lo];
      need[nneed++] = items[lo++];
   }
   if (ok && !st->why && nneed) {
      st->item = xstrdup(need[0]);
      for (unsigned i = 1; i < nneed; i++) {
         char *t = xasprintf("%s, %s", st->item, need[i]);
         free(st->item);
         st->item = t;
      }
      st->item_line = lines_of[0];
      st->nneed = nneed;
      st->need = xcalloc(nneed, sizeof(*st->need));
      for (unsigned i = 0; i < nneed; i++)
         st->need[i] = (struct diff_bisect_item){xstrdup(need[i]), lines_of[i]};
      pk.also = need;
      pk.nalso = nneed;
      pk.from = n;
      ok = stage_probe(r, b, 1u << st->named, &pk, xasprintf("%s: %s", sname, st->item), &v, d);
      st->item_alone = v == DIFF_BISECT_GOOD;
      char *log1 = NULL;
      st->code_before = code0;
      code0 = NULL;
      ok = ok && logged_compile_cons(r, b, -1, 0, &pc, NULL, &st->code_after, &log1, d);
      for (unsigned i = 0; i < nneed; i++) {
         char *nt = read_notes(log1, sname, need[i]);
         if (nt) {
            char *t = xasprintf("%s%s", st->notes ? st->notes : "", nt);
            free(st->notes);
            free(nt);
            st->notes = t;
         }
      }
      free(log1);
   }
   char *named = st->notes ? xstrdup(st->notes) : NULL;
   add_value_notes(st, named, log, sname);
   add_value_notes(st, st->hazard, log, sname);
   add_value_notes(st, st->item, log, sname);
   free(named);
   for (unsigned i = 0; i < n; i++)
      free(items[i]);
   free(items);
   free(lines);
   free(sorted);
   free(rank);
   free(code0);
   free(log);
   return ok;
}

/* ------------------------------------------------------------------ */
/* The hazard, as the wait the code needed                              */

/* An emulator event as the check reports it (diff/check.c report_events):
 * "hazard (emu opt): opt program: KIND (...) at 0xPC, REG, producer
 * 0xPC, early by N"; the first such line of the unlimited run. */
struct hz_event {
   int kind; /* enum emu_event_kind */
   unsigned pc, producer;
   char reg[32];
   int early;
};

static bool
find_event(const char *why, struct hz_event *e)
{
   const char *head = "hazard (emu opt): opt program: ";
   const char *p = why ? strstr(why, head) : NULL;
   char kind[32];
   if (!p || sscanf(p + strlen(head), "%31s", kind) != 1)
      return false;
   const char *q = strstr(p, ") at 0x");
   e->kind = -1;
   for (int k = 0; k < EMU_EV_COUNT; k++)
      if (!strcmp(emu_event_names[k], kind))
         e->kind = k;
   return e->kind >= 0 && q &&
          sscanf(q, ") at 0x%x, %31[^,], producer 0x%x, early by %d", &e->pc, e->reg, &e->producer,
                 &e->early) == 4;
}

/* What the later of two instructions must wait on (isa_delay, the one
 * latency function): the first operand pair that needs a sync. */
const char *
diff_needed_sync(const struct isa_model *m, const struct isa_insn *p, const struct isa_insn *c,
                 int kind)
{
   enum isa_sync s = ISA_SYNC_NONE;
   for (unsigned i = 0; i < ISA_MAX_SRC && s == ISA_SYNC_NONE; i++)
      for (unsigned j = 0; j < ISA_MAX_SRC && s == ISA_SYNC_NONE; j++) {
         bool war = kind == EMU_EV_WAR, waw = kind == EMU_EV_WAW;
         if ((war ? i >= p->nsrc : i >= p->ndst) || (war || waw ? j >= c->ndst : j >= c->nsrc))
            continue;
         int ps = war ? ISA_SLOT_SRC(i) : ISA_SLOT_DST(i);
         int cs = war || waw ? ISA_SLOT_DST(j) : ISA_SLOT_SRC(j);
         s = isa_delay(m, p, ps, c, cs).sync;
      }
   switch (s) {
   case ISA_SYNC_SS:
      return "(ss)";
   case ISA_SYNC_SY:
      return "(sy)";
   case ISA_SYNC_SCOREBOARD:
      return "a scoreboard wait";
   case ISA_SYNC_NONE:
      return "a wait";
   default:
      return isa_sync_name(s);
   }
}

#define PLURAL(n) ((n) == 1 || (n) == -1 ? "" : "s")

/* The first hazard of the ordinary program: the unlimited probe's event,
 * its addresses as instruction numbers of the program ("pc"), the ops
 * and the values there (emit's SLOT lines of the log). */
static char *
describe_hazard(const struct isa_model *m, const struct emu_program *prog, const char *log,
                const char *why)
{
   struct hz_event e;
   struct isa_insn *in = NULL;
   size_t n = 0;
   if (!find_event(why, &e) || !prog->size ||
       isa_decode_program(m, prog->code, prog->size, &in, &n, NULL) != ISA_ERR_OK) {
      free(in);
      return NULL;
   }
   int c = -1, p = -1;
   for (size_t i = 0; i < n; i++) {
      c = in[i].addr == e.pc ? (int)i : c;
      p = in[i].addr == e.producer ? (int)i : p;
   }
   if (c < 0 || p < 0) {
      free(in);
      return NULL;
   }
   struct isa_op_info po, co;
   isa_op_info(m, in[p].op, &po);
   isa_op_info(m, in[c].op, &co);
   const char *sync = diff_needed_sync(m, &in[p], &in[c], e.kind);
   char *t;
   switch (e.kind) {
   case EMU_EV_RAW:
      t = xasprintf("hazard: %d cycle%s of delay missing before pc %d (reads %s, written by %s at "
                    "pc %d, %d cycle%s early)",
                    e.early, PLURAL(e.early), c, e.reg, po.name, p, e.early, PLURAL(e.early));
      break;
   case EMU_EV_SYNC:
      t = e.early > 0 ? xasprintf("hazard: %s missing before pc %d (reads %s, written by %s at pc "
                                  "%d, %d cycle%s early)",
                                  sync, c, e.reg, po.name, p, e.early, PLURAL(e.early))
                      : xasprintf("hazard: %s missing before pc %d (reads %s, written by %s at pc "
                                  "%d: ready by then, but only the wait makes it so)",
                                  sync, c, e.reg, po.name, p);
      break;
   case EMU_EV_WAR:
      t = xasprintf(
          "hazard: %s missing before pc %d (%s overwrites %s, which %s at pc %d may still "
          "be reading)",
          sync, c, co.name, e.reg, po.name, p);
      break;
   case EMU_EV_WAW:
      t = xasprintf("hazard: %s missing before pc %d (%s writes %s, which %s at pc %d is still "
                    "writing)",
                    sync, c, co.name, e.reg, po.name, p);
      break;
   case EMU_EV_BAR_EARLY:
      t = xasprintf("hazard: the scoreboard wait of %s at pc %d comes %d cycle%s too soon after %s "
                    "at pc %d set it",
                    co.name, c, e.early, PLURAL(e.early), po.name, p);
      break;
   case EMU_EV_FLOW_STALL:
      t = xasprintf("hazard: the stall count of %s at pc %d is %d cycle%s short of a flow "
                    "instruction's",
                    co.name, c, e.early, PLURAL(e.early));
      break;
   case EMU_EV_JP:
      t = xasprintf("hazard: (jp) missing on %s at pc %d, where divergent lanes reconverge",
                    co.name, c);
      break;
   default:
      t = xasprintf("hazard: %s at pc %d (%s, %s at pc %d, by %d)", emu_event_descs[e.kind], c,
                    e.reg, po.name, p, e.early);
      break;
   }
   free(in);
   /* the values there, as bisect's items name them */
   for (int k = 0; k < 2; k++) {
      int at = k ? p : c;
      unsigned ix, id, line;
      for (const char *l = log ? strstr(log, "SLOT: ") : NULL; l; l = strstr(l + 1, "SLOT: "))
         if (sscanf(l, "SLOT: %u %%%u line %u", &ix, &id, &line) == 3 && (int)ix == at) {
            char *u =
                xasprintf("%s%s pc %d is %%%u (TGSI line %u)", t, k ? "," : ";", at, id, line);
            free(t);
            t = u;
            break;
         }
      if (p == c)
         break;
   }
   return t;
}

/* The ordinary program's first hazard (st->hazard), from the unlimited
 * probe and one compile in this process; or, when the ordinary compile
 * itself stops with an error naming a value (the encoder's or the rewrite
 * verifier's), that error: it names the place already. */
static bool
name_hazard(const struct diff_repro *r, struct diff_bisect *b, struct diag_list *d)
{
   const char *why = b->nprobes ? b->probes[0].why : NULL;
   const char *ce = why ? strstr(why, "compile-error (opt): opt: ") : NULL;
   if (ce) {
      ce += strlen("compile-error (opt): opt: ");
      const char *msg = strstr(ce, ": error: ");
      msg = msg && msg < ce + strcspn(ce, "\n") ? msg + 9 : ce;
      const char *at = strstr(msg, "opt:"); /* "opt:LINE:COL: " */
      if (at == msg)
         msg += strcspn(msg, " ") + 1;
      size_t len = strcspn(msg, "\n");
      if (memchr(msg, '%', len))
         b->st.hazard = xasprintf("the ordinary compile stops: %.*s", (int)MIN2(len, 200), msg);
      return true;
   }
   if (!why || !strstr(why, "hazard (emu opt)"))
      return true;
   struct diff_check c;
   struct tgsi_shader *s = NULL;
   bool ok = setup(r, b, &c, d) && (s = parse(r, &c, d));
   if (ok) {
      struct opt_options o;
      limited_options(b, &c, -1, 0, NULL, &o);
      o.bisect = true;
      struct emu_program prog;
      memset(&prog, 0, sizeof(prog));
      char *log = NULL;
      struct diag_list cd = {0};
      if (compile(b, s, c.targets[0].model, &o, &prog, &log, &cd) == COMPILE_OK)
         b->st.hazard = describe_hazard(c.targets[0].model, &prog, log, why);
      diag_clear(&cd);
      emu_program_free(&prog);
      free(log);
   }
   tgsi_shader_free(s);
   teardown(b, &c);
   return ok;
}

static bool
bisect_stages(const struct diff_repro *r, struct diff_bisect *b, struct diag_list *d)
{
   b->st.ran = true;
   b->st.named = -1;
   if (!name_stage(r, b, d) || !name_hazard(r, b, d))
      return false;
   return b->st.named < 0 || name_item(r, b, d);
}

/* A transformation was named, but it may only expose a mandatory stage's
 * bug (a fused FFMA whose immediate legalization then encodes wrong): with
 * every transformation made, each mandatory stage's variant is tried --
 * the liveness first (its variant changes only what it gets wrong), then
 * from the end of the pipeline backwards -- but the named transformation's
 * own pass, whose variant makes no optional change and so would only undo
 * it. The first that passes is named too. A bug of the transformation
 * itself is wrong whatever the later stages do: none of them passes. */
static bool
exposed(const struct diff_repro *r, struct diff_bisect *b, struct diag_list *d)
{
   const char *pass = b->xforms[b->bad - 1].pass;
   int order[OPT_STAGE_COUNT], n = 0;
   order[n++] = OPT_STAGE_LIVE;
   for (int s = OPT_STAGE_COUNT; s-- > 0;)
      if (s != OPT_STAGE_LIVE)
         order[n++] = s;
   b->st.named = -1;
   for (int i = 0; i < n && b->st.named < 0; i++) {
      int s = order[i];
      enum diff_bisect_verdict v;
      if (!strcmp(pass, opt_stage_names[s]) || !has_stage(b, s))
         continue;
      b->st.ran = true;
      if (!stage_probe(r, b, 1u << s, NULL, xasprintf("%s", opt_stage_names[s]), &v, d))
         return false;
      if (v == DIFF_BISECT_GOOD) {
         b->st.named = s;
         b->st.passing |= 1u << s;
         b->st.exposed = true;
      }
   }
   /* none: when the pass is a mandatory stage itself (agx's wait, a
    * deferral whose wait the stage then misplaces), its items, with the
    * transformation made; a fault's own firing names its place already */
   int own = opt_stage_find(pass);
   if (b->st.named < 0 && own >= 0 && has_stage(b, own) &&
       strncmp(b->xforms[b->bad - 1].what, "fault ", 6)) {
      b->st.ran = true;
      b->st.named = own;
      b->st.own = true;
   }
   if (b->st.named >= 0 && !name_hazard(r, b, d))
      return false;
   return b->st.named < 0 || name_item(r, b, d);
}

static void
untestable(struct diff_bisect *b, enum diff_bisect_outcome o, const char *why)
{
   b->outcome = o;
   b->why = xstrdup(why);
}

static bool
bisect(const struct diff_repro *r, struct diff_bisect *b, struct diag_list *d)
{
   enum diff_bisect_verdict v;
   bool died = false;
   if (r->opt_asm) {
      untestable(b, DIFF_BISECT_UNTESTABLE, "opt's program is a hand-written one (opt-asm)");
      return true;
   }
   if (r->opt_cmd && !diff_extcc_has_limit(r->opt_cmd)) {
      untestable(b, DIFF_BISECT_UNTESTABLE,
                 "the opt command takes no {limit} (README: \"Checking your own compiler\")");
      return true;
   }
   if (!verdict(r, b, -1, &v, &died, d))
      return false;
   if (v != DIFF_BISECT_BAD) {
      untestable(b, DIFF_BISECT_NO_FAILURE, b->probes[0].why);
      return true;
   }
   if (died) {
      untestable(b, DIFF_BISECT_UNTESTABLE,
                 "the optimizing compiler dies on this case; listing its transformations "
                 "needs a compile in this process");
      return true;
   }
   if (!logged_compile(r, b, -1, 0, NULL, NULL, d) || !verdict(r, b, 0, &v, NULL, d))
      return false;
   b->good = 0;
   b->bad = b->nxforms;
   if (v != DIFF_BISECT_GOOD) {
      b->outcome = v == DIFF_BISECT_BAD ? DIFF_BISECT_NOT_OPT : DIFF_BISECT_NO_GOOD;
      b->good = -1;
      return true;
   }
   if (!b->nxforms) /* limit 0 is the unlimited compile: cannot differ */
      b->outcome = DIFF_BISECT_NOT_OPT;
   else if (!bisect_xforms(r, b, d))
      return false;
   else
      b->outcome = b->bad == b->good + 1 ? DIFF_BISECT_FOUND : DIFF_BISECT_RANGE;
   if (b->outcome == DIFF_BISECT_FOUND || b->outcome == DIFF_BISECT_RANGE)
      return logged_compile(r, b, b->good, b->good + 1, &b->ir_before, &b->code_before, d) &&
             logged_compile(r, b, b->bad, b->bad, &b->ir_after, &b->code_after, d);
   return true;
}

static bool
stuck(const struct diff_bisect *b)
{
   return b->outcome == DIFF_BISECT_NOT_OPT || b->outcome == DIFF_BISECT_NO_GOOD;
}

bool
diff_bisect_run(const struct diff_repro *r, struct diff_bisect *b, struct diag_list *d)
{
   if (!b->model && r->target) {    /* opened once for every run (setup) */
      struct diag_list quiet = {0}; /* a model that does not open: setup says so */
      if (isa_open(r->target, &b->model, &quiet) == ISA_ERR_OK) {
         b->model_name = xstrdup(r->target);
         b->stages = opt_target_stages(b->model);
      }
      diag_clear(&quiet);
   }
   if (!bisect(r, b, d))
      return false;
   if (stuck(b) && !b->firings && opt_fault_set_any(&r->o.faults) && !b->hide_firings) {
      /* Limit 0 (no optional change) does not give a good run -- a shader
       * that fits the registers only optimized, say: count the firings only. */
      clear_results(b);
      b->firings = b->fell_back = true;
      if (!bisect(r, b, d))
         return false;
   }
   /* no transformation to name: the mandatory stages, conservative */
   if (stuck(b) && !b->no_stages && !b->compile)
      return bisect_stages(r, b, d);
   if (b->outcome == DIFF_BISECT_FOUND && !b->no_stages && !b->compile)
      return exposed(r, b, d);
   return true;
}

/* ------------------------------------------------------------------ */
/* Back end or mid-level                                                */

const char *const diff_where_names[DIFF_WHERE_COUNT] = {
    "unknown", "back-end", "shared", "front-end", "ir-passes", "shared-back-end"};

/* r's case replayed on target, judged against r: -1 if target's optimizer
 * does not share opt's front end and IR passes (or no setup). */
static int
replay_on(const struct diff_repro *r, const struct diff_bisect *b, const char *target)
{
   struct diff_repro o = *r;
   o.target = (char *)target;
   struct diff_check c;
   struct diag_list quiet = {0};
   int res = -1;
   if (setup(&o, b, &c, &quiet) && opt_target_shares_ir(c.targets[0].model)) {
      diff_check_run(&c, NULL, NULL);
      res = (int)judge(&r->seen, &c.results[0]);
   }
   teardown(b, &c);
   diag_clear(&quiet);
   return res;
}

static void
list_add(char **list, const char *t)
{
   char *more = xasprintf("%s%s%s", *list ? *list : "", *list ? ", " : "", t);
   free(*list);
   *list = more;
}

/* Which shared code: the IR interpreter on the front end's IR and the IR
 * passes' (where_ir.c); DIFF_WHERE_SHARED when it cannot tell. */
static enum diff_where_verdict
shared_part(const struct diff_repro *r, const struct diff_bisect *b, char **why)
{
   struct diff_check c;
   struct tgsi_shader *s = NULL;
   struct diag_list quiet = {0};
   enum diff_where_verdict v = DIFF_WHERE_SHARED;
   *why = NULL;
   if (setup(r, b, &c, &quiet) && (s = parse(r, &c, &quiet))) {
      diff_check_run(&c, NULL, NULL); /* the recorded signals keep no values */
      v = diff_where_ir(r->inputs, &c, s, 0, why);
   }
   tgsi_shader_free(s);
   teardown(b, &c);
   diag_clear(&quiet);
   return v;
}

void
diff_bisect_where(const struct diff_repro *r, const struct diff_bisect *b, struct diff_where *w)
{
   char *why = NULL;
   memset(w, 0, sizeof(*w));
   if (r->opt_asm || r->opt_cmd || replay_on(r, b, r->target) != DIFF_BISECT_BAD)
      return;
   for (unsigned i = 0; diff_builtin_target(i); i++) {
      const char *t = diff_builtin_target(i);
      int v = strcmp(t, r->target) ? replay_on(r, b, t) : -1;
      if (v == DIFF_BISECT_GOOD)
         list_add(&w->passes, t);
      else if (v == DIFF_BISECT_BAD)
         list_add(&w->fails, t);
   }
   if (w->passes) {
      w->verdict = DIFF_WHERE_BACK_END;
   } else if (w->fails) {
      w->verdict = shared_part(r, b, &why);
   }
   w->text = diff_where_sentence(r->target, w, "as recorded", why);
   free(why);
}

void
diff_where_free(struct diff_where *w)
{
   free(w->passes);
   free(w->fails);
   free(w->text);
   memset(w, 0, sizeof(*w));
}

/* ------------------------------------------------------------------ */
/* The test hook                                                        */

bool
diff_bisect_swap_compile(void *swap, const struct tgsi_shader *s, const struct isa_model *m,
                         const struct opt_options *o, struct emu_program *out, char **log,
                         struct diag_list *d)
{
   const struct diff_bisect_swap *w = swap;
   long long l = o->bisect_limit;
   bool limited = o->bisect && l >= 0;
   if (limited && w->crash_at > 0 && l == w->crash_at) {
      signal(SIGSEGV, SIG_DFL); /* past any sanitizer's handler */
      raise(SIGSEGV);
   }
   if (limited && w->skip_hi > 0 && l >= w->skip_lo && l <= w->skip_hi &&
       !(w->skip_all_counted && o->bisect_firings)) {
      diag_add(d, DIAG_ERROR, NULL, 0, 0, NULL, "test: no program at limit %lld", l);
      return false;
   }
   if (opt_compile(s, m, o, out, NULL, log, d) != COMPILE_OK)
      return false;
   if (limited && l < w->from)
      return true;
   /* from transformation `from` on, the other shader's program */
   struct opt_options plain = *o;
   plain.bisect = false;
   plain.bisect_limit = -1;
   plain.dump_at = 0;
   emu_program_free(out);
   return opt_compile(w->other, m, &plain, out, NULL, NULL, d) == COMPILE_OK;
}
