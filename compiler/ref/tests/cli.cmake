# diffcomp compile (reference path): usage, output, refusals and exit codes.
function(ref_cli name)
  cli_test(cli_compile_${name} ${ARGN})
endfunction()

set(_fx fixtures/ref/a3xx)
ref_cli(help "compile|--help" 0 OUT "usage: diffcomp compile")
ref_cli(no_file "compile|--target|a3xx" 2 ERR "no shader given")
ref_cli(no_target "compile|${_fx}/kill_tex.tgsi" 2 ERR "--target MODEL is required")
ref_cli(bad_path "compile|${_fx}/kill_tex.tgsi|--target|a3xx|--path|frob" 2 ERR "unknown path 'frob'")
ref_cli(bad_model "compile|${_fx}/kill_tex.tgsi|--target|nosuchisa" 2 ERR "nosuchisa")
ref_cli(listing "compile|${_fx}/kill_tex.tgsi|--target|a3xx|--stats" 0
        OUT "sam \\(f32\\)\\(xyzw\\)r[0-9]+\\.[xyzw], r[0-9]+\\.[xyzw], s#0, t#0\n\\(sy\\)\\(ss\\)mov.*kill p0.x\n.*end\n; ref a3xx: [0-9]+ instructions, [0-9]+ nops, [0-9]+ registers, [0-9]+ cycles\n$")
ref_cli(refused "compile|${_fx}/refused/fma.tgsi|--target|a3xx" 3
        ERR "fma.tgsi:5:6: error: FMA: a3xx has no fused multiply-add")
