/*
 * Per-rewrite verification (compiler/opt/opt_verify.c).
 *
 *  1. Every rule of the algebraic pass, the constant folder, copy
 *     propagation, CSE and fusion fires on a small shader and is verified
 *     over the special-value table without an error (none skipped).
 *  2. Bad rules of the classes that escaped the differential check, planted
 *     here as a rewrite made through the pass manager's counter, are
 *     compile errors naming the rule and the operand values: a fold that
 *     compares unsigned, an arithmetic shift folded logically, a C-style
 *     min, fma(a, b, +0.0) -> a*b, a < b ? a : b -> min(a, b), an inexact
 *     rule on a precise value, a CSE losing the precise flag.
 *  3. The catalog's folding faults, injected into the real passes, are
 *     compile errors.
 */
#include "compiler/ir/ir.h"
#include "util/test.h"

#include <stdlib.h>

#define HEAD                                                                                       \
   "shader VERT\n"                                                                                 \
   "  %0 = load_input slot=0 comp=x\n"                                                             \
   "  %1 = load_input slot=0 comp=y\n"                                                             \
   "  %2 = load_input slot=0 comp=z\n"

static struct ir_shader *
parse(const char *text)
{
   struct diag_list d = {0};
   struct ir_shader *sh = ir_parse(text, strlen(text), "test", 1, &d);
   CHECKF(sh != NULL, "%s\n%s", text, diag_first_error(&d));
   diag_clear(&d);
   return sh;
}

/* ------------------------------------------------------------------ */
/* 1. Every rule, verified                                              */

struct rule_case {
   const char *passes, *rule, *body; /* body: after HEAD, with store_output */
   int mode;                         /* 1: --opt inexact, 2: --opt fuse-ffma */
};

