/*
 * ALU kernels: one tight loop over the lanes of a wave per semantics,
 * calling the isa/sem.h lane function, so the compiler can vectorize it.
 * Every per-instruction choice (the semantics, a compare condition) is
 * made once, when load.c picks the kernel, never inside the loop. Sources
 * arrive already viewed and modified (exec.c), results leave raw; masks,
 * (sat) and half-precision stores are exec.c's business too.
 *
 * Semantics without a specialised kernel run through emu_kern_generic(),
 * which calls sem_eval() per lane: slower, same results.
 */
#include "emu/emu_priv.h"

/* GCC's -O2 vectorizes only loops of known trip count; ask for the dynamic
 * cost model (runtime alias and trip-count checks) on these loops. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#endif

#define KARGS uint32_t *const *d, const uint32_t *const *s, unsigned n, const struct emu_op *op

#define K1(name, expr)                                                                             \
   DC_LANES static void k_##name(KARGS)                                                            \
   {                                                                                               \
      uint32_t *o = d[0];                                                                          \
      const uint32_t *pa = s[0];                                                                   \
      (void)op;                                                                                    \
      for (unsigned i = 0; i < n; i++) {                                                           \
         uint32_t a = pa[i];                                                                       \
         o[i] = (expr);                                                                            \
      }                                                                                            \
   }

#define K2(name, expr)                                                                             \
   DC_LANES static void k_##name(KARGS)                                                            \
   {                                                                                               \
      uint32_t *o = d[0];                                                                          \
      const uint32_t *pa = s[0], *pb = s[1];                                                       \
      (void)op;                                                                                    \
      for (unsigned i = 0; i < n; i++) {                                                           \
         uint32_t a = pa[i], b = pb[i];                                                            \
         o[i] = (expr);                                                                            \
      }                                                                                            \
   }

#define K3(name, expr)                                                                             \
   DC_LANES static void k_##name(KARGS)                                                            \
   {                                                                                               \
      uint32_t *o = d[0];                                                                          \
      const uint32_t *pa = s[0], *pb = s[1], *pc = s[2];                                           \
      (void)op;                                                                                    \
      for (unsigned i = 0; i < n; i++) {                                                           \
         uint32_t a = pa[i], b = pb[i], c = pc[i];                                                 \
         o[i] = (expr);                                                                            \
      }                                                                                            \
   }

/* clang-format off */
K1(mov, a)
K1(fsign, sem_fsign(a))
K1(ffloor, sem_ffloor(a))
K1(fceil, sem_fceil(a))
K1(ftrunc, sem_ftrunc(a))
K1(frndne, sem_frndne(a))
K1(not, sem_not(a))
K1(bfrev, sem_bfrev(a))
K1(cbits, sem_cbits(a))
K1(clz_b, sem_clz_b(a))
K1(clz_s, sem_clz_s(a))
K1(rcp, sem_rcp(a))
K1(rsq, sem_rsq(a))
K1(sqrt, sem_sqrt(a))
K1(log2, sem_log2(a))
K1(exp2, sem_exp2(a))
K2(fadd, sem_fadd(a, b))
K2(fmul, sem_fmul(a, b))
K2(fmin, sem_fmin(a, b))
K2(fmax, sem_fmax(a, b))
K2(iadd, sem_iadd(a, b))
K2(isub, sem_isub(a, b))
K2(umul24, sem_umul24(a, b))
K2(smul24, sem_smul24(a, b))
K2(mull_u, sem_mull_u(a, b))
K2(mul_lo, a * b)
K2(umin, sem_umin(a, b))
K2(umax, sem_umax(a, b))
K2(smin, sem_smin(a, b))
K2(smax, sem_smax(a, b))
K2(and, sem_and(a, b))
K2(or, sem_or(a, b))
K2(xor, sem_xor(a, b))
K2(shl, sem_shl(a, b))
K2(shr, sem_shr(a, b))
K2(ashr, sem_ashr(a, b))
K3(fmad, sem_fmad(a, b, c))
K3(ffma, sem_ffma(a, b, c))
K3(umad24, sem_umad24(a, b, c))
K3(smad24, sem_smad24(a, b, c))
K3(madsh_m16, sem_madsh_m16(a, b, c))
K3(sel, sem_sel(a, b, c))
K3(fsel, sem_fsel(a, b, c))
K3(cndmask, sem_cndmask(a, b, c))

