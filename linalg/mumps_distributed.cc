// Distributed assembled input on MUMPS (ICNTL(18) = 3): the global checks of
// the local entries and values, then the d-MUMPS instance of
// mumps_instance.h on the local coordinates.
#include "linalg/mumps_distributed.h"

#include <algorithm>
#include <utility>

#include "linalg/local_entries.h"
#include "linalg/mumps_comm.h"
#include "linalg/mumps_instance.h"

namespace fcsn::internal {
namespace {

// A reason beyond linalg/local_entries.h's (codes of FirstFailure()).
constexpr int kRhsSize = kLocalNotFinite + 1;
constexpr int kInvalidPattern = kRhsSize + 1;

const char* LocalErrorText(int code) {
  switch (code) {
    case kLocalSizeMismatch:
      return "its local rows and columns differ in size";
    case kLocalIndexOutOfRange:
      return "a local entry's row or column is outside 0..n-1";
    case kLocalNotFinite:
      return "a local value (or a right-hand side entry) is not finite";
    case kInvalidPattern:
      return "the pattern of A^-1 entries is malformed or differs in size";
    case kRhsSize:
      return "its right-hand side does not have n rows (or is empty or too "
             "large)";
    default:
      return "invalid local input";
  }
}

// kSuccess when no rank failed; else kInvalidInput on every rank, with one
// message naming the first failing rank.
LinearSolverStatus Agree(int local_code,
                         const char* phase,
                         int communicator,
                         std::string* message) {
  const RankFailure failure = FirstFailure(local_code, communicator);
  if (failure.rank < 0) {
    return linalg_detail::Report(LinearSolverStatus::kSuccess, "", message);
  }
  return linalg_detail::Report(
      LinearSolverStatus::kInvalidInput,
      std::string("distributed MUMPS input, ") + phase + ": rank " +
          std::to_string(failure.rank) + ": " + LocalErrorText(failure.code),
      message);
}

}  // namespace

struct DistributedMumpsSolver::Impl {
  LinearSolverOptions options;
  MumpsAnalysisInput input;  // this rank's 1-based coordinates
  MumpsWorkspace workspace;
  MumpsInstance<double> instance;
  // Factors of the last Factorize() usable; a failed Factorize() (including
  // a refused input) invalidates them, as in LinearSolver's contract.
  bool factorized = false;
};

DistributedMumpsSolver::DistributedMumpsSolver(
    const LinearSolverOptions& options)
    : impl_(std::make_unique<Impl>()) {
  impl_->options = options;
  impl_->workspace.relaxation_percent = options.workspace_relaxation_percent;
}

DistributedMumpsSolver::~DistributedMumpsSolver() = default;

std::unique_ptr<DistributedMumpsSolver> DistributedMumpsSolver::Create(
    const LinearSolverOptions& options, std::string* message) {
  if (std::string why = options.Validate(); !why.empty()) {
    linalg_detail::Report(LinearSolverStatus::kInvalidInput, why, message);
    return nullptr;
  }
  std::unique_ptr<DistributedMumpsSolver> solver(
      new DistributedMumpsSolver(options));
  if (solver->impl_->instance.Init(options, message) !=
      LinearSolverStatus::kSuccess) {
    return nullptr;
  }
  return solver;
}

LinearSolverStatus DistributedMumpsSolver::Analyze(int n,
                                                   const std::vector<int>& rows,
                                                   const std::vector<int>& cols,
                                                   std::string* message) {
  Impl& m = *impl_;
  const int comm = m.options.mpi_communicator;
  if (!SameOnAllRanks(n, comm) || n < 1) {
    return linalg_detail::Report(
        LinearSolverStatus::kInvalidInput,
        "distributed MUMPS input, analysis: n must be the same positive size "
        "on every rank",
        message);
  }
  if (const LinearSolverStatus status =
          Agree(CheckLocalEntries(n, n, rows, cols, nullptr),
                "analysis",
                comm,
                message);
      status != LinearSolverStatus::kSuccess) {
    return status;
  }
  m.factorized = false;
  m.input.n = n;
  m.input.distributed = true;
  m.input.irn.resize(rows.size());
  m.input.jcn.resize(cols.size());
  for (size_t k = 0; k < rows.size(); ++k) {
    m.input.irn[k] = rows[k] + 1;
    m.input.jcn[k] = cols[k] + 1;
  }
  // MUMPS gathers the structure itself: its built-in METIS stands for fcsn's
  // host-side METIS (ICNTL(7) = 5); kPtScotch analyses in parallel.
  m.input.perm_in.clear();
  m.input.icntl7 = m.options.ordering == Ordering::kMetis
                       ? 5
                       : MumpsOrderingIcntl7(m.options.ordering);
  m.input.parallel_analysis =
      m.options.ordering == Ordering::kPtScotch && MumpsHasParallelAnalysis();
  return m.instance.Analyze(&m.input, message);
}

LinearSolverStatus DistributedMumpsSolver::Factorize(const double* values,
                                                     std::string* message) {
  Impl& m = *impl_;
  m.factorized = false;
  if (!m.instance.analyzed()) {
    return linalg_detail::Report(LinearSolverStatus::kNotReady,
                                 "distributed MUMPS: Factorize before Analyze",
                                 message);
  }
  if (const LinearSolverStatus status =
          Agree(CheckFiniteValues(values, m.input.irn.size()),
                "factorization",
                m.options.mpi_communicator,
                message);
      status != LinearSolverStatus::kSuccess) {
    return status;
  }
  const LinearSolverStatus status =
      m.instance.Factorize(values, &m.workspace, message);
  m.factorized = status == LinearSolverStatus::kSuccess;
  return status;
}

LinearSolverStatus DistributedMumpsSolver::Solve(Eigen::VectorXd* rhs,
                                                 std::string* message) {
  Impl& m = *impl_;
  if (!m.factorized) {
    return linalg_detail::Report(
        LinearSolverStatus::kNotReady,
        "distributed MUMPS: Solve without a successful factorization",
        message);
  }
  const int local = rhs->size() != m.input.n
                        ? kRhsSize
                        : CheckFiniteValues(rhs->data(), rhs->size());
  if (const LinearSolverStatus status =
          Agree(local, "solve", m.options.mpi_communicator, message);
      status != LinearSolverStatus::kSuccess) {
    return status;
  }
  if (const LinearSolverStatus status =
          m.instance.Solve(rhs->data(), &m.workspace, message);
      status != LinearSolverStatus::kSuccess) {
    return status;
  }
  // The broadcast solution is the same on every rank, and so is this test.
  if (!rhs->allFinite()) {
    return linalg_detail::Report(
        LinearSolverStatus::kSingular,
        "distributed MUMPS: the solution has non-finite entries",
        message);
  }
  return linalg_detail::Report(LinearSolverStatus::kSuccess, "", message);
}

namespace {

// 0 when (col_ptr, rows) is a pattern by columns of an n x n matrix with
// strictly increasing rows in each column, else kInvalidPattern.

int CheckPattern(int n,
                 const std::vector<int>& col_ptr,
                 const std::vector<int>& rows) {
  if (static_cast<int>(col_ptr.size()) != n + 1 || col_ptr[0] != 0 ||
      col_ptr[n] != static_cast<int>(rows.size())) {
    return kInvalidPattern;
  }
  for (int j = 0; j < n; ++j) {
    if (col_ptr[j + 1] < col_ptr[j]) return kInvalidPattern;
    for (int k = col_ptr[j]; k < col_ptr[j + 1]; ++k) {
      if (rows[k] < 0 || rows[k] >= n ||
          (k > col_ptr[j] && rows[k] <= rows[k - 1])) {
        return kInvalidPattern;
      }
    }
  }
  return 0;
}

}  // namespace

LinearSolverStatus DistributedMumpsSolver::InverseEntries(
    const std::vector<int>& col_ptr,
    const std::vector<int>& rows,
    std::vector<double>* values,
    std::string* message) {
  Impl& m = *impl_;
  if (!m.factorized) {
    return linalg_detail::Report(
        LinearSolverStatus::kNotReady,
        "distributed MUMPS: InverseEntries without a successful factorization",
        message);
  }
  const int comm = m.options.mpi_communicator;
  const int nz = static_cast<int>(rows.size());
  if (const LinearSolverStatus status = Agree(
          !SameOnAllRanks(nz, comm) ? kInvalidPattern
                                    : CheckPattern(m.input.n, col_ptr, rows),
          "inverse entries",
          comm,
          message);
      status != LinearSolverStatus::kSuccess) {
    return status;
  }
  values->assign(nz, 0.0);
  if (nz == 0)
    return linalg_detail::Report(LinearSolverStatus::kSuccess, "", message);
  // MUMPS' 1-based copies; it writes the pattern back with the entries.
  std::vector<int> ptr(col_ptr.size()), irn(rows.size());
  for (size_t j = 0; j < ptr.size(); ++j) ptr[j] = col_ptr[j] + 1;
  for (int k = 0; k < nz; ++k) irn[k] = rows[k] + 1;
  std::vector<double> out(nz);
  if (const LinearSolverStatus status = m.instance.InverseEntries(
          ptr.data(), irn.data(), out.data(), nz, &m.workspace, message);
      status != LinearSolverStatus::kSuccess) {
    return status;
  }
  // Back in the caller's order (the pattern is unique and sorted per column).
  for (int j = 0; j < m.input.n; ++j) {
    for (int k = ptr[j] - 1; k < ptr[j + 1] - 1; ++k) {
      const auto first = rows.begin() + col_ptr[j];
      const auto last = rows.begin() + col_ptr[j + 1];
      const auto at = std::lower_bound(first, last, irn[k] - 1);
      if (at == last || *at != irn[k] - 1) {
        return linalg_detail::Report(
            LinearSolverStatus::kFailure,
            "distributed MUMPS: A^-1 entries came back on another pattern",
            message);
      }
      (*values)[at - rows.begin()] = out[k];
    }
  }
  // The broadcast entries are the same on every rank, and so is this test.
  if (!Eigen::Map<const Eigen::VectorXd>(values->data(), nz).allFinite()) {
    return linalg_detail::Report(
        LinearSolverStatus::kSingular,
        "distributed MUMPS: an entry of A^-1 is not finite",
        message);
  }
  return linalg_detail::Report(LinearSolverStatus::kSuccess, "", message);
}

int DistributedMumpsSolver::Infog(int i) const {
  return i >= 1 && i <= 80 ? impl_->instance.infog(i) : 0;
}

int DistributedMumpsSolver::Icntl(int i) const {
  return i >= 1 && i <= 60 ? impl_->instance.icntl(i) : 0;
}

}  // namespace fcsn::internal
