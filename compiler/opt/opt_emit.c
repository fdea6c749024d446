/*
 * The end of the optimizing compiler: the program layout, the records,
 * encoding, the binding table and opt_compile(), the pipeline.
 *
 * Layout. The structured tree is laid out in program order; the control
 * flow it implies becomes instructions here and only here (hazard
 * insertion asks for the same layout):
 *   - a block followed by an if ends with "br !p, ELSE" (or END when the
 *     else list is empty), p the if's predicate;
 *   - the end of a then list with a non-empty else list: "jump END";
 *   - break: "jump EXIT"; continue and the end of a loop body: "jump HEAD".
 * The first instruction at a branch target carries (jp). Targets are
 * relative, in instructions, from the branch itself.
 *
 * Records. A mach instruction's record follows from the IR alone
 * (opt_mach_record): its result's register is the destination; an operand
 * reading an immediate without a register is an inline immediate, one
 * reading a value in a constant file is a constant, anything else the
 * value's register. Legalization has made every record encodable; here
 * each one is checked again by the encoder.
 *
 * Bindings (emu.h): inputs and system values from their load's register,
 * constants and constant-file immediates from their slot, outputs from the
 * register of each store_output's value.
 */
#include "compiler/compiler.h"
#include "compiler/ir/ir.h"
#include "compiler/opt/opt_agx.h"
#include "emu/emu.h"

#include <assert.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ */
/* Records                                                              */

void
opt_mach_record(const struct ir_instr *in, struct isa_insn *out)
{
   const struct ir_mach *m = in->mach;
   *out = m->insn;
   int gm, gv;
   if (m->guard != IR_MACH_FIXED && ir_has_reg(in->src[m->guard]) &&
       opt_guard_value(m->model, in->src[m->guard]->mach->reg.index, m->guard_not, &gm, &gv))
      out->mod[gm] = (int16_t)gv;
   for (unsigned d = 0; d < out->ndst; d++) {
      struct isa_opnd *o = &out->dst[d];
      if (d == 0 && ir_has_reg(in)) {
         o->kind = ISA_OPND_REG;
         o->file = (uint8_t)m->reg.file;
         o->index = m->reg.index;
      }
   }
   for (unsigned k = 0; k < out->nsrc; k++) {
      if (!m->count[k])
         continue;
      struct isa_opnd *o = &out->src[k];
      const struct ir_instr *v = in->src[m->first[k]];
      if (o->flags & ISA_OPND_F_REL) { /* file[address + offset]: the value is the address */
         o->bank = ir_has_reg(v) ? v->mach->reg.index : 0;
         o->index = 0;
         continue;
      }
      o->bank = 0;
      if (v->op == IR_OP_IMM && !ir_has_reg(v)) {
         o->kind = ISA_OPND_IMM;
         o->value = (uint32_t)v->imm;
         continue;
      }
      o->kind = ISA_OPND_REG;
      if (ir_has_reg(v)) {
         struct isa_file_info fi;
         isa_file_info(m->model, (unsigned)v->mach->reg.file, &fi);
         if (fi.kind == ISA_FILE_CONST)
            o->kind = ISA_OPND_CONST;
         o->file = (uint8_t)v->mach->reg.file;
         o->index = v->mach->reg.index;
      }
   }
}

/* ------------------------------------------------------------------ */
/* Layout                                                               */

struct lctx {
   struct ir_shader *sh;
   struct opt_layout *lo;
   unsigned *label_at; /* by label id: slot index */
   unsigned nlabels, labels_cap;
   int head, exit; /* labels of the innermost loop, -1 outside loops */
   bool stack;     /* the model reconverges through SSY/SYNC */
   int next_exit;  /* stack models: the exit label of the loop after this block */
   int pending;    /* ... kept for that loop */
   /* EXEC-mask models (opt_exec.c): the ops, the nesting depth in pairs,
    * the innermost loop's break and continue pairs, and what the next
    * block starts with */
   bool exec;
   struct opt_exec x;
   unsigned depth;
   unsigned brk, cont;
   bool has_cont;
   struct lpend {
      enum { PEND_LABEL, PEND_ELSE, PEND_JOIN, PEND_EXIT } kind;
      unsigned label, pair;
   } pend[4];
   unsigned npend;
};

static unsigned
new_label(struct lctx *c)
{
   VEC_PUSH(c->label_at, c->nlabels, c->labels_cap, ~0u);
   return c->nlabels - 1;
}

static void
bind_label(struct lctx *c, unsigned label)
{
   c->label_at[label] = c->lo->n;
}

static struct opt_slot *
push_slot(struct lctx *c, struct ir_block *b, struct ir_instr *in, bool implied)
{
   struct opt_slot s = {in, {0}, -1, b, implied, NULL, false, ISA_SEM_JUMP, false};
   VEC_PUSH(c->lo->v, c->lo->n, c->lo->cap, s);
   return &c->lo->v[c->lo->n - 1];
}

static bool
list_empty(const struct ir_list *l)
{
   return l->n == 1 && l->v[0]->kind == IR_NODE_BLOCK && !l->v[0]->block->first;
}

static void lay_list(struct lctx *c, struct ir_list *l, int tail_label, bool tail_sync);

static struct opt_slot *
push_implied(struct lctx *c, struct ir_block *b, enum isa_sem kind, int target)
{
   struct opt_slot *s = push_slot(c, b, NULL, true);
   s->kind = kind;
   s->target = target;
   return s;
}

/* A block: its machine instructions, then what its position implies: the
 * branch of the if `next` when not NULL (to label br_to, after SSY end on
 * stack models), else a jump to tail_label (>= 0) or a SYNC (tail_sync). */
