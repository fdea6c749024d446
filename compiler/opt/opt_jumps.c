/*
 * Jumps on stack models (sm50). There lanes reconverge through SSY/SYNC,
 * and a loop can only be left through SYNC by a break that ends its body
 * or sits alone in an arm of an if at the top of it (opt_break_if): an
 * SSY entry brings back every lane it saved, so a lane cannot leave an
 * if's region early. This pass rewrites every other jump of a loop --
 * every continue, and a break nested deeper or following one of those --
 * into structured flow:
 *
 *   - the jump goes; its block falls through and sets, per lane, a flag
 *     (1 continued, 2 broke) and the values its loop-header phis (for a
 *     continue) or loop-exit phis (for a break) took from it;
 *   - after an if in which lanes may have left, the rest of the list runs
 *     only for the lanes still running: moved into the other arm when one
 *     arm always leaves and the other never does, else under a guard
 *     `if flag == 0`; a rest that is one block without effects or loads
 *     runs unguarded (lanes that left ignore its results);
 *   - when some break went, the body ends with `if flag == 2 { break }`,
 *     a break the stack model takes as it is.
 *
 * The flag and the phi values are variables resolved afterwards on the
 * new CFG (SSA construction after Braun et al.: a phi where paths meet,
 * memoized per block). Where every lane is still running -- at the start
 * of the body and of a guard's then list -- the flag is 0 and the phi
 * values are undefined: a lane reads a phi value only after it set it, so
 * neither the old header phis nor values set before a guard stay live
 * through the code after it. Values whose uses the new paths no
 * longer dominate are repaired the same way, undefined (imm 0) on paths
 * that do not pass their definition: only lanes that left take those.
 * The pass is required, not an optimization: it counts no transformation.
 */
#include "compiler/ir/ir.h"

#include <stdlib.h>

enum { FLAG_CONT = 1, FLAG_BRK = 2 };

/* A variable: its value at the end of the blocks that set it, and where
 * every lane is still running (start). */
struct jdef {
   struct ir_block *block;
   struct ir_instr *value;
};

struct jvar {
   enum ir_type type;
   struct ir_instr *start;
   struct jdef *defs;
   unsigned ndefs, defs_cap;
   struct ir_instr **end; /* by block index after restructuring: memo */
};

/* An exit phi's sources before the pass. */
struct jold {
   struct ir_instr **src;
   struct ir_block **pred;
   unsigned n;
};

/* A block that ended a list and whose place another took. */
struct jrename {
   struct ir_block *from, *to;
};

struct jl {
   struct ir_shader *sh;
   struct ir_node *loop;
   struct ir_block *header, *entry, *exit;
   struct ir_block **left; /* blocks whose jump went */
   unsigned nleft, left_cap;
   bool broke; /* some break went */
   struct jvar flag;
   struct ir_instr **hphi, **ephi; /* the loop's header and exit phis */
   struct jvar *hvar, *evar;
   unsigned nh, ne;
   unsigned h_cap, e_cap;
   struct jold *eold;
   struct ir_instr **guards; /* compares reading the flag at their block */
   unsigned nguards, guards_cap;
   struct jrename *ren;
   unsigned nren, ren_cap;
   struct ir_instr **created; /* phis made here */
   unsigned ncreated, created_cap;
   struct ir_instr *imm[3], *undef32, *undef64;
};

/* ------------------------------------------------------------------ */
/* Small helpers                                                        */

static struct ir_instr *
entry_imm(struct jl *j, enum ir_type type, uint64_t bits)
{
   struct ir_instr *in = ir_instr_create(j->sh, IR_OP_IMM, 0);
   in->type = (uint8_t)type;
   in->imm = bits;
   ir_block_prepend(ir_list_first_block(&j->sh->body), in);
   return in;
}

static struct ir_instr *
flag_imm(struct jl *j, unsigned v)
{
   if (!j->imm[v])
      j->imm[v] = entry_imm(j, IR_TYPE_32, v);
   return j->imm[v];
}

/* A value for paths whose lanes never read it: 0, an immediate of its own
 * (not the flag's 0, which lanes do read), so that merge_phis can tell it
 * apart. */
static struct ir_instr *
undef(struct jl *j, enum ir_type type)
{
   if (type != IR_TYPE_64) { /* V4 values never leave their block */
      if (!j->undef32)
         j->undef32 = entry_imm(j, IR_TYPE_32, 0);
      return j->undef32;
   }
   if (!j->undef64)
      j->undef64 = entry_imm(j, IR_TYPE_64, 0);
   return j->undef64;
}

static bool
is_left(const struct jl *j, const struct ir_block *b)
{
   for (unsigned i = 0; i < j->nleft; i++)
      if (j->left[i] == b)
         return true;
   return false;
}

