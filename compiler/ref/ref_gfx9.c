/*
 * The reference compiler's AMD GFX9 target (isa/models/gfx9.yaml): the
 * scalar primitives of ref.h as VALU instructions, memory, kill and
 * branches. Conservative by design: no SDWA, every value in a VGPR
 * (TGSI homes, constants and immediates too: ref.c places them after the
 * homes and binds them per lane, consts_in_gpr), only lane masks and EXEC
 * in SGPRs; ref_hazard.c puts s_nop with the maximum after every producer
 * the model's wait-state table names and s_waitcnt with every counter at 0
 * after every memory op.
 *
 * Control flow keeps ref.c's lowest-PC reading (a branch parks its lanes
 * at the target; they join the lanes that reach it) with EXEC: every
 * label a forward branch names gets an SGPR pair of parked lanes. A
 * forward branch ORs the lanes that take it (a VOPC into vcc, which is 0
 * for lanes outside EXEC) into the pair and removes them from EXEC; a
 * forward jump parks all of EXEC; placing the label ORs the pair back
 * into EXEC and clears it. Code between runs with whatever EXEC is left,
 * possibly none (VALU ops then do nothing). A backward jump (a loop's back
 * edge) is s_cbranch_execnz: the lanes still looping go round, and when
 * none is left the wave falls through to the exit label, where the lanes
 * that broke out come back. Free pairs are always 0: the prologue clears
 * the pool, placing a label clears its pair. A pair is reused only once
 * no loop is open: a loop's exit label, first targeted late in the body,
 * holds lanes across the back edge, so no label of the body may share it.
 * Killed lanes leave EXEC and are parked nowhere, so they never come
 * back; s_endpgm discards them.
 *
 * SIN/COS scale by 1/(2 pi): the hardware's v_sin/v_cos take revolutions
 * (GFX9 any number of them; before GFX9 a reduced range, which would need
 * v_fract_f32 first). Subgroup ops work on the 64-lane wave (the
 * interpreter's subgroup on gfx9): VOPC e64 masks, v_readfirstlane_b32,
 * ds_bpermute_b32. Derivatives are DPP quad permutations (deriv()).
 * Refused, each naming what the model lacks: buffer textures, float
 * atomic add on shared memory. Doubles are VOP3
 * f64 ops on VGPR pairs v[n:n+1] (ref_fp64.c; compares are VOPC f64 into
 * vcc, min/max v_min_f64/v_max_f64, DLDEXP v_ldexp_f64; DDIV and DSQRT
 * correctly rounded from a v_rcp_f32/v_rsq_f32 seed with v_fma_f64, so
 * no f64 approximation enters). Indirect constants are the
 * generic compare-and-select over their registers (ref_ops.c).
 *
 * A shader whose homes, constants and scratch overflow the 256 VGPRs is
 * compiled in ref.c's compact layout instead (only then, so every other
 * program is unchanged): TEMPs homed by liveness, immediates written as
 * literals where they are read (v_mov_b32), constant buffers read on use
 * with global_load_dword at EMU_ADDR_CONST(b) (each lane its draw's
 * buffer), an indirect one at its index clamped to the buffer and 0
 * outside it.
 *
 * Memory: GLOBAL loads, stores and atomics (glc) at a 64-bit VGPR address
 * (the byte address, 0), DS for shared memory; textures are MIMG ops
 * whose resource and sampler descriptors (s[88:95], s[96:99]) hold the
 * texture unit in their first word, written by s_mov_b32 (SALU: no wait
 * states before a VMEM read), and whose address registers are laid out
 * as the hardware takes them (emu/tex.c). Geometry and tessellation
 * stages (inputs, outputs and s_sendmsg through memory windows) are
 * ref_gfx9_stages.c's.
 */
#include "compiler/ref/ref.h"
#include "emu/emu.h"

#include <stdio.h>
#include <string.h>

#define R(x) ref_r(c, (x))

#define MASK_PAIRS   44  /* s[0:1] .. s[86:87]: lanes parked at a label */
#define RSRC_QUAD    88  /* s[88:95]: a MIMG resource descriptor */
#define SAMP_QUAD    96  /* s[96:99]: a MIMG sampler descriptor */
#define SCRATCH_PAIR 100 /* s[100:101]: a mask for one instruction's work */

enum { SPECIAL_S }; /* c->special[]: the SGPR file */

static struct isa_opnd
sreg(struct ref_ctx *c, unsigned index)
{
   struct isa_opnd o = {.kind = ISA_OPND_REG, .file = (uint8_t)c->special[SPECIAL_S]};
   o.index = (uint16_t)index;
   return o;
}

#define VCC  sreg(c, 106)
#define EXEC sreg(c, 126)

static struct isa_insn *
emit(struct ref_ctx *c, const char *op, struct isa_opnd d, struct isa_opnd a, struct isa_opnd b,
     struct isa_opnd e)
{
   struct isa_insn *in = ref_emit(c, op);
   const struct isa_opnd src[3] = {a, b, e};
   if (in->ndst)
      in->dst[0] = d;
   for (unsigned i = 0; i < in->nsrc && i < 3; i++)
      in->src[i] = src[i];
   return in;
}

static bool
inline_int(uint32_t v)
{
   return (int32_t)v >= -16 && (int32_t)v <= 64;
}

static void
g9_mov_imm(struct ref_ctx *c, unsigned d, uint32_t v)
{
   emit(c, inline_int(v) ? "v_mov_b32_e32" : "v_mov_b32_e32_lit", R(d), ref_imm(v), ref_imm(0),
        ref_imm(0));
}

static void
g9_copy(struct ref_ctx *c, unsigned d, unsigned s)
{
   emit(c, "v_mov_b32_e32", R(d), R(s), ref_imm(0), ref_imm(0));
}

static unsigned global_addr(struct ref_ctx *c, unsigned addr, uint32_t *off);
static unsigned g9_prim(struct ref_ctx *c, enum ref_prim op, unsigned a, unsigned b, unsigned e);

/* d = the constant word at byte address (EMU_ADDR_CONST(b) + byte), each
 * lane reading its draw's buffer (a VMEM load; compact layout). */
static void
const_word(struct ref_ctx *c, unsigned d, unsigned byte)
{
   uint32_t off = 0;
   unsigned a = global_addr(c, byte, &off);
   emit(c, "global_load_dword", R(d), R(a), ref_imm(off), ref_imm(0));
}

