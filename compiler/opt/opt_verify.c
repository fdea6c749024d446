/*
 * Per-rewrite verification (Alive2's idea, by testing instead of proofs):
 * every optional rewrite the optimizing compiler makes -- an algebraic
 * rule, a constant fold, a copy or CSE merge, a fusion, a modifier or
 * saturation folded into a machine instruction, a legalizer swap -- is
 * evaluated before and after on the special operand values of isa/sem.h
 * (sem_specials: +-0, +-inf, NaN, denormals, +-1, INT_MIN/MAX, shift counts
 * of 32 and more, ...). A rewrite whose result changes where its exactness
 * class forbids it is a compile error naming the rule, the pass and the
 * operand values.
 *
 * The expression. The value being replaced (old) and its replacement (rep)
 * are evaluated as expression DAGs over common leaves. Level 0 evaluates
 * old and the instructions the rewrite built; every other value is a leaf
 * that takes the table's values. A rule that looked through a source
 * (--x -> x, sat(sat x) -> sat x, a clamp reordered) is wrong at level 0;
 * each further level expands leaves one step: first rep when it is an
 * earlier value (CSE, sat(sat x)), else the leaves that join the two sides
 * (a source of theirs is a node already), else the leaves only old
 * reaches, then those only rep reaches, then all. A rewrite fails only if
 * it fails at every level (up to VF_LEVELS): a counterexample over
 * independent leaves may be unreachable once their computations are known.
 * One value is always one node, so a leaf both sides read has one value.
 *
 * Semantics. 32-bit ops are computed by isa/sem.h through this file's own
 * mapping (vf_sem_op), not the constant folder's (opt_fold_op): a wrong
 * fold (an unsigned compare, a logical shift, a C-style min) must disagree
 * with it. Ops sem.h lacks use the IR's host meaning (ir_eval_op_host);
 * machine instructions use ir_mach_eval. Operands in the domain where the
 * IR leaves a result undefined (f2i of NaN, bit fields past 32) are skipped.
 *
 * Exactness classes (opt_verify_class):
 *   exact    bits equal; a float result's NaN equals any NaN (ir.h: NaN
 *            payloads are not significant);
 *   inexact  (x + 0 -> x, x * 0 -> 0) only with opts.inexact, never on a
 *            precise or invariant value; +0 equals -0 and a NaN may become
 *            a number;
 *   fused    (mul + add -> ffma) only with opts.fuse_ffma, never on a
 *            precise or invariant value; the product's rounding may
 *            differ (|before - after| within 2^-22 of the product and the
 *            result), anything where before is not finite.
 * A replacement must also keep the invariant flag, and a merge (rep an
 * earlier instruction of the same op) the precise flag of what it replaces.
 *
 * Cost: leaves take only the values special for how they are read (a
 * float operand, an integer, a shift count, a condition); all combinations
 * up to VF_BUDGET, else every pair of leaves over their tables with the
 * others rotating. The walk is deterministic. A level's verdict is a
 * function of the expression's structure alone (ops, fields, machine
 * records, which node reads which, the leaves' tables, the class), not of
 * which values the leaves are: a level that passed is remembered by that
 * structure (struct vf_memo), and a rewrite of the same structure --
 * the same rule on the next instruction of a long shader -- takes the
 * verdict without evaluating again. Only passes are remembered; a failure
 * is always evaluated and reported.
 */
#include "compiler/ir/ir.h"
#include "isa/sem.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define VF_NODES          40
#define VF_LEAVES         8
#define VF_SRCS           8
#define VF_LEVELS         4
#define VF_BUDGET         1024
#define VF_VALUES         64
#define VF_KEY_MAX        (64 + VF_NODES * (16 + VF_SRCS + IR_MACH_KEY_MAX))
#define VF_MEMO_MAX_BYTES (16u << 20) /* then no more entries: a bound, not an eviction */

/* The state of an instruction a rewrite changes in place. */
struct opt_verify_saved {
   const struct ir_instr *in; /* NULL: none */
   struct ir_instr copy;
   struct ir_mach mach;
   struct ir_instr *src[VF_SRCS];
};

struct vf_node {
   const struct ir_instr *in; /* what is evaluated: the instruction or its saved before-state */
   const struct ir_instr *as; /* the value its readers name */
   int src[VF_SRCS];          /* node of each source; -1: not expanded */
   uint8_t side;              /* bit 0: reached from old, bit 1: from rep */
   bool interior, evaluable, expanded;
   uint8_t kinds; /* sem_special_kind of the values a leaf takes */
   bool prepared; /* prep holds in's decoding (a machine instruction) */
   uint64_t val;
   struct ir_mach_prep prep; /* a machine instruction's decoding, made once */
};

struct vf {
   struct opt_ctx *ctx;
   const struct ir_instr *old, *rep;
   const struct ir_instr *saved, *saved_as; /* in-place: old's side reads saved for saved_as */
   unsigned first_new;
   unsigned nn;
   int old_node, rep_node;
   bool overflow;
   /* leaves of the current level */
   int leaf[VF_LEAVES];
   uint8_t leaf_kinds[VF_LEAVES]; /* what picked its table */
   unsigned nleaf;
   unsigned ntab[VF_LEAVES];
   /* the first counterexample of the current level */
   bool bad;
   uint64_t bad_leaf[VF_LEAVES], bad_before, bad_after;
   const struct ir_instr *bad_as[VF_LEAVES];
   unsigned bad_n;
   const char *bad_why;
   /* Not cleared (vf_new): most of the struct, and no rewrite fills more
    * than a few entries. Node i < nn is set up by vf_node, table l <
    * nleaf by vf_leaves, and nothing reads past them. */
   uint64_t tab[VF_LEAVES][VF_VALUES];
   struct vf_node n[VF_NODES];
};

/* ------------------------------------------------------------------ */
/* Semantics                                                            */

static uint32_t
vf_mask(uint32_t b)
{
   return b ? ~0u : 0u;
}

static uint32_t
vf_one(uint32_t b)
{
   return b ? 0x3f800000u : 0u;
}

