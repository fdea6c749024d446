/*
 * TGSI -> LLVM IR, buffers, shared memory and textures (llvm_tr.h).
 */
#include "compiler/llvm/llvm_tr.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- memory ------------------------------------------------------------- */

static val
ptr_global(struct tr *t, unsigned b, val off)
{
   val base = t->buf_base[b];
   val lo = tr_emit(t, "zext i32 %s to i64", tr_v(base));
   val o = tr_emit(t, "zext i32 %s to i64", tr_v(off));
   val a = tr_emit(t, "add i64 %s, %s", tr_v(lo), tr_v(o));
   return tr_emit(t, "inttoptr i64 %s to i32 addrspace(1)*", tr_v(a));
}

static val
ptr_lds(struct tr *t, val off)
{
   return tr_emit(t, "inttoptr i32 %s to i32 addrspace(3)*", tr_v(off));
}

static bool
resource(struct tr *t, const struct tgsi_insn *in, const struct tgsi_reg *r, unsigned *b)
{
   if (r->indirect || r->index < 0 || r->index >= 32)
      return tr_fail(t, in, "indirect or out-of-range resource index not translated");
   *b = (unsigned)r->index;
   if (r->file == TGSI_FILE_BUFFER) {
      if (!t->buf_base[*b]) {
         tr_new_arg(t, 's', ".value 0x%x", (unsigned)(0x01u + *b) << 24);
         t->buf_base[*b] = ARG_ID(t->nargs - 1);
         tr_new_arg(t, 's', ".size BUFFER[%u].x", *b);
         t->buf_size[*b] = ARG_ID(t->nargs - 1);
         tr_directive(t, ".buffer %u", *b);
      }
      return true;
   }
   if (r->file == TGSI_FILE_MEMORY) {
      const struct tgsi_decl *d = tgsi_find_decl(t->s, TGSI_FILE_MEMORY, *b);
      if (!d || !d->has_mem_type || d->mem_type != TGSI_MEMTYPE_SHARED || *b)
         return tr_fail(t, in, "MEMORY other than one shared declaration not translated");
      if (!t->lds_size) {
         tr_new_arg(t, 's', ".size MEMORY.x");
         t->lds_size = ARG_ID(t->nargs - 1);
      }
      return true;
   }
   return tr_fail(t, in, "%s resources not translated", tgsi_file_names[r->file]);
}

static val
mem_ptr(struct tr *t, const struct tgsi_reg *r, unsigned b, val off)
{
   return r->file == TGSI_FILE_BUFFER ? ptr_global(t, b, off) : ptr_lds(t, off);
}

static const char *
space(const struct tgsi_reg *r)
{
   return r->file == TGSI_FILE_BUFFER ? "addrspace(1)" : "addrspace(3)";
}

static val
mem_size(struct tr *t, const struct tgsi_reg *r, unsigned b)
{
   return r->file == TGSI_FILE_BUFFER ? t->buf_size[b] : t->lds_size;
}

/* LOAD: words 0..n-1 at the byte offset, all or nothing: in bounds and
 * aligned, else zeros (env_mem_load). The address is made safe with a
 * select so that no branch is needed. */
