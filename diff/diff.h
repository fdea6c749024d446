/*
 * The differential checker: inputs, runs, comparison, reports.
 */
#ifndef DC_DIFF_H
#define DC_DIFF_H

#include "compiler/tgsi/tgsi.h"
#include "emu/emu.h"
#include "util/util.h"

/* ------------------------------------------------------------------ */
/* inputs.c                                                             */

/* Default workgroup for compute shaders without CS_FIXED_BLOCK_*. */
#define DIFF_DEFAULT_BLOCK_X 8
#define DIFF_DEFAULT_BLOCK_Y 8

/* Generates every input of shader s for nlanes lanes from seed: per-lane
 * inputs and system values, constants, textures, buffers and images.
 * Compute dispatches round nlanes up to whole workgroups. NULL (with a
 * diagnostic) if the shader cannot be given inputs. */
struct env *diff_gen_inputs(const struct tgsi_shader *s, uint64_t seed, uint32_t nlanes,
                            struct diag_list *diags);

/* inputs_yaml.c */
/* The inputs of e as YAML text (the format is documented in
 * inputs_yaml.c). Caller frees; NULL if the emitter fails. */
char *diff_inputs_to_yaml(const struct env *e);

/* Reads inputs written by diff_inputs_to_yaml (or by hand). */
struct env *diff_inputs_from_yaml(const char *text, size_t len, const char *filename,
                                  struct diag_list *diags);

/* ------------------------------------------------------------------ */
/* reduce.c, reduce_inputs.c: shrink a failing shader and its inputs    */

/* What the predicate says of a candidate. */
enum diff_reduce_verdict {
   DIFF_REDUCE_KEEP,    /* the same failure: same target, same signal kind */
   DIFF_REDUCE_DISCARD, /* passes, or fails differently */
   DIFF_REDUCE_INVALID, /* could not be compiled or run (a discard, counted apart) */
};

/* Decides whether candidate, run on inputs, still shows the failure. It
 * must not keep the pointers, and must not depend on anything but its
 * arguments (verdicts are cached by candidate). */
typedef enum diff_reduce_verdict (*diff_reduce_pred_fn)(const struct tgsi_shader *candidate,
                                                        const struct env *inputs, void *user);

struct diff_reduce_stats {
   unsigned insns_before, insns_after;
   uint32_t lanes_before, lanes_after;
   uint64_t tests; /* predicate evaluations */
   uint64_t keeps, discards, invalid;
   uint64_t cache_hits;
   uint64_t rejected; /* candidates that did not re-parse (never shown to the predicate) */
   double seconds;
   bool budget_hit; /* stopped by --time-limit or the step budget: best so far */
};

struct diff_reduce_progress {
   const char *pass;
   unsigned insns; /* instructions of the best shader so far */
   uint32_t lanes; /* lanes of the best inputs so far */
   const struct diff_reduce_stats *stats;
};
typedef void (*diff_reduce_progress_fn)(void *user, const struct diff_reduce_progress *p);

struct diff_reduce_opts {
   diff_reduce_pred_fn still_fails;
   void *user;
   diff_reduce_progress_fn progress; /* at each pass and each step kept; may be NULL */
   void *progress_user;
   double time_limit;  /* seconds; 0 = none */
   uint64_t max_tests; /* predicate evaluations; 0 = none */
   /* The dialect every candidate is re-parsed with (the original's). */
   struct tgsi_parse_opts popts;
   bool skip_shader, skip_inputs;
   /* Lanes known to fail (a reproducer's), tried first; may be empty. */
   const uint32_t *fail_lanes;
   unsigned nfail_lanes;
};

#define DIFF_REDUCE_STATUSES(X)                                                                    \
   X(OK, "reduced")                                                                                \
   X(NOT_FAILING, "the original does not show the failure")                                        \
   X(BAD_INPUT, "the shader does not survive printing and re-parsing")
#define DIFF_REDUCE_ST_(n, d) DIFF_REDUCE_##n,
enum diff_reduce_status { DIFF_REDUCE_STATUSES(DIFF_REDUCE_ST_) DIFF_REDUCE_STATUS_COUNT };
#undef DIFF_REDUCE_ST_

struct diff_reduce_result {
   struct tgsi_shader *shader; /* the caller frees both */
   struct env *inputs;
   struct diff_reduce_stats stats;
};

/* The state of one reduction, shared by reduce.c and reduce_inputs.c. */
struct diff_reduce_cache_ent {
   uint64_t key;
   uint8_t used, verdict;
};

struct diff_reducer {
   const struct diff_reduce_opts *o;
   struct tgsi_shader *best; /* always a parsed shader that KEEPs */
   uint64_t best_hash;       /* of its printed text */
   struct env *inputs;       /* the best inputs */
   uint64_t inputs_hash;
   struct diff_reduce_cache_ent *cache;
   size_t cache_n, cache_cap;
   struct diff_reduce_stats st;
   double t0;
   bool stop; /* a budget ran out */
   const char *pass;
};

/* reduce.c */
extern const char *const diff_reduce_status_names[DIFF_REDUCE_STATUS_COUNT];
/* Shrinks s and inputs while o->still_fails keeps saying KEEP: the shader
 * first, then the inputs, then the shader again. Deterministic unless the
 * time limit strikes. res is filled when OK. */
enum diff_reduce_status diff_reduce(const struct tgsi_shader *s, const struct env *inputs,
                                    const struct diff_reduce_opts *o,
                                    struct diff_reduce_result *res, struct diag_list *diags);
void diff_reduce_result_fini(struct diff_reduce_result *res);
/* Asks the predicate (through the cache and the budgets) about s (printed
 * as text) on e; never KEEP once r->stop is set. */
enum diff_reduce_verdict diff_reducer_test(struct diff_reducer *r, const struct tgsi_shader *s,
                                           const char *text, const struct env *e);
void diff_reducer_report(struct diff_reducer *r);

/* reduce_inputs.c */
/* Kinds of simpler values to offer for a 32-bit word. */
enum diff_value_kind_bits {
   DIFF_VK_FLOAT = 1 << 0,
   DIFF_VK_INT = 1 << 1, /* signed: -1 allowed */
   DIFF_VK_UINT = 1 << 2,
};
/* How complicated a value looks: 0 for 0, then 1.0, 1, -1.0, ...; round
 * floats with few mantissa bits rank below others. */
unsigned diff_value_rank(uint32_t bits);
/* Simpler values to try instead of bits, simplest first, each of lower
 * rank; kinds: DIFF_VK_* bits. Returns the count (at most 24). */
unsigned diff_value_candidates(uint32_t bits, unsigned kinds, uint32_t out[24]);
uint64_t diff_env_hash(const struct env *e);
/* A copy of e's inputs restricted to lanes[0..n) (in that order); outputs
 * are left unallocated. Compute: n must cover whole workgroups. */
struct env *diff_env_select_lanes(const struct env *e, const uint32_t *lanes, uint32_t n);
/* Shrinks r->inputs: fewest lanes, then simplest values. */
void diff_reduce_inputs(struct diff_reducer *r);

#endif
