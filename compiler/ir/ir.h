/*
 * The optimizing compiler's IR: scalar SSA over structured control flow.
 *
 * Values. Every instruction defines at most one value, numbered %id. Values
 * are untyped bits of a fixed width: 32 (W), 64 (L) or a 4 x 32 tuple (V4)
 * that only texture and image loads produce (and, in the backend, FP64
 * instructions: a register pair) and only `extract` reads. The op
 * decides how the bits are read (fadd reads floats, iadd integers), as in
 * TGSI, so no casts exist. 64-bit values (doubles, int64) are one L value;
 * pack64/unpack64_lo/unpack64_hi move between an L value and two W halves.
 * Booleans are 32-bit masks (0 or ~0); `if` and bcsel test "!= 0".
 * NaN payloads are not significant: any NaN stands for any other NaN, so
 * x*1 -> x is exact even though it quiets a signalling NaN.
 *
 * Control flow is a tree like NIR's: a list holds nodes, alternating
 * block, (if | loop), block, ... and always starts and ends with a block.
 * An `if` tests a 32-bit value and owns a then list and an else list; a
 * `loop` owns a body list and runs until a `break`. `break` and `continue`
 * are instructions; one must be the last instruction of its block, and that
 * block the last node of its list (code after a jump is unreachable, so it
 * is never built). There is no other jump and no return: the front end
 * turns RET and SWITCH into loops and ifs.
 *
 * Phis sit at the start of a block, one source per predecessor, and name
 * the predecessor: `%9 = phi @2 %5, @4 %8`. Predecessors are implied by the
 * tree (ir_compute_cfg) and always listed in program order:
 *   first block of then/else: the block before the if;
 *   block after an if: the ends of the then and else lists that fall through;
 *   first block of a loop body (the header): the block before the loop, then
 *     every block ending in `continue` and the fall-through end of the body;
 *   block after a loop: every block ending in `break`.
 * So a block has one predecessor unless it follows an if or heads a loop;
 * scheduling works on straight-line blocks, and RA and hazard insertion see
 * a CFG whose back edges are exactly the header's later predecessors.
 *
 * Every value carries two flags. `precise` comes from TGSI _PRECISE;
 * `invariant` marks values that reach an INVARIANT output
 * (ir_mark_invariant). Inexact transformations must leave both alone.
 * Removed instructions stay allocated, flagged `removed`, until the shader
 * is freed, so the validator can report a use of one.
 *
 * Undefined reads. The front end reads a never-written TEMP/OUT/ADDR channel
 * as 0 and indirectly addressed TEMP arrays start as zeros, like tgsi_exec's
 * first run.
 *
 * Where the op table leaves a result to the target (APPROX and UNDEF ops),
 * the target's answer is isa/sem.h's: the constant folder and the IR
 * evaluator both compute 32-bit ops through it.
 *
 * Files: ir.c (core, CFG, dominators, invariance), ir_print.c/ir_parse.c
 * (text), ir_validate.c, ir_eval.c (one-invocation interpreter for tests),
 * ir_from_tgsi*.c (front end), pass.c (pass manager and pipeline);
 * compiler/opt/opt_*.c hold one generic pass each. No inexact rewrite
 * depends on how many users a value has (seed 003).
 */
#ifndef DC_IR_H
#define DC_IR_H

#include "compiler/compiler.h"
#include "compiler/tgsi/tgsi.h"
#include "isa/isa.h"
#include "isa/sem.h"
#include "util/util.h"

/* ------------------------------------------------------------------ */
/* The op table                                                         */

/*
 * X(ENUM, name, sources, result, source width, flags, fields)
 *   sources: a count, or V (variable: phi, tex, image and atomic ops)
 *   result:  N none, W 32, L 64, V4 tuple, S same as the sources (mov, phi),
 *            T fixed per instruction (imm: W, or L with ".64")
 *   source:  N, W, L, V4, A (all equal, W or L), LW (src0 L, the rest W),
 *            BS (src0 W, then the sources of the result width)
 *   flags:   COMM   first two sources commute (bit-exact, NaN payload aside)
 *            SIDE   has an effect: never removed or merged
 *            LOAD   reads memory a store can change: removable, never merged
 *            CONV   reads other lanes (derivatives): never merged across blocks
 *            FLT    rounds: an inexact rewrite changes its result
 *            APPROX precision is left to the target (transcendentals, rcp, ...)
 *            UNDEF  some inputs give target-defined results (see below)
 *            JUMP   ends a block (break, continue)
 *   fields:  which instruction fields the op may carry (enum ir_field)
 *
 * Defined edge cases (TGSI's): udiv/umod by 0 give ~0; idiv by 0 gives 0,
 * imod by 0 gives -1; INT_MIN/-1 gives INT_MIN and INT_MIN%-1 gives 0 (hosts
 * trap there: flagged UNDEF); shift counts are masked to 5 (6 for 64-bit)
 * bits; f2i/f2u of NaN or out of range, and bfe/bfi with offset+bits > 32,
 * are UNDEF. fmin/fmax return the non-NaN operand; with +0/-0 the result is
 * target-defined, so they are not marked COMM. fsat maps NaN to 0.
 * seq/sne/slt/sge give 1.0/0.0; feq..fge and ieq..uge give ~0/0; fne and
 * sne are unordered (true on NaN), the others ordered.
 *
 * Subgroups are the target's wave: 32 lanes (the sm50 warp) or 64 (gfx9,
 * opt_options.subgroup_size), and the subgroup ops see its active lanes
 * only, so like derivatives (CONV) they never move to another block.
 * ballot: bit i set where lane i (0..31) is active and src0 != 0;
 * ballot_hi the same for lanes 32..63 (64-lane subgroups only).
 * read_invoc: src0 of lane src1 of the subgroup (undefined when that lane
 * is inactive or past the subgroup). read_first: src0 of the first active
 * lane (64-lane subgroups only). On 32 lanes the front end builds the TGSI
 * votes and READ_FIRST from ballot and read_invoc (vote_any(v) = ballot(v)
 * != 0, read_first(v) = read_invoc(v, find_lsb(ballot(~0)))); on 64 from
 * ballot | ballot_hi and read_first.
 */
