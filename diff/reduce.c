/*
 * The reducer: shrinks a failing shader (and then its inputs) while a
 * predicate keeps saying the failure is still there. Delta debugging in
 * the manner of Zeller's ddmin over the instruction list, plus passes that
 * know TGSI's structure, in the manner of C-Reduce: whole control-flow
 * regions removed or unwrapped, subroutines inlined, operands replaced by
 * immediates or by earlier values, immediates, swizzles, write masks and
 * modifiers simplified, unused declarations dropped, registers renumbered.
 *
 * Invariants: r->best is always a shader that tgsi_parse produced from
 * tgsi_print text and that the predicate KEEPs. Every candidate is printed
 * and re-parsed (the parser runs the sanity rules) before the predicate
 * sees it, so whatever the passes build, the result parses and passes
 * sanity; a candidate that does not re-parse is only counted. Each pass
 * makes the shader simpler by its own measure (fewer instructions, an
 * immediate for a register, an earlier definition, a value of lower rank,
 * fewer channels, fewer modifiers), so the rounds reach a fixpoint.
 * Verdicts are cached by a hash of the printed candidate and the inputs.
 * Nothing here is random: the same input gives the same result unless the
 * time limit cuts the run short.
 */
#include "diff/diff.h"

#include <stdlib.h>
#include <time.h>

#define MAX_ROUNDS       64
#define VERDICT_REJECTED 3 /* cached: the candidate did not re-parse */

const char *const diff_reduce_status_names[DIFF_REDUCE_STATUS_COUNT] = {
#define DIFF_REDUCE_ST_(n, d) d,
    DIFF_REDUCE_STATUSES(DIFF_REDUCE_ST_)
#undef DIFF_REDUCE_ST_
};

/* ------------------------------------------------------------------ */
/* Budgets, cache, progress                                            */

static bool
out_of_budget(struct diff_reducer *r)
{
   if (r->stop)
      return true;
   const struct diff_reduce_opts *o = r->o;
   if ((o->max_tests && r->st.tests >= o->max_tests) ||
       (o->time_limit > 0 && now_seconds() - r->t0 >= o->time_limit))
      r->stop = r->st.budget_hit = true;
   return r->stop;
}

static struct diff_reduce_cache_ent *
cache_slot(struct diff_reducer *r, uint64_t key)
{
   size_t mask = r->cache_cap - 1, i = (size_t)key & mask;
   while (r->cache[i].used && r->cache[i].key != key)
      i = (i + 1) & mask;
   return &r->cache[i];
}

static void
cache_put(struct diff_reducer *r, uint64_t key, uint8_t verdict)
{
   if (2 * (r->cache_n + 1) > r->cache_cap) {
      struct diff_reduce_cache_ent *old = r->cache;
      size_t old_cap = r->cache_cap;
      r->cache_cap = old_cap ? 2 * old_cap : 1024;
      r->cache = xcalloc(r->cache_cap, sizeof(*r->cache));
      for (size_t i = 0; i < old_cap; i++)
         if (old[i].used)
            *cache_slot(r, old[i].key) = old[i];
      free(old);
   }
   struct diff_reduce_cache_ent *e = cache_slot(r, key);
   if (!e->used)
      r->cache_n++;
   *e = (struct diff_reduce_cache_ent){key, 1, verdict};
}

void
diff_reducer_report(struct diff_reducer *r)
{
   r->st.seconds = now_seconds() - r->t0;
   if (!r->o->progress)
      return;
   struct diff_reduce_progress p = {r->pass, r->best->ninsns, r->inputs->nlanes, &r->st};
   r->o->progress(r->o->progress_user, &p);
}

/* The verdict on (text, e), parsing text unless s is given. On KEEP with
 * s == NULL, *parsed receives the parsed candidate. */
static enum diff_reduce_verdict
test_text(struct diff_reducer *r, const char *text, const struct tgsi_shader *s,
          const struct env *e, uint64_t ehash, struct tgsi_shader **parsed)
{
   size_t len = strlen(text);
   uint64_t key = hash64(text, len, ehash);
   struct diff_reduce_cache_ent *c = r->cache_cap ? cache_slot(r, key) : NULL;
   if (c && c->used) {
      r->st.cache_hits++;
      /* A KEEP is never cached: the best only moves to simpler shaders. */
      return c->verdict == VERDICT_REJECTED ? DIFF_REDUCE_INVALID : c->verdict;
   }
   if (out_of_budget(r))
      return DIFF_REDUCE_DISCARD;
   struct tgsi_shader *own = NULL;
   if (!s) {
      own = tgsi_parse(text, len, r->best->name, &r->o->popts, NULL);
      if (!own) {
         r->st.rejected++;
         cache_put(r, key, VERDICT_REJECTED);
         return DIFF_REDUCE_INVALID;
      }
      s = own;
   }
   enum diff_reduce_verdict v = r->o->still_fails(s, e, r->o->user);
   r->st.tests++;
   if (v == DIFF_REDUCE_KEEP) {
      r->st.keeps++;
   } else {
      v == DIFF_REDUCE_INVALID ? r->st.invalid++ : r->st.discards++;
      cache_put(r, key, (uint8_t)v);
   }
   if (v == DIFF_REDUCE_KEEP && parsed)
      *parsed = own;
   else
      tgsi_shader_free(own);
   return v;
}

enum diff_reduce_verdict
diff_reducer_test(struct diff_reducer *r, const struct tgsi_shader *s, const char *text,
                  const struct env *e)
{
   uint64_t ehash = e == r->inputs ? r->inputs_hash : diff_env_hash(e);
   return test_text(r, text, s, e, ehash, NULL);
}

/* Labels other than CAL's are informative and go stale as instructions
 * move, so candidates drop them. */
static void
drop_labels(struct tgsi_shader *s)
{
   for (unsigned i = 0; i < s->ninsns; i++)
      if (s->insns[i].op != TGSI_OP_CAL) {
         s->insns[i].has_label = false;
         s->insns[i].label = 0;
      }
}

/* Tries cand (consumed) on the best inputs; on KEEP it becomes the best. */
static bool
try_shader(struct diff_reducer *r, struct tgsi_shader *cand)
{
   if (!cand || r->stop) {
      tgsi_shader_free(cand);
      return false;
   }
   drop_labels(cand);
   char *text = tgsi_print(cand);
   tgsi_shader_free(cand);
   /* A pass that changed nothing in the text made no progress. */
   uint64_t h = hash64(text, strlen(text), 0);
   struct tgsi_shader *p = NULL;
   enum diff_reduce_verdict v = DIFF_REDUCE_DISCARD;
   if (h != r->best_hash)
      v = test_text(r, text, NULL, r->inputs, r->inputs_hash, &p);
   free(text);
   if (v != DIFF_REDUCE_KEEP || !p)
      return false;
   tgsi_shader_free(r->best);
   r->best = p;
   r->best_hash = h;
   diff_reducer_report(r);
   return true;
}

