/*
 * The IR as text, QBE-like:
 *
 *   shader FRAG
 *   input 0 GENERIC 20 PERSPECTIVE CENTER
 *   output 0 COLOR 0 invariant
 *   array 1 3
 *     %0 = load_input slot=0 comp=x
 *     %1 = imm 1.0
 *     %2 = fadd %0, %1 precise
 *     if %2 {
 *   @1:
 *       %3 = ...
 *     } else {
 *       ...
 *     }
 *   @3:
 *     %5 = phi @1 %3, @2 %4
 *     store_output slot=0 comp=x %5
 *
 * A block label "@N:" is printed only for blocks that a phi names. Fields
 * are name=value words in table order, sources follow separated by commas
 * (phi sources carry their block, tex sources their role), value flags
 * come last. Ops whose width follows the sources or the instruction print
 * ".64" when 64-bit. ir_parse reads exactly this, so parse(print(x)) == x.
 * The printer must survive broken IR: it is used in validation messages.
 */
#include "compiler/ir/ir.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Formats an immediate so that ir_parse gives back the same bits: small
 * integers in decimal, floats with a short exact decimal form as floats
 * (always with '.' or 'e'), anything else in hex. Returns true if it was
 * written as a float. */
bool
ir_format_imm(char *buf, size_t size, uint64_t bits, bool is64)
{
   if (is64) {
      int64_t v = (int64_t)bits;
      if (v >= -65536 && v <= 65536)
         snprintf(buf, size, "%" PRId64, v);
      else
         snprintf(buf, size, "0x%016" PRIx64, bits);
      return false;
   }
   uint32_t u = (uint32_t)bits;
   int32_t v = (int32_t)u;
   if (v >= -65536 && v <= 65536) {
      snprintf(buf, size, "%" PRId32, v);
      return false;
   }
   float f = uif(u);
   if (isfinite(f)) {
      for (int prec = 1; prec <= 9; prec++) {
         char t[48];
         snprintf(t, sizeof(t), "%.*g", prec, (double)f);
         if (fui(strtof(t, NULL)) != u)
            continue;
         if (!strpbrk(t, ".e"))
            snprintf(buf, size, "%s.0", t);
         else
            snprintf(buf, size, "%s", t);
         return true;
      }
   }
   snprintf(buf, size, "0x%08" PRIx32, u);
   return false;
}

static void
print_field(struct strbuf *b, enum ir_field f, int32_t v)
{
   const char *name = NULL;
   switch (f) {
   case IR_FIELD_COMP:
      if (v >= 0 && v < 4)
         name = (const char *[]){"x", "y", "z", "w"}[v];
      break;
   case IR_FIELD_SV:
      if (v >= 0 && v < TGSI_SEM_COUNT)
         name = tgsi_semantic_names[v];
      break;
   case IR_FIELD_TARGET:
      if (v >= 0 && v < TGSI_TEX_COUNT)
         name = tgsi_texture_names[v];
      break;
   case IR_FIELD_KIND:
      if (v >= 0 && v < IR_TEX_KIND_COUNT)
         name = ir_tex_kind_names[v];
      break;
   case IR_FIELD_SPACE:
      if (v >= 0 && v < IR_SPACE_COUNT)
         name = ir_space_names[v];
      break;
   case IR_FIELD_AOP:
      if (v >= 0 && v < IR_AOP_COUNT)
         name = ir_aop_names[v];
      break;
   default:
      break;
   }
   if (name)
      strbuf_printf(b, " %s=%s", ir_field_names[f], name);
   else
      strbuf_printf(b, " %s=%" PRId32, ir_field_names[f], v);
}

static void
print_value(struct strbuf *b, const struct ir_instr *v)
{
   if (v)
      strbuf_printf(b, "%%%u", v->id);
   else
      strbuf_printf(b, "%%?");
}

/* Value flags, then the backend's register (@r1.y) when placed. */
static void
print_flags_and_reg(struct strbuf *b, const struct ir_instr *in)
{
   if (in->flags & IR_VF_PRECISE)
      strbuf_printf(b, " precise");
   if (in->flags & IR_VF_INVARIANT)
      strbuf_printf(b, " invariant");
   if (ir_reg_file(in) >= 0) {
      char *t = ir_reg_print(in);
      strbuf_printf(b, "%s", t);
      free(t);
   }
}

static void
print_instr(struct strbuf *b, const struct ir_instr *in)
{
   const struct ir_op_info *info = in->op < IR_OP_COUNT ? &ir_op_info[in->op] : NULL;
   if (!info) {
      strbuf_printf(b, "<bad op %d>", (int)in->op);
      return;
   }
   if (in->type != IR_TYPE_NONE)
      strbuf_printf(b, "%%%u = ", in->id);
   strbuf_printf(b, "%s", info->name);
   if (in->op == IR_OP_MACH) {
      char *t = ir_mach_print(in);
      strbuf_printf(b, " %s", t);
      free(t);
      print_flags_and_reg(b, in);
      return;
   }
   if ((info->dst == IR_TC_S || info->dst == IR_TC_T) && in->type == IR_TYPE_64)
      strbuf_printf(b, ".64");
   if (in->op == IR_OP_IMM) {
      char t[64];
      ir_format_imm(t, sizeof(t), in->imm, in->type == IR_TYPE_64);
      strbuf_printf(b, " %s", t);
   }
   for (int f = 0; f < IR_FIELD_COUNT; f++) {
      int32_t v = ir_field_get(in, f);
      if (v != IR_NONE)
         print_field(b, f, v);
   }
   for (unsigned i = 0; i < in->nsrc; i++) {
      strbuf_printf(b, i ? ", " : " ");
      if (in->op == IR_OP_PHI && in->pred) {
         if (in->pred[i])
            strbuf_printf(b, "@%u ", in->pred[i]->index);
         else
            strbuf_printf(b, "@? ");
      } else if (in->op == IR_OP_TEX && in->role) {
         unsigned r = in->role[i];
         strbuf_printf(b, "%s ", r < IR_TEXSRC_COUNT ? ir_tex_role_names[r] : "?");
      }
      print_value(b, in->src[i]);
   }
   print_flags_and_reg(b, in);
}

