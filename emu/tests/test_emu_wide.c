/*
 * sm50 FP64 (register pairs, low word first) lane by lane against the host
 * double arithmetic on random inputs: DADD with neg/abs, DMUL, DFMA with a
 * negated addend, DMNMX both ways, DSETP, F2F between f32 and f64 and the
 * integral roundings, I2F.F64 and F2I from f64; batched runs and wave by
 * wave runs give the same.
 */
#include "emu/tests/emu_test_util.h"

#include "isa/sem.h"

static uint32_t
in_at(const struct fix_run *r, unsigned reg, unsigned chan, uint32_t l)
{
   return env_in(r->env, 0, reg, chan)[l];
}

static uint64_t
pair(const struct fix_run *r, unsigned reg, unsigned c, uint32_t l)
{
   return in_at(r, reg, c, l) | (uint64_t)in_at(r, reg, c + 1, l) << 32;
}

static uint64_t
out64(const struct fix_run *r, unsigned out, unsigned c, uint32_t l)
{
   return fix_out(r, out, c, l) | (uint64_t)fix_out(r, out, c + 1, l) << 32;
}

static uint64_t
d(double x)
{
   return sem_dres(x);
}

static double
f(uint64_t u)
{
   return sem_d(u);
}

/* a = IN[0].xy, b = IN[0].zw, c = IN[1].xy; a float: IN[1].z. */
static void
check(const struct fix_run *r, uint32_t l, unsigned *bad)
{
   uint64_t a = pair(r, 0, 0, l), b = pair(r, 0, 2, l), c = pair(r, 1, 0, l);
   uint32_t x = in_at(r, 1, 2, l);
   uint64_t na = a ^ (1ull << 63), absb = b & ~(1ull << 63);
   uint64_t want[6] = {
       d(f(na) + f(absb)),       d(f(a) * f(b)),
       d(fma(f(a), f(b), -f(c))), sem_dmnmx(a, b, 1),
       sem_dmnmx(a, b, 0),       sem_f2d(x),
   };
   for (unsigned k = 0; k < 6; k++)
      *bad += out64(r, k / 2, 2 * (k % 2), l) != want[k];
   uint32_t lt = f(a) < f(b), ge_or = (f(a) >= f(b)) | !lt;
   *bad += fix_out(r, 3, 0, l) != lt;
   *bad += fix_out(r, 3, 1, l) != ge_or;
   *bad += fix_out(r, 3, 2, l) != sem_d2f(a);
   *bad += fix_out(r, 3, 3, l) != sem_d2i(b);
   *bad += out64(r, 4, 0, l) != d(floor(f(a)));
   *bad += out64(r, 4, 2, l) != d(nearbyint(f(b)));
   *bad += out64(r, 5, 0, l) != d((double)(int32_t)x);
   *bad += out64(r, 5, 2, l) != d(ceil(f(c)));
   *bad += fix_out(r, 6, 0, l) != sem_d2u(c);
   *bad += out64(r, 6, 2, l) != d(trunc(f(a)));
}

int
main(void)
{
   struct diag_list dg = {0};
   struct isa_model *nv = NULL;
   CHECKF(isa_open("sm50", &nv, &dg) == ISA_ERR_OK, "open sm50");
   diag_clear(&dg);
   static const char prog[] =
       ".input R0 IN[0].xyzw\n.input R4 IN[1].xyzw\n"
       ".output R8 OUT[0].xyzw\n.output R12 OUT[1].xyzw\n.output R16 OUT[2].xyzw\n"
       ".output R20 OUT[3].xyzw\n.output R24 OUT[4].xyzw\n.output R28 OUT[5].xyzw\n"
       ".output R32 OUT[6].xyzw\n"
       "S2 W0 DADD R8, -R0, |R2|\nS2 W1 DMUL R10, R0, R2\nS2 W2 DFMA R12, R0, R2, -R4\n"
       "S2 W3 DMNMX R14, R0, R2, PT\nS2 W4 DMNMX R16, R0, R2, !PT\nS2 W5 F2F.F64.F32 R18, R6\n"
       "S2 W0 B0x3f DSETP.LT.AND P0, P1, R0, R2, PT\nS2 W1 F2F.F32.F64 R22, R0\n"
       "S2 W2 F2I.S32.F64.TRUNC R23, R2\nS2 W3 F2F.F64.F64.FLOOR R24, R0\n"
       "S2 W4 F2F.F64.F64.ROUND R26, R2\nS2 W5 I2F.F64.S32 R28, R6\n"
       "S2 W0 B0x3f F2F.F64.F64.CEIL R30, R4\nS2 W1 F2I.U32.F64.TRUNC R32, R4\n"
       "S2 W2 F2F.F64.F64.TRUNC R34, R0\n"
       "S6 B0x7 SEL R20, RZ, 1, !P0\nS6 SEL R21, RZ, 1, !P1\nS15 EXIT\n";
   for (int nb = 0; nv && nb < 2; nb++) {
      struct emu_options o = {.no_batch = nb != 0};
      struct fix_run r;
      bool ok = fix_run_text(nv, prog, "wide", 5, 96, &o, &r);
      CHECKF(ok && r.st == EMU_OK && r.res.nevents == 0, "FP64 program runs clean: %s",
             diag_first_error(&r.d));
      unsigned bad = 0;
      for (uint32_t l = 0; ok && l < 96; l++)
         check(&r, l, &bad);
      CHECKF(bad == 0, "FP64 (%s): %u results differ", nb ? "wave by wave" : "batched", bad);
      fix_free(&r);
   }
   isa_close(nv);
   return test_done();
}
