/*
 * The cycle model, measured (diffcomp bench latency): for each latency a
 * model states -- a fixed result distance, a hazard parameter, the time a
 * wait for a variable-latency result lasts -- a microbenchmark program in
 * the model's own assembly is run on the emulator, and the latency the
 * emulator shows is put beside what the compilers' delay function
 * (isa_delay, isa/delay.c) and the model's parameters say, and beside the
 * public figure the model was built from (hazard.figures in the model's
 * YAML, with its source). All three must agree.
 *
 * What "the latency the emulator shows" is, per kind of row:
 *
 *   LAT_GAP    the smallest distance between a producer and a dependent
 *              consumer at which the consumer reads the new value (the
 *              output equals the one at a long distance), in the model's
 *              units: delay slots (nops), issue cycles (stall counts),
 *              wait states (s_nop) or instructions. Every shorter distance
 *              must read the old value and be flagged, every longer one be
 *              clean: a value and a flag that disagree fail the row.
 *   LAT_WAIT   the cycles from a variable-latency producer's issue to the
 *              issue of the consumer that waits for it right after it
 *              ((ss)/(sy), a wait mask, s_waitcnt, wait): over `reps`
 *              links, one value; on interlocked models (agx) the emulator
 *              draws a completion time in [soft/2, 3 soft/2) per op, and
 *              the row wants exactly that range and reports its middle.
 *   LAT_EVENT  the smallest distance (or stall count) without a given
 *              hazard event (sm50 war_latency, bar_min, flow_stall).
 *   LAT_COUNT  the most ops in flight without a given event (agx
 *              max_pending).
 *
 * A program is head + link (repeated: reps times for LAT_WAIT, n times
 * for LAT_COUNT, once otherwise) + tail; in the link, `{gap}` becomes n
 * units of distance in the model's filler (gap_text), `{n}` the number n
 * and `{reg}` 4 + 2 x the repetition (a register of its own per op).
 * Lines ending in "; P" and "; C" are the producer and the consumer.
 */
#include "compiler/tgsi/tgsi.h"
#include "diff/diff.h"
#include "emu/emu.h"
#include "isa/isa.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum lat_kind { LAT_GAP, LAT_WAIT, LAT_EVENT, LAT_COUNT };
/* Where the model's own number comes from. */
enum lat_model { LM_DELAY, LM_SOFT, LM_PARAM };

struct lat_bench {
   const char *isa, *name, *what;
   enum lat_kind kind;
   enum lat_model model;
   const char *param; /* LM_PARAM: the hazard parameter */
   const char *event; /* LAT_EVENT, LAT_COUNT: the event (emu_event_names) */
   unsigned reps;     /* LAT_WAIT: links */
   unsigned max;      /* the largest distance or count tried (0: LAT_MAX_GAP) */
   const char *head, *link, *tail;
};

#define LAT_MAX_GAP 40 /* longest distance tried; the reference for LAT_GAP */

