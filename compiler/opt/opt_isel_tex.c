/*
 * Instruction selection of texture and cross-lane (derivative, subgroup)
 * instructions (see opt_isel.h). A texture result becomes one V4 value
 * whose extracts follow it directly; the write mask is the set of
 * components read. a3xx packs coordinates, array index, bias/lod and
 * offsets into the sam groups ir3 uses; sm50 builds the TEX/TLD/TLD4/TXQ/
 * TMML register groups and modifiers. Queries whose IR result differs from
 * the instruction's (LODQ's fixed point, TXQS's count in .z) are finished
 * by ALU instructions after it (finish_query).
 */
#include "compiler/opt/opt_isel.h"
#include "emu/emu.h"

static int32_t
components_read(struct isel *s, struct ir_instr *tex)
{
   unsigned mask = 0;
   for (unsigned i = 0; i < s->sh->nvalues; i++) {
      struct ir_instr *e = s->sh->values[i];
      if (e && !e->removed && e->op == IR_OP_EXTRACT && e->src[0] == tex)
         mask |= 1u << (e->comp & 3);
   }
   return (int32_t)mask;
}

/* The extracts of tex move right after it (one per component). */
static void
gather_extracts(struct isel *s, struct ir_instr *old, struct ir_instr *tex)
{
   struct ir_instr *by_comp[4] = {NULL, NULL, NULL, NULL}, *after = tex;
   for (unsigned i = 0; i < s->sh->nvalues; i++) {
      struct ir_instr *e = s->sh->values[i];
      if (!e || e->removed || e->op != IR_OP_EXTRACT || e->src[0] != old)
         continue;
      if (by_comp[e->comp & 3]) {
         opt_replace(s->sh, e, by_comp[e->comp & 3]);
         continue;
      }
      by_comp[e->comp & 3] = e;
   }
   for (unsigned c = 0; c < 4; c++) {
      struct ir_instr *e = by_comp[c];
      if (!e)
         continue;
      ir_instr_remove(e);
      e->removed = false;
      ir_set_src(e, 0, tex);
      ir_insert_after(after, e);
      after = e;
   }
}

/* Queries whose IR result is not the instruction's (LODQ's levels from
 * fixed point, TXQS's count from the type query): raw[c] = an extract of
 * t's component raw_comp[c] (-1: none), right after t; every extract of
 * in is replaced by build(raw, its component), built before in, where the
 * old tex dominates all its readers. */
typedef struct ir_instr *(*query_fn)(struct isel *s, struct ir_instr *pos, struct ir_instr **raw,
                                     unsigned c);

static struct ir_instr *
finish_query(struct isel *s, struct ir_instr *in, struct ir_instr *t, const int *raw_comp,
             query_fn build)
{
   struct ir_instr *raw[4] = {NULL, NULL, NULL, NULL}, *after = t;
   for (unsigned c = 0; c < 4; c++) {
      if (raw_comp[c] < 0)
         continue;
      struct ir_instr *e = ir_instr_create(s->sh, IR_OP_EXTRACT, 1);
      e->type = IR_TYPE_32;
      ir_set_src(e, 0, t);
      e->comp = raw_comp[c];
      e->line = in->line;
      ir_insert_after(after, e);
      raw[c] = after = e;
   }
   struct ir_instr *val[4] = {NULL, NULL, NULL, NULL};
   for (unsigned i = 0; i < s->sh->nvalues && !s->ctx->failed; i++) {
      struct ir_instr *e = s->sh->values[i];
      if (!e || e->removed || e->op != IR_OP_EXTRACT || e->src[0] != in)
         continue;
      unsigned c = (unsigned)e->comp & 3;
      if (!val[c] && !(val[c] = build(s, in, raw, c)))
         return NULL;
      opt_replace(s->sh, e, val[c]);
   }
   return s->ctx->failed ? NULL : t;
}

/* v * 2^-k, k in 1..126 (an exact scaling of the converted level). */
static struct ir_instr *
scaled(struct isel *s, struct ir_instr *pos, struct ir_instr *v, unsigned k)
{
   return v ? isel_build2(s, pos, ISA_SEM_FMUL, v, isel_imm(s, pos, (127u - k) << 23)) : NULL;
}

/* LODQ from sm50 TMML: .x the computed level as s8.8 in its low half, .y
 * the level used as u8.8 (NAK). Shifted to the top half, either converts
 * exactly (16 significant bits), so one scaling by 2^-24 finishes it. */
static struct ir_instr *
nv_lodq_comp(struct isel *s, struct ir_instr *pos, struct ir_instr **raw, unsigned c)
{
   if (c >= 2)
      return isel_imm(s, pos, 0);
   struct ir_instr *v = isel_shift(s, pos, ISA_SEM_SHL, true, NULL, raw[c], isel_imm(s, pos, 16));
   v = v ? isel_convert(s, pos, v, c ? ISA_TYPE_S32 : ISA_TYPE_U32, ISA_TYPE_F32) : NULL;
   return scaled(s, pos, v, 24);
}

/* LODQ from a3xx getlod (s32): .x the level used, .y the computed one, in
 * x.8 fixed point (ir3). */
static struct ir_instr *
a3_lodq_comp(struct isel *s, struct ir_instr *pos, struct ir_instr **raw, unsigned c)
{
   if (c >= 2)
      return isel_imm(s, pos, 0);
   return scaled(s, pos, isel_convert(s, pos, raw[c], ISA_TYPE_S32, ISA_TYPE_F32), 8);
}

/* TXQS from the sm50 type query: the sample count is its .z. */
static struct ir_instr *
nv_txqs_comp(struct isel *s, struct ir_instr *pos, struct ir_instr **raw, unsigned c)
{
   return c ? isel_imm(s, pos, 0) : raw[0];
}

static const char *const wrmask_names[16] = {"none", "x",  "y",  "xy",  "z",  "xz",  "yz",  "xyz",
                                             "w",    "xw", "yw", "xyw", "zw", "xzw", "yzw", "xyzw"};

/* NVIDIA texture instructions (sm50 TEX, TLD, TLD4, TXD, TXQ), laid out as
 * the reference compiler and the emulator read them (emu/tex.c): group a
 * = [array layer as an integer], coordinates (TXD: coordinates, layer);
 * group b = [TLD sample], [level or bias], [texel offsets packed 4 bits
 * per component, TLD4 8], [depth reference] (TXD: ddx0, ddy0, ddx1, ...),
 * RZ when empty; then the texture unit. */
struct nv_tex {
   struct ir_instr *coord[4], *cmp, *lod, *bias, *ms, *proj, *ddx[3], *ddy[3], *off[3];
   unsigned ncoord, nddx, nddy, noff;
};

