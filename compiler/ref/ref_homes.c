/*
 * TGSI temporaries placed by liveness, for shaders whose fixed homes (one
 * full register per TEMP channel for the whole program, ref.c) do not
 * fit the model's file. Two TEMP channels share a register unless they
 * interfere: both live at one point, or one written where the other is
 * live after, or one read and the other written by the same instruction.
 * Registers are handed out first fit, in order of first reference.
 *
 * Liveness is the classic backward data flow over steps: the
 * instructions in the order ref.c lays the program out, main up to END
 * with each CAL's subroutine body walked in place (ref.c inlines it), so
 * a body's locals live at each call apart. Edges: the next step; IF/UIF
 * to after its ELSE (or to its ENDIF); ELSE to the ENDIF; ENDLOOP back to
 * after its BGNLOOP; BRK past the innermost ENDLOOP or ENDSWITCH; CONT to
 * the ENDLOOP; SWITCH to each CASE and DEFAULT and past ENDSWITCH; RET
 * past the call's last step (in main: the end). A write of a channel
 * kills it (the lane's value is replaced); reads count every channel a
 * source's swizzle names (a superset of what the opcode reads). This is
 * exact per lane, which is what registers are: a masked-off lane keeps
 * its register, and a lane that reaches a read along a path that did not
 * write the channel reads an undefined TEMP (TEMP starts undefined in the
 * golden interpreter), a value that is not compared.
 *
 * A TEMP addressed indirectly (whose index may name any of them, and
 * whose relative reads need the fixed layout), or a program too large
 * for the bitsets, keeps the fixed homes (the shader is refused).
 */
#include "compiler/ref/ref.h"

#include <stdlib.h>
#include <string.h>

#define STEP_MAX       (1u << 20) /* steps walked */
#define STEP_WORDS_MAX (1u << 21) /* 64-bit words of the per-step live sets */
#define NREF_MAX       2048u      /* referenced channels of the interference matrix */

struct step {
   const struct tgsi_insn *in;
   int succ[2];       /* next steps, -1 none; succ[0] is set after the walk */
   unsigned call_end; /* RET: the step after the call's body */
};

struct hw {
   const struct tgsi_shader *s;
   unsigned n; /* TEMP channels */
   struct step *st;
   unsigned nst, st_cap;
   int *ref; /* by channel: dense index among the referenced, or -1 */
   unsigned nref;
   bool all_apart;
};

static void
mark_ref(struct hw *h, unsigned v)
{
   if (h->ref[v] < 0)
      h->ref[v] = (int)h->nref++;
}

/* Calls f(h, channel, write, arg) for each TEMP channel in references. */
typedef void (*chan_fn)(struct hw *h, unsigned v, bool write, void *arg);

static void
reg_chans(struct hw *h, const struct tgsi_reg *r, unsigned m, bool write, chan_fn f, void *arg)
{
   if (r->indirect && r->ind.file == TGSI_FILE_TEMP && r->ind.index < h->n / 4)
      f(h, r->ind.index * 4 + (r->ind.comp & 3u), false, arg);
   if (r->dim_indirect && r->dim_ind.file == TGSI_FILE_TEMP && r->dim_ind.index < h->n / 4)
      f(h, r->dim_ind.index * 4 + (r->dim_ind.comp & 3u), false, arg);
   if (r->file != TGSI_FILE_TEMP)
      return;
   if (r->indirect) {
      h->all_apart = true;
      return;
   }
   if (r->index < 0 || (unsigned)r->index >= h->n / 4)
      return;
   for (unsigned ch = 0; ch < 4; ch++)
      if (m & (1u << ch))
         f(h, (unsigned)r->index * 4 + ch, write, arg);
}

