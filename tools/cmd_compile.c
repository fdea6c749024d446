/*
 * diffcomp compile: compile one TGSI shader for an ISA model and print the
 * program's disassembly (decoded back from the encoded bytes, so what is
 * printed is what was encoded), optionally its static figures, and write
 * the program to a file in the emulator's assembly-program format (the
 * directives of emu/asmprog.c, then the instructions), so that `diffcomp
 * emu MODEL FILE` runs exactly what was compiled.
 *
 * Compiler paths are a table: a new path is one entry and, if it takes
 * options of its own, their parsing in parse_args().
 */
#include "compiler/compiler.h"
#include "compiler/ir/ir.h"
#include "diff/diff.h"
#include "emu/emu.h"
#include "isa/isa.h"
#include "tools/tools.h"

#include <stdlib.h>
#include <string.h>

struct compile_args {
   const char *file, *target, *path, *out;
   const char **files; /* --digest: every shader given */
   unsigned nfiles;
   bool stats, legacy, hex_bits, digest;
   struct opt_options opt; /* --path opt only */
   const char *opt_only;   /* the first --path opt option given, to refuse on ref */
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

/* The pass manager's log (BISECT lines, --print-after dumps) goes to
 * stderr, so stdout stays the listing. */
static enum compile_status
run_opt(const struct tgsi_shader *s, const struct isa_model *m, const struct compile_args *a,
        struct emu_program *out, struct compile_stats *stats, struct diag_list *d)
{
   char *log = NULL;
   enum compile_status st = opt_compile(s, m, &a->opt, out, stats, &log, d);
   if (log)
      fputs(log, stderr);
   free(log);
   return st;
}

static const struct {
   const char *name;
   compile_fn fn;
   const char *help;
} paths[] = {
    {"ref", run_ref, "the reference compiler: fixed expansions, every hazard waited for in full"},
    {"opt", run_opt, "the optimizing compiler: SSA passes, scheduling, RA, legalization"},
};

static void
compile_usage(FILE *f)
{
   fprintf(f, "usage: diffcomp compile FILE.tgsi --target MODEL [--path PATH] [-o FILE]\n"
              "                        [--stats] [--legacy] [--hex-bits]\n"
              "       diffcomp compile --digest FILE.tgsi... --target LIST [options]\n\n"
              "Compiles the shader and prints the disassembly of the encoded program.\n\n"
              "  --digest        for each shader, target of LIST and path (ref, opt), print\n"
              "                  'FILE TARGET PATH DIGEST': a hash of the whole program\n"
              "                  (code bytes and bindings), or the status of a failed\n"
              "                  compile (refused, error); --path picks one path, and\n"
              "                  the --path opt options apply\n"
              "  --target MODEL  ISA model name or path (a3xx, sm50, FILE.yaml)\n"
              "  --path PATH     compiler path (default ref):\n");
   for (size_t i = 0; i < ARRAY_SIZE(paths); i++)
      fprintf(f, "                    %-5s %s\n", paths[i].name, paths[i].help);
   fprintf(f, "  -o FILE         also write the program as an emulator assembly program\n"
              "                  (binding directives, then the instructions; see\n"
              "                  emu/README.md): diffcomp emu MODEL FILE runs it\n"
              "  --stats         print instructions, nops, registers and a static cycle\n"
              "                  estimate\n"
              "optimizing path (--path opt):\n"
              "  --passes LIST          run only these passes, in this order\n"
              "  --disable-pass NAME    skip a pass (comma list)\n"
              "  --print-after NAME     print the IR after a pass (comma list, or all)\n"
              "  --opt-bisect-limit N   stop after the Nth transformation; prints one\n"
              "                         'BISECT: pass NAME transformation N' line per change\n"
              "                         (-1: no limit, the lines still printed)\n"
              "  --opt LIST             inexact transforms opt may use: fuse-ffma, inexact\n"
              "                         (the same as check --opt)\n"
              "  --inject-fault NAME    switch on a known bug in the optimizing compiler\n"
              "                         (a comma list; diffcomp faults lists them)\n"
              "  --conservative LIST    run these mandatory stages' conservative variants\n"
              "                         (jumps, isel, sched, live, ra, legalize, hazard,\n"
              "                         emit; on agx half, wait; or all; see README\n"
              "                         'Bisecting the mandatory stages')\n"
              "  --legacy        accept opcodes removed from Mesa (ABS, SUB, KIL, ...)\n"
              "  --hex-bits      read FLT32 0x3f800000 as a bit pattern (virgl)\n"
              "                  (a file's '# dialect:' line also sets these)\n\n"
              "Exit status: 0 compiled, 1 internal compiler error, 2 bad usage or\n"
              "unreadable input, 3 a shader the compiler refuses (the message names\n"
              "the feature).\n");
}

static int
parse_args(int argc, char **argv, struct compile_args *a)
{
   memset(a, 0, sizeof(*a));
   a->opt.bisect_limit = -1;
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
      } else if (opt_value(argc, argv, &i, "--passes", &v)) {
         a->opt_only = a->opt_only ? a->opt_only : "--passes";
         if (!v)
            return usage_error("--passes needs a list");
         a->opt.passes = v;
      } else if (opt_value(argc, argv, &i, "--disable-pass", &v)) {
         a->opt_only = a->opt_only ? a->opt_only : "--disable-pass";
         if (!v)
            return usage_error("--disable-pass needs a name");
         a->opt.disable = v;
      } else if (opt_value(argc, argv, &i, "--print-after", &v)) {
         a->opt_only = a->opt_only ? a->opt_only : "--print-after";
         if (!v)
            return usage_error("--print-after needs a name");
         a->opt.print_after = v;
      } else if (opt_value(argc, argv, &i, "--opt-bisect-limit", &v)) {
         a->opt_only = a->opt_only ? a->opt_only : "--opt-bisect-limit";
         uint64_t n = 0;
         bool none = v && !strcmp(v, "-1"); /* no limit, lines printed (as LLVM's) */
         if (!none && (!parse_u64(v, &n) || n > INT64_MAX))
            return usage_error("--opt-bisect-limit needs a count (or -1: none)");
         a->opt.bisect = true;
         a->opt.bisect_limit = none ? -1 : (long long)n;
      } else if (opt_value(argc, argv, &i, "--opt", &v)) {
         a->opt_only = a->opt_only ? a->opt_only : "--opt";
         unsigned inexact;
         int rc = parse_opt_list(v, &inexact);
         if (rc)
            return rc;
         a->opt.fuse_ffma = (inexact >> DIFF_INEXACT_FFMA_BIT) & 1;
         a->opt.inexact = (inexact >> DIFF_INEXACT_ALGEBRAIC_BIT) & 1;
      } else if (opt_value(argc, argv, &i, "--inject-fault", &v)) {
         a->opt_only = a->opt_only ? a->opt_only : "--inject-fault";
         int rc = parse_fault_list(v, &a->opt.faults);
         if (rc)
            return rc;
      } else if (opt_value(argc, argv, &i, "--conservative", &v)) {
         a->opt_only = a->opt_only ? a->opt_only : "--conservative";
         struct diag_list d = {0};
         bool ok = v && opt_stage_parse(v, &a->opt.conservative, &d);
         print_diags(&d, stderr);
         diag_clear(&d);
         if (!ok)
            return usage_error("--conservative takes a list of stages");
      } else if (!strcmp(arg, "--fuse-ffma")) {
         return usage_error("--fuse-ffma is spelled --opt fuse-ffma now (as in check)");
      } else if (!strcmp(arg, "--stats")) {
         a->stats = true;
      } else if (!strcmp(arg, "--legacy")) {
         a->legacy = true;
      } else if (!strcmp(arg, "--hex-bits")) {
         a->hex_bits = true;
      } else if (!strcmp(arg, "--digest")) {
         a->digest = true;
      } else if (arg[0] == '-' && arg[1]) {
         return usage_error("compile: unknown option '%s' (see --help)", arg);
      } else {
         if (!a->files)
            a->files = xcalloc((size_t)argc, sizeof(*a->files));
         a->files[a->nfiles++] = arg;
         a->file = a->files[0];
      }
   }
   if (!a->path && !a->digest)
      a->path = "ref";
   if (a->nfiles > 1 && !a->digest)
      return usage_error("compile: one shader at a time ('%s' and '%s'; or --digest)",
                         a->files[0], a->files[1]);
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

