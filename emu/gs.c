/*
 * Stage outputs written as they are computed: attribute stores (semantics
 * ast) and geometry-shader emits (semantics emit), read as isa/isa.h
 * describes them.
 *
 * Attribute layout (emu.h EMU_ATTR_OUTPUT): byte 16 * i + 4 * c of an
 * output vertex is OUT[i].c. A store goes straight to the env:
 *  - geometry shaders: the vertex operand is a handle; handle h names the
 *    lane's vertex h (gs_data), so a store lands in the vertex the next
 *    emit will send. The handles a program can hold start at 0 (the
 *    program sets its first one) and emit returns h + 1.
 *  - other stages: the vertex operand is the output vertex (tessellation
 *    control: 0 .. out_vertices - 1; per-patch outputs and the other
 *    stages: 0), written in e->out.
 * A word outside the outputs, a vertex out of range or a handle at or
 * beyond the lane's maximum is dropped (REG_OOB, except handles beyond the
 * maximum: the emit that would send them counts GS_OVERFLOW).
 *
 * Emit with handle h and stream s, matching the interpreter's EMIT
 * (compiler/tgsi/tgsi_interp_res.c): vertex h of the lane gets the stream
 * (its low 8 bits) and the lane's primitive number, the number of
 * primitives it ended before; the lane's count becomes h + 1. At or
 * beyond gs_max_vertices the vertex is dropped and GS_OVERFLOW counted.
 * A cut (ENDPRIM) adds one to the lane's primitive number. The
 * destination gets h + 1 after an emit, h after a cut alone.
 *
 * Message emits (semantics gs_msg, gfx9 s_sendmsg MSG_GS): no handle and
 * no destination; for each lane in EXEC the emit sends the lane's next
 * vertex (slot gs_count) to the message's stream, the cut ends the lane's
 * primitive, as above; MSG_GS_DONE (no operation) changes nothing. The
 * vertex data reaches the slots through the stage window: a store at
 * EMU_ADDR_STAGE_OUT + EMU_STAGE_OFF(v, i, c) writes OUT[i].c of slot v
 * (tessellation control: of output vertex v), the same words an
 * attribute store at vertex v reaches; a load at EMU_ADDR_STAGE_IN +
 * EMU_STAGE_OFF(v, i, c) reads the lane's IN[v][i].c (the bound inputs).
 * Words only; anything else in a window is an event, 0 read, store dropped.
 *
 * The emulator's env gets no flags: its values are whatever the program
 * wrote (data never written stays UNDEF-flagged, as outputs do); which
 * values are defined is the interpreter's to say.
 */
#include "emu/emu_priv.h"

#include <stdio.h>
#include <stdlib.h>

static bool
setup_err(struct diag_list *d, const struct isa_insn *in, const char *what)
{
   diag_add(d, DIAG_ERROR, "<program>", 0, 0, NULL, "instruction at 0x%x: %s", in->addr, what);
   return false;
}

/* ast: src0 address register, src1 byte offset, src2 vertex, src3 data;
 * emit: src0 handle, src1 stream, the mode from the emit_mode role. */
bool
emu_gs_setup(const struct emu_code *c, const struct isa_insn *in, struct emu_op *op,
             struct diag_list *d)
{
   if (op->kind == EMU_K_AST) {
      if (in->nsrc != 4 || op->src[1].kind != EMU_S_IMM || op->src[3].count < 1 ||
          op->src[3].count > 4)
         return setup_err(d, in, "attribute store without address, offset, vertex and data");
      op->ncomp = op->src[3].count;
      return true;
   }
   static const char *const modes[] = {"emit", "cut", "emit_cut"};
   int mm = isa_mod_by_role(c->model, ISA_ROLE_EMIT_MODE);
   op->emit_mode = 0;
   for (unsigned k = 0; k < 3 && mm >= 0; k++)
      if (isa_mod_value(c->model, (unsigned)mm, modes[k]) == in->mod[mm])
         op->emit_mode = (uint8_t)(k + 1);
   if (in->sem == ISA_SEM_GS_MSG) { /* GS_DONE: no operation, mode 0 */
      int sm = isa_mod_by_role(c->model, ISA_ROLE_GS_STREAM);
      op->gs_msg = 1;
      op->gs_stream = (uint8_t)(sm >= 0 && in->mod[sm] > 0 ? in->mod[sm] : 0);
      return true;
   }
   if (!op->emit_mode || in->nsrc != 2 || op->ndst != 1)
      return setup_err(d, in, "emit without a handle, a stream, a destination and a mode");
   return true;
}

