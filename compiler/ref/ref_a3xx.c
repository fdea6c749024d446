/*
 * Reference expansions for the Adreno a3xx model (isa/models/a3xx.yaml).
 *
 * Every TGSI source channel is fetched into a full register (fetch()):
 * homes are used in place, constants and immediates are moved out of the
 * constant file with a cat1 mov, indirect operands go through a0.x, and
 * source modifiers become an absneg.f (float fetch type) or absneg.s
 * (integer fetch type) -- exactly the tgsi_exec meaning, independent of
 * what the consuming machine op would make of a modifier. Each written
 * channel is then computed into a scratch register and store() copies the
 * results to the destination after all of them exist (saturating first
 * with max.f/min.f against 0.0 and 1.0: NaN -> 0 and -0 -> +0 as TGSI
 * wants).
 *
 * Where a machine op's rule differs from TGSI's, the expansion computes
 * TGSI's answer: comparisons produce 0/1 and are turned into 1.0f or ~0;
 * CMP selects on (a < 0), so -0.0 and NaN pick the third operand; UMUL is
 * built from 16-bit partial products (mull.u, madsh.m16); UDIV/UMOD/IDIV/
 * MOD run a 32-step restoring division loop with the TGSI divide-by-zero
 * results; LIT uses compare-and-select where TGSI's max/clamp keep -0 or
 * NaN. Indirect destinations, which a3xx cannot encode, become one
 * compare-and-select per register the index may name.
 *
 * Refused (COMPILE_UNSUPPORTED): what the model cannot express -- FMA
 * (no fused multiply-add), doubles and 64-bit integers, derivatives,
 * texture targets other than 1D/2D/RECT and any LOD, bias, offset,
 * projection or shadow form, images, atomics, barriers, subgroup ops, GS
 * output, half-float packing, LDEXP.
 */
#include "compiler/ref/ref.h"
#include "emu/emu.h"

/* ------------------------------------------------------------------ */
/* Instruction helpers                                                  */

static struct isa_insn *
alu1(struct ref_ctx *c, const char *op, unsigned d, struct isa_opnd a)
{
   struct isa_insn *in = ref_emit(c, op);
   in->dst[0] = ref_r(c, d);
   in->src[0] = a;
   return in;
}

static struct isa_insn *
alu2(struct ref_ctx *c, const char *op, unsigned d, struct isa_opnd a, struct isa_opnd b)
{
   struct isa_insn *in = ref_emit(c, op);
   in->dst[0] = ref_r(c, d);
   in->src[0] = a;
   in->src[1] = b;
   return in;
}

static struct isa_insn *
alu3(struct ref_ctx *c, const char *op, unsigned d, struct isa_opnd a, struct isa_opnd b,
     struct isa_opnd e)
{
   struct isa_insn *in = ref_emit(c, op);
   in->dst[0] = ref_r(c, d);
   in->src[0] = a;
   in->src[1] = b;
   in->src[2] = e;
   return in;
}

/* cov with the given types; "u32","u32" is a bit copy. */
static struct isa_insn *
cov(struct ref_ctx *c, const char *from, const char *to, struct isa_opnd dst, struct isa_opnd src)
{
   struct isa_insn *in = ref_emit(c, "cov");
   ref_set_mod(c, in, "src_type", from);
   ref_set_mod(c, in, "dst_type", to);
   in->dst[0] = dst;
   in->src[0] = src;
   return in;
}

static void
mov(struct ref_ctx *c, unsigned d, struct isa_opnd src)
{
   cov(c, "u32", "u32", ref_r(c, d), src);
}

static void
a3_copy(struct ref_ctx *c, unsigned d, unsigned s)
{
   mov(c, d, ref_r(c, s));
}

static unsigned
imm_reg(struct ref_ctx *c, uint32_t v)
{
   unsigned t = ref_tmp(c);
   mov(c, t, ref_imm(v));
   return t;
}

static struct isa_insn *
cmp(struct ref_ctx *c, const char *op, const char *cond, struct isa_opnd dst, struct isa_opnd a,
    struct isa_opnd b)
{
   struct isa_insn *in = ref_emit(c, op);
   ref_set_mod(c, in, "cond", cond);
   in->dst[0] = dst;
   in->src[0] = a;
   in->src[1] = b;
   return in;
}

/* t = (a cond b) ? 1 : 0 */
static unsigned
cmp01(struct ref_ctx *c, const char *op, const char *cond, struct isa_opnd a, struct isa_opnd b)
{
   unsigned t = ref_tmp(c);
   cmp(c, op, cond, ref_r(c, t), a, b);
   return t;
}

/* sel.b32: d = cond != 0 ? a : b (all registers). */
static unsigned
sel(struct ref_ctx *c, unsigned a, unsigned cond, unsigned b)
{
   unsigned d = ref_tmp(c);
   alu3(c, "sel.b32", d, ref_r(c, a), ref_r(c, cond), ref_r(c, b));
   return d;
}

static unsigned
op2(struct ref_ctx *c, const char *op, struct isa_opnd a, struct isa_opnd b)
{
   unsigned d = ref_tmp(c);
   alu2(c, op, d, a, b);
   return d;
}

static unsigned
op1(struct ref_ctx *c, const char *op, struct isa_opnd a)
{
   unsigned d = ref_tmp(c);
   alu1(c, op, d, a);
   return d;
}

#define R(x) ref_r(c, (x))

/* ------------------------------------------------------------------ */
/* Operands                                                             */

/* The home or scratch register holding an indirect operand's value:
 * index = clamp(address + literal, 0, n - 1) into a0.x (scalar units),
 * then a relative mov. CONST reads outside the buffer give 0 (the
 * interpreter's rule); other files are undefined there, the clamp only
 * keeps the access inside the file. */
