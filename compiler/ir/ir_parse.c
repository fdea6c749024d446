/*
 * Reads the text ir_print writes (see the grammar there). The text is
 * line-oriented: one instruction, label, header or brace line per line;
 * '#' starts a comment. Values and block labels may be used before they
 * are defined (loop back edges); they are resolved at the end. The parser
 * checks syntax and names only: ir_validate checks the meaning.
 */
#include "compiler/ir/ir.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

struct pending {
   enum { REF_SRC, REF_COND, REF_PRED } kind;
   struct ir_instr *in;
   struct ir_node *node;
   unsigned idx;
   unsigned long id;
   int line, col;
   const char *line_start;
};

struct frame {
   struct ir_node *node;
   struct ir_list *list;
   bool in_else;
};

struct parser {
   const char *file;
   const char *p, *line_start;
   int line;
   struct diag_list *diags;
   bool failed;
   struct ir_shader *sh;
   struct ir_list *list; /* list being filled */
   struct frame *stack;
   unsigned nstack, stack_cap;
   struct pending *refs;
   unsigned nrefs, refs_cap;
   struct ir_block **labels; /* by label number */
   unsigned nlabels;
   unsigned next_anon_id;
   bool seen_body;
};

static void DC_PRINTF(3, 4) error_at(struct parser *ps, const char *at, const char *fmt, ...)
{
   if (ps->failed)
      return;
   va_list ap;
   va_start(ap, fmt);
   int col = at ? (int)(at - ps->line_start) + 1 : 0;
   diag_vadd(ps->diags, DIAG_ERROR, ps->file, ps->line, col, ps->line_start, fmt, ap);
   va_end(ap);
   ps->failed = true;
}

static void
skip_ws(struct parser *ps)
{
   while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\r')
      ps->p++;
   if (*ps->p == '#')
      while (*ps->p && *ps->p != '\n')
         ps->p++;
}

static bool
at_eol(struct parser *ps)
{
   skip_ws(ps);
   return *ps->p == '\n' || *ps->p == 0;
}

static bool
is_word_char(char c)
{
   return isalnum((unsigned char)c) || c == '_' || c == '.';
}

/* Reads [A-Za-z0-9_.]+ into buf; returns its length (0: none). */
static size_t
read_word(struct parser *ps, char *buf, size_t size)
{
   skip_ws(ps);
   size_t n = 0;
   while (is_word_char(ps->p[n]))
      n++;
   if (n >= size)
      n = size - 1;
   memcpy(buf, ps->p, n);
   buf[n] = 0;
   ps->p += n;
   return n;
}

static bool
accept(struct parser *ps, char c)
{
   skip_ws(ps);
   if (*ps->p != c)
      return false;
   ps->p++;
   return true;
}

static bool
expect(struct parser *ps, char c)
{
   if (accept(ps, c))
      return true;
   error_at(ps, ps->p, "expected '%c'", c);
   return false;
}

static bool
read_long(struct parser *ps, long long *out)
{
   skip_ws(ps);
   const char *s = ps->p;
   char *end;
   errno = 0;
   long long v = strtoll(s, &end, 10);
   if (end == s || errno || is_word_char(*end)) {
      error_at(ps, s, "expected an integer");
      return false;
   }
   ps->p = end;
   *out = v;
   return true;
}

static bool
read_i32(struct parser *ps, int32_t *out)
{
   long long v;
   const char *s = ps->p;
   if (!read_long(ps, &v))
      return false;
   if (v < INT32_MIN + 1 || v > INT32_MAX) {
      error_at(ps, s, "integer out of range");
      return false;
   }
   *out = (int32_t)v;
   return true;
}

