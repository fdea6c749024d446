/*
 * cmpsel fusion (agx; seed 002, Mesa agx_optimizer_cmpsel). The reference
 * expansion makes every compare a boolean, t = cmpsel.cc a, b, 1, 0 (or
 * 0, 1 for the conditions made by swapping the arms), and every select a
 * test of it, d = icmpsel.ueq t, 0, y, x. A select whose t comes from such
 * a compare in the same region becomes one instruction,
 *
 *     d = cmpsel.cc a, b, x, y        (arms swapped back for a 0, 1 compare)
 *
 * when a and b still hold what the compare read (no write between them).
 * The compare is removed once no read is left that can see its t.
 *
 * Fusing reads a and b at the select instead of t: when they would live
 * only for that (scratch values whose last read was the compare, with
 * other instructions between), fusing keeps two registers live where the
 * boolean kept one, so the boolean stays (the register-pressure choice
 * between recomputing the compare and keeping it live, seed 002). A source
 * that is a TGSI home, is read again later, or is a uniform loaded by a
 * mov (then read from the uniform register directly) costs nothing.
 */
#include "compiler/opt/opt_agx.h"

#include <stdlib.h>
#include <string.h>

/* Which scratch registers a read may see from elsewhere, kept up to date
 * as items die and change, so removing a dead compare does not walk the
 * program (agx_read_elsewhere does). Per scratch register: the items
 * whose instruction touches it, in program order (a superset: a rewritten
 * item is added for its new registers and kept for its old ones), and
 * the regions with an exposed read of it (a read before any write of the
 * region), and how many. */
struct reg_items {
   unsigned *items, n, cap;
   unsigned nexposed;
};

struct cs {
   struct agx_prog *p;
   int mod_cc, mod_icc, mod_sign, mod_ccn, mod_iccn, ueq, usign, ssign, une, feq;
   int if_fcmp, if_icmp, u2f;
   struct reg_items *regs; /* by scratch register - homes_end */
   unsigned nregs, nregions;
   unsigned *region; /* by item */
   uint8_t *exposed; /* by scratch register * nregions + region */
};

/* Calls f(z, r, k) for each scratch register r instruction in touches. */
static void
each_reg(struct cs *z, unsigned k, const struct isa_insn *in,
         void (*f)(struct cs *z, unsigned r, unsigned k))
{
   for (unsigned s = 0; s < (unsigned)(in->ndst + in->nsrc); s++) {
      int slot = s < in->ndst ? ISA_SLOT_DST(s) : ISA_SLOT_SRC(s - in->ndst);
      unsigned first, c;
      if (!agx_opnd_regs(z->p, in, slot, &first, &c))
         continue;
      for (unsigned r = MAX2(first, z->p->homes_end); r < first + c; r++)
         f(z, r - z->p->homes_end, k);
   }
}

static void
count_reg(struct cs *z, unsigned r, unsigned k)
{
   (void)k;
   z->nregs = MAX2(z->nregs, r + 1);
}

/* Adds item k to register r's list. */
static void
add_item(struct cs *z, unsigned r, unsigned k)
{
   if (r >= z->nregs) /* read_elsewhere asks agx_read_elsewhere */
      return;
   struct reg_items *l = &z->regs[r];
   unsigned at = l->n, lo = 0; /* at: the first entry above k */
   if (at > 0 && l->items[at - 1] > k)
      while (lo < at) { /* a changed item goes inside: binary search */
         unsigned mid = lo + (at - lo) / 2;
         if (l->items[mid] > k)
            at = mid;
         else
            lo = mid + 1;
      }
   if (at > 0 && l->items[at - 1] == k)
      return;
   VEC_RESERVE(l->items, l->cap, l->n + 1);
   memmove(l->items + at + 1, l->items + at, (l->n - at) * sizeof(unsigned));
   l->items[at] = k;
   l->n++;
}

/* The first entry of r's list in region g or later. */
static unsigned
region_first(const struct cs *z, const struct reg_items *l, unsigned g)
{
   unsigned lo = 0, hi = l->n;
   while (lo < hi) {
      unsigned mid = (lo + hi) / 2;
      if (z->region[l->items[mid]] < g)
         lo = mid + 1;
      else
         hi = mid;
   }
   return lo;
}

