/*
 * Bounds on how far a program's value may lie from the interpreter's (and
 * from the reference compiler's) because of two documented freedoms whose
 * effect depends on the operands, so that no class tolerance (diff/
 * compare.c) can cover it:
 *
 *  - fusing a multiply and an add (check --opt fuse-ffma): programs that
 *    run on the same emulator differ only where opt skipped the rounding
 *    of a product, by at most half an ulp of that product ("fuse");
 *  - SIN and COS in revolutions: GPUs multiply the angle by 1/(2 pi) in
 *    single precision before the sine unit, so the argument the unit sees
 *    is off by a rounding of x / (2 pi), an error that grows with |x|
 *    (tgsi_interp_trig_arg_err below; always on).
 *
 * This file carries such a difference forward, per lane and channel, as an
 * absolute bound D (forward error analysis, first order plus the product
 * of the operands' bounds):
 *
 *   a + b, a - b   Da + Db (+ half an ulp of an operand that is a rounded
 *                  MUL product: the add may be fused with it)
 *   a * b          |a| Db + |b| Da + Da Db
 *   MAD, DP*       the products' terms, the addends', and half an ulp of
 *                  each product (fused or not)
 *   a / b, RCP     (Da + |a / b| Db) / (|b| - Db): unbounded once Db
 *                  reaches |b|
 *   RSQ, SQRT, LG2, EX2, POW, SIN, COS
 *                  the derivative's largest value over [a - Da, a + Da]
 *                  (SIN, COS: Da plus the argument's error, at most 2)
 *   MIN, MAX       the largest operand bound; FRC the operand's
 *   DDX, DDY       the two lanes' bounds added
 *   compares, FLR, CMP's condition, conversions
 *                  exact, unless the operand lies within its bound of the
 *                  threshold: then ENV_F_EDGE (the result may jump)
 *   texture lookups
 *                  exact where no operand's bound reaches one of the
 *                  lookup's roundings (texel, layer, face and mip
 *                  selection, the depth compare: the sampler's near test
 *                  with the bounds as its tolerance, tgsi_interp_res.c),
 *                  as the nearest texel is the same; unbounded where one
 *                  does
 *
 * The half ulps of products are sources only with fuse (without it the
 * oracle's FUSE class covers MAD and DP, and ref and opt round alike).
 * A result whose operands differ also rounds differently: one ulp of the
 * result is added, and for the hardware approximations (RCP... COS) twice
 * their documented precision (16 ulp, 64 ulp for TRANS), as each program
 * evaluates the approximation at its own operand. The interpreter's value
 * stands for the programs' magnitudes, made 2^-12 larger (the loosest
 * relative class tolerance of a value the emulator computes differently).
 *
 * D is kept in bits 16..31 of the interpreter's flag words as the top half
 * of a float rounded up (bfloat16; 0 = no difference, +inf = unbounded).
 * Operations not listed here keep the union of their operands' words, at
 * least the largest operand bound. It is computed only with
 * tgsi_interp_opts.fuse_bounds or in a program with SIN, COS or SCS;
 * otherwise the bits stay 0.
 */
/* The lane loops vectorize as the interpreter's own (tgsi_interp_alu.c):
 * GCC's dynamic cost model, and no-trapping-math and no-math-errno, which
 * change no value (errno is never read, no trap is enabled). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic", "no-trapping-math",              \
                     "no-math-errno")
#endif

#include "compiler/tgsi/tgsi.h"
#include "emu/emu.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define FOR for (unsigned i = 0; i < n; i++)

/* Precision of the hardware approximations, in ulp (the oracle's RCP and
 * TRANS classes, from the ISA references). */
#define RCP_ULP   16.0
#define TRANS_ULP 64.0

/* What a new bound leaves of a flag word: the flags and the amplification. */
#define TB_KEEP (ENV_F_ALL | ENV_AMP_MASK)

static inline double D(uint32_t flags);
static inline double rounded(double d, double r, double ulps);

