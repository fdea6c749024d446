/*
 * diffcomp check (also: diffcomp FILE.tgsi...): the differential check.
 * Builds the list of cases (shader x target, one shard of it), runs them
 * in worker processes (diff/run.c), prints one line per failure in case
 * order whatever -j is, writes a reproducer per failure, the summary, the
 * report files, and picks the exit code against the baseline.
 *
 * The run streams: once a shader's cases are all printed they are
 * reported (added to the tally, their records spooled to temporary files
 * for the JSON, JUnit, baseline and HTML reports, their HTML pages
 * written) and released, so the check keeps the results of at most
 * DIFF_WINDOW cases. The report files are made at the end from the tally
 * (their heads) and the spools. Kept for failing cases only: the summary's
 * where: lines and the reproducer names taken.
 */
#include "compiler/ir/ir.h"
#include "diff/diff.h"
#include "tools/tools.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define EXIT_BISECT_SKIP 125
#define EXIT_INTERRUPTED 130 /* 128 + SIGINT, as a shell reports it */

static void
check_usage(FILE *f)
{
   fprintf(
       f, "usage: diffcomp [check] FILE.tgsi|DIR|@LIST... [options]\n"
          "       diffcomp check --generated N [FILE.tgsi...] [options]\n\n"
          "Compiles each shader for each target with the reference and the optimizing\n"
          "compiler, runs both on the emulator and the golden interpreter on random\n"
          "inputs, and reports mismatches and hazards with a reproducer. A directory\n"
          "stands for its *.tgsi files (sorted); @LIST for the paths in file LIST, one a\n"
          "line ('#' starts a comment).\n\n"
          "What runs:\n"
          "  --target LIST        comma list of targets (default: each built-in that opens)\n"
          "  --seed S             seed of the random inputs (default 1)\n"
          "  --invocations N      lanes per shader (default 1024)\n"
          "  --generated N        also check N shaders from the random generator, named\n"
          "                       gen:S (diffcomp gen --seed S); S derives from --seed\n"
          "  --variants N         also check N semantics-preserving variants of each shader\n"
          "                       (NAME~vK): dead code, identity ops, split vectors,\n"
          "                       one-trip loops, commuted operands; each runs on its\n"
          "                       original's inputs and must give its interpreter outputs\n"
          "  --max-steps N        the interpreter's budget in lane-instructions (default:\n"
          "                       per lane 4096 x the instructions, at least 65536; 2^32\n"
          "                       at most), so a runaway loop is reported within a second\n"
          "  --exact-nan          NaN must equal NaN bit for bit (ref/opt, invariance)\n"
          "  --invariance         also build each vertex shader position-only and require\n"
          "                       bit-identical positions\n"
          "  --opt LIST           inexact transforms opt may use: fuse-ffma, inexact\n"
          "  --no-gen-sink        generated shaders without gen's sink (gen --no-sink)\n"
          "  --no-verify          no per-rewrite verification in opt: a wrong rewrite is\n"
          "                       compiled, to see whether the run catches it (measuring)\n"
          "  --opt-asm FILE.s     use this emulator assembly program as opt's output\n"
          "                       (to check a hand-written program; with one --target)\n"
          "  --opt-cmd 'CMD'      an external compiler stands for opt: CMD runs under sh\n"
          "                       with {tgsi} {out} {bindings} {target} {stage} {limit}\n"
          "                       replaced, and writes the program to {out} (README:\n"
          "                       \"Checking your own compiler\")\n"
          "  --opt-cmd-timeout SEC  time limit of one run of the command (default 60)\n"
          "  --fraction F         check only a fraction 0 < F <= 1 of the shader files, the\n"
          "                       same ones for the same seed (a quick pre-merge run)\n"
          "  --inject-fault NAME  switch on a known bug in the optimizing compiler (a comma\n"
          "                       list; diffcomp faults lists them; one that no target\n"
          "                       of the run has is warned about)\n"
          "  --legacy, --hex-bits parser dialect (a file's '# dialect:' line also sets it)\n\n"
          "How it runs:\n"
          "  -j N                 worker processes (default: cores); 0 = in-process, no isolation\n"
          "  --timeout SEC        per case, then the case is killed (default 300; 0 = none)\n"
          "  --shard K/N          run slice K of N (1-based; default CI_NODE_INDEX/CI_NODE_TOTAL)\n"
          "  --max-failures N     stop after N new failures or errors; the summary and the\n"
          "                       reports cover the cases that finished (so does Ctrl-C)\n\n"
          "Reports:\n"
          "  --baseline FILE      cases expected to fail (YAML); unexpected passes are reported\n"
          "  --write-baseline FILE  write this run's failures as a baseline\n"
          "  --json FILE          machine-readable results ('-': standard output, and the\n"
          "                       human-readable lines go to standard error)\n"
          "  --junit FILE         one testcase per shader and target ('-' as for --json)\n"
          "  --html DIR           a static HTML report: DIR/index.html lists the cases with\n"
          "                       status filters; each failing case has a page with its\n"
          "                       values, TGSI, both listings and a hazard's timeline\n"
          "  --stats              shader-db style totals, ref -> opt, then cases per\n"
          "                       second (per core: per CPU second of the run and its\n"
          "                       workers), peak RSS and the most case results held\n"
          "  --coverage FILE      list the transformation kinds, legalization paths, hazard\n"
          "                       rules, sync kinds, ISA ops and encodings opt exercised\n"
          "  --repro-dir DIR      reproducers (default diffcomp-repro); --no-repro: none\n"
          "  -v, --verbose        also list expected failures and the failing lanes' inputs\n"
          "  -q, --quiet          no progress bar\n\n"
          "Exit status: 0 every case as expected, 1 new failures (or unexpected passes),\n"
          "2 bad usage or inputs that could not be checked. --git-bisect: 125 instead\n"
          "when nothing could be tested (input errors, or only compile errors).\n");
}