static void
nv_tex_sources(const struct ir_instr *in, struct nv_tex *a)
{
   memset(a, 0, sizeof(*a));
   for (unsigned i = 0; i < in->nsrc; i++) {
      struct ir_instr *v = in->src[i];
      switch (in->role[i]) {
      case IR_TEXSRC_coord:
         if (a->ncoord < 4)
            a->coord[a->ncoord++] = v;
         break;
      case IR_TEXSRC_cmp:
         a->cmp = v;
         break;
      case IR_TEXSRC_lod:
         a->lod = v;
         break;
      case IR_TEXSRC_bias:
         a->bias = v;
         break;
      case IR_TEXSRC_ms:
         a->ms = v;
         break;
      case IR_TEXSRC_proj:
         a->proj = v;
         break;
      case IR_TEXSRC_ddx:
         if (a->nddx < 3)
            a->ddx[a->nddx++] = v;
         break;
      case IR_TEXSRC_ddy:
         if (a->nddy < 3)
            a->ddy[a->nddy++] = v;
         break;
      default:
         if (a->noff < 3)
            a->off[a->noff++] = v;
         break;
      }
   }
}

/* The op of semantics sem with n sources (sam and sam.o share theirs). */
static int
op_with_nsrc(const struct isel *s, enum isa_sem sem, unsigned n)
{
   unsigned nsem;
   const uint16_t *ops = isa_ops_by_sem(s->m, sem, &nsem);
   for (unsigned i = 0; i < nsem; i++) {
      struct isa_op_info oi;
      isa_op_info(s->m, ops[i], &oi);
      if (oi.nsrc == n)
         return ops[i];
   }
   return -1;
}

/* a3xx lookups, laid out as ir3 and the reference compiler do: src1 =
 * the coordinates (a 1-D one twice; TXF's shifted left by the level),
 * [reference], [layer] (samgq: padded to 4, then ddx and ddy, at least 2
 * each); src2 = [offsets x, y], [bias or level]; then sampler and
 * texture. getsize takes the level and a zero. */
static bool
a3_tex_groups(struct isel *s, struct ir_instr *in, const struct nv_tex *a, struct ir_instr **g1,
              unsigned *n1, struct ir_instr **g2, unsigned *n2)
{
   bool layered = tgsi_texture_is_array((enum tgsi_texture)in->target),
        fetch = in->kind == IR_TEX_txf;
   unsigned nsp = a->ncoord - (layered ? 1u : 0u);
   struct ir_instr *level = a->bias ? a->bias : a->lod;
   bool zero_level = level && level->op == IR_OP_IMM && !level->imm;
   *n1 = *n2 = 0;
   if (a->ms || (a->noff && nsp > 2) || (in->kind == IR_TEX_txd && a->noff))
      return isel_unsupported(s, in, "a multisample fetch, or offsets a3xx has no room for");
   for (unsigned k = 0; k < nsp; k++)
      g1[(*n1)++] = fetch && level && !zero_level
                        ? isel_shift(s, in, ISA_SEM_SHL, true, NULL, a->coord[k], level)
                        : a->coord[k];
   if (nsp == 1)
      g1[(*n1)++] = g1[0];
   if (a->cmp)
      g1[(*n1)++] = a->cmp;
   if (layered)
      g1[(*n1)++] = a->coord[nsp];
   if (a->proj)
      g1[(*n1)++] = a->proj;
   if (in->kind == IR_TEX_txd) {
      if (*n1 > 4)
         return isel_unsupported(s, in, "samgq with more than 4 values before the derivatives");
      while (*n1 < 4)
         g1[(*n1)++] = isel_imm(s, in, 0);
      for (unsigned k = 0; k < MAX2(nsp, 2u); k++)
         g1[(*n1)++] = k < a->nddx ? a->ddx[k] : isel_imm(s, in, 0);
      for (unsigned k = 0; k < MAX2(nsp, 2u); k++)
         g1[(*n1)++] = k < a->nddy ? a->ddy[k] : isel_imm(s, in, 0);
   }
   for (unsigned k = 0; k < a->noff; k++)
      g2[(*n2)++] = a->off[k];
   if (a->noff == 1)
      g2[(*n2)++] = isel_imm(s, in, 0);
   if (level || fetch)
      g2[(*n2)++] = level ? level : isel_imm(s, in, 0);
   return true;
}

/* getlod of the spatial coordinates (a 1-D one twice; ir3 sets no .a: no
 * layer), .3d for three. */
static struct ir_instr *
a3_lodq(struct isel *s, struct ir_instr *in, const struct nv_tex *a)
{
   unsigned nsp = a->ncoord - (tgsi_texture_is_array((enum tgsi_texture)in->target) ? 1u : 0u),
            n = 0;
   struct ir_instr *g[3];
   for (unsigned k = 0; k < nsp && k < 3; k++)
      g[n++] = a->coord[k];
   if (n == 1)
      g[n++] = g[0];
   if (s->op[ISA_SEM_GETLOD] < 0)
      return isel_unsupported(s, in, isa_sem_name(ISA_SEM_GETLOD)), NULL;
   struct ir_instr *t = ir_mach_create(s->sh, (unsigned)s->op[ISA_SEM_GETLOD]);
   t->type = IR_TYPE_V4;
   ir_mach_set_src(t, 0, g, n);
   ir_mach_set_fixed(t, 1, (uint32_t)(in->samp >= 0 ? in->samp : in->res));
   ir_mach_set_fixed(t, 2, (uint32_t)in->res);
   isel_set_flag_mod(s, t, isa_mod_by_role(s->m, ISA_ROLE_TEX_3D), nsp == 3);
   isel_set_mod(s, t, isa_mod_find(s->m, "textype"), "s32");
   int32_t read = components_read(s, in) & 3;
   isel_set_mod(s, t, s->mod_wrmask, wrmask_names[read ? read : 1]);
   t->flags = in->flags;
   t->line = in->line;
   ir_insert_before(in, t);
   int raw[4] = {read & 1 ? 0 : -1, read & 2 ? 1 : -1, -1, -1};
   return finish_query(s, in, t, raw, a3_lodq_comp);
}

static struct ir_instr *isel_mimg(struct isel *s, struct ir_instr *in);

