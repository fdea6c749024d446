/*
 * The modern form of a legacy shader: every opcode removed from Mesa
 * (ABS, SUB, XPD, DPH, SCS, KIL, CLAMP, NRM, NRM4, SFL, STR) rewritten
 * into today's opcodes, so the printed text is TGSI a current Mesa reads.
 *
 * Each rewrite computes what the golden interpreter computes for the
 * removed opcode, rounding for rounding: SUB is ADD of the negated
 * operand, XPD a product and a MAD of its negation (a*b + -(c*d) is
 * a*b - c*d), DPH a DP4 whose fourth product is 1 * b.w, NRM a DP3, an
 * RSQ and a MUL, SCS a COS and a SIN. Multi-instruction rewrites compute
 * into one fresh temporary and end in a MOV to the destination, carrying
 * its write mask and saturation, so a destination that is also a source
 * never changes a source before it is read. Instruction indices move:
 * labels (CAL's subroutine, and the :N others carry) are mapped to the
 * first instruction of their target's rewrite.
 */
#include "compiler/tgsi/tgsi.h"

#include <stdlib.h>
#include <string.h>

struct mctx {
   const struct tgsi_shader *s;
   struct tgsi_shader *o;
   struct tgsi_insn *out;
   unsigned n, cap;
   int32_t temp; /* the fresh temporary, -1 until needed */
   int32_t imm;  /* IMM {0.0, 1.0, 0.0, 0.0}, -1 until needed */
};

static void
push(struct mctx *m, const struct tgsi_insn *in)
{
   VEC_PUSH(m->out, m->n, m->cap, *in);
}

static struct tgsi_reg
temp_reg(struct mctx *m)
{
   if (m->temp < 0) {
      uint32_t ntemp = 0;
      for (unsigned i = 0; i < m->s->ndecls; i++)
         if (m->s->decls[i].file == TGSI_FILE_TEMP)
            ntemp = MAX2(ntemp, m->s->decls[i].last + 1);
      m->temp = (int32_t)ntemp;
      /* One more in the plain declaration that ends below it, if any. */
      for (unsigned i = 0; i < m->o->ndecls; i++) {
         struct tgsi_decl *d = &m->o->decls[i];
         if (d->file == TGSI_FILE_TEMP && ntemp && d->last == ntemp - 1 && !d->array_id) {
            d->last = ntemp;
            return (struct tgsi_reg){.file = TGSI_FILE_TEMP, .index = m->temp};
         }
      }
      struct tgsi_decl d = {
          .file = TGSI_FILE_TEMP, .first = ntemp, .last = ntemp, .usage_mask = TGSI_MASK_XYZW};
      VEC_PUSH(m->o->decls, m->o->ndecls, m->o->decls_cap, d);
   }
   return (struct tgsi_reg){.file = TGSI_FILE_TEMP, .index = m->temp};
}

/* IMM {0.0, 1.0, 0.0, 0.0}, channel c replicated. */
static struct tgsi_src
imm_src(struct mctx *m, unsigned c)
{
   if (m->imm < 0) {
      struct tgsi_imm im = {.type = TGSI_IMM_FLT32, .u = {0, 0x3f800000u, 0, 0}};
      VEC_PUSH(m->o->imms, m->o->nimms, m->o->imms_cap, im);
      m->imm = (int32_t)m->o->nimms - 1;
   }
   struct tgsi_src r = {.reg = {.file = TGSI_FILE_IMM, .index = m->imm}};
   memset(r.swz, (int)c, sizeof r.swz);
   return r;
}

/* src with its channels picked again: channel c reads src's channel p[c]. */
static struct tgsi_src
reswz(struct tgsi_src src, const uint8_t p[4])
{
   struct tgsi_src r = src;
   for (unsigned c = 0; c < 4; c++)
      r.swz[c] = src.swz[p[c]];
   return r;
}

static struct tgsi_src
temp_src(struct mctx *m)
{
   return (struct tgsi_src){.reg = temp_reg(m), .swz = {0, 1, 2, 3}};
}

/* An instruction of op made from the removed one `in`: its location and
 * precision, no label, no saturation, writing the fresh temporary. */
static struct tgsi_insn
derived(struct mctx *m, const struct tgsi_insn *in, enum tgsi_opcode op, uint8_t mask)
{
   struct tgsi_insn r = {.op = op, .precise = in->precise, .target = -1, .loc = in->loc};
   r.ndst = tgsi_op_info[op].ndst;
   r.nsrc = tgsi_op_info[op].nsrc;
   if (r.ndst)
      r.dst[0] = (struct tgsi_dst){.reg = temp_reg(m), .mask = mask};
   return r;
}

static void
op1(struct mctx *m, const struct tgsi_insn *in, enum tgsi_opcode op, uint8_t mask,
    struct tgsi_src a)
{
   struct tgsi_insn r = derived(m, in, op, mask);
   r.src[0] = a;
   push(m, &r);
}

static void
op2(struct mctx *m, const struct tgsi_insn *in, enum tgsi_opcode op, uint8_t mask,
    struct tgsi_src a, struct tgsi_src b)
{
   struct tgsi_insn r = derived(m, in, op, mask);
   r.src[0] = a;
   r.src[1] = b;
   push(m, &r);
}

/* The end of a multi-instruction rewrite: the temporary to in's
 * destination, with its mask and saturation. */
static void
finish(struct mctx *m, const struct tgsi_insn *in)
{
   struct tgsi_insn r = derived(m, in, TGSI_OP_MOV, 0);
   r.dst[0] = in->dst[0];
   r.sat = in->sat;
   r.src[0] = temp_src(m);
   push(m, &r);
}

