/*
 * The emulator and the run environment it shares with the golden TGSI
 * interpreter.
 *
 * An env holds everything a shader run reads and writes, for N invocations
 * (lanes) at once: per-lane inputs and system values, uniform constants,
 * procedurally defined textures, bounded byte buffers and images, and the
 * outputs with per-lane flags. The interpreter and the emulator both read
 * and write only through this structure and the functions of env.c, so the
 * two see exactly the same data and the same texture/memory semantics.
 *
 * Per-lane data is structure-of-arrays: one array of N words per register
 * channel, so a runner can process a contiguous range of lanes as vectors.
 * Lanes 4k..4k+3 form a 2x2 quad (top-left, top-right, bottom-left,
 * bottom-right); compute lanes are grouped in workgroups of
 * block_size[0]*block_size[1]*block_size[2] consecutive lanes.
 */
#ifndef DC_EMU_H
#define DC_EMU_H

#include "util/shader_enums.h"
#include "util/util.h"

#include <math.h>

/* ------------------------------------------------------------------ */
/* env.c                                                                */

#define ENV_MAX_LANES      (1u << 20)
#define ENV_MAX_TEXTURES   32
#define ENV_MAX_BUFFERS    32
#define ENV_MAX_IMAGES     32
#define ENV_MAX_CBUFS      16
#define ENV_MAX_CBUF_SLOTS 4096
#define ENV_MAX_DRAWS      4096       /* constant sets per run */
#define ENV_MAX_MEM_BYTES  (1u << 24) /* per buffer or image */
#define ENV_MAX_TEX_SIZE   4096
#define ENV_SUBGROUP_SIZE  32 /* the default subgroup (env.subgroup_size) */
#define ENV_MAX_SUBGROUP   64
#define ENV_DEFAULT_SHARED 4096 /* shared-memory bytes per workgroup */

/* Per lane and channel flags of a value (outputs, and the interpreter's
 * registers). UNDEF: the value is not determined by the inputs (never
 * written, or a result the specification leaves undefined). The other bits
 * record which inexact operation classes the value went through, so a
 * comparison can choose a tolerance. */
#define ENV_FLAGS(X)                                                                               \
   X(UNDEF, "undefined")                                                                           \
   X(TRANS, "transcendental (SIN COS EX2 LG2 POW EXP LOG LIT)")                                    \
   X(RCP, "reciprocal, square root or division (RCP RSQ SQRT DIV NRM UP2US UP4UB UP4B)")           \
   X(FUSE, "multiply-add that may be fused or not (MAD DP* LRP XPD)")                              \
   X(LRP, "LRP, whose formula is not fixed")                                                       \
   X(DENORM, "a float operand or result was denormal (may be flushed)")                            \
   X(NAN, "a float operation produced NaN (payload and sign unspecified)")                         \
   X(ZSIGN, "MIN/MAX of +0 and -0 (sign of zero unspecified)")                                     \
   X(ROUND, "rounding not fixed (ROUND ties, inexact int->float, D2F, PK2US PK4UB PK4B)")          \
   X(DERIV, "coarse derivative (may be computed fine)")                                            \
   X(BITS, "an inexact or sign-ambiguous float read as integer bits")                              \
   X(PK16, "two halves packed by PK2H: each compared as a float")                                  \
   X(CANCEL, "a sum cancelled, or SIN/COS/EX2/LG2/POW magnified, an inexact operand's error")      \
   X(EDGE, "an inexact operand within its tolerance of a compare's or rounding's threshold")       \
   X(PRODUCT, "a rounded MUL product, which an ADD of it may fuse with")                           \
   X(NANBITS, "the sign or payload of a NaN, or the sign of a MIN/MAX zero, read as integer bits")
#define ENV_FLAG_BIT_(n, d) ENV_F_BIT_##n,
enum env_flag_bit { ENV_FLAGS(ENV_FLAG_BIT_) ENV_F_COUNT };
#undef ENV_FLAG_BIT_
#define ENV_FLAG_(n, d) ENV_F_##n = 1u << ENV_F_BIT_##n,
enum env_flag { ENV_FLAGS(ENV_FLAG_) };
#undef ENV_FLAG_
/* The classes whose value is bounded only within a tolerance. */
#define ENV_F_INEXACT (ENV_F_FUSE | ENV_F_LRP | ENV_F_RCP | ENV_F_TRANS | ENV_F_ROUND)
#define ENV_F_ALL     ((1u << ENV_F_COUNT) - 1)

