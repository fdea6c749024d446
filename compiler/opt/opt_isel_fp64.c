/*
 * Instruction selection of doubles (see opt_isel.h), on models with FP64
 * instructions (sm50 DADD, DMUL, DFMA, DSETP, DMNMX, F2F, F2I, I2F; gfx9
 * the VOP3 f64 ops, v_min/max_f64, v_cmp_*_f64 and the conversions); the
 * ops they lack were expanded by opt_fp64 first.
 *
 * No 64-bit value survives selection: every one becomes a pair of 32-bit
 * values, its low and high words.
 *   - pack64 a, b is the pair (a, b); unpack64_lo/hi read a pair's word;
 *     a 64-bit immediate is two immediates, a phi two phis, a bcsel two;
 *   - an FP64 instruction reads each 64-bit operand as a group of two
 *     values {lo, hi} (consecutive registers, an even first one: RA; a
 *     word that is an immediate or a constant is copied once, where the
 *     value is made), and
 *     its 64-bit result is a tuple whose two extracts follow it, like a
 *     texture result's: RA gives it a register pair (sm50: `count: 2`,
 *     aligned as the model says; gfx9: one 64-bit operand, v[n:n+1], whose
 *     pair opt_result_regs counts) and the extracts take the words over;
 *   - dneg and dabs are flags on the operands that read them, where the
 *     slots have them; a pair of them is made only for other readers, as
 *     DMNMX (f)x, (f)x, PT (gfx9: v_max_f64 (f)x, (f)x), which makes a NaN
 *     the quiet one like TGSI's double ops (a bit flip would keep the
 *     payload);
 *   - a compare is DSETP into a predicate, its IR result (0/~0) a select
 *     of the predicate, which ifs and selects read directly; on lane-mask
 *     models (gfx9) v_cmp_*_f64 into an SGPR pair, the IR result a
 *     v_cndmask_b32 of it.
 * Integer 64-bit ops are refused ("64-bit integer").
 */
#include "compiler/opt/opt_isel.h"

#include <stdlib.h>

struct split {
   struct isel *s;
   struct ir_instr **lo, **hi;   /* by value id (of the values before the split) */
   struct ir_instr **vsrc;       /* dneg/dabs by value id: the source, until a pair is made */
   struct ir_instr **glo, **ghi; /* by value id: the words as a group reads them */
   unsigned n;
   struct ir_instr **gone; /* generic instructions replaced */
   unsigned ngone, gone_cap;
};

static bool
is_wide(const struct ir_instr *v)
{
   return v->type == IR_TYPE_64;
}

static bool
reads_wide(const struct ir_instr *in)
{
   for (unsigned k = 0; k < in->nsrc; k++)
      if (is_wide(in->src[k]))
         return true;
   return false;
}

static void
set_pair(struct split *sp, const struct ir_instr *v, struct ir_instr *lo, struct ir_instr *hi)
{
   if (v->id < sp->n) {
      sp->lo[v->id] = lo;
      sp->hi[v->id] = hi;
   }
}

static bool
has_pair(const struct split *sp, const struct ir_instr *v)
{
   return v->id < sp->n && sp->lo[v->id] && sp->hi[v->id];
}

static void
gone(struct split *sp, struct ir_instr *in)
{
   VEC_PUSH(sp->gone, sp->ngone, sp->gone_cap, in);
}

/* ------------------------------------------------------------------ */
/* Operands                                                             */

static bool
slot_has(const struct isa_model *m, unsigned op, unsigned k, unsigned flags)
{
   struct isa_slot_info si;
   if (!isa_slot_info(m, op, false, k, &si))
      return false;
   return (!(flags & ISA_OPND_F_NEG) || si.neg) && (!(flags & ISA_OPND_F_ABS) || si.abs);
}

/* The value v reads through dneg/dabs, and their flags. */
static struct ir_instr *
view(const struct split *sp, struct ir_instr *v, unsigned *flags)
{
   if (v->id >= sp->n || !sp->vsrc[v->id]) {
      *flags = 0;
      return v;
   }
   struct ir_instr *b = view(sp, sp->vsrc[v->id], flags);
   if (v->op == IR_OP_DABS)
      *flags = ISA_OPND_F_ABS;
   else
      *flags ^= ISA_OPND_F_NEG;
   return b;
}

static void build_pair(struct split *sp, struct ir_instr *v);

/* Word c of 64-bit value v (a dneg/dabs gets its pair now). */
static struct ir_instr *
word(struct split *sp, struct ir_instr *v, unsigned c)
{
   if (!has_pair(sp, v) && v->id < sp->n && sp->vsrc[v->id])
      build_pair(sp, v);
   if (!has_pair(sp, v)) { /* failed before: ctx says why */
      isel_unsupported(sp->s, v, "a 64-bit value without its words");
      return v;
   }
   return c ? sp->hi[v->id] : sp->lo[v->id];
}

