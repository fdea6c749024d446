/*
 * Public API of the table-driven ISA layer, in the manner of Capstone: a
 * model is an opaque handle opened from isa/models/<name>.yaml (or a path),
 * and every tool that touches machine code goes through it -- decoder,
 * encoder, disassembler, assembler, and later the emulator, the latency
 * model, the scheduler and the legalizer. Nothing here reads YAML except
 * isa_open(); nothing here prints or exits.
 *
 * Errors are an enum (ISA_ERR_*, text via isa_strerror()) plus messages with
 * file:line:col in a caller-supplied struct diag_list (util/util.h).
 *
 * The decoded record (struct isa_insn) is what the emulator dispatches on:
 * fixed size, no pointers, operands already resolved to register file and
 * index, immediate value or constant slot. Decode a whole program once with
 * isa_decode_program() and run the array many times.
 */
#ifndef DC_ISA_H
#define DC_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct diag_list;

/* An ISA model loaded from YAML. Opaque; read through the functions below. */
struct isa_model;

/* ------------------------------------------------------------------ */
/* Name tables, written once.                                          */

/* clang-format off */
/* Error codes: ISA_ERR_<name>, message. */
#define ISA_ERRORS(X) \
   X(OK, "no error") \
   X(IO, "cannot read the file") \
   X(NOTFOUND, "no such model") \
   X(YAML, "YAML syntax error") \
   X(MODEL, "invalid model") \
   X(ARG, "invalid argument") \
   X(TRUNCATED, "not enough bytes for an instruction") \
   X(DECODE, "no instruction matches the bytes") \
   X(ILLEGAL, "illegal encoding") \
   X(RANGE, "value does not fit its field") \
   X(OPERAND, "operand kind not allowed in this slot") \
   X(MODIFIER, "invalid modifier or flag combination") \
   X(SYNTAX, "assembler syntax error") \
   X(UNKNOWN_OP, "unknown mnemonic")

/* Kinds of register file. */
#define ISA_FILE_KINDS(X) \
   X(FULL, "full") \
   X(HALF, "half") \
   X(PREDICATE, "predicate") \
   X(ADDRESS, "address") \
   X(CONST, "const") \
   X(UNIFORM, "uniform") \
   X(SPECIAL, "special")

/* Data types an operand can have; width in bits, float or not. */
#define ISA_TYPES(X) \
   X(NONE, "none", 32, 0) \
   X(F16, "f16", 16, 1) \
   X(F32, "f32", 32, 1) \
   X(F64, "f64", 64, 1) \
   X(U8, "u8", 8, 0) \
   X(S8, "s8", 8, 0) \
   X(U16, "u16", 16, 0) \
   X(S16, "s16", 16, 0) \
   X(U32, "u32", 32, 0) \
   X(S32, "s32", 32, 0) \
   X(B16, "b16", 16, 0) \
   X(B32, "b32", 32, 0) \
   X(U64, "u64", 64, 0) \
   X(S64, "s64", 64, 0) \
   X(PRED, "pred", 1, 0)

/*
 * The semantics an op can name in YAML (`sem: fadd`), with the number of
 * sources it reads (-1: variable, checked by the op itself). The functions
 * live in isa/sem.h; the emulator maps ISA_SEM_* to them, the constant
 * folder calls the same functions.
 */