static void
lay_block(struct lctx *c, struct ir_block *b, const struct ir_node *next, unsigned br_to,
          unsigned end, int tail_label, bool tail_sync)
{
   c->lo->block_start[b->index] = c->lo->n;
   for (struct ir_instr *in = b->first; in; in = in->next) {
      if (in->op == IR_OP_MACH) {
         push_slot(c, b, in, false);
      } else if (c->stack && in->op == IR_OP_BREAK) { /* SYNC: wait for the loop's exit */
         bool negate = false;
         struct ir_node *f = opt_break_if(c->sh, b, &negate);
         struct opt_slot *s = push_implied(c, b, ISA_SEM_SYNC, -1);
         s->cond = f ? f->cond : NULL;
         s->cond_holds = !negate;
         tail_label = -1;
         tail_sync = false;
         next = NULL;
         break;
      } else if (in->op == IR_OP_BREAK || in->op == IR_OP_CONTINUE) {
         struct opt_slot *s = push_slot(c, b, in, true);
         s->target = in->op == IR_OP_BREAK ? c->exit : c->head;
         tail_label = -1;
         tail_sync = false;
         next = NULL;
         break;
      }
   }
   if (c->next_exit >= 0) { /* a loop follows: SSY its exit */
      push_implied(c, b, ISA_SEM_SSY, c->next_exit);
   } else if (next) {
      if (c->stack)
         push_implied(c, b, ISA_SEM_SSY, (int)end);
      push_implied(c, b, ISA_SEM_BRANCH, (int)br_to)->cond = next->cond;
   } else if (tail_label >= 0) {
      push_implied(c, b, ISA_SEM_JUMP, tail_label);
   } else if (tail_sync) {
      push_implied(c, b, ISA_SEM_SYNC, -1);
   }
   c->lo->block_end[b->index] = c->lo->n;
}

/* a3xx: br !p ELSE; then; jump END; ELSE: else; END:
 * sm50: SSY END; @!p BRA ELSE; then; SYNC; ELSE: else; SYNC; END: */
static void
lay_if(struct lctx *c, struct ir_node *n, unsigned els, unsigned end)
{
   lay_list(c, &n->then_list, els == end || c->stack ? -1 : (int)end, c->stack);
   if (els != end) {
      bind_label(c, els);
      lay_list(c, &n->else_list, -1, c->stack);
   }
   bind_label(c, end);
}

/* The arm of if f that is a predicated break, or NULL. */
static const struct ir_list *
break_arm(const struct lctx *c, const struct ir_node *f)
{
   bool negate;
   const struct ir_list *arms[2] = {&f->then_list, &f->else_list};
   for (unsigned k = 0; k < 2; k++)
      if (arms[k]->n == 1 && opt_break_if(c->sh, arms[k]->v[0]->block, &negate) == f)
         return arms[k];
   return NULL;
}

/* tail_label/tail_sync: where the last block of the list goes when it
 * falls off. */
static void
lay_list(struct lctx *c, struct ir_list *l, int tail_label, bool tail_sync)
{
   for (unsigned i = 0; i < l->n; i++) {
      struct ir_node *n = l->v[i];
      bool last = i + 1 == l->n;
      switch (n->kind) {
      case IR_NODE_BLOCK:
         if (!last && l->v[i + 1]->kind == IR_NODE_IF && c->stack && break_arm(c, l->v[i + 1])) {
            /* A predicated break (opt_break_if): no branch, the arms
             * inline, the break's arm first. Its SYNC takes the lanes that
             * leave, so the other arm runs only for the lanes that take it
             * (laid out first, it would also run, unguarded, for the lanes
             * that then break, clobbering what they carry out). */
            struct ir_node *f = l->v[++i];
            bool brk_else = break_arm(c, f) == &f->else_list;
            lay_block(c, n->block, NULL, 0, 0, -1, false);
            lay_list(c, brk_else ? &f->else_list : &f->then_list, -1, false);
            lay_list(c, brk_else ? &f->then_list : &f->else_list, -1, false);
         } else if (!last && l->v[i + 1]->kind == IR_NODE_LOOP && c->stack) {
            c->next_exit = c->pending = (int)new_label(c);
            lay_block(c, n->block, NULL, 0, 0, -1, false);
            c->next_exit = -1;
         } else if (!last && l->v[i + 1]->kind == IR_NODE_IF) {
            struct ir_node *f = l->v[++i];
            unsigned end = new_label(c);
            unsigned els = list_empty(&f->else_list) && !c->stack ? end : new_label(c);
            lay_block(c, n->block, f, els, end, -1, false);
            lay_if(c, f, els, end);
         } else {
            lay_block(c, n->block, NULL, 0, 0, last ? tail_label : -1, last && tail_sync);
         }
         break;
      case IR_NODE_LOOP: {
         int head = c->head, exit = c->exit;
         c->head = (int)new_label(c);
         c->exit = c->stack ? c->pending : (int)new_label(c); /* stack: SSY'd to before */
         bind_label(c, (unsigned)c->head);
         lay_list(c, &n->body, c->head, false);
         bind_label(c, (unsigned)c->exit);
         c->head = head;
         c->exit = exit;
         break;
      }
      case IR_NODE_IF:
         break; /* laid out with the block before it */
      }
   }
}

/* ------------------------------------------------------------------ */
/* Layout on EXEC-mask models (opt_exec.c has the scheme)               */

#define X_IMM0 (-1) /* operand: the immediate 0 */
#define X_NONE (-2) /* operand: none */

static struct isa_opnd
x_opnd(const struct lctx *c, int reg)
{
   if (reg < 0)
      return (struct isa_opnd){.kind = ISA_OPND_IMM};
   return (struct isa_opnd){
       .kind = ISA_OPND_REG, .file = (uint8_t)c->x.file, .index = (uint16_t)reg};
}

/* A scalar instruction op d, a, b of the layout (registers, X_IMM0 or
 * X_NONE); a branch gets its target label. */
static void
x_slot(struct lctx *c, struct ir_block *b, int op, int d, int a, int bb, int target)
{
   struct opt_slot *s = push_slot(c, b, NULL, true);
   s->built = true;
   isa_insn_init(c->sh->model, (unsigned)op, &s->insn);
   s->kind = s->insn.sem;
   s->target = target;
   if (s->insn.ndst && d != X_NONE)
      s->insn.dst[0] = x_opnd(c, d);
   int src[2] = {a, bb};
   for (unsigned k = 0; k < s->insn.nsrc && k < 2; k++)
      if (src[k] != X_NONE)
         s->insn.src[k] = x_opnd(c, src[k]);
}

