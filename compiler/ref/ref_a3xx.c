/*
 * The reference compiler's Adreno a3xx target (isa/models/a3xx.yaml): the
 * scalar primitives of ref.h as a3xx instructions, constant loads, a0.x
 * relative addressing, textures, memory, kill and branches. The TGSI
 * expansions themselves are in ref_ops.c.
 *
 * Primitives are one instruction each except: IMUL (mull.u and two
 * madsh.m16: the 16-bit partial products), FNE etc. are cmps with the
 * matching condition (1/0 results), UMSB/IMSB (31 - clz), F2I_FLOOR (cov
 * rounding toward -inf). FFMA is refused: a3xx has no fused multiply-add.
 *
 * Indirect operands: index = clamp(address + literal, 0, n - 1), scaled to
 * scalar registers, moved to a0.x (cov to s16), then a relative cat1 mov
 * (r<a0.x + c> or c<a0.x + c>). A CONST index outside the buffer reads 0,
 * the interpreter's rule; other files are undefined there, the clamp only
 * keeps the access inside the file.
 *
 * Textures (a3_tex, operands read by ref_tex.c): sam/samb/saml/isaml/
 * samgq with the groups laid out as ir3 does (src1 = coordinates,
 * reference, layer, w -- samgq: padded to 4, then ddx and ddy; src2 =
 * offsets, bias or level; .3d/.s/.a/.p/.o say which are there), the four
 * results in consecutive registers; TXP is sam.p (the texture unit
 * divides); TXF is isaml with the coordinates shifted left by the level
 * (a3xx wants level-0 units); TXQ is getsize, LODQ getlod. Memory: one
 * ldg/stg (buffers, at EMU_ADDR_BUFFER(i)) or ldl/stl (shared memory) per
 * channel; atomics are atomic.OP.l/.g, float add and the wrapping inc/dec
 * compare-and-swap loops. DDX/DDY are dsx/dsy (the quad's coarse ones).
 * Branches: cmps into p0.x, then br (with !p0.x for a false test) or jump.
 *
 * Refused: what the model cannot express -- FMA, doubles, fine
 * derivatives, gathers, multisample textures (TXQS, MS fetches), texture
 * offsets beyond x and y, subgroup ops. (Geometry and tessellation
 * shaders are refused by ref.c: the hardware has no such stage. 64-bit
 * integers are 32-bit pairs, ref_int64.c.)
 * BARRIER is bar.g.l; images are read and written with ldg/stg at their
 * texel addresses.
 */
#include "compiler/ref/ref.h"
#include "emu/emu.h"

#define R(x) ref_r(c, (x))

enum { SPECIAL_HR }; /* c->special[]: the half register file */

/* An ALU instruction: d = op(a, b, e), as many sources as the op has. */
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
a3_mov_imm(struct ref_ctx *c, unsigned d, uint32_t v)
{
   cov(c, "u32", "u32", R(d), ref_imm(v));
}

static void
a3_copy(struct ref_ctx *c, unsigned d, unsigned s)
{
   cov(c, "u32", "u32", R(d), R(s));
}

static unsigned
a3_load_const(struct ref_ctx *c, unsigned slot)
{
   unsigned d = ref_tmp(c);
   cov(c, "u32", "u32", R(d), ref_c(c, slot));
   return d;
}

static void
cmp(struct ref_ctx *c, const char *op, const char *cond, struct isa_opnd dst, struct isa_opnd a,
    struct isa_opnd b)
{
   struct isa_insn *in = ref_emit(c, op);
   ref_set_mod(c, in, "cond", cond);
   in->dst[0] = dst;
   in->src[0] = a;
   in->src[1] = b;
}

/* ------------------------------------------------------------------ */
/* Primitives                                                           */

/* One machine op per primitive where a3xx has it: mnemonic, and for the
 * compares the condition (cmps writes 1 or 0). */