static const struct lat_bench benches[] = {
    /* a3xx: delay slots, (ss)/(sy) */
    {"a3xx", "alu_alu", "ALU result read by an ALU op", LAT_GAP, LM_DELAY, NULL, NULL, 1, 0,
     ".lanes 1\n.output r1.x OUT[0].x\n",
     "mov.f32f32 r0.x, (2.0) ; P\n{gap}add.f r1.x, r0.x, r0.x ; C\n", "end\n"},
    {"a3xx", "alu_sfu", "ALU result read by an SFU op (read 3 slots early)", LAT_GAP, LM_DELAY,
     NULL, NULL, 1, 0, ".lanes 1\n.output r2.x OUT[0].x\n",
     "mov.f32f32 r0.x, (4.0) ; P\n{gap}rcp r1.x, r0.x ; C\n", "(ss)mov.f32f32 r2.x, r1.x\nend\n"},
    {"a3xx", "alu_mad_src3", "ALU result read as the third source of mad (read 2 late)", LAT_GAP,
     LM_DELAY, NULL, NULL, 1, 0,
     ".lanes 1\n.output r1.x OUT[0].x\n"
     "mov.f32f32 r0.x, (2.0)\nmov.f32f32 r0.y, (3.0)\n(rpt2)nop\n",
     "mov.f32f32 r0.z, (5.0) ; P\n{gap}mad.f32 r1.x, r0.x, r0.y, r0.z ; C\n", "end\n"},
    {"a3xx", "alu_pred_flow", "predicate p0.x written by cmps, read by br", LAT_GAP, LM_DELAY, NULL,
     NULL, 1, 0,
     ".lanes 1\n.output r1.x OUT[0].x\n"
     "mov.f32f32 r0.x, (1.0)\nmov.f32f32 r1.x, (2.0)\n(rpt5)nop\n",
     "cmps.f.eq p0.x, r0.x, r0.x ; P\n{gap}br p0.x, #2 ; C\n", "mov.f32f32 r1.x, (3.0)\nend\n"},
    {"a3xx", "addr_write", "address register a0.x written, read by a relative operand", LAT_GAP,
     LM_DELAY, NULL, NULL, 1, 0,
     ".lanes 1\n.output r3.x OUT[0].x\n"
     "mov.f32f32 r1.x, (7.0)\nmov.f32f32 r2.x, (9.0)\n(rpt2)nop\n",
     "mov.s16s16 a0.x, 4 ; P\n{gap}mov.f32f32 r3.x, r<a0.x + 4> ; C\n", "end\n"},
    {"a3xx", "sfu", "SFU (rcp) result waited for by (ss)", LAT_WAIT, LM_SOFT, NULL, NULL, 2, 0,
     ".lanes 1\n.output r2.x OUT[0].x\nmov.f32f32 r0.x, (4.0)\n(rpt5)nop\n",
     "rcp r1.x, r0.x ; P\n(ss)mov.f32f32 r2.x, r1.x ; C\n", "end\n"},
    {"a3xx", "tex", "texture (sam) result waited for by (sy)", LAT_WAIT, LM_SOFT, NULL, NULL, 2, 0,
     ".lanes 1\n.texture 0 2D\n.output r2.x OUT[0].x\n"
     "mov.f32f32 r0.x, (0.5)\nmov.f32f32 r0.y, (0.5)\n(rpt5)nop\n",
     "sam (f32)(xyzw)r1.x, r0.x, s#0, t#0 ; P\n(sy)mov.f32f32 r2.x, r1.x ; C\n", "end\n"},
    {"a3xx", "ldg", "global load (ldg) waited for by (sy)", LAT_WAIT, LM_SOFT, NULL, NULL, 2, 0,
     ".lanes 1\n.buffer 0\n.output r2.x OUT[0].x\nmov.u32u32 r0.x, 0x01000000\n(rpt5)nop\n",
     "ldg.u32 r1.x, g[r0.x+0], 1 ; P\n(sy)mov.u32u32 r2.x, r1.x ; C\n", "end\n"},
    {"a3xx", "ldl", "local load (ldl) waited for by (ss)", LAT_WAIT, LM_SOFT, NULL, NULL, 2, 0,
     ".stage comp\n.block 1\n.lanes 1\n.shared 64\n.output r2.x OUT[0].x\n"
     "mov.u32u32 r0.x, 0\n(rpt5)nop\n",
     "ldl.u32 r1.x, l[r0.x+0], 1 ; P\n(ss)mov.u32u32 r2.x, r1.x ; C\n", "end\n"},

    /* sm50: stall counts, scoreboards */
    {"sm50", "alu", "ALU result read by an ALU op", LAT_GAP, LM_DELAY, NULL, NULL, 1, 0,
     ".lanes 1\n.output R3 OUT[0].x\n",
     "S1 MOV32I R1, 0x40000000 ; P\n{gap}S6 FADD R3, R1, R1 ; C\n", "S15 EXIT\n"},
    {"sm50", "predicate", "predicate written by ISETP, read by SEL", LAT_GAP, LM_DELAY, NULL, NULL,
     1, 0, ".lanes 1\n.output R1 OUT[0].x\nS6 MOV32I R2, 0x40000000\nS6 MOV32I R3, 0x40400000\n",
     "S1 ISETP.EQ.AND P0, PT, RZ, RZ, PT ; P\n{gap}S6 SEL R1, R2, R3, P0 ; C\n", "S15 EXIT\n"},
    {"sm50", "mufu", "MUFU.RCP result waited for on its scoreboard", LAT_WAIT, LM_SOFT, NULL, NULL,
     2, 0, ".lanes 1\n.output R3 OUT[0].x\nS6 MOV32I R1, 0x40800000\n",
     "S2 W0 MUFU.RCP R2, R1 ; P\nS6 B0x1 FADD R3, R2, R2 ; C\n", "S15 EXIT\n"},
    {"sm50", "conv", "conversion (I2F) result waited for on its scoreboard", LAT_WAIT, LM_SOFT,
     NULL, NULL, 2, 0, ".lanes 1\n.output R3 OUT[0].x\nS6 MOV32I R1, 0x4\n",
     "S2 W0 I2F.F32.S32 R2, R1 ; P\nS6 B0x1 FADD R3, R2, R2 ; C\n", "S15 EXIT\n"},
    {"sm50", "imul", "XMAD result waited for on its scoreboard", LAT_WAIT, LM_SOFT, NULL, NULL, 2,
     0, ".lanes 1\n.output R3 OUT[0].x\nS6 MOV32I R1, 0x4\n",
     "S2 W0 XMAD R2, R1, R1, RZ ; P\nS6 B0x1 IADD R3, R2, R2 ; C\n", "S15 EXIT\n"},
    {"sm50", "dfpu", "DADD result waited for on its scoreboard", LAT_WAIT, LM_SOFT, NULL, NULL, 2,
     0, ".lanes 1\n.output R6 OUT[0].x\nS6 MOV32I R2, 0x0\nS6 MOV32I R3, 0x3ff00000\n",
     "S2 W0 DADD R4, R2, R2 ; P\nS6 B0x1 MOV R6, R5 ; C\n", "S15 EXIT\n"},
    {"sm50", "tex", "texture (TEX) result waited for on its scoreboard", LAT_WAIT, LM_SOFT, NULL,
     NULL, 2, 0,
     ".lanes 1\n.texture 0 2D\n.output R4 OUT[0].x\n"
     "S6 MOV32I R0, 0x3f000000\nS6 MOV32I R1, 0x3f000000\n",
     "S2 W0 TEX.2D.Mf R2, R0, RZ, t0 ; P\nS6 B0x1 MOV R4, R2 ; C\n", "S15 EXIT\n"},
    {"sm50", "ldg", "global load (LDG) waited for on its scoreboard", LAT_WAIT, LM_SOFT, NULL, NULL,
     2, 0, ".lanes 1\n.buffer 0\n.output R3 OUT[0].x\nS6 MOV32I R1, 0x01000000\n",
     "S2 W0 LDG R2, [R1+0] ; P\nS6 B0x1 MOV R3, R2 ; C\n", "S15 EXIT\n"},
    {"sm50", "ldc", "constant load (LDC) waited for on its scoreboard", LAT_WAIT, LM_SOFT, NULL,
     NULL, 2, 0, ".lanes 1\n.value c[0][0x10] 42\n.output R3 OUT[0].x\nS6 MOV32I R1, 0x0\n",
     "S2 W0 LDC R2, c0[R1+0x10] ; P\nS6 B0x1 MOV R3, R2 ; C\n", "S15 EXIT\n"},
    {"sm50", "lds", "shared load (LDS) waited for on its scoreboard", LAT_WAIT, LM_SOFT, NULL, NULL,
     2, 0, ".stage comp\n.block 1\n.lanes 1\n.shared 64\n.output R3 OUT[0].x\nS6 MOV32I R1, 0x0\n",
     "S2 W0 LDS R2, [R1+0] ; P\nS6 B0x1 MOV R3, R2 ; C\n", "S15 EXIT\n"},
    {"sm50", "shfl", "SHFL result waited for on its scoreboard", LAT_WAIT, LM_SOFT, NULL, NULL, 2,
     0, ".lanes 1\n.output R3 OUT[0].x\nS6 MOV32I R4, 0x5\n",
     "S2 W0 SHFL.BFLY PT, R2, R4, 1, 0x1c03 ; P\nS6 B0x1 MOV R3, R2 ; C\n", "S15 EXIT\n"},
    {"sm50", "war_latency", "a source of MUFU overwritten without its read scoreboard", LAT_EVENT,
     LM_PARAM, "war_latency", "war", 1, 0,
     ".lanes 1\n.output R3 OUT[0].x\nS6 MOV32I R1, 0x40800000\n",
     "S1 W1 MUFU.RCP R2, R1 ; P\n{gap}S6 MOV32I R1, 0x3f800000 ; C\n",
     "S6 B0x2 FADD R3, R2, R2\nS15 EXIT\n"},
    {"sm50", "bar_min", "a wait on a scoreboard after the op that sets it", LAT_EVENT, LM_PARAM,
     "bar_min", "bar_early", 1, 0, ".lanes 1\n.output R3 OUT[0].x\nS6 MOV32I R1, 0x40800000\n",
     "S1 W0 MUFU.RCP R2, R1 ; P\n{gap}S6 B0x1 FADD R3, R2, R2 ; C\n", "S15 EXIT\n"},
    {"sm50", "flow_stall", "the stall count after a branch", LAT_EVENT, LM_PARAM, "flow_stall",
     "flow_stall", 1, 15, ".lanes 1\n.output R3 OUT[0].x\n", "S{n} BRA $next ; P\nnext:\n",
     "S6 MOV32I R3, 0x0\nS15 EXIT\n"},

    /* gfx9: wait states, counters */
    {"gfx9", "valu_valu", "VALU result read by a VALU op (interlocked)", LAT_GAP, LM_DELAY, NULL,
     NULL, 1, 0, ".lanes 1\n.output v2 OUT[0].x\n",
     "v_mov_b32_e32 v1, 2.0 ; P\n{gap}v_add_f32_e32 v2, v1, v1 ; C\n", "s_endpgm\n"},
    {"gfx9", "valu_sgpr_vmem", "SGPR written by a VALU op, read by a VMEM address", LAT_GAP,
     LM_DELAY, NULL, NULL, 1, 0,
     ".lanes 1\n.buffer 0\n.output v8 OUT[0].x\n"
     "v_mov_b32_e32 v6, 0x1000000\nv_mov_b32_e32 v7, 0\ns_mov_b32 s1, 0\n",
     "v_readlane_b32 s0, v6, 0 ; P\n{gap}global_load_dword v5, v7, s[0:1] offset:4 ; C\n",
     "s_waitcnt vmcnt(0)\nv_mov_b32_e32 v8, v5\ns_endpgm\n"},
    {"gfx9", "valu_sgpr_lane_select", "SGPR written by a VALU op, read as a v_readlane lane select",
     LAT_GAP, LM_DELAY, NULL, NULL, 1, 0,
     ".stage comp\n.block 2\n.lanes 2\n.sysval v0 THREAD_ID.x\n.output v3 OUT[0].x\n"
     "s_mov_b32 s4, 0\nv_mov_b32_e32 v2, 1\nv_add_u32_e32 v1, 7, v0\n",
     "v_readfirstlane_b32 s4, v2 ; P\n{gap}v_readlane_b32 s5, v1, s4 ; C\n",
     "v_mov_b32_e32 v3, s5\ns_endpgm\n"},
    {"gfx9", "valu_vcc_div_fmas", "VCC written by a VALU compare, read by v_div_fmas", LAT_GAP,
     LM_DELAY, NULL, NULL, 1, 0,
     ".lanes 1\n.output v3 OUT[0].x\nv_mov_b32_e32 v0, 1.0\nv_mov_b32_e32 v1, 2.0\n",
     "v_cmp_lt_f32_e32 vcc, v0, v1 ; P\n{gap}v_div_fmas_f32 v3, v0, v1, v1 ; C\n", "s_endpgm\n"},
    {"gfx9", "smem", "scalar load (s_load_dword) waited for by lgkmcnt(0)", LAT_WAIT, LM_SOFT, NULL,
     NULL, 2, 0,
     ".lanes 1\n.buffer 0\n.output v8 OUT[0].x\ns_mov_b32 s0, 0x1000000\ns_mov_b32 s1, 0\n",
     "s_load_dword s4, s[0:1], 0x0 ; P\ns_waitcnt lgkmcnt(0) ; C\n",
     "v_mov_b32_e32 v8, s4\ns_endpgm\n"},
    {"gfx9", "lds", "LDS load (ds_read_b32) waited for by lgkmcnt(0)", LAT_WAIT, LM_SOFT, NULL,
     NULL, 2, 0,
     ".stage comp\n.block 1\n.lanes 1\n.shared 64\n.output v8 OUT[0].x\nv_mov_b32_e32 v0, 0\n",
     "ds_read_b32 v1, v0 ; P\ns_waitcnt lgkmcnt(0) ; C\n", "v_mov_b32_e32 v8, v1\ns_endpgm\n"},
    {"gfx9", "vmem", "global load (global_load_dword) waited for by vmcnt(0)", LAT_WAIT, LM_SOFT,
     NULL, NULL, 2, 0,
     ".lanes 1\n.buffer 0\n.output v8 OUT[0].x\n"
     "v_mov_b32_e32 v6, 0x1000000\nv_mov_b32_e32 v7, 0\n",
     "global_load_dword v5, v[6:7], off ; P\ns_waitcnt vmcnt(0) ; C\n",
     "v_mov_b32_e32 v8, v5\ns_endpgm\n"},

    /* agx: interlocked ALU, wait slots */
    {"agx", "alu", "ALU result read by an ALU op (interlocked)", LAT_GAP, LM_DELAY, NULL, NULL, 1,
     0, ".lanes 1\n.output r4 OUT[0].x\n", "mov_imm r2, 0x40000000 ; P\n{gap}fadd r4, r2, r2 ; C\n",
     "stop\n"},
    {"agx", "local", "threadgroup load read by an ALU op (synchronous)", LAT_GAP, LM_DELAY, NULL,
     NULL, 1, 0,
     ".stage comp\n.block 1\n.lanes 1\n.shared 64\n.output r14 OUT[0].x\n"
     "mov_imm r10, 0\nmov_imm r16, 0x40000000\nthreadgroup_store i32, 1, r16, r10l, 0\n",
     "threadgroup_load i32, 1, r12, r10l, 0 ; P\n{gap}fadd r14, r12, r12 ; C\n", "stop\n"},
    {"agx", "mem", "device load waited for on its slot", LAT_WAIT, LM_SOFT, NULL, NULL, 512, 0,
     ".lanes 1\n.buffer 0\n.output r4 OUT[0].x\nmov_imm r2, 0x1000000\nmov_imm r3, 0\n",
     "device_load i32, 1, r4, r2, 1, slot 0 ; P\nwait 0 ; C\n", "stop\n"},
    {"agx", "texture", "texture sample waited for on its slot", LAT_WAIT, LM_SOFT, NULL, NULL, 512,
     0,
     ".lanes 1\n.texture 0 2D\n.output r10 OUT[0].x\nmov_imm r8, 0x3f000000\n"
     "mov_imm r9, 0x3f000000\n",
     "texture_sample 2d, xyzw, r4, r8, r0, 0, 0, slot 1 ; P\nwait 1 ; C\n", "stop\n"},
    {"agx", "max_pending", "device loads in flight on one slot", LAT_COUNT, LM_PARAM, "max_pending",
     "pending", 1, 0,
     ".lanes 1\n.buffer 0\n.output r4 OUT[0].x\nmov_imm r2, 0x1000000\n"
     "mov_imm r3, 0\n",
     "device_load i32, 1, r{reg}, r2, 0, slot 0\n", "wait 0\nstop\n"},
};

