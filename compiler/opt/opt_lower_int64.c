/*
 * 64-bit integer lowering: every 64-bit integer op of the IR (iadd64 ..
 * u642d, the op table's 64-bit integer section) rewritten into 32-bit IR
 * ops on the value's two words, low word first, before anything else
 * runs -- no modelled target has a 64-bit integer ALU (NIR's
 * nir_lower_int64 does the same job):
 *
 *  - add: the carry is (lo < a.lo), a ~0/0 mask subtracted from the high
 *    sum; negate: hi = -a.hi + (a.lo != 0 ? ~0 : 0);
 *  - multiply: hi = umul_hi(a.lo, b.lo) + a.lo * b.hi + a.hi * b.lo;
 *  - shifts (count & 63): the 32-bit part shifts the crossing word by 1
 *    and then by 31 - n (so n = 0 needs no case), bit 5 selects whole-word
 *    moves; compares: the high words unless equal, then the low words
 *    unsigned; min/max select on a compare;
 *  - division: one loop of 64 restoring steps per distinct dividend and
 *    divisor (div and mod of the same operands share it), the same count
 *    in every lane; signs as C's;
 *  - conversions from float or double: the significand moved up to bit
 *    63, then one right shift by what the exponent leaves (truncation);
 *    to float: the top 32 bits with a sticky bit through u2f (which rounds
 *    to nearest even), scaled in the exponent field; to double: the
 *    magnitude normalized to bit 63, cut to 53 bits and rounded to nearest
 *    even, the increment added to the assembled bits so that a carry out
 *    of the significand raises the exponent.
 *
 * The results are the op table's, bit for bit, for every input (the IR
 * evaluator checks each expansion in the pass fixtures): division by 0 and
 * INT64_MIN / -1 as ir.h defines them, out-of-range conversions as
 * ir_eval.c gives them (f2i64/d2i64: INT64_MIN; f2u64/d2u64: 0 below the
 * range and for NaN, ~0 above).
 *
 * Boundaries. A 64-bit source that is a pack64 is read as its two
 * operands, a 64-bit immediate as two immediates, anything else (a double
 * op's result) through unpack64_lo/unpack64_hi. A 64-bit result becomes
 * pack64(lo, hi); unpack64_lo/hi of such a pack64 read the word directly,
 * and packs left without users go. So after the pass the only 64-bit
 * values are doubles (and pack64/unpack64 between them and the words),
 * which the targets select or refuse as before.
 *
 * The pass is required, not an optimization: like opt_expand, its
 * rewrites are not counted as transformations for --opt-bisect-limit
 * (a cut one would leave an op no target selects).
 */
#include "compiler/ir/ir.h"

#include <stdlib.h>

struct w64 {
   struct ir_instr *lo, *hi;
};

/* A division loop's results, reusable below it in the same block. */
struct divcache {
   bool sign;
   struct w64 a, b;          /* the operands as given */
   struct w64 q, r;          /* unsigned quotient and remainder */
   struct ir_instr *an, *bn; /* signed: the operands' sign masks */
   struct ir_block *block;   /* where the results may be used */
};

struct lw {
   struct ir_shader *sh;
   struct ir_instr *pos;  /* new instructions go before it ... */
   struct ir_block *into; /* ... or at the end of this block when set */
   struct divcache *div;
   unsigned ndiv, div_cap;
   /* pack64s made here, and the 64-bit sources read as words (pack64,
    * imm, dneg, dabs): removed when left unused */
   struct ir_instr **packs;
   unsigned npacks, packs_cap;
};

/* ------------------------------------------------------------------ */
/* Builders                                                             */

static struct ir_instr *
emit(struct lw *w, enum ir_op op, unsigned n, struct ir_instr *const *src)
{
   struct ir_instr *in = ir_instr_create(w->sh, op, n);
   for (unsigned i = 0; i < n; i++)
      ir_set_src(in, i, src[i]);
   in->type = ir_result_type(in);
   in->flags = w->pos->flags;
   in->line = w->pos->line;
   if (w->into)
      ir_block_append(w->into, in);
   else
      ir_insert_before(w->pos, in);
   return in;
}

static struct ir_instr *
A1(struct lw *w, enum ir_op op, struct ir_instr *a)
{
   return emit(w, op, 1, &a);
}

static struct ir_instr *
A2(struct lw *w, enum ir_op op, struct ir_instr *a, struct ir_instr *b)
{
   struct ir_instr *v[2] = {a, b};
   return emit(w, op, 2, v);
}

static struct ir_instr *
A3(struct lw *w, enum ir_op op, struct ir_instr *a, struct ir_instr *b, struct ir_instr *c)
{
   struct ir_instr *v[3] = {a, b, c};
   return emit(w, op, 3, v);
}

