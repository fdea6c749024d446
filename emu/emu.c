/*
 * emu_run: lays the env's lanes out in workgroups and waves, loads the
 * bindings (constants into the const store, inputs and system values into
 * registers), dispatches each wave's instructions, and collects outputs,
 * events and figures.
 *
 * Waves: e->nlanes lanes in waves of W (emu_wave_size, at most 64).
 * Compute shaders group lanes in workgroups of block_size lanes; a
 * workgroup's waves share its shared memory and meet at BARRIER: each wave
 * runs until it ends or reaches a barrier, and when every wave still alive
 * waits there, all continue from the latest arrival cycle. Other stages
 * run each wave on its own (a wave is its own group).
 *
 * Registers start at 0 except the bound ones. The cycle budget is per
 * wave; exhausting it stops the whole run with EMU_BUDGET.
 */
#include "emu/emu_priv.h"

#include <stdlib.h>

#define NAME_(n, s, ...) s,
#define DESC_(n, s, d)   d,
const char *const emu_event_names[EMU_EV_COUNT] = {EMU_EVENTS(NAME_)};
const char *const emu_event_descs[EMU_EV_COUNT] = {EMU_EVENTS(DESC_)};
const char *const emu_status_names[EMU_STATUS_COUNT] = {EMU_STATUSES(NAME_)};
#undef NAME_
#undef DESC_

unsigned
emu_wave_size(const struct isa_model *m)
{
   enum isa_hazard_kind h = isa_hazard_kind(m);
   return h == ISA_HAZARD_DELAY_SLOTS || h == ISA_HAZARD_WAIT_STATES ? 64 : 32;
}

void
emu_result_free(struct emu_result *r)
{
   free(r->events);
   memset(r, 0, sizeof(*r));
}

static void
trace_insn(struct emu_wave *w, const struct emu_op *op, int64_t t)
{
   struct emu_run *run = w->run;
   struct emu_trace tr = {
       .wave = w->id,
       .index = w->pc,
       .pc = op->addr,
       .cycle = (uint64_t)t,
       .stall = w->tr_stall,
       .active = w->nactive,
       .why = w->tr_why,
       .nwaited = run->tr_nwaited,
   };
   for (unsigned i = 0; i < run->tr_nwaited; i++) {
      tr.waited[i].file = run->tr_waited[i].file;
      tr.waited[i].index = run->tr_waited[i].index;
   }
   run->opt->trace(run->opt->trace_user, &tr);
}

/* One instruction: wait, execute every repeat, note the syncs it sets,
 * decide where the wave goes, advance the clock. */
static void
step(struct emu_wave *w)
{
   struct emu_run *run = w->run;
   const struct emu_code *c = run->code;
   const struct emu_op *op = &c->ops[w->pc];
   int64_t t = emu_issue_wait(w, op);
   unsigned subs = op->rpt + 1u;
   if (op->unset_srcs)
      emu_check_unset(w, op);
   switch (op->kind) {
   case EMU_K_ALU:
      for (unsigned k = 0; k < subs; k++)
         emu_exec_alu(w, op, t + k, k);
      break;
   case EMU_K_TEX:
      emu_exec_tex(w, op, t);
      break;
   case EMU_K_LOAD:
   case EMU_K_STORE:
      emu_exec_mem(w, op, t);
      break;
   case EMU_K_LDC:
      emu_exec_ldc(w, op, t);
      break;
   case EMU_K_ATOMIC:
      emu_exec_atomic(w, op, t);
      break;
   case EMU_K_XLANE:
      emu_exec_xlane(w, op, t);
      break;
   case EMU_K_WIDE:
      emu_exec_wide(w, op, t);
      break;
   case EMU_K_SALU:
      emu_exec_salu(w, op, t);
      break;
   case EMU_K_AST:
      emu_exec_ast(w, op, t);
      break;
   case EMU_K_EMIT:
      emu_exec_emit(w, op, t);
      break;
   default:
      break;
   }
   if (op->writes_exec)
      emu_exec_update(w);
   emu_sync_note(w, op, t);
   w->insns += MAX2(w->nmembers, 1u);
   w->lane_insns += (uint64_t)w->nactive * subs;
   if (run->opt->trace)
      trace_insn(w, op, t);
   emu_flow_step(w, op, t);
   emu_issue_done(w, op, t);
}

/* The common case, an ALU instruction without waits in a wave without
 * parked lanes and no trace: no flow decisions, no sync bookkeeping. */