static unsigned
x_pair(const struct lctx *c, unsigned depth)
{
   return opt_exec_pair_reg(&c->x, depth);
}

static void
x_pend(struct lctx *c, int kind, unsigned label, unsigned pair)
{
   if (c->npend < ARRAY_SIZE(c->pend))
      c->pend[c->npend++] = (struct lpend){kind, label, pair};
}

/* What a block starts with: the labels bound to it, the else arm's swap
 * (S = the then arm's survivors, EXEC = the else lanes; none: to END),
 * the join of an if (EXEC |= S) or a loop's exit (EXEC = B). */
static void
x_prologue(struct lctx *c, struct ir_block *b)
{
   int ex = (int)c->x.exec;
   for (unsigned i = 0; i < c->npend; i++) {
      const struct lpend *p = &c->pend[i];
      int s = (int)p->pair;
      switch (p->kind) {
      case PEND_LABEL:
         bind_label(c, p->label);
         break;
      case PEND_ELSE:
         x_slot(c, b, c->x.andn2_save, s, s, X_NONE, -1);
         x_slot(c, b, c->x.execz, X_NONE, X_IMM0, X_NONE, (int)p->label);
         break;
      case PEND_JOIN:
         x_slot(c, b, c->x.or64, ex, ex, s, -1);
         break;
      case PEND_EXIT:
         x_slot(c, b, c->x.mov64, ex, s, X_NONE, -1);
         break;
      }
   }
   c->npend = 0;
}

/* Does list l continue its loop (not a loop inside it)? */
static bool
x_continues(const struct ir_list *l)
{
   for (unsigned i = 0; i < l->n; i++) {
      const struct ir_node *n = l->v[i];
      if (n->kind == IR_NODE_BLOCK && n->block->last && n->block->last->op == IR_OP_CONTINUE)
         return true;
      if (n->kind == IR_NODE_IF && (x_continues(&n->then_list) || x_continues(&n->else_list)))
         return true;
   }
   return false;
}

/* A block: its prologue, its instructions (a break or continue parks
 * EXEC in the loop's pair), then the if's entry (S = the else lanes, EXEC
 * &= p; none left: to els), a loop's pairs cleared, or a loop's latch. */
static void
x_block(struct lctx *c, struct ir_block *b, const struct ir_node *next, unsigned els, bool latch)
{
   int ex = (int)c->x.exec;
   c->lo->block_start[b->index] = c->lo->n;
   x_prologue(c, b);
   for (struct ir_instr *in = b->first; in; in = in->next) {
      if (in->op == IR_OP_MACH) {
         push_slot(c, b, in, false);
      } else if (in->op == IR_OP_BREAK || in->op == IR_OP_CONTINUE) {
         int w = (int)(in->op == IR_OP_BREAK ? c->brk : c->cont);
         x_slot(c, b, c->x.or64, w, w, ex, -1);
         x_slot(c, b, c->x.mov64, ex, X_IMM0, X_NONE, -1);
         break;
      }
   }
   if (next && next->kind == IR_NODE_IF) {
      int s = (int)x_pair(c, c->depth);
      struct ir_instr *p = next->cond;
      x_slot(c, b, c->x.and_save, s, ir_has_reg(p) ? p->mach->reg.index : X_IMM0, X_NONE, -1);
      x_slot(c, b, c->x.andn2, s, s, ex, -1);
      x_slot(c, b, c->x.execz, X_NONE, X_IMM0, X_NONE, (int)els);
   } else if (next && next->kind == IR_NODE_LOOP) {
      x_slot(c, b, c->x.mov64, (int)x_pair(c, c->depth), X_IMM0, X_NONE, -1);
      x_slot(c, b, c->x.mov64, (int)x_pair(c, c->depth + 1), X_IMM0, X_NONE, -1);
   } else if (latch) {
      int w = (int)c->cont;
      if (c->has_cont) {
         x_slot(c, b, c->x.or64, ex, ex, w, -1);
         x_slot(c, b, c->x.mov64, w, X_IMM0, X_NONE, -1);
      }
      x_slot(c, b, c->x.execnz, X_NONE, X_IMM0, X_NONE, c->head);
   }
   c->lo->block_end[b->index] = c->lo->n;
}

static void
x_list(struct lctx *c, struct ir_list *l, bool body)
{
   for (unsigned i = 0; i < l->n; i++) {
      struct ir_node *n = l->v[i];
      bool last = i + 1 == l->n;
      const struct ir_node *next = last ? NULL : l->v[i + 1];
      if (n->kind == IR_NODE_BLOCK && next && next->kind == IR_NODE_IF) {
         unsigned end = new_label(c);
         bool no_else = list_empty(&next->else_list);
         unsigned els = no_else ? end : new_label(c);
         unsigned s = x_pair(c, c->depth);
         x_block(c, n->block, next, els, false);
         c->depth++;
         x_list(c, &l->v[i + 1]->then_list, false);
         if (!no_else) {
            x_pend(c, PEND_LABEL, els, 0);
            x_pend(c, PEND_ELSE, end, s);
            x_list(c, &l->v[i + 1]->else_list, false);
         }
         c->depth--;
         x_pend(c, PEND_LABEL, end, 0);
         /* conservative (stage emit): every join restores EXEC, whatever
          * the layout decides (an item: the block before the if) */
         if (opt_conservative_sh(c->sh, OPT_STAGE_EMIT, n->block->first ? n->block->first->line : 0,
                                 "join after @%u", n->block->index) ||
             !opt_fault_fires_sh(c->sh, OPT_FAULT_EXEC_NOT_RESTORED,
                                 "no EXEC join after the if after @%u", n->block->index))
            x_pend(c, PEND_JOIN, 0, s);
         i++;
      } else if (n->kind == IR_NODE_BLOCK) {
         x_block(c, n->block, next, 0, last && body);
      } else if (n->kind == IR_NODE_LOOP) {
         unsigned brk = c->brk, cont = c->cont;
         int head = c->head;
         bool has_cont = c->has_cont;
         c->brk = x_pair(c, c->depth);
         c->cont = x_pair(c, c->depth + 1);
         c->has_cont = x_continues(&n->body);
         c->head = (int)new_label(c);
         x_pend(c, PEND_LABEL, (unsigned)c->head, 0);
         c->depth += 2;
         x_list(c, &n->body, true);
         c->depth -= 2;
         x_pend(c, PEND_EXIT, 0, c->brk);
         c->brk = brk;
         c->cont = cont;
         c->head = head;
         c->has_cont = has_cont;
      }
   }
}

