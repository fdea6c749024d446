/*
 * diffcomp bench emu: emulator speed on ALU-bound code. For each model, a
 * generated straight-line program of a few thousand ALU instructions
 * (float and integer adds, multiplies, multiply-adds, min/max, logic,
 * compares) over a rotating set of registers, spaced so that it runs
 * without hazards, is decoded once and run several times on 1024 lanes
 * with random inputs, batched (waves in lockstep share one timing state,
 * the default) and wave by wave. Prints lane-instructions per second and emulated
 * cycles per second (the waves' cycles summed) over the runs' CPU time
 * (the machine may be shared; wall-clock figures are printed too).
 *
 * With files (bench emu FILE.tgsi...), real programs instead: each shader
 * is compiled by both paths for each model and its program run on the
 * same random inputs; invocations and lane-instructions per CPU second
 * are printed per program and as geometric means per model and path.
 */
#include "compiler/compiler.h"
#include "compiler/ir/ir.h"
#include "compiler/tgsi/tgsi.h"
#include "diff/diff.h"
#include "emu/emu.h"
#include "isa/isa.h"
#include "tools/tools.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int bench_emu(int argc, char **argv);

static void
usage(FILE *f)
{
   fprintf(f, "usage: diffcomp bench emu [--target LIST] [--insns N] [--invocations N]\n"
              "                          [--repeat N] [--path ref|opt] [FILE.tgsi|DIR|@LIST...]\n\n"
              "Times the emulator on a generated ALU-bound program per model (default a3xx\n"
              "and sm50) and prints lane-instructions and emulated cycles per second.\n\n"
              "  --target LIST    comma list of models (names or .yaml paths; at most 8)\n"
              "  --insns N        ALU instructions in the program (default 3000)\n"
              "  --invocations N  lanes (default 1024)\n"
              "  --repeat N       runs timed (default 20)\n"
              "  --path ref|opt   with files: only that compiler's programs (default both)\n\n"
              "With files: each shader compiled by both paths (ref, opt) for each model\n"
              "(default: the check's built-in targets),\n"
              "its program run on the same random inputs (seed 1) --repeat times (default\n"
              "3 here); per program the invocations and lane-instructions per CPU second,\n"
              "then their geometric means per model and path.\n\n"
              "Exit status: 0 ran, 1 a run failed, 2 bad usage or a model that cannot be\n"
              "opened.\n");
}

/* --target LIST: each name points into a static copy of the lists given,
 * so nothing is left to free on any return. */
static bool
add_targets(const char *list, const char **models, unsigned *n, unsigned max)
{
   static char buf[1024];
   static size_t used;
   size_t len = strlen(list) + 1;
   if (!*list || used + len > sizeof(buf))
      return false;
   char *s = memcpy(buf + used, list, len);
   used += len;
   for (char *t = strtok(s, ","); t; t = strtok(NULL, ","))
      if (*n == max)
         return false;
      else
         models[(*n)++] = t;
   return true;
}

