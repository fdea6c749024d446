# diffcomp bisect: usage, the no-failure case, a hand-made bad
# transformation (DIFFCOMP_BISECT_INJECT) found at its index with its pass,
# skips around and hiding it, --limit N and --git-bisect exit codes.
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
           OUT "limit 0 +good pass\n.*pass: cse \\(its transformations 13..39 of 53\\)\ntransformation 20 of 53: %18 = imm -> %9\ngood: diffcomp bisect fixtures/bisect/fs_fold_mismatch.yaml --limit 19\nbad:  diffcomp bisect fixtures/bisect/fs_fold_mismatch.yaml --limit 20\n\nwithout it \\(limit 19\\): IR at transformation 20 \\(after cse\\):\nshader FRAG.*  %18 = imm 1.0\n.*with it \\(limit 20\\), as a diff against the IR above: IR at transformation 20 \\(after cse\\):\n  ...\n   %9 = imm 1.0\n   %64 = imm 3.0\n-  %18 = imm 1.0\n   %67 = imm 3.0\n   %20 = fmul %0, %64\n  ...\n$")
bisect_cli(skip_around "bisect|${_bis}/fs_fold_mismatch.yaml" 0
           ENVS "DIFFCOMP_BISECT_INJECT=20:${_bis}/fs_fold_wrong.tgsi:21-25"
           OUT "limit 23 +skip fail a3xx fixtures/bisect/fs_fold.tgsi: compile-error \\(opt\\).*\n  limit 20 +bad .*transformation 20 of 53: ")
bisect_cli(skip_range "bisect|${_bis}/fs_fold_mismatch.yaml" 1
           ENVS "DIFFCOMP_BISECT_INJECT=20:${_bis}/fs_fold_wrong.tgsi:16-19"
           OUT "transformation: one of 16..20 \\(the limits between are skips\\):\n  16 cse: .*\n  20 cse: %18 = imm -> %9\n")
bisect_cli(not_opt "bisect|${_bis}/fs_fold_mismatch.yaml" 1
           ENVS "DIFFCOMP_BISECT_INJECT=0:${_bis}/fs_fold_wrong.tgsi"
           OUT "fails with no transformation at all \\(limit 0 of 53\\)")
bisect_cli(limit_good "bisect|--limit|19|${_bis}/fs_fold_mismatch.yaml" 0 ENVS ${_bis_inj}
           OUT "^pass\nlimit 19: good\n")
bisect_cli(limit_bad "bisect|--limit|20|${_bis}/fs_fold_mismatch.yaml" 1 ENVS ${_bis_inj}
           OUT "mismatch \\(ref/opt\\).*\nlimit 20: bad\n")
bisect_cli(limit_skip "bisect|--limit|18|${_bis}/fs_fold_mismatch.yaml" 125
           ENVS "DIFFCOMP_BISECT_INJECT=20:${_bis}/fs_fold_wrong.tgsi:17-19" OUT "limit 18: skip")
bisect_cli(git_bad "bisect|--git-bisect|${_bis}/fs_fold_mismatch.yaml" 1 ENVS ${_bis_inj}
           OUT "no limit: bad")
bisect_cli(git_limit "bisect|--git-bisect|--limit|3|${_bis}/fs_fold_mismatch.yaml" 2
           ERR "not with --limit")

# The mandatory stages (issue 16): faults of the catalog with their firings
# hidden, so that only the stage search can find them; each must name the
# fault's stage (liveness faults: live, not the scheduler or RA that use
# it) and, for hazard and legalization faults, the fault's own instance.
set(_fx fixtures/faults)
function(stage_cli name fault target shader)
  bisect_cli(stage_${name} "faults|--check|--fault|${fault}|--target|${target}|-j|1|--hide-firings|${shader}" 0
             OUT "stage named: 1/1 pairs; instruction named \\(hazard and legalization faults\\): ([01])/\\1")
endfunction()
stage_cli(missing_ss missing-ss a3xx captures/cs_bitonic_sort.tgsi)
stage_cli(stall_short stall-count-short sm50 captures/cs_bitonic_sort.tgsi)
stage_cli(ra_livein ra-livein-ignored sm50 ${_fx}/vs_int_loop.tgsi)
stage_cli(live_one_sweep live-one-sweep sm50 ${_fx}/vs_int_loop.tgsi)
