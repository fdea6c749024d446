/*
 * The golden interpreter's opcodes that reach outside the lane: textures
 * (through env_sample/env_fetch, the one sampler both runners share),
 * buffers, images and shared memory, derivatives over 2x2 quads, subgroup
 * operations, and geometry-shader output.
 *
 * Resource indices. An indirectly indexed sampler, view, buffer or image
 * uses, for each quad, the index of the quad's first active lane (as
 * tgsi_exec does); lanes whose own index differs get an undefined result.
 *
 * Memory order. Lanes of a batch run in lockstep, so memory accesses
 * happen in instruction order, lane order within an instruction. Real
 * hardware only orders accesses of one workgroup across a BARRIER, so each
 * 32-bit word remembers its last writer (lane, barrier epoch): a load of a
 * word written by another lane that is not ordered before it (another
 * workgroup, or the same workgroup without a barrier in between) is
 * undefined; so is a store over such a word, and an atomic's returned
 * value; the word stays defined after concurrent atomics only if they all
 * were the same commutative operation (ADD, AND, OR, XOR, MIN, MAX).
 * An atomic's returned value is also undefined when another lane of the
 * same instruction hits the same word (the first lane's too: another order
 * would give it another value). Outside compute every lane is its own
 * workgroup. Not detected, because both runners process lanes in
 * increasing order: write-after-read races (a load never observes a later
 * store), and a first atomic whose word is hit again by a later
 * instruction or batch before the next BARRIER.
 *
 * Loads flag each word on its own. RESQ on a buffer or shared memory
 * gives the size in .x (tgsi.rst) and undefined values in .yzw.
 *
 * Subgroups are env.subgroup_size (32, or 64 for a target with 64-lane
 * waves) consecutive lanes of a workgroup (of the dispatch outside
 * compute); BALLOT's mask has one bit per lane of it, the high word in
 * .y (0 for 32 lanes). Their active lanes are the lanes of the execution
 * mask. Derivatives are defined only in fragment shaders with all four
 * lanes of the quad active.
 *
 * Geometry shaders: each lane is one invocation. EMIT appends the lane's
 * OUT registers (vertex 0) to its vertex list with the stream (src.x) and
 * the number of ENDPRIMs so far, and leaves the outputs undefined, as
 * GLSL's EmitVertex does. Vertices beyond GS_MAX_OUTPUT_VERTICES are
 * dropped and counted (GS_OVERFLOW).
 */
#include "compiler/tgsi/tgsi.h"
#include "compiler/tgsi/tgsi_interp_lane.h"
#include "emu/emu.h"

#include <assert.h>

/* GCC's -O2 vectorizes only loops of known trip count; the per-lane loops
 * here are the interpreter's hot path, so ask for the dynamic cost model. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#endif

#include <math.h>
#include <stdlib.h>

#define FOR for (unsigned i = 0; i < n; i++)

enum {
   MT_NONE,
   MT_STORE,
   MT_ATOMIC, /* + enum env_atomic_op */
};

/* A word's racing stores: none, lanes of one workgroup in the epoch of
 * its last write (a barrier orders them), lanes of two (nothing does).
 * In this order: a race only grows until a barrier. */
enum mt_race { MT_RACE_NONE, MT_RACE_EPOCH, MT_RACE_ALWAYS };

struct mt_words {
   uint32_t *owner; /* lane + 1 of the last writer, 0 = none */
   uint64_t *epoch; /* barrier epoch of that write */
   uint8_t *kind;
   /* Stores that raced (enum mt_race): a writer unordered with the last
    * one may still land after any later store, so those race too. */
   uint8_t *race;
   uint32_t nwords;
   /* mt_write has set an owner since mt_init. Until then owner and race
    * are unset and read as 0 (no writer, no race): the first mt_write
    * clears them, so a memory only read is not cleared at all. */
   bool written;
};

/* A word an atomic of the current instruction touched, and the lane. */
struct mt_touch {
   const struct mt_words *mt; /* NULL: empty slot */
   uint32_t w, lane;
};

struct tgsi_interp_memtrack {
   struct mt_words buf[ENV_MAX_BUFFERS];
   struct mt_words img[ENV_MAX_IMAGES];
   struct mt_words *shared;
   uint32_t nshared;
   struct mt_touch *touch; /* open addressing, touch_size a power of two */
   uint32_t touch_size;
   /* The operands a LOAD, STORE or atomic fetched so far (bit si * 4 + c
    * of have): its lanes run one by one, and fetching is per instruction
    * (once per lane made a LOAD quadratic in the lanes). */
   const uint32_t *opv[TGSI_MAX_SRC][4], *opf[TGSI_MAX_SRC][4];
   uint32_t have;
};

static void
mt_fini(struct mt_words *w)
{
   free(w->owner);
   free(w->epoch);
   free(w->kind);
   free(w->race);
}

static void
mt_init(struct mt_words *w, uint32_t bytes)
{
   uint32_t nw = bytes / 4;
   w->written = false; /* owner and race: cleared by the first mt_write */
   if (w->nwords == nw && w->owner)
      return;
   mt_fini(w);
   w->nwords = nw;
   w->owner = xmalloc((size_t)(nw + 1) * 4);
   w->race = xmalloc(nw + 1);
   /* Left unset too: a word's epoch and kind are read only once owner or
    * race says mt_write set them (its 14 bytes a word had been cleared
    * for every bound buffer of every run). */
   w->epoch = xmalloc((size_t)(nw + 1) * 8);
   w->kind = xmalloc(nw + 1);
}

static void shared_free(struct tgsi_interp_batch *b);

/* The run's tracking of every bound buffer and image, made when a memory
 * instruction first runs (mem_begin; a program without one makes none).
 * Not inline: inlined into mem_begin, it cost the compute shaders'
 * LOAD and STORE paths up to 0.2% more instructions. */
static __attribute__((noinline)) void
memtrack_make(struct tgsi_interp_batch *b)
{
   struct env *e = b->env;
   b->mt = xcalloc(1, sizeof(*b->mt));
   for (unsigned k = 0; k < ENV_MAX_BUFFERS; k++)
      if (e->buf[k].data)
         mt_init(&b->mt->buf[k], e->buf[k].size);
   for (unsigned k = 0; k < ENV_MAX_IMAGES; k++)
      if (e->img[k].bound)
         mt_init(&b->mt->img[k], e->img[k].mem.size);
}

/* tgsi_interp_fetch of channel c of source si of the current memory
 * instruction, fetched on first use only (mem_begin starts anew). */
static void
mem_fetch(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, unsigned si, unsigned c,
          const uint32_t **v, const uint32_t **f)
{
   struct tgsi_interp_memtrack *mt = b->mt;
   uint32_t bit = 1u << (si * 4 + c);
   if (!(mt->have & bit)) {
      tgsi_interp_fetch(b, ti, si, c, &mt->opv[si][c], &mt->opf[si][c]);
      mt->have |= bit;
   }
   *v = mt->opv[si][c];
   *f = mt->opf[si][c];
}

/* Every LOAD, STORE and atomic starts here: b->mt is set from then on. */
static void
mem_begin(struct tgsi_interp_batch *b)
{
   if (!b->mt)
      memtrack_make(b);
   b->mt->have = 0;
}

void
tgsi_interp_res_free(struct tgsi_interp_batch *b)
{
   struct tgsi_interp_memtrack *mt = b->mt;
   shared_free(b);
   b->mt = NULL;
   if (!mt)
      return;
   for (unsigned k = 0; k < ENV_MAX_BUFFERS; k++)
      mt_fini(&mt->buf[k]);
   for (unsigned k = 0; k < ENV_MAX_IMAGES; k++)
      mt_fini(&mt->img[k]);
   for (uint32_t k = 0; k < mt->nshared; k++)
      mt_fini(&mt->shared[k]);
   free(mt->shared);
   free(mt->touch);
   free(mt);
}

/* Per batch: fresh, undefined shared memory for each workgroup (the
 * buffers' and images' tracking is per run: memtrack_make). */
void
tgsi_interp_res_begin(struct tgsi_interp_batch *b)
{
   struct env *e = b->env;
   if (!b->p->uses_shared || !b->wg_lanes)
      return;
   if (!b->mt)
      memtrack_make(b);
   uint32_t nwg = (b->n + b->wg_lanes - 1) / b->wg_lanes;
   if (nwg > b->nshared) {
      b->shared = xrealloc(b->shared, nwg * sizeof(*b->shared));
      b->mt->shared = xrealloc(b->mt->shared, nwg * sizeof(*b->mt->shared));
      for (uint32_t k = b->nshared; k < nwg; k++) {
         memset(&b->shared[k], 0, sizeof(b->shared[k]));
         memset(&b->mt->shared[k], 0, sizeof(b->mt->shared[k]));
      }
      b->nshared = b->mt->nshared = nwg;
   }
   for (uint32_t k = 0; k < nwg; k++) {
      env_mem_init(&b->shared[k], e->shared_size & ~3u, false);
      mt_init(&b->mt->shared[k], e->shared_size & ~3u);
   }
}