/* Does block b set a variable: a jump that went there, or it is the body's
 * fall-through end, whose values the header phis take on the back edge? */
static bool
sets_var(const struct jl *j, const struct ir_block *b)
{
   if (is_left(j, b))
      return true;
   for (unsigned k = 0; k < j->nh; k++)
      for (unsigned d = 0; d < j->hvar[k].ndefs; d++)
         if (j->hvar[k].defs[d].block == b)
            return true;
   return false;
}

static void
var_def(struct jvar *v, struct ir_block *b, struct ir_instr *value)
{
   struct jdef d = {b, value};
   VEC_PUSH(v->defs, v->ndefs, v->defs_cap, d);
}

static void
var_free(struct jvar *v)
{
   free(v->defs);
   free(v->end);
}

static void
add_rename(struct jl *j, struct ir_block *from, struct ir_block *to)
{
   struct jrename r = {from, to};
   VEC_PUSH(j->ren, j->nren, j->ren_cap, r);
}

static struct ir_block *
renamed(const struct jl *j, struct ir_block *b)
{
   for (unsigned i = 0; i < j->nren; i++)
      if (j->ren[i].from == b)
         b = j->ren[i].to; /* later renames follow earlier ones */
   return b;
}

static struct ir_node *
new_block_node(struct jl *j, struct ir_list *l, struct ir_node *parent)
{
   struct ir_node *n = ir_node_block(j->sh);
   ir_list_append(l, n, parent);
   return n;
}

/* Moves instruction in to the end of block b. */
static void
move_to(struct ir_instr *in, struct ir_block *b)
{
   ir_instr_remove(in);
   in->removed = false;
   ir_block_append(b, in);
}

static struct ir_instr *
new_phi(struct jl *j, struct ir_block *b, enum ir_type type)
{
   struct ir_instr *phi = ir_instr_create(j->sh, IR_OP_PHI, b->npreds);
   phi->type = (uint8_t)type;
   struct ir_instr *at = b->first;
   while (at && at->op == IR_OP_PHI)
      at = at->next;
   if (at)
      ir_insert_before(at, phi);
   else
      ir_block_append(b, phi);
   for (unsigned k = 0; k < b->npreds; k++)
      phi->pred[k] = b->preds[k];
   VEC_PUSH(j->created, j->ncreated, j->created_cap, phi);
   return phi;
}

/* ------------------------------------------------------------------ */
/* Which jumps go                                                       */

static bool
has_kill(const struct ir_block *b)
{
   for (const struct ir_instr *in = b->first; in; in = in->next)
      if (in->op == IR_OP_KILL || in->op == IR_OP_KILL_IF || in->op == IR_OP_DEMOTE)
         return true;
   return false;
}

/* A break the stack model takes as it is, where nothing before it in the
 * body has left: the end of the body, or alone in an arm of a top-level if
 * (its instructions then run under the if's predicate: no kill there). */
static bool
native_break(const struct jl *j, const struct ir_block *b)
{
   /* named by its TGSI line: block numbers change as other loops' jumps go */
   if (b->last->op != IR_OP_BREAK || opt_conservative_sh(j->sh, OPT_STAGE_JUMPS, b->last->line,
                                                         "break at TGSI line %u", b->last->line))
      return false; /* conservative: every break lowered */
   const struct ir_node *n = b->node;
   if (n->list == &j->loop->body)
      return n->list->v[n->list->n - 1] == n;
   bool negate;
   if (opt_break_if(j->sh, b, &negate))
      return !has_kill(b) || opt_fault_fires_sh(j->sh, OPT_FAULT_BREAK_KILL_NATIVE,
                                                "break of @%u with a kill kept", b->index);
   /* OPT_FAULT_BREAK_DEEP_NATIVE: alone in an arm of a nested if */
   return opt_fault_sh(j->sh, OPT_FAULT_BREAK_DEEP_NATIVE) && n->list->n == 1 && n->parent &&
          n->parent->kind == IR_NODE_IF &&
          opt_fault_fires_sh(j->sh, OPT_FAULT_BREAK_DEEP_NATIVE, "break of @%u nested kept",
                             b->index);
}

/* Whether a jump of the loop in list l goes (all of them once `going`);
 * unless dry, the ones that go are marked. In a top-level if, either all
 * jumps go or none (a kept break must not end the arm the rest moves to),
 * and everything after an if whose jumps go is nested then. */
