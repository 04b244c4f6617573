// linalg/mumps_comm.h: the MPI side of the MUMPS backend, the only code whose
// behaviour depends on the MUMPS flavour (FCSN_WITH_MPI in fcsn/config.h).
//
// Replicated-data model: every rank of the communicator runs the
// same fcsn code on the same data, so residuals, Jacobian values, line search
// and error measures are computed identically everywhere; only MUMPS is
// distributed. Every rank makes the same MUMPS calls (JOB sequence, retries,
// fallbacks), decided on MUMPS' global INFOG/RINFOG, which MUMPS returns on
// every rank. The host (rank 0, PAR = 1: it also computes) holds the
// centralized assembled matrix (ICNTL(18) = 0), the right-hand side and the
// solution (ICNTL(20) = ICNTL(21) = 0); after each solve the host's solution
// is broadcast to every rank, so that later computations stay identical.
//
// seq flavour: one process; the communicator is ignored and the broadcast
// does nothing.
#ifndef FCSN_LINALG_MUMPS_COMM_H_
#define FCSN_LINALG_MUMPS_COMM_H_

#include <string>

namespace fcsn::internal {

// "" when MUMPS may be initialized on `communicator` (the option's Fortran
// handle): always in the seq flavour; in the mpi flavour when MPI is
// initialized and not finalized and the communicator is not MPI_COMM_NULL.
// Otherwise a sentence saying what to do.
std::string CheckMpiReady(int communicator);

// True in the mpi flavour: MPI MUMPS with PT-SCOTCH, which can analyse in
// parallel (the sequential library refuses ICNTL(28) = 2).
bool MumpsHasParallelAnalysis();

// MUMPS' COMM_FORTRAN for the option's handle (fcsn::kMpiCommWorld stands for
// MPI_COMM_WORLD).
int MumpsCommFortran(int communicator);

// True on every rank when `flag` is true on at least one rank of
// `communicator` (a collective call; `flag` itself in the seq flavour). For
// the decisions a caller takes on rank-dependent data, such as a wall-clock
// deadline: all ranks must take the same branch before the next MUMPS call.
bool AnyRank(bool flag, int communicator);

// This process' rank in `communicator` and the number of ranks (0 and 1 in
// the seq flavour, or before MPI_Init / after MPI_Finalize).
int CommRank(int communicator);
int CommSize(int communicator);

// A failure found on some ranks only: the lowest rank whose `code` is not 0
// and its code, on every rank of `communicator`; {-1, 0} when every code is 0
// (a collective call; this process' code in the seq flavour). Every rank then
// fails the same way and names the same rank: one message, no deadlock.
struct RankFailure {
  int rank = -1;
  int code = 0;
};
RankFailure FirstFailure(int code, int communicator);

// True on every rank when `value` is the same on every rank of
// `communicator` (a collective call; true in the seq flavour).
bool SameOnAllRanks(long long value, int communicator);

// x[0..n) := the sum over the ranks of x[0..n), on every rank of
// `communicator` (a collective call; nothing in the seq flavour). Summed on
// the host, then broadcast: bitwise the same on every rank.
void SumOverRanks(double* x, int n, int communicator);

// x[0..n) := the host's x[0..n), on every rank of `communicator`.
void BroadcastFromHost(double* x, int n, int communicator);
void BroadcastFromHost(float* x, int n, int communicator);
void BroadcastFromHost(int* x, int n, int communicator);

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_MUMPS_COMM_H_
