/*
 * TGSI -> LLVM IR, arithmetic: every ALU op, per channel, exact where TGSI is (llvm_tr.h).
 */
#include "compiler/llvm/llvm_tr.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- ALU ---------------------------------------------------------------- */

/* Whether an instruction must round every step: _PRECISE, or any
 * instruction of a shader with an INVARIANT output (which may feed it). */
static bool
exact(const struct tr *t, const struct tgsi_insn *in)
{
   return in->precise || t->invariant;
}

static val
dot(struct tr *t, const struct tgsi_insn *in, unsigned n)
{
   const char *fl = exact(t, in) ? "" : "contract ";
   val b = tr_src(t, in, 1, 0), a = tr_src(t, in, 0, 0); /* source 1 first: src01 */
   val acc = tr_fbin(t, "fmul", fl, a, b);
   for (unsigned k = 1; k < n; k++) {
      b = tr_src(t, in, 1, k);
      a = tr_src(t, in, 0, k);
      acc = tr_fbin(t, "fadd", fl, acc, tr_fbin(t, "fmul", fl, a, b));
   }
   return acc;
}

static val
ex2(struct tr *t, val x)
{
   return tr_f1(t, IN_EXP2, "exp2.f32", x);
}

static val
lg2(struct tr *t, val x)
{
   return tr_f1(t, IN_LOG2, "log2.f32", x);
}

static val
pow_(struct tr *t, val a, val b)
{
   /* exp2(b * log2(a)) with the legacy multiply (0 * inf = 0), so that
    * pow(x, 0) = 1 everywhere, as C's powf. */
   tr_use(t, IN_LEGACY_MUL);
   val l = tr_f(t, lg2(t, a)), fb = tr_f(t, b);
   val m = tr_emit(t, "call float @llvm.amdgcn.fmul.legacy(float %s, float %s)", tr_v(fb), tr_v(l));
   return ex2(t, tr_i(t, m));
}

static val
ffloor(struct tr *t, val a)
{
   return tr_f1(t, IN_FLOOR, "floor.f32", a);
}

/* GLSL packing: round to nearest even of the clamped, scaled value; NaN
 * packs as 0 (maxnum(NaN, 0) = 0). */
static val
unorm(struct tr *t, val x, float scale)
{
   val c = tr_f2(t, IN_MINNUM, "minnum.f32", tr_f2(t, IN_MAXNUM, "maxnum.f32", x, K(0)), FK(1.0f));
   val m = tr_f1(t, IN_RINT, "rint.f32", tr_fbin(t, "fmul", "", c, FK(scale)));
   return tr_emit(t, "fptoui float %s to i32", tr_v(tr_f(t, m)));
}

static val
snorm8(struct tr *t, val x)
{
   val nan = tr_fcmp(t, "uno", x, x);
   val c =
       tr_f2(t, IN_MINNUM, "minnum.f32", tr_f2(t, IN_MAXNUM, "maxnum.f32", x, FK(-1.0f)), FK(1.0f));
   val m = tr_f1(t, IN_RINT, "rint.f32", tr_fbin(t, "fmul", "", c, FK(127.0f)));
   val v = tr_ibin(t, "and", tr_emit(t, "fptosi float %s to i32", tr_v(tr_f(t, m))), K(0xff));
   return tr_sel(t, nan, K(0), v);
}

