/*
 * End to end for the optimizing compiler: every capture is compiled with
 * opt_compile for each model, run on the emulator with random inputs
 * (diff_gen_inputs, fixed seeds) and compared with the golden interpreter
 * on the same inputs. A compiled shader passes when, for every seed:
 *   - every output channel the interpreter defines agrees (exactly, or
 *     within the tolerance the interpreter's flags on that value allow:
 *     NaN payloads, the sign of zero, and a relative 2^-12 / absolute
 *     2^-20 error for transcendental, reciprocal, fused-or-not and rounding
 *     classes; denormal-touched values are not compared), and so do the
 *     defined kills and the defined bytes of every buffer;
 *   - the emulator reports no hazard and no fault, and the program has no
 *     illegal encoding.
 * Shaders the compiler refuses (COMPILE_UNSUPPORTED) are listed with the
 * reason; a compiler error or a failing shader fails the test.
 *
 * Bisecting: for a few captures, the program cut after the Nth
 * transformation (--opt-bisect-limit, several N from none to all) must
 * pass the same way -- every optional transformation of the backend falls
 * back to a correct choice. And the emulator must catch what hazard
 * insertion prevents: with the hazard pass disabled, it reports hazards.
 *
 * Models that fuse (ffma, no fmad) run twice: exact, and with fuse_ffma
 * (MAD and DP* as ffma, an inexact transformation). With fuse_ffma a value
 * may leave the FUSE tolerance (a fused result crossing a floor or a
 * compare): such shaders are counted, not failed -- events and encodings
 * must still be clean, and the exact run must match;
 * and the INVARIANT outputs of the captures that declare them must come
 * out bit-identical in both modes.
 *
 * It prints, per model, how many captures pass, and the static figures
 * (instructions, nops, registers) and emulated cycles (the longest wave,
 * worst seed) of the passing ones beside the reference compiler's for the
 * same shader and inputs, where the reference compiles and runs it
 * cleanly (`test_backend_e2e [substring [model]]` narrows the run).
 */
#include "compiler/compiler.h"
#include "compiler/ir/ir.h"
#include "diff/diff.h"
#include "emu/emu.h"
#include "util/test.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define LANES 128
#define SEEDS 12

struct totals {
   unsigned pass, fail, refused, skipped;
   unsigned inexact; /* with ffma: passing ones whose values left the FUSE tolerance */
   unsigned long long insns, nops, regs, cycles;
   /* the shaders both compilers run: opt's and ref's figures */
   unsigned both;
   unsigned long long o_insns, o_regs, o_cycles, r_insns, r_regs, r_cycles;
};

static bool
tolerated(uint32_t a, uint32_t b, unsigned flags)
{
   if (a == b)
      return true;
   float x = uif(a), y = uif(b);
   /* as the check's oracle rules (branch check, diff/compare.c): a value
    * that went through a NaN is not compared unless both are NaN (an
    * overflow to inf - inf unfused is an infinity fused) */
   if (isnan(x) && isnan(y))
      return true;
   if (flags & ENV_F_NAN)
      return true;
   if ((flags & ENV_F_ZSIGN) && !((a | b) & 0x7fffffffu))
      return true;
   if (!(flags & (ENV_F_TRANS | ENV_F_RCP | ENV_F_FUSE | ENV_F_LRP | ENV_F_ROUND)) || isnan(x) ||
       isnan(y))
      return false;
   /* a multiply-add overflows unfused where the fused one stays finite
    * (the check's rules allow that for POW only: reported), and POW one
    * step early or late: an infinity against the same sign beyond 2^126 */
   if (isinf(x) || isinf(y))
      return (flags & (ENV_F_FUSE | ENV_F_TRANS)) && !((a ^ b) >> 31) && fabsf(x) >= 0x1p126f &&
             fabsf(y) >= 0x1p126f;
   double d = fabs((double)x - (double)y), big = fmax(fabs((double)x), fabs((double)y));
   return d <= big * 0x1p-12 || d <= 0x1p-20;
}

