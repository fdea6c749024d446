/*
 * The run environment shared by the golden interpreter and the emulator:
 * allocation, constant reads, procedural textures with one fixed sampler,
 * and bounds-checked memory. Nothing here ever reads or writes outside an
 * allocation: an access out of bounds is counted in env->events and reads
 * as 0 (or is dropped).
 *
 * Textures. A texture is never stored. Texel (x, y, z) of level L of unit
 * u is a pure function of the unit's 64-bit seed (env_texel):
 *
 *    k = (L << 48) | (z << 32) | (y << 16) | x          (each field < 2^16)
 *    h = mix(seed ^ mix(k))     mix = the splitmix64 finaliser
 *    p_c = (h >> 16c) & 0xffff  for channel c = 0..3
 *
 * and channel c holds, by the view's return type:
 *    FLOAT  ((p_c & 0xfff) - 512) / 2048.0f  (exact, in [-0.25, 1.75))
 *    UNORM  (p_c & 0xff) / 255.0f
 *    SNORM  max(-1, (int8_t)(p_c & 0xff) / 127.0f)
 *    UINT   p_c
 *    SINT   (int16_t)p_c sign-extended.
 * 1D textures use y = z = 0; 1D arrays put the layer in z; cube maps put
 * the face (+X,-X,+Y,-Y,+Z,-Z = 0..5) in z, plus 6 * layer for cube arrays.
 *
 * Sampler (env_sample), the only filtering rule: nearest texel, clamp to
 * edge, nearest mip level.
 *  - level = 0 for gathers; otherwise lod NaN -> 0, else
 *    clamp(floor(lod + 0.5), 0, levels - 1). Implicit-LOD lookups (TEX,
 *    SAMPLE, ...) pass lod 0: this model has no implicit derivatives.
 *    Explicit ones (TXD, SAMPLE_D) give lod = log2(rho), rho the longer
 *    of the two derivative vectors scaled to level-0 texels, over the
 *    bound texture's spatial axes (GL 4.6 8.14.1; cube maps: lod 0).
 *  - a coordinate c on an axis of n texels at that level gives
 *    i = floor(c * n) (RECT: floor(c)), NaN -> 0, plus the texel offset,
 *    clamped to [0, n - 1]. Array layers: clamp(floor(a + 0.5), 0,
 *    layers - 1), NaN -> 0.
 *  - cube maps pick the face by the major axis (ties go to Z, then Y, as
 *    AMD's v_cubeid does) and the GL specification's sc, tc; the face
 *    coordinates are (sc / |2 ma| + 1.5) - 1 and likewise for tc, the
 *    rounding of gfx9's sequence (isa/sem.h sem_cube, sem_cube_coord).
 *  - shadow compare: LEQUAL, r = (ref <= texel.x) ? 1.0 : 0.0 (NaN ref
 *    gives 0.0); the result is (r, r, r, 1.0).
 *  - gather: level 0, i0 = floor(s * w - 0.5) + offset, j0 likewise, each
 *    of i0, i0+1, j0, j0+1 clamped; returns component comp of the texels
 *    (i0,j0+1), (i0+1,j0+1), (i0+1,j0), (i0,j0) in x, y, z, w (compared
 *    against ref first when compare is set).
 * Texel fetches (env_fetch) take integer coordinates and a level and are
 * bounds checked instead of clamped: out of range gives 0 and TEXEL_OOB.
 * Multisampled textures hold one sample; the sample index is ignored.
 *
 * Memory (env_mem_*). Loads of n words are all-or-nothing: if
 * off + 4n > size nothing is read, the result is 0 and undefined. Stores
 * write the channels of the write mask that lie in bounds and drop the
 * rest. Atomics need 4 in-bounds bytes. Every out-of-bounds or misaligned
 * access counts one event; misaligned accesses read 0 and write nothing.
 */
/* GCC's -O2 vectorizes only loops of known trip count: env_sample_lanes'
 * lane loop needs the dynamic cost model, and no-trapping-math and
 * no-math-errno (errno is never read) for its float selects and floorf.
 * It comes before the includes, as GCC does not inline
 * across differing options. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic", "no-trapping-math",              \
                     "no-math-errno")
#endif

#include "emu/emu.h"
#include "isa/sem.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>

#define ENV_NAME_(n, d) #n,
#define ENV_DESC_(n, d) d,
const char *const env_flag_names[ENV_F_COUNT] = {ENV_FLAGS(ENV_NAME_)};
const char *const env_flag_descs[ENV_F_COUNT] = {ENV_FLAGS(ENV_DESC_)};
const char *const env_event_names[ENV_EV_COUNT] = {ENV_EVENTS(ENV_NAME_)};
const char *const env_event_descs[ENV_EV_COUNT] = {ENV_EVENTS(ENV_DESC_)};
#undef ENV_NAME_
#undef ENV_DESC_

struct env *
env_new(enum tgsi_stage stage, uint32_t nlanes)
{
   if (nlanes == 0 || nlanes > ENV_MAX_LANES)
      return NULL;
   struct env *e = xcalloc(1, sizeof(*e));
   e->stage = stage;
   e->nlanes = nlanes;
   e->in_vertices = 1;
   e->out_vertices = 1;
   e->block_size[0] = e->block_size[1] = e->block_size[2] = 1;
   e->grid_size[0] = e->grid_size[1] = e->grid_size[2] = 1;
   e->shared_size = ENV_DEFAULT_SHARED;
   e->subgroup_size = ENV_SUBGROUP_SIZE;
   e->ndraws = 1;
   e->killed = xcalloc(nlanes, 1);
   e->kill_undef = xcalloc(nlanes, 1);
   return e;
}

void
env_mem_fini(struct env_mem *m)
{
   free(m->data);
   free(m->undef);
   free(m->cls);
   memset(m, 0, sizeof(*m));
}

/* The geometry-shader vertex arrays (env_alloc_gs), one list for both
 * their release and their reallocation. */
static void
free_gs(struct env *e)
{
   free(e->gs_count);
   free(e->gs_data);
   free(e->gs_flags);
   free(e->gs_err);
   e->gs_err = NULL;
   free(e->gs_stream);
   free(e->gs_prim);
   free(e->gs_undef);
}

