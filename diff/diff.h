/*
 * The differential checker: inputs, runs, comparison, reports, and the
 * random shader generator that feeds it generated cases.
 */
#ifndef DC_DIFF_H
#define DC_DIFF_H

#include "compiler/compiler.h"
#include "compiler/tgsi/tgsi.h"
#include "emu/emu.h"
#include "util/util.h"

#include <signal.h>
#include <stdio.h>

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
/* Lanes per draw (a set of constants): 16 draws in the default 1024
 * invocations; compute draws are whole workgroups. */
#define DIFF_DRAW_LANES 64
/* DIFF_INPUTS_REAL_CONSTANTS: every draw's constants realistic (a retry
 * when a loop bounded by a constant did not end). subgroup: lanes per
 * subgroup, 32 or 64 (diff_subgroup_size). */
enum { DIFF_INPUTS_REAL_CONSTANTS = 1 << 0 };
struct env *diff_gen_inputs_ex(const struct tgsi_shader *s, uint64_t seed, uint32_t nlanes,
                               unsigned flags, uint32_t subgroup, struct diag_list *diags);

/* inputs_yaml.c */
/* The inputs of e as YAML text (the format is documented in
 * inputs_yaml.c). Caller frees; NULL if the emitter fails. */
char *diff_inputs_to_yaml(const struct env *e);

/* Reads inputs written by diff_inputs_to_yaml (or by hand). */
struct env *diff_inputs_from_yaml(const char *text, size_t len, const char *filename,
                                  struct diag_list *diags);

/* ------------------------------------------------------------------ */
/* The check: structs                                                   */

/* A case is one shader on one target. Its status is the worst of its
 * signals (fail > error > vacuous > skip > n/a > pass). n/a: the target's
 * hardware lacks something the shader needs; skip: a compiler refused it;
 * vacuous: everything ran and nothing was compared (not a pass). */
#define DIFF_STATUSES(X)                                                                           \
   X(PASS, "pass")                                                                                 \
   X(FAIL, "fail")                                                                                 \
   X(ERROR, "error")                                                                               \
   X(SKIP, "skip")                                                                                 \
   X(NA, "n/a")                                                                                    \
   X(VACUOUS, "vacuous")
#define DIFF_STATUS_(n, s) DIFF_##n,
enum diff_status { DIFF_STATUSES(DIFF_STATUS_) DIFF_STATUS_COUNT };
#undef DIFF_STATUS_

/* What a case can report: name, the status it gives the case, meaning. */
#define DIFF_SIGNALS(X)                                                                            \
   X(MISMATCH, "mismatch", FAIL, "an output differs")                                              \
   X(HAZARD, "hazard", FAIL, "the emulator saw a read before ready or a missing sync")             \
   X(ILLEGAL, "illegal-encoding", FAIL, "a program holds an instruction the model forbids")        \
   X(COMPILE, "compile-error", FAIL, "a compiler failed (an internal error, not a refusal)")       \
   X(REFUSED, "opt-refused", FAIL,                                                                 \
     "the optimizing compiler refuses a shader the reference compiles")                            \
   X(INVARIANCE, "invariance", FAIL,                                                               \
     "POSITION differs between the full and a position-only build")                                \
   X(EMU, "emu-error", FAIL, "the emulator could not run a program to its end")                    \
   X(CRASH, "crash", FAIL, "the case died on a signal or an unexpected exit")                      \
   X(TIMEOUT, "timeout", FAIL, "the case ran past --timeout")                                      \
   X(INPUT, "input-error", ERROR, "the shader cannot be read, parsed or given inputs")             \
   X(INTERP, "interp-error", ERROR, "the golden interpreter refused or did not finish")            \
   X(UNSUPPORTED, "unsupported", SKIP, "a compiler does not translate this shader")                \
   X(RUNAWAY, "runaway-loop", SKIP,                                                                \
     "the interpreter ran out of steps, with realistic constants too")                             \
   X(NO_FEATURE, "not-applicable", NA, "the target's hardware lacks a feature the shader needs")   \
   X(OPT_NA, "opt-not-applicable", NA,                                                             \
     "the optimizing compiler does not target this model yet: only ref is checked")                \
   X(NOTHING, "nothing-compared", VACUOUS, "every step ran and no value was compared")
#define DIFF_SIGNAL_(n, s, st, d) DIFF_SIG_##n,
enum diff_signal_kind { DIFF_SIGNALS(DIFF_SIGNAL_) DIFF_SIG_COUNT };
#undef DIFF_SIGNAL_

/* Which value of a run a mismatch is about. */
#define DIFF_VALUES(X)                                                                             \
   X(OUT, "output")                                                                                \
   X(KILLED, "discard")                                                                            \
   X(GS_COUNT, "emitted vertex count")                                                             \
   X(GS_DATA, "emitted vertex")                                                                    \
   X(BUFFER, "buffer word")                                                                        \
   X(IMAGE, "image word")                                                                          \
   X(GS_STREAM, "emitted vertex stream")                                                           \
   X(GS_PRIM, "emitted vertex primitive")
#define DIFF_VALUE_(n, s) DIFF_VAL_##n,
enum diff_value_kind { DIFF_VALUES(DIFF_VALUE_) DIFF_VAL_COUNT };
#undef DIFF_VALUE_

/* One differing value. OUT: out[vertex][reg].chan of lane; GS_DATA: the
 * lane's emitted vertex `vertex`, register reg, chan; BUFFER/IMAGE: word
 * at byte `lane` of buffer/image reg; KILLED/GS_COUNT: lane only. */
struct diff_mismatch {
   uint8_t kind; /* enum diff_value_kind */
   uint8_t chan;
   uint16_t flags; /* the interpreter's enum env_flag bits of the value */
   uint32_t vertex, reg, lane;
   uint32_t expected, actual;
};

/* Inexact transforms the optimizing compiler may be allowed, each with the
 * tolerance it brings to the ref-against-opt comparison (compare.c). */
#define DIFF_INEXACT(X)                                                                            \
   X(FFMA, "fuse-ffma", "mul+add fused into one rounding (ffma)")                                  \
   X(ALGEBRAIC, "inexact", "algebraic rules exact only for finite non-zero values")
#define DIFF_INEXACT_(n, s, d) DIFF_INEXACT_##n##_BIT,
enum diff_inexact_bit { DIFF_INEXACT(DIFF_INEXACT_) DIFF_INEXACT_COUNT };
#undef DIFF_INEXACT_

enum diff_cmp_mode {
   DIFF_CMP_ORACLE, /* interpreter against a program: tolerance per op class */
   DIFF_CMP_EXACT,  /* ref against opt: bit-exact but for opt's inexact transforms */
   DIFF_CMP_BITS,   /* invariance: bit-identical (NaN == NaN unless exact_nan) */
};

struct diff_cmp_opts {
   enum diff_cmp_mode mode;
   bool exact_nan;   /* NaN must match NaN bit for bit */
   unsigned inexact; /* 1 << DIFF_INEXACT_*_BIT the actual side was compiled with */
   /* Run whose flags say what is undefined and which op classes a value
    * went through (the interpreter's); NULL: every value defined, no class. */
   const struct env *flags;
   /* Per OUT register * 4 + chan: 1 if compared exactly (INVARIANT output
    * or a _PRECISE computation, diff_exact_channels); NULL: none. */
   const uint8_t *exact;
   /* Per OUT register * 4 + chan: 0 to leave out; NULL: compare all. */
   const uint8_t *select;
};

