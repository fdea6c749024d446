/*
 * The random shader generator's private interface, shared by its files:
 * gen.c (choices, operands, ALU statements, prologue and epilogue, entry
 * points), gen_cf.c (control flow and KILL), gen_mem.c (buffers, shared
 * memory, images, atomics), gen_wide.c (64-bit integers and doubles),
 * gen_geom.c (geometry shaders: primitives, IN[v][i], EMIT/ENDPRIM) and
 * gen_tess.c (tessellation control and evaluation shaders).
 * The invariants every statement keeps are in the comment atop gen.c.
 */
#ifndef DIFF_GEN_PRIV_H
#define DIFF_GEN_PRIV_H

#include "diff/diff.h"

#define GEN_MAX_TEMPS  22 /* general temporaries (pressure shaders) */
#define GEN_BASE_TEMPS 12 /* general temporaries otherwise */
#define GEN_MAX_LOOPS  3  /* nested counted loops */
#define GEN_MAX_DEPTH  6  /* nested IF/loop/switch */
#define GEN_ARRAY_LEN  4  /* the indirectly addressed TEMP array */
#define GEN_INT_CONSTS 2  /* integer uniforms after the float constants */
#define GEN_DBL_CONSTS 1  /* then a slot of two double uniforms (gen_wide.c) */
#define GEN_IMM_HASH   4096
#define GEN_SINK_BUF   3 /* COMP: the sink's buffer (0 input, 1 result, 2 lane slots) */
#define GEN_TEXT_LEN   24
#define GEN_MAX_OUTS   3 /* declared outputs, the sink's aside */

/* Channel types: float, 32-bit integer, half of a double (xy or zw). */
enum gty { GT_F, GT_I, GT_D };

/* What a BRK/CONT would leave: generated only when it is a loop. */
enum gctx { CTX_NONE, CTX_LOOP, CTX_SWITCH };

/* One IMM line: up to four values of one type, as text. */
struct gimm {
   bool is_int;
   unsigned n;
   char val[4][GEN_TEXT_LEN];
};

/* A source operand as text, and whether it reads input-dependent data. */
struct opnd {
   char s[96];
   bool dep;
   bool inexact; /* reads a channel known only within a tolerance */
};

/* Four words of memory a lane owns (its buffer slot, its shared words,
 * its image texel), tracked as a temporary is: type, input dependence and
 * inexactness per word. */
struct gmem {
   uint8_t ty[4];
   uint8_t dep, inexact;
};

struct gen {
   struct rng rng;
   const uint8_t *bytes;
   size_t nbytes, pos;
   bool (*supports)(enum tgsi_opcode op);
   enum tgsi_stage stage;
   unsigned nin, nout, nconst, ntemp, block_w;
   /* TEMP layout: [0, ntemp) general, then loop counters, scratch, the
    * lane's index (COMP: its global id, with addresses), the memory
    * addresses, then the ARRAY(1) registers. */
   unsigned t_loop, t_scr, t_gid, t_mem, t_arr, t_end;
   uint8_t ty[GEN_MAX_TEMPS][4];
   uint8_t dep[GEN_MAX_TEMPS]; /* bit per channel */
   /* bit per channel: the value may differ within a tolerance between
    * implementations (MAD, POW, RCP...) or be a zero of open sign (MIN,
    * MAX); its bits are never read as an integer (see gen_op_inexact) */
   uint8_t inexact[GEN_MAX_TEMPS];
   bool ready[GEN_MAX_TEMPS]; /* written by the prologue: may be read */
   /* bit per channel: last written by a compare (a predicate on sm50,
    * whose file holds 7: the sink leaves it, see gen_shape.c) */
   uint8_t cmp[GEN_MAX_TEMPS];
   struct gimm *imms;
   unsigned nimms, imms_cap;
   int32_t imm_hash[GEN_IMM_HASH]; /* slot = line * 4 + comp, -1 empty */
   struct strbuf body;
   unsigned depth, loop_depth;
   unsigned ninsns;
   bool used_samp[2], used_addr, used_array, used_in[8], killed;
   bool used_iconst; /* CONST[0][nconst + k], k < GEN_INT_CONSTS, read as integers */
   bool used_dconst; /* CONST[0][nconst + GEN_INT_CONSTS] read as two doubles */
   bool arrays;      /* TEMP[ADDR+k](1) may be read and written */
   bool fma;         /* FMA may appear; otherwise MAD takes its place */
   bool fp64;        /* doubles may appear (a3xx has none: n/a there) */
   bool pressure;    /* many temporaries, all live to the end */
   bool want_sink;   /* diff_gen_opts.sink */
   bool lane;        /* t_gid.x holds the lane's index: lane-keyed conditions (gen_cf.c) */
   bool sink;        /* OUT[nout] (COMP: BUFFER[GEN_SINK_BUF]) holds the hashes (gen_shape.c) */
   /* Memory (gen_mem.c): mem says the shader has a lane buffer slot
    * (BUFFER[buf], its byte offset in t_mem.x); COMP shaders also get
    * shared words (own offset t_mem.y) and an image texel (t_mem.zw). */
   bool mem, shared, image;
   unsigned buf, in_pos, sv_vid;
   struct gmem slot, sh, tex;
   /* The shared counter: atomics add to it until one barrier, after
    * which it is read and never written again. */
   bool ctr_read;
   unsigned nbarriers;
   /* Geometry shaders (gen_geom.c): the input primitive (an index of its
    * table) and its vertex count, the output primitive, the most vertices
    * a lane may send and how many of them are still free on the longest
    * path; emit_mult is what one EMIT here costs (the largest trip counts
    * of the loops around it multiplied, 1 outside loops). */
   unsigned gs_prim_in, gs_nverts, gs_prim_out, gs_max, gs_left, emit_mult;
   bool gs_early;     /* a message before the prologue */
   bool gs_cut_first; /* that message an ENDPRIM */
   bool noconst;      /* no constant buffer: immediates instead (gen_geom.c) */
   bool in_emit;      /* writing a vertex's outputs: no EMIT inside */
   /* Tessellation shaders (gen_tess.c): TCS_VERTICES_OUT, the first
    * per-patch output (after the per-vertex ones and the sink's), whether
    * a PATCH generic follows TESSOUTER and TESSINNER, whether only
    * invocation 0 writes them after the prologue; TES properties. */
   unsigned tcs_verts, tcs_patch, tes_prim, tes_spacing;
   bool tcs_generic, tcs_guard, tes_cw, tes_points, used_tcoord;
};