/* What live item k does to reg: 1 reads it, 0 writes it (without
 * reading), -1 neither (or k is dead). */
static int
reg_access(const struct agx_prog *p, unsigned k, unsigned reg)
{
   const struct isa_insn *in = &p->rc->items[k].in;
   if (p->dead[k])
      return -1;
   if (agx_reads(p, in, reg))
      return 1;
   return agx_writes(p, in, reg) ? 0 : -1;
}

/* Whether region g reads scratch register r before writing it. */
static bool
region_exposed(const struct cs *z, unsigned r, unsigned g)
{
   const struct agx_prog *p = z->p;
   const struct reg_items *l = &z->regs[r];
   unsigned reg = r + p->homes_end;
   for (unsigned x = region_first(z, l, g); x < l->n && z->region[l->items[x]] == g; x++) {
      int a = reg_access(p, l->items[x], reg);
      if (a >= 0)
         return a;
   }
   return false;
}

/* Recomputes r's exposure in item k's region. */
static void
update_reg(struct cs *z, unsigned r, unsigned k)
{
   unsigned g = z->region[k];
   if (r >= z->nregs)
      return;
   uint8_t *e = &z->exposed[(size_t)r * z->nregions + g];
   bool now = region_exposed(z, r, g);
   z->regs[r].nexposed += (unsigned)now - *e;
   *e = now;
}

static void
index_items(struct cs *z)
{
   struct agx_prog *p = z->p;
   unsigned nitems = p->rc->nitems, g = 0;
   z->region = xmalloc((nitems + 1) * sizeof(unsigned));
   for (unsigned k = 0; k < nitems; k++) {
      g += p->start[k];
      z->region[k] = g;
      each_reg(z, k, &p->rc->items[k].in, count_reg);
   }
   z->nregions = g + 1;
   z->regs = xcalloc(z->nregs + 1, sizeof(*z->regs));
   z->exposed = xcalloc((size_t)z->nregs * z->nregions + 1, 1);
   for (unsigned k = 0; k < nitems; k++)
      if (!p->dead[k])
         each_reg(z, k, &p->rc->items[k].in, add_item);
   for (unsigned r = 0; r < z->nregs; r++)
      for (unsigned x = 0; x < z->regs[r].n; x++)
         if (x == 0 || z->region[z->regs[r].items[x]] != z->region[z->regs[r].items[x - 1]])
            update_reg(z, r, z->regs[r].items[x]);
}

/* Item k died or its instruction changed (it was old): the lists and
 * the exposure of the registers either touches. */
static void
item_changed(struct cs *z, unsigned k, const struct isa_insn *old)
{
   const struct isa_insn *in = &z->p->rc->items[k].in;
   each_reg(z, k, in, add_item);
   each_reg(z, k, old, update_reg);
   each_reg(z, k, in, update_reg);
}

static void
index_free(struct cs *z)
{
   for (unsigned r = 0; r < z->nregs; r++)
      free(z->regs[r].items);
   free(z->regs);
   free(z->region);
   free(z->exposed);
}

/* Whether a live item of l from entry x on, in region g, reads reg before
 * an item other than i writes it (that writer's own read counts). */
static bool
read_before_write(const struct cs *z, const struct reg_items *l, unsigned x, unsigned g,
                  unsigned reg, unsigned i)
{
   const struct agx_prog *p = z->p;
   for (; x < l->n && z->region[l->items[x]] == g; x++) {
      unsigned k = l->items[x];
      const struct isa_insn *in = &p->rc->items[k].in;
      if (p->dead[k])
         continue;
      if (agx_reads(p, in, reg))
         return true;
      if (k != i && agx_writes(p, in, reg))
         return false;
   }
   return false;
}

/* agx_read_elsewhere(p, reg, i, i) for a scratch register: an exposed
 * read in another region, or in i's, a read that i's value or an earlier
 * one reaches (a write at i itself does not hide the reads after it). */
