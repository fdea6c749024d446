/*
 * Lane work: operand fetch (register, constant, immediate, relative),
 * source views and modifiers, ALU dispatch to the kernels, result
 * post-processing and masked merge, texture sampling and memory access
 * through the env.
 *
 * A register source is a pointer into the wave's register buffers (the
 * buffer timing.c says the read sees); anything else -- uniform values,
 * gathered relative reads, modified or converted sources -- is built in a
 * scratch buffer. Results go straight into the destination buffer when
 * every lane runs and nothing follows the kernel; otherwise into scratch,
 * then (sat), the half-precision store and a select against the previous
 * value under the execution mask. The per-lane loops have no branches on
 * the lane, so they vectorize. Texture instructions are in tex.c.
 *
 * Memory: global addresses follow EMU_ADDR_* (buffer i at (1 + i) << 24,
 * image i at (0x41 + i) << 24, constant buffer b at (0x61 + b) << 24, read
 * only, per lane from its draw; the stage windows EMU_ADDR_STAGE_IN/OUT are
 * gs.c's), shared memory is the workgroup's own
 * space from 0. Every access goes through env_mem_* and is bounds checked:
 * out of bounds counts an env event and reads 0 or drops the store.
 */
#include "emu/emu_priv.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#endif

static inline uint32_t
view1(uint32_t v, const struct emu_src *s)
{
   if (s->sel)
      v = sem_sdwa_src(v, s->sel - 1u, s->sext);
   switch (s->conv) {
   case EMU_CV_F16:
      v = sem_f16_to_f32(v & 0xffffu);
      break;
   case EMU_CV_S16:
      v = ((v & 0xffffu) ^ 0x8000u) - 0x8000u;
      break;
   case EMU_CV_U16:
      v &= 0xffffu;
      break;
   case EMU_CV_PNOT:
      v ^= 1;
      break;
   default:
      break;
   }
   if (s->ftz)
      v = sem_ftz(v);
   return sem_srcmod_slot(v, s->mods, s->isfloat, s->mod16);
}

/* dst[i] = view(src[i]): view1's steps (select, conversion, flush,
 * modifiers) one pass each, so no per-instruction choice is made in a
 * lane loop; the common float/bitwise modifier cases as plain masks. */
static void
view(uint32_t *d, const uint32_t *p, unsigned n, const struct emu_src *s)
{
   if (s->sel) {
      unsigned sel = s->sel - 1u, sext = s->sext;
      for (unsigned i = 0; i < n; i++)
         d[i] = sem_sdwa_src(p[i], sel, sext);
      p = d;
   }
   switch (s->conv) {
   case EMU_CV_F16:
      for (unsigned i = 0; i < n; i++)
         d[i] = sem_f16_to_f32(p[i] & 0xffffu);
      p = d;
      break;
   case EMU_CV_S16:
      for (unsigned i = 0; i < n; i++)
         d[i] = ((p[i] & 0xffffu) ^ 0x8000u) - 0x8000u;
      p = d;
      break;
   case EMU_CV_U16:
      for (unsigned i = 0; i < n; i++)
         d[i] = p[i] & 0xffffu;
      p = d;
      break;
   case EMU_CV_PNOT:
      for (unsigned i = 0; i < n; i++)
         d[i] = p[i] ^ 1u;
      p = d;
      break;
   default:
      break;
   }
   if (s->ftz) {
      for (unsigned i = 0; i < n; i++)
         d[i] = sem_ftz(p[i]);
      p = d;
   }
   if (!s->mod16 && (s->isfloat || !(s->mods & (ISA_OPND_F_NEG | ISA_OPND_F_ABS)))) {
      uint32_t and = s->isfloat && (s->mods & ISA_OPND_F_ABS) ? 0x7fffffffu : ~0u;
      uint32_t x = (s->isfloat && (s->mods & ISA_OPND_F_NEG) ? 0x80000000u : 0) ^
                   (s->mods & ISA_OPND_F_NOT ? ~0u : 0);
      for (unsigned i = 0; i < n; i++)
         d[i] = (p[i] & and) ^ x;
      return;
   }
   unsigned mods = s->mods, fl = s->isfloat, m16 = s->mod16;
   for (unsigned i = 0; i < n; i++)
      d[i] = sem_srcmod_slot(p[i], mods, fl, m16);
}

static void
fill(uint32_t *d, uint32_t v, unsigned n)
{
   for (unsigned i = 0; i < n; i++)
      d[i] = v;
}

/* Whether an address register holds 16 bits (its lanes' values are
 * signed 16-bit) rather than 32. */
static bool
addr_narrow(const struct emu_code *c, uint32_t addr_unit)
{
   for (unsigned f = 0; f < c->nfiles; f++)
      if (c->files[f].kind == ISA_FILE_ADDRESS && addr_unit >= c->files[f].base &&
          addr_unit < c->files[f].base + c->files[f].count)
         return c->files[f].width <= 16;
   return false;
}

/* Relative operands: each lane reads file[a0 + offset], bounds checked. */
static const uint32_t *
fetch_rel(struct emu_wave *w, const struct emu_op *op, const struct emu_src *s, unsigned k,
          int64_t t, uint32_t *tmp)
{
   struct emu_run *run = w->run;
   const struct emu_code *c = run->code;
   struct emu_src as = {.kind = EMU_S_REG};
   const uint32_t *av = emu_reg_read(w, op, &as, s->addr_unit, t);
   bool is_reg = s->kind == EMU_S_REL_REG;
   uint32_t last = UINT32_MAX;
   const uint32_t *lp = NULL;
   uint64_t oob = 0;
   bool narrow = addr_narrow(c, s->addr_unit);
   for (unsigned i = 0; i < w->n; i++) {
      int32_t a = narrow ? (int32_t)(int16_t)(uint16_t)av[i] : (int32_t)av[i];
      int64_t idx = (int64_t)a + (int32_t)s->value + (s->rinc ? k : 0);
      if (idx < 0 || idx >= s->limit) {
         oob += w->exec[i] & 1;
         tmp[i] = 0;
         continue;
      }
      uint32_t u = s->base + (uint32_t)idx;
      if (!is_reg) {
         tmp[i] = emu_cst_word(w, emu_cst(w, i), u);
         continue;
      }
      if (u != last) {
         lp = emu_reg_read(w, op, s, u, t);
         last = u;
      }
      tmp[i] = lp[i];
   }
   if (oob)
      env_count(run->env, is_reg ? ENV_EV_REG_OOB : ENV_EV_CONST_OOB, oob);
   if (s->conv || s->mods || s->ftz || s->sel)
      for (unsigned i = 0; i < w->n; i++)
         tmp[i] = view1(tmp[i], s);
   return tmp;
}

/* DPP (isa/isa.h "DPP"): the lane of its wave that `lane` reads under
 * dpp_ctrl ctl, or -1 when that lane is outside lane's row. */
static int
dpp_lane(unsigned ctl, unsigned lane)
{
   if (ctl < 0x100) /* quad_perm */
      return (int)((lane & ~3u) | (ctl >> (2 * (lane & 3)) & 3u));
   unsigned n = ctl & 15u, r = lane & 15u;
   switch (ctl >> 4 & 3u) {
   case 0: /* row_shl */
      return r + n < 16 ? (int)(lane + n) : -1;
   case 1: /* row_shr */
      return r >= n ? (int)(lane - n) : -1;
   default: /* row_ror */
      return (int)((lane & ~15u) | ((r - n) & 15u));
   }
}

/* Whether lane i of the batch reads a valid lane through the op's DPP
 * control: in its row and active; *j gets that lane. */
static bool
dpp_src_ok(const struct emu_wave *w, const struct emu_op *op, unsigned i, unsigned *j)
{
   unsigned W = w->run->W ? w->run->W : w->n, lane = i % W;
   int l = dpp_lane(op->dpp - 1u, lane);
   *j = l < 0 ? i : i - lane + (unsigned)l;
   return l >= 0 && (unsigned)l < W && *j < w->n && (w->exec[*j] & 1);
}

/* The DPP source: each lane the value of the lane its control names,
 * 0 when that lane is invalid and bound_ctrl is set (without it the lane
 * is not written: dpp_mask). */
