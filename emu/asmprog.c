/*
 * Assembly programs for the emulator: the model's assembler syntax
 * (isa_assemble) plus directives that fill the binding table, labels for
 * branch targets, and the TGSI declarations the random input generator
 * needs (diff_gen_inputs reads a TGSI shader, so one is written to match
 * the bindings). The format is documented in emu/README.md:
 *
 *   .stage frag|vert|comp|geom|tess_ctrl|tess_eval
 *   .lanes N            .block X [Y [Z]]        .shared BYTES
 *   .max_vertices N     vertices a geometry-shader lane may emit
 *   .out_vertices N     output vertices of a tessellation control patch
 *   .outputs N          output registers OUT[0..N-1] (stores may address)
 *   .input REG IN[n].xyzw         .sysval REG SEMANTIC.xyzw
 *   .const REG CONST[b][n].xyzw   .value REG BITS|FLOAT
 *   .output REG OUT[n].xyzw       .texture UNIT TARGET    .buffer N
 *   .image N TARGET     .size REG BUFFER[n].x | IMAGE[n].xyz | MEMORY.x | SVIEW[n].xyzw
 *   name:               a label; $name in an instruction is replaced by
 *                       the target offset in the model's pcrel convention
 *
 * A channel list binds consecutive registers (r0.x IN[0].xyzw binds
 * r0.x..r0.w). Directive and label lines become blank lines before the
 * text goes to the assembler, so its diagnostics keep their line numbers.
 */
#include "emu/emu.h"
#include "isa/isa.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

struct label {
   char *name;
   unsigned insn; /* index of the instruction that follows */
};

struct ref {
   unsigned line, insn; /* where $name appears */
   char *name;
};

struct aparse {
   const struct isa_model *m;
   const char *file;
   struct diag_list *d;
   struct emu_asm *out;
   struct label *labels;
   unsigned nlabels, labels_cap;
   struct ref *refs;
   unsigned nrefs, refs_cap;
   /* TGSI declarations */
   uint32_t in_max, out_max, tex_mask, buf_mask, img_mask;
   uint64_t sv_mask;
   uint32_t const_max[ENV_MAX_CBUFS];
   enum tgsi_texture tex_target[ENV_MAX_TEXTURES], img_target[ENV_MAX_IMAGES];
   uint32_t shared;
   bool any_const[ENV_MAX_CBUFS];
   bool failed;
   const char *clean; /* the current line without comments: `at` points into it */
};

DC_PRINTF(5, 6)
static void
perr(struct aparse *p, unsigned line, const char *ls, const char *at, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   char *msg = xvasprintf(fmt, ap);
   va_end(ap);
   int col = at && ls && p->clean ? (int)(at - p->clean) + 1 : 0;
   diag_add(p->d, DIAG_ERROR, p->file, (int)line, col, ls, "%s", msg);
   free(msg);
   p->failed = true;
}

/* Case-insensitive strncmp (strncasecmp is POSIX, not C11). */
static int
ncasecmp(const char *a, const char *b, size_t n)
{
   for (size_t i = 0; i < n; i++) {
      int x = tolower((unsigned char)a[i]), y = tolower((unsigned char)b[i]);
      if (x != y || !x)
         return x - y;
   }
   return 0;
}

static const char *
ws(const char *s)
{
   while (*s == ' ' || *s == '\t')
      s++;
   return s;
}

static size_t
ident_len(const char *s)
{
   size_t n = 0;
   if (!isalpha((unsigned char)s[0]) && s[0] != '_')
      return 0;
   while (isalnum((unsigned char)s[n]) || s[n] == '_')
      n++;
   return n;
}

static bool
word_is(const char **s, const char *w)
{
   size_t n = strlen(w);
   if (ncasecmp(*s, w, n) || isalnum((unsigned char)(*s)[n]) || (*s)[n] == '_')
      return false;
   *s = ws(*s + n);
   return true;
}

static bool
parse_u(const char **s, uint64_t *v)
{
   char *end;
   errno = 0;
   if (!isdigit((unsigned char)**s))
      return false;
   *v = strtoull(*s, &end, 0);
   if (errno)
      return false;
   *s = ws(end);
   return true;
}