/* d rounded up to a bfloat16 in the flag word's bits. Below 2^127 the
 * float nearest d is finite, and the next float above a nonnegative
 * finite one is the next bit pattern (nextafterf toward +inf), so no
 * library call is needed. Branch-free (the rounding is computed for
 * every d and dropped where d is NaN, huge or not positive), so that
 * the lane loops calling it vectorize. */
static inline uint32_t
bound_bits(double d)
{
   float f = (float)d;
   uint32_t u = fui(f) + ((double)f < d);
   uint32_t hi = ((u >> 16) + ((u & 0xffffu) != 0) + 7u) & ~7u; /* clear of ENV_AMP_MASK */
   uint32_t bits = MIN2(hi, 0x7f80u) << ENV_ERR_SHIFT;
   /* masks, not selects: GCC made branches of nested selects here */
   uint32_t unbounded = 0u - (uint32_t)((d != d) | (d >= 0x1p127));
   uint32_t positive = 0u - (uint32_t)(d > 0.0);
   return ((0x7f80u << ENV_ERR_SHIFT) & unbounded) | (bits & positive & ~unbounded);
}

uint32_t
tgsi_interp_bound_bits(double d)
{
   return bound_bits(d);
}

uint32_t
tgsi_interp_bound_diff(uint32_t flags, uint32_t fa, uint32_t fz, uint32_t r)
{
   double d = rounded(D(fa) + D(fz), uif(r), 1.0);
   return (flags & TB_KEEP) | tgsi_interp_bound_bits(d);
}

uint32_t
tgsi_interp_bound_lookup(uint32_t flags, bool near)
{
   return near && (flags & ENV_ERR_MASK) ? (flags & TB_KEEP) | tgsi_interp_bound_bits(INFINITY)
                                         : flags & TB_KEEP;
}

static inline double
D(uint32_t flags)
{
   return env_err_value(env_err_bits(flags));
}

double
tgsi_interp_bound_rel(uint32_t v, uint32_t flags)
{
   double d = D(flags), m = fabs((double)uif(v));
   return d == 0.0 ? 0.0 : d < m && m <= DBL_MAX ? d / m : INFINITY;
}

static inline double
fabs_(uint32_t x)
{
   return fabs((double)uif(x));
}

/* One ulp of a float of magnitude m (m >= 0): 2^(e - 24) for m = f 2^e,
 * f in [0.5, 1) (frexp), which is 2^(E - 1046) for a double of biased
 * exponent E -- a normal double of biased exponent E - 23 (E >= 897 for
 * m >= 2^-126). */
static inline double
ulp(double m)
{
   /* branch-free, as bound_bits */
   uint64_t u;
   double r;
   memcpy(&u, &m, 8);
   u = ((u >> 52) - 23) << 52;
   memcpy(&r, &u, 8);
   return !(fabs(m) < INFINITY) ? INFINITY : m < 0x1p-126 ? 0x1p-149 : r;
}

/* 1/(2 pi) as GPUs' lowerings multiply by it: the float nearest to it,
 * 0x3e22f983 (LLVM's AMDGPU LowerTrig, Mesa's ac_nir_lower_sin_cos and
 * its AGX back end). */
#define INV_2PI_F32 0.15915493667125702

double
tgsi_interp_trig_arg_err(double x)
{
   /* The argument in revolutions is t = x c rounded once, c the float
    * above (AMD's GCN/Vega ISA: V_SIN_F32 and V_COS_F32 compute sin and
    * cos of S0 * 2 pi, so LLVM's and Mesa's AMD lowerings multiply by c
    * first; applegpu's notes on AGX: sin_pt_1/sin_pt_2 take quarter turns,
    * and Mesa's AGX lowering takes the fraction of x c, plus a quarter
    * turn in the same fused step for COS, times 4, both exact). So
    * |t - x / (2 pi)| <= |x| |c - 1 / (2 pi)| + half an ulp of |x| c + 1/4
    * turns, which is 2 pi times as many radians: about |x| 2^-23.3. */
   double m = fabs(x);
   if (m != m || isinf(m))
      return INFINITY;
   double turns = m * fabs(INV_2PI_F32 - 0.15915494309189535) + 0.5 * ulp(m * INV_2PI_F32 + 0.25);
   return 6.283185307179586 * turns;
}

