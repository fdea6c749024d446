# diffcomp bench latency: the emulator's latencies, the compilers' delay
# function and the models' public figures agree on every model; and the
# bench catches a latency planted wrong in a model YAML copy, in the
# emulator (emu/load.c) or in the delay function (isa/delay.c).
cli_test(bench_latency "bench|latency" 0
         OUT "a3xx: [0-9]+ of [0-9]+ rows agree.*sm50: [0-9]+ of [0-9]+ rows agree.*gfx9: [0-9]+ of [0-9]+ rows agree.*agx: [0-9]+ of [0-9]+ rows agree")

# Copies `file` with `old` replaced by `new` into the build tree (rewritten
# only when it changes); sets `var` to its path, or to "" when `old` is
# gone from the file (the plant must then be updated: the test fails).
function(latency_plant var file old new out)
  file(READ ${CMAKE_SOURCE_DIR}/${file} _src)
  string(FIND "${_src}" "${old}" _at)
  if(_at LESS 0)
    set(${var} "" PARENT_SCOPE)
    return()
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/${file})
  string(REPLACE "${old}" "${new}" _src "${_src}")
  set(_path ${CMAKE_BINARY_DIR}/plant/${out})
  set(_old "")
  if(EXISTS ${_path})
    file(READ ${_path} _old)
  endif()
  if(NOT _old STREQUAL _src)
    file(WRITE ${_path} "${_src}")
  endif()
  set(${var} ${_path} PARENT_SCOPE)
endfunction()

function(latency_stale name file old)
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} -E echo "${file} no longer holds '${old}': update diff/tests/cli_latency.cmake")
  set_tests_properties(${name} PROPERTIES WILL_FAIL TRUE)
endfunction()

# A model YAML copy with a wrong latency: the emulator and the delay
# function follow the copy, the public figure does not (row: measured,
# model, figure).
foreach(case "a3xx|alu: {latency: 3}|alu: {latency: 4}|alu_alu +4 +4 +3 +slots +DIFFERS"
             "sm50|mufu: {sync: scoreboard, war: scoreboard, soft: 20}|mufu: {sync: scoreboard, war: scoreboard, soft: 24}|mufu +24 +24 +20 +cycles +DIFFERS"
             "gfx9|second: vmem, states: 5|second: vmem, states: 4|valu_sgpr_vmem +4 +4 +5 +states +DIFFERS"
             "agx|max_pending: 8}|max_pending: 9}|max_pending +9 +9 +8 +ops +DIFFERS")
  string(REPLACE "|" ";" case "${case}")
  list(GET case 0 _m)
  list(GET case 1 _old)
  list(GET case 2 _new)
  list(GET case 3 _re)
  latency_plant(_yaml isa/models/${_m}.yaml "${_old}" "${_new}" latency_${_m}.yaml)
  if(NOT _yaml)
    latency_stale(bench_latency_plant_yaml_${_m} isa/models/${_m}.yaml "${_old}")
    continue()
  endif()
  cli_test(bench_latency_plant_yaml_${_m} "bench|latency|${_yaml}" 1 OUT "${_re}")
endforeach()

# The same bench against a library file with one latency planted wrong:
# the emulator's decoder or the compilers' delay function. (No ';' in the
# strings: it separates CMake list items.)
foreach(case "emu_lat|emu/load.c|int lat = ci->latency < 0 ? 0 : ci->latency|int lat = ci->latency < 0 ? 0 : ci->latency + 1|a3xx|alu_alu"
             "emu_soft|emu/load.c|op->soft = ci.latency >= 0 ? ci.latency : ci.soft_latency|op->soft = ci.latency >= 0 ? ci.latency : ci.soft_latency - 1|sm50|mufu"
             "emu_pred|emu/load.c|lat = isa_hazard_param(m, \"pred_latency\", lat)|lat = isa_hazard_param(m, \"pred_latency\", lat) - 1|sm50|predicate"
             "delay_lat|isa/delay.c|int base = pc->latency < 0 ? 0 : pc->latency|int base = pc->latency < 0 ? 0 : pc->latency - 1|a3xx|alu_sfu")
  string(REPLACE "|" ";" case "${case}")
  list(GET case 0 _p)
  list(GET case 1 _file)
  list(GET case 2 _old)
  list(GET case 3 _new)
  list(GET case 4 _m)
  list(GET case 5 _row)
  latency_plant(_src ${_file} "${_old}" "${_new}" latency_${_p}.c)
  if(NOT _src)
    latency_stale(bench_latency_plant_${_p} ${_file} "${_old}")
    continue()
  endif()
  add_executable(plant_latency_${_p} ${CMAKE_SOURCE_DIR}/diff/tests/plant_latency.c ${_src})
  target_link_libraries(plant_latency_${_p} PRIVATE dccore)
  add_test(NAME bench_latency_plant_${_p} COMMAND plant_latency_${_p} ${_m} ${_row}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
endforeach()

# Wait-state rows that name the consumer's operand (gfx9): the lane-select
# row moved to v_readlane's value (src0) leaves the lane select unchecked
# by the emulator and unanswered by isa_delay, against the figure 4; a row
# naming an operand the ops do not have is refused by the model checker.
latency_plant(_yaml isa/models/gfx9.yaml "operand: src1, states: 4" "operand: src0, states: 4"
              latency_gfx9_lane_select.yaml)
if(_yaml)
  cli_test(bench_latency_plant_yaml_gfx9_lane_select "bench|latency|${_yaml}" 1
           OUT "valu_sgpr_lane_select +0 +0 +4 +states +DIFFERS")
else()
  latency_stale(bench_latency_plant_yaml_gfx9_lane_select isa/models/gfx9.yaml "operand: src1, states: 4")
endif()
latency_plant(_yaml isa/models/gfx9.yaml "operand: src1, states: 4" "operand: src7, states: 4"
              wait_row_operand_gfx9.yaml)
if(_yaml)
  cli_test(isa_check_wait_row_operand "isa|check|${_yaml}" 1
           ERR "wait-state rule names operand 'src7', which 'v_readlane_b32' does not read")
else()
  latency_stale(isa_check_wait_row_operand isa/models/gfx9.yaml "operand: src1, states: 4")
endif()
