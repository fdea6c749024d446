/*
 * Diagnostics with a position and the source line, rendered chibicc-style:
 *
 *   file.tgsi:3:9: error: unknown opcode 'FOO'
 *     FOO TEMP[0], IN[0]
 *     ^
 */
#include "util/util.h"

#include <stdlib.h>

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
   };
   if (line_start) {
      size_t n = strcspn(line_start, "\r\n");
      d.srcline = xstrndup(line_start, n);
   }
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

/* Returns a malloc'd multi-line string ending in a newline. Tabs in the
 * source line are kept under the caret so it lines up in a terminal. */
char *
diag_render(const struct diag *d, bool color)
{
   const char *on = color ? sev_color[d->sev] : "";
   const char *off = color ? "\033[0m" : "";
   char *pos = d->line ? xasprintf("%s:%d:%d", d->file, d->line, d->col) : xstrdup(d->file);
   char *head = xasprintf("%s: %s%s:%s %s\n", pos, on, sev_name[d->sev], off, d->msg);
   free(pos);
   if (!d->srcline || d->col <= 0)
      return head;
   size_t w = strlen(d->srcline);
   size_t c = (size_t)d->col - 1 < w ? (size_t)d->col - 1 : w;
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
