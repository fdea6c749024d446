/*
 * The run environment: procedural texels pinned to their documented
 * formula, the sampler's rules (nearest, clamp to edge, level selection,
 * cube faces, shadow compare, gather), bounds-checked fetches and memory,
 * and deep copies.
 */
#include "emu/emu.h"
#include "util/test.h"

#include <stdlib.h>

static struct env_texture
tex(enum tgsi_texture target, enum tgsi_return_type ret, uint32_t w, uint32_t h, uint32_t d,
    uint32_t levels, uint64_t seed)
{
   struct env_texture t = {.target = target,
                           .ret = ret,
                           .width = w,
                           .height = h,
                           .depth = d,
                           .levels = levels,
                           .seed = seed};
   return t;
}

/* Values computed from the formula in env.c's header, independently. */
static void
test_texel_pinned(void)
{
   struct env *e = env_new(TGSI_STAGE_FRAG, 4);
   struct env_texture t = tex(TGSI_TEX_T_2D, TGSI_RET_FLOAT, 8, 8, 1, 4, 1);
   CHECK(env_set_texture(e, 0, &t));
   uint32_t v[4];
   env_texel(e, 0, 0, 0, 0, 0, v);
   CHECK_EQ_U(v[0], 0x3ef94000);
   CHECK_EQ_U(v[1], 0xbe7a8000);
   CHECK_EQ_U(v[2], 0x3f03a000);
   CHECK_EQ_U(v[3], 0x3f124000);
   t = tex(TGSI_TEX_T_2D, TGSI_RET_UINT, 8, 8, 1, 4, 0x1234);
   CHECK(env_set_texture(e, 1, &t));
   env_texel(e, 1, 3, 5, 0, 1, v);
   CHECK(v[0] == 0x414f && v[1] == 0xd79c && v[2] == 0xa174 && v[3] == 0x95d);
   t.ret = TGSI_RET_SINT;
   CHECK(env_set_texture(e, 1, &t));
   env_texel(e, 1, 3, 5, 0, 1, v);
   CHECK(v[1] == 0xffffd79c && v[3] == 0x95d);
   t = tex(TGSI_TEX_T_2D, TGSI_RET_UNORM, 8, 8, 1, 1, 99);
   CHECK(env_set_texture(e, 2, &t));
   for (uint32_t x = 0; x < 8; x++) {
      env_texel(e, 2, x, x, 0, 0, v);
      for (unsigned c = 0; c < 4; c++)
         CHECK(uif(v[c]) >= 0.0f && uif(v[c]) <= 1.0f);
   }
   env_free(e);
}

/* Nearest texel, clamp to edge, level = floor(lod + 0.5) clamped. */
static void
test_sample_rules(void)
{
   struct env *e = env_new(TGSI_STAGE_FRAG, 4);
   struct env_texture t = tex(TGSI_TEX_T_2D, TGSI_RET_FLOAT, 16, 8, 1, 4, 7);
   CHECK(env_set_texture(e, 0, &t));
   struct env_sample_req q = {.target = TGSI_TEX_T_2D};
   uint32_t got[4], want[4];
   q.coord[0] = 0.5f;
   q.coord[1] = 0.25f;
   CHECK(env_sample(e, 0, &q, got));
   env_texel(e, 0, 8, 2, 0, 0, want);
   CHECK(!memcmp(got, want, 16));
   q.coord[0] = -5.0f;
   q.coord[1] = uif(0x7fc00000); /* NaN -> texel 0 */
   env_sample(e, 0, &q, got);
   env_texel(e, 0, 0, 0, 0, 0, want);
   CHECK(!memcmp(got, want, 16));
   q.coord[0] = 2.0f;
   q.coord[1] = 0.99f;
   q.lod = 1.49f; /* level 1: 8 x 4 */
   env_sample(e, 0, &q, got);
   env_texel(e, 0, 7, 3, 0, 1, want);
   CHECK(!memcmp(got, want, 16));
   q.lod = 100.0f; /* clamped to level 3: 2 x 1 */
   env_sample(e, 0, &q, got);
   env_texel(e, 0, 1, 0, 0, 3, want);
   CHECK(!memcmp(got, want, 16));
   q.lod = 0;
   q.offset[0] = -1; /* offsets apply before the clamp */
   q.coord[0] = 0.5f;
   q.coord[1] = 0.5f;
   env_sample(e, 0, &q, got);
   env_texel(e, 0, 7, 4, 0, 0, want);
   CHECK(!memcmp(got, want, 16));
   env_free(e);
}