/* ------------------------------------------------------------------ */
/* Programs                                                            */

/* n units of distance in the model's filler: delay slots are nops, stall
 * counts idle cycles after an `S1` producer (NOPs of one cycle each, so
 * the distance is n issue cycles; 0 and 1 are the same), wait states
 * s_nop (N + 1 states each), interlocked models independent moves. */
static void
gap_text(const struct isa_model *m, unsigned n, struct strbuf *b)
{
   switch (isa_hazard_kind(m)) {
   case ISA_HAZARD_DELAY_SLOTS:
      for (unsigned i = 0; i < n; i++)
         strbuf_add(b, "nop\n");
      break;
   case ISA_HAZARD_STALL_COUNTS:
      for (unsigned i = 1; i < n; i++)
         strbuf_add(b, "S1 NOP\n");
      break;
   case ISA_HAZARD_WAIT_STATES:
      for (unsigned left = n; left;) {
         unsigned k = MIN2(left, 16u);
         strbuf_printf(b, "s_nop %u\n", k - 1);
         left -= k;
      }
      break;
   default:
      for (unsigned i = 0; i < n; i++)
         strbuf_add(b, "mov_imm r30, 0\n");
      break;
   }
}

/* Is this program line an instruction (not blank, a directive, a label
 * or a comment)? */
