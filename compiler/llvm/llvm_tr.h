/*
 * The TGSI -> LLVM IR translator's state and helpers, shared by its four
 * files (llvm_tgsi*.c); not for use outside compiler/llvm.
 */
#ifndef DC_LLVM_TR_H
#define DC_LLVM_TR_H

#include "compiler/llvm/llvm.h"

typedef uint64_t val; /* %vN (N < 2^32), or VK | a 32-bit constant */
#define VK      (1ull << 32)
#define K(x)    (VK | (uint32_t)(x))
#define IS_K(v) (((v)&VK) != 0)
#define FK(x)   K(fui(x)) /* a float constant */
/* Arguments are %a0, %a1, ...; the entry block copies each to %vN with
 * N = ARG_ID(n), so they are ordinary values. */
#define ARG_ID(n)     ((val)(0x80000000u + (n)))
#define MAX_INLINE    8
#define MAX_SGPR_ARGS 44  /* llc assigns inreg arguments s0..s43 */
#define MAX_VGPR_ARGS 136 /* and the others v0..v135 */

struct phi {
   unsigned var;
   val res;
   val *v;
   unsigned *blk;
   unsigned n, cap;
};

struct block {
   struct strbuf body;
   struct phi *phis;
   unsigned nphis, phis_cap;
   bool term;
};

struct edge {
   val *state;
   unsigned blk;
};

struct edges {
   struct edge *v;
   unsigned n, cap;
};

enum frame_kind { FR_IF, FR_LOOP, FR_SWITCH, FR_SUB };

struct frame {
   enum frame_kind kind;
   unsigned end;       /* merge block: ENDIF, loop exit, ENDSWITCH, return */
   unsigned other;     /* IF: the ELSE block; LOOP: the header */
   unsigned entry_blk; /* IF/SWITCH: the block that branched */
   val *entry;         /* IF/SWITCH: the state there */
   struct edges in;    /* edges into `end` */
   bool has_else, has_default;
   unsigned *cases;       /* SWITCH: block per instruction index offset (0: none) */
   unsigned first;        /* SWITCH: instruction index of the SWITCH */
   unsigned *eb, *ec, ne; /* SWITCH: edges from the switch per target block */
};

struct arg {
   char kind; /* 's' inreg, 'v' VGPR */
   char *bind;
};

struct tr {
   const struct tgsi_shader *s;
   struct diag_list *d;
   bool failed;
   struct arg *args;
   unsigned nargs, args_cap, nsgpr, nvgpr;
   char **dirs;
   unsigned ndirs, dirs_cap;
   /* variables: TEMP, OUT, ADDR channels */
   unsigned base[TGSI_FILE_COUNT], count[TGSI_FILE_COUNT];
   unsigned nvars;
   val *cur;
   /* argument value per (file, index, chan); constants by key */
   val *in_arg, *sv_arg;
   unsigned nin, nsv;
   uint32_t *ckey;
   val *carg;
   unsigned nconst, nconst_cap;
   /* the function */
   struct block *blocks;
   unsigned nblocks, blocks_cap, cb;
   uint32_t nid;
   struct frame fr[64];
   unsigned depth, inline_depth;
   unsigned exit;
   struct edges exits;
   struct strbuf decls;
   uint32_t declared; /* intrinsic declarations emitted (bit per kind) */
   bool invariant;    /* an INVARIANT output: nothing may fuse (its inputs are exact) */
   bool uses_lds;
   uint32_t lds_bytes;
   val buf_base[32], buf_size[32], lds_size;
   val img_base[32], img_size[32][3]; /* IMAGE i: linear texels at its address */
   val rsrc[32][8];                   /* texture unit: its resource descriptor's arguments */
   int target[32];                    /* and its target, -1: none */
   unsigned cur_insn;
   /* Past the argument limits (llvm_from_tgsi's second try): constants
    * are loaded from their buffer's memory through an inreg pointer, and
    * texture descriptors are immediates. */
   bool cmem, over;
   val cbuf[32];        /* CONST buffer b's i32 addrspace(4)* (0: not yet) */
   struct strbuf entry; /* the entry block's loads, before any branch */
};

enum intr {
   IN_FABS,
   IN_MINNUM,
   IN_MAXNUM,
   IN_FMA,
   IN_FLOOR,
   IN_CEIL,
   IN_TRUNC,
   IN_RINT,
   IN_SQRT,
   IN_EXP2,
   IN_LOG2,
   IN_SIN,
   IN_COS,
   IN_RCP,
   IN_RSQ,
   IN_LEGACY_MUL,
   IN_LDEXP,
   IN_BITREV,
   IN_CTPOP,
   IN_CTLZ,
   IN_CTTZ,
   IN_KILL,
   IN_BARRIER,
   IN_FPTRUNC16,
   IN_SWIZZLE,
   IN_WQM,
   IN_DEMOTE,
   IN_COUNT
};