static inline bool
step_fast(struct emu_wave *w, const struct emu_op *op)
{
   int64_t t = w->cycle;
   unsigned subs = op->rpt + 1u;
   for (unsigned k = 0; k < subs; k++)
      emu_exec_alu(w, op, t + k, k);
   if (op->sync | op->war)
      emu_sync_note(w, op, t);
   unsigned m = MAX2(w->nmembers, 1u); /* a batch counts for each wave */
   w->insns += m;
   w->lane_insns += (uint64_t)w->nactive * subs;
   w->pc++;
   w->cycle = t + op->advance;
   if (op->nopn | op->idle) {
      w->run->res->nops += (uint64_t)op->nopn * m;
      w->run->res->stall_cycles += (uint64_t)op->idle * m;
   }
   return true;
}

/* ---- bindings ----------------------------------------------------------- */

/* EMU_BIND_SIZE: a component of a resource's size, 0 if unbound. */
static uint32_t
size_of(const struct env *e, const struct emu_binding *b)
{
   unsigned i = b->tgsi_index, c = b->chan & 3;
   switch (b->buffer) {
   case TGSI_FILE_BUFFER:
      return i < ENV_MAX_BUFFERS && !c && e->buf[i].data ? e->buf[i].size : 0;
   case TGSI_FILE_MEMORY:
      return c ? 0 : e->shared_size;
   case TGSI_FILE_IMAGE:
      if (i >= ENV_MAX_IMAGES || !e->img[i].bound)
         return 0;
      return c == 0 ? e->img[i].width : c == 1 ? e->img[i].height : c == 2 ? e->img[i].depth : 0;
   default: { /* a texture: its level-0 size, as TXQ gives it */
      uint32_t q[4] = {0, 0, 0, 0};
      if (i < ENV_MAX_TEXTURES && e->tex[i].bound) {
         uint32_t sz[3];
         env_tex_size(&e->tex[i], 0, sz);
         q[0] = sz[0];
         q[1] = sz[1];
         q[2] = sz[2];
         q[3] = e->tex[i].levels;
      }
      return q[c];
   }
   }
}

/* The const store word of binding bd, or -1 when bd binds no constant. */
static int64_t
const_word(const struct emu_code *c, const struct emu_binding *bd)
{
   if ((bd->kind != EMU_BIND_CONST && bd->kind != EMU_BIND_VALUE && bd->kind != EMU_BIND_SIZE) ||
       c->files[bd->file].kind != ISA_FILE_CONST)
      return -1;
   uint32_t base = 0;
   for (unsigned k = 0; k < c->ncbanks; k++)
      if (c->cbanks[k].file == bd->file && c->cbanks[k].bank == bd->bank)
         base = c->cbanks[k].base;
   return (int64_t)base + bd->index;
}

static void
load_draw_consts(struct emu_run *run, uint32_t draw, uint32_t *cst)
{
   const struct emu_code *c = run->code;
   for (unsigned b = 0; b < c->nbinds; b++) {
      const struct emu_binding *bd = &c->binds[b];
      int64_t w = const_word(c, bd);
      if (w < 0)
         continue;
      cst[w] = bd->kind == EMU_BIND_VALUE ? bd->value
               : bd->kind == EMU_BIND_SIZE
                   ? size_of(run->env, bd)
                   : env_const(run->env, bd->buffer, bd->tgsi_index, bd->chan, draw);
   }
}

/* The const store of every draw of the env. */
static void
load_consts(struct emu_run *run)
{
   for (uint32_t d = 0; d < run->env->ndraws; d++)
      load_draw_consts(run, d, run->cst + (size_t)d * run->cst_stride);
}

