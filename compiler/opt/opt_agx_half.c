/*
 * 16-bit halves and their packing (agx, issue 18). The reference computes
 * everything in 32-bit registers; many of its scratch values fit in 16
 * bits: the 1/0 booleans of a compare kept live, shift counts masked to
 * 0..31, small constants. This pass
 *
 *   1. finds the scratch values it can move: one ALU write of one full
 *      register and the reads that see it, all in the write's region (the
 *      execution mask is the same for all of them), with no read elsewhere
 *      that may see the register (agx_read_elsewhere). A register is
 *      movable when every operand that touches it belongs to such a value;
 *      the others (memory data, address pairs, values live across regions)
 *      stay where they are;
 *   2. narrows a value to a half register (r4l) when its writer has a
 *      16-bit form giving the same bits (fcmpsel16/icmpsel16 with small
 *      immediate arms, mov_imm16, an AND with a mask below 0x8000) and
 *      every reader takes a 16-bit integer source that it zero-extends
 *      (a value below 0x8000 reads the same sign-extended);
 *   3. allocates the movable values again in program order, lowest
 *      register first: a full value takes a register with both halves
 *      free, a 16-bit value the free half of a register whose other half
 *      holds a live 16-bit value if there is one (two values packed in one
 *      register), else the low half of the lowest free register.
 *
 * A half write leaves the other half as it was (the model's 16-bit
 * forms), so two packed values never disturb each other; an instruction
 * writing the whole register must never be given a packed one.
 *
 * The conservative variant (stage half, conservative.c) places a value in
 * a full register with both halves free, written and read whole; an item
 * is a movable value, "#N" by its writer's index in the pass's input. As a
 * whole stage it places nothing again (opt_transform refuses).
 */
#include "compiler/opt/opt_agx.h"

#include <stdlib.h>

struct hval {
   unsigned def, last, reg; /* write item, last read item, original register */
   bool narrow;
   int to; /* new place: a half index (narrow) or a full register */
};

struct hp {
   struct agx_prog *p;
   struct hval *v;
   unsigned nv, cap;
   unsigned nreg;
   unsigned *uses, *covered; /* by full register: operands touching it, of values */
   bool *movable;
   bool packing;
   unsigned packed;       /* 16-bit values placed beside a live one */
   int exec_icmp[3];      /* if_icmp, else_icmp, while_icmp: integer tests */
   struct isa_insn *orig; /* the items before renaming */
   /* Built once before collect, so that finding a value costs the items
    * touching its register, not its region or the program: */
   unsigned *occ, *occ_at;    /* the items touching register r, in order: occ[occ_at[r]..] */
   unsigned *region_end;      /* by item: where its region ends */
   unsigned *exp_lo, *exp_hi; /* by register: first and last read that sees a value
                               * from outside its region (UINT_MAX: none) */
};

/* A full-file, single-register operand on reg. */
static bool
plain_on(const struct agx_prog *p, const struct isa_insn *in, int slot, unsigned reg)
{
   unsigned f, n;
   const struct isa_opnd *o = slot < ISA_MAX_DST ? &in->dst[slot] : &in->src[slot - ISA_MAX_DST];
   return agx_opnd_regs(p, in, slot, &f, &n) && (int)o->file == p->rc->gpr && n == 1 && f == reg;
}

static unsigned
count_src(const struct agx_prog *p, const struct isa_insn *in, unsigned reg, bool plain)
{
   unsigned c = 0;
   for (unsigned k = 0; k < in->nsrc; k++) {
      unsigned f, n;
      if (plain ? plain_on(p, in, ISA_SLOT_SRC(k), reg)
                : agx_opnd_regs(p, in, ISA_SLOT_SRC(k), &f, &n) && reg >= f && reg < f + n)
         c++;
   }
   return c;
}

/* Whether instruction in writes a value below 0x8000 that its 16-bit
 * form writes to a half with the same bits. */
