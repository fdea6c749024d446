/*
 * Texture opcodes of the reference compiler, written once for every
 * target: the TGSI operands of a lookup are fetched into registers and
 * named by what they are (struct ref_texargs: coordinates, array layer,
 * shadow reference, projection, level or bias, texel offsets, gather
 * component), following the interpreter's reading of each opcode
 * (compiler/tgsi/tgsi_interp_res.c):
 *
 *   TEX TXP TXB TXL TEX_LZ  coordinates src0, sampler src1; TXP divides by
 *                           src0.w, TXB/TXL take src0.w
 *   TEX2 TXB2 TXL2 TG4      sampler src2; src1.x: the SHADOWCUBE_ARRAY
 *                           reference, the bias, the level, the component
 *   TXD                     derivatives src1 (x) and src2 (y), sampler src3
 *   TXF TXF_LZ              integer coordinates, level src0.w
 *   TXQ                     level src0.x; TXQS the sample count (src0 the sampler)
 *   LODQ (LOD)              coordinates src0, sampler src1 (view src1)
 *   SAMPLE_*, SVIEWINFO     view src1 (its target and result swizzle),
 *                           the bias, level or reference in src3.x
 *
 * The shadow reference is src0.z for SHADOW1D/2D/RECT/1D_ARRAY, src0.w for
 * SHADOW2D_ARRAY/SHADOWCUBE; the array layer follows the spatial
 * coordinates. The target's tex hook lays the values out as its texture
 * instruction wants them and returns four consecutive result registers,
 * which are stored with the view's swizzle for SAMPLE_*.
 */
#include "compiler/ref/ref.h"

/* A TGSI operand outside src[] (a texel offset): fetched as a source. */
static unsigned
fetch_reg(struct ref_ctx *c, const struct tgsi_insn *in, const struct tgsi_reg *r,
          const uint8_t *swz, unsigned chan)
{
   struct tgsi_insn tmp = *in;
   tmp.op = TGSI_OP_MOV;
   memset(&tmp.src[0], 0, sizeof(tmp.src[0]));
   tmp.src[0].reg = *r;
   for (unsigned k = 0; k < 4; k++)
      tmp.src[0].swz[k] = swz[k < 3 ? k : 2];
   return ref_fetch(c, &tmp, 0, chan);
}

static bool
unit_of(struct ref_ctx *c, const struct tgsi_src *s, unsigned *unit)
{
   if ((s->reg.file != TGSI_FILE_SAMP && s->reg.file != TGSI_FILE_SVIEW) || s->reg.indirect ||
       s->reg.index < 0 || s->reg.index >= ENV_MAX_TEXTURES) {
      ref_unsupported(c, "a texture operand other than SAMP[n] or SVIEW[n]");
      return false;
   }
   *unit = (unsigned)s->reg.index;
   return true;
}

/* The texel offsets: registers, and their values when immediates. */
static void
offsets(struct ref_ctx *c, const struct tgsi_insn *in, struct ref_texargs *a)
{
   if (!in->noffsets)
      return;
   const struct tgsi_texoff *o = &in->offsets[0];
   a->noff = MIN2(tgsi_texture_spatial_coords(a->target), 3u);
   a->off_known = o->reg.file == TGSI_FILE_IMM && !o->reg.indirect && o->reg.index >= 0 &&
                  (unsigned)o->reg.index < c->s->nimms;
   for (unsigned k = 0; k < a->noff; k++) {
      a->off[k] = fetch_reg(c, in, &o->reg, o->swz, k);
      if (a->off_known)
         a->off_val[k] = (int32_t)c->s->imms[o->reg.index].u[o->swz[k] & 3];
   }
}

static void
coords(struct ref_ctx *c, const struct tgsi_insn *in, struct ref_texargs *a)
{
   a->nsp = tgsi_texture_spatial_coords(a->target);
   for (unsigned k = 0; k < a->nsp && k < 3; k++)
      a->coord[k] = ref_fetch(c, in, 0, k);
   if (tgsi_texture_is_array(a->target))
      a->layer = (int)ref_fetch(c, in, 0, a->nsp);
}