void
tgsi_interp_res_end(struct tgsi_interp_batch *b)
{
   (void)b;
}

static void
shared_free(struct tgsi_interp_batch *b)
{
   for (uint32_t k = 0; k < b->nshared; k++)
      env_mem_fini(&b->shared[k]);
   free(b->shared);
   b->shared = NULL;
   b->nshared = 0;
}

/* ------------------------------------------------------------------ */
/* Resource indices and memory objects                                  */

/* Index of resource operand s for lane i: the quad's first active lane's
 * index; *bad when lane i's own index differs or is undefined. */
static int64_t
res_index(struct tgsi_interp_batch *b, const struct tgsi_interp_src *s, unsigned i, bool *bad)
{
   *bad = false;
   if (!s->indirect)
      return s->index;
   const uint32_t *av = b->val[s->addr_slot], *af = b->flg[s->addr_slot];
   unsigned q = i & ~3u, k = q;
   while (k < q + 3 && k < b->n - 1 && !b->exec[k])
      k++;
   *bad = av[i] != av[k] || (af[i] & ENV_F_UNDEF);
   return (int64_t)s->index + (int32_t)av[k];
}

static int64_t
dst_res_index(struct tgsi_interp_batch *b, const struct tgsi_interp_dst *d, unsigned i, bool *bad)
{
   struct tgsi_interp_src s = {
       .index = d->index, .indirect = d->indirect, .addr_slot = d->addr_slot};
   return res_index(b, &s, i, bad);
}

struct memref {
   struct env_mem *mem;
   struct mt_words *mt;
   enum env_event ev;
   bool image;
};

static bool
get_mem(struct tgsi_interp_batch *b, enum tgsi_file f, int64_t idx, unsigned lane, struct memref *r)
{
   struct env *e = b->env;
   memset(r, 0, sizeof(*r));
   if (f == TGSI_FILE_BUFFER && idx >= 0 && idx < ENV_MAX_BUFFERS) {
      r->mem = &e->buf[idx];
      r->mt = &b->mt->buf[idx];
      r->ev = ENV_EV_BUFFER_OOB;
   } else if (f == TGSI_FILE_IMAGE && idx >= 0 && idx < ENV_MAX_IMAGES) {
      r->mem = &e->img[idx].mem;
      r->mt = &b->mt->img[idx];
      r->ev = ENV_EV_IMAGE_OOB;
      r->image = true;
   } else if (f == TGSI_FILE_MEMORY && b->nshared) {
      uint32_t k = (b->base + lane) / b->wg_lanes - b->base / b->wg_lanes;
      r->mem = &b->shared[k];
      r->mt = &b->mt->shared[k];
      r->ev = ENV_EV_SHARED_OOB;
   } else {
      env_count(e, ENV_EV_UNBOUND, 1);
      return false;
   }
   if (!r->mem->data) {
      env_count(e, ENV_EV_UNBOUND, 1);
      return false;
   }
   return true;
}

/* Whether global lanes o and g are of one workgroup (outside compute every
 * lane is its own): o lies in g's workgroup's lanes, one division. */
static inline bool
same_group(const struct tgsi_interp_batch *b, uint32_t o, uint32_t g)
{
   if (!b->wg_lanes)
      return o == g;
   uint32_t first = g - g % b->wg_lanes;
   return o - first < b->wg_lanes; /* o below first wraps round: false */
}

/* How word w's last write is ordered with an access by lane i: not at all
 * (lanes of two workgroups), only by the next barrier (lanes of one, in the
 * same epoch), or already (the same lane, or a barrier since). */
static inline enum mt_race
mt_unordered(const struct tgsi_interp_batch *b, const struct mt_words *m, uint32_t w, unsigned i)
{
   if (!m->owner[w])
      return MT_RACE_NONE;
   uint32_t o = m->owner[w] - 1, g = b->base + i;
   if (o == g)
      return MT_RACE_NONE;
   if (!same_group(b, o, g))
      return MT_RACE_ALWAYS;
   return m->epoch[w] == *b->epoch ? MT_RACE_EPOCH : MT_RACE_NONE;
}

/* The race among word w's stores still open now (a barrier orders one
 * workgroup's). */
static inline enum mt_race
mt_open_race(const struct tgsi_interp_batch *b, const struct mt_words *m, uint32_t w)
{
   return m->race[w] == MT_RACE_EPOCH && m->epoch[w] != *b->epoch ? MT_RACE_NONE
                                                                  : (enum mt_race)m->race[w];
}

/* Whether an access by lane i to word w is unordered with a write of it. */
static inline bool
mt_concurrent(const struct tgsi_interp_batch *b, const struct mt_words *m, uint32_t w, unsigned i)
{
   return w < m->nwords && m->written && (mt_open_race(b, m, w) || mt_unordered(b, m, w, i));
}

static void
mt_write(const struct tgsi_interp_batch *b, struct mt_words *m, uint32_t w, unsigned i,
         uint8_t kind)
{
   if (w >= m->nwords)
      return;
   if (!m->written) {
      memset(m->owner, 0, (size_t)m->nwords * 4);
      memset(m->race, 0, m->nwords);
      m->written = true;
   }
   enum mt_race r = mt_open_race(b, m, w);
   if (kind == MT_STORE)
      r = MAX2(r, mt_unordered(b, m, w, i));
   m->race[w] = (uint8_t)r;
   m->owner[w] = b->base + i + 1;
   m->epoch[w] = *b->epoch;
   m->kind[w] = kind;
}

/* Byte offset of an image texel from integer coordinates, per lane. */
static bool
image_offset(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, unsigned csrc,
             int64_t unit, unsigned i, uint32_t *off, uint32_t *fl)
{
   int32_t c[3];
   /* only the channels the image's target reads: a 2-D image's address
    * does not depend on an unwritten .z */
   unsigned n = unit >= 0 && unit < ENV_MAX_IMAGES ? env_image_coords(b->env, (unsigned)unit) : 3;
   for (unsigned k = 0; k < 3; k++) {
      const uint32_t *v, *f;
      mem_fetch(b, ti, csrc, k, &v, &f);
      c[k] = (int32_t)v[i];
      if (k < n)
         *fl |= f[i];
   }
   return unit >= 0 && unit < ENV_MAX_IMAGES && env_image_offset(b->env, (unsigned)unit, c, off);
}

/* ------------------------------------------------------------------ */
/* LOAD, STORE, atomics, RESQ                                           */

static unsigned
last_bit(unsigned m)
{
   unsigned n = 0;
   while (m) {
      m >>= 1;
      n++;
   }
   return n;
}

/* Whether any byte of word w of m is undefined. */
static inline bool
word_undef(const struct env_mem *m, uint32_t w)
{
   if ((uint64_t)w * 4 + 4 > m->size)
      return true;
   uint32_t u; /* the word's four undefined bytes at once */
   memcpy(&u, m->undef + 4 * (size_t)w, 4);
   return u != 0;
}

static void
load_lane(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, unsigned i,
          unsigned nwords)
{
   const struct tgsi_interp_src *rs = &ti->src[0];
   bool bad;
   int64_t unit = res_index(b, rs, i, &bad);
   uint32_t fl = bad ? ENV_F_UNDEF : 0, w[4] = {0, 0, 0, 0}, off = 0;
   bool undef = true, wu[4] = {true, true, true, true};
   uint32_t wc[4] = {0, 0, 0, 0}; /* the stored values' classes */
   if (rs->file == TGSI_FILE_CONST) {
      const uint32_t *a, *af;
      mem_fetch(b, ti, 1, 0, &a, &af);
      fl |= af[i];
      off = a[i];
      if (!(off & 3) && unit >= 0 && unit < ENV_MAX_CBUFS &&
          (uint64_t)off + 4 * nwords <= (uint64_t)b->env->cbuf_slots[unit] * 16) {
         for (unsigned c = 0; c < nwords; c++) {
            w[c] = env_cbuf(b->env, (unsigned)unit, env_draw(b->env, b->base + i))[off / 4 + c];
            wu[c] = false;
         }
      } else {
         env_count(b->env, ENV_EV_CONST_OOB, 1);
      }
   } else {
      struct memref m;
      bool ok = get_mem(b, rs->file, unit, i, &m);
      if (ok && m.image) {
         ok = image_offset(b, ti, 1, unit, i, &off, &fl);
         nwords = 4;
      } else if (ok) {
         const uint32_t *a, *af;
         mem_fetch(b, ti, 1, 0, &a, &af);
         fl |= af[i];
         off = a[i];
      }
      /* Each word is undefined on its own: a channel of a wide load does
       * not depend on the other words. */
      if (ok && env_mem_load(b->env, m.mem, m.ev, off, nwords, w, &undef)) {
         for (unsigned c = 0; c < nwords; c++) {
            wu[c] = word_undef(m.mem, off / 4 + c) || mt_concurrent(b, m.mt, off / 4 + c, i);
            wc[c] = env_mem_class(m.mem, off / 4 + c);
         }
      }
   }
   /* The resource operand's swizzle applies to the loaded data. */
   for (unsigned c = 0; c < 4; c++) {
      b->res_v[c][i] = w[rs->swz[c] & 3];
      b->res_f[c][i] = fl | wc[rs->swz[c] & 3] | (wu[rs->swz[c] & 3] ? ENV_F_UNDEF : 0);
   }
}

