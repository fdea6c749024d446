/*
 * Reproducers that carry their inputs, as 'diffcomp reduce' writes them:
 * the inputs survive the YAML round trip, a replay runs on them (not on
 * inputs regenerated from the seed), and the recorded lanes are checked
 * against them.
 */
#include "diff/diff.h"
#include "emu/emu.h"
#include "util/test.h"

#include <stdlib.h>

static const char shader[] = "FRAG\n"
                             "DCL IN[0], GENERIC[0], PERSPECTIVE\n"
                             "DCL OUT[0].x, GENERIC[0]\n"
                             "  0: MAD OUT[0].x, IN[0].xxxx, IN[0].yyyy, IN[0].zzzz\n"
                             "  1: END\n";

static struct env *
two_lanes(void)
{
   struct env *e = env_new(TGSI_STAGE_FRAG, 2);
   env_alloc_inputs(e, 1, 1);
   for (uint32_t l = 0; l < 2; l++) {
      env_in(e, 0, 0, 0)[l] = fui(2.0f + (float)l);
      env_in(e, 0, 0, 1)[l] = fui(3.0f);
      env_in(e, 0, 0, 2)[l] = fui(4.0f);
   }
   return e;
}

int
main(void)
{
   struct diag_list d = {0};
   struct diff_check c;
   diff_check_init(&c);
   c.o.jobs = 0;
   c.o.seed = 7;
   c.o.invocations = 2;
   CHECK(diff_check_add_targets(&c, "a3xx", &d));
   struct env *e = two_lanes();
   diff_check_add_shader(&c, "mad.tgsi", xstrdup(shader));
   c.shaders[0].inputs = e;
   diff_check_make_cases(&c, 1, 1);
   diff_check_run(&c, NULL, NULL);
   CHECK(c.results[0].done);

   /* Written with its inputs ... */
   char *y = diff_repro_yaml(&c, 0, shader);
   CHECK(y && strstr(y, "\ninputs: |\n  stage: FRAG\n  invocations: 2\n"));
   struct diff_repro r;
   CHECK(y && diff_repro_parse(y, strlen(y), "repro.yaml", &r, &d));
   /* ... and read back whole. */
   CHECK(r.inputs != NULL);
   if (r.inputs) {
      CHECK_EQ_U(r.inputs->nlanes, 2);
      CHECK_EQ_U(r.o.invocations, 2);
      CHECK_EQ_U(diff_env_hash(r.inputs), diff_env_hash(e));
      char *why = NULL;
      CHECK(diff_repro_lanes_match(&r, &c, &why));
      free(why);
      struct diff_check c2;
      diff_check_init(&c2);
      c2.o.jobs = 0;
      CHECK(diff_repro_setup(&r, &c2, &d));
      CHECK(c2.shaders[0].inputs == r.inputs);
      diff_check_run(&c2, NULL, NULL);
      CHECK(diff_repro_same(&c.results[0], &c2.results[0]));
      diff_check_fini(&c2);
      diff_repro_free(&r);
   }
   free(y);

   /* Bad inputs in a reproducer are an error with a position. */
   const char bad[] = "diffcomp-repro: 1\ntarget: a3xx\nseed: 1\ninvocations: 1\n"
                      "text: |\n  FRAG\n  END\ninputs: |\n  stage: NOPE\n";
   CHECK(!diff_repro_parse(bad, strlen(bad), "bad.yaml", &r, &d));
   CHECK(d.nerrors >= 1);
   diag_clear(&d);
   diff_check_fini(&c);
   env_free(e);
   return test_done();
}
