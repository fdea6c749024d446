/*
 * TGSI -> IR: the cases in from_tgsi.cases (TGSI text -> expected IR text
 * or expected "unsupported" error), then spot checks of meaning: small
 * shaders run in the IR evaluator, before and after the optimizer, against
 * values worked out by hand from tgsi_semantics.md.
 */
#include "compiler/ir/ir.h"
#include "util/test.h"

#include <math.h>
#include <stdlib.h>

static struct tgsi_shader *
parse_tgsi(const char *text, size_t len, const char *name)
{
   struct diag_list d = {0};
   struct tgsi_parse_opts po = {.legacy = true};
   char *copy = xstrndup(text, len);
   struct tgsi_shader *ts = tgsi_parse(copy, strlen(copy), name, &po, &d);
   CHECKF(ts, "%s: TGSI does not parse: %s", name, diag_first_error(&d));
   free(copy);
   diag_clear(&d);
   return ts;
}

static void
run_case(const char *name, const char *tgsi, size_t tlen, const char *want, size_t wlen)
{
   struct tgsi_shader *ts = parse_tgsi(tgsi, tlen, name);
   if (!ts)
      return;
   struct diag_list d = {0};
   struct ir_shader *sh = ir_from_tgsi(ts, &d);
   char *w = xstrndup(want, wlen);
   size_t n = strlen(w);
   while (n > 1 && w[n - 1] == '\n' && w[n - 2] == '\n')
      w[--n] = 0; /* the blank line between cases */
   if (!strncmp(w, "error: ", 7)) {
      int line = 0, col = 0, k = 0;
      sscanf(w + 7, "%d:%d %n", &line, &col, &k);
      char *msg = w + 7 + k;
      msg[strcspn(msg, "\n")] = 0;
      CHECKF(!sh && d.nerrors == 1, "%s: expected an error", name);
      if (d.nerrors)
         CHECKF(d.v[0].line == line && d.v[0].col == col && !strcmp(d.v[0].msg, msg),
                "%s: got %d:%d '%s'", name, d.v[0].line, d.v[0].col, d.v[0].msg);
   } else {
      CHECKF(sh, "%s: %s", name, diag_first_error(&d));
      if (sh) {
         CHECKF(ir_validate(sh, "ir_from_tgsi", &d), "%s: %s", name, diag_first_error(&d));
         ir_renumber(sh);
         char *got = ir_print(sh);
         CHECKF(!strcmp(got, w), "%s: got\n%s", name, got);
         free(got);
      }
   }
   free(w);
   ir_shader_free(sh);
   tgsi_shader_free(ts);
   diag_clear(&d);
}

static void
test_cases(void)
{
   char *text, *err;
   size_t len;
   const char *path = DC_SOURCE_DIR "/compiler/ir/tests/from_tgsi.cases";
   if (!read_file(path, &text, &len, &err)) {
      CHECKF(false, "%s", err);
      free(err);
      return;
   }
   unsigned n = 0;
   for (char *p = strstr(text, "\n=== "); p; n++) {
      char *name = p + 5, *eol = strchr(name, '\n');
      char *sep = eol ? strstr(eol, "\n---\n") : NULL;
      if (!sep) {
         CHECKF(false, "case %u: no '---'", n);
         break;
      }
      char *next = strstr(sep, "\n=== ");
      char *end = next ? next + 1 : text + len;
      *eol = 0;
      run_case(name, eol + 1, (size_t)(sep + 1 - (eol + 1)), sep + 5, (size_t)(end - (sep + 5)));
      p = next;
   }
   CHECKF(n >= 12, "only %u cases", n);
   free(text);
}

/* ------------------------------------------------------------------ */
/* Meaning                                                              */

struct run {
   const char *tgsi;
   float in[4][4];
   uint32_t in_bits[4][4]; /* used where nonzero, for exact bit patterns */
   float consts[4][4];
   uint32_t want[4]; /* OUT[0] bits */
   uint8_t want_mask;
   bool killed;
};

