/*
 * diffcomp repro FILE.yaml: replays one reproducer written by the check --
 * the same shader text, target, seed, invocations and options, in a worker
 * process like the check's, so a crash replays as a crash -- and prints the
 * case's lines exactly as the check does, then whether the recorded
 * failure reproduced.
 */
#include "diff/diff.h"
#include "tools/tools.h"

#include <stdlib.h>
#include <string.h>

static void
repro_usage(FILE *f)
{
   fprintf(f, "usage: diffcomp repro FILE.yaml [--timeout SEC] [--no-fork]\n\n"
              "Replays a reproducer written by 'diffcomp check' (in --repro-dir) and prints\n"
              "the case's failure lines as the check does, then whether they match the\n"
              "recorded ones.\n\n"
              "  --timeout SEC  kill the case after SEC seconds (default 300; 0 = none)\n"
              "  --no-fork      run in this process (for a debugger; no crash isolation)\n\n"
              "Exit status: 1 the case fails (or cannot be checked) again, 0 it passes now,\n"
              "2 bad usage or an unreadable reproducer.\n");
}

static int
replay(struct diff_repro *r, struct diff_check *c)
{
   struct diag_list d = {0};
   bool ok = diff_repro_setup(r, c, &d);
   print_diags(&d, stderr);
   diag_clear(&d);
   if (!ok)
      return EXIT_USAGE;
   char *why;
   if (!diff_repro_lanes_match(r, c, &why)) {
      fprintf(stderr,
              "%s: warning: the inputs differ from the recorded ones (%s); the "
              "replay is not exact\n",
              prog_name, why);
      free(why);
   }
   c->inject = getenv("DIFFCOMP_CHECK_INJECT");
   diff_check_run(c, NULL, NULL);
   const struct diff_case_result *got = &c->results[0];
   char *lines = diff_case_lines(c, 0);
   printf("%s\n", lines);
   free(lines);
   bool same = diff_repro_same(&r->seen, got);
   if (same)
      printf("reproduced: %s with the recorded signals\n", diff_status_names[got->status]);
   else
      printf("not reproduced: recorded %s%s%s, now %s\n", diff_status_names[r->seen.status],
             r->seen.nsig ? ": " : "", r->seen.nsig ? r->seen.sig[0].msg : "",
             diff_status_names[got->status]);
   return got->status == DIFF_PASS || got->status == DIFF_SKIP || got->status == DIFF_NA
              ? EXIT_OK
              : EXIT_FAIL;
}

int
cmd_repro(int argc, char **argv)
{
   const char *file = NULL, *v;
   struct diff_check c;
   diff_check_init(&c);
   c.o.timeout_ms = 300 * 1000;
   for (int i = 1; i < argc; i++) {
      uint64_t n;
      if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
         repro_usage(stdout);
         return EXIT_OK;
      } else if (opt_value(argc, argv, &i, "--timeout", &v)) {
         if (!v || !parse_u64(v, &n) || n > 86400)
            return usage_error("--timeout takes seconds from 0 to 86400");
         c.o.timeout_ms = (unsigned)n * 1000;
      } else if (!strcmp(argv[i], "--no-fork")) {
         c.o.jobs = 0;
      } else if (argv[i][0] == '-' && argv[i][1]) {
         return usage_error("repro: unknown option '%s' (see diffcomp repro --help)", argv[i]);
      } else if (file) {
         return usage_error("repro: one reproducer at a time");
      } else {
         file = argv[i];
      }
   }
   if (!file) {
      repro_usage(stderr);
      return EXIT_USAGE;
   }
   struct diff_repro r;
   int rc = EXIT_USAGE;
   if (load_repro(file, &r)) {
      rc = replay(&r, &c);
      diff_repro_free(&r);
   }
   diff_check_fini(&c);
   return rc;
}