struct check_args {
   struct diff_check c;
   struct shader_args in; /* the shader files */
   double fraction;
   const char *targets, *baseline, *write_baseline, *json, *junit, *repro_dir, *coverage, *html;
   unsigned shard_k, shard_n, generated, variants, max_failures;
   bool stats, verbose, quiet, bisect;
};

static bool
parse_shard(const char *s, unsigned *k, unsigned *n)
{
   char *end;
   unsigned long a = strtoul(s, &end, 10);
   if (*end != '/' || end == s)
      return false;
   unsigned long b = strtoul(end + 1, &end, 10);
   if (*end || !b || !a || a > b || b > 100000)
      return false;
   *k = (unsigned)a;
   *n = (unsigned)b;
   return true;
}

static int
parse_u32_opt(const char *v, const char *name, uint64_t lo, uint64_t hi, uint64_t *out)
{
   if (!v || !parse_u64(v, out) || *out < lo || *out > hi)
      return usage_error("%s takes a number from %llu to %llu", name, (unsigned long long)lo,
                         (unsigned long long)hi);
   return EXIT_OK;
}

static int
parse_run_option(int argc, char **argv, int *i, struct check_args *a, bool *taken)
{
   const char *v;
   uint64_t n;
   int rc = EXIT_OK;
   *taken = true;
   if (opt_value(argc, argv, i, "--target", &v)) {
      if (!(a->targets = v))
         return usage_error("--target takes a list");
   } else if (opt_value(argc, argv, i, "--seed", &v)) {
      if (!v || !parse_u64(v, &a->c.o.seed))
         return usage_error("--seed takes an unsigned integer");
   } else if (opt_value(argc, argv, i, "--invocations", &v)) {
      if (!(rc = parse_u32_opt(v, "--invocations", 1, ENV_MAX_LANES, &n)))
         a->c.o.invocations = (uint32_t)n;
   } else if (opt_value(argc, argv, i, "--variants", &v)) {
      if (!(rc = parse_u32_opt(v, "--variants", 0, 100, &n)))
         a->variants = (unsigned)n;
   } else if (opt_value(argc, argv, i, "--generated", &v)) {
      if (!(rc = parse_u32_opt(v, "--generated", 0, 1000000, &n)))
         a->generated = (unsigned)n;
   } else if (opt_value(argc, argv, i, "--fraction", &v)) {
      char *end = NULL;
      a->fraction = v ? strtod(v, &end) : 0;
      if (!v || *end || !(a->fraction > 0 && a->fraction <= 1))
         return usage_error("--fraction takes a number in (0, 1]");
   } else if (opt_value(argc, argv, i, "--max-steps", &v)) {
      rc = parse_u32_opt(v, "--max-steps", 1, UINT64_MAX, &a->c.o.max_steps);
   } else if (opt_value(argc, argv, i, "--opt", &v)) {
      rc = parse_opt_list(v, &a->c.o.inexact);
   } else if (opt_value(argc, argv, i, "--opt-asm", &v)) {
      if (!v)
         return usage_error("--opt-asm takes an assembly file");
      a->c.o.opt_asm = v;
      a->c.opt_override = diff_opt_from_asm;
      a->c.opt_override_ctx = (void *)v;
   } else if (opt_value(argc, argv, i, "--opt-cmd", &v)) {
      char *why = v ? diff_extcc_check_template(v) : NULL;
      if (!v || why) {
         rc = usage_error("--opt-cmd: %s", why ? why : "takes a command");
         free(why);
         return rc;
      }
      a->c.o.opt_cmd = v;
   } else if (opt_value(argc, argv, i, "--opt-cmd-timeout", &v)) {
      if (!(rc = parse_u32_opt(v, "--opt-cmd-timeout", 1, 86400, &n)))
         a->c.o.opt_cmd_timeout_ms = (unsigned)n * 1000;
   } else if (opt_value(argc, argv, i, "--inject-fault", &v)) {
      rc = parse_fault_list(v, &a->c.o.faults);
   } else if (!strcmp(argv[*i], "--exact-nan")) {
      a->c.o.exact_nan = true;
   } else if (!strcmp(argv[*i], "--no-verify")) {
      a->c.o.no_verify = true;
   } else if (!strcmp(argv[*i], "--gen-sink")) {
      a->c.o.gen_no_sink = false;
   } else if (!strcmp(argv[*i], "--no-gen-sink")) {
      a->c.o.gen_no_sink = true;
   } else if (!strcmp(argv[*i], "--invariance")) {
      a->c.o.invariance = true;
   } else if (!strcmp(argv[*i], "--legacy")) {
      a->c.o.popts.legacy = true;
   } else if (!strcmp(argv[*i], "--hex-bits")) {
      a->c.o.popts.hex_bits = true;
   } else if (!strncmp(argv[*i], "-j", 2) && argv[*i][2] && argv[*i][2] != '=') {
      rc = parse_u32_opt(argv[*i] + 2, "-j", 0, 1024, &n);
      a->c.o.jobs = (unsigned)n;
   } else if (opt_value(argc, argv, i, "-j", &v) || opt_value(argc, argv, i, "--jobs", &v)) {
      rc = parse_u32_opt(v, "-j", 0, 1024, &n);
      a->c.o.jobs = (unsigned)n;
   } else if (opt_value(argc, argv, i, "--timeout", &v)) {
      if (!(rc = parse_u32_opt(v, "--timeout", 0, 86400, &n)))
         a->c.o.timeout_ms = (unsigned)n * 1000;
   } else if (opt_value(argc, argv, i, "--max-failures", &v)) {
      if (!(rc = parse_u32_opt(v, "--max-failures", 1, 1000000000, &n)))
         a->max_failures = (unsigned)n;
   } else if (opt_value(argc, argv, i, "--shard", &v)) {
      if (!v || !parse_shard(v, &a->shard_k, &a->shard_n))
         return usage_error("--shard takes K/N with 1 <= K <= N");
   } else {
      *taken = false;
   }
   return rc;
}

