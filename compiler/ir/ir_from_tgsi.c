/*
 * TGSI -> IR: registers, control flow and SSA construction. The per-opcode
 * arithmetic is in ir_from_tgsi_ops.c.
 *
 * Every directly addressed channel of TEMP, OUT and ADDR is a variable with
 * a current SSA value (x->defs). TGSI control flow is structured, so SSA is
 * built in one walk:
 *   IF/UIF   the defs are saved, both sides translated from the saved defs,
 *            and a phi is made for every variable the sides disagree on;
 *   loops    a header phi is made for every variable written anywhere in
 *            the loop (a scan of its instructions, through CALs), and its
 *            sources are filled at ENDLOOP from the defs at each CONT and at
 *            the end; BRKs give the defs at the exit (phis where they differ);
 *   SWITCH   a chain of ifs, one per group of CASE/DEFAULT labels, with a
 *            fall-through flag variable: a case runs if its label matches or
 *            the previous case ran to its end without BRK;
 *   CAL      the subroutine is translated in place (inlined);
 *   RET      ends the function; a RET inside an IF/SWITCH breaks out of a
 *            one-trip loop put around the function.
 * Code after a jump cannot run and is not translated. Phis that turn out
 * trivial (all sources one value) are removed at the end.
 *
 * TEMP registers addressed indirectly anywhere live in IR arrays instead
 * (array_load/array_store), as does every access to them: the whole
 * declared ARRAY(n), or the whole TEMP file for an indirect access without
 * an array id. A variable read before any write reads 0.
 *
 * Outputs are stored once, with their final values, at the end of the main
 * program (or, in a geometry shader, before each EMIT).
 *
 * Not translated ("unsupported", naming the opcode and line): indirect
 * outputs, indirect constant buffers or samplers, RET inside a loop, BRK
 * in an IF inside a SWITCH case, recursion, and the opcodes listed in
 * ir_from_tgsi_ops.c.
 */
#include "compiler/ir/ir.h"

#include <stdio.h>
#include <stdlib.h>

bool
xl_error(struct xlate *x, const char *fmt, ...)
{
   if (x->failed)
      return false;
   const struct tgsi_insn *in = x->insn;
   va_list ap;
   va_start(ap, fmt);
   diag_vadd(x->diags, DIAG_ERROR, x->ts->name, in ? in->loc.line : 0, in ? in->loc.col : 0, NULL,
             fmt, ap);
   va_end(ap);
   x->failed = true;
   return false;
}

bool
xl_unsupported(struct xlate *x, const char *what)
{
   const char *op = x->insn ? tgsi_op_info[x->insn->op].name : "?";
   return xl_error(x, "unsupported: %s%s%s", op, what && *what ? " " : "", what ? what : "");
}

struct ir_instr *
xl_zero(struct xlate *x)
{
   return ir_imm32(&x->b, 0);
}

static struct ir_instr **
snapshot(const struct xlate *x)
{
   struct ir_instr **s = xmalloc((x->nvars + 1) * sizeof(*s));
   memcpy(s, x->defs, x->nvars * sizeof(*s));
   return s;
}

/* ------------------------------------------------------------------ */
/* Registers                                                            */

static int
var_of(const struct xlate *x, enum tgsi_file file, int32_t index, unsigned comp)
{
   if (index < 0)
      return -1;
   switch (file) {
   case TGSI_FILE_TEMP:
      return (unsigned)index < x->ntemps ? (int)(index * 4 + comp) : -1;
   case TGSI_FILE_OUT:
      return (unsigned)index < x->nouts ? (int)(x->out_base + index * 4 + comp) : -1;
   case TGSI_FILE_ADDR:
      return (unsigned)index < x->naddrs ? (int)(x->addr_base + index * 4 + comp) : -1;
   default:
      return -1;
   }
}

static struct ir_instr *
read_var(struct xlate *x, int v)
{
   /* An unwritten variable reads as 0; the zero is not recorded as its def
    * because it may sit in a block that does not dominate later reads. */
   return x->defs[v] ? x->defs[v] : xl_zero(x);
}

/* The address value of an indirect reference. */
static struct ir_instr *
address(struct xlate *x, const struct tgsi_ind *ind)
{
   int v = ind->file == TGSI_FILE_ADDR ? var_of(x, ind->file, (int32_t)ind->index, ind->comp) : -1;
   if (v < 0) {
      xl_unsupported(x, "with an indirect address not in a declared ADDR register");
      return xl_zero(x);
   }
   return read_var(x, v);
}

static const struct xl_array *
temp_array(const struct xlate *x, int32_t index)
{
   if (index < 0 || (unsigned)index >= x->ntemps || x->temp_array[index] < 0)
      return NULL;
   return &x->arrays[x->temp_array[index]];
}

/* The array an access goes to: by its array id (or the whole-file array)
 * when indirect, since the literal may be any offset; by index otherwise. */
static const struct xl_array *
reg_array(const struct xlate *x, const struct tgsi_reg *reg)
{
   if (reg->file != TGSI_FILE_TEMP)
      return NULL;
   if (!reg->indirect)
      return temp_array(x, reg->index);
   for (unsigned a = 0; a < x->narrays; a++)
      if (x->arrays[a].id == (x->arrays[0].id == 0 ? 0 : reg->array_id))
         return &x->arrays[a];
   return NULL;
}

static struct ir_instr *
array_access(struct xlate *x, const struct tgsi_reg *reg, unsigned comp, struct ir_instr *val)
{
   const struct xl_array *a = reg_array(x, reg);
   if (!a) {
      xl_unsupported(x, "with an indirect TEMP outside the declared registers");
      return NULL;
   }
   bool store = val != NULL;
   enum ir_op op = reg->indirect ? (store ? IR_OP_ARRAY_STORE_IND : IR_OP_ARRAY_LOAD_IND)
                                 : (store ? IR_OP_ARRAY_STORE : IR_OP_ARRAY_LOAD);
   struct ir_instr *s[2];
   unsigned n = 0;
   if (reg->indirect)
      s[n++] = address(x, &reg->ind);
   if (store)
      s[n++] = val;
   struct ir_instr *in = ir_build(&x->b, op, n, s);
   in->arr = a->id;
   in->slot = reg->index - (int32_t)a->first;
   in->comp = (int32_t)comp;
   return in;
}

