/*
 * The check's run and reports, in process: per-case signals for the
 * fixtures (fixtures/check), the same results with and without worker
 * processes and for any -j, crash/timeout/exit isolation, sharding, the
 * position-only build of the invariance check, the baseline, JSON and JUnit
 * well-formedness, and the reproducer round trip.
 */
#include "diff/diff.h"
#include "util/test.h"

#include <ctype.h>
#include <stdlib.h>

#define FIX DC_SOURCE_DIR "/fixtures/check/"

static const char *const fixtures[] = {FIX "fs_basic.tgsi", FIX "bad_parse.tgsi",
                                       FIX "interp_refuses.tgsi", FIX "vs_precise.tgsi"};

static void
setup(struct diff_check *c, unsigned jobs, unsigned k, unsigned n)
{
   struct diag_list d = {0};
   diff_check_init(c);
   c->o.invocations = 64;
   c->o.jobs = jobs;
   c->o.timeout_ms = 60000;
   CHECK(diff_check_add_targets(c, "a3xx", &d));
   diag_clear(&d);
   for (unsigned i = 0; i < ARRAY_SIZE(fixtures); i++)
      diff_check_add_shader(c, fixtures[i], NULL);
   diff_check_make_cases(c, k, n);
}

static bool
same_results(const struct diff_check *a, const struct diff_check *b)
{
   if (a->ncases != b->ncases)
      return false;
   for (unsigned i = 0; i < a->ncases; i++) {
      const struct diff_case_result *x = &a->results[i], *y = &b->results[i];
      if (!diff_repro_same(x, y) || x->compared != y->compared || x->undefined != y->undefined ||
          x->nlanes != y->nlanes || !x->done || !y->done)
         return false;
   }
   return true;
}

static void
test_signals(void)
{
   struct diff_check c;
   setup(&c, 0, 1, 1);
   diff_check_run(&c, NULL, NULL);
   CHECK_EQ_U(c.ncases, 4);
   CHECK(c.results[0].status == DIFF_PASS && c.results[0].nsig == 0);
   CHECK(c.results[1].status == DIFF_ERROR && c.results[1].nsig == 1 &&
         c.results[1].sig[0].kind == DIFF_SIG_INPUT);
   CHECKF(strstr(c.results[1].sig[0].msg, "bad_parse.tgsi:4:18: TEMP[9] is not declared") != NULL,
          "%s", c.results[1].sig[0].msg);
   CHECK(c.results[2].status == DIFF_ERROR && c.results[2].sig[0].kind == DIFF_SIG_INTERP);
   CHECK(strstr(c.results[2].sig[0].msg, "UNSUPPORTED") != NULL);
   CHECK(c.results[3].status == DIFF_PASS);

   /* Worker processes, any number of them: the same results. */
   for (unsigned jobs = 1; jobs <= 3; jobs += 2) {
      struct diff_check f;
      setup(&f, jobs, 1, 1);
      diff_check_run(&f, NULL, NULL);
      CHECKF(same_results(&c, &f), "-j%u differs from in-process", jobs);
      diff_check_fini(&f);
   }
   diff_check_fini(&c);
}

static void
test_isolation(void)
{
   static const struct {
      const char *inject, *msg;
      enum diff_signal_kind kind;
   } t[] = {
       {"crash:fs_basic", "SIGSEGV in parse", DIFF_SIG_CRASH},
       {"exit:fs_basic", "worker exited with status 3 in parse", DIFF_SIG_CRASH},
       {"spin:fs_basic", "no result after 1000 ms (in parse)", DIFF_SIG_TIMEOUT},
   };
   for (unsigned i = 0; i < ARRAY_SIZE(t); i++) {
      struct diff_check c;
      setup(&c, 2, 1, 1);
      c.o.timeout_ms = 1000;
      c.inject = t[i].inject;
      diff_check_run(&c, NULL, NULL);
      const struct diff_case_result *r = &c.results[0];
      CHECKF(r->status == DIFF_FAIL && r->nsig == 1 && r->sig[0].kind == t[i].kind &&
                 !strcmp(r->sig[0].msg, t[i].msg),
             "%s: %s", t[i].inject, r->nsig ? r->sig[0].msg : "no signal");
      /* The run went on. */
      CHECK(c.results[3].done && c.results[3].status == DIFF_PASS);
      diff_check_fini(&c);
   }
}

