/*
 * The opcode table expanded from tgsi_ops.h, name lookup, and the life
 * cycle of a parsed shader.
 */
#include "compiler/tgsi/tgsi.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define OP(n, nd, ns, fl, ty) [TGSI_OP_##n] = {#n, nd, ns, fl, TGSI_TYPE_##ty},
const struct tgsi_op_info tgsi_op_info[TGSI_OP_COUNT] = {
#include "compiler/tgsi/tgsi_ops.h"
};
#undef OP

int
tgsi_lookup(const char *const *table, unsigned count, const char *name, size_t len)
{
   for (unsigned i = 0; i < count; i++) {
      const char *t = table[i];
      size_t j = 0;
      while (j < len && t[j] && toupper((unsigned char)name[j]) == t[j])
         j++;
      if (j == len && !t[j])
         return (int)i;
   }
   return -1;
}

size_t
tgsi_header_at(const char *p, const char *end, enum tgsi_stage *stage, bool *versioned)
{
   size_t n = 0;
   while (p + n < end && (isalpha((unsigned char)p[n]) || p[n] == '_'))
      n++;
   int st = n ? tgsi_lookup(tgsi_stage_names, TGSI_STAGE_COUNT, p, n) : -1;
   if (st < 0)
      return 0;
   *stage = (enum tgsi_stage)st;
   *versioned = false;
   if (st > TGSI_STAGE_GEOM)
      return n;
   size_t v = n;
   while (p + v < end && (p[v] == ' ' || p[v] == '\t'))
      v++;
   static const char ver[] = "1.1";
   if ((size_t)(end - p) >= v + 3 && !memcmp(p + v, ver, 3) &&
       (p + v + 3 == end ||
        !(isalnum((unsigned char)p[v + 3]) || p[v + 3] == '_' || p[v + 3] == '.'))) {
      *versioned = true;
      return v + 3;
   }
   return n;
}

int
tgsi_renamed_op(const char *w, size_t n, const char **what)
{
   /* KILP, the unconditional kill (GLSL's discard), became KILL in 2013,
    * when KIL became KILL_IF; the first dumps' labelled loop (BGNLOOP2,
    * ENDLOOP2) became BGNLOOP, ENDLOOP. */
   static const char *const old[] = {"KILP", "BGNLOOP2", "ENDLOOP2"};
   static const char *const whats[] = {"KILP (today's KILL)", "BGNLOOP2 (today's BGNLOOP)",
                                       "ENDLOOP2 (today's ENDLOOP)"};
   static const enum tgsi_opcode now[] = {TGSI_OP_KILL, TGSI_OP_BGNLOOP, TGSI_OP_ENDLOOP};
   int i = tgsi_lookup(old, ARRAY_SIZE(old), w, n);
   if (i >= 0)
      *what = whats[i];
   return i < 0 ? -1 : (int)now[i];
}

int
tgsi_op_lookup(const char *w, size_t n)
{
   if (!n)
      return -1;
   int c0 = toupper((unsigned char)w[0]);
   for (int i = 0; i < TGSI_OP_COUNT; i++) {
      const char *name = tgsi_op_info[i].name;
      if (name[0] != c0)
         continue;
      size_t j = 1;
      while (j < n && name[j] && toupper((unsigned char)w[j]) == name[j])
         j++;
      if (j == n && !name[j])
         return i;
   }
   return -1;
}

bool
tgsi_ends_with(const char *w, size_t n, const char *suffix)
{
   size_t m = strlen(suffix);
   if (n <= m)
      return false;
   for (size_t i = 0; i < m; i++)
      if (toupper((unsigned char)w[n - m + i]) != suffix[i])
         return false;
   return true;
}

int
tgsi_op_lookup_word(const char *w, size_t n, bool *sat, bool *precise)
{
   *sat = *precise = false;
   int op = tgsi_op_lookup(w, n);
   if (op >= 0)
      return op;
   size_t base = n;
   if (tgsi_ends_with(w, base, "_PRECISE")) {
      base -= 8;
      *precise = true;
   }
   if (tgsi_ends_with(w, base, "_SAT")) {
      base -= 4;
      *sat = true;
   }
   return base != n ? tgsi_op_lookup(w, base) : -1;
}

struct tgsi_shader *
tgsi_shader_new(enum tgsi_stage stage, const char *name)
{
   struct tgsi_shader *s = xcalloc(1, sizeof(*s));
   s->stage = stage;
   s->name = xstrdup(name ? name : "<input>");
   return s;
}

