/*
 * Texture instructions: where each operand sits in the instruction's
 * register groups (resolved once at load into struct emu_tex) and the
 * lookup through the env's fixed sampler (env_sample, env_fetch,
 * env_tex_query) per lane.
 *
 * A texture instruction reads up to two groups of consecutive registers:
 * A, its first register source, and B, its second (a fixed register such
 * as RZ reads as zeros); agx a third, C. The model's semantics name says
 * how the values are laid out in them, and its modifiers (by role) which
 * are present:
 *
 *  - ir3 (a3xx sam, samb, saml, isam, isaml, getsize): A = coordinates (2,
 *    3 with .3d; 1-D textures take a second, ignored one), the shadow
 *    reference (.s), the array layer (.a, a float), the projection w
 *    (.p: the coordinates and the reference are divided by it); B = the
 *    texel offsets x, y (.o, integers), then the bias (samb) or level
 *    (saml, isaml); samgq: A padded to 4, then ddx and ddy, at least 2
 *    each (the level comes from them, env.c). isaml takes integer
 *    coordinates in level-0 units, so they are shifted right by the level
 *    (ir3 "unminify_coords" on a3xx).
 *    getsize: A = the level; getlod: A = the coordinates. The texture's
 *    target is the bound one's.
 *  - NVIDIA (sm50 TEX, TLD, TLD4, TMML, TXQ, TXD): A = the array layer (an
 *    integer), then the coordinates; B = the level or bias (TEX .LL/.LB,
 *    TLD .LL), then the texel offsets packed 4 bits per component (AOFFI;
 *    TLD4: 8 bits), then the shadow reference (DC) [NAK
 *    nak_nir_lower_tex.c]. TLD4 gathers the component its field names;
 *    TMML reads A only. TXD: A = the coordinates, then the layer; B = the
 *    derivatives, ddx0, ddy0, ddx1, ddy1 (the level comes from them,
 *    env.c). TXQ: A = the level (dimension query; the texture-type query
 *    has no operand and gives the sample count in .z: 1, the env's
 *    textures being single-sampled). The target is the one the dimension
 *    field names (and its shadow form with DC), or the bound texture's
 *    when that has the same shape (RECT, MSAA).
 *
 *  - agx (texture_sample, texture_load): A = the coordinates, then for
 *    arrays the layer, an integer in the low 16 bits of the next
 *    register; B = the depth reference (.compare), then the texel offsets
 *    (.offset: 4 bits each in one register's low half); C = the level or
 *    bias, a 16-bit half register read through its view (an f16 for a
 *    sample, an integer level for a load), or with lod mode grad the
 *    gradients, ddx per spatial axis then ddy, full registers. The shape
 *    is the dim modifier's. The level query (texture_sample.query_lod,
 *    agx_lod) gives the level used and the computed one: 0 and 0, as the
 *    interpreter's LODQ. The gathers (texture_sample.gather_r/g/b/a, .gather_depth)
 *    return the named component (the depth form: the compared red) of
 *    the 2x2 footprint, as TLD4.
 *
 * A component of the write mask goes to register dst + component.
 */
#include "emu/emu_priv.h"

/* ------------------------------------------------------------------ */
/* Target shapes                                                        */

static bool
tex_cube(enum tgsi_texture t)
{
   return t == TGSI_TEX_T_CUBE || t == TGSI_TEX_T_SHADOWCUBE || t == TGSI_TEX_T_CUBE_ARRAY ||
          t == TGSI_TEX_T_SHADOWCUBE_ARRAY;
}

static bool
tex_same_shape(enum tgsi_texture a, enum tgsi_texture b)
{
   return tgsi_texture_spatial_coords(a) == tgsi_texture_spatial_coords(b) &&
          tgsi_texture_is_array(a) == tgsi_texture_is_array(b) && tex_cube(a) == tex_cube(b);
}

/* ------------------------------------------------------------------ */
/* Layout, resolved at load                                             */

static int
mod_on(const struct isa_model *m, const struct isa_insn *in, enum isa_role r)
{
   int k = isa_mod_by_role(m, r);
   return k >= 0 ? in->mod[k] : 0;
}

/* Whether the role's enum modifier holds the entry `name`. */
static bool
mod_is(const struct isa_model *m, const struct isa_insn *in, enum isa_role r, const char *name)
{
   int k = isa_mod_by_role(m, r);
   return k >= 0 && isa_mod_value(m, (unsigned)k, name) == in->mod[k];
}

#define AT(g, i) ((int8_t)((g) << 4 | (i)))