static void
load_inputs(struct emu_wave *w)
{
   struct emu_run *run = w->run;
   const struct emu_code *c = run->code;
   struct env *e = run->env;
   for (unsigned b = 0; b < c->nbinds; b++) {
      const struct emu_binding *bd = &c->binds[b];
      uint32_t *r = w->regs + (size_t)(c->files[bd->file].base + bd->index) * 2 * w->S;
      if (bd->kind == EMU_BIND_CONST || bd->kind == EMU_BIND_VALUE || bd->kind == EMU_BIND_SIZE) {
         /* A uniform register (gfx9 SGPR arguments) holds a constant: the
          * value of each lane's draw, as the const store has it. */
         if (c->files[bd->file].kind == ISA_FILE_CONST)
            continue;
         if (w->draw >= 0 && bd->kind == EMU_BIND_CONST && w->n) { /* one draw: one value */
            uint64_t oob = e->events[ENV_EV_CONST_OOB];
            uint32_t v = env_const(e, bd->buffer, bd->tgsi_index, bd->chan, (uint32_t)w->draw);
            if (e->events[ENV_EV_CONST_OOB] != oob) /* counted per lane, as lane by lane */
               env_count(e, ENV_EV_CONST_OOB, w->n - 1);
            for (uint32_t i = 0; i < w->n; i++)
               r[i] = v;
            continue;
         }
         for (uint32_t i = 0; i < w->n; i++)
            r[i] = bd->kind == EMU_BIND_VALUE  ? bd->value
                   : bd->kind == EMU_BIND_SIZE ? size_of(e, bd)
                                               : env_const(e, bd->buffer, bd->tgsi_index, bd->chan,
                                                           env_draw(e, w->first_lane + i));
         continue;
      }
      if (bd->kind != EMU_BIND_INPUT && bd->kind != EMU_BIND_SYSVAL)
         continue;
      const uint32_t *src = NULL;
      if (bd->kind == EMU_BIND_INPUT && bd->tgsi_index < e->nin && bd->vertex < e->in_vertices)
         src = env_in(e, bd->vertex, bd->tgsi_index, bd->chan);
      else if (bd->kind == EMU_BIND_SYSVAL && e->sv[bd->tgsi_index])
         src = e->sv[bd->tgsi_index] + (size_t)bd->chan * e->nlanes;
      if (!src) {
         env_count(e, ENV_EV_INPUT_OOB, w->n);
         continue;
      }
      memcpy(r, src + w->first_lane, w->n * 4);
   }
}

static bool
check_env(const struct emu_code *c, const struct env *e, struct diag_list *d)
{
   for (unsigned b = 0; b < c->nbinds; b++) {
      const struct emu_binding *bd = &c->binds[b];
      if (bd->kind == EMU_BIND_OUTPUT &&
          (!e->out || bd->tgsi_index >= e->nout || bd->vertex >= e->out_vertices)) {
         diag_add(d, DIAG_ERROR, "<program>", 0, 0, NULL,
                  "binding %u: OUT[%u] (vertex %u) is not among the env's outputs", b,
                  bd->tgsi_index, bd->vertex);
         return false;
      }
   }
   if (e->nlanes && !e->killed) {
      diag_add(d, DIAG_ERROR, "<program>", 0, 0, NULL, "the env has no kill flags");
      return false;
   }
   return true;
}

/* ---- waves, batches and groups ------------------------------------------ */

static void
wave_reset(struct emu_wave *w, struct emu_run *run, uint32_t id, uint32_t first, uint32_t n,
           uint32_t nmembers)
{
   w->run = run;
   w->id = id;
   w->first_lane = first;
   w->n = n;
   const struct env *e = run->env;
   w->draw =
       n && env_draw(e, first) == env_draw(e, first + n - 1) ? (int32_t)env_draw(e, first) : -1;
   for (uint32_t i = 1; w->draw >= 0 && e->lane_draw && i + 1 < n; i++)
      if (e->lane_draw[first + i] != (uint32_t)w->draw)
         w->draw = -1;
   w->nruns = 0;
   for (uint32_t i = 0; w->draw < 0 && i < n; i++)
      if (!i || e->lane_draw[first + i] != e->lane_draw[first + i - 1])
         w->run_at[w->nruns++] = i;
   w->run_at[w->nruns] = n;
   w->nmembers = nmembers;
   w->cycle = 0;
   w->insns = w->lane_insns = 0;
   w->at_barrier = false;
   /* Bound and initial values were written long before the first
    * instruction: visible to any read, however early it reads. Only the
    * units the program touches have a timing state: no other is ever
    * read (emu_reg_read and emu_reg_write assert it). */
   for (unsigned i = 0; i < run->code->ntouched; i++)
      w->meta[run->code->touched[i]] = (struct emu_reg){.ready = EMU_LONG_AGO};
   memset(w->sync_epoch, 0, sizeof(w->sync_epoch));
   memset(w->cnt_issued, 0, sizeof(w->cnt_issued));
   memset(w->cnt_ooo, 0, sizeof(w->cnt_ooo));
   memset(w->sync_ready, 0, sizeof(w->sync_ready));
   memset(w->sync_count, 0, sizeof(w->sync_count));
   for (unsigned k = 0; k < EMU_NSYNC; k++)
      w->sync_set[k] = INT64_MIN;
   emu_flow_init(w, emu_lanes_all(n));
   emu_exec_init(w);
}

/* Which units load_inputs fills in every lane of each wave (a bound
 * input or system value the env has, a constant in a uniform register):
 * a group need not clear those lanes first. */
