/*
 * The random shader generator's memory: buffers, shared memory, an image
 * and atomics, race-free by construction so that every word the check
 * compares is defined.
 *
 * Ownership. Each lane owns four words of a buffer (its slot, at byte
 * offset t_mem.x: the lane's index times 16 -- the global id in compute,
 * VERTEXID in vertex shaders, y * 256 + x of the pixel in fragment
 * shaders -- clamped to the buffer's size less 16, so that in a buffer too
 * small for every lane the last lanes share the last slot: those words
 * are raced and the interpreter leaves them out). Loads read the lane's
 * own words: written before by the same lane (the prologue stores a whole
 * temporary there first), so no barrier is needed. Atomics act on the
 * lane's own integer words, so their returned values are defined too.
 *
 * Compute shaders may also get:
 *   - shared memory: four own words per lane (offset t_mem.y = THREAD_ID.x
 *     * 16), read by the lane itself anywhere, and by another lane of the
 *     workgroup only in an exchange -- STORE own words; BARRIER; LOAD a
 *     neighbour's; BARRIER -- at the top level (barriers are reached by
 *     every lane of the workgroup), so no store races a load either way;
 *   - a counter word after the lanes' words, zeroed by lane 0 before the
 *     prologue's barrier, that any lane ATOMUADDs to (results discarded:
 *     undefined by construction) until one top-level BARRIER after which
 *     it is read and never written again;
 *   - an image texel per lane (x = id mod width, y = id / width clamped to
 *     the last row, from RESQ), stored and loaded whole.
 * Fragment shaders store to their slot before and after the KILL_IF (a
 * killed lane's later stores must not happen) and once more at the end.
 *
 * Types. The words of a slot, of the shared words and of the texel carry
 * the type, dependence and inexactness of what was stored (struct gmem),
 * kept as for a temporary: under control flow only words of the stored
 * type are written.
 */
#include "diff/gen_priv.h"

#include <stdio.h>

#define IMG_DECL "2D, PIPE_FORMAT_R32G32B32A32_FLOAT"

void
gen_mem_setup(struct gen *g)
{
   static const enum tgsi_opcode need[] = {TGSI_OP_LOAD, TGSI_OP_STORE, TGSI_OP_RESQ,
                                           TGSI_OP_UMIN, TGSI_OP_SHL,   TGSI_OP_UADD,
                                           TGSI_OP_UMAD, TGSI_OP_F2U,   TGSI_OP_MOV};
   bool comp = g->stage == TGSI_STAGE_COMP;
   g->mem = gen_chance(g, comp ? 70 : 40);
   g->shared = comp && gen_chance(g, 60);
   g->image = comp && gen_chance(g, 40);
   for (unsigned i = 0; i < ARRAY_SIZE(need); i++)
      g->mem &= gen_ok(g, need[i]);
   g->shared &= g->mem && gen_ok(g, TGSI_OP_BARRIER) && gen_ok(g, TGSI_OP_ATOMUADD) &&
                gen_ok(g, TGSI_OP_USEQ) && gen_ok(g, TGSI_OP_UIF) && gen_ok(g, TGSI_OP_AND);
   g->image &= g->mem && gen_ok(g, TGSI_OP_UMOD) && gen_ok(g, TGSI_OP_UDIV);
   /* geometry and tessellation shaders write no memory yet (README:
    * Random shaders) */
   g->mem &= g->stage != TGSI_STAGE_GEOM && !gen_tess(g);
   g->buf = comp ? 2 : 0;
   g->in_pos = g->nin;
}

/* Records a store of temporary r's channels in mask to the words of m. */
static void
mem_stored(struct gen *g, struct gmem *m, unsigned r, uint8_t mask)
{
   for (unsigned c = 0; c < 4; c++) {
      if (!(mask & (1u << c)))
         continue;
      uint8_t bit = (uint8_t)(1u << c);
      m->ty[c] = g->ty[r][c];
      if (g->depth == 0)
         m->dep = (uint8_t)(m->dep & ~bit), m->inexact = (uint8_t)(m->inexact & ~bit);
      m->dep |= g->dep[r] & bit;
      m->inexact |= g->inexact[r] & bit;
   }
}

/* A general temporary and the words of m (nonempty mask) it may store:
 * under control flow only channels whose type matches the word's. */
