/*
 * Bisect against a hand-made bad transformation: from transformation K on,
 * opt's program is fs_fold_wrong.tgsi's (a different scale), so the case
 * fails with a ref/opt mismatch from limit K. For every K the search must
 * name K and the pass the BISECT log gives transformation K; limits that
 * do not compile or crash are skipped around (or, when they hide the step,
 * reported as a range); a case that does not fail, or fails with no
 * transformation at all, is said to be so. With a real fault injected
 * (missing-ss on a3xx) bisect names its firing; when limit 0 is a skip
 * counting every transformation, it counts the firings only and still
 * names it. A fault made while emitting (missing-jp) is shown in the
 * programs' listings.
 */
#include "compiler/compiler.h"
#include "compiler/ir/ir.h"
#include "diff/diff.h"
#include "isa/isa.h"
#include "util/test.h"

#include <stdlib.h>

#define FIX DC_SOURCE_DIR "/fixtures/bisect/"

static struct tgsi_shader *fold; /* fs_fold.tgsi */

static struct tgsi_shader *
load(const char *path)
{
   char *text, *err;
   size_t len;
   if (!read_file(path, &text, &len, &err)) {
      CHECKF(false, "%s", err);
      free(err);
      return NULL;
   }
   struct diag_list d = {0};
   struct tgsi_shader *s = tgsi_parse(text, len, path, NULL, &d);
   CHECK(s != NULL);
   diag_clear(&d);
   free(text);
   return s;
}

static enum compile_status
override(void *swap, const struct tgsi_shader *s, const struct isa_model *m,
         struct emu_program *out, struct diag_list *d)
{
   struct opt_options o = {.bisect_limit = -1};
   return diff_bisect_swap_compile(swap, s, m, &o, out, NULL, d) ? COMPILE_OK : COMPILE_ERROR;
}

/* The reproducer the check writes for fs_fold on a3xx with opt swapped
 * from transformation `from` on (no swap: from < 0). */
static bool
make_repro(struct diff_bisect_swap *w, long long from, struct diff_repro *r)
{
   struct diag_list d = {0};
   struct diff_check c;
   diff_check_init(&c);
   c.o.invocations = 64;
   c.o.jobs = 0;
   CHECK(diff_check_add_targets(&c, "a3xx", &d));
   diff_check_add_shader(&c, FIX "fs_fold.tgsi", NULL);
   diff_check_make_cases(&c, 1, 1);
   struct diff_bisect_swap all = *w;
   all.from = from;
   if (from >= 0) {
      c.opt_override = override;
      c.opt_override_ctx = &all;
   }
   diff_check_run(&c, NULL, NULL);
   char *text, *err;
   size_t len;
   CHECK(read_file(FIX "fs_fold.tgsi", &text, &len, &err));
   char *y = diff_repro_yaml(&c, 0, text);
   bool ok = diff_repro_parse(y, strlen(y), "test.yaml", r, &d);
   CHECKF(ok, "%s", diag_first_error(&d) ? diag_first_error(&d) : "?");
   free(y);
   free(text);
   diag_clear(&d);
   diff_check_fini(&c);
   return ok;
}

/* The pass of every transformation, as the BISECT log of one compile
 * says: passes[k - 1] is transformation k's; their number returned. */
static long long
logged_passes(const struct tgsi_shader *s, char ***passes)
{
   struct diag_list d = {0};
   struct isa_model *m = NULL;
   isa_open("a3xx", &m, &d);
   struct opt_options o = {.bisect = true, .bisect_limit = -1};
   struct emu_program p;
   char *log = NULL;
   CHECK(m && opt_compile(s, m, &o, &p, NULL, &log, &d) == COMPILE_OK);
   emu_program_free(&p);
   long long total = 0;
   size_t cap = 0;
   *passes = NULL;
   for (const char *l = log; l && (l = strstr(l, "BISECT: pass ")); l++) {
      char name[64];
      long long n;
      if (sscanf(l, "BISECT: pass %63s transformation %lld", name, &n) == 2 && n == total + 1) {
         VEC_RESERVE(*passes, cap, (size_t)n);
         (*passes)[total++] = xstrdup(name);
      }
   }
   free(log);
   isa_close(m);
   diag_clear(&d);
   return total;
}