static double
now_s(clockid_t id)
{
   struct timespec ts;
   clock_gettime(id, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Register k of the rotation (16 registers) in the model's syntax. */
static void
reg(const char *model, unsigned k, char *buf, size_t n)
{
   if (!strcmp(model, "sm50"))
      snprintf(buf, n, "R%u", k % 16);
   else
      snprintf(buf, n, "r%u.%c", (k % 16) / 4, "xyzw"[k % 4]);
}

/* Instruction i writes register i and reads registers i - 6 .. i - 8
 * (older than the ALU latency of either model at one instruction per
 * cycle), so the program has no hazards. */
static char *
gen_program(const char *model, unsigned n)
{
   /* A mix like shader code: mostly float multiply/add, some integer and
    * logic, one compare and one min/max in ten. */
   static const char *const a3xx_ops[] = {"mul.f %s, %s, %s",       "add.f %s, %s, %s",
                                          "mad.f32 %s, %s, %s, %s", "mul.f %s, %s, %s",
                                          "add.f %s, %s, (neg)%s",  "add.u %s, %s, %s",
                                          "and.b %s, %s, %s",       "cmps.f.lt %s, %s, %s",
                                          "max.f %s, %s, %s",       "mad.f32 %s, %s, %s, %s"};
   static const char *const sm50_ops[] = {"S1 FMUL %s, %s, %s",       "S1 FADD %s, %s, %s",
                                          "S1 FFMA %s, %s, %s, %s",   "S1 FMUL %s, %s, %s",
                                          "S1 FADD %s, %s, -%s",      "S1 IADD %s, %s, %s",
                                          "S1 LOP.AND %s, %s, %s",    "S1 LOP.XOR %s, %s, %s",
                                          "S1 FMNMX %s, %s, %s, !PT", "S1 FFMA %s, %s, %s, %s"};
   bool sm50 = !strcmp(model, "sm50");
   const char *const *ops = sm50 ? sm50_ops : a3xx_ops;
   char *t = xasprintf(".stage vert\n.input %s IN[0].xyzw\n.input %s IN[1].xyzw\n"
                       ".input %s IN[2].xyzw\n.input %s IN[3].xyzw\n"
                       ".output %s OUT[0].xyzw\n",
                       sm50 ? "R0" : "r0.x", sm50 ? "R4" : "r1.x", sm50 ? "R8" : "r2.x",
                       sm50 ? "R12" : "r3.x", sm50 ? "R0" : "r0.x");
   size_t len = strlen(t), cap = len + (size_t)n * 48 + 64;
   t = xrealloc(t, cap);
   for (unsigned i = 0; i < n; i++) {
      char d[16], a[16], b[16], c[16], line[96];
      reg(model, i + 16, d, sizeof(d));
      reg(model, i + 16 - 6, a, sizeof(a));
      reg(model, i + 16 - 7, b, sizeof(b));
      reg(model, i + 16 - 8, c, sizeof(c));
      snprintf(line, sizeof(line), ops[i % 10], d, a, b, c);
      len += (size_t)snprintf(t + len, cap - len, "%s\n", line);
   }
   snprintf(t + len, cap - len, "%s\n", sm50 ? "S15 EXIT" : "(rpt5)nop\nend");
   return t;
}

static struct env *
bench_env(const struct emu_asm *as, uint32_t lanes, struct diag_list *d)
{
   struct diag_list td = {0};
   struct tgsi_shader *s = tgsi_parse(as->tgsi, strlen(as->tgsi), "<bench>", NULL, &td);
   diag_clear(&td);
   struct env *e = s ? diff_gen_inputs(s, 1, lanes, d) : NULL;
   tgsi_shader_free(s);
   if (e && !env_alloc_outputs(e, 1, 1)) {
      env_free(e);
      e = NULL;
   }
   return e;
}

static bool
bench_model(struct isa_model *m, unsigned ninsns, uint32_t lanes, unsigned repeat, bool no_batch)
{
   struct diag_list d = {0};
   const char *name = isa_model_name(m);
   struct emu_asm as = {0};
   struct env *e = NULL;
   struct emu_code *c = NULL;
   char *text = gen_program(name, ninsns);
   bool ok = emu_asm_parse(m, text, "<bench>", &as, &d);
   if (ok)
      ok = (e = bench_env(&as, lanes, &d)) && emu_load(&as.prog, &c, &d) == EMU_OK;
   uint64_t lane_insns = 0, cycles = 0, hazards = 0;
   double secs = 0, cpu = 0;
   unsigned W = 0;
   for (unsigned r = 0; ok && r < repeat; r++) {
      struct emu_result res;
      double t0 = now_s(CLOCK_MONOTONIC), c0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
      struct emu_options o = {.no_batch = no_batch};
      ok = emu_run(c, e, &o, &res, &d) == EMU_OK;
      secs += now_s(CLOCK_MONOTONIC) - t0;
      cpu += now_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
      lane_insns += res.lane_insns;
      cycles += res.wave_cycles;
      W = res.wave_size;
      for (unsigned k = 0; k < EMU_EV_COUNT; k++)
         hazards += res.counts[k];
      emu_result_free(&res);
   }
   if (ok)
      printf("  %-5s %s: %u insns, %u lanes, waves of %u, %u runs: %.3f s wall, %.3f s cpu%s\n"
             "        per cpu second: %.1f M lane-instructions, %.2f M emulated cycles"
             " (wall: %.1f M, %.2f M)\n",
             name, no_batch ? "wave by wave" : "batched", ninsns, lanes, W, repeat, secs, cpu,
             hazards ? " (the program had hazards!)" : "", (double)lane_insns / cpu / 1e6,
             (double)cycles / cpu / 1e6, (double)lane_insns / secs / 1e6,
             (double)cycles / secs / 1e6);
   else
      fprintf(stderr, "%s: bench emu %s failed\n", prog_name, name);
   print_diags(&d, stderr);
   diag_clear(&d);
   emu_code_free(c);
   env_free(e);
   emu_asm_free(&as);
   free(text);
   return ok;
}

static uint32_t
shader_nout(const struct tgsi_shader *s)
{
   uint32_t n = 0;
   for (unsigned i = 0; i < s->ndecls; i++)
      if (s->decls[i].file == TGSI_FILE_OUT)
         n = MAX2(n, s->decls[i].last + 1);
   return n;
}

struct emu_mean {
   double log_inv, log_li;
   unsigned n, failed;
};

/* Compiles s for m by one path and times its program on in; false when
 * it does not compile or run (counted, not fatal). */
static void
bench_program(const char *path, const struct tgsi_shader *s, struct isa_model *m, bool opt,
              const struct env *in, unsigned repeat, struct emu_mean *mean)
{
   struct emu_program prog = {0};
   struct compile_stats st = {0};
   struct diag_list d = {0};
   struct opt_options oo = {0};
   oo.bisect_limit = -1;
   char *olog = NULL;
   enum compile_status cs =
       opt ? opt_compile(s, m, &oo, &prog, &st, &olog, &d) : ref_compile(s, m, &prog, &st, &d);
   free(olog);
   struct emu_code *c = NULL;
   bool ok = cs == COMPILE_OK && emu_load(&prog, &c, &d) == EMU_OK;
   uint64_t li = 0;
   double cpu = 0;
   for (unsigned r = 0; ok && r < repeat; r++) {
      struct env *e = env_clone(in);
      struct emu_result res = {0};
      ok = env_alloc_outputs(e, shader_nout(s), tgsi_interp_prop(s, TGSI_PROP_TCS_VERTICES_OUT, 1));
      double c0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
      ok = ok && emu_run(c, e, &(struct emu_options){0}, &res, &d) == EMU_OK;
      cpu += now_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
      li += res.lane_insns;
      emu_result_free(&res);
      env_free(e);
   }
   const char *name = isa_model_name(m);
   if (ok && cpu > 0 && li) {
      double inv = (double)in->nlanes * repeat / cpu, lis = (double)li / cpu;
      printf("  %-40s %-6s %-3s %6u insns %10.0f inv/s %8.1f M lane-insns/s\n", path, name,
             opt ? "opt" : "ref", st.instructions, inv, lis / 1e6);
      mean->log_inv += log(inv);
      mean->log_li += log(lis);
      mean->n++;
   } else {
      const char *why = diag_first_error(&d);
      printf("  %-40s %-6s %-3s %s\n", path, name, opt ? "opt" : "ref",
             cs != COMPILE_OK ? "does not compile"
             : why            ? why
                              : "did not run");
      mean->failed++;
   }
   emu_code_free(c);
   emu_program_free(&prog);
   diag_clear(&d);
}

static int
bench_files(const char *const *files, unsigned nfiles, struct isa_model **m, unsigned nmodels,
            uint32_t lanes, unsigned repeat, const bool paths[2])
{
   struct emu_mean mean[8][2];
   memset(mean, 0, sizeof(mean));
   bool bad = false;
   printf("bench emu: %u shaders, %u invocations, %u runs each\n", nfiles, lanes, repeat);
   for (unsigned f = 0; f < nfiles; f++) {
      struct tgsi_shader *s = bench_parse_tgsi(files[f]);
      struct diag_list d = {0};
      struct env *in = s ? diff_gen_inputs(s, 1, lanes, &d) : NULL;
      if (!in) {
         print_diags(&d, stderr);
         bad = true;
      }
      for (unsigned k = 0; in && k < nmodels; k++)
         for (unsigned p = 0; p < 2; p++)
            if (paths[p])
               bench_program(files[f], s, m[k], p == 1, in, repeat, &mean[k][p]);
      diag_clear(&d);
      env_free(in);
      tgsi_shader_free(s);
   }
   for (unsigned k = 0; k < nmodels; k++)
      for (unsigned p = 0; p < 2; p++)
         if (mean[k][p].n)
            printf("geomean %-6s %s over %u programs: %.0f invocations/s, %.1f M "
                   "lane-instructions/s (%u did not compile or run)\n",
                   isa_model_name(m[k]), p ? "opt" : "ref", mean[k][p].n,
                   exp(mean[k][p].log_inv / mean[k][p].n),
                   exp(mean[k][p].log_li / mean[k][p].n) / 1e6, mean[k][p].failed);
   return bad ? EXIT_USAGE : EXIT_OK;
}

int
bench_emu(int argc, char **argv)
{
   uint64_t ninsns = 3000, lanes = 1024, repeat = 0;
   const char *args[1024];
   unsigned nargs = 0;
   const char *models[8];
   unsigned nmodels = 0;
   bool paths[2] = {true, true};
   for (int i = 1; i < argc; i++) {
      const char *v;
      if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
         usage(stdout);
         return EXIT_OK;
      } else if (opt_value(argc, argv, &i, "--insns", &v)) {
         if (!v || !parse_u64(v, &ninsns) || !ninsns || ninsns > 100000)
            return usage_error("--insns takes a count from 1 to 100000");
      } else if (opt_value(argc, argv, &i, "--invocations", &v)) {
         if (!v || !parse_u64(v, &lanes) || !lanes || lanes > ENV_MAX_LANES)
            return usage_error("--invocations takes a count from 1 to %u", ENV_MAX_LANES);
      } else if (opt_value(argc, argv, &i, "--repeat", &v)) {
         if (!v || !parse_u64(v, &repeat) || !repeat || repeat > 100000)
            return usage_error("--repeat takes a count from 1 to 100000");
      } else if (opt_value(argc, argv, &i, "--target", &v)) {
         if (!v || !add_targets(v, models, &nmodels, ARRAY_SIZE(models)))
            return usage_error("--target takes a comma list of at most %u models",
                               (unsigned)ARRAY_SIZE(models));
      } else if (opt_value(argc, argv, &i, "--path", &v)) {
         if (!v || (strcmp(v, "ref") && strcmp(v, "opt")))
            return usage_error("--path takes ref or opt");
         paths[0] = !strcmp(v, "ref");
         paths[1] = !paths[0];
      } else if (argv[i][0] == '-') {
         return unknown_option("bench emu", argv[i]);
      } else if (nargs < ARRAY_SIZE(args)) {
         args[nargs++] = argv[i];
      } else {
         return usage_error("bench emu: at most %u files", (unsigned)ARRAY_SIZE(args));
      }
   }
   struct shader_args in = {0}; /* files, directories and @lists */
   for (unsigned k = 0; k < nargs; k++)
      if (shader_args_add(&in, args[k])) {
         shader_args_free(&in);
         return EXIT_USAGE;
      }
   const char **files = in.files;
   unsigned nfiles = in.nfiles;
   if (!repeat)
      repeat = nfiles ? 3 : 20;
   if (!nmodels && nfiles) /* real programs: every target the check uses */
      for (const char *t; nmodels < ARRAY_SIZE(models) && (t = diff_builtin_target(nmodels));)
         models[nmodels++] = t;
   if (!nmodels) {
      models[nmodels++] = "a3xx";
      models[nmodels++] = "sm50";
   }
   /* Every model is opened first: a bad name or file is a usage error,
    * reported once, before any timing. */
   struct isa_model *m[ARRAY_SIZE(models)] = {0};
   bool ok = true;
   for (unsigned k = 0; k < nmodels && ok; k++) {
      struct diag_list d = {0};
      ok = isa_open(models[k], &m[k], &d) == ISA_ERR_OK;
      print_diags(&d, stderr);
      diag_clear(&d);
   }
   int rc = EXIT_OK;
   if (ok && nfiles)
      rc = bench_files(files, nfiles, m, nmodels, (uint32_t)lanes, (unsigned)repeat, paths);
   else if (ok)
      printf("bench emu: straight-line ALU code\n");
   for (unsigned k = 0; k < nmodels && ok && !nfiles; k++) {
      ok &= bench_model(m[k], (unsigned)ninsns, (uint32_t)lanes, (unsigned)repeat, false);
      ok &= bench_model(m[k], (unsigned)ninsns, (uint32_t)lanes, (unsigned)repeat, true);
   }
   bool opened = true;
   for (unsigned k = 0; k < nmodels; k++) {
      opened &= m[k] != NULL;
      isa_close(m[k]);
   }
   shader_args_free(&in);
   return !opened ? EXIT_USAGE : !ok ? EXIT_FAIL : rc;
}
