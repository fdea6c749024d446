# check --opt-cmd: an external compiler under test (diff/extcc.c; README,
# "Checking your own compiler"). fixtures/extcc/mycc.sh follows the
# protocol through `diffcomp compile --path opt`; each mode breaks it once.
set(_mycc ${CMAKE_SOURCE_DIR}/fixtures/extcc/mycc.sh)
function(extcc_test name mode rc)
  set(args "check|captures/vs_mvp_basic.tgsi|--no-repro|-q")
  list(APPEND args ${EXTCC_ARGS})
  string(REPLACE ";" "|" args "${args}")
  cli_test(${name} "${args}|--opt-cmd|${_mycc} ${mode} {tgsi} {out} {target} {limit} {bindings}"
           ${rc} ${ARGN})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "DIFFCOMP=$<TARGET_FILE:diffcomp>")
endfunction()

# The command stands for opt: as assembly and as raw code + bindings.
set(EXTCC_ARGS --target a3xx,sm50 captures/cs_bitonic_sort.tgsi)
extcc_test(extcc_good good 0 OUT "a3xx +2 +2 +0")
extcc_test(extcc_raw raw 0 OUT "sm50 +2 +2 +0")
# A miscompile through the command is caught as with the built-in path.
set(EXTCC_ARGS --target a3xx captures/cs_bitonic_sort.tgsi)
extcc_test(extcc_fault fault=missing-ss 1
           OUT "fail a3xx captures/cs_bitonic_sort.tgsi: hazard \\(emu opt\\)")
set(EXTCC_ARGS)
# Each broken command is the case's failure, with its stderr tail.
extcc_test(extcc_fail fail 1 OUT "compile-error \\(opt\\): opt: the command exited with status 1; stderr: mycc: internal error: no instruction")
extcc_test(extcc_crash crash 1 OUT "crash \\(opt\\): opt: the command died on SIGSEGV.*stderr: mycc: about to crash")
set(EXTCC_ARGS --opt-cmd-timeout 3) # only the hang waits for the limit
extcc_test(extcc_hang hang 1 OUT "timeout \\(opt\\): opt: the command ran past its time limit \\(3 s\\) and was killed; stderr: mycc: thinking")
set(EXTCC_ARGS)
extcc_test(extcc_garbage garbage 1 OUT "compile-error \\(opt\\): opt: malformed program: {out}:1:1: unknown mnemonic 'this'")
extcc_test(extcc_binary binary 1 OUT "opt: {out} is not an assembly program \\(binary data at byte 3")
extcc_test(extcc_empty empty 1 OUT "opt: the command wrote an empty program")
extcc_test(extcc_wrong_binding wrong-binding 1 OUT "the bindings do not match the shader: binding [0-9]+ writes OUT\\[9\\].x, which the shader does not declare")
extcc_test(extcc_refuse refuse 1 OUT "opt-refused \\(opt\\): opt: the command does not translate this shader \\(exit 3\\); stderr: mycc: no translation")
set(EXTCC_ARGS --target a3xx)
extcc_test(extcc_illegal illegal 1 OUT "illegal-encoding \\(opt\\): opt program: illegal instruction at 0x0")
# The stderr tail is in the JSON and the JUnit reports too.
set(EXTCC_ARGS --target a3xx --json -)
extcc_test(extcc_fail_json fail 1 OUT "\"message\": \"opt: the command exited with status 1; stderr: mycc: internal error")
set(EXTCC_ARGS --target a3xx --junit -)
extcc_test(extcc_fail_junit fail 1 OUT "<failure type=\"compile-error\" message=\"opt: the command exited with status 1; stderr: mycc: internal error")
set(EXTCC_ARGS)

# Templates: {tgsi} and {out} are required; a misspelt placeholder is a
# usage error; shell's ${VAR} is left alone.
cli_test(extcc_template_no_out "check|captures/vs_mvp_basic.tgsi|--opt-cmd|mycc {tgsi}" 2
         ERR "--opt-cmd: the command must name \\{tgsi\\}")
cli_test(extcc_template_typo "check|captures/vs_mvp_basic.tgsi|--opt-cmd|mycc {tgis} -o {out}" 2
         ERR "unknown placeholder '\\{tgis\\}'")
cli_test(extcc_with_fault "check|captures/vs_mvp_basic.tgsi|--inject-fault|missing-ss|--opt-cmd|mycc {tgsi} {out}" 2
         ERR "--opt-cmd replaces the optimizing compiler")

# The README's worked example, verbatim.
add_test(NAME readme_extcc COMMAND sh ${CMAKE_SOURCE_DIR}/tools/tests/run_readme.sh ${CMAKE_SOURCE_DIR}
         $<TARGET_FILE_DIR:diffcomp> extcc)