static unsigned
g9_load_const(struct ref_ctx *c, unsigned slot)
{
   unsigned d = ref_tmp(c);
   int r = ref_const_reg(c, slot);
   if (r >= 0) {
      g9_copy(c, d, (unsigned)r);
      return d;
   }
   if (slot < c->creg_from) { /* compact: an immediate, as a literal */
      g9_mov_imm(c, d, c->s->imms[slot / 4].u[slot % 4]);
      return d;
   }
   unsigned b = 0;
   while (b < 15 && slot / 4 >= c->cbase[b] + c->ccount[b])
      b++;
   g9_mov_imm(c, d, EMU_ADDR_CONST(b) + (slot - c->cbase[b] * 4) * 4);
   const_word(c, d, d);
   return d;
}

/* Compact layout: CONST[b][ADDR + index] from memory at the index
 * clamped to the buffer, 0 outside it (the interpreter's rule, as
 * sm50's LDC). Other files: the generic compare-and-select. */
static bool
g9_load_indirect(struct ref_ctx *c, const struct tgsi_reg *r, unsigned comp, unsigned *out)
{
   if (ref_g9_input_indirect(c, r, comp, out))
      return true;
   int64_t b = r->has_dim ? r->dim : 0;
   if (!c->cmem_from || r->file != TGSI_FILE_CONST || b < 0 || b >= 16 || !c->ccount[b])
      return false;
   struct tgsi_reg ar = {.file = r->ind.file, .index = (int32_t)r->ind.index};
   int a = ref_home(c, &ar, r->ind.comp);
   *out = 0;
   if (a < 0 || r->dim_indirect) {
      ref_unsupported(c, "indirect addressing through %s",
                      r->dim_indirect ? "a dimension (the buffer chosen per lane)"
                                      : "this register");
      return true;
   }
   unsigned res = ref_tmp(c), mark = c->scratch_next; /* the steps' temporaries die here */
   unsigned i0 = g9_prim(c, REF_P_IADD, (unsigned)a, ref_imm_reg(c, (uint32_t)r->index), 0);
   unsigned i1 = g9_prim(c, REF_P_IMAX, i0, ref_imm_reg(c, 0), 0);
   unsigned i2 = g9_prim(c, REF_P_IMIN, i1, ref_imm_reg(c, c->ccount[b] - 1), 0);
   unsigned byte = g9_prim(c, REF_P_SHL, i2, ref_imm_reg(c, 4), 0);
   byte = g9_prim(c, REF_P_IADD, byte, ref_imm_reg(c, EMU_ADDR_CONST(b) + comp * 4), 0);
   unsigned v = ref_tmp(c);
   const_word(c, v, byte);
   unsigned ok = g9_prim(c, REF_P_IEQ, i0, i2, 0);
   g9_copy(c, res, g9_prim(c, REF_P_SEL, v, ok, ref_imm_reg(c, 0)));
   c->scratch_next = mark;
   *out = res;
   return true;
}

static bool
g9_init(struct ref_ctx *c)
{
   int s = isa_file_find(c->m, "s");
   if (s < 0)
      return ref_error(c, "model %s has no SGPR file 's'", isa_model_name(c->m)), false;
   c->special[SPECIAL_S] = (unsigned)s;
   return true;
}

/* ------------------------------------------------------------------ */
/* Primitives                                                           */

static const struct {
   enum ref_prim prim;
   const char *op;
} prims[] = {
    {REF_P_FADD, "v_add_f32_e32"},     {REF_P_FMUL, "v_mul_f32_e32"},
    {REF_P_FFMA, "v_fma_f32"},         {REF_P_FMIN, "v_min_f32_e32"},
    {REF_P_FMAX, "v_max_f32_e32"},     {REF_P_FFLOOR, "v_floor_f32_e32"},
    {REF_P_FCEIL, "v_ceil_f32_e32"},   {REF_P_FTRUNC, "v_trunc_f32_e32"},
    {REF_P_FRNDNE, "v_rndne_f32_e32"}, {REF_P_FRCP, "v_rcp_f32_e32"},
    {REF_P_FRSQ, "v_rsq_f32_e32"},     {REF_P_FSQRT, "v_sqrt_f32_e32"},
    {REF_P_FEXP2, "v_exp_f32_e32"},    {REF_P_FLOG2, "v_log_f32_e32"},
    {REF_P_IADD, "v_add_u32_e32"},     {REF_P_ISUB, "v_sub_u32_e32"},
    {REF_P_IMUL, "v_mul_lo_u32"},      {REF_P_IMIN, "v_min_i32_e32"},
    {REF_P_IMAX, "v_max_i32_e32"},     {REF_P_UMIN, "v_min_u32_e32"},
    {REF_P_UMAX, "v_max_u32_e32"},     {REF_P_AND, "v_and_b32_e32"},
    {REF_P_OR, "v_or_b32_e32"},        {REF_P_XOR, "v_xor_b32_e32"},
    {REF_P_NOT, "v_not_b32_e32"},      {REF_P_SHL, "v_lshlrev_b32_e32"},
    {REF_P_SHR, "v_lshrrev_b32_e32"},  {REF_P_ASHR, "v_ashrrev_i32_e32"},
    {REF_P_BREV, "v_bfrev_b32_e32"},   {REF_P_F2I, "v_cvt_i32_f32_e32"},
    {REF_P_F2U, "v_cvt_u32_f32_e32"},  {REF_P_I2F, "v_cvt_f32_i32_e32"},
    {REF_P_U2F, "v_cvt_f32_u32_e32"},  {REF_P_F2H, "v_cvt_f16_f32_e32"},
    {REF_P_H2F, "v_cvt_f32_f16_e32"},
};

/* Compares: a VOPC into vcc, then 1 or 0. */
static const struct {
   enum ref_prim prim;
   const char *op;
} cmps[] = {
    {REF_P_FLT, "v_cmp_lt_f32_e32"}, {REF_P_FLE, "v_cmp_le_f32_e32"},
    {REF_P_FGT, "v_cmp_gt_f32_e32"}, {REF_P_FGE, "v_cmp_ge_f32_e32"},
    {REF_P_FEQ, "v_cmp_eq_f32_e32"}, {REF_P_FNE, "v_cmp_neq_f32_e32"},
    {REF_P_ILT, "v_cmp_lt_i32_e32"}, {REF_P_IGE, "v_cmp_ge_i32_e32"},
    {REF_P_IGT, "v_cmp_gt_i32_e32"}, {REF_P_ULT, "v_cmp_lt_u32_e32"},
    {REF_P_UGE, "v_cmp_ge_u32_e32"}, {REF_P_IEQ, "v_cmp_eq_u32_e32"},
    {REF_P_INE, "v_cmp_ne_u32_e32"},
};

