/*
 * Shared by the emulator tests: assemble an emu program (directives and
 * all), give it random inputs from a seed exactly as 'diffcomp emu' does,
 * and run it.
 */
#ifndef DC_EMU_TEST_UTIL_H
#define DC_EMU_TEST_UTIL_H

#include "compiler/tgsi/tgsi.h"
#include "diff/diff.h"
#include "emu/emu.h"
#include "isa/isa.h"
#include "util/test.h"

#include <stdlib.h>

struct fix_run {
   struct emu_asm as;
   struct env *env;
   struct emu_code *code;
   struct emu_result res;
   enum emu_status st;
   struct diag_list d;
};

/* A bundled model by name (a failed CHECK and NULL if it does not open). */
static inline struct isa_model *
fix_open_model(const char *name)
{
   struct diag_list d = {0};
   struct isa_model *m = NULL;
   CHECKF(isa_open(name, &m, &d) == ISA_ERR_OK, "open %s", name);
   diag_clear(&d);
   return m;
}

/* The env the tool builds: random inputs for the declared bindings,
 * outputs for the output bindings. */
static inline struct env *
fix_env(const struct emu_asm *as, uint64_t seed, uint32_t lanes, struct diag_list *d)
{
   struct diag_list td = {0};
   struct tgsi_shader *s = tgsi_parse(as->tgsi, strlen(as->tgsi), "<decl>", NULL, &td);
   diag_clear(&td);
   if (!s)
      return NULL;
   struct env *e = diff_gen_inputs(s, seed, lanes ? lanes : as->lanes ? as->lanes : 16, d);
   tgsi_shader_free(s);
   if (!e)
      return NULL;
   if (as->shared)
      e->shared_size = as->shared;
   uint32_t nout = 0;
   for (unsigned b = 0; b < as->prog.nbinds; b++)
      if (as->prog.binds[b].kind == EMU_BIND_OUTPUT)
         nout = nout > as->prog.binds[b].tgsi_index + 1u ? nout : as->prog.binds[b].tgsi_index + 1u;
   env_alloc_outputs(e, nout, 1);
   return e;
}

/* Assembles and makes the env (the caller may change it before
 * fix_exec). Free with fix_free. */
static inline bool
fix_prepare(const struct isa_model *m, const char *text, const char *name, uint64_t seed,
            uint32_t lanes, struct fix_run *r)
{
   memset(r, 0, sizeof(*r));
   if (!emu_asm_parse(m, text, name, &r->as, &r->d))
      return false;
   r->env = fix_env(&r->as, seed, lanes, &r->d);
   return r->env != NULL;
}

/* Loads and runs; false (with r->d holding why) if it did not get to run. */
static inline bool
fix_exec(struct fix_run *r, const struct emu_options *o)
{
   emu_result_free(&r->res);
   emu_code_free(r->code);
   r->code = NULL;
   if (emu_load(&r->as.prog, &r->code, &r->d) != EMU_OK)
      return false;
   r->st = emu_run(r->code, r->env, o, &r->res, &r->d);
   return r->st == EMU_OK || r->st == EMU_FAULT || r->st == EMU_BUDGET;
}

static inline bool
fix_run_text(const struct isa_model *m, const char *text, const char *name, uint64_t seed,
             uint32_t lanes, const struct emu_options *o, struct fix_run *r)
{
   return fix_prepare(m, text, name, seed, lanes, r) && fix_exec(r, o);
}

static inline void
fix_free(struct fix_run *r)
{
   emu_result_free(&r->res);
   emu_code_free(r->code);
   env_free(r->env);
   emu_asm_free(&r->as);
   diag_clear(&r->d);
}

/* OUT[out].chan of lane l. */
static inline uint32_t
fix_out(const struct fix_run *r, unsigned out, unsigned chan, uint32_t l)
{
   return r->env->out[env_out_index(r->env, 0, out, chan) + l];
}

static inline void
fix_print_diags(const struct diag_list *d)
{
   for (unsigned i = 0; i < d->n; i++)
      fprintf(stderr, "  %s:%d:%d: %s\n", d->v[i].file ? d->v[i].file : "?", d->v[i].line,
              d->v[i].col, d->v[i].msg);
}

#endif
