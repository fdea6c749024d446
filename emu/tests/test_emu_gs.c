/*
 * Stage outputs on the sm50 model (emu/gs.c), hand-written programs:
 *  - a geometry shader's AST and OUT: emitted vertices with their data,
 *    streams and primitive numbers as the interpreter defines them, the
 *    handles OUT returns, GS_OVERFLOW past the maximum, data never written
 *    left UNDEF-flagged;
 *  - the handle is a real register value: reading it without waiting for
 *    OUT's scoreboard is a sync hazard and stores to the stale handle;
 *  - a tessellation control shader's AST: per output vertex (the vertex
 *    register) and per patch (vertex 0);
 *  - batched runs equal wave-by-wave runs.
 */
#include "emu/tests/emu_test_util.h"

/* Assembles, makes inputs for the bindings, nout outputs of nvert
 * vertices, and runs. */
static bool
run_stage(const struct isa_model *m, const char *text, uint32_t lanes, uint32_t nout,
          uint32_t nvert, const struct emu_options *o, struct fix_run *r)
{
   if (!fix_prepare(m, text, "prog", 3, lanes, r)) {
      fix_print_diags(&r->d);
      return false;
   }
   env_free(r->env);
   struct diag_list td = {0};
   struct tgsi_shader *s = tgsi_parse(r->as.tgsi, strlen(r->as.tgsi), "<decl>", NULL, &td);
   diag_clear(&td);
   r->env = s ? diff_gen_inputs(s, 3, lanes, &r->d) : NULL;
   tgsi_shader_free(s);
   if (!r->env || !env_alloc_outputs(r->env, nout, nvert))
      return false;
   bool ok = fix_exec(r, o);
   if (!ok)
      fix_print_diags(&r->d);
   return ok;
}

static size_t
gs_at(const struct env *e, uint32_t lane, uint32_t v, uint32_t reg, unsigned c)
{
   return (((size_t)lane * e->gs_max_vertices + v) * e->nout + reg) * 4 + c;
}

/* Vertex 0: OUT[0].x = input, stream 0; vertex 1: OUT[0].y = input + 1,
 * stream 1, then the primitive ends; a third emit overflows (max 2).
 * R2, R3, R4 keep the handles OUT returned. */
static const char gs_prog[] = ".stage geom\n"
                              ".max_vertices 2\n"
                              ".input R0 IN[0][0].x\n"
                              "S6 MOV R1, RZ\n"
                              "S1 AST a[R1][RZ+0x0], R0\n"
                              "S2 W0 OUT.EMIT R2, R1, 0\n"
                              "S6 IADD R5, R0, 1\n"
                              "S1 B0x1 AST a[R2][RZ+0x4], R5\n"
                              "S2 W1 OUT.EMIT_THEN_CUT R3, R2, 1\n"
                              "S2 W2 B0x2 OUT.EMIT R4, R3, 0\n"
                              "S15 B0x4 EXIT\n"
                              ".output R2 OUT[1].x\n"
                              ".output R3 OUT[1].y\n"
                              ".output R4 OUT[1].z\n";

