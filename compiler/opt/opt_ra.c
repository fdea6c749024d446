/*
 * Register allocation on SSA, without spilling.
 *
 * Every register value (ir_value_in_regs) gets one register (or a run of
 * consecutive registers) for its whole life, so the result is still SSA
 * and ir_regs_check can verify it. Blocks are visited in program order,
 * which on the structured CFG visits every definition before its uses
 * except for phi sources on back edges. In a block, the live-in values
 * hold their registers, the phis take free ones, then each instruction
 * frees the registers of the sources it reads last (a live range ends at
 * its last use, so a result may reuse a source's register) and takes the
 * lowest free register(s) for its result -- which keeps the register count
 * at the number of simultaneously live values for scalar code.
 *
 * Constraints:
 *   - a texture result is a run of registers (up to the highest component
 *     written); its extracts take their components over, and the rest of
 *     the run is free right after;
 *   - an operand group (texture coordinates) reads consecutive registers:
 *     values feeding a group prefer the register that completes it, and a
 *     group that is still not consecutive is copied into a fresh run just
 *     before its instruction;
 *   - values the isel placed in a file (predicates) are allocated there;
 *   - phis are resolved by parallel copies at the end of each predecessor
 *     (there are no critical edges in the structured CFG), sequenced so
 *     that no register is overwritten before it is read, cycles broken
 *     through a free register. The copies are new values whose register is
 *     the phi's, so a phi costs nothing and its sources sit in its register;
 *   - outputs must sit in registers when the program ends: an output fed
 *     by an immediate or a constant is copied before the stores.
 * Values related by phis form merge classes that prefer one register, so
 * most phi copies disappear; each such preference taken is an opt_transform
 * (refusing them all still allocates correctly, with more copies).
 */
#include "compiler/ir/ir.h"

#include <stdlib.h>

#define RA_MAX_FILES 8
#define RA_NONE      0xffffu

struct ra {
   struct ir_shader *sh;
   struct opt_ctx *ctx;
   const struct isa_model *m;
   int gpr;
   unsigned nfiles;
   unsigned nregs[RA_MAX_FILES];
   struct ir_instr **occ[RA_MAX_FILES]; /* owner of each register now */
   unsigned used[RA_MAX_FILES];         /* highest register used + 1 */
   struct ir_liveness lv;
   uint64_t *live;             /* lv.dense_words words over value ids, clear between blocks */
   struct ir_instr **last_use; /* by value id: instruction reading it last in this block */
   unsigned last_use_cap;
   unsigned *pos; /* by value id: position in the block being assigned, 0: none */
   unsigned npos;
   unsigned *klass;  /* by value id: merge class (union-find) */
   int *class_reg;   /* by class root: preferred register, -1 */
   struct pcopy *pc; /* one edge's phi copies */
   unsigned pc_cap;
   bool failed;
   /* the conservative variant (conservative.c): general registers are
    * never reused (RA_UNIQUE), not inside a block (RA_BLOCK) or, when
    * even that does not fit, freed at their last use (RA_LAST_USE) as the
    * validator's liveness says; other files always the latter */
   bool cons;
   enum { RA_LAST_USE, RA_BLOCK, RA_UNIQUE } level;
};

/* ------------------------------------------------------------------ */
/* Registers                                                            */

/* Values RA creates (copies) come after the liveness sets were sized. */
static bool
live_in_set(const struct ra *ra, const uint64_t *set, unsigned id)
{
   return ir_live_test(&ra->lv, set, id);
}

static void
set_last_use(struct ra *ra, unsigned id, struct ir_instr *in)
{
   if (id >= ra->last_use_cap) {
      unsigned cap = MAX2(id + 1, ra->last_use_cap * 2);
      ra->last_use = xrealloc(ra->last_use, cap * sizeof(*ra->last_use));
      memset(ra->last_use + ra->last_use_cap, 0, (cap - ra->last_use_cap) * sizeof(*ra->last_use));
      ra->last_use_cap = cap;
   }
   ra->last_use[id] = in;
}

static struct ir_instr *
last_use(const struct ra *ra, unsigned id)
{
   return id < ra->last_use_cap ? ra->last_use[id] : NULL;
}

static int
file_of(struct ra *ra, const struct ir_instr *v)
{
   int f = ir_reg_file(v);
   return f >= 0 ? f : ra->gpr;
}

/* A 64-bit result in a uniform file: a register pair (gfx9 lane masks). */
static bool
uniform_pair(const struct ir_instr *v)
{
   if (v->op != IR_OP_MACH || v->type == IR_TYPE_V4 || !v->mach->insn.ndst || ir_reg_file(v) < 0)
      return false;
   struct isa_file_info fi;
   isa_file_info(v->mach->model, (unsigned)ir_reg_file(v), &fi);
   return fi.kind == ISA_FILE_UNIFORM &&
          isa_opnd_regs(v->mach->model, &v->mach->insn, ISA_SLOT_DST(0)) == 2;
}

