// Dense partial-pivoting LU backend.
#include "linalg/dense_solver.h"

#include <Eigen/LU>
#include <chrono>
#include <cmath>
#include <limits>

namespace fcsn::internal {
namespace {
using Clock = std::chrono::steady_clock;
double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}
}  // namespace

struct DenseSolver::Impl {
  SparsityPattern pattern;
  Eigen::MatrixXd matrix;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu;
  bool analyzed = false;
  bool factorized = false;
};

DenseSolver::DenseSolver(const LinearSolverOptions& /*options*/)
    : impl_(std::make_unique<Impl>()) {}

DenseSolver::~DenseSolver() = default;

LinearSolverStatus DenseSolver::Analyze(const SparsityPattern& pattern,
                                        std::string* message) {
  using linalg_detail::Report;
  Impl& m = *impl_;
  m.analyzed = false;
  m.factorized = false;
  if (std::string why = CheckPattern(pattern); !why.empty()) {
    return Report(LinearSolverStatus::kInvalidInput, why, message);
  }
  const Clock::time_point start = Clock::now();
  m.pattern = pattern;
  m.matrix.setZero(pattern.n, pattern.n);
  ++stats_.analyses;
  stats_.ordering_used = "none";
  stats_.analysis_seconds += SecondsSince(start);
  m.analyzed = true;
  return Report(LinearSolverStatus::kSuccess, "", message);
}

LinearSolverStatus DenseSolver::Factorize(const double* values,
                                          std::string* message) {
  using linalg_detail::Report;
  Impl& m = *impl_;
  m.factorized = false;
  if (const LinearSolverStatus status = linalg_detail::CheckFactorizeArguments(
          m.analyzed, values, m.pattern, message);
      status != LinearSolverStatus::kSuccess) {
    return status;
  }
  const Clock::time_point start = Clock::now();
  ++stats_.factorizations;
  const int n = m.pattern.n;
  if (n == 0) {
    m.factorized = true;
    return Report(LinearSolverStatus::kSuccess, "", message);
  }
  for (int j = 0; j < n; ++j) {
    for (int p = m.pattern.col_ptr[j]; p < m.pattern.col_ptr[j + 1]; ++p) {
      m.matrix(m.pattern.row_index[p], j) = values[p];
    }
  }
  m.lu.compute(m.matrix);
  rcond_ = m.lu.rcond();
  stats_.factorization_seconds += SecondsSince(start);
  stats_.factor_entries = static_cast<long long>(n) * n;
  stats_.last_factorization_flops = 2.0 / 3.0 * n * static_cast<double>(n) * n;
  // Partial pivoting never fails: an exactly zero pivot stays on U's diagonal,
  // and Eigen's rcond estimate is then meaningless (it can be O(1)).
  const double smallest_pivot =
      m.lu.matrixLU().diagonal().cwiseAbs().minCoeff();
  if (!(smallest_pivot > 0.0)) rcond_ = 0.0;
  if (!(rcond_ >= std::numeric_limits<double>::epsilon())) {
    return Report(LinearSolverStatus::kSingular,
                  "dense LU: the matrix is numerically singular (smallest "
                  "pivot " +
                      std::to_string(smallest_pivot) + ", rcond estimate " +
                      std::to_string(rcond_) + ")",
                  message);
  }
  m.factorized = true;
  return Report(LinearSolverStatus::kSuccess, "", message);
}

LinearSolverStatus DenseSolver::Solve(Eigen::VectorXd* rhs,
                                      std::string* message) {
  using linalg_detail::Report;
  Impl& m = *impl_;
  if (const LinearSolverStatus status = linalg_detail::CheckSolveArguments(
          m.analyzed, m.factorized, rhs, m.pattern.n, message);
      status != LinearSolverStatus::kSuccess) {
    return status;
  }
  const Clock::time_point start = Clock::now();
  ++stats_.solves;
  if (m.pattern.n == 0)
    return Report(LinearSolverStatus::kSuccess, "", message);
  Eigen::VectorXd x = m.lu.solve(*rhs);
  stats_.solve_seconds += SecondsSince(start);
  if (!x.allFinite()) {
    return Report(LinearSolverStatus::kSingular,
                  "dense LU solve produced non-finite entries",
                  message);
  }
  rhs->swap(x);
  return Report(LinearSolverStatus::kSuccess, "", message);
}

}  // namespace fcsn::internal
