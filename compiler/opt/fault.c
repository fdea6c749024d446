/*
 * The fault registry: the table OPT_FAULTS in ir.h, expanded once, and the
 * helpers the front ends use to name faults. The hooks themselves sit in
 * the passes, each next to the correct code it breaks; this file only
 * knows the names.
 *
 * Invariants: every fault has a unique name, at least one target, and
 * fits the mask of opt_options.faults (checked at compile time).
 */
#include "compiler/ir/ir.h"

#include <string.h>

_Static_assert(OPT_FAULT_COUNT <= 64 * OPT_FAULT_WORDS, "opt_options.faults is too narrow");

#define INFO_(e, name, cls, targets, pass, mode, desc, fix)                                        \
   [OPT_FAULT_##e] = {name, OPT_FCLASS_##cls, targets, pass, mode, desc, fix},
const struct opt_fault_info opt_fault_info[OPT_FAULT_COUNT] = {OPT_FAULTS(INFO_)};
#undef INFO_

#define NAME_(e, name) name,
const char *const opt_fault_class_names[OPT_FCLASS_COUNT] = {OPT_FAULT_CLASSES(NAME_)};
#undef NAME_

static int
find_len(const char *name, size_t len)
{
   for (int f = 0; f < OPT_FAULT_COUNT; f++)
      if (strlen(opt_fault_info[f].name) == len && !strncmp(opt_fault_info[f].name, name, len))
         return f;
   return -1;
}

int
opt_fault_find(const char *name)
{
   return find_len(name, strlen(name));
}

bool
opt_fault_parse(const char *list, struct opt_fault_set *mask, struct diag_list *d)
{
   memset(mask, 0, sizeof(*mask));
   for (const char *p = list; *p;) {
      size_t n = strcspn(p, ",");
      int f = n ? find_len(p, n) : -1;
      if (f < 0) {
         diag_add(d, DIAG_ERROR, "options", 0, 0, NULL,
                  "unknown fault '%.*s' (diffcomp faults lists them)", (int)n, p);
         return false;
      }
      opt_fault_set_add(mask, f);
      p += n + (p[n] == ',');
   }
   return true;
}

bool
opt_fault_on_target(enum opt_fault f, const char *target)
{
   return comma_list_has(opt_fault_info[f].targets, target);
}

bool
opt_fault_in_pass(enum opt_fault f, const char *pass)
{
   return comma_list_has(opt_fault_info[f].pass, pass);
}