static unsigned
size_of(const struct ir_instr *v)
{
   if (v->op == IR_OP_MACH && v->type == IR_TYPE_V4)
      return opt_result_regs(v->mach->model, &v->mach->insn);
   return uniform_pair(v) ? 2 : 1;
}

/* The alignment of v's run, as the model declares it (an sm50 FP64
 * register pair starts even: `align: 2`). */
static unsigned
align_of(const struct ir_instr *v)
{
   if (uniform_pair(v))
      return 2;
   return v->op == IR_OP_MACH && v->type == IR_TYPE_V4
              ? isa_opnd_align(v->mach->model, &v->mach->insn, ISA_SLOT_DST(0))
              : 1;
}

/* The alignment operand k of in needs for its group. */
static unsigned
group_align(const struct ir_instr *in, unsigned k)
{
   return isa_opnd_align(in->mach->model, &in->mach->insn, ISA_SLOT_SRC(k));
}

static bool
run_free(struct ra *ra, int f, unsigned base, unsigned n)
{
   if (base + n > ra->nregs[f])
      return false;
   for (unsigned i = 0; i < n; i++)
      if (ra->occ[f][base + i])
         return false;
   return true;
}

static void
occupy(struct ra *ra, struct ir_instr *v)
{
   const struct ir_reg *r = &v->mach->reg;
   for (unsigned i = 0; i < r->count; i++)
      ra->occ[r->file][r->index + i] = v;
   ra->used[r->file] = MAX2(ra->used[r->file], (unsigned)r->index + r->count);
}

/* Frees every register of file f. Only occupy() fills an entry, below
 * used[f], so the entries from there up are already free (a file of
 * constants has thousands of them). */
static void
clear_file(struct ra *ra, unsigned f)
{
   memset(ra->occ[f], 0, MIN2(ra->used[f], ra->nregs[f]) * sizeof(struct ir_instr *));
}

static void
release(struct ra *ra, const struct ir_instr *v)
{
   if (!ir_has_reg(v) || (ra->cons && ra->level != RA_LAST_USE && v->mach->reg.file == ra->gpr))
      return;
   const struct ir_reg *r = &v->mach->reg;
   for (unsigned i = 0; i < r->count; i++)
      if (ra->occ[r->file][r->index + i] == v)
         ra->occ[r->file][r->index + i] = NULL;
}

static bool
no_room(struct ra *ra, const struct ir_instr *v, int f)
{
   if (!ra->failed) {
      struct isa_file_info fi;
      isa_file_info(ra->m, (unsigned)f, &fi);
      ir_error(ra->ctx->diags, ra->sh, v->line,
               "unsupported: more than %u live values in register file %s (%%%u, TGSI line %u); "
               "the optimizing compiler does not spill",
               ra->nregs[f], fi.name, v->id, v->line);
      ra->ctx->pred_full = fi.kind == ISA_FILE_PREDICATE;
      ra->ctx->unif_full = fi.kind == ISA_FILE_UNIFORM;
   }
   ra->failed = ra->ctx->failed = true;
   return false;
}

/* OPT_FAULT_RA_ODD_PAIR: a free run at an odd register below the aligned
 * choice `at` (or anywhere when there is none) is taken for a pair. */
static int
odd_pair(struct ra *ra, const struct ir_instr *v, int f, unsigned n, int at)
{
   for (unsigned b = 1; b + n <= ra->nregs[f] && (at < 0 || (int)b < at); b += 2)
      if (run_free(ra, f, b, n))
         return opt_fault_fires(ra->ctx, OPT_FAULT_RA_ODD_PAIR, "%%%u at odd r%u", v->id, b)
                    ? (int)b
                    : at;
   return at;
}

/* OPT_FAULT_RA_PAIR_ONE: a 64-bit general-file result (gfx9 v[n:n+1],
 * count 1 in the model) sized as the operand count says, one register;
 * fires where the lowest free register has a live value after it, which
 * the pair's high word then overwrites. */
static unsigned
pair_one_reg(struct ra *ra, const struct ir_instr *v, int f, unsigned n)
{
   if (n != 2 || v->op != IR_OP_MACH || v->type != IR_TYPE_V4 ||
       isa_opnd_count(ra->m, &v->mach->insn, ISA_SLOT_DST(0)) != 1)
      return n;
   unsigned b = 0;
   while (b + 1 < ra->nregs[f] && ra->occ[f][b])
      b++;
   if (b + 1 < ra->nregs[f] && ra->occ[f][b + 1] &&
       opt_fault_fires(ra->ctx, OPT_FAULT_RA_PAIR_ONE, "%%%u in one register r%u", v->id, b))
      return 1;
   return n;
}

/* The conservative placement: the lowest free run at its alignment. */
static bool
place_plain(struct ra *ra, struct ir_instr *v, int f, unsigned n, unsigned al)
{
   unsigned b = 0;
   while (b + n <= ra->nregs[f] && !run_free(ra, f, b, n))
      b += al;
   if (b + n > ra->nregs[f])
      return no_room(ra, v, f);
   ir_mach_get(ra->m, v)->reg = (struct ir_reg){(int16_t)f, (uint16_t)b, (uint8_t)n};
   occupy(ra, v);
   return true;
}

