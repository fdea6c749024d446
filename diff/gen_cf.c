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
 *   - both arms of such an if doing work and then ending in BRK, CONT or
 *     nothing (`{a; CONT} ELSE {b; BRK}`);
 *   - a break two IFs deep, followed by the KILL_IF in the outer arm;
 *   - CONT in nested IFs and inside a SWITCH in a loop;
 *   - two or three conditional exits in a row with statements between (a
 *     continue, then a break whose rest holds another jump): lowering them
 *     on sm50 moves each rest into an arm or under a guard, in turn;
 *   - conditions through NOT or an inverted compare (predicates read
 *     negated);
 *   - loops that lanes re-enter only by CONT, the body ending in a jump
 *     (loop_tail): gfx9 runs the leaving lanes' code before the back edge,
 *     so scalar registers live round the loop must survive it.
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

/* Without the lane's index (a target lacking UMAD, UMUL, USHR or F2U):
 * IF on a float channel, UIF on an integer one, or a compare first. */
static bool
cond_values(struct gen *g)
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

/* The lane key into TEMP[reg].ch: (v * K1 + lane) * K2, v an exact
 * integer of the program, lane the lane's index (t_gid.x), K1 and K2 odd
 * multipliers drawn for this key; in a loop, half the time the innermost
 * counter times a third one is added before the last multiply, so a lane
 * may go another way in the next iteration. The top bits are a fresh,
 * nearly uniform draw per lane: lanes differ (their index does), two keys
 * differ (their multipliers do, even on one v), and a miscompiled v moves
 * them. */
bool
gen_lane_key(struct gen *g, unsigned reg, char ch)
{
   if (!g->lane)
      return false;
   struct opnd v = {0}, k = {0};
   gen_src_plain(g, GT_I, &v);
   gen_imm_u(g, gen_pick32(g) | 1, &k);
   gen_emit(g, "UMAD TEMP[%u].%c, %s, %s, TEMP[%u].xxxx", reg, ch, v.s, k.s, g->t_gid);
   if (g->loop_depth && gen_chance(g, 50)) {
      gen_imm_u(g, gen_pick32(g) | 1, &k);
      gen_emit(g, "UMAD TEMP[%u].%c, TEMP[%u].xxxx, %s, TEMP[%u].%c%c%c%c", reg, ch,
               g->t_loop + g->loop_depth - 1, k.s, reg, ch, ch, ch, ch);
   }
   gen_imm_u(g, gen_pick32(g) | 1, &k);
   gen_emit(g, "UMUL TEMP[%u].%c, TEMP[%u].%c%c%c%c, %s", reg, ch, reg, ch, ch, ch, ch, k.s);
   return true;
}

/* A float of the key in TEMP[t_scr].x: [1, 2) from its top 23 bits, or
 * (coarse) 1, 1.25, 1.5 or 1.75 from its top two. Exact either way. */
static void
key_float(struct gen *g, bool coarse)
{
   struct opnd a = {0}, b = {0};
   unsigned s = g->t_scr;
   gen_imm_u(g, coarse ? 30 : 9, &a);
   gen_emit(g, "USHR TEMP[%u].x, TEMP[%u].xxxx, %s", s, s, a.s);
   if (coarse) {
      gen_imm_u(g, 21, &a);
      gen_emit(g, "SHL TEMP[%u].x, TEMP[%u].xxxx, %s", s, s, a.s);
   }
   gen_imm_u(g, 0x3f800000u, &b);
   gen_emit(g, "OR TEMP[%u].x, TEMP[%u].xxxx, %s", s, s, b.s);
}

/* Emits "OP TEMP[s].x, TEMP[s].xxxx, c" or with the operands swapped. */
static void
key_cmp(struct gen *g, enum tgsi_opcode op, const struct opnd *c)
{
   unsigned s = g->t_scr;
   char k[24];
   snprintf(k, sizeof(k), "TEMP[%u].xxxx", s);
   bool swap = gen_chance(g, 30);
   gen_emit(g, "%s TEMP[%u].x, %s, %s", tgsi_op_info[op].name, s, swap ? c->s : k, swap ? k : c->s);
}

/* A condition on the lane key, taken by some lanes and not by others
 * (one in four to three in four of them): UIF on one or two of its top
 * bits, an integer compare with a threshold in its middle half or of its
 * top two bits with one value, a float compare of [1, 2) with a
 * threshold or of {1, 1.25, 1.5, 1.75} with one of them, or IF on such a
 * float less one of them (+0 in a quarter of the lanes). A compare's
 * mask or 1.0/0.0 is negated one time in four (NOT; SEQ with 0). */
