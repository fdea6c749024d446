/*
 * The IR validator computes liveness itself (ir_validate_liveness), not
 * through the allocator's ir_liveness (compiler/opt/opt_live.c). A planted
 * liveness bug -- live-out sets that forget the successors' live-in, as a
 * fixed point that drops the union would (the ra-livein-ignored class) --
 * lets an allocation that overwrites a live value pass a register check
 * built on it; the validator's own liveness rejects the same allocation.
 */
#include "compiler/ir/ir.h"
#include "util/test.h"

#include <stdlib.h>

/* %2 lives across the if; %4 inside it takes %2's register (r0.z) when
 * BAD, a free one (r0.w) otherwise. */
static const char *const text_fmt = "shader FRAG\n"
                                    "model a3xx\n"
                                    "@0:\n"
                                    "  %%0 = load_input slot=0 comp=x @r0.x\n"
                                    "  %%1 = load_input slot=0 comp=y @r0.y\n"
                                    "  %%2 = mach add.f %%0, %%1 @r0.z\n"
                                    "  %%3 = mach cmps.f %%0, %%1 cond=lt @p0:*\n"
                                    "  if %%3 {\n"
                                    "@1:\n"
                                    "    %%4 = mach mul.f %%0, %%0 @r0.%c\n"
                                    "    kill_if %%4\n"
                                    "  }\n"
                                    "@2:\n"
                                    "  %%5 = mach add.f %%2, %%1 @r0.x\n"
                                    "  store_output slot=0 comp=x %%5\n"
                                    "  mach end\n";

static struct ir_shader *
parse(char reg)
{
   char *text = xasprintf(text_fmt, reg);
   struct diag_list d = {0};
   struct ir_shader *sh = ir_parse(text, strlen(text), "test", 1, &d);
   CHECKF(sh != NULL, "%s", diag_first_error(&d));
   diag_clear(&d);
   free(text);
   return sh;
}

/* The planted bug: out(b) keeps only the phi sources and the if
 * condition, forgetting what the successors need. */
static void
planted_liveness(struct ir_shader *sh, struct ir_liveness *lv)
{
   ir_liveness(sh, lv);
   for (unsigned b = 0; b < sh->nblocks; b++) {
      uint64_t *out = ir_live_out_set(lv, b);
      memset(out, 0, lv->nwords * sizeof(uint64_t));
      const struct ir_instr *c = ir_block_if_cond(sh->blocks[b]);
      if (c)
         CHECK(ir_live_mark(lv, out, c->id, true));
   }
}

int
main(void)
{
   struct ir_shader *good = parse('w'), *bad = parse('z');
   if (!good || !bad)
      return test_done();
   struct diag_list d = {0};
   CHECKF(ir_validate(good, NULL, &d), "%s", diag_first_error(&d));
   diag_clear(&d);

   /* the allocator's liveness with the bug: the overwrite passes */
   struct ir_liveness lv;
   const struct ir_instr *where = NULL;
   planted_liveness(bad, &lv);
   CHECK(ir_regs_check(bad, &lv, &where) == NULL);
   ir_liveness_free(&lv);
   /* the correct allocator liveness and the validator's own: caught */
   ir_liveness(bad, &lv);
   CHECK(ir_regs_check(bad, &lv, &where) != NULL);
   ir_liveness_free(&lv);
   CHECK(!ir_validate(bad, NULL, &d));
   const char *msg = diag_first_error(&d);
   CHECKF(msg && strstr(msg, "distinct registers"), "%s", msg ? msg : "(none)");
   diag_clear(&d);

   /* both liveness computations agree on the good shader */
   struct ir_liveness a, b;
   ir_liveness(good, &a);
   ir_validate_liveness(good, &b);
   for (unsigned bl = 0; bl < good->nblocks; bl++)
      for (unsigned id = 0; id < good->nvalues; id++) {
         CHECK(ir_live_test(&a, ir_live_in_set(&a, bl), id) ==
               ir_live_test(&b, ir_live_in_set(&b, bl), id));
         CHECK(ir_live_test(&a, ir_live_out_set(&a, bl), id) ==
               ir_live_test(&b, ir_live_out_set(&b, bl), id));
      }
   ir_liveness_free(&a);
   ir_liveness_free(&b);
   ir_shader_free(good);
   ir_shader_free(bad);
   return test_done();
}
