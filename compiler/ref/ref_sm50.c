/*
 * The reference compiler's NVIDIA Maxwell target (isa/models/sm50.yaml):
 * the scalar primitives of ref.h as sm50 instructions, constant loads,
 * indirect constants through LDC, memory, kill and the SSY/SYNC branch
 * primitives that ref_cf_stack.c builds its regions from. The TGSI
 * expansions are in ref_ops.c.
 *
 * Register forms only (every operand is a register after ref_fetch), with
 * immediates where a form takes them directly: MOV32I for constants,
 * LOP32I for the float sign-bit operations, the i20 forms of SEL and BFE.
 * RZ reads 0 and is never allocated; PT is the always-true predicate (both
 * found by name in the model); P0 is the one scratch predicate.
 *
 * Primitives that take more than one instruction: FMAD (FMUL then FADD,
 * two roundings; FFMA is the fused one), FSQRT (correctly rounded: a
 * Newton step on MUFU.RSQ; sm50 has no MUFU.SQRT), FEXP2/FSIN/FCOS (RRO
 * then MUFU), compares (FSETP/ISETP into P0, then SEL of 1 and RZ), IMUL
 * (three XMADs: the 16-bit partial products), SEL (ISETP b != 0, then
 * SEL).
 *
 * Textures (sm_tex, operands read by ref_tex.c): TEX/TLD/TLD4/TXD/TXQ/TMML
 * with the a and b groups laid out as NAK does (a = integer layer,
 * coordinates; b = level or bias, packed offsets, depth reference), the
 * four results in consecutive registers; TXP divides exactly first
 * (ref_fdiv).
 *
 * Memory: LDG/STG for buffers and images (their texel addresses), LDS/STS
 * for shared memory, one per channel; ATOM/ATOMS (and .CAS); BARRIER is
 * BAR.SYNC 0. Derivatives through SHFL and FSWZADD, subgroup ops through
 * VOTE and SHFL; doubles on the FP64 ops (ref_fp64.c).
 *
 * Stage outputs: a geometry shader keeps its outputs in their homes; EMIT
 * stores every output (AST.128 a[handle][RZ + 16 * i]) and then emits
 * (OUT.EMIT handle, handle, stream), ENDPRIM is OUT.CUT. The handle lives
 * in a persistent register, 0 at the start (sm_begin). A tessellation
 * control shader stores each output channel as it is written (AST a[v]
 * [a + 16 * i + 4 * c]: v the vertex, 0 per patch; a the indirect index
 * times 16, or RZ), the attribute layout of emu.h (EMU_ATTR_OUTPUT).
 *
 * Refused: buffer textures, shared-memory float atomic add. (64-bit
 * integers are 32-bit pairs, ref_int64.c.)
 */
#include "compiler/ref/ref.h"
#include "emu/emu.h"

#define R(x) ref_r(c, (x))

/* RZ and PT, found by name in the model (sm_init). */
enum { SPECIAL_RZ, SPECIAL_PT };

static struct isa_opnd
rz(struct ref_ctx *c)
{
   return (struct isa_opnd){
       .kind = ISA_OPND_REG, .file = (uint8_t)c->gpr, .index = (uint16_t)c->special[SPECIAL_RZ]};
}

static struct isa_opnd
pt(struct ref_ctx *c, bool negate)
{
   struct isa_opnd o = ref_p(c, c->special[SPECIAL_PT]);
   if (negate)
      o.flags |= ISA_OPND_F_NOT;
   return o;
}

/* An instruction with destination d (or none) and up to four sources. */
static struct isa_insn *
emit(struct ref_ctx *c, const char *op, const struct isa_opnd *d, unsigned ns,
     const struct isa_opnd *src)
{
   struct isa_insn *in = ref_emit(c, op);
   if (d)
      in->dst[0] = *d;
   for (unsigned i = 0; i < ns && i < in->nsrc; i++)
      in->src[i] = src[i];
   return in;
}

static struct isa_insn *
alu(struct ref_ctx *c, const char *op, unsigned d, struct isa_opnd a, struct isa_opnd b,
    struct isa_opnd e)
{
   struct isa_opnd dst = R(d), src[3] = {a, b, e};
   return emit(c, op, &dst, 3, src);
}

static void
sm_mov_imm(struct ref_ctx *c, unsigned d, uint32_t v)
{
   alu(c, "mov32i", d, ref_imm(v), rz(c), rz(c));
}

static void
sm_copy(struct ref_ctx *c, unsigned d, unsigned s)
{
   alu(c, "mov_r", d, R(s), rz(c), rz(c));
}

static unsigned
sm_load_const(struct ref_ctx *c, unsigned slot)
{
   unsigned d = ref_tmp(c);
   alu(c, "mov_c", d, ref_c(c, slot), rz(c), rz(c));
   return d;
}

/* P0 = a CMP b (setp with PT as the accumulator, q discarded to PT). */
static void
setp(struct ref_ctx *c, const char *op, const char *modname, const char *cond, const char *sign,
     struct isa_opnd a, struct isa_opnd b)
{
   struct isa_insn *in = ref_emit(c, op);
   in->dst[0] = ref_p(c, 0);
   in->dst[1] = pt(c, false);
   in->src[0] = a;
   in->src[1] = b;
   in->src[2] = pt(c, false);
   ref_set_mod(c, in, modname, cond);
   if (sign)
      ref_set_mod(c, in, "sign", sign);
}

/* d = P0 ? 1 : 0 (SEL d, ONE, RZ, P0). */
static unsigned
p0_to_01(struct ref_ctx *c)
{
   unsigned one = ref_tmp(c), d = ref_tmp(c);
   sm_mov_imm(c, one, 1);
   alu(c, "sel_r", d, R(one), ref_p(c, 0), rz(c));
   return d;
}

/* ------------------------------------------------------------------ */
/* Primitives                                                           */

