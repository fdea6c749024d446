/*
 * Inputs as YAML, read and written with libyaml; the same file format
 * serves the interpreter, the emulator and reproducers. Written by
 * diff_inputs_to_yaml, read by diff_inputs_from_yaml; all numbers may be
 * decimal or 0x hex:
 *
 *   stage: FRAG                 # VERT FRAG GEOM TESS_CTRL TESS_EVAL COMP
 *   invocations: 16             # lanes
 *   seed: 42                    # informative
 *   block_size: [8, 8, 1]       # compute workgroup
 *   grid_size: [4, 1, 1]
 *   shared_size: 4096           # bytes of shared memory per workgroup
 *   subgroup_size: 64           # lanes per subgroup, 32 (default) or 64
 *   in_vertices: 1              # input vertices per lane (GS, tessellation)
 *   out_vertices: 1             # output vertices per lane (TCS)
 *   inputs:                     # IN[vertex][reg].chan, one word per lane
 *     - {vertex: 0, reg: 0, chan: x, bits: [0x3f800000, 0x00000000, ...]}
 *   system_values:              # one word per lane
 *     - {semantic: POSITION, chan: x, bits: [...]}
 *   draws: 2                    # constant sets (default 1)
 *   lane_draws: [0, 0, 1, ...]  # the draw of each lane (default all 0)
 *   constants:                  # CONST[buffer][slot] of a draw, four words
 *     - {buffer: 0, slot: 3, bits: [0x0, 0x1, 0x2, 0x3]}     # draw 0
 *     - {draw: 1, buffer: 0, slot: 3, bits: [0x0, 0x1, 0x2, 0x3]}
 *   textures:                   # procedural, see emu/env.c
 *     - {unit: 0, target: 2D, return: FLOAT, width: 8, height: 8, depth: 1,
 *        levels: 4, seed: 0x1234}
 *   buffers:                    # bytes as hex, size a multiple of 4
 *     - {index: 0, size: 8, data: "0001020304050607"}
 *   images:                     # texels of 16 bytes, as hex
 *     - {index: 0, target: 2D, width: 1, height: 1, depth: 1, data: "..."}
 *
 * Sections may be omitted; missing input registers read as undefined.
 * Errors name the file, line and column of the offending node.
 */
#include "diff/diff.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <yaml.h>

static void
ywords(struct ydoc_writer *w, const char *key, const uint32_t *v, size_t n, size_t stride)
{
   ydoc_str(w, key);
   ydoc_seq(w, true, true);
   for (size_t i = 0; i < n; i++)
      ydoc_strf(w, "0x%08x", v[i * stride]);
   ydoc_seq(w, false, false);
}

/* Bytes as one quoted hex string (read back as a string, never a number). */
static void
yhex(struct ydoc_writer *w, const char *key, const uint8_t *data, uint32_t n)
{
   static const char digits[] = "0123456789abcdef";
   char *s = xmalloc((size_t)n * 2 + 1);
   for (uint32_t i = 0; i < n; i++) {
      s[2 * i] = digits[data[i] >> 4];
      s[2 * i + 1] = digits[data[i] & 15];
   }
   s[2 * n] = 0;
   ydoc_str(w, key);
   ydoc_qstr(w, s);
   free(s);
}

