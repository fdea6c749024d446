/*
 * Emulator behaviour on the sm50 model (and texture sampling on both):
 *  - stall counts agree with isa_delay(): the smallest stall count after
 *    a producer that avoids a RAW hazard is isa_delay's distance;
 *  - the sm50 semantics get their arguments from the decoded instruction
 *    (compare condition, signedness, combine, halves, shift modes): each
 *    lane's result equals the sem.h function called by hand;
 *  - texture instructions sample through env_sample exactly as the
 *    interpreter does (a3xx sam and sm50 TEX);
 *  - batched runs equal wave-by-wave runs, with divergence and guards.
 */
#include "emu/tests/emu_test_util.h"

#include "isa/sem.h"

static int
delay_needed(const struct isa_model *m, const char *p, const char *c)
{
   struct isa_insn a, b;
   struct diag_list d = {0};
   bool ok =
       isa_parse_insn(m, p, &a, &d) == ISA_ERR_OK && isa_parse_insn(m, c, &b, &d) == ISA_ERR_OK;
   CHECKF(ok, "parse '%s' / '%s'", p, c);
   diag_clear(&d);
   int need = -1;
   for (unsigned s = 0; ok && s < b.nsrc; s++) {
      struct isa_delay dl = isa_delay(m, &a, ISA_SLOT_DST(0), &b, ISA_SLOT_SRC(s));
      if (dl.sync == ISA_SYNC_NONE && dl.distance > need)
         need = dl.distance;
   }
   /* A guard reads its predicate too (not an operand slot). */
   if (ok && strchr(c, '@'))
      need = MAX2(need, isa_hazard_param(m, "pred_latency", 0));
   return need;
}

/* The smallest stall count on the producer with no RAW event. */
static int
stall_needed(const struct isa_model *m, const char *p, const char *c)
{
   for (int s = 1; s <= 15; s++) {
      char *text = xasprintf(".lanes 1\nS%d %s\nS6 %s\nS15 EXIT\n", s, p, c);
      struct fix_run r;
      bool ran = fix_run_text(m, text, "pair", 1, 1, NULL, &r);
      CHECKF(ran, "pair '%s' -> '%s' runs", p, c);
      uint64_t raw = r.res.counts[EMU_EV_RAW];
      fix_free(&r);
      free(text);
      if (ran && !raw)
         return s;
   }
   return -1;
}

static void
test_stall_agreement(const struct isa_model *m)
{
   static const char *const pairs[][2] = {
       {"FADD R1, R2, R3", "FMUL R4, R1, R5"},
       {"IADD R1, R2, R3", "ISCADD R4, R5, R1, 2"},
       {"MOV32I R1, 0x3f800000", "FFMA R4, R5, R6, R1"},
       {"ISETP.LT.AND P0, PT, R2, R3, PT", "SEL R4, R5, R6, P0"},
       {"FSETP.GT.AND P1, PT, R2, R3, PT", "@P1 FADD R4, R5, R6"},
       {"LOP.XOR R1, R2, R3", "STG [R1+0], R4"},
       {"SHL R1, R2, 3", "MUFU.RCP R4, R1"},
   };
   for (unsigned i = 0; i < ARRAY_SIZE(pairs); i++) {
      int want = delay_needed(m, pairs[i][0], pairs[i][1]);
      int got = stall_needed(m, pairs[i][0], pairs[i][1]);
      CHECKF(want > 0 && got == want, "'%s' -> '%s': emulator needs stall %d, isa_delay %d",
             pairs[i][0], pairs[i][1], got, want);
   }
}

/* Each lane's result against the sem.h function called by hand. */
static void
test_semantics(const struct isa_model *m)
{
   const char *prog = ".stage vert\n.input R1 IN[0].xyzw\n.output R8 OUT[0].xyzw\n"
                      ".output R12 OUT[1].xy\n"
                      "S13 ISETP.GT.AND P3, PT, R4, R3, PT\n"
                      "S13 ISETP.GE.U32.OR P1, P2, R1, R2, !P3\n"
                      "S6 SEL R8, R1, R2, P1\n"
                      "S6 SEL R9, R3, R4, P2\n"
                      "S6 W1 XMAD.PSL R10, H1:R1, R2, R3\n"
                      "S6 SHF.R.W.HI.S64 R11, R1, R2, R3\n"
                      "S6 FSET.BF.LTU.XOR R12, R1, R2, P3\n"
                      "S6 BFE.U32 R13, R1, R2\n"
                      "S15 B0x2 EXIT\n";
   struct fix_run r;
   bool ok = fix_run_text(m, prog, "sem", 3, 200, NULL, &r);
   CHECK(ok && r.st == EMU_OK && r.res.nevents == 0);
   unsigned bad = 0;
   for (uint32_t l = 0; ok && l < 200; l++) {
      uint32_t a = env_in(r.env, 0, 0, 0)[l], b = env_in(r.env, 0, 0, 1)[l];
      uint32_t c = env_in(r.env, 0, 0, 2)[l], d = env_in(r.env, 0, 0, 3)[l];
      uint32_t p3 = sem_scmp(SEM_GT, d, c), p1, p2;
      sem_setp(sem_ucmp(SEM_GE, a, b), p3 ^ 1, SEM_BOP_OR, &p1, &p2);
      uint32_t want[6] = {
          p1 ? a : b,
          p2 ? c : d,
          sem_xmad(a, b, c, 1, 0, 1, 0, 0),
          sem_shf(1, a, b, c, 3, 1, 1),
          sem_fset((uint32_t)sem_fcmp_bool(SEM_LTU, a, b), p3, SEM_BOP_XOR, 1),
          sem_bfe(a, b, 0, 0),
      };
      uint32_t got[6] = {fix_out(&r, 0, 0, l), fix_out(&r, 0, 1, l), fix_out(&r, 0, 2, l),
                         fix_out(&r, 0, 3, l), fix_out(&r, 1, 0, l), fix_out(&r, 1, 1, l)};
      for (unsigned k = 0; k < 6; k++)
         if (got[k] != want[k] && bad++ < 5)
            fprintf(stderr, "lane %u result %u: 0x%08x, expected 0x%08x\n", l, k, got[k], want[k]);
   }
   CHECKF(bad == 0, "%u sm50 results differ from sem.h", bad);
   fix_free(&r);
}