static bool
cond_keyed(struct gen *g)
{
   static const enum tgsi_opcode need[] = {TGSI_OP_UIF, TGSI_OP_IF,   TGSI_OP_AND, TGSI_OP_OR,
                                           TGSI_OP_SHL, TGSI_OP_USHR, TGSI_OP_ADD};
   static const enum tgsi_opcode icmp[] = {TGSI_OP_USLT, TGSI_OP_USGE, TGSI_OP_ISLT, TGSI_OP_ISGE};
   static const enum tgsi_opcode fcmp[] = {TGSI_OP_SLT, TGSI_OP_SGE,  TGSI_OP_SGT,
                                           TGSI_OP_SLE, TGSI_OP_FSLT, TGSI_OP_FSGE};
   static const enum tgsi_opcode ecmp[] = {TGSI_OP_SEQ,  TGSI_OP_SNE,  TGSI_OP_FSEQ,
                                           TGSI_OP_FSNE, TGSI_OP_USEQ, TGSI_OP_USNE};
   static const char *const quarters[] = {"1", "1.25", "1.5", "1.75"};
   if (!gen_ok_all(g, need, ARRAY_SIZE(need)) || !gen_ok_all(g, icmp, ARRAY_SIZE(icmp)) ||
       !gen_ok_all(g, fcmp, ARRAY_SIZE(fcmp)) || !gen_ok_all(g, ecmp, ARRAY_SIZE(ecmp)) ||
       !gen_ok(g, TGSI_OP_NOT) || !gen_lane_key(g, g->t_scr, 'x'))
      return false;
   unsigned s = g->t_scr;
   struct opnd c = {0};
   enum tgsi_opcode op = TGSI_OP_NOP; /* the compare, if any */
   unsigned kind = gen_pick(g, 8);
   if (kind == 0) { /* one or two top bits */
      unsigned b = 24 + gen_pick(g, 8);
      uint32_t m = 1u << b;
      if (gen_chance(g, 40))
         m |= 1u << (16 + gen_pick(g, 8));
      gen_imm_u(g, m, &c);
      gen_emit(g, "AND TEMP[%u].x, TEMP[%u].xxxx, %s", s, s, c.s);
   } else if (kind <= 2) { /* a threshold in the middle half */
      op = icmp[gen_pick(g, ARRAY_SIZE(icmp))];
      uint32_t t = gen_pick32(g) & 0x7fffffffu;
      bool sgn = op == TGSI_OP_ISLT || op == TGSI_OP_ISGE;
      gen_imm_u(g, sgn ? t - 0x40000000u : t + 0x40000000u, &c);
      key_cmp(g, op, &c);
   } else if (kind <= 4) { /* [1, 2) against k/16 */
      op = fcmp[gen_pick(g, ARRAY_SIZE(fcmp))];
      key_float(g, false);
      char t[GEN_TEXT_LEN];
      unsigned k = 4 + gen_pick(g, 9);
      snprintf(t, sizeof(t), "1.%04u", k * 625);
      gen_imm_f(g, t, &c);
      key_cmp(g, op, &c);
   } else if (kind <= 6) { /* equality of a quarter */
      op = ecmp[gen_pick(g, ARRAY_SIZE(ecmp))];
      unsigned q = gen_pick(g, 4);
      if (op == TGSI_OP_USEQ || op == TGSI_OP_USNE) {
         struct opnd a = {0};
         gen_imm_u(g, 30, &a);
         gen_emit(g, "USHR TEMP[%u].x, TEMP[%u].xxxx, %s", s, s, a.s);
         gen_imm_u(g, q, &c);
      } else {
         key_float(g, true);
         gen_imm_f(g, quarters[q], &c);
      }
      key_cmp(g, op, &c);
   } else { /* a float that is +0 in a quarter of the lanes */
      char t[GEN_TEXT_LEN];
      key_float(g, true);
      snprintf(t, sizeof(t), "-%s", quarters[gen_pick(g, 4)]);
      gen_imm_f(g, t, &c);
      gen_emit(g, "ADD TEMP[%u].x, TEMP[%u].xxxx, %s", s, s, c.s);
      gen_emit(g, "IF TEMP[%u].xxxx", s);
      return true;
   }
   bool fl = op == TGSI_OP_SLT || op == TGSI_OP_SGE || op == TGSI_OP_SGT || op == TGSI_OP_SLE ||
             op == TGSI_OP_SEQ || op == TGSI_OP_SNE;
   if (op != TGSI_OP_NOP && gen_chance(g, 25)) {
      struct opnd z = {0};
      if (!fl) {
         gen_emit(g, "NOT TEMP[%u].x, TEMP[%u].xxxx", s, s);
      } else {
         gen_imm_f(g, "0", &z);
         gen_emit(g, "SEQ TEMP[%u].x, TEMP[%u].xxxx, %s", s, s, z.s);
      }
   }
   gen_emit(g, "%s TEMP[%u].xxxx", fl ? "IF" : "UIF", s);
   return true;
}

