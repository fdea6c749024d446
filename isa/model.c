/*
 * The one YAML loader: reads isa/models/<name>.yaml (schema in
 * isa/README.md) into struct isa_model, resolving every name to an index so
 * that nothing downstream looks anything up by string. Any unknown key or
 * name is an error with the file:line:col of the offending node (libyaml
 * marks). After loading, check.c runs the model checker; a model that fails
 * either is never returned.
 *
 * The loader never trusts sizes from the file: every bit range is checked
 * against the container it lives in before anything indexes with it.
 */
#include "isa/isa_priv.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <yaml.h>

struct ld {
   struct isa_model *m;
   yaml_document_t doc;
   bool failed;
};

/* ------------------------------------------------------------------ */
/* Diagnostics and small helpers shared with the other isa/ files.     */

void
isa_error_at(const struct isa_model *m, struct isa_pos pos, const char *fmt, ...)
{
   if (!m->diag)
      return;
   const char *ls = NULL;
   if (m->text && pos.line > 0) {
      ls = m->text;
      for (int l = 1; l < pos.line && ls; l++) {
         ls = strchr(ls, '\n');
         if (ls)
            ls++;
      }
   }
   va_list ap;
   va_start(ap, fmt);
   char *msg = xvasprintf(fmt, ap);
   va_end(ap);
   /* Ops inherit layout fields: report a layout's defect once, not per op. */
   for (unsigned i = 0; i < m->diag->n; i++) {
      const struct diag *d = &m->diag->v[i];
      if (d->line == pos.line && d->col == pos.col && !strcmp(d->msg, msg)) {
         free(msg);
         return;
      }
   }
   diag_add(m->diag, DIAG_ERROR, m->file, pos.line, pos.col, ls, "%s", msg);
   free(msg);
}

uint64_t
isa_field_get(const struct isa_field *f, const struct isa_bits *b)
{
   uint64_t v = 0;
   unsigned at = 0;
   for (unsigned i = 0; i < f->nr; i++) {
      v |= isa_bits_get(b, f->r[i].lo, f->r[i].len) << at;
      at += f->r[i].len;
   }
   return v;
}

void
isa_field_set(const struct isa_field *f, struct isa_bits *b, uint64_t v)
{
   for (unsigned i = 0; i < f->nr; i++) {
      isa_bits_set(b, f->r[i].lo, f->r[i].len, v & isa_mask64(f->r[i].len));
      v >>= f->r[i].len;
   }
}

uint64_t
isa_field_get64(const struct isa_field *f, uint64_t w)
{
   struct isa_bits b = {{w, 0}};
   return isa_field_get(f, &b);
}

uint64_t
isa_field_set64(const struct isa_field *f, uint64_t w, uint64_t v)
{
   struct isa_bits b = {{w, 0}};
   isa_field_set(f, &b, v);
   return b.w[0];
}

bool
isa_guards_hold(const struct isa_guard *g, unsigned n, const int64_t *vals)
{
   for (unsigned i = 0; i < n; i++) {
      int64_t a = vals[g[i].a];
      int64_t b = g[i].b >= 0 ? vals[g[i].b] : g[i].val;
      if ((g[i].op == ISA_GUARD_EQ) != (a == b))
         return false;
   }
   return true;
}

const struct isa_enum_entry *
isa_enum_entry(const struct isa_enum *e, int32_t value)
{
   for (unsigned i = 0; i < e->n; i++)
      if (e->v[i].value == value)
         return &e->v[i];
   return NULL;
}

int
isa_fmt_print(char *buf, size_t size, const struct isa_fmt *f, int64_t v, const char *s)
{
   char mid[64] = "";
   if (f->conv == 's')
      snprintf(mid, sizeof(mid), "%s", s ? s : "");
   else if (f->conv == 'd')
      snprintf(mid, sizeof(mid), f->spec, (long long)v);
   else if (f->conv)
      snprintf(mid, sizeof(mid), f->spec, (unsigned long long)v);
   return snprintf(buf, size, "%s%s%s", f->pre, mid, f->post);
}

enum isa_type
isa_slot_type(const struct isa_model *m, const struct isa_op *op, const struct isa_slot *s,
              const int16_t *mods)
{
   (void)op;
   if (s->type_mod >= 0) {
      const struct isa_mod *md = &m->mods[s->type_mod];
      const struct isa_enum_entry *e = isa_enum_entry(&m->enums[md->enm], mods[s->type_mod]);
      return e ? (enum isa_type)e->type : ISA_TYPE_NONE;
   }
   return (enum isa_type)s->type;
}

unsigned
isa_slot_width(const struct isa_model *m, const struct isa_op *op, const struct isa_slot *s,
               const int16_t *mods)
{
   if (s->width)
      return s->width;
   if (s->width_mod >= 0) {
      const struct isa_mod *md = &m->mods[s->width_mod];
      const struct isa_enum_entry *e = isa_enum_entry(&m->enums[md->enm], mods[s->width_mod]);
      if (e && e->width)
         return e->width;
      if (e && e->type)
         return isa_type_bits(e->type);
      return 32;
   }
   unsigned w = isa_type_bits(isa_slot_type(m, op, s, mods));
   return w ? w : 32;
}

/* ------------------------------------------------------------------ */
/* YAML access.                                                        */

static struct isa_pos
npos(const yaml_node_t *n)
{
   return (struct isa_pos){(int)n->start_mark.line + 1, (int)n->start_mark.column + 1};
}

DC_PRINTF(3, 4) static void err(struct ld *l, const yaml_node_t *n, const char *fmt, ...)
{
   char *msg;
   va_list ap;
   va_start(ap, fmt);
   msg = xvasprintf(fmt, ap);
   va_end(ap);
   isa_error_at(l->m, n ? npos(n) : (struct isa_pos){0, 0}, "%s", msg);
   free(msg);
   l->failed = true;
}

static yaml_node_t *
ynode(struct ld *l, int i)
{
   return yaml_document_get_node(&l->doc, i);
}

static const char *
scalar(struct ld *l, yaml_node_t *n, const char *what)
{
   if (!n || n->type != YAML_SCALAR_NODE) {
      err(l, n, "%s must be a scalar", what);
      return NULL;
   }
   return (const char *)n->data.scalar.value;
}

static bool
is_map(struct ld *l, yaml_node_t *n, const char *what)
{
   if (n && n->type == YAML_MAPPING_NODE)
      return true;
   err(l, n, "%s must be a mapping", what);
   return false;
}

#define MAP_EACH(l, map, k, v)                                                                     \
   for (yaml_node_pair_t *p_ = (map)->data.mapping.pairs.start;                                    \
        p_ < (map)->data.mapping.pairs.top; p_++)                                                  \
      for (yaml_node_t *k = ynode(l, p_->key), *v = ynode(l, p_->value); k; k = NULL)

#define SEQ_EACH(l, seq, v)                                                                        \
   for (yaml_node_item_t *i_ = (seq)->data.sequence.items.start;                                   \
        i_ < (seq)->data.sequence.items.top; i_++)                                                 \
      for (yaml_node_t *v = ynode(l, *i_); v; v = NULL)

static const char *
key_str(yaml_node_t *k)
{
   return k && k->type == YAML_SCALAR_NODE ? (const char *)k->data.scalar.value : "";
}

static yaml_node_t *
get(struct ld *l, yaml_node_t *map, const char *key)
{
   if (!map || map->type != YAML_MAPPING_NODE)
      return NULL;
   MAP_EACH(l, map, k, v)
   if (!strcmp(key_str(k), key))
      return v;
   return NULL;
}

/* Every key of map must be in the NULL-terminated list: a typo in a model is
 * an error, never a silently ignored setting. */
static void
check_keys(struct ld *l, yaml_node_t *map, const char *what, const char *const *keys)
{
   if (!map || map->type != YAML_MAPPING_NODE)
      return;
   MAP_EACH(l, map, k, v)
   {
      const char *s = key_str(k);
      bool ok = false;
      for (unsigned i = 0; keys[i]; i++)
         ok |= !strcmp(keys[i], s);
      if (!ok)
         err(l, k, "unknown key '%s' in %s", s, what);
      (void)v;
   }
}

static bool
parse_i64(const char *s, int64_t *out)
{
   if (!s || !*s)
      return false;
   bool neg = *s == '-';
   const char *p = neg || *s == '+' ? s + 1 : s;
   int base = 10;
   if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
      base = 16, p += 2;
   else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B'))
      base = 2, p += 2;
   if (!*p)
      return false;
   char *end;
   errno = 0;
   unsigned long long v = strtoull(p, &end, base);
   if (errno || *end || v > (1ull << 63))
      return false;
   *out = neg ? -(int64_t)v : (int64_t)v;
   return true;
}

static bool
get_int(struct ld *l, yaml_node_t *n, const char *what, int64_t lo, int64_t hi, int64_t *out)
{
   const char *s = scalar(l, n, what);
   if (!s)
      return false;
   int64_t v;
   if (!parse_i64(s, &v)) {
      err(l, n, "%s: '%s' is not an integer", what, s);
      return false;
   }
   if (v < lo || v > hi) {
      err(l, n, "%s: %lld is out of range [%lld, %lld]", what, (long long)v, (long long)lo,
          (long long)hi);
      return false;
   }
   *out = v;
   return true;
}

static int
opt_int(struct ld *l, yaml_node_t *map, const char *key, int64_t lo, int64_t hi, int def)
{
   yaml_node_t *n = get(l, map, key);
   int64_t v;
   if (!n)
      return def;
   return get_int(l, n, key, lo, hi, &v) ? (int)v : def;
}

static bool
opt_bool(struct ld *l, yaml_node_t *map, const char *key, bool def)
{
   yaml_node_t *n = get(l, map, key);
   if (!n)
      return def;
   const char *s = scalar(l, n, key);
   if (s && (!strcmp(s, "true") || !strcmp(s, "yes")))
      return true;
   if (s && (!strcmp(s, "false") || !strcmp(s, "no")))
      return false;
   if (s)
      err(l, n, "%s must be true or false", key);
   return def;
}

static char *
opt_str(struct ld *l, yaml_node_t *map, const char *key)
{
   yaml_node_t *n = get(l, map, key);
   if (!n)
      return NULL;
   const char *s = scalar(l, n, key);
   return s ? xstrdup(s) : NULL;
}

/* Index of `name` in an array of structs whose first member is `char *name`,
 * or -1. */
static int
find_name(const void *arr, unsigned n, size_t stride, const char *name)
{
   for (unsigned i = 0; i < n; i++) {
      char *const *p = (char *const *)(const void *)((const char *)arr + i * stride);
      if (*p && name && !strcmp(*p, name))
         return (int)i;
   }
   return -1;
}
#define FIND(arr, n, nm) find_name((arr), (n), sizeof(*(arr)), (nm))

/* ------------------------------------------------------------------ */
/* Bit ranges, fields, patterns and guards.                            */