void
env_free(struct env *e)
{
   if (!e)
      return;
   free(e->in);
   for (unsigned i = 0; i < TGSI_SEM_COUNT; i++)
      free(e->sv[i]);
   for (unsigned i = 0; i < ENV_MAX_CBUFS; i++)
      free(e->cbuf[i]);
   free(e->lane_draw);
   for (unsigned i = 0; i < ENV_MAX_BUFFERS; i++)
      env_mem_fini(&e->buf[i]);
   for (unsigned i = 0; i < ENV_MAX_IMAGES; i++)
      env_mem_fini(&e->img[i].mem);
   free(e->out);
   free(e->out_flags);
   free(e->out_err);
   free(e->killed);
   free(e->kill_undef);
   free_gs(e);
   free(e);
}

static void *
dup_bytes(const void *p, size_t n)
{
   if (!p)
      return NULL;
   void *q = xmalloc(n ? n : 1);
   memcpy(q, p, n);
   return q;
}

static void
mem_clone(struct env_mem *d, const struct env_mem *s)
{
   d->size = s->size;
   d->data = dup_bytes(s->data, s->size);
   d->undef = dup_bytes(s->undef, s->size);
   d->cls = dup_bytes(s->cls, s->size);
}

/* A deep copy, so two runners can start from the same buffer contents. */
struct env *
env_clone(const struct env *s)
{
   struct env *e = xmalloc(sizeof(*e));
   *e = *s;
   size_t n = s->nlanes;
   e->in = dup_bytes(s->in, (size_t)s->in_vertices * s->nin * 4 * n * 4);
   for (unsigned i = 0; i < TGSI_SEM_COUNT; i++)
      e->sv[i] = dup_bytes(s->sv[i], 4 * n * 4);
   for (unsigned i = 0; i < ENV_MAX_CBUFS; i++)
      e->cbuf[i] = dup_bytes(s->cbuf[i], (size_t)s->ndraws * s->cbuf_slots[i] * 16);
   e->lane_draw = dup_bytes(s->lane_draw, n * sizeof(*s->lane_draw));
   for (unsigned i = 0; i < ENV_MAX_BUFFERS; i++)
      mem_clone(&e->buf[i], &s->buf[i]);
   for (unsigned i = 0; i < ENV_MAX_IMAGES; i++)
      mem_clone(&e->img[i].mem, &s->img[i].mem);
   size_t nout = (size_t)s->out_vertices * s->nout * 4 * n;
   e->out = dup_bytes(s->out, nout * 4);
   e->out_flags = dup_bytes(s->out_flags, nout * 2);
   e->out_err = s->out_err ? dup_bytes(s->out_err, nout * 2) : NULL;
   e->killed = dup_bytes(s->killed, n);
   e->kill_undef = dup_bytes(s->kill_undef, n);
   size_t nv = n * s->gs_max_vertices;
   e->gs_count = dup_bytes(s->gs_count, n * 4);
   e->gs_data = dup_bytes(s->gs_data, nv * s->nout * 4 * 4);
   e->gs_flags = dup_bytes(s->gs_flags, nv * s->nout * 4 * 2);
   e->gs_err = s->gs_err ? dup_bytes(s->gs_err, nv * s->nout * 4 * 2) : NULL;
   e->gs_stream = dup_bytes(s->gs_stream, nv);
   e->gs_prim = dup_bytes(s->gs_prim, nv * 4);
   e->gs_undef = dup_bytes(s->gs_undef, n);
   return e;
}

/* Caps every per-lane array at 2^31 bytes so that a bad request is an
 * error, not an allocation failure. */
static bool
size_ok(uint64_t elems, uint64_t elem_size)
{
   return elems * elem_size <= (1ull << 31);
}

bool
env_alloc_inputs(struct env *e, uint32_t nin, uint32_t in_vertices)
{
   if (in_vertices == 0 || in_vertices > 64 || nin > 1024 ||
       !size_ok((uint64_t)nin * in_vertices * 4 * e->nlanes, 4))
      return false;
   free(e->in);
   e->nin = nin;
   e->in_vertices = in_vertices;
   e->in = xcalloc((size_t)nin * in_vertices * 4 * e->nlanes + 1, 4);
   return true;
}

static void reset_events(struct env *e);

static bool
alloc_outputs(struct env *e, uint32_t nout, uint32_t out_vertices, bool fill)
{
   if (out_vertices == 0 || out_vertices > 64 || nout > 1024 ||
       !size_ok((uint64_t)nout * out_vertices * 4 * e->nlanes, 4))
      return false;
   e->nout = nout;
   e->out_vertices = out_vertices;
   free(e->out);
   free(e->out_flags);
   free(e->out_err);
   e->out_err = NULL;
   size_t n = (size_t)nout * out_vertices * 4 * e->nlanes + 1;
   e->out = xmalloc(n * 4); /* env_reset_outputs fills both */
   e->out_flags = xmalloc(n * 2);
   e->out[n - 1] = 0;
   e->out_flags[n - 1] = 0;
   if (fill)
      env_reset_outputs(e);
   else
      reset_events(e);
   return true;
}

bool
env_alloc_outputs(struct env *e, uint32_t nout, uint32_t out_vertices)
{
   return alloc_outputs(e, nout, out_vertices, true);
}

bool
env_alloc_outputs_unset(struct env *e, uint32_t nout, uint32_t out_vertices)
{
   return alloc_outputs(e, nout, out_vertices, false);
}

bool
env_alloc_gs(struct env *e, uint32_t max_vertices)
{
   uint64_t nv = (uint64_t)e->nlanes * max_vertices;
   if (max_vertices > 1024 || !size_ok(nv * (e->nout ? e->nout : 1) * 4, 4))
      return false;
   free_gs(e);
   e->gs_max_vertices = max_vertices;
   e->gs_count = xcalloc(e->nlanes, 4);
   e->gs_data = xcalloc(nv * e->nout * 4 + 1, 4);
   e->gs_flags = xcalloc(nv * e->nout * 4 + 1, 2);
   e->gs_stream = xcalloc(nv + 1, 1);
   e->gs_prim = xcalloc(nv + 1, 4);
   e->gs_undef = xcalloc(e->nlanes, 1);
   return true;
}

/* Outputs start as 0 and undefined; nothing killed, no vertices. */
void
env_reset_outputs(struct env *e)
{
   size_t n = (size_t)e->nout * e->out_vertices * 4 * e->nlanes;
   if (e->out) {
      memset(e->out, 0, n * 4);
      /* ENV_F_UNDEF in every word: a few, then copies of what is done
       * (a plain loop of 16-bit stores was a fifth of a short shader's
       * interpreter run) */
      size_t done = MIN2(n, (size_t)64);
      for (size_t i = 0; i < done; i++)
         e->out_flags[i] = ENV_F_UNDEF;
      for (size_t k; done < n; done += k) {
         k = MIN2(done, n - done);
         memcpy(e->out_flags + done, e->out_flags, k * sizeof(*e->out_flags));
      }
   }
   reset_events(e);
}