static const struct rule_case rules[] = {
    /* algebraic: float */
    {"algebraic", "x + -0.0 -> x", "  %3 = imm -0.0\n  %4 = fadd %0, %3\n", 0},
    {"algebraic", "x + 0.0 -> x (inexact)", "  %3 = imm 0\n  %4 = fadd %3, %0\n", 1},
    {"algebraic", "x + -x -> 0.0 (inexact)", "  %3 = fneg %0\n  %4 = fadd %0, %3\n", 1},
    {"algebraic", "x * 1.0 -> x", "  %3 = imm 1.0\n  %4 = fmul %3, %0\n", 0},
    {"algebraic", "x * -1.0 -> -x", "  %3 = imm -1.0\n  %4 = fmul %0, %3\n", 0},
    {"algebraic", "x * 0.0 -> 0.0 (inexact)", "  %3 = imm 0\n  %4 = fmul %0, %3\n", 1},
    {"algebraic", "x / 1.0 -> x", "  %3 = imm 1.0\n  %4 = fdiv %0, %3\n", 0},
    {"algebraic", "--x -> x", "  %3 = fneg %0\n  %4 = fneg %3\n", 0},
    {"algebraic", "|-x| or ||x|| -> |x|", "  %3 = fneg %0\n  %4 = fabs %3\n", 0},
    {"algebraic", "|-x| or ||x|| -> |x|", "  %3 = fabs %0\n  %4 = fabs %3\n", 0},
    {"algebraic", "sat(sat x) -> sat x", "  %3 = fsat %0\n  %4 = fsat %3\n", 0},
    {"algebraic", "min/max(x, x) -> x", "  %3 = fmin %0, %0\n  %4 = fmax %3, %3\n", 0},
    {"algebraic", "fma(1.0, b, c) -> b + c", "  %3 = imm 1.0\n  %4 = ffma %3, %0, %1\n", 0},
    {"algebraic", "fma(a, 1.0, c) -> a + c", "  %3 = imm 1.0\n  %4 = fmad %0, %3, %1\n", 0},
    {"algebraic", "fma(a, b, -0.0) -> a * b", "  %3 = imm -0.0\n  %4 = ffma %0, %1, %3\n", 0},
    /* algebraic: integer */
    {"algebraic", "x + 0 -> x", "  %3 = imm 0\n  %4 = iadd %0, %3\n", 0},
    {"algebraic", "x - 0 -> x", "  %3 = imm 0\n  %4 = isub %0, %3\n", 0},
    {"algebraic", "x - x -> 0", "  %3 = imm 0\n  %4 = isub %0, %0\n", 0},
    {"algebraic", "x * 1 -> x", "  %3 = imm 1\n  %4 = imul %3, %0\n", 0},
    {"algebraic", "x * 0 -> 0", "  %3 = imm 0\n  %4 = imul %0, %3\n", 0},
    {"algebraic", "x & 0 -> 0", "  %3 = imm 0\n  %4 = iand %0, %3\n", 0},
    {"algebraic", "x & ~0 -> x", "  %3 = imm 0xffffffff\n  %4 = iand %0, %3\n", 0},
    {"algebraic", "x & x -> x", "  %3 = imm 0\n  %4 = iand %0, %0\n", 0},
    {"algebraic", "x | 0 -> x", "  %3 = imm 0\n  %4 = ior %0, %3\n", 0},
    {"algebraic", "x | ~0 -> ~0", "  %3 = imm 0xffffffff\n  %4 = ior %3, %0\n", 0},
    {"algebraic", "x | x -> x", "  %3 = imm 0\n  %4 = ior %0, %0\n", 0},
    {"algebraic", "x ^ 0 -> x", "  %3 = imm 0\n  %4 = ixor %0, %3\n", 0},
    {"algebraic", "x ^ x -> 0", "  %3 = imm 0\n  %4 = ixor %0, %0\n", 0},
    {"algebraic", "shift by 0 (mod 32) -> x", "  %3 = imm 32\n  %4 = ishr %0, %3\n", 0},
    {"algebraic", "op(op x) -> x", "  %3 = inot %0\n  %4 = inot %3\n", 0},
    {"algebraic", "op(op x) -> x", "  %3 = ineg %0\n  %4 = ineg %3\n", 0},
    {"algebraic", "min/max(x, x) -> x", "  %3 = imin %0, %0\n  %4 = umax %3, %3\n", 0},
    {"algebraic", "x == x, x >= x -> ~0", "  %3 = imm 0\n  %4 = ige %0, %0\n", 0},
    {"algebraic", "x != x, x < x -> 0", "  %3 = imm 0\n  %4 = ult %0, %0\n", 0},
    {"algebraic", "x / 1 -> x", "  %3 = imm 1\n  %4 = idiv %0, %3\n", 0},
    {"algebraic", "c ? x : x -> x", "  %3 = imm 0\n  %4 = bcsel %1, %0, %0\n", 0},
    {"algebraic", "constant condition", "  %3 = imm 0\n  %4 = bcsel %3, %0, %1\n", 0},
    /* constant folding through sem.h: signed compares, arithmetic shifts,
     * min of signed zeros, NaN, saturating conversions */
    {"constfold", "ilt -> -1", "  %3 = imm 0xffffffff\n  %5 = imm 1\n  %4 = ilt %3, %5\n", 0},
    {"constfold", "ishr -> -1.0384594e+34",
     "  %3 = imm 0x80000000\n  %5 = imm 4\n  %4 = ishr %3, %5\n", 0},
    {"constfold", "fmin -> -0.0", "  %3 = imm -0.0\n  %5 = imm 0\n  %4 = fmin %5, %3\n", 0},
    {"constfold", "fmax -> 1.0", "  %3 = imm 0x7fc00000\n  %5 = imm 1.0\n  %4 = fmax %3, %5\n", 0},
    {"constfold", "ishl -> 2", "  %3 = imm 1\n  %5 = imm 33\n  %4 = ishl %3, %5\n", 0},
    {"constfold", "f2i -> 0x7fffffff", "  %3 = imm 3e+10\n  %4 = f2i %3\n", 0},
    /* copies, CSE, fusion */
    {"copyprop", "= mov ->", "  %3 = mov %0\n  %4 = fadd %3, %1\n", 0},
    {"cse", "= fadd ->", "  %3 = fadd %0, %1\n  %5 = fadd %1, %0\n  %4 = fmul %3, %5\n", 0},
    {"cse", "= load_input ->", "  %3 = load_input slot=0 comp=x\n  %4 = fadd %3, %0\n", 0},
    {"fuse", "-> fmad", "  %3 = fmul %0, %1\n  %4 = fadd %3, %2\n", 0},
    {"fuse", "-> ffma", "  %3 = fmul %0, %1\n  %4 = fadd %2, %3\n", 2},
};

static void
test_rules(void)
{
   for (unsigned i = 0; i < ARRAY_SIZE(rules); i++) {
      const struct rule_case *c = &rules[i];
      char *text = xasprintf("%s%s  store_output slot=0 comp=x %%4\n", HEAD, c->body);
      struct ir_shader *sh = parse(text);
      if (!sh) {
         free(text);
         continue;
      }
      struct opt_options o = {.passes = c->passes,
                              .bisect = true,
                              .bisect_limit = -1,
                              .inexact = c->mode == 1,
                              .fuse_ffma = c->mode == 2,
                              .validate = true};
      struct diag_list d = {0};
      struct opt_ctx ctx;
      opt_ctx_init(&ctx, &o, &d);
      bool ok = opt_run(sh, &ctx);
      CHECKF(ok, "rule '%s': %s", c->rule, diag_first_error(&d));
      CHECKF(ctx.log && strstr(ctx.log, c->rule), "rule '%s' did not fire on\n%s\nlog:\n%s",
             c->rule, text, ctx.log ? ctx.log : "");
      CHECKF(ctx.verify_count >= 1 && ctx.verify_skipped == 0,
             "rule '%s': %lu verified, %lu skipped", c->rule, ctx.verify_count, ctx.verify_skipped);
      opt_ctx_fini(&ctx);
      diag_clear(&d);
      ir_shader_free(sh);
      free(text);
   }
}

