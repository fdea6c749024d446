/*
 * The random shader generator's control flow: IF/UIF with and without
 * ELSE, counted loops (trip counts fixed or per lane), conditional BRK and
 * CONT (also two IFs deep), SWITCH with shared bodies and fall-through
 * (also inside loops, where a case may CONT), and the one KILL_IF of a
 * fragment shader.
 *
 * Shapes built on purpose because optimizers get them wrong:
 *   - `IF c {...} ELSE {BRK}` and `IF c {BRK} ELSE {...}` directly in a
 *     loop body: on stack models (sm50) a break alone in an arm of such an
 *     if becomes a guarded jump, negated (@!P0) for the ELSE arm;
 *   - a break two IFs deep, followed by the KILL_IF in the outer arm;
 *   - CONT in nested IFs and inside a SWITCH in a loop;
 *   - two or three conditional exits in a row with statements between (a
 *     continue, then a break whose rest holds another jump): lowering them
 *     on sm50 moves each rest into an arm or under a guard, in turn;
 *   - conditions through NOT or an inverted compare (predicates read
 *     negated).
 * Termination: every loop is counted (gen.c); a per-lane trip count is
 * the top three bits (two when nested) of a data value times a Fibonacci
 * hashing constant, computed once before the loop (the counter's .z), so
 * the body cannot change it. The low bits of data values agree across
 * lanes too often (small integers, short mantissas, a 64-bit high word):
 * taken as the count they left one loop in six without an iteration on
 * any lane.
 */
#include "diff/gen_priv.h"

#include <stdio.h>

bool
gen_stmt_kill(struct gen *g)
{
   /* one per shader: killed lanes have no outputs to compare */
   if (g->stage != TGSI_STAGE_FRAG || g->killed || !gen_ok(g, TGSI_OP_KILL_IF) ||
       !gen_ok(g, TGSI_OP_FRC) || !gen_ok(g, TGSI_OP_ADD) || !gen_ok(g, TGSI_OP_MAD))
      return false;
   g->killed = true;
   /* kills about a quarter of the lanes: 0.75 - frac(0.37 x + 0.1) < 0,
    * with x varying per lane (a uniform x would kill all lanes or none);
    * the scale keeps it from killing every lane when the inputs are small
    * integers (the input generator makes them so when x also feeds an
    * address or a loop exit), and huge or NaN x (frac 0 or NaN) live */
   struct opnd s = {0}, q = {0}, a = {0}, b = {0};
   gen_input_src(g, &s);
   gen_imm_f(g, "0.37", &a);
   gen_imm_f(g, "0.1", &b);
   gen_imm_f(g, "0.75", &q);
   gen_emit(g, "MAD TEMP[%u].x, %s, %s, %s", g->t_scr, s.s, a.s, b.s);
   gen_emit(g, "FRC TEMP[%u].x, TEMP[%u].xxxx", g->t_scr, g->t_scr);
   gen_emit(g, "ADD TEMP[%u].x, -TEMP[%u].xxxx, %s", g->t_scr, g->t_scr, q.s);
   /* a store just before and one just after: a killed lane makes the
    * first and not the second */
   bool around = g->mem && gen_chance(g, 60);
   if (around)
      gen_mem_store_slot(g);
   gen_emit(g, "KILL_IF TEMP[%u].xxxx", g->t_scr);
   if (around)
      gen_mem_store_slot(g);
   return true;
}