/* ------------------------------------------------------------------ */
/* Structure                                                            */

static bool
is_opener(enum tgsi_opcode op)
{
   return op == TGSI_OP_IF || op == TGSI_OP_UIF || op == TGSI_OP_BGNLOOP || op == TGSI_OP_SWITCH ||
          op == TGSI_OP_BGNSUB;
}

static bool
is_marker(enum tgsi_opcode op)
{
   return op == TGSI_OP_ELSE || op == TGSI_OP_ENDIF || op == TGSI_OP_ENDLOOP ||
          op == TGSI_OP_ENDSWITCH || op == TGSI_OP_ENDSUB || op == TGSI_OP_CASE ||
          op == TGSI_OP_DEFAULT;
}

/* Per instruction: openers know their ELSE and closer; markers their
 * opener; CASE/DEFAULT where their body ends; BRK/CONT what they leave. */
struct rinfo {
   int32_t open;  /* markers: the opener */
   int32_t mid;   /* IF/UIF: the ELSE, or -1 */
   int32_t close; /* openers: the closer; CASE/DEFAULT: the next CASE/DEFAULT/ENDSWITCH */
   int32_t owner; /* BRK: innermost loop or switch; CONT: innermost loop */
};

struct rframe {
   int32_t insn, last_case;
};

static void
structure_step(const struct tgsi_shader *s, struct rinfo *ri, struct rframe *st, unsigned *depth,
               unsigned i)
{
   enum tgsi_opcode op = s->insns[i].op;
   if (is_opener(op)) {
      if (*depth < TGSI_INTERP_MAX_DEPTH * 2)
         st[(*depth)++] = (struct rframe){(int32_t)i, -1};
      return;
   }
   if (!*depth)
      return;
   struct rframe *top = &st[*depth - 1];
   if (op == TGSI_OP_BRK || op == TGSI_OP_CONT) {
      for (unsigned d = *depth; d-- > 0;) {
         enum tgsi_opcode k = s->insns[st[d].insn].op;
         if (k == TGSI_OP_BGNSUB)
            break;
         if (k == TGSI_OP_BGNLOOP || (op == TGSI_OP_BRK && k == TGSI_OP_SWITCH)) {
            ri[i].owner = st[d].insn;
            break;
         }
      }
      return;
   }
   if (!is_marker(op))
      return;
   ri[i].open = top->insn;
   if (op == TGSI_OP_ELSE) {
      ri[top->insn].mid = (int32_t)i;
      return;
   }
   if (top->last_case >= 0)
      ri[top->last_case].close = (int32_t)i;
   if (op == TGSI_OP_CASE || op == TGSI_OP_DEFAULT) {
      top->last_case = (int32_t)i;
      return;
   }
   ri[top->insn].close = (int32_t)i;
   (*depth)--;
}

static struct rinfo *
structure(const struct tgsi_shader *s)
{
   struct rinfo *ri = xmalloc((s->ninsns + 1) * sizeof(*ri));
   struct rframe st[TGSI_INTERP_MAX_DEPTH * 2];
   unsigned depth = 0;
   for (unsigned i = 0; i < s->ninsns; i++)
      ri[i] = (struct rinfo){-1, -1, -1, -1};
   for (unsigned i = 0; i < s->ninsns; i++)
      structure_step(s, ri, st, &depth, i);
   return ri;
}

/* ------------------------------------------------------------------ */
/* Building candidates                                                  */

/* A copy of s whose instructions are s's at order[0..n) (an index may
 * repeat: inlined bodies). CAL labels follow their BGNSUB; NULL if one
 * was dropped. */
static struct tgsi_shader *
rebuild(const struct tgsi_shader *s, const uint32_t *order, unsigned n)
{
   int32_t *newpos = xmalloc((s->ninsns + 1) * sizeof(*newpos));
   for (unsigned i = 0; i < s->ninsns; i++)
      newpos[i] = -1;
   struct tgsi_shader *c = tgsi_shader_clone(s);
   VEC_RESERVE(c->insns, c->insns_cap, n + 1);
   for (unsigned k = 0; k < n; k++) {
      c->insns[k] = s->insns[order[k]];
      if (s->insns[order[k]].op == TGSI_OP_BGNSUB)
         newpos[order[k]] = (int32_t)k;
   }
   c->ninsns = n;
   bool ok = true;
   for (unsigned k = 0; k < n; k++) {
      struct tgsi_insn *in = &c->insns[k];
      if (in->op != TGSI_OP_CAL || !in->has_label)
         continue;
      if (in->label >= s->ninsns || newpos[in->label] < 0)
         ok = false;
      else
         in->label = (uint32_t)newpos[in->label];
   }
   free(newpos);
   if (!ok) {
      tgsi_shader_free(c);
      return NULL;
   }
   return c;
}

static struct tgsi_shader *
delete_insns(const struct tgsi_shader *s, const bool *del)
{
   uint32_t *order = xmalloc((s->ninsns + 1) * sizeof(*order));
   unsigned n = 0;
   for (unsigned i = 0; i < s->ninsns; i++)
      if (!del[i])
         order[n++] = i;
   struct tgsi_shader *c = rebuild(s, order, n);
   free(order);
   return c;
}

/* Makes an arbitrary deletion set valid: an opener takes its region, a
 * deleted subroutine its calls, a marker stays unless its opener goes,
 * END stays. Returns how many instructions are deleted. */
static unsigned
close_deletion(const struct tgsi_shader *s, const struct rinfo *ri, bool *del)
{
   unsigned n = s->ninsns, count = 0;
   for (unsigned i = 0; i < n; i++)
      if (del[i] && is_opener(s->insns[i].op) && ri[i].close >= 0)
         for (int32_t j = (int32_t)i; j <= ri[i].close; j++)
            del[j] = true;
   for (unsigned i = 0; i < n; i++) {
      const struct tgsi_insn *in = &s->insns[i];
      if (in->op == TGSI_OP_CAL && in->has_label && in->label < n && del[in->label])
         del[i] = true;
   }
   for (unsigned i = 0; i < n; i++) {
      enum tgsi_opcode op = s->insns[i].op;
      if (op == TGSI_OP_END || (is_marker(op) && del[i] && (ri[i].open < 0 || !del[ri[i].open])))
         del[i] = false;
      count += del[i];
   }
   return count;
}

/* ------------------------------------------------------------------ */
/* Instruction deletion: ddmin over chunks, then single instructions   */

static bool
try_delete_range(struct diff_reducer *r, unsigned lo, unsigned hi)
{
   const struct tgsi_shader *s = r->best;
   bool *del = xcalloc(s->ninsns + 1, sizeof(bool));
   for (unsigned i = lo; i < hi && i < s->ninsns; i++)
      del[i] = true;
   struct rinfo *ri = structure(s);
   bool ok = false;
   if (close_deletion(s, ri, del))
      ok = try_shader(r, delete_insns(s, del));
   free(ri);
   free(del);
   return ok;
}

