/*
 * TGSI, Mesa's text shader IR: the parsed form, the parser, the printer and
 * the golden interpreter.
 *
 * A parsed shader keeps what the text said, in the text's terms (files,
 * indices, swizzles, write masks), plus what the parser derived from it:
 * the matching control-flow instruction of every IF/ELSE/loop/switch and
 * the BGNSUB of every CAL, and the source position of every item.
 */
#ifndef DC_TGSI_H
#define DC_TGSI_H

#include "util/shader_enums.h"
#include "util/util.h"

/* ------------------------------------------------------------------ */
/* Opcodes                                                              */

enum tgsi_op_flags {
   TGSI_OPF_TEX = 1 << 0,    /* takes a trailing texture target, may take offsets */
   TGSI_OPF_LABEL = 1 << 1,  /* may take a trailing ":N" label */
   TGSI_OPF_MEM = 1 << 2,    /* may take memory qualifiers, a target and a format */
   TGSI_OPF_REPL = 1 << 3,   /* one scalar from the .x of the sources, replicated */
   TGSI_OPF_CHAN = 1 << 4,   /* a formula per destination channel */
   TGSI_OPF_OTHR = 1 << 5,   /* texture, memory and other special results */
   TGSI_OPF_LEGACY = 1 << 6, /* removed from Mesa; legacy dialect only */
};

/* How sources are fetched: decides the meaning of '-' and '|x|'. */
enum tgsi_type {
   TGSI_TYPE_N, /* no sources */
   TGSI_TYPE_F,
   TGSI_TYPE_I,
   TGSI_TYPE_U,
   TGSI_TYPE_D,
   TGSI_TYPE_I64,
   TGSI_TYPE_U64,
};

#define OP(name, nd, ns, fl, ty) TGSI_OP_##name,
enum tgsi_opcode {
#include "compiler/tgsi/tgsi_ops.h"
   TGSI_OP_COUNT
};
#undef OP

struct tgsi_op_info {
   const char *name;
   uint8_t ndst, nsrc;
   uint8_t flags; /* enum tgsi_op_flags */
   uint8_t type;  /* enum tgsi_type */
};

/* ------------------------------------------------------------------ */
/* The parsed shader                                                    */

#define TGSI_MAX_SRC     5
#define TGSI_MAX_OFFSETS 4
#define TGSI_FORMAT_LEN  48

enum { TGSI_SWZ_X, TGSI_SWZ_Y, TGSI_SWZ_Z, TGSI_SWZ_W };
#define TGSI_MASK_XYZW 0xf

struct tgsi_loc {
   int line, col; /* from 1 */
};

/* The address register of an indirect reference: FILE[index].comp */
struct tgsi_ind {
   enum tgsi_file file;
   uint32_t index;
   uint8_t comp;
};

/* A register reference: FILE[dim][index]. With an indirect, the literal in
 * the bracket is the offset added to the address ("ADDR[0].x+3" -> 3). */
struct tgsi_reg {
   enum tgsi_file file;
   int32_t index;
   bool indirect;
   struct tgsi_ind ind;
   bool has_dim; /* two brackets: constant buffer or vertex */
   int32_t dim;
   bool dim_indirect;
   struct tgsi_ind dim_ind;
   uint16_t array_id;   /* "(n)" after the bracket; 0 = none */
   struct tgsi_loc loc; /* where the reference starts; 0:0 if built, not parsed */
};

struct tgsi_dst {
   struct tgsi_reg reg;
   uint8_t mask; /* bit i = channel i written */
};

struct tgsi_src {
   struct tgsi_reg reg;
   uint8_t swz[4];
   bool neg, abs;
};

struct tgsi_texoff {
   struct tgsi_reg reg;
   uint8_t swz[3];
};

struct tgsi_insn {
   enum tgsi_opcode op;
   bool sat, precise;
   struct tgsi_dst dst[1];
   struct tgsi_src src[TGSI_MAX_SRC];
   uint8_t ndst, nsrc;
   /* texture opcodes */
   enum tgsi_texture tex_target;
   uint8_t noffsets;
   struct tgsi_texoff offsets[TGSI_MAX_OFFSETS];
   /* memory opcodes: qualifier bits, optional target and format */
   uint8_t mem_qual;
   bool has_mem_target;
   enum tgsi_texture mem_target;
   char mem_format[TGSI_FORMAT_LEN]; /* "" = none */
   /* ":N" as written (IF/UIF/ELSE/BGNLOOP/ENDLOOP/CAL); meaningful only for CAL */
   bool has_label;
   uint32_t label;
   /* Derived by the parser from the nesting: IF/UIF -> its ELSE or ENDIF,
    * ELSE -> ENDIF, BGNLOOP <-> ENDLOOP, SWITCH -> ENDSWITCH,
    * CAL -> BGNSUB. -1 where none applies. */
   int32_t target;
   struct tgsi_loc loc;
};

