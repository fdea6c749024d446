/*
 * Control flow of the golden interpreter: the execution masks of IF/ELSE,
 * loops, switches and calls (tgsi_exec's CondMask, LoopMask, ContMask,
 * Switch.mask and FuncMask), kills, and undefinedness that flows through
 * control flow.
 *
 * Every open construct is a frame holding the masks to restore. A frame
 * also collects the lanes whose path through it depends on an undefined
 * value (its "taint"): an undefined or denormal IF condition, an undefined
 * switch selector or case value (or a UIF condition, selector or case
 * value whose bits are not fixed: ENV_F_BITS, also in a float IF or
 * KILL_IF), or a tainted region inside it that may
 * leave through BRK/CONT/RET. When the frame closes, everything its region
 * may write (tgsi_interp_region, computed before the run) is marked
 * undefined for those lanes, and memories it stores to become undefined.
 *
 * A second taint, the steer taint, follows the same paths for conditions
 * that are defined here but that the transforms the optimizing compiler
 * was allowed (check --opt) may decide otherwise there: with fuse-ffma a
 * condition within its fusion bound of the threshold or a NaN (EDGE,
 * NAN: fusing moves a value, or makes or avoids an overflow; CANCEL is
 * left out: the bound still holds for nearly all cancelled sums, and
 * taking it in halved what --opt fuse-ffma compares on some captures,
 * README "Comparison rules"); with inexact a condition computed from a NaN (NAN: x * 0 ->
 * 0 and x + -x -> 0 turn it into a number). Its lanes' writes get
 * steer_mark (EDGE with fuse-ffma, NAN with inexact), the flags the
 * ref/opt comparison tolerates in that mode (diff/compare.c
 * transform_ok), as a value computed from such a condition through data
 * already carries them; kills, emits and memory stores become undefined
 * as for the taint. Without --opt both are 0, and nothing changes: ref
 * and opt must take every branch alike.
 */
#include "compiler/tgsi/tgsi.h"
#include "emu/emu.h"

/* GCC's -O2 vectorizes only loops of known trip count; the per-lane loops
 * here are the interpreter's hot path, so ask for the dynamic cost model. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#endif

#define FOR for (unsigned i = 0; i < n; i++)

/* ------------------------------------------------------------------ */
/* Control flow                                                         */

static struct tgsi_interp_frame *
push_frame(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, enum tgsi_opcode op,
           int32_t pc, int32_t region)
{
   if (b->depth == TGSI_INTERP_MAX_DEPTH) {
      tgsi_interp_error(b, ti, "control flow and calls nested deeper than %d levels",
                        TGSI_INTERP_MAX_DEPTH);
      return NULL;
   }
   struct tgsi_interp_frame *f = &b->frames[b->depth++];
   if (b->depth > b->nframes) { /* frames are pushed in order: the next one */
      for (unsigned k = 0; k < TGSI_INTERP_FM_COUNT; k++)
         f->m[k] = xcalloc((size_t)b->cap + 1, 4);
      b->nframes = b->depth;
   }
   f->op = op;
   f->pc = pc;
   f->region = region;
   f->tainted = f->steered = false;
   return f;
}

/* Adds lanes (mask words) to a frame's taint (k = TGSI_INTERP_FM_TAINT)
 * or steer taint (TGSI_INTERP_FM_STEER). */
DC_LANES
static void
add_taint(struct tgsi_interp_batch *b, struct tgsi_interp_frame *f, unsigned k,
          const uint32_t *lanes)
{
   unsigned n = b->n;
   uint32_t acc = 0;
   FOR acc |= lanes[i];
   if (!acc)
      return;
   bool *have = k == TGSI_INTERP_FM_STEER ? &f->steered : &f->tainted;
   if (!*have)
      memset(f->m[k], 0, (size_t)n * 4);
   *have = true;
   FOR f->m[k][i] |= lanes[i];
}

/* Everything region reg may write gets mark (ENV_F_UNDEF for the taint)
 * for the lanes in t; kills, emits and memories become undefined. */