static inline int
type_signed(enum isa_type t)
{
   return t == ISA_TYPE_S8 || t == ISA_TYPE_S16 || t == ISA_TYPE_S32 || t == ISA_TYPE_S64;
}

/* Kernels whose semantics take per-instruction arguments: the arguments
 * are read once, before the loop. */
#define KA(name, decl, nsrc_expr)                                                                  \
   DC_LANES static void k_##name(KARGS)                                                           \
   {                                                                                               \
      uint32_t *o = d[0];                                                                          \
      const uint32_t *pa = s[0], *pb = op->nsrc > 1 ? s[1] : s[0], *pc = op->nsrc > 2 ? s[2] : s[0]; \
      const struct sem_args *A = &op->args;                                                        \
      decl;                                                                                        \
      (void)A;                                                                                     \
      for (unsigned i = 0; i < n; i++) {                                                           \
         uint32_t a = pa[i], b = pb[i], c = pc[i];                                                 \
         (void)b;                                                                                  \
         (void)c;                                                                                  \
         o[i] = (nsrc_expr);                                                                       \
      }                                                                                            \
   }

/* FMNMX: the predicate is mostly one value on every lane (PT, !PT): a
 * min or max loop then, the per-lane choice otherwise. Every source is
 * read before the first result is written (a result may land in a
 * source's buffer; lane i reads lane i only). */
DC_LANES static void
k_fmnmx(KARGS)
{
   uint32_t *o = d[0];
   const uint32_t *pa = s[0], *pb = op->nsrc > 1 ? s[1] : s[0], *pc = op->nsrc > 2 ? s[2] : s[0];
   uint32_t all = 1u, any = 0;
   for (unsigned i = 0; i < n; i++) {
      all &= pc[i];
      any |= pc[i];
   }
   if (all & 1u)
      for (unsigned i = 0; i < n; i++)
         o[i] = sem_fmin(pa[i], pb[i]);
   else if (!(any & 1u))
      for (unsigned i = 0; i < n; i++)
         o[i] = sem_fmax(pa[i], pb[i]);
   else
      for (unsigned i = 0; i < n; i++)
         o[i] = sem_fmnmx(pa[i], pb[i], pc[i]);
}
KA(imnmx, int sg = type_signed(A->type), sem_imnmx(a, b, c, sg))
KA(iadd3, (void)0, sem_iadd3(a, b, c))
KA(iscadd, (void)0, sem_iscadd(a, b, c))
KA(bfi, (void)0, sem_bfi(a, b, c))
KA(shl_clamp, int wrap = (A->flags & SEM_FL_WRAP) != 0, sem_shl_clamp(a, b, wrap))
KA(shr_clamp,
   int sg = type_signed(A->type); int wrap = (A->flags & SEM_FL_WRAP) != 0;
   int brev = (A->flags & SEM_FL_BREV) != 0, sem_shr_clamp(a, b, sg, wrap, brev))
KA(shf_l,
   unsigned mode = A->mode; int wrap = (A->flags & SEM_FL_WRAP) != 0;
   int hi = (A->flags & SEM_FL_HI) != 0, sem_shf(0, a, b, c, mode, wrap, hi))
KA(shf_r,
   unsigned mode = A->mode; int wrap = (A->flags & SEM_FL_WRAP) != 0;
   int hi = (A->flags & SEM_FL_HI) != 0, sem_shf(1, a, b, c, mode, wrap, hi))
/* XMAD: a loop per (psl, mrg, mode) with those constant, so sem_xmad's
 * choices fold out of the loop (the half selects remain as selects). */
static inline void
xmad_loop(uint32_t *o, const uint32_t *pa, const uint32_t *pb, const uint32_t *pc, unsigned n,
          int ah, int bh, int psl, int mrg, unsigned mode)
{
   for (unsigned i = 0; i < n; i++)
      o[i] = sem_xmad(pa[i], pb[i], pc[i], ah, bh, psl, mrg, mode);
}

