/*
 * The emulator does not share isa/delay.c with the compilers. This program
 * is linked with a copy of isa/delay.c in which one bug is planted
 * (emu/tests/cli.cmake makes the copies; the copy's symbols win over the
 * library's), so isa_delay() answers wrong for everyone who asks it. It
 * lays out producer/consumer pairs the way a compiler trusting that answer
 * would -- the nops, stall count or wait states it asks for, the sync it
 * names and no other -- and wants the emulator to flag the read (raw or
 * sync). If the emulator asked isa_delay() too, it would agree with the
 * wrong answer and see nothing.
 *
 *   latency     a fixed latency one short (a3xx delay slots, sm50 stall counts)
 *   sync        a variable-latency class's sync forgotten (a3xx (ss)/(sy),
 *               sm50 scoreboards)
 *   waitstates  a row of the wait-state table one short (gfx9)
 *
 * Before the layouts, each case checks that the plant took effect (the
 * answer differs from the model's own facts), so the test cannot pass
 * vacuously on an unplanted copy.
 */
#include "emu/tests/emu_test_util.h"

static bool
parse(const struct isa_model *m, const char *text, struct isa_insn *in)
{
   struct diag_list d = {0};
   bool ok = isa_parse_insn(m, text, in, &d) == ISA_ERR_OK;
   CHECKF(ok, "parse '%s'", text);
   diag_clear(&d);
   return ok;
}

/* isa_delay's answer for the producer's first destination against every
 * source of the consumer: the largest distance, and a sync if any source
 * needs one. */
static struct isa_delay
answer(const struct isa_model *m, const char *p, const char *c)
{
   struct isa_delay r = {0, ISA_SYNC_NONE};
   struct isa_insn a, b;
   if (!parse(m, p, &a) || !parse(m, c, &b))
      return r;
   for (unsigned s = 0; s < b.nsrc; s++) {
      struct isa_delay d = isa_delay(m, &a, ISA_SLOT_DST(0), &b, ISA_SLOT_SRC(s));
      if (d.sync != ISA_SYNC_NONE)
         r.sync = d.sync;
      r.distance = MAX2(r.distance, d.distance);
   }
   return r;
}

/* The producer's class as the model gives it. */
static struct isa_class_info
producer_class(const struct isa_model *m, const char *p)
{
   struct isa_class_info ci = {0};
   struct isa_insn a;
   if (parse(m, p, &a))
      isa_class_info(m, a.cls, &ci);
   return ci;
}

/* Runs a program; the number of raw and sync events. */
static uint64_t
hazards(const struct isa_model *m, const char *text)
{
   struct fix_run r;
   bool ran = fix_run_text(m, text, "plant", 1, 1, NULL, &r);
   CHECKF(ran, "runs:\n%s", text);
   uint64_t n = ran ? r.res.counts[EMU_EV_RAW] + r.res.counts[EMU_EV_SYNC] : 0;
   fix_free(&r);
   return n;
}

/* a3xx: the nops isa_delay asks for, the (ss)/(sy) flag it names. */
static char *
layout_a3xx(const char *p, const char *c, struct isa_delay d)
{
   char *t = xasprintf(".lanes 1\n.texture 0 2D\n%s\n", p), *u;
   for (int i = 0; i < d.distance; i++) {
      u = xasprintf("%snop\n", t);
      free(t);
      t = u;
   }
   const char *flag = d.sync == ISA_SYNC_SS ? "(ss)" : d.sync == ISA_SYNC_SY ? "(sy)" : "";
   u = xasprintf("%s%s%s\n(sy)(ss)end\n", t, flag, c);
   free(t);
   return u;
}

/* sm50: the stall count isa_delay asks for; a scoreboard it names is set
 * by the producer (write barrier 0) and waited for by the consumer. */
static char *
layout_sm50(const char *p, const char *c, struct isa_delay d)
{
   bool sb = d.sync == ISA_SYNC_SCOREBOARD;
   return xasprintf(".lanes 1\nS%d%s %s\nS6%s %s\nS15 EXIT\n", MAX2(d.distance, 1), sb ? " W0" : "",
                    p, sb ? " B0x1" : "", c);
}

/* gfx9: s_nop for the wait states isa_delay asks for. */
static char *
layout_gfx9(const char *p, const char *c, struct isa_delay d)
{
   char *nop = d.distance > 0 ? xasprintf("s_nop %d\n", d.distance - 1) : xstrdup("");
   char *t = xasprintf(".lanes 1\n.texture 0 2D\n.output v4 OUT[0].x\n%s\n%s%s\n"
                       "s_waitcnt vmcnt(0)\ns_endpgm\n",
                       p, nop, c);
   free(nop);
   return t;
}

