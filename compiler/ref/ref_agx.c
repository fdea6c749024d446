/*
 * The reference compiler's Apple G13 target (isa/models/agx.yaml): the
 * scalar primitives of ref.h as agx instructions, constant loads from the
 * uniform registers, device memory and the prologue/epilogue. Control
 * flow is ref_cf_exec.c's (the execution-mask stack); the `wait` after
 * every device load and store is ref_hazard.c's (interlocked models).
 *
 * Everything is 32-bit and long-form; r0..r3 are kept (r0l is the
 * execution-mask stack's count, r1 the link register). Constants and
 * immediates live in u0..u255 (bound by ref.c), read with a mov; when
 * they do not fit, the immediates and resource sizes stay there and the
 * constant buffer slots past u255 are device loads from the buffer's
 * memory, as are indirect reads of such a buffer (ref.c, consts_in_mem).
 *
 * Compares are a compare and a select, never fused: fcmpsel/icmpsel
 * choosing 1 or 0 (the primitives' booleans); != and >= are the opposite
 * condition with the arms swapped (cmpsel has no invert bit; a float !=
 * swaps the arms of the ordered ==, so NaN gives 1). SEL is icmpsel on
 * the condition's bits == 0. FMIN/FMAX are fcmpsel ltn/gtn (NaN loses)
 * and, because those do not order +0 and -0, a second fcmpsel that takes
 * the OR (min) or AND (max) of the bits when the operands compare equal.
 * FNEG/FABS flip or clear the sign bit with xor/and (exact, no flush).
 * FSQRT is rcp(rsqrt(a)) (both ends exact: 0, inf, -0); FMAD is fmul
 * then fadd (two roundings); F2I_FLOOR is floor then convert.
 *
 * UMSB/IMSB (and LSB through them) count the bits of x smeared down
 * from its highest set bit, less one.
 *
 * Textures (texture_sample, texture_load) take their coordinates, the
 * depth reference and packed offsets, and the level or bias as an f16
 * half register; they use scoreboard slot 1, device memory slot 0, and
 * each is waited for right after it (ref_hazard.c). TXQ reads the
 * resource-size constants (agx reads sizes from the descriptor).
 * Threadgroup memory and its atomics are synchronous.
 *
 * F2H/H2F (PK2H, UP2H, F2F16 through them) are an fadd of -0.0 into or
 * from a register half: 16-bit float destinations round, 16-bit sources
 * widen exactly.
 *
 * DDX/DDY are dfdx/dfdy (the model's coarse quad derivatives);
 * DDX_FINE/DDY_FINE are simd_shuffle_down/_up by 1 (2) and the lane's
 * parity from get_sr choosing which difference (agx_deriv_fine). The
 * subgroup ops use icmp_ballot and simd_shuffle with immediate lanes only
 * (agx_subgroup): the shuffle's quad rule reads B in inactive lanes too.
 *
 * KILL is `sample_mask 255, 0`; KILL_IF (and DEMOTE's deferred kill,
 * ref_ops.c) is `sample_mask rNl, 0` on a 1/0 (or ~0/0) flag: a lane
 * with bit 0 of the flag set ends there, discarded.
 *
 * SIN/COS reduce the angle to quarter turns and multiply the two sine
 * halves (sin_pt_1, sin_pt_2), as Mesa's AGX back end does.
 *
 * Float atomic add and the wrapping increment/decrement, which agx has
 * no atomic op for, are compare-and-swap loops.
 *
 * LODQ is texture_sample.query_lod (x the level used, y the computed
 * one). TG4 and GATHER4 are texture_sample.gather_r/g/b/a (a shadow
 * target: .gather_depth, the reference compared with each texel's red).
 *
 * Refused (the model has no instruction for them): doubles.
 */
#include "compiler/ref/ref.h"
#include "emu/emu.h"

#include <stdio.h>
#include <string.h>

#define R(x) ref_r(c, (x))

static struct isa_insn *
emit(struct ref_ctx *c, const char *op, unsigned d, struct isa_opnd a, struct isa_opnd b,
     struct isa_opnd e)
{
   struct isa_insn *in = ref_emit(c, op);
   const struct isa_opnd src[3] = {a, b, e};
   in->dst[0] = R(d);
   for (unsigned i = 0; i < in->nsrc && i < 3; i++)
      in->src[i] = src[i];
   return in;
}

static void
agx_mov_imm(struct ref_ctx *c, unsigned d, uint32_t v)
{
   struct isa_insn *in = ref_emit(c, "mov_imm32");
   in->dst[0] = R(d);
   in->src[0] = ref_imm(v);
}

static void
agx_copy(struct ref_ctx *c, unsigned d, unsigned s)
{
   struct isa_insn *in = ref_emit(c, "mov");
   in->dst[0] = R(d);
   in->src[0] = R(s);
}

static struct isa_insn *mem(struct ref_ctx *c, bool shared, const char *op, unsigned addr,
                            uint32_t off);

/* A constant buffer slot past the uniform registers (c->cmem): a device
 * load from the buffer's memory, as Mesa's agx back end reads what it
 * could not push to uniforms. */
static unsigned
agx_load_const_mem(struct ref_ctx *c, unsigned slot)
{
   unsigned b = 0, d = ref_tmp(c);
   while (b < 15 && slot >= (c->cbase[b] + c->ccount[b]) * 4)
      b++;
   unsigned addr = ref_imm_reg(c, EMU_ADDR_CONST(b));
   struct isa_insn *in = mem(c, false, "device_load", addr, slot * 4 - c->cbase[b] * 16);
   in->dst[0] = R(d);
   return d;
}

static unsigned
agx_load_const(struct ref_ctx *c, unsigned slot)
{
   if (slot >= c->nconst)
      return agx_load_const_mem(c, slot);
   unsigned d = ref_tmp(c);
   struct isa_insn *in = ref_emit(c, "mov");
   in->dst[0] = R(d);
   in->src[0] =
       (struct isa_opnd){.kind = ISA_OPND_REG, .file = (uint8_t)c->cfile, .index = (uint16_t)slot};
   return d;
}

/* d = cc(a, b) ? x : y; float conditions for fcmpsel, integer ones
 * (with the sign) for icmpsel. */