/* The programs' magnitude of a value the interpreter has as x. */
static inline double
mag(double x, double d)
{
   return fabs(x) * (1.0 + 0x1p-12) + d;
}

/* The smallest magnitude it may have (<= 0: it may be 0). */
static inline double
mag_lo(double x, double d)
{
   return fabs(x) * (1.0 - 0x1p-12) - d;
}

static inline void
put(uint32_t *rf, double d)
{
   *rf = (*rf & TB_KEEP) | bound_bits(d);
}

/* Half an ulp of an operand that is a rounded MUL product an ADD may fuse. */
static inline double
fusable(bool fuse, uint32_t x, uint32_t f)
{
   return fuse && (f & ENV_F_PRODUCT) ? 0.5 * ulp(fabs_(x)) : 0.0;
}

/* Half an ulp of a product that a MAD, LRP or DP may round or not. */
static inline double
half_product(bool fuse, double p)
{
   return fuse ? 0.5 * ulp(fabs(p)) : 0.0;
}

/* Sum, product and the rounding of a result that differs. */
static inline double
rounded(double d, double r, double ulps)
{
   double up = d + ulps * ulp(fabs(r) + d);
   return d != d ? INFINITY /* an unbounded operand times 0 */ : d > 0.0 ? up : 0.0;
}

static inline double
prod(double a, double da, double b, double db)
{
   return mag(a, da) * db + mag(b, db) * da + da * db;
}

/* EDGE where the operand's distance to a threshold is within its bound. */
static inline uint32_t
edge(double dist, double d)
{
   return d > 0.0 && fabs(dist) <= d ? ENV_F_EDGE : 0;
}

/* EDGE where float bits v, with flag word flags, may have the other
 * truth in a program within the bound: an IF's or KILL_IF's implicit
 * compare with 0 (0 itself included: it may be a tiny number there). */
uint32_t
tgsi_interp_bound_zero_edge(uint32_t flags, uint32_t v)
{
   double d = D(flags);
   /* an unbounded value is near 0 even as a NaN */
   return d == INFINITY ? ENV_F_EDGE : edge((double)uif(v), d);
}

static inline double
to_step(double x, bool half)
{
   double d = x - (half ? 0.5 : 0.0);
   return d - floor(d + 0.5);
}

/* For lane loops whose shape depends on a constant argument. */
#if defined(__GNUC__)
#define BOUND_INLINE inline __attribute__((always_inline))
#else
#define BOUND_INLINE inline
#endif

/* bound_arith's rules, inlined with fuse a constant: GCC vectorized none
 * of the loops whose half ulps of products hung on fuse as a variable. */