void
tgsi_shader_free(struct tgsi_shader *s)
{
   if (!s)
      return;
   free(s->name);
   free(s->props);
   free(s->decls);
   free(s->imms);
   free(s->insns);
   free(s);
}

#define CLONE_ARRAY(d, s, f, n, cap)                                                               \
   do {                                                                                            \
      (d)->f = (s)->n ? xmalloc((s)->n * sizeof(*(s)->f)) : NULL;                                  \
      if ((s)->n)                                                                                  \
         memcpy((d)->f, (s)->f, (s)->n * sizeof(*(s)->f));                                         \
      (d)->cap = (d)->n = (s)->n;                                                                  \
   } while (0)

struct tgsi_shader *
tgsi_shader_clone(const struct tgsi_shader *s)
{
   struct tgsi_shader *c = tgsi_shader_new(s->stage, s->name);
   CLONE_ARRAY(c, s, props, nprops, props_cap);
   CLONE_ARRAY(c, s, decls, ndecls, decls_cap);
   CLONE_ARRAY(c, s, imms, nimms, imms_cap);
   CLONE_ARRAY(c, s, insns, ninsns, insns_cap);
   return c;
}

/* The declaration covering FILE[index] (first bracket ignored), or NULL. */
const struct tgsi_decl *
tgsi_find_decl(const struct tgsi_shader *s, enum tgsi_file file, uint32_t index)
{
   for (unsigned i = 0; i < s->ndecls; i++) {
      const struct tgsi_decl *d = &s->decls[i];
      if (d->file == file && index >= d->first && index <= d->last)
         return d;
   }
   return NULL;
}

static void
grow_to(uint32_t *n, int64_t idx)
{
   if (idx >= 0 && idx < 4096 && (uint32_t)idx + 1 > *n)
      *n = (uint32_t)idx + 1;
}

/* Input registers the shader names itself (declared or read directly). */
static uint32_t
named_inputs(const struct tgsi_shader *s)
{
   uint32_t n = 0;
   for (unsigned i = 0; i < s->ndecls; i++)
      if (s->decls[i].file == TGSI_FILE_IN)
         grow_to(&n, s->decls[i].last);
   for (unsigned i = 0; i < s->ninsns; i++)
      for (unsigned k = 0; k < s->insns[i].nsrc; k++) {
         const struct tgsi_reg *r = &s->insns[i].src[k].reg;
         if (r->file == TGSI_FILE_IN && !r->indirect)
            grow_to(&n, r->index);
      }
   return n;
}

uint32_t
tgsi_fbfetch_input(const struct tgsi_shader *s, uint32_t out)
{
   return named_inputs(s) + out;
}

void
tgsi_texture_targets(const struct tgsi_shader *s, int *target, unsigned n)
{
   for (unsigned u = 0; u < n; u++)
      target[u] = -1;
   for (unsigned i = 0; i < s->ndecls; i++)
      if (s->decls[i].file == TGSI_FILE_SVIEW)
         for (uint32_t u = s->decls[i].first; u <= s->decls[i].last && u < n; u++)
            target[u] = (int)s->decls[i].target;
   for (unsigned i = 0; i < s->ninsns; i++) {
      const struct tgsi_insn *in = &s->insns[i];
      if (!(tgsi_op_info[in->op].flags & TGSI_OPF_TEX))
         continue;
      for (unsigned k = 0; k < in->nsrc; k++) {
         const struct tgsi_reg *r = &in->src[k].reg;
         if (r->file == TGSI_FILE_SAMP && !r->indirect && r->index >= 0 && (uint32_t)r->index < n &&
             target[r->index] < 0)
            target[r->index] = (int)in->tex_target;
      }
   }
}

uint32_t
tgsi_input_count(const struct tgsi_shader *s)
{
   uint32_t n = named_inputs(s), fb = 0;
   for (unsigned i = 0; i < s->ninsns; i++) {
      const struct tgsi_insn *in = &s->insns[i];
      if (in->op == TGSI_OP_FBFETCH && in->nsrc && in->src[0].reg.file == TGSI_FILE_OUT &&
          !in->src[0].reg.indirect)
         grow_to(&fb, in->src[0].reg.index);
   }
   return n + fb;
}

uint32_t
tgsi_output_count(const struct tgsi_shader *s)
{
   uint32_t n = 0;
   for (unsigned i = 0; i < s->ndecls; i++)
      if (s->decls[i].file == TGSI_FILE_OUT)
         n = MAX2(n, s->decls[i].last + 1);
   return n;
}

