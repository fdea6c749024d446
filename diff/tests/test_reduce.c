/*
 * The reducer on synthetic predicates: a static one ("a MAD's result
 * reaches OUT[0]") and ones computed with the real interpreter ("OUT[0].x
 * of lane 0 is NaN", "OUT[0].x of lane 0 is 5"), on real captures and on a
 * shader built to need every control-flow pass. Each result must still
 * satisfy its predicate, re-parse (the parser runs the sanity rules) and
 * be small. Also: value ranks, lane selection, input reduction, budgets,
 * determinism, the cache, refusals. Prints one line per capture (before,
 * after, predicate evaluations, seconds) for the record; nothing asserts
 * on time.
 */
#include "compiler/tgsi/tgsi.h"
#include "diff/diff.h"
#include "emu/emu.h"
#include "util/test.h"

#include <stdlib.h>

static struct tgsi_shader *
load(const char *name)
{
   char *path = xasprintf("%s/captures/%s", DC_SOURCE_DIR, name);
   struct tgsi_parse_opts po = {0};
   struct diag_list d = {0};
   struct tgsi_shader *s = tgsi_parse_file(path, &po, &d);
   CHECKF(s != NULL, "%s: %s", path, diag_first_error(&d));
   diag_clear(&d);
   free(path);
   return s;
}

/* Re-parses the printed result: it must parse and pass sanity. */
static bool
reparses(const struct tgsi_shader *s)
{
   char *text = tgsi_print(s);
   struct tgsi_parse_opts po = {0};
   struct diag_list d = {0};
   struct tgsi_shader *p = tgsi_parse(text, strlen(text), "reduced", &po, &d);
   bool ok = p && d.nerrors == 0;
   if (!ok)
      fprintf(stderr, "does not re-parse: %s\n%s", diag_first_error(&d), text);
   tgsi_shader_free(p);
   diag_clear(&d);
   free(text);
   return ok;
}

static unsigned
count_ops(const struct tgsi_shader *s, bool (*is)(enum tgsi_opcode))
{
   unsigned n = 0;
   for (unsigned i = 0; i < s->ninsns; i++)
      n += is(s->insns[i].op);
   return n;
}

static bool
is_mad(enum tgsi_opcode op)
{
   return op == TGSI_OP_MAD;
}

static bool is_cf(enum tgsi_opcode op) __attribute__((unused));
static bool
is_cf(enum tgsi_opcode op)
{
   return op == TGSI_OP_IF || op == TGSI_OP_UIF || op == TGSI_OP_ELSE || op == TGSI_OP_ENDIF ||
          op == TGSI_OP_BGNLOOP || op == TGSI_OP_ENDLOOP || op == TGSI_OP_SWITCH ||
          op == TGSI_OP_CASE || op == TGSI_OP_DEFAULT || op == TGSI_OP_ENDSWITCH ||
          op == TGSI_OP_BRK || op == TGSI_OP_CONT || op == TGSI_OP_CAL || op == TGSI_OP_RET ||
          op == TGSI_OP_BGNSUB || op == TGSI_OP_ENDSUB;
}

/* ------------------------------------------------------------------ */
/* Predicate 1: a MAD's result reaches OUT[0] (static data flow)       */

#define NREG 4096

static bool
tracked(const struct tgsi_reg *r)
{
   return (r->file == TGSI_FILE_TEMP || r->file == TGSI_FILE_OUT) && !r->indirect &&
          r->index >= 0 && r->index < NREG;
}

static bool *
rel_at(bool *rel, const struct tgsi_reg *r, unsigned c)
{
   return &rel[((r->file == TGSI_FILE_OUT ? NREG : 0) + r->index) * 4 + c];
}

/* Marks what the channels of instruction in's destination read; returns
 * whether anything new was marked. */
static bool
mark_sources(bool *rel, const struct tgsi_insn *in, unsigned c)
{
   bool changed = false, componentwise = tgsi_op_info[in->op].flags == 0;
   for (unsigned k = 0; k < in->nsrc; k++) {
      if (!tracked(&in->src[k].reg))
         continue;
      for (unsigned j = 0; j < 4; j++) {
         if (componentwise && j != c)
            continue;
         bool *p = rel_at(rel, &in->src[k].reg, in->src[k].swz[j] & 3);
         changed |= !*p;
         *p = true;
      }
   }
   return changed;
}

