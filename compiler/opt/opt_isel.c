/*
 * Instruction selection: generic IR -> mach instructions of sh->model.
 *
 * Ops are found by their semantics (isa_sem) in the model, never by name
 * or opcode: fadd selects the op whose `sem` is fadd. Where the model has
 * no op for an IR op, the expansion the target needs is built from ops it
 * has (a3xx: 32-bit integer multiply from mull.u + madsh.m16, fdiv as a
 * multiply by rcp, compares giving 1/0 turned into IR booleans 0/~0); what
 * neither exists nor expands is refused with an "unsupported:" error
 * naming the IR op and its TGSI line.
 *
 * Order of work:
 *   1. inputs and system values move to the entry block (they are bound
 *      to registers before the first instruction);
 *   2. every if and kill_if gets a predicate-file value: the compare itself
 *      when the condition is a compare, else "!= 0", built at the end of
 *      the block before the if (or right before the kill);
 *   3. every remaining generic instruction is selected in program order;
 *      immediates and constants stay values (legalize decides inline,
 *      constant file or register), texture results become V4 values whose
 *      extracts follow them directly, and `mach end` closes the program;
 *   4. optional improvements, each an opt_transform: a negate or absolute
 *      value folded into a source modifier, a saturation folded into its
 *      producer, a compare left as 1/0 when only select conditions read it;
 *   5. dead selected instructions go, and operands are made encodable with
 *      the legalizer's rules (opt_legalize_operands), so that the copies
 *      needing registers exist before register allocation.
 */
#include "compiler/opt/opt_isel.h"
#include "emu/emu.h"
#include "isa/sem.h"

#include <stdlib.h>

bool
isel_unsupported(struct isel *s, const struct ir_instr *in, const char *what)
{
   if (!s->ctx->failed)
      ir_error(s->ctx->diags, s->sh, in->line, "unsupported: %s (%s) on %s, TGSI line %u",
               ir_op_info[in->op].name, what, isa_model_name(s->m), in->line);
   s->ctx->failed = true;
   return false;
}

/* ------------------------------------------------------------------ */
/* Building                                                             */

/* A mach instruction of semantics sem reading srcs (one value per source
 * operand, in order) before pos, with pos's flags and line; NULL with an
 * unsupported error when the model has no such op. */
struct ir_instr *
isel_build(struct isel *s, struct ir_instr *pos, enum isa_sem sem, struct ir_instr *const *srcs,
           unsigned n)
{
   if (s->op[sem] < 0) {
      isel_unsupported(s, pos, isa_sem_name(sem));
      return NULL;
   }
   struct ir_instr *in = ir_mach_create(s->sh, (unsigned)s->op[sem]);
   for (unsigned k = 0; k < n && k < in->mach->insn.nsrc; k++)
      ir_mach_set_src(in, k, &srcs[k], 1);
   in->flags = pos->flags;
   in->line = pos->line;
   ir_insert_before(pos, in);
   return in;
}

struct ir_instr *
isel_build1(struct isel *s, struct ir_instr *pos, enum isa_sem sem, struct ir_instr *a)
{
   return isel_build(s, pos, sem, &a, 1);
}

struct ir_instr *
isel_build2(struct isel *s, struct ir_instr *pos, enum isa_sem sem, struct ir_instr *a,
            struct ir_instr *b)
{
   struct ir_instr *v[2] = {a, b};
   return isel_build(s, pos, sem, v, 2);
}

struct ir_instr *
isel_build3(struct isel *s, struct ir_instr *pos, enum isa_sem sem, struct ir_instr *a,
            struct ir_instr *b, struct ir_instr *c)
{
   struct ir_instr *v[3] = {a, b, c};
   return isel_build(s, pos, sem, v, 3);
}

struct ir_instr *
isel_imm(struct isel *s, struct ir_instr *pos, uint32_t bits)
{
   return opt_imm_before(s->sh, pos, bits);
}

/* Does the op have modifier mod at all? (the encoder refuses a modifier
 * an op lacks before it looks at the operands) */
static bool
op_has_mod(const struct isa_model *m, unsigned op, int mod, int value)
{
   if (mod < 0)
      return false;
   struct isa_insn t;
   isa_insn_init(m, op, &t);
   t.mod[mod] = (int16_t)value;
   return isa_check_insn(m, &t, NULL) != ISA_ERR_MODIFIER;
}

/* Sets an enum modifier by value name, if the op has it. */
void
isel_set_mod(struct isel *s, struct ir_instr *in, int mod, const char *value)
{
   if (!in || mod < 0)
      return;
   int v = isa_mod_value(s->m, (unsigned)mod, value);
   if (v >= 0 && op_has_mod(s->m, in->mach->insn.op, mod, v))
      in->mach->insn.mod[mod] = (int16_t)v;
}

/* Sets a flag or int modifier, if the op has it. */
void
isel_set_flag_mod(struct isel *s, struct ir_instr *in, int mod, int v)
{
   if (in && mod >= 0 && op_has_mod(s->m, in->mach->insn.op, mod, v))
      in->mach->insn.mod[mod] = (int16_t)v;
}

struct ir_instr *
isel_flag(struct ir_instr *in, unsigned k, unsigned f)
{
   if (in)
      in->mach->insn.src[k].flags |= (uint8_t)f;
   return in;
}

/* Float or integer negate / absolute value of a (sems fabsneg, iabsneg). */
static struct ir_instr *
absneg(struct isel *s, struct ir_instr *pos, enum isa_sem sem, struct ir_instr *a, unsigned f)
{
   return isel_flag(isel_build1(s, pos, sem, a), 0, f);
}

struct ir_instr *
isel_cov(struct isel *s, struct ir_instr *pos, struct ir_instr *a, const char *from, const char *to)
{
   struct ir_instr *c = isel_build1(s, pos, ISA_SEM_COV, a);
   isel_set_mod(s, c, s->mod_src_type, from);
   isel_set_mod(s, c, s->mod_dst_type, to);
   return c;
}

/* ------------------------------------------------------------------ */
/* Uses                                                                 */

static void
count_list_conds(struct isel *s, const struct ir_list *l)
{
   for (unsigned i = 0; i < l->n; i++) {
      const struct ir_node *n = l->v[i];
      if (n->kind == IR_NODE_IF)
         s->uses[n->cond->id]++;
      count_list_conds(s, &n->then_list);
      count_list_conds(s, &n->else_list);
      count_list_conds(s, &n->body);
   }
}

static void
count_uses(struct isel *s)
{
   struct ir_shader *sh = s->sh;
   free(s->uses);
   free(s->sel_uses);
   s->uses = xcalloc(sh->nvalues + 1, sizeof(unsigned));
   s->sel_uses = xcalloc(sh->nvalues + 1, sizeof(unsigned));
   for (unsigned i = 0; i < sh->nvalues; i++) {
      struct ir_instr *in = sh->values[i];
      if (!in || in->removed)
         continue;
      for (unsigned k = 0; k < in->nsrc; k++) {
         s->uses[in->src[k]->id]++;
         if (in->op == IR_OP_BCSEL && k == 0)
            s->sel_uses[in->src[k]->id]++;
      }
   }
   count_list_conds(s, &sh->body);
}

/* ------------------------------------------------------------------ */
/* 1 and 2: inputs, predicates                                          */

/* A model without a constant file (gfx9) has the constants bound to
 * uniform registers before the first instruction (user SGPRs): they are
 * inputs of the wave, one register each, placed by RA. */
static bool
const_in_regs(const struct isel *s, const struct ir_instr *in)
{
   return in->op == IR_OP_LOAD_CONST && s->cnst < 0 && s->unif >= 0;
}

static void
hoist_inputs(struct isel *s)
{
   struct ir_block *entry = ir_list_first_block(&s->sh->body);
   struct ir_instr **order;
   unsigned n = ir_program_order(s->sh, &order);
   struct ir_instr *after = NULL;
   for (unsigned i = 0; i < n; i++) {
      struct ir_instr *in = order[i];
      if (in->op != IR_OP_LOAD_INPUT && in->op != IR_OP_LOAD_SYSVAL && !const_in_regs(s, in))
         continue;
      if (const_in_regs(s, in))
         ir_mach_get(s->m, in)->reg = (struct ir_reg){(int16_t)s->unif, 0, 0};
      if (in->prev == after && in->block == entry) {
         after = in;
         continue;
      }
      ir_instr_remove(in);
      in->removed = false;
      if (after)
         ir_insert_after(after, in);
      else
         ir_block_prepend(entry, in);
      after = in;
   }
   free(order);
}

void
isel_bind_const(struct isel *s, struct ir_instr *v)
{
   if (!const_in_regs(s, v))
      return;
   ir_mach_get(s->m, v)->reg = (struct ir_reg){(int16_t)s->unif, 0, 0};
   ir_instr_remove(v);
   v->removed = false;
   ir_block_prepend(ir_list_first_block(&s->sh->body), v);
}

