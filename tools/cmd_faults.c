/*
 * diffcomp faults: the fault catalog (compiler/opt/fault.c) and the
 * detection benchmark.
 *
 * Without --check it lists every fault: name, class, targets, the pass
 * its hook sits in, and a one-line description (-v adds the fix it
 * imitates and the check options it needs).
 *
 * With --check FILE... it proves that the check catches each fault. For
 * every target a fault exists on, the check runs once with that fault on
 * (the same run as `diffcomp check --inject-fault NAME`, through the
 * check's runner and -j workers), after a run with no fault in the same
 * mode. With the default settings that run must pass completely: every
 * case passes or is skipped (a shader a compiler refuses); a failure there
 * is a false positive. A fault in an optional transform runs with it on
 * (its mode, e.g. --opt fuse-ffma); cases that fail in that mode without
 * any fault are listed as the mode's own noise (the inexact transform
 * moved a value beyond the check's tolerance) and do not count against the
 * fault. A case detects the fault when it fails with a signal the
 * fault-free run of that case did not have. The table gives, per fault and
 * target, the signals that caught it, how many shaders did, and the time
 * from the start of that run to the first detection; then the detection
 * rate. With --bisect and --reduce, the first case that caught each pair
 * (one whose fault-free run passed, if any) becomes a reproducer in
 * memory, fault included, and is bisected (diff/bisect.c) and reduced
 * (diff/reduce_repro.c) as `diffcomp bisect` and `diffcomp reduce` would;
 * two more tables follow. Exit 1 when a fault goes undetected on one of
 * its targets, the default fault-free run has a false positive, or a
 * bisection does not name the fault's firing in its pass; 2 on bad usage
 * or input.
 */
#include "compiler/ir/ir.h"
#include "diff/diff.h"
#include "tools/tools.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void
faults_usage(FILE *f)
{
   fprintf(f, "usage: diffcomp faults [-v]\n"
              "       diffcomp faults --check FILE.tgsi|DIR|@LIST... [options]\n"
              "       diffcomp faults --check --generated N [FILE.tgsi...] [options]\n\n"
              "Lists the faults that can be injected into the optimizing compiler\n"
              "(diffcomp check --inject-fault NAME): name, class, targets, the pass the\n"
              "fault lives in, description; -v adds the real fix each one imitates and\n"
              "the check options it needs.\n\n"
              "--check runs the check on the files once with no fault (it must pass\n"
              "completely) and once per fault and target, and prints which signal caught\n"
              "each fault, on how many shaders, how soon, and the detection rate.\n\n"
              "--bisect then bisects the first case that caught each fault and target\n"
              "(diffcomp bisect, the fault injected) and prints the fault's pass, the pass\n"
              "and the transformation named, and whether it is the fault's own firing in\n"
              "its own pass. --reduce reduces that case (diffcomp reduce) and prints the\n"
              "TGSI instructions and lanes before and after, and the median.\n\n"
              "  --generated N        also check N shaders from the random generator\n"
              "                       (as check --generated: seeds from --seed)\n"
              "  --inject-fault LIST  only these faults, each in turn (comma list; the\n"
              "                       option of check, where a list goes in together)\n"
              "  --target LIST        only these targets (default: each built-in that opens)\n"
              "  --seed S             seed of the random inputs (default 1)\n"
              "  --invocations N      lanes per shader (default 1024)\n"
              "  -j N                 worker processes (default: cores)\n"
              "  --timeout SEC        per case (default 300; 0 = none)\n"
              "  --no-gen-sink        as check --no-gen-sink\n"
              "  --no-verify          as check --no-verify: a fault the per-rewrite verifier\n"
              "                       would stop must be caught at run time\n"
              "  --legacy, --hex-bits parser dialect\n"
              "  -v, --verbose        also the failing cases of each fault\n"
              "  --bisect             bisect the first failing case of each pair\n"
              "  --hide-firings       bisect with each fault's firings hidden (they look like\n"
              "                       the code they imitate): the mandatory stage and the\n"
              "                       instructions bisect names instead\n"
              "  --reduce             reduce the first failing case of each pair\n"
              "  --time-limit SEC     time budget of each reduction, as reduce's --time-limit\n"
              "                       (default 30)\n\n"
              "Exit status: 0 every fault detected and the fault-free run clean (and, with\n"
              "--bisect, every bisection named the fault's firing in its pass); 1 otherwise;\n"
              "2 bad usage or input.\n");
}

/* ------------------------------------------------------------------ */
/* The list                                                             */