/* Above the flags, in the interpreter's 32-bit flag words only: a bound on
 * how far a program that fuses multiply-adds, or takes SIN/COS in
 * revolutions, may be from the interpreter (tgsi_interp_bound.c), as the
 * top half of a float rounded up to four mantissa bits (ENV_AMP_MASK has
 * the other three); 0 is none. Outputs keep it in env.out_err. */
#define ENV_ERR_SHIFT 16

/* In the bound's three lowest bits (a bound is rounded up to keep them
 * clear) and its sign bit (a bound is never negative): how many times
 * the sums that cancelled an inexact operand, and the SIN, COS, EX2, LG2
 * and POW that magnified it, have multiplied its error so far -- at most
 * 1, 2, 4, 8 or 16 times its class's bound -- as a thermometer code
 * (bits 16, 17, 18, 31 set from the lowest level up), so that the union
 * of flag words keeps the largest. The interpreter sets CANCEL where the
 * product goes beyond 16 (tgsi_lane_cancel); outputs do not keep it. */
#define ENV_AMP_MASK 0x80070000u
#define ENV_ERR_MASK ((~(uint32_t)0 << ENV_ERR_SHIFT) & ~ENV_AMP_MASK)

/* The bound of a flag word, as the top half of a float. */
static inline uint16_t
env_err_bits(uint32_t flags)
{
   return (uint16_t)((flags & ENV_ERR_MASK) >> ENV_ERR_SHIFT);
}

static inline double
env_err_value(uint16_t bits)
{
   float f = uif((uint32_t)bits << 16);
   return f != f ? (double)INFINITY : (double)f;
}

/* Events counted during a run: accesses out of bounds and the like. They
 * never crash the runner; the access reads 0 or is dropped. */
#define ENV_EVENTS(X)                                                                              \
   X(CONST_OOB, "constant read out of the bound buffer")                                           \
   X(INPUT_OOB, "input or system value index out of range")                                        \
   X(REG_OOB, "indirect register index out of the declared range")                                 \
   X(BUFFER_OOB, "buffer access out of bounds")                                                    \
   X(SHARED_OOB, "shared-memory access out of bounds")                                             \
   X(IMAGE_OOB, "image access out of bounds")                                                      \
   X(TEXEL_OOB, "texel fetch out of bounds")                                                       \
   X(UNBOUND, "access to an unbound texture, buffer or image")                                     \
   X(GS_OVERFLOW, "geometry-shader vertex beyond the maximum")                                     \
   X(MISALIGNED, "memory access not 4-byte aligned")
#define ENV_EV_(n, d) ENV_EV_##n,
enum env_event { ENV_EVENTS(ENV_EV_) ENV_EV_COUNT };
#undef ENV_EV_

/* A texture is a function of its seed, never stored: see env_texel(). */
struct env_texture {
   bool bound;
   enum tgsi_texture target;
   enum tgsi_return_type ret;
   uint32_t width, height;
   uint32_t depth;  /* 3D depth, or the number of array layers (cube arrays: cubes) */
   uint32_t levels; /* mip levels, 1..log2(max(w,h,d))+1 */
   uint64_t seed;
};

/* Bounded bytes: a buffer, the texels of an image, or shared memory.
 * undef has one byte per data byte, nonzero where the byte is undefined. */
struct env_mem {
   uint8_t *data;
   uint8_t *undef;
   /* Per word, the enum env_flag classes (UNDEF aside) of the value the
    * interpreter stored there (0: exact, or never stored); NULL until the
    * interpreter stores to this memory at all. */
   uint32_t *cls; /* with the fuse bound above the flags (ENV_ERR_SHIFT) */
   uint32_t size;
   /* Every byte of undef is set: env_mem_set_undef set them and no
    * env_mem_store or env_mem_atomic has cleared one since, so a further
    * env_mem_set_undef has nothing to do. Code that writes undef itself
    * clears it (tgsi_interp_run does for the env's memories). */
   bool all_undef;
};

/* An image is modelled as raw texels of four 32-bit words (16 bytes),
 * whatever PIPE_FORMAT the shader names: loads return the stored words and
 * stores write them unconverted. Texel (x, y, z) is at byte
 * ((z * height + y) * width + x) * 16. */
