/*
 * The SDWA peephole (gfx9): byte and half-word extractions, partial
 * results and their merges become sub-dword selects of VOP1/VOP2
 * instructions. Runs on the selected SSA machine IR, after isel; a model
 * whose ops have no source-select modifier (role src0_sel) is left alone.
 * The SDWA form of an op is the model's op of the same semantics and
 * operand types that takes the select modifiers; legality is the
 * legalizer's (no literal, one scalar on the constant bus), and a rewrite
 * it cannot make legal is undone.
 *
 * Three rewrites, each one opt_transform and, replacing a value by an
 * equal one, checked by the per-rewrite verifier:
 *   1. source select: an operand reading a field of y -- y & 0xff,
 *      y & 0xffff, y >> 24, y >> 16 (ashr: SEXT), (y >> 8k) & 0xff,
 *      (y << a) >> b -- reads y with BYTE_n/WORD_n (integer ops may sign
 *      extend, float ops may not). A select on an operand that already has
 *      one composes: BYTE_0 of a WORD_1 selection is BYTE_2; a field that
 *      does not fit inside the existing one is left alone.
 *   2. destination select: x << 16, x << 24, x & 0xffff, x & 0xff of a
 *      result x nothing else reads becomes x's op with dst_sel WORD_1,
 *      BYTE_3, WORD_0, BYTE_0 and UNUSED_PAD (the other bits 0).
 *   3. preserve merge: a | b where a is a destination select of field F
 *      (PAD) and b is 0 inside F (another select outside F, a mask, or a
 *      16-bit VOP result: GFX9 zeroes its high half) becomes a's op with
 *      UNUSED_PRESERVE writing into b's register. SSA cannot say that, so
 *      the instruction is tied to b (ir_mach.tied): b is an implicit
 *      source, live up to it (liveness, scheduler), and the allocator puts
 *      the result in b's register; a b that is read later is copied first.
 * Faults: SDWA_SEL_COMPOSE, SDWA_PAD_PRESERVE, SDWA_SEXT_PAD,
 * SDWA_PRESERVE_NO_USE, HI16_KEPT (hooks below, each next to the correct
 * choice).
 */
#include "compiler/ir/ir.h"
#include "isa/sem.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

struct sdwa {
   struct ir_shader *sh;
   struct opt_ctx *ctx;
   const struct isa_model *m;
   int mod_dsel, mod_dun, mod_ssel[2];
   struct ir_node **ifs;
   unsigned nifs;
   bool progress;
   struct sdwa_memo *memo; /* sdwa_op's answers, by op */
};

/* sdwa_op's answer for an op whose operands have these types: it depends
 * on nothing else, and finding it checks every op of the semantics. */
struct sdwa_memo {
   bool known;
   enum isa_type type[3];
   int op;
};

/* A field of a 32-bit value: bits [off, off + bits), sign-extended or not. */
struct field {
   struct ir_instr *of;
   unsigned off, bits;
   bool sext;
};

struct ir_instr *
opt_tied_src(const struct ir_instr *in)
{
   if (in->op != IR_OP_MACH || in->mach->tied == IR_MACH_FIXED || in->mach->tied >= in->nsrc)
      return NULL;
   return in->src[in->mach->tied];
}

static int
cmp_node(const void *a, const void *b)
{
   uintptr_t x = (uintptr_t) * (struct ir_node *const *)a,
             y = (uintptr_t) * (struct ir_node *const *)b;
   return x < y ? -1 : x > y;
}

/* The tree's ifs, sorted by address: the pass changes no control flow. */
static void
collect_ifs(struct sdwa *w, const struct ir_list *l, unsigned *cap)
{
   for (unsigned i = 0; i < l->n; i++) {
      struct ir_node *n = l->v[i];
      if (n->kind == IR_NODE_IF)
         VEC_PUSH(w->ifs, w->nifs, *cap, n);
      collect_ifs(w, &n->then_list, cap);
      collect_ifs(w, &n->else_list, cap);
      collect_ifs(w, &n->body, cap);
   }
}

/* Reads of v, counted up to max: live entries of its use list (which the
 * validator keeps exact), sources and the conditions of ifs in the tree.
 * Counting them here costs v's uses (recounting the program after each
 * rewrite made the pass quadratic), and stopping at max keeps a value
 * read everywhere (a shared constant) from costing its uses at each
 * question. */