static bool
is_compare(const struct ir_instr *v)
{
   switch (v->op) {
   case IR_OP_FEQ:
   case IR_OP_FNE:
   case IR_OP_FLT:
   case IR_OP_FGE:
   case IR_OP_IEQ:
   case IR_OP_INE:
   case IR_OP_ILT:
   case IR_OP_IGE:
   case IR_OP_ULT:
   case IR_OP_UGE:
      return true;
   default:
      return false;
   }
}

static enum isa_sem
compare_sem(enum ir_op op, const char **cond)
{
   static const struct {
      enum ir_op op;
      enum isa_sem sem;
      const char *cond;
   } t[] = {
       {IR_OP_FEQ, ISA_SEM_FCMP, "eq"}, {IR_OP_FNE, ISA_SEM_FCMP, "ne"},
       {IR_OP_FLT, ISA_SEM_FCMP, "lt"}, {IR_OP_FGE, ISA_SEM_FCMP, "ge"},
       {IR_OP_SEQ, ISA_SEM_FCMP, "eq"}, {IR_OP_SNE, ISA_SEM_FCMP, "ne"},
       {IR_OP_SLT, ISA_SEM_FCMP, "lt"}, {IR_OP_SGE, ISA_SEM_FCMP, "ge"},
       {IR_OP_IEQ, ISA_SEM_UCMP, "eq"}, {IR_OP_INE, ISA_SEM_UCMP, "ne"},
       {IR_OP_ILT, ISA_SEM_SCMP, "lt"}, {IR_OP_IGE, ISA_SEM_SCMP, "ge"},
       {IR_OP_ULT, ISA_SEM_UCMP, "lt"}, {IR_OP_UGE, ISA_SEM_UCMP, "ge"},
   };
   for (unsigned i = 0; i < ARRAY_SIZE(t); i++)
      if (t[i].op == op) {
         *cond = t[i].cond;
         return t[i].sem;
      }
   return ISA_SEM_NOP;
}

/* The 1/0 compare of generic compare `c` before pos. */
static struct ir_instr *
in_pred_file(struct isel *s, struct ir_instr *in)
{
   if (in)
      ir_mach_get(s->m, in)->reg = (struct ir_reg){(int16_t)s->pred, 0, 0};
   return in;
}

/* gfx9: each condition is an op of its own (the condition is part of the
 * opcode): in becomes the op of its form whose fixed condition is cond
 * ("ne" is "neu" for floats: the semantics' unordered not-equal). */
static void
retarget_cond(struct isel *s, struct ir_instr *in, int mod, const char *cond)
{
   int v = isa_mod_value(s->m, (unsigned)mod, cond);
   if (v < 0 && !strcmp(cond, "ne"))
      v = isa_mod_value(s->m, (unsigned)mod, "neu");
   struct isa_insn *x = &in->mach->insn;
   if (v < 0 || x->mod[mod] == v)
      return;
   unsigned n;
   const uint16_t *ops = isa_ops_by_sem(s->m, (enum isa_sem)x->sem, &n);
   for (unsigned i = 0; i < n; i++) {
      unsigned o = ops[i];
      struct isa_insn t;
      isa_insn_init(s->m, o, &t);
      if (t.ndst != x->ndst || t.nsrc != x->nsrc || t.size != x->size || t.mod[mod] != v)
         continue;
      bool same = true;
      for (int k = 0; k < x->nsrc + x->ndst && same; k++) {
         int sl = k < x->ndst ? ISA_SLOT_DST(k) : ISA_SLOT_SRC(k - x->ndst);
         unsigned w1, w2;
         same = sem_slot_type(s->m, x, sl, &w1) == sem_slot_type(s->m, &t, sl, &w2) && w1 == w2;
      }
      for (int r = ISA_ROLE_SRC0_SEL; r <= ISA_ROLE_SRC0_SEL && same; r++) {
         int md = isa_mod_by_role(s->m, (enum isa_role)r);
         same = md < 0 || op_has_mod(s->m, o, md, 0) == op_has_mod(s->m, x->op, md, 0);
      }
      if (!same)
         continue;
      x->op = t.op;
      x->cls = t.cls;
      x->mod[mod] = (int16_t)v;
      return;
   }
}

/* A lane mask (gfx9: a compare's result, an SGPR pair per wave). */
struct ir_instr *
isel_in_mask_file(struct isel *s, struct ir_instr *in)
{
   if (in)
      ir_mach_get(s->m, in)->reg = (struct ir_reg){(int16_t)s->unif, 0, 0};
   return in;
}

static bool
is_lanemask(const struct isel *s, const struct ir_instr *v)
{
   return s->lanemask && v->op == IR_OP_MACH && ir_reg_file(v) == s->unif &&
          (v->mach->insn.sem == ISA_SEM_FCMP || v->mach->insn.sem == ISA_SEM_UCMP ||
           v->mach->insn.sem == ISA_SEM_SCMP);
}

/* The op's compare condition: its flip modifier (cmps.f cond, ISETP icmp),
 * or the cond role. */
void
isel_set_cond(struct isel *s, struct ir_instr *in, const char *cond)
{
   if (!in)
      return;
   struct isa_op_info oi;
   isa_op_info(s->m, in->mach->insn.op, &oi);
   int mod = oi.flip_mod >= 0 ? oi.flip_mod : s->mod_cond;
   isel_set_mod(s, in, mod, cond);
   if (mod >= 0 && s->lanemask)
      retarget_cond(s, in, mod, cond);
}

/* What a compare must give. */
enum want {
   WANT_PRED,  /* a predicate-file value */
   WANT_TEST,  /* anything a select tests: 1/0 (a3xx) or a predicate (sm50) */
   WANT_MASK,  /* the IR boolean 0/~0 */
   WANT_FLOAT, /* 1.0/0.0 (seq, sne, slt, sge) */
};

/* A compare writing a predicate: FSETP/ISETP p, a, b, PT (p = cmp AND true;
 * the second result goes to PT). */
struct ir_instr *
isel_setp(struct isel *s, struct ir_instr *pos, enum isa_sem sem, struct ir_instr *a,
          struct ir_instr *b, const char *cond, const char *sign)
{
   struct ir_instr *v[2] = {a, b};
   struct ir_instr *r = isel_build(s, pos, sem, v, 2);
   if (!r)
      return NULL;
   ir_mach_set_fixed_reg(r, 2, (unsigned)s->pred, (unsigned)s->true_reg, 0);
   r->mach->insn.dst[1] = (struct isa_opnd){
       .kind = ISA_OPND_REG, .file = (uint8_t)s->pred, .index = (uint16_t)s->true_reg};
   isel_set_cond(s, r, cond);
   if (sign)
      isel_set_mod(s, r, s->mod_type, sign);
   return in_pred_file(s, r);
}

/* sel-style 0/~0 from predicate p: SEL(RZ, !p, ~0). */
struct ir_instr *
isel_mask_of_pred(struct isel *s, struct ir_instr *pos, struct ir_instr *p)
{
   struct ir_instr *r = ir_mach_create(s->sh, (unsigned)s->op[ISA_SEM_SEL]);
   ir_mach_set_fixed_reg(r, 0, (unsigned)s->gpr, (unsigned)s->zero_reg, 0);
   ir_mach_set_src(r, 1, &p, 1);
   r->mach->insn.src[1].flags = ISA_OPND_F_NOT;
   struct ir_instr *ones = isel_imm(s, pos, ~0u);
   ir_mach_set_src(r, 2, &ones, 1);
   r->flags = pos->flags;
   r->line = pos->line;
   ir_insert_before(pos, r);
   return r;
}

/* p when v is isel_mask_of_pred(p), else NULL. */
static struct ir_instr *
pred_of_mask(const struct isel *s, struct ir_instr *v)
{
   if (v->op != IR_OP_MACH || s->op[ISA_SEM_SEL] < 0 ||
       v->mach->insn.op != (unsigned)s->op[ISA_SEM_SEL] || v->mach->count[0] ||
       v->mach->count[1] != 1 || v->mach->count[2] != 1 || v->mach->guard != IR_MACH_FIXED ||
       v->mach->insn.src[0].kind != ISA_OPND_REG ||
       v->mach->insn.src[0].index != (unsigned)s->zero_reg ||
       v->mach->insn.src[1].flags != ISA_OPND_F_NOT)
      return NULL;
   struct ir_instr *p = v->src[v->mach->first[1]], *ones = v->src[v->mach->first[2]];
   return ir_reg_file(p) == s->pred && ones->op == IR_OP_IMM && (uint32_t)ones->imm == ~0u ? p
                                                                                           : NULL;
}