static bool
eval_out(const struct ir_shader *sh, const struct run *r, struct ir_eval_env *env)
{
   memset(env, 0, sizeof(*env));
   for (int s = 0; s < 4; s++)
      for (int c = 0; c < 4; c++) {
         env->inputs[s][c] = r->in_bits[s][c] ? r->in_bits[s][c] : fui(r->in[s][c]);
         env->consts[0][s][c] = fui(r->consts[s][c]);
      }
   struct diag_list d = {0};
   bool ok = ir_eval(sh, env, &d);
   CHECKF(ok, "%s", diag_first_error(&d));
   diag_clear(&d);
   return ok;
}

static void
check_run(const char *what, const struct run *r)
{
   struct tgsi_shader *ts = parse_tgsi(r->tgsi, strlen(r->tgsi), what);
   if (!ts)
      return;
   struct diag_list d = {0};
   struct ir_shader *sh = ir_from_tgsi(ts, &d);
   CHECKF(sh, "%s: %s", what, diag_first_error(&d));
   for (int pass = 0; sh && pass < 2; pass++) {
      if (pass == 1) {
         struct opt_options o = {.validate = true};
         struct opt_ctx ctx;
         opt_ctx_init(&ctx, &o, &d);
         CHECKF(opt_run(sh, &ctx), "%s: %s", what, diag_first_error(&d));
         opt_ctx_fini(&ctx);
      }
      struct ir_eval_env env;
      if (!eval_out(sh, r, &env))
         continue;
      CHECKF(env.killed == r->killed, "%s (%s): killed %d", what, pass ? "optimized" : "plain",
             env.killed);
      CHECKF(env.written[0] == r->want_mask, "%s: written mask %x", what, env.written[0]);
      for (int c = 0; c < 4; c++)
         if (r->want_mask & (1u << c))
            CHECKF(env.outputs[0][c] == r->want[c], "%s (%s): OUT[0].%c = 0x%08x (%g), want 0x%08x",
                   what, pass ? "optimized" : "plain", "xyzw"[c], env.outputs[0][c],
                   (double)uif(env.outputs[0][c]), r->want[c]);
   }
   ir_shader_free(sh);
   tgsi_shader_free(ts);
   diag_clear(&d);
}

static const char transform[] = "VERT\n"
                                "DCL IN[0]\n"
                                "DCL OUT[0], POSITION\n"
                                "DCL CONST[0..3]\n"
                                "  0: DP4 OUT[0].x, CONST[0], IN[0]\n"
                                "  1: DP4 OUT[0].y, CONST[1], IN[0]\n"
                                "  2: DP3 OUT[0].z, CONST[2], IN[0]\n"
                                "  3: MAD_SAT OUT[0].w, IN[0].wwww, CONST[3].xxxx, -IN[0].zzzz\n"
                                "  4: END\n";

static const char edges[] = "FRAG\n"
                            "DCL IN[0], GENERIC[0], CONSTANT\n"
                            "DCL OUT[0], COLOR\n"
                            "IMM[0] FLT32 {1, 2, 0, 0}\n"
                            "IMM[1] INT32 {0, -1, 7, 0}\n"
                            "  0: IF IN[0].xxxx\n"
                            "  1:   MOV OUT[0].x, IMM[0].xxxx\n"
                            "  2: ELSE\n"
                            "  3:   MOV OUT[0].x, IMM[0].yyyy\n"
                            "  4: ENDIF\n"
                            "  5: IDIV OUT[0].y, IN[0].yyyy, IMM[1].xxxx\n"
                            "  6: UDIV OUT[0].z, IN[0].zzzz, IMM[1].xxxx\n"
                            "  7: MOD OUT[0].w, IN[0].wwww, IMM[1].xxxx\n"
                            "  8: END\n";

