/*
 * Golden interpreter behaviour: undefined-value tracking, divergent control
 * flow, loops, switch, subroutines, the step budget, indirect addressing,
 * kills, derivatives over quads, subgroups and refusals. Each test builds
 * a shader, fills per-lane inputs, runs it and checks per-lane outputs.
 */
#include "compiler/tgsi/tests/test_interp_build.h"
#include "util/test.h"

#define F1 0x3f800000u

static void
set_f(struct env *e, uint32_t reg, unsigned c, uint32_t lane, float f)
{
   sb_set_in(e, reg, c, lane, fui(f));
}

static float
out_f(const struct env *e, uint32_t reg, unsigned c, uint32_t lane)
{
   return uif(sb_out(e, reg, c, lane));
}

/* A TEMP read before any write is undefined; after a write it is not. */
static void
test_undefined_temp(void)
{
   struct tgsi_shader *s = sb_new(TGSI_STAGE_FRAG);
   sb_decl(s, TGSI_FILE_IN, 0, 0);
   sb_decl(s, TGSI_FILE_OUT, 0, 1);
   sb_decl(s, TGSI_FILE_TEMP, 0, 1);
   sb_op(s, TGSI_OP_ADD, D(OUT, 0, "x"), S(TEMP, 0, "xxxx"), S(IN, 0, "xxxx"));
   sb_op(s, TGSI_OP_MOV, D(TEMP, 1, "x"), S(IN, 0, "xxxx"));
   sb_op(s, TGSI_OP_ADD, D(OUT, 1, "x"), S(TEMP, 1, "xxxx"), S(IN, 0, "xxxx"));
   sb_op(s, TGSI_OP_END);
   struct env *e = sb_env(TGSI_STAGE_FRAG, 8, 1);
   for (uint32_t l = 0; l < 8; l++)
      set_f(e, 0, 0, l, (float)l);
   CHECK(sb_run(s, e, NULL) == TGSI_INTERP_OK);
   for (uint32_t l = 0; l < 8; l++) {
      CHECK(!sb_defined(e, 0, 0, l));
      CHECK(sb_defined(e, 1, 0, l));
      CHECK(out_f(e, 1, 0, l) == 2.0f * (float)l);
   }
   /* Channels never written at all are undefined too. */
   CHECK(!sb_defined(e, 1, 1, 0));
   env_free(e);
   tgsi_shader_free(s);
}

/* IDIV by 0 and INT_MIN / -1 are undefined per lane and never trap. */
static void
test_idiv_lanes(void)
{
   struct tgsi_shader *s = sb_new(TGSI_STAGE_VERT);
   sb_decl(s, TGSI_FILE_IN, 0, 1);
   sb_decl(s, TGSI_FILE_OUT, 0, 0);
   sb_op(s, TGSI_OP_IDIV, D(OUT, 0, "x"), S(IN, 0, "xxxx"), S(IN, 1, "xxxx"));
   sb_op(s, TGSI_OP_MOD, D(OUT, 0, "y"), S(IN, 0, "xxxx"), S(IN, 1, "xxxx"));
   sb_op(s, TGSI_OP_END);
   struct env *e = sb_env(TGSI_STAGE_VERT, 4, 2);
   uint32_t a[4] = {7, 0x80000000u, 5, 0x80000000u}, b[4] = {2, 0xffffffffu, 0, 1};
   for (uint32_t l = 0; l < 4; l++) {
      sb_set_in(e, 0, 0, l, a[l]);
      sb_set_in(e, 1, 0, l, b[l]);
   }
   CHECK(sb_run(s, e, NULL) == TGSI_INTERP_OK);
   CHECK_EQ_U(sb_out(e, 0, 0, 0), 3);
   CHECK(sb_defined(e, 0, 0, 0) && sb_defined(e, 0, 1, 0));
   CHECK(!sb_defined(e, 0, 0, 1) && !sb_defined(e, 0, 1, 1));
   CHECK(!sb_defined(e, 0, 0, 2) && !sb_defined(e, 0, 1, 2));
   CHECK_EQ_U(sb_out(e, 0, 0, 3), 0x80000000u);
   CHECK(sb_defined(e, 0, 0, 3));
   env_free(e);
   tgsi_shader_free(s);
}

/* IF/ELSE with a divergent condition, nested UIF. */
static void
test_if_else(void)
{
   struct tgsi_shader *s = sb_new(TGSI_STAGE_FRAG);
   unsigned imm = sb_immf(s, 1.0f, 2.0f, 3.0f, 0.0f);
   sb_decl(s, TGSI_FILE_IN, 0, 1);
   sb_decl(s, TGSI_FILE_OUT, 0, 0);
   sb_op(s, TGSI_OP_IF, S(IN, 0, "xxxx"));
   sb_op(s, TGSI_OP_UIF, S(IN, 1, "xxxx"));
   sb_op(s, TGSI_OP_MOV, D(OUT, 0, "x"), S(IMM, (int)imm, "xxxx"));
   sb_op(s, TGSI_OP_ELSE);
   sb_op(s, TGSI_OP_MOV, D(OUT, 0, "x"), S(IMM, (int)imm, "yyyy"));
   sb_op(s, TGSI_OP_ENDIF);
   sb_op(s, TGSI_OP_ELSE);
   sb_op(s, TGSI_OP_MOV, D(OUT, 0, "x"), S(IMM, (int)imm, "zzzz"));
   sb_op(s, TGSI_OP_ENDIF);
   sb_op(s, TGSI_OP_END);
   struct env *e = sb_env(TGSI_STAGE_FRAG, 8, 2);
   /* IF is a float test: -0.0 is false, NaN true. */
   uint32_t c[8] = {F1, F1, 0, 0x80000000u, 0x7fc00000u, F1, 0, F1};
   uint32_t u[8] = {1, 0, 1, 1, 1, 0x80000000u, 0, 0};
   float want[8] = {1, 2, 3, 3, 1, 1, 3, 2};
   for (uint32_t l = 0; l < 8; l++) {
      sb_set_in(e, 0, 0, l, c[l]);
      sb_set_in(e, 1, 0, l, u[l]);
   }
   CHECK(sb_run(s, e, NULL) == TGSI_INTERP_OK);
   for (uint32_t l = 0; l < 8; l++) {
      CHECKF(out_f(e, 0, 0, l) == want[l], "lane %u: %g", l, (double)out_f(e, 0, 0, l));
      CHECK(sb_defined(e, 0, 0, l));
   }
   env_free(e);
   tgsi_shader_free(s);
}

