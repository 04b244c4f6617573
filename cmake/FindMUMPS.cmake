# FindMUMPS: the double- and single-precision MUMPS libraries (the single one serves the
# mixed-precision factorization), sequential flavour as packaged by Debian
# (libmumps-seq-dev). Defines the imported target MUMPS::MUMPS.
#
# The sequential flavour ships a stand-in mpi.h in /usr/include/mumps_seq that must come before any
# real MPI header, and five libraries: dmumps_seq, smumps_seq, mumps_common_seq, pord_seq, mpiseq_seq.
# The MPI flavour (FCSN_MUMPS_FLAVOR=mpi) is not supported yet: the two cannot be linked into one
# binary (both export dmumps_c), so the flavour is a configure-time choice.
include(FindPackageHandleStandardArgs)

find_path(MUMPS_INCLUDE_DIR dmumps_c.h PATH_SUFFIXES include)
find_path(MUMPS_SEQ_MPI_INCLUDE_DIR mpi.h PATHS /usr/include/mumps_seq NO_DEFAULT_PATH)
find_library(MUMPS_DMUMPS_LIBRARY NAMES dmumps_seq)
find_library(MUMPS_SMUMPS_LIBRARY NAMES smumps_seq)
find_library(MUMPS_COMMON_LIBRARY NAMES mumps_common_seq)
find_library(MUMPS_PORD_LIBRARY NAMES pord_seq)
find_library(MUMPS_MPISEQ_LIBRARY NAMES mpiseq_seq)

find_package_handle_standard_args(
  MUMPS
  REQUIRED_VARS MUMPS_INCLUDE_DIR MUMPS_SEQ_MPI_INCLUDE_DIR MUMPS_DMUMPS_LIBRARY MUMPS_SMUMPS_LIBRARY
                MUMPS_COMMON_LIBRARY MUMPS_PORD_LIBRARY MUMPS_MPISEQ_LIBRARY
  REASON_FAILURE_MESSAGE "install the sequential MUMPS: apt-get install libmumps-seq-dev")

if(MUMPS_FOUND AND NOT TARGET MUMPS::MUMPS)
  add_library(MUMPS::MUMPS INTERFACE IMPORTED)
  set_target_properties(
    MUMPS::MUMPS
    PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${MUMPS_SEQ_MPI_INCLUDE_DIR};${MUMPS_INCLUDE_DIR}"
               INTERFACE_LINK_LIBRARIES
               "${MUMPS_DMUMPS_LIBRARY};${MUMPS_SMUMPS_LIBRARY};${MUMPS_COMMON_LIBRARY};${MUMPS_PORD_LIBRARY};${MUMPS_MPISEQ_LIBRARY}")
endif()
mark_as_advanced(MUMPS_INCLUDE_DIR MUMPS_SEQ_MPI_INCLUDE_DIR MUMPS_DMUMPS_LIBRARY MUMPS_SMUMPS_LIBRARY MUMPS_COMMON_LIBRARY
                 MUMPS_PORD_LIBRARY MUMPS_MPISEQ_LIBRARY)