/* vcc = cond(a, b) for the active lanes (a VOPC: vsrc1 is a VGPR). */
static void
vopc(struct ref_ctx *c, const char *op, struct isa_opnd a, unsigned b)
{
   struct isa_insn *in = ref_emit(c, op);
   in->src[0] = a;
   in->src[1] = R(b);
}

/* d = vcc ? 1 : 0 */
static void
from_vcc(struct ref_ctx *c, unsigned d)
{
   struct isa_insn *in = ref_emit(c, "v_cndmask_b32_e64");
   in->dst[0] = R(d);
   in->src[0] = ref_imm(1); /* slot order: the true value, the mask, the false value */
   in->src[1] = VCC;
   in->src[2] = ref_imm(0);
}

static unsigned
g9_prim(struct ref_ctx *c, enum ref_prim op, unsigned a, unsigned b, unsigned e)
{
   unsigned d = ref_tmp(c);
   for (unsigned k = 0; k < ARRAY_SIZE(prims); k++)
      if (prims[k].prim == op) {
         emit(c, prims[k].op, R(d), R(a), R(b), R(e));
         return d;
      }
   for (unsigned k = 0; k < ARRAY_SIZE(cmps); k++)
      if (cmps[k].prim == op) {
         vopc(c, cmps[k].op, R(a), b);
         from_vcc(c, d);
         return d;
      }
   unsigned t;
   switch (op) {
   case REF_P_FMAD: /* two roundings: v_mad_f32 flushes denormals */
      t = g9_prim(c, REF_P_FMUL, a, b, 0);
      emit(c, "v_add_f32_e32", R(d), R(t), R(e), R(0));
      return d;
   case REF_P_FSIN: /* v_sin/v_cos take revolutions: x / (2 pi), any range on GFX9 */
   case REF_P_FCOS:
      t = g9_prim(c, REF_P_FMUL, a, ref_imm_reg(c, 0x3e22f983u), 0);
      emit(c, op == REF_P_FSIN ? "v_sin_f32_e32" : "v_cos_f32_e32", R(d), R(t), R(0), R(0));
      return d;
   case REF_P_FNEG:
      emit(c, "v_xor_b32_e32_lit", R(d), ref_imm(0x80000000u), R(a), R(0));
      return d;
   case REF_P_FABS:
      emit(c, "v_and_b32_e32_lit", R(d), ref_imm(0x7fffffffu), R(a), R(0));
      return d;
   case REF_P_INEG:
      emit(c, "v_sub_u32_e32", R(d), ref_imm(0), R(a), R(0));
      return d;
   case REF_P_F2I_FLOOR:
      t = g9_prim(c, REF_P_FFLOOR, a, 0, 0);
      emit(c, "v_cvt_i32_f32_e32", R(d), R(t), R(0), R(0));
      return d;
   case REF_P_SEL: /* b != 0 ? a : e */
      vopc(c, "v_cmp_ne_u32_e32", ref_imm(0), b);
      emit(c, "v_cndmask_b32_e32", R(d), R(e), R(a), R(0));
      return d;
   case REF_P_POPC: { /* the SWAR sum: pairs, nibbles, bytes, then a multiply */
      static const uint32_t m[3] = {0x55555555u, 0x33333333u, 0x0f0f0f0fu};
      unsigned x = a;
      for (unsigned k = 0; k < 3; k++) {
         unsigned sh = 1u << k, mk = ref_imm_reg(c, m[k]);
         unsigned hi =
             g9_prim(c, REF_P_AND, g9_prim(c, REF_P_SHR, x, ref_imm_reg(c, sh), 0), mk, 0);
         unsigned lo = g9_prim(c, REF_P_AND, x, mk, 0);
         x = g9_prim(c, REF_P_IADD, lo, hi, 0);
      }
      t = g9_prim(c, REF_P_IMUL, x, ref_imm_reg(c, 0x01010101u), 0);
      emit(c, "v_lshrrev_b32_e32", R(d), R(t), ref_imm(24), R(0));
      return d;
   }
   case REF_P_IMSB: /* the highest bit of a ^ (a >> 31), as UMSB */
      t = g9_prim(c, REF_P_ASHR, a, ref_imm_reg(c, 31), 0);
      return g9_prim(c, REF_P_UMSB, g9_prim(c, REF_P_XOR, a, t, 0), 0, 0);
   case REF_P_UMSB: { /* 31 - v_ffbh_u32, and -1 for 0 (v_ffbh_u32 gives ~0) */
      t = ref_tmp(c);
      emit(c, "v_ffbh_u32_e32", R(t), R(a), R(0), R(0));
      unsigned x = g9_prim(c, REF_P_ISUB, ref_imm_reg(c, 31), t, 0);
      vopc(c, "v_cmp_ne_u32_e32", ref_imm(0), a);
      emit(c, "v_cndmask_b32_e32", R(d), R(ref_imm_reg(c, 0xffffffffu)), R(x), R(0));
      return d;
   }
   default:
      ref_unsupported(c, "%s", "the gfx9 reference has no expansion for this operation");
      return d;
   }
}

/* ------------------------------------------------------------------ */
/* Doubles: VOP3 f64 ops on VGPR pairs (ref_fp64.c expands the rest)     */

static struct isa_opnd
g9_none(struct ref_ctx *c)
{
   (void)c;
   return ref_imm(0);
}

/* vcc = a COND b (v_cmp_*_f64_e32; ne is neq, true on NaN), then 1 or ~0. */
static unsigned
g9_dcmp(struct ref_ctx *c, const char *cond, unsigned a, unsigned b, bool mask)
{
   char op[32];
   snprintf(op, sizeof(op), "v_cmp_%s_f64_e32", strcmp(cond, "ne") ? cond : "neq");
   vopc(c, op, R(a), b);
   unsigned d = ref_tmp(c);
   struct isa_insn *in = ref_emit(c, "v_cndmask_b32_e64");
   in->dst[0] = R(d);
   in->src[0] = ref_imm(mask ? ~0u : 1u); /* the true value, the mask, the false value */
   in->src[1] = VCC;
   in->src[2] = ref_imm(0);
   return d;
}