/* Per lane: sum of the even i < n, with CONT skipping odd i and BRK at n. */
static void
test_loop_brk_cont(void)
{
   struct tgsi_shader *s = sb_new(TGSI_STAGE_VERT);
   unsigned k = sb_imm(s, 0, 1, 0, 0);
   sb_decl(s, TGSI_FILE_IN, 0, 0);
   sb_decl(s, TGSI_FILE_OUT, 0, 0);
   sb_decl(s, TGSI_FILE_TEMP, 0, 2);
   sb_op(s, TGSI_OP_MOV, D(TEMP, 0, "xy"), S(IMM, (int)k, "xxxx")); /* i = 0, sum = 0 */
   sb_op(s, TGSI_OP_BGNLOOP);
   sb_op(s, TGSI_OP_USGE, D(TEMP, 1, "x"), S(TEMP, 0, "xxxx"), S(IN, 0, "xxxx"));
   sb_op(s, TGSI_OP_UIF, S(TEMP, 1, "xxxx"));
   sb_op(s, TGSI_OP_BRK);
   sb_op(s, TGSI_OP_ENDIF);
   sb_op(s, TGSI_OP_AND, D(TEMP, 1, "x"), S(TEMP, 0, "xxxx"), S(IMM, (int)k, "yyyy"));
   sb_op(s, TGSI_OP_UADD, D(TEMP, 0, "x"), S(TEMP, 0, "xxxx"), S(IMM, (int)k, "yyyy"));
   sb_op(s, TGSI_OP_UIF, S(TEMP, 1, "xxxx"));
   sb_op(s, TGSI_OP_CONT);
   sb_op(s, TGSI_OP_ENDIF);
   sb_op(s, TGSI_OP_UADD, D(TEMP, 0, "y"), S(TEMP, 0, "yyyy"), S(TEMP, 0, "xxxx"));
   sb_op(s, TGSI_OP_ENDLOOP);
   sb_op(s, TGSI_OP_MOV, D(OUT, 0, "x"), S(TEMP, 0, "yyyy"));
   sb_op(s, TGSI_OP_END);
   struct env *e = sb_env(TGSI_STAGE_VERT, 8, 1);
   for (uint32_t l = 0; l < 8; l++)
      sb_set_in(e, 0, 0, l, l * 3);
   CHECK(sb_run(s, e, NULL) == TGSI_INTERP_OK);
   for (uint32_t l = 0; l < 8; l++) {
      /* TEMP[0].x counts 1..n; odd values are added after the increment. */
      uint32_t want = 0;
      for (uint32_t i = 0; i < l * 3; i++)
         if (!(i & 1))
            want += i + 1;
      CHECKF(sb_out(e, 0, 0, l) == want, "lane %u: %u, expected %u", l, sb_out(e, 0, 0, l), want);
      CHECK(sb_defined(e, 0, 0, l));
   }
   env_free(e);
   tgsi_shader_free(s);
}

/* SWITCH with fall-through, BRK, and a DEFAULT that is not last. */
static void
test_switch(void)
{
   struct tgsi_shader *s = sb_new(TGSI_STAGE_VERT);
   unsigned k = sb_imm(s, 0, 1, 2, 3);
   unsigned a = sb_imm(s, 1, 10, 100, 1000);
   sb_decl(s, TGSI_FILE_IN, 0, 0);
   sb_decl(s, TGSI_FILE_OUT, 0, 0);
   sb_op(s, TGSI_OP_MOV, D(OUT, 0, "x"), S(IMM, (int)k, "xxxx"));
   sb_op(s, TGSI_OP_SWITCH, S(IN, 0, "xxxx"));
   sb_op(s, TGSI_OP_CASE, S(IMM, (int)k, "xxxx"));
   sb_op(s, TGSI_OP_UADD, D(OUT, 0, "x"), S(OUT, 0, "xxxx"), S(IMM, (int)a, "xxxx"));
   sb_op(s, TGSI_OP_CASE, S(IMM, (int)k, "yyyy")); /* case 0 falls into case 1 */
   sb_op(s, TGSI_OP_UADD, D(OUT, 0, "x"), S(OUT, 0, "xxxx"), S(IMM, (int)a, "yyyy"));
   sb_op(s, TGSI_OP_BRK);
   sb_op(s, TGSI_OP_DEFAULT);
   sb_op(s, TGSI_OP_UADD, D(OUT, 0, "x"), S(OUT, 0, "xxxx"), S(IMM, (int)a, "wwww"));
   sb_op(s, TGSI_OP_CASE, S(IMM, (int)k, "zzzz")); /* default falls into case 2 */
   sb_op(s, TGSI_OP_UADD, D(OUT, 0, "x"), S(OUT, 0, "xxxx"), S(IMM, (int)a, "zzzz"));
   sb_op(s, TGSI_OP_BRK);
   sb_op(s, TGSI_OP_ENDSWITCH);
   sb_op(s, TGSI_OP_END);
   struct env *e = sb_env(TGSI_STAGE_VERT, 4, 1);
   uint32_t sel[4] = {0, 1, 2, 7}, want[4] = {11, 10, 100, 1100};
   for (uint32_t l = 0; l < 4; l++)
      sb_set_in(e, 0, 0, l, sel[l]);
   CHECK(sb_run(s, e, NULL) == TGSI_INTERP_OK);
   for (uint32_t l = 0; l < 4; l++)
      CHECKF(sb_out(e, 0, 0, l) == want[l], "lane %u: %u", l, sb_out(e, 0, 0, l));
   env_free(e);
   tgsi_shader_free(s);
}

/* CAL into a subroutine that returns early on some lanes. */
static void
test_subroutine(void)
{
   struct tgsi_shader *s = sb_new(TGSI_STAGE_VERT);
   unsigned k = sb_immf(s, 2.0f, 100.0f, 0, 0);
   sb_decl(s, TGSI_FILE_IN, 0, 0);
   sb_decl(s, TGSI_FILE_OUT, 0, 0);
   sb_decl(s, TGSI_FILE_TEMP, 0, 0);
   sb_op(s, TGSI_OP_MOV, D(TEMP, 0, "x"), S(IN, 0, "xxxx"));
   sb_cal(s, 5);
   sb_cal(s, 5);
   sb_op(s, TGSI_OP_MOV, D(OUT, 0, "x"), S(TEMP, 0, "xxxx"));
   sb_op(s, TGSI_OP_END);
   /* 5: */ sb_op(s, TGSI_OP_BGNSUB);
   sb_op(s, TGSI_OP_SLT, D(TEMP, 0, "y"), S(IMM, (int)k, "yyyy"), S(TEMP, 0, "xxxx"));
   sb_op(s, TGSI_OP_IF, S(TEMP, 0, "yyyy"));
   sb_op(s, TGSI_OP_RET);
   sb_op(s, TGSI_OP_ENDIF);
   sb_op(s, TGSI_OP_MUL, D(TEMP, 0, "x"), S(TEMP, 0, "xxxx"), S(IMM, (int)k, "xxxx"));
   sb_op(s, TGSI_OP_ENDSUB);
   struct env *e = sb_env(TGSI_STAGE_VERT, 4, 1);
   float in[4] = {1, 60, 200, -3}, want[4] = {4, 120, 200, -12};
   for (uint32_t l = 0; l < 4; l++)
      set_f(e, 0, 0, l, in[l]);
   CHECK(sb_run(s, e, NULL) == TGSI_INTERP_OK);
   for (uint32_t l = 0; l < 4; l++)
      CHECKF(out_f(e, 0, 0, l) == want[l], "lane %u: %g", l, (double)out_f(e, 0, 0, l));
   env_free(e);
   tgsi_shader_free(s);
}

/* An endless loop stops at the step budget with a clear status. */
static void
test_budget(void)
{
   struct tgsi_shader *s = sb_new(TGSI_STAGE_VERT);
   sb_decl(s, TGSI_FILE_OUT, 0, 0);
   sb_op(s, TGSI_OP_BGNLOOP);
   sb_op(s, TGSI_OP_NOP);
   sb_op(s, TGSI_OP_ENDLOOP);
   sb_op(s, TGSI_OP_END);
   struct env *e = sb_env(TGSI_STAGE_VERT, 64, 1);
   struct tgsi_interp_opts o = {.max_steps = 100000};
   struct diag_list d = {0};
   CHECK(tgsi_interp_run(s, e, &o, &d) == TGSI_INTERP_BUDGET);
   CHECK(d.nerrors == 1 && strstr(diag_first_error(&d), "budget"));
   CHECK(d.n && d.v[0].line == 3);
   diag_clear(&d);
   env_free(e);
   tgsi_shader_free(s);
}