void
env_reset_output_lanes(struct env *e, uint32_t from, uint32_t to)
{
   for (uint32_t k = 0; e->out && from < to && k < e->nout * e->out_vertices * 4; k++) {
      size_t o = (size_t)k * e->nlanes;
      memset(e->out + o + from, 0, (size_t)(to - from) * 4);
      for (uint32_t i = from; i < to; i++)
         e->out_flags[o + i] = ENV_F_UNDEF;
   }
}

/* Nothing killed, no vertices, no events. */
static void
reset_events(struct env *e)
{
   memset(e->killed, 0, e->nlanes);
   memset(e->kill_undef, 0, e->nlanes);
   if (e->gs_count) {
      memset(e->gs_count, 0, (size_t)e->nlanes * 4);
      memset(e->gs_undef, 0, e->nlanes);
   }
   memset(e->events, 0, sizeof(e->events));
}

uint32_t *
env_sv(struct env *e, enum tgsi_semantic sem)
{
   if ((unsigned)sem >= TGSI_SEM_COUNT)
      return NULL;
   if (!e->sv[sem])
      e->sv[sem] = xcalloc((size_t)4 * e->nlanes, 4);
   return e->sv[sem];
}

bool
env_set_draws(struct env *e, uint32_t ndraws, const uint16_t *lane_draw)
{
   if (ndraws == 0 || ndraws > ENV_MAX_DRAWS)
      return false;
   for (uint32_t l = 0; lane_draw && l < e->nlanes; l++)
      if (lane_draw[l] >= ndraws)
         return false;
   for (unsigned b = 0; b < ENV_MAX_CBUFS; b++) { /* every draw starts as draw 0 */
      uint32_t *old = e->cbuf[b], n = e->cbuf_slots[b] * 4;
      if (!old)
         continue;
      e->cbuf[b] = xcalloc((size_t)ndraws * n + 1, 4);
      for (uint32_t d = 0; d < ndraws; d++)
         memcpy(e->cbuf[b] + (size_t)d * n, old, (size_t)n * 4);
      free(old);
   }
   e->ndraws = ndraws;
   free(e->lane_draw);
   e->lane_draw = lane_draw ? dup_bytes(lane_draw, (size_t)e->nlanes * sizeof(*lane_draw)) : NULL;
   return true;
}

bool
env_set_cbuf(struct env *e, unsigned b, uint32_t nslots)
{
   if (b >= ENV_MAX_CBUFS || nslots > ENV_MAX_CBUF_SLOTS)
      return false;
   free(e->cbuf[b]);
   e->cbuf[b] = nslots ? xcalloc((size_t)e->ndraws * nslots * 4, 4) : NULL;
   e->cbuf_slots[b] = nslots;
   return true;
}

uint32_t
env_const(struct env *e, unsigned b, int64_t slot, unsigned chan, uint32_t draw)
{
   if (b >= ENV_MAX_CBUFS || slot < 0 || slot >= e->cbuf_slots[b] || draw >= e->ndraws) {
      e->events[ENV_EV_CONST_OOB]++;
      return 0;
   }
   return env_cbuf(e, b, draw)[slot * 4 + (chan & 3)];
}

/* ------------------------------------------------------------------ */
/* Textures                                                             */

static bool
target_is_cube(enum tgsi_texture t)
{
   return t == TGSI_TEX_T_CUBE || t == TGSI_TEX_T_SHADOWCUBE || t == TGSI_TEX_T_CUBE_ARRAY ||
          t == TGSI_TEX_T_SHADOWCUBE_ARRAY;
}

/* Spatial dimensions of a target: 1, 2 or 3 (cubes count 2). */
static unsigned
target_dims(enum tgsi_texture t)
{
   switch (t) {
   case TGSI_TEX_T_BUFFER:
   case TGSI_TEX_T_1D:
   case TGSI_TEX_T_SHADOW1D:
   case TGSI_TEX_T_1D_ARRAY:
   case TGSI_TEX_T_SHADOW1D_ARRAY:
      return 1;
   case TGSI_TEX_T_3D:
      return 3;
   default:
      return 2;
   }
}

static bool
target_has_mips(enum tgsi_texture t)
{
   return t != TGSI_TEX_T_BUFFER && t != TGSI_TEX_T_2D_MSAA && t != TGSI_TEX_T_2D_ARRAY_MSAA &&
          t != TGSI_TEX_T_RECT && t != TGSI_TEX_T_SHADOWRECT;
}

/* The number of levels of a full mip chain (1 for targets without mips). */
uint32_t
env_tex_levels(uint32_t w, uint32_t h, uint32_t d, enum tgsi_texture target)
{
   if (!target_has_mips(target))
      return 1;
   uint32_t m = MAX2(w, h);
   if (target == TGSI_TEX_T_3D)
      m = MAX2(m, d);
   uint32_t n = 1;
   while (m > 1) {
      m >>= 1;
      n++;
   }
   return n;
}

bool
env_set_texture(struct env *e, unsigned unit, const struct env_texture *t)
{
   if (unit >= ENV_MAX_TEXTURES || t->width == 0 || t->height == 0 || t->depth == 0 ||
       t->width > ENV_MAX_TEX_SIZE || t->height > ENV_MAX_TEX_SIZE ||
       t->depth * (target_is_cube(t->target) ? 6u : 1u) > 65535 || t->levels == 0 ||
       t->levels > env_tex_levels(t->width, t->height, t->depth, t->target) ||
       (target_is_cube(t->target) && t->width != t->height))
      return false;
   e->tex[unit] = *t;
   e->tex[unit].bound = true;
   return true;
}

/* Size of a level: width, height and depth (3D) or layers (arrays; cube
 * arrays count cubes). */
void
env_tex_size(const struct env_texture *t, uint32_t level, uint32_t size[3])
{
   size[0] = MAX2(t->width >> level, 1u);
   size[1] = MAX2(t->height >> level, 1u);
   size[2] = t->target == TGSI_TEX_T_3D ? MAX2(t->depth >> level, 1u) : t->depth;
}

/* The 64-bit products are written as such: AVX2 has no 64-bit
 * multiply, but GCC vectorizes one as three 32 x 32 -> 64 products
 * (vpmuludq), about 14 instructions a lane for a texel hash. Spelled out
 * from 32-bit halves, the truncated cross product's high half had no
 * vector instruction and cost some 60. */