static unsigned
load_indirect(struct ref_ctx *c, const struct tgsi_reg *r, unsigned comp)
{
   struct tgsi_reg ar = {.file = r->ind.file, .index = (int32_t)r->ind.index};
   int a = ref_home(c, &ar, r->ind.comp);
   unsigned base = 0, n = 0;
   bool is_const = r->file == TGSI_FILE_CONST || r->file == TGSI_FILE_IMM;
   if (r->dim_indirect || a < 0) {
      ref_unsupported(c, "indirect addressing through %s", a < 0 ? "this register" : "a dimension");
      return 0;
   }
   if (r->file == TGSI_FILE_CONST) {
      int64_t b = r->has_dim ? r->dim : 0;
      if (b < 0 || b >= 16 || !c->ccount[b]) {
         ref_unsupported(c, "indirect read of an undeclared constant buffer");
         return 0;
      }
      base = c->cbase[b] * 4;
      n = c->ccount[b];
   } else if (r->file == TGSI_FILE_IMM) {
      base = c->imm_base * 4;
      n = c->s->nimms;
   } else {
      struct tgsi_reg first = *r;
      first.indirect = false;
      first.index = 0;
      int h = ref_home(c, &first, 0);
      if (h < 0 || !c->count[r->file]) {
         ref_unsupported(c, "indirect read of %s", tgsi_file_names[r->file]);
         return 0;
      }
      base = (unsigned)h;
      n = c->count[r->file];
   }
   unsigned i0 = op2(c, "add.s", R((unsigned)a), R(imm_reg(c, (uint32_t)r->index)));
   unsigned i1 = op2(c, "max.s", R(i0), ref_imm(0));
   unsigned i2 = op2(c, "min.s", R(i1), R(imm_reg(c, n - 1)));
   unsigned s4 = op2(c, "shl.b", R(i2), ref_imm(2));
   unsigned sc = op2(c, "add.s", R(s4), R(imm_reg(c, base)));
   cov(c, "s32", "s16", ref_a(c, 0), R(sc));
   struct isa_opnd rel = {.kind = (uint8_t)(is_const ? ISA_OPND_CONST : ISA_OPND_REG),
                          .file = (uint8_t)(is_const ? c->cfile : c->gpr),
                          .flags = ISA_OPND_F_REL,
                          .bank = 0,
                          .value = comp};
   unsigned v = ref_tmp(c);
   mov(c, v, rel);
   if (r->file != TGSI_FILE_CONST)
      return v;
   unsigned ok = cmp01(c, "cmps.s", "eq", R(i0), R(i2));
   return sel(c, v, ok, imm_reg(c, 0));
}

static unsigned
a3_fetch(struct ref_ctx *c, const struct tgsi_insn *in, unsigned si, unsigned chan)
{
   const struct tgsi_src *s = &in->src[si];
   unsigned comp = s->swz[chan] & 3;
   unsigned v;
   int h;
   if (s->reg.indirect || s->reg.dim_indirect)
      v = load_indirect(c, &s->reg, comp);
   else if ((h = ref_home(c, &s->reg, comp)) >= 0)
      v = (unsigned)h;
   else if ((h = ref_const_slot(c, &s->reg, comp)) >= 0) {
      v = ref_tmp(c);
      mov(c, v, ref_c(c, (unsigned)h));
   } else {
      ref_unsupported(c, "operand %u: %s[%d] has no home", si + 1, tgsi_file_names[s->reg.file],
                      s->reg.index);
      return 0;
   }
   if (!s->neg && !s->abs)
      return v;
   uint8_t type = tgsi_interp_src_type(in->op, si);
   struct isa_opnd o = R(v);
   o.flags = (uint8_t)((s->abs ? ISA_OPND_F_ABS : 0) | (s->neg ? ISA_OPND_F_NEG : 0));
   unsigned d = ref_tmp(c);
   if (type == TGSI_TYPE_F)
      alu1(c, "absneg.f", d, o);
   else if (type == TGSI_TYPE_I || type == TGSI_TYPE_U)
      alu1(c, "absneg.s", d, o);
   else
      ref_unsupported(c, "source modifiers on 64-bit operands");
   return d;
}

/* ------------------------------------------------------------------ */
/* Destination                                                          */

static unsigned
saturate(struct ref_ctx *c, unsigned v)
{
   unsigned t = op2(c, "max.f", R(v), ref_immf(0.0f));
   return op2(c, "min.f", R(t), ref_immf(1.0f));
}

/* Indirect destination: one compare-and-select per register of the
 * array (or of the file) and written channel. */
static void
store_indirect(struct ref_ctx *c, const struct tgsi_dst *dst, const unsigned *res)
{
   const struct tgsi_reg *r = &dst->reg;
   struct tgsi_reg ar = {.file = r->ind.file, .index = (int32_t)r->ind.index};
   int a = ref_home(c, &ar, r->ind.comp);
   if (a < 0 || r->dim_indirect || (r->file != TGSI_FILE_TEMP && r->file != TGSI_FILE_OUT)) {
      ref_unsupported(c, "this indirect destination");
      return;
   }
   unsigned lo = 0, hi = c->count[r->file];
   for (unsigned i = 0; i < c->s->ndecls && r->array_id; i++) {
      const struct tgsi_decl *d = &c->s->decls[i];
      if (d->file == r->file && d->array_id == r->array_id) {
         lo = d->first;
         hi = d->last + 1;
      }
   }
   unsigned addr = op2(c, "add.s", R((unsigned)a), R(imm_reg(c, (uint32_t)r->index)));
   for (unsigned j = lo; j < hi; j++) {
      unsigned hit = cmp01(c, "cmps.s", "eq", R(addr), R(imm_reg(c, j)));
      for (unsigned ch = 0; ch < 4; ch++) {
         if (!(dst->mask & (1u << ch)))
            continue;
         struct tgsi_reg t = *r;
         t.indirect = false;
         t.index = (int32_t)j;
         unsigned h = (unsigned)ref_home(c, &t, ch);
         alu3(c, "sel.b32", h, R(res[ch]), R(hit), R(h));
      }
   }
}

static void
store(struct ref_ctx *c, const struct tgsi_insn *in, const unsigned *res)
{
   const struct tgsi_dst *dst = &in->dst[0];
   unsigned v[4];
   for (unsigned ch = 0; ch < 4; ch++)
      if (dst->mask & (1u << ch))
         v[ch] = in->sat ? saturate(c, res[ch]) : res[ch];
   if (dst->reg.file == TGSI_FILE_NULL)
      return;
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
      a3_copy(c, (unsigned)h, v[ch]);
   }
}

/* ------------------------------------------------------------------ */
/* Integer helpers                                                      */

/* Low 32 bits of a * b from 16-bit partial products:
 * lo(a) * lo(b) + (hi(a) * lo(b) << 16) + (hi(b) * lo(a) << 16). */