static unsigned
uses_upto(const struct sdwa *w, const struct ir_instr *v, unsigned max)
{
   unsigned n = 0;
   for (unsigned i = 0; i < v->nuses && n < max; i++) {
      const struct ir_use *u = &v->uses[i];
      n += ir_use_live(v, u) &&
           (u->user || (w->nifs && bsearch(&u->node, w->ifs, w->nifs, sizeof(*w->ifs), cmp_node)));
   }
   return n;
}

static unsigned
sel_of(unsigned off, unsigned bits)
{
   return bits == 8    ? SEM_SEL_BYTE0 + off / 8
          : bits == 16 ? SEM_SEL_WORD0 + off / 16
                       : SEM_SEL_DWORD;
}

static const char *
sel_name(const struct sdwa *w, unsigned sel)
{
   return isa_mod_value_name(w->m, (unsigned)w->mod_dsel, (int)sel);
}

/* ------------------------------------------------------------------ */
/* Reading machine instructions                                         */

static bool
is_plain_mach(const struct ir_instr *in)
{
   return in && !in->removed && in->op == IR_OP_MACH && in->mach->guard == IR_MACH_FIXED &&
          in->mach->tied == IR_MACH_FIXED;
}

static int
mod_val(const struct sdwa *w, const struct ir_instr *in, int mod, int def)
{
   (void)w;
   return mod >= 0 ? in->mach->insn.mod[mod] : def;
}

/* Operand k's value, when it is one value without modifiers. */
static struct ir_instr *
opnd(const struct ir_instr *in, unsigned k)
{
   const struct ir_mach *m = in->mach;
   if (k >= m->insn.nsrc || m->count[k] != 1 || m->insn.src[k].flags)
      return NULL;
   return in->src[m->first[k]];
}

/* The immediate v is, directly or as a copy the legalizer made of it. */
static bool
imm_of(const struct ir_instr *v, uint32_t *bits)
{
   if (v && v->op == IR_OP_MACH && v->mach->insn.sem == ISA_SEM_MOV && v->mach->insn.nsrc == 1 &&
       v->mach->count[0] == 1 && !v->mach->insn.src[0].flags && v->mach->guard == IR_MACH_FIXED)
      v = v->src[v->mach->first[0]];
   if (!v || v->op != IR_OP_IMM || v->type != IR_TYPE_32)
      return false;
   *bits = (uint32_t)v->imm;
   return true;
}

static bool
imm_is(const struct ir_instr *v, uint32_t bits)
{
   uint32_t b;
   return imm_of(v, &b) && b == bits;
}

/* A whole-register two-source op of semantics sem: its sources. */
static bool
binop(const struct sdwa *w, const struct ir_instr *in, enum isa_sem sem, struct ir_instr **a,
      struct ir_instr **b)
{
   if (!is_plain_mach(in) || in->mach->insn.sem != sem || in->mach->insn.nsrc != 2)
      return false;
   if (mod_val(w, in, w->mod_dsel, SEM_SEL_DWORD) != SEM_SEL_DWORD ||
       mod_val(w, in, w->mod_ssel[0], SEM_SEL_DWORD) != SEM_SEL_DWORD ||
       mod_val(w, in, w->mod_ssel[1], SEM_SEL_DWORD) != SEM_SEL_DWORD)
      return false;
   *a = opnd(in, 0);
   *b = opnd(in, 1);
   return *a && *b;
}

static int src_sel_mod(const struct sdwa *w, unsigned op, unsigned k);
static int compose(struct sdwa *w, unsigned cur, bool cur_sext, const struct field *f, bool *sext,
                   const struct ir_instr *in);

/* x = (a selected) & 0xff or 0xffff, where a's operand already selects a
 * field of a: the mask's field composed with that select. */