static bool
per_vertex(const struct xlate *x, const struct tgsi_reg *reg)
{
   enum tgsi_stage st = x->ts->stage;
   return reg->has_dim && reg->file == TGSI_FILE_IN &&
          (st == TGSI_STAGE_GEOM || st == TGSI_STAGE_TESS_CTRL || st == TGSI_STAGE_TESS_EVAL);
}

/* A register chosen by an address: value(k) where ADDR + index == k, for
 * each k of ks in turn (the first where none matches: the interpreter
 * leaves an address outside the file undefined), as the reference path's
 * select chain does. The chain is linear in the registers: more than
 * XL_MAX_SELECT of them is refused (a table that large belongs in the
 * constant file). */
#define XL_MAX_SELECT 256
static struct ir_instr *
select_by_address(struct xlate *x, const struct tgsi_reg *reg, const uint32_t *ks, unsigned nk,
                  struct ir_instr *(*value)(struct xlate *, const struct tgsi_reg *, uint32_t,
                                            unsigned),
                  unsigned comp)
{
   if (!nk)
      return xl_zero(x);
   if (nk > XL_MAX_SELECT) {
      char what[96];
      snprintf(what, sizeof(what), "reading %s indirectly among more than %d registers",
               tgsi_file_names[reg->file], XL_MAX_SELECT);
      xl_unsupported(x, what);
      return xl_zero(x);
   }
   struct ir_instr *base = ir_imm32(&x->b, (uint32_t)reg->index);
   struct ir_instr *a = ir_alu2(&x->b, IR_OP_IADD, address(x, &reg->ind), base);
   struct ir_instr *r = value(x, reg, ks[0], comp);
   for (unsigned i = 1; i < nk; i++) {
      struct ir_instr *v = value(x, reg, ks[i], comp);
      struct ir_instr *hit = ir_alu2(&x->b, IR_OP_IEQ, a, ir_imm32(&x->b, ks[i]));
      r = ir_alu3(&x->b, IR_OP_BCSEL, hit, v, r);
   }
   return r;
}

static struct ir_instr *
input_at(struct xlate *x, const struct tgsi_reg *reg, uint32_t k, unsigned comp)
{
   struct ir_instr *in = ir_build(&x->b, IR_OP_LOAD_INPUT, 0, NULL);
   in->slot = (int32_t)k;
   if (per_vertex(x, reg))
      in->vtx = reg->dim;
   in->comp = (int32_t)comp;
   return in;
}

static struct ir_instr *
imm_at(struct xlate *x, const struct tgsi_reg *reg, uint32_t k, unsigned comp)
{
   (void)reg;
   return ir_imm32(&x->b, x->ts->imms[k].u[comp]);
}

/* The declared registers of file f (at most 4096), in order. */
static uint32_t *
declared(const struct tgsi_shader *ts, enum tgsi_file f, unsigned *n)
{
   uint32_t *ks = NULL;
   unsigned cap = 0;
   *n = 0;
   for (unsigned i = 0; i < ts->ndecls; i++) {
      const struct tgsi_decl *d = &ts->decls[i];
      for (uint32_t r = d->first; d->file == f && r <= d->last && *n < 4096; r++)
         VEC_PUSH(ks, *n, cap, r);
   }
   return ks;
}

static struct ir_instr *
load_input(struct xlate *x, const struct tgsi_reg *reg, unsigned comp)
{
   bool pv = per_vertex(x, reg);
   if (reg->indirect && pv && reg->dim_indirect) {
      xl_unsupported(x, "with an input indirect in both vertex and index");
      return xl_zero(x);
   }
   if (reg->indirect) { /* IN[ADDR + i], of one vertex where per vertex */
      unsigned n;
      uint32_t *ks = declared(x->ts, TGSI_FILE_IN, &n);
      struct ir_instr *r = select_by_address(x, reg, ks, n, input_at, comp);
      free(ks);
      return r;
   }
   struct ir_instr *in;
   if (pv && reg->dim_indirect) {
      struct ir_instr *v = address(x, &reg->dim_ind);
      in = ir_build(&x->b, IR_OP_LOAD_INPUT_VIND, 1, &v);
      in->slot = reg->index;
   } else {
      in = ir_build(&x->b, IR_OP_LOAD_INPUT, 0, NULL);
      in->slot = reg->index;
   }
   if (pv && !reg->dim_indirect)
      in->vtx = reg->dim;
   in->comp = (int32_t)comp;
   return in;
}

static struct ir_instr *
load_const(struct xlate *x, const struct tgsi_reg *reg, unsigned comp)
{
   if (reg->dim_indirect) {
      xl_unsupported(x, "with an indirect constant buffer");
      return xl_zero(x);
   }
   struct ir_instr *in;
   if (reg->indirect) {
      struct ir_instr *a = address(x, &reg->ind);
      in = ir_build(&x->b, IR_OP_LOAD_CONST_IND, 1, &a);
   } else {
      in = ir_build(&x->b, IR_OP_LOAD_CONST, 0, NULL);
   }
   in->buf = reg->has_dim ? reg->dim : 0;
   in->slot = reg->index;
   in->comp = (int32_t)comp;
   return in;
}