static const uint32_t *
fetch_dpp(struct emu_wave *w, const struct emu_op *op, const struct emu_src *s, const uint32_t *p,
          uint32_t *tmp)
{
   for (unsigned i = 0; i < w->n; i++) {
      unsigned j;
      tmp[i] = view1(dpp_src_ok(w, op, i, &j) ? p[j] : 0, s);
   }
   return tmp;
}

/* The lanes a DPP op writes, within mask: row and bank enabled, and a
 * valid source lane unless bound_ctrl zero-fills it. */
static unsigned
dpp_mask(struct emu_wave *w, const struct emu_op *op, const uint32_t *mask, uint32_t *out)
{
   unsigned W = w->run->W ? w->run->W : w->n, on = 0;
   for (unsigned i = 0; i < w->n; i++) {
      unsigned lane = i % W, j;
      bool ok = (op->dpp_rows >> (lane >> 4 & 3) & 1) && (op->dpp_banks >> (lane >> 2 & 3) & 1) &&
                (op->dpp_bound || dpp_src_ok(w, op, i, &j));
      out[i] = ok ? mask[i] : 0;
      on += out[i] & 1;
   }
   return on;
}

DC_LANES const uint32_t *
emu_fetch(struct emu_wave *w, const struct emu_op *op, const struct emu_src *s, unsigned k,
          int64_t t, uint32_t *tmp)
{
   unsigned n = w->n;
   switch (s->kind) {
   case EMU_S_REG: {
      if (s->lanemask)
         return emu_fetch_lanemask(w, op, s, t, tmp);
      uint32_t u = s->unit + (s->rinc ? k : 0);
      const uint32_t *p = emu_reg_read(w, op, s, u, t);
      if (op->war)
         emu_mark_war(w, op, u, t);
      if (s->dpp)
         return fetch_dpp(w, op, s, p, tmp);
      if (s->hi) { /* the high half of a full register, then its view */
         for (unsigned i = 0; i < n; i++)
            tmp[i] = p[i] >> 16;
         p = tmp;
      }
      if (!s->conv && !s->mods && !s->ftz && !s->sel)
         return p;
      view(tmp, p, n, s);
      return tmp;
   }
   case EMU_S_CONST: {
      uint32_t u = s->unit + (s->rinc ? k : 0);
      if (w->draw >= 0) { /* every lane of one draw */
         fill(tmp, view1(emu_cst_word(w, emu_cst(w, 0), u), s), n);
         return tmp;
      }
      /* Lanes come in runs of one draw (a batch spans a few): one value
       * per run. */
      for (unsigned r = 0; r < w->nruns; r++) {
         unsigned a = w->run_at[r], b = w->run_at[r + 1];
         fill(tmp + a, view1(emu_cst_word(w, emu_cst(w, a), u), s), b - a);
      }
      return tmp;
   }
   case EMU_S_IMM:
      fill(tmp,
           s->sel ? view1(s->value, s) : sem_srcmod_slot(s->value, s->mods, s->isfloat, s->mod16),
           n);
      return tmp;
   case EMU_S_REL_REG:
   case EMU_S_REL_CONST:
      return fetch_rel(w, op, s, k, t, tmp);
   default:
      fill(tmp, 0, n);
      return tmp;
   }
}

/* A buffer holding v in lanes 0 .. n - 1 for source slot k: one of the
 * run's kept ones, refilled only when it last held another value or
 * fewer lanes. Only the ALU reads it (its kernels never write a source). */
static const uint32_t *
uniform(struct emu_run *run, unsigned k, uint32_t v, unsigned n)
{
   struct emu_uni *u = &run->uni[k][(v * 0x9e3779b1u) >> 28];
   _Static_assert(EMU_UNI_SLOTS == 16, "the hash gives 4 bits");
   if (!u->buf) {
      u->buf = xmalloc((size_t)run->maxlanes * 4);
      u->n = 0;
   }
   if (u->value != v || u->n < n) {
      fill(u->buf, v, n);
      u->value = v;
      u->n = n;
   }
   return u->buf;
}

/* emu_fetch for source slot j of an ALU op: a uniform value (an
 * immediate, a constant when every lane is of one draw) from a kept
 * buffer. */
static const uint32_t *
fetch_alu(struct emu_wave *w, const struct emu_op *op, unsigned j, unsigned k, int64_t t)
{
   const struct emu_src *s = &op->src[j];
   if (s->kind == EMU_S_IMM)
      return uniform(w->run, j,
                     s->sel ? view1(s->value, s)
                            : sem_srcmod_slot(s->value, s->mods, s->isfloat, s->mod16),
                     w->n);
   if (s->kind == EMU_S_CONST && w->draw >= 0)
      return uniform(w->run, j,
                     view1(emu_cst_word(w, emu_cst(w, 0), s->unit + (s->rinc ? k : 0)), s), w->n);
   return emu_fetch(w, op, s, k, t, w->run->tmp_src[j]);
}

/* The lanes an instruction acts on: the active ones, under its guard.
 * *mask gets the wave's exec words or, with a guard, the scratch mask;
 * returns how many lanes are on. */
DC_LANES unsigned
emu_exec_mask(struct emu_wave *w, const struct emu_op *op, int64_t t, uint32_t **mask)
{
   *mask = w->exec;
   if (op->scalar) { /* once per wave: every lane, whatever EXEC */
      struct emu_run *run = w->run;
      if (!run->ones) { /* on first use: a run without scalar ops fills none */
         run->ones = xmalloc((size_t)run->maxlanes * 4);
         for (unsigned i = 0; i < run->maxlanes; i++)
            run->ones[i] = ~0u;
      }
      *mask = run->ones;
      return w->n;
   }
   if (!op->has_guard)
      return w->nactive;
   uint32_t *m = *mask = w->run->tmp_mask;
   if (op->guard_never) {
      memset(m, 0, w->n * 4);
      return 0;
   }
   struct emu_src g = {.kind = EMU_S_REG};
   const uint32_t *p = emu_reg_read(w, op, &g, op->guard_unit, t);
   uint32_t inv = op->guard_not ? 1u : 0u;
   unsigned on = 0;
   for (unsigned i = 0; i < w->n; i++) {
      uint32_t x = ((p[i] & 1u) ^ inv) & (w->exec[i] & 1u);
      m[i] = 0u - x;
      on += x;
   }
   return on;
}

DC_LANES static void
post(uint32_t *r, unsigned n, const struct emu_op *op, const struct emu_dst *dd)
{
   if (op->ftz && op->res == EMU_R_FLOAT)
      for (unsigned i = 0; i < n; i++)
         r[i] = sem_ftz(r[i]);
   if (op->sat && op->res == EMU_R_FLOAT)
      for (unsigned i = 0; i < n; i++)
         r[i] = sem_fsat(r[i]);
   if (dd->conv == EMU_CV_F16)
      for (unsigned i = 0; i < n; i++)
         r[i] = sem_f32_to_f16(r[i]);
   else if (dd->conv != EMU_CV_NONE)
      for (unsigned i = 0; i < n; i++)
         r[i] &= 0xffffu;
}

static void
merge(uint32_t *d, const uint32_t *r, const uint32_t *cur, const uint32_t *m, unsigned n)
{
   for (unsigned i = 0; i < n; i++)
      d[i] = (r[i] & m[i]) | (cur[i] & ~m[i]);
}

