/*
 * The agx machine-pass verifier (compiler/opt/opt_agx_verify.c):
 *
 *   - quiet on correct code: every capture the agx optimizing path
 *     compiles still compiles with validation on (no false positive);
 *   - it catches injected bugs at compile time, naming the pass: each
 *     agx fault of the half and wait passes, on a shader where it fires,
 *     makes the validated compile fail with the pass's name, while the
 *     same compile without validation succeeds (the bug is then only
 *     seen at run time).
 */
#include "compiler/compiler.h"
#include "compiler/ir/ir.h"
#include "util/test.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static struct tgsi_shader *
load(const char *path)
{
   char *text = NULL, *err = NULL;
   size_t len;
   struct tgsi_shader *s = NULL;
   struct diag_list d = {0};
   if (read_file(path, &text, &len, &err)) {
      struct tgsi_parse_opts po = {0};
      s = tgsi_parse(text, len, path, &po, &d);
      free(text);
   }
   free(err);
   diag_clear(&d);
   CHECKF(s != NULL, "%s does not parse", path);
   return s;
}

/* opt_compile on agx; *msg (caller frees) gets the first diagnostic. */
static enum compile_status
compile(const struct tgsi_shader *s, const struct isa_model *m, const char *fault, bool validate,
        char **msg)
{
   struct opt_options o = {.bisect_limit = -1, .validate = validate};
   struct diag_list d = {0};
   if (fault)
      CHECK(opt_fault_parse(fault, &o.faults, &d));
   struct emu_program p = {0};
   enum compile_status cs = opt_compile(s, m, &o, &p, NULL, NULL, &d);
   if (msg)
      *msg = d.n ? xstrdup(d.v[0].msg) : xstrdup("");
   emu_program_free(&p);
   diag_clear(&d);
   return cs;
}

static void
test_quiet(const struct isa_model *m)
{
   DIR *dd = opendir("captures");
   CHECK(dd != NULL);
   unsigned ok = 0;
   for (struct dirent *e; dd && (e = readdir(dd));) {
      size_t l = strlen(e->d_name);
      if (l < 6 || strcmp(e->d_name + l - 5, ".tgsi"))
         continue;
      char *path = xasprintf("captures/%s", e->d_name), *msg;
      struct tgsi_shader *s = load(path);
      if (s && compile(s, m, NULL, false, NULL) == COMPILE_OK) {
         CHECKF(compile(s, m, NULL, true, &msg) == COMPILE_OK, "%s: %s", path, msg);
         free(msg);
         ok++;
      }
      tgsi_shader_free(s);
      free(path);
   }
   if (dd)
      closedir(dd);
   CHECKF(ok >= 40, "only %u captures compile on agx", ok);
}

static void
test_caught(const struct isa_model *m)
{
   static const struct {
      const char *fault, *pass;
   } cases[] = {
       {"agx-wait-missing", "after pass wait"},
       {"agx-wait-wrong-slot", "after pass wait"},
       {"agx-half-clobber", "after pass half"},
       {"agx-pack-full", "after pass half"},
   };
   struct tgsi_shader *s = load("captures/cs_pack_convert.tgsi");
   for (unsigned k = 0; k < ARRAY_SIZE(cases) && s; k++) {
      char *msg;
      CHECKF(compile(s, m, cases[k].fault, false, NULL) == COMPILE_OK, "%s: compiles unvalidated",
             cases[k].fault);
      enum compile_status cs = compile(s, m, cases[k].fault, true, &msg);
      CHECKF(cs == COMPILE_ERROR && strstr(msg, "agx verifier") && strstr(msg, cases[k].pass),
             "%s: status %d, '%s'", cases[k].fault, (int)cs, msg);
      free(msg);
   }
   tgsi_shader_free(s);
}

int
main(void)
{
   struct diag_list d = {0};
   struct isa_model *m = NULL;
   CHECK(isa_open("agx", &m, &d) == ISA_ERR_OK);
   diag_clear(&d);
   if (m) {
      test_caught(m);
      test_quiet(m);
   }
   isa_close(m);
   return test_done();
}