/* One channel of a register, no modifiers. */
struct ir_instr *
xl_fetch_raw(struct xlate *x, const struct tgsi_reg *reg, unsigned comp)
{
   const struct tgsi_decl *d;
   int v;
   switch (reg->file) {
   case TGSI_FILE_TEMP:
      if (reg_array(x, reg))
         return array_access(x, reg, comp, NULL);
      if (reg->indirect)
         break;
      v = var_of(x, reg->file, reg->index, comp);
      if (v < 0)
         break;
      return read_var(x, v);
   case TGSI_FILE_OUT:
   case TGSI_FILE_ADDR:
      v = var_of(x, reg->file, reg->index, comp);
      if (v < 0 || reg->indirect || reg->has_dim) /* per-vertex outputs are stored at once */
         break;
      return read_var(x, v);
   case TGSI_FILE_IN:
      return load_input(x, reg, comp);
   case TGSI_FILE_CONST:
      return load_const(x, reg, comp);
   case TGSI_FILE_IMM:
      if (reg->indirect && !reg->has_dim) {
         uint32_t *ks = xmalloc((x->ts->nimms + 1) * sizeof(*ks));
         for (unsigned k = 0; k < x->ts->nimms; k++)
            ks[k] = k;
         struct ir_instr *r = select_by_address(x, reg, ks, x->ts->nimms, imm_at, comp);
         free(ks);
         return r;
      }
      if (reg->indirect || reg->index < 0 || (unsigned)reg->index >= x->ts->nimms)
         break;
      return ir_imm32(&x->b, x->ts->imms[reg->index].u[comp]);
   case TGSI_FILE_SV:
      d = tgsi_find_decl(x->ts, TGSI_FILE_SV, (uint32_t)reg->index);
      if (!d || !d->has_semantic || reg->indirect)
         break;
      {
         struct ir_instr *in = ir_build(&x->b, IR_OP_LOAD_SYSVAL, 0, NULL);
         in->sv = d->semantic;
         in->comp = (int32_t)comp;
         return in;
      }
   default:
      break;
   }
   char what[96];
   snprintf(what, sizeof(what), "reading %s[%d]%s", tgsi_file_names[reg->file], reg->index,
            reg->indirect ? " indirectly" : "");
   xl_unsupported(x, what);
   return xl_zero(x);
}

/* One channel of a source after its swizzle and modifiers. '-' and '|x|'
 * mean float sign operations for float fetches; '-' is 0 - x for integer
 * fetches, where '|x|' does not exist. */
struct ir_instr *
xl_fetch(struct xlate *x, const struct tgsi_src *src, unsigned chan, enum tgsi_type type)
{
   struct ir_instr *v = xl_fetch_raw(x, &src->reg, src->swz[chan] & 3);
   bool is_float = type == TGSI_TYPE_F || type == TGSI_TYPE_N;
   if (src->abs) {
      if (!is_float) {
         xl_unsupported(x, "with '|x|' on an integer operand");
         return v;
      }
      v = ir_alu1(&x->b, IR_OP_FABS, v);
   }
   if (src->neg)
      v = ir_alu1(&x->b, is_float ? IR_OP_FNEG : IR_OP_INEG, v);
   return v;
}

/* A tessellation control shader's OUT[vertex][index] (the vertex direct or
 * ADDR + offset): stored at once. An index beyond the outputs is dropped,
 * as the interpreter drops it. */
static void
store_vertex_output(struct xlate *x, const struct tgsi_reg *reg, unsigned chan, struct ir_instr *v)
{
   if (reg->index < 0 || (unsigned)reg->index >= x->nouts)
      return;
   struct ir_instr *vtx = ir_imm32(&x->b, (uint32_t)reg->dim);
   if (reg->dim_indirect)
      vtx = ir_alu2(&x->b, IR_OP_IADD, address(x, &reg->dim_ind), vtx);
   struct ir_instr *src[2] = {vtx, v};
   struct ir_instr *st = ir_build(&x->b, IR_OP_STORE_OUTPUT_VTX, 2, src);
   st->slot = reg->index;
   st->comp = (int32_t)chan;
}

void
xl_write(struct xlate *x, const struct tgsi_dst *dst, unsigned chan, struct ir_instr *v)
{
   const struct tgsi_reg *reg = &dst->reg;
   int var;
   if (reg->file == TGSI_FILE_OUT && reg->has_dim && !reg->indirect &&
       x->ts->stage == TGSI_STAGE_TESS_CTRL) {
      store_vertex_output(x, reg, chan, v);
      return;
   }
   switch (reg->file) {
   case TGSI_FILE_NULL:
      return;
   case TGSI_FILE_TEMP:
      if (reg_array(x, reg)) {
         array_access(x, reg, chan, v);
         return;
      }
      /* fall through */
   case TGSI_FILE_OUT:
   case TGSI_FILE_ADDR:
      var = reg->indirect || reg->has_dim ? -1 : var_of(x, reg->file, reg->index, chan);
      if (var >= 0) {
         x->defs[var] = v;
         return;
      }
      break;
   default:
      break;
   }
   char what[96];
   snprintf(what, sizeof(what), "writing %s[%d]%s", tgsi_file_names[reg->file], reg->index,
            reg->indirect  ? " indirectly"
            : reg->has_dim ? " per vertex"
                           : "");
   xl_unsupported(x, what);
}

void
xl_store_outputs(struct xlate *x)
{
   for (unsigned o = 0; o < x->nouts; o++)
      for (unsigned c = 0; c < 4; c++) {
         struct ir_instr *v = x->defs[x->out_base + o * 4 + c];
         if (!v)
            continue;
         struct ir_instr *st = ir_build(&x->b, IR_OP_STORE_OUTPUT, 1, &v);
         st->slot = (int32_t)o;
         st->comp = (int32_t)c;
      }
}

/* ------------------------------------------------------------------ */
/* Building control flow                                                */

static struct ir_block *
cur_block(struct xlate *x)
{
   return ir_list_last_block(x->list);
}

static void
add_block(struct xlate *x)
{
   ir_list_append(x->list, ir_node_block(x->sh), x->parent);
   x->b.block = cur_block(x);
}

static void
enter_list(struct xlate *x, struct ir_node *owner, struct ir_list *l)
{
   x->list = l;
   x->parent = owner;
   add_block(x);
}