#define ISA_SEMS(X) \
   X(NOP, "nop", 0) \
   X(JUMP, "jump", -1) \
   X(BRANCH, "branch", -1) \
   X(END, "end", 0) \
   X(KILL, "kill", -1) \
   X(SAMPLE_MASK, "sample_mask", 2) \
   X(BARRIER, "barrier", -1) \
   X(WAITCNT, "waitcnt", -1) \
   X(WAIT, "wait", -1) \
   X(MOV, "mov", 1) \
   X(COV, "cov", 1) \
   X(FADD, "fadd", 2) \
   X(FMUL, "fmul", 2) \
   X(FMIN, "fmin", 2) \
   X(FMAX, "fmax", 2) \
   X(FMAD, "fmad", 3) \
   X(FFMA, "ffma", 3) \
   X(FCMP, "fcmp", 2) \
   X(FSIGN, "fsign", 1) \
   X(FFLOOR, "ffloor", 1) \
   X(FCEIL, "fceil", 1) \
   X(FTRUNC, "ftrunc", 1) \
   X(FRNDNE, "frndne", 1) \
   X(FRNDAZ, "frndaz", 1) \
   X(FABSNEG, "fabsneg", 1) \
   X(IADD, "iadd", 2) \
   X(ISUB, "isub", 2) \
   X(IABSNEG, "iabsneg", 1) \
   X(UMUL24, "umul24", 2) \
   X(SMUL24, "smul24", 2) \
   X(MULL_U, "mull_u", 2) \
   X(MUL_LO, "mul_lo", 2) \
   X(UMAD24, "umad24", 3) \
   X(SMAD24, "smad24", 3) \
   X(MADSH_M16, "madsh_m16", 3) \
   X(UMIN, "umin", 2) \
   X(UMAX, "umax", 2) \
   X(SMIN, "smin", 2) \
   X(SMAX, "smax", 2) \
   X(UCMP, "ucmp", 2) \
   X(SCMP, "scmp", 2) \
   X(AND, "and", 2) \
   X(OR, "or", 2) \
   X(XOR, "xor", 2) \
   X(NOT, "not", 1) \
   X(SHL, "shl", 2) \
   X(SHR, "shr", 2) \
   X(ASHR, "ashr", 2) \
   X(BFREV, "bfrev", 1) \
   X(CBITS, "cbits", 1) \
   X(CLZ_B, "clz_b", 1) \
   X(CLZ_S, "clz_s", 1) \
   X(SEL, "sel", 3) \
   X(FSEL, "fsel", 3) \
   X(FCMPSEL, "fcmpsel", 4) \
   X(ICMPSEL, "icmpsel", 4) \
   X(RCP, "rcp", 1) \
   X(RSQ, "rsq", 1) \
   X(LOG2, "log2", 1) \
   X(EXP2, "exp2", 1) \
   X(SIN, "sin", 1) \
   X(COS, "cos", 1) \
   X(SQRT, "sqrt", 1) \
   X(SAM, "sam", -1) \
   X(ISAM, "isam", -1) \
   X(GETSIZE, "getsize", -1) \
   X(LDG, "ldg", -1) \
   X(STG, "stg", -1) \
   X(LDL, "ldl", -1) \
   X(STL, "stl", -1) \
   X(FSETP, "fsetp", 3) \
   X(FSET, "fset", 3) \
   X(ISETP, "isetp", 3) \
   X(PSETP, "psetp", 3) \
   X(FMNMX, "fmnmx", 3) \
   X(IMNMX, "imnmx", 3) \
   X(SHF_L, "shf_l", 3) \
   X(SHF_R, "shf_r", 3) \
   X(SHL_CLAMP, "shl_clamp", 2) \
   X(SHR_CLAMP, "shr_clamp", 2) \
   X(XMAD, "xmad", 3) \
   X(ISCADD, "iscadd", 3) \
   X(IADD3, "iadd3", 3) \
   X(FLO, "flo", 1) \
   X(BFE, "bfe", 2) \
   X(BFI, "bfi", 3) \
   X(SSY, "ssy", -1) \
   X(SYNC, "sync", 0) \
   X(LDC, "ldc", -1) \
   X(SAMB, "samb", -1) \
   X(SAML, "saml", -1) \
   X(ISAML, "isaml", -1) \
   X(TEX, "tex", -1) \
   X(TLD, "tld", -1) \
   X(TXQ, "txq", -1) \
   X(TXD, "txd", -1) \
   X(ATOM, "atom", -1) \
   X(ATOMS, "atoms", -1) \
   X(ATOM_CAS, "atom_cas", -1) \
   X(ATOMS_CAS, "atoms_cas", -1) \
   X(DSX, "dsx", 1) \
   X(DSY, "dsy", 1) \
   X(FSWZADD, "fswzadd", 2) \
   X(SHFL, "shfl", -1) \
   X(GETLOD, "getlod", -1) \
   X(TMML, "tmml", -1) \
   X(TLD4, "tld4", -1) \
   X(VOTE, "vote", 1) \
   X(SAMGQ, "samgq", -1) \
   X(DADD, "dadd", 2) \
   X(DMUL, "dmul", 2) \
   X(DFMA, "dfma", 3) \
   X(DSETP, "dsetp", 3) \
   X(DMNMX, "dmnmx", 3) \
   X(F2D, "f2d", 1) \
   X(D2F, "d2f", 1) \
   X(DFLOOR, "dfloor", 1) \
   X(DCEIL, "dceil", 1) \
   X(DTRUNC, "dtrunc", 1) \
   X(DRNDNE, "drndne", 1) \
   X(I2D, "i2d", 1) \
   X(U2D, "u2d", 1) \
   X(D2I, "d2i", 1) \
   X(D2U, "d2u", 1) \
   X(DMIN, "dmin", 2) \
   X(DMAX, "dmax", 2) \
   X(DCMP, "dcmp", 2) \
   X(DLDEXP, "dldexp", 2) \
   X(AST, "ast", -1) \
   X(EMIT, "emit", -1) \
   X(GS_MSG, "gs_msg", -1) \
   X(EXEC_IF, "exec_if", 3) \
   X(EXEC_ELSE, "exec_else", 3) \
   X(EXEC_WHILE, "exec_while", 3) \
   X(EXEC_POP, "exec_pop", 1) \
   X(JMP_ANY, "jmp_any", 1) \
   X(JMP_NONE, "jmp_none", 1) \
   X(ANDN2, "andn2", 2) \
   X(ORN2, "orn2", 2) \
   X(CNDMASK, "cndmask", 3) \
   X(CSELECT, "cselect", 3) \
   X(AND_SAVEEXEC, "and_saveexec", 2) \
   X(OR_SAVEEXEC, "or_saveexec", 2) \
   X(XOR_SAVEEXEC, "xor_saveexec", 2) \
   X(ANDN2_SAVEEXEC, "andn2_saveexec", 2) \
   X(FSUB, "fsub", 2) \
   X(FMUL_LEGACY, "fmul_legacy", 2) \
   X(FRACT, "fract", 1) \
   X(SIN_REV, "sin_rev", 1) \
   X(COS_REV, "cos_rev", 1) \
   X(CVT_UBYTE0, "cvt_ubyte0", 1) \
   X(CVT_UBYTE1, "cvt_ubyte1", 1) \
   X(CVT_UBYTE2, "cvt_ubyte2", 1) \
   X(CVT_UBYTE3, "cvt_ubyte3", 1) \
   X(MUL_HI_U, "mul_hi_u", 2) \
   X(MUL_HI_I, "mul_hi_i", 2) \
   X(LSHL_OR, "lshl_or", 3) \
   X(LSHL_ADD, "lshl_add", 3) \
   X(ADD_LSHL, "add_lshl", 3) \
   X(OR3, "or3", 3) \
   X(AND_OR, "and_or", 3) \
   X(XAD, "xad", 3) \
   X(FMAX3, "fmax3", 3) \
   X(FMIN3, "fmin3", 3) \
   X(FMED3, "fmed3", 3) \
   X(SMAX3, "smax3", 3) \
   X(SMIN3, "smin3", 3) \
   X(SMED3, "smed3", 3) \
   X(UMAX3, "umax3", 3) \
   X(UMIN3, "umin3", 3) \
   X(UMED3, "umed3", 3) \
   X(UBFE3, "ubfe3", 3) \
   X(SBFE3, "sbfe3", 3) \
   X(BITSEL, "bitsel", 3) \
   X(FFBH, "ffbh", 1) \
   X(FFBH_I, "ffbh_i", 1) \
   X(FFBL, "ffbl", 1) \
   X(BCNT, "bcnt", 2) \
   X(ADD_CO, "add_co", 2) \
   X(SUB_CO, "sub_co", 2) \
   X(ADDC_CO, "addc_co", 3) \
   X(SUBB_CO, "subb_co", 3) \
   X(EXPORT_NULL, "export_null", 0) \
   X(LDEXP, "ldexp", 2) \
   X(PERM, "perm", 3) \
   X(IMAGE_SAMPLE, "image_sample", -1) \
   X(IMAGE_LOAD, "image_load", -1) \
   X(IMAGE_LOD, "image_lod", -1) \
   X(IMAGE_GATHER4, "image_gather4", -1) \
   X(IMAGE_RESINFO, "image_resinfo", -1) \
   X(AGX_SAMPLE, "agx_sample", -1) \
   X(AGX_TXF, "agx_txf", -1) \
   X(AGX_LOD, "agx_lod", -1) \
   X(AGX_GATHER, "agx_gather", -1) \
   X(SIN_PT_1, "sin_pt_1", 1) \
   X(SIN_PT_2, "sin_pt_2", 1) \
   X(READLANE, "readlane", 2) \
   X(WRITELANE, "writelane", 2) \
   X(S_UBFE, "s_ubfe", 2) \
   X(S_SBFE, "s_sbfe", 2) \
   X(IABS, "iabs", 1) \
   X(BITSET0, "bitset0", 2) \
   X(BITSET1, "bitset1", 2) \
   X(BITCMP0, "bitcmp0", 2) \
   X(BITCMP1, "bitcmp1", 2) \
   X(UCMP64, "ucmp64", 2) \
   X(SCMP64, "scmp64", 2) \
   X(MAD_U64, "mad_u64", 3) \
   X(SHL64, "shl64", 2) \
   X(SHR64, "shr64", 2) \
   X(ASHR64, "ashr64", 2) \
   X(ALIGNBIT, "alignbit", 3) \
   X(DIV_SCALE, "div_scale", 3) \
   X(DIV_FMAS, "div_fmas", 4) \
   X(DIV_FIXUP, "div_fixup", 3) \
   X(DDIV_SCALE, "ddiv_scale", 3) \
   X(DDIV_FMAS, "ddiv_fmas", 4) \
   X(DDIV_FIXUP, "ddiv_fixup", 3) \
   X(DRCP, "drcp", 1) \
   X(DSQRT, "dsqrt", 1) \
   X(WQM, "wqm", 1) \
   X(QUAD_SWIZZLE, "quad_swizzle", 5) \
   X(CUBEID, "cubeid", 3) \
   X(CUBESC, "cubesc", 3) \
   X(CUBETC, "cubetc", 3) \
   X(CUBEMA, "cubema", 3) \
   X(READFIRSTLANE, "readfirstlane", 1) \
   X(BPERMUTE, "bpermute", 3) \
   X(BALLOT_CMP, "ballot_cmp", 2) \
   X(SIMD_SHUFFLE, "simd_shuffle", 2) \
   X(SIMD_SHUFFLE_XOR, "simd_shuffle_xor", 2) \
   X(SIMD_SHUFFLE_UP, "simd_shuffle_up", 2) \
   X(SIMD_SHUFFLE_DOWN, "simd_shuffle_down", 2) \
   X(LANE_INDEX, "lane_index", 0)

