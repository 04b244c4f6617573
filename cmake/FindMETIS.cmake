# FindMETIS: METIS 5 (Debian libmetis-dev). Defines the imported target METIS::METIS.
# Links the real libmetis, never SCOTCH's METIS shim (libscotchmetisv5), which also exports
# METIS_NodeND.
include(FindPackageHandleStandardArgs)

find_path(METIS_INCLUDE_DIR metis.h)
find_library(METIS_LIBRARY NAMES metis)
find_package_handle_standard_args(METIS REQUIRED_VARS METIS_INCLUDE_DIR METIS_LIBRARY
                                  REASON_FAILURE_MESSAGE "apt-get install libmetis-dev")
if(METIS_FOUND AND NOT TARGET METIS::METIS)
  add_library(METIS::METIS UNKNOWN IMPORTED)
  set_target_properties(METIS::METIS PROPERTIES IMPORTED_LOCATION "${METIS_LIBRARY}"
                                                INTERFACE_INCLUDE_DIRECTORIES "${METIS_INCLUDE_DIR}")
endif()
mark_as_advanced(METIS_INCLUDE_DIR METIS_LIBRARY)