/* "%N" -> N */
static bool
read_value_ref(struct parser *ps, unsigned long *id, const char **at)
{
   skip_ws(ps);
   *at = ps->p;
   if (*ps->p != '%') {
      error_at(ps, ps->p, "expected a value (%%N)");
      return false;
   }
   ps->p++;
   if (!isdigit((unsigned char)*ps->p)) {
      error_at(ps, ps->p, "expected a value number after '%%'");
      return false;
   }
   char *end;
   *id = strtoul(ps->p, &end, 10);
   if (*id > 1000000) {
      error_at(ps, *at, "value number too large");
      return false;
   }
   ps->p = end;
   return true;
}

static void
add_ref(struct parser *ps, int kind, struct ir_instr *in, struct ir_node *node, unsigned idx,
        unsigned long id, const char *at)
{
   struct pending r = {kind,          in, node, idx, id, ps->line, (int)(at - ps->line_start) + 1,
                       ps->line_start};
   VEC_PUSH(ps->refs, ps->nrefs, ps->refs_cap, r);
}

static struct ir_block *
cur_block(struct parser *ps)
{
   return ir_list_last_block(ps->list);
}

static struct ir_node *
cur_parent(struct parser *ps)
{
   return ps->nstack ? ps->stack[ps->nstack - 1].node : NULL;
}

static void
open_list(struct parser *ps, struct ir_node *owner, struct ir_list *l, bool in_else)
{
   struct frame f = {owner, l, in_else};
   VEC_PUSH(ps->stack, ps->nstack, ps->stack_cap, f);
   ps->list = l;
   ir_list_append(l, ir_node_block(ps->sh), owner);
}

/* ------------------------------------------------------------------ */
/* Fields and instructions                                              */

static int
lookup(const char *const *names, unsigned n, const char *w)
{
   return tgsi_lookup(names, n, w, strlen(w));
}

static int
lookup_exact(const char *const *names, unsigned n, const char *w)
{
   for (unsigned i = 0; i < n; i++)
      if (!strcmp(names[i], w))
         return (int)i;
   return -1;
}

static bool
parse_field_value(struct parser *ps, enum ir_field f, int32_t *v)
{
   const char *at = ps->p;
   if (f == IR_FIELD_SLOT || f == IR_FIELD_VTX || f == IR_FIELD_BUF || f == IR_FIELD_ARR ||
       f == IR_FIELD_RES || f == IR_FIELD_SAMP || f == IR_FIELD_STREAM)
      return read_i32(ps, v);
   char w[64];
   if (!read_word(ps, w, sizeof(w))) {
      error_at(ps, at, "expected a value for %s", ir_field_names[f]);
      return false;
   }
   int k = -1;
   switch (f) {
   case IR_FIELD_COMP:
      k = lookup_exact((const char *const[]){"x", "y", "z", "w"}, 4, w);
      break;
   case IR_FIELD_SV:
      k = lookup(tgsi_semantic_names, TGSI_SEM_COUNT, w);
      break;
   case IR_FIELD_TARGET:
      k = lookup(tgsi_texture_names, TGSI_TEX_COUNT, w);
      break;
   case IR_FIELD_KIND:
      k = lookup_exact(ir_tex_kind_names, IR_TEX_KIND_COUNT, w);
      break;
   case IR_FIELD_SPACE:
      k = lookup_exact(ir_space_names, IR_SPACE_COUNT, w);
      break;
   case IR_FIELD_AOP:
      k = lookup_exact(ir_aop_names, IR_AOP_COUNT, w);
      break;
   default:
      break;
   }
   if (k < 0) {
      error_at(ps, at, "bad %s '%s'", ir_field_names[f], w);
      return false;
   }
   *v = k;
   return true;
}