DC_LANES void
emu_exec_alu(struct emu_wave *w, const struct emu_op *op, int64_t t, unsigned k)
{
   struct emu_run *run = w->run;
   unsigned n = w->n;
   const uint32_t *s[ISA_MAX_SRC];
   if (!w->nactive && !op->scalar) {
      /* No lane acts (agx masked code, gfx9 EXEC = 0): a read with no
       * active lane sees no hazard and counts no event, so only a
       * source's pending-read mark and a lane mask's zeros remain. */
      for (unsigned i = 0; i < op->nsrc && op->war; i++) {
         const struct emu_src *si = &op->src[i];
         if (si->kind == EMU_S_REG && !si->lanemask)
            emu_mark_war(w, op, si->unit + (si->rinc ? k : 0), t);
      }
      for (unsigned j = 0; j < op->ndst; j++)
         if (op->dst[j].lanemask)
            emu_write_lanemask(w, op, &op->dst[j], w->exec, w->exec, t);
      return;
   }
   for (unsigned i = 0; i < op->nsrc; i++) {
      const struct emu_src *si = &op->src[i];
      if (si->direct) { /* emu_fetch's first case, inline */
         uint32_t u = si->unit + (si->rinc ? k : 0);
         s[i] = emu_reg_read(w, op, si, u, t);
         if (op->war)
            emu_mark_war(w, op, u, t);
      } else {
         s[i] = fetch_alu(w, op, i, k, t);
      }
   }
   uint32_t *mask = w->exec;
   unsigned on = op->scalar || op->has_guard ? emu_exec_mask(w, op, t, &mask) : w->nactive;
   if (op->dpp && on) {
      uint32_t *m = run->tmp_mask;
      on = dpp_mask(w, op, mask, m);
      mask = m;
   }
   if (!on) { /* a lane mask is still written: 0 for every lane outside EXEC */
      for (unsigned j = 0; j < op->ndst; j++)
         if (op->dst[j].lanemask)
            emu_write_lanemask(w, op, &op->dst[j], mask, mask, t);
      return;
   }
   bool direct = on == n && !op->sat && !op->ftz;
   uint32_t *dp[ISA_MAX_DST], *cp[ISA_MAX_DST], *kp[ISA_MAX_DST];
   for (unsigned j = 0; j < op->ndst; j++) {
      const struct emu_dst *dd = &op->dst[j];
      dp[j] = NULL;
      kp[j] = run->tmp_dst[j];
      if (dd->kind != EMU_S_REG || dd->lanemask)
         continue;
      dp[j] = emu_reg_write(w, op, dd, dd->unit + k, t, &cp[j]);
      if (direct && !dd->conv && !dd->half && !dd->sel)
         kp[j] = dp[j];
   }
   op->kern(kp, s, n, op);
   for (unsigned j = 0; j < op->ndst; j++) {
      if (op->dst[j].lanemask) {
         emu_write_lanemask(w, op, &op->dst[j], kp[j], mask, t);
         continue;
      }
      if (!dp[j] || kp[j] == dp[j])
         continue;
      post(kp[j], n, op, &op->dst[j]);
      if (op->dst[j].half) { /* 16 bits into one half; the other half stays */
         unsigned sh = op->dst[j].half == 2 ? 16 : 0;
         for (unsigned i = 0; i < n; i++)
            kp[j][i] = (cp[j][i] & ~(0xffffu << sh)) | ((kp[j][i] & 0xffffu) << sh);
      }
      if (op->dst[j].sel) /* SDWA: place the result; PRESERVE reads the old value */
         for (unsigned i = 0; i < n; i++)
            kp[j][i] = sem_sdwa_dst(kp[j][i], cp[j][i], op->dst[j].sel - 1u, op->dst[j].unused);
      merge(dp[j], kp[j], cp[j], mask, n);
   }
}

/* Writes component buffers comp[c] to registers dst + c under the mask. */
void
emu_write_comps(struct emu_wave *w, const struct emu_op *op, int64_t t, unsigned wmask,
                const uint32_t *mask, unsigned on)
{
   struct emu_run *run = w->run;
   const struct emu_dst *dd = &op->dst[0];
   unsigned n = w->n;
   if (dd->kind != EMU_S_REG)
      return;
   for (unsigned c = 0; c < dd->count && c < 16; c++) {
      if (!(wmask & (1u << c)) || dd->unit + c == dd->fixed_unit)
         continue;
      uint32_t *r = run->tmp_comp + (size_t)c * run->maxlanes, *cur;
      uint32_t *d = emu_reg_write(w, op, dd, dd->unit + c, t, &cur);
      post(r, n, op, dd);
      if (on == n)
         memcpy(d, r, n * 4);
      else
         merge(d, r, cur, mask, n);
   }
}

/* ------------------------------------------------------------------ */
/* Memory                                                               */

static struct env_mem *
mem_at(struct emu_wave *w, const struct emu_op *op, uint32_t addr, uint32_t *off,
       enum env_event *ev)
{
   struct env *e = w->run->env;
   if (op->space == EMU_SPACE_SHARED) {
      *off = addr;
      *ev = ENV_EV_SHARED_OOB;
      return &w->grp->shared;
   }
   uint32_t hi = addr >> 24;
   *off = addr & 0xffffffu;
   if (hi >= 1 && hi <= ENV_MAX_BUFFERS) {
      *ev = ENV_EV_BUFFER_OOB;
      return &e->buf[hi - 1];
   }
   if (hi >= 0x41 && hi < 0x41 + ENV_MAX_IMAGES) {
      *ev = ENV_EV_IMAGE_OOB;
      return &e->img[hi - 0x41].mem;
   }
   *ev = ENV_EV_BUFFER_OOB;
   return NULL;
}

/* A word of constant buffer b at byte off for lane i (its draw's), or
 * an event: misaligned, out of the buffer. */
static uint32_t
load_const_word(struct emu_wave *w, unsigned i, unsigned b, uint32_t off)
{
   struct env *e = w->run->env;
   if (off & 3) {
      env_count(e, ENV_EV_MISALIGNED, 1);
      return 0;
   }
   uint32_t d = w->draw >= 0 ? (uint32_t)w->draw : env_draw(e, w->first_lane + i);
   return env_const(e, b, off >> 4, (off >> 2) & 3, d);
}

static uint32_t
load_elem(struct emu_wave *w, const struct emu_op *op, unsigned lane, uint32_t addr)
{
   struct env *e = w->run->env;
   uint32_t off, v = 0;
   enum env_event ev;
   bool undef;
   uint32_t hi = addr >> 24;
   uint32_t c0 = EMU_ADDR_CONST(0) >> 24;
   if (op->space != EMU_SPACE_SHARED && hi >= c0 && hi < c0 + ENV_MAX_CBUFS && op->elem_bytes == 4)
      return load_const_word(w, lane, hi - c0, addr & 0xffffffu);
   if (op->space != EMU_SPACE_SHARED && hi == EMU_ADDR_STAGE_IN >> 24)
      return emu_stage_in_word(w, lane, addr & 0xffffffu, op->elem_bytes);
   struct env_mem *m = mem_at(w, op, addr, &off, &ev);
   if (!m) {
      env_count(e, ev, 1);
      return 0;
   }
   unsigned nb = op->elem_bytes;
   if (nb < 4 && (off & (nb - 1))) {
      env_count(e, ENV_EV_MISALIGNED, 1);
      return 0;
   }
   uint32_t wo = off & ~3u;
   if (m->data && wo <= m->size && m->size - wo >= 4) /* in bounds: env_mem_load's success */
      memcpy(&v, m->data + wo, 4);
   else if (!env_mem_load(e, m, ev, wo, 1, &v, &undef))
      return 0;
   if (nb < 4) {
      v >>= 8 * (off & 3);
      uint32_t bits = 8 * nb, mk = (1u << bits) - 1, sb = 1u << (bits - 1);
      v &= mk;
      if (op->elem_signed)
         v = (v ^ sb) - sb;
   }
   return v;
}

/* load_elem with a word of a constant buffer in bounds read inline (cst:
 * op can read one: a 4-byte load outside shared memory); the loads of
 * gfx9 programs are mostly of these. */
static inline uint32_t
load_word(struct emu_wave *w, const struct emu_op *op, const struct env *e, bool cst, unsigned lane,
          uint32_t addr)
{
   uint32_t b = (addr >> 24) - (EMU_ADDR_CONST(0) >> 24), off = addr & 0xffffffu;
   if (cst && b < ENV_MAX_CBUFS && !(off & 3)) {
      uint32_t d = w->draw >= 0 ? (uint32_t)w->draw : env_draw(e, w->first_lane + lane);
      if ((off >> 4) < e->cbuf_slots[b] && d < e->ndraws)
         return e->cbuf[b][(size_t)d * e->cbuf_slots[b] * 4 + (off >> 2)];
   }
   return load_elem(w, op, lane, addr);
}

