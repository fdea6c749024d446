/*
 * Scalar work and lane masks (gfx9): models whose classes are `scalar`
 * and whose register file names an "exec" pair.
 *
 *  - A scalar op (SALU, SMEM, flow) runs once per wave: it acts on every
 *    lane of the wave whatever EXEC says, and its result goes to every
 *    lane's copy of the scalar register, so scalar registers stay uniform
 *    per wave (a batch of waves in lockstep holds each wave's own value in
 *    its lanes, so the per-lane loops here are per wave). 64-bit operands
 *    are register pairs, low word first; an implicit SCC destination gets
 *    sem_scc().
 *  - EXEC is a register pair like any other; after an op writes it the
 *    wave's active lanes are EXEC & live (emu_exec_update). A wave runs
 *    on with no active lane: the compiled code branches around
 *    (s_cbranch_execz) or not; divergence is the code's EXEC arithmetic,
 *    there is no hardware stack.
 *  - A per-lane (VALU) op writing a scalar register writes a lane mask:
 *    bit i of the pair is lane i's result, 0 for inactive lanes (VOPC to
 *    vcc or an SGPR pair). Reading a 64-bit scalar source, a per-lane op
 *    sees its lane's bit (v_cndmask).
 *  - s_cbranch_* test an implicit register (scc, vcc, exec): taken when it
 *    is not 0, or when it is 0 with the model's `!` (the NOT flag).
 */
#include "emu/emu_priv.h"

/* The lane loops below vectorize with the dynamic cost model (as kern.c). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#endif

static const uint32_t *
cur_buf(const struct emu_wave *w, uint32_t unit)
{
   return w->regs + ((size_t)unit * 2 + w->meta[unit].cur) * w->S;
}

/* Every lane's value of source s: 64 bits for a wide one. */
static void
salu_src(struct emu_wave *w, const struct emu_op *op, const struct emu_src *s, int64_t t,
         uint64_t *v)
{
   unsigned n = w->n;
   if (s->kind == EMU_S_IMM) {
      uint64_t x = s->wide ? (uint64_t)s->value_hi << 32 | s->value : s->value;
      for (unsigned i = 0; i < n; i++)
         v[i] = x;
      return;
   }
   if (s->kind != EMU_S_REG) {
      const uint32_t *p = emu_fetch(w, op, s, 0, t, w->run->tmp_src[0]);
      for (unsigned i = 0; i < n; i++)
         v[i] = p[i];
      return;
   }
   const uint32_t *lo = emu_reg_read(w, op, s, s->unit, t);
   for (unsigned i = 0; i < n; i++)
      v[i] = lo[i];
   if (!s->wide)
      return;
   const uint32_t *hi = emu_reg_read(w, op, s, s->unit + 1, t);
   for (unsigned i = 0; i < n; i++)
      v[i] |= (uint64_t)hi[i] << 32;
}

static void
salu_dst(struct emu_wave *w, const struct emu_op *op, const struct emu_dst *dd, int64_t t,
         const uint64_t *v)
{
   unsigned n = w->n;
   if (dd->kind != EMU_S_REG)
      return;
   for (unsigned h = 0; h < (dd->wide ? 2u : 1u); h++) {
      uint32_t *cur, *d = emu_reg_write(w, op, dd, dd->unit + h, t, &cur);
      for (unsigned i = 0; i < n; i++)
         d[i] = (uint32_t)(v[i] >> (32 * h));
   }
}

/* The result of op on one lane's sources s (64-bit values) in *d0, *d1. */
static void
salu_eval(const struct emu_op *op, const uint64_t *s, bool wide, uint64_t *d0, uint64_t *d1)
{
   *d0 = *d1 = 0;
   if (!sem_salu64((enum isa_sem)op->sem, &op->args, s, d0, d1)) {
      uint32_t s32[ISA_MAX_SRC] = {0}, o32[ISA_MAX_DST] = {0};
      for (unsigned k = 0; k < op->nsrc; k++)
         s32[k] = (uint32_t)s[k];
      sem_eval((enum isa_sem)op->sem, &op->args, s32, o32);
      *d0 = o32[0];
      *d1 = o32[1]; /* s_addc_u32/s_subb_u32: the carry out, SCC below */
   }
   if (!wide)
      *d0 &= 0xffffffffu;
}