struct ir_instr *
isel_tex(struct isel *s, struct ir_instr *in)
{
   if (s->op[ISA_SEM_IMAGE_SAMPLE] >= 0)
      return isel_mimg(s, in);
   struct nv_tex a;
   nv_tex_sources(in, &a);
   struct ir_instr *g1[16], *g2[4];
   unsigned n1 = 0, n2 = 0;
   enum isa_sem sem;
   switch (in->kind) {
   case IR_TEX_tex:
      sem = ISA_SEM_SAM;
      break;
   case IR_TEX_txb:
      sem = ISA_SEM_SAMB;
      break;
   case IR_TEX_txl:
      sem = ISA_SEM_SAML;
      break;
   case IR_TEX_txf:
      sem = ISA_SEM_ISAML;
      break;
   case IR_TEX_txd:
      sem = ISA_SEM_SAMGQ;
      break;
   case IR_TEX_txq:
      sem = ISA_SEM_GETSIZE;
      break;
   case IR_TEX_lodq:
      return a3_lodq(s, in, &a);
   case IR_TEX_tg4:
      return isel_unsupported(s, in, "a gather: the model has none"), NULL;
   case IR_TEX_txqs:
      return isel_unsupported(s, in, "a sample-count query: the model has no multisample textures"),
             NULL;
   default:
      return isel_unsupported(s, in, "this texture instruction"), NULL;
   }
   if (in->target == TGSI_TEX_T_BUFFER || in->target == TGSI_TEX_T_UNKNOWN ||
       in->target == TGSI_TEX_T_2D_MSAA || in->target == TGSI_TEX_T_2D_ARRAY_MSAA)
      return isel_unsupported(s, in, "a buffer or multisample texture"), NULL;
   if (sem == ISA_SEM_GETSIZE) {
      if (!a.lod)
         return isel_unsupported(s, in, "a size query without a level"), NULL;
      g1[n1++] = a.lod;
      g1[n1++] = isel_imm(s, in, 0);
   } else if (!a3_tex_groups(s, in, &a, g1, &n1, g2, &n2)) {
      return NULL;
   }
   int op = sem == ISA_SEM_SAM && n2 ? op_with_nsrc(s, sem, 4) : s->op[sem];
   if (op < 0)
      return isel_unsupported(s, in, isa_sem_name(sem)), NULL;
   struct isa_op_info oi;
   isa_op_info(s->m, (unsigned)op, &oi);
   if ((n2 != 0) != (oi.nsrc == 4))
      return isel_unsupported(s, in, "a texture form this model lacks"), NULL;
   struct ir_instr *t = ir_mach_create(s->sh, (unsigned)op);
   t->type = IR_TYPE_V4;
   ir_mach_set_src(t, 0, g1, n1);
   unsigned k = 1;
   if (n2)
      ir_mach_set_src(t, k++, g2, n2);
   ir_mach_set_fixed(t, k++, (uint32_t)(in->samp >= 0 ? in->samp : in->res));
   ir_mach_set_fixed(t, k, (uint32_t)in->res);
   const struct isa_model *m = s->m;
   bool layered = tgsi_texture_is_array((enum tgsi_texture)in->target);
   isel_set_flag_mod(s, t, isa_mod_by_role(m, ISA_ROLE_TEX_3D),
                     sem != ISA_SEM_GETSIZE && a.ncoord - layered == 3);
   isel_set_flag_mod(s, t, isa_mod_by_role(m, ISA_ROLE_TEX_SHADOW), a.cmp != NULL);
   isel_set_flag_mod(s, t, isa_mod_by_role(m, ISA_ROLE_TEX_ARRAY),
                     layered && sem != ISA_SEM_GETSIZE);
   isel_set_flag_mod(s, t, isa_mod_by_role(m, ISA_ROLE_TEX_OFFSET), a.noff != 0);
   isel_set_flag_mod(s, t, isa_mod_by_role(m, ISA_ROLE_TEX_PROJ), a.proj != NULL);
   if (sem == ISA_SEM_ISAML || sem == ISA_SEM_GETSIZE)
      isel_set_mod(s, t, isa_mod_find(m, "textype"), "u32");
   int32_t mask = components_read(s, in);
   isel_set_mod(s, t, s->mod_wrmask, wrmask_names[mask ? mask : 1]);
   t->flags = in->flags;
   t->line = in->line;
   ir_insert_before(in, t);
   gather_extracts(s, in, t);
   return t;
}

/* SHFL d, v, lane, c (c = 0x1c03: within the quad), the in-range
 * predicate discarded into PT. */
static struct ir_instr *
shfl(struct isel *s, struct ir_instr *pos, struct ir_instr *v, const char *mode, uint32_t lane)
{
   struct ir_instr *r = isel_build(s, pos, ISA_SEM_SHFL, &v, 1);
   if (!r)
      return NULL;
   ir_mach_set_fixed(r, 1, lane);
   ir_mach_set_fixed(r, 2, 0x1c03);
   r->mach->insn.dst[1] = (struct isa_opnd){
       .kind = ISA_OPND_REG, .file = (uint8_t)s->pred, .index = (uint16_t)s->true_reg};
   isel_set_mod(s, r, isa_mod_by_role(s->m, ISA_ROLE_SHFL_MODE), mode);
   return r;
}

/* The op of semantics sem whose first source is read through a DPP quad
 * permutation (gfx9 v_mov_b32_dpp, v_sub_f32_dpp), or -1. */
static int
dpp_quad_op(struct isel *s, enum isa_sem sem)
{
   int q0 = isa_mod_by_role(s->m, ISA_ROLE_DPP_QP0);
   const char *on = q0 >= 0 ? isa_mod_operand(s->m, (unsigned)q0) : NULL;
   unsigned n;
   const uint16_t *ops = isa_ops_by_sem(s->m, sem, &n);
   for (unsigned i = 0; on && i < n; i++) {
      struct isa_slot_info si;
      if (isa_op_has_mod(s->m, ops[i], q0) && isa_slot_info(s->m, ops[i], false, 0, &si) &&
          si.name && !strcmp(si.name, on))
         return ops[i];
   }
   return -1;
}

/* op (dpp_quad_op) reading a through quad permutation perm (2 bits per
 * lane of the quad, lane 0 first) and b, before pos; bound_ctrl set (a
 * source lane that is off reads 0), as the reference compiler has it. */
static struct ir_instr *
dpp_quad(struct isel *s, struct ir_instr *pos, int op, struct ir_instr *a, struct ir_instr *b,
         unsigned perm)
{
   struct ir_instr *r = ir_mach_create(s->sh, (unsigned)op);
   ir_mach_set_src(r, 0, &a, 1);
   if (b)
      ir_mach_set_src(r, 1, &b, 1);
   r->flags = pos->flags;
   r->line = pos->line;
   ir_insert_before(pos, r);
   for (unsigned k = 0; k < 4; k++)
      isel_set_flag_mod(s, r, isa_mod_by_role(s->m, (enum isa_role)(ISA_ROLE_DPP_QP0 + k)),
                        (int)(perm >> (2 * k) & 3));
   isel_set_flag_mod(s, r, isa_mod_by_role(s->m, ISA_ROLE_DPP_BOUND), 1);
   return r;
}

#define QUAD(a, b, e, f) ((a) | (b) << 2 | (e) << 4 | (f) << 6)

/* Derivatives over the quad, as the reference compiler takes them: a3xx
 * dsx/dsy (coarse); sm50 coarse as SHFL.IDX of quad lanes 3 and 2 (x) or
 * 2 and 0 (y) then FADD, fine as SHFL.BFLY 1 (2) then FSWZADD, which
 * subtracts in each lane's order (NAK); gfx9 DPP quad permutations: the
 * lane the difference starts from moved (v_mov_b32_dpp), then the lane it
 * ends at read by v_sub_f32_dpp (coarse: lanes 3 - 2, 2 - 0; fine: each
 * lane's row or column). */
