/*
 * The facts checker: an op's declared facts must hold for its semantics.
 * The legalizer and the scheduler swap the sources of an op the model
 * calls commutative, and flip its compare condition (`flip:`, the enum's
 * flip partners) when they do; the emulator and the constant folder run
 * the op's semantics (sem.h). If the two disagree on any input, the swap
 * changes what the program computes and the model contradicts itself (a
 * max that picks its first operand for +0/-0 and is also "commutative").
 *
 * So every declared swap is tried on a table of special values (signed
 * zeros, infinities, NaNs, denormals, +-1, the integer extremes, shift
 * counts around 32) for every pair of the swapped sources, the other
 * sources from a shorter table, and every flippable condition: the
 * results must be the same bits (NaN results are canonical in sem.h). A
 * flip partner must also flip back. Runs after the model is otherwise
 * valid (it needs the resolved modifier values); errors point at the op.
 */
#include "isa/isa_priv.h"
#include "isa/sem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t special[] = {
    0x00000000u, 0x80000000u, /* +0, -0 (also INT_MIN) */
    0x3f800000u, 0xbf800000u, /* +-1.0 */
    0x3f000000u, 0xc0490fdbu, /* 0.5, -pi */
    0x7f800000u, 0xff800000u, /* +-inf */
    0x7fc00000u, 0xffc00001u, /* NaNs */
    0x00000001u, 0x807fffffu, /* denormals (also the integer 1) */
    0x00800000u, 0x7f7fffffu, /* smallest normal, largest float */
    0x7fffffffu, 0x80000001u, /* INT_MAX, INT_MIN + 1 */
    0xffffffffu, 0x00000002u, /* -1, 2 */
    0x0000001fu, 0x00000020u, /* shift counts 31, 32 */
    0x00000021u, 0x0000ffffu, /* 33, 16-bit halves */
    0x00010000u, 0x00ffffffu, /* 24-bit operands */
    0x01000000u, 0x4b800000u, /* 2^24 as float */
};

/* Values of the sources that are not swapped. */
static const uint32_t other[] = {0x00000000u, 0x3f800000u, 0x7fc00000u, 0xffffffffu};

#define NSPECIAL ARRAY_SIZE(special)
#define NOTHER   ARRAY_SIZE(other)

/* One evaluation; false if the semantics is not a pure lane function. */
static bool
eval(const struct isa_model *m, const struct isa_insn *in, const uint32_t *src, uint32_t *dst)
{
   struct sem_args a;
   sem_args_of(m, in, &a);
   memset(dst, 0, ISA_MAX_DST * sizeof(*dst));
   return sem_eval((enum isa_sem)in->sem, &a, src, dst);
}

/* Tries the swap of sources i and j, with the condition value cv (or
 * none) becoming fv, on every input; reports the first input it fails. */
static bool
check_swap(struct isa_model *m, const struct isa_op *op, unsigned opi, unsigned i, unsigned j,
           int cv, int fv)
{
   struct isa_insn x, y;
   isa_insn_init(m, opi, &x);
   isa_insn_init(m, opi, &y);
   if (op->flip_mod >= 0) {
      x.mod[op->flip_mod] = (int16_t)cv;
      y.mod[op->flip_mod] = (int16_t)fv;
   }
   unsigned nrest = 1;
   for (unsigned s = 0; s < op->nsrc; s++)
      if (s != i && s != j)
         nrest *= NOTHER;
   for (unsigned r = 0; r < nrest; r++)
      for (unsigned p = 0; p < NSPECIAL * NSPECIAL; p++) {
         uint32_t src[ISA_MAX_SRC] = {0}, swp[ISA_MAX_SRC], d1[ISA_MAX_DST], d2[ISA_MAX_DST];
         for (unsigned s = 0, k = r; s < op->nsrc; s++)
            if (s != i && s != j) {
               src[s] = other[k % NOTHER];
               k /= NOTHER;
            }
         src[i] = special[p / NSPECIAL];
         src[j] = special[p % NSPECIAL];
         memcpy(swp, src, sizeof(swp));
         swp[i] = src[j];
         swp[j] = src[i];
         if (!eval(m, &x, src, d1) || !eval(m, &y, swp, d2))
            return true; /* not a lane function: nothing to check */
         for (unsigned d = 0; d < op->ndst && d < ISA_MAX_DST; d++) {
            if (d1[d] == d2[d])
               continue;
            char how[96] = "";
            if (op->flip_mod >= 0)
               snprintf(how, sizeof(how), " (flipping %s to %s)",
                        isa_mod_value_name(m, (unsigned)op->flip_mod, cv),
                        isa_mod_value_name(m, (unsigned)op->flip_mod, fv));
            isa_error_at(m, op->pos,
                         "op '%s': declared commutative%s but its semantics '%s' gives "
                         "0x%08x for (0x%08x, 0x%08x) and 0x%08x for them swapped",
                         op->key, how, isa_sem_name((enum isa_sem)op->sem), d1[d], src[i], src[j],
                         d2[d]);
            return false;
         }
      }
   return true;
}

