/*
 * Building the reference compiler's linear program: instructions by
 * mnemonic, operands, labels and scratch registers.
 *
 * Instructions are appended to c->items in program order; a branch names
 * a label, placed later at an item index, and ref_hazard.c turns labels
 * into encoded offsets. Scratch registers come from the part of the full
 * register file above the fixed TGSI homes: ref_tmp() hands out registers
 * that live only for the current TGSI instruction (ref.c resets them),
 * ref_tmp_persistent() registers that outlive it (switch selectors), kept
 * below the per-instruction ones. Running out is COMPILE_UNSUPPORTED,
 * never an overlap. On place_scratch targets ref_tmp() numbers are
 * virtual until ref_scratch.c places them.
 */
#include "compiler/ref/ref.h"

#include <stdlib.h>

int
ref_op(struct ref_ctx *c, const char *name)
{
   int op = isa_op_find(c->m, name);
   if (op < 0)
      ref_error(c, "model %s has no '%s'", isa_model_name(c->m), name);
   return op;
}

const char *
ref_prim_op_find(const struct ref_prim_op *t, unsigned n, enum ref_prim op)
{
   for (unsigned k = 0; k < n; k++)
      if (t[k].prim == op)
         return t[k].op;
   return NULL;
}

/* Appends an instruction; on a lookup failure returns a dummy record so
 * callers need no checks (the status is already an error). */
struct isa_insn *
ref_emit(struct ref_ctx *c, const char *name)
{
   static struct isa_insn dummy;
   int op = ref_op(c, name);
   if (op < 0)
      return memset(&dummy, 0, sizeof(dummy));
   struct ref_item it = {.label = -1, .target_slot = -1, .tgsi = c->cur_index};
   isa_insn_init(c->m, (unsigned)op, &it.in);
   VEC_PUSH(c->items, c->nitems, c->items_cap, it);
   return &c->items[c->nitems - 1].in;
}

int
ref_label(struct ref_ctx *c)
{
   VEC_PUSH(c->labels, c->nlabels, c->labels_cap, -1);
   return (int)c->nlabels - 1;
}

/* The label marks the next instruction appended. */
void
ref_place(struct ref_ctx *c, int label)
{
   c->labels[label] = (int)c->nitems;
   if (c->t && c->t->place)
      c->t->place(c, label);
}

/* Makes the last appended instruction branch to label through source
 * slot `slot`. */
void
ref_branch_to(struct ref_ctx *c, int label, int slot)
{
   if (!c->nitems)
      return;
   c->items[c->nitems - 1].label = label;
   c->items[c->nitems - 1].target_slot = slot;
}

static void
note_reg(struct ref_ctx *c, unsigned r)
{
   if (r >= REF_VBASE) /* virtual: counted once placed */
      return;
   if (r + 1 > c->max_reg)
      c->max_reg = r + 1;
}

unsigned
ref_tmp(struct ref_ctx *c)
{
   if (c->scratch_next >= c->scratch_top) {
      if (c->status == COMPILE_OK)
         c->regs_short = true;
      ref_unsupported(c, "out of scratch registers (the model has %u)", c->ngpr);
      return c->scratch_lo;
   }
   note_reg(c, c->scratch_next);
   return c->scratch_next++;
}

/* n values copied into n consecutive new registers (an operand group of
 * a texture or memory instruction); returns the first. */
unsigned
ref_group(struct ref_ctx *c, const unsigned *v, unsigned n)
{
   unsigned first = ref_tmp(c);
   for (unsigned k = 1; k < n; k++)
      ref_tmp(c);
   for (unsigned k = 0; k < n; k++)
      c->t->copy(c, first + k, v[k]);
   return first;
}

/* A register that outlives the current instruction (a switch selector):
 * the next scratch register, with the scratch base moved above it. */
unsigned
ref_tmp_persistent(struct ref_ctx *c)
{
   if (c->t->place_scratch) { /* a physical register below the scratch */
      if (c->phys_next >= c->ngpr) {
         ref_unsupported(c, "out of registers (the model has %u)", c->ngpr);
         return 0;
      }
      note_reg(c, c->phys_next);
      return c->phys_next++;
   }
   unsigned r = ref_tmp(c);
   c->scratch_lo = c->scratch_next;
   return r;
}

/* Persistent registers are released in reverse order of allocation. */
void
ref_tmp_release_persistent(struct ref_ctx *c, unsigned reg)
{
   if (c->t->place_scratch) {
      if (reg + 1 == c->phys_next)
         c->phys_next = reg;
      return;
   }
   if (reg + 1 == c->scratch_lo)
      c->scratch_lo = reg;
}

struct isa_opnd
ref_r(struct ref_ctx *c, unsigned index)
{
   note_reg(c, index);
   return (struct isa_opnd){
       .kind = ISA_OPND_REG, .file = (uint8_t)c->gpr, .index = (uint16_t)index};
}

struct isa_opnd
ref_c(struct ref_ctx *c, unsigned index)
{
   return (struct isa_opnd){
       .kind = ISA_OPND_CONST, .file = (uint8_t)c->cfile, .index = (uint16_t)index};
}

struct isa_opnd
ref_p(struct ref_ctx *c, unsigned index)
{
   return (struct isa_opnd){
       .kind = ISA_OPND_REG, .file = (uint8_t)c->pfile, .index = (uint16_t)index};
}

struct isa_opnd
ref_a(struct ref_ctx *c, unsigned index)
{
   return (struct isa_opnd){
       .kind = ISA_OPND_REG, .file = (uint8_t)c->afile, .index = (uint16_t)index};
}

struct isa_opnd
ref_imm(uint32_t v)
{
   return (struct isa_opnd){.kind = ISA_OPND_IMM, .value = v};
}

struct isa_opnd
ref_immf(float f)
{
   return ref_imm(fui(f));
}

struct isa_opnd
ref_neg(struct isa_opnd o)
{
   o.flags ^= ISA_OPND_F_NEG;
   return o;
}

struct isa_opnd
ref_abs(struct isa_opnd o)
{
   o.flags |= ISA_OPND_F_ABS;
   o.flags &= (uint8_t)~ISA_OPND_F_NEG;
   return o;
}

/* Sets an enum modifier by entry name ("cond", "ne"). */
void
ref_set_mod(struct ref_ctx *c, struct isa_insn *in, const char *mod, const char *value)
{
   int mi = isa_mod_find(c->m, mod);
   int v = mi >= 0 ? isa_mod_value(c->m, (unsigned)mi, value) : -1;
   if (v < 0) {
      ref_error(c, "model %s has no modifier %s=%s", isa_model_name(c->m), mod, value);
      return;
   }
   in->mod[mi] = (int16_t)v;
}

void
ref_set_mod_int(struct ref_ctx *c, struct isa_insn *in, const char *mod, int value)
{
   int mi = isa_mod_find(c->m, mod);
   if (mi < 0) {
      ref_error(c, "model %s has no modifier %s", isa_model_name(c->m), mod);
      return;
   }
   in->mod[mi] = (int16_t)value;
}
