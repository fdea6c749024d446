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
 *    (see ref.c for the divergence contract);
 *  - hazards are handled after the fact by ref_hazard.c, which waits for
 *    every result in full right after its producer, using only the model's
 *    latency function (isa_delay).
 *
 * Layout: ref.c walks the shader (register map, bindings, control flow,
 * subroutine inlining); the per-ISA files (ref_a3xx.c, ...) expand opcodes
 * through struct ref_target; ref_emit.c builds instructions; ref_hazard.c
 * inserts the waits, resolves branch targets (as the model's pcrel says)
 * and encodes.
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

/* How a branch decides: the tested value is a scalar register. */
enum ref_test {
   REF_TEST_FLOAT_NZ, /* value as float != 0.0 (NaN true, -0.0 false): IF */
   REF_TEST_INT_NZ,   /* value bits != 0: UIF */
   REF_TEST_INT_EQ,   /* value bits == other register: CASE */
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
   enum compile_status (*insn)(struct ref_ctx *c, const struct tgsi_insn *in);
   /* Source si of in, channel chan (after the swizzle), in a register, with
    * the source modifiers applied by the opcode's fetch type. */
   unsigned (*fetch)(struct ref_ctx *c, const struct tgsi_insn *in, unsigned si, unsigned chan);
   void (*copy)(struct ref_ctx *c, unsigned dst, unsigned src);
   /* Branch to label if test(a[, b]) == when, per lane. */
   void (*branch)(struct ref_ctx *c, enum ref_test test, unsigned a, unsigned b, bool when,
                  int label);
   void (*jump)(struct ref_ctx *c, int label);
   void (*end)(struct ref_ctx *c);
};

/* A control-flow construct being compiled. */
enum ref_cf_kind { REF_CF_IF, REF_CF_LOOP, REF_CF_SWITCH, REF_CF_CALL };

struct ref_cf {
   enum ref_cf_kind kind;
   int l_else, l_end; /* IF: false branch, end */
   int l_top, l_cont; /* LOOP: first instruction, back edge */
   int l_exit;        /* LOOP, SWITCH: after the construct; CALL: return point */
   bool else_placed;
   int32_t first;   /* SWITCH: its instruction index (to find its CASE labels) */
   int *case_label; /* SWITCH: label per instruction index, -1 if not its CASE */
   unsigned sel;    /* SWITCH: register holding the selector */
};

#define REF_MAX_CF     64
#define REF_MAX_INLINE 16

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

   /* Fixed homes: vec4 register base of each TGSI file, per vertex for
    * per-vertex inputs; constant-file vec4 base per constant buffer and
    * for the immediates. */
   unsigned base[TGSI_FILE_COUNT];
   unsigned count[TGSI_FILE_COUNT]; /* registers per vertex */
   unsigned vertices[TGSI_FILE_COUNT];
   unsigned cbase[16], ccount[16], imm_base;

   /* Scratch registers (scalar indices): [scratch_lo, scratch_next) in use
    * by the current instruction; persistent ones just below scratch_lo;
    * scratch_top is the end of the file. */
   unsigned scratch_lo, scratch_next, scratch_top;
   unsigned max_reg; /* highest scalar register used + 1 */

   struct ref_item *items;
   unsigned nitems, items_cap;
   int *labels; /* item index each label is placed at, -1 until placed */
   unsigned nlabels, labels_cap;

   struct ref_cf cf[REF_MAX_CF];
   unsigned ncf;
   unsigned inline_depth;
   int l_epilogue;
};

/* ------------------------------------------------------------------ */
/* Prototypes                                                           */

/* ref.c */
extern const struct ref_target ref_target_a3xx;
extern const struct ref_target ref_target_sm50;
/* Refuses the current instruction: COMPILE_UNSUPPORTED plus a diagnostic
 * naming the opcode and its line. Returns the status for convenience. */
enum compile_status ref_unsupported(struct ref_ctx *c, const char *fmt, ...) DC_PRINTF(2, 3);
enum compile_status ref_error(struct ref_ctx *c, const char *fmt, ...) DC_PRINTF(2, 3);
/* Scalar register home of a direct TGSI register channel (TEMP IN OUT ADDR
 * SV), or -1. */
int ref_home(struct ref_ctx *c, const struct tgsi_reg *r, unsigned chan);
/* Constant-file scalar slot of a direct CONST or IMM channel, or -1. */
int ref_const_slot(struct ref_ctx *c, const struct tgsi_reg *r, unsigned chan);

/* ref_emit.c */
int ref_op(struct ref_ctx *c, const char *name);
struct isa_insn *ref_emit(struct ref_ctx *c, const char *name);
int ref_label(struct ref_ctx *c);
void ref_place(struct ref_ctx *c, int label);
void ref_branch_to(struct ref_ctx *c, int label, int slot);
unsigned ref_tmp(struct ref_ctx *c);
unsigned ref_tmp_persistent(struct ref_ctx *c);
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

/* ref_hazard.c */
/* Inserts the waits, places labels, resolves branches and encodes c->items
 * into out; fills stats. */
enum compile_status ref_finish(struct ref_ctx *c, struct emu_program *out,
                               struct compile_stats *stats);

#endif
