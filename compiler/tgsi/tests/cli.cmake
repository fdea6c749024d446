# diffcomp tgsi: exit codes, output and per-file independence.
set(_good fixtures/tgsi/good)
set(_bad fixtures/tgsi/bad)
function(tgsi_cli name)
  cli_test(cli_tgsi_${name} ${ARGN})
endfunction()

tgsi_cli(help "tgsi|--help" 0 OUT "usage: diffcomp tgsi")
tgsi_cli(no_files "tgsi" 2 ERR "usage: diffcomp tgsi")
tgsi_cli(bad_option "tgsi|--frob|x.tgsi" 2 ERR "unknown option '--frob'")
tgsi_cli(missing_file "tgsi|no/such/file.tgsi" 2 ERR "no/such/file.tgsi")
tgsi_cli(print "tgsi|${_good}/frag_switch.tgsi" 0
         OUT "^FRAG\nDCL IN\\[0\\]\\.x, GENERIC\\[1\\], CONSTANT\n.*  1: SWITCH IN\\[0\\]\\.xxxx\n  2:   CASE")
tgsi_cli(check_quiet "tgsi|--check|${_good}/frag_switch.tgsi" 0 OUT "^$")
tgsi_cli(check_warns "tgsi|--check|${_good}/frag_const_mixed.tgsi" 0
         ERR "frag_const_mixed.tgsi:8:19: warning: CONST\\[1\\] is declared as CONST\\[0\\]\\[1\\]")
tgsi_cli(error_position "tgsi|--check|${_bad}/sanity_undeclared_temp.tgsi" 2
         ERR "sanity_undeclared_temp.tgsi:6:14: error: TEMP\\[4\\] is not declared\n  MOV TEMP\\[0\\], TEMP\\[4\\]\n               \\^")
# One bad file does not stop the next one, and the exit code reports it.
tgsi_cli(keeps_going "tgsi|${_bad}/sanity_no_end.tgsi|${_good}/frag_switch.tgsi" 2
         OUT "# fixtures/tgsi/good/frag_switch.tgsi\nFRAG\n" ERR "no END instruction")
tgsi_cli(legacy_off "tgsi|--check|${_bad}/syntax_legacy_opcode.tgsi" 2 ERR "--legacy")
# A "# dialect: legacy" header line turns the dialect on by itself.
tgsi_cli(legacy_header "tgsi|--check|${_good}/frag_legacy_ops.tgsi" 0)
tgsi_cli(hex_bits "tgsi|--hex-bits|${_good}/frag_virgl_hex.tgsi" 0
         OUT "IMM\\[0\\] FLT32 {2, -1, 0, 0.99999994}")
tgsi_cli(hex_detected "tgsi|${_good}/frag_virgl_hex_detected.tgsi" 0
         OUT "IMM\\[0\\] FLT32 {2, -1, 0, 0.99999994}" ERR "read as bit patterns, as virgl")
tgsi_cli(hex_value "tgsi|${_good}/frag_hexfloat_values.tgsi" 0
         OUT "IMM\\[0\\] FLT32 {1.07374182e\\+09, 3.21283686e\\+09, 0, 1.06535322e\\+09}")
tgsi_cli(bench_small "tgsi|--bench=1000" 0 OUT "round trip   equal")

# Older eras (fixtures/legacy): detected without a dialect line, with a note,
# and printed in today's form.
set(_old fixtures/legacy)
tgsi_cli(legacy_detected "tgsi|--check|${_old}/ops_arith.tgsi" 0
         ERR "ops_arith.tgsi:8:1: note: parsed in the legacy dialect: SUB was removed from Mesa")
# A debug log with two shaders: check runs each (ctest cli_check_debug_log);
# a one-shader command says where the second starts.
tgsi_cli(log_two_shaders "tgsi|--check|fixtures/logs/st_debug_log.tgsi" 2
         ERR "st_debug_log.tgsi:20:1: error: a second shader starts here: the file holds 2 shaders")
tgsi_cli(legacy_res_sview "tgsi|${_old}/graw_res_sample.tgsi" 0
         OUT "DCL SVIEW\\[0\\], 2D, FLOAT\n.*  0: SAMPLE TEMP\\[0\\], IN\\[0\\], SVIEW\\[0\\], SAMP\\[0\\]\n")
tgsi_cli(legacy_res_buffer "tgsi|${_old}/clover_rinput.tgsi" 0
         OUT "DCL BUFFER\\[0\\]\n.*DCL BUFFER\\[1\\]\n.*LOAD TEMP\\[1\\]\\.x, BUFFER\\[1\\], .*STORE BUFFER\\[0\\]\\.x,")
tgsi_cli(legacy_immx "tgsi|${_old}/clover_immx.tgsi" 0
         OUT "IMM\\[0\\] FLT32 {1, 0, 0, 0}\nIMM\\[1\\] FLT32 {0.5, 0.25, 0.75, 1}\n.*MAD TEMP\\[0\\], IN\\[0\\], IMM\\[1\\], IMM\\[ADDR\\[0\\]\\.x\\+1\\]")
tgsi_cli(legacy_tempx "tgsi|${_old}/clover_tempx.tgsi" 0
         OUT "DCL TEMP\\[1\\.\\.4\\], ARRAY\\(1\\)\n.*ADD TEMP\\[0\\], TEMP\\[ADDR\\[0\\]\\.x\\+1\\]\\(1\\), TEMP\\[2\\]\\(1\\)")
