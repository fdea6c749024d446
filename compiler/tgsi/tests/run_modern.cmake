# The modern form of a legacy-era shader computes what the shader does.
#   -DEXE=diffcomp -DIN=shader.tgsi -DWORK=scratch directory
# `diffcomp tgsi IN` must print text that reads back with no legacy note
# (no removed opcode, no older form), and the golden interpreter must give
# it the same outputs, kills and events, bit for bit, on IN's inputs.
# (Each value's marks -- FUSE, CANCEL, UNDEF -- are not compared.)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${EXE} tgsi ${IN} RESULT_VARIABLE rc OUTPUT_FILE ${WORK}/modern.tgsi
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tgsi ${IN}: exit ${rc}\n${err}")
endif()
execute_process(COMMAND ${EXE} tgsi --check ${WORK}/modern.tgsi RESULT_VARIABLE rc
                ERROR_VARIABLE err)
file(READ ${WORK}/modern.tgsi text)
if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
  message(FATAL_ERROR "the printed form is not today's TGSI (exit ${rc}):\n${err}\n${text}")
endif()
function(outputs shader inputs_arg var)
  execute_process(COMMAND ${EXE} interp ${shader} --invocations 64 ${inputs_arg}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "interp ${shader}: exit ${rc}\n${err}")
  endif()
  # Everything after the step count: events, kills, outputs; of each
  # lane's value its bits (the oracle's marks may differ: a removed
  # opcode's own rule against those of its parts).
  string(REGEX REPLACE "^.*\nsteps: [0-9]+\n" "" out "${out}")
  string(REGEX REPLACE "(\\[[0-9]+, 0x[0-9a-f]+)[^\n]*" "\\1" out "${out}")
  set(${var} "${out}" PARENT_SCOPE)
endfunction()
outputs(${IN} "--write-inputs;${WORK}/in.yaml" before)
outputs(${WORK}/modern.tgsi "--inputs;${WORK}/in.yaml" after)
if(NOT before STREQUAL after)
  file(WRITE ${WORK}/before.yaml "${before}")
  file(WRITE ${WORK}/after.yaml "${after}")
  message(FATAL_ERROR "the modern form computes otherwise (${WORK}/before.yaml, after.yaml):\n${text}")
endif()
file(REMOVE_RECURSE ${WORK})
