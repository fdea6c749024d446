/*
 * Semantics-preserving variants of a shader (GraphicsFuzz's idea): the
 * same outputs for every input, through code an optimizer treats
 * differently. `check --variants N` checks N of them per shader; a
 * variant's interpreter run must equal the original's bit for bit (NaN
 * equals NaN; values the original leaves undefined are left out), and each
 * compiled variant is checked as any shader is.
 *
 * Transformations, each exact for every input:
 *   - dead code: `USNE k.y, k.x, 1; UIF k.y { copies of the shader's own
 *     instructions } ENDIF`, where k.x is 1 at run time but opaque to a
 *     compiler without loop analysis: it counts the iterations of a
 *     one-iteration loop the variant opens with. No input is read, so no
 *     input profile can make it true;
 *   - identity wrappers on an operand, into a fresh temporary: x * 1.0 or
 *     x + -0.0 for float arithmetic (x + +0.0 is not exact: -0 + +0 is
 *     +0), x + 0 or x | 0 for integer ops; the operand's modifiers stay on
 *     the use;
 *   - split and re-joined vectors: the operand copied channel by channel
 *     (MOV is a bit copy) into a fresh temporary;
 *   - one-iteration loops: `BGNLOOP; insn; BRK; ENDLOOP` around a plain
 *     instruction;
 *   - commuted operands of commutative ops (not float MIN/MAX, whose
 *     result for (+0, -0) depends on the order).
 * Never touched: control flow itself, derivatives and textures with
 * implicit derivatives (loops), barriers, subgroup and geometry-stream ops.
 */
#include "diff/diff.h"

#include <stdio.h>
#include <stdlib.h>

struct vctx {
   struct rng r;
   const struct tgsi_shader *s;
   struct tgsi_insn *out;
   unsigned n, cap;
   uint32_t next_temp, k;  /* fresh temporaries; the opaque counter k */
   uint32_t imm_u, imm_f;  /* IMM lines {0, 1} UINT32 and {1.0, -0.0} FLT32 */
   const unsigned *donors; /* instructions dead code may copy */
   unsigned ndonors;
   unsigned *map; /* original index -> new index (CAL labels) */
};

/* Whether in may move into a loop or a dead branch: a plain operation
 * that needs no other lane. */
static bool
is_plain(const struct tgsi_insn *in)
{
   enum tgsi_opcode op = in->op;
   const char *name = tgsi_op_info[op].name;
   if (tgsi_interp_is_cf(op) || (tgsi_op_info[op].flags & TGSI_OPF_TEX))
      return false;
   switch (op) {
   case TGSI_OP_DDX:
   case TGSI_OP_DDY:
   case TGSI_OP_DDX_FINE:
   case TGSI_OP_DDY_FINE:
   case TGSI_OP_EMIT:
   case TGSI_OP_ENDPRIM:
      return false;
   default:
      break;
   }
   return strncmp(name, "INTERP_", 7) && strncmp(name, "VOTE_", 5) && strncmp(name, "READ_", 5) &&
          strcmp(name, "BALLOT");
}

static bool
is_data(const struct tgsi_reg *r)
{
   return r->file == TGSI_FILE_TEMP || r->file == TGSI_FILE_IN || r->file == TGSI_FILE_CONST ||
          r->file == TGSI_FILE_IMM || r->file == TGSI_FILE_SV;
}