static unsigned
differences(const char *what, const struct env *gold, const struct env *got)
{
   unsigned bad = 0;
   for (uint32_t v = 0; v < gold->out_vertices; v++)
      for (uint32_t r = 0; r < gold->nout; r++)
         for (unsigned c = 0; c < 4; c++) {
            size_t o = env_out_index(gold, v, r, c);
            for (uint32_t l = 0; l < gold->nlanes; l++) {
               unsigned f = gold->out_flags[o + l];
               if ((f & (ENV_F_UNDEF | ENV_F_DENORM)) || gold->killed[l] || gold->kill_undef[l] ||
                   tolerated(gold->out[o + l], got->out[o + l], f))
                  continue;
               if (bad++ < 3)
                  fprintf(stderr, "  %s: OUT[%u].%c lane %u: interpreter 0x%08x, emulator 0x%08x\n",
                          what, r, "xyzw"[c], l, gold -> out[o + l], got -> out[o + l]);
            }
         }
   for (uint32_t l = 0; l < gold->nlanes; l++)
      if (!gold->kill_undef[l] && !gold->killed[l] != !got->killed[l] && bad++ < 3)
         fprintf(stderr, "  %s: lane %u killed: interpreter %d, emulator %d\n", what, l,
                 gold->killed[l], got->killed[l]);
   /* buffer words: exact, unless the interpreter stored the value with
    * classes (a MAX of -0 and +0: its sign open), which apply as to an
    * output (and as the check compares memory words) */
   for (unsigned i = 0; i < ENV_MAX_BUFFERS; i++) {
      const struct env_mem *g = &gold->buf[i], *e = &got->buf[i];
      for (uint32_t k = 0; g->data && e->data && k + 4 <= g->size && k + 4 <= e->size; k += 4) {
         if (g->undef[k] || g->undef[k + 1] || g->undef[k + 2] || g->undef[k + 3])
            continue;
         uint32_t a, b, w = env_mem_class(g, k / 4);
         memcpy(&a, g->data + k, 4);
         memcpy(&b, e->data + k, 4);
         if (a != b && (!w || (!(w & ENV_F_DENORM) && !tolerated(a, b, w))) && bad++ < 3)
            fprintf(stderr, "  %s: BUFFER[%u] byte %u: interpreter 0x%08x, emulator 0x%08x\n", what,
                    i, k, a, b);
      }
   }
   return bad;
}

static bool
no_events(const char *what, const struct emu_result *r)
{
   bool ok = r->status == EMU_OK;
   for (unsigned k = 0; k < EMU_EV_COUNT; k++)
      if (r->counts[k]) {
         ok = false;
         unsigned pc = 0, producer = 0;
         for (unsigned e = 0; e < r->nevents; e++)
            if (r->events[e].kind == k) {
               pc = r->events[e].pc;
               producer = r->events[e].producer_pc;
               break;
            }
         fprintf(stderr, "  %s: %llu %s event(s), first at 0x%x (producer 0x%x)\n", what,
                 (unsigned long long)r->counts[k], emu_event_names[k], pc, producer);
      }
   return ok;
}

static bool
encodings_legal(const struct emu_program *p)
{
   struct isa_insn *in = NULL;
   size_t n = 0;
   bool ok = isa_decode_program(p->model, p->code, p->size, &in, &n, NULL) == ISA_ERR_OK;
   for (size_t i = 0; ok && i < n; i++)
      ok = in[i].illegal == ISA_ILLEGAL_NONE;
   free(in);
   return ok;
}

static bool run_seed(const char *what, const struct tgsi_shader *s, const struct emu_code *code,
                     uint64_t seed, uint64_t *cycles, bool *differing);

/* The reference compiler's figures for s (false if it does not compile
 * it or does not run it cleanly on every seed). */