/*
 * Atomics (the emulator's reading of the semantics): atom works on global
 * memory, atoms on shared memory, at the address of the first register
 * source (plus an immediate offset), with the data in the second; the
 * operation is the atom_op modifier's entry (add sub min max inc dec and
 * or xor exch/xchg cmpxchg), signed or float by the data's type; the old
 * word goes to the destination. cmpxchg takes (new, compare) in two
 * consecutive registers (ir3); the *_cas semantics (compare, new).
 */

/*
 * Lanes of a quad (4k .. 4k+3: top-left, top-right, bottom-left,
 * bottom-right) and of a wave: dsx/dsy give the quad's coarse
 * derivatives, lane 3 - lane 2 and lane 2 - lane 0 (the env's coarse rule);
 * fswzadd d = a OP b with OP per lane of the quad from the swz role's 2-bit
 * fields (0 add, 1 a - b, 2 b - a, 3 b); shfl reads a from another lane of
 * the wave, PTX shfl rules (mode from the shfl_mode role: idx up down
 * bfly; b the lane or offset, c = segment mask << 8 | clamp), the second
 * destination saying whether that lane was in range. readfirstlane
 * (gfx9) gives the wave's first active lane's a (lane 0 when none is)
 * to a uniform register; bpermute d = data of lane ((addr + offset) / 4)
 * mod 64 of the wave, 0 when that lane is inactive (gfx9 ds_bpermute_b32,
 * an LDS-class op that touches no memory). quad_swizzle d = a of lane
 * 4k + qj for lane 4k + j, qj the immediates b..e (gfx9 ds_swizzle_b32's
 * QUAD_PERM form), 0 when that lane is inactive.
 *
 * agx (applegpu's icmp_ballot and simd_shuffle* exec code): ballot_cmp
 * compares a with b (the cond and type roles) in each active lane and
 * writes the mask of those that hold (bit = lane of the wave) to every
 * active lane. The simd_shuffle* semantics read a from any lane, active
 * or not (an inactive lane gives what its register holds), and b as a
 * 16-bit lane index, shift or xor; their quad rule: the two low bits of
 * b are ORed over the four lanes of each source quad, inactive lanes
 * included, and that OR selects within the quad (so only a b whose low
 * bits are the same in every lane, an immediate, reads the lane it
 * names). A lane whose index, shift or xor leaves the wave reads its
 * own a. lane_index gives the lane's number in its wave (get_sr
 * thread_index_in_simdgroup).
 */

/*
 * DPP (gfx9; the emulator's reading, emu/exec.c): an op with the dpp_*
 * roles reads its first source from another lane of the same wave. The
 * lane: dpp_qp0..3 (a quad permutation: lane 4k + j reads lane 4k +
 * qpj), or dpp_row (0 row_shl: lane + n, 1 row_shr: lane - n, 2 row_ror:
 * lane - n mod 16, within the lane's row of 16) with dpp_shift = n. A
 * lane whose source lane is outside its row or inactive (EXEC) reads 0
 * when dpp_bound is set and is not written otherwise; lanes of a row or
 * bank (4 lanes of a row) whose dpp_row_mask / dpp_bank_mask bit is 0 are
 * not written.
 */

/*
 * Stage outputs (the emulator's reading, emu/gs.c). ast stores to the
 * output attributes of one vertex of the invocation: src0 an address
 * register and src1 a byte offset (attribute byte 16 * i + 4 * c holds
 * OUT[i].c, EMU_ATTR_OUTPUT in emu/emu.h), src2 the vertex (a tessellation
 * control output vertex; in a geometry shader the handle emit returned),
 * src3 the data, as many registers as the operand covers. emit (geometry
 * shaders): src0 the handle of the vertex written so far, src1 the
 * stream; the emit_mode role's entry (emit, cut, emit_cut) says whether
 * the vertex is emitted, the primitive ended, or both; the destination
 * gets the handle of the next vertex.
 */

/*
 * The execution-mask stack (agx; the emulator's reading, emu/flow.c). Each
 * lane keeps a nesting count c (agx: r0l, the low half of register 0) and
 * is active when c == 0. With k = cond(a, b) (the cond role; float or
 * integer by the sources' type) and n the last source (an immediate):
 * exec_if: c != 0 ? c + n : (k ? 0 : 1); exec_else: c == 0 ? n :
 * c == 1 ? (k ? 0 : 1) : c; exec_while: c < n ? (k ? 0 : n) : c;
 * exec_pop: max(0, c - n). They run on every lane, active or not.
 * jmp_any / jmp_none branch if any / no lane of the wave is active.
 */

