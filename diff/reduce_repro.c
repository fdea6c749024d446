/*
 * Reducing a reproducer: the predicate diff_reduce asks is the check's own
 * case runner (diff_check_run) on the reproducer's case -- its target,
 * seed, options and injected faults -- with the candidate shader and
 * inputs, in a worker process like the check's, so that a crash or a hang
 * of a candidate is that candidate's result. A candidate keeps the failure
 * when it shows the kind of signal the original run failed with first
 * (and the same step with same_step); one that cannot be run at all (bad
 * inputs, an interpreter refusal, a compiler refusal, a timeout) that the
 * original did not show is invalid. The reduced case is run once more and
 * written as a reproducer with its inputs. Nothing here prints; `diffcomp
 * reduce` and `diffcomp faults --check --reduce` are the front ends.
 */
#include "diff/diff.h"

#include <stdlib.h>

/* A candidate's run may take RUN_SLOWER times the last run that kept the
 * failure, plus RUN_MIN_SECONDS, before it counts as a hang. */
#define RUN_SLOWER      10.0
#define RUN_MIN_SECONDS 0.25

struct rr_state {
   struct diff_repro_reduce *rr;
   struct diff_check c;
   unsigned max_timeout_ms;      /* the caller's (0: none) */
   struct tgsi_parse_opts po;    /* the shader's dialect: options plus its own line */
   bool ref_sig[DIFF_SIG_COUNT]; /* kinds the original run showed */
};

/* The text of s as the case runner reads it: the dialect line first when
 * the shader needs one the options do not give. */
static char *
shader_text(const struct rr_state *st, const struct tgsi_shader *s)
{
   char *body = tgsi_print(s);
   bool legacy = st->po.legacy && !st->c.o.popts.legacy;
   bool hex = st->po.hex_bits && !st->c.o.popts.hex_bits;
   if (!legacy && !hex)
      return body;
   char *t = xasprintf("# dialect:%s%s\n%s", legacy ? " legacy" : "", hex ? " hex-bits" : "", body);
   free(body);
   return t;
}

/* Runs the one case on text (owned) and inputs; the result is c.results[0]. */
static const struct diff_case_result *
run_case(struct rr_state *st, char *text, const struct env *inputs)
{
   struct diff_check *c = &st->c;
   free(c->shaders[0].text);
   c->shaders[0].text = text;
   c->shaders[0].inputs = inputs;
   c->o.invocations = inputs->nlanes;
   diff_result_fini(&c->results[0]);
   diff_check_run(c, NULL, NULL);
   return &c->results[0];
}

/* A candidate that runs far longer than the last one that kept the
 * failure (a loop whose exit went) is a hang: invalid, and cheap to find
 * out. The timeout follows the runs as they get shorter. */
static void
scale_timeout(struct rr_state *st, double seconds)
{
   double t = 1000.0 * (RUN_SLOWER * seconds + RUN_MIN_SECONDS);
   st->c.o.timeout_ms =
       st->max_timeout_ms && t > st->max_timeout_ms ? st->max_timeout_ms : (unsigned)t;
}

static bool
has_signal(const struct diff_case_result *res, enum diff_signal_kind k, const char *step)
{
   for (unsigned i = 0; i < res->nsig; i++)
      if (res->sig[i].kind == k && (!step || !strcmp(res->sig[i].step, step)))
         return true;
   return false;
}

/* Signals that say the candidate could not be run at all. */
static bool
cannot_run(enum diff_signal_kind k)
{
   return k == DIFF_SIG_INPUT || k == DIFF_SIG_INTERP || k == DIFF_SIG_UNSUPPORTED ||
          k == DIFF_SIG_REFUSED || k == DIFF_SIG_TIMEOUT;
}

static enum diff_reduce_verdict
still_fails(const struct tgsi_shader *cand, const struct env *inputs, void *user)
{
   struct rr_state *st = user;
   const struct diff_case_result *res = run_case(st, shader_text(st, cand), inputs);
   for (unsigned i = 0; i < res->nsig; i++) {
      enum diff_signal_kind k = res->sig[i].kind;
      if (k != st->rr->kind && cannot_run(k) && !st->ref_sig[k])
         return DIFF_REDUCE_INVALID;
   }
   if (!has_signal(res, st->rr->kind, st->rr->step))
      return DIFF_REDUCE_DISCARD;
   scale_timeout(st, res->seconds);
   return DIFF_REDUCE_KEEP;
}

