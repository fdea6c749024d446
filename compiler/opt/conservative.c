/*
 * Conservative stages: the switch behind bisect's search of the mandatory
 * work (issue 16). Each mandatory stage of the backend has a variant that
 * is obviously correct and still gives a legal program, written next to
 * the stage's own code:
 *   jumps     every loop exit lowered, no native break;
 *   isel      no optional rewrite, no special form (funnel shifts), the
 *             rounding of every conversion written out;
 *   sched     the source order;
 *   live      the validator's own liveness (ir_validate_liveness), not
 *             ir_liveness, for every stage that asks;
 *   ra        a register per value while the file allows (else none
 *             freed inside a block), the validator's liveness, phi copies
 *             through fresh registers, runs at their alignment;
 *   legalize  every operand that is not a plain register copied into a
 *             fresh one where the op can read the copy, never a swap;
 *   hazard    a full wait: every sync flag and the longest delay (delay
 *             slots), every scoreboard and the longest stall (stall counts);
 *   emit      (jp) on every branch target, EXEC restored at every join (gfx9);
 *   half      (agx) a value not narrowed to a 16-bit half nor packed
 *             beside one: a full register with both halves free;
 *   wait      (agx) every wait right after its load or store, and a wait
 *             on every pending slot before each instruction.
 * opt_options.conservative picks the stages; cons_pick, when set, picks
 * the items inside them (an instruction, a block: the stage names them),
 * so that bisect can binary-search the one whose ordinary treatment is
 * wrong. A stage made conservative as a whole (no cons_pick) makes no
 * optional transformation either.
 *
 * Invariant: an item's name is stable between compiles that differ only
 * in the conservative choices of that stage, and the answer about an item
 * is given once and kept (the stages ask again while iterating).
 */
#include "compiler/ir/ir.h"

#include <stdio.h>
#include <stdlib.h>

#define NAME_(e, name) name,
const char *const opt_stage_names[OPT_STAGE_COUNT] = {OPT_STAGES(NAME_)};
#undef NAME_

int
opt_stage_find(const char *name)
{
   for (int s = 0; s < OPT_STAGE_COUNT; s++)
      if (!strcmp(opt_stage_names[s], name))
         return s;
   return -1;
}

bool
opt_stage_parse(const char *list, unsigned *mask, struct diag_list *d)
{
   *mask = 0;
   for (const char *p = list; *p;) {
      size_t n = strcspn(p, ",");
      int st = -1;
      for (int s = 0; s < OPT_STAGE_COUNT && st < 0; s++)
         if (strlen(opt_stage_names[s]) == n && !strncmp(opt_stage_names[s], p, n))
            st = s;
      if (n == 3 && !strncmp(p, "all", 3)) {
         *mask |= (1u << OPT_STAGE_COUNT) - 1;
      } else if (st < 0) {
         char all[160] = "";
         for (int s = 0; s < OPT_STAGE_COUNT; s++)
            snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s, ", opt_stage_names[s]);
         diag_add(d, DIAG_ERROR, "options", 0, 0, NULL, "unknown stage '%.*s' (stages: %sall)",
                  (int)n, p, all);
         return false;
      } else {
         *mask |= 1u << st;
      }
      p += n + (p[n] == ',');
   }
   return true;
}

bool
opt_stage_conservative(const struct opt_ctx *ctx, enum opt_stage st)
{
   return ctx && (ctx->opts.conservative >> st) & 1;
}

bool
opt_cons_refuses(const struct opt_ctx *ctx)
{
   if (!ctx->opts.conservative || ctx->opts.cons_pick || !ctx->pass)
      return false; /* item by item, only the items' own treatment changes */
   int st = opt_stage_find(ctx->pass);
   return st >= 0 && opt_stage_conservative(ctx, (enum opt_stage)st);
}

static bool
ask(struct opt_ctx *ctx, enum opt_stage st, unsigned line, const char *fmt, va_list ap)
{
   if (!opt_stage_conservative(ctx, st))
      return false;
   if (!ctx->opts.cons_pick && !ctx->opts.bisect)
      return true;
   char *item = xvasprintf(fmt, ap);
   bool fresh;
   bool *yes = opt_cons_seen(ctx, xasprintf("%s %s", opt_stage_names[st], item), &fresh);
   if (fresh) {
      *yes = !ctx->opts.cons_pick || ctx->opts.cons_pick(ctx->opts.cons_ctx, st, item);
      if (ctx->opts.bisect)
         opt_log(ctx, "CONSERVE: stage %s item %s line %u\n", opt_stage_names[st], item, line);
   }
   free(item);
   return *yes;
}

bool
opt_conservative(struct opt_ctx *ctx, enum opt_stage st, unsigned line, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   bool r = ask(ctx, st, line, fmt, ap);
   va_end(ap);
   return r;
}

bool
opt_conservative_sh(const struct ir_shader *sh, enum opt_stage st, unsigned line, const char *fmt,
                    ...)
{
   if (!sh->fault_ctx)
      return false;
   va_list ap;
   va_start(ap, fmt);
   bool r = ask(sh->fault_ctx, st, line, fmt, ap);
   va_end(ap);
   return r;
}

void
opt_cons_note(struct opt_ctx *ctx, enum opt_stage st, const char *fmt, ...)
{
   if (!ctx || !ctx->opts.bisect)
      return;
   va_list ap;
   va_start(ap, fmt);
   char *t = xvasprintf(fmt, ap);
   va_end(ap);
   opt_log(ctx, "CONSERVE-NOTE: stage %s item %s\n", opt_stage_names[st], t);
   free(t);
}
