/*
 * The assembler: reads the syntax print.c writes, one instruction per line,
 * by matching each candidate op's syntax template against the line. Runs
 * of modifiers with nothing between them ("(sy)(ss)(rpt2)") are accepted in
 * any order; white space is free around punctuation. Hidden modifiers (a3xx
 * precision) are inferred from the register files of the operands. Every
 * record is then checked by the encoder, so the assembler accepts exactly
 * what can be encoded.
 *
 * Comments start with ';' or "//". Errors carry file:line:col and the line.
 */
#include "isa/isa_priv.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* One attempt at matching a line against one op. */
struct
try {
   const struct isa_model *m;
   const struct isa_op *op;
   const char *start; /* the instruction text */
   const char *err_at;
   char *err;
   int alias;                          /* alias used, -1 for the mnemonic */
   const char *opnd_at[ISA_MAX_SLOTS]; /* where each operand starts */
   bool half[ISA_MAX_SLOTS];           /* written with the half mark ("hp0.x") */
   uint8_t tok[ISA_MAX_SLOTS];         /* an immediate written as: enum imm_tok */
   double fimm[ISA_MAX_SLOTS];         /* IMM_TOK_FLOAT: the number */
};

/* How an immediate was written, which a 64-bit slot needs (widen_imm64). */
enum imm_tok { IMM_TOK_NONE, IMM_TOK_INT, IMM_TOK_FLOAT };

DC_PRINTF(3, 4) static bool tfail(struct try *t, const char *at, const char *fmt, ...)
{
   if (!t->err) {
      va_list ap;
      va_start(ap, fmt);
      t->err = xvasprintf(fmt, ap);
      va_end(ap);
      t->err_at = at;
   }
   return false;
}

static const char *
skip_ws(const char *p)
{
   while (*p == ' ' || *p == '\t')
      p++;
   return p;
}

static bool
ident_char(char c)
{
   return isalnum((unsigned char)c) || c == '_';
}

/* Matches a register name at p; returns its length (0: none). */
static size_t
parse_reg(const struct isa_model *m, const char *p, int *file, unsigned *idx)
{
   size_t best = 0;
   for (unsigned f = 0; f < m->nfiles; f++) {
      const struct isa_regfile *rf = &m->files[f];
      for (unsigned i = 0; rf->names && i < rf->count; i++) {
         if (!rf->names[i] || rf->names[i][0] != *p)
            continue; /* the common case, without a strlen */
         size_t n = strlen(rf->names[i]);
         if (n > best && !strncmp(p, rf->names[i], n) && !ident_char(p[n])) {
            best = n;
            *file = (int)f;
            *idx = i;
         }
      }
      for (unsigned i = 0; rf->pair_names && i < rf->count; i++) {
         if (!rf->pair_names[i] || rf->pair_names[i][0] != *p)
            continue;
         size_t n = strlen(rf->pair_names[i]);
         if (n > best && !strncmp(p, rf->pair_names[i], n) && !ident_char(p[n])) {
            best = n;
            *file = (int)f;
            *idx = i;
         }
      }
      size_t pl = strlen(rf->prefix);
      if (rf->print == ISA_PRINT_RANGE && !strncmp(p, rf->prefix, pl) && p[pl] == '[') {
         /* "s[4:7]": the first register; the slot says how many. */
         char *end;
         unsigned long a = strtoul(p + pl + 1, &end, 10), b = a;
         if (end != p + pl + 1 && *end == ':')
            b = strtoul(end + 1, &end, 10);
         if (*end == ']' && a <= b && b < rf->count && (size_t)(end + 1 - p) > best) {
            best = (size_t)(end + 1 - p);
            *file = (int)f;
            *idx = (unsigned)a;
         }
         continue;
      }
      if (strncmp(p, rf->prefix, pl) || !isdigit((unsigned char)p[pl]))
         continue;
      char *end;
      errno = 0;
      unsigned long n = strtoul(p + pl, &end, 10);
      unsigned long r = n;
      if (errno)
         continue;
      if (rf->print == ISA_PRINT_VEC4) {
         const char *sw = *end == '.' ? strchr("xyzw", end[1]) : NULL;
         if (!sw || !end[1])
            continue;
         r = n * 4 + (unsigned long)(sw - "xyzw");
         end += 2;
      } else if (rf->print == ISA_PRINT_HALVES) {
         if (*end != 'l' && *end != 'h')
            continue;
         r = n * 2 + (*end == 'h');
         end++;
      }
      size_t len = (size_t)(end - p);
      if (r < rf->count && !ident_char(*end) && len > best) {
         best = len;
         *file = (int)f;
         *idx = (unsigned)r;
      }
   }
   return best;
}

static bool
parse_int(const char **pp, int64_t *v)
{
   const char *p = *pp;
   bool neg = false;
   if (*p == '-' || *p == '+')
      neg = *p++ == '-';
   if (!isdigit((unsigned char)*p))
      return false;
   char *end;
   errno = 0;
   unsigned long long x = strtoull(p, &end, 0);
   if (errno || ident_char(*end) || x > 0xffffffffull + neg)
      return false;
   *v = neg ? -(int64_t)x : (int64_t)x;
   *pp = end;
   return true;
}