static inline uint64_t
mix64(uint64_t z)
{
   z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
   z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
   return z ^ (z >> 31);
}

/* The hash of texel (x, y, z) of a level (see the top of this file). */
static inline uint64_t
texel_hash(uint64_t seed, uint32_t x, uint32_t y, uint32_t z, uint32_t level)
{
   uint64_t k = ((uint64_t)(level & 0xffff) << 48) | ((uint64_t)(z & 0xffff) << 32) |
                ((uint64_t)(y & 0xffff) << 16) | (x & 0xffff);
   return mix64(seed ^ mix64(k));
}

/* A channel's value from its 16 bits p of the texel's hash, by the view's
 * return type. */
static inline uint32_t
texel_value(enum tgsi_return_type ret, uint32_t p)
{
   switch (ret) {
   case TGSI_RET_UNORM:
      return fui((float)(p & 0xff) / 255.0f);
   case TGSI_RET_SNORM: {
      float f = (float)(int8_t)(p & 0xff) / 127.0f;
      return fui(f < -1.0f ? -1.0f : f);
   }
   case TGSI_RET_UINT:
      return p;
   case TGSI_RET_SINT:
      return (uint32_t)(int32_t)(int16_t)p;
   default:
      return fui((float)((int32_t)(p & 0xfff) - 512) / 2048.0f);
   }
}

/* Channel c's value of a texel of hash h: bits 16c..16c+15. */
static inline uint32_t
texel_channel(enum tgsi_return_type ret, uint64_t h, unsigned c)
{
   return texel_value(ret, (uint32_t)(h >> (16 * c)) & 0xffff);
}

void
env_texel(const struct env *e, unsigned unit, uint32_t x, uint32_t y, uint32_t z, uint32_t level,
          uint32_t out[4])
{
   const struct env_texture *t = &e->tex[unit % ENV_MAX_TEXTURES];
   uint64_t h = texel_hash(t->seed, x, y, z, level);
   for (unsigned c = 0; c < 4; c++)
      out[c] = texel_channel(t->ret, h, c);
}

/* floor(f) as an integer, NaN -> 0, saturated far outside any texture
 * (branch-free: env_sample_lanes' loop vectorizes). */
static inline int32_t
floor_to_int(float f)
{
   float g = floorf(f);
   g = g < -1e6f ? -1e6f : g;
   g = g > 1e6f ? 1e6f : g;
   g = f != f ? 0.0f : g;
   return (int32_t)g;
}

static inline uint32_t
clamp_index(int64_t i, uint32_t n)
{
   return i < 0 ? 0 : i >= n ? n - 1 : (uint32_t)i;
}

/* clamp_index(f + off, n) for f from floor_to_int (within +-1e6) and n
 * at most 65536, in 32-bit arithmetic (it vectorizes): an offset beyond
 * +-2^30 clamps as +-2^30 does. */
static inline uint32_t
clamp_off(int32_t f, int32_t off, uint32_t n)
{
   int32_t o = off < -(1 << 30) ? -(1 << 30) : off > (1 << 30) ? (1 << 30) : off;
   int32_t i = f + o;
   return i < 0 ? 0 : i >= (int32_t)n ? n - 1 : (uint32_t)i;
}

/* Face and face coordinates of a cube direction: the face and rounding
 * rule of gfx9's v_cube* ops (isa/sem.h sem_cube, sem_cube_coord), the one
 * every target and the interpreter read a cube map by. */
static unsigned
cube_face(float x, float y, float z, float *s, float *t)
{
   uint32_t ux = fui(x), uy = fui(y), uz = fui(z);
   float ma = uif(sem_cube(SEM_CUBE_MA, ux, uy, uz));
   *s = sem_cube_coord(uif(sem_cube(SEM_CUBE_SC, ux, uy, uz)), ma) - 1.0f;
   *t = sem_cube_coord(uif(sem_cube(SEM_CUBE_TC, ux, uy, uz)), ma) - 1.0f;
   return (unsigned)uif(sem_cube(SEM_CUBE_ID, ux, uy, uz));
}

/* Whether a lookup with this instruction target can read this texture:
 * same dimensionality, array-ness and cube-ness. */
static bool
targets_compatible(enum tgsi_texture a, enum tgsi_texture b)
{
   if (a == b || a == TGSI_TEX_T_UNKNOWN || b == TGSI_TEX_T_UNKNOWN)
      return true; /* a == b: the common case, asked once per lane */
   return target_dims(a) == target_dims(b) &&
          tgsi_texture_is_array(a) == tgsi_texture_is_array(b) &&
          target_is_cube(a) == target_is_cube(b);
}

static uint32_t
shadow_cmp(float ref, uint32_t texel)
{
   return ref <= uif(texel) ? fui(1.0f) : 0;
}

/* How close a lookup came to another result. A lookup rounds its operands
 * (texel, layer, level and face selection) and compares its reference:
 * with operands that another evaluation may compute a little differently
 * (relative tolerance rel, plus 2^-20 absolute, as the interpreter's
 * compares take them: tgsi_lane_edge), a rounding within that tolerance
 * of its threshold may go the other way and the result jumps. near
 * collects whether one did; rel 0 asks nothing. */
struct near {
   double rel;
   bool hit;
};

/* The rounding of v (an operand of magnitude mag, times scale) to an
 * integer: whether v lies within mag's tolerance of a step (branch-free:
 * near_lanes' loop vectorizes). */
static inline bool
near_at(double rel, double v, double mag, double scale)
{
   double tol = (rel * fabs(mag) + 0x1p-20) * scale;
   return (rel > 0.0) & (fabs(v - nearbyint(v)) <= tol);
}

/* The shadow compare ref <= texel: whether ref lies within its tolerance
 * of the texel. */
static inline bool
near_cmp(double rel, float ref, uint32_t texel)
{
   double d = (double)ref - uif(texel);
   return (rel > 0.0) & (fabs(d) <= rel * fabs(ref) + 0x1p-20);
}

static void
near_step(struct near *nr, double v, double mag, double scale)
{
   nr->hit |= near_at(nr->rel, v, mag, scale);
}

static void
near_ref(struct near *nr, float ref, uint32_t texel)
{
   nr->hit |= near_cmp(nr->rel, ref, texel);
}