static unsigned
umul(struct ref_ctx *c, unsigned a, unsigned b)
{
   unsigned t = op2(c, "mull.u", R(a), R(b));
   unsigned u = ref_tmp(c), d = ref_tmp(c);
   alu3(c, "madsh.m16", u, R(a), R(b), R(t));
   alu3(c, "madsh.m16", d, R(b), R(a), R(u));
   return d;
}

/* High 32 bits of the unsigned 64-bit product, from 16-bit halves. */
static unsigned
umul_hi(struct ref_ctx *c, unsigned a, unsigned b)
{
   unsigned ah = op2(c, "shr.b", R(a), ref_imm(16)), bh = op2(c, "shr.b", R(b), ref_imm(16));
   unsigned ll = op2(c, "mull.u", R(a), R(b)), lh = op2(c, "mull.u", R(a), R(bh));
   unsigned hl = op2(c, "mull.u", R(ah), R(b)), hh = op2(c, "mull.u", R(ah), R(bh));
   unsigned mask = imm_reg(c, 0xffff);
   unsigned mid = op2(c, "shr.b", R(ll), ref_imm(16));
   mid = op2(c, "add.u", R(mid), R(op2(c, "and.b", R(lh), R(mask))));
   mid = op2(c, "add.u", R(mid), R(op2(c, "and.b", R(hl), R(mask))));
   unsigned hi = op2(c, "add.u", R(hh), R(op2(c, "shr.b", R(lh), ref_imm(16))));
   hi = op2(c, "add.u", R(hi), R(op2(c, "shr.b", R(hl), ref_imm(16))));
   return op2(c, "add.u", R(hi), R(op2(c, "shr.b", R(mid), ref_imm(16))));
}

/* Signed high product: the unsigned one minus b where a < 0 and a where
 * b < 0 (two's complement correction). */
static unsigned
imul_hi(struct ref_ctx *c, unsigned a, unsigned b)
{
   unsigned hi = umul_hi(c, a, b), zero = imm_reg(c, 0);
   unsigned an = cmp01(c, "cmps.s", "lt", R(a), ref_imm(0));
   unsigned bn = cmp01(c, "cmps.s", "lt", R(b), ref_imm(0));
   hi = op2(c, "sub.u", R(hi), R(sel(c, b, an, zero)));
   return op2(c, "sub.u", R(hi), R(sel(c, a, bn, zero)));
}

/* Restoring division, one bit per iteration, 32 iterations of a loop:
 *   r = r << 1 | bit i of n; if (r >= d or the shift carried out) r -= d,
 *   q = q << 1 | that decision.
 * d == 0 gives q = ~0 and r = n. */
static void
udivmod(struct ref_ctx *c, unsigned n, unsigned d, unsigned *qo, unsigned *ro)
{
   unsigned q = imm_reg(c, 0), r = imm_reg(c, 0), i = imm_reg(c, 31);
   unsigned hb = ref_tmp(c), b = ref_tmp(c), ge = ref_tmp(c), rs = ref_tmp(c);
   int top = ref_label(c);
   ref_place(c, top);
   alu2(c, "shr.b", hb, R(r), ref_imm(31));
   alu2(c, "shl.b", r, R(r), ref_imm(1));
   alu2(c, "shr.b", b, R(n), R(i));
   alu2(c, "and.b", b, R(b), ref_imm(1));
   alu2(c, "or.b", r, R(r), R(b));
   cmp(c, "cmps.u", "ge", R(ge), R(r), R(d));
   alu2(c, "or.b", ge, R(ge), R(hb));
   alu2(c, "sub.u", rs, R(r), R(d));
   alu3(c, "sel.b32", r, R(rs), R(ge), R(r));
   alu2(c, "shl.b", q, R(q), ref_imm(1));
   alu2(c, "or.b", q, R(q), R(ge));
   alu2(c, "sub.u", i, R(i), ref_imm(1));
   cmp(c, "cmps.s", "ge", ref_p(c, 0), R(i), ref_imm(0));
   struct isa_insn *br = ref_emit(c, "br");
   br->src[0] = ref_p(c, 0);
   ref_branch_to(c, top, 1);
   *qo = q;
   *ro = r;
}

static unsigned
divide(struct ref_ctx *c, enum tgsi_opcode op, unsigned a, unsigned b)
{
   unsigned q, r;
   if (op == TGSI_OP_UDIV || op == TGSI_OP_UMOD) {
      udivmod(c, a, b, &q, &r);
      if (op == TGSI_OP_UDIV)
         return q; /* ~0 for b == 0, as TGSI defines */
      unsigned z = cmp01(c, "cmps.u", "eq", R(b), ref_imm(0));
      return sel(c, imm_reg(c, 0xffffffffu), z, r);
   }
   /* Signed: divide the magnitudes, then fix the signs (C truncation:
    * the quotient is negative when the signs differ, the remainder has
    * the dividend's sign). Divide by zero: IDIV 0, MOD -1 (undefined in
    * TGSI; the interpreter's values). */
   unsigned aa = op1(c, "absneg.s", ref_abs(R(a))), ba = op1(c, "absneg.s", ref_abs(R(b)));
   udivmod(c, aa, ba, &q, &r);
   unsigned res, z = cmp01(c, "cmps.u", "eq", R(b), ref_imm(0));
   if (op == TGSI_OP_IDIV) {
      unsigned sx = op2(c, "xor.b", R(a), R(b));
      unsigned sn = cmp01(c, "cmps.s", "lt", R(sx), ref_imm(0));
      res = sel(c, op1(c, "absneg.s", ref_neg(R(q))), sn, q);
      return sel(c, imm_reg(c, 0), z, res);
   }
   unsigned an = cmp01(c, "cmps.s", "lt", R(a), ref_imm(0));
   res = sel(c, op1(c, "absneg.s", ref_neg(R(r))), an, r);
   return sel(c, imm_reg(c, 0xffffffffu), z, res);
}

/* IBFE/UBFE exactly as tgsi_exec: off = offset & 31; bits == 32 && off
 * == 0 -> v; bits &= 31; bits == 0 -> 0; bits + off < 32 -> the field
 * shifted to the top and back; else v >> off. */
