/*
 * The TGSI expansions of the reference compiler, written once for every
 * target in terms of the scalar primitives of ref.h (REF_PRIMS), which
 * each target implements with its own instructions.
 *
 * An instruction is expanded in three steps, so sources and destination
 * may alias freely:
 *  1. fetch: every source channel into a register -- a TEMP/IN/OUT/ADDR/SV
 *     home is used in place, constants and immediates are loaded from the
 *     constant file (target), indirect operands through the target's
 *     relative addressing or a compare-and-select over the file, and the
 *     source modifiers are applied with the opcode's fetch type (float:
 *     FABS/FNEG bit operations; integer: INEG, and IABS for |x|);
 *  2. compute each written channel into a scratch register (a long
 *     expansion's temporaries die with its channel, comp_channel);
 *  3. store: saturate (FMAX with 0, then FMIN with 1: NaN -> 0, -0 -> +0,
 *     as TGSI), then copy into the destination's home, or for an indirect
 *     destination one compare-and-select per register the index may name.
 *
 * Where a primitive's rule differs from TGSI's, the expansion computes
 * TGSI's answer: comparisons give 1/0 and become 1.0f or ~0; CMP selects on
 * (a < 0), so -0.0 and NaN pick the third operand; UDIV/UMOD/IDIV/MOD run
 * a 32-step restoring division loop with TGSI's divide-by-zero results;
 * IBFE/UBFE/BFI follow tgsi_exec's rules for every offset and width; LIT
 * keeps -0 and NaN where TGSI's max/clamp keep them; POW is exp2(b *
 * log2(a)) with C pow's pow(x, 0) = pow(1, y) = 1. Approximations (TGSI
 * flags them RCP/TRANS): DIV is a * rcp(b), POW as above, LOG's mantissa
 * divides by a power of two through rcp.
 *
 * Register numbers must not depend on the C compiler: an argument list
 * holds at most one call that allocates or emits.
 */
#include "compiler/ref/ref.h"

#define P(op, a, b, d) ref_prim(c, REF_P_##op, (a), (b), (d))
#define P1(op, a)      ref_prim(c, REF_P_##op, (a), 0, 0)
#define P2(op, a, b)   ref_prim(c, REF_P_##op, (a), (b), 0)

unsigned
ref_prim(struct ref_ctx *c, enum ref_prim op, unsigned a, unsigned b, unsigned d)
{
   if (c->status != COMPILE_OK)
      return c->scratch_lo;
   return c->t->prim(c, op, a, b, d);
}

unsigned
ref_imm_reg(struct ref_ctx *c, uint32_t v)
{
   unsigned r = ref_tmp(c);
   c->t->mov_imm(c, r, v);
   return r;
}

void
ref_select_eq(struct ref_ctx *c, unsigned d, unsigned a, unsigned b, unsigned x, unsigned y)
{
   unsigned e = P2(IEQ, a, b);
   c->t->copy(c, d, P(SEL, x, e, y));
}

/* ------------------------------------------------------------------ */
/* Operands                                                             */

/* The registers an indirect index may name: the whole file, whatever
 * array the operand names -- the interpreter addresses the file, so an
 * index past its array reads or writes the next declared registers. */
static bool
indirect_range(struct ref_ctx *c, const struct tgsi_reg *r, unsigned *lo, unsigned *hi)
{
   *lo = 0;
   if (c->t->consts_in_gpr && r->file == TGSI_FILE_IMM) /* constants in registers (gfx9) */
      return (*hi = c->s->nimms) > 0;
   if (c->t->consts_in_gpr && r->file == TGSI_FILE_CONST) {
      int64_t b = r->has_dim ? r->dim : 0;
      return b >= 0 && b < 16 && (*hi = c->ccount[b]) > 0;
   }
   if (r->file != TGSI_FILE_TEMP && r->file != TGSI_FILE_OUT && r->file != TGSI_FILE_IN)
      return false;
   *lo = 0;
   *hi = c->count[r->file];
   return *hi > *lo;
}

/* The address (index plus the literal offset) of an indirect operand. */
static unsigned
indirect_index(struct ref_ctx *c, const struct tgsi_reg *r)
{
   struct tgsi_reg ar = {.file = r->ind.file, .index = (int32_t)r->ind.index};
   int a = ref_home(c, &ar, r->ind.comp);
   if (a < 0 || r->dim_indirect) {
      ref_unsupported(c, "indirect addressing through %s",
                      r->dim_indirect ? "a dimension (the buffer or vertex chosen per lane)"
                                      : "a register without a home");
      return 0;
   }
   unsigned k = ref_imm_reg(c, (uint32_t)r->index);
   return P2(IADD, (unsigned)a, k);
}

#define REF_MAX_LITERAL_SELECT 256

/* Generic indirect read of TEMP/IN/OUT: v = home[j] where index == j,
 * over the registers the index may name (undefined outside: the value of
 * the last compare that failed, 0 here). */
static unsigned
select_indirect(struct ref_ctx *c, const struct tgsi_reg *r, unsigned comp)
{
   unsigned lo, hi;
   if (!indirect_range(c, r, &lo, &hi)) {
      ref_unsupported(c, "indirect read of %s", tgsi_file_names[r->file]);
      return 0;
   }
   /* compact layout: each immediate a literal move per lane and read, so
    * the chain is bounded as the optimizing path's is */
   if (r->file == TGSI_FILE_IMM && c->cmem_from && hi - lo > REF_MAX_LITERAL_SELECT) {
      ref_unsupported(c, "an indirect read among %u immediates written as literals (at most %u)",
                      hi - lo, REF_MAX_LITERAL_SELECT);
      return 0;
   }
   unsigned idx = indirect_index(c, r), v = ref_imm_reg(c, 0);
   for (unsigned j = lo; j < hi && c->status == COMPILE_OK; j++) {
      unsigned mark = c->scratch_next; /* the step's temporaries die with it */
      struct tgsi_reg t = *r;
      t.indirect = false;
      t.index = (int32_t)j;
      int h = ref_home(c, &t, comp);
      int slot = h < 0 && c->t->consts_in_gpr ? ref_const_slot(c, &t, comp) : -1;
      if (slot >= 0 && c->cmem_from && (unsigned)slot >= c->cmem_from)
         h = (int)c->t->load_const(c, (unsigned)slot); /* compact: no register holds it */
      else if (slot >= 0)                              /* a constant slot's register */
         h = (int)c->creg + slot;
      unsigned jr = ref_imm_reg(c, j);
      unsigned hit = P2(IEQ, idx, jr);
      c->t->copy(c, v, P(SEL, (unsigned)h, hit, v));
      c->scratch_next = mark;
   }
   return v;
}

unsigned
ref_fetch(struct ref_ctx *c, const struct tgsi_insn *in, unsigned si, unsigned chan)
{
   const struct tgsi_src *s = &in->src[si];
   unsigned comp = s->swz[chan] & 3, v = 0;
   int h;
   if (s->reg.indirect || s->reg.dim_indirect) {
      bool cst = s->reg.file == TGSI_FILE_CONST || s->reg.file == TGSI_FILE_IMM;
      if (c->t->load_indirect && c->t->load_indirect(c, &s->reg, comp, &v))
         ;
      else if (!cst || c->t->consts_in_gpr)
         v = select_indirect(c, &s->reg, comp);
      else
         ref_unsupported(c, "indirect reads of %s", tgsi_file_names[s->reg.file]);
   } else if ((h = ref_home(c, &s->reg, comp)) >= 0) {
      v = (unsigned)h;
   } else if ((h = ref_const_slot(c, &s->reg, comp)) >= 0) {
      v = c->t->load_const(c, (unsigned)h);
   } else {
      ref_unsupported(c, "operand %u: %s[%d] has no home", si + 1, tgsi_file_names[s->reg.file],
                      s->reg.index);
   }
   if (!s->neg && !s->abs)
      return v;
   uint8_t type = tgsi_interp_src_type(in->op, si);
   if (type == TGSI_TYPE_F) {
      if (s->abs)
         v = P1(FABS, v);
      return s->neg ? P1(FNEG, v) : v;
   }
   if (type != TGSI_TYPE_I && type != TGSI_TYPE_U) {
      ref_unsupported(c, "source modifiers on 64-bit operands");
      return v;
   }
   if (s->abs) /* undefined for integers in TGSI; integer abs here */
      v = P2(IMAX, v, P1(INEG, v));
   return s->neg ? P1(INEG, v) : v;
}

/* ------------------------------------------------------------------ */
/* Destination                                                          */