static void
sample_gather(struct env *e, unsigned unit, const struct env_sample_req *q, const uint32_t sz[3],
              float s, float t, uint32_t z, uint32_t out[4], struct near *nr)
{
   int64_t i0 = (int64_t)floor_to_int(s * (float)sz[0] - 0.5f) + q->offset[0];
   int64_t j0 = (int64_t)floor_to_int(t * (float)sz[1] - 0.5f) + q->offset[1];
   near_step(nr, (double)s * sz[0] - 0.5, s, sz[0]);
   near_step(nr, (double)t * sz[1] - 0.5, t, sz[1]);
   static const int di[4] = {0, 1, 1, 0}, dj[4] = {1, 1, 0, 0};
   for (unsigned k = 0; k < 4; k++) {
      uint32_t texel[4];
      env_texel(e, unit, clamp_index(i0 + di[k], sz[0]), clamp_index(j0 + dj[k], sz[1]), z, 0,
                texel);
      uint32_t v = texel[q->comp & 3];
      if (q->compare)
         near_ref(nr, q->ref, v);
      out[k] = q->compare ? shadow_cmp(q->ref, v) : v;
   }
}

/* The level of detail of explicit gradients: log2 of the longer of the
 * two derivative vectors in level-0 texels (NaN: level 0). */
static float
grad_lod(const struct env_texture *tx, const struct env_sample_req *q)
{
   if (target_is_cube(tx->target))
      return 0.0f;
   double size[3] = {tx->width, tx->height, tx->depth}, rx = 0.0, ry = 0.0;
   for (unsigned k = 0; k < target_dims(tx->target); k++) {
      double a = q->ddx[k] * size[k], b = q->ddy[k] * size[k];
      rx += a * a;
      ry += b * b;
   }
   double r = rx != rx || ry != ry ? NAN : MAX2(rx, ry);
   return (float)(0.5 * log2(r));
}

/* env_sample, and through nr whether a rounding came near its threshold. */
static bool
sample(struct env *e, unsigned unit, const struct env_sample_req *q, uint32_t out[4],
       struct near *nr)
{
   memset(out, 0, 16);
   if (unit >= ENV_MAX_TEXTURES || !e->tex[unit].bound) {
      e->events[ENV_EV_UNBOUND]++;
      return false;
   }
   const struct env_texture *tx = &e->tex[unit];
   if (!targets_compatible(q->target, tx->target) || tx->target == TGSI_TEX_T_BUFFER) {
      e->events[ENV_EV_UNBOUND]++;
      return false;
   }
   uint32_t level = 0;
   float lod = q->grad ? grad_lod(tx, q) : q->lod;
   if (!q->gather && lod == lod) {
      float l = floorf(lod + 0.5f);
      level = l <= 0.0f ? 0 : l >= (float)(tx->levels - 1) ? tx->levels - 1 : (uint32_t)l;
      /* a gradient's relative error moves log2 of it by 1.5 times as much */
      if (tx->levels > 1)
         near_step(nr, (double)lod + 0.5, q->grad ? 1.5 : lod, 1.0);
   }
   uint32_t sz[3];
   env_tex_size(tx, level, sz);
   bool rect = q->target == TGSI_TEX_T_RECT || q->target == TGSI_TEX_T_SHADOWRECT;
   unsigned dims = target_dims(tx->target);
   float s = q->coord[0], t = dims >= 2 ? q->coord[1] : 0.0f;
   uint32_t z = 0;
   if (target_is_cube(tx->target) && q->cube_face) { /* gfx9: face + 8 * layer in coord[2] */
      int64_t f = floor_to_int(q->coord[2] + 0.5f), layer = f < 0 ? 0 : f / 8;
      s = q->coord[0] - 1.0f;
      t = q->coord[1] - 1.0f;
      z = (uint32_t)MIN2(f < 0 ? 0 : f % 8, 5);
      if (tgsi_texture_is_array(tx->target))
         z += 6 * clamp_index(layer, sz[2]);
   } else if (target_is_cube(tx->target)) {
      z = cube_face(q->coord[0], q->coord[1], q->coord[2], &s, &t);
      /* the major axis: near a tie of the two longest, the face changes;
       * the face coordinates are ratios, each within twice the tolerance */
      double m[3] = {fabs(q->coord[0]), fabs(q->coord[1]), fabs(q->coord[2])};
      double hi = MAX2(m[0], MAX2(m[1], m[2])),
             lo = m[0] + m[1] + m[2] - hi - MIN2(m[0], MIN2(m[1], m[2]));
      nr->hit |= nr->rel > 0.0 && hi - lo <= nr->rel * hi + 0x1p-20;
      nr->rel *= 2.0;
      if (tgsi_texture_is_array(tx->target)) {
         z += 6 * clamp_index(floor_to_int(q->coord[3] + 0.5f), sz[2]);
         near_step(nr, (double)q->coord[3] + 0.5, q->coord[3], 1.0);
      }
   } else if (tgsi_texture_is_array(tx->target)) {
      z = clamp_off(floor_to_int(q->coord[dims] + 0.5f), 0, sz[2]);
      near_step(nr, (double)q->coord[dims] + 0.5, q->coord[dims], 1.0);
   } else if (dims == 3) {
      z = clamp_off(floor_to_int(q->coord[2] * (float)sz[2]), q->offset[2], sz[2]);
      near_step(nr, (double)q->coord[2] * sz[2], q->coord[2], sz[2]);
   }
   if (q->gather) {
      sample_gather(e, unit, q, sz, s, t, z, out, nr);
      return true;
   }
   uint32_t x = clamp_off(floor_to_int(rect ? s : s * (float)sz[0]), q->offset[0], sz[0]);
   uint32_t y =
       dims < 2 ? 0 : clamp_off(floor_to_int(rect ? t : t * (float)sz[1]), q->offset[1], sz[1]);
   near_step(nr, rect ? (double)s : (double)s * sz[0], s, rect ? 1 : sz[0]);
   if (dims >= 2)
      near_step(nr, rect ? (double)t : (double)t * sz[1], t, rect ? 1 : sz[1]);
   env_texel(e, unit, x, y, z, level, out);
   if (q->compare) {
      near_ref(nr, q->ref, out[0]);
      uint32_t r = shadow_cmp(q->ref, out[0]);
      out[0] = out[1] = out[2] = r;
      out[3] = fui(1.0f);
   }
   return true;
}

bool
env_sample(struct env *e, unsigned unit, const struct env_sample_req *q, uint32_t out[4])
{
   struct near nr = {0.0, false};
   return sample(e, unit, q, out, &nr);
}

bool
env_sample_near(struct env *e, unsigned unit, const struct env_sample_req *q, uint32_t out[4],
                double rel, bool *near)
{
   struct near nr = {rel, false};
   bool ok = sample(e, unit, q, out, &nr);
   *near = ok && nr.hit;
   return ok;
}