/* Chunks of n/2, n/4, ... 1 instructions, each swept from the end (so a
 * use goes before its definitions); a removed chunk is retried at once at
 * the same size. */
static bool
pass_delete(struct diff_reducer *r)
{
   r->pass = "delete";
   bool any = false;
   unsigned chunk = MAX2(r->best->ninsns / 2, 1u);
   for (;;) {
      unsigned i = r->best->ninsns;
      while (i > 0 && !r->stop) {
         unsigned lo = i > chunk ? i - chunk : 0;
         if (try_delete_range(r, lo, i)) {
            any = true;
            i = MIN2(i, r->best->ninsns);
         } else {
            i = lo;
         }
      }
      if (chunk == 1 || r->stop)
         break;
      chunk /= 2;
   }
   return any;
}

/* ------------------------------------------------------------------ */
/* Control flow: unwrap regions, inline subroutines                    */

/* Deletes exactly del (already valid) from the best. */
static bool
try_delete_set(struct diff_reducer *r, const bool *del)
{
   return try_shader(r, delete_insns(r->best, del));
}

static void
mark_owned_breaks(const struct tgsi_shader *s, const struct rinfo *ri, int32_t owner, unsigned lo,
                  unsigned hi, bool *del)
{
   for (unsigned j = lo; j < hi && j < s->ninsns; j++)
      if (ri[j].owner == owner)
         del[j] = true;
}

/* IF: keep the THEN part alone, or the ELSE part alone; else drop the
 * ELSE part but keep the condition. */
static bool
unwrap_if(struct diff_reducer *r, const struct rinfo *ri, unsigned i, bool *del)
{
   const struct tgsi_shader *s = r->best;
   int32_t close = ri[i].close, mid = ri[i].mid;
   del[i] = del[close] = true;
   for (int32_t j = mid; mid >= 0 && j < close; j++)
      del[j] = true;
   if (try_delete_set(r, del))
      return true;
   if (mid < 0)
      return false;
   memset(del, 0, s->ninsns);
   for (int32_t j = (int32_t)i; j <= mid; j++)
      del[j] = true;
   del[close] = true;
   if (try_delete_set(r, del))
      return true;
   memset(del, 0, s->ninsns);
   for (int32_t j = mid; j < close; j++)
      del[j] = true;
   return try_delete_set(r, del);
}

/* SWITCH: keep one case's body without the switch; else drop a case. */
static bool
unwrap_switch(struct diff_reducer *r, const struct rinfo *ri, unsigned i, bool *del)
{
   const struct tgsi_shader *s = r->best;
   int32_t close = ri[i].close;
   for (int pass = 0; pass < 2; pass++)
      for (int32_t c = (int32_t)i + 1; c < close && !r->stop; c++) {
         if (ri[c].open != (int32_t)i || ri[c].close < 0 ||
             (s->insns[c].op != TGSI_OP_CASE && s->insns[c].op != TGSI_OP_DEFAULT))
            continue;
         memset(del, 0, s->ninsns);
         for (int32_t j = pass ? c : (int32_t)i; j <= close; j++)
            del[j] = pass ? j < ri[c].close : j <= c || j >= ri[c].close;
         if (!pass)
            mark_owned_breaks(s, ri, (int32_t)i, (unsigned)c, (unsigned)ri[c].close, del);
         if (try_delete_set(r, del))
            return true;
      }
   return false;
}

/* The loop opened at i run once with its exit test kept: the first
 * `IF c ... BRK ENDIF` at the top of its body becomes `IF c ... ELSE`, the
 * rest of the body the else part, ENDLOOP its ENDIF. The first iteration
 * does the same; the failure often needs only it, and without the loop
 * the other passes can take the test apart. */
static bool
peel_loop(struct diff_reducer *r, const struct rinfo *ri, unsigned i)
{
   const struct tgsi_shader *s = r->best;
   int32_t close = ri[i].close, exit = -1;
   for (int32_t j = (int32_t)i + 1; j < close && exit < 0; j++) {
      enum tgsi_opcode op = s->insns[j].op;
      int32_t end = ri[j].close;
      if ((op == TGSI_OP_IF || op == TGSI_OP_UIF) && ri[j].mid < 0 && end > j + 1 &&
          s->insns[end - 1].op == TGSI_OP_BRK && ri[end - 1].owner == (int32_t)i)
         exit = end - 1;
      if (is_opener(op) && end > j)
         j = end; /* the top level of the body only */
   }
   if (exit < 0)
      return false;
   uint32_t *order = xmalloc((s->ninsns + 1) * sizeof(*order));
   unsigned n = 0, at_exit = 0, at_close = 0;
   for (unsigned k = 0; k < s->ninsns; k++) {
      if (k == i || k == (unsigned)exit + 1) /* BGNLOOP, and the ENDIF after BRK */
         continue;
      if (k == (unsigned)exit)
         at_exit = n;
      if (k == (unsigned)close)
         at_close = n;
      order[n++] = k;
   }
   struct tgsi_shader *c = rebuild(s, order, n);
   free(order);
   if (c) {
      c->insns[at_exit].op = TGSI_OP_ELSE;
      c->insns[at_close].op = TGSI_OP_ENDIF;
      c->insns[at_exit].has_label = c->insns[at_close].has_label = false;
   }
   return try_shader(r, c);
}

/* The ways to unwrap the region opened at i, tried in turn. */
static bool
try_unwrap(struct diff_reducer *r, const struct rinfo *ri, unsigned i)
{
   const struct tgsi_shader *s = r->best;
   enum tgsi_opcode op = s->insns[i].op;
   int32_t close = ri[i].close;
   if (close < 0)
      return false;
   bool *del = xcalloc(s->ninsns + 1, sizeof(bool));
   bool ok = false;
   if (op == TGSI_OP_IF || op == TGSI_OP_UIF) {
      ok = unwrap_if(r, ri, i, del);
   } else if (op == TGSI_OP_BGNLOOP) {
      /* The body runs once; the loop's BRK and CONT go with it. */
      del[i] = del[close] = true;
      mark_owned_breaks(s, ri, (int32_t)i, i, (unsigned)close, del);
      ok = try_delete_set(r, del) || peel_loop(r, ri, i);
   } else if (op == TGSI_OP_SWITCH) {
      ok = unwrap_switch(r, ri, i, del);
   }
   free(del);
   return ok;
}

static bool
pass_unwrap(struct diff_reducer *r)
{
   r->pass = "unwrap";
   bool any = false;
   for (unsigned i = r->best->ninsns; i-- > 0 && !r->stop;) {
      if (i >= r->best->ninsns || !is_opener(r->best->insns[i].op))
         continue;
      struct rinfo *ri = structure(r->best);
      any |= try_unwrap(r, ri, i);
      free(ri);
   }
   return any;
}

/* The body of the subroutine at b (up to its ENDSUB), without a final
 * RET; false if another RET would leave it early. */