static bool
commutes(enum tgsi_opcode op)
{
   switch (op) {
   case TGSI_OP_ADD:
   case TGSI_OP_MUL:
   case TGSI_OP_MAD:
   case TGSI_OP_DP2:
   case TGSI_OP_DP3:
   case TGSI_OP_DP4:
   case TGSI_OP_SEQ:
   case TGSI_OP_SNE:
   case TGSI_OP_FSEQ:
   case TGSI_OP_FSNE:
   case TGSI_OP_UADD:
   case TGSI_OP_UMUL:
   case TGSI_OP_UMAD:
   case TGSI_OP_AND:
   case TGSI_OP_OR:
   case TGSI_OP_XOR:
   case TGSI_OP_IMAX:
   case TGSI_OP_IMIN:
   case TGSI_OP_UMAX:
   case TGSI_OP_UMIN:
   case TGSI_OP_USEQ:
   case TGSI_OP_USNE:
   case TGSI_OP_IMUL_HI:
   case TGSI_OP_UMUL_HI:
   case TGSI_OP_U64ADD:
   case TGSI_OP_U64MUL:
   case TGSI_OP_DADD:
   case TGSI_OP_DMUL:
      return true;
   default:
      return false;
   }
}

/* Float ops whose result depends only on their operands' values: an
 * operand may go through x * 1.0 or x + -0.0 first. */
static bool
float_arith(enum tgsi_opcode op)
{
   switch (op) {
   case TGSI_OP_ADD:
   case TGSI_OP_MUL:
   case TGSI_OP_MAD:
   case TGSI_OP_DP2:
   case TGSI_OP_DP3:
   case TGSI_OP_DP4:
   case TGSI_OP_SLT:
   case TGSI_OP_SGE:
   case TGSI_OP_SEQ:
   case TGSI_OP_SNE:
   case TGSI_OP_FSLT:
   case TGSI_OP_FSGE:
   case TGSI_OP_FSEQ:
   case TGSI_OP_FSNE:
   case TGSI_OP_FLR:
   case TGSI_OP_FRC:
   case TGSI_OP_RCP:
   case TGSI_OP_SQRT:
   case TGSI_OP_RSQ:
   case TGSI_OP_EX2:
   case TGSI_OP_LG2:
   case TGSI_OP_SIN:
   case TGSI_OP_COS:
   case TGSI_OP_F2I:
   case TGSI_OP_F2U:
      return true;
   default:
      return false;
   }
}

static void
push(struct vctx *v, const struct tgsi_insn *in)
{
   VEC_PUSH(v->out, v->n, v->cap, *in);
}

static struct tgsi_reg
temp_reg(uint32_t idx)
{
   struct tgsi_reg r = {.file = TGSI_FILE_TEMP, .index = (int32_t)idx};
   return r;
}

static struct tgsi_src
src_of(struct tgsi_reg r, uint8_t c0, uint8_t c1, uint8_t c2, uint8_t c3)
{
   struct tgsi_src s = {.reg = r, .swz = {c0, c1, c2, c3}};
   return s;
}

static struct tgsi_insn
insn(enum tgsi_opcode op, struct tgsi_reg d, uint8_t mask)
{
   struct tgsi_insn in;
   memset(&in, 0, sizeof(in));
   in.op = op;
   in.ndst = tgsi_op_info[op].ndst;
   in.nsrc = tgsi_op_info[op].nsrc;
   in.dst[0].reg = d;
   in.dst[0].mask = mask;
   in.target = -1;
   return in;
}

/* One-iteration loop counting into k.x: k.x is 1 after it. */
static void
emit_opaque(struct vctx *v)
{
   struct tgsi_reg k = temp_reg(v->k);
   struct tgsi_reg iu = {.file = TGSI_FILE_IMM, .index = (int32_t)v->imm_u};
   struct tgsi_insn in = insn(TGSI_OP_MOV, k, 1);
   in.src[0] = src_of(iu, 0, 0, 0, 0);
   push(v, &in);
   push(v, &(struct tgsi_insn){.op = TGSI_OP_BGNLOOP, .target = -1});
   in = insn(TGSI_OP_USNE, k, 2);
   in.src[0] = src_of(k, 0, 0, 0, 0);
   in.src[1] = src_of(iu, 0, 0, 0, 0);
   push(v, &in);
   in = insn(TGSI_OP_UIF, k, 0);
   in.ndst = 0;
   in.src[0] = src_of(k, 1, 1, 1, 1);
   push(v, &in);
   push(v, &(struct tgsi_insn){.op = TGSI_OP_BRK, .target = -1});
   push(v, &(struct tgsi_insn){.op = TGSI_OP_ENDIF, .target = -1});
   in = insn(TGSI_OP_UADD, k, 1);
   in.src[0] = src_of(k, 0, 0, 0, 0);
   in.src[1] = src_of(iu, 1, 1, 1, 1);
   push(v, &in);
   push(v, &(struct tgsi_insn){.op = TGSI_OP_ENDLOOP, .target = -1});
}

