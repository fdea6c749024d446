/*
 * The gfx9 reference path's geometry and tessellation stages
 * (isa/models/gfx9.yaml, "Geometry and tessellation stages"): stage inputs
 * and outputs go through memory, as on GFX9, where a geometry or
 * tessellation control shader reads the previous stage's outputs from LDS
 * (the ES-GS and LS-HS rings), a tessellation evaluation shader reads the
 * control points from off-chip memory, and a geometry shader writes the
 * vertices it emits to the GSVS ring and tells the hardware with
 * s_sendmsg. The emulator's stage windows stand for those rings
 * (emu.h EMU_ADDR_STAGE_IN/OUT: each lane its own, word EMU_STAGE_OFF(v,
 * i, c) = IN[v][i].c or OUT[i].c of vertex v).
 *
 *  - Inputs: the prologue loads every per-vertex input channel into its
 *    home (global_load_dword; ref_hazard.c waits for each with s_waitcnt
 *    0), so the inputs need no bindings; IN[ADDR + k][i] loads from the
 *    window at the vertex computed per lane.
 *  - Geometry shaders: outputs live in their homes; EMIT stores all of
 *    them at the lane's vertex slot (a persistent VGPR, 0 at the start,
 *    one more per EMIT), then s_sendmsg MSG_GS EMIT with the stream in the
 *    message; ENDPRIM is GS_OP_CUT. M0 holds the GS wave id (written once
 *    in the prologue, then s_nop: the SALU-writes-M0 wait state); the
 *    wave ends with MSG_GS_DONE.
 *  - Tessellation control shaders store each output channel as it is
 *    written, at its output vertex (0 per patch).
 *
 * Refused: an EMIT/ENDPRIM stream that is not an immediate 0..3 (the
 * message encodes it).
 */
#include "compiler/ref/ref.h"
#include "emu/emu.h"

#define R(x) ref_r(c, (x))

/* The lane's GS wave id for M0. MODEL CHOICE (gfx9.yaml): the emulator
 * gives every wave its own ring, so the id is not checked; the shader
 * still writes M0 before its first message, as the hardware needs. */
#define GS_WAVE_ID 0

bool
ref_g9_stage_window(const struct ref_ctx *c)
{
   enum tgsi_stage st = c->s->stage;
   return st == TGSI_STAGE_GEOM || st == TGSI_STAGE_TESS_CTRL || st == TGSI_STAGE_TESS_EVAL;
}

/* A register holding the window address base + (vertex << shift) for a
 * vertex in register v plus k. */
static unsigned
vertex_base(struct ref_ctx *c, uint32_t base, unsigned v, uint32_t k)
{
   unsigned x = ref_prim(c, REF_P_IADD, v, ref_imm_reg(c, k), 0);
   x = ref_prim(c, REF_P_SHL, x, ref_imm_reg(c, EMU_STAGE_VERTEX_SHIFT), 0);
   return ref_prim(c, REF_P_IADD, x, ref_imm_reg(c, base), 0);
}

static void
load_inputs(struct ref_ctx *c)
{
   for (unsigned v = 0; v < c->vertices[TGSI_FILE_IN]; v++) {
      unsigned mark = c->scratch_next;
      unsigned a = ref_imm_reg(c, EMU_ADDR_STAGE_IN + EMU_STAGE_OFF(v, 0, 0));
      for (unsigned i = 0; i < c->count[TGSI_FILE_IN]; i++)
         for (unsigned ch = 0; ch < 4; ch++) {
            struct tgsi_reg r = {
                .file = TGSI_FILE_IN, .index = (int32_t)i, .has_dim = true, .dim = (int32_t)v};
            int h = ref_home(c, &r, ch);
            if (h >= 0)
               c->t->load_word(c, false, (unsigned)h, a, EMU_STAGE_OFF(0, i, ch));
         }
      c->scratch_next = mark;
   }
}

static struct isa_insn *
sendmsg(struct ref_ctx *c, const char *op)
{
   return ref_emit(c, op);
}

static void
set_m0(struct ref_ctx *c)
{
   struct isa_insn *m = ref_emit(c, "s_mov_b32");
   struct isa_opnd m0 = {.kind = ISA_OPND_REG, .file = (uint8_t)c->special[0], .index = 124};
   m->dst[0] = m0;
   m->src[0] = ref_imm(GS_WAVE_ID);
   struct isa_insn *n = ref_emit(c, "s_nop");
   ref_set_mod_int(c, n, "nops", 0);
}

void
ref_g9_stage_begin(struct ref_ctx *c)
{
   if (!ref_g9_stage_window(c))
      return;
   load_inputs(c);
   c->inputs_loaded = true;
   if (c->s->stage != TGSI_STAGE_GEOM)
      return;
   c->gs_handle = (int)ref_tmp_persistent(c);
   c->t->mov_imm(c, (unsigned)c->gs_handle, 0);
   set_m0(c);
}

void
ref_g9_stage_end(struct ref_ctx *c)
{
   if (c->s->stage == TGSI_STAGE_GEOM)
      sendmsg(c, "s_sendmsg_gs_done");
}

/* IN[ADDR + k][index] (and IN[..][ADDR + index]): a load from the window
 * at the lane's vertex. */