static BOUND_INLINE void
arith_rules(enum tgsi_opcode op, bool fuse, unsigned n, const uint32_t *r, uint32_t *rf,
            const uint32_t *const *s, const uint32_t *const *sf)
{
   const uint32_t *a = s[0], *b = s[1], *c = s[2];
   const uint32_t *af = sf[0], *bf = sf[1], *cf = sf[2];
   switch (op) {
   case TGSI_OP_ADD:
   case TGSI_OP_SUB:
      FOR put(&rf[i],
              rounded(D(af[i]) + D(bf[i]) + fusable(fuse, a[i], af[i]) + fusable(fuse, b[i], bf[i]),
                      uif(r[i]), 1.0));
      break;
   case TGSI_OP_MUL:
      FOR put(&rf[i], rounded(prod(uif(a[i]), D(af[i]), uif(b[i]), D(bf[i])), uif(r[i]), 1.0));
      break;
   case TGSI_OP_MAD:
   case TGSI_OP_FMA:
      FOR
      {
         double p = (double)uif(a[i]) * uif(b[i]);
         double d = prod(uif(a[i]), D(af[i]), uif(b[i]), D(bf[i])) + D(cf[i]);
         d += op == TGSI_OP_MAD ? half_product(fuse, p) : 0.0;
         put(&rf[i], rounded(d, uif(r[i]), 1.0));
      }
      break;
   case TGSI_OP_LRP: /* a * (b - c) + c: the difference, the product, the sum */
      FOR
      {
         double t = (double)uif(b[i]) - uif(c[i]), dt = rounded(D(bf[i]) + D(cf[i]), t, 1.0);
         double d = prod(uif(a[i]), D(af[i]), t, dt) + half_product(fuse, uif(a[i]) * t) + D(cf[i]);
         put(&rf[i], rounded(d, uif(r[i]), 1.0));
      }
      break;
   case TGSI_OP_DIV:
      FOR
      {
         double lo = mag_lo(uif(b[i]), D(bf[i])), q = fabs_(r[i]);
         double d = D(af[i]) + D(bf[i]) > 0.0
                        ? (lo > 0.0 ? (D(af[i]) + mag(q, 0.0) * D(bf[i])) / lo : INFINITY)
                        : 0.0;
         put(&rf[i], rounded(d, q, 2.0 * RCP_ULP));
      }
      break;
   case TGSI_OP_MIN:
   case TGSI_OP_MAX:
      FOR put(&rf[i], fmax(D(af[i]), D(bf[i])));
      break;
   case TGSI_OP_CLAMP:
      FOR put(&rf[i], fmax(fmax(D(af[i]), D(bf[i])), D(cf[i])));
      break;
   case TGSI_OP_FRC:
   case TGSI_OP_FLR:
   case TGSI_OP_CEIL:
   case TGSI_OP_TRUNC:
   case TGSI_OP_ROUND:
      FOR
      {
         double x = uif(a[i]), d = D(af[i]);
         rf[i] |= edge(to_step(x, op == TGSI_OP_ROUND), d);
         put(&rf[i], op == TGSI_OP_FRC ? rounded(d, uif(r[i]), 1.0) : 0.0);
      }
      break;
   case TGSI_OP_SSG:
      FOR
      {
         rf[i] |= edge(uif(a[i]), D(af[i]));
         put(&rf[i], 0.0);
      }
      break;
   case TGSI_OP_LDEXP:
      FOR put(&rf[i], ldexp(D(af[i]), (int)MIN2((int32_t)b[i], 300)));
      break;
   default:
      break;
   }
}

DC_LANES
static void
bound_arith(enum tgsi_opcode op, bool fuse, unsigned n, const uint32_t *r, uint32_t *rf,
            const uint32_t *const *s, const uint32_t *const *sf)
{
   if (fuse)
      arith_rules(op, true, n, r, rf, s, sf);
   else
      arith_rules(op, false, n, r, rf, s, sf);
}

DC_LANES
static void
bound_select(enum tgsi_opcode op, unsigned n, const uint32_t *const *s, uint32_t *rf,
             const uint32_t *const *sf)
{
   const uint32_t *a = s[0], *b = s[1], *af = sf[0], *bf = sf[1], *cf = sf[2];
   switch (op) {
   case TGSI_OP_CMP:
      FOR
      {
         double d = uif(a[i]) < 0.0f ? D(bf[i]) : D(cf[i]);
         rf[i] |= b[i] == s[2][i] ? 0 : edge(uif(a[i]), D(af[i]));
         put(&rf[i], d);
      }
      break;
   case TGSI_OP_F2I:
   case TGSI_OP_F2U:
   case TGSI_OP_ARL:
   case TGSI_OP_ARR:
      FOR
      {
         bool half = op == TGSI_OP_ARR;
         double x = uif(a[i]);
         double dist = op == TGSI_OP_ARL ? x - floor(x) : half ? to_step(x, true) : x - trunc(x);
         if (op == TGSI_OP_ARL && dist > 0.5)
            dist -= 1.0;
         rf[i] |= edge(dist, D(af[i]));
         put(&rf[i], 0.0);
      }
      break;
   default: /* compares */
      FOR
      {
         rf[i] |= edge((double)uif(a[i]) - uif(b[i]), D(af[i]) + D(bf[i]));
         put(&rf[i], 0.0);
      }
      break;
   }
}

