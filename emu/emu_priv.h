/*
 * The emulator's internals, shared by the files of emu/: the decoded
 * program (one compact struct emu_op per instruction, built once by
 * load.c), the per-wave state the dispatcher runs on, and the kernels.
 *
 * Invariants the hot path relies on:
 *  - every register of every non-constant file is a "unit"; a wave keeps
 *    two buffers of wave-size words per unit (regs[(unit * 2 + b) * S],
 *    S its group's stride)
 *    and meta[unit].cur names the one holding the newest value; the other
 *    holds the value before it, which is what a read sees before the newest
 *    write becomes visible (the hardware's stale value);
 *  - a wave has at most EMU_MAX_WAVE (64) lanes, so lane sets fit a
 *    uint64_t; the lane loops use 0 / ~0u words (exec[]) so that masks
 *    apply with selects, not branches;
 *  - timing state (cycles, ready times, sync epochs) is per wave, never per
 *    lane; a register only remembers which lanes its newest write covered,
 *    so that a read by other lanes (the other side of a divergent branch)
 *    is no hazard.
 */
#ifndef DC_EMU_PRIV_H
#define DC_EMU_PRIV_H

#include "emu/emu.h"
#include "isa/isa.h"
#include "isa/sem.h"

#include <assert.h>

#define EMU_MAX_WAVE    64
#define EMU_MAX_STACK   64 /* reconvergence stack entries (SSY/DIV) */
#define EMU_NSYNC       16 /* sync kinds: ss/sy or scoreboards 0..13 + 1, and "never" */
#define EMU_SYNC_NEVER  15 /* a variable-latency result nobody can wait for */
#define EMU_INF         INT64_MAX
#define EMU_LONG_AGO    (-(INT64_C(1) << 40)) /* ready time of values present at the start */
#define EMU_BATCH_LANES 512                   /* lanes of a group of waves outside compute */
#define EMU_UNI_SLOTS   16                    /* uniform buffers kept per run and source slot */

/* Bit l of a 32-bit word, by table: lane loops testing or setting lane
 * l's bit of a lane set vectorize (no per-lane shift). */
static const uint32_t emu_lane_bit[32] = {
    1u << 0,  1u << 1,  1u << 2,  1u << 3,  1u << 4,  1u << 5,  1u << 6,  1u << 7,
    1u << 8,  1u << 9,  1u << 10, 1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 15,
    1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20, 1u << 21, 1u << 22, 1u << 23,
    1u << 24, 1u << 25, 1u << 26, 1u << 27, 1u << 28, 1u << 29, 1u << 30, 1u << 31};

/* The first lane of mask[0 .. n - 1] with bit 0 set, n if none. */
static inline unsigned
emu_first_lane(const uint32_t *mask, unsigned n)
{
   unsigned f = 0;
   while (f < n && !(mask[f] & 1))
      f++;
   return f;
}

enum emu_kind {
   EMU_K_NOP,
   EMU_K_ALU,
   EMU_K_BRANCH,
   EMU_K_JUMP,
   EMU_K_END,
   EMU_K_KILL,
   EMU_K_BARRIER,
   EMU_K_SSY,
   EMU_K_SYNC,
   EMU_K_TEX,
   EMU_K_LOAD,
   EMU_K_STORE,
   EMU_K_LDC,
   EMU_K_ATOMIC,
   EMU_K_XLANE, /* reads other lanes: quad derivatives, swizzles, shuffles */
   EMU_K_WIDE,  /* FP64: register-pair operands (emu_exec_wide) */
   EMU_K_AST,   /* attribute store: stage outputs (gs.c) */
   EMU_K_EMIT,  /* geometry-shader vertex emit / primitive cut (gs.c) */
   EMU_K_EXEC,  /* execution-mask stack (agx if/else/while/pop_exec, flow.c) */
   EMU_K_JMPX,  /* branch if any / no lane is active (agx jmp_exec_any/none) */
   EMU_K_SALU,  /* scalar ALU, once per wave on every lane: 64-bit values, SCC (salu.c) */
   EMU_K_ILLEGAL,
};

