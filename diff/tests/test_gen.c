/*
 * The random shader generator: determinism (same seed, same text; pinned
 * hashes catch a host-dependent or accidental change), validity of many
 * generated shaders (they parse with no error and no warning), the shape
 * promises (every output written, counted loops, indirect indices clamped
 * right before use, refused opcodes never emitted), and generation from
 * fuzzer bytes; and on the golden interpreter: every generated shader runs
 * to completion (no error, no exhausted step budget) and its outputs change
 * with its inputs.
 */
#include "diff/diff.h"
#include "emu/emu.h"
#include "util/test.h"

#include <stdlib.h>

#define NSHADERS 200

static void
test_determinism(void)
{
   static const enum tgsi_stage stages[] = {TGSI_STAGE_FRAG, TGSI_STAGE_VERT, TGSI_STAGE_COMP,
                                            TGSI_STAGE_GEOM};
   for (unsigned k = 0; k < 4; k++) {
      struct diff_gen_opts o = {.stage = stages[k], .size = 80};
      char *a = diff_gen(42, &o, NULL, NULL);
      char *b = diff_gen(42, &o, NULL, NULL);
      char *c = diff_gen(43, &o, NULL, NULL);
      CHECK(a && b && c);
      if (a && b && c) {
         CHECK(!strcmp(a, b));
         CHECK(strcmp(a, c) != 0);
      }
      free(a);
      free(b);
      free(c);
   }
   /* The stage the seed picks is the one an explicit --stage reproduces. */
   struct diff_gen_opts any = {.stage = TGSI_STAGE_COUNT};
   for (uint64_t seed = 1; seed <= 6; seed++) {
      struct tgsi_shader *s = NULL;
      char *a = diff_gen(seed, &any, &s, NULL);
      CHECK(a && s);
      if (!s)
         continue;
      struct diff_gen_opts fixed = {.stage = s->stage};
      char *b = diff_gen(seed, &fixed, NULL, NULL);
      CHECK(b && !strcmp(a, b));
      free(a);
      free(b);
      tgsi_shader_free(s);
   }
}

/* Pinned: the text of these seeds must not change with the host, the
 * compiler or the libc. Update the values only for an intended change of
 * the generator (the message prints the new ones). */
static void
test_pinned(void)
{
   static const struct {
      uint64_t seed;
      enum tgsi_stage stage;
      uint64_t hash;
   } pins[] = {
       {1, TGSI_STAGE_FRAG, 0x5ccfd3d8b18dbd10ull},
       {2, TGSI_STAGE_VERT, 0x6d8d942d33a67dc2ull},
       {3, TGSI_STAGE_COMP, 0x1c623b9684920d0bull},
   };
   for (unsigned i = 0; i < ARRAY_SIZE(pins); i++) {
      struct diff_gen_opts o = {.stage = pins[i].stage, .size = 100};
      char *t = diff_gen(pins[i].seed, &o, NULL, NULL);
      uint64_t h = t ? hash64(t, strlen(t), 0) : 0;
      CHECKF(h == pins[i].hash, "seed %u: text hash 0x%016llx", (unsigned)pins[i].seed,
             (unsigned long long)h);
      free(t);
   }
}

/* Every declared output is written with all channels outside control flow
 * (COMP: the result STORE). */
static bool
outputs_written(const struct tgsi_shader *s)
{
   if (s->stage == TGSI_STAGE_COMP) {
      for (unsigned i = 0; i < s->ninsns; i++)
         if (s->insns[i].op == TGSI_OP_STORE && s->insns[i].dst[0].reg.file == TGSI_FILE_BUFFER)
            return true;
      return false;
   }
   for (unsigned d = 0; d < s->ndecls; d++) {
      if (s->decls[d].file != TGSI_FILE_OUT)
         continue;
      bool w = false;
      int depth = 0;
      for (unsigned i = 0; i < s->ninsns; i++) {
         const struct tgsi_insn *in = &s->insns[i];
         enum tgsi_opcode op = in->op;
         depth +=
             op == TGSI_OP_IF || op == TGSI_OP_UIF || op == TGSI_OP_BGNLOOP || op == TGSI_OP_SWITCH;
         depth -= op == TGSI_OP_ENDIF || op == TGSI_OP_ENDLOOP || op == TGSI_OP_ENDSWITCH;
         w |= depth == 0 && in->ndst && in->dst[0].reg.file == TGSI_FILE_OUT &&
              (uint32_t)in->dst[0].reg.index == s->decls[d].first && in->dst[0].mask == 0xf;
      }
      if (!w)
         return false;
   }
   return true;
}

/* Each loop opens with the counter test: USGE c.y, c.x, IMM (or c.z); UIF c.y; BRK;
 * ENDIF; UADD c.x, c.x, 1 -- and nothing else in the loop writes c. */
