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
if(DIFFCOMP_SANITIZE)
  set_tests_properties(libisa_example PROPERTIES ENVIRONMENT
                       "CC=${CMAKE_C_COMPILER} -fsanitize=address,undefined")
endif()
