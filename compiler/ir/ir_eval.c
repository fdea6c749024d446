/*
 * A small IR interpreter for one invocation: the tests use it to check
 * that a pass or the TGSI translation keeps the meaning of a shader.
 *
 * A 32-bit op that isa/sem.h models is computed by sem.h, through the
 * constant folder's mapping (opt_fold_op): that is what the target
 * computes, and where the IR leaves a result to the target (saturating
 * conversions, fmin of +-0, NaN bits) it is the answer a pass must keep.
 * The other ops follow ir.h (TGSI's meaning as tgsi_exec computes it), one
 * rounding per statement so the C compiler cannot contract them. Textures,
 * memory, vertex emission and derivatives need more than one lane or a
 * resource: the interpreter refuses them.
 */
#include "compiler/ir/ir.h"

#include <math.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ */
/* Helpers                                                              */

static uint32_t
mask(bool b)
{
   return b ? ~0u : 0u;
}

static int32_t
ashr32(int32_t a, unsigned s)
{
   return a < 0 ? ~(int32_t)(~(uint32_t)a >> s) : (int32_t)((uint32_t)a >> s);
}

static int64_t
ashr64(int64_t a, unsigned s)
{
   return a < 0 ? ~(int64_t)(~(uint64_t)a >> s) : (int64_t)((uint64_t)a >> s);
}

static uint32_t
f2i32(float f)
{
   if (!(f >= -2147483648.0f && f < 2147483648.0f))
      return 0x80000000u;
   return (uint32_t)(int32_t)f;
}

/* x86-64 converts through a 64-bit truncation. */
static uint32_t
f2u32(float f)
{
   if (!(f > -9223372036854775808.0f && f < 9223372036854775808.0f))
      return 0;
   return (uint32_t)(uint64_t)(int64_t)f;
}

static uint32_t
d2i32(double d)
{
   if (!(d > -2147483649.0 && d < 2147483648.0))
      return 0x80000000u;
   return (uint32_t)(int32_t)d;
}

static uint32_t
d2u32(double d)
{
   if (!(d > -9223372036854775808.0 && d < 9223372036854775808.0))
      return 0;
   return (uint32_t)(uint64_t)(int64_t)d;
}

static uint64_t
d2i64(double d)
{
   if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
      return 0x8000000000000000ull;
   return (uint64_t)(int64_t)d;
}

static uint64_t
d2u64(double d)
{
   if (!(d > -1.0 && d < 18446744073709551616.0))
      return d >= 18446744073709551616.0 ? ~0ull : 0;
   return (uint64_t)d;
}

static uint32_t
bfe(uint32_t v, uint32_t offset, uint32_t bits, bool sign)
{
   uint32_t off = offset & 31;
   if (bits == 32 && off == 0)
      return v;
   bits &= 31;
   if (!bits)
      return 0;
   if (bits + off < 32) {
      uint32_t t = v << (32 - bits - off);
      return sign ? (uint32_t)ashr32((int32_t)t, 32 - bits) : t >> (32 - bits);
   }
   return sign ? (uint32_t)ashr32((int32_t)v, off) : v >> off;
}

static uint32_t
bfi(uint32_t base, uint32_t insert, uint32_t offset, uint32_t bits)
{
   uint32_t off = offset & 31;
   if (bits >= 32)
      return insert;
   uint32_t m = ((1u << bits) - 1) << off;
   return ((insert << off) & m) | (base & ~m);
}

static uint32_t
last_bit(uint32_t v)
{
   unsigned n = 0;
   while (v) {
      n++;
      v >>= 1;
   }
   return n;
}

static float
F(uint64_t v)
{
   return uif((uint32_t)v);
}

static double
D(uint64_t v)
{
   return uid(v);
}

/* ------------------------------------------------------------------ */
/* Pure ops                                                             */