DC_LANES
static void
apply_region_taint(struct tgsi_interp_batch *b, int32_t reg, const uint32_t *t, uint32_t mark)
{
   const struct tgsi_interp_region *r = &b->p->regions[reg];
   struct env *e = b->env;
   unsigned n = b->n;
   for (unsigned k = 0; k < r->nslots; k++) {
      uint32_t *f = b->flg[r->slots[k]];
      FOR f[i] |= t[i] & mark;
   }
   for (unsigned k = 0; k < 32; k++) {
      if (r->bufs & (1u << k))
         env_mem_set_undef(&e->buf[k]);
      if (r->imgs & (1u << k))
         env_mem_set_undef(&e->img[k].mem);
   }
   /* Shared memory: only the workgroups of the tainted lanes. */
   if ((r->flags & TGSI_INTERP_RF_SHARED) && b->nshared) {
      uint32_t first = b->base / b->wg_lanes, done = UINT32_MAX;
      FOR
      {
         uint32_t k = (b->base + i) / b->wg_lanes - first;
         if (t[i] && k != done && k < b->nshared) {
            env_mem_set_undef(&b->shared[k]);
            done = k;
         }
      }
   }
   if (r->flags & TGSI_INTERP_RF_KILL)
      FOR e->kill_undef[b->base + i] |= t[i] ? 1 : 0;
   if ((r->flags & TGSI_INTERP_RF_EMIT) && e->gs_undef)
      FOR e->gs_undef[b->base + i] |= t[i] ? 1 : 0;
}

/* Innermost frame at or below index top (exclusive) matching kind: a loop
 * for CONT, a loop or switch for BRK, a call for RET; never past a call. */
static struct tgsi_interp_frame *
find_frame(struct tgsi_interp_batch *b, unsigned top, enum tgsi_opcode want)
{
   for (unsigned k = top; k-- > 0;) {
      enum tgsi_opcode op = b->frames[k].op;
      if (want == TGSI_OP_CAL
              ? op == TGSI_OP_CAL
              : op == TGSI_OP_BGNLOOP || (want == TGSI_OP_BRK && op == TGSI_OP_SWITCH))
         return &b->frames[k];
      if (op == TGSI_OP_CAL)
         return NULL;
   }
   return NULL;
}

/* Ends the region of the frame at index fi: applies its taints, and
 * hands them to the frames a BRK/CONT/RET inside it may leave to. */
DC_LANES
static void
end_region(struct tgsi_interp_batch *b, unsigned fi)
{
   struct tgsi_interp_frame *f = &b->frames[fi];
   static const unsigned kinds[] = {TGSI_INTERP_FM_TAINT, TGSI_INTERP_FM_STEER};
   for (unsigned kk = 0; kk < ARRAY_SIZE(kinds); kk++) {
      unsigned k = kinds[kk];
      bool steer = k == TGSI_INTERP_FM_STEER;
      if (!(steer ? f->steered : f->tainted))
         continue;
      const uint32_t *t = f->m[k];
      apply_region_taint(b, f->region, t, steer ? b->steer_mark : ENV_F_UNDEF);
      if (f->op == TGSI_OP_CAL)
         continue;
      uint32_t fl = b->p->regions[f->region].flags;
      if (fl & TGSI_INTERP_RF_BRK) {
         struct tgsi_interp_frame *g = find_frame(b, fi, TGSI_OP_BRK);
         if (g)
            add_taint(b, g, k, t);
      }
      if (fl & TGSI_INTERP_RF_CONT) {
         struct tgsi_interp_frame *g = find_frame(b, fi, TGSI_OP_CONT);
         if (g)
            add_taint(b, g, k, t);
      }
      if (fl & TGSI_INTERP_RF_RET) {
         struct tgsi_interp_frame *g = find_frame(b, fi, TGSI_OP_CAL);
         unsigned n = b->n;
         uint32_t *main = steer ? b->main_steer : b->main_taint;
         if (g)
            add_taint(b, g, k, t);
         else
            FOR main[i] |= t[i];
      }
   }
}

