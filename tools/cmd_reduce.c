/*
 * diffcomp reduce REPRO.yaml: shrinks the shader and the inputs of a
 * reproducer written by 'diffcomp check' while the case keeps failing the
 * same way -- the same target and the same kind of signal -- and writes
 * the reduced reproducer, inputs included, so 'diffcomp repro' replays it.
 *
 * The predicate is the check's own case runner (diff_check_run), in a
 * worker process like the check's, so a crash or a hang of a candidate is
 * that candidate's result and the reduction goes on. The reducer itself
 * (diff/reduce.c) never prints; progress goes to stderr from here.
 */
#include "diff/diff.h"
#include "tools/tools.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static void
reduce_usage(FILE *f)
{
   fprintf(f, "usage: diffcomp reduce REPRO.yaml [-o OUT.yaml] [--time-limit SEC] [--max-tests N]\n"
              "                       [--timeout SEC] [--same-step] [--no-inputs] [--no-fork]\n"
              "                       [--quiet]\n\n"
              "Shrinks the shader and the inputs of a reproducer written by 'diffcomp check'\n"
              "while the case still fails the same way (same target, same kind of signal),\n"
              "and writes the reduced reproducer (with its inputs) to OUT, or to stdout.\n"
              "Progress goes to stderr.\n\n"
              "  -o OUT            write the reduced reproducer to OUT\n"
              "  --time-limit SEC  stop after SEC seconds with the best so far (default: none)\n"
              "  --max-tests N     stop after N runs of the case with the best so far\n"
              "  --timeout SEC     kill one run of the case after SEC seconds (default 60)\n"
              "  --same-step       the failing step must match too (e.g. ref/opt), not only\n"
              "                    the kind of signal\n"
              "  --no-inputs       keep the inputs as they are (shader only)\n"
              "  --no-fork         run the case in this process (no crash isolation)\n"
              "  --quiet           no progress lines\n\n"
              "Exit status: 0 reduced, 1 the reproducer does not fail (nothing to reduce),\n"
              "2 bad usage, an unreadable reproducer or a write error.\n");
}

struct reduce_cmd {
   struct diff_check c;
   struct diff_repro r;
   struct tgsi_parse_opts po; /* the shader's dialect: options plus its own line */
   enum diff_signal_kind kind;
   char *step;                   /* with --same-step */
   bool ref_sig[DIFF_SIG_COUNT]; /* kinds the original run showed */
   bool quiet;
   double t0;
   unsigned last_insns;
   uint32_t last_lanes;
};