/* "N" or "LO..HI" (inclusive), both below limit. */
static bool
parse_span(struct ld *l, yaml_node_t *n, uint64_t limit, int64_t *lo, int64_t *hi)
{
   const char *s = scalar(l, n, "bit range");
   if (!s)
      return false;
   const char *dots = strstr(s, "..");
   if (dots) {
      char *a = xstrndup(s, (size_t)(dots - s));
      bool ok = parse_i64(a, lo) && parse_i64(dots + 2, hi);
      free(a);
      if (!ok) {
         err(l, n, "bad range '%s' (expected LO..HI)", s);
         return false;
      }
   } else if (parse_i64(s, lo)) {
      *hi = *lo;
   } else {
      err(l, n, "bad range '%s' (expected N or LO..HI)", s);
      return false;
   }
   if (*lo < 0 || *hi < *lo) {
      err(l, n, "bad range '%s': low end must be >= 0 and <= high end", s);
      return false;
   }
   if ((uint64_t)*hi >= limit) {
      err(l, n, "range %s is outside the %llu-bit container", s, (unsigned long long)limit);
      return false;
   }
   return true;
}

static bool
parse_range1(struct ld *l, yaml_node_t *n, unsigned limit, struct isa_range *r)
{
   int64_t lo, hi;
   if (!parse_span(l, n, limit, &lo, &hi))
      return false;
   r->lo = (uint8_t)lo;
   r->len = (uint8_t)(hi - lo + 1);
   return true;
}

/* `bits:` -- "N", "LO..HI" or a list of those (least significant first). */
static bool
parse_bits(struct ld *l, yaml_node_t *n, unsigned limit, struct isa_field *f)
{
   f->nr = 0;
   f->width = 0;
   if (n && n->type == YAML_SEQUENCE_NODE) {
      SEQ_EACH(l, n, v)
      {
         if (f->nr == ISA_MAX_RANGES) {
            err(l, v, "a field has at most %d bit ranges", ISA_MAX_RANGES);
            return false;
         }
         if (!parse_range1(l, v, limit, &f->r[f->nr]))
            return false;
         f->width += f->r[f->nr++].len;
      }
   } else {
      if (!parse_range1(l, n, limit, &f->r[0]))
         return false;
      f->nr = 1;
      f->width = f->r[0].len;
   }
   if (f->nr == 0 || f->width > 64) {
      err(l, n, "a field must have 1 to 64 bits");
      return false;
   }
   return true;
}

/* A match value: a plain integer, or a quoted pattern of 0/1/x written most
 * significant bit first (x: not fixed). */
static bool
parse_pattern(struct ld *l, yaml_node_t *n, unsigned width, uint64_t *mask, uint64_t *val)
{
   const char *s = scalar(l, n, "match value");
   if (!s)
      return false;
   if (n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
      int64_t v;
      if (!parse_i64(s, &v)) {
         err(l, n, "match value '%s' is not an integer (quote 0/1/x patterns)", s);
         return false;
      }
      if (v < 0 || (width < 64 && (uint64_t)v >> width)) {
         err(l, n, "match value %s does not fit %u bits", s, width);
         return false;
      }
      *mask = isa_mask64(width);
      *val = (uint64_t)v;
      return true;
   }
   if (strlen(s) != width) {
      err(l, n, "pattern '%s' has %zu characters for %u bits", s, strlen(s), width);
      return false;
   }
   *mask = *val = 0;
   for (unsigned i = 0; i < width; i++) {
      char c = s[width - 1 - i];
      if (c == '0' || c == '1') {
         *mask |= 1ull << i;
         *val |= (uint64_t)(c == '1') << i;
      } else if (c != 'x') {
         err(l, n, "pattern '%s' may only hold 0, 1 and x", s);
         return false;
      }
   }
   return true;
}

static int
field_find(struct isa_field *f, unsigned n, const char *name)
{
   return FIND(f, n, name);
}

/* `match:` keys are field names or bit ranges. Fields named there become
 * ISA_FK_FIXED when fix is set (an op fixing a layout field). */
static void
parse_match(struct ld *l, yaml_node_t *map, struct isa_field *fields, unsigned nfields,
            unsigned limit, struct isa_bits *mask, struct isa_bits *match, bool fix)
{
   if (!is_map(l, map, "match"))
      return;
   MAP_EACH(l, map, k, v)
   {
      struct isa_field tmp = {0};
      struct isa_field *f = &tmp;
      int fi = field_find(fields, nfields, key_str(k));
      if (fi >= 0) {
         f = &fields[fi];
      } else if (!(key_str(k)[0] >= '0' && key_str(k)[0] <= '9')) {
         err(l, k, "'%s' is neither a field nor a bit range", key_str(k));
         continue;
      } else if (!parse_bits(l, k, limit, &tmp)) {
         continue;
      }
      uint64_t fm, fv;
      if (!parse_pattern(l, v, f->width, &fm, &fv))
         continue;
      struct isa_bits mb = {{0, 0}}, vb = {{0, 0}};
      isa_field_set(f, &mb, fm);
      isa_field_set(f, &vb, fv);
      if ((mask->w[0] & mb.w[0]) | (mask->w[1] & mb.w[1])) {
         err(l, k, "'%s' is matched twice", key_str(k));
         continue;
      }
      for (int w = 0; w < 2; w++) {
         mask->w[w] |= mb.w[w];
         match->w[w] |= vb.w[w];
      }
      if (fi >= 0 && fix) {
         if (fm != isa_mask64(f->width))
            err(l, v, "fixing field '%s' needs every bit (use bit ranges for partial patterns)",
                f->name);
         f->kind = ISA_FK_FIXED;
      }
   }
}

static void
parse_ignore(struct ld *l, yaml_node_t *n, unsigned limit, struct isa_bits *ign)
{
   struct isa_field f = {0};
   if (n && n->type == YAML_SEQUENCE_NODE &&
       n->data.sequence.items.start == n->data.sequence.items.top)
      return;
   if (!parse_bits(l, n, limit, &f))
      return;
   struct isa_bits b = {{0, 0}};
   isa_field_set(&f, &b, ~0ull);
   ign->w[0] |= b.w[0];
   ign->w[1] |= b.w[1];
}

/* "a == b", "a != 3", joined by "&&". */
static uint8_t
parse_guards(struct ld *l, yaml_node_t *n, struct isa_field *fields, unsigned nfields,
             struct isa_guard *g)
{
   const char *s = scalar(l, n, "condition");
   if (!s)
      return 0;
   uint8_t ng = 0;
   char *copy = xstrdup(s), *save = NULL;
   for (char *part = copy; part; part = save) {
      save = strstr(part, "&&");
      if (save) {
         *save = 0;
         save += 2;
      }
      char a[64], op[3], b[64];
      if (sscanf(part, " %63[A-Za-z0-9_.] %2[=!] %63[A-Za-z0-9_.x-] ", a, op, b) != 3 ||
          (strcmp(op, "==") && strcmp(op, "!="))) {
         err(l, n, "bad condition '%s' (expected NAME == VALUE or NAME != NAME, joined by &&)", s);
         break;
      }
      if (ng == ISA_MAX_GUARDS) {
         err(l, n, "at most %d conditions joined by &&", ISA_MAX_GUARDS);
         break;
      }
      struct isa_guard *gg = &g[ng];
      gg->op = op[0] == '=' ? ISA_GUARD_EQ : ISA_GUARD_NE;
      gg->a = (int16_t)field_find(fields, nfields, a);
      if (gg->a < 0) {
         err(l, n, "unknown field '%s' in condition", a);
         break;
      }
      int64_t v;
      if (parse_i64(b, &v)) {
         gg->b = -1;
         gg->val = (int32_t)v;
      } else {
         gg->b = (int16_t)field_find(fields, nfields, b);
         if (gg->b < 0) {
            err(l, n, "unknown field '%s' in condition", b);
            break;
         }
      }
      ng++;
   }
   free(copy);
   return ng;
}

static const struct {
   const char *name;
   uint8_t flag;
} flag_names[] = {
    {"neg", ISA_OPND_F_NEG},   {"abs", ISA_OPND_F_ABS}, {"r", ISA_OPND_F_R},
    {"sext", ISA_OPND_F_SEXT}, {"not", ISA_OPND_F_NOT}, {"last", ISA_OPND_F_LAST},
    {"hi", ISA_OPND_F_HI},
};

static uint8_t
flag_find(const char *s)
{
   for (unsigned i = 0; i < ARRAY_SIZE(flag_names); i++)
      if (!strcmp(flag_names[i].name, s))
         return flag_names[i].flag;
   return 0;
}

static const char *const field_keys[] = {"bits", "mod", "operand", "flag", "when", "doc", NULL};

/* Parses the fields of a container (layout, format, case, bundle slot).
 * in_operand: flags decorate the container's own operand (format, case). */
static struct isa_field *
parse_fields(struct ld *l, yaml_node_t *map, unsigned limit, bool in_operand, unsigned *out_n)
{
   *out_n = 0;
   if (!map)
      return NULL;
   if (!is_map(l, map, "fields"))
      return NULL;
   unsigned n = (unsigned)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
   struct isa_field *f = xcalloc(n ? n : 1, sizeof(*f));
   unsigned i = 0;
   MAP_EACH(l, map, k, v)
   {
      struct isa_field *x = &f[i++];
      x->name = xstrdup(key_str(k));
      x->pos = npos(k);
      x->mod = x->format = x->target = -1;
      if (field_find(f, i - 1, x->name) >= 0)
         err(l, k, "duplicate field '%s'", x->name);
      if (v->type != YAML_MAPPING_NODE) {
         parse_bits(l, v, limit, x);
         continue;
      }
      check_keys(l, v, "field", field_keys);
      yaml_node_t *b = get(l, v, "bits");
      if (!b)
         err(l, v, "field '%s' has no bits", x->name);
      else
         parse_bits(l, b, limit, x);
      const char *s;
      if ((b = get(l, v, "mod")) && (s = scalar(l, b, "mod"))) {
         x->kind = ISA_FK_MOD;
         x->mod = (int16_t)FIND(l->m->mods, l->m->nmods, s);
         if (x->mod < 0)
            err(l, b, "unknown modifier '%s'", s);
      } else if ((b = get(l, v, "operand")) && (s = scalar(l, b, "operand"))) {
         x->kind = ISA_FK_OPERAND;
         x->format = (int16_t)FIND(l->m->formats, l->m->nformats, s);
         if (x->format < 0)
            err(l, b, "unknown operand format '%s'", s);
      } else if ((b = get(l, v, "flag"))) {
         x->kind = ISA_FK_FLAG;
         yaml_node_t *fl = b;
         if (!in_operand) {
            if (b->type != YAML_SEQUENCE_NODE ||
                b->data.sequence.items.top - b->data.sequence.items.start != 2) {
               err(l, b, "flag must be [OPERAND_FIELD, FLAG] here");
               continue;
            }
            fl = ynode(l, b->data.sequence.items.start[1]);
         }
         s = scalar(l, fl, "flag");
         if (s && !(x->flag = flag_find(s)))
            err(l, fl, "unknown operand flag '%s' (neg, abs, r, sext, not, last, hi)", s);
      }
   }
   /* Second pass: names of sibling fields (flag targets, conditions). */
   i = 0;
   MAP_EACH(l, map, k, v)
   {
      struct isa_field *x = &f[i++];
      (void)k;
      yaml_node_t *b;
      if (x->kind == ISA_FK_FLAG && !in_operand && (b = get(l, v, "flag")) &&
          b->type == YAML_SEQUENCE_NODE) {
         yaml_node_t *t = ynode(l, b->data.sequence.items.start[0]);
         const char *s = scalar(l, t, "flag operand");
         x->target = s ? (int16_t)field_find(f, n, s) : -1;
         if (s && (x->target < 0 || f[x->target].kind != ISA_FK_OPERAND))
            err(l, t, "'%s' is not an operand field", s);
      }
      if (v->type == YAML_MAPPING_NODE && (b = get(l, v, "when")))
         x->nguard = parse_guards(l, b, f, n, x->guard);
   }
   *out_n = n;
   return f;
}