#define DIFF_MAX_SHOWN 8 /* mismatches kept per comparison */
#define DIFF_MAX_LANES 4 /* failing lanes kept (their inputs go in the repro) */

struct diff_cmp_result {
   uint64_t compared;  /* values compared */
   uint64_t undefined; /* values left out: undefined per the interpreter */
   uint64_t unchecked; /* values left out: denormal/NaN/derivative classes (oracle) */
   uint64_t tolerated; /* values that differ within their tolerance */
   uint64_t mismatched;
   unsigned nshown;
   struct diff_mismatch shown[DIFF_MAX_SHOWN];
   unsigned nlanes; /* distinct failing lanes, lowest first */
   uint32_t lanes[DIFF_MAX_LANES];
};

/* One named input word of a lane ("IN[1].y", "SV.POSITION.x"). */
struct diff_lane_value {
   char name[32];
   uint32_t bits;
};

struct diff_lane_dump {
   uint32_t lane;
   unsigned nvals;
   struct diff_lane_value *vals;
};

struct diff_signal {
   enum diff_signal_kind kind;
   char *step; /* where: "parse", "interp", "ref", "opt", "emu ref", "interp/ref", ... */
   char *msg;  /* one line */
   bool has_value;
   struct diff_mismatch m; /* the first differing value (MISMATCH, INVARIANCE) */
   uint64_t count;         /* differing values in all */
};

/* Figures of one compiled program: static ones (see compile_stats), and
 * the emulated cycles of its run summed over waves (0: it did not run). */
struct diff_prog_stats {
   bool valid;
   unsigned instructions, nops, registers;
   uint64_t cycles;
   uint64_t emu_cycles;
};

struct diff_case_result {
   bool done;
   enum diff_status status;
   struct diff_signal *sig;
   unsigned nsig, sig_cap;
   struct diff_prog_stats ref, opt;
   uint64_t compared, undefined, unchecked, tolerated;
   /* The interpreter's defined output values (outputs, emitted vertices,
    * buffer and image words) and how many of them are NaN. */
   uint64_t outputs, nan;
   /* The failing lanes and their inputs (reproducer). */
   unsigned nlanes;
   struct diff_lane_dump lanes[DIFF_MAX_LANES];
   double seconds;
   char *repro; /* the reproducer written for it (set by the front end) */
   char *cover; /* with o.coverage: opt's coverage counts (cover_dump), or NULL */
};

/* A shader to check: a file, or generated text. */
struct diff_shader_src {
   char *name; /* the path as given, or "gen:SEED" */
   char *text; /* NULL: read the file `name`, or generate it (gen) */
   /* A generated shader: its text is made again from the seed whenever
    * it is needed (diff_shader_text), so a run over many keeps none. */
   bool gen, gen_sink;
   uint64_t gen_seed;
   /* Inputs to run on instead of generating them from the seed (a
    * reduced reproducer's); not owned. */
   const struct env *inputs;
   /* A variant (check --variants): 1 + the index of the shader it was
    * made from, whose inputs it runs on and whose interpreter outputs it
    * must give; 0 = none. */
   unsigned variant_of;
};

struct isa_model;
struct diff_target {
   char *name;
   struct isa_model *model;
};

struct diff_case {
   unsigned shader, target;
};

struct diff_check_opts {
   uint64_t seed;
   uint32_t invocations;
   uint64_t max_steps; /* interpreter and emulator budget; 0 = default */
   bool exact_nan;
   bool invariance;
   unsigned inexact;    /* DIFF_INEXACT_* bits the optimizing compiler may use */
   const char *opt_asm; /* --opt-asm: the program that stands for opt's (not owned) */
   /* --opt-cmd: an external compiler that stands for opt (extcc.c; not
    * owned) and its time limit per compile */
   const char *opt_cmd;
   unsigned opt_cmd_timeout_ms;
   struct opt_fault_set faults; /* --inject-fault: bugs switched on in opt */
   struct tgsi_parse_opts popts;
   unsigned jobs;       /* worker processes; 0 = in this process, no isolation */
   unsigned timeout_ms; /* per case; 0 = none */
   bool coverage;       /* count what each optimizing compile exercises (result.cover) */
   bool gen_no_sink;    /* --no-gen-sink: generated shaders without the sink (diff_gen_opts.sink) */
   bool no_verify;      /* --no-verify: opt's per-rewrite verifier off (a bug it would
                           stop at compile time runs, to be caught at run time or not) */
};

/* Everything a run needs, and its results (one per case, case order). */
struct diff_check {
   struct diff_check_opts o;
   struct diff_shader_src *shaders;
   unsigned nshaders, shaders_cap;
   struct diff_target *targets;
   unsigned ntargets, targets_cap;
   struct diff_case *cases;
   unsigned ncases, cases_cap;
   /* The results, case i's at diff_result(c, i): results[i], or with a
    * window results[i % window]. */
   struct diff_case_result *results;
   /* Set before diff_check_make_cases to stream a run (check): results of
    * at most `window` cases are kept (0: every case's). A case starts only
    * once every case `window` or more before it is released
    * (diff_check_release: reported and freed by the front end), so the
    * memory of a run does not grow with its length. */
   unsigned window;
   unsigned released;  /* cases [0, released) are released */
   unsigned held_peak; /* the most cases started and not released at once */
   /* Replaces the optimizing compiler when set (--opt-asm, tests): fills
    * out with a program for s on m; else its status (COMPILE_UNSUPPORTED:
    * a refusal, as opt's own) with diagnostics. */
   enum compile_status (*opt_override)(void *ctx, const struct tgsi_shader *s,
                                       const struct isa_model *m, struct emu_program *out,
                                       struct diag_list *d);
   void *opt_override_ctx;
   /* DIFFCOMP_CHECK_INJECT (tests only): "crash:NAME", "spin:NAME",
    * "exit:NAME" make the case whose shader name contains NAME die. */
   const char *inject;
   /* Set (by a signal handler or a progress callback) to end the run
    * early: no case starts any more, workers are asked to stop (SIGINT)
    * and killed after a grace period; cases not finished stay !done. */
   volatile sig_atomic_t stop;
};

/* Case i's result (the slot of its window when c streams). */
static inline struct diff_case_result *
diff_result(const struct diff_check *c, unsigned i)
{
   return &c->results[c->window ? i % c->window : i];
}

/* The most cases a streaming check keeps results of at once (its
 * window; at least the cases of one shader). */
#define DIFF_WINDOW 1024

/* Receives progress from a run: a step of a case begins (step != NULL),
 * or a case is done (step == NULL, its result filled). */
typedef void (*diff_progress_fn)(void *ctx, unsigned case_index, const char *step);