/* "(1.5)", "(-inf)", "(0x7fc00000)": a float immediate as f32 bits. */
static bool
parse_float(struct try *t, const char **pp, uint32_t *bits)
{
   const char *p = *pp + 1;
   char *end;
   if (!strncmp(p, "0x", 2)) {
      errno = 0;
      unsigned long long x = strtoull(p, &end, 16);
      if (errno || x > 0xffffffffull)
         return tfail(t, p, "bad raw float bits");
      *bits = (uint32_t)x;
   } else {
      errno = 0;
      float f = strtof(p, &end);
      if (end == p)
         return tfail(t, p, "expected a number");
      *bits = fui(f);
   }
   if (*end != ')')
      return tfail(t, end, "expected ')'");
   *pp = end + 1;
   return true;
}

static bool
parse_rel(struct try *t, const char **pp, struct isa_opnd *o)
{
   const struct isa_model *m = t->m;
   for (unsigned f = 0; f < m->nfiles; f++) {
      size_t pl = strlen(m->files[f].prefix);
      if (strncmp(*pp, m->files[f].prefix, pl) || (*pp)[pl] != '<')
         continue;
      const char *p = skip_ws(*pp + pl + 1);
      int af;
      unsigned ai;
      size_t n = parse_reg(m, p, &af, &ai);
      if (!n || m->files[af].kind != ISA_FILE_ADDRESS)
         return tfail(t, p, "expected an address register");
      p = skip_ws(p + n);
      int64_t off = 0;
      if (*p == '+' || *p == '-') {
         bool neg = *p == '-';
         p = skip_ws(p + 1);
         if (!parse_int(&p, &off) || off < 0)
            return tfail(t, p, "expected an offset");
         off = neg ? -off : off;
         p = skip_ws(p);
      }
      if (*p != '>')
         return tfail(t, p, "expected '>'");
      o->kind = m->files[f].kind == ISA_FILE_CONST ? ISA_OPND_CONST : ISA_OPND_REG;
      o->file = (uint8_t)f;
      o->flags |= ISA_OPND_F_REL;
      o->bank = (uint16_t)ai;
      o->value = (uint32_t)(int32_t)off;
      *pp = p + 1;
      return true;
   }
   return false;
}

/* A number written with a point or an exponent ("0.5", "-4.0", "1e-3"),
 * as a double; an integer is not one. */
static bool
read_decimal_float(const char *p, double *d, const char **end)
{
   const char *q = p + (*p == '-' || *p == '+');
   while (isdigit((unsigned char)*q))
      q++;
   if (q == p || (*q != '.' && *q != 'e' && *q != 'E'))
      return false;
   char *e;
   *d = strtod(p, &e);
   if (e == p || ident_char(*e))
      return false;
   *end = e;
   return true;
}

/* An immediate in a form with its own display ("s#3", "#-4"). */
static bool
parse_imm_fmt(struct try *t, unsigned slot, const char **pp, struct isa_opnd *o)
{
   const struct isa_slot *sl = &t->op->slot[slot];
   const struct isa_format *fm = &t->m->formats[t->op->fields[sl->field].format];
   for (unsigned c = 0; c < fm->ncases; c++) {
      const struct isa_case *cs = &fm->cases[c];
      if (cs->kind != ISA_OPND_IMM || !(sl->allow & (1u << c)) || !cs->fmt.pre ||
          (!cs->fmt.pre[0] && cs->fmt.conv != 'f'))
         continue;
      size_t n = strlen(cs->fmt.pre);
      const char *p = *pp;
      int64_t v;
      double d;
      bool is_float = false;
      if (cs->fmt.conv == 'x' && !strcmp(cs->fmt.pre, "0x") && read_decimal_float(p, &d, &p)) {
         /* A raw 32-bit literal ("0x%x") also takes a float written as a
          * decimal, as its f32 bits, in any slot (as llvm-mc does):
          * "v_add_f32_e32 v0, 1.5, v1" is 0x3fc00000. */
         is_float = true;
      } else if (strncmp(p, cs->fmt.pre, n)) {
         continue;
      } else {
         p += n;
         /* "%f" patterns read only a float (integers are another form's). */
         if (cs->fmt.conv == 'f' && !read_decimal_float(p, &d, &p))
            continue;
         is_float = cs->fmt.conv == 'f';
      }
      if (is_float) {
         v = (int64_t)fui((float)d);
         t->fimm[slot] = d;
      } else if (cs->fmt.conv == 'x' && isxdigit((unsigned char)*p)) {
         /* "%x" patterns ("0x%x") read hex digits. */
         char *end;
         errno = 0;
         unsigned long long x = strtoull(p, &end, 16);
         if (errno || x > 0xffffffffull || ident_char(*end))
            return tfail(t, p, "bad hex number after '%s'", cs->fmt.pre);
         v = (int64_t)x;
         p = end;
      } else if (!parse_int(&p, &v)) {
         return tfail(t, p, "expected a number after '%s'", cs->fmt.pre);
      }
      if (cs->fmt.conv == 'd' && (v < INT32_MIN || v > INT32_MAX))
         return tfail(t, *pp, "%lld does not fit 32 signed bits", (long long)v);
      size_t k = strlen(cs->fmt.post);
      if (strncmp(p, cs->fmt.post, k))
         return tfail(t, p, "expected '%s'", cs->fmt.post);
      o->kind = ISA_OPND_IMM;
      o->value = (uint32_t)v;
      t->tok[slot] = is_float ? IMM_TOK_FLOAT : IMM_TOK_INT;
      *pp = p + k;
      return true;
   }
   return false;
}

