/*
 * Instructions that read other lanes, lane by lane against a direct
 * formulation on random inputs:
 *  - a3xx dsx/dsy: the quad's coarse derivatives (lanes 4k..4k+3; x: lane
 *    3 - lane 2, y: lane 2 - lane 0, in f32);
 *  - sm50 FSWZADD: a OP b with the quad lane's 2-bit op;
 *  - sm50 SHFL in its four modes: PTX shfl's source lane and in-range
 *    predicate, with lane and clamp immediates and a register lane;
 *  - sm50 VOTE: the warp's ballot, all, any and equal, and a guarded VOTE
 *    over the lanes whose guard holds;
 * batched runs (the default) and wave-by-wave runs give the same.
 */
#include "emu/tests/emu_test_util.h"

#include "isa/sem.h"

static uint32_t
in_at(const struct fix_run *r, unsigned reg, unsigned chan, uint32_t l)
{
   return env_in(r->env, 0, reg, chan)[l];
}

static uint32_t
fsub(uint32_t a, uint32_t b)
{
   return sem_fadd(a, sem_fneg(b));
}

/* PTX shfl: the source lane of `lane` (in a 32-lane warp), or itself. */
static unsigned
ref_lane(unsigned mode, unsigned lane, unsigned b, unsigned c, bool *in)
{
   unsigned mask = c >> 8 & 31, maxl = (lane & mask) | (c & 31 & ~mask), minl = lane & mask;
   int j = mode == 0   ? (int)(minl | (b & 31 & ~mask))
           : mode == 1 ? (int)lane - (int)(b & 31)
           : mode == 2 ? (int)(lane + (b & 31))
                       : (int)(lane ^ (b & 31));
   *in = mode == 1 ? j >= (int)minl : j <= (int)maxl;
   return *in ? (unsigned)j : lane;
}

/* The wave size of the run being checked (0: the model's). */
static unsigned wave_size;

static void
run_both(const struct isa_model *m, const char *prog, const char *what,
         void (*check)(const struct fix_run *r, uint32_t l, unsigned *bad), uint32_t lanes)
{
   for (int nb = 0; nb < 2; nb++) {
      struct emu_options o = {.no_batch = nb != 0, .wave_size = wave_size};
      struct fix_run r;
      bool ok = fix_run_text(m, prog, what, 11, lanes, &o, &r);
      CHECKF(ok && r.st == EMU_OK && r.res.nevents == 0, "%s runs clean: %s", what,
             diag_first_error(&r.d));
      unsigned bad = 0;
      for (uint32_t l = 0; ok && l < lanes; l++)
         check(&r, l, &bad);
      CHECKF(bad == 0, "%s (%s): %u results differ", what, nb ? "wave by wave" : "batched", bad);
      fix_free(&r);
   }
}

/* A quad is 4 aligned lanes of one wave; a lane whose quad the wave or
 * the run cuts short has no partners and reads 0. */
static void
check_dsxy(const struct fix_run *r, uint32_t l, unsigned *bad)
{
   uint32_t W = wave_size ? wave_size : r->env->nlanes, base = l - l % W,
            q = base + (l - base) / 4 * 4;
   bool quad = q + 3 < base + W && q + 3 < r->env->nlanes;
   for (unsigned c = 0; c < 2; c++) {
      uint32_t want_x = quad ? fsub(in_at(r, 0, c, q + 3), in_at(r, 0, c, q + 2)) : 0;
      uint32_t want_y = quad ? fsub(in_at(r, 0, c, q + 2), in_at(r, 0, c, q)) : 0;
      *bad += fix_out(r, 0, c, l) != want_x;
      *bad += fix_out(r, 1, c, l) != want_y;
   }
}

static void
check_fswz(const struct fix_run *r, uint32_t l, unsigned *bad)
{
   uint32_t a = in_at(r, 0, 0, l), b = in_at(r, 0, 1, l);
   static const unsigned swz[2] = {0x99, 0x1b}; /* out 0, out 1 */
   for (unsigned k = 0; k < 2; k++) {
      unsigned f = swz[k] >> (2 * (l & 3)) & 3;
      uint32_t want = f == 0 ? sem_fadd(a, b) : f == 1 ? fsub(a, b) : f == 2 ? fsub(b, a) : b;
      *bad += fix_out(r, k, 0, l) != want;
   }
}

static void
check_shfl(const struct fix_run *r, uint32_t l, unsigned *bad)
{
   static const struct {
      unsigned mode, b, c;
   } s[4] = {{0, 3, 0x1c03}, {1, 5, 0x0}, {2, 2, 0x1f}, {3, 1, 0x1c03}};
   uint32_t base = l & ~31u, lane = l & 31;
   for (unsigned k = 0; k < 4; k++) {
      bool in;
      unsigned j = ref_lane(s[k].mode, lane, s[k].b, s[k].c, &in);
      *bad += fix_out(r, 0, k, l) != in_at(r, 0, 0, base + j);
      *bad += fix_out(r, 1, k, l) != (uint32_t)in;
   }
   /* a register lane: the lane in IN[0].y masked to 5 bits, full warp */
   bool in;
   unsigned j = ref_lane(0, lane, in_at(r, 0, 1, l), 0x1f, &in);
   *bad += fix_out(r, 2, 0, l) != in_at(r, 0, 0, base + j);
}