static enum ref_lod
lod_of(enum tgsi_opcode op)
{
   switch (op) {
   case TGSI_OP_TXB:
   case TGSI_OP_TXB2:
   case TGSI_OP_SAMPLE_B:
      return REF_LOD_BIAS;
   case TGSI_OP_TXL:
   case TGSI_OP_TXL2:
   case TGSI_OP_SAMPLE_L:
   case TGSI_OP_TXF:
   case TGSI_OP_SAMPLE_I:
      return REF_LOD_LOD;
   case TGSI_OP_TEX_LZ:
   case TGSI_OP_TXF_LZ:
   case TGSI_OP_SAMPLE_C_LZ:
   case TGSI_OP_GATHER4:
   case TGSI_OP_TG4:
      return REF_LOD_ZERO;
   default:
      return REF_LOD_AUTO;
   }
}

/* TEX, TXP, TXB, TXL, TEX_LZ, TEX2, TXB2, TXL2, TXD, TG4. */
static bool
args_tex(struct ref_ctx *c, const struct tgsi_insn *in, struct ref_texargs *a)
{
   enum tgsi_opcode op = in->op;
   unsigned us = op == TGSI_OP_TEX2 || op == TGSI_OP_TXB2 || op == TGSI_OP_TXL2 || op == TGSI_OP_TG4
                     ? 2
                 : op == TGSI_OP_TXD ? 3
                                     : 1;
   if (!unit_of(c, &in->src[us], &a->unit))
      return false;
   a->target = in->tex_target;
   a->lod_mode = lod_of(op);
   coords(c, in, a);
   if (tgsi_texture_is_shadow(a->target)) {
      unsigned r = tgsi_texture_shadow_ref(a->target);
      a->ref = (int)(r < 4 ? ref_fetch(c, in, 0, r) : ref_fetch(c, in, 1, 0));
   }
   if (op == TGSI_OP_TXP)
      a->proj = (int)ref_fetch(c, in, 0, 3);
   if (op == TGSI_OP_TXB || op == TGSI_OP_TXL)
      a->lod = (int)ref_fetch(c, in, 0, 3);
   else if (op == TGSI_OP_TXB2 || op == TGSI_OP_TXL2)
      a->lod = (int)ref_fetch(c, in, 1, 0);
   if (op == TGSI_OP_TG4) {
      a->gather = true;
      const struct tgsi_src *s = &in->src[1];
      if (s->reg.file != TGSI_FILE_IMM || s->reg.indirect || s->neg || s->abs || s->reg.index < 0 ||
          (unsigned)s->reg.index >= c->s->nimms) {
         ref_unsupported(c, "a gather component that is not an immediate");
         return false;
      }
      uint32_t v = c->s->imms[s->reg.index].u[s->swz[0] & 3];
      float f = uif(v);
      a->comp = v <= 3 ? v : f >= 0.0f && f < 4.0f ? (unsigned)f : 0;
   }
   if (op == TGSI_OP_TXD) {
      a->deriv = true;
      for (unsigned k = 0; k < a->nsp && k < 3; k++) {
         a->ddx[k] = ref_fetch(c, in, 1, k);
         a->ddy[k] = ref_fetch(c, in, 2, k);
      }
   }
   offsets(c, in, a);
   return c->status == COMPILE_OK;
}

/* TXF, TXF_LZ: integer coordinates, the level in src0.w (none for buffers
 * and multisampled targets, whose src0.w is the sample index). */
static bool
args_fetch(struct ref_ctx *c, const struct tgsi_insn *in, enum tgsi_texture target,
           struct ref_texargs *a)
{
   a->target = target;
   a->fetch = true;
   bool ms = target == TGSI_TEX_T_2D_MSAA || target == TGSI_TEX_T_2D_ARRAY_MSAA;
   a->lod_mode =
       in->op == TGSI_OP_TXF_LZ || ms || target == TGSI_TEX_T_BUFFER ? REF_LOD_ZERO : REF_LOD_LOD;
   coords(c, in, a);
   if (a->lod_mode == REF_LOD_LOD)
      a->lod = (int)ref_fetch(c, in, 0, 3);
   if (ms)
      a->sample = (int)ref_fetch(c, in, 0, 3);
   offsets(c, in, a);
   return c->status == COMPILE_OK;
}

