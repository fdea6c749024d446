/*
 * Random TGSI shader generator (Csmith / GraphicsFuzz style): the source of
 * generated cases for the differential checker and of structured inputs
 * for the fuzzers.
 *
 * Every shader it writes is valid: it parses with no error, every register
 * is declared and written before it is read (the prologue fills all
 * temporaries from the inputs), every declared output is written at the
 * end from values that depend on the inputs, and it terminates for any
 * inputs. Termination: loops are counted -- a counter register, reserved
 * for its loop, is compared with an immediate limit at the top of every
 * iteration and incremented before the body runs, so CONT cannot skip the
 * increment and nested loops multiply small limits. Indirect indices are
 * clamped right before their UARL/ARL (x AND 3, or MIN/MAX into [0, 3.5])
 * and used by the next instruction only, so they are always in range.
 * Integer division by a data value goes through a divisor forced into
 * [1, 8]; float-to-integer conversions are clamped first; bitfield offsets
 * and widths are immediates with offset + bits <= 32. A geometry shader
 * (gen_geom.c) writes every output before each EMIT and never sends more
 * vertices than its GS_MAX_OUTPUT_VERTICES.
 *
 * Types are tracked per channel of every general temporary (float or
 * integer) so that float ops mostly read floats; inside control flow an
 * instruction only writes channels that already hold its result type, so a
 * conditional write never leaves a channel float in some lanes and integer
 * in others.
 *
 * Checkability: inexactness is tracked per channel too (results of MAD,
 * RCP, POW, ...: correct implementations differ within a tolerance). Such
 * a value is never read as integer bits, an address or a loop bound, and
 * never fed to an op whose result jumps at a threshold or is periodic
 * (compares, IF, FLR, FRC, F2I, SIN, ...: src_exact), where the oracle could
 * not tell a miscompile from a correct program.
 *
 * Determinism: all choices come from util rng (or the fuzzer's bytes) and
 * the text is built from integers only (float immediates are written from
 * tables and integer fractions, never with printf("%f")), so a seed gives
 * the same bytes on every host.
 */
#include "diff/gen_priv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ */
/* Choices and text                                                     */

uint32_t
gen_pick(struct gen *g, uint32_t n)
{
   if (n <= 1)
      return 0;
   if (g->pos < g->nbytes && n <= 256)
      return g->bytes[g->pos++] % n;
   return rng_below(&g->rng, n);
}

uint32_t
gen_pick32(struct gen *g)
{
   uint32_t v = 0;
   for (int i = 0; i < 4; i++)
      v = v << 8 | gen_pick(g, 256);
   return v;
}

bool
gen_chance(struct gen *g, unsigned percent)
{
   return gen_pick(g, 100) < percent;
}

bool
gen_ok(struct gen *g, enum tgsi_opcode op)
{
   return g->supports(op);
}

bool
gen_ok_all(struct gen *g, const enum tgsi_opcode *ops, unsigned n)
{
   for (unsigned i = 0; i < n; i++)
      if (!gen_ok(g, ops[i]))
         return false;
   return true;
}

/* One instruction of the body, indented by nesting depth. */
void
gen_emit(struct gen *g, const char *fmt, ...)
{
   strbuf_printf(&g->body, "%*s", (int)(2 + 2 * g->depth), "");
   va_list ap;
   va_start(ap, fmt);
   strbuf_vprintf(&g->body, fmt, ap);
   va_end(ap);
   strbuf_printf(&g->body, "\n");
   g->ninsns++;
}

static const char comp_ch[] = "xyzw";

/* ".xy" for a write mask; "" for all four channels. */
const char *
gen_mask_str(uint8_t mask, char buf[6])
{
   if (mask == 0xf)
      return "";
   char *p = buf;
   *p++ = '.';
   for (int c = 0; c < 4; c++)
      if (mask & (1 << c))
         *p++ = comp_ch[c];
   *p = 0;
   return buf;
}

/* ------------------------------------------------------------------ */
/* Immediates                                                           */

static const char *const float_table[] = {
    "0",     "1",     "-1",   "0.5", "-0.5",       "2",          "0.25",       "3",
    "4",     "10",    "0.1",  "-2",  "100",        "0.001",      "1000",       "65536",
    "1e+06", "1e-05", "-100", "255", "0.00390625", "3.14159274", "6.28318548", "0.333333343",
};

static const uint32_t int_table[] = {
    0,           1,           2,           3,           4,           5,   7,    8,
    15,          16,          24,          31,          32,          255, 256,  65535,
    0x7fffffffu, 0x80000000u, 0xffffffffu, 0x3f800000u, 0xfffffffeu, 100, 1000,
};

/* A float as text: a table entry or n/16 written with integer arithmetic. */
static void
gen_float_text(struct gen *g, char out[GEN_TEXT_LEN])
{
   if (gen_chance(g, 55)) {
      snprintf(out, GEN_TEXT_LEN, "%s", float_table[gen_pick(g, ARRAY_SIZE(float_table))]);
      return;
   }
   int n = (int)gen_pick(g, 513) - 256;
   unsigned a = (unsigned)(n < 0 ? -n : n);
   snprintf(out, GEN_TEXT_LEN, "%s%u.%04u", n < 0 ? "-" : "", a / 16, (a % 16) * 625);
}

void
gen_int_text(struct gen *g, char out[GEN_TEXT_LEN])
{
   uint32_t v = gen_chance(g, 80) ? int_table[gen_pick(g, ARRAY_SIZE(int_table))] : gen_pick32(g);
   snprintf(out, GEN_TEXT_LEN, "%u", v);
}

static unsigned
imm_hash(bool is_int, const char *text)
{
   uint64_t h = hash64(text, strlen(text), is_int ? 0x1234567u : 0x7654321u);
   return (unsigned)(h % GEN_IMM_HASH);
}

/* The slot (line * 4 + comp) holding the value; allocates one if new. */
static unsigned
imm_slot(struct gen *g, bool is_int, const char *text)
{
   unsigned h = imm_hash(is_int, text);
   for (unsigned probe = 0; probe < GEN_IMM_HASH; probe++, h = (h + 1) % GEN_IMM_HASH) {
      int32_t s = g->imm_hash[h];
      if (s < 0)
         break;
      const struct gimm *l = &g->imms[s / 4];
      if (l->is_int == is_int && !strcmp(l->val[s % 4], text))
         return (unsigned)s;
   }
   /* A new value goes into the last line of its type if it has room. */
   struct gimm *l = NULL;
   if (g->nimms && g->imms[g->nimms - 1].is_int == is_int && g->imms[g->nimms - 1].n < 4)
      l = &g->imms[g->nimms - 1];
   if (!l) {
      VEC_RESERVE(g->imms, g->imms_cap, g->nimms + 1);
      l = &g->imms[g->nimms++];
      memset(l, 0, sizeof(*l));
      l->is_int = is_int;
   }
   unsigned slot = (unsigned)(l - g->imms) * 4 + l->n;
   snprintf(l->val[l->n++], GEN_TEXT_LEN, "%s", text);
   /* The table only speeds up reuse: when full, values are just not shared. */
   if (g->imm_hash[h] < 0)
      g->imm_hash[h] = (int32_t)slot;
   return slot;
}

/* "IMM[k].cccc" for one value. */
static void
imm_scalar(struct gen *g, bool is_int, const char *text, struct opnd *o)
{
   unsigned s = imm_slot(g, is_int, text);
   char c = comp_ch[s % 4];
   snprintf(o->s, sizeof(o->s), "IMM[%u].%c%c%c%c", s / 4, c, c, c, c);
   o->dep = false;
   o->inexact = false;
}

void
gen_imm_u(struct gen *g, uint32_t v, struct opnd *o)
{
   char t[GEN_TEXT_LEN];
   snprintf(t, sizeof(t), "%u", v);
   imm_scalar(g, true, t, o);
}

void
gen_imm_f(struct gen *g, const char *text, struct opnd *o)
{
   imm_scalar(g, false, text, o);
}

/* A whole new IMM line of four values, used as "IMM[k]". */
void
gen_imm_vec(struct gen *g, bool is_int, const char *const vals[4], struct opnd *o)
{
   VEC_RESERVE(g->imms, g->imms_cap, g->nimms + 1);
   struct gimm *l = &g->imms[g->nimms++];
   l->is_int = is_int;
   l->n = 4;
   for (int c = 0; c < 4; c++)
      snprintf(l->val[c], GEN_TEXT_LEN, "%s", vals[c]);
   snprintf(o->s, sizeof(o->s), "IMM[%u]", g->nimms - 1);
   o->dep = false;
   o->inexact = false;
}