static int
parse_report_option(int argc, char **argv, int *i, struct check_args *a, bool *taken)
{
   const char *v, *x = argv[*i];
   const char **dst = NULL;
   *taken = true;
   if (opt_value(argc, argv, i, "--baseline", &v))
      dst = &a->baseline;
   else if (opt_value(argc, argv, i, "--write-baseline", &v))
      dst = &a->write_baseline;
   else if (opt_value(argc, argv, i, "--json", &v))
      dst = &a->json;
   else if (opt_value(argc, argv, i, "--junit", &v))
      dst = &a->junit;
   else if (opt_value(argc, argv, i, "--coverage", &v))
      dst = &a->coverage;
   else if (opt_value(argc, argv, i, "--html", &v))
      dst = &a->html;
   else if (opt_value(argc, argv, i, "--repro-dir", &v))
      dst = &a->repro_dir;
   else if (!strcmp(x, "--no-repro"))
      a->repro_dir = NULL;
   else if (!strcmp(x, "--stats"))
      a->stats = true;
   else if (!strcmp(x, "-v") || !strcmp(x, "--verbose"))
      a->verbose = true;
   else if (!strcmp(x, "-q") || !strcmp(x, "--quiet"))
      a->quiet = true;
   else if (!strcmp(x, "--git-bisect"))
      a->bisect = true;
   else
      *taken = false;
   if (dst && !(*dst = v))
      return usage_error("%s takes a file", x);
   return EXIT_OK;
}

/* The CI variables, when --shard is not given. */
static int
shard_from_env(struct check_args *a)
{
   const char *k = getenv("CI_NODE_INDEX"), *n = getenv("CI_NODE_TOTAL");
   if (a->shard_n || !k || !n || !*k || !*n)
      return EXIT_OK;
   char *s = xasprintf("%s/%s", k, n);
   bool ok = parse_shard(s, &a->shard_k, &a->shard_n);
   free(s);
   return ok ? EXIT_OK : usage_error("CI_NODE_INDEX/CI_NODE_TOTAL are not K/N with 1 <= K <= N");
}

/* --fraction: a file is kept when a hash of its path and the seed falls
 * below the fraction, so the same seed keeps the same files anywhere. */
static void
keep_fraction(struct check_args *a)
{
   if (!a->fraction || a->fraction >= 1)
      return;
   unsigned n = 0;
   for (unsigned i = 0; i < a->in.nfiles; i++) {
      uint64_t h = hash64(a->in.files[i], strlen(a->in.files[i]), a->c.o.seed ^ 0x66726163ull);
      if ((double)(h >> 11) * 0x1p-53 < a->fraction)
         a->in.files[n++] = a->in.files[i];
   }
   a->in.nfiles = n;
}

/* A report path is tried before the run, so a typo does not cost the run. */
static int
check_report_path(const char *path)
{
   if (!path || !strcmp(path, "-"))
      return EXIT_OK;
   char *dir = diff_path_dir(path);
   int ok = access(dir, W_OK) == 0;
   int err = errno;
   struct stat st;
   if (ok && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
      ok = 0;
      err = EISDIR;
   }
   free(dir);
   return ok ? EXIT_OK : usage_error("cannot write %s: %s", path, strerror(err));
}

static bool mkdirs(const char *dir);

/* --repro-dir DIR is made only when a case fails: it is tried before the
 * run by making it and removing again what was made, so a typo does not
 * cost the reproducers and a passing run leaves no directory behind. */
static int
check_repro_dir(const char *dir)
{
   if (!dir)
      return EXIT_OK;
   char *made[64], *p = xstrdup(dir);
   unsigned n = 0;
   struct stat st;
   while (n < ARRAY_SIZE(made) && stat(p, &st) != 0 && errno == ENOENT) {
      made[n++] = xstrdup(p);
      char *slash = strrchr(p, '/');
      while (slash && slash > p && !slash[1]) { /* "a/b/": the slash before b */
         *slash = 0;
         slash = strrchr(p, '/');
      }
      if (!slash || slash == p)
         break;
      *slash = 0;
   }
   bool made_ok = mkdirs(dir);
   int err = errno;
   bool ok = made_ok && stat(dir, &st) == 0;
   if (ok && !S_ISDIR(st.st_mode))
      ok = false, err = ENOTDIR;
   else if (ok && access(dir, W_OK) != 0)
      ok = false, err = errno;
   else if (made_ok && !ok)
      err = errno;
   for (unsigned k = 0; k < n; k++) {
      rmdir(made[k]);
      free(made[k]);
   }
   free(p);
   return ok ? EXIT_OK
             : usage_error("cannot make the reproducer directory %s: %s", dir, strerror(err));
}

/* --html DIR: made (with DIR/cases) and tried before the run. */
static int
check_html_dir(const char *dir)
{
   char *cases = xasprintf("%s/cases", dir);
   bool ok = strcmp(dir, "-") && mkdirs(dir) && mkdirs(cases) && access(cases, W_OK) == 0;
   int err = errno;
   free(cases);
   return ok ? EXIT_OK : usage_error("cannot write the HTML report in %s: %s", dir, strerror(err));
}

