/*
 * Instruction selection for stage outputs and per-vertex inputs: geometry
 * shaders (store_output, emit, end_prim), tessellation control outputs
 * (store_output_vtx) and inputs read by vertex index (load_input_vind).
 * The model supplies an attribute store (semantics ast) and a vertex emit
 * (semantics emit), read as isa/isa.h describes them; a model without
 * them has no such stage and the shader is refused.
 *
 * Geometry shaders. The front end stores every written output right
 * before each emit. A store becomes an attribute store to the vertex
 * being written, AST a[h][RZ + EMU_ATTR_OUTPUT(slot) + 4 * comp]; emit and
 * end_prim become OUT (.EMIT, .CUT) of handle h with the stream, whose
 * result is the next handle. The handle is one SSA variable threaded
 * through the whole shader at once, when the first of these is selected:
 * 0 at the entry, each OUT defines a new one, a block with several
 * predecessors gets a phi (their handles, in the CFG's predecessor order),
 * and phis that turn out trivial are removed. A block's single
 * predecessor always comes before it in program order (back edges reach
 * only loop headers, which also follow the block before the loop), so one
 * pass in program order finds every block's handle.
 *
 * Tessellation control outputs go to AST a[vertex][RZ + offset] as they
 * are written; per-patch outputs stay store_outputs read from registers
 * at the end. A per-vertex input read by vertex index compares the index
 * with each vertex and selects among the bound inputs (SEL on the
 * predicate-compare models).
 *
 * Models whose vertices leave by message (semantics gs_msg: gfx9
 * s_sendmsg) and that have no attribute store reach the stage windows
 * with memory words instead (emu.h EMU_ADDR_STAGE_IN/OUT; the model's
 * "Geometry and tessellation stages"), as the reference path does
 * (compiler/ref/ref_gfx9_stages.c): a geometry shader's handle is the
 * lane's vertex slot (0 at the entry, one more per emit), a store writes
 * the window word of that slot, an emit or cut is a message with the
 * stream in it, M0 (the message's implicit source) is written at the
 * entry and the shader ends with the done message; a tessellation
 * control output is a store at its output vertex; a per-vertex input
 * read by vertex index is a load from the input window at that vertex.
 * Directly indexed inputs stay bound.
 */
#include "compiler/opt/opt_isel.h"
#include "emu/emu.h"

#include <stdio.h>
#include <stdlib.h>

/* Vertices leave by message and outputs through the stage windows (gfx9). */
static bool
window_model(const struct isel *s)
{
   return s->op[ISA_SEM_GS_MSG] >= 0 && s->op[ISA_SEM_AST] < 0;
}

static bool
stage_refused(struct isel *s, const char *what)
{
   if (!s->ctx->failed)
      ir_error(s->ctx->diags, s->sh, 0, "unsupported: the %s %s", isa_model_name(s->m), what);
   s->ctx->failed = true;
   return false;
}

/* Geometry and tessellation stages need the hardware's (the model's
 * features); geometry shaders need the model's vertex emit and attribute
 * store, tessellation control shaders its attribute store. */
bool
isel_stage_supported(struct isel *s)
{
   enum tgsi_stage st = s->sh->stage;
   bool tess = st == TGSI_STAGE_TESS_CTRL || st == TGSI_STAGE_TESS_EVAL;
   if (st == TGSI_STAGE_GEOM && !isa_has_feature(s->m, ISA_FEATURE_GEOMETRY))
      return stage_refused(s, "hardware has no geometry-shader stage");
   if (tess && !isa_has_feature(s->m, ISA_FEATURE_TESSELLATION))
      return stage_refused(s, "hardware has no tessellation stages");
   if (window_model(s)) /* messages and stage-window words */
      return true;
   if (st == TGSI_STAGE_GEOM && (s->op[ISA_SEM_EMIT] < 0 || s->op[ISA_SEM_AST] < 0))
      return stage_refused(s, "model has no vertex emit or attribute store");
   if (st == TGSI_STAGE_TESS_CTRL && s->op[ISA_SEM_AST] < 0)
      return stage_refused(s, "model has no attribute store");
   return true;
}