static bool
eval_float(enum ir_op op, const uint64_t *s, uint64_t *d)
{
   float a = F(s[0]), b = 0, c = 0, t;
   if (op != IR_OP_FNEG && op != IR_OP_FABS) {
      b = F(s[1]);
      c = F(s[2]);
   }
   switch (op) {
   case IR_OP_FADD:
      t = a + b;
      break;
   case IR_OP_FMUL:
      t = a * b;
      break;
   case IR_OP_FFMA:
      t = fmaf(a, b, c);
      break;
   case IR_OP_FMAD:
      t = a * b;
      t = t + c;
      break;
   case IR_OP_FDIV:
      t = a / b;
      break;
   case IR_OP_FMIN:
      t = fminf(a, b);
      break;
   case IR_OP_FMAX:
      t = fmaxf(a, b);
      break;
   case IR_OP_FNEG:
      *d = (uint32_t)s[0] ^ 0x80000000u;
      return true;
   case IR_OP_FABS:
      *d = (uint32_t)s[0] & 0x7fffffffu;
      return true;
   case IR_OP_FSAT:
      t = fminf(fmaxf(a, 0.0f), 1.0f);
      break;
   case IR_OP_FRCP:
      t = 1.0f / a;
      break;
   case IR_OP_FRSQ:
      t = sqrtf(a);
      t = 1.0f / t;
      break;
   case IR_OP_FSQRT:
      t = sqrtf(a);
      break;
   case IR_OP_FEXP2:
      t = exp2f(a);
      break;
   case IR_OP_FLOG2:
      t = log2f(a);
      break;
   case IR_OP_FPOW:
      t = powf(a, b);
      break;
   case IR_OP_FSIN:
      t = sinf(a);
      break;
   case IR_OP_FCOS:
      t = cosf(a);
      break;
   case IR_OP_FFLOOR:
      t = floorf(a);
      break;
   case IR_OP_FCEIL:
      t = ceilf(a);
      break;
   case IR_OP_FTRUNC:
      t = truncf(a);
      break;
   case IR_OP_FROUND_EVEN:
      t = nearbyintf(a);
      break;
   case IR_OP_FFRACT:
      t = floorf(a);
      t = a - t;
      break;
   case IR_OP_FSIGN:
      t = a < 0 ? -1.0f : a > 0 ? 1.0f : 0.0f;
      break;
   case IR_OP_FLDEXP:
      t = ldexpf(a, (int32_t)(uint32_t)s[1]);
      break;
   default:
      return false;
   }
   *d = fui(t);
   return true;
}

static bool
eval_int(enum ir_op op, const uint64_t *s, uint64_t *d)
{
   uint32_t a = (uint32_t)s[0], b = (uint32_t)s[1], c = (uint32_t)s[2];
   int32_t ia = (int32_t)a, ib = (int32_t)b;
   uint32_t r;
   switch (op) {
   case IR_OP_IADD:
      r = a + b;
      break;
   case IR_OP_ISUB:
      r = a - b;
      break;
   case IR_OP_IMUL:
      r = a * b;
      break;
   case IR_OP_IMUL_HI:
      r = (uint32_t)((uint64_t)((int64_t)ia * (int64_t)ib) >> 32);
      break;
   case IR_OP_UMUL_HI:
      r = (uint32_t)(((uint64_t)a * b) >> 32);
      break;
   case IR_OP_INEG:
      r = 0u - a;
      break;
   case IR_OP_IABS:
      r = ia < 0 ? 0u - a : a;
      break;
   case IR_OP_ISIGN:
      r = ia < 0 ? ~0u : ia > 0 ? 1 : 0;
      break;
   case IR_OP_IAND:
      r = a & b;
      break;
   case IR_OP_IOR:
      r = a | b;
      break;
   case IR_OP_IXOR:
      r = a ^ b;
      break;
   case IR_OP_INOT:
      r = ~a;
      break;
   case IR_OP_ISHL:
      r = a << (b & 31);
      break;
   case IR_OP_ISHR:
      r = (uint32_t)ashr32(ia, b & 31);
      break;
   case IR_OP_USHR:
      r = a >> (b & 31);
      break;
   case IR_OP_IMIN:
      r = ia < ib ? a : b;
      break;
   case IR_OP_IMAX:
      r = ia > ib ? a : b;
      break;
   case IR_OP_UMIN:
      r = a < b ? a : b;
      break;
   case IR_OP_UMAX:
      r = a > b ? a : b;
      break;
   case IR_OP_UDIV:
      r = b ? a / b : ~0u;
      break;
   case IR_OP_UMOD:
      r = b ? a % b : ~0u;
      break;
   case IR_OP_IDIV:
      r = !b ? 0 : (ia == INT32_MIN && ib == -1) ? a : (uint32_t)(ia / ib);
      break;
   case IR_OP_IMOD:
      r = !b ? ~0u : (ia == INT32_MIN && ib == -1) ? 0 : (uint32_t)(ia % ib);
      break;
   case IR_OP_IBFE:
      r = bfe(a, b, c, true);
      break;
   case IR_OP_UBFE:
      r = bfe(a, b, c, false);
      break;
   case IR_OP_BFI:
      r = bfi(a, b, c, (uint32_t)s[3]);
      break;
   case IR_OP_BITREV:
      r = 0;
      for (int i = 0; i < 32; i++)
         r |= ((a >> i) & 1) << (31 - i);
      break;
   case IR_OP_BITCOUNT:
      r = 0;
      for (int i = 0; i < 32; i++)
         r += (a >> i) & 1;
      break;
   case IR_OP_FIND_LSB:
      r = ~0u;
      for (int i = 31; i >= 0; i--)
         if ((a >> i) & 1)
            r = (uint32_t)i;
      break;
   case IR_OP_UFIND_MSB:
      r = last_bit(a) - 1;
      break;
   case IR_OP_IFIND_MSB:
      r = last_bit(ia < 0 ? ~a : a) - 1;
      break;
   case IR_OP_F2I:
      r = f2i32(F(a));
      break;
   case IR_OP_F2U:
      r = f2u32(F(a));
      break;
   case IR_OP_I2F:
      r = fui((float)ia);
      break;
   case IR_OP_U2F:
      r = fui((float)a);
      break;
   case IR_OP_BCSEL:
      *d = a ? s[1] : s[2];
      return true;
   default:
      return false;
   }
   *d = r;
   return true;
}