/* IF on a float channel, UIF on an integer one, or a compare first. */
bool
gen_emit_cond(struct gen *g)
{
   struct opnd s = {0};
   char sw[6];
   /* A raw float condition is rare: a denormal one makes the interpreter
    * treat the region's writes as undefined. */
   unsigned kind = gen_pick(g, 8);
   if (kind == 0 && gen_ok(g, TGSI_OP_IF)) {
      int r = gen_pick_temp_exact(g, GT_F); /* IF steps at 0 */
      if (r < 0)
         return false;
      gen_emit(g, "IF TEMP[%u]%s", (unsigned)r,
               gen_scalar_swz(g, gen_chans_exact(g, (unsigned)r, GT_F), sw));
      return true;
   }
   if (kind <= 3 && gen_ok(g, TGSI_OP_UIF)) {
      int r = gen_pick_temp_exact(g, GT_I);
      if (r < 0)
         return false;
      gen_emit(g, "UIF TEMP[%u]%s", (unsigned)r,
               gen_scalar_swz(g, gen_chans_exact(g, (unsigned)r, GT_I), sw));
      return true;
   }
   static const enum tgsi_opcode cmps[] = {TGSI_OP_SLT,  TGSI_OP_SGE,  TGSI_OP_SNE,
                                           TGSI_OP_ISLT, TGSI_OP_USGE, TGSI_OP_USNE};
   unsigned k = gen_pick(g, ARRAY_SIZE(cmps));
   bool fl = k < 3;
   if (!gen_ok(g, cmps[k]) || !gen_ok(g, fl ? TGSI_OP_IF : TGSI_OP_UIF))
      return false;
   struct opnd b = {0};
   if (fl) {
      gen_src_exact(g, &s);
      gen_src_exact(g, &b);
   } else {
      gen_src_any(g, GT_I, &s);
      gen_src_any(g, GT_I, &b);
   }
   gen_emit(g, "%s TEMP[%u].x, %s, %s", tgsi_op_info[cmps[k]].name, g->t_scr, s.s, b.s);
   /* A negated condition (the compiler may fold the NOT into the
    * predicate's sense): integer masks through NOT, float 1.0/0.0 through
    * an equality with 0. */
   if (gen_chance(g, 25)) {
      struct opnd z = {0};
      if (!fl && gen_ok(g, TGSI_OP_NOT)) {
         gen_emit(g, "NOT TEMP[%u].x, TEMP[%u].xxxx", g->t_scr, g->t_scr);
      } else if (fl && gen_ok(g, TGSI_OP_SEQ)) {
         gen_imm_f(g, "0", &z);
         gen_emit(g, "SEQ TEMP[%u].x, TEMP[%u].xxxx, %s", g->t_scr, g->t_scr, z.s);
      }
   }
   gen_emit(g, "%s TEMP[%u].xxxx", fl ? "IF" : "UIF", g->t_scr);
   return true;
}

bool
gen_stmt_if(struct gen *g, unsigned budget, enum gctx ctx)
{
   if (!gen_ok(g, TGSI_OP_ENDIF) || !gen_emit_cond(g))
      return false;
   g->depth++;
   unsigned then = 1 + gen_pick(g, budget / 2 + 1);
   gen_block(g, then, ctx);
   if (gen_ok(g, TGSI_OP_ELSE) && gen_chance(g, 40)) {
      g->depth--;
      gen_emit(g, "ELSE");
      g->depth++;
      gen_block(g, 1 + gen_pick(g, budget / 3 + 1), ctx);
   }
   g->depth--;
   gen_emit(g, "ENDIF");
   return true;
}

/* `IF c {body} ELSE {BRK}` (or the arms the other way round) directly in
 * a loop body: lanes leave from an arm of an if at the top of the loop. */
static bool
loop_top_break(struct gen *g, unsigned budget)
{
   if (!gen_ok(g, TGSI_OP_ELSE) || !gen_emit_cond(g))
      return false;
   bool brk_first = gen_chance(g, 35);
   g->depth++;
   if (brk_first)
      gen_emit(g, "BRK");
   else
      gen_block(g, 1 + gen_pick(g, budget / 2 + 1), CTX_LOOP);
   g->depth--;
   gen_emit(g, "ELSE");
   g->depth++;
   if (brk_first)
      gen_block(g, 1 + gen_pick(g, budget / 2 + 1), CTX_LOOP);
   else
      gen_emit(g, "BRK");
   g->depth--;
   gen_emit(g, "ENDIF");
   return true;
}