static void
store_elem(struct emu_wave *w, const struct emu_op *op, unsigned lane, uint32_t addr, uint32_t v)
{
   struct env *e = w->run->env;
   uint32_t off, word;
   enum env_event ev;
   bool undef = false;
   if (op->space != EMU_SPACE_SHARED && addr >> 24 == EMU_ADDR_STAGE_OUT >> 24) {
      emu_stage_out_word(w, lane, addr & 0xffffffu, op->elem_bytes, v);
      return;
   }
   struct env_mem *m = mem_at(w, op, addr, &off, &ev);
   if (!m) {
      env_count(e, ev, 1);
      return;
   }
   unsigned nb = op->elem_bytes;
   if (nb < 4) {
      if (off & (nb - 1)) {
         env_count(e, ENV_EV_MISALIGNED, 1);
         return;
      }
      bool u;
      if (!env_mem_load(e, m, ev, off & ~3u, 1, &word, &u))
         return;
      unsigned sh = 8 * (off & 3);
      uint32_t mk = ((1u << (8 * nb)) - 1) << sh;
      v = (word & ~mk) | ((v << sh) & mk);
      off &= ~3u;
   }
   env_mem_store(e, m, ev, off, 1, &v, &undef);
}

/* The address plus the base register's low word (gfx9 saddr), per lane. */
static const uint32_t *
add_base(struct emu_wave *w, const struct emu_op *op, int64_t t, const uint32_t *addr)
{
   struct emu_run *run = w->run;
   const uint32_t *b = emu_reg_read(w, op, &op->src[3], op->src[3].unit, t); /* the low word */
   uint32_t *a = run->tmp_src[4];
   for (unsigned i = 0; i < w->n; i++)
      a[i] = addr[i] + b[i];
   return a;
}

/* agx: the high word of the 64-bit address pair, read (a pending load
 * into it is a hazard like any read); the env's addresses are 32-bit, so
 * a lane whose high word is not 0 addresses no memory (address 0: out of
 * every buffer, counted as such). */
static const uint32_t *
addr_high(struct emu_wave *w, const struct emu_op *op, int64_t t, const uint32_t *addr)
{
   struct emu_run *run = w->run;
   const uint32_t *hi = emu_reg_read(w, op, &op->src[0], op->src[0].unit + 1, t);
   uint32_t *a = run->tmp_src[4];
   for (unsigned i = 0; i < w->n; i++)
      a[i] = hi[i] ? 0 : addr[i];
   return a;
}

/* A component of a 4-byte load outside shared memory whose active lanes
 * all read words of one constant buffer, aligned and in bounds (their
 * draw's words): what load_word gives each lane (no event), in two lane
 * loops instead of a call and five tests per lane; one address on every
 * active lane (a scalar load) is read once per draw and filled. False, d
 * untouched, when an active lane reads anything else: load_word then. */
DC_LANES static bool
load_cbuf(const struct emu_wave *w, const struct env *e, const uint32_t *mask, const uint32_t *addr,
          uint32_t coff, uint32_t *d)
{
   unsigned n = w->n, f = emu_first_lane(mask, n);
   if (f == n)
      return false;
   uint32_t ref = addr[f] + coff, b = (ref >> 24) - (EMU_ADDR_CONST(0) >> 24);
   if (b >= ENV_MAX_CBUFS || (ref & 3))
      return false;
   uint32_t dif = 0, top = 0;
   for (unsigned i = 0; i < n; i++) {
      uint32_t m = 0u - (mask[i] & 1u), x = (addr[i] + coff) & m;
      dif |= (x ^ ref) & m;
      top = MAX2(top, x & 0xffffffu);
   }
   uint32_t slots = e->cbuf_slots[b];
   if ((dif & 0xff000003u) || (top >> 4) >= slots)
      return false;
   uint32_t word = (ref & 0xffffffu) >> 2;
   if (w->draw >= 0) {
      if ((uint32_t)w->draw >= e->ndraws)
         return false;
      const uint32_t *base = e->cbuf[b] + (size_t)w->draw * slots * 4;
      if (!dif) {
         uint32_t v = base[word];
         for (unsigned i = 0; i < n; i++)
            d[i] = v & (0u - (mask[i] & 1u));
         return true;
      }
      for (unsigned i = 0; i < n; i++) {
         uint32_t m = 0u - (mask[i] & 1u);
         d[i] = base[((addr[i] + coff) & m & 0xffffffu) >> 2] & m;
      }
      return true;
   }
   /* lanes of several draws: each run of one draw (emu_wave.run_at) from
    * its draw's words */
   for (unsigned r = 0; r < w->nruns; r++) {
      unsigned a = w->run_at[r], z = w->run_at[r + 1];
      if (env_draw(e, w->first_lane + a) < e->ndraws)
         continue;
      for (unsigned i = a; i < z; i++)
         if (mask[i] & 1)
            return false;
   }
   for (unsigned r = 0; r < w->nruns; r++) {
      unsigned a = w->run_at[r], z = w->run_at[r + 1];
      uint32_t dr = env_draw(e, w->first_lane + a);
      if (dr >= e->ndraws) { /* no active lane */
         memset(d + a, 0, (z - a) * 4);
         continue;
      }
      const uint32_t *base = e->cbuf[b] + (size_t)dr * slots * 4;
      if (!dif) {
         uint32_t v = base[word];
         for (unsigned i = a; i < z; i++)
            d[i] = v & (0u - (mask[i] & 1u));
         continue;
      }
      for (unsigned i = a; i < z; i++) {
         uint32_t m = 0u - (mask[i] & 1u);
         d[i] = base[((addr[i] + coff) & m & 0xffffffu) >> 2] & m;
      }
   }
   return true;
}

/* A component of a load whose active lanes all read one buffer, image or
 * the shared memory in bounds, aligned to the element unless it is a
 * word (load_elem reads a misaligned word's aligned word): what
 * load_elem gives each lane (no event), in two lane loops. False, d
 * untouched, when an active lane reads anything else. */
static bool
load_mem(struct emu_wave *w, const struct emu_op *op, const uint32_t *mask, const uint32_t *addr,
         uint32_t coff, uint32_t *d)
{
   unsigned n = w->n, f = emu_first_lane(mask, n), nb = op->elem_bytes;
   if (f == n)
      return false;
   uint32_t ref = addr[f] + coff, off;
   enum env_event ev;
   uint32_t hi = ref >> 24;
   bool shared = op->space == EMU_SPACE_SHARED;
   if (!shared && !(hi >= 1 && hi <= ENV_MAX_BUFFERS) &&
       !(hi >= 0x41 && hi < 0x41 + ENV_MAX_IMAGES))
      return false; /* constant buffers, stage windows, nothing */
   const struct env_mem *m = mem_at(w, op, ref, &off, &ev);
   if (!m || !m->data || m->size < 4)
      return false;
   /* the buffer's byte offset: all 32 bits in shared memory, else the
    * low 24 (the high byte names the buffer and must be ref's) */
   uint32_t omask = shared ? ~0u : 0xffffffu, align = nb < 4 ? nb - 1u : 0;
   uint32_t bad = 0, top = 0;
   for (unsigned i = 0; i < n; i++) {
      uint32_t k = 0u - (mask[i] & 1u), x = (addr[i] + coff) & k;
      bad |= (((x ^ ref) & ~omask) | (x & align)) & k;
      top = MAX2(top, x & omask);
   }
   if (bad || (top & ~3u) > m->size - 4)
      return false;
   const uint8_t *data = m->data;
   if (nb == 4) {
      for (unsigned i = 0; i < n; i++) {
         uint32_t k = 0u - (mask[i] & 1u), v;
         memcpy(&v, data + ((addr[i] + coff) & k & omask & ~3u), 4);
         d[i] = v & k;
      }
      return true;
   }
   uint32_t bits = 8 * nb, mk = (1u << bits) - 1, sb = op->elem_signed ? 1u << (bits - 1) : 0;
   for (unsigned i = 0; i < n; i++) {
      uint32_t k = 0u - (mask[i] & 1u), o = (addr[i] + coff) & k & omask, v;
      memcpy(&v, data + (o & ~3u), 4);
      v = (v >> 8 * (o & 3u)) & mk;
      d[i] = ((v ^ sb) - sb) & k;
   }
   return true;
}