static bool
eval_double(enum ir_op op, const uint64_t *s, uint64_t *d)
{
   double a = D(s[0]), b = D(s[1]), t;
   switch (op) {
   case IR_OP_DADD:
      t = a + b;
      break;
   case IR_OP_DMUL:
      t = a * b;
      break;
   case IR_OP_DFMA:
      t = fma(a, b, D(s[2]));
      break;
   case IR_OP_DDIV:
      t = a / b;
      break;
   case IR_OP_DMIN:
      t = fmin(a, b);
      break;
   case IR_OP_DMAX:
      t = fmax(a, b);
      break;
   case IR_OP_DNEG:
      *d = s[0] ^ (1ull << 63);
      return true;
   case IR_OP_DABS:
      *d = s[0] & ~(1ull << 63);
      return true;
   case IR_OP_DRCP:
      t = 1.0 / a;
      break;
   case IR_OP_DSQRT:
      t = sqrt(a);
      break;
   case IR_OP_DRSQ:
      t = sqrt(a);
      t = 1.0 / t;
      break;
   case IR_OP_DFLOOR:
      t = floor(a);
      break;
   case IR_OP_DCEIL:
      t = ceil(a);
      break;
   case IR_OP_DTRUNC:
      t = trunc(a);
      break;
   case IR_OP_DROUND_EVEN:
      t = nearbyint(a);
      break;
   case IR_OP_DFRACT:
      t = floor(a);
      t = a - t;
      break;
   case IR_OP_DSIGN:
      t = a < 0 ? -1.0 : a > 0 ? 1.0 : 0.0;
      break;
   case IR_OP_DLDEXP:
      t = ldexp(a, (int32_t)(uint32_t)s[1]);
      break;
   case IR_OP_DEQ:
      *d = mask(a == b);
      return true;
   case IR_OP_DNE:
      *d = mask(a != b);
      return true;
   case IR_OP_DLT:
      *d = mask(a < b);
      return true;
   case IR_OP_DGE:
      *d = mask(a >= b);
      return true;
   case IR_OP_F2D:
      t = (double)F(s[0]);
      break;
   case IR_OP_D2F:
      *d = fui((float)a);
      return true;
   case IR_OP_D2I:
      *d = d2i32(a);
      return true;
   case IR_OP_D2U:
      *d = d2u32(a);
      return true;
   case IR_OP_I2D:
      t = (double)(int32_t)(uint32_t)s[0];
      break;
   case IR_OP_U2D:
      t = (double)(uint32_t)s[0];
      break;
   case IR_OP_D2I64:
      *d = d2i64(a);
      return true;
   case IR_OP_D2U64:
      *d = d2u64(a);
      return true;
   case IR_OP_F2I64:
      *d = d2i64(F(s[0]));
      return true;
   case IR_OP_F2U64:
      *d = d2u64(F(s[0]));
      return true;
   case IR_OP_I642D:
      t = (double)(int64_t)s[0];
      break;
   case IR_OP_U642D:
      t = (double)s[0];
      break;
   case IR_OP_I642F:
      *d = fui((float)(int64_t)s[0]);
      return true;
   case IR_OP_U642F:
      *d = fui((float)s[0]);
      return true;
   default:
      return false;
   }
   *d = dui(t);
   return true;
}

