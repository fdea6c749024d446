/*
 * End to end: every capture (captures/NAME.tgsi) and every expected-listing
 * fixture (fixtures/ref/MODEL/NAME.tgsi) is compiled by the reference
 * compiler for each model, run on the emulator with random inputs
 * (diff_gen_inputs, fixed seeds) and compared with the golden interpreter
 * on the same inputs:
 *
 *  - every output channel of every lane the interpreter marks defined, and
 *    every defined byte of every buffer and image, must agree;
 *  - kills must agree on the lanes whose kill is defined;
 *  - geometry shaders: the emitted vertices of every lane whose count is
 *    defined (count, stream, primitive number, defined data);
 *  - the run must raise no hazard event (RAW, SYNC, WAR, WAW, BAR_EARLY,
 *    FLOW_STALL, JP) and no fault (illegal encoding, bad target, stack,
 *    fell off, budget), and execute no instruction that decodes as
 *    illegal.
 *
 * Exact by default. Tolerances, by the interpreter's flags on the value:
 *  - NAN: both sides NaN (the payload is not compared);
 *  - ZSIGN: +0 and -0 are equal;
 *  - TRANS (SIN COS EX2 LG2 POW EXP LOG LIT) and RCP (RCP RSQ SQRT DIV
 *    NRM): relative error 2^-12 or absolute error 2^-20, infinities
 *    exact. The expansions build POW from EX2/LG2 (its error grows with
 *    the exponent), DIV from RCP and MUL and sm50 SQRT from RSQ and RCP,
 *    where the interpreter rounds once; later exact arithmetic can
 *    amplify the difference (x/y - x/z cancels), hence the absolute part;
 *    TRANS only: +-inf against a finite value of the same sign and
 *    magnitude >= 2^126 (POW overflowing one step early);
 *  - FUSE, LRP, ROUND: the same (a multiply-add may be fused);
 *  - a value the interpreter bounds (SIN/COS taken in revolutions: its
 *    flag word's bound, tgsi_interp_bound.c; also a memory word's): the
 *    class's tolerance of a value within the bound;
 *  - DENORM: not compared -- a denormal operand or result may be flushed,
 *    so the specification allows either answer (LOG of a denormal: the
 *    interpreter divides by a denormal power of two, the expansion
 *    multiplies by its reciprocal, which overflows).
 * A value whose flags include none of these must match bit for bit.
 *
 * Models: a3xx, sm50 and gfx9 (its reference runs on the emulator's EXEC
 * masks). Prints a table: per model, how many shaders pass, fail or are refused
 * (and why). The test fails if any compiled shader fails.
 */
#include "compiler/compiler.h"
#include "compiler/tgsi/tests/fixture_util.h"
#include "diff/diff.h"
#include "emu/emu.h"
#include "isa/isa.h"
#include "util/test.h"

#include <math.h>
#include <stdlib.h>

#define E2E_LANES 128
#define E2E_SEEDS 20 /* DIFFCOMP_E2E_SEEDS=N runs more (a deeper local check) */

static uint64_t
seeds(void)
{
   const char *e = getenv("DIFFCOMP_E2E_SEEDS");
   long n = e ? strtol(e, NULL, 10) : 0;
   return n > 0 ? (uint64_t)n : test_reps(E2E_SEEDS);
}

enum outcome { OUT_PASS, OUT_FAIL, OUT_REFUSED, OUT_SKIP };

/* Failures caused by the emulator, not the compiler: reported as KNOWN
 * and not counted. An entry names a file (or "*") and, optionally, a
 * substring of the failure; a known failure of a named file that passes
 * fails the test, so the entry is removed once the emulator is fixed. */
static const struct {
   const char *file, *model, *what, *why;
} known_emu_failures[] = {
    {NULL, NULL, NULL, NULL}, /* none at the moment */
};