/* A register or constant-file slot as the assembler reads it back. */
static void
reg_name(const struct isa_model *m, unsigned file, unsigned bank, unsigned index, char *buf,
         size_t size)
{
   isa_reg_text(m, file, index, buf, size);
   unsigned f, i, b;
   if (isa_parse_reg_name(m, buf, &f, &i, &b) && f == file && i == index && b == bank)
      return;
   snprintf(buf, size, "c[%u][0x%x]", bank, index * 4); /* banked: byte offset */
}

/* The directives of the emulator's assembly programs (emu/README.md):
 * stage, workgroup, resources, then one binding per line. */
static void
write_directives(FILE *f, const struct tgsi_shader *s, const struct isa_model *m,
                 const struct emu_program *p)
{
   static const char *const kind[] = {"input", "sysval", "const", "value", "output", "size"};
   fprintf(f, ".stage %s\n", tgsi_stage_names[s->stage]);
   if (s->stage == TGSI_STAGE_COMP) {
      uint32_t b[3] = {tgsi_interp_prop(s, TGSI_PROP_CS_FIXED_BLOCK_WIDTH, 0),
                       tgsi_interp_prop(s, TGSI_PROP_CS_FIXED_BLOCK_HEIGHT, 1),
                       tgsi_interp_prop(s, TGSI_PROP_CS_FIXED_BLOCK_DEPTH, 1)};
      if (b[0])
         fprintf(f, ".block %u %u %u\n", b[0], b[1], b[2]);
   }
   if (s->stage == TGSI_STAGE_GEOM || s->stage == TGSI_STAGE_TESS_CTRL) {
      /* stage outputs are stored, not bound: their count and vertices */
      uint32_t nout = 0;
      for (unsigned i = 0; i < s->ndecls; i++)
         if (s->decls[i].file == TGSI_FILE_OUT)
            nout = MAX2(nout, s->decls[i].last + 1);
      if (nout)
         fprintf(f, ".outputs %u\n", nout);
      if (s->stage == TGSI_STAGE_GEOM)
         fprintf(f, ".max_vertices %u\n",
                 MAX2(1u, tgsi_interp_prop(s, TGSI_PROP_GS_MAX_OUTPUT_VERTICES, 1)));
      else
         fprintf(f, ".out_vertices %u\n",
                 MAX2(1u, MIN2(32u, tgsi_interp_prop(s, TGSI_PROP_TCS_VERTICES_OUT, 1))));
   }
   int target[ENV_MAX_TEXTURES];
   tgsi_texture_targets(s, target, ENV_MAX_TEXTURES);
   for (unsigned i = 0; i < ENV_MAX_TEXTURES; i++)
      if (target[i] >= 0)
         fprintf(f, ".texture %u %s\n", i, tgsi_texture_names[target[i]]);
   for (unsigned i = 0; i < s->ndecls; i++) {
      const struct tgsi_decl *d = &s->decls[i];
      if (d->file == TGSI_FILE_BUFFER)
         for (uint32_t k = d->first; k <= d->last && k < ENV_MAX_BUFFERS; k++)
            fprintf(f, ".buffer %u\n", k);
      if (d->file == TGSI_FILE_IMAGE)
         for (uint32_t k = d->first; k <= d->last && k < ENV_MAX_IMAGES; k++)
            fprintf(f, ".image %u %s\n", k, tgsi_texture_names[d->target]);
   }
   for (unsigned i = 0; i < p->nbinds; i++) {
      const struct emu_binding *b = &p->binds[i];
      char reg[64];
      char c = "xyzw"[b->chan & 3];
      reg_name(m, b->file, b->bank, b->index, reg, sizeof(reg));
      fprintf(f, ".%s %s ", kind[b->kind % 6], reg);
      switch (b->kind) {
      case EMU_BIND_INPUT:
         if (tgsi_interp_in_vertices(s) > 1)
            fprintf(f, "IN[%u][%u].%c\n", b->vertex, b->tgsi_index, c);
         else
            fprintf(f, "IN[%u].%c\n", b->tgsi_index, c);
         break;
      case EMU_BIND_SYSVAL:
         fprintf(f, "%s.%c\n", tgsi_semantic_names[b->tgsi_index % TGSI_SEM_COUNT], c);
         break;
      case EMU_BIND_CONST:
         fprintf(f, "CONST[%u][%u].%c\n", b->buffer, b->tgsi_index, c);
         break;
      case EMU_BIND_VALUE:
         fprintf(f, "0x%08x\n", b->value);
         break;
      case EMU_BIND_SIZE:
         if (b->buffer == TGSI_FILE_MEMORY)
            fprintf(f, "MEMORY.%c\n", c);
         else
            fprintf(f, "%s[%u].%c\n", tgsi_file_names[b->buffer % TGSI_FILE_COUNT], b->tgsi_index,
                    c);
         break;
      default:
         fprintf(f, "OUT[%u].%c\n", b->tgsi_index, c);
         break;
      }
   }
}