/* The outputs of lanes no batch ran (the run stopped at the budget in the
 * first batch) are 0 and undefined: the interpreter allocates them unset
 * and resets only those lanes. A run of the same env before leaves 5,
 * defined, in every lane (the allocator tends to hand its memory back). */
static void
test_budget_unrun_lanes(void)
{
   struct tgsi_shader *s = sb_new(TGSI_STAGE_VERT);
   unsigned k = sb_immf(s, 5.0f, 5.0f, 5.0f, 5.0f);
   sb_decl(s, TGSI_FILE_OUT, 0, 0);
   sb_op(s, TGSI_OP_MOV, D(OUT, 0, "xyzw"), S(IMM, (int)k, "xyzw"));
   sb_op(s, TGSI_OP_END);
   struct env *e = sb_env(TGSI_STAGE_VERT, 64, 1);
   CHECK(sb_run(s, e, NULL) == TGSI_INTERP_OK);
   CHECK(sb_out(e, 0, 0, 63) == fui(5.0f) && sb_defined(e, 0, 0, 63));
   tgsi_shader_free(s);
   s = sb_new(TGSI_STAGE_VERT);
   k = sb_immf(s, 5.0f, 5.0f, 5.0f, 5.0f);
   sb_decl(s, TGSI_FILE_OUT, 0, 0);
   sb_op(s, TGSI_OP_MOV, D(OUT, 0, "xyzw"), S(IMM, (int)k, "xyzw"));
   sb_op(s, TGSI_OP_BGNLOOP);
   sb_op(s, TGSI_OP_NOP);
   sb_op(s, TGSI_OP_ENDLOOP);
   sb_op(s, TGSI_OP_END);
   struct tgsi_interp_opts o = {.max_steps = 10000, .batch = 32};
   struct diag_list d = {0};
   CHECK(tgsi_interp_run(s, e, &o, &d) == TGSI_INTERP_BUDGET);
   for (uint32_t l = 0; l < 64; l++)
      for (unsigned c = 0; c < 4; c++) {
         size_t i = env_out_index(e, 0, 0, c) + l;
         bool ran = l < 32;
         CHECKF(e->out[i] == (ran ? fui(5.0f) : 0u) &&
                    (e->out_flags[i] & ENV_F_UNDEF) == (ran ? 0 : ENV_F_UNDEF),
                "lane %u channel %u: %08x flags %x", l, c, e->out[i], e->out_flags[i]);
      }
   diag_clear(&d);
   env_free(e);
   tgsi_shader_free(s);
}

/* A value decided by an undefined IF condition is undefined after the
 * region, on the lanes where the condition was undefined; so is anything a
 * loop writes after a BRK that depends on an undefined value. */
static void
test_undefined_control(void)
{
   struct tgsi_shader *s = sb_new(TGSI_STAGE_FRAG);
   unsigned k = sb_immf(s, 1.0f, 2.0f, 0, 0);
   sb_decl(s, TGSI_FILE_IN, 0, 0);
   sb_decl(s, TGSI_FILE_OUT, 0, 1);
   sb_decl(s, TGSI_FILE_TEMP, 0, 1);
   sb_op(s, TGSI_OP_MOV, D(OUT, 0, "xy"), S(IMM, (int)k, "xxxx"));
   sb_op(s, TGSI_OP_RSQ, D(TEMP, 0, "x"), S(IN, 0, "xxxx")); /* undefined for x <= 0 */
   sb_op(s, TGSI_OP_IF, S(TEMP, 0, "xxxx"));
   sb_op(s, TGSI_OP_MOV, D(OUT, 0, "x"), S(IMM, (int)k, "yyyy"));
   sb_op(s, TGSI_OP_ENDIF);
   sb_op(s, TGSI_OP_MOV, D(OUT, 1, "x"), S(IMM, (int)k, "yyyy"));
   /* 0 where the RSQ is defined, NaN where it is not. */
   sb_op(s, TGSI_OP_ADD, D(TEMP, 0, "y"), S(TEMP, 0, "xxxx"), sb_neg(S(TEMP, 0, "xxxx")));
   sb_op(s, TGSI_OP_BGNLOOP);
   sb_op(s, TGSI_OP_IF, S(TEMP, 0, "yyyy"));
   sb_op(s, TGSI_OP_BRK);
   sb_op(s, TGSI_OP_ENDIF);
   sb_op(s, TGSI_OP_MOV, D(OUT, 1, "y"), S(IMM, (int)k, "yyyy"));
   sb_op(s, TGSI_OP_BRK);
   sb_op(s, TGSI_OP_ENDLOOP);
   sb_op(s, TGSI_OP_END);
   struct env *e = sb_env(TGSI_STAGE_FRAG, 4, 1);
   float in[4] = {4, -1, 0, 9};
   for (uint32_t l = 0; l < 4; l++)
      set_f(e, 0, 0, l, in[l]);
   CHECK(sb_run(s, e, NULL) == TGSI_INTERP_OK);
   for (uint32_t l = 0; l < 4; l++) {
      bool good = in[l] > 0;
      CHECKF(sb_defined(e, 0, 0, l) == good, "lane %u", l);
      CHECK(sb_defined(e, 0, 1, l)); /* written before the IF only */
      CHECK(sb_defined(e, 1, 0, l)); /* written after the region */
      CHECKF(sb_defined(e, 1, 1, l) == good, "lane %u", l);
   }
   CHECK(out_f(e, 1, 1, 3) == 2.0f);
   CHECK(out_f(e, 0, 0, 0) == 2.0f);
   CHECK(out_f(e, 0, 1, 0) == 1.0f);
   env_free(e);
   tgsi_shader_free(s);
}

/* CMP takes the flags of the operand it selects only. */
static void
test_select_flags(void)
{
   struct tgsi_shader *s = sb_new(TGSI_STAGE_VERT);
   sb_decl(s, TGSI_FILE_IN, 0, 0);
   sb_decl(s, TGSI_FILE_OUT, 0, 0);
   sb_decl(s, TGSI_FILE_TEMP, 0, 0);
   sb_op(s, TGSI_OP_CMP, D(OUT, 0, "x"), S(IN, 0, "xxxx"), S(IN, 0, "yyyy"), S(TEMP, 0, "xxxx"));
   sb_op(s, TGSI_OP_END);
   struct env *e = sb_env(TGSI_STAGE_VERT, 2, 1);
   set_f(e, 0, 0, 0, -1.0f);
   set_f(e, 0, 0, 1, 1.0f);
   CHECK(sb_run(s, e, NULL) == TGSI_INTERP_OK);
   CHECK(sb_defined(e, 0, 0, 0));
   CHECK(!sb_defined(e, 0, 0, 1));
   env_free(e);
   tgsi_shader_free(s);
}

/* Source indirects are per lane; CONST out of range reads 0 (defined),
 * TEMP out of range is undefined; both count events. */