static struct ir_instr *
K(struct lw *w, uint32_t bits)
{
   struct ir_instr *in = emit(w, IR_OP_IMM, 0, NULL);
   in->imm = bits;
   in->type = IR_TYPE_32;
   in->flags = 0;
   return in;
}

static struct w64
pair(struct ir_instr *lo, struct ir_instr *hi)
{
   struct w64 r = {lo, hi};
   return r;
}

static struct w64
const64(struct lw *w, uint64_t v)
{
   struct ir_instr *lo = K(w, (uint32_t)v);
   return pair(lo, K(w, (uint32_t)(v >> 32)));
}

static void
note_pack(struct lw *w, struct ir_instr *p)
{
   for (unsigned i = 0; i < w->npacks; i++)
      if (w->packs[i] == p)
         return;
   VEC_PUSH(w->packs, w->npacks, w->packs_cap, p);
}

/* The two words of a 64-bit source. dneg/dabs (TGSI's modifiers on a
 * d2i64/d2u64 operand) are sign-bit operations: done on the high word. */
static struct w64
words(struct lw *w, struct ir_instr *v)
{
   if (v->op == IR_OP_PACK64) {
      note_pack(w, v);
      return pair(v->src[0], v->src[1]);
   }
   if (v->op == IR_OP_IMM) {
      note_pack(w, v);
      return const64(w, v->imm);
   }
   if (v->op == IR_OP_DNEG || v->op == IR_OP_DABS) {
      struct w64 r = words(w, v->src[0]);
      note_pack(w, v); /* after its source: tidy() removes it first */
      bool neg = v->op == IR_OP_DNEG;
      struct ir_instr *m = K(w, neg ? 0x80000000u : 0x7fffffffu);
      r.hi = A2(w, neg ? IR_OP_IXOR : IR_OP_IAND, r.hi, m);
      return r;
   }
   struct ir_instr *lo = A1(w, IR_OP_UNPACK64_LO, v);
   return pair(lo, A1(w, IR_OP_UNPACK64_HI, v));
}

/* ------------------------------------------------------------------ */
/* Arithmetic on pairs; compares give ~0/0                              */

static struct w64
sel64(struct lw *w, struct ir_instr *m, struct w64 x, struct w64 y)
{
   struct ir_instr *lo = A3(w, IR_OP_BCSEL, m, x.lo, y.lo);
   return pair(lo, A3(w, IR_OP_BCSEL, m, x.hi, y.hi));
}

static struct w64
add64(struct lw *w, struct w64 a, struct w64 b)
{
   struct ir_instr *lo = A2(w, IR_OP_IADD, a.lo, b.lo);
   struct ir_instr *carry = A2(w, IR_OP_ULT, lo, a.lo);
   struct ir_instr *hi = A2(w, IR_OP_IADD, a.hi, b.hi);
   return pair(lo, A2(w, IR_OP_ISUB, hi, carry));
}

static struct w64
sub64(struct lw *w, struct w64 a, struct w64 b)
{
   struct ir_instr *lo = A2(w, IR_OP_ISUB, a.lo, b.lo);
   struct ir_instr *borrow = A2(w, IR_OP_ULT, a.lo, b.lo);
   struct ir_instr *hi = A2(w, IR_OP_ISUB, a.hi, b.hi);
   return pair(lo, A2(w, IR_OP_IADD, hi, borrow));
}

static struct w64
neg64(struct lw *w, struct w64 a)
{
   struct ir_instr *lo = A1(w, IR_OP_INEG, a.lo);
   struct ir_instr *borrow = A2(w, IR_OP_INE, a.lo, K(w, 0));
   struct ir_instr *hi = A1(w, IR_OP_INEG, a.hi);
   return pair(lo, A2(w, IR_OP_IADD, hi, borrow));
}

/* |a| (INT64_MIN stays, as 2^63 unsigned) and the sign mask */
static struct w64
abs64(struct lw *w, struct w64 a, struct ir_instr **neg)
{
   *neg = A2(w, IR_OP_ILT, a.hi, K(w, 0));
   return sel64(w, *neg, neg64(w, a), a);
}

static struct w64
mul64(struct lw *w, struct w64 a, struct w64 b)
{
   struct ir_instr *lo = A2(w, IR_OP_IMUL, a.lo, b.lo);
   struct ir_instr *hi = A2(w, IR_OP_UMUL_HI, a.lo, b.lo);
   hi = A2(w, IR_OP_IADD, hi, A2(w, IR_OP_IMUL, a.lo, b.hi));
   hi = A2(w, IR_OP_IADD, hi, A2(w, IR_OP_IMUL, a.hi, b.lo));
   return pair(lo, hi);
}