/* A 32-bit IR op through isa/sem.h, independently of opt_fold_op. */
static bool
vf_sem_op(enum ir_op op, const uint32_t *s, uint32_t *r)
{
   uint32_t a = s[0], b = s[1], c = s[2];
   switch (op) {
   case IR_OP_FADD:
      *r = sem_fadd(a, b);
      return true;
   case IR_OP_FMUL:
      *r = sem_fmul(a, b);
      return true;
   case IR_OP_FMAD:
      *r = sem_fmad(a, b, c);
      return true;
   case IR_OP_FFMA:
      *r = sem_ffma(a, b, c);
      return true;
   case IR_OP_FMIN:
      *r = sem_fmin(a, b);
      return true;
   case IR_OP_FMAX:
      *r = sem_fmax(a, b);
      return true;
   case IR_OP_FNEG:
      *r = sem_fneg(a);
      return true;
   case IR_OP_FABS:
      *r = sem_fabs(a);
      return true;
   case IR_OP_FSAT:
      *r = sem_fsat(a);
      return true;
   case IR_OP_FRCP:
      *r = sem_rcp(a);
      return true;
   case IR_OP_FRSQ:
      *r = sem_rsq(a);
      return true;
   case IR_OP_FSQRT:
      *r = sem_sqrt(a);
      return true;
   case IR_OP_FEXP2:
      *r = sem_exp2(a);
      return true;
   case IR_OP_FLOG2:
      *r = sem_log2(a);
      return true;
   case IR_OP_FSIN:
      *r = sem_sin(a);
      return true;
   case IR_OP_FCOS:
      *r = sem_cos(a);
      return true;
   case IR_OP_FFLOOR:
      *r = sem_ffloor(a);
      return true;
   case IR_OP_FCEIL:
      *r = sem_fceil(a);
      return true;
   case IR_OP_FTRUNC:
      *r = sem_ftrunc(a);
      return true;
   case IR_OP_FROUND_EVEN:
      *r = sem_frndne(a);
      return true;
   case IR_OP_FSIGN:
      *r = sem_fsign(a);
      return true;
   case IR_OP_FEQ:
      *r = vf_mask(sem_fcmp(SEM_EQ, a, b));
      return true;
   case IR_OP_FNE:
      *r = vf_mask(sem_fcmp(SEM_NE, a, b));
      return true;
   case IR_OP_FLT:
      *r = vf_mask(sem_fcmp(SEM_LT, a, b));
      return true;
   case IR_OP_FGE:
      *r = vf_mask(sem_fcmp(SEM_GE, a, b));
      return true;
   case IR_OP_SEQ:
      *r = vf_one(sem_fcmp(SEM_EQ, a, b));
      return true;
   case IR_OP_SNE:
      *r = vf_one(sem_fcmp(SEM_NE, a, b));
      return true;
   case IR_OP_SLT:
      *r = vf_one(sem_fcmp(SEM_LT, a, b));
      return true;
   case IR_OP_SGE:
      *r = vf_one(sem_fcmp(SEM_GE, a, b));
      return true;
   case IR_OP_IEQ:
      *r = vf_mask(sem_ucmp(SEM_EQ, a, b));
      return true;
   case IR_OP_INE:
      *r = vf_mask(sem_ucmp(SEM_NE, a, b));
      return true;
   case IR_OP_ILT:
      *r = vf_mask(sem_scmp(SEM_LT, a, b));
      return true;
   case IR_OP_IGE:
      *r = vf_mask(sem_scmp(SEM_GE, a, b));
      return true;
   case IR_OP_ULT:
      *r = vf_mask(sem_ucmp(SEM_LT, a, b));
      return true;
   case IR_OP_UGE:
      *r = vf_mask(sem_ucmp(SEM_GE, a, b));
      return true;
   case IR_OP_BCSEL:
      *r = sem_sel(b, a, c);
      return true;
   case IR_OP_IADD:
      *r = sem_iadd(a, b);
      return true;
   case IR_OP_ISUB:
      *r = sem_isub(a, b);
      return true;
   case IR_OP_INEG:
      *r = sem_ineg(a);
      return true;
   case IR_OP_IABS:
      *r = sem_iabs(a);
      return true;
   case IR_OP_IAND:
      *r = sem_and(a, b);
      return true;
   case IR_OP_IOR:
      *r = sem_or(a, b);
      return true;
   case IR_OP_IXOR:
      *r = sem_xor(a, b);
      return true;
   case IR_OP_INOT:
      *r = sem_not(a);
      return true;
   case IR_OP_ISHL:
      *r = sem_shl(a, b);
      return true;
   case IR_OP_USHR:
      *r = sem_shr(a, b);
      return true;
   case IR_OP_ISHR:
      *r = sem_ashr(a, b);
      return true;
   case IR_OP_IMIN:
      *r = sem_smin(a, b);
      return true;
   case IR_OP_IMAX:
      *r = sem_smax(a, b);
      return true;
   case IR_OP_UMIN:
      *r = sem_umin(a, b);
      return true;
   case IR_OP_UMAX:
      *r = sem_umax(a, b);
      return true;
   case IR_OP_BITREV:
      *r = sem_bfrev(a);
      return true;
   case IR_OP_BITCOUNT:
      *r = sem_cbits(a);
      return true;
   case IR_OP_UFIND_MSB:
      *r = 31u - sem_clz_b(a);
      return true;
   case IR_OP_IFIND_MSB:
      *r = 31u - sem_clz_s(a);
      return true;
   case IR_OP_F2I:
      *r = sem_f2i(a, 1, 0);
      return true;
   case IR_OP_F2U:
      *r = sem_f2i(a, 0, 0);
      return true;
   case IR_OP_I2F:
      *r = sem_i2f(a, 1);
      return true;
   case IR_OP_U2F:
      *r = sem_i2f(a, 0);
      return true;
   default:
      return false;
   }
}