enum emu_src_kind {
   EMU_S_NONE,
   EMU_S_REG,      /* unit */
   EMU_S_CONST,    /* slot in the const store */
   EMU_S_IMM,      /* value */
   EMU_S_REL_REG,  /* unit base + address register + value, bounded by limit */
   EMU_S_REL_CONST /* const slot base + address register + value, bounded by limit */
};

/* How a source is viewed before the modifiers, and a result stored. */
enum emu_conv {
   EMU_CV_NONE,
   EMU_CV_F16,  /* source: f16 bits -> f32; result: f32 -> f16 */
   EMU_CV_S16,  /* source: sign-extend the low 16 bits; result: keep 16 */
   EMU_CV_U16,  /* source: zero-extend the low 16 bits; result: keep 16 */
   EMU_CV_PNOT, /* source: a negated predicate, bit 0 flipped */
};

/* What an ALU result is, for (sat) and half-precision stores. */
enum emu_res {
   EMU_R_INT,
   EMU_R_FLOAT,
   EMU_R_BOOL,
};

struct emu_src {
   uint8_t kind;    /* enum emu_src_kind */
   uint8_t mods;    /* ISA_OPND_F_NEG | ABS | NOT to apply */
   uint8_t isfloat; /* the modifiers are float ones */
   uint8_t conv;    /* enum emu_conv */
   uint8_t rinc;    /* advances with each (rptN) repeat */
   uint8_t count;   /* consecutive registers read (coordinates, store data) */
   int8_t read_adj; /* read_delay - read_early: when this slot reads, relative to issue;
                     * wait-state models: the cycles a read may come before ready and
                     * still lack no wait state (load.c wait_slack) */
   uint8_t file;
   uint16_t index;     /* register index (events) */
   uint8_t direct;     /* a register read as it stands: no view, modifier or other lane */
   uint32_t unit;      /* REG: unit; CONST: const store slot */
   uint32_t value;     /* IMM: value; REL: signed offset */
   uint32_t value_hi;  /* IMM: the high word a 64-bit slot reads (isa_opnd.hi; a
                        * fixed register: value) */
   uint32_t addr_unit; /* REL: the address register's unit */
   uint32_t base;      /* REL: first unit / const slot of the file */
   uint32_t limit;     /* REL: registers in the file; REG: registers from unit to its end */
   uint8_t ftz;        /* float source: flush denormals */
   uint8_t hi;         /* a half register aliasing a full one: 1 = its high half */
   uint8_t sel;        /* sub-dword select: 0 none, else 1 + enum sem_sdwa_sel (gfx9 SDWA) */
   uint8_t sext;       /* the select sign-extends */
   uint8_t lanemask;   /* a per-lane op reads a 64-bit lane mask: each lane its bit (gfx9) */
   uint8_t wide;       /* a scalar op reads a 64-bit value: registers unit, unit + 1 */
   uint8_t src_slot;   /* 1 + the instruction's source slot (memory ops move sources) */
   uint8_t dpp;        /* read from another lane by the op's DPP control (gfx9) */
   uint8_t mod16;      /* a 16-bit slot read unconverted: modifiers act on bit 15 */
};

struct emu_dst {
   uint8_t kind;  /* EMU_S_NONE or EMU_S_REG; EMU_S_IMM: a discarding register */
   uint8_t conv;  /* enum emu_conv */
   uint8_t count; /* consecutive registers written (texture, loads) */
   uint8_t plain; /* readers' read_adj does not apply (address registers) */
   uint8_t file;
   uint16_t index;
   uint32_t unit;
   uint32_t fixed_unit; /* a discarding register inside the group, or UINT32_MAX */
   int32_t lat;         /* fixed latency: cycles from issue until a read sees it */
   uint8_t half;        /* a half of a full register: 1 low, 2 high (the other half stays) */
   uint8_t sel;         /* sub-dword destination select: 0 none, else 1 + enum sem_sdwa_sel */
   uint8_t unused;      /* enum sem_sdwa_unused: the other bits */
   uint8_t lanemask;    /* a per-lane op writes a lane mask to unit, unit + 1 (gfx9 VOPC) */
   uint8_t wide;        /* a scalar op writes a 64-bit value to unit, unit + 1 */
};

