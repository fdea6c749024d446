/*
 * Structured control flow on models with an execution-mask stack (agx):
 * every lane keeps a nesting count (agx r0l) and is active while it is 0;
 * exec_if / exec_else / exec_while / exec_pop change it on every lane
 * (isa.h), and the wave runs every instruction in order, the inactive
 * lanes keeping their registers. No branch here is per lane: the only
 * jump is a loop's back edge, taken while any lane of the wave is active.
 *
 * Each construct owns a number of levels of the count (its "push"):
 *   IF c      exec_if (c != 0), 1          lanes with c false -> 1
 *   ELSE      exec_else (true), 1          0 <-> 1
 *   ENDIF     exec_pop 1
 *   BGNLOOP   exec_if (true), 2;  TOP:
 *   ENDLOOP   CONT: exec_while (true), 2 (counts 0, 1 -> 0);
 *             jmp_exec_any TOP;  exec_pop 2 (a broken lane's 2 -> 0)
 *   SWITCH s  which = 1-based index of the first CASE equal to s, 0 for
 *             none; exec_if (false), 2 (every active lane waits at 1)
 *   CASE k    exec_else (which == k), 0: 1 -> 0 on a match, 0 stays 0
 *             (fall-through), other counts unchanged; DEFAULT: which == 0
 *   ENDSWITCH exec_pop 2
 *   CAL       exec_if (true), 1; the body inlined; exec_pop 1
 * A lane leaving a construct early (BRK, CONT, RET) writes its count
 * directly: the levels of the constructs it is inside, up to the one it
 * leaves, plus 2 (BRK: loop or switch), 1 (CONT) or 1 (RET from a call),
 * then exec_pop 0 recomputes the mask. The pops on the way out bring the
 * count down to the construct's own level, where its end wakes the lane.
 * RET in main parks the lane for good (its outputs are read at the end).
 * A lane disabled by an outer construct enters with a count >= 1, gets
 * the construct's push on top and never reaches 0 inside it.
 */
#include "compiler/ref/ref.h"

#include <stdlib.h>

#define PARKED 0x4000u /* above any sum of pushes (REF_MAX_CF * 2) */

static unsigned
push_of(const struct ref_cf *f)
{
   return f->kind == REF_CF_LOOP || f->kind == REF_CF_SWITCH ? 2 : 1;
}

static struct isa_insn *
stack_op(struct ref_ctx *c, const char *name, unsigned n)
{
   struct isa_insn *in = ref_emit(c, name);
   in->src[in->nsrc - 1] = ref_imm(n);
   return in;
}

/* An integer-compare stack op: name (a cond b), n. */
static void
stack_icmp(struct ref_ctx *c, const char *name, struct isa_opnd a, struct isa_opnd b,
           const char *cond, unsigned n)
{
   struct isa_insn *in = stack_op(c, name, n);
   in->src[0] = a;
   in->src[1] = b;
   ref_set_mod(c, in, "iccn", cond);
   ref_set_mod(c, in, "isign", "u");
}

/* The count register, written by the active lanes only. */
static void
set_count(struct ref_ctx *c, unsigned value)
{
   struct isa_insn *in = ref_emit(c, "mov_imm16");
   in->dst[0] = (struct isa_opnd){.kind = ISA_OPND_REG, .file = (uint8_t)c->special[1], .index = 0};
   in->src[0] = ref_imm(value);
}

void
ref_exec_begin(struct ref_ctx *c)
{
   int h = -1;
   for (unsigned f = 0; f < isa_file_count(c->m) && h < 0; f++) {
      struct isa_file_info fi;
      isa_file_info(c->m, f, &fi);
      if (fi.kind == ISA_FILE_HALF && fi.half_of == c->gpr)
         h = (int)f;
   }
   if (h < 0) {
      ref_error(c, "the model has no half registers for the stack count");
      return;
   }
   c->special[1] = (unsigned)h;
   set_count(c, 0); /* "r0l must be 0 before use" */
}

/* A lane leaves the constructs above f (and f itself, by offset). */
static void
leave(struct ref_ctx *c, unsigned k, unsigned offset)
{
   unsigned n = offset;
   for (unsigned j = k + 1; j < c->ncf; j++)
      n += push_of(&c->cf[j]);
   set_count(c, n);
   stack_op(c, "pop_exec", 0);
}

static struct ref_cf *
top_cf(struct ref_ctx *c, enum ref_cf_kind kind)
{
   if (!c->ncf || c->cf[c->ncf - 1].kind != kind) {
      ref_error(c, "unbalanced control flow");
      return NULL;
   }
   return &c->cf[c->ncf - 1];
}

/* BRK/CONT: the innermost loop (or switch, for BRK) inside the current
 * call; none: nothing happens (the interpreter's rule). */
static void
cf_break(struct ref_ctx *c, bool brk)
{
   for (unsigned k = c->ncf; k-- > 0;) {
      const struct ref_cf *f = &c->cf[k];
      if (f->kind == REF_CF_CALL)
         return;
      if (f->kind == REF_CF_LOOP || (brk && f->kind == REF_CF_SWITCH)) {
         leave(c, k, brk ? 2 : 1);
         return;
      }
   }
}

static void
cf_ret(struct ref_ctx *c)
{
   for (unsigned k = c->ncf; k-- > 0;)
      if (c->cf[k].kind == REF_CF_CALL) {
         leave(c, k, 1);
         return;
      }
   set_count(c, PARKED);
   stack_op(c, "pop_exec", 0);
}