/* Generic compare c (feq .. uge, seq .. sge) as `want`, before pos. */
static struct ir_instr *
compare_as(struct isel *s, struct ir_instr *pos, struct ir_instr *c, enum want want)
{
   const char *cond = NULL;
   enum isa_sem sem = compare_sem(c->op, &cond);
   struct ir_instr *a = c->src[0], *b = c->src[1];
   if (s->lanemask) { /* gfx9: a lane mask; values through v_cndmask */
      struct ir_instr *r = isel_in_mask_file(s, isel_build2(s, pos, sem, a, b));
      isel_set_cond(s, r, cond);
      if (!r || want == WANT_TEST || want == WANT_PRED) /* an if's mask: EXEC &= it */
         return r;
      bool f = want == WANT_FLOAT;
      struct ir_instr *if_false = isel_imm(s, pos, 0);
      struct ir_instr *if_true = isel_imm(s, pos, f ? 0x3f800000u : ~0u);
      return isel_build3(s, pos, ISA_SEM_SEL, if_true, r, if_false);
   }
   if (!s->setp) { /* a3xx: cmps gives 1/0, into a predicate or a register */
      struct ir_instr *r = isel_build2(s, pos, sem, a, b);
      isel_set_cond(s, r, cond);
      if (want == WANT_PRED)
         return in_pred_file(s, r);
      if (want == WANT_FLOAT)
         return isel_cov(s, pos, r, "u32", "f32");
      return want == WANT_MASK ? absneg(s, pos, ISA_SEM_IABSNEG, r, ISA_OPND_F_NEG) : r;
   }
   bool fl = sem == ISA_SEM_FCMP;
   const char *sign = sem == ISA_SEM_UCMP ? "u32" : sem == ISA_SEM_SCMP ? "s32" : NULL;
   if (fl && (want == WANT_MASK || want == WANT_FLOAT) && s->op[ISA_SEM_FSET] >= 0) {
      /* FSET a, b, PT: all ones (or 1.0 with .BF) where the compare holds */
      struct ir_instr *v[2] = {a, b};
      struct ir_instr *r = isel_build(s, pos, ISA_SEM_FSET, v, 2);
      if (!r)
         return NULL;
      ir_mach_set_fixed_reg(r, 2, (unsigned)s->pred, (unsigned)s->true_reg, 0);
      isel_set_cond(s, r, cond);
      if (want == WANT_FLOAT && s->mod_bf >= 0)
         r->mach->insn.mod[s->mod_bf] = 1;
      return r;
   }
   struct ir_instr *p = isel_setp(s, pos, fl ? ISA_SEM_FSETP : ISA_SEM_ISETP, a, b, cond, sign);
   if (!p || want == WANT_PRED || want == WANT_TEST)
      return p;
   if (want == WANT_MASK)
      return isel_mask_of_pred(s, pos, p);
   return isel_unsupported(s, pos, "a float 1.0/0.0 result of an integer compare"), NULL;
}

/* An and/or tree of compares read only as a test (uses: its readers'
 * count) that compares writing predicates can compute, each accumulating
 * the predicate of the rest (FSETP/ISETP ... Pacc with .AND/.OR). */
static bool
pred_tree(const struct isel *s, const struct ir_instr *v, unsigned uses, unsigned depth)
{
   if (is_compare(v))
      return true;
   if ((v->op != IR_OP_IAND && v->op != IR_OP_IOR) || depth > 6 || !s->setp || s->mod_setop < 0 ||
       !s->uses || s->uses[v->id] != uses)
      return false;
   return (is_compare(v->src[1]) && pred_tree(s, v->src[0], 1, depth + 1)) ||
          (is_compare(v->src[0]) && pred_tree(s, v->src[1], 1, depth + 1));
}

static struct ir_instr *
tree_pred(struct isel *s, struct ir_instr *pos, struct ir_instr *v)
{
   if (is_compare(v))
      return compare_as(s, pos, v, WANT_PRED);
   bool last1 = is_compare(v->src[1]) && pred_tree(s, v->src[0], 1, 0);
   struct ir_instr *rest = v->src[last1 ? 0 : 1], *c = v->src[last1 ? 1 : 0];
   struct ir_instr *acc = tree_pred(s, pos, rest);
   const char *cond = NULL;
   enum isa_sem sem = compare_sem(c->op, &cond);
   const char *sign = sem == ISA_SEM_UCMP ? "u32" : sem == ISA_SEM_SCMP ? "s32" : NULL;
   struct ir_instr *p = acc ? isel_setp(s, pos, sem == ISA_SEM_FCMP ? ISA_SEM_FSETP : ISA_SEM_ISETP,
                                        c->src[0], c->src[1], cond, sign)
                            : NULL;
   if (!p)
      return NULL;
   /* p = c OP acc: the accumulator operand (third) reads acc */
   ir_mach_set_src(p, 2, &acc, 1);
   isel_set_mod(s, p, s->mod_setop, v->op == IR_OP_IAND ? "and" : "or");
   return p;
}

/* A predicate true where generic value v != 0, built before pos: the
 * compare itself when v is one (exactly the same test), an and/or tree of
 * compares as accumulated predicates, else v != 0. */
struct ir_instr *
isel_predicate(struct isel *s, struct ir_instr *pos, struct ir_instr *v)
{
   struct ir_instr *p = s->ctx->preds_in_gprs ? NULL : pred_of_mask(s, v);
   if (p)
      return p;
   if (is_compare(v) && opt_transform(s->ctx, "branch on compare %%%u directly", v->id))
      return compare_as(s, pos, v, WANT_PRED);
   if (!is_compare(v) && pred_tree(s, v, 1, 0) &&
       opt_transform(s->ctx, "test %%%u as accumulated predicates", v->id))
      return tree_pred(s, pos, v);
   struct ir_instr *zero = isel_imm(s, pos, 0);
   if (s->setp)
      return isel_setp(s, pos, ISA_SEM_ISETP, v, zero, "ne", "u32");
   struct ir_instr *r = isel_build2(s, pos, ISA_SEM_UCMP, v, zero);
   isel_set_cond(s, r, "ne");
   return s->lanemask ? isel_in_mask_file(s, r) : in_pred_file(s, r);
}

static void
predicate_ifs(struct isel *s, struct ir_list *l)
{
   for (unsigned i = 0; i < l->n && !s->ctx->failed; i++) {
      struct ir_node *n = l->v[i];
      if (n->kind == IR_NODE_IF) {
         /* at the end of the block before the if: a new instruction there
          * goes before nothing, so build it before a placeholder */
         struct ir_block *before = l->v[i - 1]->block;
         struct ir_instr *ph = ir_instr_create(s->sh, IR_OP_IMM, 0);
         ph->type = IR_TYPE_32;
         ph->line = n->cond->line;
         ir_block_append(before, ph);
         struct ir_instr *p = isel_predicate(s, ph, n->cond);
         ir_instr_remove(ph);
         if (p)
            ir_set_cond(n, p);
      }
      predicate_ifs(s, &n->then_list);
      predicate_ifs(s, &n->else_list);
      predicate_ifs(s, &n->body);
   }
}

/* EXEC-mask models: s_andn2 exec, exec, p in place of kill `in`. */
static void
kill_lanes(struct isel *s, struct ir_instr *in, struct ir_instr *p)
{
   struct opt_exec x;
   if (!opt_exec_find(s->m, &x)) {
      isel_unsupported(s, in, "kill (no EXEC ops in the model)");
      return;
   }
   struct ir_instr *k = ir_mach_create(s->sh, (unsigned)x.andn2);
   k->type = IR_TYPE_NONE; /* writes EXEC, a fixed register */
   ir_mach_set_fixed_reg(k, 0, x.file, x.exec, 0);
   ir_mach_set_src(k, 1, &p, 1);
   k->mach->insn.dst[0] =
       (struct isa_opnd){.kind = ISA_OPND_REG, .file = (uint8_t)x.file, .index = (uint16_t)x.exec};
   k->line = in->line;
   ir_insert_before(in, k);
   ir_instr_remove(in);
}

/* kill where the condition holds: a kill reading a predicate (a3xx), or
 * one guarded by it (sm50 @P KIL). */
static void
select_kill(struct isel *s, struct ir_instr *in)
{
   struct ir_instr *c =
       in->op == IR_OP_KILL_IF ? in->src[0] : isel_imm(s, in, ~0u); /* kill, demote: always */
   struct ir_instr *p = isel_predicate(s, in, c);
   if (p && s->lanemask) { /* EXEC &= ~mask: the lanes leave for good */
      kill_lanes(s, in, p);
      return;
   }
   if (!p || s->op[ISA_SEM_KILL] < 0) {
      isel_unsupported(s, in, "kill");
      return;
   }
   struct ir_instr *k = ir_mach_create(s->sh, (unsigned)s->op[ISA_SEM_KILL]);
   if (k->mach->insn.nsrc)
      ir_mach_set_src(k, 0, &p, 1);
   else
      ir_mach_set_guard(k, p, false);
   k->line = in->line;
   ir_insert_before(in, k);
   ir_instr_remove(in);
}

/* ------------------------------------------------------------------ */
/* 3: selection                                                         */

/* a * b on 32 bits from 16 x 16 pieces: lo(a)lo(b) + (hi(a)lo(b) <<
 * 16) + (hi(b)lo(a) << 16); the last term vanishes when b < 2^16. */
