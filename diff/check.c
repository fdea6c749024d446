/*
 * The check of one shader: the steps its cases run, in this process.
 *
 * A job is one shader and some of its targets (cases). The shader-level
 * steps run once: parse, random inputs (diff_gen_inputs, from the run's
 * seed), the golden interpreter on a copy of the inputs. Then each case
 * runs the target steps of case_steps[] in order: compile with ref and opt
 * (each program's encoding checked statically), run each on the emulator
 * on its own copy of the inputs (hazard and fault events become signals; a
 * faulted run is not compared), compare (interpreter against ref, ref
 * against opt, or interpreter against opt when ref did not run), and with
 * --invariance build the vertex shader position-only and compare positions.
 * Every step reports through the progress callback before it starts, so
 * when a worker dies (run.c) the parent knows the case and the step.
 *
 * A failed interpreter run does not end the case: the programs can still be
 * checked against each other, only the oracle comparison is missing.
 * Nothing here prints; results are signals in struct diff_case_result.
 */
#include "compiler/compiler.h"
#include "compiler/ir/ir.h"
#include "diff/diff.h"
#include "isa/isa.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* The built-in targets, tried in this order when --target is not given. */
static const char *const builtin_targets[] = {"a3xx", "sm50", "gfx9", "agx"};

const char *
diff_builtin_target(unsigned i)
{
   return i < ARRAY_SIZE(builtin_targets) ? builtin_targets[i] : NULL;
}

void
diff_check_init(struct diff_check *c)
{
   memset(c, 0, sizeof(*c));
   c->o.seed = 1;
   c->o.invocations = 1024;
   c->o.jobs = 1;
}

void
diff_result_fini(struct diff_case_result *r)
{
   for (unsigned i = 0; i < r->nsig; i++) {
      free(r->sig[i].step);
      free(r->sig[i].msg);
   }
   free(r->sig);
   for (unsigned i = 0; i < r->nlanes; i++)
      free(r->lanes[i].vals);
   free(r->repro);
   free(r->cover);
   memset(r, 0, sizeof(*r));
}

/* Result slots: one per case, or the window's. */
static unsigned
nslots(const struct diff_check *c)
{
   return c->window && c->window < c->ncases ? c->window : c->ncases;
}

void
diff_check_fini(struct diff_check *c)
{
   for (unsigned i = 0; i < c->nshaders; i++) {
      free(c->shaders[i].name);
      free(c->shaders[i].text);
   }
   for (unsigned i = 0; i < c->ntargets; i++) {
      free(c->targets[i].name);
      isa_close(c->targets[i].model);
   }
   if (c->results)
      for (unsigned i = 0; i < nslots(c); i++)
         diff_result_fini(&c->results[i]);
   free(c->shaders);
   free(c->targets);
   free(c->cases);
   free(c->results);
   memset(c, 0, sizeof(*c));
}

static bool
add_target(struct diff_check *c, const char *name, size_t len, struct diag_list *d)
{
   char *n = xstrndup(name, len);
   for (unsigned i = 0; i < c->ntargets; i++)
      if (!strcmp(c->targets[i].name, n)) {
         free(n);
         return true;
      }
   struct isa_model *m = NULL;
   if (isa_open(n, &m, d) != ISA_ERR_OK) {
      free(n);
      return false;
   }
   struct diff_target t = {n, m};
   VEC_PUSH(c->targets, c->ntargets, c->targets_cap, t);
   return true;
}

bool
diff_check_add_targets(struct diff_check *c, const char *list, struct diag_list *d)
{
   if (!list) {
      /* A built-in model that does not open (a model file edited past
       * what this binary reads) leaves its target out, never silently. */
      for (unsigned i = 0; i < ARRAY_SIZE(builtin_targets); i++) {
         struct diag_list why = {0};
         if (!add_target(c, builtin_targets[i], strlen(builtin_targets[i]), &why)) {
            char *e = diag_first_error_text(&why, "it does not open");
            diag_add(d, DIAG_WARNING, builtin_targets[i], 0, 0, NULL,
                     "the model does not open, so the check leaves this target out: %s", e);
            free(e);
         }
         diag_clear(&why);
      }
      if (!c->ntargets)
         diag_add(d, DIAG_ERROR, NULL, 0, 0, NULL, "no built-in target model opens");
      return c->ntargets > 0;
   }
   for (const char *p = list; *p;) {
      size_t n = strcspn(p, ",");
      if (n && !add_target(c, p, n, d))
         return false;
      p += n + (p[n] == ',');
   }
   if (!c->ntargets)
      diag_add(d, DIAG_ERROR, NULL, 0, 0, NULL, "empty target list");
   return c->ntargets > 0;
}

void
diff_check_add_shader(struct diff_check *c, const char *name, char *text)
{
   struct diff_shader_src s = {.name = xstrdup(name), .text = text};
   VEC_PUSH(c->shaders, c->nshaders, c->shaders_cap, s);
}

void
diff_check_add_file(struct diff_check *c, const char *path)
{
   char *text;
   size_t len;
   struct tgsi_unit *u = NULL;
   unsigned left_out, n = 0;
   if (read_file_diag(path, &text, &len, NULL)) {
      n = tgsi_split(text, len, path, &u, &left_out, NULL);
      for (unsigned k = 0; n > 1 && k < n; k++) {
         char *name = xasprintf("%s#%u", path, k + 1);
         diff_check_add_shader(c, name, tgsi_unit_text(text, len, u, k));
         free(name);
      }
      free(u);
      free(text);
   }
   if (n <= 1) /* read when its case runs: a file that cannot be read is its error */
      diff_check_add_shader(c, path, NULL);
}

/* The generator's text for seed (what `diffcomp gen --seed S` prints), or
 * a comment that does not parse when the generator fails (the case shows
 * it as an input error). */
static char *
gen_text(uint64_t seed, bool sink)
{
   struct diff_gen_opts go = {.stage = TGSI_STAGE_COUNT, .sink = sink};
   struct diag_list d = {0};
   char *text = diff_gen(seed, &go, NULL, &d);
   if (!text) /* a generator bug */
      text = xasprintf("# diff_gen(%llu) made text that does not parse: %s\n",
                       (unsigned long long)seed, diag_first_error(&d) ? diag_first_error(&d) : "?");
   diag_clear(&d);
   return text;
}