/* ------------------------------------------------------------------ */
/* Operands                                                             */

/* Channels of general temporary r holding type ty. */
uint8_t
gen_chans_of(const struct gen *g, unsigned r, enum gty ty)
{
   uint8_t m = 0;
   for (int c = 0; c < 4; c++)
      if (g->ty[r][c] == ty)
         m |= (uint8_t)(1 << c);
   return m;
}

/* A swizzle over the channels in m (nonempty); returns the channels used. */
uint8_t
gen_swizzle(struct gen *g, uint8_t m, char out[6])
{
   uint8_t cand[4], n = 0, used = 0;
   for (int c = 0; c < 4; c++)
      if (m & (1 << c))
         cand[n++] = (uint8_t)c;
   bool repl = gen_chance(g, 35);
   uint8_t first = cand[gen_pick(g, n)];
   out[0] = '.';
   for (int i = 0; i < 4; i++) {
      uint8_t c = repl ? first : cand[gen_pick(g, n)];
      out[1 + i] = comp_ch[c];
      used |= (uint8_t)(1 << c);
   }
   out[5] = 0;
   if (!strcmp(out, ".xyzw"))
      out[0] = 0;
   return used;
}

/* ".cccc": one channel of m (nonempty) replicated. */
const char *
gen_scalar_swz(struct gen *g, uint8_t m, char out[6])
{
   unsigned cand[4], n = 0;
   for (unsigned c = 0; c < 4; c++)
      if (m & (1 << c))
         cand[n++] = c;
   char ch = comp_ch[cand[gen_pick(g, n)]];
   snprintf(out, 6, ".%c%c%c%c", ch, ch, ch, ch);
   return out;
}

/* The channels of type ty of r whose bits may be read as an integer. */
uint8_t
gen_chans_exact(const struct gen *g, unsigned r, enum gty ty)
{
   return (uint8_t)(gen_chans_of(g, r, ty) & ~g->inexact[r]);
}

/* A general temporary with at least one channel of type ty, or -1. */
static int
gen_pick_temp(struct gen *g, enum gty ty)
{
   unsigned cand[GEN_MAX_TEMPS], n = 0;
   for (unsigned r = 0; r < g->ntemp; r++)
      if (g->ready[r] && gen_chans_of(g, r, ty))
         cand[n++] = r;
   return n ? (int)cand[gen_pick(g, n)] : -1;
}

/* The same, among channels whose bits are exact (chans_exact). */
int
gen_pick_temp_exact(struct gen *g, enum gty ty)
{
   unsigned cand[GEN_MAX_TEMPS], n = 0;
   for (unsigned r = 0; r < g->ntemp; r++)
      if (g->ready[r] && gen_chans_exact(g, r, ty))
         cand[n++] = r;
   return n ? (int)cand[gen_pick(g, n)] : -1;
}

void
gen_temp_src(struct gen *g, unsigned r, uint8_t m, struct opnd *o)
{
   char sw[6];
   uint8_t used = gen_swizzle(g, m, sw);
   snprintf(o->s, sizeof(o->s), "TEMP[%u]%s", r, sw);
   o->dep = (g->dep[r] & used) != 0;
   o->inexact = (g->inexact[r] & used) != 0;
}

/* Puts pre before and post after the operand text (which always has room:
 * operands are far shorter than the buffer). */
static void
gen_wrap(struct opnd *o, const char *pre, const char *post)
{
   size_t n = strlen(o->s), a = strlen(pre), b = strlen(post);
   if (n + a + b >= sizeof(o->s))
      return;
   memmove(o->s + a, o->s, n);
   memcpy(o->s, pre, a);
   memcpy(o->s + a + n, post, b + 1);
}

static void
gen_wrap_mods(struct gen *g, enum gty ty, struct opnd *o)
{
   bool neg = gen_chance(g, ty == GT_F ? 12 : 8);
   bool abs = ty == GT_F && gen_chance(g, 10);
   gen_wrap(o, neg ? (abs ? "-|" : "-") : (abs ? "|" : ""), abs ? "|" : "");
}

/* An input read: IN[i] (FRAG, VERT) or IN[v][i] (GEOM) as floats, or SV
 * (COMP) as integers. */
void
gen_input_src(struct gen *g, struct opnd *o)
{
   char sw[6], in[24];
   if (gen_tess_coord(g, o))
      return;
   if (g->stage == TGSI_STAGE_COMP) {
      gen_swizzle(g, 0x1, sw); /* THREAD_ID.x and BLOCK_ID.x vary; keep to .x */
      snprintf(o->s, sizeof(o->s), "SV[%u]%s", gen_pick(g, 2), sw);
   } else {
      unsigned i = gen_pick(g, g->nin);
      gen_swizzle(g, 0xf, sw);
      snprintf(o->s, sizeof(o->s), "%s%s", gen_in_reg(g, i, in), sw);
   }
   o->dep = true;
}

/* A source of type ty from anywhere: temporaries, inputs, constants,
 * immediates, loop counters. */
void
gen_src_plain(struct gen *g, enum gty ty, struct opnd *o)
{
   unsigned r = gen_pick(g, 100);
   char sw[6], t[GEN_TEXT_LEN];
   int tr;
   bool input_float = g->stage != TGSI_STAGE_COMP;
   o->inexact = false;
   /* integer reads take exact channels only: the bits of a value known
    * within a tolerance are anything (the interpreter marks them BITS) */
   if (r < 58 && ty == GT_F && (tr = gen_pick_temp(g, ty)) >= 0) {
      gen_temp_src(g, (unsigned)tr, gen_chans_of(g, (unsigned)tr, ty), o);
   } else if (r < 58 && ty == GT_I && (tr = gen_pick_temp_exact(g, ty)) >= 0) {
      gen_temp_src(g, (unsigned)tr, gen_chans_exact(g, (unsigned)tr, ty), o);
   } else if (r < 72 && (ty == GT_F) == input_float) {
      gen_input_src(g, o);
   } else if (r < 80 && ty == GT_I && g->loop_depth) {
      snprintf(o->s, sizeof(o->s), "TEMP[%u].xxxx", g->t_loop + gen_pick(g, g->loop_depth));
      o->dep = false;
   } else if (r < 86 && ty == GT_I && (tr = gen_pick_temp_exact(g, GT_F)) >= 0) {
      /* integer ops on float bits are defined */
      gen_temp_src(g, (unsigned)tr, gen_chans_exact(g, (unsigned)tr, GT_F), o);
   } else if (r < 93 && !g->noconst && ty == GT_F) {
      gen_swizzle(g, 0xf, sw);
      snprintf(o->s, sizeof(o->s), "CONST[0][%u]%s", gen_pick(g, g->nconst), sw);
      o->dep = false;
   } else if (r < 93 && !g->noconst) {
      /* an integer uniform: slots of their own after the float ones, so
       * that the inputs give them integer values (INT_MIN, >= 2^31...) */
      gen_swizzle(g, 0xf, sw);
      snprintf(o->s, sizeof(o->s), "CONST[0][%u]%s", g->nconst + gen_pick(g, GEN_INT_CONSTS), sw);
      o->dep = false;
      g->used_iconst = true;
   } else if (ty == GT_F) {
      gen_float_text(g, t);
      gen_imm_f(g, t, o);
   } else {
      gen_int_text(g, t);
      gen_imm_u(g, (uint32_t)strtoul(t, NULL, 10), o);
   }
}

void
gen_src_any(struct gen *g, enum gty ty, struct opnd *o)
{
   gen_src_plain(g, ty, o);
   gen_wrap_mods(g, ty, o);
}

/* A float source with an exact value, for an op whose result jumps at a
 * threshold: a value known only within a tolerance may sit at the step
 * (POW(6, 1) is 6 to the interpreter and 6.0000005 on a GPU, and FLR, SNE
 * or FRC of it then differ by a whole step), where no tolerance of the
 * result can tell a miscompile from a correct program. */
void
gen_src_exact(struct gen *g, struct opnd *o)
{
   gen_src_any(g, GT_F, o);
   if (!o->inexact)
      return;
   int r = gen_pick_temp_exact(g, GT_F);
   if (r >= 0) {
      gen_temp_src(g, (unsigned)r, gen_chans_exact(g, (unsigned)r, GT_F), o);
   } else if (g->noconst) {
      gen_imm_f(g, "0.5", o);
   } else {
      snprintf(o->s, sizeof(o->s), "CONST[0][%u].xxxx", gen_pick(g, g->nconst));
      o->dep = o->inexact = false;
   }
}

/* A destination general temporary and mask for a result of type ty; see
 * the file comment for why writes under control flow keep types. */