static bool
narrow_writer(const struct agx_prog *p, const struct isa_insn *in)
{
   const struct isa_opnd *s = in->src;
   switch (in->sem) {
   case ISA_SEM_FCMPSEL:
   case ISA_SEM_ICMPSEL:
      return s[2].kind == ISA_OPND_IMM && s[3].kind == ISA_OPND_IMM && s[2].value < 0x80 &&
             s[3].value < 0x80 &&
             isa_op_find(p->m, in->sem == ISA_SEM_FCMPSEL ? "fcmpsel16" : "icmpsel16") >= 0;
   case ISA_SEM_MOV:
      return s[0].kind == ISA_OPND_IMM && s[0].value < 0x8000 &&
             isa_op_find(p->m, "mov_imm16") >= 0;
   case ISA_SEM_AND:
      return (s[0].kind == ISA_OPND_IMM && s[0].value < 0x8000) ||
             (s[1].kind == ISA_OPND_IMM && s[1].value < 0x8000);
   default:
      return false;
   }
}

/* Whether source k of in may read a 16-bit register holding a value below
 * 0x8000 as it read the full one: integer sources that widen it. */
static bool
narrow_reader(const struct hp *h, const struct isa_insn *in, unsigned k)
{
   if (in->src[k].flags)
      return false;
   switch (in->sem) {
   case ISA_SEM_EXEC_IF:
   case ISA_SEM_EXEC_ELSE:
   case ISA_SEM_EXEC_WHILE:
      return k < 2 && ((int)in->op == h->exec_icmp[0] || (int)in->op == h->exec_icmp[1] ||
                       (int)in->op == h->exec_icmp[2]);
   case ISA_SEM_ICMPSEL:
   case ISA_SEM_AND:
   case ISA_SEM_OR:
   case ISA_SEM_XOR:
   case ISA_SEM_IADD:
   case ISA_SEM_ISUB:
      return k < 2;
   case ISA_SEM_SHL_CLAMP:
   case ISA_SEM_SHR_CLAMP:
      return k < 2;
   default:
      return false;
   }
}

/* The full registers (below nreg) operand `slot` of in touches. */
static bool
opnd_span(const struct hp *h, const struct isa_insn *in, unsigned s, unsigned *f, unsigned *e)
{
   int slot = s < in->ndst ? ISA_SLOT_DST(s) : ISA_SLOT_SRC(s - in->ndst);
   unsigned n;
   if (!agx_opnd_regs(h->p, in, slot, f, &n))
      return false;
   *e = MIN2(*f + n, h->nreg);
   return *f < *e;
}

/* Each item once in the list of every register it touches. */
static void
index_regs(struct hp *h)
{
   const struct ref_ctx *c = h->p->rc;
   unsigned *last = xmalloc((h->nreg + 1) * sizeof(unsigned)), total = 0;
   h->occ_at = xcalloc(h->nreg + 2, sizeof(unsigned));
   for (int pass = 0; pass < 2; pass++) {
      for (unsigned r = 0; r <= h->nreg; r++)
         last[r] = UINT32_MAX;
      for (unsigned i = 0; i < c->nitems; i++) {
         const struct isa_insn *in = &c->items[i].in;
         for (unsigned s = 0; s < in->ndst + in->nsrc; s++) {
            unsigned f, e;
            if (!opnd_span(h, in, s, &f, &e))
               continue;
            for (unsigned r = f; r < e; r++)
               if (last[r] != i) {
                  last[r] = i;
                  if (pass)
                     h->occ[h->occ_at[r + 1]++] = i;
                  else
                     h->occ_at[r + 2]++;
               }
         }
      }
      if (!pass) {
         for (unsigned r = 0; r < h->nreg; r++)
            h->occ_at[r + 2] += h->occ_at[r + 1];
         total = h->occ_at[h->nreg + 1];
         h->occ = xmalloc((total + 1) * sizeof(unsigned));
      }
   }
   free(last);
   h->region_end = xmalloc((c->nitems + 1) * sizeof(unsigned));
   for (unsigned k = c->nitems, next = c->nitems; k-- > 0;) {
      h->region_end[k] = next;
      if (h->p->start[k])
         next = k;
   }
}

/* Per register, the reads agx_read_elsewhere counts for any value: a live
 * read with no live write before it in its region. */
