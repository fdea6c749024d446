# Issue 20: what a user installs and lives with (HTML report, man page,
# completion, the ISA library, README recipes).

# check --html, loaded in headless Chromium (skipped without chromium).
add_test(NAME html_chromium COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_html.sh ${CMAKE_SOURCE_DIR}
         $<TARGET_FILE:diffcomp>)
set_tests_properties(html_chromium PROPERTIES SKIP_RETURN_CODE 77)
cli_test(html_bad_dir "check|captures/vs_mvp_basic.tgsi|--html|/proc/nonexistent/site" 2
         ERR "cannot write the HTML report in /proc/nonexistent/site")

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
file(STRINGS ${CMAKE_SOURCE_DIR}/README.md _dc_recipes REGEX "^<!-- recipe [a-z0-9_-]+:")
foreach(line ${_dc_recipes})
  string(REGEX REPLACE "^<!-- recipe ([a-z0-9_-]+):.*" "\\1" name "${line}")
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
cli_test(faults_dir "faults|--check|fixtures/compile|--fault|missing-ss|--target|a3xx|-j|1" 0
         OUT "1/1 fault-target pairs.*0 false positives")

# The generated bash completion completes a command, an option of it and
# a model name after --target.
add_test(NAME completion_bash COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run_completion.sh
                                      ${CMAKE_BINARY_DIR}/diffcomp.completion)