/* clang-format off */
#define IR_OPS(X) \
   /* values */ \
   X(IMM,             imm,            0, T,  N,  0, 0) \
   X(MOV,             mov,            1, S,  A,  0, 0) \
   X(PHI,             phi,            V, S,  A,  0, 0) \
   X(EXTRACT,         extract,        1, W,  V4, 0, IR_FB_COMP) \
   /* float */ \
   X(FADD,            fadd,           2, W,  W,  COMM | FLT, 0) \
   X(FMUL,            fmul,           2, W,  W,  COMM | FLT, 0) \
   X(FFMA,            ffma,           3, W,  W,  FLT, 0) \
   X(FMAD,            fmad,           3, W,  W,  FLT, 0) \
   X(FDIV,            fdiv,           2, W,  W,  FLT, 0) \
   X(FMIN,            fmin,           2, W,  W,  FLT, 0) \
   X(FMAX,            fmax,           2, W,  W,  FLT, 0) \
   X(FNEG,            fneg,           1, W,  W,  0, 0) \
   X(FABS,            fabs,           1, W,  W,  0, 0) \
   X(FSAT,            fsat,           1, W,  W,  FLT, 0) \
   X(FRCP,            frcp,           1, W,  W,  FLT | APPROX, 0) \
   X(FRSQ,            frsq,           1, W,  W,  FLT | APPROX, 0) \
   X(FSQRT,           fsqrt,          1, W,  W,  FLT | APPROX, 0) \
   X(FEXP2,           fexp2,          1, W,  W,  FLT | APPROX, 0) \
   X(FLOG2,           flog2,          1, W,  W,  FLT | APPROX, 0) \
   X(FPOW,            fpow,           2, W,  W,  FLT | APPROX, 0) \
   X(FSIN,            fsin,           1, W,  W,  FLT | APPROX, 0) \
   X(FCOS,            fcos,           1, W,  W,  FLT | APPROX, 0) \
   X(FFLOOR,          ffloor,         1, W,  W,  0, 0) \
   X(FCEIL,           fceil,          1, W,  W,  0, 0) \
   X(FTRUNC,          ftrunc,         1, W,  W,  0, 0) \
   X(FROUND_EVEN,     fround_even,    1, W,  W,  0, 0) \
   X(FFRACT,          ffract,         1, W,  W,  FLT, 0) \
   X(FSIGN,           fsign,          1, W,  W,  0, 0) \
   X(FLDEXP,          fldexp,         2, W,  W,  FLT, 0) \
   X(DDX,             ddx,            1, W,  W,  CONV | FLT, 0) \
   X(DDY,             ddy,            1, W,  W,  CONV | FLT, 0) \
   X(DDX_FINE,        ddx_fine,       1, W,  W,  CONV | FLT, 0) \
   X(DDY_FINE,        ddy_fine,       1, W,  W,  CONV | FLT, 0) \
   /* subgroups (see above) */ \
   X(BALLOT,          ballot,         1, W,  W,  CONV, 0) \
   X(READ_INVOC,      read_invoc,     2, W,  W,  CONV, 0) \
   X(BALLOT_HI,       ballot_hi,      1, W,  W,  CONV, 0) \
   X(READ_FIRST,      read_first,     1, W,  W,  CONV, 0) \
   /* compares and select */ \
   X(FEQ,             feq,            2, W,  W,  COMM, 0) \
   X(FNE,             fne,            2, W,  W,  COMM, 0) \
   X(FLT,             flt,            2, W,  W,  0, 0) \
   X(FGE,             fge,            2, W,  W,  0, 0) \
   X(SEQ,             seq,            2, W,  W,  COMM, 0) \
   X(SNE,             sne,            2, W,  W,  COMM, 0) \
   X(SLT,             slt,            2, W,  W,  0, 0) \
   X(SGE,             sge,            2, W,  W,  0, 0) \
   X(IEQ,             ieq,            2, W,  W,  COMM, 0) \
   X(INE,             ine,            2, W,  W,  COMM, 0) \
   X(ILT,             ilt,            2, W,  W,  0, 0) \
   X(IGE,             ige,            2, W,  W,  0, 0) \
   X(ULT,             ult,            2, W,  W,  0, 0) \
   X(UGE,             uge,            2, W,  W,  0, 0) \
   X(BCSEL,           bcsel,          3, S,  BS, 0, 0) \
   /* integer */ \
   X(IADD,            iadd,           2, W,  W,  COMM, 0) \
   X(ISUB,            isub,           2, W,  W,  0, 0) \
   X(IMUL,            imul,           2, W,  W,  COMM, 0) \
   X(IMUL_HI,         imul_hi,        2, W,  W,  COMM, 0) \
   X(UMUL_HI,         umul_hi,        2, W,  W,  COMM, 0) \
   X(INEG,            ineg,           1, W,  W,  0, 0) \
   X(IABS,            iabs,           1, W,  W,  0, 0) \
   X(ISIGN,           isign,          1, W,  W,  0, 0) \
   X(IAND,            iand,           2, W,  W,  COMM, 0) \
   X(IOR,             ior,            2, W,  W,  COMM, 0) \
   X(IXOR,            ixor,           2, W,  W,  COMM, 0) \
   X(INOT,            inot,           1, W,  W,  0, 0) \
   X(ISHL,            ishl,           2, W,  W,  0, 0) \
   X(ISHR,            ishr,           2, W,  W,  0, 0) \
   X(USHR,            ushr,           2, W,  W,  0, 0) \
   X(IMIN,            imin,           2, W,  W,  COMM, 0) \
   X(IMAX,            imax,           2, W,  W,  COMM, 0) \
   X(UMIN,            umin,           2, W,  W,  COMM, 0) \
   X(UMAX,            umax,           2, W,  W,  COMM, 0) \
   X(UDIV,            udiv,           2, W,  W,  0, 0) \
   X(UMOD,            umod,           2, W,  W,  0, 0) \
   X(IDIV,            idiv,           2, W,  W,  UNDEF, 0) \
   X(IMOD,            imod,           2, W,  W,  UNDEF, 0) \
   X(IBFE,            ibfe,           3, W,  W,  UNDEF, 0) \
   X(UBFE,            ubfe,           3, W,  W,  UNDEF, 0) \
   X(BFI,             bfi,            4, W,  W,  UNDEF, 0) \
   X(BITREV,          bitrev,         1, W,  W,  0, 0) \
   X(BITCOUNT,        bitcount,       1, W,  W,  0, 0) \
   X(FIND_LSB,        find_lsb,       1, W,  W,  0, 0) \
   X(IFIND_MSB,       ifind_msb,      1, W,  W,  0, 0) \
   X(UFIND_MSB,       ufind_msb,      1, W,  W,  0, 0) \
   /* conversions */ \
   X(F2I,             f2i,            1, W,  W,  UNDEF, 0) \
   X(F2U,             f2u,            1, W,  W,  UNDEF, 0) \
   X(I2F,             i2f,            1, W,  W,  0, 0) \
   X(U2F,             u2f,            1, W,  W,  0, 0) \
   X(PACK_HALF,       pack_half,      2, W,  W,  0, 0) \
   X(UNPACK_HALF_LO,  unpack_half_lo, 1, W,  W,  0, 0) \
   X(UNPACK_HALF_HI,  unpack_half_hi, 1, W,  W,  0, 0) \
   /* 64-bit */ \
   X(PACK64,          pack64,         2, L,  W,  0, 0) \
   X(UNPACK64_LO,     unpack64_lo,    1, W,  L,  0, 0) \
   X(UNPACK64_HI,     unpack64_hi,    1, W,  L,  0, 0) \
   X(DADD,            dadd,           2, L,  L,  COMM | FLT, 0) \
   X(DMUL,            dmul,           2, L,  L,  COMM | FLT, 0) \
   X(DFMA,            dfma,           3, L,  L,  FLT, 0) \
   X(DDIV,            ddiv,           2, L,  L,  FLT, 0) \
   X(DMIN,            dmin,           2, L,  L,  FLT, 0) \
   X(DMAX,            dmax,           2, L,  L,  FLT, 0) \
   X(DNEG,            dneg,           1, L,  L,  0, 0) \
   X(DABS,            dabs,           1, L,  L,  0, 0) \
   X(DRCP,            drcp,           1, L,  L,  FLT | APPROX, 0) \
   X(DSQRT,           dsqrt,          1, L,  L,  FLT | APPROX, 0) \
   X(DRSQ,            drsq,           1, L,  L,  FLT | APPROX, 0) \
   X(DFLOOR,          dfloor,         1, L,  L,  0, 0) \
   X(DCEIL,           dceil,          1, L,  L,  0, 0) \
   X(DTRUNC,          dtrunc,         1, L,  L,  0, 0) \
   X(DROUND_EVEN,     dround_even,    1, L,  L,  0, 0) \
   X(DFRACT,          dfract,         1, L,  L,  FLT, 0) \
   X(DSIGN,           dsign,          1, L,  L,  0, 0) \
   X(DLDEXP,          dldexp,         2, L,  LW, FLT, 0) \
   X(DEQ,             deq,            2, W,  L,  COMM, 0) \
   X(DNE,             dne,            2, W,  L,  COMM, 0) \
   X(DLT,             dlt,            2, W,  L,  0, 0) \
   X(DGE,             dge,            2, W,  L,  0, 0) \
   X(F2D,             f2d,            1, L,  W,  0, 0) \
   X(D2F,             d2f,            1, W,  L,  FLT, 0) \
   X(D2I,             d2i,            1, W,  L,  UNDEF, 0) \
   X(D2U,             d2u,            1, W,  L,  UNDEF, 0) \
   X(I2D,             i2d,            1, L,  W,  0, 0) \
   X(U2D,             u2d,            1, L,  W,  0, 0) \
   X(IADD64,          iadd64,         2, L,  L,  COMM, 0) \
   X(IMUL64,          imul64,         2, L,  L,  COMM, 0) \
   X(INEG64,          ineg64,         1, L,  L,  0, 0) \
   X(IABS64,          iabs64,         1, L,  L,  0, 0) \
   X(ISIGN64,         isign64,        1, L,  L,  0, 0) \
   X(ISHL64,          ishl64,         2, L,  LW, 0, 0) \
   X(ISHR64,          ishr64,         2, L,  LW, 0, 0) \
   X(USHR64,          ushr64,         2, L,  LW, 0, 0) \
   X(IMIN64,          imin64,         2, L,  L,  COMM, 0) \
   X(IMAX64,          imax64,         2, L,  L,  COMM, 0) \
   X(UMIN64,          umin64,         2, L,  L,  COMM, 0) \
   X(UMAX64,          umax64,         2, L,  L,  COMM, 0) \
   X(IDIV64,          idiv64,         2, L,  L,  UNDEF, 0) \
   X(IMOD64,          imod64,         2, L,  L,  UNDEF, 0) \
   X(UDIV64,          udiv64,         2, L,  L,  0, 0) \
   X(UMOD64,          umod64,         2, L,  L,  0, 0) \
   X(IEQ64,           ieq64,          2, W,  L,  COMM, 0) \
   X(INE64,           ine64,          2, W,  L,  COMM, 0) \
   X(ILT64,           ilt64,          2, W,  L,  0, 0) \
   X(IGE64,           ige64,          2, W,  L,  0, 0) \
   X(ULT64,           ult64,          2, W,  L,  0, 0) \
   X(UGE64,           uge64,          2, W,  L,  0, 0) \
   X(I2I64,           i2i64,          1, L,  W,  0, 0) \
   X(U2U64,           u2u64,          1, L,  W,  0, 0) \
   X(F2I64,           f2i64,          1, L,  W,  UNDEF, 0) \
   X(F2U64,           f2u64,          1, L,  W,  UNDEF, 0) \
   X(D2I64,           d2i64,          1, L,  L,  UNDEF, 0) \
   X(D2U64,           d2u64,          1, L,  L,  UNDEF, 0) \
   X(I642F,           i642f,          1, W,  L,  0, 0) \
   X(U642F,           u642f,          1, W,  L,  0, 0) \
   X(I642D,           i642d,          1, L,  L,  0, 0) \
   X(U642D,           u642d,          1, L,  L,  0, 0) \
   /* inputs, constants, outputs; the _ind forms add src0 to slot */ \
   X(LOAD_INPUT,      load_input,     0, W,  N,  0, IR_FB_SLOT | IR_FB_COMP | IR_FB_VTX) \
   X(LOAD_INPUT_IND,  load_input_ind, 1, W,  W,  0, IR_FB_SLOT | IR_FB_COMP | IR_FB_VTX) \
   X(LOAD_INPUT_VIND, load_input_vind,1, W,  W,  0, IR_FB_SLOT | IR_FB_COMP) \
   X(INTERP_CENTROID, interp_centroid,0, W,  N,  0, IR_FB_SLOT | IR_FB_COMP) \
   X(INTERP_SAMPLE,   interp_sample,  1, W,  W,  0, IR_FB_SLOT | IR_FB_COMP) \
   X(INTERP_OFFSET,   interp_offset,  2, W,  W,  0, IR_FB_SLOT | IR_FB_COMP) \
   X(LOAD_CONST,      load_const,     0, W,  N,  0, IR_FB_BUF | IR_FB_SLOT | IR_FB_COMP) \
   X(LOAD_CONST_IND,  load_const_ind, 1, W,  W,  0, IR_FB_BUF | IR_FB_SLOT | IR_FB_COMP) \
   X(LOAD_SYSVAL,     load_sysval,    0, W,  N,  0, IR_FB_SV | IR_FB_COMP) \
   X(STORE_OUTPUT,    store_output,   1, N,  W,  SIDE, IR_FB_SLOT | IR_FB_COMP) \
   /* tessellation control: OUT[src0][slot].comp = src1, stored at once */ \
   X(STORE_OUTPUT_VTX, store_output_vtx, 2, N, W,  SIDE, IR_FB_SLOT | IR_FB_COMP) \
   /* indirectly addressed TEMP arrays (slot is relative to the array) */ \
   X(ARRAY_LOAD,      array_load,     0, W,  N,  LOAD, IR_FB_ARR | IR_FB_SLOT | IR_FB_COMP) \
   X(ARRAY_LOAD_IND,  array_load_ind, 1, W,  W,  LOAD, IR_FB_ARR | IR_FB_SLOT | IR_FB_COMP) \
   X(ARRAY_STORE,     array_store,    1, N,  W,  SIDE, IR_FB_ARR | IR_FB_SLOT | IR_FB_COMP) \
   X(ARRAY_STORE_IND, array_store_ind,2, N,  W,  SIDE, IR_FB_ARR | IR_FB_SLOT | IR_FB_COMP) \
   /* memory: buffers and shared memory take a byte address, one dword */ \
   X(LOAD_BUFFER,     load_buffer,    1, W,  W,  LOAD, IR_FB_RES) \
   X(STORE_BUFFER,    store_buffer,   2, N,  W,  SIDE, IR_FB_RES) \
   X(LOAD_SHARED,     load_shared,    1, W,  W,  LOAD, IR_FB_RES) \
   X(STORE_SHARED,    store_shared,   2, N,  W,  SIDE, IR_FB_RES) \
   X(IMAGE_LOAD,      image_load,     V, V4, W,  LOAD, IR_FB_RES | IR_FB_TARGET) \
   X(IMAGE_STORE,     image_store,    V, N,  W,  SIDE, IR_FB_RES | IR_FB_TARGET) \
   X(ATOMIC,          atomic,         V, W,  W,  SIDE, \
     IR_FB_SPACE | IR_FB_AOP | IR_FB_RES | IR_FB_TARGET) \
   X(RES_SIZE,        res_size,       0, V4, N,  0, IR_FB_SPACE | IR_FB_RES | IR_FB_TARGET) \
   X(TEX,             tex,            V, V4, W,  0, \
     IR_FB_KIND | IR_FB_TARGET | IR_FB_RES | IR_FB_SAMP | IR_FB_COMP) \
   /* effects */ \
   X(KILL,            kill,           0, N,  N,  SIDE, 0) \
   X(KILL_IF,         kill_if,        1, N,  W,  SIDE, 0) \
   X(DEMOTE,          demote,         0, N,  N,  SIDE, 0) \
   X(EMIT,            emit,           0, N,  N,  SIDE, IR_FB_STREAM) \
   X(END_PRIM,        end_prim,       0, N,  N,  SIDE, IR_FB_STREAM) \
   X(BARRIER,         barrier,        0, N,  N,  SIDE, 0) \
   X(MEMORY_BARRIER,  memory_barrier, 0, N,  N,  SIDE, 0) \
   X(BREAK,           break,          0, N,  N,  SIDE | JUMP, 0) \
   X(CONTINUE,        continue,       0, N,  N,  SIDE | JUMP, 0) \
   /* backend: one instruction of sh->model (see the backend section) */ \
   X(MACH,            mach,           V, T,  N,  SIDE, 0)
/* clang-format on */

#define IR_OP_ENUM_(e, name, ns, rt, st, fl, fd) IR_OP_##e,
enum ir_op { IR_OPS(IR_OP_ENUM_) IR_OP_COUNT };
#undef IR_OP_ENUM_

enum ir_op_flags {
   IR_OPF_COMM = 1 << 0,
   IR_OPF_SIDE = 1 << 1,
   IR_OPF_LOAD = 1 << 2,
   IR_OPF_CONV = 1 << 3,
   IR_OPF_FLT = 1 << 4,
   IR_OPF_APPROX = 1 << 5,
   IR_OPF_UNDEF = 1 << 6,
   IR_OPF_JUMP = 1 << 7,
};

/* Value widths. */
enum ir_type {
   IR_TYPE_NONE,
   IR_TYPE_32,
   IR_TYPE_64,
   IR_TYPE_V4,
};

/* Result and source width codes of the op table. */
enum ir_tcode {
   IR_TC_N,
   IR_TC_W,
   IR_TC_L,
   IR_TC_V4,
   IR_TC_S,
   IR_TC_T,
   IR_TC_A,
   IR_TC_LW,
   IR_TC_BS,
};

#define IR_NSRC_VAR 0xff

struct ir_op_info {
   const char *name;
   uint8_t nsrc;    /* IR_NSRC_VAR: variable */
   uint8_t dst;     /* enum ir_tcode */
   uint8_t src;     /* enum ir_tcode */
   uint8_t flags;   /* enum ir_op_flags */
   uint16_t fields; /* bit (1 << enum ir_field) */
};

/* ------------------------------------------------------------------ */
/* Instruction fields                                                   */

/* FIELD(enum suffix, struct member, text name). A field holds IR_NONE when
 * absent; the printer shows only the fields that are set. */
#define IR_FIELDS(F)                                                                               \
   F(KIND, kind, "kind")                                                                           \
   F(SPACE, space, "space")                                                                        \
   F(AOP, aop, "aop")                                                                              \
   F(TARGET, target, "target")                                                                     \
   F(RES, res, "res")                                                                              \
   F(SAMP, samp, "samp")                                                                           \
   F(BUF, buf, "buf")                                                                              \
   F(ARR, arr, "arr")                                                                              \
   F(SV, sv, "sv")                                                                                 \
   F(SLOT, slot, "slot")                                                                           \
   F(COMP, comp, "comp")                                                                           \
   F(VTX, vtx, "vtx")                                                                              \
   F(STREAM, stream, "stream")

#define IR_FIELD_ENUM_(e, m, s) IR_FIELD_##e,
enum ir_field { IR_FIELDS(IR_FIELD_ENUM_) IR_FIELD_COUNT };
#undef IR_FIELD_ENUM_
#define IR_FIELD_BIT_(e, m, s) IR_FB_##e = 1 << IR_FIELD_##e,
enum { IR_FIELDS(IR_FIELD_BIT_) };
#undef IR_FIELD_BIT_

#define IR_NONE INT32_MIN

/* Texture instruction kinds (field KIND of tex). */
#define IR_TEX_KINDS(X) X(tex) X(txb) X(txl) X(txd) X(txf) X(txq) X(txqs) X(tg4) X(lodq)
#define IR_ENUM_(n)     IR_TEX_##n,
enum ir_tex_kind { IR_TEX_KINDS(IR_ENUM_) IR_TEX_KIND_COUNT };
#undef IR_ENUM_

/* What each source of a tex is; sources are sorted by role. */
#define IR_TEX_ROLES(X) X(coord) X(cmp) X(lod) X(bias) X(ddx) X(ddy) X(off) X(ms) X(proj)
#define IR_ENUM_(n)     IR_TEXSRC_##n,
enum ir_tex_role { IR_TEX_ROLES(IR_ENUM_) IR_TEXSRC_COUNT };
#undef IR_ENUM_

/* Memory spaces of atomics (field SPACE). */
#define IR_SPACES(X) X(buffer) X(shared) X(image)
#define IR_ENUM_(n)  IR_SPACE_##n,
enum ir_space { IR_SPACES(IR_ENUM_) IR_SPACE_COUNT };
#undef IR_ENUM_

/* Atomic operations (field AOP); cas takes compare then new value. */
#define IR_AOPS(X)                                                                                 \
   X(add)                                                                                          \
   X(xchg)                                                                                         \
   X(cas) X(and) X(or) X(xor) X(umin) X(umax) X(imin) X(imax) X(fadd) X(inc_wrap) X(dec_wrap)
#define IR_ENUM_(n) IR_AOP_##n,
enum ir_aop { IR_AOPS(IR_ENUM_) IR_AOP_COUNT };
#undef IR_ENUM_

#define IR_TEX_MAX_SRC 16
#define IR_MAX_CBUFS   16
/* Backend: a load_const with buf = IR_SIZE_BUF + tgsi_file reads component
 * comp of the size of resource slot (the driver's constants: EMU_BIND_SIZE). */
#define IR_SIZE_BUF 64
/* Backend: buffer accesses with res = IR_IMAGE_RES + i reach the texels of
 * image i (opt_images.c: EMU_ADDR_IMAGE(i) is that buffer's base). */