static bool
masked_select(struct sdwa *w, struct ir_instr *x, struct field *f)
{
   if (!is_plain_mach(x) || x->mach->insn.sem != ISA_SEM_AND || x->mach->insn.nsrc != 2 ||
       mod_val(w, x, w->mod_dsel, SEM_SEL_DWORD) != SEM_SEL_DWORD)
      return false;
   for (unsigned k = 0; k < 2; k++) {
      int mod = src_sel_mod(w, x->mach->insn.op, k);
      int other = src_sel_mod(w, x->mach->insn.op, 1 - k);
      const struct ir_mach *m = x->mach;
      if (mod < 0 || m->insn.mod[mod] == SEM_SEL_DWORD || m->count[k] != 1 ||
          m->count[1 - k] != 1 || (other >= 0 && m->insn.mod[other] != SEM_SEL_DWORD) ||
          (m->insn.src[k].flags & ~ISA_OPND_F_SEXT) || m->insn.src[1 - k].flags)
         continue;
      struct ir_instr *mask = x->src[m->first[1 - k]];
      unsigned bits = imm_is(mask, 0xff) ? 8 : imm_is(mask, 0xffff) ? 16 : 0;
      unsigned off, sbits;
      sem_sdwa_field((unsigned)m->insn.mod[mod], &off, &sbits);
      if (!bits)
         continue;
      struct field inner = {x->src[m->first[k]], off, sbits,
                            (m->insn.src[k].flags & ISA_OPND_F_SEXT) != 0};
      bool sext;
      int sel = compose(w, sel_of(0, bits), false, &inner, &sext, x);
      if (sel < 0)
         continue;
      unsigned o2, b2;
      sem_sdwa_field((unsigned)sel, &o2, &b2);
      *f = (struct field){inner.of, o2, b2, sext};
      return true;
   }
   return false;
}

/* The field x reads of another value, if it is one. */
static bool
field_of(struct sdwa *w, struct ir_instr *x, struct field *f)
{
   struct ir_instr *a, *b, *c, *d;
   if (masked_select(w, x, f))
      return true;
   if (binop(w, x, ISA_SEM_AND, &a, &b)) {
      uint32_t ia;
      if (imm_of(a, &ia)) {
         struct ir_instr *t = a;
         a = b;
         b = t;
      }
      unsigned bits = imm_is(b, 0xff) ? 8 : imm_is(b, 0xffff) ? 16 : 0;
      if (!bits)
         return false;
      *f = (struct field){a, 0, bits, false};
      uint32_t sh;
      if (binop(w, a, ISA_SEM_SHR, &c, &d) && imm_of(d, &sh) && sh < 32 && sh % bits == 0)
         *f = (struct field){c, sh, bits, false};
      return true;
   }
   bool sx = binop(w, x, ISA_SEM_ASHR, &a, &b);
   if (!sx && !binop(w, x, ISA_SEM_SHR, &a, &b))
      return false;
   uint32_t n, sh;
   if (!imm_of(b, &n) || (n != 24 && n != 16))
      return false;
   unsigned bits = 32 - n;
   *f = (struct field){a, 32 - bits, bits, sx};
   if (binop(w, a, ISA_SEM_SHL, &c, &d) && imm_of(d, &sh) && sh <= 32 - bits &&
       (32 - bits - sh) % bits == 0)
      *f = (struct field){c, 32 - bits - sh, bits, sx};
   return true;
}

/* ------------------------------------------------------------------ */
/* SDWA forms                                                           */

/* The first op of x's semantics and operand types that takes a
 * destination select, or -1. */
static int
sdwa_op_scan(const struct sdwa *w, const struct isa_insn *x)
{
   unsigned n;
   const uint16_t *ops = isa_ops_by_sem(w->m, (enum isa_sem)x->sem, &n);
   for (unsigned i = 0; i < n; i++) {
      unsigned o = ops[i];
      struct isa_op_info oi;
      isa_op_info(w->m, o, &oi);
      if (oi.ndst != x->ndst || oi.nsrc != x->nsrc)
         continue;
      struct isa_insn t;
      isa_insn_init(w->m, o, &t);
      t.mod[w->mod_dsel] = SEM_SEL_WORD1;
      if (isa_check_insn(w->m, &t, NULL) == ISA_ERR_MODIFIER)
         continue;
      bool same = true;
      for (unsigned k = 0; k < x->nsrc + 1u && same; k++) {
         int sl = k ? ISA_SLOT_SRC(k - 1) : ISA_SLOT_DST(0);
         same = sem_slot_type(w->m, x, sl, NULL) == sem_slot_type(w->m, &t, sl, NULL);
      }
      if (same)
         return (int)o;
   }
   return -1;
}

/* The op of in's semantics and operand types that has the select
 * modifiers, or -1 (in's own op when it has them). */
