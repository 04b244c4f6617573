// linalg/mumps_distributed.h: x = A^-1 b on MPI MUMPS with distributed
// assembled input (ICNTL(18) = 3): a FEM code that already holds
// its matrix distributed hands each rank's local entries to MUMPS instead of
// gathering A on the host.
//
//   A = sum over ranks p of sum over p's local entries k of
//       a_k e_{row_k} e_{col_k}^T,
//
// so any partition of A's entries over the ranks is allowed (by rows, by
// elements, arbitrary), and an entry may be split into parts on one or several
// ranks: MUMPS sums repeated entries. Indices are 0-based and global.
//
// Collective calls: every rank of LinearSolverOptions::mpi_communicator calls
// Analyze / Factorize / Solve in the same order (replicated control, as in
// mumps_comm.h). Decisions are global: a bad entry or value on one rank makes
// the call fail on every rank with the same status and message (naming the
// first offending rank), before MUMPS is reached; MUMPS' own errors are read
// from INFOG, equal on every rank. No rank returns while another waits.
//
//   Analyze(n, rows, cols)  JOB = 1 on the local coordinates (kept: the
//                           values of Factorize() follow their order);
//   Factorize(values)       JOB = 2 on the local values (rows.size() of them);
//   Solve(&rhs)             JOB = 3 on the host's rhs (centralized, n
//                           entries); the solution is broadcast, so every
//                           rank returns the same x.
//   InverseEntries(pattern) selected entries of A^-1 (ICNTL(30) = 1), the
//                           same on every rank.
//
// d-MUMPS only (double precision). Ordering: MUMPS gathers the structure
// itself, so fcsn's METIS ordering (which needs the whole pattern on one
// process) is replaced by MUMPS' built-in METIS (ICNTL(7) = 5); kPtScotch
// analyses in parallel (ICNTL(28) = 2) in the mpi flavour; the other
// orderings map as in MumpsSolver. In the seq flavour the calls work on one
// process (all entries are local), so the same code runs in both flavours.
#ifndef FCSN_LINALG_MUMPS_DISTRIBUTED_H_
#define FCSN_LINALG_MUMPS_DISTRIBUTED_H_

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "linalg/linear_solver.h"

namespace fcsn::internal {

class DistributedMumpsSolver {
 public:
  // MUMPS job -1 on options.mpi_communicator (collective); nullptr and a message
  // if the options are invalid or MUMPS cannot start.
  static std::unique_ptr<DistributedMumpsSolver> Create(
      const LinearSolverOptions& options, std::string* message);
  ~DistributedMumpsSolver();
  DistributedMumpsSolver(const DistributedMumpsSolver&) = delete;
  DistributedMumpsSolver& operator=(const DistributedMumpsSolver&) = delete;

  // Symbolic analysis of the n x n matrix whose local entries on this rank are
  // (rows[k], cols[k]). kInvalidInput on every rank if n differs between
  // ranks, n < 1, the arrays differ in size or an index is outside 0..n-1 on
  // some rank.
  LinearSolverStatus Analyze(int n,
                             const std::vector<int>& rows,
                             const std::vector<int>& cols,
                             std::string* message);
  // Numeric LU of the local values (one per local entry, Analyze()'s order).
  // kInvalidInput on every rank if a value is not finite on some rank.
  LinearSolverStatus Factorize(const double* values, std::string* message);
  // rhs := A^-1 rhs: the host's rhs is used (n entries on every rank), the
  // solution is returned on every rank.
  LinearSolverStatus Solve(Eigen::VectorXd* rhs, std::string* message);
  // Selected entries of A^-1 (MUMPS ICNTL(30) = 1: sparse right-hand sides
  // and solutions, so only the parts of the factors' tree that the pattern
  // reaches are traversed): the pattern is 0-based by columns, col_ptr
  // (n + 1 entries) and rows (rows strictly increasing in each column), the
  // same on every rank; values receives (A^-1)(rows[k], j) for each k of
  // column j, on every rank. kInvalidInput on every rank if the pattern is
  // malformed or differs in size between ranks.
  LinearSolverStatus InverseEntries(const std::vector<int>& col_ptr,
                                    const std::vector<int>& rows,
                                    std::vector<double>* values,
                                    std::string* message);

  // MUMPS' INFOG(i) and ICNTL(i), 1-based (tests and expert logging).
  int Infog(int i) const;
  int Icntl(int i) const;

 private:
  struct Impl;
  explicit DistributedMumpsSolver(const LinearSolverOptions& options);
  std::unique_ptr<Impl> impl_;
};

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_MUMPS_DISTRIBUTED_H_
