/*
 * Reproducers: one YAML file per failing case with everything needed to
 * run it again exactly -- the shader text, the target, the seed, the
 * invocation count and every option that changes a result -- plus what the
 * run saw (status, signals) and the failing lanes' inputs for the reader.
 *
 *   # diffcomp reproducer: replay with `diffcomp repro FILE`
 *   diffcomp-repro: 1
 *   shader: captures/fs_x.tgsi       # where it came from (informative)
 *   target: a3xx
 *   seed: 1
 *   invocations: 1024
 *   max-steps: 0
 *   exact-nan: false
 *   invariance: false
 *   opt: [fuse-ffma]                 # inexact transforms allowed
 *   opt-asm: "hand/x.a3xx.s"         # --opt-asm: the program standing for opt's
 *   opt-cmd: "mycc {tgsi} -o {out}"  # --opt-cmd: the external compiler standing for opt
 *   opt-cmd-timeout: 60              # --opt-cmd-timeout, when given
 *   inject-fault: [missing-ss]       # --inject-fault: bugs switched on in opt
 *   legacy: false                    # parser dialect given on the command line
 *   hex-bits: false
 *   diffcomp-version: 0.5.0          # what wrote it, and its model's digest
 *   model-digest: 0123456789abcdef   # (informative, as diffcomp --version)
 *   status: fail
 *   signals:
 *     - {kind: mismatch, step: ref/opt, message: "..."}
 *   lanes:
 *     - lane: 17
 *       inputs: {IN[0].x: 0x3f800000, ...}
 *   text: |
 *     VERT
 *     ...
 *   inputs: |                        # optional (diffcomp reduce): the inputs
 *     stage: VERT                    # themselves, as diff_inputs_to_yaml
 *     ...                            # writes them; the seed is then unused
 *
 * The replay regenerates the inputs from the seed (the generator is
 * deterministic), so the recorded lane inputs are a check, not the source:
 * diff_repro_lanes_match says whether today's generator still gives them.
 */
#include "compiler/ir/ir.h"
#include "diff/diff.h"
#include "isa/isa.h"

#include <stdio.h>
#include <stdlib.h>

char *
diff_repro_yaml(const struct diff_check *c, unsigned i, const char *text)
{
   const struct diff_case_result *r = diff_result(c, i);
   const struct diff_case *cs = &c->cases[i];
   struct ydoc_writer *w = ydoc_writer_new();
   ydoc_map(w, true, false);
   ydoc_kv(w, "diffcomp-repro", "1");
   ydoc_str(w, "shader");
   ydoc_qstr(w, c->shaders[cs->shader].name);
   ydoc_str(w, "target");
   ydoc_qstr(w, c->targets[cs->target].name);
   ydoc_str(w, "seed");
   ydoc_strf(w, "%llu", (unsigned long long)c->o.seed);
   ydoc_str(w, "invocations");
   ydoc_strf(w, "%u", c->o.invocations);
   ydoc_str(w, "max-steps");
   ydoc_strf(w, "%llu", (unsigned long long)c->o.max_steps);
   ydoc_kv(w, "exact-nan", c->o.exact_nan ? "true" : "false");
   ydoc_kv(w, "invariance", c->o.invariance ? "true" : "false");
   if (c->o.no_verify) /* written only when set: older reproducers stay as they were */
      ydoc_kv(w, "no-verify", "true");
   ydoc_str(w, "opt");
   ydoc_seq(w, true, true);
   for (unsigned b = 0; b < DIFF_INEXACT_COUNT; b++)
      if (c->o.inexact & (1u << b))
         ydoc_str(w, diff_inexact_names[b]);
   ydoc_seq(w, false, true);
   if (c->o.opt_asm) {
      ydoc_str(w, "opt-asm");
      ydoc_qstr(w, c->o.opt_asm);
   }
   if (c->o.opt_cmd) {
      ydoc_str(w, "opt-cmd");
      ydoc_qstr(w, c->o.opt_cmd);
      if (c->o.opt_cmd_timeout_ms) {
         ydoc_str(w, "opt-cmd-timeout");
         ydoc_strf(w, "%u", c->o.opt_cmd_timeout_ms / 1000);
      }
   }
   if (opt_fault_set_any(&c->o.faults)) {
      ydoc_str(w, "inject-fault");
      ydoc_seq(w, true, true);
      for (unsigned f = 0; f < OPT_FAULT_COUNT; f++)
         if (opt_fault_set_has(&c->o.faults, (int)f))
            ydoc_str(w, opt_fault_info[f].name);
      ydoc_seq(w, false, true);
   }
   ydoc_kv(w, "legacy", c->o.popts.legacy ? "true" : "false");
   ydoc_kv(w, "hex-bits", c->o.popts.hex_bits ? "true" : "false");
   /* informative: what wrote it (diffcomp --version prints the same) */
   ydoc_kv(w, "diffcomp-version", DC_VERSION);
   ydoc_str(w, "model-digest");
   ydoc_strf(w, "%016llx", (unsigned long long)isa_model_digest(c->targets[cs->target].model));
   ydoc_kv(w, "status", diff_status_names[r->status]);
   ydoc_str(w, "signals");
   ydoc_seq(w, true, false);
   for (unsigned k = 0; k < r->nsig; k++) {
      ydoc_map(w, true, true);
      ydoc_kv(w, "kind", diff_signal_names[r->sig[k].kind]);
      ydoc_str(w, "step");
      ydoc_qstr(w, r->sig[k].step);
      ydoc_str(w, "message");
      ydoc_qstr(w, r->sig[k].msg);
      ydoc_map(w, false, true);
   }
   ydoc_seq(w, false, false);
   ydoc_str(w, "lanes");
   ydoc_seq(w, true, false);
   for (unsigned l = 0; l < r->nlanes; l++) {
      ydoc_map(w, true, false);
      ydoc_str(w, "lane");
      ydoc_strf(w, "%u", r->lanes[l].lane);
      ydoc_str(w, "inputs");
      ydoc_map(w, true, true);
      for (unsigned v = 0; v < r->lanes[l].nvals; v++) {
         ydoc_str(w, r->lanes[l].vals[v].name);
         ydoc_strf(w, "0x%08x", r->lanes[l].vals[v].bits);
      }
      ydoc_map(w, false, true);
      ydoc_map(w, false, false);
   }
   ydoc_seq(w, false, false);
   ydoc_str(w, "text");
   ydoc_literal(w, text);
   const struct env *given = c->shaders[cs->shader].inputs;
   char *iy = given ? diff_inputs_to_yaml(given) : NULL;
   if (iy) {
      ydoc_str(w, "inputs");
      ydoc_literal(w, iy);
      free(iy);
   }
   ydoc_map(w, false, false);
   char *y = ydoc_writer_finish(w);
   if (!y)
      return NULL;
   char *t = xasprintf("# diffcomp reproducer: replay with `diffcomp repro FILE`\n%s", y);
   free(y);
   return t;
}