/* A texture instruction's operands (tex.c): where each value is in the
 * register groups A (src[0]) and B (src[1]), as group << 4 | register,
 * or -1 when absent. */
enum emu_tex_kind { EMU_TX_SAMPLE, EMU_TX_FETCH, EMU_TX_QUERY, EMU_TX_SAMPLES, EMU_TX_LOD };
enum emu_tex_lod { EMU_TL_AUTO, EMU_TL_ZERO, EMU_TL_LOD, EMU_TL_BIAS };
struct emu_tex {
   uint8_t kind, lod;
   uint8_t ncoord;     /* coordinates in the group (a3xx 1-D: 2) */
   uint8_t target;     /* enum tgsi_texture the encoding names, or UNKNOWN: the bound one */
   uint8_t layer_int;  /* the array layer is an integer */
   uint8_t off_packed; /* texel offsets packed this many bits each in one register (0: not) */
   uint8_t gather;     /* a gather of component gather - 1 (0: not a gather) */
   uint8_t unminify;   /* integer coordinates in level-0 units (a3xx isaml) */
   uint8_t layer_amd;  /* gfx9: the layer follows the spatial coordinates in a body of 3 */
   uint8_t layer16;    /* agx: the layer is the low 16 bits, an integer */
   uint8_t dfetch;     /* agx: group C is one value fetched through its view (an f16 or
                        * u16 half register: the level or bias) */
   int8_t coord, layer, ref, lodv, off, proj;
   int8_t ddx, ddy;      /* explicit gradients: component k at ddx + k * dstep, or -1 */
   uint8_t dstep, ngrad; /* ngrad: the components the layout holds */
   uint8_t nreg[3];      /* registers read per group (agx: C holds the gradients) */
};

struct emu_op;
struct emu_wave;
struct emu_run;

/* An ALU kernel: d[j][i] = f(s[0][i], s[1][i], ...) for i < n. */
typedef void (*emu_kern_fn)(uint32_t *const *d, const uint32_t *const *s, unsigned n,
                            const struct emu_op *op);

/* The fields the ALU path reads come first (flags, kern, args, dst, src:
 * about four cache lines of an op), the rest after them: a loop's ops
 * then share the data cache with its registers. */