static void
cmpsel(struct ref_ctx *c, bool fl, const char *cc, const char *sign, unsigned d, struct isa_opnd a,
       struct isa_opnd b, struct isa_opnd x, struct isa_opnd y)
{
   struct isa_insn *in = ref_emit(c, fl ? "fcmpsel" : "icmpsel");
   in->dst[0] = R(d);
   in->src[0] = a;
   in->src[1] = b;
   in->src[2] = x;
   in->src[3] = y;
   ref_set_mod(c, in, fl ? "cc" : "icc", cc);
   if (!fl)
      ref_set_mod(c, in, "isign", sign);
}

/* Compares as 1/0: the condition, its sign, whether the arms swap. */
static const struct {
   enum ref_prim prim;
   bool fl;
   const char *cc, *sign;
   bool swap;
} cmps[] = {
    {REF_P_FLT, true, "lt", NULL, false}, {REF_P_FLE, true, "le", NULL, false},
    {REF_P_FGT, true, "gt", NULL, false}, {REF_P_FGE, true, "ge", NULL, false},
    {REF_P_FEQ, true, "eq", NULL, false}, {REF_P_FNE, true, "eq", NULL, true},
    {REF_P_ILT, false, "lt", "s", false}, {REF_P_IGE, false, "lt", "s", true},
    {REF_P_IGT, false, "gt", "s", false}, {REF_P_ULT, false, "lt", "u", false},
    {REF_P_UGE, false, "lt", "u", true},  {REF_P_IEQ, false, "eq", "u", false},
    {REF_P_INE, false, "eq", "u", true},
};

/* One instruction per primitive where the model has it. */
static const struct ref_prim_op ops[] = {
    {REF_P_FADD, "fadd"},    {REF_P_FMUL, "fmul"},     {REF_P_FFMA, "fmadd"},
    {REF_P_FFLOOR, "floor"}, {REF_P_FCEIL, "ceil"},    {REF_P_FTRUNC, "trunc"},
    {REF_P_FRNDNE, "rint"},  {REF_P_FRCP, "rcp"},      {REF_P_FRSQ, "rsqrt"},
    {REF_P_FEXP2, "exp2"},   {REF_P_FLOG2, "log2"},    {REF_P_IADD, "iadd"},
    {REF_P_ISUB, "isub"},    {REF_P_IMUL, "imul"},     {REF_P_AND, "and"},
    {REF_P_OR, "or"},        {REF_P_XOR, "xor"},       {REF_P_NOT, "not"},
    {REF_P_BREV, "bitrev"},  {REF_P_POPC, "popcount"},
};

static const struct {
   enum ref_prim prim;
   const char *op, *round;
} cvts[] = {
    {REF_P_F2I, "f_to_s32", "rz"},
    {REF_P_F2U, "f_to_u32", "rz"},
    {REF_P_I2F, "s32_to_f", "rn"},
    {REF_P_U2F, "u32_to_f", "rn"},
};

static unsigned agx_prim(struct ref_ctx *c, enum ref_prim op, unsigned a, unsigned b, unsigned e);

/* A shift by (b & 31): the model's shifts give 0 from 32 on. */
static unsigned
shift(struct ref_ctx *c, const char *op, unsigned a, unsigned b)
{
   unsigned d = ref_tmp(c), n = ref_tmp(c);
   emit(c, "and", n, R(b), ref_imm(31), ref_imm(0));
   emit(c, op, d, R(a), R(n), ref_imm(0));
   return d;
}

/* IEEE minNum/maxNum with -0 below +0. */
static unsigned
minmax(struct ref_ctx *c, bool min, unsigned a, unsigned b)
{
   unsigned m = ref_tmp(c), z = ref_tmp(c), d = ref_tmp(c);
   cmpsel(c, true, min ? "ltn" : "gtn", NULL, m, R(a), R(b), R(a), R(b));
   emit(c, min ? "or" : "and", z, R(a), R(b), ref_imm(0));
   cmpsel(c, true, "eq", NULL, d, R(a), R(b), R(z), R(m));
   return d;
}

/* The index of the highest set bit, -1 for 0: the bits below it set by
 * five shift-ors, then counted (the model has no clz). IMSB scans x
 * xor its sign (the highest bit differing from the sign). */
static unsigned
msb(struct ref_ctx *c, bool sgn, unsigned a)
{
   unsigned x = a, t, d;
   if (sgn) {
      t = ref_tmp(c);
      x = ref_tmp(c);
      emit(c, "asr", t, R(a), ref_imm(31), ref_imm(0));
      emit(c, "xor", x, R(a), R(t), ref_imm(0));
   }
   for (unsigned k = 1; k <= 16; k *= 2) {
      t = ref_tmp(c);
      d = ref_tmp(c);
      emit(c, "shr", t, R(x), ref_imm(k), ref_imm(0));
      emit(c, "or", d, R(x), R(t), ref_imm(0));
      x = d;
   }
   t = ref_tmp(c);
   d = ref_tmp(c);
   emit(c, "popcount", t, R(x), ref_imm(0), ref_imm(0));
   emit(c, "isub", d, R(t), ref_imm(1), ref_imm(0));
   return d;
}

static unsigned
fconst(struct ref_ctx *c, float f)
{
   uint32_t u;
   memcpy(&u, &f, 4);
   return ref_imm_reg(c, u);
}

/* sin/cos as Mesa's AGX back end computes them: the angle in turns (x
 * times 1/(2 pi) in single precision; cos adds a quarter turn in the
 * same fused step), its fraction times 4 (quarter turns in [0, 4)), then
 * t = sin_pt_1 and sin_pt_2(t) * t. */
static unsigned
sine(struct ref_ctx *c, bool is_cos, unsigned a)
{
   unsigned k = fconst(c, 0.15915494f), u;
   if (is_cos)
      u = agx_prim(c, REF_P_FFMA, a, k, fconst(c, 0.25f));
   else
      u = agx_prim(c, REF_P_FMUL, a, k, 0);
   unsigned fl = agx_prim(c, REF_P_FNEG, agx_prim(c, REF_P_FFLOOR, u, 0, 0), 0, 0);
   unsigned f = agx_prim(c, REF_P_FADD, u, fl, 0);
   unsigned r = agx_prim(c, REF_P_FMUL, f, fconst(c, 4.0f), 0);
   unsigned t = ref_tmp(c), s = ref_tmp(c);
   emit(c, "sin_pt_1", t, R(r), ref_imm(0), ref_imm(0));
   emit(c, "sin_pt_2", s, R(t), ref_imm(0), ref_imm(0));
   return agx_prim(c, REF_P_FMUL, s, t, 0);
}