static bool
eval_int64(enum ir_op op, const uint64_t *s, uint64_t *d)
{
   uint64_t a = s[0], b = s[1];
   int64_t ia = (int64_t)a, ib = (int64_t)b;
   switch (op) {
   case IR_OP_PACK64:
      *d = (uint32_t)a | ((uint64_t)(uint32_t)b << 32);
      break;
   case IR_OP_UNPACK64_LO:
      *d = (uint32_t)a;
      break;
   case IR_OP_UNPACK64_HI:
      *d = (uint32_t)(a >> 32);
      break;
   case IR_OP_IADD64:
      *d = a + b;
      break;
   case IR_OP_IMUL64:
      *d = a * b;
      break;
   case IR_OP_INEG64:
      *d = 0 - a;
      break;
   case IR_OP_IABS64:
      *d = ia < 0 ? 0 - a : a;
      break;
   case IR_OP_ISIGN64:
      *d = ia < 0 ? ~0ull : ia > 0 ? 1 : 0;
      break;
   case IR_OP_ISHL64:
      *d = a << (b & 63);
      break;
   case IR_OP_ISHR64:
      *d = (uint64_t)ashr64(ia, b & 63);
      break;
   case IR_OP_USHR64:
      *d = a >> (b & 63);
      break;
   case IR_OP_IMIN64:
      *d = ia < ib ? a : b;
      break;
   case IR_OP_IMAX64:
      *d = ia > ib ? a : b;
      break;
   case IR_OP_UMIN64:
      *d = a < b ? a : b;
      break;
   case IR_OP_UMAX64:
      *d = a > b ? a : b;
      break;
   case IR_OP_IDIV64:
      *d = !b ? 0 : (ia == INT64_MIN && ib == -1) ? a : (uint64_t)(ia / ib);
      break;
   case IR_OP_IMOD64:
      *d = !b ? ~0ull : (ia == INT64_MIN && ib == -1) ? 0 : (uint64_t)(ia % ib);
      break;
   case IR_OP_UDIV64:
      *d = b ? a / b : ~0ull;
      break;
   case IR_OP_UMOD64:
      *d = b ? a % b : ~0ull;
      break;
   case IR_OP_IEQ64:
      *d = mask(a == b);
      break;
   case IR_OP_INE64:
      *d = mask(a != b);
      break;
   case IR_OP_ILT64:
      *d = mask(ia < ib);
      break;
   case IR_OP_IGE64:
      *d = mask(ia >= ib);
      break;
   case IR_OP_ULT64:
      *d = mask(a < b);
      break;
   case IR_OP_UGE64:
      *d = mask(a >= b);
      break;
   case IR_OP_I2I64:
      *d = (uint64_t)(int64_t)(int32_t)(uint32_t)a;
      break;
   case IR_OP_U2U64:
      *d = (uint32_t)a;
      break;
   default:
      return false;
   }
   return true;
}

/* Computes a pure op from its source bits. false: not a pure op. */
bool
ir_eval_op(enum ir_op op, const uint64_t *src, uint64_t *dst)
{
   uint64_t s[4] = {0, 0, 0, 0};
   unsigned n = ir_op_info[op].nsrc;
   if (n == IR_NSRC_VAR || (ir_op_info[op].flags & (IR_OPF_SIDE | IR_OPF_LOAD | IR_OPF_CONV)))
      return false;
   for (unsigned i = 0; i < n && i < 4; i++)
      s[i] = src[i];
   if (op == IR_OP_MOV) {
      *dst = s[0];
      return true;
   }
   uint32_t w[4] = {(uint32_t)s[0], (uint32_t)s[1], (uint32_t)s[2], (uint32_t)s[3]}, r;
   if (ir_op_info[op].dst == IR_TC_W && ir_op_info[op].src == IR_TC_W && opt_fold_op(op, w, &r)) {
      *dst = r;
      return true;
   }
   return eval_float(op, s, dst) || eval_int(op, s, dst) || eval_double(op, s, dst) ||
          eval_int64(op, s, dst);
}