char *
diff_shader_text(const struct diff_shader_src *src, size_t *len, struct diag_list *d)
{
   char *text = NULL;
   if (src->text || src->gen) {
      text = src->text ? xstrdup(src->text) : gen_text(src->gen_seed, src->gen_sink);
      *len = strlen(text);
   } else if (!read_file_diag(src->name, &text, len, d)) {
      return NULL;
   }
   return text;
}

/* Only the seeds are kept: the text is made when a case needs it. */
void
diff_check_add_generated(struct diff_check *c, unsigned n)
{
   struct rng r;
   rng_seed(&r, c->o.seed);
   for (unsigned i = 0; i < n; i++) {
      uint64_t seed = rng_next(&r) % 1000000000u; /* short names */
      char *name = xasprintf("gen:%llu", (unsigned long long)seed);
      diff_check_add_shader(c, name, NULL);
      free(name);
      struct diff_shader_src *src = &c->shaders[c->nshaders - 1];
      src->gen = true;
      src->gen_sink = !c->o.gen_no_sink;
      src->gen_seed = seed;
   }
}

static struct tgsi_shader *parse_shader(const struct diff_check *c,
                                        const struct diff_shader_src *src, struct diag_list *d);

void
diff_check_add_variants(struct diff_check *c, unsigned n)
{
   unsigned count = c->nshaders;
   for (unsigned i = 0; i < count && n; i++) {
      struct diag_list d = {0};
      struct tgsi_shader *s = parse_shader(c, &c->shaders[i], &d);
      diag_clear(&d);
      if (!s)
         continue;
      /* the variant is printed in canonical form; only the legacy
       * opcodes still need their dialect */
      bool legacy = c->o.popts.legacy;
      for (unsigned k = 0; k < s->ninsns; k++)
         legacy |= (tgsi_op_info[s->insns[k].op].flags & TGSI_OPF_LEGACY) != 0;
      for (unsigned k = 1; k <= n; k++) {
         const char *name = c->shaders[i].name;
         uint64_t seed = hash64(name, strlen(name), c->o.seed * 1000003u + k);
         char *vname = xasprintf("%s~v%u", name, k), *text = diff_variant(s, seed);
         if (legacy) {
            char *t = xasprintf("# dialect: legacy\n%s", text);
            free(text);
            text = t;
         }
         diff_check_add_shader(c, vname, text);
         c->shaders[c->nshaders - 1].variant_of = i + 1;
         free(vname);
      }
      tgsi_shader_free(s);
   }
}

void
diff_check_make_cases(struct diff_check *c, unsigned k, unsigned n)
{
   unsigned all = 0;
   for (unsigned i = 0; i < c->nshaders; i++)
      for (unsigned t = 0; t < c->ntargets; t++, all++)
         if (n <= 1 || all % n == k - 1) {
            struct diff_case cs = {i, t};
            VEC_PUSH(c->cases, c->ncases, c->cases_cap, cs);
         }
   if (c->window && c->window < c->ntargets)
      c->window = c->ntargets; /* a shader's cases run together */
   c->results = xcalloc(nslots(c) + 1, sizeof(*c->results));
}

/* ------------------------------------------------------------------ */
/* Results                                                              */

void
diff_result_add(struct diff_case_result *r, enum diff_signal_kind k, const char *step,
                const struct diff_mismatch *m, uint64_t count, const char *fmt, ...)
{
   struct diff_signal s = {.kind = k, .step = xstrdup(step ? step : ""), .count = count};
   va_list ap;
   va_start(ap, fmt);
   s.msg = xvasprintf(fmt, ap);
   va_end(ap);
   if (m) {
      s.has_value = true;
      s.m = *m;
   }
   VEC_PUSH(r->sig, r->nsig, r->sig_cap, s);
   static const int rank[DIFF_STATUS_COUNT] = {
       [DIFF_PASS] = 0,    [DIFF_NA] = 1,    [DIFF_SKIP] = 2,
       [DIFF_VACUOUS] = 3, [DIFF_ERROR] = 4, [DIFF_FAIL] = 5};
   enum diff_status st = diff_signal_status(k);
   if (rank[st] > rank[r->status])
      r->status = st;
}

static void
add_lane(struct diff_lane_dump *d, size_t *cap, const char *name, uint32_t bits)
{
   struct diff_lane_value v = {.bits = bits};
   snprintf(v.name, sizeof(v.name), "%s", name);
   VEC_PUSH(d->vals, d->nvals, *cap, v);
}

void
diff_lane_dump(const struct env *e, uint32_t lane, struct diff_lane_dump *out)
{
   memset(out, 0, sizeof(*out));
   out->lane = lane;
   size_t cap = 0;
   char name[32];
   for (uint32_t v = 0; v < e->in_vertices; v++)
      for (uint32_t r = 0; r < e->nin; r++)
         for (unsigned c = 0; c < 4; c++) {
            if (e->in_vertices > 1)
               snprintf(name, sizeof(name), "IN[%u][%u].%c", v, r, "xyzw"[c]);
            else
               snprintf(name, sizeof(name), "IN[%u].%c", r, "xyzw"[c]);
            add_lane(out, &cap, name, env_in(e, v, r, c)[lane]);
         }
   for (unsigned s = 0; s < TGSI_SEM_COUNT; s++)
      if (e->sv[s])
         for (unsigned c = 0; c < 4; c++) {
            snprintf(name, sizeof(name), "SV.%s.%c", tgsi_semantic_names[s], "xyzw"[c]);
            add_lane(out, &cap, name, e->sv[s][(size_t)c * e->nlanes + lane]);
         }
}

/* ------------------------------------------------------------------ */
/* The steps                                                            */

struct job {
   const struct diff_check *c;
   const struct diff_shader_src *src;
   diff_progress_fn fn;
   void *ctx;
   struct tgsi_shader *s;
   struct env *inputs; /* as generated; never run on */
   struct env *golden; /* the interpreter's run, NULL if it failed */
   char *interp_err;
   uint8_t *exact;        /* per OUT channel: INVARIANT or _PRECISE (diff_exact_channels) */
   uint8_t *exact_ctl;    /* with --opt: also under exact branches only; NULL: exact */
   bool runaway;          /* the interpreter ran out of steps, with realistic constants too */
   uint64_t outputs, nan; /* count_nan */
   /* A variant whose interpreter outputs differ from its original's: the
    * first value and the count, a signal of every case. */
   bool variant_bad;
   struct diff_mismatch variant_mm;
   uint64_t variant_count;
   char *variant_msg;
};