static bool
loops_counted(const struct tgsi_shader *s)
{
   for (unsigned i = 0; i < s->ninsns; i++) {
      if (s->insns[i].op != TGSI_OP_BGNLOOP)
         continue;
      if (i < 1 || i + 5 >= s->ninsns)
         return false;
      const struct tgsi_insn *init = &s->insns[i - 1], *t = &s->insns[i + 1];
      /* the limit: an immediate, or a per-lane count the counter's .z
       * took just before (USHR of a UMUL hash, or AND x, 7) */
      const struct tgsi_insn *cnt = i >= 2 ? &s->insns[i - 2] : NULL;
      bool lane_limit = cnt && t->src[1].reg.file == TGSI_FILE_TEMP &&
                        t->src[1].reg.index == init->dst[0].reg.index &&
                        (cnt->op == TGSI_OP_AND ||
                         (cnt->op == TGSI_OP_USHR && s->insns[i - 3].op == TGSI_OP_UMUL)) &&
                        cnt->dst[0].reg.index == init->dst[0].reg.index;
      if (init->op != TGSI_OP_MOV || t->op != TGSI_OP_USGE ||
          (t->src[1].reg.file != TGSI_FILE_IMM && !lane_limit) ||
          s->insns[i + 2].op != TGSI_OP_UIF || s->insns[i + 3].op != TGSI_OP_BRK ||
          s->insns[i + 4].op != TGSI_OP_ENDIF || s->insns[i + 5].op != TGSI_OP_UADD)
         return false;
      int32_t c = init->dst[0].reg.index, end = s->insns[i].target;
      for (int32_t j = (int32_t)i + 6; j < end; j++) {
         const struct tgsi_insn *in = &s->insns[j];
         if (in->ndst && in->dst[0].reg.file == TGSI_FILE_TEMP && in->dst[0].reg.index == c &&
             !in->dst[0].reg.indirect)
            return false;
      }
   }
   return true;
}

/* Every indirect operand follows an ARL/UARL of a value clamped by the
 * instruction(s) just before. */
static bool
indirects_clamped(const struct tgsi_shader *s)
{
   for (unsigned i = 0; i < s->ninsns; i++) {
      const struct tgsi_insn *in = &s->insns[i];
      bool ind = in->ndst && in->dst[0].reg.indirect;
      for (unsigned k = 0; k < in->nsrc; k++)
         ind |= in->src[k].reg.indirect;
      if (!ind)
         continue;
      if (i < 3)
         return false;
      const struct tgsi_insn *arl = &s->insns[i - 1];
      if (arl->op == TGSI_OP_UARL) {
         if (s->insns[i - 2].op != TGSI_OP_AND)
            return false;
      } else if (arl->op == TGSI_OP_ARL) {
         if (s->insns[i - 2].op != TGSI_OP_MIN || s->insns[i - 3].op != TGSI_OP_MAX)
            return false;
      } else {
         return false;
      }
   }
   return true;
}

static void
test_many(void)
{
   unsigned stages[TGSI_STAGE_COUNT] = {0}, ops[TGSI_OP_COUNT] = {0};
   unsigned bad_out = 0, bad_loop = 0, bad_ind = 0, failed = 0, warned = 0;
   for (uint64_t seed = 1; seed <= NSHADERS; seed++) {
      struct diff_gen_opts o = {.stage = TGSI_STAGE_COUNT, .size = 10 + (unsigned)(seed % 150)};
      struct diag_list d = {0};
      struct tgsi_shader *s = NULL;
      char *t = diff_gen(seed, &o, &s, &d);
      if (!t) {
         failed++;
         fprintf(stderr, "seed %u: %s\n", (unsigned)seed, diag_first_error(&d));
      } else {
         warned += d.nwarnings != 0;
         stages[s->stage]++;
         for (unsigned i = 0; i < s->ninsns; i++)
            ops[s->insns[i].op]++;
         bad_out += !outputs_written(s);
         bad_loop += !loops_counted(s);
         bad_ind += !indirects_clamped(s);
         CHECKF(s->ninsns >= o.size, "seed %u: %u instructions for size %u", (unsigned)seed,
                s->ninsns, o.size);
      }
      tgsi_shader_free(s);
      diag_clear(&d);
      free(t);
   }
   CHECK_EQ_U(failed, 0);
   CHECK_EQ_U(warned, 0);
   CHECK_EQ_U(bad_out, 0);
   CHECK_EQ_U(bad_loop, 0);
   CHECK_EQ_U(bad_ind, 0);
   CHECK(stages[TGSI_STAGE_FRAG] > 20 && stages[TGSI_STAGE_VERT] > 5 &&
         stages[TGSI_STAGE_COMP] > 20 && stages[TGSI_STAGE_GEOM] > 10 &&
         stages[TGSI_STAGE_TESS_CTRL] > 5 && stages[TGSI_STAGE_TESS_EVAL] > 5);
   /* the promised features all appear somewhere */
   static const enum tgsi_opcode want[] = {
       TGSI_OP_IF,      TGSI_OP_UIF,    TGSI_OP_ELSE, TGSI_OP_BGNLOOP, TGSI_OP_BRK,
       TGSI_OP_CONT,    TGSI_OP_SWITCH, TGSI_OP_CASE, TGSI_OP_DEFAULT, TGSI_OP_ARL,
       TGSI_OP_UARL,    TGSI_OP_TEX,    TGSI_OP_TXL,  TGSI_OP_TXF,     TGSI_OP_KILL_IF,
       TGSI_OP_CMP,     TGSI_OP_UCMP,   TGSI_OP_IDIV, TGSI_OP_UBFE,    TGSI_OP_F2I,
       TGSI_OP_U2F,     TGSI_OP_FSLT,   TGSI_OP_DP4,  TGSI_OP_LG2,     TGSI_OP_EMIT,
       TGSI_OP_ENDPRIM,
   };
   for (unsigned i = 0; i < ARRAY_SIZE(want); i++)
      CHECKF(ops[want[i]] > 0, "%s never generated", tgsi_op_info[want[i]].name);
}

/* A consumer that refuses control flow and textures never sees them. */
static bool
no_flow_no_tex(enum tgsi_opcode op)
{
   switch (op) {
   case TGSI_OP_IF:
   case TGSI_OP_UIF:
   case TGSI_OP_SWITCH:
   case TGSI_OP_BGNLOOP:
   case TGSI_OP_TEX:
   case TGSI_OP_TXL:
   case TGSI_OP_TXF:
   case TGSI_OP_IDIV:
   case TGSI_OP_SIN:
      return false;
   default:
      return true;
   }
}