/* REPL opcodes: one value from the .x of the sources. */
static bool
alu_repl(struct tr *t, const struct tgsi_insn *in, val *r)
{
   switch (in->op) {
   case TGSI_OP_DP2:
      *r = dot(t, in, 2);
      return true;
   case TGSI_OP_DP3:
      *r = dot(t, in, 3);
      return true;
   case TGSI_OP_DP4:
      *r = dot(t, in, 4);
      return true;
   case TGSI_OP_RCP:
      *r = tr_f1(t, IN_RCP, "amdgcn.rcp.f32", tr_src(t, in, 0, 0));
      return true;
   case TGSI_OP_RSQ:
      *r = tr_f1(t, IN_RSQ, "amdgcn.rsq.f32", tr_src(t, in, 0, 0));
      return true;
   case TGSI_OP_SQRT:
      *r = tr_f1(t, IN_SQRT, "sqrt.f32", tr_src(t, in, 0, 0));
      return true;
   case TGSI_OP_EX2:
      *r = ex2(t, tr_src(t, in, 0, 0));
      return true;
   case TGSI_OP_LG2:
      *r = lg2(t, tr_src(t, in, 0, 0));
      return true;
   case TGSI_OP_POW: {
      val exponent = tr_src(t, in, 1, 0);
      *r = pow_(t, tr_src(t, in, 0, 0), exponent);
      return true;
   }
   case TGSI_OP_SIN:
      *r = tr_f1(t, IN_SIN, "sin.f32", tr_src(t, in, 0, 0));
      return true;
   case TGSI_OP_COS:
      *r = tr_f1(t, IN_COS, "cos.f32", tr_src(t, in, 0, 0));
      return true;
   case TGSI_OP_DPH: { /* dot3 + b.w */
      const char *fl = exact(t, in) ? "" : "contract ";
      val b = tr_src(t, in, 1, 0), a = tr_src(t, in, 0, 0); /* source 1 first: src01 */
      val acc = tr_fbin(t, "fmul", fl, a, b);
      for (unsigned k = 1; k < 3; k++) {
         b = tr_src(t, in, 1, k);
         a = tr_src(t, in, 0, k);
         acc = tr_fbin(t, "fadd", fl, acc, tr_fbin(t, "fmul", fl, a, b));
      }
      *r = tr_fbin(t, "fadd", fl, acc, tr_src(t, in, 1, 3));
      return true;
   }
   case TGSI_OP_PK2US: {
      val y = tr_ibin(t, "shl", unorm(t, tr_src(t, in, 0, 1), 65535.0f), K(16));
      *r = tr_ibin(t, "or", unorm(t, tr_src(t, in, 0, 0), 65535.0f), y);
      return true;
   }
   case TGSI_OP_PK4UB:
   case TGSI_OP_PK4B: {
      val acc = K(0);
      for (unsigned c = 0; c < 4; c++) {
         val x = tr_src(t, in, 0, c);
         val b = in->op == TGSI_OP_PK4UB ? unorm(t, x, 255.0f) : snorm8(t, x);
         acc = tr_ibin(t, "or", acc, tr_ibin(t, "shl", b, K(8 * c)));
      }
      *r = acc;
      return true;
   }
   case TGSI_OP_PK2H: {
      val lo = tr_f(t, tr_src(t, in, 0, 0)), hi = tr_f(t, tr_src(t, in, 0, 1));
      val hl = tr_emit(t, "fptrunc float %s to half", tr_v(lo));
      val hh = tr_emit(t, "fptrunc float %s to half", tr_v(hi));
      val il = tr_emit(t, "bitcast half %s to i16", tr_v(hl));
      val ih = tr_emit(t, "bitcast half %s to i16", tr_v(hh));
      val zl = tr_emit(t, "zext i16 %s to i32", tr_v(il));
      val zh = tr_emit(t, "zext i16 %s to i32", tr_v(ih));
      *r = tr_ibin(t, "or", zl, tr_ibin(t, "shl", zh, K(16)));
      return true;
   }
   default:
      return false;
   }
}

static val
f2i_guarded(struct tr *t, const char *op, val fa)
{
   /* fptosi/fptoui of an out-of-range value is poison in LLVM; the
    * interpreter marks those results undefined, so any defined value does. */
   return tr_emit(t, "%s float %s to i32", op, tr_v(fa));
}

/* Sources 0 and 1 of channel c, for an op whose two sources each emit a
 * value: source 1 first, the order gcc's builds always emitted them in (C
 * leaves the order of a call's arguments unspecified), so every value
 * keeps its number whichever compiler built diffcomp. */
static void
src01(struct tr *t, const struct tgsi_insn *in, unsigned c, val *s0, val *s1)
{
   *s1 = tr_src(t, in, 1, c);
   *s0 = tr_src(t, in, 0, c);
}