struct tgsi_decl {
   enum tgsi_file file;
   uint32_t first, last;
   bool has_dim;       /* 2-D: "CONST[1][0..3]"; for per-vertex files the vertex bracket */
   uint32_t dim;       /* per-vertex "[]": the implied size (GS input vertices, 32 for tess) */
   uint8_t usage_mask; /* default 0xf */
   uint16_t array_id;  /* ARRAY(n); 0 = none */
   bool local;
   bool has_semantic;
   enum tgsi_semantic semantic;
   uint32_t semantic_index;
   bool has_stream;
   uint8_t stream[4];
   bool has_interp;
   enum tgsi_interp interp;
   bool has_location;
   enum tgsi_location location;
   bool invariant;
   /* SVIEW */
   enum tgsi_texture target; /* also IMAGE */
   enum tgsi_return_type ret[4];
   /* IMAGE */
   bool raw, writable;
   char format[TGSI_FORMAT_LEN];
   /* BUFFER */
   bool atomic;
   /* MEMORY */
   bool has_mem_type;
   enum tgsi_memory_type mem_type;
   struct tgsi_loc loc;
};

struct tgsi_imm {
   enum tgsi_imm_type type;
   uint32_t u[4]; /* 64-bit types: two values, low word first */
   struct tgsi_loc loc;
};

struct tgsi_prop {
   enum tgsi_property prop;
   uint32_t value;
   struct tgsi_loc loc;
};

struct tgsi_shader {
   enum tgsi_stage stage;
   char *name; /* file name for messages */
   struct tgsi_prop *props;
   unsigned nprops, props_cap;
   struct tgsi_decl *decls;
   unsigned ndecls, decls_cap;
   struct tgsi_imm *imms;
   unsigned nimms, imms_cap;
   struct tgsi_insn *insns;
   unsigned ninsns, insns_cap;
};

/* Parser dialect switches. The default (all false) is current Mesa. */
struct tgsi_parse_opts {
   bool hex_bits; /* FLT32 "0x3f800000" is a bit pattern (virgl, Mesa <= 21) */
   bool legacy;   /* accept removed opcodes and older forms (ABS, SUB, RES, ...) */
   /* The file has a "# dialect:" line (tgsi_read_dialect): it says which
    * dialect it is in, so the legacy dialect is not detected. */
   bool dialect_line;
   bool no_detect; /* never detect the legacy dialect */
};

/* tgsi_info.c */
extern const struct tgsi_op_info tgsi_op_info[TGSI_OP_COUNT];
/* Case-insensitive lookup of name (len bytes) in a table; -1 if absent. */
int tgsi_lookup(const char *const *table, unsigned count, const char *name, size_t len);
/* The shader header at p (before end): a stage name, or one of Mesa's
 * first headers, which carried TGSI version 1.1 ("FRAG1.1", and "FRAG 1.1"
 * in the 2007 dumps; FRAG, VERT and GEOM only). Returns its length and sets
 * *stage and *versioned; 0 if p holds no header word. */
size_t tgsi_header_at(const char *p, const char *end, enum tgsi_stage *stage, bool *versioned);
/* The opcode that w (n bytes, any case) names under an older name
 * (KILP, BGNLOOP2, ENDLOOP2), and *what says which; -1 if none. */
int tgsi_renamed_op(const char *w, size_t n, const char **what);
/* The opcode named by w (n bytes, any case; legacy opcodes too); -1. */
int tgsi_op_lookup(const char *w, size_t n);
/* Whether w (n bytes) ends with suffix (upper case) in any case, after at
 * least one other byte. */
bool tgsi_ends_with(const char *w, size_t n, const char *suffix);
/* The opcode an instruction word names: OP, OP_SAT, OP_PRECISE or
 * OP_SAT_PRECISE (a whole name wins over a suffixed shorter one); -1 if
 * none. *sat and *precise say which suffixes it carries. */