/* in itself, as op with the same operands (SUB, ABS, KIL, SFL, STR). */
static void
rename_op(struct mctx *m, const struct tgsi_insn *in)
{
   struct tgsi_insn r = *in;
   switch (in->op) {
   case TGSI_OP_SUB: /* a - b = a + -b, one rounding either way */
      r.op = TGSI_OP_ADD;
      r.src[1].neg = !r.src[1].neg;
      break;
   case TGSI_OP_ABS: /* |a| of whatever a's modifiers made */
      r.op = TGSI_OP_MOV;
      r.src[0].abs = true;
      r.src[0].neg = false;
      break;
   case TGSI_OP_KIL:
      r.op = TGSI_OP_KILL_IF;
      break;
   default: /* SFL and STR read no source: 0.0 and 1.0 */
      r.op = TGSI_OP_MOV;
      r.nsrc = 1;
      r.src[0] = imm_src(m, in->op == TGSI_OP_STR ? 1 : 0);
      memset(&r.src[1], 0, sizeof r.src[1]);
      break;
   }
   push(m, &r);
}

static void
rewrite(struct mctx *m, const struct tgsi_insn *in)
{
   static const uint8_t yzx[4] = {1, 2, 0, 3}, zxy[4] = {2, 0, 1, 3};
   const struct tgsi_src *a = in->src, *b = in->src + 1;
   struct tgsi_src t = temp_src(m), nt = t;
   nt.neg = true;
   switch (in->op) {
   case TGSI_OP_CLAMP: { /* min(max(a, b), c) */
      op2(m, in, TGSI_OP_MAX, in->dst[0].mask, *a, *b);
      struct tgsi_insn r = derived(m, in, TGSI_OP_MIN, 0);
      r.dst[0] = in->dst[0];
      r.sat = in->sat;
      r.src[0] = t;
      r.src[1] = in->src[2];
      push(m, &r);
      return;
   }
   case TGSI_OP_XPD: /* a.yzx * b.zxy - a.zxy * b.yzx, w = 1 */
      op2(m, in, TGSI_OP_MUL, 0x7, reswz(*a, zxy), reswz(*b, yzx));
      {
         struct tgsi_insn r = derived(m, in, TGSI_OP_MAD, 0x7);
         r.src[0] = reswz(*a, yzx);
         r.src[1] = reswz(*b, zxy);
         r.src[2] = nt;
         push(m, &r);
      }
      op1(m, in, TGSI_OP_MOV, 0x8, imm_src(m, 1));
      break;
   case TGSI_OP_DPH: /* DP4 with a.w = 1: the same sums, 1 * b.w exact */
      op1(m, in, TGSI_OP_MOV, 0x7, *a);
      op1(m, in, TGSI_OP_MOV, 0x8, imm_src(m, 1));
      op2(m, in, TGSI_OP_DP4, 0xf, t, *b);
      break;
   case TGSI_OP_NRM: /* a * rsq(dot3(a, a)), w = 1 */
   case TGSI_OP_NRM4: {
      bool four = in->op == TGSI_OP_NRM4;
      struct tgsi_src tx = t;
      memset(tx.swz, 0, sizeof tx.swz);
      op2(m, in, four ? TGSI_OP_DP4 : TGSI_OP_DP3, 0x1, *a, *a);
      op1(m, in, TGSI_OP_RSQ, 0x1, tx);
      op2(m, in, TGSI_OP_MUL, four ? 0xf : 0x7, *a, tx);
      if (!four)
         op1(m, in, TGSI_OP_MOV, 0x8, imm_src(m, 1));
      break;
   }
   default: { /* SCS: cos(a.x), sin(a.x), 0, 1 */
      struct tgsi_src ax = *a;
      memset(ax.swz, a->swz[0], sizeof ax.swz);
      op1(m, in, TGSI_OP_COS, 0x1, ax);
      op1(m, in, TGSI_OP_SIN, 0x2, ax);
      struct tgsi_src zo = imm_src(m, 0);
      zo.swz[3] = 1;
      op1(m, in, TGSI_OP_MOV, 0xc, zo);
      break;
   }
   }
   finish(m, in);
}

char *
tgsi_print_modern(const struct tgsi_shader *s)
{
   struct mctx m = {.s = s, .o = tgsi_shader_clone(s), .temp = -1, .imm = -1};
   unsigned *map = xmalloc((s->ninsns + 1) * sizeof *map);
   for (unsigned i = 0; i < s->ninsns; i++) {
      const struct tgsi_insn *in = &s->insns[i];
      map[i] = m.n;
      switch (in->op) {
      case TGSI_OP_SUB:
      case TGSI_OP_ABS:
      case TGSI_OP_KIL:
      case TGSI_OP_SFL:
      case TGSI_OP_STR:
         rename_op(&m, in);
         break;
      case TGSI_OP_CLAMP:
      case TGSI_OP_XPD:
      case TGSI_OP_DPH:
      case TGSI_OP_NRM:
      case TGSI_OP_NRM4:
      case TGSI_OP_SCS:
         rewrite(&m, in);
         break;
      default:
         push(&m, in);
         break;
      }
   }
   map[s->ninsns] = m.n;
   for (unsigned i = 0; i < m.n; i++)
      if (m.out[i].has_label && m.out[i].label <= s->ninsns)
         m.out[i].label = map[m.out[i].label];
   free(map);
   free(m.o->insns);
   m.o->insns = m.out;
   m.o->ninsns = m.n;
   m.o->insns_cap = m.cap;
   char *text = tgsi_print(m.o);
   tgsi_shader_free(m.o);
   return text;
}