void
emu_exec_mem(struct emu_wave *w, const struct emu_op *op, int64_t t)
{
   struct emu_run *run = w->run;
   const uint32_t *addr = emu_fetch(w, op, &op->src[0], 0, t, run->tmp_src[0]);
   uint32_t off = op->src[1].kind == EMU_S_IMM ? op->src[1].value : 0;
   uint32_t *mask;
   unsigned on = emu_exec_mask(w, op, t, &mask);
   if (!on)
      return;
   unsigned nb = op->elem_bytes;
   if (op->off_elems) { /* address + offset * element size, per lane */
      const uint32_t *o = emu_fetch(w, op, &op->src[1], 0, t, run->tmp_src[1]);
      uint32_t *a = run->tmp_src[3];
      for (unsigned i = 0; i < w->n; i++)
         a[i] = addr[i] + o[i] * nb;
      addr = a;
      off = 0;
   }
   if (op->has_base)
      addr = add_base(w, op, t, addr);
   if (op->addr_hi)
      addr = addr_high(w, op, t, addr);
   /* a pair: component c is word c % half of half c / half, at its offset */
   unsigned half = op->pair ? op->ncomp / 2u : op->ncomp;
   uint32_t hoff[2] = {off, 0};
   if (op->pair) {
      hoff[0] = op->src[1].value * half * nb;
      hoff[1] = op->src[3].value * half * nb;
   }
   if (op->kind == EMU_K_STORE) {
      for (unsigned c = 0; c < op->ncomp; c++) {
         const struct emu_src *ds = &op->src[c < half ? 2 : 4];
         unsigned k = c % half;
         const uint32_t *v; /* RZ as the data: a constant, stored as is */
         if (ds->kind != EMU_S_REG) {
            v = emu_fetch(w, op, ds, 0, t, run->tmp_src[2]);
         } else {
            v = emu_reg_read(w, op, ds, ds->unit + k, t);
            if (op->war)
               emu_mark_war(w, op, ds->unit + k, t);
         }
         for (unsigned i = 0; i < w->n; i++)
            if (mask[i] & 1)
               store_elem(w, op, i, addr[i] + hoff[c / half] + k * nb, v[i]);
      }
      return;
   }
   const struct env *e = run->env;
   bool cst = op->space != EMU_SPACE_SHARED && nb == 4;
   /* component by component (a load has no effect but event counts, so
    * the order is free): the component's offset computed once */
   for (unsigned c = 0; c < op->ncomp; c++) {
      uint32_t coff = hoff[c / half] + c % half * nb, *d = run->tmp_comp + c * run->maxlanes;
      if (cst && (w->draw >= 0 || e->lane_draw) && load_cbuf(w, e, mask, addr, coff, d))
         continue;
      if (load_mem(w, op, mask, addr, coff, d))
         continue;
      for (unsigned i = 0; i < w->n; i++)
         d[i] = mask[i] & 1 ? load_word(w, op, e, cst, i, addr[i] + coff) : 0;
   }
   emu_write_comps(w, op, t, 0xffffu, mask, on);
}

/* Atomics, lane by lane in lane order: the old word to dst. */
void
emu_exec_atomic(struct emu_wave *w, const struct emu_op *op, int64_t t)
{
   struct emu_run *run = w->run;
   struct env *e = run->env;
   const uint32_t *addr = emu_fetch(w, op, &op->src[0], 0, t, run->tmp_src[0]);
   uint32_t off = op->src[1].kind == EMU_S_IMM ? op->src[1].value : 0;
   if (op->off_elems) { /* agx: address + index * 4, per lane */
      const uint32_t *o = emu_fetch(w, op, &op->src[1], 0, t, run->tmp_src[1]);
      uint32_t *a = run->tmp_src[3];
      for (unsigned i = 0; i < w->n; i++)
         a[i] = addr[i] + o[i] * 4u;
      addr = a;
      off = 0;
   }
   if (op->has_base)
      addr = add_base(w, op, t, addr);
   if (op->addr_hi)
      addr = addr_high(w, op, t, addr);
   const struct emu_src *ds = &op->src[2];
   const uint32_t *v0, *v1 = NULL;
   if (ds->kind == EMU_S_REG) {
      v0 = emu_reg_read(w, op, ds, ds->unit, t);
      if (op->war)
         emu_mark_war(w, op, ds->unit, t);
      if (op->atom_op == ENV_ATOM_CAS) {
         v1 = emu_reg_read(w, op, ds, ds->unit + 1, t);
         if (op->war)
            emu_mark_war(w, op, ds->unit + 1, t);
      }
   } else {
      v0 = v1 = emu_fetch(w, op, ds, 0, t, run->tmp_src[2]);
   }
   uint32_t *mask;
   unsigned on = emu_exec_mask(w, op, t, &mask);
   if (!on)
      return;
   for (unsigned i = 0; i < w->n; i++) {
      uint32_t old = 0, o;
      enum env_event ev;
      bool undef;
      struct env_mem *m = mask[i] & 1 ? mem_at(w, op, addr[i] + off, &o, &ev) : NULL;
      if (m) {
         uint32_t v = op->atom_sub ? 0u - v0[i] : v0[i], cmp = 0;
         if (op->atom_op == ENV_ATOM_CAS) { /* (compare, new) or (new, compare) */
            cmp = op->atom_swap ? v0[i] : v1[i];
            v = op->atom_swap ? v1[i] : v0[i];
         }
         env_mem_atomic(e, m, ev, o, (enum env_atomic_op)op->atom_op, v, cmp, false, &old, &undef);
      } else if (mask[i] & 1) {
         env_count(e, ev, 1);
      }
      run->tmp_comp[i] = old;
   }
   emu_write_comps(w, op, t, 1, mask, on);
}

/* One lane's shuffle source (PTX shfl): lane j of the wave, or the lane
 * itself when j is out of the segment; *in says which. */
static unsigned
shfl_lane(unsigned mode, unsigned lane, uint32_t b, uint32_t c, bool *in)
{
   unsigned bv = b & 31, cv = c & 31, mask = c >> 8 & 31;
   unsigned maxl = (lane & mask) | (cv & ~mask), minl = lane & mask;
   int64_t j;
   switch (mode) {
   case 1: /* up */
      j = (int64_t)lane - bv;
      *in = j >= (int64_t)minl;
      break;
   case 2: /* down */
      j = (int64_t)lane + bv;
      *in = j <= (int64_t)maxl;
      break;
   case 3: /* bfly */
      j = lane ^ bv;
      *in = j <= (int64_t)maxl;
      break;
   default: /* idx */
      j = minl | (bv & ~mask);
      *in = j <= (int64_t)maxl;
      break;
   }
   return *in ? (unsigned)j : lane;
}

/* Writes one destination register from r under the mask. */
static void
write_one(struct emu_wave *w, const struct emu_op *op, unsigned j, unsigned reg, int64_t t,
          uint32_t *r, const uint32_t *mask)
{
   const struct emu_dst *dd = &op->dst[j];
   if (dd->kind != EMU_S_REG || dd->unit + reg == dd->fixed_unit)
      return;
   uint32_t *cur, *d = emu_reg_write(w, op, dd, dd->unit + reg, t, &cur);
   for (unsigned i = 0; i < w->n; i++)
      d[i] = (r[i] & mask[i]) | (cur[i] & ~mask[i]);
}

/* VOTE over each wave's active lanes (a batch holds several waves of W):
 * the ballot (bit = lane, the first 32 lanes) to dst 0, all / any /
 * equal (args.mode 0, 1, 2) to dst 1. */