static const struct ref_prim_op plain[] = {
    {REF_P_FADD, "fadd_r"},        {REF_P_FMUL, "fmul_r"},      {REF_P_FFMA, "ffma_r"},
    {REF_P_FFLOOR, "f2f_floor_r"}, {REF_P_FCEIL, "f2f_ceil_r"}, {REF_P_FTRUNC, "f2f_trunc_r"},
    {REF_P_FRNDNE, "f2f_round_r"}, {REF_P_FRCP, "mufu_rcp"},    {REF_P_FRSQ, "mufu_rsq"},
    {REF_P_FLOG2, "mufu_lg2"},     {REF_P_IADD, "iadd_r"},      {REF_P_AND, "lop_and_r"},
    {REF_P_OR, "lop_or_r"},        {REF_P_XOR, "lop_xor_r"},    {REF_P_POPC, "popc_r"},
    {REF_P_I2F, "i2f_s32_r"},      {REF_P_U2F, "i2f_u32_r"},    {REF_P_F2H, "f2f_f16_r"},
    {REF_P_H2F, "f2f_f32_f16_r"},
};

/* Compares: the setp op, its condition modifier and entry, signedness. */
static const struct {
   enum ref_prim prim;
   const char *op, *mod, *cond, *sign;
} compares[] = {
    {REF_P_FLT, "fsetp_r", "fcmp", "lt", NULL},  {REF_P_FLE, "fsetp_r", "fcmp", "le", NULL},
    {REF_P_FGT, "fsetp_r", "fcmp", "gt", NULL},  {REF_P_FGE, "fsetp_r", "fcmp", "ge", NULL},
    {REF_P_FEQ, "fsetp_r", "fcmp", "eq", NULL},  {REF_P_FNE, "fsetp_r", "fcmp", "ne", NULL},
    {REF_P_ILT, "isetp_r", "icmp", "lt", "s32"}, {REF_P_IGE, "isetp_r", "icmp", "ge", "s32"},
    {REF_P_IGT, "isetp_r", "icmp", "gt", "s32"}, {REF_P_ULT, "isetp_r", "icmp", "lt", "u32"},
    {REF_P_UGE, "isetp_r", "icmp", "ge", "u32"}, {REF_P_IEQ, "isetp_r", "icmp", "eq", "u32"},
    {REF_P_INE, "isetp_r", "icmp", "ne", "u32"},
};

/* IMNMX/FMNMX: p = PT gives the minimum, !PT the maximum. */
static const struct {
   enum ref_prim prim;
   const char *op, *sign;
   bool max;
} minmax[] = {
    {REF_P_FMIN, "fmnmx_r", NULL, false},  {REF_P_FMAX, "fmnmx_r", NULL, true},
    {REF_P_IMIN, "imnmx_r", "s32", false}, {REF_P_IMAX, "imnmx_r", "s32", true},
    {REF_P_UMIN, "imnmx_r", "u32", false}, {REF_P_UMAX, "imnmx_r", "u32", true},
};

/* a * b, low 32 bits: XMAD t0 = a.lo * b.lo; XMAD.MRG t1 = a.lo * b.hi,
 * merged with b.lo in the high half; XMAD.PSL.CBCC d = (a.hi * t1.hi)
 * << 16 + t0 + (t1 << 16). */
static void
imul(struct ref_ctx *c, unsigned d, unsigned a, unsigned b)
{
   unsigned t0 = ref_tmp(c), t1 = ref_tmp(c);
   struct isa_opnd bh = R(b), ah = R(a), t1h = R(t1);
   bh.flags |= ISA_OPND_F_HI;
   ah.flags |= ISA_OPND_F_HI;
   t1h.flags |= ISA_OPND_F_HI;
   alu(c, "xmad_r", t0, R(a), R(b), rz(c));
   ref_set_mod_int(c, alu(c, "xmad_r", t1, R(a), bh, rz(c)), "mrg", 1);
   struct isa_insn *x = alu(c, "xmad_r", d, ah, t1h, R(t0));
   ref_set_mod_int(c, x, "psl", 1);
   ref_set_mod(c, x, "xmode", "cbcc");
}

static unsigned sm_prim(struct ref_ctx *c, enum ref_prim op, unsigned a, unsigned b, unsigned e);

/* sqrt(a) correctly rounded, as sqrtf (sm50 has no MUFU.SQRT; NAK takes
 * rcp(rsq(a)), which can be an ulp off -- enough to change SIN of a
 * large result completely). One Newton step with FFMA on s0 = a * rsq(a):
 * r = a - s0 * s0 exact, s = s0 + r * rsq(a) / 2; a below 2^-102 is
 * scaled by 2^100 (and the root by 2^-50) so the residual cannot
 * underflow. Checked against sqrtf on every positive float, with MUFU.RSQ
 * as the model has it (1 / sqrtf, two roundings). Zero, negative,
 * infinite and NaN inputs take rcp(rsq(a)), which is IEEE for them. */
static void
sqrt_exact(struct ref_ctx *c, unsigned d, unsigned a)
{
#define K(v)        ref_imm_reg(c, (uint32_t)(v))
#define Q(op, x, y) sm_prim(c, REF_P_##op, (x), (y), 0)
   unsigned mark = c->scratch_next; /* the temporaries die here */
   unsigned inf = K(0x7f800000u), zero0 = K(0);
   unsigned big = Q(UGE, a, inf);
   unsigned spec = Q(OR, big, Q(IEQ, a, zero0));
   unsigned small = Q(ULT, a, K(0x0c800000u));
   unsigned xs = sm_prim(c, REF_P_SEL, Q(FMUL, a, K(0x71800000u)), small, a); /* 2^100 */
   unsigned y = Q(FRSQ, xs, 0), s0 = Q(FMUL, xs, y);
   unsigned r = sm_prim(c, REF_P_FFMA, Q(FNEG, s0, 0), s0, xs);
   unsigned s1 = sm_prim(c, REF_P_FFMA, r, Q(FMUL, y, K(0x3f000000u)), s0);
   s1 = sm_prim(c, REF_P_SEL, Q(FMUL, s1, K(0x26800000u)), small, s1); /* 2^-50 */
   unsigned t = ref_tmp(c);
   alu(c, "mufu_rsq", t, R(a), rz(c), rz(c));
   unsigned naive = ref_tmp(c);
   alu(c, "mufu_rcp", naive, R(t), rz(c), rz(c));
   sm_copy(c, d, sm_prim(c, REF_P_SEL, naive, spec, s1));
   c->scratch_next = mark;
#undef Q
#undef K
}