/* Gives v a free run of n registers of file f, at `hint` when that run is
 * free, else the lowest free run (starting at a multiple of its
 * alignment). */
static bool place_plain(struct ra *ra, struct ir_instr *v, int f, unsigned n, unsigned al);

/* The alignment v needs where it is read alone as a whole group operand
 * (gfx9's MIMG descriptor: one value, read as an aligned quad): RA's
 * fix_group copies only groups of several values, so such a value must
 * be placed aligned itself. */
static unsigned
use_align(const struct ir_instr *v)
{
   unsigned al = 1;
   for (unsigned i = 0; i < v->nuses; i++) {
      const struct ir_instr *u = v->uses[i].user;
      if (!u || u->op != IR_OP_MACH)
         continue;
      for (unsigned k = 0; k < u->mach->insn.nsrc; k++)
         if (u->mach->count[k] == 1 && u->mach->first[k] < u->nsrc &&
             u->src[u->mach->first[k]] == v)
            al = MAX2(al, group_align(u, k));
   }
   return al;
}

static bool
place(struct ra *ra, struct ir_instr *v, int f, unsigned n, int hint)
{
   int at = -1;
   unsigned al = MAX2(align_of(v), use_align(v));
   if (ra->cons)
      return place_plain(ra, v, f, n, al);
   if (hint >= 0 && hint % (int)al == 0 && run_free(ra, f, (unsigned)hint, n))
      at = hint;
   for (unsigned b = 0; at < 0 && b + n <= ra->nregs[f]; b += al)
      if (run_free(ra, f, b, n))
         at = (int)b;
   if (al == 2 && opt_fault(ra->ctx, OPT_FAULT_RA_ODD_PAIR))
      at = odd_pair(ra, v, f, n, at);
   if (at < 0)
      return no_room(ra, v, f);
   ir_mach_get(ra->m, v)->reg = (struct ir_reg){(int16_t)f, (uint16_t)at, (uint8_t)n};
   occupy(ra, v);
   return true;
}

/* The next value of set (lv-sized) at or after id, or ~0u. */
static unsigned
next_in_set(const struct ra *ra, const uint64_t *set, unsigned id)
{
   unsigned r = ir_live_next_id(&ra->lv, set, id);
   return r < ra->sh->nvalues ? r : ~0u;
}

/* ------------------------------------------------------------------ */
/* Merge classes (phis and their sources prefer one register)           */

static unsigned
find(struct ra *ra, unsigned id)
{
   while (ra->klass[id] != id)
      id = ra->klass[id] = ra->klass[ra->klass[id]];
   return id;
}

static void
build_classes(struct ra *ra)
{
   unsigned n = ra->sh->nvalues + 1;
   ra->klass = xmalloc(n * sizeof(unsigned));
   ra->class_reg = xmalloc(n * sizeof(int));
   for (unsigned i = 0; i < n; i++) {
      ra->klass[i] = i;
      ra->class_reg[i] = -1;
   }
   for (unsigned i = 0; i < ra->sh->nvalues; i++) {
      struct ir_instr *p = ra->sh->values[i];
      if (!p || p->removed || p->op != IR_OP_PHI)
         continue;
      for (unsigned k = 0; k < p->nsrc; k++)
         if (ir_value_in_regs(p->src[k]) && size_of(p->src[k]) == 1)
            ra->klass[find(ra, p->src[k]->id)] = find(ra, p->id);
   }
}

/* The register v's merge class prefers, or -1. */
static int
class_hint(struct ra *ra, const struct ir_instr *v)
{
   return ra->class_reg[find(ra, v->id)];
}

static void
class_note(struct ra *ra, const struct ir_instr *v)
{
   unsigned c = find(ra, v->id);
   if (ra->class_reg[c] < 0 && v->mach->reg.file == ra->gpr)
      ra->class_reg[c] = v->mach->reg.index;
}

/* ------------------------------------------------------------------ */
/* Operand groups                                                       */

/* The register that puts v at its place in a group operand whose other
 * members are placed, or in a free run for the whole group; -1 if v feeds
 * no group. */
/* The hint of group operands of u that v feeds, or -1 (see group_hint). */
static int
user_group_hint(struct ra *ra, const struct ir_instr *u, const struct ir_instr *v, int f)
{
   const struct ir_mach *m = u->mach;
   for (unsigned k = 0; k < m->insn.nsrc; k++) {
      unsigned al = group_align(u, k);
      if (m->count[k] < 2 && (m->count[k] < 1 || al <= align_of(v)))
         continue; /* one value: a group only when the operand aligns it more (gfx9 srsrc) */
      int pos = -1, base = -1;
      for (unsigned i = 0; i < m->count[k]; i++) {
         const struct ir_instr *s = u->src[m->first[k] + i];
         if (s == v && pos < 0)
            pos = (int)i;
         else if (ir_has_reg(s) && s->mach->reg.file == f && base < 0)
            base = (int)s->mach->reg.index - (int)i;
      }
      if (pos < 0)
         continue;
      if (base >= 0)
         return base % (int)al ? -1 : base + pos;
      for (unsigned b = 0; b + m->count[k] <= ra->nregs[f]; b += al)
         if (run_free(ra, f, b, m->count[k]))
            return (int)b + pos;
   }
   return -1;
}

