// Sequential MUMPS backend. Every ICNTL/CNTL value fcsn relies on is set
// explicitly, one per line, in Configure(); INFO(1) < 0 is translated in
// MapError() only. Parameter meanings follow the MUMPS 5.5 user guide (Debian
// 12 ships 5.5.1).
#include "linalg/mumps_solver.h"

#include <dmumps_c.h>

#include <algorithm>
#include <chrono>
#include <type_traits>
#include <utility>

#include "linalg/ordering.h"

namespace fcsn::internal {
namespace {

static_assert(std::is_same_v<MUMPS_INT, int>,
              "fcsn passes int index arrays to MUMPS");

// MUMPS JOB values.
constexpr int kJobInit = -1;
constexpr int kJobEnd = -2;
constexpr int kJobAnalyze = 1;
constexpr int kJobFactorize = 2;
constexpr int kJobSolve = 3;
// COMM_FORTRAN value meaning MPI_COMM_WORLD; the sequential library's fake MPI
// accepts it.
constexpr int kUseCommWorld = -987654;
// Upper bound on the ICNTL(14) relaxation reached by the workspace retries.
constexpr int kMaxRelaxationPercent = 1000000;

using Clock = std::chrono::steady_clock;
double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// 1-based accessors, so that the code reads like the user guide.
int& IcntlOf(DMUMPS_STRUC_C& id, int i) { return id.icntl[i - 1]; }
double& CntlOf(DMUMPS_STRUC_C& id, int i) { return id.cntl[i - 1]; }
int InfogOf(const DMUMPS_STRUC_C& id, int i) { return id.infog[i - 1]; }
double RinfogOf(const DMUMPS_STRUC_C& id, int i) { return id.rinfog[i - 1]; }

// INFOG counters that overflow are returned negative, in millions.
long long MumpsCount(int value) {
  return value >= 0 ? value : -static_cast<long long>(value) * 1000000LL;
}

enum class Phase { kInit, kAnalysis, kFactorization, kSolve };
const char* PhaseName(Phase phase) {
  switch (phase) {
    case Phase::kInit:
      return "initialization (JOB=-1)";
    case Phase::kAnalysis:
      return "analysis (JOB=1)";
    case Phase::kFactorization:
      return "factorization (JOB=2)";
    case Phase::kSolve:
      return "solve (JOB=3)";
  }
  return "?";
}

// Codes cured by a larger ICNTL(14) followed by a new factorization.
bool IsWorkspaceError(int info1) {
  switch (info1) {
    case -8:   // integer workarray IS too small for factorization
    case -9:   // real workarray S too small for factorization
    case -11:  // real workarray S too small for solution
    case -14:  // integer workarray IS too small for solution
    case -15:  // integer workarray IS too small for refinement / analysis
    case -17:  // internal send buffer too small
    case -20:  // internal reception buffer too small
      return true;
    default:
      return false;
  }
}

// The one place where MUMPS' INFO(1) < 0 becomes a status and a sentence.
LinearSolverStatus MapError(Phase phase,
                            const DMUMPS_STRUC_C& id,
                            std::string* message) {
  const int info1 = InfogOf(id, 1);
  const int info2 = InfogOf(id, 2);
  const std::string where = std::string("MUMPS ") + PhaseName(phase) +
                            " failed: INFO(1) = " + std::to_string(info1) +
                            ", INFO(2) = " + std::to_string(info2) + ": ";
  auto report = [&](LinearSolverStatus status, const std::string& what) {
    return linalg_detail::Report(status, where + what, message);
  };
  if (IsWorkspaceError(info1)) {
    return report(
        LinearSolverStatus::kOutOfMemory,
        "internal workspace too small even after enlarging ICNTL(14) to " +
            std::to_string(id.icntl[13]) + "%");
  }
  switch (info1) {
    case -10:
      return report(LinearSolverStatus::kSingular,
                    "the matrix is numerically singular (" +
                        std::to_string(info2) + " pivots eliminated)");
    case -6:
      return report(LinearSolverStatus::kSingular,
                    "the matrix is structurally singular (structural rank " +
                        std::to_string(info2) + ")");
    case -5:
    case -7:
    case -13:
      return report(LinearSolverStatus::kOutOfMemory,
                    "allocation failed (INFO(2) = requested size, in millions "
                    "if negative)");
    case -19:
      return report(LinearSolverStatus::kOutOfMemory,
                    "ICNTL(23) memory cap too small");
    case -2:
      return report(LinearSolverStatus::kInvalidInput, "NNZ out of range");
    case -16:
      return report(LinearSolverStatus::kInvalidInput, "N out of range");
    case -4:
      return report(LinearSolverStatus::kInvalidInput,
                    "invalid PERM_IN entry at position INFO(2)");
    case -22:
      return report(LinearSolverStatus::kInvalidInput,
                    "an input array pointer is invalid");
    case -3:
      return report(LinearSolverStatus::kNotReady,
                    "phases called out of order");
    default:
      return report(LinearSolverStatus::kFailure,
                    "see the MUMPS user guide, section on errors");
  }
}

// Name of the ordering MUMPS reports in INFOG(7).
std::string OrderingName(int infog7, bool given_is_metis) {
  switch (infog7) {
    case 0:
      return "amd";
    case 1:
      return given_is_metis ? "metis" : "user";
    case 2:
      return "amf";
    case 3:
      return "scotch";
    case 4:
      return "pord";
    case 5:
      return "metis-mumps";
    case 6:
      return "qamd";
    default:
      return "unknown";
  }
}

int OrderingIcntl7(Ordering ordering) {
  switch (ordering) {
    case Ordering::kMetis:
      return 1;  // given by fcsn through PERM_IN
    case Ordering::kScotch:
      return 3;
    case Ordering::kAmd:
      return 0;
    case Ordering::kAuto:
      return 7;
  }
  return 7;
}

}  // namespace

struct MumpsSolver::Impl {
  explicit Impl(const LinearSolverOptions& o)
      : options(o), relaxation_percent(o.workspace_relaxation_percent) {}