struct emu_op {
   uint8_t kind;       /* enum emu_kind */
   uint8_t unset_srcs; /* bit k: source k reads a register with no value at wave start */
   uint8_t ndst, nsrc;
   uint8_t rpt;  /* (rptN): N more sub-instructions */
   uint8_t nopn; /* (nopN): N idle cycles after */
   uint8_t ss, sy, jp, sat;
   uint8_t res; /* enum emu_res */
   uint8_t illegal;
   uint8_t sync;    /* sync kind results wait on (0: fixed latency) */
   uint8_t war;     /* sync kind source reads are protected by (0: none) */
   uint8_t wait;    /* sync kinds waited for before issue (bit k: kind k + 1) */
   uint8_t stall;   /* stall count (stall-count models) */
   uint8_t flow;    /* class is a flow class */
   uint8_t fast;    /* ALU without waits: the dispatcher's fast path */
   uint8_t batch;   /* waves in lockstep stay so through it (no divergence, no relative reads) */
   uint8_t scalar;  /* a scalar class: every lane of the wave, whatever EXEC (gfx9) */
   int32_t advance; /* cycles from this issue to the next (no waits) */
   int32_t idle;    /* of which stall-count idle cycles (figures) */
   uint8_t has_guard, guard_not, guard_never;
   uint8_t ftz;
   uint16_t sem;
   /* DPP (isa/isa.h): 1 + dpp_ctrl (0: none); bound_ctrl, row and bank masks below */
   uint16_t dpp;
   int32_t soft;      /* variable latency, cycles */
   int32_t war_until; /* cycles after issue until the sources are read (-1: until synced) */
   uint32_t guard_unit;
   uint32_t addr;
   uint8_t writes_exec; /* a destination covers the EXEC mask: the active lanes change */
   emu_kern_fn kern;
   struct sem_args args;
   struct emu_dst dst[ISA_MAX_DST];
   struct emu_src src[ISA_MAX_SRC];
   uint32_t size;
   int32_t target; /* branch/SSY target instruction, -1 if outside the program */
   /* memory and texture */
   uint8_t space;      /* EMU_SPACE_* */
   uint8_t elem_bytes; /* 1, 2 or 4 */
   uint8_t elem_signed;
   uint8_t ncomp;     /* components loaded / stored */
   uint8_t off_elems; /* src[1] is an offset in elements, immediate or register (agx) */
   uint8_t pair;      /* two halves, offsets src[1] and src[3], data src[2] and src[4] */
   uint8_t atom_op;   /* enum env_atomic_op (EMU_K_ATOMIC) */
   uint8_t atom_sub;  /* a3xx sub: the data is negated */
   uint8_t atom_swap; /* compare-and-swap data is (compare, new), not (new, compare) */
   uint8_t wrmask;    /* texture components written */
   uint8_t dmask;     /* gfx9 MIMG: components returned, packed from dst up; 0: wrmask */
   uint8_t emit_mode; /* EMU_K_EMIT: bit 0 emit the vertex, bit 1 end the primitive */
   uint8_t gs_msg;    /* EMU_K_EMIT by s_sendmsg (gfx9): no handle, the lane count */
   uint8_t gs_stream; /* the message's stream */
   uint8_t unordered; /* counter results return out of order (gfx9 SMEM) */
   uint8_t waitcnt;   /* s_waitcnt: cnt[] says how far each counter must drop */
   uint8_t has_scc;   /* scc_dst: an implicit SCC destination (sem_scc) */
   uint8_t has_cond;  /* cond: the branch's implicit condition register (gfx9 s_cbranch_*) */
   struct emu_dst scc_dst;
   struct emu_src cond;
   int8_t cnt[3]; /* vmcnt, lgkmcnt, expcnt (sync kinds 1..3): outstanding allowed, -1 any */
   uint16_t tex_unit;
   uint8_t tex_rsrc; /* gfx9 MIMG: the unit is the first word of src[2], a descriptor */
   uint8_t has_base; /* src[3] is a base register added to the address (gfx9 saddr) */
   uint8_t dpp_bound, dpp_rows, dpp_banks;
   uint8_t addr_hi; /* src[0] is a 64-bit pair (agx): its high word must be 0, the env's
                     * addresses being 32-bit */
   struct emu_tex tex;
   uint32_t cbase, climit; /* LDC: the bank's first const store slot, its size */
};

enum { EMU_SPACE_GLOBAL, EMU_SPACE_SHARED };

/* Register files as the emulator stores them. */
struct emu_file {
   enum isa_file_kind kind;
   unsigned count, width;
   uint32_t base; /* first unit (non-constant files) */
   int fixed;     /* the register that reads fixed_value, writes discarded, or -1 */
   uint32_t fixed_value;
   int half_of;       /* a half file aliasing this full file's halves (agx rNl/rNh): no units */
   const bool *undef; /* the model's registers with no value at wave start, or NULL */
};

/* A (file, bank) pair of a constant file the program reads. */
struct emu_cbank {
   uint8_t file;
   uint16_t bank;
   uint32_t base; /* first slot in the const store */
};