/* SCC from the sources and the result the op is named for (the new EXEC
 * of a saveexec). */
static uint64_t
salu_scc(const struct emu_op *op, uint64_t s0, uint64_t s1, uint64_t d0, uint64_t d1)
{
   if (op->sem == ISA_SEM_ADDC_CO || op->sem == ISA_SEM_SUBB_CO)
      return d1;
   return sem_scc((enum isa_sem)op->sem, op->args.type, op->nsrc ? s0 : 0, op->nsrc > 1 ? s1 : 0,
                  op->ndst > 1 ? d1 : d0);
}

/* A source read in place: an immediate (lo NULL, its value in imm), or
 * a register's words (hi: the high register of a wide one). */
struct salu_in {
   const uint32_t *lo, *hi;
   uint64_t imm;
};

/* Every source an immediate or a register read as it stands (no fetch
 * into scratch): the sources can be read in place. */
static bool
salu_in_place(const struct emu_op *op)
{
   for (unsigned k = 0; k < op->nsrc; k++)
      if (op->src[k].kind != EMU_S_IMM && op->src[k].kind != EMU_S_REG)
         return false;
   return true;
}

/* Source s read in place, with the reads salu_src makes, in its order. */
static void
salu_read(struct emu_wave *w, const struct emu_op *op, const struct emu_src *s, int64_t t,
          struct salu_in *in)
{
   in->lo = in->hi = NULL;
   in->imm = 0;
   if (s->kind == EMU_S_IMM) {
      in->imm = s->wide ? (uint64_t)s->value_hi << 32 | s->value : s->value;
      return;
   }
   in->lo = emu_reg_read(w, op, s, s->unit, t);
   if (s->wide)
      in->hi = emu_reg_read(w, op, s, s->unit + 1, t);
}

DC_LANES static bool
words_uniform(const uint32_t *p, unsigned n)
{
   uint32_t x = 0, p0 = p[0];
   for (unsigned i = 0; i < n; i++)
      x |= p[i] ^ p0;
   return x == 0;
}

/* The source's value on every lane (n > 0), if it has one. */
static bool
in_uniform(const struct salu_in *in, unsigned n, uint64_t *v)
{
   if (!in->lo) {
      *v = in->imm;
      return true;
   }
   if (!words_uniform(in->lo, n) || (in->hi && !words_uniform(in->hi, n)))
      return false;
   *v = in->lo[0] | (in->hi ? (uint64_t)in->hi[0] << 32 : 0);
   return true;
}

static void
in_expand(const struct salu_in *in, unsigned n, uint64_t *v)
{
   if (!in->lo) {
      for (unsigned i = 0; i < n; i++)
         v[i] = in->imm;
      return;
   }
   for (unsigned i = 0; i < n; i++)
      v[i] = in->lo[i];
   if (in->hi)
      for (unsigned i = 0; i < n; i++)
         v[i] |= (uint64_t)in->hi[i] << 32;
}

/* Destination dd gets x on every lane. */
DC_LANES static void
salu_dst_fill(struct emu_wave *w, const struct emu_op *op, const struct emu_dst *dd, int64_t t,
              uint64_t x)
{
   unsigned n = w->n;
   if (dd->kind != EMU_S_REG)
      return;
   for (unsigned h = 0; h < (dd->wide ? 2u : 1u); h++) {
      uint32_t *cur, *d = emu_reg_write(w, op, dd, dd->unit + h, t, &cur);
      uint32_t x32 = (uint32_t)(x >> (32 * h));
      for (unsigned i = 0; i < n; i++)
         d[i] = x32;
   }
}

/* Every source the same on every lane: one evaluation, its results
 * filled (the writes in salu's order). */
static void
salu_one(struct emu_wave *w, const struct emu_op *op, int64_t t, const uint64_t *s, bool wide)
{
   uint64_t d0, d1;
   salu_eval(op, s, wide, &d0, &d1);
   if (op->ndst)
      salu_dst_fill(w, op, &op->dst[0], t, d0);
   if (op->ndst > 1)
      salu_dst_fill(w, op, &op->dst[1], t, d1);
   if (op->has_scc)
      salu_dst_fill(w, op, &op->scc_dst, t, salu_scc(op, s[0], s[1], d0, d1));
}