void
gen_dst_pick(struct gen *g, enum gty ty, unsigned *reg, uint8_t *mask)
{
   uint8_t m = (uint8_t)(gen_pick(g, 15) + 1);
   if (g->depth == 0 || gen_chance(g, 3)) {
      *reg = gen_pick(g, g->ntemp);
      *mask = m;
      return;
   }
   for (int tries = 0; tries < 8; tries++) {
      unsigned r = gen_pick(g, g->ntemp);
      uint8_t have = gen_chans_of(g, r, ty);
      if (have & m) {
         *reg = r;
         *mask = have & m;
         return;
      }
      if (have) {
         *reg = r;
         *mask = have;
         return;
      }
   }
   *reg = gen_pick(g, g->ntemp);
   *mask = m;
}

/* Under control flow a write keeps what other lanes hold: dependence and
 * inexactness only grow there. */
void
gen_dst_set(struct gen *g, unsigned r, uint8_t mask, enum gty ty, bool dep, bool inexact)
{
   for (int c = 0; c < 4; c++) {
      if (!(mask & (1 << c)))
         continue;
      g->ty[r][c] = (uint8_t)ty;
      g->cmp[r] = (uint8_t)(g->cmp[r] & ~(1 << c));
      if (g->depth == 0) {
         g->dep[r] = (uint8_t)(g->dep[r] & ~(1 << c));
         g->inexact[r] = (uint8_t)(g->inexact[r] & ~(1 << c));
      }
      if (dep)
         g->dep[r] |= (uint8_t)(1 << c);
      if (inexact)
         g->inexact[r] |= (uint8_t)(1 << c);
   }
}

/* Whether op's result may differ within a tolerance between correct
 * implementations (the interpreter's inexact classes, and MIN/MAX for the
 * sign of a zero), so that its bits must not be read as an integer. A
 * compare's result is exact; other ops pass their sources' inexactness on. */
static int
gen_op_inexact(enum tgsi_opcode op)
{
   switch (op) {
   case TGSI_OP_MAD:
   case TGSI_OP_LRP:
   case TGSI_OP_DP2:
   case TGSI_OP_DP3:
   case TGSI_OP_DP4:
   case TGSI_OP_RCP:
   case TGSI_OP_DIV:
   case TGSI_OP_SIN:
   case TGSI_OP_COS:
   case TGSI_OP_EX2:
   case TGSI_OP_LG2:
   case TGSI_OP_POW:
   case TGSI_OP_SQRT:
   case TGSI_OP_RSQ:
   case TGSI_OP_ROUND:
   case TGSI_OP_MIN:
   case TGSI_OP_MAX:
   case TGSI_OP_I2F:
   case TGSI_OP_U2F:
   case TGSI_OP_UP2US:
   case TGSI_OP_UP4UB:
   case TGSI_OP_UP4B:
      return 1;
   case TGSI_OP_SLT:
   case TGSI_OP_SGE:
   case TGSI_OP_SEQ:
   case TGSI_OP_SNE:
   case TGSI_OP_SGT:
   case TGSI_OP_SLE:
   case TGSI_OP_FSLT:
   case TGSI_OP_FSGE:
   case TGSI_OP_FSEQ:
   case TGSI_OP_FSNE:
      return 0;
   default:
      return -1;
   }
}

/* "TEMP[r].mask" */
const char *
gen_dst_str(unsigned r, uint8_t mask, char buf[24])
{
   char mb[6];
   snprintf(buf, 24, "TEMP[%u]%s", r, gen_mask_str(mask, mb));
   return buf;
}

/* ------------------------------------------------------------------ */
/* ALU statements                                                       */

/* Operand fixes that keep results defined: SRC_POS0 makes the first
 * source positive (MAX(|x|, 1e-5): RSQ, LG2, POW are undefined at or below
 * 0), SRC_ABS0 takes |x| (SQRT), SRC_LT128 keeps it below 128 (EX2).
 * SRC_EXACT: exact sources (src_exact), for ops whose result jumps at a
 * threshold (compares, FLR, FRC...; CMP on its first source) and for SIN
 * and COS, whose result is anything once the argument's absolute error (a
 * relative one times a large value: COS(POW(7, 7))) nears a period. */
enum { SRC_ABS0 = 1, SRC_POS0 = 2, SRC_LT128 = 4, SRC_EXACT = 8 };

/* Float ops: name, sources, flags. */
/* clang-format off */
#define GEN_FLOAT_OPS(X) \
   X(MOV, 1, 0)          X(ADD, 2, 0)           X(MUL, 2, 0)          X(MAD, 3, 0)          \
   X(FMA, 3, 0)          X(LRP, 3, 0)           X(MIN, 2, 0)          X(MAX, 2, 0)          \
   X(DP2, 2, 0)          X(DP3, 2, 0)           X(DP4, 2, 0)          X(RCP, 1, 0)          \
   X(DIV, 2, 0)          X(SLT, 2, SRC_EXACT)   X(SGE, 2, SRC_EXACT)  X(SEQ, 2, SRC_EXACT)  \
   X(SNE, 2, SRC_EXACT)  X(SGT, 2, SRC_EXACT)   X(SLE, 2, SRC_EXACT)  X(FRC, 1, SRC_EXACT)  \
   X(FLR, 1, SRC_EXACT)  X(CEIL, 1, SRC_EXACT)  X(TRUNC, 1, SRC_EXACT) X(ROUND, 1, SRC_EXACT) \
   X(SSG, 1, SRC_EXACT)  X(CMP, 3, SRC_EXACT)   X(SIN, 1, SRC_EXACT)  X(COS, 1, SRC_EXACT)  \
   X(EX2, 1, SRC_LT128)  X(SQRT, 1, SRC_ABS0)   X(RSQ, 1, SRC_POS0)   X(LG2, 1, SRC_POS0)   \
   X(POW, 2, SRC_POS0)

/* Integer ops whose sources and result are all integers. */
#define GEN_INT_OPS(X) \
   X(UADD, 2)  X(UMUL, 2)    X(UMAD, 3)    X(IMAX, 2) X(IMIN, 2) X(UMAX, 2) X(UMIN, 2) \
   X(AND, 2)   X(OR, 2)      X(XOR, 2)     X(NOT, 1)  X(SHL, 2)  X(ISHR, 2) X(USHR, 2) \
   X(INEG, 1)  X(IABS, 1)    X(ISSG, 1)    X(USEQ, 2) X(USNE, 2) X(USLT, 2) X(USGE, 2) \
   X(ISLT, 2)  X(ISGE, 2)    X(UDIV, 2)    X(UMOD, 2) X(BREV, 1) X(POPC, 1) X(LSB, 1)  \
   X(UMSB, 1)  X(IMSB, 1)    X(IMUL_HI, 2) X(UMUL_HI, 2)
/* clang-format on */

struct gop {
   enum tgsi_opcode op;
   uint8_t nsrc, flags;
};

static const struct gop float_ops[] = {
#define X(n, s, f) {TGSI_OP_##n, s, f},
    GEN_FLOAT_OPS(X)
#undef X
};

static const struct gop int_ops[] = {
#define X(n, s) {TGSI_OP_##n, s, 0},
    GEN_INT_OPS(X)
#undef X
};

/* A supported op of the table, or NULL. */
static const struct gop *
pick_op(struct gen *g, const struct gop *t, unsigned n)
{
   static const struct gop mad = {TGSI_OP_MAD, 3, 0};
   for (int tries = 0; tries < 16; tries++) {
      const struct gop *o = &t[gen_pick(g, n)];
      if (o->op == TGSI_OP_FMA && !g->fma)
         o = &mad;
      if (gen_ok(g, o->op))
         return o;
   }
   for (unsigned i = 0; i < n; i++)
      if (gen_ok(g, t[i].op))
         return &t[i];
   return NULL;
}

