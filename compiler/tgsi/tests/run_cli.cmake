# Runs one diffcomp command and checks its exit code and output.
#   -DEXE=path  -DARGS="a|b|c" (| separates arguments)  -DRC=expected exit code
#   -DOUT_RE=regex on stdout (optional)  -DERR_RE=regex on stderr (optional)
string(REPLACE "|" ";" args "${ARGS}")
# Scripts a command runs (fixtures/extcc/*.sh as --opt-cmd) call the binary
# under test, not build/diffcomp, which an out-of-tree build does not have.
set(ENV{DIFFCOMP} "${EXE}")
execute_process(COMMAND ${EXE} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL RC)
  message(FATAL_ERROR "exit code ${rc}, expected ${RC}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(DEFINED OUT_RE AND NOT out MATCHES "${OUT_RE}")
  message(FATAL_ERROR "stdout does not match '${OUT_RE}':\n${out}")
endif()
if(DEFINED ERR_RE AND NOT err MATCHES "${ERR_RE}")
  message(FATAL_ERROR "stderr does not match '${ERR_RE}':\n${err}")
endif()
