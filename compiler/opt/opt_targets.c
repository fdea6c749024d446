/*
 * Which models the optimizing compiler targets: a per-target capability
 * the check asks (opt_target_lacks) before compiling. A model listed here
 * has a reference path and an emulator but no optimizing path yet; its
 * cases compare the reference against the interpreter and report the opt
 * side as not applicable, naming why. Remove a model's row when its
 * optimizing path is ready.
 */
#include "compiler/compiler.h"
#include "isa/isa.h"

#include <string.h>

static const struct {
   const char *model, *why;
} not_yet[] = {
    {"gfx9", "the optimizing compiler has no gfx9 path yet (uniformity, SDWA, model-driven "
             "s_nop/s_waitcnt: issue 17 items 5-6)"},
};

const char *
opt_target_lacks(const struct isa_model *m)
{
   const char *name = isa_model_name(m);
   for (size_t i = 0; i < sizeof(not_yet) / sizeof(not_yet[0]); i++)
      if (!strcmp(name, not_yet[i].model))
         return not_yet[i].why;
   return NULL;
}