void
diff_repro_free(struct diff_repro *r)
{
   free(r->shader);
   free(r->text);
   free(r->target);
   free(r->opt_asm);
   free(r->opt_cmd);
   env_free(r->inputs);
   diff_result_fini(&r->seen);
   memset(r, 0, sizeof(*r));
}

static bool
get_bool(struct ydoc *y, int root, const char *key, bool *out, struct diag_list *d)
{
   int n = ydoc_get(y, root, key);
   if (n && !ydoc_bool(y, n, out)) {
      ydoc_error(y, n, d, "'%s' is true or false", key);
      return false;
   }
   return true;
}

static bool
get_u64(struct ydoc *y, int root, const char *key, uint64_t *out, bool need, struct diag_list *d)
{
   int n = ydoc_get(y, root, key);
   if (!n && need) {
      ydoc_error(y, root, d, "no '%s'", key);
      return false;
   }
   if (n && !ydoc_u64(y, n, out)) {
      ydoc_error(y, n, d, "'%s' is an unsigned integer", key);
      return false;
   }
   return true;
}

static bool
read_opt(struct ydoc *y, int root, struct diff_repro *r, struct diag_list *d)
{
   int n = ydoc_get(y, root, "opt");
   for (unsigned i = 0; i < ydoc_len(y, n); i++) {
      const char *s = ydoc_scalar(y, ydoc_item(y, n, i));
      unsigned b = 0;
      while (b < DIFF_INEXACT_COUNT && !(s && !strcmp(s, diff_inexact_names[b])))
         b++;
      if (b == DIFF_INEXACT_COUNT) {
         ydoc_error(y, ydoc_item(y, n, i), d, "unknown inexact transform '%s'", s ? s : "");
         return false;
      }
      r->o.inexact |= 1u << b;
   }
   n = ydoc_get(y, root, "inject-fault");
   for (unsigned i = 0; i < ydoc_len(y, n); i++) {
      const char *s = ydoc_scalar(y, ydoc_item(y, n, i));
      int f = s ? opt_fault_find(s) : -1;
      if (f < 0) {
         ydoc_error(y, ydoc_item(y, n, i), d, "unknown fault '%s'", s ? s : "");
         return false;
      }
      opt_fault_set_add(&r->o.faults, f);
   }
   return true;
}

