/*
 * A critical-path list scheduler, per block, before register allocation
 * (the first ir3 scheduler's idea: issue the deepest path first, fill the
 * delay slots it leaves with other work).
 *
 * The dependence graph of a block's machine instructions: SSA def-use
 * (a texture result travels with its extracts), and an order kept among
 * instructions with effects (stores, kill) and the loads and texture reads
 * around them. Edge latencies come from isa_delay() asked about the two
 * records with the value's register in common: the delay-slot distance
 * plus one for fixed latencies, the class's `soft` estimate where a sync
 * waits instead. The implied branch at the end of the block reads the if's
 * predicate; values live out of the block get the latency an ordinary
 * consumer would see, so long operations start early.
 *
 * Each cycle the ready instruction with the longest path to the end of
 * the block issues; when none is ready the earliest one does (a nop the
 * hazard pass will insert). While more values are live than the register
 * budget (the original order's peak, at least a quarter of the file), an
 * instruction that frees registers wins over one that is merely ready, and
 * when every ready instruction would add live values the first in the
 * source order issues: the chains already started are finished before
 * others start, as in the order the budget was measured on (by path length
 * instead, a block of many independent chains, virglrenderer's value-noise
 * shader, went from a peak of 39 to 224 values on a3xx).
 * Values of small files (predicates, address registers) are made only
 * while the file has room, and once it is half full first only when a
 * reader waits for them alone, so that the file never overflows.
 * Phis, inputs, immediates and constants stay at the top (they emit
 * nothing), stores of outputs and `end` at the bottom, break/continue last.
 * Reordering a block is one opt_transform.
 */
#include "compiler/ir/ir.h"

#include <stdlib.h>

#define SCHED_MAX_FILES 16

struct sedge {
   unsigned to;
   int lat;
};

struct snode {
   struct ir_instr *in;
   struct sedge *succ;
   unsigned nsucc, cap;
   unsigned npred, left;
   int prio;     /* longest path to the end of the block; -1: not yet known */
   int end_lat;  /* latency to a consumer after the block */
   int earliest; /* cycle its operands are ready */
   int defs;     /* general registers it defines */
   int small;    /* the small file of the value it defines, or -1 (small_file) */
   bool done;
   unsigned fr_first, nfr; /* its entries in sched.fr */
};

/* A general register a node may free: a distinct source in a general
 * register, not live out of the block, read `here` times by the node; it
 * frees `size` registers when those are its last uses. */
struct sfree {
   unsigned id, here;
   int size;
};

struct sched {
   struct ir_shader *sh;
   struct opt_ctx *ctx;
   const struct isa_model *m;
   int gpr;
   struct ir_liveness lv;
   struct snode *n;
   unsigned nn, ncap;
   unsigned *node_of; /* by value id: node index + 1, 0 if not in the block */
   unsigned *uses;    /* by value id: unscheduled uses left in the block */
   unsigned cap1[16]; /* by file: opt_file_capacity + 1, 0 until asked (it scans the ops) */
   struct sfree *fr;  /* the block's nodes' sources that may free registers */
   unsigned nfr, frcap;
   bool progress;
};

/* ------------------------------------------------------------------ */
/* Latencies                                                            */

static struct isa_class_info
class_of(const struct isa_model *m, const struct isa_insn *in)
{
   struct isa_class_info c;
   isa_class_info(m, in->cls, &c);
   return c;
}

/* A register operand of file f at index i (small files wrap). */
static void
reg_opnd(const struct isa_model *m, struct isa_opnd *o, int f, unsigned i)
{
   struct isa_file_info fi;
   isa_file_info(m, (unsigned)f, &fi);
   o->kind = ISA_OPND_REG;
   o->file = (uint8_t)f;
   o->index = (uint16_t)(fi.count ? i % fi.count : 0);
   o->flags = 0;
}

/* Cycles from issuing p until c may issue when c's operand k (position
 * pos of its group) reads p's result (component comp of a group result). */
