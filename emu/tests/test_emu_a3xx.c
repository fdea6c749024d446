/*
 * Emulator behaviour on the a3xx model beyond the fixtures:
 *  - the timing model agrees with isa_delay(), the one latency function:
 *    for producer/consumer pairs, the fewest nops that avoid a RAW hazard
 *    is the distance isa_delay() asks for;
 *  - an illegal encoding stops the wave with an ILLEGAL event;
 *  - runs are deterministic, and the outputs do not depend on the wave
 *    size (lanes are independent; only timing is per wave);
 *  - BARRIER runs the waves of a workgroup in lockstep (a test model: a3xx
 *    plus a barrier op, since the a3xx subset has none);
 *  - bad bindings and undecodable bytes are load errors; random words
 *    either fail to load or run to an end, a fault or the budget.
 */
#include "emu/tests/emu_test_util.h"

#include "isa/isa.h"

static struct isa_insn
one_insn(const struct isa_model *m, const char *text)
{
   struct isa_insn in;
   struct diag_list d = {0};
   CHECKF(isa_parse_insn(m, text, &in, &d) == ISA_ERR_OK, "parse '%s'", text);
   diag_clear(&d);
   return in;
}

/* The largest isa_delay distance from producer's destination to any of
 * the consumer's sources. */
static int
delay_needed(const struct isa_model *m, const char *p, const char *c)
{
   struct isa_insn a = one_insn(m, p), b = one_insn(m, c);
   int need = -1;
   for (unsigned s = 0; s < b.nsrc; s++) {
      struct isa_delay dl = isa_delay(m, &a, ISA_SLOT_DST(0), &b, ISA_SLOT_SRC(s));
      if (dl.sync == ISA_SYNC_NONE && dl.distance > need)
         need = dl.distance;
   }
   return need;
}

/* The fewest nops between producer and consumer with no RAW event. */
static int
nops_needed(const struct isa_model *m, const char *p, const char *c)
{
   for (int k = 0; k <= 10; k++) {
      char *text = xasprintf(".lanes 1\n.texture 0 2D\n%s\n", p), *t2;
      for (int i = 0; i < k; i++) {
         t2 = xasprintf("%snop\n", text);
         free(text);
         text = t2;
      }
      t2 = xasprintf("%s%s\n(sy)(ss)end\n", text, c);
      free(text);
      struct fix_run r;
      bool ran = fix_run_text(m, t2, "pair", 1, 1, NULL, &r);
      CHECKF(ran, "pair '%s' -> '%s' runs", p, c);
      uint64_t raw = r.res.counts[EMU_EV_RAW];
      fix_free(&r);
      free(t2);
      if (ran && !raw)
         return k;
   }
   return -1;
}

static void
test_delay_agreement(const struct isa_model *m)
{
   static const char *const pairs[][2] = {
       {"mov.f32f32 r0.x, (1.0)", "add.f r1.x, r0.x, (1.0)"},
       {"mov.f32f32 r0.x, (1.0)", "rcp r1.x, r0.x"},
       {"add.f r0.x, r2.x, (1.0)", "mad.f32 r1.x, r2.x, r2.y, r0.x"},
       {"add.f r0.x, r2.x, (1.0)", "mad.f32 r1.x, r0.x, r2.y, r2.z"},
       {"add.f r0.x, r2.x, (1.0)", "mad.f32 r1.x, r2.y, r0.x, r2.z"},
       {"add.f r0.x, r2.x, (1.0)", "sel.b32 r1.x, r2.x, r2.y, r0.x"},
       {"mov.s16s16 a0.x, 1", "mov.f32f32 r1.x, r<a0.x + 0>"},
       {"cmps.f.lt p0.x, r2.x, r2.y", "br p0.x, #1"},
       {"cmps.f.lt p0.x, r2.x, r2.y", "kill p0.x"},
       {"add.f r0.x, r2.x, (1.0)", "sam (f32)(x)r1.x, r0.x, s#0, t#0"},
       {"mov.u32u32 r0.x, 16", "ldg.u32 r1.x, g[r0.x+0], 1"},
       {"mov.u32u32 r0.x, 16", "stg.u32 g[r2.x+0], r0.x, 1"},
       {"mov.u32u32 r0.x, 16", "cov.u32f32 r1.x, r0.x"},
       {"(rpt2)mov.f32f32 r0.x, (r)r4.x", "add.f r1.x, r0.z, (1.0)"},
       {"(rpt2)mov.f32f32 r0.x, (r)r4.x", "add.f r1.x, r0.x, (1.0)"},
       {"mov.f32f32 r0.x, (1.0)", "(rpt2)add.f r1.x, r0.x, (1.0)"},
       {"mov.f32f32 r0.z, (1.0)", "(rpt3)add.f r1.x, (r)r0.x, (1.0)"},
       {"cov.f32f16 hr0.x, r2.x", "add.f hr1.x, hr0.x, (1.0)"},
   };
   for (unsigned i = 0; i < ARRAY_SIZE(pairs); i++) {
      int want = delay_needed(m, pairs[i][0], pairs[i][1]);
      int got = nops_needed(m, pairs[i][0], pairs[i][1]);
      CHECKF(want >= 0 && got == want, "'%s' -> '%s': emulator needs %d nops, isa_delay %d",
             pairs[i][0], pairs[i][1], got, want);
   }
}