/*
 * Lane masks and scalar ops (gfx9; the emulator's reading, emu/salu.c).
 * andn2 a & ~b, orn2 a | ~b (32 or 64 bits by the type); cndmask d = m ?
 * b : a per lane (m: the lane's bit of a mask); cselect d = scc ? a : b;
 * x_saveexec (s, exec): d0 = exec, d1 (the new exec) = s OP exec (andn2:
 * s & ~exec). A scalar op's implicit scc destination gets sem_scc().
 */

/*
 * Roles a model modifier can play. Code that must find "the (ss) flag" or
 * "the stall count" asks for the role, never for a spelling, so the same
 * scheduler runs on every model (isa_mod_by_role()).
 */
#define ISA_ROLES(X) \
   X(NONE, "none") \
   X(SS, "ss") \
   X(SY, "sy") \
   X(JP, "jp") \
   X(RPT, "rpt") \
   X(NOPS, "nop") \
   X(SAT, "sat") \
   X(ISAT, "isat") \
   X(EI, "ei") \
   X(UL, "ul") \
   X(COND, "cond") \
   X(TYPE, "type") \
   X(DST_TYPE, "dst_type") \
   X(SRC_TYPE, "src_type") \
   X(ROUND, "round") \
   X(PRECISION, "precision") \
   X(WRMASK, "wrmask") \
   X(STALL, "stall") \
   X(YIELD, "yield") \
   X(WR_BAR, "wr_bar") \
   X(RD_BAR, "rd_bar") \
   X(WAIT_MASK, "wait_mask") \
   X(REUSE, "reuse") \
   X(DST_SEL, "dst_sel") \
   X(DST_UNUSED, "dst_unused") \
   X(WAIT_SLOT, "wait_slot") \
   X(VMCNT, "vmcnt") \
   X(LGKMCNT, "lgkmcnt") \
   X(EXPCNT, "expcnt") \
   X(FTZ, "ftz") \
   X(GUARD, "guard") \
   X(SETOP, "setop") \
   X(SETOP2, "setop2") \
   X(WRAP, "wrap") \
   X(HI, "hi") \
   X(BREV, "brev") \
   X(PSL, "psl") \
   X(MRG, "mrg") \
   X(BF, "bf") \
   X(XMODE, "xmode") \
   X(SHFTYPE, "shftype") \
   X(TEX_DIM, "tex_dim") \
   X(TEX_LOD, "tex_lod") \
   X(TEX_SHADOW, "tex_shadow") \
   X(TEX_OFFSET, "tex_offset") \
   X(TEX_DMASK, "tex_dmask") \
   X(TEX_3D, "tex_3d") \
   X(TEX_ARRAY, "tex_array") \
   X(TEX_PROJ, "tex_proj") \
   X(TEX_MS, "tex_ms") \
   X(TEX_FETCH_LOD, "tex_fetch_lod") \
   X(ATOM_OP, "atom_op") \
   X(SWZ, "swz") \
   X(SHFL_MODE, "shfl_mode") \
   X(TEX_QUERY, "tex_query") \
   X(TEX_COMP, "tex_comp") \
   X(VOTE_MODE, "vote_mode") \
   X(EMIT_MODE, "emit_mode") \
   X(GS_STREAM, "gs_stream") \
   X(SRC0_SEL, "src0_sel") \
   X(SRC1_SEL, "src1_sel") \
   X(DPP_QP0, "dpp_qp0") \
   X(DPP_QP1, "dpp_qp1") \
   X(DPP_QP2, "dpp_qp2") \
   X(DPP_QP3, "dpp_qp3") \
   X(DPP_ROW, "dpp_row") \
   X(DPP_SHIFT, "dpp_shift") \
   X(DPP_BOUND, "dpp_bound") \
   X(DPP_ROW_MASK, "dpp_row_mask") \
   X(DPP_BANK_MASK, "dpp_bank_mask")

/* Hazard mechanisms a model can declare (`hazard: {model: ...}`). */
#define ISA_HAZARD_KINDS(X) \
   X(DELAY_SLOTS, "delay_slots") \
   X(STALL_COUNTS, "stall_counts") \
   X(WAIT_STATES, "wait_states") \
   X(INTERLOCKED, "interlocked")

/* How a latency class is synchronised with its consumers. */
#define ISA_SYNCS(X) \
   X(NONE, "none") \
   X(SS, "ss") \
   X(SY, "sy") \
   X(SCOREBOARD, "scoreboard") \
   X(VMCNT, "vmcnt") \
   X(LGKMCNT, "lgkmcnt") \
   X(EXPCNT, "expcnt") \
   X(WAIT_SLOT, "wait_slot")

/* Hardware capabilities beyond the op set that a shader may need. A model
 * lists those its hardware has (`features:`); a shader needing one the
 * target lacks is not applicable to it (diffcomp check reports n/a). */
#define ISA_FEATURES(X) \
   X(FMA, "fma", "fused multiply-add with one rounding") \
   X(FP64, "fp64", "64-bit floating point") \
   X(SUBGROUP, "subgroup", "subgroup votes, ballots and broadcasts") \
   X(FINE_DERIV, "fine-derivatives", "per-pixel derivatives") \
   X(GATHER, "gather", "four-texel gathers") \
   X(MULTISAMPLE, "multisample", "multisample textures") \
   X(GEOMETRY, "geometry", "a geometry-shader stage") \
   X(TESSELLATION, "tessellation", "tessellation stages") \
   X(FBFETCH, "fbfetch", "framebuffer fetch (the pixel's colour before the draw)")

/* Why a decoded instruction is illegal (struct isa_insn.illegal). */
#define ISA_ILLEGALS(X) \
   X(NONE, "legal") \
   X(OPERAND_FORM, "operand bits match no operand form") \
   X(OPERAND_KIND, "operand form not allowed in this slot") \
   X(REGISTER, "register number not in any register file") \
   X(MOD_VALUE, "modifier value not in its enum") \
   X(RULE, "op-specific illegal combination") \
   X(ALIGN, "register operand not aligned to its register group")
/* clang-format on */

