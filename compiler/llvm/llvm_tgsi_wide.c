/*
 * TGSI -> LLVM IR, 64-bit values: doubles and 64-bit integers, each a
 * channel pair (xy value 0, zw value 1, low word first) read as one i64
 * (a <2 x i32> bitcast, which llc keeps in a register pair) and written
 * back as two words. The channel mapping and the values are the
 * interpreter's (compiler/tgsi/tgsi_interp_wide.c):
 *  - 64-bit results: pair p when the write mask touches it, its channels
 *    as the mask says;
 *  - compares: a 32-bit ~0/0 in the first masked channel of the pair;
 *  - 32 -> 64 conversions: src.x for xy, src.y for zw, each only when
 *    both channels of the pair are written;
 *  - 64 -> 32 conversions: the first masked channel from pair xy, the
 *    second from pair zw;
 *  - DLDEXP and the shifts: the 32-bit operand from src1.x (xy) and
 *    src1.z (zw); shifts count modulo 64.
 * '-' on a double source flips its sign bit and '|x|' clears it (bit
 * operations, as the interpreter's); '-' on an integer negates it. A NaN
 * result of a double op is the interpreter's one quiet NaN: DNEG and DABS
 * select it (llc's other f64 ops give it on the gfx9 model).
 * Double arithmetic is LLVM's exact f64 arithmetic; DMAD may fuse
 * (`contract`) unless exact. DDIV is `fdiv double`, DRCP 1.0 / x, DSQRT
 * `llvm.sqrt.f64`, DRSQ 1.0 / sqrt(x): correctly rounded in LLVM's IR
 * (llc's v_div_scale/fmas/fixup_f64 sequence; its sqrt is v_sqrt_f64).
 */
#include "compiler/llvm/llvm_tr.h"

#include <stdio.h>

#define SIGN64 "-9223372036854775808" /* 0x8000000000000000 as i64 */

/* Two i32 words as an i64. */
static val
join64(struct tr *t, val lo, val hi)
{
   val a = tr_emit(t, "insertelement <2 x i32> undef, i32 %s, i32 0", tr_v(lo));
   val b = tr_emit(t, "insertelement <2 x i32> %s, i32 %s, i32 1", tr_v(a), tr_v(hi));
   return tr_emit(t, "bitcast <2 x i32> %s to i64", tr_v(b));
}

static void
split64(struct tr *t, val v, val *lo, val *hi)
{
   val w = tr_emit(t, "bitcast i64 %s to <2 x i32>", tr_v(v));
   *lo = tr_emit(t, "extractelement <2 x i32> %s, i32 0", tr_v(w));
   *hi = tr_emit(t, "extractelement <2 x i32> %s, i32 1", tr_v(w));
}

/* 64-bit source si, pair p, as an i64, its modifiers applied. */
static val
src64(struct tr *t, const struct tgsi_insn *in, unsigned si, unsigned p)
{
   const struct tgsi_src *s = &in->src[si];
   val lo = tr_fetch_chan(t, in, &s->reg, s->swz[2 * p] & 3);
   val hi = tr_fetch_chan(t, in, &s->reg, s->swz[2 * p + 1] & 3);
   val v = join64(t, lo, hi);
   if (tgsi_interp_src_type(in->op, si) == TGSI_TYPE_D) {
      if (s->abs)
         v = tr_emit(t, "and i64 %s, 9223372036854775807", tr_v(v));
      if (s->neg)
         v = tr_emit(t, "xor i64 %s, " SIGN64, tr_v(v));
   } else if (s->neg) {
      v = tr_emit(t, "sub i64 0, %s", tr_v(v));
   }
   return v;
}

static val
to_d(struct tr *t, val v)
{
   return tr_emit(t, "bitcast i64 %s to double", tr_v(v));
}

static val
from_d(struct tr *t, val d)
{
   return tr_emit(t, "bitcast double %s to i64", tr_v(d));
}