/* Explicit gradients: lod = log2 of the longer derivative vector in
 * level-0 texels; an explicit lod is then ignored; NaN gives level 0. */
static void
test_sample_gradients(void)
{
   struct env *e = env_new(TGSI_STAGE_FRAG, 4);
   struct env_texture t = tex(TGSI_TEX_T_2D, TGSI_RET_FLOAT, 16, 8, 1, 4, 7);
   CHECK(env_set_texture(e, 0, &t));
   struct env_sample_req q = {.target = TGSI_TEX_T_2D, .grad = true, .lod = 3.0f};
   uint32_t got[4], want[4];
   q.coord[0] = 0.99f;
   q.coord[1] = 0.99f;
   q.ddx[0] = 0.25f;  /* 4 texels along s: lod 2, 4 x 2 */
   q.ddy[1] = 0.125f; /* 1 texel along t */
   env_sample(e, 0, &q, got);
   env_texel(e, 0, 3, 1, 0, 2, want);
   CHECK(!memcmp(got, want, 16));
   q.ddy[1] = 0.25f; /* 2 texels: ddx still the longer */
   env_sample(e, 0, &q, got);
   CHECK(!memcmp(got, want, 16));
   q.ddx[0] = 0.0f; /* ddy alone: lod 1, 8 x 4 */
   env_sample(e, 0, &q, got);
   env_texel(e, 0, 7, 3, 0, 1, want);
   CHECK(!memcmp(got, want, 16));
   q.ddx[0] = 0.0625f; /* (1, 1) texels: 1.41 -> lod 0.5, level 1 */
   q.ddx[1] = 0.125f;
   q.ddy[1] = 0.0f;
   env_sample(e, 0, &q, got);
   CHECK(!memcmp(got, want, 16));
   q.ddx[0] = uif(0x7fc00000);
   env_sample(e, 0, &q, got);
   env_texel(e, 0, 15, 7, 0, 0, want);
   CHECK(!memcmp(got, want, 16));
   env_free(e);
}

