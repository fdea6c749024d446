/*
 * The TGSI text parser: Mesa's tgsi_text.c grammar (see
 * shared/reference/tgsi_format.md) into struct tgsi_shader, then the
 * sanity rules and control-flow targets of tgsi_sanity.c.
 *
 * Dialect on top of Mesa's: a line whose first non-blank character is '#'
 * is a comment (any bytes allowed there); CRLF line ends; removed opcodes
 * with opts->legacy; FLT32 "0x3f800000" as a bit pattern with
 * opts->hex_bits, or detected when written with exactly eight digits and
 * no dialect line; "nan", "inf" and the printer's "nan(0xHHHHHHHH)" in FLT32
 * immediates. Stricter than Mesa: register indices above 65535, numbers
 * that overflow, array id 0, and a missing CAL label are errors.
 *
 * Invariants the code relies on: text[len] is NUL and the text holds no
 * other NUL (checked first), so reading one character past any position
 * below len is safe and "*p == 0" means the end. The grammar is flat, so
 * nothing recurses; the first syntax error longjmps out of the parse (the
 * partial shader is owned by the parser struct and freed there).
 * Positions are 1-based lines and byte columns; the end of input is the
 * position just after the last byte.
 */
#include "compiler/tgsi/tgsi.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_INDEX   65535u /* Mesa keeps register indices in 16 bits */
#define MAX_FLT_TOK 256    /* longest numeric literal we copy for strtof */

struct cursor {
   const char *p;
   const char *line_start;
   int line;
};

#define LEGACY_MAX_RES    32
#define LEGACY_MAX_ARRAYS 32

/* TEMPX[id][0..n-1] and IMMX[0..n-1]: the registers they became. */
struct legacy_array {
   uint32_t id, n;  /* the old array id and length */
   uint32_t base;   /* first TEMP or IMM index */
   uint16_t new_id; /* TEMP array id (ARRAY(n)) */
   struct cursor at;
};

struct parser {
   const char *text, *end;
   struct cursor c;
   const char *file;
   const struct tgsi_parse_opts *opts;
   struct diag_list *diags;
   struct tgsi_shader *s;
   bool seen_insn;
   bool ok;
   const char *last_item;   /* for "unexpected X after <item>" */
   bool legacy;             /* the legacy dialect: given, or detected */
   struct cursor legacy_at; /* detected: the first form that needs it */
   char legacy_what[160];   /* what need_legacy named first */
   bool hex_seen;           /* a FLT32 bit pattern read without hex_bits */
   struct cursor hex_at;    /* ... the first */
   /* Older forms, given today's registers (see "Older forms" below). */
   int8_t res_file[LEGACY_MAX_RES];                    /* RES[i] is this file (-1: undeclared) */
   struct legacy_array tempx[LEGACY_MAX_ARRAYS], immx; /* immx: one array */
   unsigned ntempx;
   uint32_t *immx_vals; /* 4 FLT32 words per IMMX register */
   bool placed;         /* TEMPX and IMMX have their registers */
   int32_t rinput;      /* BUFFER index of RINPUT; -1 until used */
   /* Rewrites of the first dumps' source modifiers (legacy_src): */
   int32_t xtemp_decl; /* the declaration of their temporaries; -1 until needed */
   int32_t ximm;       /* IMM {0.0, 1.0, 0.5, 0.0}; -1 until needed */
   uint32_t *first_of; /* per instruction as written: where its rewrite starts */
   unsigned nwritten, written_cap;
   jmp_buf fail;
};

/* ------------------------------------------------------------------ */
/* Positions and messages                                               */

static int
col_of(const struct cursor *c)
{
   ptrdiff_t d = c->p - c->line_start;
   return d >= INT32_MAX ? INT32_MAX : (int)d + 1;
}

static struct tgsi_loc
loc_of(const struct cursor *c)
{
   return (struct tgsi_loc){c->line, col_of(c)};
}

static _Noreturn DC_PRINTF(3, 4) void fail_at(struct parser *ps, const struct cursor *at,
                                              const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   diag_vadd(ps->diags, DIAG_ERROR, ps->file, at->line, col_of(at), at->line_start, fmt, ap);
   va_end(ap);
   longjmp(ps->fail, 1);
}

static DC_PRINTF(3, 4) void warn_at(struct parser *ps, const struct cursor *at, const char *fmt,
                                    ...)
{
   va_list ap;
   va_start(ap, fmt);
   diag_vadd(ps->diags, DIAG_WARNING, ps->file, at->line, col_of(at), at->line_start, fmt, ap);
   va_end(ap);
}

/* A form removed from Mesa (an opcode, a register file, a syntax) at `at`.
 * The legacy dialect accepts it; without a dialect line saying otherwise
 * the file is taken to be in that dialect (a note says so at the end). */
static void
need_legacy(struct parser *ps, const struct cursor *at, const char *what)
{
   if (ps->legacy)
      return;
   if (ps->opts->dialect_line || ps->opts->no_detect)
      fail_at(ps, at,
              "%s was removed from Mesa; it is accepted only in the legacy dialect "
              "(--legacy, or 'legacy' on the file's '# dialect:' line)",
              what);
   ps->legacy = true;
   ps->legacy_at = *at;
   snprintf(ps->legacy_what, sizeof(ps->legacy_what), "%s", what);
}

static bool
is_word_char(int ch)
{
   return isalnum((unsigned char)ch) || ch == '_';
}

static size_t
word_len(const char *p)
{
   size_t n = 0;
   while (is_word_char(p[n]))
      n++;
   return n;
}

/* What the text holds at the cursor, for "expected X, found Y". */
static const char *
found(const struct parser *ps, char *buf, size_t size)
{
   const char *p = ps->c.p;
   unsigned char ch = (unsigned char)*p;
   if (!ch)
      return "end of input";
   if (ch == '\n' || ch == '\r')
      return "end of line";
   if (is_word_char(ch)) {
      size_t n = word_len(p);
      if (n > 40)
         snprintf(buf, size, "'%.40s...'", p);
      else
         snprintf(buf, size, "'%.*s'", (int)n, p);
   } else if (ch >= 0x80 || ch < 0x20 || ch == 0x7f) {
      snprintf(buf, size, "byte 0x%02x", ch);
   } else {
      snprintf(buf, size, "'%c'", ch);
   }
   return buf;
}

static _Noreturn void
fail_expected(struct parser *ps, const char *what)
{
   char buf[64];
   fail_at(ps, &ps->c, "expected %s, found %s", what, found(ps, buf, sizeof(buf)));
}

/* ------------------------------------------------------------------ */
/* Lexing                                                               */

static int
peek(const struct parser *ps)
{
   return (unsigned char)*ps->c.p;
}

static void
advance(struct parser *ps, size_t n)
{
   ps->c.p += n;
}

static bool
at_line_start(const struct cursor *c)
{
   for (const char *q = c->line_start; q < c->p; q++)
      if (*q != ' ' && *q != '\t')
         return false;
   return true;
}

/* Skips blanks, line ends and comment lines; returns whether it moved. */
static bool
skip_ws(struct parser *ps)
{
   struct cursor *c = &ps->c;
   const char *start = c->p;
   for (;;) {
      char ch = *c->p;
      if (ch == ' ' || ch == '\t') {
         c->p++;
      } else if (ch == '\n' || (ch == '\r' && c->p[1] == '\n')) {
         c->p += ch == '\r' ? 2 : 1;
         c->line++;
         c->line_start = c->p;
      } else if (ch == '\r') {
         fail_at(ps, c, "carriage return not followed by a line feed");
      } else if (ch == '#') {
         if (!at_line_start(c))
            fail_at(ps, c, "'#' starts a comment only as the first character of a line");
         while (*c->p && *c->p != '\n' && !(*c->p == '\r' && c->p[1] == '\n'))
            c->p++;
      } else {
         return c->p != start;
      }
   }
}

