/*
 * The comparison rules (diff/compare.c), one by one, each shown passing and
 * failing: value verdicts per mode and op class, the exact channels
 * (INVARIANT, _PRECISE chains), and whole-run comparison of outputs,
 * discards and buffers with the mismatch text.
 */
#include "diff/diff.h"
#include "util/test.h"

#include <math.h>
#include <stdlib.h>

static const struct diff_cmp_opts oracle = {.mode = DIFF_CMP_ORACLE};
static const struct diff_cmp_opts exact = {.mode = DIFF_CMP_EXACT};

static uint32_t
ulps(float x, int n)
{
   return fui(x) + (uint32_t)n;
}

static enum diff_verdict
v(uint32_t e, uint32_t a, unsigned flags, bool ex, const struct diff_cmp_opts *o)
{
   return diff_value_verdict(e, a, flags, ex, o);
}

static void
test_ulp(void)
{
   CHECK_EQ_U(diff_ulp_distance(fui(1.0f), ulps(1.0f, 1)), 1);
   CHECK_EQ_U(diff_ulp_distance(0x00000000u, 0x80000000u), 0);
   CHECK_EQ_U(diff_ulp_distance(0x00000001u, 0x80000001u), 2);
   CHECK_EQ_U(diff_ulp_distance(fui(-1.0f), fui(1.0f)), 2u * 0x3f800000u);
}