struct ra_user {
   unsigned pos;
   const struct ir_instr *in;
};

static int
cmp_pos(const void *a, const void *b)
{
   unsigned x = ((const struct ra_user *)a)->pos, y = ((const struct ra_user *)b)->pos;
   return x < y ? -1 : x > y;
}

/* The register that puts v at its place in a group operand whose other
 * members are placed, or in a free run for the whole group; -1 if v feeds
 * no group. The first machine instruction after v in its block that
 * decides wins; v's use list gives the candidates, so this costs v's uses,
 * not the rest of the block. */
static int
group_hint(struct ra *ra, const struct ir_instr *v, int f)
{
   unsigned at = v->id < ra->npos ? ra->pos[v->id] : 0, n = 0;
   struct ra_user buf[16], *c = buf;
   if (!at)
      return -1; /* created during allocation: a copy, which feeds no group */
   for (unsigned i = 0; i < v->nuses; i++) {
      const struct ir_use *u = &v->uses[i];
      const struct ir_instr *w = u->user;
      if (!w || w->block != v->block || w->op != IR_OP_MACH || !ir_use_live(v, u))
         continue;
      unsigned p = w->id < ra->npos ? ra->pos[w->id] : 0;
      if (p <= at)
         continue; /* before v, or created during allocation (no groups) */
      if (n == ARRAY_SIZE(buf) && c == buf) {
         c = xmalloc(v->nuses * sizeof(*c));
         memcpy(c, buf, sizeof(buf));
      }
      c[n++] = (struct ra_user){p, w};
   }
   qsort(c, n, sizeof(*c), cmp_pos);
   int h = -1;
   for (unsigned i = 0; i < n && h < 0; i++)
      if (!i || c[i].in != c[i - 1].in)
         h = user_group_hint(ra, c[i].in, v, f);
   if (c != buf)
      free(c);
   return h;
}

static bool
group_in_place(const struct ir_instr *in, unsigned k)
{
   const struct ir_mach *m = in->mach;
   const struct ir_instr *s0 = in->src[m->first[k]];
   if (!ir_has_reg(s0) || s0->mach->reg.index % group_align(in, k))
      return false;
   for (unsigned i = 1; i < m->count[k]; i++) {
      const struct ir_instr *s = in->src[m->first[k] + i];
      if (!ir_has_reg(s) || s->mach->reg.file != s0->mach->reg.file ||
          s->mach->reg.index != s0->mach->reg.index + i || s == s0)
         return false;
   }
   return true;
}

/* Copies a group that is not consecutive into a fresh run before in; the
 * copies are read last by in. */
static void
fix_group(struct ra *ra, struct ir_instr *in, unsigned k)
{
   struct ir_mach *m = in->mach;
   unsigned n = m->count[k], al = group_align(in, k);
   int f = ra->gpr, base = -1;
   for (unsigned b = 0; base < 0 && b + n <= ra->nregs[f]; b += al)
      if (run_free(ra, f, b, n))
         base = (int)b;
   if (base < 0) {
      no_room(ra, in, f);
      return;
   }
   for (unsigned i = 0; i < n; i++) {
      struct ir_instr *c = opt_copy_before(ra->sh, in, in->src[m->first[k] + i]);
      ir_mach_get(ra->m, c)->reg = (struct ir_reg){(int16_t)f, (uint16_t)(base + (int)i), 1};
      occupy(ra, c);
      ir_set_src(in, m->first[k] + i, c);
      set_last_use(ra, c->id, in);
   }
}

/* ------------------------------------------------------------------ */
/* Blocks                                                               */

/* ra->live, a set over value ids, is all clear between blocks: each
 * block clears the bits it set (its live-out values and its sources)
 * instead of clearing the whole set, which would cost the shader's values
 * per block. */
static void
compute_last_uses(struct ra *ra, struct ir_block *b)
{
   uint64_t *live = ra->live;
   const uint64_t *out = ir_live_out_set(&ra->lv, b->index);
   ir_live_add(&ra->lv, out, live);
   for (struct ir_instr *in = b->last; in; in = in->prev) {
      ir_live_set(live, in->id, false);
      if (in->op == IR_OP_PHI)
         continue;
      for (unsigned s = 0; s < in->nsrc; s++) {
         struct ir_instr *v = in->src[s];
         if (!ir_use_extends_life(in, v) || ir_live_has(live, v->id))
            continue;
         ir_live_set(live, v->id, true);
         set_last_use(ra, v->id, in);
      }
   }
   ir_live_remove(&ra->lv, out, live);
   for (struct ir_instr *in = b->first; in; in = in->next)
      for (unsigned s = 0; in->op != IR_OP_PHI && s < in->nsrc; s++)
         if (ir_use_extends_life(in, in->src[s]))
            ir_live_set(live, in->src[s]->id, false);
}

