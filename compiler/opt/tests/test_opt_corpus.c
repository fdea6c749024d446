/*
 * Every TGSI shader in the tree (fixtures/tgsi/good, and captures/ when
 * present) through the translator and the optimizer:
 *   - it translates, or fails with one "unsupported: ..." error;
 *   - the IR is valid, and print -> parse -> print is a fixed point;
 *   - the optimized IR, and the IR cut at several bisect limits, compute
 *     the same outputs as the unoptimized IR in the evaluator (fake
 *     resources: textures and memory are fixed functions of their
 *     operands) on random inputs.
 */
#include "compiler/ir/ir.h"
#include "util/test.h"

#include <dirent.h>
#include <stdlib.h>

static unsigned ntranslated, nunsupported, nevaluated;

static bool
same_bits(uint32_t a, uint32_t b)
{
   return a == b || (is_nan_bits(a) && is_nan_bits(b));
}

static void
random_env(struct ir_eval_env *env, struct rng *r)
{
   memset(env, 0, sizeof(*env));
   env->fake_resources = true;
   env->max_steps = 200000;
   for (int s = 0; s < IR_EVAL_SLOTS; s++)
      for (int c = 0; c < 4; c++) {
         uint32_t k = rng_below(r, 3);
         env->inputs[s][c] = k == 0   ? rng_below(r, 8)
                             : k == 1 ? fui((float)((int)rng_below(r, 401) - 200) / 16.0f)
                                      : rng_u32(r);
         for (int b = 0; b < 4; b++)
            env->consts[b][s][c] = fui((float)((int)rng_below(r, 401) - 200) / 16.0f);
      }
   for (int s = 0; s < TGSI_SEM_COUNT; s++)
      for (int c = 0; c < 4; c++)
         env->sysvals[s][c] = rng_below(r, 64);
}

/* false if a cannot run (then nothing is compared) */
static bool
compare(const char *what, const struct ir_shader *a, const struct ir_shader *b, uint64_t seed)
{
   struct rng r;
   rng_seed(&r, seed);
   for (int run = 0; run < 4; run++) {
      struct ir_eval_env *ea = xmalloc(sizeof(*ea)), *eb = xmalloc(sizeof(*eb));
      random_env(ea, &r);
      *eb = *ea;
      struct diag_list d = {0};
      bool ok = ir_eval(a, ea, &d);
      if (ok) {
         CHECKF(ir_eval(b, eb, &d), "%s: %s", what, diag_first_error(&d));
         bool same = ea->killed == eb->killed;
         for (int s = 0; s < IR_EVAL_SLOTS; s++) {
            same &= ea->written[s] == eb->written[s];
            for (int c = 0; c < 4; c++)
               same &=
                   !(ea->written[s] & (1u << c)) || same_bits(ea->outputs[s][c], eb->outputs[s][c]);
         }
         CHECKF(same, "%s: outputs differ (run %d)", what, run);
      }
      diag_clear(&d);
      free(ea);
      free(eb);
      if (!ok)
         return false;
   }
   return true;
}

static struct ir_shader *
reparse(const struct ir_shader *sh, const char *what)
{
   char *t = ir_print(sh);
   struct diag_list d = {0};
   struct ir_shader *c = ir_parse(t, strlen(t), what, 1, &d);
   CHECKF(c, "%s: printed IR does not parse: %s", what, diag_first_error(&d));
   if (c) {
      char *t2 = ir_print(c);
      CHECKF(!strcmp(t, t2), "%s: print/parse is not a fixed point", what);
      free(t2);
   }
   free(t);
   diag_clear(&d);
   return c;
}

static long long
optimize(struct ir_shader *sh, const char *what, long long limit)
{
   struct diag_list d = {0};
   struct opt_options o = {.validate = true, .bisect = limit >= 0, .bisect_limit = limit};
   struct opt_ctx ctx;
   opt_ctx_init(&ctx, &o, &d);
   CHECKF(opt_run(sh, &ctx), "%s (limit %lld): %s", what, limit, diag_first_error(&d));
   long long n = ctx.ntransforms;
   opt_ctx_fini(&ctx);
   diag_clear(&d);
   return n;
}