#define ISA_ENUM_(n, ...) ISA_ERR_##n,
enum isa_err { ISA_ERRORS(ISA_ENUM_) ISA_ERR_COUNT };
#undef ISA_ENUM_
#define ISA_ENUM_(n, ...) ISA_FILE_##n,
enum isa_file_kind { ISA_FILE_KINDS(ISA_ENUM_) ISA_FILE_KIND_COUNT };
#undef ISA_ENUM_
#define ISA_ENUM_(n, ...) ISA_TYPE_##n,
enum isa_type { ISA_TYPES(ISA_ENUM_) ISA_TYPE_COUNT };
#undef ISA_ENUM_
#define ISA_ENUM_(n, ...) ISA_SEM_##n,
enum isa_sem { ISA_SEMS(ISA_ENUM_) ISA_SEM_COUNT };
#undef ISA_ENUM_
#define ISA_ENUM_(n, ...) ISA_ROLE_##n,
enum isa_role { ISA_ROLES(ISA_ENUM_) ISA_ROLE_COUNT };
#undef ISA_ENUM_
#define ISA_ENUM_(n, ...) ISA_HAZARD_##n,
enum isa_hazard_kind { ISA_HAZARD_KINDS(ISA_ENUM_) ISA_HAZARD_KIND_COUNT };
#undef ISA_ENUM_
#define ISA_ENUM_(n, ...) ISA_SYNC_##n,
enum isa_sync { ISA_SYNCS(ISA_ENUM_) ISA_SYNC_COUNT };
#undef ISA_ENUM_
#define ISA_ENUM_(n, ...) ISA_FEATURE_##n,
enum isa_feature { ISA_FEATURES(ISA_ENUM_) ISA_FEATURE_COUNT };
#undef ISA_ENUM_
#define ISA_ENUM_(n, ...) ISA_ILLEGAL_##n,
enum isa_illegal { ISA_ILLEGALS(ISA_ENUM_) ISA_ILLEGAL_COUNT };
#undef ISA_ENUM_

/* ------------------------------------------------------------------ */
/* The decoded instruction record.                                     */

enum isa_opnd_kind {
   ISA_OPND_NONE,
   ISA_OPND_REG,   /* register: file + index */
   ISA_OPND_CONST, /* constant-file slot: file + index (+ bank) */
   ISA_OPND_IMM,   /* immediate: value */
};

/* Operand flags. NEG/ABS are float modifiers on float-typed slots and
 * integer negate on integer slots (the op's type says which). */
enum {
   ISA_OPND_F_NEG = 1 << 0,
   ISA_OPND_F_ABS = 1 << 1,
   ISA_OPND_F_R = 1 << 2,    /* (r): index advances with each (rptN) repeat */
   ISA_OPND_F_REL = 1 << 3,  /* index = address register `bank` + offset `value` */
   ISA_OPND_F_SEXT = 1 << 4, /* sub-dword select sign-extends */
   ISA_OPND_F_NOT = 1 << 5,  /* bitwise not */
   ISA_OPND_F_LAST = 1 << 6, /* last use hint */
   ISA_OPND_F_HI = 1 << 7,   /* upper half (16-bit halves of a 32-bit register) */
};

/*
 * One operand, 16 bytes. REG and CONST: file (model register-file index)
 * and index. CONST with banks (c[bank][index]): bank. REL (flag): the
 * register is file[addr + value] where addr is address register `bank`
 * (an index into the model's address file). IMM: value holds the 32 bits
 * the op reads -- an integer already sign- or zero-extended, a float already
 * expanded to f32 bits (top-N-bits forms and lookup tables resolved). In a
 * 64-bit slot the op reads 64 bits: hi:value, hi the high word (gfx9: an
 * inline float constant is its double, an integer and an integer literal
 * are sign-extended, a literal in a float slot is the high word; 0 in a
 * 32-bit slot). Which encoding holds a 64-bit value is the encoder's
 * choice, so 0x3f000000 and 0.5 in an s_mov_b64 stay apart.
 */
struct isa_opnd {
   uint8_t kind;  /* enum isa_opnd_kind */
   uint8_t file;  /* register file index */
   uint8_t flags; /* ISA_OPND_F_* */
   uint8_t sel;   /* sub-dword select (model enum value); 0 = whole register */
   uint16_t index;
   uint16_t bank;
   uint32_t value;
   uint32_t hi; /* IMM in a 64-bit slot: the high word */
};

#define ISA_MAX_DST  2
#define ISA_MAX_SRC  5
#define ISA_MAX_MODS 48 /* sm50 has 46: control word, compare, shift and texture modes */

/*
 * A decoded (or to-be-encoded) instruction. mod[] is indexed by the
 * model's modifier index (isa_mod_find / isa_mod_by_role); modifiers the op
 * does not have are 0. illegal != ISA_ILLEGAL_NONE marks an encoding the
 * hardware would reject; illegal_arg says which operand (dst 0..,
 * then srcs from ISA_MAX_DST) or modifier or rule.
 */
struct isa_insn {
   uint16_t op;  /* op index in the model */
   uint16_t sem; /* enum isa_sem of the op (copied for dispatch) */
   uint8_t cls;  /* latency class index */
   uint8_t ndst, nsrc;
   uint8_t size;    /* bytes of this instruction (a bundle's control word not counted) */
   uint8_t illegal; /* enum isa_illegal */
   uint8_t illegal_arg;
   uint16_t pad_;
   uint32_t addr; /* byte offset in the program (set by the program decoder/assembler) */
   struct isa_opnd dst[ISA_MAX_DST];
   struct isa_opnd src[ISA_MAX_SRC];
   int16_t mod[ISA_MAX_MODS];
};

/* ------------------------------------------------------------------ */
/* Read-only views of the model for compilers and the emulator.        */

struct isa_file_info {
   const char *name;
   enum isa_file_kind kind;
   unsigned count; /* number of registers */
   unsigned width; /* bits per register */
   int half_of;    /* for HALF files aliasing another file's halves: that file, else -1 */
   int fixed;      /* a register that always reads fixed_value, writes discarded (RZ), or -1 */
   uint32_t fixed_value;
   const bool *undef; /* count entries: no value at wave start (gfx9 M0), or NULL */
};

/* How a branch-target immediate is relative to its instruction (imm
 * `pcrel:` in the model): counted in instructions, bytes or dwords, from this
 * instruction or from the one after it (byte addresses include any bundle
 * control words, as struct isa_insn.addr does). */