static uint8_t *
bound_units(const struct emu_run *run)
{
   const struct emu_code *c = run->code;
   const struct env *e = run->env;
   uint8_t *f = xcalloc((size_t)c->nunits + 1, 1);
   for (unsigned b = 0; b < c->nbinds; b++) {
      const struct emu_binding *bd = &c->binds[b];
      bool fills = false;
      if (bd->kind == EMU_BIND_CONST || bd->kind == EMU_BIND_VALUE || bd->kind == EMU_BIND_SIZE)
         fills = c->files[bd->file].kind != ISA_FILE_CONST;
      else if (bd->kind == EMU_BIND_INPUT)
         fills = bd->tgsi_index < e->nin && bd->vertex < e->in_vertices;
      else if (bd->kind == EMU_BIND_SYSVAL)
         fills = e->sv[bd->tgsi_index] != NULL;
      if (fills)
         f[c->files[bd->file].base + bd->index] = 1;
   }
   return f;
}

/* Registers start at 0 (only those the program can touch are cleared, in
 * the lanes of the group's nw waves; the lanes of a bound unit past the
 * group's n, load_inputs writing the others); fixed registers (RZ, PT)
 * hold their value in both buffers, for relative reads that land on
 * them. */
static void
group_clear(struct emu_run *run, struct emu_group *g, const uint8_t *bound, uint32_t n, unsigned nw)
{
   const struct emu_code *c = run->code;
   size_t end = MIN2((size_t)nw * run->W, (size_t)g->S);
   /* Only the first buffer: a write that moves to the second writes every
    * lane of its wave (merging the masked ones), so no read sees the
    * second buffer before that. */
   for (unsigned i = 0; i < c->ntouched; i++) {
      size_t from = bound[c->touched[i]] ? MIN2((size_t)n, end) : 0;
      memset(g->regs + (size_t)c->touched[i] * 2 * g->S + from, 0, (end - from) * 4);
   }
   for (unsigned f = 0; f < c->nfiles; f++)
      if (c->files[f].fixed >= 0 && c->files[f].kind != ISA_FILE_CONST) {
         uint32_t *r =
             g->regs + (size_t)(c->files[f].base + (unsigned)c->files[f].fixed) * 2 * g->S;
         for (unsigned i = 0; i < 2 * g->S; i++)
            r[i] = c->files[f].fixed_value;
      }
}

/* The sync flags, scoreboards and wait counters of s, as d's. */
static void
copy_sync(struct emu_wave *d, const struct emu_wave *s)
{
   memcpy(d->sync_epoch, s->sync_epoch, sizeof(d->sync_epoch));
   memcpy(d->cnt_issued, s->cnt_issued, sizeof(d->cnt_issued));
   memcpy(d->cnt_ooo, s->cnt_ooo, sizeof(d->cnt_ooo));
   memcpy(d->sync_ready, s->sync_ready, sizeof(d->sync_ready));
   memcpy(d->sync_count, s->sync_count, sizeof(d->sync_count));
   memcpy(d->sync_set, s->sync_set, sizeof(d->sync_set));
   memcpy(d->sync_pc, s->sync_pc, sizeof(d->sync_pc));
}

/* The batch's waves take over its state and go on alone. */
static void
split(struct emu_run *run, struct emu_group *g)
{
   struct emu_wave *b = &g->batch;
   for (unsigned i = 0; i < g->nwaves; i++) {
      struct emu_wave *w = &g->waves[i];
      for (unsigned k = 0; k < run->code->ntouched; k++)
         w->meta[run->code->touched[k]] = b->meta[run->code->touched[k]];
      copy_sync(w, b);
      w->nstack = b->nstack; /* a rejoined batch keeps its waves' stack */
      memcpy(w->stack, b->stack, b->nstack * sizeof(*b->stack));
      w->cycle = b->cycle;
      w->pc = b->pc;
      w->at_barrier = b->at_barrier;
      w->done = b->done;
   }
   g->batched = false;
}

/* One instruction of w (a wave or the batch); false when w cannot go on
 * now: it is done, at a barrier, the run stopped or the batch split. */
static inline bool
unit_step(struct emu_group *g, struct emu_wave *w)
{
   struct emu_run *run = w->run;
   const struct emu_code *c = run->code;
   const struct emu_op *op = w->pc < c->n ? &c->ops[w->pc] : NULL;
   if (w->nmembers && op && !op->batch) {
      split(run, g);
      g->held = g->armed = g->lockstep;
      return false;
   }
   if (op && op->fast && !run->opt->trace && !w->waiting && (uint64_t)w->cycle <= run->max_cycles) {
      step_fast(w, op);
      return true;
   }
   if (!op) {
      uint32_t end = c->n ? c->ops[c->n - 1].addr + c->ops[c->n - 1].size : 0;
      emu_event(w, EMU_EV_FELL_OFF, end, -1, 0, end, 0);
      w->done = true;
      return false;
   }
   if ((uint64_t)w->cycle > run->max_cycles) {
      emu_event(w, EMU_EV_BUDGET, op->addr, -1, 0, op->addr, 0);
      run->stop = true;
      /* waves run one after the other would not all have come this far */
      run->replay = g->held;
      return false;
   }
   g->armed |= !op->batch;
   step(w);
   return !w->done && !w->at_barrier && !run->stop;
}

