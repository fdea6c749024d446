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

/* Coverage points that no input can make this compiler exercise: a
 * transformation kind (m NULL) or a hazard rule model m declares, which
 * isa_delay can answer but no pass of this compiler ever asks. Each with
 * why; the README's coverage section keeps the longer argument. */
static const char *
unasked_rule(const struct isa_model *m, const char *rule)
{
   enum isa_hazard_kind h = isa_hazard_kind(m);
   if (!strcmp(rule, "war, no sync"))
      return "the hazard passes keep pending only reads of a class with a WAR sync";
   if (!strcmp(rule, "waw, no sync") && h != ISA_HAZARD_STALL_COUNTS)
      return "the hazard passes keep pending only results of a class with a sync; "
             "only a stall-count model asks every WAW, for its latency";
   if (!strcmp(rule, "raw, a repeated instruction"))
      return "the hazard pass asks before any (rptN), which it puts on its own nops only";
   if (!strcmp(rule, "raw, no wait") && h == ISA_HAZARD_INTERLOCKED)
      return "the wait pass asks only about pending results of a class with a sync";
   if (!strcmp(rule, "raw, no wait") && !isa_raw_no_wait_possible(m, false))
      return "only a repeated instruction gives a result in time, and none is asked";
   if (!strcmp(rule, "waw, wait_slot") && opt_agx_model(m))
      return "a load's, sample's or atomic's result keeps its scratch registers to the item "
             "that reads it, where the wait goes: nothing writes over it while pending";
   return NULL;
}

const char *
opt_cover_unreachable(const struct isa_model *m, const char *kind, const char *point)
{
   if (!m && !strcmp(kind, "transform") && !strcmp(point, "algebraic: x - x -> 0"))
      return "no ISUB of one value twice reaches algebraic: no TGSI op becomes ISUB, "
             "lower_int64's take two values, expand's and atomics' come after it";
   if (!m || strcmp(kind, "hazard-rule"))
      return NULL;
   size_t n = strlen(isa_model_name(m));
   if (strncmp(point, isa_model_name(m), n) || strncmp(point + n, ": ", 2))
      return NULL;
   return unasked_rule(m, point + n + 2);
}