static void
run(struct diff_bisect_swap *w, const struct diff_repro *r, unsigned jobs, struct diff_bisect *b)
{
   struct diag_list d = {0};
   diff_bisect_init(b);
   b->jobs = jobs;
   b->timeout_ms = 60000;
   b->compile = diff_bisect_swap_compile;
   b->compile_ctx = w;
   CHECK(diff_bisect_run(r, b, &d));
   diag_clear(&d);
}

/* Every K from 1 to the last is found, with its pass and both IR views.
 * One reproducer serves every K: the unlimited run it records is the
 * swapped program's whatever K is (make_repro), so it is the same file. */
static void
test_every_k(struct diff_bisect_swap *w)
{
   char **passes = NULL;
   long long npasses = logged_passes(fold, &passes), total = npasses;
   CHECKF(total >= 12, "fs_fold makes only %lld transformations", total);
   CHECK(total && !strcmp(passes[0], "copyprop")); /* MOV TEMP[0], IN[0] goes first */
   struct diff_repro r;
   if (!make_repro(w, 1, &r))
      total = 0;
   for (long long k = 1; k <= total; k++) {
      w->from = k;
      struct diff_bisect b;
      run(w, &r, 0, &b);
      const char *pass = passes[k - 1];
      CHECKF(b.outcome == DIFF_BISECT_FOUND && b.bad == k && b.good == k - 1,
             "K %lld: outcome %d good %lld bad %lld", k, b.outcome, b.good, b.bad);
      CHECK_EQ_U(b.nxforms, (unsigned)total);
      CHECKF(b.bad >= 1 && b.bad <= b.nxforms && !strcmp(b.xforms[b.bad - 1].pass, pass),
             "K %lld: pass %s, log says %s", k,
             b.bad >= 1 && b.bad <= b.nxforms ? b.xforms[b.bad - 1].pass : "-", pass);
      char head[64];
      snprintf(head, sizeof(head), "IR at transformation %lld (after ", k);
      CHECK(b.ir_before && b.ir_after && !strncmp(b.ir_before, head, strlen(head)) &&
            !strncmp(b.ir_after, head, strlen(head)) && strcmp(b.ir_before, b.ir_after));
      /* a binary search: about log2(total) probes past -1 and 0, plus the pass step */
      CHECKF(b.nprobes <= 16, "K %lld: %u probes", k, b.nprobes);
      diff_bisect_fini(&b);
   }
   if (total)
      diff_repro_free(&r);
   for (long long k = 0; k < npasses; k++)
      free(passes[k]);
   free(passes);
}

/* Limits that do not compile are searched around; when they sit right
 * below K the answer is the range. A crash (worker process) is a skip. */
static void
test_skips(struct diff_bisect_swap *w)
{
   struct diff_repro r;
   CHECK(make_repro(w, 7, &r));
   w->from = 7;
   struct diff_bisect b;

   w->skip_lo = 8, w->skip_hi = 11;
   run(w, &r, 0, &b);
   CHECK(b.outcome == DIFF_BISECT_FOUND && b.bad == 7);
   diff_bisect_fini(&b);

   w->skip_lo = 4, w->skip_hi = 6;
   run(w, &r, 0, &b);
   CHECKF(b.outcome == DIFF_BISECT_RANGE && b.good == 3 && b.bad == 7, "outcome %d %lld..%lld",
          b.outcome, b.good, b.bad);
   unsigned skips = 0;
   for (unsigned i = 0; i < b.nprobes; i++)
      skips += b.probes[i].v == DIFF_BISECT_SKIP;
   CHECK_EQ_U(skips, 3);
   diff_bisect_fini(&b);

   w->skip_lo = w->skip_hi = 0, w->crash_at = 6;
   run(w, &r, 1, &b);
   CHECKF(b.outcome == DIFF_BISECT_RANGE && b.good == 5 && b.bad == 7, "outcome %d %lld..%lld",
          b.outcome, b.good, b.bad);
   const char *crash = NULL;
   for (unsigned i = 0; i < b.nprobes; i++)
      if (b.probes[i].limit == 6 && b.probes[i].v == DIFF_BISECT_SKIP)
         crash = b.probes[i].why;
   CHECKF(crash && strstr(crash, "crash") && strstr(crash, "SIGSEGV"), "%s", crash ? crash : "-");
   diff_bisect_fini(&b);
   w->crash_at = 0;

   /* limit 0 itself a skip: no good end */
   w->skip_lo = 0, w->skip_hi = 2;
   run(w, &r, 0, &b);
   CHECK(b.outcome == DIFF_BISECT_NO_GOOD);
   diff_bisect_fini(&b);
   w->skip_hi = 0;
   diff_repro_free(&r);
}