static unsigned
bfe(struct ref_ctx *c, unsigned v, unsigned offset, unsigned bits, bool sign)
{
   const char *shr = sign ? "ashr.b" : "shr.b";
   unsigned off = op2(c, "and.b", R(offset), ref_imm(31));
   unsigned b = op2(c, "and.b", R(bits), ref_imm(31));
   unsigned up = op2(c, "sub.u", ref_imm(32), R(b)); /* 32 - b */
   unsigned sh1 = op2(c, "sub.u", R(up), R(off));    /* 32 - b - off */
   unsigned x = op2(c, "shl.b", R(v), R(sh1));
   unsigned r1 = op2(c, shr, R(x), R(up));
   unsigned r2 = op2(c, shr, R(v), R(off));
   unsigned sum = op2(c, "add.u", R(b), R(off));
   unsigned fits = cmp01(c, "cmps.u", "lt", R(sum), ref_imm(32));
   unsigned r = sel(c, r1, fits, r2);
   unsigned none = cmp01(c, "cmps.u", "eq", R(b), ref_imm(0));
   r = sel(c, imm_reg(c, 0), none, r);
   unsigned all = cmp01(c, "cmps.u", "eq", R(bits), ref_imm(32));
   unsigned at0 = cmp01(c, "cmps.u", "eq", R(off), ref_imm(0));
   unsigned whole = op2(c, "and.b", R(all), R(at0));
   return sel(c, v, whole, r);
}

/* BFI as tgsi_exec: off = offset & 31; bits >= 32 -> (bits == 32 ?
 * insert : base); else mask = ((1 << bits) - 1) << off. */
static unsigned
bfi(struct ref_ctx *c, unsigned base, unsigned ins, unsigned offset, unsigned bits)
{
   unsigned off = op2(c, "and.b", R(offset), ref_imm(31));
   unsigned one = imm_reg(c, 1);
   unsigned m = op2(c, "sub.u", R(op2(c, "shl.b", R(one), R(bits))), ref_imm(1));
   unsigned mask = op2(c, "shl.b", R(m), R(off));
   unsigned hi = op2(c, "and.b", R(op2(c, "shl.b", R(ins), R(off))), R(mask));
   unsigned lo = op2(c, "and.b", R(base), R(op1(c, "not.b", R(mask))));
   unsigned r = op2(c, "or.b", R(hi), R(lo));
   unsigned big = cmp01(c, "cmps.u", "ge", R(bits), ref_imm(32));
   unsigned is32 = cmp01(c, "cmps.u", "eq", R(bits), ref_imm(32));
   return sel(c, sel(c, ins, is32, base), big, r);
}

/* ------------------------------------------------------------------ */
/* Float helpers                                                        */

/* TGSI's max(a, 0) as LIT computes it: NaN -> +0, otherwise 0 > a ? 0 : a
 * (so -0 stays -0). */
static unsigned
max0_keep(struct ref_ctx *c, unsigned a)
{
   unsigned zero = imm_reg(c, 0);
   unsigned neg = cmp01(c, "cmps.f", "lt", R(a), ref_immf(0.0f));
   unsigned r = sel(c, zero, neg, a);
   unsigned nan = cmp01(c, "cmps.f", "ne", R(a), R(a));
   return sel(c, zero, nan, r);
}

/* pow(a, b) = exp2(b * log2(a)), with C pow's answers where that formula
 * gives NaN: pow(x, 0) = 1 and pow(1, y) = 1. */
static unsigned
fpow(struct ref_ctx *c, unsigned a, unsigned b)
{
   unsigned l = op1(c, "log2", R(a));
   unsigned p = op2(c, "mul.f", R(l), R(b));
   unsigned e = op1(c, "exp2", R(p));
   unsigned one = imm_reg(c, 0x3f800000u);
   unsigned b0 = cmp01(c, "cmps.f", "eq", R(b), ref_immf(0.0f));
   unsigned a1 = cmp01(c, "cmps.f", "eq", R(a), ref_immf(1.0f));
   return sel(c, one, op2(c, "or.b", R(b0), R(a1)), e);
}

/* ((a0*b0 + a1*b1) + a2*b2) + a3*b3, two roundings per step as tgsi_exec. */
static unsigned
dot(struct ref_ctx *c, const struct tgsi_insn *in, unsigned n, bool homogeneous)
{
   /* One allocating call per argument list: C leaves the order of
    * argument evaluation open, and register numbers must not depend on
    * the compiler. */
   unsigned a0 = a3_fetch(c, in, 0, 0);
   unsigned acc = op2(c, "mul.f", R(a0), R(a3_fetch(c, in, 1, 0)));
   for (unsigned k = 1; k < n; k++) {
      unsigned d = ref_tmp(c);
      unsigned b = a3_fetch(c, in, 1, k);
      if (homogeneous && k == 3)
         alu2(c, "add.f", d, R(acc), R(b));
      else
         alu3(c, "mad.f32", d, R(a3_fetch(c, in, 0, k)), R(b), R(acc));
      acc = d;
   }
   return acc;
}

/* ------------------------------------------------------------------ */
/* Component-wise opcodes                                               */

struct cmp_map {
   enum tgsi_opcode op;
   const char *mach, *cond;
   enum { TO_FLOAT1, TO_MASK } result; /* 1.0f/0.0f or ~0/0 */
};

static const struct cmp_map cmp_ops[] = {
    {TGSI_OP_SLT, "cmps.f", "lt", TO_FLOAT1}, {TGSI_OP_SGE, "cmps.f", "ge", TO_FLOAT1},
    {TGSI_OP_SEQ, "cmps.f", "eq", TO_FLOAT1}, {TGSI_OP_SGT, "cmps.f", "gt", TO_FLOAT1},
    {TGSI_OP_SLE, "cmps.f", "le", TO_FLOAT1}, {TGSI_OP_SNE, "cmps.f", "ne", TO_FLOAT1},
    {TGSI_OP_FSLT, "cmps.f", "lt", TO_MASK},  {TGSI_OP_FSGE, "cmps.f", "ge", TO_MASK},
    {TGSI_OP_FSEQ, "cmps.f", "eq", TO_MASK},  {TGSI_OP_FSNE, "cmps.f", "ne", TO_MASK},
    {TGSI_OP_ISLT, "cmps.s", "lt", TO_MASK},  {TGSI_OP_ISGE, "cmps.s", "ge", TO_MASK},
    {TGSI_OP_USLT, "cmps.u", "lt", TO_MASK},  {TGSI_OP_USGE, "cmps.u", "ge", TO_MASK},
    {TGSI_OP_USEQ, "cmps.u", "eq", TO_MASK},  {TGSI_OP_USNE, "cmps.u", "ne", TO_MASK},
};