/* ------------------------------------------------------------------ */
/* compare.c                                                            */
extern const char *const diff_status_names[DIFF_STATUS_COUNT];
extern const char *const diff_signal_names[DIFF_SIG_COUNT];
extern const char *const diff_signal_descs[DIFF_SIG_COUNT];
extern const char *const diff_value_names[DIFF_VAL_COUNT];
extern const char *const diff_inexact_names[DIFF_INEXACT_COUNT];
extern const char *const diff_inexact_descs[DIFF_INEXACT_COUNT];
enum diff_status diff_signal_status(enum diff_signal_kind k);
/* Ordered distance in units in the last place (+0 and -0 are 0 apart). */
uint32_t diff_ulp_distance(uint32_t a, uint32_t b);
/* The verdict on one value, a 32-bit word with interpreter flags `flags`;
 * exact: the channel is INVARIANT or _PRECISE (the rules are in compare.c
 * and the README, "Comparison rules"). */
enum diff_verdict {
   DIFF_V_EQUAL,
   DIFF_V_TOLERATED, /* differs within its tolerance */
   DIFF_V_UNDEFINED, /* left out: undefined */
   DIFF_V_UNCHECKED, /* left out: a class the oracle cannot judge */
   DIFF_V_DIFFERENT,
};
enum diff_verdict diff_value_verdict(uint32_t expected, uint32_t actual, unsigned flags, bool exact,
                                     const struct diff_cmp_opts *o);
/* Per OUT register * 4 + chan (s's output count * 4 entries, caller frees):
 * 1 for INVARIANT outputs and values computed under _PRECISE; with ctl,
 * of those only values whose every deciding branch is exact too (ref
 * against an opt allowed inexact transforms: a rewritten condition may
 * take opt down the other branch). */
uint8_t *diff_exact_channels(const struct tgsi_shader *s, uint32_t nout, bool ctl);
/* Compares every value of two runs of s: outputs, discards, emitted
 * vertices, buffers and images. */
void diff_compare(const struct tgsi_shader *s, const struct env *expected, const struct env *actual,
                  const struct diff_cmp_opts *o, struct diff_cmp_result *r);
/* "OUT[1].y (GENERIC 0) lane 17: expected 0x3f800000 (1) got ..." */
char *diff_mismatch_text(const struct tgsi_shader *s, const struct diff_mismatch *m);
/* "0x3f800000 (1)" into buf. */
void diff_value_text(uint32_t bits, char *buf, size_t size);

/* applicable.c */
/* Why s does not apply to model m ("FMA at line 76 needs fma (...), which
 * a3xx lacks"; caller frees), or NULL when it does. */
char *diff_target_lacks(const struct tgsi_shader *s, const struct isa_model *m);
/* Whether s's results depend on the subgroup size: subgroup ops or
 * SUBGROUP_* system values. */
bool diff_uses_subgroups(const struct tgsi_shader *s);
/* Lanes per subgroup on model m: its wave (emu_wave_size: gfx9 64, sm50
 * 32) when it has the subgroup feature, else ENV_SUBGROUP_SIZE. */
uint32_t diff_subgroup_size(const struct isa_model *m);

/* check.c */
/* The i-th of the targets the check uses without --target, or NULL. */
const char *diff_builtin_target(unsigned i);
void diff_check_init(struct diff_check *c);
void diff_check_fini(struct diff_check *c);
/* The built-in targets that open in this build, or the comma list names;
 * false (with a diagnostic) for a name that does not open. */
bool diff_check_add_targets(struct diff_check *c, const char *list, struct diag_list *d);
/* Adds a shader; text (owned) NULL: read the file `name` when it runs. */
void diff_check_add_shader(struct diff_check *c, const char *name, char *text);
/* The text of a shader to check, owned by the caller (*len its length):
 * its own text, the generator's made again from its seed, or the file's
 * contents; NULL with an error in d when the file cannot be read. */
char *diff_shader_text(const struct diff_shader_src *src, size_t *len, struct diag_list *d);
/* A shader file; a file holding several shaders (a debug log) adds each,
 * named FILE#1, FILE#2, ... */
void diff_check_add_file(struct diff_check *c, const char *path);
/* Adds n shaders from the random generator (diff_gen, stage chosen by the
 * seed, default size), named "gen:S": the same as `diffcomp gen --seed S`.
 * Their seeds derive from c->o.seed, so a run is reproducible. */
void diff_check_add_generated(struct diff_check *c, unsigned n);
/* Adds n semantics-preserving variants (diff_variant) of every shader
 * added so far, named "NAME~vK"; a shader that does not parse gets none
 * (its own case shows the error). */
void diff_check_add_variants(struct diff_check *c, unsigned n);
/* One case per shader and target; shard k of n (1-based; n = 1: all). */
void diff_check_make_cases(struct diff_check *c, unsigned shard_k, unsigned shard_n);
/* The steps a case of c runs in this build ("interp ref ..."), for reports. */
const char *diff_check_steps(const struct diff_check *c);
/* Whether case i has finished (its result is in its slot). */
static inline bool
diff_case_done(const struct diff_check *c, unsigned i)
{
   return (!c->window || i < c->released + c->window) && diff_result(c, i)->done;
}
/* A streaming check (c->window): frees the results of cases [released,
 * end), which the front end has reported; their slots take later cases. */
void diff_check_release(struct diff_check *c, unsigned end);
/* The first case after case i's shader's cases (cases are shader-major). */
unsigned diff_check_group_end(const struct diff_check *c, unsigned i);
/* Runs the cases cases[0..n) (all of one shader) in this process, each
 * result at diff_result; stops between cases once c->stop is set. */
void diff_check_job(const struct diff_check *c, const unsigned *cases, unsigned n,
                    diff_progress_fn fn, void *ctx);
void diff_result_add(struct diff_case_result *r, enum diff_signal_kind k, const char *step,
                     const struct diff_mismatch *m, uint64_t count, const char *fmt, ...)
    DC_PRINTF(6, 7);
void diff_result_fini(struct diff_case_result *r);
/* An opt_override: the program assembled from the emulator assembly file
 * at path (emu/asmprog.c format) for model m, whatever the shader. */
enum compile_status diff_opt_from_asm(void *path, const struct tgsi_shader *s,
                                      const struct isa_model *m, struct emu_program *out,
                                      struct diag_list *d);
/* The options the check gives the optimizing compiler (no limit). */
struct opt_options;
void diff_check_opt_options(const struct diff_check *c, struct opt_options *o);
/* Shader k of c parsed as its cases parse it, or NULL (d says why). */
struct tgsi_shader *diff_check_parse(const struct diff_check *c, unsigned k, struct diag_list *d);
/* The inputs of lane l of e (inputs and system values). */
void diff_lane_dump(const struct env *e, uint32_t lane, struct diff_lane_dump *out);
/* A copy of vertex shader s that writes only its POSITION output (the
 * others become temporaries), as a depth-only pass would compile it; NULL
 * if s has no POSITION or addresses outputs indirectly. */
struct tgsi_shader *diff_position_only(const struct tgsi_shader *s);

/* The inputs of a shader's cases and the golden run on them: from the
 * seed, or given (a reduced reproducer's). From the seed, two retries:
 * a compute shader whose workgroups leave most memory words undefined
 * (they all write the same words) runs one workgroup; a run out of steps
 * (a loop bounded by a constant) retries with realistic constants. */