static void
index_exposed(struct hp *h)
{
   const struct agx_prog *p = h->p;
   h->exp_lo = xmalloc((h->nreg + 1) * sizeof(unsigned));
   h->exp_hi = xmalloc((h->nreg + 1) * sizeof(unsigned));
   for (unsigned r = 0; r < h->nreg; r++) {
      h->exp_lo[r] = h->exp_hi[r] = UINT32_MAX;
      bool wrote = false;
      unsigned region = UINT32_MAX;
      for (unsigned j = h->occ_at[r]; j < h->occ_at[r + 1]; j++) {
         unsigned k = h->occ[j];
         const struct isa_insn *in = &p->rc->items[k].in;
         if (h->region_end[k] != region)
            wrote = false;
         region = h->region_end[k];
         if (p->dead[k])
            continue;
         if (!wrote && agx_reads(p, in, r)) {
            h->exp_lo[r] = MIN2(h->exp_lo[r], k);
            h->exp_hi[r] = k;
         }
         if (agx_writes(p, in, r))
            wrote = true;
      }
   }
}

/* Where item i is in reg's list (it touches reg). */
static unsigned
occ_pos(const struct hp *h, unsigned reg, unsigned i)
{
   unsigned lo = h->occ_at[reg], hi = h->occ_at[reg + 1];
   while (lo < hi) {
      unsigned mid = lo + (hi - lo) / 2;
      if (h->occ[mid] < i)
         lo = mid + 1;
      else
         hi = mid;
   }
   return lo;
}

/* agx_read_elsewhere(p, reg, from, to) for a value written at `from` whose
 * reads end before `to` in its region: outside that region, and in it
 * before `from`, the reads that count are the exposed ones; after `to`,
 * a live read before the next live write. */
static bool
read_elsewhere(const struct hp *h, unsigned reg, unsigned from, unsigned to)
{
   const struct agx_prog *p = h->p;
   unsigned end = h->region_end[from];
   if (h->exp_lo[reg] != UINT32_MAX && (h->exp_lo[reg] < from || h->exp_hi[reg] >= end))
      return true;
   for (unsigned j = occ_pos(h, reg, from) + 1; j < h->occ_at[reg + 1]; j++) {
      unsigned k = h->occ[j];
      const struct isa_insn *in = &p->rc->items[k].in;
      if (k >= end)
         break;
      if (p->dead[k])
         continue;
      if (k >= to && agx_reads(p, in, reg))
         return true;
      if (agx_writes(p, in, reg))
         break;
   }
   return false;
}

/* The value written at item i to reg: its reads in the region, until the
 * next write. False when it is not movable. */
static bool
find_value(struct hp *h, unsigned i, unsigned reg, struct hval *v)
{
   struct agx_prog *p = h->p;
   const struct ref_item *it = p->rc->items;
   struct isa_class_info ci;
   isa_class_info(p->m, it[i].in.cls, &ci);
   if (ci.sync != ISA_SYNC_NONE || ci.flow || it[i].in.ndst != 1)
      return false;
   *v = (struct hval){.def = i, .last = i, .reg = reg, .narrow = narrow_writer(p, &it[i].in)};
   unsigned reads = 0, end = h->region_end[i];
   for (unsigned j = occ_pos(h, reg, i) + 1; j < h->occ_at[reg + 1] && h->occ[j] < end; j++) {
      unsigned k = h->occ[j];
      unsigned c = count_src(p, &it[k].in, reg, false);
      if (c) {
         if (count_src(p, &it[k].in, reg, true) != c)
            return false;
         reads += c;
         v->last = k;
         for (unsigned s = 0; s < it[k].in.nsrc; s++)
            if (plain_on(p, &it[k].in, ISA_SLOT_SRC(s), reg) && !narrow_reader(h, &it[k].in, s))
               v->narrow = false;
      }
      if (agx_writes(p, &it[k].in, reg))
         break;
   }
   if (read_elsewhere(h, reg, i, v->last + 1))
      return false;
   h->covered[reg] += 1 + reads;
   return true;
}

