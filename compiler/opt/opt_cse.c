/*
 * Common-subexpression elimination over the dominator tree (global value
 * numbering by hashing): an instruction equal to an earlier one whose block
 * dominates its own is replaced by it.
 *
 * Equal means same op, width, fields, immediate and sources (either order
 * for the first two sources of a COMM op; tex roles and phi predecessors
 * included). Instructions with effects or that read memory a store can
 * change are never merged; phis and cross-lane ops (derivatives, implicit-
 * lod texturing) only with a twin in the same block. The survivor takes the
 * flags of both, so an inexact pass later still sees a precise/invariant
 * value. Exact: equal instructions compute equal bits.
 */
#include "compiler/ir/ir.h"

#include <stdlib.h>

struct entry {
   struct ir_instr *in;
   uint64_t hash;
   int next; /* next entry in the bucket, -1 = end */
};

struct table {
   int *buckets;
   unsigned nbuckets;
   struct entry *v;
   unsigned n, cap;
};

/* OPT_FAULT_CSE_LOAD_STORE: loads are merged too, as if no store could
 * come between them. */
static bool
mergeable(const struct ir_instr *in, bool loads)
{
   unsigned f = ir_op_info[in->op].flags;
   return in->type != IR_TYPE_NONE && !(f & IR_OPF_SIDE) && (loads || !(f & IR_OPF_LOAD));
}

static bool
same_block_only(const struct ir_instr *in)
{
   return in->op == IR_OP_PHI || ir_instr_is_convergent(in);
}

/* OPT_FAULT_CSE_FIELDS: loads whose slot or component differ are taken
 * for equal (the fields left out of the hash and the comparison). */
static bool
fields_ignored(const struct ir_instr *in, bool fault)
{
   return fault && (in->op == IR_OP_LOAD_INPUT || in->op == IR_OP_LOAD_CONST);
}

/* One word into the hash (a multiply-xorshift step: the table only needs
 * equal instructions to hash equal, and the merges do not depend on the
 * hash, only on which earlier equal instruction comes first). */
static uint64_t
mix(uint64_t h, uint64_t v)
{
   h = (h ^ v) * 0x9e3779b97f4a7c15ull;
   return h ^ (h >> 29);
}

static uint64_t
hash_instr(const struct ir_instr *in, bool fault)
{
   uint64_t h = mix((uint64_t)in->op << 8 | in->type, (uint64_t)in->imm);
   if (!fields_ignored(in, fault)) {
#define MIX_FIELD_(e, m, s) h = mix(h, (uint32_t)in->m);
      IR_FIELDS(MIX_FIELD_)
#undef MIX_FIELD_
   }
   unsigned first = 0;
   if ((ir_op_info[in->op].flags & IR_OPF_COMM) && in->nsrc >= 2) {
      h = mix(h, (uint64_t)in->src[0]->id + in->src[1]->id);
      first = 2;
   }
   for (unsigned i = first; i < in->nsrc; i++)
      h = mix(h, in->src[i]->id);
   return mix(h, in->nsrc);
}

static bool
equal(const struct ir_instr *a, const struct ir_instr *b, bool fault)
{
   if (a->op != b->op || a->type != b->type || a->nsrc != b->nsrc || a->imm != b->imm)
      return false;
   if (!fields_ignored(a, fault)) {
#define SAME_FIELD_(e, m, s)                                                                       \
   if (a->m != b->m)                                                                               \
      return false;
      IR_FIELDS(SAME_FIELD_)
#undef SAME_FIELD_
   }
   unsigned first = 0;
   if ((ir_op_info[a->op].flags & IR_OPF_COMM) && a->nsrc >= 2) {
      bool same = a->src[0] == b->src[0] && a->src[1] == b->src[1];
      bool swapped = a->src[0] == b->src[1] && a->src[1] == b->src[0];
      if (!same && !swapped)
         return false;
      first = 2;
   }
   for (unsigned i = first; i < a->nsrc; i++)
      if (a->src[i] != b->src[i])
         return false;
   for (unsigned i = 0; i < a->nsrc; i++) {
      if (a->op == IR_OP_PHI && a->pred[i] != b->pred[i])
         return false;
      if (a->op == IR_OP_TEX && a->role[i] != b->role[i])
         return false;
   }
   return true;
}

/* An earlier equal instruction that may stand for `in`, or NULL. */
static struct ir_instr *
find(struct table *t, const struct ir_instr *in, uint64_t h, bool fault)
{
   for (int e = t->buckets[h % t->nbuckets]; e >= 0; e = t->v[e].next) {
      struct ir_instr *c = t->v[e].in;
      if (t->v[e].hash != h || c->removed || !equal(c, in, fault))
         continue;
      if (same_block_only(in) ? c->block == in->block : ir_block_dominates(c->block, in->block))
         return c;
   }
   return NULL;
}

static void
insert(struct table *t, struct ir_instr *in, uint64_t h)
{
   struct entry e = {in, h, t->buckets[h % t->nbuckets]};
   VEC_PUSH(t->v, t->n, t->cap, e);
   t->buckets[h % t->nbuckets] = (int)t->n - 1;
}

bool
opt_cse(struct ir_shader *sh, struct opt_ctx *ctx)
{
   ir_compute_cfg(sh);
   ir_compute_dominance(sh);
   struct ir_instr **order;
   unsigned n = ir_program_order(sh, &order);
   struct table t = {0};
   t.nbuckets = n * 2 + 1;
   t.buckets = xmalloc(t.nbuckets * sizeof(int));
   for (unsigned i = 0; i < t.nbuckets; i++)
      t.buckets[i] = -1;
   bool progress = false;
   for (unsigned i = 0; i < n; i++) {
      struct ir_instr *in = order[i];
      if (!mergeable(in, opt_fault(ctx, OPT_FAULT_CSE_LOAD_STORE)) || !in->block->reachable)
         continue;
      bool fault = opt_fault(ctx, OPT_FAULT_CSE_FIELDS);
      uint64_t h = hash_instr(in, fault);
      struct ir_instr *c = find(&t, in, h, fault);
      if (!c) {
         insert(&t, in, h);
         continue;
      }
      enum opt_fault f = OPT_FAULT_COUNT; /* the fault whose firing this merge is */
      const char *why = "";
      if (fault && !equal(c, in, false)) {
         f = OPT_FAULT_CSE_FIELDS;
         why = ", another field";
      } else if (!mergeable(in, false)) {
         f = OPT_FAULT_CSE_LOAD_STORE;
         why = ", a load";
      }
      if (!(f != OPT_FAULT_COUNT
                ? opt_fault_fires(ctx, f, "%%%u = %s -> %%%u%s", in->id, ir_op_info[in->op].name,
                                  c->id, why)
                : opt_transform(ctx, "%%%u = %s -> %%%u", in->id, ir_op_info[in->op].name, c->id)))
         break;
      unsigned keep = ~0u; /* OPT_FAULT_CSE_PRECISE: the survivor stays imprecise */
      if ((in->flags & IR_VF_PRECISE) && !(c->flags & IR_VF_PRECISE) &&
          opt_fault_fires(ctx, OPT_FAULT_CSE_PRECISE, "%%%u keeps %%%u imprecise", c->id, in->id))
         keep = ~(unsigned)IR_VF_PRECISE;
      c->flags |= in->flags & keep;
      opt_replace(sh, in, c);
      progress = true;
   }
   free(t.buckets);
   free(t.v);
   free(order);
   return progress;
}
