/*
 * Geometry and tessellation stages on the gfx9 model (emu/gs.c, the stage
 * windows of emu.h), hand-written programs:
 *  - a geometry shader reads an input vertex through EMU_ADDR_STAGE_IN,
 *    writes two vertex slots through EMU_ADDR_STAGE_OUT and sends them
 *    with s_sendmsg: data, streams (from the message) and primitive
 *    numbers as the interpreter defines them, GS_OVERFLOW past the
 *    maximum, GS_DONE changing nothing;
 *  - the message speaks for the lanes in EXEC only;
 *  - a slot written but never sent is not a vertex, and a vertex sent
 *    from a slot never written is UNDEF (a wrong vertex index shows);
 *  - a tessellation control shader's window stores land in its output
 *    vertex, per patch at vertex 0.
 * The M0 wait state is fixtures/emu/gfx9/sendmsg_m0.s.
 */
#include "emu/tests/emu_test_util.h"

static bool
run_stage(const struct isa_model *m, const char *text, uint32_t lanes, uint32_t nout,
          uint32_t nvert, struct fix_run *r)
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
   bool ok = fix_exec(r, NULL);
   if (!ok)
      fix_print_diags(&r->d);
   return ok;
}

static size_t
gs_at(const struct env *e, uint32_t lane, uint32_t v, uint32_t reg, unsigned c)
{
   return (((size_t)lane * e->gs_max_vertices + v) * e->nout + reg) * 4 + c;
}

/* IN[1][0].x is declared (bound to v200, which the code never reads) so
 * the env has it; the code reads it through the window. Slot 0 gets
 * OUT[0].x = the input, slot 1 OUT[1].y = input + 1; then EMIT (stream
 * 0), EMIT_CUT (stream 1) and an EMIT past the maximum (2). */
static const char gs_prog[] = ".stage geom\n"
                              ".max_vertices 2\n"
                              ".outputs 2\n"
                              ".input v200 IN[1][0].x\n"
                              "v_mov_b32_e32 v2, 0x71001000\n"
                              "v_mov_b32_e32 v3, 0\n"
                              "global_load_dword v1, v[2:3], off\n"
                              "s_waitcnt vmcnt(0)\n"
                              "v_mov_b32_e32 v4, 0x72000000\n"
                              "v_mov_b32_e32 v5, 0\n"
                              "global_store_dword v[4:5], v1, off\n"
                              "v_add_u32_e32 v6, 1, v1\n"
                              "v_mov_b32_e32 v4, 0x72001000\n"
                              "global_store_dword v[4:5], v6, off offset:20\n"
                              "s_waitcnt vmcnt(0)\n"
                              "s_mov_b32 m0, 0\n"
                              "s_nop 0\n"
                              "s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 0)\n"
                              "s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT_CUT, 1)\n"
                              "s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 0)\n"
                              "s_sendmsg sendmsg(MSG_GS_DONE, GS_OP_NOP)\n"
                              "s_endpgm\n";

static void
test_gs(const struct isa_model *m)
{
   struct fix_run r;
   bool ok = run_stage(m, gs_prog, 40, 2, 1, &r);
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
   CHECK_EQ_U(e->events[ENV_EV_GS_OVERFLOW], 40);
   CHECK_EQ_U(e->events[ENV_EV_INPUT_OOB], 0);
   for (uint32_t l = 0; l < 40; l++) {
      uint32_t in = *(env_in(e, 1, 0, 0) + l);
      CHECK_EQ_U(e->gs_count[l], 2);
      CHECK_EQ_U(e->gs_data[gs_at(e, l, 0, 0, 0)], in);
      CHECK_EQ_U(e->gs_flags[gs_at(e, l, 0, 0, 0)], 0);
      CHECK_EQ_U(e->gs_flags[gs_at(e, l, 0, 1, 1)], ENV_F_UNDEF);
      CHECK_EQ_U(e->gs_data[gs_at(e, l, 1, 1, 1)], in + 1);
      CHECK_EQ_U(e->gs_flags[gs_at(e, l, 1, 0, 0)], ENV_F_UNDEF);
      CHECK_EQ_U(e->gs_stream[l * 2 + 0], 0);
      CHECK_EQ_U(e->gs_stream[l * 2 + 1], 1);
      CHECK_EQ_U(e->gs_prim[l * 2 + 0], 0);
      CHECK_EQ_U(e->gs_prim[l * 2 + 1], 0);
   }
   fix_free(&r);
}