/* A capture names its dialect in a leading comment line,
 * "# dialect: legacy hex-bits", so the file parses the same way wherever it
 * is used. Only the comment lines before the first other line count. */
void
tgsi_read_dialect(const char *text, size_t len, struct tgsi_parse_opts *opts)
{
   const char *p = text, *end = text + len;
   while (p < end && *p == '#') {
      const char *nl = memchr(p, '\n', (size_t)(end - p));
      size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
      if (n >= 10 && !strncmp(p, "# dialect:", 10)) {
         char line[256];
         size_t m = MIN2(n, sizeof(line) - 1);
         memcpy(line, p, m);
         line[m] = 0;
         opts->dialect_line = true;
         opts->legacy |= strstr(line, "legacy") != NULL;
         opts->hex_bits |= strstr(line, "hex-bits") != NULL;
      }
      p += n + 1;
   }
}

struct tgsi_shader *
tgsi_parse_file(const char *path, const struct tgsi_parse_opts *base, struct diag_list *diags)
{
   char *text;
   size_t len;
   if (!read_file_diag(path, &text, &len, diags))
      return NULL;
   struct tgsi_parse_opts opts = base ? *base : (struct tgsi_parse_opts){0};
   tgsi_read_dialect(text, len, &opts);
   struct tgsi_shader *s = tgsi_parse(text, len, path, &opts, diags);
   free(text);
   return s;
}

/* The shape of a 64-bit (double or 64-bit integer) opcode, or -1. */
int
tgsi_wide_kind(enum tgsi_opcode op)
{
   switch (op) {
   case TGSI_OP_DABS:
   case TGSI_OP_DNEG:
   case TGSI_OP_DRCP:
   case TGSI_OP_DSQRT:
   case TGSI_OP_DRSQ:
   case TGSI_OP_DFRAC:
   case TGSI_OP_DFLR:
   case TGSI_OP_DTRUNC:
   case TGSI_OP_DCEIL:
   case TGSI_OP_DROUND:
   case TGSI_OP_DSSG:
   case TGSI_OP_D2U64:
   case TGSI_OP_D2I64:
   case TGSI_OP_U642D:
   case TGSI_OP_I642D:
   case TGSI_OP_I64ABS:
   case TGSI_OP_I64SSG:
   case TGSI_OP_I64NEG:
      return TGSI_WIDE_UNARY;
   case TGSI_OP_DADD:
   case TGSI_OP_DMUL:
   case TGSI_OP_DDIV:
   case TGSI_OP_DMAX:
   case TGSI_OP_DMIN:
   case TGSI_OP_U64ADD:
   case TGSI_OP_U64MUL:
   case TGSI_OP_U64DIV:
   case TGSI_OP_I64DIV:
   case TGSI_OP_U64MOD:
   case TGSI_OP_I64MOD:
   case TGSI_OP_I64MIN:
   case TGSI_OP_U64MIN:
   case TGSI_OP_I64MAX:
   case TGSI_OP_U64MAX:
      return TGSI_WIDE_BINARY;
   case TGSI_OP_DMAD:
   case TGSI_OP_DFMA:
      return TGSI_WIDE_TERNARY;
   case TGSI_OP_DSLT:
   case TGSI_OP_DSGE:
   case TGSI_OP_DSEQ:
   case TGSI_OP_DSNE:
   case TGSI_OP_U64SEQ:
   case TGSI_OP_U64SNE:
   case TGSI_OP_I64SLT:
   case TGSI_OP_U64SLT:
   case TGSI_OP_I64SGE:
   case TGSI_OP_U64SGE:
      return TGSI_WIDE_CMP;
   case TGSI_OP_DLDEXP:
   case TGSI_OP_U64SHL:
   case TGSI_OP_I64SHR:
   case TGSI_OP_U64SHR:
      return TGSI_WIDE_SHIFT;
   case TGSI_OP_F2D:
   case TGSI_OP_I2D:
   case TGSI_OP_U2D:
   case TGSI_OP_F2I64:
   case TGSI_OP_F2U64:
   case TGSI_OP_U2I64:
   case TGSI_OP_I2I64:
      return TGSI_WIDE_FROM32;
   case TGSI_OP_D2F:
   case TGSI_OP_D2I:
   case TGSI_OP_D2U:
   case TGSI_OP_U642F:
   case TGSI_OP_I642F:
      return TGSI_WIDE_TO32;
   default:
      return -1;
   }
}