/* The implied branches' records. */
static void
implied_record(const struct ir_shader *sh, struct opt_slot *s)
{
   bool cond = s->cond != NULL;
   enum isa_sem kind = s->in ? ISA_SEM_JUMP : s->kind; /* break/continue: a jump */
   int op = opt_op_by_sem(sh->model, kind);
   if (op < 0 && kind == ISA_SEM_JUMP) /* sm50: BRA with the always-true guard */
      op = opt_op_by_sem(sh->model, ISA_SEM_BRANCH);
   isa_insn_init(sh->model, (unsigned)op, &s->insn);
   int gm, gv;
   bool guarded = false;
   for (unsigned k = 0; k < s->insn.nsrc; k++) {
      struct isa_slot_info si;
      isa_slot_info(sh->model, (unsigned)op, false, k, &si);
      struct isa_opnd *o = &s->insn.src[k];
      if (si.kinds & (1u << ISA_OPND_REG) && cond && ir_has_reg(s->cond)) {
         o->kind = ISA_OPND_REG;
         o->file = (uint8_t)s->cond->mach->reg.file;
         o->index = s->cond->mach->reg.index;
         o->flags = ISA_OPND_F_NOT; /* branch to the else part when false */
         guarded = true;
      } else {
         o->kind = ISA_OPND_IMM;
         o->value = 0;
      }
   }
   /* no predicate operand: the branch is guarded by the predicate (@!P);
    * a break's SYNC acts where the if's predicate holds (@P), or fails */
   if (cond && !guarded && ir_has_reg(s->cond) &&
       opt_guard_value(sh->model, s->cond->mach->reg.index, !s->cond_holds, &gm, &gv))
      s->insn.mod[gm] = (int16_t)gv;
}

void
opt_layout_build(struct ir_shader *sh, struct opt_layout *lo)
{
   memset(lo, 0, sizeof(*lo));
   if (!sh->cfg_valid)
      ir_compute_cfg(sh);
   lo->block_start = xcalloc(sh->nblocks + 1, sizeof(unsigned));
   lo->block_end = xcalloc(sh->nblocks + 1, sizeof(unsigned));
   struct lctx c = {.sh = sh, .lo = lo, .head = -1, .exit = -1, .next_exit = -1, .pending = -1};
   c.stack = opt_stack_model(sh->model);
   c.exec = opt_exec_find(sh->model, &c.x);
   if (c.exec)
      x_list(&c, &sh->body, false);
   else
      lay_list(&c, &sh->body, -1, false);
   for (unsigned i = 0; i < lo->n; i++) {
      struct opt_slot *s = &lo->v[i];
      if (s->implied && !s->built)
         implied_record(sh, s);
      else if (!s->built)
         opt_mach_record(s->in, &s->insn);
      if (s->target >= 0)
         s->target = (int)c.label_at[s->target];
   }
   free(c.label_at);
}

void
opt_layout_free(struct opt_layout *lo)
{
   free(lo->v);
   free(lo->block_start);
   free(lo->block_end);
   memset(lo, 0, sizeof(*lo));
}

/* The program as encoded before the branch offsets are written: its
 * records, bytes and the byte address of every slot (bundle control words
 * included), as the encoder places them. Writing the offsets changes no
 * op, so the addresses hold, and the final program is these bytes with
 * the changed records encoded again (isa_encode_program_update). */
struct pre_code {
   struct isa_insn *insns;
   uint8_t *code; /* NULL: the program did not encode (addresses all 0) */
   size_t size;
   uint32_t *addr;
};

static void
pre_encode(const struct isa_model *m, const struct opt_layout *lo, struct pre_code *pc)
{
   pc->insns = xcalloc(lo->n + 1, sizeof(*pc->insns));
   for (unsigned i = 0; i < lo->n; i++)
      pc->insns[i] = lo->v[i].insn;
   pc->addr = xcalloc(lo->n + 1, sizeof(uint32_t));
   if (isa_encode_program_at(m, pc->insns, lo->n, &pc->code, &pc->size, pc->addr, NULL) !=
       ISA_ERR_OK) {
      memset(pc->addr, 0, (lo->n + 1) * sizeof(uint32_t));
      free(pc->code);
      pc->code = NULL;
   }
}

static void
pre_code_free(struct pre_code *pc)
{
   free(pc->insns);
   free(pc->code);
   free(pc->addr);
   memset(pc, 0, sizeof(*pc));
}

/* Writes the branch offsets, as the target operand's form counts them,
 * and the (jp) flags of the targets. */