/* What a mode asks of the check, as its options. */
static void
mode_options(const char *mode, char *buf, size_t size)
{
   buf[0] = 0;
   if (strstr(mode, "fuse-ffma"))
      snprintf(buf + strlen(buf), size - strlen(buf), "--opt fuse-ffma");
   if (strstr(mode, "invariance"))
      snprintf(buf + strlen(buf), size - strlen(buf), "%s--invariance", buf[0] ? " " : "");
}

static int
list_faults(bool verbose)
{
   printf("%-26s %-13s %-10s %-11s %s\n", "NAME", "CLASS", "TARGETS", "PASS", "DESCRIPTION");
   unsigned per_class[OPT_FCLASS_COUNT] = {0};
   for (int f = 0; f < OPT_FAULT_COUNT; f++) {
      const struct opt_fault_info *fi = &opt_fault_info[f];
      char mode[64];
      mode_options(fi->mode, mode, sizeof(mode));
      per_class[fi->cls]++;
      printf("%-26s %-13s %-10s %-11s %s%s%s%s\n", fi->name, opt_fault_class_names[fi->cls],
             fi->targets, fi->pass, fi->desc, mode[0] ? " [" : "", mode, mode[0] ? "]" : "");
      if (verbose)
         printf("%-26s imitates: %s\n", "", fi->fix);
   }
   printf("%d faults:", OPT_FAULT_COUNT);
   for (int c = 0; c < OPT_FCLASS_COUNT; c++)
      printf("%s %u %s", c ? "," : "", per_class[c], opt_fault_class_names[c]);
   printf("\n");
   return EXIT_OK;
}

/* ------------------------------------------------------------------ */
/* The benchmark                                                        */

struct bench_args {
   struct shader_args in; /* the shader files */
   const char *faults, *targets;
   unsigned generated; /* shaders from the generator, as check --generated */
   struct diff_check_opts o;
   bool verbose;
   bool bisect, reduce; /* the first failing case of each pair bisected, reduced */
   bool hide;           /* bisect with the firings hidden: the stage search */
   double reduce_time;  /* seconds per reduction */
};

/* What bisect and reduce made of one pair's first failing case. */
struct follow {
   int fault;
   const char *target;
   char shader[96];
   bool have; /* a reproducer could be made */
   /* bisect */
   enum diff_bisect_outcome outcome;
   char *pass, *what; /* the transformation named (FOUND, RANGE) */
   long long index, good;
   unsigned nxforms, probes;
   bool firings; /* limit 0 gave no good run: the firings alone were counted */
   double bisect_s;
   /* with the firings hidden (--hide-firings): the stage and items named,
    * and the firing the ordinary bisection names (its instance) */
   int stage;
   bool combo;
   char *items, *firing, *notes; /* notes: what the stage said of the items */
   /* reduce */
   enum diff_reduce_status reduced;
   struct diff_reduce_stats st;
};

struct follows {
   struct follow *v;
   unsigned n, cap;
};

/* One check run: a fault (or none) on one target in one mode. */
struct run {
   const struct bench_args *a;
   const char *target;
   int fault;        /* -1: none */
   const char *mode; /* the fault's check options */
   struct diff_check c;
   const struct run *base; /* the fault-free run of the same target and mode */
   double start, first;    /* first: seconds to the first detection, < 0 none */
   unsigned detected, ran; /* cases that caught it; cases opt compiled fault-free */
   unsigned signals;       /* 1 << DIFF_SIG_* of the signals that caught it */
   char first_case[96];
};

static bool
has_signal(const struct diff_case_result *r, enum diff_signal_kind k, const char *step)
{
   for (unsigned i = 0; i < r->nsig; i++)
      if (r->sig[i].kind == k && !strcmp(r->sig[i].step, step))
         return true;
   return false;
}

/* The failing signals of case i that its fault-free run lacks (a mask). */
static unsigned
new_failures(const struct run *r, unsigned i)
{
   const struct diff_case_result *got = &r->c.results[i], *was = &r->base->c.results[i];
   unsigned m = 0;
   for (unsigned k = 0; k < got->nsig; k++) {
      const struct diff_signal *s = &got->sig[k];
      if (diff_signal_status(s->kind) == DIFF_FAIL && !has_signal(was, s->kind, s->step))
         m |= 1u << s->kind;
   }
   return m;
}

static void
on_progress(void *ctx, unsigned idx, const char *step)
{
   struct run *r = ctx;
   if (step || !r->base)
      return;
   unsigned m = new_failures(r, idx);
   if (m && r->first < 0) {
      const char *name = r->c.shaders[r->c.cases[idx].shader].name, *slash = strrchr(name, '/');
      r->first = now_seconds() - r->start;
      snprintf(r->first_case, sizeof(r->first_case), "%s", slash ? slash + 1 : name);
   }
}