static void
test_illegal(const struct isa_model *m)
{
   /* mov r0.x, 1.0; add.f with two constants (illegal); end. */
   static const uint64_t words[] = {0x2044400001000000ull, 0x4010000010011001ull,
                                    0x0300000000000000ull};
   struct emu_program p = {.model = m, .stage = TGSI_STAGE_FRAG};
   p.size = sizeof(words);
   p.code = xmalloc(p.size);
   for (unsigned i = 0; i < ARRAY_SIZE(words); i++)
      for (unsigned b = 0; b < 8; b++)
         p.code[i * 8 + b] = (uint8_t)(words[i] >> (8 * b));
   struct emu_binding out = {.kind = EMU_BIND_OUTPUT, .file = (uint8_t)isa_file_find(m, "r")};
   emu_program_bind(&p, &out);
   struct diag_list d = {0};
   struct emu_code *c = NULL;
   CHECK(emu_load(&p, &c, &d) == EMU_OK);
   struct env *e = env_new(TGSI_STAGE_FRAG, 100);
   env_alloc_outputs(e, 1, 1);
   struct emu_result r;
   if (c) {
      CHECK(emu_run(c, e, NULL, &r, &d) == EMU_FAULT);
      CHECK_EQ_U(r.counts[EMU_EV_ILLEGAL], 2); /* one per wave of 64 */
      CHECK(r.nevents == 2 && r.events[0].kind == EMU_EV_ILLEGAL && r.events[0].pc == 8);
      CHECK_EQ_U(r.insns, 4); /* mov, then the illegal one stops each wave */
      bool undef = true;
      for (uint32_t l = 0; l < 100; l++)
         undef &= (e->out_flags[l] & ENV_F_UNDEF) != 0;
      CHECKF(undef, "no lane reached end");
      emu_result_free(&r);
   }
   emu_code_free(c);
   env_free(e);
   emu_program_free(&p);
   diag_clear(&d);
}

/* Lanes loop VERTEXID & 7 times (0-7): every wave diverges; what follows
 * `done:` runs on the reconverged lanes. */
#define LOOP_0_TO_7                                                                                \
   ".stage vert\n"                                                                                 \
   ".sysval r0.x VERTEXID.x\n"                                                                     \
   ".input r3.x IN[0].xy\n"                                                                        \
   ".output r1.x OUT[0].xy\n"                                                                      \
   "and.b r0.x, r0.x, 7\n"                                                                         \
   "mov.u32u32 r1.y, 0\n"                                                                          \
   "mov.f32f32 r1.x, r3.x\n"                                                                       \
   "(rpt2)nop\n"                                                                                   \
   "loop:\n"                                                                                       \
   "(jp)cmps.u.lt p0.x, r1.y, r0.x\n"                                                              \
   "(rpt5)nop\n"                                                                                   \
   "br !p0.x, #$done\n"                                                                            \
   "mul.f r1.x, r1.x, r3.y\n"                                                                      \
   "add.u r1.y, r1.y, 1\n"                                                                         \
   "(rpt2)nop\n"                                                                                   \
   "jump #$loop\n"                                                                                 \
   "done:\n"

