# Compiles a shader with -o, then runs the written program with diffcomp emu:
# the container must read back and run cleanly (exit 0, no hazards, no
# events: a dropped store or an emit past the maximum is one).
#   -DEXE=diffcomp  -DSHADER=file.tgsi  -DMODEL=a3xx  -DOUT=program.s
execute_process(COMMAND ${EXE} compile ${SHADER} --target ${MODEL} -o ${OUT}
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "compile failed (${rc}):\n${err}")
endif()
execute_process(COMMAND ${EXE} emu ${MODEL} ${OUT} --invocations 64
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "status: ok" OR NOT out MATCHES "hazards: \\[\\]"
   OR NOT out MATCHES "events: {}")
  message(FATAL_ERROR "emu exit ${rc}:\n${out}\n${err}")
endif()