static void
exec_vote(struct emu_wave *w, const struct emu_op *op, int64_t t)
{
   struct emu_run *run = w->run;
   unsigned n = w->n, W = run->W ? run->W : n;
   const uint32_t *a = emu_fetch(w, op, &op->src[0], 0, t, run->tmp_src[0]);
   uint32_t *mask;
   if (!emu_exec_mask(w, op, t, &mask))
      return;
   uint32_t *r = run->tmp_dst[0], *p = run->tmp_dst[1];
   for (unsigned base = 0; base < n; base += W) {
      unsigned end = MIN2(base + W, n);
      uint32_t ballot = 0;
      bool all = true, any = false, eq = true, seen = false, first = false;
      for (unsigned i = base; i < end; i++) {
         if (!(mask[i] & 1))
            continue;
         bool v = a[i] & 1;
         if (i - base < 32 && v)
            ballot |= 1u << (i - base);
         all = all && v;
         any = any || v;
         if (seen)
            eq = eq && v == first;
         first = seen ? first : v;
         seen = true;
      }
      uint32_t res = op->args.mode == 0 ? all : op->args.mode == 1 ? any : eq;
      for (unsigned i = base; i < end; i++) {
         r[i] = ballot;
         p[i] = res;
      }
   }
   write_one(w, op, 0, 0, t, r, mask);
   if (op->ndst > 1)
      write_one(w, op, 1, 0, t, p, mask);
}

/* gfx9 v_readlane_b32 / v_writelane_b32 (llc's SGPR spills): the lane is
 * src1 (mod 64) of each wave; readlane puts that lane's src0 in the SGPR
 * destination, writelane the SGPR src0 into that lane of the VGPR
 * destination. Both ignore EXEC. */
static void
exec_lane(struct emu_wave *w, const struct emu_op *op, int64_t t)
{
   struct emu_run *run = w->run;
   unsigned n = w->n, W = run->W ? run->W : n;
   const uint32_t *a = emu_fetch(w, op, &op->src[0], 0, t, run->tmp_src[0]);
   const uint32_t *b = emu_fetch(w, op, &op->src[1], 0, t, run->tmp_src[1]);
   uint32_t *m = run->tmp_src[2], *r = run->tmp_dst[0];
   for (unsigned base = 0; base < n; base += W) {
      unsigned end = MIN2(base + W, n), l = base + (b[base] & 63u);
      for (unsigned i = base; i < end; i++) {
         bool rd = op->sem == ISA_SEM_READLANE;
         r[i] = rd ? (l < end ? a[l] : 0) : a[base];
         m[i] = rd || i == l ? ~0u : 0u; /* writelane: that lane only */
      }
   }
   write_one(w, op, 0, 0, t, r, m);
}

/* gfx9 v_readfirstlane_b32: the first active lane's src0 (lane 0 when no
 * lane is active) to every lane's copy of the SGPR; ds_bpermute_b32: each
 * active lane reads data of lane ((addr + offset) / 4) mod 64 of its
 * wave, 0 when that lane is inactive; ds_swizzle_b32 (QUAD_PERM): lane
 * 4k + j reads lane 4k + qj, the same way. */
static void
exec_first_perm(struct emu_wave *w, const struct emu_op *op, int64_t t)
{
   struct emu_run *run = w->run;
   unsigned n = w->n, W = run->W ? run->W : n;
   bool perm = op->sem == ISA_SEM_BPERMUTE, swz = op->sem == ISA_SEM_QUAD_SWIZZLE;
   const uint32_t *a = emu_fetch(w, op, &op->src[0], 0, t, run->tmp_src[0]);
   const uint32_t *v = perm ? emu_fetch(w, op, &op->src[1], 0, t, run->tmp_src[1]) : a;
   uint32_t off = perm ? op->src[2].value : 0;
   perm |= swz;
   uint32_t *mask, *all = run->tmp_src[2], *r = run->tmp_dst[0];
   emu_exec_mask(w, op, t, &mask);
   for (unsigned base = 0; base < n; base += W) {
      unsigned end = MIN2(base + W, n), first = base;
      while (first < end && !(mask[first] & 1))
         first++;
      for (unsigned i = base; i < end; i++) {
         unsigned l = swz ? base + ((i - base) & ~3u) + (op->src[1 + ((i - base) & 3)].value & 3u)
                      : perm        ? base + (((a[i] + off) >> 2) & 63u)
                      : first < end ? first
                                    : base;
         r[i] = l < end && (!perm || (mask[l] & 1)) ? v[l] : 0;
         all[i] = ~0u;
      }
   }
   write_one(w, op, 0, 0, t, r, perm ? mask : all);
}

/* agx icmp_ballot (applegpu): the compare in each active lane, the mask
 * of those where it holds (bit = lane of the wave) to every active lane;
 * inactive lanes neither vote nor are written. */
static void
exec_ballot(struct emu_wave *w, const struct emu_op *op, int64_t t)
{
   struct emu_run *run = w->run;
   unsigned n = w->n, W = run->W ? run->W : n;
   const uint32_t *a = emu_fetch(w, op, &op->src[0], 0, t, run->tmp_src[0]);
   const uint32_t *b = emu_fetch(w, op, &op->src[1], 0, t, run->tmp_src[1]);
   bool fl = op->src[0].isfloat;
   bool sg = op->args.type == ISA_TYPE_S32 || op->args.type == ISA_TYPE_S16;
   uint32_t *mask;
   if (!emu_exec_mask(w, op, t, &mask))
      return;
   uint32_t *r = run->tmp_dst[0];
   for (unsigned base = 0; base < n; base += W) {
      unsigned end = MIN2(base + W, n);
      uint32_t ballot = 0;
      for (unsigned i = base; i < end && i - base < 32; i++) {
         bool k = fl   ? sem_fcmp_bool(op->args.cond, a[i], b[i]) != 0
                  : sg ? sem_scmp(op->args.cond, a[i], b[i])
                       : sem_ucmp(op->args.cond, a[i], b[i]);
         if ((mask[i] & 1) && k)
            ballot |= 1u << (i - base);
      }
      for (unsigned i = base; i < end; i++)
         r[i] = ballot;
   }
   write_one(w, op, 0, 0, t, r, mask);
}

/* agx simd_shuffle, _xor, _up, _down and get_sr's lane index (isa.h).
 * Each source quad first ORs the low two bits of b over its four lanes,
 * active or not (applegpu: "not execution masked"); a lane then reads
 * the quad its index (xor, shift) names, at the position that OR gives
 * (idx) or moves it by (xor, up, down); a is read in any lane, inactive
 * ones giving what their register holds. */
static void
exec_shuffle(struct emu_wave *w, const struct emu_op *op, int64_t t)
{
   struct emu_run *run = w->run;
   unsigned n = w->n, W = run->W ? run->W : n;
   bool lane_only = op->sem == ISA_SEM_LANE_INDEX;
   const uint32_t *a = lane_only ? NULL : emu_fetch(w, op, &op->src[0], 0, t, run->tmp_src[0]);
   const uint32_t *b = lane_only ? NULL : emu_fetch(w, op, &op->src[1], 0, t, run->tmp_src[1]);
   uint32_t *mask;
   if (!emu_exec_mask(w, op, t, &mask))
      return;
   uint32_t *r = run->tmp_dst[0];
   for (unsigned base = 0; base < n; base += W) {
      unsigned end = MIN2(base + W, n);
      uint8_t qor[EMU_MAX_WAVE / 4];
      for (unsigned q = 0; q < (end - base + 3) / 4; q++) {
         qor[q] = 0;
         for (unsigned i = base + 4 * q; i < base + 4 * q + 4 && i < end && b; i++)
            qor[q] |= b[i] & 3u;
      }
      for (unsigned i = base; i < end; i++) {
         unsigned lane = i - base, m = lane & 3u;
         if (lane_only) {
            r[i] = lane;
            continue;
         }
         int64_t bi = b[i] & 0xffffu, src;
         switch (op->sem) {
         case ISA_SEM_SIMD_SHUFFLE_XOR:
            src = (int64_t)(lane ^ bi);
            break;
         case ISA_SEM_SIMD_SHUFFLE_UP:
            src = (int64_t)lane - bi;
            break;
         case ISA_SEM_SIMD_SHUFFLE_DOWN:
            src = (int64_t)lane + bi;
            break;
         default:
            src = bi;
            break;
         }
         if (src < 0 || src >= (int64_t)(end - base)) {
            r[i] = a[i];
            continue;
         }
         unsigned q = (unsigned)src >> 2, k = qor[q], pos;
         switch (op->sem) {
         case ISA_SEM_SIMD_SHUFFLE_XOR:
            pos = m ^ k;
            break;
         case ISA_SEM_SIMD_SHUFFLE_UP:
            pos = (m - k) & 3u;
            break;
         case ISA_SEM_SIMD_SHUFFLE_DOWN:
            pos = (m + k) & 3u;
            break;
         default:
            pos = k;
            break;
         }
         unsigned l = base + 4 * q + pos;
         r[i] = l < end ? a[l] : 0;
      }
   }
   write_one(w, op, 0, 0, t, r, mask);
}