/* nb: the registers of src2, from the model's count (0 without one): the
 * offsets are there when it holds two more than the level. */
static void
layout_ir3(const struct isa_model *m, const struct isa_insn *in, unsigned nb, struct emu_tex *x)
{
   unsigned a = 0, b = 0;
   x->target = TGSI_TEX_T_UNKNOWN;
   if (in->sem == ISA_SEM_GETSIZE) {
      x->kind = EMU_TX_QUERY;
      x->lodv = AT(0, 0);
      x->nreg[0] = 1;
      return;
   }
   if (in->sem == ISA_SEM_GETLOD) { /* the coordinates: 2, or 3 with .3d */
      x->kind = EMU_TX_LOD;
      x->coord = AT(0, 0);
      x->ncoord = mod_on(m, in, ISA_ROLE_TEX_3D) ? 3 : 2;
      x->nreg[0] = x->ncoord;
      return;
   }
   x->kind = in->sem == ISA_SEM_ISAM || in->sem == ISA_SEM_ISAML ? EMU_TX_FETCH : EMU_TX_SAMPLE;
   x->lod = in->sem == ISA_SEM_SAMB                               ? EMU_TL_BIAS
            : in->sem == ISA_SEM_SAML || in->sem == ISA_SEM_ISAML ? EMU_TL_LOD
            : in->sem == ISA_SEM_ISAM                             ? EMU_TL_ZERO
                                                                  : EMU_TL_AUTO;
   x->unminify = in->sem == ISA_SEM_ISAML;
   x->coord = AT(0, 0);
   x->ncoord = mod_on(m, in, ISA_ROLE_TEX_3D) ? 3 : 2;
   a = x->ncoord;
   x->ref = mod_on(m, in, ISA_ROLE_TEX_SHADOW) ? AT(0, a++) : -1;
   x->layer = mod_on(m, in, ISA_ROLE_TEX_ARRAY) ? AT(0, a++) : -1;
   x->proj = mod_on(m, in, ISA_ROLE_TEX_PROJ) ? AT(0, a++) : -1;
   if (in->sem == ISA_SEM_SAMGQ) { /* padded to 4, then ddx, ddy */
      unsigned n = MAX2(x->ncoord, 2u);
      x->ddx = AT(0, 4);
      x->ddy = AT(0, 4 + n);
      x->dstep = 1;
      x->ngrad = (uint8_t)n;
      x->nreg[0] = (uint8_t)(4 + 2 * n);
      return;
   }
   bool lod = x->lod == EMU_TL_BIAS || x->lod == EMU_TL_LOD;
   if (nb >= 2 + (lod ? 1u : 0u)) { /* .o: a fixed flag on sam.o, hence the count */
      x->off = AT(1, b);
      b += 2;
   }
   if (lod)
      x->lodv = AT(1, b++);
   x->nreg[0] = (uint8_t)a;
   x->nreg[1] = (uint8_t)b;
}

/* The target the sm50 dimension field names (its shadow form with DC). */
static enum tgsi_texture
nv_target(const struct isa_model *m, const struct isa_insn *in, bool shadow)
{
   static const struct {
      const char *name;
      enum tgsi_texture plain, shadow;
   } dims[] = {
       {"1d", TGSI_TEX_T_1D, TGSI_TEX_T_SHADOW1D},
       {"array_1d", TGSI_TEX_T_1D_ARRAY, TGSI_TEX_T_SHADOW1D_ARRAY},
       {"2d", TGSI_TEX_T_2D, TGSI_TEX_T_SHADOW2D},
       {"array_2d", TGSI_TEX_T_2D_ARRAY, TGSI_TEX_T_SHADOW2D_ARRAY},
       {"3d", TGSI_TEX_T_3D, TGSI_TEX_T_3D},
       {"cube", TGSI_TEX_T_CUBE, TGSI_TEX_T_SHADOWCUBE},
       {"array_cube", TGSI_TEX_T_CUBE_ARRAY, TGSI_TEX_T_SHADOWCUBE_ARRAY},
   };
   for (unsigned i = 0; i < ARRAY_SIZE(dims); i++)
      if (mod_is(m, in, ISA_ROLE_TEX_DIM, dims[i].name))
         return shadow ? dims[i].shadow : dims[i].plain;
   return TGSI_TEX_T_UNKNOWN;
}