/* gen.c */
uint32_t gen_pick(struct gen *g, uint32_t n);
uint32_t gen_pick32(struct gen *g);
bool gen_chance(struct gen *g, unsigned percent);
bool gen_ok(struct gen *g, enum tgsi_opcode op);
/* Whether the target supports every one of ops[0..n). */
bool gen_ok_all(struct gen *g, const enum tgsi_opcode *ops, unsigned n);
void gen_emit(struct gen *g, const char *fmt, ...) DC_PRINTF(2, 3);
const char *gen_mask_str(uint8_t mask, char buf[6]);
void gen_imm_u(struct gen *g, uint32_t v, struct opnd *o);
void gen_imm_f(struct gen *g, const char *text, struct opnd *o);
void gen_imm_vec(struct gen *g, bool is_int, const char *const vals[4], struct opnd *o);
void gen_int_text(struct gen *g, char out[GEN_TEXT_LEN]);
uint8_t gen_chans_of(const struct gen *g, unsigned r, enum gty ty);
uint8_t gen_chans_exact(const struct gen *g, unsigned r, enum gty ty);
int gen_pick_temp_exact(struct gen *g, enum gty ty);
void gen_temp_src(struct gen *g, unsigned r, uint8_t m, struct opnd *o);
const char *gen_scalar_swz(struct gen *g, uint8_t m, char out[6]);
uint8_t gen_swizzle(struct gen *g, uint8_t m, char out[6]);
void gen_input_src(struct gen *g, struct opnd *o);
void gen_src_plain(struct gen *g, enum gty ty, struct opnd *o);
void gen_src_any(struct gen *g, enum gty ty, struct opnd *o);
void gen_src_exact(struct gen *g, struct opnd *o);
void gen_dst_pick(struct gen *g, enum gty ty, unsigned *reg, uint8_t *mask);
void gen_dst_set(struct gen *g, unsigned r, uint8_t mask, enum gty ty, bool dep, bool inexact);
const char *gen_dst_str(unsigned r, uint8_t mask, char buf[24]);
void gen_emit_op(struct gen *g, enum tgsi_opcode op, const char *suffix, unsigned r, uint8_t mask,
                 enum gty ty, struct opnd *src, unsigned nsrc);
void gen_clamp_to_scratch(struct gen *g, const struct opnd *src, const char *lo, const char *hi,
                          struct opnd *out);
void gen_block(struct gen *g, unsigned budget, enum gctx ctx);

/* gen_cf.c */
bool gen_stmt_kill(struct gen *g);
bool gen_emit_cond(struct gen *g);
bool gen_lane_key(struct gen *g, unsigned reg, char ch);
bool gen_stmt_if(struct gen *g, unsigned budget, enum gctx ctx);
bool gen_stmt_loop(struct gen *g, unsigned budget);
bool gen_stmt_brk(struct gen *g, enum gctx ctx);
bool gen_stmt_switch(struct gen *g, unsigned budget, enum gctx ctx);

/* gen_mem.c */
void gen_mem_setup(struct gen *g);
void gen_mem_prologue(struct gen *g);
bool gen_stmt_mem(struct gen *g);
void gen_mem_loop_entry(struct gen *g);
bool gen_mem_store_slot(struct gen *g);
void gen_mem_epilogue(struct gen *g);
void gen_mem_declarations(struct gen *g, struct strbuf *h);

/* gen_shape.c */
bool gen_shape_sink_ok(struct gen *g);
bool gen_shape_sink(struct gen *g);

/* gen_geom.c */
void gen_geom_setup(struct gen *g);
const char *gen_in_reg(struct gen *g, unsigned i, char out[24]);
bool gen_stmt_emit(struct gen *g, enum gctx ctx);
void gen_geom_start(struct gen *g);
void gen_geom_end(struct gen *g);
void gen_geom_declarations(struct gen *g, struct strbuf *h);

/* gen_tess.c */
bool gen_tess(const struct gen *g);
void gen_tess_setup(struct gen *g);
const char *gen_out_reg(const struct gen *g, unsigned i, char out[24]);
bool gen_tess_coord(struct gen *g, struct opnd *o);
void gen_tess_start(struct gen *g);
void gen_tess_prologue(struct gen *g);
bool gen_stmt_tess_out(struct gen *g);
void gen_tess_epilogue(struct gen *g);
void gen_tess_declarations(struct gen *g, struct strbuf *h);

/* gen_wide.c */
bool gen_stmt_wide(struct gen *g);

#endif
