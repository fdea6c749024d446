/*
 * libFuzzer harness: the emulator on random programs. Byte 0 picks the
 * model (bit 0 and bit 7: a3xx, sm50, gfx9, agx) and the stage (bits 1-2: fragment, vertex,
 * compute); the rest is machine code, run on 8 lanes with the bindings
 * and resources of a fixed prologue (inputs, a system value, constants,
 * outputs, a texture, a buffer, an image and shared memory) and a small
 * cycle budget. Every status is fine -- random words are mostly illegal,
 * branch anywhere or loop -- but a refusal must say why, the figures must
 * agree with the status, and nothing may crash, leak or hang.
 */
#include "compiler/tgsi/tgsi.h"
#include "diff/diff.h"
#include "emu/emu.h"
#include "isa/isa.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_EVENTS 16

static const char *const models[4] = {"a3xx", "sm50", "gfx9", "agx"};

/* [model][stage]: the directives; the program body is the fuzzer's. */
static const char *const prologues[4][3] = {
    {
        ".stage frag\n.lanes 8\n.input r0.x IN[0].xyzw\n.sysval r1.x POSITION.xy\n"
        ".const c0.x CONST[0].xyzw\n.value c1.x 1.5\n.output r2.x OUT[0].xyzw\n"
        ".texture 0 2D\n.texture 1 3D\nend\n",
        ".stage vert\n.lanes 8\n.sysval r0.x VERTEXID.x\n.input r0.y IN[0].xyz\n"
        ".const c0.x CONST[0].xyzw\n.output r1.x OUT[0].xyzw\n.buffer 0\nend\n",
        ".stage comp\n.block 4 2\n.lanes 8\n.shared 64\n.sysval r0.x THREAD_ID.xyz\n"
        ".buffer 0\n.image 1 2D\n.size c0.x BUFFER[0].x\n.output r1.x OUT[0].xyzw\nend\n",
    },
    {
        ".stage frag\n.lanes 8\n.input R0 IN[0].xyzw\n.sysval R4 POSITION.xy\n"
        ".const c[0][0x0] CONST[0].xyzw\n.value c[0][0x10] 1.5\n.output R8 OUT[0].xyzw\n"
        ".texture 0 2D\n.texture 1 CUBE\nEXIT\n",
        ".stage vert\n.lanes 8\n.sysval R0 VERTEXID.x\n.input R1 IN[0].xyz\n"
        ".const c[0][0x0] CONST[0].xyzw\n.output R4 OUT[0].xyzw\n.buffer 0\nEXIT\n",
        ".stage comp\n.block 4 2\n.lanes 8\n.shared 64\n.sysval R0 THREAD_ID.xyz\n"
        ".buffer 0\n.image 1 2D\n.size c[0][0x0] BUFFER[0].x\n.output R4 OUT[0].xyzw\nEXIT\n",
    },
    {
        ".stage frag\n.lanes 8\n.input v0 IN[0].xyzw\n.sysval v4 POSITION.xy\n"
        ".const s4 CONST[0].xyzw\n.value s8 1.5\n.output v8 OUT[0].xyzw\n.buffer 0\ns_endpgm\n",
        ".stage vert\n.lanes 8\n.sysval v0 VERTEXID.x\n.input v1 IN[0].xyz\n"
        ".const v4 CONST[0].xyzw\n.output v8 OUT[0].xyzw\n.buffer 0\ns_endpgm\n",
        ".stage comp\n.block 4 2\n.lanes 8\n.shared 64\n.sysval v0 THREAD_ID.xyz\n"
        ".buffer 0\n.image 1 2D\n.size s4 BUFFER[0].x\n.output v4 OUT[0].xyzw\ns_endpgm\n",
    },
    {
        ".stage frag\n.lanes 8\n.input r4 IN[0].xyzw\n.sysval r8 POSITION.xy\n"
        ".const u0 CONST[0].xyzw\n.value u4 1.5\n.output r12 OUT[0].xyzw\n.buffer 0\nstop\n",
        ".stage vert\n.lanes 8\n.sysval r4 VERTEXID.x\n.input r5 IN[0].xyz\n"
        ".const u0 CONST[0].xyzw\n.output r8 OUT[0].xyzw\n.buffer 0\nstop\n",
        ".stage comp\n.block 4 2\n.lanes 8\n.sysval r4 THREAD_ID.xyz\n"
        ".buffer 0\n.size u0 BUFFER[0].x\n.output r8 OUT[0].xyzw\nstop\n",
    },
};

struct target {
   struct isa_model *m;
   struct emu_asm as;
   struct env *env; /* inputs and resources; each run gets a copy */
};

static void
fail(const char *what, const struct diag_list *d)
{
   const char *e = d ? diag_first_error(d) : NULL;
   fprintf(stderr, "fuzz_emu: %s%s%s\n", what, e ? ": " : "", e ? e : "");
   abort();
}

static struct target *
target(unsigned model, unsigned stage)
{
   static struct target t[4][3];
   struct target *x = &t[model][stage];
   if (x->env)
      return x;
   struct diag_list d = {0};
   if (!t[model][0].m && isa_open(models[model], &t[model][0].m, &d) != ISA_ERR_OK)
      fail("cannot open the model", &d);
   x->m = t[model][0].m;
   if (!emu_asm_parse(x->m, prologues[model][stage], "<prologue>", &x->as, &d))
      fail("the prologue does not assemble", &d);
   struct tgsi_shader *s = tgsi_parse(x->as.tgsi, strlen(x->as.tgsi), "<prologue>", NULL, NULL);
   if (!s || !(x->env = diff_gen_inputs(s, 1, x->as.lanes, &d)))
      fail("no inputs for the prologue", &d);
   tgsi_shader_free(s);
   x->env->shared_size = x->as.shared;
   if (!env_alloc_outputs(x->env, 4, 1))
      fail("no outputs", NULL);
   diag_clear(&d);
   return x;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   if (size < 1)
      return 0;
   const struct target *t = target((data[0] & 1) | (data[0] >> 6 & 2), (data[0] >> 1) % 3);
   struct emu_program p = t->as.prog;
   p.code = (uint8_t *)data + 1;
   p.size = size - 1;
   struct diag_list d = {0};
   struct emu_code *c = NULL;
   enum emu_status st = emu_load(&p, &c, &d);
   if (st != EMU_OK) {
      if (c)
         fail("a refused program was returned", &d);
      if (!diag_first_error(&d))
         fail("a program was refused without an error", NULL);
   } else {
      struct env *e = env_clone(t->env);
      struct emu_options o = {.max_cycles = 1u << 12, .max_events = MAX_EVENTS};
      struct emu_result r;
      st = emu_run(c, e, &o, &r, &d);
      uint64_t faults = 0;
      for (unsigned k = EMU_EV_FIRST_FAULT; k < EMU_EV_COUNT; k++)
         faults += r.counts[k];
      if (r.status != st || r.nevents > MAX_EVENTS)
         fail("the result disagrees with the status or keeps too many events", &d);
      if (st == EMU_OK && faults)
         fail("a run with faults ended ok", &d);
      if ((st == EMU_FAULT || st == EMU_BUDGET) && !faults)
         fail("a run stopped without a fault event", &d);
      if (st >= EMU_ERR_DECODE && !diag_first_error(&d))
         fail("a run was refused without an error", NULL);
      emu_result_free(&r);
      env_free(e);
   }
   emu_code_free(c);
   diag_clear(&d);
   return 0;
}