static int
latency(struct sched *s, const struct ir_instr *p, const struct ir_instr *c, unsigned k,
        unsigned pos, unsigned comp)
{
   int f = ir_reg_file(p) >= 0 ? ir_reg_file(p) : s->gpr;
   struct isa_insn a = p->mach->insn, b = c->mach->insn;
   for (unsigned d = 0; d < a.ndst; d++)
      reg_opnd(s->m, &a.dst[d], f, 64 + 8 * d);
   for (unsigned j = 0; j < b.nsrc; j++)
      if (c->mach->count[j])
         reg_opnd(s->m, &b.src[j], s->gpr, 128 + 8 * j);
   for (unsigned d = 0; d < b.ndst; d++)
      reg_opnd(s->m, &b.dst[d], s->gpr, 160 + 8 * d);
   reg_opnd(s->m, &b.src[k], f, 64 + comp - pos);
   b.src[k].flags = c->mach->insn.src[k].flags;
   struct isa_delay dl = isa_delay(s->m, &a, ISA_SLOT_DST(0), &b, ISA_SLOT_SRC(k));
   if (dl.sync != ISA_SYNC_NONE) {
      struct isa_class_info pc = class_of(s->m, &a);
      return pc.soft_latency > 0 ? pc.soft_latency : 1;
   }
   return dl.distance + 1;
}

/* The latency a consumer elsewhere would see: what an ALU copy needs. */
static int
latency_out(struct sched *s, const struct ir_instr *p)
{
   struct isa_class_info pc = class_of(s->m, &p->mach->insn);
   if (pc.sync != ISA_SYNC_NONE)
      return pc.soft_latency > 0 ? pc.soft_latency : 1;
   return pc.latency > 0 ? pc.latency + 1 : 1;
}

/* The latency to the branch of the if after the block (reading p). */
static int
latency_branch(struct sched *s, const struct ir_instr *p)
{
   int op = opt_op_by_sem(s->m, ISA_SEM_BRANCH);
   if (op < 0)
      return latency_out(s, p);
   struct isa_insn a = p->mach->insn, b;
   isa_insn_init(s->m, (unsigned)op, &b);
   int f = ir_reg_file(p) >= 0 ? ir_reg_file(p) : s->gpr;
   reg_opnd(s->m, &a.dst[0], f, 0);
   for (unsigned k = 0; k < b.nsrc; k++) {
      struct isa_slot_info si;
      isa_slot_info(s->m, (unsigned)op, false, k, &si);
      if (si.kinds & (1u << ISA_OPND_REG)) {
         reg_opnd(s->m, &b.src[k], f, 0);
         struct isa_delay dl = isa_delay(s->m, &a, ISA_SLOT_DST(0), &b, ISA_SLOT_SRC(k));
         return dl.sync != ISA_SYNC_NONE ? latency_out(s, p) : dl.distance + 1;
      }
   }
   return latency_out(s, p);
}

/* ------------------------------------------------------------------ */
/* The graph                                                            */

static void
edge(struct sched *s, unsigned from, unsigned to, int lat)
{
   struct snode *a = &s->n[from];
   for (unsigned i = 0; i < a->nsucc; i++)
      if (a->succ[i].to == to) {
         a->succ[i].lat = MAX2(a->succ[i].lat, lat);
         return;
      }
   struct sedge e = {to, lat};
   VEC_PUSH(a->succ, a->nsucc, a->cap, e);
   s->n[to].npred++;
}

/* An effect, or a write of a fixed register without a value (gfx9: a
 * kill's s_andn2 exec): such writes keep their place among the effects. */
static bool
is_effect(const struct ir_instr *in)
{
   const struct isa_insn *x = &in->mach->insn;
   return opt_sem_has_effect(x->sem) ||
          (in->type == IR_TYPE_NONE && x->ndst && x->dst[0].kind == ISA_OPND_REG);
}

/* Reads memory, or other lanes' registers through a DPP control (gfx9):
 * which lanes are active matters to it, so it keeps its place against
 * effects such as a kill's EXEC write. */
static bool
is_read(const struct sched *s, const struct ir_instr *in)
{
   unsigned op = in->mach->insn.op;
   if (isa_op_has_mod(s->m, op, isa_mod_by_role(s->m, ISA_ROLE_DPP_QP0)) ||
       isa_op_has_mod(s->m, op, isa_mod_by_role(s->m, ISA_ROLE_DPP_ROW)))
      return true;
   switch (in->mach->insn.sem) {
   case ISA_SEM_LDG:
   case ISA_SEM_LDL:
      return true;
   default:
      return opt_sem_is_texture(in->mach->insn.sem);
   }
}

