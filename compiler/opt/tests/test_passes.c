/*
 * Runs every pass fixture: fixtures/passes/<pass>/NAME.ir. A file holds cases
 *
 *   === case-name [option ...]
 *   <input IR>
 *   ---
 *   <expected IR>
 *
 * Lines before the first "===" are comments. The pass run is the
 * directory's name unless the options say passes=a,b. Options: inexact,
 * ffma (opt_options fields), passes=LIST, noeval. Both sides are validated,
 * renumbered and printed, then compared as text. For exact cases (no
 * inexact, no ffma) the input and the result also run in the IR evaluator
 * on random inputs, and their outputs must match bit for bit (any NaN
 * matches any NaN).
 */
#include "compiler/ir/ir.h"
#include "util/test.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>

static unsigned ncases;

static struct ir_shader *
parse_part(const char *path, const char *text, size_t len, int line)
{
   struct diag_list d = {0};
   struct ir_shader *sh = ir_parse(text, len, path, line, &d);
   if (sh && !ir_validate(sh, NULL, &d)) {
      ir_shader_free(sh);
      sh = NULL;
   }
   if (!sh) {
      char *r = d.n ? diag_render(&d.v[0], false) : xstrdup("?");
      CHECKF(false, "%s:%d: bad fixture IR:\n%s", path, line, r);
      free(r);
   }
   diag_clear(&d);
   return sh;
}

static char *
canonical(struct ir_shader *sh)
{
   ir_renumber(sh);
   return ir_print(sh);
}

static uint32_t
random_word(struct rng *r)
{
   static const uint32_t special[] = {0,           0x80000000u, 0x3f800000u, 0xbf800000u,
                                      0x7f800000u, 0xff800000u, 0x7fc00000u, 0x40000000u,
                                      0x3f000000u, 1,           2,           0xffffffffu,
                                      31,          32,          0x00000001u, 0x80000001u};
   switch (rng_below(r, 4)) {
   case 0:
      return special[rng_below(r, ARRAY_SIZE(special))];
   case 1:
      return rng_below(r, 16);
   case 2:
      return fui((float)((int)rng_below(r, 2001) - 1000) / 8.0f);
   default:
      return rng_u32(r);
   }
}

static bool
same_bits(uint32_t a, uint32_t b)
{
   return a == b || (is_nan_bits(a) && is_nan_bits(b));
}

/* Runs both shaders on random inputs; false if they disagree. Cases the
 * evaluator cannot run (textures, ...) are not compared. */
static void
check_equivalent(const char *where, const struct ir_shader *a, const struct ir_shader *b)
{
   struct rng r;
   rng_seed(&r, 1234);
   for (int run = 0; run < 16; run++) {
      struct ir_eval_env *ea = xcalloc(1, sizeof(*ea));
      for (int s = 0; s < 8; s++)
         for (int c = 0; c < 4; c++) {
            ea->inputs[s][c] = random_word(&r);
            ea->consts[0][s][c] = random_word(&r);
         }
      for (int s = 0; s < TGSI_SEM_COUNT; s++)
         ea->sysvals[s][0] = random_word(&r);
      struct ir_eval_env *eb = xmalloc(sizeof(*eb));
      *eb = *ea;
      struct diag_list d = {0};
      bool oka = ir_eval(a, ea, &d);
      bool okb = oka && ir_eval(b, eb, &d);
      if (oka) {
         CHECKF(okb, "%s: result cannot run: %s", where, diag_first_error(&d));
         bool same = ea->killed == eb->killed;
         for (int s = 0; s < IR_EVAL_SLOTS; s++) {
            same &= ea->written[s] == eb->written[s];
            for (int c = 0; c < 4; c++)
               same &= same_bits(ea->outputs[s][c], eb->outputs[s][c]);
         }
         CHECKF(same, "%s: outputs differ on random input run %d", where, run);
      }
      diag_clear(&d);
      free(ea);
      free(eb);
      if (!oka)
         return;
   }
}