bool
ref_g9_input_indirect(struct ref_ctx *c, const struct tgsi_reg *r, unsigned comp, unsigned *out)
{
   *out = 0;
   if (r->file != TGSI_FILE_IN || !ref_g9_stage_window(c) || !r->dim_indirect)
      return false;
   struct tgsi_reg ar = {.file = r->dim_ind.file, .index = (int32_t)r->dim_ind.index};
   int a = ref_home(c, &ar, r->dim_ind.comp);
   if (a < 0) {
      ref_unsupported(c, "a vertex index in a register without a home");
      return true;
   }
   unsigned res = ref_tmp(c), mark = c->scratch_next;
   unsigned base = vertex_base(c, EMU_ADDR_STAGE_IN, (unsigned)a, (uint32_t)r->dim);
   uint32_t off = EMU_STAGE_OFF(0, r->index, comp);
   if (r->indirect) {
      struct tgsi_reg ir = {.file = r->ind.file, .index = (int32_t)r->ind.index};
      int h = ref_home(c, &ir, r->ind.comp);
      if (h < 0) {
         ref_unsupported(c, "an input index in a register without a home");
         return true;
      }
      unsigned k = ref_prim(c, REF_P_IADD, (unsigned)h, ref_imm_reg(c, (uint32_t)r->index), 0);
      base = ref_prim(c, REF_P_IADD, base, ref_prim(c, REF_P_SHL, k, ref_imm_reg(c, 4), 0), 0);
      off = 4 * comp;
   }
   c->t->load_word(c, false, res, base, off);
   c->scratch_next = mark;
   *out = res;
   return true;
}

/* The stream of EMIT/ENDPRIM: an immediate 0..3, else -1. */
static int
stream_of(struct ref_ctx *c, const struct tgsi_insn *in)
{
   const struct tgsi_src *s = &in->src[0];
   if (!in->nsrc)
      return 0;
   if (s->reg.file != TGSI_FILE_IMM || s->reg.indirect || s->reg.index < 0 ||
       (unsigned)s->reg.index >= c->s->nimms)
      return -1;
   uint32_t v = c->s->imms[s->reg.index].u[s->swz[0] & 3] & 0xff;
   return v < 4 ? (int)v : -1;
}

/* EMIT: every output to the lane's vertex slot, the message, the next
 * slot; ENDPRIM: the message alone. */
bool
ref_g9_stage_special(struct ref_ctx *c, const struct tgsi_insn *in)
{
   if (in->op != TGSI_OP_EMIT && in->op != TGSI_OP_ENDPRIM)
      return false;
   int stream = stream_of(c, in);
   if (stream < 0) {
      ref_unsupported(c, "a stream that is not an immediate 0..3 (s_sendmsg encodes it)");
      return true;
   }
   unsigned h = (unsigned)c->gs_handle;
   if (in->op == TGSI_OP_EMIT) {
      unsigned base = vertex_base(c, EMU_ADDR_STAGE_OUT, h, 0);
      for (unsigned i = 0; i < c->count[TGSI_FILE_OUT] && i < 64; i++)
         for (unsigned ch = 0; ch < 4; ch++) {
            struct tgsi_reg o = {.file = TGSI_FILE_OUT, .index = (int32_t)i};
            c->t->store_word(c, false, base, EMU_STAGE_OFF(0, i, ch),
                             (unsigned)ref_home(c, &o, ch));
         }
   }
   struct isa_insn *m = sendmsg(c, "s_sendmsg_gs");
   ref_set_mod(c, m, "gsop", in->op == TGSI_OP_EMIT ? "emit" : "cut");
   static const char *const streams[] = {"s0", "s1", "s2", "s3"};
   ref_set_mod(c, m, "gsstream", streams[stream]);
   if (in->op == TGSI_OP_EMIT)
      c->t->copy(c, h, ref_prim(c, REF_P_IADD, h, ref_imm_reg(c, 1), 0));
   return true;
}

/* A tessellation control output channel, stored as it is written. */
void
ref_g9_store_output(struct ref_ctx *c, const struct tgsi_dst *dst, const unsigned *res)
{
   const struct tgsi_reg *r = &dst->reg;
   unsigned v;
   if (!r->has_dim) {
      v = ref_imm_reg(c, 0);
   } else if (!r->dim_indirect) {
      v = ref_imm_reg(c, (uint32_t)r->dim);
   } else {
      struct tgsi_reg ar = {.file = r->dim_ind.file, .index = (int32_t)r->dim_ind.index};
      int a = ref_home(c, &ar, r->dim_ind.comp);
      if (a < 0) {
         ref_unsupported(c, "a vertex index in a register without a home");
         return;
      }
      v = ref_prim(c, REF_P_IADD, (unsigned)a, ref_imm_reg(c, (uint32_t)r->dim), 0);
   }
   unsigned base = vertex_base(c, EMU_ADDR_STAGE_OUT, v, 0);
   uint32_t off = EMU_STAGE_OFF(0, r->index, 0);
   if (r->indirect) { /* + (ADDR + index) * 16 */
      struct tgsi_reg ar = {.file = r->ind.file, .index = (int32_t)r->ind.index};
      int h = ref_home(c, &ar, r->ind.comp);
      if (h < 0) {
         ref_unsupported(c, "an output index in a register without a home");
         return;
      }
      unsigned k = ref_prim(c, REF_P_IADD, (unsigned)h, ref_imm_reg(c, (uint32_t)r->index), 0);
      base = ref_prim(c, REF_P_IADD, base, ref_prim(c, REF_P_SHL, k, ref_imm_reg(c, 4), 0), 0);
      off = 0;
   } else if (r->index < 0 || r->index >= 64) {
      return; /* beyond every output: the write is dropped (interpreter) */
   }
   for (unsigned ch = 0; ch < 4; ch++)
      if (dst->mask & (1u << ch))
         c->t->store_word(c, false, base, off + 4 * ch, res[ch]);
}