/* UIF (k.x != 1) { donors } ENDIF: never runs. */
static void
emit_dead(struct vctx *v)
{
   if (!v->ndonors)
      return;
   struct tgsi_reg k = temp_reg(v->k);
   struct tgsi_reg iu = {.file = TGSI_FILE_IMM, .index = (int32_t)v->imm_u};
   struct tgsi_insn in = insn(TGSI_OP_USNE, k, 2);
   in.src[0] = src_of(k, 0, 0, 0, 0);
   in.src[1] = src_of(iu, 1, 1, 1, 1);
   push(v, &in);
   in = insn(TGSI_OP_UIF, k, 0);
   in.ndst = 0;
   in.src[0] = src_of(k, 1, 1, 1, 1);
   push(v, &in);
   unsigned n = 1 + rng_below(&v->r, 3);
   for (unsigned i = 0; i < n; i++)
      push(v, &v->s->insns[v->donors[rng_below(&v->r, v->ndonors)]]);
   push(v, &(struct tgsi_insn){.op = TGSI_OP_ENDIF, .target = -1});
}

/* Rewrites operand k of in through a fresh temporary: an identity op or
 * a channel-by-channel copy. */
static void
rewrite_src(struct vctx *v, struct tgsi_insn *in, unsigned k)
{
   struct tgsi_src *s = &in->src[k];
   struct tgsi_reg t = temp_reg(v->next_temp++);
   enum tgsi_type ty = (enum tgsi_type)tgsi_op_info[in->op].type;
   unsigned how = rng_below(&v->r, 3);
   struct tgsi_src raw = *s;
   raw.neg = raw.abs = false;
   struct tgsi_insn w;
   if (how == 0 && float_arith(in->op)) {
      bool mul = rng_below(&v->r, 2);
      w = insn(mul ? TGSI_OP_MUL : TGSI_OP_ADD, t, 0xf);
      struct tgsi_reg f = {.file = TGSI_FILE_IMM, .index = (int32_t)v->imm_f};
      w.src[0] = raw;
      w.src[1] = src_of(f, mul ? 0 : 1, mul ? 0 : 1, mul ? 0 : 1, mul ? 0 : 1);
      push(v, &w);
   } else if (how == 1 && (ty == TGSI_TYPE_I || ty == TGSI_TYPE_U)) {
      bool add = rng_below(&v->r, 2);
      w = insn(add ? TGSI_OP_UADD : TGSI_OP_OR, t, 0xf);
      struct tgsi_reg u = {.file = TGSI_FILE_IMM, .index = (int32_t)v->imm_u};
      w.src[0] = raw;
      w.src[1] = src_of(u, 0, 0, 0, 0);
      push(v, &w);
   } else {
      /* split: two halves (or four channels), re-joined in t */
      bool four = rng_below(&v->r, 2);
      for (unsigned c = 0; c < 4; c += four ? 1 : 2) {
         w = insn(TGSI_OP_MOV, t, (uint8_t)((four ? 1u : 3u) << c));
         w.src[0] = raw;
         push(v, &w);
      }
   }
   s->reg = t;
   for (unsigned c = 0; c < 4; c++)
      s->swz[c] = (uint8_t)c;
}