  void Call(int job) {
    id.job = job;
    dmumps_c(&id);
  }

  // Sets every control parameter fcsn relies on (JOB = -1 has just reset them
  // to their defaults). One parameter per line; meanings from the 5.5 guide.
  void Configure() {
    // Output streams for errors, diagnostics, global information: suppressed,
    // and printing level 0. The library never prints.
    IcntlOf(id, 1) = 0;
    IcntlOf(id, 2) = 0;
    IcntlOf(id, 3) = 0;
    IcntlOf(id, 4) = 0;
    // Matrix input: assembled coordinate format (IRN/JCN/A), centralized.
    IcntlOf(id, 5) = 0;
    IcntlOf(id, 18) = 0;
    // Column permutation to a zero-free diagonal: structural only (1).
    // Analyze() has no values, and the value-based variants (2-7) would read
    // A during the analysis. MUMPS ignores ICNTL(6) when the ordering is given
    // (ICNTL(7) = 1): threshold pivoting with delayed pivots then handles the
    // zero diagonal entries of stick contacts.
    IcntlOf(id, 6) = 1;
    // Scaling: automatic; here computed at each factorization from its values.
    IcntlOf(id, 8) = 77;
    // No iterative refinement (the Newton loop corrects the step anyway).
    IcntlOf(id, 10) = 0;
    // No error-analysis statistics (they cost extra matrix-vector products).
    IcntlOf(id, 11) = 0;
    // Working-space relaxation in percent; raised by the workspace retries.
    IcntlOf(id, 14) = relaxation_percent;
    // Dense centralized right-hand side; the solution overwrites it.
    IcntlOf(id, 20) = 0;
    IcntlOf(id, 21) = 0;
    // In-core factorization.
    IcntlOf(id, 22) = 0;
    // No cap on working memory: sized from the estimate and ICNTL(14).
    IcntlOf(id, 23) = 0;
    // Null-pivot row detection (INFOG(28) counts them; reported as singular).
    IcntlOf(id, 24) = options.detect_null_pivots ? 1 : 0;
    // Sequential analysis: ICNTL(7) chooses the ordering.
    IcntlOf(id, 28) = 1;
    // Keep the factors after factorization: Solve() needs them.
    IcntlOf(id, 31) = 0;
    // No determinant.
    IcntlOf(id, 33) = 0;
    // No block low-rank compression: full-rank, exact factors.
    IcntlOf(id, 35) = 0;
    // Relative threshold of numerical partial pivoting (unsymmetric default).
    CntlOf(id, 1) = 0.01;
    // Null-pivot threshold: CNTL(3) > 0 is relative to ||A_pre||_inf; 0 means
    // MUMPS' default eps * 1e-5 * ||A_pre||. CNTL(3) < 0 (absolute) is not
    // exposed.
    CntlOf(id, 3) = options.null_pivot_threshold;
    // Static pivoting off: no silent perturbation of small pivots.
    CntlOf(id, 4) = -1.0;
  }

