/*
 * diffcomp emu: run an assembly program (emu/README.md: the model's
 * assembler syntax plus binding directives) on the cycle-approximate
 * emulator and print, as YAML, the figures (cycles, instructions, nops,
 * stalls), the hazards and faults, and the outputs per lane (a geometry
 * shader's emitted vertices, a tessellation control shader's outputs per
 * vertex; their sizes from the directives and the program's attribute
 * stores). Inputs come
 * from a seed (diff_gen_inputs on the declarations the directives imply)
 * or from an inputs file. --trace adds one line per executed instruction.
 *
 * Exit status: 0 the run was clean, 1 it reported hazards or faults,
 * 2 bad usage or input.
 */
#include "compiler/tgsi/tgsi.h"
#include "diff/diff.h"
#include "emu/emu.h"
#include "isa/isa.h"
#include "tools/tools.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void
emu_usage(FILE *f)
{
   fprintf(f,
           "usage: diffcomp emu MODEL PROGRAM.s [--inputs FILE.yaml] [--seed S]\n"
           "                    [--invocations N] [--trace] [--max-cycles N] [--wave-size N]\n"
           "                    [--summary]\n"
           "       diffcomp emu MODEL CODE.bin --bindings FILE.yaml [options]\n\n"
           "Runs an assembly program on the cycle-approximate emulator of MODEL and prints\n"
           "cycles, hazards and outputs as YAML.\n\n"
           "PROGRAM is the model's assembly (what 'diffcomp as' reads) with directives:\n"
           "  .stage frag|vert|comp|geom|tess_ctrl|tess_eval      .lanes N\n"
           "  .block X [Y [Z]]           .shared BYTES\n"
           "  .input REG IN[n].xyzw      .sysval REG SEMANTIC.x            (e.g. THREAD_ID.x)\n"
           "  .const REG CONST[b][n].x   .value REG 0x3f800000|1.5\n"
           "  .output REG OUT[n].xyzw    .texture UNIT TARGET              .buffer N\n"
           "  .max_vertices N (GS)       .out_vertices N (TCS)             .outputs N\n"
           "  name:  a label; $name in an instruction becomes the branch offset to it\n"
           "A channel list binds consecutive registers: .input r0.x IN[0].xyzw = r0.x..r0.w.\n"
           "Comments start with ';' or '//'. See emu/README.md.\n\n"
           "  --bindings FILE   PROGRAM is raw machine code (as 'diffcomp as -o' writes it)\n"
           "                    and FILE its directives in YAML, one key per directive\n"
           "                    without the dot: 'input: [\"r0.x IN[0].xyzw\"]'\n"
           "  --inputs FILE     inputs from YAML (diffcomp interp --write-inputs format)\n"
           "  --seed S          seed of the random inputs (default 1)\n"
           "  --invocations N   lanes (default: .lanes, else 16)\n"
           "  --trace           print every executed instruction: wave, issue cycle, stall\n"
           "                    cycles and what it waited for\n"
           "  --max-cycles N    cycle budget per wave (default %llu)\n"
           "  --wave-size N     lanes per wave, 1..64 (default: 64 on a3xx and gfx9, 32 on\n"
           "                    sm50 and agx)\n"
           "  --summary         print the run's figures and hazards only: no per-lane\n"
           "                    outputs, kills or GS vertices (fast at many invocations)\n\n"
           "Exit status: 0 clean run, 1 hazards or faults reported, 2 bad usage or input.\n",
           (unsigned long long)EMU_DEFAULT_MAX_CYCLES);
}

struct emu_args {
   const char *model, *file, *inputs, *bindings;
   uint64_t seed, lanes, max_cycles, wave;
   bool trace, summary;
};

