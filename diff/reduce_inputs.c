/*
 * Input reduction, after the shader: the fewest lanes that still fail,
 * then the simplest values in them, with the predicate deciding as for
 * the shader (diff_reducer_test: cached, within the budgets).
 *
 * Lanes go in units that must stay together: a whole workgroup for
 * compute (the interpreter runs whole workgroups only), else single lanes,
 * fragment lanes first as whole 2x2 quads (derivatives read the quad).
 * Dropping lanes copies the kept lanes' inputs and system values in order,
 * so lane k of the result is the k-th kept lane. Values: per-lane inputs
 * and constant words are first zeroed in chunks (most are irrelevant),
 * then each word tries simpler values of lower rank (diff_value_rank).
 * System values stay: they describe the lane, not the data. Buffers and
 * images are tried all-zero as a whole, textures unbound, constant
 * buffers cut after their last non-zero slot.
 */
#include "diff/diff.h"

#include <math.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ */
/* Values                                                               */

#define F_(x) 0x##x##u /* float bits */
static const struct {
   uint32_t bits;
   uint8_t kinds;
} simple_values[] = {
    {0, DIFF_VK_FLOAT | DIFF_VK_INT | DIFF_VK_UINT},
    {F_(3f800000), DIFF_VK_FLOAT}, /* 1.0 */
    {1, DIFF_VK_INT | DIFF_VK_UINT},
    {F_(bf800000), DIFF_VK_FLOAT}, /* -1.0 */
    {0xffffffffu, DIFF_VK_INT},    /* -1 */
    {F_(3f000000), DIFF_VK_FLOAT}, /* 0.5 */
    {F_(40000000), DIFF_VK_FLOAT}, /* 2.0 */
    {2, DIFF_VK_INT | DIFF_VK_UINT},
    {F_(40400000), DIFF_VK_FLOAT}, /* 3.0 */
    {3, DIFF_VK_INT | DIFF_VK_UINT},
    {F_(40800000), DIFF_VK_FLOAT}, /* 4.0 */
    {4, DIFF_VK_INT | DIFF_VK_UINT},
};
#undef F_
#define NSIMPLE    ((unsigned)ARRAY_SIZE(simple_values))
#define RANK_OTHER 96
#define MAX_CANDS  24

static unsigned
bit_length(uint32_t v)
{
   unsigned n = 0;
   while (v)
      n++, v >>= 1;
   return n;
}

/* Significant mantissa bits of a normal float (0 for powers of two). */
static unsigned
mantissa_bits(uint32_t bits)
{
   uint32_t m = bits & 0x7fffffu;
   if (!m)
      return 0;
   unsigned tz = 0;
   while (!(m & 1))
      m >>= 1, tz++;
   return 23 - tz;
}

static bool
is_normal(uint32_t bits)
{
   uint32_t e = (bits >> 23) & 0xff;
   return e != 0 && e != 0xff;
}

unsigned
diff_value_rank(uint32_t bits)
{
   for (unsigned i = 0; i < NSIMPLE; i++)
      if (simple_values[i].bits == bits)
         return i;
   int32_t v = (int32_t)bits;
   if (v > -65536 && v < 65536)
      return NSIMPLE + 2 * bit_length(v < 0 ? (uint32_t)-v : (uint32_t)v) + (v < 0);
   if (is_normal(bits)) {
      int e = (int)((bits >> 23) & 0xff) - 127;
      return NSIMPLE + 2 * mantissa_bits(bits) + (e > 24 || e < -24) + (bits >> 31);
   }
   return RANK_OTHER;
}

/* Where a word may be a float, no candidate is NaN or infinity: a
 * simpler value must not bring in a special one (int -1 is a NaN). */
static void
push_cand(uint32_t *out, unsigned *n, uint32_t v, unsigned rank, unsigned kinds)
{
   if (*n >= MAX_CANDS || diff_value_rank(v) >= rank ||
       ((kinds & DIFF_VK_FLOAT) && (v & 0x7f800000u) == 0x7f800000u))
      return;
   for (unsigned i = 0; i < *n; i++)
      if (out[i] == v)
         return;
   out[(*n)++] = v;
}