static void
test_supports(void)
{
   unsigned refused = 0;
   for (uint64_t seed = 1; seed <= 40; seed++) {
      struct diff_gen_opts o = {.stage = TGSI_STAGE_FRAG, .size = 100, .supports = no_flow_no_tex};
      struct tgsi_shader *s = NULL;
      char *t = diff_gen(seed, &o, &s, NULL);
      CHECK(t && s);
      for (unsigned i = 0; s && i < s->ninsns; i++)
         refused += !no_flow_no_tex(s->insns[i].op);
      tgsi_shader_free(s);
      free(t);
   }
   CHECK_EQ_U(refused, 0);
}

static void
test_bytes(void)
{
   struct rng r;
   rng_seed(&r, 99);
   uint8_t buf[512];
   unsigned failed = 0;
   for (unsigned k = 0; k < 100; k++) {
      size_t n = k == 0 ? 0 : rng_below(&r, sizeof(buf));
      for (size_t i = 0; i < n; i++)
         buf[i] = k == 1 ? 0xff : k == 2 ? 0 : (uint8_t)rng_u32(&r);
      struct diff_gen_opts o = {.stage = TGSI_STAGE_COUNT, .size = 1 + k};
      char *a = diff_gen_bytes(buf, n, &o, NULL, NULL);
      char *b = diff_gen_bytes(buf, n, &o, NULL, NULL);
      failed += !a || !b || strcmp(a, b) != 0;
      free(a);
      free(b);
   }
   CHECK_EQ_U(failed, 0);
   /* Inputs found by fuzz_gen, replayed as the harness does: data[0]
    * picks the stage, data[1] the size. crash_gid_dep_index: a compute
    * shader whose output fell back to the id register read past the
    * per-register tables (UBSan). */
   static const char *const found[] = {"crash_gid_dep_index"};
   static const enum tgsi_stage stages[] = {TGSI_STAGE_FRAG, TGSI_STAGE_VERT, TGSI_STAGE_COMP,
                                            TGSI_STAGE_COUNT};
   for (unsigned i = 0; i < ARRAY_SIZE(found); i++) {
      char *path = xasprintf("%s/fixtures/fuzz/fuzz_gen/%s", DC_SOURCE_DIR, found[i]), *data, *err;
      size_t len;
      CHECKF(read_file(path, &data, &len, &err) && len >= 2, "%s", path);
      if (len >= 2) {
         const uint8_t *u = (const uint8_t *)data;
         struct diff_gen_opts fo = {.stage = stages[u[0] % 4], .size = 1 + u[1] % 200u};
         char *t = diff_gen_bytes(u + 2, len - 2, &fo, NULL, NULL);
         CHECKF(t != NULL, "%s", found[i]);
         free(t);
         free(data);
      }
      free(path);
   }
   /* the bytes steer the shader */
   uint8_t x[64] = {0}, y[64] = {0};
   y[10] = 77;
   char *a = diff_gen_bytes(x, sizeof(x), NULL, NULL, NULL);
   char *b = diff_gen_bytes(y, sizeof(y), NULL, NULL, NULL);
   CHECK(a && b && strcmp(a, b) != 0);
   free(a);
   free(b);
}

/* Output values seen and how many of them were undefined (killed lanes
 * not counted: they have no outputs). */
static uint64_t n_values, n_undef;

/* Whether output value i of a control shader's run is one its lane
 * writes: a per-vertex output at the lane's own vertex (INVOCATIONID =
 * lane % TCS_VERTICES_OUT), a per-patch one at vertex 0. A lane leaves
 * the patch's other vertices undefined. */
static bool
tcs_own(const struct tgsi_shader *s, const struct env *e, size_t i)
{
   size_t per = (size_t)4 * e->nlanes;
   uint32_t lane = (uint32_t)(i % e->nlanes), reg = (uint32_t)(i / per % e->nout),
            v = (uint32_t)(i / per / e->nout);
   const struct tgsi_decl *d = tgsi_find_decl(s, TGSI_FILE_OUT, reg);
   bool patch = d && d->has_semantic &&
                (d->semantic == TGSI_SEM_TESSOUTER || d->semantic == TGSI_SEM_TESSINNER ||
                 d->semantic == TGSI_SEM_PATCH);
   return v == (patch ? 0 : lane % e->out_vertices);
}

/* The defined results of a run: outputs (COMP: the result buffer) with
 * UNDEF values and killed lanes zeroed. Caller frees. */
static uint32_t *
results(const struct tgsi_shader *s, const struct env *e, size_t *n)
{
   if (s->stage == TGSI_STAGE_COMP) {
      const struct env_mem *m = &e->buf[1];
      *n = m->size / 4;
      uint32_t *r = xcalloc(*n + 1, 4);
      for (size_t w = 0; w < *n; w++) {
         n_values++;
         n_undef += m->undef[4 * w] != 0;
         if (!m->undef[4 * w])
            memcpy(&r[w], m->data + 4 * w, 4);
      }
      return r;
   }
   if (s->stage == TGSI_STAGE_GEOM) { /* the vertices each lane sent */
      size_t per = (size_t)e->nout * 4;
      *n = per * e->gs_max_vertices * e->nlanes;
      uint32_t *r = xcalloc(*n + 1, 4);
      for (size_t i = 0; i < *n; i++) {
         size_t v = i / per;
         if (v % e->gs_max_vertices >= e->gs_count[v / e->gs_max_vertices])
            continue;
         n_values++;
         n_undef += (e->gs_flags[i] & ENV_F_UNDEF) != 0;
         if (!(e->gs_flags[i] & ENV_F_UNDEF))
            r[i] = e->gs_data[i];
      }
      return r;
   }
   *n = (size_t)e->nout * 4 * e->out_vertices * e->nlanes;
   uint32_t *r = xcalloc(*n + 1, 4);
   for (size_t i = 0; i < *n; i++) {
      uint32_t lane = (uint32_t)(i % e->nlanes);
      if (e->killed && e->killed[lane])
         continue;
      if (s->stage == TGSI_STAGE_TESS_CTRL && !tcs_own(s, e, i))
         continue;
      n_values++;
      n_undef += (e->out_flags[i] & ENV_F_UNDEF) != 0;
      if (!(e->out_flags[i] & ENV_F_UNDEF))
         r[i] = e->out[i];
   }
   return r;
}

