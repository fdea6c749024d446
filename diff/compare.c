/*
 * The comparison rules of the check: when does a program's value pass for
 * the value it is checked against. Three comparisons, one verdict function:
 *
 *  - ORACLE (interpreter against a program): the interpreter records per
 *    lane and channel which inexact op classes a value went through (enum
 *    env_flag); the loosest class the value carries picks its tolerance
 *    from oracle_tol[] below. Classes whose effect no tolerance bounds
 *    (denormal flushing, NaN resolution, coarse derivatives, inexact floats
 *    read as integer bits) are left out
 *    and counted as "unchecked". NaN payloads are never compared: the
 *    interpreter's NaNs come from the host.
 *  - EXACT (ref against opt): both ran on the same emulator, so values are
 *    bit-exact, except NaN == NaN unless exact_nan, and except the
 *    documented tolerance of each inexact transform the optimizing compiler
 *    was allowed (inexact_tol[]).
 *  - BITS (invariance): bit-identical; NaN == NaN unless exact_nan.
 *
 * In every mode a value the interpreter marks UNDEF is left out and counted,
 * and a channel of an INVARIANT output or computed under _PRECISE is
 * "exact": no transform tolerance, and no FUSE tolerance against the
 * oracle (precise forbids fusing; hardware rcp/sin approximations stay).
 */
#include "diff/diff.h"
#include "isa/sem.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NAME_(n, s, ...) s,
const char *const diff_status_names[DIFF_STATUS_COUNT] = {DIFF_STATUSES(NAME_)};
const char *const diff_signal_names[DIFF_SIG_COUNT] = {DIFF_SIGNALS(NAME_)};
const char *const diff_value_names[DIFF_VAL_COUNT] = {DIFF_VALUES(NAME_)};
const char *const diff_inexact_names[DIFF_INEXACT_COUNT] = {DIFF_INEXACT(NAME_)};
#undef NAME_
#define DESC_(n, s, st, d) d,
const char *const diff_signal_descs[DIFF_SIG_COUNT] = {DIFF_SIGNALS(DESC_)};
#undef DESC_
#define DESC_(n, s, d) d,
const char *const diff_inexact_descs[DIFF_INEXACT_COUNT] = {DIFF_INEXACT(DESC_)};
#undef DESC_

enum diff_status
diff_signal_status(enum diff_signal_kind k)
{
#define STATUS_(n, s, st, d) DIFF_##st,
   static const enum diff_status st[DIFF_SIG_COUNT] = {DIFF_SIGNALS(STATUS_)};
#undef STATUS_
   return st[k];
}

/* A tolerance: a value passes if it is at most `ulp` units in the last
 * place away, or if |expected - actual| <= rel * max(|expected|, |actual|),
 * or <= abs. Errors of a chain of inexact operations add up, and exact
 * arithmetic after them can amplify them (x/y - x/z cancels), hence the
 * relative and the absolute parts. */
struct tol {
   unsigned flag; /* enum env_flag */
   uint32_t ulp;
   double rel, abs;
};

/* ORACLE: per op class (ROUND: round_ok; packed integers are no floats). */
static const struct tol oracle_tol[] = {
    {ENV_F_FUSE, 16, 0x1p-16, 0x1p-20},  /* MAD/DP*: fused or not, summation order */
    {ENV_F_LRP, 16, 0x1p-16, 0x1p-20},   /* LRP: a*(b-c)+c or a*b+(1-a)*c */
    {ENV_F_RCP, 16, 0x1p-14, 0x1p-20},   /* RCP/RSQ/SQRT/DIV/NRM: hardware approximations */
    {ENV_F_TRANS, 64, 0x1p-12, 0x1p-20}, /* SIN/COS/EX2/LG2/POW...: POW as EX2(LG2 * y) */
};

/* EXACT: per inexact transform of the optimizing compiler. fuse-ffma fuses
 * TGSI MUL + ADD as well as MAD, so it is not limited to FUSE-class values;
 * the difference of one fusion is half an ulp of the product, but later
 * arithmetic (normalisations, cancelling sums) amplifies it, hence the
 * bounds, measured over the captures on sm50 with five seeds. */
static const struct tol ffma_tol = {0, 16, 0x1p-14, 0x1p-20};

/* Classes the oracle leaves out (counted as unchecked) unless equal. */
#define ORACLE_UNCHECKED                                                                           \
   (ENV_F_DENORM | ENV_F_NAN | ENV_F_DERIV | ENV_F_BITS | ENV_F_CANCEL | ENV_F_EDGE)