static void
test_sample_shadow_cube_gather(void)
{
   struct env *e = env_new(TGSI_STAGE_FRAG, 4);
   struct env_texture t = tex(TGSI_TEX_T_CUBE, TGSI_RET_FLOAT, 4, 4, 1, 1, 3);
   CHECK(env_set_texture(e, 0, &t));
   struct env_sample_req q = {.target = TGSI_TEX_T_CUBE};
   uint32_t got[4], want[4];
   /* -Z major axis: face 5, s = (-x/|z| + 1)/2, t = (-y/|z| + 1)/2. */
   q.coord[0] = 0.5f;
   q.coord[1] = -0.5f;
   q.coord[2] = -1.0f;
   env_sample(e, 0, &q, got);
   env_texel(e, 0, 1, 3, 5, 0, want); /* s = 0.25 -> 1, t = 0.75 -> 3 */
   CHECK(!memcmp(got, want, 16));
   /* Shadow: LEQUAL against .x, result (r, r, r, 1). */
   struct env_texture s2 = tex(TGSI_TEX_T_SHADOW2D, TGSI_RET_FLOAT, 4, 4, 1, 1, 5);
   CHECK(env_set_texture(e, 1, &s2));
   struct env_sample_req sq = {.target = TGSI_TEX_T_SHADOW2D, .compare = true};
   env_texel(e, 1, 0, 0, 0, 0, want);
   sq.ref = uif(want[0]);
   env_sample(e, 1, &sq, got);
   CHECK(got[0] == 0x3f800000 && got[2] == 0x3f800000 && got[3] == 0x3f800000);
   sq.ref = uif(want[0]) + 0.01f;
   env_sample(e, 1, &sq, got);
   CHECK(got[0] == 0 && got[1] == 0 && got[3] == 0x3f800000);
   sq.ref = uif(0x7fc00000);
   env_sample(e, 1, &sq, got);
   CHECK(got[0] == 0);
   /* Gather: component 1 of (i0,j1) (i1,j1) (i1,j0) (i0,j0), i0 = floor(s*w - 0.5). */
   struct env_sample_req g = {.target = TGSI_TEX_T_2D, .gather = true, .comp = 1};
   g.coord[0] = 0.5f; /* 4 * 0.5 - 0.5 = 1.5 -> i0 = 1 */
   g.coord[1] = 0.0f; /* -0.5 -> j0 = -1, clamped */
   struct env_texture t2 = tex(TGSI_TEX_T_2D, TGSI_RET_UINT, 4, 4, 1, 3, 11);
   CHECK(env_set_texture(e, 2, &t2));
   env_sample(e, 2, &g, got);
   uint32_t a[4], b[4], c[4], d[4];
   env_texel(e, 2, 1, 0, 0, 0, a);
   env_texel(e, 2, 2, 0, 0, 0, b);
   env_texel(e, 2, 2, 0, 0, 0, c);
   env_texel(e, 2, 1, 0, 0, 0, d);
   CHECK(got[0] == a[1] && got[1] == b[1] && got[2] == c[1] && got[3] == d[1]);
   /* An incompatible target and an unbound unit read 0 and count. */
   struct env_sample_req bad = {.target = TGSI_TEX_T_3D};
   CHECK(!env_sample(e, 2, &bad, got) && got[0] == 0);
   CHECK(!env_sample(e, 9, &q, got));
   CHECK(e->events[ENV_EV_UNBOUND] == 2);
   env_free(e);
}

static void
test_fetch_and_query(void)
{
   struct env *e = env_new(TGSI_STAGE_FRAG, 4);
   struct env_texture t = tex(TGSI_TEX_T_2D_ARRAY, TGSI_RET_SINT, 8, 4, 3, 2, 21);
   CHECK(env_set_texture(e, 0, &t));
   uint32_t got[4], want[4];
   int32_t c[3] = {7, 3, 2}, off[3] = {0, 0, 0};
   CHECK(env_fetch(e, 0, TGSI_TEX_T_2D_ARRAY, c, 0, off, got));
   env_texel(e, 0, 7, 3, 2, 0, want);
   CHECK(!memcmp(got, want, 16));
   c[0] = 4; /* level 1 is 4 x 2 */
   CHECK(!env_fetch(e, 0, TGSI_TEX_T_2D_ARRAY, c, 1, off, got) && got[0] == 0);
   c[0] = 1;
   c[1] = 1;
   off[0] = 2; /* 1 + 2 = 3 < 4 */
   CHECK(env_fetch(e, 0, TGSI_TEX_T_2D_ARRAY, c, 1, off, got));
   c[2] = 3; /* layer out of range */
   CHECK(!env_fetch(e, 0, TGSI_TEX_T_2D_ARRAY, c, 0, off, got));
   CHECK(!env_fetch(e, 0, TGSI_TEX_T_2D_ARRAY, c, 2, off, got));
   CHECK(e->events[ENV_EV_TEXEL_OOB] == 3);
   CHECK(env_tex_query(e, 0, 1, got));
   CHECK(got[0] == 4 && got[1] == 2 && got[2] == 3 && got[3] == 2);
   CHECK(env_tex_query(e, 0, 5, got));
   CHECK(got[0] == 0 && got[1] == 0 && got[2] == 0 && got[3] == 2);
   /* A bad size is refused. */
   struct env_texture badt = tex(TGSI_TEX_T_CUBE, TGSI_RET_FLOAT, 8, 4, 1, 1, 1);
   CHECK(!env_set_texture(e, 1, &badt));
   badt = tex(TGSI_TEX_T_2D, TGSI_RET_FLOAT, 8, 8, 1, 5, 1);
   CHECK(!env_set_texture(e, 1, &badt));
   env_free(e);
}