static int
parse_args(int argc, char **argv, struct emu_args *a)
{
   for (int i = 1; i < argc; i++) {
      const char *v, *x = argv[i];
      if (!strcmp(x, "--help") || !strcmp(x, "-h")) {
         emu_usage(stdout);
         return -1;
      } else if (opt_value(argc, argv, &i, "--seed", &v)) {
         if (!v || !parse_u64(v, &a->seed))
            return usage_error("--seed takes an unsigned integer");
      } else if (opt_value(argc, argv, &i, "--invocations", &v)) {
         if (!v || !parse_u64(v, &a->lanes) || !a->lanes || a->lanes > ENV_MAX_LANES)
            return usage_error("--invocations takes a count from 1 to %u", ENV_MAX_LANES);
      } else if (opt_value(argc, argv, &i, "--max-cycles", &v)) {
         if (!v || !parse_u64(v, &a->max_cycles) || !a->max_cycles)
            return usage_error("--max-cycles takes a positive count");
      } else if (opt_value(argc, argv, &i, "--wave-size", &v)) {
         if (!v || !parse_u64(v, &a->wave) || !a->wave || a->wave > 64)
            return usage_error("--wave-size takes a count from 1 to 64");
      } else if (opt_value(argc, argv, &i, "--bindings", &v)) {
         if (!(a->bindings = v))
            return usage_error("--bindings takes a YAML file");
      } else if (opt_value(argc, argv, &i, "--inputs", &v)) {
         if (!(a->inputs = v))
            return usage_error("--inputs takes a file");
      } else if (!strcmp(x, "--trace")) {
         a->trace = true;
      } else if (!strcmp(x, "--summary")) {
         a->summary = true;
      } else if (x[0] == '-' && x[1]) {
         return usage_error("emu: unknown option '%s' (see diffcomp emu --help)", x);
      } else if (!a->model) {
         a->model = x;
      } else if (!a->file) {
         a->file = x;
      } else {
         return usage_error("emu: one program at a time");
      }
   }
   if (!a->file) {
      emu_usage(stderr);
      return EXIT_USAGE;
   }
   return EXIT_OK;
}

struct trace_ctx {
   const struct isa_model *m;
   const struct emu_code *code;
};

static void
trace_cb(void *user, const struct emu_trace *t)
{
   const struct trace_ctx *tc = user;
   char text[160];
   isa_print_insn(tc->m, emu_code_insn(tc->code, t->index), text, sizeof(text));
   printf("  - {wave: %u, cycle: %llu, stall: %u, pc: 0x%x, active: %u, insn: \"%s\"", t->wave,
          (unsigned long long)t->cycle, t->stall, t->pc, t->active, text);
   if (t->why[0]) {
      printf(", waited: \"%s", t->why);
      for (unsigned i = 0; i < t->nwaited; i++) {
         char r[32];
         isa_reg_text(tc->m, t->waited[i].file, t->waited[i].index, r, sizeof(r));
         printf(" %s", r);
      }
      putchar('"');
   }
   puts("}");
}

static void
print_events(const struct isa_model *m, const struct emu_result *r)
{
   unsigned n = 0;
   for (unsigned k = 0; k < EMU_EV_COUNT; k++)
      n += r->counts[k] != 0;
   fputs("hazard_counts: {", stdout);
   for (unsigned k = 0, first = 1; k < EMU_EV_COUNT; k++)
      if (r->counts[k]) {
         printf("%s%s: %llu", first ? "" : ", ", emu_event_names[k],
                (unsigned long long)r->counts[k]);
         first = 0;
      }
   puts("}");
   printf("hazards:%s\n", r->nevents ? "" : " []");
   for (unsigned i = 0; i < r->nevents; i++) {
      const struct emu_event *e = &r->events[i];
      printf("  - {kind: %s, pc: 0x%x", emu_event_names[e->kind], e->pc);
      if (e->file != 0xff) {
         char reg[32];
         isa_reg_text(m, e->file, e->index, reg, sizeof(reg));
         printf(", reg: %s", reg);
      }
      if (e->kind < EMU_EV_FIRST_FAULT)
         printf(", producer: 0x%x, early: %d", e->producer_pc, e->early);
      printf(", wave: %u, cycle: %llu}\n", e->wave, (unsigned long long)e->cycle);
   }
   (void)n;
}

static void
print_lanes(const struct env *e, size_t o)
{
   puts("    lanes:");
   for (uint32_t l = 0; l < e->nlanes; l++) {
      printf("      - [%u, 0x%08x, ", l, e->out[o + l]);
      print_yaml_float(stdout, e->out[o + l]);
      puts(e->out_flags[o + l] & ENV_F_UNDEF ? ", UNDEF]" : "]");
   }
}

/* The bound outputs; a tessellation control shader's (written by
 * attribute stores, per output vertex): every one. */
