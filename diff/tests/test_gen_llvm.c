/*
 * The generator limited to the LLVM translator's ops (`diffcomp gen --ops
 * llvm`, tools/llvm_campaign.sh): every shader it makes uses only ops
 * llvm_tgsi_supports() takes, and most of them translate (the rest need a
 * use the translator refuses, e.g. an indirect resource), textures among
 * them.
 */
#include "compiler/llvm/llvm.h"
#include "diff/diff.h"
#include "util/test.h"

#include <stdlib.h>

int
main(void)
{
   struct diff_gen_opts o = {.stage = TGSI_STAGE_COUNT, .size = 40, .supports = llvm_tgsi_supports};
   unsigned translated = 0, textured = 0, n = 60;
   for (uint64_t seed = 1; seed <= n; seed++) {
      struct tgsi_shader *s = NULL;
      struct diag_list d = {0};
      char *text = diff_gen(seed, &o, &s, &d);
      CHECKF(text && s, "seed %llu: the generated text does not parse", (unsigned long long)seed);
      if (!s) {
         free(text);
         diag_clear(&d);
         continue;
      }
      for (unsigned i = 0; i < s->ninsns; i++)
         CHECKF(llvm_tgsi_supports(s->insns[i].op), "seed %llu: %s", (unsigned long long)seed,
                tgsi_op_info[s->insns[i].op].name);
      bool tex = false;
      for (unsigned i = 0; i < s->ninsns; i++)
         tex |= (tgsi_op_info[s->insns[i].op].flags & TGSI_OPF_TEX) != 0;
      char *ir = llvm_from_tgsi(s, &d);
      translated += ir != NULL;
      textured += ir && tex;
      free(ir);
      free(text);
      tgsi_shader_free(s);
      diag_clear(&d);
   }
   /* the default generator translates about 1 shader in 10 */
   CHECKF(translated * 10 >= n * 8, "%u of %u translate", translated, n);
   /* textures are one statement kind in twenty: most shaders of 40 have one */
   CHECKF(textured * 2 >= translated, "%u of %u translated shaders sample a texture", textured,
          translated);
   printf("%u of %u generated shaders translate, %u of them with textures\n", translated, n,
          textured);
   return test_done();
}
