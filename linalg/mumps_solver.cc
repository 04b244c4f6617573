// Sequential MUMPS backend: the pattern in MUMPS' coordinates, the ordering,
// the choice of arithmetic per pattern, and the adapters that let the
// mixed-precision decorator (mixed_precision.h) drive the MUMPS instances
// (mumps_instance.h).
#include "linalg/mumps_solver.h"

#include <algorithm>
#include <type_traits>
#include <utility>

#include "linalg/mixed_precision.h"
#include "linalg/mumps_comm.h"
#include "linalg/mumps_factorization.h"
#include "linalg/mumps_instance.h"
#include "linalg/mumps_symmetric.h"
#include "linalg/ordering.h"
#include "linalg/stopwatch.h"

namespace fcsn::internal {
namespace {

// FactorizationPrecision::kAuto: below this many estimated flops per
// factorization (MUMPS RINFOG(1); ~1 ms at the few GFlop/s of small fronts)
// the factorization is dominated by assembly and bookkeeping, not by dense
// kernels, and single precision saves less than the refinement's extra solves
// cost.
constexpr double kAutoMixedMinFlops = 1e7;

// "" if `position` is a permutation of 0..n-1, else a sentence.
std::string CheckPermutation(const std::vector<int>& position, int n) {
  std::vector<char> seen(n, 0);
  bool ok = position.size() == static_cast<size_t>(n);
  for (int i = 0; ok && i < n; ++i) {
    const int k = position[i];
    ok = k >= 0 && k < n && !seen[k];
    if (ok) seen[k] = 1;
  }
  if (ok) return "";
  return "the given ordering is not a permutation of 0..n-1 (n = " +
         std::to_string(n) + ")";
}

}  // namespace

struct MumpsSolver::Impl {
  Impl(const LinearSolverOptions& o, LinearSolverStats* stats)
      : options(o),
        dbl(&options, &input, &workspace, stats),
        sgl(&options, &input, &workspace, stats),
        mixed(options, &sgl, &dbl),
        sym_dbl(&options, &sym.input, &workspace, stats),
        sym_sgl(&options, &sym.input, &workspace, stats),
        sym_mixed(options, &sym_sgl, &sym_dbl) {
    workspace.relaxation_percent = o.workspace_relaxation_percent;
  }

  // IRN/JCN of `pattern`.
  void BuildCoordinates(const SparsityPattern& pattern);
  // PERM_IN and ICNTL(7) for options.ordering, or from `position` if given;
  // METIS by pattern.block_starts if use_blocks and the options allow; sets
  // by_blocks.
  LinearSolverStatus ComputeOrdering(const SparsityPattern& pattern,
                                     const std::vector<int>* position,
                                     bool use_blocks,
                                     LinearSolverStats* stats,
                                     std::string* message);
  // MUMPS job 1 on the instance(s) of one pair (the LU's sgl/dbl or the
  // LDL^T's sym_sgl/sym_dbl) that options.precision asks for, and
  // single_enabled; *infog7 and *infog32 say which ordering and analysis
  // MUMPS used.
  LinearSolverStatus AnalyzeInstances(MumpsFactorization<float>* single,
                                      MumpsFactorization<double>* dbl_pair,
                                      LinearSolverStats* stats,
                                      int* infog7,
                                      int* infog32,
                                      std::string* message);
  // The LU's postponed analysis (SparsityPattern::symmetric_first), before
  // its first factorization; *seconds receives its time (0 if none was due).
  LinearSolverStatus AnalyzePendingLu(LinearSolverStats* stats,
                                      double* seconds,
                                      std::string* message);
  // The symbolic phase of `pattern`, ordered as ComputeOrdering() says, and
  // the ordering MUMPS reports into stats (ordering_used).
  LinearSolverStatus AnalyzeOrdered(const SparsityPattern& pattern,
                                    bool use_blocks,
                                    LinearSolverStats* stats,
                                    std::string* message);
  // The adaptive rule of ordering.h, before a factorization: analyses the
  // pattern again on its variables' graph when the block ordering's assumed
  // extra flops would now outweigh it; *seconds receives the time this took
  // (0 when the rule keeps the analysis).
  LinearSolverStatus ApplyAdaptiveOrdering(const SparsityPattern& pattern,
                                           LinearSolverStats* stats,
                                           double* seconds,
                                           std::string* message);
  // LDL^T of symmetric values (FactorizeSymmetric): the input built from the
  // pattern and the current ordering at the first call after an analysis,
  // the instances analysed at their first factorization.
  LinearSolverStatus FactorizeSymmetric(const SparsityPattern& pattern,
                                        const double* values,
                                        LinearSolverStats* stats,
                                        std::string* message);
  // The LDL^T's input and instances are stale after a new analysis.
  void ForgetSymmetric() {
    sym_built = false;
    symmetric_active = false;
    sym_sgl.Drop();
    sym_dbl.Drop();
  }
  // The counters of the workspace policy and of the decorators, into stats.
  void CopyCounters(LinearSolverStats* stats) const {
    stats->workspace_retries = workspace.retries;
    stats->refinement_steps =
        mixed.refinement_steps() + sym_mixed.refinement_steps();
    stats->precision_fallbacks =
        mixed.precision_fallbacks() + sym_mixed.precision_fallbacks();
  }
  // F of the adaptive rule: a successful factorization's flops (RINFOG(3)).
  void CountFlops(LinearSolverStatus status, const LinearSolverStats& stats) {
    if (status == LinearSolverStatus::kSuccess) {
      flops_since_analysis += stats.last_factorization_flops;
    }
  }
  // The factors in use: LU or LDL^T, single precision (refined) or double.
  MixedPrecisionFactorization& active_mixed() {
    return symmetric_active ? sym_mixed : mixed;
  }
  NumericFactorization& active_double() {
    return symmetric_active ? sym_dbl : dbl;
  }
  NumericFactorization& active() {
    return single_enabled ? static_cast<NumericFactorization&>(active_mixed())
                          : active_double();
  }

