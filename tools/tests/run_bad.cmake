# Runs one case of the bad-input catalog (fixtures/bad/MANIFEST); see the
# MANIFEST header for the format. Called by tools/tests/cli.cmake as
#   cmake -DEXE=diffcomp -DSRC=source-dir -DWORK=scratch-dir -DNAME=case
#         -DARGS=arguments -DRC=exit-code -DERR=substring -DTIMEOUT=s
#         -DMAXERR=bytes -P run_bad.cmake
# or, for the same case's input run through `check` in every mode,
#   cmake ... -DMODE=check -DARGS=input [-DCHECK_WORKERS_ONLY=ON] [-DCHECK_TARGET=T] -P run_bad.cmake
# Fails on: a signal or a timeout (crash, hang), another exit code, a
# missing stderr substring, a sanitizer report, more than MAXERR bytes of
# stderr, or any file left in @OUT@ by a command that failed.
cmake_minimum_required(VERSION 3.20)

set(in_dir ${WORK}/in)
set(out_dir ${WORK}/out)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${in_dir} ${out_dir})

# Inputs too large or too odd to commit, made on demand: @IN@/<name>.
function(make_input name path)
  if(name STREQUAL "fifo")
    execute_process(COMMAND mkfifo ${path} RESULT_VARIABLE rc)
  elseif(name STREQUAL "zeros.bin") # 32 MiB of NUL bytes
    execute_process(COMMAND truncate -s 32M ${path} RESULT_VARIABLE rc)
  elseif(name STREQUAL "big.bin") # 65 MiB (sparse), over read_file's limit
    execute_process(COMMAND truncate -s 65M ${path} RESULT_VARIABLE rc)
  elseif(name STREQUAL "long_line.tgsi") # one 8 MB line
    string(REPEAT "A" 8000000 body)
    file(WRITE ${path} "FRAG\n${body}\nEND\n") # inside the shader: the parser reads it
  elseif(name STREQUAL "long_number.tgsi") # a 1 MB register index
    string(REPEAT "9" 1000000 digits)
    file(WRITE ${path} "FRAG\nDCL TEMP[0]\nMOV TEMP[0], TEMP[${digits}]\nEND\n")
  elseif(name STREQUAL "deep_if.tgsi") # 100000 nested IFs, closed
    string(REPEAT "IF TEMP[0].xxxx\n" 100000 open)
    string(REPEAT "ENDIF\n" 100000 close)
    file(WRITE ${path} "FRAG\nDCL TEMP[0]\nMOV TEMP[0], TEMP[0]\n${open}${close}END\n")
  elseif(name STREQUAL "deep_loop.tgsi") # 100000 BGNLOOPs, never closed
    string(REPEAT "BGNLOOP\n" 100000 open)
    file(WRITE ${path} "FRAG\n${open}END\n")
  elseif(name STREQUAL "many_imms.tgsi") # 100000 immediates, read indirectly
    string(REPEAT "IMM FLT32 {0.5, 1, 2, 3}\n" 100000 imms)
    file(WRITE ${path} "FRAG\nDCL OUT[0], COLOR\nDCL ADDR[0]\n${imms}"
                       "UARL ADDR[0].x, IMM[1].xxxx\nMOV OUT[0], IMM[ADDR[0].x+5]\nEND\n")
  elseif(name MATCHES "^gen_([0-9]+)\\.tgsi$") # a generated shader of that size
    execute_process(COMMAND ${EXE} gen --seed 7 --size ${CMAKE_MATCH_1} -o ${path}
                    RESULT_VARIABLE rc)
  else()
    message(FATAL_ERROR "run_bad.cmake: no recipe for generated input '${name}'")
  endif()
  if(DEFINED rc AND NOT rc EQUAL 0)
    message(FATAL_ERROR "could not make ${path}: ${rc}")
  endif()
endfunction()

string(REPLACE "@BAD@" "${SRC}/fixtures/bad" ARGS "${ARGS}")
string(REPLACE "@EXE@" "${EXE}" ARGS "${ARGS}")
string(REPLACE "@OUT@" "${out_dir}" ARGS "${ARGS}")
string(REGEX MATCHALL "@IN@/[A-Za-z0-9_.]+" wanted "${ARGS}")
list(REMOVE_DUPLICATES wanted)
foreach(w ${wanted})
  string(REPLACE "@IN@/" "" n "${w}")
  make_input(${n} ${in_dir}/${n})
endforeach()
string(REPLACE "@IN@" "${in_dir}" ARGS "${ARGS}")
separate_arguments(args UNIX_COMMAND "${ARGS}")

