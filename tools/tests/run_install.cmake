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
          share/doc/diffcomp/LICENSE)
  if(NOT EXISTS ${TMP}/a/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()
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