/* "[n]" */
static bool
bracket(const char **s, uint64_t *v)
{
   const char *q = ws(*s);
   if (*q != '[')
      return false;
   q = ws(q + 1);
   if (!parse_u(&q, v) || *q != ']')
      return false;
   *s = ws(q + 1);
   return true;
}

/* ".xyzw" -> channel list (up to 4). */
static unsigned
chans(const char **s, unsigned *ch)
{
   unsigned n = 0;
   if (**s != '.')
      return 0;
   const char *q = *s + 1;
   for (; *q && n < 4; q++) {
      const char *c = strchr("xyzw", *q);
      if (!c || !*q)
         break;
      ch[n++] = (unsigned)(c - "xyzw");
   }
   *s = ws(q);
   return n;
}

static bool
parse_reg(struct aparse *p, const char **s, struct emu_binding *b)
{
   unsigned file, index, bank;
   size_t n = isa_parse_reg_name(p->m, *s, &file, &index, &bank);
   if (!n)
      return false;
   b->file = (uint8_t)file;
   b->index = (uint16_t)index;
   b->bank = (uint16_t)bank;
   *s = ws(*s + n);
   return true;
}

static void
bind_chans(struct aparse *p, struct emu_binding b, const unsigned *ch, unsigned nch)
{
   for (unsigned i = 0; i < nch; i++) {
      struct emu_binding x = b;
      x.chan = (uint8_t)ch[i];
      x.index = (uint16_t)(b.index + i);
      emu_program_bind(&p->out->prog, &x);
   }
}

static int
find_name(const char *const *names, unsigned n, const char *s, size_t len)
{
   for (unsigned i = 0; i < n; i++)
      if (strlen(names[i]) == len && !ncasecmp(names[i], s, len))
         return (int)i;
   return -1;
}

static bool
dir_stage(struct aparse *p, const char *s)
{
   size_t n = ident_len(s);
   int st = find_name(tgsi_stage_names, TGSI_STAGE_COUNT, s, n);
   if (st < 0)
      return false;
   p->out->prog.stage = (enum tgsi_stage)st;
   return !*ws(s + n);
}

static bool
dir_counts(struct aparse *p, const char *dir, const char *s)
{
   uint64_t v[3] = {0, 0, 0};
   unsigned n = 0;
   while (n < 3 && parse_u(&s, &v[n]))
      n++;
   if (!n || *s || v[0] == 0)
      return false;
   if (!strcmp(dir, "lanes")) {
      if (n != 1 || v[0] > ENV_MAX_LANES)
         return false;
      p->out->lanes = (uint32_t)v[0];
   } else if (!strcmp(dir, "block")) {
      for (unsigned i = 0; i < 3; i++)
         p->out->block[i] = (uint32_t)(i < n ? v[i] : 1);
      if ((uint64_t)p->out->block[0] * p->out->block[1] * p->out->block[2] > 65536)
         return false;
   } else if (!strcmp(dir, "max_vertices")) {
      if (n != 1 || v[0] > 1024)
         return false;
      p->out->prog.gs_max_vertices = (uint32_t)v[0];
   } else if (!strcmp(dir, "out_vertices")) {
      if (n != 1 || v[0] > 32)
         return false;
      p->out->out_vertices = (uint32_t)v[0];
   } else if (!strcmp(dir, "outputs")) {
      if (n != 1 || v[0] > 1024)
         return false;
      p->out_max = MAX2(p->out_max, (uint32_t)v[0]);
   } else {
      if (n != 1 || v[0] > ENV_MAX_MEM_BYTES)
         return false;
      p->shared = (uint32_t)v[0];
   }
   return true;
}