uint32_t
diff_ulp_distance(uint32_t a, uint32_t b)
{
   int64_t x = (int64_t)(a & 0x7fffffffu), y = (int64_t)(b & 0x7fffffffu);
   if (a >> 31)
      x = -x;
   if (b >> 31)
      y = -y;
   int64_t d = x > y ? x - y : y - x;
   return d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
}

static bool
within(const struct tol *t, uint32_t e, uint32_t a)
{
   if (is_nan_bits(e) || is_nan_bits(a))
      return false;
   if (diff_ulp_distance(e, a) <= t->ulp)
      return true;
   double x = uif(e), y = uif(a), d = fabs(x - y);
   if (isinf(x) || isinf(y))
      return false;
   return d <= t->rel * fmax(fabs(x), fabs(y)) || d <= t->abs;
}

/* TRANS: POW may overflow one step early or late: an infinity against a
 * finite value of the same sign beyond 2^126. */
static bool
trans_overflow_ok(uint32_t e, uint32_t a)
{
   float x = uif(e), y = uif(a);
   return (isinf(x) || isinf(y)) && (e ^ a) >> 31 == 0 && fabsf(x) >= 0x1p126f &&
          fabsf(y) >= 0x1p126f;
}

static bool
is_zero(uint32_t x)
{
   return (x & 0x7fffffffu) == 0;
}

/* Every field of `bits` bits of e and a within 1, as unsigned or as
 * signed integers. */
static bool
fields_within_1(uint32_t e, uint32_t a, unsigned bits, bool is_signed)
{
   uint32_t mask = (1u << bits) - 1, sign = 1u << (bits - 1);
   for (unsigned b = 0; b < 32; b += bits) {
      int64_t x = (e >> b) & mask, y = (a >> b) & mask;
      if (is_signed) {
         x = (x ^ sign) - sign;
         y = (y ^ sign) - sign;
      }
      if (x - y < -1 || x - y > 1)
         return false;
   }
   return true;
}

/* ROUND: inexact int->float conversions differ by at most 1 ulp, ROUND
 * ties by 1.0 between integers, packing by at most 1 in each packed
 * field: bytes of PK4UB, signed bytes of PK4B (0x00 against 0xff, -1),
 * halves of PK2US (0x00ff against 0x0100). */
static bool
round_ok(uint32_t e, uint32_t a)
{
   double x = uif(e), y = uif(a);
   if (!is_nan_bits(e) && !is_nan_bits(a) &&
       (diff_ulp_distance(e, a) <= 1 || (x == floor(x) && y == floor(y) && fabs(x - y) <= 1.0)))
      return true;
   return fields_within_1(e, a, 8, false) || fields_within_1(e, a, 8, true) ||
          fields_within_1(e, a, 16, false);
}

static bool
class_ok(uint32_t e, uint32_t a, unsigned flags, bool exact)
{
   if ((flags & ENV_F_ZSIGN) && is_zero(e) && is_zero(a))
      return true;
   if ((flags & ENV_F_ROUND) && round_ok(e, a))
      return true;
   if ((flags & ENV_F_TRANS) && trans_overflow_ok(e, a))
      return true;
   for (unsigned i = 0; i < ARRAY_SIZE(oracle_tol); i++) {
      const struct tol *t = &oracle_tol[i];
      if ((flags & t->flag) && !(exact && t->flag == ENV_F_FUSE) && within(t, e, a))
         return true;
   }
   return false;
}

/* The interpreter's bound D on the value (tgsi_interp_bound.c: SIN/COS in
 * revolutions, and fusions with --opt fuse-ffma) is an error of a kind no
 * class covers; the class's tolerance comes on top of it: the value passes
 * if it does against some value within D of the interpreter's, the one
 * nearest to it. An unbounded D leaves the value unchecked. */
static enum diff_verdict
bounded_verdict(uint32_t e, uint32_t a, unsigned flags, bool exact)
{
   double d = env_err_value(env_err_bits(flags));
   double x = uif(e), y = uif(a);
   if (isinf(d))
      return DIFF_V_UNCHECKED;
   if (!(d > 0.0) || is_nan_bits(e) || is_nan_bits(a) || isinf(x) || isinf(y))
      return DIFF_V_DIFFERENT;
   if (fabs(x - y) <= d)
      return DIFF_V_TOLERATED;
   float near = (float)(y > x ? x + d : x - d); /* between x and y */
   if (fabs((double)near - x) > d)
      near = nextafterf(near, (float)x);
   return class_ok(fui(near), a, flags, exact) ? DIFF_V_TOLERATED : DIFF_V_DIFFERENT;
}