static const char loop_prog[] =
    LOOP_0_TO_7 "(jp)rcp r2.x, r1.x\n"
                "add.f r1.x, r1.x, r2.x\n" /* no (ss): a sync hazard per wave */
                "end\n";

static void
test_determinism(const struct isa_model *m)
{
   struct fix_run a, b;
   struct emu_options o = {0};
   bool ra = fix_run_text(m, loop_prog, "loop", 7, 200, &o, &a);
   bool rb = fix_run_text(m, loop_prog, "loop", 7, 200, &o, &b);
   CHECK(ra && rb);
   if (ra && rb) {
      size_t n = (size_t)a.env->nout * 4 * a.env->nlanes;
      CHECK(!memcmp(a.env->out, b.env->out, n * 4));
      CHECK(a.res.cycles == b.res.cycles && a.res.wave_cycles == b.res.wave_cycles);
      bool same = a.res.nevents == b.res.nevents;
      for (unsigned i = 0; same && i < a.res.nevents; i++) {
         const struct emu_event *x = &a.res.events[i], *y = &b.res.events[i];
         same = x->kind == y->kind && x->pc == y->pc && x->file == y->file &&
                x->index == y->index && x->early == y->early && x->wave == y->wave &&
                x->cycle == y->cycle && x->producer_pc == y->producer_pc;
      }
      CHECK(same);
      CHECK_EQ_U(a.res.counts[EMU_EV_SYNC], 4); /* 200 lanes = 4 waves of 64 */
      /* Other wave sizes: the same values (lane by lane), the same hazard
       * in every wave. */
      static const unsigned sizes[] = {1, 7, 32, 64};
      for (unsigned i = 0; i < ARRAY_SIZE(sizes); i++) {
         o.wave_size = sizes[i];
         CHECK(fix_exec(&b, &o));
         CHECKF(!memcmp(a.env->out, b.env->out, n * 4), "wave size %u changes outputs", sizes[i]);
         CHECKF(b.res.counts[EMU_EV_SYNC] == (200 + sizes[i] - 1) / sizes[i],
                "wave size %u: %llu sync hazards", sizes[i],
                (unsigned long long)b.res.counts[EMU_EV_SYNC]);
      }
      /* Spot check lane 13: 13 & 7 = 5 multiplications, then x + 1/x
       * computed with the stale (zero) rcp result: just x. */
      float x = uif(env_in(a.env, 0, 0, 0)[13]), y = uif(env_in(a.env, 0, 0, 1)[13]);
      for (int k = 0; k < 5; k++)
         x = x * y;
      CHECK_EQ_U(fix_out(&a, 0, 0, 13), fui(x + 0.0f));
   }
   fix_free(&a);
   fix_free(&b);
}

static int
cmp_event(const void *pa, const void *pb)
{
   const struct emu_event *a = pa, *b = pb;
   if (a->wave != b->wave)
      return a->wave < b->wave ? -1 : 1;
   if (a->cycle != b->cycle)
      return a->cycle < b->cycle ? -1 : 1;
   if (a->pc != b->pc)
      return a->pc < b->pc ? -1 : 1;
   if (a->kind != b->kind)
      return a->kind - b->kind;
   return a->file != b->file ? a->file - b->file : a->index - b->index;
}