/* .input REG IN[n].c / IN[v][n].c, .output REG OUT[n].c, .const REG CONST[b][n].c */
static bool
dir_bind(struct aparse *p, enum emu_bind_kind kind, const char *s)
{
   struct emu_binding b = {.kind = (uint8_t)kind};
   unsigned ch[4], nch;
   uint64_t a, c;
   if (!parse_reg(p, &s, &b))
      return false;
   const char *w = kind == EMU_BIND_INPUT ? "IN" : kind == EMU_BIND_OUTPUT ? "OUT" : "CONST";
   if (!word_is(&s, w) && ncasecmp(s, w, strlen(w)))
      return false;
   if (!ncasecmp(s, w, strlen(w)))
      s += strlen(w);
   if (!bracket(&s, &a))
      return false;
   if (bracket(&s, &c)) {
      if (kind == EMU_BIND_CONST)
         b.buffer = (uint8_t)a;
      else
         b.vertex = (uint16_t)a;
      a = c;
   }
   if (!(nch = chans(&s, ch)) || *s || a > 0xffff || b.buffer >= ENV_MAX_CBUFS || b.vertex > 63)
      return false;
   b.tgsi_index = (uint16_t)a;
   bind_chans(p, b, ch, nch);
   if (kind == EMU_BIND_INPUT)
      p->in_max = MAX2(p->in_max, (uint32_t)a + 1);
   else if (kind == EMU_BIND_OUTPUT)
      p->out_max = MAX2(p->out_max, (uint32_t)a + 1);
   else {
      p->const_max[b.buffer] = MAX2(p->const_max[b.buffer], (uint32_t)a + 1);
      p->any_const[b.buffer] = true;
   }
   return true;
}

static bool
dir_sysval(struct aparse *p, const char *s)
{
   struct emu_binding b = {.kind = EMU_BIND_SYSVAL};
   unsigned ch[4], nch;
   if (!parse_reg(p, &s, &b))
      return false;
   size_t n = ident_len(s);
   int sem = find_name(tgsi_semantic_names, TGSI_SEM_COUNT, s, n);
   if (sem < 0)
      return false;
   s += n;
   if (!(nch = chans(&s, ch)) || *s)
      return false;
   b.tgsi_index = (uint16_t)sem;
   bind_chans(p, b, ch, nch);
   p->sv_mask |= 1ull << (sem & 63);
   return true;
}

