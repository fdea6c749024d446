/*
 * TGSI -> IR for one non-control-flow instruction: the vec4 operation is
 * split into one scalar computation per written channel (REPL ops compute
 * once from the .x of their sources, CHAN ops use a formula per channel),
 * every channel is computed before any is written (so MOV TEMP[0],
 * TEMP[0].yxzw works), then _SAT and the writes follow.
 *
 * The formulas keep tgsi_exec's rounding: MAD is fmad (rounded twice), DP*
 * is a mul then a chain of fmads in x, y, z, w order, LRP is
 * a * (b - c) + c, SGT/SLE swap the operands of slt/sge, CMP is
 * (a < 0) ? b : c with an ordered compare (-0 and NaN pick c).
 *
 * 64-bit ops work on channel pairs (xy, zw): the pair's two words are
 * packed into one L value and the result unpacked back, with the golden
 * interpreter's channel rules (see wide() and its tables).
 *
 * Unsupported (a clear error, never a guess): READ_HELPER with DEMOTE,
 * CLOCK, FBFETCH of anything but OUT[i] (OUT[i]: an input, tgsi.h), image
 * and buffer size queries, TG4 with a component
 * that is not a constant, indirect resources, LOAD from a constant buffer.
 */
#include "compiler/ir/ir.h"

#include <stdlib.h>

#define F_ONE  0x3f800000u
#define F_HALF 0x3f000000u

struct chans {
   struct ir_instr *v[4];
};

enum tgsi_type
xl_src_type(const struct tgsi_insn *in, unsigned k)
{
   switch (in->op) {
   case TGSI_OP_UCMP:
      return k == 0 ? TGSI_TYPE_U : TGSI_TYPE_F;
   case TGSI_OP_LDEXP:
      return k == 1 ? TGSI_TYPE_I : TGSI_TYPE_F;
   case TGSI_OP_INTERP_SAMPLE:
      return k == 1 ? TGSI_TYPE_I : TGSI_TYPE_F;
   case TGSI_OP_TXF:
   case TGSI_OP_TXF_LZ:
   case TGSI_OP_TXQ:
   case TGSI_OP_SAMPLE_I:
   case TGSI_OP_SAMPLE_I_MS:
      return TGSI_TYPE_I;
   default:
      return (enum tgsi_type)tgsi_op_info[in->op].type;
   }
}

static struct ir_instr *
S(struct xlate *x, const struct tgsi_insn *in, unsigned k, unsigned c)
{
   return xl_fetch(x, &in->src[k], c, xl_src_type(in, k));
}

static struct ir_instr *
imm(struct xlate *x, uint32_t bits)
{
   return ir_imm32(&x->b, bits);
}

static struct ir_instr *
alu1(struct xlate *x, enum ir_op op, struct ir_instr *a)
{
   return ir_alu1(&x->b, op, a);
}

static struct ir_instr *
alu2(struct xlate *x, enum ir_op op, struct ir_instr *a, struct ir_instr *b)
{
   return ir_alu2(&x->b, op, a, b);
}

static struct ir_instr *
alu3(struct xlate *x, enum ir_op op, struct ir_instr *a, struct ir_instr *b, struct ir_instr *c)
{
   return ir_alu3(&x->b, op, a, b, c);
}

/* ------------------------------------------------------------------ */
/* Component-wise ops: one IR op per channel                            */

struct comp_op {
   enum tgsi_opcode tgsi;
   enum ir_op op;
   bool swap; /* sources 0 and 1 exchanged (SGT, SLE) */
};

static const struct comp_op comp_ops[] = {
    {TGSI_OP_ADD, IR_OP_FADD, false},
    {TGSI_OP_MUL, IR_OP_FMUL, false},
    {TGSI_OP_MAD, IR_OP_FMAD, false},
    {TGSI_OP_FMA, IR_OP_FFMA, false},
    {TGSI_OP_DIV, IR_OP_FDIV, false},
    {TGSI_OP_MIN, IR_OP_FMIN, false},
    {TGSI_OP_MAX, IR_OP_FMAX, false},
    {TGSI_OP_SLT, IR_OP_SLT, false},
    {TGSI_OP_SGE, IR_OP_SGE, false},
    {TGSI_OP_SEQ, IR_OP_SEQ, false},
    {TGSI_OP_SNE, IR_OP_SNE, false},
    {TGSI_OP_SGT, IR_OP_SLT, true},
    {TGSI_OP_SLE, IR_OP_SGE, true},
    {TGSI_OP_FSEQ, IR_OP_FEQ, false},
    {TGSI_OP_FSNE, IR_OP_FNE, false},
    {TGSI_OP_FSLT, IR_OP_FLT, false},
    {TGSI_OP_FSGE, IR_OP_FGE, false},
    {TGSI_OP_SSG, IR_OP_FSIGN, false},
    {TGSI_OP_FRC, IR_OP_FFRACT, false},
    {TGSI_OP_FLR, IR_OP_FFLOOR, false},
    {TGSI_OP_CEIL, IR_OP_FCEIL, false},
    {TGSI_OP_TRUNC, IR_OP_FTRUNC, false},
    {TGSI_OP_ROUND, IR_OP_FROUND_EVEN, false},
    {TGSI_OP_LDEXP, IR_OP_FLDEXP, false},
    {TGSI_OP_DDX, IR_OP_DDX, false},
    {TGSI_OP_DDY, IR_OP_DDY, false},
    {TGSI_OP_DDX_FINE, IR_OP_DDX_FINE, false},
    {TGSI_OP_DDY_FINE, IR_OP_DDY_FINE, false},
    {TGSI_OP_I2F, IR_OP_I2F, false},
    {TGSI_OP_U2F, IR_OP_U2F, false},
    {TGSI_OP_F2I, IR_OP_F2I, false},
    {TGSI_OP_F2U, IR_OP_F2U, false},
    {TGSI_OP_UADD, IR_OP_IADD, false},
    {TGSI_OP_UMUL, IR_OP_IMUL, false},
    {TGSI_OP_IMUL_HI, IR_OP_IMUL_HI, false},
    {TGSI_OP_UMUL_HI, IR_OP_UMUL_HI, false},
    {TGSI_OP_IDIV, IR_OP_IDIV, false},
    {TGSI_OP_MOD, IR_OP_IMOD, false},
    {TGSI_OP_UDIV, IR_OP_UDIV, false},
    {TGSI_OP_UMOD, IR_OP_UMOD, false},
    {TGSI_OP_INEG, IR_OP_INEG, false},
    {TGSI_OP_IABS, IR_OP_IABS, false},
    {TGSI_OP_ISSG, IR_OP_ISIGN, false},
    {TGSI_OP_NOT, IR_OP_INOT, false},
    {TGSI_OP_AND, IR_OP_IAND, false},
    {TGSI_OP_OR, IR_OP_IOR, false},
    {TGSI_OP_XOR, IR_OP_IXOR, false},
    {TGSI_OP_SHL, IR_OP_ISHL, false},
    {TGSI_OP_ISHR, IR_OP_ISHR, false},
    {TGSI_OP_USHR, IR_OP_USHR, false},
    {TGSI_OP_IMAX, IR_OP_IMAX, false},
    {TGSI_OP_IMIN, IR_OP_IMIN, false},
    {TGSI_OP_UMAX, IR_OP_UMAX, false},
    {TGSI_OP_UMIN, IR_OP_UMIN, false},
    {TGSI_OP_ISGE, IR_OP_IGE, false},
    {TGSI_OP_ISLT, IR_OP_ILT, false},
    {TGSI_OP_USEQ, IR_OP_IEQ, false},
    {TGSI_OP_USNE, IR_OP_INE, false},
    {TGSI_OP_USGE, IR_OP_UGE, false},
    {TGSI_OP_USLT, IR_OP_ULT, false},
    {TGSI_OP_IBFE, IR_OP_IBFE, false},
    {TGSI_OP_UBFE, IR_OP_UBFE, false},
    {TGSI_OP_BFI, IR_OP_BFI, false},
    {TGSI_OP_BREV, IR_OP_BITREV, false},
    {TGSI_OP_POPC, IR_OP_BITCOUNT, false},
    {TGSI_OP_LSB, IR_OP_FIND_LSB, false},
    {TGSI_OP_IMSB, IR_OP_IFIND_MSB, false},
    {TGSI_OP_UMSB, IR_OP_UFIND_MSB, false},
    {TGSI_OP_MOV, IR_OP_MOV, false},
    {TGSI_OP_UARL, IR_OP_MOV, false},
    {TGSI_OP_ABS, IR_OP_FABS, false},
    {TGSI_OP_UCMP, IR_OP_BCSEL, false},
};