static void
test_indirect(void)
{
   struct tgsi_shader *s = sb_new(TGSI_STAGE_VERT);
   unsigned k = sb_immf(s, 10, 20, 30, 40);
   sb_decl(s, TGSI_FILE_IN, 0, 0);
   sb_decl(s, TGSI_FILE_OUT, 0, 1);
   sb_decl(s, TGSI_FILE_TEMP, 0, 3);
   sb_decl(s, TGSI_FILE_ADDR, 0, 0);
   sb_decl(s, TGSI_FILE_CONST, 0, 3);
   for (int t = 0; t < 4; t++)
      sb_op(s, TGSI_OP_MOV, D(TEMP, t, "x"),
            S(IMM, (int)k,
              t == 0   ? "xxxx"
              : t == 1 ? "yyyy"
              : t == 2 ? "zzzz"
                       : "wwww"));
   sb_op(s, TGSI_OP_UARL, D(ADDR, 0, "x"), S(IN, 0, "xxxx"));
   struct tgsi_src t = S(TEMP, 0, "xxxx");
   t.reg = sb_ind(t.reg, TGSI_FILE_ADDR, 0, 0);
   struct tgsi_src c = S(CONST, 1, "yyyy");
   c.reg = sb_ind(c.reg, TGSI_FILE_ADDR, 0, 0);
   sb_op(s, TGSI_OP_MOV, D(OUT, 0, "x"), t);
   sb_op(s, TGSI_OP_MOV, D(OUT, 1, "x"), c);
   sb_op(s, TGSI_OP_END);
   struct env *e = sb_env(TGSI_STAGE_VERT, 4, 1);
   env_set_cbuf(e, 0, 4);
   for (uint32_t i = 0; i < 16; i++)
      e->cbuf[0][i] = 100 + i;
   uint32_t idx[4] = {0, 3, 4, 0xffffffffu};
   for (uint32_t l = 0; l < 4; l++)
      sb_set_in(e, 0, 0, l, idx[l]);
   CHECK(sb_run(s, e, NULL) == TGSI_INTERP_OK);
   CHECK(out_f(e, 0, 0, 0) == 10.0f && sb_defined(e, 0, 0, 0));
   CHECK(out_f(e, 0, 0, 1) == 40.0f && sb_defined(e, 0, 0, 1));
   CHECK(!sb_defined(e, 0, 0, 2) && !sb_defined(e, 0, 0, 3));
   CHECK_EQ_U(sb_out(e, 1, 0, 0), 100 + 4 + 1); /* CONST[1].y */
   CHECK_EQ_U(sb_out(e, 1, 0, 3), 100 + 0 + 1); /* CONST[0].y */
   CHECK_EQ_U(sb_out(e, 1, 0, 1), 0);           /* CONST[4]: out of the buffer */
   CHECK(sb_defined(e, 1, 0, 1));
   CHECK(e->events[ENV_EV_REG_OOB] == 2);
   CHECK(e->events[ENV_EV_CONST_OOB] >= 2);
   env_free(e);
   tgsi_shader_free(s);
}

/* An indirect CONST read in a batch of several draws reads each lane's
 * own draw's constants; a slot out of the buffer reads 0 and counts. */
static void
test_indirect_const_draws(void)
{
   struct tgsi_shader *s = sb_new(TGSI_STAGE_VERT);
   sb_decl(s, TGSI_FILE_IN, 0, 0);
   sb_decl(s, TGSI_FILE_OUT, 0, 0);
   sb_decl(s, TGSI_FILE_ADDR, 0, 0);
   sb_decl(s, TGSI_FILE_CONST, 0, 3);
   sb_op(s, TGSI_OP_UARL, D(ADDR, 0, "x"), S(IN, 0, "xxxx"));
   struct tgsi_src c = S(CONST, 1, "yyyy");
   c.reg = sb_ind(c.reg, TGSI_FILE_ADDR, 0, 0);
   sb_op(s, TGSI_OP_MOV, D(OUT, 0, "x"), c);
   sb_op(s, TGSI_OP_END);
   enum { L = 300 };
   struct env *e = sb_env(TGSI_STAGE_VERT, L, 1);
   env_set_cbuf(e, 0, 4);
   uint16_t ld[L];
   for (uint32_t l = 0; l < L; l++)
      ld[l] = (uint16_t)(l < 64 ? 1 : l < 130 ? (l * 7) % 3 : (l / 3) % 3); /* runs of 3 */
   CHECK(env_set_draws(e, 3, ld));
   for (uint32_t i = 0; i < 3 * 16; i++)
      e->cbuf[0][i] = 1000 + i;
   unsigned oob = 0;
   for (uint32_t l = 0; l < L; l++) {
      uint32_t idx = (l * 5) % 6 - 2; /* -2 .. 3 */
      sb_set_in(e, 0, 0, l, idx);
      oob += idx + 1 > 3; /* CONST[idx + 1] beyond 0..3 */
   }
   CHECK(sb_run(s, e, NULL) == TGSI_INTERP_OK);
   for (uint32_t l = 0; l < L; l++) {
      int32_t slot = (int32_t)((l * 5) % 6) - 2 + 1;
      uint32_t want = slot >= 0 && slot < 4 ? 1000 + ld[l] * 16 + (uint32_t)slot * 4 + 1 : 0;
      CHECKF(sb_out(e, 0, 0, l) == want && sb_defined(e, 0, 0, l), "lane %u: %u against %u", l,
             sb_out(e, 0, 0, l), want);
   }
   CHECK(oob > 0 && e->events[ENV_EV_CONST_OOB] == oob);
   env_free(e);
   tgsi_shader_free(s);
}

/* An indirect CONST read whose offset plus address lies far outside the
 * buffer, or wraps a 32-bit sum: gather_const's one unsigned range
 * compare on 32-bit words against the slot computed in 64 bits (the
 * straightforward test, index + address in [0, slots)). */
static void
test_indirect_const_extremes(void)
{
   const int32_t bases[] = {0, 1, 3, 4, -1, -5, INT32_MAX, INT32_MIN, INT32_MIN + 1, 0x7ffffffd};
   const uint32_t addrs[] = {0,           1,           2,           3,
                             4,           0xffffffffu, 0xfffffffdu, 0x7fffffffu,
                             0x80000000u, 0x80000001u, 0x80000003u, 0x7ffffffcu,
                             0x7ffffffeu, 5,           0xfffffffcu, 0x12345678u};
   enum { L = 64, SLOTS = 4 };
   for (unsigned k = 0; k < ARRAY_SIZE(bases); k++) {
      struct tgsi_shader *s = sb_new(TGSI_STAGE_VERT);
      sb_decl(s, TGSI_FILE_IN, 0, 0);
      sb_decl(s, TGSI_FILE_OUT, 0, 0);
      sb_decl(s, TGSI_FILE_ADDR, 0, 0);
      sb_decl(s, TGSI_FILE_CONST, 0, SLOTS - 1);
      sb_op(s, TGSI_OP_UARL, D(ADDR, 0, "x"), S(IN, 0, "xxxx"));
      struct tgsi_src c = S(CONST, bases[k], "zzzz");
      c.reg = sb_ind(c.reg, TGSI_FILE_ADDR, 0, 0);
      sb_op(s, TGSI_OP_MOV, D(OUT, 0, "x"), c);
      sb_op(s, TGSI_OP_END);
      struct env *e = sb_env(TGSI_STAGE_VERT, L, 1);
      env_set_cbuf(e, 0, SLOTS);
      for (uint32_t i = 0; i < SLOTS * 4; i++)
         e->cbuf[0][i] = 500 + i;
      uint64_t oob = 0;
      for (uint32_t l = 0; l < L; l++) {
         uint32_t a = l < ARRAY_SIZE(addrs) ? addrs[l] : addrs[l % ARRAY_SIZE(addrs)] + l / 16;
         sb_set_in(e, 0, 0, l, a);
         int64_t slot = (int64_t)bases[k] + (int32_t)a;
         oob += !(slot >= 0 && slot < SLOTS);
      }
      CHECK(sb_run(s, e, NULL) == TGSI_INTERP_OK);
      for (uint32_t l = 0; l < L; l++) {
         uint32_t a = l < ARRAY_SIZE(addrs) ? addrs[l] : addrs[l % ARRAY_SIZE(addrs)] + l / 16;
         int64_t slot = (int64_t)bases[k] + (int32_t)a;
         uint32_t want = slot >= 0 && slot < SLOTS ? 500 + (uint32_t)slot * 4 + 2 : 0;
         CHECKF(sb_out(e, 0, 0, l) == want, "base %d, address 0x%x: %u against %u", bases[k], a,
                sb_out(e, 0, 0, l), want);
      }
      CHECK_EQ_U(e->events[ENV_EV_CONST_OOB], oob);
      env_free(e);
      tgsi_shader_free(s);
   }
}

