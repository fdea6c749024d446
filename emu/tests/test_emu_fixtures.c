/*
 * The assembly fixtures fixtures/emu/MODEL/NAME.s: each names, in its
 * header comment, what running it (seed 1) must give:
 *
 *   ; expect: KIND [pc=0xN] [reg=NAME] [producer=0xN] [early=N]
 *                          one per event, in order; "; expect: clean" = none
 *   ; cycles: N            the longest wave's cycle count
 *   ; stalls: N            stall cycles
 *   ; nop_cycles: N        issue slots spent in nops ("; nops: N", the old
 *                          spelling, is read too)
 *   ; out: N.c lane L = 0xBITS    OUT[N].c of lane L, exactly
 *   ; env: NAME=N          an env event count (BUFFER_OOB, ...)
 *   ; status: ok|fault|budget
 *   ; killed: L[,L...]     exactly these lanes killed
 *   ; max-cycles: N        the run's budget
 *
 * Every file X.s that expects an event must have a partner X_ok.s that
 * runs clean: the hazard and its correction side by side.
 */
#include "emu/tests/emu_test_util.h"

#include <dirent.h>
#include <limits.h>

struct expect_ev {
   char kind[16], reg[16];
   long long pc, producer, early;
};

struct expect {
   struct expect_ev ev[16];
   unsigned nev;
   bool clean, any;
   long long cycles, stalls, nops, max_cycles;
   struct {
      unsigned out, chan, lane;
      uint32_t bits;
   } out[16];
   unsigned nout;
   struct {
      char name[24];
      unsigned long long n;
   } env[8];
   unsigned nenv;
   char status[16];
   int killed[64];
   int nkilled; /* -1: not checked */
};

static void
parse_event(const char *line, struct expect_ev *e)
{
   char s[256]; /* this line only: the next expect line has the same keys */
   snprintf(s, sizeof(s), "%.*s", (int)strcspn(line, "\n"), line);
   memset(e, 0, sizeof(*e));
   e->pc = e->producer = e->early = LLONG_MIN;
   sscanf(s, "%15s", e->kind);
   for (const char *p = strchr(s, ' '); p; p = strchr(p + 1, ' ')) {
      if (!strncmp(p + 1, "pc=", 3))
         e->pc = strtoll(p + 4, NULL, 0);
      else if (!strncmp(p + 1, "producer=", 9))
         e->producer = strtoll(p + 10, NULL, 0);
      else if (!strncmp(p + 1, "early=", 6))
         e->early = strtoll(p + 7, NULL, 0);
      else if (!strncmp(p + 1, "reg=", 4))
         sscanf(p + 5, "%15s", e->reg);
   }
}

static void
parse_header(const char *text, struct expect *x)
{
   memset(x, 0, sizeof(*x));
   x->cycles = x->stalls = x->nops = -1;
   x->nkilled = -1;
   for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
      if (*l != ';')
         continue;
      const char *v;
      if ((v = strstr(l, "; expect: ")) == l) {
         v += 10;
         if (!strncmp(v, "clean", 5))
            x->clean = true;
         else if (x->nev < 16)
            parse_event(v, &x->ev[x->nev++]);
         x->any = true;
      } else if (sscanf(l, "; cycles: %lld", &x->cycles) == 1) {
      } else if (sscanf(l, "; stalls: %lld", &x->stalls) == 1) {
      } else if (sscanf(l, "; nop_cycles: %lld", &x->nops) == 1 ||
                 sscanf(l, "; nops: %lld", &x->nops) == 1) {
      } else if (sscanf(l, "; max-cycles: %lld", &x->max_cycles) == 1) {
      } else if (!strncmp(l, "; out: ", 7) && x->nout < 16) {
         char c;
         unsigned o, lane, bits;
         if (sscanf(l + 7, "%u.%c lane %u = %x", &o, &c, &lane, &bits) == 4) {
            x->out[x->nout].out = o;
            x->out[x->nout].chan = (unsigned)(strchr("xyzw", c) - "xyzw");
            x->out[x->nout].lane = lane;
            x->out[x->nout].bits = bits;
            x->nout++;
         }
      } else if (!strncmp(l, "; env: ", 7) && x->nenv < 8) {
         if (sscanf(l + 7, "%23[A-Z_]=%llu", x->env[x->nenv].name, &x->env[x->nenv].n) == 2)
            x->nenv++;
      } else if (!strncmp(l, "; status: ", 10)) {
         sscanf(l + 10, "%15s", x->status);
      } else if (!strncmp(l, "; killed: ", 10)) {
         x->nkilled = 0;
         for (const char *p = l + 10; *p && *p != '\n' && x->nkilled < 64;) {
            char *end;
            long k = strtol(p, &end, 10);
            if (end == p)
               break;
            x->killed[x->nkilled++] = (int)k;
            p = *end == ',' ? end + 1 : end;
         }
      }
   }
}