struct emu_code {
   const struct isa_model *model;
   struct isa_insn *insns;
   struct emu_op *ops;
   unsigned n;
   struct emu_file *files;
   unsigned nfiles;
   uint32_t nunits;
   struct emu_cbank *cbanks;
   unsigned ncbanks, cbanks_cap;
   uint32_t nconst; /* const store slots */
   enum isa_hazard_kind hazard;
   bool stack_flow;    /* the model reconverges through SSY/SYNC */
   bool exec_stack;    /* the model masks lanes by a nesting count (agx r0l) */
   bool exec_mask;     /* the model masks lanes by an EXEC register pair (gfx9 "exec") */
   uint32_t exec_lo;   /* exec_mask: the unit of EXEC's low word; the high word follows */
   uint32_t exec_unit; /* exec_stack: the full register whose low half is the count */
   bool delay_slots;
   int bar_min, min_stall, flow_stall;
   int max_pending; /* interlocked: ops a wait slot may have in flight (0: no limit) */
   struct emu_binding *binds;
   unsigned nbinds;
   uint32_t *touched; /* units the program can read or write: what a group zeroes and a
                       * wave resets (no other unit's timing state is ever used) */
   unsigned ntouched;
   uint8_t *is_touched;      /* per unit: in touched (asserts) */
   bool uses_shared;         /* LDL/STL/atomics: shared memory, or atomics anywhere (their order) */
   bool lockstep;            /* writes no memory and no stage output: the waves of a group
                              * may run interleaved and join their batch again (emu.c) */
   int min_read_adj;         /* the least read_adj of any source, at most 0 */
   uint32_t gs_max_vertices; /* the program's, 0 = 1 */
   struct emu_wait_rule *wait_rules; /* wait-state models: read from the model, not isa_delay */
   unsigned nwait_rules;
   /* the rules about source slot k of op i as the consumer: wait_sel[wait_at[j] ..
    * wait_at[j + 1]) for j = i * ISA_MAX_SRC + k (load.c, timing.c) */
   uint32_t *wait_at;
   uint16_t *wait_sel;
   int32_t *op_of_word; /* wait-state models: the op at byte address 4w, or -1 (timing.c) */
   uint32_t nwords;
};

/* A row of the model's wait-state table with its classes resolved (gfx9:
 * a VALU write of an SGPR, then a VMEM read of it, needs 5 wait states). */
struct emu_wait_rule {
   unsigned first, second; /* producer and consumer class */
   int file;               /* the written register's file, or -1: any */
   int states;
   unsigned row;     /* the model's row: the consumer ops it names (isa_wait_rule_op) */
   bool ops;         /* it names consumer ops */
   int slot;         /* the consumer source (explicit, by index) it is about, or -1 */
   int64_t imp_unit; /* ... or the implicit source register's unit, or -1 */
};

/* Reconvergence stack entry (stack flow). */
struct emu_stack_ent {
   uint8_t kind; /* 0: SSY (reconverge at pc), 1: DIV (run lanes from pc) */
   uint32_t pc;
   uint64_t lanes;
};

/* Per-unit timing state, per wave. */
struct emu_reg {
   int64_t ready;      /* fixed latency: first cycle a read sees the newest value */
   int64_t war_until;  /* pending source read: over at this cycle (EMU_INF: until synced) */
   int64_t war_done;   /* when the reader is expected to have read (for `early`) */
   uint64_t lanes;     /* lanes active at the newest write (a batch: nonzero) */
   uint64_t war_lanes; /* lanes of the pending read */
   uint32_t pc;        /* writer of the newest value */
   uint32_t war_pc;    /* the variable-latency reader */
   uint32_t epoch, war_epoch;
   uint8_t cur;       /* buffer of the newest value */
   uint8_t plain;     /* readers' read_adj does not apply */
   uint8_t pend;      /* sync kind the newest value waits on (0: none) */
   uint8_t war;       /* sync kind of a pending read (0: none) */
   uint8_t pend_type; /* the pending write's VMEM type (timing.c, order_type) */
};

struct emu_group; /* a workgroup: its waves and shared memory */