static bool
sub_body(const struct tgsi_shader *s, const struct rinfo *ri, unsigned b, unsigned *lo,
         unsigned *hi)
{
   if (ri[b].close < 0)
      return false;
   *lo = b + 1;
   *hi = (unsigned)ri[b].close;
   if (*hi > *lo && s->insns[*hi - 1].op == TGSI_OP_RET)
      (*hi)--;
   for (unsigned j = *lo; j < *hi; j++)
      if (s->insns[j].op == TGSI_OP_RET)
         return false;
   return true;
}

/* Replaces the CAL at c by the body of the subroutine it calls. */
static bool
try_inline(struct diff_reducer *r, const struct rinfo *ri, unsigned c)
{
   const struct tgsi_shader *s = r->best;
   const struct tgsi_insn *in = &s->insns[c];
   unsigned lo, hi;
   if (!in->has_label || in->label >= s->ninsns || !sub_body(s, ri, in->label, &lo, &hi) ||
       (c >= lo && c < hi))
      return false;
   uint32_t *order = xmalloc((s->ninsns + hi - lo + 1) * sizeof(*order));
   unsigned n = 0;
   for (unsigned j = 0; j < s->ninsns; j++) {
      if (j != c) {
         order[n++] = j;
         continue;
      }
      for (unsigned k = lo; k < hi; k++)
         order[n++] = k;
   }
   bool ok = try_shader(r, rebuild(s, order, n));
   free(order);
   return ok;
}

static bool
pass_inline(struct diff_reducer *r)
{
   r->pass = "inline";
   bool any = false;
   for (unsigned i = r->best->ninsns; i-- > 0 && !r->stop;) {
      if (i >= r->best->ninsns || r->best->insns[i].op != TGSI_OP_CAL)
         continue;
      struct rinfo *ri = structure(r->best);
      any |= try_inline(r, ri, i);
      free(ri);
   }
   return any;
}

/* ------------------------------------------------------------------ */
/* Operands                                                             */

/* Files whose operands are values (not resources or samplers). */
static bool
is_value_file(enum tgsi_file f)
{
   return f == TGSI_FILE_TEMP || f == TGSI_FILE_IN || f == TGSI_FILE_OUT || f == TGSI_FILE_CONST ||
          f == TGSI_FILE_SV || f == TGSI_FILE_IMM || f == TGSI_FILE_ADDR;
}

/* What source si of op reads: the immediate type to give it and the kinds
 * of simple values that make sense (0 for 64-bit pairs: only zero). */
static enum tgsi_imm_type
src_imm_type(enum tgsi_opcode op, unsigned si, unsigned *kinds)
{
   switch (tgsi_interp_src_type(op, si)) {
   case TGSI_TYPE_F:
      *kinds = DIFF_VK_FLOAT;
      return TGSI_IMM_FLT32;
   case TGSI_TYPE_I:
      *kinds = DIFF_VK_INT;
      return TGSI_IMM_INT32;
   case TGSI_TYPE_U:
      *kinds = DIFF_VK_UINT;
      return TGSI_IMM_UINT32;
   default:
      *kinds = 0;
      return TGSI_IMM_UINT32;
   }
}

/* A source reading bits from an immediate of type ty: an existing
 * channel holding them, or a new immediate. */
static struct tgsi_src
imm_src(struct tgsi_shader *s, enum tgsi_imm_type ty, uint32_t bits)
{
   unsigned k = 0, c = 0;
   bool found = false;
   for (k = 0; k < s->nimms && !found; k++)
      for (c = 0; c < 4 && !found; c++)
         found = s->imms[k].type == ty && s->imms[k].u[c] == bits;
   if (found) {
      k--, c--;
   } else {
      struct tgsi_imm imm = {ty, {bits, bits, bits, bits}, {0, 0}};
      k = s->nimms;
      c = 0;
      VEC_PUSH(s->imms, s->nimms, s->imms_cap, imm);
   }
   struct tgsi_src src;
   memset(&src, 0, sizeof(src));
   src.reg.file = TGSI_FILE_IMM;
   src.reg.index = (int32_t)k;
   memset(src.swz, (int)c, 4);
   return src;
}

/* The channels of src that instruction in reads: per destination
 * channel for plain per-channel ops, all four otherwise. */
static unsigned
chans_read(const struct tgsi_insn *in, const struct tgsi_src *src)
{
   bool percomp = !tgsi_op_info[in->op].flags && in->ndst;
   unsigned m = 0;
   for (unsigned c = 0; c < 4; c++)
      if (!percomp || (in->dst[0].mask & (1u << c)))
         m |= 1u << (src->swz[c] & 3);
   return m;
}

/* The last instruction before j writing one of the channels chans of reg
 * directly (linear order), or -1. */
static int
def_of(const struct tgsi_shader *s, unsigned j, const struct tgsi_reg *reg, unsigned chans)
{
   for (unsigned d = j; d-- > 0;) {
      const struct tgsi_dst *dst = &s->insns[d].dst[0];
      if (s->insns[d].ndst && dst->reg.file == reg->file && dst->reg.index == reg->index &&
          !dst->reg.indirect && dst->reg.has_dim == reg->has_dim && (dst->mask & chans))
         return (int)d;
   }
   return -1;
}

static bool
try_src(struct diff_reducer *r, unsigned i, unsigned k, const struct tgsi_src *src)
{
   struct tgsi_shader *c = tgsi_shader_clone(r->best);
   c->insns[i].src[k] = *src;
   return try_shader(r, c);
}

static bool
try_src_imm(struct diff_reducer *r, unsigned i, unsigned k, uint32_t bits)
{
   unsigned kinds;
   enum tgsi_imm_type ty = src_imm_type(r->best->insns[i].op, k, &kinds);
   struct tgsi_shader *c = tgsi_shader_clone(r->best);
   struct tgsi_src src = imm_src(c, ty, bits);
   c->insns[i].src[k] = src;
   return try_shader(r, c);
}

/* Replaces source k of instruction i by a source of its definition; swizzles
 * compose, the outer modifiers stay. */
static bool
try_bypass(struct diff_reducer *r, unsigned i, unsigned k)
{
   const struct tgsi_insn *in = &r->best->insns[i];
   int d = def_of(r->best, i, &in->src[k].reg, chans_read(in, &in->src[k]));
   if (d < 0)
      return false;
   const struct tgsi_insn *def = &r->best->insns[d];
   for (unsigned m = 0; m < def->nsrc; m++) {
      const struct tgsi_src *ds = &def->src[m];
      /* The new source must reach i unchanged since d: this also makes
       * every bypass move to a strictly earlier definition. */
      if (!is_value_file(ds->reg.file))
         continue;
      struct tgsi_src ns = *ds;
      for (unsigned c = 0; c < 4; c++)
         ns.swz[c] = ds->swz[in->src[k].swz[c] & 3];
      if (def_of(r->best, i, &ns.reg, chans_read(in, &ns)) >= d)
         continue;
      ns.neg = in->src[k].neg;
      ns.abs = in->src[k].abs;
      if (try_src(r, i, k, &ns))
         return true;
   }
   return false;
}