static struct isa_field *
copy_fields(const struct isa_field *f, unsigned n, unsigned extra)
{
   struct isa_field *c = xcalloc(n + extra ? n + extra : 1, sizeof(*c));
   for (unsigned i = 0; i < n; i++) {
      c[i] = f[i];
      c[i].name = xstrdup(f[i].name);
   }
   return c;
}

/* A display pattern: literal text with at most one %d/%u/%x/%s conversion
 * (flags and width allowed). The conversion is validated here because the
 * printer hands it to snprintf. */
static bool
parse_fmt(struct ld *l, yaml_node_t *n, const char *s, const char *allowed, struct isa_fmt *f)
{
   const char *pc = strchr(s, '%');
   memset(f, 0, sizeof(*f));
   if (!pc) {
      f->pre = xstrdup(s);
      f->post = xstrdup("");
      return true;
   }
   const char *q = pc + 1;
   while (*q && strchr("+-0 #", *q))
      q++;
   while (*q >= '0' && *q <= '9')
      q++;
   if (!*q || !strchr(allowed, *q) || (size_t)(q - pc + 1) >= sizeof(f->spec) - 3 ||
       strchr(q + 1, '%')) {
      err(l, n, "display pattern '%s' must hold one conversion out of %%[%s]", s, allowed);
      return false;
   }
   f->pre = xstrndup(s, (size_t)(pc - s));
   f->post = xstrdup(q + 1);
   f->conv = *q;
   /* Integer conversions print long long. */
   size_t sl = (size_t)(q - pc);
   memcpy(f->spec, pc, sl);
   if (*q == 's')
      f->spec[sl] = 's';
   else
      snprintf(f->spec + sl, sizeof(f->spec) - sl, "ll%c", *q);
   return true;
}

/* ------------------------------------------------------------------ */
/* Register files, register numbering, enums, tables, modifiers.       */

static int
lookup_str(const char *const *names, unsigned n, const char *s)
{
   for (unsigned i = 0; i < n; i++)
      if (!strcmp(names[i], s))
         return (int)i;
   return -1;
}

#define NAME_(n, s, ...) s,
static const char *const file_kind_names[] = {ISA_FILE_KINDS(NAME_)};
static const char *const type_names[] = {ISA_TYPES(NAME_)};
static const char *const sem_names[] = {ISA_SEMS(NAME_)};
static const char *const role_names[] = {ISA_ROLES(NAME_)};
static const char *const hazard_names[] = {ISA_HAZARD_KINDS(NAME_)};
static const char *const sync_names[] = {ISA_SYNCS(NAME_)};
static const char *const illegal_names[] = {ISA_ILLEGALS(NAME_)};
static const char *const err_names[] = {ISA_ERRORS(NAME_)};
#undef NAME_
#define BITS_(n, s, b, f) b,
static const uint8_t type_bits[] = {ISA_TYPES(BITS_)};
#undef BITS_
#define FLT_(n, s, b, f) f,
static const uint8_t type_float[] = {ISA_TYPES(FLT_)};
#undef FLT_
#define ARITY_(n, s, a) a,
static const int8_t sem_arity[] = {ISA_SEMS(ARITY_)};
#undef ARITY_

static int
enum_lookup(struct ld *l, yaml_node_t *n, const char *what, const char *const *names, unsigned cnt)
{
   const char *s = scalar(l, n, what);
   if (!s)
      return -1;
   int i = lookup_str(names, cnt, s);
   if (i < 0)
      err(l, n, "unknown %s '%s'", what, s);
   return i;
}

static void
parse_regfiles(struct ld *l, yaml_node_t *map)
{
   static const char *const keys[] = {"kind",  "count", "width", "print", "prefix",
                                      "names", "half",  "alias", "doc",   NULL};
   struct isa_model *m = l->m;
   if (!is_map(l, map, "regfiles"))
      return;
   m->files = xcalloc((size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start) + 1,
                      sizeof(*m->files));
   MAP_EACH(l, map, k, v)
   {
      struct isa_regfile *f = &m->files[m->nfiles++];
      f->name = xstrdup(key_str(k));
      f->pos = npos(k);
      f->half = f->alias = -1;
      if (FIND(m->files, m->nfiles - 1, f->name) >= 0)
         err(l, k, "duplicate register file '%s'", f->name);
      if (!is_map(l, v, "register file"))
         continue;
      check_keys(l, v, "register file", keys);
      yaml_node_t *x = get(l, v, "kind");
      int kind =
          x ? enum_lookup(l, x, "register file kind", file_kind_names, ISA_FILE_KIND_COUNT) : -1;
      if (!x)
         err(l, v, "register file '%s' has no kind", f->name);
      f->kind = kind < 0 ? ISA_FILE_FULL : (enum isa_file_kind)kind;
      f->count = (unsigned)opt_int(l, v, "count", 1, 65536, 0);
      f->width = (unsigned)opt_int(l, v, "width", 1, 64, 32);
      if (!f->count)
         err(l, v, "register file '%s' needs a count", f->name);
      char *pr = opt_str(l, v, "print");
      if (!pr || !strcmp(pr, "scalar"))
         f->print = ISA_PRINT_SCALAR;
      else if (!strcmp(pr, "vec4"))
         f->print = ISA_PRINT_VEC4;
      else if (!strcmp(pr, "halves"))
         f->print = ISA_PRINT_HALVES;
      else
         err(l, get(l, v, "print"), "print must be scalar, vec4 or halves");
      free(pr);
      f->prefix = opt_str(l, v, "prefix");
      if (!f->prefix)
         f->prefix = xstrdup(f->name);
      if ((x = get(l, v, "names"))) {
         f->names = xcalloc(f->count, sizeof(char *));
         if (x->type == YAML_SEQUENCE_NODE) {
            unsigned i = 0;
            SEQ_EACH(l, x, e)
            {
               const char *s = scalar(l, e, "register name");
               if (i >= f->count)
                  err(l, e, "more names than registers");
               else if (s)
                  f->names[i] = xstrdup(s);
               i++;
            }
         } else if (is_map(l, x, "names")) {
            MAP_EACH(l, x, nk, nv)
            {
               int64_t idx;
               const char *s = scalar(l, nv, "register name");
               if (get_int(l, nk, "register index", 0, f->count - 1, &idx) && s)
                  f->names[idx] = xstrdup(s);
            }
         }
      }
   }
   /* half/alias name other files: resolve once all are known. */
   for (unsigned i = 0; i < m->nfiles; i++) {
      yaml_node_t *v = get(l, map, m->files[i].name), *x;
      if (!v || v->type != YAML_MAPPING_NODE)
         continue;
      if ((x = get(l, v, "half"))) {
         const char *s = scalar(l, x, "half");
         m->files[i].half = s ? FIND(m->files, m->nfiles, s) : -1;
         if (s && m->files[i].half < 0)
            err(l, x, "unknown register file '%s'", s);
      }
      if ((x = get(l, v, "alias"))) {
         const char *s = scalar(l, x, "alias");
         int a = s ? FIND(m->files, m->nfiles, s) : -1;
         if (s && a < 0)
            err(l, x, "unknown register file '%s'", s);
         else if (a >= 0)
            m->files[a].alias = (int)i;
      }
   }
}

static void
parse_regsets(struct ld *l, yaml_node_t *map)
{
   struct isa_model *m = l->m;
   static const char *const keys[] = {"values", "file", "base", NULL};
   if (!is_map(l, map, "regsets"))
      return;
   m->regsets = xcalloc((size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start) + 1,
                        sizeof(*m->regsets));
   MAP_EACH(l, map, k, v)
   {
      struct isa_regset *rs = &m->regsets[m->nregsets++];
      rs->name = xstrdup(key_str(k));
      rs->pos = npos(k);
      if (FIND(m->regsets, m->nregsets - 1, rs->name) >= 0)
         err(l, k, "duplicate regset '%s'", rs->name);
      if (!v || v->type != YAML_SEQUENCE_NODE) {
         err(l, v, "regset '%s' must be a list of {values, file}", rs->name);
         continue;
      }
      rs->v = xcalloc((size_t)(v->data.sequence.items.top - v->data.sequence.items.start) + 1,
                      sizeof(*rs->v));
      SEQ_EACH(l, v, e)
      {
         if (!is_map(l, e, "regset entry"))
            continue;
         check_keys(l, e, "regset entry", keys);
         struct isa_regrange *r = &rs->v[rs->n++];
         yaml_node_t *x = get(l, e, "values");
         int64_t lo, hi;
         if (!x) {
            err(l, e, "regset entry needs values: LO..HI");
            continue;
         }
         if (!parse_span(l, x, 1u << 16, &lo, &hi))
            continue;
         r->from = (unsigned)lo;
         r->to = (unsigned)hi;
         r->base = (unsigned)opt_int(l, e, "base", 0, 65535, 0);
         const char *fs = (x = get(l, e, "file")) ? scalar(l, x, "file") : NULL;
         r->file = fs ? FIND(m->files, m->nfiles, fs) : -1;
         if (!x)
            err(l, e, "regset entry needs a file");
         else if (fs && r->file < 0)
            err(l, x, "unknown register file '%s'", fs);
         else if (r->file >= 0 && r->base + (r->to - r->from) >= m->files[r->file].count)
            err(l, e, "values %u..%u exceed the %u registers of '%s'", r->from, r->to,
                m->files[r->file].count, fs);
      }
   }
}