static unsigned
agx_prim(struct ref_ctx *c, enum ref_prim op, unsigned a, unsigned b, unsigned e)
{
   const char *name = ref_prim_op_find(ops, ARRAY_SIZE(ops), op);
   if (name) {
      unsigned d = ref_tmp(c);
      emit(c, name, d, R(a), R(b), R(e));
      return d;
   }
   for (unsigned k = 0; k < ARRAY_SIZE(cmps); k++)
      if (cmps[k].prim == op) {
         unsigned d = ref_tmp(c);
         struct isa_opnd one = ref_imm(1), zero = ref_imm(0);
         cmpsel(c, cmps[k].fl, cmps[k].cc, cmps[k].sign, d, R(a), R(b), cmps[k].swap ? zero : one,
                cmps[k].swap ? one : zero);
         return d;
      }
   for (unsigned k = 0; k < ARRAY_SIZE(cvts); k++)
      if (cvts[k].prim == op) {
         unsigned d = ref_tmp(c);
         struct isa_insn *in = emit(c, cvts[k].op, d, R(a), R(0), R(0));
         ref_set_mod(c, in, "round", cvts[k].round);
         return d;
      }
   unsigned d = ref_tmp(c), t;
   switch (op) {
   case REF_P_FMAD:
      return agx_prim(c, REF_P_FADD, agx_prim(c, REF_P_FMUL, a, b, 0), e, 0);
   case REF_P_FMIN:
   case REF_P_FMAX:
      return minmax(c, op == REF_P_FMIN, a, b);
   case REF_P_FNEG:
   case REF_P_FABS:
      t = ref_tmp(c);
      agx_mov_imm(c, t, op == REF_P_FNEG ? 0x80000000u : 0x7fffffffu);
      emit(c, op == REF_P_FNEG ? "xor" : "and", d, R(a), R(t), ref_imm(0));
      return d;
   case REF_P_FSQRT:
      return agx_prim(c, REF_P_FRCP, agx_prim(c, REF_P_FRSQ, a, 0, 0), 0, 0);
   case REF_P_F2I_FLOOR:
      return agx_prim(c, REF_P_F2I, agx_prim(c, REF_P_FFLOOR, a, 0, 0), 0, 0);
   case REF_P_INEG:
      emit(c, "isub", d, ref_imm(0), R(a), ref_imm(0));
      return d;
   case REF_P_IMIN:
   case REF_P_IMAX:
   case REF_P_UMIN:
   case REF_P_UMAX: {
      bool max = op == REF_P_IMAX || op == REF_P_UMAX;
      bool sg = op == REF_P_IMIN || op == REF_P_IMAX;
      cmpsel(c, false, max ? "gt" : "lt", sg ? "s" : "u", d, R(a), R(b), R(a), R(b));
      return d;
   }
   case REF_P_UMSB:
   case REF_P_IMSB:
      return msb(c, op == REF_P_IMSB, a);
   case REF_P_SHL:
      return shift(c, "shl", a, b);
   case REF_P_SHR:
      return shift(c, "shr", a, b);
   case REF_P_ASHR:
      return shift(c, "asr", a, b);
   case REF_P_F2H: { /* a 16-bit float destination rounds (nearest even); high half 0 */
      agx_mov_imm(c, d, 0);
      struct isa_insn *in = ref_emit(c, "fadd");
      in->dst[0] = (struct isa_opnd){
          .kind = ISA_OPND_REG, .file = (uint8_t)c->special[1], .index = (uint16_t)(2 * d)};
      in->src[0] = R(a);
      in->src[1] = ref_neg(ref_imm(0)); /* x + -0.0 = x */
      return d;
   }
   case REF_P_H2F: { /* a 16-bit source is widened exactly */
      struct isa_insn *in = ref_emit(c, "fadd");
      in->dst[0] = R(d);
      in->src[0] = (struct isa_opnd){
          .kind = ISA_OPND_REG, .file = (uint8_t)c->special[1], .index = (uint16_t)(2 * a)};
      in->src[1] = ref_neg(ref_imm(0));
      return d;
   }
   case REF_P_SEL: /* b != 0 ? a : e */
      cmpsel(c, false, "eq", "u", d, R(b), ref_imm(0), R(e), R(a));
      return d;
   case REF_P_FSIN:
   case REF_P_FCOS:
      return sine(c, op == REF_P_FCOS, a);
   default:
      ref_unsupported(c, "no agx instruction for this operation");
      return d;
   }
}

/* ------------------------------------------------------------------ */
/* Indirect constants                                                   */

/* Channel comp of CONST[b][idx] from the buffer's memory: an index
 * outside the buffer reads 0 (loading slot 0 instead, in bounds). */
static unsigned
indirect_mem(struct ref_ctx *c, unsigned b, unsigned idx, unsigned comp)
{
   unsigned zero = ref_imm_reg(c, 0), d = ref_tmp(c);
   unsigned in = agx_prim(c, REF_P_ULT, idx, ref_imm_reg(c, c->ccount[b]), 0);
   unsigned four = ref_imm_reg(c, 4);
   unsigned at = agx_prim(c, REF_P_SHL, agx_prim(c, REF_P_SEL, idx, in, zero), four, 0);
   unsigned addr = agx_prim(c, REF_P_IADD, at, ref_imm_reg(c, EMU_ADDR_CONST(b)), 0);
   struct isa_insn *ld = mem(c, false, "device_load", addr, 4 * comp);
   ld->dst[0] = R(d);
   return agx_prim(c, REF_P_SEL, d, in, zero);
}

/* A CONST or IMM channel at a lane's index: a compare and select over
 * every slot of the buffer (the uniform registers have no relative
 * read); an index outside a constant buffer reads 0, the interpreter's
 * rule. Other files take ref_ops.c's generic path. */
