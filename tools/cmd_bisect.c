/*
 * diffcomp bisect REPRO.yaml: names the pass and the single transformation
 * of the optimizing compiler that turns a reproducer's case bad (the search
 * is diff/bisect.c), prints the IR without and with it (the programs for
 * a change made while emitting) and the command lines that run each side. --opt-bisect-limit N runs
 * one side;
 * --git-bisect answers `git bisect run` for the revision at hand (0 good, 1 bad, 125 skip).
 */
#include "compiler/ir/ir.h"
#include "diff/diff.h"
#include "tools/tools.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXIT_BISECT_SKIP 125

static void
bisect_usage(FILE *f)
{
   fprintf(f, "usage: diffcomp bisect REPRO.yaml [--opt-bisect-limit N | --git-bisect]\n"
              "                       [--firings] [--json FILE] [--timeout SEC] [--no-fork]\n\n"
              "Replays a reproducer written by 'diffcomp check' with the optimizing compiler\n"
              "cut after N transformations (--opt-bisect-limit) and finds first the pass, then\n"
              "the transformation N such that limit N-1 is good and N is bad. Bad: the case\n"
              "fails with a signal of a kind the reproducer failed with (same target, seed,\n"
              "inputs, options). Skip: it fails otherwise (opt does not compile, a crash, a\n"
              "timeout, another kind of failure); skipped limits are searched around. Prints\n"
              "the pass, the transformation, the IR after that pass without it and (as a\n"
              "diff) with it -- the program listings for a change made while emitting --\n"
              "and the command line of each side. The transformations are\n"
              "the optional rewrites and, with a fault injected (the reproducer records\n"
              "it), each firing of the fault: limit 0 is then the fault-free compile.\n"
              "When limit 0 gives no good run (a shader that fits the registers only\n"
              "optimized) and the reproducer injects a fault, bisect counts the fault's\n"
              "firings only: limit 0 is then every optional change and no firing.\n\n"
              "  --opt-bisect-limit N\n"
              "                 run the case once with at most N transformations and say\n"
              "                 good, bad or skip (exit 0, 1, 125)\n"
              "  --git-bisect   run the case once, no limit, for `git bisect run`: exit 0 good,\n"
              "                 1 bad, 125 skip (also when the reproducer cannot be used)\n"
              "  --firings      count the injected faults' firings only (every other\n"
              "                 transformation is made)\n"
              "  --hide-firings an injected fault fires uncounted, like the code it imitates\n"
              "                 (in an optional pass: as one of its ordinary transformations)\n"
              "  --no-stages    no search of the mandatory stages\n"
              "  --json FILE    the result as JSON too: pass, transformation, stage,\n"
              "                 instruction, where, the runs ('-': standard output, and\n"
              "                 the text goes to standard error)\n"
              "  --timeout SEC  kill a run after SEC seconds: a skip (default 300; 0 = none)\n"
              "  --no-fork      run in this process (no crash isolation)\n\n"
              "When no transformation can be named, each mandatory stage's conservative\n"
              "variant is tried (from the end of the pipeline backwards; every stage from\n"
              "one on when none passes alone), and inside the stage named, its items\n"
              "(instructions, blocks) are binary-searched. The first hazard of the ordinary\n"
              "program is told as the wait it lacked ('hazard: (ss) missing before pc 3\n"
              "(reads r1.x, written by rcp at pc 0, 7 cycles early)'), a legalization swap\n"
              "as the record shows it; diffcomp explain draws the hazard.\n\n"
              "Last ('where:'), the case runs on the other targets that share the TGSI\n"
              "front end and IR passes: passing on one puts the bug in this target's back\n"
              "end; failing on them all, the IR interpreter on the front end's IR and on\n"
              "the IR passes' output names the front end, the IR passes or a back-end\n"
              "stage they share.\n\n"
              "Exit status: 0 a transformation or a stage was named; 1 the case fails but\n"
              "neither can be named (skips hide the step, or no stage's variant passes); 2 bad "
              "usage, an unreadable reproducer, or nothing to bisect\n"
              "(the case does not fail as recorded, or opt's program is hand-written).\n");
}

/* DIFFCOMP_BISECT_INJECT=K:FILE.tgsi[:LO-HI] (tests only): from
 * transformation K on opt compiles FILE instead; limits LO..HI fail to
 * compile. */
