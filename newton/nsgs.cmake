# fcsn_nsgs_objects: Delassus data from one sparse factorization of M, one-contact solvers, and
# NSGS sweeps (formulations.md §7). Included by newton/CMakeLists.txt; compiled into the fcsn
# library.
add_library(fcsn_nsgs_objects OBJECT
  ${CMAKE_CURRENT_LIST_DIR}/delassus.cc
  ${CMAKE_CURRENT_LIST_DIR}/delassus_blocks.cc
  ${CMAKE_CURRENT_LIST_DIR}/fp_vi_upk.cc
  ${CMAKE_CURRENT_LIST_DIR}/local_solvers.cc
  ${CMAKE_CURRENT_LIST_DIR}/fill_ordering.cc
  ${CMAKE_CURRENT_LIST_DIR}/ldlt_reach.cc
  ${CMAKE_CURRENT_LIST_DIR}/m_factorization.cc
  ${CMAKE_CURRENT_LIST_DIR}/supernodal_cholesky.cc
  ${CMAKE_CURRENT_LIST_DIR}/nsgs.cc)
target_include_directories(fcsn_nsgs_objects PRIVATE ${PROJECT_SOURCE_DIR})
target_link_libraries(fcsn_nsgs_objects PUBLIC fcsn_headers PRIVATE METIS::METIS CHOLMOD::CHOLMOD)