static bool
check_flips(struct isa_model *m, const struct isa_op *op)
{
   const struct isa_enum *e = &m->enums[m->mods[op->flip_mod].enm];
   bool ok = true;
   for (unsigned k = 0; k < e->n; k++) {
      int f = e->v[k].flip;
      if (f >= 0 && e->v[f].flip != (int)k) {
         isa_error_at(m, e->v[k].pos, "enum '%s': '%s' flips to '%s', which does not flip back",
                      e->name, e->v[k].name, e->v[f].name);
         ok = false;
      }
   }
   return ok;
}

/* What decides an op's check: ops sharing it (the register, constant and
 * immediate forms of one sm50 instruction) are checked once. */
struct fact_key {
   int sem, flip_enum;
   unsigned i, j;
   struct sem_args args;
};

static struct fact_key
key_of(const struct isa_model *m, const struct isa_op *op, unsigned opi, unsigned i, unsigned j)
{
   struct fact_key k;
   memset(&k, 0, sizeof(k));
   struct isa_insn in;
   isa_insn_init(m, opi, &in);
   k.sem = op->sem;
   k.flip_enum = op->flip_mod >= 0 ? m->mods[op->flip_mod].enm : -1;
   k.i = i;
   k.j = j;
   sem_args_of(m, &in, &k.args);
   return k;
}

bool
isa_check_facts(struct isa_model *m)
{
   bool ok = true;
   struct fact_key *seen = xcalloc(m->nops ? m->nops : 1, sizeof(*seen));
   unsigned nseen = 0;
   for (unsigned o = 0; o < m->nops; o++) {
      const struct isa_op *op = &m->ops[o];
      if (op->commute[0] < 0 || op->sem < 0)
         continue;
      unsigned i = (unsigned)op->commute[0] - op->ndst, j = (unsigned)op->commute[1] - op->ndst;
      if (i >= op->nsrc || j >= op->nsrc || op->nsrc > ISA_MAX_SRC)
         continue;
      struct fact_key k = key_of(m, op, o, i, j);
      bool dup = false;
      for (unsigned s = 0; s < nseen && !dup; s++)
         dup = seen[s].sem == k.sem && seen[s].flip_enum == k.flip_enum && seen[s].i == i &&
               seen[s].j == j && !memcmp(&seen[s].args, &k.args, sizeof(k.args));
      if (dup)
         continue;
      seen[nseen++] = k;
      if (op->flip_mod < 0) {
         ok &= check_swap(m, op, o, i, j, 0, 0);
         continue;
      }
      if (!check_flips(m, op)) {
         ok = false;
         continue;
      }
      const struct isa_enum *e = &m->enums[m->mods[op->flip_mod].enm];
      for (unsigned v = 0; v < e->n; v++) {
         int f = e->v[v].flip;
         if (f < 0)
            continue; /* this condition cannot be swapped (num/nan on sm50) */
         if (!check_swap(m, op, o, i, j, e->v[v].value, e->v[f].value)) {
            ok = false;
            break;
         }
      }
   }
   free(seen);
   return ok;
}
