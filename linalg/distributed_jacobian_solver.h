// linalg/distributed_jacobian_solver.h: the Newton matrix of a solve whose M
// is distributed over the ranks, factorized by MUMPS with
// distributed assembled input (mumps_distributed.h, ICNTL(18) = 3):
//
//   J = J_0 + [ M  0 ]      J_0: replicated on every rank, the pattern given
//             [ 0  0 ],          to Analyze() (its M block holds only the
//                                diagonal slots),
//                           M = sum over ranks of the local block entries
//                               (global indices < n, duplicates summed).
//
// The host (rank 0) hands J_0's entries to MUMPS, every rank its local block
// entries; MUMPS sums them. Nothing of J_0 is taken from the other ranks, so
// J is the same whatever the partition of M.
//
// Contract beyond LinearSolver's (linear_solver.h):
//   * SetLocalBlock(rows, cols) before Analyze(): the local block's
//     coordinates (copied); Analyze() uses them.
//   * Factorize(values): values holds pattern().nnz() values of J_0 in CSC
//     order, then one value per local block entry (SetLocalBlock's order),
//     already scaled as J_0's M block is.
//   * Every call is collective over LinearSolverOptions::mpi_communicator;
//     statuses are the same on every rank (mumps_distributed.h).
//   * d-MUMPS only: FactorizationPrecision::kMixed is factorized in double
//     precision (declared, not an error).
#ifndef FCSN_LINALG_DISTRIBUTED_JACOBIAN_SOLVER_H_
#define FCSN_LINALG_DISTRIBUTED_JACOBIAN_SOLVER_H_

#include <memory>
#include <string>
#include <vector>

#include "linalg/linear_solver.h"
#include "linalg/mumps_distributed.h"

namespace fcsn::internal {

class DistributedJacobianSolver final : public LinearSolver {
 public:
  // nullptr and a message (the same on every rank) if the options are
  // invalid or MUMPS cannot start.
  static std::unique_ptr<DistributedJacobianSolver> Create(
      const LinearSolverOptions& options, std::string* message);
  ~DistributedJacobianSolver() override;

  void SetLocalBlock(const std::vector<int>& rows,
                     const std::vector<int>& cols);
  // True on every rank when, on some rank, (rows, cols) is not the block of
  // the last Analyze() (collective).
  bool BlockChangedOnAnyRank(const std::vector<int>& rows,
                             const std::vector<int>& cols) const;

 private:
  DistributedJacobianSolver(const LinearSolverOptions& options,
                            std::unique_ptr<DistributedMumpsSolver> mumps);
  LinearSolverStatus DoAnalyze(const SparsityPattern& pattern,
                               std::string* message) override;
  LinearSolverStatus DoFactorize(const double* values,
                                 std::string* message) override;
  LinearSolverStatus DoSolve(Eigen::VectorXd* rhs,
                             std::string* message) override;

  int communicator_ = 0;
  bool host_ = true;
  std::unique_ptr<DistributedMumpsSolver> mumps_;
  std::vector<int> block_rows_, block_cols_;        // SetLocalBlock()'s
  std::vector<int> analyzed_rows_, analyzed_cols_;  // the last Analyze()'s
  std::vector<double> local_values_;                // Factorize()'s input
};

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_DISTRIBUTED_JACOBIAN_SOLVER_H_
