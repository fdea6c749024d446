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
   return isa_hazard_kind(m) == ISA_HAZARD_DELAY_SLOTS ? 64 : 32;
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
   default:
      break;
   }
   emu_sync_note(w, op, t);
   w->insns++;
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
   w->insns++;
   w->lane_insns += (uint64_t)w->nactive * subs;
   w->pc++;
   w->cycle = t + op->advance;
   w->run->res->nops += op->nopn;
   w->run->res->stall_cycles += (uint64_t)op->idle;
   return true;
}

static void
run_wave(struct emu_wave *w)
{
   struct emu_run *run = w->run;
   const struct emu_code *c = run->code;
   bool fast_ok = !run->opt->trace;
   while (!w->done && !w->at_barrier && !run->stop) {
      if (w->pc < c->n && fast_ok && c->ops[w->pc].fast && !w->waiting &&
          (uint64_t)w->cycle <= run->max_cycles) {
         step_fast(w, &c->ops[w->pc]);
         continue;
      }
      if (w->pc >= c->n) {
         uint32_t end = c->n ? c->ops[c->n - 1].addr + c->ops[c->n - 1].size : 0;
         emu_event(w, EMU_EV_FELL_OFF, end, -1, 0, end, 0);
         w->done = true;
         break;
      }
      if ((uint64_t)w->cycle > run->max_cycles) {
         emu_event(w, EMU_EV_BUDGET, c->ops[w->pc].addr, -1, 0, c->ops[w->pc].addr, 0);
         run->stop = true;
         break;
      }
      step(w);
   }
}

/* ---- bindings ----------------------------------------------------------- */

static void
load_consts(struct emu_run *run)
{
   const struct emu_code *c = run->code;
   for (unsigned b = 0; b < c->nbinds; b++) {
      const struct emu_binding *bd = &c->binds[b];
      if (bd->kind != EMU_BIND_CONST && bd->kind != EMU_BIND_VALUE)
         continue;
      uint32_t base = 0;
      for (unsigned k = 0; k < c->ncbanks; k++)
         if (c->cbanks[k].file == bd->file && c->cbanks[k].bank == bd->bank)
            base = c->cbanks[k].base;
      run->cst[base + bd->index] = bd->kind == EMU_BIND_VALUE
                                       ? bd->value
                                       : env_const(run->env, bd->buffer, bd->tgsi_index, bd->chan);
   }
}