static bool
not_in_regs(const struct ir_instr *w)
{
   return w->op == IR_OP_IMM || w->op == IR_OP_LOAD_CONST;
}

/* The words of v as groups read them: a word that is an immediate or a
 * constant is copied into a register once, where v is made (RA would copy
 * it before every reader). */
static void
group_words(struct split *sp, struct ir_instr *v, struct ir_instr **g)
{
   g[0] = word(sp, v, 0);
   g[1] = word(sp, v, 1);
   if (!not_in_regs(g[0]) && !not_in_regs(g[1]))
      return;
   if (v->id >= sp->n || v->op == IR_OP_PHI)
      return;
   if (!sp->glo[v->id])
      for (unsigned c = 0; c < 2; c++)
         *(c ? &sp->ghi[v->id] : &sp->glo[v->id]) =
             not_in_regs(g[c]) ? opt_copy_before(sp->s->sh, v, g[c]) : g[c];
   g[0] = sp->glo[v->id];
   g[1] = sp->ghi[v->id];
}

/* Operand k of t reads v: a group {lo, hi} for a 64-bit value (a dneg or
 * dabs as the flag, where the slot takes it), else v. */
static void
operand(struct split *sp, struct ir_instr *t, unsigned k, struct ir_instr *v)
{
   if (!is_wide(v)) {
      ir_mach_set_src(t, k, &v, 1);
      return;
   }
   unsigned flags;
   struct ir_instr *b = view(sp, v, &flags);
   if (b == v || !slot_has(sp->s->m, t->mach->insn.op, k, flags))
      b = v, flags = 0;
   struct ir_instr *g[2];
   group_words(sp, b, g);
   t->mach->insn.src[k].flags |= (uint8_t)flags;
   ir_mach_set_src(t, k, g, 2);
}

/* The FP64 instruction of semantics sem reading srcs before pos; a 64-bit
 * result becomes a tuple and its two extracts (*lo, *hi). */
static struct ir_instr *
wide_op(struct split *sp, struct ir_instr *pos, enum isa_sem sem, struct ir_instr *const *srcs,
        unsigned n, struct ir_instr **lo, struct ir_instr **hi)
{
   struct isel *s = sp->s;
   if (s->op[sem] < 0)
      return isel_unsupported(s, pos, isa_sem_name(sem)), NULL;
   /* A 64-bit result becomes a tuple of two words: the model must make it
    * a register pair (sm50: count 2; gfx9: a 64-bit VGPR operand). */
   struct isa_insn x = {.op = (uint16_t)s->op[sem]};
   if (lo && !opt_tuple_result(s->m, &x))
      return isel_unsupported(s, pos, "FP64 results are not register pairs in this model"), NULL;
   struct ir_instr *t = ir_mach_create(s->sh, (unsigned)s->op[sem]);
   for (unsigned k = 0; k < n; k++)
      operand(sp, t, k, srcs[k]);
   t->flags = pos->flags;
   t->line = pos->line;
   ir_insert_before(pos, t);
   if (!lo)
      return t;
   t->type = IR_TYPE_V4;
   struct ir_instr *after = t;
   for (unsigned c = 0; c < 2; c++) {
      struct ir_instr *e = ir_instr_create(s->sh, IR_OP_EXTRACT, 1);
      ir_set_src(e, 0, t);
      e->comp = (int32_t)c;
      e->type = IR_TYPE_32;
      e->flags = pos->flags;
      e->line = pos->line;
      ir_insert_after(after, e);
      after = e;
      *(c ? hi : lo) = e;
   }
   return t;
}

/* The pair of a dneg or dabs that some reader takes whole: DMNMX (f)x,
 * (f)x, PT (x itself, or a NaN made the quiet one), at the dneg. */
static void
build_pair(struct split *sp, struct ir_instr *v)
{
   struct isel *s = sp->s;
   unsigned flags;
   struct ir_instr *b = view(sp, v, &flags), *lo, *hi;
   struct ir_instr *src[2] = {b, b};
   bool fixed = s->op[ISA_SEM_DMNMX] >= 0; /* else v_max_f64 */
   struct ir_instr *t = wide_op(sp, v, fixed ? ISA_SEM_DMNMX : ISA_SEM_DMAX, src, 2, &lo, &hi);
   if (!t)
      return;
   t->mach->insn.src[0].flags |= (uint8_t)flags;
   t->mach->insn.src[1].flags |= (uint8_t)flags;
   if (fixed)
      ir_mach_set_fixed_reg(t, 2, (unsigned)s->pred, (unsigned)s->true_reg, 0);
   set_pair(sp, v, lo, hi);
}