static void
test_memory(void)
{
   struct env *e = env_new(TGSI_STAGE_COMP, 4);
   CHECK(env_set_buffer(e, 0, 16));
   CHECK(!env_set_buffer(e, 1, 10)); /* not a multiple of 4 */
   struct env_mem *m = &e->buf[0];
   uint32_t v[4] = {1, 2, 3, 4}, out[4];
   bool u[4] = {false, true, false, false}, undef;
   CHECK_EQ_U(env_mem_store(e, m, ENV_EV_BUFFER_OOB, 8, 0xf, v, u), 0x3);
   CHECK(e->events[ENV_EV_BUFFER_OOB] == 1);
   CHECK(env_mem_load(e, m, ENV_EV_BUFFER_OOB, 8, 1, out, &undef) && out[0] == 1 && !undef);
   CHECK(env_mem_load(e, m, ENV_EV_BUFFER_OOB, 8, 2, out, &undef) && undef);
   CHECK(!env_mem_load(e, m, ENV_EV_BUFFER_OOB, 12, 2, out, &undef) && out[0] == 0 && undef);
   CHECK(!env_mem_load(e, m, ENV_EV_BUFFER_OOB, 0xfffffffc, 2, out, &undef));
   CHECK(!env_mem_load(e, m, ENV_EV_BUFFER_OOB, 2, 1, out, &undef));
   CHECK(e->events[ENV_EV_MISALIGNED] == 1);
   uint32_t old;
   CHECK(env_mem_atomic(e, m, ENV_EV_BUFFER_OOB, 8, ENV_ATOM_ADD, 5, 0, false, &old, &undef));
   CHECK(old == 1 && !undef);
   CHECK(env_mem_atomic(e, m, ENV_EV_BUFFER_OOB, 8, ENV_ATOM_CAS, 9, 6, false, &old, &undef));
   CHECK(old == 6);
   CHECK(env_mem_atomic(e, m, ENV_EV_BUFFER_OOB, 8, ENV_ATOM_IMIN, 0xffffffffu, 0, false, &old,
                        &undef));
   CHECK(old == 9);
   CHECK(env_mem_atomic(e, m, ENV_EV_BUFFER_OOB, 8, ENV_ATOM_INC_WRAP, 3, 0, false, &old, &undef));
   CHECK(old == 0xffffffffu);
   CHECK(env_mem_atomic(e, m, ENV_EV_BUFFER_OOB, 8, ENV_ATOM_DEC_WRAP, 3, 0, false, &old, &undef));
   CHECK(old == 0); /* inc wrapped to 0; dec from 0 wraps to 3 */
   CHECK(env_mem_atomic(e, m, ENV_EV_BUFFER_OOB, 8, ENV_ATOM_XCHG, 7, 0, false, &old, &undef));
   CHECK(old == 3);
   CHECK(!env_mem_atomic(e, m, ENV_EV_BUFFER_OOB, 16, ENV_ATOM_ADD, 1, 0, false, &old, &undef));
   CHECK(env_mem_atomic(e, m, ENV_EV_BUFFER_OOB, 12, ENV_ATOM_ADD, 1, 0, false, &old, &undef));
   CHECK(undef); /* that word was stored undefined */
   /* env_mem_set_undef skips its clear only while nothing defined a byte:
    * a defined store or atomic after it must be undone by the next. */
   env_mem_set_undef(m);
   CHECK(m->all_undef);
   CHECK(env_mem_store(e, m, ENV_EV_BUFFER_OOB, 0, 0x1, v, u) == 0x1 && !m->all_undef);
   env_mem_set_undef(m);
   CHECK(env_mem_load(e, m, ENV_EV_BUFFER_OOB, 0, 1, out, &undef) && undef);
   /* an atomic on an undefined word stores an undefined one */
   CHECK(env_mem_atomic(e, m, ENV_EV_BUFFER_OOB, 4, ENV_ATOM_ADD, 1, 0, false, &old, &undef));
   CHECK(undef && m->all_undef);
   /* Images are raw 16-byte texels, bounds checked. */
   CHECK(env_set_image(e, 0, TGSI_TEX_T_2D_ARRAY, 4, 2, 3));
   uint32_t off;
   int32_t c[3] = {3, 1, 2};
   CHECK(env_image_offset(e, 0, c, &off) && off == ((2 * 2 + 1) * 4 + 3) * 16);
   c[2] = 3;
   CHECK(!env_image_offset(e, 0, c, &off) && e->events[ENV_EV_IMAGE_OOB] == 1);
   env_free(e);
}