/* Emits "OP[_SAT][_PRECISE] dst, srcs..." and records the destination. */
void
gen_emit_op(struct gen *g, enum tgsi_opcode op, const char *suffix, unsigned r, uint8_t mask,
            enum gty ty, struct opnd *src, unsigned nsrc)
{
   char line[512], db[24];
   int n = snprintf(line, sizeof(line), "%s%s %s", tgsi_op_info[op].name, suffix,
                    gen_dst_str(r, mask, db));
   bool dep = false, inexact = false;
   for (unsigned i = 0; i < nsrc; i++) {
      n += snprintf(line + n, sizeof(line) - (size_t)n, ", %s", src[i].s);
      dep |= src[i].dep;
      inexact |= src[i].inexact;
   }
   gen_emit(g, "%s", line);
   /* A move or select (MOV, CMP, UCMP) of -x or |x| is a sign-bit flip
    * to one compiler and FADD(-x, -0) to another: on a NaN the sign bit
    * differs, so the result's bits are open like a MIN/MAX zero's sign
    * (the sink zeroes NaNs for the same reason). A generated shader read
    * such a NaN, UCMP's, as the operand of an ATOMAND. */
   if (ty == GT_F && (op == TGSI_OP_MOV || op == TGSI_OP_CMP || op == TGSI_OP_UCMP))
      for (unsigned i = 0; i < nsrc; i++)
         inexact |= src[i].s[0] == '-' || src[i].s[0] == '|';
   int k = gen_op_inexact(op);
   gen_dst_set(g, r, mask, ty, dep, k < 0 ? inexact : k > 0);
   if (k == 0 || op == TGSI_OP_ISLT || op == TGSI_OP_ISGE || op == TGSI_OP_USEQ ||
       op == TGSI_OP_USNE || op == TGSI_OP_USLT || op == TGSI_OP_USGE)
      g->cmp[r] |= mask;
}

static bool
stmt_float(struct gen *g)
{
   const struct gop *o = pick_op(g, float_ops, ARRAY_SIZE(float_ops));
   if (!o)
      return false;
   struct opnd src[3] = {0};
   for (unsigned i = 0; i < o->nsrc; i++) {
      if (i == 0 && (o->flags & (SRC_ABS0 | SRC_POS0))) {
         gen_src_plain(g, GT_F, &src[0]);
         gen_wrap(&src[0], "|", "|");
      } else if ((o->flags & SRC_EXACT) && (i == 0 || o->op != TGSI_OP_CMP)) {
         gen_src_exact(g, &src[i]); /* CMP steps on its condition only */
      } else {
         gen_src_any(g, GT_F, &src[i]);
      }
   }
   if (o->flags & (SRC_POS0 | SRC_LT128)) {
      /* MAX/MIN also turn NaN into the bound */
      struct opnd k = {0};
      bool pos = o->flags & SRC_POS0;
      gen_imm_f(g, pos ? "1e-05" : "100", &k);
      gen_emit(g, "%s TEMP[%u], %s, %s", pos ? "MAX" : "MIN", g->t_scr, src[0].s, k.s);
      snprintf(src[0].s, sizeof(src[0].s), "TEMP[%u]", g->t_scr);
   }
   const char *suffix = gen_chance(g, 8) ? "_SAT" : gen_chance(g, 5) ? "_PRECISE" : "";
   unsigned r;
   uint8_t mask;
   gen_dst_pick(g, GT_F, &r, &mask);
   gen_emit_op(g, o->op, suffix, r, mask, GT_F, src, o->nsrc);
   return true;
}

/* Writes a copy of src (type ty) clamped for a conversion into the whole
 * scratch register: MAX then MIN, which also turns NaN into lo. */
void
gen_clamp_to_scratch(struct gen *g, const struct opnd *src, const char *lo, const char *hi,
                     struct opnd *out)
{
   struct opnd a = {0}, b = {0};
   gen_imm_f(g, lo, &a);
   gen_imm_f(g, hi, &b);
   gen_emit(g, "MAX TEMP[%u], %s, %s", g->t_scr, src->s, a.s);
   gen_emit(g, "MIN TEMP[%u], TEMP[%u], %s", g->t_scr, g->t_scr, b.s);
   snprintf(out->s, sizeof(out->s), "TEMP[%u]", g->t_scr);
   out->dep = src->dep;
   out->inexact = src->inexact;
}

/* A packing op or its unpack: PK2H, PK2US, PK4UB, PK4B from exact floats
 * (each rounds: a threshold), UP2H, UP2US, UP4UB, UP4B from integer bits
 * (the normalized unpacks multiply by a reciprocal: inexact). */
static bool
stmt_pack(struct gen *g)
{
   static const enum tgsi_opcode packs[] = {TGSI_OP_PK2H, TGSI_OP_PK2US, TGSI_OP_PK4UB,
                                            TGSI_OP_PK4B};
   static const enum tgsi_opcode unpacks[] = {TGSI_OP_UP2H, TGSI_OP_UP2US, TGSI_OP_UP4UB,
                                              TGSI_OP_UP4B};
   bool pack = gen_chance(g, 50);
   unsigned k = gen_pick(g, 4);
   enum tgsi_opcode op = pack ? packs[k] : unpacks[k];
   if (!gen_ok(g, op))
      return false;
   struct opnd src[1] = {0};
   if (pack)
      gen_src_exact(g, &src[0]);
   else
      gen_src_any(g, GT_I, &src[0]);
   unsigned r;
   uint8_t mask;
   enum gty ty = pack ? GT_I : GT_F;
   gen_dst_pick(g, ty, &r, &mask);
   gen_emit_op(g, op, "", r, mask, ty, src, 1);
   return true;
}

static bool
stmt_int(struct gen *g)
{
   unsigned r;
   uint8_t mask;
   struct opnd src[4] = {0};
   unsigned kind = gen_pick(g, 10);
   if (kind == 0 && gen_ok(g, TGSI_OP_IDIV) && gen_ok(g, TGSI_OP_MOD) && gen_ok(g, TGSI_OP_AND) &&
       gen_ok(g, TGSI_OP_UADD)) {
      /* signed division by a divisor forced into [1, 8] */
      struct opnd d = {0}, m7 = {0}, one = {0};
      gen_src_any(g, GT_I, &src[0]);
      gen_src_plain(g, GT_I, &d);
      gen_imm_u(g, 7, &m7);
      gen_imm_u(g, 1, &one);
      gen_emit(g, "AND TEMP[%u], %s, %s", g->t_scr, d.s, m7.s);
      gen_emit(g, "UADD TEMP[%u], TEMP[%u], %s", g->t_scr, g->t_scr, one.s);
      snprintf(src[1].s, sizeof(src[1].s), "TEMP[%u]", g->t_scr);
      src[1].dep = d.dep;
      gen_dst_pick(g, GT_I, &r, &mask);
      gen_emit_op(g, gen_chance(g, 50) ? TGSI_OP_IDIV : TGSI_OP_MOD, "", r, mask, GT_I, src, 2);
      return true;
   }
   unsigned variant = kind == 1 ? gen_pick(g, 3) : 0;
   if (variant == 2 && stmt_pack(g))
      return true;
   if (kind == 1 && gen_ok(g, TGSI_OP_UBFE) && gen_ok(g, TGSI_OP_IBFE) && gen_ok(g, TGSI_OP_BFI)) {
      /* bitfields with immediate offset + bits <= 32; one in three a byte
       * or a half-word at a byte boundary (a gfx9 SDWA select) */
      unsigned off = gen_pick(g, 24), bits = 1 + gen_pick(g, 32 - off);
      if (variant == 1) {
         bits = gen_chance(g, 50) ? 8 : 16;
         off = 8 * gen_pick(g, bits == 8 ? 4 : 3);
      }
      bool bfi = gen_chance(g, 35);
      unsigned ns = bfi ? 4 : 3;
      gen_src_any(g, GT_I, &src[0]);
      if (bfi)
         gen_src_any(g, GT_I, &src[1]);
      gen_imm_u(g, off, &src[ns - 2]);
      gen_imm_u(g, bits, &src[ns - 1]);
      gen_dst_pick(g, GT_I, &r, &mask);
      enum tgsi_opcode op = bfi ? TGSI_OP_BFI : gen_chance(g, 50) ? TGSI_OP_UBFE : TGSI_OP_IBFE;
      gen_emit_op(g, op, "", r, mask, GT_I, src, ns);
      return true;
   }
   const struct gop *o = pick_op(g, int_ops, ARRAY_SIZE(int_ops));
   if (!o)
      return false;
   for (unsigned i = 0; i < o->nsrc; i++)
      gen_src_any(g, GT_I, &src[i]);
   gen_dst_pick(g, GT_I, &r, &mask);
   gen_emit_op(g, o->op, "", r, mask, GT_I, src, o->nsrc);
   return true;
}