/* Gives operand k of x the modifier value that makes it cover n registers
 * (sm50 AST's size), found through the model's operand counts. */
static bool
set_count(const struct isa_model *m, struct isa_insn *x, unsigned k, unsigned n)
{
   if (isa_opnd_count(m, x, ISA_SLOT_SRC(k)) == n)
      return true;
   for (unsigned mod = 0; mod < isa_mod_count(m); mod++)
      for (int v = 0; v < 16; v++) {
         struct isa_insn t;
         isa_insn_init(m, x->op, &t);
         t.mod[mod] = (int16_t)v;
         if (isa_check_insn(m, &t, NULL) != ISA_ERR_MODIFIER &&
             isa_opnd_count(m, &t, ISA_SLOT_SRC(k)) == n) {
            x->mod[mod] = (int16_t)v;
            return true;
         }
      }
   return false;
}

/* AST of n words: data d[0..n) to attribute byte `off` of vertex v,
 * before pos. */
static struct ir_instr *
attr_store(struct isel *s, struct ir_instr *pos, struct ir_instr *v, uint32_t off,
           struct ir_instr *const *d, unsigned n)
{
   if (s->op[ISA_SEM_AST] < 0 || s->zero_reg < 0) {
      isel_unsupported(s, pos, "no attribute store");
      return NULL;
   }
   if (off + 4 * n > 1024u) {
      isel_unsupported(s, pos, "an output beyond the 10-bit attribute offsets");
      return NULL;
   }
   struct ir_instr *in = ir_mach_create(s->sh, (unsigned)s->op[ISA_SEM_AST]);
   if (!set_count(s->m, &in->mach->insn, 3, n)) {
      ir_instr_remove(in);
      isel_unsupported(s, pos, "no attribute store of that size");
      return NULL;
   }
   ir_mach_set_fixed_reg(in, 0, (unsigned)s->gpr, (unsigned)s->zero_reg, 0);
   ir_mach_set_fixed(in, 1, off);
   ir_mach_set_src(in, 2, &v, 1);
   ir_mach_set_src(in, 3, d, n);
   in->flags = pos->flags;
   in->line = pos->line;
   ir_insert_before(pos, in);
   return in;
}

/* The stores that continue in's run in its block: the same output (and
 * vertex), the next components, nothing with an effect between; an
 * aligned group of 4 or 2 (the hardware wants AST.128 and AST.64 on
 * aligned attributes). Returns how many, in run[]. */
static unsigned
store_run(struct ir_instr *in, struct ir_instr **run)
{
   bool vtx = in->op == IR_OP_STORE_OUTPUT_VTX;
   unsigned n = 1;
   run[0] = in;
   for (struct ir_instr *p = in->next; p && n < 4; p = p->next) {
      if (p->op == in->op && p->slot == in->slot && p->comp == in->comp + (int32_t)n &&
          (!vtx || p->src[0] == in->src[0]))
         run[n++] = p;
      else if (ir_instr_has_effect(p))
         break;
   }
   return n == 4 && in->comp == 0 ? 4 : n >= 2 && in->comp % 2 == 0 ? 2 : 1;
}

/* A store_output (vertex v) or store_output_vtx and the stores that join
 * it: one AST before the last of them, which all go. Returns the AST and
 * the instruction after the run in *next. */
static struct ir_instr *
select_store(struct isel *s, struct ir_instr *in, struct ir_instr *v, struct ir_instr **next)
{
   struct ir_instr *run[4], *d[4];
   unsigned n = store_run(in, run);
   for (unsigned k = 0; k < n; k++)
      d[k] = run[k]->src[run[k]->nsrc - 1];
   uint32_t off = EMU_ATTR_OUTPUT((uint32_t)in->slot) + 4u * (uint32_t)in->comp;
   struct ir_instr *a = attr_store(s, run[n - 1], v, off, d, n);
   *next = run[n - 1]->next;
   for (unsigned k = 0; a && k < n; k++)
      if (run[k] != in)
         ir_instr_remove(run[k]);
   return a;
}