static int
hint_for(struct ra *ra, struct ir_instr *v, int f)
{
   const struct ir_instr *t = v->op == IR_OP_MACH ? opt_tied_src(v) : NULL;
   if (t && ir_has_reg(t) && t->mach->reg.file == f)
      return t->mach->reg.index; /* the register it keeps part of (SDWA PRESERVE) */
   int h = group_hint(ra, v, f);
   if (h < 0 && f == ra->gpr) {
      h = class_hint(ra, v);
      if (h >= 0 && !run_free(ra, f, (unsigned)h, 1))
         h = -1;
      if (h >= 0 && !opt_transform(ra->ctx, "coalesce %%%u into r%d", v->id, h))
         h = -1;
   }
   return h;
}

static void
place_phi(struct ra *ra, struct ir_instr *p)
{
   int f = file_of(ra, p), h = class_hint(ra, p);
   /* prefer the register of a source already placed and free here */
   for (unsigned k = 0; h < 0 && k < p->nsrc; k++) {
      const struct ir_instr *s = p->src[k];
      if (ir_has_reg(s) && s->mach->reg.file == f && run_free(ra, f, s->mach->reg.index, 1))
         h = s->mach->reg.index;
   }
   if (h >= 0 && (!run_free(ra, f, (unsigned)h, 1) ||
                  !opt_transform(ra->ctx, "coalesce phi %%%u into r%d", p->id, h)))
      h = -1;
   if (place(ra, p, f, 1, h))
      class_note(ra, p);
}

/* The extracts right after texture result t take their components over;
 * returns the instruction after them. */
static struct ir_instr *
place_extracts(struct ra *ra, struct ir_instr *t)
{
   struct ir_instr *e = t->next;
   for (; e && e->op == IR_OP_EXTRACT && e->src[0] == t; e = e->next) {
      struct ir_reg r = t->mach->reg;
      r.index = (uint16_t)(r.index + (unsigned)e->comp);
      r.count = 1;
      ir_mach_get(ra->m, e)->reg = r;
      occupy(ra, e);
   }
   release(ra, t); /* the components no extract took */
   return e;
}

static bool
live_out(struct ra *ra, const struct ir_block *b, const struct ir_instr *v)
{
   return live_in_set(ra, ir_live_out_set(&ra->lv, b->index), v->id);
}

/* Operand groups that are not consecutive are copied first (a group that
 * another operand of in reads too, once); the members read last by the
 * copies are free after them. */
static void
fix_groups(struct ra *ra, struct ir_instr *in)
{
   struct ir_mach *m = in->mach;
   int fixed[ISA_MAX_SRC]; /* by operand: the earlier operand whose copies it reads, -1 */
   struct ir_instr *was[ISA_MAX_SRC][4] = {{NULL}};
   for (unsigned k = 0; k < m->insn.nsrc && !ra->failed; k++) {
      fixed[k] = -1;
      if (m->count[k] < 2 || group_in_place(in, k))
         continue;
      struct ir_instr *old[ISA_MAX_SRC * 4];
      unsigned n = MIN2(m->count[k], (unsigned)ARRAY_SIZE(old));
      for (unsigned i = 0; i < n; i++)
         old[i] = in->src[m->first[k] + i];
      for (unsigned j = 0; j < k && fixed[k] < 0 && n <= 4; j++) {
         bool same = m->count[j] == n && was[j][0] && group_align(in, j) == group_align(in, k);
         for (unsigned i = 0; same && i < n; i++)
            same = was[j][i] == old[i];
         if (same)
            fixed[k] = (int)j;
      }
      if (fixed[k] >= 0) {
         for (unsigned i = 0; i < n; i++)
            ir_set_src(in, m->first[k] + i, in->src[m->first[fixed[k]] + i]);
      } else {
         fix_group(ra, in, k);
         for (unsigned i = 0; i < n && n <= 4; i++)
            was[k][i] = old[i];
      }
      for (unsigned i = 0; i < n; i++) {
         bool still = false;
         for (unsigned s = 0; s < in->nsrc; s++)
            still |= in->src[s] == old[i];
         if (!still && last_use(ra, old[i]->id) == in)
            release(ra, old[i]);
      }
   }
}

static void assign_block_plain(struct ra *ra, struct ir_block *b);