/* "c[BANK][BYTE]": a banked constant; the byte offset must be a multiple
 * of the file's register size. Returns the length matched (0: not one). */
static size_t
parse_banked(struct try *t, const char *p, struct isa_opnd *o)
{
   const struct isa_model *m = t->m;
   for (unsigned f = 0; f < m->nfiles; f++) {
      const struct isa_regfile *rf = &m->files[f];
      size_t pl = strlen(rf->prefix);
      if (rf->kind != ISA_FILE_CONST || strncmp(p, rf->prefix, pl) || p[pl] != '[')
         continue;
      const char *q = p + pl + 1;
      int64_t bank, off;
      unsigned unit = rf->width / 8 ? rf->width / 8 : 1;
      bool ok = parse_int(&q, &bank) && q[0] == ']' && q[1] == '[';
      if (ok) {
         q += 2;
         ok = parse_int(&q, &off) && *q == ']';
      }
      if (!ok) {
         tfail(t, p, "expected %s[BANK][OFFSET]", rf->prefix);
         return 1; /* t->err tells the caller */
      }
      if (bank < 0 || bank > 0xffff || off < 0 || off % unit || off / unit >= rf->count) {
         tfail(t, p, "constant %s[%lld][%lld] out of range or not %u-byte aligned", rf->prefix,
               (long long)bank, (long long)off, unit);
         return 1;
      }
      o->kind = ISA_OPND_CONST;
      o->file = (uint8_t)f;
      o->bank = (uint16_t)bank;
      o->index = (uint16_t)(off / unit);
      return (size_t)(q + 1 - p);
   }
   return 0;
}

/* A register of a file that cannot show a width, with the half mark
 * print.c adds when nothing else shows a narrow hidden width ("hp0.x"). */
static size_t
parse_half_marked(struct try *t, unsigned slot, const char *p, int *file, unsigned *idx)
{
   const struct isa_model *m = t->m;
   int wm = t->op->slot[slot].width_mod;
   const char *mark;
   size_t ml = isa_half_mark(m, &mark), n;
   if (!ml || wm < 0 || !m->mods[wm].hidden || strncmp(p, mark, ml) ||
       !(n = parse_reg(m, p + ml, file, idx)) || isa_file_width_hint(m, (unsigned)*file))
      return 0;
   return ml + n;
}

/* A hex number is a bit pattern: written for a signed immediate field of
 * w < 32 bits, 0x8000..0xffff (w = 16) is the negative value with those
 * bits, as llvm-mc prints SOPK immediates (s_movk_i32 s0, 0xfffb is -5). */
static int64_t
hex_pattern(const struct try *t, const struct isa_slot *sl, const char *text, int64_t v)
{
   if (text[0] != '0' || (text[1] != 'x' && text[1] != 'X') || sl->field < 0)
      return v;
   const struct isa_format *fm = &t->m->formats[t->op->fields[sl->field].format];
   for (unsigned c = 0; c < fm->ncases; c++) {
      const struct isa_case *cs = &fm->cases[c];
      unsigned w = cs->val.width;
      if (cs->kind == ISA_OPND_IMM && (sl->allow & (1u << c)) && cs->sign && cs->lut < 0 &&
          !cs->pcrel && w < 32 && v >= (1ll << (w - 1)) && v < (1ll << w))
         return v - (1ll << w);
   }
   return v;
}