static const char *
known_failure(const char *base, const char *model, const char *why, bool *named)
{
   for (unsigned i = 0; i < ARRAY_SIZE(known_emu_failures); i++) {
      const char *f = known_emu_failures[i].file, *w = known_emu_failures[i].what;
      if (!f)
         continue;
      if (strcmp(known_emu_failures[i].model, model) || (strcmp(f, "*") && strcmp(f, base)) ||
          (w && !strstr(why, w)))
         continue;
      *named = strcmp(f, "*") != 0;
      return known_emu_failures[i].why;
   }
   return NULL;
}

static bool
close_enough(uint32_t a, uint32_t b, unsigned flags)
{
   if (a == b)
      return true;
   float x = uif(a), y = uif(b);
   if ((flags & ENV_F_NAN) && x != x && y != y)
      return true;
   if ((flags & ENV_F_ZSIGN) && ((a | b) & 0x7fffffffu) == 0)
      return true;
   unsigned loose = ENV_F_TRANS | ENV_F_RCP | ENV_F_FUSE | ENV_F_LRP | ENV_F_ROUND;
   if (!(flags & loose) || x != x || y != y)
      return false;
   if (isinf(x) || isinf(y)) /* overflow at the edge: inf against a huge value */
      return (flags & ENV_F_TRANS) && (a ^ b) >> 31 == 0 && fabsf(x) >= 0x1p126f &&
             fabsf(y) >= 0x1p126f;
   double d = fabs((double)x - (double)y), m = fmax(fabs((double)x), fabs((double)y));
   return d <= m * 0x1p-12 || d <= 0x1p-20;
}

/* close_enough after moving the interpreter's value a toward b by the
 * interpreter's bound d on the value (tgsi_interp_bound.c: SIN/COS taken
 * in revolutions): within d, or within the class's tolerance of the value
 * d away. The bound of a memory word or output, above its flags. */
static bool
close_bounded(uint32_t a, uint32_t b, unsigned flags)
{
   if (close_enough(a, b, flags & ENV_F_ALL))
      return true;
   double d = env_err_value((uint16_t)(flags >> ENV_ERR_SHIFT)), x = uif(a), y = uif(b);
   if (isinf(d)) /* unbounded: not compared (the check counts it unchecked) */
      return true;
   if (!(d > 0.0) || !isfinite(x) || !isfinite(y))
      return false;
   if (fabs(x - y) <= d)
      return true;
   float near = (float)(y > x ? x + d : x - d);
   if (fabs((double)near - x) > d)
      near = nextafterf(near, (float)x);
   return close_enough(fui(near), b, flags & ENV_F_ALL);
}

/* A finite, normal, nonzero float's bits. */
static bool
normal_float(uint32_t v)
{
   uint32_t e = v >> 23 & 0xff;
   return e != 0 && e != 0xff;
}

/* Geometry shaders: per lane whose vertex count is defined, the count and
 * every emitted vertex's stream, primitive number and defined data. */
static unsigned
compare_gs(const char *what, const struct env *gold, const struct env *run)
{
   unsigned bad = 0;
   if (!gold->gs_count)
      return 0;
   if (!run->gs_count || run->gs_max_vertices != gold->gs_max_vertices) {
      fprintf(stderr, "  %s: the program emitted no geometry-shader output\n", what);
      return 1;
   }
   uint32_t maxv = gold->gs_max_vertices;
   for (uint32_t l = 0; l < gold->nlanes; l++) {
      if (gold->gs_undef[l])
         continue;
      if (gold->gs_count[l] != run->gs_count[l]) {
         if (bad++ < 4)
            fprintf(stderr, "  %s: lane %u emitted %u vertices, interp %u\n", what, l,
                    run->gs_count[l], gold->gs_count[l]);
         continue;
      }
      for (uint32_t k = 0; k < gold->gs_count[l]; k++) {
         size_t at = (size_t)l * maxv + k;
         if ((gold->gs_stream[at] != run->gs_stream[at] || gold->gs_prim[at] != run->gs_prim[at]) &&
             bad++ < 4)
            fprintf(stderr, "  %s: lane %u vertex %u: stream %u prim %u, interp %u %u\n", what, l,
                    k, run->gs_stream[at], run->gs_prim[at], gold->gs_stream[at],
                    gold->gs_prim[at]);
         for (uint32_t i = at * gold->nout * 4; i < (at + 1) * gold->nout * 4; i++) {
            unsigned f = gold->gs_flags[i];
            if (!(f & (ENV_F_UNDEF | ENV_F_DENORM)) &&
                !close_enough(gold->gs_data[i], run->gs_data[i], f) && bad++ < 4)
               fprintf(stderr, "  %s: lane %u vertex %u OUT[%u].%c: interp 0x%08x, emu 0x%08x\n",
                       what, l, k, (unsigned)(i / 4 % gold->nout), "xyzw"[i % 4],
                       gold -> gs_data[i], run -> gs_data[i]);
         }
      }
   }
   return bad;
}