static void
insn_chans(struct hw *h, const struct tgsi_insn *in, chan_fn f, void *arg)
{
   for (unsigned k = 0; k < in->nsrc; k++) {
      unsigned m = 0;
      for (unsigned ch = 0; ch < 4; ch++)
         m |= 1u << (in->src[k].swz[ch] & 3u);
      reg_chans(h, &in->src[k].reg, m, false, f, arg);
   }
   for (unsigned k = 0; k < in->noffsets; k++)
      reg_chans(h, &in->offsets[k].reg, 0xf, false, f, arg);
   if (in->ndst)
      reg_chans(h, &in->dst[0].reg, in->dst[0].mask, true, f, arg);
}

static void
note_ref(struct hw *h, unsigned v, bool write, void *arg)
{
   (void)write;
   (void)arg;
   mark_ref(h, v);
}

/* Steps of [first, end) at inlining depth `depth`; a CAL's body follows it. */
static void
walk(struct hw *h, int32_t first, int32_t end, unsigned depth)
{
   for (int32_t i = first; i < end && !h->all_apart; i++) {
      const struct tgsi_insn *in = &h->s->insns[i];
      if (h->nst >= STEP_MAX) {
         h->all_apart = true;
         return;
      }
      struct step st = {in, {-1, -1}, 0};
      VEC_PUSH(h->st, h->nst, h->st_cap, st);
      insn_chans(h, in, note_ref, NULL);
      if (in->op == TGSI_OP_CAL && depth < REF_MAX_INLINE && in->target >= 0 &&
          (uint32_t)in->target < h->s->ninsns && h->s->insns[in->target].op == TGSI_OP_BGNSUB) {
         int32_t b = in->target + 1, e = b;
         while (e < (int32_t)h->s->ninsns && h->s->insns[e].op != TGSI_OP_ENDSUB)
            e++;
         unsigned from = h->nst;
         walk(h, b, e, depth + 1);
         for (unsigned k = from; k < h->nst; k++)
            if (h->st[k].in->op == TGSI_OP_RET && !h->st[k].call_end)
               h->st[k].call_end = h->nst;
      }
   }
}

static bool
is_if(const struct step *st)
{
   return st->in->op == TGSI_OP_IF || st->in->op == TGSI_OP_UIF;
}

/* A construct ends at step s (ENDIF, ENDLOOP, ENDSWITCH) and o opened it
 * (IF, ELSE, BGNLOOP, SWITCH): its branches, and the BRK/CONT inside that
 * leave it. */
static void
close_construct(struct hw *h, unsigned o, unsigned s, unsigned last_case)
{
   struct step *st = &h->st[s];
   enum tgsi_opcode op = st->in->op;
   if (op == TGSI_OP_ENDLOOP)
      st->succ[0] = (int)o + 1; /* the back edge; the loop is left by BRK */
   else if (op == TGSI_OP_ENDSWITCH)
      h->st[last_case].succ[1] = (int)s; /* no case matched */
   else if (h->st[o].in->op == TGSI_OP_ELSE)
      h->st[o].succ[0] = (int)s; /* the end of the THEN part jumps over the ELSE part */
   else
      h->st[o].succ[1] = (int)s; /* IF without ELSE */
   if (op == TGSI_OP_ENDIF)
      return;
   for (unsigned k = o + 1; k < s; k++) {
      struct step *b = &h->st[k];
      if (b->succ[1] != -2)
         continue;
      if (b->in->op == TGSI_OP_BRK) {
         b->succ[0] = (int)s + 1;
         b->succ[1] = -1;
      } else if (op == TGSI_OP_ENDLOOP) { /* CONT */
         b->succ[0] = (int)s;
         b->succ[1] = -1;
      }
   }
}

