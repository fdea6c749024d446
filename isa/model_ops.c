/*
 * The second half of the loader: layouts, ops (fields, operand slots,
 * syntax templates, illegal rules), the hazard mechanism and bundles. Every
 * name is resolved to an index here; see model.c for the file-level parts.
 */
#include "isa/isa_priv.h"

#include <stdio.h>
#include <stdlib.h>

static void parse_rules(struct isa_ld *l, yaml_node_t *x, struct isa_field *fields,
                        unsigned nfields, struct isa_rule **rules, unsigned *n);

/* ------------------------------------------------------------------ */
/* Layouts and ops.                                                    */

static char **
isa_ld_names(struct isa_ld *l, yaml_node_t *n, unsigned max, unsigned *count)
{
   *count = 0;
   if (!n)
      return NULL;
   if (n->type != YAML_SEQUENCE_NODE) {
      isa_ld_err(l, n, "expected a list of field names");
      return NULL;
   }
   char **v = xcalloc(max, sizeof(char *));
   SEQ_EACH(l, n, e)
   {
      const char *s = isa_ld_scalar(l, e, "field name");
      if (*count == max) {
         isa_ld_err(l, e, "at most %u entries", max);
         break;
      }
      if (s)
         v[(*count)++] = xstrdup(s);
   }
   return v;
}

void
isa_free_names(char **v, unsigned n)
{
   for (unsigned i = 0; i < n; i++)
      free(v[i]);
   free(v);
}

static const char *const layout_keys[] = {"bits",    "match",    "ignore", "fields", "dst",
                                          "src",     "type",     "width",  "syntax", "doc",
                                          "illegal", "implicit", NULL};

/* A register by the name the model gives it: a single register's name
 * (`names:`, count 1) or a pair's (`pair_names:`, count 2). */
static bool
implicit_reg(const struct isa_model *m, const char *s, struct isa_implicit *r)
{
   for (unsigned f = 0; f < m->nfiles; f++)
      for (unsigned i = 0; i < m->files[f].count; i++) {
         const struct isa_regfile *rf = &m->files[f];
         bool one = rf->names && rf->names[i] && !strcmp(rf->names[i], s);
         bool two = rf->pair_names && rf->pair_names[i] && !strcmp(rf->pair_names[i], s);
         if (one || two) {
            r->file = (uint8_t)f;
            r->index = (uint16_t)i;
            r->count = two ? 2 : 1;
            return true;
         }
      }
   return false;
}

/* implicit: {dst: [NAME..], src: [NAME..]}: registers the op reads or
 * writes without a field; "!NAME" on a source: a branch taken when the
 * register is 0. */
static void
parse_implicit(struct isa_ld *l, yaml_node_t *v, struct isa_implicit imp[2][ISA_MAX_IMPLICIT],
               uint8_t nimp[2])
{
   static const char *const keys[] = {"dst", "src", NULL};
   if (!isa_ld_is_map(l, v, "implicit"))
      return;
   isa_ld_check_keys(l, v, "implicit", keys);
   for (unsigned d = 0; d < 2; d++) {
      unsigned n;
      yaml_node_t *x = isa_ld_get(l, v, d ? "src" : "dst");
      char **names = isa_ld_names(l, x, ISA_MAX_IMPLICIT, &n);
      nimp[d] = 0;
      for (unsigned i = 0; i < n; i++) {
         const char *s = names[i];
         struct isa_implicit r = {0};
         if (d && s[0] == '!') {
            r.flags = ISA_OPND_F_NOT;
            s++;
         }
         if (!implicit_reg(l->m, s, &r))
            isa_ld_err(l, x, "implicit operand '%s' names no register", names[i]);
         else
            imp[d][nimp[d]++] = r;
      }
      isa_free_names(names, n);
   }
}