bool
tr_mem_load(struct tr *t, const struct tgsi_insn *in)
{
   const struct tgsi_reg *r = &in->src[0].reg;
   unsigned b, used = 0, n = 0;
   if (!resource(t, in, r, &b))
      return false;
   for (unsigned c = 0; c < 4; c++)
      if (in->dst[0].mask & (1u << c))
         used |= 1u << (in->src[0].swz[c] & 3);
   while (used >> n)
      n++;
   val off = tr_src(t, in, 1, 0), size = mem_size(t, r, b);
   val al = tr_icmp(t, "eq", tr_ibin(t, "and", off, K(3)), K(0));
   val le = tr_icmp(t, "ule", off, size);
   val room = tr_icmp(t, "uge", tr_ibin(t, "sub", size, off), K(4 * n));
   val ok = tr_emit(t, "and i1 %s, %s", tr_v(al),
                    tr_v(tr_emit(t, "and i1 %s, %s", tr_v(le), tr_v(room))));
   val safe = tr_sel(t, ok, off, K(0));
   val w[4] = {0, 0, 0, 0};
   for (unsigned c = 0; c < n; c++) {
      val p = mem_ptr(t, r, b, tr_ibin(t, "add", safe, K(4 * c)));
      val l = tr_emit(t, "load i32, i32 %s* %s, align 4", space(r), tr_v(p));
      w[c] = tr_sel(t, ok, l, K(0));
   }
   val res[4];
   for (unsigned c = 0; c < 4; c++)
      res[c] = w[in->src[0].swz[c] & 3] ? w[in->src[0].swz[c] & 3] : K(0);
   for (unsigned c = 0; c < 4; c++)
      if (in->dst[0].mask & (1u << c))
         tr_store(t, in, c, res[c]);
   return true;
}

/* STORE: each written channel stored if aligned and its word in bounds. */
bool
tr_mem_store(struct tr *t, const struct tgsi_insn *in)
{
   const struct tgsi_reg *r = &in->dst[0].reg;
   unsigned b = 0;
   if (!resource(t, in, r, &b))
      return false;
   val off = tr_src(t, in, 0, 0), size = mem_size(t, r, b);
   val v[4];
   for (unsigned c = 0; c < 4; c++)
      v[c] = tr_src(t, in, 1, c);
   val al = tr_icmp(t, "eq", tr_ibin(t, "and", off, K(3)), K(0));
   for (unsigned c = 0; c < 4; c++) {
      if (!(in->dst[0].mask & (1u << c)))
         continue;
      val at = tr_ibin(t, "add", off, K(4 * c));
      /* at + 4 <= size, without wrapping: off <= size - 4 - 4c */
      val fits = tr_icmp(t, "uge", size, K(4 * c + 4));
      val le = tr_icmp(t, "ule", off, tr_ibin(t, "sub", size, K(4 * c + 4)));
      val ok = tr_emit(t, "and i1 %s, %s", tr_v(al),
                       tr_v(tr_emit(t, "and i1 %s, %s", tr_v(fits), tr_v(le))));
      unsigned st = tr_new_block(t), next = tr_new_block(t);
      tr_emit0(t, "br i1 %s, label %%b%u, label %%b%u", tr_v(ok), st, next);
      tr_blk(t)->term = true;
      t->cb = st;
      val p = mem_ptr(t, r, b, at);
      tr_emit0(t, "store i32 %s, i32 %s* %s, align 4", tr_v(v[c]), space(r), tr_v(p));
      tr_br(t, next);
      t->cb = next; /* no register changed: no phis */
   }
   return true;
}

/* RESQ: a buffer's bytes or the shared memory's in .x (the other
 * channels are undefined: 0). */
bool
tr_resq(struct tr *t, const struct tgsi_insn *in)
{
   const struct tgsi_reg *r = &in->src[0].reg;
   unsigned b = 0;
   if (r->file != TGSI_FILE_BUFFER && r->file != TGSI_FILE_MEMORY)
      return tr_fail(t, in, "RESQ of %s not translated", tgsi_file_names[r->file]);
   if (!resource(t, in, r, &b))
      return false;
   val size = mem_size(t, r, b);
   for (unsigned c = 0; c < 4; c++)
      if (in->dst[0].mask & (1u << c))
         tr_store(t, in, c, c == 0 ? size : K(0));
   return true;
}

/* ---- textures ----------------------------------------------------------- */

/* Declares an intrinsic (the declaration text) once. */
static void
declare_fn(struct tr *t, const char *decl)
{
   if (!t->decls.s || !strstr(t->decls.s, decl))
      strbuf_printf(&t->decls, "%s\n", decl);
}