/* Runs s on the inputs of seed; returns the status and the results. */
static enum tgsi_interp_status
run(const struct tgsi_shader *s, uint64_t seed, uint32_t **res, size_t *n, uint64_t *steps)
{
   struct diag_list d = {0};
   struct env *e = diff_gen_inputs(s, seed, 64, &d);
   enum tgsi_interp_status st = TGSI_INTERP_ENV;
   *res = NULL;
   if (e) {
      struct tgsi_interp_opts o = {.max_steps = 1ull << 26, .steps_out = steps};
      st = tgsi_interp_run(s, e, &o, &d);
      if (st == TGSI_INTERP_OK)
         *res = results(s, e, n);
   }
   if (st != TGSI_INTERP_OK)
      fprintf(stderr, "interp: %s: %s\n", tgsi_interp_status_names[st], diag_first_error(&d));
   env_free(e);
   diag_clear(&d);
   return st;
}

static void
test_interp(void)
{
   unsigned failed = 0, budget = 0, same = 0;
   uint64_t max_steps = 0;
   for (uint64_t seed = 1; seed <= NSHADERS; seed++) {
      struct diff_gen_opts o = {.stage = TGSI_STAGE_COUNT, .size = 10 + (unsigned)(seed % 150)};
      struct tgsi_shader *s = NULL;
      char *t = diff_gen(seed, &o, &s, NULL);
      if (!t) {
         failed++;
         continue;
      }
      uint32_t *a, *b;
      size_t na = 0, nb = 0;
      uint64_t steps = 0;
      enum tgsi_interp_status sa = run(s, 1, &a, &na, &steps);
      max_steps = MAX2(max_steps, steps);
      enum tgsi_interp_status sb = run(s, 2, &b, &nb, &steps);
      failed += sa != TGSI_INTERP_OK || sb != TGSI_INTERP_OK;
      budget += sa == TGSI_INTERP_BUDGET || sb == TGSI_INTERP_BUDGET;
      if (a && b && na == nb && !memcmp(a, b, na * 4)) {
         same++;
         fprintf(stderr, "seed %u: the outputs do not depend on the inputs\n", (unsigned)seed);
      }
      free(a);
      free(b);
      tgsi_shader_free(s);
      free(t);
   }
   CHECK_EQ_U(failed, 0);
   CHECK_EQ_U(budget, 0);
   /* Outputs are made from the inputs, but float absorption can still
    * hide them (4.8e8 + a small integer is 4.8e8): seed 31 stores such a
    * sum. More than one such shader in a hundred is a generator bug. */
   CHECKF(same * 100 <= NSHADERS, "%u of %u shaders ignore their inputs", same, NSHADERS);
   /* The generator avoids undefined operations; what is left comes from
    * the rare denormal IF condition, special input values, and memory:
    * in one run in four a buffer is drawn too small for a 16-byte slot
    * per lane, and the lanes past its end share (race on) its last slot
    * (1.27% of the values at 200 shaders, 64 lanes; 1.0% before memory).
    * Since conditions are keyed to the lane (gen_cf.c) nearly every arm
    * runs, and an arm whose condition reads such a value in some lanes
    * leaves its writes undefined there: 1.92% (0.41% before, when one IF
    * in eight was never reached and one in four went one way only). */
   CHECKF(n_undef * 50 <= n_values, "%llu of %llu output values undefined",
          (unsigned long long)n_undef, (unsigned long long)n_values);
   printf("interp: %u shaders, at most %llu lane-instructions for 64 lanes, %llu of %llu output "
          "values undefined\n",
          NSHADERS, (unsigned long long)max_steps, (unsigned long long)n_undef,
          (unsigned long long)n_values);
}

static void
test_stage_names(void)
{
   enum tgsi_stage st;
   CHECK(diff_gen_stage_from_name("frag", &st) && st == TGSI_STAGE_FRAG);
   CHECK(diff_gen_stage_from_name("vert", &st) && st == TGSI_STAGE_VERT);
   CHECK(diff_gen_stage_from_name("comp", &st) && st == TGSI_STAGE_COMP);
   CHECK(diff_gen_stage_from_name("geom", &st) && st == TGSI_STAGE_GEOM);
   CHECK(diff_gen_stage_from_name("tcs", &st) && st == TGSI_STAGE_TESS_CTRL);
   CHECK(diff_gen_stage_from_name("tes", &st) && st == TGSI_STAGE_TESS_EVAL);
   CHECK(!diff_gen_stage_from_name("tess_ctrl", &st));
   CHECK(!diff_gen_stage_from_name("", &st));
}

/* With the sink, a compute shader ends by storing the two hash words of
 * each invocation (.xy) into BUFFER[3] at the top level, and declares it;
 * without it, neither. */
