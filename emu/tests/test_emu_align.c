/*
 * Register alignment is part of the model (sm50 `align: 2` on 64-bit
 * register pairs): a DADD writing the odd pair R7:R8 decodes as illegal
 * and the emulator reports an illegal-encoding event instead of running
 * it; the same instruction on R6:R7 runs.
 */
#include "emu_test_util.h"

static unsigned
run_bundle(const struct isa_model *m, uint64_t dadd, struct emu_result *r, enum emu_status *st)
{
   /* control word, DADD, EXIT, NOP */
   const uint64_t words[] = {0x001f8000fc0007e0ull, dadd, 0xe30000000007000full,
                             0x50b0000000070f00ull};
   struct emu_program p = {.model = m, .stage = TGSI_STAGE_FRAG};
   p.size = sizeof(words);
   p.code = xmalloc(p.size);
   for (unsigned i = 0; i < ARRAY_SIZE(words); i++)
      for (unsigned b = 0; b < 8; b++)
         p.code[i * 8 + b] = (uint8_t)(words[i] >> (8 * b));
   struct diag_list d = {0};
   struct emu_code *c = NULL;
   unsigned ok = emu_load(&p, &c, &d) == EMU_OK;
   CHECKF(ok, "%s", diag_first_error(&d));
   if (ok) {
      struct env *e = env_new(TGSI_STAGE_FRAG, 32);
      *st = emu_run(c, e, NULL, r, &d);
      env_free(e);
   }
   emu_code_free(c);
   emu_program_free(&p);
   diag_clear(&d);
   return ok;
}

int
main(void)
{
   struct isa_model *m = fix_open_model("sm50");
   if (!m)
      return test_done();
   struct emu_result r;
   enum emu_status st;
   if (run_bundle(m, 0x5c70000000470207ull, &r, &st)) { /* DADD R7, R2, R4 */
      CHECK(st == EMU_FAULT);
      CHECK(r.counts[EMU_EV_ILLEGAL] >= 1);
      CHECK(r.nevents >= 1 && r.events[0].kind == EMU_EV_ILLEGAL);
      emu_result_free(&r);
   }
   if (run_bundle(m, 0x5c70000000470206ull, &r, &st)) { /* DADD R6, R2, R4 */
      CHECK(st == EMU_OK);
      CHECK_EQ_U(r.counts[EMU_EV_ILLEGAL], 0);
      emu_result_free(&r);
   }
   isa_close(m);
   return test_done();
}