/* The units and targets textures are sampled with, as the compiler's
 * program directives say them (tgsi_texture_targets). Each unit's resource
 * descriptor is 8 inreg arguments, first in the SGPRs; the emulator's
 * MIMG reads the unit from the first word (emu/README.md), the sampler
 * descriptor is not read (zeros). */
bool
tr_declare_textures(struct tr *t)
{
   tgsi_texture_targets(t->s, t->target, ARRAY_SIZE(t->target));
   for (unsigned u = 0; u < ARRAY_SIZE(t->target); u++) {
      if (t->target[u] < 0)
         continue;
      tr_directive(t, ".texture %u %s", u, tgsi_texture_names[t->target[u]]);
      for (unsigned w = 0; w < 8; w++) {
         if (t->cmem) { /* the second try: the descriptor an immediate */
            t->rsrc[u][w] = K(w ? 0u : u);
            continue;
         }
         if (t->nsgpr >= MAX_SGPR_ARGS && (t->over = true))
            return tr_fail(t, NULL, "more than %u SGPRs of texture descriptors not translated",
                           MAX_SGPR_ARGS);
         tr_new_arg(t, 's', ".value 0x%x", w ? 0u : u);
         t->rsrc[u][w] = ARG_ID(t->nargs - 1);
      }
   }
   return true;
}

/* <8 x i32> of unit u's descriptor. */
static val
rsrc_of(struct tr *t, unsigned u)
{
   val v = K(0);
   for (unsigned w = 0; w < 8; w++)
      v = tr_emit(t, "insertelement <8 x i32> %s, i32 %s, i32 %u", w ? tr_v(v) : "undef",
                  tr_v(t->rsrc[u][w]), w);
   return v;
}

static bool
tex_unit(struct tr *t, const struct tgsi_insn *in, unsigned si, unsigned *u)
{
   const struct tgsi_reg *r = &in->src[si].reg;
   if ((r->file != TGSI_FILE_SAMP && r->file != TGSI_FILE_SVIEW) || r->indirect || r->index < 0 ||
       r->index >= 32 || t->target[r->index] < 0)
      return tr_fail(t, in, "%s: a texture operand other than SAMP[n] not translated",
                     tgsi_op_info[in->op].name);
   *u = (unsigned)r->index;
   return true;
}

/* The MIMG address the gfx9 model reads (emu/README.md): [bias] [depth
 * reference], then a body of three registers (the spatial coordinates,
 * the array layer, zeros), then [level]. The 2darray intrinsics give
 * three-register bodies for 1-D and 2-D targets (the layer of a 1-D
 * array in t, the other unused ones 0); 3-D targets use 3d. */
static unsigned
tex_body(struct tr *t, const struct tgsi_insn *in, enum tgsi_texture tg, val proj, bool fl, val *v)
{
   unsigned nsp = tgsi_texture_spatial_coords(tg), n = 0;
   for (unsigned k = 0; k < nsp && k < 3; k++) {
      v[n] = tr_src(t, in, 0, k);
      if (proj)
         v[n] = tr_fbin(t, "fdiv", "", v[n], proj);
      n++;
   }
   if (tgsi_texture_is_array(tg))
      v[n++] = tr_src(t, in, 0, nsp);
   while (n < 3)
      v[n++] = fl ? FK(0.0f) : K(0);
   return n;
}

/* Stores the four result words (i32 bits of a <4 x float>). */
static void
tex_result(struct tr *t, const struct tgsi_insn *in, val vec)
{
   val r[4];
   for (unsigned c = 0; c < 4; c++)
      r[c] = tr_i(t, tr_emit(t, "extractelement <4 x float> %s, i32 %u", tr_v(vec), c));
   for (unsigned c = 0; c < 4; c++)
      if (in->dst[0].mask & (1u << c))
         tr_store(t, in, c, r[c]);
}