static void
leave_node(struct xlate *x, struct ir_node *n)
{
   x->list = n->list;
   x->parent = n->parent;
   add_block(x);
}

static struct ir_instr *
make_phi(struct xlate *x, unsigned nsrc)
{
   struct ir_instr *phi = ir_instr_create(x->sh, IR_OP_PHI, nsrc);
   phi->line = x->b.line;
   ir_block_append(x->b.block, phi);
   return phi;
}

/* ------------------------------------------------------------------ */
/* Written-variable scan for loop headers                               */

static void scan_writes(struct xlate *x, unsigned start, unsigned end, bool *w, unsigned depth);

static unsigned
sub_end(const struct tgsi_shader *ts, unsigned bgnsub)
{
   for (unsigned i = bgnsub + 1; i < ts->ninsns; i++)
      if (ts->insns[i].op == TGSI_OP_ENDSUB)
         return i;
   return ts->ninsns;
}

static void
scan_writes(struct xlate *x, unsigned start, unsigned end, bool *w, unsigned depth)
{
   const struct tgsi_shader *ts = x->ts;
   for (unsigned i = start; i < end && i < ts->ninsns; i++) {
      const struct tgsi_insn *in = &ts->insns[i];
      if (in->op == TGSI_OP_SWITCH)
         w[x->sw_var[i]] = true;
      if (in->op == TGSI_OP_DEMOTE && x->demote_var >= 0)
         w[x->demote_var] = true;
      if (in->op == TGSI_OP_CAL && in->target >= 0 && depth < 16)
         scan_writes(x, (unsigned)in->target + 1, sub_end(ts, (unsigned)in->target), w, depth + 1);
      for (unsigned d = 0; d < in->ndst; d++) {
         const struct tgsi_dst *dst = &in->dst[d];
         if (reg_array(x, &dst->reg))
            continue;
         for (unsigned c = 0; c < 4; c++) {
            /* as xl_write: an indirect or per-vertex register is no variable */
            int v = dst->reg.indirect || dst->reg.has_dim
                        ? -1
                        : var_of(x, dst->reg.file, dst->reg.index, c);
            if ((dst->mask & (1u << c)) && v >= 0)
               w[v] = true;
         }
      }
   }
}

/* ------------------------------------------------------------------ */
/* Loops                                                                */

static void
record(struct xlate *x, struct xl_snap **v, unsigned *n, unsigned *cap)
{
   struct xl_snap s = {cur_block(x), snapshot(x)};
   VEC_PUSH(*v, *n, *cap, s);
}

/* Starts a loop whose body writes the variables of the range scan. */
static struct xl_loop *
open_loop(struct xlate *x, unsigned start, unsigned end)
{
   struct xl_loop *l = xcalloc(1, sizeof(*l));
   l->written = xcalloc(x->nvars + 1, sizeof(bool));
   scan_writes(x, start, end, l->written, 0);
   for (unsigned v = 0; v < x->nvars; v++)
      if (l->written[v] && !x->defs[v])
         x->defs[v] = xl_zero(x); /* the preheader dominates the loop and after */
   struct ir_block *pre = cur_block(x);
   l->node = ir_node_loop();
   ir_list_append(x->list, l->node, x->parent);
   enter_list(x, l->node, &l->node->body);
   l->phis = xcalloc(x->nvars + 1, sizeof(*l->phis));
   for (unsigned v = 0; v < x->nvars; v++) {
      if (!l->written[v])
         continue;
      struct ir_instr *phi = make_phi(x, 1);
      ir_set_src(phi, 0, x->defs[v]);
      phi->pred[0] = pre;
      l->phis[v] = phi;
      x->defs[v] = phi;
   }
   l->outer = x->loop;
   l->func = x->func;
   x->loop = l;
   x->depth++;
   return l;
}

/* Fills the header phis from the CONTs and the end of the body, then
 * builds the exit block's defs from the BRKs. */
static void
close_loop(struct xlate *x, struct xl_loop *l)
{
   if (x->reachable)
      record(x, &l->conts, &l->nconts, &l->conts_cap);
   for (unsigned v = 0; v < x->nvars; v++) {
      struct ir_instr *phi = l->phis[v];
      if (!phi)
         continue;
      ir_instr_set_nsrc(phi, 1 + l->nconts);
      for (unsigned k = 0; k < l->nconts; k++) {
         ir_set_src(phi, 1 + k, l->conts[k].defs[v]);
         phi->pred[1 + k] = l->conts[k].block;
      }
   }
   x->depth--;
   x->loop = l->outer;
   leave_node(x, l->node);
   x->reachable = l->nbreaks > 0;
   for (unsigned v = 0; v < x->nvars && x->reachable; v++) {
      if (!l->written[v])
         continue;
      bool same = true;
      for (unsigned k = 1; k < l->nbreaks; k++)
         same &= l->breaks[k].defs[v] == l->breaks[0].defs[v];
      if (same) {
         x->defs[v] = l->breaks[0].defs[v];
         continue;
      }
      struct ir_instr *phi = make_phi(x, l->nbreaks);
      for (unsigned k = 0; k < l->nbreaks; k++) {
         ir_set_src(phi, k, l->breaks[k].defs[v]);
         phi->pred[k] = l->breaks[k].block;
      }
      x->defs[v] = phi;
   }
   for (unsigned k = 0; k < l->nconts; k++)
      free(l->conts[k].defs);
   for (unsigned k = 0; k < l->nbreaks; k++)
      free(l->breaks[k].defs);
   free(l->conts);
   free(l->breaks);
   free(l->written);
   free(l->phis);
   free(l);
}

static void
emit_jump(struct xlate *x, enum ir_op op)
{
   struct xl_loop *l = x->loop;
   if (op == IR_OP_BREAK)
      record(x, &l->breaks, &l->nbreaks, &l->breaks_cap);
   else
      record(x, &l->conts, &l->nconts, &l->conts_cap);
   ir_build(&x->b, op, 0, NULL);
   x->reachable = false;
}

