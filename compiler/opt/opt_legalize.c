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
#include "compiler/opt/opt_agx.h"

#include <stdio.h>
#include <stdlib.h>

/* The legalization paths, as coverage points (check --coverage). */
#define LGZ_PATHS(X)                                                                               \
   X(ZERO, "zero as the zero register")                                                            \
   X(INLINE, "immediate inline")                                                                   \
   X(CONST, "immediate in the constant file")                                                      \
   X(SWAP_PRE, "sources swapped before RA")                                                        \
   X(COPY_PRE, "operand copied before RA")                                                         \
   X(SWAP_POST, "sources swapped after RA")                                                        \
   X(COPY_POST, "operand copied after RA (scratch register)")
#define LGZ_ENUM_(e, text) LGZ_PATH_##e,
enum lgz_path { LGZ_PATHS(LGZ_ENUM_) LGZ_PATH_COUNT };
#undef LGZ_ENUM_
#define LGZ_TEXT_(e, text) text,
static const char *const lgz_path_text[] = {LGZ_PATHS(LGZ_TEXT_)};
#undef LGZ_TEXT_

static void
path(const struct ir_shader *sh, enum lgz_path p)
{
   if (cover_on)
      cover_hit("legalize", "%s: %s", isa_model_name(sh->model), lgz_path_text[p]);
}

enum place {
   PLACE_REG,
   PLACE_CONST,
   PLACE_IMM,
   PLACE_COPY, /* copied into a general register */
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
      return ir_value_in_regs(v) ? PLACE_REG : PLACE_CONST;
   if (v->op == IR_OP_IMM)
      return ir_has_reg(v) && is_const_file(m, v->mach->reg.file) ? PLACE_CONST : PLACE_IMM;
   return PLACE_REG;
}

/* A record becomes one of another op of the same operands (a form). */
static void
set_op(const struct isa_model *m, struct isa_insn *t, unsigned op)
{
   struct isa_op_info oi;
   isa_op_info(m, op, &oi);
   t->op = (uint16_t)op;
   t->sem = (uint16_t)oi.sem;
   t->cls = (uint8_t)oi.cls;
   t->size = (uint8_t)oi.size;
}

/* An immediate cut to the field of slot k of op, as an encoder that does
 * not check the range would (OPT_FAULT_IMM_TRUNC): the low bits,
 * sign-extended for a signed field, or the top bits of a float; table
 * indices are left alone. */
static uint32_t
cut_to_field(const struct isa_model *m, unsigned op, unsigned k, uint32_t v)
{
   struct isa_slot_info si;
   if (!isa_slot_info(m, op, false, k, &si) || !si.imm_bits || si.imm_bits >= 32 || si.imm_lut)
      return v;
   uint32_t mask = (1u << si.imm_bits) - 1;
   if (si.imm_float_top)
      return v & ~((1u << (32 - si.imm_bits)) - 1);
   if (si.imm_signed && ((v >> (si.imm_bits - 1)) & 1))
      return v | ~mask;
   return v & mask;
}

/* The instance of OPT_FAULT_IMM_TRUNC: one immediate of one instruction,
 * asked about in trials and when it is written. */
#define IMM_TRUNC_FMT "immediate 0x%x of %%%u cut to its field"

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
trial_record(const struct ir_shader *sh, const struct files *fp, const struct ir_instr *in,
             unsigned op, const enum place *place, struct isa_insn *t)
{
   const struct ir_mach *m = in->mach;
   const struct files f = *fp;
   *t = m->insn;
   set_op(sh->model, t, op);
   for (unsigned d = 0; d < t->ndst; d++) {
      struct isa_opnd *o = &t->dst[d];
      if ((d || in->type == IR_TYPE_NONE) && o->kind == ISA_OPND_REG)
         continue; /* a fixed second result (SHFL's, SETP's predicate into PT), or a
                      fixed register written without a value (gfx9 kill: exec) */
      o->kind = ISA_OPND_REG;
      o->file = (uint8_t)(ir_has_reg(in) ? m->reg.file : m->reg.file >= 0 ? m->reg.file : f.gpr);
      o->index = ir_has_reg(in) ? m->reg.index : 0;
   }
   for (unsigned k = 0; k < t->nsrc; k++) {
      if (!m->count[k])
         continue;
      struct isa_opnd *o = &t->src[k];
      const struct ir_instr *v = in->src[m->first[k]];
      if (o->flags & ISA_OPND_F_REL) { /* stays relative to its address value */
         o->bank = ir_has_reg(v) ? v->mach->reg.index : 0;
         continue;
      }
      switch (place[k]) {
      case PLACE_IMM:
         o->kind = ISA_OPND_IMM;
         o->value = (uint32_t)v->imm;
         if (opt_fault_sh(sh, OPT_FAULT_IMM_TRUNC) &&
             cut_to_field(sh->model, op, k, o->value) != o->value &&
             opt_fault_fires_sh(sh, OPT_FAULT_IMM_TRUNC, IMM_TRUNC_FMT, o->value, in->id))
            o->value = cut_to_field(sh->model, op, k, o->value);
         break;
      case PLACE_CONST:
         if (t->nsrc == 3 && k == 1 &&
             opt_fault_fires_sh(sh, OPT_FAULT_CONST_SRC2, "a constant in src2 of %%%u", in->id)) {
            o->kind = ISA_OPND_REG; /* checked as if src2 took constants */
            o->file = (uint8_t)f.gpr;
            o->index = dummy_index(sh->model, o->file, 8 + 4 * k);
            break;
         }
         o->kind = ISA_OPND_CONST;
         o->file = (uint8_t)f.cnst;
         o->index = ir_has_reg(v) ? v->mach->reg.index : (uint16_t)(4 * k);
         o->bank = 0;
         break;
      case PLACE_REG:
      case PLACE_COPY: {
         /* a register value, or a copy of a constant or immediate */
         bool in_reg = place[k] == PLACE_REG && ir_reg_file(v) >= 0 &&
                       !is_const_file(sh->model, ir_reg_file(v));
         o->kind = ISA_OPND_REG;
         o->file = (uint8_t)(in_reg ? ir_reg_file(v) : f.gpr);
         o->index = in_reg && ir_has_reg(v) ? v->mach->reg.index
                                            : dummy_index(sh->model, o->file, 8 + 4 * k);
         break;
      }
      }
   }
}

