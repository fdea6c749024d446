/*
 * diffcomp compile: compile one TGSI shader for an ISA model and print the
 * program's disassembly (decoded back from the encoded bytes, so what is
 * printed is what was encoded), optionally its static figures, and write
 * the program to a file.
 *
 * Compiler paths are a table: a new path is one entry and, if it takes
 * options of its own, their parsing in parse_args().
 */
#include "compiler/compiler.h"
#include "isa/isa.h"
#include "tools/tools.h"

#include <stdlib.h>
#include <string.h>

struct compile_args {
   const char *file, *target, *path, *out;
   bool stats, legacy, hex_bits;
};

typedef enum compile_status (*compile_fn)(const struct tgsi_shader *s, const struct isa_model *m,
                                          const struct compile_args *a, struct emu_program *out,
                                          struct compile_stats *stats, struct diag_list *d);

static enum compile_status
run_ref(const struct tgsi_shader *s, const struct isa_model *m, const struct compile_args *a,
        struct emu_program *out, struct compile_stats *stats, struct diag_list *d)
{
   (void)a;
   return ref_compile(s, m, out, stats, d);
}

static const struct {
   const char *name;
   compile_fn fn;
   const char *help;
} paths[] = {
    {"ref", run_ref, "the reference compiler: fixed expansions, every hazard waited for in full"},
};

static void
compile_usage(FILE *f)
{
   fprintf(f, "usage: diffcomp compile FILE.tgsi --target MODEL [--path PATH] [-o FILE]\n"
              "                        [--stats] [--legacy] [--hex-bits]\n\n"
              "Compiles the shader and prints the disassembly of the encoded program.\n\n"
              "  --target MODEL  ISA model name or path (a3xx, sm50, FILE.yaml)\n"
              "  --path PATH     compiler path (default ref):\n");
   for (size_t i = 0; i < ARRAY_SIZE(paths); i++)
      fprintf(f, "                    %-5s %s\n", paths[i].name, paths[i].help);
   fprintf(f, "  -o FILE         also write the program (code and bindings) to FILE\n"
              "  --stats         print instructions, nops, registers and a static cycle\n"
              "                  estimate\n"
              "  --legacy        accept opcodes removed from Mesa (ABS, SUB, KIL, ...)\n"
              "  --hex-bits      read FLT32 0x3f800000 as a bit pattern (virgl)\n\n"
              "Exit status: 0 compiled, 1 internal compiler error, 2 bad usage,\n"
              "unreadable input or a shader the compiler refuses.\n");
}

static int
parse_args(int argc, char **argv, struct compile_args *a)
{
   memset(a, 0, sizeof(*a));
   a->path = "ref";
   for (int i = 1; i < argc; i++) {
      const char *v, *arg = argv[i];
      if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
         compile_usage(stdout);
         return -1;
      }
      if (opt_value(argc, argv, &i, "--target", &v) || opt_value(argc, argv, &i, "-t", &v)) {
         if (!v)
            return usage_error("--target needs a model");
         a->target = v;
      } else if (opt_value(argc, argv, &i, "--path", &v)) {
         if (!v)
            return usage_error("--path needs a name");
         a->path = v;
      } else if (opt_value(argc, argv, &i, "-o", &v) || opt_value(argc, argv, &i, "--output", &v)) {
         if (!v)
            return usage_error("-o needs a file name");
         a->out = v;
      } else if (!strcmp(arg, "--stats")) {
         a->stats = true;
      } else if (!strcmp(arg, "--legacy")) {
         a->legacy = true;
      } else if (!strcmp(arg, "--hex-bits")) {
         a->hex_bits = true;
      } else if (arg[0] == '-' && arg[1]) {
         return usage_error("compile: unknown option '%s' (see --help)", arg);
      } else if (a->file) {
         return usage_error("compile: one shader at a time ('%s' and '%s')", a->file, arg);
      } else {
         a->file = arg;
      }
   }
   if (!a->file)
      return usage_error("compile: no shader given (see --help)");
   if (!a->target)
      return usage_error("compile: --target MODEL is required");
   return 0;
}

static compile_fn
find_path(const char *name)
{
   for (size_t i = 0; i < ARRAY_SIZE(paths); i++)
      if (!strcmp(paths[i].name, name))
         return paths[i].fn;
   return NULL;
}

/* Disassembles the encoded program, one instruction per line. */
static bool
print_program(const struct isa_model *m, const struct emu_program *p, FILE *f, struct diag_list *d)
{
   struct isa_insn *insns = NULL;
   size_t n = 0;
   if (isa_decode_program(m, p->code, p->size, &insns, &n, d) != ISA_ERR_OK)
      return false;
   for (size_t i = 0; i < n; i++) {
      char buf[256];
      isa_print_insn(m, &insns[i], buf, sizeof(buf));
      fprintf(f, "%s\n", buf);
   }
   free(insns);
   return true;
}

static struct tgsi_shader *
load_shader(const struct compile_args *a, struct diag_list *d)
{
   char *text, *err;
   size_t len;
   if (!read_file(a->file, &text, &len, &err)) {
      fprintf(stderr, "%s: %s\n", prog_name, err);
      free(err);
      return NULL;
   }
   struct tgsi_parse_opts po = {.hex_bits = a->hex_bits, .legacy = a->legacy};
   struct tgsi_shader *s = tgsi_parse(text, len, a->file, &po, d);
   free(text);
   return s;
}

int
cmd_compile(int argc, char **argv)
{
   struct compile_args a;
   int rc = parse_args(argc, argv, &a);
   if (rc)
      return rc < 0 ? EXIT_OK : rc;
   compile_fn fn = find_path(a.path);
   if (!fn)
      return usage_error("compile: unknown path '%s' (see --help)", a.path);
   struct diag_list d = {0};
   struct isa_model *m = NULL;
   struct tgsi_shader *s = NULL;
   struct emu_program prog = {0};
   struct compile_stats st;
   int ret = EXIT_USAGE;
   if (isa_open(a.target, &m, &d) != ISA_ERR_OK || !(s = load_shader(&a, &d)))
      goto done;
   enum compile_status cs = fn(s, m, &a, &prog, &st, &d);
   if (cs != COMPILE_OK) {
      ret = cs == COMPILE_UNSUPPORTED ? EXIT_USAGE : EXIT_FAIL;
      goto done;
   }
   if (!print_program(m, &prog, stdout, &d)) {
      ret = EXIT_FAIL;
      goto done;
   }
   if (a.stats)
      printf("; %s %s: %u instructions, %u nops, %u registers, %llu cycles\n", a.path,
             isa_model_name(m), st.instructions, st.nops, st.registers,
             (unsigned long long)st.cycles);
   ret = EXIT_OK;
   if (a.out)
      ret = usage_error("compile: -o is not available yet");
done:
   print_diags(&d, stderr);
   diag_clear(&d);
   emu_program_free(&prog);
   tgsi_shader_free(s);
   isa_close(m);
   return ret;
}