#define IR_IMAGE_RES 64
/* Backend: buffer loads with res = IR_CBUF_RES + b read constant buffer b
 * (EMU_ADDR_CONST(b) is that buffer's base; gfx9 indirect constants that
 * do not fit the scalar registers, opt_isel_mem.c). */
#define IR_CBUF_RES 96

/* ------------------------------------------------------------------ */
/* Shader structure                                                     */

enum ir_value_flags {
   IR_VF_PRECISE = 1 << 0,
   IR_VF_INVARIANT = 1 << 1,
};

struct ir_block;
struct ir_node;

/* One read of a value: source k of instruction user, or the condition of
 * if node `node` (user NULL). seq is the write that made it: an entry is
 * stale once that source is written again (ir_use_live). */
struct ir_use {
   struct ir_instr *user;
   struct ir_node *node;
   uint32_t k, seq;
};

#define IR_SRC_INLINE 3

struct ir_instr {
   enum ir_op op;
   uint8_t type;  /* enum ir_type of the result */
   uint8_t flags; /* enum ir_value_flags */
   bool removed;
   unsigned id; /* %id; shader->values[id] == this */
   struct ir_block *block;
   struct ir_instr *prev, *next;
   unsigned nsrc;
   struct ir_instr **src;
   struct ir_block **pred; /* phi: pred[i] is where src[i] comes from */
   uint8_t *role;          /* tex: enum ir_tex_role of each source */
   uint64_t imm;           /* imm: the bits (W: low 32) */
   int32_t kind, space, aop, target, res, samp, buf, arr, sv, slot, comp, vtx, stream;
   unsigned line; /* TGSI source line it came from; 0 = none */
   unsigned mark; /* scratch for passes */
   /* backend: the machine instruction and the register (or NULL) */
   struct ir_mach *mach;
   /* Use list: where this value is read (ir.c). Sources are written with
    * ir_set_src and if conditions with ir_set_cond, which keep it; entries
    * of rewritten sources go stale and are dropped lazily, so a pass that
    * writes src[] directly leaves a use out (the validator checks). */
   struct ir_use *uses;
   unsigned nuses, uses_cap;
   uint32_t *src_seq; /* by source: the seq of the write that set it (in src's allocation) */
   uint32_t seq;      /* source writes so far */
   unsigned src_cap;  /* entries src and src_seq have room for (ir_instr_set_nsrc) */
   /* src and src_seq while src_cap is IR_SRC_INLINE: most instructions
    * read at most that many values and need no allocation of their own */
   struct ir_instr *src_in[IR_SRC_INLINE];
   uint32_t src_seq_in[IR_SRC_INLINE];
};

enum ir_node_kind {
   IR_NODE_BLOCK,
   IR_NODE_IF,
   IR_NODE_LOOP,
};

struct ir_node;

/* A list of control-flow nodes: block, (if|loop), block, ..., block. */
struct ir_list {
   struct ir_node **v;
   unsigned n, cap;
};

struct ir_block {
   unsigned index; /* program order, set by ir_compute_cfg */
   struct ir_instr *first, *last;
   struct ir_node *node; /* the node holding this block */
   struct ir_shader *sh;
   /* Renewed from sh's count at creation and by every change to the
    * block's list (ir.c): ir_program_order's cache compares it. */
   uint64_t stamp;
   /* Set by ir_compute_cfg: */
   struct ir_block **preds, **succs;
   unsigned npreds, nsuccs, preds_cap, succs_cap;
   bool reachable;
   /* Set by ir_compute_dominance: */
   struct ir_block *idom;
   unsigned dom_pre, dom_post;
};

struct ir_node {
   enum ir_node_kind kind;
   struct ir_node *parent;              /* enclosing if/loop; NULL at top level */
   struct ir_list *list;                /* the list holding this node */
   struct ir_block *block;              /* IR_NODE_BLOCK */
   struct ir_instr *cond;               /* IR_NODE_IF */
   struct ir_list then_list, else_list; /* IR_NODE_IF */
   struct ir_list body;                 /* IR_NODE_LOOP */
   uint32_t cond_seq;                   /* IR_NODE_IF: the write of cond (ir_use) */
   unsigned at;                         /* a hint: its index in list (ir_node_index) */
};

struct ir_input {
   int32_t slot;
   enum tgsi_semantic sem;
   uint32_t sem_index;
   enum tgsi_interp interp;
   enum tgsi_location loc;
};

struct ir_output {
   int32_t slot;
   enum tgsi_semantic sem;
   uint32_t sem_index;
   bool invariant;
};

struct ir_array {
   int32_t id;
   int32_t slots; /* vec4 slots */
};

struct ir_shader {
   enum tgsi_stage stage;
   /* the source's name as the user gave it (the TGSI or IR file), which
    * every diagnostic about the shader names; owned, NULL when unknown */
   char *file;
   struct ir_list body;
   struct ir_instr **values; /* by id; removed ones stay until ir_sweep (then NULL) */
   unsigned nvalues, values_cap;
   /* Removed instructions ir_sweep took out of values: their arrays are
    * freed with the shader (or by ir_renumber). */
   struct ir_instr **swept;
   unsigned nswept, swept_cap;
   /* The instructions' memory: chunks filled in creation order, so a walk
    * in program order reads memory mostly in address order; an
    * instruction's struct lives until the shader is freed. */
   struct ir_instr **instr_chunks;
   unsigned ninstr_chunks, instr_chunks_cap, instr_chunk_used;
   struct ir_input *inputs;
   unsigned ninputs, inputs_cap;
   struct ir_output *outputs;
   unsigned noutputs, outputs_cap;
   struct ir_array *arrays;
   unsigned narrays, arrays_cap;
   /* Set by ir_compute_cfg: every block in program order. */
   struct ir_block **blocks;
   unsigned nblocks, blocks_cap;
   bool cfg_valid, dom_valid;
   /* backend: the ISA model of the machine-level IR (owned if parsed) */
   const struct isa_model *model;
   uint64_t stamps;        /* blocks' stamps handed out */
   struct ir_order *order; /* ir_program_order's last walk (ir.c) */
   bool owns_model;
   /* backend: declared constant-buffer sizes in slots ("cbuf B N"), which
    * indirect constant reads clamp to; 0 when unknown */
   uint32_t cbuf_slots[IR_MAX_CBUFS];
   /* backend: relative constant reads (c<a + k>, LDC) see buffers 0 ..
    * rel_cbufs - 1 one after another from slot 0 (isel sets it) */
   uint32_t rel_cbufs;
   /* opt_options.faults and the compile's context, for the fault hooks no
    * opt_ctx reaches (opt_run sets them; fault_ctx may be NULL) */
   struct opt_fault_set faults;
   struct opt_ctx *fault_ctx;
   /* vertices of per-vertex inputs (the front end: the interpreter's
    * count, GS input primitive or 4 for tessellation); 0 when unknown */
   uint32_t in_vertices;
};

/* Appends instructions at the end of a block (phis go first by hand). */
struct ir_builder {
   struct ir_shader *sh;
   struct ir_block *block;
   unsigned line;
};

/* ------------------------------------------------------------------ */
/* Pass manager                                                         */

/* The mandatory stages that have a conservative variant (conservative.c),
 * from the front of the backend to its end. half and wait are the agx
 * machine passes' (opt_agx.c), the others the shared backend's; a target
 * has the stages opt_target_stages gives. */
#define OPT_STAGES(X)                                                                              \
   X(JUMPS, "jumps")                                                                               \
   X(ISEL, "isel")                                                                                 \
   X(SCHED, "sched")                                                                               \
   X(LIVE, "live")                                                                                 \
   X(RA, "ra")                                                                                     \
   X(HALF, "half")                                                                                 \
   X(LEGALIZE, "legalize")                                                                         \
   X(HAZARD, "hazard")                                                                             \
   X(WAIT, "wait")                                                                                 \
   X(EMIT, "emit")
#define OPT_STAGE_ENUM_(e, name) OPT_STAGE_##e,
enum opt_stage { OPT_STAGES(OPT_STAGE_ENUM_) OPT_STAGE_COUNT };
#undef OPT_STAGE_ENUM_

struct opt_options {
   const char *passes;          /* comma list run once each in this order; NULL = pipeline */
   const char *disable;         /* comma list of passes not to run */
   const char *print_after;     /* comma list of passes (or "all") whose result is logged */
   bool bisect;                 /* log every transformation (BISECT lines) */
   long long bisect_limit;      /* with bisect: do at most this many; < 0 = no limit */
   long long dump_at;           /* with bisect, > 0: log the IR after the pass in which
                                   transformation dump_at was done or refused */
   bool bisect_firings;         /* with bisect: count (and limit) injected faults' firings
                                   only; every other transformation is made */
   bool fuse_ffma;              /* mul+add fuses into ffma (inexact) rather than fmad (exact) */
   bool inexact;                /* allow inexact algebraic rules on non-precise values */
   bool trig_unfolded;          /* the target's sin/cos are not libm's (gfx9: revolutions,
                                   the argument scaled first): constfold leaves them */
   bool validate;               /* validate after every pass even without DIFFCOMP_VALIDATE */
   unsigned subgroup_size;      /* lanes of a subgroup (the target's wave): 64, else 32 */
   struct opt_fault_set faults; /* injected bugs (fault.c); none in real use */
   bool no_verify;              /* no per-rewrite verification (opt_verify.c) */
   /* Conservative stages (conservative.c): bit OPT_STAGE_* runs that
    * mandatory stage's conservative variant, on the items cons_pick says
    * yes to (every item without one). hide_firings: an injected fault
    * fires everywhere uncounted, like the ordinary code it imitates. */
   unsigned conservative;
   bool (*cons_pick)(void *cons_ctx, enum opt_stage st, const char *item);
   void *cons_ctx;
   bool hide_firings;
};

/* The exactness a rewrite claims (opt_verify.c). */
enum opt_verify_class {
   OPT_VERIFY_EXACT,   /* bit-exact (a float NaN stands for any NaN) */
   OPT_VERIFY_INEXACT, /* +0/-0 and NaN -> number allowed: opts.inexact only */
   OPT_VERIFY_FUSED,   /* one rounding of mul + add: opts.fuse_ffma only */
};
struct opt_verify_saved;
struct opt_verify_memo;
#define OPT_FORMS_MAX 16 /* forms of one op the legalizer tries */

struct opt_ctx {
   struct opt_options opts;
   const char *pass; /* the pass running now */
   long long ntransforms;
   bool limit_hit;
   bool failed; /* validation failed; diags says why */
   char *log;   /* BISECT lines and print-after dumps */
   size_t log_len, log_cap;
   struct diag_list *diags;
   /* With bisect: each fault firing asked so far and the answer, so that
    * every later ask about the same instance agrees (pass.c) */
   struct opt_fault_seen *fault_seen;
   size_t fault_seen_n, fault_seen_cap; /* cap: a power of two, or 0 */
   bool firing;                         /* opt_transform is asked about a fault firing */
   /* Each conservative item asked so far and the answer (conservative.c) */
   struct opt_fault_seen *cons_seen;
   size_t cons_seen_n, cons_seen_cap;
   /* the first value id made after instruction selection (at the first
    * legalization; 0: not yet): values below it name legalize's items */
   unsigned cons_first_made;
   /* Per-rewrite verification (opt_verify.c): the shader being compiled
    * (opt_run_pass sets it), the last transformation's text, the first
    * value id it may have built, whether the next opt_replace is that
    * rewrite and the class it claims (set just before opt_transform or
    * opt_fault_fires; EXACT again after that replace, or when they do
    * not allow it, so it never passes to a later rewrite); the counts
    * of rewrites verified, left unverified (values it cannot compute)
    * and failed. */
   struct ir_shader *sh;
   char verify_what[160]; /* read through opt_verify_what */
   /* The text still to be made (pass.c, verify_note): the format while it
    * is pending (NULL: verify_what is made), its %u/%d values and %s
    * texts (copied into verify_strs, by offset). */
   const char *verify_fmt;
   uint32_t verify_args[8];
   char verify_strs[160];
   unsigned verify_first_new;
   bool verify_pending;
   enum opt_verify_class verify_class;
   unsigned long verify_count, verify_skipped, verify_failed;
   struct opt_verify_saved *verify_saved;
   struct opt_verify_memo *verify_memo; /* expressions verified so far */
   struct isa_check_memo *check_memo;   /* encodability verdicts (opt_check_insn) */
   uint16_t *forms_memo; /* per op: 1 + its forms' count, the forms (opt_legalize.c) */
   const struct isa_model *forms_model; /* the model forms_memo is of */
   const struct isa_model *copy_model;  /* the model copy_op is of (opt_copy_before) */
   unsigned copy_op;
   const char *rule; /* the rule opt_transform is asked about (coverage) */
   /* Sampled validation in release builds (pass.c): the credit toward the
    * next validation, the passes since the last one and its first pass. */
   unsigned long validate_credit;
   unsigned unvalidated;
   const char *unvalidated_from, *unvalidated_to;
   /* Predicate pressure (opt_compile): RA found the predicate file full
    * (pred_full), and the compile again with every compare result that
    * lives past its reader's position held in a general register as 0/~0,
    * each reader testing it anew right before itself (preds_in_gprs). */
   bool pred_full, preds_in_gprs;
   /* Uniform-file pressure (gfx9): RA found the uniform file full in a
    * shader whose indirect constants were selects over its slots (each
    * slot a scalar register; ind_selects), and the compile again with
    * those reads loaded from memory (ind_loads, opt_isel_mem.c). */
   bool unif_full, ind_selects, ind_loads;
   /* The control words the hazard pass computed for the layout it left
    * (stall-count models), which opt_emit takes instead of computing them
    * again: dropped when any pass starts (opt_run_pass), so they are only
    * there when hazard was the last pass to change the IR. */
   struct opt_control *controls;
   unsigned ncontrols;
};

typedef bool (*opt_pass_fn)(struct ir_shader *sh, struct opt_ctx *ctx);

struct opt_pass {
   const char *name;
   opt_pass_fn fn;
};