/* Quad derivatives (dsx, dsy), quad swizzled adds (fswzadd) and warp
 * shuffles (shfl): each lane reads other lanes' sources, inactive ones
 * too (their registers hold what they last held). A quad is 4 aligned
 * lanes of a wave; a wave's lanes are W-aligned in a batch. A lane of a
 * quad cut short (the last wave, or a wave size that is not a multiple of
 * 4) has no partners: its derivative is 0, as the interpreter's is. */
void
emu_exec_xlane(struct emu_wave *w, const struct emu_op *op, int64_t t)
{
   struct emu_run *run = w->run;
   if (op->sem == ISA_SEM_VOTE) {
      exec_vote(w, op, t);
      return;
   }
   if (op->sem == ISA_SEM_READLANE || op->sem == ISA_SEM_WRITELANE) {
      exec_lane(w, op, t);
      return;
   }
   if (op->sem == ISA_SEM_BALLOT_CMP) {
      exec_ballot(w, op, t);
      return;
   }
   if (op->sem >= ISA_SEM_SIMD_SHUFFLE && op->sem <= ISA_SEM_LANE_INDEX) {
      exec_shuffle(w, op, t);
      return;
   }
   if (op->sem == ISA_SEM_READFIRSTLANE || op->sem == ISA_SEM_BPERMUTE ||
       op->sem == ISA_SEM_QUAD_SWIZZLE) {
      exec_first_perm(w, op, t);
      return;
   }
   unsigned n = w->n, W = run->W ? run->W : n, comps = 1;
   const struct emu_src *s0 = &op->src[0];
   if (op->sem == ISA_SEM_DSX || op->sem == ISA_SEM_DSY)
      comps = MAX2(op->dst[0].count, 1u);
   const uint32_t *v[4], *b = NULL, *cc = NULL;
   for (unsigned k = 0; k < comps && k < 4; k++) {
      if (s0->kind == EMU_S_REG && k < s0->limit) {
         v[k] = emu_reg_read(w, op, s0, s0->unit + k, t);
         if (op->war)
            emu_mark_war(w, op, s0->unit + k, t);
      } else {
         v[k] = emu_fetch(w, op, s0, 0, t, run->tmp_src[k]);
      }
   }
   if (op->nsrc > 1)
      b = emu_fetch(w, op, &op->src[1], 0, t, run->tmp_src[1]);
   if (op->nsrc > 2)
      cc = emu_fetch(w, op, &op->src[2], 0, t, run->tmp_src[2]);
   uint32_t *mask;
   if (!emu_exec_mask(w, op, t, &mask))
      return;
   uint32_t *r = run->tmp_dst[0], *p = run->tmp_dst[1];
   for (unsigned k = 0; k < comps && k < 4; k++) {
      for (unsigned i = 0; i < n; i++) {
         unsigned lane = i % W, base = i - lane, q = base + (lane & ~3u);
         bool in = true, quad = q + 3 < MIN2(base + W, n); /* a whole quad in the wave */
         switch (op->sem) {
         case ISA_SEM_DSX:
            r[i] = quad ? sem_fadd(v[k][q + 3], sem_fneg(v[k][q + 2])) : 0;
            break;
         case ISA_SEM_DSY:
            r[i] = quad ? sem_fadd(v[k][q + 2], sem_fneg(v[k][q])) : 0;
            break;
         case ISA_SEM_FSWZADD: {
            unsigned f = op->args.mode >> (2 * (lane & 3)) & 3;
            uint32_t a = v[0][i], bb = b[i];
            r[i] = f == 0   ? sem_fadd(a, bb)
                   : f == 1 ? sem_fadd(a, sem_fneg(bb))
                   : f == 2 ? sem_fadd(bb, sem_fneg(a))
                            : bb;
            break;
         }
         default: { /* SHFL */
            unsigned j = shfl_lane(op->args.mode, lane, b[i], cc ? cc[i] : 0x1f, &in);
            r[i] = base + j < n ? v[0][base + j] : 0;
            p[i] = in;
            break;
         }
         }
         if (op->ftz)
            r[i] = sem_ftz(r[i]);
      }
      write_one(w, op, 0, k, t, r, mask);
   }
   if (op->sem == ISA_SEM_SHFL && op->ndst > 1)
      write_one(w, op, 1, 0, t, p, mask);
}

/* LDC: per lane, dst = c[bank][(address + offset) / 4], bounds checked. */
void
emu_exec_ldc(struct emu_wave *w, const struct emu_op *op, int64_t t)
{
   struct emu_run *run = w->run;
   const uint32_t *addr = emu_fetch(w, op, &op->src[0], 0, t, run->tmp_src[0]);
   uint32_t off = op->src[1].value;
   uint32_t *mask;
   unsigned non = emu_exec_mask(w, op, t, &mask);
   if (!non)
      return;
   for (unsigned i = 0; i < w->n; i++) {
      uint32_t a = addr[i] + off;
      bool on = mask[i] & 1;
      if (on && (a & 3))
         env_count(run->env, ENV_EV_MISALIGNED, 1);
      for (unsigned c = 0; c < op->ncomp; c++) {
         uint64_t slot = (uint64_t)(a >> 2) + c;
         bool in = !(a & 3) && slot < op->climit;
         if (on && !in && !(a & 3))
            env_count(run->env, ENV_EV_CONST_OOB, 1);
         run->tmp_comp[c * run->maxlanes + i] =
             on && in ? emu_cst_word(w, emu_cst(w, i), op->cbase + slot) : 0;
      }
   }
   emu_write_comps(w, op, t, 0xffffu, mask, non);
}

/* ------------------------------------------------------------------ */
/* Doubles                                                              */

/* A 64-bit source: its register pair (lo, hi), or an immediate (a fixed
 * register) in both words; neg/abs act on the high word's sign. */
struct wide_src {
   const uint32_t *lo, *hi;
   uint32_t flip, clear; /* high-word sign: xor after and-not */
};

static void
wide_src(struct emu_wave *w, const struct emu_op *op, unsigned i, int64_t t, struct wide_src *x)
{
   struct emu_run *run = w->run;
   const struct emu_src *s = &op->src[i];
   if (s->kind == EMU_S_REG) {
      x->lo = emu_reg_read(w, op, s, s->unit, t);
      x->hi = emu_reg_read(w, op, s, s->unit + 1, t);
      if (op->war) {
         emu_mark_war(w, op, s->unit, t);
         emu_mark_war(w, op, s->unit + 1, t);
      }
   } else {
      /* the model's 64 bits (isa_opnd.hi) */
      uint32_t *b = run->tmp_src[i], lo = s->kind == EMU_S_IMM ? s->value : 0,
               hi = s->kind == EMU_S_IMM ? s->value_hi : 0;
      for (unsigned k = 0; k < w->n; k++)
         b[k] = lo;
      x->lo = b;
      x->hi = b;
      if (lo != hi) { /* the high words (tmp_comp: no component results here) */
         uint32_t *h = run->tmp_comp + (size_t)i * run->maxlanes;
         for (unsigned k = 0; k < w->n; k++)
            h[k] = hi;
         x->hi = h;
      }
   }
   x->clear = (s->mods & ISA_OPND_F_ABS) ? 0x80000000u : 0;
   x->flip = (s->mods & ISA_OPND_F_NEG) ? 0x80000000u : 0;
}

