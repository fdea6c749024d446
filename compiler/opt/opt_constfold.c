/*
 * Constant folding: an instruction whose sources are all 32-bit immediates
 * becomes the immediate it computes.
 *
 * The value comes from the ISA semantics functions (isa/sem.h), the same
 * functions the emulator runs, so folding gives the bits the target would
 * have computed: NaN results are the canonical quiet NaN, fmin/fmax order
 * -0 below +0, float-to-int conversions saturate, transcendentals are the
 * correctly rounded libm results. Where the IR leaves a result to the
 * target (APPROX and UNDEF ops, fmin/fmax of +-0) that is the target's
 * answer; everywhere else sem.h and the IR agree. Folding is therefore
 * exact, and applies to precise and invariant values too.
 *
 * Ops without a sem.h function are left alone rather than computed another
 * way: imul, division and modulo, fdiv, ffract, fpow, fldexp, bit-field
 * ops, find_lsb, and everything 64-bit.
 */
#include "compiler/ir/ir.h"
#include "isa/sem.h"

#include <stdlib.h>

static uint32_t
mask(uint32_t sem_bool)
{
   return sem_bool ? ~0u : 0u;
}

static uint32_t
one_or_zero(uint32_t sem_bool)
{
   return sem_bool ? 0x3f800000u : 0u;
}

/* The value of a 32-bit op on s[] as the target computes it, or false if
 * sem.h has no function for the op. The IR evaluator uses it too, so
 * folding and evaluation cannot disagree. */