/* A shader the interpreter could not finish loops (or runs) far longer than
 * any real one; its compiled programs would only burn the emulator's
 * default budget (2^22 cycles per wave) before failing the same way. */
#define RUNAWAY_MAX_CYCLES (1u << 16)

/* A compiled program and its run on the emulator. */
struct prog {
   const char *name; /* "ref", "opt" */
   bool runnable;    /* compiled, and every instruction legal */
   struct emu_program p;
   struct env *run; /* its run, NULL if none or if it faulted */
};

/* One case (shader on a target) while its steps run. */
struct case_run {
   struct job *j;
   unsigned idx;
   const struct diff_target *t;
   struct diff_case_result *r;
   struct prog ref, opt;
};

static void
prog_fini(struct prog *pg)
{
   emu_program_free(&pg->p);
   env_free(pg->run);
   pg->run = NULL;
}

/* A static look at the encoding: every instruction decodes and is legal. */
static bool
check_encoding(struct case_run *cr, struct prog *pg)
{
   struct isa_insn *in = NULL;
   size_t n = 0;
   struct diag_list d = {0};
   bool ok = isa_decode_program(cr->t->model, pg->p.code, pg->p.size, &in, &n, &d) == ISA_ERR_OK;
   if (!ok) {
      char *e = diag_first_error_text(&d, "does not decode");
      diff_result_add(cr->r, DIFF_SIG_ILLEGAL, pg->name, NULL, 0, "%s program: %s", pg->name, e);
      free(e);
   }
   for (size_t i = 0; ok && i < n; i++)
      if (in[i].illegal) {
         diff_result_add(cr->r, DIFF_SIG_ILLEGAL, pg->name, NULL, 0,
                         "%s program: illegal instruction at 0x%x: %s", pg->name, in[i].addr,
                         isa_illegal_reason(cr->t->model, &in[i]));
         ok = false;
      }
   free(in);
   diag_clear(&d);
   return ok;
}

/* After a compiler ran: its verdict as signals, its figures, and whether
 * the program can run. */
static void
compiled(struct case_run *cr, struct prog *pg, enum compile_status cs,
         const struct compile_stats *st, struct diff_prog_stats *out, struct diag_list *d)
{
   if (cs != COMPILE_OK) {
      char *e = diag_first_error_text(d, "no diagnostic");
      /* What the reference compiles, the optimizing compiler must too: its
       * refusal is its failure, not a skip (issue 14). */
      bool refused = cs == COMPILE_UNSUPPORTED && pg == &cr->opt && cr->r->ref.valid;
      /* ...unless opt covers only part of TGSI on this target: a visible
       * n/a naming why, ref still compared with the interpreter. */
      const char *partial = refused ? opt_target_partial(cr->t->model) : NULL;
      if (partial)
         diff_result_add(cr->r, DIFF_SIG_OPT_NA, pg->name, NULL, 0, "%s: %s (%s)", pg->name, e,
                         partial);
      else
         diff_result_add(cr->r,
                         refused                     ? DIFF_SIG_REFUSED
                         : cs == COMPILE_UNSUPPORTED ? DIFF_SIG_UNSUPPORTED
                                                     : DIFF_SIG_COMPILE,
                         pg->name, NULL, 0, "%s: %s", pg->name, e);
      free(e);
   } else {
      *out =
          (struct diff_prog_stats){true, st->instructions, st->nops, st->registers, st->cycles, 0};
      pg->runnable = check_encoding(cr, pg);
   }
   diag_clear(d);
}

/* A shader needing what the target's hardware lacks ends here. */
static bool
step_applies(struct case_run *cr)
{
   char *why = diff_target_lacks(cr->j->s, cr->t->model);
   if (why)
      diff_result_add(cr->r, DIFF_SIG_NO_FEATURE, "target", NULL, 0, "%s", why);
   free(why);
   return !why;
}

static bool
step_ref(struct case_run *cr)
{
   struct diag_list d = {0};
   struct compile_stats st = {0};
   enum compile_status cs = ref_compile(cr->j->s, cr->t->model, &cr->ref.p, &st, &d);
   compiled(cr, &cr->ref, cs, &st, &cr->r->ref, &d);
   return true;
}

enum compile_status
diff_opt_from_asm(void *path, const struct tgsi_shader *s, const struct isa_model *m,
                  struct emu_program *out, struct diag_list *d)
{
   (void)s;
   char *text;
   size_t len;
   if (!read_file_diag(path, &text, &len, d))
      return COMPILE_ERROR;
   struct emu_asm a;
   bool ok = emu_asm_parse(m, text, path, &a, d);
   free(text);
   if (ok) {
      *out = a.prog;
      memset(&a.prog, 0, sizeof(a.prog));
      emu_asm_free(&a);
   }
   return ok ? COMPILE_OK : COMPILE_ERROR;
}

static void
opt_options_of(const struct diff_check *c, struct opt_options *o)
{
   memset(o, 0, sizeof(*o));
   o->fuse_ffma = (c->o.inexact >> DIFF_INEXACT_FFMA_BIT) & 1;
   o->inexact = (c->o.inexact >> DIFF_INEXACT_ALGEBRAIC_BIT) & 1;
   o->faults = c->o.faults; /* --inject-fault */
   o->no_verify = c->o.no_verify;
   o->bisect_limit = -1;
}

void
diff_check_opt_options(const struct diff_check *c, struct opt_options *o)
{
   opt_options_of(c, o);
}

struct tgsi_shader *
diff_check_parse(const struct diff_check *c, unsigned k, struct diag_list *d)
{
   return parse_shader(c, &c->shaders[k], d);
}

struct diff_extcc
diff_check_extcc(const struct diff_check_opts *o)
{
   unsigned ms = o->opt_cmd_timeout_ms ? o->opt_cmd_timeout_ms : DIFF_EXTCC_TIMEOUT_SEC * 1000;
   /* under the case's own --timeout, so the command's is the one that strikes */
   if (o->timeout_ms && ms > o->timeout_ms / 4 * 3)
      ms = MAX2(1u, o->timeout_ms / 4 * 3);
   return (struct diff_extcc){o->opt_cmd, ms};
}