static void
read_seen(struct ydoc *y, int root, struct diff_repro *r)
{
   const char *st = ydoc_scalar(y, ydoc_get(y, root, "status"));
   for (unsigned i = 0; st && i < DIFF_STATUS_COUNT; i++)
      if (!strcmp(st, diff_status_names[i]))
         r->seen.status = (enum diff_status)i;
   int sigs = ydoc_get(y, root, "signals");
   for (unsigned i = 0; i < ydoc_len(y, sigs); i++) {
      int s = ydoc_item(y, sigs, i);
      const char *kind = ydoc_scalar(y, ydoc_get(y, s, "kind"));
      unsigned k = 0;
      while (k < DIFF_SIG_COUNT && !(kind && !strcmp(kind, diff_signal_names[k])))
         k++;
      if (k == DIFF_SIG_COUNT)
         continue;
      const char *step = ydoc_scalar(y, ydoc_get(y, s, "step"));
      const char *msg = ydoc_scalar(y, ydoc_get(y, s, "message"));
      enum diff_status keep = r->seen.status;
      diff_result_add(&r->seen, (enum diff_signal_kind)k, step, NULL, 0, "%s", msg ? msg : "");
      r->seen.status = keep;
   }
   int lanes = ydoc_get(y, root, "lanes");
   for (unsigned i = 0; i < ydoc_len(y, lanes) && r->seen.nlanes < DIFF_MAX_LANES; i++) {
      int l = ydoc_item(y, lanes, i), in = ydoc_get(y, l, "inputs");
      uint64_t lane = 0;
      if (!ydoc_u64(y, ydoc_get(y, l, "lane"), &lane))
         continue;
      struct diff_lane_dump *dump = &r->seen.lanes[r->seen.nlanes++];
      dump->lane = (uint32_t)lane;
      dump->vals = xcalloc(ydoc_len(y, in) + 1, sizeof(*dump->vals));
      for (unsigned v = 0; v < ydoc_len(y, in); v++) {
         int k, val;
         uint64_t bits = 0;
         ydoc_pair(y, in, v, &k, &val);
         const char *name = ydoc_scalar(y, k);
         if (!name || !ydoc_u64(y, val, &bits))
            continue;
         struct diff_lane_value *lv = &dump->vals[dump->nvals++];
         snprintf(lv->name, sizeof(lv->name), "%s", name);
         lv->bits = (uint32_t)bits;
      }
   }
}

bool
diff_repro_parse(const char *text, size_t len, const char *file, struct diff_repro *r,
                 struct diag_list *d)
{
   memset(r, 0, sizeof(*r));
   struct ydoc *y = ydoc_load(text, len, file, d);
   if (!y)
      return false;
   int root = ydoc_root(y);
   const char *tag = ydoc_scalar(y, ydoc_get(y, root, "diffcomp-repro"));
   const char *target = ydoc_scalar(y, ydoc_get(y, root, "target"));
   const char *shader = ydoc_scalar(y, ydoc_get(y, root, "text"));
   const char *name = ydoc_scalar(y, ydoc_get(y, root, "shader"));
   uint64_t inv = 1024;
   bool ok = false;
   if (!ydoc_is_map(y, root) || !tag || strcmp(tag, "1"))
      ydoc_error(y, root, d, "not a diffcomp reproducer (no 'diffcomp-repro: 1')");
   else if (!target || !shader)
      ydoc_error(y, root, d, "a reproducer needs 'target' and 'text'");
   else
      ok = get_u64(y, root, "seed", &r->o.seed, true, d) &&
           get_u64(y, root, "invocations", &inv, true, d) &&
           get_u64(y, root, "max-steps", &r->o.max_steps, false, d) &&
           get_bool(y, root, "exact-nan", &r->o.exact_nan, d) &&
           get_bool(y, root, "invariance", &r->o.invariance, d) &&
           get_bool(y, root, "no-verify", &r->o.no_verify, d) &&
           get_bool(y, root, "legacy", &r->o.popts.legacy, d) &&
           get_bool(y, root, "hex-bits", &r->o.popts.hex_bits, d) && read_opt(y, root, r, d);
   if (ok && (!inv || inv > ENV_MAX_LANES)) {
      ydoc_error(y, ydoc_get(y, root, "invocations"), d, "invocations out of range");
      ok = false;
   }
   if (ok) {
      r->o.invocations = (uint32_t)inv;
      r->target = xstrdup(target);
      r->text = xstrdup(shader);
      r->shader = xstrdup(name ? name : file);
      const char *oa = ydoc_scalar(y, ydoc_get(y, root, "opt-asm"));
      if (oa && *oa)
         r->opt_asm = xstrdup(oa);
      r->o.opt_asm = r->opt_asm;
      const char *oc = ydoc_scalar(y, ydoc_get(y, root, "opt-cmd"));
      char *why = oc && *oc ? diff_extcc_check_template(oc) : NULL;
      uint64_t oct = 0;
      if (why) {
         ydoc_error(y, ydoc_get(y, root, "opt-cmd"), d, "opt-cmd: %s", why);
         free(why);
         ok = false;
      } else if (!get_u64(y, root, "opt-cmd-timeout", &oct, false, d) || oct > 86400) {
         ok = false;
      } else if (oc && *oc) {
         r->opt_cmd = xstrdup(oc);
         r->o.opt_cmd_timeout_ms = (unsigned)oct * 1000;
      }
      r->o.opt_cmd = r->opt_cmd;
      read_seen(y, root, r);
      const char *in = ydoc_scalar(y, ydoc_get(y, root, "inputs"));
      if (in && !(r->inputs = diff_inputs_from_yaml(in, strlen(in), file, d)))
         ok = false;
      else if (r->inputs)
         r->o.invocations = r->inputs->nlanes;
   }
   ydoc_free(y);
   if (!ok)
      diff_repro_free(r);
   return ok;
}