static void
test_clone(void)
{
   struct env *e = env_new(TGSI_STAGE_FRAG, 8);
   CHECK(env_alloc_inputs(e, 2, 1));
   env_in(e, 0, 1, 2)[5] = 42;
   CHECK(env_set_cbuf(e, 0, 3));
   e->cbuf[0][9] = 7;
   CHECK(env_set_buffer(e, 2, 8));
   e->buf[2].data[3] = 0x99;
   env_sv(e, TGSI_SEM_FACE)[3] = 1;
   CHECK(env_alloc_outputs(e, 1, 1));
   struct env *c = env_clone(e);
   CHECK(env_in(c, 0, 1, 2)[5] == 42 && c->cbuf[0][9] == 7 && c->buf[2].data[3] == 0x99);
   CHECK(c->sv[TGSI_SEM_FACE][3] == 1 && c->out_flags[0] == ENV_F_UNDEF);
   e->buf[2].data[3] = 0;
   env_in(e, 0, 1, 2)[5] = 0;
   CHECK(c->buf[2].data[3] == 0x99 && env_in(c, 0, 1, 2)[5] == 42);
   env_free(e);
   env_free(c);
   CHECK(!env_new(TGSI_STAGE_FRAG, 0) && !env_new(TGSI_STAGE_FRAG, ENV_MAX_LANES + 1));
}

/* A float of a kind a coordinate, lod or reference may hold: in and out
 * of [0, 1], texel centres and edges, large, infinite, NaN, negative zero. */
static uint32_t
odd_float(struct rng *r)
{
   static const uint32_t special[] = {0x7fc00000u, 0xffc00000u, 0x7f800000u, 0xff800000u,
                                      0x80000000u, 0,           0x3f800000u, 0x4f800000u,
                                      0xcf000000u, 0x49742400u, 0xc9742400u, 0x3f000000u};
   uint64_t x = rng_next(r);
   switch (x % 4) {
   case 0:
      return special[(x >> 8) % ARRAY_SIZE(special)];
   case 1:
      return fui((float)((int64_t)((x >> 8) % 4000) - 1000) / 1000.0f);
   case 2:
      return fui((float)((int64_t)((x >> 8) % 80) - 20) / 8.0f);
   default:
      return (uint32_t)(x >> 16);
   }
}

static uint32_t
odd_offset(struct rng *r)
{
   static const uint32_t special[] = {0,           1,           0xffffffffu,
                                      0x7fffffffu, 0x80000000u, 0x40000000u,
                                      0xc0000000u, 0x40000001u, 0xbfffffffu};
   uint64_t x = rng_next(r);
   return x % 3 ? (uint32_t)((int32_t)((x >> 8) % 17) - 8)
                : special[(x >> 8) % ARRAY_SIZE(special)];
}

/* A coordinate whose scaled value (times size) lies within about 2^-15
 * of a step, or on it. */
static uint32_t
edge_float(struct rng *r, uint32_t size)
{
   uint64_t x = rng_next(r);
   double step = (double)((int64_t)((x >> 8) % 24) - 4);
   static const double delta[] = {0.0, 0x1p-15, -0x1p-15, 0x1p-13, -0x1p-11, 0x1p-21, 0.5};
   return fui((float)((step + delta[(x >> 20) % ARRAY_SIZE(delta)]) / size));
}