/* LOAD from a directly named buffer or from shared memory: load_lane's
 * steps for every running lane with the memory found without get_mem and
 * an aligned load within it read in place (env_mem_load still reads, and
 * counts, the others; a lane of unbound memory goes through load_lane).
 * The same values, flags and events, in the same lane order. */
static bool
load_direct(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, unsigned nwords)
{
   const struct tgsi_interp_src *rs = &ti->src[0];
   bool shared = rs->file == TGSI_FILE_MEMORY;
   if (rs->indirect ||
       (shared ? !b->nshared
               : rs->file != TGSI_FILE_BUFFER || rs->index < 0 || rs->index >= ENV_MAX_BUFFERS))
      return false;
   struct env *e = b->env;
   enum env_event ev = shared ? ENV_EV_SHARED_OOB : ENV_EV_BUFFER_OOB;
   const uint32_t *a = NULL, *af = NULL;
   unsigned sw[4], chans[4], nch = 0; /* only the channels commit stores */
   for (unsigned c = 0; c < 4; c++) {
      sw[c] = rs->swz[c] & 3;
      if (ti->dst.mask & (1u << c))
         chans[nch++] = c;
   }
   uint32_t first = b->wg_lanes ? b->base / b->wg_lanes : 0;
   /* in locals: the result stores may alias b's fields, which GCC then
    * reloaded for every lane */
   const uint32_t *exec = b->exec;
   uint32_t n = b->n, base = b->base, wgl = b->wg_lanes;
   uint32_t *rv[4], *rf[4];
   for (unsigned c = 0; c < 4; c++) {
      rv[c] = b->res_v[c];
      rf[c] = b->res_f[c];
   }
   for (unsigned i = 0; i < n; i++) {
      if (!exec[i])
         continue;
      struct env_mem *m = &e->buf[shared ? 0 : rs->index];
      const struct mt_words *mt = &b->mt->buf[shared ? 0 : rs->index];
      if (shared) {
         uint32_t k = (base + i) / wgl - first;
         m = &b->shared[k];
         mt = &b->mt->shared[k];
      }
      if (!m->data) {
         load_lane(b, ti, i, nwords);
         continue;
      }
      if (!a)
         mem_fetch(b, ti, 1, 0, &a, &af);
      uint32_t fl = af[i], off = a[i], w[4] = {0, 0, 0, 0}, wc[4] = {0, 0, 0, 0};
      bool wu[4] = {true, true, true, true}, undef;
      bool in = !(off & 3) && off <= m->size && m->size - off >= 4 * nwords;
      if (in) { /* sizes known here: a memcpy of a variable size is a call */
         const uint8_t *src = m->data + off;
         switch (nwords) {
         case 1:
            memcpy(w, src, 4);
            break;
         case 2:
            memcpy(w, src, 8);
            break;
         case 3:
            memcpy(w, src, 12);
            break;
         case 4:
            memcpy(w, src, 16);
            break;
         default:
            break;
         }
      }
      if (in) {
         /* word_undef's and mt_concurrent's tests where they can be
          * decided at once: the words lie within the memory, and no race
          * can be open where mt_write has set no owner (nor race) */
         const uint32_t *cls = m->cls;
         bool written = mt->written;
         for (unsigned c = 0; c < nwords; c++) {
            uint32_t word = off / 4 + c, u;
            memcpy(&u, m->undef + 4 * (size_t)word, 4);
            wu[c] = u != 0 || (written && mt_concurrent(b, mt, word, i));
            wc[c] = cls ? cls[word] : 0;
         }
      } else if (env_mem_load(e, m, ev, off, nwords, w, &undef)) {
         for (unsigned c = 0; c < nwords; c++) {
            uint32_t word = off / 4 + c;
            wu[c] = word_undef(m, word) || mt_concurrent(b, mt, word, i);
            wc[c] = m->cls ? m->cls[word] : 0;
         }
      }
      for (unsigned k = 0; k < nch; k++) {
         unsigned c = chans[k];
         rv[c][i] = w[sw[c]];
         rf[c][i] = fl | wc[sw[c]] | (wu[sw[c]] ? ENV_F_UNDEF : 0);
      }
   }
   return true;
}

static int
exec_load(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti)
{
   unsigned used = 0;
   for (unsigned c = 0; c < 4; c++)
      if (ti->dst.mask & (1u << c))
         used |= 1u << (ti->src[0].swz[c] & 3);
   unsigned nwords = last_bit(used);
   mem_begin(b);
   if (load_direct(b, ti, nwords))
      return ti->dst.mask;
   for (unsigned i = 0; i < b->n; i++)
      if (b->exec[i])
         load_lane(b, ti, i, nwords);
   return ti->dst.mask;
}

static void
store_lane(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, unsigned i,
           const uint32_t *const val[4], const uint32_t *const valf[4])
{
   const struct tgsi_interp_dst *d = &ti->dst;
   bool bad;
   int64_t unit = dst_res_index(b, d, i, &bad);
   struct memref m;
   if (!get_mem(b, d->file, unit, i, &m))
      return;
   uint32_t off = 0, fl = 0;
   unsigned mask = d->mask;
   if (m.image) {
      if (!image_offset(b, ti, 0, unit, i, &off, &fl))
         return;
      mask = 0xf;
   } else {
      const uint32_t *a, *af;
      mem_fetch(b, ti, 0, 0, &a, &af);
      off = a[i];
      fl = af[i];
   }
   if (bad || (fl & ENV_F_UNDEF)) {
      /* Where this lane really stores is unknown. */
      env_mem_set_undef(m.mem);
      return;
   }
   /* env_mem_store reads only the channels of mask: the race test of
    * the others' words (a STORE of .x had made four) is not needed */
   uint32_t v[4] = {0, 0, 0, 0};
   bool u[4] = {true, true, true, true};
   for (unsigned c = 0; c < 4; c++) {
      if (!(mask & (1u << c)))
         continue;
      v[c] = val[c][i];
      u[c] = (valf[c][i] & ENV_F_UNDEF) || mt_concurrent(b, m.mt, off / 4 + c, i);
   }
   unsigned stored = env_mem_store(b->env, m.mem, m.ev, off, mask, v, u);
   for (unsigned c = 0; c < 4; c++)
      if (stored & (1u << c)) {
         mt_write(b, m.mt, off / 4 + c, i, MT_STORE);
         env_mem_set_class(m.mem, off / 4 + c, valf[c][i] & ~(uint32_t)ENV_F_UNDEF);
      }
}

static int
exec_store(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti)
{
   const uint32_t *val[4], *valf[4];
   for (unsigned c = 0; c < 4; c++)
      tgsi_interp_fetch(b, ti, 1, c, &val[c], &valf[c]);
   mem_begin(b);
   for (unsigned i = 0; i < b->n; i++)
      if (b->exec[i] && !b->demoted[i])
         store_lane(b, ti, i, val, valf);
   return 0;
}

static enum env_atomic_op
atomic_op(enum tgsi_opcode op)
{
   switch (op) {
   case TGSI_OP_ATOMUADD:
      return ENV_ATOM_ADD;
   case TGSI_OP_ATOMXCHG:
      return ENV_ATOM_XCHG;
   case TGSI_OP_ATOMCAS:
      return ENV_ATOM_CAS;
   case TGSI_OP_ATOMAND:
      return ENV_ATOM_AND;
   case TGSI_OP_ATOMOR:
      return ENV_ATOM_OR;
   case TGSI_OP_ATOMXOR:
      return ENV_ATOM_XOR;
   case TGSI_OP_ATOMUMIN:
      return ENV_ATOM_UMIN;
   case TGSI_OP_ATOMUMAX:
      return ENV_ATOM_UMAX;
   case TGSI_OP_ATOMIMIN:
      return ENV_ATOM_IMIN;
   case TGSI_OP_ATOMIMAX:
      return ENV_ATOM_IMAX;
   case TGSI_OP_ATOMFADD:
      return ENV_ATOM_FADD;
   case TGSI_OP_ATOMINC_WRAP:
      return ENV_ATOM_INC_WRAP;
   default:
      return ENV_ATOM_DEC_WRAP;
   }
}

