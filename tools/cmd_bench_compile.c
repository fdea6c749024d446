/*
 * diffcomp bench compile: compile time against shader size. Generated
 * fragment shaders of four shapes, at sizes from 1k to 64k TGSI
 * instructions, are compiled by both paths for every target, and the time
 * per TGSI instruction is printed: a compiler linear in shader size keeps
 * that figure flat from the smallest size to the largest.
 *
 *   chain  one long dependency chain: MADs on one TEMP channel
 *   wide   wide independent work: 16 chains updated in turn (16 values
 *          live throughout, every instruction independent of the last 15)
 *   loops  loops with many live values: 32 values updated in each loop's
 *          body and live around every back edge, one loop per ~256
 *          instructions
 *   pack   bytes and half-words: a float pair packed to halves, fields
 *          unpacked and packed again, in a chain (gfx9's SDWA peephole,
 *          field extraction elsewhere)
 *
 * The shaders are deterministic (no seed): the same size gives the same
 * text. Every generated value reaches an output, so nothing is dead.
 */
#include "compiler/compiler.h"
#include "compiler/ir/ir.h"
#include "diff/diff.h"
#include "isa/isa.h"
#include "tools/tools.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define SHAPES(X)      X(chain) X(wide) X(loops) X(pack)
#define SHAPE_ENUM_(n) SHAPE_##n,
enum shape { SHAPES(SHAPE_ENUM_) SHAPE_COUNT };
#undef SHAPE_ENUM_
#define SHAPE_NAME_(n) #n,
static const char *const shape_names[SHAPE_COUNT] = {SHAPES(SHAPE_NAME_)};
#undef SHAPE_NAME_

static void
usage(FILE *f)
{
   fprintf(f,
           "usage: diffcomp bench compile [--sizes LIST] [--shape LIST] [--target LIST]\n"
           "                              [--path LIST]\n\n"
           "Compiles generated shaders of growing size and prints CPU microseconds per\n"
           "TGSI instruction; a linear compiler keeps that figure flat as the size grows.\n"
           "Each figure is the fastest of repeated compiles (at least two; until 0.25 CPU s).\n\n"
           "  --sizes LIST   TGSI instruction counts (default 1000,4000,16000,64000)\n"
           "  --shape LIST   chain (one dependency chain), wide (16 independent chains),\n"
           "                 loops (loops with 32 values live around each back edge),\n"
           "                 pack (bytes and half-words unpacked and packed again);\n"
           "                 default all four\n"
           "  --target LIST  ISA models (default: the check's built-in targets)\n"
           "  --path LIST    ref, opt (default both)\n\n"
           "The last lines give, per shape, target and path, the growth of us/instr from\n"
           "the smallest size to the largest (GROWTH, between SIZES) and the seconds of\n"
           "the largest.\n"
           "Exit status: 0 every shader compiled, 1 one did not, 2 bad usage or a model\n"
           "that cannot be opened.\n");
}

/* CPU time of this process: a compile is single-threaded, and other load
 * on the machine does not count. */