static unsigned
saturate(struct ref_ctx *c, unsigned v)
{
   unsigned zero = ref_imm_reg(c, 0), one = ref_imm_reg(c, 0x3f800000u);
   unsigned t = P2(FMAX, v, zero);
   return P2(FMIN, t, one);
}

/* Indirect destination: one compare-and-select per register of the
 * array (or of the file) and written channel; lanes address per lane. */
static void
store_indirect(struct ref_ctx *c, const struct tgsi_dst *dst, const unsigned *res)
{
   const struct tgsi_reg *r = &dst->reg;
   unsigned lo, hi;
   if (r->file == TGSI_FILE_IN || !indirect_range(c, r, &lo, &hi)) {
      ref_unsupported(c, "an indirect %s destination", tgsi_file_names[r->file]);
      return;
   }
   unsigned idx = indirect_index(c, r);
   for (unsigned j = lo; j < hi && c->status == COMPILE_OK; j++) {
      unsigned mark = c->scratch_next; /* the step's temporaries die with it */
      unsigned jr = ref_imm_reg(c, j);
      unsigned hit = P2(IEQ, idx, jr);
      for (unsigned ch = 0; ch < 4; ch++) {
         if (!(dst->mask & (1u << ch)))
            continue;
         struct tgsi_reg t = *r;
         t.indirect = false;
         t.index = (int32_t)j;
         unsigned h = (unsigned)ref_home(c, &t, ch);
         c->t->copy(c, h, P(SEL, res[ch], hit, h));
      }
      c->scratch_next = mark;
   }
}

/* Whether the store to dst writes register r before it may read r as the
 * result of another channel: r is the home of a written channel other
 * than `self` of a direct destination, or of any register and channel an
 * indirect one may write. */
static bool
store_clobbers(struct ref_ctx *c, const struct tgsi_dst *dst, unsigned r, unsigned self)
{
   bool ind = dst->reg.indirect || dst->reg.dim_indirect;
   unsigned lo = (unsigned)dst->reg.index, hi = lo + 1;
   if (ind && !indirect_range(c, &dst->reg, &lo, &hi))
      return false;
   for (unsigned j = lo; j < hi; j++)
      for (unsigned ch = 0; ch < 4; ch++) {
         struct tgsi_reg t = dst->reg;
         t.indirect = false;
         t.index = (int32_t)j;
         if ((dst->mask & (1u << ch)) && (ind || ch != self) && ref_home(c, &t, ch) == (int)r)
            return true;
      }
   return false;
}

void
ref_store(struct ref_ctx *c, const struct tgsi_insn *in, const unsigned *res)
{
   const struct tgsi_dst *dst = &in->dst[0];
   unsigned v[4] = {0, 0, 0, 0};
   for (unsigned ch = 0; ch < 4; ch++)
      if (dst->mask & (1u << ch))
         v[ch] = in->sat ? saturate(c, res[ch]) : res[ch];
   if (dst->reg.file == TGSI_FILE_NULL || c->status != COMPILE_OK)
      return;
   if (dst->reg.file == TGSI_FILE_OUT && c->s->stage == TGSI_STAGE_TESS_CTRL) {
      if (c->t->store_output)
         c->t->store_output(c, dst, v);
      else
         ref_unsupported(c, "tessellation control outputs");
      return;
   }
   /* A result may be a source's home used in place (MOV TEMP[0].xz,
    * TEMP[0].zzxy): TGSI reads every source before writing, so such a
    * result is copied aside before the store overwrites it. */
   for (unsigned ch = 0; ch < 4; ch++)
      if ((dst->mask & (1u << ch)) && store_clobbers(c, dst, v[ch], ch)) {
         unsigned t = ref_tmp(c);
         c->t->copy(c, t, v[ch]);
         v[ch] = t;
      }
   if (dst->reg.indirect || dst->reg.dim_indirect) {
      store_indirect(c, dst, v);
      return;
   }
   for (unsigned ch = 0; ch < 4; ch++) {
      if (!(dst->mask & (1u << ch)))
         continue;
      int h = ref_home(c, &dst->reg, ch);
      if (h < 0 || dst->reg.file == TGSI_FILE_IN || dst->reg.file == TGSI_FILE_SV) {
         ref_unsupported(c, "destination %s[%d]", tgsi_file_names[dst->reg.file], dst->reg.index);
         return;
      }
      c->t->copy(c, (unsigned)h, v[ch]);
   }
}

/* ------------------------------------------------------------------ */
/* Integer helpers                                                      */

/* High 32 bits of the unsigned product, from 16-bit halves:
 * hi = ah*bh + (lh >> 16) + (hl >> 16) + (((ll >> 16) + lo16(lh) + lo16(hl)) >> 16). */
unsigned
ref_umul_hi(struct ref_ctx *c, unsigned a, unsigned b)
{
   unsigned k16 = ref_imm_reg(c, 16), mask = ref_imm_reg(c, 0xffff);
   unsigned al = P2(AND, a, mask), bl = P2(AND, b, mask);
   unsigned ah = P2(SHR, a, k16), bh = P2(SHR, b, k16);
   unsigned ll = P2(IMUL, al, bl), lh = P2(IMUL, al, bh);
   unsigned hl = P2(IMUL, ah, bl), hh = P2(IMUL, ah, bh);
   unsigned mid = P2(SHR, ll, k16);
   mid = P2(IADD, mid, P2(AND, lh, mask));
   mid = P2(IADD, mid, P2(AND, hl, mask));
   unsigned hi = P2(IADD, hh, P2(SHR, lh, k16));
   hi = P2(IADD, hi, P2(SHR, hl, k16));
   return P2(IADD, hi, P2(SHR, mid, k16));
}

/* Signed: the unsigned high product minus b where a < 0 and a where b < 0. */
static unsigned
imul_hi(struct ref_ctx *c, unsigned a, unsigned b)
{
   unsigned hi = ref_umul_hi(c, a, b), zero = ref_imm_reg(c, 0);
   unsigned an = P2(ILT, a, zero), bn = P2(ILT, b, zero);
   hi = P2(ISUB, hi, P(SEL, b, an, zero));
   return P2(ISUB, hi, P(SEL, a, bn, zero));
}

/* Restoring division, one bit per iteration of a 32-iteration loop (the
 * same count in every lane, so the branch never diverges):
 *   r = r << 1 | bit i of n; if (r >= d or the shift carried out) r -= d;
 *   q = q << 1 | that decision.
 * d == 0 gives q = ~0 and r = n. */
static void
udivmod(struct ref_ctx *c, unsigned n, unsigned d, unsigned *qo, unsigned *ro)
{
   unsigned q = ref_imm_reg(c, 0), r = ref_imm_reg(c, 0), i = ref_imm_reg(c, 31);
   unsigned one = ref_imm_reg(c, 1), k31 = ref_imm_reg(c, 31), zero = ref_imm_reg(c, 0);
   int top = ref_label(c);
   ref_place(c, top);
   unsigned carry = P2(SHR, r, k31);
   unsigned bit = P2(AND, P2(SHR, n, i), one);
   c->t->copy(c, r, P2(OR, P2(SHL, r, one), bit));
   unsigned ge = P2(OR, P2(UGE, r, d), carry);
   c->t->copy(c, r, P(SEL, P2(ISUB, r, d), ge, r));
   c->t->copy(c, q, P2(OR, P2(SHL, q, one), ge));
   c->t->copy(c, i, P2(ISUB, i, one));
   unsigned more = P2(IGE, i, zero);
   c->t->branch(c, REF_TEST_INT_NZ, more, more, true, top);
   *qo = q;
   *ro = r;
}

static unsigned
divide(struct ref_ctx *c, enum tgsi_opcode op, unsigned a, unsigned b)
{
   unsigned q, r, zero = ref_imm_reg(c, 0), ones = ref_imm_reg(c, 0xffffffffu);
   unsigned z = P2(IEQ, b, zero);
   if (op == TGSI_OP_UDIV || op == TGSI_OP_UMOD) {
      udivmod(c, a, b, &q, &r);
      return op == TGSI_OP_UDIV ? q : P(SEL, ones, z, r); /* b == 0: ~0 (TGSI) */
   }
   /* Signed: divide the magnitudes, then C's signs (the quotient negative
    * when the signs differ, the remainder with the dividend's sign).
    * Divide by zero: IDIV 0, MOD -1 (undefined; the interpreter's values). */
   unsigned aa = P2(IMAX, a, P1(INEG, a)), ba = P2(IMAX, b, P1(INEG, b));
   udivmod(c, aa, ba, &q, &r);
   if (op == TGSI_OP_IDIV) {
      unsigned sn = P2(ILT, P2(XOR, a, b), zero);
      unsigned res = P(SEL, P1(INEG, q), sn, q);
      return P(SEL, zero, z, res);
   }
   unsigned an = P2(ILT, a, zero);
   unsigned res = P(SEL, P1(INEG, r), an, r);
   return P(SEL, ones, z, res);
}

