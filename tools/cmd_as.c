/*
 * diffcomp as MODEL FILE.s [-o FILE.bin]: assemble. Without -o, prints
 * one instruction word per line in hex (the word as a number, as many
 * digits as it has bytes), control words of bundle models included, as
 * dis --hex reads them. FILE.s may be an emulator assembly program (what
 * compile -o writes): its directives and labels are read as emu does.
 */
#include "emu/emu.h"
#include "isa/isa.h"
#include "tools/tools.h"

#include <stdlib.h>
#include <string.h>

/* sz bytes at `at` as one little-endian number in hex. */
static void
print_word(const uint8_t *bytes, size_t len, size_t at, size_t sz)
{
   for (size_t k = sz; k-- > 0;)
      printf("%02x", at + k < len ? bytes[at + k] : 0);
   putchar('\n');
}

int
cmd_as(int argc, char **argv)
{
   const char *model = NULL, *in = NULL, *out = NULL;
   for (int i = 1; i < argc; i++) {
      const char *v;
      if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
         printf("usage: diffcomp as MODEL FILE.s [-o FILE.bin]\n\n"
                "Assembles FILE.s for MODEL (a name such as a3xx, or a .yaml path). Without\n"
                "-o, prints each instruction word in hex, one per line, with the control\n"
                "words of bundle models (sm50) in place: the output is what dis --hex reads.\n"
                "FILE.s may be an emulator assembly program (compile -o writes one): its\n"
                "binding directives are left out and its labels resolved.\n\n"
                "Exit status: 0 assembled, 2 bad usage or a line that does not assemble.\n");
         return EXIT_OK;
      } else if (opt_value(argc, argv, &i, "-o", &v)) {
         if (!v)
            return usage_error("as: -o needs a file name");
         out = v;
      } else if (!model) {
         model = argv[i];
      } else if (!in) {
         in = argv[i];
      } else {
         return usage_error("as: unexpected argument '%s'", argv[i]);
      }
   }
   if (!model || !in)
      return usage_error("as: usage: diffcomp as MODEL FILE.s [-o FILE.bin]");
   struct diag_list d = {0};
   struct isa_model *m = NULL;
   char *text = NULL, *err = NULL;
   int rc = EXIT_OK;
   if (isa_open(model, &m, &d) != ISA_ERR_OK) {
      print_diags(&d, stderr);
      diag_clear(&d);
      return EXIT_USAGE;
   }
   if (!read_file(in, &text, NULL, &err)) {
      fprintf(stderr, "%s: %s\n", prog_name, err);
      free(err);
      isa_close(m);
      return EXIT_USAGE;
   }
   struct emu_asm a = {0};
   struct isa_insn *insns = NULL;
   size_t n = 0;
   if (!emu_asm_parse(m, text, in, &a, &d)) {
      print_diags(&d, stderr);
      rc = EXIT_USAGE;
   } else if (out) {
      FILE *f = fopen(out, "wb");
      if (!f || fwrite(a.prog.code, 1, a.prog.size, f) != a.prog.size) {
         fprintf(stderr, "%s: cannot write %s\n", prog_name, out);
         rc = EXIT_USAGE;
      }
      if (f && fclose(f))
         rc = EXIT_USAGE;
   } else if (isa_decode_program(m, a.prog.code, a.prog.size, &insns, &n, &d) != ISA_ERR_OK) {
      print_diags(&d, stderr); /* the assembler wrote what it cannot read: a model bug */
      rc = EXIT_FAIL;
   } else {
      /* Bundle models: the control words are in bytes, between groups
       * (and padding after the last one); they are printed as 64-bit words
       * in place, so that dis --hex reads the program back. */
      const uint8_t *bytes = a.prog.code;
      size_t len = a.prog.size, next = 0;
      for (size_t i = 0; i <= n; i++) {
         size_t at = i < n ? insns[i].addr : len, sz = i < n ? insns[i].size : 0;
         for (; next < at && next < len; next += 8)
            print_word(bytes, len, next, MIN2((size_t)8, at - next));
         if (i < n)
            print_word(bytes, len, at, sz);
         next = MAX2(next, at + sz);
      }
   }
   emu_asm_free(&a);
   free(insns);
   free(text);
   isa_close(m);
   diag_clear(&d);
   return rc;
}