static bool
atomic_commutes(enum env_atomic_op op)
{
   return op == ENV_ATOM_ADD || op == ENV_ATOM_AND || op == ENV_ATOM_OR || op == ENV_ATOM_XOR ||
          op == ENV_ATOM_UMIN || op == ENV_ATOM_UMAX || op == ENV_ATOM_IMIN || op == ENV_ATOM_IMAX;
}

/* One lane's atomic. Returns the word it touched (for the uniqueness of
 * returned values), or false if it touched none. */
static bool
atomic_lane(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, unsigned i,
            struct mt_touch *t)
{
   enum env_atomic_op op = atomic_op(ti->op);
   bool bad, touched = false;
   int64_t unit = res_index(b, &ti->src[0], i, &bad);
   uint32_t fl = bad ? ENV_F_UNDEF : 0, off = 0, old = 0;
   bool undef = true;
   struct memref m;
   const uint32_t *v, *vf, *c2 = NULL, *c2f = NULL;
   mem_fetch(b, ti, 2, 0, &v, &vf);
   if (op == ENV_ATOM_CAS)
      mem_fetch(b, ti, 3, 0, &c2, &c2f);
   bool ok = get_mem(b, ti->src[0].file, unit, i, &m);
   if (ok && m.image) {
      ok = image_offset(b, ti, 1, unit, i, &off, &fl);
   } else if (ok) {
      const uint32_t *a, *af;
      mem_fetch(b, ti, 1, 0, &a, &af);
      off = a[i];
      fl |= af[i];
   }
   if (ok && (bad || (fl & ENV_F_UNDEF))) {
      env_mem_set_undef(m.mem);
      ok = false;
   }
   uint32_t oc = 0; /* the classes of the word's old value */
   if (ok) {
      uint32_t w = off / 4;
      bool conc = mt_concurrent(b, m.mt, w, i);
      /* kind is set where conc can be (mt_write set owner or race) */
      bool same = conc && m.mt->kind[w] == MT_ATOMIC + op && atomic_commutes(op);
      uint32_t val = op == ENV_ATOM_CAS ? c2[i] : v[i], cmp = v[i];
      bool vu = ((op == ENV_ATOM_CAS ? c2f[i] | vf[i] : vf[i]) & ENV_F_UNDEF) || (conc && !same);
      oc = env_mem_class(m.mem, w);
      if (env_mem_atomic(b->env, m.mem, m.ev, off, op, val, cmp, vu, &old, &undef)) {
         undef |= conc;
         /* The new word takes the classes of every operand it depends on
          * (CAS: whether the compare matched too); a float sum also
          * depends on the order the lanes add in. */
         uint32_t cl =
             oc | ((op == ENV_ATOM_CAS ? c2f[i] | vf[i] : vf[i]) & ~(uint32_t)ENV_F_UNDEF);
         if (op == ENV_ATOM_FADD)
            cl |= ENV_F_FUSE;
         if (cl != oc)
            env_mem_set_class(m.mem, w, cl);
         mt_write(b, m.mt, w, i, (uint8_t)(MT_ATOMIC + op));
         *t = (struct mt_touch){m.mt, w, i};
         touched = true;
      }
   }
   /* The old value does not depend on the operand: only its address. */
   for (unsigned c = 0; c < 4; c++) {
      b->res_v[c][i] = old;
      b->res_f[c][i] = fl | oc | (undef ? ENV_F_UNDEF : 0);
   }
   return touched;
}

/* Records t; if another lane of this instruction touched the same word,
 * the values both got back depend on the order: undefined. */
static void
touch_word(struct tgsi_interp_batch *b, const struct mt_touch *t)
{
   struct tgsi_interp_memtrack *mt = b->mt;
   uint32_t mask = mt->touch_size - 1;
   uint32_t h = (t->w * 0x9e3779b1u ^ (uint32_t)(uintptr_t)t->mt * 0x85ebca6bu) & mask;
   while (mt->touch[h].mt && (mt->touch[h].mt != t->mt || mt->touch[h].w != t->w))
      h = (h + 1) & mask;
   if (!mt->touch[h].mt) {
      mt->touch[h] = *t;
      return;
   }
   for (unsigned c = 0; c < 4; c++) {
      b->res_f[c][mt->touch[h].lane] |= ENV_F_UNDEF;
      b->res_f[c][t->lane] |= ENV_F_UNDEF;
   }
}

static int
exec_atomic(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti)
{
   mem_begin(b);
   struct tgsi_interp_memtrack *mt = b->mt;
   uint32_t size = 16;
   while (size < 2 * b->n)
      size *= 2;
   if (size > mt->touch_size) {
      free(mt->touch);
      mt->touch = xcalloc(size, sizeof(*mt->touch));
      mt->touch_size = size;
   } else {
      memset(mt->touch, 0, (size_t)mt->touch_size * sizeof(*mt->touch));
   }
   for (unsigned i = 0; i < b->n; i++) {
      struct mt_touch t;
      if (b->exec[i] && !b->demoted[i] && atomic_lane(b, ti, i, &t))
         touch_word(b, &t);
   }
   return ti->dst.mask;
}

/* RESQ's answer for resource unit of file f: r[0..3], false if the
 * operand names nothing bound. */
static bool
resq_unit(const struct env *e, enum tgsi_file f, int64_t unit, uint32_t r[4])
{
   r[0] = r[1] = r[2] = r[3] = 0;
   if (f == TGSI_FILE_BUFFER && unit >= 0 && unit < ENV_MAX_BUFFERS) {
      r[0] = e->buf[unit].size;
   } else if (f == TGSI_FILE_MEMORY) {
      r[0] = e->shared_size;
   } else if (f == TGSI_FILE_IMAGE && unit >= 0 && unit < ENV_MAX_IMAGES && e->img[unit].bound) {
      const struct env_image *im = &e->img[unit];
      r[0] = im->width;
      unsigned coords = tgsi_texture_coord_count(im->target);
      if (coords >= 2)
         r[1] = coords == 2 && im->target == TGSI_TEX_T_1D_ARRAY ? im->depth : im->height;
      if (coords >= 3)
         r[2] = im->depth;
      if (im->target == TGSI_TEX_T_2D_MSAA || im->target == TGSI_TEX_T_2D_ARRAY_MSAA)
         r[3] = 1; /* one sample */
   } else {
      return false;
   }
   return true;
}

static int
exec_resq(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti)
{
   const struct tgsi_interp_src *rs = &ti->src[0];
   /* A buffer's size is .x only (tgsi.rst); the other channels of the
    * destination are written with undefined values. */
   bool image = rs->file == TGSI_FILE_IMAGE;
   uint32_t r[4];
   if (!rs->indirect) { /* one answer for every lane */
      bool bad = !resq_unit(b->env, rs->file, rs->index, r);
      for (unsigned c = 0; c < 4; c++) {
         /* every lane: commit takes the lanes of exec alone (a select
          * on exec here had kept the loop scalar) */
         uint32_t *restrict v = b->res_v[c], *restrict f = b->res_f[c], rc = r[c];
         uint32_t fc = bad || (c && !image) ? ENV_F_UNDEF : 0;
         for (unsigned i = 0, n = b->n; i < n; i++) {
            v[i] = rc;
            f[i] = fc;
         }
      }
      return ti->dst.mask;
   }
   for (unsigned i = 0; i < b->n; i++) {
      if (!b->exec[i])
         continue;
      bool bad;
      int64_t unit = res_index(b, rs, i, &bad);
      bad |= !resq_unit(b->env, rs->file, unit, r);
      for (unsigned c = 0; c < 4; c++) {
         b->res_v[c][i] = r[c];
         b->res_f[c][i] = bad || (c && !image) ? ENV_F_UNDEF : 0;
      }
   }
   return ti->dst.mask;
}

/* ------------------------------------------------------------------ */
/* Textures                                                             */

/* Unit operand of a texture opcode, and where its extra operand is. */
static unsigned
tex_unit_src(enum tgsi_opcode op)
{
   switch (op) {
   case TGSI_OP_TEX2:
   case TGSI_OP_TXB2:
   case TGSI_OP_TXL2:
   case TGSI_OP_TG4:
      return 2;
   case TGSI_OP_TXD:
      return 3;
   default:
      return 1;
   }
}

static unsigned
f2u_comp(float f)
{
   return f >= 0.0f && f < 4.0f ? (unsigned)f : 0;
}

struct texargs {
   const uint32_t *v[4], *f[4]; /* src0 channels */
   const uint32_t *x, *xf;      /* src1.x (TEX2 family, TG4) or src3.x (SAMPLE_*) */
   const uint32_t *off[3], *offf[3];
   const uint32_t *dx[3], *dxf[3], *dy[3], *dyf[3]; /* TXD, SAMPLE_D: the gradients */
   unsigned ngrad;
   /* of the TEX family's target, looked up once per instruction */
   unsigned ncoords, nspatial, shadow_ref; /* shadow_ref: 5 = no compare */
};