static void
test_oracle(void)
{
   uint32_t one = fui(1.0f);
   CHECK(v(one, one, 0, false, &oracle) == DIFF_V_EQUAL);
   CHECK(v(one, ulps(1.0f, 1), 0, false, &oracle) == DIFF_V_DIFFERENT);
   CHECK(v(one, fui(2.0f), ENV_F_UNDEF, false, &oracle) == DIFF_V_UNDEFINED);
   /* NaN payloads never compared against the oracle. */
   CHECK(v(0x7fc00000u, 0xffc00001u, 0, false, &oracle) == DIFF_V_EQUAL);
   CHECK(v(0x7fc00000u, one, 0, false, &oracle) == DIFF_V_DIFFERENT);
   /* FUSE: 16 ulp, 2^-16 relative, 2^-20 absolute. */
   CHECK(v(one, ulps(1.0f, 100), ENV_F_FUSE, false, &oracle) == DIFF_V_TOLERATED);
   CHECK(v(one, ulps(1.0f, 1000), ENV_F_FUSE, false, &oracle) == DIFF_V_DIFFERENT);
   CHECK(v(fui(1e-10f), fui(2e-10f), ENV_F_FUSE, false, &oracle) == DIFF_V_TOLERATED);
   CHECK(v(fui(1e-10f), fui(2e-10f), 0, false, &oracle) == DIFF_V_DIFFERENT);
   CHECK(v(fui(1e-3f), fui(1.1e-3f), ENV_F_FUSE, false, &oracle) == DIFF_V_DIFFERENT);
   /* ... but not on an exact (INVARIANT / _PRECISE) channel. */
   CHECK(v(one, ulps(1.0f, 1), ENV_F_FUSE, true, &oracle) == DIFF_V_DIFFERENT);
   /* RCP class: 2^-14; the exact flag keeps it (hardware rcp). */
   CHECK(v(one, ulps(1.0f, 300), ENV_F_RCP, true, &oracle) == DIFF_V_TOLERATED);
   CHECK(v(fui(1000.0f), fui(1001.0f), ENV_F_RCP, false, &oracle) == DIFF_V_DIFFERENT);
   /* ... which normalized unpacks carry: a byte over 127 as a product
    * with 1/127, two ulps off after a sum a binade below, passes; the byte
    * over 128 does not. */
   CHECK(v(fui(0.433070838f), ulps(0.433070838f, 2), ENV_F_RCP, false, &oracle) ==
         DIFF_V_TOLERATED);
   CHECK(v(fui(55.0f / 127.0f), fui(55.0f / 128.0f), ENV_F_RCP, false, &oracle) ==
         DIFF_V_DIFFERENT);
   /* TRANS: 2^-12, and POW overflowing one step early. */
   CHECK(v(fui(-5.9165e24f), fui(-5.9175e24f), ENV_F_TRANS, false, &oracle) == DIFF_V_TOLERATED);
   CHECK(v(fui(0.25f), fui(0.75f), ENV_F_TRANS, false, &oracle) == DIFF_V_DIFFERENT);
   CHECK(v(0x7f800000u, fui(0x1p127f), ENV_F_TRANS, false, &oracle) == DIFF_V_TOLERATED);
   CHECK(v(0x7f800000u, fui(-0x1p127f), ENV_F_TRANS, false, &oracle) == DIFF_V_DIFFERENT);
   CHECK(v(0x7f800000u, fui(0x1p127f), ENV_F_RCP, false, &oracle) == DIFF_V_DIFFERENT);
   /* ZSIGN: +0 == -0 only with the flag. */
   CHECK(v(0u, 0x80000000u, ENV_F_ZSIGN, false, &oracle) == DIFF_V_TOLERATED);
   CHECK(v(0u, 0x80000000u, 0, false, &oracle) == DIFF_V_DIFFERENT);
   /* ROUND: ties between integers, 1 ulp, packed bytes +-1. */
   CHECK(v(fui(2.0f), fui(3.0f), ENV_F_ROUND, false, &oracle) == DIFF_V_TOLERATED);
   CHECK(v(fui(2.0f), fui(4.0f), ENV_F_ROUND, false, &oracle) == DIFF_V_DIFFERENT);
   CHECK(v(0x01020304u, 0x01030305u, ENV_F_ROUND, false, &oracle) == DIFF_V_TOLERATED);
   CHECK(v(0x01020304u, 0x01020306u, ENV_F_ROUND, false, &oracle) == DIFF_V_DIFFERENT);
   /* a packed tie may carry into the next byte (PK2US) or cross zero (PK4B) */
   CHECK(v(0x000000ffu, 0x00000100u, ENV_F_ROUND, false, &oracle) == DIFF_V_TOLERATED);
   CHECK(v(0x00ff0000u, 0x01000000u, ENV_F_ROUND, false, &oracle) == DIFF_V_TOLERATED);
   CHECK(v(0x00000000u, 0x000000ffu, ENV_F_ROUND, false, &oracle) == DIFF_V_TOLERATED);
   CHECK(v(0x0000007fu, 0x00000080u, ENV_F_ROUND, false, &oracle) == DIFF_V_TOLERATED);
   CHECK(v(0x00000300u, 0x00000100u, ENV_F_ROUND, false, &oracle) == DIFF_V_DIFFERENT);
   CHECK(v(0x00000080u, 0x0000007eu, ENV_F_ROUND, false, &oracle) == DIFF_V_DIFFERENT);
   /* Classes no tolerance bounds are left out. */
   CHECK(v(one, 0u, ENV_F_DENORM, false, &oracle) == DIFF_V_UNCHECKED);
   CHECK(v(one, 0x7fc00000u, ENV_F_NAN, false, &oracle) == DIFF_V_UNCHECKED);
   CHECK(v(one, fui(5.0f), ENV_F_DERIV, false, &oracle) == DIFF_V_UNCHECKED);
}