static struct ir_instr *
imul(struct isel *s, struct ir_instr *pos, struct ir_instr *a, struct ir_instr *b)
{
   if (a->op == IR_OP_IMM && !(b->op == IR_OP_IMM)) {
      struct ir_instr *t = a;
      a = b;
      b = t;
   }
   struct ir_instr *lo = isel_build2(s, pos, ISA_SEM_MULL_U, a, b);
   struct ir_instr *r = isel_build3(s, pos, ISA_SEM_MADSH_M16, a, b, lo);
   if (b->op == IR_OP_IMM && (uint32_t)b->imm < 0x10000u)
      return r;
   return isel_build3(s, pos, ISA_SEM_MADSH_M16, b, a, r);
}

/* An instruction whose operand k reads fixed register reg of file f (RZ,
 * PT) with flags; the other operands read vals in order. */
static struct ir_instr *
build_fixed(struct isel *s, struct ir_instr *pos, enum isa_sem sem, unsigned k, int f, int reg,
            unsigned flags, struct ir_instr *const *vals, unsigned n)
{
   if (s->op[sem] < 0 || f < 0 || reg < 0)
      return isel_unsupported(s, pos, isa_sem_name(sem)), NULL;
   struct ir_instr *in = ir_mach_create(s->sh, (unsigned)s->op[sem]);
   unsigned v = 0;
   for (unsigned j = 0; j < in->mach->insn.nsrc; j++) {
      if (j == k)
         ir_mach_set_fixed_reg(in, j, (unsigned)f, (unsigned)reg, flags);
      else if (v < n)
         ir_mach_set_src(in, j, &vals[v++], 1);
   }
   in->flags = pos->flags;
   in->line = pos->line;
   ir_insert_before(pos, in);
   return in;
}

/* min (or max) where only a selecting min/max exists: FMNMX/IMNMX a, b,
 * PT for the minimum, !PT for the maximum. */
struct ir_instr *
isel_minmax(struct isel *s, struct ir_instr *pos, enum isa_sem direct, bool min, const char *sign,
            struct ir_instr *a, struct ir_instr *b)
{
   if (s->op[direct] >= 0)
      return isel_build2(s, pos, direct, a, b);
   struct ir_instr *v[2] = {a, b};
   enum isa_sem sel = sign ? ISA_SEM_IMNMX : ISA_SEM_FMNMX;
   struct ir_instr *r =
       build_fixed(s, pos, sel, 2, s->pred, s->true_reg, min ? 0 : ISA_OPND_F_NOT, v, 2);
   if (sign)
      isel_set_mod(s, r, s->mod_type, sign);
   return r;
}

/* A float negate/absolute value/saturation: absneg where the model has a
 * fixed-latency one, else x + -0.0 with the modifier (exact: -0.0 is the
 * additive identity for every x, the sign of zero included). */
static struct ir_instr *
fmodify(struct isel *s, struct ir_instr *pos, struct ir_instr *a, unsigned f, bool sat)
{
   int op = s->op[ISA_SEM_FABSNEG];
   struct isa_class_info ci = {0};
   if (op >= 0) {
      struct isa_op_info oi;
      isa_op_info(s->m, (unsigned)op, &oi);
      isa_class_info(s->m, oi.cls, &ci);
   }
   struct ir_instr *r;
   if (op >= 0 && ci.latency >= 0) {
      r = isel_flag(isel_build1(s, pos, ISA_SEM_FABSNEG, a), 0, f);
   } else {
      struct ir_instr *mz = isel_imm(s, pos, 0x80000000u);
      r = isel_flag(isel_build2(s, pos, ISA_SEM_FADD, a, mz), 0, f);
   }
   if (r && sat)
      r->mach->insn.mod[s->mod_sat] = 1;
   return r;
}

/* Integer negate: absneg, or 0 - x as an add of the negated operand. */
static struct ir_instr *
ineg(struct isel *s, struct ir_instr *pos, struct ir_instr *a)
{
   if (s->op[ISA_SEM_IABSNEG] >= 0)
      return absneg(s, pos, ISA_SEM_IABSNEG, a, ISA_OPND_F_NEG);
   struct ir_instr *z = isel_imm(s, pos, 0);
   if (s->lanemask && s->op[ISA_SEM_ISUB] >= 0) /* gfx9 VALU integers take no neg */
      return isel_build2(s, pos, ISA_SEM_ISUB, z, a);
   return isel_flag(isel_build2(s, pos, ISA_SEM_IADD, a, z), 0, ISA_OPND_F_NEG);
}

/* A 32-bit shift as a funnel shift SHF.W.HI of (a:0) left or (a:0) right,
 * the way two faulty selections write it: .HI on a left shift
 * (OPT_FAULT_SHF_L_HI), and an arithmetic shift from the 32-bit type,
 * which Maxwell shifts logically (OPT_FAULT_SHF_R_SEXT). */
static struct ir_instr *
funnel_shift(struct isel *s, struct ir_instr *pos, bool left, struct ir_instr *a,
             struct ir_instr *b)
{
   struct ir_instr *r =
       isel_build3(s, pos, left ? ISA_SEM_SHF_L : ISA_SEM_SHF_R, isel_imm(s, pos, 0), b, a);
   isel_set_flag_mod(s, r, s->mod_wrap, 1);
   isel_set_flag_mod(s, r, isa_mod_by_role(s->m, ISA_ROLE_HI), 1);
   return r;
}

/* Shifts masking the count to 5 bits, as the IR's: the plain shifts, or
 * the clamping ones in their wrap (.W) form. */
struct ir_instr *
isel_shift(struct isel *s, struct ir_instr *pos, enum isa_sem direct, bool left, const char *sign,
           struct ir_instr *a, struct ir_instr *b)
{
   if (s->op[direct] >= 0)
      return isel_build2(s, pos, direct, a, b);
   /* conservative: the plain clamping shift, never a funnel shift */
   bool plain = opt_conservative(s->ctx, OPT_STAGE_ISEL, pos->line, "shift %%%u", pos->id);
   if (!plain &&
       ((left && opt_fault_fires(s->ctx, OPT_FAULT_SHF_L_HI, "%%%u << %%%u at %%%u as SHF.L.HI",
                                 a->id, b->id, pos->id)) ||
        (!left && sign && !strcmp(sign, "s32") &&
         opt_fault_fires(s->ctx, OPT_FAULT_SHF_R_SEXT, "%%%u >> %%%u at %%%u as SHF.R.S32", a->id,
                         b->id, pos->id))))
      return funnel_shift(s, pos, left, a, b);
   struct ir_instr *r = isel_build2(s, pos, left ? ISA_SEM_SHL_CLAMP : ISA_SEM_SHR_CLAMP, a, b);
   isel_set_flag_mod(s, r, s->mod_wrap, 1);
   if (sign)
      isel_set_mod(s, r, s->mod_type, sign);
   return r;
}

/* a * b mod 2^32 from XMAD 16 x 16 multiply-adds (sm50):
 *   t = lo(a)*lo(b);  u = lo(a)*hi(b) with lo(b) merged into its high half;
 *   r = (hi(a)*lo(b) << 16) + (u << 16) + t   (PSL, CBCC: c + (u << 16)) */
static struct ir_instr *
xmad_mul(struct isel *s, struct ir_instr *pos, struct ir_instr *a, struct ir_instr *b)
{
   struct ir_instr *z = isel_imm(s, pos, 0);
   struct ir_instr *t = isel_build3(s, pos, ISA_SEM_XMAD, a, b, z);
   struct ir_instr *u = isel_build3(s, pos, ISA_SEM_XMAD, a, b, z);
   if (!t || !u)
      return NULL;
   isel_flag(u, 1, ISA_OPND_F_HI);
   isel_set_flag_mod(s, u, s->mod_mrg, 1);
   struct ir_instr *r = isel_build3(s, pos, ISA_SEM_XMAD, a, u, t);
   isel_flag(r, 0, ISA_OPND_F_HI);
   isel_flag(r, 1, ISA_OPND_F_HI);
   isel_set_flag_mod(s, r, s->mod_psl, 1);
   isel_set_mod(s, r, s->mod_xmode, "cbcc");
   return r;
}

/* Float to integer conversions truncate (TGSI F2I/F2U); a model with a
 * rounding modifier names truncation "default" or "rz" (sm50's unmarked
 * F2I rounds to nearest even). */
static struct ir_instr *
truncating(struct isel *s, struct ir_instr *c, enum isa_type from, enum isa_type to)
{
   int rm = isa_mod_by_role(s->m, ISA_ROLE_ROUND);
   if (!c || rm < 0 || !isa_type_is_float(from) || isa_type_is_float(to))
      return c;
   /* conservative: the rounding always written out */
   if (!opt_conservative(s->ctx, OPT_STAGE_ISEL, c->line, "convert %%%u", c->id) &&
       opt_fault_fires(s->ctx, OPT_FAULT_F2I_ROUND, "%%%u rounds to nearest", c->id))
      return c;
   if (isa_mod_value(s->m, (unsigned)rm, "default") >= 0)
      isel_set_mod(s, c, rm, "default");
   else
      isel_set_mod(s, c, rm, "rz");
   return c;
}

/* a conversion: a cov with type modifiers, or the op of that semantics
 * whose operand types are the ones asked for. */