/* The first input register, as a stand-in for a computed value. */
static bool
try_src_input(struct diff_reducer *r, unsigned i, unsigned k)
{
   const struct tgsi_shader *s = r->best;
   for (unsigned d = 0; d < s->ndecls; d++) {
      if (s->decls[d].file != TGSI_FILE_IN || s->decls[d].has_dim)
         continue;
      struct tgsi_src ns = s->insns[i].src[k];
      memset(&ns.reg, 0, sizeof(ns.reg));
      ns.reg.file = TGSI_FILE_IN;
      ns.reg.index = (int32_t)s->decls[d].first;
      return try_src(r, i, k, &ns);
   }
   return false;
}

/* An indirect source becomes a direct one: each declared index in turn
 * (the address is not known statically). */
static bool
try_src_direct(struct diff_reducer *r, unsigned i, unsigned k)
{
   const struct tgsi_shader *s = r->best;
   struct tgsi_src ns = s->insns[i].src[k];
   if (!ns.reg.indirect)
      return false;
   unsigned tries = 0;
   for (unsigned d = 0; d < s->ndecls; d++) {
      const struct tgsi_decl *decl = &s->decls[d];
      if (decl->file != ns.reg.file)
         continue;
      for (uint32_t x = decl->first; x <= decl->last && tries < 64 && !r->stop; x++, tries++) {
         ns.reg.indirect = false;
         memset(&ns.reg.ind, 0, sizeof(ns.reg.ind));
         ns.reg.index = (int32_t)x;
         if (try_src(r, i, k, &ns))
            return true;
      }
   }
   return false;
}

static bool
simplify_src(struct diff_reducer *r, unsigned i, unsigned k)
{
   const struct tgsi_src *src = &r->best->insns[i].src[k];
   if (!is_value_file(src->reg.file) || src->reg.file == TGSI_FILE_IMM)
      return false;
   unsigned kinds;
   src_imm_type(r->best->insns[i].op, k, &kinds);
   if (try_src_imm(r, i, k, 0) ||
       (kinds && try_src_imm(r, i, k, kinds & DIFF_VK_FLOAT ? fui(1.0f) : 1)))
      return true;
   if (try_src_direct(r, i, k))
      return true;
   enum tgsi_file f = src->reg.file;
   if (f != TGSI_FILE_TEMP && f != TGSI_FILE_OUT)
      return false;
   bool any = false;
   for (unsigned n = 0;
        n < MAX_ROUNDS && !r->stop && r->best->insns[i].src[k].reg.file == f && try_bypass(r, i, k);
        n++)
      any = true;
   if (!any && r->best->insns[i].src[k].reg.file == f)
      any = try_src_input(r, i, k);
   return any;
}

static bool
pass_operands(struct diff_reducer *r)
{
   r->pass = "operands";
   bool any = false;
   for (unsigned i = r->best->ninsns; i-- > 0 && !r->stop;)
      for (unsigned k = 0; i < r->best->ninsns && k < r->best->insns[i].nsrc && !r->stop; k++)
         any |= simplify_src(r, i, k);
   return any;
}

/* MOV X, T where T comes from instruction d: d writes X itself and the
 * MOV goes (the predicate judges any channel shuffle this implies). */
static bool
try_fold_mov(struct diff_reducer *r, unsigned i)
{
   const struct tgsi_insn *mov = &r->best->insns[i];
   const struct tgsi_src *src = &mov->src[0];
   if (mov->op != TGSI_OP_MOV || mov->sat || src->neg || src->abs ||
       src->reg.file != TGSI_FILE_TEMP || src->reg.indirect)
      return false;
   int d = def_of(r->best, i, &src->reg, chans_read(mov, src));
   if (d < 0 || r->best->insns[d].ndst != 1)
      return false;
   bool *del = xcalloc(r->best->ninsns + 1, sizeof(bool));
   del[i] = true;
   struct tgsi_shader *c = delete_insns(r->best, del);
   free(del);
   if (c) {
      c->insns[d].dst[0].reg = mov->dst[0].reg;
      c->insns[d].dst[0].mask = mov->dst[0].mask;
   }
   return try_shader(r, c);
}

static bool
pass_fold_mov(struct diff_reducer *r)
{
   r->pass = "fold-mov";
   bool any = false;
   for (unsigned i = r->best->ninsns; i-- > 0 && !r->stop;)
      if (i < r->best->ninsns)
         any |= try_fold_mov(r, i);
   return any;
}

/* An instruction becomes a MOV of one of its sources. */
static bool
pass_to_mov(struct diff_reducer *r)
{
   r->pass = "to-mov";
   bool any = false;
   for (unsigned i = r->best->ninsns; i-- > 0 && !r->stop;) {
      const struct tgsi_insn *in = &r->best->insns[i];
      if (in->op == TGSI_OP_MOV || in->ndst != 1 || !in->nsrc ||
          !is_value_file(in->dst[0].reg.file))
         continue;
      for (unsigned k = 0; k < in->nsrc && !r->stop; k++) {
         if (!is_value_file(in->src[k].reg.file))
            continue;
         struct tgsi_shader *c = tgsi_shader_clone(r->best);
         struct tgsi_insn *m = &c->insns[i];
         struct tgsi_insn mov;
         memset(&mov, 0, sizeof(mov));
         mov.op = TGSI_OP_MOV;
         mov.ndst = 1;
         mov.nsrc = 1;
         mov.dst[0] = m->dst[0];
         mov.src[0] = m->src[k];
         mov.sat = m->sat;
         mov.target = -1;
         mov.loc = m->loc;
         *m = mov;
         if (try_shader(r, c)) {
            any = true;
            break;
         }
      }
   }
   return any;
}

/* Calls fn on every register reference of s (operands, addresses). */
static void
each_reg(struct tgsi_shader *s, void (*fn)(struct tgsi_reg *reg, void *ctx), void *ctx)
{
   for (unsigned i = 0; i < s->ninsns; i++) {
      struct tgsi_insn *in = &s->insns[i];
      for (unsigned k = 0; k < in->ndst; k++)
         fn(&in->dst[k].reg, ctx);
      for (unsigned k = 0; k < in->nsrc; k++)
         fn(&in->src[k].reg, ctx);
      for (unsigned k = 0; k < in->noffsets && k < TGSI_MAX_OFFSETS; k++)
         fn(&in->offsets[k].reg, ctx);
   }
}

/* ------------------------------------------------------------------ */
/* Declarations, outputs, properties                                   */

static void
mark_index(const struct tgsi_shader *s, enum tgsi_file f, int64_t index, bool *used)
{
   for (unsigned d = 0; d < s->ndecls; d++)
      if (s->decls[d].file == f && index >= s->decls[d].first && index <= s->decls[d].last)
         used[d] = true;
}