static void
finish_branches(const struct ir_shader *sh, struct opt_layout *lo, struct pre_code *pc)
{
   const struct isa_model *m = sh->model;
   int jp = isa_mod_by_role(m, ISA_ROLE_JP);
   for (unsigned i = 0; i < lo->n; i++) {
      struct opt_slot *s = &lo->v[i];
      if (s->target < 0)
         continue;
      for (unsigned k = 0; k < s->insn.nsrc; k++) {
         struct isa_slot_info si;
         if (s->insn.src[k].kind != ISA_OPND_IMM || !isa_slot_info(m, s->insn.op, false, k, &si))
            continue;
         int32_t t = s->target, v;
         switch (si.pcrel) {
         case ISA_PCREL_INSN_NEXT:
            v = t - (int32_t)i - 1;
            break;
         case ISA_PCREL_BYTE:
         case ISA_PCREL_BYTE_NEXT:
         case ISA_PCREL_DWORD_NEXT:
            if (!pc->addr)
               pre_encode(m, lo, pc);
            const uint32_t *addr = pc->addr;
            v = (int32_t)((unsigned)t < lo->n ? addr[t] : addr[lo->n - 1] + 8) - (int32_t)addr[i] -
                (si.pcrel != ISA_PCREL_BYTE ? (int32_t)s->insn.size : 0);
            if (si.pcrel == ISA_PCREL_DWORD_NEXT)
               v /= 4;
            break;
         default:
            v = t - (int32_t)i;
            break;
         }
         s->insn.src[k].value = (uint32_t)v;
      }
      /* conservative: every target marked, nothing asked */
      if (jp >= 0 && (unsigned)s->target < lo->n &&
          (opt_conservative_sh(sh, OPT_STAGE_EMIT,
                               lo->v[s->target].in ? lo->v[s->target].in->line : 0, "target %d",
                               s->target) ||
           !opt_fault_fires_sh(sh, OPT_FAULT_MISSING_JP, "no (jp) on target %d", s->target)))
         lo->v[s->target].insn.mod[jp] = 1;
   }
}

/* ------------------------------------------------------------------ */
/* Bindings and figures                                                 */

static void
bind(struct emu_program *p, const struct ir_instr *v, enum emu_bind_kind kind, unsigned tgsi,
     unsigned chan, unsigned buffer, uint32_t value)
{
   struct emu_binding b = {0};
   b.kind = (uint8_t)kind;
   b.chan = (uint8_t)chan;
   b.file = (uint8_t)v->mach->reg.file;
   b.buffer = (uint8_t)buffer;
   b.tgsi_index = (uint16_t)tgsi;
   b.index = v->mach->reg.index;
   b.value = value;
   emu_program_bind(p, &b);
}

/* Relative constant reads (c<a + k>, LDC) address buffers 0 ..
 * rel_cbufs - 1 in a row, slot * 4 + channel: every declared slot of them
 * is bound (the ones direct loads bind are skipped). */
static void
bind_relative(const struct ir_shader *sh, struct emu_program *p)
{
   int cfile = opt_relative_cfile(sh);
   if (cfile < 0)
      return;
   unsigned n = opt_relative_base(sh, sh->rel_cbufs) * 4;
   bool *bound = xcalloc(n + 1, sizeof(bool));
   for (unsigned i = 0; i < p->nbinds; i++)
      if (p->binds[i].kind == EMU_BIND_CONST && p->binds[i].file == cfile && p->binds[i].index < n)
         bound[p->binds[i].index] = true;
   for (unsigned buf = 0, s = 0; buf < sh->rel_cbufs; buf++)
      for (unsigned k = 0; k < sh->cbuf_slots[buf] * 4; k++, s++)
         if (!bound[s]) {
            struct emu_binding b = {.kind = EMU_BIND_CONST,
                                    .chan = (uint8_t)(k % 4),
                                    .file = (uint8_t)cfile,
                                    .buffer = (uint8_t)buf,
                                    .tgsi_index = (uint16_t)(k / 4),
                                    .index = (uint16_t)s};
            emu_program_bind(p, &b);
         }
   free(bound);
}

static void
bindings(const struct ir_shader *sh, struct emu_program *p)
{
   for (unsigned i = 0; i < sh->nvalues; i++) {
      const struct ir_instr *in = sh->values[i];
      if (!in || in->removed)
         continue;
      switch (in->op) {
      case IR_OP_LOAD_INPUT:
         if (ir_has_reg(in)) {
            bind(p, in, EMU_BIND_INPUT, (unsigned)in->slot, (unsigned)in->comp, 0, 0);
            if (in->vtx != IR_NONE) /* a per-vertex input (GS, TCS, TES): IN[vtx][slot] */
               p->binds[p->nbinds - 1].vertex = (uint16_t)in->vtx;
         }
         break;
      case IR_OP_LOAD_SYSVAL:
         if (ir_has_reg(in))
            bind(p, in, EMU_BIND_SYSVAL, (unsigned)in->sv, (unsigned)in->comp, 0, 0);
         break;
      case IR_OP_LOAD_CONST:
         if (ir_has_reg(in) && in->buf >= IR_SIZE_BUF)
            bind(p, in, EMU_BIND_SIZE, (unsigned)in->slot, (unsigned)in->comp,
                 (unsigned)(in->buf - IR_SIZE_BUF), 0);
         else if (ir_has_reg(in))
            bind(p, in, EMU_BIND_CONST, (unsigned)in->slot, (unsigned)in->comp, (unsigned)in->buf,
                 0);
         break;
      case IR_OP_IMM:
         if (ir_has_reg(in))
            bind(p, in, EMU_BIND_VALUE, 0, 0, 0, (uint32_t)in->imm);
         break;
      case IR_OP_STORE_OUTPUT:
         if (ir_has_reg(in->src[0]))
            bind(p, in->src[0], EMU_BIND_OUTPUT, (unsigned)in->slot, (unsigned)in->comp, 0, 0);
         break;
      default:
         break;
      }
   }
}

static void
figures(const struct ir_shader *sh, const struct opt_layout *lo, struct compile_stats *st)
{
   const struct isa_model *m = sh->model;
   int rpt = isa_mod_by_role(m, ISA_ROLE_RPT), nop = isa_mod_by_role(m, ISA_ROLE_NOPS);
   int stall = isa_mod_by_role(m, ISA_ROLE_STALL);
   memset(st, 0, sizeof(*st));
   st->instructions = lo->n;
   for (unsigned i = 0; i < lo->n; i++) {
      const struct isa_insn *x = &lo->v[i].insn;
      if (x->sem == ISA_SEM_NOP)
         st->nops++;
      uint64_t c = 1;
      if (rpt >= 0)
         c += (uint64_t)x->mod[rpt];
      if (nop >= 0)
         c += (uint64_t)x->mod[nop];
      if (stall >= 0 && x->mod[stall] > 1)
         c = (uint64_t)x->mod[stall];
      st->cycles += c;
   }
   int gpr = -1;
   for (unsigned f = 0; f < isa_file_count(m) && gpr < 0; f++) {
      struct isa_file_info fi;
      isa_file_info(m, f, &fi);
      if (fi.kind == ISA_FILE_FULL)
         gpr = (int)f;
   }
   for (unsigned i = 0; i < sh->nvalues; i++) {
      const struct ir_instr *v = sh->values[i];
      if (v && !v->removed && ir_has_reg(v) && v->mach->reg.file == gpr)
         st->registers = MAX2(st->registers, (unsigned)v->mach->reg.index + v->mach->reg.count);
   }
}