/* env_sample_lanes gives what env_sample gives lane by lane, on every
 * target and return type it takes, with and without lod and compare,
 * on coordinates, lods and offsets of every kind, and the near of
 * env_sample_near for every lane that asks (coordinates, lods and
 * references near a rounding, each tolerance); and declines (writing
 * nothing) what it does not take. */
static void
test_sample_lanes(void)
{
   enum { N = 150 };
   static const enum tgsi_texture targets[] = {TGSI_TEX_T_1D,
                                               TGSI_TEX_T_2D,
                                               TGSI_TEX_T_3D,
                                               TGSI_TEX_T_RECT,
                                               TGSI_TEX_T_1D_ARRAY,
                                               TGSI_TEX_T_2D_ARRAY,
                                               TGSI_TEX_T_SHADOW1D,
                                               TGSI_TEX_T_SHADOW2D,
                                               TGSI_TEX_T_SHADOWRECT,
                                               TGSI_TEX_T_SHADOW1D_ARRAY,
                                               TGSI_TEX_T_SHADOW2D_ARRAY,
                                               TGSI_TEX_T_2D_MSAA,
                                               TGSI_TEX_T_2D_ARRAY_MSAA};
   static const enum tgsi_return_type rets[] = {TGSI_RET_FLOAT, TGSI_RET_UNORM, TGSI_RET_SNORM,
                                                TGSI_RET_UINT, TGSI_RET_SINT};
   struct rng r;
   rng_seed(&r, 19);
   struct env *e = env_new(TGSI_STAGE_FRAG, 4);
   static uint32_t coord[4][N], off[3][N], lod[N], ref[N], out[4][N + 1], near[N];
   static float rel[N];
   static const float rels[] = {0.0f, 0x1p-12f, 0x1p-14f, 0x1p-16f};
   unsigned runs = 0, bad = 0, hits = 0, asked = 0;
   for (unsigned ti = 0; ti < ARRAY_SIZE(targets); ti++)
      for (unsigned ri = 0; ri < ARRAY_SIZE(rets); ri++)
         for (unsigned mode = 0; mode < 4; mode++) {
            enum tgsi_texture tg = targets[ti];
            uint32_t w = 1 + rng_next(&r) % 40, h = 1 + rng_next(&r) % 40;
            uint32_t d = 1 + rng_next(&r) % 9;
            if (tg == TGSI_TEX_T_1D || tg == TGSI_TEX_T_SHADOW1D || tg == TGSI_TEX_T_1D_ARRAY ||
                tg == TGSI_TEX_T_SHADOW1D_ARRAY)
               h = 1;
            struct env_texture t = tex(tg, rets[ri], w, h, d, 1, rng_next(&r));
            t.levels = env_tex_levels(w, h, d, tg);
            CHECK(env_set_texture(e, 3, &t));
            for (unsigned i = 0; i < N; i++) {
               for (unsigned c = 0; c < 4; c++)
                  coord[c][i] = odd_float(&r);
               for (unsigned c = 0; c < 3; c++)
                  off[c][i] = odd_offset(&r);
               lod[i] = odd_float(&r);
               ref[i] = odd_float(&r);
               rel[i] = rels[rng_next(&r) % ARRAY_SIZE(rels)];
               if (i % 3 == 1) { /* near a texel, layer or level step */
                  for (unsigned c = 0; c < 4; c++)
                     coord[c][i] = edge_float(&r, c == 0 ? w : c == 1 ? h : d);
                  off[0][i] = off[1][i] = off[2][i] = 0;
                  lod[i] = fui(uif(edge_float(&r, 1)) + 0.5f);
               }
               if (i % 3 == 2) { /* a reference near the texel */
                  struct env_sample_req one = {.target = tg, .lod = mode & 1 ? uif(lod[i]) : 0};
                  for (unsigned c = 0; c < 4; c++)
                     one.coord[c] = uif(coord[c][i]);
                  for (unsigned c = 0; c < 3; c++)
                     one.offset[c] = (int32_t)off[c][i];
                  uint32_t tx[4];
                  CHECK(env_sample(e, 3, &one, tx));
                  ref[i] = fui(uif(tx[0]) + (float)((int)(rng_next(&r) % 5) - 2) * 0x1p-17f);
               }
            }
            struct env_sample_lanes q = {.target = tg};
            for (unsigned c = 0; c < 4; c++)
               q.coord[c] = coord[c];
            for (unsigned c = 0; c < 3; c++)
               q.off[c] = off[c];
            q.lod = mode & 1 ? lod : NULL;
            q.ref = mode & 2 ? ref : NULL;
            uint32_t *o[4] = {out[0], out[1], out[2], out[3]};
            out[0][N] = 0x5eed;
            q.rel = runs % 2 ? rel : NULL;
            q.near = near;
            CHECK(env_sample_lanes(e, 3, &q, N, o));
            CHECK_EQ_U(out[0][N], 0x5eed);
            for (unsigned i = 0; i < N; i++) {
               struct env_sample_req one = {.target = tg};
               unsigned nc = tgsi_texture_coord_count(tg);
               for (unsigned c = 0; c < nc && c < 4; c++)
                  one.coord[c] = uif(coord[c][i]);
               for (unsigned c = 0; c < 3; c++)
                  one.offset[c] = (int32_t)off[c][i];
               one.lod = mode & 1 ? uif(lod[i]) : 0.0f;
               one.compare = (mode & 2) != 0;
               one.ref = uif(ref[i]);
               uint32_t want[4];
               CHECK(env_sample(e, 3, &one, want));
               for (unsigned c = 0; c < 4; c++)
                  bad += out[c][i] != want[c];
               if (!q.rel)
                  continue;
               bool nr;
               CHECK(env_sample_near(e, 3, &one, want, rel[i], &nr));
               bad += near[i] != nr;
               hits += nr;
               asked++;
            }
            runs++;
         }
   CHECK_EQ_U(bad, 0);
   CHECK_EQ_U(runs, ARRAY_SIZE(targets) * ARRAY_SIZE(rets) * 4);
   CHECK(hits > asked / 20 && hits < asked * 9 / 10); /* both answers, often */
   /* declined: another target, a cube, a buffer, an unbound unit */
   struct env_sample_lanes q = {.target = TGSI_TEX_T_2D};
   for (unsigned c = 0; c < 4; c++)
      q.coord[c] = coord[c];
   for (unsigned c = 0; c < 3; c++)
      q.off[c] = off[c];
   uint32_t *o[4] = {out[0], out[1], out[2], out[3]};
   struct env_texture t = tex(TGSI_TEX_T_2D_ARRAY, TGSI_RET_FLOAT, 4, 4, 2, 1, 5);
   CHECK(env_set_texture(e, 3, &t));
   CHECK(!env_sample_lanes(e, 3, &q, N, o));
   t = tex(TGSI_TEX_T_CUBE, TGSI_RET_FLOAT, 4, 4, 1, 1, 5);
   CHECK(env_set_texture(e, 3, &t));
   q.target = TGSI_TEX_T_CUBE;
   CHECK(!env_sample_lanes(e, 3, &q, N, o));
   q.target = TGSI_TEX_T_2D;
   CHECK(!env_sample_lanes(e, 5, &q, N, o));
   CHECK(!env_sample_lanes(e, ENV_MAX_TEXTURES, &q, N, o));
   uint64_t events = 0;
   for (unsigned k = 0; k < ENV_EV_COUNT; k++)
      events += e->events[k];
   CHECK_EQ_U(events, 0);
   env_free(e);
}

int
main(void)
{
   test_texel_pinned();
   test_sample_rules();
   test_sample_gradients();
   test_sample_shadow_cube_gather();
   test_sample_lanes();
   test_fetch_and_query();
   test_memory();
   test_clone();
   return test_done();
}