static void
parse_enums(struct ld *l, yaml_node_t *map)
{
   static const char *const keys[] = {"value", "print", "flip", "type", "width", NULL};
   struct isa_model *m = l->m;
   if (!is_map(l, map, "enums"))
      return;
   m->enums = xcalloc((size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start) + 1,
                      sizeof(*m->enums));
   MAP_EACH(l, map, k, v)
   {
      struct isa_enum *e = &m->enums[m->nenums++];
      e->name = xstrdup(key_str(k));
      e->pos = npos(k);
      if (FIND(m->enums, m->nenums - 1, e->name) >= 0)
         err(l, k, "duplicate enum '%s'", e->name);
      if (!is_map(l, v, "enum"))
         continue;
      e->v = xcalloc((size_t)(v->data.mapping.pairs.top - v->data.mapping.pairs.start) + 1,
                     sizeof(*e->v));
      MAP_EACH(l, v, ek, ev)
      {
         struct isa_enum_entry *x = &e->v[e->n++];
         int64_t val = 0;
         x->name = xstrdup(key_str(ek));
         x->pos = npos(ek);
         x->flip = -1;
         if (FIND(e->v, e->n - 1, x->name) >= 0)
            err(l, ek, "duplicate entry '%s' in enum '%s'", x->name, e->name);
         if (ev->type == YAML_MAPPING_NODE) {
            check_keys(l, ev, "enum entry", keys);
            yaml_node_t *vn = get(l, ev, "value");
            if (!vn)
               err(l, ev, "enum entry '%s' needs a value", x->name);
            else
               get_int(l, vn, "value", INT32_MIN, INT32_MAX, &val);
            x->print = opt_str(l, ev, "print");
            yaml_node_t *t = get(l, ev, "type");
            if (t) {
               int ti = enum_lookup(l, t, "type", type_names, ISA_TYPE_COUNT);
               x->type = ti < 0 ? 0 : (uint8_t)ti;
            }
            x->width = (uint8_t)opt_int(l, ev, "width", 1, 64, 0);
         } else {
            get_int(l, ev, "enum value", INT32_MIN, INT32_MAX, &val);
         }
         x->value = (int32_t)val;
         if (!x->print)
            x->print = xstrdup(x->name);
         for (unsigned i = 0; i + 1 < e->n; i++)
            if (e->v[i].value == x->value)
               err(l, ek, "enum '%s': '%s' repeats the value of '%s'", e->name, x->name,
                   e->v[i].name);
      }
      /* Flip partners name entries of the same enum. */
      unsigned i = 0;
      MAP_EACH(l, v, ek, ev)
      {
         yaml_node_t *fn;
         (void)ek;
         if (ev->type == YAML_MAPPING_NODE && (fn = get(l, ev, "flip"))) {
            const char *s = scalar(l, fn, "flip");
            e->v[i].flip = s ? (int16_t)FIND(e->v, e->n, s) : -1;
            if (s && e->v[i].flip < 0)
               err(l, fn, "flip names '%s', not an entry of enum '%s'", s, e->name);
         }
         i++;
      }
   }
}

static void
parse_luts(struct ld *l, yaml_node_t *map)
{
   struct isa_model *m = l->m;
   if (!is_map(l, map, "luts"))
      return;
   m->luts = xcalloc((size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start) + 1,
                     sizeof(*m->luts));
   MAP_EACH(l, map, k, v)
   {
      struct isa_lut *t = &m->luts[m->nluts++];
      t->name = xstrdup(key_str(k));
      if (!v || v->type != YAML_SEQUENCE_NODE) {
         err(l, v, "lut '%s' must be a list of numbers", t->name);
         continue;
      }
      t->v = xcalloc((size_t)(v->data.sequence.items.top - v->data.sequence.items.start) + 1,
                     sizeof(uint32_t));
      SEQ_EACH(l, v, e)
      {
         const char *s = scalar(l, e, "lut value");
         int64_t raw;
         char *end = NULL;
         if (!s)
            continue;
         if (!strncmp(s, "0x", 2) && parse_i64(s, &raw) && raw <= UINT32_MAX) {
            t->v[t->n++] = (uint32_t)raw; /* raw f32 bits */
            continue;
         }
         double d = strtod(s, &end);
         if (!*s || *end)
            err(l, e, "'%s' is not a number", s);
         t->v[t->n++] = fui((float)d);
      }
   }
}

static void
parse_mods(struct ld *l, yaml_node_t *map)
{
   static const char *const keys[] = {"kind",  "enum",   "max", "role",
                                      "print", "always", "doc", NULL};
   struct isa_model *m = l->m;
   if (!is_map(l, map, "modifiers"))
      return;
   m->mods = xcalloc((size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start) + 1,
                     sizeof(*m->mods));
   MAP_EACH(l, map, k, v)
   {
      if (m->nmods == ISA_MAX_MODS) {
         err(l, k, "more than %d modifiers", ISA_MAX_MODS);
         break;
      }
      struct isa_mod *md = &m->mods[m->nmods++];
      md->name = xstrdup(key_str(k));
      md->pos = npos(k);
      md->enm = -1;
      if (FIND(m->mods, m->nmods - 1, md->name) >= 0)
         err(l, k, "duplicate modifier '%s'", md->name);
      if (!is_map(l, v, "modifier"))
         continue;
      check_keys(l, v, "modifier", keys);
      yaml_node_t *x;
      char *kind = opt_str(l, v, "kind");
      char *en = opt_str(l, v, "enum");
      md->kind = en ? ISA_MOD_ENUM : ISA_MOD_FLAG;
      if (kind) {
         static const char *const kinds[] = {"flag", "int", "enum"};
         int ki = lookup_str(kinds, 3, kind);
         if (ki < 0)
            err(l, get(l, v, "kind"), "modifier kind must be flag, int or enum");
         else
            md->kind = (enum isa_mod_kind)ki;
      }
      if (md->kind == ISA_MOD_ENUM) {
         md->enm = en ? FIND(m->enums, m->nenums, en) : -1;
         if (md->enm < 0)
            err(l, en ? get(l, v, "enum") : v, "modifier '%s': unknown enum '%s'", md->name,
                en ? en : "(none given)");
      }
      free(kind);
      free(en);
      md->max = opt_int(l, v, "max", 0, 32767, md->kind == ISA_MOD_FLAG ? 1 : 32767);
      md->always = opt_bool(l, v, "always", false);
      if ((x = get(l, v, "role"))) {
         int r = enum_lookup(l, x, "role", role_names, ISA_ROLE_COUNT);
         md->role = r < 0 ? ISA_ROLE_NONE : (enum isa_role)r;
         if (r > 0 && m->role_mod[r] >= 0)
            err(l, x, "role '%s' is already played by '%s'", role_names[r],
                m->mods[m->role_mod[r]].name);
         else if (r > 0)
            m->role_mod[r] = (int)(m->nmods - 1);
      }
      x = get(l, v, "print");
      const char *ps = x ? scalar(l, x, "print") : NULL;
      if (!x)
         err(l, v, "modifier '%s' needs a print pattern (\"\" hides it)", md->name);
      else if (ps) {
         md->hidden = !*ps;
         const char *allowed = md->kind == ISA_MOD_ENUM  ? "s"
                               : md->kind == ISA_MOD_INT ? "dux"
                                                         : "";
         if (parse_fmt(l, x, ps, allowed, &md->fmt) && md->kind != ISA_MOD_FLAG && !md->fmt.conv &&
             !md->hidden)
            err(l, x, "print pattern of '%s' needs a %%%s conversion", md->name,
                md->kind == ISA_MOD_ENUM ? "s" : "d");
      }
      if (!md->fmt.pre) {
         md->fmt.pre = xstrdup("");
         md->fmt.post = xstrdup("");
      }
   }
}

static void
parse_case_body(struct ld *l, struct isa_format *fm, struct isa_case *c, yaml_node_t *v)
{
   static const char *const keys[] = {"match", "ignore", "reg", "const", "rel",
                                      "imm",   "fields", "doc", NULL};
   static const char *const reg_keys[] = {"bits", "regset", NULL};
   static const char *const const_keys[] = {"bits", "file", "bank", NULL};
   static const char *const rel_keys[] = {"bits", "file", "addr", NULL};
   static const char *const imm_keys[] = {"bits", "signed", "float", "lut", "print", NULL};
   struct isa_model *m = l->m;
   check_keys(l, v, "operand form", keys);
   c->fields = parse_fields(l, get(l, v, "fields"), fm->bits, true, &c->nfields);
   c->regset = c->file = c->addr_file = c->lut = c->bank_field = -1;
   yaml_node_t *x, *b, *kn = NULL;
   int nkinds = 0;
   if ((x = get(l, v, "reg"))) {
      kn = x;
      nkinds++;
      c->kind = ISA_OPND_REG;
      check_keys(l, x, "reg", reg_keys);
      const char *s = (b = get(l, x, "regset")) ? scalar(l, b, "regset") : NULL;
      c->regset = s ? FIND(m->regsets, m->nregsets, s) : -1;
      if (c->regset < 0)
         err(l, b ? b : x, "reg form needs a known regset");
   }
   if ((x = get(l, v, "const"))) {
      kn = x;
      nkinds++;
      c->kind = ISA_OPND_CONST;
      check_keys(l, x, "const", const_keys);
      const char *s = (b = get(l, x, "file")) ? scalar(l, b, "file") : NULL;
      c->file = s ? FIND(m->files, m->nfiles, s) : -1;
      if (c->file < 0)
         err(l, b ? b : x, "const form needs a known register file");
      if ((b = get(l, x, "bank"))) {
         s = scalar(l, b, "bank");
         c->bank_field = s ? field_find(c->fields, c->nfields, s) : -1;
         if (c->bank_field < 0)
            err(l, b, "bank names no field of this form");
      }
   }
   if ((x = get(l, v, "rel"))) {
      kn = x;
      nkinds++;
      c->kind = ISA_OPND_REG;
      c->rel = true;
      check_keys(l, x, "rel", rel_keys);
      const char *s = (b = get(l, x, "file")) ? scalar(l, b, "file") : NULL;
      c->file = s ? FIND(m->files, m->nfiles, s) : -1;
      if (c->file < 0)
         err(l, b ? b : x, "rel form needs a known register file");
      else if (m->files[c->file].kind == ISA_FILE_CONST)
         c->kind = ISA_OPND_CONST;
      s = (b = get(l, x, "addr")) ? scalar(l, b, "addr") : NULL;
      char *colon = s ? strchr(s, ':') : NULL;
      if (colon) {
         char *fn = xstrndup(s, (size_t)(colon - s));
         int64_t idx;
         c->addr_file = FIND(m->files, m->nfiles, fn);
         free(fn);
         if (c->addr_file < 0 || !parse_i64(colon + 1, &idx) || idx < 0 ||
             (unsigned)idx >= m->files[c->addr_file].count)
            err(l, b, "addr must be FILE:INDEX of an address register");
         else
            c->addr_index = (int)idx;
      } else {
         err(l, b ? b : x, "rel form needs addr: FILE:INDEX");
      }
   }
   if ((x = get(l, v, "imm"))) {
      kn = x;
      nkinds++;
      c->kind = ISA_OPND_IMM;
      check_keys(l, x, "imm", imm_keys);
      c->sign = opt_bool(l, x, "signed", false);
      char *fl = opt_str(l, x, "float");
      if (fl && strcmp(fl, "top"))
         err(l, get(l, x, "float"), "float must be 'top' (the top bits of an f32)");
      c->float_top = fl != NULL;
      free(fl);
      char *lu = opt_str(l, x, "lut");
      if (lu && (c->lut = FIND(m->luts, m->nluts, lu)) < 0)
         err(l, get(l, x, "lut"), "unknown lut '%s'", lu);
      free(lu);
      char *pr = opt_str(l, x, "print");
      if (pr)
         parse_fmt(l, get(l, x, "print"), pr, "dux", &c->fmt);
      free(pr);
   }
   if (nkinds != 1) {
      err(l, v, "operand form '%s' needs exactly one of reg, const, rel, imm", c->name);
      return;
   }
   x = kn;
   b = get(l, x, "bits");
   if (!b)
      err(l, x, "operand form '%s' needs bits", c->name);
   else
      parse_bits(l, b, fm->bits, &c->val);
   c->val.name = xstrdup("value");
   struct isa_bits mk = {{0, 0}}, mt = {{0, 0}}, ig = {{0, 0}};
   if ((b = get(l, v, "match")))
      parse_match(l, b, c->fields, c->nfields, fm->bits, &mk, &mt, false);
   if ((b = get(l, v, "ignore")))
      parse_ignore(l, b, fm->bits, &ig);
   c->mask = mk.w[0];
   c->match = mt.w[0];
   c->ignore = ig.w[0];
}