enum { DIFF_RETRY_ONE_WORKGROUP = 1 << 0, DIFF_RETRY_REAL_CONSTANTS = 1 << 1 };
struct diff_case_env {
   struct env *inputs, *golden; /* golden NULL when the interpreter failed */
   enum tgsi_interp_status st;
   char *err;        /* the interpreter's failure, one line */
   unsigned retried; /* DIFF_RETRY_* */
};
/* False (diagnostics in d) when the inputs cannot be made. */
/* plan: the shader the inputs are made for (a variant's original), NULL: s.
 * subgroup: lanes per subgroup of generated inputs (diff_subgroup_size of
 * the target; given inputs carry their own). */
bool diff_case_env(const struct diff_check_opts *o, const struct tgsi_shader *s,
                   const struct tgsi_shader *plan, const struct env *given, uint32_t subgroup,
                   struct diff_case_env *ce, struct diag_list *d);
void diff_case_env_fini(struct diff_case_env *ce);
/* diff_subgroup_size of case i's target (ENV_SUBGROUP_SIZE without one). */
uint32_t diff_case_subgroup(const struct diff_check *c, unsigned i);

/* extcc.c: an external compiler under test (check --opt-cmd; the
 * protocol is at the top of extcc.c and in the README) */
#define DIFF_EXTCC_REFUSED     3   /* exit status: "I do not translate this shader" */
#define DIFF_EXTCC_TAIL_LINES  4   /* stderr lines a failure's message carries */
#define DIFF_EXTCC_TAIL_CHARS  400 /* ... at most about this many characters */
#define DIFF_EXTCC_TIMEOUT_SEC 60  /* default time limit of one compile */
struct diff_extcc {
   const char *cmd; /* the template */
   unsigned timeout_ms;
};
struct diff_extcc_result {
   enum compile_status status; /* COMPILE_OK when msg is NULL */
   enum diff_signal_kind kind; /* the failure's: compile-error, crash, timeout, unsupported */
   char *msg;                  /* the failure, one line, the stderr tail at its end */
   char *err;                  /* the command's whole stderr (BISECT lines), file names as {..} */
   double seconds;
};
/* The command of o (--opt-cmd) with its time limit: --opt-cmd-timeout
 * (default DIFF_EXTCC_TIMEOUT_SEC), at most 3/4 of the case's --timeout. */
struct diff_extcc diff_check_extcc(const struct diff_check_opts *o);
/* NULL if cmd is a usable template, else why not (caller frees). */
char *diff_extcc_check_template(const char *cmd);
bool diff_extcc_has_limit(const char *cmd);
/* Runs the command on s for model m (limit < 0: {limit} is -1); out gets
 * the program when r->msg is NULL. */
void diff_extcc_compile(const struct diff_extcc *x, const struct tgsi_shader *s,
                        const struct isa_model *m, long long limit, struct emu_program *out,
                        struct diff_extcc_result *r);
void diff_extcc_result_fini(struct diff_extcc_result *r);
/* A diff_bisect_compile_fn (ctx: struct diff_extcc): the command at the
 * options' limit, its stderr as the log. */
struct opt_options;
bool diff_extcc_bisect_compile(void *ctx, const struct tgsi_shader *s, const struct isa_model *m,
                               const struct opt_options *o, struct emu_program *out, char **log,
                               struct diag_list *d);
/* Raw code (len bytes) with its bindings file (YAML: one key per
 * directive of emu/README.md without the dot, its arguments or a list of
 * them) as an assembly program would give it; false with diagnostics. */
bool diff_raw_program(const struct isa_model *m, const uint8_t *code, size_t len, const char *btext,
                      size_t blen, const char *bfile, struct emu_asm *out, struct diag_list *d);
/* Why p's bindings or stage do not fit s (caller frees), or NULL. */
char *diff_bindings_mismatch(const struct tgsi_shader *s, const struct emu_program *p);
/* Static figures read from the code (instructions, nops, registers,
 * cycles as the reference compiler counts them). */
void diff_program_stats(const struct isa_model *m, const struct emu_program *p,
                        struct compile_stats *st);

/* run.c */
/* Runs every case: c->o.jobs worker processes, a child per shader job,
 * each case isolated (a crash or timeout is that case's signal and the run
 * goes on). Results land at diff_result; fn sees progress in the parent. */
void diff_check_run(struct diff_check *c, diff_progress_fn fn, void *ctx);
/* "SIGSEGV", or "signal N". */
const char *diff_signal_name(int sig, char *buf, size_t size);

/* report.c */
/* A case's result against the baseline. */
#define DIFF_OUTCOMES(X)                                                                           \
   X(OK, "ok")                           /* passed or skipped, as expected */                      \
   X(EXPECTED, "expected")               /* failed or errored as the baseline says */              \
   X(NEW_FAIL, "new-failure")            /* failed, baseline did not say so */                     \
   X(NEW_ERROR, "new-error")             /* errored, baseline did not say so */                    \
   X(UNEXPECTED_PASS, "unexpected-pass") /* passed, baseline says fail or error */
#define DIFF_OUTCOME_(n, s) DIFF_OUT_##n,
enum diff_outcome { DIFF_OUTCOMES(DIFF_OUTCOME_) DIFF_OUT_COUNT };
#undef DIFF_OUTCOME_
extern const char *const diff_outcome_names[DIFF_OUT_COUNT];

struct diff_baseline_entry {
   char *shader;
   char *target; /* NULL: every target */
   enum diff_status status;
   int signal;     /* enum diff_signal_kind the failure must begin with; -1: any */
   char *output;   /* the first failing value it must be about ("OUT[1].z"), or NULL */
   char *resolved; /* the shader's canonical path, NULL if it names no file */
};

struct diff_baseline {
   struct diff_baseline_entry *v;
   unsigned n, cap;
   char *dir; /* the baseline file's directory: entries' paths are relative to it */
};

struct diff_summary {
   unsigned shaders, cases;
   unsigned status[DIFF_STATUS_COUNT];
   unsigned outcome[DIFF_OUT_COUNT];
   unsigned signals[DIFF_SIG_COUNT]; /* cases with at least one */
   uint64_t compared, undefined, unchecked, tolerated;
   uint64_t outputs, nan; /* per shader, not per case */
   unsigned low;          /* cases that compared under DIFF_LOW_COMPARED_PCT % */
};

struct diff_metric {
   uint64_t ref, opt;
   unsigned helped, hurt; /* cases where opt's is lower, higher */
};

/* What the reports' heads need of a run, added up case by case in case
 * order (diff_tally_add), so that a streaming check keeps no case once it
 * is reported. */
struct diff_tally {
   struct diff_summary s;
   unsigned (*by_target)[DIFF_STATUS_COUNT]; /* cases per target and status */
   int last_shader;                          /* the last case's shader, -1: none yet */
   /* --stats: instructions, nops, registers, cycles over the cases with
    * both programs; per target the sums of log(opt/ref) of instructions,
    * registers and emulated cycles over the cases where both ran */
   unsigned both;
   struct diff_metric m[4];
   double (*lg)[3];
   unsigned *ngeo;
   double seconds; /* the cases' time (JUnit) */
   bool *bl_used;  /* per baseline entry: it named a case */
   /* the optimizing compiles' coverage counts summed (a cover_dump; with
    * o.coverage), and how many cases carried counts */
   char *cover;
   unsigned compiles;
};

/* A case that compares fewer than this percentage of its values (compared,
 * undefined and unchecked) is flagged in the reports. */