/* Whether the optimizing compiler's program was checked in a case: it
 * compiled (not refused) and nothing stopped the case before. */
static bool
opt_ran(const struct diff_case_result *r)
{
   if (r->status == DIFF_ERROR || r->status == DIFF_NA)
      return false;
   for (unsigned i = 0; i < r->nsig; i++)
      if ((r->sig[i].kind == DIFF_SIG_UNSUPPORTED || r->sig[i].kind == DIFF_SIG_REFUSED) &&
          !strcmp(r->sig[i].step, "opt"))
         return false;
   return true;
}

static bool
run_check(struct run *r, struct diag_list *d)
{
   const struct bench_args *a = r->a;
   diff_check_init(&r->c);
   r->c.o = a->o;
   if (strstr(r->mode, "fuse-ffma"))
      r->c.o.inexact |= 1u << DIFF_INEXACT_FFMA_BIT;
   r->c.o.invariance = strstr(r->mode, "invariance") != NULL;
   memset(&r->c.o.faults, 0, sizeof(r->c.o.faults));
   if (r->fault >= 0)
      opt_fault_set_add(&r->c.o.faults, r->fault);
   if (!diff_check_add_targets(&r->c, r->target, d))
      return false;
   for (unsigned i = 0; i < a->in.nfiles; i++)
      diff_check_add_shader(&r->c, a->in.files[i], NULL);
   diff_check_add_generated(&r->c, a->generated);
   diff_check_make_cases(&r->c, 1, 1);
   r->first = -1;
   r->start = now_seconds();
   diff_check_run(&r->c, on_progress, r);
   for (unsigned i = 0; r->base && i < r->c.ncases; i++) {
      unsigned m = new_failures(r, i);
      r->signals |= m;
      r->detected += m != 0;
      r->ran += opt_ran(&r->base->c.results[i]);
   }
   return true;
}

/* The fault-free runs, one per target and mode, made on first use. */
struct bases {
   struct run *v;
   unsigned n, cap;
   unsigned false_pos; /* failing cases with the default settings */
   unsigned noise;     /* failing cases in optional modes */
};

static const struct run *
base_for(struct bases *b, const struct bench_args *a, const char *target, const char *mode,
         struct diag_list *d)
{
   for (unsigned i = 0; i < b->n; i++)
      if (!strcmp(b->v[i].target, target) && !strcmp(b->v[i].mode, mode))
         return b->v[i].c.results ? &b->v[i] : NULL;
   VEC_RESERVE(b->v, b->cap, b->n + 1);
   struct run *r = &b->v[b->n++];
   memset(r, 0, sizeof(*r));
   *r = (struct run){.a = a, .target = target, .fault = -1, .mode = mode};
   if (!run_check(r, d))
      return NULL;
   unsigned n[DIFF_STATUS_COUNT] = {0};
   for (unsigned i = 0; i < r->c.ncases; i++)
      n[r->c.results[i].status]++;
   char opts[64];
   mode_options(mode, opts, sizeof(opts));
   printf("no fault, %s%s%s: %u cases, %u pass, %u skip, %u n/a, %u fail, %u error\n", target,
          opts[0] ? " " : "", opts, r->c.ncases, n[DIFF_PASS], n[DIFF_SKIP], n[DIFF_NA],
          n[DIFF_FAIL], n[DIFF_ERROR]);
   for (unsigned i = 0; i < r->c.ncases; i++)
      if (r->c.results[i].status == DIFF_FAIL || r->c.results[i].status == DIFF_ERROR) {
         char *t = diff_case_lines(&r->c, i);
         printf("  %s: %s\n", mode[0] ? "fails without a fault in this mode" : "false positive", t);
         free(t);
         if (mode[0])
            b->noise++;
         else
            b->false_pos++;
      }
   fflush(stdout);
   return r;
}

static void
signal_text(unsigned mask, char *buf, size_t size)
{
   buf[0] = 0;
   for (unsigned k = 0; k < DIFF_SIG_COUNT; k++)
      if (mask & (1u << k))
         snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", buf[0] ? "," : "",
                  diff_signal_names[k]);
   if (!buf[0])
      snprintf(buf, size, "-");
}

static void
print_row(const struct run *r)
{
   char sig[96], first[32] = "-";
   signal_text(r->signals, sig, sizeof(sig));
   if (r->first >= 0)
      snprintf(first, sizeof(first), "%.2fs", r->first);
   printf("%-26s %-6s %-8s %-28s %3u/%-3u %7s  %s\n", opt_fault_info[r->fault].name, r->target,
          r->detected ? "yes" : "NO", sig, r->detected, r->ran, first, r->first_case);
   if (r->a->verbose)
      for (unsigned i = 0; i < r->c.ncases; i++)
         if (new_failures(r, i)) {
            char *t = diff_case_lines(&r->c, i);
            printf("    %s\n", t);
            free(t);
         }
   fflush(stdout);
}