static bool
parse_operand(struct try *t, unsigned slot, const char **pp, struct isa_opnd *o)
{
   const struct isa_model *m = t->m;
   const struct isa_slot *sl = &t->op->slot[slot];
   const char *p = skip_ws(*pp);
   static const struct {
      uint8_t print, flags;
   } pre[] = {{ISA_OPND_PRINT_ABSNEG, ISA_OPND_F_NEG | ISA_OPND_F_ABS},
              {ISA_OPND_PRINT_NEG, ISA_OPND_F_NEG},
              {ISA_OPND_PRINT_ABS, ISA_OPND_F_ABS},
              {ISA_OPND_PRINT_R, ISA_OPND_F_R},
              {ISA_OPND_PRINT_LAST, ISA_OPND_F_LAST},
              {ISA_OPND_PRINT_NOT, ISA_OPND_F_NOT},
              {ISA_OPND_PRINT_SEXT, ISA_OPND_F_SEXT},
              {ISA_OPND_PRINT_HI, ISA_OPND_F_HI}};
   memset(o, 0, sizeof(*o));
   const char *ni = m->opnd_print[ISA_OPND_PRINT_NEG_IMM];
   bool neg_imm = ni[0] && !strncmp(p, ni, strlen(ni));
   if (neg_imm) {
      o->flags |= ISA_OPND_F_NEG;
      p += strlen(ni);
   }
   for (bool more = !neg_imm; more;) {
      more = false;
      for (unsigned i = 0; i < ARRAY_SIZE(pre); i++) {
         const char *s = m->opnd_print[pre[i].print];
         size_t n = strlen(s);
         /* "-5" is a number, not a negated 5. */
         if (n && !strncmp(p, s, n) && !(n == 1 && *s == '-' && isdigit((unsigned char)p[1]))) {
            o->flags |= pre[i].flags;
            p += n;
            more = true;
            break;
         }
      }
   }
   const char *at = p;
   int file;
   unsigned idx;
   size_t n;
   int64_t v;
   if (*p == '(') {
      uint32_t bits = 0;
      if (!parse_float(t, &p, &bits))
         return false;
      o->kind = ISA_OPND_IMM;
      o->value = bits;
      t->tok[slot] = IMM_TOK_FLOAT;
      t->fimm[slot] = uif(bits);
   } else if (parse_imm_fmt(t, slot, &p, o) || parse_rel(t, &p, o)) {
      if (t->err)
         return false;
   } else if (t->err) {
      return false;
   } else if ((n = parse_banked(t, p, o))) { /* any slot: the encoder says if it fits */
      if (t->err)
         return false;
      p += n;
   } else if ((n = parse_reg(m, p, &file, &idx))) {
      o->kind = m->files[file].kind == ISA_FILE_CONST ? ISA_OPND_CONST : ISA_OPND_REG;
      o->file = (uint8_t)file;
      o->index = (uint16_t)idx;
      p += n;
   } else if ((n = parse_half_marked(t, slot, p, &file, &idx))) {
      o->kind = m->files[file].kind == ISA_FILE_CONST ? ISA_OPND_CONST : ISA_OPND_REG;
      o->file = (uint8_t)file;
      o->index = (uint16_t)idx;
      t->half[slot] = true;
      p += n;
   } else if (parse_int(&p, &v)) {
      if (v < INT32_MIN || v > UINT32_MAX)
         return tfail(t, at, "immediate out of 32-bit range");
      o->kind = ISA_OPND_IMM;
      o->value = (uint32_t)hex_pattern(t, sl, at, v);
      t->tok[slot] = IMM_TOK_INT;
   } else if (isalpha((unsigned char)*p)) {
      size_t k = 0;
      while (ident_char(p[k]) || p[k] == '.')
         k++;
      return tfail(t, at, "unknown register '%.*s' in %s", (int)k, p,
                   t->op->fields[sl->field].name);
   } else {
      return tfail(t, at, "expected %s", t->op->fields[sl->field].name);
   }
   if (o->flags & ISA_OPND_F_SEXT) {
      const char *e = m->opnd_print[ISA_OPND_PRINT_SEXT_END];
      size_t k = strlen(e);
      if (strncmp(p, e, k))
         return tfail(t, p, "expected '%s'", e);
      p += k;
   }
   if (o->flags & ISA_OPND_F_ABS) {
      const char *e = m->opnd_print[ISA_OPND_PRINT_ABS_END];
      size_t k = strlen(e);
      if (strncmp(p, e, k))
         return tfail(t, p, "expected '%s'", e);
      p += k;
   }
   if (neg_imm) {
      const char *e = m->opnd_print[ISA_OPND_PRINT_NEG_IMM_END];
      size_t k = strlen(e);
      if (strncmp(p, e, k))
         return tfail(t, p, "expected '%s'", e);
      p += k;
   }
   *pp = p;
   return true;
}

/* Literal text where a space stands for any (or no) white space. */
static bool
text_at(const char **pp, const char *lit)
{
   const char *p = *pp;
   for (; *lit; lit++) {
      if (*lit == ' ') {
         p = skip_ws(p);
         continue;
      }
      if (*p != *lit)
         return false;
      p++;
   }
   *pp = p;
   return true;
}

static bool
parse_mod(const struct isa_model *m, unsigned mod, const char **pp, int *v)
{
   const struct isa_mod *md = &m->mods[mod];
   const char *p = *pp;
   if (md->hidden || !text_at(&p, md->fmt.pre))
      return false;
   if (md->kind == ISA_MOD_FLAG) {
      *v = 1;
   } else if (md->kind == ISA_MOD_INT) {
      char *end;
      errno = 0;
      long x = strtol(p, &end, md->fmt.conv == 'x' ? 16 : 10);
      if (end == p || errno || x < 0 || x > 32767)
         return false;
      *v = (int)x;
      p = end;
   } else {
      const struct isa_enum *e = &m->enums[md->enm];
      size_t best = 0;
      for (unsigned i = 0; i < e->n; i++) {
         size_t k = strlen(e->v[i].print);
         if (k > best && !strncmp(p, e->v[i].print, k)) {
            best = k;
            *v = e->v[i].value;
         }
      }
      if (!best)
         return false;
      p += best;
   }
   if (!text_at(&p, md->fmt.post))
      return false;
   *pp = p;
   return true;
}