/* IBFE/UBFE as tgsi_exec: off = offset & 31; bits == 32 && off == 0 -> v;
 * bits &= 31; bits == 0 -> 0; bits + off < 32 -> the field shifted to the
 * top and back; else v >> off. */
static unsigned
bfe(struct ref_ctx *c, unsigned v, unsigned offset, unsigned bits, bool sign)
{
   enum ref_prim shr = sign ? REF_P_ASHR : REF_P_SHR;
   unsigned k31 = ref_imm_reg(c, 31), k32 = ref_imm_reg(c, 32), zero = ref_imm_reg(c, 0);
   unsigned off = P2(AND, offset, k31), b = P2(AND, bits, k31);
   unsigned up = P2(ISUB, k32, b); /* 32 - b */
   unsigned x = P2(SHL, v, P2(ISUB, up, off));
   unsigned r1 = ref_prim(c, shr, x, up, 0);
   unsigned r2 = ref_prim(c, shr, v, off, 0);
   unsigned fits = P2(ULT, P2(IADD, b, off), k32);
   unsigned r = P(SEL, r1, fits, r2);
   r = P(SEL, zero, P2(IEQ, b, zero), r);
   unsigned all = P2(IEQ, bits, k32);
   unsigned whole = P2(AND, all, P2(IEQ, off, zero));
   return P(SEL, v, whole, r);
}

/* BFI as tgsi_exec: off = offset & 31; bits >= 32 -> (bits == 32 ? insert
 * : base); else mask = ((1 << bits) - 1) << off. */
static unsigned
bfi(struct ref_ctx *c, unsigned base, unsigned ins, unsigned offset, unsigned bits)
{
   unsigned k31 = ref_imm_reg(c, 31), k32 = ref_imm_reg(c, 32), one = ref_imm_reg(c, 1);
   unsigned off = P2(AND, offset, k31);
   unsigned mask = P2(SHL, P2(ISUB, P2(SHL, one, bits), one), off);
   unsigned hi = P2(AND, P2(SHL, ins, off), mask);
   unsigned r = P2(OR, hi, P2(AND, base, P1(NOT, mask)));
   unsigned alt = P(SEL, ins, P2(IEQ, bits, k32), base);
   return P(SEL, alt, P2(UGE, bits, k32), r);
}

/* ------------------------------------------------------------------ */
/* Float helpers                                                        */

/* ldexpf(a, n) with one rounding: n is clamped to [-300, 300] (beyond
 * that every result is 0 or inf already) and split into four parts of the
 * same sign, k = trunc(n / 4) three times and n - 3k, each 2^part exact
 * (|part| <= 78); the running product moves monotonically away from a, so
 * only the last multiplication can round (a denormal scaled up is exact,
 * a value scaled down underflows only at the end). */
static unsigned
fldexp(struct ref_ctx *c, unsigned a, unsigned n)
{
   unsigned lim = ref_imm_reg(c, 300);
   unsigned lo = P1(INEG, lim);
   unsigned m = P2(IMAX, n, lo);
   m = P2(IMIN, m, lim);
   unsigned mag = P2(IMAX, m, P1(INEG, m));
   unsigned q = P2(SHR, mag, ref_imm_reg(c, 2));
   unsigned zero = ref_imm_reg(c, 0);
   unsigned neg = P2(ILT, m, zero);
   unsigned k = P(SEL, P1(INEG, q), neg, q);
   unsigned rest = P2(ISUB, m, P2(IMUL, k, ref_imm_reg(c, 3)));
   unsigned fk = P1(FEXP2, P1(I2F, k));
   unsigned r = P2(FMUL, a, fk);
   r = P2(FMUL, r, fk);
   r = P2(FMUL, r, fk);
   return P2(FMUL, r, P1(FEXP2, P1(I2F, rest)));
}

/* TGSI's max(a, 0) in LIT: NaN -> +0, otherwise 0 > a ? 0 : a (-0 stays). */
static unsigned
max0_keep(struct ref_ctx *c, unsigned a)
{
   unsigned zero = ref_imm_reg(c, 0);
   unsigned r = P(SEL, zero, P2(FLT, a, zero), a);
   return P(SEL, zero, P2(FNE, a, a), r);
}

/* pow(a, b) = exp2(b * log2(a)), with C pow's pow(x, 0) = pow(1, y) = 1. */
static unsigned
fpow(struct ref_ctx *c, unsigned a, unsigned b)
{
   unsigned e = P1(FEXP2, P2(FMUL, P1(FLOG2, a), b));
   unsigned zero = ref_imm_reg(c, 0), one = ref_imm_reg(c, 0x3f800000u);
   unsigned b0 = P2(FEQ, b, zero), a1 = P2(FEQ, a, one);
   return P(SEL, one, P2(OR, b0, a1), e);
}

/* ((a0*b0 + a1*b1) + a2*b2) + a3*b3, two roundings per step. */
static unsigned
dot(struct ref_ctx *c, const struct tgsi_insn *in, unsigned n, bool homogeneous)
{
   unsigned a0 = ref_fetch(c, in, 0, 0);
   unsigned acc = P2(FMUL, a0, ref_fetch(c, in, 1, 0));
   for (unsigned k = 1; k < n; k++) {
      unsigned b = ref_fetch(c, in, 1, k);
      if (homogeneous && k == 3)
         acc = P2(FADD, acc, b);
      else
         acc = P(FMAD, ref_fetch(c, in, 0, k), b, acc);
   }
   return acc;
}

/* 1.0f / 0.0f or ~0 / 0 from a 1/0 compare result. */
static unsigned
to_float1(struct ref_ctx *c, unsigned t)
{
   return P1(U2F, t);
}

static unsigned
to_mask(struct ref_ctx *c, unsigned t)
{
   return P1(INEG, t);
}

/* ------------------------------------------------------------------ */
/* Component-wise opcodes                                               */

struct prim_map {
   enum tgsi_opcode op;
   enum ref_prim prim;
};

/* One primitive on the fetched sources. */
static const struct prim_map direct_ops[] = {
    {TGSI_OP_ADD, REF_P_FADD},     {TGSI_OP_MUL, REF_P_FMUL},      {TGSI_OP_MAD, REF_P_FMAD},
    {TGSI_OP_FMA, REF_P_FFMA},     {TGSI_OP_MIN, REF_P_FMIN},      {TGSI_OP_MAX, REF_P_FMAX},
    {TGSI_OP_FLR, REF_P_FFLOOR},   {TGSI_OP_CEIL, REF_P_FCEIL},    {TGSI_OP_TRUNC, REF_P_FTRUNC},
    {TGSI_OP_ROUND, REF_P_FRNDNE}, {TGSI_OP_UADD, REF_P_IADD},     {TGSI_OP_UMUL, REF_P_IMUL},
    {TGSI_OP_IMAX, REF_P_IMAX},    {TGSI_OP_IMIN, REF_P_IMIN},     {TGSI_OP_UMAX, REF_P_UMAX},
    {TGSI_OP_UMIN, REF_P_UMIN},    {TGSI_OP_AND, REF_P_AND},       {TGSI_OP_OR, REF_P_OR},
    {TGSI_OP_XOR, REF_P_XOR},      {TGSI_OP_NOT, REF_P_NOT},       {TGSI_OP_SHL, REF_P_SHL},
    {TGSI_OP_USHR, REF_P_SHR},     {TGSI_OP_ISHR, REF_P_ASHR},     {TGSI_OP_BREV, REF_P_BREV},
    {TGSI_OP_POPC, REF_P_POPC},    {TGSI_OP_UMSB, REF_P_UMSB},     {TGSI_OP_IMSB, REF_P_IMSB},
    {TGSI_OP_F2I, REF_P_F2I},      {TGSI_OP_F2U, REF_P_F2U},       {TGSI_OP_I2F, REF_P_I2F},
    {TGSI_OP_U2F, REF_P_U2F},      {TGSI_OP_ARL, REF_P_F2I_FLOOR}, {TGSI_OP_INEG, REF_P_INEG},
};