void
isa_ld_layouts(struct isa_ld *l, yaml_node_t *map)
{
   struct isa_model *m = l->m;
   if (!isa_ld_is_map(l, map, "layouts"))
      return;
   m->layouts = xcalloc((size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start) + 1,
                        sizeof(*m->layouts));
   MAP_EACH(l, map, k, v)
   {
      struct isa_layout *ly = &m->layouts[m->nlayouts++];
      ly->name = xstrdup(isa_ld_key(k));
      ly->pos = isa_ld_pos(k);
      if (FIND(m->layouts, m->nlayouts - 1, ly->name) >= 0)
         isa_ld_err(l, k, "duplicate layout '%s'", ly->name);
      if (!isa_ld_is_map(l, v, "layout"))
         continue;
      isa_ld_check_keys(l, v, "layout", layout_keys);
      ly->bits = (unsigned)isa_ld_opt_int(l, v, "bits", 8, ISA_MAX_BITS, (int)m->bits);
      ly->fields = isa_ld_fields(l, isa_ld_get(l, v, "fields"), ly->bits, false, &ly->nfields);
      yaml_node_t *x;
      if ((x = isa_ld_get(l, v, "match")))
         isa_ld_match(l, x, ly->fields, ly->nfields, ly->bits, &ly->mask, &ly->match, true);
      if ((x = isa_ld_get(l, v, "ignore")))
         isa_ld_ignore(l, x, ly->bits, &ly->ignore);
      ly->dst = isa_ld_names(l, isa_ld_get(l, v, "dst"), ISA_MAX_DST, &ly->ndst);
      ly->src = isa_ld_names(l, isa_ld_get(l, v, "src"), ISA_MAX_SRC, &ly->nsrc);
      ly->syntax = isa_ld_opt_str(l, v, "syntax");
      ly->type = isa_ld_opt_str(l, v, "type");
      ly->width = isa_ld_opt_str(l, v, "width");
      if ((x = isa_ld_get(l, v, "illegal")))
         parse_rules(l, x, ly->fields, ly->nfields, &ly->rules, &ly->nrules);
      if ((x = isa_ld_get(l, v, "implicit"))) {
         parse_implicit(l, x, ly->imp, ly->nimp);
         ly->has_imp = true;
      }
   }
}

/* type: a type name, or a modifier whose enum entries carry types. */
static void
slot_type(struct isa_ld *l, yaml_node_t *n, const char *s, struct isa_slot *sl)
{
   struct isa_model *m = l->m;
   int t = isa_lookup_str(isa_type_names, ISA_TYPE_COUNT, s);
   if (t >= 0) {
      sl->type = (uint8_t)t;
      sl->type_mod = -1;
      return;
   }
   int md = FIND(m->mods, m->nmods, s);
   if (md < 0 || m->mods[md].kind != ISA_MOD_ENUM)
      isa_ld_err(l, n, "type '%s' is neither a type name nor an enum modifier", s);
   else
      sl->type_mod = (int16_t)md;
}

static void
slot_width(struct isa_ld *l, yaml_node_t *n, const char *s, struct isa_slot *sl)
{
   struct isa_model *m = l->m;
   int64_t w;
   if (isa_parse_i64(s, &w)) {
      if (w < 1 || w > 64)
         isa_ld_err(l, n, "width %lld out of range", (long long)w);
      sl->width = (uint8_t)w;
      sl->width_mod = -1;
      return;
   }
   int md = FIND(m->mods, m->nmods, s);
   if (md < 0 || m->mods[md].kind != ISA_MOD_ENUM)
      isa_ld_err(l, n, "width '%s' is neither a number nor an enum modifier", s);
   else
      sl->width_mod = (int16_t)md;
}

/* count: {MOD: N, MOD: {ENTRY: N, ...}, base: N}: base plus, per flag
 * modifier that is set, N, and per enum modifier the N of its entry (a
 * register group whose size depends on modifiers: sm50 TEX coordinates). */
static void
slot_count_sum(struct isa_ld *l, yaml_node_t *n, struct isa_slot *x)
{
   struct isa_model *m = l->m;
   x->count_n = 0;
   x->count_term = (int16_t)m->ncterms;
   MAP_EACH(l, n, k, v)
   {
      const char *key = isa_ld_key(k);
      int64_t a;
      if (!strcmp(key, "base")) {
         if (isa_ld_int(l, v, "count base", 0, 64, &a))
            x->count_n = (uint8_t)a;
         continue;
      }
      int md = FIND(m->mods, m->nmods, key);
      if (md < 0) {
         isa_ld_err(l, k, "count term '%s' is not a modifier", key);
         continue;
      }
      struct isa_cterm t = {.mod = (int16_t)md};
      if (m->mods[md].kind != ISA_MOD_ENUM) {
         if (isa_ld_int(l, v, "count term", 0, 64, &a)) {
            t.nvals = 1;
            t.val[0] = 1;
            t.add[0] = (uint8_t)a;
         }
      } else if (m->mods[md].enm < 0) {
         continue; /* its enum did not load: that error is already reported */
      } else if (isa_ld_is_map(l, v, "count term")) {
         const struct isa_enum *e = &m->enums[m->mods[md].enm];
         MAP_EACH(l, v, ek, ev)
         {
            int ei = FIND(e->v, e->n, isa_ld_key(ek));
            if (ei < 0 || t.nvals == ISA_MAX_CTERM_VALS) {
               isa_ld_err(l, ek,
                          ei < 0 ? "enum '%s' has no entry '%s'"
                                 : "enum '%s': too many entries ('%s')",
                          e->name, isa_ld_key(ek));
               continue;
            }
            if (!isa_ld_int(l, ev, "count term", 0, 64, &a))
               continue;
            t.val[t.nvals] = (int16_t)e->v[ei].value;
            t.add[t.nvals++] = (uint8_t)a;
         }
      }
      VEC_PUSH(m->cterms, m->ncterms, m->cterms_cap, t);
   }
   x->count_nterms = (uint8_t)(m->ncterms - (unsigned)x->count_term);
}

