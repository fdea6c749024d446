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