static void
test_exact(void)
{
   uint32_t one = fui(1.0f);
   struct diff_cmp_opts xn = {.mode = DIFF_CMP_EXACT, .exact_nan = true};
   struct diff_cmp_opts ffma = {.mode = DIFF_CMP_EXACT, .inexact = 1u << DIFF_INEXACT_FFMA_BIT};
   struct diff_cmp_opts alg = {.mode = DIFF_CMP_EXACT, .inexact = 1u << DIFF_INEXACT_ALGEBRAIC_BIT};
   struct diff_cmp_opts bits = {.mode = DIFF_CMP_BITS, .inexact = ~0u};
   /* Bit-exact: flags give no tolerance between programs. */
   CHECK(v(one, ulps(1.0f, 1), ENV_F_FUSE | ENV_F_TRANS, false, &exact) == DIFF_V_DIFFERENT);
   /* ... except the sign of a MIN/MAX of +0 and -0, which no model fixes
    * (ref's compare-and-select against opt's max, LIT): both zeros pass,
    * nothing else does. */
   CHECK(v(0u, 0x80000000u, ENV_F_ZSIGN, false, &exact) == DIFF_V_TOLERATED);
   CHECK(v(0u, 0x80000000u, ENV_F_ZSIGN, true, &exact) == DIFF_V_TOLERATED);
   CHECK(v(0u, 0x80000000u, 0, false, &exact) == DIFF_V_DIFFERENT);
   CHECK(v(0u, 0x00000001u, ENV_F_ZSIGN, false, &exact) == DIFF_V_DIFFERENT);
   CHECK(v(0x7f800000u, 0xff800000u, ENV_F_ZSIGN, false, &exact) == DIFF_V_DIFFERENT);
   CHECK(v(one, fui(2.0f), ENV_F_UNDEF, false, &exact) == DIFF_V_UNDEFINED);
   /* NaN == NaN unless --exact-nan. */
   CHECK(v(0x7fc00000u, 0x7fc00001u, 0, false, &exact) == DIFF_V_EQUAL);
   CHECK(v(0x7fc00000u, 0x7fc00001u, 0, false, &xn) == DIFF_V_DIFFERENT);
   CHECK(v(0x7fc00000u, 0x7fc00000u, 0, false, &xn) == DIFF_V_EQUAL);
   /* fuse-ffma: 16 ulp, 2^-14 relative, 2^-20 absolute, any value (MUL+ADD
    * fuse too), never on exact channels; ref's overflow may be finite in opt. */
   CHECK(v(one, ulps(1.0f, 2), 0, false, &ffma) == DIFF_V_TOLERATED);
   CHECK(v(one, ulps(1.0f, 500), ENV_F_FUSE, false, &ffma) == DIFF_V_TOLERATED);
   CHECK(v(one, ulps(1.0f, 2), ENV_F_FUSE, true, &ffma) == DIFF_V_DIFFERENT);
   CHECK(v(one, ulps(1.0f, 5000), ENV_F_FUSE, false, &ffma) == DIFF_V_DIFFERENT);
   CHECK(v(fui(0.01f), fui(0.0100005f), 0, false, &ffma) == DIFF_V_TOLERATED);
   CHECK(v(fui(0.01f), fui(0.0101f), 0, false, &ffma) == DIFF_V_DIFFERENT);
   CHECK(v(0x7f800000u, fui(3e38f), 0, false, &ffma) == DIFF_V_TOLERATED);
   CHECK(v(fui(3e38f), 0x7f800000u, 0, false, &ffma) == DIFF_V_DIFFERENT);
   CHECK(v(0x7fc00000u, 0xff800000u, 0, false, &ffma) == DIFF_V_TOLERATED);
   /* inexact: sign of zero, and ref's NaN turned into a number. */
   CHECK(v(0x80000000u, 0u, 0, false, &alg) == DIFF_V_TOLERATED);
   CHECK(v(0x7fc00000u, 0u, 0, false, &alg) == DIFF_V_TOLERATED);
   CHECK(v(0u, 0x7fc00000u, 0, false, &alg) == DIFF_V_DIFFERENT);
   CHECK(v(one, ulps(1.0f, 1), 0, false, &alg) == DIFF_V_DIFFERENT);
   /* Invariance: bits, whatever transforms were allowed. */
   CHECK(v(one, ulps(1.0f, 1), ENV_F_FUSE, false, &bits) == DIFF_V_DIFFERENT);
   CHECK(v(0x7fc00000u, 0xffc00000u, 0, false, &bits) == DIFF_V_EQUAL);
}

static struct tgsi_shader *
parse(const char *text)
{
   struct diag_list d = {0};
   struct tgsi_shader *s = tgsi_parse(text, strlen(text), "test.tgsi", NULL, &d);
   CHECKF(s != NULL, "%s", diag_first_error(&d) ? diag_first_error(&d) : "");
   diag_clear(&d);
   return s;
}