/* ------------------------------------------------------------------ */
/* Injected faults (compiler/opt/fault.c)                               */

/*
 * The fault catalog: real bug classes of GPU shader compilers that can be
 * switched on one at a time in the optimizing compiler, to prove that the
 * differential check catches each of them (`diffcomp faults --check`).
 * Each hook sits next to the correct code it breaks; with
 * opt_options.faults == 0 (real use) nothing changes and the cost is one
 * bit test.
 *
 * A fault firing -- the point where it makes the output differ, on one
 * instruction -- is one transformation: `if (opt_fault_fires(ctx,
 * OPT_FAULT_X, "what on which instruction", ...))` counts it through
 * opt_transform, so --opt-bisect-limit can stop before it and bisect names
 * it. The faulty deviation is the transformation; past the limit the
 * answer is no and the correct code runs (hazards inserted, registers
 * held, operands legalized). Analyses that ask about the same instance
 * again (fixed points, the control words emit recomputes, legalization
 * trials) get the first answer: the instance text is the key. opt_fault()
 * only says whether a fault is injected, for planning that does not by
 * itself change the output.
 *
 * X(ENUM, name, class, targets, pass, mode, description, fix)
 *   class:   SCHEDULE (delays, sync flags, stall counts, scoreboards),
 *            LEGALIZE (operands and forms), SELECT (instruction
 *            selection), REGALLOC, FOLD (folding and peepholes)
 *   targets: the models the fault exists on (comma list)
 *   pass:    where its hooks sit: a pass name ("emit" for the encoder), or a
 *            comma list when the same bug sits in two passes
 *   mode:    the check options that make it reachable ("" = defaults):
 *            a bug in an optional transform needs that transform on
 *   fix:     the real fix it imitates (Mesa/NAK/ACO commits, or the code)
 */
