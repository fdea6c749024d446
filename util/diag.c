/*
 * Diagnostics with a position and the source line, rendered chibicc-style:
 *
 *   file.tgsi:3:9: error: unknown opcode 'FOO'
 *     FOO TEMP[0], IN[0]
 *     ^
 *
 * A long source line is shown only around the column (keep_srcline).
 */
#include "util/util.h"

#include <stdlib.h>

/* Keeps the source line, or for a line longer than DIAG_LINE_MAX a window
 * of it around the column with "..." where it was cut: an 8 MB line must
 * not be copied into every diagnostic nor echoed to the terminal. */
static void
keep_srcline(struct diag *d, const char *line_start)
{
   size_t n = strcspn(line_start, "\r\n");
   size_t c = d->col > 0 ? (size_t)d->col - 1 : 0;
   if (n <= DIAG_LINE_MAX) {
      d->srcline = xstrndup(line_start, n);
      d->caret = d->col > 0 ? (int)MIN2(c, n) : -1;
      return;
   }
   c = MIN2(c, n);
   size_t from = c > DIAG_LINE_MAX / 2 ? c - DIAG_LINE_MAX / 2 : 0;
   size_t to = MIN2(n, from + DIAG_LINE_MAX);
   if (to - from < DIAG_LINE_MAX)
      from = to - DIAG_LINE_MAX;
   d->srcline = xasprintf("%s%.*s%s", from ? "..." : "", (int)(to - from), line_start + from,
                          to < n ? "..." : "");
   d->caret = d->col > 0 ? (int)(c - from + (from ? 3 : 0)) : -1;
}

void
diag_vadd(struct diag_list *l, enum diag_severity sev, const char *file, int line, int col,
          const char *line_start, const char *fmt, va_list ap)
{
   if (!l)
      return; /* the caller wants the status only */
   struct diag d = {
       .sev = sev,
       .file = xstrdup(file ? file : "<input>"),
       .line = line,
       .col = col,
       .msg = xvasprintf(fmt, ap),
       .caret = -1,
   };
   if (line_start)
      keep_srcline(&d, line_start);
   VEC_PUSH(l->v, l->n, l->cap, d);
   if (sev == DIAG_ERROR)
      l->nerrors++;
   else if (sev == DIAG_WARNING)
      l->nwarnings++;
}

void
diag_add(struct diag_list *l, enum diag_severity sev, const char *file, int line, int col,
         const char *line_start, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   diag_vadd(l, sev, file, line, col, line_start, fmt, ap);
   va_end(ap);
}

static const char *const sev_name[] = {"error", "warning", "note"};
static const char *const sev_color[] = {"\033[1;31m", "\033[1;35m", "\033[1;36m"};

char *
diag_pos(const struct diag *d)
{
   if (!d->line)
      return xstrdup(d->file);
   if (d->col <= 0)
      return xasprintf("%s:%d", d->file, d->line);
   return xasprintf("%s:%d:%d", d->file, d->line, d->col);
}

/* Returns a malloc'd multi-line string ending in a newline. Tabs in the
 * source line are kept under the caret so it lines up in a terminal. */
char *
diag_render(const struct diag *d, bool color)
{
   const char *on = color ? sev_color[d->sev] : "";
   const char *off = color ? "\033[0m" : "";
   char *pos = diag_pos(d);
   char *head = xasprintf("%s: %s%s:%s %s\n", pos, on, sev_name[d->sev], off, d->msg);
   free(pos);
   if (!d->srcline || d->caret < 0)
      return head;
   size_t w = strlen(d->srcline);
   size_t c = MIN2((size_t)d->caret, w);
   char *pad = xmalloc(c + 1);
   for (size_t i = 0; i < c; i++)
      pad[i] = d->srcline[i] == '\t' ? '\t' : ' ';
   pad[c] = 0;
   char *all = xasprintf("%s  %s\n  %s%s^%s\n", head, d->srcline, pad, on, off);
   free(pad);
   free(head);
   return all;
}

const char *
diag_first_error(const struct diag_list *l)
{
   for (unsigned i = 0; l && i < l->n; i++)
      if (l->v[i].sev == DIAG_ERROR)
         return l->v[i].msg;
   return NULL;
}

char *
diag_first_error_text(const struct diag_list *l, const char *fallback)
{
   for (unsigned i = 0; l && i < l->n; i++) {
      const struct diag *g = &l->v[i];
      if (g->sev != DIAG_ERROR)
         continue;
      if (!g->file || !g->line)
         return xstrdup(g->msg);
      char *pos = diag_pos(g), *s = xasprintf("%s: %s", pos, g->msg);
      free(pos);
      return s;
   }
   return xstrdup(fallback);
}

void
diag_truncate(struct diag_list *l, unsigned n)
{
   if (!l)
      return;
   while (l->n > n) {
      struct diag *d = &l->v[--l->n];
      if (d->sev == DIAG_ERROR)
         l->nerrors--;
      else if (d->sev == DIAG_WARNING)
         l->nwarnings--;
      free(d->file);
      free(d->msg);
      free(d->srcline);
   }
}

void
diag_clear(struct diag_list *l)
{
   if (!l)
      return;
   for (unsigned i = 0; i < l->n; i++) {
      free(l->v[i].file);
      free(l->v[i].msg);
      free(l->v[i].srcline);
   }
   free(l->v);
   memset(l, 0, sizeof(*l));
}