static enum diff_verdict
oracle_verdict(uint32_t e, uint32_t a, unsigned flags, bool exact)
{
   if (is_nan_bits(e) && is_nan_bits(a))
      return DIFF_V_EQUAL;
   if (flags & ORACLE_UNCHECKED)
      return DIFF_V_UNCHECKED;
   if (class_ok(e, a, flags, exact))
      return DIFF_V_TOLERATED;
   return bounded_verdict(e, a, flags, exact);
}

/* The interpreter's bound on the fusions' effect on this value
 * (tgsi_interp_bound.c), where it tracked one. An unbounded one allows any
 * bits, a NaN's among them: the value may be an integer made from a fused
 * float's bits (a hash of it), and those bits may spell a NaN. */
static bool
fuse_bound_ok(uint32_t e, uint32_t a, unsigned flags)
{
   double d = env_err_value(env_err_bits(flags));
   double x = uif(e), y = uif(a);
   if (isinf(d))
      return true;
   return d > 0.0 && !is_nan_bits(e) && !is_nan_bits(a) && !isinf(x) && !isinf(y) &&
          fabs(x - y) <= d;
}

/* Tolerance of the transforms opt was allowed. fuse-ffma: within
 * ffma_tol, or anything where ref has an infinity or NaN (an unfused
 * product overflowed where the fused one need not). inexact: x+0 -> x and
 * x*0 -> 0 change the sign of zero and turn ref's NaN (from Inf or NaN
 * operands) into a number, and so anything computed from that NaN, by
 * data or by a decision (the interpreter's NAN: a compare, MIN/MAX or
 * select that drops the NaN keeps the flag, and tgsi_interp_cf.c's steer
 * taint gives it to what a branch on it decides). */
static bool
transform_ok(uint32_t e, uint32_t a, unsigned flags, unsigned inexact)
{
   bool e_special = (e & 0x7f800000u) == 0x7f800000u; /* Inf or NaN */
   /* a fused rounding, like any error of a term, is not bounded by the
    * size of a sum that cancelled it (CANCEL), nor across a threshold
    * (EDGE); and where the interpreter met a NaN, fusing may have made
    * or avoided it (an unfused product overflowing) */
   if ((inexact & (1u << DIFF_INEXACT_FFMA_BIT)) &&
       (within(&ffma_tol, e, a) || e_special || fuse_bound_ok(e, a, flags) ||
        (flags & (ENV_F_CANCEL | ENV_F_EDGE | ENV_F_NAN))))
      return true;
   if (inexact & (1u << DIFF_INEXACT_ALGEBRAIC_BIT))
      return (is_zero(e) && is_zero(a)) || is_nan_bits(e) || (flags & ENV_F_NAN);
   return false;
}

/* One f16 step from h toward g (in the order of values). */
static uint32_t
half_toward(uint32_t h, uint32_t g)
{
   int32_t x = (h & 0x8000u) ? -(int32_t)(h & 0x7fffu) : (int32_t)h;
   int32_t y = (g & 0x8000u) ? -(int32_t)(g & 0x7fffu) : (int32_t)g;
   x += y > x ? 1 : y < x ? -1 : 0;
   return x < 0 ? 0x8000u | (uint32_t)-x : (uint32_t)x;
}

/* PK2H: each half is a float rounded to f16. Two f32 values within a
 * tolerance round to halves within that tolerance plus one f16 step, so a
 * half passes if it does as a float, or one step closer does (not between
 * programs that must agree to the bit). The worst half decides. */
static enum diff_verdict
halves_verdict(uint32_t e, uint32_t a, unsigned flags, bool exact, const struct diff_cmp_opts *o)
{
   enum diff_verdict worst = DIFF_V_EQUAL;
   bool step = o->mode == DIFF_CMP_ORACLE || (o->mode == DIFF_CMP_EXACT && o->inexact && !exact);
   for (unsigned sh = 0; sh < 32; sh += 16) {
      uint32_t he = (e >> sh) & 0xffffu, ha = (a >> sh) & 0xffffu;
      enum diff_verdict v =
          diff_value_verdict(sem_f16_to_f32(he), sem_f16_to_f32(ha), flags, exact, o);
      if (v == DIFF_V_DIFFERENT && step && !sem_isnan(sem_f16_to_f32(ha))) {
         uint32_t near = sem_f16_to_f32(half_toward(ha, he));
         if (diff_value_verdict(sem_f16_to_f32(he), near, flags, exact, o) != DIFF_V_DIFFERENT)
            v = DIFF_V_TOLERATED;
      }
      if (v == DIFF_V_DIFFERENT || (v == DIFF_V_UNCHECKED && worst != DIFF_V_DIFFERENT) ||
          (v == DIFF_V_TOLERATED && worst == DIFF_V_EQUAL))
         worst = v;
   }
   return worst;
}