static void
fetch_texargs(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, unsigned extra,
              struct texargs *a)
{
   for (unsigned c = 0; c < 4; c++)
      tgsi_interp_fetch(b, ti, 0, c, &a->v[c], &a->f[c]);
   a->x = a->xf = b->zero;
   if (extra < ti->nsrc)
      tgsi_interp_fetch(b, ti, extra, 0, &a->x, &a->xf);
   for (unsigned c = 0; c < 3; c++) {
      a->off[c] = a->offf[c] = b->zero;
      if (ti->has_texoff)
         tgsi_interp_fetch(b, ti, TGSI_MAX_SRC, c, &a->off[c], &a->offf[c]);
   }
   a->ngrad = 0;
}

/* The explicit gradients ddx (source sx) and ddy (sx + 1), one per
 * spatial axis of target. */
static void
fetch_grads(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, unsigned sx,
            enum tgsi_texture target, struct texargs *a)
{
   a->ngrad = MIN2(tgsi_texture_spatial_coords(target), 3u);
   for (unsigned c = 0; c < a->ngrad; c++) {
      tgsi_interp_fetch(b, ti, sx, c, &a->dx[c], &a->dxf[c]);
      tgsi_interp_fetch(b, ti, sx + 1, c, &a->dy[c], &a->dyf[c]);
   }
}

/* An operand a lookup reads besides its coordinates and offsets (a depth
 * reference, a LOD or bias, TXP's divisor, TG4's component). */
struct lane_arg {
   const uint32_t *v, *f;
};

/* The TEX family's extra operands of op: the reference, then what it
 * reads from src0.w or src1.x. */
static void
tex_extra(const struct texargs *a, enum tgsi_opcode op, struct lane_arg extra[2])
{
   unsigned r = a->shadow_ref;
   extra[0] = extra[1] = (struct lane_arg){NULL, NULL};
   if (r < 5)
      extra[0] = r < 4 ? (struct lane_arg){a->v[r], a->f[r]} : (struct lane_arg){a->x, a->xf};
   if (op == TGSI_OP_TXP || op == TGSI_OP_TXB || op == TGSI_OP_TXL)
      extra[1] = (struct lane_arg){a->v[3], a->f[3]};
   else if (op == TGSI_OP_TXB2 || op == TGSI_OP_TXL2 || op == TGSI_OP_TG4)
      extra[1] = (struct lane_arg){a->x, a->xf};
}

/* Lane i's bounds (tgsi_interp_bound.c) over the operands of a lookup, as
 * one tolerance relative to each operand's magnitude: the sum of their
 * bound_rel, as TXP's quotient and the cube's major axis against the
 * next may take two of them, 2^-10 larger for the roundings of those;
 * +inf where a bound reaches zero or an integer operand (an offset) has
 * one. The sampler's near test takes it as its tolerance: a lookup near
 * none of its roundings selects the same texel at every value within the
 * bounds. */
static double
lookup_rel(const struct texargs *a, const struct lane_arg extra[2], unsigned i)
{
   double r = 0.0;
   for (unsigned c = 0; c < a->ncoords && c < 4; c++)
      r += tgsi_interp_bound_rel(a->v[c][i], a->f[c][i]);
   for (unsigned k = 0; k < 2; k++)
      if (extra[k].v)
         r += tgsi_interp_bound_rel(extra[k].v[i], extra[k].f[i]);
   for (unsigned c = 0; c < a->ngrad; c++)
      r += tgsi_interp_bound_rel(a->dx[c][i], a->dxf[c][i]) +
           tgsi_interp_bound_rel(a->dy[c][i], a->dyf[c][i]);
   for (unsigned c = 0; c < 3; c++)
      r += a->offf[c][i] & ENV_ERR_MASK ? INFINITY : 0.0;
   return r * (1.0 + 0x1p-10);
}

/* The largest bound lookup_rel gives the sampler; a lane beyond it is
 * near by fiat (the sampler's tolerance is relative, so it cannot reach
 * a rounding at a zero coordinate). */
#define LOOKUP_REL_MAX 0x1p-4

/* A lookup of lane values whose classes are fl and whose bounds are brel
 * (lookup_rel): EDGE where an inexact operand lies within its class's
 * tolerance of one of the lookup's roundings (tgsi_lane_edge's rule for
 * compares and FLR), as a texel selection is a rounding and the result
 * may be another texel's; where bounds are kept, the result is unbounded
 * near one and exact elsewhere. */
static bool
sample_lane(struct tgsi_interp_batch *b, int64_t unit, const struct env_sample_req *q, double brel,
            uint32_t out[4], uint32_t *fl)
{
   if (unit < 0 || unit >= ENV_MAX_TEXTURES)
      return false;
   bool near = false, far = !(brel <= LOOKUP_REL_MAX);
   double rel = tgsi_lane_edge_rel(*fl) + (far ? 0.0 : brel);
   bool ok = env_sample_near(b->env, (unsigned)unit, q, out, rel, &near);
   *fl |= near ? ENV_F_EDGE : 0;
   if (b->bounds)
      *fl = tgsi_interp_bound_lookup(*fl, near || far);
   return ok;
}

/* The gradients' part of lane i's request; their classes into *fl. */
static void
grad_lane(const struct texargs *a, unsigned i, struct env_sample_req *q, uint32_t *fl)
{
   q->grad = a->ngrad > 0;
   for (unsigned c = 0; c < a->ngrad; c++) {
      q->ddx[c] = uif(a->dx[c][i]);
      q->ddy[c] = uif(a->dy[c][i]);
      *fl |= a->dxf[c][i] | a->dyf[c][i];
   }
}

/* One lookup with the TEX-family conventions (coords in src0). */
static void
tex_lane(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, const struct texargs *a,
         enum tgsi_texture target, unsigned unit_src, unsigned i)
{
   enum tgsi_opcode op = ti->op;
   bool bad;
   int64_t unit = res_index(b, &ti->src[unit_src], i, &bad);
   struct env_sample_req q = {.target = target};
   uint32_t fl = bad ? ENV_F_UNDEF : 0;
   unsigned nc = a->ncoords;
   for (unsigned c = 0; c < nc && c < 4; c++) {
      q.coord[c] = uif(a->v[c][i]);
      fl |= a->f[c][i];
   }
   for (unsigned c = 0; c < 3; c++) {
      q.offset[c] = (int32_t)a->off[c][i];
      fl |= a->offf[c][i];
   }
   if (a->shadow_ref < 5) {
      unsigned r = a->shadow_ref;
      q.compare = true;
      q.ref = r < 4 ? uif(a->v[r][i]) : uif(a->x[i]);
      fl |= r < 4 ? a->f[r][i] : a->xf[i];
   }
   if (op == TGSI_OP_TXP) {
      float w = uif(a->v[3][i]);
      for (unsigned c = 0; c < a->nspatial; c++)
         q.coord[c] /= w;
      q.ref /= w;
      fl |= a->f[3][i];
   }
   if (op == TGSI_OP_TXB || op == TGSI_OP_TXL) {
      q.lod = uif(a->v[3][i]);
      fl |= a->f[3][i];
   } else if (op == TGSI_OP_TXB2 || op == TGSI_OP_TXL2) {
      q.lod = uif(a->x[i]);
      fl |= a->xf[i];
   }
   grad_lane(a, i, &q, &fl);
   if (op == TGSI_OP_TG4) {
      uint32_t c = a->x[i];
      q.gather = true;
      q.comp = c <= 3 ? c : (unsigned)f2u_comp(uif(c));
      fl |= a->xf[i];
   }
   uint32_t out[4];
   struct lane_arg extra[2];
   tex_extra(a, op, extra);
   double brel = b->bounds ? lookup_rel(a, extra, i) : 0.0;
   bool ok = sample_lane(b, unit, &q, brel, out, &fl);
   for (unsigned c = 0; c < 4; c++) {
      b->res_v[c][i] = ok ? out[c] : 0;
      b->res_f[c][i] = fl | (ok ? 0 : ENV_F_UNDEF);
   }
}

/* The lookups of q for every lane at once, into the results, with the
 * flags of the coordinates and offsets of a and of the extra operands
 * (v NULL: none) the lookup read, EDGE and the bounds as sample_lane's.
 * False, having done nothing, when env_sample_lanes does not take the
 * lookup. */