static bool
same_run(struct fix_run *a, struct fix_run *b)
{
   size_t n = (size_t)a->env->nout * 4 * a->env->nlanes;
   bool same = !memcmp(a->env->out, b->env->out, n * 4) && a->res.cycles == b->res.cycles &&
               a->res.wave_cycles == b->res.wave_cycles && a->res.insns == b->res.insns &&
               a->res.lane_insns == b->res.lane_insns && a->res.nops == b->res.nops &&
               a->res.stall_cycles == b->res.stall_cycles && a->res.waves == b->res.waves &&
               !memcmp(a->res.counts, b->res.counts, sizeof(a->res.counts)) &&
               a->res.nevents == b->res.nevents &&
               !memcmp(a->env->events, b->env->events, sizeof(a->env->events));
   qsort(a->res.events, a->res.nevents, sizeof(*a->res.events), cmp_event);
   qsort(b->res.events, b->res.nevents, sizeof(*b->res.events), cmp_event);
   for (unsigned i = 0; same && i < a->res.nevents; i++)
      same = !cmp_event(&a->res.events[i], &b->res.events[i]) &&
             a->res.events[i].early == b->res.events[i].early &&
             a->res.events[i].producer_pc == b->res.events[i].producer_pc;
   return same;
}

/* The same events in the same order, field by field. */
static bool
same_order(const struct emu_result *a, const struct emu_result *b)
{
   bool same = a->nevents == b->nevents;
   for (unsigned i = 0; same && i < a->nevents; i++) {
      const struct emu_event *x = &a->events[i], *y = &b->events[i];
      same = x->kind == y->kind && x->file == y->file && x->index == y->index && x->pc == y->pc &&
             x->producer_pc == y->producer_pc && x->early == y->early && x->wave == y->wave &&
             x->cycle == y->cycle;
   }
   return same;
}

/* Waves in lockstep run as one batch until they may diverge; the results
 * are those of running every wave alone, to the event. */
static void
test_batches(const struct isa_model *m)
{
   static const char straight[] = ".stage vert\n.texture 0 2D\n.buffer 0\n"
                                  ".input r0.x IN[0].xyzw\n.output r2.x OUT[0].xyzw\n"
                                  "mul.f r1.x, r0.x, r0.y\n"
                                  "add.f r2.x, r1.x, r0.z\n" /* raw: 2 early */
                                  "rcp r2.y, r0.w\n"
                                  "mov.f32f32 r3.x, r2.y\n" /* sync: no (ss) */
                                  "(rpt5)nop\n"
                                  "sam (f32)(xy)r2.z, r0.x, s#0, t#0\n"
                                  "mov.u32u32 r4.x, 0x01000010\n"
                                  "(rpt5)nop\n"
                                  "ldg.u32 r2.w, g[r4.x+0], 1\n"
                                  "(sy)end\n";
   /* Lanes loop 0-7 times: every wave diverges, runs 8 rounds and
    * reconverges at done, where its waves join the batch again; two sync
    * hazards per wave follow, listed wave after wave as when each runs
    * alone (nothing is reported before the batch first splits). */
   static const char rejoin[] = LOOP_0_TO_7 "(jp)(rpt5)nop\n"
                                            "rcp r2.x, r1.x\n"
                                            "rsq r2.y, r1.x\n"
                                            "add.f r1.x, r1.x, r2.x\n" /* no (ss): sync hazards */
                                            "add.f r1.y, r2.y, r2.y\n"
                                            "end\n";
   const char *progs[] = {straight, loop_prog, rejoin};
   for (unsigned p = 0; p < 3; p++) {
      struct fix_run a, b;
      struct emu_options one = {.no_batch = true}, batch = {0};
      bool ra = fix_run_text(m, progs[p], "batch", 5, 300, &one, &a);
      bool rb = fix_run_text(m, progs[p], "batch", 5, 300, &batch, &b);
      CHECK(ra && rb);
      if (ra && rb && p == 2)
         CHECKF(a.res.nevents >= 10 && same_order(&a.res, &b.res),
                "rejoined batch: %u events, the waves alone %u, or another order", b.res.nevents,
                a.res.nevents);
      if (ra && rb) {
         CHECKF(a.res.nevents > 0, "program %u has hazards to compare", p);
         CHECKF(same_run(&a, &b), "program %u: batched run differs from wave by wave", p);
      }
      fix_free(&a);
      fix_free(&b);
   }
}

