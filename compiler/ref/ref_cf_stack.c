/*
 * Structured control flow for models that reconverge through a stack
 * (SSY/SYNC, sm50). There a divergent branch is only safe inside an
 * SSY ... SYNC region, and a lane cannot leave a region early: the SSY
 * entry resumes every lane it saved. So BRK, CONT and RET do not jump;
 * they set a per-lane exit code, and the code after them runs only for
 * lanes whose code is 0.
 *
 * One register E holds the code for the whole shader (0: running). Each
 * construct has a level L (its depth in the construct stack, main = 0)
 * and owns the codes 4L+1 .. 4L+3:
 *   loop    4L+1 broken (cleared after the loop), 4L+2 continued
 *           (cleared at the latch);
 *   switch  4L+1 broken, 4L+2 waiting for its CASE, 4L+3 waiting for
 *           DEFAULT (all cleared at ENDSWITCH);
 *   call    4L+1 returned (cleared after the inlined body); main: 1.
 *
 * The only shapes emitted:
 *   if      SSY end; @!c BRA else; then...; SYNC; else: else...; SYNC; end:
 *   loop    SSY exit; top: body; [E = cont ? 0 : E]; @E!=0 BRA leave;
 *           BRA top; leave: SYNC; exit: [E = brk ? 0 : E]
 *   guard   an if without else around the rest of a block, opened before
 *           the next statement whenever E may be non-zero there (after
 *           BRK/CONT/RET, after a construct containing one, at a CASE or
 *           DEFAULT label); closed at the end of the block.
 * A switch dispatches by setting E: lanes whose selector matches some CASE
 * wait for it, the others for DEFAULT; each label sets E = 0 for the lanes
 * it takes, and every region between labels runs under a guard.
 *
 * On the stack (flow.c): the loop's leaving lanes branch forward, so the
 * not-taken entry (the lanes that go round again) is popped at once by
 * their SYNC and the stack does not grow with the iterations; the SSY
 * entry brings every lane back at the exit.
 */
#include "compiler/ref/ref.h"

enum {
   CODE_BRK = 1,  /* also RET for calls */
   CODE_WAIT = 2, /* also CONT for loops */
   CODE_DEFAULT = 3,
};

static uint32_t
code(unsigned level, unsigned k)
{
   return 4u * level + k;
}

/* E = (E == value) ? 0 : E */
static void
clear_code(struct ref_ctx *c, uint32_t value)
{
   unsigned v = ref_tmp(c), z = ref_tmp(c);
   c->t->mov_imm(c, v, value);
   c->t->mov_imm(c, z, 0);
   ref_select_eq(c, c->e_reg, c->e_reg, v, z, c->e_reg);
}

static void
set_code(struct ref_ctx *c, uint32_t value)
{
   c->t->mov_imm(c, c->e_reg, value);
}

/* Opens an if (SSY) whose body runs for lanes with E == 0. */
static void
open_guard(struct ref_ctx *c)
{
   struct ref_cf *f = ref_push_cf(c, REF_CF_GUARD);
   if (!f)
      return;
   f->l_else = ref_label(c);
   f->l_end = ref_label(c);
   c->t->ssy(c, f->l_end);
   c->t->branch(c, REF_TEST_INT_NZ, c->e_reg, c->e_reg, true, f->l_else);
   c->dirty = false;
}

static void
close_if(struct ref_ctx *c, struct ref_cf *f)
{
   c->t->sync(c);
   if (!f->else_placed) {
      ref_place(c, f->l_else);
      c->t->sync(c);
   }
   ref_place(c, f->l_end);
}

/* Closes the guards of the current block. */
static void
close_guards(struct ref_ctx *c)
{
   while (c->ncf && c->cf[c->ncf - 1].kind == REF_CF_GUARD) {
      close_if(c, &c->cf[c->ncf - 1]);
      c->ncf--;
   }
}

/* Before a statement: a guard if some lane may have an exit code. */
void
ref_stack_statement(struct ref_ctx *c)
{
   if (c->dirty)
      open_guard(c);
}

/* An exit to the construct at index target (-1: out of main) leaves its
 * code set in every construct it passes; the target itself clears it at
 * its end (a loop at its latch and exit, a switch at ENDSWITCH, a call
 * after the body), so the code after the target runs unguarded. */
static void
mark_exits(struct ref_ctx *c, int target)
{
   for (unsigned k = (unsigned)(target + 1); k < c->ncf; k++)
      c->cf[k].has_exit = true;
   c->dirty = true;
}