/* Operands for which the IR leaves op's result undefined (ir.h). */
static bool
vf_undefined(enum ir_op op, const uint64_t *s)
{
   float f = 0;
   uint32_t w = (uint32_t)s[0];
   memcpy(&f, &w, sizeof(f));
   double d = 0;
   memcpy(&d, &s[0], sizeof(d));
   switch (op) {
   case IR_OP_F2I:
      return !(f >= -2147483648.0f && f < 2147483648.0f);
   case IR_OP_F2U:
      return !(f > -1.0f && f < 4294967296.0f);
   case IR_OP_D2I:
      return !(d > -2147483649.0 && d < 2147483648.0);
   case IR_OP_D2U:
      return !(d > -1.0 && d < 4294967296.0);
   case IR_OP_F2I64:
   case IR_OP_F2U64:
   case IR_OP_D2I64:
   case IR_OP_D2U64:
      return true; /* rarely rewritten; their range rules are not worth a table */
   case IR_OP_IBFE:
   case IR_OP_UBFE:
      return (uint32_t)s[1] + (uint32_t)s[2] > 32 || (uint32_t)s[1] > 31 || (uint32_t)s[2] > 32;
   case IR_OP_BFI:
      return (uint32_t)s[2] + (uint32_t)s[3] > 32 || (uint32_t)s[2] > 31 || (uint32_t)s[3] > 32;
   default:
      return false;
   }
}

static bool
vf_ir_evaluable(const struct ir_instr *in)
{
   const struct ir_op_info *oi = &ir_op_info[in->op];
   if (in->op == IR_OP_IMM)
      return true;
   if (in->op == IR_OP_MACH)
      return false; /* vf_mach_evaluable */
   if (oi->nsrc == IR_NSRC_VAR || oi->nsrc == 0 || oi->nsrc > 4 ||
       (oi->flags & (IR_OPF_SIDE | IR_OPF_LOAD | IR_OPF_CONV)) || in->type == IR_TYPE_V4 ||
       in->type == IR_TYPE_NONE || oi->src == IR_TC_V4)
      return false;
   if (in->nsrc != oi->nsrc)
      return false;
   uint32_t w[4] = {0};
   uint64_t z[4] = {0}, d;
   return vf_sem_op(in->op, w, &w[3]) || ir_eval_op_host(in->op, z, &d);
}

/* A machine instruction computing a per-lane function of its sources;
 * its decoding is left in *prep when the answer needed it. */
static bool
vf_mach_evaluable_prep(const struct ir_instr *in, struct ir_mach_prep *prep, bool *prepared)
{
   const struct ir_mach *m = in->mach;
   if (!m || in->type != IR_TYPE_32 || in->nsrc > VF_SRCS || m->guard != IR_MACH_FIXED)
      return false;
   enum isa_sem s = m->insn.sem;
   if (isa_sem_arity(s) < 0 || opt_sem_has_effect(s) || opt_sem_is_texture(s))
      return false;
   switch (s) {
   case ISA_SEM_NOP:
   case ISA_SEM_END:
   case ISA_SEM_KILL:
   case ISA_SEM_SYNC:
   case ISA_SEM_DSX:
   case ISA_SEM_DSY:
   case ISA_SEM_FSWZADD:
   case ISA_SEM_VOTE:
      return false;
   default:
      break;
   }
   for (unsigned k = 0; k < m->insn.nsrc; k++)
      if (m->count[k] > 1 || (m->insn.src[k].flags & ISA_OPND_F_REL))
         return false;
   uint64_t z[VF_SRCS] = {0}, d;
   bool kill = false;
   ir_mach_eval_prepare(in, prep);
   *prepared = true;
   return ir_mach_eval_prepared(in, prep, z, &d, &kill);
}

static bool
vf_mach_evaluable(const struct ir_instr *in)
{
   struct ir_mach_prep prep;
   bool prepared = false;
   return vf_mach_evaluable_prep(in, &prep, &prepared);
}

/* Evaluates node i from its sources' values; false: no value (skip). */
static bool
vf_eval_node(struct vf *f, struct vf_node *x)
{
   const struct ir_instr *in = x->in;
   uint64_t s[VF_SRCS] = {0};
   for (unsigned k = 0; k < in->nsrc && k < VF_SRCS; k++)
      s[k] = f->n[x->src[k]].val;
   if (in->op == IR_OP_IMM) {
      x->val = in->type == IR_TYPE_32 ? (uint32_t)in->imm : in->imm;
      return true;
   }
   if (in->op == IR_OP_MACH) {
      bool kill = false;
      if (!ir_mach_eval_prepared(in, &x->prep, s, &x->val, &kill))
         return false;
      x->val = (uint32_t)x->val;
      return true;
   }
   if (vf_undefined(in->op, s))
      return false;
   uint32_t w[4] = {(uint32_t)s[0], (uint32_t)s[1], (uint32_t)s[2], (uint32_t)s[3]}, r;
   if (in->type == IR_TYPE_32 && ir_op_info[in->op].src != IR_TC_L &&
       ir_op_info[in->op].src != IR_TC_LW && vf_sem_op(in->op, w, &r)) {
      x->val = r;
      return true;
   }
   if (!ir_eval_op_host(in->op, s, &x->val))
      return false;
   if (in->type == IR_TYPE_32)
      x->val = (uint32_t)x->val;
   return true;
}

/* ------------------------------------------------------------------ */
/* Building the expression                                              */

static bool
vf_is_new(const struct vf *f, const struct ir_instr *in)
{
   return in->id >= f->first_new && in != f->old && in != f->saved;
}

static int
vf_find(const struct vf *f, const struct ir_instr *in)
{
   for (unsigned i = 0; i < f->nn; i++)
      if (f->n[i].in == in)
         return (int)i;
   return -1;
}