/* The targets of the run: the list, or each built-in that opens. */
static bool
target_names(const char *list, char ***out, unsigned *n)
{
   struct diff_check c;
   struct diag_list d = {0};
   diff_check_init(&c);
   bool ok = diff_check_add_targets(&c, list, &d);
   print_diags(&d, stderr);
   diag_clear(&d);
   *n = ok ? c.ntargets : 0;
   *out = xcalloc(*n + 1, sizeof(char *));
   for (unsigned i = 0; i < *n; i++)
      (*out)[i] = xstrdup(c.targets[i].name);
   diff_check_fini(&c);
   return ok;
}

/* ------------------------------------------------------------------ */
/* Bisect and reduce the first failing case of each pair               */

/* The case to follow up: the first that caught the fault where the
 * fault-free run passed (else the first that caught it), or -1. */
static int
first_caught(const struct run *r)
{
   int any = -1;
   for (unsigned i = 0; i < r->c.ncases; i++)
      if (new_failures(r, i)) {
         if (r->base->c.results[i].status == DIFF_PASS)
            return (int)i;
         if (any < 0)
            any = (int)i;
      }
   return any;
}

/* Case i of r as a reproducer, the way `diffcomp check` writes it. */
static bool
make_repro(const struct run *r, unsigned i, struct diff_repro *out, struct diag_list *d)
{
   const struct diff_shader_src *src = &r->c.shaders[r->c.cases[i].shader];
   size_t len;
   char *text = diff_shader_text(src, &len, d);
   if (!text)
      return false;
   char *y = diff_repro_yaml(&r->c, i, text);
   bool ok = y && diff_repro_parse(y, strlen(y), src->name, out, d);
   free(y);
   free(text);
   return ok;
}

static void
follow_bisect(const struct bench_args *a, const struct diff_repro *rp, struct follow *f,
              struct diag_list *d)
{
   struct diff_bisect b;
   diff_bisect_init(&b);
   b.jobs = a->o.jobs ? 1 : 0;
   b.timeout_ms = a->o.timeout_ms;
   b.hide_firings = a->hide;
   double t0 = now_seconds();
   f->outcome = DIFF_BISECT_UNTESTABLE;
   if (diff_bisect_run(rp, &b, d)) {
      f->outcome = b.outcome;
      f->nxforms = b.nxforms;
      f->probes = b.nprobes;
      f->index = b.bad;
      f->good = b.good;
      f->firings = b.firings;
      if ((b.outcome == DIFF_BISECT_FOUND || b.outcome == DIFF_BISECT_RANGE) && b.bad > 0) {
         f->pass = xstrdup(b.xforms[b.bad - 1].pass);
         f->what = xstrdup(b.xforms[b.bad - 1].what);
      }
   }
   f->stage = b.st.named;
   f->combo = b.st.combo;
   f->items = b.st.item ? xstrdup(b.st.item) : NULL;
   f->notes = xasprintf("%s%s", b.st.notes ? b.st.notes : "", b.st.hazard ? b.st.hazard : "");
   f->bisect_s = now_seconds() - t0;
   diff_bisect_fini(&b);
   enum opt_fault_class cls = opt_fault_info[f->fault].cls;
   if (a->hide && (f->items || f->notes) &&
       (cls == OPT_FCLASS_SCHEDULE || cls == OPT_FCLASS_LEGALIZE)) {
      diff_bisect_init(&b); /* the firing, as the fault's own instance */
      b.jobs = a->o.jobs ? 1 : 0;
      b.timeout_ms = a->o.timeout_ms;
      b.no_stages = true;
      if (diff_bisect_run(rp, &b, d))
         for (unsigned i = 0; i < b.nxforms; i++) /* every firing: each is an instance */
            if (!strncmp(b.xforms[i].what, "fault ", 6)) {
               char *t = xasprintf("%s%s\n", f->firing ? f->firing : "", b.xforms[i].what);
               free(f->firing);
               f->firing = t;
            }
      diff_bisect_fini(&b);
   }
}

static void
follow_reduce(const struct bench_args *a, const struct diff_repro *rp, struct follow *f,
              struct diag_list *d)
{
   struct diff_repro_reduce rr;
   memset(&rr, 0, sizeof(rr));
   rr.o.time_limit = a->reduce_time;
   rr.jobs = a->o.jobs ? 1 : 0;
   rr.timeout_ms = a->o.timeout_ms;
   f->reduced = diff_reduce_repro(rp, &rr, d);
   f->st = rr.stats;
   diff_repro_reduce_fini(&rr);
}