static void
test_comp_sink(void)
{
   unsigned bad = 0, with = 0;
   for (uint64_t seed = 1; seed <= 100; seed++) {
      for (int sink = 0; sink < 2; sink++) {
         struct diff_gen_opts o = {.stage = TGSI_STAGE_COMP, .size = 60, .sink = sink};
         struct tgsi_shader *s = NULL;
         char *t = diff_gen(seed, &o, &s, NULL);
         if (!t) {
            bad++;
            continue;
         }
         bool decl = false, last = false;
         for (unsigned d = 0; d < s->ndecls; d++)
            decl |= s->decls[d].file == TGSI_FILE_BUFFER && s->decls[d].first <= 3 &&
                    s->decls[d].last >= 3;
         for (unsigned i = 0; i + 1 < s->ninsns; i++) {
            const struct tgsi_insn *in = &s->insns[i];
            if (in->op == TGSI_OP_STORE)
               last = in->dst[0].reg.file == TGSI_FILE_BUFFER && in->dst[0].reg.index == 3 &&
                      in->dst[0].mask == 0x3 && s->insns[i + 1].op == TGSI_OP_END;
         }
         bad += decl != (bool)sink || last != (bool)sink;
         with += sink && last;
         tgsi_shader_free(s);
         free(t);
      }
   }
   CHECK_EQ_U(bad, 0);
   CHECK_EQ_U(with, 100);
}

/* With the sink, subgroup operations appear (only in shaders with an FMA:
 * a3xx has neither) and each sits inside a UIF. */
static void
test_votes(void)
{
   unsigned with = 0, outside = 0, nofma = 0;
   for (uint64_t seed = 1; seed <= 300; seed++) {
      struct diff_gen_opts o = {.stage = TGSI_STAGE_COUNT, .size = 60, .sink = true};
      struct tgsi_shader *s = NULL;
      char *t = diff_gen(seed, &o, &s, NULL);
      if (!t)
         continue;
      bool fma = false, vote = false;
      int depth = 0;
      for (unsigned i = 0; i < s->ninsns; i++) {
         enum tgsi_opcode op = s->insns[i].op;
         depth +=
             op == TGSI_OP_IF || op == TGSI_OP_UIF || op == TGSI_OP_BGNLOOP || op == TGSI_OP_SWITCH;
         depth -= op == TGSI_OP_ENDIF || op == TGSI_OP_ENDLOOP || op == TGSI_OP_ENDSWITCH;
         fma |= op == TGSI_OP_FMA;
         if (op == TGSI_OP_VOTE_ANY || op == TGSI_OP_VOTE_ALL || op == TGSI_OP_VOTE_EQ ||
             op == TGSI_OP_BALLOT || op == TGSI_OP_READ_FIRST) {
            vote = true;
            outside += depth == 0;
         }
      }
      with += vote;
      nofma += vote && !fma;
      tgsi_shader_free(s);
      free(t);
   }
   CHECKF(with >= 10, "%u of 300 shaders with votes", with);
   CHECK_EQ_U(outside, 0);
   CHECK_EQ_U(nofma, 0);
}

/* Every IF/UIF other than a loop's counter exit and the compute
 * prologue's lane-0 test (USEQ of THREAD_ID) tests a lane key: a UMAD on
 * the lane's index register (the first instruction's destination) within
 * the nine instructions before it. Also shown failing: the same walk with
 * the key's lane register taken one off finds no key. */
static unsigned
unkeyed_ifs(const struct tgsi_shader *s, int shift)
{
   unsigned bad = 0, first = 0;
   /* (a geometry shader may send a vertex or end a primitive first) */
   while (first + 1 < s->ninsns &&
          (!s->insns[first].ndst || s->insns[first].dst[0].reg.file != TGSI_FILE_TEMP))
      first++;
   int32_t lane = s->insns[first].dst[0].reg.index + shift;
   for (unsigned i = first + 1; i + 1 < s->ninsns; i++) {
      enum tgsi_opcode op = s->insns[i].op;
      if (op != TGSI_OP_IF && op != TGSI_OP_UIF)
         continue;
      enum tgsi_opcode prev = s->insns[i - 1].op;
      if ((s->insns[i + 1].op == TGSI_OP_BRK && prev == TGSI_OP_USGE) || prev == TGSI_OP_USEQ)
         continue;
      bool keyed = false;
      for (unsigned j = i - 1; j + 10 > i && j > 0 && !keyed; j--) {
         const struct tgsi_insn *k = &s->insns[j];
         keyed = k->op == TGSI_OP_UMAD && k->src[2].reg.file == TGSI_FILE_TEMP &&
                 k->src[2].reg.index == lane;
      }
      bad += !keyed;
   }
   return bad;
}

static void
test_keyed_conditions(void)
{
   unsigned ifs = 0, bad = 0, bad_shifted = 0;
   for (uint64_t seed = 1; seed <= 200; seed++) {
      struct diff_gen_opts o = {.stage = TGSI_STAGE_COUNT, .size = 80, .sink = true};
      struct tgsi_shader *s = NULL;
      char *t = diff_gen(seed, &o, &s, NULL);
      if (!t)
         continue;
      for (unsigned i = 0; i < s->ninsns; i++)
         ifs += s->insns[i].op == TGSI_OP_IF || s->insns[i].op == TGSI_OP_UIF;
      bad += unkeyed_ifs(s, 0);
      bad_shifted += unkeyed_ifs(s, 1);
      tgsi_shader_free(s);
      free(t);
   }
   CHECKF(ifs >= 500, "%u IFs in 200 shaders", ifs);
   CHECK_EQ_U(bad, 0);
   CHECKF(bad_shifted * 2 >= ifs, "%u of %u IFs unkeyed with the wrong register", bad_shifted, ifs);
}