static bool
agx_load_indirect(struct ref_ctx *c, const struct tgsi_reg *r, unsigned comp, unsigned *out)
{
   if (r->file != TGSI_FILE_CONST && r->file != TGSI_FILE_IMM)
      return false;
   struct tgsi_reg ar = {.file = r->ind.file, .index = (int32_t)r->ind.index};
   int a = ref_home(c, &ar, r->ind.comp);
   int64_t b = r->has_dim ? r->dim : 0;
   *out = 0;
   if (r->dim_indirect || a < 0 || b < 0 || b >= 16) {
      ref_unsupported(c, "indirect addressing through %s",
                      r->dim_indirect ? "a dimension (the buffer or vertex chosen per lane)"
                                      : "this register");
      return true;
   }
   bool imm = r->file == TGSI_FILE_IMM;
   unsigned base = imm ? c->imm_base : c->cbase[b], n = imm ? c->s->nimms : c->ccount[b];
   if (!imm && (base + n) * 4 > c->nconst) { /* the buffer is in memory (c->cmem) */
      *out = indirect_mem(
          c, (unsigned)b,
          agx_prim(c, REF_P_IADD, (unsigned)a, ref_imm_reg(c, (uint32_t)r->index), 0), comp);
      return true;
   }
   unsigned res = ref_tmp(c), mark = c->scratch_next;
   unsigned idx = agx_prim(c, REF_P_IADD, (unsigned)a, ref_imm_reg(c, (uint32_t)r->index), 0);
   agx_mov_imm(c, res, 0);
   for (unsigned j = 0; j < n && c->status == COMPILE_OK; j++) {
      unsigned m = c->scratch_next;
      unsigned hit = agx_prim(c, REF_P_IEQ, idx, ref_imm_reg(c, j), 0);
      unsigned v = agx_load_const(c, (base + j) * 4 + comp);
      agx_copy(c, res, agx_prim(c, REF_P_SEL, v, hit, res));
      c->scratch_next = m;
   }
   c->scratch_next = mark;
   *out = res;
   return true;
}

/* ------------------------------------------------------------------ */
/* Device memory                                                        */

/* An even-aligned register pair holding the 64-bit address (the low word
 * addr + off, high word 0) and the element offset left. */
static unsigned
address_pair(struct ref_ctx *c, unsigned addr, uint32_t *off)
{
   unsigned p = ref_tmp(c);
   if (p & 1)
      p = ref_tmp(c);
   ref_tmp(c);
   if (*off % 4) {
      emit(c, "iadd", p, R(addr), R(ref_imm_reg(c, *off)), ref_imm(0));
      *off = 0;
   } else {
      agx_copy(c, p, addr);
   }
   agx_mov_imm(c, p + 1, 0);
   return p;
}

/* The low half of full register r (a 16-bit operand). */
static struct isa_opnd
half(struct ref_ctx *c, unsigned r)
{
   return (struct isa_opnd){
       .kind = ISA_OPND_REG, .file = (uint8_t)c->special[1], .index = (uint16_t)(2 * r)};
}

/* Device memory: the base pair and the index in words. Threadgroup
 * memory: a 16-bit base register (the address's low half) and the index
 * in words; the address is below 64 KiB (the env's shared memory). */
static struct isa_insn *
mem(struct ref_ctx *c, bool shared, const char *op, unsigned addr, uint32_t off)
{
   if (shared) {
      unsigned a = addr;
      if (off % 4 || off / 4 >= 0x8000u) {
         a = ref_tmp(c);
         emit(c, "iadd", a, R(addr), R(ref_imm_reg(c, off)), ref_imm(0));
         off = 0;
      }
      struct isa_insn *in = ref_emit(c, op);
      in->src[0] = half(c, a);
      in->src[1] = ref_imm(off / 4);
      return in;
   }
   unsigned p = address_pair(c, addr, &off);
   struct isa_insn *in = ref_emit(c, op);
   in->src[0] = R(p);
   if (off / 4 < 0x8000u) {
      in->src[1] = ref_imm(off / 4);
   } else {
      unsigned o = ref_imm_reg(c, off / 4);
      in->src[1] = R(o);
   }
   return in;
}

static void
agx_load_word(struct ref_ctx *c, bool shared, unsigned d, unsigned addr, uint32_t off)
{
   struct isa_insn *in = mem(c, shared, shared ? "threadgroup_load" : "device_load", addr, off);
   in->dst[0] = R(d);
}

static void
agx_store_word(struct ref_ctx *c, bool shared, unsigned addr, uint32_t off, unsigned v)
{
   struct isa_insn *in = mem(c, shared, shared ? "threadgroup_store" : "device_store", addr, off);
   in->src[2] = R(v);
}

/* The word an atomic with no agx op writes, from the old one and the
 * data: float add, the wrapping increment and decrement (the env's rule). */
static unsigned
atomic_new_value(struct ref_ctx *c, enum tgsi_opcode op, unsigned old, unsigned v)
{
   switch (op) {
   case TGSI_OP_ATOMFADD:
      return agx_prim(c, REF_P_FADD, old, v, 0);
   case TGSI_OP_ATOMINC_WRAP: /* old >= v ? 0 : old + 1 */
   {
      unsigned next = agx_prim(c, REF_P_IADD, old, ref_imm_reg(c, 1), 0);
      unsigned wraps = agx_prim(c, REF_P_UGE, old, v, 0);
      return agx_prim(c, REF_P_SEL, ref_imm_reg(c, 0), wraps, next);
   }
   default: /* DEC_WRAP: old == 0 || old > v ? v : old - 1 */
   {
      unsigned prev = agx_prim(c, REF_P_ISUB, old, ref_imm_reg(c, 1), 0);
      unsigned above = agx_prim(c, REF_P_ULT, v, old, 0);
      unsigned is_zero = agx_prim(c, REF_P_IEQ, old, ref_imm_reg(c, 0), 0);
      unsigned wraps = agx_prim(c, REF_P_OR, is_zero, above, 0);
      return agx_prim(c, REF_P_SEL, v, wraps, prev);
   }
   }
}