/* The condition of an IF, a BRK or a CONT: keyed to the lane (above)
 * where the target has the ops, else on the program's values. Conditions
 * on values alone went one way in every lane that reached them in about
 * one IF in four (`gen --seed 1..300`: a UIF of an integer that is never
 * 0, an SNE of two values that never meet, an inner condition implied by
 * the outer one), and left one in eight unreached; bugs in code only such
 * arms hold went unseen. */
bool
gen_emit_cond(struct gen *g)
{
   return cond_keyed(g) || cond_values(g);
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

/* Both arms of an if in a loop body do work and then end in a BRK, a
 * CONT or nothing (not both nothing): `if (c) { a; continue; } else { b;
 * break; }`. Lanes leave or restart the loop from either arm after work
 * there, so a jump lowering (sm50's opt_jumps) must move the rest of the
 * loop past both arms, and the else arm's jump is one that the then arm's
 * lanes never take. */
static void
exits_in_both_arms(struct gen *g, unsigned budget)
{
   static const char *const ends[] = {"BRK", "CONT", NULL};
   unsigned e0 = gen_pick(g, 3), e1 = gen_pick(g, e0 == 2 ? 2 : 3);
   for (unsigned arm = 0; arm < 2; arm++) {
      const char *end = ends[arm ? e1 : e0];
      if (arm)
         gen_emit(g, "ELSE");
      g->depth++;
      gen_block(g, 1 + gen_pick(g, budget / 3 + 1), CTX_LOOP);
      if (end)
         gen_emit(g, "%s", end);
      g->depth--;
   }
   gen_emit(g, "ENDIF");
}

/* `IF c {body} ELSE {BRK}` (or the arms the other way round) directly in
 * a loop body: lanes leave from an arm of an if at the top of the loop;
 * half the time both arms do work and jump (above). */
static bool
loop_top_break(struct gen *g, unsigned budget)
{
   if (!gen_ok(g, TGSI_OP_ELSE) || !gen_emit_cond(g))
      return false;
   if (gen_ok(g, TGSI_OP_CONT) && gen_chance(g, 50)) {
      exits_in_both_arms(g, budget);
      return true;
   }
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

/* A uniform read late in a loop body: two channels of one float constant
 * (an aligned pair of scalar registers on gfx9) as MAD's factor and
 * addend, so both are read whatever the write mask. */
static void
uniform_pair_read(struct gen *g)
{
   if (g->noconst || !gen_ok(g, TGSI_OP_MAD))
      return;
   unsigned k = gen_pick(g, g->nconst), lo = 2 * gen_pick(g, 2);
   struct opnd src[3] = {0};
   gen_src_any(g, GT_F, &src[0]);
   snprintf(src[1].s, sizeof(src[1].s), "CONST[0][%u].%c%c%c%c", k, "xyzw"[lo], "xyzw"[lo],
            "xyzw"[lo], "xyzw"[lo]);
   snprintf(src[2].s, sizeof(src[2].s), "CONST[0][%u].%c%c%c%c", k, "xyzw"[lo + 1], "xyzw"[lo + 1],
            "xyzw"[lo + 1], "xyzw"[lo + 1]);
   unsigned r;
   uint8_t mask;
   gen_dst_pick(g, GT_F, &r, &mask);
   gen_emit_op(g, TGSI_OP_MAD, "", r, mask, GT_F, src, 3);
}

/* Two to four compares into the scratch channels, then a select on each:
 * that many lane masks live at once (scalar register pairs on gfx9). */
static void
live_masks(struct gen *g)
{
   static const enum tgsi_opcode cmps[] = {TGSI_OP_FSLT, TGSI_OP_FSGE, TGSI_OP_FSNE,
                                           TGSI_OP_USLT, TGSI_OP_ISLT, TGSI_OP_USNE};
   if (!gen_ok_all(g, cmps, ARRAY_SIZE(cmps)) || !gen_ok(g, TGSI_OP_UCMP))
      return;
   unsigned n = 2 + gen_pick(g, 3);
   bool dep[4] = {false};
   for (unsigned i = 0; i < n; i++) {
      unsigned k = gen_pick(g, ARRAY_SIZE(cmps));
      struct opnd a = {0}, b = {0};
      if (k < 3) {
         gen_src_exact(g, &a);
         gen_src_exact(g, &b);
      } else {
         gen_src_any(g, GT_I, &a);
         gen_src_any(g, GT_I, &b);
      }
      gen_emit(g, "%s TEMP[%u].%c, %s, %s", tgsi_op_info[cmps[k]].name, g->t_scr, "xyzw"[i], a.s,
               b.s);
      dep[i] = a.dep || b.dep;
   }
   for (unsigned i = 0; i < n; i++) {
      enum gty ty = gen_chance(g, 50) ? GT_F : GT_I;
      struct opnd src[3] = {0};
      snprintf(src[0].s, sizeof(src[0].s), "TEMP[%u].%c%c%c%c", g->t_scr, "xyzw"[i], "xyzw"[i],
               "xyzw"[i], "xyzw"[i]);
      src[0].dep = dep[i];
      gen_src_any(g, ty, &src[1]);
      gen_src_any(g, ty, &src[2]);
      unsigned r;
      uint8_t mask;
      gen_dst_pick(g, ty, &r, &mask);
      gen_emit_op(g, TGSI_OP_UCMP, "", r, mask, ty, src, 3);
   }
}

/* A loop whose last statement jumps: `IF c {a; CONT} ELSE {b; BRK}` or
 * `IF c {CONT} ENDIF b; BRK`, so lanes come back to the top only through
 * the CONT and no path leads from b to the top. On gfx9 the wave still
 * runs b (the leaving lanes' work; after an ENDIF even with no lane
 * active) between the CONT and the next iteration, so a scalar register
 * live round the loop -- a uniform the body reads -- must survive b
 * although no logical path from b returns (opt_exec_liveness extends it
 * to the loop's last block). The body reads a uniform pair just before,
 * and b makes lane masks that would take its registers were it freed. */
static void
loop_tail(struct gen *g, unsigned budget)
{
   if (!gen_ok(g, TGSI_OP_CONT) || !gen_ok(g, TGSI_OP_ELSE))
      return;
   uniform_pair_read(g);
   if (!gen_emit_cond(g))
      return;
   bool arms = gen_chance(g, 50);
   g->depth++;
   if (arms)
      gen_block(g, 1 + gen_pick(g, budget / 3 + 1), CTX_LOOP);
   gen_emit(g, "CONT");
   g->depth--;
   gen_emit(g, arms ? "ELSE" : "ENDIF");
   g->depth += arms;
   gen_block(g, 1 + gen_pick(g, budget / 3 + 1), CTX_LOOP);
   live_masks(g);
   gen_emit(g, "BRK");
   if (arms) {
      g->depth--;
      gen_emit(g, "ENDIF");
   }
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
   bool lane_trips = gen_chance(g, 30);
   if (lane_trips) {
      /* per-lane trip count in [0, 7]: the top bits of a lane key, or
       * of an exact integer of the lane times a hashing constant */
      struct opnd v = {0}, m = {0};
      if (gen_lane_key(g, c, 'z')) {
         gen_imm_u(g, g->loop_depth ? 30 : 29, &m);
         gen_emit(g, "USHR TEMP[%u].z, TEMP[%u].zzzz, %s", c, c, m.s);
      } else {
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
   /* an EMIT in the body costs this loop's largest trip count per
    * vertex (gen_geom.c) */
   unsigned mult = g->emit_mult;
   g->emit_mult *= lane_trips ? (g->loop_depth > 1 ? 3u : 7u) : limit;
   unsigned body = 1 + gen_pick(g, budget / 2 + 1);
   if (gen_chance(g, 20))
      loop_top_break(g, body);
   gen_block(g, body, CTX_LOOP);
   if (gen_chance(g, 25)) /* exits in a row: each one's rest holds the next */
      for (unsigned k = 2 + gen_pick(g, 2); k--;)
         if (gen_stmt_brk(g, CTX_LOOP))
            gen_block(g, 1 + gen_pick(g, 2), CTX_LOOP);
   /* decided from the state without drawing from it: a loop without the
    * tail is the loop it was before there were tails */
   if (hash64(&g->rng, sizeof(g->rng), 0x7a11) % 100 < 30)
      loop_tail(g, body);
   g->emit_mult = mult;
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
   /* the selector: the top two bits of a lane key (every case is
    * reached; three with a DEFAULT, which four cases would leave
    * unreached), else an exact integer's low two */
   bool dflt = gen_chance(g, 60);
   if (gen_lane_key(g, g->t_scr, 'x')) {
      gen_imm_u(g, dflt ? 29 : 30, &three);
      gen_emit(g, "USHR TEMP[%u].x, TEMP[%u].xxxx, %s", g->t_scr, g->t_scr, three.s);
   } else {
      gen_src_plain(g, GT_I, &s);
      gen_imm_u(g, 3, &three);
      gen_emit(g, "AND TEMP[%u].x, %s, %s", g->t_scr, s.s, three.s);
   }
   gen_emit(g, "SWITCH TEMP[%u].xxxx", g->t_scr);
   unsigned vals[4] = {0, 1, 2, 3}, ncase = 1 + gen_pick(g, 4);
   for (unsigned i = 3; i > 0; i--) {
      unsigned j = gen_pick(g, i + 1), t = vals[i];
      vals[i] = vals[j];
      vals[j] = t;
   }
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