static void
parse_formats(struct ld *l, yaml_node_t *map)
{
   static const char *const keys[] = {"bits", "fields", "cases", "doc", NULL};
   struct isa_model *m = l->m;
   if (!is_map(l, map, "formats"))
      return;
   m->formats = xcalloc((size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start) + 1,
                        sizeof(*m->formats));
   MAP_EACH(l, map, k, v)
   {
      struct isa_format *fm = &m->formats[m->nformats++];
      fm->name = xstrdup(key_str(k));
      fm->pos = npos(k);
      if (FIND(m->formats, m->nformats - 1, fm->name) >= 0)
         err(l, k, "duplicate format '%s'", fm->name);
      if (!is_map(l, v, "format"))
         continue;
      check_keys(l, v, "format", keys);
      fm->bits = (unsigned)opt_int(l, v, "bits", 1, 64, 0);
      if (!fm->bits) {
         err(l, v, "format '%s' needs bits (1..64)", fm->name);
         continue;
      }
      fm->fields = parse_fields(l, get(l, v, "fields"), fm->bits, true, &fm->nfields);
      yaml_node_t *cs = get(l, v, "cases");
      if (!cs || !is_map(l, cs, "cases")) {
         if (!cs)
            err(l, v, "format '%s' needs cases", fm->name);
         continue;
      }
      fm->cases = xcalloc((size_t)(cs->data.mapping.pairs.top - cs->data.mapping.pairs.start) + 1,
                          sizeof(*fm->cases));
      MAP_EACH(l, cs, ck, cv)
      {
         if (fm->ncases == 32) {
            err(l, ck, "more than 32 operand forms");
            break;
         }
         struct isa_case *c = &fm->cases[fm->ncases++];
         c->name = xstrdup(key_str(ck));
         c->pos = npos(ck);
         if (FIND(fm->cases, fm->ncases - 1, c->name) >= 0)
            err(l, ck, "duplicate operand form '%s'", c->name);
         if (is_map(l, cv, "operand form"))
            parse_case_body(l, fm, c, cv);
      }
   }
}

static void
parse_classes(struct ld *l, yaml_node_t *map)
{
   static const char *const keys[] = {"latency",    "sync", "war", "soft",
                                      "read_early", "flow", "doc", NULL};
   struct isa_model *m = l->m;
   if (!is_map(l, map, "classes"))
      return;
   m->classes = xcalloc((size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start) + 1,
                        sizeof(*m->classes));
   MAP_EACH(l, map, k, v)
   {
      struct isa_class *c = &m->classes[m->nclasses++];
      c->name = xstrdup(key_str(k));
      c->pos = npos(k);
      if (FIND(m->classes, m->nclasses - 1, c->name) >= 0)
         err(l, k, "duplicate class '%s'", c->name);
      if (!is_map(l, v, "class"))
         continue;
      check_keys(l, v, "class", keys);
      c->latency = opt_int(l, v, "latency", 0, 1000, -1);
      c->soft = opt_int(l, v, "soft", 0, 100000, c->latency < 0 ? 0 : c->latency);
      c->read_early = opt_int(l, v, "read_early", 0, 1000, 0);
      c->flow = opt_bool(l, v, "flow", false);
      yaml_node_t *x;
      int s;
      if ((x = get(l, v, "sync")) &&
          (s = enum_lookup(l, x, "sync", sync_names, ISA_SYNC_COUNT)) >= 0)
         c->sync = (enum isa_sync)s;
      if ((x = get(l, v, "war")) &&
          (s = enum_lookup(l, x, "sync", sync_names, ISA_SYNC_COUNT)) >= 0)
         c->war = (enum isa_sync)s;
      if (c->latency < 0 && c->sync == ISA_SYNC_NONE)
         err(l, v, "class '%s' needs a latency or a sync mechanism", c->name);
   }
}

/* ------------------------------------------------------------------ */
/* Layouts and ops.                                                    */

static char **
name_list(struct ld *l, yaml_node_t *n, unsigned max, unsigned *count)
{
   *count = 0;
   if (!n)
      return NULL;
   if (n->type != YAML_SEQUENCE_NODE) {
      err(l, n, "expected a list of field names");
      return NULL;
   }
   char **v = xcalloc(max, sizeof(char *));
   SEQ_EACH(l, n, e)
   {
      const char *s = scalar(l, e, "field name");
      if (*count == max) {
         err(l, e, "at most %u entries", max);
         break;
      }
      if (s)
         v[(*count)++] = xstrdup(s);
   }
   return v;
}

static void
free_names(char **v, unsigned n)
{
   for (unsigned i = 0; i < n; i++)
      free(v[i]);
   free(v);
}

static const char *const layout_keys[] = {"bits", "match", "ignore", "fields", "dst", "src",
                                          "type", "width", "syntax", "doc",    NULL};

static void
parse_layouts(struct ld *l, yaml_node_t *map)
{
   struct isa_model *m = l->m;
   if (!is_map(l, map, "layouts"))
      return;
   m->layouts = xcalloc((size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start) + 1,
                        sizeof(*m->layouts));
   MAP_EACH(l, map, k, v)
   {
      struct isa_layout *ly = &m->layouts[m->nlayouts++];
      ly->name = xstrdup(key_str(k));
      ly->pos = npos(k);
      if (FIND(m->layouts, m->nlayouts - 1, ly->name) >= 0)
         err(l, k, "duplicate layout '%s'", ly->name);
      if (!is_map(l, v, "layout"))
         continue;
      check_keys(l, v, "layout", layout_keys);
      ly->bits = (unsigned)opt_int(l, v, "bits", 8, ISA_MAX_BITS, (int)m->bits);
      ly->fields = parse_fields(l, get(l, v, "fields"), ly->bits, false, &ly->nfields);
      yaml_node_t *x;
      if ((x = get(l, v, "match")))
         parse_match(l, x, ly->fields, ly->nfields, ly->bits, &ly->mask, &ly->match, true);
      if ((x = get(l, v, "ignore")))
         parse_ignore(l, x, ly->bits, &ly->ignore);
      ly->dst = name_list(l, get(l, v, "dst"), ISA_MAX_DST, &ly->ndst);
      ly->src = name_list(l, get(l, v, "src"), ISA_MAX_SRC, &ly->nsrc);
      ly->syntax = opt_str(l, v, "syntax");
      ly->type = opt_str(l, v, "type");
      ly->width = opt_str(l, v, "width");
   }
}

/* type: a type name, or a modifier whose enum entries carry types. */
static void
slot_type(struct ld *l, yaml_node_t *n, const char *s, struct isa_slot *sl)
{
   struct isa_model *m = l->m;
   int t = lookup_str(type_names, ISA_TYPE_COUNT, s);
   if (t >= 0) {
      sl->type = (uint8_t)t;
      sl->type_mod = -1;
      return;
   }
   int md = FIND(m->mods, m->nmods, s);
   if (md < 0 || m->mods[md].kind != ISA_MOD_ENUM)
      err(l, n, "type '%s' is neither a type name nor an enum modifier", s);
   else
      sl->type_mod = (int16_t)md;
}

static void
slot_width(struct ld *l, yaml_node_t *n, const char *s, struct isa_slot *sl)
{
   struct isa_model *m = l->m;
   int64_t w;
   if (parse_i64(s, &w)) {
      if (w < 1 || w > 64)
         err(l, n, "width %lld out of range", (long long)w);
      sl->width = (uint8_t)w;
      sl->width_mod = -1;
      return;
   }
   int md = FIND(m->mods, m->nmods, s);
   if (md < 0 || m->mods[md].kind != ISA_MOD_ENUM)
      err(l, n, "width '%s' is neither a number nor an enum modifier", s);
   else
      sl->width_mod = (int16_t)md;
}

static void
parse_slots(struct ld *l, struct isa_op *op, yaml_node_t *v, const struct isa_layout *ly)
{
   struct isa_model *m = l->m;
   unsigned nd = 0, ns = 0;
   yaml_node_t *dn = get(l, v, "dst"), *sn = get(l, v, "src");
   char **d = dn ? name_list(l, dn, ISA_MAX_DST, &nd) : NULL;
   char **s = sn ? name_list(l, sn, ISA_MAX_SRC, &ns) : NULL;
   char **dl = dn ? d : ly ? ly->dst : NULL, **sl = sn ? s : ly ? ly->src : NULL;
   if (!dn && ly)
      nd = ly->ndst;
   if (!sn && ly)
      ns = ly->nsrc;
   op->ndst = (uint8_t)nd;
   op->nsrc = (uint8_t)ns;
   const char *dtype = ly ? ly->type : NULL, *dwidth = ly ? ly->width : NULL;
   yaml_node_t *tn = get(l, v, "type"), *wn = get(l, v, "width");
   if (tn)
      dtype = scalar(l, tn, "type");
   if (wn)
      dwidth = scalar(l, wn, "width");
   yaml_node_t *ops = get(l, v, "operands");
   if (ops && !is_map(l, ops, "operands"))
      ops = NULL;
   for (unsigned i = 0; i < nd + ns; i++) {
      const char *name = i < nd ? dl[i] : sl[i - nd];
      struct isa_slot *x = &op->slot[i];
      x->type_mod = x->width_mod = -1;
      x->field = (int16_t)field_find(op->fields, op->nfields, name);
      if (x->field < 0 || op->fields[x->field].kind != ISA_FK_OPERAND) {
         err(l, dn || sn ? v : NULL, "op '%s': operand '%s' is not an operand field%s", op->key,
             name,
             x->field >= 0 && op->fields[x->field].kind == ISA_FK_FIXED ? " (it is fixed)" : "");
         x->field = -1;
         continue;
      }
      const struct isa_format *fm = &m->formats[op->fields[x->field].format];
      x->allow = fm->ncases >= 32 ? ~0u : (1u << fm->ncases) - 1;
      if (dtype)
         slot_type(l, tn ? tn : v, dtype, x);
      if (dwidth)
         slot_width(l, wn ? wn : v, dwidth, x);
      yaml_node_t *on = ops ? get(l, ops, name) : NULL, *y;
      if (!on)
         continue;
      static const char *const keys[] = {"allow", "type", "width", "read_delay", NULL};
      if (!is_map(l, on, "operand settings"))
         continue;
      check_keys(l, on, "operand settings", keys);
      if ((y = get(l, on, "type")) && scalar(l, y, "type"))
         slot_type(l, y, scalar(l, y, "type"), x);
      if ((y = get(l, on, "width")) && scalar(l, y, "width"))
         slot_width(l, y, scalar(l, y, "width"), x);
      x->read_delay = (uint8_t)opt_int(l, on, "read_delay", 0, 100, 0);
      if ((y = get(l, on, "allow"))) {
         unsigned na;
         char **al = name_list(l, y, 32, &na);
         x->allow = 0;
         for (unsigned j = 0; j < na; j++) {
            int c = FIND(fm->cases, fm->ncases, al[j]);
            if (c < 0)
               err(l, y, "format '%s' has no form '%s'", fm->name, al[j]);
            else
               x->allow |= 1u << c;
         }
         free_names(al, na);
      }
   }
   if (ops) {
      MAP_EACH(l, ops, ok, ov)
      {
         bool found = false;
         for (unsigned i = 0; i < nd + ns; i++)
            found |= !strcmp(i < nd ? dl[i] : sl[i - nd], key_str(ok));
         if (!found)
            err(l, ok, "op '%s' has no operand '%s'", op->key, key_str(ok));
         (void)ov;
      }
   }
   free_names(d, dn ? nd : 0);
   free_names(s, sn ? ns : 0);
}