static bool
is_insn_line(const char *l, size_t n)
{
   while (n && (*l == ' ' || *l == '\t'))
      l++, n--;
   for (size_t i = 0; i < n; i++)
      if (l[i] == ';' || (l[i] == '/' && i + 1 < n && l[i + 1] == '/'))
         n = i;
   while (n && (l[n - 1] == ' ' || l[n - 1] == '\t'))
      n--;
   return n && l[0] != '.' && l[n - 1] != ':';
}

#define LAT_MAX_MARKS 1024

struct lat_prog {
   char *text;
   unsigned np, nc, p[LAT_MAX_MARKS], c[LAT_MAX_MARKS]; /* instruction indices of the marks */
};

/* Expands the link with {gap} and {n}, and numbers the instructions. */
static void
build(const struct isa_model *m, const struct lat_bench *bn, unsigned n, struct lat_prog *out)
{
   struct strbuf b = {0};
   unsigned reps = bn->kind == LAT_WAIT ? bn->reps : bn->kind == LAT_COUNT ? n : 1;
   strbuf_add(&b, bn->head);
   for (unsigned r = 0; r < reps; r++)
      for (const char *s = bn->link; *s;) {
         if (!strncmp(s, "{gap}", 5)) {
            gap_text(m, n, &b);
            s += 5;
         } else if (!strncmp(s, "{reg}", 5)) {
            strbuf_printf(&b, "%u", 4 + 2 * r);
            s += 5;
         } else if (!strncmp(s, "{n}", 3)) {
            strbuf_printf(&b, "%u", n);
            s += 3;
         } else {
            strbuf_printf(&b, "%c", *s++);
         }
      }
   strbuf_add(&b, bn->tail);
   memset(out, 0, sizeof(*out));
   out->text = strbuf_take(&b);
   unsigned idx = 0;
   for (const char *l = out->text; *l;) {
      const char *e = strchr(l, '\n');
      size_t len = e ? (size_t)(e - l) : strlen(l);
      if (is_insn_line(l, len)) {
         if (len >= 3 && !strncmp(l + len - 3, "; P", 3) && out->np < LAT_MAX_MARKS)
            out->p[out->np++] = idx;
         if (len >= 3 && !strncmp(l + len - 3, "; C", 3) && out->nc < LAT_MAX_MARKS)
            out->c[out->nc++] = idx;
         idx++;
      }
      l += len + (e != NULL);
   }
}