static bool
trial_ok(const struct ir_shader *sh, const struct files *f, const struct ir_instr *in, unsigned op,
         const enum place *place)
{
   struct isa_insn t;
   trial_record(sh, f, in, op, place, &t);
   return opt_check_insn(sh->fault_ctx, sh->model, &t) == ISA_ERR_OK;
}

/* Swaps the two commuting operands of in (and flips its condition). */
static void
swap_operands(const struct ir_shader *sh, struct ir_instr *in, int a, int b)
{
   const struct isa_model *model = sh->model;
   struct ir_mach *m = in->mach;
   struct ir_instr *va = in->src[m->first[a]];
   ir_set_src(in, m->first[a], in->src[m->first[b]]);
   ir_set_src(in, m->first[b], va);
   uint8_t fa = m->insn.src[a].flags;
   if (!opt_fault_sh(sh, OPT_FAULT_SWAP_MODS)) {
      m->insn.src[a].flags = m->insn.src[b].flags;
      m->insn.src[b].flags = fa;
   }
   struct isa_op_info oi;
   isa_op_info(model, m->insn.op, &oi);
   if (oi.flip_mod >= 0 && !opt_fault_sh(sh, OPT_FAULT_SWAP_NOFLIP))
      m->insn.mod[oi.flip_mod] =
          (int16_t)isa_mod_flip(model, (unsigned)oi.flip_mod, m->insn.mod[oi.flip_mod]);
}

static const char *
mod_text(const struct isa_model *m, int mod, int value)
{
   const char *t = isa_mod_value_name(m, (unsigned)mod, value);
   return t ? t : "its condition";
}

/* For bisect (issue 16): what a swap did to in, seen in its record
 * before and after -- a condition flipped or kept, modifiers moved with
 * their operands or left behind, an op that does not commute. */
static void
swap_note(struct opt_ctx *ctx, const struct ir_shader *sh, const struct ir_instr *in, int a, int b,
          const struct isa_insn *before)
{
   if (!ctx || !ctx->opts.bisect)
      return;
   const struct isa_insn *x = &in->mach->insn;
   struct isa_op_info oi;
   isa_op_info(sh->model, x->op, &oi);
   char how[96] = "";
   if (oi.commute[0] < 0)
      snprintf(how, sizeof(how), " (%s does not commute)", oi.name);
   else if (oi.flip_mod >= 0 && x->mod[oi.flip_mod] == before->mod[oi.flip_mod])
      snprintf(how, sizeof(how), " without flipping %s",
               mod_text(sh->model, oi.flip_mod, x->mod[oi.flip_mod]));
   else if (oi.flip_mod >= 0)
      snprintf(how, sizeof(how), ", %s flipped to %s",
               mod_text(sh->model, oi.flip_mod, before->mod[oi.flip_mod]),
               mod_text(sh->model, oi.flip_mod, x->mod[oi.flip_mod]));
   if (before->src[a].flags != before->src[b].flags)
      snprintf(how + strlen(how), sizeof(how) - strlen(how), "%s",
               x->src[b].flags == before->src[a].flags ? " (modifiers moved with them)"
                                                       : " (their neg/abs modifiers left behind)");
   opt_cons_note(ctx, OPT_STAGE_LEGALIZE, "%%%u: operand %d of %s %%%u swapped with operand %d%s",
                 in->id, b, oi.name, in->id, a, how);
}

/* The first two sources of op with the same data type (not predicates):
 * what a legalizer that takes every op for commutative would swap. */
static void
same_type_pair(const struct isa_model *m, unsigned op, int *a, int *b)
{
   struct isa_op_info oi;
   isa_op_info(m, op, &oi);
   for (unsigned i = 0; i < oi.nsrc; i++)
      for (unsigned j = i + 1; j < oi.nsrc; j++) {
         struct isa_slot_info x, y;
         if (isa_slot_info(m, op, false, i, &x) && isa_slot_info(m, op, false, j, &y) &&
             x.type == y.type && x.type != ISA_TYPE_PRED) {
            *a = (int)i;
            *b = (int)j;
            return;
         }
      }
}

/* Can the two commuting operands be swapped? Both must be single values,
 * and a compare must have a flip for its condition. */
static bool
can_swap(const struct ir_shader *sh, const struct ir_instr *in, int *a, int *b)
{
   const struct isa_model *model = sh->model;
   struct isa_op_info oi;
   isa_op_info(model, in->mach->insn.op, &oi);
   *a = oi.commute[0];
   *b = oi.commute[1];
   if (*a < 0 && opt_fault_sh(sh, OPT_FAULT_SWAP_NONCOMM))
      same_type_pair(model, in->mach->insn.op, a, b); /* taken for commutative */
   if (*a < 0 || *b < 0 || in->mach->count[*a] != 1 || in->mach->count[*b] != 1)
      return false;
   if (oi.flip_mod >= 0 &&
       isa_mod_flip(model, (unsigned)oi.flip_mod, in->mach->insn.mod[oi.flip_mod]) < 0)
      return false;
   return true;
}

/*
 * Finds placements making in legal with one of its forms ops[]: mask bit k
 * set = operand k copied into a register. Inline immediates are preferred
 * to constant-file slots over every form (all inline first, then each
 * choice with more constants). Returns true and fills place[] and *op.
 */