static void
cf_if(struct ref_ctx *c, const struct tgsi_insn *in)
{
   unsigned v = ref_fetch(c, in, 0, 0);
   if (in->op == TGSI_OP_IF) /* as a float: +-0 false, NaN and denormals true */
      v = ref_prim(c, REF_P_AND, v, ref_imm_reg(c, 0x7fffffffu), 0);
   if (!ref_push_cf(c, REF_CF_IF))
      return;
   stack_icmp(c, "if_icmp", ref_r(c, v), ref_imm(0), "ne", 1);
}

static void
cf_switch(struct ref_ctx *c, int32_t pc)
{
   const struct tgsi_insn *in = &c->s->insns[pc];
   unsigned sel = ref_fetch(c, in, 0, 0);
   int32_t end = in->target >= 0 ? in->target : (int32_t)c->s->ninsns;
   int *index = xcalloc((size_t)c->s->ninsns + 1, sizeof(int));
   int depth = 0, ncase = 0;
   for (int32_t k = pc + 1; k < end; k++) {
      enum tgsi_opcode op = c->s->insns[k].op;
      if (op == TGSI_OP_SWITCH)
         depth++;
      else if (op == TGSI_OP_ENDSWITCH)
         depth--;
      else if (depth == 0 && op == TGSI_OP_CASE)
         index[k] = ++ncase;
   }
   /* which = the first matching CASE: the cases from last to first */
   unsigned which = ref_imm_reg(c, 0);
   for (int32_t k = end - 1; k > pc; k--) {
      if (index[k] <= 0)
         continue;
      c->cur = &c->s->insns[k];
      unsigned v = ref_fetch(c, &c->s->insns[k], 0, 0);
      unsigned eq = ref_prim(c, REF_P_IEQ, sel, v, 0);
      which = ref_prim(c, REF_P_SEL, ref_imm_reg(c, (uint32_t)index[k]), eq, which);
   }
   c->cur = in;
   struct ref_cf *f = ref_push_cf(c, REF_CF_SWITCH);
   if (!f) {
      free(index);
      return;
   }
   f->first = pc;
   f->case_label = index;
   f->sel = ref_tmp_persistent(c);
   c->t->copy(c, f->sel, which);
   stack_icmp(c, "if_icmp", ref_imm(0), ref_imm(1), "eq", 2);
}

static void
cf_case(struct ref_ctx *c, int32_t pc)
{
   struct ref_cf *f = top_cf(c, REF_CF_SWITCH);
   if (!f)
      return;
   int k = c->s->insns[pc].op == TGSI_OP_DEFAULT ? 0 : f->case_label[pc];
   if (k < 0 || (k == 0 && c->s->insns[pc].op != TGSI_OP_DEFAULT))
      return;
   stack_icmp(c, "else_icmp", ref_r(c, f->sel), ref_imm((uint32_t)k), "eq", 0);
}

static void
cf_end(struct ref_ctx *c, enum ref_cf_kind kind)
{
   struct ref_cf *f = top_cf(c, kind);
   if (!f)
      return;
   if (kind == REF_CF_LOOP) {
      stack_icmp(c, "while_icmp", ref_imm(0), ref_imm(0), "eq", 2);
      ref_emit(c, "jmp_exec_any");
      ref_branch_to(c, f->l_top, 0);
   }
   if (kind == REF_CF_SWITCH) {
      ref_tmp_release_persistent(c, f->sel);
      free(f->case_label);
      f->case_label = NULL;
   }
   stack_op(c, "pop_exec", push_of(f));
   c->ncf--;
}

static void
cf_call(struct ref_ctx *c, const struct tgsi_insn *in)
{
   int32_t first, end;
   if (!ref_call_body(c, in, &first, &end) || !ref_push_cf(c, REF_CF_CALL))
      return;
   unsigned depth = c->ncf;
   stack_icmp(c, "if_icmp", ref_imm(0), ref_imm(0), "eq", 1);
   ref_inline_body(c, in, first, end);
   if (c->status == COMPILE_OK && c->ncf != depth)
      ref_error(c, "unbalanced control flow in the subroutine");
   c->ncf = depth;
   cf_end(c, REF_CF_CALL);
}

bool
ref_exec_cf(struct ref_ctx *c, int32_t pc)
{
   const struct tgsi_insn *in = &c->s->insns[pc];
   struct ref_cf *f;
   switch (in->op) {
   case TGSI_OP_IF:
   case TGSI_OP_UIF:
      cf_if(c, in);
      return true;
   case TGSI_OP_ELSE:
      if (top_cf(c, REF_CF_IF))
         stack_icmp(c, "else_icmp", ref_imm(0), ref_imm(0), "eq", 1);
      return true;
   case TGSI_OP_ENDIF:
      cf_end(c, REF_CF_IF);
      return true;
   case TGSI_OP_BGNLOOP:
      if (!(f = ref_push_cf(c, REF_CF_LOOP)))
         return true;
      stack_icmp(c, "if_icmp", ref_imm(0), ref_imm(0), "eq", 2);
      f->l_top = ref_label(c);
      ref_place(c, f->l_top);
      return true;
   case TGSI_OP_ENDLOOP:
      cf_end(c, REF_CF_LOOP);
      return true;
   case TGSI_OP_BRK:
   case TGSI_OP_CONT:
      cf_break(c, in->op == TGSI_OP_BRK);
      return true;
   case TGSI_OP_SWITCH:
      cf_switch(c, pc);
      return true;
   case TGSI_OP_CASE:
   case TGSI_OP_DEFAULT:
      cf_case(c, pc);
      return true;
   case TGSI_OP_ENDSWITCH:
      cf_end(c, REF_CF_SWITCH);
      return true;
   case TGSI_OP_CAL:
      cf_call(c, in);
      return true;
   case TGSI_OP_RET:
      cf_ret(c);
      return true;
   default:
      return false;
   }
}
