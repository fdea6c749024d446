/*
 * The transformation counter: the same shader with limits 0..N makes
 * exactly that many transformations, logs exactly those BISECT lines (a
 * prefix of the unlimited run's), stays valid and keeps its meaning at
 * every cut. Also the pass-selection options.
 */
#include "compiler/ir/ir.h"
#include "util/test.h"

#include <stdlib.h>

static const char shader[] = "shader FRAG\n"
                             "@0:\n"
                             "  %0 = load_input slot=0 comp=x\n"
                             "  %1 = load_input slot=0 comp=y\n"
                             "  %2 = mov %0\n"
                             "  %3 = imm 1.0\n"
                             "  %4 = fmul %2, %3\n"
                             "  %5 = fmul %1, %0\n"
                             "  %6 = fmul %0, %1\n"
                             "  %7 = fadd %5, %4\n"
                             "  %8 = fadd %6, %4\n"
                             "  %9 = imm 0\n"
                             "  %10 = imm 4\n"
                             "  loop {\n"
                             "    %11 = phi @0 %9, @4 %14\n"
                             "    %12 = phi @0 %7, @4 %15\n"
                             "    %13 = ige %11, %10\n"
                             "    if %13 {\n"
                             "      break\n"
                             "    }\n"
                             "@4:\n"
                             "    %16 = imm 1\n"
                             "    %14 = iadd %11, %16\n"
                             "    %15 = fmul %12, %3\n"
                             "  }\n"
                             "  %17 = iadd %9, %9\n"
                             "  store_output slot=0 comp=x %12\n"
                             "  store_output slot=0 comp=y %8\n";

static struct ir_shader *
parse(void)
{
   struct diag_list d = {0};
   struct ir_shader *sh = ir_parse(shader, strlen(shader), "b.ir", 1, &d);
   CHECKF(sh, "%s", diag_first_error(&d));
   diag_clear(&d);
   return sh;
}

static unsigned
count_lines(const char *log, const char *needle, bool exclude_not_done)
{
   unsigned n = 0;
   for (const char *p = log; p && (p = strstr(p, needle)); p++) {
      const char *eol = strchr(p, '\n');
      bool not_done = eol && strstr(p, "not done") && strstr(p, "not done") < eol;
      if (!exclude_not_done || !not_done)
         n++;
   }
   return n;
}

static bool
same_outputs(const struct ir_shader *a, const struct ir_shader *b, uint32_t x, uint32_t y)
{
   struct ir_eval_env *ea = xcalloc(1, sizeof(*ea)), *eb = xcalloc(1, sizeof(*eb));
   ea->inputs[0][0] = eb->inputs[0][0] = x;
   ea->inputs[0][1] = eb->inputs[0][1] = y;
   struct diag_list d = {0};
   bool ok = ir_eval(a, ea, &d) && ir_eval(b, eb, &d);
   ok = ok && !memcmp(ea->outputs, eb->outputs, sizeof(ea->outputs));
   free(ea);
   free(eb);
   diag_clear(&d);
   return ok;
}

