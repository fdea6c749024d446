/*
 * The fault registry (compiler/opt/fault.c) and its hooks:
 *
 *   - the registry is complete: unique names, a class, a description and
 *     the fix imitated, targets that are models, a pass that exists, a
 *     mode the check knows; names parse back to their bits;
 *   - every fault has a hook that acts: on each of its targets, some
 *     fixture (the .tgsi files in fixtures/faults) compiles to a different program
 *     with the fault on than without (or no longer compiles);
 *   - a firing is one transformation (test_firings);
 *   - faults off change nothing: every fixture, on every target, with and
 *     without fuse_ffma, compiles to the program recorded in
 *     fixtures/faults/programs.txt (a hash of the code and the bindings,
 *     or "refused"), taken from the compiler before the hooks existed
 *     (the same programs, checked by disassembly over the captures and
 *     these fixtures when the hooks went in). When the compiler
 *     changes on purpose, DIFFCOMP_UPDATE_FIXTURES=1 test_faults rewrites
 *     the file (review the diff of the programs first).
 */
#include "compiler/compiler.h"
#include "compiler/ir/ir.h"
#include "compiler/opt/opt_agx.h"
#include "util/test.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#define FIXTURES   "fixtures/faults"
#define PROGRAMS   FIXTURES "/programs.txt"
#define MAX_FIXT   32
#define NO_PROGRAM 0 /* a compile that failed */
#define REFUSED    2 /* a shader the compiler does not translate (hashes are odd) */

static const char *const targets[] = {"a3xx", "sm50"};

struct fixture {
   char *name;
   struct tgsi_shader *s;
};

static unsigned
load_fixtures(struct fixture *fx)
{
   DIR *d = opendir(FIXTURES);
   CHECKF(d != NULL, "cannot open %s", FIXTURES);
   unsigned n = 0;
   for (struct dirent *e; d && (e = readdir(d)) && n < MAX_FIXT;) {
      size_t len = strlen(e->d_name);
      if (len < 6 || strcmp(e->d_name + len - 5, ".tgsi"))
         continue;
      char *path = xasprintf("%s/%s", FIXTURES, e->d_name), *text, *err;
      size_t tl;
      struct diag_list dg = {0};
      if (read_file(path, &text, &tl, &err)) {
         struct tgsi_parse_opts po = {0};
         fx[n].s = tgsi_parse(text, tl, path, &po, &dg);
         free(text);
      } else {
         free(err);
      }
      CHECKF(fx[n].s != NULL, "%s does not parse", path);
      if (fx[n].s)
         fx[n++].name = xstrdup(e->d_name);
      diag_clear(&dg);
      free(path);
   }
   if (d)
      closedir(d);
   /* directory order is the file system's: sort by name */
   for (unsigned i = 1; i < n; i++)
      for (unsigned j = i; j > 0 && strcmp(fx[j - 1].name, fx[j].name) > 0; j--) {
         struct fixture t = fx[j];
         fx[j] = fx[j - 1];
         fx[j - 1] = t;
      }
   return n;
}

/* The program opt_compile gives, as a hash of its code and bindings;
 * limit >= 0 bisects (at most limit transformations), and *log (may be
 * NULL; caller frees) gets the BISECT lines. */
static uint64_t
program_at(const struct tgsi_shader *s, const struct isa_model *m, struct opt_fault_set faults,
           bool ffma, long long limit, char **log)
{
   struct opt_options o = {.bisect_limit = limit, .fuse_ffma = ffma, .faults = faults};
   o.bisect = limit >= 0 || log;
   struct emu_program p = {0};
   struct diag_list d = {0};
   uint64_t h = NO_PROGRAM;
   enum compile_status cs = opt_compile(s, m, &o, &p, NULL, log, &d);
   if (cs == COMPILE_OK) {
      h = hash64(p.code, p.size, 0x9e3779b97f4a7c15ull);
      h = hash64(p.binds, p.nbinds * sizeof(*p.binds), h);
      h |= 1; /* never NO_PROGRAM or REFUSED */
   } else if (cs == COMPILE_UNSUPPORTED) {
      h = REFUSED;
   }
   emu_program_free(&p);
   diag_clear(&d);
   return h;
}