static void
data_edges(struct sched *s, unsigned i)
{
   struct ir_instr *c = s->n[i].in;
   const struct ir_mach *m = c->mach;
   for (unsigned k = 0; k < m->insn.nsrc; k++)
      for (unsigned pos = 0; pos < m->count[k]; pos++) {
         struct ir_instr *v = c->src[m->first[k] + pos];
         unsigned comp = 0;
         if (v->op == IR_OP_EXTRACT) {
            comp = (unsigned)v->comp;
            v = v->src[0];
         }
         unsigned p = v->id < s->sh->nvalues ? s->node_of[v->id] : 0;
         if (p && p - 1 != i)
            edge(s, p - 1, i, latency(s, v, c, k, pos, comp));
      }
   struct ir_instr *t = opt_tied_src(c); /* SDWA PRESERVE reads the register it keeps */
   unsigned tp = t && t->id < s->sh->nvalues ? s->node_of[t->id] : 0;
   if (tp && tp - 1 != i)
      edge(s, tp - 1, i, latency_out(s, t));
   if (m->guard != IR_MACH_FIXED) { /* a guard reads its predicate like a source */
      struct ir_instr *v = c->src[m->guard];
      unsigned p = v->id < s->sh->nvalues ? s->node_of[v->id] : 0;
      if (p && p - 1 != i)
         edge(s, p - 1, i, isa_hazard_param(s->m, "pred_latency", latency_out(s, v)) + 1);
   }
}

static bool
sem_in(const struct ir_instr *in, enum isa_sem a, enum isa_sem b)
{
   return in->mach->insn.sem == a || in->mach->insn.sem == b;
}

static bool
is_atomic(const struct ir_instr *in)
{
   return sem_in(in, ISA_SEM_ATOM, ISA_SEM_ATOMS) ||
          sem_in(in, ISA_SEM_ATOM_CAS, ISA_SEM_ATOMS_CAS);
}

/* The memory-order faults: the edge from `before` to `in` left out. */
static bool
order_dropped(struct sched *s, const struct ir_instr *before, const struct ir_instr *in)
{
   enum opt_fault f = OPT_FAULT_COUNT;
   bool load = sem_in(in, ISA_SEM_LDG, ISA_SEM_LDL), store = sem_in(in, ISA_SEM_STG, ISA_SEM_STL);
   if (load && sem_in(before, ISA_SEM_STG, ISA_SEM_STL))
      f = OPT_FAULT_SCHED_LOAD_STORE;
   else if (store && sem_in(before, ISA_SEM_LDG, ISA_SEM_LDL))
      f = OPT_FAULT_SCHED_STORE_LOAD;
   else if (is_atomic(in) && before->mach->insn.sem == ISA_SEM_KILL)
      f = OPT_FAULT_SCHED_ATOMIC_KILL;
   return f != OPT_FAULT_COUNT && opt_fault(s->ctx, f) &&
          opt_fault_fires(s->ctx, f, "%%%u may pass %%%u", in->id, before->id);
}

/* Effects keep their order among themselves and against memory and
 * texture reads. */
static void
order_edges(struct sched *s)
{
   int last_effect = -1;
   for (unsigned i = 0; i < s->nn; i++) {
      struct ir_instr *in = s->n[i].in;
      if (is_effect(in)) {
         for (unsigned j = (unsigned)(last_effect + 1); j < i; j++)
            if (is_read(s, s->n[j].in) && !order_dropped(s, s->n[j].in, in))
               edge(s, j, i, 1);
         if (last_effect >= 0 && !order_dropped(s, s->n[last_effect].in, in))
            edge(s, (unsigned)last_effect, i, 1);
         last_effect = (int)i;
      } else if (is_read(s, in) && last_effect >= 0 &&
                 !order_dropped(s, s->n[last_effect].in, in)) {
         edge(s, (unsigned)last_effect, i, 1);
      }
   }
}

static int
compute_prio(struct sched *s, unsigned i)
{
   struct snode *a = &s->n[i];
   if (a->prio >= 0)
      return a->prio;
   int p = MAX2(1, a->end_lat);
   for (unsigned e = 0; e < a->nsucc; e++)
      p = MAX2(p, a->succ[e].lat + compute_prio(s, a->succ[e].to));
   return a->prio = p;
}

/* ------------------------------------------------------------------ */
/* Pressure                                                             */

static bool
in_gpr(const struct sched *s, const struct ir_instr *v)
{
   return ir_value_in_regs(v) && (ir_reg_file(v) < 0 || ir_reg_file(v) == s->gpr);
}