/* Compares: the primitive, whether the sources swap, and the result form. */
static const struct {
   enum tgsi_opcode op;
   enum ref_prim prim;
   bool mask; /* ~0 / 0, else 1.0f / 0.0f */
} cmp_ops[] = {
    {TGSI_OP_SLT, REF_P_FLT, false}, {TGSI_OP_SGE, REF_P_FGE, false},
    {TGSI_OP_SEQ, REF_P_FEQ, false}, {TGSI_OP_SGT, REF_P_FGT, false},
    {TGSI_OP_SLE, REF_P_FLE, false}, {TGSI_OP_SNE, REF_P_FNE, false},
    {TGSI_OP_FSLT, REF_P_FLT, true}, {TGSI_OP_FSGE, REF_P_FGE, true},
    {TGSI_OP_FSEQ, REF_P_FEQ, true}, {TGSI_OP_FSNE, REF_P_FNE, true},
    {TGSI_OP_ISLT, REF_P_ILT, true}, {TGSI_OP_ISGE, REF_P_IGE, true},
    {TGSI_OP_USLT, REF_P_ULT, true}, {TGSI_OP_USGE, REF_P_UGE, true},
    {TGSI_OP_USEQ, REF_P_IEQ, true}, {TGSI_OP_USNE, REF_P_INE, true},
};

static bool
comp_table(struct ref_ctx *c, const struct tgsi_insn *in, unsigned ch, unsigned *out)
{
   unsigned ns = tgsi_op_info[in->op].nsrc, s[3] = {0, 0, 0};
   for (unsigned k = 0; k < ARRAY_SIZE(direct_ops); k++) {
      if (direct_ops[k].op != in->op)
         continue;
      for (unsigned i = 0; i < ns; i++)
         s[i] = ref_fetch(c, in, i, ch);
      *out = ref_prim(c, direct_ops[k].prim, s[0], s[1], s[2]);
      return true;
   }
   for (unsigned k = 0; k < ARRAY_SIZE(cmp_ops); k++) {
      if (cmp_ops[k].op != in->op)
         continue;
      unsigned a = ref_fetch(c, in, 0, ch);
      unsigned t = ref_prim(c, cmp_ops[k].prim, a, ref_fetch(c, in, 1, ch), 0);
      *out = cmp_ops[k].mask ? to_mask(c, t) : to_float1(c, t);
      return true;
   }
   return false;
}

/* The other component-wise opcodes, one expansion each. */
static bool
comp_special(struct ref_ctx *c, const struct tgsi_insn *in, unsigned ch, unsigned *out)
{
#define S(i) ref_fetch(c, in, (i), ch)
   unsigned a, b, t, zero;
   switch (in->op) {
   case TGSI_OP_MOV:
   case TGSI_OP_UARL:
      *out = S(0);
      return true;
   case TGSI_OP_ABS:
      *out = P1(FABS, S(0));
      return true;
   case TGSI_OP_SUB:
      a = S(0);
      *out = P2(FADD, a, P1(FNEG, S(1)));
      return true;
   case TGSI_OP_DIV: /* a * rcp(b): TGSI flags DIV as inexact */
      a = S(0);
      *out = P2(FMUL, a, P1(FRCP, S(1)));
      return true;
   case TGSI_OP_LRP: /* a * (b - c) + c */
      a = S(0);
      b = S(1);
      t = S(2);
      *out = P(FMAD, a, P2(FADD, b, P1(FNEG, t)), t);
      return true;
   case TGSI_OP_CLAMP:
      a = S(0);
      t = P2(FMAX, a, S(1));
      *out = P2(FMIN, t, S(2));
      return true;
   case TGSI_OP_FRC:
      a = S(0);
      *out = P2(FADD, a, P1(FNEG, P1(FFLOOR, a)));
      return true;
   case TGSI_OP_LDEXP:
      a = S(0);
      *out = fldexp(c, a, S(1));
      return true;
   case TGSI_OP_ARR:
      t = ref_imm_reg(c, 0x3f000000u);
      *out = P1(F2I_FLOOR, P2(FADD, S(0), t));
      return true;
   case TGSI_OP_SSG: /* (x > 0) - (x < 0) as floats: NaN and -0 give +0 */
      a = S(0);
      zero = ref_imm_reg(c, 0);
      t = to_float1(c, P2(FGT, a, zero));
      b = to_float1(c, P2(FLT, a, zero));
      *out = P2(FADD, t, P1(FNEG, b));
      return true;
   case TGSI_OP_CMP: /* a < 0 ? b : c; -0 and NaN pick c */
      zero = ref_imm_reg(c, 0);
      t = P2(FLT, S(0), zero);
      b = S(1);
      *out = P(SEL, b, t, S(2));
      return true;
   case TGSI_OP_UCMP:
      a = S(0);
      b = S(1);
      *out = P(SEL, b, a, S(2));
      return true;
   case TGSI_OP_SFL:
   case TGSI_OP_STR:
      *out = ref_imm_reg(c, in->op == TGSI_OP_STR ? 0x3f800000u : 0);
      return true;
   case TGSI_OP_IABS:
      a = S(0);
      *out = P2(IMAX, a, P1(INEG, a));
      return true;
   case TGSI_OP_ISSG:
      a = S(0);
      zero = ref_imm_reg(c, 0);
      t = P2(IGT, a, zero);
      *out = P2(ISUB, t, P2(ILT, a, zero));
      return true;
   case TGSI_OP_UMAD:
      a = S(0);
      t = P2(IMUL, a, S(1));
      *out = P2(IADD, t, S(2));
      return true;
   case TGSI_OP_UMUL_HI:
   case TGSI_OP_IMUL_HI:
      a = S(0);
      b = S(1);
      *out = in->op == TGSI_OP_UMUL_HI ? ref_umul_hi(c, a, b) : imul_hi(c, a, b);
      return true;
   case TGSI_OP_UDIV:
   case TGSI_OP_UMOD:
   case TGSI_OP_IDIV:
   case TGSI_OP_MOD:
      a = S(0);
      *out = divide(c, in->op, a, S(1));
      return true;
   case TGSI_OP_LSB: /* the index of the lowest set bit: msb(x & -x), -1 for 0 */
      a = S(0);
      *out = P1(UMSB, P2(AND, a, P1(INEG, a)));
      return true;
   case TGSI_OP_UBFE:
   case TGSI_OP_IBFE:
      a = S(0);
      b = S(1);
      *out = bfe(c, a, b, S(2), in->op == TGSI_OP_IBFE);
      return true;
   case TGSI_OP_BFI:
      a = S(0);
      b = S(1);
      t = S(2);
      *out = bfi(c, a, b, t, S(3));
      return true;
   default:
      return false;
   }
#undef S
}

/* Opcodes whose expansion of one channel takes many scratch registers
 * (a3xx: IMUL_HI 36, IDIV and MOD 31, UMUL_HI 29, LDEXP 25, UMOD 23, UDIV 22,
 * IBFE and UBFE 19, BFI 16). */
static bool
long_expansion(enum tgsi_opcode op)
{
   switch (op) {
   case TGSI_OP_UMUL_HI:
   case TGSI_OP_IMUL_HI:
   case TGSI_OP_UDIV:
   case TGSI_OP_UMOD:
   case TGSI_OP_IDIV:
   case TGSI_OP_MOD:
   case TGSI_OP_LDEXP:
   case TGSI_OP_UBFE:
   case TGSI_OP_IBFE:
   case TGSI_OP_BFI:
      return true;
   default:
      return false;
   }
}

/* One channel of a component-wise opcode. A long expansion keeps only its
 * result: that gets a register first, and the steps' temporaries die with
 * the channel, so the instruction needs one channel's scratch rather than
 * four (a3xx's 192 registers less a generated shader's ~23 vec4 homes
 * leave ~100: four IDIV channels take 124). */
static bool
comp_channel(struct ref_ctx *c, const struct tgsi_insn *in, unsigned ch, unsigned *out)
{
   if (!long_expansion(in->op))
      return comp_table(c, in, ch, out) || comp_special(c, in, ch, out);
   unsigned keep = ref_tmp(c), mark = c->scratch_next;
   if (!comp_special(c, in, ch, out))
      return false;
   c->t->copy(c, keep, *out);
   c->scratch_next = mark;
   *out = keep;
   return true;
}

/* ------------------------------------------------------------------ */
/* Packing (GLSL packing functions, as the interpreter has them)       */

/* clamp(x, lo, 1) * scale rounded to nearest even, as an integer; NaN
 * packs as 0 (FMAX returns the number for unorm; a select for snorm). */