static void
load_inputs(struct emu_wave *w)
{
   struct emu_run *run = w->run;
   const struct emu_code *c = run->code;
   struct env *e = run->env;
   for (unsigned b = 0; b < c->nbinds; b++) {
      const struct emu_binding *bd = &c->binds[b];
      if (bd->kind != EMU_BIND_INPUT && bd->kind != EMU_BIND_SYSVAL)
         continue;
      uint32_t *r = w->regs + (size_t)(c->files[bd->file].base + bd->index) * 2 * run->W;
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

/* ---- waves and workgroups ------------------------------------------------- */

static void
wave_init(struct emu_wave *w, struct emu_run *run, uint32_t id, uint32_t first, uint32_t n)
{
   const struct emu_code *c = run->code;
   w->run = run;
   w->id = id;
   w->first_lane = first;
   w->n = n;
   w->W = run->W;
   w->cycle = 0;
   w->insns = w->lane_insns = 0;
   w->at_barrier = false;
   memset(w->regs, 0, (size_t)c->nunits * 2 * run->W * 4);
   memset(w->meta, 0, (size_t)c->nunits * sizeof(*w->meta));
   memset(w->sync_epoch, 0, sizeof(w->sync_epoch));
   memset(w->sync_ready, 0, sizeof(w->sync_ready));
   for (unsigned k = 0; k < EMU_NSYNC; k++)
      w->sync_set[k] = INT64_MIN;
   /* Fixed registers (RZ, PT) hold their value in both buffers, for
    * relative reads that land on them. */
   for (unsigned f = 0; f < c->nfiles; f++)
      if (c->files[f].fixed >= 0 && c->files[f].kind != ISA_FILE_CONST) {
         uint32_t *r =
             w->regs + (size_t)(c->files[f].base + (unsigned)c->files[f].fixed) * 2 * run->W;
         for (unsigned i = 0; i < 2 * run->W; i++)
            r[i] = c->files[f].fixed_value;
      }
   load_inputs(w);
   emu_flow_init(w, emu_lanes_all(n));
}

static void
run_group(struct emu_run *run, struct emu_group *g)
{
   for (;;) {
      for (unsigned i = 0; i < g->nwaves && !run->stop; i++)
         run_wave(&g->waves[i]);
      if (run->stop)
         return;
      /* Every wave still alive waits at a barrier: all go on. */
      unsigned alive = 0;
      int64_t latest = 0;
      for (unsigned i = 0; i < g->nwaves; i++) {
         struct emu_wave *w = &g->waves[i];
         alive += !w->done;
         latest = MAX2(latest, w->cycle);
      }
      if (!alive)
         return;
      for (unsigned i = 0; i < g->nwaves; i++) {
         struct emu_wave *w = &g->waves[i];
         if (w->at_barrier) {
            w->at_barrier = false;
            w->cycle = latest;
         }
      }
   }
}

static void
account(struct emu_run *run, struct emu_group *g)
{
   struct emu_result *r = run->res;
   for (unsigned i = 0; i < g->nwaves; i++) {
      uint64_t cy = (uint64_t)(g->waves[i].cycle < 0 ? 0 : g->waves[i].cycle);
      r->insns += g->waves[i].insns;
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
   g->waves = xcalloc(maxw, sizeof(*g->waves));
   for (unsigned i = 0; i < maxw; i++) {
      g->waves[i].regs = xmalloc(((size_t)c->nunits * 2 * run->W + 1) * 4);
      g->waves[i].meta = xmalloc(((size_t)c->nunits + 1) * sizeof(struct emu_reg));
      g->waves[i].exec = xmalloc(EMU_MAX_WAVE * 4);
      g->waves[i].grp = g;
   }
}

static void
free_group(struct emu_group *g, unsigned maxw)
{
   for (unsigned i = 0; i < maxw && g->waves; i++) {
      free(g->waves[i].regs);
      free(g->waves[i].meta);
      free(g->waves[i].exec);
   }
   free(g->waves);
   env_mem_fini(&g->shared);
}

static void
dispatch(struct emu_run *run)
{
   struct env *e = run->env;
   unsigned W = run->W;
   uint32_t glanes = W;
   if (e->stage == TGSI_STAGE_COMP) {
      uint64_t b = (uint64_t)MAX2(e->block_size[0], 1u) * MAX2(e->block_size[1], 1u) *
                   MAX2(e->block_size[2], 1u);
      glanes = b > ENV_MAX_LANES ? ENV_MAX_LANES : (uint32_t)b;
   }
   unsigned maxw = (glanes + W - 1) / W;
   struct emu_group g = {0};
   alloc_group(run, &g, maxw);
   uint32_t shared = e->shared_size ? e->shared_size : ENV_DEFAULT_SHARED;
   uint32_t wave_id = 0;
   for (uint32_t first = 0; first < e->nlanes && !run->stop; first += glanes) {
      uint32_t n = MIN2(glanes, e->nlanes - first);
      g.nwaves = (n + W - 1) / W;
      env_mem_init(&g.shared, (shared + 3) & ~3u, false);
      for (unsigned i = 0; i < g.nwaves; i++)
         wave_init(&g.waves[i], run, wave_id++, first + i * W, MIN2(W, n - i * W));
      run_group(run, &g);
      account(run, &g);
   }
   free_group(&g, maxw);
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
   run.cst = xcalloc(c->nconst + 1, 4);
   for (unsigned i = 0; i < ISA_MAX_SRC; i++)
      run.tmp_src[i] = xmalloc(EMU_MAX_WAVE * 4);
   for (unsigned i = 0; i < ISA_MAX_DST; i++)
      run.tmp_dst[i] = xmalloc(EMU_MAX_WAVE * 4);
   run.tmp_mask = xmalloc(EMU_MAX_WAVE * 4);
   run.tmp_comp = xmalloc(16 * EMU_MAX_WAVE * 4);
   load_consts(&run);
   dispatch(&run);
   free(run.cst);
   for (unsigned i = 0; i < ISA_MAX_SRC; i++)
      free(run.tmp_src[i]);
   for (unsigned i = 0; i < ISA_MAX_DST; i++)
      free(run.tmp_dst[i]);
   free(run.tmp_mask);
   free(run.tmp_comp);
   return r->status;
}