/* Turns a syntax template into the op's tokens: "{name}" is the mnemonic,
 * "{field}" a modifier or operand field, "[...]" a group dropped when one of
 * its fields is fixed by the op. */
static void
parse_syntax(struct ld *l, struct isa_op *op, yaml_node_t *where, const char *t)
{
   unsigned cap = (unsigned)strlen(t) + 2, n = 0, group = 0;
   struct isa_tok *v = xcalloc(cap, sizeof(*v));
   bool group_ok = true, in_group = false;
   for (const char *p = t; *p;) {
      if (*p == '[' || *p == ']') {
         if ((*p == '[') == in_group) {
            err(l, where, "syntax of '%s': unbalanced or nested [ ]", op->key);
            break;
         }
         if (*p == ']' && !group_ok) {
            for (unsigned i = group; i < n; i++)
               free(v[i].text);
            n = group;
         }
         in_group = *p == '[';
         group = n;
         group_ok = true;
         p++;
      } else if (*p == '{') {
         const char *e = strchr(p, '}');
         if (!e) {
            err(l, where, "syntax of '%s': '{' without '}'", op->key);
            break;
         }
         char *name = xstrndup(p + 1, (size_t)(e - p - 1));
         p = e + 1;
         if (!strcmp(name, "name")) {
            v[n++] = (struct isa_tok){ISA_TOK_NAME, -1, NULL};
            free(name);
            continue;
         }
         int f = field_find(op->fields, op->nfields, name);
         if (f < 0)
            err(l, where, "syntax of '%s' names unknown field '%s'", op->key, name);
         else if (op->fields[f].kind == ISA_FK_FIXED)
            group_ok = false;
         else if (op->fields[f].kind != ISA_FK_MOD && op->fields[f].kind != ISA_FK_OPERAND)
            err(l, where, "syntax of '%s': '%s' is not a modifier or operand", op->key, name);
         else
            v[n++] = (struct isa_tok){ISA_TOK_FIELD, (int16_t)f, NULL};
         free(name);
      } else {
         size_t len = strcspn(p, "[]{");
         v[n++] = (struct isa_tok){ISA_TOK_LIT, -1, xstrndup(p, len)};
         p += len;
      }
   }
   if (in_group)
      err(l, where, "syntax of '%s': '[' without ']'", op->key);
   op->toks = v;
   op->ntoks = n;
}

static void
parse_op_extras(struct ld *l, struct isa_op *op, yaml_node_t *v)
{
   struct isa_model *m = l->m;
   yaml_node_t *x;
   op->commute[0] = op->commute[1] = -1;
   op->flip_mod = -1;
   if ((x = get(l, v, "commutative"))) {
      if (x->type == YAML_SCALAR_NODE) {
         if (opt_bool(l, v, "commutative", false)) {
            op->commute[0] = op->ndst;
            op->commute[1] = op->ndst + 1;
            if (op->nsrc < 2)
               err(l, x, "op '%s' is commutative but has fewer than two sources", op->key);
         }
      } else {
         unsigned n;
         char **c = name_list(l, x, 2, &n);
         for (unsigned i = 0; i < n; i++)
            for (unsigned j = op->ndst; j < (unsigned)op->ndst + op->nsrc; j++)
               if (op->slot[j].field >= 0 && !strcmp(op->fields[op->slot[j].field].name, c[i]))
                  op->commute[i] = (int)j;
         if (n != 2 || op->commute[0] < 0 || op->commute[1] < 0)
            err(l, x, "commutative must name two source operands of '%s'", op->key);
         free_names(c, n);
      }
   }
   if ((x = get(l, v, "flip"))) {
      const char *s = scalar(l, x, "flip");
      op->flip_mod = s ? FIND(m->mods, m->nmods, s) : -1;
      if (s && (op->flip_mod < 0 || m->mods[op->flip_mod].kind != ISA_MOD_ENUM))
         err(l, x, "flip must name an enum modifier");
   }
   if ((x = get(l, v, "aliases")) && is_map(l, x, "aliases")) {
      op->aliases = xcalloc((size_t)(x->data.mapping.pairs.top - x->data.mapping.pairs.start) + 1,
                            sizeof(*op->aliases));
      MAP_EACH(l, x, ak, av)
      {
         struct isa_alias *a = &op->aliases[op->naliases++];
         a->name = xstrdup(key_str(ak));
         a->nguard = parse_guards(l, av, op->fields, op->nfields, a->guard);
      }
   }
   if ((x = get(l, v, "illegal"))) {
      if (x->type != YAML_SEQUENCE_NODE) {
         err(l, x, "illegal must be a list of {when, reason}");
         return;
      }
      op->rules = xcalloc((size_t)(x->data.sequence.items.top - x->data.sequence.items.start) + 1,
                          sizeof(*op->rules));
      SEQ_EACH(l, x, e)
      {
         static const char *const keys[] = {"when", "reason", NULL};
         if (!is_map(l, e, "illegal rule"))
            continue;
         check_keys(l, e, "illegal rule", keys);
         struct isa_rule *r = &op->rules[op->nrules++];
         yaml_node_t *w = get(l, e, "when");
         if (w)
            r->nguard = parse_guards(l, w, op->fields, op->nfields, r->guard);
         r->reason = opt_str(l, e, "reason");
         if (!w || !r->reason)
            err(l, e, "an illegal rule needs when and reason");
      }
   }
}

static const char *const op_keys[] = {"layout",   "mnemonic", "bits",   "match",       "ignore",
                                      "fields",   "dst",      "src",    "type",        "width",
                                      "operands", "sem",      "class",  "commutative", "flip",
                                      "aliases",  "illegal",  "syntax", "doc",         NULL};

static void
parse_op(struct ld *l, struct isa_op *op, yaml_node_t *k, yaml_node_t *v)
{
   struct isa_model *m = l->m;
   op->key = xstrdup(key_str(k));
   op->pos = npos(k);
   op->layout = op->sem = op->cls = -1;
   if (!is_map(l, v, "op"))
      return;
   check_keys(l, v, "op", op_keys);
   yaml_node_t *x;
   const struct isa_layout *ly = NULL;
   if ((x = get(l, v, "layout"))) {
      const char *s = scalar(l, x, "layout");
      op->layout = s ? FIND(m->layouts, m->nlayouts, s) : -1;
      if (s && op->layout < 0)
         err(l, x, "unknown layout '%s'", s);
      else if (op->layout >= 0)
         ly = &m->layouts[op->layout];
   }
   op->mnemonic = opt_str(l, v, "mnemonic");
   if (!op->mnemonic)
      op->mnemonic = xstrdup(op->key);
   op->bits = (unsigned)opt_int(l, v, "bits", 8, ISA_MAX_BITS, ly ? (int)ly->bits : (int)m->bits);
   if (ly && op->bits != ly->bits)
      err(l, get(l, v, "bits"), "op '%s' cannot change the size of layout '%s'", op->key, ly->name);
   unsigned nextra = 0;
   struct isa_field *extra = parse_fields(l, get(l, v, "fields"), op->bits, false, &nextra);
   op->fields = copy_fields(ly ? ly->fields : NULL, ly ? ly->nfields : 0, nextra);
   op->nfields = ly ? ly->nfields : 0;
   for (unsigned i = 0; i < nextra; i++) {
      if (field_find(op->fields, op->nfields, extra[i].name) >= 0)
         isa_error_at(m, extra[i].pos, "field '%s' already exists in layout", extra[i].name),
             l->failed = true;
      struct isa_field *f = &op->fields[op->nfields++];
      *f = extra[i];
      /* Sibling indices in the extra list move by the layout's field count. */
      int off = (int)(ly ? ly->nfields : 0);
      if (f->target >= 0)
         f->target = (int16_t)(f->target + off);
      for (unsigned g = 0; g < f->nguard; g++) {
         f->guard[g].a = (int16_t)(f->guard[g].a + off);
         if (f->guard[g].b >= 0)
            f->guard[g].b = (int16_t)(f->guard[g].b + off);
      }
   }
   free(extra);
   if (ly) {
      op->mask = ly->mask;
      op->match = ly->match;
      op->ignore = ly->ignore;
   }
   if ((x = get(l, v, "match")))
      parse_match(l, x, op->fields, op->nfields, op->bits, &op->mask, &op->match, true);
   if ((x = get(l, v, "ignore")))
      parse_ignore(l, x, op->bits, &op->ignore);
   parse_slots(l, op, v, ly);
   if ((x = get(l, v, "sem"))) {
      const char *s = scalar(l, x, "sem");
      op->sem = s ? lookup_str(sem_names, ISA_SEM_COUNT, s) : -1;
      if (s && op->sem < 0)
         err(l, x, "unknown semantics '%s'", s);
   }
   if ((x = get(l, v, "class"))) {
      const char *s = scalar(l, x, "class");
      op->cls = s ? FIND(m->classes, m->nclasses, s) : -1;
      if (s && op->cls < 0)
         err(l, x, "unknown latency class '%s'", s);
   }
   parse_op_extras(l, op, v);
   x = get(l, v, "syntax");
   const char *syn = x ? scalar(l, x, "syntax") : ly ? ly->syntax : NULL;
   if (!syn)
      err(l, v, "op '%s' has no syntax (neither its own nor its layout's)", op->key);
   else
      parse_syntax(l, op, x ? x : v, syn);
}

static void
parse_ops(struct ld *l, yaml_node_t *map)
{
   struct isa_model *m = l->m;
   if (!is_map(l, map, "ops"))
      return;
   m->ops = xcalloc((size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start) + 1,
                    sizeof(*m->ops));
   MAP_EACH(l, map, k, v)
   {
      struct isa_op *op = &m->ops[m->nops++];
      if (FIND(m->ops, m->nops - 1, key_str(k)) >= 0)
         err(l, k, "duplicate mnemonic '%s'", key_str(k));
      parse_op(l, op, k, v);
   }
}