/* Component-wise opcodes: result channel c. */
static bool
alu_comp(struct tr *t, const struct tgsi_insn *in, unsigned c, val *r)
{
   const char *fl = exact(t, in) ? "" : "contract ";
   val s0, s1;
#define S(n)  tr_src(t, in, n, c)
#define S01() src01(t, in, c, &s0, &s1)
   switch (in->op) {
   case TGSI_OP_MOV:
      *r = S(0);
      return true;
   case TGSI_OP_ADD:
      S01();
      *r = tr_fbin(t, "fadd", "", s0, s1);
      return true;
   case TGSI_OP_MUL:
      S01();
      *r = tr_fbin(t, "fmul", "", s0, s1);
      return true;
   case TGSI_OP_SUB:
      S01();
      *r = tr_fbin(t, "fsub", "", s0, s1);
      return true;
   case TGSI_OP_ABS:
      *r = tr_f1(t, IN_FABS, "fabs.f32", S(0));
      return true;
   case TGSI_OP_CLAMP: {
      val a = S(0), lo = S(1), hi = S(2);
      *r = tr_f2(t, IN_MINNUM, "minnum.f32", tr_f2(t, IN_MAXNUM, "maxnum.f32", a, lo), hi);
      return true;
   }
   case TGSI_OP_SFL:
      *r = K(0);
      return true;
   case TGSI_OP_STR:
      *r = FK(1.0f);
      return true;
   case TGSI_OP_DIV:
      S01();
      *r = tr_fbin(t, "fdiv", "afn ", s0, s1);
      return true;
   case TGSI_OP_MAD: {
      val a = S(0), b = S(1), cc = S(2);
      *r = tr_fbin(t, "fadd", fl, tr_fbin(t, "fmul", fl, a, b), cc);
      return true;
   }
   case TGSI_OP_FMA: {
      tr_use(t, IN_FMA);
      val a = tr_f(t, S(0)), b = tr_f(t, S(1)), cc = tr_f(t, S(2));
      *r = tr_i(t, tr_emit(t, "call float @llvm.fma.f32(float %s, float %s, float %s)", tr_v(a),
                           tr_v(b), tr_v(cc)));
      return true;
   }
   case TGSI_OP_LRP: { /* a * (b - c) + c */
      val a = S(0), b = S(1), cc = S(2);
      *r = tr_fbin(t, "fadd", fl, tr_fbin(t, "fmul", fl, a, tr_fbin(t, "fsub", "", b, cc)), cc);
      return true;
   }
   case TGSI_OP_MIN:
      S01();
      *r = tr_f2(t, IN_MINNUM, "minnum.f32", s0, s1);
      return true;
   case TGSI_OP_MAX:
      S01();
      *r = tr_f2(t, IN_MAXNUM, "maxnum.f32", s0, s1);
      return true;
   case TGSI_OP_SLT:
   case TGSI_OP_SGE:
   case TGSI_OP_SEQ:
   case TGSI_OP_SGT:
   case TGSI_OP_SLE:
   case TGSI_OP_SNE: {
      static const char *cc[] = {"olt", "oge", "oeq", "ogt", "ole", "une"};
      unsigned k = in->op == TGSI_OP_SLT   ? 0
                   : in->op == TGSI_OP_SGE ? 1
                   : in->op == TGSI_OP_SEQ ? 2
                   : in->op == TGSI_OP_SGT ? 3
                   : in->op == TGSI_OP_SLE ? 4
                                           : 5;
      S01();
      *r = tr_sel(t, tr_fcmp(t, cc[k], s0, s1), FK(1.0f), K(0));
      return true;
   }
   case TGSI_OP_FSLT:
      S01();
      *r = tr_mask_of(t, tr_fcmp(t, "olt", s0, s1));
      return true;
   case TGSI_OP_FSGE:
      S01();
      *r = tr_mask_of(t, tr_fcmp(t, "oge", s0, s1));
      return true;
   case TGSI_OP_FSEQ:
      S01();
      *r = tr_mask_of(t, tr_fcmp(t, "oeq", s0, s1));
      return true;
   case TGSI_OP_FSNE:
      S01();
      *r = tr_mask_of(t, tr_fcmp(t, "une", s0, s1));
      return true;
   case TGSI_OP_CMP: {
      val a = S(0), b = S(1), cc = S(2);
      *r = tr_sel(t, tr_fcmp(t, "olt", a, K(0)), b, cc);
      return true;
   }
   case TGSI_OP_UCMP: {
      val a = S(0), b = S(1), cc = S(2);
      *r = tr_sel(t, tr_icmp(t, "ne", a, K(0)), b, cc);
      return true;
   }
   case TGSI_OP_SSG: {
      val a = S(0);
      val neg = tr_fcmp(t, "olt", a, K(0)), pos = tr_fcmp(t, "ogt", a, K(0));
      *r = tr_sel(t, neg, FK(-1.0f), tr_sel(t, pos, FK(1.0f), K(0)));
      return true;
   }
   case TGSI_OP_FRC: { /* x - floor(x): may be 1.0, as C computes it */
      val a = S(0);
      *r = tr_fbin(t, "fsub", "", a, ffloor(t, a));
      return true;
   }
   case TGSI_OP_FLR:
      *r = ffloor(t, S(0));
      return true;
   case TGSI_OP_CEIL:
      *r = tr_f1(t, IN_CEIL, "ceil.f32", S(0));
      return true;
   case TGSI_OP_TRUNC:
      *r = tr_f1(t, IN_TRUNC, "trunc.f32", S(0));
      return true;
   case TGSI_OP_ROUND:
      *r = tr_f1(t, IN_RINT, "rint.f32", S(0));
      return true;
   case TGSI_OP_LDEXP: {
      tr_use(t, IN_LDEXP);
      val a = tr_f(t, S(0)), b = S(1);
      *r = tr_i(
          t, tr_emit(t, "call float @llvm.amdgcn.ldexp.f32(float %s, i32 %s)", tr_v(a), tr_v(b)));
      return true;
   }
   case TGSI_OP_ARL:
      *r = f2i_guarded(t, "fptosi", tr_f(t, ffloor(t, S(0))));
      return true;
   case TGSI_OP_ARR: {
      val a = tr_fbin(t, "fadd", "", S(0), FK(0.5f));
      *r = f2i_guarded(t, "fptosi", tr_f(t, ffloor(t, a)));
      return true;
   }
   case TGSI_OP_F2I:
      *r = f2i_guarded(t, "fptosi", tr_f(t, S(0)));
      return true;
   case TGSI_OP_F2U:
      *r = f2i_guarded(t, "fptoui", tr_f(t, S(0)));
      return true;
   case TGSI_OP_I2F:
      *r = tr_i(t, tr_emit(t, "sitofp i32 %s to float", tr_v(S(0))));
      return true;
   case TGSI_OP_U2F:
      *r = tr_i(t, tr_emit(t, "uitofp i32 %s to float", tr_v(S(0))));
      return true;
   case TGSI_OP_UARL:
      *r = S(0);
      return true;
   case TGSI_OP_UADD:
      S01();
      *r = tr_ibin(t, "add", s0, s1);
      return true;
   case TGSI_OP_UMUL:
      S01();
      *r = tr_ibin(t, "mul", s0, s1);
      return true;
   case TGSI_OP_UMAD: {
      val a = S(0), b = S(1), cc = S(2);
      *r = tr_ibin(t, "add", tr_ibin(t, "mul", a, b), cc);
      return true;
   }
   case TGSI_OP_IMUL_HI:
   case TGSI_OP_UMUL_HI: {
      const char *ext = in->op == TGSI_OP_IMUL_HI ? "sext" : "zext";
      val a = tr_emit(t, "%s i32 %s to i64", ext, tr_v(S(0)));
      val b = tr_emit(t, "%s i32 %s to i64", ext, tr_v(S(1)));
      val m = tr_emit(t, "mul i64 %s, %s", tr_v(a), tr_v(b));
      val h = tr_emit(t, "lshr i64 %s, 32", tr_v(m));
      *r = tr_emit(t, "trunc i64 %s to i32", tr_v(h));
      return true;
   }
   case TGSI_OP_UDIV:
   case TGSI_OP_UMOD: {
      val a = S(0), b = S(1);
      val z = tr_icmp(t, "eq", b, K(0));
      val q = tr_ibin(t, in->op == TGSI_OP_UDIV ? "udiv" : "urem", a, tr_sel(t, z, K(1), b));
      *r = tr_sel(t, z, K(0xffffffffu), q);
      return true;
   }
   case TGSI_OP_IDIV:
   case TGSI_OP_MOD: {
      /* b = 0: 0 (IDIV) and -1 (MOD); INT_MIN / -1 wraps (x86 traps; the
       * interpreter leaves it undefined): no divisor that is UB in LLVM. */
      val a = S(0), b = S(1);
      val z = tr_icmp(t, "eq", b, K(0)), m1 = tr_icmp(t, "eq", b, K(-1));
      val safe = tr_sel(t, z, K(1), tr_sel(t, m1, K(1), b));
      bool div = in->op == TGSI_OP_IDIV;
      val q = tr_ibin(t, div ? "sdiv" : "srem", a, safe);
      val q1 = div ? tr_ibin(t, "sub", K(0), a) : K(0);
      *r = tr_sel(t, z, div ? K(0) : K(-1), tr_sel(t, m1, q1, q));
      return true;
   }
   case TGSI_OP_INEG:
      *r = tr_ibin(t, "sub", K(0), S(0));
      return true;
   case TGSI_OP_IABS: {
      val a = S(0);
      val neg = tr_ibin(t, "sub", K(0), a);
      *r = tr_sel(t, tr_icmp(t, "sge", a, K(0)), a, neg);
      return true;
   }
   case TGSI_OP_ISSG: {
      val a = S(0);
      val positive = tr_sel(t, tr_icmp(t, "sgt", a, K(0)), K(1), K(0));
      *r = tr_sel(t, tr_icmp(t, "slt", a, K(0)), K(-1), positive);
      return true;
   }
   case TGSI_OP_IMAX:
   case TGSI_OP_IMIN:
   case TGSI_OP_UMAX:
   case TGSI_OP_UMIN: {
      static const char *cc[] = {"sgt", "slt", "ugt", "ult"};
      unsigned k = in->op == TGSI_OP_IMAX   ? 0
                   : in->op == TGSI_OP_IMIN ? 1
                   : in->op == TGSI_OP_UMAX ? 2
                                            : 3;
      val a = S(0), b = S(1);
      *r = tr_sel(t, tr_icmp(t, cc[k], a, b), a, b);
      return true;
   }
   case TGSI_OP_ISLT:
      S01();
      *r = tr_mask_of(t, tr_icmp(t, "slt", s0, s1));
      return true;
   case TGSI_OP_ISGE:
      S01();
      *r = tr_mask_of(t, tr_icmp(t, "sge", s0, s1));
      return true;
   case TGSI_OP_USLT:
      S01();
      *r = tr_mask_of(t, tr_icmp(t, "ult", s0, s1));
      return true;
   case TGSI_OP_USGE:
      S01();
      *r = tr_mask_of(t, tr_icmp(t, "uge", s0, s1));
      return true;
   case TGSI_OP_USEQ:
      S01();
      *r = tr_mask_of(t, tr_icmp(t, "eq", s0, s1));
      return true;
   case TGSI_OP_USNE:
      S01();
      *r = tr_mask_of(t, tr_icmp(t, "ne", s0, s1));
      return true;
   case TGSI_OP_AND:
      S01();
      *r = tr_ibin(t, "and", s0, s1);
      return true;
   case TGSI_OP_OR:
      S01();
      *r = tr_ibin(t, "or", s0, s1);
      return true;
   case TGSI_OP_XOR:
      S01();
      *r = tr_ibin(t, "xor", s0, s1);
      return true;
   case TGSI_OP_NOT:
      *r = tr_ibin(t, "xor", S(0), K(-1));
      return true;
   case TGSI_OP_SHL:
   case TGSI_OP_USHR:
   case TGSI_OP_ISHR: {
      const char *op = in->op == TGSI_OP_SHL ? "shl" : in->op == TGSI_OP_USHR ? "lshr" : "ashr";
      val a = S(0);
      *r = tr_ibin(t, op, a, tr_ibin(t, "and", S(1), K(31)));
      return true;
   }
   case TGSI_OP_IBFE:
   case TGSI_OP_UBFE: {
      /* The interpreter's formula (tgsi_exec's): off = offset & 31;
       * bits == 32 && off == 0: v; bits &= 31; bits == 0: 0; bits + off
       * < 32: (v << (32 - bits - off)) >> (32 - bits); else v >> off. */
      const char *sh = in->op == TGSI_OP_IBFE ? "ashr" : "lshr";
      val v = S(0), off = tr_ibin(t, "and", S(1), K(31)), bits0 = S(2);
      val off_zero = tr_icmp(t, "eq", off, K(0)), bits_32 = tr_icmp(t, "eq", bits0, K(32));
      val whole = tr_emit(t, "and i1 %s, %s", tr_v(bits_32), tr_v(off_zero));
      val bits = tr_ibin(t, "and", bits0, K(31));
      val sum = tr_ibin(t, "add", bits, off);
      val in_range = tr_icmp(t, "ult", sum, K(32));
      val l = tr_ibin(t, "and", tr_ibin(t, "sub", K(32), sum), K(31));
      val rr = tr_ibin(t, "and", tr_ibin(t, "sub", K(32), bits), K(31));
      val a = tr_ibin(t, sh, tr_ibin(t, "shl", v, l), rr);
      val b = tr_ibin(t, sh, v, off);
      val x = tr_sel(t, in_range, a, b);
      x = tr_sel(t, tr_icmp(t, "eq", bits, K(0)), K(0), x);
      *r = tr_sel(t, whole, v, x);
      return true;
   }
   case TGSI_OP_BFI: {
      /* bits >= 32: bits == 32 ? insert : base; else the masked insert. */
      val base = S(0), ins = S(1), off = tr_ibin(t, "and", S(2), K(31)), bits = S(3);
      val bm = tr_ibin(t, "and", bits, K(31));
      val m0 = tr_ibin(t, "sub", tr_ibin(t, "shl", K(1), bm), K(1));
      val m = tr_ibin(t, "shl", m0, off);
      val kept = tr_ibin(t, "and", base, tr_ibin(t, "xor", m, K(-1)));
      val x = tr_ibin(t, "or", tr_ibin(t, "and", tr_ibin(t, "shl", ins, off), m), kept);
      val big = tr_icmp(t, "uge", bits, K(32));
      *r = tr_sel(t, big, tr_sel(t, tr_icmp(t, "eq", bits, K(32)), ins, base), x);
      return true;
   }
   case TGSI_OP_BREV:
      tr_use(t, IN_BITREV);
      *r = tr_emit(t, "call i32 @llvm.bitreverse.i32(i32 %s)", tr_v(S(0)));
      return true;
   case TGSI_OP_POPC:
      tr_use(t, IN_CTPOP);
      *r = tr_emit(t, "call i32 @llvm.ctpop.i32(i32 %s)", tr_v(S(0)));
      return true;
   case TGSI_OP_LSB: {
      tr_use(t, IN_CTTZ);
      val a = S(0);
      val z = tr_emit(t, "call i32 @llvm.cttz.i32(i32 %s, i1 false)", tr_v(a));
      *r = tr_sel(t, tr_icmp(t, "eq", a, K(0)), K(-1), z);
      return true;
   }
   case TGSI_OP_UMSB:
   case TGSI_OP_IMSB: {
      tr_use(t, IN_CTLZ);
      val a = S(0);
      if (in->op == TGSI_OP_IMSB) {
         val inverted = tr_ibin(t, "xor", a, K(-1));
         a = tr_sel(t, tr_icmp(t, "slt", a, K(0)), inverted, a);
      }
      val z = tr_emit(t, "call i32 @llvm.ctlz.i32(i32 %s, i1 false)", tr_v(a));
      *r = tr_ibin(t, "sub", K(31), z);
      return true;
   }
   default:
      return false;
   }
#undef S01
#undef S
}