/* ------------------------------------------------------------------ */
/* Runs                                                                */

struct lat_run {
   uint32_t out;                  /* OUT[0].x of lane 0 */
   uint64_t counts[EMU_EV_COUNT]; /* events */
   int64_t *issue;                /* issue cycle per instruction (LAT_WAIT), or NULL */
   struct isa_insn pi, ci;        /* the first producer and consumer, decoded */
   bool have_pc;
};

static void
trace_issue(void *user, const struct emu_trace *t)
{
   struct lat_run *r = user;
   if (r->issue)
      r->issue[t->index] = (int64_t)t->cycle;
}

/* Assembles and runs one program on one lane (seed 1). false with d
 * filled when it does not assemble, load or run to the end. */
static bool
run_prog(const struct isa_model *m, const struct lat_bench *bn, const struct lat_prog *p,
         bool want_issue, struct lat_run *r, struct diag_list *d)
{
   struct emu_asm as;
   memset(r, 0, sizeof(*r));
   char *file = xasprintf("<bench latency %s %s>", bn->isa, bn->name);
   bool ok = emu_asm_parse(m, p->text, file, &as, d);
   free(file);
   if (!ok)
      return false;
   struct emu_code *code = NULL;
   struct env *e = NULL;
   struct diag_list td = {0};
   struct tgsi_shader *s = NULL;
   ok = false;
   if (emu_load(&as.prog, &code, d) != EMU_OK)
      goto done;
   s = tgsi_parse(as.tgsi, strlen(as.tgsi), "<declarations>", NULL, &td);
   if (!s || !(e = diff_gen_inputs(s, 1, 1, d)))
      goto done;
   if (as.shared)
      e->shared_size = as.shared;
   if (!e->out && !env_alloc_outputs(e, MAX2(as.outputs, 1u), 1))
      goto done;
   unsigned n = emu_code_count(code);
   if (want_issue) {
      r->issue = xcalloc(n, sizeof(*r->issue));
      for (unsigned i = 0; i < n; i++)
         r->issue[i] = -1;
   }
   if (p->np && p->nc && p->p[0] < n && p->c[0] < n) {
      r->pi = *emu_code_insn(code, p->p[0]);
      r->ci = *emu_code_insn(code, p->c[0]);
      r->have_pc = true;
   }
   struct emu_options o = {.trace = trace_issue, .trace_user = r};
   struct emu_result res;
   enum emu_status st = emu_run(code, e, &o, &res, d);
   if (st == EMU_OK || st == EMU_FAULT) {
      memcpy(r->counts, res.counts, sizeof(r->counts));
      r->out = e->out[env_out_index(e, 0, 0, 0)];
      ok = st == EMU_OK;
      if (!ok)
         diag_add(d, DIAG_ERROR, NULL, 0, 0, NULL, "bench latency %s %s: the program faults",
                  bn->isa, bn->name);
   }
   emu_result_free(&res);
done:
   diag_clear(&td);
   tgsi_shader_free(s);
   env_free(e);
   emu_code_free(code);
   emu_asm_free(&as);
   if (!ok) {
      free(r->issue);
      r->issue = NULL;
   }
   return ok;
}