static struct ir_instr *
eq64(struct lw *w, struct w64 a, struct w64 b, bool ne)
{
   enum ir_op op = ne ? IR_OP_INE : IR_OP_IEQ;
   struct ir_instr *l = A2(w, op, a.lo, b.lo);
   return A2(w, ne ? IR_OP_IOR : IR_OP_IAND, l, A2(w, op, a.hi, b.hi));
}

/* a < b, or a >= b with ge */
static struct ir_instr *
cmp64(struct lw *w, struct w64 a, struct w64 b, bool sign, bool ge)
{
   struct ir_instr *h = ge ? A2(w, sign ? IR_OP_ILT : IR_OP_ULT, b.hi, a.hi)
                           : A2(w, sign ? IR_OP_ILT : IR_OP_ULT, a.hi, b.hi);
   struct ir_instr *heq = A2(w, IR_OP_IEQ, a.hi, b.hi);
   struct ir_instr *l = A2(w, ge ? IR_OP_UGE : IR_OP_ULT, a.lo, b.lo);
   return A2(w, IR_OP_IOR, h, A2(w, IR_OP_IAND, heq, l));
}

/* a shifted by n & 63 (IR shifts mask their count to 5 bits). */
static struct w64
shift64(struct lw *w, struct w64 a, struct ir_instr *n, enum ir_op kind)
{
   struct ir_instr *one = K(w, 1), *k31 = K(w, 31);
   struct ir_instr *inv = A2(w, IR_OP_IXOR, n, k31); /* 31 - n in 5 bits */
   struct ir_instr *big = A2(w, IR_OP_IAND, n, K(w, 32));
   if (kind == IR_OP_ISHL) {
      struct ir_instr *lo = A2(w, IR_OP_ISHL, a.lo, n);
      struct ir_instr *across = A2(w, IR_OP_USHR, A2(w, IR_OP_USHR, a.lo, one), inv);
      struct ir_instr *hi = A2(w, IR_OP_IOR, A2(w, IR_OP_ISHL, a.hi, n), across);
      struct ir_instr *rlo = A3(w, IR_OP_BCSEL, big, K(w, 0), lo);
      return pair(rlo, A3(w, IR_OP_BCSEL, big, lo, hi));
   }
   struct ir_instr *hi = A2(w, kind, a.hi, n);
   struct ir_instr *across = A2(w, IR_OP_ISHL, A2(w, IR_OP_ISHL, a.hi, one), inv);
   struct ir_instr *lo = A2(w, IR_OP_IOR, A2(w, IR_OP_USHR, a.lo, n), across);
   struct ir_instr *fill = kind == IR_OP_ISHR ? A2(w, IR_OP_ISHR, a.hi, k31) : K(w, 0);
   struct ir_instr *rlo = A3(w, IR_OP_BCSEL, big, hi, lo);
   return pair(rlo, A3(w, IR_OP_BCSEL, big, fill, hi));
}

/* ------------------------------------------------------------------ */
/* Division                                                             */

static void
list_insert(struct ir_list *l, unsigned at, struct ir_node *n, struct ir_node *parent)
{
   ir_list_append(l, n, parent);
   memmove(&l->v[at + 1], &l->v[at], (l->n - 1 - at) * sizeof(*l->v));
   l->v[at] = n;
}

/* Moves pos and what follows it in its block into a new block placed
 * after a new loop node, itself right after the old block; returns the
 * loop. Phis that named the old block as a predecessor now name the new
 * one, which ends where the old one did. */
static struct ir_node *
split_for_loop(struct lw *w, struct ir_instr *pos, struct ir_block **after)
{
   struct ir_block *b = pos->block;
   struct ir_node *bn = b->node, *nn = ir_node_block(w->sh), *loop = ir_node_loop();
   struct ir_block *b2 = nn->block;
   b2->first = pos;
   b2->last = b->last;
   b->last = pos->prev;
   if (pos->prev)
      pos->prev->next = NULL;
   else
      b->first = NULL;
   pos->prev = NULL;
   for (struct ir_instr *in = pos; in; in = in->next)
      in->block = b2;
   struct ir_list *l = bn->list;
   unsigned at = 0;
   while (l->v[at] != bn)
      at++;
   list_insert(l, at + 1, loop, bn->parent);
   list_insert(l, at + 2, nn, bn->parent);
   for (unsigned i = 0; i < w->sh->nvalues; i++) {
      struct ir_instr *in = w->sh->values[i];
      if (in && !in->removed && in->op == IR_OP_PHI)
         for (unsigned k = 0; k < in->nsrc; k++)
            if (in->pred[k] == b)
               in->pred[k] = b2;
   }
   for (unsigned i = 0; i < w->ndiv; i++)
      if (w->div[i].block == b)
         w->div[i].block = b2;
   w->sh->cfg_valid = w->sh->dom_valid = false;
   *after = b2;
   return loop;
}