#define DIFF_LOW_COMPARED_PCT 25
/* Whether case result r compared few of its values (some, or none at all). */
bool diff_case_low(const struct diff_case_result *r);

/* Reads a baseline (format in report.c); false with diagnostics if bad. */
bool diff_baseline_parse(const char *text, size_t len, const char *file, struct diff_baseline *b,
                         struct diag_list *d);
void diff_baseline_free(struct diff_baseline *b);
/* The status the baseline expects (DIFF_PASS if it lists the case not). */
enum diff_status diff_baseline_expect(const struct diff_baseline *b, const char *shader,
                                      const char *target);
/* The entry naming this case (the same text, or the same file), or NULL. */
const struct diff_baseline_entry *diff_baseline_match(const struct diff_baseline *b,
                                                      const char *shader, const char *target);
/* A baseline listing every case of c that failed or errored, with its first
 * failing signal; paths relative to directory dir (NULL: as given). It is
 * diff_baseline_head, an entry per such case (diff_baseline_yaml_entry:
 * false when case i gets none), and diff_baseline_empty if none did. */
char *diff_baseline_yaml(const struct diff_check *c, const char *dir);
extern const char diff_baseline_head[], diff_baseline_empty[];
bool diff_baseline_yaml_entry(struct strbuf *b, const struct diff_check *c, unsigned i,
                              const char *dir);
enum diff_outcome diff_case_outcome(const struct diff_check *c, unsigned i,
                                    const struct diff_baseline *b);
void diff_tally_init(struct diff_tally *t, const struct diff_check *c,
                     const struct diff_baseline *b);
void diff_tally_add(struct diff_tally *t, const struct diff_check *c, unsigned i,
                    const struct diff_baseline *b);
void diff_tally_fini(struct diff_tally *t);
/* Init, then every case of c added. */
void diff_tally_all(struct diff_tally *t, const struct diff_check *c,
                    const struct diff_baseline *b);
void diff_summarize(const struct diff_check *c, const struct diff_baseline *b,
                    struct diff_summary *s);
/* Reports as text (caller frees). b may be NULL. dir: the directory the
 * JSON report will be in, for its "dir" (the working directory relative to
 * it); NULL writes no "dir". */
char *diff_report_json(const struct diff_check *c, const struct diff_baseline *b, const char *dir);
/* The JSON report in pieces (diff_report_json is head, each case, tail):
 * the head sums the run from its tally; first: case i is the first one. */
char *diff_report_json_head(const struct diff_check *c, const struct diff_tally *t,
                            const char *dir);
void diff_report_json_case(struct strbuf *b, const struct diff_check *c, unsigned i,
                           const struct diff_baseline *bl, bool first);
extern const char diff_report_json_tail[];
/* path's canonical form, taken relative to directory dir (NULL: the
 * working directory); NULL when it does not resolve (a generated shader's
 * name, a file that is gone). Baselines and run comparisons match shaders
 * by it. Caller frees. */
char *diff_path_canonical(const char *dir, const char *path);
/* The directory a file is in, as written ("." for a bare name). Caller
 * frees. */
char *diff_path_dir(const char *file);
/* coverage.c: the coverage report of a run made with o.coverage, from its
 * tally, and its one-line summary (*summary, allocated). */
char *diff_report_coverage(const struct diff_check *c, const struct diff_tally *t, char **summary);
/* Adds the counts of cover_dump text add to the dump *sum (NULL: none). */
void diff_cover_sum(char **sum, const char *add);
char *diff_report_junit(const struct diff_check *c, const struct diff_baseline *b);
/* The JUnit report in pieces, as the JSON's. */
char *diff_report_junit_head(const struct diff_check *c, const struct diff_tally *t);
void diff_report_junit_case(struct strbuf *b, const struct diff_check *c, unsigned i,
                            const struct diff_baseline *bl);
extern const char diff_report_junit_tail[];
/* shader-db style totals, ref -> opt, over the cases with both programs
 * (of a run, or of its tally). */
char *diff_report_stats(const struct diff_check *c);
char *diff_report_stats_tally(const struct diff_check *c, const struct diff_tally *t);
/* One line per signal of case i: "fail a3xx captures/x.tgsi mismatch
 * ref/opt: ..." (no colour, no newline at the end of the last). A message
 * of more lines shows its first DIFF_MSG_LINES and counts the rest. */
#define DIFF_MSG_LINES 4
char *diff_case_lines(const struct diff_check *c, unsigned i);
/* "the sm50 back end: ..." when the case fails and its shader passes on
 * another target sharing opt's front end (see report.c); NULL otherwise. */
char *diff_case_locality(const struct diff_check *c, unsigned i);
/* Writes text to path through a temporary file and a rename, so readers
 * never see a partial file. */
bool diff_write_atomic(const char *path, const char *text, struct diag_list *d);
/* The same for head, the contents of spool file body (NULL: none) and
 * tail (NULL: none); _fd writes them to descriptor fd (standard output). */
bool diff_write_parts(const char *path, const char *head, FILE *body, const char *tail,
                      struct diag_list *d);
bool diff_write_parts_fd(int fd, const char *head, FILE *body, const char *tail);

/* detail.c, html.c: the HTML report (check --html DIR) */
/* Whether case result r can be rebuilt in this process: it neither
 * crashed nor timed out in its worker. */
bool diff_case_rebuildable(const struct diff_case_result *r);
enum { DIFF_TL_PRODUCER = 1, DIFF_TL_HAZARD = 2 };
/* One issued instruction of a hazard's wave. */
struct diff_timeline_row {
   uint64_t cycle;
   uint32_t pc, stall, active;
   uint8_t mark; /* DIFF_TL_*: the hazard's producer, the hazard's reader */
   char why[64]; /* what the issue waited for */
   char text[160];
};
/* A finished case rebuilt: its shader text, both programs' listings (one
 * "0xADDR  text" line per instruction) or why there is none, and for a
 * hazard the issues of its wave up to the first hazard and a few after. */
struct diff_case_detail {
   char *tgsi;
   char *ref, *opt; /* listing when *_ok, else why there is none */
   bool ref_ok, opt_ok;
   const char *tl_prog; /* "ref" or "opt": the program of the timeline, or NULL */
   char *tl_what;       /* the hazard, one line */
   uint32_t tl_pc, tl_producer;
   int32_t tl_early; /* cycles the read came before the value was ready */
   struct diff_timeline_row *rows;
   unsigned nrows, rows_cap;
};
/* Rebuilds case i of c (diff_case_rebuildable must hold, or the programs
 * are left out); never fails: what cannot be shown says why. */
void diff_case_detail(const struct diff_check *c, unsigned i, struct diff_case_detail *out);
void diff_case_detail_fini(struct diff_case_detail *d);
/* Whether case i gets a page of its own (it failed, errored or compared
 * nothing). */
bool diff_html_has_page(const struct diff_check *c, unsigned i);
/* The page's file name under the report directory ("cases/c0007.html"). */
char *diff_html_page_name(unsigned i);
/* The index: run facts, the summary table per target, every case with
 * status filters (CSS only), failing cases linked to their pages. */
char *diff_html_index(const struct diff_check *c, const struct diff_baseline *b);
/* The index in pieces: head (from the run's tally), a row per case (its
 * page numbered page_no: the case's place among the reported ones), tail. */