/* OUT.EMIT / OUT.CUT of handle h with pos's stream; the next handle. */
static struct ir_instr *
vertex_out(struct isel *s, struct ir_instr *pos, struct ir_instr *h)
{
   struct ir_instr *stream = isel_imm(s, pos, (uint32_t)pos->stream);
   struct ir_instr *o = isel_build2(s, pos, ISA_SEM_EMIT, h, stream);
   isel_set_mod(s, o, isa_mod_by_role(s->m, ISA_ROLE_EMIT_MODE),
                pos->op == IR_OP_EMIT ? "emit" : "cut");
   return o;
}

/* The ops of one block, the handle at its start in h; returns the handle
 * at its end. */
static struct ir_instr *
select_block(struct isel *s, struct ir_block *b, struct ir_instr *h)
{
   for (struct ir_instr *in = b->first, *next; in && !s->ctx->failed; in = next) {
      next = in->next;
      if (in->op == IR_OP_STORE_OUTPUT) {
         if (select_store(s, in, h, &next))
            ir_instr_remove(in);
      } else if (in->op == IR_OP_EMIT || in->op == IR_OP_END_PRIM) {
         struct ir_instr *o = vertex_out(s, in, h);
         if (!o)
            return h;
         h = o;
         ir_instr_remove(in);
      }
   }
   return h;
}

static void
remove_trivial_phis(struct ir_shader *sh, struct ir_instr **phis, unsigned n)
{
   for (bool again = true; again;) {
      again = false;
      for (unsigned i = 0; i < n; i++) {
         struct ir_instr *v = phis[i] ? ir_phi_trivial_value(phis[i]) : NULL;
         if (!v)
            continue;
         opt_replace(sh, phis[i], v);
         phis[i] = NULL;
         again = true;
      }
   }
}

/* ------------------------------------------------------------------ */
/* Stage windows (gfx9)                                                 */

/* The byte offset of vertex v in a window: v << EMU_STAGE_VERTEX_SHIFT. */
static struct ir_instr *
vertex_off(struct isel *s, struct ir_instr *pos, struct ir_instr *v)
{
   if (v->op == IR_OP_IMM)
      return isel_imm(s, pos, (uint32_t)v->imm << EMU_STAGE_VERTEX_SHIFT);
   return isel_shift(s, pos, ISA_SEM_SHL, true, NULL, v, isel_imm(s, pos, EMU_STAGE_VERTEX_SHIFT));
}

/* Word (slot, comp) of a window at vertex offset voff: a store of data,
 * or a load when data is NULL. */
static struct ir_instr *
window_word(struct isel *s, struct ir_instr *pos, uint32_t base, struct ir_instr *voff,
            const struct ir_instr *at, struct ir_instr *data)
{
   if (at->slot < 0 || at->slot >= 64 || at->comp < 0 || at->comp >= 4)
      return isel_unsupported(s, pos, "a stage-window word beyond the 64 slots"), NULL;
   return isel_window_word(s, pos, base, voff,
                           EMU_STAGE_OFF(0, (uint32_t)at->slot, (uint32_t)at->comp), data);
}

/* The message op with the emit_mode modifier (emit, cut), or without it
 * (the done message). */
static int
message_op(const struct isel *s, bool mode)
{
   unsigned n;
   const uint16_t *ops = isa_ops_by_sem(s->m, ISA_SEM_GS_MSG, &n);
   int mm = isa_mod_by_role(s->m, ISA_ROLE_EMIT_MODE);
   for (unsigned i = 0; i < n; i++)
      if ((mm >= 0 && isa_op_has_mod(s->m, ops[i], mm)) == mode)
         return ops[i];
   return -1;
}

