# fcsn_nsgs: Delassus data from one sparse factorization of M, one-contact solvers, and NSGS sweeps
# (formulations.md §7). Included by newton/CMakeLists.txt.
add_library(fcsn_nsgs STATIC
  ${CMAKE_CURRENT_LIST_DIR}/delassus.cc
  ${CMAKE_CURRENT_LIST_DIR}/delassus_blocks.cc
  ${CMAKE_CURRENT_LIST_DIR}/local_solvers.cc
  ${CMAKE_CURRENT_LIST_DIR}/nsgs.cc)
target_include_directories(fcsn_nsgs PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(fcsn_nsgs PUBLIC fcsn_headers fcsn_formulations fcsn_problem)
