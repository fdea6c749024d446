/*
 * diffcomp: one binary, git-style subcommands. With no subcommand (or with
 * files first) it runs the differential check.
 */
#include "tools/tools.h"
#include "diff/diff.h"
#include "isa/isa.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

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

/* Options renamed so that one concept has one name, and the commands that
 * take the new name: the old spelling is refused there with the new one. */
static const struct {
   const char *old, *now, *cmds;
} renamed[] = {
    {"--fuse-ffma", "--opt fuse-ffma", "|check|compile|"},
    {"--reduce-time", "--time-limit", "|reduce|faults|"},
    {"--model", "--target", "|bench emu|"},
    {"--limit", "--opt-bisect-limit", "|bisect|"},
    {"--fault", "--inject-fault", "|faults|"},
};

int
unknown_option(const char *cmd, const char *arg)
{
   size_t n = strcspn(arg, "=");
   char word[32];
   snprintf(word, sizeof(word), "|%s|", cmd);
   for (size_t i = 0; i < ARRAY_SIZE(renamed); i++)
      if (strlen(renamed[i].old) == n && !strncmp(arg, renamed[i].old, n) &&
          strstr(renamed[i].cmds, word))
         return usage_error("%s: %.*s is spelled %s now (see diffcomp %s --help)", cmd, (int)n, arg,
                            renamed[i].now, cmd);
   return usage_error("%s: unknown option '%s' (see diffcomp %s --help)", cmd, arg, cmd);
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
   fprintf(f, "\nRun 'diffcomp COMMAND --help' for the options of one command;\n"
              "'diffcomp --version' prints the version and the models' digests.\n");
}

/* An installed diffcomp (PREFIX/bin/diffcomp) opens its models from
 * PREFIX/share/diffcomp/models, wherever PREFIX was moved; a build-tree
 * binary falls back to the source tree. DIFFCOMP_ISA_PATH wins over both. */
static void
find_installed_models(const char *argv0)
{
   const char *set = getenv("DIFFCOMP_ISA_PATH");
   if (set && *set)
      return;
   char exe[4096];
   ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
   if (n <= 0) {
      if (!strchr(argv0, '/') || strlen(argv0) >= sizeof(exe))
         return;
      n = (ssize_t)strlen(argv0);
      memcpy(exe, argv0, (size_t)n);
   }
   exe[n] = 0;
   char *slash = strrchr(exe, '/');
   if (!slash)
      return;
   *slash = 0;
   char *dir = xasprintf("%s/../share/diffcomp/models", exe);
   char *probe = xasprintf("%s/a3xx.yaml", dir);
   if (access(probe, R_OK) == 0)
      setenv("DIFFCOMP_ISA_PATH", dir, 1);
   free(probe);
   free(dir);
}

static int
cmp_str(const void *a, const void *b)
{
   return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The version, and each model by name with a digest of its text, so a report
 * from another machine can be matched to the models that produced it. */
static void
print_version(FILE *f)
{
   fprintf(f, "diffcomp %s\n", DC_VERSION);
   const char *dir = isa_model_dir();
   fprintf(f, "models: %s\n", dir);
   DIR *dp = opendir(dir);
   if (!dp)
      return;
   char **names = NULL;
   size_t nnames = 0, cap = 0;
   for (struct dirent *e; (e = readdir(dp));) {
      size_t l = strlen(e->d_name);
      if (l > 5 && !strcmp(e->d_name + l - 5, ".yaml"))
         VEC_PUSH(names, nnames, cap, xstrdup(e->d_name));
   }
   closedir(dp);
   if (nnames)
      qsort(names, nnames, sizeof(*names), cmp_str);
   for (size_t i = 0; i < nnames; i++) {
      char *path = xasprintf("%s/%s", dir, names[i]), *text = NULL, *err = NULL;
      size_t len = 0;
      if (read_file(path, &text, &len, &err))
         fprintf(f, "  %.*s %016llx\n", (int)(strlen(names[i]) - 5), names[i],
                 (unsigned long long)hash64(text, len, 0));
      free(text);
      free(err);
      free(path);
      free(names[i]);
   }
   free(names);
}

/* A pass over a large shader allocates and frees arrays of megabytes
 * (liveness sets of 40 MB at 64k instructions); glibc serves those by mmap
 * and unmaps them on free, so every pass took each page again as a fault
 * (11% of a 64k-instruction compile, 234k faults on bench compile loops
 * 64k gfx9 opt; 114k with this). Serve everything from the heap and keep
 * up to 512 MB of its free top for the next pass. */
static void
tune_malloc(void)
{
#if defined(__GLIBC__)
   mallopt(M_MMAP_MAX, 0);
   mallopt(M_TRIM_THRESHOLD, 512 << 20);
#endif
}

int
main(int argc, char **argv)
{
   tune_malloc();
   find_installed_models(argv[0]);
   if (argc >= 2 && !strcmp(argv[1], "--version")) {
      print_version(stdout);
      return EXIT_OK;
   }
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
      if (argv[1][0] != '-' && argv[1][0] != '@' && !strchr(argv[1], '.') &&
          !strchr(argv[1], '/') && access(argv[1], F_OK) != 0) {
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