static bool
parse_imm(struct parser *ps, struct ir_instr *in)
{
   skip_ws(ps);
   const char *s = ps->p;
   size_t n = 0;
   while (s[n] && !isspace((unsigned char)s[n]) && s[n] != '#')
      n++;
   char t[80];
   if (!n || n >= sizeof(t)) {
      error_at(ps, s, "expected an immediate");
      return false;
   }
   memcpy(t, s, n);
   t[n] = 0;
   bool is64 = in->type == IR_TYPE_64;
   char *end;
   errno = 0;
   if (t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
      unsigned long long v = strtoull(t + 2, &end, 16);
      in->imm = is64 ? v : (uint32_t)v;
      if (!is64 && v > UINT32_MAX)
         errno = ERANGE;
   } else if (strpbrk(t, ".eEnNiI")) {
      if (is64)
         in->imm = dui(strtod(t, &end));
      else
         in->imm = fui(strtof(t, &end));
      errno = 0; /* overflow to inf / underflow are fine: the bits are what they are */
   } else {
      long long v = strtoll(t, &end, 10);
      in->imm = is64 ? (uint64_t)v : (uint32_t)(int32_t)v;
      if (!is64 && (v < INT32_MIN || v > UINT32_MAX))
         errno = ERANGE;
   }
   if (*end || errno) {
      error_at(ps, s, "bad immediate '%s'", t);
      return false;
   }
   ps->p += n;
   return true;
}

/* src := ["@" N] "%" M | [role] "%" M */
static bool
parse_src(struct parser *ps, struct ir_instr *in, unsigned i)
{
   skip_ws(ps);
   const char *at = ps->p;
   if (in->op == IR_OP_PHI) {
      if (!accept(ps, '@')) {
         error_at(ps, at, "phi source needs a block (@N %%M)");
         return false;
      }
      long long lbl;
      if (!read_long(ps, &lbl))
         return false;
      if (lbl < 0 || lbl > 1000000) {
         error_at(ps, at, "bad block label");
         return false;
      }
      add_ref(ps, REF_PRED, in, NULL, i, (unsigned long)lbl, at);
   } else if (in->op == IR_OP_TEX) {
      char w[32];
      read_word(ps, w, sizeof(w));
      int r = lookup_exact(ir_tex_role_names, IR_TEXSRC_COUNT, w);
      if (r < 0) {
         error_at(ps, at, "tex source needs a role (coord, cmp, lod, bias, ddx, ddy, off, ms)");
         return false;
      }
      in->role[i] = (uint8_t)r;
   }
   unsigned long id;
   if (!read_value_ref(ps, &id, &at))
      return false;
   add_ref(ps, REF_SRC, in, NULL, i, id, at);
   return true;
}

/* Value flags, then the backend's register annotation (@r1.y). */
static bool
parse_flags(struct parser *ps, struct ir_instr *in)
{
   while (!at_eol(ps)) {
      const char *at = ps->p;
      if (*at == '@') {
         char *err = NULL;
         size_t n = ps->sh->model ? ir_reg_parse(ps->sh, in, at, &err) : 0;
         if (!n) {
            error_at(ps, at, "%s", err ? err : "a register needs a 'model' line");
            free(err);
            return false;
         }
         ps->p += n;
         continue;
      }
      char w[32];
      read_word(ps, w, sizeof(w));
      if (!strcmp(w, "precise"))
         in->flags |= IR_VF_PRECISE;
      else if (!strcmp(w, "invariant"))
         in->flags |= IR_VF_INVARIANT;
      else {
         error_at(ps, at, "unexpected '%s' (expected a source, 'precise' or 'invariant')",
                  *w ? w : (char[]){*at, 0});
         return false;
      }
   }
   return true;
}

/* The machine instruction after "mach" (see the backend section of ir.h). */
static bool
parse_mach(struct parser *ps, struct ir_instr *in)
{
   skip_ws(ps);
   if (!ps->sh->model)
      return error_at(ps, ps->p, "'mach' needs a 'model NAME' line"), false;
   struct ir_mach_ref *refs = NULL;
   unsigned nrefs = 0;
   char *err = NULL;
   size_t len = 0, err_at = 0;
   if (!ir_mach_parse(ps->sh, in, ps->p, &len, &refs, &nrefs, &err, &err_at)) {
      error_at(ps, ps->p + err_at, "%s", err ? err : "bad machine instruction");
      free(err);
      free(refs);
      return false;
   }
   for (unsigned i = 0; i < nrefs; i++)
      add_ref(ps, REF_SRC, in, NULL, i, refs[i].id, ps->p + refs[i].at);
   free(refs);
   ps->p += len;
   return parse_flags(ps, in);
}

