/*
 * diffcomp gen: writes a random valid TGSI shader (diff/gen.c). The same
 * seed, stage and size give the same text on every machine. With -o the
 * file appears complete or not at all: the text goes to a temporary file
 * in the same directory, renamed into place once fully written.
 */
#include "compiler/llvm/llvm.h"
#include "diff/diff.h"
#include "tools/tools.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void
gen_usage(FILE *f)
{
   fprintf(f,
           "usage: diffcomp gen [--seed S] [--stage ST] [--size N] [--ops SET] [-o FILE]\n\n"
           "Writes a random valid TGSI shader: float and integer arithmetic, compares,\n"
           "selects, nested IF/UIF/ELSE, counted loops with BRK/CONT, SWITCH, indirect\n"
           "TEMP-array and CONST addressing, textures, KILL_IF, geometry shaders' EMIT and\n"
           "ENDPRIM, tessellation shaders' per-vertex and per-patch outputs; every output\n"
           "written from the inputs; terminates for any inputs.\n\n"
           "  --seed S     random seed (default 1); same seed, same text on any machine\n"
           "  --stage ST   frag, vert, comp, geom, tcs (tessellation control) or tes\n"
           "               (tessellation evaluation; default: chosen by the seed)\n"
           "  --size N     about N instructions in the body (default %u, at most %u)\n"
           "  --ops llvm   only the ops `diffcomp llvm ir` translates (no images,\n"
           "               atomics, derivatives or 64-bit values);\n"
           "               llvm-direct: those without ARL/UARL (no indirect addressing)\n"
           "  --no-sink    leave out the sink: by default (--sink) all but comp\n"
           "               shaders end with edge shapes and hashes of every value into\n"
           "               one more output (README)\n"
           "  -o FILE      write to FILE instead of standard output\n\n"
           "Exit status: 0 written, 2 bad usage or the file cannot be written,\n"
           "1 the generated text does not parse (a generator bug).\n",
           DIFF_GEN_DEFAULT_SIZE, DIFF_GEN_MAX_SIZE);
}

/* Writes text to path via a temporary file and rename(); on failure
 * nothing is left behind. */
static bool
write_atomic(const char *path, const char *text, size_t len)
{
   char *tmp = xasprintf("%s.tmpXXXXXX", path);
   int fd = mkstemp(tmp);
   if (fd < 0) {
      fprintf(stderr, "%s: cannot write '%s': %s\n", prog_name, path, strerror(errno));
      free(tmp);
      return false;
   }
   /* mkstemp creates 0600; give the file the usual umask-based mode */
   mode_t um = umask(0);
   umask(um);
   fchmod(fd, 0666 & ~um);
   FILE *f = fdopen(fd, "w");
   bool ok = f && fwrite(text, 1, len, f) == len;
   if (f)
      ok &= fclose(f) == 0;
   else
      close(fd);
   int err = errno;
   if (ok && rename(tmp, path) != 0) {
      err = errno;
      ok = false;
   }
   if (!ok) {
      fprintf(stderr, "%s: cannot write '%s': %s\n", prog_name, path, strerror(err));
      unlink(tmp);
   }
   free(tmp);
   return ok;
}

int
cmd_gen(int argc, char **argv)
{
   struct diff_gen_opts o = {.stage = TGSI_STAGE_COUNT, .sink = true};
   uint64_t seed = 1, n;
   const char *out = NULL, *v;
   for (int i = 1; i < argc; i++) {
      const char *a = argv[i];
      if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
         gen_usage(stdout);
         return EXIT_OK;
      } else if (opt_value(argc, argv, &i, "--seed", &v)) {
         if (!parse_u64(v, &seed))
            return usage_error("gen: --seed takes an unsigned integer");
      } else if (opt_value(argc, argv, &i, "--stage", &v)) {
         if (!v || !diff_gen_stage_from_name(v, &o.stage))
            return usage_error("gen: --stage takes frag, vert, comp, geom, tcs or tes");
      } else if (opt_value(argc, argv, &i, "--size", &v)) {
         if (!parse_u64(v, &n) || n < 1 || n > DIFF_GEN_MAX_SIZE)
            return usage_error("gen: --size takes a count from 1 to %u", DIFF_GEN_MAX_SIZE);
         o.size = (unsigned)n;
      } else if (opt_value(argc, argv, &i, "--ops", &v)) {
         if (!v || (strcmp(v, "llvm") && strcmp(v, "llvm-direct")))
            return usage_error("gen: --ops takes llvm or llvm-direct");
         o.supports = strcmp(v, "llvm") ? llvm_tgsi_supports_direct : llvm_tgsi_supports;
      } else if (!strcmp(a, "--sink")) {
         o.sink = true;
      } else if (!strcmp(a, "--no-sink")) {
         o.sink = false;
      } else if (opt_value(argc, argv, &i, "-o", &v)) {
         if (!v || !*v)
            return usage_error("gen: -o takes a file name");
         out = v;
      } else {
         return usage_error("gen: unexpected argument '%s' (see diffcomp gen --help)", a);
      }
   }
   struct diag_list d = {0};
   char *text = diff_gen(seed, &o, NULL, &d);
   if (!text) {
      fprintf(stderr, "%s: internal error: the generated shader does not parse (seed %llu)\n",
              prog_name, (unsigned long long)seed);
      print_diags(&d, stderr);
      diag_clear(&d);
      return EXIT_FAIL;
   }
   diag_clear(&d);
   bool ok = true;
   if (out)
      ok = write_atomic(out, text, strlen(text));
   else
      ok = fputs(text, stdout) >= 0 && fflush(stdout) == 0;
   free(text);
   return ok ? EXIT_OK : EXIT_USAGE;
}