DC_LANES static void
k_xmad(KARGS)
{
   const uint32_t *pa = s[0], *pb = op->nsrc > 1 ? s[1] : s[0], *pc = op->nsrc > 2 ? s[2] : s[0];
   const struct sem_args *A = &op->args;
   int ah = A->hi_srcs & 1, bh = (A->hi_srcs >> 1) & 1, psl = (A->flags & SEM_FL_PSL) != 0;
   int mrg = (A->flags & SEM_FL_MRG) != 0;
   switch ((unsigned)psl * 2 + (unsigned)mrg + 4 * (A->mode <= 4 ? A->mode : 5)) {
#define XMAD_(psl_, mrg_, mode_)                                                                   \
   case psl_ * 2 + mrg_ + 4 * mode_:                                                               \
      xmad_loop(d[0], pa, pb, pc, n, ah, bh, psl_, mrg_, mode_);                                   \
      return;
#define XMAD_MODE_(mode_) XMAD_(0, 0, mode_) XMAD_(0, 1, mode_) XMAD_(1, 0, mode_) XMAD_(1, 1, mode_)
      XMAD_MODE_(0)
      XMAD_MODE_(1)
      XMAD_MODE_(2)
      XMAD_MODE_(4)
#undef XMAD_MODE_
#undef XMAD_
   default:
      xmad_loop(d[0], pa, pb, pc, n, ah, bh, psl, mrg, A->mode);
   }
}
KA(bfe, int sg = type_signed(A->type); int brev = (A->flags & SEM_FL_BREV) != 0,
   sem_bfe(a, b, sg, brev))
KA(flo, int sg = type_signed(A->type), sem_flo(a, sg))

/* out[i] = sem_fcmp_bool(c, a[i], b[i]): a loop per condition, so that
 * the compare is known in the loop and the loop vectorizes (through the
 * switch it ran lane by lane). out is not a source. */
DC_LANES void
emu_fcmp_lanes(enum sem_cond c, const uint32_t *pa, const uint32_t *pb, unsigned n, uint32_t *out)
{
   switch (c) {
#define FCMP_(C)                                                                                   \
   case C:                                                                                         \
      for (unsigned i = 0; i < n; i++)                                                             \
         out[i] = (uint32_t)sem_fcmp_bool(C, pa[i], pb[i]);                                        \
      return;
      FCMP_(SEM_LT)
      FCMP_(SEM_LE)
      FCMP_(SEM_GT)
      FCMP_(SEM_GE)
      FCMP_(SEM_EQ)
      FCMP_(SEM_NE)
      FCMP_(SEM_NUM)
      FCMP_(SEM_NAN)
      FCMP_(SEM_LTU)
      FCMP_(SEM_LEU)
      FCMP_(SEM_GTU)
      FCMP_(SEM_GEU)
      FCMP_(SEM_EQU)
      FCMP_(SEM_ONE)
      FCMP_(SEM_LTN)
      FCMP_(SEM_GTN)
#undef FCMP_
   default:
      for (unsigned i = 0; i < n; i++)
         out[i] = (uint32_t)sem_fcmp_bool(c, pa[i], pb[i]);
   }
}

/* FSET: the compares first (emu_fcmp_lanes), then the boolean op. */
DC_LANES static void
k_fset(KARGS)
{
   uint32_t *o = d[0], cmp[EMU_BATCH_LANES];
   const uint32_t *pa = s[0], *pb = op->nsrc > 1 ? s[1] : s[0], *pc = op->nsrc > 2 ? s[2] : s[0];
   const struct sem_args *A = &op->args;
   enum sem_bop bop = A->bop;
   int bf = (A->flags & SEM_FL_BF) != 0;
   if (n > EMU_BATCH_LANES) { /* a compute workgroup wider than a batch: lane by lane */
      for (unsigned i = 0; i < n; i++)
         o[i] = sem_fset((uint32_t)sem_fcmp_bool(A->cond, pa[i], pb[i]), pc[i], bop, bf);
      return;
   }
   emu_fcmp_lanes(A->cond, pa, pb, n, cmp);
   for (unsigned i = 0; i < n; i++)
      o[i] = sem_fset(cmp[i], pc[i], bop, bf);
}