static bool
read_elsewhere(const struct cs *z, unsigned reg, unsigned i)
{
   const struct agx_prog *p = z->p;
   unsigned r = reg - p->homes_end, g = z->region[i];
   if (r >= z->nregs) /* a register no item touched when the pass began */
      return agx_read_elsewhere(p, reg, i, i);
   const struct reg_items *l = &z->regs[r];
   if (l->nexposed > z->exposed[(size_t)r * z->nregions + g])
      return true;
   /* the region's incoming value, then i's: each reaches the reads up to
    * the next writer, so neither walk passes more than that */
   unsigned x = region_first(z, l, g), lo = x, hi = l->n;
   if (read_before_write(z, l, x, g, reg, i))
      return true;
   while (lo < hi) { /* i's entry */
      unsigned mid = lo + (hi - lo) / 2;
      if (l->items[mid] < i)
         lo = mid + 1;
      else
         hi = mid;
   }
   return lo < l->n && l->items[lo] == i && read_before_write(z, l, lo + 1, g, reg, i);
}

static bool
is_imm(const struct isa_opnd *o, uint32_t v)
{
   return o->kind == ISA_OPND_IMM && o->value == v;
}

/* The select test: icmpsel.ueq t, 0, y, x on a full register t. */
static bool
is_select(const struct cs *z, const struct isa_insn *in, unsigned *t)
{
   unsigned n;
   return in->sem == ISA_SEM_ICMPSEL && in->mod[z->mod_icc] == z->ueq &&
          in->mod[z->mod_sign] == z->usign && is_imm(&in->src[1], 0) &&
          in->dst[0].kind == ISA_OPND_REG && (int)in->dst[0].file == z->p->rc->gpr &&
          agx_opnd_regs(z->p, in, ISA_SLOT_SRC(0), t, &n) && (int)in->src[0].file == z->p->rc->gpr;
}

/* The region's last live writer of reg before j, or -1. A j that starts
 * its region (the item after a flow op: pop_exec, an if) has none: what
 * came before ran under another execution mask. */
static int
def_before(const struct agx_prog *p, unsigned j, unsigned reg)
{
   for (unsigned k = j; k-- > 0 && !p->start[k + 1];)
      if (!p->dead[k] && agx_writes(p, &p->rc->items[k].in, reg))
         return (int)k;
   return -1;
}

static bool
written_between(const struct agx_prog *p, unsigned reg, unsigned i, unsigned j)
{
   for (unsigned k = i + 1; k < j; k++)
      if (!p->dead[k] && agx_writes(p, &p->rc->items[k].in, reg))
         return true;
   return false;
}

/* The value operand o of item i holds when i runs, if a mov_imm of the
 * region set it (or it is an immediate). */
static bool
known(const struct agx_prog *p, unsigned i, const struct isa_opnd *o, uint32_t *v)
{
   if (o->kind == ISA_OPND_IMM) {
      *v = o->value;
      return true;
   }
   if (o->kind != ISA_OPND_REG || (int)o->file != p->rc->gpr)
      return false;
   int d = def_before(p, i, o->index);
   const struct isa_insn *in = d >= 0 ? &p->rc->items[d].in : NULL;
   if (!in || in->sem != ISA_SEM_MOV || in->src[0].kind != ISA_OPND_IMM)
      return false;
   *v = in->src[0].value;
   return true;
}

/* The value o holds at item i: known() or an immediate of the shader
 * read from its uniform by a mov of the region. */
static bool
const_at(const struct agx_prog *p, unsigned i, const struct isa_opnd *o, uint32_t *v)
{
   if (known(p, i, o, v))
      return true;
   const struct ref_ctx *c = p->rc;
   int d = o->kind == ISA_OPND_REG && (int)o->file == c->gpr ? def_before(p, i, o->index) : -1;
   const struct isa_insn *in = d >= 0 ? &c->items[d].in : NULL;
   if (!in || in->sem != ISA_SEM_MOV || in->src[0].kind != ISA_OPND_REG ||
       (int)in->src[0].file != c->cfile || in->src[0].flags)
      return false;
   unsigned u = in->src[0].index - c->creg, lo = c->imm_base * 4;
   if (in->src[0].index < c->creg || u < lo || u >= lo + c->s->nimms * 4)
      return false;
   *v = c->s->imms[(u - lo) / 4].u[(u - lo) % 4];
   return true;
}