/* Ifs in loops whose two arms both do work and then jump (BRK or CONT):
 * gen_cf.c's exits-in-both-arms shape, which found the front end's dead
 * block edge (fixtures/gen_regress/exits_both_arms.tgsi). */
static bool
is_jump(enum tgsi_opcode op)
{
   return op == TGSI_OP_BRK || op == TGSI_OP_CONT;
}

static void
test_exits_both_arms(void)
{
   unsigned found = 0;
   for (uint64_t seed = 1; seed <= 300; seed++) {
      struct diff_gen_opts o = {.stage = TGSI_STAGE_COUNT, .size = 60, .sink = true};
      struct tgsi_shader *s = NULL;
      char *t = diff_gen(seed, &o, &s, NULL);
      for (unsigned i = 0; t && i < s->ninsns; i++) {
         const struct tgsi_insn *in = &s->insns[i];
         if (in->op != TGSI_OP_IF && in->op != TGSI_OP_UIF)
            continue;
         unsigned el = (unsigned)in->target;
         if (s->insns[el].op != TGSI_OP_ELSE)
            continue;
         unsigned end = (unsigned)s->insns[el].target;
         found += el > i + 2 && end > el + 2 && is_jump(s->insns[el - 1].op) &&
                  is_jump(s->insns[end - 1].op);
      }
      tgsi_shader_free(s);
      free(t);
   }
   CHECKF(found >= 3, "%u ifs with work and a jump in both arms in 300 shaders", found);
}

/* Loops whose last statement jumps, so that lanes come back to the top
 * only through a CONT (gen_cf.c loop_tail): `IF c {a; CONT} ELSE {b;
 * BRK} ENDIF ENDLOOP` (kind 0) or `IF c {CONT} ENDIF b; BRK ENDLOOP` (kind
 * 1). Counts each kind, and in `full` those whose body reads two channels
 * of one constant (a MAD) within twelve instructions before the IF and
 * whose b ends in two selects on masks (UCMPs) before its BRK: the shape
 * that kills gfx9's scalar liveness ended at a loop's first block
 * (fixtures/check/fs_gfx9_cont_loop_sgpr.tgsi). */
static void
cont_tails(const struct tgsi_shader *s, unsigned kinds[2], unsigned *full)
{
   for (unsigned end = 3; end < s->ninsns; end++) {
      if (s->insns[end].op != TGSI_OP_ENDLOOP)
         continue;
      unsigned brk = end - 1, iff = ~0u, cont = ~0u, kind = 2;
      if (s->insns[brk].op == TGSI_OP_ENDIF) { /* kind 0: the ELSE arm's BRK */
         for (unsigned i = brk; i-- > 0 && iff == ~0u;)
            if ((s->insns[i].op == TGSI_OP_IF || s->insns[i].op == TGSI_OP_UIF) &&
                s->insns[i].target >= 0 &&
                s->insns[(unsigned)s->insns[i].target].op == TGSI_OP_ELSE &&
                (unsigned)s->insns[(unsigned)s->insns[i].target].target == brk)
               iff = i;
         if (iff != ~0u) {
            cont = (unsigned)s->insns[iff].target - 1;
            brk--;
            kind = 0;
         }
      } else if (s->insns[brk].op == TGSI_OP_BRK) { /* kind 1: IF c CONT ENDIF before */
         for (unsigned i = brk; i-- > 2 && iff == ~0u;)
            if (s->insns[i].op == TGSI_OP_ENDIF && s->insns[i - 1].op == TGSI_OP_CONT &&
                (s->insns[i - 2].op == TGSI_OP_IF || s->insns[i - 2].op == TGSI_OP_UIF))
               iff = i - 2;
         cont = iff + 1;
         kind = iff != ~0u ? 1 : 2;
      }
      if (kind == 2 || s->insns[cont].op != TGSI_OP_CONT || s->insns[brk].op != TGSI_OP_BRK)
         continue;
      kinds[kind]++;
      bool pair = false;
      for (unsigned i = iff; i-- > 0 && i + 12 > iff && !pair;) {
         const struct tgsi_insn *in = &s->insns[i];
         pair = in->op == TGSI_OP_MAD && in->src[1].reg.file == TGSI_FILE_CONST &&
                in->src[2].reg.file == TGSI_FILE_CONST &&
                in->src[1].reg.index == in->src[2].reg.index &&
                in->src[1].swz[0] != in->src[2].swz[0];
      }
      *full += pair && s->insns[brk - 1].op == TGSI_OP_UCMP && s->insns[brk - 2].op == TGSI_OP_UCMP;
   }
}

static void
test_cont_tails(void)
{
   unsigned kinds[2] = {0}, full = 0;
   for (uint64_t seed = 1; seed <= 300; seed++) {
      struct diff_gen_opts o = {.stage = TGSI_STAGE_COUNT, .size = 60, .sink = true};
      struct tgsi_shader *s = NULL;
      char *t = diff_gen(seed, &o, &s, NULL);
      if (t)
         cont_tails(s, kinds, &full);
      tgsi_shader_free(s);
      free(t);
   }
   CHECKF(kinds[0] >= 10 && kinds[1] >= 10,
          "CONT-only loops in 300 shaders: %u with ELSE, %u without", kinds[0], kinds[1]);
   CHECKF(full * 10 >= (kinds[0] + kinds[1]) * 8, "%u of %u with the uniform pair and the masks",
          full, kinds[0] + kinds[1]);
   printf("cont tails: %u with ELSE, %u without, %u with the uniform pair and the masks\n",
          kinds[0], kinds[1], full);
}