struct ir_instr *
isel_convert(struct isel *s, struct ir_instr *pos, struct ir_instr *a, enum isa_type from,
             enum isa_type to)
{
   unsigned ncov;
   const uint16_t *covs = isa_ops_by_sem(s->m, ISA_SEM_COV, &ncov);
   for (unsigned i = 0; i < ncov; i++) {
      unsigned op = covs[i];
      struct isa_slot_info si, di;
      if (!isa_slot_info(s->m, op, false, 0, &si) || !isa_slot_info(s->m, op, true, 0, &di))
         continue;
      if (si.type == ISA_TYPE_NONE || di.type == ISA_TYPE_NONE)
         return truncating(s, isel_cov(s, pos, a, isa_type_name(from), isa_type_name(to)), from,
                           to); /* typed by modifiers */
      if (si.type == from && di.type == to && (si.kinds & (1u << ISA_OPND_REG))) {
         struct ir_instr *r = ir_mach_create(s->sh, op);
         ir_mach_set_src(r, 0, &a, 1);
         r->flags = pos->flags;
         r->line = pos->line;
         ir_insert_before(pos, r);
         return truncating(s, r, from, to);
      }
   }
   return isel_unsupported(s, pos, "no such conversion"), NULL;
}

static struct ir_instr *
select_float(struct isel *s, struct ir_instr *in)
{
   struct ir_instr *a = in->src[0], *b = in->nsrc > 1 ? in->src[1] : NULL;
   switch (in->op) {
   case IR_OP_FADD:
      return isel_build2(s, in, ISA_SEM_FADD, a, b);
   case IR_OP_FMUL:
      return isel_build2(s, in, ISA_SEM_FMUL, a, b);
   case IR_OP_FMAD:
      return isel_build3(s, in, ISA_SEM_FMAD, a, b, in->src[2]);
   case IR_OP_FFMA:
      if (s->op[ISA_SEM_FFMA] < 0)
         return isel_unsupported(s, in, "no fused multiply-add"), NULL;
      return isel_build3(s, in, ISA_SEM_FFMA, a, b, in->src[2]);
   case IR_OP_FMIN:
      return isel_minmax(s, in, ISA_SEM_FMIN, true, NULL, a, b);
   case IR_OP_FMAX:
      return isel_minmax(s, in, ISA_SEM_FMAX, false, NULL, a, b);
   case IR_OP_FNEG:
      return fmodify(s, in, a, ISA_OPND_F_NEG, false);
   case IR_OP_FABS:
      return fmodify(s, in, a, ISA_OPND_F_ABS, false);
   case IR_OP_FSAT:
      return s->mod_sat >= 0 ? fmodify(s, in, a, 0, true)
                             : (isel_unsupported(s, in, "saturation"), NULL);
   case IR_OP_FRCP:
      return isel_build1(s, in, ISA_SEM_RCP, a);
   case IR_OP_FRSQ:
      return isel_build1(s, in, ISA_SEM_RSQ, a);
   case IR_OP_FSQRT:
      return isel_build1(s, in, ISA_SEM_SQRT, a);
   case IR_OP_FEXP2:
      return isel_build1(s, in, ISA_SEM_EXP2, a);
   case IR_OP_FLOG2:
      return isel_build1(s, in, ISA_SEM_LOG2, a);
   case IR_OP_FSIN:
   case IR_OP_FCOS: {
      bool sin = in->op == IR_OP_FSIN;
      if (s->op[sin ? ISA_SEM_SIN : ISA_SEM_COS] >= 0 || s->op[ISA_SEM_SIN_REV] < 0)
         return isel_build1(s, in, sin ? ISA_SEM_SIN : ISA_SEM_COS, a);
      /* gfx9: revolutions, x / (2 pi); GFX9 takes any range (no fract) */
      struct ir_instr *rev = isel_build2(s, in, ISA_SEM_FMUL, a, isel_imm(s, in, 0x3e22f983u));
      return isel_build1(s, in, sin ? ISA_SEM_SIN_REV : ISA_SEM_COS_REV, rev);
   }
   case IR_OP_FDIV: /* the hardware divides through the reciprocal */
      return isel_build2(s, in, ISA_SEM_FMUL, a, isel_build1(s, in, ISA_SEM_RCP, b));
   case IR_OP_FFLOOR:
      return isel_build1(s, in, ISA_SEM_FFLOOR, a);
   case IR_OP_FCEIL:
      return isel_build1(s, in, ISA_SEM_FCEIL, a);
   case IR_OP_FTRUNC:
      return isel_build1(s, in, ISA_SEM_FTRUNC, a);
   case IR_OP_FROUND_EVEN:
      return isel_build1(s, in, ISA_SEM_FRNDNE, a);
   case IR_OP_FFRACT: /* x - floor(x), as the IR defines it */
      return isel_flag(isel_build2(s, in, ISA_SEM_FADD, a, isel_build1(s, in, ISA_SEM_FFLOOR, a)),
                       1, ISA_OPND_F_NEG);
   case IR_OP_FSIGN:
      return isel_build1(s, in, ISA_SEM_FSIGN, a);
   default:
      return NULL;
   }
}

static struct ir_instr *
select_compare(struct isel *s, struct ir_instr *in)
{
   switch (in->op) {
   case IR_OP_SEQ:
   case IR_OP_SNE:
   case IR_OP_SLT:
   case IR_OP_SGE: /* 1.0 / 0.0 */
      return compare_as(s, in, in, WANT_FLOAT);
   default:
      break;
   }
   /* Only select conditions read it: they test != 0 (or a predicate), so
    * the compare's own result will do. */
   if (s->uses[in->id] == s->sel_uses[in->id] && !s->ctx->preds_in_gprs &&
       opt_transform(s->ctx, "keep compare %%%u as the test of its selects", in->id))
      return compare_as(s, in, in, WANT_TEST);
   return compare_as(s, in, in, WANT_MASK);
}

/* bcsel c, a, b: sel a, c, b (cond != 0 ? a : b); with predicate-only
 * compares the test is a predicate, from the compare or from c != 0. */
static struct ir_instr *
select_bcsel(struct isel *s, struct ir_instr *in)
{
   struct ir_instr *c = in->src[0];
   if (pred_of_mask(s, c) && !s->ctx->preds_in_gprs)
      c = pred_of_mask(s, c);
   if (s->setp && ir_reg_file(c) != s->pred) {
      struct ir_instr *zero = isel_imm(s, in, 0);
      c = isel_setp(s, in, ISA_SEM_ISETP, c, zero, "ne", "u32");
   }
   if (s->lanemask && !is_lanemask(s, c)) {
      c = isel_in_mask_file(s, isel_build2(s, in, ISA_SEM_UCMP, c, isel_imm(s, in, 0)));
      isel_set_cond(s, c, "ne");
   }
   return isel_build3(s, in, ISA_SEM_SEL, in->src[1], c, in->src[2]);
}

/* ufind_msb/ifind_msb from a count of leading zeros that gives ~0 for 0
 * (gfx9 v_ffbh_u32): 31 - min(ffbh(x), 32), so 0 gives -1; ifind_msb is
 * that of x ^ (x >> 31), which gives -1 for 0 and -1 too. */
static struct ir_instr *
find_msb_ffbh(struct isel *s, struct ir_instr *in, struct ir_instr *a)
{
   if (in->op == IR_OP_IFIND_MSB) {
      struct ir_instr *sign = isel_shift(s, in, ISA_SEM_ASHR, false, "s32", a, isel_imm(s, in, 31));
      a = isel_build2(s, in, ISA_SEM_XOR, a, sign);
   }
   struct ir_instr *z = isel_build1(s, in, ISA_SEM_FFBH, a);
   z = isel_minmax(s, in, ISA_SEM_UMIN, true, "u32", z, isel_imm(s, in, 32));
   return isel_build2(s, in, ISA_SEM_ISUB, isel_imm(s, in, 31), z);
}