static bool
choose(struct jl *j, struct ir_list *l, bool going, bool dry)
{
   bool any = false;
   for (unsigned i = 0; i < l->n; i++) {
      struct ir_node *n = l->v[i];
      if (n->kind == IR_NODE_BLOCK && n->block->last &&
          (ir_op_info[n->block->last->op].flags & IR_OPF_JUMP)) {
         if (going || !native_break(j, n->block)) {
            if (!dry)
               VEC_PUSH(j->left, j->nleft, j->left_cap, n->block);
            any = true;
         }
      } else if (n->kind == IR_NODE_IF &&
                 (choose(j, &n->then_list, going, true) || choose(j, &n->else_list, going, true))) {
         choose(j, &n->then_list, true, dry);
         choose(j, &n->else_list, true, dry);
         any = true;
         going = true;
      }
   }
   return any;
}

/* Removes the jumps that go and records what they set. */
static void
remove_jumps(struct jl *j)
{
   for (unsigned i = 0; i < j->nleft; i++) {
      struct ir_block *b = j->left[i];
      struct ir_instr *jump = b->last;
      bool brk = jump->op == IR_OP_BREAK;
      j->broke |= brk;
      var_def(&j->flag, b, flag_imm(j, brk ? FLAG_BRK : FLAG_CONT));
      unsigned nv = brk ? j->ne : j->nh;
      struct ir_instr **phis = brk ? j->ephi : j->hphi;
      struct jvar *vars = brk ? j->evar : j->hvar;
      for (unsigned k = 0; k < nv; k++)
         for (unsigned s = 0; s < phis[k]->nsrc; s++)
            if (phis[k]->pred[s] == b)
               var_def(&vars[k], b, phis[k]->src[s]);
      ir_instr_remove(jump);
   }
}

/* ------------------------------------------------------------------ */
/* Restructuring                                                        */

/* Removes block node n from its list position i and frees it (the block
 * also leaves sh->blocks, which ir_compute_cfg walks). */
static void
drop_block(struct jl *j, struct ir_list *l, unsigned i)
{
   struct ir_node *n = l->v[i];
   struct ir_shader *sh = j->sh;
   for (unsigned k = 0; k < sh->nblocks; k++)
      if (sh->blocks[k] == n->block) {
         memmove(&sh->blocks[k], &sh->blocks[k + 1], (sh->nblocks - k - 1) * sizeof(*sh->blocks));
         sh->nblocks--;
         break;
      }
   memmove(&l->v[i], &l->v[i + 1], (l->n - i - 1) * sizeof(*l->v));
   l->n--;
   free(n->block->preds);
   free(n->block->succs);
   free(n->block);
   free(n);
}

/* Moves the nodes from index `from` of l to the end of list to. */
static void
move_nodes(struct ir_list *l, unsigned from, struct ir_list *to, struct ir_node *parent)
{
   for (unsigned i = from; i < l->n; i++)
      ir_list_append(to, l->v[i], parent);
   l->n = from;
}

/* Does the rest of l from index `from` need to be skipped by lanes that
 * left? Not when it is one block that sets no variable and whose
 * instructions only compute values (phis aside). A variable's value at the
 * end of a block is its def there whatever path came in, so lanes that
 * left before a block setting one would read its values, not their own:
 * the fall-through end of the body counts, not only a jump that went. */
static bool
rest_needs_guard(const struct jl *j, const struct ir_list *l, unsigned from)
{
   if (from + 1 != l->n || l == &j->loop->body || sets_var(j, l->v[from]->block))
      return true;
   for (const struct ir_instr *in = l->v[from]->block->first; in; in = in->next) {
      unsigned f = ir_op_info[in->op].flags;
      if (in->op != IR_OP_PHI &&
          ((f & (IR_OPF_SIDE | IR_OPF_LOAD | IR_OPF_CONV)) || ir_op_info[in->op].dst == IR_TC_V4))
         return true;
   }
   return false;
}

/* The arm of if f whose lanes all leave (its last block's jump went) when
 * the other arm has no jump that went; the other arm in *other. */
static struct ir_list *
leaving_arm(const struct jl *j, struct ir_node *f, bool t, bool e, struct ir_list **other)
{
   struct ir_block *tl = ir_list_last_block(&f->then_list);
   struct ir_block *el = ir_list_last_block(&f->else_list);
   if (t && !e && is_left(j, tl)) {
      *other = &f->else_list;
      return &f->then_list;
   }
   if (e && !t && is_left(j, el)) {
      *other = &f->then_list;
      return &f->else_list;
   }
   return NULL;
}

/* Block `from` merges into `to`: what it set, `to` sets. */
static void
merge_defs(struct jl *j, struct ir_block *from, struct ir_block *to)
{
   struct jvar *all[3] = {&j->flag, j->hvar, j->evar};
   unsigned counts[3] = {1, j->nh, j->ne};
   for (unsigned g = 0; g < 3; g++)
      for (unsigned k = 0; k < counts[g]; k++)
         for (unsigned d = 0; d < all[g][k].ndefs; d++)
            if (all[g][k].defs[d].block == from)
               all[g][k].defs[d].block = to;
   for (unsigned i = 0; i < j->nleft; i++)
      if (j->left[i] == from)
         j->left[i] = to;
}

