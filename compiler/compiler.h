/*
 * The two compilers' entry points. Both turn a parsed TGSI shader into an
 * encoded program for one ISA model (struct emu_program, emu/emu.h):
 *
 *  - compiler/ref: a fixed, conservative expansion per TGSI op. The oracle.
 *  - compiler/opt: SSA, optimization passes, scheduling, register
 *    allocation, legalization and hazard insertion.
 *
 * A shader a compiler cannot translate is refused with COMPILE_UNSUPPORTED
 * and a diagnostic naming the opcode and its source line.
 */
#ifndef DC_COMPILER_H
#define DC_COMPILER_H

#include "compiler/tgsi/tgsi.h"
#include "emu/emu.h"

#include <string.h>

struct isa_model;
struct opt_options;

/* A set of injected faults, bit OPT_FAULT_* (fault.c): more faults than
 * one machine word holds. */
#define OPT_FAULT_WORDS 2
struct opt_fault_set {
   uint64_t w[OPT_FAULT_WORDS];
};
static inline bool
opt_fault_set_has(const struct opt_fault_set *s, int f)
{
   return (s->w[f / 64] >> (f % 64)) & 1;
}
static inline void
opt_fault_set_add(struct opt_fault_set *s, int f)
{
   s->w[f / 64] |= 1ull << (f % 64);
}
static inline void
opt_fault_set_del(struct opt_fault_set *s, int f)
{
   s->w[f / 64] &= ~(1ull << (f % 64));
}
static inline bool
opt_fault_set_any(const struct opt_fault_set *s)
{
   for (unsigned i = 0; i < OPT_FAULT_WORDS; i++)
      if (s->w[i])
         return true;
   return false;
}
static inline bool
opt_fault_set_eq(const struct opt_fault_set *a, const struct opt_fault_set *b)
{
   return !memcmp(a, b, sizeof(*a));
}

enum compile_status {
   COMPILE_OK,
   COMPILE_UNSUPPORTED, /* a construct this compiler does not translate */
   COMPILE_ERROR,       /* an internal failure: a bug, reported with the reason */
};

/* Static figures of one compiled program, for --stats and shader-db style totals. */
struct compile_stats {
   unsigned instructions; /* machine instructions, nops included */
   unsigned nops;         /* instructions that only wait */
   unsigned registers;    /* full-precision registers used (scalar count) */
   uint64_t cycles;       /* static cycle estimate of one pass through the code */
};

/* compiler/ref */
enum compile_status ref_compile(const struct tgsi_shader *s, const struct isa_model *m,
                                struct emu_program *out, struct compile_stats *stats,
                                struct diag_list *d);

/* compiler/opt. log (may be NULL) receives the pass manager's BISECT and
 * --print-after text. */
enum compile_status opt_compile(const struct tgsi_shader *s, const struct isa_model *m,
                                const struct opt_options *o, struct emu_program *out,
                                struct compile_stats *stats, char **log, struct diag_list *d);
/* Why the optimizing compiler covers only part of TGSI on model m (the
 * check then reports opt's refusal of a shader on m as not applicable, not
 * as its failure), or NULL when it covers what the reference does: a
 * per-target capability, compiler/opt/opt_targets.c. */
const char *opt_target_partial(const struct isa_model *m);
/* Whether the optimizing compiler on m runs the shared TGSI front end and
 * IR passes before its back end (false: agx, whose opt rewrites the
 * reference's machine code). A shader that opt compiles right on one such
 * target and wrong on another has its bug in the second one's back end. */
bool opt_target_shares_ir(const struct isa_model *m);
/* The mandatory stages the optimizing compiler on m has (bits 1 <<
 * OPT_STAGE_*, compiler/ir/ir.h): half and wait on agx, the shared
 * backend's stages on the others. */
unsigned opt_target_stages(const struct isa_model *m);
/* Why no input can make the optimizing compiler exercise coverage point
 * `point` of kind `kind` (check --coverage): a transformation kind (m
 * NULL) no pass order lets happen, or a hazard rule of model m that
 * isa_delay can decide but no pass asks; NULL when some input can.
 * check --coverage lists such a point as unreachable, out of its count. */
const char *opt_cover_unreachable(const struct isa_model *m, const char *kind, const char *point);

#endif
