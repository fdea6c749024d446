/*
 * The timing model: issue cycles, register ready times, sync waits and the
 * hazards they reveal. Everything is per wave (one clock, one ready time
 * per register, one epoch counter per sync kind), never per lane.
 *
 * Fixed-latency results: a write at cycle t is seen by a read whose
 * effective cycle (issue + the slot's read_delay - the class's read_early
 * on delay-slot models) is at least t + lat (load.c: lat = latency + 1 on
 * delay-slot models, which count the slots between the two instructions;
 * latency on stall-count models, which count issue to issue). An earlier
 * read is a RAW hazard and sees the value before the write.
 *
 * Variable-latency results (a3xx (ss)/(sy) classes, sm50 scoreboards)
 * are only seen after a wait on their sync kind issued after them: the
 * instruction's (ss)/(sy) flag or wait-mask bit bumps the kind's epoch, and
 * a result is synced once the epoch differs from the one it was written
 * in. A read before that is a SYNC hazard and sees the old value, however
 * much time has passed (the brief: a missing sync is always wrong). The
 * wait itself lasts until the latest pending result of the kind is done,
 * issue + the class's documented latency (its `soft` number).
 *
 * Source reads of variable-latency instructions (class `war`): a write to
 * such a source before the read is done and without a wait on the kind is
 * a WAR hazard. "Done" is issue + war_latency when the model gives that
 * parameter (sm50), otherwise never (a3xx: only (ss) protects them).
 *
 * Write visibility uses the two register buffers (emu_priv.h): a write
 * flips to the other buffer when the previous value had become visible,
 * else it overwrites the newest value in place and the old visible value
 * stays readable -- one level of history, enough for in-order pipelines;
 * a read between two in-flight writes sees the older visible value.
 */
#include "emu/emu_priv.h"

#include <stdio.h>

void
emu_event(struct emu_wave *w, enum emu_event_kind k, uint32_t pc, int file, unsigned index,
          uint32_t producer_pc, int64_t early)
{
   struct emu_result *r = w->run->res;
   struct emu_event *last = &w->run->last;
   uint64_t cyc = (uint64_t)(w->cycle < 0 ? 0 : w->cycle);
   if (r->counts[k] && last->kind == k && last->pc == pc && last->wave == w->id &&
       last->cycle == cyc && last->file == (uint8_t)(file < 0 ? 0xff : file) &&
       last->index == (uint16_t)index && last->producer_pc == producer_pc)
      return; /* the same hazard again in the same instruction */
   r->counts[k]++;
   if (k >= EMU_EV_FIRST_FAULT && r->status == EMU_OK)
      r->status = k == EMU_EV_BUDGET ? EMU_BUDGET : EMU_FAULT;
   struct emu_event ev = {
       .kind = (uint8_t)k,
       .file = (uint8_t)(file < 0 ? 0xff : file),
       .index = (uint16_t)index,
       .pc = pc,
       .producer_pc = producer_pc,
       .early = (int32_t)(early > INT32_MAX   ? INT32_MAX
                          : early < INT32_MIN ? INT32_MIN
                                              : early),
       .wave = w->id,
       .cycle = cyc,
   };
   *last = ev;
   /* A batch stands for several waves in lockstep: each had the event. */
   uint32_t copies = k == EMU_EV_BUDGET ? 1u : MAX2(w->nmembers, 1u); /* the run stops at once */
   const struct emu_group *g = w->grp;
   for (uint32_t m = 0; m < copies; m++) {
      ev.wave = w->id + m;
      if (m)
         r->counts[k]++;
      if (g && g->held) { /* listed in wave order later (emu.c) */
         struct emu_evbuf *b = &g->evb[ev.wave - g->waves[0].id];
         if (b->n < w->run->max_events)
            VEC_PUSH(b->ev, b->n, b->cap, ev);
      } else if (r->nevents < w->run->max_events) {
         VEC_PUSH(r->events, r->nevents, r->events_cap, ev);
      }
   }
}

/* When an asynchronous op issued at t completes. Interlocked models (agx)
 * draw it from the run's seed, in [soft / 2, 3 soft / 2): a function of the
 * seed, the op and t, so waves in lockstep (a batch) agree with running
 * each alone. Other models: t + soft. */