/* Bisects and reduces the first failing case of a pair that was caught. */
static void
follow_up(const struct run *r, struct follows *fs, struct diag_list *d)
{
   const struct bench_args *a = r->a;
   int i = first_caught(r);
   if (i < 0)
      return;
   VEC_RESERVE(fs->v, fs->cap, fs->n + 1);
   struct follow *f = &fs->v[fs->n++];
   memset(f, 0, sizeof(*f));
   f->fault = r->fault;
   f->target = r->target;
   const char *name = r->c.shaders[r->c.cases[i].shader].name, *slash = strrchr(name, '/');
   snprintf(f->shader, sizeof(f->shader), "%s", slash ? slash + 1 : name);
   struct diff_repro rp;
   if (!(f->have = make_repro(r, (unsigned)i, &rp, d)))
      return;
   if (a->bisect)
      follow_bisect(a, &rp, f, d);
   if (a->reduce)
      follow_reduce(a, &rp, f, d);
   diff_repro_free(&rp);
}

/* Whether bisect named one transformation, in the fault's own pass, and
 * that is the fault's firing ("fault NAME: ..."). */
static bool
bisect_match(const struct follow *f)
{
   const char *name = opt_fault_info[f->fault].name;
   size_t n = strlen(name);
   return f->outcome == DIFF_BISECT_FOUND && f->pass &&
          opt_fault_in_pass((enum opt_fault)f->fault, f->pass) && !strncmp(f->what, "fault ", 6) &&
          !strncmp(f->what + 6, name, n) && f->what[6 + n] == ':';
}

/* With the firings hidden: the stage the fault sits in -- its pass, or
 * the liveness for the faults hooked in every stage that asks it. */
static bool
stage_match(const struct follow *f)
{
   enum opt_fault x = (enum opt_fault)f->fault;
   bool live = opt_fault_in_pass(x, "sched") && opt_fault_in_pass(x, "ra") &&
               opt_fault_in_pass(x, "legalize");
   if (f->stage < 0 && f->outcome == DIFF_BISECT_FOUND && f->pass) /* an optional rewrite */
      return !live && opt_fault_in_pass(x, f->pass);
   if (f->stage < 0)
      return false;
   const char *st = opt_stage_names[f->stage];
   return live ? !strcmp(st, "live") : opt_fault_in_pass(x, st);
}

/* Whether text holds the token id, not as the start of a longer number. */
static bool
has_token(const char *text, const char *id)
{
   size_t n = strlen(id);
   for (const char *q = text ? strstr(text, id) : NULL; q; q = strstr(q + 1, id))
      if (!isdigit((unsigned char)q[n]))
         return true;
   return false;
}

/* Whether the items named hold the instance the firing names: a value
 * ("%N"), a branch target of the program ("target N"), an agx machine
 * instruction ("#N") or a slot the hazard stage implies at the end of a
 * block ("@N:branch", opt_hazard.c). */
static bool
item_match(const struct follow *f)
{
   static const char *const kinds[] = {"%", "target ", "#", "@"};
   if ((!f->items && !f->notes) || !f->firing)
      return false;
   for (unsigned k = 0; k < ARRAY_SIZE(kinds); k++)
      for (const char *p = strstr(f->firing, kinds[k]); p; p = strstr(p + 1, kinds[k])) {
         char id[24];
         size_t h = strlen(kinds[k]), n = h + strspn(p + h, "0123456789");
         if (n == h || n >= sizeof(id))
            continue;
         if (p[n] == ':' && *kinds[k] == '@') /* the slot's kind */
            n += 1 + strspn(p + n + 1, "abcdefghijklmnopqrstuvwxyz_");
         if (n >= sizeof(id))
            continue;
         snprintf(id, sizeof(id), "%.*s", (int)n, p);
         if (has_token(f->items, id) || has_token(f->notes, id))
            return true;
      }
   return false;
}