static struct ir_instr *
select_int(struct isel *s, struct ir_instr *in)
{
   struct ir_instr *a = in->src[0], *b = in->nsrc > 1 ? in->src[1] : NULL;
   switch (in->op) {
   case IR_OP_IADD:
      return isel_build2(s, in, ISA_SEM_IADD, a, b);
   case IR_OP_ISUB:
      return isel_build2(s, in, ISA_SEM_ISUB, a, b);
   case IR_OP_IMUL:
      if (s->op[ISA_SEM_MUL_LO] >= 0) /* gfx9 v_mul_lo_u32 */
         return isel_build2(s, in, ISA_SEM_MUL_LO, a, b);
      return s->op[ISA_SEM_MULL_U] >= 0 ? imul(s, in, a, b) : xmad_mul(s, in, a, b);
   case IR_OP_INEG:
      return ineg(s, in, a);
   case IR_OP_IABS:
      return absneg(s, in, ISA_SEM_IABSNEG, a, ISA_OPND_F_ABS);
   case IR_OP_ISIGN: { /* min(max(x, -1), 1); one call per statement: C leaves the order of
                        * arguments open, the instruction order must not be */
      struct ir_instr *m1 = isel_imm(s, in, ~0u);
      struct ir_instr *lo = isel_minmax(s, in, ISA_SEM_SMAX, false, "s32", a, m1);
      return isel_minmax(s, in, ISA_SEM_SMIN, true, "s32", lo, isel_imm(s, in, 1));
   }
   case IR_OP_IAND:
      return isel_build2(s, in, ISA_SEM_AND, a, b);
   case IR_OP_IOR:
      return isel_build2(s, in, ISA_SEM_OR, a, b);
   case IR_OP_IXOR:
      return isel_build2(s, in, ISA_SEM_XOR, a, b);
   case IR_OP_INOT:
      return s->op[ISA_SEM_NOT] >= 0 ? isel_build1(s, in, ISA_SEM_NOT, a)
                                     : isel_build2(s, in, ISA_SEM_XOR, a, isel_imm(s, in, ~0u));
   case IR_OP_ISHL:
      return isel_shift(s, in, ISA_SEM_SHL, true, NULL, a, b);
   case IR_OP_ISHR:
      return isel_shift(s, in, ISA_SEM_ASHR, false, "s32", a, b);
   case IR_OP_USHR:
      return isel_shift(s, in, ISA_SEM_SHR, false, "u32", a, b);
   case IR_OP_IMIN:
      return isel_minmax(s, in, ISA_SEM_SMIN, true, "s32", a, b);
   case IR_OP_IMAX:
      return isel_minmax(s, in, ISA_SEM_SMAX, false, "s32", a, b);
   case IR_OP_UMIN:
      return isel_minmax(s, in, ISA_SEM_UMIN, true, "u32", a, b);
   case IR_OP_UMAX:
      return isel_minmax(s, in, ISA_SEM_UMAX, false, "u32", a, b);
   case IR_OP_BITREV:
      if (s->op[ISA_SEM_BFREV] < 0 && s->op[ISA_SEM_BFE] >= 0 && s->mod_brev >= 0) {
         /* BFE.U32.BREV of the whole word (bits 32 << 8, offset 0) */
         struct ir_instr *r = isel_build2(s, in, ISA_SEM_BFE, a, isel_imm(s, in, 0x2000));
         isel_set_flag_mod(s, r, s->mod_brev, 1);
         isel_set_mod(s, r, s->mod_type, "u32");
         return r;
      }
      return isel_build1(s, in, ISA_SEM_BFREV, a);
   case IR_OP_BITCOUNT:
      if (s->op[ISA_SEM_CBITS] < 0 && s->op[ISA_SEM_BCNT] >= 0) /* gfx9: bcnt(a) + 0 */
         return isel_build2(s, in, ISA_SEM_BCNT, a, isel_imm(s, in, 0));
      return isel_build1(s, in, ISA_SEM_CBITS, a);
   case IR_OP_UFIND_MSB:   /* 31 - clz; clz(0) = 32 gives -1 */
   case IR_OP_IFIND_MSB: { /* clz.s counts the sign's copies */
      if (s->op[ISA_SEM_CLZ_B] < 0 && s->op[ISA_SEM_FLO] < 0 && s->op[ISA_SEM_FFBH] >= 0)
         return find_msb_ffbh(s, in, a);
      if (s->op[ISA_SEM_CLZ_B] < 0) { /* FLO: the index itself, -1 for none */
         struct ir_instr *r = isel_build1(s, in, ISA_SEM_FLO, a);
         isel_set_mod(s, r, s->mod_type, in->op == IR_OP_UFIND_MSB ? "u32" : "s32");
         return r;
      }
      struct ir_instr *n31 = isel_imm(s, in, 31);
      struct ir_instr *z =
          isel_build1(s, in, in->op == IR_OP_UFIND_MSB ? ISA_SEM_CLZ_B : ISA_SEM_CLZ_S, a);
      return isel_build2(s, in, ISA_SEM_ISUB, n31, z);
   }
   case IR_OP_FIND_LSB: { /* clz(bitrev(x)), and ~0 for 0 (where clz gives 32) */
      if (s->op[ISA_SEM_CLZ_B] < 0 && s->op[ISA_SEM_FLO] < 0 && s->op[ISA_SEM_FFBL] >= 0)
         return isel_build1(s, in, ISA_SEM_FFBL, a); /* gfx9 v_ffbl_b32: ~0 for 0 */
      if (s->op[ISA_SEM_CLZ_B] < 0 &&
          s->op[ISA_SEM_FLO] >= 0) { /* msb(x & -x): FLO gives -1 for 0 */
         struct ir_instr *low = isel_build2(s, in, ISA_SEM_AND, a, ineg(s, in, a));
         struct ir_instr *r = isel_build1(s, in, ISA_SEM_FLO, low);
         isel_set_mod(s, r, s->mod_type, "u32");
         return r;
      }
      struct ir_instr *z = isel_build1(s, in, ISA_SEM_CLZ_B, isel_build1(s, in, ISA_SEM_BFREV, a));
      struct ir_instr *is32 = isel_build2(s, in, ISA_SEM_SHR, z, isel_imm(s, in, 5));
      return isel_build2(s, in, ISA_SEM_OR, z,
                         absneg(s, in, ISA_SEM_IABSNEG, is32, ISA_OPND_F_NEG));
   }
   case IR_OP_F2I:
      return isel_convert(s, in, a, ISA_TYPE_F32, ISA_TYPE_S32);
   case IR_OP_F2U:
      return isel_convert(s, in, a, ISA_TYPE_F32, ISA_TYPE_U32);
   case IR_OP_I2F:
      return isel_convert(s, in, a, ISA_TYPE_S32, ISA_TYPE_F32);
   case IR_OP_U2F:
      return isel_convert(s, in, a, ISA_TYPE_U32, ISA_TYPE_F32);
   case IR_OP_BCSEL:
      return select_bcsel(s, in);
   default:
      return NULL;
   }
}
/* Selects one generic instruction; false when it is left as it is. */
static bool
select_instr(struct isel *s, struct ir_instr *in)
{
   struct ir_instr *r = NULL;
   switch (in->op) {
   case IR_OP_IMM:
   case IR_OP_PHI:
   case IR_OP_EXTRACT:
   case IR_OP_LOAD_INPUT:
   case IR_OP_LOAD_SYSVAL:
   case IR_OP_LOAD_CONST:
   case IR_OP_BREAK:
   case IR_OP_CONTINUE:
   case IR_OP_MACH:
      return false;
   case IR_OP_STORE_OUTPUT: /* opt_isel_gs.c: stored in a GS, else read from registers */
      return isel_output(s, in);
   case IR_OP_EMIT:
   case IR_OP_END_PRIM:
      return isel_gs(s, in);
   case IR_OP_STORE_OUTPUT_VTX:
      r = isel_output_vtx(s, in);
      break;
   case IR_OP_LOAD_INPUT_VIND:
      r = isel_input_vind(s, in);
      break;
   case IR_OP_MOV:
      opt_replace(s->sh, in, in->src[0]);
      return true;
   case IR_OP_TEX:
      r = s->op[ISA_SEM_SAM] < 0 && s->zero_reg >= 0 ? isel_tex_nv(s, in) : isel_tex(s, in);
      if (r)
         ir_instr_remove(in);
      return true;
   case IR_OP_LOAD_BUFFER:
   case IR_OP_STORE_BUFFER:
   case IR_OP_LOAD_SHARED:
   case IR_OP_STORE_SHARED:
      r = s->lanemask ? isel_memory_based(s, in) : isel_memory(s, in);
      break;
   case IR_OP_LOAD_CONST_IND:
      r = isel_load_const_ind(s, in);
      break;
   case IR_OP_ATOMIC:
      r = s->lanemask ? isel_atomic_based(s, in) : isel_atomic(s, in);
      break;
   case IR_OP_RES_SIZE:
      return isel_res_size(s, in);
   case IR_OP_PACK_HALF:
   case IR_OP_UNPACK_HALF_LO:
   case IR_OP_UNPACK_HALF_HI:
      r = isel_half(s, in);
      if (!r && !s->ctx->failed)
         return isel_unsupported(s, in, "no selection for this target");
      break;
   case IR_OP_BARRIER: /* the workgroup waits; a3xx's orders global and local memory (ir3) */
      r = isel_build(s, in, ISA_SEM_BARRIER, NULL, 0);
      isel_set_flag_mod(s, r, isa_mod_find(s->m, "bar_g"), 1);
      isel_set_flag_mod(s, r, isa_mod_find(s->m, "bar_l"), 1);
      break;
   case IR_OP_MEMORY_BARRIER: /* memory operations stay in program order and complete */
      ir_instr_remove(in);
      return true;
   case IR_OP_DDX:
   case IR_OP_DDY:
   case IR_OP_DDX_FINE:
   case IR_OP_DDY_FINE:
   case IR_OP_BALLOT:
   case IR_OP_BALLOT_HI:
   case IR_OP_READ_INVOC:
   case IR_OP_READ_FIRST:
      r = isel_cross_lane(s, in);
      break;
   default:
      if (in->type == IR_TYPE_64 || ir_op_info[in->op].src == IR_TC_L ||
          ir_op_info[in->op].src == IR_TC_LW)
         return isel_unsupported(s, in, "64-bit");
      if (in->type == IR_TYPE_32 &&
          (ir_op_info[in->op].src == IR_TC_W || ir_op_info[in->op].src == IR_TC_BS)) {
         r = compare_sem(in->op, &(const char *){NULL}) != ISA_SEM_NOP ? select_compare(s, in)
                                                                       : select_float(s, in);
         if (!r && !s->ctx->failed)
            r = select_int(s, in);
      }
      if (!r && !s->ctx->failed)
         return isel_unsupported(s, in, "no selection for this target");
      break;
   }
   if (!r)
      return true;
   if (in->type == IR_TYPE_NONE)
      ir_instr_remove(in);
   else
      opt_replace(s->sh, in, r);
   return true;
}