static int
sdwa_op(const struct sdwa *w, const struct ir_instr *in)
{
   const struct isa_insn *x = &in->mach->insn;
   if (x->ndst != 1 || x->nsrc < 1 || x->nsrc > 2 || opt_op_explicit(w->m, x->op))
      return -1; /* a DPP op's lane control has no SDWA form */
   enum isa_type type[3] = {ISA_TYPE_NONE, ISA_TYPE_NONE, ISA_TYPE_NONE};
   for (unsigned k = 0; k < x->nsrc + 1u; k++)
      type[k] = sem_slot_type(w->m, x, k ? ISA_SLOT_SRC(k - 1) : ISA_SLOT_DST(0), NULL);
   struct sdwa_memo *e = &w->memo[x->op];
   if (!e->known || memcmp(e->type, type, sizeof(type)))
      *e = (struct sdwa_memo){true, {type[0], type[1], type[2]}, sdwa_op_scan(w, x)};
   return e->op;
}

/* The select modifier of source slot k of op, or -1. */
static int
src_sel_mod(const struct sdwa *w, unsigned op, unsigned k)
{
   struct isa_slot_info si;
   if (!isa_slot_info(w->m, op, false, k, &si) || !si.name)
      return -1;
   for (unsigned i = 0; i < 2; i++) {
      const char *on = w->mod_ssel[i] >= 0 ? isa_mod_operand(w->m, (unsigned)w->mod_ssel[i]) : NULL;
      if (on && !strcmp(on, si.name))
         return w->mod_ssel[i];
   }
   return -1;
}

/* A copy of in before it as its SDWA form (same sources, modifiers the
 * form has), or NULL. */
static struct ir_instr *
sdwa_clone(struct sdwa *w, struct ir_instr *in)
{
   int op = sdwa_op(w, in);
   if (op < 0)
      return NULL;
   struct ir_instr *c = ir_mach_create(w->sh, (unsigned)op);
   const struct isa_insn *x = &in->mach->insn;
   struct isa_insn *t = &c->mach->insn;
   for (unsigned i = 0; i < ISA_MAX_MODS; i++)
      if (x->mod[i] != t->mod[i]) {
         struct isa_insn trial = *t;
         trial.mod[i] = x->mod[i];
         if (isa_check_insn(w->m, &trial, NULL) != ISA_ERR_MODIFIER)
            t->mod[i] = x->mod[i];
      }
   for (unsigned k = 0; k < x->nsrc; k++) {
      t->src[k].flags = x->src[k].flags;
      if (in->mach->count[k])
         ir_mach_set_src(c, k, &in->src[in->mach->first[k]], in->mach->count[k]);
      else
         t->src[k] = x->src[k];
   }
   c->flags = in->flags;
   c->line = in->line;
   ir_insert_before(in, c);
   return c;
}

static void
move_before(struct ir_instr *in, struct ir_instr *pos)
{
   ir_instr_remove(in);
   in->removed = false;
   ir_insert_before(pos, in);
}

/* The clone is legal (copies may be added in front), or it goes. */
static bool
keep_legal(struct sdwa *w, struct ir_instr *c)
{
   struct ir_instr *before = c->prev;
   if (opt_legalize_operands(w->sh, w->ctx, c))
      return true;
   while (c->prev != before) /* copies the failed attempt added */
      ir_instr_remove(c->prev);
   ir_instr_remove(c);
   return false;
}

/* Replaces old by rep (the verifier compares them), counting it done. */
static void
replace(struct sdwa *w, struct ir_instr *old, struct ir_instr *rep)
{
   opt_replace(w->sh, old, rep);
   w->progress = true;
}

/* ------------------------------------------------------------------ */
/* 1. Source selects                                                    */

/* The select of y for an operand that selects cur (SEM_SEL_DWORD: none)
 * of x, where x is field f of y: cur's bits of f, so BYTE_0 of a WORD_1
 * field is BYTE_2. -1 when cur reaches past f (into its extension). */
static int
compose(struct sdwa *w, unsigned cur, bool cur_sext, const struct field *f, bool *sext,
        const struct ir_instr *in)
{
   if (cur == SEM_SEL_DWORD) {
      *sext = f->sext;
      return (int)sel_of(f->off, f->bits);
   }
   unsigned off, bits;
   sem_sdwa_field(cur, &off, &bits);
   if (off + bits > f->bits)
      return -1;
   if (opt_fault_fires(w->ctx, OPT_FAULT_SDWA_SEL_COMPOSE, "select of %%%u over %s", in->id,
                       sel_name(w, cur))) {
      *sext = f->sext;
      return (int)sel_of(f->off, f->bits); /* the new select alone */
   }
   *sext = cur_sext;
   return (int)sel_of(f->off + off, bits);
}