/* The node of value `as` read from side (1 old, 2 rep). */
static int
vf_node(struct vf *f, const struct ir_instr *as, unsigned side)
{
   const struct ir_instr *in = (side & 1) && as == f->saved_as && f->saved ? f->saved : as;
   int i = vf_find(f, in);
   if (i >= 0) {
      f->n[i].side |= (uint8_t)side;
      return i;
   }
   if (f->nn == VF_NODES) {
      f->overflow = true;
      return -1;
   }
   struct vf_node *x = &f->n[f->nn];
   memset(x, 0, sizeof(*x));
   x->in = in;
   x->as = as;
   x->side = (uint8_t)side;
   for (unsigned k = 0; k < VF_SRCS; k++)
      x->src[k] = -1;
   x->evaluable = in->op == IR_OP_MACH ? vf_mach_evaluable_prep(in, &x->prep, &x->prepared)
                                       : vf_ir_evaluable(in);
   return (int)f->nn++;
}

/* Makes node i interior: its sources become nodes. */
static bool
vf_expand(struct vf *f, int i)
{
   struct vf_node *x = &f->n[i];
   x->interior = true;
   if (x->expanded)
      return true;
   x->expanded = true;
   for (unsigned k = 0; k < x->in->nsrc; k++) {
      int s = vf_node(f, x->in->src[k], x->side);
      if (s < 0)
         return false;
      f->n[i].src[k] = s;
   }
   return true;
}

/* Propagates the sides from the roots through interior nodes. */
static void
vf_sides(struct vf *f)
{
   for (unsigned i = 0; i < f->nn; i++)
      f->n[i].side = 0;
   f->n[f->old_node].side |= 1;
   f->n[f->rep_node].side |= 2;
   for (bool more = true; more;) {
      more = false;
      for (unsigned i = 0; i < f->nn; i++) {
         struct vf_node *x = &f->n[i];
         for (unsigned k = 0; x->interior && k < x->in->nsrc; k++) {
            struct vf_node *s = &f->n[x->src[k]];
            if ((s->side | x->side) != s->side) {
               s->side |= x->side;
               more = true;
            }
         }
      }
   }
}

/* One more level: expands rep when it is an earlier value, else the
 * leaves whose sources are nodes already (they join the two sides), else
 * the leaves old alone reaches, else those rep alone reaches, else every
 * evaluable leaf. false when nothing changes. */
static bool
vf_deepen(struct vf *f)
{
   vf_sides(f);
   struct vf_node *r = &f->n[f->rep_node];
   if (!r->interior && r->evaluable && r->in->op != IR_OP_IMM)
      return vf_expand(f, f->rep_node); /* an earlier value standing for old */
   for (unsigned want = 0; want <= 3; want++) {
      int pick[VF_NODES];
      unsigned np = 0;
      for (unsigned i = 0; i < f->nn; i++) {
         const struct vf_node *x = &f->n[i];
         if (x->interior || !x->evaluable || !x->side)
            continue;
         bool take = want == 3 || x->side == want;
         for (unsigned k = 0; want == 0 && k < x->in->nsrc; k++)
            take |= vf_find(f, x->in->src[k]) >= 0;
         if (take)
            pick[np++] = (int)i;
      }
      if (!np)
         continue;
      for (unsigned i = 0; i < np; i++)
         if (!vf_expand(f, pick[i]))
            return false;
      return true;
   }
   return false;
}

/* ------------------------------------------------------------------ */
/* Values of the leaves                                                 */

static uint8_t
vf_kinds_of_use(const struct ir_instr *user, unsigned k, const struct ir_instr *v)
{
   bool wide = v->type == IR_TYPE_64;
   if (user->op == IR_OP_MACH) {
      const struct ir_mach *m = user->mach;
      for (unsigned o = 0; o < m->insn.nsrc; o++)
         if (m->count[o] == 1 && m->first[o] == k)
            return isa_type_is_float(sem_slot_type(m->model, &m->insn, ISA_SLOT_SRC(o), NULL))
                       ? SEM_SPK_F32
                       : SEM_SPK_I32;
      return SEM_SPK_BOOL;
   }
   switch (user->op) {
   case IR_OP_ISHL:
   case IR_OP_ISHR:
   case IR_OP_USHR:
   case IR_OP_ISHL64:
   case IR_OP_ISHR64:
   case IR_OP_USHR64:
      return k == 1 ? SEM_SPK_SHIFT : wide ? SEM_SPK_I64 : SEM_SPK_I32;
   case IR_OP_BCSEL:
      if (k == 0)
         return SEM_SPK_BOOL;
      return wide ? SEM_SPK_F64 | SEM_SPK_I64 : SEM_SPK_F32 | SEM_SPK_I32;
   case IR_OP_MOV:
   case IR_OP_PACK64:
      return wide ? SEM_SPK_F64 | SEM_SPK_I64 : SEM_SPK_F32 | SEM_SPK_I32;
   default:
      break;
   }
   const char *name = ir_op_info[user->op].name;
   bool fl = (ir_op_info[user->op].flags & IR_OPF_FLT) || name[0] == 'f' || name[0] == 's' ||
             name[0] == 'd';
   if (wide)
      return fl ? SEM_SPK_F64 : SEM_SPK_I64;
   return fl ? SEM_SPK_F32 : SEM_SPK_I32;
}

/* The current level's leaves and their tables. false: too many. */
static bool
vf_leaves(struct vf *f)
{
   f->nleaf = 0;
   for (unsigned i = 0; i < f->nn; i++)
      f->n[i].kinds = 0;
   for (unsigned i = 0; i < f->nn; i++) {
      const struct vf_node *x = &f->n[i];
      for (unsigned k = 0; x->interior && k < x->in->nsrc; k++) {
         struct vf_node *s = &f->n[x->src[k]];
         if (!s->interior || s->in->op == IR_OP_IMM)
            s->kinds |= vf_kinds_of_use(x->in, k, s->as);
      }
   }
   for (unsigned i = 0; i < f->nn; i++) {
      struct vf_node *x = &f->n[i];
      if (x->interior || !x->side)
         continue;
      if (x->in->op == IR_OP_IMM) { /* a constant: its own value */
         x->interior = true;
         continue;
      }
      if (f->nleaf == VF_LEAVES)
         return false;
      unsigned l = f->nleaf++;
      f->leaf[l] = (int)i;
      uint8_t kinds = x->kinds ? x->kinds : SEM_SPK_F32 | SEM_SPK_I32;
      if (x->as->type == IR_TYPE_64)
         kinds &= SEM_SPK_F64 | SEM_SPK_I64;
      else
         kinds &= (uint8_t) ~(SEM_SPK_F64 | SEM_SPK_I64);
      if (!kinds)
         kinds = x->as->type == IR_TYPE_64 ? SEM_SPK_I64 : SEM_SPK_I32;
      f->leaf_kinds[l] = kinds;
      f->ntab[l] = 0;
      for (unsigned t = 0; t < sem_nspecials && f->ntab[l] < VF_VALUES; t++)
         if (sem_specials[t].kinds & kinds)
            f->tab[l][f->ntab[l]++] = sem_specials[t].bits;
   }
   return true;
}