static void
test_gs(const struct isa_model *m)
{
   struct fix_run r;
   bool ok = run_stage(m, gs_prog, 40, 2, 1, NULL, &r);
   CHECK(ok);
   if (!ok) {
      fix_free(&r);
      return;
   }
   const struct env *e = r.env;
   unsigned hazards = 0;
   for (unsigned k = 0; k < EMU_EV_FIRST_FAULT; k++)
      hazards += (unsigned)r.res.counts[k];
   CHECK_EQ_U(hazards, 0);
   CHECK_EQ_U(r.st, EMU_OK);
   CHECK_EQ_U(e->gs_max_vertices, 2);
   CHECK_EQ_U(e->events[ENV_EV_GS_OVERFLOW], 40);
   for (uint32_t l = 0; l < 40; l++) {
      uint32_t in = *(env_in(e, 0, 0, 0) + l);
      CHECK_EQ_U(e->gs_count[l], 2);
      CHECK_EQ_U(e->gs_data[gs_at(e, l, 0, 0, 0)], in);
      CHECK_EQ_U(e->gs_flags[gs_at(e, l, 0, 0, 0)], 0);
      CHECK_EQ_U(e->gs_flags[gs_at(e, l, 0, 0, 1)], ENV_F_UNDEF);
      CHECK_EQ_U(e->gs_data[gs_at(e, l, 1, 0, 1)], in + 1);
      CHECK_EQ_U(e->gs_flags[gs_at(e, l, 1, 0, 0)], ENV_F_UNDEF);
      CHECK_EQ_U(e->gs_stream[l * 2 + 0], 0);
      CHECK_EQ_U(e->gs_stream[l * 2 + 1], 1);
      CHECK_EQ_U(e->gs_prim[l * 2 + 0], 0);
      CHECK_EQ_U(e->gs_prim[l * 2 + 1], 0);
      CHECK_EQ_U(e->gs_undef[l], 0);
      CHECK_EQ_U(e->out[env_out_index(e, 0, 1, 0) + l], 1);
      CHECK_EQ_U(e->out[env_out_index(e, 0, 1, 1) + l], 2);
      CHECK_EQ_U(e->out[env_out_index(e, 0, 1, 2) + l], 3);
   }
   /* Batched and wave-by-wave runs agree, and a second run on the same env
    * starts from scratch. */
   uint32_t *data = xmalloc((size_t)40 * 2 * 2 * 4 * 4);
   memcpy(data, e->gs_data, (size_t)40 * 2 * 2 * 4 * 4);
   struct emu_options alone = {.no_batch = true};
   CHECK(fix_exec(&r, &alone));
   CHECK(!memcmp(data, r.env->gs_data, (size_t)40 * 2 * 2 * 4 * 4));
   CHECK_EQ_U(r.env->events[ENV_EV_GS_OVERFLOW], 40);
   CHECK_EQ_U(r.env->gs_count[39], 2);
   free(data);
   fix_free(&r);
}

/* A primitive number counts the cuts before the emit; a cut alone keeps
 * the handle. */
static void
test_gs_prims(const struct isa_model *m)
{
   static const char text[] = ".stage geom\n"
                              ".max_vertices 3\n"
                              ".input R0 IN[0][0].x\n"
                              "S6 MOV R1, RZ\n"
                              "S2 W0 OUT.CUT R2, R1, 0\n"
                              "S2 W1 B0x1 OUT.EMIT R3, R2, 0\n"
                              "S2 W0 B0x2 OUT.CUT R4, R3, 0\n"
                              "S2 W1 B0x1 OUT.EMIT R5, R4, 2\n"
                              "S15 B0x2 EXIT\n"
                              ".output R5 OUT[0].x\n";
   struct fix_run r;
   CHECK(run_stage(m, text, 8, 1, 1, NULL, &r));
   const struct env *e = r.env;
   CHECK_EQ_U(e->gs_count[5], 2);
   CHECK_EQ_U(e->gs_prim[5 * 3 + 0], 1);
   CHECK_EQ_U(e->gs_prim[5 * 3 + 1], 2);
   CHECK_EQ_U(e->gs_stream[5 * 3 + 1], 2);
   CHECK_EQ_U(e->out[env_out_index(e, 0, 0, 0) + 5], 2);
   CHECK_EQ_U(e->events[ENV_EV_GS_OVERFLOW], 0);
   fix_free(&r);
}

/* Without the wait on OUT's scoreboard the AST reads the old handle: a
 * sync hazard, and vertex 1 never gets its data. */