int64_t
emu_async_done(const struct emu_wave *w, const struct emu_op *op, int64_t t)
{
   if (w->run->code->hazard != ISA_HAZARD_INTERLOCKED || op->soft < 2)
      return t + op->soft;
   uint64_t h = w->run->env->seed ^ ((uint64_t)op->addr << 32) ^ (uint64_t)t;
   h ^= h >> 33;
   h *= 0xff51afd7ed558ccdull;
   h ^= h >> 33;
   h *= 0xc4ceb9fe1a85ec53ull;
   h ^= h >> 33;
   return t + op->soft / 2 + (int64_t)(h % (uint64_t)op->soft);
}

/* Counter results (gfx9) carry their sequence number with these marks:
 * synced once the counter has dropped past them (s_waitcnt N completes
 * the oldest issued - N, in issue order); an unordered one (SMEM) only
 * by a wait for 0 issued after it. */
#define CNT_MARK      0x80000000u
#define CNT_UNORDERED 0x40000000u
#define CNT_SEQ       0x3fffffffu

static inline bool
synced(const struct emu_wave *w, unsigned kind, uint32_t epoch)
{
   if (epoch & CNT_MARK)
      return (epoch & CNT_SEQ) <= (epoch & CNT_UNORDERED ? w->cnt_ooo[kind] : w->sync_epoch[kind]);
   return w->sync_epoch[kind] != epoch;
}

/* s_waitcnt: each counter with a limit drops to it (stalling until the
 * results it completes are done). */
static void
wait_counters(struct emu_wave *w, const struct emu_op *op, int64_t *t)
{
   for (unsigned k = 1; k <= 3; k++) {
      int n = op->cnt[k - 1];
      if (n < 0 || w->cnt_issued[k] <= (uint32_t)n)
         continue;
      uint32_t done = w->cnt_issued[k] - (uint32_t)n;
      if (done > w->sync_epoch[k])
         w->sync_epoch[k] = done;
      if (n == 0)
         w->cnt_ooo[k] = w->cnt_issued[k];
      if (w->sync_ready[k] > *t)
         *t = w->sync_ready[k];
   }
}

/* The file and index of a unit, for events. */
static void
unit_reg(const struct emu_code *c, uint32_t unit, int *file, unsigned *index)
{
   for (unsigned f = 0; f < c->nfiles; f++) {
      const struct emu_file *fl = &c->files[f];
      if (fl->kind != ISA_FILE_CONST && unit >= fl->base && unit < fl->base + fl->count) {
         *file = (int)f;
         *index = unit - fl->base;
         return;
      }
   }
   *file = -1;
   *index = 0;
}

static void
reg_event(struct emu_wave *w, enum emu_event_kind k, const struct emu_op *op, uint32_t unit,
          uint32_t producer, int64_t early)
{
   int file;
   unsigned index;
   unit_reg(w->run->code, unit, &file, &index);
   emu_event(w, k, op->addr, file, index, producer, early);
}

static void
trace_why(struct emu_wave *w, const char *s)
{
   size_t n = strlen(w->tr_why);
   snprintf(w->tr_why + n, sizeof(w->tr_why) - n, "%s%s", n ? " " : "", s);
}

static void
wait_kind(struct emu_wave *w, const struct emu_op *op, unsigned k, int64_t now, int64_t *t)
{
   const struct emu_code *c = w->run->code;
   if (c->bar_min > 0 && w->sync_set[k] != INT64_MIN && now - w->sync_set[k] < c->bar_min)
      emu_event(w, EMU_EV_BAR_EARLY, op->addr, -1, 0, (uint32_t)w->sync_pc[k],
                c->bar_min - (now - w->sync_set[k]));
   if (w->sync_ready[k] > *t)
      *t = w->sync_ready[k];
   w->sync_epoch[k]++;
   w->sync_count[k] = 0;
   if (w->run->opt->trace) {
      char name[8];
      if (c->delay_slots)
         snprintf(name, sizeof(name), "%s", k == 1 ? "ss" : "sy");
      else
         snprintf(name, sizeof(name), "sb%u", k - 1);
      trace_why(w, name);
   }
}

