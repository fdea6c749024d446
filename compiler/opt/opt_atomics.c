/*
 * Atomics the model has no instruction for become compare-and-swap loops,
 * and the atomic forms of a model are described here for instruction
 * selection (opt_isel_mem.c).
 *
 * What a model has: the op of semantics atom (buffers) or atoms (shared
 * memory) with the operation in its atom_op modifier and the data type in
 * an enum modifier of the op (a3xx type, sm50 ATOM atype, ATOMS stype);
 * compare-and-swap is an op of its own (sm50 ATOM.CAS, semantics
 * atom_cas/atoms_cas) or the cmpxchg operation (a3xx). A float add needs
 * an f32 data type in a field of the atomic's own: a3xx's atomics take the
 * general cat6 type field, whose f32 a3xx.yaml documents as no atomic
 * type ("No float atomic add on a3xx"), so there it is a loop, as in the
 * reference compiler; sm50 ATOMS (no f32 in stype) loops too.
 *
 * The loop, for `%r = atomic OP addr, v` in block B:
 *
 *   B:   ...; %old0 = load addr
 *   loop {
 *     H: %old = phi @B %old0, @E %prev
 *        %new = OP(%old, v)
 *        %prev = atomic cas addr, %old, %new
 *        if (%prev == %old) { break }      (the lanes whose swap was done)
 *     E:
 *   }
 *   B2: the rest of B, with %r replaced by %old
 *
 * Every pass lets the lowest waiting lane through (the lanes' swaps run in
 * lane order), so the updates happen in lane order, as the interpreter
 * does them, and each lane gets the word from before its own update; the
 * swap compares bits, so a float add of a NaN word still terminates.
 * A required lowering, not an optional improvement: no bisect counting.
 */
#include "compiler/ir/ir.h"

#include <stdio.h>
#include <stdlib.h>

/* The atom_op value name and data type of an IR operation on model m
 * (xchg is sm50's exch). */
void
opt_atomic_form(const struct isa_model *m, enum ir_aop aop, const char **name, const char **type)
{
   static const struct {
      enum ir_aop aop;
      const char *name, *type;
   } forms[] = {
       {IR_AOP_add, "add", "u32"},      {IR_AOP_xchg, "xchg", "u32"},
       {IR_AOP_cas, "cmpxchg", "u32"},  {IR_AOP_and, "and", "u32"},
       {IR_AOP_or, "or", "u32"},        {IR_AOP_xor, "xor", "u32"},
       {IR_AOP_umin, "min", "u32"},     {IR_AOP_umax, "max", "u32"},
       {IR_AOP_imin, "min", "s32"},     {IR_AOP_imax, "max", "s32"},
       {IR_AOP_fadd, "add", "f32"},     {IR_AOP_inc_wrap, "inc", "u32"},
       {IR_AOP_dec_wrap, "dec", "u32"},
   };
   *name = *type = NULL;
   for (unsigned i = 0; i < ARRAY_SIZE(forms); i++)
      if (forms[i].aop == aop) {
         *name = forms[i].name;
         *type = forms[i].type;
      }
   int mod = isa_mod_by_role(m, ISA_ROLE_ATOM_OP);
   if (aop == IR_AOP_xchg && mod >= 0 && isa_mod_value(m, (unsigned)mod, "xchg") < 0)
      *name = "exch";
}

/* Does op accept modifier mod = value at all? */
static bool
op_takes(const struct isa_model *m, unsigned op, int mod, int value)
{
   if (mod < 0 || value < 0)
      return false;
   struct isa_insn t;
   isa_insn_init(m, op, &t);
   t.mod[mod] = (int16_t)value;
   return isa_check_insn(m, &t, NULL) != ISA_ERR_MODIFIER;
}

/* Does op have a field for modifier mod? (a modifier an op lacks is
 * accepted at its default value, so a value other than the default is
 * tried) */
static bool
op_has_field(const struct isa_model *m, unsigned op, unsigned mod)
{
   struct isa_insn t;
   isa_insn_init(m, op, &t);
   for (int v = 0; v < 64; v++)
      if (v != t.mod[mod] && isa_mod_value_name(m, mod, v)) {
         t.mod[mod] = (int16_t)v;
         return isa_check_insn(m, &t, NULL) != ISA_ERR_MODIFIER;
      }
   return false;
}

int
opt_atomic_type_mod(const struct isa_model *m, unsigned op, const char *type)
{
   int general = isa_mod_by_role(m, ISA_ROLE_TYPE);
   for (unsigned mod = 0; mod < isa_mod_count(m); mod++) {
      if (isa_mod_value(m, mod, type) < 0 || isa_mod_by_role(m, ISA_ROLE_SRC_TYPE) == (int)mod ||
          isa_mod_by_role(m, ISA_ROLE_DST_TYPE) == (int)mod)
         continue;
      if (!strcmp(type, "f32") && (int)mod == general)
         continue; /* see the top of the file */
      if (op_has_field(m, op, mod))
         return (int)mod;
   }
   return -1;
}