static int
size_of(const struct ir_instr *v)
{
   if (v->op == IR_OP_MACH && v->type == IR_TYPE_V4)
      return 0; /* its extracts count */
   return 1;
}

static bool
live_out(const struct sched *s, const struct ir_block *b, const struct ir_instr *v)
{
   return ir_live_test(&s->lv, ir_live_out_set(&s->lv, b->index), v->id);
}

/* The sources of node i that may free registers (struct sfree): what of
 * net_growth does not change while the block is scheduled, found once. */
static void
find_frees(struct sched *s, const struct ir_block *b, unsigned i)
{
   struct ir_instr *c = s->n[i].in;
   s->n[i].fr_first = s->nfr;
   for (unsigned k = 0; k < c->nsrc; k++) {
      struct ir_instr *v = c->src[k];
      bool first = true;
      for (unsigned j = 0; j < k; j++)
         first &= c->src[j] != v;
      if (!first || !in_gpr(s, v) || live_out(s, b, v))
         continue;
      unsigned here = 0;
      for (unsigned j = 0; j < c->nsrc; j++)
         here += c->src[j] == v;
      struct sfree f = {v->id, here, size_of(v)};
      VEC_PUSH(s->fr, s->nfr, s->frcap, f);
   }
   s->n[i].nfr = s->nfr - s->n[i].fr_first;
}

/* Registers node i frees minus those it takes, were it issued now: a
 * source frees its registers when the node holds its last uses. */
static int
net_growth(const struct sched *s, unsigned i)
{
   int g = s->n[i].defs;
   for (unsigned k = 0; k < s->n[i].nfr; k++) {
      const struct sfree *f = &s->fr[s->n[i].fr_first + k];
      if (s->uses[f->id] == f->here)
         g -= f->size;
   }
   return g;
}

static void
issue_uses(struct sched *s, unsigned i)
{
   struct ir_instr *c = s->n[i].in;
   for (unsigned k = 0; k < c->nsrc; k++)
      if (s->uses[c->src[k]->id])
         s->uses[c->src[k]->id]--;
}

/* ------------------------------------------------------------------ */
/* Blocks                                                               */

static bool
is_tail(const struct ir_instr *in)
{
   return in->op == IR_OP_STORE_OUTPUT || in->op == IR_OP_BREAK || in->op == IR_OP_CONTINUE ||
          (in->op == IR_OP_MACH && in->mach->insn.sem == ISA_SEM_END);
}

static bool
stays_at_top(const struct ir_instr *in)
{
   return in->op == IR_OP_PHI || in->op == IR_OP_IMM || in->op == IR_OP_LOAD_CONST ||
          in->op == IR_OP_LOAD_INPUT || in->op == IR_OP_LOAD_SYSVAL;
}

/* s->uses of the values the block reads: their readers in it. Only those
 * entries are touched, so a block costs its own instructions. */
static void
count_uses(struct sched *s, const struct ir_block *b)
{
   for (const struct ir_instr *in = b->first; in; in = in->next)
      for (unsigned k = 0; k < in->nsrc; k++)
         s->uses[in->src[k]->id] = 0;
   for (const struct ir_instr *in = b->first; in; in = in->next)
      for (unsigned k = 0; k < in->nsrc; k++)
         s->uses[in->src[k]->id]++;
}

/* Moves the values that emit nothing above the machine instructions. */
static struct ir_instr *
gather_top(struct ir_block *b)
{
   struct ir_instr *last_top = NULL;
   for (struct ir_instr *in = b->first, *next; in && !is_tail(in); in = next) {
      next = in->next;
      if (!stays_at_top(in))
         continue;
      if (in->prev != last_top) {
         ir_instr_remove(in);
         in->removed = false;
         if (last_top)
            ir_insert_after(last_top, in);
         else
            ir_block_prepend(b, in);
      }
      last_top = in;
   }
   return last_top;
}

static int
small_file(const struct sched *s, const struct ir_instr *v)
{
   int f = v->type == IR_TYPE_32 ? ir_reg_file(v) : -1;
   return f >= 0 && f != s->gpr && f < SCHED_MAX_FILES ? f : -1;
}

