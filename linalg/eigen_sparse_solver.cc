// Eigen SparseLU backend.
#include "linalg/eigen_sparse_solver.h"

#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <algorithm>
#include <chrono>

namespace fcsn::internal {
namespace {
using Clock = std::chrono::steady_clock;
double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}
}  // namespace

struct EigenSparseSolver::Impl {
  using Matrix = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;
  SparsityPattern pattern;
  Matrix matrix;  // the pattern, with the values of the last Factorize()
  Eigen::SparseLU<Matrix, Eigen::COLAMDOrdering<int>> lu;
  bool analyzed = false;
  bool factorized = false;
};

EigenSparseSolver::EigenSparseSolver(const LinearSolverOptions& /*options*/)
    : impl_(std::make_unique<Impl>()) {}

EigenSparseSolver::~EigenSparseSolver() = default;

LinearSolverStatus EigenSparseSolver::Analyze(const SparsityPattern& pattern,
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
  const int n = pattern.n;
  // Build the compressed matrix directly from the CSC arrays (already sorted,
  // no duplicates).
  m.matrix = Impl::Matrix(n, n);
  m.matrix.resizeNonZeros(pattern.nnz());
  std::copy(
      pattern.col_ptr.begin(), pattern.col_ptr.end(), m.matrix.outerIndexPtr());
  std::copy(pattern.row_index.begin(),
            pattern.row_index.end(),
            m.matrix.innerIndexPtr());
  std::fill(m.matrix.valuePtr(), m.matrix.valuePtr() + pattern.nnz(), 0.0);
  if (n > 0) m.lu.analyzePattern(m.matrix);
  ++stats_.analyses;
  stats_.ordering_used = "colamd";
  stats_.analysis_seconds += SecondsSince(start);
  m.analyzed = true;
  return Report(LinearSolverStatus::kSuccess, "", message);
}

LinearSolverStatus EigenSparseSolver::Factorize(const double* values,
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
  if (m.pattern.n == 0) {
    m.factorized = true;
    return Report(LinearSolverStatus::kSuccess, "", message);
  }
  std::copy(values, values + m.pattern.nnz(), m.matrix.valuePtr());
  m.lu.factorize(m.matrix);
  stats_.factorization_seconds += SecondsSince(start);
  switch (m.lu.info()) {
    case Eigen::Success:
      break;
    case Eigen::NumericalIssue:
      return Report(LinearSolverStatus::kSingular,
                    "Eigen SparseLU: the matrix is numerically singular (" +
                        m.lu.lastErrorMessage() + ")",
                    message);
    case Eigen::NoConvergence:
    case Eigen::InvalidInput:
      return Report(
          LinearSolverStatus::kFailure,
          "Eigen SparseLU factorization failed: " + m.lu.lastErrorMessage(),
          message);
  }
  const Eigen::Index nnz_l = m.lu.nnzL();
  const Eigen::Index nnz_u = m.lu.nnzU();
  stats_.factor_entries = static_cast<long long>(nnz_l + nnz_u);
  stats_.last_factorization_flops = 0;
  m.factorized = true;
  return Report(LinearSolverStatus::kSuccess, "", message);
}

LinearSolverStatus EigenSparseSolver::Solve(Eigen::VectorXd* rhs,
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
  if (m.lu.info() != Eigen::Success) {
    return Report(LinearSolverStatus::kFailure,
                  "Eigen SparseLU solve failed: " + m.lu.lastErrorMessage(),
                  message);
  }
  if (!x.allFinite()) {
    return Report(LinearSolverStatus::kSingular,
                  "Eigen SparseLU solve produced non-finite entries: the "
                  "matrix is numerically "
                  "singular or too ill-conditioned",
                  message);
  }
  rhs->swap(x);
  return Report(LinearSolverStatus::kSuccess, "", message);
}

}  // namespace fcsn::internal
