/*
 * The reference compiler: TGSI -> encoded program by a fixed expansion per
 * opcode, in the manner of freedreno's first a3xx translator. It is the
 * oracle the optimizing compiler is checked against, so it is built to be
 * obviously right, never short:
 *
 *  - every TGSI register has a fixed home: TEMP[i].c, IN[i].c, OUT[i].c,
 *    ADDR[i].c and SV[i].c are scalar registers at fixed places of the
 *    model's full register file; CONST and IMM live in the constant file,
 *    filled through EMU_BIND_CONST / EMU_BIND_VALUE bindings;
 *  - every vec4 instruction is split into scalar work per written channel;
 *    all channels are computed into scratch registers before any is
 *    stored, so sources and destination may alias freely;
 *  - every source is first brought into a register of its own, with the
 *    TGSI source modifiers applied with the opcode's fetch type, so no
 *    expansion depends on an ISA's operand rules;
 *  - control flow is structured: IF/ELSE, loops, BRK/CONT, SWITCH and
 *    inlined subroutines become forward branches and loop back edges only
 *    (ref.c, for models whose lanes reconverge at the lowest program
 *    counter), or SSY/SYNC diamonds and per-lane exit codes
 *    (ref_cf_stack.c, for models with a reconvergence stack);
 *  - hazards are handled after the fact by ref_hazard.c, which waits for
 *    every result in full right after its producer, using only the model's
 *    latency function (isa_delay).
 *
 * Layout: ref.c walks the shader (register map, bindings, control flow
 * and subroutine inlining for lowest-PC models); ref_cf_stack.c the same
 * control flow for stack models; ref_ops.c expands every other opcode
 * once, over the scalar primitives REF_PRIMS (ref_int64.c the 64-bit
 * integer ones, as 32-bit pairs); the per-ISA files
 * (ref_a3xx.c, ref_sm50.c) implement those primitives, constant and
 * indirect loads, textures, memory, kill and branches (struct ref_target);
 * ref_tex.c reads the operands of every texture opcode once for them;
 * ref_emit.c builds instructions; ref_hazard.c inserts the waits, resolves
 * branch targets (as the model's pcrel says) and encodes.
 */
#ifndef DC_REF_H
#define DC_REF_H

#include "compiler/compiler.h"
#include "isa/isa.h"

/* ------------------------------------------------------------------ */
/* Structs                                                              */

struct ref_ctx;

/* One instruction of the linear program before hazard insertion. */
struct ref_item {
   struct isa_insn in;
   int label;       /* branch target (label id), or -1 */
   int target_slot; /* source slot holding the branch target, or -1 */
   int tgsi;        /* TGSI instruction it expands, -1 for prologue/epilogue */
};

/*
 * The scalar primitives every target implements (prim hook), written
 * once: name, operand count, meaning. All operands and results are full
 * registers; compares give 1 or 0; float ops are IEEE single precision
 * with round to nearest even; F* min/max return the non-NaN operand and
 * order -0 below +0; shifts take the count modulo 32.
 */
