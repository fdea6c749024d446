/*
 * The body of the fuzz_isa_decode_<model> harnesses: arbitrary bytes
 * decoded with the built-in model FUZZ_MODEL, one instruction at a time
 * and as a program. Every decoded record must print; a legal one must
 * encode and decode back to the same record, and its text must assemble
 * back to it (the round trips test_codec.c checks on random words); a
 * whole program must encode and decode back. A failed round trip prints
 * what failed and aborts, which the fuzzer reports as a crash.
 */
#include "isa/isa.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* gfx9: a 32-bit literal that holds an inline constant's value (0xffffffff,
 * -1) is a longer encoding of the same instruction; the assembler picks the
 * inline form, which prints the value its own way. Accepted when the
 * mnemonic is the same and the shorter form's text assembles to itself. */
static bool
same_short(const struct isa_model *m, const char *txt, const char *txt2)
{
   size_t w = strcspn(txt, " ");
   if (w != strcspn(txt2, " ") || strncmp(txt, txt2, w))
      return false;
   struct isa_insn back;
   struct diag_list d = {0};
   enum isa_err err = isa_parse_insn(m, txt2, &back, &d);
   diag_clear(&d);
   char txt3[256];
   return err == ISA_ERR_OK && (isa_print_insn(m, &back, txt3, sizeof(txt3)), !strcmp(txt2, txt3));
}

static struct isa_model *
fuzz_model(void)
{
   static struct isa_model *m;
   if (!m) {
      struct diag_list d = {0};
      if (isa_open(FUZZ_MODEL, &m, &d) != ISA_ERR_OK) {
         fprintf(stderr, "cannot open model %s: %s\n", FUZZ_MODEL, diag_first_error(&d));
         abort();
      }
      diag_clear(&d);
   }
   return m;
}

static void
fuzz_fail(const struct isa_model *m, const struct isa_insn *in, const char *what)
{
   char txt[256];
   isa_print_insn(m, in, txt, sizeof(txt));
   fprintf(stderr, "%s: '%s' %s\n", FUZZ_MODEL, txt, what);
   abort();
}

/* One legal instruction: encode -> decode and print (txt) -> assemble. */
static void
fuzz_round_trip(const struct isa_model *m, const struct isa_insn *in, const char *txt)
{
   uint8_t e[32];
   size_t len = 0, p2 = 0;
   struct isa_insn again, as;
   if (!isa_model_is_bundled(m)) {
      if (isa_encode(m, in, e, &len, NULL) != ISA_ERR_OK)
         fuzz_fail(m, in, "decodes as legal but does not encode");
      if (isa_decode(m, e, len, &p2, &again) != ISA_ERR_OK)
         fuzz_fail(m, in, "encodes to bytes that do not decode");
      again.addr = in->addr;
      if (memcmp(&again, in, sizeof(again)))
         fuzz_fail(m, in, "decodes differently after encoding");
   }
   struct diag_list d = {0};
   enum isa_err err = isa_parse_insn(m, txt, &as, &d);
   diag_clear(&d);
   if (err != ISA_ERR_OK)
      fuzz_fail(m, in, "prints as text that does not assemble");
   as.addr = in->addr;
   /* A variable-length model assembles the shortest form holding the
    * operands (agx short/long forms): another op, the same text. */
   char txt2[256];
   if (memcmp(&as, in, sizeof(as)) &&
       !(as.op != in->op && as.size < in->size &&
         (isa_print_insn(m, &as, txt2, sizeof(txt2)), !strcmp(txt, txt2) || same_short(m, txt, txt2))))
      fuzz_fail(m, in, "prints as text that assembles to another record");
}

static void
fuzz_program(const struct isa_model *m, const uint8_t *data, size_t size)
{
   struct diag_list d = {0};
   struct isa_insn *p = NULL, *q = NULL;
   size_t n = 0, nq = 0, len = 0;
   uint8_t *bytes = NULL;
   if (isa_decode_program(m, data, size, &p, &n, &d) == ISA_ERR_OK) {
      bool legal = true;
      for (size_t i = 0; i < n; i++)
         legal &= p[i].illegal == 0;
      if (legal && n) {
         if (isa_encode_program(m, p, n, &bytes, &len, &d) != ISA_ERR_OK)
            fuzz_fail(m, &p[0], "is in a legal program that does not encode");
         /* a bundled model pads a partial bundle with NOPs: compare the
          * first n records */
         if (isa_decode_program(m, bytes, len, &q, &nq, &d) != ISA_ERR_OK || nq < n ||
             memcmp(p, q, n * sizeof(*p)))
            fuzz_fail(m, &p[0], "is in a program that decodes differently after encoding");
      }
   }
   free(p);
   free(q);
   free(bytes);
   diag_clear(&d);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   const struct isa_model *m = fuzz_model();
   size_t pos = 0;
   while (pos < size) {
      struct isa_insn in;
      size_t at = pos;
      if (isa_decode(m, data, size, &pos, &in) != ISA_ERR_OK)
         break;
      if (pos <= at)
         abort(); /* no progress: a decoder bug */
      char txt[256];
      isa_print_insn(m, &in, txt, sizeof(txt));
      if (!in.illegal)
         fuzz_round_trip(m, &in, txt);
   }
   fuzz_program(m, data, size);
   return 0;
}