/* ------------------------------------------------------------------ */
/* 2. Planted bad rules                                                 */

enum build {
   B_IMM,   /* rep: imm `bits` */
   B_SRC,   /* rep: value %`bits` */
   B_OP2,   /* rep: new `op`(%a, %b) */
   B_MERGE, /* rep: value %`bits` (a CSE) */
};

struct plant {
   const char *what, *body; /* body defines %4, the value replaced */
   enum build build;
   uint32_t bits;
   enum ir_op op;
   unsigned a, b;
   enum opt_verify_class cls;
   bool inexact;
   const char *expect; /* in the error, besides the rule's name */
};

static const struct plant plants[] = {
    {"ilt folded as unsigned", "  %3 = imm 0xffffffff\n  %5 = imm 1\n  %4 = ilt %3, %5\n", B_IMM, 0,
     0, 0, 0, OPT_VERIFY_EXACT, false, "before 0xffffffff"},
    {"x < 0 -> false (compared unsigned)", "  %3 = imm 0\n  %4 = ilt %0, %3\n", B_IMM, 0, 0, 0, 0,
     OPT_VERIFY_EXACT, false, "%0 = 0x80000000"},
    {"ishr folded logically", "  %3 = imm 0x80000000\n  %5 = imm 4\n  %4 = ishr %3, %5\n", B_IMM,
     0x08000000, 0, 0, 0, OPT_VERIFY_EXACT, false, "before 0xf8000000"},
    {"ishr x, 31 -> ushr x, 31", "  %3 = imm 31\n  %4 = ishr %0, %3\n", B_OP2, 0, IR_OP_USHR, 0, 3,
     OPT_VERIFY_EXACT, false, "the result changes"},
    {"fmin folded C-style (a < b ? a : b)", "  %3 = imm -0.0\n  %5 = imm 0\n  %4 = fmin %3, %5\n",
     B_IMM, 0, 0, 0, 0, OPT_VERIFY_EXACT, false, "the sign of zero changes"},
    {"fmin(a, b) -> a < b ? a : b", "  %4 = fmin %0, %1\n", B_OP2, 0, IR_OP_COUNT, 0, 1,
     OPT_VERIFY_EXACT, false, "with %0 = "},
    {"fma(a, b, +0.0) -> a * b", "  %3 = imm 0\n  %4 = ffma %0, %1, %3\n", B_OP2, 0, IR_OP_FMUL, 0,
     1, OPT_VERIFY_EXACT, false, "the sign of zero changes"},
    {"a < b ? a : b -> min(a, b)", "  %3 = flt %0, %1\n  %4 = bcsel %3, %0, %1\n", B_OP2, 0,
     IR_OP_FMIN, 0, 1, OPT_VERIFY_EXACT, false, "before"},
    {"x + -x -> 0.0 taken for exact", "  %3 = fneg %0\n  %4 = fadd %0, %3\n", B_IMM, 0, 0, 0, 0,
     OPT_VERIFY_EXACT, false, "a NaN appears or disappears"},
    {"x * 0.0 -> 0.0 on a precise value", "  %3 = imm 0\n  %4 = fmul %0, %3 precise\n", B_IMM, 0, 0,
     0, 0, OPT_VERIFY_INEXACT, true, "an inexact rewrite of a precise value"},
    {"x * 0.0 -> 0.0 beyond +-0 and NaN", "  %3 = imm 0\n  %4 = fmul %0, %3\n", B_IMM, 0x3f800000,
     0, 0, 0, OPT_VERIFY_INEXACT, true, "beyond +-0 and NaN"},
    {"CSE keeps the survivor's flags only", "  %3 = fadd %0, %1\n  %4 = fadd %0, %1 precise\n",
     B_MERGE, 3, 0, 0, 0, OPT_VERIFY_EXACT, false, "without the precise flag"},
    {"umin(x, y) -> imin(x, y)", "  %4 = umin %0, %1\n", B_OP2, 0, IR_OP_IMIN, 0, 1,
     OPT_VERIFY_EXACT, false, "the result changes"},
};

/* Makes the planted rewrite of %4 as a pass would: the counter's yes,
 * then the replacement. Returns the first error, or NULL. */