/* A destination indirect is addressed per lane (not by the quad's first
 * lane as in tgsi_exec); a lane whose address is out of range or
 * undefined gets the whole file undefined, and only that lane. */
static void
test_dst_indirect(void)
{
   struct tgsi_shader *s = sb_new(TGSI_STAGE_VERT);
   unsigned k = sb_immf(s, 5, 0, 0, 0);
   sb_decl(s, TGSI_FILE_IN, 0, 0);
   sb_decl(s, TGSI_FILE_OUT, 0, 1);
   sb_decl(s, TGSI_FILE_TEMP, 0, 0);
   sb_decl(s, TGSI_FILE_ADDR, 0, 0);
   sb_op(s, TGSI_OP_MOV, D(OUT, 0, "xy"), S(IMM, (int)k, "yyyy"));
   sb_op(s, TGSI_OP_MOV, D(OUT, 1, "xy"), S(IMM, (int)k, "yyyy"));
   sb_op(s, TGSI_OP_UARL, D(ADDR, 0, "x"), S(IN, 0, "xxxx"));
   struct tgsi_dst d = D(OUT, 0, "x");
   d.reg = sb_ind(d.reg, TGSI_FILE_ADDR, 0, 0);
   sb_op(s, TGSI_OP_MOV, d, S(IMM, (int)k, "xxxx"));
   /* An undefined address for the lanes whose IN.y is set. */
   sb_op(s, TGSI_OP_UCMP, D(ADDR, 0, "y"), S(IN, 0, "yyyy"), S(TEMP, 0, "xxxx"), S(IN, 0, "xxxx"));
   struct tgsi_dst d2 = D(OUT, 0, "y");
   d2.reg = sb_ind(d2.reg, TGSI_FILE_ADDR, 0, 1);
   sb_op(s, TGSI_OP_MOV, d2, S(IMM, (int)k, "xxxx"));
   sb_op(s, TGSI_OP_END);
   struct env *e = sb_env(TGSI_STAGE_VERT, 8, 1);
   uint32_t idx[8] = {1, 0, 1, 1, 0, 1, 0, 2}, und[8] = {0, 0, 0, 0, 0, 0, 1, 0};
   for (uint32_t l = 0; l < 8; l++) {
      sb_set_in(e, 0, 0, l, idx[l]);
      sb_set_in(e, 0, 1, l, und[l]);
   }
   CHECK(sb_run(s, e, NULL) == TGSI_INTERP_OK);
   for (uint32_t l = 0; l < 6; l++)
      for (unsigned c = 0; c < 2; c++) {
         uint32_t reg = idx[l];
         CHECKF(out_f(e, reg, c, l) == 5.0f && sb_defined(e, reg, c, l), "lane %u", l);
         CHECKF(out_f(e, 1 - reg, c, l) == 0.0f && sb_defined(e, 1 - reg, c, l), "lane %u", l);
      }
   /* Lane 6: .x written to OUT[0], then an undefined address for .y. */
   CHECK(!sb_defined(e, 0, 0, 6) && !sb_defined(e, 1, 1, 6));
   /* Lane 7: OUT[2] is out of range. */
   CHECK(!sb_defined(e, 0, 0, 7) && !sb_defined(e, 1, 0, 7));
   CHECK(e->events[ENV_EV_REG_OOB] == 2);
   env_free(e);
   tgsi_shader_free(s);
}

/* KILL_IF kills lanes with a negative component; the kill (and the
 * lane's outputs) is undefined where an undefined or denormal component
 * could decide it, not where a defined component kills the lane anyway. */
static void
test_kill(void)
{
   struct tgsi_shader *s = sb_new(TGSI_STAGE_FRAG);
   unsigned k = sb_immf(s, 1, 0, 0, 0);
   sb_decl(s, TGSI_FILE_IN, 0, 0);
   sb_decl(s, TGSI_FILE_OUT, 0, 0);
   sb_decl(s, TGSI_FILE_TEMP, 0, 0);
   sb_op(s, TGSI_OP_SQRT, D(TEMP, 0, "x"), S(IN, 0, "xxxx"));
   sb_op(s, TGSI_OP_MOV, D(TEMP, 0, "yzw"), S(IN, 0, "yyyy"));
   sb_op(s, TGSI_OP_KILL_IF, S(TEMP, 0, "xyzw"));
   sb_op(s, TGSI_OP_MOV, D(OUT, 0, "x"), S(IMM, (int)k, "xxxx"));
   sb_op(s, TGSI_OP_END);
   struct env *e = sb_env(TGSI_STAGE_FRAG, 8, 1);
   float x[8] = {1, -1, 1, 1, -1, 1, 1, -1};
   float y[8] = {1, -1, 0x1p-140f, -0.0f, 1, -0x1p-140f, 2, 0x1p-140f};
   for (uint32_t l = 0; l < 8; l++) {
      set_f(e, 0, 0, l, x[l]);
      set_f(e, 0, 1, l, y[l]);
   }
   CHECK(sb_run(s, e, NULL) == TGSI_INTERP_OK);
   CHECK(!e->killed[0] && !e->kill_undef[0] && sb_defined(e, 0, 0, 0));
   CHECK(e->killed[1] && !e->kill_undef[1]);  /* sqrt(-1) undefined, but y = -1 kills */
   CHECK(!e->killed[2] && e->kill_undef[2]);  /* a denormal may flush */
   CHECK(!e->killed[3] && !e->kill_undef[3]); /* -0.0 does not kill */
   CHECK(!e->killed[4] && e->kill_undef[4]);  /* only sqrt(-1) decides */
   CHECK(e->killed[5] && e->kill_undef[5]);   /* a negative denormal may flush to -0 */
   CHECK(!e->killed[6] && !e->kill_undef[6] && sb_defined(e, 0, 0, 6));
   CHECK(!e->killed[7] && e->kill_undef[7]);
   CHECK(!sb_defined(e, 0, 0, 2) && !sb_defined(e, 0, 0, 4));
   env_free(e);
   tgsi_shader_free(s);
}