static uint64_t
hazards(const struct lat_run *r)
{
   uint64_t n = 0;
   for (unsigned k = 0; k < EMU_EV_COUNT; k++)
      n += r->counts[k];
   return n;
}

static int
event_kind(const char *name)
{
   for (unsigned k = 0; k < EMU_EV_COUNT; k++)
      if (!strcmp(emu_event_names[k], name))
         return (int)k;
   return -1;
}

DC_PRINTF(2, 3)
static void
fail(struct diff_latency *row, const char *fmt, ...)
{
   if (row->why)
      return; /* the first reason */
   va_list ap;
   va_start(ap, fmt);
   row->why = xvasprintf(fmt, ap);
   va_end(ap);
}

/* What the model says: isa_delay() between the producer's destinations
 * and any source of the consumer, the implicit ones too (in the model's
 * units; -1 when it asks for a sync instead), the producer class's soft
 * latency or a parameter. */
static int
model_value(const struct isa_model *m, const struct lat_bench *bn, const struct lat_run *r)
{
   if (bn->model == LM_PARAM)
      return isa_hazard_param(m, bn->param, -1);
   if (!r->have_pc)
      return -1;
   if (bn->model == LM_SOFT) {
      struct isa_class_info ci;
      isa_class_info(m, r->pi.cls, &ci);
      return ci.soft_latency;
   }
   int best = 0;
   unsigned nid, nis;
   isa_op_implicit(m, r->pi.op, true, &nid);
   isa_op_implicit(m, r->ci.op, false, &nis);
   for (unsigned d = 0; d < (r->pi.ndst ? 1u : 0u) + nid; d++)
      for (unsigned s = 0; s < r->ci.nsrc + nis; s++) {
         int ps = r->pi.ndst && !d ? 0 : ISA_SLOT_IMP_DST((int)d - (r->pi.ndst ? 1 : 0));
         int cs = s < r->ci.nsrc ? ISA_SLOT_SRC((int)s) : ISA_SLOT_IMP_SRC((int)(s - r->ci.nsrc));
         struct isa_delay dl = isa_delay(m, &r->pi, ps, &r->ci, cs);
         if (dl.sync != ISA_SYNC_NONE && !d && s < r->ci.nsrc)
            return -1;
         if (dl.sync == ISA_SYNC_NONE)
            best = MAX2(best, dl.distance);
      }
   return best;
}