/* An atomic agx has no op for, as compilers emit it: a compare-and-swap
 * loop. Each pass, the lanes still in it load the word, compute the new
 * one and cmpxchg it; a lane whose cmpxchg found the word it loaded is
 * done. The loop is a construct of its own on the execution-mask stack
 * (ref_cf_exec.c's BGNLOOP/ENDLOOP with the test in the while): lanes
 * inactive on entry sit at 2 or more and never wake inside it. Returns
 * the word the successful cmpxchg read. */
static unsigned
atomic_cas_loop(struct ref_ctx *c, const struct tgsi_insn *in, bool shared, unsigned addr,
                unsigned data)
{
   unsigned old = ref_tmp(c), got = ref_tmp(c), pair = ref_tmp(c); /* (new, compare) */
   ref_tmp(c);
   struct isa_insn *e = ref_emit(c, "if_icmp");
   e->src[0] = ref_imm(0);
   e->src[1] = ref_imm(0);
   e->src[2] = ref_imm(2);
   ref_set_mod(c, e, "iccn", "eq");
   ref_set_mod(c, e, "isign", "u");
   int top = ref_label(c);
   ref_place(c, top);
   agx_load_word(c, shared, old, addr, 0);
   agx_copy(c, pair, atomic_new_value(c, in->op, old, data));
   agx_copy(c, pair + 1, old);
   struct isa_insn *a = mem(c, shared, shared ? "threadgroup_atomic" : "atomic", addr, 0);
   ref_set_mod(c, a, "atomop", "cmpxchg");
   a->dst[0] = R(got);
   a->src[2] = R(pair);
   e = ref_emit(c, "while_icmp"); /* lanes whose cmpxchg failed go round again */
   e->src[0] = R(got);
   e->src[1] = R(old);
   e->src[2] = ref_imm(2);
   ref_set_mod(c, e, "iccn", "ne");
   ref_set_mod(c, e, "isign", "u");
   ref_emit(c, "jmp_exec_any");
   ref_branch_to(c, top, 0);
   e = ref_emit(c, "pop_exec");
   e->src[0] = ref_imm(2);
   return got;
}

/* ATOM*: atomic (device, a scoreboard slot) or threadgroup_atomic at the
 * resource's address, the old word to every written channel. Compare and
 * swap takes (new, compare) in a register pair. Float add and the
 * wrapping increment/decrement have no agx atomic: a compare-and-swap
 * loop. */
static void
agx_atomic(struct ref_ctx *c, const struct tgsi_insn *in)
{
   static const struct {
      enum tgsi_opcode op;
      const char *name;
   } ops[] = {
       {TGSI_OP_ATOMUADD, "add"},  {TGSI_OP_ATOMXCHG, "xchg"}, {TGSI_OP_ATOMCAS, "cmpxchg"},
       {TGSI_OP_ATOMAND, "and"},   {TGSI_OP_ATOMOR, "or"},     {TGSI_OP_ATOMXOR, "xor"},
       {TGSI_OP_ATOMUMIN, "umin"}, {TGSI_OP_ATOMUMAX, "umax"}, {TGSI_OP_ATOMIMIN, "smin"},
       {TGSI_OP_ATOMIMAX, "smax"},
   };
   unsigned k = 0;
   while (k < ARRAY_SIZE(ops) && ops[k].op != in->op)
      k++;
   unsigned addr, data;
   bool shared;
   if (!ref_atomic_operands(c, in, false, &addr, &shared, &data))
      return;
   if (k == ARRAY_SIZE(ops)) {
      ref_atomic_result(c, in, atomic_cas_loop(c, in, shared, addr, data));
      return;
   }
   unsigned d = ref_tmp(c);
   struct isa_insn *a = mem(c, shared, shared ? "threadgroup_atomic" : "atomic", addr, 0);
   ref_set_mod(c, a, "atomop", ops[k].name);
   a->dst[0] = R(d);
   a->src[2] = R(data);
   ref_atomic_result(c, in, d);
}

/* ------------------------------------------------------------------ */
/* Textures                                                             */

static const char *
tex_dim(enum tgsi_texture t)
{
   switch (t) {
   case TGSI_TEX_T_1D:
   case TGSI_TEX_T_SHADOW1D:
      return "1d";
   case TGSI_TEX_T_1D_ARRAY:
   case TGSI_TEX_T_SHADOW1D_ARRAY:
      return "1d_array";
   case TGSI_TEX_T_2D:
   case TGSI_TEX_T_RECT:
   case TGSI_TEX_T_SHADOW2D:
   case TGSI_TEX_T_SHADOWRECT:
      return "2d";
   case TGSI_TEX_T_2D_ARRAY:
   case TGSI_TEX_T_SHADOW2D_ARRAY:
      return "2d_array";
   case TGSI_TEX_T_2D_MSAA:
      return "2d_ms";
   case TGSI_TEX_T_3D:
      return "3d";
   case TGSI_TEX_T_CUBE:
   case TGSI_TEX_T_SHADOWCUBE:
      return "cube";
   case TGSI_TEX_T_CUBE_ARRAY:
   case TGSI_TEX_T_SHADOWCUBE_ARRAY:
      return "cube_array";
   default:
      return NULL;
   }
}

/* The level or bias as the sampler uses it, floor(v + 0.5) (exact in
 * 16 bits up to 2048, and any larger value selects the last level as
 * v does), converted to f16 in a half register: the hardware's operand. */
static struct isa_opnd
lod16(struct ref_ctx *c, unsigned v)
{
   unsigned l = agx_prim(c, REF_P_FFLOOR, agx_prim(c, REF_P_FADD, v, fconst(c, 0.5f), 0), 0, 0);
   unsigned h = ref_tmp(c);
   struct isa_insn *in = ref_emit(c, "fadd");
   in->dst[0] = half(c, h);
   in->src[0] = R(l);
   in->src[1] = ref_neg(ref_imm(0)); /* -0.0: x + -0.0 = x */
   return half(c, h);
}

/* An array layer as the hardware takes it: an integer (the sampler's
 * floor(v + 0.5), NaN and negatives 0) below 65536. */
static unsigned
layer16(struct ref_ctx *c, unsigned v)
{
   unsigned l = agx_prim(c, REF_P_FFLOOR, agx_prim(c, REF_P_FADD, v, fconst(c, 0.5f), 0), 0, 0);
   l = agx_prim(c, REF_P_FMAX, l, fconst(c, 0.0f), 0);
   l = agx_prim(c, REF_P_FMIN, l, fconst(c, 65535.0f), 0);
   return agx_prim(c, REF_P_F2U, l, 0, 0);
}

