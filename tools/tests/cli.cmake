# diffcomp interp and bench: exit codes, exact output, determinism.
set(_interp_run ${CMAKE_SOURCE_DIR}/compiler/tgsi/tests/run_cli.cmake)
set(_interp_expect ${CMAKE_CURRENT_LIST_DIR}/run_cli_expect.cmake)
set(_fx fixtures/interp)
function(interp_cli name args rc)
  cmake_parse_arguments(T "" "OUT;ERR" "" ${ARGN})
  set(defs -DEXE=$<TARGET_FILE:diffcomp> -DARGS=${args} -DRC=${rc})
  if(T_OUT)
    list(APPEND defs -DOUT_RE=${T_OUT})
  endif()
  if(T_ERR)
    list(APPEND defs -DERR_RE=${T_ERR})
  endif()
  add_test(NAME cli_${name} COMMAND ${CMAKE_COMMAND} ${defs} -P ${_interp_run}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
endfunction()
function(interp_same name args)
  cmake_parse_arguments(T "" "EXPECT;ARGS2;PRE" "" ${ARGN})
  set(defs -DEXE=$<TARGET_FILE:diffcomp> -DARGS=${args} -DRC=0)
  foreach(v EXPECT ARGS2 PRE)
    if(T_${v})
      list(APPEND defs -D${v}=${T_${v}})
    endif()
  endforeach()
  add_test(NAME cli_${name} COMMAND ${CMAKE_COMMAND} ${defs} -P ${_interp_expect}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
endfunction()

interp_cli(interp_help "interp|--help" 0 OUT "usage: diffcomp interp")
interp_cli(interp_no_file "interp" 2 ERR "usage: diffcomp interp")
interp_cli(interp_bad_option "interp|--frob|x.tgsi" 2 ERR "unknown option '--frob'")
interp_cli(interp_bad_count "interp|--invocations|0|${_fx}/e2e_basic.tgsi" 2 ERR "--invocations")
interp_cli(interp_missing "interp|${_fx}/no_such.tgsi" 2 ERR "no_such.tgsi")
interp_cli(interp_refused "interp|${_fx}/clock.tgsi" 2 ERR "clock.tgsi:3:6: error: .*CLOCK")
interp_cli(interp_bad_inputs "interp|${_fx}/e2e_basic.tgsi|--inputs|${_fx}/e2e_basic.tgsi" 2
           ERR "e2e_basic.tgsi:[0-9]+:[0-9]+: error: YAML")
interp_cli(interp_runs "interp|--invocations|8|${_fx}/e2e_basic.tgsi" 0
           OUT "outputs:\n  - reg: 0\n    semantic: COLOR 0\n    chan: x\n    lanes:\n      - \\[0, 0x")
# The expected output is written by hand from the inputs file.
interp_same(interp_expected "interp|${_fx}/e2e_basic.tgsi|--inputs|${_fx}/e2e_basic.inputs.yaml"
            EXPECT ${_fx}/e2e_basic.expected.yaml)
interp_same(interp_deterministic "interp|--seed|9|--invocations|64|captures/fs_phong.tgsi"
            ARGS2 "interp|--seed|9|--invocations|64|captures/fs_phong.tgsi")
interp_same(interp_inputs_roundtrip
            "interp|--inputs|${CMAKE_BINARY_DIR}/rt.yaml|captures/fs_switch_material.tgsi"
            PRE "interp|--seed|3|--invocations|32|--write-inputs|${CMAKE_BINARY_DIR}/rt.yaml|captures/fs_switch_material.tgsi"
            ARGS2 "interp|--seed|3|--invocations|32|captures/fs_switch_material.tgsi")
interp_cli(bench_help "bench|--help" 0 OUT "usage: diffcomp bench interp")
interp_cli(bench_interp "bench|interp|--invocations|256|${_fx}/e2e_basic.tgsi" 0
           OUT "interp: [0-9.]+ M lane-instructions/s")
interp_cli(bench_unknown "bench|frob" 2 ERR "usage: diffcomp bench")