static void
test_shards(void)
{
   struct diff_check all, s1, s2;
   setup(&all, 0, 1, 1);
   setup(&s1, 0, 1, 2);
   setup(&s2, 0, 2, 2);
   CHECK_EQ_U(s1.ncases + s2.ncases, all.ncases);
   bool seen[8] = {false};
   for (unsigned i = 0; i < s1.ncases; i++)
      seen[s1.cases[i].shader] = true;
   for (unsigned i = 0; i < s2.ncases; i++) {
      CHECK(!seen[s2.cases[i].shader]);
      seen[s2.cases[i].shader] = true;
   }
   for (unsigned i = 0; i < all.ncases; i++)
      CHECK(seen[all.cases[i].shader]);
   diff_check_fini(&all);
   diff_check_fini(&s1);
   diff_check_fini(&s2);
}

static void
test_position_only(void)
{
   struct diag_list d = {0};
   struct tgsi_shader *s = tgsi_parse_file(FIX "vs_precise.tgsi", NULL, &d);
   CHECK(s != NULL);
   struct tgsi_shader *p = diff_position_only(s);
   CHECK(p != NULL);
   unsigned nout = 0;
   for (unsigned i = 0; i < p->ndecls; i++)
      nout += p->decls[i].file == TGSI_FILE_OUT;
   CHECK_EQ_U(nout, 1);
   /* Valid TGSI that gives the same POSITION on the interpreter. */
   char *text = tgsi_print(p);
   struct tgsi_shader *q = tgsi_parse(text, strlen(text), "pos.tgsi", NULL, &d);
   CHECKF(q != NULL, "%s", text);
   struct env *a = diff_gen_inputs(s, 3, 32, &d), *b = env_clone(a);
   CHECK(tgsi_interp_run(s, a, NULL, &d) == TGSI_INTERP_OK);
   CHECK(tgsi_interp_run(p, b, NULL, &d) == TGSI_INTERP_OK);
   uint8_t sel[12] = {1, 1, 1, 1};
   struct diff_cmp_opts o = {.mode = DIFF_CMP_BITS, .flags = a, .select = sel};
   struct diff_cmp_result r;
   diff_compare(s, a, b, &o, &r);
   CHECK_EQ_U(r.mismatched, 0);
   CHECK_EQ_U(r.compared, 4 * 32);
   /* A fragment shader has no position-only build. */
   struct tgsi_shader *f = tgsi_parse_file(FIX "fs_basic.tgsi", NULL, &d);
   CHECK(f && !diff_position_only(f));
   tgsi_shader_free(f);
   env_free(a);
   env_free(b);
   free(text);
   tgsi_shader_free(q);
   tgsi_shader_free(p);
   tgsi_shader_free(s);
   diag_clear(&d);
}

/* ------------------------------------------------------------------ */
/* Well-formedness of the report files                                  */

static const char *
json_ws(const char *p)
{
   while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
      p++;
   return p;
}

static const char *json_value(const char *p);

static const char *
json_string(const char *p)
{
   if (*p++ != '"')
      return NULL;
   for (; *p != '"'; p++) {
      if (!*p || (unsigned char)*p < 0x20)
         return NULL;
      if (*p == '\\') {
         p++;
         if (*p == 'u') {
            for (int i = 1; i <= 4; i++)
               if (!isxdigit((unsigned char)p[i]))
                  return NULL;
            p += 4;
         } else if (!strchr("\"\\/bfnrt", *p)) {
            return NULL;
         }
      }
   }
   return p + 1;
}

static const char *
json_list(const char *p, char close, bool keys)
{
   p = json_ws(p + 1);
   if (*p == close)
      return p + 1;
   for (;;) {
      if (keys) {
         if (!(p = json_string(json_ws(p))))
            return NULL;
         p = json_ws(p);
         if (*p++ != ':')
            return NULL;
      }
      if (!(p = json_value(p)))
         return NULL;
      p = json_ws(p);
      if (*p == close)
         return p + 1;
      if (*p++ != ',')
         return NULL;
   }
}