static bool
pick_store(struct gen *g, const struct gmem *m, unsigned *r, uint8_t *mask)
{
   for (int tries = 0; tries < 8; tries++) {
      unsigned t = gen_pick(g, g->ntemp);
      uint8_t want = (uint8_t)(gen_pick(g, 15) + 1), ok = 0;
      /* an integer word stays exact: a loop's earlier load of it may
       * read a later store (see gen_mem_loop_entry) */
      for (unsigned c = 0; c < 4; c++)
         if (g->ty[t][c] != GT_D && (g->depth == 0 || g->ty[t][c] == m->ty[c]) &&
             !(g->ty[t][c] == GT_I && ((g->inexact[t] >> c) & 1)))
            ok |= (uint8_t)(1u << c);
      if (ok & want) {
         *r = t;
         *mask = ok & want;
         return true;
      }
   }
   return false;
}

/* Loads word k of m into one channel of a temporary of the word's type;
 * `res` is the resource ("BUFFER[2]"), `addr` the address operand. */
static bool
load_word(struct gen *g, const struct gmem *m, const char *res, const char *addr, unsigned k)
{
   enum gty ty = (enum gty)m->ty[k];
   if (ty == GT_D)
      return false;
   unsigned r;
   uint8_t mask;
   gen_dst_pick(g, ty, &r, &mask);
   unsigned c = 0;
   while (!(mask & (1u << c)))
      c++;
   char sw = "xyzw"[k];
   gen_emit(g, "LOAD TEMP[%u].%c, %s.%c%c%c%c, %s", r, "xyzw"[c], res, sw, sw, sw, sw, addr);
   gen_dst_set(g, r, (uint8_t)(1u << c), ty, (m->dep >> k) & 1, (m->inexact >> k) & 1);
   return true;
}

/* Loads all four words of m into a temporary (at the top level, where
 * any type may be written). */
static void
load_all(struct gen *g, const struct gmem *m, const char *res, const char *addr, const char *tail)
{
   unsigned r = gen_pick(g, g->ntemp);
   gen_emit(g, "LOAD TEMP[%u], %s, %s%s", r, res, addr, tail);
   for (unsigned c = 0; c < 4; c++)
      gen_dst_set(g, r, (uint8_t)(1u << c), (enum gty)m->ty[c], (m->dep >> c) & 1,
                  (m->inexact >> c) & 1);
}

/* ------------------------------------------------------------------ */
/* Prologue: addresses and first stores                                 */

static void
prologue_slot(struct gen *g)
{
   struct opnd k = {0}, four = {0}, m16 = {0};
   unsigned t = g->t_mem;
   if (g->stage == TGSI_STAGE_COMP || g->lane) {
      gen_emit(g, "MOV TEMP[%u].x, TEMP[%u].xxxx", t, g->t_gid); /* the lane's index */
   } else if (g->stage == TGSI_STAGE_FRAG) {
      gen_imm_u(g, 256, &k);
      gen_emit(g, "F2U TEMP[%u].xy, IN[%u].xyyy", t, g->in_pos);
      gen_emit(g, "UMAD TEMP[%u].x, TEMP[%u].yyyy, %s, TEMP[%u].xxxx", t, t, k.s, t);
   } else {
      gen_emit(g, "MOV TEMP[%u].x, SV[%u].xxxx", t, g->sv_vid);
   }
   gen_imm_u(g, 4, &four);
   gen_imm_u(g, 0xfffffff0u, &m16);
   gen_emit(g, "SHL TEMP[%u].x, TEMP[%u].xxxx, %s", t, t, four.s);
   /* RESQ of a buffer gives the size in .x only */
   gen_emit(g, "RESQ TEMP[%u].x, BUFFER[%u]", g->t_scr, g->buf);
   gen_emit(g, "UADD TEMP[%u].x, TEMP[%u].xxxx, %s", g->t_scr, g->t_scr, m16.s);
   gen_emit(g, "UMIN TEMP[%u].x, TEMP[%u].xxxx, TEMP[%u].xxxx", t, t, g->t_scr);
   unsigned r = gen_pick(g, g->ntemp);
   gen_emit(g, "STORE BUFFER[%u], TEMP[%u].xxxx, TEMP[%u]", g->buf, t, r);
   mem_stored(g, &g->slot, r, 0xf);
}