enum diff_verdict
diff_value_verdict(uint32_t e, uint32_t a, unsigned flags, bool exact,
                   const struct diff_cmp_opts *o)
{
   if (flags & ENV_F_UNDEF)
      return DIFF_V_UNDEFINED;
   if (e == a)
      return DIFF_V_EQUAL;
   if ((flags & ENV_F_PK16) && o->mode != DIFF_CMP_BITS)
      return halves_verdict(e, a, flags & ~(unsigned)ENV_F_PK16, exact, o);
   if (o->mode == DIFF_CMP_ORACLE) {
      enum diff_verdict v = oracle_verdict(e, a, flags, exact);
      if (v == DIFF_V_DIFFERENT && !exact && transform_ok(e, a, flags, o->inexact))
         v = DIFF_V_TOLERATED;
      return v;
   }
   if (is_nan_bits(e) && is_nan_bits(a) && !o->exact_nan)
      return DIFF_V_EQUAL;
   /* a NaN's sign and payload and a MIN/MAX zero's sign, read as integer
    * bits: no model fixes them, so ref and opt may differ (a negate is an
    * XOR of the sign in one, 0 - x in the other) */
   if (o->mode == DIFF_CMP_EXACT && (flags & ENV_F_NANBITS) && !o->exact_nan)
      return DIFF_V_TOLERATED;
   /* MIN/MAX of +0 and -0: TGSI leaves the sign open and no model claims
    * one (isa check holds min/max commutative), so ref and opt may pick
    * either (a compare and select against a max). */
   if (o->mode == DIFF_CMP_EXACT && (flags & ENV_F_ZSIGN) && is_zero(e) && is_zero(a))
      return DIFF_V_TOLERATED;
   if (o->mode == DIFF_CMP_EXACT && !exact && transform_ok(e, a, flags, o->inexact))
      return DIFF_V_TOLERATED;
   return DIFF_V_DIFFERENT;
}

/* ------------------------------------------------------------------ */
/* Which channels are exact                                             */

static bool
direct_reg(const struct tgsi_reg *r, enum tgsi_file f, uint32_t n)
{
   return r->file == f && !r->indirect && r->index >= 0 && (uint32_t)r->index < n;
}

/* Whether source channel `chan` of in reads an exact value: IN, CONST,
 * IMM and system values went through no arithmetic; TEMP and OUT channels
 * have their current state; anything indirect is not exact. */
static bool
src_exact(const struct tgsi_src *sr, unsigned chan, const uint8_t *temp, uint32_t ntemp,
          const uint8_t *out, uint32_t nout)
{
   unsigned sc = sr->swz[chan] & 3;
   if (sr->reg.indirect || sr->reg.dim_indirect)
      return false;
   if (sr->reg.file == TGSI_FILE_TEMP)
      return direct_reg(&sr->reg, TGSI_FILE_TEMP, ntemp) && temp[4 * sr->reg.index + sc];
   if (sr->reg.file == TGSI_FILE_OUT)
      return direct_reg(&sr->reg, TGSI_FILE_OUT, nout) && out[4 * sr->reg.index + sc];
   return sr->reg.file == TGSI_FILE_IN || sr->reg.file == TGSI_FILE_CONST ||
          sr->reg.file == TGSI_FILE_IMM || sr->reg.file == TGSI_FILE_SV;
}

/* Whether in computes destination channel c exactly: a MOV or a _PRECISE
 * instruction whose sources (the swizzled channel for component-wise
 * opcodes, every channel for the others) are exact. */
static bool
insn_exact(const struct tgsi_insn *in, unsigned c, const uint8_t *temp, uint32_t ntemp,
           const uint8_t *out, uint32_t nout)
{
   if (!in->precise && in->op != TGSI_OP_MOV)
      return false;
   unsigned fl = tgsi_op_info[in->op].flags;
   bool per_chan = !(fl & (TGSI_OPF_REPL | TGSI_OPF_CHAN | TGSI_OPF_OTHR | TGSI_OPF_TEX));
   for (unsigned k = 0; k < in->nsrc; k++)
      for (unsigned sc = 0; sc < 4; sc++)
         if ((per_chan ? sc == c : true) && !src_exact(&in->src[k], sc, temp, ntemp, out, nout))
            return false;
   return true;
}

/* Whether every IF, UIF and SWITCH from instruction i + 1 to the
 * ENDLOOP matching the BGNLOOP at i decides on an exact value: then so
 * does each BRK and CONT in the body, and the trip count. */