void
emu_exec_salu(struct emu_wave *w, const struct emu_op *op, int64_t t)
{
   struct emu_run *run = w->run;
   unsigned n = w->n;
   /* scratch: the sources, then the two results (n <= maxlanes) */
   uint64_t *buf = (uint64_t *)run->tmp_comp;
   uint64_t *v[ISA_MAX_SRC], *r0 = buf + (size_t)ISA_MAX_SRC * n, *r1 = r0 + n;
   bool wide = op->dst[0].wide;
   for (unsigned k = 0; k < op->nsrc; k++)
      wide |= op->src[k].wide;
   /* Sources the same on every lane (a wave's scalar registers mostly hold
    * one value, and a batch's waves often agree): lane 0's results for
    * all, the results being a function of the sources. */
   bool uni = n > 0;
   if (salu_in_place(op)) {
      struct salu_in in[ISA_MAX_SRC];
      uint64_t s[ISA_MAX_SRC] = {0};
      for (unsigned k = 0; k < op->nsrc; k++)
         salu_read(w, op, &op->src[k], t, &in[k]);
      for (unsigned k = 0; k < op->nsrc && uni; k++)
         uni = in_uniform(&in[k], n, &s[k]);
      if (uni) {
         salu_one(w, op, t, s, wide);
         return;
      }
      for (unsigned k = 0; k < op->nsrc; k++) {
         v[k] = buf + (size_t)k * n;
         in_expand(&in[k], n, v[k]);
      }
   } else {
      for (unsigned k = 0; k < op->nsrc; k++) {
         v[k] = buf + (size_t)k * n;
         salu_src(w, op, &op->src[k], t, v[k]);
      }
      for (unsigned k = 0; k < op->nsrc && uni; k++) {
         uint64_t x = 0, v0 = v[k][0];
         for (unsigned i = 0; i < n; i++)
            x |= v[k][i] ^ v0;
         uni = x == 0;
      }
   }
   unsigned nl = uni ? 1u : n;
   for (unsigned i = 0; i < nl; i++) {
      uint64_t s[ISA_MAX_SRC] = {0};
      bool same = i > 0; /* the sources of the lane before: its results (a wave's
                          * scalar registers mostly hold one value) */
      for (unsigned k = 0; k < op->nsrc; k++) {
         s[k] = v[k][i];
         same &= i > 0 && s[k] == v[k][i - 1];
      }
      if (same) {
         r0[i] = r0[i - 1];
         r1[i] = r1[i - 1];
         continue;
      }
      salu_eval(op, s, wide, &r0[i], &r1[i]);
   }
   for (unsigned i = nl; i < n; i++) {
      r0[i] = r0[0];
      r1[i] = r1[0];
   }
   if (op->has_scc) {
      uint64_t *sc = buf; /* the sources are read */
      for (unsigned i = 0; i < nl; i++)
         sc[i] = salu_scc(op, op->nsrc ? v[0][i] : 0, op->nsrc > 1 ? v[1][i] : 0, r0[i], r1[i]);
      for (unsigned i = nl; i < n; i++) /* lane 0's sources were every lane's */
         sc[i] = sc[0];
      if (op->ndst)
         salu_dst(w, op, &op->dst[0], t, r0);
      if (op->ndst > 1)
         salu_dst(w, op, &op->dst[1], t, r1);
      salu_dst(w, op, &op->scc_dst, t, sc);
      return;
   }
   if (op->ndst)
      salu_dst(w, op, &op->dst[0], t, r0);
   if (op->ndst > 1)
      salu_dst(w, op, &op->dst[1], t, r1);
}