static void
layout_nv(const struct isa_model *m, const struct isa_insn *in, struct emu_tex *x)
{
   unsigned a = 0, b = 0;
   if (in->sem == ISA_SEM_TXQ) {
      bool type = mod_is(m, in, ISA_ROLE_TEX_QUERY, "texture_type");
      x->kind = type ? EMU_TX_SAMPLES : EMU_TX_QUERY;
      x->lodv = type ? -1 : AT(0, 0);
      x->nreg[0] = type ? 0 : 1;
      x->target = TGSI_TEX_T_UNKNOWN;
      return;
   }
   bool shadow = mod_on(m, in, ISA_ROLE_TEX_SHADOW) != 0;
   x->target = (uint8_t)nv_target(m, in, shadow);
   if (in->sem == ISA_SEM_TMML) { /* [layer], coordinates */
      x->kind = EMU_TX_LOD;
      x->ncoord = (uint8_t)tgsi_texture_spatial_coords((enum tgsi_texture)x->target);
      x->layer = tgsi_texture_is_array((enum tgsi_texture)x->target) ? AT(0, a++) : -1;
      x->coord = AT(0, a);
      x->nreg[0] = (uint8_t)(a + x->ncoord);
      return;
   }
   x->kind = in->sem == ISA_SEM_TLD ? EMU_TX_FETCH : EMU_TX_SAMPLE;
   x->layer_int = 1;
   x->off_packed = in->sem == ISA_SEM_TLD4 ? 8 : 4;
   if (in->sem == ISA_SEM_TLD4)
      x->gather = (uint8_t)(1 + mod_on(m, in, ISA_ROLE_TEX_COMP));
   bool layered = tgsi_texture_is_array((enum tgsi_texture)x->target);
   x->ncoord = (uint8_t)tgsi_texture_spatial_coords((enum tgsi_texture)x->target);
   if (in->sem == ISA_SEM_TXD) { /* coordinates, layer | derivatives */
      x->coord = AT(0, 0);
      a = x->ncoord;
      x->layer = layered ? AT(0, a++) : -1;
      x->nreg[0] = (uint8_t)a;
      x->nreg[1] = (uint8_t)(2 * x->ncoord);
      x->ddx = AT(1, 0); /* ddx0, ddy0, ddx1, ddy1, ... */
      x->ddy = AT(1, 1);
      x->dstep = 2;
      x->ngrad = x->ncoord;
      x->lod = EMU_TL_AUTO;
      return;
   }
   x->layer = layered ? AT(0, a++) : -1;
   x->coord = AT(0, a);
   a += x->ncoord;
   if (in->sem == ISA_SEM_TLD)
      x->lod = mod_is(m, in, ISA_ROLE_TEX_FETCH_LOD, "ll") ? EMU_TL_LOD : EMU_TL_ZERO;
   else
      x->lod = mod_is(m, in, ISA_ROLE_TEX_LOD, "ll")   ? EMU_TL_LOD
               : mod_is(m, in, ISA_ROLE_TEX_LOD, "lb") ? EMU_TL_BIAS
               : mod_is(m, in, ISA_ROLE_TEX_LOD, "lz") ? EMU_TL_ZERO
                                                       : EMU_TL_AUTO;
   if (mod_on(m, in, ISA_ROLE_TEX_MS))
      b++; /* the sample index: one sample, ignored */
   if (x->lod == EMU_TL_LOD || x->lod == EMU_TL_BIAS)
      x->lodv = AT(1, b++);
   if (mod_on(m, in, ISA_ROLE_TEX_OFFSET))
      x->off = AT(1, b++);
   x->ref = shadow ? AT(1, b++) : -1;
   x->nreg[0] = (uint8_t)a;
   x->nreg[1] = (uint8_t)b;
}

/* gfx9 MIMG (image_sample*, image_load*, image_get_resinfo,
 * image_get_lod): one address group, [offsets] [bias] [depth reference]
 * [derivatives: 2 per direction] coordinates [level] -- the hardware's
 * order with the coordinates a fixed body of 3 registers: the spatial
 * ones, then the array layer (a float; an integer for loads), then
 * unused ones. Offsets are packed 6 bits each, 8 apart. The target is
 * the bound texture's (the resource's, as the hardware has it). */
bool
emu_tex_by_rsrc(unsigned sem)
{
   return sem == ISA_SEM_IMAGE_SAMPLE || sem == ISA_SEM_IMAGE_LOAD || sem == ISA_SEM_IMAGE_LOD ||
          sem == ISA_SEM_IMAGE_RESINFO || sem == ISA_SEM_IMAGE_GATHER4;
}