int tgsi_op_lookup_word(const char *w, size_t n, bool *sat, bool *precise);

/* The operand shapes of the 64-bit opcodes (doubles and 64-bit integers),
 * a value in pairs of 32-bit channels: the interpreter and the LLVM IR
 * translator both take an opcode apart by it. */
enum tgsi_wide_kind {
   TGSI_WIDE_UNARY,   /* 64 -> 64 per pair */
   TGSI_WIDE_BINARY,  /* 64 x 64 -> 64 */
   TGSI_WIDE_TERNARY, /* 64 x 64 x 64 -> 64 */
   TGSI_WIDE_CMP,     /* 64 x 64 -> 32-bit bool */
   TGSI_WIDE_SHIFT,   /* 64 x 32 -> 64 */
   TGSI_WIDE_FROM32,  /* 32 -> 64 */
   TGSI_WIDE_TO32,    /* 64 -> 32 */
};
int tgsi_wide_kind(enum tgsi_opcode op); /* -1: not a 64-bit opcode */
struct tgsi_shader *tgsi_shader_new(enum tgsi_stage stage, const char *name);
void tgsi_shader_free(struct tgsi_shader *s);
struct tgsi_shader *tgsi_shader_clone(const struct tgsi_shader *s);
const struct tgsi_decl *tgsi_find_decl(const struct tgsi_shader *s, enum tgsi_file file,
                                       uint32_t index);
/* The target each texture unit below n is sampled with: its SVIEW
 * declaration's, else the first texture instruction's on SAMP[unit];
 * -1 for a unit that has neither. */
void tgsi_texture_targets(const struct tgsi_shader *s, int *target, unsigned n);
/* FBFETCH dst, OUT[i] reads the colour the pixel held before the draw.
 * The run model hands that colour to the shader as a per-lane input it
 * does not declare: IN[tgsi_fbfetch_input(s, i)], numbered after every
 * input register the shader names. tgsi_input_count counts the input
 * registers with those (the interpreter, the inputs, both compilers). */
uint32_t tgsi_fbfetch_input(const struct tgsi_shader *s, uint32_t out);
uint32_t tgsi_input_count(const struct tgsi_shader *s);
/* OUT registers: one past the highest declared. */
uint32_t tgsi_output_count(const struct tgsi_shader *s);

/* Sets the options a "# dialect: legacy hex-bits" header line names. */
void tgsi_read_dialect(const char *text, size_t len, struct tgsi_parse_opts *opts);
/* Reads and parses a file: base options plus the file's own dialect line. */
struct tgsi_shader *tgsi_parse_file(const char *path, const struct tgsi_parse_opts *base,
                                    struct diag_list *diags);

/* tgsi_parse.c */
/* Parses one shader. text must be NUL-terminated (len excludes the NUL).
 * Returns NULL on error; diagnostics (errors and warnings) go to diags
 * (may be NULL). Runs tgsi_sanity_check, so insn->target is filled. */
struct tgsi_shader *tgsi_parse(const char *text, size_t len, const char *filename,
                               const struct tgsi_parse_opts *opts, struct diag_list *diags);
/* Vertex count of a per-vertex array implied by the stage and properties
 * (GS: GS_INPUT_PRIMITIVE, tessellation: 32); 0 if unknown. */
unsigned tgsi_implied_vertices(const struct tgsi_shader *s);
/* Whether DCL file[][n] has a vertex dimension in this stage (GS/TES
 * inputs, TCS inputs and outputs), whatever its semantic. */
bool tgsi_file_has_vertex_dim(enum tgsi_stage stage, enum tgsi_file file);

/* tgsi_split.c */
/* One shader of a text that may hold several (a debug log): bytes
 * [begin, end), its header line at byte `header`, line `line` (1-based);
 * it starts at 0-based line first_line (a legacy PROPERTY before the
 * header, else the header). */
struct tgsi_unit {
   size_t begin, end, header;
   unsigned line, first_line;
};
/* Finds the shaders in text (*units, caller frees; 0 and NULL when there
 * is no header, TGSI comes before the first one or the text holds a NUL
 * byte: the parser then says what is wrong) and counts in *left_out the lines outside every shader
 * that are not TGSI: banners, log text. Each block of them gets a note. */
unsigned tgsi_split(const char *text, size_t len, const char *file, struct tgsi_unit **units,
                    unsigned *left_out, struct diag_list *d);