static bool
loop_exact(const struct tgsi_shader *s, unsigned i, const uint8_t *temp, uint32_t ntemp,
           const uint8_t *out, uint32_t nout)
{
   unsigned depth = 0;
   for (unsigned k = i + 1; k < s->ninsns; k++) {
      const struct tgsi_insn *in = &s->insns[k];
      if (in->op == TGSI_OP_BGNLOOP)
         depth++;
      else if (in->op == TGSI_OP_ENDLOOP && depth-- == 0)
         return true;
      else if ((in->op == TGSI_OP_IF || in->op == TGSI_OP_UIF || in->op == TGSI_OP_SWITCH) &&
               in->nsrc && !src_exact(&in->src[0], 0, temp, ntemp, out, nout))
         return false;
   }
   return true;
}

#define EXACT_MAX_DEPTH 64

/* One pass of the closure: a TEMP/OUT channel stays exact while every
 * instruction writing it computes it exactly; with ctl, also only while
 * every branch it is written under decides on an exact value (an allowed
 * transform of a condition may send opt the other way, where the channel
 * gets another value: tgsi_interp_cf.c's steer taint). Under ctl, a loop
 * counts as such a branch when a condition in its body is not exact, a
 * subroutine's body always (its call sites are not followed), and after
 * a RET under an inexact branch the rest of the program. Returns whether
 * anything changed. */
static bool
precise_pass(const struct tgsi_shader *s, uint8_t *temp, uint32_t ntemp, uint8_t *out,
             uint32_t nout, bool ctl)
{
   bool changed = false;
   bool stack[EXACT_MAX_DEPTH + 1] = {true};
   unsigned depth = 0;
   bool tail = true; /* no RET under an inexact branch so far */
   for (unsigned i = 0; i < s->ninsns; i++) {
      const struct tgsi_insn *in = &s->insns[i];
      if (ctl) {
         bool top = stack[depth] && tail, push = false, pushed = false;
         switch (in->op) {
         case TGSI_OP_IF:
         case TGSI_OP_UIF:
         case TGSI_OP_SWITCH:
            push = true;
            pushed = top && in->nsrc && src_exact(&in->src[0], 0, temp, ntemp, out, nout);
            break;
         case TGSI_OP_BGNLOOP:
            push = true;
            pushed = top && loop_exact(s, i, temp, ntemp, out, nout);
            break;
         case TGSI_OP_BGNSUB:
            push = true;
            break;
         case TGSI_OP_ENDIF:
         case TGSI_OP_ENDSWITCH:
         case TGSI_OP_ENDLOOP:
         case TGSI_OP_ENDSUB:
            depth -= depth > 0;
            break;
         case TGSI_OP_RET:
            tail = tail && (depth == 0 || stack[depth]);
            break;
         default:
            break;
         }
         if (push) {
            depth += depth < EXACT_MAX_DEPTH;
            stack[depth] = pushed && depth < EXACT_MAX_DEPTH;
         }
      }
      if (!in->ndst)
         continue;
      const struct tgsi_reg *d = &in->dst[0].reg;
      uint8_t *st = direct_reg(d, TGSI_FILE_TEMP, ntemp) ? temp + 4 * d->index
                    : direct_reg(d, TGSI_FILE_OUT, nout) ? out + 4 * d->index
                                                         : NULL;
      if (!st)
         continue;
      bool decided = !ctl || (stack[depth] && tail);
      for (unsigned c = 0; c < 4; c++)
         if ((in->dst[0].mask & (1u << c)) && st[c] &&
             (!decided || !insn_exact(in, c, temp, ntemp, out, nout))) {
            st[c] = 0;
            changed = true;
         }
   }
   return changed;
}

uint8_t *
diff_exact_channels(const struct tgsi_shader *s, uint32_t nout, bool ctl)
{
   uint32_t ntemp = 0;
   for (unsigned i = 0; i < s->ndecls; i++)
      if (s->decls[i].file == TGSI_FILE_TEMP)
         ntemp = MAX2(ntemp, s->decls[i].last + 1);
   uint8_t *out = xcalloc((size_t)nout * 4 + 1, 1);
   uint8_t *temp = xcalloc((size_t)ntemp * 4 + 1, 1);
   uint8_t *written = xcalloc((size_t)nout * 4 + 1, 1);
   /* Optimistic start, so loops that copy a value around stay precise. */
   memset(out, 1, (size_t)nout * 4);
   memset(temp, 1, (size_t)ntemp * 4);
   for (unsigned i = 0; i < s->ninsns; i++) {
      const struct tgsi_insn *in = &s->insns[i];
      if (in->ndst && direct_reg(&in->dst[0].reg, TGSI_FILE_OUT, nout))
         for (unsigned c = 0; c < 4; c++)
            if (in->dst[0].mask & (1u << c))
               written[4 * in->dst[0].reg.index + c] = 1;
   }
   while (precise_pass(s, temp, ntemp, out, nout, ctl))
      ;
   for (uint32_t k = 0; k < nout * 4; k++)
      out[k] = out[k] && written[k];
   for (unsigned i = 0; i < s->ndecls; i++) {
      const struct tgsi_decl *d = &s->decls[i];
      if (d->file == TGSI_FILE_OUT && d->invariant)
         for (uint32_t r = d->first; r <= d->last && r < nout; r++)
            memset(out + 4 * r, 1, 4);
   }
   free(temp);
   free(written);
   return out;
}