struct emu_wave {
   struct emu_run *run;
   struct emu_group *grp;
   uint32_t id, first_lane, n; /* lanes first_lane .. + n */
   int32_t draw;               /* the draw of all its lanes, -1 if they span several */
   uint32_t nruns;             /* draw < 0: lanes run_at[k] .. run_at[k + 1] - 1 are of one
                                * draw, k < nruns */
   uint32_t *run_at;
   uint32_t S;                 /* words per register buffer (the group's stride) */
   uint32_t nmembers;          /* a batch: the waves it stands for (ids id ..), else 0 */
   uint32_t nactive;           /* bits set in active */
   uint64_t insns, lane_insns; /* figures, added to the result at the end */
   uint32_t *regs;
   struct emu_reg *meta;
   uint32_t *exec;   /* n words, ~0u for the lanes executing now */
   uint64_t active;  /* same as exec, as bits */
   uint64_t live;    /* lanes not ended or killed */
   uint64_t waiting; /* min-PC flow: live lanes parked at lpc[] */
   uint32_t lpc[EMU_MAX_WAVE];
   uint32_t pc;
   int64_t cycle;
   bool done, at_barrier;
   unsigned nstack;
   struct emu_stack_ent stack[EMU_MAX_STACK];
   uint32_t sync_epoch[EMU_NSYNC]; /* counters (gfx9): results completed, in issue order */
   uint32_t cnt_issued[EMU_NSYNC]; /* counters: instructions issued */
   uint32_t cnt_ooo[EMU_NSYNC];    /* counters: issued when last waited down to 0 */
   int64_t sync_ready[EMU_NSYNC];
   int64_t sync_set[EMU_NSYNC];
   uint32_t sync_pc[EMU_NSYNC];
   uint32_t sync_count[EMU_NSYNC]; /* ops issued on the kind since its last wait (agx slots) */
   /* trace of the current instruction */
   uint32_t tr_stall;
   char tr_why[48];
};

/* A group of waves sharing register storage (lane j of the group at
 * offset j of every buffer) and shared memory: a compute workgroup, or a
 * batch of waves of another stage. While all its waves run in lockstep --
 * same pc, every lane active, the same timing state, which they have
 * from the start -- `batch` runs them as one: one timing state, lane
 * loops over the whole group, events reported for every member. It splits
 * into its waves at the first instruction where they could differ. */
struct emu_group {
   struct env_mem shared;
   struct emu_wave *waves;
   unsigned nwaves;
   uint32_t *regs; /* units x 2 buffers x S lanes */
   uint32_t S;     /* the group's lanes and a pad (alloc_group) */
   struct emu_wave batch;
   bool batched;
   /* Lockstep programs (emu_code.lockstep): after its first split the
    * batch's waves run interleaved, one step each in turn, and join the
    * batch again when they are back in lockstep (emu.c rejoin). Their
    * events are then held per wave (evb) and listed in wave order at each
    * barrier and at the end, the order of waves run one after another. */
   bool lockstep; /* this group may run its waves interleaved and rejoin */
   bool held;     /* past the first split: events go to evb */
   bool armed;    /* a wave ran an instruction a batch cannot: try to rejoin */
   struct emu_evbuf {
      struct emu_event *ev;
      unsigned n, cap;
   } * evb;
};

/* Everything one emu_run call works on. */
struct emu_run {
   const struct emu_code *code;
   struct env *env;
   const struct emu_options *opt;
   struct emu_result *res;
   unsigned W;
   uint64_t max_cycles;
   unsigned max_events;
   uint32_t *cst; /* the const store: one per draw of the env, cst_stride words apart */
   uint32_t cst_stride;
   uint32_t cst_used;     /* words held (up to the last bound one); the rest read 0 */
   bool stop;             /* budget exhausted */
   bool no_lockstep;      /* run the waves of a split batch one after the other */
   bool replay;           /* the budget ran out in interleaved waves: run again without */
   struct emu_event last; /* the latest event, to drop exact repeats (a register read twice) */
   /* scratch, EMU_MAX_WAVE words each */
   uint32_t *tmp_src[ISA_MAX_SRC];
   uint32_t *tmp_dst[ISA_MAX_DST];
   uint32_t *tmp_mask;
   uint32_t *ones;     /* ~0u in every lane, filled on first use: a scalar op's mask */
   uint32_t *tmp_comp; /* 21 components x maxlanes: texture and load results (8..19: the
                        * fixed registers of texture groups A, B, C; 4..7 and 20: a batched
                        * lookup's zeros, layer and offsets, tex.c) */
   unsigned maxlanes;  /* lanes of the largest wave or batch: scratch sizes */
   /* ALU sources with one value on every lane (immediates, a constant of
    * one draw), filled once and kept: per source slot (so that the
    * sources of one instruction never share one), EMU_UNI_SLOTS buffers
    * by a hash of the value, each holding `value` in lanes 0 .. n - 1
    * (exec.c) */
   struct emu_uni {
      uint32_t value, n;
      uint32_t *buf; /* maxlanes words, allocated on first use */
   } uni[ISA_MAX_SRC][EMU_UNI_SLOTS];
   uint32_t *gs_prims; /* geometry shaders, per lane: primitives ended so far */
   unsigned tr_nwaited;
   struct {
      uint8_t file;
      uint16_t index;
   } tr_waited[EMU_TRACE_REGS];
};