static bool
ref_figures(const struct tgsi_shader *s, const struct isa_model *m, struct compile_stats *st,
            uint64_t *cycles)
{
   struct emu_program p = {0};
   struct emu_code *code = NULL;
   struct diag_list d = {0};
   bool ok = ref_compile(s, m, &p, st, &d) == COMPILE_OK && emu_load(&p, &code, &d) == EMU_OK;
   *cycles = 0;
   for (uint64_t seed = 1; seed <= test_reps(SEEDS) && ok; seed++) {
      uint64_t c = 0;
      ok = run_seed("ref", s, code, seed, &c, NULL);
      *cycles = MAX2(*cycles, c);
   }
   emu_code_free(code);
   emu_program_free(&p);
   diag_clear(&d);
   return ok;
}

/* One seed; the emulator's cycles go to *cycles. With differing, output
 * differences do not fail the seed: they set *differing. */
static bool
run_seed(const char *what, const struct tgsi_shader *s, const struct emu_code *code, uint64_t seed,
         uint64_t *cycles, bool *differing)
{
   struct diag_list d = {0};
   struct env *gold = diff_gen_inputs(s, seed, LANES, &d);
   bool ok = gold != NULL;
   struct env *got = ok ? env_clone(gold) : NULL;
   ok = ok && tgsi_interp_run(s, gold, NULL, &d) == TGSI_INTERP_OK &&
        env_alloc_outputs(got, gold->nout, gold->out_vertices);
   struct emu_result r = {0};
   if (ok && emu_run(code, got, NULL, &r, &d) != EMU_OK)
      fprintf(stderr, "  %s: %s\n", what, diag_first_error(&d) ? diag_first_error(&d) : "");
   ok = ok && no_events(what, &r);
   if (ok && differing)
      *differing |= differences(what, gold, got) > 0;
   else
      ok = ok && !differences(what, gold, got);
   *cycles = r.cycles;
   emu_result_free(&r);
   env_free(gold);
   env_free(got);
   diag_clear(&d);
   return ok;
}

/* Compiles and runs one capture; ffma: with opts.fuse_ffma. */
static void
run_file(const char *path, const struct isa_model *m, bool ffma, struct totals *t)
{
   char *text, *err;
   size_t len;
   if (!read_file(path, &text, &len, &err)) {
      CHECKF(false, "%s", err);
      free(err);
      return;
   }
   struct diag_list d = {0};
   struct tgsi_parse_opts po = {.legacy = true};
   struct tgsi_shader *s = tgsi_parse(text, len, path, &po, &d);
   free(text);
   const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
   struct emu_program p = {0};
   struct compile_stats st = {0};
   struct emu_code *code = NULL;
   struct opt_options o = {.validate = true, .bisect_limit = -1, .fuse_ffma = ffma};
   enum compile_status cs;
   char model[32];
   snprintf(model, sizeof(model), "%s%s", isa_model_name(m), ffma ? "+ffma" : "");
   if (!s || tgsi_interp_check(s, &d) != TGSI_INTERP_OK) {
      t->skipped++;
   } else if ((cs = opt_compile(s, m, &o, &p, &st, NULL, &d)) == COMPILE_UNSUPPORTED) {
      t->refused++;
      printf("  %-10s refused %-32s %s\n", model, base, diag_first_error(&d));
   } else if (cs != COMPILE_OK || emu_load(&p, &code, &d) != EMU_OK) {
      t->fail++;
      CHECKF(false, "%s on %s: %s", base, model, diag_first_error(&d));
   } else {
      bool ok = encodings_legal(&p);
      CHECKF(ok, "%s on %s: an illegal encoding", base, model);
      uint64_t cycles = 0, c;
      bool differing = false; /* with ffma: results the fused rounding moved */
      for (uint64_t seed = 1; seed <= test_reps(SEEDS) && ok; seed++) {
         char what[256];
         snprintf(what, sizeof(what), "%s %s seed %llu", model, base, (unsigned long long)seed);
         ok = run_seed(what, s, code, seed, &c, ffma ? &differing : NULL);
         cycles = MAX2(cycles, c);
      }
      t->inexact += differing;
      CHECKF(ok, "%s on %s", base, model);
      if (ok) {
         t->pass++;
         t->insns += st.instructions;
         t->nops += st.nops;
         t->regs += st.registers;
         t->cycles += cycles;
         struct compile_stats rs = {0};
         uint64_t rc = 0;
         char cmp[128] = "";
         if (ref_figures(s, m, &rs, &rc)) {
            t->both++;
            t->o_insns += st.instructions;
            t->o_regs += st.registers;
            t->o_cycles += cycles;
            t->r_insns += rs.instructions;
            t->r_regs += rs.registers;
            t->r_cycles += rc;
            snprintf(cmp, sizeof(cmp), "| ref %4u insns %3u regs %6llu cycles", rs.instructions,
                     rs.registers, (unsigned long long)rc);
         }
         printf("  %-10s pass    %-30s %4u insns %3u nops %3u regs %6llu cycles %s%s\n", model,
                base, st.instructions, st.nops, st.registers, (unsigned long long)cycles, cmp,
                differing ? " (values beyond the FUSE tolerance)" : "");
      } else {
         t->fail++;
         printf("  %-10s FAILED  %-32s\n", model, base);
      }
   }
   emu_code_free(code);
   emu_program_free(&p);
   tgsi_shader_free(s);
   diag_clear(&d);
}

