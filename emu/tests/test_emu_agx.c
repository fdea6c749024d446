/*
 * Emulator behaviour on the agx model:
 *  - the hazard answers agree with isa_delay(): ALU -> ALU needs nothing
 *    (interlocked), a device load's result needs a wait on its slot, and
 *    the emulator flags exactly the reads isa_delay says need the wait
 *    (none after `wait` on the load's slot, one after a wait on the other);
 *  - a write to a register whose load is pending is a WAW;
 *  - 16-bit halves: a half write keeps the other half, a 32-bit write of
 *    the full register replaces both;
 *  - the execution-mask stack keeps inactive lanes' registers, and batched
 *    runs equal wave-by-wave runs;
 *  - gathers return the named component of the four texels in GL's order;
 *  - SIMD-group ops (applegpu's exec code): icmp_ballot sees only active
 *    lanes; a shuffle reads an inactive lane's register as it stands; the
 *    low two bits of a shuffle's B are ORed over each source quad; the
 *    up/down/xor modes and get_sr's lane index.
 */
#include "emu/tests/emu_test_util.h"

static const char *const prologue = ".lanes 4\n.buffer 0\n.output r0 OUT[0].x\n"
                                    "mov_imm r2, 0x1000000\nmov_imm r3, 0\n";

static uint64_t
count(const struct isa_model *m, const char *body, enum emu_event_kind k, uint32_t *out0)
{
   char *text = xasprintf("%s%sstop\n", prologue, body);
   struct fix_run r;
   uint64_t n = UINT64_MAX;
   if (fix_run_text(m, text, "agx", 5, 4, NULL, &r)) {
      n = r.res.counts[k];
      if (out0)
         *out0 = fix_out(&r, 0, 0, 0);
   }
   CHECKF(n != UINT64_MAX, "'%s' runs", body);
   fix_free(&r);
   free(text);
   return n;
}

static struct isa_delay
delay(const struct isa_model *m, const char *p, const char *c)
{
   struct isa_insn a, b;
   struct isa_delay none = {-1, ISA_SYNC_NONE};
   if (isa_parse_insn(m, p, &a, NULL) != ISA_ERR_OK || isa_parse_insn(m, c, &b, NULL) != ISA_ERR_OK)
      return none;
   return isa_delay(m, &a, ISA_SLOT_DST(0), &b, ISA_SLOT_SRC(0));
}

static void
test_delay_agreement(const struct isa_model *m)
{
   struct isa_delay dl = delay(m, "fadd r0, r1, r2", "fmul r5, r0, r0");
   CHECK(dl.distance == 0 && dl.sync == ISA_SYNC_NONE);
   CHECK(count(m, "fadd r0, r2, r2\nfmul r0, r0, r0\n", EMU_EV_RAW, NULL) == 0);
   const char *ld = "device_load i32, 1, r4, r2, 0, slot 1";
   dl = delay(m, ld, "fadd r0, r4, r4");
   CHECK(dl.distance == 0 && dl.sync == ISA_SYNC_WAIT_SLOT);
   char *b = xasprintf("%s\nfadd r0, r4, r4\n", ld);
   CHECK(count(m, b, EMU_EV_SYNC, NULL) == 1);
   free(b);
   b = xasprintf("%s\nwait 1\nfadd r0, r4, r4\n", ld);
   CHECK(count(m, b, EMU_EV_SYNC, NULL) == 0);
   free(b);
   b = xasprintf("%s\nwait 0\nfadd r0, r4, r4\nwait 1\n", ld); /* the wrong slot */
   CHECK(count(m, b, EMU_EV_SYNC, NULL) == 1);
   free(b);
   b = xasprintf("%s\nmov_imm r4, 1\nwait 1\n", ld); /* a write to the pending register */
   CHECK(count(m, b, EMU_EV_WAW, NULL) == 1);
   free(b);
}