/* The emit or cut message of pos (emit, end_prim) with its stream. */
static bool
message(struct isel *s, struct ir_instr *pos)
{
   int op = message_op(s, true), sm = isa_mod_by_role(s->m, ISA_ROLE_GS_STREAM);
   char stream[8];
   snprintf(stream, sizeof(stream), "s%d", pos->stream);
   int v = sm >= 0 ? isa_mod_value(s->m, (unsigned)sm, stream) : -1;
   if (op < 0 || v < 0 || !isa_op_has_mod(s->m, (unsigned)op, sm))
      return isel_unsupported(s, pos, "a stream the message cannot name");
   struct ir_instr *m = ir_mach_create(s->sh, (unsigned)op);
   isel_set_mod(s, m, isa_mod_by_role(s->m, ISA_ROLE_EMIT_MODE),
                pos->op == IR_OP_EMIT ? "emit" : "cut");
   m->mach->insn.mod[sm] = (int16_t)v; /* the op has it: a trial with the default mode fails */
   m->flags = pos->flags;
   m->line = pos->line;
   ir_insert_before(pos, m);
   return true;
}

/* M0 (the messages' implicit source) written at the entry: the hardware
 * reads the GS wave id there; the emulator gives every wave its own
 * window, so the value (0, as the reference writes) is not checked. */
static bool
write_m0(struct isel *s)
{
   unsigned n;
   int op = message_op(s, true), mov = isel_scalar_op(s, ISA_SEM_MOV, 32);
   const struct isa_implicit *imp = op >= 0 ? isa_op_implicit(s->m, (unsigned)op, false, &n) : NULL;
   if (!imp || n != 1 || mov < 0)
      return stage_refused(s, "model's message reads no register the shader can write");
   struct ir_block *entry = ir_list_first_block(&s->sh->body);
   struct ir_instr *w = ir_mach_create(s->sh, (unsigned)mov);
   w->type = IR_TYPE_NONE; /* writes M0, a fixed register */
   struct ir_instr *zero = ir_instr_create(s->sh, IR_OP_IMM, 0);
   zero->type = IR_TYPE_32;
   zero->imm = 0;
   ir_block_prepend(entry, w);
   ir_block_prepend(entry, zero);
   ir_mach_set_src(w, 0, &zero, 1);
   w->mach->insn.dst[0] =
       (struct isa_opnd){.kind = ISA_OPND_REG, .file = imp[0].file, .index = imp[0].index};
   return true;
}

/* The done message, at the end of the shader. */
static bool
message_done(struct isel *s)
{
   int op = message_op(s, false);
   if (op < 0)
      return stage_refused(s, "model has no done message");
   ir_block_append(ir_list_last_block(&s->sh->body), ir_mach_create(s->sh, (unsigned)op));
   return true;
}

/* The window offset for a store at pos: the block's last one (voff) when
 * it is the current slot's, else a new one. OPT_FAULT_GS_OFFSET_STALE:
 * the last one also after an emit moved the slot on. */
static struct ir_instr *
store_offset(struct isel *s, struct ir_instr *pos, struct ir_instr *h, struct ir_instr *voff,
             bool stale)
{
   if (!voff || opt_conservative(s->ctx, OPT_STAGE_ISEL, pos->line, "window offset %%%u", pos->id))
      return vertex_off(s, pos, h);
   if (stale)
      return opt_fault_fires(s->ctx, OPT_FAULT_GS_OFFSET_STALE,
                             "offset %%%u kept at %%%u after an emit", voff->id, pos->id)
                 ? voff
                 : vertex_off(s, pos, h);
   return opt_transform(s->ctx, "reuse window offset %%%u at %%%u", voff->id, pos->id)
              ? voff
              : vertex_off(s, pos, h);
}