static const char *
json_value(const char *p)
{
   p = json_ws(p);
   if (*p == '{')
      return json_list(p, '}', true);
   if (*p == '[')
      return json_list(p, ']', false);
   if (*p == '"')
      return json_string(p);
   static const char *const words[] = {"true", "false", "null"};
   for (unsigned i = 0; i < ARRAY_SIZE(words); i++)
      if (!strncmp(p, words[i], strlen(words[i])))
         return p + strlen(words[i]);
   char *end;
   strtod(p, &end);
   return end > p && (*p == '-' || isdigit((unsigned char)*p)) ? end : NULL;
}

static bool
json_ok(const char *text)
{
   const char *p = json_value(text);
   return p && !*json_ws(p);
}

/* XML: balanced tags, quoted attributes, no raw '<' or '&' in text. */
static bool
xml_ok(const char *p)
{
   const char *stack[64];
   size_t len[64];
   unsigned depth = 0;
   if (strncmp(p, "<?xml ", 6))
      return false;
   p = strstr(p, "?>") + 2;
   bool root_done = false;
   while (*p) {
      if (*p == '&') {
         size_t n = strspn(p + 1, "abcdefghijklmnopqrstuvwxyz#0123456789");
         if (!n || p[1 + n] != ';')
            return false;
         p += n + 2;
         continue;
      }
      if (*p != '<') {
         if (!isspace((unsigned char)*p) && !depth)
            return false;
         p++;
         continue;
      }
      if (root_done)
         return false;
      bool close = p[1] == '/';
      const char *name = p + 1 + close;
      size_t n = strspn(name, "abcdefghijklmnopqrstuvwxyz");
      if (!n)
         return false;
      const char *q = name + n;
      while (*q && *q != '>' && !(*q == '/' && q[1] == '>')) {
         if (*q == '<')
            return false;
         if (*q == '"') {
            const char *e = strchr(q + 1, '"');
            if (!e || memchr(q + 1, '<', (size_t)(e - q - 1)))
               return false;
            q = e;
         }
         q++;
      }
      if (!*q)
         return false;
      bool empty = *q == '/';
      if (close) {
         if (!depth || len[depth - 1] != n || strncmp(stack[depth - 1], name, n))
            return false;
         root_done = --depth == 0;
      } else if (!empty) {
         if (depth == 64)
            return false;
         stack[depth] = name;
         len[depth++] = n;
      }
      p = q + (empty ? 2 : 1);
   }
   return !depth && root_done;
}