/* clang-format off */
#define OPT_FAULTS(X) \
   /* scheduling: a3xx delay slots and sync flags */ \
   X(DELAY_SHORT, "delay-slot-short", SCHEDULE, "a3xx", "hazard", "", \
     "every fixed-latency RAW distance one delay slot short", \
     "Mesa e8cca57a3f7, 603791bdebd (ir3: too few delay slots)") \
   X(READ_EARLY, "latency-class-ignored", SCHEDULE, "a3xx", "hazard", "", \
     "an ALU result read by an SFU/tex/flow op gets the ALU->ALU distance (3, not 6)", \
     "Mesa ir3_delay.c: alu -> sfu/tex/mem/flow needs 6 (e8cca57a3f7)") \
   X(SEL_SRC3, "sel-src3-late-read", SCHEDULE, "a3xx", "hazard", "", \
     "sel's third source given mad's late read (1 delay slot, not 3)", \
     "Mesa ir3_delay.c ir3_src_read_delay (mad/madsh src3 only)") \
   X(ADDR_DELAY, "addr-write-delay", SCHEDULE, "a3xx", "hazard", "", \
     "a0.x written 3 slots, not 6, before a relative read", \
     "Mesa ir3_delay.c address-register writers ((rpt5)nop after mova)") \
   X(MISSING_SS, "missing-ss", SCHEDULE, "a3xx", "hazard", "", \
     "no (ss) on the first reader of an SFU or local-load result", \
     "Mesa 016a9ab2f93 (bary.f (ei) without (ss))") \
   X(MISSING_SY, "missing-sy", SCHEDULE, "a3xx", "hazard", "", \
     "no (sy) on the first reader of a texture or global-load result", \
     "Mesa ir3_legalize.c is_sy_producer (the (sy) half of 016a9ab2f93)") \
   X(WAR_IN_FLIGHT, "war-in-flight", SCHEDULE, "a3xx", "hazard", "", \
     "a register a tex/SFU/memory op may still read is overwritten without (ss)", \
     "Mesa 6dc56f18bcf (WAR on a1.x before mova1), ir3_legalize needs_ss_war") \
   X(NOP_FOLD, "nop-fold-unencodable", SCHEDULE, "a3xx", "hazard", "", \
     "(nopN) folded into an instruction that cannot encode it", \
     "Mesa cd376a14346 ((nopN) folded into an (rptN) instruction)") \
   X(MISSING_JP, "missing-jp", SCHEDULE, "a3xx", "emit", "", \
     "a branch target where lanes reconverge gets no (jp)", \
     "Mesa ir3_legalize.c mark_xvergence_points") \
   /* scheduling: sm50 stall counts and scoreboards */ \
   X(STALL_SHORT, "stall-count-short", SCHEDULE, "sm50", "hazard", "", \
     "fixed-latency RAW stall counts one cycle too small", \
     "NAK calc_instr_deps / instr_latency (GPR write -> read 6)") \
   X(PRED_LATENCY, "pred-latency-as-gpr", SCHEDULE, "sm50", "hazard", "", \
     "a predicate read waits the GPR latency (6), not 13", \
     "NAK instr_latency: predicate write -> read 13") \
   X(MISSING_WAIT, "missing-scoreboard-wait", SCHEDULE, "sm50", "hazard", "", \
     "a reader of a variable-latency result does not wait on its scoreboard", \
     "NAK calc_instr_deps assign_barriers (cf. AGX caee8a3114a)") \
   X(BAR_EARLY, "wait-before-barrier-set", SCHEDULE, "sm50", "hazard", "", \
     "a scoreboard wait may issue 1 cycle after the barrier is set (needs 2)", \
     "NAK calc_delays: min_start = bars[bar] + 2") \
   X(FLOW_STALL, "flow-stall-short", SCHEDULE, "sm50", "hazard", "", \
     "BRA/SSY/SYNC/EXIT/KIL get a stall count of 1, not 13", \
     "NAK 8050b57c28c (flow ops), ce91e8875af (KILL)") \
   X(IMUL_FIXED, "imul-fixed-latency", SCHEDULE, "sm50", "hazard", "", \
     "XMAD/IMUL results treated as fixed latency: no scoreboard", \
     "NAK c29980b218d (IMAD/IMUL variable latency pre-Volta)") \
   X(NO_READ_BAR, "read-barrier-missing", SCHEDULE, "sm50", "hazard", "", \
     "no read barrier on a variable-latency op's sources: a later write races the read", \
     "NAK calc_instr_deps assign_barriers rd_bar") \
   X(BRANCH_DRAIN, "branch-no-drain", SCHEDULE, "sm50", "hazard", "", \
     "a block's closing flow op does not wait for the scoreboards still set", \
     "NAK calc_instr_deps: add_barrier at every branch") \
   /* legalization */ \
   X(IMM_TRUNC, "imm-truncated", LEGALIZE, "a3xx,sm50", "legalize", "", \
     "an immediate too wide for its slot is truncated into the field", \
     "Mesa ir3_valid_immediate (10 vs 8 bits); NAK 7f5c6642d80, b209fedebe0") \
   X(FFMA_I20, "ffma-imm-i20", LEGALIZE, "sm50", "legalize", "fuse-ffma", \
     "an FFMA float immediate encoded as i20 (low bits), not f20 (top bits)", \
     "NAK 3d13d190e68 (encoding of immediates in OpFFma)") \
   X(CONST_SRC2, "const-in-cat3-src2", LEGALIZE, "a3xx", "legalize", "", \
     "a constant left in mad/sel src2, which takes registers only", \
     "Mesa ir3_cp.c try_swap_mad_two_srcs; cf. NAK e287ba95b04") \
   X(SWAP_NONCOMM, "swap-non-commutative", LEGALIZE, "a3xx,sm50", "legalize", "", \
     "a non-commutative op's sources swapped to make an operand legal", \
     "NAK legalize.rs swap_srcs_if_not_reg (commutative ops only)") \
   X(SWAP_NOFLIP, "swap-without-flip", LEGALIZE, "sm50", "legalize", "", \
     "a compare's sources swapped without flipping its condition", \
     "NAK legalize.rs cmp_op.flip() on FSETP/ISETP swaps") \
   X(SWAP_MODS, "swap-keeps-modifiers", LEGALIZE, "sm50", "legalize", "", \
     "swapped sources leave their neg/abs modifiers in the old slot", \
     "NAK legalize.rs: IDP4 src_types and IMAD signedness move with the operand") \
   X(SHF_L_HI, "shf-l-hi", LEGALIZE, "sm50", "isel", "", \
     "a left shift selected as SHF.L.HI, an illegal encoding on SM50", \
     "NAK e1f1af58d93 (shf.l.high on Maxwell)") \
   X(SHF_R_SEXT, "shf-r-32-sext", LEGALIZE, "sm50", "isel", "", \
     "an arithmetic right shift as a 32-bit SHF.R, assumed to sign-extend", \
     "NAK OpShf fold: sm < 70 32-bit SHF.R ignores signedness; 1006283732a") \
   X(F2I_ROUND, "f2i-round-nearest", SELECT, "sm50", "isel", "", \
     "F2I/F2U selected without .RZ: Maxwell rounds to nearest, TGSI truncates", \
     "diffcomp b7a41ce (sm50 F2I rounds to nearest unless .RZ)") \
   /* register allocation */ \
   X(RA_LIVEIN, "ra-livein-ignored", REGALLOC, "a3xx,sm50", "ra", "", \
     "values live into a block do not hold their registers: an interference ignored", \
     "Mesa e8cca57a3f7 (an RA bug papered over with delay slots)") \
   X(RA_SHORT, "ra-live-range-short", REGALLOC, "a3xx,sm50", "ra", "", \
     "a live range ends one instruction before its last use", \
     "Mesa e8cca57a3f7 (RA off-by-one taken for a scheduling bug)") \
   X(RA_PHI_ORDER, "ra-phi-copy-order", REGALLOC, "a3xx,sm50", "ra", "", \
     "phi copies in list order: one overwrites a register another still reads", \
     "Mesa f19e387c2b4, 4f5637c8732 (AGX RA parallel-copy shuffles)") \
   /* the TGSI front end (ir_from_tgsi_faults) */ \
   X(LRP_AS_MIX, "lrp-as-mix", SELECT, "a3xx,sm50,gfx9", "front", "", \
     "LRP translated in GLSL mix's operand order: a * c + (1 - a) * b", \
     "TGSI LRP is src0 * src1 + (1 - src0) * src2; GLSL mix(x, y, a) weights y by a") \
   X(ARRAYS_OFFSET, "arrays-offset-ignored", SELECT, "a3xx,sm50,gfx9", "arrays", "", \
     "an indirect TEMP array access TEMP[ADDR + k] lowered without its offset k", \
     "the array lowering compares the index with each cell's slot less the access's offset") \
   /* folding and peepholes */ \
   X(SHIFT_UNMASKED, "fold-shift-unmasked", FOLD, "a3xx,sm50", "algebraic", "", \
     "a shift by a constant >= 32 folded to 0 instead of masking the count", \
     "NAK OpShf fold clamp vs wrap; 1006283732a (shl64 pre-Volta)") \
   X(MINMAX_NAN, "fold-minmax-nan", FOLD, "a3xx,sm50", "algebraic", "", \
     "a clamp min(max(x, lo), hi) reordered to max(min(x, hi), lo): wrong for NaN x", \
     "Mesa 88cdcd8f72f (AGX fcmpsel min/max NaN and signed zero)") \
   X(COPYPROP_ABS, "copyprop-abs", FOLD, "a3xx,sm50", "copyprop", "", \
     "an absolute value propagated as a plain copy (the modifier lost)", \
     "Mesa 51eba1c38ed (AGX abs/neg lost when lowering)") \
   X(CSE_FIELDS, "cse-ignores-fields", FOLD, "a3xx,sm50", "cse", "", \
     "CSE merges loads that differ only in their slot or component", \
     "Mesa nir_instr_set: every field hashed and compared") \
   X(DCE_KILL, "dce-discard", FOLD, "a3xx,sm50", "dce", "", \
     "a conditional discard removed as dead code (it has no result)", \
     "Mesa nir_opt_dce: side effects (discard_if) are live") \
   X(FUSE_PRECISE, "fuse-precise", FOLD, "sm50", "fuse,expand", "fuse-ffma", \
     "mul+add fused into ffma across a _PRECISE value", \
     "Mesa nir_opt_algebraic: inexact (~) rules skip exact values") \
   X(FUSE_USED_ONCE, "fuse-used-once", FOLD, "sm50", "fuse,expand", "fuse-ffma,invariance", \
     "an INVARIANT value fused when its multiply has one use (is_used_once)", \
     "seed 003: NIR is_used_once breaks multi-pass rendering (M. Olsak, 2022)") \
   /* folding: signedness, shift kind, NaN and signed zero (issue 14) */ \
   X(FOLD_SCMP_UNSIGNED, "fold-scmp-unsigned", FOLD, "a3xx,sm50", "constfold", "", \
     "a signed compare (ilt/ige) of two constants folded as an unsigned one", \
     "NIR constant expressions: ilt/ige use int32 sources, ult/uge uint32") \
   X(FOLD_SMINMAX_UNSIGNED, "fold-iminmax-unsigned", FOLD, "a3xx,sm50", "constfold", "", \
     "imin/imax of two constants folded with an unsigned compare", \
     "NIR nir_opcodes.py: imin/imax are signed, umin/umax unsigned") \
   X(FOLD_ASHR_LOGICAL, "fold-ashr-logical", FOLD, "a3xx,sm50", "constfold", "", \
     "an arithmetic right shift of a constant folded as a logical one", \
     "NAK OpShf fold: signed shifts sign-fill (1006283732a)") \
   X(FOLD_USHR_ARITH, "fold-ushr-arith", FOLD, "a3xx,sm50", "constfold", "", \
     "a logical right shift of a constant folded as an arithmetic one (sign fill)", \
     "NIR ushr: the shifted value is uint32 (no sign fill)") \
   X(FOLD_I2F_UNSIGNED, "fold-i2f-unsigned", FOLD, "a3xx,sm50", "constfold", "", \
     "i2f of a negative constant folded as u2f (2^32 - n)", \
     "NIR i2f32 takes int32 sources, u2f32 uint32") \
   X(FOLD_F2I_NEAREST, "fold-f2i-nearest", FOLD, "a3xx,sm50", "constfold", "", \
     "f2i of a constant folded rounding to nearest, not toward zero", \
     "TGSI F2I truncates; NIR f2i32 rounds toward zero (cf. diffcomp b7a41ce)") \
   X(FOLD_FMIN_C, "fold-fmin-c-style", FOLD, "a3xx,sm50", "constfold", "", \
     "fmin/fmax of constants folded as a < b ? a : b (NaN and -0 wrong)", \
     "Mesa 88cdcd8f72f; NIR fmin is IEEE minNum, not the C ternary") \
   X(FOLD_FLOOR_TRUNC, "fold-floor-as-trunc", FOLD, "a3xx,sm50", "constfold", "", \
     "floor of a negative constant folded as trunc (toward zero)", \
     "NIR ffloor vs ftrunc: equal only for x >= 0") \
   X(FOLD_ROUND_AWAY, "fold-round-half-away", FOLD, "a3xx,sm50", "constfold", "", \
     "round-to-even of a constant folded with C round() (halves away from zero)", \
     "NIR fround_even uses _mesa_roundevenf, not roundf") \
   X(FMA_PLUS_ZERO, "fma-plus-zero", FOLD, "a3xx,sm50", "algebraic", "", \
     "fma(a, b, +0.0) -> a * b (wrong when a * b is -0: -0 + +0 = +0)", \
     "NIR opt_algebraic: only ffma(a, b, -0.0) is exact; +0.0 needs nsz") \
   X(SEL_TO_MIN, "select-to-min", FOLD, "a3xx,sm50", "algebraic", "", \
     "a < b ? a : b rewritten to min(a, b) (wrong for NaN and for -0, +0)", \
     "NIR opt_algebraic bcsel(flt(a, b), a, b) -> fmin needs nnan nsz") \
   X(DCE_ATOMIC, "dce-unused-atomic", FOLD, "a3xx,sm50", "dce", "", \
     "an atomic whose returned value is unused removed as dead code", \
     "Mesa nir_opt_dce: intrinsics that write memory are live without uses") \
   X(CSE_PRECISE, "cse-precise-lost", FOLD, "sm50", "cse", "fuse-ffma", \
     "CSE's survivor does not take the precise flag of the value it replaces", \
     "Mesa nir_instr_set: the survivor gets exact |= other's exact") \
   /* memory ordering (issue 14) */ \
   X(SCHED_LOAD_STORE, "sched-load-over-store", MEMORY, "a3xx,sm50", "sched", "", \
     "a load may be scheduled above an earlier store (no memory dependence)", \
     "Mesa ir3_sched add_barrier_deps: a load after a store keeps its place") \
   X(SCHED_STORE_LOAD, "sched-store-over-load", MEMORY, "a3xx,sm50", "sched", "", \
     "a store may be scheduled above an earlier load (WAR through memory)", \
     "Mesa ir3_sched add_barrier_deps: a store after a load keeps its place") \
   X(SCHED_ATOMIC_KILL, "sched-atomic-over-kill", MEMORY, "a3xx,sm50", "sched", "", \
     "an atomic may be scheduled above an earlier kill: killed lanes write memory", \
     "a kill orders memory writes after it (ir3 barrier classes; NIR discard is a barrier)") \
   X(CSE_LOAD_STORE, "cse-load-across-store", MEMORY, "a3xx,sm50", "cse", "", \
     "CSE merges two equal loads without looking for a store between them", \
     "Mesa nir_opt_load_store / nir_instr_set: loads of writable memory are not CSEd") \
   /* control flow on stack models (issue 14) */ \
   X(BREAK_KILL_NATIVE, "break-arm-kill", CONTROL, "sm50", "jumps", "", \
     "a break whose arm also kills taken as a native (guarded) break", \
     "diffcomp opt_jumps native_break: a kill in a guarded arm ends lanes early") \
   X(BREAK_DEEP_NATIVE, "break-nested-native", CONTROL, "sm50", "jumps", "", \
     "a break two ifs deep taken as a native break (only a top-level if's arm may)", \
     "NAK/nvc0 SSY-SYNC: a SYNC restores every lane the SSY saved") \
   X(ELSE_BREAK_GUARD, "else-break-guard", CONTROL, "sm50", "isel", "", \
     "the instructions of an else-arm break guarded by the condition, not its negation", \
     "issue 14: IF c {..} ELSE {BRK} at a loop top (@!P0 SYNC)") \
   X(NEG_GUARD_UNREAD, "neg-guard-unread", SCHEDULE, "sm50", "hazard", "", \
     "a negated guard (@!P0) not counted as a read of the predicate", \
     "NAK calc_instr_deps: the predicate of a guard is a source either way") \
   /* liveness and register pairs (issue 14) */ \
   X(LIVE_PHI_SRC, "live-phi-source", REGALLOC, "a3xx,sm50", "sched,ra,legalize", "", \
     "a phi's source not live at the end of its predecessor", \
     "Mesa ir3_ra / NIR liveness: phi sources are live out of the predecessor") \
   X(LIVE_ONE_SWEEP, "live-one-sweep", REGALLOC, "a3xx,sm50", "sched,ra,legalize", "", \
     "liveness stops after one backward sweep: nothing live around a back edge", \
     "NIR nir_live_ssa_defs: iterate to a fixed point (loops)") \
   X(LIVE_IF_COND, "live-if-cond", REGALLOC, "sm50", "sched,ra,legalize", "", \
     "an if's condition not live at the end of the block that branches on it", \
     "Mesa ir3 liveness: the branch condition is a use in the predecessor") \
   X(RA_ODD_PAIR, "ra-odd-pair", REGALLOC, "sm50", "ra", "", \
     "a 64-bit value allocated at an odd register pair", \
     "NAK RegFile alignment: 64-bit values in even-aligned register pairs") \
   /* gfx9: SDWA, partial writes, wait states and counters (issue 17) */ \
   X(SDWA_PRESERVE_NO_USE, "sdwa-preserve-no-use", REGALLOC, "gfx9", "sdwa", "", \
     "an UNUSED_PRESERVE SDWA without the implicit use of the preserved register", \
     "LLVM D37817: the preserved register is a tied implicit use of the SDWA instruction") \
   X(SDWA_SEL_COMPOSE, "sdwa-sel-compose", SELECT, "gfx9", "sdwa", "", \
     "a source select folded over an existing select takes the new one alone", \
     "llvm-project #123221: BYTE_0 of a WORD_1 selection is BYTE_2") \
   X(SDWA_PAD_PRESERVE, "sdwa-pad-for-preserve", SELECT, "gfx9", "sdwa", "", \
     "the preserve merge encodes UNUSED_PAD where UNUSED_PRESERVE was needed", \
     "LLVM SIPeepholeSDWA: dst_unused PRESERVE keeps the other bits") \
   X(SDWA_SEXT_PAD, "sdwa-sext-pad-swapped", SELECT, "gfx9", "sdwa", "", \
     "SDWA dst_unused SEXT and PAD swapped", \
     "SIDefines.h DstUnused: UNUSED_PAD = 0, UNUSED_SEXT = 1") \
   X(HI16_KEPT, "16bit-keeps-high", SELECT, "gfx9", "sdwa", "", \
     "a 16-bit VOP2 result assumed to keep the high half (GFX10 behaviour)", \
     "ACO instr_is_16bit: partial register writes are GFX10+ only") \
   X(MISSING_SNOP, "missing-snop", SCHEDULE, "gfx9", "hazard", "", \
     "no s_nop for a wait-state row (VALU writes SGPR -> VMEM or a lane select reads it)", \
     "LLVM GCNHazardRecognizer: VALU writes SGPR -> VMEM reads it needs 5 wait states, " \
     "-> a v_readlane lane select 4") \
   X(LGKM_UNORDERED, "lgkmcnt-smem-unordered", SCHEDULE, "gfx9", "hazard", "", \
     "lgkmcnt(N > 0) with SMEM loads outstanding, as if they returned in order", \
     "ACO insert_waitcnt: SMEM returns out of order, only lgkmcnt(0) is safe") \
   X(VMCNT_OFF_BY_ONE, "vmcnt-off-by-one", SCHEDULE, "gfx9", "hazard", "", \
     "s_waitcnt vmcnt one higher than the load read needs", \
     "s_waitcnt waits until outstanding <= N, not for N operations") \
   X(CBUS_DROP, "const-bus-drop", LEGALIZE, "gfx9", "legalize", "", \
     "a constant-bus violation legalized by dropping the second scalar operand", \
     "ACO validate const_bus_limit: one SGPR or literal per VALU op on GFX9") \
   X(EXEC_NOT_RESTORED, "exec-not-restored", CONTROL, "gfx9", "hazard,emit", "", \
     "EXEC not restored after a divergent IF: the lanes that skipped the then arm stay off", \
     "LLVM SILowerControlFlow emitEndCf: s_or_b64 exec, exec, saved at the join") \
   X(GS_OFFSET_STALE, "gs-emit-offset-stale", SELECT, "gfx9", "isel", "", \
     "a GS vertex's window offset reused after an emit: the next vertex overwrites it", \
     "Mesa ac_nir_lower_legacy_gs: each emit's GSVS offset is from the vertex count after the last") \
   X(RA_PAIR_ONE, "ra-pair-one-reg", REGALLOC, "gfx9", "ra", "", \
     "a double's VGPR pair v[n:n+1] given one register: its high word overwrites a live value", \
     "ACO RegClass: a 64-bit VGPR definition is v2, two registers (size from the type, not the operand count)") \
   /* agx: cmpsel fusion and waits (issue 18) */ \
   X(CMPSEL_NOFLIP, "cmpsel-swap-noflip", FOLD, "agx", "cmpsel", "", \
     "a fused cmpsel whose arms must swap gets its compare sources swapped instead, cc kept", \
     "Mesa agx_optimizer_cmpsel: a ne select swaps the arms (seed 002); cmpsel has no ccn") \
   X(CMPSEL_STALE, "cmpsel-stale-source", FOLD, "agx", "cmpsel", "", \
     "a compare recomputed in its select after one of its sources was overwritten", \
     "seed 002 heuristic 4 (fuse forward unconditionally): the compare's sources must reach the select") \
   X(AGX_WAIT_MISSING, "agx-wait-missing", SCHEDULE, "agx", "wait", "", \
     "no wait before the first reader of a device load's register (the slot still pending)", \
     "Mesa caee8a3114a (AGX stack ops without scoreboarding), agx_insert_waits.c") \
   X(CMPSEL_NAN_FLIP, "cmpsel-nan-flip", FOLD, "agx", "cmpsel", "", \
     "an inverted float compare fused as the ordered opposite (lt -> ge): wrong on NaN", \
     "issue 18: a float condition inverts only to its unordered form (ccn); Mesa agx_optimizer_cmpsel") \
   X(CMPSEL_SIGN, "cmpsel-signed-as-unsigned", FOLD, "agx", "cmpsel", "", \
     "a signed integer compare fused into icmpsel/if_icmp as an unsigned one", \
     "Mesa agx_optimizer_cmpsel: the ICondition sign bit goes with the compare") \
   X(AGX_WAIT_SLOT, "agx-wait-wrong-slot", SCHEDULE, "agx", "wait", "", \
     "the wait before a device load's reader names the other scoreboard slot", \
     "Mesa agx_insert_waits.c: wait on the slot the load was issued on") \
   X(FMINMAX_CMPSEL, "fminmax-cmpsel", FOLD, "agx", "cmpsel", "", \
     "fmin/fmax as one ordered fcmpsel lt/gt: a NaN second operand wins, -0/+0 unordered", \
     "Mesa 88cdcd8f72f (AGX fcmpsel min/max NaN and signed zero)") \
   X(AGX_HALF_CLOBBER, "agx-half-clobber", REGALLOC, "agx", "half", "", \
     "a 16-bit value in a half written by its 32-bit form: the other half clobbered", \
     "issue 18: a half write keeps the other half; Mesa agx 16-bit destinations") \
   X(AGX_PACK_FULL, "agx-pack-full", REGALLOC, "agx", "half", "", \
     "the allocator packs a 32-bit value beside a live 16-bit half", \
     "issue 18: a value one op writes in full takes the whole register (Mesa agx_ra sizes)") \
   X(AGX_DERIV_XOR, "agx-deriv-xor", SELECT, "agx", "lanes", "", \
     "a fine derivative's simd_shuffle_xor reads the other axis (xor 1 and 2 swapped)", \
     "issue 18: DDX_FINE reads lane ^ 1, DDY_FINE lane ^ 2 of the quad (NAK SHFL.BFLY 1, 2)") \
   X(AGX_BALLOT_EXEC, "agx-ballot-exec", SELECT, "agx", "lanes", "", \
     "VOTE_ALL/VOTE_EQ compare the ballot with all 32 lanes, not the active ones", \
     "Mesa 75d07cc3d03 (AGX ballot packing); a ballot holds active lanes only (applegpu icmp_ballot)")
/* clang-format on */

#define OPT_FAULT_CLASSES(X)                                                                       \
   X(SCHEDULE, "scheduling")                                                                       \
   X(LEGALIZE, "legalization")                                                                     \
   X(SELECT, "selection")                                                                          \
   X(REGALLOC, "regalloc")                                                                         \
   X(FOLD, "folding")                                                                              \
   X(MEMORY, "memory-order")                                                                       \
   X(CONTROL, "control-flow")

#define OPT_FAULT_ENUM_(e, ...) OPT_FAULT_##e,
enum opt_fault { OPT_FAULTS(OPT_FAULT_ENUM_) OPT_FAULT_COUNT };
#undef OPT_FAULT_ENUM_
#define OPT_FAULT_ENUM_(e, ...) OPT_FCLASS_##e,
enum opt_fault_class { OPT_FAULT_CLASSES(OPT_FAULT_ENUM_) OPT_FCLASS_COUNT };
#undef OPT_FAULT_ENUM_

struct opt_fault_info {
   const char *name;
   enum opt_fault_class cls;
   const char *targets, *pass, *mode, *desc, *fix;
};