static int
parse_args(int argc, char **argv, struct check_args *a)
{
   for (int i = 1; i < argc; i++) {
      bool taken;
      int rc = parse_run_option(argc, argv, &i, a, &taken);
      if (!taken && !rc)
         rc = parse_report_option(argc, argv, &i, a, &taken);
      if (rc)
         return rc;
      if (taken)
         continue;
      if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
         check_usage(stdout);
         return -1;
      }
      if (argv[i][0] == '-' && argv[i][1])
         return unknown_option("check", argv[i]);
      if ((rc = shader_args_add(&a->in, argv[i])))
         return rc;
   }
   if (!a->in.nfiles && !a->generated) {
      check_usage(stderr);
      return EXIT_USAGE;
   }
   int rc;
   const char *reports[] = {a->json, a->junit, a->write_baseline, a->coverage};
   unsigned dashes = 0;
   for (unsigned k = 0; k < ARRAY_SIZE(reports); k++) {
      dashes += reports[k] && !strcmp(reports[k], "-");
      if ((rc = check_report_path(reports[k])) != EXIT_OK)
         return rc;
   }
   if (dashes > 1)
      return usage_error("only one report can take standard output ('-')");
   if ((rc = check_repro_dir(a->repro_dir)) != EXIT_OK)
      return rc;
   if (a->html && (rc = check_html_dir(a->html)) != EXIT_OK)
      return rc;
   if (a->c.o.opt_cmd && (a->c.o.opt_asm || opt_fault_set_any(&a->c.o.faults)))
      return usage_error("--opt-cmd replaces the optimizing compiler: it does not go with %s",
                         a->c.o.opt_asm ? "--opt-asm"
                                        : "--inject-fault (a fault of diffcomp's own)");
   keep_fraction(a);
   a->c.o.coverage = a->coverage != NULL;
   return shard_from_env(a);
}

/* ------------------------------------------------------------------ */
/* Output while running                                                 */

/* A report's case records, spooled to an unnamed temporary file until
 * its head can be made. */
struct spool {
   FILE *f;
   bool bad; /* a write failed */
};

struct out {
   struct check_args *a;
   const struct diff_baseline *bl;
   bool color, bar;
   unsigned next, done, bad;
   double start, last_bar;
   char **used; /* reproducer names taken (failing cases) */
   unsigned nused, used_cap;
   /* The reported cases: [0, reported) (those a stop left unfinished are
    * left out), kept of them. */
   unsigned reported, kept;
   struct diff_tally t;
   struct spool json, junit, baseline, html;
   bool baseline_any;   /* an entry was spooled */
   char *bdir;          /* the baseline report's directory (report_dir) */
   struct strbuf where; /* the summary's where: lines (failing cases) */
   unsigned nwhere;
   bool bisect_testable; /* a new failure that is not a compile error */
   unsigned pages;       /* HTML case pages written */
   bool html_ok;
};

static void
bar_clear(struct out *o)
{
   if (o->bar)
      fputs("\r\033[K", stderr);
}

static void
bar_draw(struct out *o, unsigned idx, const char *step)
{
   const struct diff_check *c = &o->a->c;
   double t = now_seconds();
   if (!o->bar || (t - o->last_bar < 0.05 && o->done < c->ncases))
      return;
   o->last_bar = t;
   unsigned w = 30, fill = c->ncases ? (unsigned)((uint64_t)o->done * w / c->ncases) : w;
   char bar[40];
   for (unsigned i = 0; i < w; i++)
      bar[i] = i < fill ? '#' : '.';
   bar[w] = 0;
   const char *name = c->shaders[c->cases[idx].shader].name, *slash = strrchr(name, '/');
   fprintf(stderr, "\r\033[K[%s] %u/%u  %u failing  %s %s%s%s", bar, o->done, c->ncases, o->bad,
           c->targets[c->cases[idx].target].name, slash ? slash + 1 : name, step ? ": " : "",
           step ? step : "");
   fflush(stderr);
}

static bool
mkdirs(const char *dir)
{
   char *p = xstrdup(dir);
   for (char *s = p + 1; *s; s++)
      if (*s == '/') {
         *s = 0;
         mkdir(p, 0777);
         *s = '/';
      }
   bool ok = mkdir(p, 0777) == 0 || errno == EEXIST;
   free(p);
   return ok;
}

/* <dir>/<file name without .tgsi>-<target>.yaml, unique within the run. */
static char *
repro_path(struct out *o, unsigned i)
{
   const struct diff_check *c = &o->a->c;
   const char *name = c->shaders[c->cases[i].shader].name, *slash = strrchr(name, '/');
   char *base = xstrdup(slash ? slash + 1 : name);
   char *dot = strrchr(base, '.');
   if (dot && !strcmp(dot, ".tgsi"))
      *dot = 0;
   for (char *s = base; *s; s++)
      if (*s == ':' || *s == ' ')
         *s = '-';
   char *path = NULL;
   for (unsigned k = 1; !path; k++) {
      char *p = k == 1 ? xasprintf("%s/%s-%s.yaml", o->a->repro_dir, base,
                                   c->targets[c->cases[i].target].name)
                       : xasprintf("%s/%s-%s-%u.yaml", o->a->repro_dir, base,
                                   c->targets[c->cases[i].target].name, k);
      bool taken = false;
      for (unsigned u = 0; u < o->nused && !taken; u++)
         taken = !strcmp(o->used[u], p);
      if (taken)
         free(p);
      else
         path = p;
   }
   VEC_PUSH(o->used, o->nused, o->used_cap, xstrdup(path));
   free(base);
   return path;
}

static void
write_repro(struct out *o, unsigned i)
{
   struct diff_check *c = &o->a->c;
   struct diff_case_result *r = diff_result(c, i);
   const struct diff_shader_src *src = &c->shaders[c->cases[i].shader];
   if (!o->a->repro_dir || (r->status != DIFF_FAIL && r->status != DIFF_ERROR))
      return;
   struct diag_list rd = {0};
   size_t len;
   char *text = diff_shader_text(src, &len, &rd);
   diag_clear(&rd);
   if (!text)
      return; /* nothing to replay: the file cannot be read */
   /* A reproducer carries the shader as YAML text: bytes that are not
    * UTF-8 text (a NUL, a binary file) cannot be replayed from one. */
   size_t good = utf8_text_prefix(text, len);
   char *y = good == len ? diff_repro_yaml(c, i, text) : NULL;
   struct diag_list d = {0};
   if (!y && good < len)
      diag_add(&d, DIAG_NOTE, src->name, 0, 0, NULL,
               "no reproducer: the shader has %s at byte %zu (a reproducer holds text)",
               text[good] ? "bytes that are not UTF-8" : "a NUL byte", good);
   else if (!y)
      diag_add(&d, DIAG_NOTE, src->name, 0, 0, NULL, "no reproducer: YAML refused the case");
   char *path = repro_path(o, i);
   bool dir = !y || mkdirs(o->a->repro_dir);
   if (!dir)
      diag_add(&d, DIAG_ERROR, o->a->repro_dir, 0, 0, NULL, "cannot make the directory: %s",
               strerror(errno));
   if (y && dir && diff_write_atomic(path, y, &d))
      r->repro = path;
   else
      free(path);
   bar_clear(o);
   print_diags(&d, stderr);
   diag_clear(&d);
   free(y);
   free(text);
}

