# FindMUMPS: the double- and single-precision MUMPS libraries (the single one serves the
# mixed-precision factorization) of the flavour FCSN_MUMPS_FLAVOR names, as packaged by Debian 12.
# Defines the imported target MUMPS::MUMPS.
#
#   seq (default): libmumps-seq-dev. A stand-in mpi.h in /usr/include/mumps_seq must come before
#       any real MPI header; five libraries: dmumps_seq, smumps_seq, mumps_common_seq, pord_seq,
#       mpiseq_seq.
#   mpi: libmumps-ptscotch-dev (MPI MUMPS 5.5.1 on OpenMPI, with SCOTCH and PT-SCOTCH; it depends
#       on libmumps-dev, whose plain dmumps/smumps have no SCOTCH at all): dmumps_ptscotch,
#       smumps_ptscotch, mumps_common_ptscotch, pord_ptscotch, and MPI (find_package(MPI) first:
#       MUMPS::MUMPS links MPI::MPI_CXX).
# Both flavours install side by side (same headers in /usr/include, differently named libraries),
# but they cannot be linked into one binary (both export dmumps_c): the flavour is a configure-time
# choice (top-level FCSN_MUMPS).
include(FindPackageHandleStandardArgs)

if(NOT FCSN_MUMPS_FLAVOR)
  set(FCSN_MUMPS_FLAVOR seq)
endif()
if(FCSN_MUMPS_FLAVOR STREQUAL "mpi")
  set(_mumps_suffix _ptscotch)
  set(_mumps_hint "install MPI MUMPS with PT-SCOTCH: apt-get install libmumps-ptscotch-dev mpi-default-dev")
else()
  set(_mumps_suffix _seq)
  set(_mumps_hint "install the sequential MUMPS: apt-get install libmumps-seq-dev")
endif()

find_path(MUMPS_INCLUDE_DIR dmumps_c.h PATH_SUFFIXES include)
find_library(MUMPS_DMUMPS_LIBRARY NAMES dmumps${_mumps_suffix})
find_library(MUMPS_SMUMPS_LIBRARY NAMES smumps${_mumps_suffix})
find_library(MUMPS_COMMON_LIBRARY NAMES mumps_common${_mumps_suffix})
find_library(MUMPS_PORD_LIBRARY NAMES pord${_mumps_suffix})
set(_mumps_required MUMPS_INCLUDE_DIR MUMPS_DMUMPS_LIBRARY MUMPS_SMUMPS_LIBRARY MUMPS_COMMON_LIBRARY
                    MUMPS_PORD_LIBRARY)
if(FCSN_MUMPS_FLAVOR STREQUAL "mpi")
  if(NOT TARGET MPI::MPI_CXX)
    find_package(MPI QUIET COMPONENTS C CXX)
  endif()
  set(MUMPS_MPI_FOUND "${MPI_CXX_FOUND}")
  list(APPEND _mumps_required MUMPS_MPI_FOUND)
else()
  find_path(MUMPS_SEQ_MPI_INCLUDE_DIR mpi.h PATHS /usr/include/mumps_seq NO_DEFAULT_PATH)
  find_library(MUMPS_MPISEQ_LIBRARY NAMES mpiseq_seq)
  list(APPEND _mumps_required MUMPS_SEQ_MPI_INCLUDE_DIR MUMPS_MPISEQ_LIBRARY)
endif()

find_package_handle_standard_args(MUMPS REQUIRED_VARS ${_mumps_required} REASON_FAILURE_MESSAGE "${_mumps_hint}")

if(MUMPS_FOUND AND NOT TARGET MUMPS::MUMPS)
  add_library(MUMPS::MUMPS INTERFACE IMPORTED)
  set(_mumps_libraries ${MUMPS_DMUMPS_LIBRARY} ${MUMPS_SMUMPS_LIBRARY} ${MUMPS_COMMON_LIBRARY} ${MUMPS_PORD_LIBRARY})
  if(FCSN_MUMPS_FLAVOR STREQUAL "mpi")
    set_target_properties(MUMPS::MUMPS PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${MUMPS_INCLUDE_DIR}"
                                                  INTERFACE_LINK_LIBRARIES "${_mumps_libraries};MPI::MPI_CXX")
  else()
    set_target_properties(
      MUMPS::MUMPS PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${MUMPS_SEQ_MPI_INCLUDE_DIR};${MUMPS_INCLUDE_DIR}"
                              INTERFACE_LINK_LIBRARIES "${_mumps_libraries};${MUMPS_MPISEQ_LIBRARY}")
  endif()
endif()
mark_as_advanced(MUMPS_INCLUDE_DIR MUMPS_SEQ_MPI_INCLUDE_DIR MUMPS_DMUMPS_LIBRARY MUMPS_SMUMPS_LIBRARY MUMPS_COMMON_LIBRARY
                 MUMPS_PORD_LIBRARY MUMPS_MPISEQ_LIBRARY)
unset(_mumps_suffix)
unset(_mumps_hint)
unset(_mumps_required)
unset(_mumps_libraries)