/* REPL ops made of one IR op on the .x of each source. */
static const struct comp_op repl_ops[] = {
    {TGSI_OP_RCP, IR_OP_FRCP, false},   {TGSI_OP_RSQ, IR_OP_FRSQ, false},
    {TGSI_OP_SQRT, IR_OP_FSQRT, false}, {TGSI_OP_EX2, IR_OP_FEXP2, false},
    {TGSI_OP_LG2, IR_OP_FLOG2, false},  {TGSI_OP_POW, IR_OP_FPOW, false},
    {TGSI_OP_SIN, IR_OP_FSIN, false},   {TGSI_OP_COS, IR_OP_FCOS, false},
};

static const struct comp_op *
find_op(const struct comp_op *t, size_t n, enum tgsi_opcode op)
{
   for (size_t i = 0; i < n; i++)
      if (t[i].tgsi == op)
         return &t[i];
   return NULL;
}

static struct ir_instr *
comp(struct xlate *x, const struct tgsi_insn *in, const struct comp_op *o, unsigned c)
{
   struct ir_instr *s[4];
   unsigned n = ir_op_info[o->op].nsrc;
   for (unsigned k = 0; k < n; k++)
      s[k] = S(x, in, k, c);
   if (o->swap) {
      struct ir_instr *t = s[0];
      s[0] = s[1];
      s[1] = t;
   }
   return ir_build(&x->b, o->op, n, s);
}

/* ------------------------------------------------------------------ */
/* Multi-op formulas                                                    */

static struct ir_instr *
dot(struct xlate *x, const struct tgsi_insn *in, unsigned n)
{
   struct ir_instr *a = S(x, in, 0, 0), *b = S(x, in, 1, 0);
   struct ir_instr *t = alu2(x, IR_OP_FMUL, a, b);
   for (unsigned c = 1; c < n; c++) {
      a = S(x, in, 0, c);
      b = S(x, in, 1, c);
      t = alu3(x, IR_OP_FMAD, a, b, t);
   }
   return t;
}

static struct ir_instr *
fsub(struct xlate *x, struct ir_instr *a, struct ir_instr *b)
{
   return alu2(x, IR_OP_FADD, a, alu1(x, IR_OP_FNEG, b));
}

static void
lit(struct xlate *x, const struct tgsi_insn *in, struct chans *r, uint8_t mask)
{
   struct ir_instr *zero = imm(x, 0);
   r->v[0] = imm(x, F_ONE);
   r->v[3] = imm(x, F_ONE);
   if (mask & 2)
      r->v[1] = alu2(x, IR_OP_FMAX, S(x, in, 0, 0), zero);
   if (mask & 4) {
      struct ir_instr *w = S(x, in, 0, 3);
      w = alu2(x, IR_OP_FMAX, w, imm(x, 0xc3000000u)); /* -128 */
      w = alu2(x, IR_OP_FMIN, w, imm(x, 0x43000000u)); /* 128 */
      struct ir_instr *p = alu2(x, IR_OP_FPOW, alu2(x, IR_OP_FMAX, S(x, in, 0, 1), zero), w);
      struct ir_instr *pos = alu2(x, IR_OP_FLT, zero, S(x, in, 0, 0));
      r->v[2] = alu3(x, IR_OP_BCSEL, pos, p, zero);
   }
}

static void
exp_log(struct xlate *x, const struct tgsi_insn *in, struct chans *r)
{
   struct ir_instr *s = S(x, in, 0, 0);
   if (in->op == TGSI_OP_EXP) {
      struct ir_instr *fl = alu1(x, IR_OP_FFLOOR, s);
      r->v[0] = alu1(x, IR_OP_FEXP2, fl);
      r->v[1] = fsub(x, s, fl);
      r->v[2] = alu1(x, IR_OP_FEXP2, s);
   } else {
      struct ir_instr *a = alu1(x, IR_OP_FABS, s);
      struct ir_instr *l = alu1(x, IR_OP_FLOG2, a);
      struct ir_instr *fl = alu1(x, IR_OP_FFLOOR, l);
      r->v[0] = fl;
      r->v[1] = alu2(x, IR_OP_FDIV, a, alu1(x, IR_OP_FEXP2, fl));
      r->v[2] = l;
   }
   r->v[3] = imm(x, F_ONE);
}

static void
cross(struct xlate *x, const struct tgsi_insn *in, struct chans *r)
{
   static const unsigned a[3] = {1, 2, 0}, b[3] = {2, 0, 1};
   for (unsigned c = 0; c < 3; c++) {
      struct ir_instr *s0 = S(x, in, 0, a[c]), *s1 = S(x, in, 1, b[c]);
      struct ir_instr *p = alu2(x, IR_OP_FMUL, s0, s1);
      s0 = S(x, in, 0, b[c]);
      s1 = S(x, in, 1, a[c]);
      struct ir_instr *q = alu2(x, IR_OP_FMUL, s0, s1);
      r->v[c] = fsub(x, p, q);
   }
   r->v[3] = imm(x, F_ONE);
}

static void
kill_if(struct xlate *x, const struct tgsi_insn *in)
{
   struct ir_instr *any = NULL;
   for (unsigned c = 0; c < 4; c++) {
      bool seen = false;
      for (unsigned k = 0; k < c; k++)
         seen |= in->src[0].swz[k] == in->src[0].swz[c];
      if (seen)
         continue;
      struct ir_instr *v = S(x, in, 0, c);
      struct ir_instr *lt = alu2(x, IR_OP_FLT, v, imm(x, 0));
      any = any ? alu2(x, IR_OP_IOR, any, lt) : lt;
   }
   ir_build(&x->b, IR_OP_KILL_IF, 1, &any);
}

/* A constant operand (an IMM channel), as EMIT's stream and TG4's
 * component must be. */
static bool
const_operand(struct xlate *x, const struct tgsi_src *s, uint32_t *v)
{
   if (s->reg.file != TGSI_FILE_IMM || s->reg.indirect || s->reg.index < 0 ||
       (unsigned)s->reg.index >= x->ts->nimms || s->neg || s->abs)
      return false;
   *v = x->ts->imms[s->reg.index].u[s->swz[0] & 3];
   return true;
}

static bool
emit(struct xlate *x, const struct tgsi_insn *in)
{
   uint32_t stream;
   if (!const_operand(x, &in->src[0], &stream))
      return xl_unsupported(x, "with a stream operand that is not an immediate");
   if (in->op == TGSI_OP_EMIT)
      xl_store_outputs(x);
   struct ir_instr *e =
       ir_build(&x->b, in->op == TGSI_OP_EMIT ? IR_OP_EMIT : IR_OP_END_PRIM, 0, NULL);
   e->stream = (int32_t)stream;
   return true;
}

/* INTERP_CENTROID and INTERP_SAMPLE read the input itself: the
 * environment has one fully covered sample at the pixel centre (other
 * sample indices are undefined there), as in the interpreter. */