static unsigned
g9_dminmax(struct ref_ctx *c, unsigned a, unsigned b, bool max)
{
   unsigned d = ref_tmp(c);
   if (d & 1)
      d = ref_tmp(c);
   ref_tmp(c);
   emit(c, max ? "v_max_f64" : "v_min_f64", R(d), R(a), R(b), ref_imm(0));
   return d;
}

static const struct ref_fp64 g9_fp64 = {
    .add = "v_add_f64",
    .mul = "v_mul_f64",
    .fma = "v_fma_f64",
    .f2d = "v_cvt_f64_f32_e32",
    .d2f = "v_cvt_f32_f64_e32",
    .i2d = "v_cvt_f64_i32_e32",
    .u2d = "v_cvt_f64_u32_e32",
    .d2i = "v_cvt_i32_f64_e32",
    .d2u = "v_cvt_u32_f64_e32",
    .floor = "v_floor_f64_e32",
    .ceil = "v_ceil_f64_e32",
    .trunc = "v_trunc_f64_e32",
    .rndne = "v_rndne_f64_e32",
    .ldexp = "v_ldexp_f64",
    .rcp32 = "v_rcp_f32_e32",
    .rsq32 = "v_rsq_f32_e32",
    .none = g9_none,
    .cmp = g9_dcmp,
    .minmax = g9_dminmax,
};

/* ------------------------------------------------------------------ */
/* Control flow: lanes parked at labels, in SGPR pairs                   */

/* Label l may take a free pair last freed when at most this many labels
 * had been made. A label parked in a loop's body and placed after the loop
 * (the loop's exit, or a label made before the loop began, as a call's
 * return) keeps its lanes across the back edge, where the body's own
 * labels park theirs again: it cannot take a pair one of them used. The
 * body's labels are all made after the loop's exit label. */
static unsigned
reuse_bound(const struct ref_ctx *c, int l)
{
   unsigned bound = ~0u;
   for (unsigned f = 0; f < c->ncf; f++)
      if (c->cf[f].kind == REF_CF_LOOP && (l < c->cf[f].l_top || l == c->cf[f].l_exit))
         bound = MIN2(bound, (unsigned)c->cf[f].l_exit);
   return bound;
}

/* The pair of label l (allocated on first use), or -1 after a refusal. */
static int
mask_pair(struct ref_ctx *c, int l, bool make)
{
   for (unsigned k = 0; k < c->nmask_pairs; k++)
      if (c->mask_label[k] == l)
         return (int)k;
   if (!make)
      return -1;
   unsigned bound = reuse_bound(c, l);
   for (unsigned k = 0; k < c->nmask_pairs; k++)
      if (c->mask_label[k] == -1 && c->mask_freed[k] <= bound) {
         c->mask_label[k] = l;
         return (int)k;
      }
   ref_unsupported(c, "more than %u labels with lanes waiting (SGPR pairs)", c->nmask_pairs);
   return -1;
}

static void
park(struct ref_ctx *c, int label, struct isa_opnd lanes)
{
   int k = mask_pair(c, label, true);
   if (k < 0)
      return;
   emit(c, "s_or_b64", sreg(c, 2u * (unsigned)k), sreg(c, 2u * (unsigned)k), lanes, ref_imm(0));
}

static void
g9_place(struct ref_ctx *c, int label)
{
   int k = mask_pair(c, label, false);
   if (k < 0)
      return;
   struct isa_opnd w = sreg(c, 2u * (unsigned)k);
   emit(c, "s_or_b64", EXEC, EXEC, w, ref_imm(0));
   emit(c, "s_mov_b64", w, ref_imm(0), ref_imm(0), ref_imm(0));
   c->mask_label[k] = -1;
   c->mask_freed[k] = c->nlabels;
}

static void
g9_jump(struct ref_ctx *c, int label)
{
   if (c->labels[label] >= 0) { /* backward: the lanes still running go round */
      emit(c, "s_cbranch_execnz", R(0), ref_imm(0), ref_imm(0), ref_imm(0));
      ref_branch_to(c, label, 0);
      return;
   }
   park(c, label, EXEC);
   emit(c, "s_mov_b64", EXEC, ref_imm(0), ref_imm(0), ref_imm(0));
}

static void
g9_branch(struct ref_ctx *c, enum ref_test test, unsigned a, unsigned b, bool when, int label)
{
   switch (test) {
   case REF_TEST_FLOAT_NZ: /* != 0.0 with NaN true; its negation: == 0.0 ordered */
      vopc(c, when ? "v_cmp_neq_f32_e32" : "v_cmp_eq_f32_e32", ref_imm(0), a);
      break;
   case REF_TEST_INT_NZ:
      vopc(c, when ? "v_cmp_ne_u32_e32" : "v_cmp_eq_u32_e32", ref_imm(0), a);
      break;
   default:
      vopc(c, when ? "v_cmp_eq_u32_e32" : "v_cmp_ne_u32_e32", R(a), b);
      break;
   }
   if (c->labels[label] >= 0) {
      /* backward: the lanes not taking it wait right after it (a label of
       * their own) while the others go round */
      int after = ref_label(c);
      emit(c, "s_andn2_b64", sreg(c, SCRATCH_PAIR), EXEC, VCC, ref_imm(0));
      park(c, after, sreg(c, SCRATCH_PAIR));
      emit(c, "s_mov_b64", EXEC, VCC, ref_imm(0), ref_imm(0));
      emit(c, "s_cbranch_execnz", R(0), ref_imm(0), ref_imm(0), ref_imm(0));
      ref_branch_to(c, label, 0);
      ref_place(c, after);
      return;
   }
   park(c, label, VCC);
   emit(c, "s_andn2_b64", EXEC, EXEC, VCC, ref_imm(0));
}

/* The pool: enough pairs for every label the shader's control flow can
 * leave lanes at, at most MASK_PAIRS; each cleared once. */
