# diffcomp emu: exit codes and output (the runner script is the TGSI tests').
function(emu_cli name)
  cli_test(cli_emu_${name} ${ARGN})
endfunction()

emu_cli(help "emu|--help" 0 OUT "usage: diffcomp emu MODEL PROGRAM")
emu_cli(no_program "emu|a3xx" 2 ERR "usage: diffcomp emu")
emu_cli(bad_option "emu|a3xx|x.s|--frob" 2 ERR "unknown option '--frob'")
emu_cli(no_model "emu|nosuch|fixtures/emu/a3xx/raw_short.s" 2 ERR "nosuch")
emu_cli(hazard "emu|a3xx|fixtures/emu/a3xx/raw_short.s" 1
        OUT "cycles: 8\n.*kind: raw, pc: 0x20, reg: r0.y, producer: 0x18, early: 3.*0x40000000, 2.0")
emu_cli(clean "emu|a3xx|fixtures/emu/a3xx/raw_short_ok.s" 0 OUT "cycles: 11\n.*hazards: \\[\\]")
# --summary: the same figures, and nothing after the hazards (no outputs)
emu_cli(summary "emu|a3xx|fixtures/emu/a3xx/raw_short_ok.s|--summary" 0
        OUT "cycles: 11\n.*hazards: \\[\\]\n$")