/* A boolean at item j: register t holds x when compare cmp's condition
 * holds and y when not, one of them zero. Looks through copies and ANDs
 * with a known mask in the region (the reference stores a compare's
 * result to its TGSI home, and IF masks the sign bit off). */
struct boolean {
   int cmp;
   uint32_t x, y;
};

static bool bool_def(const struct cs *z, unsigned j, unsigned t, struct boolean *b, unsigned depth);

/* A nonzero boolean value v that compares unequal to 0 (as a float: not
 * +-0 and not a denormal the compare may flush). */
static bool
nonzero_as(bool fl, uint32_t v)
{
   return fl ? (v & 0x7f800000u) != 0 : v != 0;
}

/* Compare i, `eq t, 0` on a boolean t of another compare, is that
 * compare's negation (the SEQ t, 0.0 / USEQ t, 0 of a TGSI `!c`): b
 * becomes the inner compare with the arms each of its outcomes picks,
 * when the inner compare's sources still hold at i. */
static void
not_of(const struct cs *z, unsigned i, struct boolean *b, unsigned depth)
{
   const struct agx_prog *p = z->p;
   const struct isa_insn *in = &p->rc->items[i].in;
   bool fl = in->sem == ISA_SEM_FCMPSEL;
   int cc = in->mod[fl ? z->mod_cc : z->mod_icc];
   unsigned t, n;
   uint32_t zero;
   struct boolean inner;
   if (cc != (fl ? z->feq : z->ueq) || !const_at(p, i, &in->src[1], &zero) || zero != 0 ||
       (int)in->src[0].file != p->rc->gpr || !agx_opnd_regs(p, in, ISA_SLOT_SRC(0), &t, &n) ||
       in->src[0].flags || !bool_def(z, i, t, &inner, depth + 1))
      return;
   uint32_t nz = inner.x ? inner.x : inner.y;
   if (!nonzero_as(fl, nz))
      return;
   const struct isa_insn *c2 = &p->rc->items[inner.cmp].in;
   for (unsigned s = 0; s < 2; s++)
      if (c2->src[s].kind == ISA_OPND_REG && (int)c2->src[s].file == p->rc->gpr &&
          written_between(p, c2->src[s].index, (unsigned)inner.cmp, i))
         return;
   /* the inner compare holds: t = inner.x; eq t, 0 picks b->x iff t == 0 */
   uint32_t x = inner.x ? b->y : b->x, y = inner.y ? b->y : b->x;
   b->cmp = inner.cmp;
   b->x = x;
   b->y = y;
}

static bool
bool_def(const struct cs *z, unsigned j, unsigned t, struct boolean *b, unsigned depth)
{
   const struct agx_prog *p = z->p;
   int i = def_before(p, j, t);
   if (i < 0 || depth > 8)
      return false;
   const struct isa_insn *in = &p->rc->items[i].in;
   if (in->dst[0].kind != ISA_OPND_REG || (int)in->dst[0].file != p->rc->gpr)
      return false;
   if (in->sem == ISA_SEM_FCMPSEL || in->sem == ISA_SEM_ICMPSEL) {
      b->cmp = i;
      if (!known(p, (unsigned)i, &in->src[2], &b->x) ||
          !known(p, (unsigned)i, &in->src[3], &b->y) || (b->x != 0) == (b->y != 0))
         return false;
      not_of(z, (unsigned)i, b, depth);
      return true;
   }
   uint32_t k = ~0u;
   unsigned u = 0, n;
   if (in->sem == ISA_SEM_ISUB && is_imm(&in->src[0], 0) &&
       agx_opnd_regs(p, in, ISA_SLOT_SRC(1), &u, &n) &&
       bool_def(z, (unsigned)i, u, b, depth + 1)) { /* 1/0 as ~0/0 */
      b->x = 0u - b->x;
      b->y = 0u - b->y;
      return (b->x != 0) != (b->y != 0);
   }
   if (in->op == (unsigned)z->u2f && agx_opnd_regs(p, in, ISA_SLOT_SRC(0), &u, &n) &&
       bool_def(z, (unsigned)i, u, b, depth + 1)) { /* 1/0 as 1.0/0.0 */
      b->x = fui((float)b->x);
      b->y = fui((float)b->y);
      return (b->x != 0) != (b->y != 0);
   }
   bool src_reg =
       agx_opnd_regs(p, in, ISA_SLOT_SRC(0), &u, &n) && (int)in->src[0].file == p->rc->gpr;
   if (!src_reg || (in->sem != ISA_SEM_MOV &&
                    (in->sem != ISA_SEM_AND || !known(p, (unsigned)i, &in->src[1], &k))))
      return false;
   if (!bool_def(z, (unsigned)i, u, b, depth + 1))
      return false;
   b->x &= k;
   b->y &= k;
   return (b->x != 0) != (b->y != 0);
}