set_tests_properties(readme_extcc PROPERTIES LABELS recipe)

# diffcomp emu runs raw code with a bindings file (the same YAML as {bindings}).
cli_test(extcc_emu_raw
         "emu|a3xx|fixtures/extcc/raw_a3xx.bin|--bindings|fixtures/extcc/raw_a3xx.yaml|--invocations|2"
         0 OUT "0x40200000, 2.5\\].*0x40600000, 3.5\\]")
cli_test(extcc_emu_raw_bad_key
         "emu|a3xx|fixtures/extcc/raw_a3xx.bin|--bindings|fixtures/extcc/raw_bad_key.yaml" 2
         ERR "raw_bad_key.yaml:2:1: error: unknown key 'inptu'")

# bisect reads LLVM's -opt-bisect-limit lines as well: the same firing is named.
add_test(NAME extcc_bisect_llvm_lines COMMAND sh -c "
  d=$(mktemp -d) && trap 'rm -rf $d' EXIT &&
  \"$1\" check captures/cs_bitonic_sort.tgsi --target a3xx -q --repro-dir $d \
     --opt-cmd 'fixtures/extcc/mycc.sh llvm=missing-ss {tgsi} {out} {target} {limit}' >/dev/null;
  test $? = 1 && \"$1\" bisect $d/cs_bitonic_sort-a3xx.yaml | tee $d/out &&
  grep -q 'transformation 72 of 94: fault missing-ss: no (ss) on %129' $d/out" sh $<TARGET_FILE:diffcomp>
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(extcc_bisect_llvm_lines PROPERTIES ENVIRONMENT "DIFFCOMP=$<TARGET_FILE:diffcomp>")
# Without {limit} in the command, bisect says it cannot drive it.
add_test(NAME extcc_bisect_no_limit COMMAND sh -c "
  d=$(mktemp -d) && trap 'rm -rf $d' EXIT &&
  \"$1\" check captures/cs_bitonic_sort.tgsi --target a3xx -q --repro-dir $d \
     --opt-cmd 'fixtures/extcc/mycc.sh fault=missing-ss {tgsi} {out} {target}' >/dev/null;
  \"$1\" bisect $d/cs_bitonic_sort-a3xx.yaml 2>&1 | tee $d/out;
  grep -q 'takes no {limit}' $d/out" sh $<TARGET_FILE:diffcomp>
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(extcc_bisect_no_limit PROPERTIES ENVIRONMENT "DIFFCOMP=$<TARGET_FILE:diffcomp>")

# --max-failures N ends the run after N new failures; the summary covers
# the cases that finished (issue 20).
cli_test(check_max_failures
         "check|captures/cs_bitonic_sort.tgsi|captures/vs_mvp_basic.tgsi|--target|a3xx|-j0|--no-repro|--inject-fault|missing-ss|--max-failures|1"
         1 OUT "stopped after 1 new failures and errors \\(--max-failures\\): 1 of 2 cases did not run\n.*a3xx +1 +0 +1 ")
# Ctrl-C: the summary and the reports of the finished cases, exit 130, and
# the running external command killed with its process group.
add_test(NAME check_interrupt COMMAND sh -c "
  d=$(mktemp -d) && trap 'rm -rf $d' EXIT
  \"$1\" check captures/vs_mvp_basic.tgsi captures/fs_pbr_metal_rough.tgsi --target a3xx -q \
     --no-repro --json $d/run.json --opt-cmd \"touch $d/started; sleep 300; : {tgsi} {out}\" \
     >$d/out 2>$d/err &
  pid=$!
  i=0; while [ ! -e $d/started ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
  kill -INT $pid; wait $pid; rc=$?
  cat $d/out $d/err
  test $rc = 130 && grep -Eq 'interrupted: [12] of 2 cases did not run' $d/err &&
    grep -Eq '\"cases\": [01],' $d/run.json && ! grep -q 'sleep 300' $d/err" sh $<TARGET_FILE:diffcomp>
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
# `timeout -s INT` signals the command and then its process group: the
# repeat is the same request, so the run still ends with its reports.
add_test(NAME check_interrupt_timeout COMMAND sh -c "
  d=$(mktemp -d) && trap 'rm -rf $d' EXIT
  timeout --preserve-status -s INT 3 \"$1\" check captures/vs_mvp_basic.tgsi captures/fs_pbr_metal_rough.tgsi \
     --target a3xx -q --no-repro --json $d/run.json -j1 \
     --opt-cmd \"sleep 300; : {tgsi} {out}\" >$d/out 2>$d/err
  rc=$?
  cat $d/out $d/err
  test $rc = 130 && grep -Eq 'interrupted: [12] of 2 cases did not run' $d/err &&
    grep -Eq '\"cases\": [01],' $d/run.json" sh $<TARGET_FILE:diffcomp>
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