/* DSETP p = a COND b (AND PT); the IR mask is a select of p. */
static struct ir_instr *
compare(struct split *sp, struct ir_instr *in, const char *cond)
{
   struct isel *s = sp->s;
   if (s->lanemask) { /* gfx9: a lane mask, the value through v_cndmask */
      struct ir_instr *r =
          isel_in_mask_file(s, wide_op(sp, in, ISA_SEM_DCMP, in->src, 2, NULL, NULL));
      if (!r)
         return NULL;
      isel_set_cond(s, r, cond);
      struct ir_instr *if_false = isel_imm(s, in, 0), *if_true = isel_imm(s, in, ~0u);
      return isel_build3(s, in, ISA_SEM_SEL, if_true, r, if_false);
   }
   struct ir_instr *p = wide_op(sp, in, ISA_SEM_DSETP, in->src, 2, NULL, NULL);
   if (!p)
      return NULL;
   ir_mach_set_fixed_reg(p, 2, (unsigned)s->pred, (unsigned)s->true_reg, 0);
   p->mach->insn.dst[1] = (struct isa_opnd){
       .kind = ISA_OPND_REG, .file = (uint8_t)s->pred, .index = (uint16_t)s->true_reg};
   struct isa_op_info oi;
   isa_op_info(s->m, p->mach->insn.op, &oi);
   isel_set_mod(s, p, oi.flip_mod >= 0 ? oi.flip_mod : s->mod_cond, cond);
   ir_mach_get(s->m, p)->reg = (struct ir_reg){(int16_t)s->pred, 0, 0};
   return isel_mask_of_pred(s, in, p);
}

/* DMNMX a, b, PT (minimum) or !PT (maximum); v_min_f64/v_max_f64 where
 * the model has no DMNMX (gfx9). */
static void
minmax(struct split *sp, struct ir_instr *in, bool min)
{
   struct isel *s = sp->s;
   struct ir_instr *lo, *hi;
   bool fixed = s->op[ISA_SEM_DMNMX] >= 0;
   enum isa_sem sem = fixed ? ISA_SEM_DMNMX : min ? ISA_SEM_DMIN : ISA_SEM_DMAX;
   struct ir_instr *t = wide_op(sp, in, sem, in->src, 2, &lo, &hi);
   if (!t)
      return;
   if (fixed)
      ir_mach_set_fixed_reg(t, 2, (unsigned)s->pred, (unsigned)s->true_reg,
                            min ? 0 : ISA_OPND_F_NOT);
   set_pair(sp, in, lo, hi);
}

/* ------------------------------------------------------------------ */
/* One instruction                                                      */

static enum isa_sem
wide_sem(enum ir_op op)
{
   switch (op) {
   case IR_OP_DADD:
      return ISA_SEM_DADD;
   case IR_OP_DMUL:
      return ISA_SEM_DMUL;
   case IR_OP_DFMA:
      return ISA_SEM_DFMA;
   case IR_OP_DFLOOR:
      return ISA_SEM_DFLOOR;
   case IR_OP_DCEIL:
      return ISA_SEM_DCEIL;
   case IR_OP_DTRUNC:
      return ISA_SEM_DTRUNC;
   case IR_OP_DROUND_EVEN:
      return ISA_SEM_DRNDNE;
   case IR_OP_F2D:
      return ISA_SEM_F2D;
   case IR_OP_I2D:
      return ISA_SEM_I2D;
   case IR_OP_U2D:
      return ISA_SEM_U2D;
   case IR_OP_D2F:
      return ISA_SEM_D2F;
   case IR_OP_D2I:
      return ISA_SEM_D2I;
   case IR_OP_D2U:
      return ISA_SEM_D2U;
   default:
      return ISA_SEM_NOP;
   }
}

static const char *
compare_cond(enum ir_op op)
{
   switch (op) {
   case IR_OP_DEQ:
      return "eq";
   case IR_OP_DNE:
      return "ne";
   case IR_OP_DLT:
      return "lt";
   case IR_OP_DGE:
      return "ge";
   default:
      return NULL;
   }
}