bool
ir_eval_op_host(enum ir_op op, const uint64_t *src, uint64_t *dst)
{
   uint64_t s[4] = {0, 0, 0, 0};
   unsigned n = ir_op_info[op].nsrc;
   if (n == IR_NSRC_VAR || (ir_op_info[op].flags & (IR_OPF_SIDE | IR_OPF_LOAD | IR_OPF_CONV)))
      return false;
   for (unsigned i = 0; i < n && i < 4; i++)
      s[i] = src[i];
   if (op == IR_OP_MOV) {
      *dst = s[0];
      return true;
   }
   return eval_float(op, s, dst) || eval_int(op, s, dst) || eval_double(op, s, dst) ||
          eval_int64(op, s, dst);
}

/* ------------------------------------------------------------------ */
/* Running a shader                                                     */

enum flow {
   FLOW_NEXT,
   FLOW_BREAK,
   FLOW_CONTINUE,
   FLOW_ERROR,
};

struct eval {
   const struct ir_shader *sh;
   struct ir_eval_env *env;
   struct diag_list *diags;
   uint64_t *val;
   uint32_t (*v4)[4]; /* V4 values (fake textures) */
   uint32_t **arrays; /* by index in sh->arrays */
   const struct ir_block *prev;
};

static enum flow DC_PRINTF(3, 4)
    eval_error(struct eval *e, const struct ir_instr *in, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   char *m = xvasprintf(fmt, ap);
   va_end(ap);
   char *t = in ? ir_print_instr(in) : xstrdup("");
   ir_error(e->diags, e->sh, in ? in->line : 0, "ir_eval: %s: %s", m, t);
   free(m);
   free(t);
   return FLOW_ERROR;
}

static uint32_t *
array_cell(struct eval *e, const struct ir_instr *in, int64_t slot)
{
   for (unsigned i = 0; i < e->sh->narrays; i++)
      if (e->sh->arrays[i].id == in->arr) {
         if (slot < 0 || slot >= e->sh->arrays[i].slots)
            return NULL;
         return &e->arrays[i][slot * 4 + in->comp];
      }
   return NULL;
}

static uint32_t
input(struct eval *e, int64_t slot, int32_t comp)
{
   return slot >= 0 && slot < IR_EVAL_SLOTS ? e->env->inputs[slot][comp] : 0;
}

static uint32_t
constant(struct eval *e, int32_t buf, int64_t slot, int32_t comp)
{
   if (buf < 0 || buf >= 4 || slot < 0 || slot >= IR_EVAL_SLOTS)
      return 0; /* TGSI: out-of-range constants read as 0 */
   return e->env->consts[buf][slot][comp];
}

/* A fixed function of an instruction's fields and source values. */
static uint64_t
fake_value(const struct ir_instr *in, const uint64_t *s, unsigned ns, unsigned comp)
{
   uint64_t h = hash64(&in->op, sizeof(in->op), comp);
   int32_t f[4] = {in->res, in->slot, in->kind, in->aop};
   h = hash64(f, sizeof(f), h);
   for (unsigned i = 0; i < ns; i++)
      h = hash64(&s[i], sizeof(s[i]), h);
   /* a small float, so later arithmetic stays ordinary */
   return fui((float)(h % 2001) / 64.0f - 15.0f);
}

