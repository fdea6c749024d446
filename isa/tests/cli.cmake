# Command-level tests of diffcomp isa/as/dis.
add_test(NAME isa_check_tiny COMMAND $<TARGET_FILE:diffcomp> isa check fixtures/isa/tiny.yaml
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(isa_check_tiny PROPERTIES PASS_REGULAR_EXPRESSION "tiny, 4 ops")
add_test(NAME isa_check_bad COMMAND $<TARGET_FILE:diffcomp> isa check fixtures/isa/bad/overlap_encoding.yaml
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(isa_check_bad PROPERTIES WILL_FAIL TRUE)
add_test(NAME isa_check_bad_msg COMMAND $<TARGET_FILE:diffcomp> isa check fixtures/isa/bad/overlap_encoding.yaml
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(isa_check_bad_msg PROPERTIES PASS_REGULAR_EXPRESSION "overlap_encoding.yaml:51:3: error: encodings of 'add' and 'sub' overlap")
add_test(NAME isa_help COMMAND $<TARGET_FILE:diffcomp> isa --help)
add_test(NAME isa_as_hex COMMAND $<TARGET_FILE:diffcomp> as a3xx fixtures/isa/a3xx_prog.s
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(isa_as_hex PROPERTIES PASS_REGULAR_EXPRESSION
  "2024400000000000\n0000020000000000\n4010000128020000\n8010100400000001\n0300000000000000\n")
add_test(NAME isa_dis_hex COMMAND $<TARGET_FILE:diffcomp> dis a3xx --hex 0x4010000128020000 0x8010100400000001
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(isa_dis_hex PROPERTIES PASS_REGULAR_EXPRESSION
  "add.f r0.y, r0.x, \\(1.0\\)\n.*\\(ss\\)rcp r1.x, r0.y")
add_test(NAME isa_dis_illegal COMMAND $<TARGET_FILE:diffcomp> dis a3xx --hex 0x4010000000000700
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(isa_dis_illegal PROPERTIES WILL_FAIL TRUE)
add_test(NAME isa_as_error COMMAND $<TARGET_FILE:diffcomp> as a3xx fixtures/isa/bad_prog.s
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(isa_as_error PROPERTIES PASS_REGULAR_EXPRESSION
  "bad_prog.s:3:19: error: add.s: src2: 4096 does not fit 11 signed bits")
add_test(NAME isa_as_help COMMAND $<TARGET_FILE:diffcomp> as --help)
add_test(NAME isa_dis_help COMMAND $<TARGET_FILE:diffcomp> dis --help)
add_test(NAME isa_check_sm50 COMMAND $<TARGET_FILE:diffcomp> isa check sm50
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(isa_check_sm50 PROPERTIES PASS_REGULAR_EXPRESSION "sm50: ok \\(sm50, [0-9]+ ops\\)")
add_test(NAME isa_check_agx COMMAND $<TARGET_FILE:diffcomp> isa check agx
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(isa_check_agx PROPERTIES PASS_REGULAR_EXPRESSION "agx: ok \\(agx, [0-9]+ ops\\)")
add_test(NAME isa_check_models COMMAND $<TARGET_FILE:diffcomp> isa check a3xx fixtures/isa/sketch_gfx9.yaml
         fixtures/isa/sketch_agx.yaml fixtures/isa/bundle_test.yaml WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(isa_check_models PROPERTIES PASS_REGULAR_EXPRESSION
  "a3xx: ok.*sketch_gfx9.yaml: ok.*sketch_agx.yaml: ok.*bundle_test.yaml: ok")
add_test(NAME isa_dis_rule COMMAND $<TARGET_FILE:diffcomp> dis a3xx --hex 0x4010000010011001
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(isa_dis_rule PROPERTIES PASS_REGULAR_EXPRESSION "ILLEGAL: cat2 takes at most one constant")
add_test(NAME isa_bench COMMAND $<TARGET_FILE:diffcomp> isa bench a3xx 2000 WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(isa_bench PROPERTIES PASS_REGULAR_EXPRESSION "a3xx: 2000 instructions")
# sm50 words form one program: a control word, then three instructions.
add_test(NAME isa_dis_hex_bundle COMMAND $<TARGET_FILE:diffcomp> dis sm50 --hex 0x001f8000fc0007e0
         0x5c58000000270001 0x50b0000000070f00 0x50b0000000070f00)
set_tests_properties(isa_dis_hex_bundle PROPERTIES PASS_REGULAR_EXPRESSION
                     "0008: 5c58000000270001  FADD R1, R0, R2\n0010: 50b0000000070f00  NOP")
add_test(NAME isa_check_gfx9 COMMAND $<TARGET_FILE:diffcomp> isa check gfx9
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(isa_check_gfx9 PROPERTIES PASS_REGULAR_EXPRESSION "gfx9: ok \\(gfx9, [0-9]+ ops\\)")
add_test(NAME isa_dis_gfx9_sdwa COMMAND $<TARGET_FILE:diffcomp> dis gfx9 --hex 0x04051601680202f9
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(isa_dis_gfx9_sdwa PROPERTIES PASS_REGULAR_EXPRESSION
  "v_add_u32_sdwa v1, v1, v1 dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:WORD_0")
# as prints every word (sm50's control words too), so as | dis --hex round-trips.
foreach(_m a3xx sm50)
  add_test(NAME isa_as_dis_roundtrip_${_m}
           COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:diffcomp> -DMODEL=${_m}
                   -DSRC=fixtures/isa/${_m}_prog.s -DBIN=${CMAKE_BINARY_DIR}/as_dis_${_m}.bin
                   -P ${CMAKE_SOURCE_DIR}/isa/tests/run_as_dis.cmake
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
endforeach()
# gfx9: a float written as a decimal takes the literal when no inline
# constant holds it (the words are llvm-mc's).
add_test(NAME isa_as_gfx9_decimal_literal
         COMMAND $<TARGET_FILE:diffcomp> as gfx9 fixtures/isa/gfx9_decimal_literal.s
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(isa_as_gfx9_decimal_literal PROPERTIES PASS_REGULAR_EXPRESSION
  "^3fc00000020002ff\n3fc00000680002ff\n680002f0\nc51c40000a0002ff\n3fc00000be8000ff\nbf810000\n$")