/* The one-source ops of the sink's edge shapes (gen_shape.c edge_unary)
 * whose source is an immediate, a fold at compile time, from the sink's
 * first line (the MOV of 0x9e3779b9, IMM line `hash`) on; counts them by
 * op into found[] and returns how many of them no UMAD into the sink
 * (TEMP[dst + shift] as its third source) reads within the next twelve
 * instructions. */
static const enum tgsi_opcode unary_ops[] = {TGSI_OP_INEG, TGSI_OP_IABS, TGSI_OP_ISSG, TGSI_OP_NOT,
                                             TGSI_OP_BREV, TGSI_OP_POPC, TGSI_OP_LSB,  TGSI_OP_UMSB,
                                             TGSI_OP_IMSB, TGSI_OP_UP2H, TGSI_OP_PK2H};

static unsigned
unary_folds(const struct tgsi_shader *s, int32_t hash, int shift, unsigned *found)
{
   unsigned i = 0, unread = 0;
   while (i < s->ninsns &&
          !(s->insns[i].op == TGSI_OP_MOV && s->insns[i].nsrc == 1 &&
            s->insns[i].src[0].reg.file == TGSI_FILE_IMM && s->insns[i].src[0].reg.index == hash))
      i++;
   for (; i < s->ninsns; i++) {
      const struct tgsi_insn *in = &s->insns[i];
      unsigned k = 0;
      while (k < ARRAY_SIZE(unary_ops) && unary_ops[k] != in->op)
         k++;
      if (k == ARRAY_SIZE(unary_ops) || in->nsrc != 1 || in->src[0].reg.file != TGSI_FILE_IMM ||
          in->dst[0].reg.file != TGSI_FILE_TEMP)
         continue;
      found[k]++;
      bool read = false;
      for (unsigned j = i + 1; j < s->ninsns && j <= i + 12 && !read; j++)
         read = s->insns[j].op == TGSI_OP_UMAD && s->insns[j].src[2].reg.file == TGSI_FILE_TEMP &&
                s->insns[j].src[2].reg.index == in->dst[0].reg.index + shift;
      unread += !read;
   }
   return unread;
}

/* With the sink, every one-source op the folder folds meets edge
 * immediates in some of 300 shaders, and every such result reaches the
 * hash. Shown failing: read at the register one off, the results are
 * not found in the hash. */
static void
test_sink_unary(void)
{
   unsigned found[ARRAY_SIZE(unary_ops)] = {0}, unread = 0, off = 0, total = 0;
   for (uint64_t seed = 1; seed <= 300; seed++) {
      struct diff_gen_opts o = {.stage = TGSI_STAGE_COUNT, .size = 60, .sink = true};
      struct tgsi_shader *s = NULL;
      char *t = diff_gen(seed, &o, &s, NULL);
      /* the IMM line that holds the sink's first constant */
      const char *h = t ? strstr(t, "2654435769") : NULL;
      const char *l = h;
      while (l && l > t && l[-1] != '\n')
         l--;
      int32_t hash = l && !strncmp(l, "IMM[", 4) ? (int32_t)strtol(l + 4, NULL, 10) : -1;
      if (t && hash >= 0) {
         unsigned none[ARRAY_SIZE(unary_ops)] = {0};
         unread += unary_folds(s, hash, 0, found);
         off += unary_folds(s, hash, 1, none);
      }
      tgsi_shader_free(s);
      free(t);
   }
   for (unsigned k = 0; k < ARRAY_SIZE(unary_ops); k++) {
      CHECKF(found[k] >= 1, "%s of an immediate in the sink: %u of 300 shaders",
             tgsi_op_info[unary_ops[k]].name, found[k]);
      total += found[k];
   }
   CHECK_EQ_U(unread, 0);
   CHECKF(off >= total / 2, "%u of %u folds unread at the register one off", off, total);
   printf("sink unary: %u one-source ops of immediates in 300 shaders; at the register one off "
          "%u unread\n",
          total, off);
}

/* Runs a geometry shader's text on 64 lanes; the overflow events, and
 * whether lanes sent different numbers of vertices. */
static bool
geom_run(const char *text, uint64_t *overflow, bool *varies)
{
   struct diag_list d = {0};
   struct tgsi_shader *s = tgsi_parse(text, strlen(text), "<geom>", NULL, &d);
   struct env *e = s ? diff_gen_inputs(s, 1, 64, &d) : NULL;
   struct tgsi_interp_opts o = {.max_steps = 1ull << 26};
   bool ok = e && tgsi_interp_run(s, e, &o, &d) == TGSI_INTERP_OK;
   if (ok) {
      *overflow = e->events[ENV_EV_GS_OVERFLOW];
      *varies = false;
      for (uint32_t l = 1; l < e->nlanes; l++)
         *varies |= e->gs_count[l] != e->gs_count[0];
   }
   env_free(e);
   tgsi_shader_free(s);
   diag_clear(&d);
   return ok;
}

/* Geometry shaders (gen_geom.c): no lane sends more vertices than the
 * maximum (the static bound), lanes send different numbers of them, and
 * some start with ENDPRIM and read no constants. Shown failing: with the
 * maximum lowered to 1, the interpreter counts overflows. */