/* ------------------------------------------------------------------ */
/* Comparing                                                            */

static bool
vf_float_result(const struct ir_instr *in)
{
   if (in->op == IR_OP_MACH)
      return in->mach->insn.ndst && isa_type_is_float(sem_slot_type(
                                        in->mach->model, &in->mach->insn, ISA_SLOT_DST(0), NULL));
   switch (in->op) {
   case IR_OP_FNEG:
   case IR_OP_FABS:
   case IR_OP_FFLOOR:
   case IR_OP_FCEIL:
   case IR_OP_FTRUNC:
   case IR_OP_FROUND_EVEN:
   case IR_OP_FSIGN:
   case IR_OP_I2F:
   case IR_OP_U2F:
      return true;
   default:
      return (ir_op_info[in->op].flags & IR_OPF_FLT) && in->type == IR_TYPE_32;
   }
}

static bool
vf_isnan32(uint64_t v)
{
   return sem_isnan((uint32_t)v);
}

static double
vf_f(uint64_t v)
{
   return sem_f((uint32_t)v);
}

/* Whether after may stand for before under the rewrite's class. */
static const char *
vf_compare(const struct vf *f, enum opt_verify_class cls, uint64_t before, uint64_t after)
{
   if (before == after)
      return NULL;
   bool fl = vf_float_result(f->old);
   if (fl && vf_isnan32(before) && vf_isnan32(after))
      return NULL;
   if (!fl)
      return "the result changes";
   if (cls == OPT_VERIFY_INEXACT) {
      if (vf_isnan32(before) || ((before | after) & 0x7fffffffu) == 0)
         return NULL;
      return "the result changes beyond +-0 and NaN";
   }
   if (cls == OPT_VERIFY_FUSED) {
      double b = vf_f(before), a = vf_f(after);
      if (!isfinite(b))
         return NULL;
      double prod = 0;
      const struct vf_node *o = &f->n[f->rep_node];
      if (o->in->nsrc >= 2 && o->interior)
         prod = fabs(vf_f(f->n[o->src[0]].val) * vf_f(f->n[o->src[1]].val));
      double tol = ldexp(prod, -22) + ldexp(fmax(fabs(a), fabs(b)), -22) + ldexp(1.0, -148);
      if (fabs(a - b) <= tol)
         return NULL;
      return "the fused result differs by more than the product's rounding";
   }
   if (vf_isnan32(before) != vf_isnan32(after))
      return "a NaN appears or disappears";
   if (((before | after) & 0x7fffffffu) == 0)
      return "the sign of zero changes";
   return "the result changes";
}

/* Evaluates every interior node reachable from the roots, in order of
 * dependence, for the current leaf values. false: undefined, skip. */
static bool
vf_run(struct vf *f, const int *order, unsigned norder)
{
   for (unsigned i = 0; i < norder; i++)
      if (!vf_eval_node(f, &f->n[order[i]]))
         return false;
   return true;
}

static void
vf_topo(struct vf *f, int i, bool *seen, int *order, unsigned *n)
{
   if (seen[i])
      return;
   seen[i] = true;
   struct vf_node *x = &f->n[i];
   if (!x->interior)
      return;
   for (unsigned k = 0; k < x->in->nsrc; k++)
      vf_topo(f, x->src[k], seen, order, n);
   order[(*n)++] = i;
}

/* One assignment: idx[l] picks leaf l's value. */
static void
vf_try(struct vf *f, enum opt_verify_class cls, const unsigned *idx, const int *order,
       unsigned norder)
{
   for (unsigned l = 0; l < f->nleaf; l++)
      f->n[f->leaf[l]].val = f->tab[l][idx[l] % f->ntab[l]];
   if (!vf_run(f, order, norder))
      return;
   uint64_t before = f->n[f->old_node].val, after = f->n[f->rep_node].val;
   const char *why = vf_compare(f, cls, before, after);
   if (!why || f->bad)
      return;
   f->bad = true;
   f->bad_why = why;
   f->bad_before = before;
   f->bad_after = after;
   f->bad_n = f->nleaf;
   for (unsigned l = 0; l < f->nleaf; l++) {
      f->bad_leaf[l] = f->n[f->leaf[l]].val;
      f->bad_as[l] = f->n[f->leaf[l]].as;
   }
}

/* ------------------------------------------------------------------ */
/* Memo of the levels that passed                                       */

struct vf_memo_entry {
   uint64_t h;
   size_t len;
   uint8_t *key; /* NULL: an empty slot */
};

struct opt_verify_memo {
   struct vf_memo_entry *v; /* open addressing, cap a power of two */
   unsigned n, cap;
   size_t bytes;
};

/* What a level's verdict depends on, as bytes. */
struct vf_key {
   uint8_t b[VF_KEY_MAX];
   size_t n;
};

static void
vf_key_put(struct vf_key *k, const void *p, size_t n)
{
   memcpy(k->b + k->n, p, n);
   k->n += n;
}

static void
vf_key_byte(struct vf_key *k, unsigned v)
{
   k->b[k->n++] = (uint8_t)v;
}