static uint64_t
program(const struct tgsi_shader *s, const struct isa_model *m, struct opt_fault_set faults,
        bool ffma)
{
   return program_at(s, m, faults, ffma, -1, NULL);
}

/* ------------------------------------------------------------------ */

/* Every pass of a comma list exists, and opt_fault_in_pass says so. */
static bool
passes_exist(enum opt_fault f, const char *list)
{
   unsigned n = 0;
   for (const char *p = list; *p; n++) {
      size_t k = strcspn(p, ",");
      bool found = (k == 4 && !strncmp(p, "emit", 4)) || (k == 5 && !strncmp(p, "front", 5));
      for (const char *const *q = opt_agx_passes; *q && !found; q++) /* agx machine passes */
         found = strlen(*q) == k && !strncmp(*q, p, k);
      for (const struct opt_pass *q = opt_passes; q->name && !found; q++)
         found = strlen(q->name) == k && !strncmp(q->name, p, k);
      char *one = xstrndup(p, k);
      found = found && opt_fault_in_pass(f, one);
      free(one);
      if (!found)
         return false;
      p += k + (p[k] == ',');
   }
   return n > 0 && !opt_fault_in_pass(f, "nope") && !opt_fault_in_pass(f, "");
}

static bool
mode_known(const char *mode)
{
   for (const char *p = mode; *p;) {
      size_t k = strcspn(p, ",");
      if (!((k == 9 && !strncmp(p, "fuse-ffma", 9)) || (k == 10 && !strncmp(p, "invariance", 10))))
         return false;
      p += k + (p[k] == ',');
   }
   return true;
}

static bool
name_ok(const char *s)
{
   if (!*s)
      return false;
   for (; *s; s++)
      if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '-')
         return false;
   return true;
}

static void
test_registry(void)
{
   CHECK(OPT_FAULT_COUNT >= 30);
   for (int f = 0; f < OPT_FAULT_COUNT; f++) {
      const struct opt_fault_info *fi = &opt_fault_info[f];
      CHECKF(fi->name && name_ok(fi->name), "fault %d: name", f);
      CHECKF(opt_fault_find(fi->name) == f, "%s: found as itself", fi->name);
      for (int g = 0; g < f; g++)
         CHECKF(strcmp(fi->name, opt_fault_info[g].name), "%s: named twice", fi->name);
      CHECKF((unsigned)fi->cls < OPT_FCLASS_COUNT, "%s: class", fi->name);
      CHECKF(fi->desc && *fi->desc && strlen(fi->desc) <= 90, "%s: a one-line description",
             fi->name);
      CHECKF(fi->fix && *fi->fix, "%s: the fix it imitates", fi->name);
      CHECKF(passes_exist((enum opt_fault)f, fi->pass), "%s: pass '%s'", fi->name, fi->pass);
      CHECKF(mode_known(fi->mode), "%s: mode '%s'", fi->name, fi->mode);
      unsigned nt = 0;
      for (const char *p = fi->targets; *p;) {
         size_t k = strcspn(p, ",");
         char *t = xstrndup(p, k);
         struct isa_model *m = NULL;
         struct diag_list d = {0};
         CHECKF(isa_open(t, &m, &d) == ISA_ERR_OK, "%s: target %s", fi->name, t);
         CHECKF(opt_fault_on_target((enum opt_fault)f, t), "%s: on %s", fi->name, t);
         isa_close(m);
         diag_clear(&d);
         free(t);
         nt++;
         p += k + (p[k] == ',');
      }
      CHECKF(nt > 0, "%s: targets", fi->name);
   }
   struct opt_fault_set mask, want = {{0}};
   struct diag_list d = {0};
   opt_fault_set_add(&want, 0);
   opt_fault_set_add(&want, OPT_FAULT_COUNT - 1);
   char *two = xasprintf("%s,%s", opt_fault_info[0].name, opt_fault_info[OPT_FAULT_COUNT - 1].name);
   CHECK(opt_fault_parse(two, &mask, &d) && opt_fault_set_eq(&mask, &want));
   free(two);
   CHECK(!opt_fault_parse("missing-ss,no-such-fault", &mask, &d));
   CHECK(d.n == 1 && strstr(d.v[0].msg, "no-such-fault"));
   diag_clear(&d);
   CHECK(!opt_fault_parse("", &mask, &d) || !opt_fault_set_any(&mask));
   diag_clear(&d);
   CHECK(opt_fault_find("missing") < 0); /* no prefix matching */
}