static void
yw_header(struct ydoc_writer *w, const struct env *e)
{
   ydoc_str(w, "stage");
   ydoc_str(w, tgsi_stage_names[e->stage]);
   ydoc_str(w, "invocations");
   ydoc_strf(w, "%u", e->nlanes);
   ydoc_str(w, "seed");
   ydoc_strf(w, "%llu", (unsigned long long)e->seed);
   ydoc_str(w, "block_size");
   ydoc_seq(w, true, true);
   for (unsigned k = 0; k < 3; k++)
      ydoc_strf(w, "%u", e->block_size[k]);
   ydoc_seq(w, false, false);
   ydoc_str(w, "grid_size");
   ydoc_seq(w, true, true);
   for (unsigned k = 0; k < 3; k++)
      ydoc_strf(w, "%u", e->grid_size[k]);
   ydoc_seq(w, false, false);
   ydoc_str(w, "shared_size");
   ydoc_strf(w, "%u", e->shared_size);
   if (e->subgroup_size != ENV_SUBGROUP_SIZE) {
      ydoc_str(w, "subgroup_size");
      ydoc_strf(w, "%u", e->subgroup_size);
   }
   ydoc_str(w, "in_vertices");
   ydoc_strf(w, "%u", e->in_vertices);
   ydoc_str(w, "out_vertices");
   ydoc_strf(w, "%u", e->out_vertices);
   if (e->ndraws > 1) {
      ydoc_str(w, "draws");
      ydoc_strf(w, "%u", e->ndraws);
      ydoc_str(w, "lane_draws");
      ydoc_seq(w, true, true);
      for (uint32_t l = 0; l < e->nlanes; l++)
         ydoc_strf(w, "%u", env_draw(e, l));
      ydoc_seq(w, false, false);
   }
}

static void
yw_lanes(struct ydoc_writer *w, const struct env *e)
{
   static const char *const chans[] = {"x", "y", "z", "w"};
   ydoc_str(w, "inputs");
   ydoc_seq(w, true, false);
   for (uint32_t v = 0; v < e->in_vertices; v++)
      for (uint32_t r = 0; r < e->nin; r++)
         for (unsigned c = 0; c < 4; c++) {
            ydoc_map(w, true, true);
            ydoc_str(w, "vertex");
            ydoc_strf(w, "%u", v);
            ydoc_str(w, "reg");
            ydoc_strf(w, "%u", r);
            ydoc_str(w, "chan");
            ydoc_str(w, chans[c]);
            ywords(w, "bits", env_in(e, v, r, c), e->nlanes, 1);
            ydoc_map(w, false, false);
         }
   ydoc_seq(w, false, false);
   ydoc_str(w, "system_values");
   ydoc_seq(w, true, false);
   for (unsigned sem = 0; sem < TGSI_SEM_COUNT; sem++)
      for (unsigned c = 0; c < 4 && e->sv[sem]; c++) {
         ydoc_map(w, true, true);
         ydoc_str(w, "semantic");
         ydoc_str(w, tgsi_semantic_names[sem]);
         ydoc_str(w, "chan");
         ydoc_str(w, chans[c]);
         ywords(w, "bits", e->sv[sem] + (size_t)c * e->nlanes, e->nlanes, 1);
         ydoc_map(w, false, false);
      }
   ydoc_seq(w, false, false);
}

static void
yw_uniforms(struct ydoc_writer *w, const struct env *e)
{
   ydoc_str(w, "constants");
   ydoc_seq(w, true, false);
   for (uint32_t d = 0; d < e->ndraws; d++)
      for (unsigned b = 0; b < ENV_MAX_CBUFS; b++)
         for (uint32_t s = 0; s < e->cbuf_slots[b]; s++) {
            ydoc_map(w, true, true);
            if (d) {
               ydoc_str(w, "draw");
               ydoc_strf(w, "%u", d);
            }
            ydoc_str(w, "buffer");
            ydoc_strf(w, "%u", b);
            ydoc_str(w, "slot");
            ydoc_strf(w, "%u", s);
            ywords(w, "bits", env_cbuf(e, b, d) + s * 4, 4, 1);
            ydoc_map(w, false, false);
         }
   ydoc_seq(w, false, false);
   ydoc_str(w, "textures");
   ydoc_seq(w, true, false);
   for (unsigned u = 0; u < ENV_MAX_TEXTURES; u++) {
      const struct env_texture *t = &e->tex[u];
      if (!t->bound)
         continue;
      ydoc_map(w, true, true);
      ydoc_str(w, "unit");
      ydoc_strf(w, "%u", u);
      ydoc_str(w, "target");
      ydoc_str(w, tgsi_texture_names[t->target]);
      ydoc_str(w, "return");
      ydoc_str(w, tgsi_return_type_names[t->ret]);
      ydoc_str(w, "width");
      ydoc_strf(w, "%u", t->width);
      ydoc_str(w, "height");
      ydoc_strf(w, "%u", t->height);
      ydoc_str(w, "depth");
      ydoc_strf(w, "%u", t->depth);
      ydoc_str(w, "levels");
      ydoc_strf(w, "%u", t->levels);
      ydoc_str(w, "seed");
      ydoc_strf(w, "0x%016llx", (unsigned long long)t->seed);
      ydoc_map(w, false, false);
   }
   ydoc_seq(w, false, false);
}

