/*
 * The lanes pass (agx): two rewrites of the reference's SIMD-group
 * sequences (compiler/ref/ref_agx.c), each an opt_transform.
 *
 * Fine derivatives. The reference reads the neighbour k lanes on
 * (simd_shuffle_down) for the quad lanes whose bit k is clear and k
 * lanes back (simd_shuffle_up) for the others, then selects by that
 * bit. For both kinds of lane that neighbour is lane ^ k, so one
 * simd_shuffle_xor by k replaces the two shuffles (k an immediate: the
 * shuffle's quad rule reads it in every lane).
 *
 *   simd_shuffle_down a, v, k        simd_shuffle_xor a, v, k
 *   simd_shuffle_up   b, v, k   ->
 *   fadd d0, a, -v                   fadd d0, a, -v
 *   fadd d1, v, -b                   fadd d1, v, -a
 *   icmpsel.ueq r, p, 0, d0, d1      icmpsel.ueq r, p, 0, d0, d1
 *
 * Votes. VOTE_ALL and VOTE_EQ compare the ballot of the lanes where the
 * condition holds with the ballot of every active lane; "no active lane
 * fails" is the same test without the second ballot:
 *
 *   icmp_ballot.ucc b, x, y          icmp_ballot.u(!cc) b, x, y
 *   icmp_ballot.ueq m, 0, 0     ->
 *   icmpsel.ueq r, b, m, ~0, 0       icmpsel.ueq r, b, 0, ~0, 0
 *
 * Invariants: the sequences are the reference's, adjacent in one region;
 * a (whose value changes in half the lanes), b and m (gone) and the
 * ballot b (inverted) are read nowhere else, and a is not written between
 * its shuffle and the second fadd.
 */
#include "compiler/opt/opt_agx.h"

struct lanes {
   struct agx_prog *p;
   int down, up, xor, ballot, icmpsel, fadd, mod_iccn, eq, ne, mod_icc, icc_eq, mod_sign, usign;
};

static const struct isa_insn *
item(const struct lanes *z, unsigned i)
{
   return &z->p->rc->items[i].in;
}

/* Whether items i .. i + n - 1 exist, are live and share one region. */
static bool
run_of(const struct lanes *z, unsigned i, unsigned n)
{
   const struct agx_prog *p = z->p;
   if (i + n > p->rc->nitems)
      return false;
   for (unsigned k = i; k < i + n; k++)
      if (p->dead[k] || (k > i && p->start[k]))
         return false;
   return true;
}

static bool
is_reg(const struct isa_opnd *o)
{
   return o->kind == ISA_OPND_REG;
}

static bool
same_opnd(const struct isa_opnd *a, const struct isa_opnd *b)
{
   return a->kind == b->kind && a->file == b->file && a->index == b->index &&
          a->value == b->value && a->flags == b->flags;
}

static bool
is_imm(const struct isa_opnd *o, uint32_t v)
{
   return o->kind == ISA_OPND_IMM && o->value == v;
}

/* The derivative sequence at i, rewritten. */
static bool
deriv(struct lanes *z, unsigned i)
{
   struct agx_prog *p = z->p;
   if (!run_of(z, i, 5))
      return false;
   const struct isa_insn *dn = item(z, i), *up = item(z, i + 1), *f0 = item(z, i + 2),
                         *f1 = item(z, i + 3), *sel = item(z, i + 4);
   if (dn->op != z->down || up->op != z->up || f0->op != z->fadd || f1->op != z->fadd ||
       sel->op != z->icmpsel || !is_reg(&dn->dst[0]) || !is_reg(&up->dst[0]) ||
       !same_opnd(&dn->src[0], &up->src[0]) || dn->src[1].kind != ISA_OPND_IMM ||
       !same_opnd(&dn->src[1], &up->src[1]) || !is_reg(&f1->src[1]) ||
       f1->src[1].index != up->dst[0].index || f1->src[1].file != up->dst[0].file)
      return false;
   unsigned a, b, n;
   if (!agx_opnd_regs(p, dn, ISA_SLOT_DST(0), &a, &n) ||
       !agx_opnd_regs(p, up, ISA_SLOT_DST(0), &b, &n) || a == b || agx_writes(p, up, a) ||
       agx_writes(p, f0, a) || agx_read_elsewhere(p, b, i + 1, i + 4) ||
       agx_read_elsewhere(p, a, i, i + 4))
      return false;
   if (!opt_transform(p->ctx, "lanes: derivative %u as simd_shuffle_xor", i))
      return false;
   struct isa_insn x;
   isa_insn_init(p->m, (unsigned)z->xor, &x);
   x.dst[0] = dn->dst[0];
   x.src[0] = dn->src[0];
   x.src[1] = dn->src[1];
   uint32_t k = dn->src[1].value;
   if (opt_fault_fires(p->ctx, OPT_FAULT_AGX_DERIV_XOR, "derivative %u: xor %u", i, k ^ 3u))
      x.src[1].value = k ^ 3u; /* across for down, down for across */
   p->rc->items[i].in = x;
   uint8_t flags = f1->src[1].flags;
   p->rc->items[i + 3].in.src[1] = dn->dst[0];
   p->rc->items[i + 3].in.src[1].flags = flags;
   p->dead[i + 1] = true;
   return true;
}