/* l = [..., f, B, rest...] where every lane of one arm of f has left:
 * B and the rest go to the end of the other arm, whose last block E takes
 * B's instructions (B's phis become their sources from E). */
static void
move_into_arm(struct jl *j, struct ir_list *l, unsigned i, struct ir_list *other)
{
   struct ir_node *f = l->v[i];
   struct ir_block *b = l->v[i + 1]->block, *e = ir_list_last_block(other);
   struct ir_block *old_last = ir_list_last_block(l);
   while (b->first && b->first->op == IR_OP_PHI) {
      struct ir_instr *phi = b->first, *rep = NULL;
      for (unsigned s = 0; s < phi->nsrc; s++)
         if (phi->pred[s] == e)
            rep = phi->src[s];
      ir_instr_remove(phi);
      ir_replace_uses(j->sh, phi, rep ? rep : undef(j, (enum ir_type)phi->type));
   }
   while (b->first)
      move_to(b->first, e);
   merge_defs(j, b, e);
   if (i + 2 < l->n && l->v[i + 2]->kind == IR_NODE_LOOP)
      add_rename(j, b, e); /* the loop's entry is E now */
   move_nodes(l, i + 2, other, f);
   drop_block(j, l, i + 1);
   struct ir_node *nb = new_block_node(j, l, l->v[0]->parent);
   add_rename(j, old_last, nb->block);
}

/* l = [..., f, B, rest...]: B's phis stay in a new block B' after f, and B
 * and the rest run under `if flag == 0`. Returns the guard's then list. */
static struct ir_list *
wrap_rest(struct jl *j, struct ir_list *l, unsigned i)
{
   struct ir_node *parent = l->v[0]->parent;
   struct ir_block *b = l->v[i + 1]->block, *old_last = ir_list_last_block(l);
   struct ir_node *bp = ir_node_block(j->sh);
   while (b->first && b->first->op == IR_OP_PHI)
      move_to(b->first, bp->block);
   struct ir_instr *srcs[2] = {flag_imm(j, 0), flag_imm(j, 0)};
   struct ir_instr *c = ir_instr_create(j->sh, IR_OP_IEQ, 2);
   ir_set_src(c, 0, srcs[0]);
   ir_set_src(c, 1, srcs[1]);
   c->type = IR_TYPE_32;
   ir_block_append(bp->block, c);
   VEC_PUSH(j->guards, j->nguards, j->guards_cap, c);
   struct ir_node *g = ir_node_if(c);
   move_nodes(l, i + 1, &g->then_list, g);
   new_block_node(j, &g->else_list, g);
   ir_list_append(l, bp, parent);
   ir_list_append(l, g, parent);
   struct ir_node *end = new_block_node(j, l, parent);
   add_rename(j, old_last, end->block);
   return &g->then_list;
}

/* Restructures list l (the body or an arm inside it, never a nested
 * loop's body); returns whether lanes may leave in it. */
static bool
restructure(struct jl *j, struct ir_list *l)
{
   for (unsigned i = 0; i < l->n; i++) {
      struct ir_node *n = l->v[i];
      if (n->kind == IR_NODE_BLOCK && is_left(j, n->block))
         return true;
      if (n->kind != IR_NODE_IF)
         continue;
      bool t = restructure(j, &n->then_list), e = restructure(j, &n->else_list);
      if (!t && !e)
         continue;
      if (!rest_needs_guard(j, l, i + 1))
         return true;
      struct ir_list *other = NULL;
      if (leaving_arm(j, n, t, e, &other)) {
         move_into_arm(j, l, i, other);
         restructure(j, other);
      } else {
         restructure(j, wrap_rest(j, l, i));
      }
      return true;
   }
   return false;
}

/* The body ends with `if flag == 2 { break }`; returns the compare. */
static struct ir_instr *
final_break(struct jl *j, unsigned line)
{
   struct ir_list *body = &j->loop->body;
   struct ir_block *last = ir_list_last_block(body);
   struct ir_instr *c = ir_instr_create(j->sh, IR_OP_IEQ, 2);
   ir_set_src(c, 0, flag_imm(j, 0));
   ir_set_src(c, 1, flag_imm(j, FLAG_BRK));
   c->type = IR_TYPE_32;
   c->line = line;
   ir_block_append(last, c);
   struct ir_node *f = ir_node_if(c);
   struct ir_node *bb = new_block_node(j, &f->then_list, f);
   struct ir_instr *brk = ir_instr_create(j->sh, IR_OP_BREAK, 0);
   brk->line = line;
   ir_block_append(bb->block, brk);
   new_block_node(j, &f->else_list, f);
   ir_list_append(body, f, j->loop);
   new_block_node(j, body, j->loop);
   return c;
}