/* An enum modifier that prints nothing for one value may be left out;
 * any other enum modifier must be written. */
static bool
mod_optional(const struct isa_model *m, unsigned mod, int *v)
{
   const struct isa_mod *md = &m->mods[mod];
   if (md->kind != ISA_MOD_ENUM)
      return (*v = 0), true;
   const struct isa_enum *e = &m->enums[md->enm];
   for (unsigned i = 0; i < e->n; i++)
      if (!e->v[i].print[0])
         return (*v = e->v[i].value), true;
   return false;
}

static bool
parse_mod_run(struct try *t, unsigned *tp, const char **pp, struct isa_insn *out)
{
   const struct isa_op *op = t->op;
   unsigned a = *tp, b = a;
   while (b < op->ntoks && op->toks[b].kind == ISA_TOK_FIELD &&
          op->fields[op->toks[b].field].kind == ISA_FK_MOD)
      b++;
   bool done[ISA_MAX_FIELDS] = {false};
   for (bool progress = true; progress;) {
      progress = false;
      const char *p = *pp;
      for (unsigned i = a; i < b; i++) {
         unsigned f = (unsigned)op->toks[i].field, mod = (unsigned)op->fields[f].mod;
         int v;
         if (!done[f] && parse_mod(t->m, mod, &p, &v)) {
            done[f] = progress = true;
            out->mod[mod] = (int16_t)v;
            *pp = p;
            break;
         }
      }
   }
   for (unsigned i = a; i < b; i++) {
      unsigned f = (unsigned)op->toks[i].field, mod = (unsigned)op->fields[f].mod;
      int v;
      if (done[f] || t->m->mods[mod].hidden)
         continue;
      if (!mod_optional(t->m, mod, &v))
         return tfail(t, *pp, "expected %s", t->m->mods[mod].name);
      /* Two fields may share a modifier (guarded variants): keep a value. */
      if (!out->mod[mod] || v)
         out->mod[mod] = (int16_t)(v ? v : out->mod[mod]);
   }
   *tp = b;
   return true;
}

static bool
match_lit(struct try *t, const char **pp, const char *lit)
{
   const char *p = *pp;
   for (const char *l = lit; *l; l++) {
      if (*l == ' ') {
         p = skip_ws(p);
         continue;
      }
      p = skip_ws(p);
      if (*p != *l)
         return tfail(t, p, "expected '%c'", *l);
      p++;
   }
   *pp = p;
   return true;
}

/* Whether text at *pp reads as lit[0..n) (spaces in lit: any blanks). */
static bool
lit_quiet(const char **pp, const char *lit, size_t n)
{
   const char *p = *pp;
   for (size_t i = 0; i < n; i++) {
      p = skip_ws(p);
      if (lit[i] != ' ' && *p++ != lit[i])
         return false;
   }
   *pp = p;
   return true;
}

/* LLVM's AMDGPU syntax leaves out a named immediate that is 0 ("offset:0"):
 * where the op's literal ends in a word "NAME:" before an operand and the
 * text lacks that word, the literal's start is matched and the operand
 * reads as 0 (the operand's own format decides whether 0 fits). */
static bool
omitted_zero(struct try *t, unsigned *k, const char **pp, struct isa_insn *out)
{
   const struct isa_op *op = t->op;
   const char *lit = op->toks[*k].text;
   size_t n = strlen(lit), w = n ? n - 1 : 0;
   if (*k + 1 >= op->ntoks || n < 2 || lit[n - 1] != ':')
      return false;
   const struct isa_tok *nx = &op->toks[*k + 1];
   if (nx->kind != ISA_TOK_FIELD || op->fields[nx->field].kind != ISA_FK_OPERAND)
      return false;
   while (w > 0 && lit[w - 1] != ' ')
      w--;
   const char *p = *pp;
   if (n - w < 2 || !lit_quiet(&p, lit, w))
      return false;
   const char *q = p;
   if (lit_quiet(&q, lit + w, n - w))
      return false; /* written: the ordinary match reads it */
   for (unsigned s = 0; s < (unsigned)op->ndst + op->nsrc; s++) {
      const char *zero = "0";
      if (op->slot[s].field != nx->field)
         continue;
      t->opnd_at[s] = p;
      if (!parse_operand(t, s, &zero, s < op->ndst ? &out->dst[s] : &out->src[s - op->ndst]))
         return false;
   }
   *pp = p;
   *k += 2;
   return true;
}

static bool
match_name(struct try *t, const char **pp)
{
   const char *p = skip_ws(*pp);
   const struct isa_op *op = t->op;
   size_t n = strlen(op->mnemonic), best = 0;
   if (!strncmp(p, op->mnemonic, n)) {
      best = n;
      t->alias = -1;
   }
   for (unsigned a = 0; a < op->naliases; a++) {
      size_t k = strlen(op->aliases[a].name);
      if (k > best && !strncmp(p, op->aliases[a].name, k)) {
         best = k;
         t->alias = (int)a;
      }
   }
   if ((!best || ident_char(p[best])) && *p == '(')
      return tfail(t, p, "%s cannot take modifier '%.*s'", op->mnemonic,
                   (int)(strchr(p, ')') ? strchr(p, ')') - p + 1 : 1), p);
   if (!best || ident_char(p[best]))
      return tfail(t, p, "expected '%s'", op->mnemonic);
   *pp = p + best;
   return true;
}