/* Lanes outside EXEC are not spoken for: with exec = lanes 0..1 the
 * first emit sends a vertex for those two only; all four get the second
 * (slot 1 for lanes 0 and 1, slot 0 for lanes 2 and 3, which were never
 * written there: the data is wherever the program wrote it). */
static void
test_gs_exec(const struct isa_model *m)
{
   static const char text[] = ".stage geom\n"
                              ".max_vertices 2\n"
                              ".outputs 1\n"
                              "v_mov_b32_e32 v4, 0x72001000\n"
                              "v_mov_b32_e32 v5, 0\n"
                              "v_mov_b32_e32 v6, 7\n"
                              "global_store_dword v[4:5], v6, off\n"
                              "s_waitcnt vmcnt(0)\n"
                              "s_mov_b32 m0, 0\n"
                              "s_mov_b64 exec, 3\n"
                              "s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 2)\n"
                              "s_mov_b64 exec, 15\n"
                              "s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 3)\n"
                              "s_endpgm\n";
   struct fix_run r;
   CHECK(run_stage(m, text, 4, 1, 1, &r));
   const struct env *e = r.env;
   CHECK_EQ_U(e->gs_count[0], 2);
   CHECK_EQ_U(e->gs_count[3], 1);
   CHECK_EQ_U(e->gs_stream[0 * 2 + 0], 2);
   CHECK_EQ_U(e->gs_stream[0 * 2 + 1], 3);
   CHECK_EQ_U(e->gs_stream[3 * 2 + 0], 3);
   CHECK_EQ_U(e->gs_data[gs_at(e, 0, 1, 0, 0)], 7);
   CHECK_EQ_U(e->gs_flags[gs_at(e, 3, 0, 0, 0)], ENV_F_UNDEF);
   CHECK_EQ_U(e->gs_data[gs_at(e, 3, 1, 0, 0)], 7); /* written, never sent */
   fix_free(&r);
}

/* Tessellation control: each lane writes OUT[1].x of the output vertex
 * its invocation id names, and OUT[0].y per patch (vertex 0). */
static void
test_tcs(const struct isa_model *m)
{
   static const char text[] = ".stage tess_ctrl\n"
                              ".outputs 2\n"
                              ".sysval v0 INVOCATIONID.x\n"
                              ".input v200 IN[0][0].x\n"
                              "v_lshlrev_b32_e32 v1, 12, v0\n"
                              "v_add_u32_e32 v1, 0x72000000, v1\n"
                              "v_mov_b32_e32 v2, 0\n"
                              "global_store_dword v[1:2], v0, off offset:16\n"
                              "v_mov_b32_e32 v3, 0x72000000\n"
                              "v_mov_b32_e32 v4, 0\n"
                              "global_store_dword v[3:4], v0, off offset:4\n"
                              "s_waitcnt vmcnt(0)\n"
                              "s_endpgm\n";
   struct fix_run r;
   CHECK(run_stage(m, text, 12, 2, 3, &r));
   const struct env *e = r.env;
   const uint32_t *inv = e->sv[TGSI_SEM_INVOCATIONID];
   CHECK(inv != NULL);
   for (uint32_t l = 0; l < 12 && inv; l++) {
      uint32_t v = inv[l];
      CHECK(v < 3);
      if (v >= 3)
         continue;
      CHECK_EQ_U(e->out[env_out_index(e, v, 1, 0) + l], v);
      CHECK_EQ_U(e->out_flags[env_out_index(e, v, 1, 0) + l], 0);
      CHECK_EQ_U(e->out_flags[env_out_index(e, (v + 1) % 3, 1, 0) + l], ENV_F_UNDEF);
      CHECK_EQ_U(e->out[env_out_index(e, 0, 0, 1) + l], v);
   }
   fix_free(&r);
}

int
main(void)
{
   struct isa_model *m = fix_open_model("gfx9");
   if (m) {
      test_gs(m);
      test_gs_exec(m);
      test_tcs(m);
   }
   isa_close(m);
   return test_done();
}