static void
collect(struct hp *h)
{
   struct agx_prog *p = h->p;
   for (unsigned i = 0; i < p->rc->nitems; i++) {
      const struct isa_insn *in = &p->rc->items[i].in;
      for (unsigned s = 0; s < in->ndst + in->nsrc; s++) {
         int slot = s < in->ndst ? ISA_SLOT_DST(s) : ISA_SLOT_SRC(s - in->ndst);
         unsigned f, n;
         if (agx_opnd_regs(p, in, slot, &f, &n))
            for (unsigned r = f; r < f + n && r < h->nreg; r++)
               h->uses[r]++;
      }
      /* plain_on(DST(0), r) holds for at most one r: the operand's */
      unsigned r, n;
      struct hval v;
      if (!in->ndst || !agx_opnd_regs(p, in, ISA_SLOT_DST(0), &r, &n) ||
          (int)in->dst[0].file != p->rc->gpr || n != 1 || r < p->homes_end)
         r = h->nreg;
      if (r < h->nreg && find_value(h, i, r, &v))
         VEC_PUSH(h->v, h->nv, h->cap, v);
   }
   for (unsigned r = p->homes_end; r < h->nreg; r++)
      h->movable[r] = h->uses[r] && h->uses[r] == h->covered[r];
}

/* The half a 16-bit value takes at item `at`: beside a live 16-bit value
 * if one has a free sibling (packing), else the lowest free register's low
 * half; a full value the lowest register with both halves free. */
static int
pick(const struct hp *h, const unsigned *busy, const bool *half16, unsigned at, bool narrow)
{
   unsigned lo = h->p->homes_end, hi = h->nreg;
   if (narrow && h->packing)
      for (unsigned r = lo; r < hi; r++)
         for (unsigned k = 0; k < 2; k++)
            if (busy[2 * r + k] <= at && busy[2 * r + (k ^ 1)] > at && half16[2 * r + (k ^ 1)])
               return (int)(2 * r + k);
   for (unsigned r = lo; r < hi; r++)
      if (busy[2 * r] <= at && busy[2 * r + 1] <= at)
         return narrow ? (int)(2 * r) : (int)r;
   return -1;
}

/* Assigns every movable value a place; false if some value finds none. */
static bool
allocate(struct hp *h)
{
   struct agx_prog *p = h->p;
   unsigned *busy = xcalloc(2 * h->nreg, sizeof(unsigned));
   bool *half16 = xcalloc(2 * h->nreg, sizeof(bool));
   bool ok = true;
   /* registers that are not movable keep their values: never free */
   for (unsigned r = 0; r < h->nreg; r++)
      if (r < p->homes_end || !h->movable[r])
         busy[2 * r] = busy[2 * r + 1] = r < p->homes_end || h->uses[r] ? UINT32_MAX : 0;
   for (unsigned k = 0; k < h->nv && ok; k++) {
      struct hval *v = &h->v[k];
      if (!h->movable[v->reg])
         continue;
      unsigned end = MAX2(v->last, v->def + 1);
      const struct ref_item *it = &p->rc->items[v->def];
      bool whole =
          opt_conservative(p->ctx, OPT_STAGE_HALF,
                           it->tgsi >= 0 ? p->rc->s->insns[it->tgsi].loc.line : 0, "#%u", v->def);
      if (whole)
         v->narrow = false;
      bool narrow = v->narrow && h->packing;
      /* the fault: a full value placed as if it used one half */
      bool as_half = !narrow && !whole && v->def + 1 < v->last &&
                     opt_fault_fires(p->ctx, OPT_FAULT_AGX_PACK_FULL,
                                     "#%u: a 32-bit value packed beside a live half", v->def);
      int to = pick(h, busy, half16, v->def, narrow || as_half);
      if (to < 0) {
         ok = false;
         break;
      }
      if (as_half) {
         busy[to] = end;
         half16[to] = true;
         v->to = to / 2;
         continue;
      }
      v->to = to;
      if (narrow && busy[to ^ 1] > v->def)
         h->packed++;
      unsigned a = narrow ? (unsigned)to : 2u * (unsigned)to, n = narrow ? 1 : 2;
      for (unsigned s = a; s < a + n; s++) {
         busy[s] = end;
         half16[s] = narrow;
      }
   }
   free(busy);
   free(half16);
   return ok;
}

static void
narrow_op(struct agx_prog *p, struct isa_insn *in)
{
   const char *name = in->sem == ISA_SEM_FCMPSEL   ? "fcmpsel16"
                      : in->sem == ISA_SEM_ICMPSEL ? "icmpsel16"
                      : in->sem == ISA_SEM_MOV     ? "mov_imm16"
                                                   : NULL;
   if (!name)
      return;
   struct isa_insn f;
   isa_insn_init(p->m, (unsigned)isa_op_find(p->m, name), &f);
   memcpy(f.mod, in->mod, sizeof(f.mod));
   for (unsigned k = 0; k < f.nsrc && k < in->nsrc; k++)
      f.src[k] = in->src[k];
   f.dst[0] = in->dst[0];
   *in = f;
}