static double
now(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The text of s as the case runner reads it: the dialect line first when
 * the shader needs one the command line does not give. */
static char *
shader_text(const struct reduce_cmd *rc, const struct tgsi_shader *s)
{
   char *body = tgsi_print(s);
   bool legacy = rc->po.legacy && !rc->c.o.popts.legacy;
   bool hex = rc->po.hex_bits && !rc->c.o.popts.hex_bits;
   if (!legacy && !hex)
      return body;
   char *t = xasprintf("# dialect:%s%s\n%s", legacy ? " legacy" : "", hex ? " hex-bits" : "", body);
   free(body);
   return t;
}

/* Runs the one case on text and inputs; the result is c.results[0]. */
static const struct diff_case_result *
run_case(struct reduce_cmd *rc, char *text, const struct env *inputs)
{
   struct diff_check *c = &rc->c;
   free(c->shaders[0].text);
   c->shaders[0].text = text;
   c->shaders[0].inputs = inputs;
   c->o.invocations = inputs->nlanes;
   diff_result_fini(&c->results[0]);
   diff_check_run(c, NULL, NULL);
   return &c->results[0];
}

static bool
has_signal(const struct diff_case_result *res, enum diff_signal_kind k, const char *step)
{
   for (unsigned i = 0; i < res->nsig; i++)
      if (res->sig[i].kind == k && (!step || !strcmp(res->sig[i].step, step)))
         return true;
   return false;
}

/* Signals that say the candidate could not be run at all. */
static bool
cannot_run(enum diff_signal_kind k)
{
   return k == DIFF_SIG_INPUT || k == DIFF_SIG_INTERP || k == DIFF_SIG_UNSUPPORTED ||
          k == DIFF_SIG_TIMEOUT;
}

static enum diff_reduce_verdict
still_fails(const struct tgsi_shader *cand, const struct env *inputs, void *user)
{
   struct reduce_cmd *rc = user;
   const struct diff_case_result *res = run_case(rc, shader_text(rc, cand), inputs);
   for (unsigned i = 0; i < res->nsig; i++) {
      enum diff_signal_kind k = res->sig[i].kind;
      if (k != rc->kind && cannot_run(k) && !rc->ref_sig[k])
         return DIFF_REDUCE_INVALID;
   }
   return has_signal(res, rc->kind, rc->step) ? DIFF_REDUCE_KEEP : DIFF_REDUCE_DISCARD;
}

static void
on_progress(void *user, const struct diff_reduce_progress *p)
{
   struct reduce_cmd *rc = user;
   if (rc->quiet ||
       (p->insns == rc->last_insns && p->lanes == rc->last_lanes && strcmp(p->pass, "done")))
      return;
   rc->last_insns = p->insns;
   rc->last_lanes = p->lanes;
   fprintf(stderr, "reduce: %-12s %4u instructions %7u lanes  %6llu runs (%llu invalid)  %.1fs\n",
           p->pass, p->insns, p->lanes, (unsigned long long)p->stats->tests,
           (unsigned long long)p->stats->invalid, now() - rc->t0);
}

/* The failure to keep: the first signal that fails the case. */
static bool
pick_failure(struct reduce_cmd *rc, const struct diff_case_result *res, bool same_step)
{
   for (unsigned i = 0; i < res->nsig; i++)
      rc->ref_sig[res->sig[i].kind] = true;
   for (unsigned i = 0; i < res->nsig; i++)
      if (diff_signal_status(res->sig[i].kind) == DIFF_FAIL) {
         rc->kind = res->sig[i].kind;
         rc->step = same_step ? xstrdup(res->sig[i].step) : NULL;
         return true;
      }
   return false;
}

static bool
write_out(const char *out, const char *text)
{
   if (!out) {
      fputs(text, stdout);
      return !ferror(stdout);
   }
   struct diag_list d = {0};
   bool ok = diff_write_atomic(out, text, &d);
   print_diags(&d, stderr);
   diag_clear(&d);
   return ok;
}

/* Runs the reduced case once more (its result goes in the reproducer)
 * and writes the reproducer. */
static int
finish(struct reduce_cmd *rc, const struct diff_reduce_result *res, const char *out)
{
   char *text = shader_text(rc, res->shader);
   run_case(rc, xstrdup(text), res->inputs);
   char *y = diff_repro_yaml(&rc->c, 0, text);
   bool ok = y && write_out(out, y);
   free(y);
   free(text);
   if (!ok) {
      fprintf(stderr, "%s: cannot write the reduced reproducer\n", prog_name);
      return EXIT_USAGE;
   }
   const struct diff_reduce_stats *st = &res->stats;
   fprintf(out ? stdout : stderr,
           "reduced: %u -> %u instructions, %u -> %u lanes; %llu runs (%llu invalid, %llu "
           "cached), %.1fs%s%s%s\n",
           st->insns_before, st->insns_after, st->lanes_before, st->lanes_after,
           (unsigned long long)st->tests, (unsigned long long)st->invalid,
           (unsigned long long)st->cache_hits, st->seconds,
           st->budget_hit ? " (budget spent: best so far)" : "", out ? "; wrote " : "",
           out ? out : "");
   return EXIT_OK;
}

static int
reduce(struct reduce_cmd *rc, struct diff_reduce_opts *o, bool same_step, const char *out)
{
   struct diag_list d = {0};
   const char *text = rc->r.text;
   rc->po = rc->c.o.popts;
   tgsi_read_dialect(text, strlen(text), &rc->po);
   struct tgsi_shader *s = tgsi_parse(text, strlen(text), rc->r.shader, &rc->po, &d);
   struct env *in = !s             ? NULL
                    : rc->r.inputs ? env_clone(rc->r.inputs)
                                   : diff_gen_inputs(s, rc->c.o.seed, rc->c.o.invocations, &d);
   int ret = EXIT_USAGE;
   if (!in)
      goto out;
   const struct diff_case_result *ref = run_case(rc, xstrdup(text), in);
   if (!pick_failure(rc, ref, same_step)) {
      fprintf(stderr, "%s: %s: the case %s now; nothing to reduce\n", prog_name, rc->r.shader,
              ref->status == DIFF_PASS ? "passes" : "does not fail");
      ret = EXIT_FAIL;
      goto out;
   }
   uint32_t lanes[DIFF_MAX_LANES];
   for (unsigned i = 0; i < ref->nlanes; i++)
      lanes[i] = ref->lanes[i].lane;
   o->fail_lanes = lanes;
   o->nfail_lanes = ref->nlanes;
   if (!rc->quiet)
      fprintf(stderr, "reduce: keeping %s%s%s on %s\n", diff_signal_names[rc->kind],
              rc->step ? " at " : "", rc->step ? rc->step : "", rc->r.target);
   o->still_fails = still_fails;
   o->user = rc;
   o->progress = on_progress;
   o->progress_user = rc;
   o->popts = rc->po;
   struct diff_reduce_result res;
   enum diff_reduce_status st = diff_reduce(s, in, o, &res, &d);
   if (st == DIFF_REDUCE_NOT_FAILING) /* flaky: it failed a moment ago */
      ret = EXIT_FAIL;
   else if (st == DIFF_REDUCE_OK)
      ret = finish(rc, &res, out);
   if (st == DIFF_REDUCE_OK)
      diff_reduce_result_fini(&res);
out:
   print_diags(&d, stderr);
   diag_clear(&d);
   env_free(in);
   tgsi_shader_free(s);
   return ret;
}

/* Seconds as a double option, > 0. */
static bool
parse_seconds(const char *v, double *out)
{
   char *end;
   double x = v ? strtod(v, &end) : 0;
   if (!v || end == v || *end || !(x > 0) || x > 1e7)
      return false;
   *out = x;
   return true;
}

struct reduce_args {
   const char *file, *out;
   struct diff_reduce_opts o;
   unsigned timeout_ms, jobs;
   bool same_step, quiet;
};

/* Returns -1 when the arguments are good, else the exit code. */
static int
parse_args(int argc, char **argv, struct reduce_args *a)
{
   const char *v;
   for (int i = 1; i < argc; i++) {
      uint64_t n;
      if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
         reduce_usage(stdout);
         return EXIT_OK;
      } else if (opt_value(argc, argv, &i, "-o", &v) || opt_value(argc, argv, &i, "--output", &v)) {
         if (!v)
            return usage_error("-o takes a file name");
         a->out = v;
      } else if (opt_value(argc, argv, &i, "--time-limit", &v)) {
         if (!parse_seconds(v, &a->o.time_limit))
            return usage_error("--time-limit takes a number of seconds > 0");
      } else if (opt_value(argc, argv, &i, "--max-tests", &v)) {
         if (!v || !parse_u64(v, &n) || !n)
            return usage_error("--max-tests takes a count > 0");
         a->o.max_tests = n;
      } else if (opt_value(argc, argv, &i, "--timeout", &v)) {
         if (!v || !parse_u64(v, &n) || n > 86400)
            return usage_error("--timeout takes seconds from 0 to 86400");
         a->timeout_ms = (unsigned)n * 1000;
      } else if (!strcmp(argv[i], "--same-step")) {
         a->same_step = true;
      } else if (!strcmp(argv[i], "--no-inputs")) {
         a->o.skip_inputs = true;
      } else if (!strcmp(argv[i], "--no-fork")) {
         a->jobs = 0;
      } else if (!strcmp(argv[i], "--quiet")) {
         a->quiet = true;
      } else if (argv[i][0] == '-' && argv[i][1]) {
         return usage_error("reduce: unknown option '%s' (see diffcomp reduce --help)", argv[i]);
      } else if (a->file) {
         return usage_error("reduce: one reproducer at a time");
      } else {
         a->file = argv[i];
      }
   }
   if (!a->file) {
      reduce_usage(stderr);
      return EXIT_USAGE;
   }
   return -1;
}

int
cmd_reduce(int argc, char **argv)
{
   struct reduce_args a = {.timeout_ms = 60 * 1000, .jobs = 1};
   int ret = parse_args(argc, argv, &a);
   if (ret >= 0)
      return ret;
   struct reduce_cmd rc;
   memset(&rc, 0, sizeof(rc));
   rc.quiet = a.quiet;
   rc.t0 = now();
   ret = EXIT_USAGE;
   if (load_repro(a.file, &rc.r)) {
      struct diag_list d = {0};
      diff_check_init(&rc.c);
      rc.c.o.timeout_ms = a.timeout_ms;
      rc.c.o.jobs = a.jobs;
      rc.c.inject = getenv("DIFFCOMP_CHECK_INJECT");
      if (diff_repro_setup(&rc.r, &rc.c, &d))
         ret = reduce(&rc, &a.o, a.same_step, a.out);
      print_diags(&d, stderr);
      diag_clear(&d);
      diff_check_fini(&rc.c);
      diff_repro_free(&rc.r);
   }
   free(rc.step);
   return ret;
}