static bool
inject(struct diff_bisect *b, struct diff_bisect_swap *w, struct tgsi_shader **other)
{
   const char *v = getenv("DIFFCOMP_BISECT_INJECT");
   if (!v || !*v)
      return true;
   char path[512] = "";
   long long lo = 0, hi = 0;
   if (sscanf(v, "%lld:%511[^:]:%lld-%lld", &w->from, path, &lo, &hi) < 2) {
      fprintf(stderr, "%s: DIFFCOMP_BISECT_INJECT is K:FILE.tgsi[:LO-HI]\n", prog_name);
      return false;
   }
   w->skip_lo = lo, w->skip_hi = hi;
   char *text, *err;
   size_t len;
   struct diag_list d = {0};
   if (!read_file(path, &text, &len, &err)) {
      fprintf(stderr, "%s: %s\n", prog_name, err);
      free(err);
      return false;
   }
   *other = tgsi_parse(text, len, path, NULL, &d);
   print_diags(&d, stderr);
   diag_clear(&d);
   free(text);
   w->other = *other;
   b->compile = diff_bisect_swap_compile;
   b->compile_ctx = w;
   return *other != NULL;
}

/* --opt-bisect-limit N and --git-bisect: one run, 0 good, 1 bad, 125 skip. */
static int
probe(const struct diff_repro *r, struct diff_bisect *b, long long limit, bool git)
{
   enum diff_bisect_verdict v;
   char *lines = NULL;
   struct diag_list d = {0};
   bool ok = diff_bisect_probe(r, b, limit, &v, &lines, &d);
   print_diags(&d, stderr);
   diag_clear(&d);
   if (!ok)
      return git ? EXIT_BISECT_SKIP : EXIT_USAGE;
   printf("%s\n", lines);
   free(lines);
   if (limit >= 0)
      printf("limit %lld: %s\n", limit, diff_bisect_verdict_names[v]);
   else
      printf("no limit: %s\n", diff_bisect_verdict_names[v]);
   return v == DIFF_BISECT_GOOD ? EXIT_OK : v == DIFF_BISECT_BAD ? EXIT_FAIL : EXIT_BISECT_SKIP;
}

static void
print_probes(const struct diff_bisect *b)
{
   for (unsigned i = 0; i < b->nprobes; i++) {
      const struct diff_bisect_probe *p = &b->probes[i];
      char l[32] = "no limit";
      if (p->limit >= 0)
         snprintf(l, sizeof(l), "limit %lld", p->limit);
      const char *nl = strchr(p->why, '\n');
      printf("  %-11s %-4s %.*s%s\n", l, diff_bisect_verdict_names[p->v],
             (int)(nl ? nl - p->why : (long)strlen(p->why)), p->why, nl ? " ..." : "");
   }
}

/* The run of one pass holding transformation n: first and last index. */
static void
pass_run(const struct diff_bisect *b, long long n, long long *first, long long *last)
{
   const char *pass = b->xforms[n - 1].pass;
   *first = *last = n;
   while (*first > 1 && !strcmp(b->xforms[*first - 2].pass, pass))
      (*first)--;
   while (*last < (long long)b->nxforms && !strcmp(b->xforms[*last].pass, pass))
      (*last)++;
}

/* The lines of t: starts in *lines (caller frees), count returned. */
static size_t
split_lines(const char *t, const char ***lines)
{
   size_t n = 0, cap = 0;
   *lines = NULL;
   for (const char *p = t; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
      VEC_RESERVE(*lines, cap, n + 1);
      (*lines)[n++] = p;
   }
   return n;
}

static bool
same_line(const char *a, const char *b)
{
   size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
   return la == lb && !memcmp(a, b, la);
}

/* after as a diff against before: the lines between the common head and
 * tail, '-' before's and '+' after's, with two lines of context. */
