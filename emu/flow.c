/*
 * Control flow and divergence: which lanes of a wave execute, and where
 * they go next. Two mechanisms, chosen by the model (load.c):
 *
 *  - Per-lane program counters with minimum-PC scheduling (models without
 *    SSY/SYNC, a3xx). A divergent branch parks the lanes that go elsewhere
 *    at their target; the wave always runs the group at the lowest PC, so
 *    lanes meet again at the first instruction both paths reach -- the
 *    join point ir3 marks with (jp). This is the documented simplification
 *    of ir3's branch stack: it reconverges at the same places for
 *    structured code. A merge at an instruction without (jp) is a JP event
 *    (the hardware would not reconverge there).
 *  - A reconvergence stack (SSY/SYNC models, sm50): SSY pushes its target
 *    and the active lanes; a divergent BRA pushes the not-taken lanes (a
 *    DIV entry) and runs the taken ones; SYNC parks the lanes executing it
 *    (under its guard); when no lane of the path is left (parked or
 *    exited), the stack pops: a DIV entry runs its lanes, an SSY entry
 *    resumes every lane it saved that is still alive at its target.
 *
 *  - An EXEC register (gfx9, salu.c): branches are scalar (the whole wave
 *    goes or stays, on scc, vcc or exec), the active lanes are EXEC &
 *    live and the code's EXEC arithmetic does the divergence. At
 *    s_endpgm the lanes in EXEC write their outputs; the others are
 *    discarded (killed), as the hardware's final export would leave them.
 *
 *  - An execution-mask stack (agx): every lane keeps a nesting count in the
 *    low half of register 0 and is active when it is 0; if/else/while/pop
 *    update it on every live lane (isa.h, exec_if ..), the wave moves as
 *    one (jmp_exec_any/none branch on whether any lane is active), and a
 *    wave with no active lane is not done until its lanes end.
 *
 * Lanes end at END/EXIT (their outputs are read then) or KILL (agx:
 * sample_mask); a wave whose lanes are all killed or masked goes on with
 * none active until its live lanes end.
 */
#include "emu/emu_priv.h"

/* The lane loops below vectorize with the dynamic cost model (as kern.c). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#endif

static uint32_t
popcount64(uint64_t x)
{
   x = x - ((x >> 1) & 0x5555555555555555ull);
   x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
   x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
   return (uint32_t)((x * 0x0101010101010101ull) >> 56);
}

/* The lane set of bit 0 of p[0 .. n - 1] (n <= 64, a wave), a word of 32
 * lanes at a time. */
DC_LANES static uint64_t
lane_bits(const uint32_t *p, unsigned n)
{
   unsigned m = MIN2(n, 32u);
   uint32_t lo = 0, hi = 0;
   for (unsigned i = 0; i < m; i++)
      lo |= (0u - (p[i] & 1u)) & emu_lane_bit[i];
   const uint32_t *p_hi = p + m; /* indexed from 0, so that this loop vectorizes too */
   for (unsigned j = 0; j < n - m; j++)
      hi |= (0u - (p_hi[j] & 1u)) & emu_lane_bit[j];
   return (uint64_t)hi << 32 | lo;
}

DC_LANES void
emu_set_active(struct emu_wave *w, uint64_t lanes)
{
   w->active = lanes;
   if (w->nmembers) {
      /* A batch is all lanes or none (its lanes outnumber the bits). */
      w->nactive = lanes ? w->n : 0;
      for (unsigned i = 0; i < w->n; i++)
         w->exec[i] = lanes ? ~0u : 0u;
      return;
   }
   w->nactive = popcount64(lanes);
   /* exec[i] = lane i's bit as 0 / ~0u, 32 lanes per word of the set with
    * a bit mask per lane, so that the loops vectorize */
   uint32_t lo = (uint32_t)lanes, hi = (uint32_t)(lanes >> 32);
   unsigned n = w->n, m = MIN2(n, 32u);
   uint32_t *ex = w->exec;
   for (unsigned i = 0; i < m; i++)
      ex[i] = 0u - (uint32_t)((lo & emu_lane_bit[i]) != 0);
   /* lanes 32.. indexed from 0, so that this loop vectorizes too */
   uint32_t *ex_hi = ex + m;
   for (unsigned j = 0; j < n - m; j++)
      ex_hi[j] = 0u - (uint32_t)((hi & emu_lane_bit[j]) != 0);
}