/* LAT_GAP, LAT_EVENT and LAT_COUNT: one run per distance (or count) from
 * 0 to the row's max. */
static bool
scan(const struct isa_model *m, const struct lat_bench *bn, struct diff_latency *row,
     struct diag_list *d)
{
   struct lat_run runs[LAT_MAX_GAP + 1];
   int top = bn->max ? (int)MIN2(bn->max, LAT_MAX_GAP) : LAT_MAX_GAP;
   int ev = bn->kind == LAT_GAP ? -1 : event_kind(bn->event);
   for (int n = 0; n <= top; n++) {
      struct lat_prog p;
      build(m, bn, (unsigned)n, &p);
      bool ok = run_prog(m, bn, &p, false, &runs[n], d);
      free(p.text);
      if (!ok)
         return false;
      if (n == 0)
         row->model = model_value(m, bn, &runs[0]);
   }
   if (bn->kind == LAT_GAP) {
      /* the smallest distance from which on the value is the far one */
      const struct lat_run *far = &runs[top];
      if (hazards(far))
         fail(row, "the run at distance %d is not clean", top);
      int k = top;
      while (k > 0 && runs[k - 1].out == far->out)
         k--;
      row->measured = k;
      for (int n = 0; n <= top; n++)
         if ((n < k) != (hazards(&runs[n]) != 0))
            fail(row, "at distance %d the value is %s but the run is %s", n,
                 n < k ? "the old one" : "the new one", hazards(&runs[n]) ? "flagged" : "clean");
      return true;
   }
   if (ev < 0) {
      fail(row, "no event '%s'", bn->event);
      return true;
   }
   /* LAT_EVENT: smallest n from which on the event is gone; LAT_COUNT:
    * the most ops before it appears */
   bool count = bn->kind == LAT_COUNT;
   int k = count ? 0 : top;
   if (count)
      while (k < top && !runs[k + 1].counts[ev])
         k++;
   else
      while (k > 0 && !runs[k - 1].counts[ev])
         k--;
   row->measured = k;
   for (int n = 0; n <= top; n++) {
      bool want = count ? n > k : n < k;
      if (want != (runs[n].counts[ev] != 0) || hazards(&runs[n]) != runs[n].counts[ev])
         fail(row, "at %d the run %s", n,
              hazards(&runs[n]) != runs[n].counts[ev] ? "has other hazards"
              : want                                  ? "lacks the event"
                                                      : "has the event");
   }
   return true;
}

