/*
 * The subcommands of diffcomp, written once:
 *   CMD(name, function, one-line summary)
 * tools/main.c builds the dispatch table and the --help listing from it.
 */
/* clang-format off */
CMD("gen", cmd_gen, "write a random valid TGSI shader (--seed, --stage, --size)")
CMD("tgsi", cmd_tgsi, "parse TGSI files and print them in canonical form (or --check)")
CMD("isa", cmd_isa, "check ISA model files (isa check MODEL...)")
CMD("as", cmd_as, "assemble for an ISA model (as MODEL FILE.s [-o FILE.bin])")
CMD("dis", cmd_dis, "disassemble for an ISA model (dis MODEL FILE.bin | --hex W...)")
CMD("interp", cmd_interp, "run a TGSI shader on the golden interpreter, print outputs as YAML")
CMD("check", cmd_check, "the differential check (the default: diffcomp FILE.tgsi...)")
CMD("repro", cmd_repro, "replay a reproducer written by the check (repro FILE.yaml)")
CMD("reduce", cmd_reduce, "shrink a reproducer's shader and inputs while it fails the same way")
CMD("explain", cmd_explain, "draw the first hazard of a reproducer's optimized program as an SVG timeline (explain FILE.yaml)")
CMD("bisect", cmd_bisect, "name the pass and transformation behind a reproducer's miscompile (bisect FILE.yaml)")
CMD("compile", cmd_compile, "compile a TGSI shader for an ISA model and print the program")
CMD("emu", cmd_emu, "run an assembly program on the cycle-approximate emulator (emu MODEL FILE.s)")
CMD("bench", cmd_bench, "speed figures: bench interp [FILES...] (lane-instructions per second)")
CMD("report", cmd_report, "compare two check --json reports: totals, helped/hurt, new and fixed failures")
CMD("faults", cmd_faults, "list the injectable compiler faults, or measure their detection (--check)")
CMD("llvm", cmd_llvm, "LLVM's AMDGPU back end under test: llvm ir|asm|cc (TGSI -> LLVM IR -> llc -> gfx9 program)")
/* clang-format on */