/* count: N, a source slot holding an immediate count, or a mask modifier. */
static void
slot_count(struct isa_ld *l, struct isa_op *op, yaml_node_t *n, const char *s, struct isa_slot *x,
           unsigned nd, unsigned ns, char **dl, char **sl)
{
   int64_t v;
   (void)op;
   if (isa_parse_i64(s, &v)) {
      if (v < 1 || v > 64)
         isa_ld_err(l, n, "count %lld out of range", (long long)v);
      else
         x->count_n = (uint8_t)v;
      return;
   }
   for (unsigned i = 0; i < nd + ns; i++)
      if (!strcmp(i < nd ? dl[i] : sl[i - nd], s)) {
         x->count_slot = (int8_t)i;
         return;
      }
   x->count_mod = (int16_t)FIND(l->m->mods, l->m->nmods, s);
   if (x->count_mod < 0)
      isa_ld_err(l, n, "count '%s' is neither a number, an operand nor a modifier", s);
}

static void
parse_slots(struct isa_ld *l, struct isa_op *op, yaml_node_t *v, const struct isa_layout *ly)
{
   struct isa_model *m = l->m;
   unsigned nd = 0, ns = 0;
   yaml_node_t *dn = isa_ld_get(l, v, "dst"), *sn = isa_ld_get(l, v, "src");
   char **d = dn ? isa_ld_names(l, dn, ISA_MAX_DST, &nd) : NULL;
   char **s = sn ? isa_ld_names(l, sn, ISA_MAX_SRC, &ns) : NULL;
   char **dl = dn ? d : ly ? ly->dst : NULL, **sl = sn ? s : ly ? ly->src : NULL;
   if (!dn && ly)
      nd = ly->ndst;
   if (!sn && ly)
      ns = ly->nsrc;
   op->ndst = (uint8_t)nd;
   op->nsrc = (uint8_t)ns;
   const char *dtype = ly ? ly->type : NULL, *dwidth = ly ? ly->width : NULL;
   yaml_node_t *tn = isa_ld_get(l, v, "type"), *wn = isa_ld_get(l, v, "width");
   if (tn)
      dtype = isa_ld_scalar(l, tn, "type");
   if (wn)
      dwidth = isa_ld_scalar(l, wn, "width");
   yaml_node_t *ops = isa_ld_get(l, v, "operands");
   if (ops && !isa_ld_is_map(l, ops, "operands"))
      ops = NULL;
   for (unsigned i = 0; i < nd + ns; i++) {
      const char *name = i < nd ? dl[i] : sl[i - nd];
      struct isa_slot *x = &op->slot[i];
      x->type_mod = x->width_mod = x->count_mod = -1;
      x->count_slot = -1;
      x->count_term = -1;
      x->count_n = 1;
      x->align = 1;
      x->field = (int16_t)isa_field_find(op->fields, op->nfields, name);
      if (x->field < 0 || op->fields[x->field].kind != ISA_FK_OPERAND) {
         isa_ld_err(l, dn || sn ? v : NULL, "op '%s': operand '%s' is not an operand field%s",
                    op->key, name,
                    x->field >= 0 && op->fields[x->field].kind == ISA_FK_FIXED ? " (it is fixed)"
                                                                               : "");
         x->field = -1;
         continue;
      }
      if (op->fields[x->field].format < 0) {
         x->field = -1; /* its unknown format was reported with the field */
         continue;
      }
      const struct isa_format *fm = &m->formats[op->fields[x->field].format];
      x->allow = fm->ncases >= 32 ? ~0u : (1u << fm->ncases) - 1;
      if (dtype)
         slot_type(l, tn ? tn : v, dtype, x);
      if (dwidth)
         slot_width(l, wn ? wn : v, dwidth, x);
      yaml_node_t *on = ops ? isa_ld_get(l, ops, name) : NULL, *y;
      if (!on)
         continue;
      static const char *const keys[] = {"allow", "type",  "width", "read_delay",
                                         "count", "scale", "align", NULL};
      if (!isa_ld_is_map(l, on, "operand settings"))
         continue;
      isa_ld_check_keys(l, on, "operand settings", keys);
      if ((y = isa_ld_get(l, on, "type")) && isa_ld_scalar(l, y, "type"))
         slot_type(l, y, isa_ld_scalar(l, y, "type"), x);
      if ((y = isa_ld_get(l, on, "width")) && isa_ld_scalar(l, y, "width"))
         slot_width(l, y, isa_ld_scalar(l, y, "width"), x);
      x->read_delay = (uint8_t)isa_ld_opt_int(l, on, "read_delay", 0, 100, 0);
      if ((y = isa_ld_get(l, on, "scale")) && isa_ld_scalar(l, y, "scale")) {
         if (strcmp(isa_ld_scalar(l, y, "scale"), "element"))
            isa_ld_err(l, y, "scale must be 'element'");
         x->elements = 1;
      }
      x->align = (uint8_t)isa_ld_opt_int(l, on, "align", 1, 16, 1);
      if (x->align & (x->align - 1))
         isa_ld_err(l, on, "op '%s': operand '%s': align %u is not a power of two", op->key, name,
                    x->align);
      if ((y = isa_ld_get(l, on, "count")) && y->type == YAML_MAPPING_NODE)
         slot_count_sum(l, y, x);
      else if (y && isa_ld_scalar(l, y, "count"))
         slot_count(l, op, y, isa_ld_scalar(l, y, "count"), x, nd, ns, dl, sl);
      if ((y = isa_ld_get(l, on, "allow"))) {
         unsigned na;
         char **al = isa_ld_names(l, y, 32, &na);
         x->allow = 0;
         for (unsigned j = 0; j < na; j++) {
            int c = FIND(fm->cases, fm->ncases, al[j]);
            if (c < 0)
               isa_ld_err(l, y, "format '%s' has no form '%s'", fm->name, al[j]);
            else
               x->allow |= 1u << c;
         }
         isa_free_names(al, na);
      }
   }
   if (ops) {
      MAP_EACH(l, ops, ok, ov)
      {
         bool found = false;
         for (unsigned i = 0; i < nd + ns; i++)
            found |= !strcmp(i < nd ? dl[i] : sl[i - nd], isa_ld_key(ok));
         if (!found)
            isa_ld_err(l, ok, "op '%s' has no operand '%s'", op->key, isa_ld_key(ok));
         (void)ov;
      }
   }
   isa_free_names(d, dn ? nd : 0);
   isa_free_names(s, sn ? ns : 0);
}

