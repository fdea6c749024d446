/*
 * Builds struct tgsi_shader values directly for the interpreter tests, so
 * they do not depend on the parser:
 *
 *    struct tgsi_shader *s = sb_new(TGSI_STAGE_FRAG);
 *    sb_decl(s, TGSI_FILE_IN, 0, 1);
 *    sb_op(s, TGSI_OP_ADD, D(OUT, 0, "xyzw"), S(IN, 0, "xyzw"), S(IN, 1, "xxxx"));
 *    sb_op(s, TGSI_OP_END);
 *
 * and runs them over an env whose inputs the test fills in.
 */
#ifndef TEST_INTERP_BUILD_H
#define TEST_INTERP_BUILD_H

#include "compiler/tgsi/tgsi.h"
#include "emu/emu.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define S(file, idx, swz)  sb_src(TGSI_FILE_##file, idx, swz)
#define D(file, idx, mask) sb_dst(TGSI_FILE_##file, idx, mask)

static inline struct tgsi_shader *
sb_new(enum tgsi_stage stage)
{
   return tgsi_shader_new(stage, "test.tgsi");
}

static inline struct tgsi_decl *
sb_decl(struct tgsi_shader *s, enum tgsi_file f, uint32_t first, uint32_t last)
{
   struct tgsi_decl d = {.file = f, .first = first, .last = last, .usage_mask = 0xf};
   VEC_PUSH(s->decls, s->ndecls, s->decls_cap, d);
   return &s->decls[s->ndecls - 1];
}

static inline void
sb_decl_sv(struct tgsi_shader *s, uint32_t idx, enum tgsi_semantic sem)
{
   struct tgsi_decl *d = sb_decl(s, TGSI_FILE_SV, idx, idx);
   d->has_semantic = true;
   d->semantic = sem;
}

static inline void
sb_prop(struct tgsi_shader *s, enum tgsi_property p, uint32_t v)
{
   struct tgsi_prop pr = {.prop = p, .value = v};
   VEC_PUSH(s->props, s->nprops, s->props_cap, pr);
}

static inline unsigned
sb_imm(struct tgsi_shader *s, uint32_t x, uint32_t y, uint32_t z, uint32_t w)
{
   struct tgsi_imm im = {.type = TGSI_IMM_UINT32, .u = {x, y, z, w}};
   VEC_PUSH(s->imms, s->nimms, s->imms_cap, im);
   return s->nimms - 1;
}

static inline unsigned
sb_immf(struct tgsi_shader *s, float x, float y, float z, float w)
{
   return sb_imm(s, fui(x), fui(y), fui(z), fui(w));
}

static inline struct tgsi_src
sb_src(enum tgsi_file f, int idx, const char *swz)
{
   struct tgsi_src s = {.reg = {.file = f, .index = idx}};
   for (unsigned c = 0; c < 4; c++) {
      char ch = swz && swz[c] ? swz[c] : "xyzw"[c];
      s.swz[c] = ch == 'x' ? 0 : ch == 'y' ? 1 : ch == 'z' ? 2 : 3;
   }
   return s;
}

static inline struct tgsi_dst
sb_dst(enum tgsi_file f, int idx, const char *mask)
{
   struct tgsi_dst d = {.reg = {.file = f, .index = idx}};
   for (const char *p = mask ? mask : "xyzw"; *p; p++)
      d.mask |= *p == 'x' ? 1 : *p == 'y' ? 2 : *p == 'z' ? 4 : 8;
   return d;
}

/* Modifiers and indirect addressing on a built operand. */
static inline struct tgsi_src
sb_neg(struct tgsi_src s)
{
   s.neg = !s.neg;
   return s;
}

static inline struct tgsi_src
sb_abs(struct tgsi_src s)
{
   s.abs = true;
   return s;
}

static inline struct tgsi_reg
sb_ind(struct tgsi_reg r, enum tgsi_file af, uint32_t aidx, unsigned comp)
{
   r.indirect = true;
   r.ind.file = af;
   r.ind.index = aidx;
   r.ind.comp = (uint8_t)comp;
   return r;
}

/* Appends an instruction; operands are the op's dsts then srcs. */
static inline struct tgsi_insn *
sb_insn(struct tgsi_shader *s, enum tgsi_opcode op, const struct tgsi_dst *dst,
        const struct tgsi_src *src)
{
   const struct tgsi_op_info *oi = &tgsi_op_info[op];
   struct tgsi_insn in = {.op = op, .ndst = oi->ndst, .nsrc = oi->nsrc, .target = -1};
   if (oi->ndst)
      in.dst[0] = *dst;
   for (unsigned k = 0; k < oi->nsrc; k++)
      in.src[k] = src[k];
   in.loc.line = (int)s->ninsns + 1;
   in.loc.col = 1;
   VEC_PUSH(s->insns, s->ninsns, s->insns_cap, in);
   return &s->insns[s->ninsns - 1];
}

/* Operands in order: a struct tgsi_dst if the op has one, then srcs. */
static inline struct tgsi_insn *
sb_op(struct tgsi_shader *s, int op, ...)
{
   const struct tgsi_op_info *oi = &tgsi_op_info[op];
   struct tgsi_dst d = {0};
   struct tgsi_src src[TGSI_MAX_SRC];
   memset(src, 0, sizeof(src));
   va_list ap;
   va_start(ap, op);
   if (oi->ndst)
      d = va_arg(ap, struct tgsi_dst);
   for (unsigned k = 0; k < oi->nsrc; k++)
      src[k] = va_arg(ap, struct tgsi_src);
   va_end(ap);
   return sb_insn(s, (enum tgsi_opcode)op, &d, src);
}

static inline struct tgsi_insn *
sb_cal(struct tgsi_shader *s, uint32_t label)
{
   struct tgsi_insn *in = sb_op(s, TGSI_OP_CAL);
   in->has_label = true;
   in->label = label;
   return in;
}

/* An env with nlanes lanes and nin inputs, all zero. */
static inline struct env *
sb_env(enum tgsi_stage stage, uint32_t nlanes, uint32_t nin)
{
   struct env *e = env_new(stage, nlanes);
   env_alloc_inputs(e, nin, 1);
   return e;
}

static inline void
sb_set_in(struct env *e, uint32_t reg, unsigned chan, uint32_t lane, uint32_t v)
{
   env_in(e, 0, reg, chan)[lane] = v;
}

static inline uint32_t
sb_out(const struct env *e, uint32_t reg, unsigned chan, uint32_t lane)
{
   return e->out[env_out_index(e, 0, reg, chan) + lane];
}

static inline uint16_t
sb_outf(const struct env *e, uint32_t reg, unsigned chan, uint32_t lane)
{
   return e->out_flags[env_out_index(e, 0, reg, chan) + lane];
}

static inline bool
sb_defined(const struct env *e, uint32_t reg, unsigned chan, uint32_t lane)
{
   return !(sb_outf(e, reg, chan, lane) & ENV_F_UNDEF);
}

/* Runs s on e; prints diagnostics on failure. */
static inline enum tgsi_interp_status
sb_run(const struct tgsi_shader *s, struct env *e, const struct tgsi_interp_opts *o)
{
   struct diag_list d = {0};
   enum tgsi_interp_status st = tgsi_interp_run(s, e, o, &d);
   if (st != TGSI_INTERP_OK && getenv("SB_VERBOSE"))
      for (unsigned i = 0; i < d.n; i++) {
         char *r = diag_render(&d.v[i], false);
         fputs(r, stderr);
         free(r);
      }
   diag_clear(&d);
   return st;
}

#endif