#define REF_PRIMS(X)                                                                               \
   X(FADD, 2, "a + b")                                                                             \
   X(FMUL, 2, "a * b")                                                                             \
   X(FMAD, 3, "a * b + c, two roundings")                                                          \
   X(FFMA, 3, "a * b + c, one rounding")                                                           \
   X(FMIN, 2, "IEEE minNum")                                                                       \
   X(FMAX, 2, "IEEE maxNum")                                                                       \
   X(FFLOOR, 1, "floor")                                                                           \
   X(FCEIL, 1, "ceil")                                                                             \
   X(FTRUNC, 1, "trunc")                                                                           \
   X(FRNDNE, 1, "round half to even")                                                              \
   X(FNEG, 1, "sign bit flipped")                                                                  \
   X(FABS, 1, "sign bit cleared")                                                                  \
   X(FRCP, 1, "1 / a")                                                                             \
   X(FRSQ, 1, "1 / sqrt(a)")                                                                       \
   X(FSQRT, 1, "sqrt(a)")                                                                          \
   X(FEXP2, 1, "2^a")                                                                              \
   X(FLOG2, 1, "log2(a)")                                                                          \
   X(FSIN, 1, "sin(a)")                                                                            \
   X(FCOS, 1, "cos(a)")                                                                            \
   X(FLT, 2, "a < b (ordered)")                                                                    \
   X(FLE, 2, "a <= b (ordered)")                                                                   \
   X(FGT, 2, "a > b (ordered)")                                                                    \
   X(FGE, 2, "a >= b (ordered)")                                                                   \
   X(FEQ, 2, "a == b (ordered)")                                                                   \
   X(FNE, 2, "a != b (unordered: true on NaN)")                                                    \
   X(ILT, 2, "signed a < b")                                                                       \
   X(IGE, 2, "signed a >= b")                                                                      \
   X(IGT, 2, "signed a > b")                                                                       \
   X(ULT, 2, "unsigned a < b")                                                                     \
   X(UGE, 2, "unsigned a >= b")                                                                    \
   X(IEQ, 2, "a == b (bits)")                                                                      \
   X(INE, 2, "a != b (bits)")                                                                      \
   X(IADD, 2, "a + b")                                                                             \
   X(ISUB, 2, "a - b")                                                                             \
   X(INEG, 1, "0 - a")                                                                             \
   X(IMUL, 2, "low 32 bits of a * b")                                                              \
   X(IMIN, 2, "signed min")                                                                        \
   X(IMAX, 2, "signed max")                                                                        \
   X(UMIN, 2, "unsigned min")                                                                      \
   X(UMAX, 2, "unsigned max")                                                                      \
   X(AND, 2, "a & b")                                                                              \
   X(OR, 2, "a | b")                                                                               \
   X(XOR, 2, "a ^ b")                                                                              \
   X(NOT, 1, "~a")                                                                                 \
   X(SHL, 2, "a << (b & 31)")                                                                      \
   X(SHR, 2, "a >> (b & 31), logical")                                                             \
   X(ASHR, 2, "a >> (b & 31), arithmetic")                                                         \
   X(BREV, 1, "bits reversed")                                                                     \
   X(POPC, 1, "bits set")                                                                          \
   X(UMSB, 1, "index of the highest set bit, -1 for 0")                                            \
   X(IMSB, 1, "index of the highest bit differing from the sign, -1 for 0 and -1")                 \
   X(F2I, 1, "float to signed, truncated (out of range: anything)")                                \
   X(F2U, 1, "float to unsigned, truncated (out of range: anything)")                              \
   X(F2I_FLOOR, 1, "float to signed, rounded down (out of range: anything)")                       \
   X(I2F, 1, "signed to float")                                                                    \
   X(U2F, 1, "unsigned to float")                                                                  \
   X(F2H, 1, "f32 to f16 bits in the low half, nearest even, high half 0")                         \
   X(H2F, 1, "the low 16 bits as an f16, to f32")                                                  \
   X(SEL, 3, "b != 0 ? a : c")

#define REF_PRIM_(n, k, d) REF_P_##n,
enum ref_prim { REF_PRIMS(REF_PRIM_) REF_PRIM_COUNT };
#undef REF_PRIM_

/* A primitive a target does with one instruction: the op's mnemonic. */
struct ref_prim_op {
   enum ref_prim prim;
   const char *op;
};

/* The shape of a 64-bit opcode's results (ref_store_wide). */
enum ref_wide_shape {
   REF_WIDE_PAIR,   /* 64-bit results from 64-bit sources */
   REF_WIDE_FROM32, /* 64-bit results from 32-bit sources */
   REF_WIDE_TO32,   /* 32-bit results: conversions */
   REF_WIDE_CMP,    /* 32-bit results: compares */
};

/* A target's FP64 instructions, for the double expansions of ref_fp64.c:
 * mnemonics of ops d = f(a[, b[, c]]) whose 64-bit operands are register
 * pairs (the first register named), and what differs between models. */