static void
copy_mask(unsigned n, uint32_t *d, const uint32_t *s)
{
   memcpy(d, s, (size_t)n * 4);
}

/* Returns from the innermost call (or ends the program): unwinds the
 * frames above it, applying their taints. Returns the next pc. */
DC_LANES
static int32_t
do_return(struct tgsi_interp_batch *b)
{
   unsigned n = b->n;
   while (b->depth) {
      unsigned fi = b->depth - 1;
      struct tgsi_interp_frame *f = &b->frames[fi];
      end_region(b, fi);
      b->depth--;
      if (f->op == TGSI_OP_CAL) {
         copy_mask(n, b->cond, f->m[TGSI_INTERP_FM_COND]);
         copy_mask(n, b->loop, f->m[TGSI_INTERP_FM_LOOP]);
         copy_mask(n, b->cont, f->m[TGSI_INTERP_FM_CONT]);
         copy_mask(n, b->sw, f->m[TGSI_INTERP_FM_SW]);
         copy_mask(n, b->func, f->m[TGSI_INTERP_FM_FUNC]);
         b->exec_dirty = true;
         return f->pc;
      }
   }
   uint32_t acc = 0, acc_steer = 0;
   FOR acc |= b->main_taint[i];
   FOR acc_steer |= b->main_steer[i];
   if (acc)
      apply_region_taint(b, b->p->main_region, b->main_taint, ENV_F_UNDEF);
   if (acc_steer)
      apply_region_taint(b, b->p->main_region, b->main_steer, b->steer_mark);
   return -1;
}

DC_LANES
static bool
mask_any(unsigned n, const uint32_t *m)
{
   uint32_t acc = 0;
   FOR acc |= m[i];
   return acc != 0;
}

/* The steer taint of a condition: the lanes of live (and not already in
 * taint t) whose condition value v (flags fl) an allowed transform may
 * move to the other side of its threshold: a flag of steer_cond, or with
 * fuse-ffma for a float test against 0 (zero: IF, KILL_IF) a value
 * within its bound of 0. Into s; whether any. */
DC_LANES
static bool
steer_lanes(struct tgsi_interp_batch *b, const uint32_t *live, const uint32_t *t, const uint32_t *v,
            const uint32_t *fl, bool zero, uint32_t *s)
{
   unsigned n = b->n;
   uint32_t c = b->steer_cond, acc = 0;
   FOR s[i] = live[i] & ~t[i] & ((fl[i] & c) ? ~0u : 0);
   if (zero && b->bound_fuse)
      FOR s[i] |= live[i] & ~t[i] & (tgsi_interp_bound_zero_edge(fl[i], v[i]) ? ~0u : 0);
   FOR acc |= s[i];
   return acc != 0;
}

DC_LANES
static int32_t
exec_if(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, int32_t pc)
{
   unsigned n = b->n;
   struct tgsi_interp_frame *f = push_frame(b, ti, TGSI_OP_IF, pc, ti->region);
   if (!f)
      return -1;
   copy_mask(n, f->m[TGSI_INTERP_FM_COND], b->cond);
   const uint32_t *v, *fl;
   tgsi_interp_fetch(b, ti, 0, 0, &v, &fl);
   uint32_t *t = b->scratch[0];
   if (ti->op == TGSI_OP_UIF) {
      /* an inexact float's bits decide nothing the oracle can check */
      FOR b->cond[i] &= v[i] ? ~0u : 0;
      FOR t[i] = b->exec[i] & ((fl[i] & (ENV_F_UNDEF | ENV_F_BITS)) ? ~0u : 0);
   } else {
      /* A float test: -0.0 is false, NaN true; a denormal's truth
       * depends on flushing, and a float made from bits that are not
       * fixed (ENV_F_BITS) is any value, so both count as undefined. */
      FOR b->cond[i] &= uif(v[i]) != 0.0f ? ~0u : 0;
      FOR t[i] = b->exec[i] & ((fl[i] & (ENV_F_UNDEF | ENV_F_BITS)) ||
                                       ((v[i] & 0x7f800000u) == 0 && (v[i] & 0x7fffffu))
                                   ? ~0u
                                   : 0);
   }
   add_taint(b, f, TGSI_INTERP_FM_TAINT, t);
   if (b->steer_cond && steer_lanes(b, b->exec, t, v, fl, ti->op == TGSI_OP_IF, b->scratch[1]))
      add_taint(b, f, TGSI_INTERP_FM_STEER, b->scratch[1]);
   tgsi_interp_update_exec(b);
   return b->any_exec ? pc + 1 : ti->jump;
}