/* TXQ: the level-0 size and level count (resource-size constants; agx
 * reads them from the texture descriptor), each dimension shifted down
 * by the level, at least 1; all but the count 0 for a level out of
 * range. */
static bool
tex_query(struct ref_ctx *c, const struct ref_texargs *a, unsigned res[4])
{
   enum tgsi_texture t = a->target;
   unsigned dims = tgsi_texture_spatial_coords(t);
   bool cube = t == TGSI_TEX_T_CUBE || t == TGSI_TEX_T_SHADOWCUBE || t == TGSI_TEX_T_CUBE_ARRAY ||
               t == TGSI_TEX_T_SHADOWCUBE_ARRAY;
   if (cube)
      dims = 2;
   unsigned lod = (unsigned)a->lod, zero = ref_imm_reg(c, 0), one = ref_imm_reg(c, 1);
   unsigned levels = ref_size(c, TGSI_FILE_SVIEW, a->unit, 3);
   unsigned in = agx_prim(c, REF_P_ULT, lod, levels, 0);
   for (unsigned k = 0; k < 3; k++) {
      bool layers = k == dims && tgsi_texture_is_array(t);
      if (k >= dims && !layers) {
         agx_copy(c, res[k], zero);
         continue;
      }
      unsigned v = ref_size(c, TGSI_FILE_SVIEW, a->unit, layers && dims == 1 ? 2 : k);
      if (!layers)
         v = agx_prim(c, REF_P_UMAX, agx_prim(c, REF_P_SHR, v, lod, 0), one, 0);
      agx_copy(c, res[k], agx_prim(c, REF_P_SEL, v, in, zero));
   }
   agx_copy(c, res[3], levels);
   return c->status == COMPILE_OK;
}

static bool
agx_tex(struct ref_ctx *c, const struct ref_texargs *a, unsigned res[4])
{
   const char *dim = tex_dim(a->target);
   if (!dim)
      return ref_unsupported(c, "buffer and multisample textures: not in the agx model"), false;
   if (a->samples) { /* TXQS: the env's multisample textures hold one sample */
      res[0] = ref_imm_reg(c, 1);
      res[1] = res[2] = res[3] = ref_imm_reg(c, 0);
      return c->status == COMPILE_OK;
   }
   if (a->gather && strcmp(dim, "2d") && strcmp(dim, "2d_array") && strcmp(dim, "cube") &&
       strcmp(dim, "cube_array"))
      return ref_unsupported(c, "a gather on a 1D or 3D texture"), false;
   if (a->query)
      return tex_query(c, a, res);
   struct ref_texargs pa;
   if (a->proj >= 0) { /* TXP: the coordinates and the reference divided exactly */
      pa = *a;
      for (unsigned k = 0; k < pa.nsp; k++)
         pa.coord[k] = ref_fdiv(c, a->coord[k], (unsigned)a->proj);
      if (pa.ref >= 0)
         pa.ref = (int)ref_fdiv(c, (unsigned)a->ref, (unsigned)a->proj);
      pa.proj = -1;
      a = &pa;
   }
   unsigned v[4], n = 0, o[2], no = 0;
   for (unsigned k = 0; k < a->nsp; k++)
      v[n++] = a->coord[k];
   if (a->layer >= 0)
      v[n++] = a->fetch ? agx_prim(c, REF_P_UMIN, (unsigned)a->layer, ref_imm_reg(c, 0xffff), 0)
                        : layer16(c, (unsigned)a->layer);
   if (a->sample >= 0) /* 2d_ms: the sample index where the layer goes */
      v[n++] = agx_prim(c, REF_P_UMIN, (unsigned)a->sample, ref_imm_reg(c, 0xffff), 0);
   if (a->ref >= 0 && !a->lodq)
      o[no++] = (unsigned)a->ref;
   if (a->noff && !a->lodq)
      o[no++] = ref_tex_offsets(c, a, 4, 4, "agx"); /* 4 bits each, x at bit 0 */
   struct isa_opnd d = {0};
   const char *op = a->fetch ? "texture_load" : "texture_sample";
   char name[32];
   if (a->lodq) { /* x the level used, y the computed one; z, w 0 */
      snprintf(name, sizeof(name), "texture_sample_query_lod");
      res[2] = res[3] = ref_imm_reg(c, 0);
   } else if (a->gather) { /* level 0; the depth form gathers the compared red */
      snprintf(name, sizeof(name), "texture_sample_gather%s", a->ref >= 0 ? "_depth" : "");
   } else if (a->deriv) {
      unsigned g[6], ng = 0;
      for (unsigned k = 0; k < a->nsp; k++)
         g[ng++] = a->ddx[k];
      for (unsigned k = 0; k < a->nsp; k++)
         g[ng++] = a->ddy[k];
      d = R(ref_group(c, g, ng));
      snprintf(name, sizeof(name), "%s_grad", op);
   } else if (a->lod_mode == REF_LOD_LOD || a->lod_mode == REF_LOD_BIAS) {
      if (a->fetch) {
         unsigned h = ref_tmp(c),
                  l = agx_prim(c, REF_P_UMIN, (unsigned)a->lod, ref_imm_reg(c, 0xffff), 0);
         struct isa_insn *m = ref_emit(c, "mov");
         m->dst[0] = half(c, h);
         m->src[0] = R(l);
         d = half(c, h);
      } else {
         d = lod16(c, (unsigned)a->lod);
      }
      snprintf(name, sizeof(name), "%s_%s", op, a->lod_mode == REF_LOD_LOD ? "lod" : "bias");
   } else {
      snprintf(name, sizeof(name), "%s", op);
   }
   if (c->status != COMPILE_OK)
      return false;
   unsigned cs = ref_group(c, v, n), os = no ? ref_group(c, o, no) : 0;
   struct isa_insn *t = ref_emit(c, name);
   ref_set_mod(c, t, "dim", dim);
   ref_set_mod(c, t, "texmask", a->lodq ? "xy" : "xyzw");
   if (no && a->ref >= 0)
      ref_set_mod_int(c, t, "shadow", 1);
   if (no && a->noff)
      ref_set_mod_int(c, t, "toff", 1);
   if (a->gather && a->ref < 0) {
      static const char *const comps[] = {"r", "g", "b", "a"};
      ref_set_mod(c, t, "gcomp", comps[a->comp & 3]);
   }
   ref_set_mod_int(c, t, "slot", 1);
   t->dst[0] = R(res[0]);
   unsigned k = 0;
   t->src[k++] = R(cs);
   if (d.kind != ISA_OPND_NONE)
      t->src[k++] = d;
   t->src[k++] = R(os);
   t->src[k++] = ref_imm(a->unit);
   t->src[k++] = ref_imm(a->unit);
   return c->status == COMPILE_OK;
}

