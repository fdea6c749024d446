/*
 * Options every command that drives the optimizing compiler shares
 * (check, compile): --opt LIST and --inject-fault LIST are parsed here
 * once, so they mean the same in each command.
 */
#include "compiler/ir/ir.h"
#include "diff/diff.h"
#include "tools/tools.h"

#include <string.h>

int
parse_opt_list(const char *v, unsigned *inexact)
{
   unsigned out = 0;
   for (const char *p = v; p && *p;) {
      size_t n = strcspn(p, ",");
      unsigned b = 0;
      while (b < DIFF_INEXACT_COUNT &&
             (strlen(diff_inexact_names[b]) != n || strncmp(p, diff_inexact_names[b], n)))
         b++;
      if (n && b == DIFF_INEXACT_COUNT)
         v = NULL;
      else if (n)
         out |= 1u << b;
      p += n + (p[n] == ',');
   }
   if (!v)
      return usage_error("--opt takes a list of: fuse-ffma, inexact");
   *inexact = out;
   return EXIT_OK;
}

int
parse_fault_list(const char *v, struct opt_fault_set *mask)
{
   struct opt_fault_set m;
   struct diag_list d = {0};
   if (!v)
      return usage_error("--inject-fault takes a fault name (diffcomp faults lists them)");
   bool ok = opt_fault_parse(v, &m, &d);
   print_diags(&d, stderr);
   diag_clear(&d);
   for (unsigned i = 0; ok && i < OPT_FAULT_WORDS; i++)
      mask->w[i] |= m.w[i];
   return ok ? EXIT_OK : EXIT_USAGE;
}

void
warn_faults_off_target(struct opt_fault_set mask, const char *target)
{
   for (int f = 0; f < OPT_FAULT_COUNT; f++)
      if (opt_fault_set_has(&mask, f) && !opt_fault_on_target((enum opt_fault)f, target))
         fprintf(stderr, "%s: warning: fault '%s' does not exist on %s (it is on: %s)\n", prog_name,
                 opt_fault_info[f].name, target, opt_fault_info[f].targets);
}