/* Conversions and mixed-type ops. */
static bool
stmt_convert(struct gen *g)
{
   unsigned r;
   uint8_t mask;
   struct opnd src[3] = {0};
   switch (gen_pick(g, 5)) {
   case 0: { /* int -> float */
      enum tgsi_opcode op = gen_chance(g, 50) ? TGSI_OP_I2F : TGSI_OP_U2F;
      if (!gen_ok(g, op))
         return false;
      gen_src_any(g, GT_I, &src[0]);
      gen_dst_pick(g, GT_F, &r, &mask);
      gen_emit_op(g, op, "", r, mask, GT_F, src, 1);
      return true;
   }
   case 1: { /* float -> int, clamped into range first */
      bool sgn = gen_chance(g, 50);
      enum tgsi_opcode op = sgn ? TGSI_OP_F2I : TGSI_OP_F2U;
      if (!gen_ok(g, op) || !gen_ok(g, TGSI_OP_MAX) || !gen_ok(g, TGSI_OP_MIN))
         return false;
      struct opnd s = {0};
      gen_src_exact(g, &s); /* also keeps a loop's integer channels exact (stmt_loop) */
      gen_clamp_to_scratch(g, &s, sgn ? "-1e+06" : "0", "1e+06", &src[0]);
      gen_dst_pick(g, GT_I, &r, &mask);
      gen_emit_op(g, op, "", r, mask, GT_I, src, 1);
      return true;
   }
   case 2: { /* float compare -> integer mask */
      static const enum tgsi_opcode cmps[] = {TGSI_OP_FSLT, TGSI_OP_FSGE, TGSI_OP_FSEQ,
                                              TGSI_OP_FSNE};
      enum tgsi_opcode op = cmps[gen_pick(g, 4)];
      if (!gen_ok(g, op))
         return false;
      gen_src_exact(g, &src[0]);
      gen_src_exact(g, &src[1]);
      gen_dst_pick(g, GT_I, &r, &mask);
      gen_emit_op(g, op, "", r, mask, GT_I, src, 2);
      return true;
   }
   case 3: /* select on an integer condition */
      if (!gen_ok(g, TGSI_OP_UCMP))
         return false;
      gen_src_plain(g, GT_I, &src[0]);
      gen_src_any(g, GT_F, &src[1]);
      gen_src_any(g, GT_F, &src[2]);
      gen_dst_pick(g, GT_F, &r, &mask);
      gen_emit_op(g, TGSI_OP_UCMP, "", r, mask, GT_F, src, 3);
      return true;
   default:
      if (!gen_ok(g, TGSI_OP_LDEXP))
         return false;
      gen_src_any(g, GT_F, &src[0]);
      gen_src_plain(g, GT_I, &src[1]);
      gen_dst_pick(g, GT_F, &r, &mask);
      gen_emit_op(g, TGSI_OP_LDEXP, "", r, mask, GT_F, src, 2);
      return true;
   }
}

/* ------------------------------------------------------------------ */
/* Textures, indirect addressing, KILL_IF                               */

static bool
stmt_tex(struct gen *g)
{
   unsigned k = gen_pick(g, 2), r;
   uint8_t mask;
   struct opnd src[1] = {0};
   unsigned kind = gen_pick(g, 3);
   /* TEX needs implicit derivatives: fragment shaders only. */
   if (kind == 0 && g->stage != TGSI_STAGE_FRAG)
      kind = 1;
   enum tgsi_opcode op = kind == 0 ? TGSI_OP_TEX : kind == 1 ? TGSI_OP_TXL : TGSI_OP_TXF;
   if (op == TGSI_OP_TXL && gen_ok(g, TGSI_OP_TXD) && gen_chance(g, 40))
      op = TGSI_OP_TXD;
   if (!gen_ok(g, op))
      return false;
   if (op == TGSI_OP_TXF) {
      /* integer texel coordinates in [0, 3] (textures are at least 4x4:
       * an out-of-bounds fetch is undefined), level 0 */
      static const char *const m[4] = {"3", "3", "0", "0"};
      struct opnd c = {0}, mk = {0};
      gen_src_plain(g, GT_I, &c);
      gen_imm_vec(g, true, m, &mk);
      gen_emit(g, "AND TEMP[%u], %s, %s", g->t_scr, c.s, mk.s);
      snprintf(src[0].s, sizeof(src[0].s), "TEMP[%u]", g->t_scr);
      src[0].dep = c.dep;
   } else {
      gen_src_any(g, GT_F, &src[0]);
   }
   gen_dst_pick(g, GT_F, &r, &mask);
   char db[24];
   if (op == TGSI_OP_TXD) {
      /* Explicit gradients, immediates: ddx along s, ddy along t, each a
       * power of two (2^-a, 2^-b, a != b), so rho is 2^-min(a, b) times
       * the texture's size and the level log2(size) - min(a, b), a whole
       * number on power-of-two textures (every env texture is one) and
       * the same bits in every program. Either vector may be the longer,
       * so the level depends on each one. */
      static const char *const pow2[] = {"1",       "0.5",      "0.25",      "0.125",     "0.0625",
                                         "0.03125", "0.015625", "0.0078125", "0.00390625"};
      unsigned a = gen_pick(g, 6), b = a + 1 + gen_pick(g, 3);
      if (gen_chance(g, 50)) {
         unsigned t = a;
         a = b;
         b = t;
      }
      const char *const dx[4] = {pow2[a], "0", "0", "0"}, *const dy[4] = {"0", pow2[b], "0", "0"};
      struct opnd gx = {0}, gy = {0};
      gen_imm_vec(g, false, dx, &gx);
      gen_imm_vec(g, false, dy, &gy);
      gen_emit(g, "TXD %s, %s, %s, %s, SAMP[%u], 2D", gen_dst_str(r, mask, db), src[0].s, gx.s,
               gy.s, k);
   } else {
      gen_emit(g, "%s %s, %s, SAMP[%u], 2D", tgsi_op_info[op].name, gen_dst_str(r, mask, db),
               src[0].s, k);
   }
   gen_dst_set(g, r, mask, GT_F, src[0].dep, op != TGSI_OP_TXF); /* filtering: RCP TRANS */
   g->used_samp[k] = true;
   return true;
}

/* Sets ADDR[0].x to an index in [0, 3]: (int AND 3) through UARL, or a
 * float clamped into [0, 3.5] through ARL (floor). uniform picks a source
 * that is the same in every active lane (a constant or a loop counter),
 * for destination indirects. */
static bool
set_addr(struct gen *g, bool uniform)
{
   struct opnd s = {0}, a = {0}, b = {0};
   bool use_int = uniform ? g->loop_depth && gen_chance(g, 50) : gen_chance(g, 55);
   if (use_int) {
      if (!gen_ok(g, TGSI_OP_UARL) || !gen_ok(g, TGSI_OP_AND))
         return false;
      if (uniform)
         snprintf(s.s, sizeof(s.s), "TEMP[%u].xxxx", g->t_loop + gen_pick(g, g->loop_depth));
      else
         gen_src_plain(g, GT_I, &s);
      gen_imm_u(g, 3, &a);
      gen_emit(g, "AND TEMP[%u].x, %s, %s", g->t_scr, s.s, a.s);
      gen_emit(g, "UARL ADDR[0].x, TEMP[%u].xxxx", g->t_scr);
   } else {
      if (!gen_ok(g, TGSI_OP_ARL) || !gen_ok(g, TGSI_OP_MAX) || !gen_ok(g, TGSI_OP_MIN))
         return false;
      if (uniform)
         snprintf(s.s, sizeof(s.s), "CONST[0][%u].xxxx", gen_pick(g, g->nconst));
      else
         gen_src_plain(g, GT_F, &s);
      if (s.inexact) /* floor() of a value within a tolerance: any index */
         snprintf(s.s, sizeof(s.s), "CONST[0][%u].xxxx", gen_pick(g, g->nconst));
      if (g->noconst && (uniform || s.inexact))
         gen_imm_f(g, "1.5", &s);
      gen_imm_f(g, "0", &a);
      gen_imm_f(g, "3.5", &b);
      gen_emit(g, "MAX TEMP[%u].x, %s, %s", g->t_scr, s.s, a.s);
      gen_emit(g, "MIN TEMP[%u].x, TEMP[%u].xxxx, %s", g->t_scr, g->t_scr, b.s);
      gen_emit(g, "ARL ADDR[0].x, TEMP[%u].xxxx", g->t_scr);
   }
   g->used_addr = true;
   return true;
}