/* Turns a syntax template into the op's tokens: "{name}" is the mnemonic,
 * "{field}" a modifier or operand field, "[...]" a group dropped when one of
 * its fields is fixed by the op. */
static void
parse_syntax(struct isa_ld *l, const char *owner, struct isa_field *fields, unsigned nfields,
             yaml_node_t *where, const char *t, struct isa_tok **out, unsigned *nout)
{
   unsigned cap = (unsigned)strlen(t) + 2, n = 0, group = 0;
   struct isa_tok *v = xcalloc(cap, sizeof(*v));
   bool group_ok = true, in_group = false;
   for (const char *p = t; *p;) {
      if ((*p == '[' || *p == ']') && p[1] == *p) {
         /* "[[" and "]]" are literal brackets. */
         v[n++] = (struct isa_tok){ISA_TOK_LIT, -1, xstrndup(p, 1)};
         p += 2;
      } else if (*p == '[' || *p == ']') {
         if ((*p == '[') == in_group) {
            isa_ld_err(l, where, "syntax of '%s': unbalanced or nested [ ]", owner);
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
            isa_ld_err(l, where, "syntax of '%s': '{' without '}'", owner);
            break;
         }
         char *name = xstrndup(p + 1, (size_t)(e - p - 1));
         p = e + 1;
         if (!strcmp(name, "name")) {
            v[n++] = (struct isa_tok){ISA_TOK_NAME, -1, NULL};
            free(name);
            continue;
         }
         int f = isa_field_find(fields, nfields, name);
         if (f < 0)
            isa_ld_err(l, where, "syntax of '%s' names unknown field '%s'", owner, name);
         else if (fields[f].kind == ISA_FK_FIXED)
            group_ok = false;
         else if (fields[f].kind != ISA_FK_MOD && fields[f].kind != ISA_FK_OPERAND)
            isa_ld_err(l, where, "syntax of '%s': '%s' is not a modifier or operand", owner, name);
         else
            v[n++] = (struct isa_tok){ISA_TOK_FIELD, (int16_t)f, NULL};
         free(name);
      } else {
         size_t len = strcspn(p, "[]{");
         if (!len) {
            isa_ld_err(l, where, "syntax of '%s': stray '%c'", owner, *p);
            break;
         }
         v[n++] = (struct isa_tok){ISA_TOK_LIT, -1, xstrndup(p, len)};
         p += len;
      }
   }
   if (in_group)
      isa_ld_err(l, where, "syntax of '%s': '[' without ']'", owner);
   *out = v;
   *nout = n;
}