static bool
is_cube(enum tgsi_texture tg)
{
   return tg == TGSI_TEX_T_CUBE || tg == TGSI_TEX_T_SHADOWCUBE || tg == TGSI_TEX_T_CUBE_ARRAY ||
          tg == TGSI_TEX_T_SHADOWCUBE_ARRAY;
}

/* A cube lookup's address as MIMG takes it (Mesa's preparation, and the
 * gfx9 reference's): sc / |ma| + 1.5 and tc / |ma| + 1.5 (ma from
 * v_cubema, twice the major coordinate; the division exact), then the
 * face plus 8 times the layer, rounded as the sampler rounds layers and
 * clamped to [0, 65535]. */
static void
cube_body(struct tr *t, const struct tgsi_insn *in, enum tgsi_texture tg, val *body)
{
   static const char *const fn[4] = {"cubesc", "cubetc", "cubema", "cubeid"};
   val x[3], v[4];
   for (unsigned k = 0; k < 3; k++)
      x[k] = tr_f(t, tr_src(t, in, 0, k));
   for (unsigned k = 0; k < 4; k++) {
      char *d = xasprintf("declare float @llvm.amdgcn.%s(float, float, float)", fn[k]);
      declare_fn(t, d);
      free(d);
      v[k] = tr_i(t, tr_emit(t, "call float @llvm.amdgcn.%s(float %s, float %s, float %s)", fn[k],
                             tr_v(x[0]), tr_v(x[1]), tr_v(x[2])));
   }
   tr_use(t, IN_FABS);
   val ma = tr_emit(t, "call float @llvm.fabs.f32(float %s)", tr_v(tr_f(t, v[2])));
   for (unsigned k = 0; k < 2; k++)
      body[k] = tr_fbin(t, "fadd", "", tr_fbin(t, "fdiv", "", v[k], tr_i(t, ma)), FK(1.5f));
   body[2] = v[3];
   if (tg == TGSI_TEX_T_CUBE_ARRAY || tg == TGSI_TEX_T_SHADOWCUBE_ARRAY) {
      tr_use(t, IN_FLOOR);
      tr_use(t, IN_MINNUM);
      tr_use(t, IN_MAXNUM);
      tr_use(t, IN_FMA);
      val l = tr_f(t, tr_fbin(t, "fadd", "", tr_src(t, in, 0, 3), FK(0.5f)));
      l = tr_emit(t, "call float @llvm.floor.f32(float %s)", tr_v(l));
      l = tr_emit(t, "call float @llvm.maxnum.f32(float %s, float 0.0)", tr_v(l));
      l = tr_emit(t, "call float @llvm.minnum.f32(float %s, float 65535.0)", tr_v(l));
      body[2] = tr_i(t, tr_emit(t, "call float @llvm.fma.f32(float %s, float 8.0, float %s)",
                                tr_v(l), tr_v(tr_f(t, v[3]))));
   }
}

/* Refuses what the gfx9 model cannot run or the translator does not do. */
static bool
tex_target_ok(struct tr *t, const struct tgsi_insn *in, enum tgsi_texture tg)
{
   const char *name = tgsi_op_info[in->op].name;
   if (is_cube(tg) && (in->op == TGSI_OP_TXF || in->op == TGSI_OP_TXF_LZ || in->op == TGSI_OP_TXD))
      return tr_fail(t, in, "%s: cube maps not translated", name);
   if (tg == TGSI_TEX_T_BUFFER || tg == TGSI_TEX_T_2D_MSAA || tg == TGSI_TEX_T_2D_ARRAY_MSAA)
      return tr_fail(t, in, "%s: %s textures not translated", name, tgsi_texture_names[tg]);
   if (in->noffsets &&
       (is_cube(tg) || in->op == TGSI_OP_TXF || in->op == TGSI_OP_TXF_LZ || in->op == TGSI_OP_TXQ))
      return tr_fail(t, in, "%s: texel offsets not translated", name);
   return true;
}