static enum flow
exec_fake(struct eval *e, const struct ir_instr *in, const uint64_t *s, uint64_t *d)
{
   switch (in->op) {
   case IR_OP_TEX:
   case IR_OP_RES_SIZE:
   case IR_OP_IMAGE_LOAD: {
      uint64_t all[IR_TEX_MAX_SRC + 1] = {0};
      for (unsigned i = 0; i < in->nsrc && i < IR_TEX_MAX_SRC; i++)
         all[i] = e->val[in->src[i]->id];
      uint64_t h = hash64(all, sizeof(all), 0);
      for (unsigned c = 0; c < 4; c++)
         e->v4[in->id][c] = (uint32_t)fake_value(in, &h, 1, c);
      return FLOW_NEXT;
   }
   case IR_OP_EXTRACT:
      *d = e->v4[in->src[0]->id][in->comp & 3];
      return FLOW_NEXT;
   case IR_OP_LOAD_INPUT:
   case IR_OP_LOAD_INPUT_IND:
   case IR_OP_LOAD_INPUT_VIND:
      if (in->vtx == IR_NONE && in->op != IR_OP_LOAD_INPUT_VIND)
         return FLOW_ERROR; /* not fake: the caller handles it */
      /* fall through */
   case IR_OP_DDX:
   case IR_OP_DDY:
   case IR_OP_DDX_FINE:
   case IR_OP_DDY_FINE:
   case IR_OP_BALLOT:
   case IR_OP_BALLOT_HI:
   case IR_OP_READ_INVOC:
   case IR_OP_READ_FIRST:
   case IR_OP_INTERP_CENTROID:
   case IR_OP_INTERP_SAMPLE:
   case IR_OP_INTERP_OFFSET:
   case IR_OP_LOAD_BUFFER:
   case IR_OP_LOAD_SHARED:
   case IR_OP_ATOMIC:
      *d = (uint32_t)fake_value(in, s, MIN2(in->nsrc, 4u), (unsigned)in->vtx);
      return FLOW_NEXT;
   case IR_OP_STORE_BUFFER:
   case IR_OP_STORE_SHARED:
   case IR_OP_IMAGE_STORE:
   case IR_OP_EMIT:
   case IR_OP_END_PRIM:
   case IR_OP_STORE_OUTPUT_VTX:
      return FLOW_NEXT;
   default:
      return FLOW_ERROR;
   }
}

static enum flow
exec_instr(struct eval *e, const struct ir_instr *in)
{
   uint64_t s[4] = {0, 0, 0, 0};
   for (unsigned i = 0; i < in->nsrc && i < 4; i++)
      s[i] = e->val[in->src[i]->id];
   uint64_t *d = &e->val[in->id];
   uint32_t *cell;
   if (e->env->fake_resources && exec_fake(e, in, s, d) == FLOW_NEXT)
      return FLOW_NEXT;
   switch (in->op) {
   case IR_OP_IMM:
      *d = in->imm;
      return FLOW_NEXT;
   case IR_OP_LOAD_INPUT:
   case IR_OP_LOAD_INPUT_IND:
      if (in->vtx != IR_NONE)
         return eval_error(e, in, "per-vertex inputs are not supported");
      *d = input(e, (int64_t)in->slot + (in->nsrc ? (int32_t)s[0] : 0), in->comp);
      return FLOW_NEXT;
   case IR_OP_LOAD_CONST:
   case IR_OP_LOAD_CONST_IND:
      *d = constant(e, in->buf, (int64_t)in->slot + (in->nsrc ? (int32_t)s[0] : 0), in->comp);
      return FLOW_NEXT;
   case IR_OP_LOAD_SYSVAL:
      *d = e->env->sysvals[in->sv][in->comp];
      return FLOW_NEXT;
   case IR_OP_STORE_OUTPUT:
      if (in->slot < IR_EVAL_SLOTS) {
         e->env->outputs[in->slot][in->comp] = (uint32_t)s[0];
         e->env->written[in->slot] |= 1u << in->comp;
      }
      return FLOW_NEXT;
   case IR_OP_ARRAY_LOAD:
   case IR_OP_ARRAY_LOAD_IND:
      cell = array_cell(e, in, (int64_t)in->slot + (in->nsrc ? (int32_t)s[0] : 0));
      *d = cell ? *cell : 0;
      return FLOW_NEXT;
   case IR_OP_ARRAY_STORE:
   case IR_OP_ARRAY_STORE_IND:
      cell = array_cell(e, in, (int64_t)in->slot + (in->nsrc == 2 ? (int32_t)s[0] : 0));
      if (cell)
         *cell = (uint32_t)s[in->nsrc - 1];
      return FLOW_NEXT;
   case IR_OP_KILL:
   case IR_OP_DEMOTE:
      e->env->killed = true;
      return FLOW_NEXT;
   case IR_OP_KILL_IF:
      if ((uint32_t)s[0])
         e->env->killed = true;
      return FLOW_NEXT;
   case IR_OP_BARRIER:
   case IR_OP_MEMORY_BARRIER:
      return FLOW_NEXT;
   case IR_OP_BREAK:
      return FLOW_BREAK;
   case IR_OP_CONTINUE:
      return FLOW_CONTINUE;
   case IR_OP_MACH: {
      /* backend: ALU instructions through the ISA semantics */
      uint64_t ms[ISA_MAX_SRC] = {0};
      for (unsigned i = 0; i < in->nsrc && i < ISA_MAX_SRC; i++)
         ms[i] = e->val[in->src[i]->id];
      bool kill = false;
      if (!ir_mach_eval(in, ms, d, &kill))
         return eval_error(e, in, "cannot evaluate this machine instruction");
      if (kill)
         e->env->killed = true;
      return FLOW_NEXT;
   }
   default:
      break;
   }
   if (!ir_eval_op(in->op, s, d))
      return eval_error(e, in, "cannot evaluate '%s'", ir_op_info[in->op].name);
   if (in->type == IR_TYPE_32)
      *d = (uint32_t)*d;
   return FLOW_NEXT;
}

