# Dependencies point down (util, isa, emu, compiler, diff, tools): no
# library source includes a header of a layer above its own.
add_test(NAME layers COMMAND ${CMAKE_COMMAND} -DSRC=${CMAKE_SOURCE_DIR} -P
                             ${CMAKE_SOURCE_DIR}/util/tests/layers.cmake)