/* Whether no lane of the nk operands carries a bound and, with finite,
 * every operand value is finite. Then every rule above gives 0 without
 * fuse (no half ulps of products): the operands' D are 0, and only a
 * product's |x| 0 could make a NaN of them, for an infinite or NaN x. */
DC_LANES
static bool
exact_operands(unsigned n, unsigned nk, const uint32_t *const *v, const uint32_t *const *f,
               bool finite)
{
   uint32_t acc = 0;
   for (unsigned k = 0; k < nk; k++) {
      const uint32_t *fk = f[k], *vk = v[k];
      FOR acc |= fk[i] & ENV_ERR_MASK;
      if (finite)
         FOR acc |= (vk[i] & 0x7f800000u) == 0x7f800000u;
   }
   return !acc;
}

DC_LANES
static void
clear_bounds(unsigned n, uint32_t *rf)
{
   FOR rf[i] &= TB_KEEP;
}

/* Which rule bounds a componentwise op's result: bound_arith's, with
 * products among them, or bound_select's; RULE_NONE: the operands' union
 * stays. */
enum bound_rule { RULE_NONE, RULE_ARITH, RULE_PRODUCT, RULE_SELECT };

static enum bound_rule
bound_rule(enum tgsi_opcode op)
{
   switch (op) {
   case TGSI_OP_MUL:
   case TGSI_OP_MAD:
   case TGSI_OP_FMA:
   case TGSI_OP_LRP:
      return RULE_PRODUCT;
   case TGSI_OP_ADD:
   case TGSI_OP_SUB:
   case TGSI_OP_DIV:
   case TGSI_OP_MIN:
   case TGSI_OP_MAX:
   case TGSI_OP_CLAMP:
   case TGSI_OP_FRC:
   case TGSI_OP_FLR:
   case TGSI_OP_CEIL:
   case TGSI_OP_TRUNC:
   case TGSI_OP_ROUND:
   case TGSI_OP_SSG:
   case TGSI_OP_LDEXP:
      return RULE_ARITH;
   case TGSI_OP_SLT:
   case TGSI_OP_SGE:
   case TGSI_OP_SEQ:
   case TGSI_OP_SGT:
   case TGSI_OP_SLE:
   case TGSI_OP_SNE:
   case TGSI_OP_FSLT:
   case TGSI_OP_FSGE:
   case TGSI_OP_FSEQ:
   case TGSI_OP_FSNE:
   case TGSI_OP_CMP:
   case TGSI_OP_F2I:
   case TGSI_OP_F2U:
   case TGSI_OP_ARL:
   case TGSI_OP_ARR:
      return RULE_SELECT;
   default:
      return RULE_NONE;
   }
}

void
tgsi_interp_bound_comp(enum tgsi_opcode op, bool fuse, unsigned n, const uint32_t *r, uint32_t *rf,
                       const uint32_t *const *s, const uint32_t *const *sf)
{
   enum bound_rule rule = bound_rule(op);
   if (rule == RULE_NONE)
      return;
   /* the rules read the op's own operands alone (exec_comp passes the
    * zero array for the others) */
   unsigned nk = MIN2(tgsi_op_info[op].nsrc, 3u);
   if (!fuse && exact_operands(n, nk, s, sf, rule == RULE_PRODUCT)) {
      clear_bounds(n, rf);
      return;
   }
   if (rule == RULE_SELECT)
      bound_select(op, n, s, rf, sf);
   else
      bound_arith(op, fuse, n, r, rf, s, sf);
}

/* A unary approximation f at x with bound d: the largest |f'| over
 * [x - d, x + d] times d, plus the two programs' approximation errors. */