static unsigned
pack_norm(struct ref_ctx *c, unsigned x, bool snorm, float scale)
{
   unsigned zero = ref_imm_reg(c, 0), one = ref_imm_reg(c, 0x3f800000u);
   if (snorm) {
      x = P(SEL, zero, P2(FNE, x, x), x);
      x = P2(FMAX, x, ref_imm_reg(c, fui(-1.0f)));
   } else {
      x = P2(FMAX, x, zero);
   }
   x = P2(FMIN, x, one);
   unsigned r = P1(FRNDNE, P2(FMUL, x, ref_imm_reg(c, fui(scale))));
   if (!snorm)
      return P1(F2U, r);
   r = P1(F2I, r);
   return P2(AND, r, ref_imm_reg(c, 0xff));
}

/* f32 -> f16 bits, every NaN the one quiet NaN 0x7e00 (the interpreter's). */
static unsigned
pack_half(struct ref_ctx *c, unsigned x)
{
   unsigned nan = ref_imm_reg(c, 0x7fc00000u);
   x = P(SEL, nan, P2(FNE, x, x), x);
   return P1(F2H, x);
}

static unsigned
pack(struct ref_ctx *c, const struct tgsi_insn *in)
{
   unsigned n = in->op == TGSI_OP_PK2H || in->op == TGSI_OP_PK2US ? 2 : 4, bits = 32 / n, r = 0;
   for (unsigned k = 0; k < n && c->status == COMPILE_OK; k++) {
      unsigned x = ref_fetch(c, in, 0, k), v;
      switch (in->op) {
      case TGSI_OP_PK2H:
         v = pack_half(c, x);
         break;
      case TGSI_OP_PK2US:
         v = pack_norm(c, x, false, 65535.0f);
         break;
      case TGSI_OP_PK4UB:
         v = pack_norm(c, x, false, 255.0f);
         break;
      default: /* PK4B */
         v = pack_norm(c, x, true, 127.0f);
         break;
      }
      r = k ? P2(OR, r, P2(SHL, v, ref_imm_reg(c, bits * k))) : v;
   }
   return r;
}

/* One channel of UP2H/UP2US/UP4UB/UP4B. The norm ones divide by the scale
 * through a reciprocal (the interpreter flags them RCP, as DIV). */
static unsigned
unpack(struct ref_ctx *c, enum tgsi_opcode op, unsigned x, unsigned ch)
{
   bool two = op == TGSI_OP_UP2H || op == TGSI_OP_UP2US;
   unsigned sh = two ? 16 * (ch & 1) : 8 * ch;
   switch (op) {
   case TGSI_OP_UP2H:
      return P1(H2F, P2(SHR, x, ref_imm_reg(c, sh)));
   case TGSI_OP_UP2US:
   case TGSI_OP_UP4UB: {
      unsigned m = ref_imm_reg(c, two ? 0xffff : 0xff);
      unsigned v = P2(AND, P2(SHR, x, ref_imm_reg(c, sh)), m);
      unsigned s = ref_imm_reg(c, fui(1.0f / (two ? 65535.0f : 255.0f)));
      return P2(FMUL, P1(U2F, v), s);
   }
   default: { /* UP4B: the signed byte / 127, at least -1 */
      unsigned k24 = ref_imm_reg(c, 24);
      unsigned v = P2(ASHR, P2(SHL, x, ref_imm_reg(c, 24 - sh)), k24);
      unsigned s = ref_imm_reg(c, fui(1.0f / 127.0f));
      v = P2(FMUL, P1(I2F, v), s);
      return P2(FMAX, v, ref_imm_reg(c, fui(-1.0f)));
   }
   }
}

/* ------------------------------------------------------------------ */
/* REPL and CHAN opcodes                                                */

static bool
repl(struct ref_ctx *c, const struct tgsi_insn *in, unsigned *out)
{
   static const struct prim_map one[] = {
       {TGSI_OP_RCP, REF_P_FRCP},  {TGSI_OP_RSQ, REF_P_FRSQ},  {TGSI_OP_SQRT, REF_P_FSQRT},
       {TGSI_OP_EX2, REF_P_FEXP2}, {TGSI_OP_LG2, REF_P_FLOG2}, {TGSI_OP_SIN, REF_P_FSIN},
       {TGSI_OP_COS, REF_P_FCOS},
   };
   for (unsigned k = 0; k < ARRAY_SIZE(one); k++)
      if (one[k].op == in->op) {
         *out = ref_prim(c, one[k].prim, ref_fetch(c, in, 0, 0), 0, 0);
         return true;
      }
   unsigned a;
   switch (in->op) {
   case TGSI_OP_PK2H:
   case TGSI_OP_PK2US:
   case TGSI_OP_PK4B:
   case TGSI_OP_PK4UB:
      *out = pack(c, in);
      return true;
   case TGSI_OP_POW:
      a = ref_fetch(c, in, 0, 0);
      *out = fpow(c, a, ref_fetch(c, in, 1, 0));
      return true;
   case TGSI_OP_DP2:
   case TGSI_OP_DP3:
   case TGSI_OP_DP4:
   case TGSI_OP_DPH:
      *out = dot(c, in,
                 in->op == TGSI_OP_DP2   ? 2
                 : in->op == TGSI_OP_DP3 ? 3
                                         : 4,
                 in->op == TGSI_OP_DPH);
      return true;
   default:
      return false;
   }
}

/* NRM/NRM4: src * rsq(sum of squares), the sum in x, y, z(, w) order. */
static void
nrm(struct ref_ctx *c, const struct tgsi_insn *in, unsigned *res)
{
   unsigned k = in->op == TGSI_OP_NRM ? 3 : 4, v[4];
   for (unsigned i = 0; i < k; i++)
      v[i] = ref_fetch(c, in, 0, i);
   unsigned d = P2(FMUL, v[0], v[0]);
   for (unsigned i = 1; i < k; i++)
      d = P(FMAD, v[i], v[i], d);
   unsigned len = P1(FRSQ, d);
   for (unsigned i = 0; i < k; i++)
      res[i] = P2(FMUL, v[i], len);
   if (k == 3)
      res[3] = ref_imm_reg(c, 0x3f800000u);
}

static void
lit(struct ref_ctx *c, const struct tgsi_insn *in, unsigned *res)
{
   unsigned x = ref_fetch(c, in, 0, 0), y = ref_fetch(c, in, 0, 1), w = ref_fetch(c, in, 0, 3);
   res[0] = res[3] = ref_imm_reg(c, 0x3f800000u);
   res[1] = max0_keep(c, x);
   /* clamp(w, -128, 128) with NaN kept */
   unsigned lo = ref_imm_reg(c, fui(-128.0f)), hi = ref_imm_reg(c, fui(128.0f));
   unsigned e = P(SEL, lo, P2(FLT, w, lo), w);
   e = P(SEL, hi, P2(FGT, e, hi), e);
   unsigned p = fpow(c, max0_keep(c, y), e);
   unsigned zero = ref_imm_reg(c, 0);
   res[2] = P(SEL, p, P2(FGT, x, zero), zero);
}