/* Rewrites value v's writer and readers to its new place. */
static void
rename_value(struct hp *h, const struct hval *v)
{
   struct agx_prog *p = h->p;
   bool narrow = v->narrow && h->packing;
   struct isa_opnd to = {.kind = ISA_OPND_REG,
                         .file = (uint8_t)(narrow ? p->half_file : p->rc->gpr),
                         .index = (uint16_t)v->to};
   for (unsigned k = v->def + 1; k <= v->last; k++) {
      struct isa_insn *in = &p->rc->items[k].in;
      for (unsigned s = 0; s < in->nsrc; s++)
         if (plain_on(p, &h->orig[k], ISA_SLOT_SRC(s), v->reg)) {
            uint8_t fl = in->src[s].flags;
            in->src[s] = to;
            in->src[s].flags = fl;
         }
   }
   struct isa_insn *d = &p->rc->items[v->def].in;
   if (narrow && !opt_fault_fires(p->ctx, OPT_FAULT_AGX_HALF_CLOBBER,
                                  "#%u: the 16-bit value written with its 32-bit form", v->def)) {
      narrow_op(p, d);
      d->dst[0] = to;
      return;
   }
   d->dst[0] = (struct isa_opnd){.kind = ISA_OPND_REG,
                                 .file = (uint8_t)p->rc->gpr,
                                 .index = (uint16_t)(narrow ? v->to / 2 : v->to)};
}

/* The highest full register any operand touches, plus one. */
static unsigned
regs_used(const struct agx_prog *p)
{
   unsigned top = p->homes_end;
   for (unsigned i = 0; i < p->rc->nitems; i++) {
      const struct isa_insn *in = &p->rc->items[i].in;
      for (unsigned s = 0; s < in->ndst + in->nsrc; s++) {
         unsigned f, n;
         if (agx_opnd_regs(p, in, s < in->ndst ? ISA_SLOT_DST(s) : ISA_SLOT_SRC(s - in->ndst), &f,
                           &n))
            top = MAX2(top, f + n);
      }
   }
   return top;
}

bool
opt_agx_half(struct agx_prog *p, bool packing)
{
   struct ref_ctx *c = p->rc;
   struct hp h = {.p = p, .nreg = c->max_reg, .packing = packing && p->half_file >= 0};
   h.uses = xcalloc(h.nreg + 1, sizeof(unsigned));
   h.covered = xcalloc(h.nreg + 1, sizeof(unsigned));
   h.movable = xcalloc(h.nreg + 1, sizeof(bool));
   static const char *const tests[3] = {"if_icmp", "else_icmp", "while_icmp"};
   for (unsigned k = 0; k < 3; k++)
      h.exec_icmp[k] = isa_op_find(p->m, tests[k]);
   index_regs(&h);
   index_exposed(&h);
   collect(&h);
   bool progress = false;
   /* the one transformation comes first: a fault firing inside the
    * allocation is then the last change before the miscompile */
   if (opt_transform(p->ctx, "half: %u values placed again%s", h.nv,
                     h.packing ? ", 16-bit ones in halves" : "") &&
       allocate(&h)) {
      h.orig = xmalloc((c->nitems + 1) * sizeof(struct isa_insn));
      for (unsigned i = 0; i < c->nitems; i++)
         h.orig[i] = c->items[i].in;
      for (unsigned k = 0; k < h.nv; k++)
         if (h.movable[h.v[k].reg]) {
            rename_value(&h, &h.v[k]);
            p->st->narrowed += h.v[k].narrow && h.packing;
         }
      p->st->packed += h.packed;
      unsigned top = regs_used(p);
      if (top < c->max_reg)
         c->max_reg = top;
      progress = true;
   }
   free(h.orig);
   free(h.v);
   free(h.uses);
   free(h.covered);
   free(h.movable);
   free(h.occ);
   free(h.occ_at);
   free(h.region_end);
   free(h.exp_lo);
   free(h.exp_hi);
   return progress;
}
