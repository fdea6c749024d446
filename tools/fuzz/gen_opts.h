/*
 * The prologue shared by the harnesses that fuzz through the shader
 * generator (fuzz_gen, fuzz_interp, fuzz_compile): byte 0 picks the stage
 * (fragment, vertex, compute, or the generator's choice), byte 1 the size,
 * 1..max_size instructions, so that short inputs explore every stage and
 * size; the rest drives diff_gen_bytes. An input under two bytes keeps the
 * given default size and lets the generator choose the stage.
 */
#include "compiler/tgsi/tgsi.h"
#include "diff/diff.h"

static struct diff_gen_opts
fuzz_gen_opts(const uint8_t **data, size_t *size, unsigned max_size, unsigned default_size)
{
   static const enum tgsi_stage stages[] = {TGSI_STAGE_FRAG, TGSI_STAGE_VERT, TGSI_STAGE_COMP,
                                            TGSI_STAGE_COUNT};
   struct diff_gen_opts o = {.stage = TGSI_STAGE_COUNT, .size = default_size};
   if (*size >= 2) {
      o.stage = stages[(*data)[0] % 4];
      o.size = 1 + (*data)[1] % max_size;
      *data += 2;
      *size -= 2;
   }
   return o;
}