static struct ir_instr *
isel_deriv(struct isel *s, struct ir_instr *in)
{
   struct ir_instr *v = in->src[0];
   bool dx = in->op == IR_OP_DDX || in->op == IR_OP_DDX_FINE;
   bool fine = in->op == IR_OP_DDX_FINE || in->op == IR_OP_DDY_FINE;
   int mov = dpp_quad_op(s, ISA_SEM_MOV), sub = dpp_quad_op(s, ISA_SEM_FSUB);
   if (mov >= 0 && sub >= 0) {
      unsigned from = fine ? (dx ? QUAD(0, 0, 2, 2) : QUAD(0, 1, 0, 1))
                           : (dx ? QUAD(2, 2, 2, 2) : QUAD(0, 0, 0, 0));
      unsigned to = fine ? (dx ? QUAD(1, 1, 3, 3) : QUAD(2, 3, 2, 3))
                         : (dx ? QUAD(3, 3, 3, 3) : QUAD(2, 2, 2, 2));
      return dpp_quad(s, in, sub, v, dpp_quad(s, in, mov, v, NULL, from), to);
   }
   if (!fine && s->op[dx ? ISA_SEM_DSX : ISA_SEM_DSY] >= 0) {
      struct ir_instr *r = isel_build1(s, in, dx ? ISA_SEM_DSX : ISA_SEM_DSY, v);
      isel_set_mod(s, r, s->mod_wrmask, "x");
      return r;
   }
   if (s->op[ISA_SEM_SHFL] < 0 || s->true_reg < 0)
      return isel_unsupported(s, in, "no quad shuffle"), NULL;
   if (fine) {
      struct ir_instr *n = shfl(s, in, v, "bfly", dx ? 1 : 2);
      struct ir_instr *r = n ? isel_build2(s, in, ISA_SEM_FSWZADD, n, v) : NULL;
      isel_set_flag_mod(s, r, isa_mod_by_role(s->m, ISA_ROLE_SWZ), dx ? 0x99 : 0xa5);
      return r;
   }
   struct ir_instr *hi = shfl(s, in, v, "idx", dx ? 3 : 2);
   struct ir_instr *lo = shfl(s, in, v, "idx", dx ? 2 : 0);
   return hi && lo ? isel_flag(isel_build2(s, in, ISA_SEM_FADD, hi, lo), 1, ISA_OPND_F_NEG) : NULL;
}

/* The predicate p of a selected compare mask SEL(RZ, !p, ~0) (compares
 * are selected before their readers), or NULL. */
static struct ir_instr *
pred_of_mask(struct isel *s, struct ir_instr *x)
{
   if (x->op != IR_OP_MACH || x->mach->insn.sem != ISA_SEM_SEL || x->mach->guard != IR_MACH_FIXED)
      return NULL;
   const struct ir_mach *m = x->mach;
   if (m->count[0] || m->insn.src[0].kind != ISA_OPND_REG || m->insn.src[0].file != s->gpr ||
       m->insn.src[0].index != s->zero_reg || m->count[1] != 1 || m->count[2] != 1 ||
       m->insn.src[1].flags != ISA_OPND_F_NOT || m->insn.src[2].flags)
      return NULL;
   struct ir_instr *p = x->src[m->first[1]], *ones = x->src[m->first[2]];
   if (ones->op != IR_OP_IMM || (uint32_t)ones->imm != ~0u || ir_reg_file(p) != s->pred)
      return NULL;
   return opt_transform(s->ctx, "ballot of the predicate of mask %%%u", x->id) ? p : NULL;
}

/* ballot(x): VOTE.ANY of the predicate x != 0 (PT or !PT for a
 * constant), its ballot the value, the vote discarded into PT. */
static struct ir_instr *
ballot(struct isel *s, struct ir_instr *in)
{
   struct ir_instr *x = in->src[0], *p = NULL;
   if (s->op[ISA_SEM_VOTE] < 0 || s->true_reg < 0)
      return isel_unsupported(s, in, "no warp vote"), NULL;
   if (x->op != IR_OP_IMM && !(p = pred_of_mask(s, x)) && !(p = isel_predicate(s, in, x)))
      return NULL;
   struct ir_instr *r = ir_mach_create(s->sh, (unsigned)s->op[ISA_SEM_VOTE]);
   if (p)
      ir_mach_set_src(r, 0, &p, 1);
   else
      ir_mach_set_fixed_reg(r, 0, (unsigned)s->pred, (unsigned)s->true_reg,
                            (uint32_t)x->imm ? 0 : ISA_OPND_F_NOT);
   r->mach->insn.dst[1] = (struct isa_opnd){
       .kind = ISA_OPND_REG, .file = (uint8_t)s->pred, .index = (uint16_t)s->true_reg};
   isel_set_mod(s, r, isa_mod_by_role(s->m, ISA_ROLE_VOTE_MODE), "any");
   r->flags = in->flags;
   r->line = in->line;
   ir_insert_before(in, r);
   return r;
}

/* A value of the uniform file (an SGPR). */
static struct ir_instr *
in_unif(struct isel *s, struct ir_instr *v)
{
   if (v)
      ir_mach_get(s->m, v)->reg = (struct ir_reg){(int16_t)s->unif, 0, 0};
   return v;
}

/* A uniform 32-bit word: an immediate, or a value of the uniform file. */
static bool
uniform_word(const struct isel *s, const struct ir_instr *v)
{
   return v->op == IR_OP_IMM || (v->op == IR_OP_MACH && ir_reg_file(v) == s->unif &&
                                 isa_opnd_regs(s->m, &v->mach->insn, ISA_SLOT_DST(0)) == 1);
}

/* The word of lane mask p (an SGPR pair) from bit 32 * hi on, as a 32-bit
 * scalar value: s_mov_b32 of the pair reads its low register; the high
 * one is shifted down first (s_lshr_b64 p, 32). */
static struct ir_instr *
mask_word(struct isel *s, struct ir_instr *pos, struct ir_instr *p, bool hi)
{
   int mov = isel_scalar_op(s, ISA_SEM_MOV, 32), shr = isel_scalar_op(s, ISA_SEM_SHR64, 64);
   if (mov < 0 || (hi && shr < 0))
      return isel_unsupported(s, pos, "no scalar move or 64-bit shift"), NULL;
   if (hi) {
      struct ir_instr *q = ir_mach_create(s->sh, (unsigned)shr);
      struct ir_instr *n = isel_imm(s, pos, 32);
      ir_mach_set_src(q, 0, &p, 1);
      ir_mach_set_src(q, 1, &n, 1);
      q->line = pos->line;
      ir_insert_before(pos, in_unif(s, q));
      p = q;
   }
   struct ir_instr *r = ir_mach_create(s->sh, (unsigned)mov);
   ir_mach_set_src(r, 0, &p, 1);
   r->line = pos->line;
   ir_insert_before(pos, in_unif(s, r));
   return r;
}

/* Subgroup ops on a 64-lane wave with lane masks in SGPR pairs (gfx9, as
 * the reference compiler takes them): ballot and ballot_hi the words of
 * the VOPC e64 mask of x != 0 (0 for lanes outside EXEC), read_first
 * v_readfirstlane_b32, read_invoc v_readlane_b32 when the lane is
 * uniform (an SGPR or an immediate), else ds_bpermute_b32 at byte
 * address lane * 4. The scalar results stay in SGPRs. */