static void
print_diff(const char *before, const char *after)
{
   const char **a, **b;
   size_t na = split_lines(before, &a), nb = split_lines(after, &b), head = 1, tail = 0;
   if (!na || !nb) {
      printf("%s", after);
      free(a);
      free(b);
      return;
   }
   while (head < na && head < nb && same_line(a[head], b[head]))
      head++;
   while (tail < na - head && tail < nb - head && same_line(a[na - 1 - tail], b[nb - 1 - tail]))
      tail++;
   size_t from = head > 2 ? head - 2 : 1, ctx = tail < 2 ? tail : 2;
   printf("%.*s", (int)strcspn(b[0], "\n") + 1, b[0]); /* the "IR at ..." title */
   if (from > 1)
      printf("  ...\n");
   for (size_t i = from; i < head; i++)
      printf(" %.*s\n", (int)strcspn(a[i], "\n"), a[i]);
   for (size_t i = head; i < na - tail; i++)
      printf("-%.*s\n", (int)strcspn(a[i], "\n"), a[i]);
   for (size_t i = head; i < nb - tail; i++)
      printf("+%.*s\n", (int)strcspn(b[i], "\n"), b[i]);
   for (size_t i = nb - tail; i < nb - tail + ctx; i++)
      printf(" %.*s\n", (int)strcspn(b[i], "\n"), b[i]);
   if (tail > ctx)
      printf("  ...\n");
   free(a);
   free(b);
}

/* Line n of text (1-based), without its end, or "". */
static void
source_line(const char *text, unsigned n, char *out, size_t size)
{
   const char *p = text;
   for (unsigned i = 1; p && i < n; i++)
      p = (p = strchr(p, '\n')) ? p + 1 : NULL;
   size_t len = p && n ? strcspn(p, "\n") : 0;
   while (len && (p[0] == ' ' || p[0] == '\t'))
      p++, len--;
   snprintf(out, size, "%.*s", (int)len, p ? p : "");
}

/* The stage's notes: what the ordinary code did to a value ("%117:
 * operand 1 of ...": values) or on an item ("@2: ..."). */
static void
print_notes(const struct diff_bisect_stages *st, const char *name, bool values)
{
   for (const char *p = st->notes; p && *p;) {
      size_t len = strcspn(p, "\n");
      const char *colon = memchr(p, ':', len);
      bool value = *p == '%' && colon && colon[1] == ' ';
      if (value && values)
         printf("%s: %.*s\n", name, (int)(len - (size_t)(colon + 2 - p)), colon + 2);
      else if (!value && !values)
         printf("  %s notes: %.*s\n", name, (int)len, p);
      p += len + (p[len] == '\n');
   }
}

/* The stage search (issue 16): its runs, the stage, the item. */
static int
report_stages(const struct diff_repro *r, const struct diff_bisect *b)
{
   const struct diff_bisect_stages *st = &b->st;
   printf("\nthe mandatory stages, each conservative in turn (from the end backwards):\n");
   for (unsigned i = 0; i < st->nprobes; i++) {
      const struct diff_bisect_stage_probe *p = &st->probes[i];
      const char *nl = strchr(p->why, '\n');
      printf("  %-24s %-4s %.*s%s\n", p->label, diff_bisect_verdict_names[p->v],
             (int)(nl ? nl - p->why : (long)strlen(p->why)), p->why, nl ? " ..." : "");
   }
   if (st->named < 0) {
      printf("stage: none named: %s\n", st->why ? st->why : "?");
      return EXIT_FAIL;
   }
   const char *name = opt_stage_names[st->named];
   if (st->own)
      printf("stage: %s (the transformation's own pass)\n", name);
   else
      printf("stage: %s (its conservative variant makes the case pass%s)\n", name,
             st->combo ? " only with every later stage's too" : "");
   unsigned others = st->passing & ~(1u << st->named);
   if (others) {
      printf("  also passing alone:");
      for (int s = 0; s < OPT_STAGE_COUNT; s++)
         if (others & (1u << s))
            printf(" %s", opt_stage_names[s]);
      printf(st->named == OPT_STAGE_LIVE
                 ? " (they use the liveness; its own variant changes only what it gets wrong)\n"
                 : " (an earlier stage's variant changes the code it hands on: it can hide the "
                   "bug)\n");
   }
   if (st->hazard)
      printf("%s\n", st->hazard);
   print_notes(st, name, true);
   if (!st->item) {
      printf("item: none named (%s)\n", st->why ? st->why : "?");
      return EXIT_OK;
   }
   char src[160];
   source_line(r->text, st->item_line, src, sizeof(src));
   printf("%s: %s %s, TGSI line %u: %s\n", st->nneed > 1 ? "items" : "item", name, st->item,
          st->item_line, src);
   if (st->nneed > 1)
      printf("  (the case is wrong in %u places; named in program order)\n", st->nneed);
   printf("  %s\n", st->item_alone ? "the conservative treatment there alone makes the case pass"
                                   : "the conservative treatment there does not make the case "
                                     "pass alone (other items take part)");
   print_notes(st, name, false);
   if (st->code_before && st->code_after) {
      char *before = xasprintf("program (ordinary %s):\n%s", name, st->code_before);
      char *after =
          xasprintf("program (%s conservative at %s):\n%s", name, st->item, st->code_after);
      printf("\nthe program with it conservative, as a diff against the ordinary one: ");
      print_diff(before, after);
      free(before);
      free(after);
   }
   return EXIT_OK;
}

