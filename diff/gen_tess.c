/*
 * The random shader generator's tessellation shaders: TESS_CTRL (control)
 * and TESS_EVAL (evaluation).
 *
 * Both read the input patch's control points as IN[v][i] at any of its
 * vertices (the interpreter gives a patch 4); a control shader also reads
 * them at its own vertex, IN[ADDR[1].x][i], ADDR[1].x holding
 * INVOCATIONID from the first instruction on (set_addr writes only
 * ADDR[0]). An evaluation shader reads TESSCOORD (SV, .x and .y in
 * [0, 1], exact) as an input and writes its outputs as a vertex shader.
 *
 * A control shader's outputs: nout per-vertex ones (plus the sink's),
 * always written at its own vertex, OUT[ADDR[1].x][i] (the interpreter
 * leaves the patch's other vertices undefined in that lane, so nothing
 * else is compared), then the per-patch TESSOUTER, TESSINNER and, in half
 * of the shaders, a PATCH generic. Every output is written whole by the
 * prologue, from the temporaries it just filled, so it is defined in every
 * lane; the body writes them again, with part masks and under control
 * flow (the statement slot memory and EMIT take in other stages), and the
 * epilogue rewrites some of them: what a lane last wrote is compared, and
 * it differs from lane to lane. In half of the control shaders only
 * invocation 0 writes the per-patch outputs after the prologue (UIF on
 * INVOCATIONID == 0), as real ones do.
 *
 * No memory in tessellation shaders yet (gen_mem.c leaves them out).
 */
#include "diff/gen_priv.h"

#include <stdio.h>

/* TES_PRIM_MODE values (pipe primitives): lines, triangles, quads. */
static const unsigned tes_prims[] = {1, 4, 4, 7};

bool
gen_tess(const struct gen *g)
{
   return g->stage == TGSI_STAGE_TESS_CTRL || g->stage == TGSI_STAGE_TESS_EVAL;
}

void
gen_tess_setup(struct gen *g)
{
   if (!gen_tess(g))
      return;
   /* gfx9's reference path loads every input channel of all 4 vertices
    * in its prologue: at most 8 vertex inputs, as geometry shaders */
   g->nin = MIN2(g->nin, 2u);
   g->gs_nverts = 4;
   if (g->stage == TGSI_STAGE_TESS_EVAL) {
      g->tes_prim = tes_prims[gen_pick(g, ARRAY_SIZE(tes_prims))];
      g->tes_spacing = gen_pick(g, 3);
      g->tes_cw = gen_chance(g, 50);
      g->tes_points = gen_chance(g, 20);
      return;
   }
   /* 1 to 3 vertices out: a lane writes its own vertex only, so with 4
    * under a quarter of its per-vertex values are defined and the case
    * is flagged as comparing little */
   g->tcs_verts = 1 + gen_pick(g, 3);
   g->tcs_generic = gen_chance(g, 50);
   g->tcs_guard = gen_chance(g, 50) && gen_ok(g, TGSI_OP_USEQ) && gen_ok(g, TGSI_OP_UIF);
   /* the sink, if any, is per-vertex output nout: the patch's follow */
   g->tcs_patch = g->nout + (g->want_sink && gen_shape_sink_ok(g));
}

/* The SV register after PRIM_ID (the lane's index, gen_mem.c) when that
 * one is declared: INVOCATIONID (TCS) or TESSCOORD (TES). */
static unsigned
tess_sv(const struct gen *g)
{
   return g->mem || g->lane ? g->sv_vid + 1 : g->sv_vid;
}

/* Outputs a control shader declares: per-vertex ones, then the patch's. */
static unsigned
tcs_outputs(const struct gen *g)
{
   return g->tcs_patch + 2 + g->tcs_generic;
}

const char *
gen_out_reg(const struct gen *g, unsigned i, char out[24])
{
   if (g->stage == TGSI_STAGE_TESS_CTRL && i < g->tcs_patch)
      snprintf(out, 24, "OUT[ADDR[1].x][%u]", i & 0xff); /* i < 8 */
   else
      snprintf(out, 24, "OUT[%u]", i);
   return out;
}

/* A TESSCOORD read (x or y: z is 0 here), one time in four in an
 * evaluation shader; false otherwise. */
bool
gen_tess_coord(struct gen *g, struct opnd *o)
{
   if (g->stage != TGSI_STAGE_TESS_EVAL || !gen_chance(g, 25))
      return false;
   char sw[6];
   gen_swizzle(g, 0x3, sw);
   snprintf(o->s, sizeof(o->s), "SV[%u]%s", tess_sv(g), sw);
   g->used_tcoord = true;
   o->dep = true;
   o->inexact = false;
   return true;
}

