/*
 * libFuzzer harness: the shader generator driven by the fuzzer's bytes
 * (diff_gen_bytes). Every generated shader must parse (the generator
 * returns NULL otherwise) and survive print -> parse -> equal; the first
 * two bytes pick the stage and the size so short inputs explore both.
 */
#include "compiler/tgsi/tgsi.h"
#include "diff/diff.h"
#include "tools/fuzz/gen_opts.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   struct diff_gen_opts o = fuzz_gen_opts(&data, &size, 200, 40);
   struct tgsi_shader *s = NULL;
   char *text = diff_gen_bytes(data, size, &o, &s, NULL);
   if (!text)
      abort();
   char *p = tgsi_print(s);
   struct tgsi_shader *s2 = tgsi_parse(p, strlen(p), "<fuzz-print>", NULL, NULL);
   if (!s2 || !tgsi_shader_equal(s, s2))
      abort();
   tgsi_shader_free(s);
   tgsi_shader_free(s2);
   free(p);
   free(text);
   return 0;
}