static void
prologue_shared(struct gen *g)
{
   struct opnd four = {0}, zero = {0}, ctr = {0};
   unsigned t = g->t_mem;
   gen_imm_u(g, 4, &four);
   gen_imm_u(g, 0, &zero);
   gen_imm_u(g, g->block_w * 16, &ctr);
   gen_emit(g, "SHL TEMP[%u].y, SV[0].xxxx, %s", t, four.s);
   unsigned r = gen_pick(g, g->ntemp);
   gen_emit(g, "STORE MEMORY[0], TEMP[%u].yyyy, TEMP[%u]", t, r);
   mem_stored(g, &g->sh, r, 0xf);
   gen_emit(g, "USEQ TEMP[%u].x, SV[0].xxxx, %s", g->t_scr, zero.s);
   gen_emit(g, "UIF TEMP[%u].xxxx", g->t_scr);
   gen_emit(g, "  MOV TEMP[%u].y, %s", g->t_scr, ctr.s);
   gen_emit(g, "  STORE MEMORY[0].x, TEMP[%u].yyyy, %s", g->t_scr, zero.s);
   gen_emit(g, "ENDIF");
   gen_emit(g, "BARRIER");
   g->nbarriers++;
}

static void
prologue_image(struct gen *g)
{
   struct opnd m1 = {0};
   unsigned t = g->t_mem, s = g->t_scr;
   gen_imm_u(g, 0xffffffffu, &m1);
   gen_emit(g, "RESQ TEMP[%u].xy, IMAGE[0]", s);
   gen_emit(g, "UMOD TEMP[%u].z, TEMP[%u].xxxx, TEMP[%u].xxxx", t, g->t_gid, s);
   gen_emit(g, "UDIV TEMP[%u].w, TEMP[%u].xxxx, TEMP[%u].xxxx", t, g->t_gid, s);
   gen_emit(g, "UADD TEMP[%u].y, TEMP[%u].yyyy, %s", s, s, m1.s);
   gen_emit(g, "UMIN TEMP[%u].w, TEMP[%u].wwww, TEMP[%u].yyyy", t, t, s);
   /* the texel holds floats: a float temporary, else the converted id */
   int r = -1;
   for (unsigned k = 0; k < g->ntemp && r < 0; k++)
      if (gen_chans_of(g, k, GT_F) == 0xf)
         r = (int)k;
   if (r < 0) {
      gen_emit(g, "U2F TEMP[%u], TEMP[%u].xxxx", s, g->t_gid);
      gen_emit(g, "STORE IMAGE[0], TEMP[%u].zwww, TEMP[%u], " IMG_DECL, t, s);
      memset(g->tex.ty, GT_F, 4);
      g->tex.inexact = 0xf;
      return;
   }
   gen_emit(g, "STORE IMAGE[0], TEMP[%u].zwww, TEMP[%u], " IMG_DECL, t, (unsigned)r);
   mem_stored(g, &g->tex, (unsigned)r, 0xf);
}

void
gen_mem_prologue(struct gen *g)
{
   if (!g->mem)
      return;
   prologue_slot(g);
   if (g->shared)
      prologue_shared(g);
   if (g->image)
      prologue_image(g);
}

/* ------------------------------------------------------------------ */
/* Statements                                                           */

static void
float_words_inexact(struct gmem *m)
{
   for (unsigned c = 0; c < 4; c++)
      if (m->ty[c] != GT_I)
         m->inexact |= (uint8_t)(1u << c);
}

/* At a loop's top: a load in the body may read what a later statement of
 * the body stored in the previous iteration, so no float word counts as
 * exact (integer words only ever take exact values: pick_store). */
void
gen_mem_loop_entry(struct gen *g)
{
   float_words_inexact(&g->slot);
   float_words_inexact(&g->sh);
   float_words_inexact(&g->tex);
}

/* STORE to the lane's own slot, shared words or texel. */
static bool
stmt_store(struct gen *g, struct gmem *m, const char *res, const char *addr)
{
   unsigned r;
   uint8_t mask;
   if (!pick_store(g, m, &r, &mask))
      return false;
   char mb[6];
   gen_emit(g, "STORE %s%s, %s, TEMP[%u]", res, gen_mask_str(mask, mb), addr, r);
   mem_stored(g, m, r, mask);
   return true;
}

