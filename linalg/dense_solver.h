// linalg/dense_solver.h: LinearSolver on a dense LU with partial pivoting
// (Eigen PartialPivLU), for tests and tiny systems only: O(n^2) memory and
// O(n^3) work per factorization.
//
// Analyze() validates and stores the pattern; Factorize() scatters the values
// into a dense n x n matrix and factorizes it. Partial pivoting alone never
// fails, so the factorization is rejected as kSingular when a pivot is exactly
// zero or the reciprocal condition estimate rcond_1(J) (PartialPivLU::rcond) is
// below machine epsilon.
// stats().ordering_used is "none".
#ifndef FCSN_LINALG_DENSE_SOLVER_H_
#define FCSN_LINALG_DENSE_SOLVER_H_

#include <memory>
#include <string>

#include "linalg/linear_solver.h"

namespace fcsn::internal {

class DenseSolver final : public LinearSolver {
 public:
  explicit DenseSolver(const LinearSolverOptions& options);
  ~DenseSolver() override;

  // Reciprocal 1-norm condition estimate of the last factorized matrix (0
  // before any).
  double rcond() const { return rcond_; }

 private:
  LinearSolverStatus DoAnalyze(const SparsityPattern& pattern,
                               std::string* message) override;
  LinearSolverStatus DoFactorize(const double* values,
                                 std::string* message) override;
  LinearSolverStatus DoSolve(Eigen::VectorXd* rhs,
                             std::string* message) override;

  struct Impl;  // keeps <Eigen/LU> out of this header
  std::unique_ptr<Impl> impl_;
  double rcond_ = 0;
};

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_DENSE_SOLVER_H_