# 544 lanes: a batch of 16 waves (512 lanes), then one wave alone, which
# adds its own 4 instructions, not the batch's 64 again.
emu_cli(summary_lone_wave "emu|sm50|fixtures/emu/sm50/bar_early_ok.s|--invocations|544|--summary" 0
        OUT "waves: 17
.*instructions: 68
lane_instructions: 2176
")
emu_cli(trace "emu|a3xx|fixtures/emu/a3xx/sync_ss_ok.s|--trace" 0
        OUT "cycle: 17, stall: 9, pc: 0x18, active: 1, insn: \"\\(ss\\)mov.f32f32 r2.x, r1.x\", waited: \"ss r1.x\"")
emu_cli(budget "emu|a3xx|fixtures/emu/a3xx/budget.s|--max-cycles|100" 1 OUT "status: the cycle budget ran out")
emu_cli(seeded "emu|a3xx|fixtures/emu/a3xx/loop.s|--seed|5|--invocations|3" 0 OUT "invocations: 3\n")
emu_cli(bad_directive "emu|a3xx|fixtures/emu/bad/bad_directive.s" 2
        ERR "bad_directive.s:3:1: error: unknown directive '.inptu'")
emu_cli(bench "bench|emu|--target|a3xx|--insns|200|--invocations|128|--repeat|2" 0
        OUT "a3xx  batched: 200 insns, 128 lanes, waves of 64, 2 runs.*per cpu second: [0-9.]+ M lane-instructions.*wave by wave")
emu_cli(bench_help "bench|emu|--help" 0 OUT "usage: diffcomp bench emu")
# Stage outputs from the command line: a geometry shader's emitted vertices
# (outputs sized by its attribute stores, no binding), a tessellation
# control shader's outputs per output vertex (.out_vertices).
set(_u "0x00000000 UNDEF")
emu_cli(gs_emit "emu|sm50|fixtures/emu/cli/sm50_gs_emit.s" 0
        OUT "events: {}\n.*gs_vertices:\n  - lane: 0\n    vertices:\n      - stream: 0\n        prim: 0\n        regs:\n          - \\[0x3f800000, ${_u}, ${_u}, ${_u}\\]\n          - \\[${_u}, ${_u}, ${_u}, ${_u}\\]\n      - stream: 1\n        prim: 0\n        regs:\n          - \\[${_u}, ${_u}, ${_u}, ${_u}\\]\n          - \\[${_u}, 0x40000000, ${_u}, ${_u}\\]\n      - stream: 0\n        prim: 1\n.*  - lane: 1\n")
emu_cli(tcs_store "emu|sm50|fixtures/emu/cli/sm50_tcs_store.s" 0
        OUT "events: {}\n.*- reg: 0\n    vertex: 0\n    chan: z\n    lanes:\n      - \\[0, 0x40000000, 2.0\\]\n      - \\[1, 0x40000000, 2.0\\]\n.*- reg: 1\n    vertex: 2\n    chan: x\n    lanes:\n      - \\[0, 0x3f800000, 1.0\\]\n")
emu_cli(const_rpt_past_file "emu|a3xx|fixtures/emu/bad/const_rpt_past_file.s" 2
        ERR "instruction at 0x0: register group runs past its file")
# An output bound to a uniform register (gfx9 SGPR): refused, as the
# hardware's exports take VGPRs only.
emu_cli(output_uniform "emu|gfx9|fixtures/emu/bad/gfx9_output_sgpr.s" 2
        ERR "binding 0: outputs bind to a per-lane register file, not a uniform one")
# agx: 16-bit halves, wait slots (completion drawn from the seed), the
# execution-mask stack, more than max_pending ops on a slot.
emu_cli(agx_halves "emu|agx|fixtures/emu/agx/halves.s" 0 OUT "0x3c004000, 0.007827759")
emu_cli(agx_missing_wait "emu|agx|fixtures/emu/agx/missing_wait.s|--seed|3" 1
        OUT "kind: sync, pc: 0x1e, reg: r0, producer: 0x16.*reg: 0\n    chan: y.*\\[0, 0x00000000")
emu_cli(agx_wait_ok "emu|agx|fixtures/emu/agx/wait_ok.s|--seed|3" 0 OUT "cycles: 341\n.*hazards: \\[\\]")
emu_cli(agx_wait_seed "emu|agx|fixtures/emu/agx/wait_ok.s|--seed|1" 0 OUT "cycles: 493\n")
emu_cli(agx_exec_stack "emu|agx|fixtures/emu/agx/exec_stack.s" 0
        OUT "\\[1, 0x00000065.*\\[2, 0x000000c9.*\\[3, 0x000000c9")
emu_cli(agx_pending "emu|agx|fixtures/emu/agx/pending.s" 1 OUT "kind: pending, pc: 0x4c")
# agx textures (slot 1 here), threadgroup memory and atomics
emu_cli(agx_tex_missing_wait "emu|agx|fixtures/emu/agx/tex_missing_wait.s|--seed|3" 1
        OUT "hazards:\n  - {kind: sync, pc: 0x12, reg: r4, producer: 0x6")
emu_cli(agx_tex_wait_ok "emu|agx|fixtures/emu/agx/tex_wait_ok.s|--seed|3" 0 OUT "hazards: \\[\\]")
emu_cli(agx_tex_waw "emu|agx|fixtures/emu/agx/tex_waw.s|--seed|3" 1
        OUT "hazards:\n  - {kind: waw, pc: 0xc, reg: r5, producer: 0x0")
emu_cli(agx_tex_wrong_slot "emu|agx|fixtures/emu/agx/tex_wrong_slot.s|--seed|3" 1
        OUT "hazards:\n  - {kind: sync, pc: 0xe, reg: r4, producer: 0x0")
emu_cli(agx_shared_atomics "emu|agx|fixtures/emu/agx/shared_atomics.s" 0
        OUT "hazards: \\[\\].*chan: x\n    lanes:\n      - \\[0, 0x00000000.*\\[3, 0x00000003.*chan: y\n    lanes:\n      - \\[0, 0x00000006.*\\[1, 0x00000064.*chan: w\n    lanes:\n.*\\[2, 0x00000001.*\\[3, 0x00000002.*reg: 1\n    chan: x\n    lanes:\n      - \\[0, 0x00000064")

# The emulator does not share isa/delay.c with the compilers: for each bug
# below, a copy of isa/delay.c with it planted is linked ahead of the
# library into emu/tests/plant_delay.c, which lays programs out by the
# wrong isa_delay() answer and wants the emulator to flag them.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/isa/delay.c)
file(READ ${CMAKE_SOURCE_DIR}/isa/delay.c _dc_delay_src)
set(_plant_latency_old "int base = pc->latency < 0 ? 0 : pc->latency;")
set(_plant_latency_new "int base = pc->latency < 0 ? 0 : pc->latency - 1;")
set(_plant_sync_old "if (pc->sync != ISA_SYNC_NONE) {")
set(_plant_sync_new "if (0) {")
set(_plant_waitstates_old "need = wr->states;")
set(_plant_waitstates_new "need = wr->states - 1;")
set(_plant_count_old "while (mask >> n)")
set(_plant_count_new "while (mask >> (n + 1))")
foreach(plant latency sync waitstates count)
  string(FIND "${_dc_delay_src}" "${_plant_${plant}_old}" _at)
  if(_at LESS 0)
    # isa/delay.c changed: the test fails until the plant is updated
    add_test(NAME emu_plant_delay_${plant}
             COMMAND ${CMAKE_COMMAND} -E echo "isa/delay.c no longer holds '${_plant_${plant}_old}': update emu/tests/cli.cmake")
    set_tests_properties(emu_plant_delay_${plant} PROPERTIES WILL_FAIL TRUE)
    continue()
  endif()
  string(REPLACE "${_plant_${plant}_old}" "${_plant_${plant}_new}" _src "${_dc_delay_src}")
  set(_out ${CMAKE_BINARY_DIR}/plant/delay_${plant}.c)
  set(_old "")
  if(EXISTS ${_out})
    file(READ ${_out} _old)
  endif()
  if(NOT _old STREQUAL _src)
    file(WRITE ${_out} "${_src}")
  endif()
  add_executable(emu_plant_${plant} ${CMAKE_SOURCE_DIR}/emu/tests/plant_delay.c ${_out})
  target_link_libraries(emu_plant_${plant} PRIVATE dccore)
  add_test(NAME emu_plant_delay_${plant} COMMAND emu_plant_${plant} ${plant}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
endforeach()