static void
mark_reg(const struct tgsi_shader *s, const struct tgsi_reg *reg, bool *used, bool *file_ind)
{
   if (reg->indirect) {
      file_ind[reg->file] = true;
      mark_index(s, reg->ind.file, reg->ind.index, used);
   } else {
      mark_index(s, reg->file, reg->index, used);
   }
   if (reg->has_dim && reg->dim_indirect)
      mark_index(s, reg->dim_ind.file, reg->dim_ind.index, used);
}

/* Which declarations some operand names (a file addressed indirectly
 * counts as wholly used; a TEX-style SAMP[i] uses SVIEW[i] too). */
static bool *
decls_used(const struct tgsi_shader *s)
{
   bool *used = xcalloc(s->ndecls + 1, sizeof(bool));
   bool file_ind[TGSI_FILE_COUNT] = {0};
   for (unsigned i = 0; i < s->ninsns; i++) {
      const struct tgsi_insn *in = &s->insns[i];
      for (unsigned k = 0; k < in->ndst; k++)
         mark_reg(s, &in->dst[k].reg, used, file_ind);
      for (unsigned k = 0; k < in->nsrc; k++) {
         mark_reg(s, &in->src[k].reg, used, file_ind);
         if ((tgsi_op_info[in->op].flags & TGSI_OPF_TEX) && in->src[k].reg.file == TGSI_FILE_SAMP)
            mark_index(s, TGSI_FILE_SVIEW, in->src[k].reg.index, used);
      }
      for (unsigned k = 0; k < in->noffsets && k < TGSI_MAX_OFFSETS; k++)
         mark_reg(s, &in->offsets[k].reg, used, file_ind);
   }
   for (unsigned d = 0; d < s->ndecls; d++)
      used[d] |= file_ind[s->decls[d].file];
   return used;
}

static void
remove_decl(struct tgsi_shader *s, unsigned d)
{
   memmove(&s->decls[d], &s->decls[d + 1], (s->ndecls - d - 1) * sizeof(*s->decls));
   s->ndecls--;
}

static bool
pass_decls(struct diff_reducer *r)
{
   r->pass = "declarations";
   bool *used = decls_used(r->best);
   struct tgsi_shader *c = tgsi_shader_clone(r->best);
   unsigned removed = 0;
   for (unsigned d = r->best->ndecls; d-- > 0;)
      if (!used[d])
         remove_decl(c, d), removed++;
   bool any = false;
   if (!removed)
      tgsi_shader_free(c);
   else if (!(any = try_shader(r, c)) && removed > 1)
      for (unsigned d = r->best->ndecls; d-- > 0 && !r->stop;) {
         if (used[d])
            continue;
         c = tgsi_shader_clone(r->best);
         remove_decl(c, d);
         any |= try_shader(r, c);
      }
   free(used);
   for (unsigned p = r->best->nprops; p-- > 0 && !r->stop;) {
      c = tgsi_shader_clone(r->best);
      memmove(&c->props[p], &c->props[p + 1], (c->nprops - p - 1) * sizeof(*c->props));
      c->nprops--;
      any |= try_shader(r, c);
   }
   return any;
}

struct span {
   enum tgsi_file file;
   int64_t lo, hi;
   bool indirect;
};

static void
span_reg(struct tgsi_reg *reg, void *ctx)
{
   struct span *sp = ctx;
   if (reg->indirect && reg->ind.file == sp->file)
      sp->lo = MIN2(sp->lo, (int64_t)reg->ind.index),
      sp->hi = MAX2(sp->hi, (int64_t)reg->ind.index);
   if (reg->file != sp->file)
      return;
   sp->indirect |= reg->indirect;
   sp->lo = MIN2(sp->lo, (int64_t)reg->index);
   sp->hi = MAX2(sp->hi, (int64_t)reg->index);
}

/* A declared range shrinks to the registers its file's operands name
 * (not with arrays or indirect addressing, whose reach is unknown). */
static bool
pass_narrow(struct diff_reducer *r)
{
   r->pass = "ranges";
   bool any = false;
   for (unsigned d = 0; d < r->best->ndecls && !r->stop; d++) {
      const struct tgsi_decl *decl = &r->best->decls[d];
      if (decl->first == decl->last || decl->array_id)
         continue;
      struct span sp = {decl->file, INT64_MAX, INT64_MIN, false};
      each_reg(r->best, span_reg, &sp);
      if (sp.indirect || sp.hi < sp.lo)
         continue;
      int64_t lo = MAX2(sp.lo, (int64_t)decl->first), hi = MIN2(sp.hi, (int64_t)decl->last);
      if (lo > hi || (lo == decl->first && hi == decl->last))
         continue;
      struct tgsi_shader *c = tgsi_shader_clone(r->best);
      c->decls[d].first = (uint32_t)lo;
      c->decls[d].last = (uint32_t)hi;
      any |= try_shader(r, c);
   }
   return any;
}

static bool
reg_in_decl(const struct tgsi_reg *reg, const struct tgsi_decl *d)
{
   return reg->file == d->file && !reg->indirect && reg->index >= 0 &&
          (uint32_t)reg->index >= d->first && (uint32_t)reg->index <= d->last;
}

/* Drops output declaration d and every instruction that touches it. */
static bool
try_drop_output(struct diff_reducer *r, unsigned d)
{
   const struct tgsi_shader *s = r->best;
   const struct tgsi_decl *decl = &s->decls[d];
   bool *del = xcalloc(s->ninsns + 1, sizeof(bool));
   for (unsigned i = 0; i < s->ninsns; i++) {
      const struct tgsi_insn *in = &s->insns[i];
      for (unsigned k = 0; k < in->ndst; k++)
         del[i] |= reg_in_decl(&in->dst[k].reg, decl);
      for (unsigned k = 0; k < in->nsrc; k++)
         del[i] |= reg_in_decl(&in->src[k].reg, decl);
   }
   struct tgsi_shader *c = delete_insns(s, del);
   free(del);
   if (c)
      remove_decl(c, d);
   return try_shader(r, c);
}

static bool
pass_outputs(struct diff_reducer *r)
{
   r->pass = "outputs";
   for (unsigned i = 0; i < r->best->ninsns; i++) {
      const struct tgsi_insn *in = &r->best->insns[i];
      for (unsigned k = 0; k < in->ndst; k++)
         if (in->dst[k].reg.file == TGSI_FILE_OUT && in->dst[k].reg.indirect)
            return false;
      for (unsigned k = 0; k < in->nsrc; k++)
         if (in->src[k].reg.file == TGSI_FILE_OUT && in->src[k].reg.indirect)
            return false;
   }
   bool any = false;
   for (unsigned d = r->best->ndecls; d-- > 0 && !r->stop;)
      if (d < r->best->ndecls && r->best->decls[d].file == TGSI_FILE_OUT)
         any |= try_drop_output(r, d);
   return any;
}

/* ------------------------------------------------------------------ */
/* Immediates, swizzles, write masks, modifiers                        */