static void
test_no_failure(struct diff_bisect_swap *w)
{
   struct diff_repro r;
   struct diff_bisect b;
   /* recorded as failing, passes now (the swap is gone) */
   CHECK(make_repro(w, 3, &r));
   CHECK(r.seen.status == DIFF_FAIL);
   diff_bisect_init(&b);
   struct diag_list d = {0};
   CHECK(diff_bisect_run(&r, &b, &d));
   CHECK(b.outcome == DIFF_BISECT_NO_FAILURE && b.nprobes == 1 &&
         b.probes[0].v == DIFF_BISECT_GOOD);
   diff_bisect_fini(&b);
   diff_repro_free(&r);
   /* a passing case */
   CHECK(make_repro(w, -1, &r));
   CHECK(r.seen.status == DIFF_PASS);
   run(w, &r, 0, &b);
   CHECK(b.outcome == DIFF_BISECT_NO_FAILURE);
   diff_bisect_fini(&b);
   diff_repro_free(&r);
   /* bad with no transformation at all */
   CHECK(make_repro(w, 0, &r));
   w->from = 0;
   run(w, &r, 0, &b);
   CHECK(b.outcome == DIFF_BISECT_NOT_OPT && b.nprobes == 2);
   diff_bisect_fini(&b);
   diff_repro_free(&r);
   /* opt-asm: nothing of opt's to bisect */
   CHECK(make_repro(w, 5, &r));
   r.opt_asm = xstrdup("x.s");
   diff_bisect_init(&b);
   CHECK(diff_bisect_run(&r, &b, &d));
   CHECK(b.outcome == DIFF_BISECT_UNTESTABLE && b.nprobes == 0);
   diff_bisect_fini(&b);
   diff_repro_free(&r);
   diag_clear(&d);
}

/* Same probes, same order, in process and in worker processes. */
static void
test_deterministic(struct diff_bisect_swap *w)
{
   struct diff_repro r;
   CHECK(make_repro(w, 9, &r));
   w->from = 9;
   struct diff_bisect a, b;
   run(w, &r, 0, &a);
   run(w, &r, 2, &b);
   CHECK(a.nprobes == b.nprobes && a.outcome == b.outcome && a.bad == b.bad);
   for (unsigned i = 0; i < a.nprobes && i < b.nprobes; i++)
      CHECK(a.probes[i].limit == b.probes[i].limit && a.probes[i].v == b.probes[i].v &&
            !strcmp(a.probes[i].why, b.probes[i].why));
   diff_bisect_fini(&a);
   diff_bisect_fini(&b);
   diff_repro_free(&r);
}

/* Bisects r in this process. */
static void
bisect_here(const struct diff_repro *r, struct diff_bisect *b, struct diag_list *d)
{
   diff_bisect_init(b);
   b->jobs = 0;
   CHECK(diff_bisect_run(r, b, d));
}

/* A reproducer of fixtures/faults/fs_mixed.tgsi with one fault on a3xx. */
static bool
fault_repro(struct diff_repro *r, enum opt_fault fault)
{
   const char *path = DC_SOURCE_DIR "/fixtures/faults/fs_mixed.tgsi";
   struct diag_list d = {0};
   struct diff_check c;
   diff_check_init(&c);
   c.o.invocations = 64;
   c.o.jobs = 0;
   opt_fault_set_add(&c.o.faults, (int)fault);
   CHECK(diff_check_add_targets(&c, "a3xx", &d));
   diff_check_add_shader(&c, path, NULL);
   diff_check_make_cases(&c, 1, 1);
   diff_check_run(&c, NULL, NULL);
   CHECK(c.results[0].status == DIFF_FAIL);
   char *text, *err;
   size_t len;
   bool ok = read_file(path, &text, &len, &err);
   CHECK(ok);
   char *y = ok ? diff_repro_yaml(&c, 0, text) : NULL;
   ok = y && diff_repro_parse(y, strlen(y), "fault.yaml", r, &d);
   CHECK(ok && opt_fault_set_eq(&r->o.faults, &c.o.faults));
   free(y);
   free(text);
   diag_clear(&d);
   diff_check_fini(&c);
   return ok;
}