static const char loops[] = "FRAG\n"
                            "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
                            "DCL OUT[0], COLOR\n"
                            "DCL TEMP[0..3], LOCAL\n"
                            "IMM[0] INT32 {0, 1, 8, 3}\n"
                            "IMM[1] FLT32 {0, 0.0625, 1, 0}\n"
                            "  0: MOV TEMP[0], IMM[1].xxxx\n"
                            "  1: MOV TEMP[1].x, IMM[0].xxxx\n"
                            "  2: BGNLOOP\n"
                            "  3:   ISGE TEMP[2].x, TEMP[1].xxxx, IMM[0].zzzz\n"
                            "  4:   UIF TEMP[2].xxxx\n"
                            "  5:     BRK\n"
                            "  6:   ENDIF\n"
                            "  7:   UADD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy\n"
                            "  8:   MOD TEMP[2].y, TEMP[1].xxxx, IMM[0].wwww\n"
                            "  9:   UIF TEMP[2].yyyy\n"
                            " 10:     CONT\n"
                            " 11:   ENDIF\n"
                            " 12:   MOV TEMP[3].x, IMM[0].xxxx\n"
                            " 13:   BGNLOOP\n"
                            " 14:     UADD TEMP[3].x, TEMP[3].xxxx, IMM[0].yyyy\n"
                            " 15:     ADD TEMP[0], TEMP[0], IMM[1].yyyy\n"
                            " 16:     ISGE TEMP[2].z, TEMP[3].xxxx, TEMP[1].xxxx\n"
                            " 17:     UIF TEMP[2].zzzz\n"
                            " 18:       BRK\n"
                            " 19:     ENDIF\n"
                            " 20:   ENDLOOP\n"
                            " 21: ENDLOOP\n"
                            " 22: MOV OUT[0].xy, TEMP[0]\n"
                            " 23: MOV OUT[0].z, TEMP[1].xxxx\n"
                            " 24: END\n";

static const char legacy[] = "VERT\n"
                             "DCL IN[0]\n"
                             "DCL OUT[0], GENERIC[0]\n"
                             "DCL TEMP[0]\n"
                             "  0: LIT TEMP[0], IN[0]\n"
                             "  1: XPD OUT[0].xyz, IN[0], TEMP[0]\n"
                             "  2: LRP OUT[0].w, IN[0].xxxx, IN[0].yyyy, IN[0].zzzz\n"
                             "  3: END\n";

static const char main_ret[] = "FRAG\n"
                               "DCL IN[0], GENERIC[0], CONSTANT\n"
                               "DCL OUT[0], COLOR\n"
                               "IMM[0] FLT32 {1, 2, 0, 0}\n"
                               "  0: MOV OUT[0].x, IMM[0].zzzz\n"
                               "  1: UIF IN[0].xxxx\n"
                               "  2:   MOV OUT[0].x, IMM[0].xxxx\n"
                               "  3:   RET\n"
                               "  4: ENDIF\n"
                               "  5: MOV OUT[0].x, IMM[0].yyyy\n"
                               "  6: END\n";

static const char normalize[] = "VERT\n"
                                "DCL IN[0]\n"
                                "DCL OUT[0], GENERIC[0]\n"
                                "  0: NRM OUT[0], IN[0]\n"
                                "  1: END\n";

static const char doubles[] = "VERT\n"
                              "DCL IN[0]\n"
                              "DCL IN[1]\n"
                              "DCL OUT[0], GENERIC[0]\n"
                              "DCL TEMP[0]\n"
                              "  0: DADD TEMP[0].xy, IN[0], -IN[1]\n"
                              "  1: D2F OUT[0].x, TEMP[0]\n"
                              "  2: DSLT OUT[0].y, IN[1], IN[0]\n"
                              "  3: F2D TEMP[0].zw, IN[0].xxxx\n"
                              "  4: D2I OUT[0].zw, TEMP[0].zwzw\n"
                              "  5: END\n";