static void
layout_amd(const struct isa_model *m, const struct isa_insn *in, struct emu_tex *x)
{
   unsigned a = 0;
   x->target = TGSI_TEX_T_UNKNOWN;
   x->ncoord = 3;
   x->layer_amd = 1;
   if (in->sem == ISA_SEM_IMAGE_RESINFO) {
      x->kind = EMU_TX_QUERY;
      x->lodv = AT(0, 0);
      x->nreg[0] = 1;
      return;
   }
   if (in->sem == ISA_SEM_IMAGE_LOAD) { /* body, [level] (image_load_mip) */
      x->kind = EMU_TX_FETCH;
      x->layer_int = 1;
      x->coord = AT(0, 0);
      bool mip = emu_opnd_count(m, in, ISA_SLOT_SRC(0)) > 3;
      x->lod = mip ? EMU_TL_LOD : EMU_TL_ZERO;
      x->lodv = mip ? AT(0, 3) : -1;
      x->nreg[0] = mip ? 4 : 3;
      return;
   }
   x->kind = in->sem == ISA_SEM_IMAGE_LOD ? EMU_TX_LOD : EMU_TX_SAMPLE;
   if (in->sem == ISA_SEM_IMAGE_GATHER4) {            /* the one component dmask names */
      int dm = isa_mod_by_role(m, ISA_ROLE_TEX_COMP); /* its bit */
      unsigned mask = dm >= 0 ? (unsigned)in->mod[dm] & 15 : 1, comp = 0;
      while (comp < 3 && !(mask >> comp & 1))
         comp++;
      x->gather = (uint8_t)(1 + comp);
   }
   bool ll = mod_is(m, in, ISA_ROLE_TEX_LOD, "ll"), lb = mod_is(m, in, ISA_ROLE_TEX_LOD, "lb");
   x->lod = ll                                      ? EMU_TL_LOD
            : lb                                    ? EMU_TL_BIAS
            : mod_is(m, in, ISA_ROLE_TEX_LOD, "lz") ? EMU_TL_ZERO
                                                    : EMU_TL_AUTO;
   if (mod_on(m, in, ISA_ROLE_TEX_OFFSET)) {
      x->off = AT(0, a++);
      x->off_packed = 6;
   }
   if (lb)
      x->lodv = AT(0, a++);
   x->ref = mod_on(m, in, ISA_ROLE_TEX_SHADOW) ? AT(0, a++) : -1;
   if (mod_is(m, in, ISA_ROLE_TEX_LOD, "d")) { /* ddx0, ddx1, ddy0, ddy1 */
      x->ddx = AT(0, a);
      x->ddy = AT(0, a + 2);
      x->dstep = 1;
      x->ngrad = 2;
      a += 4;
   }
   x->coord = AT(0, a);
   a += 3;
   if (ll)
      x->lodv = AT(0, a++);
   x->nreg[0] = (uint8_t)a;
}

