/*
 * How far the optimizing compiler covers each model: a per-target
 * capability the check asks (opt_target_partial). A model listed here has
 * an optimizing path for part of TGSI only; where it refuses a shader that
 * the reference compiles, the check reports the opt side as not applicable,
 * naming why, instead of counting the refusal as opt's failure. What it
 * does compile is compared in full. Remove a model's row when its
 * optimizing path covers what the reference does.
 */
#include "compiler/compiler.h"
#include "compiler/ir/ir.h"
#include "compiler/opt/opt_agx.h"
#include "isa/isa.h"

#include <string.h>

static const struct {
   const char *model, *why;
} partial[] = {
    {"gfx9", "the optimizing compiler's gfx9 path covers ALU code with EXEC-mask control "
             "flow, doubles (VGPR pairs), textures (MIMG), buffer and shared memory and atomics "
             "(GLOBAL, DS), geometry and tessellation stages (stage windows, s_sendmsg) and "
             "indirect constants (selects), constants by SMEM; no SALU selection of uniform "
             "arithmetic yet"},
};

const char *
opt_target_partial(const struct isa_model *m)
{
   const char *name = isa_model_name(m);
   for (size_t i = 0; i < sizeof(partial) / sizeof(partial[0]); i++)
      if (!strcmp(name, partial[i].model))
         return partial[i].why;
   return NULL;
}

bool
opt_target_shares_ir(const struct isa_model *m)
{
   return !opt_agx_model(m);
}

unsigned
opt_target_stages(const struct isa_model *m)
{
   unsigned agx = 1u << OPT_STAGE_HALF | 1u << OPT_STAGE_WAIT;
   return opt_agx_model(m) ? agx : ((1u << OPT_STAGE_COUNT) - 1) & ~agx;
}
