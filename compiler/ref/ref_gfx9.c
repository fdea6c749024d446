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
 * Refused, each naming what the model lacks: SIN/COS (no v_sin/v_cos:
 * the hardware's take revolutions, not modelled), bit scans (no v_ffbh),
 * derivatives (no DPP or quad swizzle), textures (MIMG is not bound to
 * a texture unit in the emulator), atomics, doubles, indirect constants
 * (no s_movrel/v_movrel or buffer descriptors).
 */
#include "compiler/ref/ref.h"
#include "emu/emu.h"

#define R(x) ref_r(c, (x))

#define MASK_PAIRS    48   /* s[0:1] .. s[94:95]: lanes parked at a label */
#define SCRATCH_PAIR  96   /* s[96:97]: a mask for one instruction's work */
#define MASK_RESERVED (-2) /* a placed label's pair, not reusable until no loop is open */

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

static unsigned
g9_load_const(struct ref_ctx *c, unsigned slot)
{
   unsigned d = ref_tmp(c);
   g9_copy(c, d, c->creg + slot);
   return d;
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
   default:
      ref_unsupported(c, "%s",
                      op == REF_P_FSIN || op == REF_P_FCOS
                          ? "the gfx9 model has no v_sin_f32/v_cos_f32 (they take revolutions)"
                          : "no gfx9 instruction in the model for this operation (v_ffbh)");
      return d;
   }
}

/* ------------------------------------------------------------------ */
/* Control flow: lanes parked at labels, in SGPR pairs                   */

/* The pair of label l (allocated on first use), or -1 after a refusal. */
static int
mask_pair(struct ref_ctx *c, int l, bool make)
{
   for (unsigned k = 0; k < c->nmask_pairs; k++)
      if (c->mask_label[k] == l)
         return (int)k;
   if (!make)
      return -1;
   for (unsigned k = 0; k < c->nmask_pairs; k++)
      if (c->mask_label[k] == -1) {
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
   /* Inside a loop the pair stays taken until no loop is open: the loop's
    * exit label, targeted later in the body, lives across the back edge,
    * so a pair freed in the body must not be reused there. */
   bool in_loop = false;
   for (unsigned f = 0; f < c->ncf; f++)
      in_loop |= c->cf[f].kind == REF_CF_LOOP;
   c->mask_label[k] = MASK_RESERVED;
   for (unsigned j = 0; j < c->nmask_pairs && !in_loop; j++)
      if (c->mask_label[j] == MASK_RESERVED)
         c->mask_label[j] = -1;
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
      default:
         break;
      }
   c->nmask_pairs = MIN2(n, (unsigned)MASK_PAIRS);
   for (unsigned k = 0; k < c->nmask_pairs; k++) {
      c->mask_label[k] = -1;
      emit(c, "s_mov_b64", sreg(c, 2 * k), ref_imm(0), ref_imm(0), ref_imm(0));
   }
}

static void
g9_end(struct ref_ctx *c)
{
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

static bool
g9_special(struct ref_ctx *c, const struct tgsi_insn *in)
{
   switch (in->op) {
   case TGSI_OP_KILL:
      emit(c, "s_mov_b64", EXEC, ref_imm(0), ref_imm(0), ref_imm(0));
      return true;
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
   default:
      return false;
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

static bool
g9_tex(struct ref_ctx *c, const struct ref_texargs *a, unsigned res[4])
{
   (void)a;
   (void)res;
   return ref_unsupported(c, "textures: the gfx9 model's MIMG ops are not bound to a texture "
                             "unit in the emulator"),
          false;
}

static bool
g9_load_indirect(struct ref_ctx *c, const struct tgsi_reg *r, unsigned comp, unsigned *out)
{
   (void)comp;
   (void)out;
   if (r->file != TGSI_FILE_CONST && r->file != TGSI_FILE_IMM)
      return false; /* the generic compare-and-select over the file */
   ref_unsupported(c, "indirect constants: the gfx9 model has no s_movrel/v_movrel nor buffer "
                      "descriptors for them");
   *out = 0;
   return true;
}

static const char *
g9_why(enum tgsi_opcode op)
{
   switch (op) {
   case TGSI_OP_DDX:
   case TGSI_OP_DDY:
   case TGSI_OP_DDX_FINE:
   case TGSI_OP_DDY_FINE:
      return "derivatives: the gfx9 model has no DPP or quad swizzle";
   default:
      return "the gfx9 reference has no expansion for it";
   }
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
    .why = g9_why,
    .branch = g9_branch,
    .jump = g9_jump,
    .end = g9_end,
    .kill_flag = g9_kill_flag,
    .begin = g9_begin,
    .consts_in_gpr = true,
    .place = g9_place,
};