/* EXEC at the start: each wave's lanes. */
void
emu_exec_init(struct emu_wave *w)
{
   const struct emu_code *c = w->run->code;
   if (!c->exec_mask)
      return;
   for (unsigned h = 0; h < 2; h++) {
      uint32_t *r = w->regs + (size_t)(c->exec_lo + h) * 2 * w->S;
      /* lane i holds the lanes of its wave (a batch lays its waves out
       * 64 apart): one value per wave, in both buffers */
      for (unsigned base = 0; base < w->n; base += EMU_MAX_WAVE) {
         unsigned end = MIN2(w->n, base + EMU_MAX_WAVE);
         uint32_t v = (uint32_t)(emu_lanes_all(end - base) >> (32 * h));
         uint32_t *r0 = r + base, *r1 = r + w->S + base;
         for (unsigned j = 0; j < end - base; j++)
            r0[j] = r1[j] = v;
      }
   }
}

/* The active lanes after a write of EXEC: EXEC & live (one wave). */
void
emu_exec_update(struct emu_wave *w)
{
   const struct emu_code *c = w->run->code;
   uint64_t m = cur_buf(w, c->exec_lo)[0] | (uint64_t)cur_buf(w, c->exec_lo + 1)[0] << 32;
   emu_set_active(w, m & w->live);
}

/* A scalar branch's condition: its register (pair) is not 0, or is 0. */
bool
emu_cond_value(struct emu_wave *w, const struct emu_op *op, int64_t t)
{
   const struct emu_src *s = &op->cond;
   uint64_t v = emu_reg_read(w, op, s, s->unit, t)[0];
   if (s->count > 1)
      v |= (uint64_t)emu_reg_read(w, op, s, s->unit + 1, t)[0] << 32;
   return (v != 0) != ((s->mods & ISA_OPND_F_NOT) != 0);
}

DC_LANES void
emu_write_lanemask(struct emu_wave *w, const struct emu_op *op, const struct emu_dst *dd,
                   const uint32_t *r, const uint32_t *mask, int64_t t)
{
   unsigned n = w->n;
   uint32_t *cl, *ch;
   uint32_t *lo = emu_reg_write(w, op, dd, dd->unit, t, &cl);
   uint32_t *hi = emu_reg_write(w, op, dd, dd->unit + 1, t, &ch);
   for (unsigned base = 0; base < n; base += EMU_MAX_WAVE) {
      unsigned mid = MIN2(n, base + 32), end = MIN2(n, base + EMU_MAX_WAVE);
      uint32_t bl = 0, bh = 0; /* lanes 0-31 and 32-63 of the wave */
      /* each half indexed from 0: the loops vectorize */
      const uint32_t *rl = r + base, *ml = mask + base, *rh = r + mid, *mh = mask + mid;
      for (unsigned j = 0; j < mid - base; j++)
         bl |= (0u - (uint32_t)(rl[j] != 0)) & (0u - (ml[j] & 1u)) & emu_lane_bit[j];
      for (unsigned j = 0; j < end - mid; j++)
         bh |= (0u - (uint32_t)(rh[j] != 0)) & (0u - (mh[j] & 1u)) & emu_lane_bit[j];
      uint64_t b = (uint64_t)bh << 32 | bl;
      for (unsigned i = base; i < end; i++) {
         lo[i] = (uint32_t)b;
         hi[i] = (uint32_t)(b >> 32);
      }
   }
}

DC_LANES const uint32_t *
emu_fetch_lanemask(struct emu_wave *w, const struct emu_op *op, const struct emu_src *s, int64_t t,
                   uint32_t *tmp)
{
   const uint32_t *lo = emu_reg_read(w, op, s, s->unit, t);
   const uint32_t *hi = emu_reg_read(w, op, s, s->unit + 1, t);
   /* lane l of each wave: bit l of the pair (lanes 0-31 the low word) */
   for (unsigned base = 0; base < w->n; base += EMU_MAX_WAVE) {
      unsigned mid = MIN2(w->n, base + 32), end = MIN2(w->n, base + EMU_MAX_WAVE);
      const uint32_t *pl = lo + base, *ph = hi + mid;
      uint32_t *tl = tmp + base, *th = tmp + mid;
      for (unsigned j = 0; j < mid - base; j++)
         tl[j] = (pl[j] & emu_lane_bit[j]) != 0;
      for (unsigned j = 0; j < end - mid; j++)
         th[j] = (ph[j] & emu_lane_bit[j]) != 0;
   }
   return tmp;
}