/* A counted loop; see the file comment. */
bool
gen_stmt_loop(struct gen *g, unsigned budget)
{
   static const enum tgsi_opcode need[] = {TGSI_OP_BGNLOOP, TGSI_OP_ENDLOOP, TGSI_OP_BRK,
                                           TGSI_OP_USGE,    TGSI_OP_UIF,     TGSI_OP_ENDIF,
                                           TGSI_OP_UADD,    TGSI_OP_MOV,     TGSI_OP_AND};
   for (unsigned i = 0; i < ARRAY_SIZE(need); i++)
      if (!gen_ok(g, need[i]))
         return false;
   if (g->loop_depth >= GEN_MAX_LOOPS)
      return false;
   unsigned c = g->t_loop + g->loop_depth;
   unsigned limit = 1 + gen_pick(g, g->loop_depth ? 3 : 6);
   struct opnd zero = {0}, lim = {0}, one = {0};
   gen_imm_u(g, 0, &zero);
   gen_imm_u(g, 1, &one);
   char lim_s[sizeof(((struct opnd *)0)->s)];
   if (gen_chance(g, 30)) {
      /* per-lane trip count: an exact integer of the lane, in [0, 7] */
      struct opnd v = {0}, m = {0};
      gen_src_plain(g, GT_I, &v);
      if (gen_ok(g, TGSI_OP_UMUL) && gen_ok(g, TGSI_OP_USHR)) {
         gen_imm_u(g, 0x9e3779b1u, &m);
         gen_emit(g, "UMUL TEMP[%u].z, %s, %s", c, v.s, m.s);
         gen_imm_u(g, g->loop_depth ? 30 : 29, &m);
         gen_emit(g, "USHR TEMP[%u].z, TEMP[%u].zzzz, %s", c, c, m.s);
      } else {
         gen_imm_u(g, g->loop_depth ? 3 : 7, &m);
         gen_emit(g, "AND TEMP[%u].z, %s, %s", c, v.s, m.s);
      }
      snprintf(lim_s, sizeof(lim_s), "TEMP[%u].zzzz", c);
   } else {
      gen_imm_u(g, limit, &lim);
      snprintf(lim_s, sizeof(lim_s), "%s", lim.s);
   }
   gen_emit(g, "MOV TEMP[%u].x, %s", c, zero.s);
   gen_emit(g, "BGNLOOP");
   g->depth++;
   gen_emit(g, "USGE TEMP[%u].y, TEMP[%u].xxxx, %s", c, c, lim_s);
   gen_emit(g, "UIF TEMP[%u].yyyy", c);
   gen_emit(g, "  BRK");
   gen_emit(g, "ENDIF");
   gen_emit(g, "UADD TEMP[%u].x, TEMP[%u].xxxx, %s", c, c, one.s);
   /* A later iteration reads what the body writes after the read: a
    * float channel may turn inexact further down, so none counts as exact
    * in the body (only writes at depth 0 make a channel exact again). */
   for (unsigned r = 0; r < g->ntemp; r++)
      g->inexact[r] |= gen_chans_of(g, r, GT_F) | gen_chans_of(g, r, GT_D);
   gen_mem_loop_entry(g);
   g->loop_depth++;
   unsigned body = 1 + gen_pick(g, budget / 2 + 1);
   if (gen_chance(g, 20))
      loop_top_break(g, body);
   gen_block(g, body, CTX_LOOP);
   if (gen_chance(g, 25)) /* exits in a row: each one's rest holds the next */
      for (unsigned k = 2 + gen_pick(g, 2); k--;)
         if (gen_stmt_brk(g, CTX_LOOP))
            gen_block(g, 1 + gen_pick(g, 2), CTX_LOOP);
   g->loop_depth--;
   g->depth--;
   gen_emit(g, "ENDLOOP");
   return true;
}

/* A conditional BRK or CONT of the innermost loop; one time in four two
 * IFs deep, with statements around the inner IF, and in a fragment
 * shader a BRK there may be followed by the KILL_IF in the outer arm. */
