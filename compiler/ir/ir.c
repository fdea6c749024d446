/*
 * The IR core: the op table, creating and linking instructions and
 * control-flow nodes, predecessors and dominators, invariance marking and
 * renumbering.
 *
 * Predecessor lists are derived from the tree only (ir_compute_cfg), so
 * they can never disagree with it; phis name their predecessors and the
 * validator checks them against these lists.
 */
#include "compiler/ir/ir.h"

#include <assert.h>
#include <sanitizer/asan_interface.h>
#include <stdlib.h>
#include <string.h>

#define V      IR_NSRC_VAR
#define COMM   IR_OPF_COMM
#define SIDE   IR_OPF_SIDE
#define LOAD   IR_OPF_LOAD
#define CONV   IR_OPF_CONV
#define FLT    IR_OPF_FLT
#define APPROX IR_OPF_APPROX
#define UNDEF  IR_OPF_UNDEF
#define JUMP   IR_OPF_JUMP
#define IR_OP_INFO_(e, name, ns, rt, st, fl, fd)                                                   \
   [IR_OP_##e] = {#name, ns, IR_TC_##rt, IR_TC_##st, fl, fd},
const struct ir_op_info ir_op_info[IR_OP_COUNT] = {IR_OPS(IR_OP_INFO_)};
#undef IR_OP_INFO_
#undef V
#undef COMM
#undef SIDE
#undef LOAD
#undef CONV
#undef FLT
#undef APPROX
#undef UNDEF
#undef JUMP

#define NAME_(e, m, s) s,
const char *const ir_field_names[IR_FIELD_COUNT] = {IR_FIELDS(NAME_)};
#undef NAME_
#define NAME_(n) #n,
const char *const ir_tex_kind_names[IR_TEX_KIND_COUNT] = {IR_TEX_KINDS(NAME_)};
const char *const ir_tex_role_names[IR_TEXSRC_COUNT] = {IR_TEX_ROLES(NAME_)};
const char *const ir_space_names[IR_SPACE_COUNT] = {IR_SPACES(NAME_)};
const char *const ir_aop_names[IR_AOP_COUNT] = {IR_AOPS(NAME_)};
#undef NAME_

int32_t *
ir_field_ptr(struct ir_instr *in, enum ir_field f)
{
   switch (f) {
#define CASE_(e, m, s)                                                                             \
   case IR_FIELD_##e:                                                                              \
      return &in->m;
      IR_FIELDS(CASE_)
#undef CASE_
   default:
      assert(!"bad field");
      return NULL;
   }
}

int32_t
ir_field_get(const struct ir_instr *in, enum ir_field f)
{
   return *ir_field_ptr((struct ir_instr *)in, f);
}

/* ir_program_order's kept walk */
struct ir_order {
   struct ir_instr **v; /* the walk */
   unsigned n, cap;
   struct ir_order_block *blocks; /* what it walked: the blocks in tree order */
   unsigned nblocks, blocks_cap;
   bool valid;
};

struct ir_order_block {
   const struct ir_block *b;
   uint64_t stamp;
   const struct ir_instr *first, *last;
};

/* ------------------------------------------------------------------ */
/* Shaders and instructions                                             */

struct ir_shader *
ir_shader_new(enum tgsi_stage stage)
{
   struct ir_shader *sh = xcalloc(1, sizeof(*sh));
   sh->stage = stage;
   sh->order = xcalloc(1, sizeof(*sh->order));
   ir_list_append(&sh->body, ir_node_block(sh), NULL);
   return sh;
}

static void
free_list(struct ir_list *l)
{
   for (unsigned i = 0; i < l->n; i++) {
      struct ir_node *n = l->v[i];
      if (n->block) {
         free(n->block->preds);
         free(n->block->succs);
         free(n->block);
      }
      free_list(&n->then_list);
      free_list(&n->else_list);
      free_list(&n->body);
      free(n);
   }
   free(l->v);
}

enum { INSTR_CHUNK = 256 };

/* A removed instruction's struct stays in its chunk: under AddressSanitizer
 * it is poisoned, so a read of it is still reported as a use after free
 * would have been (the macros do nothing in other builds). */
#define poison_instr(in)  ASAN_POISON_MEMORY_REGION((in), sizeof(struct ir_instr))
#define unpoison_chunk(c) ASAN_UNPOISON_MEMORY_REGION((c), INSTR_CHUNK * sizeof(struct ir_instr))

/* The source arrays of in when they have an allocation of their own (src
 * and src_seq are one: ir_instr_set_nsrc). */
static void
free_src(struct ir_instr *in)
{
   if (in->src != in->src_in)
      free(in->src);
}

/* What an instruction owns outside its chunk. */
static void
free_instr_arrays(struct ir_instr *in)
{
   free_src(in);
   free(in->uses);
   free(in->pred);
   free(in->role);
   ir_mach_free(in);
}

void
ir_shader_free(struct ir_shader *sh)
{
   if (!sh)
      return;
   for (unsigned i = 0; i < sh->nvalues; i++) {
      struct ir_instr *in = sh->values[i];
      if (!in)
         continue;
      free_instr_arrays(in);
   }
   for (unsigned i = 0; i < sh->nswept; i++)
      free_instr_arrays(sh->swept[i]);
   free(sh->values);
   free(sh->swept);
   for (unsigned i = 0; i < sh->ninstr_chunks; i++) {
      unpoison_chunk(sh->instr_chunks[i]);
      free(sh->instr_chunks[i]);
   }
   free(sh->instr_chunks);
   if (sh->owns_model)
      isa_close((struct isa_model *)sh->model);
   free_list(&sh->body);
   free(sh->inputs);
   free(sh->outputs);
   free(sh->arrays);
   free(sh->blocks);
   free(sh->file);
   if (sh->order) {
      free(sh->order->v);
      free(sh->order->blocks);
      free(sh->order);
   }
   free(sh);
}

void
ir_error(struct diag_list *d, const struct ir_shader *sh, unsigned line, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   diag_vadd(d, DIAG_ERROR, sh && sh->file ? sh->file : "<shader>", (int)line, 0, NULL, fmt, ap);
   va_end(ap);
}

static void
init_instr(struct ir_instr *in, enum ir_op op, unsigned nsrc)
{
   in->op = op;
   for (int f = 0; f < IR_FIELD_COUNT; f++)
      *ir_field_ptr(in, f) = IR_NONE;
   ir_instr_set_nsrc(in, nsrc);
   switch (ir_op_info[op].dst) {
   case IR_TC_W:
   case IR_TC_T:
   case IR_TC_S:
      in->type = IR_TYPE_32;
      break;
   case IR_TC_L:
      in->type = IR_TYPE_64;
      break;
   case IR_TC_V4:
      in->type = IR_TYPE_V4;
      break;
   default:
      in->type = IR_TYPE_NONE;
   }
}

/* A zeroed instruction from the shader's chunks (ir_shader's comment). */
static struct ir_instr *
alloc_instr(struct ir_shader *sh)
{
   if (!sh->ninstr_chunks || sh->instr_chunk_used == INSTR_CHUNK) {
      VEC_PUSH(sh->instr_chunks, sh->ninstr_chunks, sh->instr_chunks_cap,
               xcalloc(INSTR_CHUNK, sizeof(struct ir_instr)));
      sh->instr_chunk_used = 0;
   }
   return &sh->instr_chunks[sh->ninstr_chunks - 1][sh->instr_chunk_used++];
}

struct ir_instr *
ir_instr_create_id(struct ir_shader *sh, enum ir_op op, unsigned nsrc, unsigned id)
{
   VEC_RESERVE(sh->values, sh->values_cap, id + 1);
   while (sh->nvalues <= id)
      sh->values[sh->nvalues++] = NULL;
   assert(!sh->values[id]);
   struct ir_instr *in = alloc_instr(sh);
   in->id = id;
   init_instr(in, op, nsrc);
   sh->values[id] = in;
   return in;
}

struct ir_instr *
ir_instr_create(struct ir_shader *sh, enum ir_op op, unsigned nsrc)
{
   return ir_instr_create_id(sh, op, nsrc, sh->nvalues);
}

/* Resizes the source arrays, keeping the existing sources. Up to
 * IR_SRC_INLINE sources live in the instruction itself (src_in,
 * src_seq_in): no allocation, and a pass reading an instruction's sources
 * finds them in the instruction's own cache lines. Past that, src and
 * src_seq are one allocation (src_seq after src_cap pointers), freed as
 * src. A machine instruction gets its operand groups one at a time, so
 * the arrays grow by doubling and never shrink: sources past nsrc are
 * unused. */
void
ir_instr_set_nsrc(struct ir_instr *in, unsigned nsrc)
{
   if (!in->src) {
      in->src = in->src_in;
      in->src_seq = in->src_seq_in;
      in->src_cap = IR_SRC_INLINE;
   }
   if (nsrc > in->src_cap) {
      unsigned cap = MAX2(nsrc, 2u * in->src_cap), keep = MIN2(in->nsrc, nsrc);
      struct ir_instr **src = xmalloc(cap * (sizeof(*in->src) + sizeof(*in->src_seq)));
      uint32_t *seq = (uint32_t *)(src + cap);
      if (keep) {
         memcpy(src, in->src, keep * sizeof(*src));
         memcpy(seq, in->src_seq, keep * sizeof(*seq));
      }
      free_src(in);
      in->src = src;
      in->src_seq = seq;
      in->src_cap = cap;
   }
   for (unsigned i = in->nsrc; i < nsrc; i++) {
      in->src[i] = NULL;
      in->src_seq[i] = 0; /* no use entry has seq 0 */
   }
   if (in->op == IR_OP_PHI) {
      in->pred = xrealloc(in->pred, (nsrc ? nsrc : 1) * sizeof(*in->pred));
      for (unsigned i = in->nsrc; i < nsrc; i++)
         in->pred[i] = NULL;
   }
   if (in->op == IR_OP_TEX) {
      in->role = xrealloc(in->role, nsrc ? nsrc : 1);
      for (unsigned i = in->nsrc; i < nsrc; i++)
         in->role[i] = 0;
   }
   in->nsrc = nsrc;
}

void
ir_instr_copy_fields(struct ir_instr *dst, const struct ir_instr *src)
{
   for (int f = 0; f < IR_FIELD_COUNT; f++)
      *ir_field_ptr(dst, f) = ir_field_get(src, f);
   dst->imm = src->imm;
}

enum ir_type
ir_result_type(const struct ir_instr *in)
{
   switch (ir_op_info[in->op].dst) {
   case IR_TC_W:
      return IR_TYPE_32;
   case IR_TC_L:
      return IR_TYPE_64;
   case IR_TC_V4:
      return IR_TYPE_V4;
   case IR_TC_T:
      return in->type;
   case IR_TC_S: {
      unsigned i = in->op == IR_OP_BCSEL ? 1 : 0;
      return i < in->nsrc && in->src[i] ? in->src[i]->type : in->type;
   }
   default:
      return IR_TYPE_NONE;
   }
}

/* The block's list changed (ir_program_order's cache). */
static void
restamp(struct ir_block *b)
{
   b->stamp = ++b->sh->stamps;
}

void
ir_insert_before(struct ir_instr *pos, struct ir_instr *in)
{
   struct ir_block *b = pos->block;
   restamp(b);
   in->block = b;
   in->next = pos;
   in->prev = pos->prev;
   if (pos->prev)
      pos->prev->next = in;
   else
      b->first = in;
   pos->prev = in;
}

void
ir_insert_after(struct ir_instr *pos, struct ir_instr *in)
{
   struct ir_block *b = pos->block;
   restamp(b);
   in->block = b;
   in->prev = pos;
   in->next = pos->next;
   if (pos->next)
      pos->next->prev = in;
   else
      b->last = in;
   pos->next = in;
}

void
ir_block_append(struct ir_block *b, struct ir_instr *in)
{
   if (b->last) {
      ir_insert_after(b->last, in);
      return;
   }
   restamp(b);
   in->block = b;
   in->prev = in->next = NULL;
   b->first = b->last = in;
}

void
ir_block_prepend(struct ir_block *b, struct ir_instr *in)
{
   if (b->first)
      ir_insert_before(b->first, in);
   else
      ir_block_append(b, in);
}

/* Unlinks the instruction and flags it removed; its memory stays with the
 * shader so a stale use is caught by the validator, not by a crash. */
void
ir_instr_remove(struct ir_instr *in)
{
   struct ir_block *b = in->block;
   if (b) {
      restamp(b);
      if (in->prev)
         in->prev->next = in->next;
      else
         b->first = in->next;
      if (in->next)
         in->next->prev = in->prev;
      else
         b->last = in->prev;
   }
   in->prev = in->next = NULL;
   in->block = NULL;
   in->removed = true;
}

/* ------------------------------------------------------------------ */
/* Use lists                                                            */

bool
ir_use_live(const struct ir_instr *v, const struct ir_use *u)
{
   if (!u->user)
      return u->node->cond == v && u->node->cond_seq == u->seq;
   const struct ir_instr *in = u->user;
   return !in->removed && u->k < in->nsrc && in->src[u->k] == v && in->src_seq[u->k] == u->seq;
}

/* Whether entry u may read v again: live, or of a removed user (which a
 * pass may put back). */
static bool
use_kept(const struct ir_instr *v, const struct ir_use *u)
{
   if (!u->user)
      return ir_use_live(v, u);
   const struct ir_instr *in = u->user;
   return u->k < in->nsrc && in->src[u->k] == v && in->src_seq[u->k] == u->seq;
}

/* Appends a use to v, first dropping the stale entries when full, so the
 * list stays within twice its kept entries (amortized constant time). */
static void
add_use(struct ir_instr *v, struct ir_use u)
{
   if (v->nuses == v->uses_cap) {
      unsigned n = 0;
      for (unsigned i = 0; i < v->nuses; i++)
         if (use_kept(v, &v->uses[i]))
            v->uses[n++] = v->uses[i];
      v->nuses = n;
      if (n * 2 > v->uses_cap || !v->uses_cap) {
         v->uses_cap = v->uses_cap ? v->uses_cap * 2 : 4;
         v->uses = xrealloc(v->uses, v->uses_cap * sizeof(*v->uses));
      }
   }
   v->uses[v->nuses++] = u;
}

void
ir_set_src(struct ir_instr *in, unsigned k, struct ir_instr *v)
{
   assert(k < in->nsrc);
   in->src[k] = v;
   in->src_seq[k] = ++in->seq;
   if (v)
      add_use(v, (struct ir_use){in, NULL, k, in->seq});
}

void
ir_set_cond(struct ir_node *n, struct ir_instr *v)
{
   n->cond = v;
   /* Conditions count their writes from 1 like sources (seq 0: none). */
   n->cond_seq++;
   if (v)
      add_use(v, (struct ir_use){NULL, n, 0, n->cond_seq});
}

unsigned
ir_use_count(const struct ir_instr *v)
{
   unsigned n = 0;
   for (unsigned i = 0; i < v->nuses; i++)
      n += ir_use_live(v, &v->uses[i]);
   return n;
}

/* Rewrites every use of old (sources and if conditions) to rep: the
 * entries of old are taken over, those of removed users stay with old. */
unsigned
ir_replace_uses(struct ir_shader *sh, struct ir_instr *old, struct ir_instr *rep)
{
   (void)sh;
   if (old == rep)
      return ir_use_count(old);
   struct ir_use *v = old->uses;
   unsigned nv = old->nuses, n = 0;
   old->uses = NULL;
   old->nuses = old->uses_cap = 0;
   for (unsigned i = 0; i < nv; i++) {
      struct ir_use *u = &v[i];
      if (ir_use_live(old, u)) {
         if (u->user)
            ir_set_src(u->user, u->k, rep);
         else
            ir_set_cond(u->node, rep);
         n++;
      } else if (use_kept(old, u)) {
         add_use(old, *u);
      }
   }
   free(v);
   return n;
}

static void
rebuild_conds(struct ir_list *l)
{
   for (unsigned i = 0; i < l->n; i++) {
      struct ir_node *nd = l->v[i];
      if (nd->kind == IR_NODE_IF && nd->cond) {
         nd->cond_seq++;
         add_use(nd->cond, (struct ir_use){NULL, nd, 0, nd->cond_seq});
      }
      rebuild_conds(&nd->then_list);
      rebuild_conds(&nd->else_list);
      rebuild_conds(&nd->body);
   }
}

/* Rebuilds every use list from scratch: after removed instructions are
 * freed (ir_renumber), or after text is parsed. */
void
ir_uses_rebuild(struct ir_shader *sh)
{
   for (unsigned i = 0; i < sh->nvalues; i++)
      if (sh->values[i])
         sh->values[i]->nuses = 0;
   for (unsigned i = 0; i < sh->nvalues; i++) {
      struct ir_instr *in = sh->values[i];
      if (!in)
         continue;
      for (unsigned k = 0; k < in->nsrc; k++) {
         in->src_seq[k] = ++in->seq;
         if (in->src[k])
            add_use(in->src[k], (struct ir_use){in, NULL, k, in->seq});
      }
   }
   rebuild_conds(&sh->body);
}

bool
ir_instr_is_phi(const struct ir_instr *in)
{
   return in->op == IR_OP_PHI;
}

/* Reads other lanes, so it may only be merged with a twin in its block. */
bool
ir_instr_is_convergent(const struct ir_instr *in)
{
   if (ir_op_info[in->op].flags & IR_OPF_CONV)
      return true;
   return in->op == IR_OP_TEX &&
          (in->kind == IR_TEX_tex || in->kind == IR_TEX_txb || in->kind == IR_TEX_lodq);
}

bool
ir_instr_has_effect(const struct ir_instr *in)
{
   return ir_op_info[in->op].flags & IR_OPF_SIDE;
}

/* A phi whose sources are all one value X or the phi itself is X. */
struct ir_instr *
ir_phi_trivial_value(const struct ir_instr *phi)
{
   struct ir_instr *v = NULL;
   for (unsigned i = 0; i < phi->nsrc; i++) {
      struct ir_instr *s = phi->src[i];
      if (s == phi || s == v)
         continue;
      if (v)
         return NULL;
      v = s;
   }
   return v;
}

/* ------------------------------------------------------------------ */
/* Control-flow nodes                                                   */

struct ir_node *
ir_node_block(struct ir_shader *sh)
{
   struct ir_node *n = xcalloc(1, sizeof(*n));
   n->kind = IR_NODE_BLOCK;
   n->block = xcalloc(1, sizeof(*n->block));
   n->block->node = n;
   n->block->sh = sh;
   n->block->stamp = ++sh->stamps;
   return n;
}

struct ir_node *
ir_node_if(struct ir_instr *cond)
{
   struct ir_node *n = xcalloc(1, sizeof(*n));
   n->kind = IR_NODE_IF;
   ir_set_cond(n, cond);
   return n;
}

struct ir_node *
ir_node_loop(void)
{
   struct ir_node *n = xcalloc(1, sizeof(*n));
   n->kind = IR_NODE_LOOP;
   return n;
}

void
ir_list_append(struct ir_list *l, struct ir_node *n, struct ir_node *parent)
{
   n->parent = parent;
   n->list = l;
   n->at = l->n;
   VEC_PUSH(l->v, l->n, l->cap, n);
}

struct ir_block *
ir_list_first_block(const struct ir_list *l)
{
   return l->n && l->v[0]->kind == IR_NODE_BLOCK ? l->v[0]->block : NULL;
}

struct ir_block *
ir_list_last_block(const struct ir_list *l)
{
   return l->n && l->v[l->n - 1]->kind == IR_NODE_BLOCK ? l->v[l->n - 1]->block : NULL;
}

unsigned
ir_node_index(const struct ir_node *n)
{
   const struct ir_list *l = n->list;
   if (!l)
      return ~0u;
   if (n->at < l->n && l->v[n->at] == n)
      return n->at;
   for (unsigned i = 0; i < l->n; i++)
      if (l->v[i] == n) {
         ((struct ir_node *)n)->at = i; /* a cache, not part of the tree */
         return i;
      }
   return ~0u;
}

/* The node just before n in its list, or NULL. */
struct ir_node *
ir_node_before(const struct ir_node *n)
{
   unsigned i = ir_node_index(n);
   return i != ~0u && i > 0 ? n->list->v[i - 1] : NULL;
}

/* ------------------------------------------------------------------ */
/* Predecessors                                                         */

struct bvec {
   struct ir_block **v;
   unsigned n, cap;
};

struct cfg_walk {
   struct ir_shader *sh;
   struct bvec *breaks, *conts; /* of the innermost loop; NULL outside loops */
};

static void
add_pred(struct ir_block *b, struct ir_block *p)
{
   VEC_PUSH(b->preds, b->npreds, b->preds_cap, p);
}

/* Walks a list entered from the blocks in `in`; leaves in `in` the blocks
 * that fall out of its end. */
static void
walk_list(struct cfg_walk *w, struct ir_list *l, struct bvec *in)
{
   for (unsigned i = 0; i < l->n; i++) {
      struct ir_node *n = l->v[i];
      if (n->kind == IR_NODE_BLOCK) {
         struct ir_block *b = n->block;
         b->index = w->sh->nblocks;
         VEC_PUSH(w->sh->blocks, w->sh->nblocks, w->sh->blocks_cap, b);
         /* A block nothing enters (after an if whose arms both end in
          * BRK or CONT) leads nowhere either: its fall-through is no
          * edge, or a loop header would gain a predecessor that its
          * phis, filled from the jumps, do not have. */
         if (!in->n && b->index)
            continue;
         for (unsigned k = 0; k < in->n; k++)
            add_pred(b, in->v[k]);
         in->n = 0;
         enum ir_op last = b->last ? b->last->op : IR_OP_COUNT;
         if (last == IR_OP_BREAK && w->breaks)
            VEC_PUSH(w->breaks->v, w->breaks->n, w->breaks->cap, b);
         else if (last == IR_OP_CONTINUE && w->conts)
            VEC_PUSH(w->conts->v, w->conts->n, w->conts->cap, b);
         else if (last != IR_OP_BREAK && last != IR_OP_CONTINUE)
            VEC_PUSH(in->v, in->n, in->cap, b);
      } else if (n->kind == IR_NODE_IF) {
         struct bvec t = {0}, e = {0};
         for (unsigned k = 0; k < in->n; k++) {
            VEC_PUSH(t.v, t.n, t.cap, in->v[k]);
            VEC_PUSH(e.v, e.n, e.cap, in->v[k]);
         }
         walk_list(w, &n->then_list, &t);
         walk_list(w, &n->else_list, &e);
         in->n = 0;
         for (unsigned k = 0; k < t.n; k++)
            VEC_PUSH(in->v, in->n, in->cap, t.v[k]);
         for (unsigned k = 0; k < e.n; k++)
            VEC_PUSH(in->v, in->n, in->cap, e.v[k]);
         free(t.v);
         free(e.v);
      } else {
         struct bvec breaks = {0}, conts = {0};
         struct cfg_walk inner = {w->sh, &breaks, &conts};
         struct ir_block *header = ir_list_first_block(&n->body);
         walk_list(&inner, &n->body, in);
         if (header) {
            for (unsigned k = 0; k < conts.n; k++)
               add_pred(header, conts.v[k]);
            for (unsigned k = 0; k < in->n; k++)
               add_pred(header, in->v[k]);
         }
         in->n = 0;
         for (unsigned k = 0; k < breaks.n; k++)
            VEC_PUSH(in->v, in->n, in->cap, breaks.v[k]);
         free(breaks.v);
         free(conts.v);
      }
   }
}

/* Numbers the blocks in program order and derives predecessors,
 * successors and reachability from the tree. */
void
ir_compute_cfg(struct ir_shader *sh)
{
   for (unsigned i = 0; i < sh->nblocks; i++) {
      struct ir_block *b = sh->blocks[i];
      b->npreds = b->nsuccs = 0;
   }
   sh->nblocks = 0;
   struct cfg_walk w = {sh, NULL, NULL};
   struct bvec in = {0};
   walk_list(&w, &sh->body, &in);
   free(in.v);
   for (unsigned i = 0; i < sh->nblocks; i++) {
      struct ir_block *b = sh->blocks[i];
      b->nsuccs = 0;
      b->idom = NULL;
   }
   for (unsigned i = 0; i < sh->nblocks; i++) {
      struct ir_block *b = sh->blocks[i];
      b->reachable = i == 0;
      for (unsigned k = 0; k < b->npreds; k++) {
         struct ir_block *p = b->preds[k];
         VEC_PUSH(p->succs, p->nsuccs, p->succs_cap, b);
         /* A back edge can only come from a block the header reaches. */
         if (p->index < b->index && p->reachable)
            b->reachable = true;
      }
   }
   sh->cfg_valid = true;
   sh->dom_valid = false;
}

static struct ir_block *
intersect(struct ir_block *a, struct ir_block *b)
{
   while (a != b) {
      while (a->index > b->index)
         a = a->idom;
      while (b->index > a->index)
         b = b->idom;
   }
   return a;
}

/* Pre- and post-order numbers of the dominator tree (dom_pre, dom_post),
 * so that a dominance query is two compares instead of a walk up the
 * tree, whose depth grows with the program. */
static void
number_dom_tree(struct ir_shader *sh)
{
   unsigned nb = sh->nblocks, *first = xcalloc(nb + 1, sizeof(unsigned));
   unsigned *kids = xmalloc((nb + 1) * sizeof(unsigned)),
            *stack = xmalloc((nb + 1) * sizeof(unsigned));
   unsigned *next = xcalloc(nb + 1, sizeof(unsigned));
   /* children of each block, in program order (counting sort by idom) */
   for (unsigned i = 1; i < nb; i++)
      if (sh->blocks[i]->reachable && sh->blocks[i]->idom)
         first[sh->blocks[i]->idom->index + 1]++;
   for (unsigned i = 0; i < nb; i++)
      first[i + 1] += first[i];
   memcpy(next, first, nb * sizeof(unsigned));
   for (unsigned i = 1; i < nb; i++)
      if (sh->blocks[i]->reachable && sh->blocks[i]->idom)
         kids[next[sh->blocks[i]->idom->index]++] = i;
   unsigned clock = 0, sp = 0;
   memcpy(next, first, nb * sizeof(unsigned));
   stack[sp++] = 0;
   sh->blocks[0]->dom_pre = clock++;
   while (sp) {
      unsigned b = stack[sp - 1];
      if (next[b] < first[b + 1]) {
         unsigned c = kids[next[b]++];
         sh->blocks[c]->dom_pre = clock++;
         stack[sp++] = c;
      } else {
         sh->blocks[b]->dom_post = clock++;
         sp--;
      }
   }
   free(first);
   free(kids);
   free(stack);
   free(next);
}

/* Immediate dominators of the reachable blocks (Cooper, Harvey, Kennedy).
 * Program order is a reverse postorder of a structured CFG, so the block
 * index serves as the RPO number. */
void
ir_compute_dominance(struct ir_shader *sh)
{
   if (!sh->cfg_valid)
      ir_compute_cfg(sh);
   if (!sh->nblocks)
      return;
   sh->blocks[0]->idom = sh->blocks[0];
   bool changed = true;
   while (changed) {
      changed = false;
      for (unsigned i = 1; i < sh->nblocks; i++) {
         struct ir_block *b = sh->blocks[i];
         if (!b->reachable)
            continue;
         struct ir_block *nd = NULL;
         for (unsigned k = 0; k < b->npreds; k++) {
            struct ir_block *p = b->preds[k];
            if (!p->reachable || !p->idom)
               continue;
            nd = nd ? intersect(p, nd) : p;
         }
         if (nd && nd != b->idom) {
            b->idom = nd;
            changed = true;
         }
      }
   }
   number_dom_tree(sh);
   sh->dom_valid = true;
}

/* Does a dominate b? Unreachable blocks dominate nothing and are dominated
 * by nothing. */
bool
ir_block_dominates(const struct ir_block *a, const struct ir_block *b)
{
   if (!a->reachable || !b->reachable || !b->idom || !a->idom)
      return false;
   return a->dom_pre <= b->dom_pre && b->dom_post <= a->dom_post;
}

unsigned
ir_count_instrs(const struct ir_shader *sh)
{
   unsigned n = 0;
   for (unsigned i = 0; i < sh->nvalues; i++)
      if (sh->values[i] && !sh->values[i]->removed)
         n++;
   return n;
}

void
ir_sweep(struct ir_shader *sh)
{
   for (unsigned i = 0; i < sh->nvalues; i++) {
      struct ir_instr *in = sh->values[i];
      if (in && in->removed) {
         VEC_PUSH(sh->swept, sh->nswept, sh->swept_cap, in);
         sh->values[i] = NULL;
      }
   }
}

static void
collect(const struct ir_list *l, struct ir_order *o)
{
   for (unsigned i = 0; i < l->n; i++) {
      const struct ir_node *nd = l->v[i];
      const struct ir_block *b = nd->block;
      if (b) {
         struct ir_order_block ob = {b, b->stamp, b->first, b->last};
         VEC_PUSH(o->blocks, o->nblocks, o->blocks_cap, ob);
         for (struct ir_instr *in = b->first; in; in = in->next)
            VEC_PUSH(o->v, o->n, o->cap, in);
      }
      collect(&nd->then_list, o);
      collect(&nd->else_list, o);
      collect(&nd->body, o);
   }
}

/* Whether the tree still holds the blocks o walked, each unchanged (its
 * stamp, first and last); advances *k over them. */
static bool
same_blocks(const struct ir_list *l, const struct ir_order *o, unsigned *k)
{
   for (unsigned i = 0; i < l->n; i++) {
      const struct ir_node *nd = l->v[i];
      const struct ir_block *b = nd->block;
      if (b) {
         const struct ir_order_block *ob = *k < o->nblocks ? &o->blocks[(*k)++] : NULL;
         if (!ob || ob->b != b || ob->stamp != b->stamp || ob->first != b->first ||
             ob->last != b->last)
            return false;
      }
      if (!same_blocks(&nd->then_list, o, k) || !same_blocks(&nd->else_list, o, k) ||
          !same_blocks(&nd->body, o, k))
         return false;
   }
   return true;
}

/* Whether the kept walk is the program's: the tree holds exactly the
 * blocks it walked, each unchanged. */
static bool
kept_current(const struct ir_shader *sh)
{
   unsigned k = 0;
   return sh->order->valid && same_blocks(&sh->body, sh->order, &k) && k == sh->order->nblocks;
}

/* The kept walk, renewed when a block or the tree changed: a walk down
 * the lists reads every instruction from memory; the check reads the
 * blocks. */
static const struct ir_order *
order_of(const struct ir_shader *sh)
{
   struct ir_order *o = sh->order;
   if (kept_current(sh))
      return o;
   o->n = o->nblocks = 0;
   collect(&sh->body, o);
   o->valid = true;
   return o;
}

unsigned
ir_program_order(const struct ir_shader *sh, struct ir_instr ***out)
{
   const struct ir_order *o = order_of(sh);
#ifndef NDEBUG
   { /* a kept walk is the walk (the validator checks it in every build) */
      struct ir_order fresh = {0};
      collect(&sh->body, &fresh);
      assert(fresh.n == o->n && (!o->n || !memcmp(fresh.v, o->v, o->n * sizeof(*o->v))));
      free(fresh.v);
      free(fresh.blocks);
   }
#endif
   *out = xmalloc((o->n + 1) * sizeof(**out));
   if (o->n) /* an empty walk has no array */
      memcpy(*out, o->v, o->n * sizeof(**out));
   return o->n;
}

struct ir_instr *const *
ir_program_order_kept(const struct ir_shader *sh, unsigned *n)
{
   if (!kept_current(sh))
      return NULL;
   *n = sh->order->n;
   return sh->order->v;
}

/* ------------------------------------------------------------------ */
/* Invariance                                                           */

struct mark_state {
   struct ir_shader *sh;
   struct ir_instr **work;
   unsigned n, cap;
};

static void
mark(struct mark_state *m, struct ir_instr *in)
{
   if (!in || (in->flags & IR_VF_INVARIANT))
      return;
   in->flags |= IR_VF_INVARIANT;
   VEC_PUSH(m->work, m->n, m->cap, in);
}

static void
mark_conds_in(struct mark_state *m, const struct ir_list *l)
{
   for (unsigned i = 0; i < l->n; i++) {
      const struct ir_node *n = l->v[i];
      if (n->kind == IR_NODE_IF)
         mark(m, n->cond);
      mark_conds_in(m, &n->then_list);
      mark_conds_in(m, &n->else_list);
      mark_conds_in(m, &n->body);
   }
}

/* Marks what decides whether (and how often) block b runs: the conditions
 * of the enclosing ifs, and every condition inside an enclosing loop. */
static void
mark_control(struct mark_state *m, const struct ir_block *b)
{
   for (const struct ir_node *n = b->node->parent; n; n = n->parent) {
      if (n->kind == IR_NODE_IF)
         mark(m, n->cond);
      else
         mark_conds_in(m, &n->body);
   }
}

static void
mark_phi_control(struct mark_state *m, const struct ir_block *b)
{
   const struct ir_node *prev = ir_node_before(b->node);
   if (prev && prev->kind == IR_NODE_IF) {
      mark(m, prev->cond);
      mark_conds_in(m, &prev->then_list);
      mark_conds_in(m, &prev->else_list);
   } else if (prev && prev->kind == IR_NODE_LOOP) {
      mark_conds_in(m, &prev->body);
   }
}

/* Flags every value that reaches an INVARIANT output, through sources,
 * the conditions that choose a phi's input, and TEMP-array memory; the
 * flag is derived, so it is recomputed from scratch. Values reaching
 * outputs only through buffer or shared memory are missed. */
void
ir_mark_invariant(struct ir_shader *sh)
{
   struct mark_state m = {sh, NULL, 0, 0};
   if (!sh->cfg_valid)
      ir_compute_cfg(sh);
   for (unsigned i = 0; i < sh->nvalues; i++)
      if (sh->values[i])
         sh->values[i]->flags &= ~IR_VF_INVARIANT;
   for (unsigned i = 0; i < sh->nvalues; i++) {
      struct ir_instr *in = sh->values[i];
      if (!in || in->removed || in->op != IR_OP_STORE_OUTPUT)
         continue;
      for (unsigned o = 0; o < sh->noutputs; o++)
         if (sh->outputs[o].slot == in->slot && sh->outputs[o].invariant)
            mark(&m, in);
   }
   while (m.n) {
      struct ir_instr *in = m.work[--m.n];
      for (unsigned s = 0; s < in->nsrc; s++)
         mark(&m, in->src[s]);
      if (!in->block)
         continue;
      if (in->op == IR_OP_PHI)
         mark_phi_control(&m, in->block);
      if (in->op == IR_OP_PHI || ir_instr_has_effect(in))
         mark_control(&m, in->block);
      if (in->op == IR_OP_ARRAY_LOAD || in->op == IR_OP_ARRAY_LOAD_IND) {
         for (unsigned i = 0; i < sh->nvalues; i++) {
            struct ir_instr *st = sh->values[i];
            if (st && !st->removed && st->arr == in->arr &&
                (st->op == IR_OP_ARRAY_STORE || st->op == IR_OP_ARRAY_STORE_IND))
               mark(&m, st);
         }
      }
   }
   free(m.work);
}

/* ------------------------------------------------------------------ */
/* Renumbering                                                          */

static void
renumber_list(struct ir_list *l, struct ir_instr **nv, unsigned *n, bool values)
{
   for (unsigned i = 0; i < l->n; i++) {
      struct ir_node *nd = l->v[i];
      if (nd->block)
         for (struct ir_instr *in = nd->block->first; in; in = in->next) {
            if ((in->type != IR_TYPE_NONE) != values)
               continue;
            in->id = *n;
            nv[(*n)++] = in;
         }
      renumber_list(&nd->then_list, nv, n, values);
      renumber_list(&nd->else_list, nv, n, values);
      renumber_list(&nd->body, nv, n, values);
   }
}

/* Numbers the values 0, 1, ... in program order (instructions without a
 * result after them) and frees removed instructions. Only call on a valid shader (no use of a
 * removed value). */
void
ir_renumber(struct ir_shader *sh)
{
   struct ir_instr **nv = xcalloc(sh->nvalues + 1, sizeof(*nv));
   unsigned n = 0;
   for (unsigned i = 0; i < sh->nvalues; i++)
      if (sh->values[i])
         sh->values[i]->mark = 0;
   renumber_list(&sh->body, nv, &n, true);
   renumber_list(&sh->body, nv, &n, false);
   for (unsigned i = 0; i < n; i++)
      nv[i]->mark = 1;
   for (unsigned i = 0; i < sh->nvalues; i++) {
      struct ir_instr *in = sh->values[i];
      if (in && !in->mark) {
         free_instr_arrays(in);
         poison_instr(in); /* the struct stays in its chunk */
      }
   }
   for (unsigned i = 0; i < sh->nswept; i++) {
      free_instr_arrays(sh->swept[i]);
      poison_instr(sh->swept[i]);
   }
   sh->nswept = 0;
   for (unsigned i = 0; i < n; i++)
      nv[i]->mark = 0;
   free(sh->values);
   sh->values = nv;
   sh->nvalues = n;
   sh->values_cap = sh->nvalues + 1;
   ir_uses_rebuild(sh);
   ir_compute_cfg(sh);
}

/* ------------------------------------------------------------------ */
/* Builder                                                              */

struct ir_instr *
ir_build(struct ir_builder *b, enum ir_op op, unsigned nsrc, struct ir_instr *const *src)
{
   struct ir_instr *in = ir_instr_create(b->sh, op, nsrc);
   for (unsigned i = 0; i < nsrc; i++)
      ir_set_src(in, i, src[i]);
   in->type = ir_result_type(in);
   in->line = b->line;
   ir_block_append(b->block, in);
   return in;
}

struct ir_instr *
ir_imm32(struct ir_builder *b, uint32_t bits)
{
   struct ir_instr *in = ir_build(b, IR_OP_IMM, 0, NULL);
   in->imm = bits;
   in->type = IR_TYPE_32;
   return in;
}

struct ir_instr *
ir_imm64(struct ir_builder *b, uint64_t bits)
{
   struct ir_instr *in = ir_build(b, IR_OP_IMM, 0, NULL);
   in->imm = bits;
   in->type = IR_TYPE_64;
   return in;
}

struct ir_instr *
ir_alu1(struct ir_builder *b, enum ir_op op, struct ir_instr *a)
{
   return ir_build(b, op, 1, &a);
}

struct ir_instr *
ir_alu2(struct ir_builder *b, enum ir_op op, struct ir_instr *a, struct ir_instr *c)
{
   struct ir_instr *s[2] = {a, c};
   return ir_build(b, op, 2, s);
}

struct ir_instr *
ir_alu3(struct ir_builder *b, enum ir_op op, struct ir_instr *a, struct ir_instr *c,
        struct ir_instr *d)
{
   struct ir_instr *s[3] = {a, c, d};
   return ir_build(b, op, 3, s);
}