/* One block of a geometry shader on a window model, the lane's vertex
 * slot at its start in h; returns the slot at its end. The slot's window
 * offset is made at its first store and reused by the next ones until an
 * emit (the conservative isel: one per store). */
static struct ir_instr *
select_block_window(struct isel *s, struct ir_block *b, struct ir_instr *h)
{
   struct ir_instr *voff = NULL; /* the last store's window offset */
   bool stale = false;           /* an emit came after it */
   for (struct ir_instr *in = b->first, *next; in && !s->ctx->failed; in = next) {
      next = in->next;
      if (in->op == IR_OP_STORE_OUTPUT) {
         voff = store_offset(s, in, h, voff, stale);
         stale = false;
         if (voff && window_word(s, in, EMU_ADDR_STAGE_OUT, voff, in, in->src[in->nsrc - 1]))
            ir_instr_remove(in);
      } else if (in->op == IR_OP_EMIT || in->op == IR_OP_END_PRIM) {
         if (!message(s, in))
            return h;
         if (in->op == IR_OP_EMIT) {
            h = isel_build2(s, in, ISA_SEM_IADD, h, isel_imm(s, in, 1));
            stale = true;
         }
         ir_instr_remove(in);
         if (!h)
            return NULL;
      }
   }
   return h;
}

/* Selects every geometry-shader output op of the shader, threading the
 * vertex handle (see the top of the file). */
static bool
select_gs(struct isel *s)
{
   struct ir_shader *sh = s->sh;
   ir_compute_cfg(sh);
   unsigned nb = sh->nblocks;
   struct ir_instr **hout = xcalloc(nb + 1, sizeof(*hout));
   struct ir_instr **phis = xcalloc(nb + 1, sizeof(*phis));
   struct ir_instr *h0 = ir_instr_create(sh, IR_OP_IMM, 0);
   h0->type = IR_TYPE_32;
   h0->imm = 0;
   ir_block_prepend(sh->blocks[0], h0);
   bool window = window_model(s);
   if (window && (!write_m0(s) || !message_done(s))) {
      free(hout);
      free(phis);
      return false;
   }
   for (unsigned i = 0; i < nb && !s->ctx->failed; i++) {
      struct ir_block *b = sh->blocks[i];
      struct ir_instr *h = h0;
      if (b->npreds == 1 && b->preds[0]->index < i) {
         h = hout[b->preds[0]->index];
      } else if (b->npreds) {
         phis[i] = ir_instr_create(sh, IR_OP_PHI, b->npreds);
         phis[i]->type = IR_TYPE_32;
         ir_block_prepend(b, phis[i]);
         h = phis[i];
      }
      hout[i] = window ? select_block_window(s, b, h) : select_block(s, b, h);
   }
   for (unsigned i = 0; i < nb; i++)
      for (unsigned k = 0; phis[i] && k < sh->blocks[i]->npreds; k++) {
         struct ir_block *p = sh->blocks[i]->preds[k];
         ir_set_src(phis[i], k, hout[p->index] ? hout[p->index] : h0);
         phis[i]->pred[k] = p;
      }
   remove_trivial_phis(sh, phis, nb);
   free(hout);
   free(phis);
   sh->cfg_valid = false;
   return true;
}

/* store_output: an attribute store in a geometry shader (selected with
 * the rest of the shader's outputs); elsewhere left for the bindings. */
bool
isel_output(struct isel *s, struct ir_instr *in)
{
   if (s->sh->stage != TGSI_STAGE_GEOM)
      return false;
   (void)in;
   return select_gs(s);
}

/* emit, end_prim */
bool
isel_gs(struct isel *s, struct ir_instr *in)
{
   if (s->sh->stage != TGSI_STAGE_GEOM)
      return isel_unsupported(s, in, "outside a geometry shader");
   return select_gs(s);
}

/* store_output_vtx (and the stores joining it): AST to the output
 * vertex src0. */