/* The texel offsets as MIMG packs them: 6 bits each (two's complement),
 * a byte apart. An immediate out of [-32, 31] is refused; a computed one
 * is clamped to it, as the gfx9 reference does. */
static val
tex_offsets(struct tr *t, const struct tgsi_insn *in, enum tgsi_texture tg)
{
   const struct tgsi_texoff *o = &in->offsets[0];
   unsigned n = MIN2(tgsi_texture_spatial_coords(tg), 3u);
   val p = K(0);
   for (unsigned k = 0; k < n && !t->failed; k++) {
      val v = tr_fetch_chan(t, in, &o->reg, o->swz[k] & 3);
      if (IS_K(v)) {
         int32_t x = (int32_t)(uint32_t)v;
         if (x < -32 || x > 31) {
            tr_fail(t, in, "%s: texel offset %d outside MIMG's 6 bits not translated",
                    tgsi_op_info[in->op].name, x);
            return K(0);
         }
         p = K((uint32_t)p | ((uint32_t)x & 63u) << (8 * k));
         continue;
      }
      val c = tr_emit(t, "icmp sgt i32 %s, -32", tr_v(v));
      v = tr_emit(t, "select i1 %s, i32 %s, i32 -32", tr_v(c), tr_v(v));
      c = tr_emit(t, "icmp slt i32 %s, 31", tr_v(v));
      v = tr_emit(t, "select i1 %s, i32 %s, i32 31", tr_v(c), tr_v(v));
      v = tr_ibin(t, "and", v, K(63));
      if (k)
         v = tr_ibin(t, "shl", v, K(8 * k));
      p = tr_ibin(t, "or", p, v);
   }
   return p;
}

/* TEX, TXP, TXB, TXL, TEX_LZ: coordinates src0, sampler src1; TXP divides
 * the coordinates and the reference by src0.w exactly, TXB/TXL take
 * src0.w. The interpreter's implicit level is 0 (no derivatives): TEX is
 * image_sample in a fragment shader (llc puts it in whole quad mode),
 * image_sample_lz elsewhere. */