/* ------------------------------------------------------------------ */
/* Walking instructions                                                 */

static void translate_range(struct xlate *x, unsigned start, unsigned end);

static const struct tgsi_insn *
insn_at(struct xlate *x, int32_t i, enum tgsi_opcode want1, enum tgsi_opcode want2)
{
   if (i < 0 || (unsigned)i >= x->ts->ninsns ||
       (x->ts->insns[i].op != want1 && x->ts->insns[i].op != want2)) {
      xl_error(x, "%s without a matching %s (run the TGSI sanity check first)",
               tgsi_op_info[x->insn->op].name, tgsi_op_info[want1].name);
      return NULL;
   }
   return &x->ts->insns[i];
}

/* The state at the end of a then list. */
struct arm {
   bool reach;
   struct ir_block *end;
   struct ir_instr **defs;
};

/* Starts an if on c; the builder moves into the then list. *pre gets the
 * defs before the if. */
static struct ir_node *
open_if(struct xlate *x, struct ir_instr *c, struct ir_instr ***pre)
{
   struct ir_node *n = ir_node_if(c);
   ir_list_append(x->list, n, x->parent);
   *pre = snapshot(x);
   enter_list(x, n, &n->then_list);
   x->depth++;
   return n;
}

/* Ends the then list and starts the else list from the defs before the if. */
static struct arm
open_else(struct xlate *x, struct ir_node *n, struct ir_instr **pre)
{
   struct arm a = {x->reachable, cur_block(x), snapshot(x)};
   memcpy(x->defs, pre, x->nvars * sizeof(*pre));
   x->reachable = true;
   enter_list(x, n, &n->else_list);
   return a;
}

/* Ends the if. Where the arms that reach the end disagree on a variable,
 * a phi in the block after the if merges them; an arm that never wrote the
 * variable gives 0, made at its end. */
static void
close_if(struct xlate *x, struct ir_node *n, struct arm *t, struct ir_instr **pre)
{
   bool else_reach = x->reachable;
   struct ir_block *else_end = cur_block(x);
   x->depth--;
   leave_node(x, n);
   x->reachable = t->reach || else_reach;
   if (t->reach && !else_reach)
      memcpy(x->defs, t->defs, x->nvars * sizeof(*pre));
   for (unsigned v = 0; v < x->nvars && t->reach && else_reach; v++) {
      struct ir_instr *a = t->defs[v], *b = x->defs[v];
      if (a == b)
         continue;
      struct ir_block *keep = x->b.block;
      if (!a) {
         x->b.block = t->end;
         a = xl_zero(x);
      }
      if (!b) {
         x->b.block = else_end;
         b = xl_zero(x);
      }
      x->b.block = keep;
      struct ir_instr *phi = make_phi(x, 2);
      ir_set_src(phi, 0, a);
      phi->pred[0] = t->end;
      ir_set_src(phi, 1, b);
      phi->pred[1] = else_end;
      x->defs[v] = phi;
   }
   free(pre);
   free(t->defs);
}

static unsigned
translate_if(struct xlate *x, unsigned i)
{
   const struct tgsi_insn *in = &x->ts->insns[i];
   const struct tgsi_insn *mid = insn_at(x, in->target, TGSI_OP_ELSE, TGSI_OP_ENDIF);
   if (!mid)
      return x->ts->ninsns;
   unsigned t = (unsigned)in->target, endif = t;
   if (mid->op == TGSI_OP_ELSE) {
      if (!insn_at(x, mid->target, TGSI_OP_ENDIF, TGSI_OP_ENDIF))
         return x->ts->ninsns;
      endif = (unsigned)mid->target;
   }
   struct ir_instr *c = xl_fetch(x, &in->src[0], 0, xl_src_type(in, 0));
   if (in->op == TGSI_OP_IF) /* a float test: -0.0 is false, NaN true */
      c = ir_alu2(&x->b, IR_OP_FNE, c, xl_zero(x));
   struct ir_instr **pre;
   struct ir_node *n = open_if(x, c, &pre);
   translate_range(x, i + 1, t);
   struct arm then = open_else(x, n, pre);
   if (mid->op == TGSI_OP_ELSE)
      translate_range(x, t + 1, endif);
   close_if(x, n, &then, pre);
   return endif + 1;
}

static unsigned
translate_loop(struct xlate *x, unsigned i)
{
   const struct tgsi_insn *in = &x->ts->insns[i];
   if (!insn_at(x, in->target, TGSI_OP_ENDLOOP, TGSI_OP_ENDLOOP))
      return x->ts->ninsns;
   unsigned end = (unsigned)in->target;
   struct xl_switch *sw = x->sw;
   x->sw = NULL; /* a BRK inside the loop is the loop's */
   struct xl_loop *l = open_loop(x, i + 1, end);
   translate_range(x, i + 1, end);
   close_loop(x, l);
   x->sw = sw;
   return end + 1;
}

/* Label groups of a SWITCH: [start, end) of each case body and its labels. */
struct case_group {
   unsigned first_label, body, end;
};

