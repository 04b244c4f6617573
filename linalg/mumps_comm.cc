// MPI helpers of the MUMPS backend: real MPI calls in the mpi flavour, nothing
// in the seq flavour (whose stand-in mpi.h must not be used from C++).
#include "linalg/mumps_comm.h"

#include "fcsn/config.h"
#include "fcsn/linear_solver_options.h"

#if FCSN_WITH_MPI
#include <mpi.h>
#endif

namespace fcsn::internal {

#if FCSN_WITH_MPI

namespace {

MPI_Comm CommOf(int communicator) {
  return communicator == kMpiCommWorld
             ? MPI_COMM_WORLD
             : MPI_Comm_f2c(static_cast<MPI_Fint>(communicator));
}

// The host of MUMPS with PAR = 1 is rank 0 of its communicator.
constexpr int kHostRank = 0;

}  // namespace

std::string CheckMpiReady(int communicator) {
  int initialized = 0;
  int finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) {
    return "fcsn was built on MPI MUMPS (FCSN_MUMPS=mpi): call MPI_Init "
           "before creating a MUMPS solver (and MPI_Finalize after destroying "
           "it)";
  }
  if (CommOf(communicator) == MPI_COMM_NULL) {
    return "LinearSolverOptions::mpi_communicator is MPI_COMM_NULL";
  }
  return "";
}

bool MumpsHasParallelAnalysis() { return true; }

int MumpsCommFortran(int communicator) {
  return static_cast<int>(MPI_Comm_c2f(CommOf(communicator)));
}

bool AnyRank(bool flag, int communicator) {
  int any = flag ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, CommOf(communicator));
  return any != 0;
}

namespace {

bool MpiRunning() {
  int initialized = 0;
  int finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
}

}  // namespace

int CommRank(int communicator) {
  int rank = 0;
  if (MpiRunning()) MPI_Comm_rank(CommOf(communicator), &rank);
  return rank;
}

int CommSize(int communicator) {
  int size = 1;
  if (MpiRunning()) MPI_Comm_size(CommOf(communicator), &size);
  return size;
}

RankFailure FirstFailure(int code, int communicator) {
  const MPI_Comm comm = CommOf(communicator);
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  // MINLOC on (rank, code) pairs: the lowest failing rank, with its code.
  struct {
    int value;
    int index;
  } first = {code != 0 ? rank : size, code};
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_2INT, MPI_MINLOC, comm);
  if (first.value == size) return {};
  return {first.value, first.index};
}

bool SameOnAllRanks(long long value, int communicator) {
  long long range[2] = {value, -value};  // max of both: max and -min
  MPI_Allreduce(
      MPI_IN_PLACE, range, 2, MPI_LONG_LONG, MPI_MAX, CommOf(communicator));
  return range[0] == -range[1];
}

void SumOverRanks(double* x, int n, int communicator) {
  const MPI_Comm comm = CommOf(communicator);
  if (CommRank(communicator) == kHostRank) {
    MPI_Reduce(MPI_IN_PLACE, x, n, MPI_DOUBLE, MPI_SUM, kHostRank, comm);
  } else {
    MPI_Reduce(x, nullptr, n, MPI_DOUBLE, MPI_SUM, kHostRank, comm);
  }
  MPI_Bcast(x, n, MPI_DOUBLE, kHostRank, comm);
}

void BroadcastFromHost(double* x, int n, int communicator) {
  MPI_Bcast(x, n, MPI_DOUBLE, kHostRank, CommOf(communicator));
}

void BroadcastFromHost(float* x, int n, int communicator) {
  MPI_Bcast(x, n, MPI_FLOAT, kHostRank, CommOf(communicator));
}

void BroadcastFromHost(int* x, int n, int communicator) {
  MPI_Bcast(x, n, MPI_INT, kHostRank, CommOf(communicator));
}

#else  // seq flavour

std::string CheckMpiReady(int) { return ""; }

bool MumpsHasParallelAnalysis() { return false; }

// The sequential library's stand-in MPI accepts MUMPS' "MPI_COMM_WORLD" value.
int MumpsCommFortran(int) { return kMpiCommWorld; }

bool AnyRank(bool flag, int) { return flag; }

int CommRank(int) { return 0; }
int CommSize(int) { return 1; }

RankFailure FirstFailure(int code, int) {
  return code != 0 ? RankFailure{0, code} : RankFailure{};
}

bool SameOnAllRanks(long long, int) { return true; }

void SumOverRanks(double*, int, int) {}

void BroadcastFromHost(double*, int, int) {}
void BroadcastFromHost(float*, int, int) {}
void BroadcastFromHost(int*, int, int) {}

#endif

}  // namespace fcsn::internal