/* Every fault changes some fixture's program on each of its targets. */
static void
test_hooks(const struct fixture *fx, unsigned n, struct isa_model **models)
{
   for (int f = 0; f < OPT_FAULT_COUNT; f++) {
      const struct opt_fault_info *fi = &opt_fault_info[f];
      bool ffma = strstr(fi->mode, "fuse-ffma") != NULL;
      for (unsigned t = 0; t < ARRAY_SIZE(targets); t++) {
         if (!opt_fault_on_target((enum opt_fault)f, targets[t]))
            continue;
         const char *changed = NULL;
         for (unsigned i = 0; i < n && !changed; i++) {
            struct opt_fault_set none = {{0}}, bit = {{0}};
            opt_fault_set_add(&bit, f);
            uint64_t off = program(fx[i].s, models[t], none, ffma);
            if (off != NO_PROGRAM && off != REFUSED &&
                program(fx[i].s, models[t], bit, ffma) != off)
               changed = fx[i].name;
         }
         CHECKF(changed, "%s on %s: no fixture compiles differently with the fault on", fi->name,
                targets[t]);
      }
   }
}

/* The first firing of fault f in a bisect log: its index and its pass
 * (pass[64]); 0 when it never fires. */
static long long
first_firing(const char *log, enum opt_fault f, char *pass)
{
   char *tag = xasprintf("(fault %s: ", opt_fault_info[f].name);
   long long n = 0;
   for (const char *p = log; p && *p && !n; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
      const char *nl = strchr(p, '\n'), *t = strstr(p, tag);
      long long k;
      if (t && (!nl || t < nl) &&
          sscanf(p, "BISECT: pass %63s transformation %lld (", pass, &k) == 2)
         n = k;
   }
   free(tag);
   return n;
}

/*
 * A firing is one transformation: for each fault, on a fixture it changes,
 *   - counting changes nothing: bisecting without a limit gives the
 *     program the fault gives;
 *   - its first firing is logged in one of the fault's passes;
 *   - a limit below it turns the fault off: limit k-1 gives the program
 *     the compile without the fault gives at k-1, and limit 0 the one
 *     without the fault at limit 0 (the correct code is the default).
 */