static void
run_unit(struct emu_group *g, struct emu_wave *w)
{
   while (!w->done && !w->at_barrier && !w->run->stop && unit_step(g, w))
      ;
}

/* ---- interleaved waves and rejoining ------------------------------------ */

/* Lanes x of a wave whose lanes are all: 0 none, 1 all, 2 some. */
static int
lanes_kind(uint64_t x, uint64_t all)
{
   x &= all;
   return x == 0 ? 0 : x == all ? 1 : 2;
}

/* Whether unit state a (of a wave with lanes alla) and b (allb) make the
 * same future for a batch. A value every later read sees at once (no
 * pending sync, ready by the earliest read of cycle `settled` on) needs
 * only whether a write covered any lane (emu_check_unset); otherwise the
 * lanes of the newest write and of a pending read decide hazards, and a
 * batch knows only all or none. */
static bool
same_reg(const struct emu_reg *a, uint64_t alla, const struct emu_reg *b, uint64_t allb,
         int64_t settled)
{
   if (a->ready != b->ready || a->pc != b->pc || a->cur != b->cur || a->plain != b->plain ||
       a->pend != b->pend || a->war != b->war)
      return false;
   if (a->pend && (a->epoch != b->epoch || a->pend_type != b->pend_type))
      return false;
   if (a->war) {
      int k = lanes_kind(a->war_lanes, alla);
      if (k == 2 || k != lanes_kind(b->war_lanes, allb) || a->war_until != b->war_until ||
          a->war_done != b->war_done || a->war_pc != b->war_pc || a->war_epoch != b->war_epoch)
         return false;
   }
   if (!a->pend && a->ready <= settled)
      return ((a->lanes & alla) != 0) == ((b->lanes & allb) != 0);
   int k = lanes_kind(a->lanes, alla);
   return k != 2 && k == lanes_kind(b->lanes, allb);
}

static bool
same_wave(const struct emu_run *run, const struct emu_wave *a, const struct emu_wave *b)
{
   const struct emu_code *c = run->code;
   uint64_t alla = emu_lanes_all(a->n), allb = emu_lanes_all(b->n);
   if (memcmp(a->sync_epoch, b->sync_epoch, sizeof(a->sync_epoch)) ||
       memcmp(a->cnt_issued, b->cnt_issued, sizeof(a->cnt_issued)) ||
       memcmp(a->cnt_ooo, b->cnt_ooo, sizeof(a->cnt_ooo)) ||
       memcmp(a->sync_ready, b->sync_ready, sizeof(a->sync_ready)) ||
       memcmp(a->sync_set, b->sync_set, sizeof(a->sync_set)) ||
       memcmp(a->sync_pc, b->sync_pc, sizeof(a->sync_pc)) ||
       memcmp(a->sync_count, b->sync_count, sizeof(a->sync_count)))
      return false;
   for (unsigned k = 0; k < a->nstack; k++) {
      const struct emu_stack_ent *x = &a->stack[k], *y = &b->stack[k];
      int lk = lanes_kind(x->lanes, alla);
      if (x->kind != y->kind || x->pc != y->pc || lk == 2 || lk != lanes_kind(y->lanes, allb))
         return false;
   }
   int64_t settled = a->cycle + c->min_read_adj;
   for (unsigned k = 0; k < c->ntouched; k++) {
      uint32_t u = c->touched[k];
      if (!same_reg(&a->meta[u], alla, &b->meta[u], allb, settled))
         return false;
   }
   return true;
}

/* The waves join their batch again when all are back in lockstep: at one
 * pc and cycle, every lane live and active, nothing parked, the same
 * timing state (same_wave) and the next instruction one a batch runs. */