/* The optimizing compiler's program for s, or the override's (--opt-asm,
 * tests). */
static enum compile_status
compile_opt(struct case_run *cr, const struct tgsi_shader *s, struct emu_program *out,
            struct compile_stats *st, struct diag_list *d)
{
   const struct diff_check *c = cr->j->c;
   if (c->opt_override)
      return c->opt_override(c->opt_override_ctx, s, cr->t->model, out, d);
   if (c->o.opt_cmd) { /* the invariance build; step_opt_cmd for the case's */
      struct diff_extcc x = diff_check_extcc(&c->o);
      struct diff_extcc_result r;
      diff_extcc_compile(&x, s, cr->t->model, -1, out, &r);
      if (r.msg)
         diag_add(d, DIAG_ERROR, NULL, 0, 0, NULL, "%s", r.msg);
      else
         diff_program_stats(cr->t->model, out, st);
      enum compile_status cs = r.msg ? r.status : COMPILE_OK;
      diff_extcc_result_fini(&r);
      return cs;
   }
   struct opt_options o;
   opt_options_of(c, &o);
   if (!c->o.coverage || cr->r->cover)
      return opt_compile(s, cr->t->model, &o, out, st, NULL, d);
   cover_reset(); /* what this compile exercises, carried with the result */
   cover_on = true;
   enum compile_status cs = opt_compile(s, cr->t->model, &o, out, st, NULL, d);
   cover_on = false;
   cr->r->cover = cover_dump();
   cover_reset();
   return cs;
}

/* --opt-cmd: the external compiler's program; its failures are the
 * case's signals (compile-error, crash, timeout, or a refusal). */
static void
step_opt_cmd(struct case_run *cr)
{
   const struct diff_check *c = cr->j->c;
   struct diff_extcc x = diff_check_extcc(&c->o);
   struct diff_extcc_result r;
   diff_extcc_compile(&x, cr->j->s, cr->t->model, -1, &cr->opt.p, &r);
   if (!r.msg) {
      struct compile_stats st;
      struct diag_list d = {0};
      diff_program_stats(cr->t->model, &cr->opt.p, &st);
      compiled(cr, &cr->opt, COMPILE_OK, &st, &cr->r->opt, &d);
   } else {
      bool refused = r.status == COMPILE_UNSUPPORTED && cr->r->ref.valid;
      diff_result_add(cr->r, refused ? DIFF_SIG_REFUSED : r.kind, "opt", NULL, 0, "opt: %s", r.msg);
   }
   diff_extcc_result_fini(&r);
}

static bool
step_opt(struct case_run *cr)
{
   if (cr->j->c->o.opt_cmd && !cr->j->c->opt_override) {
      step_opt_cmd(cr);
      return true;
   }
   struct diag_list d = {0};
   struct compile_stats st = {0};
   enum compile_status cs = compile_opt(cr, cr->j->s, &cr->opt.p, &st, &d);
   compiled(cr, &cr->opt, cs, &st, &cr->r->opt, &d);
   if (cr->j->c->opt_override)
      cr->r->opt.valid = false; /* a hand-made program has no compiler figures */
   return true;
}

/* The emulator's events as signals: hazards (the run goes on, its values
 * are compared) and faults (the run is not compared). */
static bool
report_events(struct case_run *cr, const struct prog *pg, const char *step,
              const struct emu_result *res)
{
   bool usable = res->status == EMU_OK;
   for (unsigned k = 0; k < EMU_EV_COUNT; k++) {
      if (!res->counts[k])
         continue;
      const struct emu_event *ev = NULL;
      for (unsigned e = 0; e < res->nevents && !ev; e++)
         if (res->events[e].kind == k)
            ev = &res->events[e];
      char reg[32] = "-";
      if (ev && ev->file != 0xff)
         isa_reg_text(cr->t->model, ev->file, ev->index, reg, sizeof(reg));
      enum diff_signal_kind kind = k < EMU_EV_FIRST_FAULT ? DIFF_SIG_HAZARD
                                   : k == EMU_EV_ILLEGAL  ? DIFF_SIG_ILLEGAL
                                                          : DIFF_SIG_EMU;
      diff_result_add(cr->r, kind, step, NULL, res->counts[k],
                      "%s program: %s (%s) at 0x%x, %s, producer 0x%x, early by %d", pg->name,
                      emu_event_names[k], emu_event_descs[k], ev ? ev->pc : 0, reg,
                      ev ? ev->producer_pc : 0, ev ? ev->early : 0);
   }
   return usable;
}

/* Runs pg on a copy of the inputs, outputs shaped as the interpreter's. */
/* Runs a compiled program on the case's inputs; its emulated cycles
 * (summed over waves) go to *emu_cycles when the run is usable. */
static void
run_prog(struct case_run *cr, struct prog *pg, const char *step, uint64_t *emu_cycles)
{
   struct job *j = cr->j;
   struct diag_list d = {0};
   struct emu_code *code = NULL;
   struct emu_result res = {0};
   enum emu_status st = emu_load(&pg->p, &code, &d);
   struct env *e = NULL;
   if (st == EMU_OK) {
      e = env_clone(j->inputs);
      uint32_t nv = j->golden ? j->golden->out_vertices
                              : tgsi_interp_prop(j->s, TGSI_PROP_TCS_VERTICES_OUT, 1);
      if (!env_alloc_outputs(e, j->golden ? j->golden->nout : tgsi_output_count(j->s), nv))
         st = EMU_ERR_ENV;
      else
         st = emu_run(code, e,
                      &(struct emu_options){.max_cycles = j->runaway ? RUNAWAY_MAX_CYCLES : 0},
                      &res, &d);
   }
   bool usable = report_events(cr, pg, step, &res);
   if (st != EMU_OK && st != EMU_FAULT && st != EMU_BUDGET) {
      char *msg = diag_first_error_text(&d, emu_status_names[st]);
      diff_result_add(cr->r,
                      st == EMU_ERR_UNSUPPORTED ? DIFF_SIG_UNSUPPORTED
                      : st == EMU_ERR_DECODE    ? DIFF_SIG_ILLEGAL
                                                : DIFF_SIG_EMU,
                      step, NULL, 0, "%s program: %s", pg->name, msg);
      free(msg);
   }
   if (usable && st == EMU_OK) {
      pg->run = e;
      if (emu_cycles)
         *emu_cycles = res.wave_cycles;
   } else
      env_free(e);
   emu_result_free(&res);
   emu_code_free(code);
   diag_clear(&d);
}