/* ------------------------------------------------------------------ */
/* Hazard mechanism, bundles, the document.                            */

/* Parameters each hazard mechanism understands (delay.c reads them). */
static const char *const hazard_params[ISA_HAZARD_KIND_COUNT][10] = {
    [ISA_HAZARD_DELAY_SLOTS] = {"size_mismatch", "addr_write", "max_nop_rpt", "max_nopn", NULL},
    [ISA_HAZARD_STALL_COUNTS] = {"max_stall", "min_stall", "scoreboards", "bar_min", "war_latency",
                                 "pred_latency", "flow_stall", NULL},
    [ISA_HAZARD_WAIT_STATES] = {"vmcnt_max", "lgkmcnt_max", "expcnt_max", "nop_max", NULL},
    [ISA_HAZARD_INTERLOCKED] = {"slots", "max_pending", NULL},
};

static void
parse_hazard(struct ld *l, yaml_node_t *v)
{
   static const char *const keys[] = {"model", "params", "wait_states", "doc", NULL};
   struct isa_model *m = l->m;
   if (!is_map(l, v, "hazard"))
      return;
   check_keys(l, v, "hazard", keys);
   yaml_node_t *x = get(l, v, "model");
   int k = x ? enum_lookup(l, x, "hazard model", hazard_names, ISA_HAZARD_KIND_COUNT) : -1;
   if (!x)
      err(l, v, "hazard needs a model (%s, %s, %s or %s)", hazard_names[0], hazard_names[1],
          hazard_names[2], hazard_names[3]);
   if (k < 0)
      return;
   m->hazard = (enum isa_hazard_kind)k;
   m->hazard_pos = npos(v);
   if ((x = get(l, v, "params")) && is_map(l, x, "params")) {
      m->params = xcalloc((size_t)(x->data.mapping.pairs.top - x->data.mapping.pairs.start) + 1,
                          sizeof(*m->params));
      MAP_EACH(l, x, pk, pv)
      {
         const char *s = key_str(pk);
         int known = -1;
         for (unsigned i = 0; hazard_params[k][i]; i++)
            if (!strcmp(hazard_params[k][i], s))
               known = (int)i;
         if (known < 0) {
            err(l, pk, "unknown parameter '%s' for hazard model %s", s, hazard_names[k]);
            continue;
         }
         int64_t val;
         if (!get_int(l, pv, s, -1000000, 1000000, &val))
            continue;
         struct isa_param *p = &m->params[m->nparams++];
         p->name = xstrdup(s);
         p->value = (int)val;
         p->pos = npos(pk);
      }
   }
   if ((x = get(l, v, "wait_states"))) {
      if (x->type != YAML_SEQUENCE_NODE) {
         err(l, x, "wait_states must be a list of {first, second, states}");
         return;
      }
      m->wait_rules =
          xcalloc((size_t)(x->data.sequence.items.top - x->data.sequence.items.start) + 1,
                  sizeof(*m->wait_rules));
      SEQ_EACH(l, x, e)
      {
         static const char *const wk[] = {"first", "second", "states", "doc", NULL};
         if (!is_map(l, e, "wait-state rule"))
            continue;
         check_keys(l, e, "wait-state rule", wk);
         struct isa_wait_rule *r = &m->wait_rules[m->nwait_rules++];
         r->first = opt_str(l, e, "first");
         r->second = opt_str(l, e, "second");
         r->states = opt_int(l, e, "states", 0, 64, -1);
         r->pos = npos(e);
         if (!r->first || !r->second || r->states < 0)
            err(l, e, "a wait-state rule needs first, second and states");
      }
   }
}

static void
parse_bundle(struct ld *l, yaml_node_t *v)
{
   static const char *const keys[] = {"insns", "control_bits", "slot_bits", "fields",
                                      "pad",   "doc",          NULL};
   struct isa_model *m = l->m;
   struct isa_bundle *b = &m->bundle;
   if (!is_map(l, v, "bundle"))
      return;
   check_keys(l, v, "bundle", keys);
   b->pos = npos(v);
   b->insns = (unsigned)opt_int(l, v, "insns", 1, 8, 0);
   b->ctrl_bits = (unsigned)opt_int(l, v, "control_bits", 8, 64, 64);
   b->slot_bits = (unsigned)opt_int(l, v, "slot_bits", 1, 64, 0);
   if (!b->insns || !b->slot_bits)
      err(l, v, "bundle needs insns and slot_bits");
   if (b->ctrl_bits % 8)
      err(l, v, "control_bits must be a multiple of 8");
   if (b->insns * b->slot_bits > b->ctrl_bits)
      err(l, v, "%u slots of %u bits do not fit a %u-bit control word", b->insns, b->slot_bits,
          b->ctrl_bits);
   b->fields =
       parse_fields(l, get(l, v, "fields"), b->slot_bits ? b->slot_bits : 1, false, &b->nfields);
   for (unsigned i = 0; i < b->nfields; i++)
      if (b->fields[i].kind != ISA_FK_MOD)
         isa_error_at(m, b->fields[i].pos, "bundle field '%s' must be a modifier",
                      b->fields[i].name),
             l->failed = true;
   b->pad_op = -1;
   char *pad = opt_str(l, v, "pad");
   if (pad && (b->pad_op = FIND(m->ops, m->nops, pad)) < 0)
      err(l, get(l, v, "pad"), "unknown pad op '%s'", pad);
   if (!pad)
      err(l, v, "bundle needs a pad op (fills the last bundle)");
   free(pad);
}

static void
parse_document(struct ld *l, yaml_node_t *root)
{
   static const char *const keys[] = {"isa",     "bits", "doc",       "regfiles", "regsets",
                                      "enums",   "luts", "modifiers", "formats",  "classes",
                                      "layouts", "ops",  "hazard",    "bundle",   NULL};
   struct isa_model *m = l->m;
   if (!root || root->type != YAML_MAPPING_NODE) {
      err(l, root, "a model file must be a mapping (isa:, regfiles:, ops:, ...)");
      return;
   }
   check_keys(l, root, "model", keys);
   char *name = opt_str(l, root, "isa");
   if (!name)
      err(l, root, "the model needs 'isa: NAME'");
   free(m->name);
   m->name = name ? name : xstrdup("?");
   m->bits = (unsigned)opt_int(l, root, "bits", 8, ISA_MAX_BITS, 64);
   if (m->bits % 8)
      err(l, get(l, root, "bits"), "bits must be a multiple of 8");
   static const char *const required[] = {"regfiles", "modifiers", "formats",
                                          "classes",  "ops",       "hazard"};
   for (unsigned i = 0; i < ARRAY_SIZE(required); i++)
      if (!get(l, root, required[i]))
         err(l, root, "the model needs a '%s' section", required[i]);
   yaml_node_t *x;
   if ((x = get(l, root, "regfiles")))
      parse_regfiles(l, x);
   if ((x = get(l, root, "regsets")))
      parse_regsets(l, x);
   if ((x = get(l, root, "enums")))
      parse_enums(l, x);
   if ((x = get(l, root, "luts")))
      parse_luts(l, x);
   if ((x = get(l, root, "modifiers")))
      parse_mods(l, x);
   if ((x = get(l, root, "formats")))
      parse_formats(l, x);
   if ((x = get(l, root, "classes")))
      parse_classes(l, x);
   if ((x = get(l, root, "layouts")))
      parse_layouts(l, x);
   if ((x = get(l, root, "ops")))
      parse_ops(l, x);
   if ((x = get(l, root, "hazard")))
      parse_hazard(l, x);
   if ((x = get(l, root, "bundle")))
      parse_bundle(l, x);
}

/* ------------------------------------------------------------------ */
/* Life cycle.                                                         */

static void
free_fields(struct isa_field *f, unsigned n)
{
   for (unsigned i = 0; i < n; i++)
      free(f[i].name);
   free(f);
}

static void
free_fmt(struct isa_fmt *f)
{
   free(f->pre);
   free(f->post);
}

void
isa_close(struct isa_model *m)
{
   if (!m)
      return;
   for (unsigned i = 0; i < m->nfiles; i++) {
      struct isa_regfile *f = &m->files[i];
      if (f->names)
         for (unsigned j = 0; j < f->count; j++)
            free(f->names[j]);
      free(f->names);
      free(f->name);
      free(f->prefix);
   }
   free(m->files);
   for (unsigned i = 0; i < m->nregsets; i++) {
      free(m->regsets[i].name);
      free(m->regsets[i].v);
   }
   free(m->regsets);
   for (unsigned i = 0; i < m->nenums; i++) {
      for (unsigned j = 0; j < m->enums[i].n; j++) {
         free(m->enums[i].v[j].name);
         free(m->enums[i].v[j].print);
      }
      free(m->enums[i].v);
      free(m->enums[i].name);
   }
   free(m->enums);
   for (unsigned i = 0; i < m->nluts; i++) {
      free(m->luts[i].name);
      free(m->luts[i].v);
   }
   free(m->luts);
   for (unsigned i = 0; i < m->nmods; i++) {
      free(m->mods[i].name);
      free_fmt(&m->mods[i].fmt);
   }
   free(m->mods);
   for (unsigned i = 0; i < m->nformats; i++) {
      struct isa_format *f = &m->formats[i];
      for (unsigned j = 0; j < f->ncases; j++) {
         free(f->cases[j].name);
         free(f->cases[j].val.name);
         free_fmt(&f->cases[j].fmt);
         free_fields(f->cases[j].fields, f->cases[j].nfields);
      }
      free(f->cases);
      free_fields(f->fields, f->nfields);
      free(f->name);
   }
   free(m->formats);
   for (unsigned i = 0; i < m->nlayouts; i++) {
      struct isa_layout *ly = &m->layouts[i];
      free(ly->name);
      free_fields(ly->fields, ly->nfields);
      free_names(ly->dst, ly->ndst);
      free_names(ly->src, ly->nsrc);
      free(ly->syntax);
      free(ly->type);
      free(ly->width);
   }
   free(m->layouts);
   for (unsigned i = 0; i < m->nops; i++) {
      struct isa_op *op = &m->ops[i];
      free(op->key);
      free(op->mnemonic);
      free_fields(op->fields, op->nfields);
      for (unsigned j = 0; j < op->nrules; j++)
         free(op->rules[j].reason);
      free(op->rules);
      for (unsigned j = 0; j < op->naliases; j++)
         free(op->aliases[j].name);
      free(op->aliases);
      for (unsigned j = 0; j < op->ntoks; j++)
         free(op->toks[j].text);
      free(op->toks);
   }
   free(m->ops);
   for (unsigned i = 0; i < m->nclasses; i++)
      free(m->classes[i].name);
   free(m->classes);
   for (unsigned i = 0; i < m->nparams; i++)
      free(m->params[i].name);
   free(m->params);
   for (unsigned i = 0; i < m->nwait_rules; i++) {
      free(m->wait_rules[i].first);
      free(m->wait_rules[i].second);
   }
   free(m->wait_rules);
   free_fields(m->bundle.fields, m->bundle.nfields);
   free(m->name);
   free(m->file);
   free(m->text);
   free(m);
}

