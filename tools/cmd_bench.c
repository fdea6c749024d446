/*
 * diffcomp bench: speed figures. "bench interp" runs the golden
 * interpreter over shaders (default: the .tgsi files in captures/) at 65536 invocations
 * with random inputs and prints lane-instructions per second: the
 * instructions executed times the lanes of their batch, over the wall time
 * and CPU time of the interpreter runs alone (input generation excluded),
 * per shader and as the geometric mean over the shaders. --quads also runs
 * each shader one quad at a time (invocations / 4 runs of 4 lanes, as a
 * classic four-lane interpreter works) and compares.
 */
#include "compiler/tgsi/tgsi.h"
#include "diff/diff.h"
#include "emu/emu.h"
#include "tools/tools.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void
bench_usage(FILE *f)
{
   fprintf(f, "usage: diffcomp bench interp [--invocations N] [--seed S] [--max-steps N]\n"
              "                              [--repeat N] [--quads] [FILE.tgsi|DIR|@LIST...]\n"
              "       diffcomp bench emu [--target LIST] (see bench emu --help)\n"
              "       diffcomp bench compile [--sizes LIST] (see bench compile --help)\n"
              "       diffcomp bench latency [MODEL...] (see bench latency --help)\n\n"
              "Times the golden interpreter on each shader (default: captures/*.tgsi) and\n"
              "prints lane-instructions per second.\n\n"
              "  --invocations N  lanes per shader (default 65536)\n"
              "  --seed S         seed of the random inputs (default 1)\n"
              "  --max-steps N    the interpreter's budget per shader in lane-instructions\n"
              "                   (default: as diffcomp interp)\n"
              "  --repeat N       run each shader N times on the same inputs and keep the\n"
              "                   fastest run (default 1): steadier on a shared machine\n"
              "  --quads          also run each shader one quad at a time (N/4 runs of 4\n"
              "                   lanes, as a classic four-lane interpreter does) and print\n"
              "                   how many times faster the N-lane run is (CPU time)\n\n"
              "Per shader: lanes, instructions, wall time and lane-instructions per second;\n"
              "the last lines give the totals and the geometric means over the shaders of\n"
              "lane-instructions per wall and per CPU second.\n"
              "Shaders are parsed in the current dialect, or the legacy one if that fails.\n"
              "Exit status: 0 every shader ran, 1 some did not finish (step budget, ...),\n"
              "2 bad usage or a shader that cannot be read or parsed.\n");
}