static void
layout_agx(const struct isa_model *m, const struct isa_insn *in, struct emu_tex *x)
{
   static const struct {
      const char *name;
      enum tgsi_texture plain, shadow;
   } dims[] = {
       {"1d", TGSI_TEX_T_1D, TGSI_TEX_T_SHADOW1D},
       {"1d_array", TGSI_TEX_T_1D_ARRAY, TGSI_TEX_T_SHADOW1D_ARRAY},
       {"2d", TGSI_TEX_T_2D, TGSI_TEX_T_SHADOW2D},
       {"2d_array", TGSI_TEX_T_2D_ARRAY, TGSI_TEX_T_SHADOW2D_ARRAY},
       {"2d_ms", TGSI_TEX_T_2D_MSAA, TGSI_TEX_T_2D_MSAA},
       {"3d", TGSI_TEX_T_3D, TGSI_TEX_T_3D},
       {"cube", TGSI_TEX_T_CUBE, TGSI_TEX_T_SHADOWCUBE},
       {"cube_array", TGSI_TEX_T_CUBE_ARRAY, TGSI_TEX_T_SHADOWCUBE_ARRAY},
   };
   bool shadow = mod_on(m, in, ISA_ROLE_TEX_SHADOW) != 0;
   x->target = TGSI_TEX_T_UNKNOWN;
   for (unsigned i = 0; i < ARRAY_SIZE(dims); i++)
      if (mod_is(m, in, ISA_ROLE_TEX_DIM, dims[i].name))
         x->target = (uint8_t)(shadow ? dims[i].shadow : dims[i].plain);
   unsigned nsp = MIN2(tgsi_texture_spatial_coords((enum tgsi_texture)x->target), 3u), b = 0;
   x->coord = AT(0, 0);
   x->ncoord = (uint8_t)nsp;
   if (tgsi_texture_is_array((enum tgsi_texture)x->target)) {
      x->layer = AT(0, nsp);
      x->layer_int = x->layer16 = 1;
   }
   /* a 2d_ms texture's sample index sits where a layer would; the env's
    * multisample textures hold one sample, read whatever the index */
   bool ms = x->target == TGSI_TEX_T_2D_MSAA;
   x->nreg[0] = (uint8_t)(nsp + (x->layer >= 0 || ms));
   if (shadow)
      x->ref = AT(1, b++);
   if (mod_on(m, in, ISA_ROLE_TEX_OFFSET)) {
      x->off = AT(1, b++);
      x->off_packed = 4;
   }
   x->nreg[1] = (uint8_t)b;
   bool lod = mod_is(m, in, ISA_ROLE_TEX_LOD, "lod"),
        bias = mod_is(m, in, ISA_ROLE_TEX_LOD, "bias");
   if (lod || bias) {
      x->lodv = AT(2, 0);
      x->dfetch = 1;
   } else if (mod_is(m, in, ISA_ROLE_TEX_LOD, "grad")) { /* C: ddx per axis, then ddy */
      x->ddx = AT(2, 0);
      x->ddy = AT(2, nsp);
      x->dstep = 1;
      x->ngrad = (uint8_t)nsp;
      x->nreg[2] = (uint8_t)(2 * nsp);
   }
   if (in->sem == ISA_SEM_AGX_TXF) {
      x->kind = EMU_TX_FETCH;
      x->lod = lod ? EMU_TL_LOD : EMU_TL_ZERO;
   } else if (in->sem == ISA_SEM_AGX_LOD) {
      x->kind = EMU_TX_LOD;
   } else if (in->sem == ISA_SEM_AGX_GATHER) { /* the depth form gathers red */
      x->kind = EMU_TX_SAMPLE;
      x->gather = (uint8_t)(1 + (shadow ? 0 : mod_on(m, in, ISA_ROLE_TEX_COMP)));
   } else {
      x->kind = EMU_TX_SAMPLE;
      x->lod = lod ? EMU_TL_LOD : bias ? EMU_TL_BIAS : EMU_TL_AUTO;
   }
}

bool
emu_tex_setup(const struct emu_code *c, const struct isa_insn *in, int grp_b, struct emu_op *op)
{
   struct emu_tex *x = &op->tex;
   unsigned nb = grp_b >= 0 ? emu_opnd_count(c->model, in, ISA_SLOT_SRC(grp_b)) : 0;
   memset(x, 0, sizeof(*x));
   x->coord = x->layer = x->ref = x->lodv = x->off = x->proj = x->ddx = x->ddy = -1;
   switch (in->sem) {
   case ISA_SEM_SAM:
   case ISA_SEM_SAMB:
   case ISA_SEM_SAMGQ:
   case ISA_SEM_SAML:
   case ISA_SEM_ISAM:
   case ISA_SEM_ISAML:
   case ISA_SEM_GETSIZE:
   case ISA_SEM_GETLOD:
      layout_ir3(c->model, in, nb, x);
      return true;
   case ISA_SEM_TEX:
   case ISA_SEM_TLD4:
   case ISA_SEM_TLD:
   case ISA_SEM_TXQ:
   case ISA_SEM_TXD:
   case ISA_SEM_TMML:
      layout_nv(c->model, in, x);
      return x->kind == EMU_TX_QUERY || x->kind == EMU_TX_SAMPLES ||
             x->target != TGSI_TEX_T_UNKNOWN;
   case ISA_SEM_IMAGE_SAMPLE:
   case ISA_SEM_IMAGE_LOAD:
   case ISA_SEM_IMAGE_LOD:
   case ISA_SEM_IMAGE_RESINFO:
   case ISA_SEM_IMAGE_GATHER4:
      layout_amd(c->model, in, x);
      return true;
   case ISA_SEM_AGX_SAMPLE:
   case ISA_SEM_AGX_TXF:
   case ISA_SEM_AGX_LOD:
   case ISA_SEM_AGX_GATHER:
      layout_agx(c->model, in, x);
      return x->target != TGSI_TEX_T_UNKNOWN;
   default:
      return false;
   }
}

/* ------------------------------------------------------------------ */
/* Execution                                                            */

/* The registers of both groups, read once for the whole wave. */
struct tex_regs {
   const uint32_t *g[3][16];
};