struct env_image {
   bool bound;
   enum tgsi_texture target;
   uint32_t width, height, depth;
   struct env_mem mem;
};

/* One lookup through env_sample(). Coordinates are the first components
 * of the TGSI coordinate operand in their TGSI order: 1D s; 1D_ARRAY s,
 * layer; 2D/RECT s,t; 2D_ARRAY s,t,layer; 3D s,t,r; CUBE x,y,z;
 * CUBE_ARRAY x,y,z,layer. */
struct env_sample_req {
   enum tgsi_texture target; /* the instruction's target (TEX) or the view's */
   float coord[4];
   float lod; /* explicit level of detail (bias already added) */
   bool grad; /* explicit gradients (TXD, SAMPLE_D): the level comes from them */
   float ddx[3], ddy[3];
   bool compare; /* shadow comparison against ref */
   float ref;
   bool gather;   /* 2x2 footprint of one component, level 0 */
   unsigned comp; /* gather component 0..3 */
   int32_t offset[3];
   /* a cube lookup by face (gfx9 MIMG after v_cube*): coord[0..1] the face
    * coordinates in [1, 2] (isa/sem.h sem_cube_coord), coord[2] the face
    * plus 8 times the layer */
   bool cube_face;
};

struct env {
   enum tgsi_stage stage;
   uint32_t nlanes;
   uint64_t seed; /* the seed the inputs were generated from (informative) */

   /* Inputs: in[((vertex * nin + reg) * 4 + chan) * nlanes + lane]. */
   uint32_t nin, in_vertices;
   uint32_t *in;
   /* System values by semantic: sv[sem][chan * nlanes + lane], or NULL. */
   uint32_t *sv[TGSI_SEM_COUNT];

   /* Constant buffers, one set per draw: cbuf[b][(draw * cbuf_slots[b] +
    * slot) * 4 + chan] (env_cbuf); reads beyond cbuf_slots[b] return 0 and
    * count CONST_OOB. Lane l belongs to draw lane_draw[l] (NULL: every
    * lane to draw 0). Constants are uniform within a draw, and a draw is
    * whole quads, subgroups and workgroups (diff_gen_inputs). */
   uint32_t *cbuf[ENV_MAX_CBUFS];
   uint32_t cbuf_slots[ENV_MAX_CBUFS];
   uint32_t ndraws; /* >= 1 */
   uint16_t *lane_draw;

   struct env_texture tex[ENV_MAX_TEXTURES];
   struct env_mem buf[ENV_MAX_BUFFERS];
   struct env_image img[ENV_MAX_IMAGES];

   /* Compute: workgroup and grid size; shared memory bytes per workgroup.
    * Shared memory starts undefined in every workgroup and is not an
    * output, so runners allocate it per workgroup (env_mem_init). */
   uint32_t block_size[3];
   uint32_t grid_size[3];
   uint32_t shared_size;
   /* Lanes per subgroup (32 or 64): consecutive lanes of a workgroup, or
    * of the dispatch outside compute. The target's wave decides it (gfx9
    * 64, sm50 32; diff_subgroup_size); the interpreter's subgroup ops and
    * the SUBGROUP_* system values follow it. */
   uint32_t subgroup_size;

   /* Outputs: out[((vertex * nout + reg) * 4 + chan) * nlanes + lane] and
    * the same shape of enum env_flag bits in out_flags. */
   uint32_t nout, out_vertices;
   uint32_t *out;
   uint16_t *out_flags;
   /* NULL, or per output value the bound (ENV_ERR_SHIFT) of the
    * interpreter run with tgsi_interp_opts.fuse_bounds or of a program with
    * SIN, COS or SCS. */
   uint16_t *out_err;
   /* Per lane: discarded (KILL/KILL_IF/DEMOTE), and whether that is itself
    * undefined (decided by an undefined value). */
   uint8_t *killed;
   uint8_t *kill_undef;

   /* Geometry shader output: per lane up to gs_max_vertices vertices of
    * nout registers, gs_data[((lane * gs_max_vertices + v) * nout + reg) * 4
    * + chan] with flags in the same shape; gs_stream and gs_prim (the
    * primitive number within the lane's stream) per [lane * max + v].
    * gs_undef[lane]: the number of vertices depends on undefined values. */
   uint32_t gs_max_vertices;
   uint32_t *gs_count;
   uint32_t *gs_data;
   uint16_t *gs_flags;
   /* NULL, or the bound of each vertex value as out_err has it for outputs */
   uint16_t *gs_err;
   uint8_t *gs_stream;
   uint32_t *gs_prim;
   uint8_t *gs_undef;