static unsigned
imm_kinds(enum tgsi_imm_type t)
{
   return t == TGSI_IMM_FLT32 ? DIFF_VK_FLOAT : t == TGSI_IMM_INT32 ? DIFF_VK_INT : DIFF_VK_UINT;
}

static bool
pass_imm_values(struct diff_reducer *r)
{
   r->pass = "immediates";
   bool any = false;
   for (unsigned k = 0; k < r->best->nimms && !r->stop; k++)
      for (unsigned c = 0; c < 4 && !r->stop; c++) {
         const struct tgsi_imm *imm = &r->best->imms[k];
         if (imm->type > TGSI_IMM_INT32)
            continue;
         uint32_t cand[24];
         unsigned n = diff_value_candidates(imm->u[c], imm_kinds(imm->type), cand);
         for (unsigned j = 0; j < n && !r->stop; j++) {
            struct tgsi_shader *s = tgsi_shader_clone(r->best);
            s->imms[k].u[c] = cand[j];
            if (try_shader(r, s)) {
               any = true;
               break;
            }
         }
      }
   return any;
}

/* 0 for .xxxx, 1 for another replicated swizzle, 2 for .xyzw, 3 else. */
static unsigned
swizzle_rank(const uint8_t *swz)
{
   bool repl = swz[1] == swz[0] && swz[2] == swz[0] && swz[3] == swz[0];
   if (repl)
      return swz[0] ? 1 : 0;
   return swz[0] == 0 && swz[1] == 1 && swz[2] == 2 && swz[3] == 3 ? 2 : 3;
}

/* The first channel a per-channel source feeds, for a swizzle that
 * replicates what is actually read. */
static unsigned
first_read(const struct tgsi_insn *in, const struct tgsi_src *src)
{
   uint8_t mask = in->ndst ? in->dst[0].mask : 1;
   if (tgsi_op_info[in->op].flags || !mask)
      return src->swz[0];
   unsigned c = 0;
   while (!(mask & (1u << c)))
      c++;
   return src->swz[c];
}

static bool
simplify_swizzle(struct diff_reducer *r, unsigned i, unsigned k)
{
   const struct tgsi_insn *in = &r->best->insns[i];
   const struct tgsi_src *src = &in->src[k];
   uint8_t cand[3][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 1, 2, 3}};
   memset(cand[1], (int)first_read(in, src), 4);
   unsigned rank = swizzle_rank(src->swz);
   for (unsigned j = 0; j < 3 && !r->stop; j++) {
      if (swizzle_rank(cand[j]) >= rank || (j == 1 && !memcmp(cand[1], cand[0], 4)))
         continue;
      struct tgsi_shader *c = tgsi_shader_clone(r->best);
      memcpy(c->insns[i].src[k].swz, cand[j], 4);
      if (try_shader(r, c))
         return true;
   }
   return false;
}

static bool
pass_swizzles(struct diff_reducer *r)
{
   r->pass = "swizzles";
   bool any = false;
   for (unsigned i = 0; i < r->best->ninsns && !r->stop; i++)
      for (unsigned k = 0; k < r->best->insns[i].nsrc && !r->stop; k++)
         if (is_value_file(r->best->insns[i].src[k].reg.file))
            any |= simplify_swizzle(r, i, k);
   return any;
}

static bool
pass_masks(struct diff_reducer *r)
{
   r->pass = "write-masks";
   bool any = false;
   for (unsigned i = 0; i < r->best->ninsns && !r->stop; i++)
      for (unsigned c = 4; c-- > 0 && !r->stop;) {
         const struct tgsi_insn *in = &r->best->insns[i];
         uint8_t m = in->ndst ? in->dst[0].mask : 0;
         if (!(m & (1u << c)) || !(m & ~(1u << c) & TGSI_MASK_XYZW))
            continue;
         struct tgsi_shader *s = tgsi_shader_clone(r->best);
         s->insns[i].dst[0].mask = (uint8_t)(m & ~(1u << c));
         any |= try_shader(r, s);
      }
   return any;
}

/* Modifier m of instruction i: 0 _SAT, 1 _PRECISE, 2 + 2k '-' of source
 * k, 3 + 2k '|x|'. Returns a pointer into s, or NULL if m is not set. */
static bool *
modifier(struct tgsi_shader *s, unsigned i, unsigned m)
{
   struct tgsi_insn *in = &s->insns[i];
   bool *p = m == 0   ? &in->sat
             : m == 1 ? &in->precise
             : (m - 2) / 2 < in->nsrc
                 ? ((m & 1) ? &in->src[(m - 2) / 2].abs : &in->src[(m - 2) / 2].neg)
                 : NULL;
   return p && *p ? p : NULL;
}

static bool
pass_modifiers(struct diff_reducer *r)
{
   r->pass = "modifiers";
   bool any = false;
   for (unsigned i = 0; i < r->best->ninsns && !r->stop; i++)
      for (unsigned m = 0; m < 2 + 2 * TGSI_MAX_SRC && !r->stop; m++) {
         if (!modifier(r->best, i, m))
            continue;
         struct tgsi_shader *s = tgsi_shader_clone(r->best);
         *modifier(s, i, m) = false;
         any |= try_shader(r, s);
      }
   return any;
}

/* ------------------------------------------------------------------ */
/* Renumbering                                                          */

struct renum {
   enum tgsi_file file;
   int32_t *map; /* old index -> new, -1 unused */
   uint32_t size;
   bool blocked; /* indirect or out-of-range use: leave the file alone */
};

static void
renum_scan(struct tgsi_reg *reg, void *ctx)
{
   struct renum *m = ctx;
   if ((reg->indirect && reg->ind.file == m->file) ||
       (reg->has_dim && reg->dim_indirect && reg->dim_ind.file == m->file))
      m->blocked = true;
   if (reg->file != m->file)
      return;
   if (reg->indirect || reg->has_dim || reg->index < 0 || (uint32_t)reg->index >= m->size)
      m->blocked = true;
   else
      m->map[reg->index] = 0;
}

static void
renum_apply(struct tgsi_reg *reg, void *ctx)
{
   struct renum *m = ctx;
   if (reg->file == m->file)
      reg->index = m->map[reg->index];
}