/* illegal: [{when: COND, reason: TEXT}], appended to *rules. */
static void
parse_rules(struct isa_ld *l, yaml_node_t *x, struct isa_field *fields, unsigned nfields,
            struct isa_rule **rules, unsigned *n)
{
   if (x->type != YAML_SEQUENCE_NODE) {
      isa_ld_err(l, x, "illegal must be a list of {when, reason}");
      return;
   }
   *rules = xrealloc(
       *rules, (*n + (size_t)(x->data.sequence.items.top - x->data.sequence.items.start) + 1) *
                   sizeof(**rules));
   SEQ_EACH(l, x, e)
   {
      static const char *const keys[] = {"when", "reason", NULL};
      if (!isa_ld_is_map(l, e, "illegal rule"))
         continue;
      isa_ld_check_keys(l, e, "illegal rule", keys);
      struct isa_rule *r = &(*rules)[(*n)++];
      memset(r, 0, sizeof(*r));
      yaml_node_t *w = isa_ld_get(l, e, "when");
      if (w)
         r->nguard = isa_ld_guards(l, w, fields, nfields, r->guard);
      r->reason = isa_ld_opt_str(l, e, "reason");
      if (!w || !r->reason)
         isa_ld_err(l, e, "an illegal rule needs when and reason");
   }
}

static void
parse_op_extras(struct isa_ld *l, struct isa_op *op, yaml_node_t *v)
{
   struct isa_model *m = l->m;
   yaml_node_t *x;
   op->commute[0] = op->commute[1] = -1;
   op->flip_mod = -1;
   if ((x = isa_ld_get(l, v, "commutative"))) {
      if (x->type == YAML_SCALAR_NODE) {
         if (isa_ld_opt_bool(l, v, "commutative", false)) {
            op->commute[0] = op->ndst;
            op->commute[1] = op->ndst + 1;
            if (op->nsrc < 2)
               isa_ld_err(l, x, "op '%s' is commutative but has fewer than two sources", op->key);
         }
      } else {
         unsigned n;
         char **c = isa_ld_names(l, x, 2, &n);
         for (unsigned i = 0; i < n; i++)
            for (unsigned j = op->ndst; j < (unsigned)op->ndst + op->nsrc; j++)
               if (op->slot[j].field >= 0 && !strcmp(op->fields[op->slot[j].field].name, c[i]))
                  op->commute[i] = (int)j;
         if (n != 2 || op->commute[0] < 0 || op->commute[1] < 0)
            isa_ld_err(l, x, "commutative must name two source operands of '%s'", op->key);
         isa_free_names(c, n);
      }
   }
   if ((x = isa_ld_get(l, v, "flip"))) {
      const char *s = isa_ld_scalar(l, x, "flip");
      op->flip_mod = s ? FIND(m->mods, m->nmods, s) : -1;
      if (s && (op->flip_mod < 0 || m->mods[op->flip_mod].kind != ISA_MOD_ENUM))
         isa_ld_err(l, x, "flip must name an enum modifier");
   }
   if ((x = isa_ld_get(l, v, "aliases")) && isa_ld_is_map(l, x, "aliases")) {
      op->aliases = xcalloc((size_t)(x->data.mapping.pairs.top - x->data.mapping.pairs.start) + 1,
                            sizeof(*op->aliases));
      MAP_EACH(l, x, ak, av)
      {
         struct isa_alias *a = &op->aliases[op->naliases++];
         a->name = xstrdup(isa_ld_key(ak));
         a->nguard = isa_ld_guards(l, av, op->fields, op->nfields, a->guard);
      }
   }
   if ((x = isa_ld_get(l, v, "illegal")))
      parse_rules(l, x, op->fields, op->nfields, &op->rules, &op->nrules);
}

static const char *const op_keys[] = {
    "layout", "mnemonic", "bits",    "match",    "ignore", "fields",   "dst",
    "src",    "type",     "width",   "operands", "sem",    "class",    "commutative",
    "flip",   "aliases",  "illegal", "syntax",   "doc",    "implicit", NULL};