/* P0 = IN.x odd, P2 = IN.y & 0xff nonzero (likely on a whole warp). */
static void
check_vote(const struct fix_run *r, uint32_t l, unsigned *bad)
{
   uint32_t base = l & ~31u, ballot = 0;
   bool all2 = true, eq2 = true, any0 = false, all2g = true;
   bool p2first = (in_at(r, 0, 1, base) & 0xff) != 0;
   for (unsigned k = 0; k < 32; k++) {
      bool p0 = in_at(r, 0, 0, base + k) & 1, p2 = (in_at(r, 0, 1, base + k) & 0xff) != 0;
      ballot |= (uint32_t)p0 << k;
      any0 = any0 || p0;
      all2 = all2 && p2;
      eq2 = eq2 && p2 == p2first;
      if (p0)
         all2g = all2g && p2;
   }
   bool p0 = in_at(r, 0, 0, l) & 1;
   *bad += fix_out(r, 0, 0, l) != ballot;
   *bad += fix_out(r, 0, 1, l) != (uint32_t)any0;
   *bad += fix_out(r, 0, 2, l) != (uint32_t)all2;
   *bad += fix_out(r, 0, 3, l) != (uint32_t)eq2;
   *bad += fix_out(r, 1, 0, l) != (p0 ? (uint32_t)all2g : 7u);
}

int
main(void)
{
   struct isa_model *a3 = fix_open_model("a3xx"), *nv = fix_open_model("sm50");
   static const char dsxy[] =
       ".input r0.x IN[0].xy\n.output r1.x OUT[0].xy\n.output r2.x OUT[1].xy\n"
       "dsx (f32)(xy)r1.x, r0.x\ndsy (f32)(xy)r2.x, r0.x\n(sy)end\n";
   if (a3) {
      run_both(a3, dsxy, "dsx/dsy", check_dsxy, 256);
      /* waves of 6 lanes: the second quad of each is cut short; 22 lanes:
       * the last wave holds one whole quad */
      wave_size = 6;
      run_both(a3, dsxy, "dsx/dsy in waves of 6", check_dsxy, 22);
      wave_size = 0;
   }
   if (nv) {
      run_both(nv,
               ".input R0 IN[0].xy\n.output R4 OUT[0].x\n.output R5 OUT[1].x\n"
               "S6 FSWZADD R4, R0, R1, 0x99\nS6 FSWZADD R5, R0, R1, 0x1b\nS15 EXIT\n",
               "FSWZADD", check_fswz, 96);
      run_both(nv,
               ".input R0 IN[0].xy\n.output R4 OUT[0].xyzw\n.output R8 OUT[1].xyzw\n"
               ".output R12 OUT[2].x\n"
               "S6 LOP32I.AND R1, R1, 0x1f\n"
               "S2 W0 SHFL.IDX P0, R4, R0, 3, 0x1c03\nS2 W1 SHFL.UP P1, R5, R0, 5, 0x0\n"
               "S2 W2 SHFL.DOWN P2, R6, R0, 2, 0x1f\nS2 W3 SHFL.BFLY P3, R7, R0, 1, 0x1c03\n"
               "S2 W4 SHFL.IDX PT, R12, R0, R1, 0x1f\n"
               "S6 B0x1f SEL R8, RZ, 1, !P0\nS6 SEL R9, RZ, 1, !P1\nS6 SEL R10, RZ, 1, !P2\n"
               "S6 SEL R11, RZ, 1, !P3\nS15 EXIT\n",
               "SHFL", check_shfl, 96);
      run_both(nv,
               ".input R0 IN[0].xy\n.output R4 OUT[0].xyzw\n.output R8 OUT[1].x\n"
               "S6 LOP32I.AND R2, R0, 0x1\nS6 LOP32I.AND R3, R1, 0xff\nS6 MOV32I R8, 7\n"
               "S13 ISETP.NE.AND P0, PT, R2, RZ, PT\nS13 ISETP.NE.AND P2, PT, R3, RZ, PT\n"
               "S6 VOTE.ANY R4, P3, P0\nS6 VOTE.ALL RZ, P4, P2\nS6 VOTE.EQ RZ, P5, P2\n"
               "S13 @P0 VOTE.ALL RZ, P6, P2\n"
               "S6 SEL R5, RZ, 1, !P3\nS6 SEL R6, RZ, 1, !P4\nS6 SEL R7, RZ, 1, !P5\n"
               "S6 @P0 SEL R8, RZ, 1, !P6\nS15 EXIT\n",
               "VOTE", check_vote, 96);
   }
   isa_close(a3);
   isa_close(nv);
   return test_done();
}