/* LAT_WAIT: issue(consumer) - issue(producer) over every link. */
static bool
wait_cycles(const struct isa_model *m, const struct lat_bench *bn, struct diff_latency *row,
            struct diag_list *d)
{
   struct lat_prog p;
   struct lat_run r;
   build(m, bn, 0, &p);
   bool ok = run_prog(m, bn, &p, true, &r, d);
   if (ok) {
      row->model = model_value(m, bn, &r);
      int64_t lo = INT64_MAX, hi = INT64_MIN;
      for (unsigned i = 0; i < p.np && i < p.nc; i++) {
         int64_t w = r.issue[p.c[i]] - r.issue[p.p[i]];
         lo = MIN2(lo, w);
         hi = MAX2(hi, w);
      }
      if (hazards(&r))
         fail(row, "the run is not clean");
      row->lo = (int)lo;
      row->hi = (int)hi;
      row->measured = (int)lo;
      if (isa_hazard_kind(m) == ISA_HAZARD_INTERLOCKED && row->model >= 2) {
         /* drawn per op in [soft / 2, 3 soft / 2): want that whole range */
         row->want_lo = row->model / 2;
         row->want_hi = row->model / 2 + row->model - 1;
         row->measured = (int)((lo + hi + 1) / 2);
         if (lo != row->want_lo || hi != row->want_hi)
            fail(row, "%d links waited %d..%d cycles, not %d..%d", p.np, row->lo, row->hi,
                 row->want_lo, row->want_hi);
      } else if (lo != hi) {
         fail(row, "the links waited %d..%d cycles", row->lo, row->hi);
      }
   }
   free(r.issue);
   free(p.text);
   return ok;
}

static const char *
unit_name(const struct isa_model *m, const struct lat_bench *bn)
{
   if (bn->kind == LAT_WAIT)
      return "cycles";
   if (bn->kind == LAT_COUNT)
      return "ops";
   switch (isa_hazard_kind(m)) {
   case ISA_HAZARD_DELAY_SLOTS:
      return "slots";
   case ISA_HAZARD_STALL_COUNTS:
      return "cycles";
   case ISA_HAZARD_WAIT_STATES:
      return "states";
   default:
      return "insns";
   }
}

bool
diff_latency_run(const struct isa_model *m, struct diff_latency **out, unsigned *nout,
                 struct diag_list *d)
{
   const char *name = isa_model_name(m);
   struct diff_latency *rows = NULL;
   unsigned n = 0, cap = 0;
   bool ok = true;
   for (unsigned i = 0; i < ARRAY_SIZE(benches) && ok; i++) {
      const struct lat_bench *bn = &benches[i];
      if (strcmp(bn->isa, name))
         continue;
      struct diff_latency row = {.name = bn->name,
                                 .what = bn->what,
                                 .unit = unit_name(m, bn),
                                 .measured = -1,
                                 .model = -1,
                                 .figure = -1};
      struct isa_figure_info f;
      for (unsigned k = 0; isa_figure_info(m, k, &f); k++)
         if (!strcmp(f.name, bn->name)) {
            row.figure = f.value;
            row.source = f.source;
         }
      ok = bn->kind == LAT_WAIT ? wait_cycles(m, bn, &row, d) : scan(m, bn, &row, d);
      if (row.figure < 0)
         fail(&row, "the model has no figure '%s' (hazard.figures)", bn->name);
      else if (row.model < 0)
         fail(&row, "the model gives no number for it");
      else if (row.measured != row.model || row.model != row.figure)
         fail(&row, "measured %d, model %d, figure %d", row.measured, row.model, row.figure);
      row.ok = !row.why;
      VEC_PUSH(rows, n, cap, row);
   }
   /* every figure has a microbenchmark */
   struct isa_figure_info f;
   for (unsigned k = 0; ok && isa_figure_info(m, k, &f); k++) {
      bool found = false;
      for (unsigned i = 0; i < n; i++)
         found |= !strcmp(rows[i].name, f.name);
      if (!found) {
         struct diff_latency row = {.name = f.name,
                                    .what = "(no microbenchmark)",
                                    .unit = "",
                                    .measured = -1,
                                    .model = -1,
                                    .figure = f.value,
                                    .source = f.source};
         fail(&row, "no microbenchmark measures the figure '%s'", f.name);
         VEC_PUSH(rows, n, cap, row);
      }
   }
   *out = rows;
   *nout = n;
   return ok;
}

void
diff_latency_free(struct diff_latency *rows, unsigned n)
{
   for (unsigned i = 0; i < n; i++)
      free(rows[i].why);
   free(rows);
}