/* Registers pending on the kinds in `mask` (trace only). */
static void
trace_waited(struct emu_wave *w, unsigned mask)
{
   struct emu_run *run = w->run;
   run->tr_nwaited = 0;
   for (unsigned k = 0; k < run->code->ntouched && run->tr_nwaited < EMU_TRACE_REGS; k++) {
      uint32_t u = run->code->touched[k];
      const struct emu_reg *r = &w->meta[u];
      if (r->pend && r->pend < EMU_SYNC_NEVER && (mask & (1u << (r->pend - 1))) &&
          !synced(w, r->pend, r->epoch)) {
         int file;
         unsigned index;
         unit_reg(run->code, u, &file, &index);
         run->tr_waited[run->tr_nwaited].file = (uint8_t)file;
         run->tr_waited[run->tr_nwaited].index = (uint16_t)index;
         run->tr_nwaited++;
      }
   }
}

int64_t
emu_issue_wait(struct emu_wave *w, const struct emu_op *op)
{
   int64_t now = w->cycle, t = now;
   if (w->run->opt->trace) {
      w->tr_why[0] = 0;
      trace_waited(w, op->wait);
   }
   if (op->waitcnt)
      wait_counters(w, op, &t);
   if (op->wait)
      for (unsigned k = 1; k < EMU_SYNC_NEVER; k++)
         if (op->wait & (1u << (k - 1)))
            wait_kind(w, op, k, now, &t);
   w->tr_stall = (uint32_t)(t - now);
   w->run->res->stall_cycles += (uint64_t)(t - now) * MAX2(w->nmembers, 1u);
   w->cycle = t; /* events of this instruction carry its issue cycle */
   return t;
}

void
emu_sync_note(struct emu_wave *w, const struct emu_op *op, int64_t t)
{
   if (op->sync && op->sync != EMU_SYNC_NEVER) {
      const struct emu_code *c = w->run->code;
      if (c->hazard == ISA_HAZARD_WAIT_STATES && op->sync <= 3)
         w->cnt_issued[op->sync]++;
      int64_t done = emu_async_done(w, op, t);
      if (c->max_pending > 0 && ++w->sync_count[op->sync] > (uint32_t)c->max_pending)
         emu_event(w, EMU_EV_PENDING, op->addr, -1, 0, w->sync_pc[op->sync],
                   (int64_t)w->sync_count[op->sync] - c->max_pending);
      w->sync_ready[op->sync] = MAX2(w->sync_ready[op->sync], done);
      w->sync_set[op->sync] = t;
      w->sync_pc[op->sync] = op->addr;
   }
   if (op->war && op->war != EMU_SYNC_NEVER) {
      int64_t done = t + (op->war_until >= 0 ? op->war_until : op->soft);
      w->sync_ready[op->war] = MAX2(w->sync_ready[op->war], done);
      w->sync_set[op->war] = t;
      w->sync_pc[op->war] = op->addr;
   }
}

void
emu_issue_done(struct emu_wave *w, const struct emu_op *op, int64_t t)
{
   const struct emu_code *c = w->run->code;
   struct emu_result *r = w->run->res;
   unsigned subs = op->rpt + 1u, m = MAX2(w->nmembers, 1u); /* a batch counts for each wave */
   if (op->kind == EMU_K_NOP)
      r->nops += (uint64_t)subs * m;
   r->nops += (uint64_t)op->nopn * m;
   if (op->flow && op->stall < c->flow_stall && !w->done)
      emu_event(w, EMU_EV_FLOW_STALL, op->addr, -1, 0, op->addr, c->flow_stall - op->stall);
   w->cycle = t + op->advance;
   r->stall_cycles += (uint64_t)op->idle * m;
}

/* The instruction index at byte address a, or -1. */
static int
op_at(const struct emu_code *c, uint32_t a)
{
   if (c->op_of_word)
      return a % 4 == 0 && a / 4 < c->nwords ? c->op_of_word[a / 4] : -1;
   unsigned lo = 0, hi = c->n;
   while (lo < hi) {
      unsigned mid = (lo + hi) / 2;
      if (c->ops[mid].addr < a)
         lo = mid + 1;
      else
         hi = mid;
   }
   return lo < c->n && c->ops[lo].addr == a ? (int)lo : -1;
}