static bool
stmt_indirect(struct gen *g)
{
   char sw[6], db[24], mb[6];
   unsigned r;
   uint8_t mask;
   if (g->arrays && gen_chance(g, 30)) { /* write one array element */
      if (!set_addr(g, true))
         return false;
      struct opnd v = {0};
      gen_src_any(g, GT_F, &v);
      mask = (uint8_t)(gen_pick(g, 15) + 1);
      gen_emit(g, "MOV TEMP[ADDR[0].x+%u](1)%s, %s", g->t_arr, gen_mask_str(mask, mb), v.s);
      g->used_array = true;
      return true;
   }
   if (!set_addr(g, false))
      return false;
   /* an ALU op (or MOV) with one indirect source: the array or CONST */
   const struct gop *o = pick_op(g, float_ops, ARRAY_SIZE(float_ops));
   if (!o || o->flags) /* no operand fixes on the indirect source: MOV */
      o = &float_ops[0];
   struct opnd src[3] = {0};
   unsigned which = gen_pick(g, o->nsrc);
   for (unsigned i = 0; i < o->nsrc; i++)
      if (i != which)
         gen_src_any(g, GT_F, &src[i]);
   gen_swizzle(g, 0xf, sw);
   if (gen_tess(g) && gen_chance(g, 40)) {
      /* a control point chosen per lane: the patch has 4, ADDR[0].x is
       * in [0, 3] */
      unsigned i = gen_pick(g, g->nin);
      g->used_in[i] = true;
      snprintf(src[which].s, sizeof(src[which].s), "IN[ADDR[0].x][%u]%s", i, sw);
      src[which].dep = true;
      src[which].inexact = false;
   } else if (g->arrays && gen_chance(g, 60)) {
      snprintf(src[which].s, sizeof(src[which].s), "TEMP[ADDR[0].x+%u](1)%s", g->t_arr, sw);
      /* the cells hold copies of MAD results and of any float written
       * since: their bits are not known exactly */
      src[which].dep = src[which].inexact = true;
      g->used_array = true;
   } else if (g->noconst) { /* no CONST: the array (the prologue fills it) */
      snprintf(src[which].s, sizeof(src[which].s), "TEMP[ADDR[0].x+%u](1)%s", g->t_arr, sw);
      src[which].dep = src[which].inexact = true;
      g->used_array = true;
   } else {
      unsigned base = gen_pick(g, g->nconst - 3);
      snprintf(src[which].s, sizeof(src[which].s), "CONST[0][ADDR[0].x+%u]%s", base, sw);
      src[which].dep = true; /* the index does */
   }
   gen_dst_pick(g, GT_F, &r, &mask);
   (void)db;
   gen_emit_op(g, o->op, "", r, mask, GT_F, src, o->nsrc);
   return true;
}

/* One statement; returns after emitting at least one instruction. */
static void
gen_stmt(struct gen *g, unsigned budget, enum gctx ctx)
{
   for (int tries = 0; tries < 32; tries++) {
      unsigned r = gen_pick(g, 100);
      bool nest = g->depth < GEN_MAX_DEPTH && budget >= 4;
      bool done;
      if (r < 27)
         done = stmt_float(g);
      else if (r < 43)
         done = stmt_int(g);
      else if (r < 51)
         done = stmt_convert(g);
      else if (r < 58)
         done = nest && gen_stmt_if(g, budget, ctx);
      else if (r < 63)
         done = nest && gen_stmt_loop(g, budget);
      else if (r < 66)
         done = nest && gen_stmt_switch(g, budget, ctx);
      else if (r < 71)
         done = stmt_tex(g);
      else if (r < 77)
         done = stmt_indirect(g);
      else if (r < 79)
         done = gen_stmt_kill(g);
      else if (r < 83)
         done = gen_stmt_brk(g, ctx);
      else if (r < 90) /* memory, a geometry shader's vertex, a TCS output */
         done = g->mem                             ? gen_stmt_mem(g)
                : g->stage == TGSI_STAGE_TESS_CTRL ? gen_stmt_tess_out(g)
                                                   : gen_stmt_emit(g, ctx);
      else if (r < (g->fp64 ? 98u : 94u))
         done = gen_stmt_wide(g);
      else
         done = stmt_float(g);
      if (done)
         return;
   }
   /* Everything refused: a plain copy always works. */
   unsigned r = gen_pick(g, g->ntemp);
   gen_emit(g, "MOV TEMP[%u], TEMP[%u]", r, r);
}

void
gen_block(struct gen *g, unsigned budget, enum gctx ctx)
{
   unsigned end = g->ninsns + budget;
   while (g->ninsns < end)
      gen_stmt(g, end - g->ninsns, ctx);
}

/* ------------------------------------------------------------------ */
/* Prologue, epilogue, declarations                                     */

/* COMP: the global id, its byte offset (for the result) and the offset of
 * the input vector in BUFFER[0], which is loaded into TEMP[0]. */
static void
prologue_comp(struct gen *g)
{
   struct opnd w = {0}, four = {0}, three = {0};
   gen_imm_u(g, g->block_w, &w);
   gen_imm_u(g, 4, &four);
   gen_imm_u(g, 3, &three);
   gen_emit(g, "UMAD TEMP[%u].x, SV[1].xxxx, %s, SV[0].xxxx", g->t_gid, w.s);
   gen_emit(g, "SHL TEMP[%u].y, TEMP[%u].xxxx, %s", g->t_gid, g->t_gid, four.s);
   /* Buffers hold integers and may be as small as 64 bytes: load from
    * (gid AND 3) * 16 so the load is always in bounds. */
   gen_emit(g, "AND TEMP[%u].z, TEMP[%u].xxxx, %s", g->t_gid, g->t_gid, three.s);
   gen_emit(g, "SHL TEMP[%u].z, TEMP[%u].zzzz, %s", g->t_gid, g->t_gid, four.s);
   gen_emit(g, "LOAD TEMP[0], BUFFER[0], TEMP[%u].zzzz", g->t_gid);
   memset(g->ty[0], GT_I, 4);
   g->dep[0] = 0xf;
   g->ready[0] = true;
}

/* FRAG, VERT: the lane's index in t_gid.x (compute has its global id
 * there): y * 256 + x of the pixel, or VERTEXID. Distinct in every lane
 * of a draw, it makes conditions differ between lanes (gen_cf.c). */
static void
prologue_lane(struct gen *g)
{
   struct opnd k = {0};
   unsigned t = g->t_gid;
   if (g->stage == TGSI_STAGE_FRAG) {
      gen_imm_u(g, 256, &k);
      gen_emit(g, "F2U TEMP[%u].xy, IN[%u].xyyy", t, g->in_pos);
      gen_emit(g, "UMAD TEMP[%u].x, TEMP[%u].yyyy, %s, TEMP[%u].xxxx", t, t, k.s, t);
   } else {
      gen_emit(g, "MOV TEMP[%u].x, SV[%u].xxxx", t, g->sv_vid);
   }
}

/* Writes all of general temporary r from the inputs. */
static void
init_temp(struct gen *g, unsigned r)
{
   struct opnd a = {0}, c = {0};
   char sw[6], in[24];
   if (g->stage == TGSI_STAGE_COMP && r > 1 && gen_chance(g, 40)) {
      gen_emit(g, "MOV TEMP[%u], SV[%u].xxxx", r, gen_pick(g, 2));
      memset(g->ty[r], GT_I, 4);
   } else if (g->stage == TGSI_STAGE_COMP) {
      gen_temp_src(g, 0, 0xf, &a);
      gen_emit(g, "I2F TEMP[%u], %s", r, a.s);
      if (gen_chance(g, 50)) {
         gen_imm_f(g, gen_chance(g, 50) ? "0.5" : "2", &c);
         gen_emit(g, "MAD TEMP[%u], TEMP[%u], CONST[0][%u], %s", r, r, gen_pick(g, g->nconst), c.s);
      }
      memset(g->ty[r], GT_F, 4);
      g->inexact[r] = 0xf; /* I2F (of a large id) and MAD round */
   } else {
      gen_swizzle(g, 0xf, sw);
      gen_in_reg(g, r % g->nin, in);
      if (gen_chance(g, 50)) {
         gen_emit(g, "MOV TEMP[%u], %s%s", r, in, sw);
      } else {
         gen_imm_f(g, gen_chance(g, 50) ? "0.5" : "2", &c);
         unsigned k = gen_pick(g, g->nconst);
         if (g->noconst)
            gen_emit(g, "MAD TEMP[%u], %s%s, %s, %s", r, in, sw, c.s, c.s);
         else
            gen_emit(g, "MAD TEMP[%u], %s%s, CONST[0][%u], %s", r, in, sw, k, c.s);
         g->inexact[r] = 0xf;
      }
      memset(g->ty[r], GT_F, 4);
   }
   g->dep[r] = 0xf;
   g->ready[r] = true;
}

/* Fills every general temporary and the array from the inputs, so nothing
 * is read before it is written; a few temporaries start as integers. */