/* DST's y: a.y * b.y (source 1 first: src01). */
static val
dst_y(struct tr *t, const struct tgsi_insn *in)
{
   val b = tr_src(t, in, 1, 1);
   return tr_fbin(t, "fmul", "", tr_src(t, in, 0, 1), b);
}

/* CHAN opcodes: a formula per destination channel. */
static bool
alu_chan(struct tr *t, const struct tgsi_insn *in, unsigned c, val *r)
{
   switch (in->op) {
   case TGSI_OP_DST:
      *r = c == 0   ? FK(1.0f)
           : c == 1 ? dst_y(t, in)
           : c == 2 ? tr_src(t, in, 0, 2)
                    : tr_src(t, in, 1, 3);
      return true;
   case TGSI_OP_EXP: {
      val x = tr_src(t, in, 0, 0);
      *r = c == 0   ? ex2(t, ffloor(t, x))
           : c == 1 ? tr_fbin(t, "fsub", "", x, ffloor(t, x))
           : c == 2 ? ex2(t, x)
                    : FK(1.0f);
      return true;
   }
   case TGSI_OP_LOG: {
      tr_use(t, IN_FABS);
      val x = tr_src(t, in, 0, 0);
      val ax = tr_i(t, tr_emit(t, "call float @llvm.fabs.f32(float %s)", tr_v(tr_f(t, x))));
      val l = lg2(t, ax);
      *r = c == 0   ? ffloor(t, l)
           : c == 1 ? tr_fbin(t, "fdiv", "afn ", ax, ex2(t, ffloor(t, l)))
           : c == 2 ? l
                    : FK(1.0f);
      return true;
   }
   case TGSI_OP_LIT: {
      if (c == 0 || c == 3) {
         *r = FK(1.0f);
         return true;
      }
      val x = tr_src(t, in, 0, 0);
      val mx = tr_f2(t, IN_MAXNUM, "maxnum.f32", x, K(0));
      if (c == 1) {
         *r = mx;
         return true;
      }
      val y = tr_f2(t, IN_MAXNUM, "maxnum.f32", tr_src(t, in, 0, 1), K(0));
      val w =
          tr_f2(t, IN_MINNUM, "minnum.f32",
                tr_f2(t, IN_MAXNUM, "maxnum.f32", tr_src(t, in, 0, 3), FK(-128.0f)), FK(128.0f));
      val power = pow_(t, y, w);
      *r = tr_sel(t, tr_fcmp(t, "olt", K(0), x), power, K(0));
      return true;
   }
   case TGSI_OP_XPD: { /* a.yzx * b.zxy - a.zxy * b.yzx, w = 1 */
      if (c == 3) {
         *r = FK(1.0f);
         return true;
      }
      unsigned c1 = (c + 1) % 3, c2 = (c + 2) % 3;
      const char *fl = exact(t, in) ? "" : "contract ";
      val b = tr_src(t, in, 1, c2), a = tr_src(t, in, 0, c1); /* source 1 first: src01 */
      val p = tr_fbin(t, "fmul", fl, a, b);
      b = tr_src(t, in, 1, c1);
      a = tr_src(t, in, 0, c2);
      val q = tr_fbin(t, "fmul", fl, a, b);
      *r = tr_fbin(t, "fsub", fl, p, q);
      return true;
   }
   case TGSI_OP_SCS:
      *r = c == 0   ? tr_f1(t, IN_COS, "cos.f32", tr_src(t, in, 0, 0))
           : c == 1 ? tr_f1(t, IN_SIN, "sin.f32", tr_src(t, in, 0, 0))
           : c == 2 ? K(0)
                    : FK(1.0f);
      return true;
   case TGSI_OP_NRM:
   case TGSI_OP_NRM4: {
      unsigned k = in->op == TGSI_OP_NRM ? 3 : 4;
      if (c >= k) {
         *r = FK(1.0f);
         return true;
      }
      const char *fl = exact(t, in) ? "" : "contract ";
      val d = 0;
      for (unsigned j = 0; j < k; j++) {
         /* each product fetches the source twice (a fetch may emit) */
         val x1 = tr_src(t, in, 0, j), x0 = tr_src(t, in, 0, j);
         val sq = tr_fbin(t, "fmul", fl, x0, x1);
         d = j ? tr_fbin(t, "fadd", fl, d, sq) : sq;
      }
      val rsq = tr_f1(t, IN_RSQ, "amdgcn.rsq.f32", d);
      *r = tr_fbin(t, "fmul", "", tr_src(t, in, 0, c), rsq);
      return true;
   }
   case TGSI_OP_UP2US:
   case TGSI_OP_UP4UB:
   case TGSI_OP_UP4B: {
      val x = tr_src(t, in, 0, 0);
      if (in->op == TGSI_OP_UP2US) {
         val h = tr_ibin(t, "and", tr_ibin(t, "lshr", x, K(c & 1 ? 16 : 0)), K(0xffff));
         val fv = tr_i(t, tr_emit(t, "uitofp i32 %s to float", tr_v(h)));
         *r = tr_fbin(t, "fdiv", "", fv, FK(65535.0f));
      } else if (in->op == TGSI_OP_UP4UB) {
         val b = tr_ibin(t, "and", tr_ibin(t, "lshr", x, K(8 * c)), K(0xff));
         val fv = tr_i(t, tr_emit(t, "uitofp i32 %s to float", tr_v(b)));
         *r = tr_fbin(t, "fdiv", "", fv, FK(255.0f));
      } else {
         val b = tr_ibin(t, "ashr", tr_ibin(t, "shl", x, K(24 - 8 * c)), K(24));
         val fv = tr_i(t, tr_emit(t, "sitofp i32 %s to float", tr_v(b)));
         val q = tr_fbin(t, "fdiv", "", fv, FK(127.0f));
         *r = tr_f2(t, IN_MAXNUM, "maxnum.f32", q, FK(-1.0f));
      }
      return true;
   }
   case TGSI_OP_UP2H: {
      val a = tr_src(t, in, 0, 0);
      val h = c == 0 || c == 2 ? a : tr_ibin(t, "lshr", a, K(16));
      val tr16 = tr_emit(t, "trunc i32 %s to i16", tr_v(h));
      val hf = tr_emit(t, "bitcast i16 %s to half", tr_v(tr16));
      *r = tr_i(t, tr_emit(t, "fpext half %s to float", tr_v(hf)));
      return true;
   }
   default:
      return false;
   }
}