static enum flow
exec_block(struct eval *e, const struct ir_block *b)
{
   /* Phis read their inputs together, before any of them is written. */
   unsigned nphi = 0;
   for (const struct ir_instr *in = b->first; in && in->op == IR_OP_PHI; in = in->next)
      nphi++;
   if (nphi) {
      uint64_t *tmp = xmalloc(nphi * sizeof(*tmp));
      unsigned k = 0;
      for (const struct ir_instr *in = b->first; k < nphi; in = in->next, k++) {
         unsigned i = 0;
         while (i < in->nsrc && in->pred[i] != e->prev)
            i++;
         if (i == in->nsrc) {
            free(tmp);
            return eval_error(e, in, "phi has no source for the block run before");
         }
         tmp[k] = e->val[in->src[i]->id];
      }
      k = 0;
      for (const struct ir_instr *in = b->first; k < nphi; in = in->next, k++)
         e->val[in->id] = tmp[k];
      free(tmp);
   }
   e->prev = b;
   for (const struct ir_instr *in = b->first; in; in = in->next) {
      if (in->op == IR_OP_PHI)
         continue;
      if (++e->env->steps > e->env->max_steps)
         return eval_error(e, in, "step limit reached (endless loop?)");
      enum flow f = exec_instr(e, in);
      if (f != FLOW_NEXT)
         return f;
   }
   return FLOW_NEXT;
}

static enum flow
exec_list(struct eval *e, const struct ir_list *l)
{
   for (unsigned i = 0; i < l->n; i++) {
      const struct ir_node *n = l->v[i];
      enum flow f = FLOW_NEXT;
      switch (n->kind) {
      case IR_NODE_BLOCK:
         f = exec_block(e, n->block);
         break;
      case IR_NODE_IF:
         f = exec_list(e, (uint32_t)e->val[n->cond->id] ? &n->then_list : &n->else_list);
         break;
      case IR_NODE_LOOP:
         for (;;) {
            f = exec_list(e, &n->body);
            if (f == FLOW_BREAK || f == FLOW_ERROR)
               break;
         }
         if (f == FLOW_BREAK)
            f = FLOW_NEXT;
         break;
      }
      if (f != FLOW_NEXT)
         return f;
   }
   return FLOW_NEXT;
}

bool
ir_eval(const struct ir_shader *sh, struct ir_eval_env *env, struct diag_list *diags)
{
   struct eval e = {sh, env, diags, NULL, NULL, NULL, NULL};
   if (!env->max_steps)
      env->max_steps = 1000000;
   e.val = xcalloc(sh->nvalues + 1, sizeof(*e.val));
   e.v4 = xcalloc(sh->nvalues + 1, sizeof(*e.v4));
   e.arrays = xcalloc(sh->narrays + 1, sizeof(*e.arrays));
   for (unsigned i = 0; i < sh->narrays; i++)
      e.arrays[i] = xcalloc((size_t)sh->arrays[i].slots * 4 + 1, sizeof(uint32_t));
   enum flow f = exec_list(&e, &sh->body);
   for (unsigned i = 0; i < sh->narrays; i++)
      free(e.arrays[i]);
   free(e.arrays);
   free(e.val);
   free(e.v4);
   return f == FLOW_NEXT;
}