static void
assign_block(struct ra *ra, struct ir_block *b)
{
   if (ra->cons) {
      assign_block_plain(ra, b);
      return;
   }
   for (unsigned f = 0; f < ra->nfiles; f++)
      clear_file(ra, f);
   const uint64_t *lin = ir_live_in_set(&ra->lv, b->index);
   for (unsigned id = next_in_set(ra, lin, 0); id != ~0u; id = next_in_set(ra, lin, id + 1)) {
      struct ir_instr *v = ra->sh->values[id];
      if (v && ir_has_reg(v) && ir_value_in_regs(v) &&
          !opt_fault_fires(ra->ctx, OPT_FAULT_RA_LIVEIN, "%%%u, live into @%u, not holding r%u", id,
                           b->index, v->mach->reg.index))
         occupy(ra, v);
   }
   unsigned np = 0;
   for (struct ir_instr *in = b->first; in; in = in->next) {
      set_last_use(ra, in->id, NULL);
      if (in->id < ra->npos)
         ra->pos[in->id] = ++np;
   }
   compute_last_uses(ra, b);
   for (struct ir_instr *in = b->first; in && !ra->failed;) {
      struct ir_instr *next = in->next;
      if (in->op == IR_OP_PHI) {
         place_phi(ra, in);
         in = next;
         continue;
      }
      if (in->op == IR_OP_MACH)
         fix_groups(ra, in);
      for (unsigned s = 0; s < in->nsrc; s++)
         if (ir_use_extends_life(in, in->src[s]) && last_use(ra, in->src[s]->id) == in)
            release(ra, in->src[s]);
      for (unsigned s = 0; next && opt_fault(ra->ctx, OPT_FAULT_RA_SHORT) && s < next->nsrc; s++)
         if (ir_use_extends_life(next, next->src[s]) && last_use(ra, next->src[s]->id) == next &&
             opt_fault_fires(ra->ctx, OPT_FAULT_RA_SHORT, "%%%u released at %%%u, before its use",
                             next->src[s]->id, in->id))
            release(ra, next->src[s]); /* ended one instruction early */
      if (ir_value_in_regs(in) && in->op != IR_OP_EXTRACT) {
         int f = file_of(ra, in);
         unsigned n = size_of(in);
         if (opt_fault(ra->ctx, OPT_FAULT_RA_PAIR_ONE))
            n = pair_one_reg(ra, in, f, n);
         if (!place(ra, in, f, n, n == 1 ? hint_for(ra, in, f) : -1))
            break;
         const struct ir_instr *t = in->op == IR_OP_MACH ? opt_tied_src(in) : NULL;
         if (t && !in->mach->tied_unread &&
             (!ir_has_reg(t) || t->mach->reg.file != in->mach->reg.file ||
              t->mach->reg.index != in->mach->reg.index)) {
            ir_error(ra->ctx->diags, ra->sh, in->line,
                     "ra: %%%u does not share the register of %%%u, which it keeps part of", in->id,
                     t->id);
            ra->failed = ra->ctx->failed = true;
            break;
         }
         class_note(ra, in);
         if (in->type == IR_TYPE_V4)
            next = place_extracts(ra, in);
         else if (!last_use(ra, in->id) && !live_out(ra, b, in))
            release(ra, in); /* written, never read */
      }
      in = next;
   }
}

/* The conservative variant: no register freed (in the block, or with
 * unique in the program); the values live in (the validator's liveness)
 * hold theirs. */
static void
assign_block_plain(struct ra *ra, struct ir_block *b)
{
   for (unsigned f = 0; f < ra->nfiles; f++)
      if (ra->level != RA_UNIQUE || (int)f != ra->gpr)
         clear_file(ra, f);
   const uint64_t *lin = ir_live_in_set(&ra->lv, b->index);
   for (unsigned id = 0; id < ra->sh->nvalues; id++) {
      struct ir_instr *v = ra->sh->values[id];
      if (v && live_in_set(ra, lin, id) && ir_has_reg(v) && ir_value_in_regs(v))
         occupy(ra, v);
   }
   for (struct ir_instr *in = b->first; in; in = in->next)
      set_last_use(ra, in->id, NULL);
   compute_last_uses(ra, b);
   for (struct ir_instr *in = b->first; in && !ra->failed;) {
      struct ir_instr *next = in->next;
      if (in->op == IR_OP_MACH)
         fix_groups(ra, in);
      for (unsigned s = 0; in->op != IR_OP_PHI && s < in->nsrc; s++)
         if (ir_use_extends_life(in, in->src[s]) && last_use(ra, in->src[s]->id) == in)
            release(ra, in->src[s]);
      if (ir_value_in_regs(in) && in->op != IR_OP_EXTRACT) {
         int f = file_of(ra, in);
         if (!place(ra, in, f, in->op == IR_OP_PHI ? 1 : size_of(in), -1))
            break;
         if (in->type == IR_TYPE_V4 && in->op != IR_OP_PHI)
            next = place_extracts(ra, in);
         else if (!last_use(ra, in->id) && !live_out(ra, b, in))
            release(ra, in);
      }
      in = next;
   }
}

/* General registers a value takes (its size, and its alignment's slack). */
static unsigned
gpr_need(struct ra *ra, const struct ir_instr *v)
{
   if (!v || !ir_value_in_regs(v) || v->op == IR_OP_EXTRACT || file_of(ra, v) != ra->gpr)
      return 0;
   return size_of(v) + align_of(v) - 1;
}

/* The most conservative level that fits the general file: every value in
 * a register of its own, else no reuse inside a block (the values live in
 * and those it defines), else reuse after the last use. */