/* Everything vf_try reads but the leaves' values: the class and whether
 * old's result is a float (vf_compare), the roots, the evaluation order
 * and each evaluated node's op, type, sources (as node numbers), constant
 * and machine record (ir_mach_eval_key), and each leaf's table (the kinds
 * that picked it from sem_specials). */
static void
vf_key_build(const struct vf *f, enum opt_verify_class cls, const int *order, unsigned norder,
             struct vf_key *k)
{
   k->n = 0;
   vf_key_byte(k, cls);
   vf_key_byte(k, vf_float_result(f->old));
   vf_key_byte(k, (unsigned)f->old_node);
   vf_key_byte(k, (unsigned)f->rep_node);
   vf_key_byte(k, norder);
   for (unsigned i = 0; i < norder; i++) {
      const struct vf_node *x = &f->n[order[i]];
      const struct ir_instr *in = x->in;
      vf_key_byte(k, (unsigned)order[i]);
      vf_key_put(k, &in->op, sizeof(in->op));
      vf_key_byte(k, in->type);
      vf_key_put(k, &in->nsrc, sizeof(in->nsrc));
      for (unsigned s = 0; s < in->nsrc && s < VF_SRCS; s++)
         vf_key_byte(k, (unsigned)x->src[s]);
      if (in->op == IR_OP_IMM)
         vf_key_put(k, &in->imm, sizeof(in->imm));
      if (in->op == IR_OP_MACH)
         k->n += ir_mach_eval_key(in, &x->prep, k->b + k->n);
   }
   vf_key_byte(k, f->nleaf);
   for (unsigned l = 0; l < f->nleaf; l++) {
      vf_key_byte(k, (unsigned)f->leaf[l]);
      vf_key_byte(k, f->leaf_kinds[l]);
   }
}

/* The memo's hash of a key, eight bytes a step (hash64 takes one: a
 * tenth of a rewrite's check went to it). Only the table's slots depend
 * on it, never an answer. */
static uint64_t
vf_key_hash(const struct vf_key *k)
{
   uint64_t h = 0x9e3779b97f4a7c15ull ^ k->n;
   size_t i = 0;
   for (; i + 8 <= k->n; i += 8) {
      uint64_t w;
      memcpy(&w, k->b + i, 8);
      h = (h ^ w) * 0xff51afd7ed558ccdull;
      h ^= h >> 32;
   }
   for (; i < k->n; i++)
      h = (h ^ k->b[i]) * 0x100000001b3ull;
   return h ^ (h >> 29);
}

static struct vf_memo_entry *
vf_memo_slot(const struct opt_verify_memo *m, const struct vf_key *k, uint64_t h)
{
   for (unsigned i = (unsigned)h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
      struct vf_memo_entry *e = &m->v[i];
      if (!e->key || (e->h == h && e->len == k->n && !memcmp(e->key, k->b, k->n)))
         return e;
   }
}

static bool
vf_memo_has(const struct opt_ctx *ctx, const struct vf_key *k, uint64_t h)
{
   const struct opt_verify_memo *m = ctx->verify_memo;
   return m && vf_memo_slot(m, k, h)->key;
}

static void
vf_memo_add(struct opt_ctx *ctx, const struct vf_key *k, uint64_t h)
{
   if (!ctx->verify_memo)
      ctx->verify_memo = xcalloc(1, sizeof(*ctx->verify_memo));
   struct opt_verify_memo *m = ctx->verify_memo;
   if (m->bytes + k->n > VF_MEMO_MAX_BYTES)
      return;
   if (2 * (m->n + 1) > m->cap) {
      struct opt_verify_memo g = {.cap = m->cap ? 2 * m->cap : 256, .n = m->n, .bytes = m->bytes};
      g.v = xcalloc(g.cap, sizeof(*g.v));
      for (unsigned i = 0; i < m->cap; i++)
         if (m->v[i].key) {
            unsigned j = (unsigned)m->v[i].h & (g.cap - 1);
            while (g.v[j].key)
               j = (j + 1) & (g.cap - 1);
            g.v[j] = m->v[i];
         }
      free(m->v);
      *m = g;
   }
   struct vf_memo_entry *e = vf_memo_slot(m, k, h);
   if (e->key)
      return;
   e->h = h;
   e->len = k->n;
   e->key = xmalloc(k->n);
   memcpy(e->key, k->b, k->n);
   m->n++;
   m->bytes += k->n;
}

static void
vf_memo_free(struct opt_verify_memo *m)
{
   for (unsigned i = 0; m && i < m->cap; i++)
      free(m->v[i].key);
   if (m)
      free(m->v);
   free(m);
}

static bool vf_level_eval(struct vf *f, enum opt_verify_class cls, const int *order,
                          unsigned norder);

/* Runs the current level over the table; true if no counterexample. A
 * level of a structure that passed before passes again (vf_memo). */
static bool
vf_level(struct vf *f, enum opt_verify_class cls)
{
   bool seen[VF_NODES] = {false};
   int order[VF_NODES];
   unsigned norder = 0;
   vf_topo(f, f->old_node, seen, order, &norder);
   vf_topo(f, f->rep_node, seen, order, &norder);
   for (unsigned i = 0; i < norder; i++) {
      struct vf_node *x = &f->n[order[i]];
      if (x->in->op == IR_OP_MACH && !x->prepared) {
         ir_mach_eval_prepare(x->in, &x->prep);
         x->prepared = true;
      }
   }
   struct vf_key k;
   vf_key_build(f, cls, order, norder, &k);
   uint64_t h = vf_key_hash(&k);
   bool ok = vf_memo_has(f->ctx, &k, h) || vf_level_eval(f, cls, order, norder);
   if (ok)
      vf_memo_add(f->ctx, &k, h);
   return ok;
}

