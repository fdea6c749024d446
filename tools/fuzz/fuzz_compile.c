/*
 * libFuzzer harness: the whole compile pipeline on generated shaders. A
 * shader generated from the fuzzer's bytes (diff_gen_bytes; byte 0 picks
 * the stage, byte 1 the size) is compiled by both compilers for every
 * built-in model, the optimizing one validating its IR after every pass.
 * Each compile must either refuse with a diagnostic (COMPILE_UNSUPPORTED:
 * a construct that compiler does not translate, or hardware the model
 * lacks) or give a program whose every instruction decodes, is legal and
 * loads into the emulator. COMPILE_ERROR -- an internal failure -- and
 * anything else abort with the shader, which the fuzzer reports as a crash.
 */
#include "compiler/compiler.h"
#include "compiler/ir/ir.h"
#include "diff/diff.h"
#include "isa/isa.h"
#include "tools/fuzz/gen_opts.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const model_names[] = {"a3xx", "sm50", "gfx9", "agx"};
#define NMODELS (sizeof(model_names) / sizeof(model_names[0]))

static void
fail(const char *what, const char *model, const char *path, const struct diag_list *d,
     const char *text)
{
   const char *e = diag_first_error(d);
   fprintf(stderr, "fuzz_compile: %s %s: %s%s%s\n%s", model, path, what, e ? ": " : "", e ? e : "",
           text);
   abort();
}

/* A compiled program must decode, be legal and load. */
static void
check_program(const struct isa_model *m, const struct emu_program *p, const char *path,
              const char *text)
{
   struct diag_list d = {0};
   struct isa_insn *in = NULL;
   size_t n = 0;
   const char *name = isa_model_name(m);
   if (isa_decode_program(m, p->code, p->size, &in, &n, &d) != ISA_ERR_OK || !n)
      fail("the program does not decode", name, path, &d, text);
   for (size_t i = 0; i < n; i++)
      if (in[i].illegal)
         fail(isa_illegal_reason(m, &in[i]), name, path, &d, text);
   free(in);
   struct emu_code *c = NULL;
   if (emu_load(p, &c, &d) != EMU_OK)
      fail("the program does not load into the emulator", name, path, &d, text);
   emu_code_free(c);
   diag_clear(&d);
}

static void
check_compile(const struct isa_model *m, enum compile_status st, const struct emu_program *p,
              const char *path, struct diag_list *d, const char *text)
{
   const char *name = isa_model_name(m);
   if (st == COMPILE_ERROR)
      fail("internal compiler error", name, path, d, text);
   if (st == COMPILE_UNSUPPORTED && !diag_first_error(d))
      fail("refused without an error", name, path, d, text);
   if (st == COMPILE_OK)
      check_program(m, p, path, text);
   diag_clear(d);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   static struct isa_model *models[NMODELS];
   if (!models[0])
      for (unsigned i = 0; i < NMODELS; i++) {
         struct diag_list d = {0};
         if (isa_open(model_names[i], &models[i], &d) != ISA_ERR_OK)
            fail("cannot open the model", model_names[i], "", &d, "");
      }
   struct diff_gen_opts go = fuzz_gen_opts(&data, &size, 64, 24);
   struct diag_list d = {0};
   struct tgsi_shader *s = NULL;
   char *text = diff_gen_bytes(data, size, &go, &s, &d);
   if (!text)
      fail("the generator failed", "", "", &d, "");
   for (unsigned i = 0; i < NMODELS; i++) {
      struct emu_program p = {0};
      struct compile_stats st;
      check_compile(models[i], ref_compile(s, models[i], &p, &st, &d), &p, "ref", &d, text);
      emu_program_free(&p);
      struct opt_options oo = {.bisect_limit = -1, .validate = true};
      char *log = NULL;
      check_compile(models[i], opt_compile(s, models[i], &oo, &p, &st, &log, &d), &p, "opt", &d,
                    text);
      emu_program_free(&p);
      free(log);
   }
   tgsi_shader_free(s);
   diag_clear(&d);
   free(text);
   return 0;
}