static void
yw_memory(struct ydoc_writer *w, const struct env *e)
{
   ydoc_str(w, "buffers");
   ydoc_seq(w, true, false);
   for (unsigned i = 0; i < ENV_MAX_BUFFERS; i++) {
      if (!e->buf[i].data)
         continue;
      ydoc_map(w, true, true);
      ydoc_str(w, "index");
      ydoc_strf(w, "%u", i);
      ydoc_str(w, "size");
      ydoc_strf(w, "%u", e->buf[i].size);
      yhex(w, "data", e->buf[i].data, e->buf[i].size);
      ydoc_map(w, false, false);
   }
   ydoc_seq(w, false, false);
   ydoc_str(w, "images");
   ydoc_seq(w, true, false);
   for (unsigned i = 0; i < ENV_MAX_IMAGES; i++) {
      const struct env_image *im = &e->img[i];
      if (!im->bound)
         continue;
      ydoc_map(w, true, true);
      ydoc_str(w, "index");
      ydoc_strf(w, "%u", i);
      ydoc_str(w, "target");
      ydoc_str(w, tgsi_texture_names[im->target]);
      ydoc_str(w, "width");
      ydoc_strf(w, "%u", im->width);
      ydoc_str(w, "height");
      ydoc_strf(w, "%u", im->height);
      ydoc_str(w, "depth");
      ydoc_strf(w, "%u", im->depth);
      yhex(w, "data", im->mem.data, im->mem.size);
      ydoc_map(w, false, false);
   }
   ydoc_seq(w, false, false);
}

char *
diff_inputs_to_yaml(const struct env *e)
{
   struct ydoc_writer *w = ydoc_writer_new();
   ydoc_map(w, true, false);
   yw_header(w, e);
   yw_lanes(w, e);
   yw_uniforms(w, e);
   yw_memory(w, e);
   ydoc_map(w, false, false);
   return ydoc_writer_finish(w);
}

struct yr {
   yaml_document_t doc;
   const char *text, *file;
   size_t len;
   struct diag_list *d;
   bool failed;
};

static const char *
line_start(const char *text, size_t len, size_t line)
{
   const char *p = text, *end = text + len;
   for (size_t l = 0; l < line && p < end; p++)
      if (*p == '\n')
         l++;
   return p < end ? p : NULL;
}

static bool DC_PRINTF(3, 4) yr_err(struct yr *r, const yaml_node_t *n, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   size_t line = n ? n->start_mark.line : 0;
   diag_vadd(r->d, DIAG_ERROR, r->file, n ? (int)line + 1 : 0,
             n ? (int)n->start_mark.column + 1 : 0, n ? line_start(r->text, r->len, line) : NULL,
             fmt, ap);
   va_end(ap);
   r->failed = true;
   return false;
}

static yaml_node_t *
yr_node(struct yr *r, int idx)
{
   return yaml_document_get_node(&r->doc, idx);
}

static const char *
yr_str(struct yr *r, yaml_node_t *n)
{
   if (!n || n->type != YAML_SCALAR_NODE) {
      yr_err(r, n, "expected a scalar");
      return NULL;
   }
   return (const char *)n->data.scalar.value;
}

static bool
to_u64(const char *s, uint64_t *v)
{
   *v = 0;
   if (!*s || *s == '-' || *s == '+' || *s == ' ')
      return false;
   char *end;
   errno = 0;
   *v = strtoull(s, &end, 0);
   return !errno && !*end;
}

static bool
yr_u64(struct yr *r, yaml_node_t *n, uint64_t *v, uint64_t max)
{
   const char *s = yr_str(r, n);
   if (!s)
      return false;
   if (!to_u64(s, v) || *v > max)
      return yr_err(r, n, "expected an integer up to %llu, got '%s'", (unsigned long long)max, s);
   return true;
}