/* ------------------------------------------------------------------ */
/* Variables and repair on the new CFG                                  */

/* Is b the first block of a guard's then list? Every lane there is still
 * running: the flag is 0 and no variable is set. */
static bool
guard_entry(const struct jl *j, const struct ir_block *b)
{
   const struct ir_node *n = b->node, *g = n->parent;
   if (!g || g->kind != IR_NODE_IF || n->list != &g->then_list || n->list->v[0] != n)
      return false;
   for (unsigned i = 0; i < j->nguards; i++)
      if (j->guards[i] == g->cond)
         return true;
   return false;
}

static struct ir_instr *
var_read(struct jl *j, struct jvar *v, struct ir_block *b)
{
   if (v->end[b->index])
      return v->end[b->index];
   struct ir_instr *r;
   if (b == j->header || guard_entry(j, b))
      r = v->start;
   else if (!b->reachable || !b->npreds)
      r = undef(j, v->type);
   else if (b->npreds == 1)
      r = var_read(j, v, b->preds[0]);
   else {
      r = new_phi(j, b, v->type);
      v->end[b->index] = r;
      for (unsigned k = 0; k < b->npreds; k++)
         ir_set_src(r, k, var_read(j, v, b->preds[k]));
   }
   v->end[b->index] = r;
   return r;
}

static void
var_prepare(struct jl *j, struct jvar *v)
{
   free(v->end);
   v->end = xcalloc(j->sh->nblocks + 1, sizeof(*v->end));
   for (unsigned i = 0; i < v->ndefs; i++)
      v->end[v->defs[i].block->index] = v->defs[i].value;
}

/* A value's repair: where it is defined, which blocks a path from there
 * reaches without a back edge, and its value at the end of each block. */
struct jrepair {
   struct ir_instr *v;
   bool *reach;
   struct ir_instr **end;
};

static struct ir_instr *
repair_read(struct jl *j, struct jrepair *r, struct ir_block *b)
{
   if (b == r->v->block)
      return r->v;
   if (r->end[b->index])
      return r->end[b->index];
   struct ir_instr *x;
   if (!r->reach[b->index])
      x = undef(j, (enum ir_type)r->v->type);
   else if (b->npreds == 1)
      x = repair_read(j, r, b->preds[0]);
   else {
      x = new_phi(j, b, (enum ir_type)r->v->type);
      r->end[b->index] = x;
      for (unsigned k = 0; k < b->npreds; k++)
         ir_set_src(x, k, repair_read(j, r, b->preds[k]));
   }
   r->end[b->index] = x;
   return x;
}

static void
reach_from(struct ir_shader *sh, struct ir_block *b, bool *reach)
{
   if (reach[b->index])
      return;
   reach[b->index] = true;
   for (unsigned k = 0; k < b->nsuccs; k++)
      if (!ir_block_dominates(b->succs[k], b)) /* not a back edge */
         reach_from(sh, b->succs[k], reach);
}

static bool
dominated(const struct ir_instr *def, const struct ir_block *at)
{
   return !at->reachable || def->block == at || ir_block_dominates(def->block, at);
}

/* The repair of v (made on first need). */
static struct jrepair *
repair_of(struct jl *j, struct jrepair **rs, unsigned *nrs, unsigned *cap, struct ir_instr *v)
{
   for (unsigned i = 0; i < *nrs; i++)
      if ((*rs)[i].v == v)
         return &(*rs)[i];
   struct jrepair r = {v, xcalloc(j->sh->nblocks + 1, sizeof(bool)),
                       xcalloc(j->sh->nblocks + 1, sizeof(struct ir_instr *))};
   reach_from(j->sh, v->block, r.reach);
   VEC_PUSH(*rs, *nrs, *cap, r);
   return &(*rs)[*nrs - 1];
}

static void
repair_conds(struct jl *j, struct ir_list *l, struct jrepair **rs, unsigned *nrs, unsigned *cap)
{
   for (unsigned i = 0; i < l->n; i++) {
      struct ir_node *n = l->v[i];
      if (n->kind == IR_NODE_IF) {
         struct ir_block *before = l->v[i - 1]->block;
         if (!dominated(n->cond, before))
            ir_set_cond(n, repair_read(j, repair_of(j, rs, nrs, cap, n->cond), before));
      }
      repair_conds(j, &n->then_list, rs, nrs, cap);
      repair_conds(j, &n->else_list, rs, nrs, cap);
      repair_conds(j, &n->body, rs, nrs, cap);
   }
}

