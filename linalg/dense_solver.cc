// Dense partial-pivoting LU backend.
#include "linalg/dense_solver.h"

#include <Eigen/LU>
#include <cmath>
#include <limits>

namespace fcsn::internal {

struct DenseSolver::Impl {
  Eigen::MatrixXd matrix;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu;
};

DenseSolver::DenseSolver(const LinearSolverOptions& /*options*/)
    : impl_(std::make_unique<Impl>()) {}

DenseSolver::~DenseSolver() = default;

LinearSolverStatus DenseSolver::DoAnalyze(const SparsityPattern& pattern,
                                          std::string* /*message*/) {
  impl_->matrix.setZero(pattern.n, pattern.n);
  mutable_stats().ordering_used = "none";
  return LinearSolverStatus::kSuccess;
}

LinearSolverStatus DenseSolver::DoFactorize(const double* values,
                                            std::string* message) {
  Impl& m = *impl_;
  const SparsityPattern& pattern = this->pattern();
  const int n = pattern.n;
  for (int j = 0; j < n; ++j) {
    for (int p = pattern.col_ptr[j]; p < pattern.col_ptr[j + 1]; ++p) {
      m.matrix(pattern.row_index[p], j) = values[p];
    }
  }
  m.lu.compute(m.matrix);
  rcond_ = m.lu.rcond();
  LinearSolverStats& stats = mutable_stats();
  stats.factor_entries = static_cast<long long>(n) * n;
  stats.last_factorization_flops = 2.0 / 3.0 * n * static_cast<double>(n) * n;
  // Partial pivoting never fails: an exactly zero pivot stays on U's diagonal,
  // and Eigen's rcond estimate is then meaningless (it can be O(1)).
  const double smallest_pivot =
      m.lu.matrixLU().diagonal().cwiseAbs().minCoeff();
  if (!(smallest_pivot > 0.0)) rcond_ = 0.0;
  if (!(rcond_ >= std::numeric_limits<double>::epsilon())) {
    return linalg_detail::Report(
        LinearSolverStatus::kSingular,
        "dense LU: the matrix is numerically singular (smallest pivot " +
            std::to_string(smallest_pivot) + ", rcond estimate " +
            std::to_string(rcond_) + ")",
        message);
  }
  return LinearSolverStatus::kSuccess;
}

LinearSolverStatus DenseSolver::DoSolve(Eigen::VectorXd* rhs,
                                        std::string* /*message*/) {
  Eigen::VectorXd x = impl_->lu.solve(*rhs);
  rhs->swap(x);
  return LinearSolverStatus::kSuccess;
}

}  // namespace fcsn::internal