/* A double intrinsic of 1 to 3 i64 operands, returning i64. */
static val
dcall(struct tr *t, const char *name, unsigned n, val a, val b, val c)
{
   static const char *const params[] = {"double", "double, double", "double, double, double"};
   char decl[128];
   snprintf(decl, sizeof(decl), "declare double @llvm.%s(%s)", name, params[n - 1]);
   tr_declare(t, decl);
   val x[3] = {a, b, c};
   char args[3][48];
   for (unsigned k = 0; k < n; k++)
      snprintf(args[k], sizeof(args[k]), "%sdouble %s", k ? ", " : "", tr_v(to_d(t, x[k])));
   return from_d(t, tr_emit(t, "call double @llvm.%s(%s%s%s)", name, args[0], n > 1 ? args[1] : "",
                            n > 2 ? args[2] : ""));
}

static val
dbin(struct tr *t, const char *op, const char *flags, val a, val b)
{
   val x = to_d(t, a), y = to_d(t, b);
   return from_d(t, tr_emit(t, "%s %sdouble %s, %s", op, flags, tr_v(x), tr_v(y)));
}

static val
ibin64(struct tr *t, const char *op, val a, val b)
{
   return tr_emit(t, "%s i64 %s, %s", op, tr_v(a), tr_v(b));
}

static val
sel64(struct tr *t, val c, val a, val b)
{
   return tr_emit(t, "select i1 %s, i64 %s, i64 %s", tr_v(c), tr_v(a), tr_v(b));
}

static val
icmp64(struct tr *t, const char *cc, val a, val b)
{
   return tr_emit(t, "icmp %s i64 %s, %s", cc, tr_v(a), tr_v(b));
}

/* i64 constants are printed from their decimal text. */
static val
k64(struct tr *t, const char *text)
{
   return tr_emit(t, "add i64 0, %s", text);
}