static void
prologue(struct gen *g)
{
   struct opnd a = {0}, b = {0}, c = {0};
   if (g->stage == TGSI_STAGE_COMP)
      prologue_comp(g);
   else if (g->lane)
      prologue_lane(g);
   for (unsigned r = g->stage == TGSI_STAGE_COMP; r < g->ntemp; r++)
      init_temp(g, r);
   for (unsigned j = 0; j < GEN_ARRAY_LEN; j++) {
      int r = gen_pick_temp(g, GT_F); /* the array holds floats; r = 1 at least */
      gen_temp_src(g, r < 0 ? 1 : (unsigned)r, 0xf, &a);
      gen_emit(g, "MOV TEMP[%u], %s", g->t_arr + j, a.s);
   }
   /* Some integers to work with from the start. */
   unsigned nint = 1 + gen_pick(g, 2);
   for (unsigned k = 0; k < nint && gen_ok(g, TGSI_OP_F2I); k++) {
      unsigned r = gen_pick(g, g->ntemp);
      if (gen_chans_of(g, r, GT_I))
         continue;
      gen_temp_src(g, r, 0xf, &a);
      gen_imm_f(g, "64", &b);
      gen_emit(g, "MUL TEMP[%u], %s, %s", g->t_scr, a.s, b.s);
      snprintf(c.s, sizeof(c.s), "TEMP[%u]", g->t_scr);
      c.dep = true;
      gen_clamp_to_scratch(g, &c, "-1e+06", "1e+06", &a);
      gen_emit(g, "F2I TEMP[%u], %s", r, a.s);
      memset(g->ty[r], GT_I, 4); /* as inexact as what it converted */
   }
   gen_mem_prologue(g);
   gen_tess_prologue(g);
}

/* A float source that depends on the inputs: tries the temporaries, then
 * adds an input. */
static void
dep_float_src(struct gen *g, struct opnd *o)
{
   for (int tries = 0; tries < 12; tries++) {
      int r = gen_pick_temp(g, GT_F);
      if (r < 0)
         break;
      uint8_t m = gen_chans_of(g, (unsigned)r, GT_F) & g->dep[r];
      if (m) {
         gen_temp_src(g, (unsigned)r, m, o);
         return;
      }
   }
   struct opnd a = {0}, b = {0};
   gen_src_plain(g, GT_F, &a);
   if (g->stage == TGSI_STAGE_COMP) {
      gen_emit(g, "U2F TEMP[%u], TEMP[%u].xxxx", g->t_scr, g->t_gid); /* the id, converted */
      gen_emit(g, "ADD TEMP[%u], TEMP[%u], %s", g->t_scr, g->t_scr, a.s);
   } else {
      gen_input_src(g, &b);
      gen_emit(g, "ADD TEMP[%u], %s, %s", g->t_scr, a.s, b.s);
   }
   snprintf(o->s, sizeof(o->s), "TEMP[%u]", g->t_scr);
   o->dep = true;
}

/* Pressure shaders: every general temporary's float and integer channels
 * summed into TEMP[t_loop] at the end, so that all of them stay live
 * through the body's loops; returns the sum as an operand. */
static bool
pressure_sum(struct gen *g, struct opnd *o)
{
   if (!g->pressure)
      return false;
   unsigned acc = g->t_loop;
   struct opnd z = {0};
   char sw[6];
   gen_imm_f(g, "0", &z);
   gen_emit(g, "MOV TEMP[%u], %s", acc, z.s);
   for (unsigned r = 0; r < g->ntemp; r++) {
      uint8_t f = gen_chans_of(g, r, GT_F), i = gen_chans_exact(g, r, GT_I);
      if (f) {
         gen_swizzle(g, f, sw);
         gen_emit(g, "ADD TEMP[%u], TEMP[%u], TEMP[%u]%s", acc, acc, r, sw);
      }
      if (i) {
         gen_swizzle(g, i, sw);
         gen_emit(g, "U2F TEMP[%u], TEMP[%u]%s", g->t_scr, r, sw);
         gen_emit(g, "ADD TEMP[%u], TEMP[%u], TEMP[%u]", acc, acc, g->t_scr);
      }
   }
   snprintf(o->s, sizeof(o->s), "TEMP[%u]", acc);
   o->dep = true;
   o->inexact = true;
   return true;
}

/* Writes every output (all channels) from input-dependent values. */
static void
epilogue(struct gen *g)
{
   struct opnd sum = {0};
   bool psum = pressure_sum(g, &sum);
   gen_mem_epilogue(g);
   /* The first output also adds an input directly: then it varies with
    * the inputs even where the body's values happen not to (inputs that
    * steer addresses and loops are small integers, constants may be 0). */
   struct opnd a = {0}, b = {0};
   if (g->stage == TGSI_STAGE_COMP) {
      /* the input here is the buffer (the ids are the same every run) */
      dep_float_src(g, &a);
      if (psum)
         a = sum;
      gen_emit(g, "LOAD TEMP[%u].w, BUFFER[0], TEMP[%u].zzzz", g->t_gid, g->t_gid);
      gen_emit(g, "I2F TEMP[%u].w, TEMP[%u].wwww", g->t_gid, g->t_gid);
      gen_emit(g, "ADD TEMP[%u], %s, TEMP[%u].wwww", g->t_scr, a.s, g->t_gid);
      gen_emit(g, "STORE BUFFER[1], TEMP[%u].yyyy, TEMP[%u]", g->t_gid, g->t_scr);
   } else {
      char o[24];
      for (unsigned i = 0; i < g->nout; i++) {
         /* a control shader's prologue wrote every output: half of them
          * keep what the body last wrote */
         if (g->stage == TGSI_STAGE_TESS_CTRL && !(psum && i == 0) && gen_chance(g, 50))
            continue;
         dep_float_src(g, &a);
         if (psum && i == 0)
            a = sum;
         gen_out_reg(g, i, o);
         if (i == 0 || gen_chance(g, 50)) {
            if (i == 0)
               gen_input_src(g, &b);
            else
               gen_src_any(g, GT_F, &b);
            gen_emit(g, "ADD %s, %s, %s", o, a.s, b.s);
         } else {
            gen_emit(g, "MOV%s %s, %s", gen_chance(g, 20) ? "_SAT" : "", o, a.s);
         }
      }
      gen_tess_epilogue(g);
   }
   if (g->want_sink)
      g->sink = gen_shape_sink(g); /* it draws from a side stream */
   gen_geom_end(g);
}

static void
declarations(struct gen *g, struct strbuf *h)
{
   strbuf_printf(h, "%s\n", tgsi_stage_names[g->stage]);
   if (g->stage == TGSI_STAGE_GEOM)
      gen_geom_declarations(g, h);
   if (gen_tess(g))
      gen_tess_declarations(g, h);
   if (g->stage == TGSI_STAGE_COMP) {
      strbuf_printf(h,
                    "PROPERTY CS_FIXED_BLOCK_WIDTH %u\nPROPERTY CS_FIXED_BLOCK_HEIGHT 1\n"
                    "PROPERTY CS_FIXED_BLOCK_DEPTH 1\n",
                    g->block_w);
      strbuf_printf(h, "DCL SV[0], THREAD_ID\nDCL SV[1], BLOCK_ID\nDCL BUFFER[0]\nDCL BUFFER[1]\n");
   } else {
      for (unsigned i = 0; i < g->nin; i++) {
         if (!g->used_in[i])
            continue;
         if (g->stage == TGSI_STAGE_FRAG)
            strbuf_printf(h, "DCL IN[%u], GENERIC[%u], PERSPECTIVE\n", i, i);
         else if (g->stage == TGSI_STAGE_VERT)
            strbuf_printf(h, "DCL IN[%u]\n", i);
      }
      for (unsigned i = 0; i < g->nout + g->sink && g->stage != TGSI_STAGE_TESS_CTRL; i++) {
         if (g->stage == TGSI_STAGE_FRAG)
            strbuf_printf(h, "DCL OUT[%u], COLOR[%u]\n", i, i);
         else if (i == 0)
            strbuf_printf(h, "DCL OUT[0], POSITION\n");
         else
            strbuf_printf(h, "DCL OUT[%u], GENERIC[%u]\n", i, i - 1);
      }
   }
   gen_mem_declarations(g, h);
   if (g->stage == TGSI_STAGE_COMP && g->sink)
      strbuf_printf(h, "DCL BUFFER[%u]\n", GEN_SINK_BUF);
   if (!g->noconst)
      strbuf_printf(h, "DCL CONST[0][0..%u]\n",
                    g->nconst - 1 +
                        (g->used_dconst   ? GEN_INT_CONSTS + GEN_DBL_CONSTS
                         : g->used_iconst ? GEN_INT_CONSTS
                                          : 0));
   for (unsigned k = 0; k < 2; k++)
      if (g->used_samp[k])
         strbuf_printf(h, "DCL SAMP[%u]\nDCL SVIEW[%u], 2D, FLOAT\n", k, k);
   strbuf_printf(h, "DCL TEMP[0..%u]\n", g->t_arr - 1);
   strbuf_printf(h, "DCL TEMP[%u..%u], ARRAY(1)\n", g->t_arr, g->t_arr + GEN_ARRAY_LEN - 1);
   if (g->stage == TGSI_STAGE_TESS_CTRL) /* ADDR[1].x: INVOCATIONID */
      strbuf_printf(h, "DCL ADDR[0..1]\n");
   else if (g->used_addr)
      strbuf_printf(h, "DCL ADDR[0]\n");
   for (unsigned i = 0; i < g->nimms; i++) {
      const struct gimm *l = &g->imms[i];
      strbuf_printf(h, "IMM[%u] %s {", i, l->is_int ? "UINT32" : "FLT32");
      for (unsigned c = 0; c < 4; c++)
         strbuf_printf(h, "%s%s", c ? ", " : "", c < l->n ? l->val[c] : "0");
      strbuf_printf(h, "}\n");
   }
}