static void
test_exact_channels(void)
{
   struct tgsi_shader *s = parse("VERT\n"
                                 "DCL IN[0]\n"
                                 "DCL OUT[0], POSITION, INVARIANT\n"
                                 "DCL OUT[1], GENERIC[0]\n"
                                 "DCL OUT[2], GENERIC[1]\n"
                                 "DCL OUT[3], GENERIC[2]\n"
                                 "DCL CONST[0..1]\n"
                                 "DCL TEMP[0..1]\n"
                                 "  0: MUL TEMP[0], CONST[0], IN[0]\n"
                                 "  1: MOV OUT[0], TEMP[0]\n"
                                 "  2: MUL_PRECISE TEMP[1], CONST[0], IN[0]\n"
                                 "  3: ADD_PRECISE TEMP[1].xy, TEMP[1], CONST[1]\n"
                                 "  4: ADD_PRECISE TEMP[1].z, TEMP[1], TEMP[0]\n"
                                 "  5: MOV OUT[1], TEMP[1]\n"
                                 "  6: MAD OUT[2], TEMP[1], CONST[1], CONST[0]\n"
                                 "  7: MOV OUT[3].xy, IN[0]\n"
                                 "  8: END\n");
   uint8_t *x = diff_exact_channels(s, 4, false);
   CHECK(x[0] && x[1] && x[2] && x[3]);       /* INVARIANT, whatever computes it */
   CHECK(x[4] && x[5] && x[7]);               /* a _PRECISE chain through a MOV */
   CHECK(!x[6]);                              /* .z reads the non-precise TEMP[0] */
   CHECK(!x[8] && !x[9] && !x[10] && !x[11]); /* MAD, not precise */
   CHECK(x[12] && x[13]);                     /* a copy of an input */
   CHECK(!x[14] && !x[15]);                   /* never written */
   free(x);
   tgsi_shader_free(s);
}

/* With ctl (ref against an opt allowed inexact transforms), a channel
 * also needs every branch deciding it to decide on exact values. */
static void
test_exact_channels_ctl(void)
{
   struct tgsi_shader *s = parse("FRAG\n"
                                 "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
                                 "DCL OUT[0], GENERIC[0]\n"
                                 "DCL OUT[1], GENERIC[1]\n"
                                 "DCL OUT[2], GENERIC[2]\n"
                                 "DCL TEMP[0..1]\n"
                                 "IMM[0] FLT32 {0.0, 1.0, 2.0, 0.5}\n"
                                 "  0: MUL TEMP[0].x, IN[0].xxxx, IMM[0].xxxx\n"
                                 "  1: SLT_PRECISE TEMP[0].y, IN[0].xxxx, IMM[0].wwww\n"
                                 "  2: IF TEMP[0].xxxx\n"
                                 "  3:   MOV OUT[0].x, IMM[0].yyyy\n"
                                 "  4: ENDIF\n"
                                 "  5: IF TEMP[0].yyyy\n"
                                 "  6:   MOV OUT[0].y, IMM[0].zzzz\n"
                                 "  7: ENDIF\n"
                                 "  8: MOV OUT[0].z, IMM[0].zzzz\n"
                                 "  9: MOV TEMP[1].x, IMM[0].xxxx\n"
                                 " 10: BGNLOOP\n"
                                 " 11:   ADD_PRECISE TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy\n"
                                 " 12:   IF TEMP[0].xxxx\n"
                                 " 13:     BRK\n"
                                 " 14:   ENDIF\n"
                                 " 15:   BRK\n"
                                 " 16: ENDLOOP\n"
                                 " 17: MOV OUT[1].x, TEMP[1].xxxx\n"
                                 " 18: IF TEMP[0].xxxx\n"
                                 " 19:   RET\n"
                                 " 20: ENDIF\n"
                                 " 21: MOV OUT[2].x, IMM[0].yyyy\n"
                                 " 22: END\n");
   uint8_t *x = diff_exact_channels(s, 3, false), *c = diff_exact_channels(s, 3, true);
   CHECK(x[0] && x[1] && x[2] && x[4] && x[8]); /* values alone: all exact */
   CHECK(!c[0]);                                /* under IF on MUL: not exact */
   CHECK(c[1]);                                 /* under IF on SLT_PRECISE */
   CHECK(c[2]);                                 /* after the ENDIF */
   CHECK(!c[4]);                                /* a loop left by a BRK on MUL */
   CHECK(!c[8]);                                /* after a RET under IF on MUL */
   free(x);
   free(c);
   tgsi_shader_free(s);
}