static bool
interp(struct xlate *x, const struct tgsi_insn *in, struct chans *r)
{
   const struct tgsi_src *s = &in->src[0];
   if (s->reg.file != TGSI_FILE_IN || s->reg.indirect || s->reg.has_dim)
      return xl_unsupported(x, "of something other than a direct input");
   for (unsigned c = 0; c < 4; c++) {
      if (!(in->dst[0].mask & (1u << c)))
         continue;
      if (in->op != TGSI_OP_INTERP_OFFSET) {
         r->v[c] = S(x, in, 0, c);
         continue;
      }
      struct ir_instr *offset_x = S(x, in, 1, 0);
      struct ir_instr *offset_y = S(x, in, 1, 1);
      struct ir_instr *a[2] = {offset_x, offset_y};
      struct ir_instr *v = ir_build(&x->b, IR_OP_INTERP_OFFSET, 2, a);
      v->slot = s->reg.index;
      v->comp = s->swz[c] & 3;
      if (s->abs)
         v = alu1(x, IR_OP_FABS, v);
      if (s->neg)
         v = alu1(x, IR_OP_FNEG, v);
      r->v[c] = v;
   }
   return true;
}

/* ------------------------------------------------------------------ */
/* Textures                                                             */

struct texb {
   struct ir_instr *src[IR_TEX_MAX_SRC];
   uint8_t role[IR_TEX_MAX_SRC];
   unsigned n;
};

static void
tex_add(struct texb *t, enum ir_tex_role role, struct ir_instr *v)
{
   if (t->n < IR_TEX_MAX_SRC) {
      t->src[t->n] = v;
      t->role[t->n++] = (uint8_t)role;
   }
}

/* Which source channel holds the shadow reference (Mesa's rule); 4 means
 * src1.x. */
static unsigned
shadow_ref_chan(enum tgsi_texture t)
{
   switch (t) {
   case TGSI_TEX_T_SHADOW2D_ARRAY:
   case TGSI_TEX_T_SHADOWCUBE:
      return 3;
   case TGSI_TEX_T_SHADOWCUBE_ARRAY:
      return 4;
   default:
      return 2;
   }
}

static unsigned
deriv_count(enum tgsi_texture t)
{
   switch (t) {
   case TGSI_TEX_T_1D:
   case TGSI_TEX_T_SHADOW1D:
   case TGSI_TEX_T_1D_ARRAY:
   case TGSI_TEX_T_SHADOW1D_ARRAY:
      return 1;
   case TGSI_TEX_T_3D:
   case TGSI_TEX_T_CUBE:
   case TGSI_TEX_T_SHADOWCUBE:
   case TGSI_TEX_T_CUBE_ARRAY:
   case TGSI_TEX_T_SHADOWCUBE_ARRAY:
      return 3;
   default:
      return 2;
   }
}

static bool
is_msaa(enum tgsi_texture t)
{
   return t == TGSI_TEX_T_2D_MSAA || t == TGSI_TEX_T_2D_ARRAY_MSAA;
}

/* The sampler/view operand: a direct SAMP or SVIEW register. */
static bool
resource_index(struct xlate *x, const struct tgsi_src *s, enum tgsi_file want, int32_t *idx)
{
   if (s->reg.file != want || s->reg.indirect || s->reg.index < 0)
      return xl_unsupported(x, "with an indirect or unexpected sampler/resource operand");
   *idx = s->reg.index;
   return true;
}

static void
tex_offsets(struct xlate *x, const struct tgsi_insn *in, struct texb *t, unsigned n)
{
   if (!in->noffsets)
      return;
   const struct tgsi_texoff *o = &in->offsets[0];
   struct tgsi_src s = {.reg = o->reg, .swz = {o->swz[0], o->swz[1], o->swz[2], o->swz[0]}};
   for (unsigned c = 0; c < n && c < 3; c++)
      tex_add(t, IR_TEXSRC_off, xl_fetch(x, &s, c, TGSI_TYPE_I));
}

static bool
tex_classic(struct xlate *x, const struct tgsi_insn *in, struct texb *t, int32_t *kind,
            int32_t *target, int32_t *samp, int32_t *gcomp)
{
   enum tgsi_texture tg = in->tex_target;
   enum tgsi_opcode op = in->op;
   unsigned ncoord = tgsi_texture_coord_count(tg), last = in->nsrc - 1;
   bool shadow = tgsi_texture_is_shadow(tg),
        two = op == TGSI_OP_TEX2 || op == TGSI_OP_TXB2 || op == TGSI_OP_TXL2;
   *target = tg;
   if (!resource_index(x, &in->src[last], TGSI_FILE_SAMP, samp))
      return false;
   *kind = op == TGSI_OP_TXB || op == TGSI_OP_TXB2                           ? IR_TEX_txb
           : op == TGSI_OP_TXL || op == TGSI_OP_TXL2 || op == TGSI_OP_TEX_LZ ? IR_TEX_txl
           : op == TGSI_OP_TXD                                               ? IR_TEX_txd
           : op == TGSI_OP_TXF || op == TGSI_OP_TXF_LZ                       ? IR_TEX_txf
           : op == TGSI_OP_TXQ                                               ? IR_TEX_txq
           : op == TGSI_OP_TG4                                               ? IR_TEX_tg4
           : op == TGSI_OP_LODQ                                              ? IR_TEX_lodq
                                                                             : IR_TEX_tex;
   if (*kind == IR_TEX_txq) {
      tex_add(t, IR_TEXSRC_lod, S(x, in, 0, 0));
      return true;
   }
   /* TXP divides the spatial coordinates and the reference by .w exactly
    * (the interpreter's and the reference compiler's division): the
    * projection stays a source, for the texture unit (a3xx) or for
    * opt_expand's correctly rounded division (sm50). */
   for (unsigned c = 0; c < ncoord; c++)
      tex_add(t, IR_TEXSRC_coord, S(x, in, 0, c));
   if (shadow) {
      unsigned rc = shadow_ref_chan(tg);
      tex_add(t, IR_TEXSRC_cmp, rc == 4 || two ? S(x, in, 1, 0) : S(x, in, 0, rc));
   }
   if (op == TGSI_OP_TXP)
      tex_add(t, IR_TEXSRC_proj, S(x, in, 0, 3));
   if (op == TGSI_OP_TXB || op == TGSI_OP_TXL)
      tex_add(t, *kind == IR_TEX_txb ? IR_TEXSRC_bias : IR_TEXSRC_lod, S(x, in, 0, 3));
   else if (op == TGSI_OP_TXB2 || op == TGSI_OP_TXL2)
      tex_add(t, *kind == IR_TEX_txb ? IR_TEXSRC_bias : IR_TEXSRC_lod, S(x, in, 1, 0));
   else if (op == TGSI_OP_TEX_LZ || op == TGSI_OP_TXF_LZ)
      tex_add(t, IR_TEXSRC_lod, imm(x, 0));
   else if (op == TGSI_OP_TXF && tg != TGSI_TEX_T_BUFFER)
      tex_add(t, is_msaa(tg) ? IR_TEXSRC_ms : IR_TEXSRC_lod, S(x, in, 0, 3));
   if (op == TGSI_OP_TXD) {
      unsigned nd = deriv_count(tg);
      for (unsigned c = 0; c < nd; c++)
         tex_add(t, IR_TEXSRC_ddx, S(x, in, 1, c));
      for (unsigned c = 0; c < nd; c++)
         tex_add(t, IR_TEXSRC_ddy, S(x, in, 2, c));
   }
   if (op == TGSI_OP_TG4) {
      uint32_t gc;
      if (!const_operand(x, &in->src[1], &gc) || gc > 3)
         return xl_unsupported(x, "with a gather component that is not a constant 0..3");
      *gcomp = (int32_t)gc;
   }
   tex_offsets(x, in, t, deriv_count(tg));
   return true;
}

/* SAMPLE*, GATHER4, LOD: SVIEW + SAMP operands, the view's swizzle applies
 * to the result. GATHER4 gathers component 0 (the interpreter's);
 * SAMPLE_I(_MS) on a multisample view takes the sample index from src0.w,
 * as TXF does; LOD is LODQ on a view. */