   uint64_t events[ENV_EV_COUNT];
};

extern const char *const env_flag_names[ENV_F_COUNT];
extern const char *const env_flag_descs[ENV_F_COUNT];
extern const char *const env_event_names[ENV_EV_COUNT];
extern const char *const env_event_descs[ENV_EV_COUNT];

struct env *env_new(enum tgsi_stage stage, uint32_t nlanes);
void env_free(struct env *e);
struct env *env_clone(const struct env *e);
bool env_alloc_inputs(struct env *e, uint32_t nin, uint32_t in_vertices);
bool env_alloc_outputs(struct env *e, uint32_t nout, uint32_t out_vertices);
/* As env_alloc_outputs, but out and out_flags left unset, for a caller that
 * writes every lane's outputs or resets the rest (env_reset_output_lanes). */
bool env_alloc_outputs_unset(struct env *e, uint32_t nout, uint32_t out_vertices);
bool env_alloc_gs(struct env *e, uint32_t max_vertices);
uint32_t *env_sv(struct env *e, enum tgsi_semantic sem);
/* ndraws sets of constants, lane l in draw lane_draw[l] (copied; NULL:
 * all in draw 0); before env_set_cbuf. False if a draw is out of range. */
bool env_set_draws(struct env *e, uint32_t ndraws, const uint16_t *lane_draw);
/* Constant buffer b with nslots slots in each of the env's draws. */
bool env_set_cbuf(struct env *e, unsigned b, uint32_t nslots);
bool env_set_texture(struct env *e, unsigned unit, const struct env_texture *t);
bool env_set_buffer(struct env *e, unsigned i, uint32_t size);
bool env_set_image(struct env *e, unsigned i, enum tgsi_texture target, uint32_t w, uint32_t h,
                   uint32_t d);
void env_reset_outputs(struct env *e);
/* Outputs of lanes [from, to) back to 0 and undefined. */
void env_reset_output_lanes(struct env *e, uint32_t from, uint32_t to);

static inline uint32_t *
env_in(const struct env *e, uint32_t vertex, uint32_t reg, unsigned chan)
{
   return e->in + ((size_t)(vertex * e->nin + reg) * 4 + chan) * e->nlanes;
}

static inline size_t
env_out_index(const struct env *e, uint32_t vertex, uint32_t reg, unsigned chan)
{
   return ((size_t)(vertex * e->nout + reg) * 4 + chan) * e->nlanes;
}

static inline void
env_count(struct env *e, enum env_event ev, uint64_t n)
{
   e->events[ev] += n;
}

static inline uint32_t
env_draw(const struct env *e, uint32_t lane)
{
   return e->lane_draw ? e->lane_draw[lane] : 0;
}

/* Draw d's words of constant buffer b (NULL if unbound). */
static inline uint32_t *
env_cbuf(const struct env *e, unsigned b, uint32_t draw)
{
   return e->cbuf[b] ? e->cbuf[b] + (size_t)draw * e->cbuf_slots[b] * 4 : NULL;
}

uint32_t env_const(struct env *e, unsigned b, int64_t slot, unsigned chan, uint32_t draw);

/* Textures and the sampler. */
uint32_t env_tex_levels(uint32_t w, uint32_t h, uint32_t d, enum tgsi_texture target);
void env_tex_size(const struct env_texture *t, uint32_t level, uint32_t size[3]);
void env_texel(const struct env *e, unsigned unit, uint32_t x, uint32_t y, uint32_t z,
               uint32_t level, uint32_t out[4]);
bool env_fetch(struct env *e, unsigned unit, enum tgsi_texture target, const int32_t coord[3],
               int32_t level, const int32_t offset[3], uint32_t out[4]);
bool env_sample(struct env *e, unsigned unit, const struct env_sample_req *req, uint32_t out[4]);
/* env_sample, and in *near whether the result may differ for operands
 * within a relative tolerance rel of these (plus 2^-20): some rounding of
 * the lookup (texel, layer, level or face selection, the shadow compare)
 * lies that close to its threshold. */