/* ------------------------------------------------------------------ */
/* Entry points                                                         */

bool
diff_gen_default_supports(enum tgsi_opcode op)
{
   return tgsi_interp_supports(op);
}

bool
diff_gen_stage_from_name(const char *name, enum tgsi_stage *out)
{
   if (!strcmp(name, "frag"))
      *out = TGSI_STAGE_FRAG;
   else if (!strcmp(name, "vert"))
      *out = TGSI_STAGE_VERT;
   else if (!strcmp(name, "comp"))
      *out = TGSI_STAGE_COMP;
   else if (!strcmp(name, "geom"))
      *out = TGSI_STAGE_GEOM;
   else if (!strcmp(name, "tcs"))
      *out = TGSI_STAGE_TESS_CTRL;
   else if (!strcmp(name, "tes"))
      *out = TGSI_STAGE_TESS_EVAL;
   else
      return false;
   return true;
}

static void
setup(struct gen *g, const struct diff_gen_opts *o)
{
   static const enum tgsi_stage stages[] = {TGSI_STAGE_FRAG, TGSI_STAGE_VERT, TGSI_STAGE_COMP};
   g->supports = o && o->supports ? o->supports : diff_gen_default_supports;
   g->want_sink = o && o->sink;
   unsigned st = gen_pick(g, 3);
   /* Geometry shaders take half of the seeds that draw VERT, decided from
    * the state without drawing from it (as FMA below): every other seed
    * keeps the shader it made before there were geometry shaders. */
   enum tgsi_stage pick = stages[st];
   if (pick == TGSI_STAGE_VERT && gen_ok(g, TGSI_OP_EMIT) && gen_ok(g, TGSI_OP_ENDPRIM) &&
       (hash64(&g->rng, sizeof(g->rng), 0x6e0) & 1))
      pick = TGSI_STAGE_GEOM;
   /* Of the other VERT seeds, a third each stay VERT, make a control or
    * an evaluation shader: FRAG, COMP and GEOM seeds keep their shaders. */
   unsigned tess = (unsigned)(hash64(&g->rng, sizeof(g->rng), 0x7e5) % 3);
   if (pick == TGSI_STAGE_VERT && tess == 1 && gen_ok(g, TGSI_OP_UARL))
      pick = TGSI_STAGE_TESS_CTRL;
   else if (pick == TGSI_STAGE_VERT && tess == 2)
      pick = TGSI_STAGE_TESS_EVAL;
   g->stage = o && (o->stage == TGSI_STAGE_FRAG || o->stage == TGSI_STAGE_VERT ||
                    o->stage == TGSI_STAGE_COMP || o->stage == TGSI_STAGE_GEOM ||
                    o->stage == TGSI_STAGE_TESS_CTRL || o->stage == TGSI_STAGE_TESS_EVAL)
                  ? o->stage
                  : pick;
   g->nin = 1 + gen_pick(g, 4);
   g->nout = 1 + gen_pick(g, 3);
   g->nconst = 8 + gen_pick(g, 9);
   /* Pressure shaders keep 16 to 22 temporaries live to the end: 64 to
    * 88 values across every loop, more than a3xx's reference compiler
    * (one register per TEMP channel, out of 192) has room for spare. */
   g->pressure = gen_chance(g, 12);
   g->ntemp =
       g->pressure ? 16 + gen_pick(g, GEN_MAX_TEMPS - 15) : 4 + gen_pick(g, GEN_BASE_TEMPS - 3);
   g->block_w = 4u << gen_pick(g, 4);
   gen_mem_setup(g);
   gen_geom_setup(g);
   gen_tess_setup(g);
   /* Lane-keyed conditions (gen_cf.c) need the lane's index and these. */
   g->lane = gen_ok(g, TGSI_OP_UMAD) && gen_ok(g, TGSI_OP_UMUL) && gen_ok(g, TGSI_OP_USHR) &&
             gen_ok(g, TGSI_OP_F2U) && gen_ok(g, TGSI_OP_MOV);
   g->t_loop = g->ntemp;
   g->t_scr = g->t_loop + GEN_MAX_LOOPS;
   g->t_gid = g->t_scr + 1;
   g->t_mem = g->t_gid + 1;
   g->t_arr = g->t_mem + g->mem;
   memset(g->imm_hash, 0xff, sizeof(g->imm_hash));
   /* TEMP arrays addressed through ADDR in a third of the shaders (CONST
    * is still read indirectly in the others); the optimizing compiler
    * refuses arrays over 128 cells, which the generator never declares. */
   g->arrays = gen_chance(g, 33);
   /* FMA in a quarter of the shaders (a3xx has no fused multiply-add, so
    * they are n/a there), decided from the state without drawing from it:
    * the other choices, and so every shader without FMA, stay as they were. */
   g->fma = (hash64(&g->rng, sizeof(g->rng), 0xf3a) & 3) == 0;
   /* Doubles in one shader in five (n/a on a3xx, like FMA). */
   g->fp64 = gen_chance(g, 20);
}

/* seed: the seed for the banner line, or NULL when choices come from bytes. */
static char *
generate(struct gen *g, const struct diff_gen_opts *o, const uint64_t *seed,
         struct tgsi_shader **parsed, struct diag_list *d)
{
   setup(g, o);
   unsigned size =
       o && o->size ? MIN2(o->size, (unsigned)DIFF_GEN_MAX_SIZE) : (unsigned)DIFF_GEN_DEFAULT_SIZE;
   gen_geom_start(g);
   gen_tess_start(g);
   prologue(g);
   gen_block(g, size, CTX_NONE);
   epilogue(g);
   gen_emit(g, "END");
   struct strbuf h = {0};
   const char *sn = g->stage == TGSI_STAGE_FRAG        ? "frag"
                    : g->stage == TGSI_STAGE_VERT      ? "vert"
                    : g->stage == TGSI_STAGE_GEOM      ? "geom"
                    : g->stage == TGSI_STAGE_TESS_CTRL ? "tcs"
                    : g->stage == TGSI_STAGE_TESS_EVAL ? "tes"
                                                       : "comp";
   if (seed)
      strbuf_printf(&h, "# diffcomp gen --seed %llu --stage %s --size %u\n",
                    (unsigned long long)*seed, sn, size);
   else
      strbuf_printf(&h, "# generated from %zu bytes (%s, size %u)\n", g->nbytes, sn, size);
   declarations(g, &h);
   strbuf_printf(&h, "%.*s", (int)g->body.n, g->body.s);
   free(g->body.s);
   free(g->imms);
   struct tgsi_shader *s = tgsi_parse(h.s, h.n, "<generated>", NULL, d);
   if (!s) {
      free(h.s);
      return NULL;
   }
   if (parsed)
      *parsed = s;
   else
      tgsi_shader_free(s);
   return h.s;
}

char *
diff_gen(uint64_t seed, const struct diff_gen_opts *opts, struct tgsi_shader **parsed,
         struct diag_list *d)
{
   struct gen g;
   memset(&g, 0, sizeof(g));
   rng_seed(&g.rng, seed);
   return generate(&g, opts, &seed, parsed, d);
}

char *
diff_gen_bytes(const uint8_t *data, size_t len, const struct diff_gen_opts *opts,
               struct tgsi_shader **parsed, struct diag_list *d)
{
   struct gen g;
   memset(&g, 0, sizeof(g));
   rng_seed(&g.rng, hash64(data, len, 0));
   g.bytes = data;
   g.nbytes = len;
   return generate(&g, opts, NULL, parsed, d);
}