static enum tgsi_texture
view_target(struct ref_ctx *c, const struct tgsi_src *s)
{
   const struct tgsi_decl *d =
       s->reg.index >= 0 ? tgsi_find_decl(c->s, TGSI_FILE_SVIEW, (unsigned)s->reg.index) : NULL;
   return d ? d->target : TGSI_TEX_T_UNKNOWN;
}

/* SAMPLE, SAMPLE_B/C/C_LZ/D/L, GATHER4, SAMPLE_I(_MS): coordinates src0,
 * view src1, the extra operand src3.x. */
static bool
args_sample(struct ref_ctx *c, const struct tgsi_insn *in, struct ref_texargs *a)
{
   enum tgsi_opcode op = in->op;
   if (!unit_of(c, &in->src[1], &a->unit))
      return false;
   enum tgsi_texture t = view_target(c, &in->src[1]);
   if (t == TGSI_TEX_T_UNKNOWN) {
      ref_unsupported(c, "a sampler view without a declared target");
      return false;
   }
   a->view = &in->src[1];
   if (op == TGSI_OP_SAMPLE_I || op == TGSI_OP_SAMPLE_I_MS)
      return args_fetch(c, in, t, a);
   a->target = t;
   a->lod_mode = lod_of(op);
   coords(c, in, a);
   if (op == TGSI_OP_SAMPLE_B || op == TGSI_OP_SAMPLE_L)
      a->lod = (int)ref_fetch(c, in, 3, 0);
   if (op == TGSI_OP_SAMPLE_C || op == TGSI_OP_SAMPLE_C_LZ)
      a->ref = (int)ref_fetch(c, in, 3, 0);
   a->gather = op == TGSI_OP_GATHER4;
   if (op == TGSI_OP_SAMPLE_D) {
      a->deriv = true;
      for (unsigned k = 0; k < a->nsp && k < 3; k++) {
         a->ddx[k] = ref_fetch(c, in, 3, k);
         a->ddy[k] = ref_fetch(c, in, 4, k);
      }
   }
   offsets(c, in, a);
   return c->status == COMPILE_OK;
}

static bool
args_of(struct ref_ctx *c, const struct tgsi_insn *in, struct ref_texargs *a)
{
   switch (in->op) {
   case TGSI_OP_TXQS:
      a->query = a->samples = true;
      a->target = in->tex_target;
      return unit_of(c, &in->src[0], &a->unit);
   case TGSI_OP_TXQ:
   case TGSI_OP_SVIEWINFO:
      a->query = true;
      if (!unit_of(c, &in->src[1], &a->unit))
         return false;
      a->target = in->op == TGSI_OP_TXQ ? in->tex_target : view_target(c, &in->src[1]);
      a->lod = (int)ref_fetch(c, in, 0, 0);
      return c->status == COMPILE_OK;
   case TGSI_OP_LODQ:
   case TGSI_OP_LOD:
      a->lodq = true;
      if (!unit_of(c, &in->src[1], &a->unit))
         return false;
      a->target = in->op == TGSI_OP_LODQ ? in->tex_target : view_target(c, &in->src[1]);
      if (in->op == TGSI_OP_LOD)
         a->view = &in->src[1];
      if (a->target == TGSI_TEX_T_UNKNOWN)
         return ref_unsupported(c, "a sampler view without a declared target"), false;
      a->nsp = tgsi_texture_spatial_coords(a->target);
      for (unsigned k = 0; k < a->nsp && k < 3; k++)
         a->coord[k] = ref_fetch(c, in, 0, k);
      return c->status == COMPILE_OK;
   case TGSI_OP_TXF:
   case TGSI_OP_TXF_LZ:
      return unit_of(c, &in->src[1], &a->unit) && args_fetch(c, in, in->tex_target, a);
   case TGSI_OP_SAMPLE:
   case TGSI_OP_SAMPLE_B:
   case TGSI_OP_SAMPLE_C:
   case TGSI_OP_SAMPLE_C_LZ:
   case TGSI_OP_SAMPLE_D:
   case TGSI_OP_SAMPLE_L:
   case TGSI_OP_SAMPLE_I:
   case TGSI_OP_SAMPLE_I_MS:
   case TGSI_OP_GATHER4:
      return args_sample(c, in, a);
   default:
      return args_tex(c, in, a);
   }
}