static void
read_groups(struct emu_wave *w, const struct emu_op *op, int64_t t, struct tex_regs *r)
{
   struct emu_run *run = w->run;
   for (unsigned g = 0; g < 3; g++) {
      const struct emu_src *s = &op->src[g];
      for (unsigned k = 0; k < op->tex.nreg[g] && k < 16; k++) {
         if (s->kind == EMU_S_REG && k < s->limit) {
            r->g[g][k] = emu_reg_read(w, op, s, s->unit + k, t);
            if (op->war)
               emu_mark_war(w, op, s->unit + k, t);
         } else {
            /* A fixed register (RZ), or past the file: the value itself. */
            uint32_t *tmp = run->tmp_comp + (size_t)(8 + 4 * g + (k & 3)) * run->maxlanes;
            uint32_t v = s->kind == EMU_S_IMM ? s->value : 0;
            for (unsigned i = 0; i < w->n; i++)
               tmp[i] = v;
            r->g[g][k] = tmp;
         }
      }
   }
   if (op->tex.dfetch) /* agx: a half register through its view */
      r->g[2][0] = emu_fetch(w, op, &op->src[2], 0, t, run->tmp_src[3]);
}

static uint32_t
at(const struct tex_regs *r, int pos, unsigned k, unsigned lane)
{
   return r->g[(pos >> 4) & 3][((pos & 15) + k) & 15][lane];
}

/* The target of this lookup: the bound texture's when the encoding does
 * not say, or when it has the shape the encoding names. */
static enum tgsi_texture
lookup_target(const struct env *e, const struct emu_op *op, unsigned u)
{
   enum tgsi_texture bound =
       u < ENV_MAX_TEXTURES && e->tex[u].bound ? e->tex[u].target : TGSI_TEX_T_UNKNOWN;
   enum tgsi_texture t = (enum tgsi_texture)op->tex.target;
   if (t == TGSI_TEX_T_UNKNOWN)
      return bound == TGSI_TEX_T_UNKNOWN ? TGSI_TEX_T_2D : bound;
   return bound != TGSI_TEX_T_UNKNOWN && tex_same_shape(t, bound) &&
                  tgsi_texture_is_shadow(t) == tgsi_texture_is_shadow(bound)
              ? bound
              : t;
}

static void
offsets(const struct emu_tex *x, const struct tex_regs *r, unsigned i, int32_t off[3])
{
   off[0] = off[1] = off[2] = 0;
   if (x->off < 0)
      return;
   if (!x->off_packed) {
      off[0] = (int32_t)at(r, x->off, 0, i);
      off[1] = (int32_t)at(r, x->off, 1, i);
      return;
   }
   uint32_t p = at(r, x->off, 0, i), w = x->off_packed, m = (1u << w) - 1, s = 1u << (w - 1);
   unsigned step = x->layer_amd ? 8 : w; /* gfx9: 6 bits each, a byte apart */
   for (unsigned k = 0; k < 3; k++)
      off[k] = (int32_t)((p >> (step * k) & m) ^ s) - (int32_t)s;
}

static void
sample_lane(struct env *e, const struct emu_op *op, unsigned unit, enum tgsi_texture target,
            const struct tex_regs *r, unsigned i, uint32_t out[4])
{
   const struct emu_tex *x = &op->tex;
   struct env_sample_req q = {.target = target};
   unsigned nsp = tgsi_texture_spatial_coords(target);
   for (unsigned k = 0; k < nsp && k < x->ncoord; k++)
      q.coord[k] = uif(at(r, x->coord, k, i));
   if (x->layer >= 0 && nsp < 4) {
      uint32_t l = at(r, x->layer, 0, i) & (x->layer16 ? 0xffffu : ~0u);
      q.coord[nsp] = x->layer_int ? (float)l : uif(l);
   }
   if (x->layer_amd && tgsi_texture_is_array(target) && nsp < 3)
      q.coord[nsp] = uif(at(r, x->coord, nsp, i));
   if (x->layer_amd && tex_cube(target)) { /* gfx9: face coordinates, face + 8 * layer */
      q.cube_face = true;
      q.coord[3] = 0.0f;
   }
   if (x->ref >= 0) {
      q.compare = true;
      q.ref = uif(at(r, x->ref, 0, i));
   }
   if (x->proj >= 0) {
      float pw = uif(at(r, x->proj, 0, i));
      for (unsigned k = 0; k < nsp; k++)
         q.coord[k] /= pw;
      q.ref /= pw;
   }
   if (x->lodv >= 0)
      q.lod = uif(at(r, x->lodv, 0, i)); /* this sampler's implicit level is 0 */
   if (x->ddx >= 0) {
      q.grad = true;
      for (unsigned k = 0; k < x->ngrad && k < 3; k++) {
         q.ddx[k] = uif(at(r, x->ddx, k * x->dstep, i));
         q.ddy[k] = uif(at(r, x->ddy, k * x->dstep, i));
      }
   }
   if (x->gather) {
      q.gather = true;
      q.comp = x->gather - 1u;
   }
   offsets(x, r, i, q.offset);
   env_sample(e, unit, &q, out);
}