/* -v: the failing lanes' inputs under the case's lines. */
static void
print_lanes(const struct diff_case_result *r)
{
   for (unsigned l = 0; l < r->nlanes; l++) {
      printf("    lane %u inputs:", r->lanes[l].lane);
      for (unsigned v = 0; v < r->lanes[l].nvals; v++) {
         char t[48];
         diff_value_text(r->lanes[l].vals[v].bits, t, sizeof(t));
         printf(" %s=%s", r->lanes[l].vals[v].name, t);
      }
      printf("\n");
   }
}

static void
print_case(struct out *o, unsigned i)
{
   const struct diff_check *c = &o->a->c;
   const struct diff_case_result *r = diff_result(c, i);
   enum diff_outcome oc = diff_case_outcome(c, i, o->bl);
   if (oc == DIFF_OUT_OK || (oc == DIFF_OUT_EXPECTED && !o->a->verbose))
      return;
   bar_clear(o);
   const char *col = !o->color                  ? ""
                     : oc == DIFF_OUT_NEW_FAIL  ? "\033[1;31m"
                     : oc == DIFF_OUT_NEW_ERROR ? "\033[1;33m"
                     : oc == DIFF_OUT_EXPECTED  ? "\033[2m"
                                                : "\033[1;35m";
   const char *end = o->color ? "\033[0m" : "";
   if (oc == DIFF_OUT_UNEXPECTED_PASS) {
      const char *sh = c->shaders[c->cases[i].shader].name,
                 *tg = c->targets[c->cases[i].target].name;
      printf("%sxpass%s %s %s: %s, but the baseline expects %s\n", col, end, tg, sh,
             diff_status_names[r->status], diff_status_names[diff_baseline_expect(o->bl, sh, tg)]);
      return;
   }
   char *text = diff_case_lines(c, i);
   for (char *line = text; line && *line;) {
      char *nl = strchr(line, '\n');
      if (nl)
         *nl = 0;
      size_t w = strcspn(line, " ");
      printf("%s%s%.*s%s%s\n", oc == DIFF_OUT_EXPECTED ? "expected " : "", col, (int)w, line, end,
             line + w);
      line = nl ? nl + 1 : NULL;
   }
   free(text);
   if (o->a->verbose)
      print_lanes(r);
}

/* Standard output's descriptor when a report takes it (--json -): the
 * human-readable lines then go to standard error. */
static int report_stdout = -1;

/* The directory a report file will be in; NULL for none or standard output. */
static char *
report_dir(const char *path)
{
   return !path || !strcmp(path, "-") ? NULL : diff_path_dir(path);
}

static void
spool_put(struct spool *sp, struct strbuf *b)
{
   if (sp->f && b->n && fwrite(b->s, 1, b->n, sp->f) != b->n)
      sp->bad = true;
   free(b->s);
   *b = (struct strbuf){0};
}

static void
spool_open(struct spool *sp, const char *path)
{
   if (path && !(sp->f = tmpfile()))
      sp->bad = true;
}

/* --html DIR: case i's page, its programs rebuilt here (diff_case_detail),
 * numbered by its place among the reported cases. */
static void
write_page(struct out *o, unsigned i)
{
   const struct diff_check *c = &o->a->c;
   if (!o->a->html || !o->html_ok || !diff_html_has_page(c, i))
      return;
   struct diff_case_detail det;
   diff_case_detail(c, i, &det);
   char *name = diff_html_page_name(o->kept);
   char *path = xasprintf("%s/%s", o->a->html, name);
   char *text = diff_html_case(c, i, o->bl, &det);
   struct diag_list d = {0};
   o->html_ok = diff_write_atomic(path, text, &d);
   o->pages += o->html_ok;
   bar_clear(o);
   print_diags(&d, stderr);
   diag_clear(&d);
   free(text);
   free(path);
   free(name);
   diff_case_detail_fini(&det);
}

/* With --git-bisect a revision is testable when a new failure is not a
 * compile error (finish). */
static bool
testable_failure(const struct diff_check *c, unsigned i, enum diff_outcome oc)
{
   const struct diff_case_result *r = diff_result(c, i);
   for (unsigned k = 0; oc == DIFF_OUT_NEW_FAIL && k < r->nsig; k++)
      if (diff_signal_status(r->sig[k].kind) == DIFF_FAIL && r->sig[k].kind != DIFF_SIG_COMPILE)
         return true;
   return false;
}

/* Case i into the tally, its records into the spools, its where: line and
 * its HTML page; then it counts as kept. */
static void
report_case(struct out *o, unsigned i)
{
   struct check_args *a = o->a;
   const struct diff_check *c = &a->c;
   struct strbuf b = {0};
   diff_tally_add(&o->t, c, i, o->bl);
   if (a->json) {
      diff_report_json_case(&b, c, i, o->bl, o->kept == 0);
      spool_put(&o->json, &b);
   }
   if (a->junit) {
      diff_report_junit_case(&b, c, i, o->bl);
      spool_put(&o->junit, &b);
   }
   if (a->write_baseline) {
      o->baseline_any |= diff_baseline_yaml_entry(&b, c, i, o->bdir ? o->bdir : ".");
      spool_put(&o->baseline, &b);
   }
   if (a->html) {
      diff_html_index_row(&b, c, i, o->kept, o->bl);
      spool_put(&o->html, &b);
      write_page(o, i);
   }
   char *where = diff_case_locality(c, i);
   o->nwhere += where != NULL;
   if (where)
      strbuf_printf(&o->where, "where: %s %s: %s\n", c->targets[c->cases[i].target].name,
                    c->shaders[c->cases[i].shader].name, where);
   free(where);
   o->bisect_testable |= testable_failure(c, i, diff_case_outcome(c, i, o->bl));
   o->kept++;
}