static bool
yr_u32(struct yr *r, yaml_node_t *n, uint32_t *v, uint32_t max)
{
   uint64_t x;
   if (!yr_u64(r, n, &x, max))
      return false;
   *v = (uint32_t)x;
   return true;
}

static yaml_node_t *
yr_get(struct yr *r, yaml_node_t *map, const char *key)
{
   for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
      yaml_node_t *k = yr_node(r, p->key);
      if (k && k->type == YAML_SCALAR_NODE && !strcmp((const char *)k->data.scalar.value, key))
         return yr_node(r, p->value);
   }
   return NULL;
}

static yaml_node_t *
yr_need(struct yr *r, yaml_node_t *map, const char *key)
{
   yaml_node_t *n = yr_get(r, map, key);
   if (!n)
      yr_err(r, map, "missing '%s'", key);
   return n;
}

/* Rejects keys not in allowed (a NULL-terminated list). */
static bool
yr_keys(struct yr *r, yaml_node_t *map, const char *const *allowed)
{
   if (!map || map->type != YAML_MAPPING_NODE)
      return yr_err(r, map, "expected a mapping");
   for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
      yaml_node_t *k = yr_node(r, p->key);
      const char *ks = yr_str(r, k);
      if (!ks)
         return false;
      bool ok = false;
      for (const char *const *a = allowed; *a && !ok; a++)
         ok = !strcmp(*a, ks);
      if (!ok)
         return yr_err(r, k, "unknown key '%s'", ks);
   }
   return true;
}

static bool
yr_words(struct yr *r, yaml_node_t *n, uint32_t *out, size_t count, size_t stride)
{
   if (!n || n->type != YAML_SEQUENCE_NODE)
      return yr_err(r, n, "expected a sequence of %zu words", count);
   size_t got = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
   if (got != count)
      return yr_err(r, n, "expected %zu words, got %zu", count, got);
   for (size_t i = 0; i < count; i++) {
      uint32_t v;
      if (!yr_u32(r, yr_node(r, n->data.sequence.items.start[i]), &v, UINT32_MAX))
         return false;
      out[i * stride] = v;
   }
   return true;
}

static bool
yr_name(struct yr *r, yaml_node_t *n, const char *const *table, unsigned count, int *out)
{
   const char *s = yr_str(r, n);
   if (!s)
      return false;
   *out = tgsi_lookup(table, count, s, strlen(s));
   if (*out < 0)
      return yr_err(r, n, "unknown name '%s'", s);
   return true;
}

static bool
yr_chan(struct yr *r, yaml_node_t *n, unsigned *c)
{
   const char *s = yr_str(r, n);
   *c = 0;
   if (!s)
      return false;
   if (strlen(s) != 1 || !strchr("xyzw", s[0]))
      return yr_err(r, n, "expected a channel x, y, z or w");
   *c = (unsigned)(strchr("xyzw", s[0]) - "xyzw");
   return true;
}

static bool
yr_seq(struct yr *r, yaml_node_t *n)
{
   return n && n->type == YAML_SEQUENCE_NODE ? true : yr_err(r, n, "expected a sequence");
}