/* ------------------------------------------------------------------ */
/* Whole runs                                                           */

static void
note(struct diff_cmp_result *r, const struct diff_mismatch *m, bool has_lane)
{
   r->mismatched++;
   if (r->nshown < DIFF_MAX_SHOWN)
      r->shown[r->nshown++] = *m;
   if (!has_lane)
      return;
   unsigned i = 0;
   while (i < r->nlanes && r->lanes[i] < m->lane)
      i++;
   if ((i < r->nlanes && r->lanes[i] == m->lane) || i >= DIFF_MAX_LANES)
      return;
   if (r->nlanes < DIFF_MAX_LANES)
      r->nlanes++;
   memmove(r->lanes + i + 1, r->lanes + i, (r->nlanes - 1 - i) * sizeof(r->lanes[0]));
   r->lanes[i] = m->lane;
}

static void
judge(struct diff_cmp_result *r, enum diff_verdict v, const struct diff_mismatch *m, bool has_lane)
{
   switch (v) {
   case DIFF_V_UNDEFINED:
      r->undefined++;
      return;
   case DIFF_V_UNCHECKED:
      r->unchecked++;
      return;
   case DIFF_V_TOLERATED:
      r->tolerated++;
      break;
   case DIFF_V_DIFFERENT:
      note(r, m, has_lane);
      break;
   case DIFF_V_EQUAL:
      break;
   }
   r->compared++;
}

static unsigned
out_usage(const struct tgsi_shader *s, uint32_t reg)
{
   const struct tgsi_decl *d = tgsi_find_decl(s, TGSI_FILE_OUT, reg);
   return d ? d->usage_mask : 0;
}

/* Outputs of a lane the expected side discarded are undefined. */
static bool
lane_killed(const struct env *f, const struct env *e, const struct env *a, uint32_t l)
{
   if (f && f->killed && f->nlanes == e->nlanes)
      return f->killed[l] != 0;
   return e->killed && a->killed && e->killed[l] && a->killed[l];
}

/* The flags of output value i, with its fuse bound above them. */
static unsigned
flags_at(const struct env *f, const struct env *e, size_t i)
{
   if (!f || !f->out_flags || f->nout != e->nout || f->out_vertices != e->out_vertices ||
       f->nlanes != e->nlanes)
      return 0;
   return f->out_flags[i] | (f->out_err ? (unsigned)f->out_err[i] << ENV_ERR_SHIFT : 0u);
}

static void
compare_outputs(const struct tgsi_shader *s, const struct env *e, const struct env *a,
                const struct diff_cmp_opts *o, struct diff_cmp_result *r)
{
   for (uint32_t v = 0; v < e->out_vertices; v++)
      for (uint32_t reg = 0; reg < e->nout; reg++)
         for (unsigned c = 0; c < 4; c++) {
            if (!(out_usage(s, reg) & (1u << c)) || (o->select && !o->select[reg * 4 + c]))
               continue;
            bool exact = o->exact && o->exact[reg * 4 + c];
            bool have = a->out && v < a->out_vertices && reg < a->nout;
            size_t ie = env_out_index(e, v, reg, c);
            size_t ia = have ? env_out_index(a, v, reg, c) : 0;
            for (uint32_t l = 0; l < e->nlanes; l++) {
               if (lane_killed(o->flags, e, a, l)) {
                  r->undefined++;
                  continue;
               }
               uint32_t ev = e->out[ie + l], av = have ? a->out[ia + l] : 0;
               unsigned fl = flags_at(o->flags, e, ie + l);
               struct diff_mismatch m = {DIFF_VAL_OUT, (uint8_t)c, (uint16_t)fl, v, reg, l, ev, av};
               judge(r, diff_value_verdict(ev, av, fl, exact, o), &m, true);
            }
         }
}