/* A copy of text (NUL-terminated, len bytes) in which everything outside
 * units[k], but the line breaks and the comment lines before the first
 * shader, is blanked: it parses as that shader alone, at its lines. */
char *tgsi_unit_text(const char *text, size_t len, const struct tgsi_unit *units, unsigned k);

/* tgsi_sanity.c */
/* Mesa's sanity rules (declared-before-use, one END, immediate types,
 * operand counts, unused registers as warnings) plus structured control
 * flow; fills insn->target. text (may be NULL) gives source lines to the
 * messages. Returns false if an error was added. */
bool tgsi_sanity_check(struct tgsi_shader *s, const char *text, size_t len,
                       struct diag_list *diags);

/* tgsi_print.c */
/* Canonical text: parse(print(x)) is structurally equal to x. Caller frees. */
char *tgsi_print(const struct tgsi_shader *s);
char *tgsi_print_insn(const struct tgsi_shader *s, const struct tgsi_insn *in);
/* Structural equality; ignores source positions and the shader name. */
bool tgsi_shader_equal(const struct tgsi_shader *a, const struct tgsi_shader *b);
bool tgsi_insn_equal(const struct tgsi_insn *a, const struct tgsi_insn *b);
bool tgsi_decl_equal(const struct tgsi_decl *a, const struct tgsi_decl *b);
/* Names of the values a property kind takes (NULL for TGSI_PROPK_UINT). */
const char *const *tgsi_prop_value_names(enum tgsi_prop_kind kind, unsigned *count);

/* tgsi_modern.c */
/* The canonical text with each removed opcode rewritten into today's
 * opcodes, computing the same values bit for bit. Caller frees. */
char *tgsi_print_modern(const struct tgsi_shader *s);

/* ------------------------------------------------------------------ */
/* The golden interpreter                                               */

struct env;

#define TGSI_INTERP_STATUSES(X)                                                                    \
   X(OK, "ok")                                                                                     \
   X(UNSUPPORTED, "shader uses something the interpreter refuses")                                 \
   X(INVALID, "malformed shader")                                                                  \
   X(ENV, "the environment does not provide what the shader reads")                                \
   X(BUDGET, "step budget exhausted")
#define TGSI_ENUM_(n, d) TGSI_INTERP_##n,
enum tgsi_interp_status { TGSI_INTERP_STATUSES(TGSI_ENUM_) TGSI_INTERP_STATUS_COUNT };
#undef TGSI_ENUM_

/* Default budget (tgsi_interp_default_steps): each lane may execute
 * TGSI_INTERP_STEPS_PER_INSN times the shader's instruction count, at least
 * TGSI_INTERP_MIN_LANE_STEPS, and the whole run at most
 * TGSI_INTERP_MAX_DEFAULT_STEPS. Over the captures and thousands of
 * generated shaders no lane executes more than ~40x the instruction count,
 * so the margin is 100x, while a runaway loop on 1024 lanes stops after
 * well under a second instead of the 2^32 lane-instructions it once took. */
#define TGSI_INTERP_STEPS_PER_INSN    4096u
#define TGSI_INTERP_MIN_LANE_STEPS    65536u
#define TGSI_INTERP_MAX_DEFAULT_STEPS (1ull << 32)

struct tgsi_interp_opts {
   /* Budget in lane-instructions (instructions executed x lanes of the
    * batch). Enforced per batch in proportion to its lanes, so a runaway
    * loop stops in the first batch. 0 = tgsi_interp_default_steps(). */
   uint64_t max_steps;
   /* Lanes per batch (rounded to a multiple of 32, or of the workgroup
    * size for compute); 0 = default (256). Results never depend on it. */
   uint32_t batch;
   /* If set, receives the lane-instructions executed. */
   uint64_t *steps_out;
   /* Also bound per value how far a program that fuses multiply-adds may
    * be from one that does not (tgsi_interp_bound.c; env.out_err). The
    * bound of SIN and COS in revolutions is kept in any case where the
    * program has them. */
   bool fuse_bounds;
   /* The optimizing compiler may apply the inexact algebraic rewrites
    * (check --opt inexact: x * 0 -> 0, x + -x -> 0 remove a NaN). With
    * this or fuse_bounds, what a branch, KILL_IF or switch decides on a
    * value those freedoms may change is marked as such (tgsi_interp_cf.c:
    * the steer taint). */
   bool inexact;
};

/* Interpreter internals shared by the tgsi_interp*.c files. */