/* Reports the shaders whose cases are all printed (a case's where: needs
 * its shader's other cases), then releases them. */
static void
report_printed(struct out *o)
{
   struct diff_check *c = &o->a->c;
   while (o->reported < o->next) {
      unsigned end = diff_check_group_end(c, o->reported);
      if (end > o->next)
         break;
      for (unsigned i = o->reported; i < end; i++)
         report_case(o, i);
      o->reported = end;
      diff_check_release(c, end);
   }
}

/* Cases are printed in case order as soon as all before them are done. */
static void
on_progress(void *ctx, unsigned idx, const char *step)
{
   struct out *o = ctx;
   struct diff_check *c = &o->a->c;
   if (!step) {
      o->done++;
      enum diff_outcome oc = diff_case_outcome(c, idx, o->bl);
      o->bad += oc == DIFF_OUT_NEW_FAIL || oc == DIFF_OUT_NEW_ERROR;
      if (o->a->max_failures && o->bad >= o->a->max_failures)
         c->stop = 1;
      while (o->next < c->ncases && diff_case_done(c, o->next)) {
         write_repro(o, o->next);
         print_case(o, o->next);
         o->next++;
      }
      report_printed(o);
      fflush(stdout);
   }
   bar_draw(o, idx, step);
}

/* ------------------------------------------------------------------ */
/* After the run                                                        */

static void
print_summary(struct out *o, double secs)
{
   const struct diff_check *c = &o->a->c;
   const struct diff_summary *s = &o->t.s;
   printf("\n%-10s %7s %7s %7s %7s %7s %7s\n", "target", "cases", "pass", "fail", "error", "skip",
          "n/a");
   for (unsigned t = 0; t < c->ntargets; t++) {
      const unsigned *n = o->t.by_target[t];
      unsigned all = 0;
      for (unsigned k = 0; k < DIFF_STATUS_COUNT; k++)
         all += n[k];
      printf("%-10s %7u %7u %7u %7u %7u %7u\n", c->targets[t].name, all, n[DIFF_PASS], n[DIFF_FAIL],
             n[DIFF_ERROR], n[DIFF_SKIP], n[DIFF_NA]);
   }
   printf("%-10s %7u %7u %7u %7u %7u %7u\n", "total", s->cases, s->status[DIFF_PASS],
          s->status[DIFF_FAIL], s->status[DIFF_ERROR], s->status[DIFF_SKIP], s->status[DIFF_NA]);
   printf("%u shaders, %u cases in %.2f s (%.1f cases/s, -j%u); steps: %s\n", s->shaders, s->cases,
          secs, secs > 0 ? s->cases / secs : 0.0, c->o.jobs, diff_check_steps(c));
   printf("values: %llu compared, %llu undefined, %llu unchecked, %llu within tolerance\n",
          (unsigned long long)s->compared, (unsigned long long)s->undefined,
          (unsigned long long)s->unchecked, (unsigned long long)s->tolerated);
   printf("outputs: %llu defined, %.2f%% NaN; %u cases compared under %d%% of their values, %u "
          "vacuous\n",
          (unsigned long long)s->outputs,
          s->outputs ? 100.0 * (double)s->nan / (double)s->outputs : 0.0, s->low,
          DIFF_LOW_COMPARED_PCT, s->status[DIFF_VACUOUS]);
   bool any = false;
   for (unsigned k = 0; k < DIFF_SIG_COUNT; k++)
      if (s->signals[k]) {
         printf("%s%s: %u", any ? ", " : "signals (cases): ", diff_signal_names[k], s->signals[k]);
         any = true;
      }
   if (any)
      printf("\n");
   printf("against the baseline: %u new failures, %u new errors, %u expected, %u unexpected "
          "passes\n",
          s->outcome[DIFF_OUT_NEW_FAIL], s->outcome[DIFF_OUT_NEW_ERROR],
          s->outcome[DIFF_OUT_EXPECTED], s->outcome[DIFF_OUT_UNEXPECTED_PASS]);
}

/* Report file path (or '-'): head, spooled records, tail. */
static bool
write_spooled(const char *path, char *head, struct spool *sp, const char *tail)
{
   if (!path) {
      free(head);
      return true;
   }
   struct diag_list d = {0};
   bool ok = !sp->bad;
   if (!ok)
      diag_add(&d, DIAG_ERROR, NULL, 0, 0, NULL, "cannot write %s: its records could not be kept",
               path);
   else if (!strcmp(path, "-")) {
      fflush(stdout);
      ok = diff_write_parts_fd(report_stdout, head, sp->f, tail);
   } else {
      ok = diff_write_parts(path, head, sp->f, tail, &d);
   }
   print_diags(&d, stderr);
   diag_clear(&d);
   free(head);
   return ok;
}

static bool
write_report(const char *path, char *text)
{
   struct spool none = {0};
   return write_spooled(path, text, &none, NULL);
}

static bool
target_in_run(const struct diff_check *c, const char *target)
{
   for (unsigned t = 0; target && t < c->ntargets; t++)
      if (!strcmp(c->targets[t].name, target))
         return true;
   return !target;
}

/* Entries that name no case of this run (a renamed or deleted shader) on a
 * target it runs; a shard or a fraction sees only part of the cases, so
 * only a full run says so. */
static void
report_stale(struct out *o, const struct diff_baseline *bl)
{
   struct check_args *a = o->a;
   if (!bl->n || a->shard_n > 1 || (a->fraction > 0 && a->fraction < 1))
      return;
   for (unsigned e = 0; e < bl->n; e++)
      if (!o->t.bl_used[e] && target_in_run(&a->c, bl->v[e].target))
         fprintf(stderr, "%s: warning: %s: stale baseline entry %s%s%s: no such case in this run\n",
                 prog_name, a->baseline, bl->v[e].shader, bl->v[e].target ? " on " : "",
                 bl->v[e].target ? bl->v[e].target : "");
}