/* Compares outputs, kills, buffers and images; prints the first few
 * differences. A memory word takes the classes of the value the
 * interpreter stored (a MAX of -0 and +0 leaves the sign open), as an
 * output does; image texels -- in the captures, results of shading math
 * -- also compare normal floats with the tolerance of reciprocal-class
 * results. */
static unsigned
compare(const char *what, const struct env *gold, const struct env *run)
{
   unsigned bad = 0;
   for (uint32_t v = 0; v < gold->out_vertices; v++)
      for (uint32_t r = 0; r < gold->nout; r++)
         for (unsigned ch = 0; ch < 4; ch++) {
            size_t o = env_out_index(gold, v, r, ch);
            for (uint32_t l = 0; l < gold->nlanes; l++) {
               unsigned f = gold->out_flags[o + l];
               if ((f & (ENV_F_UNDEF | ENV_F_DENORM)) || gold->killed[l] || gold->kill_undef[l])
                  continue;
               uint32_t a = gold->out[o + l], b = run->out[o + l];
               f |= gold->out_err ? (unsigned)gold->out_err[o + l] << ENV_ERR_SHIFT : 0u;
               if (close_bounded(a, b, f))
                  continue;
               if (bad++ < 4)
                  fprintf(stderr, "  %s: OUT[%u].%c lane %u: interp 0x%08x (%g), emu 0x%08x (%g)\n",
                          what, r, "xyzw"[ch], l, a, (double)uif(a), b, (double)uif(b));
            }
         }
   for (uint32_t l = 0; l < gold->nlanes; l++)
      if (!gold->kill_undef[l] && !gold->killed[l] != !run->killed[l] && bad++ < 4)
         fprintf(stderr, "  %s: lane %u killed: interp %d, emu %d\n", what, l, gold->killed[l],
                 run->killed[l]);
   for (unsigned i = 0; i < ENV_MAX_BUFFERS + ENV_MAX_IMAGES; i++) {
      bool img = i >= ENV_MAX_BUFFERS;
      const struct env_mem *g = img ? &gold->img[i - ENV_MAX_BUFFERS].mem : &gold->buf[i];
      const struct env_mem *e = img ? &run->img[i - ENV_MAX_BUFFERS].mem : &run->buf[i];
      for (uint32_t k = 0; g->data && e->data && k + 4 <= g->size; k += 4) {
         if (g->undef[k] || g->undef[k + 1] || g->undef[k + 2] || g->undef[k + 3])
            continue;
         uint32_t a, b;
         memcpy(&a, g->data + k, 4);
         memcpy(&b, e->data + k, 4);
         if (img && a != b && normal_float(a) && normal_float(b) && close_enough(a, b, ENV_F_RCP))
            continue;
         /* the classes of the value the interpreter stored, as for an
          * output (and as the check compares memory words) */
         uint32_t w = g->cls ? env_mem_class(g, k / 4) : 0;
         if (a != b && (w & ENV_F_DENORM))
            continue;
         if (a != b && w && close_bounded(a, b, w))
            continue;
         if (a != b && bad++ < 4)
            fprintf(stderr, "  %s: %s[%u] byte %u: interp 0x%08x, emu 0x%08x (classes 0x%x)\n",
                    what, img ? "IMAGE" : "BUFFER", img ? i - ENV_MAX_BUFFERS : i, k, a, b, w);
      }
   }
   return bad;
}

