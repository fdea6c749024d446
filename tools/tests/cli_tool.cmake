# Issue 20: what a user installs and lives with (HTML report, man page,
# completion, the ISA library, README recipes).

# check --html, loaded in headless Chromium (skipped without chromium).
add_test(NAME html_chromium COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_html.sh ${CMAKE_SOURCE_DIR}
         $<TARGET_FILE:diffcomp>)
set_tests_properties(html_chromium PROPERTIES SKIP_RETURN_CODE 77)
cli_test(html_bad_dir "check|captures/vs_mvp_basic.tgsi|--html|/proc/nonexistent/site" 2
         ERR "cannot write the HTML report in /proc/nonexistent/site")

# report pairs one shader checked from the source tree (captures/X) and
# from captures/ (./X), the reports compared from a third directory.
add_test(NAME report_dirs COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_report_dirs.sh ${CMAKE_SOURCE_DIR}
                                  $<TARGET_FILE:diffcomp> ${CMAKE_BINARY_DIR}/report_dirs)

# The README's libdcisa example built against a fresh install (header,
# shared library, pkg-config file), run before and after moving the prefix.
add_test(NAME libisa_example COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_libisa.sh ${CMAKE_SOURCE_DIR}
         ${CMAKE_BINARY_DIR})
# Two installs of one build at once would both write its install_manifest.txt.
set_tests_properties(libisa_example cli_install PROPERTIES RESOURCE_LOCK diffcomp_install)
if(DIFFCOMP_SANITIZE)
  set_tests_properties(libisa_example PROPERTIES ENVIRONMENT
                       "CC=${CMAKE_C_COMPILER} -fsanitize=address,undefined")
endif()

# Every README recipe (a `<!-- recipe NAME: CODES -->` line before a block
# of commands) runs as written in a temporary directory (run_readme.sh);
# extcc and llvm register theirs beside their other tests.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/README.md)
file(STRINGS ${CMAKE_SOURCE_DIR}/README.md _dc_recipes REGEX "^<!-- (recipe|campaign) [a-z0-9_-]+:")
foreach(line ${_dc_recipes})
  string(REGEX REPLACE "^<!-- [a-z]+ ([a-z0-9_-]+):.*" "\\1" name "${line}")
  if(NOT name STREQUAL "extcc" AND NOT name STREQUAL "llvm")
    add_test(NAME readme_${name} COMMAND sh ${CMAKE_SOURCE_DIR}/tools/tests/run_readme.sh
                                         ${CMAKE_SOURCE_DIR} $<TARGET_FILE_DIR:diffcomp> ${name})
    # the README's commands, not memory safety: .ci/run's sanitizer stage skips them
    set_tests_properties(readme_${name} PROPERTIES LABELS recipe)
  endif()
endforeach()

# A directory means its *.tgsi files in tgsi and faults --check as in check
# (faults took it for one unreadable shader: "1 false positives").
cli_test(tgsi_dir "tgsi|--check|captures" 0)
cli_test(tgsi_dir_empty "tgsi|--check|fixtures" 2 ERR "fixtures: no \\*.tgsi files in this directory")
cli_test(faults_dir "faults|--check|fixtures/compile|--inject-fault|missing-ss|--target|a3xx|-j|1" 0
         OUT "1/1 fault-target pairs.*0 false positives")

# The generated bash completion completes a command, an option of it and
# a model name after --target.
add_test(NAME completion_bash COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run_completion.sh
                                      ${CMAKE_BINARY_DIR}/diffcomp.completion)

# as -> dis --hex -> as gives the same words on every target, from what
# compile -o writes (gfx9's and agx's instructions differ in length).
add_test(NAME as_dis_roundtrip COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_as_roundtrip.sh
                                       ${CMAKE_SOURCE_DIR} $<TARGET_FILE:diffcomp>)
cli_test(dis_hex_gfx9_sizes "dis|gfx9|--hex|0xbe900080|0x7e100306|0x00840608f0800f00" 0
         OUT "0000: be900080  s_mov_b32 s16, 0\n0004: 7e100306  v_mov_b32_e32 v8, v6\n0008: ")
cli_test(dis_hex_too_wide "dis|a3xx|--hex|0x112233445566778899" 2 ERR "not a hex word of at most 64 bits")

