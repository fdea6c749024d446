/*
 * diffcomp interp: run one TGSI shader on the golden interpreter and print
 * its outputs as YAML: per output register and channel, one line per lane
 * with the bits, the float value and the flags (UNDEF for undefined
 * lanes). Inputs come from a seed (diff_gen_inputs) or an inputs file; the
 * same seed always prints the same text.
 */
#include "compiler/tgsi/tgsi.h"
#include "diff/diff.h"
#include "emu/emu.h"
#include "tools/tools.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void
interp_usage(FILE *f)
{
   fprintf(f, "usage: diffcomp interp FILE.tgsi [--seed S] [--invocations N] [--inputs FILE.yaml]\n"
              "                       [--write-inputs FILE.yaml] [--max-steps N] [--legacy]\n"
              "                       [--hex-bits]\n\n"
              "Runs the shader on the golden TGSI interpreter and prints its outputs as YAML.\n\n"
              "  --seed S             seed of the random inputs (default 1)\n"
              "  --invocations N      lanes to run (default 16; compute rounds up to workgroups)\n"
              "  --inputs FILE        read the inputs from a YAML file instead\n"
              "  --write-inputs FILE  also write the inputs used to FILE\n"
              "  --max-steps N        step budget in lane-instructions (default: per lane\n"
              "                       4096 x the instructions, at least 65536; 2^32 at most)\n"
              "  --legacy             accept opcodes removed from Mesa (ABS, SUB, KIL, ...)\n"
              "  --hex-bits           read FLT32 0x3f800000 as a bit pattern (virgl)\n\n"
              "Exit status: 0 ran, 2 bad usage, unreadable input or a shader the\n"
              "interpreter refuses or cannot finish.\n");
}

static void
print_flags(FILE *f, unsigned flags)
{
   for (unsigned b = 0; b < ENV_F_COUNT; b++)
      if (flags & (1u << b))
         fprintf(f, ", %s", env_flag_names[b]);
}

static void
print_value(FILE *f, uint32_t lane, uint32_t bits, unsigned flags)
{
   fprintf(f, "      - [%u, 0x%08x, ", lane, bits);
   print_yaml_float(f, bits);
   print_flags(f, flags);
   fputs("]\n", f);
}

static const struct tgsi_decl *
out_decl(const struct tgsi_shader *s, uint32_t reg)
{
   return tgsi_find_decl(s, TGSI_FILE_OUT, reg);
}

static void
print_outputs(FILE *f, const struct tgsi_shader *s, const struct env *e)
{
   fputs("outputs:\n", f);
   for (uint32_t v = 0; v < e->out_vertices; v++)
      for (uint32_t r = 0; r < e->nout; r++) {
         const struct tgsi_decl *d = out_decl(s, r);
         unsigned usage = d ? d->usage_mask : 0xf;
         for (unsigned c = 0; c < 4; c++) {
            if (!(usage & (1u << c)))
               continue;
            fprintf(f, "  - reg: %u\n", r);
            if (e->out_vertices > 1)
               fprintf(f, "    vertex: %u\n", v);
            if (d && d->has_semantic)
               fprintf(f, "    semantic: %s %u\n", tgsi_semantic_names[d->semantic],
                       d->semantic_index);
            fprintf(f, "    chan: %c\n    lanes:\n", "xyzw"[c]);
            size_t o = env_out_index(e, v, r, c);
            for (uint32_t l = 0; l < e->nlanes; l++)
               print_value(f, l, e->out[o + l], e->out_flags[o + l]);
         }
      }
}

static void
print_lane_list(FILE *f, const char *key, const uint8_t *set, uint32_t n)
{
   fprintf(f, "%s: [", key);
   bool first = true;
   for (uint32_t l = 0; l < n; l++)
      if (set[l]) {
         fprintf(f, first ? "%u" : ", %u", l);
         first = false;
      }
   fputs("]\n", f);
}

static void
print_gs(FILE *f, const struct env *e)
{
   fputs("gs_vertices:\n", f);
   for (uint32_t l = 0; l < e->nlanes; l++) {
      fprintf(f, "  - lane: %u\n", l);
      if (e->gs_undef[l])
         fputs("    undefined: true\n", f);
      fputs("    vertices:\n", f);
      for (uint32_t k = 0; k < e->gs_count[l]; k++) {
         size_t at = (size_t)l * e->gs_max_vertices + k;
         fprintf(f, "      - stream: %u\n        prim: %u\n        regs:\n", e->gs_stream[at],
                 e->gs_prim[at]);
         for (uint32_t r = 0; r < e->nout; r++) {
            fprintf(f, "          - [");
            for (unsigned c = 0; c < 4; c++) {
               size_t i = (at * e->nout + r) * 4 + c;
               fprintf(f, "%s0x%08x%s", c ? ", " : "", e->gs_data[i],
                       e->gs_flags[i] & ENV_F_UNDEF ? " UNDEF" : "");
            }
            fputs("]\n", f);
         }
      }
   }
}

static void
print_buffers(FILE *f, const struct env *e)
{
   bool any = false;
   for (unsigned i = 0; i < ENV_MAX_BUFFERS; i++) {
      const struct env_mem *m = &e->buf[i];
      if (!m->data)
         continue;
      if (!any)
         fputs("buffers:\n", f);
      any = true;
      fprintf(f, "  - index: %u\n    words:\n", i);
      for (uint32_t w = 0; w < m->size / 4; w++) {
         uint32_t v;
         memcpy(&v, m->data + 4 * w, 4);
         bool u = m->undef[4 * w] | m->undef[4 * w + 1] | m->undef[4 * w + 2] | m->undef[4 * w + 3];
         fprintf(f, "      - [%u, 0x%08x%s]\n", 4 * w, v, u ? ", UNDEF" : "");
      }
   }
}

