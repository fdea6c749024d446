/*
 * ref_homes.c (TEMP channels placed by liveness) against a second
 * formulation: instead of data flow, every path through the program is
 * walked (both arms of each IF, each loop left after zero to two more
 * trips) with the owner of each register: the channel that last wrote it.
 * A read of a channel that was written on the path but whose register now
 * holds another channel is a clobber: two channels live at once were given
 * one register. So is an instruction that writes a channel into the
 * register of another channel it reads (the compilers expand TGSI channel
 * by channel, so a write may land before a later channel's read). Reads
 * are every channel a source's swizzle names, as ref_homes.c documents.
 *
 * Programs: hand-written ones that pin the two shapes colouring must not
 * merge (a value live across a loop's back edge, a value live through an
 * IF whose other arm writes a neighbour), and random structured programs
 * (MOV/ADD/MUL over 6 TEMPs, IF/ELSE, a loop left by a BRK under an IF).
 * Each must also share registers (fewer than its channels) so the test
 * has something to check.
 */
#include "compiler/ref/ref.h"
#include "util/test.h"

#include <string.h>

#define MAX_CH 64

struct walk {
   const struct tgsi_shader *s;
   const unsigned *home;
   unsigned nch;
   unsigned clobbers, paths;
   const char *what;
};

struct state {
   int owner[MAX_CH]; /* by register: the channel it holds, -1 none */
   bool defined[MAX_CH];
   int32_t loop[8]; /* open loops: their BGNLOOP */
   unsigned trips[8], nloop;
};

static unsigned
temp_chan(const struct tgsi_reg *r, unsigned ch, unsigned nch)
{
   if (r->file != TGSI_FILE_TEMP || r->indirect || r->index < 0 ||
       (unsigned)r->index * 4 + ch >= nch)
      return nch;
   return (unsigned)r->index * 4 + ch;
}

static void
clobber(struct walk *w, const struct tgsi_insn *in, unsigned v, const char *how)
{
   if (w->clobbers++ < 3)
      fprintf(stderr, "%s: line %d: TEMP[%u].%c %s (register %u)\n", w->what, in->loc.line, v / 4,
              "xyzw"[v % 4], how, w -> home[v]);
}

/* The reads, then the writes, of one instruction on one path. */
static void
step(struct walk *w, struct state *st, const struct tgsi_insn *in)
{
   bool rd[MAX_CH] = {false};
   for (unsigned k = 0; k < in->nsrc; k++)
      for (unsigned c = 0; c < 4; c++) {
         unsigned v = temp_chan(&in->src[k].reg, in->src[k].swz[c] & 3u, w->nch);
         if (v < w->nch)
            rd[v] = true;
      }
   for (unsigned v = 0; v < w->nch; v++)
      if (rd[v] && st->defined[v] && st->owner[w->home[v]] != (int)v)
         clobber(w, in, v, "read after another channel took its register");
   if (!in->ndst)
      return;
   for (unsigned c = 0; c < 4; c++) {
      unsigned d = temp_chan(&in->dst[0].reg, c, w->nch);
      if (d >= w->nch || !(in->dst[0].mask & (1u << c)))
         continue;
      for (unsigned v = 0; v < w->nch; v++)
         if (rd[v] && v != d && st->defined[v] && w->home[v] == w->home[d])
            clobber(w, in, v, "read by an instruction writing its register");
      st->owner[w->home[d]] = (int)d;
      st->defined[d] = true;
   }
}