bool
tr_alu(struct tr *t, const struct tgsi_insn *in)
{
   unsigned mask = in->ndst ? in->dst[0].mask : 0;
   val res[4] = {0, 0, 0, 0};
   val r;
   unsigned done = 0;
   uint32_t save = t->nid;
   (void)save;
   if (alu_repl(t, in, &r)) {
      for (unsigned c = 0; c < 4; c++)
         res[c] = r;
      done = mask;
   } else {
      for (unsigned c = 0; c < 4 && !t->failed; c++) {
         if (!(mask & (1u << c)))
            continue;
         if (!alu_comp(t, in, c, &res[c]) && !alu_chan(t, in, c, &res[c]))
            return false;
         done |= 1u << c;
      }
   }
   /* Every source is read before any channel is written. */
   for (unsigned c = 0; c < 4; c++)
      if (done & (1u << c))
         tr_store(t, in, c, res[c]);
   return true;
}

/* The lane of the quad each lane reads (QUAD_PERM fields, lane 0 first)
 * as a ds_swizzle offset: bit 15 selects the quad-permute form. */
static unsigned
quad_perm(unsigned q0, unsigned q1, unsigned q2, unsigned q3)
{
   return 0x8000u | q0 | q1 << 2 | q2 << 4 | q3 << 6;
}