static bool
parse_sources_and_flags(struct parser *ps, struct ir_instr *in)
{
   skip_ws(ps);
   unsigned n = 0;
   bool role_first = false;
   if (in->op == IR_OP_TEX) {
      const char *save = ps->p;
      char w[32];
      read_word(ps, w, sizeof(w));
      role_first = lookup_exact(ir_tex_role_names, IR_TEXSRC_COUNT, w) >= 0;
      ps->p = save;
   }
   if (*ps->p == '%' || (*ps->p == '@' && isdigit((unsigned char)ps->p[1])) || role_first) {
      do {
         ir_instr_set_nsrc(in, n + 1);
         if (!parse_src(ps, in, n))
            return false;
         n++;
      } while (accept(ps, ','));
   }
   ir_instr_set_nsrc(in, n);
   return parse_flags(ps, in);
}

static bool
parse_instr(struct parser *ps)
{
   const char *start = ps->p;
   unsigned long id = 0;
   bool has_value = false;
   if (*ps->p == '%') {
      const char *at;
      if (!read_value_ref(ps, &id, &at) || !expect(ps, '='))
         return false;
      has_value = true;
   }
   char w[64];
   const char *op_at = (skip_ws(ps), ps->p);
   read_word(ps, w, sizeof(w));
   bool is64 = false;
   size_t wl = strlen(w);
   if (wl > 3 && !strcmp(w + wl - 3, ".64")) {
      w[wl - 3] = 0;
      is64 = true;
   }
   int op = -1;
   for (int i = 0; i < IR_OP_COUNT; i++)
      if (!strcmp(ir_op_info[i].name, w))
         op = i;
   if (op < 0) {
      error_at(ps, op_at, "unknown op '%s'", w);
      return false;
   }
   const struct ir_op_info *info = &ir_op_info[op];
   if (is64 && info->dst != IR_TC_S && info->dst != IR_TC_T) {
      error_at(ps, op_at, "'%s' has a fixed width; '.64' is not allowed", w);
      return false;
   }
   bool produces = op == IR_OP_MACH ? has_value : info->dst != IR_TC_N;
   if (produces != has_value) {
      error_at(ps, start, produces ? "'%s' needs a result (%%N = ...)" : "'%s' has no result", w);
      return false;
   }
   struct ir_instr *in;
   if (has_value) {
      if (id < ps->sh->nvalues && ps->sh->values[id]) {
         error_at(ps, start, "value %%%lu is defined twice", id);
         return false;
      }
      in = ir_instr_create_id(ps->sh, op, 0, (unsigned)id);
   } else {
      in = ir_instr_create_id(ps->sh, op, 0, ps->next_anon_id++);
   }
   in->line = (unsigned)ps->line;
   if (is64)
      in->type = IR_TYPE_64;
   ir_block_append(cur_block(ps), in);
   if (op == IR_OP_MACH) {
      in->type = has_value ? IR_TYPE_32 : IR_TYPE_NONE; /* ir_mach_parse may widen it */
      return parse_mach(ps, in);
   }
   if (op == IR_OP_IMM && !parse_imm(ps, in))
      return false;
   /* fields: name=value */
   for (;;) {
      skip_ws(ps);
      const char *s = ps->p;
      size_t n = 0;
      while (isalnum((unsigned char)s[n]) || s[n] == '_')
         n++;
      if (!n || s[n] != '=')
         break;
      int f = -1;
      for (int k = 0; k < IR_FIELD_COUNT; k++)
         if (strlen(ir_field_names[k]) == n && !strncmp(ir_field_names[k], s, n))
            f = k;
      if (f < 0 || !(info->fields & (1u << f))) {
         error_at(ps, s, "'%s' has no field '%.*s'", w, (int)n, s);
         return false;
      }
      ps->p = s + n + 1;
      if (!parse_field_value(ps, f, ir_field_ptr(in, f)))
         return false;
   }
   return parse_sources_and_flags(ps, in);
}