static unsigned
sm_prim_multi(struct ref_ctx *c, enum ref_prim op, unsigned d, unsigned a, unsigned b, unsigned e)
{
   struct isa_insn *in;
   unsigned t;
   switch (op) {
   case REF_P_FMAD: /* two roundings */
      t = ref_tmp(c);
      alu(c, "fmul_r", t, R(a), R(b), rz(c));
      alu(c, "fadd_r", d, R(t), R(e), rz(c));
      return d;
   case REF_P_FNEG:
      alu(c, "lop32i_xor", d, R(a), ref_imm(0x80000000u), rz(c));
      return d;
   case REF_P_FABS:
      alu(c, "lop32i_and", d, R(a), ref_imm(0x7fffffffu), rz(c));
      return d;
   case REF_P_NOT:
      alu(c, "lop32i_xor", d, R(a), ref_imm(0xffffffffu), rz(c));
      return d;
   case REF_P_FSQRT: /* no MUFU.SQRT on sm50 */
      sqrt_exact(c, d, a);
      return d;
   case REF_P_FEXP2:
   case REF_P_FSIN:
   case REF_P_FCOS:
      t = ref_tmp(c);
      alu(c, op == REF_P_FEXP2 ? "rro_ex2_r" : "rro_sincos_r", t, R(a), rz(c), rz(c));
      alu(c,
          op == REF_P_FEXP2  ? "mufu_ex2"
          : op == REF_P_FSIN ? "mufu_sin"
                             : "mufu_cos",
          d, R(t), rz(c), rz(c));
      return d;
   case REF_P_ISUB:
   case REF_P_INEG:
      alu(c, "iadd_r", d, op == REF_P_INEG ? rz(c) : R(a), ref_neg(R(op == REF_P_INEG ? a : b)),
          rz(c));
      return d;
   case REF_P_IMUL:
      imul(c, d, a, b);
      return d;
   case REF_P_SHL:
   case REF_P_SHR:
   case REF_P_ASHR: /* .W: the count modulo 32, as TGSI */
      in = alu(c, op == REF_P_SHL ? "shl_r" : "shr_r", d, R(a), R(b), rz(c));
      ref_set_mod_int(c, in, "w", 1);
      if (op == REF_P_SHR)
         ref_set_mod(c, in, "sign", "u32");
      return d;
   case REF_P_BREV: /* BFE.BREV of the whole word */
      in = alu(c, "bfe_i", d, R(a), ref_imm(0x2000), rz(c));
      ref_set_mod_int(c, in, "brev", 1);
      ref_set_mod(c, in, "sign", "u32");
      return d;
   case REF_P_UMSB:
   case REF_P_IMSB:
      ref_set_mod(c, alu(c, "flo_r", d, R(a), rz(c), rz(c)), "sign",
                  op == REF_P_UMSB ? "u32" : "s32");
      return d;
   case REF_P_F2I:
   case REF_P_F2U:
   case REF_P_F2I_FLOOR:
      in = alu(c, op == REF_P_F2U ? "f2i_u32_r" : "f2i_s32_r", d, R(a), rz(c), rz(c));
      ref_set_mod(c, in, "rnd", op == REF_P_F2I_FLOOR ? "rm" : "rz");
      return d;
   case REF_P_SEL: /* d = b != 0 ? a : e */
      setp(c, "isetp_r", "icmp", "ne", "u32", R(b), rz(c));
      alu(c, "sel_r", d, R(a), ref_p(c, 0), R(e));
      return d;
   default:
      ref_unsupported(c, "no sm50 instruction for this operation");
      return d;
   }
}

static unsigned
sm_prim(struct ref_ctx *c, enum ref_prim op, unsigned a, unsigned b, unsigned e)
{
   const char *name = ref_prim_op_find(plain, ARRAY_SIZE(plain), op);
   if (name) {
      unsigned d = ref_tmp(c);
      alu(c, name, d, R(a), R(b), R(e));
      return d;
   }
   for (unsigned k = 0; k < ARRAY_SIZE(compares); k++)
      if (compares[k].prim == op) {
         setp(c, compares[k].op, compares[k].mod, compares[k].cond, compares[k].sign, R(a), R(b));
         return p0_to_01(c);
      }
   for (unsigned k = 0; k < ARRAY_SIZE(minmax); k++)
      if (minmax[k].prim == op) {
         unsigned d = ref_tmp(c);
         struct isa_insn *in = alu(c, minmax[k].op, d, R(a), R(b), pt(c, minmax[k].max));
         if (minmax[k].sign)
            ref_set_mod(c, in, "sign", minmax[k].sign);
         return d;
      }
   return sm_prim_multi(c, op, ref_tmp(c), a, b, e);
}

/* ------------------------------------------------------------------ */
/* Indirect constants, kill, memory                                     */

#define P2(op, a, b) sm_prim(c, REF_P_##op, (a), (b), 0)

/* IN[ADDR + k][index], a per-vertex input addressed by vertex: the homes
 * of every vertex compared against the vertex number (undefined outside:
 * 0 here, as the generic compare-and-select). */
static void
input_by_vertex(struct ref_ctx *c, const struct tgsi_reg *r, unsigned comp, unsigned *out)
{
   struct tgsi_reg ar = {.file = r->dim_ind.file, .index = (int32_t)r->dim_ind.index};
   int a = ref_home(c, &ar, r->dim_ind.comp);
   *out = 0;
   if (a < 0) {
      ref_unsupported(c, "a vertex index in a register without a home");
      return;
   }
   unsigned res = ref_tmp(c);
   sm_mov_imm(c, res, 0);
   unsigned vi = P2(IADD, (unsigned)a, ref_imm_reg(c, (uint32_t)r->dim)), mark = c->scratch_next;
   for (unsigned j = 0; j < c->vertices[TGSI_FILE_IN] && c->status == COMPILE_OK; j++) {
      struct tgsi_reg t = *r;
      t.dim_indirect = false;
      t.dim = (int32_t)j;
      int h = ref_home(c, &t, comp);
      if (h < 0)
         break;
      unsigned hit = P2(IEQ, vi, ref_imm_reg(c, j));
      sm_copy(c, res, sm_prim(c, REF_P_SEL, (unsigned)h, hit, res));
      c->scratch_next = mark;
   }
   *out = res;
}