static bool
tex_sample(struct xlate *x, const struct tgsi_insn *in, struct texb *t, int32_t *kind,
           int32_t *target, int32_t *res, int32_t *samp, int32_t *gcomp)
{
   enum tgsi_opcode op = in->op;
   if (!resource_index(x, &in->src[1], TGSI_FILE_SVIEW, res))
      return false;
   const struct tgsi_decl *d = tgsi_find_decl(x->ts, TGSI_FILE_SVIEW, (uint32_t)*res);
   if (!d)
      return xl_unsupported(x, "with an undeclared SVIEW");
   *target = d->target;
   bool fetch = op == TGSI_OP_SAMPLE_I || op == TGSI_OP_SAMPLE_I_MS;
   *samp = 0;
   if (!fetch && !resource_index(x, &in->src[2], TGSI_FILE_SAMP, samp))
      return false;
   *kind = op == TGSI_OP_SAMPLE_B                                ? IR_TEX_txb
           : op == TGSI_OP_SAMPLE_L || op == TGSI_OP_SAMPLE_C_LZ ? IR_TEX_txl
           : op == TGSI_OP_SAMPLE_D                              ? IR_TEX_txd
           : fetch                                               ? IR_TEX_txf
           : op == TGSI_OP_GATHER4                               ? IR_TEX_tg4
           : op == TGSI_OP_LOD                                   ? IR_TEX_lodq
                                                                 : IR_TEX_tex;
   if (fetch)
      *samp = IR_NONE;
   if (op == TGSI_OP_GATHER4)
      *gcomp = 0;
   unsigned ncoord = tgsi_texture_coord_count(*target);
   for (unsigned c = 0; c < ncoord; c++)
      tex_add(t, IR_TEXSRC_coord, S(x, in, 0, c));
   if (op == TGSI_OP_SAMPLE_C || op == TGSI_OP_SAMPLE_C_LZ)
      tex_add(t, IR_TEXSRC_cmp, S(x, in, 3, 0));
   if (op == TGSI_OP_SAMPLE_B)
      tex_add(t, IR_TEXSRC_bias, S(x, in, 3, 0));
   else if (op == TGSI_OP_SAMPLE_L)
      tex_add(t, IR_TEXSRC_lod, S(x, in, 3, 0));
   else if (op == TGSI_OP_SAMPLE_C_LZ)
      tex_add(t, IR_TEXSRC_lod, imm(x, 0));
   else if (fetch && *target != TGSI_TEX_T_BUFFER)
      tex_add(t, is_msaa(*target) ? IR_TEXSRC_ms : IR_TEXSRC_lod, S(x, in, 0, 3));
   if (op == TGSI_OP_SAMPLE_D) {
      unsigned nd = deriv_count(*target);
      for (unsigned c = 0; c < nd; c++)
         tex_add(t, IR_TEXSRC_ddx, S(x, in, 3, c));
      for (unsigned c = 0; c < nd; c++)
         tex_add(t, IR_TEXSRC_ddy, S(x, in, 4, c));
   }
   tex_offsets(x, in, t, deriv_count(*target));
   return true;
}

/* Size and sample-count queries: SVIEWINFO (a txq on a view), TXQS (txqs
 * on a sampler). */
static bool
tex_query(struct xlate *x, const struct tgsi_insn *in, struct texb *t, int32_t *kind,
          int32_t *target, int32_t *res, int32_t *samp)
{
   bool view = in->op == TGSI_OP_SVIEWINFO;
   unsigned k = view ? 1 : 0;
   if (!resource_index(x, &in->src[k], view ? TGSI_FILE_SVIEW : TGSI_FILE_SAMP, res))
      return false;
   const struct tgsi_decl *d = view ? tgsi_find_decl(x->ts, TGSI_FILE_SVIEW, (uint32_t)*res) : NULL;
   *target = view ? (d ? (int32_t)d->target : (int32_t)TGSI_TEX_T_2D) : (int32_t)in->tex_target;
   *samp = view ? IR_NONE : *res;
   *kind = in->op == TGSI_OP_SVIEWINFO ? IR_TEX_txq : IR_TEX_txqs;
   if (*kind == IR_TEX_txq)
      tex_add(t, IR_TEXSRC_lod, S(x, in, 0, 0));
   return true;
}

static bool
texture(struct xlate *x, const struct tgsi_insn *in, struct chans *r)
{
   struct texb t = {0};
   int32_t kind = IR_TEX_tex, target = TGSI_TEX_T_2D, res = 0, samp = 0, gcomp = IR_NONE;
   bool query = in->op == TGSI_OP_SVIEWINFO || in->op == TGSI_OP_TXQS;
   bool sample = !query && !(tgsi_op_info[in->op].flags & TGSI_OPF_TEX);
   bool ok = query    ? tex_query(x, in, &t, &kind, &target, &res, &samp)
             : sample ? tex_sample(x, in, &t, &kind, &target, &res, &samp, &gcomp)
                      : tex_classic(x, in, &t, &kind, &target, &samp, &gcomp);
   if (!ok)
      return false;
   if (!sample && !query)
      res = samp;
   struct ir_instr *tx = ir_build(&x->b, IR_OP_TEX, t.n, t.src);
   memcpy(tx->role, t.role, t.n);
   tx->kind = kind;
   tx->target = target;
   tx->res = res;
   tx->samp = samp;
   tx->comp = gcomp;
   for (unsigned c = 0; c < 4; c++) {
      if (!(in->dst[0].mask & (1u << c)))
         continue;
      unsigned from = sample ? in->src[1].swz[c] & 3 : c;
      r->v[c] = alu1(x, IR_OP_EXTRACT, tx);
      r->v[c]->comp = (int32_t)from;
   }
   return true;
}

/* ------------------------------------------------------------------ */
/* Memory                                                               */

static enum ir_op
mem_op(enum tgsi_file f, bool store)
{
   if (f == TGSI_FILE_BUFFER)
      return store ? IR_OP_STORE_BUFFER : IR_OP_LOAD_BUFFER;
   if (f == TGSI_FILE_MEMORY)
      return store ? IR_OP_STORE_SHARED : IR_OP_LOAD_SHARED;
   return IR_OP_COUNT;
}

static int32_t
image_target(struct xlate *x, const struct tgsi_insn *in, int32_t idx)
{
   if (in->has_mem_target)
      return in->mem_target;
   const struct tgsi_decl *d = tgsi_find_decl(x->ts, TGSI_FILE_IMAGE, (uint32_t)idx);
   return d ? (int32_t)d->target : TGSI_TEX_T_2D;
}

static unsigned
image_coord_count(int32_t target)
{
   return tgsi_texture_coord_count(target) + (is_msaa(target) ? 1 : 0);
}

static struct ir_instr *
byte_address(struct xlate *x, struct ir_instr *base, unsigned c)
{
   return c ? alu2(x, IR_OP_IADD, base, imm(x, 4 * c)) : base;
}

static bool
load_store(struct xlate *x, const struct tgsi_insn *in, struct chans *r)
{
   bool store = in->op == TGSI_OP_STORE;
   const struct tgsi_reg *rr = store ? &in->dst[0].reg : &in->src[0].reg;
   unsigned ak = store ? 0 : 1, vk = store ? 1 : 0;
   if (rr->indirect || rr->index < 0)
      return xl_unsupported(x, "with an indirect resource");
   if (rr->file == TGSI_FILE_IMAGE) {
      int32_t target = image_target(x, in, rr->index);
      struct ir_instr *s[8];
      unsigned n = image_coord_count(target);
      for (unsigned c = 0; c < n; c++)
         s[c] = S(x, in, ak, c);
      if (store)
         for (unsigned c = 0; c < 4; c++)
            s[n + c] = S(x, in, vk, c);
      struct ir_instr *m =
          ir_build(&x->b, store ? IR_OP_IMAGE_STORE : IR_OP_IMAGE_LOAD, store ? n + 4 : n, s);
      m->res = rr->index;
      m->target = target;
      for (unsigned c = 0; c < 4 && !store; c++)
         if (in->dst[0].mask & (1u << c)) {
            r->v[c] = alu1(x, IR_OP_EXTRACT, m);
            r->v[c]->comp = (int32_t)(in->src[0].swz[c] & 3);
         }
      return true;
   }
   enum ir_op op = mem_op(rr->file, store);
   if (op == IR_OP_COUNT)
      return xl_unsupported(x, "on a file other than BUFFER, MEMORY and IMAGE");
   struct ir_instr *base = S(x, in, ak, 0);
   for (unsigned c = 0; c < 4; c++) {
      if (!(in->dst[0].mask & (1u << c)))
         continue;
      /* a load's resource swizzle picks the word: LOAD TEMP.y, MEMORY[0].xxxx
       * reads the word at the address itself into .y */
      struct ir_instr *s[2];
      s[0] = byte_address(x, base, store ? c : in->src[0].swz[c] & 3u);
      s[1] = store ? S(x, in, vk, c) : NULL;
      struct ir_instr *m = ir_build(&x->b, op, store ? 2 : 1, s);
      m->res = rr->index;
      if (!store)
         r->v[c] = m;
   }
   return true;
}