enum isa_pcrel {
   ISA_PCREL_NONE,
   ISA_PCREL_INSN,       /* target = this instruction's index + value */
   ISA_PCREL_INSN_NEXT,  /* target = this instruction's index + 1 + value */
   ISA_PCREL_BYTE,       /* target address = this addr + value */
   ISA_PCREL_BYTE_NEXT,  /* target address = this addr + size + value */
   ISA_PCREL_DWORD_NEXT, /* target address = this addr + size + 4 * value (gfx9) */
};

/* What one source or destination slot of an op accepts. */
struct isa_slot_info {
   const char *name;   /* field name in the model, e.g. "src1" */
   uint8_t kinds;      /* bit (1 << ISA_OPND_*) for each operand kind accepted */
   bool rel;           /* relative (address-register) form accepted */
   uint8_t imm_bits;   /* widest immediate accepted (0: none) */
   bool imm_signed;    /* integer immediate is sign-extended */
   bool imm_float_top; /* immediate is the top imm_bits bits of an f32 */
   bool imm_lut;       /* immediate is an index into a value table */
   enum isa_type type; /* data type (ISA_TYPE_NONE: given by a type modifier) */
   uint8_t read_delay; /* cycles after issue the slot is read (mad src3: 2) */
   uint8_t elements;   /* an address offset in elements of the access (`scale: element`) */
   uint8_t neg, abs;   /* 1 if the slot has a neg / abs modifier */
   uint8_t pcrel;      /* enum isa_pcrel of its immediate form (branch targets) */
   uint32_t files;     /* bit f for each register file a register form names */
};

struct isa_op_info {
   const char *name; /* mnemonic */
   enum isa_sem sem;
   unsigned cls; /* latency class index */
   unsigned ndst, nsrc;
   int commute[2]; /* two source slots that may be swapped, or -1 */
   int flip_mod;   /* modifier to flip when swapping (a compare condition), or -1 */
   unsigned size;  /* bytes */
};

struct isa_class_info {
   const char *name;
   enum isa_sync sync;     /* how consumers wait for the result */
   enum isa_sync war_sync; /* how a later writer waits for the sources to be read */
   int latency;            /* fixed-latency result distance (slots or cycles), -1 if variable */
   int soft_latency;       /* scheduler estimate for variable-latency classes */
   int read_early;         /* extra distance when this class consumes a fixed-latency result */
   bool flow;              /* branch/jump/end: ends a block or redirects */
   bool unordered;         /* counter sync: results return out of order (only a wait for 0) */
   bool scalar;            /* once per wave on every lane, whatever the execution mask (gfx9) */
   bool explicit_only;     /* ops few programs have (gfx9 DPP): the reference path waits for
                              them only in programs that have one (compiler/ref/ref_hazard.c) */
};

/* A register an op reads or writes without an operand field (`implicit:`
 * in the model: gfx9 VOPC writes vcc, SOPC scc, s_cbranch_execz reads
 * exec). count: consecutive registers (a pair: 2); flags ISA_OPND_F_NOT
 * on a branch's condition register: the branch is taken when it is 0. */
#define ISA_MAX_IMPLICIT 3
struct isa_implicit {
   uint8_t file, count, flags;
   uint16_t index;
};

/* ------------------------------------------------------------------ */
/* Functions.                                                          */

/* model.c */
/* Opens a model by name ("a3xx": isa/models/a3xx.yaml in the source tree,
 * or DIFFCOMP_ISA_PATH) or by path (anything containing '/' or ending in
 * .yaml). The model is loaded and checked; on failure *out is NULL and the
 * diagnostics say where. */
enum isa_err isa_open(const char *name_or_path, struct isa_model **out, struct diag_list *d);
/* The directory models are opened from by name: DIFFCOMP_ISA_PATH, else the
 * source tree's isa/models. */
const char *isa_model_dir(void);
/* Loads from a string; `file` names it in diagnostics. */
enum isa_err isa_open_string(const char *text, size_t len, const char *file, struct isa_model **out,
                             struct diag_list *d);
void isa_close(struct isa_model *m);
const char *isa_strerror(enum isa_err e);
const char *isa_model_name(const struct isa_model *m);
/* A digest of the model's YAML text (what `diffcomp --version` prints), so a
 * report can be matched to the models that made it. */
uint64_t isa_model_digest(const struct isa_model *m);
/* True for models whose instructions come in bundles with a control word (sm50). */
bool isa_model_is_bundled(const struct isa_model *m);
/* Whether the model's `features:` list has f. */
bool isa_has_feature(const struct isa_model *m, enum isa_feature f);

unsigned isa_op_count(const struct isa_model *m);
int isa_op_find(const struct isa_model *m, const char *mnemonic);
/* The ops of semantics s, in model order (*n of them): what a scan of
 * every op for that semantics would visit. */
const uint16_t *isa_ops_by_sem(const struct isa_model *m, enum isa_sem s, unsigned *n);
void isa_op_info(const struct isa_model *m, unsigned op, struct isa_op_info *out);
bool isa_slot_info(const struct isa_model *m, unsigned op, bool dst, unsigned slot,
                   struct isa_slot_info *out);
/* An operand slot's register count as the model states it (`count:`):
 * n, or the immediate of slot `imm_slot` (ISA_SLOT_DST/SRC numbering; -1:
 * none), or up to the highest set bit of modifier `mask_mod` (-1: none),
 * plus nterms terms (isa_slot_count_term). isa_opnd_count() answers for
 * the compilers; the emulator computes its counts from these facts itself.
 * false if the op has no such slot. */
struct isa_count_info {
   unsigned n;
   int imm_slot, mask_mod;
   unsigned nterms;
};
bool isa_slot_count_info(const struct isa_model *m, unsigned op, bool dst, unsigned slot,
                         struct isa_count_info *out);
/* Term k of a summed count: modifier `mod` adds add[j] when its value is
 * val[j] (a flag: 1). */
#define ISA_COUNT_TERM_VALS 8
struct isa_count_term {
   int mod;
   unsigned nvals;
   int val[ISA_COUNT_TERM_VALS];
   unsigned add[ISA_COUNT_TERM_VALS];
};
bool isa_slot_count_term(const struct isa_model *m, unsigned op, bool dst, unsigned slot,
                         unsigned k, struct isa_count_term *out);
/* The op's implicit destinations (dst) or sources, *n of them. */
const struct isa_implicit *isa_op_implicit(const struct isa_model *m, unsigned op, bool dst,
                                           unsigned *n);
