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

#endif
