/*
 * libFuzzer harness: a shader generated from the fuzzer's bytes
 * (diff_gen_bytes; the first two bytes pick the stage and the size) run on
 * the golden interpreter over 8 invocations with inputs from a seed taken
 * from the bytes. Generated shaders terminate for any inputs and use only
 * opcodes the interpreter supports, so anything but TGSI_INTERP_OK -- a
 * refusal, an error or an exhausted step budget -- aborts.
 */
#include "compiler/tgsi/tgsi.h"
#include "diff/diff.h"
#include "emu/emu.h"
#include "tools/fuzz/gen_opts.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   struct diff_gen_opts o = fuzz_gen_opts(&data, &size, 120, 40);
   struct diag_list d = {0};
   struct tgsi_shader *s = NULL;
   char *text = diff_gen_bytes(data, size, &o, &s, &d);
   if (!text)
      abort();
   struct env *e = diff_gen_inputs(s, hash64(data, size, 7), 8, &d);
   if (!e)
      abort();
   /* the largest generated shader runs about 2^17 lane-instructions on 8 lanes */
   struct tgsi_interp_opts io = {.max_steps = 1u << 22, .batch = 32};
   enum tgsi_interp_status st = tgsi_interp_run(s, e, &io, &d);
   if (st != TGSI_INTERP_OK) {
      fprintf(stderr, "interpreter: %s: %s\n%s", tgsi_interp_status_names[st], diag_first_error(&d),
              text);
      abort();
   }
   env_free(e);
   tgsi_shader_free(s);
   diag_clear(&d);
   free(text);
   return 0;
}