static int
report(const char *file, const struct diff_repro *r, const struct diff_bisect *b)
{
   switch (b->outcome) {
   case DIFF_BISECT_NO_FAILURE:
      printf("the reproducer does not fail: nothing to bisect (now: %s)\n", b->why);
      return EXIT_USAGE;
   case DIFF_BISECT_UNTESTABLE:
      printf("nothing to bisect: %s\n", b->why);
      return EXIT_USAGE;
   case DIFF_BISECT_NOT_OPT:
      printf("the case fails with no transformation at all (limit 0 of %u): the failure is "
             "not one transformation's\n",
             b->nxforms);
      return b->st.ran ? report_stages(r, b) : EXIT_FAIL;
   case DIFF_BISECT_NO_GOOD:
      printf("limit 0 is a skip: no good end to search from\n");
      return b->st.ran ? report_stages(r, b) : EXIT_FAIL;
   case DIFF_BISECT_FOUND:
   case DIFF_BISECT_RANGE:
      break;
   }
   long long first, last, n = b->bad;
   pass_run(b, n, &first, &last);
   printf("pass: %s (its transformations %lld..%lld of %u)\n", b->xforms[n - 1].pass, first, last,
          b->nxforms);
   if (b->outcome == DIFF_BISECT_RANGE) {
      printf("transformation: one of %lld..%lld (the limits between are skips):\n", b->good + 1, n);
      for (long long k = b->good + 1; k <= n; k++)
         printf("  %lld %s: %s\n", k, b->xforms[k - 1].pass, b->xforms[k - 1].what);
   } else {
      printf("transformation %lld of %u: %s\n", n, b->nxforms, b->xforms[n - 1].what);
   }
   const char *fl = b->firings ? " --firings" : "";
   printf("good: diffcomp bisect %s --opt-bisect-limit %lld%s\n", file, b->good, fl);
   printf("bad:  diffcomp bisect %s --opt-bisect-limit %lld%s\n", file, n, fl);
   if (b->ir_before && b->ir_after) {
      printf("\nwithout it (limit %lld): %s", b->good, b->ir_before);
      printf("\nwith it (limit %lld), as a diff against the IR above: ", n);
      print_diff(b->ir_before, b->ir_after);
   } else if (b->code_before && b->code_after) {
      /* made while emitting machine code: no IR shows it, the listing does */
      char *before = xasprintf("program at limit %lld:\n%s", b->good, b->code_before);
      char *after = xasprintf("program at limit %lld:\n%s", n, b->code_after);
      printf("\nwithout it (no IR shows it): %s", before);
      printf("\nwith it, as a diff against the program above: ");
      print_diff(before, after);
      free(before);
      free(after);
   } else {
      printf("\nwithout it (limit %lld): %s", b->good, b->ir_before ? b->ir_before : "(no IR)\n");
      printf("\nwith it (limit %lld): %s", n, b->ir_after ? b->ir_after : "(no IR)\n");
   }
   if (b->st.named >= 0 && b->st.own) {
      printf("\nno other stage's conservative variant makes the case pass; the pass is the "
             "mandatory stage %s: its items, with the transformation made\n",
             opt_stage_names[b->st.named]);
      report_stages(r, b);
   } else if (b->st.named >= 0) {
      printf("\nthe transformation only exposes a mandatory stage's bug: with it made, the "
             "stage's conservative variant makes the case pass\n");
      report_stages(r, b);
   }
   return b->outcome == DIFF_BISECT_FOUND ? EXIT_OK : EXIT_FAIL;
}

/* Standard output's descriptor when --json - takes it: the text then
 * goes to standard error. */
static int json_stdout = -1;

static bool
write_json(const char *path, char *text)
{
   bool ok;
   if (!strcmp(path, "-")) {
      fflush(stdout);
      FILE *f = fdopen(json_stdout, "w");
      ok = f && fputs(text, f) >= 0;
      ok = f && !fclose(f) && ok;
   } else {
      struct diag_list d = {0};
      ok = diff_write_atomic(path, text, &d);
      print_diags(&d, stderr);
      diag_clear(&d);
   }
   free(text);
   return ok;
}