struct ref_fp64 {
   const char *add, *mul, *fma;       /* pair op pair [op pair] -> pair */
   const char *f2d, *d2f, *i2d, *u2d; /* conversions from and to 32 bits */
   const char *d2i, *d2u;
   const char *floor, *ceil, *trunc, *rndne;
   const char *ldexp;                          /* pair x 32-bit integer -> pair; NULL: expanded */
   const char *rcp32, *rsq32;                  /* f32 1/x, 1/sqrt(x): the seeds of DDIV, DSQRT */
   struct isa_opnd (*none)(struct ref_ctx *c); /* an unused source */
   /* a COND b (cond lt gt ge eq ne; ne true on NaN) into a new register:
    * 1/0, or ~0/0 with mask */
   unsigned (*cmp)(struct ref_ctx *c, const char *cond, unsigned a, unsigned b, bool mask);
   /* min or max (the non-NaN operand, -0 below +0) into a new pair */
   unsigned (*minmax)(struct ref_ctx *c, unsigned a, unsigned b, bool max);
};

/* How a branch decides: the tested value is a scalar register. */
enum ref_test {
   REF_TEST_FLOAT_NZ, /* value as float != 0.0 (NaN true, -0.0 false): IF */
   REF_TEST_INT_NZ,   /* value bits != 0: UIF */
   REF_TEST_INT_EQ,   /* value bits == other register: CASE */
};

/* A texture lookup's operands, fetched into registers (ref_tex.c);
 * absent ones are -1. */
enum ref_lod { REF_LOD_AUTO, REF_LOD_ZERO, REF_LOD_LOD, REF_LOD_BIAS };
struct ref_texargs {
   enum tgsi_opcode op;
   enum tgsi_texture target; /* the instruction's, or the view's (SAMPLE_*) */
   unsigned unit;
   bool fetch, query, gather, deriv;
   bool samples;      /* a query of the sample count (TXQS) */
   bool lodq;         /* the level-of-detail query (LODQ, LOD): x the level
                       * accessed, y the computed one, z w 0 */
   unsigned nsp;      /* spatial coordinates (a cube direction: 3) */
   unsigned coord[3]; /* float, or integer for a fetch */
   int layer;         /* array layer: float, or integer for a fetch */
   int ref, proj;     /* shadow reference, projection w (TXP) */
   enum ref_lod lod_mode;
   int lod;    /* the level or bias (a query's level) */
   int sample; /* multisample fetch: the sample index */
   unsigned comp;
   unsigned ddx[3], ddy[3];
   unsigned noff; /* texel offsets (integers) */
   unsigned off[3];
   bool off_known; /* immediates, with these values: */
   int32_t off_val[3];
   const struct tgsi_src *view; /* SAMPLE_*: results swizzled by this operand */
};

/*
 * What an ISA supplies. insn expands one non-control-flow TGSI instruction
 * (COMPILE_UNSUPPORTED with a diagnostic when it cannot); the control-flow
 * walker in ref.c only needs fetch/copy and the branch primitives, which
 * mark their target slot with ref_branch_to().
 */