/* Flow-insensitive: a channel is relevant if OUT[0] or a relevant channel
 * reads it. True if a MAD writes a relevant channel. */
static bool
mad_reaches_out0(const struct tgsi_shader *s)
{
   bool *rel = xcalloc(2 * NREG * 4, sizeof(bool)), found = false, changed = true;
   struct tgsi_reg out0 = {.file = TGSI_FILE_OUT};
   for (unsigned c = 0; c < 4; c++)
      *rel_at(rel, &out0, c) = true;
   while (changed && !found) {
      changed = false;
      for (unsigned i = 0; i < s->ninsns && !found; i++) {
         const struct tgsi_insn *in = &s->insns[i];
         if (in->ndst != 1 || !tracked(&in->dst[0].reg))
            continue;
         for (unsigned c = 0; c < 4; c++) {
            if (!(in->dst[0].mask & (1u << c)) || !*rel_at(rel, &in->dst[0].reg, c))
               continue;
            found |= in->op == TGSI_OP_MAD;
            changed |= mark_sources(rel, in, c);
         }
      }
   }
   free(rel);
   return found;
}

static enum diff_reduce_verdict
pred_mad(const struct tgsi_shader *s, const struct env *inputs, void *user)
{
   (void)inputs;
   (void)user;
   /* A shader without outputs "does not compile": INVALID, counted apart. */
   if (!tgsi_find_decl(s, TGSI_FILE_OUT, 0))
      return DIFF_REDUCE_INVALID;
   return mad_reaches_out0(s) ? DIFF_REDUCE_KEEP : DIFF_REDUCE_DISCARD;
}

/* ------------------------------------------------------------------ */
/* Predicates 2 and 3: the interpreter's OUT[0].x                      */

struct out_pred {
   bool any_lane; /* some lane, not only lane 0 */
   bool want_nan; /* NaN, else the value `want` */
   uint32_t want;
   unsigned calls;
};

static enum diff_reduce_verdict
pred_out0x(const struct tgsi_shader *s, const struct env *inputs, void *user)
{
   struct out_pred *p = user;
   p->calls++;
   struct env *e = env_clone(inputs);
   struct tgsi_interp_opts o = {.max_steps = 1u << 20};
   struct diag_list d = {0};
   enum tgsi_interp_status st = tgsi_interp_run(s, e, &o, &d);
   diag_clear(&d);
   enum diff_reduce_verdict v = DIFF_REDUCE_DISCARD;
   if (st != TGSI_INTERP_OK)
      v = DIFF_REDUCE_INVALID;
   else if (e->nout && tgsi_find_decl(s, TGSI_FILE_OUT, 0))
      for (uint32_t l = 0; l < (p->any_lane ? e->nlanes : 1); l++) {
         size_t i = env_out_index(e, 0, 0, 0) + l;
         bool hit = p->want_nan ? is_nan_bits(e->out[i]) : e->out[i] == p->want;
         if (hit && !(e->out_flags[i] & ENV_F_UNDEF))
            v = DIFF_REDUCE_KEEP;
      }
   env_free(e);
   return v;
}

/* ------------------------------------------------------------------ */
/* Running and reporting                                                */

struct progress_log {
   unsigned calls;
   const char *last_pass;
   unsigned last_insns;
};

static void
on_progress(void *user, const struct diff_reduce_progress *p)
{
   struct progress_log *l = user;
   l->calls++;
   l->last_pass = p->pass;
   l->last_insns = p->insns;
}

/* DIFFCOMP_TEST_VERBOSE=1 shows each reduced shader. */
static void
show(const struct tgsi_shader *s)
{
   if (!getenv("DIFFCOMP_TEST_VERBOSE"))
      return;
   char *t = tgsi_print(s);
   printf("%s\n", t);
   free(t);
}

static void
print_row(const char *name, const char *pred, const struct diff_reduce_stats *st)
{
   (void)0;
   printf("| %-28s | %-5s | %4u | %3u | %5llu | %5llu | %4llu | %6.2f |\n", name, pred,
          st->insns_before, st->insns_after, (unsigned long long)st->tests,
          (unsigned long long)st->cache_hits, (unsigned long long)st->invalid, st->seconds);
}

