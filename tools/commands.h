/*
 * The subcommands of diffcomp, written once:
 *   CMD(name, function, one-line summary)
 * tools/main.c builds the dispatch table and the --help listing from it.
 */
/* clang-format off */
CMD("tgsi", cmd_tgsi, "parse TGSI files and print them in canonical form (or --check)")
CMD("interp", cmd_interp, "run a TGSI shader on the golden interpreter, print outputs as YAML")
CMD("bench", cmd_bench, "speed figures: bench interp [FILES...] (lane-instructions per second)")
/* clang-format on */