/* --hide-firings: the stage search's table. */
static unsigned
print_stages(const struct follows *fs, unsigned *nitems, unsigned *items_ok)
{
   unsigned match = 0;
   printf("\nbisect, the fault's firings hidden: the stage (and items) named\n");
   printf("%-26s %-6s %-17s %-9s %-5s %-5s %6s %7s  %-28s %s\n", "FAULT", "TARGET", "PASS", "STAGE",
          "MATCH", "ITEM", "PROBES", "SECONDS", "SHADER", "ITEMS");
   for (unsigned k = 0; k < fs->n; k++) {
      const struct follow *f = &fs->v[k];
      bool m = stage_match(f);
      enum opt_fault_class cls = opt_fault_info[f->fault].cls;
      bool ask = m && f->stage >= 0 && (cls == OPT_FCLASS_SCHEDULE || cls == OPT_FCLASS_LEGALIZE);
      bool im = item_match(f);
      match += m;
      *nitems += ask;
      *items_ok += ask && im;
      char stage[24];
      snprintf(stage, sizeof(stage), "%s%s",
               f->stage >= 0 ? opt_stage_names[f->stage]
               : f->pass     ? f->pass
                             : "-",
               f->combo ? "+" : "");
      printf("%-26s %-6s %-17s %-9s %-5s %-5s %6u %7.1f  %-28s %s\n", opt_fault_info[f->fault].name,
             f->target, opt_fault_info[f->fault].pass, stage, m ? "yes" : "NO",
             !ask ? "-"
             : im ? "yes"
                  : "NO",
             f->probes, f->bisect_s, f->shader,
             f->items  ? f->items
             : f->what ? f->what
                       : "");
   }
   printf("stage named: %u/%u pairs; instruction named (hazard and legalization faults): %u/%u\n",
          match, fs->n, *items_ok, *nitems);
   return match;
}

static const char *const outcome_names[] = {
    [DIFF_BISECT_FOUND] = "found",        [DIFF_BISECT_RANGE] = "range",
    [DIFF_BISECT_NO_FAILURE] = "no-fail", [DIFF_BISECT_NOT_OPT] = "not-opt",
    [DIFF_BISECT_NO_GOOD] = "no-good",    [DIFF_BISECT_UNTESTABLE] = "untestable",
};

static unsigned
print_bisect(const struct follows *fs)
{
   unsigned match = 0, firings = 0;
   printf("\nbisect: the first failing case of each pair, replayed with the fault injected\n");
   printf("%-26s %-6s %-11s %-9s %-5s %-9s %6s %7s  %-31s %s\n", "FAULT", "TARGET", "PASS", "NAMED",
          "MATCH", "INDEX", "PROBES", "SECONDS", "SHADER", "TRANSFORMATION");
   for (unsigned k = 0; k < fs->n; k++) {
      const struct follow *f = &fs->v[k];
      char index[32] = "-";
      if (f->pass && f->outcome == DIFF_BISECT_FOUND)
         snprintf(index, sizeof(index), "%lld/%u%s", f->index, f->nxforms, f->firings ? "*" : "");
      else if (f->pass)
         snprintf(index, sizeof(index), "%lld-%lld/%u%s", f->good + 1, f->index, f->nxforms,
                  f->firings ? "*" : "");
      firings += f->firings;
      bool m = bisect_match(f);
      match += m;
      printf("%-26s %-6s %-11s %-9s %-5s %-9s %6u %7.1f  %-31s %s\n", opt_fault_info[f->fault].name,
             f->target, opt_fault_info[f->fault].pass,
             f->pass   ? f->pass
             : f->have ? outcome_names[f->outcome]
                       : "-",
             m ? "yes" : "NO", index, f->probes, f->bisect_s, f->shader, f->what ? f->what : "");
   }
   if (firings)
      printf("*: limit 0 (no optional change) gave no good run: the fault's firings alone "
             "counted (%u)\n",
             firings);
   printf("bisect: %u/%u pairs named one transformation, the fault's firing in its own pass\n",
          match, fs->n);
   return match;
}

static int
cmp_unsigned(const void *a, const void *b)
{
   unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
   return (x > y) - (x < y);
}

static void
print_reduce(const struct follows *fs, double budget)
{
   printf("\nreduce: the first failing case of each pair, %.0f s each at most\n", budget);
   printf("%-26s %-6s %-31s %13s %15s %6s %7s\n", "FAULT", "TARGET", "SHADER", "INSTRUCTIONS",
          "LANES", "RUNS", "SECONDS");
   unsigned *before = xcalloc(fs->n + 1, sizeof(unsigned));
   unsigned *after = xcalloc(fs->n + 1, sizeof(unsigned)), n = 0;
   for (unsigned k = 0; k < fs->n; k++) {
      const struct follow *f = &fs->v[k];
      const struct diff_reduce_stats *st = &f->st;
      if (f->reduced != DIFF_REDUCE_OK) {
         printf("%-26s %-6s %-31s %s\n", opt_fault_info[f->fault].name, f->target, f->shader,
                f->have ? diff_reduce_status_names[f->reduced] : "no reproducer");
         continue;
      }
      before[n] = st->insns_before;
      after[n++] = st->insns_after;
      char insns[32], lanes[32];
      snprintf(insns, sizeof(insns), "%u -> %u", st->insns_before, st->insns_after);
      snprintf(lanes, sizeof(lanes), "%u -> %u", st->lanes_before, st->lanes_after);
      printf("%-26s %-6s %-31s %13s %15s %6llu %6.1f%s\n", opt_fault_info[f->fault].name, f->target,
             f->shader, insns, lanes, (unsigned long long)st->tests, st->seconds,
             st->budget_hit ? "+" : "");
   }
   qsort(before, n, sizeof(unsigned), cmp_unsigned);
   qsort(after, n, sizeof(unsigned), cmp_unsigned);
   if (n)
      printf("reduce: %u/%u reduced; median %u -> %u TGSI instructions (+: budget spent)\n", n,
             fs->n, before[n / 2], after[n / 2]);
   free(before);
   free(after);
}

