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
 * rate. Exit 1 when a fault goes undetected on one of its targets or the
 * default fault-free run has a false positive, 2 on bad usage or input.
 */
#include "compiler/ir/ir.h"
#include "diff/diff.h"
#include "tools/tools.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void
faults_usage(FILE *f)
{
   fprintf(f, "usage: diffcomp faults [-v]\n"
              "       diffcomp faults --check FILE.tgsi... [options]\n\n"
              "Lists the faults that can be injected into the optimizing compiler\n"
              "(diffcomp check --inject-fault NAME): name, class, targets, the pass the\n"
              "fault lives in, description; -v adds the real fix each one imitates and\n"
              "the check options it needs.\n\n"
              "--check runs the check on the files once with no fault (it must pass\n"
              "completely) and once per fault and target, and prints which signal caught\n"
              "each fault, on how many shaders, how soon, and the detection rate.\n\n"
              "  --fault LIST         only these faults (comma list)\n"
              "  --target LIST        only these targets (default: each built-in that opens)\n"
              "  --seed S             seed of the random inputs (default 1)\n"
              "  --invocations N      lanes per shader (default 1024)\n"
              "  -j N                 worker processes (default: cores)\n"
              "  --timeout SEC        per case (default 300; 0 = none)\n"
              "  --legacy, --hex-bits parser dialect\n"
              "  -v, --verbose        also the failing cases of each fault\n\n"
              "Exit status: 0 every fault detected and the fault-free run clean; 1 a fault\n"
              "went undetected or the fault-free run with the default settings failed; 2 bad\n"
              "usage or input.\n");
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
   printf("%-26s %-13s %-10s %-10s %s\n", "NAME", "CLASS", "TARGETS", "PASS", "DESCRIPTION");
   unsigned per_class[OPT_FCLASS_COUNT] = {0};
   for (int f = 0; f < OPT_FAULT_COUNT; f++) {
      const struct opt_fault_info *fi = &opt_fault_info[f];
      char mode[64];
      mode_options(fi->mode, mode, sizeof(mode));
      per_class[fi->cls]++;
      printf("%-26s %-13s %-10s %-10s %s%s%s%s\n", fi->name, opt_fault_class_names[fi->cls],
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
   const char **files;
   unsigned nfiles, files_cap;
   const char *faults, *targets;
   struct diff_check_opts o;
   bool verbose;
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

static double
now_seconds(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

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
      if (r->sig[i].kind == DIFF_SIG_UNSUPPORTED && !strcmp(r->sig[i].step, "opt"))
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
   r->c.o.faults = r->fault >= 0 ? 1ull << r->fault : 0;
   if (!diff_check_add_targets(&r->c, r->target, d))
      return false;
   for (unsigned i = 0; i < a->nfiles; i++)
      diff_check_add_shader(&r->c, a->files[i], NULL);
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

/* Whether name is in the comma list (NULL: everything). */
static bool
in_list(const char *list, const char *name)
{
   if (!list)
      return true;
   size_t n = strlen(name);
   for (const char *p = list; *p;) {
      size_t k = strcspn(p, ",");
      if (k == n && !strncmp(p, name, n))
         return true;
      p += k + (p[k] == ',');
   }
   return false;
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

static int
bench(const struct bench_args *a)
{
   char **targets;
   unsigned nt, pairs = 0, caught = 0, whole = 0, whole_caught = 0;
   if (!target_names(a->targets, &targets, &nt))
      return EXIT_USAGE;
   struct bases bases = {0};
   struct diag_list d = {0};
   bool usage = false;
   double t0 = now_seconds();
   printf("%-26s %-6s %-8s %-28s %-7s %7s  %s\n", "FAULT", "TARGET", "DETECTED", "SIGNALS",
          "SHADERS", "FIRST", "FIRST CAUGHT BY");
   for (int f = 0; f < OPT_FAULT_COUNT && !usage; f++) {
      const struct opt_fault_info *fi = &opt_fault_info[f];
      if (!in_list(a->faults, fi->name))
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
          bases.false_pos, bases.noise, now_seconds() - t0);
   bool clean = bases.false_pos == 0;
   for (unsigned i = 0; i < bases.n; i++)
      diff_check_fini(&bases.v[i].c);
   free(bases.v);
   for (unsigned t = 0; t < nt; t++)
      free(targets[t]);
   free(targets);
   if (usage)
      return EXIT_USAGE;
   return caught == pairs && clean ? EXIT_OK : EXIT_FAIL;
}

/* ------------------------------------------------------------------ */
/* Options                                                              */

static int
parse_option(int argc, char **argv, int *i, struct bench_args *a, bool *taken)
{
   const char *v;
   uint64_t n;
   *taken = true;
   if (opt_value(argc, argv, i, "--fault", &v)) {
      uint64_t mask;
      struct diag_list d = {0};
      bool ok = v && opt_fault_parse(v, &mask, &d);
      print_diags(&d, stderr);
      diag_clear(&d);
      if (!ok)
         return v ? EXIT_USAGE : usage_error("--fault takes a list of fault names");
      a->faults = v;
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
   } else if (!strcmp(argv[*i], "--legacy")) {
      a->o.popts.legacy = true;
   } else if (!strcmp(argv[*i], "--hex-bits")) {
      a->o.popts.hex_bits = true;
   } else if (!strcmp(argv[*i], "-v") || !strcmp(argv[*i], "--verbose")) {
      a->verbose = true;
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
   bool check = false;
   int rc = EXIT_OK;
   for (int i = 1; i < argc && !rc; i++) {
      bool taken;
      if ((rc = parse_option(argc, argv, &i, &a, &taken)) || taken)
         continue;
      if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
         faults_usage(stdout);
         free(a.files);
         return EXIT_OK;
      } else if (!strcmp(argv[i], "--check")) {
         check = true;
      } else if (argv[i][0] == '-' && argv[i][1]) {
         rc = usage_error("faults: unknown option '%s' (see diffcomp faults --help)", argv[i]);
      } else {
         VEC_PUSH(a.files, a.nfiles, a.files_cap, argv[i]);
      }
   }
   if (!rc && check && !a.nfiles)
      rc = usage_error("faults --check takes the shader files to check");
   if (!rc && !check && (a.nfiles || a.faults || a.targets))
      rc = usage_error("files, --fault and --target go with --check");
   if (!rc)
      rc = check ? bench(&a) : list_faults(a.verbose);
   free(a.files);
   return rc;
}