ref_cli(legacy_detected "compile|fixtures/compile/lit_no_dialect.tgsi|--target|a3xx" 0 ERR "note: parsed in the legacy dialect")
ref_cli(legacy_flag "compile|fixtures/compile/lit_no_dialect.tgsi|--target|a3xx|--legacy" 0)
foreach(_s kill_tex flow_loop memory)
  add_test(NAME cli_compile_emu_${_s} COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:diffcomp>
           -DSHADER=${_fx}/${_s}.tgsi -DMODEL=a3xx -DOUT=${CMAKE_BINARY_DIR}/ref_${_s}.s
           -P ${CMAKE_SOURCE_DIR}/compiler/ref/tests/run_compile_emu.cmake
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
endforeach()
foreach(_s flow_switch memory)
  add_test(NAME cli_compile_emu_sm50_${_s} COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:diffcomp>
           -DSHADER=fixtures/ref/sm50/${_s}.tgsi -DMODEL=sm50 -DOUT=${CMAKE_BINARY_DIR}/ref_sm50_${_s}.s
           -P ${CMAKE_SOURCE_DIR}/compiler/ref/tests/run_compile_emu.cmake
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
endforeach()
# Stage outputs through the container (.outputs, .max_vertices, .out_vertices).
foreach(_s gs_wireframe tcs_distance_lod)
  add_test(NAME cli_compile_emu_sm50_${_s} COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:diffcomp>
           -DSHADER=captures/${_s}.tgsi -DMODEL=sm50 -DOUT=${CMAKE_BINARY_DIR}/ref_sm50_${_s}.s
           -P ${CMAKE_SOURCE_DIR}/compiler/ref/tests/run_compile_emu.cmake
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
endforeach()
# The optimizing path through the same command, with the pass manager's options.
ref_cli(opt_listing "compile|captures/vs_mvp_basic.tgsi|--target|a3xx|--path|opt|--stats" 0
        OUT "\nend\n; opt a3xx: [0-9]+ instructions, [0-9]+ nops, [0-9]+ registers, [0-9]+ cycles\n$")
ref_cli(opt_bisect_limit "compile|captures/vs_mvp_basic.tgsi|--target|sm50|--path|opt|--opt-bisect-limit|2" 0
        ERR "^BISECT: pass [a-z_]+ transformation 1 \\([^\n]*\\)\nBISECT: pass [a-z_]+ transformation 2 \\([^\n]*\\)\nBISECT: pass [a-z_]+ transformation 3 \\([^\n]*\\) not done \\(limit 2\\)\n")
ref_cli(opt_bad_limit "compile|captures/vs_mvp_basic.tgsi|--target|sm50|--path|opt|--opt-bisect-limit|x" 2
        ERR "--opt-bisect-limit needs a count")
# Stage outputs: a3xx has no geometry or tessellation stage; sm50 stores
# outputs with AST and emits with OUT.
ref_cli(refused_gs_a3xx "compile|captures/gs_wireframe.tgsi|--target|a3xx" 3
        ERR "the a3xx hardware has no geometry-shader stage")
ref_cli(refused_tcs_a3xx "compile|captures/tcs_distance_lod.tgsi|--target|a3xx" 3
        ERR "the a3xx hardware has no tessellation stages")
ref_cli(gs_sm50 "compile|captures/gs_wireframe.tgsi|--target|sm50" 0
        OUT "AST.128 a\\[R[0-9]+\\]\\[RZ\\+0x20\\], R[0-9]+\n[^\n]*OUT.EMIT R[0-9]+, R[0-9]+, R[0-9]+\n")
ref_cli(tcs_sm50 "compile|captures/tcs_distance_lod.tgsi|--target|sm50" 0
        OUT "AST a\\[R[0-9]+\\]\\[RZ\\+0x14\\], R[0-9]+\n.*AST a\\[RZ\\]\\[RZ\\+0x20\\]")
ref_cli(opt_refused_gs_a3xx "compile|captures/gs_wireframe.tgsi|--target|a3xx|--path|opt" 3
        ERR "the a3xx hardware has no geometry-shader stage")
ref_cli(opt_refused_tcs_a3xx "compile|captures/tcs_distance_lod.tgsi|--target|a3xx|--path|opt" 3
        ERR "the a3xx hardware has no tessellation stages")
ref_cli(opt_gs_sm50 "compile|captures/gs_particle_streams.tgsi|--target|sm50|--path|opt" 0
        OUT "AST.128 a\\[RZ\\]\\[RZ\\+0x20\\], R[0-9]+\n.*OUT.EMIT R[0-9]+, RZ, 1\n.*OUT.CUT R[0-9]+, R[0-9]+, 1\n")
# Both compilers against the interpreter: emits in a loop and under an if.
ref_cli(gs_loop_emit "check|fixtures/opt/gs_loop_emit.tgsi|--target|sm50|-q|--no-repro|-j|0" 0
        OUT "total +1 +1 +0 +0 +0 +0")
# gfx9: structured control flow through EXEC (lanes parked at a label in an
# SGPR pair, restored when it is placed), and the written program runs.
ref_cli(gfx9_exec_flow "compile|fixtures/ref/gfx9/flow_if.tgsi|--target|gfx9|--stats" 0
        OUT "s_andn2_b64 exec, exec, vcc\n.*s_or_b64 exec, exec, s\\[[0-9]+:[0-9]+\\]\n.*s_endpgm\n; ref gfx9: ")
foreach(_s flow_loop flow_switch kill memory)
  add_test(NAME cli_compile_emu_gfx9_${_s} COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:diffcomp>
           -DSHADER=fixtures/ref/gfx9/${_s}.tgsi -DMODEL=gfx9 -DOUT=${CMAKE_BINARY_DIR}/ref_gfx9_${_s}.s
           -P ${CMAKE_SOURCE_DIR}/compiler/ref/tests/run_compile_emu.cmake
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
endforeach()
# gfx9 geometry and tessellation stages (stage windows, s_sendmsg): the
# reference's programs as an external compiler's (fixtures/extcc/
# g9stages.sh) pass; with a planted bug they fail: an emit sent to stream
# 0 instead of 1, the inputs of vertex 1 read from vertex 2, M0 never
# written before s_sendmsg (the emulator's `unset` event).
set(_g9s "captures/gs_particle_streams.tgsi|captures/tcs_distance_lod.tgsi|captures/tes_phong_displace.tgsi")
cli_test(gfx9_stages_good
         "check|--target|gfx9|--no-repro|--invocations|256|--opt-cmd|fixtures/extcc/g9stages.sh good {tgsi} {out} {target}|${_g9s}"
         0 OUT "gfx9 +3 +3 +0 +0 +0 +0")
cli_test(gfx9_stages_wrong_stream
         "check|--target|gfx9|--no-repro|--invocations|256|--opt-cmd|fixtures/extcc/g9stages.sh stream {tgsi} {out} {target}|${_g9s}"
         1 OUT "fail gfx9 captures/gs_particle_streams.tgsi: mismatch \\(ref/opt\\): emitted vertex 0 lane [0-9]+: stream expected 1, got 0.*gfx9 +3 +2 +1 +0 +0 +0")
cli_test(gfx9_stages_no_m0
         "check|--target|gfx9|--no-repro|--invocations|256|--opt-cmd|fixtures/extcc/g9stages.sh nom0 {tgsi} {out} {target}|${_g9s}"
         1 OUT "fail gfx9 captures/gs_particle_streams.tgsi: hazard \\(emu opt\\): opt program: unset .*at 0x[0-9a-f]+, m0.*gfx9 +3 +2 +1 +0 +0 +0")
# gfx9 gathers (image_gather4_lz, the component in dmask): the reference's
# programs as an external compiler's pass; gathering the next component
# fails both captures with a gather.
set(_g9g "captures/fs_sample_ops_d3d10.tgsi|captures/fs_texture_fetch_sweep.tgsi")
cli_test(gfx9_gather_good
         "check|--target|gfx9|--no-repro|--opt-cmd|fixtures/extcc/g9gather.sh good {tgsi} {out} {target}|${_g9g}"
         0 OUT "gfx9 +2 +2 +0 +0 +0 +0")
cli_test(gfx9_gather_wrong_comp
         "check|--target|gfx9|--no-repro|--opt-cmd|fixtures/extcc/g9gather.sh comp {tgsi} {out} {target}|${_g9g}"
         1 OUT "fail gfx9 captures/fs_sample_ops_d3d10.tgsi: mismatch \\(ref/opt\\).*fail gfx9 captures/fs_texture_fetch_sweep.tgsi: mismatch \\(ref/opt\\).*gfx9 +2 +0 +2 +0 +0 +0")
# The optimizing path's programs for the same stages (stage-window words
# at vertex << 12, s_sendmsg) pass; with every vertex offset shifted by 13
# (vertex v read and written as 2v) the tessellation control shader fails.
cli_test(gfx9_stages_opt_good
         "check|--target|gfx9|--no-repro|--invocations|256|--opt-cmd|fixtures/extcc/g9stages.sh optgood {tgsi} {out} {target}|${_g9s}"
         0 OUT "gfx9 +3 +3 +0 +0 +0 +0")
cli_test(gfx9_stages_opt_shift
         "check|--target|gfx9|--no-repro|--invocations|256|--opt-cmd|fixtures/extcc/g9stages.sh optshift {tgsi} {out} {target}|${_g9s}"
         1 OUT "fail gfx9 captures/tcs_distance_lod.tgsi: mismatch \\(ref/opt\\)")
# gfx9 multisample fetches (image_load, the sample index in the body's
# third register) on the optimizing path, as an external compiler's
# program: it passes; reading the address one register late fails.
cli_test(gfx9_msaa_good
         "check|--target|gfx9|--no-repro|--opt-cmd|fixtures/extcc/g9msaa.sh good {tgsi} {out} {target}|captures/fs_msaa_custom_resolve.tgsi"
         0 OUT "gfx9 +1 +1 +0 +0 +0 +0")
cli_test(gfx9_msaa_body_late
         "check|--target|gfx9|--no-repro|--opt-cmd|fixtures/extcc/g9msaa.sh body {tgsi} {out} {target}|captures/fs_msaa_custom_resolve.tgsi"
         1 OUT "fail gfx9 captures/fs_msaa_custom_resolve.tgsi: mismatch \\(ref/opt\\)")
cli_test(gfx9_stages_wrong_vertex
         "check|--target|gfx9|--no-repro|--invocations|256|--opt-cmd|fixtures/extcc/g9stages.sh vertex {tgsi} {out} {target}|${_g9s}"
         1 OUT "fail gfx9 captures/tcs_distance_lod.tgsi: mismatch \\(ref/opt\\).*fail gfx9 captures/tes_phong_displace.tgsi: mismatch \\(ref/opt\\).*gfx9 +3 +1 +2 +0 +0 +0")
