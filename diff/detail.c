/*
 * The details of one finished case, for the HTML report (check --html):
 * the shader text, the reference and optimizing programs as listings with
 * addresses, and for a hazard the issue timeline of the wave it happened
 * in. The case is rebuilt in this process from the check's options, so it
 * must not be one that crashed or hung a worker (the caller asks
 * diff_case_rebuildable first); the compilers are deterministic, so the
 * programs are the ones the run checked.
 */
#include "compiler/ir/ir.h"
#include "diff/diff.h"
#include "isa/isa.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rows kept before the hazard and after it. */
#define TIMELINE_BEFORE 48
#define TIMELINE_AFTER  6

bool
diff_case_rebuildable(const struct diff_case_result *r)
{
   for (unsigned k = 0; k < r->nsig; k++)
      if (r->sig[k].kind == DIFF_SIG_CRASH || r->sig[k].kind == DIFF_SIG_TIMEOUT)
         return false;
   return true;
}

/* "0x0010  mul.f r3.x, c0.x, r0.x" lines; NULL (why in *err) if the code
 * does not decode. */
static char *
listing(const struct isa_model *m, const struct emu_program *p, char **err)
{
   struct isa_insn *in = NULL;
   size_t n = 0;
   struct diag_list d = {0};
   struct strbuf b = {0};
   if (isa_decode_program(m, p->code, p->size, &in, &n, &d) != ISA_ERR_OK) {
      *err = diag_first_error_text(&d, "the program does not decode");
      diag_clear(&d);
      free(in);
      return NULL;
   }
   for (size_t i = 0; i < n; i++) {
      char text[192];
      isa_print_insn(m, &in[i], text, sizeof(text));
      strbuf_printf(&b, "0x%04x  %s%s\n", in[i].addr, text, in[i].illegal ? "  ; illegal" : "");
   }
   free(in);
   diag_clear(&d);
   return b.s ? b.s : xstrdup("");
}

static struct tgsi_shader *
parse_src(const struct diff_check *c, const struct diff_shader_src *src, char **text,
          struct diag_list *d)
{
   size_t len = 0;
   if (!(*text = diff_shader_text(src, &len, d)))
      return NULL;
   struct tgsi_parse_opts po = c->o.popts;
   tgsi_read_dialect(*text, len, &po);
   return tgsi_parse(*text, len, src->name, &po, d);
}

/* The optimizing side as the check built it: the override (--opt-asm),
 * the external command (--opt-cmd) or opt_compile. */
static bool
build_opt(const struct diff_check *c, const struct tgsi_shader *s, const struct isa_model *m,
          struct emu_program *out, char **why)
{
   struct diag_list d = {0};
   bool ok;
   if (c->opt_override) {
      ok = c->opt_override(c->opt_override_ctx, s, m, out, &d);
   } else if (c->o.opt_cmd) {
      struct diff_extcc x = diff_check_extcc(&c->o);
      struct diff_extcc_result r;
      diff_extcc_compile(&x, s, m, -1, out, &r);
      ok = !r.msg;
      if (r.msg)
         *why = xstrdup(r.msg);
      diff_extcc_result_fini(&r);
      return ok;
   } else {
      struct opt_options o;
      diff_check_opt_options(c, &o);
      struct compile_stats st;
      ok = opt_compile(s, m, &o, out, &st, NULL, &d) == COMPILE_OK;
   }
   if (!ok)
      *why = diag_first_error_text(&d, "no program");
   diag_clear(&d);
   return ok;
}

struct tl_ctx {
   const struct isa_model *m;
   const struct emu_code *code;
   const struct emu_event *ev;
   struct diff_timeline_row ring[TIMELINE_BEFORE];
   unsigned nring, head, after;
   struct diff_case_detail *out;
};

