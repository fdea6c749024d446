#include "compiler/ir/ir.h"
bool
opt_sched(struct ir_shader *sh, struct opt_ctx *ctx)
{
   (void)sh;
   (void)ctx;
   return false;
}