static unsigned
translate_switch(struct xlate *x, unsigned i)
{
   const struct tgsi_shader *ts = x->ts;
   const struct tgsi_insn *in = &ts->insns[i];
   if (!insn_at(x, in->target, TGSI_OP_ENDSWITCH, TGSI_OP_ENDSWITCH))
      return ts->ninsns;
   unsigned end = (unsigned)in->target, fall = x->sw_var[i];
   struct ir_instr *sel = xl_fetch(x, &in->src[0], 0, TGSI_TYPE_U);
   /* Find the groups: labels at this switch's own nesting level. */
   struct case_group *g = NULL;
   unsigned ng = 0, cap = 0, depth = 0;
   for (unsigned k = i + 1; k < end; k++) {
      enum tgsi_opcode op = ts->insns[k].op;
      bool label = depth == 0 && (op == TGSI_OP_CASE || op == TGSI_OP_DEFAULT);
      if (label && (!ng || g[ng - 1].body != k)) {
         if (ng)
            g[ng - 1].end = k;
         struct case_group ng_ = {k, k + 1, end};
         VEC_PUSH(g, ng, cap, ng_);
      } else if (label) {
         g[ng - 1].body = k + 1;
      }
      if (op == TGSI_OP_IF || op == TGSI_OP_UIF || op == TGSI_OP_BGNLOOP || op == TGSI_OP_SWITCH)
         depth++;
      else if (op == TGSI_OP_ENDIF || op == TGSI_OP_ENDLOOP || op == TGSI_OP_ENDSWITCH)
         depth--;
   }
   /* DEFAULT: no CASE label of the switch matches */
   struct ir_instr *nomatch = NULL;
   for (unsigned k = 0; k < ng; k++)
      for (unsigned l = g[k].first_label; l < g[k].body; l++) {
         if (ts->insns[l].op != TGSI_OP_CASE)
            continue;
         struct ir_instr *ne =
             ir_alu2(&x->b, IR_OP_INE, sel, xl_fetch(x, &ts->insns[l].src[0], 0, TGSI_TYPE_U));
         nomatch = nomatch ? ir_alu2(&x->b, IR_OP_IAND, nomatch, ne) : ne;
      }
   x->defs[fall] = xl_zero(x);
   struct xl_switch sw = {x->sw, x->loop, x->depth + 1, false};
   x->sw = &sw;
   for (unsigned k = 0; k < ng && x->reachable && !x->failed; k++) {
      struct ir_instr *match = NULL;
      for (unsigned l = g[k].first_label; l < g[k].body; l++) {
         struct ir_instr *m = ts->insns[l].op == TGSI_OP_DEFAULT
                                  ? (nomatch ? nomatch : ir_imm32(&x->b, ~0u))
                                  : ir_alu2(&x->b, IR_OP_IEQ, sel,
                                            xl_fetch(x, &ts->insns[l].src[0], 0, TGSI_TYPE_U));
         match = match ? ir_alu2(&x->b, IR_OP_IOR, match, m) : m;
      }
      struct ir_instr *run = ir_alu2(&x->b, IR_OP_IOR, read_var(x, (int)fall), match);
      /* if (run) { body; fall = the body ended without BRK } */
      struct ir_instr **pre;
      struct ir_node *n = open_if(x, run, &pre);
      sw.case_broken = false;
      translate_range(x, g[k].body, g[k].end);
      x->stop = false;
      if (x->reachable)
         x->defs[fall] = ir_imm32(&x->b, sw.case_broken ? 0 : ~0u);
      struct arm then = open_else(x, n, pre);
      close_if(x, n, &then, pre);
   }
   x->sw = sw.outer;
   free(g);
   return end + 1;
}

static void
translate_brk(struct xlate *x)
{
   if (x->sw && x->sw->loop == x->loop) {
      if (x->depth != x->sw->body_depth) {
         xl_unsupported(x, "inside an IF inside a SWITCH case");
         return;
      }
      x->sw->case_broken = true;
      x->stop = true; /* the rest of the case cannot run */
      return;
   }
   if (!x->loop || x->loop->func != x->func || x->loop == x->func->wrapper) {
      xl_error(x, "BRK outside of a loop or switch");
      return;
   }
   emit_jump(x, IR_OP_BREAK);
}

static void
translate_cont(struct xlate *x)
{
   if (!x->loop || x->loop->func != x->func || x->loop == x->func->wrapper) {
      xl_error(x, "CONT outside of a loop");
      return;
   }
   emit_jump(x, IR_OP_CONTINUE);
}

static void
translate_ret(struct xlate *x)
{
   struct xl_func *f = x->func;
   if (x->depth == f->depth0) {
      x->stop = true;
      return;
   }
   if (!f->wrapper || x->loop != f->wrapper) {
      xl_unsupported(x, "inside a loop");
      return;
   }
   emit_jump(x, IR_OP_BREAK);
}

/* Does [start, end) hold a RET inside control flow? Subroutine bodies in
 * the range are not part of it. */
static bool
has_nested_ret(const struct tgsi_shader *ts, unsigned start, unsigned end)
{
   unsigned depth = 0;
   for (unsigned i = start; i < end; i++) {
      enum tgsi_opcode op = ts->insns[i].op;
      if (op == TGSI_OP_BGNSUB)
         i = sub_end(ts, i);
      else if (op == TGSI_OP_IF || op == TGSI_OP_UIF || op == TGSI_OP_BGNLOOP ||
               op == TGSI_OP_SWITCH)
         depth++;
      else if ((op == TGSI_OP_ENDIF || op == TGSI_OP_ENDLOOP || op == TGSI_OP_ENDSWITCH) && depth)
         depth--;
      else if (op == TGSI_OP_RET && depth)
         return true;
   }
   return false;
}

static void
translate_function(struct xlate *x, unsigned start, unsigned end, unsigned sub)
{
   struct xl_func f = {x->func, NULL, x->depth, sub};
   struct xl_loop *outer_loop = x->loop;
   struct xl_switch *outer_sw = x->sw;
   x->sw = NULL;
   x->func = &f;
   struct xl_loop *wrapper = NULL;
   if (has_nested_ret(x->ts, start, end)) {
      wrapper = open_loop(x, start, end);
      wrapper->func = &f;
      f.wrapper = wrapper;
      f.depth0 = x->depth;
   }
   translate_range(x, start, end);
   x->stop = false;
   if (wrapper) {
      if (x->reachable)
         emit_jump(x, IR_OP_BREAK);
      close_loop(x, wrapper);
   }
   x->func = f.outer;
   x->loop = outer_loop;
   x->sw = outer_sw;
}