static void
g9_begin(struct ref_ctx *c)
{
   unsigned n = 2;
   for (unsigned i = 0; i < c->s->ninsns; i++)
      switch (c->s->insns[i].op) {
      case TGSI_OP_IF:
      case TGSI_OP_UIF:
      case TGSI_OP_BGNLOOP:
      case TGSI_OP_SWITCH:
      case TGSI_OP_CASE:
      case TGSI_OP_DEFAULT:
      case TGSI_OP_CAL:
         n += 2;
         break;
      case TGSI_OP_ATOMFADD: /* the loop's exit (fadd_loop) */
         n += 1;
         break;
      default:
         break;
      }
   c->nmask_pairs = MIN2(n, (unsigned)MASK_PAIRS);
   for (unsigned k = 0; k < c->nmask_pairs; k++) {
      c->mask_label[k] = -1;
      c->mask_freed[k] = 0;
      emit(c, "s_mov_b64", sreg(c, 2 * k), ref_imm(0), ref_imm(0), ref_imm(0));
   }
   ref_g9_stage_begin(c);
}

static void
g9_end(struct ref_ctx *c)
{
   ref_g9_stage_end(c);
   ref_emit(c, "s_endpgm");
}

/* ------------------------------------------------------------------ */
/* Kill, memory                                                         */

static void
g9_kill_flag(struct ref_ctx *c, unsigned flag)
{
   vopc(c, "v_cmp_ne_u32_e32", ref_imm(0), flag);
   emit(c, "s_andn2_b64", EXEC, EXEC, VCC, ref_imm(0));
}

/* ------------------------------------------------------------------ */
/* Subgroups: the 64-lane wave (the env's subgroup on gfx9)             */

/* d = the SGPR s, in every active lane. */
static unsigned
from_sgpr(struct ref_ctx *c, unsigned s)
{
   unsigned d = ref_tmp(c);
   emit(c, "v_mov_b32_e32", R(d), sreg(c, s), ref_imm(0), ref_imm(0));
   return d;
}

/* SCRATCH_PAIR = the lanes of EXEC where cmp(a, v) holds (a VOPC e64:
 * inactive lanes give 0), and SCC = any of them. */
static void
lanes_where(struct ref_ctx *c, const char *cmp, struct isa_opnd a, unsigned v)
{
   struct isa_opnd p = sreg(c, SCRATCH_PAIR);
   emit(c, cmp, p, a, R(v), ref_imm(0));
   emit(c, "s_and_b64", p, p, EXEC, ref_imm(0));
}

/* ~0 in every lane if SCC (when_scc) or not, else 0. */
static unsigned
scc_mask(struct ref_ctx *c, bool when_scc)
{
   emit(c, "s_cselect_b32", sreg(c, SCRATCH_PAIR), ref_imm(when_scc ? ~0u : 0),
        ref_imm(when_scc ? 0 : ~0u), ref_imm(0));
   return from_sgpr(c, SCRATCH_PAIR);
}

/* VOTE_ANY/ALL/EQ, BALLOT (a VOPC e64 mask: x and z the low word, y and w
 * the high), READ_FIRST (v_readfirstlane_b32), READ_INVOC (ds_bpermute_b32
 * at byte address lane * 4), as the interpreter reads them over its
 * 64-lane subgroups -- the wave. */
static void
subgroup(struct ref_ctx *c, const struct tgsi_insn *in)
{
   unsigned res[4] = {0, 0, 0, 0}, addr = 0;
   if (in->op == TGSI_OP_BALLOT) {
      lanes_where(c, "v_cmp_ne_u32_e64", ref_imm(0), ref_fetch(c, in, 0, 0));
      res[0] = res[2] = from_sgpr(c, SCRATCH_PAIR);
      res[1] = res[3] = from_sgpr(c, SCRATCH_PAIR + 1);
      ref_store(c, in, res);
      return;
   }
   if (in->op == TGSI_OP_READ_INVOC) {
      unsigned two = ref_imm_reg(c, 2);
      addr = g9_prim(c, REF_P_SHL, ref_fetch(c, in, 1, 0), two, 0);
   }
   for (unsigned ch = 0; ch < 4 && c->status == COMPILE_OK; ch++) {
      if (!(in->dst[0].mask & (1u << ch)))
         continue;
      unsigned v = ref_fetch(c, in, 0, ch);
      switch (in->op) {
      case TGSI_OP_READ_FIRST:
         emit(c, "v_readfirstlane_b32", sreg(c, SCRATCH_PAIR), R(v), ref_imm(0), ref_imm(0));
         res[ch] = from_sgpr(c, SCRATCH_PAIR);
         break;
      case TGSI_OP_READ_INVOC:
         res[ch] = ref_tmp(c);
         emit(c, "ds_bpermute_b32", R(res[ch]), R(addr), R(v), ref_imm(0));
         break;
      case TGSI_OP_VOTE_EQ: /* no active lane differs from the first */
         emit(c, "v_readfirstlane_b32", sreg(c, SCRATCH_PAIR), R(v), ref_imm(0), ref_imm(0));
         lanes_where(c, "v_cmp_ne_u32_e64", sreg(c, SCRATCH_PAIR), v);
         res[ch] = scc_mask(c, false);
         break;
      case TGSI_OP_VOTE_ALL: /* no active lane is 0 */
         lanes_where(c, "v_cmp_eq_u32_e64", ref_imm(0), v);
         res[ch] = scc_mask(c, false);
         break;
      default: /* VOTE_ANY */
         lanes_where(c, "v_cmp_ne_u32_e64", ref_imm(0), v);
         res[ch] = scc_mask(c, true);
         break;
      }
   }
   ref_store(c, in, res);
}

/* A DPP op whose src0 reads lane perm[j] of each quad (quad_perm), the
 * zero-filling bound_ctrl set (a lane whose source lane is off reads 0). */
static struct isa_insn *
quad_op(struct ref_ctx *c, const char *op, unsigned d, unsigned a, unsigned b, unsigned perm)
{
   struct isa_insn *in = emit(c, op, R(d), R(a), R(b), ref_imm(0));
   static const char *const qp[4] = {"qp0", "qp1", "qp2", "qp3"};
   for (unsigned k = 0; k < 4; k++)
      ref_set_mod_int(c, in, qp[k], (int)(perm >> (2 * k) & 3));
   ref_set_mod_int(c, in, "bound_ctrl", 1);
   return in;
}

/* The 2-bit lanes of a quad permutation, lane 0 first. */
#define QUAD(a, b, e, f) ((a) | (b) << 2 | (e) << 4 | (f) << 6)