unsigned isa_file_count(const struct isa_model *m);
int isa_file_find(const struct isa_model *m, const char *name);
void isa_file_info(const struct isa_model *m, unsigned file, struct isa_file_info *out);
unsigned isa_class_count(const struct isa_model *m);
void isa_class_info(const struct isa_model *m, unsigned cls, struct isa_class_info *out);
unsigned isa_mod_count(const struct isa_model *m);
int isa_mod_find(const struct isa_model *m, const char *name);
int isa_mod_by_role(const struct isa_model *m, enum isa_role role);
int isa_insn_mod_by_role(const struct isa_model *m, const struct isa_insn *in, enum isa_role role);
/* Whether op has a field for modifier `mod` (a 0 in isa_insn.mod is then a value). */
bool isa_op_has_mod(const struct isa_model *m, unsigned op, int mod);
const char *isa_mod_name(const struct isa_model *m, unsigned mod);
/* The operand field a modifier acts on (`operand:` in the model: the SDWA
 * source selects), or NULL. */
const char *isa_mod_operand(const struct isa_model *m, unsigned mod);
/* Value of enum entry `name` of the enum modifier `mod` is bound to, or -1. */
int isa_mod_value(const struct isa_model *m, unsigned mod, const char *name);
/* Compare-flip partner of an enum value (lt -> gt), or -1 if none. */
int isa_mod_flip(const struct isa_model *m, unsigned mod, int value);
/* Name of enum value `value` of the enum modifier `mod`, or NULL. */
const char *isa_mod_value_name(const struct isa_model *m, unsigned mod, int value);
/* The op's key in the model file: unique, where mnemonics may be shared
 * between forms (isa_op_find accepts it). */
const char *isa_op_key(const struct isa_model *m, unsigned op);
enum isa_hazard_kind isa_hazard_kind(const struct isa_model *m);
/* A named integer hazard parameter ("alu_to_alu", "scoreboards", ...), or def. */
int isa_hazard_param(const struct isa_model *m, const char *name, int def);
/* Figure i of hazard.figures: a public latency figure the model was built
 * from (name, value, source text), which `diffcomp bench latency` measures
 * on the emulator. false when there is no figure i. */
struct isa_figure_info {
   const char *name, *source;
   int value;
};
bool isa_figure_info(const struct isa_model *m, unsigned i, struct isa_figure_info *out);
/* The most wait states any row of the wait-state table asks for (0: none). */
int isa_wait_states_max(const struct isa_model *m);
/* Row i of the wait-state table as the model gives it (the emulator reads
 * the rows itself, apart from isa_delay): producer and consumer class
 * names, the register file the row is about (-1: any) and the wait states.
 * false when there is no row i. */
struct isa_wait_rule_info {
   const char *first, *second;
   int file;
   int states;
   unsigned nops;           /* consumer ops the row names (0: every op of class second) */
   int slot;                /* the consumer's source (ISA_SLOT_SRC numbering from 0) or -1 */
   int imp_file, imp_index; /* ... or the implicit source register it reads, or -1 */
};
bool isa_wait_rule_info(const struct isa_model *m, unsigned i, struct isa_wait_rule_info *out);
/* Whether row i is about consumer op `op` (a row naming no ops: any). */
bool isa_wait_rule_op(const struct isa_model *m, unsigned i, unsigned op);

const char *isa_sem_name(enum isa_sem s);
int isa_sem_find(const char *name);
/* Sources the semantics reads, or -1 if the op decides. */
int isa_sem_arity(enum isa_sem s);
const char *isa_type_name(enum isa_type t);
unsigned isa_type_bits(enum isa_type t);
bool isa_type_is_float(enum isa_type t);
const char *isa_illegal_str(enum isa_illegal r);
/* Why a decoded record is illegal, in words: the model's reason for an
 * op-specific rule (sm50 "SHF.L with .HI ..."), else isa_illegal_str(). */
const char *isa_illegal_reason(const struct isa_model *m, const struct isa_insn *in);
const char *isa_role_name(enum isa_role r);
const char *isa_hazard_name(enum isa_hazard_kind h);
const char *isa_sync_name(enum isa_sync s);
/* delay.c: declares the hazard rules that can decide isa_delay's answers
 * on m as coverage points (util cover_declare). */
void isa_cover_declare(const struct isa_model *m);
/* Whether isa_delay's RAW answer can be "no wait" on m (a result without
 * a sync ready in time); with repeats false, leaving out what only a
 * repeated instruction (its slots elapsing inside it) can give. */
bool isa_raw_no_wait_possible(const struct isa_model *m, bool repeats);
const char *isa_feature_name(enum isa_feature f);
const char *isa_feature_desc(enum isa_feature f);

/* codec.c */
/* Decodes the instruction at byte offset *pos of code[0..size) and
 * advances *pos past it (past a bundle's control word too). Returns
 * ISA_ERR_OK with out->illegal set for an illegal but decodable encoding;
 * ISA_ERR_DECODE / ISA_ERR_TRUNCATED when no op matches. */
enum isa_err isa_decode(const struct isa_model *m, const uint8_t *code, size_t size, size_t *pos,
                        struct isa_insn *out);
/* Decodes a whole program; *out is malloc'd (free()). Stops at the first
 * undecodable word with an error in d. */
enum isa_err isa_decode_program(const struct isa_model *m, const uint8_t *code, size_t size,
                                struct isa_insn **out, size_t *n, struct diag_list *d);
/* Checks that the record is encodable (what the legalizer must ensure),
 * without encoding. Messages go to d (may be NULL). */
enum isa_err isa_check_insn(const struct isa_model *m, const struct isa_insn *in,
                            struct diag_list *d);
/* isa_check_insn's verdict (without messages) for many records,
 * remembered by the record's bytes: a legalizer asks about the same
 * shapes again and again. A memo serves the model it was first asked
 * about (others are checked, not remembered) and stops remembering at a
 * fixed size. The caller owns it. */
struct isa_check_memo;
struct isa_check_memo *isa_check_memo_new(void);
enum isa_err isa_check_insn_memo(struct isa_check_memo *c, const struct isa_model *m,
                                 const struct isa_insn *in);
void isa_check_memo_free(struct isa_check_memo *c);
/* Encodes one instruction into buf (at least 16 bytes); *len = bytes.
 * Bundle models: the instruction word only (use isa_encode_program). */
enum isa_err isa_encode(const struct isa_model *m, const struct isa_insn *in, uint8_t *buf,
                        size_t *len, struct diag_list *d);
/* Encodes a program, with bundles and their control words; *out is malloc'd. */
enum isa_err isa_encode_program(const struct isa_model *m, const struct isa_insn *in, size_t n,
                                uint8_t **out, size_t *len, struct diag_list *d);