static void
test_halves(const struct isa_model *m)
{
   uint32_t v = 0;
   CHECK(count(m, "mov_imm r0, 0x11112222\nmov_imm r0h, 0x3c00\n", EMU_EV_RAW, &v) == 0);
   CHECK_EQ_U(v, 0x3c002222u);
   CHECK(count(m, "mov_imm r1, 0x11112222\nmov r0l, r1h\nmov_imm r0h, 7\n", EMU_EV_RAW, &v) == 0);
   CHECK_EQ_U(v, 0x00071111u);
   /* a full-width op writing the packed register replaces both halves */
   CHECK(count(m, "mov_imm r0h, 0x3c00\nmov_imm r0, 5\n", EMU_EV_RAW, &v) == 0);
   CHECK_EQ_U(v, 5u);
   /* iadd sign-extends a 16-bit source with sext(), zero-extends without */
   count(m, "mov_imm r1l, 0xffff\niadd r0, sext(r1l), 1\n", EMU_EV_RAW, &v);
   CHECK_EQ_U(v, 0u);
   count(m, "mov_imm r1l, 0xffff\niadd r0, r1l, 1\n", EMU_EV_RAW, &v);
   CHECK_EQ_U(v, 0x10000u);
}

static void
test_exec_batch(const struct isa_model *m)
{
   const char *text = ".stage comp\n.block 64\n.lanes 256\n.sysval r1 THREAD_ID.x\n"
                      ".output r2 OUT[0].x\nmov_imm r0l, 0\nmov_imm r2, 7\n"
                      "if_icmp.ult r1, 20, 1\nmov_imm r2, 100\nelse_icmp.ueq r1, r1, 1\n"
                      "mov_imm r2, 200\npop_exec 1\niadd r2, r2, r1\nstop\n";
   struct fix_run a, b;
   struct emu_options o = {0};
   o.no_batch = true;
   bool ok = fix_run_text(m, text, "exec", 9, 256, NULL, &a) &&
             fix_run_text(m, text, "exec", 9, 256, &o, &b);
   CHECK(ok);
   if (ok) {
      unsigned bad = 0;
      for (uint32_t l = 0; l < 256; l++) {
         uint32_t tid = l % 64, want = (tid < 20 ? 100 : 200) + tid;
         bad += fix_out(&a, 0, 0, l) != want || fix_out(&b, 0, 0, l) != want;
      }
      CHECKF(bad == 0, "%u lanes wrong", bad);
      CHECK(a.res.cycles == b.res.cycles && a.res.status == EMU_OK);
   }
   fix_free(&a);
   fix_free(&b);
}

/* Gathers: the named component of the 2x2 footprint in GL's order,
 * x (i0, j1), y (i1, j1), z (i1, j0), w (i0, j0), i0 = floor(s * w - 0.5)
 * clamped to the texture -- written out here, not read from the env's
 * gather, so a swapped component or texel order in either fails. */
static void
check_gather(const struct isa_model *m, const char *form, unsigned comp, float s, float t,
             unsigned apart)
{
   uint32_t sb, tb;
   memcpy(&sb, &s, 4);
   memcpy(&tb, &t, 4);
   char *text = xasprintf(".lanes 4\n.texture 0 2D\n.output r4 OUT[0].xyzw\n"
                          "mov_imm r8, 0x%08x\nmov_imm r9, 0x%08x\n"
                          "texture_sample.%s 2d, xyzw, r4, r8, r0, 0, 0, slot 1\nwait 1\nstop\n",
                          sb, tb, form);
   struct fix_run r;
   bool ok = fix_run_text(m, text, "gather", 3, 4, NULL, &r);
   CHECKF(ok && r.st == EMU_OK && r.res.nevents == 0, "%s runs clean: %s", form,
          diag_first_error(&r.d));
   if (ok) {
      const struct env_texture *tx = &r.env->tex[0];
      int64_t w = tx->width, h = tx->height, i0 = (int64_t)floorf(s * (float)w - 0.5f),
              j0 = (int64_t)floorf(t * (float)h - 0.5f);
      static const int di[4] = {0, 1, 1, 0}, dj[4] = {1, 1, 0, 0};
      uint32_t want[4];
      unsigned distinct = 0;
      for (unsigned k = 0; k < 4; k++) {
         int64_t i = i0 + di[k], j = j0 + dj[k];
         i = i < 0 ? 0 : i >= w ? w - 1 : i;
         j = j < 0 ? 0 : j >= h ? h - 1 : j;
         uint32_t texel[4];
         env_texel(r.env, 0, (uint32_t)i, (uint32_t)j, 0, 0, texel);
         want[k] = texel[comp];
         distinct += k && want[k] != want[k - 1];
         for (uint32_t l = 0; l < 4; l++)
            CHECKF(fix_out(&r, 0, k, l) == texel[comp],
                   "%s at (%g, %g) lane %u .%c: 0x%08x, want 0x%08x", form, (double)s, (double)t, l,
                   "xyzw"[k], fix_out(&r, 0, k, l), texel[comp]);
      }
      CHECKF(distinct >= apart, "%s: the footprint's texels tell its order apart (%ux%u texture)",
             form, tx->width, tx->height);
   }
   fix_free(&r);
   free(text);
}

