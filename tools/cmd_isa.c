/*
 * diffcomp isa check MODEL...: load and check ISA models, print every
 * error with its position. Exit 0 when all are valid, 1 when one is not,
 * 2 on usage errors or unreadable files.
 *
 * diffcomp isa bench MODEL [N]: decodes a program of N legal instructions
 * (random words that decode legally, fixed seed) into records and encodes
 * it back, and prints the time per instruction. Figures only; no test
 * asserts on them.
 */
#include "isa/isa.h"
#include "tools/tools.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static void
isa_usage(FILE *f)
{
   fprintf(f, "usage: diffcomp isa check MODEL.yaml|NAME...\n"
              "       diffcomp isa bench MODEL [N]\n\n"
              "check: loads each ISA model and runs the model checker (overlapping encodings\n"
              "and fields, missing semantics or latency classes, unknown names...).\n"
              "bench: decodes and re-encodes a program of N (default 100000) legal\n"
              "instructions and prints the time per instruction.\n");
}

static double
now(void)
{
   struct timespec t;
   clock_gettime(CLOCK_MONOTONIC, &t);
   return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Builds a program of n legal instructions from random words (fixed seed). */
static uint8_t *
random_program(const struct isa_model *m, size_t n, size_t *len)
{
   struct rng r;
   rng_seed(&r, 1);
   size_t cap = n * 16, at = 0, got = 0;
   uint8_t *code = xmalloc(cap);
   while (got < n) {
      uint8_t w[16];
      for (int k = 0; k < 16; k += 8) {
         uint64_t x = rng_next(&r);
         memcpy(w + k, &x, 8);
      }
      size_t pos = 0, sz;
      struct isa_insn in;
      if (isa_decode(m, w, 16, &pos, &in) || in.illegal || isa_encode(m, &in, code + at, &sz, NULL))
         continue;
      at += sz;
      got++;
   }
   *len = at;
   return code;
}

static int
isa_bench(int argc, char **argv)
{
   uint64_t n = 100000;
   if (argc < 2 || (argc > 2 && !parse_u64(argv[2], &n)) || n == 0 || n > 100000000)
      return usage_error("isa bench: usage: diffcomp isa bench MODEL [N]");
   struct diag_list d = {0};
   struct isa_model *m = NULL;
   if (isa_open(argv[1], &m, &d) != ISA_ERR_OK) {
      print_diags(&d, stderr);
      diag_clear(&d);
      return EXIT_USAGE;
   }
   int rc = EXIT_OK;
   size_t len = 0, count = 0, blen = 0;
   uint8_t *code = NULL, *back = NULL;
   struct isa_insn *insns = NULL;
   if (isa_op_count(m) && !isa_model_is_bundled(m)) {
      code = random_program(m, (size_t)n, &len);
      /* Second run timed: the first one pays for page faults. */
      enum isa_err e = isa_decode_program(m, code, len, &insns, &count, &d);
      free(insns);
      double t0 = now();
      e = e ? e : isa_decode_program(m, code, len, &insns, &count, &d);
      double t1 = now();
      e = e ? e : isa_encode_program(m, insns, count, &back, &blen, &d);
      double t2 = now();
      if (e || blen != len || memcmp(back, code, len)) {
         print_diags(&d, stderr);
         fprintf(stderr, "isa bench: the program does not round-trip\n");
         rc = EXIT_FAIL;
      }
      printf("%s: %zu instructions, %zu bytes; decode %.1f ns/insn, encode %.1f ns/insn; "
             "record %zu bytes\n",
             isa_model_name(m), count, len, (t1 - t0) * 1e9 / (double)count,
             (t2 - t1) * 1e9 / (double)count, sizeof(struct isa_insn));
   } else {
      printf("%s: no benchmark for bundled models\n", isa_model_name(m));
   }
   free(code);
   free(back);
   free(insns);
   isa_close(m);
   diag_clear(&d);
   return rc;
}

int
cmd_isa(int argc, char **argv)
{
   if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
      isa_usage(argc < 2 ? stderr : stdout);
      return argc < 2 ? EXIT_USAGE : EXIT_OK;
   }
   if (!strcmp(argv[1], "bench"))
      return isa_bench(argc - 1, argv + 1);
   if (strcmp(argv[1], "check"))
      return usage_error("isa: unknown subcommand '%s' (try 'diffcomp isa --help')", argv[1]);
   if (argc < 3)
      return usage_error("isa check: no model given");
   int rc = EXIT_OK;
   for (int i = 2; i < argc; i++) {
      struct diag_list d = {0};
      struct isa_model *m = NULL;
      enum isa_err e = isa_open(argv[i], &m, &d);
      print_diags(&d, stderr);
      if (e == ISA_ERR_OK) {
         printf("%s: ok (%s, %u ops)\n", argv[i], isa_model_name(m), isa_op_count(m));
      } else {
         fprintf(stderr, "%s: %s\n", argv[i], isa_strerror(e));
         int code = e == ISA_ERR_MODEL || e == ISA_ERR_YAML ? EXIT_FAIL : EXIT_USAGE;
         rc = rc > code ? rc : code;
      }
      isa_close(m);
      diag_clear(&d);
   }
   return rc;
}