static void
build_nodes(struct sched *s, struct ir_block *b, struct ir_instr *top)
{
   for (struct ir_instr *in = top ? top->next : b->first; in && !is_tail(in); in = in->next) {
      if (in->op != IR_OP_MACH)
         continue;
      struct snode nd = {.in = in, .prio = -1, .small = small_file(s, in)};
      VEC_RESERVE(s->n, s->ncap, s->nn + 1);
      s->n[s->nn] = nd;
      s->node_of[in->id] = ++s->nn;
   }
   struct ir_instr *cond = ir_block_if_cond(b);
   for (unsigned i = 0; i < s->nn; i++) {
      struct snode *a = &s->n[i];
      struct ir_instr *v = a->in;
      data_edges(s, i);
      if (v == cond)
         a->end_lat = latency_branch(s, v);
      if (v->type == IR_TYPE_V4) {
         for (struct ir_instr *e = v->next; e && e->op == IR_OP_EXTRACT && e->src[0] == v;
              e = e->next) {
            a->defs += in_gpr(s, e);
            if (live_out(s, b, e))
               a->end_lat = MAX2(a->end_lat, latency_out(s, v));
         }
      } else if (v->type != IR_TYPE_NONE) {
         a->defs = in_gpr(s, v);
         if (live_out(s, b, v))
            a->end_lat = MAX2(a->end_lat, latency_out(s, v));
      }
   }
   order_edges(s);
   /* Edges go forward in the block, so from the last node back every
    * successor is known: no recursion as deep as a dependence chain (a
    * chain of 100k instructions overflowed the stack). */
   for (unsigned i = s->nn; i-- > 0;)
      compute_prio(s, i);
   for (unsigned i = 0; i < s->nn; i++)
      s->n[i].left = s->n[i].npred;
   s->nfr = 0;
   for (unsigned i = 0; i < s->nn; i++)
      find_frees(s, b, i);
   count_uses(s, b);
}

/* Registers live at the start of the block's region, and the original
 * order's peak. */
static int
original_peak(struct sched *s, struct ir_block *b, int *start)
{
   int live = 0;
   const uint64_t *in = ir_live_in_set(&s->lv, b->index);
   for (unsigned id = ir_live_next_id(&s->lv, in, 0); id < s->sh->nvalues;
        id = ir_live_next_id(&s->lv, in, id + 1))
      if (in_gpr(s, s->sh->values[id]))
         live++;
   for (struct ir_instr *x = b->first; x && x->op == IR_OP_PHI; x = x->next)
      live += in_gpr(s, x);
   *start = live;
   int peak = live;
   for (unsigned i = 0; i < s->nn; i++) {
      live += net_growth(s, i);
      issue_uses(s, i);
      peak = MAX2(peak, live);
   }
   count_uses(s, b);
   return peak;
}

static bool
better(const struct snode *a, int ga, const struct snode *b, int gb, int cycle, bool tight)
{
   if (tight && (ga > 0 || gb > 0))
      return ga > 0 && gb > 0 ? a < b : ga < gb;
   if (tight && ga != gb)
      return ga < gb;
   bool ra = a->earliest <= cycle, rb = b->earliest <= cycle;
   if (ra != rb)
      return ra;
   if (!ra && a->earliest != b->earliest)
      return a->earliest < b->earliest;
   if (a->prio != b->prio)
      return a->prio > b->prio;
   return a < b;
}

/* The file of a value in a small register file (address, predicate) that
 * node i defines, or -1: found once per node (small_file), asked for every
 * ready node at every step. */
static int
small_def(const struct sched *s, unsigned i)
{
   return s->n[i].small;
}

/* Values of small files live now (issue order), so that more than a file
 * holds are never live at once (ir3 serializes a0/p0 the same way). */
static int
capacity(struct sched *s, int f)
{
   if ((unsigned)f >= ARRAY_SIZE(s->cap1))
      return (int)opt_file_capacity(s->m, (unsigned)f);
   if (!s->cap1[f])
      s->cap1[f] = opt_file_capacity(s->m, (unsigned)f) + 1;
   return (int)s->cap1[f] - 1;
}

static bool
small_room(struct sched *s, const int *live_small, unsigned i)
{
   int f = small_def(s, i);
   if (f < 0)
      return true;
   return live_small[f] < capacity(s, f);
}

/* With its file more than half full, a small-file value is made only when
 * a reader waits for it alone (or it has none in the block: the branch):
 * made early, values would hold the few registers that the readers of
 * others need, until only such values are ready and the file overflows. */
static bool
small_wanted(struct sched *s, const int *live_small, unsigned i)
{
   int f = small_def(s, i);
   if (f < 0 || !s->n[i].nsucc || 2 * live_small[f] < capacity(s, f))
      return true;
   for (unsigned e = 0; e < s->n[i].nsucc; e++)
      if (s->n[s->n[i].succ[e].to].left == 1)
         return true;
   return false;
}

