/*
 * diffcomp tgsi: parse TGSI files and print them in canonical form, or
 * only check them. Each file is handled on its own: an error in one does
 * not stop the others, and the exit code says whether any failed.
 * --bench times the parser and printer on a generated shader.
 */
#include "compiler/tgsi/tgsi.h"
#include "tools/tools.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static void
tgsi_usage(FILE *f)
{
   fprintf(f, "usage: diffcomp tgsi [--legacy] [--hex-bits] [--check] FILE|DIR|@LIST...\n"
              "       diffcomp tgsi --bench[=N]\n\n"
              "Parses each TGSI file and prints it in canonical form: today's TGSI, with\n"
              "the older forms (RES, IMMX, TEMPX, ...) and opcodes removed from Mesa\n"
              "(SUB, XPD, KIL, ...) rewritten. A directory stands for its *.tgsi files\n"
              "(sorted); @LIST for the paths in file LIST.\n\n"
              "  --legacy     accept opcodes removed from Mesa (ABS, SUB, KIL, ...)\n"
              "  --hex-bits   read FLT32 0x3f800000 as a bit pattern (virgl, Mesa <= 21)\n"
              "  --check      only report errors and warnings, print nothing else\n"
              "  --bench[=N]  time parse and print of a generated N-instruction shader\n"
              "               (default 100000)\n\n"
              "Exit status: 0 all files parsed, 2 a file had an error or bad usage.\n");
}

/* Returns false if the file could not be read or had an error. */
static bool
tgsi_one(const char *path, const struct tgsi_parse_opts *opts, bool check, bool header)
{
   struct diag_list diags = {0};
   struct tgsi_shader *s = tgsi_parse_file(path, opts, &diags);
   print_diags(&diags, stderr);
   if (s && !check) {
      char *out = tgsi_print_modern(s);
      if (header)
         printf("# %s\n", path);
      fputs(out, stdout);
      free(out);
   }
   tgsi_shader_free(s);
   diag_clear(&diags);
   return s != NULL;
}

static double
now_ms(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* A shader that touches most of the grammar, n instructions long. */
static char *
bench_shader(unsigned n, size_t *len)
{
   static const char *const body[] = {
       "MAD TEMP[%u].xy, IN[0].xyzw, CONST[0][%u].xxxx, -|TEMP[1].wzyx|",
       "TEX TEMP[%u], TEMP[2], SAMP[0], 2D",
       "MOV_SAT TEMP[%u].w, CONST[ADDR[0].x+%u].yyyy",
       "UIF TEMP[%u].xxxx :0",
       "ADD TEMP[%u].z, TEMP[3], IMM[0].zzzz",
       "ENDIF",
   };
   size_t cap = (size_t)n * 80 + 4096, used = 0;
   char *t = xmalloc(cap);
   used += (size_t)snprintf(t, cap,
                            "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
                            "DCL CONST[0][0..63]\nDCL CONST[0..63]\nDCL SAMP[0]\n"
                            "DCL SVIEW[0], 2D, FLOAT\nDCL TEMP[0..63], LOCAL\nDCL ADDR[0]\n"
                            "IMM[0] FLT32 {0.5, -1.25e-3, 0x1p-3, 3.40282347e+38}\n"
                            "  0: ARL ADDR[0].x, IN[0].xxxx\n");
   for (unsigned i = 1; i + 2 < n; i++) {
      const char *f = body[i % ARRAY_SIZE(body)];
      if (i + 3 >= n && i % ARRAY_SIZE(body) == 3)
         f = "NOP";
      used += (size_t)snprintf(t + used, cap - used, "%3u: ", i);
      used += (size_t)snprintf(t + used, cap - used, f, i % 64, i % 64);
      t[used++] = '\n';
   }
   used += (size_t)snprintf(t + used, cap - used, "MOV OUT[0], TEMP[0]\nEND\n");
   *len = used;
   return t;
}

static int
tgsi_bench(unsigned n)
{
   size_t len;
   char *text = bench_shader(n, &len);
   struct diag_list diags = {0};
   double t0 = now_ms();
   struct tgsi_shader *s = tgsi_parse(text, len, "<bench>", NULL, &diags);
   double t1 = now_ms();
   if (!s) {
      print_diags(&diags, stderr);
      diag_clear(&diags);
      free(text);
      return EXIT_FAIL;
   }
   char *out = tgsi_print(s);
   double t2 = now_ms();
   struct diag_list d2 = {0};
   struct tgsi_shader *s2 = tgsi_parse(out, strlen(out), "<bench-print>", NULL, &d2);
   bool same = s2 && tgsi_shader_equal(s, s2);
   printf("tgsi bench: %u instructions, %.1f MB of text\n", s->ninsns, (double)len / 1e6);
   printf("  parse+sanity %.1f ms (%.0f instructions/ms)\n", t1 - t0, s->ninsns / (t1 - t0));
   printf("  print        %.1f ms\n", t2 - t1);
   printf("  round trip   %s\n", same ? "equal" : "DIFFERENT");
   tgsi_shader_free(s);
   tgsi_shader_free(s2);
   diag_clear(&diags);
   diag_clear(&d2);
   free(out);
   free(text);
   return same ? EXIT_OK : EXIT_FAIL;
}

int
cmd_tgsi(int argc, char **argv)
{
   struct tgsi_parse_opts opts = {0};
   bool check = false;
   struct shader_args in = {0};
   int rc = EXIT_OK;
   for (int i = 1; i < argc && !rc; i++) {
      const char *a = argv[i];
      uint64_t n;
      if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
         tgsi_usage(stdout);
         return EXIT_OK;
      } else if (!strcmp(a, "--legacy")) {
         opts.legacy = true;
      } else if (!strcmp(a, "--hex-bits")) {
         opts.hex_bits = true;
      } else if (!strcmp(a, "--check")) {
         check = true;
      } else if (!strcmp(a, "--bench")) {
         return tgsi_bench(100000);
      } else if (!strncmp(a, "--bench=", 8)) {
         if (!parse_u64(a + 8, &n) || n < 3 || n > 10000000)
            return usage_error("--bench takes a count from 3 to 10000000");
         return tgsi_bench((unsigned)n);
      } else if (a[0] == '-' && a[1]) {
         rc = usage_error("tgsi: unknown option '%s' (see diffcomp tgsi --help)", a);
      } else {
         rc = shader_args_add(&in, a);
      }
   }
   if (!rc && !in.nfiles) {
      tgsi_usage(stderr);
      rc = EXIT_USAGE;
   }
   bool ok = true;
   for (unsigned i = 0; !rc && i < in.nfiles; i++)
      ok &= tgsi_one(in.files[i], &opts, check, in.nfiles > 1);
   shader_args_free(&in);
   return rc ? rc : ok ? EXIT_OK : EXIT_USAGE;
}
