/*
 * Expected-output fixtures of the reference compiler: for every model
 * directory fixtures/ref/<model>/, each NAME.tgsi compiles to exactly the
 * disassembly and figures in NAME.expect (the text `diffcomp compile
 * --stats` prints), and each refused/NAME.tgsi is refused with the
 * diagnostic its "# expect: LINE:COL: message" header names.
 *
 * Set DIFFCOMP_UPDATE_FIXTURES=1 to rewrite the .expect files from the
 * current compiler (then review the diff).
 */
#include "compiler/compiler.h"
#include "compiler/tgsi/tests/fixture_util.h"
#include "isa/isa.h"
#include "util/test.h"

#include <stdlib.h>

/* Disassembly plus the stats line, as cmd_compile prints them. */
static char *
listing(const struct isa_model *m, const struct emu_program *p, const struct compile_stats *st)
{
   struct isa_insn *insns = NULL;
   size_t n = 0;
   struct diag_list d = {0};
   if (isa_decode_program(m, p->code, p->size, &insns, &n, &d) != ISA_ERR_OK) {
      diag_clear(&d);
      return xstrdup("<does not decode>\n");
   }
   char *out = xstrdup("");
   for (size_t i = 0; i < n; i++) {
      char buf[256];
      isa_print_insn(m, &insns[i], buf, sizeof(buf));
      char *t = xasprintf("%s%s%s\n", out, insns[i].illegal ? "ILLEGAL " : "", buf);
      free(out);
      out = t;
   }
   char *t = xasprintf("%s; ref %s: %u instructions, %u nops, %u registers, %llu cycles\n", out,
                       isa_model_name(m), st->instructions, st->nops, st->registers,
                       (unsigned long long)st->cycles);
   free(out);
   free(insns);
   return t;
}

static void
report_first_difference(const char *path, const char *got, const char *want)
{
   unsigned line = 1;
   while (*got && *got == *want) {
      line += *got == '\n';
      got++;
      want++;
   }
   fprintf(stderr, "%s: line %u differs:\n  got:  %.*s\n  want: %.*s\n", path, line,
           (int)strcspn(got, "\n"), got, (int)strcspn(want, "\n"), want);
}

static void
check_expect(const struct isa_model *m, const char *path, const char *text, size_t len)
{
   struct fixture_hdr h = fixture_header(text, len);
   struct diag_list d = {0};
   struct tgsi_shader *s = tgsi_parse(text, len, path, &h.opts, &d);
   CHECKF(s != NULL, "%s does not parse", path);
   if (!s) {
      diag_clear(&d);
      return;
   }
   struct emu_program p;
   struct compile_stats st;
   enum compile_status cs = ref_compile(s, m, &p, &st, &d);
   CHECKF(cs == COMPILE_OK, "%s: %s", path, diag_first_error(&d));
   if (cs == COMPILE_OK) {
      char *got = listing(m, &p, &st);
      char *epath = xasprintf("%.*sexpect", (int)(strlen(path) - 4), path);
      char *want = NULL, *err = NULL;
      size_t wlen;
      if (getenv("DIFFCOMP_UPDATE_FIXTURES")) {
         FILE *f = fopen(epath, "w");
         CHECKF(f != NULL, "cannot write %s", epath);
         if (f) {
            fputs(got, f);
            fclose(f);
         }
      } else if (!read_file(epath, &want, &wlen, &err)) {
         CHECKF(false, "%s", err);
         free(err);
      } else {
         bool same = !strcmp(got, want);
         CHECKF(same, "%s: the listing differs from %s", path, epath);
         if (!same)
            report_first_difference(path, got, want);
      }
      free(want);
      free(epath);
      free(got);
   }
   emu_program_free(&p);
   tgsi_shader_free(s);
   diag_clear(&d);
}

static void
check_refused(const struct isa_model *m, const char *path, const char *text, size_t len)
{
   struct fixture_hdr h = fixture_header(text, len);
   CHECKF(h.has_expect, "%s has no '# expect:' header", path);
   struct diag_list d = {0};
   struct tgsi_shader *s = tgsi_parse(text, len, path, &h.opts, &d);
   CHECKF(s != NULL, "%s does not parse", path);
   if (!s) {
      diag_clear(&d);
      return;
   }
   struct emu_program p;
   struct compile_stats st;
   CHECKF(ref_compile(s, m, &p, &st, &d) == COMPILE_UNSUPPORTED, "%s is not refused", path);
   bool found = false;
   for (unsigned i = 0; i < d.n; i++)
      found |= d.v[i].sev == DIAG_ERROR && d.v[i].line == h.line && d.v[i].col == h.col &&
               strstr(d.v[i].msg, h.msg);
   CHECKF(found, "%s: no error %d:%d: %s (first: %s)", path, h.line, h.col, h.msg,
          diag_first_error(&d));
   CHECK(p.code == NULL && p.nbinds == 0);
   emu_program_free(&p);
   tgsi_shader_free(s);
   diag_clear(&d);
}

static unsigned
run_dir(const struct isa_model *m, const char *dir, bool refused)
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
      if (refused)
         check_refused(m, files[i], text, len);
      else
         check_expect(m, files[i], text, len);
      free(text);
   }
   fixture_list_free(files, n);
   return n;
}

int
main(void)
{
   static const char *const models[] = {"a3xx", "sm50"};
   (void)fixture_pos_ok; /* diagnostics here carry no source line */
   for (unsigned k = 0; k < ARRAY_SIZE(models); k++) {
      struct isa_model *m = NULL;
      struct diag_list d = {0};
      if (isa_open(models[k], &m, &d) != ISA_ERR_OK) {
         printf("model %s not available: its fixtures are skipped\n", models[k]);
         diag_clear(&d);
         continue;
      }
      char *dir = xasprintf(DC_SOURCE_DIR "/fixtures/ref/%s", models[k]);
      char *rdir = xasprintf("%s/refused", dir);
      unsigned n = run_dir(m, dir, false), r = run_dir(m, rdir, true);
      printf("%s: %u listings, %u refusals\n", models[k], n, r);
      free(dir);
      free(rdir);
      isa_close(m);
   }
   return test_done();
}