/* Opcodes that are one machine op on the fetched sources. */
struct direct_map {
   enum tgsi_opcode op;
   const char *mach;
};

static const struct direct_map direct_ops[] = {
    {TGSI_OP_ADD, "add.f"},   {TGSI_OP_MUL, "mul.f"},     {TGSI_OP_MIN, "min.f"},
    {TGSI_OP_MAX, "max.f"},   {TGSI_OP_MAD, "mad.f32"},   {TGSI_OP_FLR, "floor.f"},
    {TGSI_OP_CEIL, "ceil.f"}, {TGSI_OP_TRUNC, "trunc.f"}, {TGSI_OP_ROUND, "rndne.f"},
    {TGSI_OP_SSG, "sign.f"},  {TGSI_OP_UADD, "add.u"},    {TGSI_OP_IMAX, "max.s"},
    {TGSI_OP_IMIN, "min.s"},  {TGSI_OP_UMAX, "max.u"},    {TGSI_OP_UMIN, "min.u"},
    {TGSI_OP_AND, "and.b"},   {TGSI_OP_OR, "or.b"},       {TGSI_OP_XOR, "xor.b"},
    {TGSI_OP_NOT, "not.b"},   {TGSI_OP_SHL, "shl.b"},     {TGSI_OP_USHR, "shr.b"},
    {TGSI_OP_ISHR, "ashr.b"}, {TGSI_OP_BREV, "bfrev.b"},  {TGSI_OP_POPC, "cbits.b"},
};

/* Conversions: cov types and rounding. */
struct cov_map {
   enum tgsi_opcode op;
   const char *from, *to, *round;
};

static const struct cov_map cov_ops[] = {
    {TGSI_OP_F2I, "f32", "s32", "default"}, {TGSI_OP_F2U, "f32", "u32", "default"},
    {TGSI_OP_I2F, "s32", "f32", "default"}, {TGSI_OP_U2F, "u32", "f32", "default"},
    {TGSI_OP_ARL, "f32", "s32", "neg_inf"},
};

static bool
comp_table(struct ref_ctx *c, const struct tgsi_insn *in, unsigned ch, unsigned *out)
{
   unsigned ns = tgsi_op_info[in->op].nsrc, s[3] = {0, 0, 0};
   for (unsigned k = 0; k < ARRAY_SIZE(direct_ops); k++) {
      if (direct_ops[k].op != in->op)
         continue;
      for (unsigned i = 0; i < ns; i++)
         s[i] = a3_fetch(c, in, i, ch);
      *out = ref_tmp(c);
      if (ns == 1)
         alu1(c, direct_ops[k].mach, *out, R(s[0]));
      else if (ns == 2)
         alu2(c, direct_ops[k].mach, *out, R(s[0]), R(s[1]));
      else
         alu3(c, direct_ops[k].mach, *out, R(s[0]), R(s[1]), R(s[2]));
      return true;
   }
   for (unsigned k = 0; k < ARRAY_SIZE(cmp_ops); k++) {
      if (cmp_ops[k].op != in->op)
         continue;
      unsigned a = a3_fetch(c, in, 0, ch);
      unsigned t = cmp01(c, cmp_ops[k].mach, cmp_ops[k].cond, R(a), R(a3_fetch(c, in, 1, ch)));
      *out = ref_tmp(c);
      if (cmp_ops[k].result == TO_FLOAT1)
         cov(c, "u32", "f32", R(*out), R(t));
      else
         alu1(c, "absneg.s", *out, ref_neg(R(t)));
      return true;
   }
   for (unsigned k = 0; k < ARRAY_SIZE(cov_ops); k++) {
      if (cov_ops[k].op != in->op)
         continue;
      *out = ref_tmp(c);
      struct isa_insn *cv =
          cov(c, cov_ops[k].from, cov_ops[k].to, R(*out), R(a3_fetch(c, in, 0, ch)));
      ref_set_mod(c, cv, "round", cov_ops[k].round);
      return true;
   }
   return false;
}