/* CONST/IMM[index]: LDC at byte address ((base + clamp(index)) * 4 + comp)
 * * 4 of bank 0, 0 outside the buffer (the interpreter's rule). TEMP and
 * the other files take the generic compare-and-select. */
static bool
sm_load_indirect(struct ref_ctx *c, const struct tgsi_reg *r, unsigned comp, unsigned *out)
{
   struct tgsi_reg ar = {.file = r->ind.file, .index = (int32_t)r->ind.index};
   int a = ref_home(c, &ar, r->ind.comp);
   unsigned base, n;
   if (r->file == TGSI_FILE_IN && r->dim_indirect && !r->indirect) {
      input_by_vertex(c, r, comp, out);
      return true;
   }
   if (r->file == TGSI_FILE_CONST) {
      int64_t b = r->has_dim ? r->dim : 0;
      if (b < 0 || b >= 16 || !c->ccount[b])
         return false;
      base = c->cbase[b];
      n = c->ccount[b];
   } else if (r->file == TGSI_FILE_IMM) {
      base = c->imm_base;
      n = c->s->nimms;
   } else {
      return false;
   }
   *out = 0;
   if (a < 0 || r->dim_indirect) {
      ref_unsupported(c, "indirect addressing through %s",
                      r->dim_indirect ? "a dimension (the buffer or vertex chosen per lane)"
                                      : "this register");
      return true;
   }
   /* The result gets its register first; the steps' temporaries die here
    * (an instruction may read several indirect operands). */
   unsigned res = ref_tmp(c), mark = c->scratch_next;
   unsigned i0 = P2(IADD, (unsigned)a, ref_imm_reg(c, (uint32_t)r->index));
   unsigned i1 = P2(IMAX, i0, ref_imm_reg(c, 0));
   unsigned i2 = P2(IMIN, i1, ref_imm_reg(c, n - 1));
   unsigned byte = P2(SHL, i2, ref_imm_reg(c, 4));
   byte = P2(IADD, byte, ref_imm_reg(c, (base * 4 + comp) * 4));
   unsigned v = ref_tmp(c);
   struct isa_opnd dst = R(v), src[3] = {R(byte), ref_imm(0), ref_imm(0)};
   emit(c, "ldc", &dst, 3, src);
   unsigned ok = P2(IEQ, i0, i2);
   sm_copy(c, res, sm_prim(c, REF_P_SEL, v, ok, ref_imm_reg(c, 0)));
   c->scratch_next = mark;
   *out = res;
   return true;
}

static void
kil(struct ref_ctx *c, const char *guard)
{
   struct isa_insn *k = ref_emit(c, "kil");
   if (guard)
      ref_set_mod(c, k, "pg", guard);
}

/* KILL_IF/KIL: any of the four swizzled components < 0. */
static void
kill_if(struct ref_ctx *c, const struct tgsi_insn *in)
{
   unsigned any = ref_imm_reg(c, 0), zero = ref_imm_reg(c, 0);
   for (unsigned ch = 0; ch < 4; ch++) {
      unsigned t = P2(FLT, ref_fetch(c, in, 0, ch), zero);
      any = P2(OR, any, t);
   }
   setp(c, "isetp_r", "icmp", "ne", "u32", R(any), rz(c));
   kil(c, "p0");
}

/* Memory words (LOAD/STORE, ref_ops.c): LDS/STS for shared memory,
 * LDG/STG for the global space. */
static void
sm_load_word(struct ref_ctx *c, bool shared, unsigned d, unsigned addr, uint32_t off)
{
   struct isa_opnd dst = R(d), src[2] = {R(addr), ref_imm(off)};
   emit(c, shared ? "lds" : "ldg", &dst, 2, src);
}

static void
sm_store_word(struct ref_ctx *c, bool shared, unsigned addr, uint32_t off, unsigned v)
{
   struct isa_opnd src[3] = {R(addr), ref_imm(off), R(v)};
   emit(c, shared ? "sts" : "stg", NULL, 3, src);
}

/* ATOM*: ATOM (buffers, images: the texel's address) or ATOMS (shared
 * memory); compare-and-swap is ATOM.CAS / ATOMS.CAS with (compare, new)
 * in a register pair. ATOMS has no float add. The old word goes to every
 * written channel. */
static void
sm_atomic(struct ref_ctx *c, const struct tgsi_insn *in)
{
   static const struct {
      enum tgsi_opcode op;
      const char *name, *type;
   } ops[] = {
       {TGSI_OP_ATOMUADD, "add", "u32"},     {TGSI_OP_ATOMXCHG, "exch", "u32"},
       {TGSI_OP_ATOMAND, "and", "u32"},      {TGSI_OP_ATOMOR, "or", "u32"},
       {TGSI_OP_ATOMXOR, "xor", "u32"},      {TGSI_OP_ATOMUMIN, "min", "u32"},
       {TGSI_OP_ATOMUMAX, "max", "u32"},     {TGSI_OP_ATOMIMIN, "min", "s32"},
       {TGSI_OP_ATOMIMAX, "max", "s32"},     {TGSI_OP_ATOMFADD, "add", "f32"},
       {TGSI_OP_ATOMINC_WRAP, "inc", "u32"}, {TGSI_OP_ATOMDEC_WRAP, "dec", "u32"},
       {TGSI_OP_ATOMCAS, NULL, NULL},
   };
   unsigned k = 0;
   while (k < ARRAY_SIZE(ops) && ops[k].op != in->op)
      k++;
   unsigned addr, data;
   bool shared;
   if (k == ARRAY_SIZE(ops) || !ref_atomic_operands(c, in, true, &addr, &shared, &data))
      return;
   if (shared && in->op == TGSI_OP_ATOMFADD) {
      ref_unsupported(c, "ATOMS has no float add on sm50");
      return;
   }
   unsigned d = ref_tmp(c);
   struct isa_opnd dst = R(d);
   struct isa_insn *a;
   if (shared) {
      struct isa_opnd src[2] = {R(addr), R(data)};
      a = emit(c, !ops[k].name ? "atoms_cas" : "atoms", &dst, 2, src);
      if (ops[k].name) {
         ref_set_mod(c, a, "atomop", ops[k].name);
         ref_set_mod(c, a, "stype", ops[k].type);
      }
   } else {
      struct isa_opnd src[3] = {R(addr), ref_imm(0), R(data)};
      a = emit(c, !ops[k].name ? "atom_cas" : "atom", &dst, 3, src);
      if (ops[k].name) {
         ref_set_mod(c, a, "atomop", ops[k].name);
         ref_set_mod(c, a, "atype", ops[k].type);
      }
   }
   ref_atomic_result(c, in, d);
}