static bool
clean_run(const char *what, const struct isa_model *m, const struct emu_program *p,
          const struct emu_result *r)
{
   bool ok = r->status == EMU_OK;
   for (unsigned k = 0; k < EMU_EV_COUNT; k++)
      if (r->counts[k]) {
         ok = false;
         fprintf(stderr, "  %s: %llu %s event(s)", what, (unsigned long long)r->counts[k],
                 emu_event_names[k]);
         for (unsigned e = 0; e < r->nevents; e++)
            if (r->events[e].kind == k) {
               fprintf(stderr, " (first at 0x%x, producer 0x%x)", r->events[e].pc,
                       r->events[e].producer_pc);
               break;
            }
         fputc('\n', stderr);
      }
   struct isa_insn *insns = NULL;
   size_t n = 0;
   if (isa_decode_program(m, p->code, p->size, &insns, &n, NULL) != ISA_ERR_OK) {
      fprintf(stderr, "  %s: the program does not decode\n", what);
      ok = false;
   }
   for (size_t i = 0; i < n; i++)
      if (insns[i].illegal) {
         fprintf(stderr, "  %s: illegal instruction at 0x%x\n", what, insns[i].addr);
         ok = false;
         break;
      }
   free(insns);
   if (r->status != EMU_OK)
      fprintf(stderr, "  %s: emulator status %s\n", what, emu_status_names[r->status]);
   return ok;
}

/* One seed: interpreter and emulator on clones of the same inputs. */
static bool
run_seed(const char *path, const struct tgsi_shader *s, const struct isa_model *m,
         const struct emu_program *p, const struct emu_code *code, uint64_t seed)
{
   struct diag_list d = {0};
   struct env *gold = diff_gen_inputs_ex(s, seed, E2E_LANES, 0, diff_subgroup_size(m), &d);
   if (!gold) {
      fprintf(stderr, "  %s: no inputs: %s\n", path, diag_first_error(&d));
      diag_clear(&d);
      return false;
   }
   struct env *mine = env_clone(gold);
   bool ok = tgsi_interp_run(s, gold, NULL, &d) == TGSI_INTERP_OK;
   if (ok)
      ok = env_alloc_outputs(mine, gold->nout, gold->out_vertices);
   struct emu_result r = {0};
   char what[300];
   snprintf(what, sizeof(what), "%s [%s seed %llu]", path, isa_model_name(m),
            (unsigned long long)seed);
   if (ok && emu_run(code, mine, NULL, &r, &d) != EMU_OK)
      fprintf(stderr, "  %s: %s\n", what, diag_first_error(&d));
   ok = ok && clean_run(what, m, p, &r) && !compare(what, gold, mine) &&
        !compare_gs(what, gold, mine);
   emu_result_free(&r);
   env_free(gold);
   env_free(mine);
   diag_clear(&d);
   return ok;
}