static bool
step_emu_ref(struct case_run *cr)
{
   if (cr->j->runaway)
      return false; /* no input ends it: nothing to compare */
   if (cr->ref.runnable)
      run_prog(cr, &cr->ref, "emu ref", &cr->r->ref.emu_cycles);
   return true;
}

static bool
step_emu_opt(struct case_run *cr)
{
   if (cr->opt.runnable)
      run_prog(cr, &cr->opt, "emu opt", &cr->r->opt.emu_cycles);
   return true;
}

/* One comparison; a mismatch is a signal with the first value and the
 * failing lanes' inputs. */
static void
compare_runs(struct case_run *cr, const char *step, enum diff_cmp_mode mode,
             const struct env *expected, const struct env *actual, unsigned inexact)
{
   struct job *j = cr->j;
   /* with --opt, ref against opt: what a rewritten branch decides is not exact */
   const uint8_t *ex = mode == DIFF_CMP_EXACT && j->exact_ctl ? j->exact_ctl : j->exact;
   struct diff_cmp_opts o = {mode, cr->j->c->o.exact_nan, inexact, j->golden, ex, NULL};
   struct diff_cmp_result res;
   diff_compare(j->s, expected, actual, &o, &res);
   struct diff_case_result *r = cr->r;
   r->compared += res.compared;
   r->undefined += res.undefined;
   r->unchecked += res.unchecked;
   r->tolerated += res.tolerated;
   if (!res.mismatched)
      return;
   char *t = diff_mismatch_text(j->s, &res.shown[0]);
   diff_result_add(r, DIFF_SIG_MISMATCH, step, &res.shown[0], res.mismatched, "%s", t);
   free(t);
   for (unsigned i = 0; i < res.nlanes && r->nlanes < DIFF_MAX_LANES; i++) {
      bool have = false;
      for (unsigned k = 0; k < r->nlanes; k++)
         have |= r->lanes[k].lane == res.lanes[i];
      if (!have)
         diff_lane_dump(j->inputs, res.lanes[i], &r->lanes[r->nlanes++]);
   }
}

/* Interpreter against ref (the oracle), ref against opt (exact); when ref
 * did not run, interpreter against opt. */
static bool
step_compare(struct case_run *cr)
{
   struct job *j = cr->j;
   unsigned inexact = j->c->o.inexact;
   if (j->golden && cr->ref.run)
      compare_runs(cr, "interp/ref", DIFF_CMP_ORACLE, j->golden, cr->ref.run, 0);
   if (cr->opt.run && cr->ref.run)
      compare_runs(cr, "ref/opt", DIFF_CMP_EXACT, cr->ref.run, cr->opt.run, inexact);
   else if (cr->opt.run && j->golden)
      compare_runs(cr, "interp/opt", DIFF_CMP_ORACLE, j->golden, cr->opt.run, inexact);
   return true;
}

/* Per OUT register * 4 + chan: 1 for the POSITION output's channels. */
static uint8_t *
position_channels(const struct tgsi_shader *s, uint32_t nout)
{
   uint8_t *sel = xcalloc((size_t)nout * 4 + 1, 1);
   for (unsigned i = 0; i < s->ndecls; i++) {
      const struct tgsi_decl *dc = &s->decls[i];
      if (dc->file == TGSI_FILE_OUT && dc->has_semantic && dc->semantic == TGSI_SEM_POSITION)
         for (uint32_t r = dc->first; r <= dc->last && r < nout; r++)
            memset(sel + 4 * r, 1, 4);
   }
   return sel;
}

/* --invariance: opt builds the vertex shader again keeping only POSITION;
 * the positions of the two builds must be bit-identical (seed 003). */
static bool
step_invariance(struct case_run *cr)
{
   struct job *j = cr->j;
   struct tgsi_shader *p = NULL;
   if (!j->c->o.invariance || j->s->stage != TGSI_STAGE_VERT || !cr->opt.run ||
       !(p = diff_position_only(j->s)))
      return true;
   struct prog pos = {.name = "opt position-only"};
   struct diag_list d = {0};
   struct compile_stats st = {0};
   struct diff_prog_stats ps;
   compiled(cr, &pos, compile_opt(cr, p, &pos.p, &st, &d), &st, &ps, &d);
   if (pos.runnable)
      run_prog(cr, &pos, "emu opt position-only", NULL);
   if (pos.run) {
      uint8_t *sel = position_channels(j->s, tgsi_output_count(j->s));
      struct diff_cmp_opts o = {DIFF_CMP_BITS, j->c->o.exact_nan, 0, j->golden, j->exact, sel};
      struct diff_cmp_result res;
      diff_compare(j->s, cr->opt.run, pos.run, &o, &res);
      if (res.mismatched) {
         char *t = diff_mismatch_text(j->s, &res.shown[0]);
         diff_result_add(cr->r, DIFF_SIG_INVARIANCE, "invariance", &res.shown[0], res.mismatched,
                         "full build against position-only build: %s", t);
         free(t);
      }
      free(sel);
   }
   prog_fini(&pos);
   tgsi_shader_free(p);
   return true;
}

/* The target steps, in order. Each returns false to end the case. */
static const struct case_step {
   const char *name;
   bool (*run)(struct case_run *cr);
} case_steps[] = {
    {"applies", step_applies},
    {"ref", step_ref},
    {"opt", step_opt},
    {"emu ref", step_emu_ref},
    {"emu opt", step_emu_opt},
    {"compare", step_compare},
    {"invariance", step_invariance},
    {NULL, NULL},
};

const char *
diff_check_steps(const struct diff_check *c)
{
   static char buf[160];
   size_t n = (size_t)snprintf(buf, sizeof(buf), "parse inputs interp");
   for (unsigned i = 0; case_steps[i].name; i++) {
      const char *name = case_steps[i].name;
      if (!strcmp(name, "invariance") && !c->o.invariance)
         continue;
      n += (size_t)snprintf(buf + n, sizeof(buf) - n, " %s", name);
   }
   return buf;
}

