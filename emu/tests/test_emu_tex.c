/*
 * Texture instructions on both models:
 *  - the registers the emulator's texture unit reads from each group are
 *    exactly those the model's operand counts cover (the hazard rules and
 *    the schedulers rely on the counts);
 *  - each form's result, lane by lane, is what env_sample / env_fetch /
 *    env_tex_query give for the operands laid out as the model's comment
 *    documents (the expectation below reads the inputs in that layout, a
 *    second formulation of emu/tex.c);
 *  - resource sizes bound with EMU_BIND_SIZE (.size) are the env's.
 */
#include "emu/emu_priv.h"
#include "emu/tests/emu_test_util.h"

/* ------------------------------------------------------------------ */
/* Register counts against the model                                    */

static void
check_counts(const struct isa_model *m, const char *line, unsigned want_a, unsigned want_b)
{
   char *text = xasprintf("%s\n", line);
   struct emu_asm as = {0};
   struct diag_list d = {0};
   struct emu_code *c = NULL;
   bool ok = emu_asm_parse(m, text, "counts", &as, &d) && emu_load(&as.prog, &c, &d) == EMU_OK;
   CHECKF(ok, "'%s' loads: %s", line, diag_first_error(&d));
   if (ok) {
      const struct isa_insn *in = emu_code_insn(c, 0);
      const struct emu_op *op = &c->ops[0];
      CHECKF(op->tex.nreg[0] == want_a && op->tex.nreg[1] == want_b,
             "'%s': the unit reads %u + %u registers, expected %u + %u", line, op->tex.nreg[0],
             op->tex.nreg[1], want_a, want_b);
      /* The groups are the first two register operands. */
      unsigned g = 0;
      for (unsigned s = 0; s < in->nsrc && g < 2; s++) {
         if (in->src[s].kind != ISA_OPND_REG)
            continue;
         unsigned n = isa_opnd_count(m, in, ISA_SLOT_SRC(s)), nr = op->tex.nreg[g];
         CHECKF(n == (nr ? nr : 1), "'%s': group %u covers %u registers in the model, %u read",
                line, g, n, nr);
         g++;
      }
   }
   emu_code_free(c);
   emu_asm_free(&as);
   diag_clear(&d);
   free(text);
}

static void
test_counts(const struct isa_model *a3, const struct isa_model *nv)
{
   check_counts(a3, "sam (f32)(xyzw)r1.x, r0.x, s#0, t#0", 2, 0);
   check_counts(a3, "sam.3d.s.p (f32)(xyzw)r1.x, r0.x, s#0, t#0", 5, 0);
   check_counts(a3, "sam.o (f32)(xyzw)r1.x, r0.x, r2.x, s#0, t#0", 2, 2);
   check_counts(a3, "samb.a (f32)(xyzw)r1.x, r0.x, r2.x, s#0, t#0", 3, 1);
   check_counts(a3, "saml.a.s.o (f32)(xyzw)r1.x, r0.x, r2.x, s#0, t#0", 4, 3);
   check_counts(a3, "isaml.3d (s32)(xyzw)r1.x, r0.x, r2.x, s#0, t#0", 3, 1);
   check_counts(nv, "TEX.2D.Mf R4, R0, RZ, t0", 2, 0);
   check_counts(nv, "TEX.LL.ARRAY_CUBE.DC.AOFFI.Mf R4, R0, R8, t0", 4, 3);
   check_counts(nv, "TEX.LB.3D.M1 R4, R0, R8, t0", 3, 1);
   check_counts(nv, "TEX.LZ.ARRAY_1D.DC.M1 R4, R0, R8, t0", 2, 1);
   check_counts(nv, "TLD.LL.2D.MS.AOFFI.Mf R4, R0, R8, t0", 2, 3);
   check_counts(nv, "TXD.ARRAY_2D.Mf R4, R0, R8, t0", 3, 4);
   check_counts(nv, "TXQ.TEX_HEADER_DIMENSION.Mf R4, R0, t0", 1, 0);
   check_counts(nv, "TXQ.TEX_HEADER_TEXTURE_TYPE.Mf R4, RZ, t0", 0, 0);
   check_counts(nv, "TMML.LOD.ARRAY_CUBE.M3 R4, R0, t0", 4, 0);
   check_counts(nv, "TLD4.G.ARRAY_2D.DC.AOFFI.Mf R4, R0, R8, t0", 3, 2);
   check_counts(nv, "TLD4.R.CUBE.Mf R4, R0, RZ, t0", 3, 0);
   check_counts(nv, "TMML.LOD.2D.M3 R4, R0, t0", 2, 0);
   check_counts(a3, "getlod (s32)(xy)r1.x, r0.x, s#0, t#0", 2, 0);
   check_counts(a3, "samgq (f32)(xyzw)r1.x, r0.x, s#0, t#0", 8, 0);
   check_counts(a3, "samgq.3d.a (f32)(xyzw)r1.x, r0.x, s#0, t#0", 10, 0);
   check_counts(a3, "getlod.3d (s32)(xy)r1.x, r0.x, s#0, t#0", 3, 0);
}