/* Geometry shaders: the env's vertex arrays for the program's maximum
 * (kept when they already have that shape), their data UNDEF until
 * written, and the lanes' primitive numbers. */
bool
emu_gs_begin(struct emu_run *run, struct diag_list *d)
{
   struct env *e = run->env;
   if (e->stage != TGSI_STAGE_GEOM)
      return true;
   uint32_t maxv = run->code->gs_max_vertices ? run->code->gs_max_vertices : 1;
   if ((!e->gs_count || e->gs_max_vertices != maxv) && !env_alloc_gs(e, maxv)) {
      diag_add(d, DIAG_ERROR, "<program>", 0, 0, NULL,
               "%u geometry-shader vertices per lane do not fit", maxv);
      return false;
   }
   size_t nw = (size_t)e->nlanes * maxv * e->nout * 4;
   for (size_t i = 0; i < nw; i++) {
      e->gs_data[i] = 0;
      e->gs_flags[i] = ENV_F_UNDEF;
   }
   memset(e->gs_stream, 0, (size_t)e->nlanes * maxv);
   memset(e->gs_prim, 0, (size_t)e->nlanes * maxv * 4);
   run->gs_prims = xcalloc(e->nlanes + 1, 4);
   return true;
}

static void
store_word(struct emu_wave *w, uint32_t lane, uint32_t vertex, uint32_t byte, uint32_t v)
{
   struct env *e = w->run->env;
   uint32_t reg = byte / 16, chan = byte / 4 % 4;
   if ((byte & 3) || reg >= e->nout) {
      env_count(e, byte & 3 ? ENV_EV_MISALIGNED : ENV_EV_REG_OOB, 1);
      return;
   }
   if (e->stage == TGSI_STAGE_GEOM) {
      if (!e->gs_data || vertex >= e->gs_max_vertices)
         return; /* the emit of this handle counts the overflow */
      size_t i = (((size_t)lane * e->gs_max_vertices + vertex) * e->nout + reg) * 4 + chan;
      e->gs_data[i] = v;
      e->gs_flags[i] = 0;
      return;
   }
   if (!e->out || vertex >= e->out_vertices) {
      env_count(e, ENV_EV_REG_OOB, 1);
      return;
   }
   size_t i = env_out_index(e, vertex, reg, chan) + lane;
   e->out[i] = v;
   e->out_flags[i] = 0;
}

void
emu_exec_ast(struct emu_wave *w, const struct emu_op *op, int64_t t)
{
   struct emu_run *run = w->run;
   const uint32_t *addr = emu_fetch(w, op, &op->src[0], 0, t, run->tmp_src[0]);
   const uint32_t *vtx = emu_fetch(w, op, &op->src[2], 0, t, run->tmp_src[2]);
   const struct emu_src *ds = &op->src[3];
   const uint32_t *data[4];
   for (unsigned c = 0; c < op->ncomp; c++) {
      if (ds->kind != EMU_S_REG) {
         data[c] = emu_fetch(w, op, ds, 0, t, run->tmp_src[3]);
         continue;
      }
      data[c] = emu_reg_read(w, op, ds, ds->unit + c, t);
      if (op->war)
         emu_mark_war(w, op, ds->unit + c, t);
   }
   uint32_t *mask;
   if (!emu_exec_mask(w, op, t, &mask))
      return;
   for (unsigned i = 0; i < w->n; i++)
      if (mask[i] & 1)
         for (unsigned c = 0; c < op->ncomp; c++)
            store_word(w, w->first_lane + i, vtx[i], addr[i] + op->src[1].value + 4 * c,
                       data[c][i]);
}

/* A message emit or cut for the lanes in EXEC (the message is the wave's;
 * EXEC says which lanes it speaks for). */