static int
bench(const struct bench_args *a)
{
   char **targets;
   unsigned nt, pairs = 0, caught = 0, whole = 0, whole_caught = 0;
   if (!target_names(a->targets, &targets, &nt))
      return EXIT_USAGE;
   struct bases bases = {0};
   struct follows fs = {0};
   struct diag_list d = {0};
   bool usage = false;
   double t0 = now_seconds(), follow_s = 0;
   printf("%-26s %-6s %-8s %-28s %-7s %7s  %s\n", "FAULT", "TARGET", "DETECTED", "SIGNALS",
          "SHADERS", "FIRST", "FIRST CAUGHT BY");
   for (int f = 0; f < OPT_FAULT_COUNT && !usage; f++) {
      const struct opt_fault_info *fi = &opt_fault_info[f];
      if (a->faults && !comma_list_has(a->faults, fi->name))
         continue;
      bool all = true, any_target = false;
      for (unsigned t = 0; t < nt && !usage; t++) {
         if (!opt_fault_on_target((enum opt_fault)f, targets[t]))
            continue;
         const struct run *base = base_for(&bases, a, targets[t], fi->mode, &d);
         if (!base) {
            usage = true;
            break;
         }
         struct run r = {.a = a, .target = targets[t], .fault = f, .mode = fi->mode, .base = base};
         usage = !run_check(&r, &d);
         if (!usage)
            print_row(&r);
         if (!usage && (a->bisect || a->reduce)) {
            double t1 = now_seconds();
            follow_up(&r, &fs, &d);
            follow_s += now_seconds() - t1;
         }
         any_target = true;
         pairs++;
         caught += r.detected > 0;
         all &= r.detected > 0;
         diff_check_fini(&r.c);
      }
      whole += any_target;
      whole_caught += any_target && all;
   }
   print_diags(&d, stderr);
   diag_clear(&d);
   printf("\ndetection rate: %u/%u faults caught on every target they exist on; %u/%u "
          "fault-target pairs (%.1f%%)\n",
          whole_caught, whole, caught, pairs, pairs ? 100.0 * caught / pairs : 0.0);
   printf("fault-free runs: %u false positives with the default settings; %u cases fail in "
          "optional modes without a fault; %.1f s\n",
          bases.false_pos, bases.noise, now_seconds() - t0 - follow_s);
   if (a->bisect || a->reduce)
      printf("bisecting and reducing: %.1f s\n", follow_s);
   bool clean = bases.false_pos == 0, followed = true;
   if (a->hide) {
      unsigned ni = 0, iok = 0;
      followed = print_stages(&fs, &ni, &iok) == fs.n && iok == ni;
   } else if (a->bisect) {
      followed = print_bisect(&fs) == fs.n;
   }
   if (a->reduce)
      print_reduce(&fs, a->reduce_time);
   for (unsigned k = 0; k < fs.n; k++) {
      free(fs.v[k].pass);
      free(fs.v[k].what);
      free(fs.v[k].items);
      free(fs.v[k].notes);
      free(fs.v[k].firing);
   }
   free(fs.v);
   for (unsigned i = 0; i < bases.n; i++)
      diff_check_fini(&bases.v[i].c);
   free(bases.v);
   for (unsigned t = 0; t < nt; t++)
      free(targets[t]);
   free(targets);
   if (usage)
      return EXIT_USAGE;
   return caught == pairs && clean && followed ? EXIT_OK : EXIT_FAIL;
}

/* ------------------------------------------------------------------ */
/* Options                                                              */