static void
parse_op(struct isa_ld *l, struct isa_op *op, yaml_node_t *k, yaml_node_t *v)
{
   struct isa_model *m = l->m;
   op->key = xstrdup(isa_ld_key(k));
   op->pos = isa_ld_pos(k);
   op->layout = op->sem = op->cls = -1;
   if (!isa_ld_is_map(l, v, "op"))
      return;
   isa_ld_check_keys(l, v, "op", op_keys);
   yaml_node_t *x;
   const struct isa_layout *ly = NULL;
   if ((x = isa_ld_get(l, v, "layout"))) {
      const char *s = isa_ld_scalar(l, x, "layout");
      op->layout = s ? FIND(m->layouts, m->nlayouts, s) : -1;
      if (s && op->layout < 0)
         isa_ld_err(l, x, "unknown layout '%s'", s);
      else if (op->layout >= 0)
         ly = &m->layouts[op->layout];
   }
   op->mnemonic = isa_ld_opt_str(l, v, "mnemonic");
   if (!op->mnemonic)
      op->mnemonic = xstrdup(op->key);
   op->bits =
       (unsigned)isa_ld_opt_int(l, v, "bits", 8, ISA_MAX_BITS, ly ? (int)ly->bits : (int)m->bits);
   if (ly && op->bits != ly->bits)
      isa_ld_err(l, isa_ld_get(l, v, "bits"), "op '%s' cannot change the size of layout '%s'",
                 op->key, ly->name);
   unsigned nextra = 0;
   l->outer = ly ? ly->fields : NULL;
   l->nouter = ly ? ly->nfields : 0;
   struct isa_field *extra = isa_ld_fields(l, isa_ld_get(l, v, "fields"), op->bits, false, &nextra);
   l->outer = NULL;
   l->nouter = 0;
   if ((ly ? ly->nfields : 0) + nextra > ISA_MAX_FIELDS) {
      isa_ld_err(l, v, "op '%s' has more than %d fields", op->key, ISA_MAX_FIELDS);
      isa_free_fields(extra, nextra);
      return;
   }
   op->fields = isa_copy_fields(ly ? ly->fields : NULL, ly ? ly->nfields : 0, nextra);
   op->nfields = ly ? ly->nfields : 0;
   for (unsigned i = 0; i < nextra; i++) {
      if (isa_field_find(op->fields, op->nfields, extra[i].name) >= 0)
         isa_error_at(m, extra[i].pos, "field '%s' already exists in layout", extra[i].name),
             l->failed = true;
      /* Flag targets and conditions already index layout fields first. */
      op->fields[op->nfields++] = extra[i];
   }
   free(extra);
   if (ly) {
      op->mask = ly->mask;
      op->match = ly->match;
      op->ignore = ly->ignore;
      if (ly->nrules) {
         op->rules = xcalloc(ly->nrules, sizeof(*op->rules));
         for (unsigned i = 0; i < ly->nrules; i++) {
            op->rules[i] = ly->rules[i];
            op->rules[i].reason = /* NULL after a reported error */
                ly->rules[i].reason ? xstrdup(ly->rules[i].reason) : NULL;
         }
         op->nrules = ly->nrules;
      }
   }
   if ((x = isa_ld_get(l, v, "match")))
      isa_ld_match(l, x, op->fields, op->nfields, op->bits, &op->mask, &op->match, true);
   if ((x = isa_ld_get(l, v, "ignore")))
      isa_ld_ignore(l, x, op->bits, &op->ignore);
   parse_slots(l, op, v, ly);
   if ((x = isa_ld_get(l, v, "sem"))) {
      const char *s = isa_ld_scalar(l, x, "sem");
      op->sem = s ? isa_lookup_str(isa_sem_names, ISA_SEM_COUNT, s) : -1;
      if (s && op->sem < 0)
         isa_ld_err(l, x, "unknown semantics '%s'", s);
   }
   if ((x = isa_ld_get(l, v, "class"))) {
      const char *s = isa_ld_scalar(l, x, "class");
      op->cls = s ? FIND(m->classes, m->nclasses, s) : -1;
      if (s && op->cls < 0)
         isa_ld_err(l, x, "unknown latency class '%s'", s);
   }
   parse_op_extras(l, op, v);
   if ((x = isa_ld_get(l, v, "implicit"))) {
      parse_implicit(l, x, op->imp, op->nimp);
   } else if (ly && ly->has_imp) {
      memcpy(op->imp, ly->imp, sizeof(op->imp));
      memcpy(op->nimp, ly->nimp, sizeof(op->nimp));
   }
   x = isa_ld_get(l, v, "syntax");
   const char *syn = x ? isa_ld_scalar(l, x, "syntax") : ly ? ly->syntax : NULL;
   if (!syn)
      isa_ld_err(l, v, "op '%s' has no syntax (neither its own nor its layout's)", op->key);
   else
      parse_syntax(l, op->key, op->fields, op->nfields, x ? x : v, syn, &op->toks, &op->ntoks);
}

