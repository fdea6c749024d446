/*
 * The command-line front ends. Only code under tools/ prints or chooses an
 * exit code. Every subcommand has the signature of cmd_fn.
 */
#ifndef DC_TOOLS_H
#define DC_TOOLS_H

#include <stdbool.h>
#include <stdio.h>

#include "compiler/compiler.h"
#include "util/util.h"

/* Exit codes shared by every subcommand. */
enum {
   EXIT_OK = 0,
   EXIT_FAIL = 1,  /* the check found new failures */
   EXIT_USAGE = 2, /* bad usage or unreadable/invalid input */
   EXIT_REFUSED = 3, /* compile: the compiler does not translate this shader
                        (the --opt-cmd protocol's refusal) */
};

typedef int (*cmd_fn)(int argc, char **argv);

#define CMD(name, fn, help) int fn(int argc, char **argv);
#include "tools/commands.h"
#undef CMD

/* main.c */
extern const char *prog_name;
bool use_color(FILE *f);
void print_diags(const struct diag_list *l, FILE *f);
int usage_error(const char *fmt, ...) DC_PRINTF(1, 2);
/* "CMD: unknown option 'ARG' (see diffcomp CMD --help)", or for the old
 * spelling of a renamed option, its new one; returns EXIT_USAGE. */
int unknown_option(const char *cmd, const char *arg);
/* Parses "--name=value" or "--name value"; advances *i past a separate value. */
bool opt_value(int argc, char **argv, int *i, const char *name, const char **value);
bool parse_u64(const char *s, uint64_t *out);
/* A float as YAML: .nan/.inf, else the shortest %g that reads back. */
void print_yaml_float(FILE *f, uint32_t bits);
/* diff_repro_load with its messages printed to stderr. */
struct diff_repro;
bool load_repro(const char *path, struct diff_repro *r);
/* A TGSI file, read as today's dialect, else as the legacy one; NULL after
 * printing why (the bench commands, cmd_bench.c). */
struct tgsi_shader *bench_parse_tgsi(const char *path);

/* inputs.c: shader arguments for the commands that take several: FILE,
 * DIR (its *.tgsi, in name order) or @LIST (one path a line, '#'
 * comments). */
struct shader_args {
   const char **files;
   unsigned nfiles, files_cap;
   char **owned; /* the paths read from directories and lists */
   unsigned nowned, owned_cap;
};
/* Adds arg's files; EXIT_USAGE after printing why (an unreadable list, a
 * directory without *.tgsi). */
int shader_args_add(struct shader_args *s, const char *arg);
void shader_args_free(struct shader_args *s);

/* opt_args.c: the optimizing compiler's options, one parser for every
 * command. Each returns EXIT_OK or prints why and returns EXIT_USAGE. */
/* --opt LIST: 1 << DIFF_INEXACT_*_BIT per name. */
int parse_opt_list(const char *v, unsigned *inexact);
/* --inject-fault LIST: ORs bit OPT_FAULT_* per name into *mask. */
int parse_fault_list(const char *v, struct opt_fault_set *mask);
/* Warns (stderr) about each fault in mask that model `target` lacks. */
void warn_faults_off_target(struct opt_fault_set mask, const char *target);

#endif