static void
choose_level(struct ra *ra)
{
   unsigned n = ra->nregs[ra->gpr], all = 0, worst = 0;
   for (unsigned id = 0; id < ra->sh->nvalues; id++)
      all += gpr_need(ra, ra->sh->values[id]);
   for (unsigned bi = 0; bi < ra->sh->nblocks; bi++) {
      const struct ir_block *b = ra->sh->blocks[bi];
      const uint64_t *lin = ir_live_in_set(&ra->lv, bi);
      unsigned k = 0;
      for (unsigned id = 0; id < ra->sh->nvalues; id++)
         if (live_in_set(ra, lin, id))
            k += gpr_need(ra, ra->sh->values[id]);
      for (const struct ir_instr *in = b->first; in; in = in->next)
         k += gpr_need(ra, in);
      worst = MAX2(worst, k);
   }
   ra->level = all + 8 <= n ? RA_UNIQUE : worst + 8 <= n ? RA_BLOCK : RA_LAST_USE;
}

/* ------------------------------------------------------------------ */
/* Outputs and phis                                                     */

/* Outputs read from registers: a value that lives elsewhere (an immediate,
 * a constant) is copied before the first store. */
static void
copy_outputs(struct ra *ra)
{
   for (unsigned bi = 0; bi < ra->sh->nblocks; bi++) {
      struct ir_instr *first = NULL;
      for (struct ir_instr *in = ra->sh->blocks[bi]->first; in; in = in->next) {
         if (in->op != IR_OP_STORE_OUTPUT)
            continue;
         if (!first)
            first = in;
         struct ir_instr *v = in->src[0];
         if (!ir_value_in_regs(v) || file_of(ra, v) != ra->gpr)
            ir_set_src(in, 0, opt_copy_before(ra->sh, first, v));
      }
   }
}

/* A copy of v at the end of block b (before its break/continue). */
static struct ir_instr *
copy_at_end(struct ra *ra, struct ir_block *b, struct ir_instr *v)
{
   if (b->last && (ir_op_info[b->last->op].flags & IR_OPF_JUMP))
      return opt_copy_before(ra->sh, b->last, v);
   struct ir_instr *anchor = ir_instr_create(ra->sh, IR_OP_IMM, 0);
   anchor->type = IR_TYPE_32;
   ir_block_append(b, anchor);
   struct ir_instr *c = opt_copy_before(ra->sh, anchor, v);
   ir_instr_remove(anchor);
   return c;
}

/* A register of the general file free at the end of pred: not live out and
 * not a phi's of succ. */
static int
scratch_at_end(struct ra *ra, struct ir_block *pred, struct ir_block *succ)
{
   int f = ra->gpr;
   clear_file(ra, (unsigned)f);
   const uint64_t *out = ir_live_out_set(&ra->lv, pred->index);
   for (unsigned id = next_in_set(ra, out, 0); id != ~0u; id = next_in_set(ra, out, id + 1)) {
      struct ir_instr *v = ra->sh->values[id];
      if (v && ir_has_reg(v) && v->mach->reg.file == f)
         occupy(ra, v);
   }
   for (struct ir_instr *p = succ->first; p && p->op == IR_OP_PHI; p = p->next)
      if (ir_has_reg(p) && p->mach->reg.file == f)
         occupy(ra, p);
   for (unsigned r = 0; r < ra->nregs[f]; r++)
      if (!ra->occ[f][r])
         return (int)r;
   return -1;
}

struct pcopy {
   struct ir_instr *phi, *src;
   int from; /* register read, or -1 (immediate, constant) */
};

static int
reg_read(struct ra *ra, const struct ir_instr *v)
{
   return ir_has_reg(v) && v->mach->reg.file == ra->gpr && ir_value_in_regs(v) ? v->mach->reg.index
                                                                               : -1;
}

/* The conservative phi copies on the edge pred -> succ: every source
 * into a register free at the end of pred, then each into its phi, so no
 * order can overwrite a source still to be read. */
static void
resolve_edge_plain(struct ra *ra, struct ir_block *succ, unsigned k, struct pcopy *pc, unsigned n)
{
   struct ir_block *pred = succ->preds[k];
   if (!n)
      return;
   scratch_at_end(ra, pred, succ); /* leaves the registers in use occupied */
   int f = ra->gpr;
   unsigned r = 0;
   for (unsigned i = 0; i < n; i++) {
      while (r < ra->nregs[f] && ra->occ[f][r])
         r++;
      if (r >= ra->nregs[f]) {
         no_room(ra, pc[i].phi, f);
         return;
      }
      pc[i].src = copy_at_end(ra, pred, pc[i].src);
      ir_mach_get(ra->m, pc[i].src)->reg = (struct ir_reg){(int16_t)f, (uint16_t)r++, 1};
   }
   for (unsigned i = 0; i < n; i++) {
      struct ir_instr *c = copy_at_end(ra, pred, pc[i].src);
      ir_mach_get(ra->m, c)->reg = pc[i].phi->mach->reg;
      ir_set_src(pc[i].phi, k, c);
   }
}