/* Every use its definition no longer dominates reads the value through
 * phis instead (undefined where the path did not pass the definition). */
static void
repair(struct jl *j)
{
   struct ir_instr **order;
   unsigned n = ir_program_order(j->sh, &order), nrs = 0, cap = 0;
   struct jrepair *rs = NULL;
   for (unsigned i = 0; i < n; i++) {
      struct ir_instr *in = order[i];
      if (in->removed)
         continue;
      for (unsigned s = 0; s < in->nsrc; s++) {
         struct ir_block *at = in->op == IR_OP_PHI ? in->pred[s] : in->block;
         if (!dominated(in->src[s], at))
            ir_set_src(in, s, repair_read(j, repair_of(j, &rs, &nrs, &cap, in->src[s]), at));
      }
   }
   repair_conds(j, &j->sh->body, &rs, &nrs, &cap);
   for (unsigned i = 0; i < nrs; i++) {
      free(rs[i].reach);
      free(rs[i].end);
   }
   free(rs);
   free(order);
}

/* Phis whose sources are one value (or themselves) become that value;
 * phis made here that nothing reads go. */
static void
simplify_phis(struct jl *j)
{
   for (bool again = true; again;) {
      again = false;
      for (unsigned i = 0; i < j->ncreated; i++) {
         struct ir_instr *phi = j->created[i], *v;
         if (phi->removed || !(v = ir_phi_trivial_value(phi)))
            continue;
         ir_instr_remove(phi);
         ir_replace_uses(j->sh, phi, v);
         again = true;
      }
   }
}

static bool
is_undef(const struct jl *j, const struct ir_instr *v)
{
   return v && (v == j->undef32 || v == j->undef64);
}

/* Can phis a and b of one block be one value: at every predecessor the
 * same source, or one of them undefined there? */
static bool
phis_compatible(const struct jl *j, const struct ir_instr *a, const struct ir_instr *b)
{
   if (a->type != b->type || a->nsrc != b->nsrc)
      return false;
   for (unsigned k = 0; k < a->nsrc; k++)
      if (a->src[k] != b->src[k] && !is_undef(j, a->src[k]) && !is_undef(j, b->src[k]))
         return false;
   return true;
}

/* The value a phi with undefined sources stands for: its one other source
 * (itself aside) when that dominates the phi's block, else NULL. */
static struct ir_instr *
phi_defined_value(const struct jl *j, const struct ir_instr *phi)
{
   struct ir_instr *v = NULL;
   bool any_undef = false;
   for (unsigned k = 0; k < phi->nsrc; k++) {
      struct ir_instr *s = phi->src[k];
      if (is_undef(j, s)) {
         any_undef = true;
         continue;
      }
      if (s == phi || s == v)
         continue;
      if (v)
         return NULL;
      v = s;
   }
   if (!any_undef || !v || !v->block)
      return NULL;
   if (v->block == phi->block)
      return v->op == IR_OP_PHI ? v : NULL;
   return ir_block_dominates(v->block, phi->block) ? v : NULL;
}

/* Undefined sources are values lanes on that path never read, so they may
 * take any value. Two phis of a block that agree wherever both are defined
 * are one phi: after a lowered break, the break's loop-exit value and the
 * value of the lanes still running are then one register, not two kept
 * live side by side to the loop's end. Only where no two merge, a phi
 * whose other sources are one dominating value becomes that value (done
 * first, it would keep that value live beside the other phi). Returns
 * whether anything changed. */
static bool
merge_phis(struct jl *j, bool dom)
{
   bool progress = false;
   for (unsigned bi = 0; bi < j->sh->nblocks; bi++) {
      struct ir_block *b = j->sh->blocks[bi];
      bool has_undef = false;
      for (struct ir_instr *p = b->first; p && p->op == IR_OP_PHI && !has_undef; p = p->next)
         for (unsigned k = 0; k < p->nsrc && !has_undef; k++)
            has_undef = is_undef(j, p->src[k]);
      if (!has_undef)
         continue;
      for (struct ir_instr *a = b->first, *an; a && a->op == IR_OP_PHI; a = an) {
         an = a->next;
         struct ir_instr *v = dom ? phi_defined_value(j, a) : NULL;
         if (v) {
            ir_instr_remove(a);
            ir_replace_uses(j->sh, a, v);
            progress = true;
            continue;
         }
         for (struct ir_instr *c = b->first; !dom && c != a; c = c->next) {
            if (!phis_compatible(j, c, a))
               continue;
            for (unsigned k = 0; k < c->nsrc; k++)
               if (is_undef(j, c->src[k]))
                  ir_set_src(c, k, a->src[k] == a ? c : a->src[k]);
            ir_instr_remove(a);
            ir_replace_uses(j->sh, a, c);
            progress = true;
            break;
         }
      }
   }
   return progress;
}

