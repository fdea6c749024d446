/*
 * The one YAML loader (with model_ops.c): reads isa/models/<name>.yaml (schema in
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

/* ------------------------------------------------------------------ */
/* Diagnostics and small helpers shared with the other isa/ files.     */

/* A broken model is reported up to this many errors, as a C compiler's
 * error limit does: a file that is not a model at all (random bytes that
 * happen to be YAML) would otherwise list an error per node. */
#define ISA_MAX_ERRORS 50

void
isa_error_at(const struct isa_model *m, struct isa_pos pos, const char *fmt, ...)
{
   if (!m->diag)
      return;
   unsigned reported = m->diag->nerrors - m->diag_base;
   if (reported > ISA_MAX_ERRORS)
      return;
   if (reported == ISA_MAX_ERRORS) {
      diag_add(m->diag, DIAG_ERROR, m->file, pos.line, pos.col, NULL,
               "too many errors (%d); the rest of the model is not reported", ISA_MAX_ERRORS);
      return;
   }
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

/* ------------------------------------------------------------------ */
/* YAML access.                                                        */

struct isa_pos
isa_ld_pos(const yaml_node_t *n)
{
   return (struct isa_pos){(int)n->start_mark.line + 1, (int)n->start_mark.column + 1};
}

void
isa_ld_err(struct isa_ld *l, const yaml_node_t *n, const char *fmt, ...)
{
   char *msg;
   va_list ap;
   va_start(ap, fmt);
   msg = xvasprintf(fmt, ap);
   va_end(ap);
   isa_error_at(l->m, n ? isa_ld_pos(n) : (struct isa_pos){0, 0}, "%s", msg);
   free(msg);
   l->failed = true;
}

yaml_node_t *
isa_ld_node(struct isa_ld *l, int i)
{
   return yaml_document_get_node(&l->doc, i);
}

const char *
isa_ld_scalar(struct isa_ld *l, yaml_node_t *n, const char *what)
{
   if (!n || n->type != YAML_SCALAR_NODE) {
      isa_ld_err(l, n, "%s must be a scalar", what);
      return NULL;
   }
   return (const char *)n->data.scalar.value;
}

bool
isa_ld_is_map(struct isa_ld *l, yaml_node_t *n, const char *what)
{
   if (n && n->type == YAML_MAPPING_NODE)
      return true;
   isa_ld_err(l, n, "%s must be a mapping", what);
   return false;
}

const char *
isa_ld_key(yaml_node_t *k)
{
   return k && k->type == YAML_SCALAR_NODE ? (const char *)k->data.scalar.value : "";
}

yaml_node_t *
isa_ld_get(struct isa_ld *l, yaml_node_t *map, const char *key)
{
   if (!map || map->type != YAML_MAPPING_NODE)
      return NULL;
   MAP_EACH(l, map, k, v)
   if (!strcmp(isa_ld_key(k), key))
      return v;
   return NULL;
}

/* Every key of map must be in the NULL-terminated list: a typo in a model is
 * an error, never a silently ignored setting. */
void
isa_ld_check_keys(struct isa_ld *l, yaml_node_t *map, const char *what, const char *const *keys)
{
   if (!map || map->type != YAML_MAPPING_NODE)
      return;
   MAP_EACH(l, map, k, v)
   {
      const char *s = isa_ld_key(k);
      bool ok = false;
      for (unsigned i = 0; keys[i]; i++)
         ok |= !strcmp(keys[i], s);
      if (!ok)
         isa_ld_err(l, k, "unknown key '%s' in %s", s, what);
      (void)v;
   }
}

bool
isa_parse_i64(const char *s, int64_t *out)
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

bool
isa_ld_int(struct isa_ld *l, yaml_node_t *n, const char *what, int64_t lo, int64_t hi, int64_t *out)
{
   const char *s = isa_ld_scalar(l, n, what);
   if (!s)
      return false;
   int64_t v;
   if (!isa_parse_i64(s, &v)) {
      isa_ld_err(l, n, "%s: '%s' is not an integer", what, s);
      return false;
   }
   if (v < lo || v > hi) {
      isa_ld_err(l, n, "%s: %lld is out of range [%lld, %lld]", what, (long long)v, (long long)lo,
                 (long long)hi);
      return false;
   }
   *out = v;
   return true;
}

int
isa_ld_opt_int(struct isa_ld *l, yaml_node_t *map, const char *key, int64_t lo, int64_t hi, int def)
{
   yaml_node_t *n = isa_ld_get(l, map, key);
   int64_t v;
   if (!n)
      return def;
   return isa_ld_int(l, n, key, lo, hi, &v) ? (int)v : def;
}

bool
isa_ld_opt_bool(struct isa_ld *l, yaml_node_t *map, const char *key, bool def)
{
   yaml_node_t *n = isa_ld_get(l, map, key);
   if (!n)
      return def;
   const char *s = isa_ld_scalar(l, n, key);
   if (s && (!strcmp(s, "true") || !strcmp(s, "yes")))
      return true;
   if (s && (!strcmp(s, "false") || !strcmp(s, "no")))
      return false;
   if (s)
      isa_ld_err(l, n, "%s must be true or false", key);
   return def;
}

char *
isa_ld_opt_str(struct isa_ld *l, yaml_node_t *map, const char *key)
{
   yaml_node_t *n = isa_ld_get(l, map, key);
   if (!n)
      return NULL;
   const char *s = isa_ld_scalar(l, n, key);
   return s ? xstrdup(s) : NULL;
}

/* Index of `name` in an array of structs whose first member is `char *name`,
 * or -1. */
int
isa_find_name(const void *arr, unsigned n, size_t stride, const char *name)
{
   for (unsigned i = 0; i < n; i++) {
      char *const *p = (char *const *)(const void *)((const char *)arr + i * stride);
      if (*p && name && !strcmp(*p, name))
         return (int)i;
   }
   return -1;
}

/* ------------------------------------------------------------------ */
/* Bit ranges, fields, patterns and guards.                            */

/* "N" or "LO..HI" (inclusive), both below limit. */
static bool
parse_span(struct isa_ld *l, yaml_node_t *n, uint64_t limit, int64_t *lo, int64_t *hi)
{
   const char *s = isa_ld_scalar(l, n, "bit range");
   if (!s)
      return false;
   const char *dots = strstr(s, "..");
   if (dots) {
      char *a = xstrndup(s, (size_t)(dots - s));
      bool ok = isa_parse_i64(a, lo) && isa_parse_i64(dots + 2, hi);
      free(a);
      if (!ok) {
         isa_ld_err(l, n, "bad range '%s' (expected LO..HI)", s);
         return false;
      }
   } else if (isa_parse_i64(s, lo)) {
      *hi = *lo;
   } else {
      isa_ld_err(l, n, "bad range '%s' (expected N or LO..HI)", s);
      return false;
   }
   if (*lo < 0 || *hi < *lo) {
      isa_ld_err(l, n, "bad range '%s': low end must be >= 0 and <= high end", s);
      return false;
   }
   if ((uint64_t)*hi >= limit) {
      isa_ld_err(l, n, "range %s is outside the %llu-bit container", s, (unsigned long long)limit);
      return false;
   }
   return true;
}

static bool
parse_range1(struct isa_ld *l, yaml_node_t *n, unsigned limit, struct isa_range *r)
{
   int64_t lo, hi;
   if (!parse_span(l, n, limit, &lo, &hi))
      return false;
   r->lo = (uint8_t)lo;
   r->len = (uint8_t)(hi - lo + 1);
   return true;
}

/* `bits:` -- "N", "LO..HI" or a list of those (least significant first). */
bool
isa_ld_bits(struct isa_ld *l, yaml_node_t *n, unsigned limit, struct isa_field *f)
{
   f->nr = 0;
   f->width = 0;
   if (n && n->type == YAML_SEQUENCE_NODE) {
      SEQ_EACH(l, n, v)
      {
         if (f->nr == ISA_MAX_RANGES) {
            isa_ld_err(l, v, "a field has at most %d bit ranges", ISA_MAX_RANGES);
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
      isa_ld_err(l, n, "a field must have 1 to 64 bits");
      return false;
   }
   return true;
}

/* A match value: a plain integer, or a quoted pattern of 0/1/x written most
 * significant bit first (x: not fixed). */
static bool
parse_pattern(struct isa_ld *l, yaml_node_t *n, unsigned width, uint64_t *mask, uint64_t *val)
{
   const char *s = isa_ld_scalar(l, n, "match value");
   if (!s)
      return false;
   if (n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
      int64_t v;
      if (!isa_parse_i64(s, &v)) {
         isa_ld_err(l, n, "match value '%s' is not an integer (quote 0/1/x patterns)", s);
         return false;
      }
      if (v < 0 || (width < 64 && (uint64_t)v >> width)) {
         isa_ld_err(l, n, "match value %s does not fit %u bits", s, width);
         return false;
      }
      *mask = isa_mask64(width);
      *val = (uint64_t)v;
      return true;
   }
   if (strlen(s) != width) {
      isa_ld_err(l, n, "pattern '%s' has %zu characters for %u bits", s, strlen(s), width);
      return false;
   }
   *mask = *val = 0;
   for (unsigned i = 0; i < width; i++) {
      char c = s[width - 1 - i];
      if (c == '0' || c == '1') {
         *mask |= 1ull << i;
         *val |= (uint64_t)(c == '1') << i;
      } else if (c != 'x') {
         isa_ld_err(l, n, "pattern '%s' may only hold 0, 1 and x", s);
         return false;
      }
   }
   return true;
}

int
isa_field_find(struct isa_field *f, unsigned n, const char *name)
{
   return FIND(f, n, name);
}

/* `match:` keys are field names or bit ranges. Fields named there become
 * ISA_FK_FIXED when fix is set (an op fixing a layout field). */
void
isa_ld_match(struct isa_ld *l, yaml_node_t *map, struct isa_field *fields, unsigned nfields,
             unsigned limit, struct isa_bits *mask, struct isa_bits *match, bool fix)
{
   if (!isa_ld_is_map(l, map, "match"))
      return;
   MAP_EACH(l, map, k, v)
   {
      struct isa_field tmp = {0};
      struct isa_field *f = &tmp;
      int fi = isa_field_find(fields, nfields, isa_ld_key(k));
      if (fi >= 0) {
         f = &fields[fi];
      } else if (!(isa_ld_key(k)[0] >= '0' && isa_ld_key(k)[0] <= '9')) {
         isa_ld_err(l, k, "'%s' is neither a field nor a bit range", isa_ld_key(k));
         continue;
      } else if (!isa_ld_bits(l, k, limit, &tmp)) {
         continue;
      }
      uint64_t fm, fv;
      if (!parse_pattern(l, v, f->width, &fm, &fv))
         continue;
      struct isa_bits mb = {{0, 0}}, vb = {{0, 0}};
      isa_field_set(f, &mb, fm);
      isa_field_set(f, &vb, fv);
      if ((mask->w[0] & mb.w[0]) | (mask->w[1] & mb.w[1])) {
         isa_ld_err(l, k, "'%s' is matched twice", isa_ld_key(k));
         continue;
      }
      for (int w = 0; w < 2; w++) {
         mask->w[w] |= mb.w[w];
         match->w[w] |= vb.w[w];
      }
      if (fi >= 0 && fix) {
         if (fm != isa_mask64(f->width))
            isa_ld_err(l, v,
                       "fixing field '%s' needs every bit (use bit ranges for partial patterns)",
                       f->name);
         f->kind = ISA_FK_FIXED;
      }
   }
}

void
isa_ld_ignore(struct isa_ld *l, yaml_node_t *n, unsigned limit, struct isa_bits *ign)
{
   struct isa_field f = {0};
   if (n && n->type == YAML_SEQUENCE_NODE &&
       n->data.sequence.items.start == n->data.sequence.items.top)
      return;
   if (!isa_ld_bits(l, n, limit, &f))
      return;
   struct isa_bits b = {{0, 0}};
   isa_field_set(&f, &b, ~0ull);
   ign->w[0] |= b.w[0];
   ign->w[1] |= b.w[1];
}

/* "a == b", "a != 3", joined by "&&". */
uint8_t
isa_ld_guards(struct isa_ld *l, yaml_node_t *n, struct isa_field *fields, unsigned nfields,
              struct isa_guard *g)
{
   const char *s = isa_ld_scalar(l, n, "condition");
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
      struct isa_guard *gg = &g[ng];
      if (ng < ISA_MAX_GUARDS && sscanf(part, " %63[A-Za-z0-9_.] is %63[A-Za-z0-9_] ", a, b) == 2) {
         gg->op = ISA_GUARD_IS;
         gg->a = (int16_t)isa_field_find(fields, nfields, a);
         gg->b = -1;
         if (gg->a < 0 || fields[gg->a].kind != ISA_FK_OPERAND || fields[gg->a].format < 0) {
            isa_ld_err(l, n, "'%s' is not an operand field", a);
            break;
         }
         const struct isa_format *fm = &l->m->formats[fields[gg->a].format];
         gg->val = FIND(fm->cases, fm->ncases, b);
         if (gg->val < 0) {
            isa_ld_err(l, n, "format '%s' has no form '%s'", fm->name, b);
            break;
         }
         ng++;
         continue;
      }
      if (sscanf(part, " %63[A-Za-z0-9_.] %2[=!] %63[A-Za-z0-9_.x-] ", a, op, b) != 3 ||
          (strcmp(op, "==") && strcmp(op, "!="))) {
         isa_ld_err(l, n,
                    "bad condition '%s' (expected NAME == VALUE, NAME != NAME or NAME is FORM, "
                    "joined by &&)",
                    s);
         break;
      }
      if (ng == ISA_MAX_GUARDS) {
         isa_ld_err(l, n, "at most %d conditions joined by &&", ISA_MAX_GUARDS);
         break;
      }
      gg->op = op[0] == '=' ? ISA_GUARD_EQ : ISA_GUARD_NE;
      gg->a = (int16_t)isa_field_find(fields, nfields, a);
      if (gg->a < 0) {
         isa_ld_err(l, n, "unknown field '%s' in condition", a);
         break;
      }
      int64_t v;
      if (isa_parse_i64(b, &v)) {
         gg->b = -1;
         gg->val = (int32_t)v;
      } else {
         gg->b = (int16_t)isa_field_find(fields, nfields, b);
         if (gg->b < 0) {
            isa_ld_err(l, n, "unknown field '%s' in condition", b);
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
struct isa_field *
isa_ld_fields(struct isa_ld *l, yaml_node_t *map, unsigned limit, bool in_operand, unsigned *out_n)
{
   *out_n = 0;
   if (!map)
      return NULL;
   if (!isa_ld_is_map(l, map, "fields"))
      return NULL;
   unsigned n = (unsigned)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
   struct isa_field *f = xcalloc(n ? n : 1, sizeof(*f));
   unsigned i = 0;
   MAP_EACH(l, map, k, v)
   {
      struct isa_field *x = &f[i++];
      x->name = xstrdup(isa_ld_key(k));
      x->pos = isa_ld_pos(k);
      x->mod = x->format = x->target = -1;
      if (isa_field_find(f, i - 1, x->name) >= 0)
         isa_ld_err(l, k, "duplicate field '%s'", x->name);
      if (v->type != YAML_MAPPING_NODE) {
         isa_ld_bits(l, v, limit, x);
         continue;
      }
      isa_ld_check_keys(l, v, "field", field_keys);
      yaml_node_t *b = isa_ld_get(l, v, "bits");
      if (!b)
         isa_ld_err(l, v, "field '%s' has no bits", x->name);
      else
         isa_ld_bits(l, b, limit, x);
      const char *s;
      if ((b = isa_ld_get(l, v, "mod")) && (s = isa_ld_scalar(l, b, "mod"))) {
         x->kind = ISA_FK_MOD;
         x->mod = (int16_t)FIND(l->m->mods, l->m->nmods, s);
         if (x->mod < 0)
            isa_ld_err(l, b, "unknown modifier '%s'", s);
      } else if ((b = isa_ld_get(l, v, "operand")) && (s = isa_ld_scalar(l, b, "operand"))) {
         x->kind = ISA_FK_OPERAND;
         x->format = (int16_t)FIND(l->m->formats, l->m->nformats, s);
         if (x->format < 0)
            isa_ld_err(l, b, "unknown operand format '%s'", s);
      } else if ((b = isa_ld_get(l, v, "flag"))) {
         x->kind = ISA_FK_FLAG;
         yaml_node_t *fl = b;
         if (!in_operand) {
            if (b->type != YAML_SEQUENCE_NODE ||
                b->data.sequence.items.top - b->data.sequence.items.start != 2) {
               isa_ld_err(l, b, "flag must be [OPERAND_FIELD, FLAG] here");
               continue;
            }
            fl = isa_ld_node(l, b->data.sequence.items.start[1]);
         }
         s = isa_ld_scalar(l, fl, "flag");
         if (s && !(x->flag = flag_find(s)))
            isa_ld_err(l, fl, "unknown operand flag '%s' (neg, abs, r, sext, not, last, hi)", s);
      }
   }
   /* Second pass: names of sibling fields (flag targets, conditions), and
    * of the layout's fields when an op's own fields are read. */
   struct isa_field *all = f;
   unsigned nall = n;
   if (l->nouter) {
      nall = l->nouter + n;
      all = xcalloc(nall, sizeof(*all));
      memcpy(all, l->outer, l->nouter * sizeof(*all));
      memcpy(all + l->nouter, f, n * sizeof(*all));
   }
   i = 0;
   MAP_EACH(l, map, k, v)
   {
      struct isa_field *x = &f[i++];
      (void)k;
      yaml_node_t *b;
      if (x->kind == ISA_FK_FLAG && !in_operand && (b = isa_ld_get(l, v, "flag")) &&
          b->type == YAML_SEQUENCE_NODE) {
         yaml_node_t *t = isa_ld_node(l, b->data.sequence.items.start[0]);
         const char *s = isa_ld_scalar(l, t, "flag operand");
         x->target = s ? (int16_t)isa_field_find(all, nall, s) : -1;
         if (s && (x->target < 0 || all[x->target].kind != ISA_FK_OPERAND))
            isa_ld_err(l, t, "'%s' is not an operand field", s);
      }
      if (v->type == YAML_MAPPING_NODE && (b = isa_ld_get(l, v, "when")))
         x->nguard = isa_ld_guards(l, b, all, nall, x->guard);
   }
   if (all != f)
      free(all);
   *out_n = n;
   return f;
}

struct isa_field *
isa_copy_fields(const struct isa_field *f, unsigned n, unsigned extra)
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
bool
isa_ld_fmt(struct isa_ld *l, yaml_node_t *n, const char *s, const char *allowed, struct isa_fmt *f)
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
      isa_ld_err(l, n, "display pattern '%s' must hold one conversion out of %%[%s]", s, allowed);
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

int
isa_lookup_str(const char *const *names, unsigned n, const char *s)
{
   for (unsigned i = 0; i < n; i++)
      if (!strcmp(names[i], s))
         return (int)i;
   return -1;
}

int
isa_ld_enum(struct isa_ld *l, yaml_node_t *n, const char *what, const char *const *names,
            unsigned cnt)
{
   const char *s = isa_ld_scalar(l, n, what);
   if (!s)
      return -1;
   int i = isa_lookup_str(names, cnt, s);
   if (i < 0)
      isa_ld_err(l, n, "unknown %s '%s'", what, s);
   return i;
}

static void
parse_regfiles(struct isa_ld *l, yaml_node_t *map)
{
   static const char *const keys[] = {"kind",      "count",      "width", "print", "prefix",
                                      "names",     "pair_names", "half",  "alias", "fixed",
                                      "undefined", "doc",        NULL};
   struct isa_model *m = l->m;
   if (!isa_ld_is_map(l, map, "regfiles"))
      return;
   m->files = xcalloc((size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start) + 1,
                      sizeof(*m->files));
   MAP_EACH(l, map, k, v)
   {
      struct isa_regfile *f = &m->files[m->nfiles++];
      f->name = xstrdup(isa_ld_key(k));
      f->pos = isa_ld_pos(k);
      f->half = f->alias = f->half_of = f->fixed = -1;
      if (FIND(m->files, m->nfiles - 1, f->name) >= 0)
         isa_ld_err(l, k, "duplicate register file '%s'", f->name);
      if (!isa_ld_is_map(l, v, "register file"))
         continue;
      isa_ld_check_keys(l, v, "register file", keys);
      yaml_node_t *x = isa_ld_get(l, v, "kind");
      int kind =
          x ? isa_ld_enum(l, x, "register file kind", isa_file_kind_names, ISA_FILE_KIND_COUNT)
            : -1;
      if (!x)
         isa_ld_err(l, v, "register file '%s' has no kind", f->name);
      f->kind = kind < 0 ? ISA_FILE_FULL : (enum isa_file_kind)kind;
      f->count = (unsigned)isa_ld_opt_int(l, v, "count", 1, 65536, 0);
      f->width = (unsigned)isa_ld_opt_int(l, v, "width", 1, 64, 32);
      if (!f->count)
         isa_ld_err(l, v, "register file '%s' needs a count", f->name);
      char *pr = isa_ld_opt_str(l, v, "print");
      if (!pr || !strcmp(pr, "scalar"))
         f->print = ISA_PRINT_SCALAR;
      else if (!strcmp(pr, "vec4"))
         f->print = ISA_PRINT_VEC4;
      else if (!strcmp(pr, "halves"))
         f->print = ISA_PRINT_HALVES;
      else if (!strcmp(pr, "range"))
         f->print = ISA_PRINT_RANGE;
      else
         isa_ld_err(l, isa_ld_get(l, v, "print"), "print must be scalar, vec4, halves or range");
      free(pr);
      f->prefix = isa_ld_opt_str(l, v, "prefix");
      if (!f->prefix)
         f->prefix = xstrdup(f->name);
      if ((x = isa_ld_get(l, v, "names"))) {
         f->names = xcalloc(f->count, sizeof(char *));
         if (x->type == YAML_SEQUENCE_NODE) {
            unsigned i = 0;
            SEQ_EACH(l, x, e)
            {
               const char *s = isa_ld_scalar(l, e, "register name");
               if (i >= f->count)
                  isa_ld_err(l, e, "more names than registers");
               else if (s)
                  f->names[i] = xstrdup(s);
               i++;
            }
         } else if (isa_ld_is_map(l, x, "names")) {
            MAP_EACH(l, x, nk, nv)
            {
               int64_t idx;
               const char *s = isa_ld_scalar(l, nv, "register name");
               if (isa_ld_int(l, nk, "register index", 0, (int64_t)f->count - 1, &idx) && s &&
                   idx >= 0 && (uint64_t)idx < f->count)
                  f->names[idx] = xstrdup(s);
            }
         }
      }
      /* pair_names: {INDEX: NAME}: a two-register operand from INDEX
       * (gfx9 vcc = s[106:107]); only for print: range. */
      if ((x = isa_ld_get(l, v, "pair_names")) && isa_ld_is_map(l, x, "pair_names")) {
         if (f->print != ISA_PRINT_RANGE)
            isa_ld_err(l, x, "pair_names needs print: range");
         f->pair_names = xcalloc(f->count, sizeof(char *));
         MAP_EACH(l, x, nk, nv)
         {
            int64_t idx;
            const char *s = isa_ld_scalar(l, nv, "register name");
            if (isa_ld_int(l, nk, "register index", 0, (int64_t)f->count - 2, &idx) && s)
               f->pair_names[idx] = xstrdup(s);
         }
      }
      /* undefined: [INDEX, ...]: registers that hold no value when a wave
       * starts (gfx9 M0): a read before the wave writes one is reported. */
      if ((x = isa_ld_get(l, v, "undefined"))) {
         if (x->type != YAML_SEQUENCE_NODE)
            isa_ld_err(l, x, "undefined must be a list of register indices");
         else {
            f->undef = xcalloc(f->count ? f->count : 1, sizeof(bool));
            SEQ_EACH(l, x, e)
            {
               int64_t idx;
               if (f->count && isa_ld_int(l, e, "register index", 0, f->count - 1, &idx))
                  f->undef[idx] = true;
            }
         }
      }
      /* fixed: {INDEX: VALUE}: a register that always reads VALUE and
       * discards writes (sm50 RZ, PT). */
      if ((x = isa_ld_get(l, v, "fixed")) && isa_ld_is_map(l, x, "fixed")) {
         MAP_EACH(l, x, nk, nv)
         {
            int64_t idx, val;
            if (f->fixed >= 0)
               isa_ld_err(l, nk, "one fixed register per file");
            else if (isa_ld_int(l, nk, "register index", 0, f->count - 1, &idx) &&
                     isa_ld_int(l, nv, "fixed value", INT32_MIN, UINT32_MAX, &val)) {
               f->fixed = (int)idx;
               f->fixed_value = (uint32_t)val;
            }
         }
      }
   }
   /* half/alias name other files: resolve once all are known. */
   for (unsigned i = 0; i < m->nfiles; i++) {
      yaml_node_t *v = isa_ld_get(l, map, m->files[i].name), *x;
      if (!v || v->type != YAML_MAPPING_NODE)
         continue;
      if ((x = isa_ld_get(l, v, "half"))) {
         const char *s = isa_ld_scalar(l, x, "half");
         m->files[i].half = s ? FIND(m->files, m->nfiles, s) : -1;
         if (s && m->files[i].half < 0)
            isa_ld_err(l, x, "unknown register file '%s'", s);
      }
      if ((x = isa_ld_get(l, v, "alias"))) {
         const char *s = isa_ld_scalar(l, x, "alias");
         int a = s ? FIND(m->files, m->nfiles, s) : -1;
         if (s && a < 0)
            isa_ld_err(l, x, "unknown register file '%s'", s);
         else if (a >= 0)
            m->files[a].alias = (int)i;
      }
   }
   /* the reverse link, asked per operand by the hazard and width code */
   for (unsigned i = 0; i < m->nfiles; i++)
      if (m->files[i].alias >= 0)
         m->files[m->files[i].alias].half_of = (int)i;
}

static void
parse_regsets(struct isa_ld *l, yaml_node_t *map)
{
   struct isa_model *m = l->m;
   static const char *const keys[] = {"values", "file", "base", "stride", "scale", NULL};
   if (!isa_ld_is_map(l, map, "regsets"))
      return;
   m->regsets = xcalloc((size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start) + 1,
                        sizeof(*m->regsets));
   MAP_EACH(l, map, k, v)
   {
      struct isa_regset *rs = &m->regsets[m->nregsets++];
      rs->name = xstrdup(isa_ld_key(k));
      rs->pos = isa_ld_pos(k);
      if (FIND(m->regsets, m->nregsets - 1, rs->name) >= 0)
         isa_ld_err(l, k, "duplicate regset '%s'", rs->name);
      if (!v || v->type != YAML_SEQUENCE_NODE) {
         isa_ld_err(l, v, "regset '%s' must be a list of {values, file}", rs->name);
         continue;
      }
      rs->v = xcalloc((size_t)(v->data.sequence.items.top - v->data.sequence.items.start) + 1,
                      sizeof(*rs->v));
      SEQ_EACH(l, v, e)
      {
         if (!isa_ld_is_map(l, e, "regset entry"))
            continue;
         isa_ld_check_keys(l, e, "regset entry", keys);
         struct isa_regrange *r = &rs->v[rs->n++];
         yaml_node_t *x = isa_ld_get(l, e, "values");
         int64_t lo, hi;
         if (!x) {
            isa_ld_err(l, e, "regset entry needs values: LO..HI");
            continue;
         }
         if (!parse_span(l, x, 1u << 16, &lo, &hi))
            continue;
         r->from = (unsigned)lo;
         r->to = (unsigned)hi;
         r->base = (unsigned)isa_ld_opt_int(l, e, "base", 0, 65535, 0);
         r->stride = (unsigned)isa_ld_opt_int(l, e, "stride", 1, 64, 1);
         r->scale = (unsigned)isa_ld_opt_int(l, e, "scale", 1, 64, 1);
         const char *fs = (x = isa_ld_get(l, e, "file")) ? isa_ld_scalar(l, x, "file") : NULL;
         r->file = fs ? FIND(m->files, m->nfiles, fs) : -1;
         if (!x)
            isa_ld_err(l, e, "regset entry needs a file");
         else if (fs && r->file < 0)
            isa_ld_err(l, x, "unknown register file '%s'", fs);
         else if (r->file >= 0 &&
                  r->base + (r->to - r->from) / r->stride * r->scale >= m->files[r->file].count)
            isa_ld_err(l, e, "values %u..%u exceed the %u registers of '%s'", r->from, r->to,
                       m->files[r->file].count, fs);
      }
   }
}

static void
parse_enums(struct isa_ld *l, yaml_node_t *map)
{
   static const char *const keys[] = {"value", "print", "flip", "type", "width", NULL};
   struct isa_model *m = l->m;
   if (!isa_ld_is_map(l, map, "enums"))
      return;
   m->enums = xcalloc((size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start) + 1,
                      sizeof(*m->enums));
   MAP_EACH(l, map, k, v)
   {
      struct isa_enum *e = &m->enums[m->nenums++];
      e->name = xstrdup(isa_ld_key(k));
      e->pos = isa_ld_pos(k);
      if (FIND(m->enums, m->nenums - 1, e->name) >= 0)
         isa_ld_err(l, k, "duplicate enum '%s'", e->name);
      if (!isa_ld_is_map(l, v, "enum"))
         continue;
      e->v = xcalloc((size_t)(v->data.mapping.pairs.top - v->data.mapping.pairs.start) + 1,
                     sizeof(*e->v));
      MAP_EACH(l, v, ek, ev)
      {
         struct isa_enum_entry *x = &e->v[e->n++];
         int64_t val = 0;
         x->name = xstrdup(isa_ld_key(ek));
         x->pos = isa_ld_pos(ek);
         x->flip = -1;
         if (FIND(e->v, e->n - 1, x->name) >= 0)
            isa_ld_err(l, ek, "duplicate entry '%s' in enum '%s'", x->name, e->name);
         if (ev->type == YAML_MAPPING_NODE) {
            isa_ld_check_keys(l, ev, "enum entry", keys);
            yaml_node_t *vn = isa_ld_get(l, ev, "value");
            if (!vn)
               isa_ld_err(l, ev, "enum entry '%s' needs a value", x->name);
            else
               isa_ld_int(l, vn, "value", INT32_MIN, INT32_MAX, &val);
            x->print = isa_ld_opt_str(l, ev, "print");
            yaml_node_t *t = isa_ld_get(l, ev, "type");
            if (t) {
               int ti = isa_ld_enum(l, t, "type", isa_type_names, ISA_TYPE_COUNT);
               x->type = ti < 0 ? 0 : (uint8_t)ti;
            }
            x->width = (uint8_t)isa_ld_opt_int(l, ev, "width", 1, 64, 0);
         } else {
            isa_ld_int(l, ev, "enum value", INT32_MIN, INT32_MAX, &val);
         }
         x->value = (int32_t)val;
         if (!x->print)
            x->print = xstrdup(x->name);
         for (unsigned i = 0; i + 1 < e->n; i++)
            if (e->v[i].value == x->value)
               isa_ld_err(l, ek, "enum '%s': '%s' repeats the value of '%s'", e->name, x->name,
                          e->v[i].name);
      }
      /* Flip partners name entries of the same enum. */
      unsigned i = 0;
      MAP_EACH(l, v, ek, ev)
      {
         yaml_node_t *fn;
         (void)ek;
         if (ev->type == YAML_MAPPING_NODE && (fn = isa_ld_get(l, ev, "flip"))) {
            const char *s = isa_ld_scalar(l, fn, "flip");
            e->v[i].flip = s ? (int16_t)FIND(e->v, e->n, s) : -1;
            if (s && e->v[i].flip < 0)
               isa_ld_err(l, fn, "flip names '%s', not an entry of enum '%s'", s, e->name);
         }
         i++;
      }
   }
}

static void
parse_luts(struct isa_ld *l, yaml_node_t *map)
{
   struct isa_model *m = l->m;
   if (!isa_ld_is_map(l, map, "luts"))
      return;
   m->luts = xcalloc((size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start) + 1,
                     sizeof(*m->luts));
   MAP_EACH(l, map, k, v)
   {
      struct isa_lut *t = &m->luts[m->nluts++];
      t->name = xstrdup(isa_ld_key(k));
      if (!v || v->type != YAML_SEQUENCE_NODE) {
         isa_ld_err(l, v, "lut '%s' must be a list of numbers", t->name);
         continue;
      }
      size_t cap = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start) + 1;
      t->v = xcalloc(cap, sizeof(uint32_t));
      t->v64 = xcalloc(cap, sizeof(uint64_t));
      SEQ_EACH(l, v, e)
      {
         const char *s = isa_ld_scalar(l, e, "lut value");
         int64_t raw;
         char *end = NULL;
         if (!s)
            continue;
         if (!strncmp(s, "0x", 2) && isa_parse_i64(s, &raw) && raw <= UINT32_MAX) {
            t->v64[t->n] = (uint64_t)(int64_t)(int32_t)raw;
            t->v[t->n++] = (uint32_t)raw; /* raw bits */
            continue;
         }
         double d = strtod(s, &end);
         if (!*s || *end)
            isa_ld_err(l, e, "'%s' is not a number", s);
         memcpy(&t->v64[t->n], &d, sizeof(d));
         t->v[t->n++] = fui((float)d);
      }
   }
}

static void
parse_mods(struct isa_ld *l, yaml_node_t *map)
{
   static const char *const keys[] = {"kind",   "enum",    "max",     "role", "print",
                                      "always", "default", "operand", "doc",  NULL};
   struct isa_model *m = l->m;
   if (!isa_ld_is_map(l, map, "modifiers"))
      return;
   m->mods = xcalloc((size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start) + 1,
                     sizeof(*m->mods));
   MAP_EACH(l, map, k, v)
   {
      if (m->nmods == ISA_MAX_MODS) {
         isa_ld_err(l, k, "more than %d modifiers", ISA_MAX_MODS);
         break;
      }
      struct isa_mod *md = &m->mods[m->nmods++];
      md->name = xstrdup(isa_ld_key(k));
      md->pos = isa_ld_pos(k);
      md->enm = -1;
      if (FIND(m->mods, m->nmods - 1, md->name) >= 0)
         isa_ld_err(l, k, "duplicate modifier '%s'", md->name);
      if (!isa_ld_is_map(l, v, "modifier"))
         continue;
      isa_ld_check_keys(l, v, "modifier", keys);
      yaml_node_t *x;
      char *kind = isa_ld_opt_str(l, v, "kind");
      char *en = isa_ld_opt_str(l, v, "enum");
      md->kind = en ? ISA_MOD_ENUM : ISA_MOD_FLAG;
      if (kind) {
         static const char *const kinds[] = {"flag", "int", "enum"};
         int ki = isa_lookup_str(kinds, 3, kind);
         if (ki < 0)
            isa_ld_err(l, isa_ld_get(l, v, "kind"), "modifier kind must be flag, int or enum");
         else
            md->kind = (enum isa_mod_kind)ki;
      }
      if (md->kind == ISA_MOD_ENUM) {
         md->enm = en ? FIND(m->enums, m->nenums, en) : -1;
         if (md->enm < 0)
            isa_ld_err(l, en ? isa_ld_get(l, v, "enum") : v, "modifier '%s': unknown enum '%s'",
                       md->name, en ? en : "(none given)");
      }
      free(kind);
      free(en);
      md->max = isa_ld_opt_int(l, v, "max", 0, 32767, md->kind == ISA_MOD_FLAG ? 1 : 32767);
      md->always = isa_ld_opt_bool(l, v, "always", false);
      md->operand = isa_ld_opt_str(l, v, "operand");
      if ((x = isa_ld_get(l, v, "default"))) {
         const char *ds = isa_ld_scalar(l, x, "default");
         int64_t dv;
         if (ds && md->kind == ISA_MOD_ENUM && md->enm >= 0) {
            const struct isa_enum *e = &m->enums[md->enm];
            int ei = FIND(e->v, e->n, ds);
            if (ei < 0)
               isa_ld_err(l, x, "default '%s' is not an entry of enum '%s'", ds, e->name);
            else
               md->def = e->v[ei].value;
         } else if (ds && isa_parse_i64(ds, &dv) && dv >= 0 && dv <= md->max) {
            md->def = (int32_t)dv;
         } else if (ds) {
            isa_ld_err(l, x, "bad default '%s'", ds);
         }
      }
      if ((x = isa_ld_get(l, v, "role"))) {
         int r = isa_ld_enum(l, x, "role", isa_role_names, ISA_ROLE_COUNT);
         md->role = r < 0 ? ISA_ROLE_NONE : (enum isa_role)r;
         /* atom_op may be several enums, one per opcode field (gfx9 DS and
          * GLOBAL atomics): isa_insn_mod_by_role finds an op's own */
         if (r > 0 && m->role_mod[r] >= 0 && r != ISA_ROLE_ATOM_OP)
            isa_ld_err(l, x, "role '%s' is already played by '%s'", isa_role_names[r],
                       m->mods[m->role_mod[r]].name);
         else if (r > 0 && m->role_mod[r] < 0)
            m->role_mod[r] = (int)(m->nmods - 1);
      }
      x = isa_ld_get(l, v, "print");
      const char *ps = x ? isa_ld_scalar(l, x, "print") : NULL;
      if (!x)
         isa_ld_err(l, v, "modifier '%s' needs a print pattern (\"\" hides it)", md->name);
      else if (ps) {
         md->hidden = !*ps;
         const char *allowed = md->kind == ISA_MOD_ENUM  ? "s"
                               : md->kind == ISA_MOD_INT ? "dux"
                                                         : "";
         if (isa_ld_fmt(l, x, ps, allowed, &md->fmt) && md->kind != ISA_MOD_FLAG && !md->fmt.conv &&
             !md->hidden)
            isa_ld_err(l, x, "print pattern of '%s' needs a %%%s conversion", md->name,
                       md->kind == ISA_MOD_ENUM ? "s" : "d");
      }
      if (!md->fmt.pre) {
         md->fmt.pre = xstrdup("");
         md->fmt.post = xstrdup("");
      }
   }
}

static void
parse_case_body(struct isa_ld *l, struct isa_format *fm, struct isa_case *c, yaml_node_t *v)
{
   static const char *const keys[] = {"match", "ignore", "reg", "const", "rel",
                                      "imm",   "fields", "doc", NULL};
   static const char *const reg_keys[] = {"bits", "regset", NULL};
   static const char *const const_keys[] = {"bits", "file", "bank", NULL};
   static const char *const rel_keys[] = {"bits", "file", "addr", NULL};
   static const char *const imm_keys[] = {"bits", "signed", "float", "lut", "print", "pcrel", NULL};
   struct isa_model *m = l->m;
   isa_ld_check_keys(l, v, "operand form", keys);
   c->fields = isa_ld_fields(l, isa_ld_get(l, v, "fields"), fm->bits, true, &c->nfields);
   c->regset = c->file = c->addr_file = c->lut = c->bank_field = -1;
   yaml_node_t *x, *b, *kn = NULL;
   int nkinds = 0;
   if ((x = isa_ld_get(l, v, "reg"))) {
      kn = x;
      nkinds++;
      c->kind = ISA_OPND_REG;
      isa_ld_check_keys(l, x, "reg", reg_keys);
      const char *s = (b = isa_ld_get(l, x, "regset")) ? isa_ld_scalar(l, b, "regset") : NULL;
      c->regset = s ? FIND(m->regsets, m->nregsets, s) : -1;
      if (c->regset < 0)
         isa_ld_err(l, b ? b : x, "reg form needs a known regset");
   }
   if ((x = isa_ld_get(l, v, "const"))) {
      kn = x;
      nkinds++;
      c->kind = ISA_OPND_CONST;
      isa_ld_check_keys(l, x, "const", const_keys);
      const char *s = (b = isa_ld_get(l, x, "file")) ? isa_ld_scalar(l, b, "file") : NULL;
      c->file = s ? FIND(m->files, m->nfiles, s) : -1;
      if (c->file < 0)
         isa_ld_err(l, b ? b : x, "const form needs a known register file");
      if ((b = isa_ld_get(l, x, "bank"))) {
         s = isa_ld_scalar(l, b, "bank");
         c->bank_field = s ? isa_field_find(c->fields, c->nfields, s) : -1;
         if (c->bank_field < 0)
            isa_ld_err(l, b, "bank names no field of this form");
      }
   }
   if ((x = isa_ld_get(l, v, "rel"))) {
      kn = x;
      nkinds++;
      c->kind = ISA_OPND_REG;
      c->rel = true;
      isa_ld_check_keys(l, x, "rel", rel_keys);
      const char *s = (b = isa_ld_get(l, x, "file")) ? isa_ld_scalar(l, b, "file") : NULL;
      c->file = s ? FIND(m->files, m->nfiles, s) : -1;
      if (c->file < 0)
         isa_ld_err(l, b ? b : x, "rel form needs a known register file");
      else if (m->files[c->file].kind == ISA_FILE_CONST)
         c->kind = ISA_OPND_CONST;
      s = (b = isa_ld_get(l, x, "addr")) ? isa_ld_scalar(l, b, "addr") : NULL;
      char *colon = s ? strchr(s, ':') : NULL;
      if (colon) {
         char *fn = xstrndup(s, (size_t)(colon - s));
         int64_t idx;
         c->addr_file = FIND(m->files, m->nfiles, fn);
         free(fn);
         if (c->addr_file < 0 || !isa_parse_i64(colon + 1, &idx) || idx < 0 ||
             (unsigned)idx >= m->files[c->addr_file].count)
            isa_ld_err(l, b, "addr must be FILE:INDEX of an address register");
         else
            c->addr_index = (int)idx;
      } else {
         isa_ld_err(l, b ? b : x, "rel form needs addr: FILE:INDEX");
      }
   }
   if ((x = isa_ld_get(l, v, "imm"))) {
      kn = x;
      nkinds++;
      c->kind = ISA_OPND_IMM;
      isa_ld_check_keys(l, x, "imm", imm_keys);
      c->sign = isa_ld_opt_bool(l, x, "signed", false);
      char *fl = isa_ld_opt_str(l, x, "float");
      if (fl && strcmp(fl, "top"))
         isa_ld_err(l, isa_ld_get(l, x, "float"), "float must be 'top' (the top bits of an f32)");
      c->float_top = fl != NULL;
      free(fl);
      char *lu = isa_ld_opt_str(l, x, "lut");
      if (lu && (c->lut = FIND(m->luts, m->nluts, lu)) < 0)
         isa_ld_err(l, isa_ld_get(l, x, "lut"), "unknown lut '%s'", lu);
      free(lu);
      char *pr = isa_ld_opt_str(l, x, "print");
      if (pr)
         isa_ld_fmt(l, isa_ld_get(l, x, "print"), pr, "duxf", &c->fmt);
      free(pr);
      char *pc = isa_ld_opt_str(l, x, "pcrel");
      if (pc) {
         static const char *const pcrel_names[] = {"",     "insn",      "insn_next",
                                                   "byte", "byte_next", "dword_next"};
         int k = isa_lookup_str(pcrel_names, 6, pc);
         if (k <= 0)
            isa_ld_err(l, isa_ld_get(l, x, "pcrel"),
                       "pcrel must be insn, insn_next, byte, byte_next or dword_next");
         c->pcrel = (uint8_t)(k > 0 ? k : 0);
      }
      free(pc);
   }
   if (nkinds != 1) {
      isa_ld_err(l, v, "operand form '%s' needs exactly one of reg, const, rel, imm", c->name);
      return;
   }
   x = kn;
   b = isa_ld_get(l, x, "bits");
   if (!b)
      isa_ld_err(l, x, "operand form '%s' needs bits", c->name);
   else
      isa_ld_bits(l, b, fm->bits, &c->val);
   c->val.name = xstrdup("value");
   struct isa_bits mk = {{0, 0}}, mt = {{0, 0}}, ig = {{0, 0}};
   if ((b = isa_ld_get(l, v, "match")))
      isa_ld_match(l, b, c->fields, c->nfields, fm->bits, &mk, &mt, false);
   if ((b = isa_ld_get(l, v, "ignore")))
      isa_ld_ignore(l, b, fm->bits, &ig);
   c->mask = mk.w[0];
   c->match = mt.w[0];
   c->ignore = ig.w[0];
}

static void
parse_formats(struct isa_ld *l, yaml_node_t *map)
{
   static const char *const keys[] = {"bits", "fields", "cases", "doc", NULL};
   struct isa_model *m = l->m;
   if (!isa_ld_is_map(l, map, "formats"))
      return;
   m->formats = xcalloc((size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start) + 1,
                        sizeof(*m->formats));
   MAP_EACH(l, map, k, v)
   {
      struct isa_format *fm = &m->formats[m->nformats++];
      fm->name = xstrdup(isa_ld_key(k));
      fm->pos = isa_ld_pos(k);
      if (FIND(m->formats, m->nformats - 1, fm->name) >= 0)
         isa_ld_err(l, k, "duplicate format '%s'", fm->name);
      if (!isa_ld_is_map(l, v, "format"))
         continue;
      isa_ld_check_keys(l, v, "format", keys);
      fm->bits = (unsigned)isa_ld_opt_int(l, v, "bits", 1, 64, 0);
      if (!fm->bits) {
         isa_ld_err(l, v, "format '%s' needs bits (1..64)", fm->name);
         continue;
      }
      fm->fields = isa_ld_fields(l, isa_ld_get(l, v, "fields"), fm->bits, true, &fm->nfields);
      yaml_node_t *cs = isa_ld_get(l, v, "cases");
      if (!cs || !isa_ld_is_map(l, cs, "cases")) {
         if (!cs)
            isa_ld_err(l, v, "format '%s' needs cases", fm->name);
         continue;
      }
      fm->cases = xcalloc((size_t)(cs->data.mapping.pairs.top - cs->data.mapping.pairs.start) + 1,
                          sizeof(*fm->cases));
      MAP_EACH(l, cs, ck, cv)
      {
         if (fm->ncases == 32) {
            isa_ld_err(l, ck, "more than 32 operand forms");
            break;
         }
         struct isa_case *c = &fm->cases[fm->ncases++];
         c->name = xstrdup(isa_ld_key(ck));
         c->pos = isa_ld_pos(ck);
         if (FIND(fm->cases, fm->ncases - 1, c->name) >= 0)
            isa_ld_err(l, ck, "duplicate operand form '%s'", c->name);
         if (isa_ld_is_map(l, cv, "operand form"))
            parse_case_body(l, fm, c, cv);
      }
   }
}

static void
parse_classes(struct isa_ld *l, yaml_node_t *map)
{
   static const char *const keys[] = {"latency",       "sync", "war",       "soft",
                                      "read_early",    "flow", "unordered", "scalar",
                                      "explicit_only", "doc",  NULL};
   struct isa_model *m = l->m;
   if (!isa_ld_is_map(l, map, "classes"))
      return;
   m->classes = xcalloc((size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start) + 1,
                        sizeof(*m->classes));
   MAP_EACH(l, map, k, v)
   {
      struct isa_class *c = &m->classes[m->nclasses++];
      c->name = xstrdup(isa_ld_key(k));
      c->pos = isa_ld_pos(k);
      if (FIND(m->classes, m->nclasses - 1, c->name) >= 0)
         isa_ld_err(l, k, "duplicate class '%s'", c->name);
      if (!isa_ld_is_map(l, v, "class"))
         continue;
      isa_ld_check_keys(l, v, "class", keys);
      c->latency = isa_ld_opt_int(l, v, "latency", 0, 1000, -1);
      c->soft = isa_ld_opt_int(l, v, "soft", 0, 100000, c->latency < 0 ? 0 : c->latency);
      c->read_early = isa_ld_opt_int(l, v, "read_early", 0, 1000, 0);
      c->unordered = isa_ld_opt_bool(l, v, "unordered", false);
      c->explicit_only = isa_ld_opt_bool(l, v, "explicit_only", false);
      c->flow = isa_ld_opt_bool(l, v, "flow", false);
      c->scalar = isa_ld_opt_bool(l, v, "scalar", false);
      yaml_node_t *x;
      int s;
      if ((x = isa_ld_get(l, v, "sync")) &&
          (s = isa_ld_enum(l, x, "sync", isa_sync_names, ISA_SYNC_COUNT)) >= 0)
         c->sync = (enum isa_sync)s;
      if ((x = isa_ld_get(l, v, "war")) &&
          (s = isa_ld_enum(l, x, "sync", isa_sync_names, ISA_SYNC_COUNT)) >= 0)
         c->war = (enum isa_sync)s;
      if (c->latency < 0 && c->sync == ISA_SYNC_NONE)
         isa_ld_err(l, v, "class '%s' needs a latency or a sync mechanism", c->name);
   }
}

static const char *const opnd_print_keys[ISA_OPND_PRINT_COUNT + 1] = {
    "neg",      "abs",  "abs_end", "absneg",  "r",           "not", "sext",
    "sext_end", "last", "hi",      "neg_imm", "neg_imm_end", NULL};
static const char *const opnd_print_defaults[ISA_OPND_PRINT_COUNT] = {
    "(neg)", "(abs)", "", "(absneg)", "(r)", "(not)", "(sext)", "", "(last)", "(hi)", "", ""};

static void
parse_opnd_print(struct isa_ld *l, yaml_node_t *v)
{
   struct isa_model *m = l->m;
   if (v && isa_ld_is_map(l, v, "operand_print")) {
      isa_ld_check_keys(l, v, "operand_print", opnd_print_keys);
      for (unsigned i = 0; i < ISA_OPND_PRINT_COUNT; i++)
         m->opnd_print[i] = isa_ld_opt_str(l, v, opnd_print_keys[i]);
   }
   for (unsigned i = 0; i < ISA_OPND_PRINT_COUNT; i++)
      if (!m->opnd_print[i])
         m->opnd_print[i] = xstrdup(opnd_print_defaults[i]);
}

/* `features: [fma, fp64, ...]`: the hardware capabilities of ISA_FEATURES
 * the model has; absent means none. */
static void
parse_features(struct isa_ld *l, yaml_node_t *n)
{
   if (n->type != YAML_SEQUENCE_NODE) {
      isa_ld_err(l, n, "features must be a list of names");
      return;
   }
   SEQ_EACH(l, n, v)
   {
      int f = isa_ld_enum(l, v, "feature", isa_feature_names, ISA_FEATURE_COUNT);
      if (f >= 0)
         l->m->features |= 1u << f;
   }
}

static void
parse_document(struct isa_ld *l, yaml_node_t *root)
{
   static const char *const keys[] = {"isa",      "bits", "doc",       "regfiles", "regsets",
                                      "enums",    "luts", "modifiers", "formats",  "classes",
                                      "layouts",  "ops",  "hazard",    "bundle",   "operand_print",
                                      "features", NULL};
   struct isa_model *m = l->m;
   if (!root || root->type != YAML_MAPPING_NODE) {
      isa_ld_err(l, root, "a model file must be a mapping (isa:, regfiles:, ops:, ...)");
      return;
   }
   isa_ld_check_keys(l, root, "model", keys);
   char *name = isa_ld_opt_str(l, root, "isa");
   if (!name)
      isa_ld_err(l, root, "the model needs 'isa: NAME'");
   free(m->name);
   m->name = name ? name : xstrdup("?");
   m->bits = (unsigned)isa_ld_opt_int(l, root, "bits", 8, ISA_MAX_BITS, 64);
   if (m->bits % 8)
      isa_ld_err(l, isa_ld_get(l, root, "bits"), "bits must be a multiple of 8");
   static const char *const required[] = {"regfiles", "modifiers", "formats",
                                          "classes",  "ops",       "hazard"};
   for (unsigned i = 0; i < ARRAY_SIZE(required); i++)
      if (!isa_ld_get(l, root, required[i]))
         isa_ld_err(l, root, "the model needs a '%s' section", required[i]);
   yaml_node_t *x;
   if ((x = isa_ld_get(l, root, "regfiles")))
      parse_regfiles(l, x);
   if ((x = isa_ld_get(l, root, "regsets")))
      parse_regsets(l, x);
   if ((x = isa_ld_get(l, root, "enums")))
      parse_enums(l, x);
   if ((x = isa_ld_get(l, root, "luts")))
      parse_luts(l, x);
   if ((x = isa_ld_get(l, root, "modifiers")))
      parse_mods(l, x);
   if ((x = isa_ld_get(l, root, "formats")))
      parse_formats(l, x);
   if ((x = isa_ld_get(l, root, "classes")))
      parse_classes(l, x);
   if ((x = isa_ld_get(l, root, "layouts")))
      isa_ld_layouts(l, x);
   if ((x = isa_ld_get(l, root, "ops")))
      isa_ld_ops(l, x);
   if ((x = isa_ld_get(l, root, "hazard")))
      isa_ld_hazard(l, x);
   if ((x = isa_ld_get(l, root, "bundle")))
      isa_ld_bundle(l, x);
   parse_opnd_print(l, isa_ld_get(l, root, "operand_print"));
   if ((x = isa_ld_get(l, root, "features")))
      parse_features(l, x);
}

/* ------------------------------------------------------------------ */
/* Life cycle.                                                         */

void
isa_free_fields(struct isa_field *f, unsigned n)
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
      if (f->pair_names)
         for (unsigned j = 0; j < f->count; j++)
            free(f->pair_names[j]);
      free(f->pair_names);
      free(f->undef);
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
      free(m->luts[i].v64);
   }
   free(m->luts);
   for (unsigned i = 0; i < m->nmods; i++) {
      free(m->mods[i].name);
      free(m->mods[i].operand);
      free_fmt(&m->mods[i].fmt);
   }
   free(m->mods);
   for (unsigned i = 0; i < m->nformats; i++) {
      struct isa_format *f = &m->formats[i];
      for (unsigned j = 0; j < f->ncases; j++) {
         free(f->cases[j].name);
         free(f->cases[j].val.name);
         free_fmt(&f->cases[j].fmt);
         isa_free_fields(f->cases[j].fields, f->cases[j].nfields);
      }
      free(f->cases);
      isa_free_fields(f->fields, f->nfields);
      free(f->name);
   }
   free(m->formats);
   for (unsigned i = 0; i < m->nlayouts; i++) {
      struct isa_layout *ly = &m->layouts[i];
      free(ly->name);
      isa_free_fields(ly->fields, ly->nfields);
      isa_free_names(ly->dst, ly->ndst);
      isa_free_names(ly->src, ly->nsrc);
      free(ly->syntax);
      free(ly->type);
      free(ly->width);
      for (unsigned j = 0; j < ly->nrules; j++)
         free(ly->rules[j].reason);
      free(ly->rules);
   }
   free(m->layouts);
   for (unsigned i = 0; i < m->nops; i++) {
      struct isa_op *op = &m->ops[i];
      free(op->key);
      free(op->mnemonic);
      isa_free_fields(op->fields, op->nfields);
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
   free(m->cterms);
   for (unsigned i = 0; i < m->nparams; i++)
      free(m->params[i].name);
   free(m->params);
   for (unsigned i = 0; i < m->nwait_rules; i++) {
      struct isa_wait_rule *r = &m->wait_rules[i];
      free(r->first);
      free(r->second);
      for (unsigned k = 0; k < r->nops; k++)
         free(r->ops[k]);
      free(r->ops);
      free(r->operand);
      free(r->opv);
   }
   free(m->wait_rules);
   for (unsigned i = 0; i < m->nfigures; i++) {
      free(m->figures[i].name);
      free(m->figures[i].source);
   }
   free(m->figures);
   isa_free_fields(m->bundle.fields, m->bundle.nfields);
   for (unsigned j = 0; j < m->bundle.ntoks; j++)
      free(m->bundle.toks[j].text);
   free(m->bundle.toks);
   for (unsigned i = 0; i < ISA_OPND_PRINT_COUNT; i++)
      free(m->opnd_print[i]);
   free(m->bucket_ops);
   free(m->slot_info);
   free(m->slot_valid);
   free(m->sem_values);
   free(m->names);
   free(m->op_names);
   free(m->sem_ops);
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
   struct isa_ld l = {.m = m};
   *out = NULL;
   m->diag = d ? d : &scratch;
   m->diag_base = m->diag->nerrors;
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
      else {
         isa_build_dispatch(m);
         sem_build_values(m);
         if (!isa_check_facts(m))
            e = ISA_ERR_MODEL;
      }
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

const char *
isa_model_dir(void)
{
   const char *dir = getenv("DIFFCOMP_ISA_PATH");
   return dir && *dir ? dir : DC_SOURCE_DIR "/isa/models";
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
      path = xasprintf("%s/%s.yaml", isa_model_dir(), name);
   }
   char *text = NULL, *msg = NULL;
   size_t len = 0;
   if (is_path ? !read_file_diag(path, &text, &len, d) : !read_file(path, &text, &len, &msg)) {
      if (d && msg)
         diag_add(d, DIAG_ERROR, name, 0, 0, NULL, "no such model (%s)", msg);
      free(msg);
      free(path);
      return is_path ? ISA_ERR_IO : ISA_ERR_NOTFOUND;
   }
   enum isa_err e = isa_open_string(text, len, path, out, d);
   free(text);
   free(path);
   return e;
}