/* COV: the type classes looked up once per instruction. */
static void
k_cov(KARGS)
{
   sem_cov_lanes(op->args.src_type, op->args.dst_type, op->args.round, n, d[0], s[0]);
}

/* Setp: two predicate results (p, q). */
#define KSETP(name, cmp_expr, decl)                                                                \
   DC_LANES static void k_##name(KARGS)                                                           \
   {                                                                                               \
      uint32_t *p = d[0], *q = op->ndst > 1 ? d[1] : d[0];                                         \
      const uint32_t *pa = s[0], *pb = s[1], *pc = s[2];                                           \
      const struct sem_args *A = &op->args;                                                        \
      enum sem_bop bop = A->bop;                                                                   \
      decl;                                                                                        \
      for (unsigned i = 0; i < n; i++) {                                                           \
         uint32_t a = pa[i], b = pb[i], x, y;                                                      \
         sem_setp((cmp_expr), pc[i], bop, &x, &y);                                                 \
         q[i] = y;                                                                                 \
         p[i] = x;                                                                                 \
      }                                                                                            \
   }

/* FSETP: the compares first (emu_fcmp_lanes), then p and q. */
DC_LANES static void
k_fsetp(KARGS)
{
   uint32_t *p = d[0], *q = op->ndst > 1 ? d[1] : d[0], cmp[EMU_BATCH_LANES];
   const uint32_t *pa = s[0], *pb = s[1], *pc = s[2];
   const struct sem_args *A = &op->args;
   enum sem_bop bop = A->bop;
   if (n > EMU_BATCH_LANES) { /* a compute workgroup wider than a batch: lane by lane */
      for (unsigned i = 0; i < n; i++) {
         uint32_t x, y;
         sem_setp((uint32_t)sem_fcmp_bool(A->cond, pa[i], pb[i]), pc[i], bop, &x, &y);
         q[i] = y;
         p[i] = x;
      }
      return;
   }
   emu_fcmp_lanes(A->cond, pa, pb, n, cmp);
   for (unsigned i = 0; i < n; i++) {
      uint32_t x, y;
      sem_setp(cmp[i], pc[i], bop, &x, &y);
      q[i] = y;
      p[i] = x;
   }
}
/* ISETP without a choice in the lane loop: a condition is lt, eq or both
 * (sem_icmp_from), maybe inverted; signed compares flip the sign bits
 * first; a loop per boolean op. Each lane reads its sources before it
 * writes (a result may land in a source's buffer). */
#define ISETP_LANES(X, Y)                                                                          \
   for (unsigned i = 0; i < n; i++) {                                                              \
      uint32_t a = pa[i], b = pb[i], acc = pc[i] & 1u;                                             \
      uint32_t c = ((((a ^ flip) < (b ^ flip)) & ml) | ((a == b) & me)) ^ inv;                     \
      uint32_t x = (X), y = (Y);                                                                   \
      q[i] = y;                                                                                    \
      p[i] = x;                                                                                    \
   }

DC_LANES static void
k_isetp(KARGS)
{
   uint32_t *p = d[0], *q = op->ndst > 1 ? d[1] : d[0];
   const uint32_t *pa = s[0], *pb = s[1], *pc = s[2];
   const struct sem_args *A = &op->args;
   uint32_t flip = type_signed(A->type) ? 0x80000000u : 0u;
   /* sem_icmp_from(cond, lt, eq) == ((lt & ml) | (eq & me)) ^ inv */
   uint32_t ml = sem_icmp_from(A->cond, 1, 0) ^ sem_icmp_from(A->cond, 0, 0);
   uint32_t me = sem_icmp_from(A->cond, 0, 1) ^ sem_icmp_from(A->cond, 0, 0);
   uint32_t inv = sem_icmp_from(A->cond, 0, 0);
   switch (A->bop) {
   case SEM_BOP_OR:
      ISETP_LANES(c | acc, (c ^ 1u) | acc)
      break;
   case SEM_BOP_XOR:
      ISETP_LANES(c ^ acc, (c ^ 1u) ^ acc)
      break;
   default:
      ISETP_LANES(c & acc, (c ^ 1u) & acc)
      break;
   }
}
KSETP(psetp, sem_bop(bop2, a, b), enum sem_bop bop2 = A->bop2)