#define YR_EACH(r, seq, it)                                                                        \
   for (yaml_node_item_t *it##_i = (seq)->data.sequence.items.start;                               \
        it##_i < (seq)->data.sequence.items.top && !(r)->failed; it##_i++)                         \
      for (yaml_node_t *it = yr_node((r), *it##_i); it; it = NULL)

static bool
yr_inputs(struct yr *r, struct env *e, yaml_node_t *seq)
{
   static const char *const keys[] = {"vertex", "reg", "chan", "bits", NULL};
   uint32_t nin = 0, v, reg;
   if (!yr_seq(r, seq))
      return false;
   YR_EACH(r, seq, it)
   {
      if (yr_keys(r, it, keys) && yr_u32(r, yr_need(r, it, "reg"), &reg, 1023))
         nin = MAX2(nin, reg + 1);
   }
   if (r->failed || !env_alloc_inputs(e, nin, e->in_vertices))
      return r->failed ? false : yr_err(r, seq, "inputs too large");
   YR_EACH(r, seq, it)
   {
      unsigned c;
      yaml_node_t *vn = yr_get(r, it, "vertex");
      v = 0;
      if (vn && !yr_u32(r, vn, &v, e->in_vertices - 1))
         break;
      if (yr_u32(r, yr_need(r, it, "reg"), &reg, 1023) && yr_chan(r, yr_need(r, it, "chan"), &c))
         yr_words(r, yr_need(r, it, "bits"), env_in(e, v, reg, c), e->nlanes, 1);
   }
   return !r->failed;
}

static bool
yr_system_values(struct yr *r, struct env *e, yaml_node_t *seq)
{
   static const char *const keys[] = {"semantic", "chan", "bits", NULL};
   if (!yr_seq(r, seq))
      return false;
   YR_EACH(r, seq, it)
   {
      int sem;
      unsigned c;
      if (yr_keys(r, it, keys) &&
          yr_name(r, yr_need(r, it, "semantic"), tgsi_semantic_names, TGSI_SEM_COUNT, &sem) &&
          yr_chan(r, yr_need(r, it, "chan"), &c))
         yr_words(r, yr_need(r, it, "bits"),
                  env_sv(e, (enum tgsi_semantic)sem) + (size_t)c * e->nlanes, e->nlanes, 1);
   }
   return !r->failed;
}

static void
yr_draws(struct yr *r, struct env *e, yaml_node_t *nd, yaml_node_t *lanes)
{
   uint32_t n = 1;
   if (nd && !yr_u32(r, nd, &n, ENV_MAX_DRAWS))
      return;
   if (!n || (!nd && lanes)) {
      yr_err(r, nd ? nd : lanes, "draws: at least 1, and given with lane_draws");
      return;
   }
   uint32_t *w = xcalloc(e->nlanes, sizeof(*w));
   uint16_t *ld = xcalloc(e->nlanes, sizeof(*ld));
   bool ok = !lanes || yr_words(r, lanes, w, e->nlanes, 1);
   for (uint32_t l = 0; ok && l < e->nlanes; l++) {
      ok = w[l] < n;
      ld[l] = (uint16_t)w[l];
   }
   if (!ok && !r->failed)
      yr_err(r, lanes, "lane_draws: one draw below 'draws' per invocation");
   else if (ok)
      env_set_draws(e, n, lanes ? ld : NULL);
   free(w);
   free(ld);
}

static bool
yr_constants(struct yr *r, struct env *e, yaml_node_t *seq)
{
   static const char *const keys[] = {"draw", "buffer", "slot", "bits", NULL};
   uint32_t slots[ENV_MAX_CBUFS] = {0}, b, s, d = 0;
   if (!yr_seq(r, seq))
      return false;
   YR_EACH(r, seq, it)
   {
      if (yr_keys(r, it, keys) && yr_u32(r, yr_need(r, it, "buffer"), &b, ENV_MAX_CBUFS - 1) &&
          yr_u32(r, yr_need(r, it, "slot"), &s, ENV_MAX_CBUF_SLOTS - 1))
         slots[b] = MAX2(slots[b], s + 1);
   }
   for (unsigned k = 0; k < ENV_MAX_CBUFS && !r->failed; k++)
      if (slots[k])
         env_set_cbuf(e, k, slots[k]);
   YR_EACH(r, seq, it)
   {
      yaml_node_t *dn = yr_get(r, it, "draw");
      d = 0;
      if ((!dn || yr_u32(r, dn, &d, e->ndraws - 1)) &&
          yr_u32(r, yr_need(r, it, "buffer"), &b, ENV_MAX_CBUFS - 1) &&
          yr_u32(r, yr_need(r, it, "slot"), &s, ENV_MAX_CBUF_SLOTS - 1))
         yr_words(r, yr_need(r, it, "bits"), env_cbuf(e, b, d) + s * 4, 4, 1);
   }
   return !r->failed;
}

static bool
yr_textures(struct yr *r, struct env *e, yaml_node_t *seq)
{
   static const char *const keys[] = {"unit",  "target", "return", "width", "height",
                                      "depth", "levels", "seed",   NULL};
   if (!yr_seq(r, seq))
      return false;
   YR_EACH(r, seq, it)
   {
      struct env_texture t = {0};
      uint32_t unit;
      int target, ret = TGSI_RET_FLOAT;
      yaml_node_t *rn = yr_get(r, it, "return");
      if (!yr_keys(r, it, keys) ||
          !yr_u32(r, yr_need(r, it, "unit"), &unit, ENV_MAX_TEXTURES - 1) ||
          !yr_name(r, yr_need(r, it, "target"), tgsi_texture_names, TGSI_TEX_COUNT, &target) ||
          (rn && !yr_name(r, rn, tgsi_return_type_names, TGSI_RET_COUNT, &ret)) ||
          !yr_u32(r, yr_need(r, it, "width"), &t.width, ENV_MAX_TEX_SIZE) ||
          !yr_u32(r, yr_need(r, it, "height"), &t.height, ENV_MAX_TEX_SIZE) ||
          !yr_u32(r, yr_need(r, it, "depth"), &t.depth, 65535) ||
          !yr_u32(r, yr_need(r, it, "levels"), &t.levels, 32) ||
          !yr_u64(r, yr_need(r, it, "seed"), &t.seed, UINT64_MAX))
         break;
      t.target = (enum tgsi_texture)target;
      t.ret = (enum tgsi_return_type)ret;
      if (!env_set_texture(e, unit, &t))
         yr_err(r, it, "texture %u: inconsistent size or levels", unit);
   }
   return !r->failed;
}

static bool
yr_hex(struct yr *r, yaml_node_t *n, uint8_t *out, uint32_t size)
{
   const char *s = yr_str(r, n);
   if (!s)
      return false;
   if (strlen(s) != (size_t)size * 2)
      return yr_err(r, n, "expected %u bytes of hex data", size);
   for (uint32_t i = 0; i < 2 * size; i++) {
      char c = s[i];
      int d = c >= '0' && c <= '9'   ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                     : -1;
      if (d < 0)
         return yr_err(r, n, "bad hex digit '%c'", c);
      out[i / 2] = (uint8_t)(i & 1 ? out[i / 2] | d : d << 4);
   }
   return true;
}

static bool
yr_memories(struct yr *r, struct env *e, yaml_node_t *bufs, yaml_node_t *imgs)
{
   static const char *const bkeys[] = {"index", "size", "data", NULL};
   static const char *const ikeys[] = {"index", "target", "width", "height", "depth", "data", NULL};
   if (bufs && yr_seq(r, bufs))
      YR_EACH(r, bufs, it)
      {
         uint32_t i, size;
         if (!yr_keys(r, it, bkeys) ||
             !yr_u32(r, yr_need(r, it, "index"), &i, ENV_MAX_BUFFERS - 1) ||
             !yr_u32(r, yr_need(r, it, "size"), &size, ENV_MAX_MEM_BYTES))
            break;
         if (!env_set_buffer(e, i, size))
            yr_err(r, it, "buffer size must be a multiple of 4");
         else
            yr_hex(r, yr_need(r, it, "data"), e->buf[i].data, size);
      }
   if (imgs && yr_seq(r, imgs))
      YR_EACH(r, imgs, it)
      {
         uint32_t i, w, h, d;
         int target;
         if (!yr_keys(r, it, ikeys) ||
             !yr_u32(r, yr_need(r, it, "index"), &i, ENV_MAX_IMAGES - 1) ||
             !yr_name(r, yr_need(r, it, "target"), tgsi_texture_names, TGSI_TEX_COUNT, &target) ||
             !yr_u32(r, yr_need(r, it, "width"), &w, 65536) ||
             !yr_u32(r, yr_need(r, it, "height"), &h, 65536) ||
             !yr_u32(r, yr_need(r, it, "depth"), &d, 65536))
            break;
         if (!env_set_image(e, i, (enum tgsi_texture)target, w, h, d))
            yr_err(r, it, "image %u is too large", i);
         else
            yr_hex(r, yr_need(r, it, "data"), e->img[i].mem.data, e->img[i].mem.size);
      }
   return !r->failed;
}

static bool
yr_triple(struct yr *r, yaml_node_t *root, const char *key, uint32_t out[3])
{
   yaml_node_t *n = yr_get(r, root, key);
   return !n || yr_words(r, n, out, 3, 1);
}

static struct env *
yr_env(struct yr *r, yaml_node_t *root)
{
   static const char *const keys[] = {
       "stage",       "invocations",  "seed",   "block_size",    "grid_size",     "shared_size",
       "in_vertices", "out_vertices", "inputs", "system_values", "constants",     "textures",
       "buffers",     "images",       "draws",  "lane_draws",    "subgroup_size", NULL};
   int stage;
   uint32_t n;
   if (!yr_keys(r, root, keys) ||
       !yr_name(r, yr_need(r, root, "stage"), tgsi_stage_names, TGSI_STAGE_COUNT, &stage) ||
       !yr_u32(r, yr_need(r, root, "invocations"), &n, ENV_MAX_LANES))
      return NULL;
   if (!n) {
      yr_err(r, yr_get(r, root, "invocations"), "at least one invocation is needed");
      return NULL;
   }
   struct env *e = env_new((enum tgsi_stage)stage, n);
   yaml_node_t *x;
   if ((x = yr_get(r, root, "seed")))
      yr_u64(r, x, &e->seed, UINT64_MAX);
   if ((x = yr_get(r, root, "shared_size")))
      yr_u32(r, x, &e->shared_size, ENV_MAX_MEM_BYTES);
   if ((x = yr_get(r, root, "subgroup_size")) &&
       yr_u32(r, x, &e->subgroup_size, ENV_MAX_SUBGROUP) && e->subgroup_size != 32 &&
       e->subgroup_size != 64)
      yr_err(r, x, "subgroup_size is 32 or 64");
   if ((x = yr_get(r, root, "in_vertices")))
      yr_u32(r, x, &e->in_vertices, 64);
   if ((x = yr_get(r, root, "out_vertices")))
      yr_u32(r, x, &e->out_vertices, 64);
   if (!e->in_vertices || !e->out_vertices)
      yr_err(r, root, "vertex counts must be at least 1");
   if (!r->failed && yr_triple(r, root, "block_size", e->block_size) &&
       yr_triple(r, root, "grid_size", e->grid_size)) {
      if ((x = yr_get(r, root, "inputs")))
         yr_inputs(r, e, x);
      else
         env_alloc_inputs(e, 0, e->in_vertices);
      if (!r->failed && (x = yr_get(r, root, "system_values")))
         yr_system_values(r, e, x);
      if (!r->failed)
         yr_draws(r, e, yr_get(r, root, "draws"), yr_get(r, root, "lane_draws"));
      if (!r->failed && (x = yr_get(r, root, "constants")))
         yr_constants(r, e, x);
      if (!r->failed && (x = yr_get(r, root, "textures")))
         yr_textures(r, e, x);
      if (!r->failed)
         yr_memories(r, e, yr_get(r, root, "buffers"), yr_get(r, root, "images"));
   }
   if (r->failed) {
      env_free(e);
      return NULL;
   }
   return e;
}

struct env *
diff_inputs_from_yaml(const char *text, size_t len, const char *filename, struct diag_list *diags)
{
   struct yr r = {.text = text, .len = len, .file = filename ? filename : "<inputs>", .d = diags};
   yaml_parser_t parser;
   yaml_parser_initialize(&parser);
   yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
   if (!yaml_parser_load(&parser, &r.doc)) {
      size_t line = parser.problem_mark.line;
      diag_add(diags, DIAG_ERROR, r.file, (int)line + 1, (int)parser.problem_mark.column + 1,
               line_start(text, len, line), "YAML: %s",
               parser.problem ? parser.problem : "syntax error");
      yaml_parser_delete(&parser);
      return NULL;
   }
   yaml_parser_delete(&parser);
   struct env *e = NULL;
   yaml_node_t *root = yaml_document_get_root_node(&r.doc);
   if (!root)
      yr_err(&r, NULL, "the inputs file is empty");
   else
      e = yr_env(&r, root);
   yaml_document_delete(&r.doc);
   return e;
}