static void
test_gs_stale_handle(const struct isa_model *m)
{
   char *text = xstrdup(gs_prog);
   char *at = strstr(text, "S1 B0x1 AST");
   CHECK(at != NULL);
   if (at)
      memcpy(at, "S1 B0x0", 7);
   struct fix_run r;
   CHECK(run_stage(m, text, 4, 2, 1, NULL, &r));
   CHECK(r.res.counts[EMU_EV_SYNC] > 0);
   CHECK_EQ_U(r.env->gs_flags[gs_at(r.env, 0, 1, 0, 1)], ENV_F_UNDEF);
   CHECK_EQ_U(r.env->gs_flags[gs_at(r.env, 0, 0, 0, 1)], 0);
   fix_free(&r);
   free(text);
}

/* Tessellation control: each lane writes OUT[1].xy of the output vertex
 * its invocation id names (AST.64), and OUT[2].x per patch (vertex 0). */
static void
test_tcs(const struct isa_model *m)
{
   static const char text[] = ".stage tess_ctrl\n"
                              ".sysval R0 INVOCATIONID.x\n"
                              ".input R2 IN[0][0].xy\n"
                              "S1 AST.64 a[R0][RZ+0x10], R2\n"
                              "S1 AST.P a[RZ][RZ+0x20], R3\n"
                              "S1 AST a[R0][RZ+0x40], R3\n"
                              "S15 EXIT\n";
   struct fix_run r;
   CHECK(run_stage(m, text, 12, 3, 3, NULL, &r));
   const struct env *e = r.env;
   CHECK_EQ_U(e->events[ENV_EV_REG_OOB], 12); /* OUT[4] does not exist */
   const uint32_t *inv = e->sv[TGSI_SEM_INVOCATIONID];
   CHECK(inv != NULL);
   for (uint32_t l = 0; l < 12 && inv; l++) {
      uint32_t v = inv[l];
      CHECK(v < 3);
      if (v >= 3)
         continue;
      for (unsigned c = 0; c < 2; c++) {
         CHECK_EQ_U(e->out[env_out_index(e, v, 1, c) + l], *(env_in(e, 0, 0, c) + l));
         CHECK_EQ_U(e->out_flags[env_out_index(e, v, 1, c) + l], 0);
         CHECK_EQ_U(e->out_flags[env_out_index(e, (v + 1) % 3, 1, c) + l], ENV_F_UNDEF);
      }
      CHECK_EQ_U(e->out[env_out_index(e, 0, 2, 0) + l], *(env_in(e, 0, 0, 1) + l));
      CHECK_EQ_U(e->out_flags[env_out_index(e, 1, 2, 0) + l], ENV_F_UNDEF);
   }
   fix_free(&r);
}

/* The loader refuses an OUT whose mode field names nothing. */
static void
test_bad_mode(const struct isa_model *m)
{
   /* OUT R1, R1, RZ with mode 0 (0xfbe0, bits 39..40 clear) */
   static const uint8_t code[] = {0xe0, 0x07, 0x00, 0xfc, 0x00, 0x80, 0x1f, 0x00,
                                  0x01, 0x01, 0xf7, 0x0f, 0x00, 0x00, 0xe0, 0xfb};
   struct emu_program p = {
       .model = m, .code = (uint8_t *)code, .size = 16, .stage = TGSI_STAGE_GEOM};
   struct emu_code *c = NULL;
   struct diag_list d = {0};
   enum emu_status st = emu_load(&p, &c, &d);
   /* An illegal encoding loads (it faults when executed). */
   CHECK_EQ_U(st, EMU_OK);
   CHECK(c && emu_code_insn(c, 0)->illegal != ISA_ILLEGAL_NONE);
   emu_code_free(c);
   diag_clear(&d);
}

int
main(void)
{
   struct isa_model *m = fix_open_model("sm50");
   if (m) {
      test_gs(m);
      test_gs_prims(m);
      test_gs_stale_handle(m);
      test_tcs(m);
      test_bad_mode(m);
   }
   isa_close(m);
   return test_done();
}