/* RESQ: an image's size (all channels), or a buffer's or shared memory's
 * size in bytes (.x only; the other channels are left alone). */
static bool
resource_size(struct xlate *x, const struct tgsi_insn *in, struct chans *r)
{
   const struct tgsi_reg *rr = &in->src[0].reg;
   if (rr->indirect || rr->index < 0)
      return xl_unsupported(x, "with an indirect resource");
   int32_t space = rr->file == TGSI_FILE_IMAGE    ? IR_SPACE_image
                   : rr->file == TGSI_FILE_BUFFER ? IR_SPACE_buffer
                   : rr->file == TGSI_FILE_MEMORY ? IR_SPACE_shared
                                                  : -1;
   if (space < 0)
      return xl_unsupported(x, "on a file other than BUFFER, MEMORY and IMAGE");
   struct ir_instr *q = ir_build(&x->b, IR_OP_RES_SIZE, 0, NULL);
   q->space = space;
   q->res = rr->index;
   q->target = space == IR_SPACE_image ? image_target(x, in, rr->index) : IR_NONE;
   unsigned n = space == IR_SPACE_image ? 4 : 1;
   for (unsigned c = 0; c < n; c++)
      if (in->dst[0].mask & (1u << c)) {
         r->v[c] = alu1(x, IR_OP_EXTRACT, q);
         r->v[c]->comp = (int32_t)c;
      }
   return true;
}

static const struct {
   enum tgsi_opcode tgsi;
   enum ir_aop aop;
} atomics[] = {
    {TGSI_OP_ATOMUADD, IR_AOP_add},
    {TGSI_OP_ATOMXCHG, IR_AOP_xchg},
    {TGSI_OP_ATOMCAS, IR_AOP_cas},
    {TGSI_OP_ATOMAND, IR_AOP_and},
    {TGSI_OP_ATOMOR, IR_AOP_or},
    {TGSI_OP_ATOMXOR, IR_AOP_xor},
    {TGSI_OP_ATOMUMIN, IR_AOP_umin},
    {TGSI_OP_ATOMUMAX, IR_AOP_umax},
    {TGSI_OP_ATOMIMIN, IR_AOP_imin},
    {TGSI_OP_ATOMIMAX, IR_AOP_imax},
    {TGSI_OP_ATOMFADD, IR_AOP_fadd},
    {TGSI_OP_ATOMINC_WRAP, IR_AOP_inc_wrap},
    {TGSI_OP_ATOMDEC_WRAP, IR_AOP_dec_wrap},
};

static bool
atomic(struct xlate *x, const struct tgsi_insn *in, enum ir_aop aop, struct chans *r)
{
   const struct tgsi_reg *rr = &in->src[0].reg;
   if (rr->indirect || rr->index < 0)
      return xl_unsupported(x, "with an indirect resource");
   struct ir_instr *s[8];
   unsigned n = 0;
   int32_t space, target = IR_NONE;
   if (rr->file == TGSI_FILE_IMAGE) {
      space = IR_SPACE_image;
      target = image_target(x, in, rr->index);
      for (unsigned c = 0; c < image_coord_count(target); c++)
         s[n++] = S(x, in, 1, c);
   } else if (rr->file == TGSI_FILE_BUFFER || rr->file == TGSI_FILE_MEMORY) {
      space = rr->file == TGSI_FILE_BUFFER ? IR_SPACE_buffer : IR_SPACE_shared;
      s[n++] = S(x, in, 1, 0);
   } else {
      return xl_unsupported(x, "on a file other than BUFFER, MEMORY and IMAGE");
   }
   s[n++] = S(x, in, 2, 0);
   if (aop == IR_AOP_cas)
      s[n++] = S(x, in, 3, 0);
   struct ir_instr *a = ir_build(&x->b, IR_OP_ATOMIC, n, s);
   a->space = space;
   a->aop = aop;
   a->res = rr->index;
   a->target = target;
   for (unsigned c = 0; c < 4; c++)
      r->v[c] = a; /* one operation from the .x operands, in every written channel */
   return true;
}

/* ------------------------------------------------------------------ */
/* 64-bit                                                               */

/* 64 -> 64 per pair, 64 x 64 -> 64, 64 x 64 x 64 -> 64 */
static const struct comp_op pair_ops[] = {
    {TGSI_OP_DADD, IR_OP_DADD, false},          {TGSI_OP_DMUL, IR_OP_DMUL, false},
    {TGSI_OP_DFMA, IR_OP_DFMA, false},          {TGSI_OP_DDIV, IR_OP_DDIV, false},
    {TGSI_OP_DMIN, IR_OP_DMIN, false},          {TGSI_OP_DMAX, IR_OP_DMAX, false},
    {TGSI_OP_DABS, IR_OP_DABS, false},          {TGSI_OP_DNEG, IR_OP_DNEG, false},
    {TGSI_OP_DRCP, IR_OP_DRCP, false},          {TGSI_OP_DSQRT, IR_OP_DSQRT, false},
    {TGSI_OP_DRSQ, IR_OP_DRSQ, false},          {TGSI_OP_DFLR, IR_OP_DFLOOR, false},
    {TGSI_OP_DCEIL, IR_OP_DCEIL, false},        {TGSI_OP_DTRUNC, IR_OP_DTRUNC, false},
    {TGSI_OP_DROUND, IR_OP_DROUND_EVEN, false}, {TGSI_OP_DFRAC, IR_OP_DFRACT, false},
    {TGSI_OP_DSSG, IR_OP_DSIGN, false},         {TGSI_OP_I64ABS, IR_OP_IABS64, false},
    {TGSI_OP_I64SSG, IR_OP_ISIGN64, false},     {TGSI_OP_I64NEG, IR_OP_INEG64, false},
    {TGSI_OP_U64ADD, IR_OP_IADD64, false},      {TGSI_OP_U64MUL, IR_OP_IMUL64, false},
    {TGSI_OP_I64MIN, IR_OP_IMIN64, false},      {TGSI_OP_U64MIN, IR_OP_UMIN64, false},
    {TGSI_OP_I64MAX, IR_OP_IMAX64, false},      {TGSI_OP_U64MAX, IR_OP_UMAX64, false},
    {TGSI_OP_I64DIV, IR_OP_IDIV64, false},      {TGSI_OP_U64DIV, IR_OP_UDIV64, false},
    {TGSI_OP_I64MOD, IR_OP_IMOD64, false},      {TGSI_OP_U64MOD, IR_OP_UMOD64, false},
    {TGSI_OP_D2I64, IR_OP_D2I64, false},        {TGSI_OP_D2U64, IR_OP_D2U64, false},
    {TGSI_OP_I642D, IR_OP_I642D, false},        {TGSI_OP_U642D, IR_OP_U642D, false},
    {TGSI_OP_DMAD, IR_OP_COUNT, false},
};

/* 64 x 64 -> 32-bit mask, in the first written channel of the pair */
static const struct comp_op cmp64_ops[] = {
    {TGSI_OP_DSLT, IR_OP_DLT, false},     {TGSI_OP_DSGE, IR_OP_DGE, false},
    {TGSI_OP_DSEQ, IR_OP_DEQ, false},     {TGSI_OP_DSNE, IR_OP_DNE, false},
    {TGSI_OP_U64SEQ, IR_OP_IEQ64, false}, {TGSI_OP_U64SNE, IR_OP_INE64, false},
    {TGSI_OP_I64SLT, IR_OP_ILT64, false}, {TGSI_OP_U64SLT, IR_OP_ULT64, false},
    {TGSI_OP_I64SGE, IR_OP_IGE64, false}, {TGSI_OP_U64SGE, IR_OP_UGE64, false},
};

