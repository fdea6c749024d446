# diffcomp faults (the catalog and the detection benchmark) and check --inject-fault.
set(_faults_expect ${CMAKE_SOURCE_DIR}/tools/tests/run_cli_expect.cmake)
set(_ffx fixtures/faults)
function(faults_cli name)
  cli_test(cli_${name} ${ARGN})
endfunction()

# The listing, exactly (one line per fault: name, class, targets, pass, description).
add_test(NAME cli_faults_list
         COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:diffcomp> -DARGS=faults -DRC=0
                 -DEXPECT=${_ffx}/list.txt -P ${_faults_expect}
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
faults_cli(faults_list_fixes "faults|-v" 0 OUT "missing-ss +scheduling +a3xx +hazard +no \\(ss\\)[^\n]*\n +imitates: Mesa 016a9ab2f93")
faults_cli(faults_help "faults|--help" 0 OUT "usage: diffcomp faults")
faults_cli(faults_bad_option "faults|--nope" 2 ERR "unknown option '--nope'")
faults_cli(faults_check_no_files "faults|--check" 2 ERR "takes the shader files")
faults_cli(faults_fault_without_check "faults|--inject-fault|missing-ss" 2 ERR "go with --check")
faults_cli(faults_bisect_without_check "faults|--bisect" 2 ERR "go with --check")
faults_cli(faults_bad_reduce_time "faults|--check|${_ffx}/fs_mixed.tgsi|--time-limit|0" 2 ERR "--time-limit takes")
faults_cli(faults_reduce_time_old "faults|--check|${_ffx}/fs_mixed.tgsi|--reduce-time|60" 2 ERR "--reduce-time is spelled --time-limit now")
# the faults to inject: --inject-fault, as in check and compile
faults_cli(faults_fault_old "faults|--check|${_ffx}/fs_mixed.tgsi|--fault|missing-ss" 2
           ERR "faults: --fault is spelled --inject-fault now \\(see diffcomp faults --help\\)")
faults_cli(faults_unknown_fault "faults|--check|${_ffx}/fs_mixed.tgsi|--inject-fault|nope" 2 ERR "unknown fault 'nope'")
# The benchmark: both faults caught, the fault-free run clean (dce-discard
# by the per-rewrite verification: a compile error).
faults_cli(faults_check_detects
           "faults|--check|${_ffx}/fs_mixed.tgsi|--inject-fault|missing-ss,dce-discard|-j0|--invocations|256" 0
           OUT "no fault, a3xx: 1 cases, 1 pass.*missing-ss +a3xx +yes +[a-z,]*hazard.*dce-discard +sm50 +yes +compile-error.*detection rate: 2/2 faults[^\n]*3/3 fault-target pairs \\(100.0%\\)\nfault-free runs: 0 false positives")
# --bisect: the first failing case of each pair bisected with the fault
# injected names one transformation, the fault's own firing, in the pass
# the catalog gives -- one fault per pass that has fault hooks.
faults_cli(faults_check_bisect
           "faults|--check|${_ffx}/fs_mixed.tgsi|${_ffx}/vs_int_loop.tgsi|${_ffx}/vs_invariant_precise.tgsi|--inject-fault|missing-jp,missing-ss,stall-count-short,imm-truncated,swap-without-flip,shf-l-hi,ra-phi-copy-order,fold-minmax-nan,cse-ignores-fields,dce-discard,fuse-precise|--bisect|--invocations|64|-j2" 0
           OUT "missing-ss +a3xx +hazard +hazard +yes +[0-9]+/[0-9]+ .* fault missing-ss: no \\(ss\\) on[^\n]*\nmissing-jp +a3xx +emit +emit +yes .*imm-truncated +sm50 +legalize +legalize +yes .*shf-l-hi +sm50 +isel +isel +yes .*ra-phi-copy-order +sm50 +ra +ra +yes .*fold-minmax-nan +sm50 +algebraic +algebraic +yes .*cse-ignores-fields +sm50 +cse +cse +yes .*dce-discard +sm50 +dce +dce +yes .*fuse-precise +sm50 +fuse,expand +fuse +yes .* fault fuse-precise: %[0-9]+ = fadd\\(%[0-9]+ = fmul[^\n]*\nbisect: 16/16 pairs named one transformation, the fault's firing in its own pass\n")
# --reduce: the first failing case of the pair shrinks (to the KILL_IF and
# END, one lane).
faults_cli(faults_check_reduce
           "faults|--check|${_ffx}/fs_mixed.tgsi|--inject-fault|dce-discard|--target|a3xx|--reduce|--time-limit|60|--invocations|64|-j2" 0
           OUT "dce-discard +a3xx +fs_mixed.tgsi +31 -> [1-5] +64 -> 1 +[0-9]+ +[0-9.]+\nreduce: 1/1 reduced; median 31 -> [1-5] TGSI instructions")
# --generated N: generated shaders (named gen:S, seeds from --seed) take
# part as in check --generated, with or without files.
faults_cli(faults_check_generated
           "faults|--check|--generated|20|--inject-fault|missing-ss|--target|a3xx|--invocations|64|-j2" 0
           OUT "no fault, a3xx: 20 cases.*missing-ss +a3xx +yes +[a-z,]*hazard[a-z,]* +[1-9][0-9]*/[0-9]+ .* gen:[0-9]+\n.*detection rate: 1/1")
faults_cli(faults_generated_without_check "faults|--generated|5" 2 ERR "go with --check")
# A fault no shader reaches goes undetected: exit 1.
faults_cli(faults_check_undetected
           "faults|--check|${_ffx}/fs_tex_out.tgsi|--inject-fault|fold-shift-unmasked|--target|a3xx|-j0" 1
           OUT "fold-shift-unmasked +a3xx +NO .*detection rate: 0/1")
# check --inject-fault: the named bug, caught; unknown names refused.
faults_cli(check_inject_fault
           "check|${_ffx}/fs_mixed.tgsi|--target|a3xx|--inject-fault|missing-ss|--no-repro|-q|-j0" 1
           OUT "fail a3xx [^\n]*hazard")
faults_cli(check_inject_fault_unknown "check|${_ffx}/fs_mixed.tgsi|--inject-fault|nope" 2
           ERR "unknown fault 'nope'")

# diffcomp compile --path opt, and the optimizing compiler's regressions
# against the reference compiler through the check.
function(opt_cli name)
  cli_test(cli_opt_${name} ${ARGN})
endfunction()

opt_cli(compile_stats "compile|fixtures/ref/a3xx/kill_tex.tgsi|--target|a3xx|--path|opt|--stats" 0
        OUT "kill p0.x\n.*; opt a3xx: [0-9]+ instructions, [0-9]+ nops, [0-9]+ registers, [0-9]+ cycles\n$")
# agx is interlocked: no nops, and the figures start from zero (opt's agx
# path once printed whatever the stack held: 32765 nops).
opt_cli(compile_stats_agx "compile|captures/fs_phong.tgsi|--target|agx|--path|opt|--stats" 0
        OUT "; opt agx: [0-9]+ instructions, 0 nops, [0-9]+ registers, [0-9]+ cycles\n$")
# sm50 SQRT: opt took rcp(rsq(x)), an ulp off the reference's correctly
# rounded root, and LRP carried the difference to the output.
opt_cli(brdf_sqrt_sm50 "check|captures/fs_subroutine_brdf.tgsi|--target|sm50|-q|--no-repro|-j|0" 0
        OUT "sm50 +1 +1 +0 +0 +0")
# Per-vertex inputs bound with their vertex (IN[v][slot]).
opt_cli(per_vertex_inputs "check|fixtures/opt/tes_per_vertex.tgsi|--target|sm50|-q|--no-repro|-j|0" 0
        OUT "total +1 +1 +0 +0 +0 +0")
# Texture queries, multisample and gather lookups and subgroup ops against
# the reference compiler; a3xx, which has no gather, multisample textures
# or warp votes, refuses them with the reason.
opt_cli(lod_queries "check|--target|a3xx,sm50|fixtures/opt/fs_lod_queries.tgsi|-q|--no-repro|-j|0" 0
        OUT "total +2 +2 +0 +0 +0 +0")
opt_cli(ms_gather_sm50 "check|fixtures/opt/fs_ms_gather.tgsi|--target|sm50|-q|--no-repro|-j|0" 0
        OUT "sm50 +1 +1 +0 +0 +0 +0")
opt_cli(subgroups_sm50
        "check|fixtures/opt/cs_subgroup_votes.tgsi|--target|sm50|-q|--no-repro|-j|0" 0
        OUT "sm50 +1 +1 +0 +0 +0 +0")
opt_cli(subgroups_a3xx_refused "compile|fixtures/opt/cs_subgroup_votes.tgsi|--target|a3xx|--path|opt" 3
        ERR "unsupported: ballot \\(no warp vote\\) on a3xx, TGSI line 28")
opt_cli(ms_a3xx_refused "compile|fixtures/opt/fs_ms_gather.tgsi|--target|a3xx|--path|opt" 3
        ERR "unsupported: tex \\(a sample-count query: the model has no multisample textures\\)")
# The optimizing compiler's errors name the shader as given, with its line
# (the IR keeps no column), in compile and in check's reports alike.
opt_cli(error_names_shader "compile|fixtures/opt/cs_subgroup_votes.tgsi|--target|a3xx|--path|opt" 3
        ERR "^fixtures/opt/cs_subgroup_votes.tgsi:28: error: unsupported: ballot")
opt_cli(error_names_shader_check
        "check|--target|sm50|--no-repro|--inject-fault|dce-discard|fixtures/faults/fs_mixed.tgsi" 1
        OUT "^fail sm50 fixtures/faults/fs_mixed.tgsi: compile-error \\(opt\\): opt: fixtures/faults/fs_mixed.tgsi:27: rewrite verification: pass dce")
# Jumps SYNC cannot take on sm50 (continue, nested breaks) as structured
# flow: every path of the loops runs against the reference. On a3xx the
# lanes that break ran right before the waiting ones read a register the
# breaking ones had just written (a hazard the delay slots missed).
opt_cli(loop_jumps "check|--target|a3xx,sm50|fixtures/opt/fs_loop_jumps.tgsi|-q|--no-repro|-j|0" 0
        OUT "total +2 +2 +0 +0 +0 +0")

# compile takes check's --opt and --inject-fault (one parser, tools/opt_args.c),
# honours a file's '# dialect:' line, and refuses unknown pass or fault names
# (exit 2) and --print-after on ref; a fault the target lacks is warned about.
opt_cli(compile_dialect_line "compile|fixtures/ref/a3xx/chan_legacy.tgsi|--target|a3xx" 0)
opt_cli(compile_inject_fault "compile|${_ffx}/fs_mixed.tgsi|--target|a3xx|--path|opt|--inject-fault|missing-ss|--opt-bisect-limit|100000" 0
        ERR "BISECT: [^\n]*fault missing-ss: no \\(ss\\)")
opt_cli(compile_opt_fuse "compile|${_ffx}/fs_mixed.tgsi|--target|sm50|--path|opt|--opt|fuse-ffma" 0 OUT "FFMA")
opt_cli(compile_opt_bad "compile|${_ffx}/fs_mixed.tgsi|--target|sm50|--path|opt|--opt|fast" 2
        ERR "--opt takes a list of: fuse-ffma, inexact")
# Old spellings of one concept's option are refused with the new one.
opt_cli(compile_fuse_ffma_old "compile|${_ffx}/fs_mixed.tgsi|--target|sm50|--path|opt|--fuse-ffma" 2
        ERR "--fuse-ffma is spelled --opt fuse-ffma now")
opt_cli(compile_fault_unknown "compile|${_ffx}/fs_mixed.tgsi|--target|a3xx|--path|opt|--inject-fault|nosuch" 2
        ERR "unknown fault 'nosuch'")
opt_cli(compile_fault_off_target "compile|${_ffx}/fs_mixed.tgsi|--target|sm50|--path|opt|--inject-fault|delay-slot-short" 0
        ERR "warning: fault 'delay-slot-short' does not exist on sm50")
opt_cli(compile_fault_on_ref "compile|${_ffx}/fs_mixed.tgsi|--target|a3xx|--inject-fault|missing-ss" 2
        ERR "--inject-fault needs --path opt")
opt_cli(compile_print_after_unknown "compile|${_ffx}/fs_mixed.tgsi|--target|sm50|--path|opt|--print-after|nosuch" 2
        ERR "--print-after: unknown pass 'nosuch'")
opt_cli(compile_print_after_ref "compile|${_ffx}/fs_mixed.tgsi|--target|sm50|--print-after|dce" 2
        ERR "--print-after needs --path opt")
opt_cli(check_fault_off_target "check|--target|sm50|--inject-fault|delay-slot-short|--invocations|16|-j|0|--no-repro|${_ffx}/fs_mixed.tgsi" 0
        ERR "warning: fault 'delay-slot-short' does not exist on sm50")

# gfx9 (issue 17): the SDWA peephole's faults, caught (the per-rewrite
# verifier names the rewrite), and the constant-bus fault at run time.
faults_cli(check_gfx9_sdwa_clean
           "check|${_ffx}/fs_gfx9_sdwa.tgsi|--target|gfx9|--no-repro|-q|-j0" 0)
foreach(_f sdwa-sel-compose sdwa-pad-for-preserve sdwa-sext-pad-swapped 16bit-keeps-high)
  faults_cli(check_gfx9_${_f}
             "check|${_ffx}/fs_gfx9_sdwa.tgsi|--target|gfx9|--inject-fault|${_f}|--no-repro|-q|-j0" 1
             OUT "fail gfx9 [^\n]*rewrite verification: pass sdwa")
endforeach()
faults_cli(check_gfx9_const_bus_drop
           "check|${_ffx}/fs_gfx9_cbus.tgsi|--target|gfx9|--inject-fault|const-bus-drop|--no-repro|-q|-j0" 1
           OUT "fail gfx9 [^\n]*mismatch")
# gfx9 EXEC-mask control flow: the fixture passes on both compilers, and a
# join left out (exec-not-restored) is a run-time mismatch that bisect
# names as the fault's firing in its pass.
faults_cli(check_gfx9_flow_clean
           "check|${_ffx}/fs_gfx9_flow.tgsi|--target|gfx9|--no-repro|-q|-j0" 0
           OUT "gfx9 +1 +1 +0 +0 +0 +0")
faults_cli(check_gfx9_exec_not_restored
           "check|${_ffx}/fs_gfx9_flow.tgsi|--target|gfx9|--inject-fault|exec-not-restored|--no-repro|-q|-j0" 1
           OUT "fail gfx9 [^\n]*mismatch")
faults_cli(faults_gfx9_exec_not_restored_bisect
           "faults|--check|${_ffx}/fs_gfx9_flow.tgsi|--inject-fault|exec-not-restored|--target|gfx9|--bisect|--invocations|256|-j0" 0
           OUT "exec-not-restored +gfx9 +yes +mismatch.*exec-not-restored +gfx9 +hazard,emit +hazard +yes")
# gfx9 doubles on the optimizing path: the pairs fixture passes on both
# compilers (v[n:n+1] results, v_cmp_*_f64 lane masks); a pair allocated
# as one register (ra-pair-one-reg) puts its high word on a live value,
# which the register check after RA stops, and bisect names the firing.
faults_cli(check_gfx9_double_pairs_clean
           "check|${_ffx}/fs_double_pairs.tgsi|--target|gfx9|--no-repro|-q|-j0" 0
           OUT "gfx9 +1 +1 +0 +0 +0 +0")
faults_cli(faults_gfx9_ra_pair_one_reg_bisect
           "faults|--check|${_ffx}/fs_double_pairs.tgsi|--inject-fault|ra-pair-one-reg|--target|gfx9|--bisect|--invocations|256|-j0" 0
           OUT "ra-pair-one-reg +gfx9 +yes +compile-error.*ra-pair-one-reg +gfx9 +ra +ra +yes")
# gfx9 geometry shaders on the optimizing path (stage-window stores at the
# lane's vertex slot, s_sendmsg emits): the fixture passes on both
# compilers; a vertex's window offset reused after an emit
# (gs-emit-offset-stale) is a run-time mismatch, and bisect names the
# firing in isel (and the stage, firings hidden: stages.txt).
faults_cli(check_gfx9_gs_emits_clean
           "check|${_ffx}/gs_gfx9_emits.tgsi|--target|gfx9|--no-repro|-q|-j0" 0
           OUT "gfx9 +1 +1 +0 +0 +0 +0")
faults_cli(faults_gfx9_gs_offset_stale_bisect
           "faults|--check|${_ffx}/gs_gfx9_emits.tgsi|--inject-fault|gs-emit-offset-stale|--target|gfx9|--bisect|--invocations|256|-j0" 0
           OUT "gs-emit-offset-stale +gfx9 +yes +mismatch.*gs-emit-offset-stale +gfx9 +isel +isel +yes")
# Predicate pressure: ten compares live at once in sm50's seven predicate
# registers. opt compiles it again with the compares in general registers
# (each select tests its mask anew); a select testing the wrong sense is a
# mismatch here (tried: "eq" for "ne" in select_bcsel).
opt_cli(pred_pressure_sm50 "check|fixtures/opt/fs_pred_pressure.tgsi|--target|sm50|-q|--no-repro|-j|0" 0
        OUT "sm50 +1 +1 +0 +0 +0")