/* ------------------------------------------------------------------ */
/* Lines                                                                */

static bool
parse_header(struct parser *ps, const char *w)
{
   struct ir_shader *sh = ps->sh;
   char a[64], b[64];
   const char *at;
   if (!strcmp(w, "input")) {
      struct ir_input in = {0};
      long long idx;
      if (!read_i32(ps, &in.slot))
         return false;
      at = (skip_ws(ps), ps->p);
      read_word(ps, a, sizeof(a));
      int sem = lookup(tgsi_semantic_names, TGSI_SEM_COUNT, a);
      if (sem < 0)
         return error_at(ps, at, "unknown semantic '%s'", a), false;
      if (!read_long(ps, &idx))
         return false;
      at = (skip_ws(ps), ps->p);
      read_word(ps, a, sizeof(a));
      int interp = lookup(tgsi_interp_names, TGSI_INTERP_COUNT, a);
      const char *at2 = (skip_ws(ps), ps->p);
      read_word(ps, b, sizeof(b));
      int loc = lookup(tgsi_location_names, TGSI_LOC_COUNT, b);
      if (interp < 0)
         return error_at(ps, at, "unknown interpolation '%s'", a), false;
      if (loc < 0)
         return error_at(ps, at2, "unknown location '%s'", b), false;
      in.sem = sem;
      in.sem_index = (uint32_t)idx;
      in.interp = interp;
      in.loc = loc;
      VEC_PUSH(sh->inputs, sh->ninputs, sh->inputs_cap, in);
   } else if (!strcmp(w, "output")) {
      struct ir_output out = {0};
      long long idx;
      if (!read_i32(ps, &out.slot))
         return false;
      at = (skip_ws(ps), ps->p);
      read_word(ps, a, sizeof(a));
      int sem = lookup(tgsi_semantic_names, TGSI_SEM_COUNT, a);
      if (sem < 0)
         return error_at(ps, at, "unknown semantic '%s'", a), false;
      if (!read_long(ps, &idx))
         return false;
      out.sem = sem;
      out.sem_index = (uint32_t)idx;
      if (!at_eol(ps)) {
         at = ps->p;
         read_word(ps, a, sizeof(a));
         if (strcmp(a, "invariant"))
            return error_at(ps, at, "expected 'invariant' or end of line"), false;
         out.invariant = true;
      }
      VEC_PUSH(sh->outputs, sh->noutputs, sh->outputs_cap, out);
   } else {
      struct ir_array arr;
      if (!read_i32(ps, &arr.id) || !read_i32(ps, &arr.slots))
         return false;
      VEC_PUSH(sh->arrays, sh->narrays, sh->arrays_cap, arr);
   }
   return true;
}

static bool
parse_label(struct parser *ps)
{
   const char *at = ps->p;
   ps->p++;
   long long n;
   if (!read_long(ps, &n) || !expect(ps, ':'))
      return false;
   if (n < 0 || n > 1000000)
      return error_at(ps, at, "bad block label"), false;
   struct ir_block *b = cur_block(ps);
   if (b->first)
      return error_at(ps, at, "a label must start a block (after '{', '}' or at the top)"), false;
   if ((unsigned)n < ps->nlabels && ps->labels[n])
      return error_at(ps, at, "label @%lld is defined twice", n), false;
   for (unsigned i = 0; i < ps->nlabels; i++)
      if (ps->labels[i] == b)
         return error_at(ps, at, "this block already has a label"), false;
   if ((unsigned)n >= ps->nlabels) {
      ps->labels = xrealloc(ps->labels, (n + 1) * sizeof(*ps->labels));
      while (ps->nlabels <= (unsigned)n)
         ps->labels[ps->nlabels++] = NULL;
   }
   ps->labels[n] = b;
   return true;
}