/* The same, also giving the byte address of each instruction (addr[0..n)):
 * where isa_encode() of it belongs, for patching the program. */
enum isa_err isa_encode_program_at(const struct isa_model *m, const struct isa_insn *in, size_t n,
                                   uint8_t **out, size_t *len, uint32_t *addr, struct diag_list *d);
/* Brings code, the bytes isa_encode_program_at() made of n records with
 * the addresses addr, up to date with in[0..n), where the records with
 * changed[i] set differ from those encoded: they (and their bundles'
 * control words) are encoded again in place, so the bytes are those
 * isa_encode_program() makes of in. A changed record must keep its op (its
 * size, so every address holds); the caller knows which changed, so no
 * second copy of the program is kept to find them. An error (a changed
 * record that does not encode) leaves code partly updated: encode in[]
 * whole for the message. */
enum isa_err isa_encode_program_update(const struct isa_model *m, const struct isa_insn *in,
                                       const bool *changed, size_t n, uint8_t *code, size_t len,
                                       const uint32_t *addr);
/* Initialises a record for op with every operand empty and modifiers 0. */
void isa_insn_init(const struct isa_model *m, unsigned op, struct isa_insn *in);

/* print.c */
/* Disassembles one record into buf (always NUL-terminated); returns the
 * length the full text needs, like snprintf. */
size_t isa_print_insn(const struct isa_model *m, const struct isa_insn *in, char *buf, size_t size);
/* Decodes and disassembles a whole program, one instruction a line, into a
 * string the caller frees; NULL (diagnostics in d) if it does not decode. */
char *isa_print_program(const struct isa_model *m, const uint8_t *code, size_t size,
                        struct diag_list *d);
/* The name of register `index` of `file` as the disassembler prints it. */
void isa_reg_text(const struct isa_model *m, unsigned file, unsigned index, char *buf, size_t size);

/* asm.c */
/* Assembles text (one instruction per line, ';' or '#' comments). Outputs
 * the records and/or the encoded bytes (either pointer may be NULL; both
 * malloc'd). Errors carry file:line:col with a caret. */
enum isa_err isa_assemble(const struct isa_model *m, const char *text, const char *file,
                          struct isa_insn **insns, size_t *ninsns, uint8_t **bytes, size_t *len,
                          struct diag_list *d);
/* Parses a register or constant name at p ("r1.y", "hr0.x", "c4.z",
 * "R7", "c[2][0x10]"): its file, index and constant bank; returns the
 * length of the name, 0 if p names none. */
size_t isa_parse_reg_name(const struct isa_model *m, const char *p, unsigned *file, unsigned *index,
                          unsigned *bank);
/* Parses one instruction line into a record. */
enum isa_err isa_parse_insn(const struct isa_model *m, const char *line, struct isa_insn *out,
                            struct diag_list *d);

/* delay.c */
/* Operand slot numbers used by isa_delay(), isa_opnd_count() and
 * struct isa_insn.illegal_arg: destinations first, then sources. */
#define ISA_SLOT_DST(i) (i)
#define ISA_SLOT_SRC(i) (ISA_MAX_DST + (i))
/* Implicit operands (isa_op_implicit), for isa_delay: destination i and
 * source i of the op's `implicit:` lists. */
#define ISA_SLOT_IMP_DST(i) (ISA_MAX_DST + ISA_MAX_SRC + (i))
#define ISA_SLOT_IMP_SRC(i) (ISA_MAX_DST + ISA_MAX_SRC + ISA_MAX_IMPLICIT + (i))

/*
 * The one latency/hazard function, used by the scheduler, by hazard
 * insertion and by the emulator's timing model. `pslot` is an operand slot
 * of the earlier instruction, `cslot` one of the later:
 *   producer dst, consumer src: RAW -- the consumer reads what was written;
 *   producer src, consumer dst: WAR -- the consumer overwrites a source the
 *                                      producer may still be reading;
 *   producer dst, consumer dst: WAW.
 * If the two operands cannot touch the same register the answer is
 * {0, ISA_SYNC_NONE}. Otherwise `distance` is the number of instruction
 * slots the model requires between them (a3xx: delay slots, nops count;
 * sm50: stall cycles) and `sync` the flag/scoreboard/counter the later
 * instruction must wait on instead. Everything comes from the model:
 * class latencies, read_early, read_delay, the hazard parameters.
 */
struct isa_delay {
   int distance;
   enum isa_sync sync;
};
struct isa_delay isa_delay(const struct isa_model *m, const struct isa_insn *producer, int pslot,
                           const struct isa_insn *consumer, int cslot);
/* The producer classes after which consumer c can need wait states on a
 * wait-state model: bit k is set when a row of the wait-state table with
 * states for producer class k is about c's class and op (all bits when the
 * model has more than 64 classes). isa_delay() of a producer whose class
 * is not in the set gives c no distance (a sync at most), so a pass that
 * wants distances asks about those producers alone. */
uint64_t isa_wait_producers(const struct isa_model *m, const struct isa_insn *c);
/* What isa_delay() reads of a consumer besides the operand in cslot: two
 * consumers with equal keys, each with a register in cslot, get the same
 * answer from any producer (which register does not matter to the key).
 * Lets a caller that asks about every op of a model ask once per key. */
struct isa_delay_key {
   int cls, read_delay;
   unsigned count, rpt;
   int op, slot; /* the op and slot when a wait-state row names the op, else -1 */
};
void isa_delay_key(const struct isa_model *m, const struct isa_insn *consumer, int cslot,
                   struct isa_delay_key *out);
/* How many consecutive registers operand `slot` covers (write masks,
 * component counts); 1 for most operands. */
unsigned isa_opnd_count(const struct isa_model *m, const struct isa_insn *in, int slot);
/* The registers operand `slot` occupies: isa_opnd_count times the
 * registers one element of its width takes (a 64-bit operand: 2). */
unsigned isa_opnd_regs(const struct isa_model *m, const struct isa_insn *in, int slot);
/* The register a group operand must start at a multiple of (YAML align:
 * sm50 64-bit register pairs are even); 1 for any. */
unsigned isa_opnd_align(const struct isa_model *m, const struct isa_insn *in, int slot);
/* The data type of operand `slot` of a decoded record, with the width its
 * type or width modifier gives (a3xx: 16 for half precision); *width may be
 * NULL. ISA_TYPE_NONE when neither the op nor a modifier says. */
enum isa_type isa_opnd_type(const struct isa_model *m, const struct isa_insn *in, int slot,
                            unsigned *width);

#endif
