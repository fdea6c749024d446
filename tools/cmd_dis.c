/*
 * diffcomp dis MODEL FILE.bin | --hex WORD...: disassemble. Each line shows
 * the byte offset, the word in hex, the text, and "ILLEGAL: why" for
 * encodings the hardware would reject.
 */
#include "isa/isa.h"
#include "tools/tools.h"

#include <stdlib.h>
#include <string.h>

/* A --hex word is a 64- or 128-bit instruction word written as a number;
 * its bytes go to memory little-endian. */
static bool
hex_word(const char *s, uint8_t *b, size_t *len)
{
   if (!strncmp(s, "0x", 2) || !strncmp(s, "0X", 2))
      s += 2;
   size_t n = strlen(s);
   if (!n || n > 32 || strspn(s, "0123456789abcdefABCDEF") != n)
      return false;
   size_t bytes = n <= 16 ? 8 : 16;
   memset(b, 0, 16);
   for (size_t i = 0; i < n; i++) {
      char c = s[n - 1 - i];
      unsigned v = c <= '9' ? (unsigned)(c - '0') : (unsigned)((c | 0x20) - 'a' + 10);
      b[i / 2] |= (uint8_t)(v << ((i & 1) * 4));
   }
   *len = bytes;
   return true;
}

static int
dis_bytes(const struct isa_model *m, const uint8_t *code, size_t size)
{
   size_t pos = 0;
   int rc = EXIT_OK;
   while (pos < size) {
      struct isa_insn in;
      size_t at = pos;
      enum isa_err e = isa_decode(m, code, size, &pos, &in);
      if (e != ISA_ERR_OK) {
         printf("%04zx: ?? (%s)\n", at, isa_strerror(e));
         return EXIT_FAIL;
      }
      char text[256];
      isa_print_insn(m, &in, text, sizeof(text));
      printf("%04x: ", in.addr);
      for (size_t k = in.size; k-- > 0;)
         printf("%02x", code[in.addr + k]);
      printf("  %s", text);
      if (in.illegal) {
         printf("    ; ILLEGAL: %s", isa_illegal_reason(m, &in));
         rc = EXIT_FAIL;
      }
      putchar('\n');
   }
   return rc;
}

int
cmd_dis(int argc, char **argv)
{
   if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
      printf("usage: diffcomp dis MODEL FILE.bin\n"
             "       diffcomp dis MODEL --hex WORD...\n\n"
             "Disassembles for MODEL. --hex takes 64-bit (or 128-bit) instruction words\n"
             "as numbers (0x...), in program order: on sm50 a control word, then three\n"
             "instructions.\n"
             "Exit status 1 if a word does not decode or decodes as illegal.\n");
      return EXIT_OK;
   }
   if (argc < 3)
      return usage_error("dis: usage: diffcomp dis MODEL FILE.bin | --hex WORD...");
   struct diag_list d = {0};
   struct isa_model *m = NULL;
   if (isa_open(argv[1], &m, &d) != ISA_ERR_OK) {
      print_diags(&d, stderr);
      diag_clear(&d);
      return EXIT_USAGE;
   }
   int rc = EXIT_OK;
   if (!strcmp(argv[2], "--hex")) {
      uint8_t *code = xmalloc(16 * (size_t)argc);
      size_t size = 0;
      for (int i = 3; i < argc && rc == EXIT_OK; i++) {
         size_t len = 0;
         if (!hex_word(argv[i], code + size, &len))
            rc = usage_error("dis: '%s' is not a hex word", argv[i]);
         size += len;
      }
      if (rc == EXIT_OK)
         rc = dis_bytes(m, code, size);
      free(code);
   } else {
      char *text = NULL, *err = NULL;
      size_t len = 0;
      if (!read_file(argv[2], &text, &len, &err)) {
         fprintf(stderr, "%s: %s\n", prog_name, err);
         free(err);
         rc = EXIT_USAGE;
      } else {
         rc = dis_bytes(m, (const uint8_t *)text, len);
      }
      free(text);
   }
   isa_close(m);
   diag_clear(&d);
   return rc;
}
