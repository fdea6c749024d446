# One line of fixtures/bisect/stages.txt: bisect, the fault's firings
# hidden, must name the fault's stage (and, where the line says so, the
# instruction the fault spoiled). Runs `diffcomp faults --check --inject-fault F
# --target T --hide-firings SHADER` and matches the fault's row of the
# stage table.
#   -DEXE=diffcomp -DFAULT= -DTARGET= -DSHADER= -DSTAGE= -DITEM=yes|NO|-
#   -DQUICK=1: the line runs under DIFFCOMP_TEST_QUICK too (else it passes
#   at once there: the sanitizer stage keeps one line per stage)
if(DEFINED ENV{DIFFCOMP_TEST_QUICK} AND NOT "$ENV{DIFFCOMP_TEST_QUICK}" STREQUAL "0"
   AND NOT QUICK)
  message(STATUS "not run under DIFFCOMP_TEST_QUICK")
  return()
endif()
execute_process(COMMAND ${EXE} faults --check --inject-fault ${FAULT} --target ${TARGET} -j 1
                        --hide-firings ${SHADER}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
# the row: FAULT TARGET PASS STAGE MATCH ITEM ...
set(row_re "\n${FAULT} +${TARGET} +[^ ]+ +${STAGE} +yes +${ITEM} ")
if(NOT out MATCHES "${row_re}")
  message(FATAL_ERROR "expected stage ${STAGE} (match yes, item ${ITEM}) for ${FAULT} on ${TARGET}:\n${out}\n${err}")
endif()
if(ITEM STREQUAL "yes" AND NOT rc EQUAL 0)
  message(FATAL_ERROR "exit code ${rc}, expected 0:\n${out}\n${err}")
endif()