static const struct {
   enum ref_prim prim;
   const char *op, *cond;
} prims[] = {
    {REF_P_FADD, "add.f", NULL},   {REF_P_FMUL, "mul.f", NULL},     {REF_P_FMAD, "mad.f32", NULL},
    {REF_P_FMIN, "min.f", NULL},   {REF_P_FMAX, "max.f", NULL},     {REF_P_FFLOOR, "floor.f", NULL},
    {REF_P_FCEIL, "ceil.f", NULL}, {REF_P_FTRUNC, "trunc.f", NULL}, {REF_P_FRNDNE, "rndne.f", NULL},
    {REF_P_FRCP, "rcp", NULL},     {REF_P_FRSQ, "rsq", NULL},       {REF_P_FSQRT, "sqrt", NULL},
    {REF_P_FEXP2, "exp2", NULL},   {REF_P_FLOG2, "log2", NULL},     {REF_P_FSIN, "sin", NULL},
    {REF_P_FCOS, "cos", NULL},     {REF_P_FLT, "cmps.f", "lt"},     {REF_P_FLE, "cmps.f", "le"},
    {REF_P_FGT, "cmps.f", "gt"},   {REF_P_FGE, "cmps.f", "ge"},     {REF_P_FEQ, "cmps.f", "eq"},
    {REF_P_FNE, "cmps.f", "ne"},   {REF_P_ILT, "cmps.s", "lt"},     {REF_P_IGE, "cmps.s", "ge"},
    {REF_P_IGT, "cmps.s", "gt"},   {REF_P_ULT, "cmps.u", "lt"},     {REF_P_UGE, "cmps.u", "ge"},
    {REF_P_IEQ, "cmps.u", "eq"},   {REF_P_INE, "cmps.u", "ne"},     {REF_P_IADD, "add.u", NULL},
    {REF_P_ISUB, "sub.u", NULL},   {REF_P_IMIN, "min.s", NULL},     {REF_P_IMAX, "max.s", NULL},
    {REF_P_UMIN, "min.u", NULL},   {REF_P_UMAX, "max.u", NULL},     {REF_P_AND, "and.b", NULL},
    {REF_P_OR, "or.b", NULL},      {REF_P_XOR, "xor.b", NULL},      {REF_P_NOT, "not.b", NULL},
    {REF_P_SHL, "shl.b", NULL},    {REF_P_SHR, "shr.b", NULL},      {REF_P_ASHR, "ashr.b", NULL},
    {REF_P_BREV, "bfrev.b", NULL}, {REF_P_POPC, "cbits.b", NULL},   {REF_P_SEL, "sel.b32", NULL},
};

static const struct {
   enum ref_prim prim;
   const char *from, *to, *round;
} covs[] = {
    {REF_P_F2I, "f32", "s32", "default"},       {REF_P_F2U, "f32", "u32", "default"},
    {REF_P_I2F, "s32", "f32", "default"},       {REF_P_U2F, "u32", "f32", "default"},
    {REF_P_F2I_FLOOR, "f32", "s32", "neg_inf"},
};

