# Helper functions every directory uses to register tests and benchmarks,
# so no directory has to edit another's CMakeLists.txt.

pkg_check_modules(CRITERION QUIET IMPORTED_TARGET criterion)

# reckon_criterion_test(NAME SOURCES a.c b.c LIBS x y [LABELS l])
# A Criterion test executable run by ctest. Criterion prints its own
# "Synthesis: Tested: N | Passing: N | Failing: N" line.
function(reckon_criterion_test name)
	cmake_parse_arguments(T "" "" "SOURCES;LIBS;LABELS" ${ARGN})
	if(NOT CRITERION_FOUND)
		message(FATAL_ERROR "Criterion not found: run deploy/test.sh or install libcriterion-dev")
	endif()
	add_executable(${name} ${T_SOURCES})
	target_link_libraries(${name} PRIVATE ${T_LIBS} PkgConfig::CRITERION)
	add_test(NAME ${name} COMMAND ${name} --verbose=0 -j1
		WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
	if(T_LABELS)
		set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}")
	endif()
endfunction()

# reckon_script_test(NAME SCRIPT path [LABELS l] [TIMEOUT s])
# A shell test (integration, golden files). It gets the build directory as $1.
function(reckon_script_test name)
	cmake_parse_arguments(T "" "SCRIPT;TIMEOUT" "LABELS" ${ARGN})
	add_test(NAME ${name} COMMAND bash ${T_SCRIPT} ${CMAKE_BINARY_DIR}
		WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
	get_filename_component(_abs ${T_SCRIPT} ABSOLUTE)
	set_property(GLOBAL APPEND PROPERTY RECKON_TEST_SCRIPTS ${_abs})
	if(T_LABELS)
		set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}")
	endif()
	if(T_TIMEOUT)
		set_tests_properties(${name} PROPERTIES TIMEOUT ${T_TIMEOUT})
	endif()
	# exit code 77 means "skipped, reason printed"
	set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77)
endfunction()

# reckon_bench(NAME SOURCES ... LIBS ...) or reckon_bench(NAME SCRIPT path)
# Benchmarks print figures; `cmake --build build --target bench` runs them all.
function(reckon_bench name)
	cmake_parse_arguments(B "" "SCRIPT" "SOURCES;LIBS;ARGS" ${ARGN})
	if(B_SCRIPT)
		set_property(GLOBAL APPEND PROPERTY RECKON_BENCH_SCRIPTS ${B_SCRIPT})
	else()
		add_executable(${name} ${B_SOURCES})
		target_link_libraries(${name} PRIVATE ${B_LIBS})
		set_property(GLOBAL APPEND PROPERTY RECKON_BENCH_EXES ${name})
	endif()
endfunction()