static struct ir_instr *
cross_lane_wave(struct isel *s, struct ir_instr *in)
{
   struct ir_instr *x = in->src[0], *r;
   switch (in->op) {
   case IR_OP_BALLOT:
   case IR_OP_BALLOT_HI: {
      struct ir_instr *p = isel_predicate(s, in, x);
      return p ? mask_word(s, in, p, in->op == IR_OP_BALLOT_HI) : NULL;
   }
   case IR_OP_READ_FIRST:
      return in_unif(s, isel_build1(s, in, ISA_SEM_READFIRSTLANE, x));
   default: /* READ_INVOC */
      break;
   }
   struct ir_instr *lane = in->src[1];
   if (uniform_word(s, lane) && s->op[ISA_SEM_READLANE] >= 0 &&
       opt_transform(s->ctx, "read_invoc %%%u of uniform lane %%%u by readlane", in->id, lane->id))
      return in_unif(s, isel_build2(s, in, ISA_SEM_READLANE, x, lane));
   struct ir_instr *addr = isel_shift(s, in, ISA_SEM_SHL, true, NULL, lane, isel_imm(s, in, 2));
   if (!addr || !(r = isel_build2(s, in, ISA_SEM_BPERMUTE, addr, x)))
      return NULL;
   ir_mach_set_fixed(r, 2, 0);
   return r;
}

/* Cross-lane ops: the derivatives, and the subgroup ops on a warp (sm50
 * VOTE and SHFL, as the reference compiler takes them): ballot as above,
 * read_invoc as SHFL.IDX v, lane over the whole warp (c = 0x1f); on a
 * 64-lane wave with lane masks (gfx9) cross_lane_wave. */
struct ir_instr *
isel_cross_lane(struct isel *s, struct ir_instr *in)
{
   if (s->lanemask && in->op != IR_OP_DDX && in->op != IR_OP_DDY && in->op != IR_OP_DDX_FINE &&
       in->op != IR_OP_DDY_FINE)
      return cross_lane_wave(s, in);
   if (in->op == IR_OP_BALLOT)
      return ballot(s, in);
   if (in->op != IR_OP_READ_INVOC)
      return isel_deriv(s, in);
   if (s->true_reg < 0)
      return isel_unsupported(s, in, "no warp shuffle"), NULL;
   struct ir_instr *r = isel_build2(s, in, ISA_SEM_SHFL, in->src[0], in->src[1]);
   if (!r)
      return NULL;
   ir_mach_set_fixed(r, 2, 0x1f);
   r->mach->insn.dst[1] = (struct isa_opnd){
       .kind = ISA_OPND_REG, .file = (uint8_t)s->pred, .index = (uint16_t)s->true_reg};
   isel_set_mod(s, r, isa_mod_by_role(s->m, ISA_ROLE_SHFL_MODE), "idx");
   return r;
}

/* A float array layer as the hardware takes it: f2u(max(layer + 0.5, 0))
 * (NaN -> 0), the sampler's floor(layer + 0.5) [NAK]. */
static struct ir_instr *
nv_layer(struct isel *s, struct ir_instr *pos, struct ir_instr *l)
{
   struct ir_instr *h = isel_build2(s, pos, ISA_SEM_FADD, l, isel_imm(s, pos, 0x3f000000u));
   struct ir_instr *m = isel_minmax(s, pos, ISA_SEM_FMAX, false, NULL, h, isel_imm(s, pos, 0));
   return m ? isel_convert(s, pos, m, ISA_TYPE_F32, ISA_TYPE_U32) : NULL;
}

/* AOFFI: offsets w bits each from bit 0; immediates folded (out of the
 * field's range refused, as the reference compiler does), others clamped. */
static struct ir_instr *
nv_offsets(struct isel *s, struct ir_instr *pos, const struct nv_tex *a, unsigned w)
{
   int32_t lo = -(1 << (w - 1)), hi = (1 << (w - 1)) - 1;
   uint32_t mask = (1u << w) - 1, p = 0;
   bool known = true;
   for (unsigned k = 0; k < a->noff; k++) {
      if (a->off[k]->op != IR_OP_IMM) {
         known = false;
         continue;
      }
      int32_t v = (int32_t)(uint32_t)a->off[k]->imm;
      if (v < lo || v > hi)
         return isel_unsupported(s, pos, "a texel offset outside the field"), NULL;
      p |= ((uint32_t)v & mask) << (w * k);
   }
   if (known)
      return isel_imm(s, pos, p);
   struct ir_instr *r = NULL;
   for (unsigned k = 0; k < a->noff; k++) {
      struct ir_instr *v = isel_minmax(s, pos, ISA_SEM_SMAX, false, "s32", a->off[k],
                                       isel_imm(s, pos, (uint32_t)lo));
      v = isel_minmax(s, pos, ISA_SEM_SMIN, true, "s32", v, isel_imm(s, pos, (uint32_t)hi));
      v = isel_build2(s, pos, ISA_SEM_AND, v, isel_imm(s, pos, mask));
      if (k)
         v = isel_shift(s, pos, ISA_SEM_SHL, true, NULL, v, isel_imm(s, pos, w * k));
      r = r ? isel_build2(s, pos, ISA_SEM_OR, r, v) : v;
      if (!r)
         return NULL;
   }
   return r;
}

/* Groups a and b of the instruction; false (with an error) when the
 * layout is not one the model has. */
static bool
nv_tex_groups(struct isel *s, struct ir_instr *in, const struct nv_tex *a, struct ir_instr **ga,
              unsigned *na, struct ir_instr **gb, unsigned *nb)
{
   bool layered = tgsi_texture_is_array((enum tgsi_texture)in->target);
   unsigned nsp = a->ncoord - (layered ? 1u : 0u);
   struct ir_instr *layer = layered ? a->coord[nsp] : NULL;
   *na = *nb = 0;
   if (in->kind == IR_TEX_txd) {
      if (a->cmp || a->noff)
         return isel_unsupported(s, in, "TXD with a reference or offsets");
      for (unsigned k = 0; k < nsp; k++)
         ga[(*na)++] = a->coord[k];
      for (unsigned k = 0; k < a->nddx && k < a->nddy; k++) {
         gb[(*nb)++] = a->ddx[k];
         gb[(*nb)++] = a->ddy[k];
      }
      if (layer && !(ga[(*na)++] = nv_layer(s, in, layer)))
         return false;
      return true;
   }
   bool fetch = in->kind == IR_TEX_txf;
   if (layer && !(ga[(*na)++] = fetch ? layer : nv_layer(s, in, layer)))
      return false;
   for (unsigned k = 0; k < nsp; k++)
      ga[(*na)++] = a->coord[k];
   if (a->ms)
      gb[(*nb)++] = a->ms;
   struct ir_instr *lod = a->bias ? a->bias : a->lod;
   if (lod && !(lod->op == IR_OP_IMM && !lod->imm && !a->bias))
      gb[(*nb)++] = lod;
   if (a->noff && !(gb[(*nb)++] = nv_offsets(s, in, a, in->kind == IR_TEX_tg4 ? 8 : 4)))
      return false;
   if (a->cmp)
      gb[(*nb)++] = a->cmp;
   return true;
}