/* Floats with fewer significant bits: an integer, then k mantissa bits. */
static void
fewer_bits(uint32_t bits, unsigned rank, uint32_t *out, unsigned *n)
{
   if (!is_normal(bits))
      return;
   float x = uif(bits);
   if (fabsf(x) >= 1.0f && fabsf(x) < 8388608.0f && x != truncf(x))
      push_cand(out, n, fui(roundf(x)), rank, DIFF_VK_FLOAT);
   static const unsigned keep[] = {0, 1, 2, 3, 4, 6, 8, 12, 16};
   unsigned mb = mantissa_bits(bits);
   for (unsigned i = 0; i < ARRAY_SIZE(keep) && keep[i] < mb; i++) {
      uint32_t drop = 23 - keep[i];
      uint32_t r = (bits + (1u << (drop - 1))) & ~((1u << drop) - 1);
      if (is_normal(r))
         push_cand(out, n, r, rank, DIFF_VK_FLOAT);
   }
}

unsigned
diff_value_candidates(uint32_t bits, unsigned kinds, uint32_t out[MAX_CANDS])
{
   unsigned n = 0, rank = diff_value_rank(bits);
   for (unsigned i = 0; i < NSIMPLE; i++)
      if (simple_values[i].kinds & kinds)
         push_cand(out, &n, simple_values[i].bits, rank, kinds);
   if (kinds & DIFF_VK_FLOAT)
      fewer_bits(bits, rank, out, &n);
   if ((kinds & (DIFF_VK_INT | DIFF_VK_UINT)) && bit_length(bits) > 3) {
      /* The top bit, then the top two bits. */
      unsigned b = bit_length(bits);
      push_cand(out, &n, 1u << (b - 1), rank, kinds);
      push_cand(out, &n, bits & (3u << (b - 2)), rank, kinds);
   }
   return n;
}

/* ------------------------------------------------------------------ */
/* Environments                                                         */

static uint64_t
hash_words(const void *p, size_t bytes, uint64_t h)
{
   return p ? hash64(p, bytes, h) : hash64("-", 1, h);
}

uint64_t
diff_env_hash(const struct env *e)
{
   uint32_t head[12] = {e->stage,         e->nlanes,        e->nin,           e->in_vertices,
                        e->block_size[0], e->block_size[1], e->block_size[2], e->grid_size[0],
                        e->grid_size[1],  e->grid_size[2],  e->shared_size,   e->out_vertices};
   uint64_t h = hash64(head, sizeof(head), 0x7265647563650000ull);
   h = hash_words(e->in, (size_t)e->in_vertices * e->nin * 4 * e->nlanes * 4, h);
   for (unsigned s = 0; s < TGSI_SEM_COUNT; s++)
      if (e->sv[s])
         h = hash64(e->sv[s], (size_t)e->nlanes * 16, h ^ s);
   for (unsigned b = 0; b < ENV_MAX_CBUFS; b++)
      if (e->cbuf[b])
         h = hash64(e->cbuf[b], (size_t)e->ndraws * e->cbuf_slots[b] * 16, h ^ (0x100 + b));
   if (e->lane_draw)
      h = hash64(e->lane_draw, (size_t)e->nlanes * sizeof(*e->lane_draw), h ^ 0x500);
   for (unsigned t = 0; t < ENV_MAX_TEXTURES; t++)
      if (e->tex[t].bound)
         h = hash64(&e->tex[t], sizeof(e->tex[t]), h ^ (0x200 + t));
   for (unsigned i = 0; i < ENV_MAX_BUFFERS; i++)
      if (e->buf[i].data) {
         h = hash64(e->buf[i].data, e->buf[i].size, h ^ (0x300 + i));
         h = hash64(e->buf[i].undef, e->buf[i].size, h);
      }
   for (unsigned i = 0; i < ENV_MAX_IMAGES; i++)
      if (e->img[i].bound) {
         uint32_t d[4] = {e->img[i].target, e->img[i].width, e->img[i].height, e->img[i].depth};
         h = hash64(d, sizeof(d), h ^ (0x400 + i));
         h = hash_words(e->img[i].mem.data, e->img[i].mem.size, h);
         h = hash_words(e->img[i].mem.undef, e->img[i].mem.size, h);
      }
   return h;
}

static void
mem_copy(struct env_mem *d, const struct env_mem *s)
{
   d->size = s->size;
   d->data = s->data ? xmalloc(s->size + 1) : NULL;
   d->undef = s->undef ? xmalloc(s->size + 1) : NULL;
   if (s->data)
      memcpy(d->data, s->data, s->size);
   if (s->undef)
      memcpy(d->undef, s->undef, s->size);
}