/* 64 -> 64 ops of pair p (a, b, c its operands as i64). */
static bool
op64(struct tr *t, const struct tgsi_insn *in, unsigned p, val *r)
{
   bool exact = in->precise || t->invariant;
   val a = 0, b = 0, c = 0;
   unsigned nsrc = tgsi_op_info[in->op].nsrc;
   bool shift = in->op == TGSI_OP_DLDEXP || in->op == TGSI_OP_U64SHL || in->op == TGSI_OP_U64SHR ||
                in->op == TGSI_OP_I64SHR;
   if (nsrc > 0)
      a = src64(t, in, 0, p);
   if (nsrc > 1)
      b = shift ? tr_src(t, in, 1, 2 * p) : src64(t, in, 1, p);
   if (nsrc > 2)
      c = src64(t, in, 2, p);
   switch (in->op) {
   case TGSI_OP_DABS: /* a NaN comes out as the one quiet NaN, as from the other ops */
   case TGSI_OP_DNEG: {
      val m = in->op == TGSI_OP_DABS ? tr_emit(t, "and i64 %s, 9223372036854775807", tr_v(a))
                                     : tr_emit(t, "xor i64 %s, " SIGN64, tr_v(a));
      val d = to_d(t, a);
      val nan = tr_emit(t, "fcmp uno double %s, 0.0", tr_v(d));
      *r = sel64(t, nan, k64(t, "9221120237041090560"), m); /* 0x7ff8000000000000 */
      return true;
   }
   case TGSI_OP_DRCP:
      *r = dbin(t, "fdiv", "", k64(t, "4607182418800017408"), a); /* 1.0 */
      return true;
   case TGSI_OP_DSQRT:
      *r = dcall(t, "sqrt.f64", 1, a, 0, 0);
      return true;
   case TGSI_OP_DRSQ: {
      val root = dcall(t, "sqrt.f64", 1, a, 0, 0);
      *r = dbin(t, "fdiv", "", k64(t, "4607182418800017408"), root); /* 1.0 / root */
      return true;
   }
   case TGSI_OP_DDIV:
      *r = dbin(t, "fdiv", "", a, b);
      return true;
   case TGSI_OP_DFRAC: {
      val f = dcall(t, "floor.f64", 1, a, 0, 0);
      *r = dbin(t, "fsub", "", a, f);
      return true;
   }
   case TGSI_OP_DFLR:
      *r = dcall(t, "floor.f64", 1, a, 0, 0);
      return true;
   case TGSI_OP_DTRUNC:
      *r = dcall(t, "trunc.f64", 1, a, 0, 0);
      return true;
   case TGSI_OP_DCEIL:
      *r = dcall(t, "ceil.f64", 1, a, 0, 0);
      return true;
   case TGSI_OP_DROUND:
      *r = dcall(t, "rint.f64", 1, a, 0, 0);
      return true;
   case TGSI_OP_DSSG: { /* -1, 1 or 0 (NaN: 0) */
      val d = to_d(t, a);
      val lt = tr_emit(t, "fcmp olt double %s, 0.0", tr_v(d));
      val gt = tr_emit(t, "fcmp ogt double %s, 0.0", tr_v(d));
      val s = tr_emit(t, "select i1 %s, double 1.0, double 0.0", tr_v(gt));
      *r = from_d(t, tr_emit(t, "select i1 %s, double -1.0, double %s", tr_v(lt), tr_v(s)));
      return true;
   }
   case TGSI_OP_D2U64: /* out of range: undefined (poison to LLVM) */
   case TGSI_OP_D2I64:
      *r = tr_emit(t, "%s double %s to i64", in->op == TGSI_OP_D2U64 ? "fptoui" : "fptosi",
                   tr_v(to_d(t, a)));
      return true;
   case TGSI_OP_U642D:
   case TGSI_OP_I642D:
      *r = from_d(t, tr_emit(t, "%s i64 %s to double",
                             in->op == TGSI_OP_U642D ? "uitofp" : "sitofp", tr_v(a)));
      return true;
   case TGSI_OP_I64ABS: {
      val n = ibin64(t, "sub", k64(t, "0"), a);
      *r = sel64(t, icmp64(t, "slt", a, k64(t, "0")), n, a);
      return true;
   }
   case TGSI_OP_I64SSG: {
      val zero = k64(t, "0"), one = k64(t, "1");
      val s = sel64(t, icmp64(t, "ne", a, k64(t, "0")), one, zero);
      val minus_one = k64(t, "-1");
      *r = sel64(t, icmp64(t, "slt", a, k64(t, "0")), minus_one, s);
      return true;
   }
   case TGSI_OP_I64NEG:
      *r = ibin64(t, "sub", k64(t, "0"), a);
      return true;
   case TGSI_OP_DADD:
      *r = dbin(t, "fadd", "", a, b);
      return true;
   case TGSI_OP_DMUL:
      *r = dbin(t, "fmul", "", a, b);
      return true;
   case TGSI_OP_DMIN: /* NaN gives the other operand; +-0 either */
      *r = dcall(t, "minnum.f64", 2, a, b, 0);
      return true;
   case TGSI_OP_DMAX:
      *r = dcall(t, "maxnum.f64", 2, a, b, 0);
      return true;
   case TGSI_OP_DMAD: {
      const char *fl = exact ? "" : "contract ";
      *r = dbin(t, "fadd", fl, dbin(t, "fmul", fl, a, b), c);
      return true;
   }
   case TGSI_OP_DFMA:
      *r = dcall(t, "fma.f64", 3, a, b, c);
      return true;
   case TGSI_OP_U64ADD:
      *r = ibin64(t, "add", a, b);
      return true;
   case TGSI_OP_U64MUL:
      *r = ibin64(t, "mul", a, b);
      return true;
   case TGSI_OP_U64DIV:
   case TGSI_OP_U64MOD: { /* b = 0: ~0 (undefined to the interpreter) */
      val z = icmp64(t, "eq", b, k64(t, "0"));
      val q = ibin64(t, in->op == TGSI_OP_U64DIV ? "udiv" : "urem", a, sel64(t, z, k64(t, "1"), b));
      *r = sel64(t, z, k64(t, "-1"), q);
      return true;
   }
   case TGSI_OP_I64DIV:
   case TGSI_OP_I64MOD: { /* b = 0: 0 (DIV), -1 (MOD); INT64_MIN / -1 undefined */
      bool div = in->op == TGSI_OP_I64DIV;
      val z = icmp64(t, "eq", b, k64(t, "0")), m1 = icmp64(t, "eq", b, k64(t, "-1"));
      val safe_m1 = sel64(t, m1, k64(t, "1"), b);
      val safe = sel64(t, z, k64(t, "1"), safe_m1);
      val q = ibin64(t, div ? "sdiv" : "srem", a, safe);
      val q1 = div ? ibin64(t, "sub", k64(t, "0"), a) : k64(t, "0");
      val q_m1 = sel64(t, m1, q1, q);
      *r = sel64(t, z, k64(t, div ? "0" : "-1"), q_m1);
      return true;
   }
   case TGSI_OP_I64MIN:
   case TGSI_OP_U64MIN:
   case TGSI_OP_I64MAX:
   case TGSI_OP_U64MAX: {
      const char *cc = in->op == TGSI_OP_I64MIN   ? "slt"
                       : in->op == TGSI_OP_U64MIN ? "ult"
                       : in->op == TGSI_OP_I64MAX ? "sgt"
                                                  : "ugt";
      *r = sel64(t, icmp64(t, cc, a, b), a, b);
      return true;
   }
   case TGSI_OP_DLDEXP: {
      tr_declare(t, "declare double @llvm.amdgcn.ldexp.f64(double, i32)");
      val d = tr_emit(t, "call double @llvm.amdgcn.ldexp.f64(double %s, i32 %s)", tr_v(to_d(t, a)),
                      tr_v(b));
      *r = from_d(t, d);
      return true;
   }
   case TGSI_OP_U64SHL:
   case TGSI_OP_U64SHR:
   case TGSI_OP_I64SHR: {
      val s = tr_emit(t, "zext i32 %s to i64", tr_v(tr_ibin(t, "and", b, K(63))));
      const char *op = in->op == TGSI_OP_U64SHL   ? "shl"
                       : in->op == TGSI_OP_U64SHR ? "lshr"
                                                  : "ashr";
      *r = ibin64(t, op, a, s);
      return true;
   }
   default:
      return false;
   }
}