DC_LANES
static int32_t
exec_switch(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, int32_t pc)
{
   unsigned n = b->n;
   struct tgsi_interp_frame *f = push_frame(b, ti, TGSI_OP_SWITCH, pc, ti->region);
   if (!f)
      return -1;
   uint32_t *active = f->m[TGSI_INTERP_FM_AUX], *matched = f->m[TGSI_INTERP_FM_AUX2];
   uint32_t *sel = f->m[TGSI_INTERP_FM_SEL], *t = b->scratch[0];
   copy_mask(n, f->m[TGSI_INTERP_FM_SW], b->sw);
   copy_mask(n, active, b->exec);
   const uint32_t *v, *fl;
   tgsi_interp_fetch(b, ti, 0, 0, &v, &fl);
   copy_mask(n, sel, v);
   uint32_t *st = b->scratch[1], sc = b->steer_cond;
   FOR t[i] = active[i] & ((fl[i] & (ENV_F_UNDEF | ENV_F_BITS)) ? ~0u : 0);
   FOR st[i] = active[i] & ((fl[i] & sc) ? ~0u : 0);
   memset(matched, 0, (size_t)n * 4);
   /* Which lanes some CASE matches, so DEFAULT works in any position. */
   for (const int32_t *c = ti->cases; *c >= 0; c++) {
      tgsi_interp_fetch(b, &b->p->insns[*c], 0, 0, &v, &fl);
      FOR matched[i] |= active[i] & (sel[i] == v[i] ? ~0u : 0);
      FOR t[i] |= active[i] & ((fl[i] & (ENV_F_UNDEF | ENV_F_BITS)) ? ~0u : 0);
      FOR st[i] |= active[i] & ((fl[i] & sc) ? ~0u : 0);
   }
   add_taint(b, f, TGSI_INTERP_FM_TAINT, t);
   FOR st[i] &= ~t[i];
   add_taint(b, f, TGSI_INTERP_FM_STEER, st);
   memset(b->sw, 0, (size_t)n * 4);
   b->exec_dirty = true;
   return pc + 1;
}

DC_LANES
static int32_t
exec_call(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, int32_t pc)
{
   unsigned n = b->n;
   if (!b->any_exec)
      return pc + 1;
   struct tgsi_interp_frame *f =
       push_frame(b, ti, TGSI_OP_CAL, pc + 1, b->p->insns[ti->jump].region);
   if (!f)
      return -1;
   copy_mask(n, f->m[TGSI_INTERP_FM_COND], b->cond);
   copy_mask(n, f->m[TGSI_INTERP_FM_LOOP], b->loop);
   copy_mask(n, f->m[TGSI_INTERP_FM_CONT], b->cont);
   copy_mask(n, f->m[TGSI_INTERP_FM_SW], b->sw);
   copy_mask(n, f->m[TGSI_INTERP_FM_FUNC], b->func);
   /* Only the calling lanes run the subroutine; RET returns once they
    * all have returned. */
   FOR b->func[i] &= b->exec[i];
   b->exec_dirty = true;
   return ti->jump + 1;
}

/* One component of KILL_IF: kill where v < 0, und where its flags (mask)
 * or a denormal or edge could decide it, sure where a defined normal
 * negative kills. Branch-free, so that the loop vectorizes (a denormal's
 * magnitude less one lies below 0x007fffff). */