/* The failure to keep: the first signal that fails the case. */
static bool
pick_failure(struct rr_state *st, const struct diff_case_result *res)
{
   for (unsigned i = 0; i < res->nsig; i++)
      st->ref_sig[res->sig[i].kind] = true;
   for (unsigned i = 0; i < res->nsig; i++)
      if (diff_signal_status(res->sig[i].kind) == DIFF_FAIL) {
         st->rr->kind = res->sig[i].kind;
         st->rr->step = st->rr->same_step ? xstrdup(res->sig[i].step) : NULL;
         return true;
      }
   return false;
}

/* Runs the reduced case once more (its result goes in the reproducer). */
static void
finish(struct rr_state *st, const struct diff_reduce_result *res)
{
   char *text = shader_text(st, res->shader);
   run_case(st, xstrdup(text), res->inputs);
   st->rr->yaml = diff_repro_yaml(&st->c, 0, text);
   st->rr->stats = res->stats;
   free(text);
}

static enum diff_reduce_status
reduce(struct rr_state *st, const struct diff_repro *r, struct tgsi_shader *s, struct env *in,
       struct diag_list *d)
{
   struct diff_repro_reduce *rr = st->rr;
   const struct diff_case_result *ref = run_case(st, xstrdup(r->text), in);
   rr->original = ref->status;
   if (!(rr->kept = pick_failure(st, ref)))
      return DIFF_REDUCE_NOT_FAILING;
   scale_timeout(st, ref->seconds);
   uint32_t lanes[DIFF_MAX_LANES];
   for (unsigned i = 0; i < ref->nlanes; i++)
      lanes[i] = ref->lanes[i].lane;
   struct diff_reduce_opts o = rr->o;
   o.fail_lanes = lanes;
   o.nfail_lanes = ref->nlanes;
   o.still_fails = still_fails;
   o.user = st;
   o.popts = st->po;
   struct diff_reduce_result res;
   enum diff_reduce_status status = diff_reduce(s, in, &o, &res, d);
   if (status == DIFF_REDUCE_OK) {
      finish(st, &res);
      diff_reduce_result_fini(&res);
   }
   return status;
}

enum diff_reduce_status
diff_reduce_repro(const struct diff_repro *r, struct diff_repro_reduce *rr, struct diag_list *d)
{
   struct rr_state st;
   memset(&st, 0, sizeof(st));
   st.rr = rr;
   rr->yaml = rr->step = NULL;
   rr->kept = false;
   memset(&rr->stats, 0, sizeof(rr->stats));
   diff_check_init(&st.c);
   st.c.o.timeout_ms = st.max_timeout_ms = rr->timeout_ms;
   st.c.o.jobs = rr->jobs;
   st.c.inject = rr->inject;
   enum diff_reduce_status status = DIFF_REDUCE_BAD_INPUT;
   struct tgsi_shader *s = NULL;
   struct env *in = NULL;
   if (diff_repro_setup(r, &st.c, d)) {
      st.po = st.c.o.popts;
      tgsi_read_dialect(r->text, strlen(r->text), &st.po);
      s = tgsi_parse(r->text, strlen(r->text), r->shader, &st.po, d);
      struct diff_case_env ce; /* the inputs the check ran on, retries included */
      memset(&ce, 0, sizeof(ce));
      struct diag_list q = {0}; /* the interpreter's verdict is the check's to give */
      if (s && diff_case_env(&st.c.o, s, NULL, r->inputs, diff_case_subgroup(&st.c, 0), &ce, &q)) {
         in = ce.inputs;
         ce.inputs = NULL;
      } else if (s) {
         diag_add(d, DIAG_ERROR, r->shader, 0, 0, NULL, "cannot make inputs: %s",
                  q.n ? q.v[0].msg : "?");
      }
      diag_clear(&q);
      diff_case_env_fini(&ce);
      if (in)
         status = reduce(&st, r, s, in, d);
   }
   env_free(in);
   tgsi_shader_free(s);
   diff_check_fini(&st.c);
   return status;
}

void
diff_repro_reduce_fini(struct diff_repro_reduce *rr)
{
   free(rr->yaml);
   free(rr->step);
   rr->yaml = rr->step = NULL;
}