  // Shared body of Analyze() and AnalyzeWithOrdering(); `position` is null
  // unless the caller gives the ordering.
  LinearSolverStatus Analyze(const SparsityPattern& p,
                             const std::vector<int>* position,
                             std::string* message);
  // JOB = 2 with workspace retries; on success Solve() may use the factors.
  LinearSolverStatus FactorizeWithRetries(std::string* message);

  LinearSolverOptions options;
  DMUMPS_STRUC_C id = {};
  bool initialized = false;
  bool analyzed = false;
  bool factorized = false;
  int relaxation_percent;
  SparsityPattern pattern;
  // 1-based row and column of each entry, and pivot positions (PERM_IN).
  std::vector<int> irn, jcn, perm_in;
  // Values in the order of irn/jcn, i.e. the pattern's CSC order.
  std::vector<double> a;
  Eigen::VectorXd saved_rhs;  // kept to redo a solve after a workspace retry
  LinearSolverStats stats;
};

LinearSolverStatus MumpsSolver::Impl::Analyze(const SparsityPattern& p,
                                              const std::vector<int>* position,
                                              std::string* message) {
  using linalg_detail::Report;
  const Clock::time_point start = Clock::now();
  analyzed = false;
  factorized = false;
  if (std::string why = CheckPattern(p); !why.empty()) {
    return Report(LinearSolverStatus::kInvalidInput, why, message);
  }
  const int n = p.n;
  const int nnz = p.nnz();
  if (position != nullptr) {
    std::vector<char> seen(n, 0);
    bool ok = position->size() == static_cast<size_t>(n);
    for (int i = 0; ok && i < n; ++i) {
      const int k = (*position)[i];
      ok = k >= 0 && k < n && !seen[k];
      if (ok) seen[k] = 1;
    }
    if (!ok) {
      return Report(LinearSolverStatus::kInvalidInput,
                    "the given ordering is not a permutation of 0..n-1 (n = " +
                        std::to_string(n) + ")",
                    message);
    }
  }
  pattern = p;
  irn.resize(nnz);
  jcn.resize(nnz);
  for (int j = 0; j < n; ++j) {
    for (int q = p.col_ptr[j]; q < p.col_ptr[j + 1]; ++q) {
      irn[q] = p.row_index[q] + 1;
      jcn[q] = j + 1;
    }
  }
  a.assign(nnz, 0.0);
  saved_rhs.resize(n);
  ++stats.analyses;
  stats.estimated_factor_entries = 0;
  stats.estimated_flops = 0;
  stats.ordering_seconds = 0;
  if (n == 0) {
    analyzed = true;
    stats.ordering_used = "none";
    stats.analysis_seconds += SecondsSince(start);
    return Report(LinearSolverStatus::kSuccess, "", message);
  }

  bool given_is_metis = false;
  perm_in.clear();
  if (position != nullptr) {
    perm_in.resize(n);
    for (int i = 0; i < n; ++i) perm_in[i] = (*position)[i] + 1;
    // Ordering given by the caller in PERM_IN.
    IcntlOf(id, 7) = 1;
  } else if (options.ordering == Ordering::kMetis) {
    const Clock::time_point ordering_start = Clock::now();
    std::vector<int> perm, iperm;
    const LinearSolverStatus status =
        ComputeMetisOrdering(p, &perm, &iperm, message);
    stats.ordering_seconds = SecondsSince(ordering_start);
    if (status != LinearSolverStatus::kSuccess) {
      stats.analysis_seconds += SecondsSince(start);
      return status;
    }
    // PERM_IN(i) = pivot position of variable i = iperm[i - 1] + 1 (1-based
    // i; see ordering.h).
    perm_in.resize(n);
    for (int i = 0; i < n; ++i) perm_in[i] = iperm[i] + 1;
    given_is_metis = true;
    // Ordering: METIS_NodeND computed by fcsn, given in PERM_IN.
    IcntlOf(id, 7) = 1;
  } else {
    // Ordering: MUMPS' own AMD, SCOTCH or automatic choice.
    IcntlOf(id, 7) = OrderingIcntl7(options.ordering);
  }

  id.n = n;
  id.nz = nnz;
  id.nnz = nnz;
  id.irn = irn.data();
  id.jcn = jcn.data();
  id.a = a.data();
  id.perm_in = perm_in.empty() ? nullptr : perm_in.data();
  Call(kJobAnalyze);
  stats.analysis_seconds += SecondsSince(start);
  if (InfogOf(id, 1) < 0) return MapError(Phase::kAnalysis, id, message);

  analyzed = true;
  stats.ordering_used = OrderingName(InfogOf(id, 7), given_is_metis);
  stats.estimated_factor_entries = MumpsCount(InfogOf(id, 20));
  stats.estimated_flops = RinfogOf(id, 1);
  return Report(LinearSolverStatus::kSuccess, "", message);
}

LinearSolverStatus MumpsSolver::Impl::FactorizeWithRetries(
    std::string* message) {
  for (int attempt = 0;; ++attempt) {
    IcntlOf(id, 14) = relaxation_percent;
    id.a = a.data();
    Call(kJobFactorize);
    const int info1 = InfogOf(id, 1);
    if (info1 >= 0) break;
    if (!IsWorkspaceError(info1) || attempt >= options.max_workspace_retries) {
      return MapError(Phase::kFactorization, id, message);
    }
    relaxation_percent =
        std::min(std::max(2 * relaxation_percent, 10), kMaxRelaxationPercent);
    ++stats.workspace_retries;
  }
  if (options.detect_null_pivots && InfogOf(id, 28) > 0) {
    return linalg_detail::Report(
        LinearSolverStatus::kSingular,
        "MUMPS factorization (JOB=2) found " + std::to_string(InfogOf(id, 28)) +
            " null pivot(s) (INFOG(28)): the matrix is numerically singular",
        message);
  }
  factorized = true;
  stats.last_factorization_flops = RinfogOf(id, 3);
  stats.factor_entries = MumpsCount(InfogOf(id, 29));
  return linalg_detail::Report(LinearSolverStatus::kSuccess, "", message);
}

std::unique_ptr<MumpsSolver> MumpsSolver::Create(
    const LinearSolverOptions& options, std::string* message) {
  if (std::string why = options.Validate(); !why.empty()) {
    linalg_detail::Report(LinearSolverStatus::kInvalidInput, why, message);
    return nullptr;
  }
  auto impl = std::make_unique<Impl>(options);
  // The host takes part in the factorization (it is the only process).
  impl->id.par = 1;
  // Unsymmetric LU.
  impl->id.sym = 0;
  impl->id.comm_fortran = kUseCommWorld;
  impl->Call(kJobInit);
  if (InfogOf(impl->id, 1) < 0) {
    MapError(Phase::kInit, impl->id, message);
    return nullptr;
  }
  impl->initialized = true;
  impl->Configure();
  if (message != nullptr) message->clear();
  return std::unique_ptr<MumpsSolver>(new MumpsSolver(std::move(impl)));
}

MumpsSolver::MumpsSolver(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

MumpsSolver::~MumpsSolver() {
  if (impl_ != nullptr && impl_->initialized) impl_->Call(kJobEnd);
}

LinearSolverStatus MumpsSolver::Analyze(const SparsityPattern& pattern,
                                        std::string* message) {
  return impl_->Analyze(pattern, nullptr, message);
}

LinearSolverStatus MumpsSolver::AnalyzeWithOrdering(
    const SparsityPattern& pattern,
    const std::vector<int>& position,
    std::string* message) {
  return impl_->Analyze(pattern, &position, message);
}

LinearSolverStatus MumpsSolver::Factorize(const double* values,
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
  ++m.stats.factorizations;
  if (m.pattern.n == 0) {
    m.factorized = true;
    return Report(LinearSolverStatus::kSuccess, "", message);
  }
  std::copy(values, values + m.pattern.nnz(), m.a.begin());
  const LinearSolverStatus status = m.FactorizeWithRetries(message);
  m.stats.factorization_seconds += SecondsSince(start);
  return status;
}

LinearSolverStatus MumpsSolver::Solve(Eigen::VectorXd* rhs,
                                      std::string* message) {
  using linalg_detail::Report;
  Impl& m = *impl_;
  if (const LinearSolverStatus status = linalg_detail::CheckSolveArguments(
          m.analyzed, m.factorized, rhs, m.pattern.n, message);
      status != LinearSolverStatus::kSuccess) {
    return status;
  }
  const Clock::time_point start = Clock::now();
  ++m.stats.solves;
  if (m.pattern.n == 0)
    return Report(LinearSolverStatus::kSuccess, "", message);
  m.saved_rhs = *rhs;
  for (int attempt = 0;; ++attempt) {
    m.id.nrhs = 1;
    m.id.lrhs = m.pattern.n;
    m.id.rhs = rhs->data();
    m.Call(kJobSolve);
    const int info1 = InfogOf(m.id, 1);
    if (info1 >= 0) break;
    if (!IsWorkspaceError(info1) ||
        attempt >= m.options.max_workspace_retries) {
      m.stats.solve_seconds += SecondsSince(start);
      return MapError(Phase::kSolve, m.id, message);
    }
    // Enlarge the workspace, refactorize the same values, and solve again from
    // the saved rhs.
    m.relaxation_percent =
        std::min(std::max(2 * m.relaxation_percent, 10), kMaxRelaxationPercent);
    ++m.stats.workspace_retries;
    m.factorized = false;
    if (LinearSolverStatus status = m.FactorizeWithRetries(message);
        status != LinearSolverStatus::kSuccess) {
      m.stats.solve_seconds += SecondsSince(start);
      return status;
    }
    *rhs = m.saved_rhs;
  }
  m.stats.solve_seconds += SecondsSince(start);
  if (!rhs->allFinite()) {
    return Report(LinearSolverStatus::kSingular,
                  "MUMPS solve (JOB=3) produced non-finite entries: the matrix "
                  "is numerically "
                  "singular or too ill-conditioned",
                  message);
  }
  return Report(LinearSolverStatus::kSuccess, "", message);
}

const LinearSolverStats& MumpsSolver::stats() const { return impl_->stats; }

int MumpsSolver::Infog(int i) const {
  return (i >= 1 && i <= 80) ? impl_->id.infog[i - 1] : 0;
}

int MumpsSolver::Icntl(int i) const {
  return (i >= 1 && i <= 60) ? impl_->id.icntl[i - 1] : 0;
}

}  // namespace fcsn::internal