/* ------------------------------------------------------------------ */
/* Results against the env                                              */

/* IN[reg].chan of lane l. */
static uint32_t
in_at(const struct fix_run *r, unsigned reg, unsigned chan, uint32_t l)
{
   return env_in(r->env, 0, reg, chan)[l];
}

enum layout {
   L_NV_TEX_LL_A2D_DC, /* A = layer, x, y (IN[0]); B = lod, ref (IN[1]) */
   L_NV_TLD_LL_OFF,    /* A = x, y; B = lod, packed offsets */
   L_NV_TXQ,           /* A = level */
   L_NV_TXQ_TYPE,      /* no operand: the sample count (1) in .z */
   L_NV_TLD4_DC_OFF,   /* A = x, y; B = offsets packed 8 bits each, ref; component g */
   L_LOD,              /* TMML, getlod: level 0 (the env has no implicit level) */
   L_IR3_SAML_ASO,     /* src1 = x, y, ref, layer; src2 = ox, oy, lod */
   L_IR3_SAM_3D_P,     /* src1 = x, y, z, w */
   L_IR3_ISAML,        /* src1 = x, y (level-0 units); src2 = lod */
   L_IR3_SAMGQ_A,      /* src1 = x, y, layer, pad, ddx.xy, ddy.xy (ignored) */
};

static void
expect(struct env *e, enum layout k, const struct fix_run *r, uint32_t l, uint32_t out[4])
{
   uint32_t a[4], b[4];
   for (unsigned c = 0; c < 4; c++) {
      a[c] = in_at(r, 0, c, l);
      b[c] = in_at(r, 1, c, l);
   }
   struct env_sample_req q = {.target = e->tex[0].target};
   int32_t ic[3] = {0, 0, 0}, off[3] = {0, 0, 0};
   switch (k) {
   case L_NV_TEX_LL_A2D_DC:
      q.coord[0] = uif(a[1]);
      q.coord[1] = uif(a[2]);
      q.coord[2] = (float)a[0];
      q.lod = uif(b[0]);
      q.compare = true;
      q.ref = uif(b[1]);
      env_sample(e, 0, &q, out);
      return;
   case L_NV_TLD_LL_OFF:
      ic[0] = (int32_t)a[0];
      ic[1] = (int32_t)a[1];
      off[0] = (int32_t)((b[1] & 15) ^ 8) - 8;
      off[1] = (int32_t)((b[1] >> 4 & 15) ^ 8) - 8;
      off[2] = (int32_t)((b[1] >> 8 & 15) ^ 8) - 8;
      env_fetch(e, 0, e->tex[0].target, ic, (int32_t)b[0], off, out);
      return;
   case L_NV_TXQ:
      env_tex_query(e, 0, (int32_t)a[0], out);
      return;
   case L_NV_TLD4_DC_OFF:
      q.coord[0] = uif(a[0]);
      q.coord[1] = uif(a[1]);
      q.gather = true;
      q.comp = 1;
      for (unsigned k = 0; k < 3; k++) /* the program's small offsets: see its LOP, IADD */
         q.offset[k] = (int8_t)(((b[0] & 0x7f7f7fu) - 0x3c3c3cu) >> (8 * k));
      q.compare = true;
      q.ref = uif(b[1]);
      env_sample(e, 0, &q, out);
      return;
   case L_LOD:
      out[0] = out[1] = out[2] = out[3] = 0;
      return;
   case L_NV_TXQ_TYPE:
      out[0] = out[1] = out[3] = 0;
      out[2] = 1;
      return;
   case L_IR3_SAML_ASO:
      q.coord[0] = uif(a[0]);
      q.coord[1] = uif(a[1]);
      q.coord[2] = uif(a[3]);
      q.compare = true;
      q.ref = uif(a[2]);
      q.offset[0] = (int32_t)b[0];
      q.offset[1] = (int32_t)b[1];
      q.lod = uif(b[2]);
      env_sample(e, 0, &q, out);
      return;
   case L_IR3_SAM_3D_P:
      for (unsigned c = 0; c < 3; c++)
         q.coord[c] = uif(a[c]) / uif(a[3]);
      env_sample(e, 0, &q, out);
      return;
   case L_IR3_SAMGQ_A:
      q.coord[0] = uif(a[0]);
      q.coord[1] = uif(a[1]);
      q.coord[2] = uif(a[2]);
      env_sample(e, 0, &q, out);
      return;
   case L_IR3_ISAML: {
      int32_t lod = (int32_t)b[0];
      ic[0] = lod >= 0 && lod < 32 ? (int32_t)a[0] >> lod : 0;
      ic[1] = lod >= 0 && lod < 32 ? (int32_t)a[1] >> lod : 0;
      env_fetch(e, 0, e->tex[0].target, ic, lod, off, out);
      return;
   }
   }
}