# compile: an option of the optimizing path is refused on --path ref
# (which has no passes), not ignored.
foreach(_o "--opt-bisect-limit|3" "--disable-pass|cse" "--passes|cse" "--opt|fuse-ffma"
           "--conservative|ra")
  string(REGEX REPLACE "^--([a-z-]+)\\|.*" "\\1" _n "${_o}")
  cli_test(compile_ref_refuses_${_n} "compile|captures/vs_mvp_basic.tgsi|--target|a3xx|${_o}" 2
           ERR "--${_n} needs --path opt \\(--path ref has no passes\\)")
endforeach()
cli_test(compile_refusal_exit3 "compile|captures/gs_wireframe.tgsi|--target|a3xx" 3
         ERR "no geometry-shader stage")

# One name per concept: an old spelling is refused with the new one by
# every command that has it.
cli_test(check_fuse_ffma_old "check|captures/vs_mvp_basic.tgsi|--fuse-ffma" 2
         ERR "check: --fuse-ffma is spelled --opt fuse-ffma now")
cli_test(reduce_reduce_time_old "reduce|x.yaml|--reduce-time|3" 2
         ERR "reduce: --reduce-time is spelled --time-limit now")
cli_test(bench_emu_model_old "bench|emu|--model|a3xx" 2 ERR "--model is spelled --target now")
cli_test(bisect_limit_old "bisect|x.yaml|--limit|3" 2 ERR "bisect: --limit is spelled --opt-bisect-limit now")
cli_test(bench_interp_model_unknown "bench|interp|--model|a3xx" 2 ERR "bench: unknown option '--model'")
cli_test(bench_emu_target_list "bench|emu|--target|a3xx,sm50|--insns|50|--invocations|64|--repeat|1" 0
         OUT "a3xx.*sm50")

# Every command and every option of each --help is in a README.
add_test(NAME help_readme_in_step COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_help_readme.sh
                                          ${CMAKE_SOURCE_DIR} $<TARGET_FILE:diffcomp>)

# report says when the two runs were made by other versions or models.
cli_test(report_models_differ "report|fixtures/report/models_old.json|fixtures/report/models_new.json" 0
         OUT "note: the runs were made by diffcomp 0.5.0 \\(old\\) and 0.6.0 \\(new\\)\nnote: the models differ: old a3xx f87d09d475b2c0db. new a3xx 0123456789abcdef\n")
cli_test(report_models_same "report|fixtures/report/models_old.json|fixtures/report/models_old.json" 0
         OUT "^a3xx: 1 cases pass in both")

# Every report path and the reproducer directory are tried before the run
# (a typo does not cost the run); a passing run leaves no directory behind.
cli_test(check_coverage_bad_path "check|captures/vs_mvp_basic.tgsi|--coverage|/nonexistent/cov.txt" 2
         ERR "cannot write /nonexistent/cov.txt")
cli_test(check_repro_dir_bad "check|captures/vs_mvp_basic.tgsi|--repro-dir|/proc/nonexistent/repro" 2
         ERR "cannot make the reproducer directory /proc/nonexistent/repro")
add_test(NAME check_repro_dir_left_alone
         COMMAND sh -c "d=$(mktemp -d) && '$<TARGET_FILE:diffcomp>' check captures/vs_mvp_basic.tgsi --target a3xx -q --repro-dir \"$d/r/s/\" >/dev/null && ! test -e \"$d/r\" && rmdir \"$d\""
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})

# '-' sends any one report to standard output (the human lines go to stderr).
cli_test(check_write_baseline_stdout
         "check|captures/fs_phong.tgsi|--target|a3xx|--inject-fault|delay-slot-short|--no-repro|-q|--write-baseline|-"
         0 OUT "^# diffcomp baseline[^\n]*\n[^\n]*\nexpected:\n  - {shader: captures/fs_phong.tgsi, target: a3xx, status: fail, signal: hazard}\n$")
cli_test(check_two_reports_stdout "check|captures/vs_mvp_basic.tgsi|--json|-|--coverage|-" 2
         ERR "only one report can take standard output")

# tools/same_builds.sh (the CI guard: a gcc and a clang build make the same
# programs) agrees for one build against itself and reports a build whose
# a3xx programs differ (a fault switched on in every compile).
add_test(NAME same_builds COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_same_builds.sh ${CMAKE_SOURCE_DIR}
                                  $<TARGET_FILE:diffcomp> ${CMAKE_BINARY_DIR}/same_builds)

# Issue 19: check's per-case state is bounded: as many case results held at
# once over 200 generated shaders as over 20, and the reports whole.
add_test(NAME check_bounded COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_check_bounded.sh
                                    $<TARGET_FILE:diffcomp> ${CMAKE_BINARY_DIR}/check_bounded)