static bool
chan(struct ref_ctx *c, const struct tgsi_insn *in, unsigned *res)
{
   unsigned x, fl, a[3], b[3];
   switch (in->op) {
   case TGSI_OP_EXP:
      x = ref_fetch(c, in, 0, 0);
      fl = P1(FFLOOR, x);
      res[0] = P1(FEXP2, fl);
      res[1] = P2(FADD, x, P1(FNEG, fl));
      res[2] = P1(FEXP2, x);
      res[3] = ref_imm_reg(c, 0x3f800000u);
      return true;
   case TGSI_OP_LOG: /* of |x|: floor(lg2), mantissa (through rcp), lg2 */
      x = P1(FABS, ref_fetch(c, in, 0, 0));
      res[2] = P1(FLOG2, x);
      res[0] = P1(FFLOOR, res[2]);
      res[1] = P2(FMUL, x, P1(FRCP, P1(FEXP2, res[0])));
      res[3] = ref_imm_reg(c, 0x3f800000u);
      return true;
   case TGSI_OP_LIT:
      lit(c, in, res);
      return true;
   case TGSI_OP_DST:
      a[1] = ref_fetch(c, in, 0, 1);
      res[1] = P2(FMUL, a[1], ref_fetch(c, in, 1, 1));
      res[0] = ref_imm_reg(c, 0x3f800000u);
      res[2] = ref_fetch(c, in, 0, 2);
      res[3] = ref_fetch(c, in, 1, 3);
      return true;
   case TGSI_OP_XPD: /* a.yzx * b.zxy - a.zxy * b.yzx */
      for (unsigned k = 0; k < 3; k++) {
         a[k] = ref_fetch(c, in, 0, k);
         b[k] = ref_fetch(c, in, 1, k);
      }
      for (unsigned k = 0; k < 3; k++) {
         unsigned p = (k + 1) % 3, q = (k + 2) % 3;
         unsigned t1 = P2(FMUL, a[p], b[q]);
         unsigned t2 = P2(FMUL, a[q], b[p]);
         res[k] = P2(FADD, t1, P1(FNEG, t2));
      }
      res[3] = ref_imm_reg(c, 0x3f800000u);
      return true;
   case TGSI_OP_SCS:
      x = ref_fetch(c, in, 0, 0);
      res[0] = P1(FCOS, x);
      res[1] = P1(FSIN, x);
      res[2] = ref_imm_reg(c, 0);
      res[3] = ref_imm_reg(c, 0x3f800000u);
      return true;
   case TGSI_OP_NRM:
   case TGSI_OP_NRM4:
      nrm(c, in, res);
      return true;
   case TGSI_OP_UP2H:
   case TGSI_OP_UP2US:
   case TGSI_OP_UP4B:
   case TGSI_OP_UP4UB:
      x = ref_fetch(c, in, 0, 0);
      for (unsigned k = 0; k < 4; k++)
         res[k] = (in->dst[0].mask & (1u << k)) ? unpack(c, in->op, x, k) : 0;
      return true;
   default:
      return false;
   }
}

/* ------------------------------------------------------------------ */
/* Resource sizes                                                       */

/* RESQ: sizes the driver put in the constant file (EMU_BIND_SIZE), as the
 * interpreter reports them: a buffer's bytes (.x; the rest undefined, 0
 * here), shared memory's bytes, an image's width, height (1-D arrays:
 * layers), depth or layers, and 1 sample for multisampled targets. */
static void
resq(struct ref_ctx *c, const struct tgsi_insn *in)
{
   const struct tgsi_reg *r = &in->src[0].reg;
   unsigned res[4] = {0, 0, 0, 0}, mask = in->dst[0].mask;
   if (r->indirect || r->index < 0) {
      ref_unsupported(c, "an indirect resource index");
      return;
   }
   const struct tgsi_decl *d = r->file == TGSI_FILE_IMAGE
                                   ? tgsi_find_decl(c->s, TGSI_FILE_IMAGE, (unsigned)r->index)
                                   : NULL;
   enum tgsi_texture t = d ? d->target : TGSI_TEX_T_2D;
   unsigned coords = tgsi_texture_coord_count(t), idx = (unsigned)r->index;
   for (unsigned ch = 0; ch < 4 && c->status == COMPILE_OK; ch++) {
      if (!(mask & (1u << ch)))
         continue;
      if (r->file == TGSI_FILE_BUFFER || r->file == TGSI_FILE_MEMORY)
         res[ch] = ch ? ref_imm_reg(c, 0) : ref_size(c, r->file, idx, 0);
      else if (r->file != TGSI_FILE_IMAGE)
         ref_unsupported(c, "RESQ of %s", tgsi_file_names[r->file]);
      else if (ch == 0)
         res[ch] = ref_size(c, r->file, idx, 0);
      else if (ch == 1 && coords >= 2)
         res[ch] = ref_size(c, r->file, idx, t == TGSI_TEX_T_1D_ARRAY ? 2 : 1);
      else if (ch == 2 && coords >= 3)
         res[ch] = ref_size(c, r->file, idx, 2);
      else
         res[ch] = ref_imm_reg(
             c, ch == 3 && (t == TGSI_TEX_T_2D_MSAA || t == TGSI_TEX_T_2D_ARRAY_MSAA) ? 1 : 0);
   }
   ref_store(c, in, res);
}

/* The global byte address of an image texel: EMU_ADDR_IMAGE(i) + ((z * h
 * + y) * w + x) * 16 from the integer coordinates of source cs and the
 * image's size (EMU_BIND_SIZE); 0 -- no memory, reads 0, stores dropped --
 * when a coordinate is out of range, as env_image_offset has it. 1-D
 * arrays take the layer from .y, 2-D arrays and cubes from .z. */
unsigned
ref_image_address(struct ref_ctx *c, const struct tgsi_insn *in, const struct tgsi_reg *r,
                  unsigned cs)
{
   const struct tgsi_decl *d =
       r->index >= 0 ? tgsi_find_decl(c->s, TGSI_FILE_IMAGE, (unsigned)r->index) : NULL;
   if (!d || r->indirect || r->index >= ENV_MAX_IMAGES) {
      ref_unsupported(c, "an undeclared or indirect image");
      return 0;
   }
   enum tgsi_texture t = d->target;
   unsigned idx = (unsigned)r->index;
   unsigned dims = t == TGSI_TEX_T_3D                                                         ? 3
                   : t == TGSI_TEX_T_1D || t == TGSI_TEX_T_1D_ARRAY || t == TGSI_TEX_T_BUFFER ? 1
                                                                                              : 2;
   bool layered = tgsi_texture_is_array(t) || t == TGSI_TEX_T_CUBE;
   unsigned zero = ref_imm_reg(c, 0), co[3] = {zero, zero, zero};
   co[0] = ref_fetch(c, in, cs, 0);
   if (dims >= 2)
      co[1] = ref_fetch(c, in, cs, 1);
   if (dims == 3 || layered) /* depth is z; a layer follows the coordinates */
      co[2] = ref_fetch(c, in, cs, dims == 3 ? 2 : dims);
   /* Two accumulators; each step's temporaries die with it (kernels with
    * many TGSI registers leave little scratch). */
   unsigned ok = ref_imm_reg(c, 1), lin = ref_tmp(c), mark = c->scratch_next;
   for (unsigned k = 0; k < 3; k++) { /* unsigned: a negative coordinate is out too */
      c->t->copy(c, ok, P2(AND, ok, P2(ULT, co[k], ref_size(c, TGSI_FILE_IMAGE, idx, k))));
      c->scratch_next = mark;
   }
   c->t->copy(c, lin, P2(IADD, P2(IMUL, co[2], ref_size(c, TGSI_FILE_IMAGE, idx, 1)), co[1]));
   c->scratch_next = mark;
   c->t->copy(c, lin, P2(IADD, P2(IMUL, lin, ref_size(c, TGSI_FILE_IMAGE, idx, 0)), co[0]));
   c->scratch_next = mark;
   unsigned base = ref_imm_reg(c, EMU_ADDR_IMAGE(idx));
   unsigned a = P2(IADD, P2(SHL, lin, ref_imm_reg(c, 4)), base);
   c->t->copy(c, lin, P(SEL, a, ok, zero));
   c->scratch_next = mark;
   return lin;
}

/* ------------------------------------------------------------------ */
/* Memory                                                               */

/* The byte address of a LOAD/STORE/ATOM* resource: BUFFER[i] at
 * EMU_ADDR_BUFFER(i) + offset, IMAGE[i] at its texel's address, MEMORY
 * (shared; every index names the one space, as in the interpreter) at the
 * offset. The offset (or the image coordinates) is source off_src. */
bool
ref_mem_address(struct ref_ctx *c, const struct tgsi_insn *in, const struct tgsi_reg *res,
                unsigned off_src, unsigned *addr, bool *shared)
{
   *shared = res->file == TGSI_FILE_MEMORY;
   if (res->file == TGSI_FILE_IMAGE) {
      *addr = ref_image_address(c, in, res, off_src);
      return c->status == COMPILE_OK;
   }
   if (res->indirect || (res->file != TGSI_FILE_BUFFER && res->file != TGSI_FILE_MEMORY) ||
       res->index < 0 || (!*shared && res->index >= ENV_MAX_BUFFERS)) {
      ref_unsupported(c, "%s%s resources", res->indirect ? "indirect " : "",
                      tgsi_file_names[res->file]);
      return false;
   }
   unsigned off = ref_fetch(c, in, off_src, 0);
   *addr = *shared ? off : P2(IADD, off, ref_imm_reg(c, EMU_ADDR_BUFFER((uint32_t)res->index)));
   return true;
}