/* Is fault f injected in this run? */
static inline bool
opt_fault(const struct opt_ctx *ctx, enum opt_fault f)
{
   return opt_fault_set_has(&ctx->opts.faults, (int)f);
}

/* The same where no opt_ctx reaches (control words, emission). */
static inline bool
opt_fault_sh(const struct ir_shader *sh, enum opt_fault f)
{
   return opt_fault_set_has(&sh->faults, (int)f);
}

/* pass.c: whether fault f fires on the instance the text names (f
 * injected, and opt_transform allows it, or allowed it when asked about
 * the same text before). */
bool opt_fault_fires(struct opt_ctx *ctx, enum opt_fault f, const char *fmt, ...) DC_PRINTF(3, 4);
/* The same through sh->fault_ctx (without one: fires whenever injected). */
bool opt_fault_fires_sh(const struct ir_shader *sh, enum opt_fault f, const char *fmt, ...)
    DC_PRINTF(3, 4);

/* conservative.c */
extern const char *const opt_stage_names[OPT_STAGE_COUNT];
/* The stage named `name`, or -1. */
int opt_stage_find(const char *name);
/* A comma list of stage names ("all": every one) into a mask of bits
 * OPT_STAGE_*; false with a diagnostic naming the first unknown one. */
bool opt_stage_parse(const char *list, unsigned *mask, struct diag_list *d);
/* Whether stage st runs conservatively (on some item or other). */
bool opt_stage_conservative(const struct opt_ctx *ctx, enum opt_stage st);
/* Whether stage st treats the item named by the text (stable across
 * compiles that differ only in later choices) conservatively; line is its
 * TGSI source line. Asked again about the same item: the same answer.
 * With bisect logging on, the first ask is logged as
 *   CONSERVE: stage NAME item TEXT line L */
bool opt_conservative(struct opt_ctx *ctx, enum opt_stage st, unsigned line, const char *fmt, ...)
    DC_PRINTF(4, 5);
/* With bisect logging on: a note about an item, what the stage's ordinary
 * code did there (fmt gives "ITEM: TEXT"), logged as
 *   CONSERVE-NOTE: stage NAME item ITEM: TEXT */
void opt_cons_note(struct opt_ctx *ctx, enum opt_stage st, const char *fmt, ...) DC_PRINTF(3, 4);
/* pass.c's table of the items asked: the answer kept for `what` (owned
 * by the table from now on); *fresh when it is still to be set. */
bool *opt_cons_seen(struct opt_ctx *ctx, char *what, bool *fresh);
/* Whether the pass running now is a conservative stage: it makes no
 * optional transformation (opt_transform says no, uncounted). */
bool opt_cons_refuses(const struct opt_ctx *ctx);
/* The same through sh->fault_ctx (without one: never). */
bool opt_conservative_sh(const struct ir_shader *sh, enum opt_stage st, unsigned line,
                         const char *fmt, ...) DC_PRINTF(4, 5);

/* fault.c */
extern const struct opt_fault_info opt_fault_info[OPT_FAULT_COUNT];
extern const char *const opt_fault_class_names[OPT_FCLASS_COUNT];
/* The fault named `name`, or -1. */
int opt_fault_find(const char *name);
/* A comma list of fault names into a mask; false with a diagnostic
 * naming the first unknown one. */
bool opt_fault_parse(const char *list, struct opt_fault_set *mask, struct diag_list *d);
/* Whether fault f exists on model `target` (its targets list names it). */
bool opt_fault_on_target(enum opt_fault f, const char *target);
/* Whether fault f has hooks in pass `pass` (its pass list names it). */
bool opt_fault_in_pass(enum opt_fault f, const char *pass);

/* TGSI -> IR translation state (ir_from_tgsi*.c only). A "var" is one
 * channel of a directly addressed TEMP, OUT or ADDR register, or the
 * fall-through flag of a SWITCH; defs[var] is its current SSA value. */
struct xl_array {
   int32_t id;
   uint32_t first, slots;
};

struct xl_snap {
   struct ir_block *block;
   struct ir_instr **defs;
};

struct xl_func;

struct xl_loop {
   struct xl_loop *outer;
   struct xl_func *func;
   bool *written;
   struct ir_instr **phis;
   struct ir_node *node;
   struct xl_snap *conts, *breaks;
   unsigned nconts, nbreaks, conts_cap, breaks_cap;
};

struct xl_switch {
   struct xl_switch *outer;
   struct xl_loop *loop; /* innermost loop when the switch began */
   unsigned body_depth;  /* x->depth inside a case body */
   bool case_broken;
};

struct xl_func {
   struct xl_func *outer;
   struct xl_loop *wrapper; /* the one-trip loop that RET breaks out of */
   unsigned depth0;
   unsigned sub; /* BGNSUB index, or ~0u for the main program */
};

struct xlate {
   const struct tgsi_shader *ts;
   struct ir_shader *sh;
   struct ir_builder b;
   struct diag_list *diags;
   bool failed;
   struct ir_instr **defs;
   unsigned nvars, ntemps, nouts, naddrs;
   unsigned out_base, addr_base, sw_base;
   unsigned *sw_var; /* by instruction index */
   int demote_var;   /* DEMOTE's per-lane flag (~0 once demoted), or -1 */
   int *temp_array;  /* by TEMP index: index into arrays, or -1 */
   struct xl_array *arrays;
   unsigned narrays;
   struct ir_list *list;
   struct ir_node *parent;
   bool reachable, stop;
   unsigned depth;
   struct xl_loop *loop;
   struct xl_switch *sw;
   struct xl_func *func;
   unsigned call_depth;
   const struct tgsi_insn *insn; /* being translated */
   unsigned subgroup;            /* lanes of a subgroup: 32 or 64 */
};

/* IR evaluator state for one invocation (tests and equivalence checks). */
#define IR_EVAL_SLOTS 32
struct ir_eval_env {
   uint32_t inputs[IR_EVAL_SLOTS][4];
   uint32_t consts[4][IR_EVAL_SLOTS][4];
   uint32_t sysvals[TGSI_SEM_COUNT][4];
   uint32_t outputs[IR_EVAL_SLOTS][4];
   uint8_t written[IR_EVAL_SLOTS]; /* channel mask per output slot */
   bool killed;
   unsigned long long steps, max_steps; /* max_steps 0 = 1e6 */
   /* Textures, images, buffers, shared memory, derivatives and per-vertex
    * inputs become fixed functions of their operands (loads ignore stores),
    * so two versions of a shader can be compared without resources. */
   bool fake_resources;
};

/* ------------------------------------------------------------------ */
/* Prototypes                                                           */

/* ir.c */
extern const struct ir_op_info ir_op_info[IR_OP_COUNT];
extern const char *const ir_field_names[IR_FIELD_COUNT];
extern const char *const ir_tex_kind_names[IR_TEX_KIND_COUNT];
extern const char *const ir_tex_role_names[IR_TEXSRC_COUNT];
extern const char *const ir_space_names[IR_SPACE_COUNT];
extern const char *const ir_aop_names[IR_AOP_COUNT];
int32_t *ir_field_ptr(struct ir_instr *in, enum ir_field f);
int32_t ir_field_get(const struct ir_instr *in, enum ir_field f);
struct ir_shader *ir_shader_new(enum tgsi_stage stage);
void ir_shader_free(struct ir_shader *sh);
/* An error about sh at line `line` of its source (0: no line), named by
 * sh->file: the one place the compilers' diagnostics get the file name. */
void ir_error(struct diag_list *d, const struct ir_shader *sh, unsigned line, const char *fmt, ...)
    DC_PRINTF(4, 5);
struct ir_instr *ir_instr_create(struct ir_shader *sh, enum ir_op op, unsigned nsrc);
struct ir_instr *ir_instr_create_id(struct ir_shader *sh, enum ir_op op, unsigned nsrc,
                                    unsigned id);
void ir_instr_set_nsrc(struct ir_instr *in, unsigned nsrc);
void ir_instr_copy_fields(struct ir_instr *dst, const struct ir_instr *src);
enum ir_type ir_result_type(const struct ir_instr *in);
void ir_insert_before(struct ir_instr *pos, struct ir_instr *in);
void ir_insert_after(struct ir_instr *pos, struct ir_instr *in);
void ir_block_append(struct ir_block *b, struct ir_instr *in);
void ir_block_prepend(struct ir_block *b, struct ir_instr *in);
void ir_instr_remove(struct ir_instr *in);
/* Rewrites every use of old (sources and if conditions) to rep; costs the
 * uses of old, not the program. Returns how many. */
unsigned ir_replace_uses(struct ir_shader *sh, struct ir_instr *old, struct ir_instr *rep);
/* Writes source k of in (or an if's condition), keeping the use lists. */
void ir_set_src(struct ir_instr *in, unsigned k, struct ir_instr *v);
void ir_set_cond(struct ir_node *n, struct ir_instr *v);
/* Whether use u of v still reads v: its source was not written since and
 * its user is not removed. */
bool ir_use_live(const struct ir_instr *v, const struct ir_use *u);
/* The live uses of v (each source and condition reading it once). */
unsigned ir_use_count(const struct ir_instr *v);
/* Rebuilds every use list from the sources and conditions. */
void ir_uses_rebuild(struct ir_shader *sh);
bool ir_instr_is_phi(const struct ir_instr *in);
bool ir_instr_is_convergent(const struct ir_instr *in);
bool ir_instr_has_effect(const struct ir_instr *in);
struct ir_instr *ir_phi_trivial_value(const struct ir_instr *phi);
struct ir_node *ir_node_block(struct ir_shader *sh);
struct ir_node *ir_node_if(struct ir_instr *cond);
struct ir_node *ir_node_loop(void);
void ir_list_append(struct ir_list *l, struct ir_node *n, struct ir_node *parent);
struct ir_block *ir_list_first_block(const struct ir_list *l);
struct ir_block *ir_list_last_block(const struct ir_list *l);
void ir_compute_cfg(struct ir_shader *sh);
void ir_compute_dominance(struct ir_shader *sh);
bool ir_block_dominates(const struct ir_block *a, const struct ir_block *b);
struct ir_node *ir_node_before(const struct ir_node *n);
/* n's index in its list (n->list->v[i] == n), or ~0u outside a list;
 * constant time while the list does not change. */
unsigned ir_node_index(const struct ir_node *n);
unsigned ir_count_instrs(const struct ir_shader *sh);
/* Takes the removed instructions out of values (their entries become
 * NULL), so that a walk over values no longer reads them; only between
 * passes, when nothing will put them back. */
void ir_sweep(struct ir_shader *sh);
/* The instructions in program order, into a new array (*out, the
 * caller's to free); the count. A walk is kept and given again while no
 * block's list or the tree changed (the blocks' stamps, first and last in
 * tree order). */
unsigned ir_program_order(const struct ir_shader *sh, struct ir_instr ***out);
/* The kept walk if it is still valid, else NULL (for the validator). */
struct ir_instr *const *ir_program_order_kept(const struct ir_shader *sh, unsigned *n);
void ir_mark_invariant(struct ir_shader *sh);
void ir_renumber(struct ir_shader *sh);
struct ir_instr *ir_imm32(struct ir_builder *b, uint32_t bits);
struct ir_instr *ir_imm64(struct ir_builder *b, uint64_t bits);
struct ir_instr *ir_build(struct ir_builder *b, enum ir_op op, unsigned nsrc,
                          struct ir_instr *const *src);
struct ir_instr *ir_alu1(struct ir_builder *b, enum ir_op op, struct ir_instr *a);
struct ir_instr *ir_alu2(struct ir_builder *b, enum ir_op op, struct ir_instr *a,
                         struct ir_instr *c);
struct ir_instr *ir_alu3(struct ir_builder *b, enum ir_op op, struct ir_instr *a,
                         struct ir_instr *c, struct ir_instr *d);

/* ir_print.c */
char *ir_print(const struct ir_shader *sh);
char *ir_print_instr(const struct ir_instr *in);
bool ir_format_imm(char *buf, size_t size, uint64_t bits, bool is64);

/* ir_parse.c */
/* Parses the text ir_print writes. first_line numbers the first line of
 * text in diagnostics. Returns NULL on error, with messages in diags. */
struct ir_shader *ir_parse(const char *text, size_t len, const char *filename, int first_line,
                           struct diag_list *diags);

/* ir_validate.c */
struct ir_liveness;
/* Checks every invariant in this file's comment; on the first failure adds
 * an error naming the condition, the check's file:line, the instruction and
 * the whole shader (and `pass` when not NULL) and returns false. */
bool ir_validate(struct ir_shader *sh, const char *pass, struct diag_list *diags);
/* The same, naming what ran before in a phrase ("pass 'x'", "passes ...") */
bool ir_validate_after(struct ir_shader *sh, const char *after, struct diag_list *diags);
/* Liveness of register values per block, computed by the validator
 * itself (a fixed point over upward-exposed uses and definitions), not by
 * the allocator's ir_liveness: a bug there cannot hide from the check. */
void ir_validate_liveness(struct ir_shader *sh, struct ir_liveness *lv);

/* ir_eval.c */
/* Runs the shader for one invocation. Returns false (with a message) on an
 * op it cannot run (textures, memory, derivatives) or past max_steps. */
bool ir_eval(const struct ir_shader *sh, struct ir_eval_env *env, struct diag_list *diags);
bool ir_eval_op(enum ir_op op, const uint64_t *src, uint64_t *dst);
/* The same by the IR's own host meaning only, never the constant folder's
 * mapping (opt_verify.c checks the folder against sem.h with it). */
bool ir_eval_op_host(enum ir_op op, const uint64_t *src, uint64_t *dst);

/* ir_from_tgsi.c */
/* Translates a parsed TGSI shader; NULL with an "unsupported" or input
 * error in diags when it cannot. */
struct ir_shader *ir_from_tgsi(const struct tgsi_shader *ts, struct diag_list *diags);
/* The same within a compile (NULL: none): its injected faults of the
 * front end (pass "front") fire while translating, each firing one of
 * ctx's transformations. */