DC_LANES
static bool
sample_batch(struct tgsi_interp_batch *b, unsigned unit, const struct env_sample_lanes *q,
             const struct texargs *a, const struct lane_arg extra[2])
{
   unsigned n = b->n;
   if (!env_sample_lanes_take(b->env, unit, q->target))
      return false;
   uint32_t *fl = b->res_f[0];
   FOR fl[i] = a->offf[0][i] | a->offf[1][i] | a->offf[2][i];
   for (unsigned c = 0; c < a->ncoords && c < 4; c++) {
      const uint32_t *f = a->f[c];
      FOR fl[i] |= f[i];
   }
   for (unsigned k = 0; k < 2; k++) {
      const uint32_t *f = extra[k].f;
      if (f)
         FOR fl[i] |= f[i];
   }
   struct env_sample_lanes qn = *q;
   uint32_t any = 0;
   FOR any |= fl[i];
   bool bounded = b->bounds && (any & ENV_ERR_MASK);
   uint32_t *far = b->res_f[3];         /* lanes near by fiat (LOOKUP_REL_MAX) */
   if ((any & TI_INEXACT) || bounded) { /* each lane's tolerance (0: none) and near */
      float *rel = (float *)b->res_f[2];
      FOR rel[i] = (float)tgsi_lane_edge_rel(fl[i]);
      FOR far[i] = 0;
      for (unsigned i = 0; bounded && i < n; i++) {
         double brel = lookup_rel(a, extra, i);
         far[i] = !(brel <= LOOKUP_REL_MAX);
         rel[i] += far[i] ? 0.0f : (float)brel;
      }
      qn.rel = rel;
      qn.near = b->res_f[1];
   }
   bool took = env_sample_lanes(b->env, unit, &qn, n, b->res_v);
   assert(took);
   (void)took;
   if (qn.near) {
      const uint32_t *near = qn.near;
      FOR fl[i] |= near[i] ? ENV_F_EDGE : 0;
   }
   if (b->bounds)
      for (unsigned i = 0; i < n; i++)
         fl[i] = tgsi_interp_bound_lookup(fl[i], qn.near && (qn.near[i] || far[i]));
   for (unsigned c = 1; c < 4; c++)
      memcpy(b->res_f[c], fl, (size_t)n * 4);
   return true;
}

/* Every lane's lookup at once (env_sample_lanes), the same as tex_lane's
 * per lane: a unit named directly, no gather, a texture the batched
 * sampler takes. Lanes outside the execution mask get results too (commit
 * does not store them). Returns false, having done nothing, otherwise. */
DC_LANES
static bool
tex_lanes(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, const struct texargs *a,
          enum tgsi_texture target, unsigned unit_src)
{
   enum tgsi_opcode op = ti->op;
   const struct tgsi_interp_src *u = &ti->src[unit_src];
   if (u->indirect || op == TGSI_OP_TG4 || u->index < 0 || u->index >= ENV_MAX_TEXTURES)
      return false;
   unsigned n = b->n;
   struct env_sample_lanes q = {.target = target};
   for (unsigned c = 0; c < 4; c++)
      q.coord[c] = c < a->ncoords ? a->v[c] : b->zero;
   for (unsigned c = 0; c < 3; c++)
      q.off[c] = a->off[c];
   unsigned r = a->shadow_ref;
   if (r < 5)
      q.ref = r < 4 ? a->v[r] : a->x;
   if (op == TGSI_OP_TXB || op == TGSI_OP_TXL)
      q.lod = a->v[3];
   else if (op == TGSI_OP_TXB2 || op == TGSI_OP_TXL2)
      q.lod = a->x;
   if (op == TGSI_OP_TXP) {
      /* projected: the spatial coordinates and the reference over w */
      const uint32_t *w = a->v[3];
      for (unsigned c = 0; c < a->nspatial; c++) {
         uint32_t *d = b->scratch[c];
         const uint32_t *v = q.coord[c];
         FOR d[i] = fui(uif(v[i]) / uif(w[i]));
         q.coord[c] = d;
      }
      if (q.ref) {
         uint32_t *d = b->scratch[4];
         const uint32_t *v = q.ref;
         FOR d[i] = fui(uif(v[i]) / uif(w[i]));
         q.ref = d;
      }
   }
   struct lane_arg extra[2];
   tex_extra(a, op, extra);
   return sample_batch(b, (unsigned)u->index, &q, a, extra);
}

static int
exec_tex(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti)
{
   unsigned us = tex_unit_src(ti->op);
   struct texargs a;
   fetch_texargs(b, ti, us == 1 ? TGSI_MAX_SRC : 1, &a);
   enum tgsi_texture target = ti->in->tex_target;
   a.ncoords = tgsi_texture_coord_count(target);
   a.nspatial = tgsi_texture_spatial_coords(target);
   a.shadow_ref = tgsi_texture_is_shadow(target) ? tgsi_texture_shadow_ref(target) : 5;
   /* explicit gradients go lane by lane (env_sample_lanes takes none) */
   if (ti->op == TGSI_OP_TXD)
      fetch_grads(b, ti, 1, target, &a);
   else if (tex_lanes(b, ti, &a, target, us))
      return ti->dst.mask;
   for (unsigned i = 0; i < b->n; i++)
      if (b->exec[i])
         tex_lane(b, ti, &a, target, us, i);
   return ti->dst.mask;
}

/* TXF / TXF_LZ / SAMPLE_I / SAMPLE_I_MS: integer coordinates. */
static void
fetch_lane(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, const struct texargs *a,
           enum tgsi_texture target, unsigned i)
{
   bool bad;
   int64_t unit = res_index(b, &ti->src[1], i, &bad);
   uint32_t fl = bad ? ENV_F_UNDEF : 0;
   int32_t c[3] = {0, 0, 0}, off[3];
   unsigned nc = MIN2(tgsi_texture_coord_count(target), 3u);
   for (unsigned k = 0; k < nc; k++) {
      c[k] = (int32_t)a->v[k][i];
      fl |= a->f[k][i];
   }
   for (unsigned k = 0; k < 3; k++) {
      off[k] = (int32_t)a->off[k][i];
      fl |= a->offf[k][i];
   }
   int32_t lod = 0;
   bool has_lod = ti->op != TGSI_OP_TXF_LZ && target != TGSI_TEX_T_BUFFER &&
                  target != TGSI_TEX_T_2D_MSAA && target != TGSI_TEX_T_2D_ARRAY_MSAA;
   if (has_lod) {
      lod = (int32_t)a->v[3][i];
      fl |= a->f[3][i];
   }
   uint32_t out[4];
   bool ok = unit >= 0 && unit < ENV_MAX_TEXTURES &&
             env_fetch(b->env, (unsigned)unit, target, c, lod, off, out);
   for (unsigned k = 0; k < 4; k++) {
      b->res_v[k][i] = ok ? out[k] : 0;
      b->res_f[k][i] = fl | (ok ? 0 : ENV_F_UNDEF);
   }
}

static enum tgsi_texture
view_target(const struct tgsi_interp_batch *b, const struct tgsi_interp_src *s)
{
   return s->index >= 0 && s->index < 32 ? b->p->sview_target[s->index] : TGSI_TEX_T_UNKNOWN;
}

/* SAMPLE_* results are swizzled by the SVIEW operand's swizzle. */
static void
view_swizzle(struct tgsi_interp_batch *b, const struct tgsi_interp_src *view, unsigned mask)
{
   uint32_t *t = b->scratch[0], *tf = b->scratch[1];
   unsigned n = b->n;
   uint32_t *v[4], *f[4];
   for (unsigned c = 0; c < 4; c++) {
      v[c] = b->res_v[c];
      f[c] = b->res_f[c];
   }
   /* Rotate through scratch so every output reads the unswizzled input. */
   uint32_t *nv[4], *nf[4];
   for (unsigned c = 0; c < 4; c++) {
      nv[c] = c == 0 ? t : b->scratch[2 + (c - 1) * 2];
      nf[c] = c == 0 ? tf : b->scratch[3 + (c - 1) * 2];
   }
   for (unsigned c = 0; c < 4; c++)
      if (mask & (1u << c)) {
         memcpy(nv[c], v[view->swz[c] & 3], (size_t)n * 4);
         memcpy(nf[c], f[view->swz[c] & 3], (size_t)n * 4);
      }
   for (unsigned c = 0; c < 4; c++)
      if (mask & (1u << c)) {
         memcpy(b->res_v[c], nv[c], (size_t)n * 4);
         memcpy(b->res_f[c], nf[c], (size_t)n * 4);
      }
}

static int
exec_txf(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti)
{
   bool view = ti->op == TGSI_OP_SAMPLE_I || ti->op == TGSI_OP_SAMPLE_I_MS;
   enum tgsi_texture target = view ? view_target(b, &ti->src[1]) : ti->in->tex_target;
   struct texargs a;
   fetch_texargs(b, ti, TGSI_MAX_SRC, &a);
   for (unsigned i = 0; i < b->n; i++)
      if (b->exec[i])
         fetch_lane(b, ti, &a, target, i);
   if (view)
      view_swizzle(b, &ti->src[1], ti->dst.mask);
   return ti->dst.mask;
}

/* SAMPLE, SAMPLE_B/C/C_LZ/D/L, GATHER4: coords src0, SVIEW src1, extra
 * operand (bias, lod or reference) src3.x. */
