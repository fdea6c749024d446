/*
 * The IR validator: checks every invariant stated in ir.h.
 *
 *   structure   lists alternate block / (if|loop) and start and end with a
 *               block; parent and list links agree; a jump ends its block,
 *               its block ends its list and it sits inside a loop; phis
 *               come first in their block
 *   values      every live instruction is in exactly one block, is not
 *               removed, owns its id; sources are live values of this shader
 *   counts      fixed source counts from the op table; phis have one source
 *               per predecessor, naming the predecessors in order; tex,
 *               image and atomic source counts fit their target and roles
 *   widths      sources and results have the widths the op table gives
 *   dominance   a definition dominates each use (for a phi: the end of the
 *               named predecessor; for an if: the block before the if);
 *               uses in unreachable blocks are not checked
 *   fields      required fields are set and in range
 *   uses        each value's use list holds exactly its live uses: rebuilt
 *               here from the sources and conditions and compared, so a
 *               pass that writes a source without ir_set_src is caught
 *   registers   (placed IR) values live at the same point sit in distinct
 *               registers, by a liveness computed here (a fixed point over
 *               gen/kill sets), not by the allocator's opt_live.c
 *
 * It stops at the first failure and reports the condition, the file:line
 * of the check, the instruction and the whole shader.
 */
#include "compiler/ir/ir.h"

#include <assert.h>
#include <stdlib.h>

struct vstate {
   struct ir_shader *sh;
   const char *pass;
   struct diag_list *diags;
   unsigned *pos; /* by id: position in program order */
   unsigned npos;
   unsigned visited;
};

static bool
fail(struct vstate *vs, const char *what, const char *cond, const char *file, int line,
     const struct ir_instr *in)
{
   char *itext = in ? ir_print_instr(in) : xstrdup("(no instruction)");
   char *shader = ir_print(vs->sh);
   char *pass = vs->pass ? xasprintf(" after %s", vs->pass) : xstrdup("");
   diag_add(vs->diags, DIAG_ERROR, file, line, 0, NULL,
            "IR validation failed%s: %s (%s)\n  instruction: %s\n  shader:\n%s", pass, what, cond,
            itext, shader ? shader : "");
   free(itext);
   free(shader);
   free(pass);
   return false;
}