/* Sets hidden width modifiers (a3xx `full`) from the register files the
 * operands use. */
static bool
infer_widths(struct try *t, struct isa_insn *out)
{
   const struct isa_model *m = t->m;
   const struct isa_op *op = t->op;
   for (unsigned s = 0; s < (unsigned)op->ndst + op->nsrc; s++) {
      int wm = op->slot[s].width_mod;
      if (wm < 0 || !m->mods[wm].hidden)
         continue;
      unsigned want = 0;
      for (unsigned u = 0; u < (unsigned)op->ndst + op->nsrc; u++) {
         const struct isa_opnd *o = u < op->ndst ? &out->dst[u] : &out->src[u - op->ndst];
         if (op->slot[u].width_mod != wm || o->kind == ISA_OPND_IMM || o->kind == ISA_OPND_NONE ||
             o->file >= m->nfiles)
            continue;
         /* A file with a half partner is 32-bit, the partner 16-bit;
          * other files (predicates, address) do not decide unless
          * written with the half mark. */
         unsigned w = t->half[u] ? 16 : isa_file_width_hint(m, o->file);
         if (w && want && w != want)
            return tfail(t, t->start, "%s mixes 16-bit and 32-bit registers", op->mnemonic);
         if (w)
            want = w;
      }
      const struct isa_enum *e = &m->enums[m->mods[wm].enm];
      for (unsigned i = 0; want && i < e->n; i++)
         if (e->v[i].width == want)
            out->mod[wm] = (int16_t)e->v[i].value;
   }
   return true;
}

/* An immediate of a 64-bit slot as llvm-mc reads it: a number written
 * with a point its double; an integer -16..64 sign-extended; another one
 * the literal: a float slot's high word, else sign-extended from 32 bits. */
static void
widen_imm64(const struct try *t, struct isa_insn *out)
{
   const struct isa_op *op = t->op;
   for (unsigned s = 0; s < (unsigned)op->ndst + op->nsrc; s++) {
      struct isa_opnd *o = s < op->ndst ? &out->dst[s] : &out->src[s - op->ndst];
      enum isa_imm64 w = isa_slot_imm64(t->m, op, &op->slot[s], out->mod);
      if (o->kind != ISA_OPND_IMM || !t->tok[s] || w == ISA_IMM64_NONE)
         continue;
      uint64_t x;
      int32_t i = (int32_t)o->value;
      if (t->tok[s] == IMM_TOK_FLOAT)
         memcpy(&x, &t->fimm[s], sizeof(x));
      else if (w == ISA_IMM64_FLOAT && (i < -16 || i > 64))
         x = (uint64_t)o->value << 32;
      else
         x = (uint64_t)(int64_t)i;
      o->value = (uint32_t)x;
      o->hi = (uint32_t)(x >> 32);
   }
}

static bool
try_op(struct try *t, const char *text, struct isa_insn *out)
{
   const struct isa_op *op = t->op;
   const char *p = text;
   isa_insn_init(t->m, (unsigned)(op - t->m->ops), out);
   for (unsigned k = 0; k < t->m->bundle.ntoks; k++) {
      const struct isa_tok *tk = &t->m->bundle.toks[k];
      int v;
      if (tk->kind == ISA_TOK_LIT) {
         if (!match_lit(t, &p, tk->text))
            return false;
         continue;
      }
      unsigned mod = (unsigned)t->m->bundle.fields[tk->field].mod;
      if (!parse_mod(t->m, mod, &p, &v) && !mod_optional(t->m, mod, &v))
         return tfail(t, p, "expected %s", t->m->mods[mod].name);
      out->mod[mod] = (int16_t)v;
   }
   for (unsigned k = 0; k < op->ntoks;) {
      const struct isa_tok *tk = &op->toks[k];
      if (tk->kind == ISA_TOK_LIT) {
         const char *q = p;
         if (!lit_quiet(&q, tk->text, strlen(tk->text)) && omitted_zero(t, &k, &p, out))
            continue;
         if (!match_lit(t, &p, tk->text))
            return false;
         k++;
      } else if (tk->kind == ISA_TOK_NAME) {
         if (!match_name(t, &p))
            return false;
         k++;
      } else if (op->fields[tk->field].kind == ISA_FK_MOD) {
         if (!parse_mod_run(t, &k, &p, out))
            return false;
      } else {
         /* A field may be two slots (s_bitset0_b32 reads its destination):
          * each reads the same text. */
         const char *at = p, *end = p;
         for (unsigned s = 0; s < (unsigned)op->ndst + op->nsrc; s++) {
            if (op->slot[s].field != tk->field)
               continue;
            const char *q = at;
            t->opnd_at[s] = skip_ws(q);
            if (!parse_operand(t, s, &q, s < op->ndst ? &out->dst[s] : &out->src[s - op->ndst]))
               return false;
            end = q;
         }
         p = end;
         k++;
      }
   }
   p = skip_ws(p);
   if (*p)
      return tfail(t, p, "unexpected '%s'", p);
   if (!infer_widths(t, out))
      return false;
   widen_imm64(t, out);
   if (t->alias >= 0) {
      int64_t vals[ISA_MAX_FIELDS];
      const struct isa_alias *a = &op->aliases[t->alias];
      isa_record_vals(t->m, op, out, vals);
      if (!isa_guards_hold(a->guard, a->nguard, vals))
         return tfail(t, text, "'%s' does not fit these modifiers (use %s)", a->name, op->mnemonic);
   }
   return true;
}