static struct ir_block *
add_block(struct lw *w, struct ir_list *l, struct ir_node *parent)
{
   struct ir_node *n = ir_node_block(w->sh);
   ir_list_append(l, n, parent);
   return n->block;
}

static struct ir_instr *
phi2(struct lw *w, struct ir_block *h, struct ir_block *pre, struct ir_instr *init)
{
   struct ir_instr *p = ir_instr_create(w->sh, IR_OP_PHI, 2);
   ir_set_src(p, 0, init);
   p->pred[0] = pre;
   p->type = IR_TYPE_32;
   p->flags = w->pos->flags;
   p->line = w->pos->line;
   ir_block_append(h, p);
   return p;
}

/* n / d and n % d unsigned, by a loop of 64 restoring steps placed right
 * before pos (which moves to the block after the loop):
 *   (r, q) <<= 1, n's bits leaving q's top for r's bottom;
 *   if (r >= d or a bit left r's top) { r -= d; q |= 1; }
 * r < d before each step, so r < 2d after the shift and one subtraction
 * keeps r < d (past 2^64 it wraps to the right value). d == 0 gives q =
 * ~0 and r = n. The loop: header (phis, the step, the count), then
 * `if (done) { break }`, then an empty block, the back edge. */
static void
udivmod64(struct lw *w, struct w64 n, struct w64 d, struct w64 *qo, struct w64 *ro)
{
   struct ir_instr *pos = w->pos;
   struct ir_instr *zero = K(w, 0), *count = K(w, 64);
   struct ir_block *pre = pos->block, *after;
   struct ir_node *loop = split_for_loop(w, pos, &after);
   struct ir_block *h = add_block(w, &loop->body, loop);
   struct ir_instr *ql = phi2(w, h, pre, n.lo), *qh = phi2(w, h, pre, n.hi);
   struct ir_instr *rl = phi2(w, h, pre, zero), *rh = phi2(w, h, pre, zero);
   struct ir_instr *i = phi2(w, h, pre, count);
   w->into = h;
   struct ir_instr *one = K(w, 1), *k31 = K(w, 31);
   struct ir_instr *carry = A2(w, IR_OP_ISHR, rh, k31); /* ~0/0 */
   struct ir_instr *t = A2(w, IR_OP_ISHL, rh, one);
   struct ir_instr *rh1 = A2(w, IR_OP_IOR, t, A2(w, IR_OP_USHR, rl, k31));
   t = A2(w, IR_OP_ISHL, rl, one);
   struct ir_instr *rl1 = A2(w, IR_OP_IOR, t, A2(w, IR_OP_USHR, qh, k31));
   t = A2(w, IR_OP_ISHL, qh, one);
   struct ir_instr *qh1 = A2(w, IR_OP_IOR, t, A2(w, IR_OP_USHR, ql, k31));
   struct ir_instr *ql1 = A2(w, IR_OP_ISHL, ql, one);
   struct w64 rs = pair(rl1, rh1);
   struct ir_instr *ge = A2(w, IR_OP_IOR, cmp64(w, rs, d, false, true), carry);
   struct w64 r = sel64(w, ge, sub64(w, rs, d), rs);
   struct ir_instr *qbit = A2(w, IR_OP_IAND, ge, one);
   struct ir_instr *q0 = A2(w, IR_OP_IOR, ql1, qbit);
   struct ir_instr *i1 = A2(w, IR_OP_ISUB, i, one);
   struct ir_instr *done = A2(w, IR_OP_IEQ, i1, zero);
   struct ir_node *ifn = ir_node_if(done);
   ir_list_append(&loop->body, ifn, loop);
   struct ir_block *brk = add_block(w, &ifn->then_list, ifn);
   add_block(w, &ifn->else_list, ifn);
   struct ir_block *tail = add_block(w, &loop->body, loop);
   w->into = brk;
   emit(w, IR_OP_BREAK, 0, NULL);
   w->into = NULL;
   struct ir_instr *next[5] = {q0, qh1, r.lo, r.hi, i1}, *phis[5] = {ql, qh, rl, rh, i};
   for (unsigned k = 0; k < 5; k++) {
      ir_instr_set_nsrc(phis[k], 2);
      ir_set_src(phis[k], 1, next[k]);
      phis[k]->pred[1] = tail;
   }
   (void)after;
   *qo = pair(q0, qh1);
   *ro = r;
}

/* The division's loop results for a and b: an earlier loop's when one of
 * the same operands (and signedness) dominates pos, else a new loop. */