static bool
rejoin(struct emu_run *run, struct emu_group *g)
{
   const struct emu_code *c = run->code;
   const struct emu_wave *w0 = &g->waves[0];
   if (w0->pc >= c->n || !c->ops[w0->pc].batch)
      return false;
   for (unsigned i = 0; i < g->nwaves; i++) {
      const struct emu_wave *w = &g->waves[i];
      uint64_t all = emu_lanes_all(w->n);
      if (w->done || w->at_barrier || w->pc != w0->pc || w->cycle != w0->cycle || w->live != all ||
          w->active != all || w->waiting || w->nstack != w0->nstack)
         return false;
   }
   g->armed = false; /* until a wave runs another instruction a batch cannot */
   for (unsigned i = 1; i < g->nwaves; i++)
      if (!same_wave(run, w0, &g->waves[i]))
         return false;
   struct emu_wave *b = &g->batch;
   uint64_t all0 = emu_lanes_all(w0->n), ball = emu_lanes_all(b->n);
   int64_t settled = w0->cycle + c->min_read_adj;
   for (unsigned k = 0; k < c->ntouched; k++) {
      uint32_t u = c->touched[k];
      struct emu_reg r = w0->meta[u];
      r.lanes = (r.lanes & all0) == 0                                         ? 0
                : (r.lanes & all0) == all0 || (!r.pend && r.ready <= settled) ? ball
                                                                              : 0;
      r.war_lanes = (r.war_lanes & all0) == all0 ? ball : 0;
      b->meta[u] = r;
   }
   copy_sync(b, w0);
   b->nstack = w0->nstack;
   for (unsigned k = 0; k < w0->nstack; k++) {
      b->stack[k] = w0->stack[k];
      b->stack[k].lanes = (w0->stack[k].lanes & all0) ? ball : 0;
   }
   b->pc = w0->pc;
   b->cycle = w0->cycle;
   b->done = b->at_barrier = false;
   b->live = ball;
   b->waiting = 0;
   emu_set_active(b, ball);
   g->batched = true;
   return true;
}

/* Whether the waves that run are all at one pc and cycle, none done or
 * at a barrier: in step, as a rejoin needs them. */
static bool
in_step(const struct emu_group *g)
{
   const struct emu_wave *w0 = &g->waves[0];
   for (unsigned i = 0; i < g->nwaves; i++) {
      const struct emu_wave *w = &g->waves[i];
      if (w->done || w->at_barrier || w->pc != w0->pc || w->cycle != w0->cycle)
         return false;
   }
   return true;
}

/* The waves of a split batch in turn, until none can go on or they join
 * the batch again. Waves in step run one step each in turn, or up to the
 * next instruction a batch cannot run (where they may come back into
 * lockstep: the rejoin test follows each turn); waves out of step (at
 * other pcs or cycles, after a branch that went another way in some
 * wave) run EMU_STRETCH steps each, so that one wave's registers and
 * timing state stay in the data cache for a while (one step per wave in
 * turn went through every wave's state between two steps of one: sm50's
 * 16 waves hold about 100 KB). Waves run in any order get the same
 * results: a lockstep program shares no memory between them, and their
 * events are held per wave. */
#define EMU_STRETCH 256

static void
run_interleaved(struct emu_run *run, struct emu_group *g)
{
   const struct emu_code *c = run->code;
   bool near = true;
   for (;;) {
      bool any = false;
      for (unsigned i = 0; i < g->nwaves; i++) {
         struct emu_wave *w = &g->waves[i];
         if (w->done || w->at_barrier)
            continue;
         any = true;
         for (unsigned k = 0; k < EMU_STRETCH; k++) {
            uint32_t pc = w->pc;
            bool on = unit_step(g, w);
            if (run->stop)
               return;
            if (!on || (near && (pc >= c->n || !c->ops[pc].batch)))
               break;
         }
      }
      if (!any || (g->armed && rejoin(run, g)))
         return;
      near = in_step(g);
   }
}

/* The events held per wave, listed in wave order. */
static void
flush_held(struct emu_run *run, struct emu_group *g)
{
   struct emu_result *r = run->res;
   for (unsigned i = 0; i < g->nwaves; i++) {
      struct emu_evbuf *b = &g->evb[i];
      for (unsigned j = 0; j < b->n && r->nevents < run->max_events; j++)
         VEC_PUSH(r->events, r->nevents, r->events_cap, b->ev[j]);
      b->n = 0;
   }
}