  LinearSolverOptions options;
  MumpsAnalysisInput input;
  MumpsWorkspace workspace;
  MumpsFactorization<double> dbl;
  MumpsFactorization<float> sgl;
  MixedPrecisionFactorization mixed;  // around sgl, falling back to dbl
  bool single_enabled = false;        // this pattern factorizes in single first
  // SparsityPattern::symmetric_first: the LU instances are not analysed yet
  // (the LDL^T's analysis decides single_enabled and the estimates).
  bool lu_pending = false;
  bool given_is_metis = false;  // PERM_IN is fcsn's METIS ordering
  // The adaptive block ordering (ordering.h): PERM_IN is METIS' ordering of
  // the quotient by pattern.block_starts; what it reported; the flops of the
  // factorizations done since the analysis (MUMPS' counts, RINFOG(3)).
  bool by_blocks = false;
  OrderingReport ordering_report;
  double flops_since_analysis = 0;
  // The caller's ordering, during AnalyzeWithOrdering() only.
  const std::vector<int>* given_position = nullptr;
  // The LDL^T (FactorizeSymmetric): its input, whether it matches the current
  // analysis, its instances and decorator, and whether its factors are the
  // ones in use.
  SymmetricInput sym;
  bool sym_built = false;
  MumpsFactorization<double> sym_dbl;
  MumpsFactorization<float> sym_sgl;
  MixedPrecisionFactorization sym_mixed;
  bool symmetric_active = false;
};

void MumpsSolver::Impl::BuildCoordinates(const SparsityPattern& pattern) {
  const int n = pattern.n;
  input.n = n;
  input.irn.resize(pattern.nnz());
  input.jcn.resize(pattern.nnz());
  for (int j = 0; j < n; ++j) {
    for (int q = pattern.col_ptr[j]; q < pattern.col_ptr[j + 1]; ++q) {
      input.irn[q] = pattern.row_index[q] + 1;
      input.jcn[q] = j + 1;
    }
  }
}

LinearSolverStatus MumpsSolver::Impl::ComputeOrdering(
    const SparsityPattern& pattern,
    const std::vector<int>* position,
    bool use_blocks,
    LinearSolverStats* stats,
    std::string* message) {
  const int n = pattern.n;
  given_is_metis = false;
  by_blocks = false;
  input.perm_in.clear();
  input.icntl7 = MumpsOrderingIcntl7(options.ordering);
  // kPtScotch: parallel analysis where MUMPS has it, else sequential SCOTCH.
  input.parallel_analysis = position == nullptr &&
                            options.ordering == Ordering::kPtScotch &&
                            MumpsHasParallelAnalysis();
  if (position != nullptr) {
    input.perm_in.resize(n);
    for (int i = 0; i < n; ++i) input.perm_in[i] = (*position)[i] + 1;
  } else if (options.ordering == Ordering::kMetis) {
    const SteadyClock::time_point start = SteadyClock::now();
    std::vector<int> perm, iperm;
    const LinearSolverStatus status =
        ComputeMetisOrdering(pattern,
                             &perm,
                             &iperm,
                             message,
                             &ordering_report,
                             use_blocks && (options.adaptive_block_ordering ||
                                            pattern.blocks_first));
    stats->ordering_seconds += SecondsSince(start);
    if (status != LinearSolverStatus::kSuccess) return status;
    // PERM_IN(i) = pivot position of variable i = iperm[i - 1] + 1 (1-based
    // i; see ordering.h).
    input.perm_in.resize(n);
    for (int i = 0; i < n; ++i) input.perm_in[i] = iperm[i] + 1;
    given_is_metis = true;
    by_blocks = ordering_report.by_blocks;
  }
  return LinearSolverStatus::kSuccess;
}

LinearSolverStatus MumpsSolver::Impl::AnalyzeOrdered(
    const SparsityPattern& pattern,
    bool use_blocks,
    LinearSolverStats* stats,
    std::string* message) {
  ForgetSymmetric();
  if (const LinearSolverStatus status =
          ComputeOrdering(pattern, given_position, use_blocks, stats, message);
      status != LinearSolverStatus::kSuccess) {
    return status;
  }
  // The LU's symbolic phase waits only for an ordering of our own (PERM_IN):
  // the LDL^T then follows it too, and its name is known without MUMPS.
  lu_pending = pattern.symmetric_first && !input.perm_in.empty();
  int infog7 = 1, infog32 = 1;
  if (!lu_pending) {
    if (const LinearSolverStatus status =
            AnalyzeInstances(&sgl, &dbl, stats, &infog7, &infog32, message);
        status != LinearSolverStatus::kSuccess) {
      return status;
    }
  }
  stats->ordering_used = MumpsOrderingName(infog7, infog32, given_is_metis);
  stats->reanalysis_estimate_flops = 0;
  flops_since_analysis = 0;
  if (by_blocks) {
    stats->ordering_used += "-blocks";
    stats->reanalysis_estimate_flops =
        EstimatedReanalysisFlops(ordering_report);
  }
  return LinearSolverStatus::kSuccess;
}

LinearSolverStatus MumpsSolver::Impl::ApplyAdaptiveOrdering(
    const SparsityPattern& pattern,
    LinearSolverStats* stats,
    double* seconds,
    std::string* message) {
  *seconds = 0;
  if (!by_blocks ||
      !ShouldReorderWithoutBlocks(flops_since_analysis,
                                  stats->reanalysis_estimate_flops)) {
    return LinearSolverStatus::kSuccess;
  }
  const SteadyClock::time_point start = SteadyClock::now();
  const LinearSolverStatus status =
      AnalyzeOrdered(pattern, /*use_blocks=*/false, stats, message);
  *seconds = SecondsSince(start);
  return status;
}

LinearSolverStatus MumpsSolver::Impl::AnalyzeInstances(
    MumpsFactorization<float>* single,
    MumpsFactorization<double>* dbl_pair,
    LinearSolverStats* stats,
    int* infog7,
    int* infog32,
    std::string* message) {
  // kDouble analyses the double instance, kMixed the single one (a double
  // instance left from a fallback on the previous pattern is dropped; the
  // first fallback analyses a new one). kAuto analyses the single instance,
  // and the double one too when the estimate stays below kAutoMixedMinFlops:
  // large systems pay one analysis (and a double one at a first fallback, as
  // kMixed), small ones a second cheap symbolic pass with the same ordering.
  // The double factors are the same either way.
  LinearSolverStatus status = LinearSolverStatus::kFailure;
  switch (options.precision) {
    case FactorizationPrecision::kMixed:
      dbl_pair->Drop();
      status = AnalyzeAndRead(single, stats, infog7, infog32, message);
      single_enabled = true;
      break;
    case FactorizationPrecision::kDouble:
      status = AnalyzeAndRead(dbl_pair, stats, infog7, infog32, message);
      single_enabled = false;
      break;
    case FactorizationPrecision::kAuto:
      status = AnalyzeAndRead(single, stats, infog7, infog32, message);
      single_enabled = status == LinearSolverStatus::kSuccess &&
                       stats->estimated_flops >= kAutoMixedMinFlops;
      if (single_enabled) {
        dbl_pair->Drop();
      } else {
        status = AnalyzeAndRead(dbl_pair, stats, infog7, infog32, message);
      }
      break;
  }
  if (status == LinearSolverStatus::kSuccess) {
    // The memory of the instance that factorizes first.
    if (single_enabled) {
      ReadMemoryEstimates(*single->instance(), options, stats);
    } else {
      ReadMemoryEstimates(*dbl_pair->instance(), options, stats);
    }
  }
  return status;
}

LinearSolverStatus MumpsSolver::Impl::AnalyzePendingLu(LinearSolverStats* stats,
                                                       double* seconds,
                                                       std::string* message) {
  *seconds = 0;
  if (!lu_pending) return LinearSolverStatus::kSuccess;
  const SteadyClock::time_point start = SteadyClock::now();
  int infog7 = 0, infog32 = 0;
  const LinearSolverStatus status =
      AnalyzeInstances(&sgl, &dbl, stats, &infog7, &infog32, message);
  lu_pending = false;
  *seconds = SecondsSince(start);
  return status;
}

LinearSolverStatus MumpsSolver::Impl::FactorizeSymmetric(
    const SparsityPattern& pattern,
    const double* values,
    LinearSolverStats* stats,
    std::string* message) {
  if (input.distributed || input.parallel_analysis) {
    return linalg_detail::Report(
        LinearSolverStatus::kUnavailable,
        "no symmetric factorization with a distributed input or the "
        "parallel analysis",
        message);
  }
  if (!sym_built) {
    BuildSymmetricInput(pattern, input, &sym);
    sym_mixed.Reset(&pattern);
    sym_built = true;
    // With the LU's analysis postponed, the LDL^T's decides the arithmetic
    // and gives the estimates.
    int infog7 = 0, infog32 = 0;
    if (lu_pending) {
      if (const LinearSolverStatus status = AnalyzeInstances(
              &sym_sgl, &sym_dbl, stats, &infog7, &infog32, message);
          status != LinearSolverStatus::kSuccess) {
        return status;
      }
    }
  }
  if (!SymmetricValues(sym, values)) {
    return linalg_detail::Report(
        LinearSolverStatus::kInvalidInput,
        "FactorizeSymmetric: the values are not those of a symmetric matrix",
        message);
  }
  symmetric_active = true;
  return active().Factorize(values, message);
}

std::unique_ptr<MumpsSolver> MumpsSolver::Create(
    const LinearSolverOptions& options, std::string* message) {
  if (std::string why = options.Validate(); !why.empty()) {
    linalg_detail::Report(LinearSolverStatus::kInvalidInput, why, message);
    return nullptr;
  }
  std::unique_ptr<MumpsSolver> solver(new MumpsSolver(options));
  // The instance that factorizes first (JOB = -1 now, so that an unusable
  // MUMPS is reported at creation): single in mixed mode, else double.
  Impl& m = *solver->impl_;
  const LinearSolverStatus status =
      options.precision == FactorizationPrecision::kMixed ? m.sgl.Init(message)
                                                          : m.dbl.Init(message);
  if (status != LinearSolverStatus::kSuccess) return nullptr;
  if (message != nullptr) message->clear();
  return solver;
}

MumpsSolver::MumpsSolver(const LinearSolverOptions& options)
    : impl_(std::make_unique<Impl>(options, &mutable_stats())) {}

MumpsSolver::~MumpsSolver() = default;

LinearSolverStatus MumpsSolver::AnalyzeWithOrdering(
    const SparsityPattern& pattern,
    const std::vector<int>& position,
    std::string* message) {
  impl_->given_position = &position;
  const LinearSolverStatus status = Analyze(pattern, message);
  impl_->given_position = nullptr;
  return status;
}

LinearSolverStatus MumpsSolver::DoAnalyze(const SparsityPattern& pattern,
                                          std::string* message) {
  Impl& m = *impl_;
  LinearSolverStats& stats = mutable_stats();
  m.mixed.Reset(&pattern);
  if (m.given_position != nullptr) {
    if (std::string why = CheckPermutation(*m.given_position, pattern.n);
        !why.empty()) {
      return linalg_detail::Report(
          LinearSolverStatus::kInvalidInput, why, message);
    }
  }
  m.BuildCoordinates(pattern);
  return m.AnalyzeOrdered(pattern, /*use_blocks=*/true, &stats, message);
}

LinearSolverStatus MumpsSolver::DoFactorize(const double* values,
                                            std::string* message) {
  Impl& m = *impl_;
  double reanalysis_seconds = 0;
  const LinearSolverStatus reordered = m.ApplyAdaptiveOrdering(
      pattern(), &mutable_stats(), &reanalysis_seconds, message);
  if (reanalysis_seconds > 0) CountReanalysis(reanalysis_seconds);
  if (reordered != LinearSolverStatus::kSuccess) return reordered;
  double pending_seconds = 0;
  const LinearSolverStatus analyzed =
      m.AnalyzePendingLu(&mutable_stats(), &pending_seconds, message);
  CountAnalysisSeconds(pending_seconds);
  if (analyzed != LinearSolverStatus::kSuccess) return analyzed;
  m.symmetric_active = false;
  const LinearSolverStatus status = m.active().Factorize(values, message);
  m.CopyCounters(&mutable_stats());
  m.CountFlops(status, mutable_stats());
  return status;
}

LinearSolverStatus MumpsSolver::DoFactorizeSymmetric(const double* values,
                                                     std::string* message) {
  Impl& m = *impl_;
  const LinearSolverStatus status =
      m.FactorizeSymmetric(pattern(), values, &mutable_stats(), message);
  m.CopyCounters(&mutable_stats());
  m.CountFlops(status, mutable_stats());
  return status;
}

LinearSolverStatus MumpsSolver::DoSolveUnrefined(Eigen::VectorXd* rhs,
                                                 std::string* message) {
  Impl& m = *impl_;
  if (!m.single_enabled) return m.active_double().Solve(rhs, message);
  return m.active_mixed().SolveUnrefined(rhs, message);
}

LinearSolverStatus MumpsSolver::DoSolve(Eigen::VectorXd* rhs,
                                        std::string* message) {
  Impl& m = *impl_;
  NumericFactorization& active = m.active();
  MixedPrecisionFactorization& mixed = m.active_mixed();
  const double refactorization_before = mixed.refactorization_seconds();
  const LinearSolverStatus status =
      m.single_enabled ? mixed.Solve(rhs, sufficient(), message)
                       : active.Solve(rhs, message);
  CountRefactorizationSeconds(mixed.refactorization_seconds() -
                              refactorization_before);
  m.CopyCounters(&mutable_stats());
  if (status != LinearSolverStatus::kSuccess && !active.factorized()) {
    DiscardFactorization();
  }
  return status;
}

int MumpsSolver::Infog(int i) const {
  const Impl& m = *impl_;
  if (i < 1 || i > 80) return 0;
  const bool sym = m.symmetric_active;
  const MumpsInstance<double>* dbl =
      sym ? m.sym_dbl.instance() : m.dbl.instance();
  const MumpsInstance<float>* sgl =
      sym ? m.sym_sgl.instance() : m.sgl.instance();
  const bool uses_low = sym ? m.sym_mixed.uses_low() : m.mixed.uses_low();
  if (m.single_enabled && uses_low && sgl) return sgl->infog(i);
  if (dbl) return dbl->infog(i);
  return sgl ? sgl->infog(i) : 0;
}

int MumpsSolver::Icntl(int i) const {
  const Impl& m = *impl_;
  if (i < 1 || i > 60) return 0;
  const bool sym = m.symmetric_active;
  const MumpsInstance<double>* dbl =
      sym ? m.sym_dbl.instance() : m.dbl.instance();
  const MumpsInstance<float>* sgl =
      sym ? m.sym_sgl.instance() : m.sgl.instance();
  if (dbl) return dbl->icntl(i);
  return sgl ? sgl->icntl(i) : 0;
}

}  // namespace fcsn::internal
