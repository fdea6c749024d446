/*
 * The reference compiler's Apple G13 target (isa/models/agx.yaml): the
 * scalar primitives of ref.h as agx instructions, constant loads from the
 * uniform registers, device memory and the prologue/epilogue. Control
 * flow is ref_cf_exec.c's (the execution-mask stack); the `wait` after
 * every device load and store is ref_hazard.c's (interlocked models).
 *
 * Everything is 32-bit and long-form; r0..r3 are kept (r0l is the
 * execution-mask stack's count, r1 the link register). Constants and
 * immediates live in u0..u255 (bound by ref.c), read with a mov.
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
 * Refused (the model has no instruction for them): sin/cos, f16
 * conversions, textures, derivatives, kill,
 * threadgroup memory, atomics and doubles.
 */
#include "compiler/ref/ref.h"
#include "emu/emu.h"

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

static unsigned
agx_load_const(struct ref_ctx *c, unsigned slot)
{
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
static const struct {
   enum ref_prim prim;
   const char *op;
} ops[] = {
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
agx_prim(struct ref_ctx *c, enum ref_prim op, unsigned a, unsigned b, unsigned e)
{
   for (unsigned k = 0; k < ARRAY_SIZE(ops); k++)
      if (ops[k].prim == op) {
         unsigned d = ref_tmp(c);
         emit(c, ops[k].op, d, R(a), R(b), R(e));
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
   case REF_P_SEL: /* b != 0 ? a : e */
      cmpsel(c, false, "eq", "u", d, R(b), ref_imm(0), R(e), R(a));
      return d;
   default:
      ref_unsupported(c, "no agx instruction for this operation (%s)",
                      op == REF_P_FSIN || op == REF_P_FCOS ? "sin/cos" : "an f16 conversion");
      return d;
   }
}

/* ------------------------------------------------------------------ */
/* Indirect constants                                                   */

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
      ref_unsupported(c, "indirect addressing through %s", a < 0 ? "this register" : "a dimension");
      return true;
   }
   bool imm = r->file == TGSI_FILE_IMM;
   unsigned base = imm ? c->imm_base : c->cbase[b], n = imm ? c->s->nimms : c->ccount[b];
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

static struct isa_insn *
mem(struct ref_ctx *c, bool shared, const char *op, unsigned data, unsigned addr, uint32_t off)
{
   if (shared) {
      ref_unsupported(c, "the agx model has no threadgroup (local) memory");
      return ref_emit(c, op);
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
   (void)data;
   return in;
}

static void
agx_load_word(struct ref_ctx *c, bool shared, unsigned d, unsigned addr, uint32_t off)
{
   struct isa_insn *in = mem(c, shared, "device_load", d, addr, off);
   in->dst[0] = R(d);
}

static void
agx_store_word(struct ref_ctx *c, bool shared, unsigned addr, uint32_t off, unsigned v)
{
   struct isa_insn *in = mem(c, shared, "device_store", v, addr, off);
   in->src[2] = R(v);
}

/* ------------------------------------------------------------------ */
/* Flow                                                                 */

static bool
agx_special(struct ref_ctx *c, const struct tgsi_insn *in)
{
   (void)c;
   switch (in->op) {
   case TGSI_OP_MEMBAR: /* every memory access is waited for in full already */
      return true;
   default:
      return false;
   }
}

static const char *
agx_why(enum tgsi_opcode op)
{
   switch (op) {
   case TGSI_OP_KILL:
   case TGSI_OP_KILL_IF:
   case TGSI_OP_KIL:
   case TGSI_OP_DEMOTE:
      return "the agx model has no discard";
   case TGSI_OP_DDX:
   case TGSI_OP_DDY:
   case TGSI_OP_DDX_FINE:
   case TGSI_OP_DDY_FINE:
      return "the agx model has no derivatives";
   case TGSI_OP_BARRIER:
      return "the agx model has no threadgroup memory";
   default:
      return NULL;
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
    .why = agx_why,
    .branch = agx_branch,
    .jump = agx_jump,
    .end = agx_end,
};
