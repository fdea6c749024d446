/*
 * The public ISA library (include/diffcomp/isa.h) against the layer it
 * wraps: a program assembled through the API decodes, prints and
 * re-encodes to the bytes `diffcomp as` gives (sm50 with its control
 * words, a3xx); each failure returns its code and keeps a message with
 * its position; a handle whose open failed refuses every call.
 */
#include "include/diffcomp/isa.h"
#include "util/test.h"

#include <string.h>

static const char sm50_prog[] = "FADD R1, R0, R2\nFMUL R3, R1, R1\nFADD R4, R3, R0\n"
                                "FMUL R5, R4, R4\nEXIT\n";
static const char *const sm50_text[] = {
    "FADD R1, R0, R2", "FMUL R3, R1, R1", "FADD R4, R3, R0", "FMUL R5, R4, R4", "EXIT", "NOP"};

/* Decodes code, checks each instruction's text, re-encodes the records. */
static void
round_trip(const char *model, const char *prog, const char *const *want, size_t nwant)
{
   dc_isa *isa;
   dc_isa_err e = dc_isa_open(model, &isa);
   CHECKF(e == DC_ISA_ERR_OK, "%s: %s", model, dc_isa_error(isa));
   CHECK(!strcmp(dc_isa_name(isa), model));
   uint8_t *code = NULL, *again = NULL;
   size_t size = 0, size2 = 0, n = 0;
   e = dc_isa_assemble(isa, prog, &code, &size);
   CHECKF(e == DC_ISA_ERR_OK && !*dc_isa_error(isa), "assemble: %s", dc_isa_error(isa));
   dc_isa_insn *ins[16];
   for (size_t pos = 0; pos < size && n < 16; n++) {
      ins[n] = dc_isa_insn_new(isa);
      size_t at = pos;
      CHECK(dc_isa_decode(isa, code, size, &pos, ins[n]) == DC_ISA_ERR_OK);
      CHECK(pos > at);
      char text[128];
      size_t len = dc_isa_print(isa, ins[n], text, sizeof(text));
      CHECK(len == strlen(text));
      CHECKF(n < nwant && !strcmp(text, want[n]), "%s insn %zu: '%s'", model, n, text);
      CHECK(dc_isa_insn_illegal(isa, ins[n]) == NULL);
      CHECK(dc_isa_insn_size(ins[n]) > 0);
   }
   CHECK_EQ_U(n, nwant);
   CHECK(dc_isa_encode(isa, (const dc_isa_insn *const *)ins, n, &again, &size2) == DC_ISA_ERR_OK);
   CHECK(size2 == size && !memcmp(code, again, size));
   /* one instruction parsed alone prints back the same */
   dc_isa_insn *one = dc_isa_insn_new(isa);
   char text[128];
   CHECK(dc_isa_parse(isa, want[0], one) == DC_ISA_ERR_OK);
   dc_isa_print(isa, one, text, sizeof(text));
   CHECK(!strcmp(text, want[0]));
   for (size_t i = 0; i < n; i++)
      dc_isa_insn_free(ins[i]);
   dc_isa_insn_free(one);
   dc_isa_free(code);
   dc_isa_free(again);
   dc_isa_close(isa);
}

static void
errors(void)
{
   dc_isa *isa;
   CHECK(dc_isa_open("nosuch", &isa) == DC_ISA_ERR_NOTFOUND);
   CHECKF(strstr(dc_isa_error(isa), "nosuch") != NULL, "'%s'", dc_isa_error(isa));
   dc_isa_insn *in = dc_isa_insn_new(isa);
   size_t pos = 0;
   uint8_t word[8] = {0};
   CHECK(dc_isa_decode(isa, word, sizeof(word), &pos, in) == DC_ISA_ERR_ARG);
   CHECK(strstr(dc_isa_error(isa), "did not open") != NULL);
   dc_isa_close(isa);

   CHECK(dc_isa_open("a3xx", &isa) == DC_ISA_ERR_OK);
   uint8_t *code = NULL;
   size_t size = 0;
   CHECK(dc_isa_assemble(isa, "add.f r0.y, r0.x, (1.0)\nfrobnicate r0.x\n", &code, &size) ==
         DC_ISA_ERR_UNKNOWN_OP);
   CHECKF(!strncmp(dc_isa_error(isa), "<text>:2:1: ", 12), "'%s'", dc_isa_error(isa));
   CHECK(dc_isa_decode(isa, word, 3, &pos, in) == DC_ISA_ERR_TRUNCATED);
   CHECKF(strstr(dc_isa_error(isa), "at byte 0x0") != NULL, "'%s'", dc_isa_error(isa));
   CHECK(dc_isa_parse(isa, "add.f r0.y, r0.x, (1.0)", in) == DC_ISA_ERR_OK);
   CHECK(!*dc_isa_error(isa)); /* a success clears the last error */
   CHECK(!strcmp(dc_isa_strerror(DC_ISA_ERR_RANGE), "value does not fit its field"));
   dc_isa_insn_free(in);
   dc_isa_close(isa);
}

int
main(void)
{
   round_trip("sm50", sm50_prog, sm50_text, 6); /* padded to two bundles */
   static const char *const a3xx_text[] = {"mov.f32f32 r0.x, c0.x", "(rpt2)nop",
                                           "add.f r0.y, r0.x, (1.0)", "(ss)rcp r1.x, r0.y", "end"};
   round_trip("a3xx",
              "mov.f32f32 r0.x, c0.x\n(rpt2)nop\nadd.f r0.y, r0.x, (1.0)\n"
              "(ss)rcp r1.x, r0.y\nend\n",
              a3xx_text, 5);
   errors();
   return test_done();
}