/* The modifiers of the lookup: level mode, reference, offsets, gather
 * component. */
static void
nv_tex_mods(struct isel *s, struct ir_instr *t, struct ir_instr *in, const struct nv_tex *a)
{
   const struct isa_model *m = s->m;
   isel_set_mod(s, t, isa_mod_by_role(m, ISA_ROLE_TEX_DIM),
                tgsi_texture_dim_name((enum tgsi_texture)in->target));
   isel_set_flag_mod(s, t, isa_mod_by_role(m, ISA_ROLE_TEX_SHADOW), a->cmp != NULL);
   isel_set_flag_mod(s, t, isa_mod_by_role(m, ISA_ROLE_TEX_OFFSET), a->noff != 0);
   bool lz = a->lod && a->lod->op == IR_OP_IMM && !a->lod->imm;
   if (in->kind == IR_TEX_txf) {
      isel_set_mod(s, t, isa_mod_by_role(m, ISA_ROLE_TEX_FETCH_LOD), lz || !a->lod ? "lz" : "ll");
      isel_set_flag_mod(s, t, isa_mod_by_role(m, ISA_ROLE_TEX_MS), a->ms != NULL);
   } else if (in->kind == IR_TEX_tg4) {
      static const char *const comps[] = {"r", "g", "b", "a"};
      isel_set_mod(s, t, isa_mod_by_role(m, ISA_ROLE_TEX_COMP), comps[in->comp & 3]);
   } else if (in->kind != IR_TEX_txd) {
      isel_set_mod(s, t, isa_mod_by_role(m, ISA_ROLE_TEX_LOD),
                   a->bias  ? "lb"
                   : lz     ? "lz"
                   : a->lod ? "ll"
                            : "auto");
   }
}

/* TMML ([layer 0], the spatial coordinates: NAK passes layer 0) for LODQ;
 * TXQ.TEXTURE_TYPE (no operand: RZ) for TXQS. */
static struct ir_instr *
nv_query(struct isel *s, struct ir_instr *in, const struct nv_tex *a)
{
   bool lodq = in->kind == IR_TEX_lodq;
   enum isa_sem sem = lodq ? ISA_SEM_TMML : ISA_SEM_TXQ;
   if (s->op[sem] < 0)
      return isel_unsupported(s, in, isa_sem_name(sem)), NULL;
   struct ir_instr *t = ir_mach_create(s->sh, (unsigned)s->op[sem]);
   t->type = IR_TYPE_V4;
   int32_t read = components_read(s, in);
   int raw[4] = {-1, -1, -1, -1};
   if (lodq) {
      bool layered = tgsi_texture_is_array((enum tgsi_texture)in->target);
      unsigned nsp = a->ncoord - (layered ? 1u : 0u), n = 0;
      struct ir_instr *g[4];
      if (layered)
         g[n++] = isel_imm(s, in, 0);
      for (unsigned k = 0; k < nsp && k < 3; k++)
         g[n++] = a->coord[k];
      ir_mach_set_src(t, 0, g, n);
      isel_set_mod(s, t, isa_mod_by_role(s->m, ISA_ROLE_TEX_DIM),
                   tgsi_texture_dim_name((enum tgsi_texture)in->target));
      raw[0] = read & 1 ? 1 : -1; /* x, the level used, from .y */
      raw[1] = read & 2 ? 0 : -1;
   } else {
      ir_mach_set_fixed_reg(t, 0, (unsigned)s->gpr, (unsigned)s->zero_reg, 0);
      isel_set_mod(s, t, isa_mod_by_role(s->m, ISA_ROLE_TEX_QUERY), "texture_type");
      raw[0] = read & 1 ? 2 : -1;
   }
   ir_mach_set_fixed(t, 1, (uint32_t)in->res);
   int32_t mask = (raw[0] >= 0 ? 1 << raw[0] : 0) | (raw[1] >= 0 ? 1 << raw[1] : 0);
   isel_set_flag_mod(s, t, s->mod_wrmask, mask ? mask : 1);
   t->flags = in->flags;
   t->line = in->line;
   ir_insert_before(in, t);
   return finish_query(s, in, t, raw, lodq ? nv_lodq_comp : nv_txqs_comp);
}

struct ir_instr *
isel_tex_nv(struct isel *s, struct ir_instr *in)
{
   static const enum isa_sem sems[IR_TEX_KIND_COUNT] = {
       [IR_TEX_tex] = ISA_SEM_TEX, [IR_TEX_txb] = ISA_SEM_TEX, [IR_TEX_txl] = ISA_SEM_TEX,
       [IR_TEX_txd] = ISA_SEM_TXD, [IR_TEX_txf] = ISA_SEM_TLD, [IR_TEX_txq] = ISA_SEM_TXQ,
       [IR_TEX_tg4] = ISA_SEM_TLD4};
   enum isa_sem sem = in->kind >= 0 && in->kind < IR_TEX_KIND_COUNT ? sems[in->kind] : 0;
   struct nv_tex a;
   nv_tex_sources(in, &a);
   if ((in->kind == IR_TEX_lodq || in->kind == IR_TEX_txqs) && in->target != TGSI_TEX_T_BUFFER)
      return nv_query(s, in, &a);
   if (!sem || in->target == TGSI_TEX_T_BUFFER || in->target == TGSI_TEX_T_UNKNOWN)
      return isel_unsupported(s, in, "this texture instruction or target"), NULL;
   if (s->op[sem] < 0)
      return isel_unsupported(s, in, isa_sem_name(sem)), NULL;
   struct ir_instr *ga[8], *gb[8];
   unsigned na = 0, nb = 0;
   if (sem == ISA_SEM_TXQ) {
      if (!a.lod)
         return isel_unsupported(s, in, "a size query without a level"), NULL;
      ga[na++] = a.lod;
   } else if (!nv_tex_groups(s, in, &a, ga, &na, gb, &nb)) {
      return NULL;
   }
   struct ir_instr *t = ir_mach_create(s->sh, (unsigned)s->op[sem]);
   t->type = IR_TYPE_V4;
   ir_mach_set_src(t, 0, ga, na);
   unsigned unit = 1;
   if (sem != ISA_SEM_TXQ) {
      if (nb)
         ir_mach_set_src(t, 1, gb, nb);
      else
         ir_mach_set_fixed_reg(t, 1, (unsigned)s->gpr, (unsigned)s->zero_reg, 0);
      unit = 2;
   }
   ir_mach_set_fixed(t, unit, (uint32_t)in->res);
   if (sem == ISA_SEM_TXQ)
      isel_set_mod(s, t, isa_mod_by_role(s->m, ISA_ROLE_TEX_QUERY), "dimension");
   else
      nv_tex_mods(s, t, in, &a);
   int32_t mask = components_read(s, in);
   isel_set_flag_mod(s, t, s->mod_wrmask, mask ? mask : 1); /* an int mask */
   t->flags = in->flags;
   t->line = in->line;
   ir_insert_before(in, t);
   gather_extracts(s, in, t);
   return t;
}

