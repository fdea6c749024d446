# diffcomp llvm: usage errors, a refusal, and the README's recipe (needs llc:
# skipped without it; CI installs Debian's llvm package).
cli_test(llvm_help "llvm|--help" 0 OUT "usage: diffcomp llvm ir")
cli_test(llvm_no_mode "llvm" 2 ERR "usage: diffcomp llvm")
cli_test(llvm_bad_mode "llvm|frob|x.tgsi" 2 ERR "unknown mode 'frob'")
cli_test(llvm_cc_no_out "llvm|cc|captures/vs_mvp_basic.tgsi" 2 ERR "one TGSI file and -o OUT")
cli_test(llvm_refused "llvm|ir|captures/gs_wireframe.tgsi" 3 ERR "GEOM shaders not translated")
cli_test(llvm_refused_d3d10 "llvm|ir|captures/fs_sample_ops_d3d10.tgsi" 3 ERR "fs_sample_ops_d3d10.tgsi:[0-9]+:[0-9]+: error: llvm: SAMPLE: textures, images and special ops not translated")
cli_test(llvm_ir "llvm|ir|captures/vs_mvp_basic.tgsi" 0
         OUT "; diffcomp-llvm: arg s .const CONST\\[0\\]\\[0\\].x.*define amdgpu_vs")
cli_test(llvm_asm_not_ours "llvm|asm|captures/vs_mvp_basic.tgsi|captures/vs_mvp_basic.tgsi" 1
         ERR "not written by diffcomp llvm ir")
add_test(NAME readme_llvm
         COMMAND sh -c "command -v llc >/dev/null 2>&1 || exit 77; exec sh \"$0\" \"$1\" \"$2\" llvm"
                 ${CMAKE_SOURCE_DIR}/tools/tests/run_readme.sh ${CMAKE_SOURCE_DIR}
                 $<TARGET_FILE_DIR:diffcomp>)
set_tests_properties(readme_llvm PROPERTIES SKIP_RETURN_CODE 77)
# The generator limited to what the translator takes (tools/llvm_campaign.sh).
cli_test(llvm_gen_ops_bad "gen|--ops|frob" 2 ERR "--ops takes llvm or llvm-direct")
cli_test(llvm_gen_ops "gen|--seed|7|--ops|llvm|--stage|frag" 0 OUT "DCL OUT")
# The SDWA selection-combining class: passes from IR, caught from MIR.
add_test(NAME llvm_sdwa_combine
         COMMAND sh ${CMAKE_SOURCE_DIR}/compiler/llvm/tests/sdwa_combine.sh ${CMAKE_SOURCE_DIR}
                 $<TARGET_FILE_DIR:diffcomp>)
set_tests_properties(llvm_sdwa_combine PROPERTIES SKIP_RETURN_CODE 77)
# llc leaves out zero offsets (bytes from llvm-mc in the fixture).
cli_test(llvm_asm_omitted_offset "as|gfx9|fixtures/llvm-amdgpu/asm/omitted_offset.s" 0
         OUT "02040002dc508000.01000000d86c0000.00000001d81a0000.007f0402dc708000")
# A miscompile of LLVM 14 found by the campaign: caught at -O2, passes at -O1.
add_test(NAME llvm_scc_clobber
         COMMAND sh ${CMAKE_SOURCE_DIR}/compiler/llvm/tests/scc_clobber.sh ${CMAKE_SOURCE_DIR}
                 $<TARGET_FILE_DIR:diffcomp>)
set_tests_properties(llvm_scc_clobber PROPERTIES SKIP_RETURN_CODE 77)
# Another, also found by the campaign: the kill mask of a loop-invariant discard.
add_test(NAME llvm_kill_mask
         COMMAND sh ${CMAKE_SOURCE_DIR}/compiler/llvm/tests/kill_mask.sh ${CMAKE_SOURCE_DIR}
                 $<TARGET_FILE_DIR:diffcomp>)
set_tests_properties(llvm_kill_mask PROPERTIES SKIP_RETURN_CODE 77)
# Coarse DDX: the bottom row's difference, two QUAD_PERM ds_swizzles
# (3,3,3,3 = 33023 and 2,2,2,2 = 32938) in whole quad mode; DEMOTE is
# llvm.amdgcn.wqm.demote (it was silently dropped before).
cli_test(llvm_ir_deriv "llvm|ir|captures/fs_demote_foliage.tgsi" 0
         OUT "ds.swizzle\\(i32 %v[0-9]+, i32 33023\\).*ds.swizzle\\(i32 %v[0-9]+, i32 32938\\).*wqm.f32.*wqm.demote\\(i1 false\\)|wqm.demote\\(i1 false\\).*ds.swizzle\\(i32 %v[0-9]+, i32 33023\\)")
# Cube maps: face coordinates from v_cube* as Mesa prepares them
# (sc / |ma| + 1.5, face + 8 * layer), sampled with the cube forms.
cli_test(llvm_ir_cube "llvm|ir|captures/fs_shadow_cascaded.tgsi" 0
         OUT "llvm.amdgcn.cubeid.*1069547520.*image.sample.c.cube")
# Past the argument limits (400 constant channels read indirectly), the
# constants are loaded from constant buffer 0's memory (EMU_ADDR_CONST(0))
# through an inreg address.
cli_test(llvm_ir_const_mem "llvm|ir|captures/vs_skinning_4bones.tgsi" 0
         OUT "arg s .value 0x61000000.*load i32, i32 addrspace\\(4\\)\\*")
# Atomics (the forms that return nothing too) and storage images: passes
# at seeds 1-3, and mutations of llc's atomics are caught.
add_test(NAME llvm_atomics
         COMMAND sh ${CMAKE_SOURCE_DIR}/compiler/llvm/tests/atomics.sh ${CMAKE_SOURCE_DIR}
                 $<TARGET_FILE_DIR:diffcomp>)
set_tests_properties(llvm_atomics PROPERTIES SKIP_RETURN_CODE 77)
# Doubles and 64-bit integers: passes at seeds 1-3, and mutations of
# llc's f64 code (division, square root, floor) are caught.
add_test(NAME llvm_doubles
         COMMAND sh ${CMAKE_SOURCE_DIR}/compiler/llvm/tests/doubles.sh ${CMAKE_SOURCE_DIR}
                 $<TARGET_FILE_DIR:diffcomp>)
set_tests_properties(llvm_doubles PROPERTIES SKIP_RETURN_CODE 77)
# A third: a texture sample over a VGPR whose global load is pending.
add_test(NAME llvm_vmem_waw
         COMMAND sh ${CMAKE_SOURCE_DIR}/compiler/llvm/tests/vmem_waw.sh ${CMAKE_SOURCE_DIR}
                 $<TARGET_FILE_DIR:diffcomp>)
set_tests_properties(llvm_vmem_waw PROPERTIES SKIP_RETURN_CODE 77)
# A fourth: FlattenCFG merges two branches into a wrong condition.
add_test(NAME llvm_flatten_cfg
         COMMAND sh ${CMAKE_SOURCE_DIR}/compiler/llvm/tests/flatten_cfg.sh ${CMAKE_SOURCE_DIR}
                 $<TARGET_FILE_DIR:diffcomp>)
set_tests_properties(llvm_flatten_cfg PROPERTIES SKIP_RETURN_CODE 77)