static void
test_reports(void)
{
   struct diff_check c;
   setup(&c, 0, 1, 1);
   c.inject = NULL;
   diff_check_run(&c, NULL, NULL);
   /* A result with every kind of detail, as a mismatch would give. */
   struct diff_mismatch m = {DIFF_VAL_OUT, 2, ENV_F_FUSE, 0, 1, 17, 0x3f800000u, 0x7fc00000u};
   diff_result_add(&c.results[0], DIFF_SIG_MISMATCH, "ref/opt", &m, 3,
                   "OUT[1].z lane 17: \"quoted\" <tag> & \x01 control");
   for (unsigned i = 1; i < c.ncases; i++) /* only case 0 counts in the totals */
      c.results[i].ref.valid = c.results[i].opt.valid = false;
   c.results[0].ref = (struct diff_prog_stats){true, 10, 2, 8, 40, 400};
   c.results[0].opt = (struct diff_prog_stats){true, 7, 0, 9, 30, 100};
   diff_lane_dump(&(struct env){.nlanes = 0}, 0, &c.results[0].lanes[0]);
   c.results[0].nlanes = 1;
   c.results[0].repro = xstrdup("diffcomp-repro/fs_basic-a3xx.yaml");

   char *j = diff_report_json(&c, NULL, NULL);
   CHECKF(json_ok(j), "%s", j);
   CHECK(strstr(j, "\"summary\": {\"shaders\": 4, \"cases\": 4, \"pass\": 1, \"fail\": 1, "
                   "\"error\": 2, \"skip\": 0") != NULL);
   CHECK(strstr(j, "\"ref\": {\"instructions\": 10, \"nops\": 2, \"registers\": 8, \"cycles\": 40, "
                   "\"emulated_cycles\": 400}"));
   CHECK(strstr(j, "\"expected\": \"0x3f800000\", \"actual\": \"0x7fc00000\", \"expected_float\": "
                   "\"1\", \"actual_float\": \"nan\", \"flags\": [\"FUSE\"]"));
   free(j);
   char *x = diff_report_junit(&c, NULL);
   CHECKF(xml_ok(x), "%s", x);
   CHECK(strstr(x, "tests=\"4\" failures=\"1\" errors=\"2\"") != NULL);
   CHECK(strstr(x, "&quot;quoted&quot; &lt;tag&gt; &amp; ? control") != NULL);
   free(x);
   /* The checkers catch broken text. */
   CHECK(!json_ok("{\"a\": [1, 2,]}") && !json_ok("{\"a\": \"\x01\"}") && json_ok("[1, -2.5e3]"));
   CHECK(!xml_ok("<?xml ?><a><b></a></b>") && !xml_ok("<?xml ?><a>x & y</a>") &&
         xml_ok("<?xml ?><a x=\"<>\"><b/>t&amp;</a>") == false && xml_ok("<?xml ?><a><b/></a>"));

   char *st = diff_report_stats(&c);
   CHECKF(strstr(st, "instructions            10            7   -30.00%       1       0") != NULL,
          "%s", st);
   CHECK(strstr(st, "registers                8            9   +12.50%       0       1") != NULL);
   /* one case: the geometric means are its own ratios, 7/10, 9/8, 100/400 */
   CHECKF(strstr(st, "  a3xx            1        0.700x     1.125x           0.250x\n") != NULL,
          "%s", st);
   free(st);

   char *line = diff_case_lines(&c, 0);
   CHECKF(!strncmp(line, "fail a3xx " FIX "fs_basic.tgsi: mismatch (ref/opt): OUT[1].z lane 17",
                   strlen("fail a3xx " FIX "fs_basic.tgsi: mismatch (ref/opt): OUT[1].z lane 17")),
          "%s", line);
   CHECK(strstr(line, "[3 values] [repro: diffcomp-repro/fs_basic-a3xx.yaml]") != NULL);
   free(line);
   diff_check_fini(&c);
}

/* A compile error that carries the whole IR (validation failures do):
 * the terminal lines and JUnit show its first lines and count the rest;
 * the JSON keeps all of it. */
static void
test_long_message(void)
{
   struct diff_check c;
   setup(&c, 0, 1, 1);
   c.inject = NULL;
   diff_check_run(&c, NULL, NULL);
   struct strbuf m = {0};
   strbuf_printf(&m, "opt: compiler/ir/ir_validate.c:60:0: IR validation failed\n  shader:");
   for (unsigned k = 0; k < 200; k++)
      strbuf_printf(&m, "\n    %%%u = fadd %%%u, %%%u", k + 2, k, k + 1);
   diff_result_add(&c.results[0], DIFF_SIG_COMPILE, "opt", NULL, 0, "%s", m.s);
   char *line = diff_case_lines(&c, 0);
   unsigned nl = 0;
   for (const char *p = line; *p; p++)
      nl += *p == '\n';
   CHECKF(nl == DIFF_MSG_LINES, "%u lines:\n%s", nl + 1, line);
   CHECKF(strstr(line, "\n    [198 more lines in the JSON report and the reproducer]") != NULL,
          "%s", line);
   CHECK(strstr(line, "%3 = fadd %1, %2") != NULL && !strstr(line, "%4 = fadd"));
   free(line);
   char *x = diff_report_junit(&c, NULL);
   CHECKF(xml_ok(x), "%s", x);
   CHECK(strstr(x, "message=\"opt: compiler/ir/ir_validate.c:60:0: IR validation failed [...]\"") !=
         NULL);
   CHECK(strstr(x, "198 more lines") != NULL && !strstr(x, "%201 = fadd"));
   free(x);
   char *j = diff_report_json(&c, NULL, NULL);
   CHECK(strstr(j, "%201 = fadd %199, %200") != NULL);
   free(j);
   free(m.s);
   diff_check_fini(&c);
}