struct ir_shader *ir_from_tgsi_ctx(const struct tgsi_shader *ts, struct opt_ctx *ctx,
                                   struct diag_list *diags);
bool xl_error(struct xlate *x, const char *fmt, ...) DC_PRINTF(2, 3);
bool xl_unsupported(struct xlate *x, const char *what);
struct ir_instr *xl_fetch(struct xlate *x, const struct tgsi_src *src, unsigned chan,
                          enum tgsi_type type);
struct ir_instr *xl_fetch_raw(struct xlate *x, const struct tgsi_reg *reg, unsigned comp);
struct ir_instr *xl_zero(struct xlate *x);
void xl_write(struct xlate *x, const struct tgsi_dst *dst, unsigned chan, struct ir_instr *v);
void xl_store_outputs(struct xlate *x);

/* ir_from_tgsi_ops.c */
/* Translates one non-control-flow instruction at the builder's block. */
bool xl_insn(struct xlate *x, const struct tgsi_insn *in);
enum tgsi_type xl_src_type(const struct tgsi_insn *in, unsigned k);

/* pass.c */
extern const struct opt_pass opt_passes[];
/* The agx machine passes' names, NULL-terminated (opt_agx.c): also
 * accepted by --disable-pass. */
extern const char *const opt_agx_passes[];
void opt_ctx_init(struct opt_ctx *ctx, const struct opt_options *opts, struct diag_list *diags);
void opt_ctx_fini(struct opt_ctx *ctx);
bool opt_transform(struct opt_ctx *ctx, const char *fmt, ...) DC_PRINTF(2, 3);
/* isa_check_insn's verdict, without messages, remembered for the compile
 * (the legalizer's trials and the hazard pass's flags ask about the same
 * records again and again); ctx may be NULL. */
enum isa_err opt_check_insn(struct opt_ctx *ctx, const struct isa_model *m,
                            const struct isa_insn *in);
/* The text of the transformation noted last (ctx->verify_what), made on
 * first need from its format and values. */
const char *opt_verify_what(struct opt_ctx *ctx);
/* Every kind of transformation ("pass: what") and the --opt mode it needs
 * (NULL: none), ending with a NULL kind (coverage). */
struct opt_transform_kind {
   const char *what, *needs;
};
extern const struct opt_transform_kind opt_transform_kinds[];
void opt_log(struct opt_ctx *ctx, const char *fmt, ...) DC_PRINTF(2, 3);
bool opt_run_pass(struct ir_shader *sh, struct opt_ctx *ctx, const struct opt_pass *p);
/* Validates what passes ran since the last validation (release builds
 * sample validation on large shaders); false if it fails. */
bool opt_validate_rest(struct ir_shader *sh, struct opt_ctx *ctx);
/* Whether every pass --passes, --disable-pass and --print-after name
 * exists; false with a diagnostic naming the first unknown one. */
bool opt_check_names(const struct opt_options *o, struct diag_list *diags);
/* Runs the pipeline (or opts.passes). false: bad options or validation
 * failure, with the reason in diags. */
bool opt_run(struct ir_shader *sh, struct opt_ctx *ctx);
bool opt_inexact_ok(const struct ir_instr *in);
bool opt_is_imm(const struct ir_instr *in, uint32_t bits);
void opt_replace(struct ir_shader *sh, struct ir_instr *old, struct ir_instr *rep);
struct ir_instr *opt_build_before(struct ir_shader *sh, struct ir_instr *pos, enum ir_op op,
                                  unsigned nsrc, struct ir_instr *const *srcs);
struct ir_instr *opt_build2_before(struct ir_shader *sh, struct ir_instr *pos, enum ir_op op,
                                   struct ir_instr *a, struct ir_instr *b);
struct ir_instr *opt_imm_before(struct ir_shader *sh, struct ir_instr *pos, uint32_t bits);

/* compiler/opt/opt_*.c: one pass each */
bool opt_copyprop(struct ir_shader *sh, struct opt_ctx *ctx);
bool opt_constfold(struct ir_shader *sh, struct opt_ctx *ctx);
bool opt_fold_op(enum ir_op op, const uint32_t *src, uint32_t *dst);
bool opt_dce(struct ir_shader *sh, struct opt_ctx *ctx);
bool opt_cse(struct ir_shader *sh, struct opt_ctx *ctx);
bool opt_algebraic(struct ir_shader *sh, struct opt_ctx *ctx);
bool opt_fuse(struct ir_shader *sh, struct opt_ctx *ctx);
bool opt_lower_int64(struct ir_shader *sh, struct opt_ctx *ctx);
bool opt_arrays(struct ir_shader *sh, struct opt_ctx *ctx);
bool opt_images(struct ir_shader *sh, struct opt_ctx *ctx);

/* compiler/opt/opt_verify.c: per-rewrite verification. Each returns false
 * after adding a compile error (ctx->failed) when the rewrite changes a
 * result its class forbids; true when disabled (opts.no_verify). */
bool opt_verify_replace(struct opt_ctx *ctx, const struct ir_instr *old, const struct ir_instr *rep,
                        enum opt_verify_class cls);
/* A rewrite that changes machine instruction in in place: begin before
 * the change, end after it with old the value replaced and rep what
 * stands for it (in itself, or another instruction in's change made). */
void opt_verify_begin(struct opt_ctx *ctx, const struct ir_instr *in);
bool opt_verify_end(struct opt_ctx *ctx, const struct ir_instr *old, const struct ir_instr *rep,
                    const char *what);
/* A removal (dead code): in must have no effect. */
bool opt_verify_remove(struct opt_ctx *ctx, const struct ir_instr *in);
void opt_verify_fini(struct opt_ctx *ctx);

/* ------------------------------------------------------------------ */
/* backend                                                              */

/*
 * The machine-level IR of compiler/opt (isel, sched, ra, legalize,
 * hazard, emit). Instruction selection turns every computing instruction
 * into a `mach`: one instruction of the shader's model (sh->model, printed
 * as a `model NAME` header line), kept as an isa_insn record whose IR
 * sources are the values its operands read. The tree, the phis and SSA
 * stay, so the later passes are IR passes:
 *
 *   %5 = mach add.f %3, (neg)%4 sat @r1.y
 *   %7 = mach sam {%5, %6}, #0, #0 wrmask=xyzw textype=f32 @r2.x:4
 *   mach nop rpt=2
 *
 * Operand k of the record reads IR sources first[k] .. first[k]+count[k]-1:
 * one value, or a group of values that must sit in consecutive registers
 * (`{%5, %6}`, texture coordinates). count 0 marks a fixed operand kept in
 * the record itself: an immediate (`0`: a sampler number, a memory offset)
 * or a register that reads a constant (`PT`, `RZ`); `c<%N+K>` is a
 * relative operand addressed by value %N. A guarded instruction (sm50
 * `@P0`) names its predicate last, `if=%N` or `if=!%N`. Operand
 * flags (neg, abs, not, r) and the modifiers are the record's. The op is
 * named by its model key (isa_op_key), enum modifiers by their value names.
 *
 * Registers. A placed value carries `@REG` (`:N` for a group of N). RA
 * places the results of mach, phi, extract, load_input and load_sysval;
 * legalize places constants and the immediates it moves to the constant
 * file. Placed IR is still SSA, with one register per value for its whole
 * life: two values live at the same point never share a register, and a
 * phi's sources sit in the phi's register (RA inserts the copies), so a phi
 * costs nothing. An operand reading an `imm` that has no register is an
 * inline immediate; one reading a value in a constant file is a constant
 * operand; anything else is a register operand.
 *
 * Inputs and system values are bound to registers before the first
 * instruction (emu.h), so isel moves their loads to the entry block; the
 * outputs are read from the registers of the store_output sources when
 * the program ends. The last top-level block ends in `mach end`; the
 * branches of an `if` and the jumps of loops, break and continue are
 * implied by the tree: opt_emit lays them out, and hazard insertion works
 * on that same layout.
 */
#define IR_MACH_FIXED 0xff

struct ir_reg {
   int16_t file;   /* model register file; -1: not placed */
   uint16_t index; /* first register (scalar index) */
   uint8_t count;  /* consecutive registers (a V4 result's group); 1 otherwise */
};

struct ir_mach {
   struct isa_insn insn;       /* op, modifiers, operand flags and kinds */
   uint8_t first[ISA_MAX_SRC]; /* operand k reads in->src[first[k]..] */
   uint8_t count[ISA_MAX_SRC]; /* ... count[k] of them; 0: fixed operand */
   uint8_t guard;              /* the guard predicate's source (last), or IR_MACH_FIXED */
   bool guard_not;             /* runs where the guard is false */
   uint8_t tied;               /* a source the result shares its register with, or
                                  IR_MACH_FIXED: the value an SDWA UNUSED_PRESERVE
                                  keeps (it reads its destination), an implicit use */
   bool tied_unread;           /* OPT_FAULT_SDWA_PRESERVE_NO_USE: that use is not seen */
   struct ir_reg reg;          /* where the value lives (any value) */
   const struct isa_model *model;
};

/* A value named in mach text, resolved by the parser. */
struct ir_mach_ref {
   unsigned long id; /* value number of the source */
   size_t at;        /* offset in the text, for messages */
};

/* compiler/opt/opt_mach.c: the machine-level IR */
struct ir_mach *ir_mach_get(const struct isa_model *m, struct ir_instr *in);
struct ir_instr *ir_mach_create(struct ir_shader *sh, unsigned op);
void ir_mach_set_src(struct ir_instr *in, unsigned k, struct ir_instr *const *v, unsigned n);
void ir_mach_set_fixed(struct ir_instr *in, unsigned k, uint32_t imm);
void ir_mach_set_fixed_reg(struct ir_instr *in, unsigned k, unsigned file, unsigned index,
                           unsigned flags);
void ir_mach_set_guard(struct ir_instr *in, struct ir_instr *pred, bool negate);
/* Semantics whose result is a 4 x 32 tuple (texture lookups and queries). */
bool opt_sem_is_texture(enum isa_sem s);
/* Semantics with an effect beyond their result, kept in order and never
 * removed as dead: memory stores and atomics, stage outputs and emits,
 * kills and barriers. */
bool opt_sem_has_effect(enum isa_sem s);
/* The registers operand `slot` of record x covers: the model's count, or
 * more for a source whose value group is longer (in, when not NULL): sm50
 * TEX reads its coordinates from a, a+1, ... as the emulator and the
 * hardware do, while the model gives a one register. */
unsigned opt_opnd_count(const struct isa_model *m, const struct isa_insn *x,
                        const struct ir_instr *in, int slot);
/* The constant file read relatively (c<a + k>, or LDC), or -1: buffers 0
 * .. rel_cbufs - 1 then sit there one after another, slot * 4 + channel
 * from buffer b's first slot (opt_relative_base), all of them bound. */
int opt_relative_cfile(const struct ir_shader *sh);
uint32_t opt_relative_base(const struct ir_shader *sh, unsigned b);
/* Results that are tuples with extracts (IR_TYPE_V4): texture results,
 * and results of several registers (an FP64 register pair). */
bool opt_tuple_result(const struct isa_model *m, const struct isa_insn *x);
/* The registers a tuple result takes: the model's count, or 2 for a
 * 64-bit result in a 32-bit general file (gfx9 v[n:n+1]). */
unsigned opt_result_regs(const struct isa_model *m, const struct isa_insn *x);
/* A 64-bit register pair operand (FP64): its first register is even. */
bool opt_wide_slot(const struct isa_model *m, const struct isa_insn *x, int slot);
/* Models that reconverge through a stack (SSY/SYNC, sm50). */
bool opt_stack_model(const struct isa_model *m);
/* On a stack model, a loop leaves through SYNC: a lane that executes it
 * waits, and the loop's SSY entry resumes the waiting lanes at the exit
 * when none is left running. A block ending in break that is the whole of
 * one arm of an if at the top level of a loop body therefore runs
 * predicated: its instructions and its SYNC under the if's predicate
 * (negated for the else arm); the other arm follows inline. Returns that
 * if (*negate: the else arm), or NULL. */
struct ir_node *opt_break_if(const struct ir_shader *sh, const struct ir_block *b, bool *negate);
/* Guards every machine instruction of every predicated break block: isel
 * decides (decide), RA and legalization guard the copies they added as
 * isel guarded the arm; false with *bad when one already has another
 * guard. */
bool opt_guard_breaks(struct ir_shader *sh, bool decide, const struct ir_instr **bad);
void ir_mach_fix_operand(struct ir_instr *in, unsigned k, unsigned file, unsigned index);
unsigned ir_mach_nopnds(const struct ir_instr *in);
bool ir_has_reg(const struct ir_instr *in);
int ir_reg_file(const struct ir_instr *in);
/* Text of a mach instruction after "mach " (op, operands, modifiers) and
 * of a register annotation (" @r1.y"); malloc'd. */
char *ir_mach_print(const struct ir_instr *in);
char *ir_reg_print(const struct ir_instr *in);
/* Parses text (up to a newline, NUL or '#') after "mach " into in->mach
 * and the source references refs (malloc'd, *nrefs of them); *len gets
 * the length read. false: *err (malloc'd) at text + *err_at. */
bool ir_mach_parse(struct ir_shader *sh, struct ir_instr *in, const char *text, size_t *len,
                   struct ir_mach_ref **refs, unsigned *nrefs, char **err, size_t *err_at);
/* Parses "@REG[:N]" at text; 0 if there is none (then *err may be set). */
size_t ir_reg_parse(struct ir_shader *sh, struct ir_instr *in, const char *text, char **err);
/* The condition a mach instruction or a placed value breaks, or NULL. */
const char *ir_mach_check(const struct ir_shader *sh, const struct ir_instr *in);
/* Register assignment: simultaneously live values in distinct registers,
 * phi sources in the phi's register, by the block liveness lv (the
 * validator computes its own: ir_validate_liveness). NULL if fine, else
 * the condition and *bad the instruction. */
const char *ir_regs_check(struct ir_shader *sh, const struct ir_liveness *lv,
                          const struct ir_instr **bad);