/* Derivatives over 2x2 quads: coarse and fine. */
static void
test_derivatives(void)
{
   struct tgsi_shader *s = sb_new(TGSI_STAGE_FRAG);
   sb_decl(s, TGSI_FILE_IN, 0, 0);
   sb_decl(s, TGSI_FILE_OUT, 0, 1);
   sb_op(s, TGSI_OP_DDX, D(OUT, 0, "x"), S(IN, 0, "xxxx"));
   sb_op(s, TGSI_OP_DDY, D(OUT, 0, "y"), S(IN, 0, "xxxx"));
   sb_op(s, TGSI_OP_DDX_FINE, D(OUT, 0, "z"), S(IN, 0, "xxxx"));
   sb_op(s, TGSI_OP_DDY_FINE, D(OUT, 0, "w"), S(IN, 0, "xxxx"));
   sb_op(s, TGSI_OP_IF, S(IN, 0, "yyyy"));
   sb_op(s, TGSI_OP_DDX_FINE, D(OUT, 1, "x"), S(IN, 0, "xxxx"));
   sb_op(s, TGSI_OP_ENDIF);
   sb_op(s, TGSI_OP_END);
   struct env *e = sb_env(TGSI_STAGE_FRAG, 8, 1);
   /* quad 0: TL 1, TR 3, BL 10, BR 30; quad 1: all 2, one lane inactive */
   float v[8] = {1, 3, 10, 30, 2, 2, 2, 2};
   for (uint32_t l = 0; l < 8; l++) {
      set_f(e, 0, 0, l, v[l]);
      set_f(e, 0, 1, l, l == 6 ? 0.0f : 1.0f);
   }
   CHECK(sb_run(s, e, NULL) == TGSI_INTERP_OK);
   float ddx_fine[4] = {2, 2, 20, 20}, ddy_fine[4] = {9, 27, 9, 27};
   for (uint32_t l = 0; l < 4; l++) {
      CHECK(out_f(e, 0, 0, l) == 20.0f); /* BR - BL */
      CHECK(out_f(e, 0, 1, l) == 9.0f);  /* BL - TL */
      CHECK(out_f(e, 0, 2, l) == ddx_fine[l]);
      CHECK(out_f(e, 0, 3, l) == ddy_fine[l]);
      CHECK(sb_defined(e, 0, 0, l) && sb_defined(e, 0, 2, l));
      CHECK(sb_outf(e, 0, 0, l) & ENV_F_DERIV);
      CHECK(!(sb_outf(e, 0, 2, l) & ENV_F_DERIV));
      CHECK(sb_defined(e, 1, 0, l));
   }
   for (uint32_t l = 4; l < 8; l++)
      CHECK(l == 6 || !sb_defined(e, 1, 0, l)); /* non-uniform control flow */
   env_free(e);
   /* Outside fragment shaders derivatives are undefined. */
   s->stage = TGSI_STAGE_VERT;
   e = sb_env(TGSI_STAGE_VERT, 4, 1);
   CHECK(sb_run(s, e, NULL) == TGSI_INTERP_OK);
   CHECK(!sb_defined(e, 0, 0, 0));
   env_free(e);
   tgsi_shader_free(s);
}

/* Subgroups of 32 lanes: votes, ballot, read first / invocation. */
static void
test_subgroups(void)
{
   struct tgsi_shader *s = sb_new(TGSI_STAGE_COMP);
   sb_decl(s, TGSI_FILE_IN, 0, 0);
   sb_decl(s, TGSI_FILE_OUT, 0, 1);
   sb_op(s, TGSI_OP_VOTE_ANY, D(OUT, 0, "x"), S(IN, 0, "xxxx"));
   sb_op(s, TGSI_OP_VOTE_ALL, D(OUT, 0, "y"), S(IN, 0, "xxxx"));
   sb_op(s, TGSI_OP_BALLOT, D(OUT, 0, "zw"), S(IN, 0, "xxxx"));
   sb_op(s, TGSI_OP_READ_FIRST, D(OUT, 1, "x"), S(IN, 0, "yyyy"));
   sb_op(s, TGSI_OP_READ_INVOC, D(OUT, 1, "y"), S(IN, 0, "yyyy"), S(IN, 0, "zzzz"));
   sb_op(s, TGSI_OP_END);
   struct env *e = sb_env(TGSI_STAGE_COMP, 64, 1);
   e->block_size[0] = 64;
   for (uint32_t l = 0; l < 64; l++) {
      sb_set_in(e, 0, 0, l, l < 32 ? (l == 3 || l == 7) : 1);
      sb_set_in(e, 0, 1, l, 1000 + l);
      sb_set_in(e, 0, 2, l, l < 32 ? 5 : 40);
   }
   CHECK(sb_run(s, e, NULL) == TGSI_INTERP_OK);
   CHECK_EQ_U(sb_out(e, 0, 0, 0), 0xffffffffu);
   CHECK_EQ_U(sb_out(e, 0, 1, 0), 0);
   CHECK_EQ_U(sb_out(e, 0, 1, 40), 0xffffffffu);
   CHECK_EQ_U(sb_out(e, 0, 2, 10), (1u << 3) | (1u << 7));
   CHECK_EQ_U(sb_out(e, 0, 3, 10), 0);
   CHECK_EQ_U(sb_out(e, 0, 2, 33), 0xffffffffu);
   CHECK_EQ_U(sb_out(e, 1, 0, 31), 1000);
   CHECK_EQ_U(sb_out(e, 1, 0, 32), 1032);
   CHECK_EQ_U(sb_out(e, 1, 1, 9), 1005);
   CHECK(sb_defined(e, 1, 1, 9));
   CHECK(!sb_defined(e, 1, 1, 40)); /* index 40 is outside a 32-lane subgroup */
   env_free(e);
   tgsi_shader_free(s);
}

/* Shared memory: ordered across a BARRIER, a race without one. */
static void
test_shared_barrier(bool barrier)
{
   struct tgsi_shader *s = sb_new(TGSI_STAGE_COMP);
   unsigned k = sb_imm(s, 4, 1, 31, 0);
   sb_decl_sv(s, 0, TGSI_SEM_THREAD_ID);
   struct tgsi_decl *m = sb_decl(s, TGSI_FILE_MEMORY, 0, 0);
   m->has_mem_type = true;
   m->mem_type = TGSI_MEMTYPE_SHARED;
   sb_decl(s, TGSI_FILE_OUT, 0, 0);
   sb_decl(s, TGSI_FILE_TEMP, 0, 0);
   sb_op(s, TGSI_OP_UMUL, D(TEMP, 0, "x"), S(SV, 0, "xxxx"), S(IMM, (int)k, "xxxx"));
   struct tgsi_dst md = D(MEMORY, 0, "x");
   sb_op(s, TGSI_OP_STORE, md, S(TEMP, 0, "xxxx"), S(SV, 0, "xxxx"));
   if (barrier)
      sb_op(s, TGSI_OP_BARRIER);
   sb_op(s, TGSI_OP_UADD, D(TEMP, 0, "y"), S(SV, 0, "xxxx"), S(IMM, (int)k, "yyyy"));
   sb_op(s, TGSI_OP_AND, D(TEMP, 0, "y"), S(TEMP, 0, "yyyy"), S(IMM, (int)k, "zzzz"));
   sb_op(s, TGSI_OP_UMUL, D(TEMP, 0, "y"), S(TEMP, 0, "yyyy"), S(IMM, (int)k, "xxxx"));
   sb_op(s, TGSI_OP_LOAD, D(OUT, 0, "x"), S(MEMORY, 0, "xxxx"), S(TEMP, 0, "yyyy"));
   sb_op(s, TGSI_OP_END);
   struct env *e = sb_env(TGSI_STAGE_COMP, 64, 0);
   e->block_size[0] = 32;
   uint32_t *tid = env_sv(e, TGSI_SEM_THREAD_ID);
   for (uint32_t l = 0; l < 64; l++)
      tid[l] = l % 32;
   CHECK(sb_run(s, e, NULL) == TGSI_INTERP_OK);
   for (uint32_t l = 0; l < 64; l++) {
      CHECK_EQ_U(sb_out(e, 0, 0, l), (l + 1) % 32);
      CHECK(sb_defined(e, 0, 0, l) == barrier);
   }
   env_free(e);
   tgsi_shader_free(s);
}