static void
transform(struct vctx *v, unsigned i)
{
   struct tgsi_insn in = v->s->insns[i];
   bool plain = is_plain(&in);
   if (in.op != TGSI_OP_CASE && in.op != TGSI_OP_DEFAULT && rng_below(&v->r, 100) < 8)
      emit_dead(v);
   if (plain && in.nsrc >= 2 && commutes(in.op) && rng_below(&v->r, 100) < 30) {
      struct tgsi_src t = in.src[0];
      in.src[0] = in.src[1];
      in.src[1] = t;
   }
   bool rewrite_ok = plain || in.op == TGSI_OP_IF || in.op == TGSI_OP_UIF;
   for (unsigned k = 0; rewrite_ok && k < in.nsrc; k++)
      if (is_data(&in.src[k].reg) && rng_below(&v->r, 100) < 10)
         rewrite_src(v, &in, k);
   bool loop = plain && rng_below(&v->r, 100) < 6;
   if (loop)
      push(v, &(struct tgsi_insn){.op = TGSI_OP_BGNLOOP, .target = -1});
   v->map[i] = v->n;
   push(v, &in);
   if (loop) {
      push(v, &(struct tgsi_insn){.op = TGSI_OP_BRK, .target = -1});
      push(v, &(struct tgsi_insn){.op = TGSI_OP_ENDLOOP, .target = -1});
   }
}

static uint32_t
add_imm(struct tgsi_shader *s, enum tgsi_imm_type t, uint32_t a, uint32_t b)
{
   struct tgsi_imm im = {.type = t, .u = {a, b, 0, 0}};
   VEC_PUSH(s->imms, s->nimms, s->imms_cap, im);
   return s->nimms - 1;
}

char *
diff_variant(const struct tgsi_shader *s, uint64_t seed)
{
   struct tgsi_shader *o = tgsi_shader_clone(s);
   struct vctx v = {.s = s};
   rng_seed(&v.r, seed);
   uint32_t ntemp = 0;
   for (unsigned i = 0; i < s->ndecls; i++)
      if (s->decls[i].file == TGSI_FILE_TEMP)
         ntemp = MAX2(ntemp, s->decls[i].last + 1);
   unsigned end = 0;
   while (end < s->ninsns && s->insns[end].op != TGSI_OP_END)
      end++;
   unsigned *donors = xcalloc(s->ninsns + 1, sizeof(unsigned));
   for (unsigned i = 0; i < end; i++)
      if (is_plain(&s->insns[i]))
         donors[v.ndonors++] = i;
   v.donors = donors;
   v.map = xcalloc(s->ninsns + 1, sizeof(unsigned));
   v.k = ntemp;
   v.next_temp = ntemp + 1;
   v.imm_u = add_imm(o, TGSI_IMM_UINT32, 0, 1);
   v.imm_f = add_imm(o, TGSI_IMM_FLT32, 0x3f800000u, 0x80000000u);
   emit_opaque(&v);
   for (unsigned i = 0; i < s->ninsns; i++) {
      if (i < end) {
         transform(&v, i);
      } else {
         v.map[i] = v.n;
         push(&v, &s->insns[i]);
      }
   }
   for (unsigned i = 0; i < v.n; i++)
      if (v.out[i].op == TGSI_OP_CAL && v.out[i].has_label && v.out[i].label < s->ninsns)
         v.out[i].label = v.map[v.out[i].label];
   free(v.map);
   free(donors);
   free(o->insns);
   o->insns = v.out;
   o->ninsns = v.n;
   o->insns_cap = v.cap;
   struct tgsi_decl d = {.file = TGSI_FILE_TEMP,
                         .first = ntemp,
                         .last = v.next_temp - 1,
                         .usage_mask = TGSI_MASK_XYZW};
   VEC_PUSH(o->decls, o->ndecls, o->decls_cap, d);
   char *text = tgsi_print(o);
   tgsi_shader_free(o);
   return text;
}