static bool
parse_close(struct parser *ps)
{
   const char *at = ps->p;
   ps->p++;
   if (!ps->nstack)
      return error_at(ps, at, "'}' without an open 'if' or 'loop'"), false;
   struct frame *f = &ps->stack[ps->nstack - 1];
   if (!at_eol(ps)) {
      char w[16];
      const char *wat = ps->p;
      read_word(ps, w, sizeof(w));
      if (strcmp(w, "else") || f->node->kind != IR_NODE_IF || f->in_else)
         return error_at(ps, wat, "expected end of line or 'else {'"), false;
      if (!expect(ps, '{'))
         return false;
      ps->nstack--;
      open_list(ps, f->node, &f->node->else_list, true);
      return true;
   }
   struct ir_node *node = f->node;
   ps->nstack--;
   if (node->kind == IR_NODE_IF && !node->else_list.n)
      ir_list_append(&node->else_list, ir_node_block(ps->sh), node);
   ps->list = node->list;
   ir_list_append(ps->list, ir_node_block(ps->sh), cur_parent(ps));
   return true;
}

static bool
parse_line(struct parser *ps)
{
   skip_ws(ps);
   if (at_eol(ps))
      return true;
   const char *at = ps->p;
   if (*ps->p == '@')
      return parse_label(ps);
   if (*ps->p == '}')
      return parse_close(ps);
   if (*ps->p == '%') {
      ps->seen_body = true;
      return parse_instr(ps);
   }
   char w[64];
   const char *save = ps->p;
   read_word(ps, w, sizeof(w));
   if (!strcmp(w, "model")) {
      if (ps->seen_body || ps->sh->model)
         return error_at(ps, at, "'model' comes once, before the first instruction"), false;
      char name[256];
      const char *nat = (skip_ws(ps), ps->p);
      size_t nl = strcspn(nat, " \t\r\n#"); /* a name or a path */
      if (!nl || nl >= sizeof(name))
         return error_at(ps, nat, "expected a model name or path"), false;
      memcpy(name, nat, nl);
      name[nl] = 0;
      ps->p += nl;
      struct isa_model *m = NULL;
      struct diag_list d = {0};
      isa_open(name, &m, &d);
      diag_clear(&d);
      if (!m)
         return error_at(ps, nat, "cannot open ISA model '%s'", name), false;
      ps->sh->model = m;
      ps->sh->owns_model = true;
      return true;
   }
   if (!strcmp(w, "cbuf")) {
      long long bi, n;
      if (ps->seen_body)
         return error_at(ps, at, "'cbuf' must come before the first instruction"), false;
      if (!read_long(ps, &bi) || !read_long(ps, &n))
         return false;
      if (bi < 0 || bi >= IR_MAX_CBUFS || n < 0 || n > (1 << 20))
         return error_at(ps, at, "bad constant buffer size"), false;
      ps->sh->cbuf_slots[bi] = (uint32_t)n;
      return true;
   }
   if (!strcmp(w, "input") || !strcmp(w, "output") || !strcmp(w, "array")) {
      if (ps->seen_body)
         return error_at(ps, at, "'%s' must come before the first instruction", w), false;
      return parse_header(ps, w);
   }
   ps->seen_body = true;
   if (!strcmp(w, "if")) {
      unsigned long id;
      const char *vat;
      if (!read_value_ref(ps, &id, &vat) || !expect(ps, '{'))
         return false;
      struct ir_node *n = ir_node_if(NULL);
      ir_list_append(ps->list, n, cur_parent(ps));
      add_ref(ps, REF_COND, NULL, n, 0, id, vat);
      open_list(ps, n, &n->then_list, false);
      return true;
   }
   if (!strcmp(w, "loop")) {
      if (!expect(ps, '{'))
         return false;
      struct ir_node *n = ir_node_loop();
      ir_list_append(ps->list, n, cur_parent(ps));
      open_list(ps, n, &n->body, false);
      return true;
   }
   ps->p = save;
   return parse_instr(ps);
}

