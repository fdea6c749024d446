/*
 * TGSI -> LLVM IR for LLVM's AMDGPU back end, and llc's assembly -> an
 * emulator program: the pieces that put `llc -mcpu=gfx900` where the
 * optimizing compiler stands (`diffcomp llvm`, README "Checking LLVM's
 * AMDGPU back end").
 *
 * The IR is text (no LLVM library is linked). Its calling convention is
 * written into the IR itself as header comment lines, so the assembly
 * converter needs only the IR and llc's output:
 *
 *   ; diffcomp-llvm: stage frag|vert|comp
 *   ; diffcomp-llvm: directive .block 8 8 1       (copied to the program)
 *   ; diffcomp-llvm: arg s .const CONST[0][2].x   (an inreg i32: next SGPR)
 *   ; diffcomp-llvm: arg v .input IN[0].y         (a VGPR argument)
 *   ; diffcomp-llvm: ret .output OUT[0].x         (a returned float: next VGPR)
 *
 * Every argument is a 32-bit scalar, so the shader calling conventions
 * (amdgpu_ps with "InitialPSInputAddr"="0xffff", amdgpu_vs, amdgpu_cs)
 * give inreg arguments s0, s1, ... and the others v0, v1, ... in order,
 * and returned floats v0, v1, ... in order.
 */
#ifndef DC_LLVM_H
#define DC_LLVM_H

#include "compiler/tgsi/tgsi.h"

/* llvm_tgsi*.c */
/* The IR of s as an amdgpu_ps/vs/cs function named "main", or NULL with
 * an error at the first thing not translated (the reason named). The
 * caller frees the text. */
char *llvm_from_tgsi(const struct tgsi_shader *s, struct diag_list *d);
/* Whether the translator takes op at all (the interpreter's ops less
 * 64-bit values, textures, images, atomics and derivatives): a filter for
 * the shader generator (`diffcomp gen --ops llvm`). Some uses of an op it
 * takes may still be refused (indirect resources, for one). */
bool llvm_tgsi_supports(enum tgsi_opcode op);
/* The same without ARL/UARL (no indirect addressing, whose constant reads
 * are global loads): `gen --ops llvm-direct`. */
bool llvm_tgsi_supports_direct(enum tgsi_opcode op);

/* llvm_asm.c */
/* llc's assembly of the IR's function as an emulator program (the format
 * `compile -o` writes: binding directives, then the model's assembly):
 * directives and comments dropped, s_endpgm appended where the function
 * returns to its epilog. NULL with an error naming the line on a
 * construct it cannot carry over. The caller frees the text. */
char *llvm_asm_to_program(const char *ir, const char *asm_text, const char *asm_name,
                          struct diag_list *d);

#endif
