/*
 * File-level TGSI cases:
 *  - fixtures/tgsi/bad/: every file must be rejected with its first error at
 *    the "# expect: LINE:COL: substring" of its first line;
 *  - fixtures/tgsi/good/ and captures/ (every .tgsi): must parse, print, parse back
 *    equal and print identically (a capture with "# expect:" is checked like
 *    a bad fixture instead). "# dialect:" lines choose the parser options.
 */
#include "compiler/tgsi/tests/fixture_util.h"
#include "util/test.h"

static void
check_bad(const char *path, const char *text, size_t len, const struct fixture_hdr *h)
{
   struct diag_list d = {0};
   struct tgsi_shader *s = tgsi_parse(text, len, path, &h->opts, &d);
   CHECKF(!s, "%s: accepted", path);
   const struct diag *e = NULL;
   for (unsigned i = 0; i < d.n; i++) {
      CHECKF(fixture_pos_ok(&d.v[i], text, len), "%s: position %d:%d outside the input", path,
             d.v[i].line, d.v[i].col);
      if (!e && d.v[i].sev == DIAG_ERROR)
         e = &d.v[i];
   }
   CHECKF(e && e->line == h->line && e->col == h->col && strstr(e->msg, h->msg),
          "%s:\n  want %d:%d: ...%s...\n  got  %d:%d: %s", path, h->line, h->col, h->msg,
          e ? e->line : 0, e ? e->col : 0, e ? e->msg : "(no error)");
   tgsi_shader_free(s);
   diag_clear(&d);
}

static void
check_good(const char *path, const char *text, size_t len, const struct fixture_hdr *h)
{
   struct diag_list d = {0};
   struct tgsi_shader *s = tgsi_parse(text, len, path, &h->opts, &d);
   CHECKF(s && d.nerrors == 0, "%s: rejected: %s", path,
          diag_first_error(&d) ? diag_first_error(&d) : "");
   for (unsigned i = 0; i < d.n; i++)
      CHECKF(fixture_pos_ok(&d.v[i], text, len), "%s: warning position %d:%d", path, d.v[i].line,
             d.v[i].col);
   diag_clear(&d);
   if (!s)
      return;
   char *p1 = tgsi_print(s);
   struct tgsi_shader *s2 = tgsi_parse(p1, strlen(p1), "print", &h->opts, &d);
   CHECKF(s2 && tgsi_shader_equal(s, s2), "%s: printed form parses %s:\n%s%s", path,
          s2 ? "differently" : "with an error", p1,
          diag_first_error(&d) ? diag_first_error(&d) : "");
   if (s2) {
      char *p2 = tgsi_print(s2);
      CHECKF(!strcmp(p1, p2), "%s: second print differs", path);
      free(p2);
   }
   diag_clear(&d);
   tgsi_shader_free(s2);
   tgsi_shader_free(s);
   free(p1);
}

/* Runs every file of dir; returns the number of files. */
static unsigned
run_dir(const char *dir, bool bad_dir)
{
   unsigned n;
   char **files = fixture_list(dir, &n);
   for (unsigned i = 0; i < n; i++) {
      char *text, *err;
      size_t len;
      if (!read_file(files[i], &text, &len, &err)) {
         CHECKF(false, "%s", err);
         free(err);
         continue;
      }
      struct fixture_hdr h = fixture_header(text, len);
      if (bad_dir)
         CHECKF(h.has_expect, "%s: no '# expect: LINE:COL: message' first line", files[i]);
      if (h.has_expect)
         check_bad(files[i], text, len, &h);
      else
         check_good(files[i], text, len, &h);
      free(text);
   }
   fixture_list_free(files, n);
   return n;
}

int
main(void)
{
   unsigned bad = run_dir(DC_SOURCE_DIR "/fixtures/tgsi/bad", true);
   unsigned good = run_dir(DC_SOURCE_DIR "/fixtures/tgsi/good", false);
   unsigned caps = run_dir(DC_SOURCE_DIR "/captures", false);
   /* Every era's forms, without a dialect line: detected, printed modern. */
   unsigned old = run_dir(DC_SOURCE_DIR "/fixtures/legacy", false);
   printf("%u bad fixtures, %u good fixtures, %u captures, %u legacy\n", bad, good, caps, old);
   CHECKF(old >= 10, "only %u legacy fixtures", old);
   CHECKF(bad >= 40, "only %u bad fixtures", bad);
   CHECKF(good >= 15, "only %u good fixtures", good);
   return test_done();
}
