/*
 * The TGSI -> LLVM IR translator over the captures (compiler/llvm):
 *  - every capture either translates, with a header naming its stage and
 *    as many argument lines as the function has arguments, or is refused
 *    with an "llvm:" reason at a position;
 *  - fixtures/llvm-amdgpu/captures.txt says which (capture: translated, or
 *    the refusal): a translator change that loses a capture, or gains one,
 *    shows here (DIFFCOMP_LLVM_FIXTURE=FILE writes the table anew);
 *  - with llc installed (CI installs Debian's llvm), every translation
 *    compiles with llc -O2 -march=amdgcn -mcpu=gfx900 (an llc error is a
 *    translator bug: invalid IR), and llc's assembly converts into an
 *    emulator program; the programs the gfx9 model assembles are counted.
 */
#include "compiler/llvm/llvm.h"
#include "emu/emu.h"
#include "isa/isa.h"
#include "util/test.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define CAP_DIR DC_SOURCE_DIR "/captures"
#define TABLE   DC_SOURCE_DIR "/fixtures/llvm-amdgpu/captures.txt"

static int
cmp_str(const void *a, const void *b)
{
   return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted paths of dir's *.tgsi files. */
static char **
list_tgsi(const char *dir, unsigned *n)
{
   char **v = NULL;
   unsigned cap = 0;
   *n = 0;
   DIR *d = opendir(dir);
   struct dirent *e;
   while (d && (e = readdir(d))) {
      size_t len = strlen(e->d_name);
      if (len > 5 && !strcmp(e->d_name + len - 5, ".tgsi")) {
         char *p = xasprintf("%s/%s", dir, e->d_name);
         VEC_PUSH(v, *n, cap, p);
      }
   }
   if (d)
      closedir(d);
   if (*n)
      qsort(v, *n, sizeof(*v), cmp_str);
   return v;
}

static unsigned
count_lines(const char *s, const char *prefix)
{
   unsigned n = 0;
   for (const char *p = s; (p = strstr(p, prefix)); p++)
      n++;
   return n;
}

static unsigned
count_args(const char *ir)
{
   const char *d = strstr(ir, "@main(");
   if (!d || d[6] == ')')
      return 0;
   unsigned n = 1;
   for (const char *p = d; *p && *p != ')'; p++)
      n += *p == ',';
   return n;
}

/* llc on ir; its assembly (caller frees) or NULL. */
static char *
llc(const char *ir, char **err)
{
   char dir[] = "/tmp/dc_llvm_XXXXXX";
   if (!mkdtemp(dir))
      return NULL;
   char *ll = xasprintf("%s/in.ll", dir), *s = xasprintf("%s/out.s", dir),
        *e = xasprintf("%s/err", dir);
   FILE *f = fopen(ll, "w");
   char *text = NULL, *msg = NULL;
   size_t len;
   if (f) {
      fputs(ir, f);
      fclose(f);
      char *cmd = xasprintf("llc -O2 -march=amdgcn -mcpu=gfx900 %s -o %s 2>%s", ll, s, e);
      if (system(cmd) == 0)
         read_file(s, &text, &len, &msg);
      else if (!read_file(e, err, &len, &msg))
         *err = xstrdup("llc failed");
      free(cmd);
   }
   free(msg);
   remove(ll);
   remove(s);
   remove(e);
   rmdir(dir);
   free(ll);
   free(s);
   free(e);
   return text;
}

int
main(void)
{
   unsigned n;
   char **files = list_tgsi(CAP_DIR, &n);
   CHECK(n >= 64);
   bool have_llc = system("llc --version > /dev/null 2>&1") == 0;
   if (!have_llc)
      printf("llc not found: translations are not compiled (CI installs the llvm package)\n");
   struct isa_model *m = NULL;
   struct diag_list md = {0};
   CHECK(isa_open("gfx9", &m, &md) == ISA_ERR_OK);
   diag_clear(&md);
   char *table = NULL, *terr = NULL;
   size_t tlen;
   CHECKF(read_file(TABLE, &table, &tlen, &terr), "%s", terr ? terr : "");
   const char *write = getenv("DIFFCOMP_LLVM_FIXTURE");
   FILE *w = write ? fopen(write, "w") : NULL;
   if (w)
      fprintf(w, "# The captures through diffcomp's TGSI -> LLVM IR translator\n"
                 "# (compiler/llvm/tests/test_llvm_captures.c): translated, or the refusal.\n");
   unsigned translated = 0, compiled = 0, converted = 0, assembled = 0;
   for (unsigned i = 0; i < n; i++) {
      struct diag_list d = {0};
      struct tgsi_shader *s = tgsi_parse_file(files[i], &(struct tgsi_parse_opts){0}, &d);
      CHECKF(s, "%s does not parse", files[i]);
      if (!s)
         continue;
      diag_clear(&d);
      char *ir = llvm_from_tgsi(s, &d);
      const char *base = strrchr(files[i], '/') + 1;
      char *line;
      if (ir) {
         translated++;
         CHECKF(strstr(ir, "; diffcomp-llvm: stage "), "%s: no stage line", base);
         CHECKF(count_lines(ir, "; diffcomp-llvm: arg ") == count_args(ir),
                "%s: %u argument lines for %u arguments", base,
                count_lines(ir, "; diffcomp-llvm: arg "), count_args(ir));
         line = xasprintf("%s: translated", base);
      } else {
         const char *e = diag_first_error(&d);
         CHECKF(e && strstr(e, "llvm: "), "%s: refused without a reason", base);
         const char *r = e ? strstr(e, "llvm: ") : NULL;
         line = xasprintf("%s: %s", base, r ? r + 6 : "?");
      }
      if (w)
         fprintf(w, "%s\n", line);
      else
         CHECKF(table && strstr(table, line), "not in %s: '%s'", TABLE, line);
      free(line);
      if (ir && have_llc) {
         char *err = NULL, *as = llc(ir, &err);
         CHECKF(as, "%s: llc failed: %.300s", base, err ? err : "");
         free(err);
         if (as) {
            compiled++;
            struct diag_list cd = {0};
            char *prog = llvm_asm_to_program(ir, as, base, &cd);
            if (prog) {
               converted++;
               struct emu_asm a = {0};
               struct diag_list ad = {0};
               if (m && emu_asm_parse(m, prog, base, &a, &ad))
                  assembled++;
               emu_asm_free(&a);
               diag_clear(&ad);
            }
            diag_clear(&cd);
            free(prog);
            free(as);
         }
      }
      free(ir);
      diag_clear(&d);
      tgsi_shader_free(s);
   }
   printf("captures: %u, translated %u, compiled by llc %u, converted %u, assembled by the "
          "gfx9 model %u\n",
          n, translated, compiled, converted, assembled);
   if (w)
      fclose(w);
   free(table);
   free(terr);
   isa_close(m);
   for (unsigned i = 0; i < n; i++)
      free(files[i]);
   free(files);
   return test_done();
}