/* 32 -> 64 conversions of pair p: src.x (p 0) or src.y (p 1). */
static bool
from32(struct tr *t, const struct tgsi_insn *in, unsigned p, val *r)
{
   val x = tr_src(t, in, 0, p);
   switch (in->op) {
   case TGSI_OP_F2D:
      *r = from_d(t, tr_emit(t, "fpext float %s to double", tr_v(tr_f(t, x))));
      return true;
   case TGSI_OP_I2D:
   case TGSI_OP_U2D:
      *r = from_d(t, tr_emit(t, "%s i32 %s to double", in->op == TGSI_OP_I2D ? "sitofp" : "uitofp",
                             tr_v(x)));
      return true;
   case TGSI_OP_F2I64: /* out of range: undefined (poison to LLVM) */
   case TGSI_OP_F2U64:
      *r = tr_emit(t, "%s float %s to i64", in->op == TGSI_OP_F2I64 ? "fptosi" : "fptoui",
                   tr_v(tr_f(t, x)));
      return true;
   case TGSI_OP_U2I64:
      *r = tr_emit(t, "zext i32 %s to i64", tr_v(x));
      return true;
   case TGSI_OP_I2I64:
      *r = tr_emit(t, "sext i32 %s to i64", tr_v(x));
      return true;
   default:
      return false;
   }
}