/* Compares: one kernel per condition, the condition a constant. */
#define KCMP(cond, C) \
   K2(fcmp_##cond, sem_fcmp(C, a, b)) \
   K2(ucmp_##cond, sem_ucmp(C, a, b)) \
   K2(scmp_##cond, sem_scmp(C, a, b))
KCMP(lt, SEM_LT)
KCMP(le, SEM_LE)
KCMP(gt, SEM_GT)
KCMP(ge, SEM_GE)
KCMP(eq, SEM_EQ)
KCMP(ne, SEM_NE)

/* Compare-selects (FCMPSEL, ICMPSEL): cond(a, b) ? c : e, the condition a
 * constant. */
#define K4(name, expr) \
   DC_LANES static void k_##name(KARGS) \
   { \
      uint32_t *o = d[0]; \
      const uint32_t *pa = s[0], *pb = s[1], *pc = s[2], *pe = s[3]; \
      (void)op; \
      for (unsigned i = 0; i < n; i++) { \
         uint32_t a = pa[i], b = pb[i], c = pc[i], e = pe[i]; \
         o[i] = (expr) ? c : e; \
      } \
   }
#define KCMPSEL(cond, C) \
   K4(fcmpsel_##cond, sem_fcmp_bool(C, a, b)) \
   K4(ucmpsel_##cond, sem_ucmp(C, a, b)) \
   K4(scmpsel_##cond, sem_scmp(C, a, b))
KCMPSEL(lt, SEM_LT)
KCMPSEL(le, SEM_LE)
KCMPSEL(gt, SEM_GT)
KCMPSEL(ge, SEM_GE)
KCMPSEL(eq, SEM_EQ)
KCMPSEL(ne, SEM_NE)
K4(fcmpsel_ltn, sem_fcmp_bool(SEM_LTN, a, b))
K4(fcmpsel_gtn, sem_fcmp_bool(SEM_GTN, a, b))
/* clang-format on */

static emu_kern_fn
kern_cmp(enum isa_sem sem, enum sem_cond c)
{
#define CMP_CASE(cond, C)                                                                          \
   case C:                                                                                         \
      return sem == ISA_SEM_FCMP   ? k_fcmp_##cond                                                 \
             : sem == ISA_SEM_UCMP ? k_ucmp_##cond                                                 \
                                   : k_scmp_##cond;
   switch (c) {
      CMP_CASE(lt, SEM_LT)
      CMP_CASE(le, SEM_LE)
      CMP_CASE(gt, SEM_GT)
      CMP_CASE(ge, SEM_GE)
      CMP_CASE(eq, SEM_EQ)
      CMP_CASE(ne, SEM_NE)
   default:
      return NULL;
   }
#undef CMP_CASE
}

/* FCMPSEL (kind 'f'), ICMPSEL unsigned ('u') or signed ('s'). */
static emu_kern_fn
kern_cmpsel(char kind, enum sem_cond c)
{
#define CMPSEL_CASE(cond, C)                                                                       \
   case C:                                                                                         \
      return kind == 'f' ? k_fcmpsel_##cond : kind == 'u' ? k_ucmpsel_##cond : k_scmpsel_##cond;
   switch (c) {
      CMPSEL_CASE(lt, SEM_LT)
      CMPSEL_CASE(le, SEM_LE)
      CMPSEL_CASE(gt, SEM_GT)
      CMPSEL_CASE(ge, SEM_GE)
      CMPSEL_CASE(eq, SEM_EQ)
      CMPSEL_CASE(ne, SEM_NE)
   case SEM_LTN: /* agx's min/max compares */
      return kind == 'f' ? k_fcmpsel_ltn : NULL;
   case SEM_GTN:
      return kind == 'f' ? k_fcmpsel_gtn : NULL;
   default:
      return NULL;
   }
#undef CMPSEL_CASE
}

void
emu_kern_generic(KARGS)
{
   for (unsigned i = 0; i < n; i++) {
      uint32_t src[ISA_MAX_SRC] = {0}, dst[ISA_MAX_DST] = {0};
      for (unsigned k = 0; k < op->nsrc; k++)
         src[k] = s[k][i];
      sem_eval((enum isa_sem)op->sem, &op->args, src, dst);
      for (unsigned k = 0; k < op->ndst; k++)
         d[k][i] = dst[k];
   }
}

emu_kern_fn
emu_kern_for(const struct emu_op *op)
{
   enum isa_sem sem = (enum isa_sem)op->sem;
   if (op->args.flags & SEM_FL_SAT) /* a saturating integer op: sem_eval knows */
      return emu_kern_generic;
   switch (sem) {
#define S(sm, fn)                                                                                  \
   case ISA_SEM_##sm:                                                                              \
      return k_##fn;
      S(MOV, mov)
      S(FABSNEG, mov)
      S(IABSNEG, mov)
      S(COV, cov)
      S(FSIGN, fsign)
      S(FFLOOR, ffloor)
      S(FCEIL, fceil)
      S(FTRUNC, ftrunc)
      S(FRNDNE, frndne)
      S(NOT, not )
      S(BFREV, bfrev)
      S(CBITS, cbits)
      S(CLZ_B, clz_b)
      S(CLZ_S, clz_s)
      S(RCP, rcp)
      S(RSQ, rsq)
      S(SQRT, sqrt)
      S(LOG2, log2)
      S(EXP2, exp2)
      S(FADD, fadd)
      S(FMUL, fmul)
      S(FMIN, fmin)
      S(FMAX, fmax)
      S(IADD, iadd)
      S(ISUB, isub)
      S(UMUL24, umul24)
      S(SMUL24, smul24)
      S(MULL_U, mull_u)
      S(MUL_LO, mul_lo)
      S(UMIN, umin)
      S(UMAX, umax)
      S(SMIN, smin)
      S(SMAX, smax)
      S(AND, and)
      S(OR, or)
      S(XOR, xor)
      S(SHL, shl)
      S(SHR, shr)
      S(ASHR, ashr)
      S(FMAD, fmad)
      S(FFMA, ffma)
      S(UMAD24, umad24)
      S(SMAD24, smad24)
      S(MADSH_M16, madsh_m16)
      S(SEL, sel)
      S(FSEL, fsel)
      S(CNDMASK, cndmask)
      S(FMNMX, fmnmx)
      S(IMNMX, imnmx)
      S(IADD3, iadd3)
      S(ISCADD, iscadd)
      S(BFI, bfi)
      S(SHL_CLAMP, shl_clamp)
      S(SHR_CLAMP, shr_clamp)
      S(SHF_L, shf_l)
      S(SHF_R, shf_r)
      S(XMAD, xmad)
      S(BFE, bfe)
      S(FLO, flo)
      S(FSET, fset)
      S(FSETP, fsetp)
      S(ISETP, isetp)
      S(PSETP, psetp)
#undef S
   case ISA_SEM_FCMP:
   case ISA_SEM_UCMP:
   case ISA_SEM_SCMP: {
      emu_kern_fn k = kern_cmp(sem, op->args.cond);
      if (k)
         return k;
      break;
   }
   case ISA_SEM_FCMPSEL:
   case ISA_SEM_ICMPSEL: {
      char kind = sem == ISA_SEM_FCMPSEL ? 'f' : sem_icmpsel_unsigned(op->args.type) ? 'u' : 's';
      emu_kern_fn k = op->nsrc >= 4 ? kern_cmpsel(kind, op->args.cond) : NULL;
      if (k)
         return k;
      break;
   }
   default:
      break;
   }
   /* Anything else sem_eval() knows runs per lane. */
   uint32_t src[ISA_MAX_SRC] = {0}, dst[ISA_MAX_DST];
   return sem_eval(sem, &op->args, src, dst) ? emu_kern_generic : NULL;
}