static bool
is_space(int ch)
{
   return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* Skips whitespace, then consumes ch if it is next. On a miss the cursor
 * stays before the whitespace, so errors point just after the last token. */
static bool
accept(struct parser *ps, char ch)
{
   struct cursor save = ps->c;
   skip_ws(ps);
   if (peek(ps) == ch) {
      advance(ps, 1);
      return true;
   }
   ps->c = save;
   return false;
}

static void
expect(struct parser *ps, char ch, const char *what)
{
   if (!accept(ps, ch)) {
      struct cursor save = ps->c;
      skip_ws(ps);
      char buf[64];
      const char *f = found(ps, buf, sizeof(buf));
      /* Point at the offending token if it is on the same line. */
      if (ps->c.line != save.line)
         ps->c = save;
      fail_at(ps, &ps->c, "expected %s, found %s", what, f);
   }
}

static bool
match_prefix_ci(const char *p, const char *kw)
{
   for (; *kw; p++, kw++)
      if (toupper((unsigned char)*p) != *kw)
         return false;
   return true;
}

/* Case-insensitive whole-word match of kw at the cursor; consumes it. */
static bool
match_kw(struct parser *ps, const char *kw)
{
   size_t n = strlen(kw);
   const char *p = ps->c.p;
   for (size_t i = 0; i < n; i++)
      if (toupper((unsigned char)p[i]) != kw[i])
         return false;
   if (is_word_char(p[n]))
      return false;
   advance(ps, n);
   return true;
}

/* Looks the word at the cursor up in a name table; consumes it if found. */
static int
match_name(struct parser *ps, const char *const *table, unsigned count)
{
   size_t n = word_len(ps->c.p);
   if (!n)
      return -1;
   int i = tgsi_lookup(table, count, ps->c.p, n);
   if (i >= 0)
      advance(ps, n);
   return i;
}

static void
require_space(struct parser *ps, const char *after)
{
   if (!is_space(peek(ps)) && peek(ps) != '#') {
      char buf[64];
      fail_at(ps, &ps->c, "expected whitespace after %s, found %s", after,
              found(ps, buf, sizeof(buf)));
   }
   skip_ws(ps);
}

/* An unsigned decimal; what names it in messages. */
static uint32_t
parse_uint(struct parser *ps, uint32_t max, const char *what)
{
   struct cursor start = ps->c;
   if (!isdigit(peek(ps)))
      fail_expected(ps, what);
   uint64_t v = 0;
   while (isdigit(peek(ps))) {
      v = v * 10 + (uint64_t)(peek(ps) - '0');
      if (v > max)
         fail_at(ps, &start, "%s is too large (the maximum is %u)", what, max);
      advance(ps, 1);
   }
   return (uint32_t)v;
}

/* [+-]digits with the sign glued to the digits, as Mesa's parse_int. */
static int64_t
parse_int(struct parser *ps, uint32_t max_abs, const char *what)
{
   bool neg = false;
   if (peek(ps) == '+' || peek(ps) == '-') {
      neg = peek(ps) == '-';
      advance(ps, 1);
      if (!isdigit(peek(ps)))
         fail_at(ps, &ps->c, "expected digits right after the sign of %s", what);
   }
   int64_t v = parse_uint(ps, max_abs, what);
   return neg ? -v : v;
}

/* ------------------------------------------------------------------ */
/* Registers                                                            */

static enum tgsi_file
parse_file(struct parser *ps, const char *what)
{
   int f = match_name(ps, tgsi_file_names, TGSI_FILE_COUNT);
   if (f >= 0)
      return (enum tgsi_file)f;
   char buf[64];
   if (is_word_char(peek(ps)))
      fail_at(ps, &ps->c, "unknown register file %s", found(ps, buf, sizeof(buf)));
   fail_expected(ps, what);
}

static uint8_t
parse_comp(struct parser *ps)
{
   static const char comps[] = "XYZW";
   const char *q = strchr(comps, toupper(peek(ps)));
   if (!peek(ps) || !q || is_word_char(ps->c.p[1]))
      fail_expected(ps, "one component letter (x, y, z or w)");
   advance(ps, 1);
   return (uint8_t)(q - comps);
}

/* Inside "[...]" of an operand: an index, or ADDR[i].c with an offset. */
static void
parse_bracket(struct parser *ps, int32_t *index, bool *indirect, struct tgsi_ind *ind)
{
   skip_ws(ps);
   if (isdigit(peek(ps))) {
      *index = (int32_t)parse_uint(ps, MAX_INDEX, "register index");
   } else if (peek(ps) == '-' && isdigit((unsigned char)ps->c.p[1])) {
      fail_at(ps, &ps->c, "a register index cannot be negative");
   } else if (peek(ps) == ']') {
      fail_at(ps, &ps->c, "empty '[]' is only allowed in declarations");
   } else {
      *indirect = true;
      ind->file = parse_file(ps, "a register index or an address register");
      expect(ps, '[', "'[' after the address register file");
      skip_ws(ps);
      ind->index = parse_uint(ps, MAX_INDEX, "address register index");
      expect(ps, ']', "']' after the address register index");
      ind->comp = TGSI_SWZ_X;
      if (accept(ps, '.')) {
         skip_ws(ps);
         ind->comp = parse_comp(ps);
      }
      struct cursor save = ps->c;
      skip_ws(ps);
      if (peek(ps) == '+' || peek(ps) == '-') {
         struct cursor sign = ps->c;
         const char *q = ps->c.p + 1;
         while (*q == ' ' || *q == '\t')
            q++;
         if (!isdigit((unsigned char)ps->c.p[1]) && isdigit((unsigned char)*q))
            need_legacy(ps, &sign, "a space between an address offset's sign and its digits");
         if (!isdigit((unsigned char)*q))
            fail_at(ps, &ps->c, "expected digits after the sign of an address offset");
         advance(ps, 1);
         ps->c.p = q;
         int64_t off = parse_uint(ps, MAX_INDEX, "address offset");
         *index = (int32_t)(*sign.p == '-' ? -off : off);
      } else {
         ps->c = save;
         *index = 0;
      }
   }
   expect(ps, ']', "']' after the register index");
}

/* ------------------------------------------------------------------ */
/* Older forms (legacy dialect), each given its meaning in today's IR:
 *   DCL RES[i], 2D, FLOAT       a sampler view, SVIEW[i] (graw; SAMPLE* on it)
 *   DCL RES[i], BUFFER, RAW, WR a buffer, BUFFER[i] (clover-era compute)
 *   DCL RES[i], 2D, RAW, WR     an image, IMAGE[i], 2D, RAW, WR
 *   DCL IMMX[0..n] {{..}, ..}   FLT32 immediates after the IMM lines
 *   DCL TEMPX[a][0..n]          a temporary array, TEMP[b..b+n], ARRAY(k)
 *   RINPUT                      the kernel's input buffer: one BUFFER after
 *                               the declared ones
 *   EMIT, ENDPRIM alone         stream 0, as an immediate 0
 *   "ADDR[0].x + 3"             "+3"
 *   PROPERTY before the header  the property
 * TEMPX and IMMX get their registers at the first instruction, once every
 * TEMP and IMM line is known, so no index written in the file moves. */

static void parse_range(struct parser *ps, uint32_t *first, uint32_t *last, bool *empty);
static void parse_imm_value(struct parser *ps, enum tgsi_imm_type t, uint32_t *u);
static bool next_attr(struct parser *ps);
static void parse_property(struct parser *ps, const struct cursor *start);

static void
parse_res_decl(struct parser *ps, struct tgsi_decl *d, const struct cursor *at)
{
   need_legacy(ps, at, "the RES register file");
   expect(ps, '[', "'[' after RES");
   bool empty;
   parse_range(ps, &d->first, &d->last, &empty);
   if (empty || d->last >= LEGACY_MAX_RES)
      fail_at(ps, at, "RES[%u]: the legacy dialect maps RES[0] to RES[%u]", d->last,
              LEGACY_MAX_RES - 1);
   expect(ps, ',', "',' and a resource target after RES[...]");
   skip_ws(ps);
   int t = match_name(ps, tgsi_texture_names, TGSI_TEX_COUNT), ret = -1, i;
   if (t < 0)
      fail_expected(ps, "a resource target (e.g. 2D or BUFFER)");
   d->target = (enum tgsi_texture)t;
   while (next_attr(ps)) {
      if (match_kw(ps, "RAW"))
         d->raw = true;
      else if (match_kw(ps, "WR"))
         d->writable = true;
      else if ((i = match_name(ps, tgsi_return_type_names, TGSI_RET_COUNT)) >= 0)
         ret = i;
      else
         fail_expected(ps, "RAW, WR or a return type after the RES target");
   }
   if (d->target == TGSI_TEX_T_BUFFER) {
      d->file = TGSI_FILE_BUFFER; /* RAW and WR are what a buffer is today */
      d->raw = d->writable = false;
   } else if (d->raw || d->writable) {
      d->file = TGSI_FILE_IMAGE;
   } else {
      d->file = TGSI_FILE_SVIEW;
      for (unsigned c = 0; c < 4; c++)
         d->ret[c] = ret < 0 ? TGSI_RET_FLOAT : (enum tgsi_return_type)ret;
   }
   for (uint32_t k = d->first; k <= d->last; k++)
      ps->res_file[k] = (int8_t)d->file;
}

static void
parse_immx_decl(struct parser *ps, const struct cursor *at)
{
   need_legacy(ps, at, "IMMX");
   if (ps->immx.n)
      fail_at(ps, at, "IMMX is declared twice");
   expect(ps, '[', "'[' after IMMX");
   uint32_t first, last;
   bool empty;
   parse_range(ps, &first, &last, &empty);
   if (empty || first || last >= 4096)
      fail_at(ps, at, "IMMX takes a range IMMX[0..n], n below 4096");
   uint32_t n = last + 1;
   ps->immx_vals = xcalloc(4 * (size_t)n, sizeof(uint32_t));
   expect(ps, '{', "'{' before the IMMX values");
   for (uint32_t k = 0; k < n; k++) {
      if (k)
         expect(ps, ',', "',' between the IMMX vectors");
      expect(ps, '{', "'{' before an IMMX vector");
      for (unsigned c = 0; c < 4; c++) {
         if (c)
            expect(ps, ',', "',': an IMMX vector has 4 values");
         skip_ws(ps);
         parse_imm_value(ps, TGSI_IMM_FLT32, &ps->immx_vals[4 * k + c]);
      }
      expect(ps, '}', "'}' after an IMMX vector's 4 values");
   }
   expect(ps, '}', "'}' after the IMMX vectors");
   ps->immx = (struct legacy_array){0, n, 0, 0, *at};
}

static void
parse_tempx_decl(struct parser *ps, const struct cursor *at)
{
   need_legacy(ps, at, "TEMPX");
   expect(ps, '[', "'[' after TEMPX");
   skip_ws(ps);
   uint32_t id = parse_uint(ps, MAX_INDEX, "TEMPX array index");
   expect(ps, ']', "']' after the TEMPX array index");
   expect(ps, '[', "'[' and the TEMPX range");
   uint32_t first, last;
   bool empty;
   parse_range(ps, &first, &last, &empty);
   if (empty || first)
      fail_at(ps, at, "TEMPX takes a range TEMPX[a][0..n]");
   for (unsigned k = 0; k < ps->ntempx; k++)
      if (ps->tempx[k].id == id)
         fail_at(ps, at, "TEMPX[%u] is declared twice", id);
   if (ps->ntempx == LEGACY_MAX_ARRAYS)
      fail_at(ps, at, "more than %u TEMPX arrays", LEGACY_MAX_ARRAYS);
   ps->tempx[ps->ntempx++] = (struct legacy_array){id, last + 1, 0, 0, *at};
}

/* DCL of an older file; false if the file is a current one. */
static bool
parse_legacy_decl(struct parser *ps, const struct cursor *start)
{
   struct cursor at = ps->c;
   struct tgsi_decl d;
   memset(&d, 0, sizeof(d));
   d.loc = loc_of(start);
   d.usage_mask = TGSI_MASK_XYZW;
   if (match_kw(ps, "RES")) {
      parse_res_decl(ps, &d, &at);
      VEC_PUSH(ps->s->decls, ps->s->ndecls, ps->s->decls_cap, d);
   } else if (match_kw(ps, "IMMX")) {
      parse_immx_decl(ps, &at);
   } else if (match_kw(ps, "TEMPX")) {
      parse_tempx_decl(ps, &at);
   } else {
      return false;
   }
   ps->last_item = "declaration";
   return true;
}

/* At the first instruction: TEMPX arrays after the last TEMP, IMMX after
 * the last IMM. */
static void
place_legacy(struct parser *ps)
{
   if (ps->placed)
      return;
   ps->placed = true;
   uint32_t next = 0;
   uint16_t id = 0;
   for (unsigned i = 0; i < ps->s->ndecls; i++)
      if (ps->s->decls[i].file == TGSI_FILE_TEMP) {
         next = MAX2(next, ps->s->decls[i].last + 1);
         id = MAX2(id, ps->s->decls[i].array_id);
      }
   for (unsigned k = 0; k < ps->ntempx; k++) {
      struct legacy_array *a = &ps->tempx[k];
      if (next + a->n > MAX_INDEX + 1 || id == UINT16_MAX)
         fail_at(ps, &a->at, "TEMPX[%u] does not fit after the temporaries", a->id);
      struct tgsi_decl d;
      memset(&d, 0, sizeof(d));
      d.file = TGSI_FILE_TEMP;
      d.first = a->base = next;
      d.last = next + a->n - 1;
      d.usage_mask = TGSI_MASK_XYZW;
      d.array_id = a->new_id = ++id;
      d.loc = loc_of(&a->at);
      VEC_PUSH(ps->s->decls, ps->s->ndecls, ps->s->decls_cap, d);
      next += a->n;
   }
   ps->immx.base = ps->s->nimms;
   for (uint32_t k = 0; k < ps->immx.n; k++) {
      struct tgsi_imm imm;
      memset(&imm, 0, sizeof(imm));
      imm.type = TGSI_IMM_FLT32;
      memcpy(imm.u, &ps->immx_vals[4 * k], sizeof(imm.u));
      imm.loc = loc_of(&ps->immx.at);
      VEC_PUSH(ps->s->imms, ps->s->nimms, ps->s->imms_cap, imm);
   }
}

/* Declares one register of `file` after every declared one, with room
 * for `room` there; returns its index. */
static uint32_t
declare_after(struct parser *ps, enum tgsi_file file, uint32_t room, const struct cursor *at,
              const char *what)
{
   uint32_t k = 0;
   for (unsigned i = 0; i < ps->s->ndecls; i++)
      if (ps->s->decls[i].file == file)
         k = MAX2(k, ps->s->decls[i].last + 1);
   if (k > MAX_INDEX + 1 - room)
      fail_at(ps, at, "no %s index left for %s", tgsi_file_names[file], what);
   struct tgsi_decl d;
   memset(&d, 0, sizeof(d));
   d.file = file;
   d.first = d.last = k;
   d.usage_mask = TGSI_MASK_XYZW;
   d.loc = loc_of(at);
   VEC_PUSH(ps->s->decls, ps->s->ndecls, ps->s->decls_cap, d);
   return k;
}

/* RINPUT: a BUFFER after every declared one, declared on first use. */
static uint32_t
rinput_buffer(struct parser *ps, const struct cursor *at)
{
   if (ps->rinput < 0)
      ps->rinput = (int32_t)declare_after(ps, TGSI_FILE_BUFFER, 1, at, "RINPUT");
   return (uint32_t)ps->rinput;
}

static void parse_bracket(struct parser *ps, int32_t *index, bool *indirect, struct tgsi_ind *ind);

/* An operand in an older file; false if the file is a current one. */
static bool
parse_legacy_reg(struct parser *ps, struct tgsi_reg *r)
{
   struct cursor at = ps->c;
   if (match_kw(ps, "RINPUT")) {
      need_legacy(ps, &at, "RINPUT");
      r->file = TGSI_FILE_BUFFER;
      r->index = (int32_t)rinput_buffer(ps, &at);
      return true;
   }
   bool res = match_kw(ps, "RES"), immx = !res && match_kw(ps, "IMMX"),
        tempx = !res && !immx && match_kw(ps, "TEMPX");
   if (!res && !immx && !tempx)
      return false;
   need_legacy(ps, &at, res ? "the RES register file" : immx ? "IMMX" : "TEMPX");
   expect(ps, '[', "'[' after the register file");
   const struct legacy_array *a = immx ? &ps->immx : NULL;
   if (tempx) {
      skip_ws(ps);
      uint32_t id = parse_uint(ps, MAX_INDEX, "TEMPX array index");
      expect(ps, ']', "']' after the TEMPX array index");
      for (unsigned k = 0; k < ps->ntempx && !a; k++)
         a = ps->tempx[k].id == id ? &ps->tempx[k] : NULL;
      if (!a)
         fail_at(ps, &at, "TEMPX[%u] is not declared", id);
      expect(ps, '[', "'[' and the TEMPX element");
   }
   parse_bracket(ps, &r->index, &r->indirect, &r->ind);
   if (res) {
      /* clover's first compute ABI (2012) named four resources by index:
       * RES[32764] is RINPUT, the kernel's input; the other three are
       * memory spaces addressed by raw address, not modelled */
      if (!r->indirect && r->index == 32764) {
         r->file = TGSI_FILE_BUFFER;
         r->index = (int32_t)rinput_buffer(ps, &at);
         return true;
      }
      if (!r->indirect && r->index >= 32765 && r->index <= 32767)
         fail_at(ps, &at,
                 "RES[%d] is clover's %s memory (2012 compute, addressed by raw address), "
                 "which is not modelled",
                 r->index,
                 r->index == 32767   ? "global"
                 : r->index == 32766 ? "local"
                                     : "private");
      if (r->indirect || r->index >= LEGACY_MAX_RES || ps->res_file[r->index] < 0)
         fail_at(ps, &at, "RES[...] is not a declared resource");
      r->file = (enum tgsi_file)ps->res_file[r->index];
      return true;
   }
   if (!a->n)
      fail_at(ps, &at, "IMMX is not declared");
   if (!r->indirect && (uint32_t)r->index >= a->n)
      fail_at(ps, &at, "%s element %d is past its %u declared", immx ? "IMMX" : "TEMPX", r->index,
              a->n);
   r->file = immx ? TGSI_FILE_IMM : TGSI_FILE_TEMP;
   r->index += (int32_t)a->base;
   r->array_id = immx ? 0 : a->new_id;
   return true;
}

/* Operand-less EMIT and ENDPRIM (before 2014): stream 0, read from an
 * immediate whose x is 0 (one is added if there is none). */
static void
legacy_stream0(struct parser *ps, struct tgsi_src *src)
{
   unsigned k = 0;
   while (k < ps->s->nimms && (ps->s->imms[k].type >= TGSI_IMM_FLT64 || ps->s->imms[k].u[0]))
      k++;
   if (k == ps->s->nimms) {
      struct tgsi_imm imm;
      memset(&imm, 0, sizeof(imm));
      imm.type = TGSI_IMM_UINT32;
      imm.loc = loc_of(&ps->c);
      VEC_PUSH(ps->s->imms, ps->s->nimms, ps->s->imms_cap, imm);
   }
   memset(src, 0, sizeof(*src));
   src->reg.file = TGSI_FILE_IMM;
   src->reg.index = (int32_t)k;
   src->reg.loc = loc_of(&ps->c);
}

/* FILE[i], FILE[d][i], with indirect brackets and an optional "(array id)". */
static void
parse_reg(struct parser *ps, struct tgsi_reg *r, const char *what)
{
   memset(r, 0, sizeof(*r));
   r->loc = loc_of(&ps->c);
   if (parse_legacy_reg(ps, r))
      return;
   r->file = parse_file(ps, what);
   expect(ps, '[', "'[' after the register file");
   parse_bracket(ps, &r->index, &r->indirect, &r->ind);
   struct cursor save = ps->c;
   skip_ws(ps);
   if (peek(ps) == '[') {
      advance(ps, 1);
      r->has_dim = true;
      r->dim = r->index;
      r->dim_indirect = r->indirect;
      r->dim_ind = r->ind;
      r->index = 0;
      r->indirect = false;
      memset(&r->ind, 0, sizeof(r->ind));
      parse_bracket(ps, &r->index, &r->indirect, &r->ind);
      save = ps->c;
      skip_ws(ps);
      if (peek(ps) == '[')
         fail_at(ps, &ps->c, "a register takes at most two brackets");
   }
   ps->c = save;
   if (peek(ps) == '(') {
      advance(ps, 1);
      skip_ws(ps);
      struct cursor at = ps->c;
      uint32_t id = parse_uint(ps, UINT16_MAX, "array id");
      if (!id)
         fail_at(ps, &at, "array id 0 means 'no array'; array ids start at 1");
      r->array_id = (uint16_t)id;
      expect(ps, ')', "')' after the array id");
   }
}

/* ".xz": letters in xyzw order, each at most once, at least one. */
static uint8_t
parse_mask(struct parser *ps, const char *what)
{
   static const char comps[] = "XYZW";
   struct cursor start = ps->c;
   uint8_t mask = 0;
   int next = 0;
   while (is_word_char(peek(ps))) {
      const char *q = strchr(comps, toupper(peek(ps)));
      if (!q)
         fail_at(ps, &ps->c, "invalid %s letter '%c' (use x, y, z, w)", what, peek(ps));
      if (q - comps < next)
         fail_at(ps, &start, "%s letters must be in xyzw order, each at most once", what);
      next = (int)(q - comps) + 1;
      mask |= (uint8_t)(1u << (q - comps));
      advance(ps, 1);
   }
   if (!mask)
      fail_at(ps, &start, "expected %s letters after '.'", what);
   return mask;
}

/* A swizzle of exactly n letters (4 for sources, 3 for texel offsets). */
static void
parse_swizzle(struct parser *ps, uint8_t *swz, unsigned n)
{
   static const char comps[] = "XYZW";
   struct cursor start = ps->c;
   size_t len = word_len(ps->c.p);
   for (size_t i = 0; i < len; i++)
      if (!strchr(comps, toupper((unsigned char)ps->c.p[i])))
         fail_at(ps, &start, "invalid swizzle letter '%c' (use x, y, z, w)", ps->c.p[i]);
   if (len != n)
      fail_at(ps, &start, "a %s swizzle takes exactly %u letters (e.g. .%s), found %zu",
              n == 4 ? "source" : "texel offset", n, n == 4 ? "xxxx" : "xyz", len);
   for (unsigned i = 0; i < n; i++) {
      swz[i] = (uint8_t)(strchr(comps, toupper(peek(ps))) - comps);
      advance(ps, 1);
   }
}

static void
parse_dst(struct parser *ps, struct tgsi_dst *d)
{
   parse_reg(ps, &d->reg, "a destination register");
   d->mask = TGSI_MASK_XYZW;
   if (accept(ps, '.')) {
      skip_ws(ps);
      d->mask = parse_mask(ps, "write mask");
   }
}

/* The source modifiers of the first TGSI dumps (2007-09), outermost
 * first: "-(x)" negation, "|x|", "2*(x)", "(x)-.5" and "1-(x)", around an
 * optionally negated register whose swizzle may be followed by an
 * extended one, each channel a swizzled channel, 0 or 1, optionally
 * negated (".x-y01"). Read as the text nests: the extended swizzle picks,
 * the inner and per-channel negations apply, then the complement, the
 * bias, the doubling, the absolute value and the outer negation. */
struct legacy_src {
   bool outer_neg, abs, twice, bias, complement;
   uint8_t pick[4]; /* a channel of the swizzled register, or LX_ZERO, LX_ONE */
   uint8_t neg;     /* per-channel negation of the extended swizzle */
};

enum { LX_ZERO = 4, LX_ONE = 5 };

/* Consumes text (after blanks) if it comes next. */
static bool
accept_str(struct parser *ps, const char *text)
{
   struct cursor save = ps->c;
   skip_ws(ps);
   if (!strncmp(ps->c.p, text, strlen(text))) {
      advance(ps, strlen(text));
      skip_ws(ps);
      return true;
   }
   ps->c = save;
   return false;
}

static void
parse_ext_swizzle(struct parser *ps, struct legacy_src *l)
{
   static const char comps[] = "XYZW01";
   for (unsigned c = 0; c < 4; c++) {
      if (peek(ps) == '-') {
         l->neg |= (uint8_t)(1u << c);
         advance(ps, 1);
      }
      const char *q = peek(ps) ? strchr(comps, toupper(peek(ps))) : NULL;
      if (!q)
         fail_at(ps, &ps->c,
                 "an extended swizzle takes 4 channels, each x, y, z, w, 0 or 1 "
                 "(optionally negated)");
      l->pick[c] = (uint8_t)(q - comps);
      advance(ps, 1);
   }
   if (is_word_char(peek(ps)))
      fail_at(ps, &ps->c, "an extended swizzle takes exactly 4 channels");
}

/* Whether an extended swizzle comes next: channel letters with a 0, 1
 * or '-' among them. */
static bool
ext_swizzle_next(const struct parser *ps)
{
   bool ext = false;
   for (const char *q = ps->c.p; *q && strchr("xyzwXYZW01-", *q); q++)
      ext |= !isalpha((unsigned char)*q);
   return ext;
}

/* A source; true if it has legacy modifiers that need the instructions
 * of emit_legacy_src (*l then says which). */
static bool
parse_src(struct parser *ps, struct tgsi_src *s, struct legacy_src *l)
{
   struct cursor at = ps->c;
   memset(l, 0, sizeof(*l));
   for (unsigned c = 0; c < 4; c++)
      l->pick[c] = (uint8_t)c;
   bool old = false, ext = false;
   if (peek(ps) == '-') {
      advance(ps, 1);
      skip_ws(ps);
      if (accept(ps, '('))
         old = l->outer_neg = true;
      else
         s->neg = true;
   }
   if (peek(ps) == '|') {
      s->abs = true;
      advance(ps, 1);
      skip_ws(ps);
   }
   if (!s->neg) {
      old |= l->twice = accept_str(ps, "2*(");
      old |= l->bias = accept(ps, '(');
      if (l->bias)
         skip_ws(ps);
      old |= l->complement = accept_str(ps, "1-(");
   }
   if (peek(ps) == '-' && s->abs && !old && !ps->legacy)
      fail_at(ps, &ps->c, "negation must come before the absolute value: write -|x|, not |-x|");
   if (peek(ps) == '-' && !s->neg) {
      s->neg = true;
      advance(ps, 1);
      skip_ws(ps);
      old |= s->abs;
   }
   parse_reg(ps, &s->reg, "a source register");
   for (unsigned i = 0; i < 4; i++)
      s->swz[i] = (uint8_t)i;
   if (accept(ps, '.')) {
      skip_ws(ps);
      if (!ext_swizzle_next(ps)) {
         parse_swizzle(ps, s->swz, 4);
         if (peek(ps) == '.' && ps->c.p[1] && strchr("xyzwXYZW01-", ps->c.p[1])) {
            advance(ps, 1);
            parse_ext_swizzle(ps, l);
            ext = true;
         }
      } else {
         parse_ext_swizzle(ps, l);
         ext = true;
      }
   }
   if (l->complement)
      expect(ps, ')', "')' closing 1-(");
   if (l->bias && !accept_str(ps, ")-.5"))
      fail_expected(ps, "')-.5' closing the bias");
   if (l->twice)
      expect(ps, ')', "')' closing 2*(");
   if (s->abs)
      expect(ps, '|', "'|' closing the absolute value");
   if (l->outer_neg)
      expect(ps, ')', "')' closing -(");
   if (!old && !ext)
      return false;
   need_legacy(ps, &at,
               ext ? "an extended swizzle (.xy01)" : "a source modifier of the first dumps");
   /* The inner negation and the absolute value are the register's; the
    * rest is read the way it nests. */
   bool inner_neg = s->neg, abs = s->abs;
   uint8_t swz[4];
   bool consts = false;
   for (unsigned c = 0; c < 4; c++) {
      consts |= l->pick[c] >= LX_ZERO;
      swz[c] = s->swz[l->pick[c] < LX_ZERO ? l->pick[c] : 0];
   }
   memcpy(s->swz, swz, sizeof(swz));
   if (!consts && (l->neg == 0 || l->neg == 15) && !l->twice && !l->bias && !l->complement) {
      /* a plain source after all: |+-x| is |x|, -(+-x) flips */
      bool neg = inner_neg != (l->neg == 15);
      s->neg = abs ? l->outer_neg : neg != l->outer_neg;
      return false;
   }
   l->abs = abs;
   if (inner_neg)
      l->neg ^= 15;
   s->neg = s->abs = false;
   return true;
}

/* TEMP[base + j], one per rewritten source of an instruction, declared
 * after every other temporary. */
static struct tgsi_reg
legacy_temp(struct parser *ps, unsigned j, const struct cursor *at)
{
   if (ps->xtemp_decl < 0) {
      declare_after(ps, TGSI_FILE_TEMP, TGSI_MAX_SRC + 1, at, "a legacy source's rewrite");
      ps->xtemp_decl = (int32_t)ps->s->ndecls - 1;
   }
   struct tgsi_decl *d = &ps->s->decls[ps->xtemp_decl];
   d->last = MAX2(d->last, d->first + j);
   return (struct tgsi_reg){.file = TGSI_FILE_TEMP, .index = (int32_t)(d->first + j)};
}

/* IMM {0.0, 1.0, 0.5, 0.0}, channel c replicated, negated if neg. */
static struct tgsi_src
legacy_imm(struct parser *ps, unsigned c, bool neg)
{
   if (ps->ximm < 0) {
      struct tgsi_imm imm;
      memset(&imm, 0, sizeof(imm));
      imm.type = TGSI_IMM_FLT32;
      imm.u[1] = 0x3f800000u;
      imm.u[2] = 0x3f000000u;
      VEC_PUSH(ps->s->imms, ps->s->nimms, ps->s->imms_cap, imm);
      ps->ximm = (int32_t)ps->s->nimms - 1;
   }
   struct tgsi_src r = {.reg = {.file = TGSI_FILE_IMM, .index = ps->ximm}, .neg = neg};
   memset(r.swz, (int)c, sizeof(r.swz));
   return r;
}

static void
push_legacy(struct parser *ps, const struct tgsi_insn *like, enum tgsi_opcode op, struct tgsi_reg t,
            uint8_t mask, const struct tgsi_src *a, const struct tgsi_src *b)
{
   if (!mask)
      return;
   struct tgsi_insn in;
   memset(&in, 0, sizeof(in));
   in.op = op;
   in.target = -1;
   in.loc = like->loc;
   in.ndst = 1;
   in.dst[0] = (struct tgsi_dst){.reg = t, .mask = mask};
   in.src[in.nsrc++] = *a;
   if (b)
      in.src[in.nsrc++] = *b;
   VEC_PUSH(ps->s->insns, ps->s->ninsns, ps->s->insns_cap, in);
}

/* The instructions that compute source k of `in` (parse_src's legacy
 * modifiers) into a fresh temporary j, which the source then reads:
 * every step one rounding, as the nesting of the text reads. */
static void
emit_legacy_src(struct parser *ps, struct tgsi_insn *in, unsigned k, const struct legacy_src *l,
                unsigned j, const struct cursor *at)
{
   struct tgsi_reg t = legacy_temp(ps, j, at);
   struct tgsi_src tv = {.reg = t, .swz = {0, 1, 2, 3}};
   struct tgsi_src neg_tv = tv;
   neg_tv.neg = true;
   uint8_t from_reg[2] = {0, 0}, zero[2] = {0, 0}, one[2] = {0, 0};
   for (unsigned c = 0; c < 4; c++) {
      unsigned n = l->neg >> c & 1;
      uint8_t bit = (uint8_t)(1u << c);
      if (l->pick[c] == LX_ZERO)
         zero[n] |= bit;
      else if (l->pick[c] == LX_ONE)
         one[n] |= bit;
      else
         from_reg[n] |= bit;
   }
   for (unsigned n = 0; n < 2; n++) {
      struct tgsi_src r = in->src[k];
      r.neg = n;
      push_legacy(ps, in, TGSI_OP_MOV, t, from_reg[n], &r, NULL);
      struct tgsi_src z = legacy_imm(ps, 0, n), o = legacy_imm(ps, 1, n);
      push_legacy(ps, in, TGSI_OP_MOV, t, zero[n], &z, NULL);
      push_legacy(ps, in, TGSI_OP_MOV, t, one[n], &o, NULL);
   }
   if (l->complement) {
      struct tgsi_src o = legacy_imm(ps, 1, false);
      push_legacy(ps, in, TGSI_OP_ADD, t, TGSI_MASK_XYZW, &o, &neg_tv);
   }
   if (l->bias) {
      struct tgsi_src h = legacy_imm(ps, 2, true);
      push_legacy(ps, in, TGSI_OP_ADD, t, TGSI_MASK_XYZW, &tv, &h);
   }
   if (l->twice)
      push_legacy(ps, in, TGSI_OP_ADD, t, TGSI_MASK_XYZW, &tv, &tv);
   if (l->abs || l->outer_neg) {
      struct tgsi_src r = tv;
      r.abs = l->abs;
      r.neg = l->outer_neg;
      push_legacy(ps, in, TGSI_OP_MOV, t, TGSI_MASK_XYZW, &r, NULL);
   }
   in->src[k] = tv;
}

/* ------------------------------------------------------------------ */
/* Instructions                                                         */

/* Opcodes Mesa's state tracker emitted until 2013 that today's TGSI has
 * no equal for; parse_insn rewrites them. SWZ is a MOV (its source has
 * the extended swizzle), DP2A is DP2 plus src2.x, and NOISE1-4 give 0, as
 * Mesa's own lowering of GLSL's noise() does. Returns the opcode whose
 * operands they take. */
enum old_op { OLD_NONE, OLD_DP2A, OLD_NOISE };

static int
old_opcode(const char *w, size_t n, bool *sat, enum old_op *k)
{
   static const char *const names[] = {"SWZ", "DP2A", "NOISE1", "NOISE2", "NOISE3", "NOISE4"};
   *sat = tgsi_ends_with(w, n, "_SAT");
   int i = tgsi_lookup(names, ARRAY_SIZE(names), w, *sat ? n - 4 : n);
   *k = i == 1 ? OLD_DP2A : i >= 2 ? OLD_NOISE : OLD_NONE;
   return i < 0 ? -1 : i == 1 ? TGSI_OP_MAD : TGSI_OP_MOV;
}

static enum tgsi_opcode
parse_opcode(struct parser *ps, struct tgsi_insn *in, enum old_op *old)
{
   const char *w = ps->c.p;
   size_t n = word_len(w);
   int op = tgsi_op_lookup_word(w, n, &in->sat, &in->precise);
   struct cursor at = ps->c;
   const char *what;
   *old = OLD_NONE;
   if (op < 0 && (op = tgsi_renamed_op(w, n, &what)) >= 0) {
      need_legacy(ps, &at, what);
      advance(ps, n);
      return (enum tgsi_opcode)op;
   }
   if (op < 0 && (op = old_opcode(w, n, &in->sat, old)) >= 0) {
      need_legacy(ps, &at, "SWZ, DP2A or NOISE");
      advance(ps, n);
      return (enum tgsi_opcode)op;
   }
   if (op < 0) {
      if (tgsi_ends_with(w, n, "_SAT") && tgsi_ends_with(w, n - 4, "_PRECISE"))
         fail_at(ps, &ps->c, "unknown opcode '%.*s' (_SAT must come before _PRECISE)", (int)n, w);
      fail_at(ps, &ps->c, "unknown opcode '%.*s'", (int)MIN2(n, 64), w);
   }
   if (tgsi_op_info[op].flags & TGSI_OPF_LEGACY)
      need_legacy(ps, &ps->c, tgsi_op_info[op].name);
   advance(ps, n);
   return (enum tgsi_opcode)op;
}

static const char *
operand_counts(const struct tgsi_op_info *info, char *buf, size_t size)
{
   snprintf(buf, size, "%s takes %u destination%s and %u source%s", info->name, info->ndst,
            info->ndst == 1 ? "" : "s", info->nsrc, info->nsrc == 1 ? "" : "s");
   return buf;
}

static bool
takes_offsets(enum tgsi_opcode op)
{
   /* SAMPLE..GATHER4 have no target operand but are texture instructions. */
   return (tgsi_op_info[op].flags & TGSI_OPF_TEX) ||
          (op >= TGSI_OP_SAMPLE && op <= TGSI_OP_GATHER4);
}

static void
parse_texoff(struct parser *ps, struct tgsi_insn *in)
{
   if (in->noffsets == TGSI_MAX_OFFSETS)
      fail_at(ps, &ps->c, "at most %d texel offsets", TGSI_MAX_OFFSETS);
   struct tgsi_texoff *o = &in->offsets[in->noffsets++];
   parse_reg(ps, &o->reg, "a texel offset register");
   for (unsigned i = 0; i < 3; i++)
      o->swz[i] = (uint8_t)i;
   if (accept(ps, '.')) {
      skip_ws(ps);
      parse_swizzle(ps, o->swz, 3);
   }
}

/* A register file name followed by '[' (BUFFER is also a target name). */
static bool
looks_like_reg(struct parser *ps)
{
   struct cursor save = ps->c;
   bool reg = match_name(ps, tgsi_file_names, TGSI_FILE_COUNT) >= 0;
   if (reg) {
      skip_ws(ps);
      reg = peek(ps) == '[';
   }
   ps->c = save;
   return reg;
}

/* One ", word" of a memory instruction: qualifier, target or format. */
static bool
parse_mem_word(struct parser *ps, struct tgsi_insn *in)
{
   int i = match_name(ps, tgsi_mem_qualifier_names, TGSI_MEMQ_COUNT);
   if (i >= 0) {
      in->mem_qual |= (uint8_t)(1u << i);
      return true;
   }
   if ((i = match_name(ps, tgsi_texture_names, TGSI_TEX_COUNT)) >= 0) {
      in->has_mem_target = true;
      in->mem_target = (enum tgsi_texture)i;
      return true;
   }
   size_t n = word_len(ps->c.p);
   if (n > 12 && match_prefix_ci(ps->c.p, "PIPE_FORMAT_")) {
      if (n >= TGSI_FORMAT_LEN)
         fail_at(ps, &ps->c, "format name longer than %d characters", TGSI_FORMAT_LEN - 1);
      for (size_t k = 0; k < n; k++)
         in->mem_format[k] = (char)toupper((unsigned char)ps->c.p[k]);
      in->mem_format[n] = 0;
      advance(ps, n);
      return true;
   }
   return false;
}

/* What may follow the operands: texture target, offsets, memory words. */
static void
parse_insn_tail(struct parser *ps, struct tgsi_insn *in)
{
   const struct tgsi_op_info *info = &tgsi_op_info[in->op];
   char buf[96];
   if (info->flags & TGSI_OPF_TEX) {
      if (in->ndst + in->nsrc)
         expect(ps, ',', "',' and a texture target");
      skip_ws(ps);
      int t = match_name(ps, tgsi_texture_names, TGSI_TEX_COUNT);
      if (t < 0)
         fail_expected(ps, "a texture target (e.g. 2D)");
      in->tex_target = (enum tgsi_texture)t;
   }
   while (accept(ps, ',')) {
      skip_ws(ps);
      struct cursor at = ps->c;
      if (takes_offsets(in->op) && !in->mem_qual && !in->has_mem_target && !in->mem_format[0] &&
          looks_like_reg(ps)) {
         parse_texoff(ps, in);
      } else if ((info->flags & TGSI_OPF_MEM) && parse_mem_word(ps, in)) {
         /* consumed */
      } else if (info->flags & TGSI_OPF_MEM) {
         fail_expected(ps, "a memory qualifier, target or PIPE_FORMAT_ name");
      } else {
         fail_at(ps, &at, "too many operands: %s", operand_counts(info, buf, sizeof(buf)));
      }
   }
}

static void
parse_label(struct parser *ps, struct tgsi_insn *in)
{
   struct cursor save = ps->c;
   skip_ws(ps);
   if (peek(ps) != ':') {
      ps->c = save;
      return;
   }
   if (!(tgsi_op_info[in->op].flags & TGSI_OPF_LABEL))
      fail_at(ps, &ps->c, "%s takes no ':' label", tgsi_op_info[in->op].name);
   advance(ps, 1);
   skip_ws(ps);
   in->has_label = true;
   in->label = parse_uint(ps, UINT32_MAX, "label");
}

static void
parse_insn(struct parser *ps)
{
   struct tgsi_insn in;
   memset(&in, 0, sizeof(in));
   in.target = -1;
   in.loc = loc_of(&ps->c);
   struct legacy_src lsrc[TGSI_MAX_SRC];
   unsigned lmask = 0; /* sources with legacy modifiers */
   struct cursor start = ps->c;
   place_legacy(ps);
   VEC_PUSH(ps->first_of, ps->nwritten, ps->written_cap, ps->s->ninsns);
   enum old_op old;
   in.op = parse_opcode(ps, &in, &old);
   const struct tgsi_op_info *info = &tgsi_op_info[in.op];
   char buf[96];
   unsigned nops = info->ndst + info->nsrc;
   if (in.op == TGSI_OP_EMIT || in.op == TGSI_OP_ENDPRIM) {
      struct cursor save = ps->c;
      skip_ws(ps);
      bool none = ps->c.line != start.line || !peek(ps) ||
                  (peek(ps) != '-' && peek(ps) != '|' && !looks_like_reg(ps) &&
                   !match_prefix_ci(ps->c.p, "RINPUT"));
      ps->c = save;
      if (none) {
         need_legacy(ps, &start, "EMIT or ENDPRIM without a stream operand");
         legacy_stream0(ps, &in.src[in.nsrc++]);
         nops = 0;
      }
   }
   for (unsigned i = 0; i < nops; i++) {
      struct cursor at = ps->c;
      if (i == 0) {
         require_space(ps, info->name);
      } else {
         if (!accept(ps, ',')) { /* the message is built only when needed */
            char what[128];
            snprintf(what, sizeof(what), "',' (%s)", operand_counts(info, buf, sizeof(buf)));
            expect(ps, ',', what);
         }
         at = ps->c;
         skip_ws(ps);
      }
      /* "EMIT" then a new line with "END": the operand is missing here. */
      if (ps->c.line != at.line && peek(ps) != '-' && peek(ps) != '|' && !looks_like_reg(ps))
         fail_at(ps, &at, "missing operand: %s", operand_counts(info, buf, sizeof(buf)));
      if (i < info->ndst) {
         parse_dst(ps, &in.dst[in.ndst++]);
      } else {
         unsigned k = in.nsrc++;
         if (parse_src(ps, &in.src[k], &lsrc[k]))
            lmask |= 1u << k;
      }
   }
   parse_insn_tail(ps, &in);
   parse_label(ps, &in);
   if (in.op == TGSI_OP_CAL && !in.has_label)
      fail_at(ps, &ps->c, "CAL needs a target label (CAL :n, n = instruction number of a BGNSUB)");
   unsigned j = 0;
   for (unsigned k = 0; k < in.nsrc; k++)
      if (lmask >> k & 1)
         emit_legacy_src(ps, &in, k, &lsrc[k], j++, &start);
   if (old == OLD_DP2A) { /* DP2 into a fresh temporary, then ADD of src2.x */
      struct tgsi_reg t = legacy_temp(ps, j, &start);
      push_legacy(ps, &in, TGSI_OP_DP2, t, TGSI_MASK_XYZW, &in.src[0], &in.src[1]);
      in.op = TGSI_OP_ADD;
      in.src[0] = (struct tgsi_src){.reg = t, .swz = {0, 1, 2, 3}};
      in.src[1] = in.src[2];
      memset(in.src[1].swz, in.src[2].swz[0], sizeof(in.src[1].swz));
      in.nsrc = 2;
   } else if (old == OLD_NOISE) {
      in.src[0] = legacy_imm(ps, 0, false);
   }
   ps->seen_insn = true;
   ps->last_item = "instruction";
   VEC_PUSH(ps->s->insns, ps->s->ninsns, ps->s->insns_cap, in);
}

/* ------------------------------------------------------------------ */
/* Declarations                                                         */

unsigned
tgsi_implied_vertices(const struct tgsi_shader *s)
{
   if (s->stage == TGSI_STAGE_TESS_CTRL || s->stage == TGSI_STAGE_TESS_EVAL)
      return 32;
   if (s->stage != TGSI_STAGE_GEOM)
      return 0;
   unsigned n = 0;
   for (unsigned i = 0; i < s->nprops; i++) {
      if (s->props[i].prop != TGSI_PROP_GS_INPUT_PRIMITIVE)
         continue;
      switch (s->props[i].value) {
      case TGSI_PRIM_POINTS:
         n = 1;
         break;
      case TGSI_PRIM_LINES:
      case TGSI_PRIM_LINE_LOOP:
      case TGSI_PRIM_LINE_STRIP:
         n = 2;
         break;
      case TGSI_PRIM_TRIANGLES:
      case TGSI_PRIM_TRIANGLE_STRIP:
      case TGSI_PRIM_TRIANGLE_FAN:
         n = 3;
         break;
      case TGSI_PRIM_QUADS:
      case TGSI_PRIM_QUAD_STRIP:
      case TGSI_PRIM_LINES_ADJACENCY:
      case TGSI_PRIM_LINE_STRIP_ADJACENCY:
         n = 4;
         break;
      case TGSI_PRIM_TRIANGLES_ADJACENCY:
      case TGSI_PRIM_TRIANGLE_STRIP_ADJACENCY:
         n = 6;
         break;
      default:
         n = 0;
         break;
      }
   }
   return n;
}

bool
tgsi_file_has_vertex_dim(enum tgsi_stage stage, enum tgsi_file file)
{
   switch (stage) {
   case TGSI_STAGE_GEOM:
   case TGSI_STAGE_TESS_EVAL:
      return file == TGSI_FILE_IN;
   case TGSI_STAGE_TESS_CTRL:
      return file == TGSI_FILE_IN || file == TGSI_FILE_OUT;
   default:
      return false;
   }
}

/* "[a..b]" of a declaration; *empty set for "[]". Cursor is after '['. */
static void
parse_range(struct parser *ps, uint32_t *first, uint32_t *last, bool *empty)
{
   skip_ws(ps);
   *empty = peek(ps) == ']';
   if (*empty) {
      advance(ps, 1);
      return;
   }
   *first = *last = parse_uint(ps, MAX_INDEX, "register index");
   skip_ws(ps);
   if (peek(ps) == '.' && ps->c.p[1] == '.') {
      advance(ps, 2);
      skip_ws(ps);
      struct cursor at = ps->c;
      *last = parse_uint(ps, MAX_INDEX, "register index");
      if (*last < *first)
         fail_at(ps, &at, "range end %u is below its start %u", *last, *first);
   }
   expect(ps, ']', "']' after the declared range");
}

static void
parse_decl_reg(struct parser *ps, struct tgsi_decl *d)
{
   d->file = parse_file(ps, "a register file");
   if (d->file == TGSI_FILE_IMM)
      fail_at(ps, &ps->c, "immediates are declared with IMM, not DCL");
   expect(ps, '[', "'[' after the register file");
   struct cursor b1 = ps->c;
   bool empty1, empty2;
   uint32_t f1 = 0, l1 = 0;
   parse_range(ps, &f1, &l1, &empty1);
   struct cursor save = ps->c;
   skip_ws(ps);
   if (peek(ps) != '[') {
      ps->c = save;
      if (empty1)
         fail_at(ps, &b1, "empty '[]' is only allowed for the vertex dimension, as in IN[][0]");
      d->first = f1, d->last = l1;
      return;
   }
   advance(ps, 1);
   struct cursor b2 = ps->c;
   parse_range(ps, &d->first, &d->last, &empty2);
   if (empty2)
      fail_at(ps, &b2, "the register range cannot be empty");
   d->has_dim = true;
   d->dim = f1;
   if (empty1) {
      unsigned n = tgsi_implied_vertices(ps->s);
      if (!tgsi_file_has_vertex_dim(ps->s->stage, d->file))
         fail_at(ps, &b1,
                 "empty '[]' is only allowed for the vertex dimension of GS and "
                 "tessellation inputs and TCS outputs");
      for (unsigned i = ps->s->nprops; !n && i-- > 0;)
         if (ps->s->props[i].prop == TGSI_PROP_GS_INPUT_PRIMITIVE)
            fail_at(ps, &b1, "empty '[]': GS_INPUT_PRIMITIVE %s has no fixed vertex count",
                    tgsi_primitive_names[ps->s->props[i].value % TGSI_PRIM_COUNT]);
      if (!n)
         fail_at(ps, &b1, "empty '[]' needs PROPERTY GS_INPUT_PRIMITIVE first");
      d->dim = n;
   } else if (l1 != f1) {
      warn_at(ps, &b1, "a range in the first bracket: only its start (%u) is used", f1);
   }
}

/* Skips ", " before the next attribute word; false (cursor kept) if none. */
static bool
next_attr(struct parser *ps)
{
   if (!accept(ps, ','))
      return false;
   skip_ws(ps);
   return true;
}

static void
parse_sview_attrs(struct parser *ps, struct tgsi_decl *d)
{
   int t = match_name(ps, tgsi_texture_names, TGSI_TEX_COUNT);
   if (t < 0)
      fail_expected(ps, "a texture target for the sampler view (e.g. 2D)");
   d->target = (enum tgsi_texture)t;
   for (unsigned i = 0; i < 4; i++) {
      if (i == 0)
         expect(ps, ',', "',' and a return type (UNORM, SNORM, SINT, UINT, FLOAT)");
      else if (!next_attr(ps))
         break;
      skip_ws(ps);
      int r = match_name(ps, tgsi_return_type_names, TGSI_RET_COUNT);
      if (r < 0)
         fail_expected(ps, "a return type (UNORM, SNORM, SINT, UINT or FLOAT)");
      /* Missing trailing types repeat the first, as Mesa fills them. Unlike
       * Mesa (whose loop ends up copying the first type over all four), a
       * written list of different types is kept, so tgsi_dump's mixed
       * lists round-trip. */
      for (unsigned k = i; k < (i ? i + 1 : 4); k++)
         d->ret[k] = (enum tgsi_return_type)r;
   }
}

static bool
parse_image_word(struct parser *ps, struct tgsi_decl *d)
{
   if (match_kw(ps, "RAW"))
      return d->raw = true;
   if (match_kw(ps, "WR"))
      return d->writable = true;
   size_t n = word_len(ps->c.p);
   if (n > 12 && match_prefix_ci(ps->c.p, "PIPE_FORMAT_")) {
      if (n >= TGSI_FORMAT_LEN)
         fail_at(ps, &ps->c, "format name longer than %d characters", TGSI_FORMAT_LEN - 1);
      for (size_t k = 0; k < n; k++)
         d->format[k] = (char)toupper((unsigned char)ps->c.p[k]);
      d->format[n] = 0;
      advance(ps, n);
      return true;
   }
   return false;
}

/* The attributes that depend on the file. Returns whether an unconsumed
 * ", word" is pending for the attributes that follow. */
static bool
parse_file_attrs(struct parser *ps, struct tgsi_decl *d, bool pend)
{
   switch (d->file) {
   case TGSI_FILE_IMAGE: {
      if (!pend)
         fail_at(ps, &ps->c, "IMAGE declarations need a target, as in DCL IMAGE[0], 2D");
      int t = match_name(ps, tgsi_texture_names, TGSI_TEX_COUNT);
      if (t < 0)
         fail_expected(ps, "an image target (e.g. 2D)");
      d->target = (enum tgsi_texture)t;
      while ((pend = next_attr(ps)) && parse_image_word(ps, d))
         ;
      return pend;
   }
   case TGSI_FILE_SVIEW:
      if (!pend)
         expect(ps, ',', "',' and a sampler view target (e.g. 2D)");
      skip_ws(ps);
      parse_sview_attrs(ps, d);
      return next_attr(ps);
   case TGSI_FILE_BUFFER:
      if (pend && match_kw(ps, "ATOMIC")) {
         d->atomic = true;
         pend = next_attr(ps);
      }
      return pend;
   case TGSI_FILE_MEMORY:
      if (pend) {
         int m = match_name(ps, tgsi_memory_type_names, TGSI_MEMTYPE_COUNT);
         if (m >= 0) {
            d->has_mem_type = true;
            d->mem_type = (enum tgsi_memory_type)m;
            pend = next_attr(ps);
         }
      }
      return pend;
   default:
      break;
   }
   if (pend && match_kw(ps, "LOCAL")) {
      d->local = true;
      pend = next_attr(ps);
   }
   int sem = pend ? match_name(ps, tgsi_semantic_names, TGSI_SEM_COUNT) : -1;
   if (sem >= 0) {
      d->has_semantic = true;
      d->semantic = (enum tgsi_semantic)sem;
      if (accept(ps, '[')) {
         skip_ws(ps);
         d->semantic_index = parse_uint(ps, UINT32_MAX, "semantic index");
         expect(ps, ']', "']' after the semantic index");
      }
      pend = next_attr(ps);
   }
   return pend;
}

/* CYLWRAP_X (any of XYZW, in order): cylindrical wrapping of an input's
 * interpolation (D3D9's texture-coordinate wrap), removed from Mesa. The
 * check gives each lane its input values directly, so it is read and
 * dropped. */
static bool
parse_cylwrap(struct parser *ps)
{
   const char *p = ps->c.p;
   static const char prefix[] = "CYLWRAP_";
   for (size_t i = 0; i < sizeof(prefix) - 1; i++)
      if (toupper((unsigned char)p[i]) != prefix[i])
         return false;
   static const char chans[] = "XYZW";
   struct cursor at = ps->c;
   size_t n = word_len(p);
   ptrdiff_t last = -1;
   for (size_t k = sizeof(prefix) - 1; k < n; k++) {
      const char *q = strchr(chans, toupper((unsigned char)p[k]));
      if (!q || q - chans <= last)
         fail_at(ps, &at, "CYLWRAP_ takes channel letters in the order XYZW");
      last = q - chans;
   }
   if (last < 0)
      fail_at(ps, &at, "CYLWRAP_ takes channel letters in the order XYZW");
   need_legacy(ps, &at, "cylindrical wrap (CYLWRAP_)");
   advance(ps, n);
   return true;
}

static void
parse_stream(struct parser *ps, struct tgsi_decl *d, const struct cursor *at)
{
   if (ps->s->stage != TGSI_STAGE_GEOM || d->file != TGSI_FILE_OUT)
      fail_at(ps, at, "STREAM is only allowed on geometry shader outputs");
   d->has_stream = true;
   expect(ps, '(', "'(' after STREAM");
   for (unsigned i = 0; i < 4; i++) {
      if (i)
         expect(ps, ',', "',': STREAM takes 4 stream numbers");
      skip_ws(ps);
      d->stream[i] = (uint8_t)parse_uint(ps, 3, "stream number");
   }
   expect(ps, ')', "')' after the 4 stream numbers");
}

static void
parse_decl(struct parser *ps, const struct cursor *start)
{
   struct tgsi_decl d;
   memset(&d, 0, sizeof(d));
   d.loc = loc_of(start);
   if (ps->seen_insn)
      fail_at(ps, start, "declarations must come before the first instruction");
   require_space(ps, "DCL");
   if (parse_legacy_decl(ps, start))
      return;
   parse_decl_reg(ps, &d);
   d.usage_mask = TGSI_MASK_XYZW;
   if (accept(ps, '.')) {
      skip_ws(ps);
      d.usage_mask = parse_mask(ps, "usage mask");
   }
   bool pend = next_attr(ps);
   if (pend && match_kw(ps, "ARRAY")) {
      expect(ps, '(', "'(' after ARRAY");
      skip_ws(ps);
      struct cursor at = ps->c;
      int64_t id = parse_int(ps, UINT16_MAX, "array id");
      if (id <= 0)
         fail_at(ps, &at, "array ids start at 1");
      d.array_id = (uint16_t)id;
      expect(ps, ')', "')' after the array id");
      pend = next_attr(ps);
   }
   /* Vertex shader inputs are identified by index only. Mesa's parser
    * refused a semantic or an interpolation on them from June 2010; the
    * text before (the python state tracker's tests, its dumps) wrote
    * DCL IN[0], POSITION, CONSTANT. The legacy dialect parses and drops
    * them. */
   bool vs_in = ps->s->stage == TGSI_STAGE_VERT && d.file == TGSI_FILE_IN;
   if (pend && vs_in)
      need_legacy(ps, &ps->c,
                  "a semantic or interpolation on a vertex shader input (today "
                  "they are identified by index only)");
   int i;
   struct cursor at = ps->c;
   /* Mesa's first dumps (2007-08) put the interpolation before the
    * semantic: DCL IN[0], PERSPECTIVE, GENERIC[0] (COLOR names both a
    * semantic and an interpolation: first, it is the semantic) */
   if (pend && tgsi_lookup(tgsi_semantic_names, TGSI_SEM_COUNT, ps->c.p, word_len(ps->c.p)) < 0 &&
       (i = match_name(ps, tgsi_interp_names, TGSI_INTERP_COUNT)) >= 0) {
      struct cursor sem = ps->c;
      if (next_attr(ps) && match_name(ps, tgsi_semantic_names, TGSI_SEM_COUNT) >= 0) {
         need_legacy(ps, &at, "an interpolation before the semantic");
         d.has_interp = true;
         d.interp = (enum tgsi_interp)i;
      }
      ps->c = d.has_interp ? sem : at;
      pend = d.has_interp ? next_attr(ps) : true;
   }
   pend = parse_file_attrs(ps, &d, pend);
   at = ps->c;
   if (pend && match_kw(ps, "STREAM")) {
      parse_stream(ps, &d, &at);
      pend = next_attr(ps);
   }
   if (pend && !d.has_interp && (i = match_name(ps, tgsi_interp_names, TGSI_INTERP_COUNT)) >= 0) {
      d.has_interp = true;
      d.interp = (enum tgsi_interp)i;
      pend = next_attr(ps);
   }
   if (pend && (i = match_name(ps, tgsi_location_names, TGSI_LOC_COUNT)) >= 0) {
      d.has_location = true;
      d.location = (enum tgsi_location)i;
      pend = next_attr(ps);
   }
   if (pend && parse_cylwrap(ps))
      pend = next_attr(ps);
   if (pend && match_kw(ps, "INVARIANT")) {
      d.invariant = true;
      pend = next_attr(ps);
   }
   if (pend) {
      char buf[64];
      fail_at(ps, &ps->c,
              "unexpected %s in declaration (attributes go in the order ARRAY, LOCAL or "
              "file-specific, semantic, STREAM, interpolation, location, INVARIANT)",
              found(ps, buf, sizeof(buf)));
   }
   if (vs_in) {
      d.has_semantic = false;
      d.semantic = (enum tgsi_semantic)0;
      d.semantic_index = 0;
      d.has_interp = false;
      d.has_location = false;
      d.invariant = false;
   }
   ps->last_item = "declaration";
   VEC_PUSH(ps->s->decls, ps->s->ndecls, ps->s->decls_cap, d);
}

/* ------------------------------------------------------------------ */
/* Immediates                                                           */

static uint32_t
parse_hex_digits(struct parser *ps, unsigned max_digits, const struct cursor *at)
{
   uint32_t v = 0;
   unsigned n = 0;
   while (isxdigit(peek(ps))) {
      if (++n > max_digits)
         fail_at(ps, at, "hexadecimal bit pattern longer than %u digits", max_digits);
      int ch = tolower(peek(ps));
      v = v * 16 + (uint32_t)(isdigit(ch) ? ch - '0' : ch - 'a' + 10);
      advance(ps, 1);
   }
   if (!n)
      fail_expected(ps, "hexadecimal digits");
   return v;
}

/* nan, inf, infinity and nan(0xHHHHHHHH) (a full bit pattern); sign is
 * +1/-1, 0 if none was written. */
static bool
parse_special_float(struct parser *ps, int sign, uint32_t *bits, const struct cursor *at)
{
   const char *p = ps->c.p;
   if (match_prefix_ci(p, "NAN") && p[3] == '(') {
      if (sign)
         fail_at(ps, at, "nan(0x...) holds the whole bit pattern and takes no sign");
      advance(ps, 4);
      if (!(peek(ps) == '0' && (ps->c.p[1] == 'x' || ps->c.p[1] == 'X')))
         fail_expected(ps, "'0x' and a NaN bit pattern inside nan(...)");
      advance(ps, 2);
      *bits = parse_hex_digits(ps, 8, at);
      if (peek(ps) != ')')
         fail_expected(ps, "')' after the NaN bit pattern");
      advance(ps, 1);
      if (!is_nan_bits(*bits))
         fail_at(ps, at, "nan(0x%08x) is not a NaN bit pattern", *bits);
      return true;
   }
   size_t n = word_len(p);
   uint32_t sign_bit = sign < 0 ? 0x80000000u : 0;
   if (n == 3 && match_prefix_ci(p, "NAN"))
      *bits = sign_bit | 0x7fc00000u;
   else if ((n == 3 && match_prefix_ci(p, "INF")) || (n == 8 && match_prefix_ci(p, "INFINITY")))
      *bits = sign_bit | 0x7f800000u;
   else
      return false;
   advance(ps, n);
   return true;
}

/* Scans a C float literal (decimal or C99 hex) and copies it to buf. */
static void
scan_float(struct parser *ps, char *buf, const struct cursor *at)
{
   const char *p = ps->c.p;
   size_t i = 0;
   if (p[i] == '+' || p[i] == '-')
      i++;
   bool hex = p[i] == '0' && (p[i + 1] == 'x' || p[i + 1] == 'X');
   int (*isdig)(int) = hex ? isxdigit : isdigit;
   if (hex)
      i += 2;
   size_t digits = 0;
   while (isdig((unsigned char)p[i]))
      i++, digits++;
   if (p[i] == '.') {
      i++;
      while (isdig((unsigned char)p[i]))
         i++, digits++;
   }
   if (!digits)
      fail_at(ps, at, "expected a number");
   char e = hex ? 'P' : 'E';
   if (toupper((unsigned char)p[i]) == e) {
      size_t j = i + 1;
      if (p[j] == '+' || p[j] == '-')
         j++;
      if (!isdigit((unsigned char)p[j]))
         fail_at(ps, at, "expected digits in the exponent");
      while (isdigit((unsigned char)p[j]))
         j++;
      i = j;
   }
   if (is_word_char(p[i]) || p[i] == '.') {
      ps->c.p += i;
      char b[64];
      fail_at(ps, &ps->c, "unexpected %s after a number", found(ps, b, sizeof(b)));
   }
   if (i >= MAX_FLT_TOK)
      fail_at(ps, at, "numeric literal longer than %d characters", MAX_FLT_TOK - 1);
   memcpy(buf, p, i);
   buf[i] = 0;
   advance(ps, i);
}

static uint32_t
parse_flt32(struct parser *ps)
{
   struct cursor at = ps->c;
   int sign = peek(ps) == '-' ? -1 : peek(ps) == '+' ? 1 : 0;
   if (sign)
      advance(ps, 1);
   uint32_t bits;
   if (parse_special_float(ps, sign, &bits, &at))
      return bits;
   if (peek(ps) == '0' && (ps->c.p[1] == 'x' || ps->c.p[1] == 'X')) {
      /* virgl and Mesa <= 21: 0x + up to 8 hex digits is the bit pattern.
       * Without a dialect line, exactly 8 digits (virgl prints "0x%08x")
       * are taken for one too: nobody writes a float's value that way. */
      const char *q = ps->c.p + 2;
      while (isxdigit((unsigned char)*q))
         q++;
      bool detect = !ps->opts->hex_bits && !ps->opts->dialect_line && !ps->opts->no_detect &&
                    !sign && q - ps->c.p == 10;
      if ((ps->opts->hex_bits || detect) && *q != '.' && *q != 'p' && *q != 'P') {
         if (detect && !ps->hex_seen) {
            ps->hex_seen = true;
            ps->hex_at = at;
         }
         if (sign)
            fail_at(ps, &at, "a hexadecimal bit pattern takes no sign");
         advance(ps, 2);
         bits = parse_hex_digits(ps, 8, &at);
         if (is_word_char(peek(ps)))
            fail_expected(ps, "',' or '}' after the bit pattern");
         return bits;
      }
   }
   ps->c = at;
   char buf[MAX_FLT_TOK];
   scan_float(ps, buf, &at);
   errno = 0;
   float f = strtof(buf, NULL);
   if (errno == ERANGE && isinf(f))
      fail_at(ps, &at, "%s is out of range for FLT32", buf);
   return fui(f);
}

static uint64_t
parse_u64(struct parser *ps, bool allow_sign, bool *neg)
{
   struct cursor at = ps->c;
   *neg = false;
   if (allow_sign && (peek(ps) == '-' || peek(ps) == '+')) {
      *neg = peek(ps) == '-';
      advance(ps, 1);
   }
   uint64_t v = 0;
   unsigned base = 10;
   if (peek(ps) == '0' && (ps->c.p[1] == 'x' || ps->c.p[1] == 'X')) {
      base = 16;
      advance(ps, 2);
   }
   if (!isxdigit(peek(ps)) || (base == 10 && !isdigit(peek(ps))))
      fail_expected(ps, "an integer");
   while (base == 16 ? isxdigit(peek(ps)) : isdigit(peek(ps))) {
      int ch = tolower(peek(ps));
      unsigned dgt = (unsigned)(isdigit(ch) ? ch - '0' : ch - 'a' + 10);
      if (v > (UINT64_MAX - dgt) / base)
         fail_at(ps, &at, "integer is out of range for 64 bits");
      v = v * base + dgt;
      advance(ps, 1);
   }
   if (is_word_char(peek(ps)) || peek(ps) == '.') {
      char b[64];
      fail_at(ps, &ps->c, "unexpected %s after an integer", found(ps, b, sizeof(b)));
   }
   return v;
}

/* One value of an immediate of type t into u (1 or 2 words). */
static void
parse_imm_value(struct parser *ps, enum tgsi_imm_type t, uint32_t *u)
{
   struct cursor at = ps->c;
   bool neg;
   uint64_t v;
   switch (t) {
   case TGSI_IMM_FLT32:
      u[0] = parse_flt32(ps);
      return;
   case TGSI_IMM_UINT32:
      if (peek(ps) == '0' && (ps->c.p[1] == 'x' || ps->c.p[1] == 'X'))
         fail_at(ps, &at, "UINT32 immediates are decimal");
      v = parse_u64(ps, false, &neg);
      if (v > UINT32_MAX)
         fail_at(ps, &at, "%" PRIu64 " is out of range for UINT32", v);
      u[0] = (uint32_t)v;
      return;
   case TGSI_IMM_INT32:
      if (!isdigit(peek(ps)) &&
          !((peek(ps) == '-' || peek(ps) == '+') && isdigit((unsigned char)ps->c.p[1])))
         fail_expected(ps, "a decimal integer");
      v = parse_u64(ps, true, &neg);
      if (v > (neg ? 0x80000000ull : 0x7fffffffull))
         fail_at(ps, &at, "value is out of range for INT32");
      u[0] = neg ? (uint32_t)(0u - (uint32_t)v) : (uint32_t)v;
      return;
   case TGSI_IMM_FLT64: {
      char buf[MAX_FLT_TOK];
      scan_float(ps, buf, &at);
      errno = 0;
      double d = strtod(buf, NULL);
      if (errno == ERANGE && isinf(d))
         fail_at(ps, &at, "%s is out of range for FLT64", buf);
      v = dui(d);
      break;
   }
   case TGSI_IMM_UINT64:
      v = parse_u64(ps, false, &neg);
      break;
   default:
      v = parse_u64(ps, true, &neg);
      if (v > (neg ? 0x8000000000000000ull : 0x7fffffffffffffffull))
         fail_at(ps, &at, "value is out of range for INT64");
      if (neg)
         v = 0 - v;
      break;
   }
   u[0] = (uint32_t)v;
   u[1] = (uint32_t)(v >> 32);
}

static void
parse_imm(struct parser *ps, const struct cursor *start)
{
   struct tgsi_imm imm;
   memset(&imm, 0, sizeof(imm));
   imm.loc = loc_of(start);
   if (ps->seen_insn)
      fail_at(ps, start, "immediates must come before the first instruction");
   if (accept(ps, '[')) {
      skip_ws(ps);
      struct cursor at = ps->c;
      uint32_t idx = parse_uint(ps, UINT32_MAX, "immediate index");
      if (idx != ps->s->nimms)
         fail_at(ps, &at, "IMM[%u] is out of order: the next immediate is IMM[%u]", idx,
                 ps->s->nimms);
      expect(ps, ']', "']' after the immediate index");
   }
   require_space(ps, "IMM");
   int t = match_name(ps, tgsi_imm_type_names, TGSI_IMM_COUNT);
   if (t < 0)
      fail_expected(ps, "an immediate type (FLT32, UINT32 or INT32)");
   imm.type = (enum tgsi_imm_type)t;
   bool wide = imm.type >= TGSI_IMM_FLT64;
   unsigned n = wide ? 2 : 4;
   expect(ps, '{', "'{' before the immediate values");
   for (unsigned i = 0; i < n; i++) {
      if (i) {
         char buf[64];
         snprintf(buf, sizeof(buf), "',': %s immediates take exactly %u values",
                  tgsi_imm_type_names[t], n);
         expect(ps, ',', buf);
      }
      skip_ws(ps);
      parse_imm_value(ps, imm.type, &imm.u[wide ? 2 * i : i]);
   }
   if (!accept(ps, '}')) {
      char buf[64];
      snprintf(buf, sizeof(buf), "'}': %s immediates take exactly %u values",
               tgsi_imm_type_names[t], n);
      expect(ps, '}', buf);
   }
   ps->last_item = "immediate";
   VEC_PUSH(ps->s->imms, ps->s->nimms, ps->s->imms_cap, imm);
}

/* ------------------------------------------------------------------ */
/* Properties, header, items                                            */

static void
parse_property(struct parser *ps, const struct cursor *start)
{
   struct tgsi_prop pr;
   memset(&pr, 0, sizeof(pr));
   pr.loc = loc_of(start);
   require_space(ps, "PROPERTY");
   int p = match_name(ps, tgsi_property_names, TGSI_PROP_COUNT);
   if (p < 0) {
      char buf[64];
      if (is_word_char(peek(ps)))
         fail_at(ps, &ps->c, "unknown property %s", found(ps, buf, sizeof(buf)));
      fail_expected(ps, "a property name");
   }
   pr.prop = (enum tgsi_property)p;
   require_space(ps, tgsi_property_names[p]);
   unsigned count;
   const char *const *names = tgsi_prop_value_names(tgsi_property_kinds[p], &count);
   if (!names) {
      pr.value = parse_uint(ps, UINT32_MAX, "property value");
   } else if (isdigit(peek(ps))) {
      /* tgsi_dump prints a value its table has no name for as a number
       * (and tgsi_print does the same), so a dump may hold one. */
      struct cursor at = ps->c;
      pr.value = parse_uint(ps, UINT32_MAX, "property value");
      if (pr.value >= count && tgsi_property_kinds[p] == TGSI_PROPK_PRIM)
         fail_at(ps, &at, "%s %u names no primitive", tgsi_property_names[p], pr.value);
      if (pr.value >= count)
         warn_at(ps, &at, "%s %u is not one of its values (%s, ...); it is kept and has no effect",
                 tgsi_property_names[p], pr.value, names[0]);
   } else {
      int v = match_name(ps, names, count);
      if (v < 0) {
         char what[64];
         snprintf(what, sizeof(what), "a value name for %s (e.g. %s)", tgsi_property_names[p],
                  names[0]);
         fail_expected(ps, what);
      }
      pr.value = (uint32_t)v;
   }
   for (unsigned i = 0; i < ps->s->nprops; i++)
      if (ps->s->props[i].prop == pr.prop)
         warn_at(ps, start, "%s is set more than once; the last value counts",
                 tgsi_property_names[p]);
   ps->last_item = "property";
   VEC_PUSH(ps->s->props, ps->s->nprops, ps->s->props_cap, pr);
}

static void
parse_item(struct parser *ps)
{
   struct cursor start = ps->c;
   if (isdigit(peek(ps))) {
      /* "12: MOV ..." as tgsi_dump numbers them; the number is ignored. */
      parse_uint(ps, UINT32_MAX, "instruction number");
      expect(ps, ':', "':' after the instruction number");
      skip_ws(ps);
      if (match_kw(ps, "DCL") || match_kw(ps, "IMM") || match_kw(ps, "PROPERTY"))
         fail_at(ps, &start, "only instructions can be numbered");
      if (!is_word_char(peek(ps)))
         fail_expected(ps, "an opcode after the instruction number");
      parse_insn(ps);
   } else if (match_kw(ps, "DCL")) {
      parse_decl(ps, &start);
   } else if (match_kw(ps, "IMM")) {
      parse_imm(ps, &start);
   } else if (match_kw(ps, "PROPERTY")) {
      parse_property(ps, &start);
   } else if (is_word_char(peek(ps))) {
      parse_insn(ps);
   } else {
      fail_expected(ps, "DCL, IMM, PROPERTY or an instruction");
   }
}

static void
parse_shader(struct parser *ps)
{
   skip_ws(ps);
   for (struct cursor at = ps->c; match_kw(ps, "PROPERTY"); at = ps->c) {
      need_legacy(ps, &at, "a PROPERTY line before the header");
      parse_property(ps, &at);
      skip_ws(ps);
   }
   struct cursor at = ps->c;
   enum tgsi_stage st;
   bool versioned;
   size_t n = tgsi_header_at(ps->c.p, ps->end, &st, &versioned);
   if (!n || is_word_char(ps->c.p[n]))
      fail_expected(ps, "a shader header (FRAG, VERT, GEOM, TESS_CTRL, TESS_EVAL or COMP)");
   if (versioned)
      need_legacy(ps, &at, "a versioned header (FRAG1.1, as in the first TGSI dumps)");
   advance(ps, n);
   ps->s->stage = st;
   ps->last_item = "the header";
   for (;;) {
      bool ws = skip_ws(ps);
      if (!peek(ps))
         break;
      if (!ws) {
         char buf[64];
         fail_at(ps, &ps->c, "unexpected %s after %s", found(ps, buf, sizeof(buf)), ps->last_item);
      }
      parse_item(ps);
   }
   /* A CAL names its subroutine by its number as written, which moves
    * when a rewrite added instructions. */
   bool moved = ps->s->ninsns != ps->nwritten;
   for (unsigned i = 0; moved && i < ps->s->ninsns; i++) {
      struct tgsi_insn *in = &ps->s->insns[i];
      if (in->has_label && in->label < ps->nwritten)
         in->label = ps->first_of[in->label];
   }
}

/* Bytes the grammar can never contain, reported before parsing so the
 * parser can treat NUL as the end. */
static bool
check_bytes(struct parser *ps)
{
   const char *nul = memchr(ps->text, 0, (size_t)(ps->end - ps->text));
   if (!nul)
      return true;
   struct cursor c = {ps->text, ps->text, 1};
   for (const char *q = ps->text; q < nul; q++)
      if (*q == '\n')
         c.line++, c.line_start = q + 1;
   c.p = nul;
   diag_add(ps->diags, DIAG_ERROR, ps->file, c.line, col_of(&c), c.line_start,
            "NUL byte in the input (TGSI is text)");
   return false;
}

/* The only setjmp: nothing here lives across the longjmp but *ps. */
static bool
run_parser(struct parser *ps)
{
   if (setjmp(ps->fail))
      return false;
   parse_shader(ps);
   return true;
}

struct tgsi_shader *
tgsi_parse(const char *text, size_t len, const char *filename, const struct tgsi_parse_opts *opts,
           struct diag_list *diags)
{
   static const struct tgsi_parse_opts defaults;
   /* a log: one shader, with text around it, or several */
   struct tgsi_unit *u = NULL;
   unsigned left_out = 0;
   unsigned nu = tgsi_split(text, len, filename, &u, &left_out, diags);
   if (nu > 1) {
      const char *h = text + u[1].header;
      diag_add(diags, DIAG_ERROR, filename ? filename : "<input>", (int)u[1].line, 1, h,
               "a second shader starts here: the file holds %u shaders (diffcomp check runs each "
               "one, as FILE#1..%u; this command reads a single shader)",
               nu, nu);
      free(u);
      return NULL;
   }
   if (nu == 1 && left_out) {
      char *t = tgsi_unit_text(text, len, u, 0);
      free(u);
      struct tgsi_shader *s = tgsi_parse(t, len, filename, opts, diags);
      free(t);
      return s;
   }
   free(u);
   struct diag_list scratch = {0};
   if (!diags)
      diags = &scratch; /* the caller only wants a yes or no */
   struct parser *ps = xcalloc(1, sizeof(*ps));
   ps->text = text;
   ps->end = text + len;
   ps->c = (struct cursor){text, text, 1};
   ps->file = filename ? filename : "<input>";
   ps->opts = opts ? opts : &defaults;
   ps->diags = diags;
   ps->s = tgsi_shader_new(TGSI_STAGE_FRAG, ps->file);
   ps->legacy = ps->opts->legacy;
   memset(ps->res_file, -1, sizeof(ps->res_file));
   ps->rinput = -1;
   ps->xtemp_decl = ps->ximm = -1;
   ps->ok = check_bytes(ps) && run_parser(ps);
   free(ps->immx_vals);
   free(ps->first_of);
   if (ps->ok && ps->legacy && !ps->opts->legacy)
      diag_add(diags, DIAG_NOTE, ps->file, ps->legacy_at.line, col_of(&ps->legacy_at),
               ps->legacy_at.line_start,
               "parsed in the legacy dialect: %s was removed from Mesa (say so with a "
               "'# dialect: legacy' line)",
               ps->legacy_what);
   if (ps->ok && ps->hex_seen)
      diag_add(diags, DIAG_NOTE, ps->file, ps->hex_at.line, col_of(&ps->hex_at),
               ps->hex_at.line_start,
               "FLT32 immediates written as 0x and eight hex digits are read as bit patterns, "
               "as virgl prints them (say so with a '# dialect: hex-bits' line)");
   struct tgsi_shader *s = ps->ok ? ps->s : NULL;
   if (!ps->ok)
      tgsi_shader_free(ps->s);
   free(ps);
   if (s && !tgsi_sanity_check(s, text, len, diags)) {
      tgsi_shader_free(s);
      s = NULL;
   }
   diag_clear(&scratch);
   return s;
}