/* reg is read after j in j's region before it is written again. */
static bool
read_after(const struct agx_prog *p, unsigned reg, unsigned j)
{
   for (unsigned k = j + 1; k < p->rc->nitems && !p->start[k]; k++) {
      int a = reg_access(p, k, reg);
      if (a >= 0)
         return a;
   }
   return false;
}

/* Compare source s (0 or 1) of item i, as instruction j may read it:
 * the register, or the uniform a mov put there, or the small integer a
 * mov_imm put there (icmpsel takes 8-bit immediates; fcmpsel's are
 * minifloats: only 0). Returns the registers it costs: 1 when reading the
 * register at j keeps it live longer than it would be. */
static unsigned
source_at(const struct cs *z, unsigned i, unsigned j, unsigned s, struct isa_opnd *o)
{
   const struct agx_prog *p = z->p;
   const struct isa_insn *cmp = &p->rc->items[i].in;
   *o = cmp->src[s];
   unsigned r, n;
   if (!agx_opnd_regs(p, cmp, ISA_SLOT_SRC(s), &r, &n))
      return 0; /* an immediate or a uniform */
   int d = def_before(p, i, r);
   const struct isa_insn *def = d >= 0 ? &p->rc->items[d].in : NULL;
   uint8_t flags = o->flags;
   if (def && def->sem == ISA_SEM_MOV && def->src[0].kind == ISA_OPND_REG &&
       (int)def->src[0].file == p->rc->cfile) {
      *o = def->src[0];
      o->flags = flags;
      return 0;
   }
   if (def && def->sem == ISA_SEM_MOV && def->src[0].kind == ISA_OPND_IMM && !flags &&
       (cmp->sem == ISA_SEM_ICMPSEL ? def->src[0].value < 256 : def->src[0].value == 0)) {
      *o = ref_imm(def->src[0].value);
      return 0;
   }
   unsigned live = 0;
   for (unsigned k = i + 1; k < j; k++)
      live += !p->dead[k];
   return !(r < p->homes_end || read_after(p, r, j) || live == 0);
}

/* Removes item i when what it writes (one scratch register) is read
 * nowhere any more, then the writers of its sources that this leaves
 * unread (a negated compare's chain). */
static void
remove_if_dead(struct cs *z, int i)
{
   struct agx_prog *p = z->p;
   const struct isa_insn *in = i >= 0 ? &p->rc->items[i].in : NULL;
   unsigned r, n;
   if (!in || p->dead[i] || in->ndst != 1 || !agx_opnd_regs(p, in, ISA_SLOT_DST(0), &r, &n) ||
       n != 1 || r < p->homes_end || agx_ends_region(p, (unsigned)i) ||
       read_elsewhere(z, r, (unsigned)i))
      return;
   struct isa_class_info ci;
   isa_class_info(p->m, in->cls, &ci);
   if (ci.sync != ISA_SYNC_NONE || !opt_transform(p->ctx, "cmpsel: %d removed (no read left)", i))
      return;
   p->dead[i] = true;
   item_changed(z, (unsigned)i, in);
   p->st->removed++;
   for (unsigned k = 0; k < in->nsrc; k++)
      if (agx_opnd_regs(p, in, ISA_SLOT_SRC(k), &r, &n) && n == 1 &&
          (int)in->src[k].file == p->rc->gpr)
         remove_if_dead(z, def_before(p, (unsigned)i, r));
}