struct ref_target {
   const char *model; /* isa_model_name() this target serves */
   bool (*init)(struct ref_ctx *c);
   /* One primitive into a new scratch register; an unsupported one is
    * refused with ref_unsupported (and any register returned). */
   unsigned (*prim)(struct ref_ctx *c, enum ref_prim op, unsigned a, unsigned b, unsigned d);
   void (*mov_imm)(struct ref_ctx *c, unsigned dst, uint32_t value);
   void (*copy)(struct ref_ctx *c, unsigned dst, unsigned src);
   /* Constant-file scalar slot into a register. */
   unsigned (*load_const)(struct ref_ctx *c, unsigned slot);
   /* An indirectly addressed source channel into *out; false when the
    * target has no better way than the generic compare-and-select over
    * the file (ref_ops.c; constants have none). */
   bool (*load_indirect)(struct ref_ctx *c, const struct tgsi_reg *r, unsigned comp, unsigned *out);
   /* Kill, derivatives, barriers and other non-ALU opcodes; false if op is not
    * one the target knows (the shader is then refused). */
   bool (*special)(struct ref_ctx *c, const struct tgsi_insn *in);
   /* One 32-bit word of memory at register addr + byte offset off: shared
    * memory, or the global space (buffers, images). LOAD and STORE are
    * expanded over these (ref_ops.c); NULL: refused. */
   void (*load_word)(struct ref_ctx *c, bool shared, unsigned dst, unsigned addr, uint32_t off);
   void (*store_word)(struct ref_ctx *c, bool shared, unsigned addr, uint32_t off, unsigned v);
   /* An ATOM* instruction (ref_atomic_op); NULL: refused. */
   void (*atomic)(struct ref_ctx *c, const struct tgsi_insn *in);
   /* A texture lookup or query into res, four consecutive registers
    * ref_tex took; false after ref_unsupported when the model cannot do
    * it. */
   bool (*tex)(struct ref_ctx *c, const struct ref_texargs *a, unsigned res[4]);
   /* Why an opcode without an expansion is refused, or NULL. */
   const char *(*why)(enum tgsi_opcode op);
   /* Branch to label if test(a[, b]) == when, per lane. */
   void (*branch)(struct ref_ctx *c, enum ref_test test, unsigned a, unsigned b, bool when,
                  int label);
   void (*jump)(struct ref_ctx *c, int label);
   void (*end)(struct ref_ctx *c);
   /* Doubles (64-bit integers are ref_int64.c's, on every target): true
    * when expanded or refused (with a diagnostic); NULL: refused. */
   bool (*wide)(struct ref_ctx *c, const struct tgsi_insn *in);
   /* The FP64 instructions wide = ref_fp64_wide expands over. */
   const struct ref_fp64 *fp64;
   /* Kill the lanes whose flag register is non-zero (DEMOTE's epilogue). */
   void (*kill_flag)(struct ref_ctx *c, unsigned flag);
   /* Prologue after the homes are placed (may take persistent
    * registers: the geometry-shader vertex handle); NULL: none. */
   void (*begin)(struct ref_ctx *c);
   /* Outputs stored as they are written (tessellation control shaders:
    * per output vertex): the written channels of res; NULL: refused. */
   void (*store_output)(struct ref_ctx *c, const struct tgsi_dst *dst, const unsigned *res);
   /* Stack-reconvergence models only (ref_cf_stack.c): */
   void (*ssy)(struct ref_ctx *c, int label);
   void (*sync)(struct ref_ctx *c);
   /* Models without a constant file (gfx9): constants, immediates and
    * resource sizes live in full registers after the TGSI homes, bound
    * per lane (EMU_BIND_CONST into a register file). */
   bool consts_in_gpr;
   /* Called right after a label is placed (ref_place), before the next
    * instruction: gfx9 brings back the lanes parked there. NULL: none. */
   void (*place)(struct ref_ctx *c, int label);
   /* Scratch registers are virtual while an instruction expands and are
    * placed by liveness after it (ref_scratch.c): the target's expansions
    * run at one execution mask (agx). */
   bool place_scratch;
   /* Constant buffers that do not fit the constant file are read from
    * memory (EMU_ADDR_CONST): load_const is then also called for the slots
    * from nconst on (c->cmem, ref.c). */
   bool consts_in_mem;
};

/* Virtual scratch registers (place_scratch): [REF_VBASE, REF_VTOP), above
 * any model's full file; a half register's index (2 * r + 1) stays below
 * 65536. */
#define REF_VBASE 1024u
#define REF_VTOP  32000u

/* A control-flow construct being compiled. */
enum ref_cf_kind { REF_CF_IF, REF_CF_LOOP, REF_CF_SWITCH, REF_CF_CALL, REF_CF_GUARD };