bool
gen_stmt_brk(struct gen *g, enum gctx ctx)
{
   enum tgsi_opcode op = gen_chance(g, 50) ? TGSI_OP_BRK : TGSI_OP_CONT;
   if (ctx != CTX_LOOP || !gen_ok(g, op) || !gen_ok(g, TGSI_OP_ENDIF))
      return false;
   bool nested = g->depth + 2 < GEN_MAX_DEPTH && gen_chance(g, 25);
   if (nested) {
      if (!gen_emit_cond(g))
         return false;
      g->depth++;
      gen_block(g, 1 + gen_pick(g, 3), ctx);
   }
   if (!gen_emit_cond(g)) {
      if (!nested)
         return false;
      gen_emit(g, "UIF TEMP[%u].xxxx", g->t_loop + g->loop_depth - 1); /* the counter */
   }
   g->depth++;
   if (nested && gen_chance(g, 50))
      gen_block(g, 1 + gen_pick(g, 3), ctx);
   gen_emit(g, "%s", tgsi_op_info[op].name);
   g->depth--;
   gen_emit(g, "ENDIF");
   if (nested) {
      if (op != TGSI_OP_BRK || !gen_stmt_kill(g))
         gen_block(g, 1 + gen_pick(g, 2), ctx);
      g->depth--;
      gen_emit(g, "ENDIF");
   }
   return true;
}

/* In a loop (ctx CTX_LOOP) a case falls through more often and may CONT
 * the loop from inside the switch. */
bool
gen_stmt_switch(struct gen *g, unsigned budget, enum gctx ctx)
{
   static const enum tgsi_opcode need[] = {TGSI_OP_SWITCH,    TGSI_OP_CASE, TGSI_OP_DEFAULT,
                                           TGSI_OP_ENDSWITCH, TGSI_OP_BRK,  TGSI_OP_AND};
   for (unsigned i = 0; i < ARRAY_SIZE(need); i++)
      if (!gen_ok(g, need[i]))
         return false;
   struct opnd s = {0}, three = {0}, cv = {0};
   gen_src_plain(g, GT_I, &s);
   gen_imm_u(g, 3, &three);
   gen_emit(g, "AND TEMP[%u].x, %s, %s", g->t_scr, s.s, three.s);
   gen_emit(g, "SWITCH TEMP[%u].xxxx", g->t_scr);
   unsigned vals[4] = {0, 1, 2, 3}, ncase = 1 + gen_pick(g, 4);
   for (unsigned i = 3; i > 0; i--) {
      unsigned j = gen_pick(g, i + 1), t = vals[i];
      vals[i] = vals[j];
      vals[j] = t;
   }
   bool dflt = gen_chance(g, 60);
   unsigned each = budget / (ncase + 1) + 1;
   for (unsigned i = 0; i < ncase; i++) {
      bool last = i + 1 == ncase && !dflt;
      gen_imm_u(g, vals[i], &cv);
      gen_emit(g, "CASE %s", cv.s);
      if (!last && gen_chance(g, 20))
         continue; /* shares the next case's body */
      g->depth++;
      gen_block(g, 1 + gen_pick(g, each), CTX_SWITCH);
      if (ctx == CTX_LOOP && gen_ok(g, TGSI_OP_CONT) && gen_chance(g, 25) && gen_emit_cond(g)) {
         g->depth++;
         gen_emit(g, "CONT");
         g->depth--;
         gen_emit(g, "ENDIF");
      }
      if (last || !gen_chance(g, ctx == CTX_LOOP ? 35 : 15)) /* else falls through */
         gen_emit(g, "BRK");
      g->depth--;
   }
   if (dflt) {
      gen_emit(g, "DEFAULT");
      g->depth++;
      gen_block(g, 1 + gen_pick(g, each), CTX_SWITCH);
      gen_emit(g, "BRK");
      g->depth--;
   }
   gen_emit(g, "ENDSWITCH");
   return true;
}