static char *
case_text(const char *name)
{
   /* reuse a case's TGSI from the .cases file */
   char *text, *err;
   size_t len;
   if (!read_file(DC_SOURCE_DIR "/compiler/ir/tests/from_tgsi.cases", &text, &len, &err)) {
      free(err);
      return xstrdup("");
   }
   char *hdr = xasprintf("\n=== %s\n", name);
   char *p = strstr(text, hdr), *r;
   if (p) {
      p += strlen(hdr);
      r = xstrndup(p, (size_t)(strstr(p, "\n---\n") + 1 - p));
   } else {
      r = xstrdup("");
   }
   free(hdr);
   free(text);
   return r;
}

static const char packs[] = "VERT\n"
                            "DCL IN[0]\n"
                            "DCL IN[1]\n"
                            "DCL OUT[0], POSITION\n"
                            "  0: PK4UB OUT[0].x, IN[0]\n"
                            "  1: PK4B OUT[0].y, IN[0]\n"
                            "  2: PK2US OUT[0].z, IN[0]\n"
                            "  3: UP4B OUT[0].w, IN[1].xxxx\n"
                            "  4: END\n";

static const char unpacks[] = "VERT\n"
                              "DCL IN[0]\n"
                              "DCL OUT[0], POSITION\n"
                              "  0: UP4UB OUT[0].xy, IN[0].xxxx\n"
                              "  1: UP2US OUT[0].zw, IN[0].yyyy\n"
                              "  2: END\n";