static void
tl_fill(struct tl_ctx *tc, const struct emu_trace *t, struct diff_timeline_row *row)
{
   memset(row, 0, sizeof(*row));
   row->cycle = t->cycle;
   row->pc = t->pc;
   row->stall = t->stall;
   row->active = t->active;
   isa_print_insn(tc->m, emu_code_insn(tc->code, t->index), row->text, sizeof(row->text));
   size_t n = (size_t)snprintf(row->why, sizeof(row->why), "%s", t->why);
   for (unsigned i = 0; i < t->nwaited && n < sizeof(row->why); i++) {
      char r[32];
      isa_reg_text(tc->m, t->waited[i].file, t->waited[i].index, r, sizeof(r));
      n += (size_t)snprintf(row->why + n, sizeof(row->why) - n, " %s", r);
   }
}

static void
tl_push(struct diff_case_detail *d, const struct diff_timeline_row *row)
{
   if (d->nrows == d->rows_cap) {
      d->rows_cap = d->rows_cap ? d->rows_cap * 2 : 64;
      d->rows = xrealloc(d->rows, d->rows_cap * sizeof(*d->rows));
   }
   d->rows[d->nrows++] = *row;
}

/* Keeps the last TIMELINE_BEFORE issues of the hazard's wave up to the
 * hazard, then TIMELINE_AFTER more. */
static void
tl_trace(void *user, const struct emu_trace *t)
{
   struct tl_ctx *tc = user;
   if (t->wave != tc->ev->wave || tc->after >= TIMELINE_AFTER)
      return;
   struct diff_timeline_row row;
   tl_fill(tc, t, &row);
   if (tc->out->nrows || (t->pc == tc->ev->pc && t->cycle >= tc->ev->cycle)) {
      if (!tc->out->nrows) { /* the hazard: flush what led to it */
         for (unsigned k = 0; k < tc->nring; k++)
            tl_push(tc->out,
                    &tc->ring[(tc->head + TIMELINE_BEFORE - tc->nring + k) % TIMELINE_BEFORE]);
         row.mark = DIFF_TL_HAZARD;
      } else {
         tc->after++;
      }
      tl_push(tc->out, &row);
      return;
   }
   tc->ring[tc->head] = row;
   tc->head = (tc->head + 1) % TIMELINE_BEFORE;
   tc->nring += tc->nring < TIMELINE_BEFORE;
}

static struct env *
run_env(const struct tgsi_shader *s, const struct diff_case_env *ce)
{
   struct env *e = env_clone(ce->inputs);
   uint32_t nout = 0;
   for (unsigned i = 0; i < s->ndecls; i++)
      if (s->decls[i].file == TGSI_FILE_OUT)
         nout = MAX2(nout, s->decls[i].last + 1);
   uint32_t nv =
       ce->golden ? ce->golden->out_vertices : tgsi_interp_prop(s, TGSI_PROP_TCS_VERTICES_OUT, 1);
   if (!env_alloc_outputs(e, ce->golden ? ce->golden->nout : nout, nv)) {
      env_free(e);
      return NULL;
   }
   return e;
}

/* Runs p on the case's inputs twice: to find its first hazard, then traced
 * around it. */
static void
timeline(const struct isa_model *m, const struct tgsi_shader *s, const struct diff_case_env *ce,
         const struct emu_program *p, struct diff_case_detail *out)
{
   struct diag_list d = {0};
   struct emu_code *code = NULL;
   struct emu_result res = {0};
   struct env *e = NULL;
   if (emu_load(p, &code, &d) != EMU_OK || !(e = run_env(s, ce)))
      goto done;
   emu_run(code, e, &(struct emu_options){0}, &res, &d);
   const struct emu_event *ev = NULL;
   for (unsigned k = 0; k < res.nevents && !ev; k++)
      if (res.events[k].kind < EMU_EV_FIRST_FAULT)
         ev = &res.events[k];
   if (!ev)
      goto done;
   struct emu_event hz = *ev;
   char reg[32] = "-";
   if (hz.file != 0xff)
      isa_reg_text(m, hz.file, hz.index, reg, sizeof(reg));
   out->tl_what = xasprintf("wave %u, cycle %llu: %s (%s) at 0x%x reading %s, producer 0x%x, "
                            "early by %d cycles",
                            hz.wave, (unsigned long long)hz.cycle, emu_event_names[hz.kind],
                            emu_event_descs[hz.kind], hz.pc, reg, hz.producer_pc, hz.early);
   out->tl_pc = hz.pc;
   out->tl_producer = hz.producer_pc;
   out->tl_early = hz.early;
   emu_result_free(&res);
   env_free(e);
   if (!(e = run_env(s, ce)))
      goto done;
   struct tl_ctx tc = {.m = m, .code = code, .ev = &hz, .out = out};
   emu_run(code, e, &(struct emu_options){.trace = tl_trace, .trace_user = &tc}, &res, &d);
   /* the last issue of the producer before the hazard */
   for (unsigned k = 0; k < out->nrows && out->rows[k].mark != DIFF_TL_HAZARD; k++)
      if (out->rows[k].pc == hz.producer_pc) {
         for (unsigned q = 0; q < k; q++)
            if (out->rows[q].mark == DIFF_TL_PRODUCER)
               out->rows[q].mark = 0;
         out->rows[k].mark = DIFF_TL_PRODUCER;
      }
done:
   emu_result_free(&res);
   env_free(e);
   emu_code_free(code);
   diag_clear(&d);
}