/* Buffer atomics: the commutative sum is defined; the values returned to
 * lanes that hit the same word are not, the first lane's included (another
 * order would give it another value); out-of-bounds accesses count events
 * and never crash. */
static void
test_buffer_atomics(void)
{
   struct tgsi_shader *s = sb_new(TGSI_STAGE_FRAG);
   unsigned k = sb_imm(s, 0, 1, 4096, 8);
   sb_decl(s, TGSI_FILE_BUFFER, 0, 0);
   sb_decl(s, TGSI_FILE_OUT, 0, 1);
   sb_op(s, TGSI_OP_ATOMUADD, D(OUT, 0, "x"), S(BUFFER, 0, "xxxx"), S(IMM, (int)k, "xxxx"),
         S(IMM, (int)k, "yyyy"));
   sb_op(s, TGSI_OP_LOAD, D(OUT, 1, "x"), S(BUFFER, 0, "xxxx"), S(IMM, (int)k, "zzzz"));
   sb_op(s, TGSI_OP_STORE, D(BUFFER, 0, "xy"), S(IMM, (int)k, "zzzz"), S(IMM, (int)k, "xxxx"));
   sb_op(s, TGSI_OP_ATOMXCHG, D(OUT, 1, "y"), S(BUFFER, 0, "xxxx"), S(IMM, (int)k, "wwww"),
         S(IMM, (int)k, "yyyy"));
   sb_op(s, TGSI_OP_END);
   struct env *e = sb_env(TGSI_STAGE_FRAG, 8, 0);
   env_set_buffer(e, 0, 64);
   uint32_t w0 = 40;
   memcpy(e->buf[0].data, &w0, 4);
   CHECK(sb_run(s, e, NULL) == TGSI_INTERP_OK);
   uint32_t sum;
   memcpy(&sum, e->buf[0].data, 4);
   CHECK_EQ_U(sum, 48);
   CHECK(!e->buf[0].undef[0]);
   CHECK_EQ_U(sb_out(e, 0, 0, 0), 40);
   CHECK(!sb_defined(e, 0, 0, 0)); /* order-dependent */
   CHECK(!sb_defined(e, 0, 0, 5));
   CHECK(!sb_defined(e, 1, 0, 0) && sb_out(e, 1, 0, 0) == 0); /* load out of bounds */
   CHECK(e->events[ENV_EV_BUFFER_OOB] == 16);
   CHECK(e->buf[0].undef[8]); /* concurrent exchanges */
   env_free(e);
   tgsi_shader_free(s);
}

/* Sampling is a pure function of the seed; TXF bounds-checks. */
static void
test_texture(void)
{
   struct tgsi_shader *s = sb_new(TGSI_STAGE_FRAG);
   sb_decl(s, TGSI_FILE_IN, 0, 1);
   sb_decl(s, TGSI_FILE_SAMP, 0, 0);
   sb_decl(s, TGSI_FILE_OUT, 0, 1);
   struct tgsi_insn *in =
       sb_op(s, TGSI_OP_TEX, D(OUT, 0, "xyzw"), S(IN, 0, "xyzw"), S(SAMP, 0, "xyzw"));
   in->tex_target = TGSI_TEX_T_2D;
   in = sb_op(s, TGSI_OP_TXF, D(OUT, 1, "xyzw"), S(IN, 1, "xyzw"), S(SAMP, 0, "xyzw"));
   in->tex_target = TGSI_TEX_T_2D;
   sb_op(s, TGSI_OP_END);
   struct env_texture t = {.target = TGSI_TEX_T_2D,
                           .ret = TGSI_RET_FLOAT,
                           .width = 8,
                           .height = 4,
                           .depth = 1,
                           .levels = 4,
                           .seed = 1234};
   uint32_t r1[4][4] = {{0}};
   for (int run = 0; run < 2; run++) {
      struct env *e = sb_env(TGSI_STAGE_FRAG, 4, 2);
      CHECK(env_set_texture(e, 0, &t));
      float st[4][2] = {{0.1f, 0.1f}, {0.99f, 0.6f}, {-3.0f, 7.0f}, {0.5f, 0.5f}};
      int32_t xy[4][3] = {{0, 0, 0}, {7, 3, 0}, {8, 0, 0}, {1, 1, 1}};
      for (uint32_t l = 0; l < 4; l++) {
         set_f(e, 0, 0, l, st[l][0]);
         set_f(e, 0, 1, l, st[l][1]);
         for (unsigned c = 0; c < 3; c++)
            sb_set_in(e, 1, c == 2 ? 3 : c, l, (uint32_t)xy[l][c]);
      }
      CHECK(sb_run(s, e, NULL) == TGSI_INTERP_OK);
      uint32_t want[4];
      env_texel(e, 0, 0, 0, 0, 0, want); /* (0.1 * 8, 0.1 * 4) -> texel (0, 0) */
      CHECK(sb_out(e, 0, 0, 0) == want[0] && sb_out(e, 0, 3, 0) == want[3]);
      env_texel(e, 0, 7, 2, 0, 0, want); /* (7.92, 2.4) */
      CHECK(sb_out(e, 0, 1, 1) == want[1]);
      env_texel(e, 0, 0, 3, 0, 0, want); /* clamped to the edge */
      CHECK(sb_out(e, 0, 2, 2) == want[2]);
      env_texel(e, 0, 7, 3, 0, 0, want);
      CHECK(sb_out(e, 1, 0, 1) == want[0] && sb_defined(e, 1, 0, 1));
      CHECK(!sb_defined(e, 1, 0, 2)); /* x = 8 is out of range */
      env_texel(e, 0, 1, 1, 0, 1, want);
      CHECK(sb_out(e, 1, 1, 3) == want[1]); /* level 1 */
      CHECK(e->events[ENV_EV_TEXEL_OOB] == 1);
      for (uint32_t l = 0; l < 4; l++)
         for (unsigned c = 0; c < 4; c++) {
            if (run)
               CHECK(r1[l][c] == sb_out(e, 0, c, l));
            r1[l][c] = sb_out(e, 0, c, l);
         }
      env_free(e);
   }
   tgsi_shader_free(s);
}