/* Channel values of m texels into out[c][base..], from the hashes' low
 * and high 32 bits (hs[0], hs[1]): texel_channel's bits, taken from
 * 32-bit lanes, twice as many to a vector as 64-bit ones. */
static inline __attribute__((always_inline)) void
channel_lanes(enum tgsi_return_type ret, const uint32_t *const hs[2], uint32_t m,
              uint32_t *const out[4], uint32_t base)
{
   for (unsigned c = 0; c < 4; c++) {
      uint32_t *o = out[c] + base;
      const uint32_t *h = hs[c / 2];
      unsigned shift = 16 * (c % 2);
      for (uint32_t k = 0; k < m; k++)
         o[k] = texel_value(ret, (h[k] >> shift) & 0xffff);
   }
}

/* Texel hashes of lanes [base, base + m) into lo and hi (their low and
 * high 32 bits): env_sample's level,
 * size, x, y and z, every choice a select (the loop vectorizes); dims,
 * array, rect and has_lod are constants where it is inlined. */
static inline __attribute__((always_inline)) void
hash_lanes(const struct env_texture *tx, const struct env_sample_lanes *q, unsigned dims,
           bool array, bool rect, bool has_lod, uint32_t base, uint32_t m, uint32_t *lo,
           uint32_t *hi)
{
   bool has_z = array || dims == 3, d3 = tx->target == TGSI_TEX_T_3D;
   const uint32_t *cs = q->coord[0], *ct = q->coord[dims >= 2 ? 1 : 0];
   const uint32_t *cz = q->coord[array ? dims : 2], *lods = has_lod ? q->lod : cs;
   const uint32_t *o0 = q->off[0], *o1 = q->off[1], *o2 = q->off[2];
   float ftop = (float)(tx->levels - 1);
   for (uint32_t k = 0; k < m; k++) {
      uint32_t i = base + k, level = 0;
      if (has_lod) {
         float lod = uif(lods[i]), l = floorf(lod + 0.5f);
         l = l <= 0.0f ? 0.0f : l >= ftop ? ftop : l;
         l = lod != lod ? 0.0f : l;
         level = (uint32_t)(int32_t)l;
      }
      uint32_t w = MAX2(tx->width >> level, 1u), h = MAX2(tx->height >> level, 1u);
      uint32_t d = d3 ? MAX2(tx->depth >> level, 1u) : tx->depth;
      /* sizes are below 2^16: (float)(int32_t) is (float), and vectorizes */
      float fw = (float)(int32_t)w, fh = (float)(int32_t)h, fd = (float)(int32_t)d;
      float s = uif(cs[i]), t = dims >= 2 ? uif(ct[i]) : 0.0f;
      uint32_t x = clamp_off(floor_to_int(rect ? s : s * fw), (int32_t)o0[i], w);
      uint32_t y = dims < 2 ? 0 : clamp_off(floor_to_int(rect ? t : t * fh), (int32_t)o1[i], h);
      uint32_t z = 0;
      if (array)
         z = clamp_off(floor_to_int(uif(cz[i]) + 0.5f), 0, d);
      else if (has_z)
         z = clamp_off(floor_to_int(uif(cz[i]) * fd), (int32_t)o2[i], d);
      uint64_t hash = texel_hash(tx->seed, x, y, z, level);
      lo[k] = (uint32_t)hash;
      hi[k] = (uint32_t)(hash >> 32);
   }
}

/* env_sample_near's near for lanes [base, base + m) of the lookups
 * hash_lanes takes: the same roundings as sample()'s (level, layer or
 * depth, x, y, and the compare against texel, channel 0 of the texels
 * before the compare), each a select, so the loop vectorizes. */
static inline __attribute__((always_inline)) void
near_lanes(const struct env_texture *tx, const struct env_sample_lanes *q, unsigned dims,
           bool array, bool rect, uint32_t base, uint32_t m, const uint32_t *texel)
{
   bool d3 = tx->target == TGSI_TEX_T_3D, levels = tx->levels > 1;
   const uint32_t *cs = q->coord[0], *ct = q->coord[dims >= 2 ? 1 : 0];
   const uint32_t *cz = q->coord[array ? dims : 2];
   const uint32_t *lods = q->lod, *ref = q->ref;
   const float *rel = q->rel;
   uint32_t *near = q->near;
   float ftop = (float)(tx->levels - 1);
   for (uint32_t k = 0; k < m; k++) {
      uint32_t i = base + k, level = 0;
      double r = rel[i];
      bool hit = false;
      if (lods) { /* without: level 0, and 0.5 is never near a step */
         float lod = uif(lods[i]), l = floorf(lod + 0.5f);
         l = l <= 0.0f ? 0.0f : l >= ftop ? ftop : l;
         l = lod != lod ? 0.0f : l;
         level = (uint32_t)(int32_t)l;
         hit |= levels & (lod == lod) & near_at(r, (double)lod + 0.5, lod, 1.0);
      }
      double w = MAX2(tx->width >> level, 1u), h = MAX2(tx->height >> level, 1u);
      double d = d3 ? MAX2(tx->depth >> level, 1u) : tx->depth;
      float s = uif(cs[i]), t = uif(ct[i]), z = uif(cz[i]);
      if (array)
         hit |= near_at(r, (double)z + 0.5, z, 1.0);
      else if (dims == 3)
         hit |= near_at(r, (double)z * d, z, d);
      hit |= near_at(r, rect ? (double)s : (double)s * w, s, rect ? 1.0 : w);
      if (dims >= 2)
         hit |= near_at(r, rect ? (double)t : (double)t * h, t, rect ? 1.0 : h);
      if (ref)
         hit |= near_cmp(r, uif(ref[i]), texel[k]);
      near[i] = hit;
   }
}

/* The per-lane part of env_sample_lanes: the same steps as env_sample's
 * (level, size, x, y, z, texel, compare), on lane arrays, in runs of 64
 * lanes: the texel hashes, then each channel. */