static bool
vf_level_eval(struct vf *f, enum opt_verify_class cls, const int *order, unsigned norder)
{
   f->bad = false;
   unsigned idx[VF_LEAVES] = {0};
   unsigned long total = 1;
   for (unsigned l = 0; l < f->nleaf && total <= VF_BUDGET; l++)
      total *= f->ntab[l];
   if (total <= VF_BUDGET) {
      for (unsigned long c = 0; c < total && !f->bad; c++) {
         unsigned long r = c;
         for (unsigned l = 0; l < f->nleaf; l++) {
            idx[l] = (unsigned)(r % f->ntab[l]);
            r /= f->ntab[l];
         }
         vf_try(f, cls, idx, order, norder);
      }
      return !f->bad;
   }
   /* every pair of leaves over both tables; the others rotate */
   unsigned long rot = 0;
   for (unsigned a = 0; a < f->nleaf && !f->bad; a++)
      for (unsigned b = a + 1; b < f->nleaf && !f->bad; b++)
         for (unsigned i = 0; i < f->ntab[a] && !f->bad; i++)
            for (unsigned j = 0; j < f->ntab[b] && !f->bad; j++, rot++) {
               for (unsigned l = 0; l < f->nleaf; l++)
                  idx[l] = (unsigned)((rot * (2 * l + 3) + l) % f->ntab[l]);
               idx[a] = i;
               idx[b] = j;
               vf_try(f, cls, idx, order, norder);
            }
   return !f->bad;
}

/* ------------------------------------------------------------------ */
/* Reporting                                                            */

static void
vf_value_text(char *buf, size_t n, const struct ir_instr *as, uint64_t v)
{
   char num[64];
   bool wide = as->type == IR_TYPE_64;
   ir_format_imm(num, sizeof(num), v, wide);
   if (wide)
      snprintf(buf, n, "0x%016llx (%s)", (unsigned long long)v, num);
   else
      snprintf(buf, n, "0x%08x (%s)", (unsigned)v, num);
}

static char *
vf_instr_text(const struct ir_instr *in)
{
   char *t = ir_print_instr(in);
   size_t n = strlen(t);
   while (n && (t[n - 1] == '\n' || t[n - 1] == ' '))
      t[--n] = 0;
   return t;
}

static bool vf_error(struct opt_ctx *ctx, const struct ir_instr *old, const char *fmt, ...)
    DC_PRINTF(3, 4);

static bool
vf_error(struct opt_ctx *ctx, const struct ir_instr *old, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   char *m = xvasprintf(fmt, ap);
   va_end(ap);
   const char *what = opt_verify_what(ctx);
   ir_error(ctx->diags, ctx->sh, old->line, "rewrite verification: pass %s, rule '%s': %s",
            ctx->pass ? ctx->pass : "?", what[0] ? what : "?", m);
   free(m);
   ctx->failed = true;
   ctx->verify_failed++;
   return false;
}

static bool
vf_report(struct vf *f)
{
   size_t cap = 256 + 96 * VF_LEAVES, len = 0;
   char *ops = xmalloc(cap);
   ops[0] = 0;
   for (unsigned l = 0; l < f->bad_n; l++) {
      char v[96];
      vf_value_text(v, sizeof(v), f->bad_as[l], f->bad_leaf[l]);
      len +=
          (size_t)snprintf(ops + len, cap - len, "%s%%%u = %s", l ? ", " : "", f->bad_as[l]->id, v);
   }
   char b[96], a[96];
   vf_value_text(b, sizeof(b), f->old, f->bad_before);
   vf_value_text(a, sizeof(a), f->old, f->bad_after);
   char *ot = vf_instr_text(f->saved ? f->saved : f->old), *rt = vf_instr_text(f->rep);
   bool r = vf_error(f->ctx, f->old, "%s: '%s' became '%s'; with %s: before %s, after %s",
                     f->bad_why, ot, rt, f->bad_n ? ops : "no operands", b, a);
   free(ot);
   free(rt);
   free(ops);
   return r;
}

/* ------------------------------------------------------------------ */
/* Entry points                                                         */

static bool
vf_enabled(const struct opt_ctx *ctx)
{
   return ctx && !ctx->opts.no_verify && !ctx->failed;
}

/* Flags and permission of the class, before any value. */
static bool
vf_check_flags(struct opt_ctx *ctx, const struct ir_instr *old, const struct ir_instr *rep,
               enum opt_verify_class cls)
{
   if (cls != OPT_VERIFY_EXACT && !opt_inexact_ok(old))
      return vf_error(ctx, old, "an inexact rewrite of a %s value %%%u",
                      old->flags & IR_VF_PRECISE ? "precise" : "invariant", old->id);
   if (cls == OPT_VERIFY_INEXACT && !ctx->opts.inexact)
      return vf_error(ctx, old, "an inexact rewrite of %%%u without --opt inexact", old->id);
   if (cls == OPT_VERIFY_FUSED && !ctx->opts.fuse_ffma)
      return vf_error(ctx, old, "a fusion of %%%u without --opt fuse-ffma", old->id);
   if (rep && (old->flags & IR_VF_INVARIANT) && !(rep->flags & IR_VF_INVARIANT))
      return vf_error(ctx, old, "%%%u replaces invariant %%%u without the invariant flag", rep->id,
                      old->id);
   if (rep && rep != old && rep->op == old->op && rep->op != IR_OP_IMM &&
       rep->id < ctx->verify_first_new && (old->flags & IR_VF_PRECISE) &&
       !(rep->flags & IR_VF_PRECISE))
      return vf_error(ctx, old, "%%%u stands for precise %%%u without the precise flag", rep->id,
                      old->id);
   return true;
}

/* Same op, fields and sources: the same value for any pure op. */
static bool
vf_same_instr(const struct ir_instr *a, const struct ir_instr *b)
{
   if (a->op != b->op || a->type != b->type || a->nsrc != b->nsrc || a->imm != b->imm ||
       a->op == IR_OP_MACH)
      return false;
   for (unsigned f = 0; f < IR_FIELD_COUNT; f++)
      if (ir_field_get(a, (enum ir_field)f) != ir_field_get(b, (enum ir_field)f))
         return false;
   for (unsigned k = 0; k < a->nsrc; k++)
      if (a->src[k] != b->src[k] || (a->role && b->role && a->role[k] != b->role[k]))
         return false;
   return !(ir_op_info[a->op].flags & (IR_OPF_SIDE | IR_OPF_LOAD));
}