static const char *fs_text = "FRAG\n"
                             "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
                             "DCL OUT[0], COLOR\n"
                             "DCL OUT[1], GENERIC[0]\n"
                             "  0: MOV OUT[0], IN[0]\n"
                             "  1: MOV OUT[1].y, IN[0]\n"
                             "  2: END\n";

static struct env *
run_env(const struct tgsi_shader *s)
{
   struct diag_list d = {0};
   struct env *e = diff_gen_inputs(s, 7, 16, &d);
   CHECK(e != NULL);
   CHECK(tgsi_interp_run(s, e, NULL, &d) == TGSI_INTERP_OK);
   diag_clear(&d);
   return e;
}

static void
test_whole_run(void)
{
   struct tgsi_shader *s = parse(fs_text);
   struct env *gold = run_env(s), *prog = env_clone(gold);
   struct diff_cmp_result r;
   diff_compare(s, gold, prog, &oracle, &r);
   CHECK_EQ_U(r.mismatched, 0);
   CHECK(r.compared > 0);
   uint64_t all = r.compared + r.undefined;

   /* A wrong output register: OUT[1].y of lane 3. */
   size_t i = env_out_index(prog, 0, 1, 1) + 3;
   prog->out[i] ^= 0x00400000u;
   struct diff_cmp_opts o = {.mode = DIFF_CMP_EXACT, .flags = gold};
   diff_compare(s, gold, prog, &o, &r);
   CHECK_EQ_U(r.mismatched, 1);
   CHECK_EQ_U(r.nlanes, 1);
   CHECK_EQ_U(r.lanes[0], 3);
   CHECK(r.shown[0].kind == DIFF_VAL_OUT && r.shown[0].reg == 1 && r.shown[0].chan == 1);
   char *t = diff_mismatch_text(s, &r.shown[0]);
   CHECKF(strstr(t, "OUT[1].y (GENERIC 0) lane 3: expected 0x") != NULL, "%s", t);
   free(t);

   /* Undefined per the interpreter: left out and counted. */
   gold->out_flags[i] |= ENV_F_UNDEF;
   diff_compare(s, gold, prog, &o, &r);
   CHECK_EQ_U(r.mismatched, 0);
   CHECK(r.undefined >= 1 && r.compared + r.undefined == all);
   gold->out_flags[i] &= (uint16_t)~ENV_F_UNDEF;

   /* A lane discarded on one side only; its outputs are then undefined. */
   prog->out[i] = gold->out[i];
   prog->killed[5] = 1;
   diff_compare(s, gold, prog, &o, &r);
   CHECK_EQ_U(r.mismatched, 1);
   CHECK(r.shown[0].kind == DIFF_VAL_KILLED && r.shown[0].lane == 5);
   gold->kill_undef[5] = 1;
   diff_compare(s, gold, prog, &o, &r);
   CHECK_EQ_U(r.mismatched, 0);

   /* select: only the chosen channels (the invariance check's POSITION). */
   prog->killed[5] = 0;
   prog->out[env_out_index(prog, 0, 0, 2)] ^= 1;
   uint8_t sel[8] = {0, 0, 0, 0, 0, 1, 0, 0};
   struct diff_cmp_opts os = {.mode = DIFF_CMP_BITS, .flags = gold, .select = sel};
   diff_compare(s, gold, prog, &os, &r);
   CHECK_EQ_U(r.mismatched, 0);
   sel[2] = 1;
   diff_compare(s, gold, prog, &os, &r);
   CHECK_EQ_U(r.mismatched, 1);

   env_free(prog);
   env_free(gold);
   tgsi_shader_free(s);
}

