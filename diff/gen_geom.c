/*
 * The random shader generator's geometry shaders: the primitive
 * properties, per-vertex inputs IN[v][i], and EMIT/ENDPRIM statements.
 *
 * A vertex's outputs are what OUT holds at its EMIT; after it the
 * interpreter takes every output as undefined until written again. So
 * each EMIT here is preceded by writes of every declared output (the
 * sink's too, when the shader will have one), some with other statements
 * between them: every vertex a lane sends is compared whole.
 *
 * Bound. No lane may send more than GS_MAX_OUTPUT_VERTICES vertices (the
 * interpreter counts an overflow). The generator keeps a static bound:
 * an EMIT costs the product of the largest trip counts of the loops
 * around it (emit_mult, kept by gen_cf.c's loops) and is written only if
 * that fits in what is left (gs_left); both arms of an IF are charged, so
 * the bound holds on every path. The epilogue's final EMIT is reserved at
 * setup. Conditions are lane-keyed (gen_cf.c), so lanes send different
 * numbers of vertices, and per-lane trip counts multiply that.
 *
 * Early messages: in two shaders in five the first instruction is an
 * ENDPRIM (three in five of them) or the writes and EMIT of a vertex
 * taken from the inputs, before the prologue; on gfx9 a message that close
 * to the entry meets the M0-write wait state that later messages never do
 * -- if no constant load comes first, so most shaders that start with
 * ENDPRIM read immediates instead of constants (noconst).
 */
#include "diff/gen_priv.h"

#include <stdio.h>

/* Input primitives with their vertex counts (adjacency ones rarer). */
static const struct {
   const char *name;
   unsigned nverts;
} prims_in[] = {
    {"POINTS", 1},          {"LINES", 2},     {"TRIANGLES", 3}, {"TRIANGLES", 3},
    {"LINES_ADJACENCY", 4}, {"TRIANGLES", 3}, {"LINES", 2},     {"TRIANGLES_ADJACENCY", 6}};

static const char *const prims_out[] = {"POINTS", "LINE_STRIP", "TRIANGLE_STRIP"};

void
gen_geom_setup(struct gen *g)
{
   g->emit_mult = 1;
   if (g->stage != TGSI_STAGE_GEOM)
      return;
   unsigned k = gen_pick(g, ARRAY_SIZE(prims_in));
   g->gs_prim_in = k;
   g->gs_nverts = prims_in[k].nverts;
   /* gfx9's reference path loads every input channel of every vertex in
    * its prologue: at most 8 vertex inputs keep it within its registers */
   while (g->nin > 1 && g->nin * g->gs_nverts > 8)
      g->nin--;
   g->gs_prim_out = gen_pick(g, ARRAY_SIZE(prims_out));
   g->gs_max = 2 + gen_pick(g, 23);
   g->gs_left = g->gs_max - 1; /* the epilogue's EMIT */
   g->gs_early = gen_chance(g, 40);
   g->gs_cut_first = g->gs_early && gen_chance(g, 60);
   /* Three in four of those that start with ENDPRIM read no constant
    * buffer: the optimizing compilers load constants at the entry, ahead
    * of the first message, so only without them does the message follow
    * the entry's M0 write at once */
   g->noconst = g->gs_cut_first && gen_chance(g, 75);
}

/* "IN[v][i]" in a geometry or tessellation shader (v drawn; a control
 * shader's own vertex, IN[ADDR[1].x][i], one time in five), "IN[i]"
 * otherwise. */
const char *
gen_in_reg(struct gen *g, unsigned i, char out[24])
{
   g->used_in[i] = true;
   if (g->stage == TGSI_STAGE_TESS_CTRL && gen_chance(g, 20))
      snprintf(out, 24, "IN[ADDR[1].x][%u]", i & 0xff); /* i < 8 */
   else if (g->stage == TGSI_STAGE_GEOM || gen_tess(g))
      snprintf(out, 24, "IN[%u][%u]", gen_pick(g, g->gs_nverts), i);
   else
      snprintf(out, 24, "IN[%u]", i);
   return out;
}

/* An EMIT or ENDPRIM on stream 0 (an immediate, as the stream must be). */
static void
message(struct gen *g, enum tgsi_opcode op)
{
   struct opnd z = {0};
   gen_imm_u(g, 0, &z);
   gen_emit(g, "%s %s", tgsi_op_info[op].name, z.s);
}

/* Writes output i (all channels) from a value of the body, an input, or
 * an input plus a value; one time in four as two writes of part masks. */