bool env_sample_near(struct env *e, unsigned unit, const struct env_sample_req *req,
                     uint32_t out[4], double rel, bool *near);
/* n lookups through one unit at once, by env_sample's rules, for the
 * common case: a bound texture of exactly the lookup's target, neither a
 * buffer nor a cube map, and no gather. Lane arrays: coord[c] the float
 * bits of coordinate c (every c < tgsi_texture_coord_count(target)),
 * off[c] the texel offsets, lod (NULL: level 0, as implicit-LOD lookups)
 * and ref (NULL: no compare). out[c][i] gets lane i's result, for every
 * lane i < n. Returns false, writing and counting nothing, when the
 * lookup is not such a case: env_sample then does it lane by lane.
 * rel (NULL: no lane asks) is env_sample_near's tolerance per lane (0:
 * not asked); then near[i] gets 1 where env_sample_near would report
 * near for lane i, else 0. */
struct env_sample_lanes {
   enum tgsi_texture target;
   const uint32_t *coord[4];
   const uint32_t *off[3];
   const uint32_t *lod, *ref;
   const float *rel;
   uint32_t *near;
};
bool env_sample_lanes(struct env *e, unsigned unit, const struct env_sample_lanes *q, uint32_t n,
                      uint32_t *const out[4]);
/* Whether env_sample_lanes takes lookups of target through unit. */
bool env_sample_lanes_take(const struct env *e, unsigned unit, enum tgsi_texture target);
bool env_tex_query(struct env *e, unsigned unit, int32_t level, uint32_t out[4]);

/* Bounded memory. Loads and atomics report through *undef whether the
 * result is undefined (out of bounds, or undefined bytes). */
bool env_mem_init(struct env_mem *m, uint32_t size, bool defined);
void env_mem_fini(struct env_mem *m);
void env_mem_set_undef(struct env_mem *m);
/* The classes of word w (0: exact), and setting them (interpreter stores). */
uint32_t env_mem_class(const struct env_mem *m, uint32_t w);
void env_mem_set_class(struct env_mem *m, uint32_t w, uint32_t cls);
bool env_mem_load(struct env *e, const struct env_mem *m, enum env_event ev, uint32_t off,
                  unsigned nwords, uint32_t *out, bool *undef);
unsigned env_mem_store(struct env *e, struct env_mem *m, enum env_event ev, uint32_t off,
                       unsigned wmask, const uint32_t *val, const bool *undef);
enum env_atomic_op {
   ENV_ATOM_ADD,
   ENV_ATOM_XCHG,
   ENV_ATOM_CAS,
   ENV_ATOM_AND,
   ENV_ATOM_OR,
   ENV_ATOM_XOR,
   ENV_ATOM_UMIN,
   ENV_ATOM_UMAX,
   ENV_ATOM_IMIN,
   ENV_ATOM_IMAX,
   ENV_ATOM_FADD,
   ENV_ATOM_INC_WRAP,
   ENV_ATOM_DEC_WRAP,
};
bool env_mem_atomic(struct env *e, struct env_mem *m, enum env_event ev, uint32_t off,
                    enum env_atomic_op op, uint32_t v, uint32_t cmp, bool v_undef, uint32_t *old,
                    bool *undef);
/* How many coordinate channels image i's target reads (x; x, y; x, y and
 * the layer or z), 3 for an unbound image. */
unsigned env_image_coords(const struct env *e, unsigned i);
bool env_image_offset(struct env *e, unsigned i, const int32_t coord[3], uint32_t *off);

/* ------------------------------------------------------------------ */
/* program.c: a compiled program and its interface to the env          */