/* Every path from pc to END (a continuation: forks copy the state). */
static void
run(struct walk *w, int32_t pc, struct state st)
{
   const struct tgsi_shader *s = w->s;
   while (pc >= 0 && (uint32_t)pc < s->ninsns && w->paths < 100000) {
      const struct tgsi_insn *in = &s->insns[pc];
      step(w, &st, in);
      switch (in->op) {
      case TGSI_OP_IF:
      case TGSI_OP_UIF:
         run(w, pc + 1, st);  /* then */
         pc = in->target + 1; /* the else part, or after the ENDIF */
         continue;
      case TGSI_OP_ELSE: /* the end of the then part */
         pc = in->target + 1;
         continue;
      case TGSI_OP_BGNLOOP:
         if (st.nloop == 8)
            return;
         st.loop[st.nloop] = pc;
         st.trips[st.nloop++] = 0;
         break;
      case TGSI_OP_ENDLOOP:
         if (!st.nloop || ++st.trips[st.nloop - 1] > 2)
            return; /* the paths leaving earlier cover the rest */
         pc = st.loop[st.nloop - 1] + 1;
         continue;
      case TGSI_OP_BRK:
         if (!st.nloop)
            return;
         pc = s->insns[st.loop[--st.nloop]].target + 1;
         continue;
      case TGSI_OP_END:
         w->paths++;
         return;
      default:
         break;
      }
      pc++;
   }
   w->paths++;
}

/* Places the shader's TEMPs by liveness and walks its paths; returns the
 * registers used (0 if the shader did not parse or was not placed). */
static unsigned
check_shader(const char *text, const char *what)
{
   struct diag_list d = {0};
   struct tgsi_shader *s = tgsi_parse(text, strlen(text), what, NULL, &d);
   CHECKF(s != NULL, "%s parses: %s", what, diag_first_error(&d));
   diag_clear(&d);
   if (!s)
      return 0;
   struct ref_ctx c;
   memset(&c, 0, sizeof(c));
   c.s = s;
   for (unsigned i = 0; i < s->ndecls; i++)
      if (s->decls[i].file == TGSI_FILE_TEMP)
         c.count[TGSI_FILE_TEMP] = MAX2(c.count[TGSI_FILE_TEMP], s->decls[i].last + 1);
   unsigned nch = c.count[TGSI_FILE_TEMP] * 4, used = ref_temp_homes(&c, 0, MAX_CH);
   CHECKF(c.temp_home && nch <= MAX_CH, "%s: %u channels placed", what, nch);
   if (c.temp_home && nch <= MAX_CH) {
      struct walk w = {.s = s, .home = c.temp_home, .nch = nch, .what = what};
      struct state st;
      memset(&st, 0, sizeof(st));
      for (unsigned r = 0; r < MAX_CH; r++)
         st.owner[r] = -1;
      run(&w, 0, st);
      CHECKF(w.clobbers == 0, "%s: %u clobbered reads over %u paths", what, w.clobbers, w.paths);
      CHECKF(w.paths > 0, "%s: paths walked", what);
   } else {
      used = 0;
   }
   free(c.temp_home);
   tgsi_shader_free(s);
   return used;
}

static const char head[] = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
                           "DCL TEMP[0..5], LOCAL\nIMM[0] FLT32 { 0.5, 1.0, 2.0, -1.0}\n";

/* TEMP[0].x is live around the loop only through its back edge (read at
 * the top, not after the loop) while TEMP[2].x is written at the bottom;
 * TEMP[2].x is then live through the IF whose then arm writes TEMP[3].x
 * and whose else arm reads TEMP[2]. */
static void
test_pinned(void)
{
   char *t = xasprintf("%s"
                       "MOV TEMP[0].x, IN[0].xxxx\n"
                       "BGNLOOP\n"
                       "  ADD TEMP[1].x, TEMP[0].xxxx, IMM[0].xxxx\n"
                       "  IF TEMP[1].xxxx\n"
                       "    BRK\n"
                       "  ENDIF\n"
                       "  MUL TEMP[2].x, TEMP[1].xxxx, IMM[0].wwww\n"
                       "  ADD TEMP[3].x, TEMP[2].xxxx, IMM[0].yyyy\n"
                       "ENDLOOP\n"
                       "MOV TEMP[2].x, IN[0].yyyy\n"
                       "IF TEMP[1].xxxx\n"
                       "  MOV TEMP[3].x, IN[0].zzzz\n"
                       "  ADD TEMP[4].x, TEMP[3].xxxx, TEMP[3].xxxx\n"
                       "ELSE\n"
                       "  MOV TEMP[4].x, TEMP[2].xxxx\n"
                       "ENDIF\n"
                       "ADD TEMP[5].x, TEMP[4].xxxx, TEMP[2].xxxx\n"
                       "MOV OUT[0], TEMP[5].xxxx\nEND\n",
                       head);
   unsigned used = check_shader(t, "pinned");
   CHECKF(used >= 2 && used < 6, "pinned: %u registers for 6 channels", used);
   free(t);
}