/* SHFL d, v, lane, c with the in-range predicate discarded. */
static unsigned
shfl(struct ref_ctx *c, const char *mode, unsigned v, uint32_t lane, uint32_t cval)
{
   unsigned d = ref_tmp(c);
   struct isa_insn *s = ref_emit(c, "shfl_i");
   s->dst[0] = R(d);
   s->dst[1] = pt(c, false);
   s->src[0] = R(v);
   s->src[1] = ref_imm(lane);
   s->src[2] = ref_imm(cval);
   ref_set_mod(c, s, "shflmode", mode);
   return d;
}

/* Derivatives over the quad (its lanes 4k..4k+3; c = 0x1c03 keeps a
 * shuffle within it). Coarse: SHFL.IDX of quad lanes 3 and 2 (DDX) or 2
 * and 0 (DDY), then FADD -- the env's coarse rule exactly. Fine, as NAK
 * builds them: SHFL.BFLY 1 (2) fetches the horizontal (vertical)
 * neighbour, FSWZADD subtracts in the right order per lane. */
static void
deriv(struct ref_ctx *c, const struct tgsi_insn *in)
{
   bool dx = in->op == TGSI_OP_DDX || in->op == TGSI_OP_DDX_FINE;
   bool fine = in->op == TGSI_OP_DDX_FINE || in->op == TGSI_OP_DDY_FINE;
   unsigned res[4] = {0, 0, 0, 0};
   for (unsigned ch = 0; ch < 4 && c->status == COMPILE_OK; ch++) {
      if (!(in->dst[0].mask & (1u << ch)))
         continue;
      unsigned v = ref_fetch(c, in, 0, ch);
      if (fine) {
         unsigned s = shfl(c, "bfly", v, dx ? 1 : 2, 0x1c03);
         res[ch] = ref_tmp(c);
         struct isa_insn *f = alu(c, "fswzadd", res[ch], R(s), R(v), rz(c));
         /* per lane k of the quad, 2 bits: 1 = a - b, 2 = b - a */
         ref_set_mod_int(c, f, "swz", dx ? 0x99 : 0xa5);
      } else {
         unsigned hi = shfl(c, "idx", v, dx ? 3 : 2, 0x1c03);
         unsigned lo = shfl(c, "idx", v, dx ? 2 : 0, 0x1c03);
         res[ch] = ref_tmp(c);
         alu(c, "fadd_r", res[ch], R(hi), ref_neg(R(lo)), rz(c));
      }
   }
   ref_store(c, in, res);
}

/* ------------------------------------------------------------------ */
/* Subgroups: the warp (32 lanes, the env's subgroup)                   */

/* VOTE.mode d, P0, a: the ballot in d (RZ: discarded), the vote in P0. */
static void
vote(struct ref_ctx *c, const char *mode, struct isa_opnd d, struct isa_opnd a)
{
   struct isa_insn *v = ref_emit(c, "vote");
   v->dst[0] = d;
   v->dst[1] = ref_p(c, 0);
   v->src[0] = a;
   ref_set_mod(c, v, "votemode", mode);
}

/* SHFL.IDX d, v, lane (a register), full warp; the predicate discarded. */
static unsigned
shfl_lane(struct ref_ctx *c, unsigned v, unsigned lane)
{
   unsigned d = ref_tmp(c);
   struct isa_insn *s = ref_emit(c, "shfl_r");
   s->dst[0] = R(d);
   s->dst[1] = pt(c, false);
   s->src[0] = R(v);
   s->src[1] = R(lane);
   s->src[2] = ref_imm(0x1f);
   ref_set_mod(c, s, "shflmode", "idx");
   return d;
}

/* The first active lane: the lowest bit of VOTE's ballot of PT. */
static unsigned
first_lane(struct ref_ctx *c)
{
   unsigned m = ref_tmp(c);
   vote(c, "any", R(m), pt(c, false));
   unsigned low = P2(AND, m, sm_prim(c, REF_P_INEG, m, 0, 0));
   return sm_prim(c, REF_P_UMSB, low, 0, 0);
}

/* ~0 when P0 holds, else 0. */
static unsigned
p0_to_mask(struct ref_ctx *c)
{
   unsigned ones = ref_imm_reg(c, ~0u), d = ref_tmp(c);
   alu(c, "sel_r", d, R(ones), ref_p(c, 0), rz(c));
   return d;
}

/* VOTE_ANY/ALL (of v != 0), VOTE_EQ (v equal to the first active lane's),
 * BALLOT (x and z the ballot of src.x != 0, y and w 0: a 32-lane warp),
 * READ_FIRST, READ_INVOC (SHFL.IDX from that lane), as the interpreter
 * reads them over its 32-lane subgroups -- the warp. */
