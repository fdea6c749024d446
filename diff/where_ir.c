/*
 * Front end, IR passes or back end (bisect's where, issue 16). When a case
 * fails alike on every target that shares the TGSI front end and the IR
 * passes, the IR interpreter (ir_eval) tells the three apart on the
 * reproducer's first differing output value. Two IRs of the shader run
 * for the failing lane: the front end's (ir_from_tgsi) and the one the IR
 * passes hand the back end (opt_run, with the reproducer's options and
 * injected faults). With `got` opt's wrong value and `want` the value it
 * was compared with:
 *
 *   - the front end's IR computes got: the front end;
 *   - it does not, and the IR after the passes does: the IR passes;
 *   - both compute want: the IR reaching the back end is right and the
 *     program is not: a back-end stage (one they share, as they all fail).
 *
 * Anything else (the interpreter refuses the shader: textures, memory,
 * per-vertex inputs, derivatives; a third value; a failure with no
 * output value) decides nothing. Values are compared bit for bit: the
 * interpreter computes the target's semantics (isa/sem.h) for the ops
 * that have them, so a right IR gives the reference's bits.
 */
#include "compiler/ir/ir.h"
#include "diff/diff.h"

#include <stdlib.h>

/* Lane `lane` of e as the interpreter's inputs. */
static void
lane_env(const struct env *e, uint32_t lane, struct ir_eval_env *v)
{
   memset(v, 0, sizeof(*v));
   for (uint32_t r = 0; r < e->nin && r < IR_EVAL_SLOTS; r++)
      for (unsigned c = 0; c < 4; c++)
         v->inputs[r][c] = env_in(e, 0, r, c)[lane];
   uint32_t draw = env_draw(e, lane);
   for (unsigned b = 0; b < 4; b++) {
      const uint32_t *w = env_cbuf(e, b, draw);
      for (uint32_t s = 0; w && s < e->cbuf_slots[b] && s < IR_EVAL_SLOTS; s++)
         for (unsigned c = 0; c < 4; c++)
            v->consts[b][s][c] = w[s * 4 + c];
   }
   for (unsigned sv = 0; sv < TGSI_SEM_COUNT; sv++)
      for (unsigned c = 0; e->sv[sv] && c < 4; c++)
         v->sysvals[sv][c] = e->sv[sv][c * e->nlanes + lane];
}

/* Output reg.chan of sh run on lane; false when the interpreter cannot
 * run it or the shader does not write it. */
static bool
eval_out(const struct ir_shader *sh, const struct env *e, const struct diff_mismatch *m,
         uint32_t *out)
{
   struct ir_eval_env *v = xmalloc(sizeof(*v));
   lane_env(e, m->lane, v);
   struct diag_list q = {0};
   bool ok = ir_eval(sh, v, &q) && !v->killed && m->reg < IR_EVAL_SLOTS &&
             (v->written[m->reg] >> m->chan & 1);
   if (ok)
      *out = v->outputs[m->reg][m->chan];
   diag_clear(&q);
   free(v);
   return ok;
}

/* The first differing output value of a run, or NULL. */
static const struct diff_mismatch *
first_value(const struct diff_case_result *res)
{
   for (unsigned i = 0; i < res->nsig; i++) {
      const struct diff_signal *s = &res->sig[i];
      if (s->has_value && s->m.kind == DIFF_VAL_OUT && s->m.vertex == 0 &&
          s->m.expected != s->m.actual)
         return &s->m;
   }
   return NULL;
}

enum diff_where_verdict
diff_where_ir(const struct env *inputs, const struct diff_check *c, const struct tgsi_shader *s,
              unsigned i, char **why)
{
   *why = NULL;
   const struct diff_case_result *res = diff_result(c, i);
   const struct diff_mismatch *m = first_value(res);
   struct diff_case_env ce;
   struct diag_list q = {0};
   enum diff_where_verdict v = DIFF_WHERE_SHARED;
   if (!m || !diff_case_env(&c->o, s, NULL, inputs, diff_case_subgroup(c, i), &ce, &q)) {
      diag_clear(&q);
      return v;
   }
   struct opt_options o;
   diff_check_opt_options(c, &o);
   o.subgroup_size = ce.inputs->subgroup_size;
   struct opt_ctx ctx;
   opt_ctx_init(&ctx, &o, &q);
   struct ir_shader *front = ir_from_tgsi_ctx(s, &ctx, &q);
   struct ir_shader *passed = ir_from_tgsi_ctx(s, &ctx, &q);
   uint32_t v0, v1, got = m->actual, want = m->expected;
   if (front && passed && m->lane < ce.inputs->nlanes && opt_run(passed, &ctx) &&
       eval_out(front, ce.inputs, m, &v0) && eval_out(passed, ce.inputs, m, &v1)) {
      char *at = xasprintf("OUT[%u].%c lane %u", m->reg, "xyzw"[m->chan & 3], m -> lane);
      if (v0 == got) {
         v = DIFF_WHERE_FRONT_END;
         *why = xasprintf("the front end's IR computes opt's 0x%08x at %s already", got, at);
      } else if (v1 == got) {
         v = DIFF_WHERE_IR_PASSES;
         *why = xasprintf("at %s the front end's IR computes 0x%08x, the IR after the IR passes "
                          "opt's 0x%08x",
                          at, v0, got);
      } else if (v0 == want && v1 == want) {
         v = DIFF_WHERE_SHARED_BACK_END;
         *why = xasprintf("the IR the passes hand the back end computes 0x%08x at %s, the "
                          "program 0x%08x",
                          want, at, got);
      }
      free(at);
   }
   opt_ctx_fini(&ctx);
   ir_shader_free(front);
   ir_shader_free(passed);
   diff_case_env_fini(&ce);
   diag_clear(&q);
   return v;
}