void
emu_flow_init(struct emu_wave *w, uint64_t lanes)
{
   w->live = lanes;
   w->waiting = 0;
   w->nstack = 0;
   w->pc = 0;
   w->done = lanes == 0;
   emu_set_active(w, lanes);
}

static void
fault(struct emu_wave *w, enum emu_event_kind k, const struct emu_op *op)
{
   emu_event(w, k, op->addr, -1, 0, op->addr, 0);
   w->done = true;
}

/* Lanes ending now: outputs are read (killed lanes have none), kills are
 * recorded, the lanes leave the wave. */
void
emu_lanes_end(struct emu_wave *w, uint64_t lanes, bool killed, uint32_t pc)
{
   struct emu_run *run = w->run;
   const struct emu_code *c = run->code;
   struct env *e = run->env;
   lanes &= w->live;
   if (!lanes)
      return;
   w->live &= ~lanes;
   if (killed) {
      for (unsigned i = 0; i < w->n && !w->nmembers; i++)
         if ((lanes >> i) & 1)
            e->killed[w->first_lane + i] = 1;
      return;
   }
   for (unsigned b = 0; b < c->nbinds; b++) {
      const struct emu_binding *bd = &c->binds[b];
      if (bd->kind != EMU_BIND_OUTPUT)
         continue;
      const uint32_t *p = emu_reg_final(w, c->files[bd->file].base + bd->index, lanes, pc);
      size_t o = env_out_index(e, bd->vertex, bd->tgsi_index, bd->chan) + w->first_lane;
      if (w->nmembers || lanes == emu_lanes_all(w->n)) { /* every lane: one copy */
         memcpy(e->out + o, p, w->n * sizeof(*e->out));
         memset(e->out_flags + o, 0, w->n * sizeof(*e->out_flags));
         continue;
      }
      for (unsigned i = 0; i < w->n; i++)
         if (w->nmembers || ((lanes >> i) & 1)) {
            e->out[o + i] = p[i];
            e->out_flags[o + i] = 0;
         }
   }
}

/* ---- minimum-PC scheduling ------------------------------------------ */

/* The lowest PC a parked lane waits at and the lanes parked there (one
 * pass over the parked lanes only). */
static uint32_t
wait_min(const struct emu_wave *w, uint64_t *at)
{
   uint32_t m = UINT32_MAX;
   uint64_t b = 0;
   for (uint64_t r = w->waiting; r; r &= r - 1) {
      unsigned i = (unsigned)__builtin_ctzll(r);
      uint32_t p = w->lpc[i];
      if (p < m) {
         m = p;
         b = 0;
      }
      if (p == m)
         b |= 1ull << i;
   }
   *at = b;
   return m;
}

/* The active group continues at next (or has ended if no lane is active). */
static void
minpc_next(struct emu_wave *w, uint32_t next)
{
   const struct emu_code *c = w->run->code;
   if (!w->waiting) {
      w->pc = next;
      w->done = !w->active;
      return;
   }
   uint64_t join;
   uint32_t m = wait_min(w, &join);
   if (w->active && next < m) {
      w->pc = next;
      return;
   }
   w->waiting &= ~join;
   if (w->active && next == m) {
      if (m < c->n && !c->ops[m].jp && isa_mod_by_role(c->model, ISA_ROLE_JP) >= 0)
         emu_event(w, EMU_EV_JP, c->ops[m].addr, -1, 0, c->ops[m].addr, 0);
      emu_set_active(w, w->active | join);
      w->pc = m;
      return;
   }
   for (unsigned i = 0; i < w->n; i++)
      if ((w->active >> i) & 1)
         w->lpc[i] = next;
   w->waiting |= w->active;
   emu_set_active(w, join);
   w->pc = m;
}