static bool
used_in(const struct ir_list *l, const struct ir_instr *v)
{
   for (unsigned i = 0; i < l->n; i++) {
      const struct ir_node *n = l->v[i];
      if ((n->kind == IR_NODE_IF && n->cond == v) || used_in(&n->then_list, v) ||
          used_in(&n->else_list, v) || used_in(&n->body, v))
         return true;
   }
   return false;
}

/* The immediates made here that nothing reads go. */
static void
drop_unused_imms(struct jl *j)
{
   struct ir_instr *imms[] = {j->imm[0], j->imm[1], j->imm[2], j->undef32, j->undef64};
   for (unsigned i = 0; i < ARRAY_SIZE(imms); i++) {
      struct ir_instr *v = imms[i];
      bool used = !v || used_in(&j->sh->body, v);
      for (unsigned k = 0; k < j->sh->nvalues && !used; k++) {
         const struct ir_instr *in = j->sh->values[k];
         for (unsigned s = 0; in && !in->removed && s < in->nsrc && !used; s++)
            used = in->src[s] == v;
      }
      if (!used)
         ir_instr_remove(v);
   }
}

/* Sources of the phis outside the loop's header and exit, by the new
 * predecessors: the old source of the block that took its place, or
 * undefined on a new edge (lanes that left). */
static void
fix_other_phis(struct jl *j)
{
   for (unsigned bi = 0; bi < j->sh->nblocks; bi++) {
      struct ir_block *b = j->sh->blocks[bi];
      if (b == j->header || b == j->exit)
         continue;
      for (struct ir_instr *phi = b->first; phi && phi->op == IR_OP_PHI; phi = phi->next) {
         struct ir_instr **src = xcalloc(b->npreds + 1, sizeof(*src));
         for (unsigned k = 0; k < b->npreds; k++) {
            src[k] = undef(j, (enum ir_type)phi->type);
            for (unsigned s = 0; s < phi->nsrc; s++)
               if (renamed(j, phi->pred[s]) == b->preds[k])
                  src[k] = phi->src[s];
         }
         ir_instr_set_nsrc(phi, b->npreds);
         for (unsigned k = 0; k < b->npreds; k++) {
            ir_set_src(phi, k, src[k]);
            phi->pred[k] = b->preds[k];
         }
         free(src);
      }
   }
}

/* The loop's header phis: the entry value, then the variable at each
 * later predecessor; its exit phis: a kept break's old source, or the
 * variable at the final break. */
static void
fix_loop_phis(struct jl *j)
{
   for (unsigned k = 0; k < j->nh; k++) {
      struct ir_instr *phi = j->hphi[k], *in = phi->src[0];
      var_prepare(j, &j->hvar[k]);
      ir_instr_set_nsrc(phi, j->header->npreds);
      for (unsigned p = 0; p < j->header->npreds; p++) {
         struct ir_block *b = j->header->preds[p];
         phi->pred[p] = b;
         ir_set_src(phi, p, b == j->entry ? in : var_read(j, &j->hvar[k], b));
      }
   }
   for (unsigned k = 0; j->exit && k < j->ne; k++) {
      struct ir_instr *phi = j->ephi[k];
      var_prepare(j, &j->evar[k]);
      const struct jold *o = &j->eold[k];
      ir_instr_set_nsrc(phi, j->exit->npreds);
      for (unsigned p = 0; p < j->exit->npreds; p++) {
         struct ir_block *b = j->exit->preds[p];
         phi->pred[p] = b;
         ir_set_src(phi, p, NULL);
         for (unsigned s = 0; s < o->n; s++)
            if (o->pred[s] == b)
               ir_set_src(phi, p, o->src[s]);
         if (!phi->src[p])
            ir_set_src(phi, p, var_read(j, &j->evar[k], b));
      }
   }
}

/* ------------------------------------------------------------------ */
/* One loop                                                             */

