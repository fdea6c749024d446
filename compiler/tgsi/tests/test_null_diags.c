/*
 * The public entry points of compiler/tgsi take a NULL diagnostic list
 * (the caller wants only the status): each is driven down a path that
 * reports an error or a warning, and must return the same status it
 * returns with a list, without crashing.
 */
#include "compiler/tgsi/tgsi.h"
#include "emu/emu.h"
#include "util/test.h"

#include <string.h>

static struct tgsi_shader *
parse(const char *text)
{
   struct diag_list d = {0};
   struct tgsi_shader *s = tgsi_parse(text, strlen(text), "t.tgsi", NULL, &d);
   CHECKF(s, "does not parse: %s", diag_first_error(&d) ? diag_first_error(&d) : "?");
   diag_clear(&d);
   return s;
}

/* A parse error, a missing file, the sanity check's warnings. */
static void
test_parse(void)
{
   static const char bad[] = "FRAG\nFOO TEMP[0]\nEND\n";
   CHECK(!tgsi_parse(bad, strlen(bad), "bad.tgsi", NULL, NULL));
   CHECK(!tgsi_parse_file(DC_SOURCE_DIR "/no/such/shader.tgsi", NULL, NULL));
   static const char unused[] = "FRAG\nDCL TEMP[0..3]\nDCL OUT[0], COLOR\n"
                                "IMM[0] FLT32 {1.0, 0.0, 0.0, 1.0}\n"
                                "  0: MOV OUT[0], IMM[0]\n  1: END\n";
   struct tgsi_shader *s = tgsi_parse(unused, strlen(unused), "w.tgsi", NULL, NULL);
   CHECK(s != NULL);
   if (s)
      CHECK(tgsi_sanity_check(s, unused, strlen(unused), NULL));
   tgsi_shader_free(s);
}

/* tgsi_interp_check refusing a shader; tgsi_interp_run failing in its
 * preparation, in fitting the env, and at run time (the step budget). */
static void
test_interp(void)
{
   struct tgsi_shader *mem = parse("FRAG\nDCL MEMORY[0], SHARED\nDCL OUT[0], COLOR\n"
                                   "IMM[0] FLT32 {1.0, 0.0, 0.0, 1.0}\n"
                                   "  0: MOV OUT[0], IMM[0]\n  1: END\n");
   struct diag_list d = {0};
   if (mem) {
      enum tgsi_interp_status with = tgsi_interp_check(mem, &d);
      CHECK(with != TGSI_INTERP_OK && d.nerrors == 1);
      CHECK_EQ_U(tgsi_interp_check(mem, NULL), with);
      struct env *e = env_new(TGSI_STAGE_FRAG, 4);
      CHECK(tgsi_interp_run(mem, e, NULL, NULL) != TGSI_INTERP_OK);
      env_free(e);
   }
   diag_clear(&d);
   tgsi_shader_free(mem);

   struct tgsi_shader *cs = parse("COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 4\n"
                                  "PROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"
                                  "PROPERTY CS_FIXED_BLOCK_DEPTH 1\n"
                                  "DCL SV[0], THREAD_ID\nDCL BUFFER[0]\nDCL TEMP[0]\n"
                                  "IMM[0] UINT32 {4, 0, 0, 0}\n"
                                  "  0: UMUL TEMP[0].x, SV[0].xxxx, IMM[0].xxxx\n"
                                  "  1: STORE BUFFER[0].x, TEMP[0].xxxx, SV[0].xxxx\n"
                                  "  2: END\n");
   if (cs) {
      struct env *e = env_new(TGSI_STAGE_COMP, 4); /* no THREAD_ID: an env error */
      CHECK_EQ_U(tgsi_interp_run(cs, e, NULL, NULL), TGSI_INTERP_ENV);
      env_free(e);
   }
   tgsi_shader_free(cs);

   struct tgsi_shader *loop = parse("FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\n"
                                    "IMM[0] FLT32 {1.0, 0.0, 0.0, 1.0}\n"
                                    "  0: BGNLOOP\n  1: ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n"
                                    "  2: ENDLOOP\n  3: MOV OUT[0], IMM[0]\n  4: END\n");
   if (loop) {
      struct env *e = env_new(TGSI_STAGE_FRAG, 4);
      struct tgsi_interp_opts o = {.max_steps = 1000};
      enum tgsi_interp_status st = tgsi_interp_run(loop, e, &o, NULL);
      CHECK(st != TGSI_INTERP_OK);
      struct diag_list d2 = {0};
      CHECK_EQ_U(tgsi_interp_run(loop, e, &o, &d2), st);
      CHECK(d2.nerrors >= 1);
      diag_clear(&d2);
      env_free(e);
   }
   tgsi_shader_free(loop);
}

int
main(void)
{
   test_parse();
   test_interp();
   return test_done();
}