static void
test_meaning(void)
{
   const uint32_t one = 0x3f800000u, two = 0x40000000u;
   struct run r;

   r = (struct run){.tgsi = transform,
                    .in = {{1, 2, 3, 1}},
                    .consts = {{1, 0, 0, 5}, {0, 2, 0, 0}, {1, 1, 1, 0}, {0.5f, 0, 0, 0}},
                    .want = {fui(6), fui(4), fui(6), 0},
                    .want_mask = 0xf};
   check_run("transform", &r); /* w: sat(1*0.5 - 3) = 0 */

   r = (struct run){.tgsi = edges, .in_bits = {{0x80000000u, 7, 7, 7}}};
   r.want[0] = two; /* IF -0.0 is false */
   r.want[1] = 0;   /* IDIV by 0 */
   r.want[2] = ~0u; /* UDIV by 0 */
   r.want[3] = ~0u; /* MOD by 0 = -1 */
   r.want_mask = 0xf;
   check_run("edges -0", &r);
   r.in_bits[0][0] = 0x7fc00000u; /* NaN is true */
   r.want[0] = one;
   check_run("edges NaN", &r);
   r.in_bits[0][0] = 1; /* a denormal is not zero */
   check_run("edges denormal", &r);

   /* i = 1..8; for i = 3 and 6 the inner loop runs i times: 9 adds of 1/16 */
   r = (struct run){.tgsi = loops, .want = {fui(0.5625f), fui(0.5625f), 8}, .want_mask = 7};
   check_run("nested loops", &r);

   char *sw = case_text("switch-fallthrough-default");
   r = (struct run){.tgsi = sw, .in_bits = {{1}}, .want = {3}, .want_mask = 1};
   check_run("switch 1 falls into 2", &r);
   r.in_bits[0][0] = 2;
   r.want[0] = 2;
   check_run("switch 2", &r);
   r.in_bits[0][0] = 9;
   r.want[0] = 3;
   check_run("switch default", &r);
   free(sw);

   char *sub = case_text("ret-inside-if");
   r = (struct run){.tgsi = sub, .in = {{-1.5f}}, .want = {fui(-1.5f)}, .want_mask = 1};
   check_run("early RET", &r);
   r.in[0][0] = 3;
   r.want[0] = fui(6);
   check_run("no RET", &r);
   free(sub);

   /* ADDR = floor(2.5) = 2: the store is outside ARRAY(1) and dropped; the
    * sum reads TEMP[0].x (never written: 0) and TEMP[1].y = IN.y */
   char *arr = case_text("arrays-indirect-kill-if");
   r = (struct run){.tgsi = arr, .in = {{2.5f, 4}}, .want = {fui(4)}, .want_mask = 1};
   check_run("arrays", &r);
   r.in[0][1] = -4; /* KILL_IF: IN.y < 0 */
   r.want[0] = fui(-4);
   r.killed = true;
   check_run("kill", &r);
   free(arr);

   /* LIT(2, 4, 0, 2) = (1, 2, 16, 1);
    * XPD((2, 4, 0), (1, 2, 16)) = (4*16 - 0*2, 0*1 - 2*16, 2*2 - 4*1) = (64, -32, +0);
    * LRP(2, 4, 0) = 2 * (4 - 0) + 0 */
   r = (struct run){.tgsi = legacy,
                    .in = {{2, 4, 0, 2}},
                    .want = {fui(64), fui(-32), 0, fui(8)},
                    .want_mask = 0xf};
   check_run("LIT XPD LRP", &r);

   /* RET in the main program ends it; outputs keep what was written */
   r = (struct run){.tgsi = main_ret, .in_bits = {{5}}, .want = {one}, .want_mask = 1};
   check_run("main RET taken", &r);
   r.in_bits[0][0] = 0;
   r.want[0] = two;
   check_run("main RET not taken", &r);

   /* NRM(3, 4, 0) = (3, 4, 0) * rsq(25) with rsq(25) = 0.2, and w = 1 */
   r = (struct run){.tgsi = normalize,
                    .in = {{3, 4, 0, 7}},
                    .want = {fui(3.0f * 0.2f), fui(4.0f * 0.2f), 0, one},
                    .want_mask = 0xf};
   check_run("NRM", &r);

   /* IN[0].xy = 2.5, IN[1].xy = 0.5 as doubles; D2I of F2D(IN[0].x bits) */
   r = (struct run){.tgsi = doubles, .want_mask = 0xf};
   uint64_t a = dui(2.5), b = dui(0.5);
   r.in_bits[0][0] = (uint32_t)a;
   r.in_bits[0][1] = (uint32_t)(a >> 32);
   r.in_bits[1][0] = (uint32_t)b;
   r.in_bits[1][1] = (uint32_t)(b >> 32);
   r.want[0] = fui(2.0f);                               /* 2.5 - 0.5 */
   r.want[1] = ~0u;                                     /* 0.5 < 2.5 */
   r.want[2] = (uint32_t)(int32_t)uif(r.in_bits[0][0]); /* the low word read as a float */
   r.want[3] = r.want[2]; /* .w: the second written channel, from zw */
   check_run("doubles", &r);

   /* IN[0] = (0.5, -0.25, NaN, 2): unorm bytes 127.5 -> 128 (to even), 0,
    * 0 (NaN), 255 (clamped); snorm 63.5 -> 64, -31.75 -> -32, 0, 127;
    * PK2US 32767.5 -> 32768, 0. UP4B of byte 0x80 (-128/127) is -1. */
   r = (struct run){.tgsi = packs, .in = {{0.5f, -0.25f, 0, 2.0f}}, .want_mask = 0xf};
   r.in_bits[0][2] = 0x7fc00000u;
   r.in_bits[1][0] = 0x80ff7f01u;
   r.want[0] = 0xff000080u;
   r.want[1] = 0x7f00e040u;
   r.want[2] = 0x00008000u;
   r.want[3] = 0xbf800000u;
   check_run("PK4UB PK4B PK2US UP4B", &r);

   /* fields times the reciprocal of the scale (TGSI flags these ROUND) */
   r = (struct run){.tgsi = unpacks, .want_mask = 0xf};
   r.in_bits[0][0] = 0x00000100u;
   r.in_bits[0][1] = 0xffff0002u;
   r.want[0] = 0;
   r.want[1] = fui(1.0f * (1.0f / 255.0f));
   r.want[2] = fui(2.0f * (1.0f / 65535.0f));
   r.want[3] = fui(65535.0f * (1.0f / 65535.0f));
   check_run("UP4UB UP2US", &r);
}

int
main(void)
{
   test_cases();
   test_meaning();
   return test_done();
}