static void
print_run(FILE *f, const char *path, const struct tgsi_shader *s, const struct env *e,
          uint64_t steps)
{
   fprintf(f, "shader: %s\nstage: %s\nseed: %llu\ninvocations: %u\nsteps: %llu\n", path,
           tgsi_stage_names[s->stage], (unsigned long long)e->seed, e->nlanes,
           (unsigned long long)steps);
   fputs("events: {", f);
   bool first = true;
   for (unsigned k = 0; k < ENV_EV_COUNT; k++)
      if (e->events[k]) {
         fprintf(f, "%s%s: %llu", first ? "" : ", ", env_event_names[k],
                 (unsigned long long)e->events[k]);
         first = false;
      }
   fputs("}\n", f);
   if (s->stage == TGSI_STAGE_FRAG) {
      print_lane_list(f, "killed", e->killed, e->nlanes);
      print_lane_list(f, "kill_undefined", e->kill_undef, e->nlanes);
   }
   if (s->stage == TGSI_STAGE_GEOM)
      print_gs(f, e);
   else
      print_outputs(f, s, e);
   print_buffers(f, e);
}

static struct env *
load_inputs(const char *path, struct diag_list *d)
{
   char *text, *err;
   size_t len;
   if (!read_file(path, &text, &len, &err)) {
      fprintf(stderr, "%s: %s\n", prog_name, err);
      free(err);
      return NULL;
   }
   struct env *e = diff_inputs_from_yaml(text, len, path, d);
   free(text);
   return e;
}

static bool
write_inputs(const char *path, const struct env *e)
{
   char *y = diff_inputs_to_yaml(e);
   FILE *f = y ? fopen(path, "w") : NULL;
   bool ok = f && fputs(y, f) >= 0;
   if (f && fclose(f))
      ok = false;
   free(y);
   if (!ok)
      fprintf(stderr, "%s: cannot write %s\n", prog_name, path);
   return ok;
}

struct interp_args {
   const char *file, *inputs, *write;
   uint64_t seed, lanes, max_steps;
   struct tgsi_parse_opts popts;
};

static int
parse_args(int argc, char **argv, struct interp_args *a)
{
   for (int i = 1; i < argc; i++) {
      const char *v, *x = argv[i];
      if (!strcmp(x, "--help") || !strcmp(x, "-h")) {
         interp_usage(stdout);
         return -1;
      } else if (opt_value(argc, argv, &i, "--seed", &v)) {
         if (!v || !parse_u64(v, &a->seed))
            return usage_error("--seed takes an unsigned integer");
      } else if (opt_value(argc, argv, &i, "--invocations", &v)) {
         if (!v || !parse_u64(v, &a->lanes) || !a->lanes || a->lanes > ENV_MAX_LANES)
            return usage_error("--invocations takes a count from 1 to %u", ENV_MAX_LANES);
      } else if (opt_value(argc, argv, &i, "--max-steps", &v)) {
         if (!v || !parse_u64(v, &a->max_steps) || !a->max_steps)
            return usage_error("--max-steps takes a positive count");
      } else if (opt_value(argc, argv, &i, "--inputs", &v)) {
         if (!(a->inputs = v))
            return usage_error("--inputs takes a file");
      } else if (opt_value(argc, argv, &i, "--write-inputs", &v)) {
         if (!(a->write = v))
            return usage_error("--write-inputs takes a file");
      } else if (!strcmp(x, "--legacy")) {
         a->popts.legacy = true;
      } else if (!strcmp(x, "--hex-bits")) {
         a->popts.hex_bits = true;
      } else if (x[0] == '-' && x[1]) {
         return usage_error("interp: unknown option '%s' (see diffcomp interp --help)", x);
      } else if (a->file) {
         return usage_error("interp: one shader at a time");
      } else {
         a->file = x;
      }
   }
   if (!a->file) {
      interp_usage(stderr);
      return EXIT_USAGE;
   }
   return EXIT_OK;
}

int
cmd_interp(int argc, char **argv)
{
   struct interp_args a = {.seed = 1, .lanes = 16};
   int st = parse_args(argc, argv, &a);
   if (st)
      return st < 0 ? EXIT_OK : st;
   struct diag_list d = {0};
   struct tgsi_shader *s = tgsi_parse_file(a.file, &a.popts, &d);
   struct env *e = NULL;
   if (s)
      e = a.inputs ? load_inputs(a.inputs, &d) : diff_gen_inputs(s, a.seed, (uint32_t)a.lanes, &d);
   int rc = EXIT_USAGE;
   if (e && (!a.write || write_inputs(a.write, e))) {
      uint64_t steps = 0;
      struct tgsi_interp_opts o = {.max_steps = a.max_steps, .steps_out = &steps};
      enum tgsi_interp_status is = tgsi_interp_run(s, e, &o, &d);
      if (is == TGSI_INTERP_OK) {
         print_run(stdout, a.file, s, e, steps);
         rc = EXIT_OK;
      }
   }
   print_diags(&d, stderr);
   diag_clear(&d);
   env_free(e);
   tgsi_shader_free(s);
   return rc;
}