bool
ref_atomic_operands(struct ref_ctx *c, const struct tgsi_insn *in, bool compare_first,
                    unsigned *addr, bool *shared, unsigned *data)
{
   if (!ref_mem_address(c, in, &in->src[0].reg, 1, addr, shared))
      return false;
   *data = ref_fetch(c, in, 2, 0);
   if (in->op == TGSI_OP_ATOMCAS) {
      unsigned cmp = *data, nv = ref_fetch(c, in, 3, 0);
      *data = ref_tmp(c);
      ref_tmp(c);
      c->t->copy(c, *data, compare_first ? cmp : nv);
      c->t->copy(c, *data + 1, compare_first ? nv : cmp);
   }
   return true;
}

void
ref_atomic_result(struct ref_ctx *c, const struct tgsi_insn *in, unsigned old)
{
   unsigned res[4] = {old, old, old, old};
   ref_store(c, in, res);
}

/* LOAD: one word per written channel, at the address + 4 * the channel
 * the source swizzle picks. */
static void
load_mem(struct ref_ctx *c, const struct tgsi_insn *in)
{
   unsigned addr, res[4] = {0, 0, 0, 0};
   bool shared;
   if (!ref_mem_address(c, in, &in->src[0].reg, 1, &addr, &shared))
      return;
   for (unsigned ch = 0; ch < 4; ch++) {
      if (!(in->dst[0].mask & (1u << ch)))
         continue;
      res[ch] = ref_tmp(c);
      c->t->load_word(c, shared, res[ch], addr, 4u * (in->src[0].swz[ch] & 3));
   }
   ref_store(c, in, res);
}

/* STORE: every value fetched first, then one word per written channel at
 * the address + 4 * channel. An image texel is stored whole, whatever the
 * write mask. */
static void
store_mem(struct ref_ctx *c, const struct tgsi_insn *in)
{
   unsigned addr, v[4] = {0, 0, 0, 0};
   bool shared;
   if (!ref_mem_address(c, in, &in->dst[0].reg, 0, &addr, &shared))
      return;
   unsigned mask = in->dst[0].reg.file == TGSI_FILE_IMAGE ? 0xf : in->dst[0].mask;
   for (unsigned ch = 0; ch < 4; ch++)
      if (mask & (1u << ch))
         v[ch] = ref_fetch(c, in, 1, ch);
   for (unsigned ch = 0; ch < 4; ch++)
      if (mask & (1u << ch))
         c->t->store_word(c, shared, addr, 4u * ch, v[ch]);
}

/* ------------------------------------------------------------------ */
/* Exact division                                                       */

/* a / b correctly rounded, as the interpreter divides (TXP): the
 * significands' quotient in [1, 2) / [1, 2) by Markstein's step (y =
 * rcp(mb) correctly rounded, q0 = ma * y, r = ma - q0 * mb exact with
 * FFMA, q = q0 + r * y correctly rounded), then the exponent put back in
 * integer arithmetic: overflow gives infinity; a subnormal result is
 * rounded from q's 24 bits with the remainder's sign deciding ties (q is
 * within half an ulp, so only an exact halfway point needs it).
 * Denormal inputs are scaled by 2^24 first. Zero, infinite and NaN
 * operands take a * rcp(b) (b special) or a * copysign(1, b): the IEEE
 * result in every such case. Checked against the host's division on 3.5e8
 * pairs (edge values, near-1, subnormal quotients and their midpoints). */
unsigned
ref_fdiv(struct ref_ctx *c, unsigned a, unsigned b)
{
   /* Every call below has at most one argument that emits code: C leaves
    * the order of argument evaluation open, and listings must not depend
    * on the host compiler. */
   unsigned out = ref_tmp(c), mark = c->scratch_next;
#define K(v) ref_imm_reg(c, (uint32_t)(v))
   unsigned absm = K(0x7fffffffu), signm = K(0x80000000u), inf = K(0x7f800000u);
   unsigned fracm = K(0x7fffffu), one_exp = K(0x3f800000u), twenty3 = K(23), zero = K(0);
   unsigned A = P2(AND, a, absm), B = P2(AND, b, absm);
   unsigned sign = P2(AND, P2(XOR, a, b), signm);
   unsigned az = P2(IEQ, A, zero), bz = P2(IEQ, B, zero);
   unsigned aspec = P2(OR, az, P2(UGE, A, inf));
   unsigned bspec = P2(OR, bz, P2(UGE, B, inf));
   unsigned one_b = P2(OR, P2(AND, b, signm), one_exp);
   unsigned t = P(SEL, P1(FRCP, b), bspec, one_b);
   unsigned spec = P2(FMUL, a, t);
   /* significands in [1, 2) and biased exponents (denormals scaled) */
   unsigned norm_min = K(0x800000u), scale = K(0x4b800000u), adj = K(24);
   unsigned m[2], e[2];
   for (unsigned k = 0; k < 2; k++) {
      unsigned x = k ? B : A;
      unsigned den = P2(ULT, x, norm_min);
      unsigned x1 = P(SEL, P2(FMUL, x, scale), den, x);
      unsigned sub = P(SEL, adj, den, zero);
      e[k] = P2(ISUB, P2(SHR, x1, twenty3), sub);
      m[k] = P2(OR, P2(AND, x1, fracm), one_exp);
   }
   unsigned y = P1(FRCP, m[1]), q0 = P2(FMUL, m[0], y);
   unsigned r0 = P(FFMA, P1(FNEG, q0), m[1], m[0]);
   unsigned q = P(FFMA, r0, y, q0);
   unsigned r = P(FFMA, P1(FNEG, q), m[1], m[0]);
   unsigned E = P2(ISUB, P2(IADD, P2(SHR, q, twenty3), e[0]), e[1]);
   unsigned qf = P2(AND, q, fracm);
   unsigned normal = P2(OR, qf, P2(SHL, E, twenty3));
   /* subnormal: round (q's 24 bits) >> (1 - E), shift at most 25 */
   unsigned M = P2(OR, qf, norm_min), one = K(1), k25 = K(25);
   unsigned sh = P2(UMIN, P2(ISUB, one, E), k25);
   unsigned sub = P2(SHR, M, sh);
   unsigned D = P2(AND, M, P2(ISUB, P2(SHL, one, sh), one));
   unsigned H = P2(SHL, one, P2(ISUB, sh, one));
   unsigned rgt = P2(FGT, r, zero), req = P2(FEQ, r, zero);
   unsigned tie_up = P2(OR, rgt, P2(AND, req, P2(AND, sub, one)));
   unsigned above = P2(UGE, D, P2(IADD, H, one));
   unsigned up = P2(OR, above, P2(AND, P2(IEQ, D, H), tie_up));
   sub = P2(IADD, sub, P(SEL, one, up, zero));
   unsigned res = P(SEL, normal, P2(IGE, E, one), sub);
   res = P(SEL, inf, P2(IGE, E, K(255)), res);
   res = P2(OR, res, sign);
   c->t->copy(c, out, P(SEL, spec, P2(OR, aspec, bspec), res));
#undef K
   c->scratch_next = mark;
   return out;
}

/* ------------------------------------------------------------------ */
/* DEMOTE                                                               */

/* DEMOTE keeps the lane running as a helper -- derivatives in its quad
 * stay defined -- and discards its outputs (the interpreter's reading).
 * Neither model has a demote instruction (ir3's came with a6xx; sm50 has
 * none), so it is a deferred kill: a flag register, ~0 once the lane
 * demoted, READ_HELPER's value, killing the flagged lanes before the
 * program ends. Demoted lanes must not write memory either, so a shader
 * that demotes and stores or does atomics is refused. */
bool
ref_atomic_op(enum tgsi_opcode op)
{
   return (op >= TGSI_OP_ATOMUADD && op <= TGSI_OP_ATOMIMAX) || op == TGSI_OP_ATOMFADD ||
          op == TGSI_OP_ATOMINC_WRAP || op == TGSI_OP_ATOMDEC_WRAP;
}

static bool
writes_memory(enum tgsi_opcode op)
{
   return op == TGSI_OP_STORE || ref_atomic_op(op);
}

void
ref_demote_begin(struct ref_ctx *c)
{
   bool demotes = false;
   for (unsigned k = 0; k < c->s->ninsns; k++)
      demotes |= c->s->insns[k].op == TGSI_OP_DEMOTE;
   if (!demotes)
      return;
   if (!c->t->kill_flag) {
      ref_unsupported(c, "DEMOTE: no kill on this target");
      return;
   }
   for (unsigned k = 0; k < c->s->ninsns; k++)
      if (writes_memory(c->s->insns[k].op)) {
         c->cur = &c->s->insns[k];
         c->cur_index = (int)k;
         ref_unsupported(c, "a memory write in a shader that demotes (demoted lanes must not "
                            "write; the models have no demote)");
         return;
      }
   c->demote_reg = (int)ref_tmp_persistent(c);
   c->t->mov_imm(c, (unsigned)c->demote_reg, 0);
}