/* Wait-state models (gfx9): how many wait states the read of `unit` by
 * source s of op at cycle t lacks (0: none). The newest write is still in
 * its window (load.c). The distance comes from the model's wait-state
 * table as load.c resolved it -- the rows for the writer's class and the
 * reader's class, about the written register's file or any file -- and
 * never from isa_delay(), which the compilers ask: the emulator checks
 * their answer instead of sharing it. Each cycle between the two issues is
 * a wait state (s_nop N issues for N + 1). */
static int64_t
wait_states_short(struct emu_wave *w, const struct emu_op *op, const struct emu_src *s,
                  uint32_t unit, int64_t t)
{
   const struct emu_code *c = w->run->code;
   const struct emu_reg *r = &w->meta[unit];
   int p = op_at(c, r->pc);
   if (p < 0 || s < op->src || s >= op->src + ISA_MAX_SRC)
      return 0; /* only the instruction's own source slots: the table's rows are about them */
   const struct emu_op *po = &c->ops[p];
   unsigned pcls = c->insns[p].cls, si = (unsigned)(s - op->src);
   for (unsigned j = 0; j < po->ndst; j++) {
      const struct emu_dst *dd = &po->dst[j];
      if (dd->kind != EMU_S_REG || unit < dd->unit || unit >= dd->unit + MAX2(dd->count, 1u) + 1)
         continue;
      int64_t need = 0;
      /* the rows about this consumer slot (a row naming ops and an
       * operand: this op, that source -- an explicit one by index, an
       * implicit one by its register: load.c index_wait_rules) */
      size_t at = (size_t)(op - c->ops) * ISA_MAX_SRC + si;
      for (uint32_t q = c->wait_at[at]; q < c->wait_at[at + 1]; q++) {
         const struct emu_wait_rule *wr = &c->wait_rules[c->wait_sel[q]];
         if (wr->first != pcls || (wr->file >= 0 && wr->file != dd->file))
            continue;
         need = MAX2(need, (int64_t)wr->states);
      }
      int64_t have = t - (r->ready - dd->lat) - 1;
      return need > have ? need - have : 0;
   }
   return 0;
}

const uint32_t *
emu_reg_read_slow(struct emu_wave *w, const struct emu_op *op, const struct emu_src *s,
                  uint32_t unit, int64_t t)
{
   struct emu_reg *r = &w->meta[unit];
   assert(w->run->code->is_touched[unit]);
   unsigned W = w->S;
   uint32_t *buf = w->regs + (size_t)unit * 2 * W;
   /* The newest write left these lanes alone: what they read is settled
    * (the write kept their values), whatever the write's latency. */
   if (!(r->lanes & w->active))
      return buf + r->cur * W;
   if (!r->pend) {
      int64_t eff = r->plain ? t : t + s->read_adj;
      if (eff >= r->ready)
         return buf + r->cur * W;
      if (w->run->code->hazard == ISA_HAZARD_WAIT_STATES) {
         int64_t need = wait_states_short(w, op, s, unit, t);
         if (need <= 0)
            return buf + r->cur * W;
         reg_event(w, EMU_EV_RAW, op, unit, r->pc, need);
         return buf + (r->cur ^ 1) * W;
      }
      reg_event(w, EMU_EV_RAW, op, unit, r->pc, r->ready - eff);
      return buf + (r->cur ^ 1) * W;
   }
   if (synced(w, r->pend, r->epoch))
      return buf + r->cur * W;
   reg_event(w, EMU_EV_SYNC, op, unit, r->pc, r->ready - t);
   return buf + (r->cur ^ 1) * W;
}

/* A read of a register that has no value when a wave starts (the model's
 * `undefined:`, gfx9 M0) before any write of the wave: the hardware reads
 * whatever an earlier wave left there. */
void
emu_check_unset(struct emu_wave *w, const struct emu_op *op)
{
   for (unsigned k = 0; k < op->nsrc; k++)
      if ((op->unset_srcs >> k & 1) && !w->meta[op->src[k].unit].lanes)
         reg_event(w, EMU_EV_UNSET, op, op->src[k].unit, op->addr, 0);
}