static int
run(const char *file, const struct diff_repro *r, struct diff_bisect *b, const char *json)
{
   struct diag_list d = {0};
   bool ok = diff_bisect_run(r, b, &d);
   print_diags(&d, stderr);
   diag_clear(&d);
   if (!ok)
      return EXIT_USAGE;
   printf("bisect %s: %s on %s, seed %llu, %u invocations\n", file, r->shader, r->target,
          (unsigned long long)r->o.seed, r->o.invocations);
   if (b->fell_back)
      printf("limit 0 gave no good run counting every transformation: counting the fault's "
             "firings only\n");
   print_probes(b);
   int rc = report(file, r, b);
   struct diff_where w;
   diff_bisect_where(r, b, &w);
   if (w.text)
      printf("where: %s\n", w.text);
   if (json && !write_json(json, diff_bisect_json(file, r, b, &w, rc)))
      rc = EXIT_USAGE;
   diff_where_free(&w);
   return rc;
}

int
cmd_bisect(int argc, char **argv)
{
   const char *file = NULL, *v, *json = NULL;
   long long limit = -1;
   bool git = false;
   struct diff_bisect b;
   diff_bisect_init(&b);
   b.timeout_ms = 300 * 1000;
   for (int i = 1; i < argc; i++) {
      uint64_t n;
      if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
         bisect_usage(stdout);
         return EXIT_OK;
      } else if (opt_value(argc, argv, &i, "--opt-bisect-limit", &v)) {
         if (!v || !parse_u64(v, &n) || n > (1ull << 62))
            return usage_error("--opt-bisect-limit takes a transformation count");
         limit = (long long)n;
      } else if (opt_value(argc, argv, &i, "--timeout", &v)) {
         if (!v || !parse_u64(v, &n) || n > 86400)
            return usage_error("--timeout takes seconds from 0 to 86400");
         b.timeout_ms = (unsigned)n * 1000;
      } else if (opt_value(argc, argv, &i, "--json", &v)) {
         if (!v || !*v)
            return usage_error("--json takes a file ('-': standard output)");
         json = v;
      } else if (!strcmp(argv[i], "--git-bisect")) {
         git = true;
      } else if (!strcmp(argv[i], "--no-fork")) {
         b.jobs = 0;
      } else if (!strcmp(argv[i], "--firings")) {
         b.firings = true;
      } else if (!strcmp(argv[i], "--hide-firings")) {
         b.hide_firings = true;
      } else if (!strcmp(argv[i], "--no-stages")) {
         b.no_stages = true;
      } else if (argv[i][0] == '-' && argv[i][1]) {
         return unknown_option("bisect", argv[i]);
      } else if (file) {
         return usage_error("bisect: one reproducer at a time");
      } else {
         file = argv[i];
      }
   }
   if (!file) {
      bisect_usage(stderr);
      return EXIT_USAGE;
   }
   if (git && limit >= 0)
      return usage_error("bisect: --git-bisect runs with no limit; not with --opt-bisect-limit");
   if (json && (git || limit >= 0))
      return usage_error(
          "bisect: --json reports a search; not with --opt-bisect-limit or --git-bisect");
   if (json && !strcmp(json, "-")) {
      fflush(stdout);
      json_stdout = dup(STDOUT_FILENO);
      if (json_stdout < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
         return usage_error("cannot take standard output for --json: %s", strerror(errno));
   }
   struct diff_bisect_swap w = {0};
   struct tgsi_shader *other = NULL;
   struct diff_repro r;
   int rc = git ? EXIT_BISECT_SKIP : EXIT_USAGE;
   if (inject(&b, &w, &other) && load_repro(file, &r)) {
      struct diff_check_opts o = r.o;
      o.timeout_ms = b.timeout_ms;
      struct diff_extcc x = diff_check_extcc(&o);
      if (r.opt_cmd && !b.compile) { /* the external compiler, driven through {limit} */
         b.compile = diff_extcc_bisect_compile;
         b.compile_ctx = &x;
      }
      rc = git || limit >= 0 ? probe(&r, &b, limit, git) : run(file, &r, &b, json);
      diff_repro_free(&r);
   }
   tgsi_shader_free(other);
   diff_bisect_fini(&b);
   return rc;
}
