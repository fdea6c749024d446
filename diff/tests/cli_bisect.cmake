# diffcomp bisect: usage, the no-failure case, a hand-made bad
# transformation (DIFFCOMP_BISECT_INJECT) found at its index with its pass,
# skips around and hiding it, --opt-bisect-limit N and --git-bisect exit codes.
# Included from cli.cmake; runs through the check's run_check.cmake.
set(_bis_run ${CMAKE_CURRENT_LIST_DIR}/run_check.cmake)
set(_bis fixtures/bisect)
set(_bis_inj "DIFFCOMP_BISECT_INJECT=20:${_bis}/fs_fold_wrong.tgsi")
function(bisect_cli name args rc)
  cmake_parse_arguments(T "" "OUT;ERR;ENVS" "" ${ARGN})
  set(defs -DEXE=$<TARGET_FILE:diffcomp> -DARGS=${args} -DRC=${rc})
  if(DEFINED T_OUT)
    list(APPEND defs "-DOUT_RE=${T_OUT}")
  endif()
  if(DEFINED T_ERR)
    list(APPEND defs "-DERR_RE=${T_ERR}")
  endif()
  if(DEFINED T_ENVS)
    list(APPEND defs "-DENVS=${T_ENVS}")
  endif()
  add_test(NAME cli_bisect_${name} COMMAND ${CMAKE_COMMAND} ${defs} -P ${_bis_run}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
endfunction()

bisect_cli(help "bisect|--help" 0 OUT "usage: diffcomp bisect REPRO.yaml")
bisect_cli(no_file "bisect" 2 ERR "usage: diffcomp bisect")
bisect_cli(bad_option "bisect|--frob|x.yaml" 2 ERR "unknown option '--frob'")
bisect_cli(missing "bisect|${_bis}/no_such.yaml" 2 ERR "no_such.yaml")
bisect_cli(not_repro "bisect|${_bis}/fs_fold.tgsi" 2 ERR "fs_fold.tgsi:[0-9]+:[0-9]+: error")
bisect_cli(git_not_repro "bisect|--git-bisect|${_bis}/fs_fold.tgsi" 125)

# Without the hook the recorded mismatch does not happen.
bisect_cli(no_failure "bisect|${_bis}/fs_fold_mismatch.yaml" 2
           OUT "no limit +good pass\nthe reproducer does not fail: nothing to bisect")
bisect_cli(git_good "bisect|--git-bisect|${_bis}/fs_fold_mismatch.yaml" 0 OUT "no limit: good")

# Opt swapped from transformation 20 on (a cse of fs_fold).
bisect_cli(found "bisect|${_bis}/fs_fold_mismatch.yaml" 0 ENVS ${_bis_inj}
           OUT "limit 0 +good pass\n.*pass: cse \\(its transformations 13..39 of 53\\)\ntransformation 20 of 53: %18 = imm -> %9\ngood: diffcomp bisect fixtures/bisect/fs_fold_mismatch.yaml --opt-bisect-limit 19\nbad:  diffcomp bisect fixtures/bisect/fs_fold_mismatch.yaml --opt-bisect-limit 20\n\nwithout it \\(limit 19\\): IR at transformation 20 \\(after cse\\):\nshader FRAG.*  %18 = imm 1.0\n.*with it \\(limit 20\\), as a diff against the IR above: IR at transformation 20 \\(after cse\\):\n  ...\n   %9 = imm 1.0\n   %64 = imm 3.0\n-  %18 = imm 1.0\n   %67 = imm 3.0\n   %20 = fmul %0, %64\n  ...\n$")
bisect_cli(skip_around "bisect|${_bis}/fs_fold_mismatch.yaml" 0
           ENVS "DIFFCOMP_BISECT_INJECT=20:${_bis}/fs_fold_wrong.tgsi:21-25"
           OUT "limit 23 +skip fail a3xx fixtures/bisect/fs_fold.tgsi: compile-error \\(opt\\).*\n  limit 20 +bad .*transformation 20 of 53: ")
bisect_cli(skip_range "bisect|${_bis}/fs_fold_mismatch.yaml" 1
           ENVS "DIFFCOMP_BISECT_INJECT=20:${_bis}/fs_fold_wrong.tgsi:16-19"
           OUT "transformation: one of 16..20 \\(the limits between are skips\\):\n  16 cse: .*\n  20 cse: %18 = imm -> %9\n")
bisect_cli(not_opt "bisect|${_bis}/fs_fold_mismatch.yaml" 1
           ENVS "DIFFCOMP_BISECT_INJECT=0:${_bis}/fs_fold_wrong.tgsi"
           OUT "fails with no transformation at all \\(limit 0 of 53\\)")
bisect_cli(limit_good "bisect|--opt-bisect-limit|19|${_bis}/fs_fold_mismatch.yaml" 0 ENVS ${_bis_inj}
           OUT "^pass\nlimit 19: good\n")
bisect_cli(limit_bad "bisect|--opt-bisect-limit|20|${_bis}/fs_fold_mismatch.yaml" 1 ENVS ${_bis_inj}
           OUT "mismatch \\(ref/opt\\).*\nlimit 20: bad\n")
bisect_cli(limit_skip "bisect|--opt-bisect-limit|18|${_bis}/fs_fold_mismatch.yaml" 125
           ENVS "DIFFCOMP_BISECT_INJECT=20:${_bis}/fs_fold_wrong.tgsi:17-19" OUT "limit 18: skip")
bisect_cli(git_bad "bisect|--git-bisect|${_bis}/fs_fold_mismatch.yaml" 1 ENVS ${_bis_inj}
           OUT "no limit: bad")
bisect_cli(git_limit "bisect|--git-bisect|--opt-bisect-limit|3|${_bis}/fs_fold_mismatch.yaml" 2
           ERR "not with --opt-bisect-limit")

# The mandatory stages (issue 16): every fault of the catalog in mandatory
# code with its firings hidden, so that only the stage search can find it;
# fixtures/bisect/stages.txt gives the stage each must name (liveness
# faults: live, not the scheduler or RA that use it) and whether the
# spoiled instruction is named. One test per line; under
# DIFFCOMP_TEST_QUICK only the lines marked quick (one per stage) run.
set(_stages ${CMAKE_SOURCE_DIR}/fixtures/bisect/stages.txt)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_stages})
file(STRINGS ${_stages} _stage_lines REGEX "^[a-z0-9]")
foreach(_l IN LISTS _stage_lines)
  string(REGEX REPLACE " +" ";" _f "${_l}")
  list(GET _f 0 _fault)
  list(GET _f 1 _target)
  list(GET _f 2 _shader)
  list(GET _f 3 _stage)
  list(GET _f 4 _item)
  list(GET _f 5 _quick)
  if(_stage STREQUAL "undetected" OR _stage STREQUAL "miss")
    continue()
  endif()
  set(_shader_path fixtures/faults/${_shader})
  if(_shader MATCHES "/")
    set(_shader_path fixtures/${_shader}) # another fixture directory's shader
  endif()
  set(_q 0)
  if(_quick STREQUAL "quick")
    set(_q 1)
  endif()
  add_test(NAME cli_bisect_stage_${_fault}_${_target}
           COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:diffcomp> -DFAULT=${_fault}
                   -DTARGET=${_target} -DSHADER=${_shader_path} -DSTAGE=${_stage}
                   -DITEM=${_item} -DQUICK=${_q} -P ${CMAKE_CURRENT_LIST_DIR}/bisect_stage.cmake
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
endforeach()
add_test(NAME cli_bisect_stages_catalog
         COMMAND ${CMAKE_COMMAND} -DLIST=fixtures/faults/list.txt -DSTAGES=${_stages}
                 -DTARGETS=a3xx,sm50,gfx9,agx -P ${CMAKE_CURRENT_LIST_DIR}/bisect_stages_catalog.cmake
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})