/*
 * CONST[buf][slot + i].comp for a computed i: the constant file holds
 * buffer 0 as slot * 4 + channel and the buffers relative reads see after
 * it (legalize keeps that layout and binds the whole declared buffers), so
 * the read is c<a + comp> with a = 4 * (base + slot + i) in an address
 * register. An index outside the declared buffer reads
 * 0, as TGSI says: clamp, read, then select 0 where the clamp changed it.
 */

/* ------------------------------------------------------------------ */
/* gfx9 MIMG                                                            */

/* The MIMG op of semantics sem whose opcode holds the level mode `lod`
 * (NULL: any), the depth compare and the offsets, reading naddr address
 * registers (0: any), or -1. */
static int
mimg_op(const struct isel *s, enum isa_sem sem, const char *lod, bool cmp, bool off, unsigned naddr)
{
   int ml = isa_mod_by_role(s->m, ISA_ROLE_TEX_LOD),
       mc = isa_mod_by_role(s->m, ISA_ROLE_TEX_SHADOW),
       mo = isa_mod_by_role(s->m, ISA_ROLE_TEX_OFFSET);
   int lv = lod && ml >= 0 ? isa_mod_value(s->m, (unsigned)ml, lod) : -1;
   unsigned n;
   const uint16_t *ops = isa_ops_by_sem(s->m, sem, &n);
   for (unsigned i = 0; i < n; i++) {
      struct isa_insn t;
      isa_insn_init(s->m, ops[i], &t);
      if ((lod && (ml < 0 || t.mod[ml] != lv)) || (mc >= 0 && !!t.mod[mc] != cmp) ||
          (mc < 0 && cmp) || (mo >= 0 && !!t.mod[mo] != off) || (mo < 0 && off))
         continue;
      if (naddr && isa_opnd_count(s->m, &t, ISA_SLOT_SRC(0)) != naddr)
         continue;
      return ops[i];
   }
   return -1;
}

/* Texel offsets as MIMG takes them: 6 bits each, a byte apart; constant
 * ones folded (out of range: refused), others clamped to -32..31. */
static struct ir_instr *
mimg_offsets(struct isel *s, struct ir_instr *in, const struct nv_tex *a)
{
   uint32_t p = 0;
   bool known = true;
   for (unsigned k = 0; k < a->noff; k++)
      if (a->off[k]->op != IR_OP_IMM)
         known = false;
      else if ((int32_t)a->off[k]->imm < -32 || (int32_t)a->off[k]->imm > 31)
         return isel_unsupported(s, in, "a texel offset outside MIMG's 6 bits"), NULL;
      else
         p |= ((uint32_t)a->off[k]->imm & 63u) << (8 * k);
   if (known)
      return isel_imm(s, in, p);
   struct ir_instr *r = NULL;
   for (unsigned k = 0; k < a->noff; k++) {
      struct ir_instr *v =
          isel_minmax(s, in, ISA_SEM_SMAX, false, "s32", a->off[k], isel_imm(s, in, (uint32_t)-32));
      v = v ? isel_minmax(s, in, ISA_SEM_SMIN, true, "s32", v, isel_imm(s, in, 31)) : NULL;
      v = v ? isel_build2(s, in, ISA_SEM_AND, v, isel_imm(s, in, 63)) : NULL;
      if (v && k)
         v = isel_shift(s, in, ISA_SEM_SHL, true, NULL, v, isel_imm(s, in, 8 * k));
      if (!v)
         return NULL;
      r = r ? isel_build2(s, in, ISA_SEM_OR, r, v) : v;
   }
   return r;
}

/* The address body: the spatial coordinates (a fetch's plus its
 * offsets), the layer, zeros up to 3. */
static unsigned
mimg_body(struct isel *s, struct ir_instr *in, const struct nv_tex *a, bool fetch,
          struct ir_instr **v)
{
   bool layered = tgsi_texture_is_array((enum tgsi_texture)in->target);
   unsigned nsp = a->ncoord - (layered ? 1u : 0u), n = 0;
   for (unsigned k = 0; k < nsp && n < 3; k++)
      v[n++] = fetch && k < a->noff ? isel_build2(s, in, ISA_SEM_IADD, a->coord[k], a->off[k])
                                    : a->coord[k];
   if (layered && n < 3)
      v[n++] = a->coord[nsp];
   if (a->ms && n < 3) /* 2D_MSAA: the sample index where a layer would be */
      v[n++] = a->ms;
   while (n < 3)
      v[n++] = isel_imm(s, in, 0);
   return n;
}

/* Whether v is a per-lane value that can be an address group's member as
 * it is: not a constant (an SGPR or the constant file on gfx9), not
 * another uniform register. */
static bool
lane_value(const struct isel *s, const struct ir_instr *v)
{
   if (v->op == IR_OP_LOAD_CONST)
      return false;
   int f = ir_reg_file(v);
   if (f < 0)
      return true;
   struct isa_file_info fi;
   isa_file_info(s->m, (unsigned)f, &fi);
   return fi.kind != ISA_FILE_UNIFORM;
}

/* The image_* instruction of op reading address group v[0..n), the
 * descriptors' first words the texture unit (the emulator's convention:
 * one scalar move, read as resource and sampler), as many result
 * components as are read from x on. */
static struct ir_instr *
mimg_emit(struct isel *s, struct ir_instr *in, int op, struct ir_instr **v, unsigned n,
          bool sampler)
{
   if (op < 0)
      return isel_unsupported(s, in, "an image form the gfx9 model lacks"), NULL;
   struct ir_instr *t = ir_mach_create(s->sh, (unsigned)op);
   if (isa_opnd_count(s->m, &t->mach->insn, ISA_SLOT_SRC(0)) != n)
      return isel_unsupported(s, in, "an image address the model's op does not take"), NULL;
   struct ir_instr *d = isel_descriptor(s, in, (uint32_t)in->res);
   if (!d)
      return NULL;
   /* A group is n consecutive vector registers: a value read twice
    * (.xxyz) or held in a uniform register gets a copy of its own. */
   for (unsigned k = 0; k < n; k++) {
      bool twice = false;
      for (unsigned j = 0; j < k; j++)
         twice |= v[j] == v[k];
      if (twice || !lane_value(s, v[k]))
         v[k] = opt_copy_before(s->sh, in, v[k]);
   }
   t->type = IR_TYPE_V4;
   ir_mach_set_src(t, 0, v, n);
   ir_mach_set_src(t, 1, &d, 1);
   if (sampler)
      ir_mach_set_src(t, 2, &d, 1);
   int32_t read = components_read(s, in);
   unsigned hi = 0;
   for (unsigned c = 0; c < 4; c++)
      if (read & (1 << c))
         hi = c + 1;
   int dm = isa_mod_find(s->m, "dmask"), gc = isa_mod_by_role(s->m, ISA_ROLE_TEX_COMP);
   if (t->mach->insn.sem == ISA_SEM_IMAGE_GATHER4 && gc >= 0) /* four texels, one component */
      t->mach->insn.mod[gc] = (int16_t)(1u << (in->comp & 3));
   else if (dm >= 0)
      t->mach->insn.mod[dm] = (int16_t)((1u << (hi ? hi : 1)) - 1);
   if (!opt_tuple_result(s->m, &t->mach->insn))
      t->type = IR_TYPE_32; /* x alone: one register, no extracts (mimg_finish) */
   t->flags = in->flags;
   t->line = in->line;
   ir_insert_before(in, t);
   return t;
}

