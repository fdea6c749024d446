/*
 * sem_args_of: the one mapping from an assembled instruction to the
 * arguments of its semantics, which the emulator's decoder and the
 * optimizing compiler's evaluator both use. Each case is an instruction in
 * a bundled model's assembly and the arguments it must give.
 */
#include "isa/isa.h"
#include "isa/sem.h"
#include "util/test.h"
#include "util/util.h"

/* Fields the semantics of the op reads; -1: not checked (a modifier the
 * op does not have reads as the model's value 0 there). */
struct args_case {
   const char *model, *text;
   int cond, round, bop, bop2, flags, mode, hi_srcs, src_type, dst_type;
};

#define NO -1

static const struct args_case cases[] = {
    /* a3xx: the cond role, ir3's rounding names, a 16-bit destination */
    {"a3xx", "cmps.f.lt p0.x, r0.x, r0.y", SEM_LT, NO, NO, NO, 0, 0, 0, ISA_TYPE_F32, NO},
    {"a3xx", "cmps.s.ge r1.x, r0.x, 5", SEM_GE, NO, NO, NO, 0, 0, 0, ISA_TYPE_S32, NO},
    {"a3xx", "cov.f32s32(even) r0.x, r1.x", NO, 1, NO, NO, 0, 0, 0, ISA_TYPE_F32, ISA_TYPE_S32},
    {"a3xx", "cov.f32f16 hr0.x, r1.y", NO, 0, NO, NO, 0, 0, 0, ISA_TYPE_F32, ISA_TYPE_F16},
    /* sm50: compares by their flip modifier (.NE is the ordered one),
     * predicate combines, NVIDIA's rounding names, XMAD's flags, mode and
     * halves */
    {"sm50", "FSETP.GEU.FTZ.OR P1, P2, -|R1|, -|R2|, !P3", SEM_GEU, NO, SEM_BOP_OR, NO, 0, 0, 0,
     ISA_TYPE_F32, NO},
    {"sm50", "FSETP.NE.XOR P0, PT, R1, c[0x4][0x40], P1", SEM_ONE, NO, SEM_BOP_XOR, NO, 0, 0, 0,
     ISA_TYPE_F32, NO},
    {"sm50", "I2F.F32.U32.RM R0, c[0x0][0x8]", NO, 3, NO, NO, 0, 0, 0, ISA_TYPE_U32, ISA_TYPE_F32},
    {"sm50", "F2I.S32.F32.RZ R0, R1", NO, 0, NO, NO, 0, 0, 0, ISA_TYPE_F32, ISA_TYPE_S32},
    {"sm50", "XMAD.CBCC.PSL R0, H1:R1, H1:R2, R3", NO, NO, NO, NO, SEM_FL_PSL, 4, 3, NO, NO},
    {"sm50", "XMAD.CLO.MRG.X.CC R0, R1, H1:R2, RZ", NO, NO, NO, NO, SEM_FL_MRG, 1, 2, NO, NO},
};

static void
check_case(const struct isa_model *m, const struct args_case *k)
{
   struct diag_list d = {0};
   struct isa_insn in;
   enum isa_err e = isa_parse_insn(m, k->text, &in, &d);
   CHECKF(e == ISA_ERR_OK, "%s: '%s' does not assemble: %s", k->model, k->text,
          d.n ? d.v[0].msg : isa_strerror(e));
   diag_clear(&d);
   if (e != ISA_ERR_OK)
      return;
   struct sem_args a;
   sem_args_of(m, &in, &a);
   const int got[] = {(int)a.cond, (int)a.round,   (int)a.bop,      (int)a.bop2,    (int)a.flags,
                      (int)a.mode, (int)a.hi_srcs, (int)a.src_type, (int)a.dst_type};
   const int want[] = {k->cond, k->round,   k->bop,      k->bop2,    k->flags,
                       k->mode, k->hi_srcs, k->src_type, k->dst_type};
   static const char *const names[] = {"cond", "round",   "bop",      "bop2",    "flags",
                                       "mode", "hi_srcs", "src_type", "dst_type"};
   for (unsigned f = 0; f < ARRAY_SIZE(names); f++)
      CHECKF(want[f] == NO || got[f] == want[f], "%s: %s %d, expected %d", k->text, names[f],
             got[f], want[f]);
   CHECK(a.type == (in.nsrc ? a.src_type : a.dst_type));
}

int
main(void)
{
   static const char *const models[] = {"a3xx", "sm50"};
   for (unsigned mi = 0; mi < ARRAY_SIZE(models); mi++) {
      struct diag_list d = {0};
      struct isa_model *m = NULL;
      CHECKF(isa_open(models[mi], &m, &d) == ISA_ERR_OK, "open %s", models[mi]);
      diag_clear(&d);
      if (!m)
         continue;
      for (unsigned i = 0; i < ARRAY_SIZE(cases); i++)
         if (!strcmp(cases[i].model, models[mi]))
            check_case(m, &cases[i]);
      isa_close(m);
   }
   return test_done();
}