static struct divcache *
divide_loop(struct lw *w, struct w64 a, struct w64 b, bool sign)
{
   for (unsigned i = 0; i < w->ndiv; i++) {
      struct divcache *e = &w->div[i];
      if (e->sign == sign && e->block == w->pos->block && e->a.lo == a.lo && e->a.hi == a.hi &&
          e->b.lo == b.lo && e->b.hi == b.hi)
         return e;
   }
   struct divcache e = {sign, a, b, {NULL, NULL}, {NULL, NULL}, NULL, NULL, NULL};
   struct w64 n = a, d = b;
   if (sign) {
      n = abs64(w, a, &e.an);
      d = abs64(w, b, &e.bn);
   }
   udivmod64(w, n, d, &e.q, &e.r);
   e.block = w->pos->block;
   VEC_PUSH(w->div, w->ndiv, w->div_cap, e);
   return &w->div[w->ndiv - 1];
}

/* By zero: udiv64 ~0 (the loop's own answer), umod64 ~0, idiv64 0, imod64
 * ~0 (-1). Signed: the quotient negated when the signs differ, the
 * remainder when the dividend is negative; INT64_MIN / -1 comes out as
 * INT64_MIN (2^63 negated) and its remainder 0. */
static struct w64
divide64(struct lw *w, enum ir_op op, struct w64 a, struct w64 b)
{
   bool sign = op == IR_OP_IDIV64 || op == IR_OP_IMOD64;
   struct divcache *e = divide_loop(w, a, b, sign);
   if (op == IR_OP_UDIV64)
      return e->q;
   struct w64 zero = const64(w, 0);
   struct ir_instr *bz = eq64(w, b, zero, false);
   struct w64 ones = const64(w, ~0ull);
   if (op == IR_OP_UMOD64)
      return sel64(w, bz, ones, e->r);
   if (op == IR_OP_IDIV64) {
      struct ir_instr *sn = A2(w, IR_OP_IXOR, e->an, e->bn);
      struct w64 res = sel64(w, sn, neg64(w, e->q), e->q);
      return sel64(w, bz, zero, res);
   }
   struct w64 res = sel64(w, e->an, neg64(w, e->r), e->r);
   return sel64(w, bz, ones, res);
}

/* ------------------------------------------------------------------ */
/* Conversions                                                          */

/* m with its top bit moved to bit 63, and that bit's index (m == 0: -1;
 * callers select 0 for it). */
static struct w64
normalize(struct lw *w, struct w64 m, struct ir_instr **top)
{
   struct ir_instr *hz = A2(w, IR_OP_IEQ, m.hi, K(w, 0));
   struct ir_instr *k32 = K(w, 32);
   struct ir_instr *mh = A2(w, IR_OP_IADD, A1(w, IR_OP_UFIND_MSB, m.hi), k32);
   struct ir_instr *ml = A1(w, IR_OP_UFIND_MSB, m.lo);
   *top = A3(w, IR_OP_BCSEL, hz, ml, mh);
   return shift64(w, m, A2(w, IR_OP_ISUB, K(w, 63), *top), IR_OP_ISHL);
}

/* Float bits of the unsigned m rounded to nearest even, or'ed with sign
 * (NULL: none), through the 32-bit u2f (which rounds to nearest even):
 * with hi == 0, u2f(lo); else the top 32 bits v = m >> s (s = the high
 * word's bit length, 1..32, so v's top bit is bit 31) with the bits shifted
 * out or'ed into v's bit 0 -- below the guard bit (7), so u2f rounds v as
 * it would round m -- then the result scaled by 2^s in the exponent field
 * (exact: at most 2^64). */
static struct ir_instr *
to_float(struct lw *w, struct w64 m, struct ir_instr *sign)
{
   struct ir_instr *one = K(w, 1);
   struct ir_instr *s = A2(w, IR_OP_IADD, A1(w, IR_OP_UFIND_MSB, m.hi), one);
   struct ir_instr *t = A2(w, IR_OP_ISUB, K(w, 32), s); /* 0..31 when hi != 0 */
   struct ir_instr *up = A2(w, IR_OP_ISHL, m.hi, t);
   struct ir_instr *inv = A2(w, IR_OP_IXOR, t, K(w, 31));
   struct ir_instr *down = A2(w, IR_OP_USHR, A2(w, IR_OP_USHR, m.lo, one), inv);
   struct ir_instr *lost = A2(w, IR_OP_ISHL, m.lo, t);
   struct ir_instr *zero = K(w, 0);
   struct ir_instr *sticky = A2(w, IR_OP_IAND, A2(w, IR_OP_INE, lost, zero), one);
   struct ir_instr *v = A2(w, IR_OP_IOR, A2(w, IR_OP_IOR, up, down), sticky);
   struct ir_instr *hz = A2(w, IR_OP_IEQ, m.hi, zero);
   struct ir_instr *f = A1(w, IR_OP_U2F, A3(w, IR_OP_BCSEL, hz, m.lo, v));
   struct ir_instr *bits = A2(w, IR_OP_IADD, f, A2(w, IR_OP_ISHL, s, K(w, 23)));
   return sign ? A2(w, IR_OP_IOR, bits, sign) : bits;
}

