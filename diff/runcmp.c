/*
 * Run against run: reads two reports written by `check --json` and pairs
 * their cases by shader and target, as shader-db's and fossil-db's report
 * scripts do. Statistics are compared only over cases that passed in both
 * runs (a failing program's size says nothing); status changes (new and
 * fixed failures, new n/a, cases only in one run) are listed separately.
 * Shaders pair by canonical path (diff_path_canonical, the baselines'
 * normalization), each report's paths taken relative to the directory its
 * run was made in (its summary's "dir", relative to the report's own
 * directory; a report without one: the working directory), so runs made
 * from different directories, or naming a file ./x.tgsi once and x.tgsi
 * the other time, still pair. A name that does
 * not resolve (a generated shader, a file gone) pairs as written.
 */
#include "diff/diff.h"

#include <stdlib.h>
#include <string.h>

const char *const diff_stat_names[DIFF_STAT_COUNT] = {"instructions", "nops", "registers", "cycles",
                                                      "emulated_cycles"};

static bool
load_stats(struct ydoc *y, int map, long long *v, struct diag_list *d)
{
   if (map <= 0 || !ydoc_is_map(y, map))
      return false;
   for (unsigned k = 0; k < DIFF_STAT_COUNT; k++) {
      uint64_t x;
      int n = ydoc_get(y, map, diff_stat_names[k]);
      if (n <= 0 || !ydoc_u64(y, n, &x)) {
         ydoc_error(y, n <= 0 ? map : n, d, "expected an integer '%s'", diff_stat_names[k]);
         return false;
      }
      v[k] = (long long)x;
   }
   return true;
}

static bool
load_case(struct ydoc *y, int node, const char *path_key, const char *dir, struct diff_run_case *c,
          struct diag_list *d)
{
   const char *shader = ydoc_scalar(y, ydoc_get(y, node, "shader"));
   const char *target = ydoc_scalar(y, ydoc_get(y, node, "target"));
   const char *status = ydoc_scalar(y, ydoc_get(y, node, "status"));
   if (!shader || !target || !status) {
      ydoc_error(y, node, d, "a case needs 'shader', 'target' and 'status'");
      return false;
   }
   c->shader = xstrdup(shader);
   c->target = xstrdup(target);
   c->key = diff_path_canonical(dir, shader);
   if (!c->key)
      c->key = xstrdup(shader);
   c->status = DIFF_STATUS_COUNT;
   for (unsigned s = 0; s < DIFF_STATUS_COUNT; s++)
      if (!strcmp(status, diff_status_names[s]))
         c->status = (enum diff_status)s;
   if (c->status == DIFF_STATUS_COUNT) {
      ydoc_error(y, node, d, "unknown status '%s'", status);
      return false;
   }
   int stats = ydoc_get(y, node, path_key);
   c->has_stats = stats > 0 && ydoc_is_map(y, stats);
   return !c->has_stats || load_stats(y, stats, c->stats, d);
}

bool
diff_run_load(const char *file, const char *path_key, struct diff_run *run, struct diag_list *d)
{
   memset(run, 0, sizeof(*run));
   char *text = NULL;
   size_t len = 0;
   if (!read_file_diag(file, &text, &len, d))
      return false;
   struct ydoc *y = ydoc_load(text, len, file, d);
   free(text);
   if (!y)
      return false;
   bool ok = true;
   int root = ydoc_root(y), cases = ydoc_get(y, root, "cases");
   if (cases <= 0 || ydoc_is_map(y, cases) || ydoc_scalar(y, cases)) {
      ydoc_error(y, root, d, "not a report of 'diffcomp check --json': no 'cases' list");
      ok = false;
   }
   /* What made the run, so a report can say when the models changed. */
   int sum = ok ? ydoc_get(y, root, "summary") : 0,
       models = sum > 0 ? ydoc_get(y, sum, "models") : 0;
   const char *version = sum > 0 ? ydoc_scalar(y, ydoc_get(y, sum, "version")) : NULL;
   run->version = version ? xstrdup(version) : NULL;
   struct strbuf m = {0};
   for (unsigned i = 0; models > 0 && ydoc_is_map(y, models) && i < ydoc_len(y, models); i++) {
      int k, v;
      ydoc_pair(y, models, i, &k, &v);
      if (ydoc_scalar(y, k) && ydoc_scalar(y, v))
         strbuf_printf(&m, "%s%s %s", m.s ? ", " : "", ydoc_scalar(y, k), ydoc_scalar(y, v));
   }
   run->models = strbuf_take(&m);
   const char *dir = sum > 0 ? ydoc_scalar(y, ydoc_get(y, sum, "dir")) : NULL;
   if (dir) {
      char *fdir = diff_path_dir(file);
      run->dir = diff_path_canonical(fdir, dir);
      free(fdir);
   }
   size_t cap = 0;
   for (unsigned i = 0; ok && i < ydoc_len(y, cases); i++) {
      struct diff_run_case c = {0};
      ok = load_case(y, ydoc_item(y, cases, i), path_key, run->dir, &c, d);
      VEC_PUSH(run->cases, run->ncases, cap, c);
   }
   ydoc_free(y);
   if (!ok)
      diff_run_free(run);
   return ok;
}