/* A source operand resolved once per run. Direct operands name a slot (a
 * register channel: an array of per-lane values) per destination channel
 * after the swizzle; indirect ones are gathered per lane. */
struct tgsi_interp_src {
   enum tgsi_file file;
   int32_t index; /* register index, or the offset added to the address */
   uint8_t swz[4];
   uint8_t type; /* enum tgsi_type: decides '-' */
   bool neg, abs;
   bool indirect, dim_indirect;
   int32_t dim;           /* vertex or constant buffer */
   uint32_t addr_slot;    /* slot of the address component */
   uint32_t dimaddr_slot; /* slot of the dimension address component */
   uint32_t slot[4];      /* direct: slot per destination channel */
   /* indirect TEMP: the registers the access may reach (its ARRAY(n)'s,
    * else the whole file); an index outside them is undefined */
   uint32_t arr_first, arr_count;
};

struct tgsi_interp_dst {
   enum tgsi_file file;
   int32_t index;
   uint8_t mask;
   bool indirect, dim_indirect;
   int32_t dim;
   uint32_t addr_slot, dimaddr_slot;
   uint32_t slot[4];              /* direct: slot per channel; UINT32_MAX = discard */
   uint32_t arr_first, arr_count; /* as tgsi_interp_src's */
};

/* What a structured region (IF..ENDIF, loop, switch, subroutine, main)
 * writes, so that lanes whose path through it was decided by an undefined
 * value get everything it may write marked undefined at its end. */
enum tgsi_interp_region_flag {
   TGSI_INTERP_RF_BRK = 1 << 0,    /* a BRK that leaves the region */
   TGSI_INTERP_RF_CONT = 1 << 1,   /* a CONT that leaves the region */
   TGSI_INTERP_RF_RET = 1 << 2,    /* a RET (returns from the function) */
   TGSI_INTERP_RF_KILL = 1 << 3,   /* KILL, KILL_IF, KIL, DEMOTE */
   TGSI_INTERP_RF_EMIT = 1 << 4,   /* EMIT or ENDPRIM */
   TGSI_INTERP_RF_SHARED = 1 << 5, /* stores or atomics to shared memory */
};

struct tgsi_interp_region {
   uint32_t *slots; /* sorted slot ids */
   unsigned nslots;
   uint32_t flags;
   uint32_t bufs, imgs; /* stored buffers and images (bit per index) */
};

struct tgsi_interp_insn {
   const struct tgsi_insn *in;
   enum tgsi_opcode op;
   uint8_t nsrc;
   struct tgsi_interp_src src[TGSI_MAX_SRC];
   struct tgsi_interp_dst dst;
   struct tgsi_interp_src texoff; /* first texel offset, if any */
   bool has_texoff;
   int32_t jump;   /* IF/UIF -> ELSE or ENDIF; ELSE -> ENDIF; BGNLOOP <-> ENDLOOP;
                    * SWITCH -> ENDSWITCH; CAL -> BGNSUB */
   int32_t region; /* region opened by IF/UIF/BGNLOOP/SWITCH/BGNSUB, else -1 */
   int32_t *cases; /* SWITCH: its CASE instructions, -1 terminated */
};

/* A prepared shader: everything the batches share. */
struct tgsi_interp_prog {
   const struct tgsi_shader *s;
   struct tgsi_interp_insn *insns;
   unsigned ninsns;
   struct tgsi_interp_region *regions;
   unsigned nregions;
   int32_t main_region;
   /* Slots: [file_base[f], file_base[f] + 4 * file_count[f]) per file;
    * CONST slots are the directly read (buffer, index) pairs. */
   uint32_t file_base[TGSI_FILE_COUNT];
   uint32_t file_count[TGSI_FILE_COUNT];
   uint32_t nslots;
   uint32_t nstore;      /* slots below this live in batch storage */
   uint32_t *const_key;  /* CONST register r: buffer << 16 | index */
   uint8_t *const_chans; /* CONST register r: the channels a swizzle reads */
   int32_t sv_sem[256];  /* SV[i] -> semantic */
   uint32_t in_vertices, nin, nout, out_vertices;
   uint32_t nresults; /* max slots written per instruction */
   uint32_t gs_max_vertices;
   enum tgsi_texture sview_target[32];
   enum tgsi_return_type sview_ret[32];
   bool uses_shared;
};