char *diff_html_index_head(const struct diff_check *c, const struct diff_tally *t);
void diff_html_index_row(struct strbuf *b, const struct diff_check *c, unsigned i, unsigned page_no,
                         const struct diff_baseline *bl);
extern const char diff_html_index_tail[];
/* The page of case i with its rebuilt details. */
char *diff_html_case(const struct diff_check *c, unsigned i, const struct diff_baseline *b,
                     const struct diff_case_detail *d);

/* repro.c */
struct diff_repro {
   char *shader; /* where the shader came from (informative) */
   char *text;   /* the shader text */
   char *target;
   char *opt_asm;                /* the program standing for opt's, or NULL */
   char *opt_cmd;                /* the external compiler standing for opt, or NULL */
   struct env *inputs;           /* explicit inputs (a reduced reproducer), or NULL */
   struct diff_check_opts o;     /* seed, invocations and the result-changing options */
   struct diff_case_result seen; /* status, signals and lane inputs as recorded */
};
/* The reproducer of case i of c, whose shader text is text (caller frees). */
char *diff_repro_yaml(const struct diff_check *c, unsigned i, const char *text);
bool diff_repro_parse(const char *text, size_t len, const char *file, struct diff_repro *r,
                      struct diag_list *d);
/* Reads and parses a reproducer file; a read error is a diagnostic too. */
bool diff_repro_load(const char *path, struct diff_repro *r, struct diag_list *d);
void diff_repro_free(struct diff_repro *r);
/* Makes c (initialised, with jobs and timeout set) the repro's one case;
 * an opt-asm program stands for the optimizing compiler again. */
bool diff_repro_setup(const struct diff_repro *r, struct diff_check *c, struct diag_list *d);
/* Whether today's generator gives the recorded lane inputs; if not, *why
 * (caller frees) says where they part. */
bool diff_repro_lanes_match(const struct diff_repro *r, const struct diff_check *c, char **why);
/* Same status and the same signals (kind and message, in order). */
bool diff_repro_same(const struct diff_case_result *want, const struct diff_case_result *got);

/* bisect.c */
/* A run of the reproducer's case judged against the reproducer: bad has
 * a signal of a kind the reproducer failed with; skip failed otherwise
 * (opt does not compile, a crash, a timeout, another failure); good passed. */
enum diff_bisect_verdict { DIFF_BISECT_GOOD, DIFF_BISECT_BAD, DIFF_BISECT_SKIP };
extern const char *const diff_bisect_verdict_names[3];

/* How a bisection ended. */
enum diff_bisect_outcome {
   DIFF_BISECT_FOUND,      /* one transformation: limit bad-1 good, limit bad bad */
   DIFF_BISECT_RANGE,      /* skipped limits hide which of good+1..bad it is */
   DIFF_BISECT_NO_FAILURE, /* the case does not fail as recorded: nothing to bisect */
   DIFF_BISECT_NOT_OPT,    /* it fails with no transformation at all (limit 0) */
   DIFF_BISECT_NO_GOOD,    /* limit 0 is a skip: no good end to search from */
   DIFF_BISECT_UNTESTABLE, /* opt-asm, or the compiler dies on the case itself */
};

/* Compiles for bisect: opt_compile's contract (log gets the pass
 * manager's text), true when a program was made. NULL: opt_compile. */
typedef bool (*diff_bisect_compile_fn)(void *ctx, const struct tgsi_shader *s,
                                       const struct isa_model *m, const struct opt_options *o,
                                       struct emu_program *out, char **log, struct diag_list *d);

struct diff_bisect_xform {
   char *pass;
   char *what;
};

/* One run of the case: at most `limit` transformations (< 0: all). */
struct diff_bisect_probe {
   long long limit;
   enum diff_bisect_verdict v;
   char *why; /* the case's first signal line, or "pass" */
};

/* A run of the stage search: the conservative stages (or items) it had. */
struct diff_bisect_stage_probe {
   char *label;
   enum diff_bisect_verdict v;
   char *why;
};

/* An item of a stage named: its name ("%25", "before-ra#3") and TGSI line. */
struct diff_bisect_item {
   char *name;
   unsigned line;
};

/* The search of the mandatory stages (issue 16), when the case fails with
 * no transformation: which stage's conservative variant makes it pass,
 * then which of its items. */
struct diff_bisect_stages {
   bool ran;
   int named;        /* the stage named (enum opt_stage), -1: none */
   bool combo;       /* it passes only with every later stage conservative too */
   bool exposed;     /* a transformation was named: it only exposes the stage's bug */
   bool own;         /* the named transformation's own pass is a mandatory stage: searched
                      * item by item with every transformation made (no other stage passed) */
   unsigned passing; /* stages whose conservative variant alone passes (bits) */
   struct diff_bisect_stage_probe *probes;
   unsigned nprobes, probes_cap;
   unsigned nitems;                /* the named stage's items */
   char *item;                     /* the items named ("A, B": several places), NULL: none */
   unsigned nneed;                 /* how many */
   struct diff_bisect_item *need;  /* each, in program order */
   unsigned item_line;             /* the first one's TGSI line, 0: none */
   bool item_alone;                /* their conservative treatment alone makes the case pass */
   char *notes;                    /* what the ordinary code did there (the stage's notes) */
   char *hazard;                   /* the first hazard of the ordinary program, told as the
                                    * wait it lacks ("hazard: (ss) missing before pc 6 ..."),
                                    * or NULL */
   char *code_before, *code_after; /* the programs without and with it conservative */
   char *why;                      /* why no stage or no item was named */
};

struct diff_bisect {
   /* in */
   bool hide_firings;         /* an injected fault fires uncounted (opt_options.hide_firings) */
   bool no_stages;            /* no stage search */
   unsigned jobs, timeout_ms; /* as the check's (0 jobs: in process) */
   diff_bisect_compile_fn compile;
   void *compile_ctx;
   /* count the injected faults' firings only (opt_options.bisect_firings);
    * also set when run falls back to it */
   bool firings;
   /* out */
   bool fell_back; /* limit 0 gave no good run counting every transformation */
   enum diff_bisect_outcome outcome;
   struct diff_bisect_xform *xforms; /* transformation N is xforms[N-1] */
   unsigned nxforms, xforms_cap;
   struct diff_bisect_probe *probes; /* in the order they ran */
   unsigned nprobes, probes_cap;
   long long good, bad;        /* the limits the search ended between */
   char *ir_before, *ir_after; /* the IR after the pass of transformation bad */
   /* the programs at limits good and bad: where the IR shows no change (a
    * transformation made while emitting), the listing does */
   char *code_before, *code_after;
   char *why; /* UNTESTABLE, NO_FAILURE: one line */
   struct diff_bisect_stages st;
   /* internal: the reproducer's target model, opened once for every run,
    * and the stages its optimizer has (opt_target_stages; 0: every one) */
   struct isa_model *model;
   unsigned stages;
   char *model_name;
};

void diff_bisect_init(struct diff_bisect *b);
void diff_bisect_fini(struct diff_bisect *b);
/* The case of r run once with at most limit transformations (< 0: all);
 * *lines (may be NULL; caller frees) gets its lines as the check prints
 * them. False (diagnostics in d) if r cannot be set up. */