/* ---- reconvergence stack --------------------------------------------- */

static void
push(struct emu_wave *w, const struct emu_op *op, uint8_t kind, uint32_t pc, uint64_t lanes)
{
   if (w->nstack == EMU_MAX_STACK) {
      fault(w, EMU_EV_STACK, op);
      return;
   }
   w->stack[w->nstack++] = (struct emu_stack_ent){kind, pc, lanes};
}

/* The running path is finished (SYNC, or all its lanes exited). */
static void
pop(struct emu_wave *w, const struct emu_op *op)
{
   while (w->nstack) {
      struct emu_stack_ent en = w->stack[--w->nstack];
      uint64_t lanes = en.lanes & w->live;
      if (!lanes)
         continue;
      emu_set_active(w, lanes);
      w->pc = en.pc;
      return;
   }
   emu_set_active(w, 0);
   if (w->live)
      fault(w, EMU_EV_STACK, op); /* lanes parked with nothing to resume them */
   else
      w->done = true;
}

/* ---- the step ---------------------------------------------------------- */

static void
group_done(struct emu_wave *w, const struct emu_op *op)
{
   emu_set_active(w, 0);
   if (w->run->code->exec_stack) {
      w->done = !w->live;
      w->pc++;
      return;
   }
   if (w->run->code->stack_flow)
      pop(w, op);
   else
      minpc_next(w, w->pc + 1);
}

static void
go(struct emu_wave *w, uint32_t next)
{
   const struct emu_code *c = w->run->code;
   if (c->stack_flow || c->exec_stack || c->exec_mask)
      w->pc = next;
   else
      minpc_next(w, next);
}

/* Lanes for which a branch, kill or exit acts: active, under the guard,
 * and with the predicate source true (bit 0, after its not modifier). */
static uint64_t
cond_lanes(struct emu_wave *w, const struct emu_op *op, int64_t t)
{
   struct emu_run *run = w->run;
   uint32_t *mask;
   emu_exec_mask(w, op, t, &mask);
   uint64_t bits = lane_bits(mask, w->n);
   for (unsigned k = 0; k < op->nsrc; k++) {
      const struct emu_src *s = &op->src[k];
      if (s->kind != EMU_S_REG && s->kind != EMU_S_REL_REG)
         continue;
      bits &= lane_bits(emu_fetch(w, op, s, 0, t, run->tmp_src[k]), w->n);
      break;
   }
   return bits;
}

/* Lanes a sample_mask T, L kills: active, under the guard, with bit 0 of
 * T set and bit 0 of L clear (one sample per pixel, agx.yaml). */
static uint64_t
discard_lanes(struct emu_wave *w, const struct emu_op *op, int64_t t)
{
   struct emu_run *run = w->run;
   uint32_t *mask;
   emu_exec_mask(w, op, t, &mask);
   const uint32_t *tm = emu_fetch(w, op, &op->src[0], 0, t, run->tmp_src[0]);
   const uint32_t *lm = emu_fetch(w, op, &op->src[1], 0, t, run->tmp_src[1]);
   uint64_t bits = 0;
   for (unsigned i = 0; i < w->n; i++)
      bits |= (uint64_t)(mask[i] & tm[i] & ~lm[i] & 1u) << i;
   return bits;
}