/* The step ("emu ref", "emu opt") of r's first hazard, or NULL. */
static const char *
hazard_step(const struct diff_case_result *r)
{
   for (unsigned k = 0; k < r->nsig; k++)
      if (r->sig[k].kind == DIFF_SIG_HAZARD && r->sig[k].step)
         return r->sig[k].step;
   return NULL;
}

void
diff_case_detail(const struct diff_check *c, unsigned i, struct diff_case_detail *out)
{
   memset(out, 0, sizeof(*out));
   const struct diff_case_result *r = diff_result(c, i);
   const struct diff_shader_src *src = &c->shaders[c->cases[i].shader];
   const struct isa_model *m = c->targets[c->cases[i].target].model;
   struct diag_list d = {0};
   struct tgsi_shader *s = parse_src(c, src, &out->tgsi, &d);
   if (!s || !diff_case_rebuildable(r)) {
      char *e = s ? xstrdup("the case did not finish in its worker: it is not rebuilt here")
                  : diag_first_error_text(&d, "the shader does not parse");
      out->ref = xstrdup(e);
      out->opt = e;
      goto done;
   }
   struct emu_program ref = {0}, opt = {0};
   char *why = NULL;
   struct compile_stats st;
   if (ref_compile(s, m, &ref, &st, &d) == COMPILE_OK)
      out->ref_ok = (out->ref = listing(m, &ref, &why)) != NULL;
   else
      why = diag_first_error_text(&d, "no program");
   if (!out->ref_ok)
      out->ref = why;
   why = NULL;
   bool opt_built = build_opt(c, s, m, &opt, &why);
   if (opt_built)
      out->opt_ok = (out->opt = listing(m, &opt, &why)) != NULL;
   if (!out->opt_ok)
      out->opt = why;
   const char *step = hazard_step(r);
   const struct emu_program *hp = !step                 ? NULL
                                  : strstr(step, "opt") ? (opt_built ? &opt : NULL)
                                                        : (out->ref_ok ? &ref : NULL);
   if (hp) {
      struct tgsi_shader *orig = NULL;
      struct diag_list q = {0};
      if (src->variant_of) {
         char *t = NULL;
         orig = parse_src(c, &c->shaders[src->variant_of - 1], &t, &q);
         free(t);
      }
      struct diff_case_env ce;
      if ((!src->variant_of || orig) &&
          diff_case_env(&c->o, s, orig, src->inputs, diff_subgroup_size(m), &ce, &q)) {
         timeline(m, s, &ce, hp, out);
         out->tl_prog = hp == &opt ? "opt" : "ref";
         diff_case_env_fini(&ce);
      }
      tgsi_shader_free(orig);
      diag_clear(&q);
   }
   emu_program_free(&ref);
   emu_program_free(&opt);
done:
   tgsi_shader_free(s);
   diag_clear(&d);
}

void
diff_case_detail_fini(struct diff_case_detail *d)
{
   free(d->tgsi);
   free(d->ref);
   free(d->opt);
   free(d->tl_what);
   free(d->rows);
   memset(d, 0, sizeof(*d));
}