/* Bisect names one transformation, in pass `pass`, described as `what...`. */
static void
check_named(const struct diff_bisect *b, const char *pass, const char *what)
{
   CHECK_EQ_U(b->outcome, DIFF_BISECT_FOUND);
   const struct diff_bisect_xform *x = b->bad > 0 ? &b->xforms[b->bad - 1] : NULL;
   CHECKF(x && !strcmp(x->pass, pass) && !strncmp(x->what, what, strlen(what)), "named %s: %s",
          x ? x->pass : "-", x ? x->what : "-");
}

/* The named transformation is missing-ss's firing, in pass hazard. */
static void
check_firing(const struct diff_bisect *b)
{
   check_named(b, "hazard", "fault missing-ss: no (ss)");
}

static void
test_fault_firings(const struct tgsi_shader *mixed)
{
   struct diff_repro r;
   if (!fault_repro(&r, OPT_FAULT_MISSING_SS))
      return;
   struct diag_list d = {0};
   struct diff_bisect b;
   bisect_here(&r, &b, &d);
   check_firing(&b);
   CHECK(!b.fell_back && !b.firings && b.nxforms > 1);
   long long all = b.nxforms, at = b.bad;
   diff_bisect_fini(&b);

   /* Firings only: every transformation listed is one, and the same one is named. */
   diff_bisect_init(&b);
   b.jobs = 0;
   b.firings = true;
   CHECK(diff_bisect_run(&r, &b, &d));
   check_firing(&b);
   CHECK(b.nxforms < all && b.bad <= at);
   for (unsigned i = 0; i < b.nxforms; i++)
      CHECK(!strncmp(b.xforms[i].what, "fault missing-ss: ", 18));
   diff_bisect_fini(&b);

   /* Limit 0 a skip counting everything: the firings are counted instead. */
   struct diff_bisect_swap w = {
       .from = 1ll << 62, .skip_lo = 0, .skip_hi = 3, .skip_all_counted = true, .other = mixed};
   diff_bisect_init(&b);
   b.jobs = 0;
   b.compile = diff_bisect_swap_compile;
   b.compile_ctx = &w;
   CHECK(diff_bisect_run(&r, &b, &d));
   check_firing(&b);
   CHECK(b.fell_back && b.firings);
   diff_bisect_fini(&b);
   diag_clear(&d);
   diff_repro_free(&r);
}

/* A fault that fires while emitting (missing-jp) leaves the IR alone: the
 * result carries the two programs, which differ in the (jp) flag. */
static void
test_emit_fault(void)
{
   struct diff_repro r;
   if (!fault_repro(&r, OPT_FAULT_MISSING_JP))
      return;
   struct diag_list d = {0};
   struct diff_bisect b;
   bisect_here(&r, &b, &d);
   check_named(&b, "emit", "fault missing-jp: ");
   CHECK(!b.ir_before && !b.ir_after);
   CHECK(b.code_before && b.code_after && strcmp(b.code_before, b.code_after));
   CHECK(b.code_before && b.code_after &&
         strlen(b.code_before) == strlen(b.code_after) + strlen("(jp)"));
   diff_bisect_fini(&b);
   diag_clear(&d);
   diff_repro_free(&r);
}

int
main(void)
{
   struct diff_bisect_swap w = {0};
   struct tgsi_shader *wrong = load(FIX "fs_fold_wrong.tgsi");
   fold = load(FIX "fs_fold.tgsi");
   if (!wrong || !fold)
      return test_done();
   w.other = wrong;
   test_every_k(&w);
   test_skips(&w);
   test_no_failure(&w);
   test_deterministic(&w);
   struct tgsi_shader *mixed = load(DC_SOURCE_DIR "/fixtures/faults/fs_mixed.tgsi");
   if (mixed)
      test_fault_firings(mixed);
   test_emit_fault();
   tgsi_shader_free(mixed);
   tgsi_shader_free(wrong);
   tgsi_shader_free(fold);
   return test_done();
}