bool diff_bisect_probe(const struct diff_repro *r, struct diff_bisect *b, long long limit,
                       enum diff_bisect_verdict *v, char **lines, struct diag_list *d);
/* Finds the pass, then the transformation that turns r's case bad (the
 * algorithm is in bisect.c); when limit 0 gives no good run and r injects
 * faults, again counting their firings only. False if r cannot be set up. */
bool diff_bisect_run(const struct diff_repro *r, struct diff_bisect *b, struct diag_list *d);

/* Back end or shared code: r's case replayed on the other built-in targets
 * whose optimizer shares opt's front end and IR passes
 * (opt_target_shares_ir). BACK_END: it passes on one of them; SHARED: it
 * fails there as recorded on at least one and passes on none; UNKNOWN:
 * neither (no such target ran it, opt-asm, opt-cmd, r's own target does
 * not share them or does not fail). */
/* Of SHARED, when the IR interpreter tells (where_ir.c): FRONT_END, the
 * front end's IR computes opt's wrong value; IR_PASSES, the IR after the
 * IR passes does and the front end's does not; SHARED_BACK_END, both
 * compute the right one. */
enum diff_where_verdict {
   DIFF_WHERE_UNKNOWN,
   DIFF_WHERE_BACK_END,
   DIFF_WHERE_SHARED,
   DIFF_WHERE_FRONT_END,
   DIFF_WHERE_IR_PASSES,
   DIFF_WHERE_SHARED_BACK_END,
   DIFF_WHERE_COUNT
};
/* "unknown", "back-end", "shared", "front-end", "ir-passes", "shared-back-end" */
extern const char *const diff_where_names[DIFF_WHERE_COUNT];
struct diff_where {
   enum diff_where_verdict verdict;
   char *passes, *fails; /* comma lists of those targets, or NULL */
   /* "the IR passes agree on sm50: the bug is in the a3xx back end", or
    * for SHARED what the targets share; NULL for UNKNOWN */
   char *text;
};
void diff_bisect_where(const struct diff_repro *r, const struct diff_bisect *b,
                       struct diff_where *w);
void diff_where_free(struct diff_where *w);
/* where_ir.c: which shared code the first differing output value of case
 * i of c (a run of shader s on inputs, NULL: generated from c's seed)
 * comes from: FRONT_END, IR_PASSES, SHARED_BACK_END with *why (caller
 * frees) giving the values, or SHARED when the IR interpreter cannot tell
 * (*why NULL). */
enum diff_where_verdict diff_where_ir(const struct env *inputs, const struct diff_check *c,
                                      const struct tgsi_shader *s, unsigned i, char **why);
/* The where: sentence of w for target ("the IR passes agree on sm50: the
 * bug is in the a3xx back end"; fails: how the others fail, "as recorded"
 * or ""; why: diff_where_ir's account or NULL), NULL for UNKNOWN; caller
 * frees. */
char *diff_where_sentence(const char *target, const struct diff_where *w, const char *fails,
                          const char *why);
/* The check's where for its case i, from the cases of the same shader on
 * the other targets sharing opt's front end and IR passes (and the IR
 * interpreter when they all fail); w->text NULL when nothing is said.
 * Free with diff_where_free. */
void diff_case_where(const struct diff_check *c, unsigned i, struct diff_where *w);
/* The result as JSON (bisect --json; README "Bisecting a miscompile"):
 * file is the reproducer's path, exit the command's exit status, w may
 * be NULL. */
char *diff_bisect_json(const char *file, const struct diff_repro *r, const struct diff_bisect *b,
                       const struct diff_where *w, int exit);

/* Tests only: a compile function that makes opt a different shader's
 * compiler from transformation `from` on (limits >= from, or no limit),
 * and fails to compile for limits in [skip_lo, skip_hi] (skip_hi 0: none);
 * crash_at: that limit dies on SIGSEGV (0: none). */
struct diff_bisect_swap {
   long long from, skip_lo, skip_hi, crash_at;
   const struct tgsi_shader *other;
   bool skip_all_counted; /* the skips only when every transformation counts */
};
/* What the later of two instructions must wait on before it, by the
 * emulator event kind (enum emu_event_kind: RAW/SYNC read, WAR, WAW)
 * between them: "(ss)", "(sy)", "a scoreboard wait", a counter's name, or
 * "a wait" (isa_delay, the one latency function). */
const char *diff_needed_sync(const struct isa_model *m, const struct isa_insn *p,
                             const struct isa_insn *c, int kind);
bool diff_bisect_swap_compile(void *swap, const struct tgsi_shader *s, const struct isa_model *m,
                              const struct opt_options *o, struct emu_program *out, char **log,
                              struct diag_list *d);

/* runcmp.c: run against run (diffcomp report OLD.json NEW.json) */
enum diff_stat {
   DIFF_STAT_INSTRUCTIONS,
   DIFF_STAT_NOPS,
   DIFF_STAT_REGISTERS,
   DIFF_STAT_CYCLES,
   DIFF_STAT_EMULATED,
   DIFF_STAT_COUNT
};
extern const char *const diff_stat_names[DIFF_STAT_COUNT]; /* as in the JSON */
struct diff_run_case {
   char *shader, *target;
   char *key; /* the shader's canonical path (diff_path_canonical) or, when it
               * does not resolve, its name as written: what pairs cases */
   enum diff_status status;
   bool has_stats;
   long long stats[DIFF_STAT_COUNT];
};
struct diff_run {
   struct diff_run_case *cases;
   size_t ncases;
   char *version; /* the summary's "version" ("diffcomp --version"), or NULL */
   char *models;  /* its "models": "a3xx DIGEST, sm50 DIGEST", or NULL */
   char *dir;     /* the run's working directory: its "dir" taken from the
                   * report's directory, or NULL */
};
/* Per target: totals over the cases that pass in both runs. */
struct diff_runcmp_target {
   const char *name;
   unsigned paired;
   long long old_total[DIFF_STAT_COUNT], new_total[DIFF_STAT_COUNT];
   unsigned helped[DIFF_STAT_COUNT], hurt[DIFF_STAT_COUNT];
};
enum diff_runcmp_kind {
   DIFF_RUNCMP_STATS,       /* passes in both; instruction count changed */
   DIFF_RUNCMP_NEW_FAILURE, /* passed (or skip, n/a), now fails or errors */
   DIFF_RUNCMP_FIXED,       /* failed or errored, now does not */
   DIFF_RUNCMP_NEW_NA,      /* now n/a */
   DIFF_RUNCMP_ADDED,       /* only in the new run */
   DIFF_RUNCMP_GONE,        /* only in the old run */
};
struct diff_runcmp_change {
   enum diff_runcmp_kind kind;
   const char *shader, *target;             /* point into the runs */
   enum diff_status old_status, new_status; /* DIFF_STATUS_COUNT: absent */
   long long old_stats[DIFF_STAT_COUNT], new_stats[DIFF_STAT_COUNT];
};
struct diff_runcmp {
   struct diff_runcmp_target *targets; /* in name order */
   size_t ntargets;
   struct diff_runcmp_change *changes;
   size_t nchanges;
};
/* Loads a `check --json` report; path_key is "opt" or "ref", the program
 * whose statistics are read. */