/* The first entry of the sorted name table not below name[0..n). */
static unsigned
name_lower_bound(const struct isa_model *m, const char *name, size_t n)
{
   unsigned lo = 0, hi = m->nnames;
   while (lo < hi) {
      unsigned mid = lo + (hi - lo) / 2;
      const struct isa_name_ref *r = &m->names[mid];
      int c = memcmp(r->name, name, MIN2(r->len, n));
      if (c < 0 || (c == 0 && r->len < n))
         lo = mid + 1;
      else
         hi = mid;
   }
   return lo;
}

/* The ops named by the word w[0..wl): a mnemonic or alias equal to the
 * word or to a part of it before a '.' (modifiers follow). Writes their
 * indices to out (if not NULL) in op order, the order forms are tried in;
 * returns how many. */
static unsigned
ops_named(const struct isa_model *m, const char *w, size_t wl, unsigned *out)
{
   unsigned k = 0;
   for (size_t n = 1; n <= wl; n++) {
      if (n < wl && w[n] != '.')
         continue;
      for (unsigned i = name_lower_bound(m, w, n);
           i < m->nnames && m->names[i].len == n && !memcmp(m->names[i].name, w, n); i++) {
         if (!out)
            return 1;
         out[k++] = m->names[i].op;
      }
   }
   /* insertion sort and dedupe: an op can be named twice (alias, cut) */
   for (unsigned i = 1; i < k; i++)
      for (unsigned j = i; j > 0 && out[j - 1] > out[j]; j--) {
         unsigned t = out[j];
         out[j] = out[j - 1];
         out[j - 1] = t;
      }
   unsigned u = 0;
   for (unsigned i = 0; i < k; i++)
      if (!u || out[u - 1] != out[i])
         out[u++] = out[i];
   return u;
}

static bool
parse_line(const struct isa_model *m, const char *text, struct isa_insn *out, char **err,
           const char **err_at, const char **opnd_at)
{
   /* The mnemonic is the first word that names an op: skip prefix
    * modifiers such as "(sy)" (a3xx), "@!P0" guards or "S4 W0" control
    * fields (sm50). */
   const char *w = skip_ws(text), *word0 = NULL;
   size_t wl = 0, wl0 = 0;
   for (;;) {
      while (*w == '(') {
         const char *e = strchr(w, ')');
         if (!e)
            break;
         w = skip_ws(e + 1);
      }
      for (wl = 0; ident_char(w[wl]) || w[wl] == '.';)
         wl++;
      if (!word0) {
         word0 = w;
         wl0 = wl;
      }
      size_t tl = strcspn(w, " \t");
      if (wl && ops_named(m, w, wl, NULL))
         break;
      if (!w[tl]) {
         w = word0; /* no op named: the first word is the unknown mnemonic */
         wl = wl0;
         break;
      }
      w = skip_ws(w + tl);
   }
   *err = NULL;
   *err_at = text;
   bool any = false, parsed = false;
   enum isa_err first_err = ISA_ERR_OK;
   struct isa_insn first;
   const char *first_at[ISA_MAX_SLOTS];
   /* w is the mnemonic even after a bundle prefix ("[B..:S04] FADD"): the
    * search above skips words that name no op. */
   unsigned *cands = xmalloc(sizeof(unsigned) * (m->nnames ? m->nnames : 1));
   unsigned ncands = wl ? ops_named(m, w, wl, cands) : 0;
   for (unsigned c = 0; c < ncands; c++) {
      const struct isa_op *op = &m->ops[cands[c]];
      any = true;
      struct try t = {.m = m, .op = op, .start = text, .alias = -1};
      if (try_op(&t, text, out)) {
         /* Ops sharing a mnemonic are forms of one instruction (sm50:
          * register, constant and immediate encodings): the first whose
          * encoding takes these operands wins; if none does, the first
          * that parsed reports why. */
         struct isa_bits b;
         char *msg = NULL;
         int slot;
         enum isa_err e = isa_encode_bits(m, out, &b, &msg, &slot);
         if (e == ISA_ERR_OK) {
            free(*err);
            *err = NULL;
            memcpy(opnd_at, t.opnd_at, sizeof(t.opnd_at));
            free(cands);
            return true;
         }
         free(msg);
         /* A form that takes the operand kinds but not their values (a
          * range error) explains more than one that takes neither. */
         if (!parsed || (first_err == ISA_ERR_OPERAND && e != ISA_ERR_OPERAND)) {
            first = *out;
            first_err = e;
            memcpy(first_at, t.opnd_at, sizeof(t.opnd_at));
            parsed = true;
         }
         continue;
      }
      if (!*err || t.err_at > *err_at) {
         free(*err);
         *err = t.err;
         *err_at = t.err_at;
      } else {
         free(t.err);
      }
   }
   free(cands);
   if (parsed) {
      free(*err);
      *err = NULL;
      *out = first;
      memcpy(opnd_at, first_at, sizeof(first_at));
      return true;
   }
   if (!any) {
      *err = xasprintf("unknown mnemonic '%.*s'", (int)wl, w);
      *err_at = w;
   }
   return false;
}