static int
exec_sample(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti)
{
   enum tgsi_opcode op = ti->op;
   enum tgsi_texture target = view_target(b, &ti->src[1]);
   struct texargs a;
   fetch_texargs(
       b, ti,
       op == TGSI_OP_SAMPLE || op == TGSI_OP_GATHER4 || op == TGSI_OP_SAMPLE_D ? TGSI_MAX_SRC : 3,
       &a);
   a.ncoords = tgsi_texture_coord_count(target);
   /* every lane at once when the unit is named directly (what the loop
    * below does lane by lane); explicit gradients lane by lane */
   const struct tgsi_interp_src *u = &ti->src[1];
   if (op == TGSI_OP_SAMPLE_D)
      fetch_grads(b, ti, 3, target, &a);
   else if (!u->indirect && op != TGSI_OP_GATHER4 && u->index >= 0 && u->index < ENV_MAX_TEXTURES) {
      struct env_sample_lanes q = {.target = target};
      for (unsigned c = 0; c < 4; c++)
         q.coord[c] = c < a.ncoords ? a.v[c] : b->zero;
      for (unsigned c = 0; c < 3; c++)
         q.off[c] = a.off[c];
      if (op == TGSI_OP_SAMPLE_B || op == TGSI_OP_SAMPLE_L)
         q.lod = a.x;
      if (op == TGSI_OP_SAMPLE_C || op == TGSI_OP_SAMPLE_C_LZ)
         q.ref = a.x;
      const struct lane_arg extra[2] = {{a.x, a.xf}, {NULL, NULL}};
      if (sample_batch(b, (unsigned)u->index, &q, &a, extra)) {
         view_swizzle(b, &ti->src[1], ti->dst.mask);
         return ti->dst.mask;
      }
   }
   for (unsigned i = 0; i < b->n; i++) {
      if (!b->exec[i])
         continue;
      bool bad;
      int64_t unit = res_index(b, &ti->src[1], i, &bad);
      struct env_sample_req q = {.target = target};
      uint32_t fl = bad ? ENV_F_UNDEF : 0;
      for (unsigned c = 0; c < a.ncoords && c < 4; c++) {
         q.coord[c] = uif(a.v[c][i]);
         fl |= a.f[c][i];
      }
      for (unsigned c = 0; c < 3; c++) {
         q.offset[c] = (int32_t)a.off[c][i];
         fl |= a.offf[c][i];
      }
      if (op == TGSI_OP_SAMPLE_B || op == TGSI_OP_SAMPLE_L)
         q.lod = uif(a.x[i]);
      q.compare = op == TGSI_OP_SAMPLE_C || op == TGSI_OP_SAMPLE_C_LZ;
      q.ref = uif(a.x[i]);
      q.gather = op == TGSI_OP_GATHER4;
      fl |= a.xf[i];
      grad_lane(&a, i, &q, &fl);
      uint32_t out[4];
      const struct lane_arg extra[2] = {{a.x, a.xf}, {NULL, NULL}};
      double brel = b->bounds ? lookup_rel(&a, extra, i) : 0.0;
      bool ok = sample_lane(b, unit, &q, brel, out, &fl);
      for (unsigned c = 0; c < 4; c++) {
         b->res_v[c][i] = ok ? out[c] : 0;
         b->res_f[c][i] = fl | (ok ? 0 : ENV_F_UNDEF);
      }
   }
   view_swizzle(b, &ti->src[1], ti->dst.mask);
   return ti->dst.mask;
}

/* TXQ / SVIEWINFO: per-lane level from src0.x. */
static int
exec_txq(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti)
{
   const uint32_t *lod, *lf;
   tgsi_interp_fetch(b, ti, 0, 0, &lod, &lf);
   for (unsigned i = 0; i < b->n; i++) {
      if (!b->exec[i])
         continue;
      bool bad;
      int64_t unit = res_index(b, &ti->src[1], i, &bad);
      uint32_t out[4] = {0, 0, 0, 0};
      bool ok = unit >= 0 && unit < ENV_MAX_TEXTURES &&
                env_tex_query(b->env, (unsigned)unit, (int32_t)lod[i], out);
      for (unsigned c = 0; c < 4; c++) {
         b->res_v[c][i] = out[c];
         b->res_f[c][i] = lf[i] | (ok && !bad ? 0 : ENV_F_UNDEF);
      }
   }
   return ti->dst.mask;
}

/* One-sample model (tgsi.rst): TXQS and SAMPLE_INFO give (1, 0, 0, 0);
 * SAMPLE_POS gives (0.5, 0.5, undefined, undefined) whatever the sample
 * index; SAMPLE_POS/SAMPLE_INFO apply the source operand's swizzle.
 * LODQ/LOD give level 0 (this model has no implicit LOD). */
DC_LANES
static int
exec_tex_info(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti)
{
   unsigned n = b->n;
   enum tgsi_opcode op = ti->op;
   uint32_t v[4] = {0, 0, 0, 0}, f[4] = {0, 0, 0, 0};
   if (op == TGSI_OP_TXQS || op == TGSI_OP_SAMPLE_INFO)
      v[0] = 1;
   if (op == TGSI_OP_SAMPLE_POS) {
      v[0] = v[1] = 0x3f000000u; /* 0.5 */
      f[2] = f[3] = ENV_F_UNDEF;
   }
   bool swz = op == TGSI_OP_SAMPLE_POS || op == TGSI_OP_SAMPLE_INFO;
   for (unsigned c = 0; c < 4; c++) {
      unsigned k = swz ? ti->src[0].swz[c] & 3 : c;
      FOR b->res_v[c][i] = v[k];
      FOR b->res_f[c][i] = f[k];
   }
   return ti->dst.mask;
}

/* ------------------------------------------------------------------ */
/* Derivatives, subgroups, interpolation, helpers                       */

static int
exec_deriv(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti)
{
   unsigned n = b->n;
   bool fs = b->p->s->stage == TGSI_STAGE_FRAG;
   bool coarse = ti->op == TGSI_OP_DDX || ti->op == TGSI_OP_DDY;
   bool dx = ti->op == TGSI_OP_DDX || ti->op == TGSI_OP_DDX_FINE;
   for (unsigned c = 0; c < 4; c++) {
      if (!(ti->dst.mask & (1u << c)))
         continue;
      const uint32_t *v, *f;
      tgsi_interp_fetch(b, ti, 0, c, &v, &f);
      for (unsigned q = 0; q + 4 <= n; q += 4) {
         uint32_t qf = 0;
         bool full = fs;
         for (unsigned k = q; k < q + 4; k++) {
            qf |= f[k];
            full &= b->exec[k] != 0;
            if ((v[k] & 0x7f800000u) == 0 && (v[k] & 0x7fffffu))
               qf |= ENV_F_DENORM;
         }
         for (unsigned k = 0; k < 4; k++) {
            /* Lanes: 0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right. */
            unsigned a, z;
            if (dx) {
               a = coarse ? 2 : k & 2;
               z = a + 1;
            } else {
               a = coarse ? 0 : k & 1;
               z = a + 2;
            }
            uint32_t rb = fui(uif(v[q + z]) - uif(v[q + a]));
            bool nan = (rb & 0x7f800000u) == 0x7f800000u && (rb & 0x7fffffu);
            b->res_v[c][q + k] = nan ? 0x7fc00000u : rb;
            b->res_f[c][q + k] =
                qf | (coarse ? ENV_F_DERIV : 0) | (full ? 0 : ENV_F_UNDEF) | (nan ? ENV_F_NAN : 0);
            if (b->bounds)
               b->res_f[c][q + k] =
                   tgsi_interp_bound_diff(b->res_f[c][q + k], f[q + a], f[q + z], rb);
         }
      }
      for (unsigned k = n & ~3u; k < n; k++) {
         b->res_v[c][k] = 0;
         b->res_f[c][k] = ENV_F_UNDEF;
      }
   }
   return ti->dst.mask;
}

/* VOTE_*, READ_FIRST, BALLOT: one value per subgroup. */
static void
subgroup_lanes(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, unsigned c,
               uint32_t *rv, uint32_t *rf)
{
   tgsi_interp_subgroups(b);
   const uint32_t *v, *f;
   tgsi_interp_fetch(b, ti, 0, ti->op == TGSI_OP_BALLOT ? 0 : c, &v, &f);
   for (unsigned first = 0; first < b->n; first = b->sg_end[first]) {
      unsigned end = b->sg_end[first];
      uint32_t any = 0, all = ~0u, eq = ~0u, fl = 0, firstv = 0, firstf = 0;
      uint64_t ballot = 0;
      bool seen = false;
      for (unsigned i = first; i < end; i++) {
         if (!b->exec[i])
            continue;
         fl |= f[i];
         if (!seen) {
            firstv = v[i];
            firstf = f[i];
         }
         any |= v[i] ? ~0u : 0;
         all &= v[i] ? ~0u : 0;
         eq &= v[i] == firstv ? ~0u : 0;
         ballot |= v[i] ? 1ull << (i - first) : 0;
         seen = true;
      }
      if (ti->op == TGSI_OP_READ_FIRST)
         fl = firstf;
      uint32_t r;
      switch (ti->op) {
      case TGSI_OP_VOTE_ANY:
         r = any;
         break;
      case TGSI_OP_VOTE_ALL:
         r = all;
         break;
      case TGSI_OP_VOTE_EQ:
         r = eq;
         break;
      case TGSI_OP_READ_FIRST:
         r = firstv;
         break;
      default: /* BALLOT: a 64-bit mask in xy (and zw) */
         r = (uint32_t)(c & 1 ? ballot >> 32 : ballot);
         break;
      }
      for (unsigned i = first; i < end; i++) {
         rv[i] = r;
         rf[i] = fl;
      }
   }
}

