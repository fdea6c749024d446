/* The validator accepts good IR and catches each kind of broken IR with a
 * message naming the condition, the check's file:line, the instruction, the
 * whole shader and the pass. */
#include "compiler/ir/ir.h"
#include "util/test.h"

#include <stdlib.h>

static struct ir_shader *
parse(const char *text)
{
   struct diag_list d = {0};
   struct ir_shader *sh = ir_parse(text, strlen(text), "v.ir", 1, &d);
   CHECKF(sh, "%s", diag_first_error(&d));
   diag_clear(&d);
   return sh;
}

/* Validates sh (consumed) and checks the failure mentions each of the
 * NULL-terminated strings. */
static void
expect_fail(struct ir_shader *sh, const char *what, const char *instr)
{
   struct diag_list d = {0};
   if (!sh)
      return;
   bool ok = ir_validate(sh, "testpass", &d);
   CHECKF(!ok, "expected failure '%s'", what);
   if (!ok) {
      const struct diag *g = &d.v[0];
      CHECKF(strstr(g->msg, what), "message lacks '%s':\n%s", what, g->msg);
      CHECKF(!instr || strstr(g->msg, instr), "message lacks instruction '%s':\n%s", instr, g->msg);
      CHECK(strstr(g->msg, "after pass 'testpass'"));
      CHECK(strstr(g->msg, "shader FRAG") || strstr(g->msg, "shader VERT"));
      CHECK(strstr(g->file, "ir_validate.c") && g->line > 0);
   }
   ir_shader_free(sh);
   diag_clear(&d);
}

static void
test_good(void)
{
   struct ir_shader *sh = parse("shader FRAG\n"
                                "  %0 = load_input slot=0 comp=x\n"
                                "  %1 = fmul %0, %0\n"
                                "  store_output slot=0 comp=x %1\n");
   struct diag_list d = {0};
   CHECK(ir_validate(sh, NULL, &d) && d.n == 0);
   ir_shader_free(sh);
}

static void
test_broken(void)
{
   expect_fail(parse("shader FRAG\n"
                     "  %0 = fmul %1, %1\n"
                     "  %1 = load_input slot=0 comp=x\n"),
               "the definition dominates the use (dominates_use(", "%0 = fmul %1, %1");
   expect_fail(parse("shader FRAG\n"
                     "  %1 = load_input slot=0 comp=x\n"
                     "  %0 = fadd %1\n"),
               "source count matches the op table (in->nsrc == info->nsrc)", "%0 = fadd %1");
   expect_fail(parse("shader FRAG\n"
                     "  %0 = load_input slot=0 comp=x\n"
                     "  if %0 {\n"
                     "    %1 = fneg %0\n"
                     "  }\n"
                     "  store_output slot=0 comp=x %1\n"),
               "the definition dominates the use", "store_output slot=0 comp=x %1");
   expect_fail(parse("shader FRAG\n"
                     "  %0 = load_input slot=0 comp=x\n"
                     "  if %0 {\n"
                     "@1:\n"
                     "    %1 = fneg %0\n"
                     "  }\n"
                     "  %2 = phi @1 %1\n"),
               "phi has one source per predecessor", "%2 = phi @1 %1");
   expect_fail(parse("shader FRAG\n"
                     "  %0 = load_input slot=0 comp=x\n"
                     "  if %0 {\n"
                     "@1:\n"
                     "    %1 = fneg %0\n"
                     "  } else {\n"
                     "@2:\n"
                     "  }\n"
                     "  %2 = phi @2 %0, @1 %1\n"),
               "phi names the block's predecessors in program order", NULL);
   expect_fail(parse("shader FRAG\n"
                     "  %0 = load_input slot=0 comp=x\n"
                     "  %1 = imm.64 5\n"
                     "  %2 = fadd %0, %1\n"),
               "source is 32-bit", "%2 = fadd %0, %1");
   expect_fail(parse("shader FRAG\n"
                     "  loop {\n"
                     "    break\n"
                     "    kill\n"
                     "  }\n"),
               "a jump is the last instruction of its block", "break");
   expect_fail(parse("shader FRAG\n"
                     "  continue\n"),
               "break/continue is inside a loop", "continue");
   expect_fail(parse("shader FRAG\n"
                     "  %0 = load_input slot=0\n"),
               "every required field is set", "load_input slot=0");
   expect_fail(parse("shader FRAG\n"
                     "  %0 = load_input slot=0 comp=x\n"
                     "  %1 = fneg %0\n"
                     "  %2 = phi\n"),
               "phis come first in their block", "%2 = phi");
   expect_fail(parse("shader FRAG\n"
                     "  %0 = load_sysval sv=FACE comp=x\n"
                     "  %1 = array_load arr=3 slot=0 comp=x\n"),
               "the array is declared", "array_load");
   expect_fail(parse("shader FRAG\n"
                     "  %0 = load_input slot=0 comp=x\n"
                     "  %1 = tex kind=txb target=2D res=0 samp=0 coord %0, coord %0\n"),
               "bias exactly on txb", "tex kind=txb");
}