struct ref_cf {
   enum ref_cf_kind kind;
   int l_else, l_end; /* IF: false branch, end */
   int l_top, l_cont; /* LOOP: first instruction, back edge */
   int l_exit;        /* LOOP, SWITCH: after the construct; CALL: return point */
   bool else_placed;
   int32_t first;   /* SWITCH: its instruction index (to find its CASE labels) */
   int *case_label; /* SWITCH: label per instruction index, -1 if not its CASE */
   unsigned sel;    /* SWITCH: register holding the selector */
   unsigned level;  /* stack mode: owner of the exit codes 4 * level + 1.. */
   bool has_exit;   /* stack mode: a BRK/CONT/RET inside */
};

#define REF_MAX_CF     64
#define REF_MAX_SIZES  64
#define REF_MAX_INLINE 16
/* The most registers an indirect read selects among (ref_ops.c): more
 * would expand one read into tens of thousands of instructions. */
#define REF_SELECT_MAX 4096u

struct ref_ctx {
   const struct tgsi_shader *s;
   const struct isa_model *m;
   const struct ref_target *t;
   struct diag_list *d;
   const struct tgsi_insn *cur; /* for diagnostics */
   int cur_index;
   enum compile_status status;

   /* Register files of the model (indices), found by kind. */
   int gpr, cfile, pfile, afile;
   unsigned ngpr, nconst;
   unsigned special[2]; /* registers the target looks up at init (sm50: RZ, PT) */

   /* Fixed homes: vec4 register base of each TGSI file, per vertex for
    * per-vertex inputs; constant-file vec4 base per constant buffer and
    * for the immediates. */
   unsigned base[TGSI_FILE_COUNT];
   unsigned count[TGSI_FILE_COUNT]; /* registers per vertex */
   /* TEMP channels placed by liveness (ref_homes.c) when the fixed homes
    * do not fit: scalar home of TEMP[i].c at [4 * i + c]; else NULL */
   unsigned *temp_home;
   unsigned homes_top; /* scalar end of the homes */
   unsigned vertices[TGSI_FILE_COUNT];
   unsigned cbase[16], ccount[16], imm_base;
   bool cmem;     /* consts_in_mem: buffer slots from nconst on live in memory */
   unsigned creg; /* consts_in_gpr: full register of constant slot 0 */
   /* consts_in_gpr models whose fixed layout did not fit (ref_open
    * compiles once more): TEMPs homed by liveness, immediates written into
    * a register where they are read (the scalar slots below creg_from),
    * only resource sizes in registers, constant buffers read from memory
    * (scalar slots from cmem_from on; 0: none in memory). */
   bool compact;
   unsigned creg_from, cmem_from;
   /* Models other than consts_in_gpr whose fixed TEMP homes fit but left
    * too few registers for the values of an instruction (ref_open compiles
    * once more): TEMPs homed by liveness, as when the fixed homes do not
    * fit. */
   bool live_homes;
   bool regs_short; /* the refusal was for want of registers */
   /* Resource sizes (EMU_BIND_SIZE): a vec4 constant slot per resource
    * whose size the code reads, allocated after the immediates. */
   struct {
      uint8_t file;
      uint16_t index;
   } sizes[REF_MAX_SIZES];
   unsigned nsizes, size_base;

   /* Scratch registers (scalar indices): [scratch_lo, scratch_next) in use
    * by the current instruction; persistent ones just below scratch_lo;
    * scratch_top is the end of the file. */
   unsigned scratch_lo, scratch_next, scratch_top;
   unsigned max_reg; /* highest scalar register used + 1 */
   /* place_scratch: the first physical register free for scratch
    * (persistent registers below it), the items whose virtual registers
    * are placed, and the half-register file aliasing the full one (-1). */
   unsigned phys_next, placed;
   int half_file;

   struct ref_item *items;
   unsigned nitems, items_cap;
   int *labels; /* item index each label is placed at, -1 until placed */
   unsigned nlabels, labels_cap;

   struct ref_cf cf[REF_MAX_CF];
   unsigned ncf;
   unsigned inline_depth;
   int l_epilogue;

