/*
 * diffcomp isa check MODEL...: load and check ISA models, print every
 * error with its position. Exit 0 when all are valid, 1 when one is not,
 * 2 on usage errors or unreadable files.
 */
#include "isa/isa.h"
#include "tools/tools.h"

#include <string.h>

static void
isa_usage(FILE *f)
{
   fprintf(f, "usage: diffcomp isa check MODEL.yaml|NAME...\n\n"
              "Loads each ISA model and runs the model checker (overlapping encodings and\n"
              "fields, missing semantics or latency classes, unknown names...).\n");
}

int
cmd_isa(int argc, char **argv)
{
   if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
      isa_usage(argc < 2 ? stderr : stdout);
      return argc < 2 ? EXIT_USAGE : EXIT_OK;
   }
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