static void
print_outputs(const struct env *e, const struct emu_program *p)
{
   printf("outputs:%s\n", p->nbinds || p->stage == TGSI_STAGE_TESS_CTRL ? "" : " []");
   if (p->stage == TGSI_STAGE_TESS_CTRL) {
      for (uint32_t v = 0; v < e->out_vertices; v++)
         for (uint32_t r = 0; r < e->nout; r++)
            for (unsigned c = 0; c < 4; c++) {
               printf("  - reg: %u\n    vertex: %u\n    chan: %c\n", r, v, "xyzw"[c]);
               print_lanes(e, env_out_index(e, v, r, c));
            }
      return;
   }
   for (unsigned b = 0; b < p->nbinds; b++) {
      const struct emu_binding *bd = &p->binds[b];
      if (bd->kind != EMU_BIND_OUTPUT)
         continue;
      printf("  - reg: %u\n    chan: %c\n", bd->tgsi_index, "xyzw"[bd->chan]);
      print_lanes(e, env_out_index(e, bd->vertex, bd->tgsi_index, bd->chan));
   }
}

/* A geometry shader's emitted vertices per lane: stream, primitive number
 * and the output registers (x, y, z, w bits; UNDEF where never written). */
static void
print_gs(const struct env *e)
{
   puts("gs_vertices:");
   for (uint32_t l = 0; l < e->nlanes && e->gs_count; l++) {
      printf("  - lane: %u\n    vertices:%s\n", l, e->gs_count[l] ? "" : " []");
      for (uint32_t k = 0; k < e->gs_count[l]; k++) {
         size_t at = (size_t)l * e->gs_max_vertices + k;
         printf("      - stream: %u\n        prim: %u\n        regs:\n", e->gs_stream[at],
                e->gs_prim[at]);
         for (uint32_t r = 0; r < e->nout; r++) {
            fputs("          - [", stdout);
            for (unsigned c = 0; c < 4; c++) {
               size_t i = (at * e->nout + r) * 4 + c;
               printf("%s0x%08x%s", c ? ", " : "", e->gs_data[i],
                      e->gs_flags[i] & ENV_F_UNDEF ? " UNDEF" : "");
            }
            puts("]");
         }
      }
   }
}

static void
print_run(const char *file, const struct isa_model *m, const struct emu_asm *a, const struct env *e,
          const struct emu_result *r, bool summary)
{
   printf("program: %s\nmodel: %s\nstage: %s\ninvocations: %u\nwave_size: %u\nwaves: %u\n", file,
          isa_model_name(m), tgsi_stage_names[a->prog.stage], e->nlanes, r->wave_size, r->waves);
   printf("status: %s\ncycles: %llu\nwave_cycles: %llu\ninstructions: %llu\n"
          "lane_instructions: %llu\nnop_cycles: %llu\nstall_cycles: %llu\n",
          r->status == EMU_OK ? "ok" : emu_status_names[r->status], (unsigned long long)r->cycles,
          (unsigned long long)r->wave_cycles, (unsigned long long)r->insns,
          (unsigned long long)r->lane_insns, (unsigned long long)r->nops,
          (unsigned long long)r->stall_cycles);
   fputs("events: {", stdout);
   for (unsigned k = 0, first = 1; k < ENV_EV_COUNT; k++)
      if (e->events[k]) {
         printf("%s%s: %llu", first ? "" : ", ", env_event_names[k],
                (unsigned long long)e->events[k]);
         first = 0;
      }
   puts("}");
   print_events(m, r);
   if (summary)
      return;
   if (a->prog.stage == TGSI_STAGE_FRAG) {
      fputs("killed: [", stdout);
      for (uint32_t l = 0, first = 1; l < e->nlanes; l++)
         if (e->killed[l]) {
            printf(first ? "%u" : ", %u", l);
            first = 0;
         }
      puts("]");
   }
   print_outputs(e, &a->prog);
   if (a->prog.stage == TGSI_STAGE_GEOM)
      print_gs(e);
}

