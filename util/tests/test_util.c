/* util: the random stream is fixed by its seed; diagnostics render with a caret. */
#include "util/test.h"
#include "util/util.h"

#include <stdlib.h>

static void
test_rng(void)
{
   struct rng a, b;
   rng_seed(&a, 42);
   rng_seed(&b, 42);
   for (int i = 0; i < 1000; i++)
      CHECK(rng_next(&a) == rng_next(&b));
   /* The stream must not change between releases: pin the first value. */
   rng_seed(&a, 1);
   CHECK_EQ_U(rng_next(&a), 0xb3f2af6d0fc710c5ull);
   for (int i = 0; i < 1000; i++)
      CHECK(rng_below(&a, 7) < 7);
}

static void
test_diag(void)
{
   struct diag_list l = {0};
   const char *src = "FRAG\n  FOO TEMP[0]\nEND\n";
   diag_add(&l, DIAG_ERROR, "x.tgsi", 2, 3, src + 5, "unknown opcode '%s'", "FOO");
   diag_add(&l, DIAG_WARNING, "x.tgsi", 0, 0, NULL, "plain");
   CHECK(l.nerrors == 1 && l.nwarnings == 1);
   char *r = diag_render(&l.v[0], false);
   CHECKF(!strcmp(r, "x.tgsi:2:3: error: unknown opcode 'FOO'\n    FOO TEMP[0]\n    ^\n"), "%s", r);
   free(r);
   r = diag_render(&l.v[1], false);
   CHECK(!strcmp(r, "x.tgsi: warning: plain\n"));
   free(r);
   CHECK(!strcmp(diag_first_error(&l), "unknown opcode 'FOO'"));
   diag_clear(&l);
   CHECK(l.n == 0);
}

/* A long line is echoed only around the column, with the caret under it. */
static void
test_diag_long_line(void)
{
   size_t n = 100000;
   char *src = xmalloc(n + 2);
   memset(src, 'A', n);
   memcpy(src + 50000, "BAD", 3);
   src[n] = '\n';
   src[n + 1] = 0;
   struct diag_list l = {0};
   diag_add(&l, DIAG_ERROR, "x.tgsi", 1, 50001, src, "here");
   diag_add(&l, DIAG_ERROR, "x.tgsi", 1, 3, src, "start");
   diag_add(&l, DIAG_ERROR, "x.tgsi", 1, (int)n + 1, src, "end");
   for (unsigned i = 0; i < l.n; i++) {
      char *r = diag_render(&l.v[i], false);
      CHECKF(strlen(r) < 2 * DIAG_LINE_MAX + 100, "%zu bytes", strlen(r));
      /* the caret line's '^' sits under the column's character */
      char *src_line = strchr(r, '\n') + 1, *caret_line = strchr(src_line, '\n') + 1;
      size_t at = (size_t)(strchr(caret_line, '^') - caret_line);
      const char *want = i == 0 ? "BAD" : i == 1 ? "A" : "...";
      CHECKF(i == 2 ? src_line[at] == '\n' : !strncmp(src_line + at, want, strlen(want)), "%u: %s",
             i, r);
      free(r);
   }
   CHECK(!strncmp(l.v[0].srcline, "...", 3) && strstr(l.v[0].srcline + 3, "..."));
   CHECK(strncmp(l.v[1].srcline, "...", 3) && strstr(l.v[1].srcline, "..."));
   CHECK(!strncmp(l.v[2].srcline, "...", 3));
   diag_clear(&l);
   free(src);
}

/* What a YAML reproducer can hold: UTF-8 text without NUL. */
static void
test_utf8_text(void)
{
   static const struct {
      const char *s;
      size_t len, good;
   } cases[] = {
       {"FRAG\n", 5, 5},
       {"a\xc3\xa9"
        "b",
        4, 4},                     /* e acute */
       {"a\xe2\x82\xac", 4, 4},    /* euro sign */
       {"\xf0\x9f\x98\x80", 4, 4}, /* 4-byte form */
       {"ab\0cd", 5, 2},           /* NUL */
       {"a\xe9"
        "b",
        3, 1},                     /* Latin-1 */
       {"\xc0\x80", 2, 0},         /* overlong NUL */
       {"\xe0\x80\x80", 3, 0},     /* overlong */
       {"\xed\xa0\x80", 3, 0},     /* surrogate */
       {"\xf4\x90\x80\x80", 4, 0}, /* past U+10FFFF */
       {"ab\xe2\x82", 4, 2},       /* cut short */
       {"\x80", 1, 0},             /* lone continuation */
       {"\xff\xfe", 2, 0},         /* UTF-16 BOM */
   };
   for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
      CHECKF(utf8_text_prefix(cases[i].s, cases[i].len) == cases[i].good, "case %u: %zu", i,
             utf8_text_prefix(cases[i].s, cases[i].len));
}

/* The JSON and XML escapes: markup, control characters, and bytes that
 * are not UTF-8 text, each in both forms. */
static void
test_escapes(void)
{
   static const struct {
      const char *s, *json, *xml, *xml_attr;
   } cases[] = {
       {"a<b>&\"c", "\"a<b>&\\\"c\"", "a&lt;b&gt;&amp;&quot;c", "a&lt;b&gt;&amp;&quot;c"},
       {"1\n2\t3\x01", "\"1\\n2\\t3\\u0001\"", "1\n2\t3?", "1&#10;2\t3?"},
       {"e\xc3\xa9\xe2\x82\xac", "\"e\xc3\xa9\xe2\x82\xac\"", "e\xc3\xa9\xe2\x82\xac",
        "e\xc3\xa9\xe2\x82\xac"},
       {"x\xe9y\xe2\x82", "\"x\\ufffdy\\ufffd\\ufffd\"", "x?y??", "x?y??"},
       {NULL, "\"\"", "", ""},
   };
   for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      const char *want[] = {cases[i].json, cases[i].xml, cases[i].xml_attr};
      for (unsigned k = 0; k < 3; k++) {
         struct strbuf b = {0};
         if (k == 0)
            strbuf_json_str(&b, cases[i].s);
         else
            strbuf_xml_str(&b, cases[i].s, k == 2);
         char *got = strbuf_take(&b);
         CHECKF(!strcmp(got, want[k]), "case %u form %u: %s", i, k, got);
         free(got);
      }
   }
}

int
main(void)
{
   test_rng();
   test_diag();
   test_utf8_text();
   test_diag_long_line();
   test_escapes();
   return test_done();
}