static void
compare_killed(const struct env *e, const struct env *a, const struct diff_cmp_opts *o,
               struct diff_cmp_result *r)
{
   if (!e->killed || !a->killed)
      return;
   const struct env *f = o->flags && o->flags->kill_undef ? o->flags : e;
   for (uint32_t l = 0; l < e->nlanes; l++) {
      uint16_t fl = f->kill_undef && f->kill_undef[l] ? ENV_F_UNDEF : 0;
      uint32_t ev = e->killed[l] != 0, av = a->killed[l] != 0;
      struct diff_mismatch m = {DIFF_VAL_KILLED, 0, fl, 0, 0, l, ev, av};
      enum diff_verdict v = fl ? DIFF_V_UNDEFINED : ev == av ? DIFF_V_EQUAL : DIFF_V_DIFFERENT;
      judge(r, v, &m, true);
   }
}

static void
compare_gs(const struct tgsi_shader *s, const struct env *e, const struct env *a,
           const struct diff_cmp_opts *o, struct diff_cmp_result *r)
{
   if (!e->gs_count)
      return;
   const struct env *f = o->flags && o->flags->gs_undef ? o->flags : e;
   bool same = a->gs_count && a->gs_max_vertices == e->gs_max_vertices && a->nout == e->nout;
   for (uint32_t l = 0; l < e->nlanes; l++) {
      uint32_t ec = e->gs_count[l], ac = same ? a->gs_count[l] : 0;
      struct diff_mismatch m = {DIFF_VAL_GS_COUNT, 0, 0, 0, 0, l, ec, ac};
      if (f->gs_undef[l]) {
         judge(r, DIFF_V_UNDEFINED, &m, true);
         continue;
      }
      judge(r, ec == ac ? DIFF_V_EQUAL : DIFF_V_DIFFERENT, &m, true);
      if (ec != ac)
         continue;
      for (uint32_t k = 0; k < ec; k++) {
         size_t at = (size_t)l * e->gs_max_vertices + k;
         struct diff_mismatch ms = {DIFF_VAL_GS_STREAM, 0, 0, k, 0, l, e->gs_stream[at],
                                    a->gs_stream[at]};
         struct diff_mismatch mp = {DIFF_VAL_GS_PRIM, 0, 0, k, 0, l, e->gs_prim[at],
                                    a->gs_prim[at]};
         judge(r, ms.expected == ms.actual ? DIFF_V_EQUAL : DIFF_V_DIFFERENT, &ms, true);
         judge(r, mp.expected == mp.actual ? DIFF_V_EQUAL : DIFF_V_DIFFERENT, &mp, true);
      }
      for (uint32_t k = 0; k < ec; k++)
         for (uint32_t reg = 0; reg < e->nout; reg++)
            for (unsigned c = 0; c < 4; c++) {
               if (!(out_usage(s, reg) & (1u << c)))
                  continue;
               size_t i = (((size_t)l * e->gs_max_vertices + k) * e->nout + reg) * 4 + c;
               /* the class, with the bound above it (as flags_at) */
               unsigned fl = f->gs_flags ? f->gs_flags[i] : 0;
               if (f->gs_err)
                  fl |= (unsigned)f->gs_err[i] << ENV_ERR_SHIFT;
               bool exact = o->exact && o->exact[reg * 4 + c];
               struct diff_mismatch mm = {DIFF_VAL_GS_DATA, (uint8_t)c,   (uint16_t)fl, k, reg, l,
                                          e->gs_data[i],    a->gs_data[i]};
               judge(r, diff_value_verdict(mm.expected, mm.actual, fl, exact, o), &mm, true);
            }
   }
}

/* A memory word gets the classes of the value the interpreter stored
 * there (env_mem.cls: 0 for an exact value or a word left as the input had
 * it), as an output channel does, against the oracle and between programs
 * (NANBITS, a MIN/MAX zero's sign, an allowed inexact transform); where
 * the interpreter kept no classes, the FUSE tolerance against the oracle
 * and exact bits between programs. */
static void
compare_mem(enum diff_value_kind kind, uint32_t index, const struct env_mem *em,
            const struct env_mem *am, const struct env_mem *fm, const struct diff_cmp_opts *o,
            struct diff_cmp_result *r)
{
   if (!em->data || !am->data || em->size != am->size)
      return;
   const struct env_mem *src = fm && fm->undef && fm->size == em->size ? fm : em;
   const uint8_t *undef = src->undef;
   bool oracle = o->mode == DIFF_CMP_ORACLE;
   for (uint32_t off = 0; off + 4 <= em->size; off += 4) {
      uint32_t ev, av;
      memcpy(&ev, em->data + off, 4);
      memcpy(&av, am->data + off, 4);
      bool u = undef && (undef[off] | undef[off + 1] | undef[off + 2] | undef[off + 3]);
      uint32_t w = src->cls ? env_mem_class(src, off / 4) : 0;
      unsigned cls = src->cls ? w & ENV_F_ALL : oracle ? ENV_F_FUSE : 0;
      unsigned fl = cls | (w & ENV_ERR_MASK) | (u ? ENV_F_UNDEF : 0);
      struct diff_mismatch m = {(uint8_t)kind, 0, (uint16_t)fl, 0, index, off, ev, av};
      judge(r, diff_value_verdict(ev, av, fl, false, o), &m, false);
   }
}