static inline void
kill_lanes(unsigned n, const uint32_t *restrict v, const uint32_t *restrict fl,
           const uint32_t *restrict edge, uint32_t mask, uint32_t *restrict kill,
           uint32_t *restrict und, uint32_t *restrict sure)
{
   FOR
   {
      uint32_t neg = 0u - (uint32_t)(uif(v[i]) < 0.0f);
      uint32_t den = (uint32_t)((v[i] & 0x7fffffffu) - 1u < 0x007fffffu);
      uint32_t u = (0u - ((uint32_t)((fl[i] & mask) != 0) | den)) | edge[i];
      kill[i] |= neg;
      und[i] |= u;
      sure[i] |= neg & ~u;
   }
}

/* KILL_IF/KIL: kill the lanes where any of the four swizzled components
 * is < 0 (NaN and -0.0 do not kill). The kill is undefined where an
 * undefined or denormal component, or one whose bits are not fixed
 * (ENV_F_BITS), or one an allowed transform may move across 0 (the
 * steer taint above), could decide it, that is unless a
 * defined, normal component kills the lane anyway. */
DC_LANES
static void
exec_kill_if(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti)
{
   unsigned n = b->n;
   /* restrict: GCC leaves these loops scalar behind run-time alias tests */
   uint32_t *restrict kill = b->scratch[0], *restrict und = b->scratch[1];
   uint32_t *restrict sure = b->scratch[2];
   memset(kill, 0, (size_t)n * 4);
   memset(und, 0, (size_t)n * 4);
   memset(sure, 0, (size_t)n * 4);
   const struct tgsi_interp_src *s = &ti->src[0];
   for (unsigned c = 0; c < 4; c++) {
      /* a component the swizzle named before adds nothing (.wwww) */
      if ((c > 0 && s->swz[c] == s->swz[0]) || (c > 1 && s->swz[c] == s->swz[1]) ||
          (c > 2 && s->swz[c] == s->swz[2]))
         continue;
      const uint32_t *pv, *pf;
      tgsi_interp_fetch(b, ti, 0, c, &pv, &pf);
      const uint32_t *v = pv, *fl = pf, *edge = b->zero;
      uint32_t sc = b->steer_cond, mask = ENV_F_UNDEF | ENV_F_BITS | sc;
      if (b->bound_fuse) {
         uint32_t *e = b->scratch[3];
         FOR e[i] = tgsi_interp_bound_zero_edge(fl[i], v[i]) ? ~0u : 0;
         edge = e;
      }
      kill_lanes(n, v, fl, edge, mask, kill, und, sure);
   }
   uint8_t *restrict ku = b->env->kill_undef + b->base;
   const uint32_t *restrict exec = b->exec;
   uint32_t *restrict alive = b->alive;
   FOR ku[i] |= (uint8_t)((exec[i] & und[i] & ~sure[i]) != 0);
   FOR alive[i] &= ~(exec[i] & kill[i]);
}

static int32_t
exec_loop_end(struct tgsi_interp_batch *b, int32_t pc)
{
   unsigned n = b->n;
   struct tgsi_interp_frame *f = &b->frames[b->depth - 1];
   copy_mask(n, b->cont, f->m[TGSI_INTERP_FM_CONT]);
   tgsi_interp_update_exec(b);
   if (b->any_exec)
      return f->pc + 1;
   copy_mask(n, b->loop, f->m[TGSI_INTERP_FM_LOOP]);
   end_region(b, b->depth - 1);
   b->depth--;
   b->exec_dirty = true;
   return pc + 1;
}

