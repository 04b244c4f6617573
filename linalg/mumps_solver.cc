// Sequential MUMPS backend. Every ICNTL/CNTL value fcsn relies on is set
// explicitly, one per line, in Configure(); INFO(1) < 0 is translated in
// MapError() only. Parameter meanings follow the MUMPS 5.5 user guide (Debian
// 12 ships 5.5.1).
//
// Two arithmetics share one code path through Instance<Real>: d-MUMPS (double)
// and s-MUMPS (single, for FactorizationPrecision::kMixed). Mixed precision
// keeps the double values and refines every single-precision solve against
// them (Impl::SolveMixed); the double instance is created only when a
// factorization falls back to double precision.
#include "linalg/mumps_solver.h"

#include <dmumps_c.h>
#include <smumps_c.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
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
// Mixed precision: a refinement step must at least halve the residual, else
// the refinement is declared stalled (cond(J) * eps_single is then >~ 0.5 and
// the single-precision factors are useless as a preconditioner).
constexpr double kRefinementContraction = 0.5;
// Mixed precision: after this many consecutive fallbacks the solver stays in
// double precision until the next analysis (the matrices of one pattern change
// slowly along a Newton run, so a third try would most likely fail too).
constexpr int kFallbacksBeforeStayingDouble = 2;
// FactorizationPrecision::kAuto: below this many estimated flops per
// factorization (MUMPS RINFOG(1); ~1 ms at the few GFlop/s of small fronts)
// the factorization is dominated by assembly and bookkeeping, not by dense
// kernels, and single precision saves less than the refinement's extra solves
// cost.
constexpr double kAutoMixedMinFlops = 1e7;

using Clock = std::chrono::steady_clock;
double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The MUMPS C structure and entry point of each arithmetic.
template <typename Real>
struct Arithmetic;
template <>
struct Arithmetic<double> {
  using Struc = DMUMPS_STRUC_C;
  static void Run(Struc* id) { dmumps_c(id); }
};
template <>
struct Arithmetic<float> {
  using Struc = SMUMPS_STRUC_C;
  static void Run(Struc* id) { smumps_c(id); }
};