bool
gen_mem_store_slot(struct gen *g)
{
   char res[16], addr[24];
   snprintf(res, sizeof(res), "BUFFER[%u]", g->buf);
   snprintf(addr, sizeof(addr), "TEMP[%u].xxxx", g->t_mem);
   return stmt_store(g, &g->slot, res, addr);
}

/* An atomic on one word the lane owns: of its buffer slot, or (compute
 * shaders with shared memory, two in five) of its shared words. Integer
 * operations on integer words; ATOMFADD on float words, where the word and
 * the returned value stay as exact as the word and the operand were (one
 * rounded add). The operations a model lacks (float add, the wrapping
 * increment and decrement) become compare-and-swap loops in the
 * optimizing compiler, so both spaces and every operation matter. The old
 * value goes to a temporary, or (one in three) to scratch nobody reads. */
static bool
stmt_atomic(struct gen *g)
{
   static const enum tgsi_opcode ops[] = {
       TGSI_OP_ATOMUADD, TGSI_OP_ATOMXCHG, TGSI_OP_ATOMCAS,      TGSI_OP_ATOMAND,
       TGSI_OP_ATOMOR,   TGSI_OP_ATOMXOR,  TGSI_OP_ATOMUMIN,     TGSI_OP_ATOMUMAX,
       TGSI_OP_ATOMIMIN, TGSI_OP_ATOMIMAX, TGSI_OP_ATOMINC_WRAP, TGSI_OP_ATOMDEC_WRAP,
       TGSI_OP_ATOMFADD, TGSI_OP_ATOMFADD};
   enum tgsi_opcode op = ops[gen_pick(g, ARRAY_SIZE(ops))];
   enum gty ty = op == TGSI_OP_ATOMFADD ? GT_F : GT_I;
   bool shared = g->shared && gen_chance(g, 40);
   struct gmem *m = shared ? &g->sh : &g->slot;
   const char *res = shared ? "MEMORY" : "BUFFER";
   unsigned resi = shared ? 0 : g->buf;
   unsigned cand[4], n = 0;
   for (unsigned c = 0; c < 4; c++)
      if (m->ty[c] == ty && (ty == GT_F || !((m->inexact >> c) & 1)))
         cand[n++] = c;
   if (!n && g->depth == 0 && gen_chance(g, 50)) {
      /* make a word of the type: a whole temporary of it over the words */
      for (unsigned r = 0; r < g->ntemp && !n; r++)
         if (gen_chans_exact(g, r, ty) == 0xf) {
            gen_emit(g, "STORE %s[%u], TEMP[%u].%s, TEMP[%u]", res, resi, g->t_mem,
                     shared ? "yyyy" : "xxxx", r);
            mem_stored(g, m, r, 0xf);
            cand[n++] = gen_pick(g, 4);
         }
   }
   if (!n || !gen_ok(g, op))
      return false;
   unsigned k = cand[gen_pick(g, n)];
   struct opnd off = {0}, a = {0}, b = {0};
   gen_imm_u(g, 4 * k, &off);
   gen_src_plain(g, ty, &a);
   if (op == TGSI_OP_ATOMCAS)
      gen_src_plain(g, GT_I, &b);
   gen_emit(g, "UADD TEMP[%u].x, TEMP[%u].%s, %s", g->t_scr, g->t_mem, shared ? "yyyy" : "xxxx",
            off.s);
   unsigned r;
   uint8_t mask;
   /* One in three returns into scratch, never read: the sink reads every
    * general temporary, and an atomic whose result nobody reads is what a
    * dead-code pass must keep (decided from the state, drawing nothing, so
    * the other choices stay as they were). */
   bool unused = hash64(&g->rng, sizeof(g->rng), 0xa70) % 3 == 0;
   if (unused) {
      r = g->t_scr;
      mask = 8;
   } else {
      gen_dst_pick(g, ty, &r, &mask);
   }
   char db[24];
   if (op == TGSI_OP_ATOMCAS)
      gen_emit(g, "%s %s, %s[%u], TEMP[%u].xxxx, %s, %s", tgsi_op_info[op].name,
               gen_dst_str(r, mask, db), res, resi, g->t_scr, a.s, b.s);
   else
      gen_emit(g, "%s %s, %s[%u], TEMP[%u].xxxx, %s", tgsi_op_info[op].name,
               gen_dst_str(r, mask, db), res, resi, g->t_scr, a.s);
   uint8_t bit = (uint8_t)(1u << k);
   if (!unused)
      gen_dst_set(g, r, mask, ty, (m->dep >> k) & 1, (m->inexact >> k) & 1);
   if (a.dep || b.dep)
      m->dep |= bit;
   if (a.inexact)
      m->inexact |= bit;
   return true;
}