void
emu_mark_war(struct emu_wave *w, const struct emu_op *op, uint32_t unit, int64_t t)
{
   struct emu_reg *r = &w->meta[unit];
   r->war = op->war;
   r->war_lanes = w->active;
   r->war_epoch = w->sync_epoch[op->war];
   r->war_pc = op->addr;
   r->war_until = op->war_until >= 0 ? t + op->war_until : EMU_INF;
   r->war_done = t + (op->war_until >= 0 ? op->war_until : op->soft);
}

/* The VMEM type of a counter result, as LLVM's waitcnt pass has them
 * (D79176): 1 for a texture op that reads a sampler, else 0 (loads,
 * image loads, LDS). */
static uint8_t
order_type(const struct emu_op *op)
{
   return op->sem == ISA_SEM_IMAGE_SAMPLE || op->sem == ISA_SEM_IMAGE_LOD ||
          op->sem == ISA_SEM_IMAGE_GATHER4;
}

/* Whether op's result lands after the pending one in r whatever their
 * latencies: one counter that returns in issue order (never SMEM), and
 * one VMEM type on it. LLVM waits before such a write only when the
 * pending one is of another type. */
static bool
lands_in_order(const struct emu_op *op, const struct emu_reg *r)
{
   return (r->epoch & CNT_MARK) && !(r->epoch & CNT_UNORDERED) && op->sync == r->pend &&
          !op->unordered && order_type(op) == r->pend_type;
}

uint32_t *
emu_reg_write_slow(struct emu_wave *w, const struct emu_op *op, const struct emu_dst *dd,
                   uint32_t unit, int64_t t, uint32_t **cur)
{
   struct emu_reg *r = &w->meta[unit];
   unsigned W = w->S;
   uint32_t *buf = w->regs + (size_t)unit * 2 * W;
   if (r->war) {
      /* lanes the pending read left alone may overwrite at once */
      if (r->war_pc != op->addr && (r->war_lanes & w->active) && !synced(w, r->war, r->war_epoch) &&
          t < r->war_until)
         reg_event(w, EMU_EV_WAR, op, unit, r->war_pc, r->war_done - t);
      r->war = 0;
   }
   bool visible;
   if (r->pend) {
      visible = synced(w, r->pend, r->epoch);
      /* A write to lanes the pending one left alone does not race it (the
       * other side of a branch, after that side's lanes were killed). */
      if (!visible && (r->lanes & w->active) && !lands_in_order(op, r))
         reg_event(w, EMU_EV_WAW, op, unit, r->pc, r->ready - t);
   } else {
      visible = t >= r->ready;
   }
   *cur = buf + r->cur * W;
   if (visible)
      r->cur ^= 1;
   r->pc = op->addr;
   /* an earlier write still in flight keeps its lanes in the set */
   r->lanes = visible ? w->active : r->lanes | w->active;
   r->plain = dd->plain;
   if (op->sync) {
      r->pend = op->sync;
      r->pend_type = order_type(op);
      r->epoch = w->sync_epoch[op->sync];
      if (w->run->code->hazard == ISA_HAZARD_WAIT_STATES && op->sync <= 3)
         r->epoch = CNT_MARK | (op->unordered ? CNT_UNORDERED : 0) |
                    ((w->cnt_issued[op->sync] + 1) & CNT_SEQ);
      r->ready = emu_async_done(w, op, t);
   } else {
      r->pend = 0;
      r->ready = t + dd->lat;
   }
   return buf + r->cur * W;
}

/* The value the ending lanes' output sees: fixed-latency results have
 * drained (ending needs no delay), variable-latency ones need their sync
 * unless the pending write left these lanes alone (it was for lanes that
 * were killed, say, on the other side of a branch). */
const uint32_t *
emu_reg_final(struct emu_wave *w, uint32_t unit, uint64_t lanes, uint32_t pc)
{
   struct emu_reg *r = &w->meta[unit];
   unsigned W = w->S;
   uint32_t *buf = w->regs + (size_t)unit * 2 * W;
   if (r->pend && (r->lanes & lanes) && !synced(w, r->pend, r->epoch)) {
      int file;
      unsigned index;
      unit_reg(w->run->code, unit, &file, &index);
      emu_event(w, EMU_EV_SYNC, pc, file, index, r->pc, r->ready - w->cycle);
      return buf + (r->cur ^ 1) * W;
   }
   return buf + r->cur * W;
}