static void
run_case(const char *path, const char *pass, const char *header, const char *in, size_t inlen,
         int inline_, const char *exp, size_t explen, int expline)
{
   ncases++;
   char name[128] = "", passes[128];
   snprintf(passes, sizeof(passes), "%s", pass);
   struct opt_options o = {0};
   bool eval = true;
   const char *p = header + strspn(header, " \t");
   for (int i = 0; *p; i++) {
      size_t k = strcspn(p, " \t\n");
      char w[128];
      snprintf(w, sizeof(w), "%.*s", (int)k, p);
      if (i == 0)
         snprintf(name, sizeof(name), "%s", w);
      else if (!strcmp(w, "inexact"))
         o.inexact = true, eval = false;
      else if (!strcmp(w, "ffma"))
         o.fuse_ffma = true, eval = false;
      else if (!strcmp(w, "noeval"))
         eval = false;
      else if (!strncmp(w, "passes=", 7))
         snprintf(passes, sizeof(passes), "%s", w + 7);
      else if (k)
         CHECKF(false, "%s: case %s: unknown option '%s'", path, name, w);
      p += k;
      p += strspn(p, " \t\n");
   }
   o.passes = passes;
   o.validate = true;
   char where[300];
   snprintf(where, sizeof(where), "%s: case %s", path, name);

   struct ir_shader *sh = parse_part(path, in, inlen, inline_);
   struct ir_shader *orig = parse_part(path, in, inlen, inline_);
   struct ir_shader *want = parse_part(path, exp, explen, expline);
   if (sh && orig && want) {
      struct diag_list d = {0};
      struct opt_ctx ctx;
      opt_ctx_init(&ctx, &o, &d);
      bool ok = opt_run(sh, &ctx);
      CHECKF(ok, "%s: %s", where, diag_first_error(&d));
      if (ok) {
         char *got = canonical(sh), *w = canonical(want);
         CHECKF(!strcmp(got, w), "%s: got\n%s\nexpected\n%s", where, got, w);
         free(got);
         free(w);
         if (eval)
            check_equivalent(where, orig, sh);
      }
      opt_ctx_fini(&ctx);
      diag_clear(&d);
   }
   ir_shader_free(sh);
   ir_shader_free(orig);
   ir_shader_free(want);
}

/* Splits one fixture file into cases. */
static void
run_file(const char *path, const char *pass)
{
   char *text, *err;
   size_t len;
   if (!read_file(path, &text, &len, &err)) {
      CHECKF(false, "%s", err);
      free(err);
      return;
   }
   char *p = strstr(text, "===");
   int line = 1;
   for (char *q = text; q < p; q++)
      line += *q == '\n';
   while (p) {
      char *hdr = p + 3, *eol = strchr(hdr, '\n');
      if (!eol)
         break;
      *eol = 0;
      char *in = eol + 1, *sep = strstr(in, "\n---\n"), *next = strstr(in, "\n===");
      int inline_ = line + 1;
      if (!sep || (next && next < sep)) {
         CHECKF(false, "%s:%d: case without '---' separator", path, line);
         break;
      }
      char *exp = sep + 5, *end = next ? next + 1 : text + len;
      int expline = inline_;
      for (char *q = in; q < exp; q++)
         expline += *q == '\n';
      run_case(path, pass, hdr, in, (size_t)(sep + 1 - in), inline_, exp, (size_t)(end - exp),
               expline);
      line = expline;
      for (char *q = exp; q < end; q++)
         line += *q == '\n';
      p = next ? next + 1 : NULL;
   }
   free(text);
}

static int
cmp_str(const void *a, const void *b)
{
   return strcmp(*(char *const *)a, *(char *const *)b);
}

int
main(void)
{
   const char *root = DC_SOURCE_DIR "/fixtures/passes";
   DIR *top = opendir(root);
   CHECKF(top, "cannot open %s", root);
   if (!top)
      return test_done();
   char **names = NULL;
   unsigned n = 0, cap = 0;
   for (struct dirent *e; (e = readdir(top));)
      if (e->d_name[0] != '.')
         VEC_PUSH(names, n, cap, xstrdup(e->d_name));
   closedir(top);
   if (n)
      qsort(names, n, sizeof(*names), cmp_str);
   for (unsigned i = 0; i < n; i++) {
      char *dir = xasprintf("%s/%s", root, names[i]);
      DIR *d = opendir(dir);
      char **files = NULL;
      unsigned nf = 0, fcap = 0;
      for (struct dirent *e; d && (e = readdir(d));) {
         size_t l = strlen(e->d_name);
         if (l > 3 && !strcmp(e->d_name + l - 3, ".ir"))
            VEC_PUSH(files, nf, fcap, xasprintf("%s/%s", dir, e->d_name));
      }
      if (d)
         closedir(d);
      if (nf) /* README.md and the like are not pass directories */
         qsort(files, nf, sizeof(*files), cmp_str);
      for (unsigned f = 0; f < nf; f++) {
         run_file(files[f], names[i]);
         free(files[f]);
      }
      free(files);
      free(dir);
      free(names[i]);
   }
   free(names);
   CHECKF(ncases >= 20, "only %u fixture cases found", ncases);
   printf("%u fixture cases\n", ncases);
   return test_done();
}