/*
 * The contract between the compilers (compiler/ref, compiler/opt), the
 * assembler front end and the emulator. A program is encoded machine code
 * for one model plus a binding table saying where the TGSI-visible values
 * live:
 *
 *  - EMU_BIND_INPUT / EMU_BIND_SYSVAL: before the first instruction, the
 *    register (file, bank, index) of every lane holds IN[tgsi_index].chan
 *    (of vertex `vertex`) or the system value with semantic tgsi_index,
 *    channel chan.
 *  - EMU_BIND_CONST: before the run, constant-file slot (file, bank, index)
 *    holds CONST[buffer][tgsi_index].chan (0 if out of the bound buffer).
 *    CONST, VALUE and SIZE may also bind a register of a uniform or full
 *    file (gfx9 SGPR and VGPR arguments): every lane's register holds its
 *    draw's value before the first instruction.
 *  - EMU_BIND_VALUE: constant-file slot (file, bank, index) holds `value`
 *    (immediates the compiler placed in the constant file).
 *  - EMU_BIND_OUTPUT: when a lane ends, OUT[tgsi_index].chan is read from
 *    the register (file, bank, index).
 *  - EMU_BIND_SIZE: before the run, constant-file slot (file, bank, index)
 *    holds component chan of the size of resource tgsi_index of TGSI file
 *    `buffer` (enum tgsi_file): BUFFER .x its bytes; IMAGE .x width, .y
 *    height, .z depth or layers; MEMORY .x the shared bytes of a
 *    workgroup; SVIEW/SAMP (a texture) .x width, .y height, .z depth or
 *    layers, .w levels of level 0. 0 for anything unbound. (Code reads
 *    resource sizes from constants, as drivers upload them.)
 *  - CONST, VALUE and SIZE may also name a register of a register file
 *    (a model without a constant file, gfx9: SGPRs or VGPRs): before the
 *    first instruction, each lane's register holds the value of the lane's
 *    draw. (A gfx9 wave may span two draws, so an SGPR so bound is
 *    uniform only when its wave's lanes are in one draw.)
 *
 * Outputs may also be stored as they are computed, by attribute stores
 * (semantics ast): attribute byte EMU_ATTR_OUTPUT(i) + 4 * c of an output
 * vertex is OUT[i].c -- a fixed layout, like the memory addresses below,
 * so it needs no binding. In a tessellation control shader the vertex is
 * the output vertex (0 for per-patch outputs); in a geometry shader it is
 * the handle of the vertex being written, and emit instructions send the
 * vertices to the env's gs_* arrays. gs_max_vertices is the program
 * header's limit on the vertices a geometry-shader lane may emit (0: 1,
 * the interpreter's default).
 *
 * Resources need no bindings: texture/sampler unit N of a sample
 * instruction is env texture N; memory addresses follow EMU_ADDR_* below.
 * Register indices are scalar: for a vec4-named file (a3xx r0.x r0.y ...)
 * index = 4 * register + component.
 */
enum emu_bind_kind {
   EMU_BIND_INPUT,
   EMU_BIND_SYSVAL,
   EMU_BIND_CONST,
   EMU_BIND_VALUE,
   EMU_BIND_OUTPUT,
   EMU_BIND_SIZE,
};

struct emu_binding {
   uint8_t kind; /* enum emu_bind_kind */
   uint8_t chan;
   uint8_t file; /* model register file (isa_file_find) */
   uint8_t buffer;
   uint16_t tgsi_index; /* register index, or enum tgsi_semantic for SYSVAL */
   uint16_t vertex;
   uint16_t bank;
   uint16_t index;
   uint32_t value;
};

/* Global memory: buffer i occupies [EMU_ADDR_BUFFER(i), + size); image i
 * [EMU_ADDR_IMAGE(i), + size); constant buffer b is readable (not
 * writable) at EMU_ADDR_CONST(b) + 16 * slot + 4 * channel, each lane
 * reading its draw's values (gfx9 scalar loads). Any other address is out
 * of bounds. Shared memory is its own address space starting at 0. */
#define EMU_ADDR_BUFFER(i) ((uint32_t)(0x01u + (i)) << 24)
#define EMU_ADDR_IMAGE(i)  ((uint32_t)(0x41u + (i)) << 24)
#define EMU_ADDR_CONST(b)  ((uint32_t)(0x61u + (b)) << 24)
/* Stage windows (geometry and tessellation stages on models without
 * attribute stores, gfx9): each lane sees its own. EMU_ADDR_STAGE_IN +
 * EMU_STAGE_OFF(v, i, c) reads IN[v][i].c (read only); EMU_ADDR_STAGE_OUT
 * + EMU_STAGE_OFF(v, i, c) writes OUT[i].c of output vertex v (tessellation
 * control: the output vertex, 0 per patch; geometry: vertex slot v of the
 * lane, the one the lane's (v + 1)-th emit sends). */