void
isa_ld_ops(struct isa_ld *l, yaml_node_t *map)
{
   struct isa_model *m = l->m;
   if (!isa_ld_is_map(l, map, "ops"))
      return;
   m->ops = xcalloc((size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start) + 1,
                    sizeof(*m->ops));
   MAP_EACH(l, map, k, v)
   {
      struct isa_op *op = &m->ops[m->nops++];
      if (FIND(m->ops, m->nops - 1, isa_ld_key(k)) >= 0)
         isa_ld_err(l, k, "duplicate mnemonic '%s'", isa_ld_key(k));
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

/* hazard.figures: NAME: {value: N, source: "TEXT"}, the public figures
 * the classes and parameters were built from (bench latency measures them). */
static void
parse_figures(struct isa_ld *l, yaml_node_t *x)
{
   struct isa_model *m = l->m;
   if (!isa_ld_is_map(l, x, "figures"))
      return;
   m->figures = xcalloc((size_t)(x->data.mapping.pairs.top - x->data.mapping.pairs.start) + 1,
                        sizeof(*m->figures));
   MAP_EACH(l, x, k, v)
   {
      static const char *const fk[] = {"value", "source", "doc", NULL};
      const char *name = isa_ld_key(k);
      if (FIND(m->figures, m->nfigures, name) >= 0)
         isa_ld_err(l, k, "duplicate figure '%s'", name);
      if (!isa_ld_is_map(l, v, "figure"))
         continue;
      isa_ld_check_keys(l, v, "figure", fk);
      struct isa_figure *f = &m->figures[m->nfigures++];
      f->name = xstrdup(name);
      f->pos = isa_ld_pos(k);
      f->value = isa_ld_opt_int(l, v, "value", 0, 100000, -1);
      f->source = isa_ld_opt_str(l, v, "source");
      if (f->value < 0 || !f->source)
         isa_ld_err(l, v, "figure '%s' needs a value and a source", name);
   }
}

void
isa_ld_hazard(struct isa_ld *l, yaml_node_t *v)
{
   static const char *const keys[] = {"model", "params", "wait_states", "figures", "doc", NULL};
   struct isa_model *m = l->m;
   if (!isa_ld_is_map(l, v, "hazard"))
      return;
   isa_ld_check_keys(l, v, "hazard", keys);
   yaml_node_t *x = isa_ld_get(l, v, "model");
   int k = x ? isa_ld_enum(l, x, "hazard model", isa_hazard_names, ISA_HAZARD_KIND_COUNT) : -1;
   if (!x)
      isa_ld_err(l, v, "hazard needs a model (%s, %s, %s or %s)", isa_hazard_names[0],
                 isa_hazard_names[1], isa_hazard_names[2], isa_hazard_names[3]);
   if (k < 0)
      return;
   m->hazard = (enum isa_hazard_kind)k;
   m->hazard_pos = isa_ld_pos(v);
   if ((x = isa_ld_get(l, v, "params")) && isa_ld_is_map(l, x, "params")) {
      m->params = xcalloc((size_t)(x->data.mapping.pairs.top - x->data.mapping.pairs.start) + 1,
                          sizeof(*m->params));
      MAP_EACH(l, x, pk, pv)
      {
         const char *s = isa_ld_key(pk);
         int known = -1;
         for (unsigned i = 0; hazard_params[k][i]; i++)
            if (!strcmp(hazard_params[k][i], s))
               known = (int)i;
         if (known < 0) {
            isa_ld_err(l, pk, "unknown parameter '%s' for hazard model %s", s, isa_hazard_names[k]);
            continue;
         }
         int64_t val;
         if (!isa_ld_int(l, pv, s, -1000000, 1000000, &val))
            continue;
         struct isa_param *p = &m->params[m->nparams++];
         p->name = xstrdup(s);
         p->value = (int)val;
         p->pos = isa_ld_pos(pk);
      }
   }
   if ((x = isa_ld_get(l, v, "wait_states"))) {
      if (x->type != YAML_SEQUENCE_NODE) {
         isa_ld_err(l, x, "wait_states must be a list of {first, second, states}");
         return;
      }
      m->wait_rules =
          xcalloc((size_t)(x->data.sequence.items.top - x->data.sequence.items.start) + 1,
                  sizeof(*m->wait_rules));
      SEQ_EACH(l, x, e)
      {
         static const char *const wk[] = {"first", "second",  "states", "file",
                                          "ops",   "operand", "doc",    NULL};
         if (!isa_ld_is_map(l, e, "wait-state rule"))
            continue;
         isa_ld_check_keys(l, e, "wait-state rule", wk);
         struct isa_wait_rule *r = &m->wait_rules[m->nwait_rules++];
         r->slot = r->imp_file = r->imp_index = -1;
         yaml_node_t *ops = isa_ld_get(l, e, "ops");
         if (ops && ops->type != YAML_SEQUENCE_NODE) {
            isa_ld_err(l, ops, "a wait-state rule's ops must be a list of op names");
         } else if (ops) {
            r->ops =
                xcalloc((size_t)(ops->data.sequence.items.top - ops->data.sequence.items.start) + 1,
                        sizeof(*r->ops));
            SEQ_EACH(l, ops, q)
            {
               const char *t = isa_ld_scalar(l, q, "op name");
               if (t)
                  r->ops[r->nops++] = xstrdup(t);
            }
         }
         r->operand = isa_ld_opt_str(l, e, "operand");
         if (r->operand && !r->nops)
            isa_ld_err(l, e, "a wait-state rule naming an operand names its ops");
         r->first = isa_ld_opt_str(l, e, "first");
         r->second = isa_ld_opt_str(l, e, "second");
         r->states = isa_ld_opt_int(l, e, "states", 0, 64, -1);
         r->pos = isa_ld_pos(e);
         char *fs = isa_ld_opt_str(l, e, "file");
         r->file = fs ? FIND(m->files, m->nfiles, fs) : -1;
         if (fs && r->file < 0)
            isa_ld_err(l, isa_ld_get(l, e, "file"), "unknown register file '%s'", fs);
         free(fs);
         if (!r->first || !r->second || r->states < 0)
            isa_ld_err(l, e, "a wait-state rule needs first, second and states");
      }
   }
   if ((x = isa_ld_get(l, v, "figures")))
      parse_figures(l, x);
}

void
isa_ld_bundle(struct isa_ld *l, yaml_node_t *v)
{
   static const char *const keys[] = {"insns", "control_bits", "slot_bits", "fields",
                                      "pad",   "syntax",       "doc",       NULL};
   struct isa_model *m = l->m;
   struct isa_bundle *b = &m->bundle;
   if (!isa_ld_is_map(l, v, "bundle"))
      return;
   isa_ld_check_keys(l, v, "bundle", keys);
   b->pos = isa_ld_pos(v);
   b->insns = (unsigned)isa_ld_opt_int(l, v, "insns", 1, 8, 0);
   b->ctrl_bits = (unsigned)isa_ld_opt_int(l, v, "control_bits", 8, 64, 64);
   b->slot_bits = (unsigned)isa_ld_opt_int(l, v, "slot_bits", 1, 64, 0);
   if (!b->insns || !b->slot_bits)
      isa_ld_err(l, v, "bundle needs insns and slot_bits");
   if (b->ctrl_bits % 8)
      isa_ld_err(l, v, "control_bits must be a multiple of 8");
   if (b->insns * b->slot_bits > b->ctrl_bits)
      isa_ld_err(l, v, "%u slots of %u bits do not fit a %u-bit control word", b->insns,
                 b->slot_bits, b->ctrl_bits);
   b->fields = isa_ld_fields(l, isa_ld_get(l, v, "fields"), b->slot_bits ? b->slot_bits : 1, false,
                             &b->nfields);
   for (unsigned i = 0; i < b->nfields; i++)
      if (b->fields[i].kind != ISA_FK_MOD)
         isa_error_at(m, b->fields[i].pos, "bundle field '%s' must be a modifier",
                      b->fields[i].name),
             l->failed = true;
   yaml_node_t *sy = isa_ld_get(l, v, "syntax");
   const char *st = sy ? isa_ld_scalar(l, sy, "syntax") : NULL;
   if (st) {
      parse_syntax(l, "bundle", b->fields, b->nfields, sy, st, &b->toks, &b->ntoks);
      for (unsigned i = 0; i < b->ntoks; i++)
         if (b->toks[i].kind == ISA_TOK_NAME)
            isa_ld_err(l, sy, "the bundle syntax cannot hold {name}");
   }
   b->pad_op = -1;
   char *pad = isa_ld_opt_str(l, v, "pad");
   if (pad && (b->pad_op = FIND(m->ops, m->nops, pad)) < 0)
      isa_ld_err(l, isa_ld_get(l, v, "pad"), "unknown pad op '%s'", pad);
   if (!pad)
      isa_ld_err(l, v, "bundle needs a pad op (fills the last bundle)");
   free(pad);
}