/* The sentence of w for target (bisect's and the check's where:): `fails`
 * says how the other targets fail ("as recorded" for bisect's replay),
 * why is diff_where_ir's account of the values, or NULL. */
char *
diff_where_sentence(const char *target, const struct diff_where *w, const char *fails,
                    const char *why)
{
   static const char *const part[DIFF_WHERE_COUNT] = {
       [DIFF_WHERE_FRONT_END] = "the bug is in the TGSI front end (its translation to IR)",
       [DIFF_WHERE_IR_PASSES] = "the bug is in the IR passes",
       [DIFF_WHERE_SHARED_BACK_END] = "the bug is in a back-end stage %s shares with them",
       [DIFF_WHERE_SHARED] = "the bug is in code %s shares with them (the front end, the IR "
                             "passes or a shared back-end stage)",
   };
   if (w->verdict == DIFF_WHERE_BACK_END)
      return xasprintf("the IR passes agree on %s: the bug is in the %s back end", w->passes,
                       target);
   if (w->verdict == DIFF_WHERE_UNKNOWN || !w->fails)
      return NULL;
   char *tail = xasprintf(part[w->verdict], target);
   char *t = xasprintf("the case fails%s%s on %s too%s%s: %s", *fails ? " " : "", fails, w->fails,
                       why ? ", and " : "", why ? why : "", tail);
   free(tail);
   return t;
}

static void
add_name(char **list, const char *t)
{
   char *more = xasprintf("%s%s%s", *list ? *list : "", *list ? ", " : "", t);
   free(*list);
   *list = more;
}

/* The check's where (report.c's summary line, JSON and HTML): case i
 * against the cases of its shader on the other targets that share opt's
 * front end and IR passes, already run. One of them passing puts the bug
 * in i's back end; none passing and one failing too, the IR interpreter
 * on the failing value tells the shared part (diff_where_ir: the check's
 * inputs are generated again from its seed, as the case's were). */
void
diff_case_where(const struct diff_check *c, unsigned i, struct diff_where *w)
{
   memset(w, 0, sizeof(*w));
   const struct diff_target *own = &c->targets[c->cases[i].target];
   const struct diff_shader_src *src = &c->shaders[c->cases[i].shader];
   if (diff_result(c, i)->status != DIFF_FAIL || c->o.opt_cmd || c->opt_override ||
       !opt_target_shares_ir(own->model))
      return;
   /* the shader's cases are next to each other (shader-major) */
   unsigned first = i;
   while (first > 0 && c->cases[first - 1].shader == c->cases[i].shader)
      first--;
   for (unsigned j = first; j < diff_check_group_end(c, i); j++) {
      const struct diff_target *t = &c->targets[c->cases[j].target];
      if (j == i || !diff_case_done(c, j) || !opt_target_shares_ir(t->model))
         continue;
      if (diff_result(c, j)->status == DIFF_PASS)
         add_name(&w->passes, t->name);
      else if (diff_result(c, j)->status == DIFF_FAIL)
         add_name(&w->fails, t->name);
   }
   char *why = NULL;
   if (w->passes) {
      w->verdict = DIFF_WHERE_BACK_END;
   } else if (w->fails) {
      w->verdict = DIFF_WHERE_SHARED;
      struct diag_list q = {0};
      struct tgsi_shader *s = src->variant_of ? NULL : diff_check_parse(c, c->cases[i].shader, &q);
      if (s) {
         w->verdict = diff_where_ir(src->inputs, c, s, i, &why);
      }
      tgsi_shader_free(s);
      diag_clear(&q);
   }
   w->text = diff_where_sentence(own->name, w, "", why);
   free(why);
}