char *
ir_print_instr(const struct ir_instr *in)
{
   struct strbuf b = {0};
   print_instr(&b, in);
   if (!b.s)
      return xstrdup("");
   return b.s;
}

static void
indent(struct strbuf *b, int depth)
{
   strbuf_printf(b, "%*s", 2 * depth, "");
}

static void print_list(struct strbuf *b, const struct ir_list *l, int depth, const bool *labelled,
                       unsigned nlabels);

static void
print_block(struct strbuf *b, const struct ir_block *blk, int depth, const bool *labelled,
            unsigned nlabels)
{
   if (blk->index < nlabels && labelled[blk->index])
      strbuf_printf(b, "@%u:\n", blk->index);
   for (const struct ir_instr *in = blk->first; in; in = in->next) {
      indent(b, depth);
      print_instr(b, in);
      strbuf_printf(b, "\n");
   }
}

static bool
list_is_empty(const struct ir_list *l, const bool *labelled, unsigned nlabels)
{
   if (l->n != 1 || l->v[0]->kind != IR_NODE_BLOCK)
      return false;
   const struct ir_block *blk = l->v[0]->block;
   return !blk->first && !(blk->index < nlabels && labelled[blk->index]);
}

static void
print_list(struct strbuf *b, const struct ir_list *l, int depth, const bool *labelled,
           unsigned nlabels)
{
   for (unsigned i = 0; i < l->n; i++) {
      const struct ir_node *n = l->v[i];
      switch (n->kind) {
      case IR_NODE_BLOCK:
         print_block(b, n->block, depth, labelled, nlabels);
         break;
      case IR_NODE_IF:
         indent(b, depth);
         strbuf_printf(b, "if ");
         print_value(b, n->cond);
         strbuf_printf(b, " {\n");
         print_list(b, &n->then_list, depth + 1, labelled, nlabels);
         if (!list_is_empty(&n->else_list, labelled, nlabels)) {
            indent(b, depth);
            strbuf_printf(b, "} else {\n");
            print_list(b, &n->else_list, depth + 1, labelled, nlabels);
         }
         indent(b, depth);
         strbuf_printf(b, "}\n");
         break;
      case IR_NODE_LOOP:
         indent(b, depth);
         strbuf_printf(b, "loop {\n");
         print_list(b, &n->body, depth + 1, labelled, nlabels);
         indent(b, depth);
         strbuf_printf(b, "}\n");
         break;
      }
   }
}

static void
print_header(struct strbuf *b, const struct ir_shader *sh)
{
   strbuf_printf(b, "shader %s\n",
                 sh->stage < TGSI_STAGE_COUNT ? tgsi_stage_names[sh->stage] : "?");
   if (sh->model)
      strbuf_printf(b, "model %s\n", isa_model_name(sh->model));
   for (unsigned i = 0; i < sh->ninputs; i++) {
      const struct ir_input *p = &sh->inputs[i];
      strbuf_printf(b, "input %" PRId32 " %s %" PRIu32 " %s %s\n", p->slot,
                    tgsi_semantic_names[p->sem], p->sem_index, tgsi_interp_names[p->interp],
                    tgsi_location_names[p->loc]);
   }
   for (unsigned i = 0; i < sh->noutputs; i++) {
      const struct ir_output *p = &sh->outputs[i];
      strbuf_printf(b, "output %" PRId32 " %s %" PRIu32 "%s\n", p->slot,
                    tgsi_semantic_names[p->sem], p->sem_index, p->invariant ? " invariant" : "");
   }
   for (unsigned i = 0; i < sh->narrays; i++)
      strbuf_printf(b, "array %" PRId32 " %" PRId32 "\n", sh->arrays[i].id, sh->arrays[i].slots);
   for (unsigned i = 0; i < IR_MAX_CBUFS; i++)
      if (sh->cbuf_slots[i])
         strbuf_printf(b, "cbuf %u %" PRIu32 "\n", i, sh->cbuf_slots[i]);
}

/* Block labels are the block indices of ir_compute_cfg: the numbering is
 * derived data, so printing refreshes it when it is stale. */
char *
ir_print(const struct ir_shader *csh)
{
   struct ir_shader *sh = (struct ir_shader *)csh;
   if (!sh->cfg_valid)
      ir_compute_cfg(sh);
   struct strbuf b = {0};
   print_header(&b, sh);
   bool *labelled = xcalloc(sh->nblocks + 1, sizeof(bool));
   for (unsigned i = 0; i < sh->nvalues; i++) {
      const struct ir_instr *in = sh->values[i];
      if (!in || in->removed || in->op != IR_OP_PHI || !in->pred)
         continue;
      for (unsigned k = 0; k < in->nsrc; k++)
         if (in->pred[k] && in->pred[k]->index < sh->nblocks)
            labelled[in->pred[k]->index] = true;
   }
   print_list(&b, &sh->body, 1, labelled, sh->nblocks);
   free(labelled);
   return b.s;
}
