# fcsn_test(NAME SOURCES a.cc [b.cc ...] LIBS target ... [LABELS l ...] [TIMEOUT seconds])
# One GoogleTest executable per test file (Ceres' CERES_TEST pattern), registered with CTest.
# Tests run from the source tree's root so that ../shared/data paths resolve as in the README;
# FCSN_SHARED_DIR (compile definition) gives the absolute path as well.
# The mpi flavour links tests/mpi's main instead of gtest_main (MPI_Init, rank-0 report), so that
# every test executable also runs under mpirun.
# It builds only the suites listed in FCSN_MPI_SUITES (tests/CMakeLists.txt), when defined.
function(fcsn_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  if(FCSN_WITH_MPI AND DEFINED FCSN_MPI_SUITES AND NOT name IN_LIST FCSN_MPI_SUITES)
    return()
  endif()
  add_executable(${name} ${ARG_SOURCES})
  if(FCSN_WITH_MPI)
    set(main_library fcsn_mpi_gtest_main)
  else()
    set(main_library GTest::gtest_main)
  endif()
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} fcsn_test_util GTest::gtest GTest::gmock ${main_library})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests")
  set(timeout_property "")
  if(ARG_TIMEOUT)
    set(timeout_property TIMEOUT ${ARG_TIMEOUT})
  endif()
  gtest_discover_tests(${name} WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}" DISCOVERY_TIMEOUT 60
                       PROPERTIES LABELS "${ARG_LABELS}" ${timeout_property})
endfunction()
