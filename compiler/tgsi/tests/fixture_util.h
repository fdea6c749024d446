/*
 * Helpers shared by the TGSI fixture tests: list a directory's *.tgsi files
 * in sorted order and read the header comments a fixture may carry:
 *
 *   # expect: LINE:COL: message substring    (a file that must be rejected)
 *   # dialect: legacy hex-bits               (parser options; either or both)
 */
#ifndef DC_TGSI_FIXTURE_UTIL_H
#define DC_TGSI_FIXTURE_UTIL_H

#include "compiler/tgsi/tgsi.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>

struct fixture_hdr {
   struct tgsi_parse_opts opts;
   bool has_expect;
   int line, col;
   char msg[256];
};

static int
fixture_cmp(const void *a, const void *b)
{
   return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted paths "dir/name.tgsi"; *n gets the count. Missing dir: none. */
static char **
fixture_list(const char *dir, unsigned *n)
{
   char **v = NULL;
   unsigned cap = 0;
   *n = 0;
   DIR *d = opendir(dir);
   if (!d)
      return NULL;
   struct dirent *e;
   while ((e = readdir(d))) {
      size_t len = strlen(e->d_name);
      if (len > 5 && !strcmp(e->d_name + len - 5, ".tgsi")) {
         char *p = xasprintf("%s/%s", dir, e->d_name);
         VEC_PUSH(v, *n, cap, p);
      }
   }
   closedir(d);
   if (*n)
      qsort(v, *n, sizeof(*v), fixture_cmp);
   return v;
}

static void
fixture_list_free(char **v, unsigned n)
{
   for (unsigned i = 0; i < n; i++)
      free(v[i]);
   free(v);
}

/* Reads "# expect:" and "# dialect:" from the leading comment lines. */
static struct fixture_hdr
fixture_header(const char *text, size_t len)
{
   struct fixture_hdr h;
   memset(&h, 0, sizeof(h));
   const char *p = text, *end = text + len;
   while (p < end) {
      const char *nl = memchr(p, '\n', (size_t)(end - p));
      size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
      if (!n || p[0] != '#')
         break;
      char line[512];
      snprintf(line, sizeof(line), "%.*s", (int)MIN2(n, sizeof(line) - 1), p);
      line[strcspn(line, "\r")] = 0;
      int off = 0;
      if (sscanf(line, "# expect: %d:%d: %n", &h.line, &h.col, &off) == 2 && off > 0) {
         h.has_expect = true;
         snprintf(h.msg, sizeof(h.msg), "%s", line + off);
      }
      p += n + 1;
   }
   tgsi_read_dialect(text, len, &h.opts);
   return h;
}

/* Whether a diagnostic's position lies inside the text (or just past its
 * end), with a source line when it has a position. */
static bool
fixture_pos_ok(const struct diag *d, const char *text, size_t len)
{
   if (d->line == 0)
      return d->col == 0;
   int line = 1;
   const char *ls = text;
   for (size_t i = 0; i < len && line < d->line; i++)
      if (text[i] == '\n')
         line++, ls = text + i + 1;
   if (line != d->line)
      return false;
   size_t width = 0;
   while (ls + width < text + len && ls[width] != '\n')
      width++;
   return d->col >= 1 && (size_t)d->col <= width + 1 && d->srcline != NULL;
}

#endif
