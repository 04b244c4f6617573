// LinearSolver factory, status names, and the checks, state, counters and
// timings shared by every backend (the template methods Analyze / Factorize /
// Solve).
#include "linalg/linear_solver.h"

#include <cmath>

#include "linalg/dense_solver.h"
#include "linalg/eigen_sparse_solver.h"
#include "linalg/mumps_solver.h"
#include "linalg/stopwatch.h"

namespace fcsn::internal {

const char* ToString(LinearSolverStatus status) {
  switch (status) {
    case LinearSolverStatus::kSuccess:
      return "success";
    case LinearSolverStatus::kSingular:
      return "singular";
    case LinearSolverStatus::kOutOfMemory:
      return "out-of-memory";
    case LinearSolverStatus::kInvalidInput:
      return "invalid-input";
    case LinearSolverStatus::kNotReady:
      return "not-ready";
    case LinearSolverStatus::kUnavailable:
      return "unavailable";
    case LinearSolverStatus::kFailure:
      return "failure";
  }
  return "?";
}

namespace {

// The block_starts part of CheckPattern().
std::string CheckBlockStarts(const SparsityPattern& pattern) {
  const std::vector<int>& starts = pattern.block_starts;
  if (starts.empty()) return "";
  if (starts[0] != 0) {
    return "the pattern's block_starts[0] = " + std::to_string(starts[0]) +
           ", expected 0";
  }
  for (size_t k = 1; k < starts.size(); ++k) {
    if (starts[k] <= starts[k - 1] || starts[k] >= pattern.n) {
      return "the pattern's block_starts[" + std::to_string(k) +
             "] = " + std::to_string(starts[k]) +
             " is not increasing within [0, n = " + std::to_string(pattern.n) +
             ")";
    }
  }
  return "";
}

}  // namespace

std::string CheckPattern(const SparsityPattern& pattern) {
  const int n = pattern.n;
  if (n < 0) return "the pattern has n = " + std::to_string(n) + " < 0";
  if (pattern.col_ptr.size() != static_cast<size_t>(n) + 1) {
    return "the pattern's col_ptr has " +
           std::to_string(pattern.col_ptr.size()) +
           " entries, expected n + 1 = " + std::to_string(n + 1);
  }
  if (pattern.col_ptr[0] != 0) {
    return "the pattern's col_ptr[0] = " + std::to_string(pattern.col_ptr[0]) +
           ", expected 0";
  }
  for (int j = 0; j < n; ++j) {
    if (pattern.col_ptr[j + 1] < pattern.col_ptr[j]) {
      return "the pattern's col_ptr decreases at column " + std::to_string(j);
    }
  }
  if (pattern.row_index.size() != static_cast<size_t>(pattern.col_ptr[n])) {
    return "the pattern's row_index has " +
           std::to_string(pattern.row_index.size()) +
           " entries but col_ptr[n] = " + std::to_string(pattern.col_ptr[n]);
  }
  for (int j = 0; j < n; ++j) {
    for (int p = pattern.col_ptr[j]; p < pattern.col_ptr[j + 1]; ++p) {
      const int i = pattern.row_index[p];
      if (i < 0 || i >= n) {
        return "row index " + std::to_string(i) + " in column " +
               std::to_string(j) + " is out of range [0, " + std::to_string(n) +
               ")";
      }
      if (p > pattern.col_ptr[j] && i <= pattern.row_index[p - 1]) {
        return "row indices of column " + std::to_string(j) + " are " +
               (i == pattern.row_index[p - 1]
                    ? "duplicated (row " + std::to_string(i) + ")"
                    : "not sorted (row " + std::to_string(i) + " after row " +
                          std::to_string(pattern.row_index[p - 1]) + ")");
      }
    }
  }
  return CheckBlockStarts(pattern);
}

std::unique_ptr<LinearSolver> LinearSolver::Create(
    const LinearSolverOptions& options, std::string* message) {
  if (std::string why = options.Validate(); !why.empty()) {
    linalg_detail::Report(LinearSolverStatus::kInvalidInput, why, message);
    return nullptr;
  }
  switch (options.type) {
    case LinearSolverType::kMumps:
      return MumpsSolver::Create(options, message);
    case LinearSolverType::kEigenLU:
      return std::make_unique<EigenSparseSolver>(options);
    case LinearSolverType::kDense:
      return std::make_unique<DenseSolver>(options);
  }
  linalg_detail::Report(LinearSolverStatus::kInvalidInput,
                        "unknown LinearSolverType value " +
                            std::to_string(static_cast<int>(options.type)),
                        message);
  return nullptr;
}

namespace linalg_detail {

LinearSolverStatus Report(LinearSolverStatus status,
                          const std::string& text,
                          std::string* message) {
  if (message != nullptr) *message = text;
  return status;
}

}  // namespace linalg_detail

namespace {

using linalg_detail::Report;

// "" when `values` may be factorized on `pattern`, else a sentence.
std::string CheckValues(const double* values, const SparsityPattern& pattern) {
  if (values == nullptr && pattern.nnz() > 0)
    return "the values pointer is null";
  for (int j = 0; j < pattern.n; ++j) {
    for (int p = pattern.col_ptr[j]; p < pattern.col_ptr[j + 1]; ++p) {
      if (!std::isfinite(values[p])) {
        return "value " + std::to_string(p) + " (row " +
               std::to_string(pattern.row_index[p]) + ", column " +
               std::to_string(j) + ") is not finite";
      }
    }
  }
  return "";
}

// "" when `rhs` may be solved for on an n x n system, else a sentence.
std::string CheckRhs(const Eigen::VectorXd* rhs, int n) {
  if (rhs == nullptr) return "the right-hand side pointer is null";
  if (rhs->size() != n) {
    return "the right-hand side has size " + std::to_string(rhs->size()) +
           ", expected n = " + std::to_string(n);
  }
  if (!rhs->allFinite()) return "the right-hand side has non-finite entries";
  return "";
}

}  // namespace

LinearSolver::~LinearSolver() = default;

LinearSolverStatus LinearSolver::Analyze(const SparsityPattern& pattern,
                                         std::string* message) {
  analyzed_ = false;
  factorized_ = false;
  if (std::string why = CheckPattern(pattern); !why.empty()) {
    return Report(LinearSolverStatus::kInvalidInput, why, message);
  }
  ScopedTimer timer(&stats_.analysis_seconds);
  pattern_ = pattern;
  ++stats_.analyses;
  stats_.estimated_factor_entries = 0;
  stats_.estimated_flops = 0;
  stats_.estimated_memory_mb = 0;
  stats_.estimated_memory_mb_max_rank = 0;
  stats_.ordering_seconds = 0;
  stats_.reanalysis_estimate_flops = 0;
  LinearSolverStatus status = LinearSolverStatus::kSuccess;
  if (pattern.n == 0) {
    stats_.ordering_used = "none";
  } else {
    status = DoAnalyze(pattern_, message);
  }
  analyzed_ = status == LinearSolverStatus::kSuccess;
  if (analyzed_) Report(status, "", message);
  return status;
}

LinearSolverStatus LinearSolver::Factorize(const double* values,
                                           std::string* message) {
  return CheckedFactorize(/*symmetric=*/false, values, message);
}

LinearSolverStatus LinearSolver::FactorizeSymmetric(const double* values,
                                                    std::string* message) {
  return CheckedFactorize(/*symmetric=*/true, values, message);
}

LinearSolverStatus LinearSolver::DoFactorizeSymmetric(const double*,
                                                      std::string* message) {
  return Report(LinearSolverStatus::kUnavailable,
                "this linear solver has no symmetric (LDL^T) factorization",
                message);
}

LinearSolverStatus LinearSolver::CheckedFactorize(bool symmetric,
                                                  const double* values,
                                                  std::string* message) {
  factorized_ = false;
  if (!analyzed_) {
    return Report(LinearSolverStatus::kNotReady,
                  "Factorize called before Analyze",
                  message);
  }
  if (std::string why = CheckValues(values, pattern_); !why.empty()) {
    return Report(LinearSolverStatus::kInvalidInput, why, message);
  }
  const SteadyClock::time_point start = SteadyClock::now();
  ++stats_.factorizations;
  reanalysis_seconds_ = 0;
  LinearSolverStatus status = LinearSolverStatus::kSuccess;
  if (pattern_.n > 0) {
    status = symmetric ? DoFactorizeSymmetric(values, message)
                       : DoFactorize(values, message);
  }
  stats_.factorization_seconds += SecondsSince(start) - reanalysis_seconds_;
  factorized_ = status == LinearSolverStatus::kSuccess;
  if (factorized_) Report(status, "", message);
  return status;
}

LinearSolverStatus LinearSolver::Solve(Eigen::VectorXd* rhs,
                                       std::string* message,
                                       const ResidualTest& sufficient) {
  return CheckedSolve(
      /*unrefined=*/false, rhs, sufficient ? &sufficient : nullptr, message);
}

LinearSolverStatus LinearSolver::SolveUnrefined(Eigen::VectorXd* rhs,
                                                std::string* message) {
  return CheckedSolve(/*unrefined=*/true, rhs, nullptr, message);
}

LinearSolverStatus LinearSolver::DoSolveUnrefined(Eigen::VectorXd* rhs,
                                                  std::string* message) {
  return DoSolve(rhs, message);
}

LinearSolverStatus LinearSolver::CheckedSolve(bool unrefined,
                                              Eigen::VectorXd* rhs,
                                              const ResidualTest* sufficient,
                                              std::string* message) {
  if (!factorized_) {
    return Report(LinearSolverStatus::kNotReady,
                  analyzed_ ? "Solve called without a successful Factorize"
                            : "Solve called before Analyze and Factorize",
                  message);
  }
  if (std::string why = CheckRhs(rhs, pattern_.n); !why.empty()) {
    return Report(LinearSolverStatus::kInvalidInput, why, message);
  }
  const SteadyClock::time_point start = SteadyClock::now();
  ++stats_.solves;
  refactorization_seconds_ = 0;
  sufficient_ = sufficient;
  LinearSolverStatus status = LinearSolverStatus::kSuccess;
  if (pattern_.n > 0) {
    status = unrefined ? DoSolveUnrefined(rhs, message) : DoSolve(rhs, message);
  }
  sufficient_ = nullptr;
  if (status == LinearSolverStatus::kSuccess && !rhs->allFinite()) {
    status = Report(LinearSolverStatus::kSingular,
                    "the solve produced non-finite entries: the matrix is "
                    "numerically singular or too ill-conditioned",
                    message);
  }
  stats_.factorization_seconds += refactorization_seconds_;
  stats_.solve_seconds += SecondsSince(start) - refactorization_seconds_;
  if (status == LinearSolverStatus::kSuccess) Report(status, "", message);
  return status;
}

}  // namespace fcsn::internal