bool
opt_fold_op(enum ir_op op, const uint32_t *s, uint32_t *r)
{
   uint32_t a = s[0], b = s[1], c = s[2];
   switch (op) {
   case IR_OP_FADD:
      *r = sem_fadd(a, b);
      break;
   case IR_OP_FMUL:
      *r = sem_fmul(a, b);
      break;
   case IR_OP_FMAD:
      *r = sem_fmad(a, b, c);
      break;
   case IR_OP_FFMA:
      *r = sem_ffma(a, b, c);
      break;
   case IR_OP_FMIN:
      *r = sem_fmin(a, b);
      break;
   case IR_OP_FMAX:
      *r = sem_fmax(a, b);
      break;
   case IR_OP_FNEG:
      *r = sem_fneg(a);
      break;
   case IR_OP_FABS:
      *r = sem_fabs(a);
      break;
   case IR_OP_FSAT:
      *r = sem_fsat(a);
      break;
   case IR_OP_FRCP:
      *r = sem_rcp(a);
      break;
   case IR_OP_FRSQ:
      *r = sem_rsq(a);
      break;
   case IR_OP_FSQRT:
      *r = sem_sqrt(a);
      break;
   case IR_OP_FEXP2:
      *r = sem_exp2(a);
      break;
   case IR_OP_FLOG2:
      *r = sem_log2(a);
      break;
   case IR_OP_FSIN:
      *r = sem_sin(a);
      break;
   case IR_OP_FCOS:
      *r = sem_cos(a);
      break;
   case IR_OP_FFLOOR:
      *r = sem_ffloor(a);
      break;
   case IR_OP_FCEIL:
      *r = sem_fceil(a);
      break;
   case IR_OP_FTRUNC:
      *r = sem_ftrunc(a);
      break;
   case IR_OP_FROUND_EVEN:
      *r = sem_frndne(a);
      break;
   case IR_OP_FSIGN:
      *r = sem_fsign(a);
      break;
   case IR_OP_FEQ:
      *r = mask(sem_fcmp(SEM_EQ, a, b));
      break;
   case IR_OP_FNE:
      *r = mask(sem_fcmp(SEM_NE, a, b));
      break;
   case IR_OP_FLT:
      *r = mask(sem_fcmp(SEM_LT, a, b));
      break;
   case IR_OP_FGE:
      *r = mask(sem_fcmp(SEM_GE, a, b));
      break;
   case IR_OP_SEQ:
      *r = one_or_zero(sem_fcmp(SEM_EQ, a, b));
      break;
   case IR_OP_SNE:
      *r = one_or_zero(sem_fcmp(SEM_NE, a, b));
      break;
   case IR_OP_SLT:
      *r = one_or_zero(sem_fcmp(SEM_LT, a, b));
      break;
   case IR_OP_SGE:
      *r = one_or_zero(sem_fcmp(SEM_GE, a, b));
      break;
   case IR_OP_IEQ:
      *r = mask(sem_ucmp(SEM_EQ, a, b));
      break;
   case IR_OP_INE:
      *r = mask(sem_ucmp(SEM_NE, a, b));
      break;
   case IR_OP_ILT:
      *r = mask(sem_scmp(SEM_LT, a, b));
      break;
   case IR_OP_IGE:
      *r = mask(sem_scmp(SEM_GE, a, b));
      break;
   case IR_OP_ULT:
      *r = mask(sem_ucmp(SEM_LT, a, b));
      break;
   case IR_OP_UGE:
      *r = mask(sem_ucmp(SEM_GE, a, b));
      break;
   case IR_OP_BCSEL:
      *r = sem_sel(b, a, c);
      break;
   case IR_OP_IADD:
      *r = sem_iadd(a, b);
      break;
   case IR_OP_ISUB:
      *r = sem_isub(a, b);
      break;
   case IR_OP_INEG:
      *r = sem_ineg(a);
      break;
   case IR_OP_IABS:
      *r = sem_iabs(a);
      break;
   case IR_OP_IAND:
      *r = sem_and(a, b);
      break;
   case IR_OP_IOR:
      *r = sem_or(a, b);
      break;
   case IR_OP_IXOR:
      *r = sem_xor(a, b);
      break;
   case IR_OP_INOT:
      *r = sem_not(a);
      break;
   case IR_OP_ISHL:
      *r = sem_shl(a, b);
      break;
   case IR_OP_USHR:
      *r = sem_shr(a, b);
      break;
   case IR_OP_ISHR:
      *r = sem_ashr(a, b);
      break;
   case IR_OP_IMIN:
      *r = sem_smin(a, b);
      break;
   case IR_OP_IMAX:
      *r = sem_smax(a, b);
      break;
   case IR_OP_UMIN:
      *r = sem_umin(a, b);
      break;
   case IR_OP_UMAX:
      *r = sem_umax(a, b);
      break;
   case IR_OP_BITREV:
      *r = sem_bfrev(a);
      break;
   case IR_OP_BITCOUNT:
      *r = sem_cbits(a);
      break;
   case IR_OP_UFIND_MSB:
      *r = 31u - sem_clz_b(a);
      break; /* 0 -> -1 */
   case IR_OP_IFIND_MSB:
      *r = 31u - sem_clz_s(a);
      break; /* 0, -1 -> -1 */
   case IR_OP_F2I:
      *r = sem_f2i(a, 1, 0);
      break;
   case IR_OP_F2U:
      *r = sem_f2i(a, 0, 0);
      break;
   case IR_OP_I2F:
      *r = sem_i2f(a, 1);
      break;
   case IR_OP_U2F:
      *r = sem_i2f(a, 0);
      break;
   case IR_OP_PACK_HALF: /* TGSI packs every NaN as 0x7e00; isel canonicalizes first */
      *r = sem_f32_to_f16(sem_isnan(a) ? SEM_CANON_NAN : a) |
           sem_f32_to_f16(sem_isnan(b) ? SEM_CANON_NAN : b) << 16;
      break;
   case IR_OP_UNPACK_HALF_LO:
      *r = sem_f16_to_f32(a & 0xffffu);
      break;
   case IR_OP_UNPACK_HALF_HI:
      *r = sem_f16_to_f32(a >> 16);
      break;
   default:
      return false;
   }
   return true;
}

/* The value a faulty folder computes for op on s[] (the fold faults of
 * issue 14: wrong signedness, shift kind, NaN or signed zero), and the
 * fault; OPT_FAULT_COUNT when no injected fault computes it otherwise. */
