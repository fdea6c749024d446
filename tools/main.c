/*
 * diffcomp: one binary, git-style subcommands. With no subcommand (or with
 * files first) it runs the differential check.
 */
#include "tools/tools.h"
#include "diff/diff.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *prog_name = "diffcomp";

static const struct {
   const char *name;
   cmd_fn fn;
   const char *help;
} commands[] = {
#define CMD(name, fn, help) {name, fn, help},
#include "tools/commands.h"
#undef CMD
    {NULL, NULL, NULL},
};

static cmd_fn
find_command(const char *name)
{
   for (size_t i = 0; commands[i].name; i++)
      if (!strcmp(name, commands[i].name))
         return commands[i].fn;
   return NULL;
}

bool
use_color(FILE *f)
{
   const char *nc = getenv("NO_COLOR");
   return isatty(fileno(f)) && !(nc && *nc);
}

void
print_diags(const struct diag_list *l, FILE *f)
{
   bool color = use_color(f);
   for (unsigned i = 0; i < l->n; i++) {
      char *s = diag_render(&l->v[i], color);
      fputs(s, f);
      free(s);
   }
}

int
usage_error(const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   fprintf(stderr, "%s: ", prog_name);
   vfprintf(stderr, fmt, ap);
   fputc('\n', stderr);
   va_end(ap);
   return EXIT_USAGE;
}

bool
opt_value(int argc, char **argv, int *i, const char *name, const char **value)
{
   size_t n = strlen(name);
   const char *a = argv[*i];
   if (strncmp(a, name, n) != 0)
      return false;
   if (a[n] == '=') {
      *value = a + n + 1;
      return true;
   }
   if (a[n] != 0)
      return false;
   if (*i + 1 >= argc) {
      *value = NULL;
      return true;
   }
   *value = argv[++*i];
   return true;
}

bool
parse_u64(const char *s, uint64_t *out)
{
   if (!s || !*s || *s == '-')
      return false;
   char *end;
   errno = 0;
   unsigned long long v = strtoull(s, &end, 0);
   if (errno || *end)
      return false;
   *out = v;
   return true;
}

void
print_yaml_float(FILE *f, uint32_t bits)
{
   float x = uif(bits);
   if (x != x) {
      fputs(".nan", f);
      return;
   }
   if (isinf(x)) {
      fputs(x > 0 ? ".inf" : "-.inf", f);
      return;
   }
   char buf[32];
   for (int prec = 6; prec <= 9; prec++) {
      snprintf(buf, sizeof(buf), "%.*g", prec, (double)x);
      if (strtof(buf, NULL) == x)
         break;
   }
   fputs(buf, f);
   if (!strpbrk(buf, ".eE"))
      fputs(".0", f);
}

bool
load_repro(const char *path, struct diff_repro *r)
{
   struct diag_list d = {0};
   bool ok = diff_repro_load(path, r, &d);
   print_diags(&d, stderr);
   diag_clear(&d);
   return ok;
}

static void
print_help(FILE *f)
{
   fprintf(f, "usage: diffcomp [COMMAND] [ARGS...]\n"
              "       diffcomp FILE.tgsi...      (same as: diffcomp check FILE.tgsi...)\n\n"
              "Differential validation of GPU shader compilers without a GPU.\n\n"
              "commands:\n");
   for (size_t i = 0; commands[i].name; i++)
      fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].help);
   fprintf(f, "\nRun 'diffcomp COMMAND --help' for the options of one command.\n");
}

int
main(int argc, char **argv)
{
   if (argc >= 2 &&
       (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help"))) {
      print_help(stdout);
      return EXIT_OK;
   }
   if (argc >= 2) {
      cmd_fn fn = find_command(argv[1]);
      if (fn)
         return fn(argc - 1, argv + 1);
      /* Not a command: a file or an option, which belong to "check". */
      if (argv[1][0] != '-' && !strchr(argv[1], '.') && !strchr(argv[1], '/')) {
         fprintf(stderr, "%s: unknown command '%s'\n\n", prog_name, argv[1]);
         print_help(stderr);
         return EXIT_USAGE;
      }
   }
   cmd_fn check = find_command("check");
   if (!check)
      return usage_error("this build has no 'check' command");
   return check(argc, argv);
}