/* Derivatives over the quad (lanes 4k..4k+3: top-left, top-right,
 * bottom-left, bottom-right) with DPP quad permutations: the lane the
 * difference starts from, moved into a temporary (v_mov_b32_dpp), then
 * v_sub_f32_dpp reads the lane it ends at and subtracts. Coarse, the
 * env's rule: lane 3 - lane 2 (DDX), lane 2 - lane 0 (DDY) for the whole
 * quad; fine: each lane's row (DDX) or column (DDY). */
static void
deriv(struct ref_ctx *c, const struct tgsi_insn *in)
{
   bool dx = in->op == TGSI_OP_DDX || in->op == TGSI_OP_DDX_FINE;
   bool fine = in->op == TGSI_OP_DDX_FINE || in->op == TGSI_OP_DDY_FINE;
   unsigned from = fine ? (dx ? QUAD(0, 0, 2, 2) : QUAD(0, 1, 0, 1))
                        : (dx ? QUAD(2, 2, 2, 2) : QUAD(0, 0, 0, 0));
   unsigned to = fine ? (dx ? QUAD(1, 1, 3, 3) : QUAD(2, 3, 2, 3))
                      : (dx ? QUAD(3, 3, 3, 3) : QUAD(2, 2, 2, 2));
   unsigned res[4] = {0, 0, 0, 0};
   for (unsigned ch = 0; ch < 4 && c->status == COMPILE_OK; ch++) {
      if (!(in->dst[0].mask & (1u << ch)))
         continue;
      unsigned v = ref_fetch(c, in, 0, ch), t = ref_tmp(c);
      quad_op(c, "v_mov_b32_dpp", t, v, 0, from);
      res[ch] = ref_tmp(c);
      quad_op(c, "v_sub_f32_dpp", res[ch], v, t, to);
   }
   ref_store(c, in, res);
}

static bool
g9_special(struct ref_ctx *c, const struct tgsi_insn *in)
{
   switch (in->op) {
   case TGSI_OP_DDX:
   case TGSI_OP_DDY:
   case TGSI_OP_DDX_FINE:
   case TGSI_OP_DDY_FINE:
      deriv(c, in);
      return true;
   case TGSI_OP_VOTE_ANY:
   case TGSI_OP_VOTE_ALL:
   case TGSI_OP_VOTE_EQ:
   case TGSI_OP_BALLOT:
   case TGSI_OP_READ_FIRST:
   case TGSI_OP_READ_INVOC:
      subgroup(c, in);
      return true;
   case TGSI_OP_KILL:
      emit(c, "s_mov_b64", EXEC, ref_imm(0), ref_imm(0), ref_imm(0));
      return true;
   case TGSI_OP_KIL:       /* the legacy name of KILL_IF */
   case TGSI_OP_KILL_IF: { /* any of the four components < 0 */
      unsigned any = ref_imm_reg(c, 0), zero = ref_imm_reg(c, 0);
      for (unsigned ch = 0; ch < 4; ch++)
         any =
             g9_prim(c, REF_P_OR, any, g9_prim(c, REF_P_FLT, ref_fetch(c, in, 0, ch), zero, 0), 0);
      g9_kill_flag(c, any);
      return true;
   }
   case TGSI_OP_BARRIER:
      ref_emit(c, "s_barrier");
      return true;
   case TGSI_OP_MEMBAR: /* every memory access is waited for in full already */
      return true;
   default:
      return ref_g9_stage_special(c, in);
   }
}

/* The 64-bit address pair (addr, 0) and the offset as global_* takes
 * it (13 bits signed; larger ones are added first). */
static unsigned
global_addr(struct ref_ctx *c, unsigned addr, uint32_t *off)
{
   unsigned p = ref_tmp(c);
   ref_tmp(c);
   if (*off > 4095) {
      addr = g9_prim(c, REF_P_IADD, addr, ref_imm_reg(c, *off), 0);
      *off = 0;
   }
   g9_copy(c, p, addr);
   g9_mov_imm(c, p + 1, 0);
   return p;
}

static void
g9_load_word(struct ref_ctx *c, bool shared, unsigned d, unsigned addr, uint32_t off)
{
   if (shared && off > 65535) {
      addr = g9_prim(c, REF_P_IADD, addr, ref_imm_reg(c, off), 0);
      off = 0;
   }
   unsigned a = shared ? addr : global_addr(c, addr, &off);
   emit(c, shared ? "ds_read_b32" : "global_load_dword", R(d), R(a), ref_imm(off), ref_imm(0));
}

static void
g9_store_word(struct ref_ctx *c, bool shared, unsigned addr, uint32_t off, unsigned v)
{
   if (shared && off > 65535) {
      addr = g9_prim(c, REF_P_IADD, addr, ref_imm_reg(c, off), 0);
      off = 0;
   }
   unsigned a = shared ? addr : global_addr(c, addr, &off);
   emit(c, shared ? "ds_write_b32" : "global_store_dword", R(0), R(a), R(v), ref_imm(off));
}

/* ATOMFADD on global memory, which gfx900 has no float add for: the
 * compare-and-swap loop compilers emit there. Each pass adds to the word
 * a lane last saw and swaps it in if the word is still that one
 * (global_atomic_cmpswap glc, bits compared, so a NaN word ends too);
 * the lanes whose swap failed go round with the word they got. Shared
 * memory is refused: the model has neither ds_add_rtn_f32 nor
 * ds_cmpst_rtn_b32. */
static void
fadd_loop(struct ref_ctx *c, const struct tgsi_insn *in)
{
   unsigned addr, data;
   bool shared;
   if (!ref_atomic_operands(c, in, false, &addr, &shared, &data))
      return;
   if (shared) {
      ref_unsupported(c, "shared-memory float atomic add: the model has no ds_add_rtn_f32");
      return;
   }
   uint32_t off = 0;
   unsigned a = global_addr(c, addr, &off), old = ref_tmp(c);
   emit(c, "global_load_dword", R(old), R(a), ref_imm(off), ref_imm(0));
   int top = ref_label(c);
   ref_place(c, top);
   unsigned pair = ref_tmp(c); /* (new, compare) */
   ref_tmp(c);
   emit(c, "v_add_f32_e32", R(pair), R(old), R(data), R(0));
   g9_copy(c, pair + 1, old);
   unsigned got = ref_tmp(c);
   emit(c, "global_atomic_cmpswap", R(got), R(a), R(pair), ref_imm(off));
   unsigned missed = g9_prim(c, REF_P_INE, got, old, 0);
   g9_copy(c, old, got);
   g9_branch(c, REF_TEST_INT_NZ, missed, 0, true, top);
   ref_atomic_result(c, in, old);
}