/* Control-flow frames of a batch. Masks are arrays of n words, 0 or ~0. */
#define TGSI_INTERP_MAX_DEPTH 64
enum {
   TGSI_INTERP_FM_COND,
   TGSI_INTERP_FM_LOOP,
   TGSI_INTERP_FM_CONT,
   TGSI_INTERP_FM_SW,
   TGSI_INTERP_FM_FUNC,
   TGSI_INTERP_FM_TAINT, /* lanes whose path through the region is undefined */
   TGSI_INTERP_FM_STEER, /* lanes whose path an allowed transform may change */
   TGSI_INTERP_FM_AUX,   /* switch: lanes active at SWITCH */
   TGSI_INTERP_FM_AUX2,  /* switch: lanes some CASE matches */
   TGSI_INTERP_FM_SEL,   /* switch: selector */
   TGSI_INTERP_FM_COUNT
};

struct tgsi_interp_frame {
   enum tgsi_opcode op; /* IF (also UIF), BGNLOOP, SWITCH or CAL */
   int32_t pc;          /* the opening instruction; CAL: the return address */
   int32_t region;
   bool tainted, steered; /* FM_TAINT, FM_STEER hold lanes */
   uint32_t *m[TGSI_INTERP_FM_COUNT];
};

struct tgsi_interp_memtrack; /* race tracking, tgsi_interp_res.c */
struct env_mem;

/* One batch of lanes [base, base + n) in flight. */
struct tgsi_interp_batch {
   const struct tgsi_interp_prog *p;
   struct env *env;
   struct diag_list *diags;
   uint32_t base, n;
   uint32_t draw; /* the draw of every lane of the batch; UINT32_MAX: several */
   /* runs of lanes of one draw: run k is lanes [draw_start[k], draw_start[k + 1]);
    * they and draw are found on first use (ndraw_runs 0 until then) */
   uint32_t *draw_start, ndraw_runs;
   uint32_t **val, **flg;       /* per slot: n values and n enum env_flag words */
   uint32_t *store_v, *store_f; /* storage: 2 * nstore lane arrays, stride apart */
   uint32_t **own_v, **own_f;   /* per TEMP/OUT/ADDR slot: its own storage */
   uint32_t stride;
   uint32_t *zero;
   uint32_t *cond, *loop, *cont, *sw, *func, *alive, *demoted, *exec;
   uint32_t *main_taint, *main_steer;
   bool exec_dirty, any_exec, all_exec; /* all_exec: every lane of exec ~0u */
   unsigned depth;
   unsigned nframes; /* frames[0, nframes) have their masks (push_frame) */
   uint32_t *res_v[4], *res_f[4];
   uint32_t *tmp_v[TGSI_MAX_SRC][4], *tmp_f[TGSI_MAX_SRC][4];
   uint32_t *scratch[8];
   uint32_t *sg_first, *sg_end; /* subgroup of each lane: [first, end) */
   uint32_t *gs_prim;           /* per lane: primitives ended */
   bool sg_ready;               /* sg_first, sg_end computed (tgsi_interp_subgroups) */
   uint64_t steps, limit;
   uint64_t *epoch;
   struct tgsi_interp_memtrack *mt;
   struct env_mem *shared; /* one per workgroup of the batch */
   uint32_t nshared, wg_lanes, cap;
   bool failed;
   bool bounds;     /* fuse_bounds, or SIN/COS/SCS in the program */
   bool bound_fuse; /* tgsi_interp_opts.fuse_bounds */
   bool zsign_open; /* tgsi_interp_opts.inexact: zero sums and products */
   /* The steer taint (tgsi_interp_cf.c): a condition with a flag of
    * steer_cond may decide otherwise in opt; what it decides gets
    * steer_mark. Both 0 without --opt. */
   uint32_t steer_cond, steer_mark;
   enum tgsi_interp_status status; /* when failed */
   /* Last, so that tgsi_interp_run zeroes the fields before it alone:
    * a frame is written by push_frame before it is read (6 KiB). */
   struct tgsi_interp_frame frames[TGSI_INTERP_MAX_DEPTH];
};

/* tgsi_interp.c */
extern const char *const tgsi_interp_status_names[TGSI_INTERP_STATUS_COUNT];
bool tgsi_interp_supports(enum tgsi_opcode op);
/* Computes the batch's sg_first and sg_end, once per batch. */
void tgsi_interp_subgroups(struct tgsi_interp_batch *b);
/* Refuses (with a diagnostic naming the opcode and line) what cannot run. */
enum tgsi_interp_status tgsi_interp_check(const struct tgsi_shader *s, struct diag_list *diags);
/* Runs s over every lane of env. Outputs (env->out, out_flags, killed,
 * GS vertices) are (re)allocated to fit the shader; buffers and images are
 * updated in place. */