/* Encodes the shader into p. With hazards (hazard insertion ran), the
 * control words of a stall-count model are computed from the final layout
 * (opt_hazard.c), the implied branches' included; without, every
 * instruction gets the shortest stall and no barrier, so that the emulator
 * shows what hazard insertion prevents. */
/* ------------------------------------------------------------------ */
/* Coverage: the ops, encodings and sync kinds of emitted programs        */

/* The sync kinds: a modifier role and what an instruction that uses it
 * shows (check --coverage). */
static const struct {
   enum isa_role role;
   const char *what;
} sync_kinds[] = {
    {ISA_ROLE_SS, "(ss)"},
    {ISA_ROLE_SY, "(sy)"},
    {ISA_ROLE_JP, "(jp)"},
    {ISA_ROLE_NOPS, "(nopN)"},
    {ISA_ROLE_RPT, "(rptN)"},
    {ISA_ROLE_STALL, "stall above 1"},
    {ISA_ROLE_WR_BAR, "write barrier"},
    {ISA_ROLE_RD_BAR, "read barrier"},
    {ISA_ROLE_WAIT_MASK, "scoreboard wait"},
    {ISA_ROLE_YIELD, "yield"},
    {ISA_ROLE_GUARD, "guard @P"},
    {ISA_ROLE_GUARD, "guard @!P"},
};

/* Whether x shows sync kind k. */
static bool
shows(const struct isa_model *m, const struct isa_insn *x, unsigned k)
{
   int mod = isa_mod_by_role(m, sync_kinds[k].role);
   if (mod < 0)
      return false;
   int v = x->mod[mod];
   switch (sync_kinds[k].role) {
   case ISA_ROLE_STALL:
      return v > 1;
   case ISA_ROLE_WR_BAR:
   case ISA_ROLE_RD_BAR:
   case ISA_ROLE_GUARD: {
      const char *n = isa_mod_value_name(m, (unsigned)mod, v);
      if (sync_kinds[k].role != ISA_ROLE_GUARD)
         return n && strcmp(n, "none");
      bool neg = !strcmp(sync_kinds[k].what, "guard @!P");
      return n && (neg ? n[0] == 'n' && n[1] == 'p' : n[0] == 'p' && n[1] != 't');
   }
   default:
      return v != 0;
   }
}

static void
cover_program(const struct isa_model *m, const struct isa_insn *x, unsigned n)
{
   const char *mn = isa_model_name(m);
   for (unsigned i = 0; i < n; i++) {
      struct isa_op_info oi;
      isa_op_info(m, x[i].op, &oi);
      cover_hit("isa-op", "%s: %s", mn, oi.name);
      cover_hit("encoding", "%s: %s", mn, isa_op_key(m, x[i].op));
      for (unsigned k = 0; k < ARRAY_SIZE(sync_kinds); k++)
         if (shows(m, &x[i], k))
            cover_hit("sync", "%s: %s", mn, sync_kinds[k].what);
   }
}

void
opt_emit_cover_declare(const struct isa_model *m)
{
   const char *mn = isa_model_name(m);
   char *t;
   for (unsigned o = 0; o < isa_op_count(m); o++) {
      struct isa_op_info oi;
      isa_op_info(m, o, &oi);
      cover_declare("isa-op", t = xasprintf("%s: %s", mn, oi.name));
      free(t);
      cover_declare("encoding", t = xasprintf("%s: %s", mn, isa_op_key(m, o)));
      free(t);
   }
   for (unsigned k = 0; k < ARRAY_SIZE(sync_kinds); k++)
      if (isa_mod_by_role(m, sync_kinds[k].role) >= 0) {
         cover_declare("sync", t = xasprintf("%s: %s", mn, sync_kinds[k].what));
         free(t);
      }
}

/* The control words of the layout: the hazard pass's, when it was the
 * last pass (the IR is the one it left, so the layout is its final one),
 * else computed here. They are a function of the layout, so the two
 * agree; builds with asserts compute them again and compare. With
 * coverage on they are computed again, as before, so the hazard rules'
 * counts stay what they were. */
static void
emit_controls(const struct ir_shader *sh, const struct opt_layout *lo, struct opt_control *ctl)
{
   const struct opt_ctx *ctx = sh->fault_ctx;
   if (!ctx || !ctx->controls || ctx->ncontrols != lo->n || cover_on) { /* rules counted again */
      opt_control_words(sh->model, lo, sh, ctl);
      return;
   }
   memcpy(ctl, ctx->controls, lo->n * sizeof(*ctl));
#ifndef NDEBUG
   struct opt_control *again = xcalloc(lo->n + 1, sizeof(*again));
   opt_control_words(sh->model, lo, sh, again);
   for (unsigned i = 0; i < lo->n; i++)
      assert(again[i].stall == ctl[i].stall && again[i].wait == ctl[i].wait &&
             again[i].wr_bar == ctl[i].wr_bar && again[i].rd_bar == ctl[i].rd_bar &&
             again[i].nops_before == ctl[i].nops_before);
   free(again);
#endif
}