static bool
vf_verify(struct opt_ctx *ctx, const struct ir_instr *old, const struct ir_instr *rep,
          enum opt_verify_class cls)
{
   ctx->verify_count++;
   struct vf *f = xmalloc(sizeof(*f));
   memset(f, 0, offsetof(struct vf, tab));
   struct opt_verify_saved *sv = ctx->verify_saved;
   f->ctx = ctx;
   f->old = old;
   f->rep = rep;
   if (sv && sv->in) {
      f->saved = &sv->copy;
      f->saved_as = sv->in;
   }
   f->first_new = ctx->verify_first_new;
   f->old_node = vf_node(f, old, 1);
   f->rep_node = vf_node(f, rep, 2);
   bool ok = true;
   if (!f->n[f->old_node].evaluable) {
      ctx->verify_skipped++; /* not a value this file can compute */
      free(f);
      return true;
   }
   vf_expand(f, f->old_node);
   if ((rep == old || rep == f->saved_as) && f->n[f->rep_node].evaluable)
      vf_expand(f, f->rep_node); /* changed in place: the rewrite's own result */
   for (unsigned level = 0;; level++) {
      /* what the rewrite built is always evaluated */
      for (unsigned i = 0; i < f->nn; i++)
         if (f->n[i].evaluable && !f->n[i].interior && vf_is_new(f, f->n[i].in))
            vf_expand(f, (int)i);
      vf_sides(f);
      if (f->overflow || !vf_leaves(f)) {
         if (level) /* failed on the smaller expression, no room for a larger one */
            ok = vf_report(f);
         else
            ctx->verify_skipped++;
         break;
      }
      if (vf_level(f, cls))
         break;
      if (level + 1 == VF_LEVELS || !vf_deepen(f) || f->overflow) {
         ok = vf_report(f);
         break;
      }
   }
   free(f);
   return ok;
}

bool
opt_verify_replace(struct opt_ctx *ctx, const struct ir_instr *old, const struct ir_instr *rep,
                   enum opt_verify_class cls)
{
   if (!vf_enabled(ctx))
      return true;
   if (!vf_check_flags(ctx, old, rep, cls))
      return false;
   if (old->op == IR_OP_PHI && rep->op == IR_OP_PHI && rep->block == old->block &&
       rep->nsrc == old->nsrc && !memcmp(rep->src, old->src, old->nsrc * sizeof(*old->src)) &&
       (!old->pred || !memcmp(rep->pred, old->pred, old->nsrc * sizeof(*old->pred)))) {
      ctx->verify_count++; /* two phis of one block choosing the same values */
      return true;
   }
   if (old->op == IR_OP_PHI) { /* a trivial phi: every source is rep or itself */
      ctx->verify_count++;
      for (unsigned k = 0; k < old->nsrc; k++)
         if (old->src[k] != rep && old->src[k] != old)
            return vf_error(ctx, old, "phi %%%u is not trivial: source %u is %%%u, not %%%u",
                            old->id, k, old->src[k]->id, rep->id);
      return true;
   }
   if (vf_same_instr(old, rep)) {
      ctx->verify_count++;
      return true;
   }
   bool old_eval = old->op == IR_OP_MACH ? vf_mach_evaluable(old) : vf_ir_evaluable(old);
   if (!old_eval && !(ir_op_info[old->op].flags & (IR_OPF_SIDE | IR_OPF_LOAD)) &&
       rep->op == old->op) { /* a merge of values this file cannot compute */
      ctx->verify_count++;
      return vf_error(ctx, old, "%%%u and %%%u differ in a field or a source", old->id, rep->id);
   }
   return vf_verify(ctx, old, rep, cls);
}

void
opt_verify_begin(struct opt_ctx *ctx, const struct ir_instr *in)
{
   if (!vf_enabled(ctx))
      return;
   if (!ctx->verify_saved)
      ctx->verify_saved = xcalloc(1, sizeof(*ctx->verify_saved));
   struct opt_verify_saved *s = ctx->verify_saved;
   s->in = NULL;
   if (in->op != IR_OP_MACH || in->nsrc > VF_SRCS)
      return;
   s->in = in;
   s->copy = *in;
   s->mach = *in->mach;
   s->copy.mach = &s->mach;
   memcpy(s->src, in->src, in->nsrc * sizeof(*s->src));
   s->copy.src = s->src;
   ctx->verify_first_new = ctx->sh ? ctx->sh->nvalues : 0;
}

bool
opt_verify_end(struct opt_ctx *ctx, const struct ir_instr *old, const struct ir_instr *rep,
               const char *what)
{
   struct opt_verify_saved *s = ctx->verify_saved;
   if (!vf_enabled(ctx) || !s || !s->in)
      return true;
   if (what != ctx->verify_what) { /* else the text noted last stands */
      snprintf(ctx->verify_what, sizeof(ctx->verify_what), "%s", what);
      ctx->verify_fmt = NULL;
   }
   bool ok = true;
   if (!vf_check_flags(ctx, old, rep, OPT_VERIFY_EXACT))
      ok = false;
   else if (!vf_mach_evaluable(&s->copy) && s->in == old)
      ctx->verify_skipped++;
   else
      ok = vf_verify(ctx, old, rep, OPT_VERIFY_EXACT);
   s->in = NULL;
   return ok;
}

void
opt_verify_fini(struct opt_ctx *ctx)
{
   free(ctx->verify_saved);
   ctx->verify_saved = NULL;
   vf_memo_free(ctx->verify_memo);
   ctx->verify_memo = NULL;
}

bool
opt_verify_remove(struct opt_ctx *ctx, const struct ir_instr *in)
{
   if (!vf_enabled(ctx))
      return true;
   ctx->verify_count++;
   if (ir_instr_has_effect(in))
      return vf_error(ctx, in, "removes %%%u = %s, which has an effect", in->id,
                      ir_op_info[in->op].name);
   return true;
}