/* The const store of lane i of w (its draw's). */
static inline const uint32_t *
emu_cst(const struct emu_wave *w, unsigned i)
{
   const struct emu_run *run = w->run;
   uint32_t d = w->draw >= 0 ? (uint32_t)w->draw : env_draw(run->env, w->first_lane + i);
   return run->cst + (size_t)d * run->cst_stride;
}

/* Word u of a const store cs (emu_cst): 0 beyond the words held. */
static inline uint32_t
emu_cst_word(const struct emu_wave *w, const uint32_t *cs, uint64_t u)
{
   return u < w->run->cst_used ? cs[u] : 0;
}

static inline uint64_t
emu_lanes_all(unsigned n)
{
   return n >= 64 ? ~0ull : (1ull << n) - 1;
}

/* load.c */
int emu_sync_kind(const struct emu_code *c, enum isa_sync s, int bar);
unsigned emu_opnd_count(const struct isa_model *m, const struct isa_insn *in, int slot);

/* kern.c */
emu_kern_fn emu_kern_for(const struct emu_op *op);
void emu_kern_generic(uint32_t *const *d, const uint32_t *const *s, unsigned n,
                      const struct emu_op *op);
void emu_fcmp_lanes(enum sem_cond c, const uint32_t *pa, const uint32_t *pb, unsigned n,
                    uint32_t *out);

/* timing.c */
void emu_event(struct emu_wave *w, enum emu_event_kind k, uint32_t pc, int file, unsigned index,
               uint32_t producer_pc, int64_t early);
int64_t emu_issue_wait(struct emu_wave *w, const struct emu_op *op);
void emu_issue_done(struct emu_wave *w, const struct emu_op *op, int64_t t);
const uint32_t *emu_reg_read_slow(struct emu_wave *w, const struct emu_op *op,
                                  const struct emu_src *s, uint32_t unit, int64_t t);
void emu_check_unset(struct emu_wave *w, const struct emu_op *op);
void emu_mark_war(struct emu_wave *w, const struct emu_op *op, uint32_t unit, int64_t t);
uint32_t *emu_reg_write_slow(struct emu_wave *w, const struct emu_op *op, const struct emu_dst *dd,
                             uint32_t unit, int64_t t, uint32_t **cur);
const uint32_t *emu_reg_final(struct emu_wave *w, uint32_t unit, uint64_t lanes, uint32_t pc);
void emu_sync_note(struct emu_wave *w, const struct emu_op *op, int64_t t);
int64_t emu_async_done(const struct emu_wave *w, const struct emu_op *op, int64_t t);

/* The buffer a read of `unit` at cycle t sees; the common case (a fixed
 * latency value that is ready) inline, hazards in timing.c. */
static inline const uint32_t *
emu_reg_read(struct emu_wave *w, const struct emu_op *op, const struct emu_src *s, uint32_t unit,
             int64_t t)
{
   const struct emu_reg *r = &w->meta[unit];
   assert(w->run->code->is_touched[unit]);
   if (!r->pend && (r->plain ? t : t + s->read_adj) >= r->ready)
      return w->regs + ((size_t)unit * 2 + r->cur) * w->S;
   return emu_reg_read_slow(w, op, s, unit, t);
}