/* Loads of the slot: the whole slot at the top level, else one word
 * into one channel (through the resource's swizzle, or at offset + 4k). */
static bool
stmt_load_slot(struct gen *g)
{
   char res[16], addr[24];
   snprintf(res, sizeof(res), "BUFFER[%u]", g->buf);
   if (g->depth == 0 && gen_chance(g, 30)) {
      snprintf(addr, sizeof(addr), "TEMP[%u].xxxx", g->t_mem);
      load_all(g, &g->slot, res, addr, "");
      return true;
   }
   unsigned k = gen_pick(g, 4);
   if (gen_chance(g, 50)) {
      snprintf(addr, sizeof(addr), "TEMP[%u].xxxx", g->t_mem);
      return load_word(g, &g->slot, res, addr, k);
   }
   struct opnd off = {0};
   gen_imm_u(g, 4 * k, &off);
   gen_emit(g, "UADD TEMP[%u].x, TEMP[%u].xxxx, %s", g->t_scr, g->t_mem, off.s);
   snprintf(addr, sizeof(addr), "TEMP[%u].xxxx", g->t_scr);
   struct gmem one = g->slot; /* word k is word 0 at the new address */
   one.ty[0] = g->slot.ty[k];
   one.dep = (uint8_t)((g->slot.dep >> k) & 1);
   one.inexact = (uint8_t)((g->slot.inexact >> k) & 1);
   return load_word(g, &one, res, addr, 0);
}

/* STORE own shared words; BARRIER; LOAD a neighbour's; BARRIER. */
static bool
stmt_exchange(struct gen *g)
{
   if (g->depth || g->loop_depth)
      return false;
   struct opnd d = {0}, mask = {0}, four = {0};
   unsigned r = gen_pick(g, g->ntemp);
   gen_emit(g, "STORE MEMORY[0], TEMP[%u].yyyy, TEMP[%u]", g->t_mem, r);
   mem_stored(g, &g->sh, r, 0xf);
   gen_imm_u(g, 1 + gen_pick(g, g->block_w - 1), &d);
   gen_imm_u(g, g->block_w - 1, &mask);
   gen_imm_u(g, 4, &four);
   gen_emit(g, "UADD TEMP[%u].x, SV[0].xxxx, %s", g->t_scr, d.s);
   gen_emit(g, "AND TEMP[%u].x, TEMP[%u].xxxx, %s", g->t_scr, g->t_scr, mask.s);
   gen_emit(g, "SHL TEMP[%u].x, TEMP[%u].xxxx, %s", g->t_scr, g->t_scr, four.s);
   gen_emit(g, "BARRIER");
   /* the neighbour stored the same temporary: same types */
   char addr[24];
   snprintf(addr, sizeof(addr), "TEMP[%u].xxxx", g->t_scr);
   unsigned n = 1 + gen_pick(g, 2);
   for (unsigned i = 0; i < n; i++)
      if (gen_chance(g, 50))
         load_all(g, &g->sh, "MEMORY[0]", addr, "");
      else
         load_word(g, &g->sh, "MEMORY[0]", addr, gen_pick(g, 4));
   gen_emit(g, "BARRIER");
   g->nbarriers += 2;
   return true;
}