static uint64_t
wide_at(const struct wide_src *x, unsigned i)
{
   uint32_t hi = (x->hi[i] & ~x->clear) ^ x->flip;
   return (uint64_t)hi << 32 | x->lo[i];
}

static bool
sem_wide_src(enum isa_sem s, unsigned i)
{
   switch (s) {
   case ISA_SEM_F2D:
   case ISA_SEM_I2D:
   case ISA_SEM_U2D:
      return false;
   case ISA_SEM_DSETP:
   case ISA_SEM_DMNMX:
      return i < 2; /* the third source is a predicate */
   case ISA_SEM_SHL64:
   case ISA_SEM_SHR64:
   case ISA_SEM_ASHR64:
   case ISA_SEM_DLDEXP:
      return i == 0; /* the value; the count is 32 bits */
   case ISA_SEM_MAD_U64:
      return i == 2; /* u32 * u32 + u64 */
   case ISA_SEM_DDIV_FMAS:
      return i < 3; /* the fourth source is vcc, a lane mask */
   default:
      return true;
   }
}

/* FP64 and the conversions with a 64-bit side (sem.h doubles). */
void
emu_exec_wide(struct emu_wave *w, const struct emu_op *op, int64_t t)
{
   struct emu_run *run = w->run;
   unsigned n = w->n;
   struct wide_src x[4];
   const uint32_t *v[4] = {NULL, NULL, NULL, NULL};
   for (unsigned i = 0; i < op->nsrc && i < 4; i++) {
      if (sem_wide_src(op->sem, i))
         wide_src(w, op, i, t, &x[i]);
      else
         v[i] = emu_fetch(w, op, &op->src[i], 0, t, run->tmp_src[i]);
   }
   uint32_t *mask;
   bool lanemask = op->ndst && op->dst[0].lanemask;
   if (!emu_exec_mask(w, op, t, &mask)) {
      if (lanemask) /* still written: 0 for every lane outside EXEC */
         emu_write_lanemask(w, op, &op->dst[0], mask, mask, t);
      return;
   }
   uint32_t *r0 = run->tmp_dst[0], *r1 = run->tmp_dst[1];
   /* v_mad_u64_u32's and v_div_scale_f64's sdst */
   uint32_t *carry = run->tmp_comp + (size_t)15 * run->maxlanes;
   bool wide_dst = true, two = false;
   for (unsigned i = 0; i < n; i++) {
      uint64_t r = 0;
      switch (op->sem) {
      case ISA_SEM_DADD:
         r = sem_dadd(wide_at(&x[0], i), wide_at(&x[1], i));
         break;
      case ISA_SEM_DMUL:
         r = sem_dmul(wide_at(&x[0], i), wide_at(&x[1], i));
         break;
      case ISA_SEM_DFMA:
         r = sem_dfma(wide_at(&x[0], i), wide_at(&x[1], i), wide_at(&x[2], i));
         break;
      case ISA_SEM_DMNMX:
         r = sem_dmnmx(wide_at(&x[0], i), wide_at(&x[1], i), v[2][i]);
         break;
      case ISA_SEM_DMIN:
         r = sem_dmin(wide_at(&x[0], i), wide_at(&x[1], i));
         break;
      case ISA_SEM_DMAX:
         r = sem_dmax(wide_at(&x[0], i), wide_at(&x[1], i));
         break;
      case ISA_SEM_DLDEXP:
         r = sem_dldexp(wide_at(&x[0], i), v[1][i]);
         break;
      case ISA_SEM_DCMP: /* a lane mask (gfx9 VOPC): the lane's bit */
         r0[i] = (uint32_t)sem_dcmp_bool(op->args.cond, wide_at(&x[0], i), wide_at(&x[1], i));
         wide_dst = false;
         continue;
      case ISA_SEM_MAD_U64: { /* v_mad_u64_u32: the carry out to the lane mask */
         uint64_t p = (uint64_t)v[0][i] * v[1][i];
         r = p + wide_at(&x[2], i);
         carry[i] = r < p;
         break;
      }
      case ISA_SEM_DDIV_SCALE:
         r = sem_ddiv_scale(wide_at(&x[0], i), wide_at(&x[1], i), wide_at(&x[2], i), &carry[i]);
         break;
      case ISA_SEM_DDIV_FMAS:
         r = sem_ddiv_fmas(wide_at(&x[0], i), wide_at(&x[1], i), wide_at(&x[2], i), v[3][i]);
         break;
      case ISA_SEM_DDIV_FIXUP:
         r = sem_ddiv_fixup(wide_at(&x[0], i), wide_at(&x[1], i), wide_at(&x[2], i));
         break;
      case ISA_SEM_DRCP:
         r = sem_dres(1.0 / sem_d(wide_at(&x[0], i)));
         break;
      case ISA_SEM_DSQRT:
         r = sem_dres(sqrt(sem_d(wide_at(&x[0], i))));
         break;
      case ISA_SEM_UCMP64: /* v_cmp_*_u64: a lane mask, the lane's bit */
         r0[i] = sem_icmp_from(op->args.cond, wide_at(&x[0], i) < wide_at(&x[1], i),
                               wide_at(&x[0], i) == wide_at(&x[1], i));
         wide_dst = false;
         continue;
      case ISA_SEM_SCMP64: /* v_cmp_*_i64 */
         r0[i] =
             sem_icmp_from(op->args.cond, (int64_t)wide_at(&x[0], i) < (int64_t)wide_at(&x[1], i),
                           wide_at(&x[0], i) == wide_at(&x[1], i));
         wide_dst = false;
         continue;
      case ISA_SEM_DSETP: {
         uint32_t cmp =
             (uint32_t)sem_dcmp_bool(op->args.cond, wide_at(&x[0], i), wide_at(&x[1], i));
         sem_setp(cmp, v[2][i], op->args.bop, &r0[i], &r1[i]);
         wide_dst = false;
         two = true;
         continue;
      }
      case ISA_SEM_SHL64:
         r = sem_shl64(wide_at(&x[0], i), v[1][i]);
         break;
      case ISA_SEM_SHR64:
         r = sem_shr64(wide_at(&x[0], i), v[1][i]);
         break;
      case ISA_SEM_ASHR64:
         r = sem_ashr64(wide_at(&x[0], i), v[1][i]);
         break;
      case ISA_SEM_F2D:
         r = sem_f2d(v[0][i]);
         break;
      case ISA_SEM_I2D:
         r = sem_dres((double)(int32_t)v[0][i]);
         break;
      case ISA_SEM_U2D:
         r = sem_dres((double)v[0][i]);
         break;
      case ISA_SEM_DFLOOR:
      case ISA_SEM_DCEIL:
      case ISA_SEM_DTRUNC:
      case ISA_SEM_DRNDNE:
         r = sem_dround(wide_at(&x[0], i), op->sem == ISA_SEM_DFLOOR   ? 1
                                           : op->sem == ISA_SEM_DCEIL  ? 2
                                           : op->sem == ISA_SEM_DTRUNC ? 3
                                                                       : 0);
         break;
      case ISA_SEM_D2F:
         r0[i] = sem_d2f(wide_at(&x[0], i));
         wide_dst = false;
         continue;
      case ISA_SEM_D2I:
         r0[i] = sem_d2i(wide_at(&x[0], i));
         wide_dst = false;
         continue;
      default: /* D2U */
         r0[i] = sem_d2u(wide_at(&x[0], i));
         wide_dst = false;
         continue;
      }
      r0[i] = (uint32_t)r;
      r1[i] = (uint32_t)(r >> 32);
   }
   if (lanemask) {
      emu_write_lanemask(w, op, &op->dst[0], r0, mask, t);
      return;
   }
   write_one(w, op, 0, 0, t, r0, mask);
   if (wide_dst)
      write_one(w, op, 0, 1, t, r1, mask);
   else if (two && op->ndst > 1)
      write_one(w, op, 1, 0, t, r1, mask);
   if ((op->sem == ISA_SEM_MAD_U64 || op->sem == ISA_SEM_DDIV_SCALE) && op->ndst > 1 &&
       op->dst[1].lanemask)
      emu_write_lanemask(w, op, &op->dst[1], carry, mask, t);
}