static void
check_results(const struct isa_model *m, const char *prog, enum layout k, const char *what)
{
   struct fix_run r;
   bool ok = fix_run_text(m, prog, what, 5, 64, NULL, &r);
   CHECKF(ok && r.st == EMU_OK && r.res.nevents == 0, "%s runs clean: %s", what,
          diag_first_error(&r.d));
   unsigned bad = 0;
   struct env *e = ok ? env_clone(r.env) : NULL;
   for (uint32_t l = 0; ok && l < 64; l++) {
      uint32_t want[4];
      expect(e, k, &r, l, want);
      for (unsigned c = 0; c < 4; c++)
         if (fix_out(&r, 0, c, l) != want[c] && bad++ < 4)
            fprintf(stderr, "%s lane %u comp %u: 0x%08x, expected 0x%08x\n", what, l, c,
                    fix_out(&r, 0, c, l), want[c]);
   }
   CHECKF(bad == 0, "%s: %u results differ from the env", what, bad);
   env_free(e);
   fix_free(&r);
}

static void
test_results(const struct isa_model *a3, const struct isa_model *nv)
{
   check_results(nv,
                 ".input R0 IN[0].xyzw\n.input R8 IN[1].xyzw\n.texture 0 SHADOW2D_ARRAY\n"
                 ".output R4 OUT[0].xyzw\n"
                 "S2 W0 TEX.LL.ARRAY_2D.DC.Mf R4, R0, R8, t0\nS15 B0x1 EXIT\n",
                 L_NV_TEX_LL_A2D_DC, "TEX.LL.ARRAY_2D.DC");
   check_results(nv,
                 ".input R0 IN[0].xyzw\n.input R8 IN[1].xyzw\n.texture 0 2D\n"
                 ".output R4 OUT[0].xyzw\n"
                 "S2 W0 TLD.LL.2D.AOFFI.Mf R4, R0, R8, t0\nS15 B0x1 EXIT\n",
                 L_NV_TLD_LL_OFF, "TLD.LL.AOFFI");
   check_results(nv,
                 ".input R0 IN[0].xyzw\n.input R8 IN[1].xyzw\n.texture 0 2D_ARRAY\n"
                 ".output R4 OUT[0].xyzw\n"
                 "S2 W0 TXQ.TEX_HEADER_DIMENSION.Mf R4, R0, t0\nS15 B0x1 EXIT\n",
                 L_NV_TXQ, "TXQ");
   check_results(nv,
                 ".input R0 IN[0].xyzw\n.input R8 IN[1].xyzw\n.texture 0 2D_MSAA\n"
                 ".output R4 OUT[0].xyzw\n"
                 "S6 MOV R4, R0\nS6 MOV R6, R0\n"
                 "S2 W0 TXQ.TEX_HEADER_TEXTURE_TYPE.Mf R4, RZ, t0\nS15 B0x1 EXIT\n",
                 L_NV_TXQ_TYPE, "TXQ texture type");
   check_results(nv,
                 ".input R0 IN[0].xyzw\n.input R8 IN[1].xyzw\n.texture 0 SHADOW2D\n"
                 ".output R4 OUT[0].xyzw\n"
                 "S6 LOP32I.AND R8, R8, 0x7f7f7f\nS6 IADD32I R8, R8, -0x3c3c3c\n"
                 "S2 W0 TLD4.G.2D.DC.AOFFI.Mf R4, R0, R8, t0\nS15 B0x1 EXIT\n",
                 L_NV_TLD4_DC_OFF, "TLD4.G.DC.AOFFI");
   check_results(nv,
                 ".input R0 IN[0].xyzw\n.input R8 IN[1].xyzw\n.texture 0 CUBEARRAY\n"
                 ".output R4 OUT[0].xyzw\n"
                 "S6 MOV R4, R1\nS6 MOV R5, R1\nS6 MOV R6, R1\nS6 MOV R7, R1\n"
                 "S2 W0 TMML.LOD.ARRAY_CUBE.Mf R4, R0, t0\nS15 B0x1 EXIT\n",
                 L_LOD, "TMML");
   check_results(a3,
                 ".input r0.x IN[0].xyzw\n.input r1.x IN[1].xyzw\n.texture 0 CUBE\n"
                 ".output r2.x OUT[0].xyzw\n"
                 "mov.u32u32 r2.x, r0.y\nmov.u32u32 r2.y, r0.y\nmov.u32u32 r2.z, r0.y\n"
                 "mov.u32u32 r2.w, r0.y\n(rpt5)nop\n"
                 "getlod.3d (s32)(xyzw)r2.x, r0.x, s#0, t#0\n(sy)end\n",
                 L_LOD, "getlod");
   check_results(a3,
                 ".input r0.x IN[0].xyzw\n.input r1.x IN[1].xyzw\n.texture 0 SHADOW2D_ARRAY\n"
                 ".output r2.x OUT[0].xyzw\n"
                 "saml.a.s.o (f32)(xyzw)r2.x, r0.x, r1.x, s#0, t#0\n(sy)end\n",
                 L_IR3_SAML_ASO, "saml.a.s.o");
   check_results(a3,
                 ".input r0.x IN[0].xyzw\n.input r1.x IN[1].xyzw\n.texture 0 3D\n"
                 ".output r2.x OUT[0].xyzw\n"
                 "sam.3d.p (f32)(xyzw)r2.x, r0.x, s#0, t#0\n(sy)end\n",
                 L_IR3_SAM_3D_P, "sam.3d.p");
   check_results(a3,
                 ".input r0.x IN[0].xyzw\n.input r1.x IN[1].xyzw\n.texture 0 2D\n"
                 ".output r2.x OUT[0].xyzw\n"
                 "isaml (s32)(xyzw)r2.x, r0.x, r1.x, s#0, t#0\n(sy)end\n",
                 L_IR3_ISAML, "isaml");
   check_results(a3,
                 ".input r0.x IN[0].xyzw\n.input r1.x IN[1].xyzw\n.texture 0 2D_ARRAY\n"
                 ".output r3.x OUT[0].xyzw\n"
                 "samgq.a (f32)(xyzw)r3.x, r0.x, s#0, t#0\n(sy)end\n",
                 L_IR3_SAMGQ_A, "samgq.a");
}