bool diff_run_load(const char *file, const char *path_key, struct diff_run *run,
                   struct diag_list *d);
void diff_run_free(struct diff_run *run);
/* Sorts both runs' cases and pairs them; r points into both runs. */
void diff_runcmp(struct diff_run *old, struct diff_run *new, struct diff_runcmp *r);
void diff_runcmp_free(struct diff_runcmp *r);

/* ydoc.c: YAML for the check's own files (reproducers, baselines) */
struct ydoc_writer;
struct ydoc;
struct ydoc_writer *ydoc_writer_new(void);
/* No folding of long lines (a flow mapping stays on one line). */
void ydoc_writer_one_line(struct ydoc_writer *w);
void ydoc_map(struct ydoc_writer *w, bool begin, bool flow);
void ydoc_seq(struct ydoc_writer *w, bool begin, bool flow);
void ydoc_str(struct ydoc_writer *w, const char *s);
void ydoc_qstr(struct ydoc_writer *w, const char *s);
void ydoc_literal(struct ydoc_writer *w, const char *s);
void ydoc_strf(struct ydoc_writer *w, const char *fmt, ...) DC_PRINTF(2, 3);
void ydoc_kv(struct ydoc_writer *w, const char *key, const char *value);
/* The text (caller frees), or NULL if the emitter failed. Frees w. */
char *ydoc_writer_finish(struct ydoc_writer *w);
struct ydoc *ydoc_load(const char *text, size_t len, const char *file, struct diag_list *d);
void ydoc_free(struct ydoc *y);
int ydoc_root(struct ydoc *y);
void ydoc_error(struct ydoc *y, int node, struct diag_list *d, const char *fmt, ...)
    DC_PRINTF(4, 5);
bool ydoc_is_map(struct ydoc *y, int node);
const char *ydoc_scalar(struct ydoc *y, int node);
int ydoc_get(struct ydoc *y, int map, const char *key);
unsigned ydoc_len(struct ydoc *y, int node);
int ydoc_item(struct ydoc *y, int seq, unsigned i);
void ydoc_pair(struct ydoc *y, int map, unsigned i, int *key, int *value);
bool ydoc_u64(struct ydoc *y, int node, uint64_t *out);
bool ydoc_bool(struct ydoc *y, int node, bool *out);

/* ------------------------------------------------------------------ */
/* gen.c                                                                */

/* What to generate. Any field may be left 0. */
struct diff_gen_opts {
   /* FRAG, VERT, COMP or GEOM; TGSI_STAGE_COUNT (or any other stage) lets
    * the seed choose among the four. */
   enum tgsi_stage stage;
   /* About this many instructions in the body; 0 = DIFF_GEN_DEFAULT_SIZE. */
   unsigned size;
   /* Opcodes the consumer accepts (e.g. the interpreter's): the random
    * body never uses one this refuses. The fixed scaffolding always uses
    * MOV MAD MUL ADD MIN MAX I2F U2F UMAD SHL AND LOAD STORE END (and,
    * for each construct it emits, that construct's opcodes). NULL = the
    * default filter (diff_gen_default_supports). */
   bool (*supports)(enum tgsi_opcode op);
   /* The sink and edge shapes after the epilogue (gen_shape.c); off by
    * default: a seed's shader is then the same as without them. */
   bool sink;
};

#define DIFF_GEN_DEFAULT_SIZE 60
#define DIFF_GEN_MAX_SIZE     1000000

/* Generates a random valid TGSI shader from seed: the same seed and
 * options give the same text on every machine. Returns the text (caller
 * frees). If parsed is not NULL it receives the parsed shader. Returns NULL
 * only if the text fails to parse -- a generator bug; the parser's messages
 * are in d (may be NULL). */
char *diff_gen(uint64_t seed, const struct diff_gen_opts *opts, struct tgsi_shader **parsed,
               struct diag_list *d);
/* The same, with the generator's choices read from data first (a fuzzer's
 * bytes), then from a generator seeded by a hash of data. Small changes
 * to data make small changes to the shader. */
char *diff_gen_bytes(const uint8_t *data, size_t len, const struct diff_gen_opts *opts,
                     struct tgsi_shader **parsed, struct diag_list *d);
/* The opcodes the generator uses when opts->supports is NULL: those the
 * golden interpreter runs (tgsi_interp_supports). */
bool diff_gen_default_supports(enum tgsi_opcode op);
/* "frag", "vert", "comp" -> stage; false for anything else. */
bool diff_gen_stage_from_name(const char *name, enum tgsi_stage *out);

/* variant.c */
/* A semantics-preserving variant of s from seed (dead code under an
 * opaque false condition, identity wrappers, split vectors, one-iteration
 * loops, commuted operands) as TGSI text; caller frees. */
char *diff_variant(const struct tgsi_shader *s, uint64_t seed);

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

/* A reproducer's case reduced (reduce_repro.c). */
struct diff_repro_reduce {
   /* in */
   struct diff_reduce_opts o; /* budgets, skip_*, progress (the predicate is set here) */
   unsigned jobs, timeout_ms; /* as the check's (0 jobs: in process) */
   bool same_step;            /* the failing step must match too, not only the kind */
   const char *inject;        /* DIFFCOMP_CHECK_INJECT (tests only), or NULL */
   /* out */
   enum diff_status original; /* the case as first run */
   bool kept;                 /* it failed: kind (and step) is the failure kept */
   enum diff_signal_kind kind;
   char *step; /* with same_step */
   char *yaml; /* OK: the reduced reproducer, inputs included */
   struct diff_reduce_stats stats;
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

/* reduce_repro.c */
/* Shrinks r's shader and inputs while its case keeps failing the same
 * way. NOT_FAILING: the first run did not fail (kept false) or a flaky
 * failure went away; BAD_INPUT: r cannot be set up (diagnostics in d). */
enum diff_reduce_status diff_reduce_repro(const struct diff_repro *r, struct diff_repro_reduce *rr,
                                          struct diag_list *d);
void diff_repro_reduce_fini(struct diff_repro_reduce *rr);

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
/* Keeps only the lanes of one unit (workgroup, quad or lane) holding a
 * lane known to fail (the first unit when none is known), if that still
 * fails: every later run is cheaper. */
bool diff_reduce_failing_unit(struct diff_reducer *r);

/* latency.c: the cycle model, measured (diffcomp bench latency). One row
 * per microbenchmark of the model (and per figure without one): the
 * latency the emulator shows (`measured`), what isa_delay() or the
 * model's parameters say (`model`), the public figure of hazard.figures
 * and its source. ok when the three are equal and the runs were
 * consistent; else `why` says what differs. -1: not known. */
struct diff_latency {
   const char *name, *what, *unit, *source; /* point into the table or the model */
   int measured, model, figure;
   int lo, hi;           /* waits: the shortest and longest link */
   int want_lo, want_hi; /* interlocked waits: the range the model's soft latency gives */
   bool ok;
   char *why;
};
/* Runs every microbenchmark of m's ISA (by its name). false when a
 * program does not assemble, load or run (diagnostics in d); the rows so
 * far are returned either way. */
bool diff_latency_run(const struct isa_model *m, struct diff_latency **rows, unsigned *n,
                      struct diag_list *d);
void diff_latency_free(struct diff_latency *rows, unsigned n);

#endif
