#include "cli/mpi_session.h"

#include <cstdio>

#include "fcsn/config.h"

#if FCSN_WITH_MPI
#include <mpi.h>
#endif

namespace fcsn::cli {

#if FCSN_WITH_MPI

MpiSession::MpiSession(int* argc, char*** argv) {
  MPI_Init(argc, argv);
  if (!is_host()) {
    // Only the host prints: the other ranks compute the same lines.
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
  }
}

MpiSession::~MpiSession() { MPI_Finalize(); }

bool MpiSession::is_host() { return rank() == 0; }

int MpiSession::rank() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) return 0;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int MpiSession::size() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) return 1;
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

#else  // seq flavour: one process, no MPI

MpiSession::MpiSession(int*, char***) {}
MpiSession::~MpiSession() = default;
bool MpiSession::is_host() { return true; }
int MpiSession::size() { return 1; }
int MpiSession::rank() { return 0; }

#endif

}  // namespace fcsn::cli