static void
write_output(struct gen *g, unsigned i)
{
   uint8_t masks[2] = {0xf, 0};
   if (gen_chance(g, 25)) {
      masks[0] = (uint8_t)(1 + gen_pick(g, 14));
      masks[1] = (uint8_t)(0xf & ~masks[0]);
   }
   for (unsigned w = 0; w < 2 && masks[w]; w++) {
      struct opnd a = {0}, b = {0};
      char mb[6];
      const char *m = gen_mask_str(masks[w], mb);
      unsigned kind = gen_pick(g, 4);
      if (kind == 0 && g->ready[0]) {
         gen_src_any(g, GT_F, &a);
         gen_input_src(g, &b);
         gen_emit(g, "ADD OUT[%u]%s, %s, %s", i, m, a.s, b.s);
      } else if (kind == 1 || !g->ready[0]) {
         gen_input_src(g, &a);
         gen_emit(g, "MOV OUT[%u]%s, %s", i, m, a.s);
      } else if (i == g->nout) {
         /* the sink's register: any temporary's bits, integers too */
         gen_emit(g, "MOV OUT[%u]%s, TEMP[%u]", i, m, gen_pick(g, g->ntemp));
      } else {
         gen_src_any(g, GT_F, &a);
         gen_emit(g, "MOV%s OUT[%u]%s, %s", gen_chance(g, 15) ? "_SAT" : "", i, m, a.s);
      }
   }
}

/* Every output, in a random order; between writes, one time in three, a
 * statement or two of the body (which may not emit itself). */
static void
write_vertex(struct gen *g, unsigned nout, enum gctx ctx)
{
   unsigned order[GEN_MAX_OUTS + 1];
   for (unsigned i = 0; i < nout; i++)
      order[i] = i;
   for (unsigned i = nout; i > 1; i--) {
      unsigned j = gen_pick(g, i), t = order[i - 1];
      order[i - 1] = order[j];
      order[j] = t;
   }
   g->in_emit = true;
   for (unsigned i = 0; i < nout; i++) {
      write_output(g, order[i]);
      if (g->ready[0] && i + 1 < nout && gen_chance(g, 33))
         gen_block(g, 1 + gen_pick(g, 2), ctx);
   }
   g->in_emit = false;
}

/* The outputs a vertex carries: the declared ones and the sink's. */
static unsigned
vertex_outputs(struct gen *g)
{
   return g->nout + (g->want_sink && gen_shape_sink_ok(g));
}

bool
gen_stmt_emit(struct gen *g, enum gctx ctx)
{
   if (g->stage != TGSI_STAGE_GEOM || g->in_emit || !gen_ok(g, TGSI_OP_EMIT) ||
       !gen_ok(g, TGSI_OP_ENDPRIM))
      return false;
   if (g->emit_mult > g->gs_left) {
      /* no room for another vertex here: end the primitive instead */
      if (!gen_chance(g, 40))
         return false;
      message(g, TGSI_OP_ENDPRIM);
      return true;
   }
   g->gs_left -= g->emit_mult;
   write_vertex(g, vertex_outputs(g), ctx);
   message(g, TGSI_OP_EMIT);
   if (gen_chance(g, 20))
      message(g, TGSI_OP_ENDPRIM);
   return true;
}

/* Before the prologue: nothing, an ENDPRIM, or a vertex of inputs. */
void
gen_geom_start(struct gen *g)
{
   if (g->stage != TGSI_STAGE_GEOM || !g->gs_early || !gen_ok(g, TGSI_OP_EMIT) ||
       !gen_ok(g, TGSI_OP_ENDPRIM))
      return;
   if (g->gs_cut_first) {
      message(g, TGSI_OP_ENDPRIM);
      return;
   }
   g->gs_left--; /* gs_max >= 2 */
   write_vertex(g, vertex_outputs(g), CTX_NONE);
   message(g, TGSI_OP_EMIT);
   if (gen_chance(g, 30))
      message(g, TGSI_OP_ENDPRIM);
}

/* After the epilogue's output writes (and the sink): the last vertex. */
void
gen_geom_end(struct gen *g)
{
   if (g->stage != TGSI_STAGE_GEOM)
      return;
   message(g, TGSI_OP_EMIT);
   if (gen_chance(g, 50))
      message(g, TGSI_OP_ENDPRIM);
}

void
gen_geom_declarations(struct gen *g, struct strbuf *h)
{
   strbuf_printf(h, "PROPERTY GS_INPUT_PRIMITIVE %s\n", prims_in[g->gs_prim_in].name);
   strbuf_printf(h, "PROPERTY GS_OUTPUT_PRIMITIVE %s\n", prims_out[g->gs_prim_out]);
   strbuf_printf(h, "PROPERTY GS_MAX_OUTPUT_VERTICES %u\n", g->gs_max);
   strbuf_printf(h, "PROPERTY GS_INVOCATIONS 1\n");
   for (unsigned i = 0; i < g->nin; i++)
      if (g->used_in[i])
         strbuf_printf(h, "DCL IN[][%u], GENERIC[%u]\n", i, i);
}