enum tgsi_interp_status tgsi_interp_run(const struct tgsi_shader *s, struct env *env,
                                        const struct tgsi_interp_opts *opts,
                                        struct diag_list *diags);
/* The budget a run of s on nlanes lanes gets when opts->max_steps is 0. */
uint64_t tgsi_interp_default_steps(const struct tgsi_shader *s, uint32_t nlanes);
/* The fetch type of source si of op (what '-' means), input vertices per
 * lane (GS input primitive, 4 for tessellation, else 1), a property. */
uint8_t tgsi_interp_src_type(enum tgsi_opcode op, unsigned si);
uint32_t tgsi_interp_in_vertices(const struct tgsi_shader *s);
/* Lanes per subgroup of env e: 32 or 64 (anything else reads as 32). */
uint32_t tgsi_interp_subgroup(const struct env *e);
uint32_t tgsi_interp_prop(const struct tgsi_shader *s, enum tgsi_property prop, uint32_t dflt);
void tgsi_interp_fetch(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti, unsigned si,
                       unsigned c, const uint32_t **v, const uint32_t **f);
void tgsi_interp_update_exec(struct tgsi_interp_batch *b);
bool tgsi_interp_error(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti,
                       const char *fmt, ...) DC_PRINTF(3, 4);

/* tgsi_interp_cf.c */
bool tgsi_interp_is_cf(enum tgsi_opcode op);
/* Executes a control-flow instruction; returns the next pc (-1: end). */
int32_t tgsi_interp_exec_cf(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti,
                            int32_t pc);

/* tgsi_interp_alu.c: 32-bit ALU ops. Each exec function fills b->res_v/
 * res_f for the channels it returns as a mask (-1: not its opcode). */
int tgsi_interp_exec_alu(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti);
uint16_t tgsi_interp_f32_to_f16(uint32_t f);
uint32_t tgsi_interp_f16_to_f32(uint16_t h);

/* tgsi_interp_bound.c: the bound (ENV_ERR_SHIFT) of a result, from its
 * operands' (values and flag words) into rf, which holds the result's
 * flags; fuse: products' roundings are sources (fuse_bounds); bound_bits
 * encodes a bound; trig_arg_err is the error in radians of the argument
 * of SIN or COS of x as GPUs take it, in revolutions. bound_lookup: a
 * texture lookup's bound, unbounded if near one of its roundings (and an
 * operand has a bound), else none; bound_rel: v's bound relative to |v|
 * (0 without one, +inf where it reaches zero or is unbounded). */
uint32_t tgsi_interp_bound_bits(double d);
uint32_t tgsi_interp_bound_lookup(uint32_t flags, bool near);
double tgsi_interp_bound_rel(uint32_t v, uint32_t flags);
uint32_t tgsi_interp_bound_diff(uint32_t flags, uint32_t fa, uint32_t fz, uint32_t r);
uint32_t tgsi_interp_bound_zero_edge(uint32_t flags, uint32_t v);
void tgsi_interp_bound_comp(enum tgsi_opcode op, bool fuse, unsigned n, const uint32_t *r,
                            uint32_t *rf, const uint32_t *const *s, const uint32_t *const *sf);
void tgsi_interp_bound_repl(enum tgsi_opcode op, bool fuse, unsigned n, const uint32_t *r,
                            uint32_t *rf, unsigned nch, const uint32_t *const *a,
                            const uint32_t *const *af, const uint32_t *const *b,
                            const uint32_t *const *bf);
double tgsi_interp_trig_arg_err(double x);

/* tgsi_interp_wide.c: doubles and 64-bit integers (channel pairs). */
int tgsi_interp_exec_wide(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti);

/* tgsi_interp_res.c: textures, memory, derivatives, subgroups, GS. */
int tgsi_interp_exec_res(struct tgsi_interp_batch *b, const struct tgsi_interp_insn *ti);
void tgsi_interp_res_begin(struct tgsi_interp_batch *b);
void tgsi_interp_res_end(struct tgsi_interp_batch *b);
void tgsi_interp_res_free(struct tgsi_interp_batch *b);

#endif