/* Disassembles the encoded program, one instruction per line. */
static bool
print_program(const struct isa_model *m, const struct emu_program *p, FILE *f, struct diag_list *d)
{
   char *text = isa_print_program(m, p->code, p->size, d);
   if (!text)
      return false;
   fputs(text, f);
   free(text);
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
   tgsi_read_dialect(text, len, &po);
   struct tgsi_shader *s = tgsi_parse(text, len, a->file, &po, d);
   free(text);
   return s;
}

/* One line of --digest: the program's hash, or why there is none. */
static void
print_digest(const struct compile_args *a, const char *target, const char *path,
             const struct tgsi_shader *s, const struct isa_model *m, compile_fn fn)
{
   struct diag_list d = {0};
   struct emu_program prog = {0};
   struct compile_stats st;
   enum compile_status cs = fn(s, m, a, &prog, &st, &d);
   char *text = NULL;
   size_t len = 0;
   FILE *f = cs == COMPILE_OK ? open_memstream(&text, &len) : NULL;
   if (f) {
      write_directives(f, s, m, &prog);
      fclose(f);
      uint64_t h = hash64(text, len, hash64(prog.code, prog.size, prog.gs_max_vertices));
      printf("%s %s %s %016llx\n", a->file, target, path, (unsigned long long)h);
   } else {
      printf("%s %s %s %s\n", a->file, target, path,
             cs == COMPILE_UNSUPPORTED ? "refused" : "error");
   }
   free(text);
   diag_clear(&d);
   emu_program_free(&prog);
}