/* Splits or selects one instruction making or reading a 64-bit value. */
static void
split_one(struct split *sp, struct ir_instr *in)
{
   struct isel *s = sp->s;
   struct ir_instr *lo = NULL, *hi = NULL, *r = NULL;
   enum isa_sem sem = wide_sem(in->op);
   switch (in->op) {
   case IR_OP_IMM:
      lo = isel_imm(s, in, (uint32_t)in->imm);
      hi = isel_imm(s, in, (uint32_t)(in->imm >> 32));
      break;
   case IR_OP_PACK64:
      lo = in->src[0];
      hi = in->src[1];
      break;
   case IR_OP_MOV:
      lo = word(sp, in->src[0], 0);
      hi = word(sp, in->src[0], 1);
      break;
   case IR_OP_DNEG:
   case IR_OP_DABS:
      sp->vsrc[in->id] = in->src[0];
      gone(sp, in);
      return;
   case IR_OP_PHI: /* sources once every pair is known */
      for (unsigned c = 0; c < 2; c++) {
         struct ir_instr *p = ir_instr_create(s->sh, IR_OP_PHI, in->nsrc);
         p->type = IR_TYPE_32;
         p->line = in->line;
         for (unsigned k = 0; k < in->nsrc; k++)
            p->pred[k] = in->pred[k];
         ir_insert_before(in, p);
         *(c ? &hi : &lo) = p;
      }
      break;
   case IR_OP_BCSEL:
      for (unsigned c = 0; c < 2; c++) {
         struct ir_instr *a_word = word(sp, in->src[1], c);
         struct ir_instr *b_word = word(sp, in->src[2], c);
         struct ir_instr *v[3] = {in->src[0], a_word, b_word};
         *(c ? &hi : &lo) = opt_build_before(s->sh, in, IR_OP_BCSEL, 3, v);
      }
      break;
   case IR_OP_UNPACK64_LO:
   case IR_OP_UNPACK64_HI:
      r = word(sp, in->src[0], in->op == IR_OP_UNPACK64_HI);
      break;
   case IR_OP_DMIN:
   case IR_OP_DMAX:
      minmax(sp, in, in->op == IR_OP_DMIN);
      gone(sp, in);
      return;
   case IR_OP_DEQ:
   case IR_OP_DNE:
   case IR_OP_DLT:
   case IR_OP_DGE:
      r = compare(sp, in, compare_cond(in->op));
      break;
   default:
      if (sem == ISA_SEM_NOP) {
         isel_unsupported(s, in, "64-bit integer");
         return;
      }
      r = wide_op(sp, in, sem, in->src, in->nsrc, is_wide(in) ? &lo : NULL, &hi);
      if (!r)
         return;
      if (is_wide(in))
         r = NULL;
      break;
   }
   if (r)
      ir_replace_uses(s->sh, in, r);
   else if (lo && hi)
      set_pair(sp, in, lo, hi);
   gone(sp, in);
}

/* The phis' sources, once every pair exists. */
static void
fill_phis(struct split *sp)
{
   for (unsigned i = 0; i < sp->ngone; i++) {
      struct ir_instr *in = sp->gone[i];
      if (in->op != IR_OP_PHI || !has_pair(sp, in))
         continue;
      for (unsigned k = 0; k < in->nsrc; k++) {
         struct ir_instr *v = in->src[k];
         ir_set_src(sp->lo[in->id], k, word(sp, v, 0));
         ir_set_src(sp->hi[in->id], k, word(sp, v, 1));
      }
   }
}

bool
isel_fp64(struct isel *s)
{
   struct ir_instr **order;
   unsigned n = ir_program_order(s->sh, &order);
   bool any = false;
   for (unsigned i = 0; i < n && !any; i++)
      any = is_wide(order[i]) || reads_wide(order[i]);
   if (!any || s->op[ISA_SEM_DADD] < 0) { /* no FP64: select_instr refuses them */
      free(order);
      return false;
   }
   struct split sp = {.s = s, .n = s->sh->nvalues};
   sp.lo = xcalloc(sp.n + 1, sizeof(*sp.lo));
   sp.hi = xcalloc(sp.n + 1, sizeof(*sp.hi));
   sp.vsrc = xcalloc(sp.n + 1, sizeof(*sp.vsrc));
   sp.glo = xcalloc(sp.n + 1, sizeof(*sp.glo));
   sp.ghi = xcalloc(sp.n + 1, sizeof(*sp.ghi));
   for (unsigned i = 0; i < n && !s->ctx->failed; i++)
      if (!order[i]->removed && (is_wide(order[i]) || reads_wide(order[i])))
         split_one(&sp, order[i]);
   if (!s->ctx->failed) {
      fill_phis(&sp);
      for (unsigned i = sp.ngone; i-- > 0;)
         ir_instr_remove(sp.gone[i]);
   }
   free(order);
   free(sp.lo);
   free(sp.hi);
   free(sp.vsrc);
   free(sp.glo);
   free(sp.ghi);
   free(sp.gone);
   return true;
}