static struct ref_cf *
top(struct ref_ctx *c, enum ref_cf_kind kind)
{
   close_guards(c);
   if (!c->ncf || c->cf[c->ncf - 1].kind != kind) {
      ref_error(c, "unbalanced control flow");
      return NULL;
   }
   return &c->cf[c->ncf - 1];
}

/* A construct closes: its exits make the enclosing block dirty. */
static void
pop(struct ref_ctx *c)
{
   bool exits = c->cf[c->ncf - 1].has_exit;
   c->ncf--;
   c->dirty = exits;
}

static void
s_if(struct ref_ctx *c, const struct tgsi_insn *in)
{
   ref_stack_statement(c);
   unsigned v = ref_fetch(c, in, 0, 0);
   struct ref_cf *f = ref_push_cf(c, REF_CF_IF);
   if (!f)
      return;
   f->l_else = ref_label(c);
   f->l_end = ref_label(c);
   c->t->ssy(c, f->l_end);
   c->t->branch(c, in->op == TGSI_OP_UIF ? REF_TEST_INT_NZ : REF_TEST_FLOAT_NZ, v, v, false,
                f->l_else);
}

static void
s_else(struct ref_ctx *c)
{
   struct ref_cf *f = top(c, REF_CF_IF);
   if (!f)
      return;
   c->t->sync(c);
   ref_place(c, f->l_else);
   f->else_placed = true;
   c->dirty = false; /* the else lanes were running at the IF */
}

static void
s_endif(struct ref_ctx *c)
{
   struct ref_cf *f = top(c, REF_CF_IF);
   if (!f)
      return;
   close_if(c, f);
   pop(c);
}

static void
s_loop(struct ref_ctx *c)
{
   ref_stack_statement(c);
   struct ref_cf *f = ref_push_cf(c, REF_CF_LOOP);
   if (!f)
      return;
   f->level = c->ncf;
   f->l_top = ref_label(c);
   f->l_cont = ref_label(c); /* the leaving lanes' SYNC */
   f->l_exit = ref_label(c);
   c->t->ssy(c, f->l_exit);
   ref_place(c, f->l_top);
}

static void
s_endloop(struct ref_ctx *c)
{
   struct ref_cf *f = top(c, REF_CF_LOOP);
   if (!f)
      return;
   unsigned level = f->level;
   clear_code(c, code(level, CODE_WAIT));
   c->t->branch(c, REF_TEST_INT_NZ, c->e_reg, c->e_reg, true, f->l_cont);
   c->t->jump(c, f->l_top);
   ref_place(c, f->l_cont);
   c->t->sync(c);
   ref_place(c, f->l_exit);
   clear_code(c, code(level, CODE_BRK));
   pop(c);
}

/* SWITCH: E = wait for lanes some CASE matches, default for the rest. */
static void
s_switch(struct ref_ctx *c, int32_t pc)
{
   ref_stack_statement(c);
   const struct tgsi_insn *in = &c->s->insns[pc];
   unsigned sel_now = ref_fetch(c, in, 0, 0);
   struct ref_cf *f = ref_push_cf(c, REF_CF_SWITCH);
   if (!f)
      return;
   f->level = c->ncf;
   f->sel = ref_tmp_persistent(c);
   c->t->copy(c, f->sel, sel_now);
   unsigned wait = ref_tmp(c);
   c->t->mov_imm(c, wait, code(f->level, CODE_WAIT));
   set_code(c, code(f->level, CODE_DEFAULT));
   int depth = 0;
   int32_t end = in->target >= 0 ? in->target : (int32_t)c->s->ninsns;
   for (int32_t k = pc + 1; k < end; k++) {
      enum tgsi_opcode op = c->s->insns[k].op;
      depth += op == TGSI_OP_SWITCH ? 1 : op == TGSI_OP_ENDSWITCH ? -1 : 0;
      if (depth || op != TGSI_OP_CASE)
         continue;
      c->cur = &c->s->insns[k];
      unsigned v = ref_fetch(c, &c->s->insns[k], 0, 0);
      ref_select_eq(c, c->e_reg, f->sel, v, wait, c->e_reg);
   }
   c->cur = in;
   c->dirty = true;
}