static void
run_group(struct emu_run *run, struct emu_group *g)
{
   for (;;) {
      if (g->batched)
         run_unit(g, &g->batch);
      if (g->held && !g->batched && !run->stop)
         run_interleaved(run, g);
      for (unsigned i = 0; i < g->nwaves && !run->stop && !g->batched; i++)
         run_unit(g, &g->waves[i]);
      if (run->stop)
         return;
      if (g->batched && !g->batch.done && !g->batch.at_barrier)
         continue; /* it split: run the waves */
      /* Every wave still alive waits at a barrier: all go on. */
      struct emu_wave *v = g->batched ? &g->batch : g->waves;
      unsigned nv = g->batched ? 1 : g->nwaves, alive = 0;
      int64_t latest = 0;
      for (unsigned i = 0; i < nv; i++) {
         alive += !v[i].done;
         latest = MAX2(latest, v[i].cycle);
      }
      if (!alive)
         return;
      /* the waves run one after the other would each have come here first */
      if (g->held)
         flush_held(run, g);
      for (unsigned i = 0; i < nv; i++)
         if (v[i].at_barrier) {
            v[i].at_barrier = false;
            v[i].cycle = latest;
         }
   }
}

static void
account(struct emu_run *run, struct emu_group *g)
{
   struct emu_result *r = run->res;
   r->insns += g->batch.insns;
   r->lane_insns += g->batch.lane_insns;
   for (unsigned i = 0; i < g->nwaves; i++) {
      struct emu_wave *w = g->batched ? &g->batch : &g->waves[i];
      uint64_t cy = (uint64_t)(w->cycle < 0 ? 0 : w->cycle);
      r->insns += g->waves[i].insns; /* 0 for waves that never ran alone */
      r->lane_insns += g->waves[i].lane_insns;
      r->wave_cycles += cy;
      r->cycles = MAX2(r->cycles, cy);
      r->waves++;
   }
}

static void
alloc_group(struct emu_run *run, struct emu_group *g, unsigned maxw)
{
   const struct emu_code *c = run->code;
   size_t units = (size_t)c->nunits + 1;
   /* Half a wave more than the group's lanes: a unit's buffers would
    * otherwise lie a power of two apart, and one wave's registers would
    * all fall into the same few sets of the data cache. */
   g->S = maxw * run->W + run->W / 2;
   g->regs = xaligned_alloc(64, units * 2 * g->S * 4);
   g->waves = xcalloc(maxw, sizeof(*g->waves));
   for (unsigned i = 0; i < maxw; i++) {
      struct emu_wave *w = &g->waves[i];
      w->regs = g->regs + (size_t)i * run->W;
      w->S = g->S;
      /* wave_reset: the touched units; one cache line each */
      w->meta = xaligned_alloc(64, units * sizeof(struct emu_reg));
      w->exec = xmalloc(EMU_MAX_WAVE * 4);
      w->run_at = xmalloc((EMU_MAX_WAVE + 1) * sizeof(*w->run_at));
      w->grp = g;
   }
   g->batch.regs = g->regs;
   g->batch.S = g->S;
   g->batch.meta = xaligned_alloc(64, units * sizeof(struct emu_reg));
   g->batch.exec = xmalloc((size_t)g->S * 4);
   g->batch.run_at = xmalloc(((size_t)g->S + 1) * sizeof(*g->batch.run_at));
   g->batch.grp = g;
   g->evb = xcalloc(maxw, sizeof(*g->evb));
}

static void
free_group(struct emu_group *g, unsigned maxw)
{
   for (unsigned i = 0; i < maxw && g->waves; i++) {
      free(g->waves[i].meta);
      free(g->waves[i].exec);
      free(g->waves[i].run_at);
   }
   free(g->waves);
   for (unsigned i = 0; i < maxw && g->evb; i++)
      free(g->evb[i].ev);
   free(g->evb);
   free(g->batch.meta);
   free(g->batch.exec);
   free(g->batch.run_at);
   free(g->regs);
   env_mem_fini(&g->shared);
}

/* Lanes per group: a compute workgroup; otherwise up to EMU_BATCH_LANES
 * (one wave when the program uses shared memory, which is per group). */
static uint32_t
group_lanes(const struct emu_run *run)
{
   const struct env *e = run->env;
   unsigned W = run->W;
   if (e->stage == TGSI_STAGE_COMP) {
      uint64_t b = (uint64_t)MAX2(e->block_size[0], 1u) * MAX2(e->block_size[1], 1u) *
                   MAX2(e->block_size[2], 1u);
      return b > ENV_MAX_LANES ? ENV_MAX_LANES : (uint32_t)b;
   }
   if (run->code->uses_shared || run->opt->trace || run->opt->no_batch)
      return W;
   uint32_t n = MIN2(e->nlanes, (uint32_t)EMU_BATCH_LANES);
   return (n + W - 1) / W * W;
}