static double
now_s(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct text {
   struct strbuf b;
   unsigned insns; /* TGSI instructions written */
};

#define INSN(t, ...)                                                                               \
   do {                                                                                            \
      strbuf_printf(&(t)->b, "%5u: ", (t)->insns++);                                               \
      strbuf_printf(&(t)->b, __VA_ARGS__);                                                         \
   } while (0)

static const char chan[] = "xyzw";
static const char *const rep[] = {"xxxx", "yyyy", "zzzz", "wwww"};

/* 16 chains in TEMP[1..4].xyzw, each started from the input by its own
 * constant (so no two chains are equal), then updated in turn. */
static void
gen_wide(struct text *t, unsigned n)
{
   for (unsigned k = 0; k < 16; k++)
      INSN(t, "MUL TEMP[%u].%c, IN[0].%s, IMM[%u].%s\n", 1 + k / 4, chan[k % 4], rep[k % 4],
           1 + k / 4, rep[k % 4]);
   for (unsigned i = 0; t->insns + 5 < n; i++) {
      unsigned k = i % 16;
      INSN(t, "MAD TEMP[%u].%c, TEMP[%u].%s, IMM[0].xxxx, IN[0].%s\n", 1 + k / 4, chan[k % 4],
           1 + k / 4, rep[k % 4], rep[(k + 1) % 4]);
   }
   for (unsigned r = 1; r <= 4; r++)
      INSN(t, "ADD TEMP[0], TEMP[0], TEMP[%u]\n", r);
}

/* 32 values in TEMP[1..8].xyzw, updated in loops of three trips. */
static void
gen_loops(struct text *t, unsigned n)
{
   for (unsigned k = 0; k < 32; k++)
      INSN(t, "MUL TEMP[%u].%c, IN[0].%s, IMM[%u].%s\n", 1 + k / 4, chan[k % 4], rep[k % 4],
           1 + (k / 4) % 4, rep[k % 4]);
   for (unsigned i = 0; t->insns + 16 < n;) {
      INSN(t, "MOV TEMP[9].x, IMM[0].wwww\n");
      INSN(t, "BGNLOOP\n");
      for (unsigned j = 0; j < 248 && t->insns + 14 < n; j++, i++) {
         unsigned k = i % 32, o = (i * 7 + 3) % 32;
         INSN(t, "MAD TEMP[%u].%c, TEMP[%u].%s, IMM[0].xxxx, TEMP[%u].%s\n", 1 + k / 4, chan[k % 4],
              1 + k / 4, rep[k % 4], 1 + o / 4, rep[o % 4]);
      }
      INSN(t, "ADD TEMP[9].x, TEMP[9].xxxx, IMM[0].zzzz\n");
      INSN(t, "SGE TEMP[9].y, TEMP[9].xxxx, IMM[0].yyyy\n");
      INSN(t, "IF TEMP[9].yyyy\n");
      INSN(t, "BRK\n");
      INSN(t, "ENDIF\n");
      INSN(t, "ENDLOOP\n");
   }
   for (unsigned r = 1; r <= 8; r++)
      INSN(t, "ADD TEMP[0], TEMP[0], TEMP[%u]\n", r);
}

/* A float pair in TEMP[0].xy packed to halves, a byte and a half-word of
 * the packed word unpacked and added back, in turn. */
static void
gen_pack(struct text *t, unsigned n)
{
   while (t->insns + 11 < n) {
      INSN(t, "MUL TEMP[1].xy, TEMP[0].xyyy, IMM[1].xyyy\n");
      INSN(t, "PK2H TEMP[2].x, TEMP[1].xyyy\n");
      INSN(t, "USHR TEMP[2].y, TEMP[2].xxxx, IMM[5].xxxx\n");
      INSN(t, "AND TEMP[2].z, TEMP[2].yyyy, IMM[5].yyyy\n");
      INSN(t, "U2F TEMP[1].z, TEMP[2].zzzz\n");
      INSN(t, "AND TEMP[2].w, TEMP[2].xxxx, IMM[5].zzzz\n");
      INSN(t, "UP4UB TEMP[3], TEMP[2].wwww\n");
      INSN(t, "ADD TEMP[1].w, TEMP[3].xxxx, TEMP[3].yyyy\n");
      INSN(t, "ADD TEMP[0].xy, TEMP[0].xyyy, TEMP[1].zwww\n");
   }
}

/* A fragment shader of about n TGSI instructions of shape s. */
static char *
gen_shader(enum shape s, unsigned n, unsigned *ninsns)
{
   struct text t = {0};
   strbuf_printf(&t.b,
                 "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0..9]\n"
                 "IMM[0] FLT32 {1.0001, 3.0, 1.0, 0.0}\n"
                 "IMM[1] FLT32 {0.5, 0.75, 1.25, 1.5}\n"
                 "IMM[2] FLT32 {0.625, 0.875, 1.125, 1.375}\n"
                 "IMM[3] FLT32 {0.5625, 0.8125, 1.0625, 1.3125}\n"
                 "IMM[4] FLT32 {0.53125, 0.78125, 1.03125, 1.28125}\n");
   if (s == SHAPE_pack)
      strbuf_printf(&t.b, "IMM[5] UINT32 {16, 255, 65535, 8}\n");
   INSN(&t, "MOV TEMP[0], IN[0]\n");
   switch (s) {
   case SHAPE_chain:
      while (t.insns + 2 < n)
         INSN(&t, "MAD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx, IN[0].yyyy\n");
      break;
   case SHAPE_wide:
      gen_wide(&t, n);
      break;
   case SHAPE_loops:
      gen_loops(&t, n);
      break;
   case SHAPE_pack:
      gen_pack(&t, n);
      break;
   default:
      break;
   }
   INSN(&t, "MOV OUT[0], TEMP[0]\n");
   INSN(&t, "END\n");
   *ninsns = t.insns;
   return t.b.s;
}

/* A comma list into v (at most max entries); false on an empty entry. */
static bool
split_list(const char *list, char **v, unsigned max, unsigned *n)
{
   *n = 0;
   for (const char *p = list; *p;) {
      size_t l = strcspn(p, ",");
      if (!l || *n == max)
         return false;
      v[(*n)++] = xstrndup(p, l);
      p += l + (p[l] == ',');
   }
   return *n > 0;
}

struct row {
   double us_first, us_last, s_last;
   unsigned n_first, n_last;
   bool failed;
};

/* One compile's CPU seconds, or -1 if it failed. */
static double
compile_once(const struct tgsi_shader *s, const struct isa_model *m, bool opt)
{
   struct emu_program prog = {0};
   struct compile_stats st = {0};
   struct diag_list d = {0};
   struct opt_options o = {0};
   o.bisect_limit = -1;
   char *log = NULL;
   double t0 = now_s();
   enum compile_status cs =
       opt ? opt_compile(s, m, &o, &prog, &st, &log, &d) : ref_compile(s, m, &prog, &st, &d);
   double dt = now_s() - t0;
   if (cs != COMPILE_OK) {
      const char *e = diag_first_error(&d);
      fprintf(stderr, "%s: bench compile: %s\n", prog_name, e ? e : "compile failed");
   }
   free(log);
   emu_program_free(&prog);
   diag_clear(&d);
   return cs == COMPILE_OK ? dt : -1;
}

/* The fastest of repeated compiles: at least twice, then until
 * TIME_BUDGET_S of CPU time is spent (at most TIME_REPEATS times). Every
 * size is measured warm: the first compile of a process pays one-time
 * costs (the heap's first page faults, the model's memo tables) that
 * would be charged to whichever size comes first, and a 1k compile takes
 * milliseconds, where one preemption can double a single sample. */
#define TIME_BUDGET_S 0.25
#define TIME_REPEATS  25
static double
time_compile(const struct tgsi_shader *s, const struct isa_model *m, bool opt)
{
   double best = -1, spent = 0;
   for (unsigned k = 0; k < TIME_REPEATS && (k < 2 || spent < TIME_BUDGET_S); k++) {
      double dt = compile_once(s, m, opt);
      if (dt < 0)
         return -1;
      spent += dt;
      if (best < 0 || dt < best)
         best = dt;
   }
   return best;
}

static int
run(char **sizes, unsigned nsizes, bool *shapes, struct isa_model **models, unsigned nmodels,
    bool *paths)
{
   struct row rows[SHAPE_COUNT][8][2];
   memset(rows, 0, sizeof(rows));
   bool failed = false;
   printf("%-6s %7s %-6s %-4s %10s %10s\n", "SHAPE", "INSNS", "TARGET", "PATH", "SECONDS",
          "US/INSN");
   for (unsigned z = 0; z < nsizes; z++) {
      unsigned want = (unsigned)strtoul(sizes[z], NULL, 10);
      for (unsigned sh = 0; sh < SHAPE_COUNT; sh++) {
         if (!shapes[sh])
            continue;
         unsigned ninsns;
         char *text = gen_shader(sh, want, &ninsns);
         struct tgsi_parse_opts po = {0};
         struct diag_list d = {0};
         struct tgsi_shader *s = tgsi_parse(text, strlen(text), shape_names[sh], &po, &d);
         free(text);
         if (!s) {
            print_diags(&d, stderr);
            diag_clear(&d);
            failed = true;
            continue;
         }
         for (unsigned t = 0; t < nmodels; t++)
            for (unsigned p = 0; p < 2; p++) {
               if (!paths[p])
                  continue;
               double dt = time_compile(s, models[t], p == 1);
               struct row *r = &rows[sh][t][p];
               const char *tn = isa_model_name(models[t]);
               if (dt < 0) {
                  printf("%-6s %7u %-6s %-4s %10s %10s\n", shape_names[sh], ninsns, tn,
                         p ? "opt" : "ref", "failed", "-");
                  r->failed = failed = true;
                  continue;
               }
               double us = dt * 1e6 / ninsns;
               printf("%-6s %7u %-6s %-4s %10.3f %10.2f\n", shape_names[sh], ninsns, tn,
                      p ? "opt" : "ref", dt, us);
               fflush(stdout);
               if (!r->n_first) {
                  r->n_first = ninsns;
                  r->us_first = us;
               }
               r->n_last = ninsns;
               r->us_last = us;
               r->s_last = dt;
            }
         tgsi_shader_free(s);
         diag_clear(&d);
      }
   }
   printf("\n%-6s %-6s %-4s %8s %-13s %8s\n", "SHAPE", "TARGET", "PATH", "GROWTH", "SIZES",
          "SECONDS");
   for (unsigned sh = 0; sh < SHAPE_COUNT; sh++)
      for (unsigned t = 0; t < nmodels && shapes[sh]; t++)
         for (unsigned p = 0; p < 2; p++) {
            const struct row *r = &rows[sh][t][p];
            if (!paths[p] || !r->n_first)
               continue;
            char range[32]; /* the instruction counts the growth is between */
            snprintf(range, sizeof(range), "%u-%u", r->n_first, r->n_last);
            printf("%-6s %-6s %-4s %7.2fx %-13s %8.3f%s\n", shape_names[sh],
                   isa_model_name(models[t]), p ? "opt" : "ref", r->us_last / r->us_first, range,
                   r->s_last, r->failed ? " (some failed)" : "");
         }
   struct rusage ru;
   if (!getrusage(RUSAGE_SELF, &ru))
      printf("peak RSS: %ld MB\n", ru.ru_maxrss / 1024);
   return failed ? EXIT_FAIL : EXIT_OK;
}

int
bench_compile(int argc, char **argv)
{
   char *sizes[16], *shape_v[SHAPE_COUNT + 1], *target_v[8], *path_v[3];
   unsigned nsizes = 0, nshape = 0, ntarget = 0, npath = 0;
   bool shapes[SHAPE_COUNT] = {true, true, true, true}, paths[2] = {true, true};
   int rc = -1;
   for (int i = 1; i < argc && rc < 0; i++) {
      const char *v;
      if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
         usage(stdout);
         rc = EXIT_OK;
      } else if (opt_value(argc, argv, &i, "--sizes", &v)) {
         bool ok = v && !nsizes && split_list(v, sizes, ARRAY_SIZE(sizes), &nsizes);
         for (unsigned k = 0; ok && k < nsizes; k++) {
            uint64_t x;
            ok = parse_u64(sizes[k], &x) && x >= 16 && x <= 1000000;
         }
         if (!ok)
            rc = usage_error("--sizes takes a comma list of counts from 16 to 1000000");
      } else if (opt_value(argc, argv, &i, "--shape", &v)) {
         bool ok = v && !nshape && split_list(v, shape_v, ARRAY_SIZE(shape_v), &nshape);
         memset(shapes, 0, sizeof(shapes));
         for (unsigned k = 0; ok && k < nshape; k++) {
            unsigned s = 0;
            while (s < SHAPE_COUNT && strcmp(shape_v[k], shape_names[s]))
               s++;
            ok = s < SHAPE_COUNT;
            if (ok)
               shapes[s] = true;
         }
         if (!ok)
            rc = usage_error("--shape takes a comma list of chain, wide, loops, pack");
      } else if (opt_value(argc, argv, &i, "--target", &v)) {
         if (!v || ntarget || !split_list(v, target_v, ARRAY_SIZE(target_v), &ntarget))
            rc = usage_error("--target takes a comma list of models (at most 8)");
      } else if (opt_value(argc, argv, &i, "--path", &v)) {
         bool ok = v && !npath && split_list(v, path_v, ARRAY_SIZE(path_v), &npath);
         paths[0] = paths[1] = false;
         for (unsigned k = 0; ok && k < npath; k++) {
            ok = !strcmp(path_v[k], "ref") || !strcmp(path_v[k], "opt");
            if (ok)
               paths[!strcmp(path_v[k], "opt")] = true;
         }
         if (!ok)
            rc = usage_error("--path takes a comma list of ref, opt");
      } else {
         rc = usage_error("bench compile: unknown argument '%s' (see --help)", argv[i]);
      }
   }
   if (rc < 0 && !nsizes) {
      static const char *const def[] = {"1000", "4000", "16000", "64000"};
      for (unsigned k = 0; k < ARRAY_SIZE(def); k++)
         sizes[nsizes++] = xstrdup(def[k]);
   }
   if (rc < 0 && !ntarget)
      for (const char *t; ntarget < ARRAY_SIZE(target_v) && (t = diff_builtin_target(ntarget));)
         target_v[ntarget++] = xstrdup(t);
   struct isa_model *models[8] = {0};
   for (unsigned k = 0; rc < 0 && k < ntarget; k++) {
      struct diag_list d = {0};
      if (isa_open(target_v[k], &models[k], &d) != ISA_ERR_OK) {
         print_diags(&d, stderr);
         rc = EXIT_USAGE;
      }
      diag_clear(&d);
   }
   if (rc < 0)
      rc = run(sizes, nsizes, shapes, models, ntarget, paths);
   for (unsigned k = 0; k < ntarget; k++) {
      if (models[k])
         isa_close(models[k]);
      free(target_v[k]);
   }
   for (unsigned k = 0; k < nsizes; k++)
      free(sizes[k]);
   for (unsigned k = 0; k < nshape; k++)
      free(shape_v[k]);
   for (unsigned k = 0; k < npath; k++)
      free(path_v[k]);
   return rc;
}