   /* Stack-reconvergence models (ref_cf_stack.c): the exit-code register
    * and whether some lane may have a non-zero code here. */
   bool stack_flow;
   unsigned e_reg;
   bool dirty;

   /* Execution-mask stack models (ref_cf_exec.c, agx). */
   bool exec_flow;
   /* vec4 registers at the start of the full file the target keeps for
    * itself (agx: r0..r3, r0l the stack count, r1 the link register) */
   unsigned reserved;
   /* the items carry their waits already (the optimizing path placed
    * them): ref_finish adds none */
   bool waits_placed;

   /* DEMOTE (ref_ops.c): a persistent register, ~0 once the lane demoted;
    * -1 when the shader does not demote. */
   int demote_reg;

   /* Geometry shaders (sm50): the persistent register holding the handle
    * of the vertex being written (gfx9: the lane's vertex slot), -1
    * elsewhere. */
   int gs_handle;
   /* The prologue loads the inputs (gfx9 stage windows): no input
    * bindings. */
   bool inputs_loaded;

   /* gfx9 (ref_gfx9.c): the label whose parked lanes SGPR pair k holds,
    * -1 if free, for k < nmask_pairs; and the number of labels made when
    * it was last freed (0: never used). */
   int mask_label[48];
   unsigned mask_freed[48];
   unsigned nmask_pairs;
};

/* ------------------------------------------------------------------ */
/* Prototypes                                                           */

/* ref.c */
/* The front half of ref_compile: the TGSI expanded into c->items (check
 * c->status); ref_close binds, waits, encodes and frees. The optimizing
 * path on agx runs its machine passes on the items in between. */
void ref_open(struct ref_ctx *c, const struct tgsi_shader *s, const struct isa_model *m,
              struct diag_list *d);
enum compile_status ref_close(struct ref_ctx *c, struct emu_program *out,
                              struct compile_stats *stats);
extern const struct ref_target ref_target_a3xx;
struct ref_cf *ref_push_cf(struct ref_ctx *c, enum ref_cf_kind kind);
void ref_compile_range(struct ref_ctx *c, int32_t first, int32_t last);
/* The body [*first, *end) of the subroutine a CAL names; false after a
 * diagnostic when there is no BGNSUB or calls nest past REF_MAX_INLINE. */
bool ref_call_body(struct ref_ctx *c, const struct tgsi_insn *in, int32_t *first, int32_t *end);
/* Compiles that body in place, one inlining level deeper; c->cur is the
 * CAL again afterwards. */
void ref_inline_body(struct ref_ctx *c, const struct tgsi_insn *in, int32_t first, int32_t end);
extern const struct ref_target ref_target_sm50;
extern const struct ref_target ref_target_gfx9;
extern const struct ref_target ref_target_agx;
/* Refuses the current instruction: COMPILE_UNSUPPORTED plus a diagnostic
 * naming the opcode and its line. Returns the status for convenience. */
enum compile_status ref_unsupported(struct ref_ctx *c, const char *fmt, ...) DC_PRINTF(2, 3);
enum compile_status ref_error(struct ref_ctx *c, const char *fmt, ...) DC_PRINTF(2, 3);
/* Scalar register home of a direct TGSI register channel (TEMP IN OUT ADDR
 * SV), or -1. */
int ref_home(struct ref_ctx *c, const struct tgsi_reg *r, unsigned chan);
/* Constant-file scalar slot of a direct CONST or IMM channel, or -1. */
int ref_const_slot(struct ref_ctx *c, const struct tgsi_reg *r, unsigned chan);
/* The register holding constant slot `slot` (of the constant file, or
 * on consts_in_gpr models a GPR), or -1 when the compact layout keeps it
 * elsewhere (an immediate, a buffer word in memory: load_const fetches
 * those). */
int ref_const_reg(const struct ref_ctx *c, unsigned slot);
/* Register holding component chan of the size of resource (file, index)
 * (EMU_BIND_SIZE: BUFFER bytes; IMAGE width, height, depth; MEMORY bytes;
 * SVIEW level-0 size and levels). */