static void
test_firings(const struct fixture *fx, unsigned n, struct isa_model **models)
{
   for (int f = 0; f < OPT_FAULT_COUNT; f++) {
      const struct opt_fault_info *fi = &opt_fault_info[f];
      bool ffma = strstr(fi->mode, "fuse-ffma") != NULL;
      struct opt_fault_set bit = {{0}}, none = {{0}};
      opt_fault_set_add(&bit, f);
      for (unsigned t = 0; t < ARRAY_SIZE(targets); t++) {
         const struct isa_model *m = models[t];
         for (unsigned i = 0; i < n && opt_fault_on_target((enum opt_fault)f, targets[t]); i++) {
            uint64_t on = program(fx[i].s, m, bit, ffma), off = program(fx[i].s, m, none, ffma);
            if (off == NO_PROGRAM || off == REFUSED || on == off)
               continue;
            char *log = NULL, pass[64] = "";
            CHECKF(program_at(fx[i].s, m, bit, ffma, -1, &log) == on, "%s on %s, %s: counted",
                   fi->name, targets[t], fx[i].name);
            long long k = first_firing(log, (enum opt_fault)f, pass);
            free(log);
            CHECKF(k > 0 && opt_fault_in_pass((enum opt_fault)f, pass),
                   "%s on %s, %s: first firing %lld in pass '%s'", fi->name, targets[t], fx[i].name,
                   k, pass);
            CHECKF(k <= 0 || program_at(fx[i].s, m, bit, ffma, k - 1, NULL) ==
                                 program_at(fx[i].s, m, none, ffma, k - 1, NULL),
                   "%s on %s, %s: limit %lld is not the fault-free program", fi->name, targets[t],
                   fx[i].name, k - 1);
            CHECKF(program_at(fx[i].s, m, bit, ffma, 0, NULL) ==
                       program_at(fx[i].s, m, none, ffma, 0, NULL),
                   "%s on %s, %s: limit 0 is not the fault-free program", fi->name, targets[t],
                   fx[i].name);
            break; /* one fixture per fault and target */
         }
      }
   }
}

/* Faults off: the programs recorded before the hooks. */
static void
test_faults_off(const struct fixture *fx, unsigned n, struct isa_model **models)
{
   char *text = NULL, *err;
   size_t len;
   bool update = getenv("DIFFCOMP_UPDATE_FIXTURES") != NULL;
   if (!update && !read_file(PROGRAMS, &text, &len, &err)) {
      CHECKF(false, "%s", err);
      free(err);
      return;
   }
   char *out = xstrdup("# fixture target mode program-hash: opt_compile with no fault\n");
   for (unsigned i = 0; i < n; i++)
      for (unsigned t = 0; t < ARRAY_SIZE(targets); t++)
         for (int ffma = 0; ffma < 2; ffma++) {
            const char *mode = ffma ? "fuse-ffma" : "exact";
            struct opt_fault_set none = {{0}};
            uint64_t h = program(fx[i].s, models[t], none, ffma);
            char hash[24] = "refused";
            if (h != REFUSED)
               snprintf(hash, sizeof(hash), "%016llx", (unsigned long long)h);
            char *line = xasprintf("%s %s %s %s\n", fx[i].name, targets[t], mode, hash);
            CHECKF(h != NO_PROGRAM, "%s on %s (%s) does not compile", fx[i].name, targets[t], mode);
            CHECKF(update || strstr(text, line),
                   "%s on %s (%s): the program with no fault is not the recorded one (%s); if "
                   "the compiler changed on purpose, rerun with DIFFCOMP_UPDATE_FIXTURES=1",
                   fx[i].name, targets[t], mode, PROGRAMS);
            char *o = xasprintf("%s%s", out, line);
            free(out);
            free(line);
            out = o;
         }
   if (update) {
      FILE *fp = fopen(PROGRAMS, "w");
      CHECKF(fp && fputs(out, fp) >= 0 && !fclose(fp), "cannot write %s", PROGRAMS);
   }
   free(out);
   free(text);
}

int
main(void)
{
   test_registry();
   struct fixture fx[MAX_FIXT] = {{0}};
   unsigned n = load_fixtures(fx);
   CHECK(n >= 2);
   struct isa_model *models[ARRAY_SIZE(targets)] = {0};
   for (unsigned t = 0; t < ARRAY_SIZE(targets); t++) {
      struct diag_list d = {0};
      CHECKF(isa_open(targets[t], &models[t], &d) == ISA_ERR_OK, "%s", targets[t]);
      diag_clear(&d);
   }
   if (models[0] && models[1]) {
      test_faults_off(fx, n, models);
      test_hooks(fx, n, models);
      test_firings(fx, n, models);
   }
   for (unsigned t = 0; t < ARRAY_SIZE(targets); t++)
      isa_close(models[t]);
   for (unsigned i = 0; i < n; i++) {
      free(fx[i].name);
      tgsi_shader_free(fx[i].s);
   }
   return test_done();
}