static void
test_limits(void)
{
   struct opt_options o = {.bisect = true, .bisect_limit = -1, .validate = true};
   struct diag_list d = {0};
   struct opt_ctx ctx;
   struct ir_shader *full = parse();
   opt_ctx_init(&ctx, &o, &d);
   CHECK(opt_run(full, &ctx));
   long long n = ctx.ntransforms;
   char *full_log = xstrdup(ctx.log ? ctx.log : "");
   opt_ctx_fini(&ctx);
   CHECKF(n >= 10, "only %lld transformations", n);
   CHECK(count_lines(full_log, "BISECT: pass ", false) == (unsigned)n);
   CHECK(strstr(full_log, "BISECT: pass copyprop transformation 1 (%2 = mov -> %0)\n") == full_log);
   CHECK(!strstr(full_log, "not done"));

   struct ir_shader *orig = parse();
   for (long long k = 0; k <= n; k++) {
      struct ir_shader *sh = parse();
      o.bisect_limit = k;
      opt_ctx_init(&ctx, &o, &d);
      CHECKF(opt_run(sh, &ctx), "limit %lld: %s", k, diag_first_error(&d));
      const char *log = ctx.log ? ctx.log : "";
      CHECKF(ctx.ntransforms == k, "limit %lld made %lld", k, ctx.ntransforms);
      CHECK(count_lines(log, "BISECT: pass ", true) == (unsigned)k);
      CHECK(count_lines(log, "not done", false) == (k < n ? 1u : 0u));
      /* the lines done are the unlimited run's first k lines; then, below
       * the limit, one line refusing the unlimited run's line k + 1 */
      size_t prefix = 0;
      for (long long i = 0; i < k; i++)
         prefix = (size_t)(strchr(full_log + prefix, '\n') - full_log) + 1;
      CHECKF(!strncmp(log, full_log, prefix), "limit %lld log:\n%s", k, log);
      if (k < n) {
         size_t len = strcspn(full_log + prefix, "\n");
         char *refused = xasprintf("%.*s not done (limit %lld)\n", (int)len, full_log + prefix, k);
         CHECKF(!strcmp(log + prefix, refused), "limit %lld log:\n%s", k, log);
         free(refused);
      } else {
         CHECK(strlen(log) == prefix);
      }
      CHECKF(same_outputs(orig, sh, fui(3.0f), fui(-0.5f)) &&
                 same_outputs(orig, sh, fui(-0.0f), 0x7f800000u),
             "limit %lld changed the meaning", k);
      opt_ctx_fini(&ctx);
      diag_clear(&d);
      ir_shader_free(sh);
   }
   ir_shader_free(orig);
   ir_shader_free(full);
   free(full_log);
}

static void
test_options(void)
{
   struct diag_list d = {0};
   struct opt_ctx ctx;
   struct opt_options o = {.passes = "copyprop,bogus"};
   struct ir_shader *sh = parse();
   opt_ctx_init(&ctx, &o, &d);
   CHECK(!opt_run(sh, &ctx));
   CHECK(d.nerrors == 1 && strstr(d.v[0].msg, "unknown pass 'bogus'"));
   opt_ctx_fini(&ctx);
   diag_clear(&d);

   /* --passes runs only those; --print-after logs the IR after them */
   o = (struct opt_options){.passes = "copyprop", .print_after = "copyprop"};
   opt_ctx_init(&ctx, &o, &d);
   CHECK(opt_run(sh, &ctx));
   CHECK(ctx.ntransforms == 1);
   CHECK(ctx.log && strstr(ctx.log, "IR after copyprop:\nshader FRAG\n"));
   CHECK(!strstr(ctx.log, "mov"));
   opt_ctx_fini(&ctx);
   ir_shader_free(sh);

   /* --disable-pass: without dce the dead iadd survives the pipeline */
   sh = parse();
   o = (struct opt_options){.disable = "dce", .print_after = "all"};
   opt_ctx_init(&ctx, &o, &d);
   CHECK(opt_run(sh, &ctx));
   CHECK(!strstr(ctx.log, "IR after dce"));
   CHECK(strstr(ctx.log, "IR after cse"));
   CHECK(!strstr(ctx.log, "BISECT"));
   char *t = ir_print(sh);
   CHECK(strstr(t, "iadd %") != NULL);
   free(t);
   opt_ctx_fini(&ctx);
   ir_shader_free(sh);

   /* the full pipeline result */
   sh = parse();
   o = (struct opt_options){0};
   opt_ctx_init(&ctx, &o, &d);
   CHECK(opt_run(sh, &ctx));
   ir_renumber(sh);
   t = ir_print(sh);
   static const char want[] = "shader FRAG\n"
                              "@0:\n"
                              "  %0 = load_input slot=0 comp=x\n"
                              "  %1 = load_input slot=0 comp=y\n"
                              "  %2 = fmad %1, %0, %0\n"
                              "  %3 = imm 0\n"
                              "  %4 = imm 4\n"
                              "  loop {\n"
                              "    %5 = phi @0 %3, @4 %8\n"
                              "    %6 = ige %5, %4\n"
                              "    if %6 {\n"
                              "      break\n"
                              "    }\n"
                              "@4:\n"
                              "    %7 = imm 1\n"
                              "    %8 = iadd %5, %7\n"
                              "  }\n"
                              "  store_output slot=0 comp=x %2\n"
                              "  store_output slot=0 comp=y %2\n";
   CHECKF(!strcmp(t, want), "pipeline gave\n%s", t);
   free(t);
   opt_ctx_fini(&ctx);
   ir_shader_free(sh);
   diag_clear(&d);
}

int
main(void)
{
   test_limits();
   test_options();
   return test_done();
}
