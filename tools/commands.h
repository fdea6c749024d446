/*
 * The subcommands of diffcomp, written once:
 *   CMD(name, function, one-line summary)
 * tools/main.c builds the dispatch table and the --help listing from it.
 */
/* clang-format off */
CMD("gen", cmd_gen, "write a random valid TGSI shader (--seed, --stage, --size)")
CMD("tgsi", cmd_tgsi, "parse TGSI files and print them in canonical form (or --check)")
/* clang-format on */