static void
append_end(struct isel *s)
{
   int op = s->op[ISA_SEM_END];
   if (op < 0)
      return;
   struct ir_instr *e = ir_mach_create(s->sh, (unsigned)op);
   ir_block_append(ir_list_last_block(&s->sh->body), e);
}

/* ------------------------------------------------------------------ */
/* 4: folding modifiers                                                 */

static bool
slot_float(const struct isa_model *m, unsigned op, unsigned k, struct isa_slot_info *si)
{
   return isa_slot_info(m, op, false, k, si) && isa_type_is_float(si->type);
}

static bool
default_mods(const struct isel *s, const struct ir_instr *v)
{
   struct isa_insn def;
   isa_insn_init(s->m, v->mach->insn.op, &def);
   return !memcmp(def.mod, v->mach->insn.mod, sizeof(def.mod));
}

/* Is v only a negate or absolute value of one source (float or integer)?
 * absneg x (a3xx); x + -0.0 or 0 + -x where only an add carries them
 * (fmodify, ineg). Its source and flags go to *x, *f. */
static bool
plain_modifier(const struct isel *s, const struct ir_instr *v, bool fl, struct ir_instr **x,
               unsigned *f)
{
   if (v->op != IR_OP_MACH || v->mach->guard != IR_MACH_FIXED || !default_mods(s, v))
      return false;
   const struct ir_mach *m = v->mach;
   enum isa_sem sem = m->insn.sem;
   if (sem == (fl ? ISA_SEM_FABSNEG : ISA_SEM_IABSNEG) && m->count[0] == 1) {
      *x = v->src[m->first[0]];
      *f = m->insn.src[0].flags;
      return true;
   }
   if (sem != (fl ? ISA_SEM_FADD : ISA_SEM_IADD) || m->count[0] != 1 || m->count[1] != 1 ||
       m->insn.src[1].flags)
      return false;
   const struct ir_instr *z = v->src[m->first[1]];
   if (z->op != IR_OP_IMM || (uint32_t)z->imm != (fl ? 0x80000000u : 0u))
      return false;
   *x = v->src[m->first[0]];
   *f = m->insn.src[0].flags;
   return fl || *f == ISA_OPND_F_NEG;
}

/* Folds a negate or absolute value into operand k of in when the slot
 * takes that modifier; the record must stay encodable. */
static void
fold_absneg(struct isel *s, struct ir_instr *in, unsigned k)
{
   struct ir_mach *m = in->mach;
   struct ir_instr *v = in->src[m->first[k]], *x;
   struct isa_slot_info si;
   bool fl = slot_float(s->m, m->insn.op, k, &si);
   unsigned f;
   if (m->insn.src[k].flags || !plain_modifier(s, v, fl, &x, &f))
      return;
   if (!fl && si.type != ISA_TYPE_S32 && si.type != ISA_TYPE_U32)
      return; /* an integer negate only on arithmetic slots */
   struct isa_slot_info vi;
   if (!isa_slot_info(s->m, v->mach->insn.op, false, 0, &vi) ||
       isa_type_bits(vi.type) != isa_type_bits(si.type))
      return; /* a modifier acts at its slot's width: an f32 negate flips bit 31,
                 an f16 slot's bit 15 (sm50 F2F.F32.F16 reads the low half) */
   if (f & ~(unsigned)(ISA_OPND_F_NEG | ISA_OPND_F_ABS) || ((f & ISA_OPND_F_NEG) && !si.neg) ||
       ((f & ISA_OPND_F_ABS) && (!si.abs || !fl)))
      return;
   uint8_t old = m->insn.src[k].flags;
   opt_verify_begin(s->ctx, in);
   m->insn.src[k].flags = (uint8_t)f;
   ir_set_src(in, m->first[k], x);
   if (opt_legal_possible(s->sh, in) &&
       opt_transform(s->ctx, "fold the modifier of %%%u into %%%u", v->id, in->id)) {
      opt_verify_end(s->ctx, in, in, s->ctx->verify_what);
      s->progress = true;
      return;
   }
   m->insn.src[k].flags = old;
   ir_set_src(in, m->first[k], v);
}

/* fsat(x) where x is a float op used only here and able to saturate: the
 * op saturates itself. */
static void
fold_sat(struct isel *s, struct ir_instr *in)
{
   struct ir_mach *m = in->mach;
   if (s->mod_sat < 0 || m->insn.sem != ISA_SEM_FABSNEG || !m->insn.mod[s->mod_sat] ||
       m->insn.src[0].flags || m->count[0] != 1)
      return;
   struct ir_instr *v = in->src[0];
   if (v->op != IR_OP_MACH || s->uses[v->id] != 1 || v->mach->insn.mod[s->mod_sat] ||
       v->block != in->block || v->type != IR_TYPE_32)
      return;
   struct isa_slot_info si;
   if (!isa_slot_info(s->m, v->mach->insn.op, true, 0, &si) || !isa_type_is_float(si.type))
      return;
   opt_verify_begin(s->ctx, v);
   v->mach->insn.mod[s->mod_sat] = 1;
   if (opt_legal_possible(s->sh, v) &&
       opt_transform(s->ctx, "saturate %%%u in place of %%%u", v->id, in->id)) {
      opt_verify_end(s->ctx, in, v, s->ctx->verify_what);
      opt_replace(s->sh, in, v);
      s->progress = true;
      return;
   }
   v->mach->insn.mod[s->mod_sat] = 0;
}

static bool
pure(const struct ir_instr *in)
{
   enum isa_sem s = in->mach->insn.sem;
   return !opt_sem_has_effect(s) && s != ISA_SEM_END && s != ISA_SEM_NOP && s != ISA_SEM_JUMP &&
          s != ISA_SEM_BRANCH;
}

/* Removes selected instructions nobody reads (and unused immediates). */
static void
remove_dead(struct isel *s)
{
   for (bool again = true; again;) {
      again = false;
      count_uses(s);
      for (unsigned i = 0; i < s->sh->nvalues; i++) {
         struct ir_instr *in = s->sh->values[i];
         if (!in || in->removed || in->type == IR_TYPE_NONE || s->uses[i])
            continue;
         if ((in->op == IR_OP_MACH && pure(in)) || in->op == IR_OP_IMM || in->op == IR_OP_EXTRACT) {
            ir_instr_remove(in);
            again = true;
         }
      }
   }
}

static void
fold_modifiers(struct isel *s)
{
   do {
      s->progress = false;
      count_uses(s);
      for (unsigned i = 0; i < s->sh->nvalues && !s->ctx->limit_hit; i++) {
         struct ir_instr *in = s->sh->values[i];
         if (!in || in->removed || in->op != IR_OP_MACH)
            continue;
         for (unsigned k = 0; k < in->mach->insn.nsrc; k++)
            if (in->mach->count[k] == 1)
               fold_absneg(s, in, k);
         fold_sat(s, in);
      }
      remove_dead(s);
   } while (s->progress && !s->ctx->limit_hit);
}

/* ------------------------------------------------------------------ */
/* The pass                                                             */

/* Models without predicates whose compares write a uniform register pair
 * (gfx9 VOPC e64): compares are those ops, selects read lane masks. */
static void
lanemask_target(struct isel *s)
{
   /* the double compare (v_cmp_*_f64) last: a model without one still
    * has lane masks, and the FP64 selection refuses its compares */
   static const enum isa_sem cmps[] = {ISA_SEM_FCMP, ISA_SEM_UCMP, ISA_SEM_SCMP, ISA_SEM_DCMP};
   int sel = isa_mod_by_role(s->m, ISA_ROLE_SRC0_SEL);
   if (s->pred >= 0 || s->unif < 0)
      return;
   for (unsigned i = 0; i < ARRAY_SIZE(cmps); i++) {
      int best = -1;
      for (unsigned o = 0; o < isa_op_count(s->m) && best < 0; o++) {
         struct isa_insn t;
         isa_insn_init(s->m, o, &t);
         unsigned w;
         if (t.sem == cmps[i] && t.ndst == 1 && t.nsrc == 2 &&
             (sel < 0 || !op_has_mod(s->m, o, sel, 0)) &&
             sem_slot_type(s->m, &t, ISA_SLOT_DST(0), &w) != ISA_TYPE_NONE && w == 64)
            best = (int)o;
      }
      if (best < 0 && cmps[i] == ISA_SEM_DCMP) {
         s->op[cmps[i]] = -1;
         break;
      }
      if (best < 0)
         return;
      s->op[cmps[i]] = best;
   }
   s->lanemask = true;
}