/* Models whose atomic ops each fix their operation (gfx9: the opcode is
 * the operation, opt_isel_mem.c word_op): an op of the space's semantics
 * whose own atom_op is name, on data of the type (f32 only where the op's
 * data is f32: gfx900's global_atomic_add is an integer add). */
static bool
fixed_op(const struct isa_model *m, bool shared, const char *name, const char *type)
{
   unsigned n;
   const uint16_t *ops = isa_ops_by_sem(m, shared ? ISA_SEM_ATOMS : ISA_SEM_ATOM, &n);
   for (unsigned i = 0; i < n; i++) {
      struct isa_insn t;
      isa_insn_init(m, ops[i], &t);
      int mod = isa_insn_mod_by_role(m, &t, ISA_ROLE_ATOM_OP);
      const char *v = mod >= 0 ? isa_mod_value_name(m, (unsigned)mod, t.mod[mod]) : NULL;
      struct isa_slot_info si;
      if (!v || strcmp(v, name) || !isa_slot_info(m, ops[i], false, 1, &si))
         continue;
      if ((si.type == ISA_TYPE_F32) == !strcmp(type, "f32"))
         return true;
   }
   return false;
}

bool
opt_atomic_native(const struct isa_model *m, enum ir_space space, enum ir_aop aop)
{
   bool shared = space == IR_SPACE_shared;
   if (aop == IR_AOP_cas && opt_op_by_sem(m, shared ? ISA_SEM_ATOMS_CAS : ISA_SEM_ATOM_CAS) >= 0)
      return true;
   int op = opt_op_by_sem(m, shared ? ISA_SEM_ATOMS : ISA_SEM_ATOM);
   int mod = isa_mod_by_role(m, ISA_ROLE_ATOM_OP);
   if (op < 0 || mod < 0 || space == IR_SPACE_image)
      return false;
   const char *name, *type;
   opt_atomic_form(m, aop, &name, &type);
   if (name && op_takes(m, (unsigned)op, mod, isa_mod_value(m, (unsigned)mod, name)) &&
       opt_atomic_type_mod(m, (unsigned)op, type) >= 0)
      return true;
   if (!name)
      return false;
   char signed_name[16]; /* gfx9 spells min and max umin, smin, umax, smax */
   snprintf(signed_name, sizeof(signed_name), "%c%s", type[0] == 's' ? 's' : 'u', name);
   return fixed_op(m, shared, name, type) ||
          ((aop == IR_AOP_umin || aop == IR_AOP_umax || aop == IR_AOP_imin || aop == IR_AOP_imax) &&
           fixed_op(m, shared, signed_name, type));
}

/* ------------------------------------------------------------------ */
/* The loop                                                             */

/* The word an operation leaves given the old word and the operand
 * (env_mem_atomic's rules); NULL for compare-and-swap. */
static struct ir_instr *
new_word(struct ir_shader *sh, struct ir_instr *pos, enum ir_aop aop, struct ir_instr *old,
         struct ir_instr *v)
{
   static const struct {
      enum ir_aop aop;
      enum ir_op op;
   } direct[] = {
       {IR_AOP_add, IR_OP_IADD},  {IR_AOP_and, IR_OP_IAND},  {IR_AOP_or, IR_OP_IOR},
       {IR_AOP_xor, IR_OP_IXOR},  {IR_AOP_umin, IR_OP_UMIN}, {IR_AOP_umax, IR_OP_UMAX},
       {IR_AOP_imin, IR_OP_IMIN}, {IR_AOP_imax, IR_OP_IMAX}, {IR_AOP_fadd, IR_OP_FADD},
   };
   for (unsigned i = 0; i < ARRAY_SIZE(direct); i++)
      if (direct[i].aop == aop)
         return opt_build2_before(sh, pos, direct[i].op, old, v);
   struct ir_instr *one = opt_imm_before(sh, pos, 1), *zero = opt_imm_before(sh, pos, 0);
   struct ir_instr *c, *s[3];
   switch (aop) {
   case IR_AOP_xchg:
      return v;
   case IR_AOP_inc_wrap: /* old >= v ? 0 : old + 1 */
      c = opt_build2_before(sh, pos, IR_OP_UGE, old, v);
      s[0] = c;
      s[1] = zero;
      s[2] = opt_build2_before(sh, pos, IR_OP_IADD, old, one);
      return opt_build_before(sh, pos, IR_OP_BCSEL, 3, s);
   case IR_AOP_dec_wrap: /* old == 0 || old > v ? v : old - 1 */
      c = opt_build2_before(sh, pos, IR_OP_IEQ, old, zero);
      c = opt_build2_before(sh, pos, IR_OP_IOR, c, opt_build2_before(sh, pos, IR_OP_ULT, v, old));
      s[0] = c;
      s[1] = v;
      s[2] = opt_build2_before(sh, pos, IR_OP_ISUB, old, one);
      return opt_build_before(sh, pos, IR_OP_BCSEL, 3, s);
   default:
      return NULL;
   }
}

