/*
 * libFuzzer harness: the TGSI parser on arbitrary bytes, in the Mesa
 * dialect and in the legacy + virgl (hex-bits) dialect. Whatever parses
 * must print, parse back structurally equal and print identically; any
 * difference aborts (a crash for the fuzzer). Build with -DDIFFCOMP_FUZZ=ON
 * (tools/fuzz/run.sh).
 */
#include "compiler/tgsi/tgsi.h"

#include <stdlib.h>

static void
round_trip(const char *text, size_t len, const struct tgsi_parse_opts *opts)
{
   struct diag_list d = {0};
   struct tgsi_shader *s = tgsi_parse(text, len, "<fuzz>", opts, &d);
   diag_clear(&d);
   if (!s)
      return;
   char *p1 = tgsi_print(s);
   struct tgsi_shader *s2 = tgsi_parse(p1, strlen(p1), "<fuzz-print>", opts, &d);
   diag_clear(&d);
   if (!s2 || !tgsi_shader_equal(s, s2))
      abort();
   char *p2 = tgsi_print(s2);
   if (strcmp(p1, p2) != 0)
      abort();
   free(p1);
   free(p2);
   tgsi_shader_free(s);
   tgsi_shader_free(s2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   /* the parser wants a NUL after the text (embedded NULs are input) */
   char *text = xmalloc(size + 1);
   memcpy(text, data, size);
   text[size] = 0;
   static const struct tgsi_parse_opts mesa = {0}, old = {.hex_bits = true, .legacy = true};
   round_trip(text, size, &mesa);
   round_trip(text, size, &old);
   free(text);
   return 0;
}