/* Control-flow instructions; returns the next pc (-1: end). */
DC_LANES
int32_t
tgsi_interp_exec_cf(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, int32_t pc)
{
   unsigned n = b->n;
   struct tgsi_interp_frame *f = b->depth ? &b->frames[b->depth - 1] : NULL;
   switch (ti->op) {
   case TGSI_OP_IF:
   case TGSI_OP_UIF:
      return exec_if(b, ti, pc);
   case TGSI_OP_ELSE:
      FOR b->cond[i] = ~b->cond[i] & f->m[TGSI_INTERP_FM_COND][i];
      tgsi_interp_update_exec(b);
      return b->any_exec ? pc + 1 : ti->jump;
   case TGSI_OP_ENDIF:
      copy_mask(n, b->cond, f->m[TGSI_INTERP_FM_COND]);
      end_region(b, b->depth - 1);
      b->depth--;
      break;
   case TGSI_OP_BGNLOOP:
      f = push_frame(b, ti, TGSI_OP_BGNLOOP, pc, ti->region);
      if (!f)
         return -1;
      copy_mask(n, f->m[TGSI_INTERP_FM_LOOP], b->loop);
      copy_mask(n, f->m[TGSI_INTERP_FM_CONT], b->cont);
      return pc + 1;
   case TGSI_OP_ENDLOOP:
      return exec_loop_end(b, pc);
   case TGSI_OP_BRK:
      f = find_frame(b, b->depth, TGSI_OP_BRK);
      if (f && f->op == TGSI_OP_SWITCH)
         FOR b->sw[i] &= ~b->exec[i];
      else if (f)
         FOR b->loop[i] &= ~b->exec[i];
      break;
   case TGSI_OP_CONT:
      FOR b->cont[i] &= ~b->exec[i];
      break;
   case TGSI_OP_SWITCH:
      return exec_switch(b, ti, pc);
   case TGSI_OP_CASE: {
      const uint32_t *v, *fl;
      tgsi_interp_fetch(b, ti, 0, 0, &v, &fl);
      FOR b->sw[i] |= f->m[TGSI_INTERP_FM_AUX][i] & (f->m[TGSI_INTERP_FM_SEL][i] == v[i] ? ~0u : 0);
      break;
   }
   case TGSI_OP_DEFAULT:
      FOR b->sw[i] |= f->m[TGSI_INTERP_FM_AUX][i] & ~f->m[TGSI_INTERP_FM_AUX2][i];
      break;
   case TGSI_OP_ENDSWITCH:
      copy_mask(n, b->sw, f->m[TGSI_INTERP_FM_SW]);
      end_region(b, b->depth - 1);
      b->depth--;
      break;
   case TGSI_OP_CAL:
      return exec_call(b, ti, pc);
   case TGSI_OP_RET:
      FOR b->func[i] &= ~b->exec[i];
      b->exec_dirty = true;
      return mask_any(n, b->func) ? pc + 1 : do_return(b);
   case TGSI_OP_ENDSUB:
      return do_return(b);
   case TGSI_OP_END:
      b->depth = 0;
      return do_return(b);
   case TGSI_OP_KILL:
      FOR b->alive[i] &= ~b->exec[i];
      break;
   case TGSI_OP_KILL_IF:
   case TGSI_OP_KIL:
      if (b->any_exec)
         exec_kill_if(b, ti);
      break;
   case TGSI_OP_DEMOTE:
      FOR b->demoted[i] |= b->exec[i];
      break;
   case TGSI_OP_BARRIER:
      (*b->epoch)++;
      break;
   default: /* BGNSUB, NOP, MEMBAR */
      break;
   }
   b->exec_dirty = true;
   return pc + 1;
}

bool
tgsi_interp_is_cf(enum tgsi_opcode op)
{
   switch (op) {
   case TGSI_OP_IF:
   case TGSI_OP_UIF:
   case TGSI_OP_ELSE:
   case TGSI_OP_ENDIF:
   case TGSI_OP_BGNLOOP:
   case TGSI_OP_ENDLOOP:
   case TGSI_OP_BRK:
   case TGSI_OP_CONT:
   case TGSI_OP_SWITCH:
   case TGSI_OP_CASE:
   case TGSI_OP_DEFAULT:
   case TGSI_OP_ENDSWITCH:
   case TGSI_OP_CAL:
   case TGSI_OP_RET:
   case TGSI_OP_BGNSUB:
   case TGSI_OP_ENDSUB:
   case TGSI_OP_END:
   case TGSI_OP_NOP:
   case TGSI_OP_KILL:
   case TGSI_OP_KILL_IF:
   case TGSI_OP_KIL:
   case TGSI_OP_DEMOTE:
   case TGSI_OP_BARRIER:
   case TGSI_OP_MEMBAR:
      return true;
   default:
      return false;
   }
}