#define VCHECK(vs, cond, in, what)                                                                 \
   do {                                                                                            \
      if (!(cond))                                                                                 \
         return fail(vs, what, #cond, __FILE__, __LINE__, in);                                     \
   } while (0)

/* ------------------------------------------------------------------ */
/* Structure                                                            */

static bool check_list(struct vstate *vs, struct ir_list *l, struct ir_node *parent,
                       unsigned loop_depth);

static bool
check_block(struct vstate *vs, struct ir_block *b, struct ir_list *l, unsigned idx,
            unsigned loop_depth)
{
   struct ir_instr *prev = NULL;
   bool phis_done = false;
   for (struct ir_instr *in = b->first; in; in = in->next) {
      VCHECK(vs, in->op < IR_OP_COUNT, NULL, "instruction has a valid op");
      VCHECK(vs, !in->removed, in, "a removed instruction is not in a block");
      VCHECK(vs, in->block == b, in, "instruction points back to its block");
      VCHECK(vs, in->prev == prev, in, "instruction list links agree");
      VCHECK(vs, in->id < vs->sh->nvalues && vs->sh->values[in->id] == in, in,
             "instruction owns its value id");
      VCHECK(vs, in->id < vs->npos && vs->pos[in->id] == 0, in,
             "instruction appears once in the shader");
      vs->pos[in->id] = ++vs->visited;
      if (in->op == IR_OP_PHI)
         VCHECK(vs, !phis_done, in, "phis come first in their block");
      else
         phis_done = true;
      if (ir_op_info[in->op].flags & IR_OPF_JUMP) {
         VCHECK(vs, in->next == NULL, in, "a jump is the last instruction of its block");
         VCHECK(vs, idx + 1 == l->n, in, "a block ending in a jump is the last of its list");
         VCHECK(vs, loop_depth > 0, in, "break/continue is inside a loop");
      }
      prev = in;
   }
   VCHECK(vs, b->last == prev, prev, "block's last instruction link agrees");
   return true;
}

static bool
check_list(struct vstate *vs, struct ir_list *l, struct ir_node *parent, unsigned loop_depth)
{
   VCHECK(vs, l->n > 0, NULL, "a control-flow list is not empty");
   VCHECK(vs, l->v[0]->kind == IR_NODE_BLOCK && l->v[l->n - 1]->kind == IR_NODE_BLOCK, NULL,
          "a control-flow list starts and ends with a block");
   for (unsigned i = 0; i < l->n; i++) {
      struct ir_node *n = l->v[i];
      VCHECK(vs, n->parent == parent && n->list == l, NULL, "node parent/list links agree");
      if (i)
         VCHECK(vs, (n->kind == IR_NODE_BLOCK) != (l->v[i - 1]->kind == IR_NODE_BLOCK), NULL,
                "blocks and if/loop nodes alternate");
      switch (n->kind) {
      case IR_NODE_BLOCK:
         VCHECK(vs, n->block && n->block->node == n, NULL, "block points back to its node");
         if (!check_block(vs, n->block, l, i, loop_depth))
            return false;
         break;
      case IR_NODE_IF:
         VCHECK(vs, n->cond != NULL, NULL, "if has a condition");
         if (!check_list(vs, &n->then_list, n, loop_depth) ||
             !check_list(vs, &n->else_list, n, loop_depth))
            return false;
         break;
      case IR_NODE_LOOP:
         if (!check_list(vs, &n->body, n, loop_depth + 1))
            return false;
         break;
      }
   }
   return true;
}

/* ------------------------------------------------------------------ */
/* Values                                                               */

static bool
dominates_use(struct vstate *vs, const struct ir_instr *def, const struct ir_instr *use,
              const struct ir_block *at_end_of)
{
   const struct ir_block *ub = at_end_of ? at_end_of : use->block;
   if (!ub->reachable)
      return true;
   if (def->block == ub)
      return at_end_of || vs->pos[def->id] < vs->pos[use->id];
   return ir_block_dominates(def->block, ub);
}

static bool
check_source(struct vstate *vs, struct ir_instr *in, unsigned i)
{
   struct ir_instr *s = in->src[i];
   VCHECK(vs, s != NULL, in, "every source is set");
   VCHECK(vs, !s->removed, in, "no use of a removed value");
   VCHECK(vs, s->id < vs->sh->nvalues && vs->sh->values[s->id] == s, in,
          "a source is a value of this shader");
   VCHECK(vs, s->type != IR_TYPE_NONE, in, "a source has a result");
   VCHECK(vs, s->block != NULL, in, "a source is in a block");
   const struct ir_block *at_end = NULL;
   if (in->op == IR_OP_PHI)
      at_end = in->pred[i];
   VCHECK(vs, dominates_use(vs, s, in, at_end), in, "the definition dominates the use");
   return true;
}

static unsigned
width_of(enum ir_type t)
{
   return t;
}

static bool
check_widths(struct vstate *vs, struct ir_instr *in)
{
   const struct ir_op_info *info = &ir_op_info[in->op];
   enum ir_type want = IR_TYPE_NONE;
   if (in->op == IR_OP_MACH)
      return true; /* ir_mach_check */
   switch (info->dst) {
   case IR_TC_W:
      want = IR_TYPE_32;
      break;
   case IR_TC_L:
      want = IR_TYPE_64;
      break;
   case IR_TC_V4:
      want = IR_TYPE_V4;
      break;
   case IR_TC_T:
   case IR_TC_S:
      VCHECK(vs, in->type == IR_TYPE_32 || in->type == IR_TYPE_64, in,
             "result of mov/phi/bcsel/imm is 32 or 64 bits");
      want = in->type;
      break;
   default:
      break;
   }
   VCHECK(vs, in->type == want, in, "result width matches the op");
   for (unsigned i = 0; i < in->nsrc; i++) {
      unsigned w = width_of(in->src[i]->type);
      switch (info->src) {
      case IR_TC_W:
         VCHECK(vs, w == IR_TYPE_32, in, "source is 32-bit");
         break;
      case IR_TC_L:
         VCHECK(vs, w == IR_TYPE_64, in, "source is 64-bit");
         break;
      case IR_TC_V4:
         VCHECK(vs, w == IR_TYPE_V4, in, "source is a 4 x 32 tuple");
         break;
      case IR_TC_A:
         VCHECK(vs, w == in->type, in, "source width equals the result width");
         break;
      case IR_TC_LW:
         VCHECK(vs, w == (i ? IR_TYPE_32 : IR_TYPE_64), in, "src0 is 64-bit, the rest 32-bit");
         break;
      case IR_TC_BS:
         VCHECK(vs, w == (i ? in->type : IR_TYPE_32), in,
                "bcsel: 32-bit condition, values of the result width");
         break;
      default:
         break;
      }
   }
   return true;
}

static unsigned
image_coords(int32_t target)
{
   unsigned n = tgsi_texture_coord_count(target);
   if (target == TGSI_TEX_T_2D_MSAA || target == TGSI_TEX_T_2D_ARRAY_MSAA)
      n++;
   return n;
}

static bool
check_tex(struct vstate *vs, struct ir_instr *in)
{
   unsigned count[IR_TEXSRC_COUNT] = {0};
   VCHECK(vs, in->nsrc <= IR_TEX_MAX_SRC, in, "tex has at most IR_TEX_MAX_SRC sources");
   for (unsigned i = 0; i < in->nsrc; i++) {
      VCHECK(vs, in->role[i] < IR_TEXSRC_COUNT, in, "tex source role is valid");
      if (i)
         VCHECK(vs, in->role[i] >= in->role[i - 1], in, "tex sources are sorted by role");
      count[in->role[i]]++;
   }
   VCHECK(vs, count[IR_TEXSRC_coord] <= 4, in, "at most 4 coordinates");
   VCHECK(vs, in->kind == IR_TEX_txq || in->kind == IR_TEX_txqs || count[IR_TEXSRC_coord] >= 1, in,
          "tex has coordinates (queries have none)");
   VCHECK(vs, count[IR_TEXSRC_cmp] <= 1 && count[IR_TEXSRC_ms] <= 1, in,
          "at most one comparator and one sample index");
   VCHECK(vs, count[IR_TEXSRC_lod] + count[IR_TEXSRC_bias] <= 1, in, "at most one lod or bias");
   VCHECK(vs, count[IR_TEXSRC_ddx] == count[IR_TEXSRC_ddy] && count[IR_TEXSRC_ddx] <= 3, in,
          "as many ddx as ddy sources, at most 3");
   VCHECK(vs, count[IR_TEXSRC_off] <= 3, in, "at most 3 offsets");
   VCHECK(vs, count[IR_TEXSRC_proj] <= 1, in, "at most one projection");
   VCHECK(vs, (in->kind == IR_TEX_txb) == (count[IR_TEXSRC_bias] == 1), in, "bias exactly on txb");
   VCHECK(vs, in->kind != IR_TEX_txl || count[IR_TEXSRC_lod] == 1, in, "txl has a lod");
   VCHECK(vs, (in->kind == IR_TEX_txd) == (count[IR_TEXSRC_ddx] > 0), in,
          "derivatives exactly on txd");
   VCHECK(vs, (in->kind == IR_TEX_tg4) == (in->comp != IR_NONE), in,
          "a gather (and only a gather) names its component");
   return true;
}

static bool
check_counts(struct vstate *vs, struct ir_instr *in)
{
   const struct ir_op_info *info = &ir_op_info[in->op];
   if (info->nsrc != IR_NSRC_VAR) {
      VCHECK(vs, in->nsrc == info->nsrc, in, "source count matches the op table");
      return true;
   }
   unsigned extra = 0;
   switch (in->op) {
   case IR_OP_PHI: {
      struct ir_block *b = in->block;
      VCHECK(vs, in->nsrc == b->npreds, in, "phi has one source per predecessor");
      for (unsigned i = 0; i < in->nsrc; i++)
         VCHECK(vs, in->pred[i] == b->preds[i], in,
                "phi names the block's predecessors in program order");
      return true;
   }
   case IR_OP_TEX:
      return check_tex(vs, in);
   case IR_OP_MACH:
      return true; /* ir_mach_check */
   case IR_OP_IMAGE_LOAD:
      VCHECK(vs, in->nsrc == image_coords(in->target), in, "image_load takes the coordinates");
      return true;
   case IR_OP_IMAGE_STORE:
      VCHECK(vs, in->nsrc == image_coords(in->target) + 4, in,
             "image_store takes the coordinates and 4 values");
      return true;
   case IR_OP_ATOMIC:
      extra = in->aop == IR_AOP_cas ? 2 : 1;
      if (in->space == IR_SPACE_image)
         VCHECK(vs, in->nsrc == image_coords(in->target) + extra, in,
                "image atomic takes the coordinates and its data");
      else
         VCHECK(vs, in->nsrc == 1 + extra, in, "atomic takes an address and its data");
      return true;
   default:
      VCHECK(vs, false, in, "variable source count only on phi, tex, image and atomic ops");
   }
   return true;
}

static bool
array_known(const struct ir_shader *sh, int32_t id, int32_t *slots)
{
   for (unsigned i = 0; i < sh->narrays; i++)
      if (sh->arrays[i].id == id) {
         *slots = sh->arrays[i].slots;
         return true;
      }
   return false;
}

/* The fields of in that are set (bit 1 << enum ir_field), read from the
 * struct's members as IR_FIELDS names them. */
static unsigned
fields_set(const struct ir_instr *in)
{
   unsigned set = 0;
#define SET_BIT_(e, m, s) set |= (unsigned)(in->m != IR_NONE) << IR_FIELD_##e;
   IR_FIELDS(SET_BIT_)
#undef SET_BIT_
   return set;
}

static bool
check_fields(struct vstate *vs, struct ir_instr *in)
{
   const struct ir_op_info *info = &ir_op_info[in->op];
   unsigned optional = IR_FB_VTX;
   if (in->op == IR_OP_TEX)
      optional |= IR_FB_COMP | IR_FB_SAMP;
   if (in->op == IR_OP_ATOMIC || in->op == IR_OP_RES_SIZE)
      optional |= IR_FB_TARGET;
   unsigned set = fields_set(in), own = info->fields;
   /* the loop below finds the first field in error, for its message */
   bool fields_ok = !(set & ~own) && !(own & ~optional & ~set);
   for (int f = 0; !fields_ok && f < IR_FIELD_COUNT; f++) {
      int32_t v = ir_field_get(in, f);
      bool allowed = info->fields & (1u << f);
      bool optional =
          f == IR_FIELD_VTX ||
          (in->op == IR_OP_TEX && (f == IR_FIELD_COMP || f == IR_FIELD_SAMP)) ||
          ((in->op == IR_OP_ATOMIC || in->op == IR_OP_RES_SIZE) && f == IR_FIELD_TARGET);
      if (!allowed)
         VCHECK(vs, v == IR_NONE, in, "only the op's own fields are set");
      else if (!optional)
         VCHECK(vs, v != IR_NONE, in, "every required field is set");
   }
   VCHECK(vs, in->comp == IR_NONE || (in->comp >= 0 && in->comp < 4), in, "comp is x, y, z or w");
   VCHECK(vs, in->sv == IR_NONE || (in->sv >= 0 && in->sv < TGSI_SEM_COUNT), in,
          "sv is a semantic");
   VCHECK(vs, in->target == IR_NONE || (in->target >= 0 && in->target < TGSI_TEX_COUNT), in,
          "target is a texture target");
   VCHECK(vs, in->kind == IR_NONE || (in->kind >= 0 && in->kind < IR_TEX_KIND_COUNT), in,
          "kind is a tex kind");
   VCHECK(vs, in->space == IR_NONE || (in->space >= 0 && in->space < IR_SPACE_COUNT), in,
          "space is a memory space");
   VCHECK(vs, in->aop == IR_NONE || (in->aop >= 0 && in->aop < IR_AOP_COUNT), in,
          "aop is an atomic op");
   VCHECK(vs,
          (in->vtx == IR_NONE || in->vtx >= 0) && (in->buf == IR_NONE || in->buf >= 0) &&
              (in->res == IR_NONE || in->res >= 0) && (in->samp == IR_NONE || in->samp >= 0) &&
              (in->stream == IR_NONE || in->stream >= 0),
          in, "indices are not negative");
   VCHECK(vs,
          (in->op != IR_OP_ATOMIC && in->op != IR_OP_RES_SIZE) ||
              (in->space == IR_SPACE_image) == (in->target != IR_NONE),
          in, "an atomic or res_size has a target exactly when it works on an image");
   bool direct = in->op == IR_OP_LOAD_INPUT || in->op == IR_OP_LOAD_CONST ||
                 in->op == IR_OP_STORE_OUTPUT || in->op == IR_OP_INTERP_CENTROID ||
                 in->op == IR_OP_ARRAY_LOAD || in->op == IR_OP_ARRAY_STORE;
   if (direct)
      VCHECK(vs, in->slot >= 0, in, "a directly addressed slot is not negative");
   if (in->arr != IR_NONE) {
      int32_t slots = 0;
      VCHECK(vs, array_known(vs->sh, in->arr, &slots), in, "the array is declared");
      if (in->op == IR_OP_ARRAY_LOAD || in->op == IR_OP_ARRAY_STORE)
         VCHECK(vs, in->slot < slots, in, "a direct array access is inside the array");
   }
   VCHECK(vs, (in->flags & ~(IR_VF_PRECISE | IR_VF_INVARIANT)) == 0, in, "only known value flags");
   return true;
}

static bool
check_conds(struct vstate *vs, struct ir_list *l)
{
   for (unsigned i = 0; i < l->n; i++) {
      struct ir_node *n = l->v[i];
      if (n->kind == IR_NODE_IF) {
         struct ir_instr *c = n->cond;
         VCHECK(vs, !c->removed, c, "if condition is not a removed value");
         VCHECK(vs, c->id < vs->sh->nvalues && vs->sh->values[c->id] == c, c,
                "if condition is a value of this shader");
         VCHECK(vs, c->type == IR_TYPE_32, c, "if condition is 32-bit");
         struct ir_block *before = l->v[i - 1]->block;
         VCHECK(vs, c->block && (!before->reachable || ir_block_dominates(c->block, before)), c,
                "if condition dominates the if");
      }
      if (!check_conds(vs, &n->then_list) || !check_conds(vs, &n->else_list) ||
          !check_conds(vs, &n->body))
         return false;
   }
   return true;
}

/* ------------------------------------------------------------------ */
/* Use lists                                                            */

static int
cmp_ptr(const void *a, const void *b)
{
   uintptr_t x = (uintptr_t) * (void *const *)a, y = (uintptr_t) * (void *const *)b;
   return x < y ? -1 : x > y;
}

static void
collect_ifs(struct ir_list *l, struct ir_node ***v, unsigned *n, unsigned *cap)
{
   for (unsigned i = 0; i < l->n; i++) {
      struct ir_node *nd = l->v[i];
      if (nd->kind == IR_NODE_IF)
         VEC_PUSH(*v, *n, *cap, nd);
      collect_ifs(&nd->then_list, v, n, cap);
      collect_ifs(&nd->else_list, v, n, cap);
      collect_ifs(&nd->body, v, n, cap);
   }
}

/* The uses counted here from the sources and the tree's conditions equal
 * the live entries of each use list (which are distinct: one per write),
 * so every use is listed and nothing else is. */
static bool
check_uses(struct vstate *vs)
{
   struct ir_shader *sh = vs->sh;
   unsigned *want = xcalloc(sh->nvalues + 1, sizeof(*want));
   struct ir_node **ifs = NULL;
   unsigned nifs = 0, cap = 0;
   collect_ifs(&sh->body, &ifs, &nifs, &cap);
   if (nifs)
      qsort(ifs, nifs, sizeof(*ifs), cmp_ptr);
   for (unsigned i = 0; i < sh->nvalues; i++) {
      struct ir_instr *in = sh->values[i];
      for (unsigned s = 0; in && !in->removed && s < in->nsrc; s++)
         want[in->src[s]->id]++;
   }
   for (unsigned i = 0; i < nifs; i++)
      want[ifs[i]->cond->id]++;
   const struct ir_instr *bad = NULL;
   for (unsigned i = 0; i < sh->nvalues && !bad; i++) {
      const struct ir_instr *v = sh->values[i];
      if (!v || v->removed)
         continue;
      unsigned have = 0;
      for (unsigned u = 0; u < v->nuses; u++) {
         const struct ir_use *e = &v->uses[u];
         if (ir_use_live(v, e) &&
             (e->user || (nifs && bsearch(&e->node, ifs, nifs, sizeof(*ifs), cmp_ptr))))
            have++;
      }
      if (have != want[i])
         bad = v;
   }
   free(want);
   free(ifs);
   VCHECK(vs, bad == NULL, bad, "a value's use list holds exactly its uses (ir_set_src)");
   return true;
}

static bool
validate(struct vstate *vs)
{
   struct ir_shader *sh = vs->sh;
   if (!check_list(vs, &sh->body, NULL, 0))
      return false;
   unsigned live = 0; /* ir_count_instrs, in the same walk */
   for (unsigned i = 0; i < sh->nvalues; i++) {
      struct ir_instr *in = sh->values[i];
      if (in && !in->removed) {
         live++;
         VCHECK(vs, vs->pos[i] != 0, in, "every live instruction is in a block");
      }
   }
   VCHECK(vs, live == vs->visited, NULL, "every live instruction is in a block");
   /* ir_program_order's kept walk, while it holds itself current, is the
    * order of the walk here */
   unsigned nkept = 0;
   struct ir_instr *const *kept = ir_program_order_kept(sh, &nkept);
   for (unsigned j = 0; kept && j < nkept; j++)
      VCHECK(vs, kept[j]->id < vs->npos && vs->pos[kept[j]->id] == j + 1, kept[j],
             "ir_program_order's kept walk is the program order");
   VCHECK(vs, !kept || nkept == vs->visited, NULL,
          "ir_program_order's kept walk is the program order");
   ir_compute_cfg(sh);
   ir_compute_dominance(sh);
   for (unsigned i = 0; i < sh->nvalues; i++) {
      struct ir_instr *in = sh->values[i];
      if (!in || in->removed)
         continue;
      if (!check_counts(vs, in))
         return false;
      for (unsigned s = 0; s < in->nsrc; s++)
         if (!check_source(vs, in, s))
            return false;
      if (!check_widths(vs, in) || !check_fields(vs, in))
         return false;
      if (in->op == IR_OP_MACH || in->mach) {
         const char *why = ir_mach_check(sh, in);
         if (why)
            return fail(vs, why, "ir_mach_check", __FILE__, __LINE__, in);
      }
   }
   if (!check_conds(vs, &sh->body) || !check_uses(vs))
      return false;
   const struct ir_instr *bad = NULL;
   const char *why = NULL;
   if (sh->model) {
      struct ir_liveness lv;
      ir_validate_liveness(sh, &lv);
      why = ir_regs_check(sh, &lv, &bad);
      ir_liveness_free(&lv);
   }
   if (why)
      return fail(vs, why, "ir_regs_check", __FILE__, __LINE__, bad);
   return true;
}

/* ------------------------------------------------------------------ */
/* Liveness, independently of opt_live.c                                */

/* A value that sits in allocated registers (not an immediate or a
 * constant, which live in operands or the constant file). */
static bool
v_in_regs(const struct ir_instr *v)
{
   return v->type != IR_TYPE_NONE && !v->removed && v->op != IR_OP_IMM &&
          v->op != IR_OP_LOAD_CONST && v->op != IR_OP_LOAD_CONST_IND;
}

/* gen: values a block reads before (or without) defining them; kill: the
 * values it defines, its phis included. Both are over lv's universe, which
 * leaves out values read only after their definition in their own block;
 * kill holds no such value, so whether a read comes after a definition in
 * the block is kept apart, in here (value id -> block index + 1), and a read
 * that does not must find its value in the universe. */
static void
v_gen_kill(const struct ir_liveness *lv, const struct ir_block *b, uint64_t *gen, uint64_t *kill,
           unsigned *here)
{
   for (const struct ir_instr *in = b->first; in; in = in->next) {
      for (unsigned s = 0; in->op != IR_OP_PHI && s < in->nsrc; s++) {
         const struct ir_instr *v = in->src[s];
         if (in->op == IR_OP_EXTRACT || !v_in_regs(v) ||
             (v->id < lv->nvalues && here[v->id] == b->index + 1))
            continue;
         bool ok = ir_live_mark(lv, gen, v->id, true);
         assert(ok); /* read before its definition: in the universe */
         (void)ok;
      }
      ir_live_mark(lv, kill, in->id, true);
      if (in->id < lv->nvalues)
         here[in->id] = b->index + 1;
   }
}

/* Adds value v to set; true when it was not there. */
static bool
v_add(const struct ir_liveness *lv, uint64_t *set, const struct ir_instr *v)
{
   if (ir_live_test(lv, set, v->id))
      return false;
   bool ok = ir_live_mark(lv, set, v->id, true);
   assert(ok); /* phi sources and if conditions are in the universe */
   return ok;
}

/* out(b) = the live-in sets of its successors, the sources its
 * successors' phis take from b, and the condition of an if right after b;
 * in(b) = gen(b) | (out(b) & ~kill(b)). Iterated in reverse program order
 * (a backward problem: one sweep carries a use back over every block but
 * the back edges) until nothing changes. */
void
ir_validate_liveness(struct ir_shader *sh, struct ir_liveness *lv)
{
   ir_compute_cfg(sh);
   ir_liveness_alloc(sh, lv);
   unsigned nb = sh->nblocks, nw = lv->nwords;
   uint64_t *gen = xcalloc((size_t)nb * nw + 1, sizeof(uint64_t));
   uint64_t *kill = xcalloc((size_t)nb * nw + 1, sizeof(uint64_t));
   unsigned *here = xcalloc(lv->nvalues + 1, sizeof(unsigned));
   for (unsigned b = 0; b < nb; b++)
      v_gen_kill(lv, sh->blocks[b], gen + (size_t)b * nw, kill + (size_t)b * nw, here);
   free(here);
   bool changed = true;
   while (changed) {
      changed = false;
      for (unsigned b = nb; b-- > 0;) {
         const struct ir_block *blk = sh->blocks[b];
         uint64_t *out = lv->out + (size_t)b * nw, *in = lv->in + (size_t)b * nw;
         for (unsigned s = 0; s < blk->nsuccs; s++) {
            const struct ir_block *succ = blk->succs[s];
            for (unsigned w = 0; w < nw; w++) {
               uint64_t o = out[w] | lv->in[(size_t)succ->index * nw + w];
               changed |= o != out[w];
               out[w] = o;
            }
            for (const struct ir_instr *p = succ->first; p && p->op == IR_OP_PHI; p = p->next)
               for (unsigned k = 0; k < p->nsrc; k++)
                  if (p->pred[k] == blk && v_in_regs(p->src[k]))
                     changed |= v_add(lv, out, p->src[k]);
         }
         const struct ir_instr *cond = ir_block_if_cond(blk);
         if (cond && v_in_regs(cond))
            changed |= v_add(lv, out, cond);
         for (unsigned w = 0; w < nw; w++) {
            uint64_t i = gen[(size_t)b * nw + w] | (out[w] & ~kill[(size_t)b * nw + w]);
            changed |= i != in[w];
            in[w] = i;
         }
      }
   }
   free(gen);
   free(kill);
}

bool
ir_validate_after(struct ir_shader *sh, const char *after, struct diag_list *diags)
{
   struct vstate vs = {sh, after, diags, NULL, sh->nvalues, 0};
   vs.pos = xcalloc(sh->nvalues + 1, sizeof(unsigned));
   bool ok = validate(&vs);
   free(vs.pos);
   return ok;
}

bool
ir_validate(struct ir_shader *sh, const char *pass, struct diag_list *diags)
{
   char *after = pass ? xasprintf("pass '%s'", pass) : NULL;
   bool ok = ir_validate_after(sh, after, diags);
   free(after);
   return ok;
}