static void
small_issue(struct sched *s, const struct ir_block *b, int *live_small, unsigned i)
{
   struct ir_instr *c = s->n[i].in;
   int f = small_def(s, i);
   if (f >= 0)
      live_small[f]++;
   for (unsigned k = 0; k < c->nsrc; k++) {
      const struct ir_instr *v = c->src[k];
      int vf = ir_reg_file(v);
      bool first = true;
      for (unsigned j = 0; j < k; j++)
         first &= c->src[j] != v;
      if (first && vf >= 0 && vf != s->gpr && vf < SCHED_MAX_FILES && !s->uses[v->id] &&
          !live_out(s, b, v) && live_small[vf] > 0)
         live_small[vf]--;
   }
}

/* Values of small files live into the block, or defined in it before its
 * region (phis): they hold their registers from the start. */
static void
small_live_in(const struct sched *s, const struct ir_block *b, int *live_small)
{
   const uint64_t *in = ir_live_in_set(&s->lv, b->index);
   for (unsigned id = ir_live_next_id(&s->lv, in, 0); id < s->sh->nvalues;
        id = ir_live_next_id(&s->lv, in, id + 1)) {
      const struct ir_instr *v = s->sh->values[id];
      int f = v ? ir_reg_file(v) : -1;
      if (f >= 0 && f != s->gpr && f < SCHED_MAX_FILES)
         live_small[f]++;
   }
   for (const struct ir_instr *x = b->first; x && x->op == IR_OP_PHI; x = x->next) {
      int f = ir_reg_file(x);
      if (f >= 0 && f != s->gpr && f < SCHED_MAX_FILES)
         live_small[f]++;
   }
}

/*
 * Static candidates. A ready node that defines no small-file value and
 * reads no general register it could free (every source outside the file
 * or live out of the block) passes every filter and has the fixed growth
 * defs, so its rank under better() changes only with the cycle: such
 * nodes (immediates materialized for each reader, thousands ready at once
 * on gfx9) wait in heaps instead of the ready list, which is scanned each
 * step. Per value of defs: `wait` by (earliest, -prio, node) for those not
 * ready at the cycle, `now` by (-prio, node) for the others (the cycle
 * only grows, so nodes only move from wait to now), and `first` by node
 * alone, better()'s order among nodes of positive growth while the block
 * is over its budget. A node is in `first` and in one of the others; the
 * entry left behind when it issues is dropped when it reaches the top.
 * The best of the heaps' tops and of the scanned list is the node the full
 * scan would pick (better() is a strict total order), so the schedule is
 * the same.
 */
#define SCHED_STATIC_DEFS 4

/* A heap entry carries its keys: they are final once the node is ready
 * (its predecessors have issued), and comparing them in the heap's own
 * array does not touch the nodes. */
struct shent {
   int earliest, prio;
   unsigned node;
};

struct sheap {
   struct shent *v;
   unsigned n;
   bool by_earliest; /* wait: earliest first */
};

static bool
heap_less(const struct sheap *h, const struct shent *x, const struct shent *y)
{
   if (h->by_earliest && x->earliest != y->earliest)
      return x->earliest < y->earliest;
   if (x->prio != y->prio)
      return x->prio > y->prio;
   return x->node < y->node;
}

static void
heap_push(struct sheap *h, struct shent e)
{
   unsigned k = h->n++;
   while (k && heap_less(h, &e, &h->v[(k - 1) / 2])) {
      h->v[k] = h->v[(k - 1) / 2];
      k = (k - 1) / 2;
   }
   h->v[k] = e;
}

static struct shent
heap_pop(struct sheap *h)
{
   struct shent top = h->v[0], last = h->v[--h->n];
   unsigned k = 0;
   for (;;) {
      unsigned l = 2 * k + 1, r = l + 1, m = l;
      if (l >= h->n)
         break;
      if (r < h->n && heap_less(h, &h->v[r], &h->v[l]))
         m = r;
      if (!heap_less(h, &h->v[m], &last))
         break;
      h->v[k] = h->v[m];
      k = m;
   }
   if (h->n)
      h->v[k] = last;
   return top;
}