tgsi_cli(legacy_emit "tgsi|${_old}/gs_emit_no_stream.tgsi" 0
         OUT "IMM\\[0\\] UINT32 {0, 0, 0, 0}\n.*  2: EMIT IMM\\[0\\]\\.xxxx\n.*  9: ENDPRIM IMM\\[0\\]\\.xxxx")
tgsi_cli(legacy_addr_space "tgsi|${_old}/graw_addr_space.tgsi" 0 OUT "MOV OUT\\[1\\], IMM\\[ADDR\\[0\\]\\.x\\+1\\]")
# Removed opcodes are printed in today's form: SUB as ADD of the negation,
# CLAMP as MAX and MIN, and each fixture's modern form computes the same
# bits on the interpreter (tgsi_modern_*, run_modern.cmake).
tgsi_cli(legacy_print_modern "tgsi|${_old}/ops_arith.tgsi" 0
         OUT "^FRAG\n.*DCL TEMP\\[0\\.\\.4\\]\n.*  0: ADD TEMP\\[0\\], IN\\[0\\], -IN\\[1\\]\n  1: MOV TEMP\\[1\\], \\|TEMP\\[0\\]\\|\n  2: MAX TEMP\\[4\\], TEMP\\[1\\], IMM\\[0\\]\\.xxxx\n  3: MIN TEMP\\[1\\], TEMP\\[4\\], IMM\\[0\\]\\.yyyy\n")
file(GLOB _old_files RELATIVE ${CMAKE_SOURCE_DIR}/${_old} CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/${_old}/*.tgsi)
foreach(f ${_old_files})
  get_filename_component(n ${f} NAME_WE)
  add_test(NAME tgsi_modern_${n}
           COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:diffcomp> -DIN=${_old}/${f}
                   -DWORK=${CMAKE_BINARY_DIR}/modern/${n} -P ${CMAKE_CURRENT_LIST_DIR}/run_modern.cmake
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
endforeach()
# The first dumps' source modifiers: known values, and the rewrite's
# instructions (a CAL's label follows them).
tgsi_cli(legacy_src_modifier_values "interp|${_old}/src_modifiers_values.tgsi|--invocations|1" 0
         OUT "chan: x\n[^\n]*\n *- \\[0, 0x40000000, 2.0\\]\n.*0xbf400000, -0.75\\]\n.*0x00000000, 0.0\\]\n.*0xbf800000, -1.0\\]\n.*0x3fa00000, 1.25\\]\n.*0x3f000000, 0.5\\]\n.*0xc0400000, -3.0\\]\n.*0x3f800000, 1.0\\]")
tgsi_cli(legacy_src_modifier_rewrite "tgsi|${_old}/src_modifiers_2008.tgsi" 0
         OUT "DCL TEMP\\[3\\.\\.4\\]\n.*IMM\\[1\\] FLT32 {0, 1, 0\\.5, 0}\n  0: MOV TEMP\\[3\\]\\.xy, IN\\[0\\]\\.xyxx\n  1: MOV TEMP\\[3\\]\\.z, IMM\\[1\\]\\.xxxx\n  2: MOV TEMP\\[3\\]\\.w, IMM\\[1\\]\\.yyyy\n  3: MOV TEMP\\[0\\], TEMP\\[3\\]\n.* 21: CAL :25\n.* 25: BGNSUB\n")
tgsi_cli(legacy_dp2a_swz_noise "tgsi|${_old}/ops_dp2a_swz_noise.tgsi" 0
         OUT "  4: MOV TEMP\\[0\\], TEMP\\[2\\]\n  5: DP2 TEMP\\[2\\], IN\\[0\\], IN\\[1\\]\n  6: ADD_SAT TEMP\\[1\\]\\.xy, TEMP\\[2\\], IN\\[1\\]\\.zzzz\n.*  9: MOV TEMP\\[0\\]\\.w, IMM\\[0\\]\\.xxxx\n.* 12: MOV_SAT OUT\\[2\\], IMM\\[0\\]\\.xxxx\n")
tgsi_cli(legacy_property_first "tgsi|${_old}/property_first.tgsi" 0
         OUT "^FRAG\nPROPERTY FS_COLOR0_WRITES_ALL_CBUFS 1\n")
tgsi_cli(legacy_interp "interp|${_old}/ops_kil_scs.tgsi|--invocations|2" 0 ERR "note: parsed in the legacy dialect")
tgsi_cli(legacy_compile "compile|${_old}/clover_tempx.tgsi|--target|sm50|--path|opt" 0 ERR "note: parsed in the legacy dialect")
# Vertex shader inputs with a semantic or an interpolation (gallium's text
# until 2010): read in the legacy dialect, printed by index only.
tgsi_cli(legacy_vs_input_semantic "tgsi|${_old}/vs_input_semantic_2009.tgsi" 0
         OUT "^VERT\nDCL IN\\[0\\]\nDCL IN\\[1\\]\nDCL IN\\[2\\]\nDCL OUT\\[0\\], POSITION\n"
         ERR "vs_input_semantic_2009.tgsi:6:12: note: parsed in the legacy dialect: a semantic or interpolation on a vertex shader input")
# clover's 2012 compute ABI: RES[32764] is the kernel input (RINPUT).
tgsi_cli(legacy_res_input "tgsi|${_old}/clover_res_input.tgsi" 0
         OUT "DCL BUFFER\\[1\\]\n.*  2: LOAD TEMP\\[1\\]\\.x, BUFFER\\[1\\], TEMP\\[0\\]\\.xxxx\n")