/* GS: EMIT copies the outputs, ENDPRIM numbers primitives. */
static void
test_gs(void)
{
   struct tgsi_shader *s = sb_new(TGSI_STAGE_GEOM);
   unsigned k = sb_imm(s, 0, 0, 0, 0);
   sb_prop(s, TGSI_PROP_GS_INPUT_PRIMITIVE, TGSI_PRIM_POINTS);
   sb_prop(s, TGSI_PROP_GS_MAX_OUTPUT_VERTICES, 2);
   sb_decl(s, TGSI_FILE_IN, 0, 0);
   sb_decl(s, TGSI_FILE_OUT, 0, 0);
   sb_op(s, TGSI_OP_MOV, D(OUT, 0, "xyzw"), S(IN, 0, "xyzw"));
   sb_op(s, TGSI_OP_EMIT, S(IMM, (int)k, "xxxx"));
   sb_op(s, TGSI_OP_ENDPRIM, S(IMM, (int)k, "xxxx"));
   sb_op(s, TGSI_OP_MOV, D(OUT, 0, "x"), S(IN, 0, "yyyy"));
   sb_op(s, TGSI_OP_EMIT, S(IMM, (int)k, "xxxx"));
   sb_op(s, TGSI_OP_EMIT, S(IMM, (int)k, "xxxx"));
   sb_op(s, TGSI_OP_END);
   struct env *e = sb_env(TGSI_STAGE_GEOM, 2, 1);
   for (uint32_t l = 0; l < 2; l++)
      for (unsigned c = 0; c < 4; c++)
         sb_set_in(e, 0, c, l, 10 * l + c);
   CHECK(sb_run(s, e, NULL) == TGSI_INTERP_OK);
   CHECK(e->gs_count[0] == 2 && e->gs_count[1] == 2);
   CHECK(e->events[ENV_EV_GS_OVERFLOW] == 2);
   const uint32_t *v = e->gs_data + (size_t)(1 * 2 + 0) * 4; /* lane 1, vertex 0 */
   CHECK(v[0] == 10 && v[3] == 13 && !(e->gs_flags[(1 * 2) * 4] & ENV_F_UNDEF));
   v = e->gs_data + (size_t)(1 * 2 + 1) * 4;
   CHECK(v[0] == 11);
   CHECK(e->gs_flags[(1 * 2 + 1) * 4 + 3] & ENV_F_UNDEF); /* .w not rewritten after EMIT */
   CHECK(e->gs_prim[0] == 0 && e->gs_prim[1] == 1);
   env_free(e);
   tgsi_shader_free(s);
}

/* Refusals name the opcode and the line; malformed nesting is invalid. */
static void
test_refusals(void)
{
   struct tgsi_shader *s = sb_new(TGSI_STAGE_FRAG);
   sb_decl(s, TGSI_FILE_OUT, 0, 0);
   sb_op(s, TGSI_OP_NOP);
   sb_op(s, TGSI_OP_CLOCK, D(OUT, 0, "xy"));
   sb_op(s, TGSI_OP_END);
   struct env *e = sb_env(TGSI_STAGE_FRAG, 4, 1);
   struct diag_list d = {0};
   CHECK(tgsi_interp_run(s, e, NULL, &d) == TGSI_INTERP_UNSUPPORTED);
   CHECK(d.n == 1 && d.v[0].line == 2 && strstr(d.v[0].msg, "CLOCK"));
   CHECK(!tgsi_interp_supports(TGSI_OP_CLOCK) && tgsi_interp_supports(TGSI_OP_UMAD));
   diag_clear(&d);
   tgsi_shader_free(s);

   s = sb_new(TGSI_STAGE_FRAG);
   sb_decl(s, TGSI_FILE_OUT, 0, 0);
   sb_op(s, TGSI_OP_UADD, D(OUT, 0, "x"), sb_abs(S(OUT, 0, "xxxx")), S(OUT, 0, "xxxx"));
   sb_op(s, TGSI_OP_END);
   CHECK(tgsi_interp_run(s, e, NULL, &d) == TGSI_INTERP_UNSUPPORTED);
   diag_clear(&d);
   tgsi_shader_free(s);

   s = sb_new(TGSI_STAGE_FRAG);
   sb_op(s, TGSI_OP_ENDIF);
   sb_op(s, TGSI_OP_END);
   CHECK(tgsi_interp_run(s, e, NULL, &d) == TGSI_INTERP_INVALID);
   CHECK(d.nerrors == 1 && strstr(diag_first_error(&d), "ENDIF"));
   diag_clear(&d);
   tgsi_shader_free(s);

   s = sb_new(TGSI_STAGE_FRAG);
   sb_op(s, TGSI_OP_BGNLOOP);
   sb_op(s, TGSI_OP_END);
   CHECK(tgsi_interp_run(s, e, NULL, &d) == TGSI_INTERP_INVALID);
   diag_clear(&d);
   tgsi_shader_free(s);

   /* Recursion is refused before running. */
   s = sb_new(TGSI_STAGE_FRAG);
   sb_cal(s, 2);
   sb_op(s, TGSI_OP_END);
   sb_op(s, TGSI_OP_BGNSUB);
   sb_cal(s, 2);
   sb_op(s, TGSI_OP_ENDSUB);
   CHECK(tgsi_interp_run(s, e, NULL, &d) == TGSI_INTERP_INVALID);
   diag_clear(&d);
   tgsi_shader_free(s);
   env_free(e);
}

/* Results never depend on the batch size. */
static void
test_batch_independence(void)
{
   struct tgsi_shader *s = sb_new(TGSI_STAGE_FRAG);
   sb_decl(s, TGSI_FILE_IN, 0, 0);
   sb_decl(s, TGSI_FILE_OUT, 0, 0);
   sb_op(s, TGSI_OP_DDX_FINE, D(OUT, 0, "x"), S(IN, 0, "xxxx"));
   sb_op(s, TGSI_OP_VOTE_ANY, D(OUT, 0, "y"), S(IN, 0, "xxxx"));
   sb_op(s, TGSI_OP_MUL, D(OUT, 0, "z"), S(IN, 0, "xxxx"), S(IN, 0, "yyyy"));
   sb_op(s, TGSI_OP_END);
   struct env *a = sb_env(TGSI_STAGE_FRAG, 1000, 1), *b;
   struct rng r;
   rng_seed(&r, 7);
   for (uint32_t l = 0; l < 1000; l++)
      for (unsigned c = 0; c < 2; c++)
         sb_set_in(a, 0, c, l, rng_below(&r, 4) == 0 ? 0 : rng_u32(&r));
   b = env_clone(a);
   struct tgsi_interp_opts o1 = {.batch = 32}, o2 = {.batch = 512};
   CHECK(sb_run(s, a, &o1) == TGSI_INTERP_OK && sb_run(s, b, &o2) == TGSI_INTERP_OK);
   size_t n = (size_t)4 * 1000;
   CHECK(!memcmp(a->out, b->out, n * 4) && !memcmp(a->out_flags, b->out_flags, n * 2));
   env_free(a);
   env_free(b);
   tgsi_shader_free(s);
}

int
main(void)
{
   test_undefined_temp();
   test_idiv_lanes();
   test_if_else();
   test_loop_brk_cont();
   test_switch();
   test_subroutine();
   test_budget();
   test_budget_unrun_lanes();
   test_undefined_control();
   test_select_flags();
   test_indirect();
   test_indirect_const_draws();
   test_indirect_const_extremes();
   test_dst_indirect();
   test_kill();
   test_derivatives();
   test_subgroups();
   test_shared_barrier(true);
   test_shared_barrier(false);
   test_buffer_atomics();
   test_texture();
   test_gs();
   test_refusals();
   test_batch_independence();
   return test_done();
}