/* The edges of the structured flow (a stack of open constructs). */
static void
edges(struct hw *h)
{
   unsigned open[REF_MAX_CF], last_case[REF_MAX_CF];
   unsigned nopen = 0;
   for (unsigned s = 0; s < h->nst; s++) {
      struct step *st = &h->st[s];
      enum tgsi_opcode op = st->in->op;
      st->succ[0] = (int)s + 1;
      if (op == TGSI_OP_BRK || op == TGSI_OP_CONT)
         st->succ[1] = -2; /* resolved where the innermost loop (or switch) ends */
      if (op == TGSI_OP_RET || op == TGSI_OP_END)
         st->succ[0] = st->call_end ? (int)st->call_end : (int)h->nst;
      switch (op) {
      case TGSI_OP_IF:
      case TGSI_OP_UIF:
      case TGSI_OP_BGNLOOP:
      case TGSI_OP_SWITCH:
         if (nopen == REF_MAX_CF) {
            h->all_apart = true;
            return;
         }
         last_case[nopen] = s;
         open[nopen++] = s;
         break;
      case TGSI_OP_ELSE:
         if (nopen && is_if(&h->st[open[nopen - 1]])) {
            h->st[open[nopen - 1]].succ[1] = (int)s + 1;
            open[nopen - 1] = s; /* the ENDIF closes the ELSE part */
         }
         break;
      case TGSI_OP_CASE:
      case TGSI_OP_DEFAULT: /* the dispatch goes from case to case */
         if (nopen && h->st[open[nopen - 1]].in->op == TGSI_OP_SWITCH) {
            h->st[last_case[nopen - 1]].succ[1] = (int)s;
            last_case[nopen - 1] = s;
         }
         break;
      case TGSI_OP_ENDIF:
      case TGSI_OP_ENDLOOP:
      case TGSI_OP_ENDSWITCH:
         if (nopen) {
            nopen--;
            close_construct(h, open[nopen], s, last_case[nopen]);
         }
         break;
      default:
         break;
      }
   }
   for (unsigned s = 0; s < h->nst; s++)
      if (h->st[s].succ[1] == -2) /* unmatched (ref.c refuses the shader) */
         h->st[s].succ[1] = -1;
}

struct uses {
   uint64_t *use, *def;
   const int *ref;
};

static void
note_use(struct hw *h, unsigned v, bool write, void *arg)
{
   struct uses *u = arg;
   int i = h->ref[v];
   if (i >= 0)
      (write ? u->def : u->use)[(unsigned)i / 64] |= (uint64_t)1 << ((unsigned)i % 64);
}

/* live[s] = channels live into step s, to a fixed point (backward). */
static void
liveness(struct hw *h, uint64_t *live, unsigned words, uint64_t *use, uint64_t *def, uint64_t *out)
{
   struct uses u = {use, def, h->ref};
   for (bool changed = true; changed;) {
      changed = false;
      for (unsigned s = h->nst; s-- > 0;) {
         const struct step *st = &h->st[s];
         memset(out, 0, words * sizeof(uint64_t));
         for (unsigned k = 0; k < 2; k++)
            if (st->succ[k] >= 0 && (unsigned)st->succ[k] < h->nst)
               for (unsigned w = 0; w < words; w++)
                  out[w] |= live[(size_t)st->succ[k] * words + w];
         memset(use, 0, words * sizeof(uint64_t));
         memset(def, 0, words * sizeof(uint64_t));
         insn_chans(h, st->in, note_use, &u);
         uint64_t *in = &live[(size_t)s * words];
         for (unsigned w = 0; w < words; w++) {
            uint64_t v = use[w] | (out[w] & ~def[w]);
            changed |= v != in[w];
            in[w] = v;
         }
      }
   }
}

static void
or_row(uint64_t *row, const uint64_t *set, unsigned words)
{
   for (unsigned w = 0; w < words; w++)
      row[w] |= set[w];
}

static bool
has(const uint64_t *set, unsigned i)
{
   return (set[i / 64] >> (i % 64)) & 1;
}

/* The interference rows (nref x words): live together into a step, a
 * write with what is live after it, a read with a write of one step. */