static enum outcome
run_one(const char *path, const struct isa_model *m, char *why, size_t whylen)
{
   char *text, *err;
   size_t len;
   *why = 0;
   if (!read_file(path, &text, &len, &err)) {
      snprintf(why, whylen, "%s", err);
      free(err);
      return OUT_FAIL;
   }
   struct fixture_hdr h = fixture_header(text, len);
   struct diag_list d = {0};
   struct tgsi_shader *s = tgsi_parse(text, len, path, &h.opts, &d);
   free(text);
   enum outcome out = OUT_SKIP;
   enum compile_status cs;
   struct emu_program p = {0};
   struct emu_code *code = NULL;
   if (!s || tgsi_interp_check(s, &d) != TGSI_INTERP_OK) {
      snprintf(why, whylen, "interpreter: %s", diag_first_error(&d));
   } else if ((cs = ref_compile(s, m, &p, NULL, &d)) != COMPILE_OK) {
      const char *e = diag_first_error(&d);
      const char *colon = e ? strstr(e, "error: ") : NULL;
      snprintf(why, whylen, "%s%s", cs == COMPILE_ERROR ? "compiler error: " : "",
               colon ? colon + 7
               : e   ? e
                     : "?");
      out = cs == COMPILE_ERROR ? OUT_FAIL : OUT_REFUSED;
   } else if (emu_load(&p, &code, &d) != EMU_OK) {
      snprintf(why, whylen, "emu_load: %s", diag_first_error(&d));
      out = OUT_FAIL;
   } else {
      out = OUT_PASS;
      for (uint64_t seed = 1, ns = seeds(); seed <= ns && out == OUT_PASS; seed++)
         if (!run_seed(path, s, m, &p, code, seed))
            out = OUT_FAIL;
   }
   emu_code_free(code);
   emu_program_free(&p);
   tgsi_shader_free(s);
   diag_clear(&d);
   return out;
}

static void
run_model(const char *name, char **files, unsigned nfiles)
{
   struct isa_model *m = NULL;
   struct diag_list d = {0};
   if (isa_open(name, &m, &d) != ISA_ERR_OK) {
      printf("%s: model not available\n", name);
      diag_clear(&d);
      return;
   }
   unsigned count[4] = {0, 0, 0, 0}, nknown = 0;
   for (unsigned i = 0; i < nfiles; i++) {
      char why[400];
      enum outcome o = run_one(files[i], m, why, sizeof(why));
      count[o]++;
      const char *base = strrchr(files[i], '/');
      base = base ? base + 1 : files[i];
      if (o == OUT_REFUSED || o == OUT_SKIP)
         printf("  %-5s %-8s %-34s %s\n", name, o == OUT_REFUSED ? "refused" : "skipped", base,
                why);
      bool named = false;
      const char *known = known_failure(base, name, why, &named);
      if (o == OUT_FAIL && known) {
         printf("  %-5s %-8s %-34s %s\n", name, "KNOWN", base, known);
         count[o]--;
         nknown++;
         continue;
      }
      if (o == OUT_FAIL)
         printf("  %-5s %-8s %-34s %s\n", name, "FAILED", base, why);
      CHECKF(o != OUT_FAIL, "%s on %s", files[i], name);
      CHECKF(!named || o != OUT_PASS, "%s on %s passes: remove it from known_emu_failures",
             files[i], name);
   }
   printf("%s: %u pass, %u fail, %u known emulator failures, %u refused, %u skipped "
          "(interpreter refuses)\n",
          name, count[0], count[1], nknown, count[2], count[3]);
   isa_close(m);
}

int
main(int argc, char **argv)
{
   (void)fixture_pos_ok;
   static const char *const models[] = {"a3xx", "sm50", "gfx9"};
   for (unsigned k = 0; k < ARRAY_SIZE(models); k++) {
      if (argc > 2 && strcmp(argv[2], models[k]))
         continue;
      unsigned n, nf;
      char **caps = fixture_list(DC_SOURCE_DIR "/captures", &n);
      char *dir = xasprintf(DC_SOURCE_DIR "/fixtures/ref/%s", models[k]);
      char **fx = fixture_list(dir, &nf);
      /* Optional filter: a substring of the file names to run. */
      unsigned keep = 0;
      char **all = xmalloc(sizeof(char *) * (n + nf + 1));
      for (unsigned i = 0; i < n + nf; i++) {
         char *f = i < n ? caps[i] : fx[i - n];
         if (argc < 2 || strstr(f, argv[1]))
            all[keep++] = f;
      }
      run_model(models[k], all, keep);
      free(all);
      fixture_list_free(caps, n);
      fixture_list_free(fx, nf);
      free(dir);
   }
   return test_done();
}
