/*
 * libFuzzer harness: arbitrary TGSI text; whatever parses and passes the
 * interpreter's check runs on 4 invocations (compute: one workgroup) with
 * seeded inputs and a small step budget. Any status is fine -- infinite
 * loops end with TGSI_INTERP_BUDGET -- but nothing may crash, leak or hang.
 * Seeds: the captures and the TGSI fixtures.
 */
#include "compiler/tgsi/tgsi.h"
#include "diff/diff.h"
#include "emu/emu.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   char *text = xmalloc(size + 1);
   memcpy(text, data, size);
   text[size] = 0;
   struct diag_list d = {0};
   struct tgsi_shader *s = tgsi_parse(text, size, "<fuzz>", NULL, &d);
   if (s && tgsi_interp_check(s, &d) == TGSI_INTERP_OK) {
      struct env *e = diff_gen_inputs(s, hash64(data, size, 0), 4, &d);
      if (e) {
         struct tgsi_interp_opts io = {.max_steps = 1u << 16, .batch = 32};
         tgsi_interp_run(s, e, &io, &d);
         env_free(e);
      }
   }
   tgsi_shader_free(s);
   diag_clear(&d);
   free(text);
   return 0;
}