/* The extracts of in read t's components; a one-register t is x. */
static struct ir_instr *
mimg_finish(struct isel *s, struct ir_instr *in, struct ir_instr *t)
{
   if (t->type == IR_TYPE_V4) {
      gather_extracts(s, in, t);
      return t;
   }
   for (unsigned i = 0; i < s->sh->nvalues; i++) {
      struct ir_instr *e = s->sh->values[i];
      if (e && !e->removed && e->op == IR_OP_EXTRACT && e->src[0] == in)
         opt_replace(s->sh, e, t);
   }
   return t;
}

/* LODQ from image_get_lod: .x and .y as they come, .z .w 0. */
static struct ir_instr *
mimg_lodq_comp(struct isel *s, struct ir_instr *pos, struct ir_instr **raw, unsigned c)
{
   return c < 2 ? raw[c] : isel_imm(s, pos, 0);
}

/* TXQS on gfx9: the sample count is 1 (.yzw 0), as the reference gives
 * it; the extracts of in read the immediates. */
static struct ir_instr *
mimg_samples(struct isel *s, struct ir_instr *in)
{
   for (unsigned i = 0; i < s->sh->nvalues; i++) {
      struct ir_instr *e = s->sh->values[i];
      if (e && !e->removed && e->op == IR_OP_EXTRACT && e->src[0] == in)
         opt_replace(s->sh, e, isel_imm(s, in, (e->comp & 3) ? 0 : 1));
   }
   return isel_imm(s, in, 1);
}

/* gfx9 lookups as the reference compiler lays them out (ref_gfx9.c,
 * emu/tex.c): [offsets] [bias] [reference] [ddx0, ddx1, ddy0, ddy1]
 * body [level]. */
static struct ir_instr *
isel_mimg(struct isel *s, struct ir_instr *in)
{
   struct nv_tex a;
   nv_tex_sources(in, &a);
   enum tgsi_texture tt = (enum tgsi_texture)in->target;
   if (tt == TGSI_TEX_T_BUFFER || tt == TGSI_TEX_T_UNKNOWN)
      return isel_unsupported(s, in, "buffer textures: the gfx9 model has no MUBUF format loads"),
             NULL;
   /* cube lookups are 2-D array ones after opt_expand (expand_cube); a
    * size query needs no face */
   if ((tt == TGSI_TEX_T_CUBE || tt == TGSI_TEX_T_SHADOWCUBE || tt == TGSI_TEX_T_CUBE_ARRAY ||
        tt == TGSI_TEX_T_SHADOWCUBE_ARRAY) &&
       in->kind != IR_TEX_txq)
      return isel_unsupported(s, in, "cube maps: TXD and fetches from a cube"), NULL;
   if (in->kind == IR_TEX_txqs) /* MODEL CHOICE (gfx9.yaml): one sample */
      return mimg_samples(s, in);
   if (tt == TGSI_TEX_T_2D_ARRAY_MSAA)
      return isel_unsupported(s, in,
                              "a layered multisample fetch: the body has no fourth register"),
             NULL;
   if (a.proj)
      return isel_unsupported(s, in, "a projection left to the texture unit"), NULL;
   struct ir_instr *v[16], *t;
   unsigned n = 0;
   switch (in->kind) {
   case IR_TEX_txq:
      if (!a.lod)
         return isel_unsupported(s, in, "a size query without a level"), NULL;
      v[n++] = a.lod;
      t = mimg_emit(s, in, mimg_op(s, ISA_SEM_IMAGE_RESINFO, NULL, false, false, 0), v, n, false);
      break;
   case IR_TEX_lodq: {
      n = mimg_body(s, in, &a, false, v);
      t = mimg_emit(s, in, mimg_op(s, ISA_SEM_IMAGE_LOD, NULL, false, false, 0), v, n, true);
      int raw[4] = {0, 1, -1, -1};
      return t ? finish_query(s, in, t, raw, mimg_lodq_comp) : NULL;
   }
   case IR_TEX_txf:
      n = mimg_body(s, in, &a, true, v);
      if (a.lod)
         v[n++] = a.lod;
      t = mimg_emit(s, in, mimg_op(s, ISA_SEM_IMAGE_LOAD, NULL, false, false, n), v, n, false);
      break;
   case IR_TEX_tg4: /* the base level (_lz), the component in dmask */
      if (a.noff && !(v[n++] = mimg_offsets(s, in, &a)))
         return NULL;
      if (a.cmp)
         v[n++] = a.cmp;
      n += mimg_body(s, in, &a, false, v + n);
      t = mimg_emit(s, in, mimg_op(s, ISA_SEM_IMAGE_GATHER4, "lz", a.cmp != NULL, a.noff != 0, n),
                    v, n, true);
      break;
   case IR_TEX_tex:
   case IR_TEX_txb:
   case IR_TEX_txl:
   case IR_TEX_txd: {
      bool d = in->kind == IR_TEX_txd;
      bool layered = tgsi_texture_is_array(tt);
      unsigned nsp = a.ncoord - (layered ? 1u : 0u);
      if (d && (nsp > 2 || a.noff))
         return isel_unsupported(s, in,
                                 "TXD: the gfx9 model's image_sample_d takes 1-D or 2-D "
                                 "derivatives and no offsets"),
                NULL;
      struct ir_instr *level = a.lod ? a.lod : a.bias;
      bool lz = in->kind == IR_TEX_txl && level && level->op == IR_OP_IMM && !level->imm;
      const char *lod = d                        ? "d"
                        : lz                     ? "lz"
                        : in->kind == IR_TEX_txb ? "lb"
                        : in->kind == IR_TEX_txl ? "ll"
                                                 : "auto";
      if (a.noff && !(v[n++] = mimg_offsets(s, in, &a)))
         return NULL;
      if (in->kind == IR_TEX_txb)
         v[n++] = level;
      if (a.cmp)
         v[n++] = a.cmp;
      if (d)
         for (unsigned k = 0; k < 4; k++) {
            unsigned c = k & 1;
            struct ir_instr *x =
                k < 2 ? (c < a.nddx ? a.ddx[c] : NULL) : (c < a.nddy ? a.ddy[c] : NULL);
            v[n++] = x && c < nsp ? x : isel_imm(s, in, 0);
         }
      n += mimg_body(s, in, &a, false, v + n);
      if (in->kind == IR_TEX_txl && !lz)
         v[n++] = level;
      t = mimg_emit(s, in, mimg_op(s, ISA_SEM_IMAGE_SAMPLE, lod, a.cmp != NULL, a.noff != 0, n), v,
                    n, true);
      break;
   }
   default:
      return isel_unsupported(s, in, "this texture instruction"), NULL;
   }
   return t ? mimg_finish(s, in, t) : NULL;
}