static unsigned
a3_prim(struct ref_ctx *c, enum ref_prim op, unsigned a, unsigned b, unsigned e)
{
   unsigned d = ref_tmp(c);
   for (unsigned k = 0; k < ARRAY_SIZE(prims); k++) {
      if (prims[k].prim != op)
         continue;
      if (prims[k].cond)
         cmp(c, prims[k].op, prims[k].cond, R(d), R(a), R(b));
      else
         emit(c, prims[k].op, d, R(a), R(b), R(e));
      return d;
   }
   for (unsigned k = 0; k < ARRAY_SIZE(covs); k++)
      if (covs[k].prim == op) {
         ref_set_mod(c, cov(c, covs[k].from, covs[k].to, R(d), R(a)), "round", covs[k].round);
         return d;
      }
   unsigned t, u;
   switch (op) {
   case REF_P_FNEG:
      emit(c, "absneg.f", d, ref_neg(R(a)), R(0), R(0));
      return d;
   case REF_P_FABS:
      emit(c, "absneg.f", d, ref_abs(R(a)), R(0), R(0));
      return d;
   case REF_P_INEG:
      emit(c, "absneg.s", d, ref_neg(R(a)), R(0), R(0));
      return d;
   case REF_P_IMUL: /* lo(a) lo(b) + (hi(a) lo(b) << 16) + (hi(b) lo(a) << 16) */
      t = ref_tmp(c);
      u = ref_tmp(c);
      emit(c, "mull.u", t, R(a), R(b), R(0));
      emit(c, "madsh.m16", u, R(a), R(b), R(t));
      emit(c, "madsh.m16", d, R(b), R(a), R(u));
      return d;
   case REF_P_F2H: /* through a half register: cov.f32f16, then its bits zero-extended */
   case REF_P_H2F: {
      struct isa_opnd h = {
          .kind = ISA_OPND_REG, .file = (uint8_t)c->special[SPECIAL_HR], .index = (uint16_t)d};
      if (op == REF_P_F2H) {
         cov(c, "f32", "f16", h, R(a));
         cov(c, "u16", "u32", R(d), h);
      } else {
         cov(c, "u32", "u16", h, R(a));
         cov(c, "f16", "f32", R(d), h);
      }
      return d;
   }
   case REF_P_UMSB: /* 31 - clz: -1 for 0 */
   case REF_P_IMSB:
      t = ref_tmp(c);
      emit(c, op == REF_P_UMSB ? "clz.b" : "clz.s", t, R(a), R(0), R(0));
      emit(c, "sub.u", d, ref_imm(31), R(t), R(0));
      return d;
   default:
      ref_unsupported(c, "%s",
                      op == REF_P_FFMA ? "a3xx has no fused multiply-add"
                                       : "no a3xx instruction for this operation");
      return d;
   }
}

/* ------------------------------------------------------------------ */
/* Indirect operands through a0.x                                       */

#define P2(op, a, b) a3_prim(c, REF_P_##op, (a), (b), 0)