/* llvm_tgsi.c: diagnostics, values, arguments, registers, the instruction loop */
bool DC_PRINTF(3, 4) tr_fail(struct tr *t, const struct tgsi_insn *in, const char *fmt, ...);
const char *tr_v(val v);
struct block *tr_blk(struct tr *t);
unsigned tr_new_block(struct tr *t);
val DC_PRINTF(2, 3) tr_emit(struct tr *t, const char *fmt, ...);
void DC_PRINTF(2, 3) tr_emit0(struct tr *t, const char *fmt, ...);
void tr_br(struct tr *t, unsigned to);
val *tr_snap(struct tr *t);
void tr_add_edge(struct tr *t, struct edges *e);
void tr_phi_add(struct phi *p, val v, unsigned b);
void tr_join(struct tr *t, unsigned b, struct edges *e);
val tr_f(struct tr *t, val v);
val tr_i(struct tr *t, val fv);
void tr_use(struct tr *t, enum intr k);
val tr_f1(struct tr *t, enum intr k, const char *name, val a);
val tr_f2(struct tr *t, enum intr k, const char *name, val a, val b);
val tr_fbin(struct tr *t, const char *op, const char *flags, val a, val b);
val tr_ibin(struct tr *t, const char *op, val a, val b);
val tr_fcmp(struct tr *t, const char *cc, val a, val b);
val tr_icmp(struct tr *t, const char *cc, val a, val b);
val tr_sel(struct tr *t, val c, val a, val b);
val tr_mask_of(struct tr *t, val c);
void DC_PRINTF(3, 4) tr_new_arg(struct tr *t, char kind, const char *fmt, ...);
void DC_PRINTF(2, 3) tr_directive(struct tr *t, const char *fmt, ...);
bool tr_is_var_file(enum tgsi_file f);
unsigned tr_var_of(struct tr *t, enum tgsi_file f, unsigned idx, unsigned c);
void tr_ind_range(struct tr *t, const struct tgsi_reg *r, unsigned *lo, unsigned *hi);
val tr_fetch_chan(struct tr *t, const struct tgsi_insn *in, const struct tgsi_reg *r, unsigned c);
val tr_src(struct tr *t, const struct tgsi_insn *in, unsigned si, unsigned c);
void tr_store(struct tr *t, const struct tgsi_insn *in, unsigned c, val v);
bool tr_translate_range(struct tr *t, unsigned a, unsigned b);

/* llvm_tgsi_alu.c: arithmetic */
bool tr_alu(struct tr *t, const struct tgsi_insn *in);
bool tr_deriv(struct tr *t, const struct tgsi_insn *in);
bool tr_subgroup(struct tr *t, const struct tgsi_insn *in);
bool tr_interp(struct tr *t, const struct tgsi_insn *in);
bool tr_sample_info(struct tr *t, const struct tgsi_insn *in);

/* llvm_tgsi_wide.c: doubles and 64-bit integers */
bool tr_wide(struct tr *t, const struct tgsi_insn *in);

/* llvm_tgsi_mem.c: buffers, shared memory, textures */
void tr_declare(struct tr *t, const char *decl);
bool tr_mem_load(struct tr *t, const struct tgsi_insn *in);
bool tr_mem_store(struct tr *t, const struct tgsi_insn *in);
bool tr_mem_atomic(struct tr *t, const struct tgsi_insn *in);
bool tr_resq(struct tr *t, const struct tgsi_insn *in);
bool tr_declare_textures(struct tr *t);
bool tr_tex_sample(struct tr *t, const struct tgsi_insn *in);
bool tr_tex_fetch(struct tr *t, const struct tgsi_insn *in);
bool tr_tex_query(struct tr *t, const struct tgsi_insn *in);
bool tr_tex_lodq(struct tr *t, const struct tgsi_insn *in);

/* llvm_tgsi_flow.c: structured control flow, subroutines, KILL */
bool tr_do_if(struct tr *t, const struct tgsi_insn *in);
bool tr_do_else(struct tr *t, const struct tgsi_insn *in);
bool tr_do_endif(struct tr *t, const struct tgsi_insn *in);
bool tr_do_bgnloop(struct tr *t, const struct tgsi_insn *in, unsigned pc);
bool tr_do_endloop(struct tr *t, const struct tgsi_insn *in);
bool tr_do_brk(struct tr *t, const struct tgsi_insn *in);
bool tr_do_cont(struct tr *t, const struct tgsi_insn *in);
bool tr_do_switch(struct tr *t, const struct tgsi_insn *in, unsigned pc);
bool tr_do_case(struct tr *t, const struct tgsi_insn *in, unsigned pc);
bool tr_do_endswitch(struct tr *t, const struct tgsi_insn *in);
bool tr_do_ret(struct tr *t);
bool tr_do_cal(struct tr *t, const struct tgsi_insn *in);
bool tr_do_kill(struct tr *t, const struct tgsi_insn *in);

#endif