/* Compares and 64 -> 32 conversions of pair p: one i32. */
static bool
to32(struct tr *t, const struct tgsi_insn *in, unsigned p, val *r)
{
   static const struct {
      enum tgsi_opcode op;
      const char *cc;
   } cmps[] = {
       {TGSI_OP_DSLT, "olt"},   {TGSI_OP_DSGE, "oge"},   {TGSI_OP_DSEQ, "oeq"},
       {TGSI_OP_DSNE, "une"},   {TGSI_OP_U64SEQ, "eq"},  {TGSI_OP_U64SNE, "ne"},
       {TGSI_OP_I64SLT, "slt"}, {TGSI_OP_U64SLT, "ult"}, {TGSI_OP_I64SGE, "sge"},
       {TGSI_OP_U64SGE, "uge"},
   };
   for (unsigned k = 0; k < ARRAY_SIZE(cmps); k++) {
      if (cmps[k].op != in->op)
         continue;
      val a = src64(t, in, 0, p), b = src64(t, in, 1, p);
      bool dbl = tgsi_op_info[in->op].type == TGSI_TYPE_D;
      val c;
      if (dbl) {
         val db = to_d(t, b), da = to_d(t, a);
         c = tr_emit(t, "fcmp %s double %s, %s", cmps[k].cc, tr_v(da), tr_v(db));
      } else {
         c = icmp64(t, cmps[k].cc, a, b);
      }
      *r = tr_mask_of(t, c);
      return true;
   }
   val a = src64(t, in, 0, p);
   switch (in->op) {
   case TGSI_OP_D2F:
      *r = tr_i(t, tr_emit(t, "fptrunc double %s to float", tr_v(to_d(t, a))));
      return true;
   case TGSI_OP_D2I: /* out of range: undefined (poison to LLVM) */
   case TGSI_OP_D2U:
      *r = tr_emit(t, "%s double %s to i32", in->op == TGSI_OP_D2I ? "fptosi" : "fptoui",
                   tr_v(to_d(t, a)));
      return true;
   case TGSI_OP_U642F:
   case TGSI_OP_I642F:
      *r = tr_i(t, tr_emit(t, "%s i64 %s to float", in->op == TGSI_OP_U642F ? "uitofp" : "sitofp",
                           tr_v(a)));
      return true;
   default:
      return false;
   }
}

bool
tr_wide(struct tr *t, const struct tgsi_insn *in)
{
   const char *name = tgsi_op_info[in->op].name;
   int kind = tgsi_wide_kind(in->op);
   if (kind < 0)
      return tr_fail(t, in, "%s: 64-bit values not translated", name);
   if (in->sat)
      return tr_fail(t, in, "%s_SAT not translated", name);
   unsigned mask = in->dst[0].mask;
   val res[4] = {0, 0, 0, 0};
   unsigned out = 0;
   if (kind == TGSI_WIDE_TO32) {
      unsigned m = mask;
      for (unsigned p = 0; p < 2 && m; p++) {
         unsigned c = 0;
         while (!(m & (1u << c)))
            c++;
         m &= ~(1u << c);
         to32(t, in, p, &res[c]);
         out |= 1u << c;
      }
   } else {
      for (unsigned p = 0; p < 2 && !t->failed; p++) {
         unsigned pm = (mask >> (2 * p)) & 3;
         if (!pm)
            continue;
         if (kind == TGSI_WIDE_CMP) {
            unsigned c = 2 * p + (pm & 1 ? 0 : 1);
            to32(t, in, p, &res[c]);
            out |= 1u << c;
            continue;
         }
         val v = K(0);
         if (kind == TGSI_WIDE_FROM32) {
            if (pm != 3)
               continue;
            from32(t, in, p, &v);
         } else {
            op64(t, in, p, &v);
         }
         split64(t, v, &res[2 * p], &res[2 * p + 1]);
         out |= pm << (2 * p);
      }
   }
   /* Every source is read before any channel is written. */
   for (unsigned c = 0; c < 4 && !t->failed; c++)
      if (out & (1u << c))
         tr_store(t, in, c, res[c]);
   return !t->failed;
}