static void
translate_cal(struct xlate *x, const struct tgsi_insn *in)
{
   if (!insn_at(x, in->target, TGSI_OP_BGNSUB, TGSI_OP_BGNSUB))
      return;
   unsigned sub = (unsigned)in->target;
   for (struct xl_func *f = x->func; f; f = f->outer)
      if (f->sub == sub) {
         xl_unsupported(x, "that recurses");
         return;
      }
   if (x->call_depth > 32) {
      xl_unsupported(x, "nested more than 32 deep");
      return;
   }
   x->call_depth++;
   translate_function(x, sub + 1, sub_end(x->ts, sub), sub);
   x->call_depth--;
}

static void
translate_range(struct xlate *x, unsigned start, unsigned end)
{
   const struct tgsi_shader *ts = x->ts;
   unsigned i = start;
   while (i < end && x->reachable && !x->stop && !x->failed) {
      const struct tgsi_insn *in = &ts->insns[i];
      x->insn = in;
      x->b.line = (unsigned)in->loc.line;
      switch (in->op) {
      case TGSI_OP_IF:
      case TGSI_OP_UIF:
         i = translate_if(x, i);
         continue;
      case TGSI_OP_BGNLOOP:
         i = translate_loop(x, i);
         continue;
      case TGSI_OP_SWITCH:
         i = translate_switch(x, i);
         continue;
      case TGSI_OP_BGNSUB:
         i = sub_end(ts, i) + 1; /* subroutines run only through CAL */
         continue;
      case TGSI_OP_BRK:
         translate_brk(x);
         break;
      case TGSI_OP_CONT:
         translate_cont(x);
         break;
      case TGSI_OP_RET:
         translate_ret(x);
         break;
      case TGSI_OP_CAL:
         translate_cal(x, in);
         break;
      case TGSI_OP_END:
         if (x->depth != x->func->depth0 || x->func->outer)
            xl_unsupported(x, "inside control flow or a subroutine");
         x->stop = true;
         break;
      case TGSI_OP_ELSE:
      case TGSI_OP_ENDIF:
      case TGSI_OP_ENDLOOP:
      case TGSI_OP_ENDSWITCH:
      case TGSI_OP_ENDSUB:
      case TGSI_OP_CASE:
      case TGSI_OP_DEFAULT:
         xl_error(x, "unexpected %s (control flow does not nest)", tgsi_op_info[in->op].name);
         break;
      default: {
         unsigned first = x->sh->nvalues;
         xl_insn(x, in);
         if (in->precise)
            for (unsigned v = first; v < x->sh->nvalues; v++)
               x->sh->values[v]->flags |= IR_VF_PRECISE;
         break;
      }
      }
      i++;
   }
}

/* ------------------------------------------------------------------ */
/* Set-up                                                               */

static void
count_registers(struct xlate *x)
{
   const struct tgsi_shader *ts = x->ts;
   unsigned n[TGSI_FILE_COUNT] = {0};
   for (unsigned i = 0; i < ts->ndecls; i++) {
      const struct tgsi_decl *d = &ts->decls[i];
      n[d->file] = MAX2(n[d->file], d->last + 1);
   }
   for (unsigned i = 0; i < ts->ninsns; i++) {
      const struct tgsi_insn *in = &ts->insns[i];
      for (unsigned d = 0; d < in->ndst; d++)
         if (in->dst[d].reg.index >= 0)
            n[in->dst[d].reg.file] =
                MAX2(n[in->dst[d].reg.file], (unsigned)in->dst[d].reg.index + 1);
      for (unsigned s = 0; s < in->nsrc; s++)
         if (in->src[s].reg.index >= 0 && !in->src[s].reg.indirect)
            n[in->src[s].reg.file] =
                MAX2(n[in->src[s].reg.file], (unsigned)in->src[s].reg.index + 1);
   }
   x->ntemps = MIN2(n[TGSI_FILE_TEMP], 65536u);
   x->nouts = MIN2(n[TGSI_FILE_OUT], 4096u);
   x->naddrs = MIN2(n[TGSI_FILE_ADDR], 64u);
   x->out_base = x->ntemps * 4;
   x->addr_base = x->out_base + x->nouts * 4;
   x->sw_base = x->addr_base + x->naddrs * 4;
   x->sw_var = xcalloc(ts->ninsns + 1, sizeof(unsigned));
   x->nvars = x->sw_base;
   x->demote_var = -1;
   for (unsigned i = 0; i < ts->ninsns; i++) {
      if (ts->insns[i].op == TGSI_OP_SWITCH)
         x->sw_var[i] = x->nvars++;
      if (ts->insns[i].op == TGSI_OP_DEMOTE && x->demote_var < 0)
         x->demote_var = (int)x->nvars++;
   }
   x->defs = xcalloc(x->nvars + 1, sizeof(*x->defs));
}

/* TEMP registers reached by an indirect access become arrays. */
static void
find_arrays(struct xlate *x)
{
   const struct tgsi_shader *ts = x->ts;
   x->temp_array = xmalloc((x->ntemps + 1) * sizeof(int));
   for (unsigned t = 0; t < x->ntemps; t++)
      x->temp_array[t] = -1;
   for (unsigned i = 0; i < ts->ninsns; i++) {
      const struct tgsi_insn *in = &ts->insns[i];
      for (unsigned k = 0; k < in->ndst + in->nsrc; k++) {
         const struct tgsi_reg *r = k < in->ndst ? &in->dst[k].reg : &in->src[k - in->ndst].reg;
         if (r->file != TGSI_FILE_TEMP || !r->indirect || (x->narrays && x->arrays[0].id == 0))
            continue;
         uint32_t first = 0, last = x->ntemps ? x->ntemps - 1 : 0;
         int32_t id = 0;
         for (unsigned d = 0; d < ts->ndecls && r->array_id; d++)
            if (ts->decls[d].file == TGSI_FILE_TEMP && ts->decls[d].array_id == r->array_id) {
               first = ts->decls[d].first;
               last = ts->decls[d].last;
               id = r->array_id;
            }
         if (!x->ntemps || (x->temp_array[first] >= 0 && x->arrays[x->temp_array[first]].id == id))
            continue;
         /* a whole-file array swallows the others */
         if (id == 0)
            x->narrays = 0;
         struct xl_array a = {id, first, last - first + 1};
         unsigned cap = x->narrays;
         VEC_PUSH(x->arrays, x->narrays, cap, a);
         for (uint32_t t = first; t <= last && t < x->ntemps; t++)
            x->temp_array[t] = (int)x->narrays - 1;
      }
   }
   for (unsigned a = 0; a < x->narrays; a++) {
      struct ir_array ia = {x->arrays[a].id, (int32_t)x->arrays[a].slots};
      VEC_PUSH(x->sh->arrays, x->sh->narrays, x->sh->arrays_cap, ia);
   }
}

