/*
 * diffcomp dis MODEL FILE.bin | --hex WORD...: disassemble. Each line shows
 * the byte offset, the word in hex, the text, and "ILLEGAL: why" for
 * encodings the hardware would reject.
 */
#include "isa/isa.h"
#include "tools/tools.h"

#include <stdlib.h>
#include <string.h>

/* The narrowest and the widest instruction of the model, in bytes. */
static void
insn_sizes(const struct isa_model *m, size_t *lo, size_t *hi)
{
   *lo = 16, *hi = 1;
   for (unsigned op = 0; op < isa_op_count(m); op++) {
      struct isa_op_info oi;
      isa_op_info(m, op, &oi);
      *lo = MIN2(*lo, (size_t)MAX2(oi.size, 1u));
      *hi = MAX2(*hi, (size_t)oi.size);
   }
   *hi = MIN2(MAX2(*hi, (size_t)8), (size_t)16);
   *lo = MIN2(*lo, *hi);
}

/* A --hex word is one instruction word written as a number; its bytes go
 * to memory little-endian. On a model whose instructions all have one size
 * (a3xx, sm50: 8 bytes) every word has that size. On one whose sizes differ
 * (gfx9: 4 or 8, agx: 2 to 10) the word has as many bytes as its digits,
 * leading zeros included, fill (at least the narrowest instruction): the
 * words `as` prints. A number wider than the widest word is refused, not cut.
 * Returns the word's size in bytes, 0 if it is not a word. */
static size_t
hex_word(const char *s, size_t lo, size_t hi, uint8_t *b)
{
   if (!strncmp(s, "0x", 2) || !strncmp(s, "0X", 2))
      s += 2;
   size_t n = strlen(s);
   if (!n || strspn(s, "0123456789abcdefABCDEF") != n)
      return 0;
   size_t bytes = lo == hi ? hi : MIN2(MAX2((n + 1) / 2, lo), hi);
   while (n > 1 && *s == '0')
      s++, n--;
   if (n > 2 * bytes)
      return 0;
   memset(b, 0, bytes);
   for (size_t i = 0; i < n; i++) {
      char c = s[n - 1 - i];
      unsigned v = c <= '9' ? (unsigned)(c - '0') : (unsigned)((c | 0x20) - 'a' + 10);
      b[i / 2] |= (uint8_t)(v << ((i & 1) * 4));
   }
   return bytes;
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
             "Disassembles for MODEL. --hex takes instruction words as numbers (0x...)\n"
             "in program order, as diffcomp as prints them: on sm50 a control word,\n"
             "then three instructions. Where all instructions have one size (64 bits on\n"
             "a3xx and sm50) each word has it; where sizes differ (gfx9, agx) a word has\n"
             "as many bytes as its hex digits fill, leading zeros included. A number\n"
             "wider than the widest instruction is an error.\n"
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
      size_t lo, hi, size = 0;
      insn_sizes(m, &lo, &hi);
      uint8_t *code = xmalloc(hi * (size_t)argc);
      for (int i = 3; i < argc && rc == EXIT_OK; i++) {
         size_t w = hex_word(argv[i], lo, hi, code + size);
         if (!w)
            rc = usage_error("dis: '%s' is not a hex word of at most %zu bits", argv[i], hi * 8);
         size += w;
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