/* DDX, DDY and their fine forms in a pixel shader: the difference of two
 * quad swizzles (ds_swizzle_b32's QUAD_PERM form, lanes 0 top-left, 1
 * top-right, 2 bottom-left, 3 bottom-right), the result in whole quad
 * mode (llvm.amdgcn.wqm) so that llc keeps every lane of the quad on
 * while it is computed, as Mesa does. Coarse: DDX = BR - BL, DDY = BL -
 * TL in every lane; fine: each row's or column's own difference. */
bool
tr_deriv(struct tr *t, const struct tgsi_insn *in)
{
   if (t->s->stage != TGSI_STAGE_FRAG)
      return tr_fail(t, in, "%s: derivatives outside a pixel shader not translated",
                     tgsi_op_info[in->op].name);
   unsigned a, b; /* the minuend's and subtrahend's swizzles */
   switch (in->op) {
   case TGSI_OP_DDX:
      a = quad_perm(3, 3, 3, 3), b = quad_perm(2, 2, 2, 2);
      break;
   case TGSI_OP_DDY:
      a = quad_perm(2, 2, 2, 2), b = quad_perm(0, 0, 0, 0);
      break;
   case TGSI_OP_DDX_FINE:
      a = quad_perm(1, 1, 3, 3), b = quad_perm(0, 0, 2, 2);
      break;
   default: /* DDY_FINE */
      a = quad_perm(2, 3, 2, 3), b = quad_perm(0, 1, 0, 1);
      break;
   }
   tr_use(t, IN_SWIZZLE);
   tr_use(t, IN_WQM);
   unsigned mask = in->ndst ? in->dst[0].mask : 0;
   val res[4] = {0, 0, 0, 0};
   for (unsigned c = 0; c < 4; c++) {
      if (!(mask & (1u << c)))
         continue;
      val x = tr_src(t, in, 0, c);
      val sa = tr_emit(t, "call i32 @llvm.amdgcn.ds.swizzle(i32 %s, i32 %u)", tr_v(x), a);
      val sb = tr_emit(t, "call i32 @llvm.amdgcn.ds.swizzle(i32 %s, i32 %u)", tr_v(x), b);
      val d = tr_f(t, tr_fbin(t, "fsub", "", sa, sb));
      res[c] = tr_i(t, tr_emit(t, "call float @llvm.amdgcn.wqm.f32(float %s)", tr_v(d)));
   }
   for (unsigned c = 0; c < 4; c++)
      if (mask & (1u << c))
         tr_store(t, in, c, res[c]);
   return !t->failed;
}