static void
subgroup(struct ref_ctx *c, const struct tgsi_insn *in)
{
   unsigned res[4] = {0, 0, 0, 0}, first = 0, lane = 0;
   if (in->op == TGSI_OP_READ_FIRST || in->op == TGSI_OP_VOTE_EQ)
      first = first_lane(c);
   if (in->op == TGSI_OP_READ_INVOC)
      lane = ref_fetch(c, in, 1, 0);
   if (in->op == TGSI_OP_BALLOT) {
      unsigned v = ref_fetch(c, in, 0, 0), b = ref_tmp(c);
      setp(c, "isetp_r", "icmp", "ne", "u32", R(v), rz(c));
      vote(c, "any", R(b), ref_p(c, 0));
      res[0] = res[2] = b;
      res[1] = res[3] = ref_imm_reg(c, 0);
      ref_store(c, in, res);
      return;
   }
   for (unsigned ch = 0; ch < 4 && c->status == COMPILE_OK; ch++) {
      if (!(in->dst[0].mask & (1u << ch)))
         continue;
      unsigned v = ref_fetch(c, in, 0, ch);
      switch (in->op) {
      case TGSI_OP_READ_FIRST:
         res[ch] = shfl_lane(c, v, first);
         break;
      case TGSI_OP_READ_INVOC:
         res[ch] = shfl_lane(c, v, lane);
         break;
      case TGSI_OP_VOTE_EQ:
         setp(c, "isetp_r", "icmp", "eq", "u32", R(v), R(shfl_lane(c, v, first)));
         vote(c, "all", rz(c), ref_p(c, 0));
         res[ch] = p0_to_mask(c);
         break;
      default: /* VOTE_ANY, VOTE_ALL */
         setp(c, "isetp_r", "icmp", "ne", "u32", R(v), rz(c));
         vote(c, in->op == TGSI_OP_VOTE_ANY ? "any" : "all", rz(c), ref_p(c, 0));
         res[ch] = p0_to_mask(c);
         break;
      }
   }
   ref_store(c, in, res);
}

/* ------------------------------------------------------------------ */
/* Doubles (FP64): ref_fp64.c over these instructions                   */

/* P0 = a CMP b (DSETP), as 0/1 or as a mask. */
static unsigned
sm_dcmp(struct ref_ctx *c, const char *cond, unsigned a, unsigned b, bool mask)
{
   setp(c, "dsetp_r", "fcmp", cond, NULL, R(a), R(b));
   return mask ? p0_to_mask(c) : p0_to_01(c);
}

/* DMNMX a, b, PT (minimum) or !PT (maximum), into an aligned pair. */
static unsigned
sm_dminmax(struct ref_ctx *c, unsigned a, unsigned b, bool max)
{
   unsigned d = ref_tmp(c);
   if (d & 1)
      d = ref_tmp(c);
   ref_tmp(c);
   alu(c, "dmnmx_r", d, R(a), R(b), pt(c, max));
   return d;
}

static const struct ref_fp64 sm_fp64 = {
    .add = "dadd_r",
    .mul = "dmul_r",
    .fma = "dfma_r",
    .f2d = "f2f_f64_f32_r",
    .d2f = "f2f_f32_f64_r",
    .i2d = "i2f_f64_s32_r",
    .u2d = "i2f_f64_u32_r",
    .d2i = "f2i_s32_f64_r",
    .d2u = "f2i_u32_f64_r",
    .floor = "f2f_f64_floor_r",
    .ceil = "f2f_f64_ceil_r",
    .trunc = "f2f_f64_trunc_r",
    .rndne = "f2f_f64_round_r",
    .rcp32 = "mufu_rcp",
    .rsq32 = "mufu_rsq",
    .none = rz,
    .cmp = sm_dcmp,
    .minmax = sm_dminmax,
};

/* ------------------------------------------------------------------ */
/* Textures                                                             */

/* n values copied into n consecutive new registers (a TEX operand
 * group); RZ when there are none. */
static struct isa_opnd
group(struct ref_ctx *c, const unsigned *v, unsigned n)
{
   if (!n)
      return rz(c);
   return R(ref_group(c, v, n));
}

/* A float array layer as the hardware takes it, an integer:
 * f2u(max(layer + 0.5, 0)), NaN -> 0 [NAK nak_nir_lower_tex.c]; the same
 * rounding as the sampler's floor(layer + 0.5). */
static unsigned
layer_index(struct ref_ctx *c, unsigned l)
{
   unsigned h = P2(FADD, l, ref_imm_reg(c, 0x3f000000u));
   return sm_prim(c, REF_P_F2U, P2(FMAX, h, ref_imm_reg(c, 0)), 0, 0);
}

static struct isa_insn *
tex_insn(struct ref_ctx *c, const char *op, const struct ref_texargs *a, unsigned d,
         struct isa_opnd ga, struct isa_opnd gb)
{
   struct isa_insn *t = ref_emit(c, op);
   t->dst[0] = R(d);
   t->src[0] = ga;
   t->src[1] = gb;
   t->src[2] = ref_imm(a->unit);
   ref_set_mod(c, t, "texdim", tgsi_texture_dim_name(a->target));
   ref_set_mod_int(c, t, "wrmask", 15);
   return t;
}