/* The workgroup's counter: ATOMUADD until it is read after a barrier. */
static bool
stmt_counter(struct gen *g)
{
   if (g->ctr_read)
      return false;
   struct opnd ctr = {0};
   gen_imm_u(g, g->block_w * 16, &ctr);
   if (g->depth == 0 && g->loop_depth == 0 && gen_chance(g, 30)) {
      unsigned r;
      uint8_t mask;
      gen_emit(g, "BARRIER");
      g->nbarriers++;
      gen_emit(g, "MOV TEMP[%u].x, %s", g->t_scr, ctr.s);
      gen_dst_pick(g, GT_I, &r, &mask);
      char db[24];
      gen_emit(g, "LOAD %s, MEMORY[0].xxxx, TEMP[%u].xxxx", gen_dst_str(r, mask, db), g->t_scr);
      gen_dst_set(g, r, mask, GT_I, true, false);
      g->ctr_read = true;
      return true;
   }
   struct opnd a = {0};
   gen_src_plain(g, GT_I, &a);
   gen_emit(g, "MOV TEMP[%u].y, %s", g->t_scr, ctr.s);
   /* the returned value depends on the other lanes' order: scratch */
   gen_emit(g, "ATOMUADD TEMP[%u].x, MEMORY[0], TEMP[%u].yyyy, %s", g->t_scr, g->t_scr, a.s);
   return true;
}

bool
gen_stmt_mem(struct gen *g)
{
   char addr[24];
   switch (gen_pick(g, 12)) {
   case 0:
   case 1:
   case 2:
      return gen_mem_store_slot(g);
   case 3:
   case 4:
      return stmt_load_slot(g);
   case 5:
   case 10:
   case 11:
      return stmt_atomic(g);
   case 6:
      if (!g->shared)
         return false;
      snprintf(addr, sizeof(addr), "TEMP[%u].yyyy", g->t_mem);
      if (gen_chance(g, 50))
         return stmt_store(g, &g->sh, "MEMORY[0]", addr);
      return load_word(g, &g->sh, "MEMORY[0]", addr, gen_pick(g, 4));
   case 7:
      return g->shared && stmt_exchange(g);
   case 8:
      return g->shared && stmt_counter(g);
   default:
      if (!g->image)
         return false;
      snprintf(addr, sizeof(addr), "TEMP[%u].zwww", g->t_mem);
      if (g->depth == 0 && gen_chance(g, 50)) {
         load_all(g, &g->tex, "IMAGE[0]", addr, ", " IMG_DECL);
         return true;
      }
      /* a whole texel: under control flow only from a temporary whose
       * channels all hold the texel's types */
      for (int tries = 0; tries < 8; tries++) {
         unsigned r = gen_pick(g, g->ntemp);
         bool fits = true;
         for (unsigned c = 0; c < 4; c++)
            fits &= g->ty[r][c] != GT_D && (g->depth == 0 || g->ty[r][c] == g->tex.ty[c]);
         if (!fits)
            continue;
         gen_emit(g, "STORE IMAGE[0], %s, TEMP[%u], " IMG_DECL, addr, r);
         mem_stored(g, &g->tex, r, 0xf);
         return true;
      }
      return false;
   }
}

/* Fragment shaders store the slot once more at the end, after any KILL. */
void
gen_mem_epilogue(struct gen *g)
{
   if (!g->mem || g->stage != TGSI_STAGE_FRAG)
      return;
   unsigned r;
   uint8_t mask;
   if (pick_store(g, &g->slot, &r, &mask)) {
      char mb[6];
      gen_emit(g, "STORE BUFFER[%u]%s, TEMP[%u].xxxx, TEMP[%u]", g->buf, gen_mask_str(mask, mb),
               g->t_mem, r);
   }
}

void
gen_mem_declarations(struct gen *g, struct strbuf *h)
{
   if (g->mem || g->lane) {
      if (g->stage == TGSI_STAGE_FRAG)
         strbuf_printf(h, "DCL IN[%u], POSITION, LINEAR\n", g->in_pos);
      else if (g->stage == TGSI_STAGE_VERT)
         strbuf_printf(h, "DCL SV[%u], VERTEXID\n", g->sv_vid);
      else if (g->stage == TGSI_STAGE_GEOM || gen_tess(g))
         strbuf_printf(h, "DCL SV[%u], PRIM_ID\n", g->sv_vid);
   }
   if (!g->mem)
      return;
   strbuf_printf(h, "DCL BUFFER[%u]\n", g->buf);
   if (g->shared)
      strbuf_printf(h, "DCL MEMORY[0], SHARED\n");
   if (g->image)
      strbuf_printf(h, "DCL IMAGE[0], " IMG_DECL ", WR\n");
}