static void
run_file(const char *path)
{
   char *text, *err;
   size_t len;
   if (!read_file(path, &text, &len, &err)) {
      free(err);
      return;
   }
   struct diag_list d = {0};
   struct tgsi_parse_opts po = {.legacy = true};
   struct tgsi_shader *ts = tgsi_parse(text, len, path, &po, &d);
   diag_clear(&d);
   free(text);
   if (!ts)
      return; /* not for this test: the parser's own tests cover bad input */
   struct ir_shader *sh = ir_from_tgsi(ts, &d);
   if (!sh) {
      nunsupported++;
      CHECKF(d.nerrors == 1 && !strncmp(d.v[0].msg, "unsupported: ", 13) && d.v[0].line > 0,
             "%s: %s", path, diag_first_error(&d));
   } else {
      ntranslated++;
      CHECKF(ir_validate(sh, "ir_from_tgsi", &d), "%s: %s", path, diag_first_error(&d));
      struct ir_shader *opt = reparse(sh, path);
      long long n = opt ? optimize(opt, path, -1) : 0;
      if (opt && compare(path, sh, opt, 7)) {
         nevaluated++;
         for (int k = 1; k < 4; k++) {
            struct ir_shader *cut = reparse(sh, path);
            if (!cut)
               break;
            optimize(cut, path, n * k / 4);
            char what[300];
            snprintf(what, sizeof(what), "%s cut at %lld", path, n * k / 4);
            compare(what, sh, cut, 100 + (uint64_t)k);
            ir_shader_free(cut);
         }
      }
      ir_shader_free(opt);
      ir_shader_free(sh);
   }
   diag_clear(&d);
   tgsi_shader_free(ts);
}

/* Line-level mutations of a shader that still parse must translate to
 * valid IR (or fail with one clear error) and optimize to valid IR. */
static unsigned nmutants;

static void
mutate_file(const char *path, struct rng *r)
{
   char *text, *err;
   size_t len;
   if (!read_file(path, &text, &len, &err)) {
      free(err);
      return;
   }
   const char *line[512];
   size_t ll[512];
   unsigned n = 0;
   for (const char *p = text; *p && n < 512; n++) {
      line[n] = p;
      ll[n] = strcspn(p, "\n") + (p[strcspn(p, "\n")] ? 1 : 0);
      p += ll[n];
   }
   for (int iter = 0; iter < 40 && n > 2; iter++) {
      unsigned a = 1 + rng_below(r, n - 1), b = 1 + rng_below(r, n - 1), op = rng_below(r, 3);
      char *t = xmalloc(len * 2 + 2), *o = t;
      for (unsigned i = 0; i < n; i++) {
         unsigned src = op == 2 && i == a ? b : op == 2 && i == b ? a : i;
         if (op == 0 && i == a)
            continue;
         memcpy(o, line[src], ll[src]);
         o += ll[src];
         if (op == 1 && i == a) {
            memcpy(o, line[a], ll[a]);
            o += ll[a];
         }
      }
      *o = 0;
      struct diag_list d = {0};
      struct tgsi_parse_opts po = {.legacy = true};
      struct tgsi_shader *ts = tgsi_parse(t, strlen(t), path, &po, &d);
      diag_clear(&d);
      struct ir_shader *sh = ts ? ir_from_tgsi(ts, &d) : NULL;
      if (ts && !sh)
         CHECKF(d.nerrors == 1, "%s mutant %d: %u errors", path, iter, d.nerrors);
      if (sh) {
         nmutants++;
         CHECKF(ir_validate(sh, "ir_from_tgsi", &d), "%s mutant %d: %s", path, iter,
                diag_first_error(&d));
         optimize(sh, path, -1);
      }
      ir_shader_free(sh);
      tgsi_shader_free(ts);
      diag_clear(&d);
      free(t);
   }
   free(text);
}

static int
cmp_str(const void *a, const void *b)
{
   return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
run_dir(const char *dir)
{
   DIR *d = opendir(dir);
   if (!d)
      return;
   char **files = NULL;
   unsigned n = 0, cap = 0;
   for (struct dirent *e; (e = readdir(d));) {
      size_t l = strlen(e->d_name);
      if (l > 5 && !strcmp(e->d_name + l - 5, ".tgsi"))
         VEC_PUSH(files, n, cap, xasprintf("%s/%s", dir, e->d_name));
   }
   closedir(d);
   if (n)
      qsort(files, n, sizeof(*files), cmp_str);
   struct rng r;
   rng_seed(&r, 5);
   for (unsigned i = 0; i < n; i++) {
      run_file(files[i]);
      mutate_file(files[i], &r);
      free(files[i]);
   }
   free(files);
}

int
main(void)
{
   run_dir(DC_SOURCE_DIR "/fixtures/tgsi/good");
   run_dir(DC_SOURCE_DIR "/captures");
   printf("%u translated (%u compared in the evaluator), %u unsupported; %u mutants\n", ntranslated,
          nevaluated, nunsupported, nmutants);
   CHECKF(ntranslated >= 15 && nevaluated >= 10 && nmutants >= 100, "too few shaders exercised");
   return test_done();
}