#define EMU_ADDR_STAGE_IN      ((uint32_t)0x71u << 24)
#define EMU_ADDR_STAGE_OUT     ((uint32_t)0x72u << 24)
#define EMU_STAGE_VERTEX_SHIFT 12
#define EMU_STAGE_OFF(v, i, c) (((uint32_t)(v) << EMU_STAGE_VERTEX_SHIFT) + 16u * (i) + 4u * (c))
/* Attribute byte offset of OUT[i].x for attribute stores (OUT[i].c at
 * + 4 * c). */
#define EMU_ATTR_OUTPUT(i) ((uint32_t)(i)*16u)

struct isa_model;

struct emu_program {
   const struct isa_model *model; /* not owned */
   uint8_t *code;
   size_t size;
   struct emu_binding *binds;
   unsigned nbinds, binds_cap;
   enum tgsi_stage stage;
   uint32_t gs_max_vertices; /* geometry shaders: vertices per lane, 0 = 1 */
};

void emu_program_bind(struct emu_program *p, const struct emu_binding *b);
/* Frees what the program owns and zeroes it. */
void emu_program_free(struct emu_program *p);

/* ------------------------------------------------------------------ */
/* The emulator: emu.c (runs), load.c (decode once), exec.c and kern.c */
/* (lanes), timing.c (issue, hazards), flow.c (divergence), asmprog.c  */
/* (assembly programs with binding directives). See emu/README.md.     */

/*
 * Events of a run. The first kinds are hazards: the run goes on and the
 * early read returns the register's old value, as the hardware would. From
 * EMU_EV_ILLEGAL on they are faults: the wave stops (BUDGET stops the run).
 */
#define EMU_EVENTS(X)                                                                              \
   X(RAW, "raw", "read of a fixed-latency result before it is ready")                              \
   X(SYNC, "sync", "read of a variable-latency result without waiting for it")                     \
   X(WAR, "war", "register overwritten while a variable-latency instruction may still read it")    \
   X(WAW, "waw", "register written while a variable-latency write to it is pending")               \
   X(PENDING, "pending", "more asynchronous ops in flight on one wait slot than max_pending")      \
   X(BAR_EARLY, "bar_early", "wait on a scoreboard fewer than bar_min cycles after it was set")    \
   X(FLOW_STALL, "flow_stall", "stall count after a flow instruction below flow_stall")            \
   X(JP, "jp", "divergent lanes reconverged at an instruction without (jp)")                       \
   X(UNSET, "unset", "read of a register the wave never wrote and that starts with no value (M0)") \
   X(ILLEGAL, "illegal", "illegal encoding executed: the wave stops")                              \
   X(BAD_TARGET, "bad_target", "branch target outside the program: the wave stops")                \
   X(STACK, "stack", "reconvergence stack overflow or underflow: the wave stops")                  \
   X(FELL_OFF, "fell_off", "execution ran past the last instruction: the wave stops")              \
   X(BUDGET, "budget", "cycle budget exhausted: the run stops")
#define EMU_EV_(n, ...) EMU_EV_##n,
enum emu_event_kind { EMU_EVENTS(EMU_EV_) EMU_EV_COUNT };
#undef EMU_EV_
#define EMU_EV_FIRST_FAULT EMU_EV_ILLEGAL

#define EMU_STATUSES(X)                                                                            \
   X(OK, "ok")                                                                                     \
   X(FAULT, "a wave stopped on a fault event")                                                     \
   X(BUDGET, "the cycle budget ran out")                                                           \
   X(ERR_DECODE, "the program does not decode")                                                    \
   X(ERR_UNSUPPORTED, "the program uses something the emulator does not model")                    \
   X(ERR_BINDING, "a binding names a register or slot that does not exist")                        \
   X(ERR_ENV, "the environment does not fit the program")
#define EMU_ST_(n, ...) EMU_##n,
enum emu_status { EMU_STATUSES(EMU_ST_) EMU_STATUS_COUNT };
#undef EMU_ST_

/* One event. Hazards name the register (file, index as in struct
 * isa_opnd), the earlier instruction involved and how many cycles too
 * early the access came (<= 0 when the time had passed but the required
 * (ss)/(sy)/wait was missing). Addresses are byte offsets in the program. */
struct emu_event {
   uint8_t kind; /* enum emu_event_kind */
   uint8_t file; /* 0xff: no register */
   uint16_t index;
   uint32_t pc, producer_pc;
   int32_t early;
   uint32_t wave;
   uint64_t cycle; /* the wave's cycle when it happened */
};