static bool
fold_source(struct sdwa *w, struct ir_instr *in, unsigned k)
{
   struct ir_instr *x = opnd(in, k);
   struct field f;
   if (!x || !field_of(w, x, &f) || sdwa_op(w, in) < 0)
      return false;
   int mod = src_sel_mod(w, (unsigned)sdwa_op(w, in), k);
   if (mod < 0)
      return false;
   unsigned cur = (unsigned)mod_val(w, in, mod, SEM_SEL_DWORD);
   bool cur_sext = in->mach->insn.src[k].flags & ISA_OPND_F_SEXT, sext;
   int sel = compose(w, cur, cur_sext, &f, &sext, in);
   if (sel < 0 || !opt_transform(w->ctx, "fold the %s of %%%u into %%%u",
                                 sel_name(w, (unsigned)sel), x->id, in->id))
      return false;
   struct ir_instr *c = sdwa_clone(w, in);
   ir_set_src(c, c->mach->first[k], f.of);
   c->mach->insn.mod[mod] = (int16_t)sel;
   if (sext)
      c->mach->insn.src[k].flags |= ISA_OPND_F_SEXT;
   else
      c->mach->insn.src[k].flags &= (uint8_t)~ISA_OPND_F_SEXT;
   if (!keep_legal(w, c))
      return false;
   replace(w, in, c);
   return true;
}

/* ------------------------------------------------------------------ */
/* 2. Destination selects                                               */

/* The dst_unused value for PAD (the fault swaps PAD and SEXT). The fault
 * fires only where the swap changes the result: a field ending below bit
 * 31 (BYTE_0..2, WORD_0), whose sign SEXT copies upwards; for WORD_1 and
 * BYTE_3 there are no bits above, and SEXT is PAD. */
static int
pad_value(struct sdwa *w, const struct ir_instr *in)
{
   int sel = mod_val(w, in, w->mod_dsel, SEM_SEL_DWORD);
   bool top = sel == SEM_SEL_WORD1 || sel == SEM_SEL_BYTE0 + 3 || sel == SEM_SEL_DWORD;
   return !top && opt_fault_fires(w->ctx, OPT_FAULT_SDWA_SEXT_PAD, "dst_unused of %%%u", in->id)
              ? SEM_UNUSED_SEXT
              : SEM_UNUSED_PAD;
}

/* y = x << 16 | x << 24 | x & 0xffff | x & 0xff: the select of x it is. */
static bool
placed_field(const struct sdwa *w, struct ir_instr *y, struct ir_instr **x, unsigned *sel)
{
   struct ir_instr *a, *b;
   uint32_t n;
   if (binop(w, y, ISA_SEM_SHL, &a, &b) && imm_of(b, &n) && (n == 16 || n == 24)) {
      *x = a;
      *sel = n == 16 ? SEM_SEL_WORD1 : SEM_SEL_BYTE0 + 3;
      return true;
   }
   if (binop(w, y, ISA_SEM_AND, &a, &b)) {
      if (imm_of(a, &n)) {
         struct ir_instr *t = a;
         a = b;
         b = t;
      }
      if (imm_is(b, 0xffff) || imm_is(b, 0xff)) {
         *x = a;
         *sel = imm_is(b, 0xff) ? SEM_SEL_BYTE0 : SEM_SEL_WORD0;
         return true;
      }
   }
   return false;
}

static bool
fold_dest(struct sdwa *w, struct ir_instr *y)
{
   struct ir_instr *x;
   unsigned sel;
   if (!placed_field(w, y, &x, &sel) || !is_plain_mach(x) || uses_upto(w, x, 2) != 1 ||
       x->block != y->block || mod_val(w, x, w->mod_dsel, SEM_SEL_DWORD) != SEM_SEL_DWORD ||
       x->mach->insn.sem == ISA_SEM_MOV || sdwa_op(w, x) < 0)
      return false;
   if (!opt_transform(w->ctx, "write %%%u into %s of %%%u", y->id, sel_name(w, sel), x->id))
      return false;
   struct ir_instr *c = sdwa_clone(w, x);
   c->mach->insn.mod[w->mod_dsel] = (int16_t)sel;
   if (w->mod_dun >= 0)
      c->mach->insn.mod[w->mod_dun] = (int16_t)pad_value(w, c);
   move_before(c, y); /* x's sources are all defined before y */
   if (!keep_legal(w, c))
      return false;
   replace(w, y, c);
   return true;
}