/* The other component-wise opcodes, one expansion each. */
static bool
comp_special(struct ref_ctx *c, const struct tgsi_insn *in, unsigned ch, unsigned *out)
{
#define S(i) a3_fetch(c, in, (i), ch)
   unsigned a, b, t;
   switch (in->op) {
   case TGSI_OP_MOV:
   case TGSI_OP_UARL:
      *out = S(0);
      return true;
   case TGSI_OP_ABS:
      *out = op1(c, "absneg.f", ref_abs(R(S(0))));
      return true;
   case TGSI_OP_SUB:
      a = S(0);
      *out = op2(c, "add.f", R(a), ref_neg(R(S(1))));
      return true;
   case TGSI_OP_DIV:
      a = S(0);
      *out = op2(c, "mul.f", R(a), R(op1(c, "rcp", R(S(1)))));
      return true;
   case TGSI_OP_LRP: /* a * (b - c) + c */
      a = S(0);
      b = S(1);
      t = S(2);
      *out = ref_tmp(c);
      alu3(c, "mad.f32", *out, R(a), R(op2(c, "add.f", R(b), ref_neg(R(t)))), R(t));
      return true;
   case TGSI_OP_CLAMP:
      a = S(0);
      b = S(1);
      t = op2(c, "max.f", R(a), R(b));
      *out = op2(c, "min.f", R(t), R(S(2)));
      return true;
   case TGSI_OP_FRC:
      a = S(0);
      *out = op2(c, "add.f", R(a), ref_neg(R(op1(c, "floor.f", R(a)))));
      return true;
   case TGSI_OP_ARR:
      t = op2(c, "add.f", R(S(0)), ref_immf(0.5f));
      *out = ref_tmp(c);
      ref_set_mod(c, cov(c, "f32", "s32", R(*out), R(t)), "round", "neg_inf");
      return true;
   case TGSI_OP_CMP: /* a < 0 ? b : c; -0 and NaN pick c */
      t = cmp01(c, "cmps.f", "lt", R(S(0)), ref_immf(0.0f));
      b = S(1);
      *out = sel(c, b, t, S(2));
      return true;
   case TGSI_OP_UCMP:
      a = S(0);
      b = S(1);
      *out = sel(c, b, a, S(2));
      return true;
   case TGSI_OP_SFL:
   case TGSI_OP_STR:
      *out = imm_reg(c, in->op == TGSI_OP_STR ? 0x3f800000u : 0);
      return true;
   case TGSI_OP_INEG:
      *out = op1(c, "absneg.s", ref_neg(R(S(0))));
      return true;
   case TGSI_OP_IABS:
      *out = op1(c, "absneg.s", ref_abs(R(S(0))));
      return true;
   case TGSI_OP_ISSG:
      a = S(0);
      t = cmp01(c, "cmps.s", "gt", R(a), ref_imm(0));
      *out = op2(c, "sub.u", R(t), R(cmp01(c, "cmps.s", "lt", R(a), ref_imm(0))));
      return true;
   case TGSI_OP_UMUL:
      a = S(0);
      *out = umul(c, a, S(1));
      return true;
   case TGSI_OP_UMAD:
      a = S(0);
      b = S(1);
      t = umul(c, a, b);
      *out = op2(c, "add.u", R(t), R(S(2)));
      return true;
   case TGSI_OP_UMUL_HI:
   case TGSI_OP_IMUL_HI:
      a = S(0);
      b = S(1);
      *out = in->op == TGSI_OP_UMUL_HI ? umul_hi(c, a, b) : imul_hi(c, a, b);
      return true;
   case TGSI_OP_UDIV:
   case TGSI_OP_UMOD:
   case TGSI_OP_IDIV:
   case TGSI_OP_MOD:
      a = S(0);
      *out = divide(c, in->op, a, S(1));
      return true;
   case TGSI_OP_UMSB: /* 31 - clz: -1 for 0 */
   case TGSI_OP_IMSB:
      t = op1(c, in->op == TGSI_OP_UMSB ? "clz.b" : "clz.s", R(S(0)));
      *out = op2(c, "sub.u", ref_imm(31), R(t));
      return true;
   case TGSI_OP_LSB: /* clz(bitreverse(x)), -1 for 0 */
      a = S(0);
      t = op1(c, "clz.b", R(op1(c, "bfrev.b", R(a))));
      b = cmp01(c, "cmps.u", "eq", R(a), ref_imm(0));
      *out = sel(c, imm_reg(c, 0xffffffffu), b, t);
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

/* ------------------------------------------------------------------ */
/* REPL and CHAN opcodes                                                */

/* One value from the .x (after swizzle) of the sources; NULL if op is not
 * a REPL opcode this file knows. */
static bool
repl(struct ref_ctx *c, const struct tgsi_insn *in, unsigned *out)
{
   static const struct direct_map sfu[] = {
       {TGSI_OP_RCP, "rcp"},  {TGSI_OP_RSQ, "rsq"}, {TGSI_OP_SQRT, "sqrt"}, {TGSI_OP_EX2, "exp2"},
       {TGSI_OP_LG2, "log2"}, {TGSI_OP_SIN, "sin"}, {TGSI_OP_COS, "cos"},
   };
   for (unsigned k = 0; k < ARRAY_SIZE(sfu); k++)
      if (sfu[k].op == in->op) {
         *out = op1(c, sfu[k].mach, R(a3_fetch(c, in, 0, 0)));
         return true;
      }
   unsigned a;
   switch (in->op) {
   case TGSI_OP_POW:
      a = a3_fetch(c, in, 0, 0);
      *out = fpow(c, a, a3_fetch(c, in, 1, 0));
      return true;
   case TGSI_OP_DP2:
      *out = dot(c, in, 2, false);
      return true;
   case TGSI_OP_DP3:
      *out = dot(c, in, 3, false);
      return true;
   case TGSI_OP_DP4:
      *out = dot(c, in, 4, false);
      return true;
   case TGSI_OP_DPH:
      *out = dot(c, in, 4, true);
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
      v[i] = a3_fetch(c, in, 0, i);
   unsigned d = op2(c, "mul.f", R(v[0]), R(v[0]));
   for (unsigned i = 1; i < k; i++) {
      unsigned n = ref_tmp(c);
      alu3(c, "mad.f32", n, R(v[i]), R(v[i]), R(d));
      d = n;
   }
   unsigned len = op1(c, "rsq", R(d));
   for (unsigned i = 0; i < k; i++)
      res[i] = op2(c, "mul.f", R(v[i]), R(len));
   if (k == 3)
      res[3] = imm_reg(c, 0x3f800000u);
}

static void
lit(struct ref_ctx *c, const struct tgsi_insn *in, unsigned *res)
{
   unsigned x = a3_fetch(c, in, 0, 0), y = a3_fetch(c, in, 0, 1), w = a3_fetch(c, in, 0, 3);
   unsigned one = imm_reg(c, 0x3f800000u);
   res[0] = res[3] = one;
   res[1] = max0_keep(c, x);
   /* clamp(w, -128, 128) with NaN kept */
   unsigned lo = imm_reg(c, fui(-128.0f)), hi = imm_reg(c, fui(128.0f));
   unsigned e = sel(c, lo, cmp01(c, "cmps.f", "lt", R(w), R(lo)), w);
   e = sel(c, hi, cmp01(c, "cmps.f", "gt", R(e), R(hi)), e);
   unsigned p = fpow(c, max0_keep(c, y), e);
   unsigned on = cmp01(c, "cmps.f", "gt", R(x), ref_immf(0.0f));
   res[2] = sel(c, p, on, imm_reg(c, 0));
}

static bool
chan(struct ref_ctx *c, const struct tgsi_insn *in, unsigned *res)
{
   unsigned x, fl, a[4], b[4];
   unsigned one = 0;
   switch (in->op) {
   case TGSI_OP_EXP:
      x = a3_fetch(c, in, 0, 0);
      fl = op1(c, "floor.f", R(x));
      res[0] = op1(c, "exp2", R(fl));
      res[1] = op2(c, "add.f", R(x), ref_neg(R(fl)));
      res[2] = op1(c, "exp2", R(x));
      res[3] = imm_reg(c, 0x3f800000u);
      return true;
   case TGSI_OP_LOG: /* |x| through floor(lg2), the mantissa, lg2 */
      x = a3_fetch(c, in, 0, 0);
      res[2] = op1(c, "log2", ref_abs(R(x)));
      res[0] = op1(c, "floor.f", R(res[2]));
      fl = op1(c, "rcp", R(op1(c, "exp2", R(res[0]))));
      res[1] = op2(c, "mul.f", ref_abs(R(x)), R(fl));
      res[3] = imm_reg(c, 0x3f800000u);
      return true;
   case TGSI_OP_LIT:
      lit(c, in, res);
      return true;
   case TGSI_OP_DST:
      a[1] = a3_fetch(c, in, 0, 1);
      b[1] = a3_fetch(c, in, 1, 1);
      res[0] = imm_reg(c, 0x3f800000u);
      res[1] = op2(c, "mul.f", R(a[1]), R(b[1]));
      res[2] = a3_fetch(c, in, 0, 2);
      res[3] = a3_fetch(c, in, 1, 3);
      return true;
   case TGSI_OP_XPD: /* a.yzx * b.zxy - a.zxy * b.yzx */
      for (unsigned k = 0; k < 3; k++) {
         a[k] = a3_fetch(c, in, 0, k);
         b[k] = a3_fetch(c, in, 1, k);
      }
      for (unsigned k = 0; k < 3; k++) {
         unsigned p = (k + 1) % 3, q = (k + 2) % 3;
         unsigned t1 = op2(c, "mul.f", R(a[p]), R(b[q]));
         unsigned t2 = op2(c, "mul.f", R(a[q]), R(b[p]));
         res[k] = op2(c, "add.f", R(t1), ref_neg(R(t2)));
      }
      res[3] = imm_reg(c, 0x3f800000u);
      return true;
   case TGSI_OP_SCS:
      x = a3_fetch(c, in, 0, 0);
      res[0] = op1(c, "cos", R(x));
      res[1] = op1(c, "sin", R(x));
      res[2] = imm_reg(c, 0);
      res[3] = imm_reg(c, 0x3f800000u);
      return true;
   case TGSI_OP_NRM:
   case TGSI_OP_NRM4:
      nrm(c, in, res);
      return true;
   default:
      (void)one;
      return false;
   }
}

/* ------------------------------------------------------------------ */
/* Kill, textures, memory                                               */

static void
kill_if_set(struct ref_ctx *c, unsigned flag)
{
   cmp(c, "cmps.u", "ne", ref_p(c, 0), R(flag), ref_imm(0));
   struct isa_insn *k = ref_emit(c, "kill");
   k->src[0] = ref_p(c, 0);
}

/* KILL_IF/KIL: any of the four swizzled components < 0 (NaN and -0 do
 * not kill). */
static void
kill_if(struct ref_ctx *c, const struct tgsi_insn *in)
{
   unsigned any = imm_reg(c, 0);
   for (unsigned ch = 0; ch < 4; ch++) {
      unsigned t = cmp01(c, "cmps.f", "lt", R(a3_fetch(c, in, 0, ch)), ref_immf(0.0f));
      any = op2(c, "or.b", R(any), R(t));
   }
   kill_if_set(c, any);
}

static enum compile_status
tex(struct ref_ctx *c, const struct tgsi_insn *in)
{
   enum tgsi_texture t = in->tex_target;
   if (t != TGSI_TEX_T_1D && t != TGSI_TEX_T_2D && t != TGSI_TEX_T_RECT)
      return ref_unsupported(c, "texture target %s (a3xx sam takes two coordinates)",
                             tgsi_texture_names[t]);
   if (in->noffsets)
      return ref_unsupported(c, "texel offsets");
   if (in->src[1].reg.file != TGSI_FILE_SAMP || in->src[1].reg.indirect)
      return ref_unsupported(c, "a sampler operand other than SAMP[n]");
   unsigned x = a3_fetch(c, in, 0, 0), y = t == TGSI_TEX_T_1D ? x : a3_fetch(c, in, 0, 1);
   unsigned co = ref_tmp(c), co1 = ref_tmp(c);
   a3_copy(c, co, x);
   a3_copy(c, co1, y);
   unsigned d = ref_tmp(c);
   for (unsigned k = 1; k < 4; k++)
      ref_tmp(c);
   struct isa_insn *s = ref_emit(c, "sam");
   s->dst[0] = R(d);
   s->src[0] = R(co);
   s->src[1] = ref_imm((uint32_t)in->src[1].reg.index);
   s->src[2] = ref_imm((uint32_t)in->src[1].reg.index);
   unsigned res[4] = {d, d + 1, d + 2, d + 3};
   store(c, in, res);
   return c->status;
}

/* Byte address of a LOAD/STORE: the offset operand plus the resource's
 * base (EMU_ADDR_BUFFER for buffers, 0 for shared memory). */
static bool
mem_address(struct ref_ctx *c, const struct tgsi_insn *in, const struct tgsi_reg *res,
            unsigned off_src, unsigned *addr, bool *shared)
{
   if (res->indirect)
      return ref_unsupported(c, "an indirect resource index"), false;
   unsigned off = a3_fetch(c, in, off_src, 0);
   if (res->file == TGSI_FILE_MEMORY) {
      *shared = true;
      *addr = off;
      return true;
   }
   if (res->file != TGSI_FILE_BUFFER || res->index < 0 || res->index >= ENV_MAX_BUFFERS)
      return ref_unsupported(c, "%s resources", tgsi_file_names[res->file]), false;
   *shared = false;
   unsigned b = imm_reg(c, EMU_ADDR_BUFFER((uint32_t)res->index));
   *addr = op2(c, "add.u", R(off), R(b));
   return true;
}

static enum compile_status
load(struct ref_ctx *c, const struct tgsi_insn *in)
{
   unsigned addr, res[4];
   bool shared;
   if (!mem_address(c, in, &in->src[0].reg, 1, &addr, &shared))
      return c->status;
   for (unsigned ch = 0; ch < 4; ch++) {
      if (!(in->dst[0].mask & (1u << ch)))
         continue;
      res[ch] = ref_tmp(c);
      struct isa_insn *l = ref_emit(c, shared ? "ldl" : "ldg");
      ref_set_mod(c, l, "type", "u32");
      l->dst[0] = R(res[ch]);
      l->src[0] = R(addr);
      l->src[1] = ref_imm(4u * (in->src[0].swz[ch] & 3));
      l->src[2] = ref_imm(1);
   }
   store(c, in, res);
   return c->status;
}

static enum compile_status
store_mem(struct ref_ctx *c, const struct tgsi_insn *in)
{
   unsigned addr, v[4];
   bool shared;
   if (!mem_address(c, in, &in->dst[0].reg, 0, &addr, &shared))
      return c->status;
   for (unsigned ch = 0; ch < 4; ch++)
      if (in->dst[0].mask & (1u << ch))
         v[ch] = a3_fetch(c, in, 1, ch);
   for (unsigned ch = 0; ch < 4; ch++) {
      if (!(in->dst[0].mask & (1u << ch)))
         continue;
      struct isa_insn *s = ref_emit(c, shared ? "stl" : "stg");
      ref_set_mod(c, s, "type", "u32");
      s->src[0] = R(addr);
      s->src[1] = ref_imm(4u * ch);
      s->src[2] = R(v[ch]);
      s->src[3] = ref_imm(1);
   }
   return c->status;
}

/* ------------------------------------------------------------------ */
/* Dispatch                                                             */

/* Why an opcode without an expansion is refused. */
static enum compile_status
refuse(struct ref_ctx *c, const struct tgsi_insn *in)
{
   static const struct {
      enum tgsi_opcode op;
      const char *why;
   } why[] = {
       {TGSI_OP_BARRIER, "the a3xx model has no barrier instruction"},
       {TGSI_OP_DDX, "the a3xx model has no derivative instructions"},
       {TGSI_OP_DDY, "the a3xx model has no derivative instructions"},
       {TGSI_OP_DDX_FINE, "the a3xx model has no derivative instructions"},
       {TGSI_OP_DDY_FINE, "the a3xx model has no derivative instructions"},
       {TGSI_OP_EMIT, "the a3xx model has no geometry-shader output"},
       {TGSI_OP_ENDPRIM, "the a3xx model has no geometry-shader output"},
       {TGSI_OP_TXL, "the a3xx sam has no level-of-detail operand"},
       {TGSI_OP_TXB, "the a3xx sam has no level-of-detail operand"},
       {TGSI_OP_TXP, "a projected lookup needs an exact division"},
       {TGSI_OP_PK2H, "the a3xx model cannot move half-float bits to a full register"},
       {TGSI_OP_UP2H, "the a3xx model cannot move half-float bits to a full register"},
       {TGSI_OP_RESQ, "resource sizes are not visible to a3xx code"},
       {TGSI_OP_DEMOTE, "the a3xx model has no demote"},
   };
   for (unsigned k = 0; k < ARRAY_SIZE(why); k++)
      if (why[k].op == in->op)
         return ref_unsupported(c, "%s", why[k].why);
   if (tgsi_op_info[in->op].flags & TGSI_OPF_MEM || in->op == TGSI_OP_ATOMFADD ||
       in->op == TGSI_OP_ATOMINC_WRAP || in->op == TGSI_OP_ATOMDEC_WRAP)
      return ref_unsupported(c, "the a3xx model has no atomics, images or resource queries");
   return ref_unsupported(c, "no a3xx expansion for this opcode");
}

static enum compile_status
a3_insn(struct ref_ctx *c, const struct tgsi_insn *in)
{
   const struct tgsi_op_info *info = &tgsi_op_info[in->op];
   unsigned res[4] = {0, 0, 0, 0}, mask = in->ndst ? in->dst[0].mask : 0;
   switch (in->op) {
   case TGSI_OP_END:
      return c->status;
   case TGSI_OP_KILL:
      kill_if_set(c, imm_reg(c, 1));
      return c->status;
   case TGSI_OP_KILL_IF:
   case TGSI_OP_KIL:
      kill_if(c, in);
      return c->status;
   case TGSI_OP_TEX:
   case TGSI_OP_TEX_LZ:
      return tex(c, in);
   case TGSI_OP_LOAD:
      return load(c, in);
   case TGSI_OP_STORE:
      return store_mem(c, in);
   case TGSI_OP_MEMBAR:
      /* Every memory access is waited for in full already. */
      return c->status;
   default:
      break;
   }
   if (in->op == TGSI_OP_FMA)
      return ref_unsupported(c, "a3xx has no fused multiply-add");
   if (info->type == TGSI_TYPE_D || info->type == TGSI_TYPE_I64 || info->type == TGSI_TYPE_U64)
      return ref_unsupported(c, "64-bit operations");
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
         if (!comp_table(c, in, ch, &res[ch]) && !comp_special(c, in, ch, &res[ch]))
            return refuse(c, in);
      }
   } else {
      return refuse(c, in);
   }
   if (c->status == COMPILE_OK)
      store(c, in, res);
   return c->status;
}

/* ------------------------------------------------------------------ */
/* Branches                                                             */

static void
a3_branch(struct ref_ctx *c, enum ref_test test, unsigned a, unsigned b, bool when, int label)
{
   if (test == REF_TEST_FLOAT_NZ)
      cmp(c, "cmps.f", "ne", ref_p(c, 0), R(a), ref_immf(0.0f));
   else if (test == REF_TEST_INT_NZ)
      cmp(c, "cmps.u", "ne", ref_p(c, 0), R(a), ref_imm(0));
   else
      cmp(c, "cmps.u", "eq", ref_p(c, 0), R(a), R(b));
   struct isa_insn *br = ref_emit(c, "br");
   br->src[0] = ref_p(c, 0);
   if (!when)
      br->src[0].flags |= ISA_OPND_F_NOT;
   ref_branch_to(c, label, 1);
}

static void
a3_jump(struct ref_ctx *c, int label)
{
   ref_emit(c, "jump");
   ref_branch_to(c, label, 0);
}

static void
a3_end(struct ref_ctx *c)
{
   ref_emit(c, "end");
}

static bool
a3_init(struct ref_ctx *c)
{
   if (c->pfile < 0 || c->afile < 0) {
      ref_error(c, "the a3xx model lacks p0 or a0");
      return false;
   }
   return true;
}

const struct ref_target ref_target_a3xx = {
    .model = "a3xx",
    .init = a3_init,
    .insn = a3_insn,
    .fetch = a3_fetch,
    .copy = a3_copy,
    .branch = a3_branch,
    .jump = a3_jump,
    .end = a3_end,
};