static struct w64
to_double(struct lw *w, struct w64 m, struct ir_instr *sign)
{
   struct ir_instr *n, *one = K(w, 1);
   struct w64 v = normalize(w, m, &n);
   struct ir_instr *shi = A2(w, IR_OP_USHR, v.hi, K(w, 11)); /* 21 of 53 bits */
   struct ir_instr *slo = A2(w, IR_OP_ISHL, v.hi, K(w, 21));
   slo = A2(w, IR_OP_IOR, slo, A2(w, IR_OP_USHR, v.lo, K(w, 11)));
   struct ir_instr *guard = A2(w, IR_OP_IAND, A2(w, IR_OP_USHR, v.lo, K(w, 10)), one);
   struct ir_instr *zero = K(w, 0);
   struct ir_instr *sticky = A2(w, IR_OP_INE, A2(w, IR_OP_IAND, v.lo, K(w, 0x3ff)), zero);
   struct ir_instr *odd = A2(w, IR_OP_IAND, slo, one);
   struct ir_instr *up = A2(w, IR_OP_IAND, guard, A2(w, IR_OP_IOR, sticky, odd));
   struct ir_instr *e = A2(w, IR_OP_IADD, n, K(w, 1022)); /* + the top bit: 1023 + n */
   e = A2(w, IR_OP_ISHL, e, K(w, 20));
   struct ir_instr *hi = A2(w, IR_OP_IADD, e, shi);
   struct w64 bits = add64(w, pair(slo, hi), pair(up, zero));
   if (sign)
      bits.hi = A2(w, IR_OP_IOR, bits.hi, sign);
   struct ir_instr *mz = A2(w, IR_OP_IEQ, A2(w, IR_OP_IOR, m.lo, m.hi), zero);
   return sel64(w, mz, pair(zero, zero), bits);
}

/* trunc(v * 2^-r) for v the significand moved up to bit 63 and r =
 * (the exponent of v's bit 0) negated: one right shift, 0 from r = 64 on
 * (e too small); r < 0 (past 2^64) is the caller's. */
static struct w64
scale(struct lw *w, struct w64 v, struct ir_instr *r)
{
   struct w64 t = shift64(w, v, r, IR_OP_USHR);
   struct ir_instr *in = A2(w, IR_OP_ULT, r, K(w, 64));
   return sel64(w, in, t, const64(w, 0));
}

/* f2i64/f2u64/d2i64/d2u64 from the high word (sign), the significand,
 * the biased exponent and a NaN mask. */
static struct w64
from_real(struct lw *w, enum ir_op op, struct ir_instr *hi, struct w64 v, struct ir_instr *e,
          struct ir_instr *nan)
{
   bool dbl = op == IR_OP_D2I64 || op == IR_OP_D2U64;
   bool sign = op == IR_OP_F2I64 || op == IR_OP_D2I64;
   /* v's bit 63 is worth 2^(e - bias) with bias 127 or 1023: r = bias + 63 - e */
   struct ir_instr *r = A2(w, IR_OP_ISUB, K(w, dbl ? 1086 : 190), e);
   struct w64 mag = scale(w, v, r);
   struct ir_instr *neg = A2(w, IR_OP_ILT, hi, K(w, 0));
   uint32_t limit = (dbl ? 1023 : 127) + (sign ? 63 : 64); /* 2^63 or 2^64 */
   struct ir_instr *big = A2(w, IR_OP_IGE, e, K(w, limit));
   if (sign) { /* out of range and NaN: INT64_MIN */
      struct w64 res = sel64(w, neg, neg64(w, mag), mag);
      return sel64(w, big, const64(w, 0x8000000000000000ull), res);
   }
   struct w64 res = sel64(w, big, const64(w, ~0ull), mag);
   struct ir_instr *low = A2(w, IR_OP_IOR, neg, nan);
   return sel64(w, low, const64(w, 0), res);
}