unsigned ref_size(struct ref_ctx *c, enum tgsi_file file, unsigned index, unsigned chan);

/* ref_ops.c */
/* Expands one non-control-flow TGSI instruction. */
enum compile_status ref_insn(struct ref_ctx *c, const struct tgsi_insn *in);
/* Stores a 64-bit opcode's results by the interpreter's channel mapping:
 * word gives the 32-bit result of pair p (TO32, CMP), pair the low and
 * high registers of its 64-bit result. */
typedef unsigned (*ref_wide_word_fn)(struct ref_ctx *c, const struct tgsi_insn *in, unsigned p);
typedef void (*ref_wide_pair_fn)(struct ref_ctx *c, const struct tgsi_insn *in, unsigned p,
                                 unsigned res[2]);
void ref_store_wide(struct ref_ctx *c, const struct tgsi_insn *in, enum ref_wide_shape shape,
                    ref_wide_word_fn word, ref_wide_pair_fn pair);
/* Whether op is one of the ATOM* opcodes (the target's atomic hook). */
bool ref_atomic_op(enum tgsi_opcode op);
unsigned ref_fetch(struct ref_ctx *c, const struct tgsi_insn *in, unsigned si, unsigned chan);
void ref_store(struct ref_ctx *c, const struct tgsi_insn *in, const unsigned *res);
unsigned ref_prim(struct ref_ctx *c, enum ref_prim op, unsigned a, unsigned b, unsigned d);
unsigned ref_imm_reg(struct ref_ctx *c, uint32_t v);
/* High 32 bits of the unsigned product a * b. */
unsigned ref_umul_hi(struct ref_ctx *c, unsigned a, unsigned b);
/* DEMOTE as a deferred kill (ref_ops.c): the flag register cleared at the
 * start, set by DEMOTE, read by READ_HELPER, killing at the epilogue. */
void ref_demote_begin(struct ref_ctx *c);
void ref_demote_end(struct ref_ctx *c);
/* a / b correctly rounded (IEEE, denormals kept), for targets with FFMA
 * and a correctly rounded FRCP (ref_ops.c). */
unsigned ref_fdiv(struct ref_ctx *c, unsigned a, unsigned b);
/* Address of the IMAGE texel at the integer coordinates of source cs, 0
 * (out of every resource) when out of range. */
unsigned ref_image_address(struct ref_ctx *c, const struct tgsi_insn *in, const struct tgsi_reg *r,
                           unsigned cs);
/* Byte address of a BUFFER, IMAGE or MEMORY operand (offset or
 * coordinates in source off_src) into *addr, *shared for MEMORY; false
 * after ref_unsupported for other resources. */
bool ref_mem_address(struct ref_ctx *c, const struct tgsi_insn *in, const struct tgsi_reg *res,
                     unsigned off_src, unsigned *addr, bool *shared);
/* The operands of an ATOM*: its address (*shared for MEMORY) and data
 * word; for ATOMCAS a fresh register pair holding the compare value and the
 * new value, the compare value first when compare_first (the order the
 * target's compare-and-swap takes). False after ref_unsupported. */
bool ref_atomic_operands(struct ref_ctx *c, const struct tgsi_insn *in, bool compare_first,
                         unsigned *addr, bool *shared, unsigned *data);
/* The word an ATOM* read (register old), to every written channel. */
void ref_atomic_result(struct ref_ctx *c, const struct tgsi_insn *in, unsigned old);
/* d = (a == b) ? x : y, into register d */
void ref_select_eq(struct ref_ctx *c, unsigned d, unsigned a, unsigned b, unsigned x, unsigned y);

/* ref_int64.c */
/* Whether op is a 64-bit integer opcode (conversions to and from 64-bit
 * integers included); ref_int64 expands it over 32-bit primitives. */
bool ref_int64_op(enum tgsi_opcode op);
enum compile_status ref_int64(struct ref_ctx *c, const struct tgsi_insn *in);

/* ref_fp64.c */
/* A double opcode over the target's fp64 instructions (its wide hook). */
bool ref_fp64_wide(struct ref_ctx *c, const struct tgsi_insn *in);