/* Compiles with options o and runs every seed; *events gets the hazard
 * events of the first seed. */
static bool
compile_and_run(const char *path, const struct isa_model *m, struct opt_options *o,
                long long *ntransforms, uint64_t *hazards)
{
   char *text, *err;
   size_t len;
   if (!read_file(path, &text, &len, &err)) {
      free(err);
      return false;
   }
   struct diag_list d = {0};
   struct tgsi_parse_opts po = {.legacy = true};
   struct tgsi_shader *s = tgsi_parse(text, len, path, &po, &d);
   free(text);
   struct emu_program p = {0};
   struct emu_code *code = NULL;
   char *log = NULL;
   bool ok = s && opt_compile(s, m, o, &p, NULL, &log, &d) == COMPILE_OK &&
             emu_load(&p, &code, &d) == EMU_OK;
   CHECKF(ok, "%s: %s", path, diag_first_error(&d));
   *ntransforms = 0;
   for (const char *q = log; q && (q = strstr(q, "BISECT: ")); q++)
      *ntransforms += !strstr(q, "not done") || strstr(q, "not done") > strchr(q, '\n');
   free(log);
   *hazards = 0;
   for (uint64_t seed = 1; ok && seed <= 3; seed++) {
      struct env *gold = diff_gen_inputs(s, seed, LANES, &d);
      struct env *got = gold ? env_clone(gold) : NULL;
      struct emu_result r = {0};
      ok = gold && tgsi_interp_run(s, gold, NULL, &d) == TGSI_INTERP_OK &&
           env_alloc_outputs(got, gold->nout, gold->out_vertices) &&
           emu_run(code, got, NULL, &r, &d) == EMU_OK;
      for (unsigned k = 0; k < EMU_EV_FIRST_FAULT; k++)
         *hazards += r.counts[k];
      ok = ok && (o->disable || (no_events(path, &r) && !differences(path, gold, got)));
      emu_result_free(&r);
      env_free(gold);
      env_free(got);
   }
   emu_code_free(code);
   emu_program_free(&p);
   tgsi_shader_free(s);
   diag_clear(&d);
   return ok;
}

/* Captures with loops, branches, textures and long straight-line code on
 * a3xx; on sm50 the ones it compiles (no loops or textures there yet). */