static int
parse_option(int argc, char **argv, int *i, struct bench_args *a, bool *taken)
{
   const char *v;
   uint64_t n;
   *taken = true;
   if (opt_value(argc, argv, i, "--inject-fault", &v)) {
      struct opt_fault_set mask;
      struct diag_list d = {0};
      bool ok = v && opt_fault_parse(v, &mask, &d);
      print_diags(&d, stderr);
      diag_clear(&d);
      if (!ok)
         return v ? EXIT_USAGE : usage_error("--inject-fault takes a list of fault names");
      a->faults = v;
   } else if (opt_value(argc, argv, i, "--generated", &v)) {
      if (!v || !parse_u64(v, &n) || n > 1000000)
         return usage_error("--generated takes a number from 0 to 1000000");
      a->generated = (unsigned)n;
   } else if (opt_value(argc, argv, i, "--target", &v)) {
      if (!(a->targets = v))
         return usage_error("--target takes a list");
   } else if (opt_value(argc, argv, i, "--seed", &v)) {
      if (!v || !parse_u64(v, &a->o.seed))
         return usage_error("--seed takes an unsigned integer");
   } else if (opt_value(argc, argv, i, "--invocations", &v)) {
      if (!v || !parse_u64(v, &n) || !n || n > ENV_MAX_LANES)
         return usage_error("--invocations takes a number from 1 to %u", ENV_MAX_LANES);
      a->o.invocations = (uint32_t)n;
   } else if (opt_value(argc, argv, i, "-j", &v) || opt_value(argc, argv, i, "--jobs", &v)) {
      if (!v || !parse_u64(v, &n) || n > 1024)
         return usage_error("-j takes a number from 0 to 1024");
      a->o.jobs = (unsigned)n;
   } else if (!strncmp(argv[*i], "-j", 2) && argv[*i][2]) {
      if (!parse_u64(argv[*i] + 2, &n) || n > 1024)
         return usage_error("-j takes a number from 0 to 1024");
      a->o.jobs = (unsigned)n;
   } else if (opt_value(argc, argv, i, "--timeout", &v)) {
      if (!v || !parse_u64(v, &n) || n > 86400)
         return usage_error("--timeout takes seconds from 0 to 86400");
      a->o.timeout_ms = (unsigned)n * 1000;
   } else if (!strcmp(argv[*i], "--no-verify")) {
      a->o.no_verify = true;
   } else if (!strcmp(argv[*i], "--gen-sink")) {
      a->o.gen_no_sink = false;
   } else if (!strcmp(argv[*i], "--no-gen-sink")) {
      a->o.gen_no_sink = true;
   } else if (!strcmp(argv[*i], "--legacy")) {
      a->o.popts.legacy = true;
   } else if (!strcmp(argv[*i], "--hex-bits")) {
      a->o.popts.hex_bits = true;
   } else if (!strcmp(argv[*i], "-v") || !strcmp(argv[*i], "--verbose")) {
      a->verbose = true;
   } else if (!strcmp(argv[*i], "--bisect")) {
      a->bisect = true;
   } else if (!strcmp(argv[*i], "--hide-firings")) {
      a->bisect = a->hide = true;
   } else if (!strcmp(argv[*i], "--reduce")) {
      a->reduce = true;
   } else if (opt_value(argc, argv, i, "--time-limit", &v)) {
      char *end;
      double x = v ? strtod(v, &end) : 0;
      if (!v || end == v || *end || !(x > 0) || x > 86400)
         return usage_error("--time-limit takes seconds > 0");
      a->reduce_time = x;
   } else {
      *taken = false;
   }
   return EXIT_OK;
}

int
cmd_faults(int argc, char **argv)
{
   struct bench_args a = {0};
   struct diff_check defaults;
   diff_check_init(&defaults);
   a.o = defaults.o;
   diff_check_fini(&defaults);
   long cores = sysconf(_SC_NPROCESSORS_ONLN);
   a.o.jobs = cores > 0 ? (unsigned)cores : 1;
   a.o.timeout_ms = 300 * 1000;
   a.reduce_time = 30;
   bool check = false;
   int rc = EXIT_OK;
   for (int i = 1; i < argc && !rc; i++) {
      bool taken;
      if ((rc = parse_option(argc, argv, &i, &a, &taken)) || taken)
         continue;
      if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
         faults_usage(stdout);
         shader_args_free(&a.in);
         return EXIT_OK;
      } else if (!strcmp(argv[i], "--check")) {
         check = true;
      } else if (argv[i][0] == '-' && argv[i][1]) {
         rc = unknown_option("faults", argv[i]); /* an old spelling: its new name */
      } else {
         rc = shader_args_add(&a.in, argv[i]);
      }
   }
   if (!rc && check && !a.in.nfiles && !a.generated)
      rc = usage_error("faults --check takes the shader files to check (or --generated N)");
   if (!rc && !check &&
       (a.in.nfiles || a.faults || a.targets || a.bisect || a.reduce || a.generated))
      rc = usage_error(
          "files, --generated, --inject-fault, --target, --bisect and --reduce go with --check");
   if (!rc)
      rc = check ? bench(&a) : list_faults(a.verbose);
   shader_args_free(&a.in);
   return rc;
}