void
ref_demote_end(struct ref_ctx *c)
{
   if (c->demote_reg < 0 || c->status != COMPILE_OK)
      return;
   c->scratch_next = c->scratch_lo;
   c->t->kill_flag(c, (unsigned)c->demote_reg);
}

/* ------------------------------------------------------------------ */
/* The one-sample environment                                           */

/* What the environment fixes (tgsi.rst, the interpreter's one-sample
 * model): one fully covered sample at the pixel centre and no helper
 * lanes. INTERP_CENTROID/INTERP_SAMPLE read the input itself (other
 * sample indices are undefined there, so the copy serves them too);
 * SAMPLE_INFO gives (1, 0, 0, 0) and SAMPLE_POS (0.5, 0.5, 0, 0) through
 * src0's swizzle (SAMPLE_POS .zw are undefined); READ_HELPER is the
 * DEMOTE flag (0 while nothing demotes). */
static bool
one_sample(struct ref_ctx *c, const struct tgsi_insn *in, unsigned *res)
{
   static const uint32_t info[4] = {1, 0, 0, 0}, pos[4] = {0x3f000000u, 0x3f000000u, 0, 0};
   if (in->op != TGSI_OP_INTERP_CENTROID && in->op != TGSI_OP_INTERP_SAMPLE &&
       in->op != TGSI_OP_SAMPLE_INFO && in->op != TGSI_OP_SAMPLE_POS &&
       in->op != TGSI_OP_READ_HELPER)
      return false;
   unsigned mask = in->dst[0].mask;
   for (unsigned ch = 0; ch < 4; ch++) {
      if (!(mask & (1u << ch)))
         continue;
      switch (in->op) {
      case TGSI_OP_INTERP_CENTROID:
      case TGSI_OP_INTERP_SAMPLE:
         res[ch] = ref_fetch(c, in, 0, ch);
         break;
      case TGSI_OP_SAMPLE_INFO:
         res[ch] = ref_imm_reg(c, info[in->src[0].swz[ch] & 3]);
         break;
      case TGSI_OP_SAMPLE_POS:
         res[ch] = ref_imm_reg(c, pos[in->src[0].swz[ch] & 3]);
         break;
      case TGSI_OP_READ_HELPER: /* the DEMOTE flag, or 0 */
         res[ch] = c->demote_reg >= 0 ? (unsigned)c->demote_reg : ref_imm_reg(c, 0);
         break;
      default:
         break;
      }
   }
   return true;
}

/* ------------------------------------------------------------------ */
/* 64-bit results                                                       */

/* The interpreter's channel mapping of a 64-bit opcode: pair p is channels
 * 2p, 2p + 1 (xy, zw). A result pair is computed when the write mask
 * touches it (32 -> 64 conversions: when it covers both channels), a
 * compare writes the first masked channel of its pair, a 64 -> 32
 * conversion the first (pair xy) and second (pair zw) masked channels. */
void
ref_store_wide(struct ref_ctx *c, const struct tgsi_insn *in, enum ref_wide_shape shape,
               ref_wide_word_fn word, ref_wide_pair_fn pair)
{
   unsigned mask = in->dst[0].mask, out = 0, res[4] = {0, 0, 0, 0};
   if (shape == REF_WIDE_TO32) {
      unsigned m = mask;
      for (unsigned p = 0; p < 2 && m && c->status == COMPILE_OK; p++) {
         unsigned ch = 0;
         while (!(m & (1u << ch)))
            ch++;
         m &= ~(1u << ch);
         res[ch] = word(c, in, p);
         out |= 1u << ch;
      }
   } else {
      for (unsigned p = 0; p < 2 && c->status == COMPILE_OK; p++) {
         unsigned pm = (mask >> (2 * p)) & 3;
         if (!pm || (shape == REF_WIDE_FROM32 && pm != 3))
            continue;
         if (shape == REF_WIDE_CMP) {
            unsigned ch = 2 * p + (pm & 1 ? 0 : 1);
            res[ch] = word(c, in, p);
            out |= 1u << ch;
            continue;
         }
         pair(c, in, p, &res[2 * p]);
         out |= (shape == REF_WIDE_FROM32 ? 3u : pm) << (2 * p);
      }
   }
   if (c->status == COMPILE_OK) {
      struct tgsi_insn st = *in;
      st.dst[0].mask = (uint8_t)out;
      ref_store(c, &st, res);
   }
}

/* ------------------------------------------------------------------ */
/* Dispatch                                                             */

static enum compile_status
refuse(struct ref_ctx *c, const struct tgsi_insn *in)
{
   const char *why = c->t->why ? c->t->why(in->op) : NULL;
   return ref_unsupported(c, "%s", why ? why : "no expansion for this opcode on this target");
}

enum compile_status
ref_insn(struct ref_ctx *c, const struct tgsi_insn *in)
{
   const struct tgsi_op_info *info = &tgsi_op_info[in->op];
   unsigned res[4] = {0, 0, 0, 0}, mask = in->ndst ? in->dst[0].mask : 0;
   if (in->op == TGSI_OP_END || in->op == TGSI_OP_NOP)
      return c->status;
   if (in->op == TGSI_OP_DEMOTE && c->demote_reg >= 0) {
      c->t->mov_imm(c, (unsigned)c->demote_reg, ~0u);
      return c->status;
   }
   if (in->op == TGSI_OP_FBFETCH && in->src[0].reg.file == TGSI_FILE_OUT &&
       !in->src[0].reg.indirect) { /* the pixel's colour: an input (tgsi.h) */
      struct tgsi_insn mov = *in;
      mov.op = TGSI_OP_MOV;
      mov.src[0].reg.file = TGSI_FILE_IN;
      mov.src[0].reg.index = (int32_t)tgsi_fbfetch_input(c->s, (uint32_t)in->src[0].reg.index);
      mov.src[0].reg.has_dim = false;
      return ref_insn(c, &mov);
   }
   if ((in->op == TGSI_OP_EMIT || in->op == TGSI_OP_ENDPRIM) && c->s->stage != TGSI_STAGE_GEOM)
      return ref_unsupported(c, "outside a geometry shader"); /* a GS is the target's */
   if (c->t->special(c, in))
      return c->status;
   if (ref_tex(c, in))
      return c->status;
   if (in->op == TGSI_OP_RESQ) {
      resq(c, in);
      return c->status;
   }
   if (ref_atomic_op(in->op) && c->t->atomic) {
      c->t->atomic(c, in);
      return c->status;
   }
   if ((in->op == TGSI_OP_LOAD || in->op == TGSI_OP_STORE) && c->t->load_word) {
      if (in->op == TGSI_OP_LOAD)
         load_mem(c, in);
      else
         store_mem(c, in);
      return c->status;
   }
   if (one_sample(c, in, res)) {
      if (c->status == COMPILE_OK)
         ref_store(c, in, res);
      return c->status;
   }
   if (ref_int64_op(in->op)) /* 64-bit integers: 32-bit pairs on every target */
      return ref_int64(c, in);
   if (info->type == TGSI_TYPE_D || in->op == TGSI_OP_F2D || in->op == TGSI_OP_I2D ||
       in->op == TGSI_OP_U2D) {
      if (c->t->wide && c->t->wide(c, in))
         return c->status;
      const char *why = c->t->why ? c->t->why(in->op) : NULL;
      return ref_unsupported(c, "%s", why ? why : "doubles: the model has no FP64 instructions");
   }
   if (in->op == TGSI_OP_NRM4 || (info->flags & TGSI_OPF_CHAN)) {
      if (!chan(c, in, res))
         return refuse(c, in);
   } else if (info->flags & TGSI_OPF_REPL) {
      unsigned v;
      if (!repl(c, in, &v))
         return refuse(c, in);
      for (unsigned ch = 0; ch < 4; ch++)
         res[ch] = v;
   } else if (info->ndst == 1 && !(info->flags & TGSI_OPF_OTHR)) {
      for (unsigned ch = 0; ch < 4 && c->status == COMPILE_OK; ch++) {
         if (!(mask & (1u << ch)))
            continue;
         if (!comp_channel(c, in, ch, &res[ch]))
            return refuse(c, in);
      }
   } else {
      return refuse(c, in);
   }
   ref_store(c, in, res);
   return c->status;
}