static double
bound_unary(enum tgsi_opcode op, double x, double d, double r)
{
   double lo = mag_lo(x, d), hi = mag(x, d);
   switch (op) {
   case TGSI_OP_RCP:
      return rounded(lo > 0.0 ? d / (lo * lo) : INFINITY, r, 2.0 * RCP_ULP);
   case TGSI_OP_RSQ:
      return rounded(lo > 0.0 ? 0.5 * d / (lo * sqrt(lo)) : INFINITY, r, 2.0 * RCP_ULP);
   case TGSI_OP_SQRT: /* |sqrt(x) - sqrt(y)| <= sqrt(|x - y|) near 0 */
      return rounded(lo > 0.0 ? fmin(0.5 * d / sqrt(lo), sqrt(d)) : sqrt(d), r, 2.0 * RCP_ULP);
   case TGSI_OP_EX2:
      return rounded(exp2(x + fabs(x) * 0x1p-12 + d) * (1.0 - exp2(-d)), r, 2.0 * TRANS_ULP);
   case TGSI_OP_LG2:
      return rounded(lo > 0.0 ? d / (lo * 0.6931471805599453) : INFINITY, r, 2.0 * TRANS_ULP);
   case TGSI_OP_SIN: /* |sin'| <= 1, and no two sines lie 2 apart */
   case TGSI_OP_COS:
      return rounded(fmin(d, 2.0), r, 2.0 * TRANS_ULP);
   default:
      (void)hi;
      return INFINITY;
   }
}

/* DP2, DP3, DP4 (nch channels) and DPH (dph: the fourth term is b.w
 * alone). Inlined with constant arguments, so that the channel loop
 * unrolls and the lane loop vectorizes. */
static BOUND_INLINE void
dp_term(bool fuse, bool w, double x, double dx, double y, double dy, double *d, double *half,
        double *sum)
{
   x = w ? 1.0 : x; /* DPH adds b.w alone */
   dx = w ? 0.0 : dx;
   double p = x * y;
   *d += prod(x, dx, y, dy);
   *half += w ? 0.0 : half_product(fuse, p);
   *sum += fabs(p);
}

static BOUND_INLINE void
dp_rules(unsigned n, unsigned nch, bool dph, bool fuse, const uint32_t *r, uint32_t *restrict rf,
         const uint32_t *const *a, const uint32_t *const *af, const uint32_t *const *b,
         const uint32_t *const *bf)
{
   /* the channels' arrays in locals, and rf restrict (it is no operand's
    * array): GCC gave up on the run-time alias tests of 13 arrays */
   const uint32_t *a0 = a[0], *a1 = a[1], *a2 = a[nch > 2 ? 2 : 0], *a3 = a[nch > 3 ? 3 : 0];
   const uint32_t *f0 = af[0], *f1 = af[1], *f2 = af[nch > 2 ? 2 : 0], *f3 = af[nch > 3 ? 3 : 0];
   const uint32_t *b0 = b[0], *b1 = b[1], *b2 = b[nch > 2 ? 2 : 0], *b3 = b[nch > 3 ? 3 : 0];
   const uint32_t *g0 = bf[0], *g1 = bf[1], *g2 = bf[nch > 2 ? 2 : 0], *g3 = bf[nch > 3 ? 3 : 0];
   FOR
   {
      double d = 0.0, sum = 0.0, half = 0.0;
      dp_term(fuse, false, uif(a0[i]), D(f0[i]), uif(b0[i]), D(g0[i]), &d, &half, &sum);
      dp_term(fuse, false, uif(a1[i]), D(f1[i]), uif(b1[i]), D(g1[i]), &d, &half, &sum);
      if (nch > 2)
         dp_term(fuse, false, uif(a2[i]), D(f2[i]), uif(b2[i]), D(g2[i]), &d, &half, &sum);
      if (nch > 3)
         dp_term(fuse, dph, uif(a3[i]), D(f3[i]), uif(b3[i]), D(g3[i]), &d, &half, &sum);
      /* each partial sum rounds; all are at most sum */
      d = rounded(d, sum, nch);
      double u = ulp(fabs_(r[i]));
      put(&rf[i], d + half + (((d > 0.0) | (half > 0.0)) ? u : 0.0));
   }
}