static void
test_baseline(void)
{
   struct diff_check c;
   setup(&c, 0, 1, 1);
   diff_check_run(&c, NULL, NULL);
   char *y = diff_baseline_yaml(&c, NULL);
   struct diff_baseline b;
   struct diag_list d = {0};
   CHECKF(diff_baseline_parse(y, strlen(y), "b.yaml", &b, &d), "%s", y);
   CHECK_EQ_U(b.n, 2);
   struct diff_summary s;
   diff_summarize(&c, &b, &s);
   CHECK_EQ_U(s.outcome[DIFF_OUT_EXPECTED], 2);
   CHECK_EQ_U(s.outcome[DIFF_OUT_OK], 2);
   diff_baseline_free(&b);
   free(y);

   /* Listed as failing but passes: an unexpected pass; listed as fail but errors: new. */
   const char *t = "expected:\n"
                   "  - {shader: " FIX "fs_basic.tgsi, status: fail}\n"
                   "  - {shader: " FIX "bad_parse.tgsi, target: a3xx, status: fail}\n"
                   "  - {shader: " FIX "interp_refuses.tgsi, target: sm50, status: error}\n";
   CHECK(diff_baseline_parse(t, strlen(t), "b.yaml", &b, &d));
   CHECK(diff_case_outcome(&c, 0, &b) == DIFF_OUT_UNEXPECTED_PASS);
   CHECK(diff_case_outcome(&c, 1, &b) == DIFF_OUT_NEW_ERROR);
   CHECK(diff_case_outcome(&c, 2, &b) == DIFF_OUT_NEW_ERROR); /* other target */
   CHECK(diff_case_outcome(&c, 3, &b) == DIFF_OUT_OK);
   diff_baseline_free(&b);

   /* An entry naming the signal and the first failing value covers that
    * failure only: the same case failing on another output is new. */
   struct diff_mismatch m = {DIFF_VAL_OUT, 2, 0, 0, 1, 17, 0x3f800000u, 0x3f800001u};
   diff_result_add(&c.results[0], DIFF_SIG_MISMATCH, "ref/opt", &m, 1, "OUT[1].z lane 17");
   c.results[0].status = DIFF_FAIL;
   y = diff_baseline_yaml(&c, NULL);
   CHECKF(strstr(y, "status: fail, signal: mismatch, output: ") && strstr(y, "OUT[1].z"), "%s", y);
   free(y);
   const char *o = "expected:\n"
                   "  - {shader: " FIX "fs_basic.tgsi, signal: mismatch, output: 'OUT[1].z'}\n";
   CHECK(diff_baseline_parse(o, strlen(o), "b.yaml", &b, &d));
   CHECK(diff_case_outcome(&c, 0, &b) == DIFF_OUT_EXPECTED);
   c.results[0].sig[c.results[0].nsig - 1].m.reg = 0; /* now OUT[0].z fails */
   CHECK(diff_case_outcome(&c, 0, &b) == DIFF_OUT_NEW_FAIL);
   diff_baseline_free(&b);

   const char *bad[] = {"expected: {a: 1}\n",
                        "expected:\n  - {target: a3xx}\n",
                        "expected:\n  - {shader: x, output: ''}\n",
                        "expected:\n  - {shader: x, status: pass}\n",
                        "expected: [\n",
                        "x: 1\n"};
   for (unsigned i = 0; i < ARRAY_SIZE(bad); i++) {
      CHECKF(!diff_baseline_parse(bad[i], strlen(bad[i]), "bad.yaml", &b, &d), "%s", bad[i]);
      CHECK(d.nerrors > 0 && strstr(d.v[d.n - 1].file, "bad.yaml"));
      diag_clear(&d);
   }
   diff_check_fini(&c);
}