static void
dispatch(struct emu_run *run)
{
   struct env *e = run->env;
   unsigned W = run->W;
   uint32_t glanes = group_lanes(run);
   unsigned maxw = (glanes + W - 1) / W;
   struct emu_group g = {0};
   alloc_group(run, &g, maxw);
   uint8_t *bound = bound_units(run);
   uint32_t shared = e->shared_size ? e->shared_size : ENV_DEFAULT_SHARED;
   uint32_t wave_id = 0;
   for (uint32_t first = 0; first < e->nlanes && !run->stop; first += glanes) {
      uint32_t n = MIN2(glanes, e->nlanes - first);
      g.nwaves = (n + W - 1) / W;
      if (run->code->uses_shared) /* no other program reads or writes it */
         env_mem_init(&g.shared, (shared + 3) & ~3u, false);
      group_clear(run, &g, bound, n, g.nwaves);
      for (unsigned i = 0; i < g.nwaves; i++) {
         wave_reset(&g.waves[i], run, wave_id + i, first + i * W, MIN2(W, n - i * W), 0);
         load_inputs(&g.waves[i]);
      }
      /* Shared memory makes waves talk: keep running them one after the
       * other to each barrier, so that a missing barrier shows. */
      g.batched =
          g.nwaves > 1 && !run->opt->trace && !run->opt->no_batch && !run->code->uses_shared;
      if (g.batched)
         wave_reset(&g.batch, run, wave_id, first, n, g.nwaves);
      else /* account() adds them: not an earlier group's */
         g.batch.insns = g.batch.lane_insns = 0;
      g.lockstep = g.batched && run->code->lockstep && !run->no_lockstep;
      g.held = g.armed = false;
      wave_id += g.nwaves;
      run_group(run, &g);
      if (g.held)
         flush_held(run, &g);
      account(run, &g);
   }
   free_group(&g, maxw);
   free(bound);
}

enum emu_status
emu_run(const struct emu_code *c, struct env *e, const struct emu_options *o, struct emu_result *r,
        struct diag_list *d)
{
   static const struct emu_options none = {0};
   memset(r, 0, sizeof(*r));
   if (!o)
      o = &none;
   if (!check_env(c, e, d))
      return r->status = EMU_ERR_ENV;
   env_reset_outputs(e); /* outputs UNDEF until a lane writes them; kills and events cleared */
   struct emu_run run = {
       .code = c,
       .env = e,
       .opt = o,
       .res = r,
       .W = o->wave_size ? MIN2(o->wave_size, EMU_MAX_WAVE) : emu_wave_size(c->model),
       .max_cycles = o->max_cycles ? o->max_cycles : EMU_DEFAULT_MAX_CYCLES,
       .max_events = o->max_events ? o->max_events : EMU_DEFAULT_MAX_EVENTS,
   };
   r->wave_size = run.W;
   /* The store holds the words up to the last bound one: the rest of the
    * const files read 0 (emu_cst_word), so a run does not clear them for
    * every draw. */
   for (unsigned b = 0; b < c->nbinds; b++)
      run.cst_used = (uint32_t)MAX2((int64_t)run.cst_used, const_word(c, &c->binds[b]) + 1);
   run.cst_stride = run.cst_used + 1;
   run.cst = xcalloc((size_t)e->ndraws * run.cst_stride, 4);
   run.maxlanes = MAX2(group_lanes(&run), run.W);
   size_t sz = (size_t)run.maxlanes * 4;
   for (unsigned i = 0; i < ISA_MAX_SRC; i++)
      run.tmp_src[i] = xmalloc(sz);
   for (unsigned i = 0; i < ISA_MAX_DST; i++)
      run.tmp_dst[i] = xmalloc(sz);
   run.tmp_mask = xmalloc(sz);
   run.tmp_comp = xmalloc(21 * sz);
   load_consts(&run);
   if (emu_gs_begin(&run, d)) {
      dispatch(&run);
      if (run.replay) { /* again with the waves one after the other */
         emu_result_free(r);
         r->wave_size = run.W;
         env_reset_outputs(e);
         run.stop = run.replay = false;
         run.no_lockstep = true;
         run.last = (struct emu_event){0};
         dispatch(&run);
      }
   } else
      r->status = EMU_ERR_ENV;
   free(run.cst);
   free(run.gs_prims);
   for (unsigned i = 0; i < ISA_MAX_SRC; i++)
      free(run.tmp_src[i]);
   for (unsigned i = 0; i < ISA_MAX_DST; i++)
      free(run.tmp_dst[i]);
   free(run.tmp_mask);
   free(run.ones);
   for (unsigned k = 0; k < ISA_MAX_SRC; k++)
      for (unsigned i = 0; i < EMU_UNI_SLOTS; i++)
         free(run.uni[k][i].buf);
   free(run.tmp_comp);
   return r->status;
}
