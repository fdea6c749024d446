/*
 * The differential checker: inputs, runs, comparison, reports, and the
 * random shader generator that feeds it generated cases.
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
/* gen.c                                                                */

/* What to generate. Any field may be left 0. */
struct diff_gen_opts {
   /* FRAG, VERT or COMP; TGSI_STAGE_COUNT (or any other stage) lets the
    * seed choose among the three. */
   enum tgsi_stage stage;
   /* About this many instructions in the body; 0 = DIFF_GEN_DEFAULT_SIZE. */
   unsigned size;
   /* Opcodes the consumer accepts (e.g. the interpreter's): the random
    * body never uses one this refuses. The fixed scaffolding always uses
    * MOV MAD MUL ADD MIN MAX I2F U2F UMAD SHL AND LOAD STORE END (and,
    * for each construct it emits, that construct's opcodes). NULL = the
    * default filter (diff_gen_default_supports). */
   bool (*supports)(enum tgsi_opcode op);
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

#endif