static bool
event_matches(const struct isa_model *m, const struct emu_event *e, const struct expect_ev *x)
{
   if (strcmp(emu_event_names[e->kind], x->kind))
      return false;
   if (x->pc != LLONG_MIN && (long long)e->pc != x->pc)
      return false;
   if (x->producer != LLONG_MIN && (long long)e->producer_pc != x->producer)
      return false;
   if (x->early != LLONG_MIN && (long long)e->early != x->early)
      return false;
   if (x->reg[0]) {
      char reg[32];
      if (e->file == 0xff)
         return false;
      isa_reg_text(m, e->file, e->index, reg, sizeof(reg));
      if (strcmp(reg, x->reg))
         return false;
   }
   return true;
}

static void
print_events(const struct isa_model *m, const struct emu_result *r)
{
   for (unsigned i = 0; i < r->nevents; i++) {
      const struct emu_event *e = &r->events[i];
      char reg[32] = "-";
      if (e->file != 0xff)
         isa_reg_text(m, e->file, e->index, reg, sizeof(reg));
      fprintf(stderr, "    got: %s pc=0x%x reg=%s producer=0x%x early=%d\n",
              emu_event_names[e->kind], e->pc, reg, e->producer_pc, e->early);
   }
}

static void
check_run(const struct isa_model *m, const char *path, const struct expect *x,
          const struct fix_run *r)
{
   bool ok = r->res.nevents == x->nev;
   for (unsigned i = 0; ok && i < x->nev; i++)
      ok = event_matches(m, &r->res.events[i], &x->ev[i]);
   CHECKF(ok, "%s: events differ from the header (%u expected)", path, x->nev);
   if (!ok)
      print_events(m, &r->res);
   if (x->cycles >= 0)
      CHECKF((long long)r->res.cycles == x->cycles, "%s: %llu cycles, header says %lld", path,
             (unsigned long long)r->res.cycles, x->cycles);
   if (x->stalls >= 0)
      CHECKF((long long)r->res.stall_cycles == x->stalls, "%s: %llu stall cycles, header says %lld",
             path, (unsigned long long)r->res.stall_cycles, x->stalls);
   if (x->nops >= 0)
      CHECKF((long long)r->res.nops == x->nops, "%s: %llu nops, header says %lld", path,
             (unsigned long long)r->res.nops, x->nops);
   for (unsigned i = 0; i < x->nout; i++) {
      uint32_t v = fix_out(r, x->out[i].out, x->out[i].chan, x->out[i].lane);
      CHECKF(v == x->out[i].bits, "%s: OUT[%u].%c lane %u = 0x%08x, header says 0x%08x", path,
             x->out[i].out, "xyzw"[x->out[i].chan], x -> out[i].lane, v, x->out[i].bits);
   }
   for (unsigned i = 0; i < x->nenv; i++) {
      int k = -1;
      for (unsigned j = 0; j < ENV_EV_COUNT; j++)
         if (!strcmp(env_event_names[j], x->env[i].name))
            k = (int)j;
      CHECKF(k >= 0 && r->env->events[k] == x->env[i].n, "%s: env %s = %llu, header says %llu",
             path, x->env[i].name, k >= 0 ? (unsigned long long)r->env->events[k] : 0ull,
             x->env[i].n);
   }
   const char *st = r->st == EMU_OK ? "ok" : r->st == EMU_FAULT ? "fault" : "budget";
   CHECKF(!strcmp(st, x->status[0] ? x->status : "ok"), "%s: status %s, header says %s", path, st,
          x->status[0] ? x->status : "ok");
   if (x->nkilled >= 0) {
      int n = 0;
      bool same = true;
      for (uint32_t l = 0; l < r->env->nlanes; l++)
         if (r->env->killed[l]) {
            same &= n < x->nkilled && x->killed[n] == (int)l;
            n++;
         }
      CHECKF(same && n == x->nkilled, "%s: killed lanes differ", path);
   }
}