/* Whether the heap holds a node not yet issued (dropping those that were). */
static bool
heap_live(const struct sched *s, struct sheap *h)
{
   while (h->n && s->n[h->v[0].node].done)
      heap_pop(h);
   return h->n;
}

static bool
is_static(struct sched *s, const struct ir_block *b, unsigned i)
{
   const struct ir_instr *c = s->n[i].in;
   if (small_def(s, i) >= 0 || s->n[i].defs < 0 || s->n[i].defs >= SCHED_STATIC_DEFS)
      return false;
   for (unsigned k = 0; k < c->nsrc; k++)
      if (in_gpr(s, c->src[k]) && !live_out(s, b, c->src[k]))
         return false;
   return true;
}

struct ready_set {
   unsigned *list, n; /* the others, scanned */
   struct sheap wait[SCHED_STATIC_DEFS], now[SCHED_STATIC_DEFS], first[SCHED_STATIC_DEFS];
};

static void
ready_add(struct sched *s, const struct ir_block *b, struct ready_set *rs, unsigned i)
{
   const struct snode *a = &s->n[i];
   if (is_static(s, b, i)) {
      heap_push(&rs->wait[a->defs], (struct shent){a->earliest, a->prio, i});
      if (a->defs)
         heap_push(&rs->first[a->defs], (struct shent){0, 0, i});
   } else {
      rs->list[rs->n++] = i;
   }
}

/* The best static node at the cycle (-1: none) and its heap. Over the
 * budget better() ranks nodes of positive growth by index alone; nodes of
 * growth 0 as below it. */
static int
static_best(struct sched *s, struct ready_set *rs, int cycle, bool tight, struct sheap **from)
{
   int best = -1;
   for (unsigned d = 0; d < SCHED_STATIC_DEFS; d++) {
      while (heap_live(s, &rs->wait[d]) && rs->wait[d].v[0].earliest <= cycle)
         heap_push(&rs->now[d], heap_pop(&rs->wait[d]));
      struct sheap *h = tight && d                  ? &rs->first[d]
                        : heap_live(s, &rs->now[d]) ? &rs->now[d]
                                                    : &rs->wait[d];
      if (!heap_live(s, h))
         continue;
      int i = (int)h->v[0].node;
      if (best < 0 || better(&s->n[i], (int)d, &s->n[best], s->n[best].defs, cycle, tight)) {
         best = i;
         *from = h;
      }
   }
   return best;
}

/* The issue order (node indices). */
static unsigned *
list_schedule(struct sched *s, struct ir_block *b)
{
   int live_small[SCHED_MAX_FILES] = {0};
   small_live_in(s, b, live_small);
   int live, peak = original_peak(s, b, &live);
   struct isa_file_info fi;
   isa_file_info(s->m, (unsigned)s->gpr, &fi);
   int budget = MAX2(peak, (int)fi.count / 4);
   unsigned *order = xmalloc((s->nn + 1) * sizeof(unsigned));
   /* The nodes whose predecessors have all issued: the only candidates,
    * so a step costs the ready nodes, not the block (better() is a strict
    * order, so the scan order does not change the choice). */
   struct ready_set rs = {.list = xmalloc((s->nn + 1) * sizeof(unsigned))};
   for (unsigned d = 0; d < SCHED_STATIC_DEFS; d++) {
      rs.wait[d] = (struct sheap){xmalloc((s->nn + 1) * sizeof(struct shent)), 0, true};
      rs.now[d] = (struct sheap){xmalloc((s->nn + 1) * sizeof(struct shent)), 0, false};
      if (d) /* growth 0 is never ranked by index */
         rs.first[d] = (struct sheap){xmalloc((s->nn + 1) * sizeof(struct shent)), 0, false};
   }
   for (unsigned i = 0; i < s->nn; i++)
      if (!s->n[i].left)
         ready_add(s, b, &rs, i);
   int cycle = 0;
   for (unsigned k = 0; k < s->nn; k++) {
      bool tight = live + 1 > budget;
      struct sheap *from = NULL;
      int best = static_best(s, &rs, cycle, tight, &from), bg = best >= 0 ? s->n[best].defs : 0;
      unsigned best_at = 0;
      bool listed = false;
      for (int pass = 0; pass < 3 && (best < 0 || !pass); pass++)
         for (unsigned r = 0; r < rs.n; r++) {
            unsigned i = rs.list[r];
            if ((pass < 2 && !small_room(s, live_small, i)) ||
                (pass < 1 && !small_wanted(s, live_small, i)))
               continue;
            /* better() reads the growths only when tight: else the
             * chosen node's alone is found, below */
            int g = tight ? net_growth(s, i) : 0;
            if (best < 0 || better(&s->n[i], g, &s->n[best], bg, cycle, tight)) {
               best = (int)i;
               best_at = r;
               bg = g;
               listed = true;
            }
         }
      if (listed && !tight)
         bg = net_growth(s, (unsigned)best);
      if (listed)
         rs.list[best_at] = rs.list[--rs.n];
      else
         heap_pop(from);
      struct snode *a = &s->n[best];
      cycle = MAX2(cycle, a->earliest);
      a->done = true;
      live += bg;
      issue_uses(s, (unsigned)best);
      small_issue(s, b, live_small, (unsigned)best);
      for (unsigned e = 0; e < a->nsucc; e++) {
         struct snode *t = &s->n[a->succ[e].to];
         t->earliest = MAX2(t->earliest, cycle + a->succ[e].lat);
         if (!--t->left)
            ready_add(s, b, &rs, a->succ[e].to);
      }
      cycle++;
      order[k] = (unsigned)best;
   }
   free(rs.list);
   for (unsigned d = 0; d < SCHED_STATIC_DEFS; d++) {
      free(rs.wait[d].v);
      free(rs.now[d].v);
      free(rs.first[d].v);
   }
   return order;
}

