/*
 * Shader dumps as they are found: Mesa's debug output (ST_DEBUG=tgsi,
 * NIR_DEBUG=tgsi) puts a banner line before each shader ("TGSI after
 * translation from NIR:") and several shaders back to back in one log.
 * tgsi_split finds the shaders in such a text -- each starts at a header
 * line (FRAG, VERT, ...), with the PROPERTY lines the legacy dialect allows
 * before it -- and the lines that belong to none: text before the first
 * header and after a shader's last TGSI line. Those are left out with a
 * note; a line that is not TGSI inside a shader stays, for the parser to
 * refuse.
 */
#include "compiler/tgsi/tgsi.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* L_UNSET: not classified yet. Only the lines around a shader need a
 * class (the opcode lookup is most of the cost); a shader's own lines are
 * the parser's. */
enum line_kind { L_UNSET, L_BLANK, L_COMMENT, L_HEADER, L_PROPERTY, L_TGSI, L_OTHER };

struct line {
   size_t begin, end; /* end: before the newline */
   enum line_kind kind;
};

static size_t
word_len(const char *p, const char *end)
{
   size_t n = 0;
   while (p + n < end && (isalnum((unsigned char)p[n]) || p[n] == '_'))
      n++;
   return n;
}

static bool
is_word(const char *w, size_t n, const char *kw)
{
   return tgsi_lookup(&kw, 1, w, n) == 0;
}

static const char *
skip_blanks(const char *p, const char *end)
{
   while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
      p++;
   return p;
}

/* A shader header alone on its line (w: the line's first word). */
static bool
is_header(const char *w, const char *end)
{
   enum tgsi_stage st;
   bool versioned;
   size_t n = tgsi_header_at(w, end, &st, &versioned);
   return n && skip_blanks(w + n, end) == end;
}

static enum line_kind
classify(const char *p, const char *end)
{
   if (p < end && *p == '#')
      return L_COMMENT;
   p = skip_blanks(p, end);
   if (p == end)
      return L_BLANK;
   /* a numbered instruction; a continued IMMX list */
   if (isdigit((unsigned char)*p) || *p == '{' || *p == '}' || *p == ',')
      return L_TGSI;
   /* only printable text may be a log's: other bytes stay for the parser */
   for (const char *q = p; q < end; q++)
      if ((*q < 0x20 || *q > 0x7e) && *q != '\t' && *q != '\r')
         return L_TGSI;
   size_t n = word_len(p, end);
   bool sat, precise;
   const char *renamed;
   if (!n)
      return L_OTHER;
   if (is_header(p, end))
      return L_HEADER;
   if (is_word(p, n, "PROPERTY"))
      return L_PROPERTY;
   if (is_word(p, n, "DCL") || is_word(p, n, "IMM") || is_word(p, n, "IMMX") ||
       tgsi_renamed_op(p, n, &renamed) >= 0 || tgsi_op_lookup_word(p, n, &sat, &precise) >= 0)
      return L_TGSI;
   return L_OTHER;
}

static enum line_kind
kind_of(const char *text, struct line *l)
{
   if (l->kind == L_UNSET)
      l->kind = classify(text + l->begin, text + l->end);
   return l->kind;
}

/* Notes the lines of [first, last) (classified) that are not TGSI and
 * returns how many. */
static unsigned
note_left_out(struct diag_list *d, const char *file, const char *text, const struct line *l,
              unsigned first, unsigned last)
{
   unsigned n = 0, at = last;
   for (unsigned i = first; i < last; i++)
      if (l[i].kind == L_OTHER)
         at = MIN2(at, i), n++;
   if (n)
      diag_add(d, DIAG_NOTE, file, (int)at + 1, 1, text + l[at].begin,
               "%u line%s that %s not TGSI left out (a log's text around the shader)", n,
               n == 1 ? "" : "s", n == 1 ? "is" : "are");
   return n;
}

unsigned
tgsi_split(const char *text, size_t len, const char *file, struct tgsi_unit **units,
           unsigned *left_out, struct diag_list *d)
{
   *units = NULL;
   *left_out = 0;
   if (memchr(text, 0, len))
      return 0; /* not text: the parser says so */
   struct line *l = NULL;
   size_t nl = 0, cap = 0;
   for (size_t at = 0; at < len;) {
      const char *nlp = memchr(text + at, '\n', len - at);
      const char *e = nlp ? nlp : text + len, *p = skip_blanks(text + at, e);
      bool h = text[at] != '#' && is_header(p, e);
      struct line x = {at, (size_t)(e - text), h ? L_HEADER : L_UNSET};
      VEC_PUSH(l, nl, cap, x);
      at = x.end + (nlp != NULL);
   }
   struct tgsi_unit *u = NULL;
   size_t nu = 0, ucap = 0;
   unsigned floor = 0; /* the first line the next shader may take */
   for (unsigned i = 0; i < nl; i++) {
      if (l[i].kind != L_HEADER) {
         if (!nu && kind_of(text, &l[i]) == L_TGSI)
            goto none; /* TGSI before any header: the parser says what is wrong */
         continue;
      }
      /* legacy PROPERTY lines just before the header are the shader's */
      unsigned b = i;
      for (unsigned k = i; k > floor;) {
         enum line_kind kk = kind_of(text, &l[--k]);
         if (kk == L_PROPERTY)
            b = k;
         else if (kk != L_BLANK && kk != L_COMMENT)
            break;
      }
      struct tgsi_unit x = {l[b].begin, 0, l[i].begin, i + 1, b};
      VEC_PUSH(u, nu, ucap, x);
      floor = i + 1;
   }
   if (!nu)
      goto none;
   *left_out = note_left_out(d, file, text, l, 0, u[0].first_line);
   for (size_t k = 0; k < nu; k++) {
      unsigned last = k + 1 < nu ? u[k + 1].first_line : (unsigned)nl;
      unsigned e = last; /* one past the shader's last TGSI or PROPERTY line */
      while (e > u[k].line && kind_of(text, &l[e - 1]) != L_TGSI && l[e - 1].kind != L_PROPERTY)
         e--;
      u[k].end = e < nl ? l[e].begin : len;
      *left_out += note_left_out(d, file, text, l, e, last);
   }
   free(l);
   *units = u;
   return (unsigned)nu;
none:
   free(l);
   free(u);
   return 0;
}

char *
tgsi_unit_text(const char *text, size_t len, const struct tgsi_unit *units, unsigned k)
{
   char *t = xmalloc(len + 1);
   memcpy(t, text, len);
   t[len] = 0;
   bool line_start = true, keep = false;
   for (size_t i = 0; i < len; i++) {
      /* comment lines before the first shader (a '# dialect:' line) stay */
      if (line_start)
         keep = i < units[0].begin && text[i] == '#';
      line_start = text[i] == '\n';
      if (!keep && (i < units[k].begin || i >= units[k].end) && text[i] != '\n' && text[i] != '\r')
         t[i] = ' ';
   }
   return t;
}