bool
opt_emit(struct ir_shader *sh, bool hazards, struct emu_program *p, struct compile_stats *st,
         struct diag_list *d)
{
   struct opt_layout lo;
   opt_layout_build(sh, &lo);
   if (isa_hazard_kind(sh->model) == ISA_HAZARD_STALL_COUNTS) {
      struct opt_control *ctl = xcalloc(lo.n + 1, sizeof(*ctl));
      struct opt_control_fields cf;
      opt_control_fields(sh->model, &cf);
      if (hazards)
         emit_controls(sh, &lo, ctl);
      for (unsigned i = 0; i < lo.n; i++) {
         if (!hazards)
            ctl[i] =
                (struct opt_control){.stall = (unsigned)isa_hazard_param(sh->model, "min_stall", 1),
                                     .wr_bar = -1,
                                     .rd_bar = -1};
         opt_apply_control(&cf, &ctl[i], &lo.v[i].insn);
      }
      free(ctl);
   }
   struct pre_code pc = {0};
   finish_branches(sh, &lo, &pc);
   /* The records encoded before the offsets were written become the
    * program's: those finish_branches changed are copied over them and
    * marked, so no second copy of the program is made. */
   struct isa_insn *insns = pc.insns;
   bool *changed = NULL, same_ops = true;
   if (insns) {
      pc.insns = NULL;
      changed = xcalloc(lo.n + 1, sizeof(bool));
      for (unsigned i = 0; i < lo.n; i++)
         if (memcmp(&insns[i], &lo.v[i].insn, sizeof(insns[i]))) {
            same_ops &= insns[i].op == lo.v[i].insn.op; /* else the addresses would move */
            insns[i] = lo.v[i].insn;
            changed[i] = true;
         }
   } else {
      insns = xcalloc(lo.n + 1, sizeof(*insns));
      for (unsigned i = 0; i < lo.n; i++)
         insns[i] = lo.v[i].insn;
   }
   /* Encoding checks each instruction as isa_check_insn does (both are
    * isa_encode_bits), so a program that encodes needs no check of its
    * own; one that does not is checked instruction by instruction for the
    * error that names the value, as before, and the encoder's own error
    * (a control word, a padding slot) stands when every one passes. When
    * the branch offsets needed the program encoded, only the records they
    * changed are encoded again; any error there encodes the whole. */
   uint8_t *code = NULL;
   size_t size = 0;
   bool ok;
   if (pc.code && same_ops &&
       isa_encode_program_update(sh->model, insns, changed, lo.n, pc.code, pc.size, pc.addr) ==
           ISA_ERR_OK) {
      code = pc.code;
      size = pc.size;
      pc.code = NULL;
      ok = true;
   } else {
      ok = isa_encode_program(sh->model, insns, lo.n, &code, &size, NULL) == ISA_ERR_OK;
   }
   pre_code_free(&pc);
   free(changed);
   for (unsigned i = 0; !ok && i < lo.n; i++) {
      struct diag_list cd = {0};
      if (isa_check_insn(sh->model, &insns[i], &cd) != ISA_ERR_OK) {
         /* one error naming the value too: the check's signal is the
          * first line, and bisect reads the place from it */
         const struct ir_instr *in = lo.v[i].in;
         char *t = in ? ir_print_instr(in) : xstrdup("(implied branch)");
         char *at = in ? xasprintf("instruction %%%u", in->id) : xstrdup("an implied branch");
         const char *why = diag_first_error(&cd);
         ir_error(d, sh, in ? in->line : 0, "emit: %s not encodable (%.*s): %s", at,
                  (int)strcspn(t, "\n"), t, why ? why : "?");
         free(at);
         free(t);
         diag_clear(&cd);
         break;
      }
      diag_clear(&cd);
      if (i + 1 == lo.n) /* every instruction passes: the encoder's error */
         isa_encode_program(sh->model, insns, lo.n, &code, &size, d);
   }
   memset(p, 0, sizeof(*p));
   p->model = sh->model;
   p->stage = sh->stage;
   p->code = code;
   p->size = size;
   if (ok && cover_on)
      cover_program(sh->model, insns, lo.n);
   /* bisect names an instruction of the program by its value (issue 16) */
   for (unsigned i = 0; ok && sh->fault_ctx && sh->fault_ctx->opts.bisect && i < lo.n; i++)
      if (lo.v[i].in)
         opt_log(sh->fault_ctx, "SLOT: %u %%%u line %u\n", i, lo.v[i].in->id, lo.v[i].in->line);
   if (ok) {
      bindings(sh, p);
      bind_relative(sh, p);
      if (st)
         figures(sh, &lo, st);
   }
   free(insns);
   opt_layout_free(&lo);
   return ok;
}

/* ------------------------------------------------------------------ */
/* The pipeline                                                         */

/* the lowerings first (arrays: a no-op unless --passes skipped it; images
 * and atomics: memory as the model reaches it; jumps: the loop exits a
 * stack model takes; fp64: the double ops it has no instruction for), then
 * expand, then the generic passes once more over what they built (the
 * division expansions of udiv and umod of the same operands share their
 * work; constant operands fold; texel addresses of one image at the same
 * coordinates are one) */
static const char *const backend_passes[] = {
    "arrays", "images", "atomics", "jumps", "fp64", "expand",   "constfold", "cse",
    "dce",    "isel",   "sdwa",    "sched", "ra",   "legalize", "hazard"};

/* Whether the comma-separated list names the pass ("all" names every one). */
static bool
list_names(const char *list, const char *name, bool all)
{
   size_t n = strlen(name);
   for (const char *p = list; p && *p;) {
      size_t k = strcspn(p, ",");
      if ((k == n && !strncmp(p, name, n)) || (all && k == 3 && !strncmp(p, "all", 3)))
         return true;
      p += k + (p[k] == ',');
   }
   return false;
}

static bool
uses_backend_pass(const char *list)
{
   static const char *const target[] = {"atomics", "jumps", "fp64", "expand",   "isel",
                                        "sdwa",    "sched", "ra",   "legalize", "hazard"};
   for (unsigned i = 0; i < ARRAY_SIZE(target); i++)
      if (list_names(list, target[i], false))
         return true;
   return false;
}

static bool
names_required_pass(const char *list)
{
   static const char *const required[] = {"isel", "ra", "legalize"};
   for (unsigned i = 0; i < ARRAY_SIZE(required); i++)
      if (list_names(list, required[i], true))
         return true;
   return false;
}