// 1-based accessors, so that the code reads like the user guide.
template <typename Struc>
int& IcntlOf(Struc& id, int i) {
  return id.icntl[i - 1];
}
template <typename Struc>
auto& CntlOf(Struc& id, int i) {
  return id.cntl[i - 1];
}
template <typename Struc>
int InfogOf(const Struc& id, int i) {
  return id.infog[i - 1];
}
template <typename Struc>
double RinfogOf(const Struc& id, int i) {
  return id.rinfog[i - 1];
}

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
                            const char* arithmetic,
                            int info1,
                            int info2,
                            int relaxation_percent,
                            std::string* message) {
  const std::string where = std::string("MUMPS ") + PhaseName(phase) + " (" +
                            arithmetic +
                            ") failed: INFO(1) = " + std::to_string(info1) +
                            ", INFO(2) = " + std::to_string(info2) + ": ";
  auto report = [&](LinearSolverStatus status, const std::string& what) {
    return linalg_detail::Report(status, where + what, message);
  };
  if (IsWorkspaceError(info1)) {
    return report(
        LinearSolverStatus::kOutOfMemory,
        "internal workspace too small even after enlarging ICNTL(14) to " +
            std::to_string(relaxation_percent) + "%");
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

// One MUMPS instance of arithmetic Real: JOB = -1 in Init(), JOB = -2 in the
// destructor. The index arrays and PERM_IN belong to the caller (Impl) and
// outlive the instance's use of them.
template <typename Real>
class Instance {
 public:
  using Struc = typename Arithmetic<Real>::Struc;
  static constexpr const char* kName =
      std::is_same_v<Real, double> ? "double" : "single";

  Instance() = default;
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;
  ~Instance() {
    if (initialized_) Call(kJobEnd);
  }

  LinearSolverStatus Init(const LinearSolverOptions& options,
                          std::string* message) {
    options_ = options;
    // The host takes part in the factorization (it is the only process).
    id_.par = 1;
    // Unsymmetric LU.
    id_.sym = 0;
    id_.comm_fortran = kUseCommWorld;
    Call(kJobInit);
    if (InfogOf(id_, 1) < 0) return Error(Phase::kInit, message);
    initialized_ = true;
    Configure();
    return linalg_detail::Report(LinearSolverStatus::kSuccess, "", message);
  }

  // Analysis (JOB = 1) on the 1-based coordinates irn/jcn; `perm_in` (1-based
  // pivot positions) is used with ICNTL(7) = 1, otherwise ICNTL(7) = icntl7.
  LinearSolverStatus Analyze(int n,
                             std::vector<int>* irn,
                             std::vector<int>* jcn,
                             std::vector<int>* perm_in,
                             int icntl7,
                             std::string* message) {
    analyzed_ = false;
    factorized_ = false;
    values_.assign(irn->size(), Real(0));
    // Ordering: PERM_IN (fcsn's METIS or the caller's) when given, else
    // MUMPS' own AMD, SCOTCH or automatic choice.
    IcntlOf(id_, 7) = perm_in->empty() ? icntl7 : 1;
    id_.n = n;
    id_.nz = static_cast<int>(irn->size());
    id_.nnz = static_cast<int64_t>(irn->size());
    id_.irn = irn->data();
    id_.jcn = jcn->data();
    id_.a = values_.data();
    id_.perm_in = perm_in->empty() ? nullptr : perm_in->data();
    Call(kJobAnalyze);
    if (InfogOf(id_, 1) < 0) return Error(Phase::kAnalysis, message);
    analyzed_ = true;
    return linalg_detail::Report(LinearSolverStatus::kSuccess, "", message);
  }

  // Numeric factorization (JOB = 2) of `values` (pattern order), with
  // workspace retries; null pivots (ICNTL(24)) are reported as kSingular and
  // the factors not used.
  LinearSolverStatus Factorize(const Real* values,
                               int* relaxation_percent,
                               int* workspace_retries,
                               std::string* message) {
    factorized_ = false;
    std::copy(values, values + values_.size(), values_.begin());
    for (int attempt = 0;; ++attempt) {
      // Working-space relaxation in percent; raised by the workspace retries.
      IcntlOf(id_, 14) = *relaxation_percent;
      id_.a = values_.data();
      Call(kJobFactorize);
      const int info1 = InfogOf(id_, 1);
      if (info1 >= 0) break;
      if (!EnlargeWorkspace(
              info1, attempt, relaxation_percent, workspace_retries)) {
        return Error(Phase::kFactorization, message);
      }
    }
    if (options_.detect_null_pivots && InfogOf(id_, 28) > 0) {
      return linalg_detail::Report(
          LinearSolverStatus::kSingular,
          std::string("MUMPS factorization (JOB=2, ") + kName + ") found " +
              std::to_string(InfogOf(id_, 28)) +
              " null pivot(s) (INFOG(28)): the matrix is numerically singular",
          message);
    }
    factorized_ = true;
    return linalg_detail::Report(LinearSolverStatus::kSuccess, "", message);
  }

  // Solve (JOB = 3) in place on rhs (n entries). A workspace shortage enlarges
  // ICNTL(14), refactorizes the same values and solves again.
  LinearSolverStatus Solve(Real* rhs,
                           int* relaxation_percent,
                           int* workspace_retries,
                           std::string* message) {
    const int n = id_.n;
    saved_rhs_.assign(rhs, rhs + n);
    for (int attempt = 0;; ++attempt) {
      id_.nrhs = 1;
      id_.lrhs = n;
      id_.rhs = rhs;
      Call(kJobSolve);
      const int info1 = InfogOf(id_, 1);
      if (info1 >= 0) break;
      if (!EnlargeWorkspace(
              info1, attempt, relaxation_percent, workspace_retries)) {
        return Error(Phase::kSolve, message);
      }
      const std::vector<Real> values = values_;
      if (LinearSolverStatus status = Factorize(
              values.data(), relaxation_percent, workspace_retries, message);
          status != LinearSolverStatus::kSuccess) {
        return status;
      }
      std::copy(saved_rhs_.begin(), saved_rhs_.end(), rhs);
    }
    return linalg_detail::Report(LinearSolverStatus::kSuccess, "", message);
  }

  bool analyzed() const { return analyzed_; }
  bool factorized() const { return factorized_; }
  void Invalidate() { factorized_ = false; }
  int infog(int i) const { return InfogOf(id_, i); }
  double rinfog(int i) const { return RinfogOf(id_, i); }
  int icntl(int i) const { return id_.icntl[i - 1]; }

 private:
  void Call(int job) {
    id_.job = job;
    Arithmetic<Real>::Run(&id_);
  }

  // After INFO(1) = info1 < 0 at retry `attempt`: true, with the ICNTL(14)
  // relaxation doubled, when a larger workspace may cure the failure and
  // retries are left.
  bool EnlargeWorkspace(int info1,
                        int attempt,
                        int* relaxation_percent,
                        int* workspace_retries) const {
    if (!IsWorkspaceError(info1) || attempt >= options_.max_workspace_retries) {
      return false;
    }
    *relaxation_percent =
        std::min(std::max(2 * *relaxation_percent, 10), kMaxRelaxationPercent);
    ++*workspace_retries;
    return true;
  }

  LinearSolverStatus Error(Phase phase, std::string* message) const {
    return MapError(
        phase, kName, InfogOf(id_, 1), InfogOf(id_, 2), id_.icntl[13], message);
  }

  // Sets every control parameter fcsn relies on (JOB = -1 has just reset them
  // to their defaults). One parameter per line; meanings from the 5.5 guide.
  void Configure() {
    // Output streams for errors, diagnostics, global information: suppressed,
    // and printing level 0. The library never prints.
    IcntlOf(id_, 1) = 0;
    IcntlOf(id_, 2) = 0;
    IcntlOf(id_, 3) = 0;
    IcntlOf(id_, 4) = 0;
    // Matrix input: assembled coordinate format (IRN/JCN/A), centralized.
    IcntlOf(id_, 5) = 0;
    IcntlOf(id_, 18) = 0;
    // Column permutation to a zero-free diagonal: structural only (1).
    // Analyze() has no values, and the value-based variants (2-7) would read
    // A during the analysis. MUMPS ignores ICNTL(6) when the ordering is given
    // (ICNTL(7) = 1): threshold pivoting with delayed pivots then handles the
    // zero diagonal entries of stick contacts.
    IcntlOf(id_, 6) = 1;
    // Scaling: automatic; here computed at each factorization from its values.
    IcntlOf(id_, 8) = 77;
    // No iterative refinement inside MUMPS (the Newton loop corrects the step
    // anyway; mixed precision refines in double precision itself).
    IcntlOf(id_, 10) = 0;
    // No error-analysis statistics (they cost extra matrix-vector products).
    IcntlOf(id_, 11) = 0;
    // Working-space relaxation in percent (set again before each
    // factorization).
    IcntlOf(id_, 14) = options_.workspace_relaxation_percent;
    // Dense centralized right-hand side; the solution overwrites it.
    IcntlOf(id_, 20) = 0;
    IcntlOf(id_, 21) = 0;
    // In-core factorization.
    IcntlOf(id_, 22) = 0;
    // No cap on working memory: sized from the estimate and ICNTL(14).
    IcntlOf(id_, 23) = 0;
    // Null-pivot row detection (INFOG(28) counts them; reported as singular).
    IcntlOf(id_, 24) = options_.detect_null_pivots ? 1 : 0;
    // Sequential analysis: ICNTL(7) chooses the ordering.
    IcntlOf(id_, 28) = 1;
    // Keep the factors after factorization: Solve() needs them.
    IcntlOf(id_, 31) = 0;
    // No determinant.
    IcntlOf(id_, 33) = 0;
    // No block low-rank compression: full-rank, exact factors.
    IcntlOf(id_, 35) = 0;
    // Relative threshold of numerical partial pivoting (unsymmetric default).
    CntlOf(id_, 1) = 0.01;
    // Null-pivot threshold: CNTL(3) > 0 is relative to ||A_pre||_inf; 0 means
    // MUMPS' default eps * 1e-5 * ||A_pre|| (eps of the arithmetic). CNTL(3) <
    // 0 (absolute) is not exposed.
    CntlOf(id_, 3) = static_cast<Real>(options_.null_pivot_threshold);
    // Static pivoting off: no silent perturbation of small pivots.
    CntlOf(id_, 4) = -1;
  }

  LinearSolverOptions options_;
  Struc id_ = {};
  bool initialized_ = false;
  bool analyzed_ = false;
  bool factorized_ = false;
  std::vector<Real> values_;     // MUMPS' A array, in the pattern's CSC order
  std::vector<Real> saved_rhs_;  // to redo a solve after a workspace retry
};

// True when the cast of `values` to float loses only relative precision at
// the level of single-precision rounding of the matrix: no entry overflows,
// and an entry below the smallest normal float (flushed towards zero by the
// cast) is at most FLT_EPSILON times the largest one, a normwise perturbation
// no larger than the cast's own rounding, which the refinement in double
// removes. (LMGC90 files carry 1e-38-level round-off entries in H.)
bool FitsInFloat(const std::vector<double>& values) {
  double largest = 0.0;
  for (double x : values) {
    const double a = std::abs(x);
    if (!(a <= std::numeric_limits<float>::max())) return false;
    largest = std::max(largest, a);
  }
  const double negligible = std::numeric_limits<float>::epsilon() * largest;
  for (double x : values) {
    const double a = std::abs(x);
    if (a != 0.0 && a < std::numeric_limits<float>::min() && a > negligible)
      return false;
  }
  return true;
}

}  // namespace

struct MumpsSolver::Impl {
  explicit Impl(const LinearSolverOptions& o)
      : options(o), relaxation_percent(o.workspace_relaxation_percent) {}

  // Shared body of Analyze() and AnalyzeWithOrdering(); `position` is null
  // unless the caller gives the ordering.
  LinearSolverStatus Analyze(const SparsityPattern& p,
                             const std::vector<int>* position,
                             std::string* message);
  // Mixed mode: the double instance, created and analysed at the first
  // fallback on the current pattern (in double mode it always exists).
  LinearSolverStatus EnsureDouble(std::string* message);
  LinearSolverStatus FactorizeDouble(std::string* message);
  LinearSolverStatus FactorizeMixed(std::string* message);
  // Iterative refinement with the single factors; false if it did not reach
  // options.refinement_tolerance (rhs is then unchanged).
  bool SolveMixed(Eigen::VectorXd* rhs, std::string* message);
  // Normwise backward error of x for J x = b, J the double values.
  double BackwardError(const Eigen::VectorXd& x,
                       const Eigen::VectorXd& b,
                       Eigen::VectorXd* residual) const;

  LinearSolverOptions options;
  std::unique_ptr<Instance<double>> dbl;
  std::unique_ptr<Instance<float>> sgl;
  bool analyzed = false;
  bool factorized = false;
  bool single_enabled = false;  // this pattern factorizes in single first
  bool use_single = false;      // the current factors are the single ones
  int consecutive_fallbacks = 0;
  int relaxation_percent;
  int icntl7 = 7;
  SparsityPattern pattern;
  // 1-based row and column of each entry, and pivot positions (PERM_IN).
  std::vector<int> irn, jcn, perm_in;
  // Double values in the pattern's CSC order, their float copy, and
  // ||J||_inf.
  std::vector<double> a;
  std::vector<float> a_single;
  double norm_inf = 0;
  // Mixed-precision solve workspaces.
  Eigen::VectorXd b, x, residual;
  Eigen::VectorXf correction;
  LinearSolverStats stats;
};

LinearSolverStatus MumpsSolver::Impl::Analyze(const SparsityPattern& p,
                                              const std::vector<int>* position,
                                              std::string* message) {
  using linalg_detail::Report;
  const Clock::time_point start = Clock::now();
  analyzed = false;
  factorized = false;
  consecutive_fallbacks = 0;
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
  a_single.assign(nnz, 0.0f);
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
  icntl7 = OrderingIcntl7(options.ordering);
  if (position != nullptr) {
    perm_in.resize(n);
    for (int i = 0; i < n; ++i) perm_in[i] = (*position)[i] + 1;
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
  }

  // kDouble analyses the double instance, kMixed the single one (a double
  // instance left from a fallback on the previous pattern is dropped;
  // EnsureDouble() analyses a new one when needed). kAuto analyses the double
  // instance, and the single one too when the estimate reaches
  // kAutoMixedMinFlops: small systems pay one analysis, large ones a second
  // symbolic pass with the same ordering (and have the double instance ready
  // for fallbacks).
  // Every case of the switch sets it; the initial value only silences gcc's
  // maybe-uninitialized analysis of the enum switch.
  LinearSolverStatus status = LinearSolverStatus::kFailure;
  int infog7 = 0;
  switch (options.precision) {
    case FactorizationPrecision::kMixed:
      dbl.reset();
      status = sgl->Analyze(n, &irn, &jcn, &perm_in, icntl7, message);
      infog7 = sgl->infog(7);
      stats.estimated_factor_entries = MumpsCount(sgl->infog(20));
      stats.estimated_flops = sgl->rinfog(1);
      single_enabled = true;
      break;
    case FactorizationPrecision::kDouble:
    case FactorizationPrecision::kAuto:
      status = dbl->Analyze(n, &irn, &jcn, &perm_in, icntl7, message);
      infog7 = dbl->infog(7);
      stats.estimated_factor_entries = MumpsCount(dbl->infog(20));
      stats.estimated_flops = dbl->rinfog(1);
      single_enabled = options.precision == FactorizationPrecision::kAuto &&
                       status == LinearSolverStatus::kSuccess &&
                       stats.estimated_flops >= kAutoMixedMinFlops;
      if (single_enabled && !sgl) {
        auto instance = std::make_unique<Instance<float>>();
        status = instance->Init(options, message);
        if (status == LinearSolverStatus::kSuccess) sgl = std::move(instance);
      }
      if (single_enabled && sgl) {
        status = sgl->Analyze(n, &irn, &jcn, &perm_in, icntl7, message);
      }
      break;
  }
  stats.analysis_seconds += SecondsSince(start);
  if (status != LinearSolverStatus::kSuccess) return status;
  analyzed = true;
  stats.ordering_used = OrderingName(infog7, given_is_metis);
  return Report(LinearSolverStatus::kSuccess, "", message);
}

LinearSolverStatus MumpsSolver::Impl::EnsureDouble(std::string* message) {
  if (dbl && dbl->analyzed()) {
    return linalg_detail::Report(LinearSolverStatus::kSuccess, "", message);
  }
  if (!dbl) {
    auto instance = std::make_unique<Instance<double>>();
    if (LinearSolverStatus status = instance->Init(options, message);
        status != LinearSolverStatus::kSuccess) {
      return status;
    }
    dbl = std::move(instance);
  }
  return dbl->Analyze(pattern.n, &irn, &jcn, &perm_in, icntl7, message);
}

LinearSolverStatus MumpsSolver::Impl::FactorizeDouble(std::string* message) {
  use_single = false;
  if (LinearSolverStatus status = EnsureDouble(message);
      status != LinearSolverStatus::kSuccess) {
    return status;
  }
  const LinearSolverStatus status = dbl->Factorize(
      a.data(), &relaxation_percent, &stats.workspace_retries, message);
  if (status == LinearSolverStatus::kSuccess) {
    stats.last_factorization_flops = dbl->rinfog(3);
    stats.factor_entries = MumpsCount(dbl->infog(29));
  }
  return status;
}

LinearSolverStatus MumpsSolver::Impl::FactorizeMixed(std::string* message) {
  // Staying in double precision after repeated fallbacks is not a new
  // fallback.
  if (consecutive_fallbacks >= kFallbacksBeforeStayingDouble) {
    return FactorizeDouble(message);
  }
  if (FitsInFloat(a)) {
    std::copy(a.begin(), a.end(), a_single.begin());
    const LinearSolverStatus status = sgl->Factorize(a_single.data(),
                                                     &relaxation_percent,
                                                     &stats.workspace_retries,
                                                     message);
    if (status == LinearSolverStatus::kSuccess) {
      use_single = true;
      stats.last_factorization_flops = sgl->rinfog(3);
      stats.factor_entries = MumpsCount(sgl->infog(29));
      norm_inf = 0;
      Eigen::VectorXd row_sums = Eigen::VectorXd::Zero(pattern.n);
      for (int q = 0; q < pattern.nnz(); ++q) {
        row_sums[pattern.row_index[q]] += std::abs(a[q]);
      }
      norm_inf = row_sums.maxCoeff();
      return status;
    }
    // Out of memory or invalid input would fail in double too: report them.
    // Singular (or any other failure) in single precision does not mean
    // singular in double precision: let the double factorization decide.
    if (status == LinearSolverStatus::kOutOfMemory ||
        status == LinearSolverStatus::kInvalidInput) {
      return status;
    }
  }
  // Only a fallback that succeeds shows a precision problem; a matrix singular
  // in both arithmetics is the caller's business (e.g. regularization).
  ++stats.precision_fallbacks;
  const LinearSolverStatus status = FactorizeDouble(message);
  if (status == LinearSolverStatus::kSuccess) ++consecutive_fallbacks;
  return status;
}

double MumpsSolver::Impl::BackwardError(const Eigen::VectorXd& x_in,
                                        const Eigen::VectorXd& b_in,
                                        Eigen::VectorXd* r) const {
  *r = b_in;
  for (int j = 0; j < pattern.n; ++j) {
    const double xj = x_in[j];
    for (int q = pattern.col_ptr[j]; q < pattern.col_ptr[j + 1]; ++q) {
      (*r)[pattern.row_index[q]] -= a[q] * xj;
    }
  }
  const double denominator = norm_inf * x_in.lpNorm<Eigen::Infinity>() +
                             b_in.lpNorm<Eigen::Infinity>();
  const double rn = r->lpNorm<Eigen::Infinity>();
  return denominator > 0 ? rn / denominator : rn;
}

bool MumpsSolver::Impl::SolveMixed(Eigen::VectorXd* rhs, std::string* message) {
  const int n = pattern.n;
  b = *rhs;
  x.setZero(n);
  residual = b;
  double previous = std::numeric_limits<double>::infinity();
  if (b.lpNorm<Eigen::Infinity>() == 0.0) {
    rhs->setZero();
    return true;
  }
  for (int step = 0; step < options.max_refinement_steps; ++step) {
    correction = residual.cast<float>();
    if (!correction.allFinite()) return false;
    ++stats.refinement_steps;
    if (sgl->Solve(correction.data(),
                   &relaxation_percent,
                   &stats.workspace_retries,
                   message) != LinearSolverStatus::kSuccess) {
      return false;
    }
    x += correction.cast<double>();
    if (!x.allFinite()) return false;
    const double error = BackwardError(x, b, &residual);
    if (error <= options.refinement_tolerance) {
      *rhs = x;
      return true;
    }
    const double norm = residual.lpNorm<Eigen::Infinity>();
    if (!(norm <= kRefinementContraction * previous) && step > 0) return false;
    previous = norm;
  }
  return false;
}

std::unique_ptr<MumpsSolver> MumpsSolver::Create(
    const LinearSolverOptions& options, std::string* message) {
  if (std::string why = options.Validate(); !why.empty()) {
    linalg_detail::Report(LinearSolverStatus::kInvalidInput, why, message);
    return nullptr;
  }
  auto impl = std::make_unique<Impl>(options);
  // The instance that factorizes first (JOB = -1 now, so that an unusable
  // MUMPS is reported at creation): single in mixed mode, else double.
  LinearSolverStatus status;
  if (options.precision == FactorizationPrecision::kMixed) {
    impl->sgl = std::make_unique<Instance<float>>();
    status = impl->sgl->Init(options, message);
  } else {
    impl->dbl = std::make_unique<Instance<double>>();
    status = impl->dbl->Init(options, message);
  }
  if (status != LinearSolverStatus::kSuccess) return nullptr;
  if (message != nullptr) message->clear();
  return std::unique_ptr<MumpsSolver>(new MumpsSolver(std::move(impl)));
}

MumpsSolver::MumpsSolver(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

MumpsSolver::~MumpsSolver() = default;

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
  const LinearSolverStatus status =
      m.single_enabled ? m.FactorizeMixed(message) : m.FactorizeDouble(message);
  m.factorized = status == LinearSolverStatus::kSuccess;
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
  if (m.use_single) {
    if (m.SolveMixed(rhs, message)) {
      m.consecutive_fallbacks = 0;
      m.stats.solve_seconds += SecondsSince(start);
      return Report(LinearSolverStatus::kSuccess, "", message);
    }
    // The refinement did not converge: factorize the same values in double
    // precision, and solve with those factors from now on.
    // A kSingular here means J is singular at double-precision round-off
    // although the single factorization did not see it.
    ++m.stats.precision_fallbacks;
    const Clock::time_point refactor_start = Clock::now();
    const LinearSolverStatus status = m.FactorizeDouble(message);
    m.stats.factorization_seconds += SecondsSince(refactor_start);
    if (status == LinearSolverStatus::kSuccess) ++m.consecutive_fallbacks;
    if (status != LinearSolverStatus::kSuccess) {
      m.factorized = false;
      m.stats.solve_seconds += SecondsSince(start);
      return status;
    }
  }
  const LinearSolverStatus status = m.dbl->Solve(
      rhs->data(), &m.relaxation_percent, &m.stats.workspace_retries, message);
  m.stats.solve_seconds += SecondsSince(start);
  if (status != LinearSolverStatus::kSuccess) {
    if (!m.dbl->factorized()) m.factorized = false;
    return status;
  }
  if (!rhs->allFinite()) {
    return Report(LinearSolverStatus::kSingular,
                  "MUMPS solve (JOB=3) produced non-finite entries: the matrix "
                  "is numerically singular or too ill-conditioned",
                  message);
  }
  return Report(LinearSolverStatus::kSuccess, "", message);
}

const LinearSolverStats& MumpsSolver::stats() const { return impl_->stats; }

int MumpsSolver::Infog(int i) const {
  const Impl& m = *impl_;
  if (i < 1 || i > 80) return 0;
  if (m.use_single && m.sgl) return m.sgl->infog(i);
  if (m.dbl) return m.dbl->infog(i);
  return m.sgl ? m.sgl->infog(i) : 0;
}

int MumpsSolver::Icntl(int i) const {
  const Impl& m = *impl_;
  if (i < 1 || i > 60) return 0;
  if (m.dbl) return m.dbl->icntl(i);
  return m.sgl ? m.sgl->icntl(i) : 0;
}

}  // namespace fcsn::internal