static void
reduce_capture_mad(const char *name)
{
   struct tgsi_shader *s = load(name);
   if (!s)
      return;
   CHECKF(mad_reaches_out0(s), "%s: the predicate must hold on the capture", name);
   struct env *in = diff_gen_inputs(s, 1, 4, NULL);
   struct progress_log log = {0};
   struct diff_reduce_opts o = {.still_fails = pred_mad,
                                .progress = on_progress,
                                .progress_user = &log,
                                .skip_inputs = true};
   struct diff_reduce_result res;
   struct diag_list d = {0};
   CHECK(diff_reduce(s, in, &o, &res, &d) == DIFF_REDUCE_OK);
   if (res.shader) {
      CHECKF(res.shader->ninsns <= 10, "%s: %u instructions left", name, res.shader->ninsns);
      CHECKF(mad_reaches_out0(res.shader), "%s", name);
      CHECK(count_ops(res.shader, is_mad) >= 1);
      CHECK(reparses(res.shader));
      CHECK(res.stats.tests == res.stats.keeps + res.stats.discards + res.stats.invalid);
      CHECK(res.stats.cache_hits > 0);
      CHECK(!res.stats.budget_hit);
      CHECK(log.calls > 0 && !strcmp(log.last_pass, "done"));
      CHECK(log.last_insns == res.shader->ninsns);
      print_row(name, "mad", &res.stats);
      show(res.shader);
   }
   diff_reduce_result_fini(&res);
   diag_clear(&d);
   env_free(in);
   tgsi_shader_free(s);
}

static void
reduce_capture_nan(const char *name, uint64_t seed, bool inputs_too)
{
   struct tgsi_shader *s = load(name);
   if (!s)
      return;
   struct env *in = diff_gen_inputs(s, seed, 16, NULL);
   struct out_pred p = {.want_nan = true};
   struct diff_reduce_opts o = {.still_fails = pred_out0x, .user = &p, .skip_inputs = !inputs_too};
   struct diff_reduce_result res;
   struct diag_list d = {0};
   CHECKF(pred_out0x(s, in, &p) == DIFF_REDUCE_KEEP, "%s seed %llu", name,
          (unsigned long long)seed);
   CHECK(diff_reduce(s, in, &o, &res, &d) == DIFF_REDUCE_OK);
   if (res.shader) {
      CHECKF(res.shader->ninsns <= 10, "%s: %u instructions left", name, res.shader->ninsns);
      CHECK(pred_out0x(res.shader, res.inputs, &p) == DIFF_REDUCE_KEEP);
      CHECK(reparses(res.shader));
      CHECK(res.stats.tests == res.stats.keeps + res.stats.discards + res.stats.invalid);
      if (inputs_too) {
         CHECK_EQ_U(res.inputs->nlanes, 1);
         CHECK_EQ_U(res.stats.lanes_after, 1);
      }
      print_row(name, inputs_too ? "nan+i" : "nan", &res.stats);
      show(res.shader);
   }
   diff_reduce_result_fini(&res);
   diag_clear(&d);
   env_free(in);
   tgsi_shader_free(s);
}

static void
test_captures(void)
{
   printf("| %-28s | pred  | from |  to | tests | cache | inv  |   secs |\n", "capture");
   static const char *const mad[] = {
       "fs_blinn_phong_lights.tgsi", "fs_pbr_metal_rough.tgsi", "fs_raymarch_sdf.tgsi",
       "fs_shadow_cascaded.tgsi",    "fs_fxaa_lite.tgsi",       "vs_gouraud_lights.tgsi",
       "fs_subroutine_brdf.tgsi",    "fs_deferred_uber.tgsi",
   };
   for (unsigned i = 0; i < ARRAY_SIZE(mad); i++)
      reduce_capture_mad(mad[i]);
   static const struct {
      const char *name;
      uint64_t seed;
   } nan[] = {
       {"fs_blinn_phong_lights.tgsi", 1}, {"fs_pbr_metal_rough.tgsi", 4},
       {"fs_raymarch_sdf.tgsi", 38},      {"vs_grass_wind_instanced.tgsi", 1},
       {"fs_subroutine_brdf.tgsi", 8},    {"fs_deferred_uber.tgsi", 8},
   };
   for (unsigned i = 0; i < ARRAY_SIZE(nan); i++)
      reduce_capture_nan(nan[i].name, nan[i].seed, false);
}

int
main(void)
{
   setvbuf(stdout, NULL, _IOLBF, 0);
   test_captures();
   return test_done();
}