/* ATOM*: a DS _rtn op (MEMORY) or a GLOBAL atomic with glc (BUFFER,
 * IMAGE: the texel's address); the old word to every written channel.
 * cmpswap takes (new, compare) in a pair. */
static void
g9_atomic(struct ref_ctx *c, const struct tgsi_insn *in)
{
   static const struct {
      enum tgsi_opcode op;
      const char *ds, *global;
   } ops[] = {
       {TGSI_OP_ATOMUADD, "ds_add_rtn_u32", "global_atomic_add"},
       {TGSI_OP_ATOMXCHG, "ds_wrxchg_rtn_b32", "global_atomic_swap"},
       {TGSI_OP_ATOMAND, "ds_and_rtn_b32", "global_atomic_and"},
       {TGSI_OP_ATOMOR, "ds_or_rtn_b32", "global_atomic_or"},
       {TGSI_OP_ATOMXOR, "ds_xor_rtn_b32", "global_atomic_xor"},
       {TGSI_OP_ATOMUMIN, "ds_min_rtn_u32", "global_atomic_umin"},
       {TGSI_OP_ATOMUMAX, "ds_max_rtn_u32", "global_atomic_umax"},
       {TGSI_OP_ATOMIMIN, "ds_min_rtn_i32", "global_atomic_smin"},
       {TGSI_OP_ATOMIMAX, "ds_max_rtn_i32", "global_atomic_smax"},
       {TGSI_OP_ATOMINC_WRAP, "ds_inc_rtn_u32", "global_atomic_inc"},
       {TGSI_OP_ATOMDEC_WRAP, "ds_dec_rtn_u32", "global_atomic_dec"},
       {TGSI_OP_ATOMCAS, NULL, "global_atomic_cmpswap"},
   };
   unsigned k = 0;
   while (k < ARRAY_SIZE(ops) && ops[k].op != in->op)
      k++;
   if (in->op == TGSI_OP_ATOMFADD) {
      fadd_loop(c, in);
      return;
   }
   if (k == ARRAY_SIZE(ops)) {
      ref_unsupported(c, "%s",
                      in->op == TGSI_OP_ATOMFADD
                          ? "float atomic add: gfx900 has no global_atomic_add_f32 and "
                            "the model no ds_add_rtn_f32"
                          : "an atomic the gfx9 model has no op for");
      return;
   }
   unsigned addr, data;
   bool shared;
   if (!ref_atomic_operands(c, in, false, &addr, &shared, &data)) /* cmpswap: (new, compare) */
      return;
   if (shared && !ops[k].ds) {
      ref_unsupported(c, "shared-memory compare-and-swap: the model has no ds_cmpst_rtn_b32");
      return;
   }
   unsigned d = ref_tmp(c);
   if (shared) {
      emit(c, ops[k].ds, R(d), R(addr), R(data), ref_imm(0));
   } else {
      uint32_t off = 0;
      unsigned a = global_addr(c, addr, &off);
      emit(c, ops[k].global, R(d), R(a), R(data), ref_imm(off));
   }
   ref_atomic_result(c, in, d);
}

/* One MIMG op into res[0..3]: the descriptors' first words name the
 * texture (the emulator's convention), written by SALU (no wait states
 * before a VMEM read). */
static struct isa_insn *
mimg(struct ref_ctx *c, const char *op, unsigned d, const unsigned *v, unsigned n, unsigned unit,
     bool sampler)
{
   unsigned va = ref_group(c, v, n);
   emit(c, "s_mov_b32", sreg(c, RSRC_QUAD), ref_imm(unit), ref_imm(0), ref_imm(0));
   if (sampler)
      emit(c, "s_mov_b32", sreg(c, SAMP_QUAD), ref_imm(unit), ref_imm(0), ref_imm(0));
   struct isa_insn *t = ref_emit(c, op);
   t->dst[0] = R(d);
   t->src[0] = R(va);
   t->src[1] = sreg(c, RSRC_QUAD);
   if (sampler)
      t->src[2] = sreg(c, SAMP_QUAD);
   return t;
}

/* The coordinate body: the spatial coordinates, the layer, zeros up to
 * 3 (integer ones for loads, plus the offsets). */
static unsigned
mimg_body(struct ref_ctx *c, const struct ref_texargs *a, unsigned *v)
{
   unsigned n = 0, zero = ref_imm_reg(c, 0);
   for (unsigned k = 0; k < a->nsp; k++) {
      unsigned x = a->coord[k];
      if (a->fetch && k < a->noff)
         x = g9_prim(c, REF_P_IADD, x, a->off[k], 0);
      v[n++] = x;
   }
   if (a->layer >= 0)
      v[n++] = (unsigned)a->layer;
   if (a->sample >= 0) /* 2D_MSAA: the sample index where a layer would be */
      v[n++] = (unsigned)a->sample;
   while (n < 3)
      v[n++] = zero;
   return n;
}

/* A cube lookup's coordinates as MIMG takes them: the face coordinates
 * sc / |ma| + 1.5 and tc / |ma| + 1.5 (ma twice the major coordinate:
 * v_cubema; the division exact) and the face plus 8 times the layer,
 * rounded as the sampler rounds layers and clamped at 0 and 65535. */
static void
cube_coords(struct ref_ctx *c, struct ref_texargs *a)
{
   static const char *const ops[4] = {"v_cubesc_f32", "v_cubetc_f32", "v_cubema_f32",
                                      "v_cubeid_f32"};
   unsigned v[4];
   for (unsigned k = 0; k < 4; k++) {
      v[k] = ref_tmp(c);
      emit(c, ops[k], R(v[k]), R(a->coord[0]), R(a->coord[1]), R(a->coord[2]));
   }
   unsigned ma = g9_prim(c, REF_P_FABS, v[2], 0, 0), half = ref_imm_reg(c, 0x3fc00000u);
   for (unsigned k = 0; k < 2; k++)
      a->coord[k] = g9_prim(c, REF_P_FADD, ref_fdiv(c, v[k], ma), half, 0);
   a->coord[2] = v[3];
   if (a->layer >= 0) {
      unsigned l =
          g9_prim(c, REF_P_FFLOOR,
                  g9_prim(c, REF_P_FADD, (unsigned)a->layer, ref_imm_reg(c, 0x3f000000u), 0), 0, 0);
      l = g9_prim(c, REF_P_FMAX, l, ref_imm_reg(c, 0), 0);
      l = g9_prim(c, REF_P_FMIN, l, ref_imm_reg(c, 0x477fff00u), 0);              /* 65535 */
      a->coord[2] = g9_prim(c, REF_P_FFMA, l, ref_imm_reg(c, 0x41000000u), v[3]); /* exact */
      a->layer = -1;
   }
}