/* Texture results are env_sample's, lane by lane. */
static void
test_texture(const char *model, const char *prog)
{
   struct isa_model *m = fix_open_model(model);
   struct fix_run r;
   bool ok = m && fix_run_text(m, prog, "tex", 9, 100, NULL, &r);
   CHECKF(ok && r.st == EMU_OK && r.res.nevents == 0, "%s texture program runs clean", model);
   unsigned bad = 0;
   for (uint32_t l = 0; ok && l < 100; l++) {
      struct env_sample_req q = {.target = r.env->tex[0].target};
      q.coord[0] = uif(env_in(r.env, 0, 0, 0)[l]);
      q.coord[1] = uif(env_in(r.env, 0, 0, 1)[l]);
      uint32_t want[4];
      env_sample(r.env, 0, &q, want);
      for (unsigned c = 0; c < 4; c++)
         bad += fix_out(&r, 0, c, l) != want[c];
   }
   CHECKF(ok && bad == 0, "%s: %u texels differ from env_sample", model, bad);
   if (m)
      fix_free(&r);
   isa_close(m);
}

static const char sm50_div[] = ".stage vert\n.sysval R0 VERTEXID.x\n.input R1 IN[0].xy\n"
                               ".output R3 OUT[0].xy\n"
                               "S6 LOP.AND R0, R0, 7\n"
                               "S6 MOV R3, R1\n"
                               "S13 MOV R4, RZ\n"
                               "S13 SSY $done\n"
                               "loop:\n"
                               "S13 ISETP.LT.AND P0, PT, R4, R0, PT\n"
                               "S13 @!P0 SYNC\n"
                               "S6 FMUL R3, R3, R2\n"
                               "S1 IADD R4, R4, 1\n" /* raw on R4 at the loop top: too short */
                               "S13 BRA $loop\n"
                               "done:\n"
                               "S6 W0 MUFU.RCP R5, R3\n"
                               "S6 @P0 FADD R3, R3, R5\n" /* no wait: a sync hazard */
                               "S6 MOV R4, R0\n"
                               "S15 EXIT\n";

static void
test_batches(const struct isa_model *m)
{
   struct fix_run a, b;
   struct emu_options one = {.no_batch = true}, batch = {0};
   bool ra = fix_run_text(m, sm50_div, "div", 4, 300, &one, &a);
   bool rb = fix_run_text(m, sm50_div, "div", 4, 300, &batch, &b);
   CHECK(ra && rb && a.res.nevents > 0);
   if (ra && rb) {
      size_t n = (size_t)a.env->nout * 4 * a.env->nlanes;
      CHECK(!memcmp(a.env->out, b.env->out, n * 4));
      CHECK(a.res.cycles == b.res.cycles && a.res.wave_cycles == b.res.wave_cycles);
      CHECK(!memcmp(a.res.counts, b.res.counts, sizeof(a.res.counts)));
      CHECK(a.res.insns == b.res.insns && a.res.lane_insns == b.res.lane_insns &&
            a.res.stall_cycles == b.res.stall_cycles);
      /* Wave sizes do not change the values. */
      one.wave_size = 13;
      CHECK(fix_exec(&a, &one));
      CHECK(!memcmp(a.env->out, b.env->out, n * 4));
      /* Lane 5 (5 & 7 = 5 iterations): x * y^5. */
      float x = uif(env_in(b.env, 0, 0, 0)[5]), y = uif(env_in(b.env, 0, 0, 1)[5]);
      for (int k = 0; k < 5; k++)
         x = x * y;
      CHECK_EQ_U(fix_out(&b, 0, 0, 5), fui(x));
   }
   fix_free(&a);
   fix_free(&b);
}

int
main(void)
{
   struct isa_model *m = fix_open_model("sm50");
   if (!m)
      return test_done();
   test_stall_agreement(m);
   test_semantics(m);
   test_batches(m);
   isa_close(m);
   test_texture("a3xx", ".stage vert\n.texture 0 2D\n.input r0.x IN[0].xy\n"
                        ".output r1.x OUT[0].xyzw\n(rpt5)nop\n"
                        "sam (f32)(xyzw)r1.x, r0.x, s#0, t#0\n(sy)end\n");
   test_texture("sm50", ".stage vert\n.texture 0 2D\n.input R0 IN[0].xy\n"
                        ".output R4 OUT[0].xyzw\n"
                        "S6 W0 TEX.LZ.2D.Mf R4, R0, RZ, t0\nS15 B0x1 EXIT\n");
   return test_done();
}