struct emu_result {
   enum emu_status status;
   struct emu_event *events; /* the first max_events events */
   unsigned nevents, events_cap;
   uint64_t counts[EMU_EV_COUNT]; /* every event, kept or not */
   uint64_t insns;                /* instructions issued (all waves) */
   uint64_t lane_insns;           /* instructions x active lanes, repeats counted */
   uint64_t nops;                 /* issue slots spent in nop / (nopN) / (rptN)nop */
   uint64_t stall_cycles;         /* cycles waiting: sync flags, wait masks, stall counts */
   uint64_t cycles;               /* the longest wave */
   uint64_t wave_cycles;          /* summed over waves */
   unsigned waves, wave_size;
};

/* Per executed instruction, for --trace. */
#define EMU_TRACE_REGS 8
struct emu_trace {
   uint32_t wave, index, pc; /* index in the decoded program, byte address */
   uint64_t cycle;           /* issue cycle */
   uint32_t stall;           /* cycles waited before issue */
   uint32_t active;          /* active lanes */
   const char *why;          /* what was waited for ("ss", "sy", "sb0 sb2", "stall 6"), or "" */
   unsigned nwaited;         /* registers whose pending results the wait covered */
   struct {
      uint8_t file;
      uint16_t index;
   } waited[EMU_TRACE_REGS];
};

#define EMU_DEFAULT_MAX_CYCLES (1ull << 22)
#define EMU_DEFAULT_MAX_EVENTS 4096

struct emu_options {
   uint64_t max_cycles; /* per wave; 0: EMU_DEFAULT_MAX_CYCLES */
   unsigned wave_size;  /* 0: emu_wave_size() of the model */
   unsigned max_events; /* events kept in the array; 0: EMU_DEFAULT_MAX_EVENTS */
   bool no_batch;       /* run every wave alone (same results, slower; for tests) */
   void (*trace)(void *user, const struct emu_trace *t);
   void *trace_user;
};

/* A decoded program, ready to run many times (opaque). */
struct emu_code;

extern const char *const emu_event_names[EMU_EV_COUNT];
extern const char *const emu_event_descs[EMU_EV_COUNT];
extern const char *const emu_status_names[EMU_STATUS_COUNT];

/* load.c */
/* Decodes p once. Errors (undecodable bytes, bindings naming nothing, ops
 * the emulator cannot run) go to d with the instruction's address. */
enum emu_status emu_load(const struct emu_program *p, struct emu_code **out, struct diag_list *d);
void emu_code_free(struct emu_code *c);
unsigned emu_code_count(const struct emu_code *c);
/* The decoded record of instruction `index` (for disassembly in traces). */
const struct isa_insn *emu_code_insn(const struct emu_code *c, unsigned index);

/* gs.c */
/* How many output registers (OUT[0..n-1]) the program's attribute stores
 * reach at constant addresses (RZ or immediate plus offset); 0 if none. */
uint32_t emu_code_output_regs(const struct emu_code *c);

/* emu.c */
/* Lanes per wave when the options do not say: 64 for delay-slot models
 * (a3xx "fibers"), 32 otherwise (sm50 warps). */
unsigned emu_wave_size(const struct isa_model *m);
/* Runs the program on e->nlanes lanes: bindings in, outputs to e->out,
 * kills to e->killed, memory through e's buffers, events and figures to
 * r (cleared first; free with emu_result_free). Returns r->status. */
enum emu_status emu_run(const struct emu_code *c, struct env *e, const struct emu_options *o,
                        struct emu_result *r, struct diag_list *d);
void emu_result_free(struct emu_result *r);

/* asmprog.c: assembly programs (format in emu/README.md) */
struct emu_asm {
   struct emu_program prog;
   char *tgsi;            /* declarations matching the bindings, for diff_gen_inputs() */
   uint32_t lanes;        /* .lanes, or 0 */
   uint32_t block[3];     /* .block, or 0 */
   uint32_t shared;       /* .shared bytes, or 0 */
   uint32_t outputs;      /* .outputs, or the highest .output OUT index + 1, or 0 */
   uint32_t out_vertices; /* .out_vertices (tessellation control), or 0 */
};
/* Assembles text for model m. Errors carry file:line:col. */
bool emu_asm_parse(const struct isa_model *m, const char *text, const char *file,
                   struct emu_asm *out, struct diag_list *d);
void emu_asm_free(struct emu_asm *a);

#endif