static void
test_geom(void)
{
   unsigned failed = 0, overflows = 0, varies = 0, cut_first = 0, noconst = 0, caught = 0;
   unsigned multi = 0;
   for (uint64_t seed = 1; seed <= 150; seed++) {
      struct diff_gen_opts o = {.stage = TGSI_STAGE_GEOM, .size = 60, .sink = true};
      char *t = diff_gen(seed, &o, NULL, NULL);
      uint64_t ov = 0;
      bool var = false;
      if (!t || !geom_run(t, &ov, &var)) {
         failed++;
         free(t);
         continue;
      }
      overflows += ov != 0;
      varies += var;
      const char *body = strstr(t, "\n  ");
      cut_first += body && !strncmp(body + 3, "ENDPRIM", 7);
      noconst += !strstr(t, "DCL CONST");
      /* the same shader allowed one vertex: a lane that sends more
       * counts an overflow */
      char *m = strstr(t, "GS_MAX_OUTPUT_VERTICES ");
      unsigned max = m ? (unsigned)strtoul(m + 23, NULL, 10) : 0;
      if (m && max > 1) {
         char *low = xasprintf("%.*s1%s", (int)(m + 23 - t), t, strchr(m + 23, '\n'));
         uint64_t ov1 = 0;
         bool v1;
         if (geom_run(low, &ov1, &v1)) {
            multi++;
            caught += ov1 != 0;
         }
         free(low);
      }
      free(t);
   }
   CHECK_EQ_U(failed, 0);
   CHECK_EQ_U(overflows, 0);
   CHECKF(varies >= 50, "%u of 150 geometry shaders whose lanes send different vertex counts",
          varies);
   CHECKF(cut_first >= 10 && noconst >= 5, "%u start with ENDPRIM, %u without constants", cut_first,
          noconst);
   CHECKF(caught * 2 >= multi, "lowered maximum: %u of %u shaders overflow", caught, multi);
   printf("geom: 150 shaders, %u with per-lane vertex counts, %u ENDPRIM first, %u without "
          "constants; maximum 1: %u of %u overflow\n",
          varies, cut_first, noconst, caught, multi);
}

/* The undefined fraction of a shader's outputs (a control shader's: of
 * what its lanes write, tcs_own), in percent; -1 if it did not run. */
static int
undef_percent(const char *text)
{
   struct tgsi_shader *s = tgsi_parse(text, strlen(text), "<tess>", NULL, NULL);
   if (!s)
      return -1;
   uint64_t v0 = n_values, u0 = n_undef, steps = 0;
   uint32_t *r = NULL;
   size_t n = 0;
   enum tgsi_interp_status st = run(s, 1, &r, &n, &steps);
   free(r);
   tgsi_shader_free(s);
   uint64_t nv = n_values - v0, nu = n_undef - u0;
   return st != TGSI_INTERP_OK || !nv ? -1 : (int)(nu * 100 / nv);
}

/* Tessellation shaders (gen_tess.c): a control shader writes its own
 * vertex (OUT[ADDR[1].x], INVOCATIONID) and the patch's outputs, all of
 * them defined in every lane; an evaluation shader reads TESSCOORD.
 * Shown failing: with the own-vertex writes sent to vertex 0, lanes of
 * other invocations leave their own vertex undefined (with one vertex
 * out, nothing changes). */
static void
test_tess(void)
{
   unsigned failed = 0, sum = 0, caught = 0, coord = 0, guard = 0, body = 0, same = 0, singles = 0;
   for (uint64_t seed = 1; seed <= 60; seed++) {
      for (unsigned k = 0; k < 2; k++) {
         enum tgsi_stage st = k ? TGSI_STAGE_TESS_EVAL : TGSI_STAGE_TESS_CTRL;
         struct diff_gen_opts o = {.stage = st, .size = 60, .sink = true};
         char *t = diff_gen(seed, &o, NULL, NULL);
         int u = t ? undef_percent(t) : -1;
         failed += u < 0;
         sum += (unsigned)MAX2(u, 0);
         if (t && k) {
            coord += strstr(t, "TESSCOORD") != NULL;
         } else if (t) {
            guard += strstr(t, "UIF") != NULL && strstr(t, "USEQ") != NULL;
            const char *b = strstr(t, "\n  UARL ADDR[1].x");
            body += b != NULL;
            /* every own-vertex write to vertex 0 instead */
            char *z = xasprintf("%s", t);
            for (char *p = z; (p = strstr(p, "OUT[ADDR[1].x]"));) {
               p[4] = '0'; /* "OUT[0]" */
               memmove(p + 5, p + 13, strlen(p + 13) + 1);
            }
            bool multi = !strstr(t, "TCS_VERTICES_OUT 1\n");
            int uz = undef_percent(z);
            caught += multi && uz > u + 20;
            /* within 2%: an indirect write under an undefined condition
             * leaves the register's other channels undefined too */
            same += !multi && uz <= u + 2 && u <= uz + 2;
            singles += !multi;
            free(z);
         }
         free(t);
      }
   }
   CHECK_EQ_U(failed, 0);
   /* what is left undefined comes from special inputs in conditions, as
    * in other stages (test_interp) */
   CHECKF(sum <= 120 * 3, "%u%% of the outputs undefined on average", sum / 120);
   CHECK_EQ_U(same, singles); /* one vertex out: vertex 0 is the own one */
   CHECKF(body == 60 && coord >= 20 && guard >= 5, "%u UARL first, %u read TESSCOORD, %u guarded",
          body, coord, guard);
   CHECKF(caught >= 20, "own vertex sent to vertex 0: %u control shaders caught", caught);
   printf("tess: 60 TCS (%u guard the patch outputs; with the own-vertex writes sent to vertex 0, "
          "%u undefined), 60 TES (%u read TESSCOORD)\n",
          guard, caught, coord);
}

int
main(void)
{
   test_determinism();
   test_pinned();
   test_many();
   test_supports();
   test_bytes();
   test_interp();
   test_comp_sink();
   test_votes();
   test_keyed_conditions();
   test_exits_both_arms();
   test_cont_tails();
   test_sink_unary();
   test_stage_names();
   test_geom();
   test_tess();
   return test_done();
}