/* Writes output i (mask m) from a body value, an input, or both. */
static void
write_out(struct gen *g, unsigned i, uint8_t m)
{
   struct opnd a = {0}, b = {0};
   char mb[6], o[24];
   const char *ms = gen_mask_str(m, mb);
   gen_out_reg(g, i, o);
   unsigned kind = gen_pick(g, 4);
   if (kind == 0) {
      gen_src_any(g, GT_F, &a);
      gen_input_src(g, &b);
      gen_emit(g, "ADD %s%s, %s, %s", o, ms, a.s, b.s);
   } else if (kind == 1) {
      gen_input_src(g, &a);
      gen_emit(g, "MOV %s%s, %s", o, ms, a.s);
   } else {
      gen_src_any(g, GT_F, &a);
      gen_emit(g, "MOV%s %s%s, %s", gen_chance(g, 15) ? "_SAT" : "", o, ms, a.s);
   }
}

/* The patch's outputs, under UIF (INVOCATIONID == 0) in guarded shaders;
 * each one with probability pct (100: all). */
static void
write_patch(struct gen *g, unsigned pct)
{
   unsigned first = g->tcs_patch, end = tcs_outputs(g);
   if (g->tcs_guard) {
      struct opnd z = {0};
      gen_imm_u(g, 0, &z);
      gen_emit(g, "USEQ TEMP[%u].x, SV[%u].xxxx, %s", g->t_scr, tess_sv(g), z.s);
      gen_emit(g, "UIF TEMP[%u].xxxx", g->t_scr);
      g->depth++;
   }
   for (unsigned i = first; i < end; i++)
      if (pct >= 100 || gen_chance(g, pct))
         write_out(g, i, 0xf);
   if (g->tcs_guard) {
      g->depth--;
      gen_emit(g, "ENDIF");
   }
}

/* After the prologue: INVOCATIONID into ADDR[1].x (first of all) and
 * every output written whole. */
void
gen_tess_start(struct gen *g)
{
   if (g->stage != TGSI_STAGE_TESS_CTRL)
      return;
   gen_emit(g, "UARL ADDR[1].x, SV[%u].xxxx", tess_sv(g));
}

void
gen_tess_prologue(struct gen *g)
{
   if (g->stage != TGSI_STAGE_TESS_CTRL)
      return;
   for (unsigned i = 0; i < g->nout; i++)
      write_out(g, i, 0xf);
   bool guard = g->tcs_guard;
   g->tcs_guard = false; /* every lane's patch outputs defined */
   write_patch(g, 100);
   g->tcs_guard = guard;
}

/* A body statement: one output, part of it, from a value of the body. */
bool
gen_stmt_tess_out(struct gen *g)
{
   if (g->stage != TGSI_STAGE_TESS_CTRL)
      return false;
   unsigned n = g->nout + 2 + g->tcs_generic; /* not the sink's */
   unsigned k = gen_pick(g, n);
   unsigned i = k < g->nout ? k : g->tcs_patch + (k - g->nout);
   uint8_t m = gen_chance(g, 50) ? 0xf : (uint8_t)(1 + gen_pick(g, 15));
   write_out(g, i, m);
   return true;
}

/* The epilogue's part: the patch outputs again, each one time in two. */
void
gen_tess_epilogue(struct gen *g)
{
   if (g->stage == TGSI_STAGE_TESS_CTRL)
      write_patch(g, 50);
}

void
gen_tess_declarations(struct gen *g, struct strbuf *h)
{
   if (g->stage == TGSI_STAGE_TESS_EVAL) {
      strbuf_printf(h, "PROPERTY TES_PRIM_MODE %u\n", g->tes_prim);
      strbuf_printf(h, "PROPERTY TES_SPACING %u\n", g->tes_spacing);
      strbuf_printf(h, "PROPERTY TES_VERTEX_ORDER_CW %u\n", g->tes_cw);
      strbuf_printf(h, "PROPERTY TES_POINT_MODE %u\n", g->tes_points);
   } else {
      strbuf_printf(h, "PROPERTY TCS_VERTICES_OUT %u\n", g->tcs_verts);
   }
   for (unsigned i = 0; i < g->nin; i++)
      if (g->used_in[i])
         strbuf_printf(h, "DCL IN[][%u], GENERIC[%u]\n", i, i);
   if (g->stage == TGSI_STAGE_TESS_EVAL) {
      if (g->used_tcoord)
         strbuf_printf(h, "DCL SV[%u], TESSCOORD\n", tess_sv(g));
      return;
   }
   strbuf_printf(h, "DCL SV[%u], INVOCATIONID\n", tess_sv(g));
   for (unsigned i = 0; i < g->tcs_patch; i++) {
      if (i == 0)
         strbuf_printf(h, "DCL OUT[][0], POSITION\n");
      else
         strbuf_printf(h, "DCL OUT[][%u], GENERIC[%u]\n", i, i - 1);
   }
   strbuf_printf(h, "DCL OUT[%u], TESSOUTER\n", g->tcs_patch);
   strbuf_printf(h, "DCL OUT[%u], TESSINNER\n", g->tcs_patch + 1);
   if (g->tcs_generic)
      strbuf_printf(h, "DCL OUT[%u], PATCH[0]\n", g->tcs_patch + 2);
}