# MODE=check: ARGS is one input, run by `check` in process (-j 0) and with
# two workers, with reproducers, --json and --junit on, followed by a good
# shader. Fails on a crash or hang, an exit code other than 0..2, a JSON or
# JUnit report that does not parse or lacks a case, a case that is not a
# pass (n/a included) without a message saying why, or a good shader that
# did not pass.
function(check_mode)
  set(good ${SRC}/captures/vs_mvp_basic.tgsi)
  set(modes 0 2)
  if(CHECK_WORKERS_ONLY) # too slow to finish in process: the workers' timeout ends it
    set(modes 2)
  endif()
  foreach(j ${modes})
    file(REMOVE_RECURSE ${out_dir})
    file(MAKE_DIRECTORY ${out_dir})
    set(cmd ${EXE} check ${args} ${good} -j ${j} -q --invocations 16 --timeout 5 --json ${out_dir}/r.json
            --junit ${out_dir}/r.xml --repro-dir ${out_dir}/repro)
    set(min_good 2) # every built-in target that opens: at least a3xx and sm50
    if(CHECK_TARGET)
      list(APPEND cmd --target ${CHECK_TARGET})
      set(min_good 1)
    endif()
    execute_process(COMMAND ${cmd} WORKING_DIRECTORY ${SRC} TIMEOUT ${TIMEOUT}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    string(REPLACE ";" " " shown "${cmd}")
    set(ctx "${shown}\nstdout:\n${out}\nstderr:\n${err}")
    if(NOT rc MATCHES "^[0-2]$")
      message(FATAL_ERROR "crashed, hung or failed: '${rc}'\n${ctx}")
    endif()
    foreach(bad "AddressSanitizer" "LeakSanitizer" "runtime error:")
      string(FIND "${err}" "${bad}" pos)
      if(pos GREATER_EQUAL 0)
        message(FATAL_ERROR "sanitizer report\n${ctx}")
      endif()
    endforeach()
    string(LENGTH "${err}" errlen)
    if(errlen GREATER MAXERR)
      message(FATAL_ERROR "${errlen} bytes on stderr, at most ${MAXERR} allowed\n${ctx}")
    endif()
    file(READ ${out_dir}/r.json json)
    string(JSON n ERROR_VARIABLE jerr LENGTH "${json}" cases)
    if(jerr)
      message(FATAL_ERROR "--json: ${jerr}\n${ctx}")
    endif()
    set(good_pass 0)
    set(good_cases 0)
    math(EXPR last "${n} - 1")
    foreach(k RANGE ${last})
      string(JSON sh GET "${json}" cases ${k} shader)
      string(JSON st GET "${json}" cases ${k} status)
      if(sh STREQUAL good)
        math(EXPR good_cases "${good_cases} + 1")
        if(st STREQUAL "pass")
          math(EXPR good_pass "${good_pass} + 1")
        endif()
      elseif(st MATCHES "^(error|fail|skip|n/a)$")
        string(JSON msg ERROR_VARIABLE jerr GET "${json}" cases ${k} signals 0 message)
        if(jerr OR msg STREQUAL "")
          message(FATAL_ERROR "case ${k} is ${st} without a message\n${ctx}")
        endif()
      endif()
    endforeach()
    if(good_cases LESS min_good OR NOT good_pass EQUAL good_cases)
      message(FATAL_ERROR "-j ${j}: the good shader after the bad input passed on "
                          "${good_pass} of its ${good_cases} targets\n${ctx}")
    endif()
    file(READ ${out_dir}/r.xml xml)
    if(NOT xml MATCHES "^<\\?xml .*</testsuites>\n$" OR NOT xml MATCHES "vs_mvp_basic")
      message(FATAL_ERROR "--junit: not a whole report\n${ctx}\n${xml}")
    endif()
  endforeach()
endfunction()
if(MODE STREQUAL "check")
  check_mode()
  file(REMOVE_RECURSE ${WORK})
  return()
endif()

execute_process(COMMAND ${EXE} ${args} WORKING_DIRECTORY ${SRC} TIMEOUT ${TIMEOUT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(LENGTH "${err}" errlen)
if(errlen GREATER 2000)
  string(SUBSTRING "${err}" 0 2000 shown)
  set(shown "${shown}\n... (${errlen} bytes)")
else()
  set(shown "${err}")
endif()
set(ctx "diffcomp ${ARGS}\nstderr:\n${shown}")

if(NOT rc MATCHES "^[0-9]+$")
  message(FATAL_ERROR "crashed or hung: '${rc}'\n${ctx}")
endif()
if(NOT rc EQUAL RC)
  message(FATAL_ERROR "exit code ${rc}, expected ${RC}\n${ctx}")
endif()
if(ERR MATCHES "^stdout:(.*)$")
  string(STRIP "${CMAKE_MATCH_1}" want)
  string(FIND "${out}" "${want}" pos)
  if(pos LESS 0)
    message(FATAL_ERROR "stdout lacks '${want}'\n${ctx}")
  endif()
elseif(NOT ERR STREQUAL "")
  string(FIND "${err}" "${ERR}" pos)
  if(pos LESS 0)
    message(FATAL_ERROR "stderr lacks '${ERR}'\n${ctx}")
  endif()
endif()
foreach(bad "AddressSanitizer" "LeakSanitizer" "runtime error:")
  string(FIND "${err}" "${bad}" pos)
  if(pos GREATER_EQUAL 0)
    message(FATAL_ERROR "sanitizer report\n${ctx}")
  endif()
endforeach()
if(errlen GREATER MAXERR)
  message(FATAL_ERROR "${errlen} bytes on stderr, at most ${MAXERR} allowed\n${ctx}")
endif()
if(NOT rc EQUAL 0)
  # nothing in @OUT@, and no stray temporary next to it
  file(GLOB left ${out_dir}/* ${WORK}/*)
  list(REMOVE_ITEM left ${in_dir} ${out_dir})
  if(left)
    message(FATAL_ERROR "failed but left output behind: ${left}\n${ctx}")
  endif()
endif()
file(REMOVE_RECURSE ${WORK})
