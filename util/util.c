/*
 * Allocation wrappers and file reading. Running out of memory is not a
 * condition any caller can handle usefully, so the wrappers abort on it;
 * every other failure is returned to the caller.
 */
#include "util/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

void *
xmalloc(size_t n)
{
   void *p = malloc(n ? n : 1);
   if (!p)
      abort();
   return p;
}

void *
xcalloc(size_t n, size_t size)
{
   void *p = calloc(n ? n : 1, size ? size : 1);
   if (!p)
      abort();
   return p;
}

void *
xrealloc(void *p, size_t n)
{
   p = realloc(p, n ? n : 1);
   if (!p)
      abort();
   return p;
}

char *
xstrndup(const char *s, size_t n)
{
   char *r = xmalloc(n + 1);
   memcpy(r, s, n);
   r[n] = 0;
   return r;
}

char *
xstrdup(const char *s)
{
   return xstrndup(s, strlen(s));
}

char *
xvasprintf(const char *fmt, va_list ap)
{
   va_list ap2;
   va_copy(ap2, ap);
   int n = vsnprintf(NULL, 0, fmt, ap2);
   va_end(ap2);
   if (n < 0)
      return xstrdup(fmt);
   char *s = xmalloc((size_t)n + 1);
   vsnprintf(s, (size_t)n + 1, fmt, ap);
   return s;
}

char *
xasprintf(const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   char *s = xvasprintf(fmt, ap);
   va_end(ap);
   return s;
}

/* Reads a whole file and NUL-terminates it. On failure *err gets a message
 * the caller frees. */
bool
read_file(const char *path, char **text, size_t *len, char **err)
{
   FILE *f = fopen(path, "rb");
   if (!f) {
      *err = xasprintf("%s: %s", path, strerror(errno));
      return false;
   }
   size_t cap = 4096, n = 0;
   char *buf = xmalloc(cap);
   for (;;) {
      if (n + 1 >= cap) {
         cap *= 2;
         buf = xrealloc(buf, cap);
      }
      size_t got = fread(buf + n, 1, cap - n - 1, f);
      n += got;
      if (got == 0)
         break;
   }
   bool bad = ferror(f);
   fclose(f);
   if (bad) {
      free(buf);
      *err = xasprintf("%s: read error", path);
      return false;
   }
   buf[n] = 0;
   *text = buf;
   if (len)
      *len = n;
   return true;
}