/* The buffer a write of `unit` at cycle t goes to (*cur: the newest value
 * before it, for masked lanes); the common case inline. */
static inline uint32_t *
emu_reg_write(struct emu_wave *w, const struct emu_op *op, const struct emu_dst *dd, uint32_t unit,
              int64_t t, uint32_t **cur)
{
   struct emu_reg *r = &w->meta[unit];
   assert(w->run->code->is_touched[unit]);
   if (!r->war && !r->pend && !op->sync && t >= r->ready) {
      uint32_t *buf = w->regs + (size_t)unit * 2 * w->S;
      *cur = buf + r->cur * w->S;
      r->cur ^= 1;
      r->pc = op->addr;
      r->lanes = w->active;
      r->plain = dd->plain;
      r->ready = t + dd->lat;
      return buf + r->cur * w->S;
   }
   return emu_reg_write_slow(w, op, dd, unit, t, cur);
}

/* exec.c */
void emu_exec_alu(struct emu_wave *w, const struct emu_op *op, int64_t t, unsigned k);
void emu_write_comps(struct emu_wave *w, const struct emu_op *op, int64_t t, unsigned wmask,
                     const uint32_t *mask, unsigned on);
void emu_exec_mem(struct emu_wave *w, const struct emu_op *op, int64_t t);
void emu_exec_ldc(struct emu_wave *w, const struct emu_op *op, int64_t t);
void emu_exec_atomic(struct emu_wave *w, const struct emu_op *op, int64_t t);
void emu_exec_xlane(struct emu_wave *w, const struct emu_op *op, int64_t t);
void emu_exec_wide(struct emu_wave *w, const struct emu_op *op, int64_t t);
const uint32_t *emu_fetch(struct emu_wave *w, const struct emu_op *op, const struct emu_src *s,
                          unsigned k, int64_t t, uint32_t *tmp);
unsigned emu_exec_mask(struct emu_wave *w, const struct emu_op *op, int64_t t, uint32_t **mask);

/* salu.c */
void emu_exec_salu(struct emu_wave *w, const struct emu_op *op, int64_t t);
void emu_exec_init(struct emu_wave *w);
void emu_exec_update(struct emu_wave *w);
bool emu_cond_value(struct emu_wave *w, const struct emu_op *op, int64_t t);
void emu_write_lanemask(struct emu_wave *w, const struct emu_op *op, const struct emu_dst *dd,
                        const uint32_t *r, const uint32_t *mask, int64_t t);
const uint32_t *emu_fetch_lanemask(struct emu_wave *w, const struct emu_op *op,
                                   const struct emu_src *s, int64_t t, uint32_t *tmp);

/* gs.c */
bool emu_gs_setup(const struct emu_code *c, const struct isa_insn *in, struct emu_op *op,
                  struct diag_list *d);
bool emu_gs_begin(struct emu_run *run, struct diag_list *d);
void emu_exec_ast(struct emu_wave *w, const struct emu_op *op, int64_t t);
void emu_exec_emit(struct emu_wave *w, const struct emu_op *op, int64_t t);
uint32_t emu_stage_in_word(struct emu_wave *w, unsigned lane, uint32_t off, unsigned nb);
void emu_stage_out_word(struct emu_wave *w, unsigned lane, uint32_t off, unsigned nb, uint32_t v);

/* tex.c */
bool emu_tex_by_rsrc(unsigned sem);
bool emu_tex_setup(const struct emu_code *c, const struct isa_insn *in, int grp_b,
                   struct emu_op *op);
void emu_exec_tex(struct emu_wave *w, const struct emu_op *op, int64_t t);

/* flow.c */
void emu_flow_init(struct emu_wave *w, uint64_t lanes);
void emu_flow_step(struct emu_wave *w, const struct emu_op *op, int64_t t);
void emu_set_active(struct emu_wave *w, uint64_t lanes);
void emu_lanes_end(struct emu_wave *w, uint64_t lanes, bool killed, uint32_t pc);

#endif
