/*
 * TGSI -> LLVM IR, buffers, shared memory and textures (llvm_tr.h).
 */
#include "compiler/llvm/llvm_tr.h"
#include "emu/emu.h" /* EMU_ADDR_IMAGE, ENV_MAX_IMAGES */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- memory ------------------------------------------------------------- */

static val
ptr_at(struct tr *t, val base, val off)
{
   val lo = tr_emit(t, "zext i32 %s to i64", tr_v(base));
   val o = tr_emit(t, "zext i32 %s to i64", tr_v(off));
   val a = tr_emit(t, "add i64 %s, %s", tr_v(lo), tr_v(o));
   return tr_emit(t, "inttoptr i64 %s to i32 addrspace(1)*", tr_v(a));
}

static val
ptr_global(struct tr *t, unsigned b, val off)
{
   return ptr_at(t, t->buf_base[b], off);
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
   if (r->file == TGSI_FILE_IMAGE) {
      const struct tgsi_decl *d = tgsi_find_decl(t->s, TGSI_FILE_IMAGE, *b);
      if (!d || *b >= ENV_MAX_IMAGES)
         return tr_fail(t, in, "an undeclared image not translated");
      if (!t->img_base[*b]) {
         tr_new_arg(t, 's', ".value 0x%x", (unsigned)EMU_ADDR_IMAGE(*b));
         t->img_base[*b] = ARG_ID(t->nargs - 1);
         for (unsigned k = 0; k < 3; k++) {
            tr_new_arg(t, 's', ".size IMAGE[%u].%c", *b, "xyz"[k]);
            t->img_size[*b][k] = ARG_ID(t->nargs - 1);
         }
         tr_directive(t, ".image %u %s", *b, tgsi_texture_names[d->target]);
      }
      return true;
   }
   return tr_fail(t, in, "%s resources not translated", tgsi_file_names[r->file]);
}

/* An image texel's byte offset from the integer coordinates of source
 * cs, as env_image_offset computes it: ((z * h + y) * w + x) * 16, the
 * layer after the coordinates of a 1-D or 2-D array or cube; *ok where
 * every coordinate is in range (unsigned: a negative one is out). */
static val
image_offset(struct tr *t, const struct tgsi_insn *in, unsigned b, unsigned cs, val *ok)
{
   enum tgsi_texture tt = tgsi_find_decl(t->s, TGSI_FILE_IMAGE, b)->target;
   bool one = tt == TGSI_TEX_T_BUFFER || tt == TGSI_TEX_T_1D || tt == TGSI_TEX_T_SHADOW1D ||
              tt == TGSI_TEX_T_1D_ARRAY || tt == TGSI_TEX_T_SHADOW1D_ARRAY;
   unsigned dims = tt == TGSI_TEX_T_3D ? 3 : one ? 1 : 2;
   bool layered = tgsi_texture_is_array(tt) || tt == TGSI_TEX_T_CUBE ||
                  tt == TGSI_TEX_T_SHADOWCUBE || tt == TGSI_TEX_T_CUBE_ARRAY ||
                  tt == TGSI_TEX_T_SHADOWCUBE_ARRAY;
   val co[3] = {tr_src(t, in, cs, 0), K(0), K(0)};
   if (dims >= 2)
      co[1] = tr_src(t, in, cs, 1);
   if (dims == 3 || layered)
      co[2] = tr_src(t, in, cs, dims == 3 ? 2 : dims);
   val in_range = 0;
   for (unsigned k = 0; k < 3; k++) {
      val lt = tr_icmp(t, "ult", co[k], t->img_size[b][k]);
      in_range = k ? tr_emit(t, "and i1 %s, %s", tr_v(in_range), tr_v(lt)) : lt;
   }
   *ok = in_range;
   val lin = tr_ibin(t, "add", tr_ibin(t, "mul", co[2], t->img_size[b][1]), co[1]);
   lin = tr_ibin(t, "add", tr_ibin(t, "mul", lin, t->img_size[b][0]), co[0]);
   return tr_ibin(t, "shl", lin, K(4));
}

static val
mem_ptr(struct tr *t, const struct tgsi_reg *r, unsigned b, val off)
{
   if (r->file == TGSI_FILE_IMAGE)
      return ptr_at(t, t->img_base[b], off);
   return r->file == TGSI_FILE_BUFFER ? ptr_global(t, b, off) : ptr_lds(t, off);
}