struct pair {
   const char *model, *p, *c;
};

/* Lays out each pair by isa_delay's answer and wants a hazard in each. */
static void
run_pairs(const struct pair *pairs, unsigned n,
          bool (*planted)(const struct isa_model *, const struct pair *))
{
   for (unsigned i = 0; i < n; i++) {
      struct isa_model *m = fix_open_model(pairs[i].model);
      if (!m)
         continue;
      CHECKF(planted(m, &pairs[i]),
             "%s '%s' -> '%s': isa_delay's answer is the model's: "
             "the copy of isa/delay.c has no bug planted",
             pairs[i].model, pairs[i].p, pairs[i].c);
      struct isa_delay d = answer(m, pairs[i].p, pairs[i].c);
      char *text = !strcmp(pairs[i].model, "a3xx")   ? layout_a3xx(pairs[i].p, pairs[i].c, d)
                   : !strcmp(pairs[i].model, "sm50") ? layout_sm50(pairs[i].p, pairs[i].c, d)
                                                     : layout_gfx9(pairs[i].p, pairs[i].c, d);
      CHECKF(hazards(m, text) > 0,
             "%s '%s' -> '%s' laid out by the planted isa_delay (distance %d, sync %s) runs "
             "clean: the emulator agrees with isa/delay.c instead of checking it",
             pairs[i].model, pairs[i].p, pairs[i].c, d.distance, isa_sync_name(d.sync));
      free(text);
      isa_close(m);
   }
}

/* latency: the answer is short of the producer class's latency (plus the
 * consumer's read_early on delay-slot models). */
static bool
latency_planted(const struct isa_model *m, const struct pair *p)
{
   struct isa_class_info ci = producer_class(m, p->p);
   struct isa_delay d = answer(m, p->p, p->c);
   return d.sync == ISA_SYNC_NONE && ci.latency > 0 && d.distance < ci.latency;
}

/* sync: the producer's class syncs, the answer names no sync. */
static bool
sync_planted(const struct isa_model *m, const struct pair *p)
{
   return producer_class(m, p->p).sync != ISA_SYNC_NONE &&
          answer(m, p->p, p->c).sync == ISA_SYNC_NONE;
}

/* waitstates: the answer is below the table's most for this model. */
static bool
waitstates_planted(const struct isa_model *m, const struct pair *p)
{
   struct isa_delay d = answer(m, p->p, p->c);
   return d.sync == ISA_SYNC_NONE && d.distance < isa_wait_states_max(m);
}

int
main(int argc, char **argv)
{
   const char *plant = argc > 1 ? argv[1] : "";
   if (!strcmp(plant, "latency")) {
      static const struct pair pairs[] = {
          {"a3xx", "mov.f32f32 r0.x, (1.0)", "add.f r1.x, r0.x, (1.0)"},
          {"a3xx", "add.f r0.x, r2.x, (1.0)", "mad.f32 r1.x, r0.x, r2.y, r2.z"},
          {"a3xx", "mov.u32u32 r0.x, 16", "cov.u32f32 r1.x, r0.x"},
          {"sm50", "FADD R1, R2, R3", "FMUL R4, R1, R5"},
          {"sm50", "IADD R1, R2, R3", "ISCADD R4, R5, R1, 2"},
      };
      run_pairs(pairs, ARRAY_SIZE(pairs), latency_planted);
   } else if (!strcmp(plant, "sync")) {
      static const struct pair pairs[] = {
          {"a3xx", "rcp r0.x, r2.x", "add.f r1.x, r0.x, (1.0)"},
          {"a3xx", "sam (f32)(x)r0.x, r2.x, s#0, t#0", "add.f r1.x, r0.x, (1.0)"},
          {"sm50", "MUFU.RCP R1, R2", "FADD R4, R1, R5"},
      };
      run_pairs(pairs, ARRAY_SIZE(pairs), sync_planted);
   } else if (!strcmp(plant, "waitstates")) {
      static const struct pair pairs[] = {
          {"gfx9", "v_cmp_eq_u32_e64 s[88:89], v0, v0",
           "image_sample v[4:7], v[0:2], s[88:95], s[96:99] dmask:0xf"},
      };
      run_pairs(pairs, ARRAY_SIZE(pairs), waitstates_planted);
   } else {
      CHECKF(false, "usage: plant_delay latency|sync|waitstates (got '%s')", plant);
   }
   return test_done();
}