/* Puts the region's instructions in the new order (extracts follow). */
static void
reorder(struct sched *s, struct ir_block *b, struct ir_instr *top, const unsigned *order)
{
   struct ir_instr *tail = top ? top->next : b->first;
   while (tail && !is_tail(tail))
      tail = tail->next;
   for (unsigned k = 0; k < s->nn; k++) {
      struct ir_instr *in = s->n[order[k]].in, *e = in->next;
      struct ir_instr *ext[4];
      unsigned ne = 0;
      for (; e && e->op == IR_OP_EXTRACT && e->src[0] == in && ne < 4; e = e->next)
         ext[ne++] = e;
      ir_instr_remove(in);
      in->removed = false;
      if (tail)
         ir_insert_before(tail, in);
      else
         ir_block_append(b, in);
      for (unsigned i = 0; i < ne; i++) {
         ir_instr_remove(ext[i]);
         ext[i]->removed = false;
         ir_insert_after(i ? ext[i - 1] : in, ext[i]);
      }
   }
}

static void
schedule_block(struct sched *s, struct ir_block *b)
{
   if (opt_stage_conservative(s->ctx, OPT_STAGE_SCHED) &&
       opt_conservative(s->ctx, OPT_STAGE_SCHED, b->first ? b->first->line : 0, "@%u", b->index))
      return; /* the source order */
   struct ir_instr *top = gather_top(b);
   s->nn = 0;
   build_nodes(s, b, top);
   if (s->nn > 1) {
      unsigned *order = list_schedule(s, b);
      bool same = true;
      for (unsigned k = 0; k < s->nn; k++)
         same &= order[k] == k;
      if (!same && opt_transform(s->ctx, "schedule block @%u", b->index)) {
         reorder(s, b, top, order);
         s->progress = true;
      }
      free(order);
   }
   for (unsigned i = 0; i < s->nn; i++) {
      s->node_of[s->n[i].in->id] = 0;
      free(s->n[i].succ);
   }
}

bool
opt_sched(struct ir_shader *sh, struct opt_ctx *ctx)
{
   if (!sh->model)
      return false;
   struct sched s = {.sh = sh, .ctx = ctx, .m = sh->model, .gpr = -1};
   for (unsigned f = 0; f < isa_file_count(s.m) && s.gpr < 0; f++) {
      struct isa_file_info fi;
      isa_file_info(s.m, f, &fi);
      if (fi.kind == ISA_FILE_FULL)
         s.gpr = (int)f;
   }
   ir_compute_cfg(sh);
   ir_liveness(sh, &s.lv);
   s.node_of = xcalloc(sh->nvalues + 1, sizeof(unsigned));
   s.uses = xcalloc(sh->nvalues + 1, sizeof(unsigned));
   for (unsigned bi = 0; bi < sh->nblocks; bi++)
      schedule_block(&s, sh->blocks[bi]);
   free(s.n);
   free(s.fr);
   free(s.node_of);
   free(s.uses);
   ir_liveness_free(&s.lv);
   sh->cfg_valid = false;
   return s.progress;
}