static void
test_gather(const struct isa_model *m)
{
   check_gather(m, "gather_g", 1, 0.3f, 0.6f, 3);
   check_gather(m, "gather_b", 2, 0.55f, 0.3f, 3);
   check_gather(m, "gather_a", 3, 0.8f, 0.45f, 3);
   check_gather(m, "gather_r", 0, 0.0f, 0.999f, 1); /* i0 and j1 clamped: two texels */
}

/* Lanes 0..15 active inside the if (r4 the lane, r5 = lane + 100 before
 * it, lane + 200 inside). Written out per lane below. */
static void
test_simd(const struct isa_model *m)
{
   const char *text = ".stage comp\n.block 64\n.lanes 64\n.output r2 OUT[0].x\n"
                      ".output r3 OUT[1].x\n.output r7 OUT[2].x\n.output r9 OUT[3].x\n"
                      ".output r10 OUT[4].x\n.output r11 OUT[5].x\n"
                      "mov_imm r0l, 0\nget_sr r4, thread_index_in_simdgroup\n"
                      "iadd r5, r4, 100\nmov_imm r2, 7\nmov_imm r3, 7\nmov_imm r7, 7\n"
                      "and r8, r4, 1\nor r8, r8, 4\nsimd_shuffle r9, r5, r8l\n"
                      "simd_shuffle_up r10, r5, 1\nsimd_shuffle_down r11, r5, 3\n"
                      "if_icmp.ult r4, 16, 1\niadd r5, r4, 200\n"
                      "icmp_ballot.une r2, r4, 3\nsimd_shuffle r3, r5, 20\n"
                      "simd_shuffle_xor r7, r5, 1\npop_exec 1\nstop\n";
   struct fix_run r;
   bool ok = fix_run_text(m, text, "simd", 5, 64, NULL, &r);
   CHECKF(ok && r.st == EMU_OK, "the SIMD-group program runs: %s", diag_first_error(&r.d));
   unsigned bad = 0;
   for (uint32_t l = 0; ok && l < 64; l++) {
      uint32_t lane = l % 32, in = lane < 16;
      uint32_t want[6] = {
          in ? 0xfff7u : 7u,            /* the active lanes but lane 3 */
          in ? 120u : 7u,               /* lane 20 is off: its register as it was */
          in ? (lane ^ 1u) + 200u : 7u, /* the quad neighbour */
          105u,                         /* B = 4 | (lane & 1): the quad's OR is 1 */
          (lane ? lane - 1 : 0) + 100u, /* lane 0 keeps its own */
          (lane + 3 < 32 ? lane + 3 : lane) + 100u,
      };
      for (unsigned k = 0; k < 6; k++)
         if (fix_out(&r, k, 0, l) != want[k]) {
            bad++;
            CHECKF(bad > 4, "simd lane %u OUT[%u]: %u, want %u", l, k, fix_out(&r, k, 0, l),
                   want[k]);
         }
   }
   CHECKF(bad == 0, "%u SIMD-group values wrong", bad);
   fix_free(&r);
}

int
main(void)
{
   struct isa_model *m = fix_open_model("agx");
   if (m) {
      test_delay_agreement(m);
      test_halves(m);
      test_exec_batch(m);
      test_gather(m);
      test_simd(m);
      isa_close(m);
   }
   return test_done();
}