/* The a3xx model, which has the cat7 barrier `bar`. */
static struct isa_model *
open_bar_model(void)
{
   struct isa_model *m = NULL;
   struct diag_list d = {0};
   CHECKF(isa_open("a3xx", &m, &d) == ISA_ERR_OK, "a3xx: %s",
          diag_first_error(&d) ? diag_first_error(&d) : "");
   diag_clear(&d);
   return m;
}

/* Each lane stores its id to shared memory, and after the barrier reads
 * the word of the lane 64 further on, which belongs to the other wave of
 * its 128-lane workgroup; the result goes to buffer 0 at the global id. */
static void
test_barrier(void)
{
   struct isa_model *m = open_bar_model();
   if (!m)
      return;
   /* With the nops the delay rules need; cat6 has no (ss) bit, hence
    * the (ss)nop before the store of the ldl result. */
   const char *body = ".stage comp\n.block 128\n.buffer 0\n"
                      ".sysval r0.x THREAD_ID.x\n.sysval r0.y BLOCK_ID.x\n"
                      "shl.b r1.x, r0.x, 2\n"
                      "add.u r1.y, r0.x, 64\n"
                      "shl.b r1.w, r0.y, 9\n"
                      "mov.u32u32 r3.x, 0x01000000\n"
                      "(rpt1)nop\n"
                      "and.b r1.y, r1.y, 127\n"
                      "add.u r1.w, r1.w, r3.x\n"
                      "(rpt2)nop\n"
                      "shl.b r1.y, r1.y, 2\n"
                      "shl.b r1.z, r0.x, 2\n"
                      "(rpt2)nop\n"
                      "add.u r2.y, r1.w, r1.z\n"
                      "stl.u32 l[r1.x+0], r0.x, 1\n"
                      "%s"
                      "(rpt5)nop\n"
                      "ldl.u32 r2.x, l[r1.y+0], 1\n"
                      "(ss)nop\n"
                      "stg.u32 g[r2.y+0], r2.x, 1\n"
                      "end\n";
   for (int with_bar = 1; with_bar >= 0; with_bar--) {
      char *text = xasprintf(body, with_bar ? "bar\n" : "");
      struct fix_run r;
      bool ok = fix_prepare(m, text, "barrier", 1, 256, &r);
      CHECK(ok);
      if (ok) {
         CHECK(env_set_buffer(r.env, 0, 256 * 4));
         ok = fix_exec(&r, NULL);
         CHECK(ok && r.st == EMU_OK && r.res.waves == 4);
         if (!ok)
            fix_print_diags(&r.d);
      }
      unsigned right = 0;
      for (uint32_t g = 0; ok && g < 256; g++) {
         uint32_t v;
         memcpy(&v, r.env->buf[0].data + 4 * g, 4);
         right += v == ((g % 128) + 64) % 128;
      }
      if (with_bar)
         CHECKF(right == 256, "with the barrier: %u of 256 lanes read their partner", right);
      else
         CHECKF(right == 128, "without it, the first wave reads before the second wrote: %u",
                right);
      fix_free(&r);
      free(text);
   }
   isa_close(m);
}

static void
test_load_errors(const struct isa_model *m)
{
   struct diag_list d = {0};
   struct emu_code *c = NULL;
   /* A binding to register 999 of r (48 vec4 = 192). */
   struct emu_program p = {.model = m};
   uint64_t end = 0x0300000000000000ull;
   p.size = 8;
   p.code = xmalloc(8);
   memcpy(p.code, &end, 8);
   struct emu_binding b = {
       .kind = EMU_BIND_INPUT, .file = (uint8_t)isa_file_find(m, "r"), .index = 999};
   emu_program_bind(&p, &b);
   CHECK(emu_load(&p, &c, &d) == EMU_ERR_BINDING && !c && d.nerrors);
   diag_clear(&d);
   /* A constant binding into a predicate file (registers of full and
    * uniform files may hold one: gfx9 SGPR and VGPR arguments). */
   p.binds[0].kind = EMU_BIND_CONST;
   p.binds[0].file = (uint8_t)isa_file_find(m, "p0");
   p.binds[0].index = 0;
   CHECK(emu_load(&p, &c, &d) == EMU_ERR_BINDING && !c);
   diag_clear(&d);
   /* Bytes that are no instruction: cat 7 is not in the a3xx subset. */
   p.nbinds = 0;
   uint64_t bad = 0xe000000000000000ull;
   memcpy(p.code, &bad, 8);
   CHECK(emu_load(&p, &c, &d) == EMU_ERR_DECODE && !c && d.nerrors);
   diag_clear(&d);
   emu_program_free(&p);
}