/* Broken by hand, the way a buggy pass would break it. */
static void
test_broken_by_pass(void)
{
   /* a use of a removed value */
   struct ir_shader *sh = parse("shader FRAG\n"
                                "  %0 = load_input slot=0 comp=x\n"
                                "  %1 = fneg %0\n"
                                "  store_output slot=0 comp=x %1\n");
   ir_instr_remove(sh->values[1]);
   expect_fail(sh, "no use of a removed value (!s->removed)", "store_output slot=0 comp=x %1");

   /* an if condition removed */
   sh = parse("shader FRAG\n"
              "  %0 = load_input slot=0 comp=x\n"
              "  if %0 {\n"
              "    kill\n"
              "  }\n");
   ir_instr_remove(sh->values[0]);
   expect_fail(sh, "if condition is not a removed value", "%0 = load_input");

   /* an instruction created but never placed */
   sh = parse("shader FRAG\n"
              "  %0 = load_input slot=0 comp=x\n");
   struct ir_instr *lost = ir_instr_create(sh, IR_OP_FNEG, 1);
   ir_set_src(lost, 0, sh->values[0]);
   expect_fail(sh, "every live instruction is in a block", "%1 = fneg %0");

   /* two blocks in a row */
   sh = parse("shader FRAG\n"
              "  kill\n");
   ir_list_append(&sh->body, ir_node_block(sh), NULL);
   expect_fail(sh, "blocks and if/loop nodes alternate", NULL);

   /* a value inserted into a second block while still in the first */
   sh = parse("shader FRAG\n"
              "  %0 = load_input slot=0 comp=x\n"
              "  %1 = fneg %0\n");
   ir_set_src(sh->values[1], 0, NULL);
   expect_fail(sh, "every source is set", "%1 = fneg %?");

   /* a field the op does not own, and a required one cleared, each
    * alone (the validator reads the fields by struct member) */
   sh = parse("shader FRAG\n"
              "  %0 = load_input slot=0 comp=x\n"
              "  %1 = fneg %0\n");
   sh->values[1]->stream = 1;
   expect_fail(sh, "only the op's own fields are set", "%1 = fneg stream=1 %0");
   sh = parse("shader FRAG\n"
              "  %0 = load_input slot=0 comp=x\n"
              "  %1 = fneg %0\n");
   sh->values[0]->comp = IR_NONE;
   expect_fail(sh, "every required field is set", "%0 = load_input slot=0");
}

/* Use lists: kept by ir_set_src, ir_set_cond and ir_replace_uses; a pass
 * that writes a source or a condition directly is caught. */
static void
test_use_lists(void)
{
   const char *text = "shader FRAG\n"
                      "  %0 = load_input slot=0 comp=x\n"
                      "  %1 = load_input slot=1 comp=x\n"
                      "  %2 = fmul %0, %0\n"
                      "  if %0 {\n"
                      "    kill\n"
                      "  }\n"
                      "  store_output slot=0 comp=x %2\n";
   struct ir_shader *sh = parse(text);
   struct ir_instr **v = sh->values;
   struct diag_list d = {0};
   CHECK(ir_use_count(v[0]) == 3 && ir_use_count(v[1]) == 0 && ir_use_count(v[2]) == 1);
   ir_set_src(v[2], 1, v[1]);
   CHECK(ir_use_count(v[0]) == 2 && ir_use_count(v[1]) == 1);
   CHECK(ir_replace_uses(sh, v[0], v[1]) == 2); /* a source and the if */
   CHECK(ir_use_count(v[0]) == 0 && ir_use_count(v[1]) == 3);
   CHECK(v[2]->src[0] == v[1] && sh->body.v[1]->cond == v[1]);
   CHECK(ir_validate(sh, NULL, &d) && d.n == 0);
   /* a removed user keeps its sources and is not rewritten */
   struct ir_instr *st = ir_list_last_block(&sh->body)->first;
   ir_instr_remove(st);
   CHECK(ir_replace_uses(sh, v[2], v[0]) == 0 && st->src[0] == v[2]);
   ir_shader_free(sh);

   /* injected bug: a pass rewrites a source without ir_set_src, so %1 is
    * read without being listed (ir_replace_uses(%1) would miss it) */
   sh = parse(text);
   sh->values[2]->src[1] = sh->values[1];
   expect_fail(sh, "a value's use list holds exactly its uses", "%1 = load_input slot=1");

   /* injected bug: an if condition rewritten without ir_set_cond */
   sh = parse(text);
   sh->body.v[1]->cond = sh->values[1];
   expect_fail(sh, "a value's use list holds exactly its uses", "%1 = load_input slot=1");
}