static struct env *
make_env(const struct emu_args *a, const struct emu_asm *as, const struct emu_code *code,
         struct diag_list *d)
{
   struct env *e = NULL;
   if (a->inputs) {
      char *text, *err;
      size_t len;
      if (!read_file(a->inputs, &text, &len, &err)) {
         fprintf(stderr, "%s: %s\n", prog_name, err);
         free(err);
         return NULL;
      }
      e = diff_inputs_from_yaml(text, len, a->inputs, d);
      free(text);
   } else {
      /* The declarations are generated: their warnings (unused) are noise. */
      struct diag_list td = {0};
      struct tgsi_shader *s = tgsi_parse(as->tgsi, strlen(as->tgsi), "<declarations>", NULL, &td);
      uint64_t lanes = a->lanes ? a->lanes : as->lanes ? as->lanes : 16;
      if (s)
         e = diff_gen_inputs(s, a->seed, (uint32_t)lanes, d);
      else
         diag_add(d, DIAG_ERROR, a->file, 0, 0, NULL,
                  "cannot make random inputs for these bindings (%s); use --inputs",
                  diag_first_error(&td) ? diag_first_error(&td) : "?");
      diag_clear(&td);
      tgsi_shader_free(s);
   }
   if (!e)
      return NULL;
   if (as->shared)
      e->shared_size = as->shared;
   /* Outputs: the bound ones, the declared ones (.outputs) and those the
    * attribute stores (GS, TCS) reach; per vertex: the inputs' (TCS:
    * .out_vertices, or the inputs file's out_vertices) or the bindings'. */
   uint32_t nout = MAX2(as->outputs, emu_code_output_regs(code)), nvert = MAX2(1u, e->out_vertices);
   for (unsigned b = 0; b < as->prog.nbinds; b++)
      if (as->prog.binds[b].kind == EMU_BIND_OUTPUT) {
         nout = MAX2(nout, as->prog.binds[b].tgsi_index + 1u);
         nvert = MAX2(nvert, as->prog.binds[b].vertex + 1u);
      }
   if (!e->out && !env_alloc_outputs(e, nout, nvert)) {
      fprintf(stderr, "%s: the outputs do not fit in memory\n", prog_name);
      env_free(e);
      return NULL;
   }
   return e;
}

static int
run(const struct emu_args *a, const struct isa_model *m, struct diag_list *d)
{
   char *text, *err;
   size_t len;
   if (!read_file(a->file, &text, &len, &err)) {
      fprintf(stderr, "%s: %s\n", prog_name, err);
      free(err);
      return EXIT_USAGE;
   }
   struct emu_asm as;
   bool ok;
   if (a->bindings) { /* raw code and its bindings file */
      char *btext = NULL;
      size_t blen = 0;
      ok = read_file_diag(a->bindings, &btext, &blen, d) &&
           diff_raw_program(m, (const uint8_t *)text, len, btext, blen, a->bindings, &as, d);
      free(btext);
   } else {
      ok = emu_asm_parse(m, text, a->file, &as, d);
   }
   free(text);
   if (!ok)
      return EXIT_USAGE;
   int rc = EXIT_USAGE;
   struct env *e = NULL;
   struct emu_code *code = NULL;
   if (emu_load(&as.prog, &code, d) == EMU_OK && (e = make_env(a, &as, code, d))) {
      struct trace_ctx tc = {m, code};
      struct emu_options o = {.max_cycles = a->max_cycles, .wave_size = (unsigned)a->wave};
      if (a->trace) {
         o.trace = trace_cb;
         o.trace_user = &tc;
         puts("trace:");
      }
      struct emu_result r;
      enum emu_status st = emu_run(code, e, &o, &r, d);
      if (st == EMU_OK || st == EMU_FAULT || st == EMU_BUDGET) {
         print_run(a->file, m, &as, e, &r, a->summary);
         unsigned n = 0;
         for (unsigned k = 0; k < EMU_EV_COUNT; k++)
            n += r.counts[k] != 0;
         rc = n ? EXIT_FAIL : EXIT_OK;
      }
      emu_result_free(&r);
   }
   emu_code_free(code);
   env_free(e);
   emu_asm_free(&as);
   return rc;
}

int
cmd_emu(int argc, char **argv)
{
   struct emu_args a = {.seed = 1};
   int st = parse_args(argc, argv, &a);
   if (st)
      return st < 0 ? EXIT_OK : st;
   struct diag_list d = {0};
   struct isa_model *m = NULL;
   int rc = EXIT_USAGE;
   if (isa_open(a.model, &m, &d) == ISA_ERR_OK)
      rc = run(&a, m, &d);
   print_diags(&d, stderr);
   diag_clear(&d);
   isa_close(m);
   return rc;
}
