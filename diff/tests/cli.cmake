# diffcomp check and diffcomp repro: exit codes, failure lines, isolation,
# baseline, shards, report files, reproducers, determinism across -j.
set(_chk_run ${CMAKE_CURRENT_LIST_DIR}/run_check.cmake)
set(_fx fixtures/check)
set(_out ${CMAKE_BINARY_DIR}/check-tests)
function(check_cli name args rc)
  cmake_parse_arguments(T "" "OUT;NOT_OUT;ERR;ENVS;FILE;FILE_RE;CLEAN;SAME_AS;SETUP;NEEDS" "" ${ARGN})
  set(defs -DEXE=$<TARGET_FILE:diffcomp> -DARGS=${args} -DRC=${rc})
  foreach(k OUT NOT_OUT ERR ENVS FILE FILE_RE CLEAN SAME_AS)
    if(DEFINED T_${k})
      set(v "${T_${k}}")
      if(k STREQUAL "OUT")
        list(APPEND defs "-DOUT_RE=${v}")
      elseif(k STREQUAL "NOT_OUT")
        list(APPEND defs "-DNOT_OUT_RE=${v}")
      elseif(k STREQUAL "ERR")
        list(APPEND defs "-DERR_RE=${v}")
      else()
        list(APPEND defs "-D${k}=${v}")
      endif()
    endif()
  endforeach()
  add_test(NAME cli_check_${name} COMMAND ${CMAKE_COMMAND} ${defs} -P ${_chk_run}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  if(T_SETUP)
    set_tests_properties(cli_check_${name} PROPERTIES FIXTURES_SETUP ${T_SETUP})
  endif()
  if(T_NEEDS)
    set_tests_properties(cli_check_${name} PROPERTIES FIXTURES_REQUIRED ${T_NEEDS})
  endif()
endfunction()

# Usage.
check_cli(help "check|--help" 0 OUT "usage: diffcomp \\[check\\] FILE.tgsi")
check_cli(no_files "check" 2 ERR "usage: diffcomp \\[check\\]")
check_cli(bad_option "check|--frob|x.tgsi" 2 ERR "unknown option '--frob'")
check_cli(bad_shard "check|--shard|3/2|x.tgsi" 2 ERR "--shard takes K/N")
check_cli(bad_target "check|--target|nosuch|x.tgsi" 2 ERR "nosuch")
check_cli(bad_opt "check|--opt|fast|x.tgsi" 2 ERR "--opt takes a list of: fuse-ffma, inexact")
check_cli(bad_env_shard "check|${_fx}/fs_basic.tgsi" 2 ENVS "CI_NODE_INDEX=0|CI_NODE_TOTAL=2"
          ERR "CI_NODE_INDEX")

# Passing runs, with and without the subcommand.
check_cli(pass "check|--target|a3xx|--no-repro|${_fx}/fs_basic.tgsi|${_fx}/vs_precise.tgsi" 0
          OUT "total +2 +2 +0 +0 +0 +0\n2 shaders, 2 cases in")
check_cli(default_command "--target=a3xx|--no-repro|${_fx}/fs_basic.tgsi" 0 OUT "a3xx +1 +1 +0")
# A 3-D image's depth coordinate is channel z (ref once read w).
check_cli(image3d "--target|a3xx,sm50|--no-repro|--invocations|16|${_fx}/cs_image3d.tgsi" 0 OUT "total +2 +2 +0 +0 +0 +0")

# Inputs that cannot be checked: exit 2 (125 with --git-bisect).
check_cli(input_error "--target|a3xx|--no-repro|${_fx}/bad_parse.tgsi|${_fx}/fs_basic.tgsi" 2
          OUT "^error a3xx fixtures/check/bad_parse.tgsi: input-error \\(parse\\): fixtures/check/bad_parse.tgsi:4:18: TEMP\\[9\\] is not declared\n")
check_cli(interp_error "--target|a3xx|--no-repro|${_fx}/interp_refuses.tgsi" 2
          OUT "error a3xx fixtures/check/interp_refuses.tgsi: interp-error \\(interp\\): UNSUPPORTED: .*refuses CLOCK")
check_cli(missing_file "--target|a3xx|--no-repro|${_fx}/no_such.tgsi" 2 OUT "No such file")
check_cli(bisect_input "--target|a3xx|--git-bisect|--no-repro|${_fx}/bad_parse.tgsi" 125)

# A crash or a hang is one case's failure; the run goes on.
check_cli(crash "--target|a3xx|--repro-dir|${_out}/crash|${_fx}/fs_basic.tgsi|${_fx}/vs_precise.tgsi" 1
          ENVS "DIFFCOMP_CHECK_INJECT=crash:fs_basic" CLEAN ${_out}/crash
          OUT "^fail a3xx fixtures/check/fs_basic.tgsi: crash \\(parse\\): SIGSEGV in parse \\[repro: .*/crash/fs_basic-a3xx.yaml\\]\n.*total +2 +1 +1 +0 +0"
          FILE ${_out}/crash/fs_basic-a3xx.yaml
          FILE_RE "diffcomp-repro: 1\nshader: \"fixtures/check/fs_basic.tgsi\"\ntarget: \"a3xx\"\nseed: 1\n.*status: fail\n.*text: \\|\n  # A small fragment shader"
          SETUP crash_repro)
check_cli(exit "--target|a3xx|--no-repro|${_fx}/fs_basic.tgsi|${_fx}/vs_precise.tgsi" 1
          ENVS "DIFFCOMP_CHECK_INJECT=exit:vs_precise"
          OUT "fail a3xx fixtures/check/vs_precise.tgsi: crash \\(parse\\): worker exited with status 3 in parse")
check_cli(timeout "--target|a3xx|--timeout|1|--no-repro|${_fx}/fs_basic.tgsi|${_fx}/vs_precise.tgsi" 1
          ENVS "DIFFCOMP_CHECK_INJECT=spin:fs_basic"
          OUT "fail a3xx fixtures/check/fs_basic.tgsi: timeout \\(parse\\): no result after 1000 ms \\(in parse\\)\n.*total +2 +1 +1")

# The reproducer replays the same failure, and says when it no longer does.
check_cli(repro_same "repro|${_out}/crash/fs_basic-a3xx.yaml" 1
          ENVS "DIFFCOMP_CHECK_INJECT=crash:fs_basic" NEEDS crash_repro
          OUT "^fail a3xx fixtures/check/fs_basic.tgsi: crash \\(parse\\): SIGSEGV in parse\nreproduced: fail with the recorded signals\n$")
check_cli(repro_fixed "repro|${_out}/crash/fs_basic-a3xx.yaml" 0 NEEDS crash_repro
          OUT "^pass a3xx fixtures/check/fs_basic.tgsi\nnot reproduced: recorded fail: SIGSEGV in parse, now pass\n$")
check_cli(repro_bad "repro|${_fx}/baseline_xpass.yaml" 2 ERR "baseline_xpass.yaml:3:1: error: not a diffcomp reproducer")
check_cli(repro_not_yaml "repro|${_fx}/fs_basic.tgsi" 2 ERR "fs_basic.tgsi:7:4: error: YAML: mapping values are not allowed")
check_cli(repro_help "repro|--help" 0 OUT "usage: diffcomp repro FILE.yaml")

# Output order does not depend on -j.
check_cli(order "-j1|--target|a3xx,sm50|--no-repro|${_fx}/fs_basic.tgsi|${_fx}/bad_parse.tgsi|${_fx}/interp_refuses.tgsi|${_fx}/vs_precise.tgsi" 1
          ENVS "DIFFCOMP_CHECK_INJECT=crash:vs_precise"
          SAME_AS "-j3|--target|a3xx,sm50|--no-repro|${_fx}/fs_basic.tgsi|${_fx}/bad_parse.tgsi|${_fx}/interp_refuses.tgsi|${_fx}/vs_precise.tgsi")

# Baseline: expected failures pass the run; unexpected passes fail it.
# --write-baseline exits 0 once written; its paths are relative to its own
# directory (check-tests in the build tree, wherever that is), and each
# entry names its first signal.
file(RELATIVE_PATH _bad_parse_rel ${_out} ${CMAKE_SOURCE_DIR}/fixtures/check/bad_parse.tgsi)
check_cli(write_baseline "--target|a3xx|--no-repro|--write-baseline|${_out}/baseline.yaml|${_fx}/bad_parse.tgsi|${_fx}/fs_basic.tgsi" 0
          CLEAN ${_out}/baseline.yaml FILE ${_out}/baseline.yaml
          FILE_RE "expected:\n  - {shader: ${_bad_parse_rel}, target: a3xx, status: error, signal: input-error}\n$"
          SETUP baseline)
check_cli(baseline_ok "--target|a3xx|--no-repro|--baseline|${_out}/baseline.yaml|${_fx}/bad_parse.tgsi|${_fx}/fs_basic.tgsi" 0
          NEEDS baseline NOT_OUT "^error" OUT "0 new failures, 0 new errors, 1 expected, 0 unexpected passes")
check_cli(baseline_verbose "-v|--target|a3xx|--no-repro|--baseline|${_out}/baseline.yaml|${_fx}/bad_parse.tgsi" 0
          NEEDS baseline OUT "^expected error a3xx fixtures/check/bad_parse.tgsi: input-error")
check_cli(baseline_xpass "--target|a3xx|--no-repro|--baseline|${_fx}/baseline_xpass.yaml|${_fx}/bad_parse.tgsi|${_fx}/fs_basic.tgsi" 1
          OUT "^xpass a3xx fixtures/check/fs_basic.tgsi: pass, but the baseline expects fail\n.*1 expected, 1 unexpected passes")
# Entries relative to the baseline's directory; a changed first signal is a
# new failure; an entry naming no case of a full run is reported stale.
check_cli(baseline_relative "--target|a3xx|--no-repro|--baseline|${_fx}/baseline_rel.yaml|${_fx}/bad_parse.tgsi" 0
          OUT "0 new errors, 1 expected" ERR "stale baseline entry gone.tgsi on a3xx")
check_cli(baseline_signal_changed "--target|a3xx|--no-repro|--baseline|${_fx}/baseline_signal.yaml|${_fx}/bad_parse.tgsi" 2
          OUT "1 new errors, 0 expected")
check_cli(baseline_bad "--target|a3xx|--baseline|${_fx}/baseline_bad.yaml|${_fx}/fs_basic.tgsi" 2
          ERR "baseline_bad.yaml:2:.*status is one of fail, error, skip")

# Shards from the CI variables; report files.
check_cli(shard_env "--target|a3xx|--no-repro|--json|${_out}/shard.json|${_fx}/fs_basic.tgsi|${_fx}/bad_parse.tgsi|${_fx}/interp_refuses.tgsi|${_fx}/vs_precise.tgsi" 2
          ENVS "CI_NODE_INDEX=2|CI_NODE_TOTAL=2" CLEAN ${_out}/shard.json FILE ${_out}/shard.json
          FILE_RE "\"summary\": {\"shaders\": 2, \"cases\": 2, .*\"shader\": \"fixtures/check/bad_parse.tgsi\".*\"shader\": \"fixtures/check/vs_precise.tgsi\"")
check_cli(shard_option "--target|a3xx|--no-repro|--shard|1/2|${_fx}/fs_basic.tgsi|${_fx}/bad_parse.tgsi|${_fx}/interp_refuses.tgsi|${_fx}/vs_precise.tgsi" 2
          ENVS "CI_NODE_INDEX=2|CI_NODE_TOTAL=2"
          OUT "interp_refuses.tgsi: interp-error.*total +2 +1 +0 +1 +0")
check_cli(junit "--target|a3xx|--no-repro|--junit|${_out}/junit.xml|${_fx}/fs_basic.tgsi|${_fx}/bad_parse.tgsi" 2
          CLEAN ${_out}/junit.xml FILE ${_out}/junit.xml
          FILE_RE "<testsuite name=\"diffcomp check\" tests=\"2\" failures=\"0\" errors=\"1\" skipped=\"0\".*<testcase classname=\"diffcomp.a3xx\" name=\"fixtures/check/bad_parse.tgsi\"")
check_cli(stats "--target|a3xx|--no-repro|--stats|${_fx}/fs_basic.tgsi" 0
          OUT "totals over [0-9]+ of 1 cases with both programs \\(ref -> opt\\):\n.*instructions")
check_cli(stats_throughput "--target|a3xx|--no-repro|--stats|${_fx}/fs_basic.tgsi" 0
          OUT "throughput: 1 cases, [0-9.]+ s wall, [0-9.]+ s CPU: [0-9.]+ cases/s, [0-9.]+ cases/s per core\npeak RSS: [0-9]+ MB \\(check\\), [0-9]+ MB \\(largest worker\\)")

# Hand-built programs in place of the optimizing compiler (fixtures/check/hand).
set(_hand ${_fx}/hand)
check_cli(hand_ok "--target|a3xx|--no-repro|--opt-asm|${_hand}/mad_ok.a3xx.s|${_hand}/mad.tgsi" 0
          OUT "steps: parse inputs interp applies ref opt emu ref emu opt compare\n")
check_cli(hand_wrong_reg "--target|a3xx|--no-repro|--opt-asm|${_hand}/mad_wrong_reg.a3xx.s|${_hand}/mad.tgsi" 1
          OUT "^fail a3xx fixtures/check/hand/mad.tgsi: mismatch \\(ref/opt\\): OUT\\[0\\].x \\(GENERIC 0\\) lane [0-9]+: expected 0x[0-9a-f]+ \\([^)]*\\), got 0x00000000 \\(0\\)")
check_cli(hand_missing_nop "--target|a3xx|--repro-dir|${_out}/hand|--opt-asm|${_hand}/mad_missing_nop.a3xx.s|${_hand}/mad.tgsi" 1
          CLEAN ${_out}/hand SETUP hand_repro FILE ${_out}/hand/mad-a3xx.yaml
          FILE_RE "opt-asm: \"fixtures/check/hand/mad_missing_nop.a3xx.s\"\n.*lanes:\n- lane: 0\n  inputs: {'IN\\[0\\].x': 0x"
          OUT "^fail a3xx fixtures/check/hand/mad.tgsi: hazard \\(emu opt\\): opt program: raw \\(read of a fixed-latency result before it is ready\\) at 0x8, r0.w, producer 0x0, early by 1 \\[[0-9]+ events\\] \\[repro: .*/hand/mad-a3xx.yaml\\]\nfail a3xx fixtures/check/hand/mad.tgsi: mismatch \\(ref/opt\\)")
check_cli(hand_bad_asm "--target|a3xx|--no-repro|--opt-asm|${_fx}/fs_basic.tgsi|${_hand}/mad.tgsi" 1
          OUT "compile-error \\(opt\\): opt: fixtures/check/fs_basic.tgsi:")
# gfx9 fine derivatives as DPP quad permutations: right, one permutation
# planted wrong (lanes 1 and 3 of each quad), the 2 wait states missing.
check_cli(hand_dpp_ok "--target|gfx9|--no-repro|--opt-asm|${_hand}/deriv_fine_ok.gfx9.s|${_hand}/deriv_fine.tgsi" 0
          OUT "gfx9 +1 +1 +0 +0 +0 +0\n")
check_cli(hand_dpp_wrong_perm "--target|gfx9|--no-repro|--opt-asm|${_hand}/deriv_fine_wrong_perm.gfx9.s|${_hand}/deriv_fine.tgsi" 1
          OUT "^fail gfx9 fixtures/check/hand/deriv_fine.tgsi: mismatch \\(ref/opt\\): OUT\\[0\\].y \\(GENERIC 0\\) lane [13]:")
check_cli(hand_dpp_missing_nop "--target|gfx9|--no-repro|--opt-asm|${_hand}/deriv_fine_missing_nop.gfx9.s|${_hand}/deriv_fine.tgsi" 1
          OUT "^fail gfx9 fixtures/check/hand/deriv_fine.tgsi: hazard \\(emu opt\\): opt program: raw \\(read of a fixed-latency result before it is ready\\) at 0x10, v1, producer 0x0, early by 1")
# The reproducer of a real mismatch replays it, lane inputs checked.
check_cli(hand_repro "repro|${_out}/hand/mad-a3xx.yaml" 1 NEEDS hand_repro
          OUT "^fail a3xx fixtures/check/hand/mad.tgsi: hazard \\(emu opt\\)[^\n]*\nfail a3xx fixtures/check/hand/mad.tgsi: mismatch \\(ref/opt\\)[^\n]*\nreproduced: fail with the recorded signals\n$"
          ERR "^$")
check_cli(hand_verbose "-v|--target|a3xx|--no-repro|--opt-asm|${_hand}/mad_wrong_reg.a3xx.s|${_hand}/mad.tgsi" 1
          OUT "mismatch \\(ref/opt\\)[^\n]*\n    lane [0-9]+ inputs: IN\\[0\\].x=0x[0-9a-f]+ \\([^)]*\\) IN\\[0\\].y=")

# Generated shaders: named gen:S, the same for the same --seed.
check_cli(generated "--generated|3|--target|a3xx|--no-repro|--json|${_out}/gen.json" 0
          CLEAN ${_out}/gen.json FILE ${_out}/gen.json
          FILE_RE "\"shaders\": 3, \"cases\": 3,.*\"shader\": \"gen:[0-9]+\""
          SAME_AS "--generated|3|--target|a3xx|--no-repro|-j1")
check_cli(generated_bad "--generated|-1" 2 ERR "--generated takes a number")
# Variants: NAME~vK, run on the original's inputs, same interpreter outputs;
# subroutine labels (CAL) and the legacy dialect survive the rewrite.
check_cli(variants "--variants|2|--no-repro|--json|${_out}/var.json|captures/fs_phong.tgsi|captures/cs_reduce_sum.tgsi|captures/fs_deferred_uber.tgsi|captures/vs_legacy_mesa9_lights.tgsi" 0
          CLEAN ${_out}/var.json FILE ${_out}/var.json
          FILE_RE "\"shaders\": 12,.*\"shader\": \"captures/fs_phong.tgsi~v2\""
          SAME_AS "--variants|2|--no-repro|-j1|captures/fs_phong.tgsi|captures/cs_reduce_sum.tgsi|captures/fs_deferred_uber.tgsi|captures/vs_legacy_mesa9_lights.tgsi")
check_cli(variants_bad "--variants|x" 2 ERR "--variants takes a number")
# --git-bisect: only compile errors -> 125 (untestable); a mismatch -> 1.
check_cli(bisect_compile "--git-bisect|--target|a3xx|--no-repro|--opt-asm|${_fx}/fs_basic.tgsi|${_hand}/mad.tgsi" 125)
check_cli(bisect_bad "--git-bisect|--target|a3xx|--no-repro|--opt-asm|${_hand}/mad_wrong_reg.a3xx.s|${_hand}/mad.tgsi" 1)
check_cli(bisect_good "--git-bisect|--target|a3xx|--no-repro|${_hand}/mad.tgsi" 0)

# diffcomp reduce: the hand-built mismatch shrinks to one lane, the reduced
# reproducer carries its inputs and replays the same failure.
check_cli(reduce_help "reduce|--help" 0 OUT "usage: diffcomp reduce REPRO.yaml")
check_cli(reduce_no_file "reduce" 2 ERR "usage: diffcomp reduce")
check_cli(reduce_bad_option "reduce|--frob|x.yaml" 2 ERR "unknown option '--frob'")
check_cli(reduce_bad_limit "reduce|--time-limit|0|x.yaml" 2 ERR "--time-limit takes")
check_cli(reduce_not_repro "reduce|${_fx}/fs_basic.tgsi" 2 ERR "fs_basic.tgsi:7:4: error: YAML")
check_cli(reduce_hand "reduce|${_out}/hand/mad-a3xx.yaml|-o|${_out}/hand/mad-reduced.yaml" 0
          NEEDS hand_repro SETUP reduced_repro CLEAN ${_out}/hand/mad-reduced.yaml
          OUT "^reduced: 2 -> [12] instructions, 1024 -> 1 lanes; [0-9]+ runs"
          ERR "reduce: keeping hazard on a3xx\nreduce: original .*reduce: done "
          FILE ${_out}/hand/mad-reduced.yaml
          FILE_RE "invocations: 1\n.*status: fail\n.*text: \\|\n  FRAG\n.*inputs: \\|\n  stage: FRAG\n  invocations: 1\n")
check_cli(reduce_replay "repro|${_out}/hand/mad-reduced.yaml" 1 NEEDS reduced_repro
          OUT "hazard \\(emu opt\\).*\nreproduced: fail with the recorded signals\n$" ERR "^$")
check_cli(reduce_crash "reduce|--quiet|${_out}/crash/fs_basic-a3xx.yaml" 0 NEEDS crash_repro
          ENVS "DIFFCOMP_CHECK_INJECT=crash:fs_basic"
          OUT "status: fail\n.*kind: crash.*text: \\|\n  FRAG\n    0: END\n"
          ERR "^reduced: 3 -> 1 instructions, 1024 -> 1 lanes")
check_cli(reduce_passes "reduce|${_out}/crash/fs_basic-a3xx.yaml" 1 NEEDS crash_repro
          ERR "the case passes now; nothing to reduce")
check_cli(reduce_budget "reduce|--quiet|--max-tests|3|${_out}/hand/mad-a3xx.yaml|-o|${_out}/hand/mad-budget.yaml" 0
          NEEDS hand_repro CLEAN ${_out}/hand/mad-budget.yaml
          OUT "^reduced: 2 -> [12] instructions, 1024 -> 4 lanes; 3 runs .*\\(budget spent: best so far\\)")
include(${CMAKE_CURRENT_LIST_DIR}/cli_bisect.cmake)

# Oracle false positives (issue 15): each case once failed without a fault.
# LIT: MAX(-0, 0) may be either zero, and a NaN exponent's clamp is undefined.
check_cli(lit_zero_sign "--target|a3xx,sm50|--no-repro|--seed|1|${_fx}/fs_lit.tgsi" 0 OUT "total +2 +2 +0")
check_cli(lit_zero_sign_s2 "--target|a3xx,sm50|--no-repro|--seed|2|${_fx}/fs_lit.tgsi" 0 OUT "total +2 +2 +0")
cli_test(interp_lit_flags "interp|${_fx}/fs_lit.tgsi|--inputs|${_fx}/fs_lit_inputs.yaml" 0
         OUT "- \\[0, 0x80000000, -0.0, ZSIGN\\].*- \\[1, 0x7fc00000, .nan, UNDEF")
# PK2H: halves compared as floats (seed 2: 0x8004 against 0x0000, an RCP cancellation).
check_cli(pk2h_halves "--target|a3xx,sm50|--no-repro|--seed|2|captures/fs_gbuffer_pack.tgsi" 0 OUT "total +2 +2 +0")

# Seed sweeps (ctest -L sweep): the check with no fault must pass at every
# seed; a failure is a false positive or a compiler bug. Captures at 6 seeds,
# 200 generated shaders at 3; tools/sweep.sh runs the long sweeps.
file(GLOB _sweep_caps RELATIVE ${CMAKE_SOURCE_DIR} CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/captures/*.tgsi)
foreach(_s 1 2 3 4 5 6)
  add_test(NAME sweep_captures_s${_s}
           COMMAND $<TARGET_FILE:diffcomp> check -q --no-repro --seed ${_s} ${_sweep_caps}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(sweep_captures_s${_s} PROPERTIES LABELS sweep TIMEOUT 600)
endforeach()
foreach(_s 1 2 3)
  add_test(NAME sweep_generated_s${_s}
           COMMAND $<TARGET_FILE:diffcomp> check -q --no-repro --seed ${_s} --generated 200
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(sweep_generated_s${_s} PROPERTIES LABELS sweep TIMEOUT 900)
endforeach()
# Normalized unpacks are divisions (RCP), carried through the sum after
# them (gen:842819830 at --generated 1000 --seed 2: UP4B + ADD two ulps off).
check_cli(unpack_norm_sum "--no-repro|--seed|1|${_fx}/fs_unpack_norm.tgsi" 0 OUT "total +4 +4 +0")
# A zero of unspecified sign (MAX/MIN of -0 and +0) as a divisor: the
# infinity's sign is undefined (every target picked +0 where the
# interpreter had -0: +inf against -inf); a zero of one sign stays checked.
check_cli(zsign_pole "--no-repro|--invocations|64|${_fx}/fs_zsign_pole.tgsi" 0 OUT "total +4 +4 +0")
check_cli(pk2h_add "--no-repro|--seed|2|${_fx}/fs_pk2h_add.tgsi" 0 OUT "total +4 +4 +0")
cli_test(interp_zsign_pole_flags "interp|${_fx}/fs_zsign_pole.tgsi|--inputs|${_fx}/fs_zsign_pole_inputs.yaml" 0
         OUT "- \\[0, 0xff800000, -.inf, UNDEF, RCP, ZSIGN\\]\n *- \\[1, 0x7f800000, .inf, RCP\\]\n")
# TXP with a denormal w (seed 3): opt projected by a * rcp(w) (0 * inf = NaN), ref divides exactly.
check_cli(txp_exact_projection "--target|a3xx,sm50|--no-repro|--seed|3|captures/fs_shadow_pcf.tgsi" 0 OUT "total +2 +2 +0")

# Inputs: a directory means its *.tgsi, @LIST a list file; --fraction keeps
# the same files for a seed; report paths are tried before the run.
check_cli(check_dir_input "fixtures/check/hand|-q|--no-repro|-j|0|--target|sm50" 0
          OUT "3 shaders, 3 cases")
check_cli(check_empty_dir "fixtures/report|-q|--no-repro" 2 ERR "no \\*.tgsi files")
check_cli(check_list_input "@${_fx}/lists/two.txt|-q|--no-repro|-j|0|--target|sm50" 0
          OUT "2 shaders, 2 cases")
check_cli(check_list_missing_file "@${_fx}/lists/missing.txt|-q|--no-repro|-j|0|--target|sm50" 2
          OUT "error sm50 no/such/shader.tgsi: input-error")
check_cli(check_list_absent "@${_fx}/lists/absent.txt" 2 ERR "absent.txt")
check_cli(check_fraction "captures|-q|--no-repro|-j|0|--target|sm50|--fraction|0.05|--seed|3" 0
          OUT "[1-9] shaders, [1-9] cases")
check_cli(check_fraction_bad "captures|--fraction|1.5" 2 ERR "--fraction takes")
check_cli(check_json_stdout "${_fx}/fs_basic.tgsi|-q|--no-repro|-j|0|--target|sm50|--json|-" 0
          OUT "^{\n  \"summary\": {\"shaders\": 1," ERR "1 shaders, 1 cases")
check_cli(check_report_path_early "${_fx}/fs_basic.tgsi|--json|no/such/dir/r.json" 2
          ERR "cannot write no/such/dir/r.json" NOT_OUT "shaders")
check_cli(check_junit_is_dir "${_fx}/fs_basic.tgsi|--junit|fixtures" 2 ERR "Is a directory")
# A sum that cancels an inexact term (gen:630271604 at --generated 3000 --seed 7:
# 0 against -7.6e-6, a POW near 100 one ulp off): CANCEL, unchecked; no cancellation, no mark.
# (FUSE: an ADD of a rounded MUL product may be fused.)
cli_test(interp_cancel_flags "interp|${_fx}/fs_cancel.tgsi|--inputs|${_fx}/fs_cancel_inputs.yaml" 0
         OUT "- \\[0, 0x00000000, 0.0, RCP, FUSE, CANCEL\\]\n *- \\[1, 0x42c60000, 99.0, RCP, FUSE\\]\n")
# Three sums cancelling a DIV's error 15 times each: the third is CANCEL
# (3375 times, beyond 16), though none cancels 16 times alone; x = 0: none.
cli_test(interp_cancel_chain_flags "interp|${_fx}/fs_cancel_chain.tgsi|--inputs|${_fx}/fs_cancel_chain_inputs.yaml" 0
         OUT "- \\[0, 0x3e97aef0, 0.29625654, RCP, FUSE, CANCEL\\]\n *- \\[1, 0x00000000, 0.0, RCP\\]\n")
# SIN of a MAD near 1000 (condition number in the hundreds): CANCEL; near 0.3: none.
cli_test(interp_magnify_flags "interp|${_fx}/fs_magnify.tgsi|--inputs|${_fx}/fs_magnify_inputs.yaml" 0
         OUT "- \\[0, 0x3f585a29, 0.84512573, TRANS, FUSE, CANCEL\\]\n *- \\[1, 0x3e974e6d, 0.29552022, TRANS, FUSE\\]\n")
# ROUND of an inexact value within its tolerance of n + 0.5 (seed 37: 197.9
# against 198.9 after x 255): EDGE, unchecked.
check_cli(edge_round "--target|a3xx,sm50|--no-repro|--seed|37|captures/fs_tonemap_aces_srgb.tgsi" 0 OUT "total +2 +2 +0")
# Every legacy-era fixture runs through check (interp, ref and opt on both
# targets): no failure and no error (indirect immediates, once refused by
# opt, run); an n/a says why.
file(GLOB _legacy RELATIVE ${CMAKE_SOURCE_DIR} CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/fixtures/legacy/*.tgsi)
string(REPLACE ";" "|" _legacy "${_legacy}")
check_cli(legacy_eras "-j2|--no-repro|--baseline|fixtures/legacy/baseline.yaml|${_legacy}" 0
          OUT "total +[0-9]+ +[0-9]+ +0 +0 .*0 new failures, 0 new errors, 0 expected, 0 unexpected")
# A debug log (banners, two shaders in one file): each shader is a case,
# FILE#1 and FILE#2, and all pass.
check_cli(debug_log "-j2|--no-repro|fixtures/logs/st_debug_log.tgsi" 0 OUT "total +8 +8 +0 +0 +0 +0")
# Gallium's first dump format (2007): banner lines, "VERT 1.1" headers,
# the interpolation before the semantic; two shaders, all pass.
check_cli(debug_log_2007 "-j2|--no-repro|fixtures/logs/tgsi_dump_2007.tgsi" 0 OUT "total +8 +8 +0 +0 +0 +0")
# Issue 14: a case that compares nothing is vacuous, not a pass (exit 1,
# a JUnit failure), unless the baseline expects it; opt refusing what ref
# compiles is opt's failure. Issue 15: a loop whose step is a constant
# (0 in some draw at seeds 1-3: the interpreter alone runs out of steps)
# passes after the retry with realistic constants.
check_cli(vacuous "--target|a3xx|--no-repro|--junit|${_out}/vacuous.xml|${_fx}/vs_vacuous.tgsi" 1
          OUT "vacuous a3xx fixtures/check/vs_vacuous.tgsi: nothing-compared.*1 vacuous"
          CLEAN ${_out}/vacuous.xml FILE ${_out}/vacuous.xml
          FILE_RE "failures=\"1\".*<failure type=\"nothing-compared\"")
check_cli(vacuous_baselined "--target|a3xx|--no-repro|--baseline|${_fx}/baseline_vacuous.yaml|${_fx}/vs_vacuous.tgsi" 0
          OUT "0 new failures, 0 new errors, 1 expected")
check_cli(opt_refused "--no-repro|${_fx}/fs_opt_refuses.tgsi" 1
          OUT "fail a3xx fixtures/check/fs_opt_refuses.tgsi: opt-refused \\(opt\\)")
# FBFETCH (issue 15): the fetched colours are inputs after the declared
# ones; sm50 runs it, a3xx is n/a; a program reading the wrong render
# target's colour fails.
check_cli(fbfetch "--target|a3xx,sm50|--no-repro|-q|${_fx}/fs_fbfetch.tgsi" 0 OUT "total +2 +1 +0 +0 +0 +1")
# FP64 on gfx9's optimizing path (gen:232115409 at --generated 1000 --seed 3
# failed IR validation): both compilers select it on gfx9 (VGPR pairs) and
# on sm50.
check_cli(f2d_gfx9 "--target|gfx9,sm50|--no-repro|-q|${_fx}/cs_f2d.tgsi" 0 OUT "total +2 +2 +0 +0 +0 +0")
# FP64 on gfx9 (issue 17): every double opcode on both targets and both
# paths agrees with the interpreter; a gfx9 program whose DMIN is v_max_f64
# (a planted wrong double semantics) fails.
check_cli(dmath_gfx9 "--target|gfx9,sm50|--no-repro|-q|${_fx}/fs_dmath_gfx9.tgsi" 0
          OUT "gfx9 +1 +1 +0 +0 +0 +0\nsm50 +1 +1 +0")
# Subnormal double results (DLDEXP, DDIV) through the expansions' shifted
# significand (opt_fp64.c assemble): the mutant that ORs bit 0 into the
# implicit bit's constant (0x100001) fails on both targets (mutation
# testing's survivor table).
check_cli(dsubnormal "--target|sm50,gfx9|--no-repro|-q|${_fx}/fs_dsubnormal.tgsi" 0
          OUT "sm50 +1 +1 +0 +0 +0 +0\ngfx9 +1 +1 +0 +0 +0 +0")
# A lookup whose inexact coordinate lies within its tolerance of a texel
# edge is EDGE (unchecked), as a compare near its threshold is: agx's
# reference failed it at every seed before (a false positive).
check_cli(tex_coord_edge "--no-repro|-q|--seed|3|${_fx}/fs_tex_coord_edge.tgsi" 0
          OUT "total +4 +4 +0 +0 +0 +0")
# agx: TEMPs whose fixed homes fit the file but leave too few registers
# for an instruction's values are homed by liveness on a second attempt:
# the shader passes instead of being skipped as unsupported.
check_cli(agx_temps_crowd_scratch "--target|agx|--no-repro|-q|${_fx}/agx_temps_crowd_scratch.tgsi" 0
          OUT "agx +1 +1 +0 +0 +0 +0")
# TEMPs past the register file are homed by liveness on every target
# (a3xx and sm50 skipped the shader before); the fixture fails when a
# loop's back edge is left out of that liveness.
# gfx9's compact layout writes immediates as literals where they are read
# (71 immediates overflowed the VGPRs: skipped before); a wrong word
# written there fails it.
check_cli(gfx9_many_immediates "--target|gfx9|--no-repro|-q|${_fx}/gfx9_many_immediates.tgsi" 0
          OUT "gfx9 +1 +1 +0 +0 +0 +0")
check_cli(temps_by_liveness "--no-repro|-q|${_fx}/temps_by_liveness.tgsi" 0
          OUT "total +4 +4 +0 +0 +0 +0")
# The other end: results in the largest binade (2^1023 up to DBL_MAX) and
# past it (DLDEXP, DDIV through assemble's overflow test). The mutation
# campaign's survivor that takes exponent 2046 as overflow (2047 -> 2046:
# the largest binade becomes infinity) and the plant 2047 -> 2048 (an
# overflow gets exponent 2047 with a significand: NaN) fail on both
# targets; the captures miss both, and --generated 200 the first.
check_cli(dhuge "--target|sm50,gfx9|--no-repro|-q|${_fx}/fs_dhuge.tgsi" 0
          OUT "sm50 +1 +1 +0 +0 +0 +0\ngfx9 +1 +1 +0 +0 +0 +0")
# Doubles read as such from an input and a constant, so that the input
# profiles' double boundaries and specials (DBL_MAX and within 2^-20 of
# it, 2^1023, subnormals, 2^k +- 1 ulp) reach DSQRT, DRCP and DDIV at run
# time: the mutation campaign's survivor that takes a DSQRT operand
# within 2^-20 of DBL_MAX as not finite (opt_fp64.c, 0x7ff00000 ->
# 0x7fefffff) fails on both targets at seeds 1-3.
check_cli(dedge "--target|sm50,gfx9|--no-repro|-q|${_fx}/fs_dedge.tgsi" 0
          OUT "sm50 +1 +1 +0 +0 +0 +0\ngfx9 +1 +1 +0 +0 +0 +0")
# Signed 32- and 64-bit division of operands of both signs: the signs are
# computed before the expansion's loop and read after it. agx's cmpsel
# pass, whose index of the regions that read a register first covered only
# the register's first region (the campaign's survivors at
# opt_agx_cmpsel.c:163), removed a compare read after the loop: mismatch.
check_cli(agx_div_signs "--target|agx,sm50,gfx9|--no-repro|-q|${_fx}/agx_div_signs.tgsi" 0
          OUT "agx +1 +1 +0 +0 +0 +0\nsm50 +1 +1 +0 +0 +0 +0\ngfx9 +1 +1 +0 +0 +0 +0")
# Loops that iterate only through a CONT, their last block leading nowhere:
# gfx9's uniforms in scalar registers must survive the leaving lanes' lane
# masks between the CONT and the next iteration (ctest mutate_exec_loop_end
# plants the liveness bug this shader catches). Passes on every target.
check_cli(gfx9_cont_loop_sgpr "--target|a3xx,sm50,gfx9,agx|--no-repro|-q|${_fx}/fs_gfx9_cont_loop_sgpr.tgsi" 0
          OUT "total +4 +4 +0 +0 +0 +0")
# TXP on SHADOW2D with a reference over w below half the smallest
# subnormal (+0 after the exact divide sm50 and gfx9 expand): passes on
# every target; ctest mutate_exact_div_subnormal plants the seed-8
# campaign's rounding survivor (opt_expand.c:461) that it catches.
check_cli(txp_subnormal_ref "--target|a3xx,sm50,gfx9,agx|--no-repro|-q|${_fx}/fs_txp_subnormal_ref.tgsi" 0
          OUT "total +4 +4 +0 +0 +0 +0")
# A USEQ of a compare's result with the immediate ~0 (a uniform between
# uniforms of 0) under a select: agx's cmpsel pass must not take it for
# the compare's negation (ctest mutate_agx_const_index). Every target.
check_cli(agx_cmpsel_eq_imm "--target|a3xx,sm50,gfx9,agx|--no-repro|-q|${_fx}/agx_cmpsel_eq_imm.tgsi" 0
          OUT "total +4 +4 +0 +0 +0 +0")
# 64-bit divisions of one block with the same divisor and dividend, or
# with one key part changed (the signedness, one word of either operand),
# and the same operands after an IF that divided them in its arm: opt's
# int64 lowering shares a loop only between exact matches (ctest
# mutate_int64_div_key plants a near miss taken for a match). Every target.
check_cli(int64_div_keys "--target|a3xx,sm50,gfx9,agx|--no-repro|-q|${_fx}/int64_div_keys.tgsi" 0
          OUT "total +4 +4 +0 +0 +0 +0")
# Indirect reads of constant buffers 1 and 2 beside direct ones, the index
# inside and outside each buffer: a3xx's and sm50's optimizing paths once
# refused them (opt-refused); with the buffers' base left out of the
# relative address they read buffer 0's words (mismatch). Every target.
check_cli(const_ind_buffers "--target|a3xx,sm50,gfx9,agx|--no-repro|-q|${_fx}/const_ind_buffers.tgsi" 0
          OUT "total +4 +4 +0 +0 +0 +0")
# gfx9's reference path in a loop of 50 IFs with two breaks: the body's
# labels reuse SGPR pairs freed in the body, the loop's exit label (lanes
# that broke, held across the back edge) none of them; a reuse there
# revives broken lanes (mismatch), no reuse at all refused the shader
# (skip). Every target.
check_cli(gfx9_loop_label_pairs "--target|a3xx,sm50,gfx9,agx|--no-repro|-q|${_fx}/gfx9_loop_label_pairs.tgsi" 0
          OUT "total +4 +4 +0 +0 +0 +0")
# gfx9's optimizing path under uniform-file pressure (issue 17): indirect
# constants read through selects (every slot a scalar register) overflow
# the SGPRs with the shader's other constants; the compile is repeated
# with those reads loaded from memory, and both shaders pass. With the
# loads' s_waitcnt vmcnt one short (vmcnt-off-by-one) fs_shadow_cascaded
# fails.
check_cli(gfx9_ind_const_loads "--target|gfx9|--no-repro|-q|captures/fs_shadow_cascaded.tgsi|captures/gs_cubemap_layers.tgsi" 0
          OUT "gfx9 +2 +2 +0 +0 +0 +0")
check_cli(gfx9_ind_const_loads_vmcnt "--target|gfx9|--no-repro|-q|--inject-fault|vmcnt-off-by-one|captures/fs_shadow_cascaded.tgsi" 1
          OUT "gfx9 +1 +0 +1 +0 +0 +0")
check_cli(dmin_gfx9_planted "--target|gfx9|--no-repro|--opt-asm|${_fx}/hand/fs_dmin_max.gfx9.s|${_fx}/fs_dmin.tgsi" 1
          OUT "^fail gfx9 fixtures/check/fs_dmin.tgsi: mismatch \\(ref/opt\\): OUT\\[0\\]\\.x")
check_cli(fbfetch_swapped "--target|sm50|--no-repro|--opt-asm|${_fx}/hand/fs_fbfetch_swapped.sm50.s|${_fx}/fs_fbfetch.tgsi" 1
          OUT "^fail sm50 fixtures/check/fs_fbfetch.tgsi: mismatch \\(ref/opt\\): OUT\\[0\\]")
check_cli(fs_indirect_input "--target|a3xx,sm50|--no-repro|-q|${_fx}/fs_indirect_input.tgsi" 0 OUT "total +2 +2 +0 +0 +0 +0")
check_cli(loop_const_step "--target|a3xx,sm50|--no-repro|-q|${_fx}/fs_loop_const_step.tgsi" 0 OUT "total +2 +2 +0 +0 +0 +0")

# agx (issue 18): every capture agx can run passes (reference against the
# interpreter, opt against the reference); the others are n/a or skip
check_cli(agx_captures "check|--target|agx|--no-repro|--invocations|256|${CMAKE_SOURCE_DIR}/captures" 0
          OUT "agx +81 ")
# The agx faults are caught at run time and bisect names their firing.
check_cli(agx_cmpsel "check|--target|agx|--no-repro|--invocations|256|${_fx}/agx_cmpsel.tgsi" 0
          OUT "agx +1 +1 +0")
check_cli(agx_noflip "check|--target|agx|--invocations|256|--inject-fault|cmpsel-swap-noflip|--repro-dir|${_out}/agxflip|${_fx}/agx_cmpsel.tgsi" 1
          OUT "fail agx fixtures/check/agx_cmpsel.tgsi: mismatch" CLEAN ${_out}/agxflip SETUP agx_flip)
check_cli(agx_noflip_bisect "bisect|${_out}/agxflip/agx_cmpsel-agx.yaml" 0 NEEDS agx_flip
          OUT "pass: cmpsel .*fault cmpsel-swap-noflip: select [0-9]+: compare sources swapped")
check_cli(agx_stale "check|--target|agx|--no-repro|--invocations|256|--inject-fault|cmpsel-stale-source|${_fx}/agx_cmpsel.tgsi" 1
          OUT "fail agx fixtures/check/agx_cmpsel.tgsi: mismatch")
check_cli(agx_wait_missing "check|--target|agx|--no-repro|--invocations|256|--inject-fault|agx-wait-missing|captures/cs_image_filter.tgsi" 1
          OUT "fail agx captures/cs_image_filter.tgsi: (mismatch|hazard)")
# The remaining agx faults (issue 18 item 5): an inverted float compare
# fused as the ordered opposite (caught on NaN lanes), fmin/fmax as one
# ordered fcmpsel, a signed compare fused unsigned, a wait on the wrong
# slot, a 16-bit value written full width over its packed neighbour, a
# 32-bit value packed beside a live half; each named by bisect.
check_cli(agx_nan_minmax "check|--target|agx|--no-repro|--invocations|256|${_fx}/agx_nan_minmax.tgsi" 0
          OUT "agx +1 +1 +0")
check_cli(agx_nan_flip "check|--target|agx|--invocations|256|--inject-fault|cmpsel-nan-flip|--repro-dir|${_out}/agxnan|${_fx}/agx_nan_minmax.tgsi" 1
          OUT "fail agx fixtures/check/agx_nan_minmax.tgsi: mismatch" CLEAN ${_out}/agxnan SETUP agx_nan)
check_cli(agx_nan_flip_bisect "bisect|${_out}/agxnan/agx_nan_minmax-agx.yaml" 0 NEEDS agx_nan
          OUT "pass: cmpsel .*fault cmpsel-nan-flip: select [0-9]+: compare [0-9]+ inverted")
check_cli(agx_fminmax "check|--target|agx|--invocations|256|--inject-fault|fminmax-cmpsel|--repro-dir|${_out}/agxmm|${_fx}/agx_nan_minmax.tgsi" 1
          OUT "fail agx fixtures/check/agx_nan_minmax.tgsi: mismatch" CLEAN ${_out}/agxmm SETUP agx_mm)
check_cli(agx_fminmax_bisect "bisect|${_out}/agxmm/agx_nan_minmax-agx.yaml" 0 NEEDS agx_mm
          OUT "pass: cmpsel .*fault fminmax-cmpsel: fmin at [0-9]+ as one ordered fcmpsel")
check_cli(agx_faults_caught "faults|--check|--target|agx|-j|2|--bisect|--inject-fault|cmpsel-signed-as-unsigned,agx-wait-wrong-slot,agx-half-clobber,agx-pack-full|${CMAKE_SOURCE_DIR}/captures/cs_pack_convert.tgsi" 0
          OUT "bisect: 4/4 pairs named one transformation, the fault's firing in its own pass")
# agx SIMD-group ops (the lanes pass): fine derivatives and votes inside a
# divergent if pass on both paths and on sm50/gfx9; a derivative's shuffle
# xor on the wrong axis, and a vote whose ballot is compared with all 32
# lanes, are caught (captures' derivatives only reach fwidth-like sums of
# both axes, which hide the swap) and bisect names the lanes pass.
check_cli(agx_lanes "check|--target|agx,sm50,gfx9|--no-repro|-q|--invocations|256|${_fx}/hand/deriv_fine.tgsi|${_fx}/agx_vote_if.tgsi" 0
          OUT "total +6 +6 +0 +0 +0 +0")
check_cli(agx_deriv_xor "check|--target|agx|--invocations|256|--inject-fault|agx-deriv-xor|--repro-dir|${_out}/agxdx|${_fx}/hand/deriv_fine.tgsi" 1
          OUT "fail agx fixtures/check/hand/deriv_fine.tgsi: mismatch \\(ref/opt\\)" CLEAN ${_out}/agxdx SETUP agx_dx)
# A geometry shader that sends a message first: gfx9 opt's M0 write meets
# s_sendmsg at once (the wait-state row with an implicit source); passes.
check_cli(gs_cut_first "check|--target|gfx9,sm50|--no-repro|-q|${_fx}/gs_cut_first.tgsi" 0
          OUT "total +2 +2 +0 +0 +0 +0")
check_cli(agx_deriv_xor_bisect "bisect|${_out}/agxdx/deriv_fine-agx.yaml" 0 NEEDS agx_dx
          OUT "pass: lanes .*fault agx-deriv-xor: derivative [0-9]+: xor [12]")
check_cli(agx_ballot_exec "check|--target|agx|--invocations|256|--inject-fault|agx-ballot-exec|--repro-dir|${_out}/agxbe|${_fx}/agx_vote_if.tgsi" 1
          OUT "fail agx fixtures/check/agx_vote_if.tgsi: mismatch \\(ref/opt\\)" CLEAN ${_out}/agxbe SETUP agx_be)
check_cli(agx_ballot_exec_bisect "bisect|${_out}/agxbe/agx_vote_if-agx.yaml" 0 NEEDS agx_be
          OUT "pass: lanes .*fault agx-ballot-exec: vote [0-9]+: the ballot compared with every lane")
# The generator's votes under divergence (the sink's, gen --seed 272): clean
# on agx, and the fault agx-ballot-exec is a mismatch there.
check_cli(gen_vote_divergent "check|--target|agx|--invocations|256|--no-repro|${_fx}/gen_vote_divergent.tgsi" 0
          OUT "agx +1 +1 +0 +0 +0 +0")
check_cli(gen_vote_divergent_fault "check|--target|agx|--invocations|256|--no-repro|--inject-fault|agx-ballot-exec|${_fx}/gen_vote_divergent.tgsi" 1
          OUT "fail agx fixtures/check/gen_vote_divergent.tgsi: mismatch \\(ref/opt\\)")
# agx constants past the 256 uniforms: device loads of the buffer's memory,
# direct and indirect (out of the buffer: 0), on both paths
check_cli(agx_const_mem "check|--target|agx|--no-repro|--invocations|256|${_fx}/agx_const_mem.tgsi" 0
          OUT "agx +1 +1 +0 +0 +0 +0")
# agx atomics without an op (float add, wrapping inc/dec): compare-and-swap
# loops, lanes of both arms of an if, one word shared by every lane
check_cli(agx_atomic_loop "check|--target|agx|--no-repro|--invocations|256|${_fx}/agx_atomic_loop.tgsi" 0
          OUT "agx +1 +1 +0 +0 +0 +0")
# agx's level query (texture_sample.query_lod): LODQ on CUBE, 2D_ARRAY, 1D
check_cli(agx_lodq "check|--target|agx|--no-repro|--invocations|256|fixtures/opt/fs_lod_queries.tgsi|captures/fs_pbr_ibl.tgsi" 0
          OUT "agx +2 +2 +0 +0 +0 +0")
# agx: the high word of a device load's 64-bit base pair is read (the
# emulator reads it; the half pass counts it): failed with the pass
# taking one register for the pair
check_cli(agx_base_hi "check|--target|agx|--no-repro|--invocations|256|${_fx}/agx_base_hi.tgsi" 0
          OUT "agx +1 +1 +0 +0 +0 +0")
# agx's gathers (texture_sample.gather_r/g/b/a): TG4's component from an
# immediate, GATHER4 with a view swizzle, on both paths (a component off
# by one in the emulator fails both); agx_gather.tgsi: every component,
# offsets, 2D_ARRAY, CUBE and the depth gather (fails with the emulator
# dropping the gather's offsets or its depth compare)
check_cli(agx_gather "check|--target|agx|--no-repro|--invocations|256|captures/fs_texture_fetch_sweep.tgsi|captures/fs_sample_ops_d3d10.tgsi|${_fx}/agx_gather.tgsi" 0
          OUT "agx +3 +3 +0 +0 +0 +0")

# --opt fuse-ffma (issue 15): the interpreter bounds what fusing can change
# (tgsi_interp_bound.c). Each case failed with the fixed 2^-14 tolerance:
# a fused step through exact multiplies and an RSQ (seed 6), a texture
# lookup at fused coordinates (seed 7), an image word (seed 12).
check_cli(ffma_bound_skinning "--no-repro|--target|sm50|--opt|fuse-ffma|--seed|6|captures/vs_skinning_dual_quat.tgsi" 0 OUT "total +1 +1 +0")
check_cli(ffma_bound_texture "--no-repro|--target|sm50|--opt|fuse-ffma|--seed|7|captures/fs_pbr_ibl.tgsi" 0 OUT "total +1 +1 +0")
check_cli(ffma_bound_image "--no-repro|--target|sm50|--opt|fuse-ffma|--seed|12|captures/cs_bvh_raytrace.tgsi" 0 OUT "total +1 +1 +0")
check_cli(ffma_bound_fog "--no-repro|--target|sm50|--opt|fuse-ffma|--seed|9|captures/vs_legacy_fixedfunc_fog.tgsi" 0 OUT "total +1 +1 +0")
# An integer made from a fused float's bits (a hash) may be any bits, a
# NaN's too: the value's bound is unbounded (failed at seed 1 with "expected
# number, got nan" on sm50 and gfx9, as check --generated 300 --opt
# fuse-ffma did at every seed).
check_cli(ffma_bound_hash "--no-repro|--target|a3xx,sm50,gfx9,agx|--opt|fuse-ffma|--seed|1|${_fx}/fs_fuse_hash.tgsi" 0 OUT "total +4 +4 +0")
# A lookup at fused coordinates is exact away from its roundings (the
# nearest texel is the same), so a KILL_IF on its texel decides the lane;
# unbounded everywhere, it left every value undefined: vacuous at seeds
# 1-3 on every target, as 16 of the 707 etnaviv dumps were. Its discard
# removed (dce-discard, past the rewrite verifier) is still caught.
foreach(s 1 2 3)
  check_cli(fuse_tex_kill_s${s} "--no-repro|--opt|fuse-ffma|--seed|${s}|${_fx}/fs_fuse_tex_kill.tgsi" 0
            OUT "total +4 +4 +0 +0 +0 +0.*\nvalues: [1-9][0-9]* compared")
endforeach()
check_cli(fuse_tex_kill_fault "--no-repro|--target|sm50|--opt|fuse-ffma|--no-verify|--inject-fault|dce-discard|${_fx}/fs_fuse_tex_kill.tgsi" 1
          OUT "fail sm50 fixtures/check/fs_fuse_tex_kill.tgsi: mismatch \\(ref/opt\\): discard lane")
# A precise MAD that fuse-ffma may not fuse left the fusion's exactness
# class set (opt_expand.c, fuse_fmad), and the next rewrite, an exact
# fold of its 0 * 0, was refused as "an inexact rewrite of a precise
# value" (sm50; check --generated 1000 --opt fuse-ffma --seed 4, reduced).
check_cli(fuse_precise_fold "--no-repro|--opt|fuse-ffma|${_fx}/cs_precise_mad_fold.tgsi" 0
          OUT "total +4 +4 +0 +0 +0 +0")
# --opt inexact: x + 0 -> x and x * 0 -> 0 may give a zero sum or product
# the other sign, and an integer made from its bits differs (expected
# 0x00000001, got 0x80000001 on a3xx, sm50 and gfx9 at seeds 1-3; check
# --generated 1000 --opt inexact --seed 6 found it in a hash). Those zeros
# are ZSIGN now under the mode; default mode still compares them exactly.
foreach(s 1 2 3)
  check_cli(inexact_zero_bits_s${s} "--no-repro|--opt|inexact|--seed|${s}|${_fx}/fs_inexact_zero_bits.tgsi" 0
            OUT "total +4 +4 +0 +0 +0 +0")
endforeach()
check_cli(inexact_zero_bits_default "--no-repro|${_fx}/fs_inexact_zero_bits.tgsi" 0
          OUT "total +4 +4 +0 +0 +0 +0.*\nvalues: 40960 compared, 0 undefined, 0 unchecked, 0 within tolerance")

# Back end or mid-level (issue 16): a failure on one target while another
# target sharing opt's front end and IR passes passes is put on its own back
# end, in the summary and the JSON; when they all fail, the IR interpreter
# tells the front end (LRP in GLSL mix's order), the IR passes (an indirect
# array access without its offset) and a shared back-end stage (a truncated
# immediate) apart; a discard it cannot run names the shared code only.
check_cli(where_backend "--no-repro|--target|a3xx,sm50|--inject-fault|missing-ss|captures/fs_phong.tgsi" 1
          OUT "\nwhere: a3xx captures/fs_phong.tgsi: the IR passes agree on sm50: the bug is in the a3xx back end\n")
check_cli(where_backend_json "--no-repro|--target|a3xx,sm50|--inject-fault|missing-ss|--json|-|captures/fs_phong.tgsi" 1
          OUT "\"locality\": \"the IR passes agree on sm50: the bug is in the a3xx back end\", \"where\": \"back-end\"")
check_cli(where_front "--no-repro|--target|a3xx,sm50,gfx9|--inject-fault|lrp-as-mix|fixtures/faults/fs_lrp_array.tgsi" 1
          OUT "\nwhere: a3xx fixtures/faults/fs_lrp_array.tgsi: the case fails on sm50, gfx9 too, and the front end's IR computes opt's 0x[0-9a-f]+ at OUT\\[0\\]\\.[xyzw] lane [0-9]+ already: the bug is in the TGSI front end \\(its translation to IR\\)\n")
check_cli(where_ir_passes "--no-repro|--target|a3xx,sm50,gfx9|--inject-fault|arrays-offset-ignored|--json|-|fixtures/faults/fs_lrp_array.tgsi" 1
          OUT "\"locality\": \"the case fails on sm50, gfx9 too, and at OUT\\[0\\]\\.[xyzw] lane [0-9]+ the front end's IR computes 0x[0-9a-f]+, the IR after the IR passes opt's 0x[0-9a-f]+: the bug is in the IR passes\", \"where\": \"ir-passes\"")
check_cli(where_shared_back_end "--no-repro|--target|a3xx,sm50,gfx9|--inject-fault|imm-truncated|fixtures/faults/vs_int_loop.tgsi" 1
          OUT "\nwhere: sm50 fixtures/faults/vs_int_loop.tgsi: the case fails on a3xx, gfx9 too, and the IR the passes hand the back end computes 0x[0-9a-f]+ at OUT\\[[0-9]\\]\\.[xyzw] lane [0-9]+, the program 0x[0-9a-f]+: the bug is in a back-end stage sm50 shares with them\n")
check_cli(where_shared "--no-repro|--target|a3xx,sm50|--inject-fault|dce-discard|fixtures/faults/fs_mixed.tgsi" 1
          OUT "total +2 +0 +2.*\nwhere: a3xx fixtures/faults/fs_mixed.tgsi: the case fails on sm50 too: the bug is in code a3xx shares with them \\(the front end, the IR passes or a shared back-end stage\\)\n")
# ... and bisect says it too, replaying the reproducer on the other targets.
check_cli(where_bisect_repro "--target|a3xx|--inject-fault|missing-ss|--repro-dir|${_out}/where|captures/fs_phong.tgsi" 1
          OUT "fail a3xx captures/fs_phong.tgsi: hazard" CLEAN ${_out}/where SETUP where_repro)
check_cli(where_bisect "bisect|${_out}/where/fs_phong-a3xx.yaml" 0 NEEDS where_repro
          OUT "\nwhere: the IR passes agree on sm50(, gfx9)?: the bug is in the a3xx back end\n")
include(${CMAKE_CURRENT_LIST_DIR}/cli_latency.cmake)
# 80 loops one after another, each left by BRK: both reference compilers
# compile it (sm50 nested a guard per finished loop past 64 levels; gfx9
# kept every loop's SGPR pair reserved and ran out).
check_cli(many_loops "--target|sm50,gfx9|--no-repro|-q|${_fx}/many_loops.tgsi" 0 OUT "total +2 +2 +0 +0 +0 +0")
# A branch on packed bits is known except on lanes near a rounding tie
# (before, every packed value was inexact and the branch left ~60% of the
# values undefined).
check_cli(pack_branch "--target|a3xx,sm50,gfx9,agx|--no-repro|${_fx}/pack_branch.tgsi" 0
          OUT "values: [0-9]+ compared, [0-9]?[0-9]?[0-9]?[0-9] undefined")
# The bits of a negated NaN are unknown to the oracle: a discard they
# decide is not compared (before, sm50 and gfx9 failed ref/opt at every
# seed: their ref and opt negate a NaN differently, both correctly).
check_cli(nan_neg_bits "--target|a3xx,sm50,gfx9,agx|--no-repro|-q|--seed|3|${_fx}/nan_neg_bits.tgsi" 0 OUT "total +4 +4 +0 +0 +0 +0")
# ... and read as integer bits: ref and opt may differ there (NANBITS);
# fails ref/opt on sm50 and gfx9 at seeds 1-3 without that rule.
check_cli(nan_neg_int_view "--target|a3xx,sm50,gfx9,agx|--no-repro|-q|--seed|1|${_fx}/nan_neg_int_view.tgsi" 0 OUT "total +4 +4 +0 +0 +0 +0")
# The same rule for a memory word: the bits stored to a buffer (seed 5).
check_cli(nan_neg_store "--no-repro|-q|--seed|5|${_fx}/cs_nan_neg_store.tgsi" 0 OUT "total +4 +4 +0 +0 +0 +0")
# A compare-and-swap of a uniform pair (gen:759113470 at --generated 1000
# --seed 4): gfx9's opt path refused it, no legal form for the VGPR pair.
check_cli(cas_uniform_pair "--target|a3xx,sm50,gfx9,agx|--no-repro|-q|${_fx}/cas_uniform_pair.tgsi" 0
          OUT "total +4 +4 +0 +0 +0 +0")
# A float negate into UP2H's half (gen:18082128 at --generated 1000 --seed
# 7): sm50's isel folded it into F2F.F32.F16's f16 negate.
check_cli(neg_into_half "--target|a3xx,sm50,gfx9,agx|--no-repro|-q|${_fx}/neg_into_half.tgsi" 0
          OUT "total +4 +4 +0 +0 +0 +0")
# A built-in model that does not open leaves its target out with a warning
# naming why (a model edited past what the binary reads once dropped gfx9
# from a sweep without a word).
add_test(NAME cli_check_model_left_out
         COMMAND ${CMAKE_COMMAND} -E env DIFFCOMP_ISA_PATH=${CMAKE_SOURCE_DIR}/fixtures/logs
                 $<TARGET_FILE:diffcomp> check --no-repro captures/fs_phong.tgsi
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_check_model_left_out PROPERTIES
                     PASS_REGULAR_EXPRESSION "gfx9: warning: the model does not open, so the check leaves this target out: .*gfx9.yaml")
# Stores that raced stay raced when one of the lanes stores again (the
# lane-keyed generator's gen:24858104, reduced; its reproducer): now a pass.
check_cli(store_race_rewrite "repro|${_fx}/store_race_rewrite.yaml" 0
          OUT "not reproduced: recorded fail: .*, now pass")
# A constant that reaches integer ops through a UCMP (or MOV) is drawn as
# an integer: a loop counting it down ends; as a float it ran out of steps
# (skipped as a runaway loop at every seed before).
check_cli(ucmp_count_kind "--no-repro|-q|--seed|2|${_fx}/ucmp_count_loop.tgsi" 0
          OUT "total +4 +4 +0 +0 +0 +0")
# A store to a 2-D image whose coordinate's .z was never written: the
# address depends on .xy only (vacuous at every seed before: the whole
# image was made undefined).
check_cli(image2d_xy_only "--no-repro|-q|${_fx}/cs_image2d_xy_only.tgsi" 0
          OUT "total +4 +4 +0 +0 +0 +0")
# An IF and a KILL_IF deciding on a float made from bits that are not fixed
# (a quotient's integer view) leave undefined what they decide; the other
# lanes are compared (interp/ref mismatches at every seed before).
check_cli(branch_on_int_view "--no-repro|-q|${_fx}/branch_on_int_view.tgsi" 0
          OUT "total +4 +4 +0 +0 +0 +0")
# The same for a KILL_IF alone: the lanes it may or may not kill are
# undefined (interp/ref mismatches at every seed without it).
check_cli(kill_on_int_view "--no-repro|-q|${_fx}/kill_on_int_view.tgsi" 0
          OUT "total +4 +4 +0 +0 +0 +0")
# A branch, a kill and a compare on a NaN that --opt inexact may fold away
# (x * 0 -> 0), and a branch on a product's rounding error that --opt
# fuse-ffma may keep: what they decide differs between ref and opt in
# those modes (the steer taint, tgsi_interp_cf.c). Before, ref/opt
# mismatches on a3xx, sm50, gfx9 (inexact) and sm50 (fuse-ffma) at seeds
# 1-3; in default mode ref and opt must still agree on every branch, and
# a wrong branch (EXEC not restored after a divergent IF) is still caught
# in both modes.
# TXQS's .yzw are 0 (the one-sample model): a capture reads .x only, so the
# mutant giving sm50 .yzw = 1 (opt_isel_tex.c:124, campaign of session 19)
# survived it; this fixture kills it (mismatch, sm50).
check_cli(txqs_xyzw "--no-repro|-q|${_fx}/fs_txqs_xyzw.tgsi" 0
          OUT "total +4 +3 +0 +0 +0 +1")
# The same chain checked: every target's DIV is RCP * MUL, an ulp off,
# which the chain makes 2^-12 of the result against RCP's 2^-14. Before
# the amplification was carried (ENV_AMP_MASK), a mismatch on all four
# targets at seeds 1-3; now those lanes are unchecked and the rest pass.
foreach(_s 1 2 3)
  check_cli(cancel_chain_s${_s} "--no-repro|-q|--seed|${_s}|${_fx}/fs_cancel_chain.tgsi" 0
            OUT "total +4 +4 +0 +0 +0 +0\n.*\nvalues: [0-9]+ compared, 0 undefined, [1-9][0-9]* unchecked")
endforeach()
check_cli(steer_inexact_nan "--no-repro|-q|--opt|inexact|${_fx}/steer_inexact_nan.tgsi" 0
          OUT "total +4 +4 +0 +0 +0 +0\n.*\nvalues: [0-9]+ compared, [0-9]+ undefined, 0 unchecked, [1-9][0-9]* within")
check_cli(steer_fuse_edge "--no-repro|-q|--opt|fuse-ffma|${_fx}/steer_fuse_edge.tgsi" 0
          OUT "total +4 +4 +0 +0 +0 +0\n.*\nvalues: 40960 compared, 0 undefined, 0 unchecked, [1-9][0-9]* within")
check_cli(steer_default "--no-repro|-q|${_fx}/steer_inexact_nan.tgsi|${_fx}/steer_fuse_edge.tgsi" 0
          OUT "total +8 +8 +0 +0 +0 +0\n.*\nvalues: [0-9]+ compared, [0-9]+ undefined, 0 unchecked, 0 within")
check_cli(steer_wrong_branch "--no-repro|-q|--target|gfx9|--inject-fault|exec-not-restored|${_fx}/steer_inexact_nan.tgsi" 1
          OUT "fail gfx9 .*mismatch \\(ref/opt\\)")
check_cli(steer_wrong_branch_inexact "--no-repro|-q|--target|gfx9|--opt|inexact|--inject-fault|exec-not-restored|${_fx}/steer_inexact_nan.tgsi" 1
          OUT "fail gfx9 .*mismatch \\(ref/opt\\)")
