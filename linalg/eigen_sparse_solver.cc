// Eigen SparseLU backend.
#include "linalg/eigen_sparse_solver.h"

#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <algorithm>

namespace fcsn::internal {

struct EigenSparseSolver::Impl {
  using Matrix = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;
  Matrix matrix;  // the pattern, with the values of the last Factorize()
  Eigen::SparseLU<Matrix, Eigen::COLAMDOrdering<int>> lu;
};

EigenSparseSolver::EigenSparseSolver(const LinearSolverOptions& /*options*/)
    : impl_(std::make_unique<Impl>()) {}

EigenSparseSolver::~EigenSparseSolver() = default;

LinearSolverStatus EigenSparseSolver::DoAnalyze(const SparsityPattern& pattern,
                                                std::string* /*message*/) {
  Impl& m = *impl_;
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
  m.lu.analyzePattern(m.matrix);
  mutable_stats().ordering_used = "colamd";
  return LinearSolverStatus::kSuccess;
}

LinearSolverStatus EigenSparseSolver::DoFactorize(const double* values,
                                                  std::string* message) {
  using linalg_detail::Report;
  Impl& m = *impl_;
  std::copy(values, values + pattern().nnz(), m.matrix.valuePtr());
  m.lu.factorize(m.matrix);
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
  LinearSolverStats& stats = mutable_stats();
  stats.factor_entries = static_cast<long long>(m.lu.nnzL() + m.lu.nnzU());
  stats.last_factorization_flops = 0;
  return LinearSolverStatus::kSuccess;
}

LinearSolverStatus EigenSparseSolver::DoSolve(Eigen::VectorXd* rhs,
                                              std::string* message) {
  Impl& m = *impl_;
  Eigen::VectorXd x = m.lu.solve(*rhs);
  if (m.lu.info() != Eigen::Success) {
    return linalg_detail::Report(
        LinearSolverStatus::kFailure,
        "Eigen SparseLU solve failed: " + m.lu.lastErrorMessage(),
        message);
  }
  rhs->swap(x);
  return LinearSolverStatus::kSuccess;
}

}  // namespace fcsn::internal