/* The compare's sources as instruction j would read them: false when one
 * changed since the compare (unless the stale-source fault fires) or
 * when reading them at j costs registers (counted as a boolean kept). */
static bool
sources_at(struct cs *z, int i, unsigned j, unsigned t, struct isa_opnd *a, struct isa_opnd *b)
{
   struct agx_prog *p = z->p;
   /* the register pressure choice: reading the sources at j may keep
    * them live longer; the boolean t frees its register when j is its
    * last read */
   unsigned cost = source_at(z, (unsigned)i, j, 0, a) + source_at(z, (unsigned)i, j, 1, b);
   unsigned freed = t >= p->homes_end && !read_after(p, t, j) ? 1 : 0;
   /* a source register still read at j must hold what the compare read */
   for (unsigned s = 0; s < 2; s++) {
      const struct isa_opnd *o = s ? b : a;
      if (o->kind == ISA_OPND_REG && (int)o->file == p->rc->gpr &&
          written_between(p, o->index, (unsigned)i, j) &&
          !opt_fault_fires(p->ctx, OPT_FAULT_CMPSEL_STALE,
                           "compare %d recomputed at %u after r%u changed", i, j, o->index))
         return false;
   }
   if (cost > freed) {
      p->st->kept++;
      return false;
   }
   return true;
}

/* The ordered condition opposite to float condition cc of modifier mod
 * (lt <-> ge, gt <-> le), or -1: what inverting a float compare must NOT
 * give (false on NaN both ways); the fault's stand-in for the unordered
 * inverse. */
static int
ordered_not(const struct cs *z, int mod, int cc)
{
   static const char *const pairs[][2] = {{"lt", "ge"}, {"ge", "lt"}, {"gt", "le"}, {"le", "gt"}};
   const struct isa_model *m = z->p->m;
   for (unsigned k = 0; k < ARRAY_SIZE(pairs); k++)
      if (isa_mod_value(m, (unsigned)mod, pairs[k][0]) == cc)
         return isa_mod_value(m, (unsigned)mod, pairs[k][1]);
   return -1;
}

/* Fuses the select at j with its compare, if it can and should. */
static bool
fuse(struct cs *z, unsigned j)
{
   struct agx_prog *p = z->p;
   struct ref_item *sel = &p->rc->items[j];
   unsigned t;
   struct boolean bv;
   struct isa_opnd a, b;
   if (!is_select(z, &sel->in, &t) || !bool_def(z, j, t, &bv, 0) ||
       !sources_at(z, bv.cmp, j, t, &a, &b))
      return false;
   int i = bv.cmp;
   bool inv = bv.x == 0; /* t != 0 when the condition fails */
   if (!opt_transform(p->ctx, "cmpsel: select %u fused with compare %d", j, i))
      return false;
   struct isa_insn f = p->rc->items[i].in;
   f.dst[0] = sel->in.dst[0];
   f.src[0] = a;
   f.src[1] = b;
   /* t != 0 picks src3 (x): the compare's condition, or its opposite */
   f.src[2] = inv ? sel->in.src[2] : sel->in.src[3];
   f.src[3] = inv ? sel->in.src[3] : sel->in.src[2];
   if (inv && opt_fault_fires(p->ctx, OPT_FAULT_CMPSEL_NOFLIP,
                              "select %u: compare sources swapped, not the arms", j)) {
      f.src[0] = b;
      f.src[1] = a;
      f.src[2] = sel->in.src[3];
      f.src[3] = sel->in.src[2];
   }
   bool fl = f.sem == ISA_SEM_FCMPSEL;
   int flip = fl && inv ? ordered_not(z, z->mod_cc, f.mod[z->mod_cc]) : -1;
   if (flip >= 0 &&
       opt_fault_fires(p->ctx, OPT_FAULT_CMPSEL_NAN_FLIP,
                       "select %u: compare %d inverted to an ordered condition", j, i)) {
      f.mod[z->mod_cc] = (int16_t)flip;
      f.src[2] = sel->in.src[3];
      f.src[3] = sel->in.src[2];
   }
   if (!fl && f.mod[z->mod_sign] == z->ssign &&
       opt_fault_fires(p->ctx, OPT_FAULT_CMPSEL_SIGN, "select %u: signed compare %d fused unsigned",
                       j, i))
      f.mod[z->mod_sign] = (int16_t)z->usign;
   struct isa_insn old = sel->in;
   sel->in = f;
   item_changed(z, j, &old);
   p->st->fused++;
   remove_if_dead(z, i);
   return true;
}