/* ------------------------------------------------------------------ */
/* Discard, flow                                                        */

/* sample_mask t, 0: the lanes with bit 0 of t set end, discarded (one
 * sample per pixel, agx.yaml). */
static void
agx_discard(struct ref_ctx *c, struct isa_opnd t)
{
   struct isa_insn *in = ref_emit(c, "sample_mask");
   in->src[0] = t;
   in->src[1] = ref_imm(0);
}

/* The lanes whose flag is nonzero (1 or ~0: bit 0 is set) are discarded. */
static void
agx_kill_flag(struct ref_ctx *c, unsigned flag)
{
   agx_discard(c, half(c, flag));
}

/* ------------------------------------------------------------------ */
/* SIMD-group operations (32 lanes, the env's subgroup)                 */

static struct isa_insn *
ballot(struct ref_ctx *c, unsigned d, const char *cc, struct isa_opnd a, struct isa_opnd b)
{
   struct isa_insn *in = emit(c, "icmp_ballot", d, a, b, ref_imm(0));
   ref_set_mod(c, in, "iccn", cc);
   ref_set_mod(c, in, "isign", "u");
   return in;
}

/* d = src of lane k of the SIMD group, k an immediate (the same in every
 * lane, inactive ones too: simd_shuffle ORs B's low bits over the quad). */
static unsigned
shuffle(struct ref_ctx *c, const char *op, unsigned v, uint32_t k)
{
   unsigned d = ref_tmp(c);
   emit(c, op, d, R(v), ref_imm(k), ref_imm(0));
   return d;
}

/* v of lane idx (a register): a broadcast of each of the 32 lanes,
 * selected where idx names it; any other idx gives 0 (the interpreter:
 * undefined). Only immediate lane numbers reach simd_shuffle, as its
 * quad rule requires. */
static unsigned
read_lane(struct ref_ctx *c, unsigned v, unsigned idx)
{
   unsigned r = ref_tmp(c);
   agx_mov_imm(c, r, 0);
   for (uint32_t j = 0; j < 32 && c->status == COMPILE_OK; j++) {
      unsigned t = shuffle(c, "simd_shuffle", v, j), n = ref_tmp(c);
      cmpsel(c, false, "eq", "u", n, R(idx), ref_imm(j), R(t), R(r));
      r = n;
   }
   return r;
}

/* The first active lane's number: popcount((m & -m) - 1) of the active
 * mask m. */
static unsigned
first_lane(struct ref_ctx *c)
{
   unsigned m = ref_tmp(c), neg = ref_tmp(c), low = ref_tmp(c), below = ref_tmp(c), d = ref_tmp(c);
   ballot(c, m, "eq", ref_imm(0), ref_imm(0));
   emit(c, "isub", neg, ref_imm(0), R(m), ref_imm(0));
   emit(c, "and", low, R(m), R(neg), ref_imm(0));
   emit(c, "isub", below, R(low), ref_imm(1), ref_imm(0));
   emit(c, "popcount", d, R(below), ref_imm(0), ref_imm(0));
   return d;
}

/* BALLOT (x and z the mask of src.x != 0, y and w 0: 32 lanes), VOTE_ANY
 * (that mask is not 0), VOTE_ALL and VOTE_EQ (the mask of lanes where v
 * != 0, or v equals the first active lane's, is the active mask),
 * READ_FIRST, READ_INVOC, as the interpreter reads them. */
static void
agx_subgroup(struct ref_ctx *c, const struct tgsi_insn *in)
{
   unsigned res[4] = {0, 0, 0, 0}, first = 0, lane = 0, ones = ref_imm_reg(c, ~0u);
   if (in->op == TGSI_OP_READ_FIRST || in->op == TGSI_OP_VOTE_EQ)
      first = first_lane(c);
   if (in->op == TGSI_OP_READ_INVOC)
      lane = ref_fetch(c, in, 1, 0);
   if (in->op == TGSI_OP_BALLOT) {
      unsigned b = ref_tmp(c);
      ballot(c, b, "ne", R(ref_fetch(c, in, 0, 0)), ref_imm(0));
      res[0] = res[2] = b;
      res[1] = res[3] = ref_imm_reg(c, 0);
      ref_store(c, in, res);
      return;
   }
   for (unsigned ch = 0; ch < 4 && c->status == COMPILE_OK; ch++) {
      if (!(in->dst[0].mask & (1u << ch)))
         continue;
      unsigned v = ref_fetch(c, in, 0, ch), b = ref_tmp(c), all = ref_tmp(c);
      res[ch] = ref_tmp(c);
      switch (in->op) {
      case TGSI_OP_READ_FIRST:
         res[ch] = read_lane(c, v, first);
         break;
      case TGSI_OP_READ_INVOC:
         res[ch] = read_lane(c, v, lane);
         break;
      case TGSI_OP_VOTE_ANY:
         ballot(c, b, "ne", R(v), ref_imm(0));
         cmpsel(c, false, "eq", "u", res[ch], R(b), ref_imm(0), ref_imm(0), R(ones));
         break;
      default: /* VOTE_ALL, VOTE_EQ */
         if (in->op == TGSI_OP_VOTE_EQ)
            ballot(c, b, "eq", R(v), R(read_lane(c, v, first)));
         else
            ballot(c, b, "ne", R(v), ref_imm(0));
         ballot(c, all, "eq", ref_imm(0), ref_imm(0));
         cmpsel(c, false, "eq", "u", res[ch], R(b), R(all), R(ones), ref_imm(0));
         break;
      }
   }
   ref_store(c, in, res);
}