struct env *
diff_env_select_lanes(const struct env *e, const uint32_t *lanes, uint32_t n)
{
   struct env *c = env_new(e->stage, n);
   if (!c || !env_alloc_inputs(c, e->nin, e->in_vertices)) {
      env_free(c);
      return NULL;
   }
   c->seed = e->seed;
   memcpy(c->block_size, e->block_size, sizeof(c->block_size));
   memcpy(c->grid_size, e->grid_size, sizeof(c->grid_size));
   uint64_t wg = (uint64_t)e->block_size[0] * e->block_size[1] * e->block_size[2];
   if (n != e->nlanes && wg && n % wg == 0)
      c->grid_size[0] = (uint32_t)(n / wg), c->grid_size[1] = c->grid_size[2] = 1;
   c->shared_size = e->shared_size;
   c->out_vertices = e->out_vertices;
   size_t regs = (size_t)e->in_vertices * e->nin * 4;
   for (size_t k = 0; k < regs; k++)
      for (uint32_t l = 0; l < n; l++)
         c->in[k * n + l] = e->in[k * e->nlanes + (lanes ? lanes[l] : l)];
   for (unsigned s = 0; s < TGSI_SEM_COUNT; s++) {
      if (!e->sv[s])
         continue;
      uint32_t *v = env_sv(c, (enum tgsi_semantic)s);
      for (unsigned ch = 0; ch < 4; ch++)
         for (uint32_t l = 0; l < n; l++)
            v[ch * n + l] = e->sv[s][ch * e->nlanes + (lanes ? lanes[l] : l)];
   }
   /* every draw is kept; the kept lanes keep theirs */
   uint16_t *ld = e->lane_draw ? xmalloc((size_t)n * sizeof(*ld)) : NULL;
   for (uint32_t l = 0; ld && l < n; l++)
      ld[l] = e->lane_draw[lanes ? lanes[l] : l];
   env_set_draws(c, e->ndraws, ld);
   free(ld);
   for (unsigned b = 0; b < ENV_MAX_CBUFS; b++)
      if (e->cbuf[b] && env_set_cbuf(c, b, e->cbuf_slots[b]))
         memcpy(c->cbuf[b], e->cbuf[b], (size_t)e->ndraws * e->cbuf_slots[b] * 16);
   memcpy(c->tex, e->tex, sizeof(c->tex));
   for (unsigned i = 0; i < ENV_MAX_BUFFERS; i++)
      mem_copy(&c->buf[i], &e->buf[i]);
   for (unsigned i = 0; i < ENV_MAX_IMAGES; i++) {
      c->img[i] = e->img[i];
      mem_copy(&c->img[i].mem, &e->img[i].mem);
   }
   return c;
}

/* ------------------------------------------------------------------ */
/* Trying inputs                                                        */

struct ictx {
   struct diff_reducer *r;
   char *text; /* the best shader, printed once: it does not change here */
};

/* Tries cand (consumed) with the best shader; on KEEP it becomes the best. */
static bool
try_env(struct ictx *c, struct env *cand)
{
   struct diff_reducer *r = c->r;
   if (!cand || r->stop) {
      env_free(cand);
      return false;
   }
   if (diff_reducer_test(r, r->best, c->text, cand) != DIFF_REDUCE_KEEP) {
      env_free(cand);
      return false;
   }
   env_free(r->inputs);
   r->inputs = cand;
   r->inputs_hash = diff_env_hash(cand);
   diff_reducer_report(r);
   return true;
}

/* ------------------------------------------------------------------ */
/* Lanes                                                                */

/* Keeps the lanes outside units [lo, hi) of `unit` lanes each. */
static bool
try_drop_units(struct ictx *c, uint32_t unit, uint32_t lo, uint32_t hi)
{
   const struct env *e = c->r->inputs;
   uint32_t *lanes = xmalloc((size_t)e->nlanes * sizeof(*lanes)), n = 0;
   for (uint32_t l = 0; l < e->nlanes; l++)
      if (l / unit < lo || l / unit >= hi)
         lanes[n++] = l;
   bool ok = n && try_env(c, diff_env_select_lanes(e, lanes, n));
   free(lanes);
   return ok;
}

/* Keeps only unit u. */
static bool
try_keep_unit(struct ictx *c, uint32_t unit, uint32_t u)
{
   const struct env *e = c->r->inputs;
   uint32_t lo = u * unit, hi = MIN2(lo + unit, e->nlanes);
   if (lo >= e->nlanes || hi - lo == e->nlanes)
      return false;
   uint32_t *lanes = xmalloc((size_t)(hi - lo) * sizeof(*lanes));
   for (uint32_t l = lo; l < hi; l++)
      lanes[l - lo] = l;
   bool ok = try_env(c, diff_env_select_lanes(e, lanes, hi - lo));
   free(lanes);
   return ok;
}