DC_LANES
static void
sample_lanes(const struct env_texture *tx, const struct env_sample_lanes *q, uint32_t n,
             uint32_t *const out[4])
{
   bool rect = q->target == TGSI_TEX_T_RECT || q->target == TGSI_TEX_T_SHADOWRECT;
   unsigned dims = target_dims(tx->target);
   bool array = tgsi_texture_is_array(tx->target), lod = q->lod != NULL;
   unsigned kind = (rect ? 0 : array ? 1 + dims : 3 + dims) * 2 + lod; /* 0..13 */
   uint32_t lo[64], hi[64];
   const uint32_t *const hs[2] = {lo, hi};
   for (uint32_t base = 0; base < n; base += 64) {
      uint32_t m = MIN2(64u, n - base);
      switch (kind) {
#define HASH_KIND(k, dm, ar, re)                                                                   \
   case 2 * (k):                                                                                   \
      hash_lanes(tx, q, dm, ar, re, false, base, m, lo, hi);                                       \
      break;                                                                                       \
   case 2 * (k) + 1:                                                                               \
      hash_lanes(tx, q, dm, ar, re, true, base, m, lo, hi);                                        \
      break;
         HASH_KIND(0, 2, false, true)
         HASH_KIND(2, 1, true, false)
         HASH_KIND(3, 2, true, false)
         HASH_KIND(4, 1, false, false)
         HASH_KIND(5, 2, false, false)
         HASH_KIND(6, 3, false, false)
#undef HASH_KIND
      default:
         assert(!"a target sample_lanes does not know");
      }
      switch (tx->ret) {
      case TGSI_RET_UNORM:
         channel_lanes(TGSI_RET_UNORM, hs, m, out, base);
         break;
      case TGSI_RET_SNORM:
         channel_lanes(TGSI_RET_SNORM, hs, m, out, base);
         break;
      case TGSI_RET_UINT:
         channel_lanes(TGSI_RET_UINT, hs, m, out, base);
         break;
      case TGSI_RET_SINT:
         channel_lanes(TGSI_RET_SINT, hs, m, out, base);
         break;
      default:
         channel_lanes(TGSI_RET_FLOAT, hs, m, out, base);
         break;
      }
      if (q->rel)
         near_lanes(tx, q, dims, array, rect, base, m, out[0] + base);
      if (q->ref) {
         const uint32_t *ref = q->ref + base;
         uint32_t *o[4] = {out[0] + base, out[1] + base, out[2] + base, out[3] + base};
         for (uint32_t k = 0; k < m; k++) {
            uint32_t v = uif(ref[k]) <= uif(o[0][k]) ? fui(1.0f) : 0;
            o[0][k] = o[1][k] = o[2][k] = v;
            o[3][k] = fui(1.0f);
         }
      }
   }
}

bool
env_sample_lanes_take(const struct env *e, unsigned unit, enum tgsi_texture target)
{
   if (unit >= ENV_MAX_TEXTURES || !e->tex[unit].bound)
      return false;
   const struct env_texture *tx = &e->tex[unit];
   return target == tx->target && tx->target != TGSI_TEX_T_BUFFER && !target_is_cube(tx->target);
}

bool
env_sample_lanes(struct env *e, unsigned unit, const struct env_sample_lanes *q, uint32_t n,
                 uint32_t *const out[4])
{
   if (!env_sample_lanes_take(e, unit, q->target))
      return false;
   sample_lanes(&e->tex[unit], q, n, out);
   return true;
}

bool
env_fetch(struct env *e, unsigned unit, enum tgsi_texture target, const int32_t coord[3],
          int32_t level, const int32_t offset[3], uint32_t out[4])
{
   memset(out, 0, 16);
   if (unit >= ENV_MAX_TEXTURES || !e->tex[unit].bound) {
      e->events[ENV_EV_UNBOUND]++;
      return false;
   }
   const struct env_texture *tx = &e->tex[unit];
   if (!targets_compatible(target, tx->target) || target_is_cube(tx->target)) {
      e->events[ENV_EV_UNBOUND]++;
      return false;
   }
   if (level < 0 || (uint32_t)level >= tx->levels) {
      e->events[ENV_EV_TEXEL_OOB]++;
      return false;
   }
   uint32_t sz[3];
   env_tex_size(tx, (uint32_t)level, sz);
   unsigned dims = target_dims(tx->target);
   bool arr = tgsi_texture_is_array(tx->target);
   int64_t c[3] = {0, 0, 0};
   for (unsigned i = 0; i < dims; i++)
      c[i] = (int64_t)coord[i] + offset[i];
   if (arr)
      c[2] = coord[dims]; /* layers take no offset */
   uint32_t lim[3] = {sz[0], dims >= 2 ? sz[1] : 1, dims == 3 || arr ? sz[2] : 1};
   for (unsigned i = 0; i < 3; i++) {
      if (c[i] < 0 || c[i] >= lim[i]) {
         e->events[ENV_EV_TEXEL_OOB]++;
         return false;
      }
   }
   env_texel(e, unit, (uint32_t)c[0], (uint32_t)c[1], (uint32_t)c[2], (uint32_t)level, out);
   return true;
}

/* TXQ / SVIEWINFO: (width, height, depth or layers, levels) of a level,
 * with the components a target lacks set to 0. A level out of range gives
 * (0, 0, 0, levels), as tgsi.rst specifies for SVIEWINFO. */
bool
env_tex_query(struct env *e, unsigned unit, int32_t level, uint32_t out[4])
{
   memset(out, 0, 16);
   if (unit >= ENV_MAX_TEXTURES || !e->tex[unit].bound) {
      e->events[ENV_EV_UNBOUND]++;
      return false;
   }
   const struct env_texture *tx = &e->tex[unit];
   out[3] = tx->levels;
   if (level < 0 || (uint32_t)level >= tx->levels)
      return true;
   uint32_t sz[3];
   env_tex_size(tx, (uint32_t)level, sz);
   unsigned dims = target_dims(tx->target);
   out[0] = sz[0];
   if (dims >= 2)
      out[1] = sz[1];
   if (dims == 3 || tgsi_texture_is_array(tx->target))
      out[dims == 1 ? 1 : 2] = sz[2];
   return true;
}

/* ------------------------------------------------------------------ */
/* Buffers, images, shared memory                                       */

bool
env_mem_init(struct env_mem *m, uint32_t size, bool defined)
{
   env_mem_fini(m);
   if (size > ENV_MAX_MEM_BYTES || (size & 3))
      return false;
   m->size = size;
   m->data = xcalloc(size + 4, 1);
   m->undef = xmalloc(size + 4);
   memset(m->undef, defined ? 0 : 1, size + 4);
   return true;
}

void
env_mem_set_undef(struct env_mem *m)
{
   if (m->undef && !m->all_undef)
      memset(m->undef, 1, m->size);
   m->all_undef = m->undef != NULL;
}

uint32_t
env_mem_class(const struct env_mem *m, uint32_t w)
{
   return m->cls && w < m->size / 4 ? m->cls[w] : 0;
}