/* The vote sequence at i, rewritten. */
static bool
vote(struct lanes *z, unsigned i)
{
   struct agx_prog *p = z->p;
   if (!run_of(z, i, 3))
      return false;
   const struct isa_insn *bt = item(z, i), *all = item(z, i + 1), *sel = item(z, i + 2);
   if (bt->op != z->ballot || all->op != z->ballot || sel->op != z->icmpsel ||
       all->mod[z->mod_iccn] != z->eq || !is_imm(&all->src[0], 0) || !is_imm(&all->src[1], 0) ||
       sel->mod[z->mod_icc] != z->icc_eq || sel->mod[z->mod_sign] != z->usign ||
       bt->mod[z->mod_sign] != z->usign || !same_opnd(&sel->src[0], &bt->dst[0]) ||
       !same_opnd(&sel->src[1], &all->dst[0]) || !is_imm(&sel->src[3], 0) ||
       (bt->mod[z->mod_iccn] != z->eq && bt->mod[z->mod_iccn] != z->ne))
      return false;
   unsigned m, bb, n;
   if (!agx_opnd_regs(p, all, ISA_SLOT_DST(0), &m, &n) ||
       !agx_opnd_regs(p, bt, ISA_SLOT_DST(0), &bb, &n) || agx_read_elsewhere(p, m, i + 1, i + 3) ||
       agx_read_elsewhere(p, bb, i, i + 3))
      return false;
   if (!opt_transform(p->ctx, "lanes: vote %u without the active-lane ballot", i))
      return false;
   struct isa_insn *b = &p->rc->items[i].in, *s = &p->rc->items[i + 2].in;
   if (opt_fault_fires(p->ctx, OPT_FAULT_AGX_BALLOT_EXEC,
                       "vote %u: the ballot compared with every lane", i)) {
      s->src[1] = s->src[2]; /* ~0: as if all 32 lanes were active */
   } else {
      b->mod[z->mod_iccn] = (int16_t)(b->mod[z->mod_iccn] == z->eq ? z->ne : z->eq);
      s->src[1] = s->src[3]; /* 0 */
   }
   p->dead[i + 1] = true;
   return true;
}

bool
opt_agx_lanes(struct agx_prog *p)
{
   const struct isa_model *m = p->m;
   struct lanes z = {.p = p,
                     .down = isa_op_find(m, "simd_shuffle_down"),
                     .up = isa_op_find(m, "simd_shuffle_up"),
                     .xor = isa_op_find(m, "simd_shuffle_xor"),
                     .ballot = isa_op_find(m, "icmp_ballot"),
                     .icmpsel = isa_op_find(m, "icmpsel"),
                     .fadd = isa_op_find(m, "fadd"),
                     .mod_iccn = isa_mod_find(m, "iccn"),
                     .mod_icc = isa_mod_find(m, "icc"),
                     .mod_sign = isa_mod_find(m, "isign")};
   if (z.down < 0 || z.up < 0 || z.xor < 0 || z.ballot < 0 || z.icmpsel < 0 || z.fadd < 0 ||
       z.mod_iccn < 0 || z.mod_icc < 0 || z.mod_sign < 0)
      return false;
   z.icc_eq = isa_mod_value(m, (unsigned)z.mod_icc, "eq");
   z.usign = isa_mod_value(m, (unsigned)z.mod_sign, "u");
   z.eq = isa_mod_value(m, (unsigned)z.mod_iccn, "eq");
   z.ne = isa_mod_value(m, (unsigned)z.mod_iccn, "ne");
   bool progress = false;
   for (unsigned i = 0; i < p->rc->nitems && p->rc->status == COMPILE_OK; i++) {
      if (p->dead[i])
         continue;
      if (deriv(&z, i)) {
         p->st->lanes_deriv++;
         progress = true;
      } else if (vote(&z, i)) {
         p->st->lanes_vote++;
         progress = true;
      }
   }
   return progress;
}