DC_LANES
static void
dp_bound(unsigned n, unsigned nch, bool dph, bool fuse, const uint32_t *r, uint32_t *restrict rf,
         const uint32_t *const *a, const uint32_t *const *af, const uint32_t *const *b,
         const uint32_t *const *bf)
{
   if (fuse)
      dp_rules(n, nch, dph, true, r, rf, a, af, b, bf);
   else if (nch == 2)
      dp_rules(n, 2, false, false, r, rf, a, af, b, bf);
   else if (nch == 3)
      dp_rules(n, 3, false, false, r, rf, a, af, b, bf);
   else if (dph)
      dp_rules(n, 4, true, false, r, rf, a, af, b, bf);
   else
      dp_rules(n, 4, false, false, r, rf, a, af, b, bf);
}

DC_LANES
void
tgsi_interp_bound_repl(enum tgsi_opcode op, bool fuse, unsigned n, const uint32_t *r, uint32_t *rf,
                       unsigned nch, const uint32_t *const *a, const uint32_t *const *af,
                       const uint32_t *const *b, const uint32_t *const *bf)
{
   if (!fuse) {
      bool exact = false;
      switch (op) {
      case TGSI_OP_DP2:
      case TGSI_OP_DP3:
      case TGSI_OP_DP4:
      case TGSI_OP_DPH:
         exact = exact_operands(n, nch, a, af, true) && exact_operands(n, nch, b, bf, true);
         break;
      case TGSI_OP_RCP:
      case TGSI_OP_RSQ:
      case TGSI_OP_SQRT:
      case TGSI_OP_EX2:
      case TGSI_OP_LG2:
         exact = exact_operands(n, 1, a, af, false);
         break;
      case TGSI_OP_POW:
         exact = exact_operands(n, 1, a, af, false) && exact_operands(n, 1, b, bf, false);
         break;
      default: /* SIN and COS add their argument's error */
         break;
      }
      if (exact) {
         clear_bounds(n, rf);
         return;
      }
   }
   switch (op) {
   case TGSI_OP_DP2:
      dp_bound(n, 2, false, fuse, r, rf, a, af, b, bf);
      break;
   case TGSI_OP_DP3:
      dp_bound(n, 3, false, fuse, r, rf, a, af, b, bf);
      break;
   case TGSI_OP_DP4:
   case TGSI_OP_DPH:
      dp_bound(n, 4, op == TGSI_OP_DPH, fuse, r, rf, a, af, b, bf);
      break;
   case TGSI_OP_RCP:
   case TGSI_OP_RSQ:
   case TGSI_OP_SQRT:
   case TGSI_OP_EX2:
   case TGSI_OP_LG2:
      FOR
      {
         double d = D(af[0][i]);
         put(&rf[i], d > 0.0 ? bound_unary(op, uif(a[0][i]), d, uif(r[i])) : 0.0);
      }
      break;
   case TGSI_OP_SIN: /* the argument's error adds to the operand's */
   case TGSI_OP_COS:
      FOR
      {
         /* an exact operand: the programs' sine at its own argument is
          * the oracle's TRANS class (64 ulp, diff/compare.c; AMD does not
          * state v_sin_f32's precision, applegpu not sin_pt's) */
         double x = uif(a[0][i]), d = D(af[0][i]), e = tgsi_interp_trig_arg_err(x);
         put(&rf[i], d > 0.0 ? bound_unary(op, x, d + e, uif(r[i])) : fmin(e, 2.0));
      }
      break;
   case TGSI_OP_POW: /* 2^(y log2 x) */
      FOR
      {
         double x = uif(a[0][i]), y = uif(b[0][i]), dx = D(af[0][i]), dy = D(bf[0][i]);
         if (dx == 0.0 && dy == 0.0) {
            put(&rf[i], 0.0);
            continue;
         }
         double lo = mag_lo(x, dx), l = fabs(log2(fabs(x)));
         double dl = lo > 0.0 ? dx / (lo * 0.6931471805599453) : INFINITY;
         double dt = mag(y, dy) * dl + (l + dl) * dy;
         double t = y * log2(fabs(x));
         put(&rf[i], rounded(exp2(t + fabs(t) * 0x1p-12 + dt) * (1.0 - exp2(-dt)), uif(r[i]),
                             2.0 * TRANS_ULP));
      }
      break;
   default:
      break;
   }
}