static void
test_buffers(void)
{
   struct tgsi_shader *s = parse("COMP\n"
                                 "DCL SV[0], THREAD_ID\n"
                                 "DCL BUFFER[0]\n"
                                 "DCL TEMP[0]\n"
                                 "IMM[0] UINT32 {4, 0, 0, 0}\n"
                                 "  0: UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n"
                                 "  1: STORE BUFFER[0].x, TEMP[0].xxxx, SV[0].xxxx\n"
                                 "  2: END\n");
   struct env *gold = run_env(s), *prog = env_clone(gold);
   struct diff_cmp_result r;
   struct diff_cmp_opts o = {.mode = DIFF_CMP_EXACT, .flags = gold};
   diff_compare(s, gold, prog, &o, &r);
   CHECK_EQ_U(r.mismatched, 0);
   CHECK(r.compared > 0);
   /* Words 0..7 race between workgroups (undefined); word 25 is untouched. */
   prog->buf[0].data[100] ^= 1;
   diff_compare(s, gold, prog, &o, &r);
   CHECK_EQ_U(r.mismatched, 1);
   CHECK(r.shown[0].kind == DIFF_VAL_BUFFER && r.shown[0].lane == 100 && r.shown[0].reg == 0);
   char *t = diff_mismatch_text(s, &r.shown[0]);
   CHECKF(strstr(t, "BUFFER[0] byte 100: expected 0x") != NULL, "%s", t);
   prog->buf[0].data[100] ^= 1;
   prog->buf[0].data[4] ^= 1;
   diff_compare(s, gold, prog, &o, &r);
   CHECK_EQ_U(r.mismatched, 0);
   CHECK(r.undefined >= 8);
   free(t);
   env_free(prog);
   env_free(gold);
   tgsi_shader_free(s);
}

/* Against the oracle a word gets the classes of the value the interpreter
 * stored: an exact one must match to the bit (an integer one off is a
 * miscompile), an RCP one within its tolerance; where the interpreter kept
 * no classes, the FUSE tolerance. */
static void
test_buffer_classes(void)
{
   struct tgsi_shader *s = parse("COMP\n"
                                 "DCL BUFFER[0]\n"
                                 "IMM[0] UINT32 {0, 7, 0, 0}\n"
                                 "  0: STORE BUFFER[0].x, IMM[0].xxxx, IMM[0].yyyy\n"
                                 "  1: END\n");
   struct env *gold = run_env(s), *prog = env_clone(gold);
   struct diff_cmp_result r;
   CHECK(gold->buf[0].cls && env_mem_class(&gold->buf[0], 0) == 0);
   /* every lane of every workgroup stored there: defined here by hand */
   memset(gold->buf[0].undef, 0, 4);
   diff_compare(s, gold, prog, &oracle, &r);
   CHECK_EQ_U(r.mismatched, 0);
   prog->buf[0].data[0] ^= 1; /* 7 -> 6 */
   diff_compare(s, gold, prog, &oracle, &r);
   CHECK_EQ_U(r.mismatched, 1);
   env_mem_set_class(&gold->buf[0], 0, ENV_F_RCP);
   diff_compare(s, gold, prog, &oracle, &r);
   CHECK_EQ_U(r.mismatched, 0);
   free(gold->buf[0].cls);
   gold->buf[0].cls = NULL;
   diff_compare(s, gold, prog, &oracle, &r);
   CHECK_EQ_U(r.mismatched, 0);
   env_free(prog);
   env_free(gold);
   tgsi_shader_free(s);
}

/* Geometry shaders: emitted vertex counts, data, streams and primitive
 * numbers are compared. */