/* DIFFCOMP_CHECK_INJECT, for the isolation tests only. */
static void
inject(const struct diff_check *c, const char *shader)
{
   const char *v = c->inject, *colon = v ? strchr(v, ':') : NULL;
   if (!colon || !strstr(shader, colon + 1))
      return;
   size_t n = (size_t)(colon - v);
   if (n == 5 && !strncmp(v, "crash", 5)) {
      signal(SIGSEGV, SIG_DFL); /* past any sanitizer's handler */
      raise(SIGSEGV);
   } else if (n == 4 && !strncmp(v, "spin", 4)) {
      for (volatile unsigned x = 0;; x++)
         ;
   } else if (n == 4 && !strncmp(v, "exit", 4)) {
      _exit(3);
   }
}

static void
progress(struct job *j, unsigned idx, const char *step)
{
   if (j->fn)
      j->fn(j->ctx, idx, step);
}

static struct tgsi_shader *
parse_shader(const struct diff_check *c, const struct diff_shader_src *src, struct diag_list *d)
{
   size_t len = 0;
   char *text = src->text;
   if (!text && !(text = diff_shader_text(src, &len, d)))
      return NULL;
   if (text == src->text)
      len = strlen(text);
   struct tgsi_parse_opts po = c->o.popts;
   tgsi_read_dialect(text, len, &po);
   struct tgsi_shader *s = tgsi_parse(text, len, src->name, &po, d);
   if (text != src->text)
      free(text);
   return s;
}

/* Memory words (buffers, images) the run made undefined that its inputs
 * defined: written by several workgroups. */
static uint64_t
raced_words(const struct env *in, const struct env *run, uint64_t *defined)
{
   uint64_t n = 0;
   *defined = 0;
   for (unsigned i = 0; i < ENV_MAX_BUFFERS + ENV_MAX_IMAGES; i++) {
      const struct env_mem *a =
          i < ENV_MAX_BUFFERS ? &in->buf[i] : &in->img[i - ENV_MAX_BUFFERS].mem;
      const struct env_mem *b =
          i < ENV_MAX_BUFFERS ? &run->buf[i] : &run->img[i - ENV_MAX_BUFFERS].mem;
      for (uint32_t w = 0; a->undef && b->undef && w + 4 <= MIN2(a->size, b->size); w += 4) {
         *defined += !a->undef[w];
         n += !a->undef[w] && b->undef[w];
      }
   }
   return n;
}

void
diff_case_env_fini(struct diff_case_env *ce)
{
   env_free(ce->inputs);
   env_free(ce->golden);
   free(ce->err);
   memset(ce, 0, sizeof(*ce));
}

uint32_t
diff_case_subgroup(const struct diff_check *c, unsigned i)
{
   if (i < c->ncases && c->cases[i].target < c->ntargets)
      return diff_subgroup_size(c->targets[c->cases[i].target].model);
   return c->ntargets ? diff_subgroup_size(c->targets[0].model) : ENV_SUBGROUP_SIZE;
}

/* Whether the golden run bounds the effect of fused multiply-adds
 * (compare.c's fuse-ffma tolerance reads it). */
static bool
fuse_bounds(const struct diff_check_opts *o)
{
   return (o->inexact >> DIFF_INEXACT_FFMA_BIT) & 1;
}

/* Whether opt may apply the inexact algebraic rewrites (the golden run
 * marks what a NaN they may remove decides: tgsi_interp_opts.inexact). */
static bool
inexact_rewrites(const struct diff_check_opts *o)
{
   return (o->inexact >> DIFF_INEXACT_ALGEBRAIC_BIT) & 1;
}

/* One try: inputs from the seed (with flags, for nlanes) and the golden run. */
static bool
case_env_try(const struct diff_check_opts *o, const struct tgsi_shader *s,
             const struct tgsi_shader *plan, uint32_t nlanes, unsigned flags, uint32_t subgroup,
             struct diff_case_env *ce, struct diag_list *d)
{
   diff_case_env_fini(ce);
   ce->inputs = diff_gen_inputs_ex(plan ? plan : s, o->seed, nlanes, flags, subgroup, d);
   if (!ce->inputs)
      return false;
   ce->golden = env_clone(ce->inputs);
   struct tgsi_interp_opts io = {
       .max_steps = o->max_steps, .fuse_bounds = fuse_bounds(o), .inexact = inexact_rewrites(o)};
   ce->st = tgsi_interp_run(s, ce->golden, &io, d);
   return true;
}

bool
diff_case_env(const struct diff_check_opts *o, const struct tgsi_shader *s,
              const struct tgsi_shader *plan, const struct env *given, uint32_t subgroup,
              struct diff_case_env *ce, struct diag_list *d)
{
   memset(ce, 0, sizeof(*ce));
   if (given) {
      ce->inputs = env_clone(given);
      ce->golden = env_clone(given);
      struct tgsi_interp_opts io = {
          .max_steps = o->max_steps, .fuse_bounds = fuse_bounds(o), .inexact = inexact_rewrites(o)};
      ce->st = tgsi_interp_run(s, ce->golden, &io, d);
   } else if (!case_env_try(o, s, plan, o->invocations, 0, subgroup, ce, d)) {
      return false;
   }
   uint64_t defined, raced = 0;
   if (!given && ce->st == TGSI_INTERP_OK && s->stage == TGSI_STAGE_COMP &&
       ce->inputs->grid_size[0] > 1 &&
       (raced = raced_words(ce->inputs, ce->golden, &defined)) * 2 > defined) {
      /* Workgroups that all write the same words leave every one of them
       * undefined: one workgroup defines them. */
      uint32_t wg =
          ce->inputs->block_size[0] * ce->inputs->block_size[1] * ce->inputs->block_size[2];
      struct diag_list q = {0};
      struct diff_case_env one;
      memset(&one, 0, sizeof(one));
      if (case_env_try(o, s, plan, wg, 0, subgroup, &one, &q) && one.st == TGSI_INTERP_OK) {
         diff_case_env_fini(ce);
         *ce = one;
         ce->retried |= DIFF_RETRY_ONE_WORKGROUP;
      } else {
         diff_case_env_fini(&one);
      }
      diag_clear(&q);
   }
   bool consts = false; /* without constants the retry would run the same inputs */
   for (unsigned b = 0; b < ENV_MAX_CBUFS && ce->inputs; b++)
      consts |= ce->inputs->cbuf_slots[b] > 0;
   if (!given && consts && ce->st == TGSI_INTERP_BUDGET) {
      /* A loop bounded by a constant: realistic constants end it. */
      struct diag_list q = {0};
      struct diff_case_env real;
      memset(&real, 0, sizeof(real));
      if (case_env_try(o, s, plan, o->invocations, DIFF_INPUTS_REAL_CONSTANTS, subgroup, &real,
                       &q) &&
          real.st != TGSI_INTERP_BUDGET) {
         diff_case_env_fini(ce);
         *ce = real;
         ce->retried |= DIFF_RETRY_REAL_CONSTANTS;
         struct diag_list t = *d; /* the retry's diagnostics stand */
         *d = q;
         q = t;
      } else {
         diff_case_env_fini(&real);
      }
      diag_clear(&q);
   }
   if (ce->st != TGSI_INTERP_OK) {
      char *e = diag_first_error_text(d, tgsi_interp_status_names[ce->st]);
      ce->err = xasprintf("%s: %s", tgsi_interp_status_names[ce->st], e);
      free(e);
      env_free(ce->golden);
      ce->golden = NULL;
   }
   return true;
}