/* 64 x 32 -> 64: the 32-bit operand is src1.x for xy, src1.z for zw */
static const struct comp_op shift64_ops[] = {
    {TGSI_OP_U64SHL, IR_OP_ISHL64, false},
    {TGSI_OP_I64SHR, IR_OP_ISHR64, false},
    {TGSI_OP_U64SHR, IR_OP_USHR64, false},
    {TGSI_OP_DLDEXP, IR_OP_DLDEXP, false},
};

/* 32 -> 64 (src.x for xy, src.y for zw, only for fully written pairs) */
static const struct comp_op widen_ops[] = {
    {TGSI_OP_F2D, IR_OP_F2D, false},     {TGSI_OP_I2D, IR_OP_I2D, false},
    {TGSI_OP_U2D, IR_OP_U2D, false},     {TGSI_OP_F2I64, IR_OP_F2I64, false},
    {TGSI_OP_F2U64, IR_OP_F2U64, false}, {TGSI_OP_U2I64, IR_OP_U2U64, false},
    {TGSI_OP_I2I64, IR_OP_I2I64, false},
};

/* 64 -> 32 (first written channel from xy, second from zw) */
static const struct comp_op narrow_ops[] = {
    {TGSI_OP_D2F, IR_OP_D2F, false},     {TGSI_OP_D2I, IR_OP_D2I, false},
    {TGSI_OP_D2U, IR_OP_D2U, false},     {TGSI_OP_U642F, IR_OP_U642F, false},
    {TGSI_OP_I642F, IR_OP_I642F, false},
};

static struct ir_instr *
S64(struct xlate *x, const struct tgsi_insn *in, unsigned k, unsigned pair)
{
   const struct tgsi_src *s = &in->src[k];
   struct ir_instr *lo = xl_fetch_raw(x, &s->reg, s->swz[2 * pair] & 3);
   struct ir_instr *hi = xl_fetch_raw(x, &s->reg, s->swz[2 * pair + 1] & 3);
   struct ir_instr *v = alu2(x, IR_OP_PACK64, lo, hi);
   bool dbl = tgsi_op_info[in->op].type == TGSI_TYPE_D;
   if (s->abs)
      v = alu1(x, dbl ? IR_OP_DABS : IR_OP_IABS64, v);
   if (s->neg)
      v = alu1(x, dbl ? IR_OP_DNEG : IR_OP_INEG64, v);
   return v;
}

static void
unpack_pair(struct xlate *x, struct ir_instr *v, unsigned p, struct chans *r)
{
   r->v[2 * p] = alu1(x, IR_OP_UNPACK64_LO, v);
   r->v[2 * p + 1] = alu1(x, IR_OP_UNPACK64_HI, v);
}

static bool
wide(struct xlate *x, const struct tgsi_insn *in, struct chans *r)
{
   const struct comp_op *o;
   uint8_t m = in->dst[0].mask;
   if ((o = find_op(narrow_ops, ARRAY_SIZE(narrow_ops), in->op))) {
      unsigned p = 0;
      for (unsigned c = 0; c < 4 && p < 2; c++)
         if (m & (1u << c))
            r->v[c] = alu1(x, o->op, S64(x, in, 0, p++));
      return true;
   }
   for (unsigned p = 0; p < 2; p++) {
      uint8_t pm = (m >> (2 * p)) & 3;
      if (!pm)
         continue;
      struct ir_instr *s[3], *v;
      if ((o = find_op(widen_ops, ARRAY_SIZE(widen_ops), in->op))) {
         if (pm == 3)
            unpack_pair(x, alu1(x, o->op, S(x, in, 0, p)), p, r);
      } else if ((o = find_op(cmp64_ops, ARRAY_SIZE(cmp64_ops), in->op))) {
         s[0] = S64(x, in, 0, p);
         s[1] = S64(x, in, 1, p);
         r->v[2 * p + (pm & 1 ? 0 : 1)] = alu2(x, o->op, s[0], s[1]);
      } else if ((o = find_op(shift64_ops, ARRAY_SIZE(shift64_ops), in->op))) {
         s[0] = S64(x, in, 0, p);
         s[1] = xl_fetch(x, &in->src[1], 2 * p, TGSI_TYPE_I);
         unpack_pair(x, alu2(x, o->op, s[0], s[1]), p, r);
      } else if ((o = find_op(pair_ops, ARRAY_SIZE(pair_ops), in->op))) {
         for (unsigned k = 0; k < in->nsrc; k++)
            s[k] = S64(x, in, k, p);
         if (o->op == IR_OP_COUNT) { /* DMAD: rounded after the multiply and the add */
            v = alu2(x, IR_OP_DMUL, s[0], s[1]);
            v = alu2(x, IR_OP_DADD, v, s[2]);
         } else
            v = ir_build(&x->b, o->op, in->nsrc, s);
         unpack_pair(x, v, p, r);
      } else {
         return false;
      }
   }
   return true;
}

/* ------------------------------------------------------------------ */
/* Dispatch                                                             */

/* LRP, CMP, UMAD, SUB and CLAMP for one channel. Sources are fetched in
 * order, one statement each, so the IR does not depend on the C
 * compiler's order of evaluating arguments. */
static struct ir_instr *
three_way(struct xlate *x, const struct tgsi_insn *in, unsigned c)
{
   struct ir_instr *a = S(x, in, 0, c), *b = S(x, in, 1, c);
   struct ir_instr *d = in->nsrc > 2 ? S(x, in, 2, c) : NULL;
   switch (in->op) {
   case TGSI_OP_LRP: /* a * (b - c) + c */
      if (opt_fault_fires_sh(x->sh, OPT_FAULT_LRP_AS_MIX, "LRP at TGSI line %u in mix's order",
                             in->loc.line)) /* b and c in mix's order */
         return alu3(x, IR_OP_FMAD, a, fsub(x, d, b), b);
      return alu3(x, IR_OP_FMAD, a, fsub(x, b, d), d);
   case TGSI_OP_CMP: /* a < 0 ? b : c */
      return alu3(x, IR_OP_BCSEL, alu2(x, IR_OP_FLT, a, imm(x, 0)), b, d);
   case TGSI_OP_UMAD:
      return alu2(x, IR_OP_IADD, alu2(x, IR_OP_IMUL, a, b), d);
   case TGSI_OP_SUB:
      return fsub(x, a, b);
   default: /* CLAMP */
      return alu2(x, IR_OP_FMIN, alu2(x, IR_OP_FMAX, a, b), d);
   }
}

/* ------------------------------------------------------------------ */
/* Subgroups and the one-sample environment                             */

/*
 * The votes and READ_FIRST from ballot and read_invoc (ir.h): VOTE_ANY is
 * ballot(v) != 0, VOTE_ALL ballot(v == 0) == 0, VOTE_EQ ballot(v !=
 * first) == 0 with first = read_invoc(v, find_lsb(ballot(~0))), the first
 * active lane. BALLOT's 64-bit mask has a zero high word (32-lane
 * subgroups): x and z the low word, y and w 0, from src0.x. On 64-lane
 * subgroups the mask is ballot | ballot_hi, y and w ballot_hi, and the
 * first active lane's value read_first.
 */
static struct ir_instr *
mask_of(struct xlate *x, struct ir_instr *v)
{
   struct ir_instr *lo = alu1(x, IR_OP_BALLOT, v);
   return x->subgroup == 64 ? alu2(x, IR_OP_IOR, lo, alu1(x, IR_OP_BALLOT_HI, v)) : lo;
}