static double
clock_s(clockid_t id)
{
   struct timespec ts;
   clock_gettime(id, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
cmp_str(const void *a, const void *b)
{
   return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The .tgsi files of captures/, sorted. */
static char **
default_files(unsigned *n)
{
   char **v = NULL;
   unsigned cap = 0;
   *n = 0;
   DIR *d = opendir("captures");
   if (!d)
      return NULL;
   for (struct dirent *de; (de = readdir(d));) {
      size_t l = strlen(de->d_name);
      if (l > 5 && !strcmp(de->d_name + l - 5, ".tgsi")) {
         char *p = xasprintf("captures/%s", de->d_name);
         VEC_PUSH(v, *n, cap, p);
      }
   }
   closedir(d);
   qsort(v, *n, sizeof(*v), cmp_str);
   return v;
}

struct tgsi_shader *
bench_parse_tgsi(const char *path)
{
   char *text, *err;
   size_t len;
   if (!read_file(path, &text, &len, &err)) {
      fprintf(stderr, "%s: %s\n", prog_name, err);
      free(err);
      return NULL;
   }
   struct tgsi_parse_opts o = {0};
   struct diag_list d = {0};
   struct tgsi_shader *s = tgsi_parse(text, len, path, &o, &d);
   if (!s) {
      diag_clear(&d);
      o.legacy = true;
      s = tgsi_parse(text, len, path, &o, &d);
   }
   if (!s)
      print_diags(&d, stderr);
   diag_clear(&d);
   free(text);
   return s;
}

struct bench_total {
   uint64_t lane_steps, lanes, insns;
   double secs, cpu;
   double log_rate, log_cpu_rate; /* sums of logs over the shaders timed */
   unsigned timed;
   double log_quad; /* sum of log(quad-run CPU time / batched CPU time) */
   unsigned quad_timed, quad_wins;
   unsigned failed;    /* ran but did not finish */
   unsigned bad_input; /* cannot be read, parsed or given inputs */
};

/* CPU seconds of the interpreter on s run one quad at a time (lanes / 4
 * runs of 4 invocations, inputs drawn per quad and not timed); < 0 when
 * the shader cannot run that way (a compute workgroup of more lanes). */
static double
quad_runs(const struct tgsi_shader *s, uint64_t seed, uint32_t lanes, uint64_t max_steps)
{
   double cpu = 0;
   for (uint32_t q = 0; q < lanes / 4; q++) {
      struct diag_list d = {0};
      struct env *e = diff_gen_inputs(s, seed + q, 4, &d);
      uint64_t steps = 0;
      struct tgsi_interp_opts o = {.max_steps = max_steps, .steps_out = &steps};
      double c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
      enum tgsi_interp_status st = e ? tgsi_interp_run(s, e, &o, &d) : TGSI_INTERP_ENV;
      cpu += clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
      diag_clear(&d);
      env_free(e);
      if (st != TGSI_INTERP_OK)
         return -1;
   }
   return cpu;
}

struct bench_opts {
   uint64_t seed, max_steps;
   uint32_t lanes, repeat;
   bool quads;
};

/* Runs s on inputs drawn from the seed o->repeat times (the inputs are
 * drawn again, untimed, before each run: a run updates buffers in place)
 * and keeps the fastest wall and CPU time; *pe is the last run's env. */
static enum tgsi_interp_status
timed_runs(const struct tgsi_shader *s, const struct bench_opts *o, struct env **pe,
           uint64_t *steps, double *dt, double *dc, struct diag_list *d)
{
   enum tgsi_interp_status st = TGSI_INTERP_OK;
   *dt = *dc = INFINITY;
   for (uint32_t r = 0; r < o->repeat && st == TGSI_INTERP_OK; r++) {
      if (r) {
         env_free(*pe);
         *pe = diff_gen_inputs(s, o->seed, o->lanes, d);
         if (!*pe)
            return TGSI_INTERP_ENV;
      }
      struct tgsi_interp_opts io = {.max_steps = o->max_steps, .steps_out = steps};
      double t0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
      st = tgsi_interp_run(s, *pe, &io, d);
      *dt = fmin(*dt, clock_s(CLOCK_MONOTONIC) - t0);
      *dc = fmin(*dc, clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0);
   }
   return st;
}

static void
bench_one(const char *path, const struct bench_opts *bo, struct bench_total *t)
{
   uint64_t seed = bo->seed, max_steps = bo->max_steps;
   bool quads = bo->quads;
   struct diag_list d = {0};
   struct tgsi_shader *s = bench_parse_tgsi(path);
   struct env *e = s ? diff_gen_inputs(s, seed, bo->lanes, &d) : NULL;
   if (!e) {
      print_diags(&d, stderr);
      diag_clear(&d);
      tgsi_shader_free(s);
      t->bad_input++;
      return;
   }
   uint64_t steps = 0;
   double dt, dc;
   enum tgsi_interp_status st = timed_runs(s, bo, &e, &steps, &dt, &dc, &d);
   if (st != TGSI_INTERP_OK) {
      print_diags(&d, stderr);
      fprintf(stderr, "%s: %s: %s\n", prog_name, path, tgsi_interp_status_names[st]);
      t->failed++;
   } else {
      printf("  %-40s %7u lanes %5u insns %10.3f ms %8.1f M lane-insns/s", path, e->nlanes,
             s->ninsns, dt * 1e3, (double)steps / dt / 1e6);
      double q = quads ? quad_runs(s, seed, e->nlanes, max_steps) : -1;
      if (q > 0 && dc > 0) {
         printf("  %6.2fx quads", q / dc);
         t->log_quad += log(q / dc);
         t->quad_timed++;
         t->quad_wins += q > dc;
      } else if (quads) {
         printf("  %7s quads", "-");
      }
      printf("\n");
      if (steps && dt > 0 && dc > 0) {
         t->log_rate += log((double)steps / dt);
         t->log_cpu_rate += log((double)steps / dc);
         t->timed++;
      }
      t->lane_steps += steps;
      t->lanes += e->nlanes;
      t->insns += s->ninsns;
      t->secs += dt;
      t->cpu += dc;
   }
   diag_clear(&d);
   env_free(e);
   tgsi_shader_free(s);
}

static void
free_files(char **files, unsigned n)
{
   for (unsigned k = 0; k < n; k++)
      free(files[k]);
   free(files);
}

static int
bench_interp(int argc, char **argv)
{
   uint64_t lanes = 65536, seed = 1, max_steps = 0, repeat = 1;
   bool quads = false;
   char **files = NULL;
   unsigned nfiles = 0, cap = 0;
   int rc = -1;
   for (int i = 1; i < argc && rc < 0; i++) {
      const char *v;
      if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
         bench_usage(stdout);
         rc = EXIT_OK;
      } else if (opt_value(argc, argv, &i, "--invocations", &v)) {
         if (!v || !parse_u64(v, &lanes) || !lanes || lanes > ENV_MAX_LANES)
            rc = usage_error("--invocations takes a count from 1 to %u", ENV_MAX_LANES);
      } else if (opt_value(argc, argv, &i, "--seed", &v)) {
         if (!v || !parse_u64(v, &seed))
            rc = usage_error("--seed takes an unsigned integer");
      } else if (opt_value(argc, argv, &i, "--max-steps", &v)) {
         if (!v || !parse_u64(v, &max_steps) || !max_steps)
            rc = usage_error("--max-steps takes a positive count");
      } else if (opt_value(argc, argv, &i, "--repeat", &v)) {
         if (!v || !parse_u64(v, &repeat) || !repeat || repeat > 1000)
            rc = usage_error("--repeat takes a count from 1 to 1000");
      } else if (!strcmp(argv[i], "--quads")) {
         quads = true;
      } else if (argv[i][0] == '-' && argv[i][1]) {
         rc = unknown_option("bench", argv[i]);
      } else {
         struct shader_args in = {0}; /* a file, a directory or an @list */
         rc = shader_args_add(&in, argv[i]) ? EXIT_USAGE : -1;
         for (unsigned k = 0; k < in.nfiles; k++) {
            char *p = xstrdup(in.files[k]);
            VEC_PUSH(files, nfiles, cap, p);
         }
         shader_args_free(&in);
      }
   }
   if (rc >= 0) {
      free_files(files, nfiles);
      return rc;
   }
   if (!nfiles)
      files = default_files(&nfiles);
   if (!nfiles) {
      free(files);
      return usage_error("bench: no shaders (captures/*.tgsi not found)");
   }
   struct bench_total t = {0};
   printf("bench interp: %u shaders, %llu invocations each, seed %llu\n", nfiles,
          (unsigned long long)lanes, (unsigned long long)seed);
   struct bench_opts bo = {seed, max_steps, (uint32_t)lanes, (uint32_t)repeat, quads};
   for (unsigned k = 0; k < nfiles; k++) {
      bench_one(files[k], &bo, &t);
      free(files[k]);
   }
   free(files);
   printf("total: %llu lanes, %llu instructions, %llu lane-instructions, %.3f s (%.3f s cpu)\n",
          (unsigned long long)t.lanes, (unsigned long long)t.insns,
          (unsigned long long)t.lane_steps, t.secs, t.cpu);
   printf("interp: %.1f M lane-instructions/s (%.1f per cpu second)\n",
          t.secs > 0 ? (double)t.lane_steps / t.secs / 1e6 : 0.0,
          t.cpu > 0 ? (double)t.lane_steps / t.cpu / 1e6 : 0.0);
   if (t.timed)
      printf("geomean over %u shaders: %.1f M lane-instructions/s (%.1f per cpu second)\n", t.timed,
             exp(t.log_rate / t.timed) / 1e6, exp(t.log_cpu_rate / t.timed) / 1e6);
   if (t.quad_timed)
      printf("quads: the %llu-lane run is %.2fx faster than %llu quad runs (geomean of CPU time "
             "over %u shaders); faster on %u\n",
             (unsigned long long)lanes, exp(t.log_quad / t.quad_timed),
             (unsigned long long)lanes / 4, t.quad_timed, t.quad_wins);
   return t.bad_input ? EXIT_USAGE : t.failed ? EXIT_FAIL : EXIT_OK;
}

int bench_emu(int argc, char **argv);     /* cmd_bench_emu.c */
int bench_compile(int argc, char **argv); /* cmd_bench_compile.c */
int bench_latency(int argc, char **argv); /* cmd_bench_latency.c */

int
cmd_bench(int argc, char **argv)
{
   if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
      bench_usage(stdout);
      return EXIT_OK;
   }
   if (argc >= 2 && !strcmp(argv[1], "interp"))
      return bench_interp(argc - 1, argv + 1);
   if (argc >= 2 && !strcmp(argv[1], "emu"))
      return bench_emu(argc - 1, argv + 1);
   if (argc >= 2 && !strcmp(argv[1], "compile"))
      return bench_compile(argc - 1, argv + 1);
   if (argc >= 2 && !strcmp(argv[1], "latency"))
      return bench_latency(argc - 1, argv + 1);
   bench_usage(stderr);
   return EXIT_USAGE;
}
