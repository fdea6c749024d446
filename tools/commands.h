/*
 * The subcommands of diffcomp, written once:
 *   CMD(name, function, one-line summary)
 * tools/main.c builds the dispatch table and the --help listing from it.
 */
/* clang-format off */
CMD("isa", cmd_isa, "check ISA model files (isa check MODEL...)")
/* clang-format on */