static bool
handled(enum tgsi_opcode op)
{
   static const enum tgsi_opcode ops[] = {
       TGSI_OP_TEX,      TGSI_OP_TXP,         TGSI_OP_TXB,      TGSI_OP_TXL,
       TGSI_OP_TEX_LZ,   TGSI_OP_TEX2,        TGSI_OP_TXB2,     TGSI_OP_TXL2,
       TGSI_OP_TXD,      TGSI_OP_TG4,         TGSI_OP_TXF,      TGSI_OP_TXF_LZ,
       TGSI_OP_TXQ,      TGSI_OP_SVIEWINFO,   TGSI_OP_SAMPLE,   TGSI_OP_SAMPLE_B,
       TGSI_OP_SAMPLE_C, TGSI_OP_SAMPLE_C_LZ, TGSI_OP_SAMPLE_D, TGSI_OP_SAMPLE_L,
       TGSI_OP_SAMPLE_I, TGSI_OP_SAMPLE_I_MS, TGSI_OP_GATHER4,  TGSI_OP_TXQS,
       TGSI_OP_LODQ,     TGSI_OP_LOD,
   };
   for (unsigned k = 0; k < ARRAY_SIZE(ops); k++)
      if (ops[k] == op)
         return true;
   return false;
}

bool
ref_tex(struct ref_ctx *c, const struct tgsi_insn *in)
{
   if (!handled(in->op))
      return false;
   struct ref_texargs a = {
       .op = in->op, .layer = -1, .ref = -1, .proj = -1, .lod = -1, .sample = -1};
   if (!c->t->tex)
      return false;
   if (!args_of(c, in, &a))
      return true;                          /* refused: the operands said why */
   unsigned res[4] = {ref_tmp(c), 0, 0, 0}; /* four consecutive registers */
   for (unsigned k = 1; k < 4; k++)
      res[k] = ref_tmp(c);
   if (!c->t->tex(c, &a, res))
      return true; /* refused: the hook said why */
   if (a.view && in->op != TGSI_OP_SVIEWINFO) {
      unsigned v[4];
      for (unsigned k = 0; k < 4; k++)
         v[k] = res[a.view->swz[k] & 3];
      memcpy(res, v, sizeof(v));
   }
   ref_store(c, in, res);
   return true;
}

/* The texel offsets packed as the target's instruction takes them: each
 * clamped to a signed `bits`-bit field, channel k at bit stride * k.
 * Immediates outside the field are refused (what names the target's
 * instruction in the message); register offsets are clamped. */
unsigned
ref_tex_offsets(struct ref_ctx *c, const struct ref_texargs *a, unsigned bits, unsigned stride,
                const char *what)
{
   int32_t lo = -(1 << (bits - 1)), hi = (1 << (bits - 1)) - 1;
   uint32_t field = (1u << bits) - 1;
   if (a->off_known) {
      uint32_t p = 0;
      for (unsigned k = 0; k < a->noff; k++) {
         if (a->off_val[k] < lo || a->off_val[k] > hi) {
            ref_unsupported(c, "texel offset %d: %s offsets are %u-bit", a->off_val[k], what, bits);
            return 0;
         }
         p |= ((uint32_t)a->off_val[k] & field) << (stride * k);
      }
      return ref_imm_reg(c, p);
   }
   unsigned p = ref_imm_reg(c, 0), mask = ref_imm_reg(c, field);
   for (unsigned k = 0; k < a->noff; k++) {
      unsigned v = ref_prim(c, REF_P_IMAX, a->off[k], ref_imm_reg(c, (uint32_t)lo), 0);
      v = ref_prim(c, REF_P_AND, ref_prim(c, REF_P_IMIN, v, ref_imm_reg(c, (uint32_t)hi), 0), mask,
                   0);
      p = ref_prim(c, REF_P_OR, p, ref_prim(c, REF_P_SHL, v, ref_imm_reg(c, stride * k), 0), 0);
   }
   return p;
}