static bool
run_backend(struct ir_shader *sh, struct opt_ctx *ctx)
{
   for (unsigned i = 0; i < ARRAY_SIZE(backend_passes) && !ctx->failed; i++)
      for (const struct opt_pass *p = opt_passes; p->name; p++)
         if (!strcmp(p->name, backend_passes[i]))
            opt_run_pass(sh, ctx, p);
   return opt_validate_rest(sh, ctx);
}

/* The declared constant buffers' sizes: indirect reads clamp to them. */
static void
declared_cbufs(const struct tgsi_shader *s, struct ir_shader *sh)
{
   for (unsigned i = 0; i < s->ndecls; i++) {
      const struct tgsi_decl *d = &s->decls[i];
      unsigned b = d->has_dim ? d->dim : 0;
      if (d->file == TGSI_FILE_CONST && b < IR_MAX_CBUFS)
         sh->cbuf_slots[b] = MAX2(sh->cbuf_slots[b], d->last + 1);
   }
}

static enum compile_status
failure(const struct diag_list *d)
{
   for (unsigned i = 0; i < d->n; i++)
      if (d->v[i].sev == DIAG_ERROR && !strncmp(d->v[i].msg, "unsupported", 11))
         return COMPILE_UNSUPPORTED;
   return COMPILE_ERROR;
}

/* What a compile that ran out of registers changes in the next one (see
 * opt_ctx.preds_in_gprs, opt_ctx.ind_loads). */
struct retry {
   bool preds_in_gprs, ind_loads;
};

/* One compile with the choices of *r; on a failure, *next says what the
 * next compile should change (next == *r: nothing helps). */
static bool
compile_once(const struct tgsi_shader *s, const struct isa_model *m, const struct opt_options *opts,
             const struct retry *r, struct emu_program *out, struct compile_stats *stats,
             char **log, struct diag_list *d, struct retry *next)
{
   struct opt_ctx ctx;
   opt_ctx_init(&ctx, opts, d);
   ctx.preds_in_gprs = r->preds_in_gprs;
   ctx.ind_loads = r->ind_loads;
   struct ir_shader *sh = ir_from_tgsi_ctx(s, &ctx, d);
   if (!sh) {
      opt_ctx_fini(&ctx);
      return false;
   }
   bool ok = opt_run(sh, &ctx);
   sh->model = m;
   declared_cbufs(s, sh);
   bool hazards = !list_names(opts->disable, "hazard", true);
   ok = ok && run_backend(sh, &ctx);
   ctx.pass = "emit"; /* its fault firings */
   ok = ok && opt_emit(sh, hazards, out, stats, d);
   if (ok && s->stage == TGSI_STAGE_GEOM) /* the shader header's limit, the interpreter's */
      out->gs_max_vertices = MIN2(1024u, tgsi_interp_prop(s, TGSI_PROP_GS_MAX_OUTPUT_VERTICES, 1));
   if (log) {
      free(*log);
      *log = ctx.log;
      ctx.log = NULL;
   }
   *next = *r;
   next->preds_in_gprs |= ctx.pred_full;
   next->ind_loads |= ctx.unif_full && ctx.ind_selects;
   opt_ctx_fini(&ctx);
   sh->model = NULL; /* not owned */
   ir_shader_free(sh);
   return ok;
}

/*
 * TGSI -> IR -> generic passes -> isel -> sched -> RA -> legalize ->
 * hazards -> encode. The pass manager validates after every pass in
 * validating builds (or with o->validate) and counts every transformation
 * for --opt-bisect-limit. --passes chooses the generic passes only; the
 * backend passes always run, in this order (sched and hazard may be
 * disabled: without hazard insertion the emulator reports the hazards).
 */
enum compile_status
opt_compile(const struct tgsi_shader *s, const struct isa_model *m, const struct opt_options *o,
            struct emu_program *out, struct compile_stats *stats, char **log, struct diag_list *d)
{
   memset(out, 0, sizeof(*out));
   if (log)
      *log = NULL;
   struct opt_options opts = {.bisect_limit = -1};
   if (o)
      opts = *o;
   if (uses_backend_pass(opts.passes) || names_required_pass(opts.disable)) {
      diag_add(d, DIAG_ERROR, "options", 0, 0, NULL,
               "isel, ra and legalize always run; --passes names generic passes only");
      return COMPILE_ERROR;
   }
   /* fuse_ffma permits ffma; a model without it keeps the exact fmad */
   if (opt_op_by_sem(m, ISA_SEM_FFMA) < 0)
      opts.fuse_ffma = false;
   opts.trig_unfolded = opt_op_by_sem(m, ISA_SEM_SIN) < 0 || opt_op_by_sem(m, ISA_SEM_COS) < 0;
   /* the subgroup is the wave where the model has subgroups (diff_subgroup_size) */
   opts.subgroup_size =
       isa_has_feature(m, ISA_FEATURE_SUBGROUP) && emu_wave_size(m) == 64 ? 64 : 32;
   if (opt_agx_model(m)) /* execution-mask models: machine passes on the reference's code */
      return opt_agx_compile(s, m, &opts, out, stats, log, d);
   /* A shader whose compares outlive the predicate file is compiled once
    * more with those compares held in general registers (opt_isel.c), one
    * whose indirect-constant selects overflow the uniform file with those
    * reads loaded from memory (opt_isel_mem.c); each change once. */
   unsigned ndiags = d ? d->n : 0;
   bool ok = false;
   struct retry r = {0}, next = {0};
   for (int attempt = 0; attempt < 3 && !ok; attempt++) {
      if (attempt) {
         if (next.preds_in_gprs == r.preds_in_gprs && next.ind_loads == r.ind_loads)
            break;
         r = next;
         if (d)
            diag_truncate(d, ndiags);
         emu_program_free(out);
         memset(out, 0, sizeof(*out));
         if (stats)
            memset(stats, 0, sizeof(*stats));
      }
      ok = compile_once(s, m, &opts, &r, out, stats, log, d, &next);
   }
   if (!ok) {
      emu_program_free(out);
      return failure(d);
   }
   return COMPILE_OK;
}