/* if_icmp.ne t, 0 on a boolean t: the compare's own condition (or its
 * inverse: the if ops have the invert bit cmpsel lacks) on its sources,
 * if_fcmp or if_icmp as the compare was. */
static bool
fuse_if(struct cs *z, unsigned k)
{
   struct agx_prog *p = z->p;
   struct ref_item *it = &p->rc->items[k];
   unsigned t, n;
   struct boolean bv;
   struct isa_opnd a, b;
   if (it->in.sem != ISA_SEM_EXEC_IF || it->in.mod[z->mod_iccn] != z->une ||
       it->in.mod[z->mod_sign] != z->usign || !is_imm(&it->in.src[1], 0) ||
       !agx_opnd_regs(p, &it->in, ISA_SLOT_SRC(0), &t, &n) || !bool_def(z, k, t, &bv, 0))
      return false;
   const struct isa_insn *cmp = &p->rc->items[bv.cmp].in;
   bool fl = cmp->sem == ISA_SEM_FCMPSEL, inv = bv.x == 0;
   int cc = cmp->mod[fl ? z->mod_cc : z->mod_icc];
   int ccn = cc | (inv ? (fl ? 8 : 4) : 0);
   if ((fl && (cc & 3) == 3 && inv) || !sources_at(z, bv.cmp, k, t, &a, &b) ||
       !opt_transform(p->ctx, "cmpsel: if %u tests compare %d", k, bv.cmp))
      return false;
   struct isa_insn f;
   isa_insn_init(p->m, (unsigned)(fl ? z->if_fcmp : z->if_icmp), &f);
   f.src[0] = a;
   f.src[1] = b;
   f.src[2] = it->in.src[2];
   int flip = fl && inv ? ordered_not(z, z->mod_ccn, cc) : -1;
   if (flip >= 0 &&
       opt_fault_fires(p->ctx, OPT_FAULT_CMPSEL_NAN_FLIP,
                       "if %u: compare %d inverted to an ordered condition", k, bv.cmp))
      ccn = flip;
   f.mod[fl ? z->mod_ccn : z->mod_iccn] = (int16_t)ccn;
   if (!fl)
      f.mod[z->mod_sign] = cmp->mod[z->mod_sign];
   if (!fl && f.mod[z->mod_sign] == z->ssign &&
       opt_fault_fires(p->ctx, OPT_FAULT_CMPSEL_SIGN, "if %u: signed compare %d fused unsigned", k,
                       bv.cmp))
      f.mod[z->mod_sign] = (int16_t)z->usign;
   int d = def_before(p, k, t);
   struct isa_insn old = it->in;
   it->in = f;
   item_changed(z, k, &old);
   remove_if_dead(z, d);
   remove_if_dead(z, bv.cmp);
   return true;
}

static bool
same_opnd(const struct isa_opnd *a, const struct isa_opnd *b)
{
   return a->kind == b->kind && a->file == b->file && a->index == b->index &&
          a->value == b->value && a->flags == b->flags;
}

/* The reference's fmin/fmax (ref_agx.c): m = fcmpsel.ltn a, b, a, b (gtn
 * for max), z = or a, b (and), d = fcmpsel.eq a, b, z, m, the last
 * ordering -0 below +0. With a known operand that is neither +-0 nor a
 * denormal, a == b means equal bits, z is m, and d is the first compare
 * alone. */