/* ---- subgroups and interpolation ---------------------------------------- */

static val
ballot(struct tr *t, val cond)
{
   tr_declare(t, "declare i64 @llvm.amdgcn.ballot.i64(i1)");
   return tr_emit(t, "call i64 @llvm.amdgcn.ballot.i64(i1 %s)", tr_v(cond));
}

static val
read_first(struct tr *t, val v)
{
   tr_declare(t, "declare i32 @llvm.amdgcn.readfirstlane(i32)");
   return tr_emit(t, "call i32 @llvm.amdgcn.readfirstlane(i32 %s)", tr_v(v));
}

/* The subgroup is the 64-lane wave (the check runs the interpreter with
 * 64-lane subgroups for gfx9), its active lanes EXEC's. BALLOT: the
 * lanes whose .x is not 0, low word in .x and .z, high in .y and .w;
 * VOTE_ANY/ALL/EQ: ~0 or 0 per channel (EQ: every active lane equal to
 * the first's); READ_FIRST: the first active lane's value; READ_INVOC:
 * lane src1.x's (ds_bpermute at its byte address; the interpreter leaves
 * an inactive or out-of-range source undefined). */
bool
tr_subgroup(struct tr *t, const struct tgsi_insn *in)
{
   val r[4] = {0, 0, 0, 0};
   if (in->op == TGSI_OP_BALLOT) {
      val m = ballot(t, tr_icmp(t, "ne", tr_src(t, in, 0, 0), K(0)));
      val lo = tr_emit(t, "trunc i64 %s to i32", tr_v(m));
      val hi = tr_emit(t, "trunc i64 %s to i32", tr_v(tr_emit(t, "lshr i64 %s, 32", tr_v(m))));
      r[0] = r[2] = lo;
      r[1] = r[3] = hi;
   }
   val lane4 = 0;
   if (in->op == TGSI_OP_READ_INVOC) {
      tr_declare(t, "declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)");
      lane4 = tr_ibin(t, "shl", tr_src(t, in, 1, 0), K(2));
   }
   for (unsigned c = 0; c < 4; c++) {
      if (!(in->dst[0].mask & (1u << c)) || in->op == TGSI_OP_BALLOT)
         continue;
      val v = tr_src(t, in, 0, c);
      switch (in->op) {
      case TGSI_OP_READ_FIRST:
         r[c] = read_first(t, v);
         break;
      case TGSI_OP_READ_INVOC:
         r[c] =
             tr_emit(t, "call i32 @llvm.amdgcn.ds.bpermute(i32 %s, i32 %s)", tr_v(lane4), tr_v(v));
         break;
      case TGSI_OP_VOTE_ANY: {
         val m = ballot(t, tr_icmp(t, "ne", v, K(0)));
         r[c] = tr_mask_of(t, tr_emit(t, "icmp ne i64 %s, 0", tr_v(m)));
         break;
      }
      default: { /* VOTE_ALL, VOTE_EQ: the lanes that pass are EXEC */
         val pass = in->op == TGSI_OP_VOTE_ALL ? tr_icmp(t, "ne", v, K(0))
                                               : tr_icmp(t, "eq", v, read_first(t, v));
         val m = ballot(t, pass);
         val e = tr_emit(t, "call i64 @llvm.amdgcn.ballot.i64(i1 true)");
         r[c] = tr_mask_of(t, tr_emit(t, "icmp eq i64 %s, %s", tr_v(m), tr_v(e)));
         break;
      }
      }
   }
   for (unsigned c = 0; c < 4; c++)
      if (in->dst[0].mask & (1u << c))
         tr_store(t, in, c, r[c]);
   return true;
}