/* ref_tex.c */
/* Expands a texture opcode through the target's tex hook; false if the
 * target has none. */
bool ref_tex(struct ref_ctx *c, const struct tgsi_insn *in);
/* The texel offsets in one register: each a signed `bits`-bit field at
 * bit stride * k (immediates out of range refused, naming `what`). */
unsigned ref_tex_offsets(struct ref_ctx *c, const struct ref_texargs *a, unsigned bits,
                         unsigned stride, const char *what);

/* ref_cf_stack.c */
bool ref_stack_cf(struct ref_ctx *c, int32_t pc);
void ref_stack_statement(struct ref_ctx *c);
void ref_stack_begin(struct ref_ctx *c);
void ref_stack_end(struct ref_ctx *c);

/* ref_cf_exec.c */
/* Control flow on execution-mask stack models: true when pc was a
 * control-flow opcode (compiled here). */
bool ref_exec_cf(struct ref_ctx *c, int32_t pc);
void ref_exec_begin(struct ref_ctx *c);

/* ref_emit.c */
int ref_op(struct ref_ctx *c, const char *name);
/* The mnemonic table t (n entries) gives primitive op, or NULL. */
const char *ref_prim_op_find(const struct ref_prim_op *t, unsigned n, enum ref_prim op);
struct isa_insn *ref_emit(struct ref_ctx *c, const char *name);
int ref_label(struct ref_ctx *c);
void ref_place(struct ref_ctx *c, int label);
void ref_branch_to(struct ref_ctx *c, int label, int slot);
unsigned ref_tmp(struct ref_ctx *c);
unsigned ref_tmp_persistent(struct ref_ctx *c);
unsigned ref_group(struct ref_ctx *c, const unsigned *v, unsigned n);
void ref_tmp_release_persistent(struct ref_ctx *c, unsigned reg);
struct isa_opnd ref_r(struct ref_ctx *c, unsigned index);
struct isa_opnd ref_c(struct ref_ctx *c, unsigned index);
struct isa_opnd ref_p(struct ref_ctx *c, unsigned index);
struct isa_opnd ref_a(struct ref_ctx *c, unsigned index);
struct isa_opnd ref_imm(uint32_t v);
struct isa_opnd ref_immf(float f);
struct isa_opnd ref_neg(struct isa_opnd o);
struct isa_opnd ref_abs(struct isa_opnd o);
void ref_set_mod(struct ref_ctx *c, struct isa_insn *in, const char *mod, const char *value);
void ref_set_mod_int(struct ref_ctx *c, struct isa_insn *in, const char *mod, int value);

/* ref_gfx9_stages.c */
bool ref_g9_stage_window(const struct ref_ctx *c);
void ref_g9_stage_begin(struct ref_ctx *c);
void ref_g9_stage_end(struct ref_ctx *c);
bool ref_g9_input_indirect(struct ref_ctx *c, const struct tgsi_reg *r, unsigned comp,
                           unsigned *out);
bool ref_g9_stage_special(struct ref_ctx *c, const struct tgsi_insn *in);
void ref_g9_store_output(struct ref_ctx *c, const struct tgsi_dst *dst, const unsigned *res);

/* ref_homes.c */
/* Places the TEMP channels by liveness from scalar register first on
 * (c->temp_home); returns the registers used, or more than max (and
 * c->temp_home NULL) when they do not fit or cannot be placed. */
unsigned ref_temp_homes(struct ref_ctx *c, unsigned first, unsigned max);

/* ref_scratch.c */
/* Places the virtual scratch registers of the items added since the last
 * call (place_scratch targets; others: nothing). */
void ref_scratch_place(struct ref_ctx *c);

/* ref_hazard.c */
/* Inserts the waits, places labels, resolves branches and encodes c->items
 * into out; fills stats. */
enum compile_status ref_finish(struct ref_ctx *c, struct emu_program *out,
                               struct compile_stats *stats);

#endif