/* Parses and checks one line; err/at say what is wrong and where. */
static enum isa_err
assemble_line(const struct isa_model *m, const char *line, struct isa_insn *out, char **err,
              const char **at)
{
   const char *opnd_at[ISA_MAX_SLOTS] = {NULL};
   if (!parse_line(m, line, out, err, at, opnd_at))
      return !strncmp(*err, "unknown mnemonic", 16) ? ISA_ERR_UNKNOWN_OP : ISA_ERR_SYNTAX;
   struct isa_bits b;
   int slot;
   enum isa_err e = isa_encode_bits(m, out, &b, err, &slot);
   *at = slot >= 0 && opnd_at[slot] ? opnd_at[slot] : skip_ws(line);
   return e;
}

enum isa_err
isa_parse_insn(const struct isa_model *m, const char *line, struct isa_insn *out,
               struct diag_list *d)
{
   char *err = NULL;
   const char *at = line;
   enum isa_err e = assemble_line(m, line, out, &err, &at);
   if (e && d)
      diag_add(d, DIAG_ERROR, "<insn>", 1, (int)(at - line) + 1, line, "%s",
               err ? err : isa_strerror(e));
   free(err);
   return e;
}

/* Byte offset of instruction n of a program (bundles: after their control word). */
static size_t
insn_offset(const struct isa_model *m, const struct isa_insn *v, size_t n)
{
   if (m->bundle.insns) {
      size_t ib = m->bits / 8, cb = m->bundle.ctrl_bits / 8;
      size_t g = n / m->bundle.insns;
      return g * (cb + m->bundle.insns * ib) + cb + (n % m->bundle.insns) * ib;
   }
   return n ? v[n - 1].addr + v[n - 1].size : 0;
}

enum isa_err
isa_assemble(const struct isa_model *m, const char *text, const char *file, struct isa_insn **insns,
             size_t *ninsns, uint8_t **bytes, size_t *len, struct diag_list *d)
{
   struct isa_insn *v = NULL;
   size_t n = 0, cap = 0;
   enum isa_err first = ISA_ERR_OK;
   int lineno = 0;
   for (const char *ls = text; ls && *ls; lineno++) {
      const char *le = strchr(ls, '\n');
      size_t ll = le ? (size_t)(le - ls) : strlen(ls);
      char *line = xstrndup(ls, ll);
      const char *next = le ? le + 1 : NULL;
      char *c = strchr(line, ';');
      if (c)
         *c = 0;
      if ((c = strstr(line, "//")))
         *c = 0;
      for (size_t k = strlen(line); k && isspace((unsigned char)line[k - 1]); k--)
         line[k - 1] = 0;
      if (*skip_ws(line)) {
         struct isa_insn in;
         char *err = NULL;
         const char *at = line;
         enum isa_err e = assemble_line(m, line, &in, &err, &at);
         if (e) {
            if (d)
               diag_add(d, DIAG_ERROR, file, lineno + 1, (int)(at - line) + 1, ls, "%s",
                        err ? err : isa_strerror(e));
            if (!first)
               first = e;
         } else {
            in.addr = (uint32_t)insn_offset(m, v, n);
            VEC_PUSH(v, n, cap, in);
         }
         free(err);
      }
      free(line);
      ls = next;
   }
   if (!first && bytes)
      first = isa_encode_program(m, v, n, bytes, len, d);
   if (first || !insns) {
      free(v);
      v = NULL;
      n = 0;
   }
   if (insns) {
      *insns = v;
      *ninsns = n;
   }
   return first;
}

size_t
isa_parse_reg_name(const struct isa_model *m, const char *p, unsigned *file, unsigned *index,
                   unsigned *bank)
{
   int f = -1;
   unsigned idx = 0;
   *bank = 0;
   size_t n = parse_reg(m, p, &f, &idx);
   if (n) {
      *file = (unsigned)f;
      *index = idx;
      return n;
   }
   struct try t = {.m = m, .start = p};
   struct isa_opnd o = {0};
   n = parse_banked(&t, p, &o);
   bool ok = n && !t.err;
   free(t.err);
   if (!ok)
      return 0;
   *file = o.file;
   *index = o.index;
   *bank = o.bank;
   return n;
}