/* Inserts node n into list l at index i. */
static void
list_insert(struct ir_list *l, unsigned i, struct ir_node *n, struct ir_node *parent)
{
   ir_list_append(l, n, parent);
   memmove(&l->v[i + 1], &l->v[i], (l->n - 1 - i) * sizeof(*l->v));
   l->v[i] = n;
}

static struct ir_node *
block_node(struct ir_shader *sh, struct ir_list *l, struct ir_node *parent)
{
   struct ir_node *n = ir_node_block(sh);
   ir_list_append(l, n, parent);
   return n;
}

/* Moves the instructions after `at` into block to. */
static void
move_rest(struct ir_instr *at, struct ir_block *to)
{
   for (struct ir_instr *in = at->next, *next; in; in = next) {
      next = in->next;
      ir_instr_remove(in);
      in->removed = false;
      ir_block_append(to, in);
   }
}

/* Phis naming predecessor `from` name `to` (the end of a split block). */
static void
rename_pred(struct ir_shader *sh, struct ir_block *from, struct ir_block *to)
{
   for (unsigned i = 0; i < sh->nvalues; i++) {
      struct ir_instr *p = sh->values[i];
      if (p && !p->removed && p->op == IR_OP_PHI)
         for (unsigned k = 0; k < p->nsrc; k++)
            if (p->pred[k] == from)
               p->pred[k] = to;
   }
}

static void
cas_loop(struct ir_shader *sh, struct ir_instr *a)
{
   struct ir_block *b = a->block;
   struct ir_node *nb = b->node;
   struct ir_list *l = nb->list;
   unsigned at = 0;
   while (l->v[at] != nb)
      at++;
   /* B2 takes the rest of B and B's place as a predecessor */
   struct ir_node *n2 = ir_node_block(sh);
   list_insert(l, at + 1, n2, nb->parent);
   move_rest(a, n2->block);
   rename_pred(sh, b, n2->block);
   /* the first read, in B */
   struct ir_instr *addr = a->src[0], *v = a->src[1];
   struct ir_instr *old0 = opt_build_before(
       sh, a, a->space == IR_SPACE_shared ? IR_OP_LOAD_SHARED : IR_OP_LOAD_BUFFER, 1, &addr);
   old0->res = a->res;
   /* the loop */
   struct ir_node *loop = ir_node_loop();
   list_insert(l, at + 1, loop, nb->parent);
   struct ir_node *nh = block_node(sh, &loop->body, loop);
   struct ir_block *h = nh->block;
   struct ir_instr *old = ir_instr_create(sh, IR_OP_PHI, 2);
   old->type = IR_TYPE_32;
   old->flags = a->flags;
   ir_block_append(h, old);
   struct ir_instr *mark = ir_instr_create(sh, IR_OP_IMM, 0); /* a position in H */
   mark->type = IR_TYPE_32;
   mark->flags = a->flags; /* what is built before it takes these */
   mark->line = a->line;
   ir_block_append(h, mark);
   struct ir_instr *nw = new_word(sh, mark, (enum ir_aop)a->aop, old, v);
   struct ir_instr *cs[3] = {addr, old, nw};
   struct ir_instr *prev = opt_build_before(sh, mark, IR_OP_ATOMIC, 3, cs);
   ir_instr_copy_fields(prev, a);
   prev->aop = IR_AOP_cas;
   struct ir_instr *hit = opt_build2_before(sh, mark, IR_OP_IEQ, prev, old);
   ir_instr_remove(mark);
   struct ir_node *nif = ir_node_if(hit);
   ir_list_append(&loop->body, nif, loop);
   struct ir_node *nt = block_node(sh, &nif->then_list, nif);
   ir_block_append(nt->block, ir_instr_create(sh, IR_OP_BREAK, 0));
   block_node(sh, &nif->else_list, nif);
   struct ir_node *ne = block_node(sh, &loop->body, loop);
   ir_set_src(old, 0, old0);
   old->pred[0] = b;
   ir_set_src(old, 1, prev);
   old->pred[1] = ne->block;
   opt_replace(sh, a, old);
}

bool
opt_atomics(struct ir_shader *sh, struct opt_ctx *ctx)
{
   (void)ctx;
   if (!sh->model)
      return false;
   bool progress = false;
   struct ir_instr **order;
   unsigned n = ir_program_order(sh, &order);
   for (unsigned i = 0; i < n; i++) {
      struct ir_instr *a = order[i];
      if (a->op != IR_OP_ATOMIC || a->space == IR_SPACE_image || a->aop == IR_AOP_cas ||
          opt_atomic_native(sh->model, (enum ir_space)a->space, (enum ir_aop)a->aop) ||
          !opt_atomic_native(sh->model, (enum ir_space)a->space, IR_AOP_cas))
         continue;
      cas_loop(sh, a);
      progress = true;
   }
   free(order);
   if (progress)
      sh->cfg_valid = false;
   return progress;
}