static void
run_fixture(const struct isa_model *m, const char *dir, const char *name)
{
   char *path = xasprintf("%s/%s", dir, name), *text, *err;
   size_t len;
   if (!read_file(path, &text, &len, &err)) {
      CHECKF(false, "%s: %s", path, err);
      free(err);
      free(path);
      return;
   }
   struct expect x;
   parse_header(text, &x);
   CHECKF(x.any, "%s: no '; expect:' line", path);
   CHECKF(x.clean == (x.nev == 0), "%s: 'expect: clean' and events both, or neither", path);
   struct emu_options o = {.max_cycles = (uint64_t)(x.max_cycles > 0 ? x.max_cycles : 0)};
   struct fix_run r;
   bool ran = fix_run_text(m, text, path, 1, 0, &o, &r);
   CHECKF(ran, "%s: did not run", path);
   if (ran)
      check_run(m, path, &x, &r);
   else
      fix_print_diags(&r.d);
   /* A hazard fixture has its corrected partner. */
   size_t nl = strlen(name);
   if (x.nev && !(nl > 5 && !strcmp(name + nl - 5, "_ok.s")) &&
       (!x.status[0] || !strcmp(x.status, "ok"))) {
      char *ok = xasprintf("%s/%.*s_ok.s", dir, (int)(nl - 2), name);
      char *t2 = NULL, *e2 = NULL;
      size_t l2;
      CHECKF(read_file(ok, &t2, &l2, &e2), "%s: no corrected partner %s", path, ok);
      free(e2);
      free(t2);
      free(ok);
   }
   fix_free(&r);
   free(text);
   free(path);
}

static int
cmp_str(const void *a, const void *b)
{
   return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The fixtures in fixtures/emu/SUB (SUB: the model's name unless given). */
static void
run_model_dir(const char *model, const char *sub)
{
   struct diag_list d = {0};
   struct isa_model *m = NULL;
   CHECKF(isa_open(model, &m, &d) == ISA_ERR_OK, "model %s", model);
   diag_clear(&d);
   char *dir = xasprintf("fixtures/emu/%s", sub ? sub : model);
   DIR *dd = opendir(dir);
   char **names = NULL;
   unsigned n = 0, cap = 0;
   for (struct dirent *de; dd && (de = readdir(dd));) {
      size_t l = strlen(de->d_name);
      if (l > 2 && !strcmp(de->d_name + l - 2, ".s")) {
         char *s = xstrdup(de->d_name);
         VEC_PUSH(names, n, cap, s);
      }
   }
   if (dd)
      closedir(dd);
   CHECKF(n > 0, "no fixtures in %s", dir);
   if (n)
      qsort(names, n, sizeof(*names), cmp_str);
   for (unsigned i = 0; i < n && m; i++)
      run_fixture(m, dir, names[i]);
   for (unsigned i = 0; i < n; i++)
      free(names[i]);
   free(names);
   free(dir);
   isa_close(m);
}

static void
run_model(const char *model)
{
   run_model_dir(model, NULL);
}

int
main(void)
{
   run_model("a3xx");
   run_model("sm50");
   run_model("gfx9");
   run_model_dir("agx", "agx_discard"); /* the headed agx fixtures */
   return test_done();
}