/* The phi copies on the edge pred -> succ (source k of succ's phis). */
static void
resolve_edge(struct ra *ra, struct ir_block *succ, unsigned k)
{
   struct ir_block *pred = succ->preds[k];
   unsigned n = 0;
   for (struct ir_instr *p = succ->first; p && p->op == IR_OP_PHI; p = p->next) {
      struct ir_instr *s = p->src[k];
      if (ir_has_reg(s) && s->mach->reg.file == p->mach->reg.file &&
          s->mach->reg.index == p->mach->reg.index && ir_value_in_regs(s))
         continue;
      if (n == ra->pc_cap) {
         ra->pc_cap = MAX2(2 * ra->pc_cap, 64u);
         ra->pc = xrealloc(ra->pc, ra->pc_cap * sizeof(*ra->pc));
      }
      ra->pc[n++] = (struct pcopy){p, s, reg_read(ra, s)};
   }
   struct pcopy *pc = ra->pc;
   if (ra->cons) {
      resolve_edge_plain(ra, succ, k, pc, n);
      return;
   }
   int scratch = -2;
   while (n) {
      unsigned i = 0;
      for (; i < n; i++) {
         bool blocks = false;
         for (unsigned j = 0; j < n && !blocks; j++)
            blocks = j != i && pc[j].from == pc[i].phi->mach->reg.index;
         if (!blocks)
            break;
      }
      if (i != 0 && opt_fault_fires(ra->ctx, OPT_FAULT_RA_PHI_ORDER,
                                    "phi copy into %%%u from @%u first, over a register read",
                                    pc[0].phi->id, pred->index))
         i = 0; /* list order */
      if (i < n) {
         struct ir_instr *c = copy_at_end(ra, pred, pc[i].src);
         ir_mach_get(ra->m, c)->reg = pc[i].phi->mach->reg;
         ir_set_src(pc[i].phi, k, c);
         pc[i] = pc[--n];
         continue;
      }
      /* every destination is still to be read: a cycle */
      if (scratch == -2)
         scratch = scratch_at_end(ra, pred, succ);
      if (scratch < 0) {
         no_room(ra, pc[0].phi, ra->gpr);
         return;
      }
      struct ir_instr *t = copy_at_end(ra, pred, pc[0].src);
      ir_mach_get(ra->m, t)->reg = (struct ir_reg){(int16_t)ra->gpr, (uint16_t)scratch, 1};
      pc[0].src = t;
      pc[0].from = scratch;
   }
}

static void
resolve_phis(struct ra *ra)
{
   for (unsigned bi = 0; bi < ra->sh->nblocks && !ra->failed; bi++) {
      struct ir_block *b = ra->sh->blocks[bi];
      if (!b->first || b->first->op != IR_OP_PHI)
         continue;
      for (unsigned k = 0; k < b->npreds && !ra->failed; k++)
         resolve_edge(ra, b, k);
   }
}

/* ------------------------------------------------------------------ */
/* The pass                                                             */

bool
opt_ra(struct ir_shader *sh, struct opt_ctx *ctx)
{
   if (!sh->model)
      return false;
   struct ra ra = {.sh = sh, .ctx = ctx, .m = sh->model, .gpr = -1};
   ra.nfiles = MIN2(isa_file_count(sh->model), (unsigned)RA_MAX_FILES);
   for (unsigned f = 0; f < ra.nfiles; f++) {
      struct isa_file_info fi;
      isa_file_info(sh->model, f, &fi);
      ra.nregs[f] = opt_file_capacity(sh->model, f) - opt_exec_reserved(sh, f);
      ra.occ[f] = xcalloc(fi.count + 1, sizeof(struct ir_instr *));
      if (fi.kind == ISA_FILE_FULL && ra.gpr < 0)
         ra.gpr = (int)f;
   }
   copy_outputs(&ra);
   ir_compute_cfg(sh);
   ra.cons = opt_stage_conservative(ctx, OPT_STAGE_RA) &&
             opt_conservative(ctx, OPT_STAGE_RA, 0, "every value");
   if (ra.cons) {
      ir_validate_liveness(sh, &ra.lv);
      opt_exec_liveness(sh, &ra.lv);
   } else
      ir_liveness(sh, &ra.lv);
   if (ra.cons && ra.gpr >= 0)
      choose_level(&ra);
   set_last_use(&ra, sh->nvalues, NULL);
   build_classes(&ra);
   ra.npos = sh->nvalues;
   ra.pos = xcalloc(ra.npos + 1, sizeof(*ra.pos));
   ra.live = xcalloc(ra.lv.dense_words, sizeof(uint64_t));
   for (unsigned bi = 0; bi < sh->nblocks && !ra.failed; bi++)
      assign_block(&ra, sh->blocks[bi]);
   const struct ir_instr *g = NULL;
   if (!ra.failed)
      resolve_phis(&ra);
   if (!ra.failed && !opt_guard_breaks(sh, false, &g)) /* phi copies of a predicated break */
      ir_error(ctx->diags, sh, g->line,
               "ra: %%%u, a differently guarded instruction before a break", g->id),
          ra.failed = ctx->failed = true;
   ir_liveness_free(&ra.lv);
   free(ra.live);
   for (unsigned f = 0; f < ra.nfiles; f++)
      free(ra.occ[f]);
   free(ra.last_use);
   free(ra.klass);
   free(ra.class_reg);
   free(ra.pos);
   free(ra.pc);
   sh->cfg_valid = false;
   return true;
}