static bool
dir_value(struct aparse *p, const char *s)
{
   struct emu_binding b = {.kind = EMU_BIND_VALUE};
   if (!parse_reg(p, &s, &b))
      return false;
   char *end;
   errno = 0;
   bool neg = *s == '-';
   if ((s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ||
       (isdigit((unsigned char)s[neg]) && !strpbrk(s, ".eE"))) {
      long long v = strtoll(s, &end, 0);
      if (errno || v < INT32_MIN || v > (long long)UINT32_MAX)
         return false;
      b.value = (uint32_t)v;
   } else {
      float f = strtof(s, &end);
      if (end == s)
         return false;
      b.value = fui(f);
   }
   if (*ws(end))
      return false;
   emu_program_bind(&p->out->prog, &b);
   return true;
}

/* .texture UNIT TARGET, .image N TARGET, .buffer N */
static bool
dir_resource(struct aparse *p, char kind, const char *s)
{
   uint64_t u;
   unsigned max = kind == 't' ? ENV_MAX_TEXTURES : kind == 'i' ? ENV_MAX_IMAGES : ENV_MAX_BUFFERS;
   if (!parse_u(&s, &u) || u >= max)
      return false;
   if (kind == 'b') {
      p->buf_mask |= 1u << u;
      return !*s;
   }
   size_t n = 0;
   while (s[n] && !isspace((unsigned char)s[n]))
      n++;
   for (unsigned t = 0; t < TGSI_TEX_COUNT; t++)
      if (strlen(tgsi_texture_names[t]) == n && !ncasecmp(tgsi_texture_names[t], s, n)) {
         if (kind == 't') {
            p->tex_mask |= 1u << u;
            p->tex_target[u] = (enum tgsi_texture)t;
         } else {
            p->img_mask |= 1u << u;
            p->img_target[u] = (enum tgsi_texture)t;
         }
         return !*ws(s + n);
      }
   return false;
}

/* .size REG BUFFER[n].x | IMAGE[n].xyz | MEMORY.x | SVIEW[n].xyzw */
static bool
dir_size(struct aparse *p, const char *s)
{
   struct emu_binding b = {.kind = EMU_BIND_SIZE};
   unsigned ch[4], nch;
   uint64_t i = 0;
   if (!parse_reg(p, &s, &b))
      return false;
   size_t n = ident_len(s);
   int f = find_name(tgsi_file_names, TGSI_FILE_COUNT, s, n);
   if (f != TGSI_FILE_BUFFER && f != TGSI_FILE_IMAGE && f != TGSI_FILE_MEMORY &&
       f != TGSI_FILE_SVIEW)
      return false;
   s += n;
   if (f != TGSI_FILE_MEMORY && !bracket(&s, &i))
      return false;
   if (!(nch = chans(&s, ch)) || *s || i > 0xffff)
      return false;
   b.buffer = (uint8_t)f;
   b.tgsi_index = (uint16_t)i;
   bind_chans(p, b, ch, nch);
   return true;
}

static void
directive(struct aparse *p, unsigned line, const char *ls, const char *s)
{
   const char *name = s + 1;
   size_t n = ident_len(name);
   char dir[16];
   snprintf(dir, sizeof(dir), "%.*s", (int)(n < 15 ? n : 15), name);
   const char *a = ws(name + n);
   bool ok;
   if (!strcmp(dir, "stage"))
      ok = dir_stage(p, a);
   else if (!strcmp(dir, "lanes") || !strcmp(dir, "block") || !strcmp(dir, "shared") ||
            !strcmp(dir, "max_vertices") || !strcmp(dir, "out_vertices") || !strcmp(dir, "outputs"))
      ok = dir_counts(p, dir, a);
   else if (!strcmp(dir, "input"))
      ok = dir_bind(p, EMU_BIND_INPUT, a);
   else if (!strcmp(dir, "output"))
      ok = dir_bind(p, EMU_BIND_OUTPUT, a);
   else if (!strcmp(dir, "const"))
      ok = dir_bind(p, EMU_BIND_CONST, a);
   else if (!strcmp(dir, "sysval"))
      ok = dir_sysval(p, a);
   else if (!strcmp(dir, "value"))
      ok = dir_value(p, a);
   else if (!strcmp(dir, "texture") || !strcmp(dir, "buffer") || !strcmp(dir, "image"))
      ok = dir_resource(p, dir[0], a);
   else if (!strcmp(dir, "size"))
      ok = dir_size(p, a);
   else {
      perr(p, line, ls, s, "unknown directive '.%s'", dir);
      return;
   }
   if (!ok)
      perr(p, line, ls, s, "bad .%s directive (see emu/README.md for the syntax)", dir);
}

/* Strips comments and trailing blanks: the assembler's rules. */
static char *
clean_line(const char *ls, size_t ll)
{
   char *line = xstrndup(ls, ll);
   char *c = strchr(line, ';');
   if (c)
      *c = 0;
   if ((c = strstr(line, "//")))
      *c = 0;
   for (size_t k = strlen(line); k && isspace((unsigned char)line[k - 1]); k--)
      line[k - 1] = 0;
   return line;
}

/* An instruction line: labels in front are recorded, a $name reference
 * is noted and replaced by the marker \1 (0 for the first assembly, the
 * offset for the second). One reference per line. */
static void
insn_line(struct aparse *p, unsigned line, const char *ls, char *text, unsigned insn, char **outl)
{
   char *s = (char *)ws(text);
   size_t n = ident_len(s);
   while (n && s[n] == ':') {
      struct label lb = {xstrndup(s, n), insn};
      for (unsigned i = 0; i < p->nlabels; i++)
         if (!strcmp(p->labels[i].name, lb.name))
            perr(p, line, ls, s, "label '%s' defined twice", lb.name);
      VEC_PUSH(p->labels, p->nlabels, p->labels_cap, lb);
      s = (char *)ws(s + n + 1);
      n = ident_len(s);
   }
   char *o = xstrdup(s);
   char *d = strchr(o, '$');
   if (d) {
      size_t k = ident_len(d + 1);
      if (!k) {
         perr(p, line, ls, strchr(text, '$'), "expected a label name after '$'");
      } else {
         struct ref r = {line, insn, xstrndup(d + 1, k)};
         VEC_PUSH(p->refs, p->nrefs, p->refs_cap, r);
         memmove(d + 1, d + 1 + k, strlen(d + 1 + k) + 1);
         *d = '\x01';
      }
   }
   *outl = o;
}

static int64_t
label_offset(const struct aparse *p, const struct isa_insn *v, size_t n, const struct ref *r,
             unsigned target, bool *ok)
{
   const struct isa_insn *in = &v[r->insn];
   uint64_t end = n ? (uint64_t)v[n - 1].addr + v[n - 1].size : 0;
   uint64_t taddr = target < n ? v[target].addr : end;
   *ok = false;
   for (unsigned i = 0; i < in->nsrc; i++) {
      struct isa_slot_info si;
      if (!isa_slot_info(p->m, in->op, false, i, &si) || !si.pcrel)
         continue;
      *ok = true;
      switch (si.pcrel) {
      case ISA_PCREL_INSN:
         return (int64_t)target - r->insn;
      case ISA_PCREL_INSN_NEXT:
         return (int64_t)target - r->insn - 1;
      case ISA_PCREL_BYTE:
         return (int64_t)taddr - in->addr;
      case ISA_PCREL_DWORD_NEXT:
         return ((int64_t)taddr - in->addr - in->size) / 4;
      default:
         return (int64_t)taddr - in->addr - in->size;
      }
   }
   return 0;
}

/* Puts the offsets in place of the markers. */
static void
resolve(struct aparse *p, char **lines, const struct isa_insn *v, size_t n)
{
   for (unsigned i = 0; i < p->nrefs; i++) {
      const struct ref *r = &p->refs[i];
      int tgt = -1;
      for (unsigned k = 0; k < p->nlabels; k++)
         if (!strcmp(p->labels[k].name, r->name))
            tgt = (int)p->labels[k].insn;
      bool ok = false;
      int64_t off = tgt < 0 ? 0 : label_offset(p, v, n, r, (unsigned)tgt, &ok);
      if (tgt < 0)
         perr(p, r->line, NULL, NULL, "unknown label '%s'", r->name);
      else if (!ok)
         perr(p, r->line, NULL, NULL, "'$%s' in an instruction without a pc-relative operand",
              r->name);
      char *l = lines[r->line - 1], *at = strchr(l, '\x01');
      if (!at)
         continue;
      char *nl = xasprintf("%.*s%lld%s", (int)(at - l), l, (long long)off, at + 1);
      free(l);
      lines[r->line - 1] = nl;
   }
}

static char *
join_lines(char **lines, unsigned n)
{
   size_t len = 1;
   for (unsigned i = 0; i < n; i++)
      len += strlen(lines[i]) + 1;
   char *t = xmalloc(len), *o = t;
   for (unsigned i = 0; i < n; i++) {
      for (const char *s = lines[i]; *s; s++)
         *o++ = *s == '\x01' ? '0' : *s;
      *o++ = '\n';
   }
   *o = 0;
   return t;
}

/* TGSI declarations for the bindings, so diff_gen_inputs can fill them. */
static char *
make_tgsi(const struct aparse *p)
{
   const struct emu_asm *a = p->out;
   enum tgsi_stage st = a->prog.stage;
   char *t = xasprintf("%s\n", tgsi_stage_names[st]);
#define ADD(...)                                                                                   \
   do {                                                                                            \
      char *x_ = xasprintf(__VA_ARGS__);                                                           \
      char *y_ = xasprintf("%s%s\n", t, x_);                                                       \
      free(x_);                                                                                    \
      free(t);                                                                                     \
      t = y_;                                                                                      \
   } while (0)
   if (st == TGSI_STAGE_COMP && a->block[0]) {
      ADD("PROPERTY CS_FIXED_BLOCK_WIDTH %u", a->block[0]);
      ADD("PROPERTY CS_FIXED_BLOCK_HEIGHT %u", a->block[1]);
      ADD("PROPERTY CS_FIXED_BLOCK_DEPTH %u", a->block[2]);
   }
   if (st == TGSI_STAGE_GEOM && a->prog.gs_max_vertices)
      ADD("PROPERTY GS_MAX_OUTPUT_VERTICES %u", a->prog.gs_max_vertices);
   if (st == TGSI_STAGE_TESS_CTRL && a->out_vertices)
      ADD("PROPERTY TCS_VERTICES_OUT %u", a->out_vertices);
   for (uint32_t i = 0; i < p->in_max; i++)
      ADD("DCL IN[%u]%s", i,
          st == TGSI_STAGE_FRAG   ? ", GENERIC[0], PERSPECTIVE"
          : st == TGSI_STAGE_VERT ? ""
                                  : ", GENERIC[0]");
   unsigned sv = 0;
   for (unsigned k = 0; k < TGSI_SEM_COUNT && k < 64; k++)
      if (p->sv_mask & (1ull << k))
         ADD("DCL SV[%u], %s", sv++, tgsi_semantic_names[k]);
   for (unsigned b = 0; b < ENV_MAX_CBUFS; b++)
      if (p->any_const[b])
         ADD("DCL CONST[%u][0..%u]", b, p->const_max[b] - 1);
   for (uint32_t i = 0; i < p->out_max; i++)
      ADD("DCL OUT[%u], %s[%u]", i, st == TGSI_STAGE_FRAG ? "COLOR" : "GENERIC", i);
   for (unsigned u = 0; u < ENV_MAX_TEXTURES; u++)
      if (p->tex_mask & (1u << u)) {
         ADD("DCL SAMP[%u]", u);
         ADD("DCL SVIEW[%u], %s, FLOAT", u, tgsi_texture_names[p->tex_target[u]]);
      }
   for (unsigned b = 0; b < ENV_MAX_BUFFERS; b++)
      if (p->buf_mask & (1u << b))
         ADD("DCL BUFFER[%u]", b);
   for (unsigned i = 0; i < ENV_MAX_IMAGES; i++)
      if (p->img_mask & (1u << i))
         ADD("DCL IMAGE[%u], %s, PIPE_FORMAT_R32G32B32A32_FLOAT, WR", i,
             tgsi_texture_names[p->img_target[i]]);
   if (p->shared)
      ADD("DCL MEMORY[0], SHARED");
   ADD("END");
#undef ADD
   return t;
}

static void
free_parse(struct aparse *p, char **lines, unsigned nlines)
{
   for (unsigned i = 0; i < nlines; i++)
      free(lines[i]);
   free(lines);
   for (unsigned i = 0; i < p->nlabels; i++)
      free(p->labels[i].name);
   free(p->labels);
   for (unsigned i = 0; i < p->nrefs; i++)
      free(p->refs[i].name);
   free(p->refs);
}

/* Splits the text: directives and labels are taken out, instruction lines
 * kept (blank where something was taken, so line numbers hold). */
static char **
scan(struct aparse *p, const char *text, unsigned *nlines)
{
   char **lines = NULL;
   unsigned n = 0, cap = 0, insn = 0;
   for (const char *ls = text; ls && *ls;) {
      const char *le = strchr(ls, '\n');
      size_t ll = le ? (size_t)(le - ls) : strlen(ls);
      char *clean = clean_line(ls, ll), *out = NULL;
      const char *s = ws(clean);
      p->clean = clean;
      if (*s == '.') {
         directive(p, n + 1, ls, s);
         out = xstrdup("");
      } else if (!*s) {
         out = xstrdup("");
      } else {
         insn_line(p, n + 1, ls, clean, insn, &out);
         insn += *ws(out) != 0;
      }
      p->clean = NULL;
      free(clean);
      VEC_PUSH(lines, n, cap, out);
      ls = le ? le + 1 : NULL;
   }
   *nlines = n;
   return lines;
}

bool
emu_asm_parse(const struct isa_model *m, const char *text, const char *file, struct emu_asm *out,
              struct diag_list *d)
{
   memset(out, 0, sizeof(*out));
   out->prog.model = m;
   out->prog.stage = TGSI_STAGE_FRAG;
   struct aparse p = {.m = m, .file = file, .d = d, .out = out};
   unsigned nlines;
   char **lines = scan(&p, text, &nlines);
   struct isa_insn *v = NULL;
   size_t n = 0;
   if (!p.failed && p.nrefs) {
      char *t = join_lines(lines, nlines);
      if (isa_assemble(m, t, file, &v, &n, NULL, NULL, d) != ISA_ERR_OK)
         p.failed = true;
      else
         resolve(&p, lines, v, n);
      free(t);
      free(v);
   }
   if (!p.failed) {
      char *t = join_lines(lines, nlines);
      if (isa_assemble(m, t, file, NULL, NULL, &out->prog.code, &out->prog.size, d) != ISA_ERR_OK)
         p.failed = true;
      free(t);
   }
   if (!p.failed) {
      out->tgsi = make_tgsi(&p);
      out->shared = p.shared;
      out->outputs = p.out_max;
   }
   free_parse(&p, lines, nlines);
   if (p.failed)
      emu_asm_free(out);
   return !p.failed;
}

void
emu_asm_free(struct emu_asm *a)
{
   free(a->tgsi);
   emu_program_free(&a->prog);
   memset(a, 0, sizeof(*a));
}