static void
bisect_checks(const struct isa_model *m)
{
   static const char *const a3xx[] = {"fs_raymarch_sdf", "fs_switch_material",
                                      "vs_legacy_fixedfunc_fog", "fs_blur_separable"};
   static const char *const sm50[] = {"fs_dither_discard", "vs_clip_planes",
                                      "vs_legacy_fixedfunc_fog", "vs_particle_billboard"};
   const char *const *names = strcmp(isa_model_name(m), "sm50") ? a3xx : sm50;
   for (unsigned i = 0; i < 4; i++) {
      char *path = xasprintf(DC_SOURCE_DIR "/captures/%s.tgsi", names[i]);
      struct opt_options o = {
          .validate = true, .bisect = true, .bisect_limit = -1, .fuse_ffma = true};
      long long n = 0;
      uint64_t hz = 0;
      if (compile_and_run(path, m, &o, &n, &hz)) {
         CHECKF(n > 10, "%s: only %lld transformations", names[i], n);
         for (long long k = 0; k <= 4; k++) {
            long long cut;
            o.bisect_limit = n * k / 4;
            bool ok = compile_and_run(path, m, &o, &cut, &hz);
            CHECKF(ok, "%s cut after %lld of %lld transformations", names[i], o.bisect_limit, n);
            CHECKF(cut == o.bisect_limit, "%s: %lld transformations done, limit %lld", names[i],
                   cut, o.bisect_limit);
         }
         /* unscheduled: a good schedule alone can hide every latency */
         struct opt_options nohz = {
             .validate = true, .bisect_limit = -1, .disable = "sched,hazard"};
         compile_and_run(path, m, &nohz, &n, &hz);
         CHECKF(hz > 0, "%s without hazard insertion: the emulator saw no hazard", names[i]);
      }
      free(path);
   }
}

/* The outputs of s after one run of the program opt_compile gives with o
 * (NULL if it does not compile or run); *insns gets its size. */
static struct env *
run_outputs(const struct tgsi_shader *s, const struct isa_model *m, const struct opt_options *o,
            const struct env *in, unsigned *insns)
{
   struct diag_list d = {0};
   struct emu_program p = {0};
   struct emu_code *code = NULL;
   struct compile_stats st = {0};
   struct env *e = env_clone(in);
   struct emu_result r = {0};
   bool ok =
       opt_compile(s, m, o, &p, &st, NULL, &d) == COMPILE_OK && emu_load(&p, &code, &d) == EMU_OK &&
       env_alloc_outputs(e, in->nout, in->out_vertices) && emu_run(code, e, NULL, &r, &d) == EMU_OK;
   CHECKF(ok, "%s", diag_first_error(&d));
   *insns = st.instructions;
   emu_result_free(&r);
   emu_code_free(code);
   emu_program_free(&p);
   diag_clear(&d);
   if (!ok) {
      env_free(e);
      return NULL;
   }
   return e;
}

/* Seed 003: an INVARIANT output keeps its bits whatever the options --
 * the ffma program (smaller: the other outputs fuse) computes it exactly
 * as the exact one does. */
static void
invariance_checks(const struct isa_model *m)
{
   static const char *const names[] = {"vs_mvp_invariant", "vs_clip_planes", "vs_ui_quad"};
   for (unsigned i = 0; i < ARRAY_SIZE(names); i++) {
      char *path = xasprintf(DC_SOURCE_DIR "/captures/%s.tgsi", names[i]), *text, *err;
      size_t len;
      struct diag_list d = {0};
      struct tgsi_parse_opts po = {.legacy = true};
      struct tgsi_shader *s = NULL;
      if (read_file(path, &text, &len, &err)) {
         s = tgsi_parse(text, len, path, &po, &d);
         free(text);
      } else {
         free(err);
      }
      CHECKF(s, "%s: %s", names[i], diag_first_error(&d));
      struct env *in = s ? diff_gen_inputs(s, 5, LANES, &d) : NULL;
      if (in && tgsi_interp_run(s, in, NULL, &d) != TGSI_INTERP_OK) { /* sizes the outputs */
         env_free(in);
         in = NULL;
      }
      struct opt_options exact = {.bisect_limit = -1},
                         fused = {.bisect_limit = -1, .fuse_ffma = true};
      unsigned ni = 0, nf = 0, ninv = 0, bad = 0;
      struct env *a = in ? run_outputs(s, m, &exact, in, &ni) : NULL;
      struct env *b = in ? run_outputs(s, m, &fused, in, &nf) : NULL;
      for (unsigned k = 0; a && b && k < s->ndecls; k++) {
         const struct tgsi_decl *dc = &s->decls[k];
         if (dc->file != TGSI_FILE_OUT || !dc->invariant)
            continue;
         for (uint32_t r = dc->first; r <= dc->last; r++, ninv++)
            for (unsigned c = 0; c < 4; c++)
               for (uint32_t l = 0; l < in->nlanes; l++) {
                  size_t o = env_out_index(a, 0, r, c) + l;
                  bad += a->out[o] != b->out[o];
               }
      }
      CHECKF(a && b && ninv && !bad, "%s: %u invariant output values differ with fuse_ffma",
             names[i], bad);
      if (!strcmp(names[i], "vs_mvp_invariant"))
         CHECKF(nf < ni, "%s: fuse_ffma fused nothing (%u vs %u instructions)", names[i], nf, ni);
      env_free(a);
      env_free(b);
      env_free(in);
      tgsi_shader_free(s);
      diag_clear(&d);
      free(path);
   }
}