/* The float's 24-bit significand at the top of the word: (0, sig << 8). */
static struct w64
from_float(struct lw *w, enum ir_op op, struct ir_instr *x)
{
   struct ir_instr *e = A2(w, IR_OP_USHR, x, K(w, 23));
   e = A2(w, IR_OP_IAND, e, K(w, 0xff));
   struct ir_instr *sig = A2(w, IR_OP_ISHL, x, K(w, 8));
   sig = A2(w, IR_OP_IOR, sig, K(w, 0x80000000u));
   struct ir_instr *ax = A2(w, IR_OP_IAND, x, K(w, 0x7fffffffu));
   struct ir_instr *nan = A2(w, IR_OP_ULT, K(w, 0x7f800000u), ax);
   return from_real(w, op, x, pair(K(w, 0), sig), e, nan);
}

/* The double's 53-bit significand moved up by 11. */
static struct w64
from_double(struct lw *w, enum ir_op op, struct w64 x)
{
   struct ir_instr *e = A2(w, IR_OP_USHR, x.hi, K(w, 20));
   e = A2(w, IR_OP_IAND, e, K(w, 0x7ff));
   struct ir_instr *k11 = K(w, 11);
   struct ir_instr *hi = A2(w, IR_OP_ISHL, x.hi, k11);
   hi = A2(w, IR_OP_IOR, hi, A2(w, IR_OP_USHR, x.lo, K(w, 21)));
   hi = A2(w, IR_OP_IOR, hi, K(w, 0x80000000u));
   struct ir_instr *lo = A2(w, IR_OP_ISHL, x.lo, k11);
   struct ir_instr *ah = A2(w, IR_OP_IAND, x.hi, K(w, 0x7fffffffu)), *inf = K(w, 0x7ff00000u);
   struct ir_instr *above = A2(w, IR_OP_ULT, inf, ah);
   struct ir_instr *frac = A2(w, IR_OP_INE, x.lo, K(w, 0));
   struct ir_instr *nan =
       A2(w, IR_OP_IOR, above, A2(w, IR_OP_IAND, A2(w, IR_OP_IEQ, ah, inf), frac));
   return from_real(w, op, x.hi, pair(lo, hi), e, nan);
}

/* ------------------------------------------------------------------ */
/* The ops                                                              */

static bool
is_int64_op(enum ir_op op)
{
   switch (op) {
   case IR_OP_IADD64:
   case IR_OP_IMUL64:
   case IR_OP_INEG64:
   case IR_OP_IABS64:
   case IR_OP_ISIGN64:
   case IR_OP_ISHL64:
   case IR_OP_ISHR64:
   case IR_OP_USHR64:
   case IR_OP_IMIN64:
   case IR_OP_IMAX64:
   case IR_OP_UMIN64:
   case IR_OP_UMAX64:
   case IR_OP_IDIV64:
   case IR_OP_IMOD64:
   case IR_OP_UDIV64:
   case IR_OP_UMOD64:
   case IR_OP_IEQ64:
   case IR_OP_INE64:
   case IR_OP_ILT64:
   case IR_OP_IGE64:
   case IR_OP_ULT64:
   case IR_OP_UGE64:
   case IR_OP_I2I64:
   case IR_OP_U2U64:
   case IR_OP_F2I64:
   case IR_OP_F2U64:
   case IR_OP_D2I64:
   case IR_OP_D2U64:
   case IR_OP_I642F:
   case IR_OP_U642F:
   case IR_OP_I642D:
   case IR_OP_U642D:
      return true;
   default:
      return false;
   }
}

/* Which results are 32-bit: compares and i642f/u642f. */
static bool
result32(enum ir_op op)
{
   return ir_op_info[op].dst == IR_TC_W;
}

static struct ir_instr *
lower32(struct lw *w, struct ir_instr *in)
{
   enum ir_op op = in->op;
   struct w64 a = words(w, in->src[0]);
   struct ir_instr *neg;
   switch (op) {
   case IR_OP_I642F: {
      struct w64 m = abs64(w, a, &neg);
      return to_float(w, m, A2(w, IR_OP_IAND, neg, K(w, 0x80000000u)));
   }
   case IR_OP_U642F:
      return to_float(w, a, NULL);
   default:
      break;
   }
   struct w64 b = words(w, in->src[1]);
   switch (op) {
   case IR_OP_IEQ64:
   case IR_OP_INE64:
      return eq64(w, a, b, op == IR_OP_INE64);
   case IR_OP_ILT64:
   case IR_OP_IGE64:
      return cmp64(w, a, b, true, op == IR_OP_IGE64);
   default: /* ult64, uge64 */
      return cmp64(w, a, b, false, op == IR_OP_UGE64);
   }
}