enum isa_err
isa_open_string(const char *text, size_t len, const char *file, struct isa_model **out,
                struct diag_list *d)
{
   struct diag_list scratch = {0};
   struct isa_model *m = xcalloc(1, sizeof(*m));
   struct ld l = {.m = m};
   *out = NULL;
   m->diag = d ? d : &scratch;
   m->file = xstrdup(file ? file : "<model>");
   m->text = xstrndup(text, len);
   m->name = xstrdup("?");
   for (unsigned i = 0; i < ISA_ROLE_COUNT; i++)
      m->role_mod[i] = -1;
   yaml_parser_t parser;
   yaml_parser_initialize(&parser);
   yaml_parser_set_input_string(&parser, (const unsigned char *)m->text, len);
   enum isa_err e = ISA_ERR_OK;
   if (!yaml_parser_load(&parser, &l.doc)) {
      struct isa_pos p = {(int)parser.problem_mark.line + 1, (int)parser.problem_mark.column + 1};
      isa_error_at(m, p, "YAML: %s%s%s", parser.problem ? parser.problem : "syntax error",
                   parser.context ? " " : "", parser.context ? parser.context : "");
      yaml_parser_delete(&parser);
      e = ISA_ERR_YAML;
   } else {
      yaml_parser_delete(&parser);
      parse_document(&l, yaml_document_get_root_node(&l.doc));
      yaml_document_delete(&l.doc);
      if (l.failed || !isa_check_model(m))
         e = ISA_ERR_MODEL;
   }
   m->diag = NULL;
   diag_clear(&scratch);
   if (e != ISA_ERR_OK) {
      isa_close(m);
      return e;
   }
   *out = m;
   return ISA_ERR_OK;
}

enum isa_err
isa_open(const char *name, struct isa_model **out, struct diag_list *d)
{
   *out = NULL;
   if (!name || !*name) {
      if (d)
         diag_add(d, DIAG_ERROR, "<model>", 0, 0, NULL, "no model name given");
      return ISA_ERR_ARG;
   }
   char *path = NULL;
   size_t nl = strlen(name);
   bool is_path = strchr(name, '/') || (nl > 5 && !strcmp(name + nl - 5, ".yaml"));
   if (is_path) {
      path = xstrdup(name);
   } else {
      for (const char *p = name; *p; p++)
         if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_')) {
            if (d)
               diag_add(d, DIAG_ERROR, name, 0, 0, NULL,
                        "model names are lower-case letters, digits and '_'");
            return ISA_ERR_NOTFOUND;
         }
      const char *dir = getenv("DIFFCOMP_ISA_PATH");
      path = xasprintf("%s/%s.yaml", dir && *dir ? dir : DC_SOURCE_DIR "/isa/models", name);
   }
   char *text = NULL, *msg = NULL;
   size_t len = 0;
   if (!read_file(path, &text, &len, &msg)) {
      if (d)
         diag_add(d, DIAG_ERROR, path, 0, 0, NULL, "%s%s",
                  is_path ? "" : "no such model: ", msg ? msg : "cannot read");
      free(msg);
      free(path);
      return is_path ? ISA_ERR_IO : ISA_ERR_NOTFOUND;
   }
   enum isa_err e = isa_open_string(text, len, path, out, d);
   free(text);
   free(path);
   return e;
}

/* ------------------------------------------------------------------ */
/* Read-only accessors.                                                */

const char *
isa_strerror(enum isa_err e)
{
   return (unsigned)e < ISA_ERR_COUNT ? err_names[e] : "unknown error";
}

const char *
isa_model_name(const struct isa_model *m)
{
   return m->name;
}

unsigned
isa_op_count(const struct isa_model *m)
{
   return m->nops;
}

int
isa_op_find(const struct isa_model *m, const char *mnemonic)
{
   int i = FIND(m->ops, m->nops, mnemonic);
   if (i >= 0)
      return i;
   for (unsigned j = 0; j < m->nops; j++)
      if (!strcmp(m->ops[j].mnemonic, mnemonic))
         return (int)j;
   return -1;
}

void
isa_op_info(const struct isa_model *m, unsigned op, struct isa_op_info *out)
{
   const struct isa_op *o = &m->ops[op];
   out->name = o->mnemonic;
   out->sem = (enum isa_sem)o->sem;
   out->cls = (unsigned)o->cls;
   out->ndst = o->ndst;
   out->nsrc = o->nsrc;
   out->commute[0] = o->commute[0] < 0 ? -1 : o->commute[0] - o->ndst;
   out->commute[1] = o->commute[1] < 0 ? -1 : o->commute[1] - o->ndst;
   out->flip_mod = o->flip_mod;
   out->size = o->bits / 8;
}

bool
isa_slot_info(const struct isa_model *m, unsigned op, bool dst, unsigned slot,
              struct isa_slot_info *out)
{
   const struct isa_op *o = &m->ops[op];
   memset(out, 0, sizeof(*out));
   if (slot >= (dst ? o->ndst : o->nsrc))
      return false;
   const struct isa_slot *s = &o->slot[dst ? slot : o->ndst + slot];
   if (s->field < 0)
      return false;
   const struct isa_field *f = &o->fields[s->field];
   const struct isa_format *fm = &m->formats[f->format];
   out->name = f->name;
   out->type = s->type_mod >= 0 ? ISA_TYPE_NONE : (enum isa_type)s->type;
   out->read_delay = s->read_delay;
   for (unsigned c = 0; c < fm->ncases; c++) {
      if (!(s->allow & (1u << c)))
         continue;
      const struct isa_case *cs = &fm->cases[c];
      out->kinds |= (uint8_t)(1u << cs->kind);
      out->rel |= cs->rel;
      if (cs->kind == ISA_OPND_IMM && cs->val.width > out->imm_bits) {
         out->imm_bits = cs->val.width;
         out->imm_signed = cs->sign;
         out->imm_float_top = cs->float_top;
         out->imm_lut = cs->lut >= 0;
      }
      for (unsigned i = 0; i < cs->nfields; i++) {
         out->neg |= cs->fields[i].flag == ISA_OPND_F_NEG;
         out->abs |= cs->fields[i].flag == ISA_OPND_F_ABS;
      }
   }
   for (unsigned i = 0; i < fm->nfields; i++) {
      out->neg |= fm->fields[i].flag == ISA_OPND_F_NEG;
      out->abs |= fm->fields[i].flag == ISA_OPND_F_ABS;
   }
   for (unsigned i = 0; i < o->nfields; i++) {
      if (o->fields[i].kind == ISA_FK_FLAG && o->fields[i].target == s->field) {
         out->neg |= o->fields[i].flag == ISA_OPND_F_NEG;
         out->abs |= o->fields[i].flag == ISA_OPND_F_ABS;
      }
   }
   return true;
}

unsigned
isa_file_count(const struct isa_model *m)
{
   return m->nfiles;
}

int
isa_file_find(const struct isa_model *m, const char *name)
{
   return FIND(m->files, m->nfiles, name);
}

void
isa_file_info(const struct isa_model *m, unsigned file, struct isa_file_info *out)
{
   const struct isa_regfile *f = &m->files[file];
   out->name = f->name;
   out->kind = f->kind;
   out->count = f->count;
   out->width = f->width;
   out->half_of = -1;
   for (unsigned i = 0; i < m->nfiles; i++)
      if (m->files[i].alias == (int)file)
         out->half_of = (int)i;
}

unsigned
isa_class_count(const struct isa_model *m)
{
   return m->nclasses;
}

void
isa_class_info(const struct isa_model *m, unsigned cls, struct isa_class_info *out)
{
   const struct isa_class *c = &m->classes[cls];
   out->name = c->name;
   out->sync = c->sync;
   out->war_sync = c->war;
   out->latency = c->latency;
   out->soft_latency = c->soft;
   out->read_early = c->read_early;
   out->flow = c->flow;
}

unsigned
isa_mod_count(const struct isa_model *m)
{
   return m->nmods;
}

int
isa_mod_find(const struct isa_model *m, const char *name)
{
   return FIND(m->mods, m->nmods, name);
}

int
isa_mod_by_role(const struct isa_model *m, enum isa_role role)
{
   return (unsigned)role < ISA_ROLE_COUNT ? m->role_mod[role] : -1;
}

const char *
isa_mod_name(const struct isa_model *m, unsigned mod)
{
   return mod < m->nmods ? m->mods[mod].name : NULL;
}

int
isa_mod_value(const struct isa_model *m, unsigned mod, const char *name)
{
   if (mod >= m->nmods || m->mods[mod].kind != ISA_MOD_ENUM)
      return -1;
   const struct isa_enum *e = &m->enums[m->mods[mod].enm];
   int i = FIND(e->v, e->n, name);
   return i < 0 ? -1 : e->v[i].value;
}

int
isa_mod_flip(const struct isa_model *m, unsigned mod, int value)
{
   if (mod >= m->nmods || m->mods[mod].kind != ISA_MOD_ENUM)
      return -1;
   const struct isa_enum *e = &m->enums[m->mods[mod].enm];
   const struct isa_enum_entry *x = isa_enum_entry(e, value);
   return x && x->flip >= 0 ? e->v[x->flip].value : -1;
}

enum isa_hazard_kind
isa_hazard_kind(const struct isa_model *m)
{
   return m->hazard;
}

int
isa_hazard_param(const struct isa_model *m, const char *name, int def)
{
   int i = FIND(m->params, m->nparams, name);
   return i < 0 ? def : m->params[i].value;
}

const char *
isa_sem_name(enum isa_sem s)
{
   return (unsigned)s < ISA_SEM_COUNT ? sem_names[s] : "?";
}

int
isa_sem_find(const char *name)
{
   return lookup_str(sem_names, ISA_SEM_COUNT, name);
}

int
isa_sem_arity(enum isa_sem s)
{
   return (unsigned)s < ISA_SEM_COUNT ? sem_arity[s] : -1;
}

const char *
isa_type_name(enum isa_type t)
{
   return (unsigned)t < ISA_TYPE_COUNT ? type_names[t] : "?";
}

unsigned
isa_type_bits(enum isa_type t)
{
   return (unsigned)t < ISA_TYPE_COUNT ? type_bits[t] : 0;
}

bool
isa_type_is_float(enum isa_type t)
{
   return (unsigned)t < ISA_TYPE_COUNT && type_float[t];
}

const char *
isa_illegal_str(enum isa_illegal r)
{
   return (unsigned)r < ISA_ILLEGAL_COUNT ? illegal_names[r] : "?";
}

const char *
isa_role_name(enum isa_role r)
{
   return (unsigned)r < ISA_ROLE_COUNT ? role_names[r] : "?";
}

const char *
isa_hazard_name(enum isa_hazard_kind h)
{
   return (unsigned)h < ISA_HAZARD_KIND_COUNT ? hazard_names[h] : "?";
}

const char *
isa_sync_name(enum isa_sync s)
{
   return (unsigned)s < ISA_SYNC_COUNT ? sync_names[s] : "?";
}