/* INTERP_CENTROID, INTERP_SAMPLE: the interpreter's pixel is one fully
 * covered sample at its centre, so the input as interpolated (another
 * sample index is undefined there). */
bool
tr_interp(struct tr *t, const struct tgsi_insn *in)
{
   if (in->src[0].reg.file != TGSI_FILE_IN)
      return tr_fail(t, in, "%s of a non-input not translated", tgsi_op_info[in->op].name);
   val r[4];
   for (unsigned c = 0; c < 4; c++)
      r[c] = tr_src(t, in, 0, c);
   for (unsigned c = 0; c < 4; c++)
      if (in->dst[0].mask & (1u << c))
         tr_store(t, in, c, r[c]);
   return true;
}

/* What the interpreter's environment fixes (tgsi_interp_res.c), as the
 * reference compiler reads it: one sample per pixel, so SAMPLE_INFO is
 * (1, 0, 0, 0) and SAMPLE_POS (0.5, 0.5, undefined, undefined; 0 here),
 * each through src0's swizzle, whatever the operand names; READ_HELPER
 * is 0 in a shader without DEMOTE (no helper lanes). */
bool
tr_sample_info(struct tr *t, const struct tgsi_insn *in)
{
   static const uint32_t info[4] = {1, 0, 0, 0}, pos[4] = {0x3f000000u, 0x3f000000u, 0, 0},
                         none[4] = {0, 0, 0, 0};
   const uint32_t *v = in->op == TGSI_OP_SAMPLE_INFO  ? info
                       : in->op == TGSI_OP_SAMPLE_POS ? pos
                                                      : none;
   for (unsigned i = 0; in->op == TGSI_OP_READ_HELPER && i < t->s->ninsns; i++)
      if (t->s->insns[i].op == TGSI_OP_DEMOTE)
         return tr_fail(t, in, "READ_HELPER in a shader with DEMOTE not translated");
   for (unsigned c = 0; c < 4; c++)
      if (in->dst[0].mask & (1u << c))
         tr_store(t, in, c, K(v[in->op == TGSI_OP_READ_HELPER ? c : in->src[0].swz[c] & 3]));
   return !t->failed;
}