static void
s_case(struct ref_ctx *c, const struct tgsi_insn *in)
{
   struct ref_cf *f = top(c, REF_CF_SWITCH);
   if (!f)
      return;
   unsigned z = ref_tmp(c);
   c->t->mov_imm(c, z, 0);
   if (in->op == TGSI_OP_DEFAULT) {
      unsigned d = ref_tmp(c);
      c->t->mov_imm(c, d, code(f->level, CODE_DEFAULT));
      ref_select_eq(c, c->e_reg, c->e_reg, d, z, c->e_reg);
   } else {
      /* m = sel == v ? wait : ~0 (a code E never holds); E = E == m ? 0 : E */
      unsigned v = ref_fetch(c, in, 0, 0);
      unsigned wait = ref_tmp(c), never = ref_tmp(c), m = ref_tmp(c);
      c->t->mov_imm(c, wait, code(f->level, CODE_WAIT));
      c->t->mov_imm(c, never, 0xffffffffu);
      ref_select_eq(c, m, f->sel, v, wait, never);
      ref_select_eq(c, c->e_reg, c->e_reg, m, z, c->e_reg);
   }
   c->dirty = true;
}

static void
s_endswitch(struct ref_ctx *c)
{
   struct ref_cf *f = top(c, REF_CF_SWITCH);
   if (!f)
      return;
   for (unsigned k = CODE_BRK; k <= CODE_DEFAULT; k++)
      clear_code(c, code(f->level, k));
   ref_tmp_release_persistent(c, f->sel);
   pop(c); /* a CONT or RET inside leaves its code set: still dirty */
}

/* BRK/CONT/RET: the innermost matching construct's code, never beyond a
 * call (BRK/CONT there do nothing, as in the interpreter). */
static void
s_exit(struct ref_ctx *c, enum tgsi_opcode op)
{
   for (unsigned k = c->ncf; k-- > 0;) {
      struct ref_cf *f = &c->cf[k];
      bool call = f->kind == REF_CF_CALL;
      if (op == TGSI_OP_RET && !call)
         continue;
      if (op != TGSI_OP_RET && call)
         return;
      if (f->kind == REF_CF_LOOP || (op == TGSI_OP_BRK && f->kind == REF_CF_SWITCH) || call) {
         ref_stack_statement(c);
         set_code(c, code(f->level, op == TGSI_OP_CONT ? CODE_WAIT : CODE_BRK));
         mark_exits(c, (int)k);
         return;
      }
   }
   if (op == TGSI_OP_RET) {
      ref_stack_statement(c);
      set_code(c, code(0, CODE_BRK));
      mark_exits(c, -1);
   }
}

static void
s_call(struct ref_ctx *c, const struct tgsi_insn *in)
{
   int32_t first, end;
   if (!ref_call_body(c, in, &first, &end))
      return;
   ref_stack_statement(c);
   struct ref_cf *f = ref_push_cf(c, REF_CF_CALL);
   if (!f)
      return;
   f->level = c->ncf;
   unsigned depth = c->ncf;
   ref_inline_body(c, in, first, end);
   close_guards(c);
   if (c->status == COMPILE_OK && c->ncf != depth)
      ref_error(c, "unbalanced control flow in the subroutine");
   clear_code(c, code(depth, CODE_BRK));
   c->ncf = depth - 1;
   c->dirty = false; /* the return code is cleared: the callers' lanes run on */
}

/* One control-flow instruction (or any other: guarded); false if op is
 * not handled here. */
bool
ref_stack_cf(struct ref_ctx *c, int32_t pc)
{
   const struct tgsi_insn *in = &c->s->insns[pc];
   switch (in->op) {
   case TGSI_OP_IF:
   case TGSI_OP_UIF:
      s_if(c, in);
      return true;
   case TGSI_OP_ELSE:
      s_else(c);
      return true;
   case TGSI_OP_ENDIF:
      s_endif(c);
      return true;
   case TGSI_OP_BGNLOOP:
      s_loop(c);
      return true;
   case TGSI_OP_ENDLOOP:
      s_endloop(c);
      return true;
   case TGSI_OP_SWITCH:
      s_switch(c, pc);
      return true;
   case TGSI_OP_CASE:
   case TGSI_OP_DEFAULT:
      s_case(c, in);
      return true;
   case TGSI_OP_ENDSWITCH:
      s_endswitch(c);
      return true;
   case TGSI_OP_BRK:
   case TGSI_OP_CONT:
   case TGSI_OP_RET:
      s_exit(c, in->op);
      return true;
   case TGSI_OP_CAL:
      s_call(c, in);
      return true;
   default:
      return false;
   }
}

/* Program start and end in stack mode: E = 0; guards of main closed. */
void
ref_stack_begin(struct ref_ctx *c)
{
   c->e_reg = ref_tmp_persistent(c);
   set_code(c, 0);
}

void
ref_stack_end(struct ref_ctx *c)
{
   close_guards(c);
}