/* .size bindings: buffer bytes, image dimensions, shared bytes and a
 * texture's level-0 size, read from the constant file into outputs. */
static void
test_sizes(const struct isa_model *nv)
{
   static const char prog[] = ".stage comp\n.buffer 1\n.image 2 2D_ARRAY\n.texture 3 3D\n"
                              ".size c[0][0x0] BUFFER[1].x\n.size c[0][0x10] IMAGE[2].xyz\n"
                              ".size c[0][0x20] MEMORY.x\n.size c[0][0x30] SVIEW[3].xyzw\n"
                              ".output R0 OUT[0].xyzw\n.output R4 OUT[1].xyzw\n"
                              ".output R8 OUT[2].xyzw\n"
                              "S6 MOV R0, c[0x0][0x0]\nS6 MOV R1, c[0x0][0x10]\n"
                              "S6 MOV R2, c[0x0][0x14]\nS6 MOV R3, c[0x0][0x18]\n"
                              "S6 MOV R4, c[0x0][0x20]\nS6 MOV R8, c[0x0][0x30]\n"
                              "S6 MOV R9, c[0x0][0x34]\nS6 MOV R10, c[0x0][0x38]\n"
                              "S6 MOV R11, c[0x0][0x3c]\nS15 EXIT\n";
   struct fix_run r;
   bool ok = fix_run_text(nv, prog, "sizes", 3, 4, NULL, &r);
   CHECKF(ok && r.st == EMU_OK && r.res.nevents == 0, "size program runs: %s",
          diag_first_error(&r.d));
   if (!ok) {
      fix_free(&r);
      return;
   }
   const struct env *e = r.env;
   uint32_t tsz[3];
   env_tex_size(&e->tex[3], 0, tsz);
   uint32_t want[9] = {e->buf[1].size,  e->img[2].width, e->img[2].height,
                       e->img[2].depth, e->shared_size,  tsz[0],
                       tsz[1],          tsz[2],          e->tex[3].levels};
   uint32_t got[9] = {fix_out(&r, 0, 0, 0), fix_out(&r, 0, 1, 0), fix_out(&r, 0, 2, 0),
                      fix_out(&r, 0, 3, 0), fix_out(&r, 1, 0, 0), fix_out(&r, 2, 0, 0),
                      fix_out(&r, 2, 1, 0), fix_out(&r, 2, 2, 0), fix_out(&r, 2, 3, 0)};
   for (unsigned k = 0; k < 9; k++)
      CHECKF(got[k] == want[k] && want[k], "size %u: %u, the env has %u", k, got[k], want[k]);
   fix_free(&r);
}

int
main(void)
{
   struct isa_model *a3 = fix_open_model("a3xx"), *nv = fix_open_model("sm50");
   if (a3 && nv) {
      test_counts(a3, nv);
      test_results(a3, nv);
      test_sizes(nv);
   }
   isa_close(a3);
   isa_close(nv);
   return test_done();
}