static bool
a3_load_indirect(struct ref_ctx *c, const struct tgsi_reg *r, unsigned comp, unsigned *out)
{
   struct tgsi_reg ar = {.file = r->ind.file, .index = (int32_t)r->ind.index};
   int a = ref_home(c, &ar, r->ind.comp);
   unsigned base = 0, n = 0;
   bool is_const = r->file == TGSI_FILE_CONST || r->file == TGSI_FILE_IMM;
   *out = 0;
   if (r->dim_indirect || a < 0) {
      ref_unsupported(c, "indirect addressing through %s",
                      r->dim_indirect ? "a dimension (the buffer or vertex chosen per lane)"
                                      : "this register");
      return true;
   }
   if (r->file == TGSI_FILE_CONST) {
      int64_t b = r->has_dim ? r->dim : 0;
      if (b < 0 || b >= 16 || !c->ccount[b]) {
         ref_unsupported(c, "indirect read of an undeclared constant buffer");
         return true;
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
      if (h < 0 || !c->count[r->file])
         return false;
      base = (unsigned)h;
      n = c->count[r->file];
   }
   /* The result gets its register first; the steps' temporaries die here
    * (an instruction may read several indirect operands). */
   unsigned res = ref_tmp(c), mark = c->scratch_next;
   unsigned i0 = P2(IADD, (unsigned)a, ref_imm_reg(c, (uint32_t)r->index));
   unsigned i1 = P2(IMAX, i0, ref_imm_reg(c, 0));
   unsigned i2 = P2(IMIN, i1, ref_imm_reg(c, n - 1));
   unsigned s4 = P2(SHL, i2, ref_imm_reg(c, 2));
   unsigned sc = P2(IADD, s4, ref_imm_reg(c, base));
   cov(c, "s32", "s16", ref_a(c, 0), R(sc));
   struct isa_opnd rel = {.kind = (uint8_t)(is_const ? ISA_OPND_CONST : ISA_OPND_REG),
                          .file = (uint8_t)(is_const ? c->cfile : c->gpr),
                          .flags = ISA_OPND_F_REL,
                          .bank = 0,
                          .value = comp};
   unsigned v = ref_tmp(c);
   cov(c, "u32", "u32", R(v), rel);
   if (r->file == TGSI_FILE_CONST) {
      unsigned ok = P2(IEQ, i0, i2);
      v = a3_prim(c, REF_P_SEL, v, ok, ref_imm_reg(c, 0));
   }
   a3_copy(c, res, v);
   c->scratch_next = mark;
   *out = res;
   return true;
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
   unsigned any = ref_imm_reg(c, 0), zero = ref_imm_reg(c, 0);
   for (unsigned ch = 0; ch < 4; ch++) {
      unsigned t = P2(FLT, ref_fetch(c, in, 0, ch), zero);
      any = P2(OR, any, t);
   }
   kill_if_set(c, any);
}

/* Textures, laid out as ir3 does (a3xx.yaml cat5): src1 = coordinates (a
 * 1-D lookup repeats x as its y), [reference], [layer], [w]; src2 =
 * [offsets x, y], [bias or level]. Integer fetches are isaml with the
 * coordinates in level-0 units (shifted left by the level). */
static bool
a3_tex(struct ref_ctx *c, const struct ref_texargs *a, unsigned res[4])
{
   unsigned v1[12], v2[4], n1 = 0, n2 = 0, d = res[0];
   if (a->samples)
      return ref_unsupported(
                 c, "no sample-count query in the a3xx model (it has no multisample textures)"),
             false;
   if (a->query) { /* getsize: the level, then a pair's second register */
      v1[n1++] = (unsigned)a->lod;
      v1[n1++] = ref_imm_reg(c, 0);
      unsigned s1 = ref_group(c, v1, n1);
      struct isa_insn *g = ref_emit(c, "getsize");
      ref_set_mod(c, g, "textype", "u32");
      g->dst[0] = R(d);
      g->src[0] = R(s1);
      g->src[1] = ref_imm(a->unit);
      g->src[2] = ref_imm(a->unit);
      return c->status == COMPILE_OK;
   }
   if (a->lodq) { /* getlod: x.8 fixed point, x the level used, y the computed one */
      for (unsigned k = 0; k < a->nsp; k++)
         v1[n1++] = a->coord[k];
      if (a->nsp == 1)
         v1[n1++] = v1[0];
      unsigned s1 = ref_group(c, v1, n1);
      struct isa_insn *g = ref_emit(c, "getlod");
      ref_set_mod(c, g, "textype", "s32");
      ref_set_mod(c, g, "wrmask", "xy");
      ref_set_mod_int(c, g, "t3d", a->nsp == 3);
      g->dst[0] = R(d);
      g->src[0] = R(s1);
      g->src[1] = ref_imm(a->unit);
      g->src[2] = ref_imm(a->unit);
      unsigned scale = ref_imm_reg(c, 0x3b800000u); /* 1/256 */
      res[0] = P2(FMUL, a3_prim(c, REF_P_I2F, d, 0, 0), scale);
      res[1] = P2(FMUL, a3_prim(c, REF_P_I2F, d + 1, 0, 0), scale);
      res[2] = res[3] = ref_imm_reg(c, 0);
      return c->status == COMPILE_OK;
   }
   if (a->gather)
      return ref_unsupported(c, "a3xx has no gather (ir3: a3xx did not support it)"), false;
   if (a->deriv && a->noff)
      return ref_unsupported(c, "samgq takes no offsets (it has no src2)"), false;
   if (a->sample >= 0 || a->target == TGSI_TEX_T_BUFFER)
      return ref_unsupported(c, "multisample and buffer fetches are not in the a3xx model"), false;
   if (a->noff && a->nsp > 2)
      return ref_unsupported(c, "a3xx offsets cover x and y only"), false;
   bool lod = a->lod_mode != REF_LOD_AUTO;
   unsigned level = a->lod_mode == REF_LOD_ZERO ? ref_imm_reg(c, a->fetch ? 0 : fui(0.0f))
                    : lod ? (unsigned)a->lod
                                                : 0;
   for (unsigned k = 0; k < a->nsp; k++)
      v1[n1++] = a->fetch ? P2(SHL, a->coord[k], level) : a->coord[k];
   if (a->nsp == 1)
      v1[n1++] = v1[0];
   if (a->ref >= 0)
      v1[n1++] = (unsigned)a->ref;
   if (a->layer >= 0)
      v1[n1++] = (unsigned)a->layer;
   if (a->proj >= 0)
      v1[n1++] = (unsigned)a->proj;
   if (a->deriv) { /* samgq: padded to 4, then ddx and ddy, at least 2 each */
      if (n1 > 4)
         return ref_unsupported(c, "samgq: more than 4 values before the derivatives"), false;
      unsigned zero = ref_imm_reg(c, 0);
      while (n1 < 4)
         v1[n1++] = zero;
      for (unsigned k = 0; k < MAX2(a->nsp, 2u); k++)
         v1[n1++] = k < a->nsp ? a->ddx[k] : zero;
      for (unsigned k = 0; k < MAX2(a->nsp, 2u); k++)
         v1[n1++] = k < a->nsp ? a->ddy[k] : zero;
   }
   for (unsigned k = 0; k < a->noff; k++)
      v2[n2++] = a->off[k];
   if (a->noff == 1)
      v2[n2++] = ref_imm_reg(c, 0);
   if (lod || a->fetch)
      v2[n2++] = level;
   unsigned s1 = ref_group(c, v1, n1), s2 = n2 ? ref_group(c, v2, n2) : 0;
   const char *op = a->deriv                      ? "samgq"
                    : a->fetch                    ? "isaml"
                    : a->lod_mode == REF_LOD_BIAS ? "samb"
                    : lod                         ? "saml"
                    : n2                          ? "samo"
                                                  : "sam";
   struct isa_insn *t = ref_emit(c, op);
   ref_set_mod(c, t, "textype", a->fetch ? "u32" : "f32");
   t->dst[0] = R(d);
   t->src[0] = R(s1);
   unsigned k = 1;
   if (n2)
      t->src[k++] = R(s2);
   t->src[k++] = ref_imm(a->unit);
   t->src[k] = ref_imm(a->unit);
   ref_set_mod_int(c, t, "t3d", a->nsp == 3);
   ref_set_mod_int(c, t, "ts", a->ref >= 0);
   ref_set_mod_int(c, t, "ta", a->layer >= 0);
   ref_set_mod_int(c, t, "tp", a->proj >= 0);
   if (strcmp(op, "samo"))
      ref_set_mod_int(c, t, "to", a->noff != 0);
   return c->status == COMPILE_OK;
}

/* Memory words (LOAD/STORE, ref_ops.c): ldl/stl for shared memory,
 * ldg/stg for the global space, one u32 component each. */
static void
a3_load_word(struct ref_ctx *c, bool shared, unsigned d, unsigned addr, uint32_t off)
{
   struct isa_insn *l = ref_emit(c, shared ? "ldl" : "ldg");
   ref_set_mod(c, l, "type", "u32");
   l->dst[0] = R(d);
   l->src[0] = R(addr);
   l->src[1] = ref_imm(off);
   l->src[2] = ref_imm(1);
}

static void
a3_store_word(struct ref_ctx *c, bool shared, unsigned addr, uint32_t off, unsigned v)
{
   struct isa_insn *s = ref_emit(c, shared ? "stl" : "stg");
   ref_set_mod(c, s, "type", "u32");
   s->src[0] = R(addr);
   s->src[1] = ref_imm(off);
   s->src[2] = R(v);
   s->src[3] = ref_imm(1);
}

/* The new word of a compare-and-swap loop: ATOMFADD old + v;
 * ATOMINC_WRAP old >= v ? 0 : old + 1; ATOMDEC_WRAP old == 0 || old > v
 * ? v : old - 1 (unsigned; TGSI's, env_mem_atomic's). */
static unsigned
cas_new(struct ref_ctx *c, enum tgsi_opcode op, unsigned old, unsigned v)
{
   unsigned zero = ref_imm_reg(c, 0), one = ref_imm_reg(c, 1);
   switch (op) {
   case TGSI_OP_ATOMFADD:
      return a3_prim(c, REF_P_FADD, old, v, 0);
   case TGSI_OP_ATOMINC_WRAP: {
      unsigned inc = a3_prim(c, REF_P_IADD, old, one, 0);
      return a3_prim(c, REF_P_SEL, zero, a3_prim(c, REF_P_UGE, old, v, 0), inc);
   }
   default: {
      unsigned is0 = a3_prim(c, REF_P_IEQ, old, zero, 0);
      unsigned wrap = a3_prim(c, REF_P_OR, is0, a3_prim(c, REF_P_ULT, v, old, 0), 0);
      return a3_prim(c, REF_P_SEL, v, wrap, a3_prim(c, REF_P_ISUB, old, one, 0));
   }
   }
}

/* ATOMFADD, ATOMINC_WRAP, ATOMDEC_WRAP: a3xx has no float atomic and its
 * inc/dec are not publicly described, so a compare-and-swap loop: read
 * the word, then until the swap finds what was read, swap in the new
 * word made from it (bits compared, as cmpxchg does). The lanes' swaps
 * run in lane order, so each pass lets the lowest waiting lane through:
 * the updates happen in lane order, as the interpreter does them, and
 * each lane gets the word from before its own update. */
static void
atomic_cas_loop(struct ref_ctx *c, const struct tgsi_insn *in, unsigned addr, bool shared)
{
   unsigned v = ref_fetch(c, in, 2, 0), old = ref_tmp(c), data = ref_tmp(c), flag;
   ref_tmp(c);
   a3_load_word(c, shared, old, addr, 0);
   int top = ref_label(c);
   ref_place(c, top);
   unsigned mark = c->scratch_next;
   a3_copy(c, data, cas_new(c, in->op, old, v)); /* (new, compare) */
   a3_copy(c, data + 1, old);
   unsigned prev = ref_tmp(c);
   struct isa_insn *a = ref_emit(c, shared ? "atomic.l" : "atomic.g");
   ref_set_mod(c, a, "atomop", "cmpxchg");
   ref_set_mod(c, a, "type", "u32");
   a->dst[0] = R(prev);
   a->src[0] = R(addr);
   a->src[1] = R(data);
   flag = a3_prim(c, REF_P_INE, prev, old, 0);
   a3_copy(c, old, prev);
   int done = ref_label(c); /* a branch target: the lanes join there, (jp) */
   c->t->branch(c, REF_TEST_INT_NZ, flag, 0, false, done);
   c->t->jump(c, top);
   ref_place(c, done);
   c->scratch_next = mark;
   ref_atomic_result(c, in, old);
}

/* ATOM*: atomic.OP.TYPE.l (shared memory) or .g (buffers, images) at the
 * resource's address; the old word goes to every written channel. Float
 * add and the wrapping increment/decrement are compare-and-swap loops. */
static void
a3_atomic(struct ref_ctx *c, const struct tgsi_insn *in)
{
   if (in->op == TGSI_OP_ATOMFADD || in->op == TGSI_OP_ATOMINC_WRAP ||
       in->op == TGSI_OP_ATOMDEC_WRAP) {
      unsigned addr;
      bool shared;
      if (ref_mem_address(c, in, &in->src[0].reg, 1, &addr, &shared))
         atomic_cas_loop(c, in, addr, shared);
      return;
   }
   static const struct {
      enum tgsi_opcode op;
      const char *name, *type;
   } ops[] = {
       {TGSI_OP_ATOMUADD, "add", "u32"},    {TGSI_OP_ATOMXCHG, "xchg", "u32"},
       {TGSI_OP_ATOMCAS, "cmpxchg", "u32"}, {TGSI_OP_ATOMAND, "and", "u32"},
       {TGSI_OP_ATOMOR, "or", "u32"},       {TGSI_OP_ATOMXOR, "xor", "u32"},
       {TGSI_OP_ATOMUMIN, "min", "u32"},    {TGSI_OP_ATOMUMAX, "max", "u32"},
       {TGSI_OP_ATOMIMIN, "min", "s32"},    {TGSI_OP_ATOMIMAX, "max", "s32"},
   };
   unsigned k = 0;
   while (k < ARRAY_SIZE(ops) && ops[k].op != in->op)
      k++;
   if (k == ARRAY_SIZE(ops)) {
      ref_unsupported(c, "no a3xx atomic for this operation");
      return;
   }
   unsigned addr, data;
   bool shared;
   if (!ref_atomic_operands(c, in, false, &addr, &shared, &data)) /* cmpxchg: (new, compare) */
      return;
   unsigned d = ref_tmp(c);
   struct isa_insn *a = ref_emit(c, shared ? "atomic.l" : "atomic.g");
   ref_set_mod(c, a, "atomop", ops[k].name);
   ref_set_mod(c, a, "type", ops[k].type);
   a->dst[0] = R(d);
   a->src[0] = R(addr);
   a->src[1] = R(data);
   ref_atomic_result(c, in, d);
}

/* DDX/DDY: dsx/dsy, the quad's coarse derivatives. */
static void
deriv(struct ref_ctx *c, const struct tgsi_insn *in)
{
   unsigned res[4] = {0, 0, 0, 0};
   for (unsigned ch = 0; ch < 4 && c->status == COMPILE_OK; ch++) {
      if (!(in->dst[0].mask & (1u << ch)))
         continue;
      unsigned v = ref_fetch(c, in, 0, ch);
      res[ch] = ref_tmp(c);
      struct isa_insn *d = ref_emit(c, in->op == TGSI_OP_DDX ? "dsx" : "dsy");
      ref_set_mod(c, d, "textype", "f32");
      ref_set_mod(c, d, "wrmask", "x");
      d->dst[0] = R(res[ch]);
      d->src[0] = R(v);
   }
   ref_store(c, in, res);
}

static bool
a3_special(struct ref_ctx *c, const struct tgsi_insn *in)
{
   switch (in->op) {
   case TGSI_OP_KILL:
      kill_if_set(c, ref_imm_reg(c, 1));
      return true;
   case TGSI_OP_KILL_IF:
   case TGSI_OP_KIL:
      kill_if(c, in);
      return true;
   case TGSI_OP_MEMBAR: /* every memory access is waited for in full already */
      return true;
   case TGSI_OP_DDX:
   case TGSI_OP_DDY:
      deriv(c, in);
      return true;
   case TGSI_OP_BARRIER: { /* ordering global and local memory, as ir3's */
      struct isa_insn *b = ref_emit(c, "bar");
      ref_set_mod_int(c, b, "bar_g", 1);
      ref_set_mod_int(c, b, "bar_l", 1);
      return true;
   }
   default:
      return false;
   }
}

/* Why an opcode without an expansion is refused. */
static const char *
a3_why(enum tgsi_opcode op)
{
   switch (op) {
   case TGSI_OP_DDX_FINE:
   case TGSI_OP_DDY_FINE:
      return "a3xx has no fine derivatives (per-pixel dsxpp/dsypp came with a6xx)";
   case TGSI_OP_VOTE_ANY:
   case TGSI_OP_VOTE_ALL:
   case TGSI_OP_VOTE_EQ:
   case TGSI_OP_BALLOT:
   case TGSI_OP_READ_FIRST:
   case TGSI_OP_READ_INVOC:
      return "a3xx has no subgroup operations (ir3 has them from a6xx: getone, ballot, shuffles)";
   default:
      return NULL;
   }
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
   int hr = isa_file_find(c->m, "hr");
   if (c->pfile < 0 || c->afile < 0 || hr < 0) {
      ref_error(c, "the a3xx model lacks p0, a0 or hr");
      return false;
   }
   c->special[SPECIAL_HR] = (unsigned)hr; /* half registers: a separate file on a3xx */
   return true;
}

const struct ref_target ref_target_a3xx = {
    .model = "a3xx",
    .init = a3_init,
    .prim = a3_prim,
    .mov_imm = a3_mov_imm,
    .copy = a3_copy,
    .load_const = a3_load_const,
    .load_indirect = a3_load_indirect,
    .special = a3_special,
    .load_word = a3_load_word,
    .store_word = a3_store_word,
    .atomic = a3_atomic,
    .kill_flag = kill_if_set,
    .tex = a3_tex,
    .why = a3_why,
    .branch = a3_branch,
    .jump = a3_jump,
    .end = a3_end,
};