static bool
search_places(const struct ir_shader *sh, const struct files *fl, const struct ir_instr *in,
              const unsigned *ops, unsigned nops, unsigned copy_mask, enum place *place,
              unsigned *op)
{
   const struct ir_mach *m = in->mach;
   unsigned imms[ISA_MAX_SRC], nimm = 0;
   for (unsigned k = 0; k < m->insn.nsrc; k++) {
      place[k] = PLACE_REG;
      if (m->count[k] && (copy_mask & (1u << k)))
         place[k] = PLACE_COPY;
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
      for (unsigned f = 0; f < nops; f++)
         if (trial_ok(sh, fl, in, ops[f], place)) {
            *op = ops[f];
            return true;
         }
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

static bool
int32_type(enum isa_type t)
{
   return t == ISA_TYPE_U32 || t == ISA_TYPE_S32 || t == ISA_TYPE_B32;
}

/* The length of a mnemonic without an encoding suffix _eNN (gfx9 _e32,
 * _e64: the VOP1/VOP2/VOPC and VOP3 encodings of one instruction). */
static size_t
stem_len(const char *name)
{
   const char *u = strrchr(name, '_');
   if (!u || u[1] != 'e' || !u[2])
      return strlen(name);
   for (const char *p = u + 2; *p; p++)
      if (*p < '0' || *p > '9')
         return strlen(name);
   return (size_t)(u - name);
}

static bool
same_instruction(const char *a, const char *b)
{
   size_t al = strlen(a), sa = stem_len(a);
   if (!strncmp(b, a, al))
      return true;
   return sa < al && stem_len(b) == sa && !strncmp(a, b, sa);
}

/* Forms of the same operation: the op itself first, then the other ops
 * of its semantics with the same operands and types (32-bit integer types
 * alike, but for conversions) whose mnemonic is its
 * own or extends it (sm50 FADD and FADD32I: register, constant, 20-bit and
 * 32-bit immediate forms), or differs only in its encoding suffix (gfx9
 * v_add_f32_e32 and v_add_f32_e64). */
static unsigned
forms(const struct isa_model *m, unsigned op, unsigned *out, unsigned max)
{
   struct isa_op_info a;
   isa_op_info(m, op, &a);
   unsigned n = 0;
   out[n++] = op;
   unsigned nsem;
   const uint16_t *same_sem = isa_ops_by_sem(m, a.sem, &nsem);
   for (unsigned i = 0; i < nsem && n < max; i++) {
      unsigned o = same_sem[i];
      struct isa_op_info b;
      isa_op_info(m, o, &b);
      if (o == op || b.ndst != a.ndst || b.nsrc != a.nsrc || !same_instruction(a.name, b.name) ||
          opt_op_explicit(m, o))
         continue;
      bool same = true;
      for (unsigned k = 0; k < a.ndst + a.nsrc && same; k++) {
         struct isa_slot_info x, y;
         bool dst = k < a.ndst;
         unsigned slot = dst ? k : k - a.ndst;
         isa_slot_info(m, op, dst, slot, &x);
         isa_slot_info(m, o, dst, slot, &y);
         same = x.type == y.type || (a.sem != ISA_SEM_COV && int32_type(x.type) &&
                                     int32_type(y.type)); /* sel_r b32, sel_i s32 */
      }
      if (same)
         out[n++] = o;
   }
   return n;
}

/* forms() of op, remembered per compile: it depends on the model alone
 * and plan_op asks it for every instruction, several times (a scan of the
 * model's ops of that semantics, with names and slot types compared). */
static unsigned
forms_memo(const struct ir_shader *sh, unsigned op, unsigned *out)
{
   struct opt_ctx *ctx = sh->fault_ctx;
   unsigned nops = isa_op_count(sh->model);
   if (!ctx || op >= nops)
      return forms(sh->model, op, out, OPT_FORMS_MAX);
   if (ctx->forms_memo && ctx->forms_model != sh->model) {
      free(ctx->forms_memo);
      ctx->forms_memo = NULL;
   }
   if (!ctx->forms_memo) {
      ctx->forms_memo = xcalloc((size_t)nops * (OPT_FORMS_MAX + 1), sizeof(uint16_t));
      ctx->forms_model = sh->model;
   }
   uint16_t *e = ctx->forms_memo + (size_t)op * (OPT_FORMS_MAX + 1);
   if (!e[0]) { /* e[0]: the count plus 1, 0 while unknown */
      unsigned n = forms(sh->model, op, out, OPT_FORMS_MAX);
      e[0] = (uint16_t)(n + 1);
      for (unsigned i = 0; i < n; i++)
         e[1 + i] = (uint16_t)out[i];
   }
   for (unsigned i = 0; i + 1 < e[0]; i++)
      out[i] = e[1 + i];
   return e[0] - 1u;
}

unsigned
opt_copy_op(const struct isa_model *m)
{
   int best = -1, best_score = -1;
   unsigned nmov;
   const uint16_t *movs = isa_ops_by_sem(m, ISA_SEM_MOV, &nmov);
   for (unsigned i = 0; i < nmov; i++) {
      unsigned o = movs[i];
      struct isa_op_info oi;
      struct isa_slot_info si;
      isa_op_info(m, o, &oi);
      if (oi.nsrc != 1 || !isa_slot_info(m, o, false, 0, &si) || opt_op_explicit(m, o))
         continue;
      unsigned ops[16];
      int score = (int)forms(m, o, ops, ARRAY_SIZE(ops)) + (isa_type_is_float(si.type) ? 0 : 100);
      if (score > best_score) {
         best = (int)o;
         best_score = score;
      }
   }
   return best >= 0 ? (unsigned)best : (unsigned)opt_op_by_sem(m, ISA_SEM_COV);
}

/* A value in a uniform file (gfx9 SGPR): a vector operand may need it
 * copied (one scalar on the constant bus). */
static bool
in_uniform_file(const struct isa_model *m, const struct ir_instr *v)
{
   int f = ir_reg_file(v);
   if (f < 0)
      return false;
   struct isa_file_info fi;
   isa_file_info(m, (unsigned)f, &fi);
   return fi.kind == ISA_FILE_UNIFORM;
}

/* The smallest set of operands to copy (then the lowest mask), over the
 * op's forms (the op itself preferred on a tie). */
static bool
plan_op(const struct ir_shader *sh, const struct ir_instr *in, enum place *place, unsigned *mask,
        unsigned *op)
{
   const struct ir_mach *m = in->mach;
   unsigned candidates = 0;
   for (unsigned k = 0; k < m->insn.nsrc; k++)
      if (m->count[k] == 1 && (natural_place(sh->model, in->src[m->first[k]]) != PLACE_REG ||
                               in_uniform_file(sh->model, in->src[m->first[k]])))
         candidates |= 1u << k;
   unsigned ops[OPT_FORMS_MAX], nops = forms_memo(sh, m->insn.op, ops);
   struct files f = find_files(sh->model);
   for (unsigned n = 0; n <= popcount(candidates); n++)
      for (unsigned mk = 0; mk < (1u << m->insn.nsrc); mk++)
         if ((mk & ~candidates) == 0 && popcount(mk) == n &&
             search_places(sh, &f, in, ops, nops, mk, place, op)) {
            *mask = mk;
            return true;
         }
   return false;
}

static bool
plan(const struct ir_shader *sh, const struct ir_instr *in, enum place *place, unsigned *mask)
{
   unsigned op;
   return plan_op(sh, in, place, mask, &op);
}

/* Does a plan have effects? Only through the faults its trial records
 * fire (each firing is counted); without them asking again for the same
 * record gives the same answer, so an answer may be kept. */
static bool
plan_has_effects(const struct ir_shader *sh)
{
   return opt_fault_sh(sh, OPT_FAULT_IMM_TRUNC) || opt_fault_sh(sh, OPT_FAULT_CONST_SRC2);
}

/* Takes the form plan_op chose. */
static void
take_form(const struct ir_shader *sh, struct ir_instr *in)
{
   enum place p[ISA_MAX_SRC];
   unsigned mask, op;
   if (plan_op(sh, in, p, &mask, &op) && op != in->mach->insn.op)
      set_op(sh->model, &in->mach->insn, op);
}

/* Can in be made encodable by swapping or copying operands? (A fault
 * firing its trials ask is the legalizer's, as in opt_legalize_operands.) */
bool
opt_legal_possible(const struct ir_shader *sh, const struct ir_instr *in)
{
   enum place p[ISA_MAX_SRC];
   unsigned mask;
   struct opt_ctx *ctx = sh->fault_ctx;
   const char *caller = ctx ? ctx->pass : NULL;
   if (ctx)
      ctx->pass = "legalize";
   bool ok = plan(sh, in, p, &mask);
   if (ctx)
      ctx->pass = caller;
   return ok;
}

/* An immediate 0 in a slot that takes registers reads the zero register
 * (sm50 RZ) where the model has one: no copy, no immediate bits. */
static void
use_zero_register(const struct ir_shader *sh, struct ir_instr *in)
{
   struct files f = find_files(sh->model);
   struct isa_file_info fi;
   if (f.gpr < 0)
      return;
   isa_file_info(sh->model, (unsigned)f.gpr, &fi);
   if (fi.fixed < 0 || fi.fixed_value)
      return;
   struct ir_mach *m = in->mach;
   switch (m->insn.sem) { /* the emulator finds a memory op's address and data by register */
   case ISA_SEM_LDG:
   case ISA_SEM_STG:
   case ISA_SEM_LDL:
   case ISA_SEM_STL:
   case ISA_SEM_ATOM:
   case ISA_SEM_ATOMS:
   case ISA_SEM_ATOM_CAS:
   case ISA_SEM_ATOMS_CAS:
      return;
   default:
      break;
   }
   for (unsigned k = 0; k < m->insn.nsrc; k++) {
      struct isa_slot_info si;
      if (m->count[k] != 1 || (m->insn.src[k].flags & ISA_OPND_F_REL) ||
          !isa_slot_info(sh->model, m->insn.op, false, k, &si) ||
          !(si.kinds & (1u << ISA_OPND_REG)))
         continue;
      const struct ir_instr *v = in->src[m->first[k]];
      if (v->op == IR_OP_IMM && !ir_has_reg(v) && (uint32_t)v->imm == 0 &&
          !(m->insn.src[k].flags & (ISA_OPND_F_NOT | ISA_OPND_F_HI))) {
         path(sh, LGZ_PATH_ZERO);
         ir_mach_fix_operand(in, k, (unsigned)f.gpr, (unsigned)fi.fixed);
      }
   }
}

/* The swap fault that makes swapping in's operands a and b differ from a
 * correct swap, or OPT_FAULT_COUNT: the pair is not commutative, a
 * compare's condition stays, or the modifiers stay where they were. */
static enum opt_fault
swap_fault(const struct ir_shader *sh, const struct ir_instr *in, int a, int b)
{
   struct isa_op_info oi;
   isa_op_info(sh->model, in->mach->insn.op, &oi);
   const struct isa_insn *x = &in->mach->insn;
   if (oi.commute[0] < 0 && opt_fault_sh(sh, OPT_FAULT_SWAP_NONCOMM))
      return OPT_FAULT_SWAP_NONCOMM;
   if (oi.flip_mod >= 0 && opt_fault_sh(sh, OPT_FAULT_SWAP_NOFLIP) &&
       isa_mod_flip(sh->model, (unsigned)oi.flip_mod, x->mod[oi.flip_mod]) != x->mod[oi.flip_mod])
      return OPT_FAULT_SWAP_NOFLIP;
   if (x->src[a].flags != x->src[b].flags && opt_fault_sh(sh, OPT_FAULT_SWAP_MODS))
      return OPT_FAULT_SWAP_MODS;
   return OPT_FAULT_COUNT;
}

/* Whether to swap in's operands a and b (copies m2 against m1 without):
 * required when nothing else is legal, else the optional transformation
 * that saves copies. A swap a fault spoils is that fault's firing. */
static bool
take_swap(struct ir_shader *sh, struct opt_ctx *ctx, struct ir_instr *in, int a, int b, bool ok1,
          unsigned m1, unsigned m2)
{
   if (ok1 && popcount(m2) >= popcount(m1))
      return false;
   enum opt_fault f = swap_fault(sh, in, a, b);
   if (f != OPT_FAULT_COUNT)
      return opt_fault_fires(ctx, f, "%%%u swapped", in->id);
   return !ok1 || opt_transform(ctx, "swap the operands of %%%u", in->id);
}

/* ------------------------------------------------------------------ */
/* The conservative variant (conservative.c): copies, never a swap       */

/* Whether operand k of in is one the conservative variant copies: a
 * single value, not relative, not in a per-lane register (a constant, an
 * immediate, a uniform register: gfx9's constant bus), in a slot that
 * takes a register. */
static bool
plain_copies(const struct ir_shader *sh, const struct ir_instr *in, unsigned k)
{
   const struct ir_mach *m = in->mach;
   struct isa_slot_info si;
   return m->count[k] == 1 && !(m->insn.src[k].flags & ISA_OPND_F_REL) &&
          (natural_place(sh->model, in->src[m->first[k]]) != PLACE_REG ||
           in_uniform_file(sh->model, in->src[m->first[k]])) &&
          isa_slot_info(sh->model, m->insn.op, false, k, &si) && (si.kinds & (1u << ISA_OPND_REG));
}

/* The operands the conservative variant copies: each one plain_copies
 * names, but one that the op cannot read from a per-lane register (a
 * scalar op's immediate or SGPR: gfx9 s_mov_b64) -- the copy would make
 * the program illegal, and the operand keeps its natural place. */
static unsigned
plain_copy_mask(const struct ir_shader *sh, const struct ir_instr *in)
{
   const struct ir_mach *m = in->mach;
   unsigned mask = 0, ops[OPT_FORMS_MAX], op;
   unsigned nops = forms_memo(sh, m->insn.op, ops);
   enum place p[ISA_MAX_SRC];
   struct files f = find_files(sh->model);
   for (unsigned k = 0; k < m->insn.nsrc; k++)
      if (plain_copies(sh, in, k))
         mask |= 1u << k;
   for (unsigned k = 0; k < m->insn.nsrc; k++)
      if ((mask >> k & 1) && !search_places(sh, &f, in, ops, nops, mask, p, &op) &&
          search_places(sh, &f, in, ops, nops, mask & ~(1u << k), p, &op))
         mask &= ~(1u << k);
   return mask;
}

/* Before RA: every such operand copied into a new value. */
static bool
legalize_plain_pre(struct ir_shader *sh, struct ir_instr *in)
{
   struct ir_mach *m = in->mach;
   unsigned mask = plain_copy_mask(sh, in);
   for (unsigned k = 0; k < m->insn.nsrc; k++)
      if (mask >> k & 1)
         ir_set_src(in, m->first[k], opt_copy_before(sh, in, in->src[m->first[k]]));
   take_form(sh, in);
   return true;
}

/* An operand group (count > 1: a compare-and-swap's data pair, texture
 * coordinates) is read from consecutive registers of one file, which the
 * allocator arranges, copying the group (immediates included) if need be.
 * A uniform-file value (gfx9 SGPR) cannot join a vector run: it is copied
 * into a general register first. A group wholly in the uniform file stays
 * there if the slot takes it (a scalar base pair). */
static void
copy_group_strays(struct ir_shader *sh, struct ir_instr *in)
{
   struct ir_mach *m = in->mach;
   for (unsigned k = 0; k < m->insn.nsrc; k++) {
      if (m->count[k] < 2)
         continue;
      unsigned uniform = 0, mask;
      enum place p[ISA_MAX_SRC];
      for (unsigned i = 0; i < m->count[k]; i++)
         uniform += in_uniform_file(sh->model, in->src[m->first[k] + i]);
      if (!uniform || (uniform == m->count[k] && plan(sh, in, p, &mask)))
         continue;
      for (unsigned i = 0; i < m->count[k]; i++) {
         struct ir_instr *v = in->src[m->first[k] + i];
         if (!in_uniform_file(sh->model, v))
            continue;
         path(sh, LGZ_PATH_COPY_PRE);
         ir_set_src(in, m->first[k] + i, opt_copy_before(sh, in, v));
      }
   }
}

static bool
legalize_operands(struct ir_shader *sh, struct opt_ctx *ctx, struct ir_instr *in)
{
   if (!ctx->cons_first_made)
      ctx->cons_first_made = sh->nvalues;
   copy_group_strays(sh, in);
   if (opt_stage_conservative(ctx, OPT_STAGE_LEGALIZE) &&
       opt_conservative(ctx, OPT_STAGE_LEGALIZE, in->line, "before-ra %%%u", in->id))
      return legalize_plain_pre(sh, in);
   use_zero_register(sh, in);
   enum place p1[ISA_MAX_SRC], p2[ISA_MAX_SRC];
   unsigned m1 = 0, m2 = 0, mask, op1;
   int a, b;
   bool ok1 = plan_op(sh, in, p1, &m1, &op1);
   if (ok1 && !m1) {
      if (plan_has_effects(sh))
         take_form(sh, in);              /* plans again, as the faults count their firings */
      else if (op1 != in->mach->insn.op) /* take_form's plan: the same record, the same op */
         set_op(sh->model, &in->mach->insn, op1);
      return true;
   }
   bool ok2 = false;
   if (can_swap(sh, in, &a, &b)) {
      swap_operands(sh, in, a, b);
      ok2 = plan(sh, in, p2, &m2);
      swap_operands(sh, in, a, b);
   }
   if (ok2 && take_swap(sh, ctx, in, a, b, ok1, m1, m2)) {
      path(sh, LGZ_PATH_SWAP_PRE);
      opt_verify_begin(ctx, in);
      struct isa_insn before = in->mach->insn;
      swap_operands(sh, in, a, b);
      swap_note(ctx, sh, in, a, b, &before);
      char what[64];
      snprintf(what, sizeof(what), "swap the operands of %%%u", in->id);
      opt_verify_end(ctx, in, in, what);
      mask = m2;
   } else if (ok1) {
      mask = m1;
   } else {
      return false;
   }
   struct ir_mach *m = in->mach;
   for (unsigned k = 0; k < m->insn.nsrc; k++)
      if (mask & (1u << k)) {
         struct ir_instr **src = &in->src[m->first[k]];
         if (in_uniform_file(sh->model, *src) &&
             opt_fault_fires(ctx, OPT_FAULT_CBUS_DROP, "operand %u of %%%u dropped", k, in->id)) {
            ir_set_src(in, m->first[k],
                       opt_imm_before(sh, in, 0)); /* the second scalar read left out */
            continue;
         }
         path(sh, LGZ_PATH_COPY_PRE);
         ir_set_src(in, m->first[k], opt_copy_before(sh, in, *src));
      }
   take_form(sh, in);
   return true;
}

/* Legalizes the operands of in before register allocation: copies become
 * new values. false if nothing makes the instruction encodable. The
 * legalizer's transformations and fault firings are logged as its own
 * (pass legalize), also when isel calls it. */
bool
opt_legalize_operands(struct ir_shader *sh, struct opt_ctx *ctx, struct ir_instr *in)
{
   const char *caller = ctx->pass;
   ctx->pass = "legalize";
   bool ok = legalize_operands(sh, ctx, in);
   ctx->pass = caller;
   return ok;
}

/* ------------------------------------------------------------------ */
/* The pass (after register allocation)                                 */

struct lgz {
   struct ir_shader *sh;
   struct opt_ctx *ctx;
   struct files f;
   unsigned nconst;        /* constant-file size */
   bool *cused;            /* constant slots taken */
   struct ir_instr **cimm; /* immediates placed in the constant file */
   unsigned ncimm, cimm_cap;
   struct ir_liveness lv;
   bool failed;
};

static bool
lgz_error(struct lgz *z, const struct ir_instr *in, const char *what)
{
   char *t = in ? ir_print_instr(in) : xstrdup("");
   ir_error(z->ctx->diags, z->sh, in ? in->line : 0, "%s%s: %s",
            strncmp(what, "unsupported", 11) ? "legalize: " : "", what, t);
   free(t);
   z->failed = z->ctx->failed = true;
   return false;
}

static int
take_const_slot(struct lgz *z, int want)
{
   if (want >= 0 && (unsigned)want < z->nconst && !z->cused[want]) {
      z->cused[want] = true;
      return want;
   }
   for (unsigned i = 0; i < z->nconst; i++)
      if (!z->cused[i]) {
         z->cused[i] = true;
         return (int)i;
      }
   return -1;
}

/* Constants keep the layout of buffer 0 (slot * 4 + channel), and of the
 * buffers relative reads see after it (opt_relative_base), so the same
 * constant is one slot however often it is loaded; other buffers follow. */
static void
place_constants(struct lgz *z)
{
   struct ir_shader *sh = z->sh;
   for (int pass = 0; pass < 2 && !z->failed; pass++)
      for (unsigned i = 0; i < sh->nvalues; i++) {
         struct ir_instr *c = sh->values[i];
         if (!c || c->removed || c->op != IR_OP_LOAD_CONST || ir_has_reg(c))
            continue;
         bool window = c->buf >= 0 && (uint32_t)c->buf < sh->rel_cbufs && c->slot >= 0 &&
                       (uint32_t)c->slot < sh->cbuf_slots[c->buf];
         uint32_t slot = (uint32_t)c->slot + (window ? opt_relative_base(sh, (unsigned)c->buf) : 0);
         bool natural = (c->buf == 0 || window) && c->slot >= 0 && slot * 4 + 4 <= z->nconst;
         if (natural != (pass == 0))
            continue;
         int at = -1;
         for (unsigned j = 0; j < i && at < 0; j++) {
            const struct ir_instr *o = sh->values[j];
            if (o && !o->removed && o->op == IR_OP_LOAD_CONST && ir_has_reg(o) &&
                o->buf == c->buf && o->slot == c->slot && o->comp == c->comp)
               at = o->mach->reg.index;
         }
         if (at < 0 && natural) {
            at = (int)slot * 4 + c->comp;
            z->cused[at] = true;
         } else if (at < 0) {
            at = take_const_slot(z, -1);
         }
         if (at < 0) {
            lgz_error(z, c, "unsupported: the constant file is full");
            return;
         }
         ir_mach_get(sh->model, c)->reg = (struct ir_reg){(int16_t)z->f.cnst, (uint16_t)at, 1};
      }
}

/* Relative constant reads see buffers 0 .. rel_cbufs - 1 laid out in a
 * row as slot * 4 + channel (opt_emit binds all of them): nothing else
 * may take those slots. */
static void
reserve_relative(struct lgz *z)
{
   bool rel = opt_relative_cfile(z->sh) >= 0;
   uint32_t n = opt_relative_base(z->sh, z->sh->rel_cbufs) * 4;
   for (uint32_t s = 0; rel && s < n && s < z->nconst; s++)
      z->cused[s] = true;
}

/* The immediate `bits` in the constant file (one slot per value). */
static struct ir_instr *
const_imm(struct lgz *z, uint32_t bits)
{
   for (unsigned i = 0; i < z->ncimm; i++)
      if ((uint32_t)z->cimm[i]->imm == bits)
         return z->cimm[i];
   int at = take_const_slot(z, -1);
   if (at < 0)
      return NULL;
   struct ir_instr *v = ir_instr_create(z->sh, IR_OP_IMM, 0);
   v->type = IR_TYPE_32;
   v->imm = bits;
   ir_mach_get(z->sh->model, v)->reg = (struct ir_reg){(int16_t)z->f.cnst, (uint16_t)at, 1};
   ir_block_prepend(ir_list_first_block(&z->sh->body), v);
   VEC_PUSH(z->cimm, z->ncimm, z->cimm_cap, v);
   return v;
}

/* The (skip+1)-th general register free while `in` executes (not live
 * before it), so that the copies of one instruction differ. */
static int
scratch_reg(struct lgz *z, struct ir_instr *in, unsigned skip)
{
   struct ir_shader *sh = z->sh;
   struct ir_block *b = in->block;
   unsigned nw = z->lv.dense_words;
   uint64_t *live = xmalloc(nw * sizeof(uint64_t));
   ir_live_expand(&z->lv, ir_live_out_set(&z->lv, b->index), live);
   for (struct ir_instr *i = b->last; i; i = i->prev) {
      if (i->id < nw * 64)
         ir_live_set(live, i->id, false);
      for (unsigned s = 0; s < i->nsrc; s++)
         if (ir_use_extends_life(i, i->src[s]) && i->src[s]->id < nw * 64)
            ir_live_set(live, i->src[s]->id, true);
      if (i == in)
         break;
   }
   struct isa_file_info fi;
   isa_file_info(sh->model, (unsigned)z->f.gpr, &fi);
   bool *busy = xcalloc(fi.count + 1, sizeof(bool));
   for (unsigned id = 0; id < sh->nvalues && id < nw * 64; id++) {
      const struct ir_instr *v = sh->values[id];
      if (v && ir_live_has(live, id) && ir_has_reg(v) && v->mach->reg.file == z->f.gpr)
         for (unsigned k = 0; k < v->mach->reg.count; k++)
            busy[v->mach->reg.index + k] = true;
   }
   int r = -1;
   for (unsigned k = 0; k < fi.count && r < 0; k++)
      if (!busy[k] && !skip--)
         r = (int)k;
   free(busy);
   free(live);
   return r;
}

/* The inline immediates of in as two faulty encoders write them: cut to
 * their field (OPT_FAULT_IMM_TRUNC), or an FFMA float put in the field as
 * an i20 integer, its low bits, which the hardware reads as the top bits
 * of a float (OPT_FAULT_FFMA_I20). */
static void
fault_immediates(struct lgz *z, struct ir_instr *in)
{
   struct ir_mach *m = in->mach;
   for (unsigned k = 0; k < m->insn.nsrc; k++) {
      struct ir_instr *const *src = &in->src[m->first[k]];
      struct isa_slot_info si;
      if (m->count[k] != 1 || (*src)->op != IR_OP_IMM || ir_has_reg(*src) ||
          (m->insn.src[k].flags & ISA_OPND_F_REL) ||
          !isa_slot_info(z->sh->model, m->insn.op, false, k, &si))
         continue;
      uint32_t v = (uint32_t)(*src)->imm, w = v, cut = cut_to_field(z->sh->model, m->insn.op, k, v);
      if (cut != v && opt_fault_fires(z->ctx, OPT_FAULT_IMM_TRUNC, IMM_TRUNC_FMT, v, in->id))
         w = cut;
      uint32_t i20 = ((v & 0x7ffffu) << 12) | (v & 0x80000000u);
      if (m->insn.sem == ISA_SEM_FFMA && si.imm_float_top && i20 != v &&
          opt_fault_fires(z->ctx, OPT_FAULT_FFMA_I20, "FFMA immediate 0x%x of %%%u as i20", v,
                          in->id))
         w = i20;
      if (w != v)
         ir_set_src(in, m->first[k], opt_imm_before(z->sh, in, w));
   }
}

/* The copy c's own operand: an immediate goes to the constant file (a
 * slot holds every bit of it), then the copy takes the form that reads it;
 * with no slot (gfx9 has no constant file), the copy reads it inline when
 * its encoding holds it (a literal). */
static void
plain_copy_operands(struct lgz *z, struct ir_instr *c)
{
   struct ir_mach *m = c->mach;
   for (unsigned k = 0; k < m->insn.nsrc && !z->failed; k++) {
      struct ir_instr *src = c->src[m->first[k]];
      if (!m->count[k] || src->op != IR_OP_IMM || ir_has_reg(src))
         continue;
      struct ir_instr *v = const_imm(z, (uint32_t)src->imm);
      enum place p[ISA_MAX_SRC];
      unsigned mask;
      if (!v && plan(z->sh, c, p, &mask) && !mask)
         continue;
      if (!v)
         lgz_error(z, c, "unsupported: the constant file is full");
      else
         ir_set_src(c, m->first[k], v);
   }
   if (!z->failed)
      take_form(z->sh, c);
}

/* After RA: every such operand copied into a register free across in. */
static void
legalize_plain_post(struct lgz *z, struct ir_instr *in)
{
   struct ir_mach *m = in->mach;
   unsigned ncopies = 0, mask = plain_copy_mask(z->sh, in);
   for (unsigned k = 0; k < m->insn.nsrc && !z->failed; k++) {
      struct ir_instr *src = m->count[k] ? in->src[m->first[k]] : NULL;
      if (!plain_copies(z->sh, in, k) && src && src->op == IR_OP_IMM && !ir_has_reg(src)) {
         /* a slot that takes no register (the form isel chose reads a
          * constant): the immediate goes to the constant file whole; with
          * no file (gfx9), it stays inline where the encoding holds it */
         struct ir_instr *v = const_imm(z, (uint32_t)src->imm);
         enum place p[ISA_MAX_SRC];
         unsigned pm;
         if (!v && plan(z->sh, in, p, &pm) && !pm)
            continue;
         if (!v)
            lgz_error(z, in, "unsupported: the constant file is full");
         else
            ir_set_src(in, m->first[k], v);
      }
      if (!(mask >> k & 1))
         continue;
      int r = scratch_reg(z, in, ncopies++);
      if (r < 0) {
         lgz_error(z, in, "unsupported: no register free for an operand copy");
         return;
      }
      struct ir_instr *c = opt_copy_before(z->sh, in, in->src[m->first[k]]);
      ir_mach_get(z->sh->model, c)->reg = (struct ir_reg){(int16_t)z->f.gpr, (uint16_t)r, 1};
      ir_set_src(in, m->first[k], c);
      plain_copy_operands(z, c);
   }
   if (!z->failed)
      take_form(z->sh, in);
}

static void
legalize_instr(struct lgz *z, struct ir_instr *in)
{
   struct ir_shader *sh = z->sh;
   use_zero_register(sh, in);
   enum place p1[ISA_MAX_SRC], p2[ISA_MAX_SRC], *place = p1;
   unsigned m1 = 0, m2 = 0, mask, op1;
   int a, b;
   bool ok1 = plan_op(sh, in, p1, &m1, &op1), ok2 = false;
   bool same = !plan_has_effects(sh); /* in is still the record planned as p1 */
   if (!(ok1 && !m1) && can_swap(sh, in, &a, &b)) {
      swap_operands(sh, in, a, b);
      ok2 = plan(sh, in, p2, &m2);
      swap_operands(sh, in, a, b);
   }
   if (ok2 && take_swap(sh, z->ctx, in, a, b, ok1, m1, m2)) {
      path(sh, LGZ_PATH_SWAP_POST);
      struct isa_insn before = in->mach->insn;
      swap_operands(sh, in, a, b);
      swap_note(z->ctx, sh, in, a, b, &before);
      mask = m2;
      place = p2;
      same = false;
   } else if (ok1) {
      mask = m1;
   } else {
      lgz_error(z, in, "no legal form");
      return;
   }
   struct ir_mach *m = in->mach;
   unsigned ncopies = 0;
   for (unsigned k = 0; k < m->insn.nsrc && !z->failed; k++) {
      if (!m->count[k])
         continue;
      struct ir_instr *const *src = &in->src[m->first[k]];
      if (mask & (1u << k)) {
         same = false;
         path(sh, LGZ_PATH_COPY_POST);
         int r = scratch_reg(z, in, ncopies++);
         if (r < 0) {
            lgz_error(z, in, "unsupported: no register free for an operand copy");
            return;
         }
         struct ir_instr *c = opt_copy_before(sh, in, *src);
         ir_mach_get(sh->model, c)->reg = (struct ir_reg){(int16_t)z->f.gpr, (uint16_t)r, 1};
         ir_set_src(in, m->first[k], c);
         legalize_instr(z, c); /* its own operand: an immediate too wide, a constant */
      } else if (place[k] == PLACE_CONST && (*src)->op == IR_OP_IMM && !ir_has_reg(*src)) {
         same = false;
         path(sh, LGZ_PATH_CONST);
         struct ir_instr *c = const_imm(z, (uint32_t)(*src)->imm);
         if (!c)
            lgz_error(z, in, "unsupported: the constant file is full");
         else
            ir_set_src(in, m->first[k], c);
      } else if (place[k] == PLACE_IMM && (*src)->op == IR_OP_IMM) {
         path(sh, LGZ_PATH_INLINE);
      }
   }
   if (!z->failed && same && op1 != in->mach->insn.op) /* take_form's plan: the same */
      set_op(sh->model, &in->mach->insn, op1);
   else if (!z->failed && !same)
      take_form(sh, in);
   if (!z->failed &&
       (opt_fault(z->ctx, OPT_FAULT_IMM_TRUNC) || opt_fault(z->ctx, OPT_FAULT_FFMA_I20)))
      fault_immediates(z, in);
}

static void
check_final(struct lgz *z, struct ir_instr *in)
{
   struct isa_insn rec;
   opt_mach_record(in, &rec);
   /* the verdict from the compile's memo; the message only for a refusal */
   if (opt_check_insn(z->sh->fault_ctx, z->sh->model, &rec) == ISA_ERR_OK)
      return;
   struct diag_list d = {0};
   if (isa_check_insn(z->sh->model, &rec, &d) != ISA_ERR_OK) {
      char *why =
          xasprintf("not encodable (%s)", diag_first_error(&d) ? diag_first_error(&d) : "?");
      lgz_error(z, in, why);
      free(why);
   }
   diag_clear(&d);
}

/* The name of in as an item after RA, the same in every compile that
 * differs only in which items are conservative: an instruction isel made
 * by its value ("%19"); a copy made since (by legalization or RA, whose
 * ids shift with those choices) as the instruction it feeds ("%19": the
 * copies an operand needs go with their reader, so a conservative
 * reader's copies are too, as in the whole stage's variant), else by its
 * place after the last instruction isel made in its block ("%19+2", "@B+1"
 * from the block's start). */
static void
after_ra_item(const struct opt_ctx *ctx, const struct ir_instr *in, char *buf, size_t size)
{
   unsigned first = ctx->cons_first_made;
   if (!first || in->id < first) {
      snprintf(buf, size, "%%%u", in->id);
      return;
   }
   for (const struct ir_instr *u = in->next; u; u = u->next) {
      if (u->op != IR_OP_MACH || u->id >= first)
         continue;
      for (unsigned k = 0; k < u->mach->insn.nsrc; k++)
         if (u->mach->count[k] && u->src[u->mach->first[k]] == in) {
            snprintf(buf, size, "%%%u", u->id);
            return;
         }
   }
   unsigned n = 1;
   const struct ir_instr *a = in->prev;
   for (; a && (a->op != IR_OP_MACH || a->id >= first); a = a->prev)
      n += a->op == IR_OP_MACH;
   if (a)
      snprintf(buf, size, "%%%u+%u", a->id, n);
   else
      snprintf(buf, size, "@%u+%u", in->block ? in->block->index : 0, n);
}

bool
opt_legalize(struct ir_shader *sh, struct opt_ctx *ctx)
{
   if (!sh->model)
      return false;
   struct lgz z = {.sh = sh, .ctx = ctx, .f = find_files(sh->model)};
   if (z.f.cnst >= 0) {
      struct isa_file_info fi;
      isa_file_info(sh->model, (unsigned)z.f.cnst, &fi);
      z.nconst = fi.count;
   }
   z.cused = xcalloc(z.nconst + 1, sizeof(bool));
   for (unsigned i = 0; i < sh->nvalues; i++) { /* slots already taken (a fixture's input) */
      const struct ir_instr *v = sh->values[i];
      if (v && !v->removed && ir_has_reg(v) && v->mach->reg.file == z.f.cnst) {
         z.cused[v->mach->reg.index] = true;
         if (v->op == IR_OP_IMM)
            VEC_PUSH(z.cimm, z.ncimm, z.cimm_cap, (struct ir_instr *)v);
      }
   }
   reserve_relative(&z);
   place_constants(&z);
   ir_compute_cfg(sh);
   bool cons = opt_stage_conservative(ctx, OPT_STAGE_LEGALIZE);
   if (cons)
      ir_validate_liveness(sh, &z.lv);
   else
      ir_liveness(sh, &z.lv);
   struct ir_instr **order;
   unsigned n = ir_program_order(sh, &order);
   for (unsigned i = 0; i < n && !z.failed; i++) {
      if (order[i]->op != IR_OP_MACH)
         continue;
      char item[48];
      if (cons)
         after_ra_item(ctx, order[i], item, sizeof(item));
      if (cons && opt_conservative(ctx, OPT_STAGE_LEGALIZE, order[i]->line, "after-ra %s", item))
         legalize_plain_post(&z, order[i]);
      else
         legalize_instr(&z, order[i]);
   }
   free(order);
   const struct ir_instr *g = NULL;
   if (!z.failed && !opt_guard_breaks(sh, false, &g)) /* the copies of a predicated break */
      lgz_error(&z, (struct ir_instr *)g, "a differently guarded instruction before a break");
   n = ir_program_order(sh, &order); /* with the copies */
   for (unsigned i = 0; i < n && !z.failed; i++)
      if (order[i]->op == IR_OP_MACH)
         check_final(&z, order[i]);
   free(order);
   ir_liveness_free(&z.lv);
   free(z.cused);
   free(z.cimm);
   sh->cfg_valid = false;
   return true;
}

/* The paths above on model m as coverage points (zero: where the model
 * has a zero register; the constant file: where it has one); none on a
 * model the agx pipeline compiles (opt_agx.c: the reference's items and
 * its own passes, no legalizer). */
void
opt_legalize_cover_declare(const struct isa_model *m)
{
   if (opt_agx_model(m))
      return;
   struct files f = find_files(m);
   struct isa_file_info fi = {.fixed = -1};
   if (f.gpr >= 0)
      isa_file_info(m, (unsigned)f.gpr, &fi);
   for (unsigned p = 0; p < LGZ_PATH_COUNT; p++) {
      if (p == LGZ_PATH_ZERO && (fi.fixed < 0 || fi.fixed_value))
         continue; /* no zero register (use_zero_register) */
      if (p == LGZ_PATH_CONST && f.cnst < 0)
         continue; /* no constant file (const_imm): immediates stay inline */
      char *t = xasprintf("%s: %s", isa_model_name(m), lgz_path_text[p]);
      cover_declare("legalize", t);
      free(t);
   }
}