static enum opt_fault
faulty_fold(const struct opt_ctx *ctx, enum ir_op op, const uint32_t *s, uint32_t *r)
{
   uint32_t a = s[0], b = s[1];
   enum opt_fault f = OPT_FAULT_COUNT;
   uint32_t v = 0;
   switch (op) {
   case IR_OP_ILT:
   case IR_OP_IGE:
      f = OPT_FAULT_FOLD_SCMP_UNSIGNED;
      v = mask(sem_ucmp(op == IR_OP_ILT ? SEM_LT : SEM_GE, a, b));
      break;
   case IR_OP_IMIN:
   case IR_OP_IMAX:
      f = OPT_FAULT_FOLD_SMINMAX_UNSIGNED;
      v = op == IR_OP_IMIN ? sem_umin(a, b) : sem_umax(a, b);
      break;
   case IR_OP_ISHR:
      f = OPT_FAULT_FOLD_ASHR_LOGICAL;
      v = sem_shr(a, b);
      break;
   case IR_OP_USHR:
      f = OPT_FAULT_FOLD_USHR_ARITH;
      v = sem_ashr(a, b);
      break;
   case IR_OP_I2F:
      f = OPT_FAULT_FOLD_I2F_UNSIGNED;
      v = sem_i2f(a, 0);
      break;
   case IR_OP_F2I:
      f = OPT_FAULT_FOLD_F2I_NEAREST;
      v = sem_f2i(a, 1, 1);
      break;
   case IR_OP_FMIN:
   case IR_OP_FMAX:
      f = OPT_FAULT_FOLD_FMIN_C;
      /* a < b ? a : b and a > b ? a : b */
      v = (op == IR_OP_FMIN ? sem_fcmp(SEM_LT, a, b) : sem_fcmp(SEM_LT, b, a)) ? a : b;
      break;
   case IR_OP_FFLOOR:
      f = OPT_FAULT_FOLD_FLOOR_TRUNC;
      v = sem_ftrunc(a);
      break;
   case IR_OP_FROUND_EVEN:
      f = OPT_FAULT_FOLD_ROUND_AWAY;
      v = sem_frndaz(a);
      break;
   default:
      break;
   }
   if (f == OPT_FAULT_COUNT || !opt_fault(ctx, f) || v == *r)
      return OPT_FAULT_COUNT;
   *r = v;
   return f;
}

/* sin and cos fold to the correctly rounded result only where the target
 * computes that (ops of semantics sin and cos); gfx9's v_sin_f32 takes
 * revolutions, x / (2 pi) rounded first, so there they stay instructions. */
static bool
target_folds(const struct opt_ctx *ctx, enum ir_op op)
{
   return !ctx->opts.trig_unfolded || (op != IR_OP_FSIN && op != IR_OP_FCOS);
}

bool
opt_constfold(struct ir_shader *sh, struct opt_ctx *ctx)
{
   struct ir_instr **order;
   unsigned n = ir_program_order(sh, &order);
   bool progress = false;
   for (unsigned i = 0; i < n; i++) {
      struct ir_instr *in = order[i];
      const struct ir_op_info *info = &ir_op_info[in->op];
      if (in->type != IR_TYPE_32 || info->nsrc == 0 || info->nsrc > 4 || in->op == IR_OP_MOV)
         continue;
      uint32_t s[4] = {0, 0, 0, 0}, r;
      bool all_imm = true;
      for (unsigned k = 0; k < in->nsrc; k++) {
         all_imm &= in->src[k]->op == IR_OP_IMM && in->src[k]->type == IR_TYPE_32;
         if (all_imm)
            s[k] = (uint32_t)in->src[k]->imm;
      }
      if (!all_imm || !target_folds(ctx, in->op) || !opt_fold_op(in->op, s, &r))
         continue;
      uint32_t good = r;
      enum opt_fault f =
          opt_fault_set_any(&ctx->opts.faults) ? faulty_fold(ctx, in->op, s, &r) : OPT_FAULT_COUNT;
      char val[64];
      ir_format_imm(val, sizeof(val), r, false);
      if (f != OPT_FAULT_COUNT &&
          !opt_fault_fires(ctx, f, "%%%u = %s -> %s", in->id, info->name, val)) {
         r = good; /* past the limit: the correct fold, counted as one */
         ir_format_imm(val, sizeof(val), r, false);
         f = OPT_FAULT_COUNT;
      }
      if (f == OPT_FAULT_COUNT && !opt_transform(ctx, "%%%u = %s -> %s", in->id, info->name, val))
         break;
      struct ir_instr *k = opt_imm_before(sh, in, r);
      k->flags = in->flags & IR_VF_INVARIANT;
      opt_replace(sh, in, k);
      progress = true;
   }
   free(order);
   return progress;
}