static void
declare_io(struct xlate *x)
{
   const struct tgsi_shader *ts = x->ts;
   for (unsigned i = 0; i < ts->ndecls; i++) {
      const struct tgsi_decl *d = &ts->decls[i];
      for (uint32_t r = d->first; r <= d->last && r - d->first < 4096; r++) {
         uint32_t si = d->semantic_index + (r - d->first);
         if (d->file == TGSI_FILE_IN) {
            struct ir_input in = {(int32_t)r, d->has_semantic ? d->semantic : TGSI_SEM_GENERIC,
                                  d->has_semantic ? si : r,
                                  d->has_interp ? d->interp : TGSI_INTERP_PERSPECTIVE,
                                  d->has_location ? d->location : TGSI_LOC_CENTER};
            VEC_PUSH(x->sh->inputs, x->sh->ninputs, x->sh->inputs_cap, in);
         } else if (d->file == TGSI_FILE_OUT) {
            struct ir_output out = {(int32_t)r, d->has_semantic ? d->semantic : TGSI_SEM_GENERIC,
                                    d->has_semantic ? si : r, d->invariant};
            VEC_PUSH(x->sh->outputs, x->sh->noutputs, x->sh->outputs_cap, out);
         }
      }
   }
}

/* Removes phis whose sources are all one value, until none is left. */
static void
remove_trivial_phis(struct ir_shader *sh)
{
   bool again = true;
   while (again) {
      again = false;
      for (unsigned i = 0; i < sh->nvalues; i++) {
         struct ir_instr *in = sh->values[i];
         if (!in || in->removed || in->op != IR_OP_PHI)
            continue;
         struct ir_instr *v = ir_phi_trivial_value(in);
         if (!v)
            continue;
         ir_replace_uses(sh, in, v);
         ir_instr_remove(in);
         again = true;
      }
   }
}

/* DEMOTE keeps the lane running as a helper -- its values still feed
 * its quad's derivatives -- and discards its outputs: a flag, ~0 once the
 * lane demoted, and a kill of the flagged lanes at the end (as the
 * reference compiler does; a kill at the DEMOTE stopped the helper and
 * left its neighbours' derivatives of later values wrong). Demoted lanes
 * must not write memory, so a shader that demotes and writes memory is
 * refused, as the reference compiler refuses it. */
static void
demote_begin(struct xlate *x)
{
   if (x->demote_var < 0)
      return;
   for (unsigned k = 0; k < x->ts->ninsns; k++) {
      enum tgsi_opcode op = x->ts->insns[k].op;
      if (op == TGSI_OP_STORE ||
          (tgsi_op_info[op].flags & TGSI_OPF_MEM && !strncmp(tgsi_op_info[op].name, "ATOM", 4))) {
         x->insn = &x->ts->insns[k];
         xl_unsupported(x, "a memory write in a shader that demotes (demoted lanes must not "
                           "write; the models have no demote)");
         return;
      }
   }
   x->defs[x->demote_var] = ir_imm32(&x->b, 0);
}

struct ir_shader *
ir_from_tgsi(const struct tgsi_shader *ts, struct diag_list *diags)
{
   return ir_from_tgsi_ctx(ts, NULL, diags);
}

struct ir_shader *
ir_from_tgsi_ctx(const struct tgsi_shader *ts, struct opt_ctx *ctx, struct diag_list *diags)
{
   struct xlate x = {.ts = ts, .diags = diags, .reachable = true, .subgroup = 32};
   if (ctx && ctx->opts.subgroup_size == 64)
      x.subgroup = 64;
   x.sh = ir_shader_new(ts->stage);
   x.sh->file = ts->name ? xstrdup(ts->name) : NULL;
   const char *caller = ctx ? ctx->pass : NULL;
   if (ctx) {
      x.sh->faults = ctx->opts.faults;
      x.sh->fault_ctx = ctx;
      ctx->pass = "front";
   }
   x.sh->in_vertices = tgsi_interp_in_vertices(ts);
   x.b.sh = x.sh;
   x.list = &x.sh->body;
   x.b.block = cur_block(&x);
   count_registers(&x);
   find_arrays(&x);
   declare_io(&x);
   demote_begin(&x);
   translate_function(&x, 0, ts->ninsns, ~0u);
   x.insn = NULL;
   if (!x.failed && x.reachable && x.demote_var >= 0) /* the deferred kill */
      ir_build(&x.b, IR_OP_KILL_IF, 1, &x.defs[x.demote_var]);
   if (!x.failed && x.reachable && ts->stage != TGSI_STAGE_GEOM)
      xl_store_outputs(&x);
   free(x.defs);
   free(x.sw_var);
   free(x.temp_array);
   free(x.arrays);
   if (ctx)
      ctx->pass = caller;
   if (x.failed) {
      ir_shader_free(x.sh);
      return NULL;
   }
   remove_trivial_phis(x.sh);
   ir_compute_cfg(x.sh);
   ir_mark_invariant(x.sh);
#ifdef DIFFCOMP_VALIDATE
   if (!ir_validate(x.sh, "ir_from_tgsi", diags)) {
      ir_shader_free(x.sh);
      return NULL;
   }
#endif
   return x.sh;
}