bool
tr_tex_sample(struct tr *t, const struct tgsi_insn *in)
{
   enum tgsi_opcode op = in->op;
   enum tgsi_texture tg = in->tex_target;
   unsigned u = 0;
   bool txd = op == TGSI_OP_TXD;
   bool two = op == TGSI_OP_TEX2 || op == TGSI_OP_TXB2 || op == TGSI_OP_TXL2; /* src1.x */
   if (!tex_unit(t, in, txd ? 3 : two ? 2 : 1, &u) || !tex_target_ok(t, in, tg))
      return false;
   if (txd && (tg == TGSI_TEX_T_3D || tgsi_texture_is_shadow(tg)))
      return tr_fail(t, in, "TXD: %s textures not translated", tgsi_texture_names[tg]);
   val proj = op == TGSI_OP_TXP ? tr_src(t, in, 0, 3) : 0;
   val pre[7], body[3];
   unsigned np = 0;
   bool off = in->noffsets != 0;
   if (off) {
      val ov = tex_offsets(t, in, tg);
      if (t->failed)
         return false;
      pre[np++] = ov;
   }
   if (op == TGSI_OP_TXB || op == TGSI_OP_TXB2)
      pre[np++] = tr_src(t, in, op == TGSI_OP_TXB2 ? 1 : 0, op == TGSI_OP_TXB2 ? 0 : 3);
   if (tgsi_texture_is_shadow(tg)) {
      unsigned rc = tgsi_texture_shadow_ref(tg);
      if (rc > 3 && op != TGSI_OP_TEX2)
         return tr_fail(t, in, "%s: a shadow reference in src1 not translated",
                        tgsi_op_info[op].name);
      val ref = rc > 3 ? tr_src(t, in, 1, 0) : tr_src(t, in, 0, rc);
      pre[np++] = proj ? tr_fbin(t, "fdiv", "", ref, proj) : ref;
   }
   if (txd) { /* d/dx then d/dy, two each (the 2darray form's) */
      unsigned nsp = tgsi_texture_spatial_coords(tg);
      for (unsigned si = 1; si <= 2; si++)
         for (unsigned k = 0; k < 2; k++)
            pre[np++] = k < nsp ? tr_src(t, in, si, k) : FK(0.0f);
   }
   if (is_cube(tg) && proj)
      return tr_fail(t, in, "TXP: cube maps not translated");
   if (is_cube(tg))
      cube_body(t, in, tg, body);
   else
      tex_body(t, in, tg, proj, true, body);
   const char *lod = op == TGSI_OP_TXB || op == TGSI_OP_TXB2   ? ".b"
                     : op == TGSI_OP_TXL || op == TGSI_OP_TXL2 ? ".l"
                     : txd                                     ? ".d"
                     : op == TGSI_OP_TEX_LZ                    ? ".lz"
                     : t->s->stage != TGSI_STAGE_FRAG          ? ".lz"
                                                               : "";
   const char *dim = tg == TGSI_TEX_T_3D ? "3d" : is_cube(tg) ? "cube" : "2darray";
   const char *c = tgsi_texture_is_shadow(tg) ? ".c" : "";
   struct strbuf a = {0}, ty = {0};
   for (unsigned k = 0; k < np; k++) {
      bool iv = off && k == 0; /* the packed offsets are an i32 */
      strbuf_printf(&a, "%s %s, ", iv ? "i32" : "float", tr_v(iv ? pre[k] : tr_f(t, pre[k])));
      strbuf_printf(&ty, iv ? "i32, " : "float, ");
   }
   for (unsigned k = 0; k < 3; k++) {
      strbuf_printf(&a, "float %s, ", tr_v(tr_f(t, body[k])));
      strbuf_printf(&ty, "float, ");
   }
   if (op == TGSI_OP_TXL || op == TGSI_OP_TXL2) {
      val l = op == TGSI_OP_TXL2 ? tr_src(t, in, 1, 0) : tr_src(t, in, 0, 3);
      strbuf_printf(&a, "float %s, ", tr_v(tr_f(t, l)));
      strbuf_printf(&ty, "float, ");
   }
   char *name = xasprintf("@llvm.amdgcn.image.sample%s%s%s.%s.v4f32.f32%s", c, lod, off ? ".o" : "",
                          dim, txd ? ".f32" : "");
   char *decl =
       xasprintf("declare <4 x float> %s(i32, %s<8 x i32>, <4 x i32>, i1, i32, i32)", name, ty.s);
   declare_fn(t, decl);
   val rs = rsrc_of(t, u);
   val r = tr_emit(t,
                   "call <4 x float> %s(i32 15, %s<8 x i32> %s, <4 x i32> zeroinitializer, i1 %s, "
                   "i32 0, i32 0)",
                   name, a.s, tr_v(rs),
                   tg == TGSI_TEX_T_RECT || tg == TGSI_TEX_T_SHADOWRECT ? "true" : "false");
   free(name);
   free(decl);
   free(a.s);
   free(ty.s);
   tex_result(t, in, r);
   return true;
}