static void
test_repro(void)
{
   struct diff_check c;
   setup(&c, 0, 1, 1);
   c.o.seed = 99;
   c.o.exact_nan = true;
   c.o.inexact = 1u << DIFF_INEXACT_FFMA_BIT;
   diff_check_run(&c, NULL, NULL);
   /* Record lane 5's inputs as a mismatch would. */
   struct diag_list d = {0};
   struct tgsi_shader *s = tgsi_parse_file(fixtures[0], NULL, &d);
   struct env *e = diff_gen_inputs(s, 99, 64, &d);
   diff_lane_dump(e, 5, &c.results[0].lanes[0]);
   c.results[0].nlanes = 1;
   diff_result_add(&c.results[0], DIFF_SIG_HAZARD, "emu opt", NULL, 0, "raw: r0.x read at 0x10");
   char *text, *err;
   size_t len;
   CHECK(read_file(fixtures[0], &text, &len, &err));
   char *y = diff_repro_yaml(&c, 0, text);
   CHECK(y != NULL);
   /* Text libyaml refuses (not UTF-8) fails the writer; the event it did
    * not make never reaches the emitter (it was a double free). */
   CHECK(diff_repro_yaml(&c, 0, "FRAG\n\xff\xfe\xe9\nEND\n") == NULL);

   struct diff_repro r;
   CHECKF(diff_repro_parse(y, strlen(y), "r.yaml", &r, &d), "%s", y);
   CHECK(!strcmp(r.text, text) && !strcmp(r.target, "a3xx") && !strcmp(r.shader, fixtures[0]));
   CHECK(r.o.seed == 99 && r.o.invocations == 64 && r.o.exact_nan && !r.o.invariance);
   CHECK(r.o.inexact == (1u << DIFF_INEXACT_FFMA_BIT));
   CHECK(diff_repro_same(&c.results[0], &r.seen));
   CHECK(r.seen.nlanes == 1 && r.seen.lanes[0].lane == 5 &&
         r.seen.lanes[0].nvals == c.results[0].lanes[0].nvals);

   /* The replay's setup gives the same case, and the inputs match. */
   struct diff_check c2;
   diff_check_init(&c2);
   c2.o.jobs = 0;
   CHECK(diff_repro_setup(&r, &c2, &d));
   CHECK(c2.ncases == 1 && c2.o.seed == 99 && !c2.o.jobs);
   char *why;
   CHECK(diff_repro_lanes_match(&r, &c2, &why));
   r.seen.lanes[0].vals[0].bits ^= 1;
   CHECK(!diff_repro_lanes_match(&r, &c2, &why) && strstr(why, "lane 5 IN[0].x: recorded"));
   free(why);
   diff_check_run(&c2, NULL, NULL);
   CHECK(c2.results[0].status == DIFF_PASS && !diff_repro_same(&r.seen, &c2.results[0]));

   const char *bad = "diffcomp-repro: 1\ntarget: a3xx\ntext: FRAG\nseed: -1\ninvocations: 4\n";
   struct diff_repro r2;
   CHECK(!diff_repro_parse(bad, strlen(bad), "bad.yaml", &r2, &d) &&
         strstr(diag_first_error(&d), "'seed' is an unsigned integer"));
   diag_clear(&d);
   diff_check_fini(&c2);
   diff_repro_free(&r);
   free(y);
   free(text);
   env_free(e);
   tgsi_shader_free(s);
   diff_check_fini(&c);
}

/* ------------------------------------------------------------------ */
/* Hand-built programs in place of the optimizing compiler               */

#define HAND FIX "hand/"

/* One case of shader on a3xx with opt replaced by override. */
static void
run_hand(struct diff_check *c, const char *shader, void *override, void *ctx, bool invariance)
{
   struct diag_list d = {0};
   diff_check_init(c);
   c->o.invocations = 64;
   c->o.jobs = 0;
   c->o.invariance = invariance;
   c->opt_override = override;
   c->opt_override_ctx = ctx;
   CHECK(diff_check_add_targets(c, "a3xx", &d));
   diff_check_add_shader(c, shader, NULL);
   diff_check_make_cases(c, 1, 1);
   diff_check_run(c, NULL, NULL);
   diag_clear(&d);
}

static bool
has_signal(const struct diff_case_result *r, enum diff_signal_kind k, const char *step,
           const char *msg)
{
   for (unsigned i = 0; i < r->nsig; i++)
      if (r->sig[i].kind == k && !strcmp(r->sig[i].step, step) && strstr(r->sig[i].msg, msg))
         return true;
   return false;
}

/* The right program assembled, then its first instruction replaced by a
 * decodable but illegal word (cat2 with two constants). */
static enum compile_status
illegal_override(void *ctx, const struct tgsi_shader *s, const struct isa_model *m,
                 struct emu_program *out, struct diag_list *d)
{
   if (diff_opt_from_asm(ctx, s, m, out, d) != COMPILE_OK)
      return COMPILE_ERROR;
   uint64_t w = 0x4010000010011001ull;
   memcpy(out->code, &w, 8);
   return COMPILE_OK;
}

