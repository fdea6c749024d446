/*
 * diffcomp reduce REPRO.yaml: shrinks the shader and the inputs of a
 * reproducer written by 'diffcomp check' while the case keeps failing the
 * same way -- the same target and the same kind of signal -- and writes
 * the reduced reproducer, inputs included, so 'diffcomp repro' replays it.
 *
 * The predicate (diff/reduce_repro.c) is the check's own case runner, in a
 * worker process like the check's, so a crash or a hang of a candidate is
 * that candidate's result and the reduction goes on. The library never
 * prints; progress goes to stderr from here.
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
   const struct diff_repro *r;
   struct diff_repro_reduce rr;
   bool quiet, said_kept;
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

static void
on_progress(void *user, const struct diff_reduce_progress *p)
{
   struct reduce_cmd *rc = user;
   if (rc->quiet)
      return;
   if (!rc->said_kept) {
      rc->said_kept = true;
      fprintf(stderr, "reduce: keeping %s%s%s on %s\n", diff_signal_names[rc->rr.kind],
              rc->rr.step ? " at " : "", rc->rr.step ? rc->rr.step : "", rc->r->target);
   }
   if (p->insns == rc->last_insns && p->lanes == rc->last_lanes && strcmp(p->pass, "done"))
      return;
   rc->last_insns = p->insns;
   rc->last_lanes = p->lanes;
   fprintf(stderr, "reduce: %-12s %4u instructions %7u lanes  %6llu runs (%llu invalid)  %.1fs\n",
           p->pass, p->insns, p->lanes, (unsigned long long)p->stats->tests,
           (unsigned long long)p->stats->invalid, now() - rc->t0);
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

/* Writes the reduced reproducer and the figures. */
static int
finish(const struct reduce_cmd *rc, const char *out)
{
   if (!rc->rr.yaml || !write_out(out, rc->rr.yaml)) {
      fprintf(stderr, "%s: cannot write the reduced reproducer\n", prog_name);
      return EXIT_USAGE;
   }
   const struct diff_reduce_stats *st = &rc->rr.stats;
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
reduce(struct reduce_cmd *rc, const char *out)
{
   struct diag_list d = {0};
   rc->rr.o.progress = on_progress;
   rc->rr.o.progress_user = rc;
   enum diff_reduce_status st = diff_reduce_repro(rc->r, &rc->rr, &d);
   print_diags(&d, stderr);
   diag_clear(&d);
   if (st == DIFF_REDUCE_OK)
      return finish(rc, out);
   if (st == DIFF_REDUCE_NOT_FAILING && !rc->rr.kept)
      fprintf(stderr, "%s: %s: the case %s now; nothing to reduce\n", prog_name, rc->r->shader,
              rc->rr.original == DIFF_PASS ? "passes" : "does not fail");
   /* NOT_FAILING after a failure: flaky, it failed a moment ago */
   return st == DIFF_REDUCE_NOT_FAILING ? EXIT_FAIL : EXIT_USAGE;
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
         return unknown_option("reduce", argv[i]);
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
   rc.rr.o = a.o;
   rc.rr.timeout_ms = a.timeout_ms;
   rc.rr.jobs = a.jobs;
   rc.rr.same_step = a.same_step;
   rc.rr.inject = getenv("DIFFCOMP_CHECK_INJECT");
   struct diff_repro r;
   ret = EXIT_USAGE;
   if (load_repro(a.file, &r)) {
      rc.r = &r;
      ret = reduce(&rc, a.out);
      diff_repro_free(&r);
   }
   diff_repro_reduce_fini(&rc.rr);
   return ret;
}