static void
exec_msg(struct emu_wave *w, const struct emu_op *op)
{
   struct emu_run *run = w->run;
   struct env *e = run->env;
   bool gs = e->stage == TGSI_STAGE_GEOM && e->gs_count && run->gs_prims;
   for (unsigned i = 0; i < w->n && op->emit_mode; i++) {
      uint32_t g = w->first_lane + i;
      if (!(w->exec[i] & 1))
         continue;
      if (op->emit_mode & 1) {
         uint32_t h = gs ? e->gs_count[g] : 0;
         if (!gs || h >= e->gs_max_vertices) {
            env_count(e, ENV_EV_GS_OVERFLOW, 1);
         } else {
            size_t at = (size_t)g * e->gs_max_vertices + h;
            e->gs_stream[at] = op->gs_stream;
            e->gs_prim[at] = run->gs_prims[g];
            e->gs_count[g] = h + 1;
         }
      }
      if ((op->emit_mode & 2) && gs)
         run->gs_prims[g]++;
   }
}

void
emu_exec_emit(struct emu_wave *w, const struct emu_op *op, int64_t t)
{
   struct emu_run *run = w->run;
   struct env *e = run->env;
   if (op->gs_msg) {
      for (unsigned k = 0; k < op->nsrc; k++) /* M0: read for its timing */
         emu_fetch(w, op, &op->src[k], 0, t, run->tmp_src[0]);
      exec_msg(w, op);
      return;
   }
   const uint32_t *h = emu_fetch(w, op, &op->src[0], 0, t, run->tmp_src[0]);
   const uint32_t *s = emu_fetch(w, op, &op->src[1], 0, t, run->tmp_src[1]);
   uint32_t *mask;
   unsigned on = emu_exec_mask(w, op, t, &mask);
   if (!on)
      return;
   bool gs = e->stage == TGSI_STAGE_GEOM && e->gs_count && run->gs_prims;
   for (unsigned i = 0; i < w->n; i++) {
      uint32_t g = w->first_lane + i, next = h[i];
      if (!(mask[i] & 1)) {
         run->tmp_comp[i] = 0;
         continue;
      }
      if (op->emit_mode & 1) {
         next = h[i] + 1;
         if (!gs || h[i] >= e->gs_max_vertices) {
            env_count(e, ENV_EV_GS_OVERFLOW, 1);
         } else {
            size_t at = (size_t)g * e->gs_max_vertices + h[i];
            e->gs_stream[at] = (uint8_t)s[i];
            e->gs_prim[at] = run->gs_prims[g];
            e->gs_count[g] = h[i] + 1;
         }
      }
      if ((op->emit_mode & 2) && gs)
         run->gs_prims[g]++;
      run->tmp_comp[i] = next;
   }
   emu_write_comps(w, op, t, 1, mask, on);
}

/* The stage windows: words at EMU_STAGE_OFF(v, i, c), lane i of the wave. */
uint32_t
emu_stage_in_word(struct emu_wave *w, unsigned lane, uint32_t off, unsigned nb)
{
   struct env *e = w->run->env;
   uint32_t v = off >> EMU_STAGE_VERTEX_SHIFT, byte = off & ((1u << EMU_STAGE_VERTEX_SHIFT) - 1);
   if (nb != 4 || (byte & 3)) {
      env_count(e, ENV_EV_MISALIGNED, 1);
      return 0;
   }
   if (byte / 16 >= e->nin || v >= e->in_vertices) {
      env_count(e, ENV_EV_INPUT_OOB, 1);
      return 0;
   }
   return env_in(e, v, byte / 16, byte / 4 % 4)[w->first_lane + lane];
}

void
emu_stage_out_word(struct emu_wave *w, unsigned lane, uint32_t off, unsigned nb, uint32_t v)
{
   if (nb != 4) {
      env_count(w->run->env, ENV_EV_MISALIGNED, 1);
      return;
   }
   store_word(w, w->first_lane + lane, off >> EMU_STAGE_VERTEX_SHIFT,
              off & ((1u << EMU_STAGE_VERTEX_SHIFT) - 1), v);
}

/* The output registers the attribute stores reach at addresses known
 * before the run (the address operand RZ or an immediate: the byte
 * offset alone), so a caller without declarations can size the outputs;
 * stores through an address register may reach further. */
uint32_t
emu_code_output_regs(const struct emu_code *c)
{
   uint64_t n = 0;
   for (unsigned i = 0; i < c->n; i++) {
      const struct emu_op *op = &c->ops[i];
      if (op->kind != EMU_K_AST || op->src[0].kind != EMU_S_IMM)
         continue;
      uint64_t end = (uint64_t)op->src[0].value + op->src[1].value + 4u * op->ncomp;
      n = MAX2(n, (end + 15) / 16);
   }
   return (uint32_t)MIN2(n, 1024);
}