/* TEMPs in use become TEMP[0..n-1], one declaration; not with arrays. */
static bool
renumber_temps(struct tgsi_shader *s)
{
   struct renum m = {TGSI_FILE_TEMP, NULL, 0, false};
   int first = -1;
   for (unsigned d = 0; d < s->ndecls; d++) {
      if (s->decls[d].file != TGSI_FILE_TEMP)
         continue;
      m.blocked |= s->decls[d].array_id || s->decls[d].has_dim || s->decls[d].last >= 65536;
      m.size = MAX2(m.size, s->decls[d].last + 1);
      if (first < 0)
         first = (int)d;
   }
   if (first < 0 || m.blocked)
      return false;
   m.map = xmalloc(m.size * sizeof(*m.map));
   for (uint32_t i = 0; i < m.size; i++)
      m.map[i] = -1;
   each_reg(s, renum_scan, &m);
   int32_t n = 0;
   for (uint32_t i = 0; i < m.size; i++)
      if (m.map[i] >= 0)
         m.map[i] = n++;
   if (!m.blocked) {
      each_reg(s, renum_apply, &m);
      struct tgsi_decl one = s->decls[first];
      for (unsigned d = s->ndecls; d-- > 0;)
         if (s->decls[d].file == TGSI_FILE_TEMP)
            remove_decl(s, d);
      one.first = 0;
      one.last = (uint32_t)(n ? n - 1 : 0);
      one.usage_mask = TGSI_MASK_XYZW;
      if (n) {
         VEC_RESERVE(s->decls, s->decls_cap, s->ndecls + 1);
         memmove(&s->decls[first + 1], &s->decls[first], (s->ndecls - first) * sizeof(*s->decls));
         s->decls[first] = one;
         s->ndecls++;
      }
   }
   free(m.map);
   return !m.blocked;
}

/* Immediates in use, without repeats, become IMM[0..n-1]. */
static bool
renumber_imms(struct tgsi_shader *s)
{
   struct renum m = {TGSI_FILE_IMM, xmalloc((s->nimms + 1) * sizeof(int32_t)), s->nimms, false};
   for (uint32_t i = 0; i < m.size; i++)
      m.map[i] = -1;
   each_reg(s, renum_scan, &m);
   unsigned n = 0;
   for (uint32_t i = 0; i < m.size && !m.blocked; i++) {
      if (m.map[i] < 0)
         continue;
      unsigned j = 0;
      while (j < n && (s->imms[j].type != s->imms[i].type ||
                       memcmp(s->imms[j].u, s->imms[i].u, sizeof(s->imms[i].u))))
         j++;
      if (j == n)
         s->imms[n++] = s->imms[i];
      m.map[i] = (int32_t)j;
   }
   if (!m.blocked) {
      each_reg(s, renum_apply, &m);
      s->nimms = n;
   }
   free(m.map);
   return !m.blocked;
}

static bool
pass_renumber(struct diff_reducer *r)
{
   r->pass = "renumber";
   struct tgsi_shader *c = tgsi_shader_clone(r->best);
   bool t = renumber_temps(c), i = renumber_imms(c);
   if (!t && !i) {
      tgsi_shader_free(c);
      return false;
   }
   if (try_shader(r, c))
      return true;
   /* The failure may hang on one numbering: try each file alone. */
   bool any = false;
   c = tgsi_shader_clone(r->best);
   if (renumber_temps(c))
      any |= try_shader(r, c);
   else
      tgsi_shader_free(c);
   c = tgsi_shader_clone(r->best);
   if (renumber_imms(c))
      any |= try_shader(r, c);
   else
      tgsi_shader_free(c);
   return any;
}

/* ------------------------------------------------------------------ */
/* The driver                                                           */

/* Loops go first (unwrap before delete): a deletion inside a loop tends to
 * take its exit and hang, and each hang costs a run's timeout. */
static bool (*const shader_passes[])(struct diff_reducer *) = {
    pass_outputs,  pass_unwrap,   pass_delete,    pass_inline, pass_operands,
    pass_to_mov,   pass_fold_mov, pass_decls,     pass_narrow, pass_imm_values,
    pass_swizzles, pass_masks,    pass_modifiers,
};

static void
reduce_shader(struct diff_reducer *r)
{
   for (unsigned round = 0; round < MAX_ROUNDS && !r->stop; round++) {
      bool any = false;
      for (unsigned p = 0; p < ARRAY_SIZE(shader_passes) && !r->stop; p++)
         any |= shader_passes[p](r);
      if (!any)
         break;
   }
   if (!r->stop)
      pass_renumber(r);
}

static void
reducer_fini(struct diff_reducer *r)
{
   tgsi_shader_free(r->best);
   env_free(r->inputs);
   free(r->cache);
}

enum diff_reduce_status
diff_reduce(const struct tgsi_shader *s, const struct env *inputs, const struct diff_reduce_opts *o,
            struct diff_reduce_result *res, struct diag_list *diags)
{
   memset(res, 0, sizeof(*res));
   struct diff_reducer r;
   memset(&r, 0, sizeof(r));
   r.o = o;
   r.t0 = now_seconds();
   r.pass = "original";
   char *text = tgsi_print(s);
   r.best = tgsi_parse(text, strlen(text), s->name, &o->popts, diags);
   if (!r.best) {
      free(text);
      diag_add(diags, DIAG_ERROR, s->name, 0, 0, NULL,
               "the shader does not parse back from its printed form");
      return DIFF_REDUCE_BAD_INPUT;
   }
   r.inputs = diff_env_select_lanes(inputs, NULL, inputs->nlanes);
   r.inputs_hash = diff_env_hash(r.inputs);
   r.st.insns_before = s->ninsns;
   r.st.lanes_before = inputs->nlanes;
   /* The original is asked outside the budgets: it must show the failure. */
   r.best_hash = hash64(text, strlen(text), 0);
   free(text);
   enum diff_reduce_verdict v = o->still_fails(r.best, r.inputs, o->user);
   r.st.tests++;
   v == DIFF_REDUCE_KEEP      ? r.st.keeps++
   : v == DIFF_REDUCE_INVALID ? r.st.invalid++
                              : r.st.discards++;
   if (v != DIFF_REDUCE_KEEP) {
      diag_add(diags, DIAG_ERROR, s->name, 0, 0, NULL,
               "the original shader and inputs do not show the failure (the predicate says %s)",
               v == DIFF_REDUCE_INVALID ? "invalid" : "discard");
      reducer_fini(&r);
      return DIFF_REDUCE_NOT_FAILING;
   }
   diff_reducer_report(&r);
   if (!o->skip_inputs)
      diff_reduce_failing_unit(&r); /* the shader passes then run on few lanes */
   if (!o->skip_shader)
      reduce_shader(&r);
   uint64_t before = r.inputs_hash;
   if (!o->skip_inputs && !r.stop)
      diff_reduce_inputs(&r);
   /* Simpler inputs may let more of the shader go. */
   if (!o->skip_shader && r.inputs_hash != before && !r.stop)
      reduce_shader(&r);
   r.pass = "done";
   r.st.insns_after = r.best->ninsns;
   r.st.lanes_after = r.inputs->nlanes;
   diff_reducer_report(&r);
   res->shader = r.best;
   res->inputs = r.inputs;
   res->stats = r.st;
   r.best = NULL;
   r.inputs = NULL;
   reducer_fini(&r);
   return DIFF_REDUCE_OK;
}

void
diff_reduce_result_fini(struct diff_reduce_result *res)
{
   tgsi_shader_free(res->shader);
   env_free(res->inputs);
   memset(res, 0, sizeof(*res));
}