static void
branch(struct emu_wave *w, const struct emu_op *op, int64_t t, bool always)
{
   if (w->run->code->exec_mask) { /* scalar: the wave goes or stays */
      bool take = always || emu_cond_value(w, op, t);
      if (take && op->target < 0) {
         fault(w, EMU_EV_BAD_TARGET, op);
         return;
      }
      w->pc = take ? (uint32_t)op->target : w->pc + 1;
      return;
   }
   uint64_t taken = always ? w->active : cond_lanes(w, op, t);
   uint32_t next = w->pc + 1;
   if (taken && op->target < 0) {
      fault(w, EMU_EV_BAD_TARGET, op);
      return;
   }
   if (taken == w->active) {
      go(w, (uint32_t)op->target);
      return;
   }
   if (!taken) {
      go(w, next);
      return;
   }
   if (w->run->code->stack_flow) {
      push(w, op, 1, next, w->active & ~taken);
      emu_set_active(w, taken);
      w->pc = (uint32_t)op->target;
      return;
   }
   for (unsigned i = 0; i < w->n; i++)
      if ((taken >> i) & 1)
         w->lpc[i] = (uint32_t)op->target;
   w->waiting |= taken;
   emu_set_active(w, w->active & ~taken);
   minpc_next(w, next);
}

static void
end_lanes(struct emu_wave *w, const struct emu_op *op, int64_t t, bool kill)
{
   if (w->run->code->exec_mask && !kill) { /* s_endpgm: lanes outside EXEC are discarded */
      uint64_t out = w->active & w->live;
      emu_lanes_end(w, w->live & ~out, true, op->addr);
      emu_lanes_end(w, out, false, op->addr);
      emu_set_active(w, 0);
      w->done = true;
      return;
   }
   uint64_t lanes = op->sem == ISA_SEM_SAMPLE_MASK ? discard_lanes(w, op, t)
                    : kill || op->has_guard        ? cond_lanes(w, op, t)
                                                   : w->active;
   if (!kill && w->run->code->exec_stack)
      lanes = w->live; /* agx stop: the wave stops, masked lanes too */
   emu_lanes_end(w, lanes, kill, op->addr);
   emu_set_active(w, w->active & ~lanes);
   if (w->active)
      go(w, w->pc + 1);
   else
      group_done(w, op);
}

/* A live lane's next nesting count after an if/else/while/pop with compare
 * result k and push count n (isa.h, exec_if ..). */
static inline uint32_t
stack_next(enum isa_sem sem, uint32_t v, uint32_t k, uint32_t n)
{
   switch (sem) {
   case ISA_SEM_EXEC_IF:
      return v ? v + n : k ? 0 : 1;
   case ISA_SEM_EXEC_ELSE:
      return v == 0 ? n : v == 1 ? (k ? 0 : 1) : v;
   case ISA_SEM_EXEC_WHILE:
      return v < n ? (k ? 0 : n) : v;
   default:
      return v > n ? v - n : 0;
   }
}

/* One pass over the lanes for one kind of op (sem a constant in each
 * expansion, so the choice is made outside the loop), a 32-lane word of
 * the live and result sets at a time by the bit table (a wave has at
 * most 64 lanes). */
#define STACK_LANES(SEM)                                                                           \
   for (unsigned h = 0, m = MIN2(w->n, 32u); h < 2; h++) {                                         \
      unsigned nh = h ? w->n - m : m;                                                              \
      const uint32_t *ch = cur + h * m, *kh = kb + h * m;                                          \
      uint32_t *dh = d + h * m, lw = (uint32_t)(live >> (32 * h)), ow = 0;                         \
      for (unsigned j = 0; j < nh; j++) {                                                          \
         uint32_t v = ch[j] & 0xffffu, lv = (lw & emu_lane_bit[j]) != 0;                           \
         uint32_t nv = lv ? stack_next(SEM, v, kh[j], n) & 0xffffu : v;                            \
         ow |= (0u - (lv & (nv == 0))) & emu_lane_bit[j];                                          \
         dh[j] = (ch[j] & ~0xffffu) | nv;                                                          \
      }                                                                                            \
      on |= (uint64_t)ow << (32 * h);                                                              \
   }

/* The nesting count c of every live lane, updated by an if/else/while/pop
 * (k: the compare, n: the push count; isa.h); active = live lanes at 0. */