/* --digest: every shader for every target by both paths, in one process
 * (tools/mutate compares a mutant's programs with the unmutated ones). */
static int
cmd_compile_digest(struct compile_args *a)
{
   int ret = EXIT_OK;
   char *list = xstrdup(a->target), *save = NULL;
   for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
      struct diag_list d = {0};
      struct isa_model *m = NULL;
      if (isa_open(t, &m, &d) != ISA_ERR_OK) {
         print_diags(&d, stderr);
         diag_clear(&d);
         ret = EXIT_USAGE;
         continue;
      }
      for (unsigned i = 0; i < a->nfiles; i++) {
         a->file = a->files[i];
         struct tgsi_shader *s = load_shader(a, &d);
         if (!s) {
            printf("%s %s - unreadable\n", a->file, t);
            ret = EXIT_USAGE;
         } else {
            for (size_t k = 0; k < ARRAY_SIZE(paths); k++)
               if (!a->path || !strcmp(a->path, paths[k].name))
                  print_digest(a, t, paths[k].name, s, m, paths[k].fn);
         }
         tgsi_shader_free(s);
         diag_clear(&d);
      }
      isa_close(m);
   }
   free(list);
   return ret;
}

int
cmd_compile(int argc, char **argv)
{
   struct compile_args a;
   int rc = parse_args(argc, argv, &a);
   if (rc) {
      free(a.files);
      return rc < 0 ? EXIT_OK : rc;
   }
   if (a.digest) {
      rc = a.path && !find_path(a.path)
               ? usage_error("compile: unknown path '%s' (see --help)", a.path)
               : cmd_compile_digest(&a);
      free(a.files);
      return rc;
   }
   free(a.files);
   compile_fn fn = find_path(a.path);
   if (!fn)
      return usage_error("compile: unknown path '%s' (see --help)", a.path);
   struct diag_list d = {0};
   struct isa_model *m = NULL;
   struct tgsi_shader *s = NULL;
   struct emu_program prog = {0};
   struct compile_stats st;
   int ret = EXIT_USAGE;
   /* The reference path has no passes: an option of the optimizing one
    * would change nothing, so it is refused rather than ignored. */
   if (a.opt_only && strcmp(a.path, "opt"))
      return usage_error("compile: %s needs --path opt (--path %s has no passes)", a.opt_only,
                         a.path);
   if (!opt_check_names(&a.opt, &d)) {
      print_diags(&d, stderr);
      diag_clear(&d);
      return EXIT_USAGE;
   }
   if (isa_open(a.target, &m, &d) != ISA_ERR_OK || !(s = load_shader(&a, &d)))
      goto done;
   warn_faults_off_target(a.opt.faults, isa_model_name(m));
   enum compile_status cs = fn(s, m, &a, &prog, &st, &d);
   if (cs != COMPILE_OK) {
      ret = cs == COMPILE_UNSUPPORTED ? EXIT_REFUSED : EXIT_FAIL;
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
   if (a.out) {
      FILE *f = fopen(a.out, "w");
      if (!f) {
         ret = usage_error("compile: cannot write '%s'", a.out);
         goto done;
      }
      fprintf(f, "; %s compiled by diffcomp compile --path %s --target %s\n", a.file, a.path,
              isa_model_name(m));
      write_directives(f, s, m, &prog);
      bool ok = print_program(m, &prog, f, &d);
      if (fclose(f) || !ok)
         ret = usage_error("compile: error writing '%s'", a.out);
   }
done:
   print_diags(&d, stderr);
   diag_clear(&d);
   emu_program_free(&prog);
   tgsi_shader_free(s);
   isa_close(m);
   return ret;
}