void
diff_run_free(struct diff_run *run)
{
   for (size_t i = 0; i < run->ncases; i++) {
      free(run->cases[i].shader);
      free(run->cases[i].target);
      free(run->cases[i].key);
   }
   free(run->cases);
   free(run->version);
   free(run->models);
   free(run->dir);
   memset(run, 0, sizeof(*run));
}

static int
case_key_cmp(const void *a, const void *b)
{
   const struct diff_run_case *x = a, *y = b;
   int t = strcmp(x->target, y->target);
   return t ? t : strcmp(x->key, y->key);
}

static bool
failed(enum diff_status s)
{
   return s == DIFF_FAIL || s == DIFF_ERROR;
}

static struct diff_runcmp_target *
target_of(struct diff_runcmp *r, size_t *cap, const char *name)
{
   if (r->ntargets && !strcmp(r->targets[r->ntargets - 1].name, name))
      return &r->targets[r->ntargets - 1];
   struct diff_runcmp_target t = {.name = name};
   VEC_PUSH(r->targets, r->ntargets, *cap, t);
   return &r->targets[r->ntargets - 1];
}

static void
add_change(struct diff_runcmp *r, size_t *cap, enum diff_runcmp_kind kind,
           const struct diff_run_case *old, const struct diff_run_case *new)
{
   const struct diff_run_case *c = new ? new : old;
   struct diff_runcmp_change ch = {.kind = kind, .shader = c->shader, .target = c->target};
   ch.old_status = old ? old->status : DIFF_STATUS_COUNT;
   ch.new_status = new ? new->status : DIFF_STATUS_COUNT;
   if (old && new && old->has_stats &&new->has_stats)
      for (unsigned k = 0; k < DIFF_STAT_COUNT; k++) {
         ch.old_stats[k] = old->stats[k];
         ch.new_stats[k] = new->stats[k];
      }
   VEC_PUSH(r->changes, r->nchanges, *cap, ch);
}

/* Pairs the cases of old and new (both sorted by target, then shader). */
void
diff_runcmp(struct diff_run *old, struct diff_run *new, struct diff_runcmp *r)
{
   memset(r, 0, sizeof(*r));
   if (old->ncases) /* qsort may not take NULL, even for no elements */
      qsort(old->cases, old->ncases, sizeof(*old->cases), case_key_cmp);
   if (new->ncases)
      qsort(new->cases, new->ncases, sizeof(*new->cases), case_key_cmp);
   size_t tcap = 0, ccap = 0, i = 0, j = 0;
   while (i < old->ncases || j < new->ncases) {
      int c = i == old->ncases   ? 1
              : j == new->ncases ? -1
                                 : case_key_cmp(&old->cases[i], &new->cases[j]);
      struct diff_run_case *o = c <= 0 ? &old->cases[i++] : NULL;
      struct diff_run_case *n = c >= 0 ? &new->cases[j++] : NULL;
      struct diff_runcmp_target *t = target_of(r, &tcap, (n ? n : o)->target);
      if (!o || !n) {
         add_change(r, &ccap, o ? DIFF_RUNCMP_GONE : DIFF_RUNCMP_ADDED, o, n);
         continue;
      }
      if (!failed(o->status) && failed(n->status))
         add_change(r, &ccap, DIFF_RUNCMP_NEW_FAILURE, o, n);
      else if (failed(o->status) && !failed(n->status))
         add_change(r, &ccap, DIFF_RUNCMP_FIXED, o, n);
      else if (o->status != DIFF_NA && n->status == DIFF_NA)
         add_change(r, &ccap, DIFF_RUNCMP_NEW_NA, o, n);
      if (o->status != DIFF_PASS || n->status != DIFF_PASS || !o->has_stats || !n->has_stats)
         continue;
      t->paired++;
      for (unsigned k = 0; k < DIFF_STAT_COUNT; k++) {
         t->old_total[k] += o->stats[k];
         t->new_total[k] += n->stats[k];
         t->helped[k] += n->stats[k] < o->stats[k];
         t->hurt[k] += n->stats[k] > o->stats[k];
      }
      if (n->stats[DIFF_STAT_INSTRUCTIONS] != o->stats[DIFF_STAT_INSTRUCTIONS])
         add_change(r, &ccap, DIFF_RUNCMP_STATS, o, n);
   }
}

void
diff_runcmp_free(struct diff_runcmp *r)
{
   free(r->targets);
   free(r->changes);
   memset(r, 0, sizeof(*r));
}