/* DDX_FINE/DDY_FINE: lane 4q + j's derivative is lane (j | k) less lane
 * (j & ~k) of its quad (k = 1 across, 2 down), as the interpreter defines
 * it: where j & k is 0, the lane k on (simd_shuffle_down) less this one,
 * else this one less the lane k back (simd_shuffle_up). */
static void
agx_deriv_fine(struct ref_ctx *c, const struct tgsi_insn *in)
{
   uint32_t k = in->op == TGSI_OP_DDX_FINE ? 1 : 2;
   unsigned res[4] = {0, 0, 0, 0}, lane = ref_tmp(c), p = ref_tmp(c);
   struct isa_insn *sr = ref_emit(c, "get_sr");
   sr->dst[0] = R(lane);
   emit(c, "and", p, R(lane), ref_imm(k), ref_imm(0));
   for (unsigned ch = 0; ch < 4 && c->status == COMPILE_OK; ch++) {
      if (!(in->dst[0].mask & (1u << ch)))
         continue;
      unsigned v = ref_fetch(c, in, 0, ch);
      unsigned dn = shuffle(c, "simd_shuffle_down", v, k);
      unsigned up = shuffle(c, "simd_shuffle_up", v, k);
      unsigned d0 = ref_tmp(c), d1 = ref_tmp(c);
      emit(c, "fadd", d0, R(dn), ref_neg(R(v)), ref_imm(0));
      emit(c, "fadd", d1, R(v), ref_neg(R(up)), ref_imm(0));
      res[ch] = ref_tmp(c);
      cmpsel(c, false, "eq", "u", res[ch], R(p), ref_imm(0), R(d0), R(d1));
   }
   ref_store(c, in, res);
}

static bool
agx_special(struct ref_ctx *c, const struct tgsi_insn *in)
{
   switch (in->op) {
   case TGSI_OP_KILL:
      agx_discard(c, ref_imm(0xff));
      return true;
   case TGSI_OP_KIL:       /* the legacy name of KILL_IF */
   case TGSI_OP_KILL_IF: { /* any of the four components < 0 (NaN, -0: no) */
      unsigned any = ref_imm_reg(c, 0), zero = ref_imm_reg(c, 0);
      for (unsigned ch = 0; ch < 4 && c->status == COMPILE_OK; ch++)
         any = agx_prim(c, REF_P_OR, any, agx_prim(c, REF_P_FLT, ref_fetch(c, in, 0, ch), zero, 0),
                        0);
      agx_kill_flag(c, any);
      return true;
   }
   case TGSI_OP_MEMBAR: /* every memory access is waited for in full already */
      return true;
   case TGSI_OP_BARRIER:
      ref_emit(c, "threadgroup_barrier");
      return true;
   case TGSI_OP_DDX:
   case TGSI_OP_DDY: { /* dfdx/dfdy: the quad's coarse derivatives */
      unsigned res[4] = {0, 0, 0, 0};
      for (unsigned ch = 0; ch < 4 && c->status == COMPILE_OK; ch++)
         if (in->dst[0].mask & (1u << ch)) {
            unsigned v = ref_fetch(c, in, 0, ch);
            res[ch] = ref_tmp(c);
            emit(c, in->op == TGSI_OP_DDX ? "dfdx" : "dfdy", res[ch], R(v), ref_imm(0), ref_imm(0));
         }
      ref_store(c, in, res);
      return true;
   }
   case TGSI_OP_DDX_FINE:
   case TGSI_OP_DDY_FINE:
      agx_deriv_fine(c, in);
      return true;
   case TGSI_OP_VOTE_ANY:
   case TGSI_OP_VOTE_ALL:
   case TGSI_OP_VOTE_EQ:
   case TGSI_OP_BALLOT:
   case TGSI_OP_READ_FIRST:
   case TGSI_OP_READ_INVOC:
      agx_subgroup(c, in);
      return true;
   default:
      return false;
   }
}

/* A loop whose every active lane agrees on the test (ref_ops.c's division
 * loops): lanes whose test fails are pushed one level; if none is left
 * the loop ends, else the push is undone and the wave jumps back. */
static void
agx_branch(struct ref_ctx *c, enum ref_test test, unsigned a, unsigned b, bool when, int label)
{
   if (test != REF_TEST_INT_NZ || !when) {
      ref_unsupported(c, "a per-lane branch (agx moves the whole wave)");
      return;
   }
   (void)b;
   int done = ref_label(c);
   struct isa_insn *in = ref_emit(c, "if_icmp");
   in->src[0] = R(a);
   in->src[1] = ref_imm(0);
   in->src[2] = ref_imm(1);
   ref_set_mod(c, in, "iccn", "ne");
   ref_set_mod(c, in, "isign", "u");
   ref_emit(c, "jmp_exec_none");
   ref_branch_to(c, done, 0);
   in = ref_emit(c, "pop_exec");
   in->src[0] = ref_imm(1);
   ref_emit(c, "jmp_exec_any");
   ref_branch_to(c, label, 0);
   ref_place(c, done);
   in = ref_emit(c, "pop_exec");
   in->src[0] = ref_imm(1);
}

static void
agx_jump(struct ref_ctx *c, int label)
{
   (void)label;
   ref_unsupported(c, "an unconditional per-lane jump (agx moves the whole wave)");
}

static void
agx_end(struct ref_ctx *c)
{
   ref_emit(c, "stop");
}

static bool
agx_init(struct ref_ctx *c)
{
   c->reserved = 1; /* r0..r3 */
   return true;
}

const struct ref_target ref_target_agx = {
    .model = "agx",
    .init = agx_init,
    .prim = agx_prim,
    .mov_imm = agx_mov_imm,
    .copy = agx_copy,
    .load_const = agx_load_const,
    .load_indirect = agx_load_indirect,
    .special = agx_special,
    .load_word = agx_load_word,
    .store_word = agx_store_word,
    .atomic = agx_atomic,
    .tex = agx_tex,
    .kill_flag = agx_kill_flag,
    .branch = agx_branch,
    .jump = agx_jump,
    .end = agx_end,
    .place_scratch = true,
    .consts_in_mem = true,
};
