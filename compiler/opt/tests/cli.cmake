# diffcomp compile --path opt, and the optimizing compiler's regressions
# against the reference compiler through the check.
set(_opt_run ${CMAKE_SOURCE_DIR}/compiler/tgsi/tests/run_cli.cmake)
function(opt_cli name args rc)
  cmake_parse_arguments(T "" "OUT;ERR" "" ${ARGN})
  set(defs -DEXE=$<TARGET_FILE:diffcomp> -DARGS=${args} -DRC=${rc})
  if(T_OUT)
    list(APPEND defs -DOUT_RE=${T_OUT})
  endif()
  if(T_ERR)
    list(APPEND defs -DERR_RE=${T_ERR})
  endif()
  add_test(NAME cli_opt_${name} COMMAND ${CMAKE_COMMAND} ${defs} -P ${_opt_run}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
endfunction()

opt_cli(compile_stats "compile|fixtures/ref/a3xx/kill_tex.tgsi|--target|a3xx|--path|opt|--stats" 0
        OUT "kill p0.x\n.*; opt a3xx: [0-9]+ instructions, [0-9]+ nops, [0-9]+ registers, [0-9]+ cycles\n$")
# sm50 SQRT: opt took rcp(rsq(x)), an ulp off the reference's correctly
# rounded root, and LRP carried the difference to the output.
opt_cli(brdf_sqrt_sm50 "check|captures/fs_subroutine_brdf.tgsi|--target|sm50|-q|--no-repro|-j|0" 0
        OUT "sm50 +1 +1 +0 +0 +0")
# Per-vertex inputs bound with their vertex (IN[v][slot]).
opt_cli(per_vertex_inputs "check|fixtures/opt/tes_per_vertex.tgsi|-q|--no-repro|-j|0" 0
        OUT "total +2 +2 +0 +0 +0")
