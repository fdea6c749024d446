/*
 * The emulator's public entry points take a NULL diagnostic list (the
 * caller wants only the status): an assembly error, a program without a
 * model, undecodable bytes, an env without the program's outputs, and a
 * model that does not exist each give their status without crashing.
 */
#include "emu/emu.h"
#include "isa/isa.h"
#include "util/test.h"

#include <stdlib.h>
#include <string.h>

static void
test_asm_and_load(const struct isa_model *m)
{
   struct emu_asm as;
   CHECK(!emu_asm_parse(m, ".stage frag\nfrob r0.x\n", "bad.s", &as, NULL));
   CHECK(!emu_asm_parse(m, ".inptu r0.x IN[0].x\n", "bad.s", &as, NULL));

   struct emu_code *code = NULL;
   struct emu_program none = {0};
   CHECK_EQ_U(emu_load(&none, &code, NULL), EMU_ERR_DECODE);
   CHECK(!code);

   static const uint8_t junk[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
   struct emu_program p = {.model = m, .code = xmalloc(sizeof(junk)), .size = sizeof(junk)};
   memcpy(p.code, junk, sizeof(junk));
   CHECK(emu_load(&p, &code, NULL) != EMU_OK);
   emu_code_free(code);
   free(p.code);
}

/* A program binding OUT[0].x, run on an env without outputs. */
static void
test_run(const struct isa_model *m)
{
   struct emu_asm as;
   struct diag_list d = {0};
   bool ok = emu_asm_parse(m, ".output r0.x OUT[0].x\nend\n", "out.s", &as, &d);
   CHECKF(ok, "does not assemble: %s", diag_first_error(&d) ? diag_first_error(&d) : "?");
   diag_clear(&d);
   if (!ok)
      return;
   struct emu_code *code = NULL;
   CHECK_EQ_U(emu_load(&as.prog, &code, NULL), EMU_OK);
   struct env *e = env_new(TGSI_STAGE_FRAG, 4);
   struct emu_result r;
   if (code) {
      enum emu_status st = emu_run(code, e, NULL, &r, NULL);
      CHECK(st != EMU_OK);
      emu_result_free(&r);
      CHECK_EQ_U(emu_run(code, e, NULL, &r, &d), st);
      CHECK(d.nerrors == 1);
      emu_result_free(&r);
   }
   diag_clear(&d);
   env_free(e);
   emu_code_free(code);
   emu_asm_free(&as);
}

int
main(void)
{
   struct isa_model *m = NULL;
   CHECK(isa_open("no-such-model", &m, NULL) != ISA_ERR_OK && !m);
   struct diag_list d = {0};
   CHECK(isa_open("a3xx", &m, &d) == ISA_ERR_OK);
   diag_clear(&d);
   if (!m)
      return test_done();
   test_asm_and_load(m);
   test_run(m);
   isa_close(m);
   return test_done();
}
