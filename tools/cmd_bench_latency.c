/*
 * diffcomp bench latency [MODEL...]: the cycle model, measured. Runs the
 * microbenchmarks of diff/latency.c for each model (default: the four
 * built-in ones) and prints, per latency, what the emulator shows, what
 * the compilers' delay function and the model's parameters say, and the
 * public figure the model was built from with its source (the model's
 * hazard.figures). Exit status: 0 every row agrees, 1 some row does not,
 * 2 bad usage, a model that does not load or a program that does not run.
 */
#include "diff/diff.h"
#include "isa/isa.h"
#include "tools/tools.h"

#include <stdlib.h>
#include <string.h>

static void
latency_usage(FILE *f)
{
   fprintf(f, "usage: diffcomp bench latency [MODEL...]\n\n"
              "Measures the latencies of each ISA model (default: a3xx sm50 gfx9 agx; a name\n"
              "or a model YAML file) on the emulator with microbenchmark programs in the\n"
              "model's assembly -- a dependent pair or chain per op class and per hazard\n"
              "mechanism -- and prints per row the latency measured, what the compilers'\n"
              "delay function (or the model's parameter) says, and the public figure the\n"
              "model was built from, with its source (hazard.figures in the model).\n\n"
              "measured: the smallest distance (nops, stall cycles, wait states or\n"
              "instructions) at which a dependent read sees the new value; for a\n"
              "variable-latency op the cycles its wait lasts; for a hazard parameter the\n"
              "smallest distance (or largest count) without the hazard's event.\n\n"
              "Exit status: 0 every row agrees, 1 some row does not, 2 bad usage, a model\n"
              "that does not load or a program that does not run.\n");
}

static void
print_row(const struct diff_latency *r)
{
   char meas[48], mod[16], fig[16];
   if (r->want_hi > 0)
      snprintf(meas, sizeof(meas), "%d (%d..%d)", r->measured, r->lo, r->hi);
   else
      snprintf(meas, sizeof(meas), "%d", r->measured);
   snprintf(mod, sizeof(mod), "%d", r->model);
   snprintf(fig, sizeof(fig), "%d", r->figure);
   printf("  %-15s %-15s %5s %6s  %-6s  %s  %s\n", r->name, r->measured < 0 ? "-" : meas,
          r->model < 0 ? "-" : mod, r->figure < 0 ? "-" : fig, r->unit, r->ok ? "ok" : "DIFFERS",
          r->what);
   if (r->source)
      printf("  %-15s source: %s\n", "", r->source);
   if (!r->ok)
      printf("  %-15s %s\n", "", r->why);
}

static int
one_model(const char *name)
{
   struct diag_list d = {0};
   struct isa_model *m = NULL;
   if (isa_open(name, &m, &d) != ISA_ERR_OK) {
      print_diags(&d, stderr);
      diag_clear(&d);
      return EXIT_USAGE;
   }
   struct diff_latency *rows;
   unsigned n, bad = 0;
   bool ran = diff_latency_run(m, &rows, &n, &d);
   printf("bench latency %s (%s): %u rows\n", isa_model_name(m),
          isa_hazard_name(isa_hazard_kind(m)), n);
   printf("  %-15s %-15s %5s %6s  %-6s\n", "row", "measured", "model", "figure", "unit");
   for (unsigned i = 0; i < n; i++) {
      print_row(&rows[i]);
      bad += !rows[i].ok;
   }
   if (!n)
      printf("  (no microbenchmarks for the ISA '%s')\n", isa_model_name(m));
   print_diags(&d, stderr);
   printf("%s: %u of %u rows agree\n", isa_model_name(m), n - bad, n);
   diff_latency_free(rows, n);
   diag_clear(&d);
   isa_close(m);
   return !ran ? EXIT_USAGE : bad || !n ? EXIT_FAIL : EXIT_OK;
}

int
bench_latency(int argc, char **argv)
{
   const char *models[64];
   unsigned n = 0;
   for (int i = 1; i < argc; i++) {
      if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
         latency_usage(stdout);
         return EXIT_OK;
      }
      if (argv[i][0] == '-' && argv[i][1])
         return unknown_option("bench latency", argv[i]);
      if (n == ARRAY_SIZE(models))
         return usage_error("bench latency: at most %zu models", ARRAY_SIZE(models));
      models[n++] = argv[i];
   }
   static const char *const all[] = {"a3xx", "sm50", "gfx9", "agx"};
   if (!n)
      for (; n < ARRAY_SIZE(all); n++)
         models[n] = all[n];
   int rc = EXIT_OK;
   for (unsigned i = 0; i < n; i++) {
      int r = one_model(models[i]);
      rc = MAX2(rc, r);
   }
   return rc;
}