/* Runs a mach instruction on source bits; false if it is not a pure
 * function of its sources (memory, textures), or flow. */
bool ir_mach_eval(const struct ir_instr *in, const uint64_t *src, uint64_t *dst, bool *kill);
/* ir_mach_eval in two steps, for many evaluations of one instruction:
 * prepare decodes what does not depend on the source values (valid while
 * the instruction and its sources' register files stay unchanged). */
enum { IR_MACH_PREP_VALUE, IR_MACH_PREP_FIXED, IR_MACH_PREP_NONE, IR_MACH_PREP_PRED };
struct ir_mach_prep {
   enum isa_sem sem;
   bool ok, sat;
   uint8_t kind[ISA_MAX_SRC]; /* IR_MACH_PREP_* */
   int8_t sel[ISA_MAX_SRC];   /* SDWA source select or -1 */
   bool is_float[ISA_MAX_SRC];
   bool half[ISA_MAX_SRC]; /* a 16-bit slot: the modifiers act on bit 15 */
   uint32_t fixed[ISA_MAX_SRC];
   int dst_sel;
   unsigned dst_unused;
   struct sem_args a;
};
void ir_mach_eval_prepare(const struct ir_instr *in, struct ir_mach_prep *p);
bool ir_mach_eval_prepared(const struct ir_instr *in, const struct ir_mach_prep *p,
                           const uint64_t *src, uint64_t *dst, bool *kill);
/* Everything ir_mach_eval_prepared reads of in and p but its sources'
 * values, as bytes into out (IR_MACH_KEY_MAX at most; returns the length):
 * two instructions with equal keys compute the same function of their
 * sources (opt_verify.c memoizes its verdicts on it). */
#define IR_MACH_KEY_MAX (sizeof(struct ir_mach_prep) + 3 * ISA_MAX_SRC + 8)
size_t ir_mach_eval_key(const struct ir_instr *in, const struct ir_mach_prep *p, uint8_t *out);
void ir_mach_free(struct ir_instr *in);
int opt_op_by_sem(const struct isa_model *m, enum isa_sem sem);
/* An op of an explicit_only class (gfx9 DPP): emitted only by name, never
 * found by its semantics (opt_op_by_sem, legalization forms). */
bool opt_op_explicit(const struct isa_model *m, unsigned op);
unsigned opt_file_capacity(const struct isa_model *m, unsigned file);
bool opt_guard_value(const struct isa_model *m, unsigned reg, bool negate, int *mod, int *value);
struct ir_instr *opt_copy_before(struct ir_shader *sh, struct ir_instr *pos, struct ir_instr *v);

/* compiler/opt/opt_exec.c: EXEC-mask control flow (gfx9) */
struct opt_exec {
   unsigned file, exec;                          /* the scalar file and EXEC's first register */
   int and_save, andn2_save, or64, andn2, mov64; /* 64-bit scalar ops */
   int execz, execnz;                            /* branches on EXEC == 0 / != 0 */
   unsigned top;                                 /* the allocatable scalar registers */
};
/* The model's EXEC ops; false when it has no EXEC-mask control flow. */
bool opt_exec_find(const struct isa_model *m, struct opt_exec *x);
bool opt_exec_model(const struct isa_model *m);
/* The pairs of waiting lanes the shader's constructs need at once. */
unsigned opt_exec_pairs(const struct ir_shader *sh);
/* Registers of file the control flow reserves at the top (0: none). */
unsigned opt_exec_reserved(const struct ir_shader *sh, unsigned file);
/* The first register of the pair at nesting depth `depth`. */
unsigned opt_exec_pair_reg(const struct opt_exec *x, unsigned depth);
/* Extends the scalar values' live ranges to the layout's linear order. */
void opt_exec_liveness(struct ir_shader *sh, struct ir_liveness *lv);

/* compiler/opt/opt_sdwa.c: the SDWA peephole (gfx9) */
bool opt_sdwa(struct ir_shader *sh, struct opt_ctx *ctx);
/* The value a tied instruction keeps in its register (SDWA PRESERVE), or NULL. */
struct ir_instr *opt_tied_src(const struct ir_instr *in);

/* compiler/opt/opt_legalize.c (also used by opt_isel before RA) */
/* The op copies are made with: of the bit-copy (sem mov) ops, the one with
 * the most forms (sm50 MOV: MOV32I takes any immediate), integer-typed
 * before float-typed (a float move may quiet a NaN). */
unsigned opt_copy_op(const struct isa_model *m);
bool opt_legalize_operands(struct ir_shader *sh, struct opt_ctx *ctx, struct ir_instr *in);
/* opt_emit.c: the ops, encodings and sync kinds of model m as coverage
 * points (check --coverage; emitted programs count them). */
void opt_emit_cover_declare(const struct isa_model *m);
/* The legalization paths on model m as coverage points (check --coverage). */
void opt_legalize_cover_declare(const struct isa_model *m);
bool opt_legal_possible(const struct ir_shader *sh, const struct ir_instr *in);

/* compiler/opt/opt_live.c: liveness over value ids. A value occupies
 * registers when ir_value_in_regs() (not immediates and constants, which
 * live in operands or the constant file); extract reads do not extend the
 * life of the texture result, whose registers its extracts take over.
 * live_in of a block leaves out its phis; live_out holds the successors'
 * phi sources and the condition of an if right after the block.
 *
 * The sets are bitsets over the values that can be live at a block's edge
 * at all (the universe: every phi source, every if condition and every
 * value read where no earlier instruction of the same block defines it),
 * not over every value id: a value read only after its definition in its
 * own block never reaches an edge, and leaving those out keeps a set to a
 * few words where the shader has hundreds of thousands of values. Bit k
 * of a set is value ids[k]; ids increase with k, so walking a set's bits
 * visits its values in id order. */
struct ir_liveness {
   unsigned nwords;      /* 64-bit words per set */
   uint64_t *in, *out;   /* block b: in + b * nwords */
   unsigned nvalues;     /* the shader's value count when the sets were made */
   unsigned nids;        /* the universe's size */
   unsigned *ids;        /* bit -> value id, increasing */
   unsigned *bit;        /* value id (below nvalues) -> bit, or ~0u */
   unsigned dense_words; /* words of a set over value ids (ir_live_expand) */
};
bool ir_value_in_regs(const struct ir_instr *in);
bool ir_use_extends_life(const struct ir_instr *user, const struct ir_instr *v);
struct ir_instr *ir_block_if_cond(const struct ir_block *b);
void ir_liveness(struct ir_shader *sh, struct ir_liveness *lv);
void ir_liveness_free(struct ir_liveness *lv);
/* The universe of sh and empty sets for its blocks (dense_words is
 * (nvalues + 63) / 64 + 1); used by both liveness computations. */
void ir_liveness_alloc(const struct ir_shader *sh, struct ir_liveness *lv);
/* The first value id >= from in set, or ~0u. */
unsigned ir_live_next_id(const struct ir_liveness *lv, const uint64_t *set, unsigned from);
/* Clears dense (lv->dense_words words over value ids) and sets the values
 * of set in it. */
void ir_live_expand(const struct ir_liveness *lv, const uint64_t *set, uint64_t *dense);
/* Sets (ir_live_add) or clears (ir_live_remove) the values of set in
 * dense, leaving its other bits: a dense set kept clear between uses costs
 * the values set, not the shader's. */
void ir_live_add(const struct ir_liveness *lv, const uint64_t *set, uint64_t *dense);
void ir_live_remove(const struct ir_liveness *lv, const uint64_t *set, uint64_t *dense);
static inline bool
ir_live_has(const uint64_t *set, unsigned id)
{
   return (set[id / 64] >> (id % 64)) & 1;
}
/* The first id >= from in set (of nwords words), or ~0u: walking a set
 * costs its words, not the shader's values. */
static inline unsigned
ir_live_next(const uint64_t *set, unsigned nwords, unsigned from)
{
   for (unsigned w = from / 64; w < nwords; w++) {
      uint64_t bits = set[w] & (w == from / 64 ? ~0ull << (from % 64) : ~0ull);
      if (bits) {
         unsigned b = 0;
#if defined(__GNUC__)
         b = (unsigned)__builtin_ctzll(bits);
#else
         while (!((bits >> b) & 1))
            b++;
#endif
         return w * 64 + b;
      }
   }
   return ~0u;
}
static inline void
ir_live_set(uint64_t *set, unsigned id, bool on)
{
   if (on)
      set[id / 64] |= 1ull << (id % 64);
   else
      set[id / 64] &= ~(1ull << (id % 64));
}
static inline uint64_t *
ir_live_in_set(const struct ir_liveness *lv, unsigned block)
{
   return lv->in + (size_t)block * lv->nwords;
}
static inline uint64_t *
ir_live_out_set(const struct ir_liveness *lv, unsigned block)
{
   return lv->out + (size_t)block * lv->nwords;
}
/* The bit of value id in lv's sets, or ~0u outside the universe. */
static inline unsigned
ir_live_bit(const struct ir_liveness *lv, unsigned id)
{
   return id < lv->nvalues ? lv->bit[id] : ~0u;
}
/* Whether value id is in set (one of lv's). */
static inline bool
ir_live_test(const struct ir_liveness *lv, const uint64_t *set, unsigned id)
{
   unsigned k = ir_live_bit(lv, id);
   return k != ~0u && ir_live_has(set, k);
}
/* Adds or removes value id; false (and no change) outside the universe. */
static inline bool
ir_live_mark(const struct ir_liveness *lv, uint64_t *set, unsigned id, bool on)
{
   unsigned k = ir_live_bit(lv, id);
   if (k == ~0u)
      return false;
   ir_live_set(set, k, on);
   return true;
}

/* compiler/opt/opt_emit.c: the layout of the tree as machine code (the
 * branches and jumps it implies are slots of their own), the records, the
 * encoder and the pipeline (opt_compile in compiler.h). */
struct opt_slot {
   struct ir_instr *in;  /* the mach instruction, the break/continue, or NULL */
   struct isa_insn insn; /* its record */
   int target;           /* branch or jump: the target slot; -1 */
   struct ir_block *block;
   bool implied;          /* a branch or jump of the tree */
   struct ir_instr *cond; /* the branch of an if: the if's predicate */
   bool cond_holds;       /* acts where cond holds (a break's SYNC), not where it fails */
   enum isa_sem kind;     /* implied: branch, jump, ssy or sync */
   bool built;            /* implied, its record made by the layout (EXEC masks) */
};
struct opt_layout {
   struct opt_slot *v;
   unsigned n, cap;
   unsigned *block_start, *block_end; /* by block index: its slots */
};
struct compile_stats;
struct emu_program;
/* The control fields of one slot on stall-count models (opt_hazard.c). */
struct opt_control {
   unsigned stall, wait; /* cycles before the next issue; scoreboards waited for */
   int wr_bar, rd_bar;   /* scoreboards set, -1 none */
   unsigned nops_before; /* nops the stall count cannot cover */
};
void opt_control_words(const struct isa_model *m, const struct opt_layout *lo,
                       const struct ir_shader *sh, struct opt_control *out);
/* The model's control fields and the values of its scoreboards in them
 * (looked up by name once, not per instruction). */
#define OPT_CONTROL_BARS 16 /* scoreboards in the table; later ones looked up */
struct opt_control_fields {
   const struct isa_model *m;
   int stall, wait, wr, rd;                                        /* modifier, or -1 */
   int wr_val[OPT_CONTROL_BARS + 1], rd_val[OPT_CONTROL_BARS + 1]; /* [sb + 1], -1 none */
};
void opt_control_fields(const struct isa_model *m, struct opt_control_fields *cf);
void opt_apply_control(const struct opt_control_fields *cf, const struct opt_control *ctl,
                       struct isa_insn *x);
void opt_mach_record(const struct ir_instr *in, struct isa_insn *out);
void opt_layout_build(struct ir_shader *sh, struct opt_layout *lo);
void opt_layout_free(struct opt_layout *lo);
bool opt_emit(struct ir_shader *sh, bool hazards, struct emu_program *p, struct compile_stats *st,
              struct diag_list *d);

/* compiler/opt/opt_atomics.c: compare-and-swap loops for the atomics a
 * model lacks, and the model's atomic forms */
bool opt_atomics(struct ir_shader *sh, struct opt_ctx *ctx);
bool opt_atomic_native(const struct isa_model *m, enum ir_space space, enum ir_aop aop);
void opt_atomic_form(const struct isa_model *m, enum ir_aop aop, const char **name,
                     const char **type);
/* The enum modifier of atomic op `op` that sets data type `type` (a float
 * type only in a field of the atomic's own), or -1. */
int opt_atomic_type_mod(const struct isa_model *m, unsigned op, const char *type);

/* compiler/opt/opt_expand.c: generic expansions isel applies first */
bool opt_expand(struct ir_shader *sh, struct opt_ctx *ctx);

/* compiler/opt/opt_jumps.c: on stack models, the jumps SYNC cannot take
 * (continue, nested breaks) as structured flow; isel applies it first */
bool opt_jumps(struct ir_shader *sh, struct opt_ctx *ctx);

/* compiler/opt/opt_fp64.c: on FP64 models, the double ops they have no
 * instruction for (ddiv, dsqrt, dldexp, ...) as plain IR; isel applies it
 * first */
bool opt_fp64(struct ir_shader *sh, struct opt_ctx *ctx);

/* compiler/opt: the backend passes, one file each */
bool opt_isel(struct ir_shader *sh, struct opt_ctx *ctx);
bool opt_sched(struct ir_shader *sh, struct opt_ctx *ctx);
bool opt_ra(struct ir_shader *sh, struct opt_ctx *ctx);
bool opt_legalize(struct ir_shader *sh, struct opt_ctx *ctx);
bool opt_hazard(struct ir_shader *sh, struct opt_ctx *ctx);
/* opt_hazard_ws.c: s_nop and s_waitcnt on wait-state models (gfx9) */
void opt_hazard_wait_states(struct ir_shader *sh, struct opt_ctx *ctx);

#endif