/* --stats: the run's throughput (cases per wall second, and per CPU
 * second of this process and its workers: per core), peak memory, and
 * the most case results the check held at once. */
static void
print_throughput(const struct out *o, double secs)
{
   const struct diff_check *c = &o->a->c;
   unsigned n = o->kept;
   struct rusage self, kids;
   getrusage(RUSAGE_SELF, &self);
   getrusage(RUSAGE_CHILDREN, &kids);
   double cpu = (double)self.ru_utime.tv_sec + self.ru_utime.tv_usec * 1e-6 +
                (double)self.ru_stime.tv_sec + self.ru_stime.tv_usec * 1e-6 +
                (double)kids.ru_utime.tv_sec + kids.ru_utime.tv_usec * 1e-6 +
                (double)kids.ru_stime.tv_sec + kids.ru_stime.tv_usec * 1e-6;
   printf("throughput: %u cases, %.2f s wall, %.2f s CPU: %.1f cases/s, %.1f cases/s per core\n", n,
          secs, cpu, secs > 0 ? n / secs : 0.0, cpu > 0 ? n / cpu : 0.0);
   printf("peak RSS: %ld MB (check), %ld MB (largest worker)\n", self.ru_maxrss / 1024,
          kids.ru_maxrss / 1024);
   printf("held: at most %u case results at once (window %u); %u reproducer names, %u where: "
          "lines (failing cases)\n",
          c->held_peak, c->window, o->nused, o->nwhere);
}

static int
finish(struct out *o, const struct diff_baseline *bl, double secs)
{
   struct check_args *a = o->a;
   const struct diff_summary *s = &o->t.s;
   print_summary(o, secs);
   if (o->where.s)
      fputs(o->where.s, stdout);
   if (a->stats) {
      char *t = diff_report_stats_tally(&a->c, &o->t);
      printf("\n%s", t);
      free(t);
      print_throughput(o, secs);
   }
   report_stale(o, bl);
   char *jdir = report_dir(a->json);
   bool ok = write_spooled(a->json, diff_report_json_head(&a->c, &o->t, jdir), &o->json,
                           diff_report_json_tail) &&
             write_spooled(a->junit, diff_report_junit_head(&a->c, &o->t), &o->junit,
                           diff_report_junit_tail) &&
             write_spooled(a->write_baseline, xstrdup(diff_baseline_head), &o->baseline,
                           o->baseline_any ? NULL : diff_baseline_empty);
   free(jdir);
   if (a->html) {
      char *path = xasprintf("%s/index.html", a->html);
      bool html = o->html_ok && write_spooled(path, diff_html_index_head(&a->c, &o->t), &o->html,
                                              diff_html_index_tail);
      if (html)
         printf("html: %s/index.html (%u case pages)\n", a->html, o->pages);
      ok &= html;
      free(path);
   }
   if (a->coverage) {
      char *sum = NULL;
      ok &= write_report(a->coverage, diff_report_coverage(&a->c, &o->t, &sum));
      printf("coverage: %s (%s)\n", sum, a->coverage);
      free(sum);
   }
   int rc = s->outcome[DIFF_OUT_NEW_FAIL] || s->outcome[DIFF_OUT_UNEXPECTED_PASS] ? EXIT_FAIL
            : s->outcome[DIFF_OUT_NEW_ERROR] || !ok                               ? EXIT_USAGE
                                                                                  : EXIT_OK;
   /* Writing a baseline records the failures and errors: that is the run's
    * purpose, so it succeeds when the file is written. */
   if (a->write_baseline)
      rc = ok ? EXIT_OK : EXIT_USAGE;
   /* With --git-bisect a revision that cannot be tested answers 125 (skip):
    * inputs that could not be checked, or failures that are all compile
    * errors. */
   if (a->bisect && (rc == EXIT_USAGE || (rc == EXIT_FAIL && !o->bisect_testable)))
      rc = EXIT_BISECT_SKIP;
   return rc;
}

static bool
load_baseline(const char *path, struct diff_baseline *b)
{
   char *text, *err;
   size_t len;
   if (!read_file(path, &text, &len, &err)) {
      fprintf(stderr, "%s: %s\n", prog_name, err);
      free(err);
      return false;
   }
   struct diag_list d = {0};
   bool ok = diff_baseline_parse(text, len, path, b, &d);
   print_diags(&d, stderr);
   diag_clear(&d);
   free(text);
   return ok;
}

static int
setup(struct check_args *a, struct diff_baseline *bl)
{
   struct diag_list d = {0};
   bool ok = diff_check_add_targets(&a->c, a->targets, &d);
   print_diags(&d, stderr);
   diag_clear(&d);
   if (!ok)
      return EXIT_USAGE;
   /* a fault no target of the run has would silently do nothing */
   struct opt_fault_set absent = a->c.o.faults;
   for (unsigned t = 0; t < a->c.ntargets; t++)
      for (int f = 0; f < OPT_FAULT_COUNT; f++)
         if (opt_fault_on_target((enum opt_fault)f, a->c.targets[t].name))
            opt_fault_set_del(&absent, f);
   warn_faults_off_target(absent, a->targets ? a->targets : "the run's targets");
   if (a->baseline && !load_baseline(a->baseline, bl))
      return EXIT_USAGE;
   for (unsigned i = 0; i < a->in.nfiles; i++)
      diff_check_add_file(&a->c, a->in.files[i]);
   diff_check_add_generated(&a->c, a->generated);
   diff_check_add_variants(&a->c, a->variants);
   /* DIFFCOMP_CHECK_WINDOW (tests only): a smaller window, so that a short
    * run cycles through its slots */
   const char *win = getenv("DIFFCOMP_CHECK_WINDOW");
   a->c.window = win && atoi(win) > 0 ? (unsigned)atoi(win) : DIFF_WINDOW;
   diff_check_make_cases(&a->c, a->shard_k, a->shard_n);
   a->c.inject = getenv("DIFFCOMP_CHECK_INJECT");
   return EXIT_OK;
}

