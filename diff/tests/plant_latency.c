/*
 * diffcomp bench latency must catch a wrong latency. This program is
 * linked with a copy of a library file in which one latency is planted
 * wrong (diff/tests/cli_latency.cmake makes the copies; the copy's symbols
 * win over the library's): the emulator's decoder (emu/load.c: a fixed
 * latency one long, a soft latency one short, the predicate latency one
 * short) or the compilers' delay function (isa/delay.c: a fixed latency
 * one short). It runs the microbenchmarks of MODEL and wants row ROW to
 * disagree and every row to be reported. With no bug planted the row
 * agrees and the test fails, so it cannot pass vacuously.
 *
 *   plant_latency MODEL ROW
 */
#include "diff/diff.h"
#include "isa/isa.h"

#include <stdio.h>
#include <string.h>

int
main(int argc, char **argv)
{
   if (argc != 3) {
      fprintf(stderr, "usage: plant_latency MODEL ROW\n");
      return 2;
   }
   struct diag_list d = {0};
   struct isa_model *m = NULL;
   if (isa_open(argv[1], &m, &d) != ISA_ERR_OK) {
      fprintf(stderr, "plant_latency: cannot open %s: %s\n", argv[1],
              diag_first_error(&d) ? diag_first_error(&d) : "?");
      return 2;
   }
   struct diff_latency *rows;
   unsigned n;
   bool ran = diff_latency_run(m, &rows, &n, &d);
   int rc = 1;
   for (unsigned i = 0; i < n; i++) {
      if (strcmp(rows[i].name, argv[2]))
         continue;
      printf("%s %s: measured %d, model %d, figure %d: %s\n", argv[1], argv[2], rows[i].measured,
             rows[i].model, rows[i].figure, rows[i].ok ? "agree" : rows[i].why);
      rc = rows[i].ok ? 1 : 0;
   }
   if (!ran) {
      fprintf(stderr, "plant_latency: the microbenchmarks did not run: %s\n",
              diag_first_error(&d) ? diag_first_error(&d) : "?");
      rc = 1;
   }
   diff_latency_free(rows, n);
   diag_clear(&d);
   isa_close(m);
   return rc;
}
