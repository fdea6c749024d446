/*
 * Allocation wrappers and file reading. Running out of memory is not a
 * condition any caller can handle usefully, so the wrappers abort on it;
 * every other failure is returned to the caller. Input files must be
 * regular files of at most DC_MAX_FILE_SIZE bytes (util.h).
 */
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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

/* n bytes at a multiple of align (a power of two, at least sizeof(void *)),
 * for arrays whose elements should each sit in one cache line; free()
 * releases them. */
void *
xaligned_alloc(size_t align, size_t n)
{
   n = (n ? n : 1) + align - 1;
   void *p = aligned_alloc(align, n - n % align);
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

/* Reads a whole regular file into a NUL-terminated buffer; on failure
 * *why gets the reason alone (no path), malloc'd. The file is opened
 * non-blocking so that a FIFO without a writer is refused at once instead
 * of hanging in open(); directories, devices, FIFOs and sockets are refused
 * by fstat, and so is anything larger than DC_MAX_FILE_SIZE, both from its
 * stat size and while reading (a file may grow, or stat may say 0). */
static bool
read_regular(const char *path, char **text, size_t *len, char **why)
{
   int fd = open(path, O_RDONLY | O_NONBLOCK);
   if (fd < 0) {
      *why = xstrdup(strerror(errno));
      return false;
   }
   struct stat st;
   if (fstat(fd, &st) != 0) {
      *why = xstrdup(strerror(errno));
      close(fd);
      return false;
   }
   if (!S_ISREG(st.st_mode)) {
      *why = xstrdup(S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
      close(fd);
      return false;
   }
   if (st.st_size > (off_t)DC_MAX_FILE_SIZE) {
      *why = xasprintf("file too large (%lld bytes, the limit is %u MiB)", (long long)st.st_size,
                       DC_MAX_FILE_SIZE >> 20);
      close(fd);
      return false;
   }
   size_t cap = (size_t)st.st_size + 4096, n = 0;
   char *buf = xmalloc(cap);
   for (;;) {
      if (n + 1 >= cap) {
         cap *= 2;
         buf = xrealloc(buf, cap);
      }
      ssize_t got = read(fd, buf + n, cap - n - 1);
      if (got < 0 && errno == EINTR)
         continue;
      if (got < 0) {
         *why = xasprintf("read error: %s", strerror(errno));
         break;
      }
      if (got == 0) {
         close(fd);
         buf[n] = 0;
         *text = buf;
         if (len)
            *len = n;
         return true;
      }
      n += (size_t)got;
      if (n > DC_MAX_FILE_SIZE) {
         *why = xasprintf("file too large (over the limit of %u MiB)", DC_MAX_FILE_SIZE >> 20);
         break;
      }
   }
   close(fd);
   free(buf);
   return false;
}

/* On failure *err gets "PATH: reason", for a tool to print. */
bool
read_file(const char *path, char **text, size_t *len, char **err)
{
   char *why = NULL;
   if (read_regular(path, text, len, &why))
      return true;
   *err = xasprintf("%s: %s", path, why);
   free(why);
   return false;
}

/* On failure the reason goes to d (if not NULL) as an error positioned at
 * the file itself, so it renders "PATH: error: reason". */
bool
read_file_diag(const char *path, char **text, size_t *len, struct diag_list *d)
{
   char *why = NULL;
   if (read_regular(path, text, len, &why))
      return true;
   if (d)
      diag_add(d, DIAG_ERROR, path, 0, 0, NULL, "%s", why);
   free(why);
   return false;
}

double
now_seconds(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

bool
comma_list_has(const char *list, const char *name)
{
   size_t n = strlen(name);
   for (const char *p = list; *p;) {
      size_t k = strcspn(p, ",");
      if (k == n && !strncmp(p, name, n))
         return true;
      p += k + (p[k] == ',');
   }
   return false;
}

size_t
utf8_text_prefix(const char *s, size_t len)
{
   const unsigned char *p = (const unsigned char *)s;
   size_t i = 0;
   while (i < len) {
      unsigned c = p[i];
      unsigned n = c < 0x80                 ? 0 /* n: continuation bytes that follow */
                   : c >= 0xc2 && c <= 0xdf ? 1
                   : (c & 0xf0) == 0xe0     ? 2
                   : c >= 0xf0 && c <= 0xf4 ? 3
                                            : 4; /* never a lead byte */
      if (c == 0 || n == 4 || len - i <= n)
         return i;
      unsigned cp = n ? c & (0x3f >> n) : c;
      for (unsigned k = 1; k <= n; k++) {
         if ((p[i + k] & 0xc0) != 0x80)
            return i;
         cp = cp << 6 | (p[i + k] & 0x3f);
      }
      if ((n == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
          (n == 3 && (cp < 0x10000 || cp > 0x10ffff)))
         return i;
      i += n + 1;
   }
   return i;
}

void
strbuf_vprintf(struct strbuf *b, const char *fmt, va_list ap)
{
   va_list ap2;
   va_copy(ap2, ap);
   int k = vsnprintf(NULL, 0, fmt, ap2);
   va_end(ap2);
   if (k < 0)
      return;
   VEC_RESERVE(b->s, b->cap, b->n + (size_t)k + 1);
   vsnprintf(b->s + b->n, (size_t)k + 1, fmt, ap);
   b->n += (size_t)k;
}

void
strbuf_printf(struct strbuf *b, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   strbuf_vprintf(b, fmt, ap);
   va_end(ap);
}

void
strbuf_add(struct strbuf *b, const char *str)
{
   size_t k = strlen(str);
   VEC_RESERVE(b->s, b->cap, b->n + k + 1);
   memcpy(b->s + b->n, str, k + 1);
   b->n += k;
}

char *
strbuf_take(struct strbuf *b)
{
   return b->s ? b->s : xstrdup("");
}

/* Appends the UTF-8 sequence at *p (a byte >= 0x80 of a NUL-terminated
 * string) and leaves *p at its last byte; false, appending nothing, when
 * no valid sequence starts there. */
static bool
add_utf8_seq(struct strbuf *b, const unsigned char **p)
{
   size_t n = 1;
   while (n < 4 && (*p)[n] && ((*p)[n] & 0xc0) == 0x80)
      n++;
   while (n > 1 && utf8_text_prefix((const char *)*p, n) != n)
      n--;
   if (n == 1)
      return false;
   strbuf_printf(b, "%.*s", (int)n, (const char *)*p);
   *p += n - 1;
   return true;
}

void
strbuf_json_str(struct strbuf *b, const char *s)
{
   strbuf_printf(b, "\"");
   for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
      if (*p == '"' || *p == '\\')
         strbuf_printf(b, "\\%c", *p);
      else if (*p == '\n')
         strbuf_printf(b, "\\n");
      else if (*p == '\t')
         strbuf_printf(b, "\\t");
      else if (*p < 0x20)
         strbuf_printf(b, "\\u%04x", *p);
      else if (*p < 0x80)
         strbuf_printf(b, "%c", *p);
      else if (!add_utf8_seq(b, &p))
         strbuf_printf(b, "\\ufffd"); /* JSON is UTF-8: a stray byte is replaced */
   }
   strbuf_printf(b, "\"");
}

void
strbuf_xml_str(struct strbuf *b, const char *s, bool in_attr)
{
   for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
      if (*p == '<')
         strbuf_printf(b, "&lt;");
      else if (*p == '>')
         strbuf_printf(b, "&gt;");
      else if (*p == '&')
         strbuf_printf(b, "&amp;");
      else if (*p == '"')
         strbuf_printf(b, "&quot;");
      else if (*p == '\n')
         strbuf_printf(b, in_attr ? "&#10;" : "\n");
      else if (*p < 0x20 && *p != '\t')
         strbuf_printf(b, "?"); /* XML 1.0 has no other control characters */
      else if (*p < 0x80)
         strbuf_printf(b, "%c", *p);
      else if (!add_utf8_seq(b, &p))
         strbuf_printf(b, "?"); /* the document says UTF-8: a stray byte is '?' */
   }
}