static void
collect_phis(struct jl *j)
{
   for (struct ir_instr *in = j->header->first; in && in->op == IR_OP_PHI; in = in->next)
      VEC_PUSH(j->hphi, j->nh, j->h_cap, in);
   j->hvar = xcalloc(j->nh + 1, sizeof(*j->hvar));
   for (unsigned k = 0; k < j->nh; k++)
      j->hvar[k] = (struct jvar){.type = (enum ir_type)j->hphi[k]->type};
   for (struct ir_instr *in = j->exit ? j->exit->first : NULL; in && in->op == IR_OP_PHI;
        in = in->next)
      VEC_PUSH(j->ephi, j->ne, j->e_cap, in);
   j->evar = xcalloc(j->ne + 1, sizeof(*j->evar));
   j->eold = xcalloc(j->ne + 1, sizeof(*j->eold));
   for (unsigned k = 0; k < j->ne; k++) {
      struct ir_instr *phi = j->ephi[k];
      j->evar[k] = (struct jvar){.type = (enum ir_type)phi->type};
      j->eold[k].n = phi->nsrc;
      j->eold[k].src = xcalloc(phi->nsrc + 1, sizeof(*j->eold[k].src));
      j->eold[k].pred = xcalloc(phi->nsrc + 1, sizeof(*j->eold[k].pred));
      memcpy(j->eold[k].src, phi->src, phi->nsrc * sizeof(*phi->src));
      memcpy(j->eold[k].pred, phi->pred, phi->nsrc * sizeof(*phi->pred));
   }
}

static void
jl_free(struct jl *j)
{
   var_free(&j->flag);
   for (unsigned k = 0; k < j->nh; k++)
      var_free(&j->hvar[k]);
   for (unsigned k = 0; k < j->ne; k++) {
      var_free(&j->evar[k]);
      free(j->eold[k].src);
      free(j->eold[k].pred);
   }
   free(j->hvar);
   free(j->evar);
   free(j->eold);
   free(j->hphi);
   free(j->ephi);
   free(j->left);
   free(j->guards);
   free(j->ren);
   free(j->created);
}

static bool
lower_loop(struct ir_shader *sh, struct ir_node *loop)
{
   ir_compute_cfg(sh);
   struct jl j = {.sh = sh, .loop = loop};
   struct ir_list *pl = loop->list;
   unsigned at = 0;
   while (at < pl->n && pl->v[at] != loop)
      at++;
   j.header = ir_list_first_block(&loop->body);
   if (!j.header || at == 0 || at + 1 >= pl->n || !choose(&j, &loop->body, false, false)) {
      jl_free(&j);
      return false;
   }
   j.entry = pl->v[at - 1]->block;
   j.exit = pl->v[at + 1]->block;
   collect_phis(&j);
   j.flag = (struct jvar){.type = IR_TYPE_32, .start = flag_imm(&j, 0)};
   for (unsigned k = 0; k < j.nh; k++)
      j.hvar[k].start = undef(&j, j.hvar[k].type);
   for (unsigned k = 0; k < j.ne; k++)
      j.evar[k].start = undef(&j, j.evar[k].type);
   for (unsigned k = 0; k < j.nh; k++) /* the fall-through end */
      for (unsigned s = 1; s < j.hphi[k]->nsrc; s++)
         if (!is_left(&j, j.hphi[k]->pred[s]))
            var_def(&j.hvar[k], j.hphi[k]->pred[s], j.hphi[k]->src[s]);
   unsigned line = j.left[0]->last->line;
   remove_jumps(&j);
   restructure(&j, &loop->body);
   struct ir_instr *fb = j.broke ? final_break(&j, line) : NULL;
   ir_compute_cfg(sh);
   ir_compute_dominance(sh);
   fix_other_phis(&j);
   fix_loop_phis(&j);
   var_prepare(&j, &j.flag);
   for (unsigned i = 0; i < j.nguards; i++)
      ir_set_src(j.guards[i], 0, var_read(&j, &j.flag, j.guards[i]->block));
   if (fb)
      ir_set_src(fb, 0, var_read(&j, &j.flag, fb->block));
   repair(&j);
   do
      simplify_phis(&j);
   while (merge_phis(&j, false) || merge_phis(&j, true));
   drop_unused_imms(&j);
   jl_free(&j);
   sh->cfg_valid = false;
   return true;
}

static void
collect_loops(struct ir_list *l, struct ir_node ***v, unsigned *n, unsigned *cap)
{
   for (unsigned i = 0; i < l->n; i++) {
      struct ir_node *nd = l->v[i];
      if (nd->kind == IR_NODE_LOOP)
         VEC_PUSH(*v, *n, *cap, nd);
      collect_loops(&nd->then_list, v, n, cap);
      collect_loops(&nd->else_list, v, n, cap);
      collect_loops(&nd->body, v, n, cap);
   }
}

bool
opt_jumps(struct ir_shader *sh, struct opt_ctx *ctx)
{
   (void)ctx;
   if (!opt_stack_model(sh->model))
      return false;
   struct ir_node **loops = NULL;
   unsigned n = 0, cap = 0;
   collect_loops(&sh->body, &loops, &n, &cap);
   bool progress = false;
   for (unsigned i = 0; i < n; i++)
      progress |= lower_loop(sh, loops[i]);
   free(loops);
   if (progress)
      ir_compute_cfg(sh);
   return progress;
}