/* A pass that leaves broken IR, then refuses the shader (as RA does when
 * it runs out of registers) or fails without refusing. */
static bool
break_then(struct ir_shader *sh, struct opt_ctx *ctx, const char *msg)
{
   sh->values[1]->src[0] = sh->values[2]; /* a use before its definition */
   diag_add(ctx->diags, DIAG_ERROR, "opt", 1, 0, NULL, "%s", msg);
   ctx->failed = true;
   return false;
}

static bool
refusing_pass(struct ir_shader *sh, struct opt_ctx *ctx)
{
   return break_then(sh, ctx, "unsupported: more than 1 live value");
}

static bool
failing_pass(struct ir_shader *sh, struct opt_ctx *ctx)
{
   return break_then(sh, ctx, "internal: lost a value");
}

/* A refusal is the one error (the unfinished IR is not validated); any
 * other failure still has its IR validated. */
static void
test_refusal_not_validated(void)
{
   static const struct opt_pass passes[] = {{"refuse", refusing_pass}, {"fail", failing_pass}};
   for (unsigned k = 0; k < 2; k++) {
      struct ir_shader *sh = parse("shader FRAG\n"
                                   "  %0 = load_input slot=0 comp=x\n"
                                   "  %1 = fneg %0\n"
                                   "  %2 = fneg %0\n"
                                   "  store_output slot=0 comp=x %1\n");
      struct diag_list d = {0};
      struct opt_options o = {.validate = true};
      struct opt_ctx ctx;
      opt_ctx_init(&ctx, &o, &d);
      opt_run_pass(sh, &ctx, &passes[k]);
      CHECK(!opt_validate_rest(sh, &ctx));
      CHECK_EQ_U(d.nerrors, k == 0 ? 1u : 2u);
      CHECK(k == 0 || (d.n == 2 && strstr(d.v[1].msg, "after pass 'fail'")));
      opt_ctx_fini(&ctx);
      ir_shader_free(sh);
      diag_clear(&d);
   }
}

/* ir_program_order keeps its walk while the blocks do not change, gives a
 * new one after each change through ir.c, and the validator catches a
 * kept walk that a change behind ir.c's back left stale. */
static void
test_kept_order(void)
{
   const char *text = "shader FRAG\n"
                      "  %0 = load_input slot=0 comp=x\n"
                      "  %1 = fneg %0\n"
                      "  %2 = fabs %0\n"
                      "  %3 = fadd %1, %2\n"
                      "  if %0 {\n"
                      "    kill\n"
                      "  }\n"
                      "  store_output slot=0 comp=x %3\n";
   struct ir_shader *sh = parse(text);
   struct ir_instr **v = sh->values, **o;
   struct diag_list d = {0};
   unsigned n = ir_program_order(sh, &o), nk = 0;
   CHECK(n == 6 && o[0] == v[0] && o[3] == v[3]);
   free(o);
   CHECK(ir_program_order_kept(sh, &nk) && nk == 6);
   /* a move through ir.c: the next walk has it */
   ir_instr_remove(v[2]);
   v[2]->removed = false;
   ir_insert_before(v[1], v[2]);
   CHECK(!ir_program_order_kept(sh, &nk));
   n = ir_program_order(sh, &o);
   CHECK(n == 6 && o[1] == v[2] && o[2] == v[1]);
   free(o);
   /* the store moved into the if's block, from the block after it */
   struct ir_instr *k = ir_list_first_block(&sh->body.v[1]->then_list)->first,
                   *st = ir_list_last_block(&sh->body)->first;
   ir_instr_remove(st);
   st->removed = false;
   ir_insert_before(k, st);
   n = ir_program_order(sh, &o);
   CHECK(n == 6 && o[3] == v[3] && o[4] == st && o[5] == k);
   free(o);
   CHECK(ir_validate(sh, NULL, &d) && d.n == 0);
   ir_shader_free(sh);

   /* injected bug: a pass relinks two instructions by hand (first and
    * last of the block stay), so the kept walk no longer is the order */
   sh = parse(text);
   v = sh->values;
   n = ir_program_order(sh, &o);
   free(o);
   v[0]->next = v[2], v[2]->prev = v[0];
   v[2]->next = v[1], v[1]->prev = v[2];
   v[1]->next = v[3], v[3]->prev = v[1];
   expect_fail(sh, "ir_program_order's kept walk is the program order", NULL);
}

int
main(void)
{
   test_good();
   test_broken();
   test_broken_by_pass();
   test_use_lists();
   test_refusal_not_validated();
   test_kept_order();
   return test_done();
}