/* The interpreter's defined output values, and the NaNs among them. */
static void
count_nan(const struct env *g, uint64_t *outputs, uint64_t *nan)
{
   size_t n = (size_t)g->out_vertices * g->nout * 4 * g->nlanes;
   for (size_t i = 0; g->out && i < n; i++)
      if (!(g->out_flags[i] & ENV_F_UNDEF)) {
         ++*outputs;
         *nan += (g->out[i] & 0x7fffffffu) > 0x7f800000u;
      }
   size_t nv = (size_t)g->nlanes * g->gs_max_vertices;
   for (size_t v = 0; g->gs_data && v < nv; v++) {
      if (v % g->gs_max_vertices >= g->gs_count[v / g->gs_max_vertices])
         continue;
      for (size_t k = v * g->nout * 4; k < (v + 1) * g->nout * 4; k++)
         if (!(g->gs_flags[k] & ENV_F_UNDEF)) {
            ++*outputs;
            *nan += (g->gs_data[k] & 0x7fffffffu) > 0x7f800000u;
         }
   }
}

/* A variant against its original, both on the interpreter: the same
 * values bit for bit (NaN equals NaN), where the original defines them. */
static void
variant_compare(struct job *j, const struct tgsi_shader *orig, const struct tgsi_interp_opts *io)
{
   struct diag_list d = {0};
   struct env *e = env_clone(j->inputs);
   if (tgsi_interp_run(orig, e, io, &d) == TGSI_INTERP_OK) {
      struct diff_cmp_opts o = {DIFF_CMP_BITS, j->c->o.exact_nan, 0, e, NULL, NULL};
      struct diff_cmp_result res;
      diff_compare(orig, e, j->golden, &o, &res);
      if (res.mismatched) {
         j->variant_bad = true;
         j->variant_mm = res.shown[0];
         j->variant_count = res.mismatched;
         char *t = diff_mismatch_text(orig, &res.shown[0]);
         j->variant_msg =
             xasprintf("the variant's interpreter run differs from the original's: %s", t);
         free(t);
      }
   }
   env_free(e);
   diag_clear(&d);
}

/* The shader-level steps; false if no case can run (all get the error).
 * subgroup: the lanes per subgroup of the inputs (the first case's
 * target's; job_subgroup_switch redoes the inputs for another). */
static bool
job_prepare(struct job *j, unsigned first, uint32_t subgroup)
{
   struct diag_list d = {0};
   progress(j, first, "parse");
   inject(j->c, j->src->name);
   j->s = parse_shader(j->c, j->src, &d);
   struct tgsi_shader *orig = NULL;
   if (j->s && j->src->variant_of) {
      /* a variant runs on its original's inputs */
      orig = parse_shader(j->c, &j->c->shaders[j->src->variant_of - 1], &d);
      if (!orig)
         tgsi_shader_free(j->s), j->s = NULL;
   }
   struct diff_case_env ce;
   memset(&ce, 0, sizeof(ce));
   if (j->s) {
      progress(j, first, "inputs");
      if (diff_case_env(&j->c->o, j->s, orig, j->src->inputs, subgroup, &ce, &d))
         j->inputs = ce.inputs;
   }
   if (!j->s || !j->inputs) {
      j->interp_err = diag_first_error_text(&d, "cannot be read");
      diag_clear(&d);
      diff_case_env_fini(&ce);
      tgsi_shader_free(orig);
      return false;
   }
   j->exact = diff_exact_channels(j->s, tgsi_output_count(j->s), false);
   if (j->c->o.inexact)
      j->exact_ctl = diff_exact_channels(j->s, tgsi_output_count(j->s), true);
   progress(j, first, "interp");
   j->golden = ce.golden;
   j->runaway = ce.st == TGSI_INTERP_BUDGET;
   j->interp_err = ce.err;
   if (j->golden)
      count_nan(j->golden, &j->outputs, &j->nan);
   struct tgsi_interp_opts io = {.max_steps = j->c->o.max_steps,
                                 .fuse_bounds = fuse_bounds(&j->c->o),
                                 .inexact = inexact_rewrites(&j->c->o)};
   if (orig && j->golden)
      variant_compare(j, orig, &io);
   tgsi_shader_free(orig);
   diag_clear(&d);
   return true;
}

static void
job_release(struct job *j)
{
   free(j->interp_err);
   free(j->variant_msg);
   free(j->exact);
   free(j->exact_ctl);
   env_free(j->golden);
   env_free(j->inputs);
   tgsi_shader_free(j->s);
   struct job keep = {.c = j->c, .src = j->src, .fn = j->fn, .ctx = j->ctx};
   *j = keep;
}

/* A shader whose results depend on the subgroup size gets inputs and an
 * interpreter run for each target's (gfx9 64 lanes, sm50 32); given
 * inputs (a reproducer's) keep their own. */
static bool
job_subgroup_switch(struct job *j, unsigned idx, bool ok)
{
   const struct isa_model *m = j->c->targets[j->c->cases[idx].target].model;
   uint32_t want = diff_subgroup_size(m);
   if (!ok || j->src->inputs || want == j->inputs->subgroup_size || !diff_uses_subgroups(j->s))
      return ok;
   job_release(j);
   return job_prepare(j, idx, want);
}

