# Installs the build into a fresh prefix, moves the prefix, and runs the
# installed diffcomp from another directory: it must find its models and
# check two captures. -DBUILD=build dir -DSRC=source dir -DTMP=scratch dir
file(REMOVE_RECURSE ${TMP})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${TMP}/a
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed: ${rc}")
endif()
foreach(f bin/diffcomp share/diffcomp/models/a3xx.yaml share/diffcomp/models/sm50.yaml
          share/doc/diffcomp/LICENSE share/man/man1/diffcomp.1
          share/bash-completion/completions/diffcomp)
  if(NOT EXISTS ${TMP}/a/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()
# The man page and the completion come from the help text: an option of
# `check --help` is in both.
file(READ ${TMP}/a/share/man/man1/diffcomp.1 man)
if(NOT man MATCHES "^\\.TH DIFFCOMP 1" OR NOT man MATCHES "\\.SS \"diffcomp check\"\n" OR
   NOT man MATCHES "--max-failures N")
  message(FATAL_ERROR "the installed man page lacks its title, `check` or --max-failures")
endif()
file(READ ${TMP}/a/share/bash-completion/completions/diffcomp comp)
if(NOT comp MATCHES "check\\) opts=\"[^\"]*--max-failures" OR NOT comp MATCHES "complete .*diffcomp")
  message(FATAL_ERROR "the installed completion does not complete check --max-failures")
endif()
file(RENAME ${TMP}/a ${TMP}/moved)
file(MAKE_DIRECTORY ${TMP}/elsewhere)
set(ENV{DIFFCOMP_ISA_PATH} "")
execute_process(COMMAND ${TMP}/moved/bin/diffcomp --version WORKING_DIRECTORY ${TMP}/elsewhere
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "diffcomp [0-9]+\\.[0-9]+\\.[0-9]+\n.*moved/bin/\\.\\./share/diffcomp/models\n  a3xx [0-9a-f]+\n")
  message(FATAL_ERROR "--version: ${rc}\n${out}${err}")
endif()
execute_process(COMMAND ${TMP}/moved/bin/diffcomp check ${SRC}/captures/vs_mvp_basic.tgsi
                        ${SRC}/captures/fs_phong.tgsi --no-repro
                WORKING_DIRECTORY ${TMP}/elsewhere
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "total +8 +[0-9]+ +0 +0")
  message(FATAL_ERROR "installed check: ${rc}\n${out}${err}")
endif()
file(REMOVE_RECURSE ${TMP})