/* Mutated programs: valid instructions with a few bits flipped, in any
 * order. No crash, no hang, whatever they decode to. */
static void
test_random_words(const struct isa_model *m)
{
   uint8_t *pool = NULL;
   size_t plen = 0;
   struct diag_list d = {0};
   const char *src = "mov.f32f32 r0.x, (1.0)\nadd.f r1.x, r0.x, c2.x\ncmps.f.lt p0.x, r0.x, r1.x\n"
                     "br p0.x, #2\njump #-3\nrcp r2.x, r1.x\n(ss)mad.f32 r3.x, r1.x, r2.x, r0.x\n"
                     "mov.s16s16 a0.x, 3\nmov.f32f32 r4.x, r<a0.x + 2>\nkill p0.x\n"
                     "sam (f32)(xyzw)r1.x, r0.x, s#0, t#0\nldg.u32 r1.x, g[r0.x+4], 2\n"
                     "stg.u32 g[r0.x-8], r2.x, 1\nldl.u32 r0.x, l[r1.x+0], 1\n(rpt3)nop\nend\n";
   CHECK(isa_assemble(m, src, "pool", NULL, NULL, &pool, &plen, &d) == ISA_ERR_OK);
   diag_clear(&d);
   unsigned npool = (unsigned)(plen / 8), loaded = 0, ran = 0;
   struct rng rg;
   rng_seed(&rg, 3);
   for (unsigned it = 0; it < 400 && npool; it++) {
      struct emu_program p = {.model = m, .stage = TGSI_STAGE_FRAG};
      unsigned n = 1 + rng_below(&rg, 12);
      p.size = n * 8;
      p.code = xmalloc(p.size);
      for (unsigned i = 0; i < n; i++) {
         uint64_t w;
         memcpy(&w, pool + 8 * rng_below(&rg, npool), 8);
         for (unsigned f = rng_below(&rg, 3); f; f--)
            w ^= 1ull << rng_below(&rg, 64);
         memcpy(p.code + i * 8, &w, 8);
      }
      struct emu_binding b = {.kind = EMU_BIND_OUTPUT, .file = (uint8_t)isa_file_find(m, "r")};
      emu_program_bind(&p, &b);
      struct emu_code *c = NULL;
      if (emu_load(&p, &c, &d) == EMU_OK) {
         loaded++;
         struct env *e = env_new(TGSI_STAGE_FRAG, 70);
         env_alloc_outputs(e, 1, 1);
         env_set_buffer(e, 0, 64);
         struct emu_options o = {.max_cycles = 5000};
         struct emu_result r;
         enum emu_status st = emu_run(c, e, &o, &r, &d);
         CHECK(st == EMU_OK || st == EMU_FAULT || st == EMU_BUDGET);
         ran += st == EMU_OK;
         emu_result_free(&r);
         env_free(e);
      }
      emu_code_free(c);
      diag_clear(&d);
      emu_program_free(&p);
   }
   free(pool);
   CHECKF(loaded > 50, "only %u mutated programs loaded (%u ran clean)", loaded, ran);
}

int
main(void)
{
   struct isa_model *m = fix_open_model("a3xx");
   if (!m)
      return test_done();
   test_delay_agreement(m);
   test_illegal(m);
   test_determinism(m);
   test_batches(m);
   test_barrier();
   test_load_errors(m);
   test_random_words(m);
   isa_close(m);
   return test_done();
}