void
diff_compare(const struct tgsi_shader *s, const struct env *e, const struct env *a,
             const struct diff_cmp_opts *o, struct diff_cmp_result *r)
{
   memset(r, 0, sizeof(*r));
   if (s->stage == TGSI_STAGE_GEOM)
      compare_gs(s, e, a, o, r);
   else if (e->out)
      compare_outputs(s, e, a, o, r);
   if (s->stage == TGSI_STAGE_FRAG && !o->select)
      compare_killed(e, a, o, r);
   if (o->select)
      return;
   const struct env *f = o->flags;
   for (unsigned i = 0; i < ENV_MAX_BUFFERS; i++)
      compare_mem(DIFF_VAL_BUFFER, i, &e->buf[i], &a->buf[i], f ? &f->buf[i] : NULL, o, r);
   for (unsigned i = 0; i < ENV_MAX_IMAGES; i++)
      compare_mem(DIFF_VAL_IMAGE, i, &e->img[i].mem, &a->img[i].mem, f ? &f->img[i].mem : NULL, o,
                  r);
}

/* ------------------------------------------------------------------ */
/* Text                                                                 */

void
diff_value_text(uint32_t bits, char *buf, size_t size)
{
   float x = uif(bits);
   if (x != x)
      snprintf(buf, size, "0x%08x (%snan)", bits, bits >> 31 ? "-" : "");
   else
      snprintf(buf, size, "0x%08x (%.9g)", bits, (double)x);
}

static char *
flag_text(unsigned flags)
{
   char buf[160] = "";
   size_t n = 0;
   for (unsigned b = 0; b < ENV_F_COUNT && n < sizeof(buf) - 20; b++)
      if (flags & (1u << b))
         n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? " " : " [", env_flag_names[b]);
   if (n)
      snprintf(buf + n, sizeof(buf) - n, "]");
   return xstrdup(buf);
}

static char *
out_name(const struct tgsi_shader *s, const struct diff_mismatch *m, bool vertex)
{
   const struct tgsi_decl *d = tgsi_find_decl(s, TGSI_FILE_OUT, m->reg);
   char sem[48] = "";
   if (d && d->has_semantic)
      snprintf(sem, sizeof(sem), " (%s %u)", tgsi_semantic_names[d->semantic], d->semantic_index);
   if (vertex)
      return xasprintf("OUT[%u][%u].%c%s", m->vertex, m->reg, "xyzw"[m->chan & 3], sem);
   return xasprintf("OUT[%u].%c%s", m->reg, "xyzw"[m->chan & 3], sem);
}

char *
diff_mismatch_text(const struct tgsi_shader *s, const struct diff_mismatch *m)
{
   char ev[48], av[48];
   diff_value_text(m->expected, ev, sizeof(ev));
   diff_value_text(m->actual, av, sizeof(av));
   char *fl = flag_text(m->flags), *name = NULL, *t;
   switch (m->kind) {
   case DIFF_VAL_OUT:
      name = out_name(s, m, m->vertex > 0);
      t = xasprintf("%s lane %u: expected %s, got %s%s", name, m->lane, ev, av, fl);
      break;
   case DIFF_VAL_GS_DATA:
      name = out_name(s, m, false);
      t = xasprintf("emitted vertex %u %s lane %u: expected %s, got %s%s", m->vertex, name, m->lane,
                    ev, av, fl);
      break;
   case DIFF_VAL_KILLED:
      t = xasprintf("discard lane %u: expected %s, got %s", m->lane,
                    m->expected ? "discarded" : "kept", m->actual ? "discarded" : "kept");
      break;
   case DIFF_VAL_GS_COUNT:
      t = xasprintf("emitted vertices lane %u: expected %u, got %u", m->lane, m->expected,
                    m->actual);
      break;
   case DIFF_VAL_GS_STREAM:
   case DIFF_VAL_GS_PRIM:
      t = xasprintf("emitted vertex %u lane %u: %s expected %u, got %u", m->vertex, m->lane,
                    m->kind == DIFF_VAL_GS_STREAM ? "stream" : "primitive", m->expected, m->actual);
      break;
   default:
      t = xasprintf("%s[%u] byte %u: expected %s, got %s",
                    m->kind == DIFF_VAL_BUFFER ? "BUFFER" : "IMAGE", m->reg, m->lane, ev, av);
      break;
   }
   free(name);
   free(fl);
   return t;
}