/* ------------------------------------------------------------------ */
/* 3. The preserve merge                                                */

/* The bits of v known to be 0, as a mask of set bits that may be 1. */
static uint32_t
maybe_set(const struct sdwa *w, const struct ir_instr *v)
{
   struct ir_instr *a, *b;
   uint32_t n;
   if (imm_of(v, &n))
      return n;
   if (!is_plain_mach(v))
      return ~0u;
   int ds = mod_val(w, v, w->mod_dsel, SEM_SEL_DWORD);
   if (ds != SEM_SEL_DWORD && mod_val(w, v, w->mod_dun, SEM_UNUSED_PAD) == SEM_UNUSED_PAD) {
      unsigned off, bits;
      sem_sdwa_field((unsigned)ds, &off, &bits);
      return (bits >= 32 ? ~0u : (1u << bits) - 1) << off;
   }
   if (binop(w, v, ISA_SEM_AND, &a, &b))
      return maybe_set(w, a) & maybe_set(w, b);
   /* a non-SDWA 16-bit VOP result: GFX9 zeroes the high half */
   unsigned width = 32;
   sem_slot_type(w->m, &v->mach->insn, ISA_SLOT_DST(0), &width);
   if (ds == SEM_SEL_DWORD && width == 16 && v->mach->insn.ndst == 1)
      return 0xffffu;
   return ~0u;
}

/* Ties in to v: v is an implicit source whose register in writes. */
static void
tie(struct sdwa *w, struct ir_instr *in, struct ir_instr *v)
{
   ir_instr_set_nsrc(in, in->nsrc + 1);
   ir_set_src(in, in->nsrc - 1, v);
   in->mach->tied = (uint8_t)(in->nsrc - 1);
   in->mach->tied_unread =
       opt_fault_fires(w->ctx, OPT_FAULT_SDWA_PRESERVE_NO_USE, "implicit use of %%%u", v->id);
}

/* a | b where a is a PAD destination select and b is 0 in its field. */
static bool
merge_pair(struct sdwa *w, struct ir_instr *o, struct ir_instr *a, struct ir_instr *b)
{
   if (!is_plain_mach(a) || uses_upto(w, a, 2) != 1 || a->block != o->block ||
       !ir_value_in_regs(b) || b->type != IR_TYPE_32)
      return false;
   int ds = mod_val(w, a, w->mod_dsel, SEM_SEL_DWORD);
   if (ds == SEM_SEL_DWORD || mod_val(w, a, w->mod_dun, -1) != SEM_UNUSED_PAD)
      return false;
   unsigned off, bits;
   sem_sdwa_field((unsigned)ds, &off, &bits);
   if (maybe_set(w, b) & (((1u << bits) - 1) << off))
      return false;
   if (!opt_transform(w->ctx, "merge %%%u | %%%u into %%%u preserving %%%u", a->id, b->id, a->id,
                      b->id))
      return false;
   bool gfx10 = is_plain_mach(b) && uses_upto(w, b, 2) == 1 && b->block == o->block &&
                maybe_set(w, b) == 0xffffu && ds == SEM_SEL_WORD1 &&
                opt_fault_fires(w->ctx, OPT_FAULT_HI16_KEPT, "%%%u keeps the high half", b->id);
   if (gfx10) { /* b's 16-bit op writes into a's register, as if it kept a's high half */
      struct ir_instr *c = ir_mach_create(w->sh, b->mach->insn.op);
      c->mach->insn = b->mach->insn;
      for (unsigned k = 0; k < b->mach->insn.nsrc; k++)
         if (b->mach->count[k])
            ir_mach_set_src(c, k, &b->src[b->mach->first[k]], b->mach->count[k]);
      c->flags = o->flags;
      c->line = o->line;
      ir_insert_before(o, c);
      tie(w, c, a);
      replace(w, o, c);
      return true;
   }
   /* b is overwritten in place: a later reader gets a copy */
   struct ir_instr *keep = b;
   if (uses_upto(w, b, 2) > 1 || b->block != o->block || !is_plain_mach(b))
      keep = opt_copy_before(w->sh, o, b);
   struct ir_instr *c = sdwa_clone(w, a);
   move_before(c, o);
   if (w->mod_dun >= 0)
      c->mach->insn.mod[w->mod_dun] =
          opt_fault_fires(w->ctx, OPT_FAULT_SDWA_PAD_PRESERVE, "dst_unused of %%%u", c->id)
              ? SEM_UNUSED_PAD
              : SEM_UNUSED_PRESERVE;
   if (!keep_legal(w, c)) {
      if (keep != b)
         ir_instr_remove(keep);
      return false;
   }
   tie(w, c, keep);
   replace(w, o, c);
   return true;
}