static bool
sm_tex(struct ref_ctx *c, const struct ref_texargs *a, unsigned res[4])
{
   unsigned va[4], vb[4], na = 0, nb = 0, d = res[0];
   if (a->query) { /* sizes: the level in a; the sample count is .z of the type query */
      struct isa_opnd lod = a->samples ? rz(c) : group(c, (unsigned[]){(unsigned)a->lod}, 1);
      struct isa_insn *t = ref_emit(c, "txq");
      t->dst[0] = R(d);
      t->src[0] = lod;
      t->src[1] = ref_imm(a->unit);
      ref_set_mod(c, t, "txq", a->samples ? "texture_type" : "dimension");
      ref_set_mod_int(c, t, "wrmask", 15);
      if (a->samples) {
         unsigned zero = ref_imm_reg(c, 0);
         res[0] = d + 2;
         res[1] = res[2] = res[3] = zero;
      }
      return c->status == COMPILE_OK;
   }
   if (a->lodq) { /* TMML: [layer 0], coordinates; .x the computed level (s8.8
                   * in the low half), .y the level used (u8.8) [NAK] */
      if (tgsi_texture_is_array(a->target))
         va[na++] = ref_imm_reg(c, 0);
      for (unsigned k = 0; k < a->nsp; k++)
         va[na++] = a->coord[k];
      struct isa_opnd ga = group(c, va, na);
      struct isa_insn *t = ref_emit(c, "tmml");
      t->dst[0] = R(d);
      t->src[0] = ga;
      t->src[1] = ref_imm(a->unit);
      ref_set_mod(c, t, "texdim", tgsi_texture_dim_name(a->target));
      ref_set_mod_int(c, t, "wrmask", 3);
      unsigned scale = ref_imm_reg(c, 0x3b800000u), sixteen = ref_imm_reg(c, 16); /* 1/256 */
      unsigned used = sm_prim(c, REF_P_U2F, P2(AND, d + 1, ref_imm_reg(c, 0xffffu)), 0, 0);
      unsigned comp = sm_prim(c, REF_P_I2F, P2(ASHR, P2(SHL, d, sixteen), sixteen), 0, 0);
      res[0] = P2(FMUL, used, scale);
      res[1] = P2(FMUL, comp, scale);
      res[2] = res[3] = ref_imm_reg(c, 0);
      return c->status == COMPILE_OK;
   }
   struct ref_texargs pa;
   if (a->proj >= 0) { /* TXP: the spatial coordinates and the reference divided exactly */
      pa = *a;
      for (unsigned k = 0; k < pa.nsp; k++)
         pa.coord[k] = ref_fdiv(c, a->coord[k], (unsigned)a->proj);
      if (pa.ref >= 0)
         pa.ref = (int)ref_fdiv(c, (unsigned)a->ref, (unsigned)a->proj);
      pa.proj = -1;
      a = &pa;
   }
   if (a->target == TGSI_TEX_T_BUFFER)
      return ref_unsupported(c, "buffer textures are not in the sm50 model"), false;
   if (a->deriv && (a->ref >= 0 || a->noff))
      return ref_unsupported(c, "TXD takes no shadow reference or offsets on sm50"), false;
   if (a->deriv) { /* coordinates, layer | ddx0, ddy0, ddx1, ... */
      for (unsigned k = 0; k < a->nsp; k++) {
         va[na++] = a->coord[k];
         vb[nb++] = a->ddx[k];
         vb[nb++] = a->ddy[k];
      }
      if (a->layer >= 0)
         va[na++] = layer_index(c, (unsigned)a->layer);
      struct isa_opnd ga = group(c, va, na);
      tex_insn(c, "txd", a, d, ga, group(c, vb, nb));
      return c->status == COMPILE_OK;
   }
   if (a->layer >= 0)
      va[na++] = a->fetch ? (unsigned)a->layer : layer_index(c, (unsigned)a->layer);
   for (unsigned k = 0; k < a->nsp; k++)
      va[na++] = a->coord[k];
   if (a->sample >= 0)
      vb[nb++] = (unsigned)a->sample;
   if (a->lod_mode == REF_LOD_LOD || a->lod_mode == REF_LOD_BIAS)
      vb[nb++] = (unsigned)a->lod;
   if (a->noff) { /* AOFFI: TLD4's offsets 8 bits each, the others 4, from bit 0 */
      unsigned w = a->gather ? 8 : 4;
      vb[nb++] = ref_tex_offsets(c, a, w, w, "sm50");
   }
   if (a->ref >= 0)
      vb[nb++] = (unsigned)a->ref;
   struct isa_opnd ga = group(c, va, na), gb = group(c, vb, nb);
   struct isa_insn *t = tex_insn(c, a->fetch ? "tld" : a->gather ? "tld4" : "tex", a, d, ga, gb);
   if (a->gather) { /* level 0, no level operand */
      static const char *const comps[] = {"r", "g", "b", "a"};
      ref_set_mod(c, t, "gcomp", comps[a->comp & 3]);
      ref_set_mod_int(c, t, "dc", a->ref >= 0);
   } else if (a->fetch) {
      ref_set_mod(c, t, "tldlod", a->lod_mode == REF_LOD_LOD ? "ll" : "lz");
      ref_set_mod_int(c, t, "ms", a->sample >= 0);
   } else {
      static const char *const lods[] = {"auto", "lz", "ll", "lb"};
      ref_set_mod(c, t, "texlod", lods[a->lod_mode]);
      ref_set_mod_int(c, t, "dc", a->ref >= 0);
   }
   ref_set_mod_int(c, t, "aoffi", a->noff != 0);
   return c->status == COMPILE_OK;
}

/* ------------------------------------------------------------------ */
/* Stage outputs                                                        */

static void
sm_begin(struct ref_ctx *c)
{
   if (c->s->stage != TGSI_STAGE_GEOM)
      return;
   c->gs_handle = (int)ref_tmp_persistent(c);
   sm_mov_imm(c, (unsigned)c->gs_handle, 0);
}

static struct isa_insn *
ast(struct ref_ctx *c, struct isa_opnd vertex, struct isa_opnd addr, uint32_t off,
    struct isa_opnd data)
{
   struct isa_opnd src[4] = {addr, ref_imm(off), vertex, data};
   return emit(c, "ast", NULL, 4, src);
}

/* EMIT: every output to the vertex at the handle, then OUT.EMIT; ENDPRIM:
 * OUT.CUT. Both return the next handle into the handle register. */
static void
gs_emit(struct ref_ctx *c, const struct tgsi_insn *in)
{
   unsigned h = (unsigned)c->gs_handle, stream = ref_fetch(c, in, 0, 0);
   if (in->op == TGSI_OP_EMIT) {
      if (c->count[TGSI_FILE_OUT] > 64) {
         ref_unsupported(c, "more than 64 outputs (10-bit attribute offsets)");
         return;
      }
      for (unsigned i = 0; i < c->count[TGSI_FILE_OUT]; i++) {
         struct tgsi_reg o = {.file = TGSI_FILE_OUT, .index = (int32_t)i};
         struct isa_insn *st =
             ast(c, R(h), rz(c), EMU_ATTR_OUTPUT(i), R((unsigned)ref_home(c, &o, 0)));
         ref_set_mod(c, st, "asize", "b128");
      }
   }
   struct isa_opnd d = R(h), src[2] = {R(h), R(stream)};
   struct isa_insn *o = emit(c, "out_r", &d, 2, src);
   ref_set_mod(c, o, "emitmode", in->op == TGSI_OP_EMIT ? "emit" : "cut");
}

/* A register holding the vertex a tessellation control output names:
 * RZ per patch, else the dimension (an address register plus its offset). */