static char *
plant_one(const struct plant *p, bool *failed)
{
   char *text = xasprintf("%s%s  store_output slot=0 comp=x %%4\n", HEAD, p->body);
   struct ir_shader *sh = parse(text);
   free(text);
   if (!sh)
      return NULL;
   struct opt_options o = {.inexact = p->inexact};
   struct diag_list d = {0};
   struct opt_ctx ctx;
   opt_ctx_init(&ctx, &o, &d);
   ctx.sh = sh;
   ctx.pass = "algebraic";
   sh->fault_ctx = &ctx;
   struct ir_instr *old = sh->values[4], *rep = NULL;
   ctx.verify_class = p->cls;
   CHECK(opt_transform(&ctx, "%s", p->what));
   switch (p->build) {
   case B_IMM:
      rep = opt_imm_before(sh, old, p->bits);
      break;
   case B_SRC:
   case B_MERGE:
      rep = sh->values[p->bits];
      break;
   case B_OP2:
      if (p->op == IR_OP_COUNT) { /* a < b ? a : b */
         struct ir_instr *lt =
             opt_build2_before(sh, old, IR_OP_FLT, sh->values[p->a], sh->values[p->b]);
         struct ir_instr *s[3] = {lt, sh->values[p->a], sh->values[p->b]};
         rep = opt_build_before(sh, old, IR_OP_BCSEL, 3, s);
      } else {
         rep = opt_build2_before(sh, old, p->op, sh->values[p->a], sh->values[p->b]);
      }
      break;
   }
   opt_replace(sh, old, rep);
   *failed = ctx.failed;
   char *msg = d.n ? xstrdup(diag_first_error(&d)) : NULL;
   opt_ctx_fini(&ctx);
   diag_clear(&d);
   ir_shader_free(sh);
   return msg;
}

static void
test_plants(void)
{
   for (unsigned i = 0; i < ARRAY_SIZE(plants); i++) {
      const struct plant *p = &plants[i];
      bool failed = false;
      char *msg = plant_one(p, &failed);
      CHECKF(failed && msg, "planted '%s' not caught", p->what);
      if (!msg)
         continue;
      char rule[200];
      snprintf(rule, sizeof(rule), "rule '%s'", p->what);
      CHECKF(strstr(msg, rule) && strstr(msg, "pass algebraic") && strstr(msg, p->expect),
             "planted '%s': message lacks the rule, pass or '%s':\n%s", p->what, p->expect, msg);
      free(msg);
   }
}

/* ------------------------------------------------------------------ */
/* 3. Catalog faults in the real passes                                 */

struct fault_case {
   const char *fault, *passes, *body;
   bool ffma;
};

static const struct fault_case faults[] = {
    {"fold-shift-unmasked", "algebraic", "  %3 = imm 33\n  %4 = ishl %0, %3\n", false},
    {"fold-minmax-nan", "algebraic",
     "  %3 = imm 0\n  %5 = imm 1.0\n  %6 = fmax %0, %3\n  %4 = fmin %6, %5\n", false},
    {"copyprop-abs", "copyprop", "  %4 = fabs %0\n", false},
    {"cse-ignores-fields", "cse",
     "  %3 = load_const buf=0 slot=0 comp=x\n  %5 = load_const buf=0 slot=1 comp=x\n"
     "  %4 = fadd %3, %5\n",
     false},
    {"dce-discard", "dce", "  %4 = fadd %0, %1\n  kill_if %2\n", false},
    {"fuse-precise", "fuse", "  %3 = fmul %0, %1 precise\n  %4 = fadd %3, %2 precise\n", true},
};

static void
test_faults(void)
{
   for (unsigned i = 0; i < ARRAY_SIZE(faults); i++) {
      const struct fault_case *c = &faults[i];
      char *text = xasprintf("%s%s  store_output slot=0 comp=x %%4\n", HEAD, c->body);
      struct ir_shader *sh = parse(text);
      free(text);
      if (!sh)
         continue;
      struct diag_list d = {0};
      struct opt_options o = {.passes = c->passes, .fuse_ffma = c->ffma};
      CHECK(opt_fault_parse(c->fault, &o.faults, &d));
      struct opt_ctx ctx;
      opt_ctx_init(&ctx, &o, &d);
      bool ok = opt_run(sh, &ctx);
      const char *msg = diag_first_error(&d);
      CHECKF(!ok && msg && strstr(msg, "rewrite verification") && strstr(msg, c->fault),
             "fault %s not caught at compile time: %s", c->fault, msg ? msg : "(no error)");
      /* and the same shader without the fault compiles */
      opt_ctx_fini(&ctx);
      diag_clear(&d);
      ir_shader_free(sh);
   }
}

int
main(void)
{
   test_rules();
   test_plants();
   test_faults();
   return test_done();
}