static bool
g9_tex(struct ref_ctx *c, const struct ref_texargs *a, unsigned res[4])
{
   unsigned v[12], n = 0, d = res[0];
   if (a->target == TGSI_TEX_T_BUFFER)
      return ref_unsupported(c, "buffer textures: the gfx9 model has no MUBUF format loads"), false;
   struct ref_texargs ca;
   bool cube = a->target == TGSI_TEX_T_CUBE || a->target == TGSI_TEX_T_SHADOWCUBE ||
               a->target == TGSI_TEX_T_CUBE_ARRAY || a->target == TGSI_TEX_T_SHADOWCUBE_ARRAY;
   if (cube && !a->query && !a->fetch) {
      ca = *a;
      cube_coords(c, &ca);
      a = &ca;
   }
   if (a->samples) { /* TXQS: MODEL CHOICE (gfx9.yaml) one sample */
      res[0] = ref_imm_reg(c, 1);
      res[1] = res[2] = res[3] = ref_imm_reg(c, 0);
      return c->status == COMPILE_OK;
   }
   if (a->sample >= 0 && a->target != TGSI_TEX_T_2D_MSAA)
      return ref_unsupported(c, "a layered multisample fetch: the body has no fourth register"),
             false;
   if (a->query) { /* the level; width, height, depth or layers, levels */
      v[n++] = (unsigned)a->lod;
      mimg(c, "image_get_resinfo", d, v, n, a->unit, false);
      return c->status == COMPILE_OK;
   }
   if (a->lodq) { /* x the level accessed (clamped), y the computed one */
      n = mimg_body(c, a, v);
      mimg(c, "image_get_lod", d, v, n, a->unit, true);
      res[2] = res[3] = ref_imm_reg(c, 0);
      return c->status == COMPILE_OK;
   }
   if (a->fetch) {
      n = mimg_body(c, a, v);
      if (a->lod_mode == REF_LOD_LOD)
         v[n++] = (unsigned)a->lod;
      mimg(c, a->lod_mode == REF_LOD_LOD ? "image_load_mip" : "image_load", d, v, n, a->unit,
           false);
      return c->status == COMPILE_OK;
   }
   struct ref_texargs pa;
   if (a->proj >= 0) { /* TXP: the spatial coordinates and the reference divided exactly */
      pa = *a;
      for (unsigned k = 0; k < pa.nsp; k++)
         pa.coord[k] = ref_fdiv(c, a->coord[k], (unsigned)a->proj);
      if (pa.ref >= 0)
         pa.ref = (int)ref_fdiv(c, (unsigned)a->ref, (unsigned)a->proj);
      pa.proj = -1;
      a = &pa;
   }
   if (a->deriv && (a->nsp > 2 || a->noff))
      return ref_unsupported(c, "TXD: the gfx9 model's image_sample_d takes 1-D or 2-D "
                                "derivatives and no offsets"),
             false;
   static const char *const lods[] = {"", "_lz", "_l", "_b"};
   char op[40];
   /* a gather reads the base level (_lz), one component (dmask) */
   snprintf(op, sizeof(op), "%s%s%s%s", a->gather ? "image_gather4" : "image_sample",
            a->ref >= 0 ? "_c" : "",
            a->deriv    ? "_d"
            : a->gather ? "_lz"
                        : lods[a->lod_mode],
            a->noff ? "_o" : "");
   if (a->gather && a->lod_mode != REF_LOD_AUTO && a->lod_mode != REF_LOD_ZERO)
      return ref_unsupported(c, "a gather with a level"), false;
   if (a->noff)
      v[n++] = ref_tex_offsets(c, a, 6, 8, "MIMG"); /* 6 bits each, a byte apart */
   if (a->lod_mode == REF_LOD_BIAS)
      v[n++] = (unsigned)a->lod;
   if (a->ref >= 0)
      v[n++] = (unsigned)a->ref;
   if (a->deriv) { /* dsdh, dtdh, dsdv, dtdv (a 1-D texture's t: 0) */
      unsigned zero = ref_imm_reg(c, 0);
      v[n++] = a->ddx[0];
      v[n++] = a->nsp > 1 ? a->ddx[1] : zero;
      v[n++] = a->ddy[0];
      v[n++] = a->nsp > 1 ? a->ddy[1] : zero;
   }
   n += mimg_body(c, a, v + n);
   if (a->lod_mode == REF_LOD_LOD && !a->gather)
      v[n++] = (unsigned)a->lod;
   struct isa_insn *t = mimg(c, op, d, v, n, a->unit, true);
   if (a->gather && c->status == COMPILE_OK)
      ref_set_mod_int(c, t, "gdmask", 1 << (a->comp & 3));
   return c->status == COMPILE_OK;
}

static const char *
g9_why(enum tgsi_opcode op)
{
   (void)op;
   return "the gfx9 reference has no expansion for it";
}

const struct ref_target ref_target_gfx9 = {
    .model = "gfx9",
    .init = g9_init,
    .prim = g9_prim,
    .mov_imm = g9_mov_imm,
    .copy = g9_copy,
    .load_const = g9_load_const,
    .load_indirect = g9_load_indirect,
    .special = g9_special,
    .load_word = g9_load_word,
    .store_word = g9_store_word,
    .tex = g9_tex,
    .atomic = g9_atomic,
    .wide = ref_fp64_wide,
    .fp64 = &g9_fp64,
    .why = g9_why,
    .branch = g9_branch,
    .jump = g9_jump,
    .end = g9_end,
    .kill_flag = g9_kill_flag,
    .begin = g9_begin,
    .store_output = ref_g9_store_output,
    .consts_in_gpr = true,
    .place = g9_place,
};