DC_LANES static void
exec_stack(struct emu_wave *w, const struct emu_op *op, int64_t t)
{
   struct emu_run *run = w->run;
   const struct emu_code *c = run->code;
   uint32_t n = op->src[op->nsrc - 1].value;
   const uint32_t *a = NULL, *b = NULL;
   if (op->sem != ISA_SEM_EXEC_POP) {
      a = emu_fetch(w, op, &op->src[0], 0, t, run->tmp_src[0]);
      b = emu_fetch(w, op, &op->src[1], 0, t, run->tmp_src[1]);
   }
   bool fl = op->src[0].isfloat;
   bool sg = op->args.type == ISA_TYPE_S32 || op->args.type == ISA_TYPE_S16;
   /* the compare of every lane first (0 without sources), one loop per kind */
   uint32_t *kb = run->tmp_dst[0];
   enum sem_cond cond = op->args.cond;
   if (!a)
      memset(kb, 0, w->n * 4);
   else if (fl)
      emu_fcmp_lanes(cond, a, b, w->n, kb);
   else if (sg)
      for (unsigned i = 0; i < w->n; i++)
         kb[i] = sem_scmp(cond, a[i], b[i]) != 0;
   else
      for (unsigned i = 0; i < w->n; i++)
         kb[i] = sem_ucmp(cond, a[i], b[i]) != 0;
   struct emu_dst dd = {.kind = EMU_S_REG, .count = 1, .fixed_unit = UINT32_MAX};
   uint32_t *cur, *d = emu_reg_write(w, op, &dd, c->exec_unit, t, &cur);
   uint64_t on = 0, live = w->live;
   assert(w->n <= EMU_MAX_WAVE); /* never a batch: op->batch is 0 */
   switch (op->sem) {
   case ISA_SEM_EXEC_IF:
      STACK_LANES(ISA_SEM_EXEC_IF)
      break;
   case ISA_SEM_EXEC_ELSE:
      STACK_LANES(ISA_SEM_EXEC_ELSE)
      break;
   case ISA_SEM_EXEC_WHILE:
      STACK_LANES(ISA_SEM_EXEC_WHILE)
      break;
   default:
      STACK_LANES(ISA_SEM_EXEC_POP)
      break;
   }
   emu_set_active(w, on & w->live);
   w->pc++;
}

void
emu_flow_step(struct emu_wave *w, const struct emu_op *op, int64_t t)
{
   switch (op->kind) {
   case EMU_K_EXEC:
      exec_stack(w, op, t);
      return;
   case EMU_K_JMPX: {
      bool any = w->active != 0, take = op->sem == ISA_SEM_JMP_ANY ? any : !any;
      if (take && op->target < 0) {
         fault(w, EMU_EV_BAD_TARGET, op);
         return;
      }
      w->pc = take ? (uint32_t)op->target : w->pc + 1;
      return;
   }
   case EMU_K_JUMP:
      branch(w, op, t, true);
      return;
   case EMU_K_BRANCH:
      branch(w, op, t, false);
      return;
   case EMU_K_END:
      end_lanes(w, op, t, false);
      return;
   case EMU_K_KILL:
      end_lanes(w, op, t, true);
      return;
   case EMU_K_SSY:
      if (op->target < 0) {
         fault(w, EMU_EV_BAD_TARGET, op);
         return;
      }
      push(w, op, 0, (uint32_t)op->target, w->active);
      w->pc++;
      return;
   case EMU_K_SYNC: {
      /* The lanes that execute it wait for the reconvergence point; a
       * guarded SYNC parks only its guarded lanes. */
      uint64_t lanes = op->has_guard ? cond_lanes(w, op, t) : w->active;
      emu_set_active(w, w->active & ~lanes);
      if (w->active)
         w->pc++;
      else
         pop(w, op);
      return;
   }
   case EMU_K_BARRIER:
      w->at_barrier = true;
      go(w, w->pc + 1);
      return;
   case EMU_K_ILLEGAL:
      fault(w, EMU_EV_ILLEGAL, op);
      return;
   default:
      go(w, w->pc + 1);
      return;
   }
}
