/*
 * The optimizing path on execution-mask models (agx): the reference
 * expansion (compiler/ref, ref_open) followed by machine passes over its
 * linear program, each optional rewrite an opt_transform, then the
 * reference back end (ref_close: bindings, encoding) with the waits these
 * passes placed. opt_agx.c is the driver and the shared analysis; one
 * file per pass.
 *
 * The program is straight-line code cut into regions: a region ends at
 * a flow op (an exec-stack op, a jump, stop) and a new one starts at every
 * branch target. Inside a region the execution mask is constant, so a
 * write there overwrites, for every lane the region runs, what an earlier
 * write of the region left (a "kill"); across regions a write is partial
 * (inactive lanes keep their registers) and kills nothing.
 */
#ifndef OPT_AGX_H
#define OPT_AGX_H

#include "compiler/ir/ir.h"
#include "compiler/ref/ref.h"

struct agx_prog {
   struct ref_ctx *rc;
   struct opt_ctx *ctx;
   const struct isa_model *m;
   int half_file;      /* rNl/rNh (an index is two per full register) */
   unsigned homes_end; /* registers below are TGSI homes (live to the end) */
   bool *start;        /* by item: a region starts here (a branch target) */
   bool *dead;         /* by item: removed (compacted by agx_compact) */
   struct agx_stats *st;
};

/* What the passes did (the --stats report of the compile). */
struct agx_stats {
   unsigned fused, kept, removed, minmax, narrowed, packed, waits_deferred;
   unsigned lanes_deriv, lanes_vote; /* the lanes pass's rewrites */
};

/* opt_agx.c */
/* Registers operand slot of item i touches: [first, first + n) in the
 * full file; false for immediates, uniforms and other files. */
bool agx_opnd_regs(const struct agx_prog *p, const struct isa_insn *in, int slot, unsigned *first,
                   unsigned *n);
bool agx_reads(const struct agx_prog *p, const struct isa_insn *in, unsigned reg);
bool agx_writes(const struct agx_prog *p, const struct isa_insn *in, unsigned reg);
/* Whether item i ends its region (a flow op). */
bool agx_ends_region(const struct agx_prog *p, unsigned i);
/* Whether some read of reg outside [from, to) of the live items may see
 * a value written at item `from` (a read not preceded by a write of reg
 * in its own region). */
bool agx_read_elsewhere(const struct agx_prog *p, unsigned reg, unsigned from, unsigned to);
/* Removes the dead items, moving the labels. */
void agx_compact(struct agx_prog *p);
/* Recomputes the region starts (after items moved). */
void agx_regions(struct agx_prog *p);
struct ref_item *agx_insert(struct agx_prog *p, unsigned at, const struct isa_insn *in);

/* opt_agx_lanes.c */
bool opt_agx_lanes(struct agx_prog *p);

/* opt_agx_cmpsel.c */
bool opt_agx_cmpsel(struct agx_prog *p);

/* opt_agx_half.c */
/* Places the movable scratch values again; with packing, 16-bit ones in
 * register halves, two to a register. */
bool opt_agx_half(struct agx_prog *p, bool packing);

/* opt_agx_wait.c */
bool opt_agx_wait(struct agx_prog *p);

/* opt_agx_verify.c: false after a compile error naming the pass. */
bool agx_verify_waits(struct agx_prog *p);
/* before: the items' instructions before the half pass. */
bool agx_verify_places(struct agx_prog *p, const struct isa_insn *before);

/* opt_agx.c */
enum compile_status opt_agx_compile(const struct tgsi_shader *s, const struct isa_model *m,
                                    const struct opt_options *o, struct emu_program *out,
                                    struct compile_stats *stats, char **log, struct diag_list *d);
bool opt_agx_model(const struct isa_model *m);

#endif