# bisect --json FILE: the result as JSON (bisect_json.cmake parses it and
# checks keys); the text still goes to stdout.
set(_bis_json ${CMAKE_BINARY_DIR}/bisect_json)
function(bisect_json name args rc expect)
  cmake_parse_arguments(T "" "OUT;ENVS;NEEDS" "" ${ARGN})
  set(defs -DEXE=$<TARGET_FILE:diffcomp> "-DARGS=${args}|--json|${_bis_json}/${name}.json"
           -DRC=${rc} -DFILE=${_bis_json}/${name}.json "-DEXPECT=${expect}")
  if(DEFINED T_OUT)
    list(APPEND defs "-DOUT_RE=${T_OUT}")
  endif()
  if(DEFINED T_ENVS)
    list(APPEND defs "-DENVS=${T_ENVS}")
  endif()
  add_test(NAME cli_bisect_json_${name}
           COMMAND ${CMAKE_COMMAND} ${defs} -P ${CMAKE_CURRENT_LIST_DIR}/bisect_json.cmake
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  if(T_NEEDS)
    set_tests_properties(cli_bisect_json_${name} PROPERTIES FIXTURES_REQUIRED ${T_NEEDS})
  endif()
endfunction()
file(MAKE_DIRECTORY ${_bis_json})
bisect_json(found "bisect|${_bis}/fs_fold_mismatch.yaml" 0
            "outcome=found|exit=0|pass=cse|transformation.index=20|transformation.of=53|transformation.pass=cse|transformation.what=%18 = imm -> %9|transformation.pass_first=13|transformation.pass_last=39|transformation.good_limit=19|transformation.bad_limit=20|transformation.bad_command=diffcomp bisect ${_bis}/fs_fold_mismatch.yaml --opt-bisect-limit 20|stage=null|instruction=null|reproducer=${_bis}/fs_fold_mismatch.yaml|target=a3xx|probes.0.limit=null|probes.0.verdict=bad|probes.1.limit=0|probes.1.verdict=good"
            ENVS ${_bis_inj} OUT "transformation 20 of 53: ")
bisect_json(range "bisect|${_bis}/fs_fold_mismatch.yaml" 1
            "outcome=range|exit=1|pass=cse|transformation.index=null|transformation.what=null|transformation.candidates.0.index=16|transformation.candidates.4.index=20|transformation.candidates.4.what=%18 = imm -> %9|transformation.good_limit=15"
            ENVS "DIFFCOMP_BISECT_INJECT=20:${_bis}/fs_fold_wrong.tgsi:16-19")
bisect_json(no_failure "bisect|${_bis}/fs_fold_mismatch.yaml" 2
            "outcome=no-failure|exit=2|pass=null|transformation=null|stage=null|where.verdict=unknown|where.text=null")
bisect_cli(json_with_limit "bisect|--opt-bisect-limit|3|--json|-|${_bis}/fs_fold_mismatch.yaml" 2
           ERR "--json reports a search")
bisect_cli(json_stdout "bisect|--json|-|${_bis}/fs_fold_mismatch.yaml" 2
           OUT "^{\n  \"version\": .*\"outcome\": \"no-failure\".*}\n$"
           ERR "the reproducer does not fail: nothing to bisect")

# The place, in words (issue 16): missing-ss on a3xx, its firings hidden;
# the same as JSON, with the back-end verdict.
bisect_json(hazard_text "bisect|--hide-firings|${_bis}/missing_ss_a3xx.yaml" 0
            "exit=0|stage.name=hazard|stage.hazard~^hazard: \\(ss\\) missing before pc 3 \\(reads r1.x, written by rcp at pc 0, 7 cycles early\\).*pc 3 is %25 \\(TGSI line 11\\)|instruction.items.0.name=%25|instruction.items.0.tgsi_line=11|instruction.items.0.tgsi=1: MUL TEMP[1].y, TEMP[1].xxxx, IN[0].wwww|where.verdict=back-end|where.passes_on.0=sm50|where.text=the IR passes agree on sm50, gfx9: the bug is in the a3xx back end"
            OUT "\nhazard: \\(ss\\) missing before pc 3 \\(reads r1.x, written by rcp at pc 0, 7 cycles early\\); pc 3 is %25 \\(TGSI line 11\\), pc 0 is %24 \\(TGSI line 10\\)\nitem: hazard %25, TGSI line 11")

# diffcomp explain: the same hazard as an SVG timeline; a case with none.
check_cli(explain_missing_ss "explain|${_bis}/missing_ss_a3xx.yaml|-o|${CMAKE_BINARY_DIR}/explain/missing_ss.svg" 0
          FILE ${CMAKE_BINARY_DIR}/explain/missing_ss.svg
          FILE_RE "^<svg .*Hazard: sync \\(read of a variable-latency result without waiting for it\\) at pc 3<.*pc 3 reads r1.x at cycle 3; pc 0 wrote it, ready at cycle 10: the read is 7 cycles early.*The code needed \\(ss\\) before pc 3.*>pc 0 +rcp r1.x, r0.x<.*>r1.x ready at cycle 10<.*>pc 3 .*early read of r1.x \\(7 cycles early\\): needs \\(ss\\)<.*Legend: .*</svg>\n$")
check_cli(explain_no_hazard "explain|${_bis}/fs_fold_mismatch.yaml|-o|-" 1
          OUT "meets no hazard")
check_cli(explain_usage "explain" 2 ERR "usage: diffcomp explain")

# Which shared code (issue 16): a fault planted in the front end (LRP in
# GLSL mix's order), in an IR pass (the array lowering drops an indirect
# access's offset) and in a shared back-end stage (the legalizer truncates
# an immediate) fails alike on a3xx, sm50 and gfx9; the IR interpreter on
# the front end's IR and on the IR passes' output tells the three apart.
set(_wir ${CMAKE_BINARY_DIR}/where_ir)
foreach(_w "front;lrp-as-mix;fixtures/faults/fs_lrp_array.tgsi;fs_lrp_array"
           "passes;arrays-offset-ignored;fixtures/faults/fs_lrp_array.tgsi;fs_lrp_array"
           "backend;imm-truncated;fixtures/faults/vs_int_loop.tgsi;vs_int_loop")
  list(GET _w 0 _n)
  list(GET _w 1 _f)
  list(GET _w 2 _s)
  check_cli(where_ir_${_n}_repro "--target|a3xx|--inject-fault|${_f}|--repro-dir|${_wir}/${_n}|${_s}" 1
            OUT "fail a3xx ${_s}: mismatch" CLEAN ${_wir}/${_n} SETUP where_ir_${_n})
endforeach()
bisect_json(where_front "bisect|--no-stages|${_wir}/front/fs_lrp_array-a3xx.yaml" 0
            "where.verdict=front-end|where.fails_on.0=sm50|where.fails_on.1=gfx9|pass=front"
            NEEDS where_ir_front
            OUT "\nwhere: the case fails as recorded on sm50, gfx9 too, and the front end's IR computes opt's 0x[0-9a-f]+ at OUT\\[0\\]\\.[xyzw] lane [0-9]+ already: the bug is in the TGSI front end \\(its translation to IR\\)\n")
bisect_json(where_passes "bisect|--no-stages|${_wir}/passes/fs_lrp_array-a3xx.yaml" 0
            "where.verdict=ir-passes|pass=arrays" NEEDS where_ir_passes
            OUT "\nwhere: the case fails as recorded on sm50, gfx9 too, and at OUT\\[0\\]\\.[xyzw] lane [0-9]+ the front end's IR computes 0x[0-9a-f]+, the IR after the IR passes opt's 0x[0-9a-f]+: the bug is in the IR passes\n")
bisect_json(where_backend "bisect|--no-stages|${_wir}/backend/vs_int_loop-a3xx.yaml" 0
            "where.verdict=shared-back-end" NEEDS where_ir_backend
            OUT "\nwhere: the case fails as recorded on sm50, gfx9 too, and the IR the passes hand the back end computes 0x[0-9a-f]+ at OUT\\[[0-9]\\]\\.[xyzw] lane [0-9]+, the program 0x[0-9a-f]+: the bug is in a back-end stage a3xx shares with them\n")