static bool
merge(struct sdwa *w, struct ir_instr *o)
{
   struct ir_instr *a, *b;
   if (!binop(w, o, ISA_SEM_OR, &a, &b))
      return false;
   return merge_pair(w, o, a, b) || merge_pair(w, o, b, a);
}

/* ------------------------------------------------------------------ */
/* The pass                                                             */

/* Whether in is a value with no effect (read or not). */
static bool
is_pure(const struct ir_instr *in)
{
   return in && !in->removed && in->type != IR_TYPE_NONE &&
          (in->op == IR_OP_IMM || (in->op == IR_OP_MACH && in->mach->insn.ndst &&
                                   !opt_sem_has_effect(in->mach->insn.sem)));
}

/* Removes the pure values nothing reads, and the sources they leave
 * unread: each value's reads counted once, then a worklist (sweeping the
 * values until none changed cost a sweep per link of a dead chain). */
static void
remove_dead(struct sdwa *w)
{
   unsigned nv = w->sh->nvalues, n = 0, cap = 0;
   unsigned *reads = xcalloc(nv + 1, sizeof(unsigned));
   struct ir_instr **work = NULL;
   for (unsigned i = 0; i < nv; i++) {
      struct ir_instr *in = w->sh->values[i];
      if (!is_pure(in))
         continue;
      reads[i] = uses_upto(w, in, UINT_MAX);
      if (!reads[i])
         VEC_PUSH(work, n, cap, in);
   }
   while (n) {
      struct ir_instr *in = work[--n];
      ir_instr_remove(in);
      for (unsigned k = 0; k < in->nsrc; k++) {
         struct ir_instr *v = in->src[k];
         if (is_pure(v) && v->id < nv && reads[v->id] && !--reads[v->id])
            VEC_PUSH(work, n, cap, v);
      }
   }
   free(work);
   free(reads);
}

bool
opt_sdwa(struct ir_shader *sh, struct opt_ctx *ctx)
{
   if (!sh->model)
      return false;
   struct sdwa w = {.sh = sh, .ctx = ctx, .m = sh->model};
   w.mod_dsel = isa_mod_by_role(w.m, ISA_ROLE_DST_SEL);
   w.mod_dun = isa_mod_by_role(w.m, ISA_ROLE_DST_UNUSED);
   w.mod_ssel[0] = isa_mod_by_role(w.m, ISA_ROLE_SRC0_SEL);
   w.mod_ssel[1] = isa_mod_by_role(w.m, ISA_ROLE_SRC1_SEL);
   if (w.mod_dsel < 0 || w.mod_ssel[0] < 0)
      return false;
   unsigned cap = 0;
   collect_ifs(&w, &sh->body, &cap);
   w.memo = xcalloc(isa_op_count(w.m), sizeof(*w.memo));
   if (w.nifs)
      qsort(w.ifs, w.nifs, sizeof(*w.ifs), cmp_node);
   bool any = false;
   static const int rounds[] = {0, 0, 1, 2, 2};
   for (unsigned r = 0; r < ARRAY_SIZE(rounds); r++) {
      int round = rounds[r];
      w.progress = false;
      struct ir_instr **order;
      unsigned n = ir_program_order(sh, &order);
      for (unsigned i = 0; i < n && !ctx->limit_hit; i++) {
         struct ir_instr *in = order[i];
         if (!is_plain_mach(in) || in->removed)
            continue;
         if (round == 0) {
            for (unsigned k = 0; k < in->mach->insn.nsrc && !in->removed; k++)
               if (fold_source(&w, in, k))
                  break;
         } else if (round == 1) {
            fold_dest(&w, in);
         } else {
            merge(&w, in);
         }
      }
      free(order);
      remove_dead(&w);
      any |= w.progress;
   }
   free(w.ifs);
   free(w.memo);
   sh->cfg_valid = false;
   return any;
}
