/*
 * Instruction selection, shared between its files: the selector's state
 * and the builders every part uses. opt_isel.c is the pass (order of work,
 * ALU ops, compares, folding modifiers); opt_isel_tex.c selects texture
 * and cross-lane (derivative, subgroup) instructions, opt_isel_mem.c
 * constant, buffer, shared memory, atomic and half-float packing ones,
 * opt_isel_gs.c stage outputs (geometry and tessellation control) and
 * inputs read by vertex. Each builder inserts before `pos`
 * and returns the new value, or NULL after reporting why in s->ctx.
 */
#ifndef OPT_ISEL_H
#define OPT_ISEL_H

#include "compiler/ir/ir.h"

struct isel {
   struct ir_shader *sh;
   struct opt_ctx *ctx;
   const struct isa_model *m;
   int op[ISA_SEM_COUNT];     /* first op with each semantics, or -1 */
   int gpr, pred, addr, cnst; /* register files */
   int unif;                  /* the uniform file (gfx9 SGPRs), or -1 */
   bool lanemask;             /* compares write lane masks to uniform pairs (gfx9 VOPC e64) */
   int zero_reg, true_reg;    /* RZ in gpr, PT in pred (file `fixed`), or -1 */
   bool setp;                 /* compares write predicates only (FSETP/ISETP, sm50) */
   int mod_cond, mod_sat, mod_src_type, mod_dst_type, mod_wrmask, mod_type;
   int mod_bf, mod_wrap, mod_psl, mod_mrg, mod_xmode, mod_brev, mod_setop;
   unsigned *uses;     /* by value id: number of uses */
   unsigned *sel_uses; /* ... of which as a bcsel condition */
   bool progress;
};

/* opt_isel.c */
bool isel_unsupported(struct isel *s, const struct ir_instr *in, const char *what);
struct ir_instr *isel_build(struct isel *s, struct ir_instr *pos, enum isa_sem sem,
                            struct ir_instr *const *srcs, unsigned n);
struct ir_instr *isel_build1(struct isel *s, struct ir_instr *pos, enum isa_sem sem,
                             struct ir_instr *a);
struct ir_instr *isel_build2(struct isel *s, struct ir_instr *pos, enum isa_sem sem,
                             struct ir_instr *a, struct ir_instr *b);
struct ir_instr *isel_build3(struct isel *s, struct ir_instr *pos, enum isa_sem sem,
                             struct ir_instr *a, struct ir_instr *b, struct ir_instr *c);
struct ir_instr *isel_imm(struct isel *s, struct ir_instr *pos, uint32_t bits);
void isel_set_mod(struct isel *s, struct ir_instr *in, int mod, const char *value);
/* A compare's condition (gfx9: the op whose opcode holds it). */
void isel_set_cond(struct isel *s, struct ir_instr *in, const char *cond);
/* A compare result as a lane mask in the uniform file (gfx9). */
struct ir_instr *isel_in_mask_file(struct isel *s, struct ir_instr *in);
/* A constant read made during selection, bound to a uniform register
 * before the first instruction as hoist_inputs binds the others (gfx9). */
void isel_bind_const(struct isel *s, struct ir_instr *v);
void isel_set_flag_mod(struct isel *s, struct ir_instr *in, int mod, int v);
struct ir_instr *isel_flag(struct ir_instr *in, unsigned k, unsigned f);
struct ir_instr *isel_cov(struct isel *s, struct ir_instr *pos, struct ir_instr *a,
                          const char *from, const char *to);
struct ir_instr *isel_setp(struct isel *s, struct ir_instr *pos, enum isa_sem sem,
                           struct ir_instr *a, struct ir_instr *b, const char *cond,
                           const char *sign);
struct ir_instr *isel_predicate(struct isel *s, struct ir_instr *pos, struct ir_instr *v);
struct ir_instr *isel_mask_of_pred(struct isel *s, struct ir_instr *pos, struct ir_instr *p);
struct ir_instr *isel_minmax(struct isel *s, struct ir_instr *pos, enum isa_sem direct, bool min,
                             const char *sign, struct ir_instr *a, struct ir_instr *b);
struct ir_instr *isel_shift(struct isel *s, struct ir_instr *pos, enum isa_sem direct, bool left,
                            const char *sign, struct ir_instr *a, struct ir_instr *b);
struct ir_instr *isel_convert(struct isel *s, struct ir_instr *pos, struct ir_instr *a,
                              enum isa_type from, enum isa_type to);

/* opt_isel_tex.c */
struct ir_instr *isel_tex(struct isel *s, struct ir_instr *in);
struct ir_instr *isel_tex_nv(struct isel *s, struct ir_instr *in);
struct ir_instr *isel_cross_lane(struct isel *s, struct ir_instr *in);

/* opt_isel_fp64.c */
/* Splits every 64-bit value into its two words and selects the FP64
 * instructions; false when there was nothing to do. */
bool isel_fp64(struct isel *s);

/* opt_isel_mem.c */
struct ir_instr *isel_load_const_ind(struct isel *s, struct ir_instr *in);
struct ir_instr *isel_memory(struct isel *s, struct ir_instr *in);
struct ir_instr *isel_atomic(struct isel *s, struct ir_instr *in);
bool isel_res_size(struct isel *s, struct ir_instr *in);
/* The scalar (SALU) op of semantics sem with a `width`-bit result and no
 * literal, or -1. */
int isel_scalar_op(const struct isel *s, enum isa_sem sem, unsigned width);
/* gfx9: a scalar register holding `value` for the instruction at pos (an
 * earlier one of its block reused): a MIMG descriptor's first word. */
struct ir_instr *isel_descriptor(struct isel *s, struct ir_instr *pos, uint32_t value);
/* ... and a scalar register pair holding the 64-bit `value` (an address). */
struct ir_instr *isel_scalar_pair(struct isel *s, struct ir_instr *pos, uint32_t value);
/* gfx9: buffer and shared-memory words and atomics (GLOBAL with a scalar
 * base, DS): operands address, [data,] [base,] offset. */
struct ir_instr *isel_memory_based(struct isel *s, struct ir_instr *in);
struct ir_instr *isel_atomic_based(struct isel *s, struct ir_instr *in);
/* gfx9: a word of a stage window, a store when data is given, else a load
 * (operands voff, [data,] base pair, offset). */
struct ir_instr *isel_window_word(struct isel *s, struct ir_instr *pos, uint32_t base,
                                  struct ir_instr *voff, uint32_t off, struct ir_instr *data);
/* Constants bound to uniform registers (gfx9): every indirect read
 * becomes a select over its buffer's slots; before the inputs are hoisted. */
void isel_const_ind_selects(struct isel *s);
struct ir_instr *isel_half(struct isel *s, struct ir_instr *in);

/* opt_isel_gs.c */
bool isel_stage_supported(struct isel *s);
bool isel_output(struct isel *s, struct ir_instr *in);
bool isel_gs(struct isel *s, struct ir_instr *in);
struct ir_instr *isel_output_vtx(struct isel *s, struct ir_instr *in);
struct ir_instr *isel_input_vind(struct isel *s, struct ir_instr *in);

/* opt_isel_smem.c */
/* gfx9: the constant reads (load_const of a constant buffer) become
 * scalar loads (SMEM) at the start of the program, one per slot read. */
void isel_const_smem(struct isel *s);

#endif