static void
fetch_lane(struct env *e, const struct emu_op *op, unsigned unit, enum tgsi_texture target,
           const struct tex_regs *r, unsigned i, uint32_t out[4])
{
   const struct emu_tex *x = &op->tex;
   int32_t c[3] = {0, 0, 0}, off[3], lod = 0;
   unsigned nsp = MIN2(tgsi_texture_spatial_coords(target), 3u);
   if (x->lodv >= 0)
      lod = (int32_t)at(r, x->lodv, 0, i);
   for (unsigned k = 0; k < nsp && k < x->ncoord; k++) {
      c[k] = (int32_t)at(r, x->coord, k, i);
      if (x->unminify)
         c[k] = lod >= 0 && lod < 32 ? c[k] >> lod : 0;
   }
   if (x->layer >= 0 && nsp < 3)
      c[nsp] = (int32_t)(at(r, x->layer, 0, i) & (x->layer16 ? 0xffffu : ~0u));
   if (x->layer_amd && tgsi_texture_is_array(target) && nsp < 3)
      c[nsp] = (int32_t)at(r, x->coord, nsp, i);
   offsets(x, r, i, off);
   env_fetch(e, unit, target, c, lod, off, out);
}

/* Whether every lane's lookup can go through env_sample_lanes: a plain
 * sample (no gather, gradients, projection or gfx9 array layout) of one
 * unit, of the bound texture's own target. */
static bool
lanes_lookup(const struct env *e, const struct emu_op *op, unsigned unit, enum tgsi_texture target)
{
   const struct emu_tex *x = &op->tex;
   return x->kind == EMU_TX_SAMPLE && !x->gather && x->ddx < 0 && x->proj < 0 &&
          (!x->layer_amd || !tgsi_texture_is_array(target)) &&
          env_sample_lanes_take(e, unit, target);
}

/* gfx9: the texture every active lane's descriptor names (rs, the first
 * word), or -1 when they name several or one out of range: then each
 * lane looks up its own. */
static int
rsrc_unit(const struct emu_wave *w, const uint32_t *rs, const uint32_t *mask)
{
   unsigned n = w->n, f = emu_first_lane(mask, n);
   if (f == n || rs[f] >= ENV_MAX_TEXTURES)
      return -1;
   uint32_t u = rs[f], bad = 0;
   for (unsigned i = 0; i < n; i++)
      bad |= (rs[i] ^ u) & (0u - (mask[i] & 1u));
   return bad ? -1 : (int)u;
}

/* The lookups of every lane of w at once, into components 0..3 of
 * tmp_comp: sample_lane's request as lane arrays (components 4..7 and
 * 20..22 hold zeros, the layer and unpacked offsets). Lanes outside the
 * mask get results too; emu_write_comps does not store them. */