static const char *
space(const struct tgsi_reg *r)
{
   return r->file == TGSI_FILE_MEMORY ? "addrspace(3)" : "addrspace(1)";
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
   val off, ok;
   if (r->file == TGSI_FILE_IMAGE) { /* the whole texel, 16 bytes */
      off = image_offset(t, in, b, 1, &ok);
      n = 4;
   } else {
      off = tr_src(t, in, 1, 0);
      val size = mem_size(t, r, b);
      val al = tr_icmp(t, "eq", tr_ibin(t, "and", off, K(3)), K(0));
      val le = tr_icmp(t, "ule", off, size);
      val room = tr_icmp(t, "uge", tr_ibin(t, "sub", size, off), K(4 * n));
      ok = tr_emit(t, "and i1 %s, %s", tr_v(al),
                   tr_v(tr_emit(t, "and i1 %s, %s", tr_v(le), tr_v(room))));
   }
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
   if (r->file == TGSI_FILE_IMAGE) { /* the whole texel, whatever the write mask */
      val ok, off = image_offset(t, in, b, 0, &ok), v[4];
      for (unsigned c = 0; c < 4; c++)
         v[c] = tr_src(t, in, 1, c);
      unsigned st = tr_new_block(t), next = tr_new_block(t);
      tr_emit0(t, "br i1 %s, label %%b%u, label %%b%u", tr_v(ok), st, next);
      tr_blk(t)->term = true;
      t->cb = st;
      for (unsigned c = 0; c < 4; c++) {
         val p = mem_ptr(t, r, b, tr_ibin(t, "add", off, K(4 * c)));
         tr_emit0(t, "store i32 %s, i32 addrspace(1)* %s, align 4", tr_v(v[c]), tr_v(p));
      }
      tr_br(t, next);
      t->cb = next;
      return true;
   }
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

/* ATOM*: one word, in bounds and aligned, else no access and an old
 * value the interpreter leaves undefined (env_mem_atomic): 0 here. The
 * access sits under a branch, so no other word is touched; every channel
 * written gets the old word. Relaxed ordering, as TGSI's atomics are:
 * what another lane's access sees in between is the interpreter's
 * business (it leaves order-dependent values unchecked). */
bool
tr_mem_atomic(struct tr *t, const struct tgsi_insn *in)
{
   const struct tgsi_reg *r = &in->src[0].reg;
   unsigned b = 0;
   if (!resource(t, in, r, &b))
      return false;
   const bool lds = r->file == TGSI_FILE_MEMORY;
   const char *rmw = NULL, *inc = NULL;
   switch (in->op) {
   case TGSI_OP_ATOMUADD:
      rmw = "add";
      break;
   case TGSI_OP_ATOMXCHG:
      rmw = "xchg";
      break;
   case TGSI_OP_ATOMAND:
      rmw = "and";
      break;
   case TGSI_OP_ATOMOR:
      rmw = "or";
      break;
   case TGSI_OP_ATOMXOR:
      rmw = "xor";
      break;
   case TGSI_OP_ATOMUMIN:
      rmw = "umin";
      break;
   case TGSI_OP_ATOMUMAX:
      rmw = "umax";
      break;
   case TGSI_OP_ATOMIMIN:
      rmw = "min";
      break;
   case TGSI_OP_ATOMIMAX:
      rmw = "max";
      break;
   case TGSI_OP_ATOMINC_WRAP: /* old >= v ? 0 : old + 1, as the hardware's inc */
      inc = "inc";
      break;
   case TGSI_OP_ATOMDEC_WRAP: /* old == 0 || old > v ? v : old - 1 */
      inc = "dec";
      break;
   case TGSI_OP_ATOMCAS:
   case TGSI_OP_ATOMFADD: /* a float add: gfx900 has none on global memory, llc loops */
      break;
   default:
      return tr_fail(t, in, "%s not translated", tgsi_op_info[in->op].name);
   }
   val off, ok; /* an image's texel: its first word */
   if (r->file == TGSI_FILE_IMAGE) {
      off = image_offset(t, in, b, 1, &ok);
   } else {
      off = tr_src(t, in, 1, 0);
      val size = mem_size(t, r, b);
      val al = tr_icmp(t, "eq", tr_ibin(t, "and", off, K(3)), K(0));
      val fits = tr_icmp(t, "uge", size, K(4));
      val le = tr_icmp(t, "ule", off, tr_ibin(t, "sub", size, K(4)));
      ok = tr_emit(t, "and i1 %s, %s", tr_v(al),
                   tr_v(tr_emit(t, "and i1 %s, %s", tr_v(fits), tr_v(le))));
   }
   val v = tr_src(t, in, 2, 0);
   val nv = in->op == TGSI_OP_ATOMCAS ? tr_src(t, in, 3, 0) : K(0);
   unsigned from = t->cb, at = tr_new_block(t), next = tr_new_block(t);
   tr_emit0(t, "br i1 %s, label %%b%u, label %%b%u", tr_v(ok), at, next);
   tr_blk(t)->term = true;
   t->cb = at;
   val p = mem_ptr(t, r, b, off), old;
   const char *sp = space(r), *scope = lds ? "workgroup" : "agent";
   if (rmw) {
      old = tr_emit(t, "atomicrmw %s i32 %s* %s, i32 %s syncscope(\"%s\") monotonic", rmw, sp,
                    tr_v(p), tr_v(v), scope);
   } else if (inc) {
      char decl[160];
      snprintf(decl, sizeof(decl),
               "declare i32 @llvm.amdgcn.atomic.%s.i32.p%ui32(i32 %s* nocapture, i32, i32 "
               "immarg, i32 immarg, i1 immarg)",
               inc, lds ? 3u : 1u, sp);
      tr_declare(t, decl);
      old = tr_emit(t,
                    "call i32 @llvm.amdgcn.atomic.%s.i32.p%ui32(i32 %s* %s, i32 %s, i32 2, "
                    "i32 %u, i1 false)",
                    inc, lds ? 3u : 1u, sp, tr_v(p), tr_v(v), lds ? 2u : 1u);
   } else if (in->op == TGSI_OP_ATOMFADD) {
      val pf = tr_emit(t, "bitcast i32 %s* %s to float %s*", sp, tr_v(p), sp);
      val f = tr_emit(t, "atomicrmw fadd float %s* %s, float %s syncscope(\"%s\") monotonic", sp,
                      tr_v(pf), tr_v(tr_f(t, v)), scope);
      old = tr_i(t, f);
   } else { /* CAS: src 2 is compared, src 3 stored where it matches */
      val pair = tr_emit(t,
                         "cmpxchg i32 %s* %s, i32 %s, i32 %s syncscope(\"%s\") monotonic "
                         "monotonic",
                         sp, tr_v(p), tr_v(v), tr_v(nv), scope);
      old = tr_emit(t, "extractvalue { i32, i1 } %s, 0", tr_v(pair));
   }
   tr_br(t, next);
   t->cb = next;
   val res = tr_emit(t, "phi i32 [ %s, %%b%u ], [ 0, %%b%u ]", tr_v(old), at, from);
   for (unsigned c = 0; c < 4; c++)
      if (in->dst[0].mask & (1u << c))
         tr_store(t, in, c, res);
   return true;
}

/* RESQ: a buffer's bytes or the shared memory's in .x (the other
 * channels are undefined: 0). */
bool
tr_resq(struct tr *t, const struct tgsi_insn *in)
{
   const struct tgsi_reg *r = &in->src[0].reg;
   unsigned b = 0;
   if (r->file != TGSI_FILE_BUFFER && r->file != TGSI_FILE_MEMORY && r->file != TGSI_FILE_IMAGE)
      return tr_fail(t, in, "RESQ of %s not translated", tgsi_file_names[r->file]);
   if (!resource(t, in, r, &b))
      return false;
   if (r->file == TGSI_FILE_IMAGE) { /* as the gfx9 reference's resq reports an image */
      enum tgsi_texture tt = tgsi_find_decl(t->s, TGSI_FILE_IMAGE, b)->target;
      unsigned coords = tgsi_texture_coord_count(tt);
      for (unsigned c = 0; c < 4; c++) {
         if (!(in->dst[0].mask & (1u << c)))
            continue;
         val x = K(0);
         if (c == 0)
            x = t->img_size[b][0];
         else if (c == 1 && coords >= 2)
            x = t->img_size[b][tt == TGSI_TEX_T_1D_ARRAY ? 2 : 1];
         else if (c == 2 && coords >= 3)
            x = t->img_size[b][2];
         else if (c == 3 && (tt == TGSI_TEX_T_2D_MSAA || tt == TGSI_TEX_T_2D_ARRAY_MSAA))
            x = K(1);
         tr_store(t, in, c, x);
      }
      return true;
   }
   val size = mem_size(t, r, b);
   for (unsigned c = 0; c < 4; c++)
      if (in->dst[0].mask & (1u << c))
         tr_store(t, in, c, c == 0 ? size : K(0));
   return true;
}

/* ---- textures ----------------------------------------------------------- */

/* Declares an intrinsic (the declaration text) once. */
void
tr_declare(struct tr *t, const char *decl)
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
      tr_declare(t, d);
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
   if (in->noffsets && (is_cube(tg) || in->op == TGSI_OP_TXQ))
      return tr_fail(t, in, "%s: texel offsets not translated", name);
   if (in->op == TGSI_OP_TG4 && (is_cube(tg) || tgsi_texture_is_shadow(tg)))
      return tr_fail(t, in, "TG4: %s textures not translated", tgsi_texture_names[tg]);
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

/* TG4's component (src1.x): an immediate, 0..3 as an integer or as a
 * float (the interpreter reads either), as gather4's one-bit dmask. */
static bool
gather_comp(struct tr *t, const struct tgsi_insn *in, unsigned *dmask)
{
   val c = tr_src(t, in, 1, 0);
   if (!IS_K(c))
      return tr_fail(t, in, "TG4: a computed component not translated");
   uint32_t x = (uint32_t)c;
   float f = uif(x);
   if (x > 3)
      x = f >= 0.0f && f < 4.0f ? (uint32_t)f : 0;
   *dmask = 1u << x;
   return true;
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
   bool tg4 = op == TGSI_OP_TG4;
   if (!tex_unit(t, in, txd ? 3 : two || tg4 ? 2 : 1, &u) || !tex_target_ok(t, in, tg))
      return false;
   unsigned dmask = 15;
   if (tg4 && !gather_comp(t, in, &dmask))
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
   const char *lod = tg4                                       ? ".lz"
                     : op == TGSI_OP_TXB || op == TGSI_OP_TXB2 ? ".b"
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
   char *name = xasprintf("@llvm.amdgcn.image.%s%s%s%s.%s.v4f32.f32%s", tg4 ? "gather4" : "sample",
                          c, lod, off ? ".o" : "", dim, txd ? ".f32" : "");
   char *decl =
       xasprintf("declare <4 x float> %s(i32, %s<8 x i32>, <4 x i32>, i1, i32, i32)", name, ty.s);
   tr_declare(t, decl);
   val rs = rsrc_of(t, u);
   val r = tr_emit(t,
                   "call <4 x float> %s(i32 %u, %s<8 x i32> %s, <4 x i32> zeroinitializer, i1 %s, "
                   "i32 0, i32 0)",
                   name, dmask, a.s, tr_v(rs),
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
   /* Texel offsets are added to the coordinates (not the layer), as the
    * interpreter's fetch adds them. */
   for (unsigned k = 0; in->noffsets && k < tgsi_texture_spatial_coords(tg) && k < 3; k++) {
      const struct tgsi_texoff *o = &in->offsets[0];
      body[k] = tr_ibin(t, "add", body[k], tr_fetch_chan(t, in, &o->reg, o->swz[k] & 3));
   }
   bool mip = in->op == TGSI_OP_TXF;
   val lod = mip ? tr_src(t, in, 0, 3) : 0;
   const char *dim = tg == TGSI_TEX_T_3D ? "3d" : "2darray";
   char *name = xasprintf("@llvm.amdgcn.image.load%s.%s.v4f32.i32", mip ? ".mip" : "", dim);
   char *decl = xasprintf("declare <4 x float> %s(i32, i32, i32, i32, %s<8 x i32>, i32, i32)", name,
                          mip ? "i32, " : "");
   tr_declare(t, decl);
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
   tr_declare(t, "declare <4 x float> @llvm.amdgcn.image.getresinfo.2d.v4f32.i32(i32, i32, "
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
   tr_declare(t, decl);
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