/* Ctrl-C: the run stops (the workers, which inherit this handler, end
 * their case and its external command); a second Ctrl-C kills at once.
 * `timeout -s INT` sends its signal twice, to the command and then to its
 * process group: a repeat from the same sending process within a second is
 * the same request, not a second one. */
static struct diff_check *interrupted_check;
static volatile sig_atomic_t interrupted;
static pid_t interrupt_sender;
static struct timespec interrupt_time;

/* The process that sent a signal by kill(), or 0 (a terminal's Ctrl-C). */
static pid_t
sender(const siginfo_t *si)
{
   return si && si->si_code == SI_USER ? si->si_pid : 0;
}

static bool
same_request(const siginfo_t *si, const struct timespec *t)
{
   pid_t from = sender(si);
   long long ms = (long long)(t->tv_sec - interrupt_time.tv_sec) * 1000 +
                  (t->tv_nsec - interrupt_time.tv_nsec) / 1000000;
   return from != 0 && from == interrupt_sender && ms < 1000;
}

static void
on_interrupt(int sig, siginfo_t *si, void *ctx)
{
   (void)ctx;
   struct timespec t;
   clock_gettime(CLOCK_MONOTONIC, &t);
   if (interrupted) {
      if (!same_request(si, &t)) {
         signal(sig, SIG_DFL);
         raise(sig);
      }
      return;
   }
   interrupted = 1;
   interrupt_sender = sender(si);
   interrupt_time = t;
   if (interrupted_check)
      interrupted_check->stop = 1;
   proc_stop_commands();
}

/* After a stopped run: the finished cases not printed yet (a case before
 * them did not finish), then the finished cases not reported yet; the
 * reports cover only the finished cases. */
static void
end_stopped(struct out *o)
{
   struct diff_check *c = &o->a->c;
   unsigned total = c->ncases;
   for (unsigned i = o->next; i < c->ncases; i++)
      if (diff_case_done(c, i)) {
         write_repro(o, i);
         print_case(o, i);
      }
   for (unsigned i = o->reported; i < c->ncases; i++)
      if (diff_case_done(c, i))
         report_case(o, i);
   o->reported = c->ncases;
   diff_check_release(c, c->ncases);
   unsigned dropped = total - o->kept;
   bar_clear(o);
   if (interrupted)
      fprintf(stderr,
              "%s: interrupted: %u of %u cases did not run; the summary and reports "
              "cover the %u that finished\n",
              prog_name, dropped, total, o->kept);
   else
      printf("stopped after %u new failures and errors (--max-failures): %u of %u cases did not "
             "run\n",
             o->bad, dropped, total);
}

int
cmd_check(int argc, char **argv)
{
   struct check_args a = {.repro_dir = "diffcomp-repro"};
   diff_check_init(&a.c);
   long cores = sysconf(_SC_NPROCESSORS_ONLN);
   a.c.o.jobs = cores > 0 ? (unsigned)cores : 1;
   a.c.o.timeout_ms = 300 * 1000;
   struct diff_baseline bl = {0};
   int rc = parse_args(argc, argv, &a);
   const char *dash[] = {a.json, a.junit, a.write_baseline, a.coverage};
   bool to_stdout = false;
   for (unsigned k = 0; k < ARRAY_SIZE(dash) && !rc; k++)
      to_stdout |= dash[k] && !strcmp(dash[k], "-");
   if (to_stdout) {
      fflush(stdout);
      report_stdout = dup(STDOUT_FILENO);
      if (report_stdout < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
         rc = usage_error("cannot take standard output for a report: %s", strerror(errno));
   }
   if (!rc)
      rc = setup(&a, &bl);
   struct out o = {0};
   if (!rc) {
      o = (struct out){.a = &a,
                       .bl = &bl,
                       .color = use_color(stdout),
                       .bar = !a.quiet && isatty(2),
                       .html_ok = true,
                       .bdir = report_dir(a.write_baseline)};
      diff_tally_init(&o.t, &a.c, &bl);
      spool_open(&o.json, a.json);
      spool_open(&o.junit, a.junit);
      spool_open(&o.baseline, a.write_baseline);
      spool_open(&o.html, a.html);
      if (o.json.bad || o.junit.bad || o.baseline.bad || o.html.bad)
         rc = usage_error("cannot make a temporary file for the reports: %s", strerror(errno));
   }
   if (!rc) {
      o.start = now_seconds();
      interrupted_check = &a.c;
      struct sigaction sa = {0}, old;
      sa.sa_sigaction = on_interrupt;
      sa.sa_flags = SA_SIGINFO;
      sigemptyset(&sa.sa_mask);
      sigaction(SIGINT, &sa, &old);
      diff_check_run(&a.c, on_progress, &o);
      sigaction(SIGINT, &old, NULL);
      interrupted_check = NULL;
      bar_clear(&o);
      if (a.c.stop)
         end_stopped(&o);
      rc = finish(&o, &bl, now_seconds() - o.start);
      if (interrupted)
         rc = EXIT_INTERRUPTED;
   }
   for (unsigned i = 0; i < o.nused; i++)
      free(o.used[i]);
   free(o.used);
   struct spool *spools[] = {&o.json, &o.junit, &o.baseline, &o.html};
   for (unsigned k = 0; k < ARRAY_SIZE(spools); k++)
      if (spools[k]->f)
         fclose(spools[k]->f);
   diff_tally_fini(&o.t);
   free(o.where.s);
   free(o.bdir);
   diff_baseline_free(&bl);
   diff_check_fini(&a.c);
   shader_args_free(&a.in);
   return rc < 0 ? EXIT_OK : rc;
}