/* The op isel builds for sem: per-lane values need a per-lane op, so a
 * scalar op that writes a value (gfx9 SALU: once per wave) is never taken
 * (s_bcnt1_i32_b32 is no popcount of a lane's value); a per-lane op of the
 * same semantics is, if the model has one. Scalar ops without a result
 * (control flow, s_barrier) stand. */
static int
lane_op(const struct isel *s, enum isa_sem sem)
{
   int op = opt_op_by_sem(s->m, sem);
   struct isa_insn t;
   struct isa_class_info ci;
   if (op < 0 || (isa_insn_init(s->m, (unsigned)op, &t), isa_class_info(s->m, t.cls, &ci),
                  !ci.scalar || !t.ndst))
      return op;
   unsigned n;
   const uint16_t *ops = isa_ops_by_sem(s->m, sem, &n);
   for (unsigned i = 0; i < n; i++) {
      isa_insn_init(s->m, ops[i], &t);
      isa_class_info(s->m, t.cls, &ci);
      if (!ci.scalar && !ci.explicit_only)
         return ops[i];
   }
   return -1;
}

static void
find_target(struct isel *s)
{
   for (int i = 0; i < ISA_SEM_COUNT; i++)
      s->op[i] = lane_op(s, (enum isa_sem)i);
   s->gpr = s->pred = s->addr = s->cnst = s->unif = s->zero_reg = s->true_reg = -1;
   for (unsigned f = 0; f < isa_file_count(s->m); f++) {
      struct isa_file_info fi;
      isa_file_info(s->m, f, &fi);
      if (fi.kind == ISA_FILE_FULL && s->gpr < 0) {
         s->gpr = (int)f;
         s->zero_reg = fi.fixed >= 0 && !fi.fixed_value ? fi.fixed : -1;
      }
      if (fi.kind == ISA_FILE_PREDICATE && s->pred < 0) {
         s->pred = (int)f;
         s->true_reg = fi.fixed >= 0 && fi.fixed_value ? fi.fixed : -1;
      }
      if (fi.kind == ISA_FILE_ADDRESS && s->addr < 0)
         s->addr = (int)f;
      if (fi.kind == ISA_FILE_CONST && s->cnst < 0)
         s->cnst = (int)f;
      if (fi.kind == ISA_FILE_UNIFORM && s->unif < 0)
         s->unif = (int)f;
   }
   s->mod_cond = isa_mod_by_role(s->m, ISA_ROLE_COND);
   s->mod_sat = isa_mod_by_role(s->m, ISA_ROLE_SAT);
   s->mod_src_type = isa_mod_by_role(s->m, ISA_ROLE_SRC_TYPE);
   s->mod_dst_type = isa_mod_by_role(s->m, ISA_ROLE_DST_TYPE);
   s->mod_wrmask = isa_mod_by_role(s->m, ISA_ROLE_WRMASK);
   s->mod_type = isa_mod_by_role(s->m, ISA_ROLE_TYPE);
   s->mod_bf = isa_mod_by_role(s->m, ISA_ROLE_BF);
   s->mod_setop = isa_mod_by_role(s->m, ISA_ROLE_SETOP);
   s->mod_wrap = isa_mod_by_role(s->m, ISA_ROLE_WRAP);
   s->mod_psl = isa_mod_by_role(s->m, ISA_ROLE_PSL);
   s->mod_mrg = isa_mod_by_role(s->m, ISA_ROLE_MRG);
   s->mod_xmode = isa_mod_by_role(s->m, ISA_ROLE_XMODE);
   s->mod_brev = isa_mod_by_role(s->m, ISA_ROLE_BREV);
   lanemask_target(s);
   s->setp = s->op[ISA_SEM_FCMP] < 0 && s->op[ISA_SEM_FSETP] >= 0 && s->op[ISA_SEM_ISETP] >= 0 &&
             s->true_reg >= 0;
}

/* Stack models: every loop exit is a SYNC (opt_break_if), so a break is
 * either the end of a loop body or a predicated break, and a continue has
 * no form; opt_jumps rewrote all others, so this only guards its result.
 * The first jump that is neither, or NULL. */
static struct ir_instr *
bad_jump(const struct ir_shader *sh, const struct ir_list *l, bool in_body)
{
   for (unsigned i = 0; i < l->n; i++) {
      const struct ir_node *n = l->v[i];
      struct ir_instr *j = NULL;
      bool negate;
      if (n->kind == IR_NODE_BLOCK && n->block->last &&
          (ir_op_info[n->block->last->op].flags & IR_OPF_JUMP)) {
         struct ir_instr *x = n->block->last;
         bool top = in_body && i + 1 == l->n;
         if (x->op == IR_OP_CONTINUE || (!top && !opt_break_if(sh, n->block, &negate)))
            return x;
      }
      if (n->kind == IR_NODE_IF)
         j = bad_jump(sh, &n->then_list, false);
      if (n->kind == IR_NODE_IF && !j)
         j = bad_jump(sh, &n->else_list, false);
      if (n->kind == IR_NODE_LOOP)
         j = bad_jump(sh, &n->body, true);
      if (j)
         return j;
   }
   return NULL;
}

bool
opt_isel(struct ir_shader *sh, struct opt_ctx *ctx)
{
   if (!sh->model) {
      ir_error(ctx->diags, sh, 0, "isel: the shader has no ISA model");
      ctx->failed = true;
      return false;
   }
   struct isel s = {.sh = sh, .ctx = ctx, .m = sh->model};
   find_target(&s);
   opt_jumps(sh, ctx);
   struct ir_instr *j = opt_stack_model(s.m) ? bad_jump(sh, &sh->body, false) : NULL;
   if (j) {
      ir_error(ctx->diags, sh, j->line,
               "unsupported: %s on %s other than a break alone in an arm of an if at the top "
               "of a loop body, or ending it (loops leave through SYNC), TGSI line %u",
               ir_op_info[j->op].name, isa_model_name(s.m), j->line);
      ctx->failed = true;
      return false;
   }
   if (!isel_stage_supported(&s))
      return false;
   struct opt_exec ex;
   if (opt_exec_find(s.m, &ex) && 4 * opt_exec_pairs(sh) > ex.top) {
      ir_error(ctx->diags, sh, 0,
               "unsupported: control flow nested %u pairs of waiting lanes deep on %s (at most "
               "%u SGPR pairs are set aside for EXEC masks)",
               opt_exec_pairs(sh), isa_model_name(s.m), ex.top / 4);
      ctx->failed = true;
      return false;
   }
   isel_const_ind_selects(&s);
   isel_const_smem(&s);
   hoist_inputs(&s);
   opt_fp64(sh, ctx);
   opt_expand(sh, ctx);
   isel_fp64(&s);
   count_uses(&s); /* before the ifs' predicates: pred_tree asks */
   predicate_ifs(&s, &sh->body);
   struct ir_instr **kills;
   unsigned nk = ir_program_order(sh, &kills);
   for (unsigned i = 0; i < nk && !ctx->failed; i++)
      if (kills[i]->op == IR_OP_KILL || kills[i]->op == IR_OP_KILL_IF ||
          kills[i]->op == IR_OP_DEMOTE)
         select_kill(&s, kills[i]);
   free(kills);
   count_uses(&s);
   struct ir_instr **order;
   unsigned n = ir_program_order(sh, &order);
   for (unsigned i = 0; i < n && !ctx->failed; i++) {
      if (order[i]->removed)
         continue;
      if (order[i]->type != IR_TYPE_NONE && !s.uses[order[i]->id] &&
          !ir_instr_has_effect(order[i]) && order[i]->op != IR_OP_LOAD_INPUT &&
          order[i]->op != IR_OP_LOAD_SYSVAL) {
         ir_instr_remove(order[i]); /* dead (a compare only an if read) */
         continue;
      }
      select_instr(&s, order[i]);
   }
   free(order);
   if (!ctx->failed) {
      append_end(&s);
      fold_modifiers(&s);
      n = ir_program_order(sh, &order);
      for (unsigned i = 0; i < n && !ctx->failed; i++)
         if (order[i]->op == IR_OP_MACH && !opt_legalize_operands(sh, ctx, order[i])) {
            char *t = ir_print_instr(order[i]);
            ir_error(ctx->diags, sh, order[i]->line, "isel: no legal form for %s", t);
            free(t);
            ctx->failed = true;
         }
      free(order);
   }
   const struct ir_instr *g = NULL;
   if (!ctx->failed && !opt_guard_breaks(sh, true, &g))
      isel_unsupported(&s, (struct ir_instr *)g,
                       "a guarded instruction before a break (predicated)");
   free(s.uses);
   free(s.sel_uses);
   sh->cfg_valid = false;
   return true;
}