/* ddmin over units: chunks of half the units, a quarter, ... one. */
static bool
ddmin_units(struct ictx *c, uint32_t unit)
{
   struct diff_reducer *r = c->r;
   bool any = false;
   uint32_t nunits = (r->inputs->nlanes + unit - 1) / unit;
   uint32_t chunk = MAX2(nunits / 2, 1u);
   for (;;) {
      uint32_t i = nunits;
      while (i > 0 && !r->stop) {
         uint32_t lo = i > chunk ? i - chunk : 0;
         if (lo == 0 && i >= nunits) { /* keep at least one unit */
            i = lo;
            continue;
         }
         if (try_drop_units(c, unit, lo, i)) {
            any = true;
            nunits = (r->inputs->nlanes + unit - 1) / unit;
            i = MIN2(lo, nunits);
         } else {
            i = lo;
         }
      }
      if (chunk == 1 || r->stop)
         break;
      chunk /= 2;
   }
   return any;
}

/* Units of the stage, largest first (0 ends the list). */
static void
lane_units(const struct env *e, uint32_t units[3])
{
   units[1] = units[2] = 0;
   if (e->stage == TGSI_STAGE_COMP) {
      units[0] = e->block_size[0] * e->block_size[1] * e->block_size[2];
   } else if (e->stage == TGSI_STAGE_FRAG) {
      units[0] = 4;
      units[1] = 1;
   } else {
      units[0] = 1;
   }
   if (!units[0])
      units[0] = 1;
}

static bool
reduce_lanes(struct ictx *c)
{
   struct diff_reducer *r = c->r;
   const struct diff_reduce_opts *o = r->o;
   uint32_t units[3];
   bool any = false;
   r->pass = "lanes";
   lane_units(r->inputs, units);
   for (unsigned k = 0; units[k] && !r->stop; k++) {
      /* A lane known to fail, alone in its unit, saves the search. */
      bool done = false;
      for (unsigned h = 0; h < o->nfail_lanes && !done && r->inputs->nlanes == r->st.lanes_before;
           h++)
         done = try_keep_unit(c, units[k], o->fail_lanes[h] / units[k]);
      any |= done;
      any |= ddmin_units(c, units[k]);
   }
   return any;
}

/* ------------------------------------------------------------------ */
/* Values                                                               */

/* The words values may change in: per-lane inputs, then constants. */
struct wordref {
   uint8_t cbuf; /* 0: in[], else constant buffer cbuf - 1 */
   uint32_t index;
};

static uint32_t *
word_at(struct env *e, struct wordref w)
{
   return w.cbuf ? &e->cbuf[w.cbuf - 1][w.index] : &e->in[w.index];
}

static struct wordref *
list_words(const struct env *e, size_t *n)
{
   size_t nin = (size_t)e->in_vertices * e->nin * 4 * e->nlanes, cap = 0;
   struct wordref *v = NULL;
   *n = 0;
   for (size_t i = 0; i < nin; i++)
      VEC_PUSH(v, *n, cap, ((struct wordref){0, (uint32_t)i}));
   for (unsigned b = 0; b < ENV_MAX_CBUFS; b++)
      for (uint32_t i = 0; e->cbuf[b] && i < e->ndraws * e->cbuf_slots[b] * 4; i++)
         VEC_PUSH(v, *n, cap, ((struct wordref){(uint8_t)(b + 1), i}));
   return v;
}

/* Sets words [lo, hi) that are not 0 yet to 0; false if none was. */
static bool
try_zero_words(struct ictx *c, const struct wordref *w, size_t lo, size_t hi)
{
   struct env *e = c->r->inputs;
   size_t nonzero = 0;
   for (size_t i = lo; i < hi; i++)
      nonzero += *word_at(e, w[i]) != 0;
   if (!nonzero)
      return false;
   struct env *cand = diff_env_select_lanes(e, NULL, e->nlanes);
   for (size_t i = lo; i < hi; i++)
      *word_at(cand, w[i]) = 0;
   return try_env(c, cand);
}

/* Zeroes chunks of half the words, a quarter, ... down to pairs. */
static bool
zero_chunks(struct ictx *c, const struct wordref *w, size_t n)
{
   bool any = false;
   for (size_t chunk = MAX2(n / 2, (size_t)1); chunk >= 2 && !c->r->stop; chunk /= 2)
      for (size_t lo = 0; lo < n && !c->r->stop; lo += chunk)
         any |= try_zero_words(c, w, lo, MIN2(lo + chunk, n));
   return any;
}