static void
interfere(struct hw *h, const uint64_t *live, unsigned words, uint64_t *rows, uint64_t *use,
          uint64_t *def, uint64_t *out)
{
   struct uses u = {use, def, h->ref};
   for (unsigned s = 0; s < h->nst; s++) {
      const struct step *st = &h->st[s];
      const uint64_t *in = &live[(size_t)s * words];
      memset(out, 0, words * sizeof(uint64_t));
      for (unsigned k = 0; k < 2; k++)
         if (st->succ[k] >= 0 && (unsigned)st->succ[k] < h->nst)
            or_row(out, &live[(size_t)st->succ[k] * words], words);
      memset(use, 0, words * sizeof(uint64_t));
      memset(def, 0, words * sizeof(uint64_t));
      insn_chans(h, st->in, note_use, &u);
      for (unsigned i = 0; i < h->nref; i++) {
         if (has(in, i))
            or_row(&rows[(size_t)i * words], in, words);
         if (has(def, i)) {
            or_row(&rows[(size_t)i * words], out, words);
            or_row(&rows[(size_t)i * words], use, words);
            or_row(&rows[(size_t)i * words], def, words);
         }
      }
   }
   for (unsigned i = 0; i < h->nref; i++) /* symmetric */
      for (unsigned j = 0; j < h->nref; j++)
         if (has(&rows[(size_t)i * words], j))
            rows[(size_t)j * words + i / 64] |= (uint64_t)1 << (i % 64);
}

/* Colours in order of first reference, each the lowest no earlier
 * neighbour has; returns the colours used. */
static unsigned
colour(const struct hw *h, const uint64_t *rows, unsigned words, unsigned *col, unsigned max)
{
   bool *taken = xmalloc(h->nref + 1);
   unsigned ncol = 0;
   for (unsigned i = 0; i < h->nref && ncol <= max; i++) {
      memset(taken, 0, h->nref + 1);
      for (unsigned j = 0; j < i; j++)
         if (has(&rows[(size_t)i * words], j))
            taken[col[j]] = true;
      unsigned c = 0;
      while (taken[c])
         c++;
      col[i] = c;
      ncol = MAX2(ncol, c + 1);
   }
   free(taken);
   return ncol;
}

unsigned
ref_temp_homes(struct ref_ctx *c, unsigned first, unsigned max)
{
   const struct tgsi_shader *s = c->s;
   struct hw h = {.s = s, .n = c->count[TGSI_FILE_TEMP] * 4};
   h.ref = xmalloc((h.n + 1) * sizeof(int));
   for (unsigned v = 0; v < h.n; v++)
      h.ref[v] = -1;
   int32_t main_end = 0;
   while (main_end < (int32_t)s->ninsns && s->insns[main_end].op != TGSI_OP_END &&
          s->insns[main_end].op != TGSI_OP_BGNSUB)
      main_end++;
   walk(&h, 0, main_end, 0);
   edges(&h);
   unsigned words = (h.nref + 63) / 64 + 1;
   if (h.nref > NREF_MAX || (size_t)h.nst * words > STEP_WORDS_MAX)
      h.all_apart = true;
   free(c->temp_home);
   c->temp_home = NULL;
   if (h.all_apart) { /* the fixed homes (an indirect TEMP needs their layout) */
      free(h.ref);
      free(h.st);
      return max + 1;
   }
   unsigned *col = xcalloc(h.nref + 1, sizeof(unsigned)), ncol;
   {
      uint64_t *live = xcalloc((size_t)(h.nst + 1) * words, sizeof(uint64_t));
      uint64_t *rows = xcalloc((size_t)(h.nref + 1) * words, sizeof(uint64_t));
      uint64_t *tmp = xcalloc(3 * (size_t)words, sizeof(uint64_t));
      liveness(&h, live, words, tmp, tmp + words, tmp + 2 * words);
      interfere(&h, live, words, rows, tmp, tmp + words, tmp + 2 * words);
      ncol = colour(&h, rows, words, col, max);
      free(live);
      free(rows);
      free(tmp);
   }
   if (ncol <= max) {
      c->temp_home = xmalloc((h.n + 1) * sizeof(unsigned));
      for (unsigned v = 0; v < h.n; v++)
         c->temp_home[v] = first + (h.ref[v] >= 0 ? col[h.ref[v]] : 0);
   }
   free(col);
   free(h.ref);
   free(h.st);
   return MAX2(ncol, h.n ? 1u : 0u);
}