static void
run_case(struct job *j, unsigned idx)
{
   const struct diff_case *cs = &j->c->cases[idx];
   struct case_run cr = {j,
                         idx,
                         &j->c->targets[cs->target],
                         diff_result(j->c, idx),
                         {.name = "ref"},
                         {.name = "opt"}};
   if (j->runaway) /* a loop that no constants end: not the compilers' failure */
      diff_result_add(cr.r, DIFF_SIG_RUNAWAY, "interp", NULL, 0,
                      "%s (constants from the realistic profile too); programs not run",
                      j->interp_err);
   else if (j->interp_err)
      diff_result_add(cr.r, DIFF_SIG_INTERP, "interp", NULL, 0, "%s", j->interp_err);
   cr.r->outputs = j->outputs;
   cr.r->nan = j->nan;
   if (j->variant_bad)
      diff_result_add(cr.r, DIFF_SIG_MISMATCH, "interp/variant", &j->variant_mm, j->variant_count,
                      "%s", j->variant_msg);
   for (unsigned i = 0; case_steps[i].name; i++) {
      progress(j, idx, case_steps[i].name);
      if (!case_steps[i].run(&cr))
         break;
   }
   /* A pass that compared nothing proves nothing. */
   if (cr.r->status == DIFF_PASS && !cr.r->compared)
      diff_result_add(cr.r, DIFF_SIG_NOTHING, "compare", NULL, 0,
                      "no value compared (%llu undefined, %llu unchecked)",
                      (unsigned long long)cr.r->undefined, (unsigned long long)cr.r->unchecked);
   prog_fini(&cr.ref);
   prog_fini(&cr.opt);
}

void
diff_check_release(struct diff_check *c, unsigned end)
{
   for (; c->released < end && c->released < c->ncases; c->released++)
      diff_result_fini(diff_result(c, c->released));
}

unsigned
diff_check_group_end(const struct diff_check *c, unsigned i)
{
   unsigned e = i + 1;
   while (e < c->ncases && c->cases[e].shader == c->cases[i].shader)
      e++;
   return e;
}

void
diff_check_job(const struct diff_check *c, const unsigned *cases, unsigned n, diff_progress_fn fn,
               void *ctx)
{
   if (!n)
      return;
   const struct diff_shader_src *src = &c->shaders[c->cases[cases[0]].shader];
   struct job j = {.c = c, .src = src, .fn = fn, .ctx = ctx};
   double t0 = now_seconds();
   bool ok =
       job_prepare(&j, cases[0], diff_subgroup_size(c->targets[c->cases[cases[0]].target].model));
   for (unsigned i = 0; i < n && !c->stop; i++) {
      struct diff_case_result *r = diff_result(c, cases[i]);
      ok = job_subgroup_switch(&j, cases[i], ok);
      if (ok)
         run_case(&j, cases[i]);
      if (c->stop) { /* stopped during the case: its result is not one */
         diff_result_fini(r);
         break;
      }
      if (!ok)
         diff_result_add(r, DIFF_SIG_INPUT, j.s ? "inputs" : "parse", NULL, 0, "%s", j.interp_err);
      double t1 = now_seconds();
      r->seconds = t1 - t0;
      t0 = t1;
      r->done = true;
      progress(&j, cases[i], NULL);
   }
   job_release(&j);
}

/* ------------------------------------------------------------------ */
/* Invariance: the position-only build (seed 003)                       */

static bool
uses_out_indirectly(const struct tgsi_shader *s)
{
   for (unsigned i = 0; i < s->ninsns; i++) {
      const struct tgsi_insn *in = &s->insns[i];
      if (in->ndst && in->dst[0].reg.file == TGSI_FILE_OUT && in->dst[0].reg.indirect)
         return true;
      for (unsigned k = 0; k < in->nsrc; k++)
         if (in->src[k].reg.file == TGSI_FILE_OUT && in->src[k].reg.indirect)
            return true;
   }
   return false;
}

static void
retarget(struct tgsi_reg *r, const uint8_t *drop, uint32_t nout, uint32_t base)
{
   if (r->file == TGSI_FILE_OUT && r->index >= 0 && (uint32_t)r->index < nout && drop[r->index]) {
      r->file = TGSI_FILE_TEMP;
      r->index += (int32_t)base;
      r->array_id = 0;
   }
}

struct tgsi_shader *
diff_position_only(const struct tgsi_shader *s)
{
   uint32_t nout = 0, ntemp = 0;
   bool has_pos = false;
   for (unsigned i = 0; i < s->ndecls; i++) {
      const struct tgsi_decl *d = &s->decls[i];
      if (d->file == TGSI_FILE_OUT) {
         nout = MAX2(nout, d->last + 1);
         has_pos |= d->has_semantic && d->semantic == TGSI_SEM_POSITION;
      } else if (d->file == TGSI_FILE_TEMP) {
         ntemp = MAX2(ntemp, d->last + 1);
      }
   }
   if (s->stage != TGSI_STAGE_VERT || !has_pos || uses_out_indirectly(s))
      return NULL;
   struct tgsi_shader *p = tgsi_shader_clone(s);
   uint8_t *drop = xcalloc(nout + 1, 1);
   unsigned k = 0;
   for (unsigned i = 0; i < p->ndecls; i++) {
      struct tgsi_decl d = p->decls[i];
      if (d.file == TGSI_FILE_OUT && !(d.has_semantic && d.semantic == TGSI_SEM_POSITION)) {
         /* The output becomes TEMP[ntemp + reg]: still computed, never read. */
         memset(drop + d.first, 1, d.last - d.first + 1);
         struct tgsi_decl t = {.file = TGSI_FILE_TEMP,
                               .first = ntemp + d.first,
                               .last = ntemp + d.last,
                               .usage_mask = TGSI_MASK_XYZW,
                               .loc = d.loc};
         d = t;
      }
      p->decls[k++] = d;
   }
   p->ndecls = k;
   for (unsigned i = 0; i < p->ninsns; i++) {
      struct tgsi_insn *in = &p->insns[i];
      for (unsigned d = 0; d < in->ndst; d++)
         retarget(&in->dst[d].reg, drop, nout, ntemp);
      for (unsigned d = 0; d < in->nsrc; d++)
         retarget(&in->src[d].reg, drop, nout, ntemp);
   }
   free(drop);
   return p;
}