static bool
simplify_word(struct ictx *c, struct wordref w)
{
   uint32_t cand[MAX_CANDS];
   unsigned n = diff_value_candidates(*word_at(c->r->inputs, w),
                                      DIFF_VK_FLOAT | DIFF_VK_INT | DIFF_VK_UINT, cand);
   for (unsigned k = 0; k < n && !c->r->stop; k++) {
      struct env *e = diff_env_select_lanes(c->r->inputs, NULL, c->r->inputs->nlanes);
      *word_at(e, w) = cand[k];
      if (try_env(c, e))
         return true;
   }
   return false;
}

/* Textures, each tried unbound (the reduced shader may not sample it). */
static bool
unbind_textures(struct ictx *c)
{
   bool any = false;
   for (unsigned t = 0; t < ENV_MAX_TEXTURES && !c->r->stop; t++) {
      if (!c->r->inputs->tex[t].bound)
         continue;
      struct env *cand = diff_env_select_lanes(c->r->inputs, NULL, c->r->inputs->nlanes);
      memset(&cand->tex[t], 0, sizeof(cand->tex[t]));
      any |= try_env(c, cand);
   }
   return any;
}

/* Buffers and images, each tried all zero and defined. */
static bool
zero_memories(struct ictx *c)
{
   bool any = false;
   for (unsigned i = 0; i < ENV_MAX_BUFFERS + ENV_MAX_IMAGES && !c->r->stop; i++) {
      const struct env *e = c->r->inputs;
      const struct env_mem *m = i < ENV_MAX_BUFFERS ? &e->buf[i] : &e->img[i - ENV_MAX_BUFFERS].mem;
      bool zero = true;
      for (uint32_t k = 0; m->data && k < m->size && zero; k++)
         zero = !m->data[k] && !m->undef[k];
      if (zero)
         continue;
      struct env *cand = diff_env_select_lanes(e, NULL, e->nlanes);
      struct env_mem *cm =
          i < ENV_MAX_BUFFERS ? &cand->buf[i] : &cand->img[i - ENV_MAX_BUFFERS].mem;
      memset(cm->data, 0, cm->size);
      memset(cm->undef, 0, cm->size);
      any |= try_env(c, cand);
   }
   return any;
}

/* Constant buffers shrink to their last non-zero slot (reads past the
 * end give 0, as the zeroed slots did, but count as out of bounds, so the
 * predicate decides). */
static bool
trim_constants(struct ictx *c)
{
   bool any = false;
   for (unsigned b = 0; b < ENV_MAX_CBUFS && !c->r->stop; b++) {
      const struct env *e = c->r->inputs;
      uint32_t n = 0, slots = e->cbuf_slots[b];
      /* the last non-zero slot of any draw */
      for (uint32_t d = 0; d < e->ndraws && e->cbuf[b]; d++)
         for (uint32_t k = 4 * slots; k > 4 * n; k--)
            if (env_cbuf(e, b, d)[k - 1])
               n = (k + 3) / 4;
      if (!e->cbuf[b] || n == slots)
         continue;
      struct env *cand = diff_env_select_lanes(e, NULL, e->nlanes);
      env_set_cbuf(cand, b, n);
      for (uint32_t d = 0; d < e->ndraws && n; d++)
         memcpy(env_cbuf(cand, b, d), env_cbuf(e, b, d), (size_t)n * 16);
      any |= try_env(c, cand);
   }
   return any;
}

static bool
reduce_values(struct ictx *c)
{
   c->r->pass = "values";
   size_t n;
   struct wordref *w = list_words(c->r->inputs, &n);
   bool any = zero_chunks(c, w, n);
   for (size_t i = 0; i < n && !c->r->stop; i++)
      any |= simplify_word(c, w[i]);
   free(w);
   c->r->pass = "memory";
   any |= zero_memories(c);
   any |= unbind_textures(c);
   any |= trim_constants(c);
   return any;
}

bool
diff_reduce_failing_unit(struct diff_reducer *r)
{
   struct ictx c = {r, tgsi_print(r->best)};
   uint32_t units[3];
   lane_units(r->inputs, units);
   r->pass = "lanes";
   bool done = false;
   for (unsigned h = 0; h < r->o->nfail_lanes && !done; h++)
      done = try_keep_unit(&c, units[0], r->o->fail_lanes[h] / units[0]);
   if (!r->o->nfail_lanes) /* a failure of no lane in particular (a compile error) */
      done = try_keep_unit(&c, units[0], 0);
   free(c.text);
   return done;
}

void
diff_reduce_inputs(struct diff_reducer *r)
{
   struct ictx c = {r, tgsi_print(r->best)};
   reduce_lanes(&c);
   /* A second sweep: a simpler word may free another. */
   for (unsigned round = 0; round < 4 && !r->stop && reduce_values(&c); round++)
      ;
   free(c.text);
}
