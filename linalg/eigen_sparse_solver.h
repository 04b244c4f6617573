// linalg/eigen_sparse_solver.h: LinearSolver on Eigen's SparseLU (supernodal LU
// with partial pivoting), the always-available fallback and the oracle the
// MUMPS backend is tested against.
//
// Analyze() builds the CSC matrix once and runs SparseLU::analyzePattern
// (COLAMD column ordering); Factorize() copies the values into that matrix and
// runs SparseLU::factorize, reusing the analysis.
// Ordering::kMetis/kScotch/kAmd/kAuto all map to COLAMD, reported as "colamd".
// A zero pivot gives kSingular. Thresholds: SparseLU's default diagonal pivot
// threshold (1.0, i.e. plain partial pivoting within each column).
#ifndef FCSN_LINALG_EIGEN_SPARSE_SOLVER_H_
#define FCSN_LINALG_EIGEN_SPARSE_SOLVER_H_

#include <memory>
#include <string>

#include "linalg/linear_solver.h"

namespace fcsn::internal {

class EigenSparseSolver final : public LinearSolver {
 public:
  explicit EigenSparseSolver(const LinearSolverOptions& options);
  ~EigenSparseSolver() override;

 private:
  LinearSolverStatus DoAnalyze(const SparsityPattern& pattern,
                               std::string* message) override;
  LinearSolverStatus DoFactorize(const double* values,
                                 std::string* message) override;
  LinearSolverStatus DoSolve(Eigen::VectorXd* rhs,
                             std::string* message) override;

  struct Impl;  // keeps <Eigen/SparseLU> out of this header
  std::unique_ptr<Impl> impl_;
};

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_EIGEN_SPARSE_SOLVER_H_