/* A random structured program over TEMP[0..5] (24 channels). */
static char *
random_program(struct rng *r)
{
   size_t cap = 8192, n = 0;
   char *b = xmalloc(cap);
   n += (size_t)snprintf(b + n, cap - n, "%s", head);
   unsigned depth = 0, loops = 0, nstmt = 12 + rng_below(r, 20);
   bool open_else[4] = {false}, is_loop[4] = {false};
   for (unsigned i = 0; i < nstmt && n + 200 < cap; i++) {
      unsigned k = rng_below(r, 10);
      static const char *const sw[] = {"xxxx", "yyyy", "zzzz", "wwww", "xyzw", "wzyx", "yxwz"};
      static const char *const mask[] = {".x", ".y", ".z", ".w", ".xy", ".zw", ".xyz", ""};
      if (k == 0 && depth < 3) {
         n += (size_t)snprintf(b + n, cap - n, "IF TEMP[%u].%c%c%c%c\n", rng_below(r, 6),
                               "xyzw"[rng_below(r, 4)], 'x', 'x', 'x');
         open_else[depth] = false;
         is_loop[depth++] = false;
      } else if (k == 1 && depth < 3 && !loops) {
         n += (size_t)snprintf(b + n, cap - n, "BGNLOOP\nIF TEMP[%u].xxxx\nBRK\nENDIF\n",
                               rng_below(r, 6));
         loops++;
         is_loop[depth++] = true;
      } else if (k == 2 && depth) {
         depth--;
         if (is_loop[depth]) {
            n += (size_t)snprintf(b + n, cap - n, "ENDLOOP\n");
         } else if (!open_else[depth] && rng_below(r, 2)) {
            n += (size_t)snprintf(b + n, cap - n, "ELSE\n");
            open_else[depth++] = true;
         } else {
            n += (size_t)snprintf(b + n, cap - n, "ENDIF\n");
         }
      } else {
         const char *op = k < 5 ? "MOV" : k < 8 ? "ADD" : "MUL";
         n += (size_t)snprintf(b + n, cap - n, "%s TEMP[%u]%s, ", op, rng_below(r, 6),
                               mask[rng_below(r, 8)]);
         for (unsigned a = 0; a < (k < 5 ? 1u : 2u); a++) {
            unsigned f = rng_below(r, 4);
            n += (size_t)snprintf(b + n, cap - n, "%s%s[%u].%s", a ? ", " : "", f ? "TEMP" : "IN",
                                  f ? rng_below(r, 6) : 0, sw[rng_below(r, 7)]);
         }
         n += (size_t)snprintf(b + n, cap - n, "\n");
      }
   }
   while (depth--)
      n += (size_t)snprintf(b + n, cap - n, "%s\n", is_loop[depth] ? "ENDLOOP" : "ENDIF");
   snprintf(b + n, cap - n,
            "MOV OUT[0], TEMP[%u]\nADD OUT[0].x, TEMP[%u].xxxx, TEMP[%u].yyyy\nEND\n",
            rng_below(r, 6), rng_below(r, 6), rng_below(r, 6));
   return b;
}

static void
test_random(void)
{
   struct rng r;
   rng_seed(&r, 18);
   unsigned shared = 0, n = test_reps(300);
   for (unsigned i = 0; i < n; i++) {
      char *t = random_program(&r), name[32];
      snprintf(name, sizeof(name), "random %u", i);
      unsigned used = check_shader(t, name);
      shared += used && used < 24;
      if (test_failed) {
         fprintf(stderr, "%s", t);
         free(t);
         return;
      }
      free(t);
   }
   CHECKF(shared * 2 > n, "%u of %u random programs share registers", shared, n);
}

int
main(void)
{
   test_pinned();
   test_random();
   return test_done();
}