DC_LANES
static int
exec_subgroup(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti)
{
   tgsi_interp_subgroups(b);
   unsigned n = b->n;
   for (unsigned c = 0; c < 4; c++) {
      if (!(ti->dst.mask & (1u << c)))
         continue;
      uint32_t *rv = b->res_v[c], *rf = b->res_f[c];
      if (ti->op == TGSI_OP_READ_HELPER) {
         FOR rv[i] = b->demoted[i];
         FOR rf[i] = 0;
      } else if (ti->op == TGSI_OP_READ_INVOC) {
         const uint32_t *v, *f, *idx, *idxf;
         tgsi_interp_fetch(b, ti, 0, c, &v, &f);
         tgsi_interp_fetch(b, ti, 1, 0, &idx, &idxf);
         FOR
         {
            uint64_t src = (uint64_t)b->sg_first[i] + idx[i];
            bool ok = src < b->sg_end[i] && b->exec[src];
            rv[i] = ok ? v[src] : 0;
            rf[i] = idxf[i] | (ok ? f[src] : ENV_F_UNDEF);
         }
      } else {
         subgroup_lanes(b, ti, c, rv, rf);
      }
   }
   return ti->dst.mask;
}

/* INTERP_CENTROID / INTERP_SAMPLE: one fully covered sample at the pixel
 * centre, so the input itself (other sample indices: undefined). */
DC_LANES
static int
exec_interp(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti)
{
   unsigned n = b->n;
   const uint32_t *s = b->zero, *sf = b->zero;
   if (ti->op == TGSI_OP_INTERP_SAMPLE)
      tgsi_interp_fetch(b, ti, 1, 0, &s, &sf);
   for (unsigned c = 0; c < 4; c++) {
      if (!(ti->dst.mask & (1u << c)))
         continue;
      const uint32_t *v, *f;
      tgsi_interp_fetch(b, ti, 0, c, &v, &f);
      memcpy(b->res_v[c], v, (size_t)n * 4);
      FOR b->res_f[c][i] = f[i] | sf[i] | (s[i] ? ENV_F_UNDEF : 0);
   }
   return ti->dst.mask;
}

/* ------------------------------------------------------------------ */
/* Geometry shaders                                                     */

static void
emit_vertex(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti)
{
   const struct tgsi_interp_prog *p = b->p;
   struct env *e = b->env;
   const uint32_t *sv, *sf;
   tgsi_interp_fetch(b, ti, 0, 0, &sv, &sf);
   uint32_t nout = p->nout, maxv = e->gs_max_vertices, nch = nout * 4;
   /* the OUT slots' arrays, looked up once (per lane and channel before) */
   uint32_t *const *val = b->val + p->file_base[TGSI_FILE_OUT];
   uint32_t *const *flg = b->flg + p->file_base[TGSI_FILE_OUT];
   for (unsigned i = 0; i < b->n; i++) {
      if (!b->exec[i])
         continue;
      uint32_t g = b->base + i, k = e->gs_count[g];
      if (sf[i] & ENV_F_UNDEF)
         e->gs_undef[g] = 1;
      if (k >= maxv) {
         env_count(e, ENV_EV_GS_OVERFLOW, 1);
      } else {
         size_t at = (size_t)g * maxv + k;
         uint32_t *data = e->gs_data + at * nch;
         uint16_t *flags = e->gs_flags + at * nch;
         for (uint32_t r = 0; r < nch; r++) {
            data[r] = val[r][i];
            flags[r] = (uint16_t)flg[r][i];
         }
         if (e->gs_err)
            for (uint32_t r = 0; r < nch; r++)
               e->gs_err[at * nch + r] = env_err_bits(flg[r][i]);
         e->gs_stream[at] = (uint8_t)sv[i];
         e->gs_prim[at] = b->gs_prim[i];
         e->gs_count[g] = k + 1;
      }
   }
   /* then the outputs are undefined in the lanes that emitted: a loop
    * per output channel (per lane above, it was half of a GS's EMIT) */
   const uint32_t *restrict exec = b->exec;
   for (uint32_t r = 0, n = b->n; r < nch; r++) {
      uint32_t *restrict fr = flg[r];
      for (unsigned i = 0; i < n; i++)
         fr[i] |= exec[i] & ENV_F_UNDEF;
   }
}

static int
exec_gs(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti)
{
   if (ti->op == TGSI_OP_EMIT) {
      emit_vertex(b, ti);
   } else {
      const uint32_t *sv, *sf;
      tgsi_interp_fetch(b, ti, 0, 0, &sv, &sf);
      for (unsigned i = 0; i < b->n; i++)
         if (b->exec[i]) {
            b->gs_prim[i]++;
            if (sf[i] & ENV_F_UNDEF)
               b->env->gs_undef[b->base + i] = 1;
         }
   }
   return 0;
}

int
tgsi_interp_exec_res(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti)
{
   switch (ti->op) {
   case TGSI_OP_DDX:
   case TGSI_OP_DDY:
   case TGSI_OP_DDX_FINE:
   case TGSI_OP_DDY_FINE:
      return exec_deriv(b, ti);
   case TGSI_OP_TEX:
   case TGSI_OP_TXP:
   case TGSI_OP_TXB:
   case TGSI_OP_TXL:
   case TGSI_OP_TXD:
   case TGSI_OP_TEX_LZ:
   case TGSI_OP_TEX2:
   case TGSI_OP_TXB2:
   case TGSI_OP_TXL2:
   case TGSI_OP_TG4:
      return exec_tex(b, ti);
   case TGSI_OP_TXF:
   case TGSI_OP_TXF_LZ:
   case TGSI_OP_SAMPLE_I:
   case TGSI_OP_SAMPLE_I_MS:
      return exec_txf(b, ti);
   case TGSI_OP_SAMPLE:
   case TGSI_OP_SAMPLE_B:
   case TGSI_OP_SAMPLE_C:
   case TGSI_OP_SAMPLE_C_LZ:
   case TGSI_OP_SAMPLE_D:
   case TGSI_OP_SAMPLE_L:
   case TGSI_OP_GATHER4:
      return exec_sample(b, ti);
   case TGSI_OP_TXQ:
   case TGSI_OP_SVIEWINFO:
      return exec_txq(b, ti);
   case TGSI_OP_TXQS:
   case TGSI_OP_SAMPLE_INFO:
   case TGSI_OP_SAMPLE_POS:
   case TGSI_OP_LODQ:
   case TGSI_OP_LOD:
      return exec_tex_info(b, ti);
   case TGSI_OP_LOAD:
      return exec_load(b, ti);
   case TGSI_OP_STORE:
      return exec_store(b, ti);
   case TGSI_OP_RESQ:
      return exec_resq(b, ti);
   case TGSI_OP_ATOMUADD:
   case TGSI_OP_ATOMXCHG:
   case TGSI_OP_ATOMCAS:
   case TGSI_OP_ATOMAND:
   case TGSI_OP_ATOMOR:
   case TGSI_OP_ATOMXOR:
   case TGSI_OP_ATOMUMIN:
   case TGSI_OP_ATOMUMAX:
   case TGSI_OP_ATOMIMIN:
   case TGSI_OP_ATOMIMAX:
   case TGSI_OP_ATOMFADD:
   case TGSI_OP_ATOMINC_WRAP:
   case TGSI_OP_ATOMDEC_WRAP:
      return exec_atomic(b, ti);
   case TGSI_OP_VOTE_ANY:
   case TGSI_OP_VOTE_ALL:
   case TGSI_OP_VOTE_EQ:
   case TGSI_OP_BALLOT:
   case TGSI_OP_READ_FIRST:
   case TGSI_OP_READ_INVOC:
   case TGSI_OP_READ_HELPER:
      return exec_subgroup(b, ti);
   case TGSI_OP_INTERP_CENTROID:
   case TGSI_OP_INTERP_SAMPLE:
      return exec_interp(b, ti);
   case TGSI_OP_EMIT:
   case TGSI_OP_ENDPRIM:
      return exec_gs(b, ti);
   default:
      return -1;
   }
}