static struct w64
lower64(struct lw *w, struct ir_instr *in)
{
   enum ir_op op = in->op;
   struct ir_instr *x = in->src[0], *neg;
   switch (op) {
   case IR_OP_U2U64:
      return pair(x, K(w, 0));
   case IR_OP_I2I64:
      return pair(x, A2(w, IR_OP_ISHR, x, K(w, 31)));
   case IR_OP_F2I64:
   case IR_OP_F2U64:
      return from_float(w, op, x);
   default:
      break;
   }
   struct w64 a = words(w, x);
   switch (op) {
   case IR_OP_INEG64:
      return neg64(w, a);
   case IR_OP_IABS64:
      return abs64(w, a, &neg);
   case IR_OP_ISIGN64: { /* hi: the sign spread; lo: that, or 1 when non-zero */
      struct ir_instr *hi = A2(w, IR_OP_ISHR, a.hi, K(w, 31));
      struct ir_instr *zero = K(w, 0);
      struct ir_instr *nz = A2(w, IR_OP_INE, A2(w, IR_OP_IOR, a.lo, a.hi), zero);
      return pair(A2(w, IR_OP_IOR, hi, A2(w, IR_OP_IAND, nz, K(w, 1))), hi);
   }
   case IR_OP_I642D: {
      struct w64 m = abs64(w, a, &neg);
      return to_double(w, m, A2(w, IR_OP_IAND, neg, K(w, 0x80000000u)));
   }
   case IR_OP_U642D:
      return to_double(w, a, NULL);
   case IR_OP_D2I64:
   case IR_OP_D2U64:
      return from_double(w, op, a);
   case IR_OP_ISHL64:
   case IR_OP_ISHR64:
   case IR_OP_USHR64:
      return shift64(w, a, in->src[1],
                     op == IR_OP_ISHL64   ? IR_OP_ISHL
                     : op == IR_OP_ISHR64 ? IR_OP_ISHR
                                          : IR_OP_USHR);
   default:
      break;
   }
   struct w64 b = words(w, in->src[1]);
   switch (op) {
   case IR_OP_IADD64:
      return add64(w, a, b);
   case IR_OP_IMUL64:
      return mul64(w, a, b);
   case IR_OP_IMIN64:
   case IR_OP_UMIN64: /* a < b ? a : b */
      return sel64(w, cmp64(w, a, b, op == IR_OP_IMIN64, false), a, b);
   case IR_OP_IMAX64:
   case IR_OP_UMAX64: /* a > b ? a : b */
      return sel64(w, cmp64(w, b, a, op == IR_OP_IMAX64, false), a, b);
   default: /* the divisions */
      return divide64(w, op, a, b);
   }
}

/* unpack64_lo/hi of the packs made or read here read the words; what the
 * pass read as words and left without users goes. */
static void
tidy(struct lw *w)
{
   struct ir_shader *sh = w->sh;
   for (unsigned i = 0; i < sh->nvalues; i++) {
      struct ir_instr *in = sh->values[i];
      if (!in || in->removed || (in->op != IR_OP_UNPACK64_LO && in->op != IR_OP_UNPACK64_HI))
         continue;
      struct ir_instr *p = in->src[0];
      bool ours = false;
      for (unsigned k = 0; k < w->npacks && !ours; k++)
         ours = w->packs[k] == p && p->op == IR_OP_PACK64;
      if (ours)
         opt_replace(sh, in, p->src[in->op == IR_OP_UNPACK64_HI]);
   }
   /* latest first: a dneg goes before the pack it reads */
   for (unsigned k = w->npacks; k-- > 0;) {
      struct ir_instr *p = w->packs[k];
      bool used = p->removed;
      for (unsigned i = 0; i < sh->nvalues && !used; i++) {
         const struct ir_instr *u = sh->values[i];
         for (unsigned s = 0; u && !u->removed && s < u->nsrc && !used; s++)
            used = u->src[s] == p;
      }
      if (!used)
         ir_instr_remove(p);
   }
}

bool
opt_lower_int64(struct ir_shader *sh, struct opt_ctx *ctx)
{
   (void)ctx;
   struct lw w = {.sh = sh};
   struct ir_instr **order;
   unsigned n = ir_program_order(sh, &order);
   bool progress = false;
   for (unsigned i = 0; i < n; i++) {
      struct ir_instr *in = order[i];
      if (in->removed || !is_int64_op(in->op))
         continue;
      w.pos = in;
      struct ir_instr *rep;
      if (result32(in->op)) {
         rep = lower32(&w, in);
      } else {
         struct w64 r = lower64(&w, in);
         rep = A2(&w, IR_OP_PACK64, r.lo, r.hi);
         note_pack(&w, rep);
      }
      opt_replace(sh, in, rep);
      progress = true;
   }
   free(order);
   if (progress)
      tidy(&w);
   free(w.div);
   free(w.packs);
   return progress;
}