/* The full build from one file, the position-only build (one output) from
 * another. */
static enum compile_status
two_builds(void *ctx, const struct tgsi_shader *s, const struct isa_model *m,
           struct emu_program *out, struct diag_list *d)
{
   const char *const *files = ctx;
   unsigned nout = 0;
   for (unsigned i = 0; i < s->ndecls; i++)
      nout += s->decls[i].file == TGSI_FILE_OUT;
   return diff_opt_from_asm((void *)files[nout == 1], s, m, out, d);
}

static void
test_programs(void)
{
   struct diff_check c;
   const struct diff_case_result *r;

   run_hand(&c, HAND "mad.tgsi", diff_opt_from_asm, HAND "mad_ok.a3xx.s", false);
   r = &c.results[0];
   CHECKF(r->status == DIFF_PASS && r->nsig == 0, "%s", r->nsig ? r->sig[0].msg : "");
   CHECK(r->compared > 64);
   CHECK(!strcmp(diff_check_steps(&c),
                 "parse inputs interp applies ref opt emu ref emu opt compare"));
   diff_check_fini(&c);

   /* The output read from the wrong register. */
   run_hand(&c, HAND "mad.tgsi", diff_opt_from_asm, HAND "mad_wrong_reg.a3xx.s", false);
   r = &c.results[0];
   CHECK(r->status == DIFF_FAIL && r->nsig == 1);
   CHECK(has_signal(r, DIFF_SIG_MISMATCH, "ref/opt", "OUT[0].x (GENERIC 0) lane "));
   CHECK(r->nsig && r->sig[0].has_value && r->sig[0].m.actual == 0 && r->sig[0].count > 32);
   CHECK(r->nlanes > 0 && r->lanes[0].nvals > 0 && !strcmp(r->lanes[0].vals[0].name, "IN[0].x"));
   diff_check_fini(&c);

   /* A missing nop: the emulator's hazard, and the stale value it read. */
   run_hand(&c, HAND "mad.tgsi", diff_opt_from_asm, HAND "mad_missing_nop.a3xx.s", false);
   r = &c.results[0];
   CHECK(r->status == DIFF_FAIL && r->nsig == 2);
   CHECK(has_signal(r, DIFF_SIG_HAZARD, "emu opt",
                    "opt program: raw (read of a fixed-latency result before it is ready) at "
                    "0x8, r0.w, producer 0x0, early by 1"));
   CHECK(has_signal(r, DIFF_SIG_MISMATCH, "ref/opt", "OUT[0].x"));
   diff_check_fini(&c);

   /* An illegal encoding: reported, and the program is not run. */
   run_hand(&c, HAND "mad.tgsi", illegal_override, HAND "mad_ok.a3xx.s", false);
   r = &c.results[0];
   CHECK(r->status == DIFF_FAIL && r->nsig == 1);
   CHECKF(has_signal(r, DIFF_SIG_ILLEGAL, "opt",
                     "opt program: illegal instruction at 0x0: cat2 takes at most one constant"),
          "%s", r->nsig ? r->sig[0].msg : "");
   diff_check_fini(&c);

   /* A program that does not assemble: the compiler's error. */
   run_hand(&c, HAND "mad.tgsi", diff_opt_from_asm, FIX "fs_basic.tgsi", false);
   r = &c.results[0];
   CHECK(r->status == DIFF_FAIL && r->nsig == 1 && r->sig[0].kind == DIFF_SIG_COMPILE);
   diff_check_fini(&c);

   /* Invariance: the same program for both builds passes; a position-only
    * build rounded differently fails. */
   const char *same[2] = {HAND "vs_pos_full.a3xx.s", HAND "vs_pos_full.a3xx.s"};
   run_hand(&c, HAND "vs_pos.tgsi", two_builds, (void *)same, true);
   r = &c.results[0];
   CHECKF(r->status == DIFF_PASS, "%s", r->nsig ? r->sig[0].msg : "");
   CHECK(strstr(diff_check_steps(&c), "compare invariance") != NULL);
   diff_check_fini(&c);
   const char *differ[2] = {HAND "vs_pos_full.a3xx.s", HAND "vs_pos_only.a3xx.s"};
   run_hand(&c, HAND "vs_pos.tgsi", two_builds, (void *)differ, true);
   r = &c.results[0];
   CHECK(r->status == DIFF_FAIL && r->nsig == 1);
   CHECKF(has_signal(r, DIFF_SIG_INVARIANCE, "invariance",
                     "full build against position-only build: OUT[0].x (POSITION 0) lane "),
          "%s", r->nsig ? r->sig[0].msg : "");
   diff_check_fini(&c);
   /* Without --invariance the second build is not made. */
   run_hand(&c, HAND "vs_pos.tgsi", two_builds, (void *)differ, false);
   CHECK(c.results[0].status == DIFF_PASS);
   diff_check_fini(&c);
}