struct ir_instr *
isel_output_vtx(struct isel *s, struct ir_instr *in)
{
   struct ir_instr *next;
   if (window_model(s)) {
      struct ir_instr *voff = vertex_off(s, in, in->src[0]);
      return voff ? window_word(s, in, EMU_ADDR_STAGE_OUT, voff, in, in->src[in->nsrc - 1]) : NULL;
   }
   return select_store(s, in, in->src[0], &next);
}

/* The load_input of (slot, comp, vertex) in the entry block, made there
 * if there is none (inputs are bound before the first instruction). */
static struct ir_instr *
input_at(struct isel *s, const struct ir_instr *like, uint32_t vtx)
{
   struct ir_block *entry = ir_list_first_block(&s->sh->body);
   for (struct ir_instr *in = entry->first; in; in = in->next)
      if (in->op == IR_OP_LOAD_INPUT && in->slot == like->slot && in->comp == like->comp &&
          in->vtx == (int32_t)vtx)
         return in;
   struct ir_instr *in = ir_instr_create(s->sh, IR_OP_LOAD_INPUT, 0);
   in->slot = like->slot;
   in->comp = like->comp;
   in->vtx = (int32_t)vtx;
   in->line = like->line;
   ir_block_prepend(entry, in);
   return in;
}

/* Vertices a per-vertex input has: the front end's count, or the direct
 * reads' when it is unknown (IR text). */
static uint32_t
input_vertices(const struct ir_shader *sh)
{
   if (sh->in_vertices)
      return sh->in_vertices;
   uint32_t n = 1;
   for (unsigned i = 0; i < sh->nvalues; i++) {
      const struct ir_instr *in = sh->values[i];
      if (in && !in->removed && in->op == IR_OP_LOAD_INPUT && in->vtx != IR_NONE && in->vtx >= 0 &&
          (uint32_t)in->vtx + 1 > n)
         n = (uint32_t)in->vtx + 1;
   }
   return n;
}

/* The predicate idx == j: an equal compare earlier in pos's block (every
 * channel of a vec4 read asks the same), else a new ISETP. */
static struct ir_instr *
vertex_is(struct isel *s, struct ir_instr *pos, struct ir_instr *idx, uint32_t j)
{
   for (struct ir_instr *p = pos->prev; p; p = p->prev) {
      const struct ir_mach *m = p->op == IR_OP_MACH ? p->mach : NULL;
      if (m && m->insn.sem == ISA_SEM_ISETP && p->nsrc == 2 && p->src[0] == idx &&
          p->src[1]->op == IR_OP_IMM && (uint32_t)p->src[1]->imm == j && m->guard == IR_MACH_FIXED)
         return p;
   }
   return isel_setp(s, pos, ISA_SEM_ISETP, idx, isel_imm(s, pos, j), "eq", "u32");
}

/* load_input_vind: the input of vertex src0, one compare and select per
 * vertex after the first (another index reads vertex 0's: undefined in
 * TGSI). */
struct ir_instr *
isel_input_vind(struct isel *s, struct ir_instr *in)
{
   if (window_model(s)) { /* a load from the input window at the vertex */
      struct ir_instr *voff = vertex_off(s, in, in->src[0]);
      return voff ? window_word(s, in, EMU_ADDR_STAGE_IN, voff, in, NULL) : NULL;
   }
   if (!s->setp || s->op[ISA_SEM_SEL] < 0) {
      isel_unsupported(s, in, "no selection for this target");
      return NULL;
   }
   uint32_t nv = MIN2(input_vertices(s->sh), 64u);
   struct ir_instr *r = input_at(s, in, 0);
   for (uint32_t j = 1; j < nv && !s->ctx->failed; j++) {
      struct ir_instr *x = input_at(s, in, j);
      struct ir_instr *p = vertex_is(s, in, in->src[0], j);
      r = p ? isel_build3(s, in, ISA_SEM_SEL, x, p, r) : NULL;
      if (!r)
         return NULL;
   }
   return r;
}
