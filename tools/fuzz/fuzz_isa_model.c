/*
 * libFuzzer harness: arbitrary bytes loaded as a YAML ISA model from memory
 * (isa_open_string). A model the loader and checker accept must also be
 * usable: every op's info and slots can be read, and a few bytes decode
 * and print without crashing. Seeds: the built-in models and the broken
 * model fixtures.
 */
#include "isa/isa.h"
#include "util/util.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   struct diag_list d = {0};
   struct isa_model *m = NULL;
   enum isa_err e = isa_open_string((const char *)data, size, "<fuzz>", &m, &d);
   diag_clear(&d);
   if (e != ISA_ERR_OK) {
      if (m)
         abort(); /* an error must not return a model */
      return 0;
   }
   for (unsigned op = 0; op < isa_op_count(m); op++) {
      struct isa_op_info info;
      struct isa_slot_info slot;
      isa_op_info(m, op, &info);
      for (unsigned s = 0; s < info.ndst; s++)
         isa_slot_info(m, op, true, s, &slot);
      for (unsigned s = 0; s < info.nsrc; s++)
         isa_slot_info(m, op, false, s, &slot);
   }
   static const uint8_t words[4][16] = {
       {0},
       {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xff},
       {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32,
        0x10},
       {0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00},
   };
   for (unsigned k = 0; k < 4; k++) {
      size_t pos = 0;
      struct isa_insn in;
      char txt[256];
      if (isa_decode(m, words[k], 16, &pos, &in) == ISA_ERR_OK)
         isa_print_insn(m, &in, txt, sizeof(txt));
   }
   isa_close(m);
   return 0;
}