static void
test_generated(void)
{
   struct diff_check a, b;
   diff_check_init(&a);
   diff_check_init(&b);
   b.o.seed = 2;
   diff_check_add_generated(&a, 3);
   diff_check_add_generated(&b, 3);
   CHECK_EQ_U(a.nshaders, 3);
   for (unsigned i = 0; i < 3; i++) {
      /* only the seed is kept: the text is made when it is needed */
      CHECK(!strncmp(a.shaders[i].name, "gen:", 4) && !a.shaders[i].text && a.shaders[i].gen);
      CHECK(strcmp(a.shaders[i].name, b.shaders[i].name));
      /* The name gives the text back (gen's default: with the sink). */
      uint64_t seed = strtoull(a.shaders[i].name + 4, NULL, 10);
      struct diff_gen_opts go = {.stage = TGSI_STAGE_COUNT, .sink = true};
      char *t = diff_gen(seed, &go, NULL, NULL);
      size_t len = 0;
      char *u = diff_shader_text(&a.shaders[i], &len, NULL);
      CHECK(t && u && !strcmp(t, u) && len == strlen(t));
      free(t);
      free(u);
   }
   struct diag_list d = {0};
   CHECK(diff_check_add_targets(&a, "a3xx", &d));
   diff_check_make_cases(&a, 1, 1);
   a.o.jobs = 0;
   a.o.invocations = 64;
   diff_check_run(&a, NULL, NULL);
   for (unsigned i = 0; i < a.ncases; i++)
      CHECKF(a.results[i].done && a.results[i].status != DIFF_ERROR, "%s: %s", a.shaders[i].name,
             a.results[i].nsig ? a.results[i].sig[0].msg : "");
   diff_check_fini(&a);
   diff_check_fini(&b);
}

/* A shader needing what a target lacks is n/a there, and only there. */
static void
test_applicable(void)
{
   struct diff_check c;
   struct diag_list d = {0};
   diff_check_init(&c);
   c.o.invocations = 64;
   CHECK(diff_check_add_targets(&c, "a3xx,sm50", &d));
   diff_check_add_shader(&c, FIX "fs_fma.tgsi", NULL);
   diff_check_make_cases(&c, 1, 1);
   diff_check_run(&c, NULL, NULL);
   CHECK_EQ_U(c.ncases, 2);
   const struct diff_case_result *a3 = &c.results[0], *nv = &c.results[1];
   CHECK(a3->status == DIFF_NA && a3->nsig == 1 && a3->sig[0].kind == DIFF_SIG_NO_FEATURE);
   CHECKF(a3->nsig && !strcmp(a3->sig[0].msg, "FMA at line 7 needs fma (fused multiply-add with "
                                              "one rounding), which a3xx lacks"),
          "%s", a3->nsig ? a3->sig[0].msg : "");
   CHECK(!a3->ref.valid && !a3->opt.valid);
   CHECKF(nv->status == DIFF_PASS, "%s", nv->nsig ? nv->sig[0].msg : "");
   CHECK(diff_case_outcome(&c, 0, NULL) == DIFF_OUT_OK);
   diag_clear(&d);
   diff_check_fini(&c);
}

int
main(void)
{
   test_applicable();
   test_generated();
   test_programs();
   test_signals();
   test_isolation();
   test_shards();
   test_position_only();
   test_reports();
   test_long_message();
   test_baseline();
   test_repro();
   return test_done();
}