static void
print_totals(const char *model, bool ffma, unsigned n, const struct totals *t)
{
   const char *mode = ffma ? "+ffma" : "";
   printf("%s%s: %u of %u captures pass (%u fail, %u refused, %u not run by the interpreter); "
          "passing ones: %llu instructions, %llu nops, %llu registers, %llu cycles\n",
          model, mode, t->pass, n, t->fail, t->refused, t->skipped, t->insns, t->nops, t->regs,
          t->cycles);
   if (ffma)
      printf("%s%s: %u of the passing ones have values beyond the FUSE tolerance (fused rounding "
             "moved across a floor or compare: expected of an inexact transformation)\n",
             model, mode, t->inexact);
   if (t->both)
      printf("%s%s: on the %u shaders both compilers run: opt/ref instructions %llu/%llu = "
             "%.2f, registers %llu/%llu = %.2f, emulated cycles %llu/%llu = %.2f\n",
             model, mode, t->both, t->o_insns, t->r_insns, (double)t->o_insns / (double)t->r_insns,
             t->o_regs, t->r_regs, (double)t->o_regs / (double)t->r_regs, t->o_cycles, t->r_cycles,
             (double)t->o_cycles / (double)t->r_cycles);
}

static int
cmp_str(const void *a, const void *b)
{
   return strcmp(*(char *const *)a, *(char *const *)b);
}

int
main(int argc, char **argv)
{
   static const char *const models[] = {"a3xx", "sm50"};
   DIR *dir = opendir(DC_SOURCE_DIR "/captures");
   CHECKF(dir, "no captures directory");
   char **files = NULL;
   unsigned n = 0, cap = 0;
   for (struct dirent *e; dir && (e = readdir(dir));) {
      size_t l = strlen(e->d_name);
      if (l > 5 && !strcmp(e->d_name + l - 5, ".tgsi") && (argc < 2 || strstr(e->d_name, argv[1])))
         VEC_PUSH(files, n, cap, xasprintf(DC_SOURCE_DIR "/captures/%s", e->d_name));
   }
   if (dir)
      closedir(dir);
   if (n)
      qsort(files, n, sizeof(*files), cmp_str);
   for (unsigned k = 0; k < ARRAY_SIZE(models); k++) {
      if (argc > 2 && strcmp(argv[2], models[k]))
         continue;
      struct isa_model *m = NULL;
      struct diag_list d = {0};
      if (isa_open(models[k], &m, &d) != ISA_ERR_OK) {
         diag_clear(&d);
         continue;
      }
      /* exact, then (where the model fuses) with fuse_ffma */
      bool fuses = opt_op_by_sem(m, ISA_SEM_FFMA) >= 0 && opt_op_by_sem(m, ISA_SEM_FMAD) < 0;
      for (int ffma = 0; ffma <= (int)fuses; ffma++) {
         struct totals t = {0};
         for (unsigned i = 0; i < n; i++)
            run_file(files[i], m, ffma, &t);
         print_totals(models[k], ffma, n, &t);
      }
      if (argc < 2)
         bisect_checks(m);
      if (argc < 2 && fuses)
         invariance_checks(m);
      isa_close(m);
   }
   for (unsigned i = 0; i < n; i++)
      free(files[i]);
   free(files);
   return test_done();
}