static void
resolve(struct parser *ps)
{
   struct ir_shader *sh = ps->sh;
   for (unsigned i = 0; i < ps->nrefs && !ps->failed; i++) {
      struct pending *r = &ps->refs[i];
      ps->line = r->line;
      ps->line_start = r->line_start;
      const char *at = r->line_start + r->col - 1;
      if (r->kind == REF_PRED) {
         if (r->id >= ps->nlabels || !ps->labels[r->id])
            error_at(ps, at, "undefined block label @%lu", r->id);
         else
            r->in->pred[r->idx] = ps->labels[r->id];
         continue;
      }
      struct ir_instr *v = r->id < sh->nvalues ? sh->values[r->id] : NULL;
      if (!v || v->type == IR_TYPE_NONE) {
         error_at(ps, at, "undefined value %%%lu", r->id);
         continue;
      }
      if (r->kind == REF_SRC)
         ir_set_src(r->in, r->idx, v);
      else
         ir_set_cond(r->node, v);
   }
}

/* The largest %N in the text, so that instructions without a result can be
 * numbered after every named value. */
static unsigned
max_value_id(const char *text, size_t len)
{
   unsigned long m = 0;
   for (size_t i = 0; i + 1 < len; i++)
      if (text[i] == '%' && isdigit((unsigned char)text[i + 1])) {
         unsigned long v = strtoul(text + i + 1, NULL, 10);
         if (v > m && v <= 1000000)
            m = v;
      }
   return (unsigned)m;
}

struct ir_shader *
ir_parse(const char *src, size_t len, const char *filename, int first_line, struct diag_list *diags)
{
   char *text = xstrndup(src, len); /* NUL-terminated, whatever the caller passed */
   struct parser ps = {.file = filename ? filename : "<ir>",
                       .p = text,
                       .line_start = text,
                       .line = first_line,
                       .diags = diags};
   ps.next_anon_id = max_value_id(text, strlen(text)) + 1;
   /* the header line */
   while (at_eol(&ps) && *ps.p) {
      ps.p++;
      ps.line++;
      ps.line_start = ps.p;
   }
   char w[32];
   const char *at = ps.p;
   read_word(&ps, w, sizeof(w));
   if (strcmp(w, "shader")) {
      error_at(&ps, at, "expected 'shader STAGE'");
      free(text);
      return NULL;
   }
   at = (skip_ws(&ps), ps.p);
   read_word(&ps, w, sizeof(w));
   int stage = lookup(tgsi_stage_names, TGSI_STAGE_COUNT, w);
   if (stage < 0 || !at_eol(&ps)) {
      error_at(&ps, at, "expected a stage (FRAG, VERT, GEOM, TESS_CTRL, TESS_EVAL, COMP)");
      free(text);
      return NULL;
   }
   ps.sh = ir_shader_new(stage);
   ps.sh->file = xstrdup(ps.file);
   ps.list = &ps.sh->body;
   while (!ps.failed && *ps.p) {
      if (*ps.p == '\n') {
         ps.p++;
         ps.line++;
         ps.line_start = ps.p;
         continue;
      }
      if (parse_line(&ps) && !at_eol(&ps))
         error_at(&ps, ps.p, "unexpected text at end of line");
      while (!ps.failed && *ps.p && *ps.p != '\n')
         ps.p++;
   }
   if (!ps.failed && ps.nstack)
      error_at(&ps, ps.p, "missing '}' at end of input");
   if (!ps.failed)
      resolve(&ps);
   free(ps.stack);
   free(ps.refs);
   free(ps.labels);
   free(text);
   if (ps.failed) {
      ir_shader_free(ps.sh);
      return NULL;
   }
   ir_compute_cfg(ps.sh);
   return ps.sh;
}