static struct isa_opnd
out_vertex(struct ref_ctx *c, const struct tgsi_reg *r)
{
   if (!r->has_dim || (!r->dim_indirect && r->dim == 0))
      return rz(c);
   if (!r->dim_indirect)
      return R(ref_imm_reg(c, (uint32_t)r->dim));
   struct tgsi_reg ar = {.file = r->dim_ind.file, .index = (int32_t)r->dim_ind.index};
   int a = ref_home(c, &ar, r->dim_ind.comp);
   if (a < 0) {
      ref_unsupported(c, "a vertex index in a register without a home");
      return rz(c);
   }
   return R(ref_prim(c, REF_P_IADD, (unsigned)a, ref_imm_reg(c, (uint32_t)r->dim), 0));
}

static void
sm_store_output(struct ref_ctx *c, const struct tgsi_dst *dst, const unsigned *res)
{
   const struct tgsi_reg *r = &dst->reg;
   struct isa_opnd v = out_vertex(c, r), a = rz(c);
   uint32_t off = EMU_ATTR_OUTPUT(r->index);
   if (r->indirect) { /* a = (ADDR + index) * 16 */
      struct tgsi_reg ar = {.file = r->ind.file, .index = (int32_t)r->ind.index};
      int h = ref_home(c, &ar, r->ind.comp);
      if (h < 0) {
         ref_unsupported(c, "an output index in a register without a home");
         return;
      }
      unsigned k = ref_prim(c, REF_P_IADD, (unsigned)h, ref_imm_reg(c, (uint32_t)r->index), 0);
      a = R(ref_prim(c, REF_P_SHL, k, ref_imm_reg(c, 4), 0));
      off = 0;
   } else if (r->index < 0 || r->index >= 64) {
      return; /* beyond every output: the write is dropped (interpreter) */
   }
   for (unsigned ch = 0; ch < 4; ch++)
      if (dst->mask & (1u << ch))
         ast(c, v, a, off + 4 * ch, R(res[ch]));
}

static bool
sm_special(struct ref_ctx *c, const struct tgsi_insn *in)
{
   switch (in->op) {
   case TGSI_OP_KILL:
      kil(c, NULL);
      return true;
   case TGSI_OP_KILL_IF:
   case TGSI_OP_KIL:
      kill_if(c, in);
      return true;
   case TGSI_OP_MEMBAR: /* every memory access is waited for in full already */
      return true;
   case TGSI_OP_BARRIER:
      ref_emit(c, "bar");
      return true;
   case TGSI_OP_EMIT:
   case TGSI_OP_ENDPRIM:
      gs_emit(c, in);
      return true;
   case TGSI_OP_DDX:
   case TGSI_OP_DDY:
   case TGSI_OP_DDX_FINE:
   case TGSI_OP_DDY_FINE:
      deriv(c, in);
      return true;
   case TGSI_OP_VOTE_ANY:
   case TGSI_OP_VOTE_ALL:
   case TGSI_OP_VOTE_EQ:
   case TGSI_OP_BALLOT:
   case TGSI_OP_READ_FIRST:
   case TGSI_OP_READ_INVOC:
      subgroup(c, in);
      return true;
   default:
      return false;
   }
}

/* ------------------------------------------------------------------ */
/* Branches                                                             */

static void
sm_branch(struct ref_ctx *c, enum ref_test test, unsigned a, unsigned b, bool when, int label)
{
   if (test == REF_TEST_FLOAT_NZ) /* NEU: NaN is true, -0 false */
      setp(c, "fsetp_r", "fcmp", "ne", NULL, R(a), rz(c));
   else if (test == REF_TEST_INT_NZ)
      setp(c, "isetp_r", "icmp", "ne", "u32", R(a), rz(c));
   else
      setp(c, "isetp_r", "icmp", "eq", "u32", R(a), R(b));
   struct isa_insn *br = ref_emit(c, "bra");
   ref_set_mod(c, br, "pg", when ? "p0" : "np0");
   ref_branch_to(c, label, 0);
}

static void
sm_jump(struct ref_ctx *c, int label)
{
   ref_emit(c, "bra");
   ref_branch_to(c, label, 0);
}

static void
sm_ssy(struct ref_ctx *c, int label)
{
   ref_emit(c, "ssy");
   ref_branch_to(c, label, 0);
}

static void
sm_sync(struct ref_ctx *c)
{
   ref_emit(c, "sync");
}

static void
sm_kill_flag(struct ref_ctx *c, unsigned flag)
{
   setp(c, "isetp_r", "icmp", "ne", "u32", R(flag), rz(c));
   kil(c, "p0");
}

static void
sm_end(struct ref_ctx *c)
{
   ref_emit(c, "exit");
}

static bool
sm_init(struct ref_ctx *c)
{
   unsigned f, b, rzi, pti;
   if (c->pfile < 0 || !isa_parse_reg_name(c->m, "RZ", &f, &rzi, &b) || (int)f != c->gpr ||
       !isa_parse_reg_name(c->m, "PT", &f, &pti, &b) || (int)f != c->pfile) {
      ref_error(c, "the sm50 model lacks a predicate file, RZ or PT");
      return false;
   }
   c->special[SPECIAL_RZ] = rzi;
   c->special[SPECIAL_PT] = pti;
   c->ngpr = MIN2(c->ngpr, rzi); /* RZ (the last register) is never allocated */
   return true;
}

const struct ref_target ref_target_sm50 = {
    .model = "sm50",
    .init = sm_init,
    .prim = sm_prim,
    .mov_imm = sm_mov_imm,
    .copy = sm_copy,
    .load_const = sm_load_const,
    .load_indirect = sm_load_indirect,
    .special = sm_special,
    .load_word = sm_load_word,
    .store_word = sm_store_word,
    .atomic = sm_atomic,
    .begin = sm_begin,
    .store_output = sm_store_output,
    .kill_flag = sm_kill_flag,
    .wide = ref_fp64_wide,
    .fp64 = &sm_fp64,
    .tex = sm_tex,
    .branch = sm_branch,
    .jump = sm_jump,
    .end = sm_end,
    .ssy = sm_ssy,
    .sync = sm_sync,
};