static bool
subgroup(struct xlate *x, const struct tgsi_insn *in, struct chans *r)
{
   enum tgsi_opcode op = in->op;
   bool wide = x->subgroup == 64;
   if (op == TGSI_OP_BALLOT) {
      struct ir_instr *v = S(x, in, 0, 0);
      r->v[0] = r->v[2] = alu1(x, IR_OP_BALLOT, v);
      r->v[1] = r->v[3] = wide ? alu1(x, IR_OP_BALLOT_HI, v) : imm(x, 0);
      return true;
   }
   struct ir_instr *lane = NULL;
   if (!wide && (op == TGSI_OP_READ_FIRST || op == TGSI_OP_VOTE_EQ))
      lane = alu1(x, IR_OP_FIND_LSB, alu1(x, IR_OP_BALLOT, imm(x, ~0u)));
   else if (op == TGSI_OP_READ_INVOC)
      lane = S(x, in, 1, 0);
   for (unsigned c = 0; c < 4; c++) {
      if (!(in->dst[0].mask & (1u << c)))
         continue;
      struct ir_instr *v = S(x, in, 0, c), *t, *first = NULL;
      if (op == TGSI_OP_READ_FIRST || op == TGSI_OP_VOTE_EQ)
         first = wide ? alu1(x, IR_OP_READ_FIRST, v) : alu2(x, IR_OP_READ_INVOC, v, lane);
      switch (op) {
      case TGSI_OP_READ_FIRST:
         r->v[c] = first;
         continue;
      case TGSI_OP_READ_INVOC:
         r->v[c] = alu2(x, IR_OP_READ_INVOC, v, lane);
         continue;
      case TGSI_OP_VOTE_EQ:
         t = alu2(x, IR_OP_INE, v, first);
         break;
      case TGSI_OP_VOTE_ALL:
         t = alu2(x, IR_OP_IEQ, v, imm(x, 0));
         break;
      default: /* VOTE_ANY */
         t = mask_of(x, v);
         r->v[c] = alu2(x, IR_OP_INE, t, imm(x, 0));
         continue;
      }
      t = mask_of(x, t);
      r->v[c] = alu2(x, IR_OP_IEQ, t, imm(x, 0));
   }
   return true;
}

/* What the environment fixes (the interpreter's one-sample model, as the
 * reference compiler reads it): SAMPLE_INFO is (1, 0, 0, 0) and
 * SAMPLE_POS (0.5, 0.5, 0, 0; .zw undefined) through src0's swizzle,
 * whatever the operand names. READ_HELPER is 0 in a shader without
 * DEMOTE: the environment has no helper lanes. */
static bool
one_sample(struct xlate *x, const struct tgsi_insn *in, struct chans *r)
{
   static const uint32_t info[4] = {1, 0, 0, 0}, pos[4] = {F_HALF, F_HALF, 0, 0};
   for (unsigned i = 0; in->op == TGSI_OP_READ_HELPER && i < x->ts->ninsns; i++)
      if (x->ts->insns[i].op == TGSI_OP_DEMOTE)
         return xl_unsupported(x, "in a shader with DEMOTE");
   for (unsigned c = 0; c < 4; c++) {
      if (!(in->dst[0].mask & (1u << c)))
         continue;
      unsigned k = in->src[0].swz[c] & 3;
      r->v[c] = imm(x, in->op == TGSI_OP_SAMPLE_INFO  ? info[k]
                       : in->op == TGSI_OP_SAMPLE_POS ? pos[k]
                                                      : 0);
   }
   return true;
}

/* ------------------------------------------------------------------ */
/* Normalized packing (PK2US, PK4UB, PK4B and their unpacks)            */

/* One channel packed as tgsi_exec does: unorm clamps to [0, 1] (NaN 0:
 * fsat), snorm to [-1, 1] (NaN 0), then round to nearest even of
 * value * scale, the snorm byte two's complement. */
static struct ir_instr *
pack_norm(struct xlate *x, struct ir_instr *v, bool snorm, float scale)
{
   if (snorm) {
      struct ir_instr *nan = alu2(x, IR_OP_FNE, v, v);
      v = alu3(x, IR_OP_BCSEL, nan, imm(x, 0), v);
      v = alu2(x, IR_OP_FMAX, v, imm(x, fui(-1.0f)));
      v = alu2(x, IR_OP_FMIN, v, imm(x, F_ONE));
   } else {
      v = alu1(x, IR_OP_FSAT, v);
   }
   v = alu2(x, IR_OP_FMUL, v, imm(x, fui(scale)));
   v = alu1(x, IR_OP_FROUND_EVEN, v);
   if (!snorm)
      return alu1(x, IR_OP_F2U, v);
   struct ir_instr *byte_mask = imm(x, 0xff);
   return alu2(x, IR_OP_IAND, alu1(x, IR_OP_F2I, v), byte_mask);
}

static struct ir_instr *
pack(struct xlate *x, const struct tgsi_insn *in)
{
   bool two = in->op == TGSI_OP_PK2US, snorm = in->op == TGSI_OP_PK4B;
   unsigned n = two ? 2 : 4, bits = 32 / n;
   float scale = two ? 65535.0f : snorm ? 127.0f : 255.0f;
   struct ir_instr *r = NULL;
   for (unsigned c = 0; c < n; c++) {
      struct ir_instr *v = pack_norm(x, S(x, in, 0, c), snorm, scale);
      if (c)
         v = alu2(x, IR_OP_ISHL, v, imm(x, bits * c));
      r = c ? alu2(x, IR_OP_IOR, r, v) : v;
   }
   return r;
}

/* Channel c of UP2US/UP4UB/UP4B: the field over its scale (a multiply by
 * the reciprocal: the interpreter flags the unpacks RCP, as DIV, and the
 * reference compiler does the same); a signed byte over 127 is at least -1. */
static struct ir_instr *
unpack_norm(struct xlate *x, enum tgsi_opcode op, struct ir_instr *w, unsigned c)
{
   bool two = op == TGSI_OP_UP2US;
   unsigned at = two ? 16 * (c & 1) : 8 * c;
   struct ir_instr *v;
   if (op == TGSI_OP_UP4B) {
      v = at < 24 ? alu2(x, IR_OP_ISHL, w, imm(x, 24 - at)) : w;
      v = alu1(x, IR_OP_I2F, alu2(x, IR_OP_ISHR, v, imm(x, 24)));
      v = alu2(x, IR_OP_FMUL, v, imm(x, fui(1.0f / 127.0f)));
      return alu2(x, IR_OP_FMAX, v, imm(x, fui(-1.0f)));
   }
   v = at ? alu2(x, IR_OP_USHR, w, imm(x, at)) : w;
   if (at + (two ? 16 : 8) < 32)
      v = alu2(x, IR_OP_IAND, v, imm(x, two ? 0xffffu : 0xffu));
   v = alu1(x, IR_OP_U2F, v);
   return alu2(x, IR_OP_FMUL, v, imm(x, fui(1.0f / (two ? 65535.0f : 255.0f))));
}