static void
test_gs(void)
{
   struct tgsi_shader *s = parse("GEOM\n"
                                 "PROPERTY GS_INPUT_PRIMITIVE POINTS\n"
                                 "PROPERTY GS_MAX_OUTPUT_VERTICES 2\n"
                                 "DCL IN[][0], POSITION\n"
                                 "DCL OUT[0], POSITION\n"
                                 "IMM[0] INT32 {0, 1, 0, 0}\n"
                                 "  0: MOV OUT[0], IN[0][0]\n"
                                 "  1: EMIT IMM[0].xxxx\n"
                                 "  2: ENDPRIM IMM[0].xxxx\n"
                                 "  3: MOV OUT[0], IN[0][0]\n"
                                 "  4: EMIT IMM[0].yyyy\n"
                                 "  5: END\n");
   struct env *gold = run_env(s), *prog = env_clone(gold);
   struct diff_cmp_opts o = {.mode = DIFF_CMP_EXACT, .flags = gold};
   struct diff_cmp_result r;
   diff_compare(s, gold, prog, &o, &r);
   CHECK_EQ_U(r.mismatched, 0);
   CHECK_EQ_U(gold->gs_count[4], 2);
   CHECK_EQ_U(gold->gs_stream[4 * 2 + 1], 1);
   CHECK_EQ_U(gold->gs_prim[4 * 2 + 1], 1);
   prog->gs_stream[4 * 2 + 1] = 0;
   diff_compare(s, gold, prog, &o, &r);
   CHECK_EQ_U(r.mismatched, 1);
   CHECK(r.shown[0].kind == DIFF_VAL_GS_STREAM && r.shown[0].lane == 4 && r.shown[0].vertex == 1);
   char *t = diff_mismatch_text(s, &r.shown[0]);
   CHECKF(strstr(t, "emitted vertex 1 lane 4: stream expected 1, got 0") != NULL, "%s", t);
   free(t);
   prog->gs_stream[4 * 2 + 1] = 1;
   prog->gs_prim[3 * 2 + 1] = 0;
   diff_compare(s, gold, prog, &o, &r);
   CHECK_EQ_U(r.mismatched, 1);
   CHECK(r.shown[0].kind == DIFF_VAL_GS_PRIM && r.shown[0].lane == 3);
   env_free(prog);
   env_free(gold);
   tgsi_shader_free(s);
}

/* PK2H words: each half is a float with the classes of the packed values
 * (fs_gbuffer_pack seed 2: a cancelled RCP difference, -2.4e-7 against 0,
 * packed as the f16 denormal 0x8004 against 0x0000). */
static void
test_packed_halves(void)
{
   unsigned pk = ENV_F_PK16 | ENV_F_RCP;
   struct diff_cmp_opts ffma = {.mode = DIFF_CMP_EXACT, .inexact = 1u << DIFF_INEXACT_FFMA_BIT};
   CHECK(v(0xfc008004u, 0xfc000000u, pk, false, &oracle) == DIFF_V_TOLERATED);
   CHECK(v(0xfc008004u, 0xfc000000u, ENV_F_PK16, false, &oracle) == DIFF_V_DIFFERENT);
   /* one f16 step from rounding two close floats; not between programs */
   CHECK(v(0x3c003c00u, 0x3c013c00u, pk, false, &oracle) == DIFF_V_TOLERATED);
   CHECK(v(0x3c003c00u, 0x3c013c00u, pk, false, &exact) == DIFF_V_DIFFERENT);
   CHECK(v(0x3c003c00u, 0x3c013c00u, pk, false, &ffma) == DIFF_V_TOLERATED);
   /* a half far off fails whatever the other does */
   CHECK(v(0x3c003c00u, 0x3c004000u, pk, false, &oracle) == DIFF_V_DIFFERENT);
   CHECK(v(0x3c003c00u, 0x40003c00u, pk, false, &oracle) == DIFF_V_DIFFERENT);
   /* NaN halves are NaN floats (equal between programs unless exact_nan) */
   CHECK(v(0x7e003c00u, 0x7e013c00u, ENV_F_PK16, false, &exact) == DIFF_V_EQUAL);
}

int
main(void)
{
   test_ulp();
   test_packed_halves();
   test_oracle();
   test_exact();
   test_exact_channels();
   test_exact_channels_ctl();
   test_whole_run();
   test_buffers();
   test_buffer_classes();
   test_gs();
   return test_done();
}