/* TXF, TXF_LZ: integer coordinates, the level in src0.w (image_load_mip). */
bool
tr_tex_fetch(struct tr *t, const struct tgsi_insn *in)
{
   enum tgsi_texture tg = in->tex_target;
   unsigned u = 0;
   if (!tex_unit(t, in, 1, &u) || !tex_target_ok(t, in, tg))
      return false;
   val body[3];
   tex_body(t, in, tg, 0, false, body);
   bool mip = in->op == TGSI_OP_TXF;
   val lod = mip ? tr_src(t, in, 0, 3) : 0;
   const char *dim = tg == TGSI_TEX_T_3D ? "3d" : "2darray";
   char *name = xasprintf("@llvm.amdgcn.image.load%s.%s.v4f32.i32", mip ? ".mip" : "", dim);
   char *decl = xasprintf("declare <4 x float> %s(i32, i32, i32, i32, %s<8 x i32>, i32, i32)", name,
                          mip ? "i32, " : "");
   declare_fn(t, decl);
   val rs = rsrc_of(t, u);
   char *lv = mip ? xasprintf("i32 %s, ", tr_v(lod)) : xstrdup("");
   val r = tr_emit(t,
                   "call <4 x float> %s(i32 15, i32 %s, i32 %s, i32 %s, %s<8 x i32> %s, i32 0, "
                   "i32 0)",
                   name, tr_v(body[0]), tr_v(body[1]), tr_v(body[2]), lv, tr_v(rs));
   free(lv);
   free(name);
   free(decl);
   tex_result(t, in, r);
   return true;
}

/* TXQ: width, height, depth or layers, levels of level src0.x. */
bool
tr_tex_query(struct tr *t, const struct tgsi_insn *in)
{
   unsigned u = 0;
   if (!tex_unit(t, in, 1, &u) || !tex_target_ok(t, in, in->tex_target))
      return false;
   declare_fn(t, "declare <4 x float> @llvm.amdgcn.image.getresinfo.2d.v4f32.i32(i32, i32, "
                 "<8 x i32>, i32, i32)");
   val lod = tr_src(t, in, 0, 0), rs = rsrc_of(t, u);
   val r = tr_emit(t,
                   "call <4 x float> @llvm.amdgcn.image.getresinfo.2d.v4f32.i32(i32 15, i32 %s, "
                   "<8 x i32> %s, i32 0, i32 0)",
                   tr_v(lod), tr_v(rs));
   tex_result(t, in, r);
   return true;
}

/* LODQ: image_get_lod on the coordinates (cube ones prepared as for a
 * sample); x the level accessed, y the computed one, z and w 0. */
bool
tr_tex_lodq(struct tr *t, const struct tgsi_insn *in)
{
   enum tgsi_texture tg = in->tex_target;
   unsigned u = 0;
   if (!tex_unit(t, in, 1, &u) || !tex_target_ok(t, in, tg))
      return false;
   if (tg == TGSI_TEX_T_3D)
      return tr_fail(t, in, "LODQ: 3D textures not translated");
   val body[3];
   if (is_cube(tg))
      cube_body(t, in, tg, body);
   else
      tex_body(t, in, tg, 0, true, body);
   const char *dim = is_cube(tg) ? "cube" : "2darray";
   char *name = xasprintf("@llvm.amdgcn.image.getlod.%s.v4f32.f32", dim);
   char *decl = xasprintf("declare <4 x float> %s(i32, float, float, float, <8 x i32>, <4 x i32>, "
                          "i1, i32, i32)",
                          name);
   declare_fn(t, decl);
   val rs = rsrc_of(t, u);
   val c[3];
   for (unsigned k = 0; k < 3; k++)
      c[k] = tr_f(t, body[k]);
   val r = tr_emit(t,
                   "call <4 x float> %s(i32 15, float %s, float %s, float %s, <8 x i32> %s, "
                   "<4 x i32> zeroinitializer, i1 false, i32 0, i32 0)",
                   name, tr_v(c[0]), tr_v(c[1]), tr_v(c[2]), tr_v(rs));
   free(name);
   free(decl);
   val res[4];
   for (unsigned k = 0; k < 2; k++)
      res[k] = tr_i(t, tr_emit(t, "extractelement <4 x float> %s, i32 %u", tr_v(r), k));
   res[2] = res[3] = K(0);
   for (unsigned k = 0; k < 4; k++)
      if (in->dst[0].mask & (1u << k))
         tr_store(t, in, k, res[k]);
   return true;
}