void
env_mem_set_class(struct env_mem *m, uint32_t w, uint32_t cls)
{
   if (w >= m->size / 4)
      return;
   if (!m->cls)
      m->cls = xcalloc(m->size / 4 + 1, sizeof(*m->cls));
   m->cls[w] = cls;
}

bool
env_set_buffer(struct env *e, unsigned i, uint32_t size)
{
   return i < ENV_MAX_BUFFERS && env_mem_init(&e->buf[i], size, true);
}

bool
env_set_image(struct env *e, unsigned i, enum tgsi_texture target, uint32_t w, uint32_t h,
              uint32_t d)
{
   if (i >= ENV_MAX_IMAGES || !w || !h || !d || (uint64_t)w * h * d * 16 > ENV_MAX_MEM_BYTES)
      return false;
   struct env_image *im = &e->img[i];
   if (!env_mem_init(&im->mem, w * h * d * 16, true))
      return false;
   im->bound = true;
   im->target = target;
   im->width = w;
   im->height = h;
   im->depth = d;
   return true;
}

/* Byte offset of an image texel; false (and IMAGE_OOB) if out of bounds. */
unsigned
env_image_coords(const struct env *e, unsigned i)
{
   if (i >= ENV_MAX_IMAGES || !e->img[i].bound)
      return 3;
   enum tgsi_texture t = e->img[i].target;
   unsigned dims = target_dims(t);
   bool layered = tgsi_texture_is_array(t) || target_is_cube(t);
   return dims == 3 || !layered ? dims : dims + 1;
}

bool
env_image_offset(struct env *e, unsigned i, const int32_t coord[3], uint32_t *off)
{
   if (i >= ENV_MAX_IMAGES || !e->img[i].bound) {
      e->events[ENV_EV_UNBOUND]++;
      return false;
   }
   const struct env_image *im = &e->img[i];
   unsigned dims = target_dims(im->target);
   bool layered = tgsi_texture_is_array(im->target) || target_is_cube(im->target);
   int64_t c[3] = {coord[0], 0, 0};
   if (dims >= 2)
      c[1] = coord[1];
   if (dims == 3)
      c[2] = coord[2];
   else if (layered)
      c[2] = coord[dims];
   if (c[0] < 0 || c[0] >= im->width || c[1] < 0 || c[1] >= im->height || c[2] < 0 ||
       c[2] >= im->depth) {
      e->events[ENV_EV_IMAGE_OOB]++;
      return false;
   }
   *off = (uint32_t)(((c[2] * im->height + c[1]) * im->width + c[0]) * 16);
   return true;
}

bool
env_mem_load(struct env *e, const struct env_mem *m, enum env_event ev, uint32_t off,
             unsigned nwords, uint32_t *out, bool *undef)
{
   memset(out, 0, nwords * 4);
   *undef = true;
   if (!m->data) {
      e->events[ENV_EV_UNBOUND]++;
      return false;
   }
   uint32_t n = nwords * 4;
   if (off > m->size || m->size - off < n) {
      e->events[ev]++;
      return false;
   }
   if (off & 3) {
      e->events[ENV_EV_MISALIGNED]++;
      return false;
   }
   memcpy(out, m->data + off, n);
   bool u = false;
   for (uint32_t i = 0; i < n; i++)
      u |= m->undef[off + i] != 0;
   *undef = u;
   return true;
}

unsigned
env_mem_store(struct env *e, struct env_mem *m, enum env_event ev, uint32_t off, unsigned wmask,
              const uint32_t *val, const bool *undef)
{
   if (!m->data) {
      e->events[ENV_EV_UNBOUND]++;
      return 0;
   }
   if (off & 3) {
      e->events[ENV_EV_MISALIGNED]++;
      return 0;
   }
   unsigned stored = 0;
   bool oob = false;
   for (unsigned c = 0; c < 4; c++) {
      if (!(wmask & (1u << c)))
         continue;
      uint64_t at = (uint64_t)off + 4 * c;
      if (at + 4 > m->size) {
         oob = true;
         continue;
      }
      memcpy(m->data + at, &val[c], 4);
      memset(m->undef + at, undef[c] ? 1 : 0, 4);
      m->all_undef &= undef[c];
      stored |= 1u << c;
   }
   if (oob)
      e->events[ev]++;
   return stored;
}

static uint32_t
atomic_apply(enum env_atomic_op op, uint32_t old, uint32_t v, uint32_t cmp)
{
   switch (op) {
   case ENV_ATOM_ADD:
      return old + v;
   case ENV_ATOM_XCHG:
      return v;
   case ENV_ATOM_CAS:
      return old == cmp ? v : old;
   case ENV_ATOM_AND:
      return old & v;
   case ENV_ATOM_OR:
      return old | v;
   case ENV_ATOM_XOR:
      return old ^ v;
   case ENV_ATOM_UMIN:
      return MIN2(old, v);
   case ENV_ATOM_UMAX:
      return MAX2(old, v);
   case ENV_ATOM_IMIN:
      return (int32_t)old < (int32_t)v ? old : v;
   case ENV_ATOM_IMAX:
      return (int32_t)old > (int32_t)v ? old : v;
   case ENV_ATOM_FADD:
      return fui(uif(old) + uif(v));
   case ENV_ATOM_INC_WRAP:
      return old >= v ? 0 : old + 1;
   case ENV_ATOM_DEC_WRAP:
      return old == 0 || old > v ? v : old - 1;
   }
   return old;
}

/* One 32-bit atomic: *old receives the previous word. For CAS, cmp is the
 * comparison value and v the replacement. */
bool
env_mem_atomic(struct env *e, struct env_mem *m, enum env_event ev, uint32_t off,
               enum env_atomic_op op, uint32_t v, uint32_t cmp, bool v_undef, uint32_t *old,
               bool *undef)
{
   *old = 0;
   *undef = true;
   if (!m->data) {
      e->events[ENV_EV_UNBOUND]++;
      return false;
   }
   if (off > m->size || m->size - off < 4) {
      e->events[ev]++;
      return false;
   }
   if (off & 3) {
      e->events[ENV_EV_MISALIGNED]++;
      return false;
   }
   uint32_t o;
   memcpy(&o, m->data + off, 4);
   bool ou = m->undef[off] | m->undef[off + 1] | m->undef[off + 2] | m->undef[off + 3];
   uint32_t r = atomic_apply(op, o, v, cmp);
   memcpy(m->data + off, &r, 4);
   memset(m->undef + off, ou || v_undef ? 1 : 0, 4);
   m->all_undef &= ou || v_undef;
   *old = o;
   *undef = ou;
   return true;
}