static bool
special(struct xlate *x, const struct tgsi_insn *in, struct chans *r)
{
   uint8_t m = in->dst[0].mask;
   struct ir_instr *t;
   switch (in->op) {
   case TGSI_OP_NOP:
      return true;
   case TGSI_OP_KILL:
      ir_build(&x->b, IR_OP_KILL, 0, NULL);
      return true;
   case TGSI_OP_DEMOTE: /* a deferred kill (demote_begin) */
      x->defs[x->demote_var] = imm(x, ~0u);
      return true;
   case TGSI_OP_KILL_IF:
   case TGSI_OP_KIL:
      kill_if(x, in);
      return true;
   case TGSI_OP_BARRIER:
      ir_build(&x->b, IR_OP_BARRIER, 0, NULL);
      return true;
   case TGSI_OP_MEMBAR:
      ir_build(&x->b, IR_OP_MEMORY_BARRIER, 0, NULL);
      return true;
   case TGSI_OP_EMIT:
   case TGSI_OP_ENDPRIM:
      return emit(x, in);
   case TGSI_OP_DP2:
   case TGSI_OP_DP3:
   case TGSI_OP_DP4:
      t = dot(x, in, in->op == TGSI_OP_DP2 ? 2 : in->op == TGSI_OP_DP3 ? 3 : 4);
      break;
   case TGSI_OP_DPH:
      t = dot(x, in, 3);
      t = alu2(x, IR_OP_FADD, t, S(x, in, 1, 3));
      break;
   case TGSI_OP_PK2H:
      t = S(x, in, 0, 0);
      t = alu2(x, IR_OP_PACK_HALF, t, S(x, in, 0, 1));
      break;
   case TGSI_OP_PK2US:
   case TGSI_OP_PK4UB:
   case TGSI_OP_PK4B:
      t = pack(x, in);
      break;
   case TGSI_OP_UP2US:
   case TGSI_OP_UP4UB:
   case TGSI_OP_UP4B:
      t = S(x, in, 0, 0);
      for (unsigned c = 0; c < 4; c++)
         if (m & (1u << c))
            r->v[c] = unpack_norm(x, in->op, t, c);
      return true;
   case TGSI_OP_LRP:
   case TGSI_OP_CMP:
   case TGSI_OP_UMAD:
   case TGSI_OP_SUB:
   case TGSI_OP_CLAMP:
      for (unsigned c = 0; c < 4; c++)
         if (m & (1u << c))
            r->v[c] = three_way(x, in, c);
      return true;
   case TGSI_OP_ARL:
   case TGSI_OP_ARR:
      for (unsigned c = 0; c < 4; c++)
         if (m & (1u << c)) {
            struct ir_instr *v = S(x, in, 0, c);
            if (in->op == TGSI_OP_ARR)
               v = alu2(x, IR_OP_FADD, v, imm(x, F_HALF));
            r->v[c] = alu1(x, IR_OP_F2I, alu1(x, IR_OP_FFLOOR, v));
         }
      return true;
   case TGSI_OP_SFL:
   case TGSI_OP_STR:
      for (unsigned c = 0; c < 4; c++)
         r->v[c] = imm(x, in->op == TGSI_OP_STR ? F_ONE : 0);
      return true;
   case TGSI_OP_LIT:
      lit(x, in, r, m);
      return true;
   case TGSI_OP_EXP:
   case TGSI_OP_LOG:
      exp_log(x, in, r);
      return true;
   case TGSI_OP_DST:
      r->v[0] = imm(x, F_ONE);
      t = S(x, in, 0, 1);
      r->v[1] = alu2(x, IR_OP_FMUL, t, S(x, in, 1, 1));
      r->v[2] = S(x, in, 0, 2);
      r->v[3] = S(x, in, 1, 3);
      return true;
   case TGSI_OP_XPD:
      cross(x, in, r);
      return true;
   case TGSI_OP_NRM:
   case TGSI_OP_NRM4: {
      /* legacy: src * rsq(dot(src, src)); NRM sets w to 1 */
      unsigned n = in->op == TGSI_OP_NRM ? 3 : 4;
      struct ir_instr *a = S(x, in, 0, 0);
      t = alu2(x, IR_OP_FMUL, a, a);
      for (unsigned c = 1; c < n; c++) {
         a = S(x, in, 0, c);
         t = alu3(x, IR_OP_FMAD, a, a, t);
      }
      t = alu1(x, IR_OP_FRSQ, t);
      for (unsigned c = 0; c < n; c++)
         if (m & (1u << c))
            r->v[c] = alu2(x, IR_OP_FMUL, S(x, in, 0, c), t);
      if (n == 3)
         r->v[3] = imm(x, F_ONE);
      return true;
   }
   case TGSI_OP_SCS:
      r->v[0] = alu1(x, IR_OP_FCOS, S(x, in, 0, 0));
      r->v[1] = alu1(x, IR_OP_FSIN, S(x, in, 0, 0));
      r->v[2] = imm(x, 0);
      r->v[3] = imm(x, F_ONE);
      return true;
   case TGSI_OP_UP2H:
      t = S(x, in, 0, 0);
      r->v[0] = r->v[2] = alu1(x, IR_OP_UNPACK_HALF_LO, t);
      r->v[1] = r->v[3] = alu1(x, IR_OP_UNPACK_HALF_HI, t);
      return true;
   case TGSI_OP_INTERP_CENTROID:
   case TGSI_OP_INTERP_SAMPLE:
   case TGSI_OP_INTERP_OFFSET:
      return interp(x, in, r);
   case TGSI_OP_LOAD:
   case TGSI_OP_STORE:
      return load_store(x, in, r);
   case TGSI_OP_RESQ:
      return resource_size(x, in, r);
   case TGSI_OP_BALLOT:
   case TGSI_OP_VOTE_ANY:
   case TGSI_OP_VOTE_ALL:
   case TGSI_OP_VOTE_EQ:
   case TGSI_OP_READ_FIRST:
   case TGSI_OP_READ_INVOC:
      return subgroup(x, in, r);
   case TGSI_OP_SAMPLE_INFO:
   case TGSI_OP_SAMPLE_POS:
   case TGSI_OP_READ_HELPER:
      return one_sample(x, in, r);
   default:
      for (size_t i = 0; i < ARRAY_SIZE(atomics); i++)
         if (atomics[i].tgsi == in->op)
            return atomic(x, in, atomics[i].aop, r);
      if (tgsi_op_info[in->op].flags & TGSI_OPF_TEX || in->op == TGSI_OP_SAMPLE ||
          in->op == TGSI_OP_SAMPLE_B || in->op == TGSI_OP_SAMPLE_C ||
          in->op == TGSI_OP_SAMPLE_C_LZ || in->op == TGSI_OP_SAMPLE_D ||
          in->op == TGSI_OP_SAMPLE_L || in->op == TGSI_OP_SAMPLE_I ||
          in->op == TGSI_OP_SAMPLE_I_MS || in->op == TGSI_OP_GATHER4 || in->op == TGSI_OP_LOD ||
          in->op == TGSI_OP_SVIEWINFO) {
         if (in->op == TGSI_OP_SAMP2HND)
            return xl_unsupported(x, NULL);
         return texture(x, in, r);
      }
      if (in->op >= TGSI_OP_F2D && tgsi_op_info[in->op].type != TGSI_TYPE_F && in->sat)
         return xl_unsupported(x, "with _SAT on a 64-bit result");
      if (wide(x, in, r))
         return true;
      return xl_unsupported(x, NULL);
   }
   for (unsigned c = 0; c < 4; c++)
      r->v[c] = t;
   return true;
}

bool
xl_insn(struct xlate *x, const struct tgsi_insn *in)
{
   if (in->op == TGSI_OP_FBFETCH && in->src[0].reg.file == TGSI_FILE_OUT &&
       !in->src[0].reg.indirect) { /* the pixel's colour: an input (tgsi.h) */
      struct tgsi_insn mov = *in;
      mov.op = TGSI_OP_MOV;
      mov.src[0].reg.file = TGSI_FILE_IN;
      mov.src[0].reg.index = (int32_t)tgsi_fbfetch_input(x->ts, (uint32_t)in->src[0].reg.index);
      mov.src[0].reg.has_dim = false;
      return xl_insn(x, &mov);
   }
   struct chans r = {{NULL, NULL, NULL, NULL}};
   uint8_t mask = in->ndst ? in->dst[0].mask : 0;
   const struct comp_op *o = find_op(comp_ops, ARRAY_SIZE(comp_ops), in->op);
   const struct comp_op *ro = find_op(repl_ops, ARRAY_SIZE(repl_ops), in->op);
   if (o) {
      for (unsigned c = 0; c < 4; c++)
         if (mask & (1u << c))
            r.v[c] = comp(x, in, o, c);
   } else if (ro) {
      struct ir_instr *t = mask ? comp(x, in, ro, 0) : NULL;
      for (unsigned c = 0; c < 4; c++)
         r.v[c] = t;
   } else if (!special(x, in, &r)) {
      return false;
   }
   if (x->failed || !in->ndst || in->op == TGSI_OP_STORE)
      return !x->failed;
   for (unsigned c = 0; c < 4; c++) {
      if (!(mask & (1u << c)) || !r.v[c])
         continue;
      struct ir_instr *v = r.v[c];
      if (in->sat)
         v = alu1(x, IR_OP_FSAT, v);
      xl_write(x, &in->dst[0], c, v);
   }
   return !x->failed;
}