static void
sample_lanes(struct emu_wave *w, const struct emu_op *op, unsigned unit, enum tgsi_texture target,
             const struct tex_regs *r)
{
   struct emu_run *run = w->run;
   const struct emu_tex *x = &op->tex;
   unsigned n = w->n;
   uint32_t *tc = run->tmp_comp;
   size_t ml = run->maxlanes;
   uint32_t *zero = tc + 4 * ml, *layer = tc + 5 * ml;
   memset(zero, 0, n * 4);
   struct env_sample_lanes q = {.target = target};
   unsigned nsp = tgsi_texture_spatial_coords(target);
   for (unsigned k = 0; k < 4; k++)
      q.coord[k] = zero;
   for (unsigned k = 0; k < nsp && k < x->ncoord; k++)
      q.coord[k] = r->g[(x->coord >> 4) & 3][((x->coord & 15) + k) & 15];
   if (x->layer >= 0 && nsp < 4) {
      const uint32_t *l = r->g[(x->layer >> 4) & 3][x->layer & 15];
      uint32_t m = x->layer16 ? 0xffffu : ~0u;
      if (x->layer_int)
         for (unsigned i = 0; i < n; i++)
            layer[i] = fui((float)(l[i] & m));
      else
         for (unsigned i = 0; i < n; i++)
            layer[i] = l[i] & m;
      q.coord[nsp] = layer;
   }
   if (x->ref >= 0)
      q.ref = r->g[(x->ref >> 4) & 3][x->ref & 15];
   if (x->lodv >= 0)
      q.lod = r->g[(x->lodv >> 4) & 3][x->lodv & 15];
   q.off[0] = q.off[1] = q.off[2] = zero;
   if (x->off >= 0 && !x->off_packed) {
      q.off[0] = r->g[(x->off >> 4) & 3][x->off & 15];
      q.off[1] = r->g[(x->off >> 4) & 3][((x->off & 15) + 1) & 15];
   } else if (x->off >= 0) {
      uint32_t *o[3] = {tc + 6 * ml, tc + 7 * ml, tc + 20 * ml};
      for (unsigned i = 0; i < n; i++) {
         int32_t off[3];
         offsets(x, r, i, off);
         for (unsigned k = 0; k < 3; k++)
            o[k][i] = (uint32_t)off[k];
      }
      for (unsigned k = 0; k < 3; k++)
         q.off[k] = o[k];
   }
   uint32_t *const out[4] = {tc, tc + ml, tc + 2 * ml, tc + 3 * ml};
   bool took = env_sample_lanes(run->env, unit, &q, n, out);
   assert(took);
   (void)took;
   if (op->dmask) /* gfx9: the dmask components, packed */
      for (unsigned i = 0; i < n; i++) {
         uint32_t p[4] = {0, 0, 0, 0};
         for (unsigned c = 0, k = 0; c < 4; c++)
            if (op->dmask & (1u << c))
               p[k++] = out[c][i];
         for (unsigned c = 0; c < 4; c++)
            out[c][i] = p[c];
      }
}

void
emu_exec_tex(struct emu_wave *w, const struct emu_op *op, int64_t t)
{
   struct emu_run *run = w->run;
   struct tex_regs r;
   read_groups(w, op, t, &r);
   /* gfx9: the resource descriptor's first word names the texture; the
    * others are read as well (their values are not modelled), so a write
    * of any of them still in its window is a hazard */
   const uint32_t *rs = op->tex_rsrc ? emu_fetch(w, op, &op->src[2], 0, t, run->tmp_src[2]) : NULL;
   if (rs && op->src[2].kind == EMU_S_REG)
      for (unsigned j = 1; j < op->src[2].count; j++)
         emu_reg_read(w, op, &op->src[2], op->src[2].unit + j, t);
   uint32_t *mask;
   unsigned on = emu_exec_mask(w, op, t, &mask);
   if (!on)
      return;
   struct env *e = run->env;
   unsigned unit = op->tex_unit;
   enum tgsi_texture target = lookup_target(e, op, unit);
   /* every active lane of one unit: the lane loop below would look up
    * that unit and its target for each */
   int one = rs ? rsrc_unit(w, rs, mask) : (int)unit;
   if (one >= 0) {
      enum tgsi_texture t1 = rs ? lookup_target(e, op, (unsigned)one) : target;
      if (lanes_lookup(e, op, (unsigned)one, t1)) {
         sample_lanes(w, op, (unsigned)one, t1, &r);
         emu_write_comps(w, op, t, op->wrmask, mask, on);
         return;
      }
   }
   for (unsigned i = 0; i < w->n; i++) {
      uint32_t out[4] = {0, 0, 0, 0};
      if (rs && rs[i] != unit) {
         unit = rs[i] < ENV_MAX_TEXTURES ? rs[i] : ENV_MAX_TEXTURES;
         target = lookup_target(e, op, unit);
      }
      if (mask[i] & 1) {
         if (op->tex.kind == EMU_TX_QUERY)
            env_tex_query(e, unit, (int32_t)at(&r, op->tex.lodv, 0, i), out);
         else if (op->tex.kind == EMU_TX_SAMPLES) /* the env's textures have one sample */
            out[2] = 1;
         else if (op->tex.kind == EMU_TX_LOD)
            ; /* level 0 as x.8 fixed point, computed and clamped: 0 */
         else if (op->tex.kind == EMU_TX_FETCH)
            fetch_lane(e, op, unit, target, &r, i, out);
         else
            sample_lane(e, op, unit, target, &r, i, out);
      }
      if (op->dmask) { /* gfx9: the dmask components, packed */
         uint32_t p[4] = {0, 0, 0, 0};
         for (unsigned c = 0, k = 0; c < 4; c++)
            if (op->dmask & (1u << c))
               p[k++] = out[c];
         memcpy(out, p, sizeof(p));
      }
      for (unsigned c = 0; c < 4; c++)
         run->tmp_comp[c * run->maxlanes + i] = out[c];
   }
   emu_write_comps(w, op, t, op->wrmask, mask, on);
}
