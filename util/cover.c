/*
 * Coverage counters: named points, a kind ("transform", "hazard-rule", ...)
 * and a name, counted while counting is on. `check --coverage` turns it on
 * around each optimizing compile and carries the counts of every case back
 * with its result, so the totals do not depend on the workers.
 *
 * Off (the default) a hit costs one test of cover_on. The table is
 * per process: the check's workers each count their own cases.
 */
#include "util/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool cover_on;

static struct {
   struct cover_point *v;
   size_t n, cap;
   size_t *slot; /* open addressing over v, index + 1; 0 = free */
   size_t nslot;
} tab;

static uint64_t
key_hash(const char *kind, const char *name)
{
   return hash64(name, strlen(name), hash64(kind, strlen(kind), 0x9e3779b97f4a7c15ull));
}

static size_t *
find_slot(const char *kind, const char *name, uint64_t h)
{
   for (size_t i = h & (tab.nslot - 1);; i = (i + 1) & (tab.nslot - 1)) {
      size_t *s = &tab.slot[i];
      if (!*s || (!strcmp(tab.v[*s - 1].kind, kind) && !strcmp(tab.v[*s - 1].name, name)))
         return s;
   }
}

static struct cover_point *
point(const char *kind, const char *name)
{
   if (2 * (tab.n + 1) > tab.nslot) {
      free(tab.slot);
      tab.nslot = tab.nslot ? 2 * tab.nslot : 256;
      tab.slot = xcalloc(tab.nslot, sizeof(size_t));
      for (size_t i = 0; i < tab.n; i++)
         *find_slot(tab.v[i].kind, tab.v[i].name, key_hash(tab.v[i].kind, tab.v[i].name)) = i + 1;
   }
   size_t *s = find_slot(kind, name, key_hash(kind, name));
   if (!*s) {
      VEC_PUSH(tab.v, tab.n, tab.cap, ((struct cover_point){xstrdup(kind), xstrdup(name), 0}));
      *s = tab.n;
   }
   return &tab.v[*s - 1];
}

void
cover_hit(const char *kind, const char *fmt, ...)
{
   if (!cover_on)
      return;
   va_list ap;
   va_start(ap, fmt);
   char *name = xvasprintf(fmt, ap);
   va_end(ap);
   point(kind, name)->count++;
   free(name);
}

void
cover_declare(const char *kind, const char *name)
{
   point(kind, name);
}

void
cover_add(const char *kind, const char *name, uint64_t count)
{
   point(kind, name)->count += count;
}

void
cover_reset(void)
{
   for (size_t i = 0; i < tab.n; i++) {
      free(tab.v[i].kind);
      free(tab.v[i].name);
   }
   free(tab.v);
   free(tab.slot);
   memset(&tab, 0, sizeof(tab));
}

size_t
cover_count(void)
{
   return tab.n;
}

const struct cover_point *
cover_get(size_t i)
{
   return i < tab.n ? &tab.v[i] : NULL;
}

char *
cover_dump(void)
{
   size_t len = 1;
   for (size_t i = 0; i < tab.n; i++)
      len += strlen(tab.v[i].kind) + strlen(tab.v[i].name) + 24;
   char *out = xmalloc(len), *p = out;
   *p = 0;
   for (size_t i = 0; i < tab.n; i++)
      if (tab.v[i].count)
         p += sprintf(p, "%s\t%s\t%llu\n", tab.v[i].kind, tab.v[i].name,
                      (unsigned long long)tab.v[i].count);
   return out;
}

void
cover_load(const char *text)
{
   for (const char *p = text; p && *p;) {
      const char *t1 = strchr(p, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
      const char *nl = strchr(p, '\n');
      if (!t1 || !t2 || !nl || t2 > nl)
         return;
      char *kind = xstrndup(p, (size_t)(t1 - p)), *name = xstrndup(t1 + 1, (size_t)(t2 - t1 - 1));
      cover_add(kind, name, strtoull(t2 + 1, NULL, 10));
      free(kind);
      free(name);
      p = nl + 1;
   }
}