bool
diff_repro_setup(const struct diff_repro *r, struct diff_check *c, struct diag_list *d)
{
   unsigned jobs = c->o.jobs, timeout = c->o.timeout_ms;
   c->o = r->o;
   c->o.jobs = jobs;
   c->o.timeout_ms = timeout;
   if (r->opt_asm) {
      c->opt_override = diff_opt_from_asm;
      c->opt_override_ctx = r->opt_asm;
   }
   if (!diff_check_add_targets(c, r->target, d))
      return false;
   diff_check_add_shader(c, r->shader, xstrdup(r->text));
   c->shaders[c->nshaders - 1].inputs = r->inputs;
   diff_check_make_cases(c, 1, 1);
   return true;
}

bool
diff_repro_lanes_match(const struct diff_repro *r, const struct diff_check *c, char **why)
{
   *why = NULL;
   if (!r->seen.nlanes)
      return true;
   struct diag_list d = {0};
   struct tgsi_parse_opts po = c->o.popts;
   tgsi_read_dialect(r->text, strlen(r->text), &po);
   struct tgsi_shader *s = tgsi_parse(r->text, strlen(r->text), r->shader, &po, &d);
   struct diff_case_env ce; /* the inputs the check ran on, retries included */
   memset(&ce, 0, sizeof(ce));
   struct env *e = NULL;
   if (s && diff_case_env(&c->o, s, NULL, r->inputs, diff_case_subgroup(c, 0), &ce, &d)) {
      e = ce.inputs;
      ce.inputs = NULL;
   }
   diff_case_env_fini(&ce);
   for (unsigned l = 0; e && !*why && l < r->seen.nlanes; l++) {
      const struct diff_lane_dump *want = &r->seen.lanes[l];
      struct diff_lane_dump got;
      if (want->lane >= e->nlanes) {
         *why = xasprintf("lane %u is beyond the %u invocations", want->lane, e->nlanes);
         break;
      }
      diff_lane_dump(e, want->lane, &got);
      for (unsigned v = 0; v < want->nvals && !*why; v++) {
         unsigned k = 0;
         while (k < got.nvals && strcmp(got.vals[k].name, want->vals[v].name))
            k++;
         char now[16] = "nothing";
         if (k < got.nvals)
            snprintf(now, sizeof(now), "0x%08x", got.vals[k].bits);
         if (k == got.nvals || got.vals[k].bits != want->vals[v].bits)
            *why = xasprintf("lane %u %s: recorded 0x%08x, generated %s", want->lane,
                             want->vals[v].name, want->vals[v].bits, now);
      }
      free(got.vals);
   }
   if (!e && !*why)
      *why = xstrdup(diag_first_error(&d) ? diag_first_error(&d) : "cannot generate inputs");
   env_free(e);
   tgsi_shader_free(s);
   diag_clear(&d);
   return *why == NULL;
}

bool
diff_repro_same(const struct diff_case_result *want, const struct diff_case_result *got)
{
   if (want->status != got->status || want->nsig != got->nsig)
      return false;
   for (unsigned i = 0; i < want->nsig; i++)
      if (want->sig[i].kind != got->sig[i].kind || strcmp(want->sig[i].msg, got->sig[i].msg))
         return false;
   return true;
}

bool
diff_repro_load(const char *path, struct diff_repro *r, struct diag_list *d)
{
   char *text;
   size_t len;
   if (!read_file_diag(path, &text, &len, d))
      return false;
   bool ok = diff_repro_parse(text, len, path, r, d);
   free(text);
   return ok;
}