static bool
minmax(struct cs *z, unsigned j)
{
   struct agx_prog *p = z->p;
   struct isa_insn *in = &p->rc->items[j].in;
   if (in->sem != ISA_SEM_FCMPSEL || in->mod[z->mod_cc] != z->feq)
      return false;
   unsigned r[4], n;
   for (unsigned k = 0; k < 4; k++)
      if (!agx_opnd_regs(p, in, ISA_SLOT_SRC(k), &r[k], &n) || n != 1 || in->src[k].flags ||
          (int)in->src[k].file != p->rc->gpr)
         return false;
   int dz = def_before(p, j, r[2]), dm = def_before(p, j, r[3]);
   if (dz < 0 || dm < 0)
      return false;
   const struct isa_insn *iz = &p->rc->items[dz].in, *im = &p->rc->items[dm].in;
   bool max = im->mod[z->mod_cc] == isa_mod_value(p->m, (unsigned)z->mod_cc, "gtn");
   if (im->sem != ISA_SEM_FCMPSEL || iz->sem != (max ? ISA_SEM_AND : ISA_SEM_OR) ||
       (!max && im->mod[z->mod_cc] != isa_mod_value(p->m, (unsigned)z->mod_cc, "ltn")))
      return false;
   for (unsigned k = 0; k < 4; k++)
      if (!same_opnd(&im->src[k], &in->src[k & 1]) ||
          (k < 2 && !same_opnd(&iz->src[k], &in->src[k])) ||
          (k < 2 && written_between(p, r[k], (unsigned)MIN2(dz, dm), j)))
         return false;
   uint32_t v;
   bool safe = (const_at(p, j, &in->src[0], &v) && nonzero_as(true, v)) ||
               (const_at(p, j, &in->src[1], &v) && nonzero_as(true, v));
   struct isa_insn f = *im;
   if (!safe) {
      if (!opt_fault_fires(p->ctx, OPT_FAULT_FMINMAX_CMPSEL, "%s at %u as one ordered fcmpsel",
                           max ? "fmax" : "fmin", j))
         return false;
      f.mod[z->mod_cc] = (int16_t)isa_mod_value(p->m, (unsigned)z->mod_cc, max ? "gt" : "lt");
   } else if (!opt_transform(p->ctx,
                             "cmpsel: %s at %u: the signed-zero select dropped (a "
                             "nonzero constant operand)",
                             max ? "fmax" : "fmin", j)) {
      return false;
   }
   f.dst[0] = in->dst[0];
   struct isa_insn old = *in;
   *in = f;
   item_changed(z, j, &old);
   p->st->minmax++;
   remove_if_dead(z, dz);
   remove_if_dead(z, dm);
   return true;
}

bool
opt_agx_cmpsel(struct agx_prog *p)
{
   const struct isa_model *m = p->m;
   struct cs z = {.p = p,
                  .mod_cc = isa_mod_find(m, "cc"),
                  .mod_icc = isa_mod_find(m, "icc"),
                  .mod_sign = isa_mod_find(m, "isign"),
                  .mod_ccn = isa_mod_find(m, "ccn"),
                  .mod_iccn = isa_mod_find(m, "iccn"),
                  .if_fcmp = isa_op_find(m, "if_fcmp"),
                  .if_icmp = isa_op_find(m, "if_icmp"),
                  .u2f = isa_op_find(m, "u32_to_f")};
   if (z.mod_cc < 0 || z.mod_icc < 0 || z.mod_sign < 0 || z.mod_ccn < 0 || z.mod_iccn < 0 ||
       z.if_fcmp < 0 || z.if_icmp < 0)
      return false;
   z.ueq = isa_mod_value(m, (unsigned)z.mod_icc, "eq");
   z.une = isa_mod_value(m, (unsigned)z.mod_iccn, "ne");
   z.usign = isa_mod_value(m, (unsigned)z.mod_sign, "u");
   z.ssign = isa_mod_value(m, (unsigned)z.mod_sign, "s");
   z.feq = isa_mod_value(m, (unsigned)z.mod_cc, "eq");
   bool progress = false;
   index_items(&z);
   for (unsigned j = 0; j < p->rc->nitems && !p->ctx->limit_hit; j++)
      if (!p->dead[j])
         progress |= minmax(&z, j) || fuse(&z, j) || fuse_if(&z, j);
   index_free(&z);
   return progress;
}
