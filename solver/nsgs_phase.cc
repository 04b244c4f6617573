#include "solver/nsgs_phase.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "newton/stop.h"

namespace fcsn::internal {
namespace {

// The warm start's contraction test (HybridOptions): the worst measure must
// drop below `ratio` times its value at a check at least `window` sweeps
// before (the reference). window 0: no test.
class ContractionTest {
 public:
  ContractionTest(int window, double ratio) : window_(window), ratio_(ratio) {}
  // Feeds the check after `sweep` (0: the start).
  void Feed(int sweep, double worst) {
    if (window_ <= 0 || (sweep != 0 && sweep < reference_sweep_ + window_))
      return;
    poor_ = worst > ratio_ * reference_worst_;
    reference_sweep_ = sweep;
    reference_worst_ = worst;
  }
  bool poor() const { return poor_; }

 private:
  int window_;
  double ratio_;
  int reference_sweep_ = 0;
  double reference_worst_ = std::numeric_limits<double>::infinity();
  bool poor_ = false;
};

}  // namespace

void NsgsPhase::Start() {
  method_ = NsgsMethod::kUnknown;
  delassus_ready_ = false;
  jacobi_ready_ = false;
}

NsgsMethod NsgsPhase::Method(const SolverOptions& options,
                             MInverse* m_inverse,
                             SolveRun* run) {
  if (method_ != NsgsMethod::kUnknown) return method_;
  method_ = NsgsMethod::kGaussSeidel;
  if (options.solver != SolverType::kHybrid) return method_;
  // NSGS and projected Jacobi need M^-1 (W = H^T M^-1 H): with M not regular
  // the hybrid is Newton alone.
  if (!run->scaling.m_regular) {
    method_ = NsgsMethod::kNone;
    return method_;
  }
  const GlobalProblem& problem = *run->problem;
  const HybridOptions& hybrid = options.hybrid;
  const double nonzeros =
      static_cast<double>(problem.M.nonZeros() + problem.H.nonZeros());
  // Clamped below 2^63 for the conversion (the factor is finite, not bounded).
  const long long budget =
      std::max(hybrid.delassus_min_budget,
               static_cast<long long>(std::min(
                   hybrid.delassus_budget_per_nonzero * nonzeros, 1e18)));
  if (Delassus::BuildCost(problem, budget) > budget) {
    run->summary->delassus_over_budget = true;
    // Jacobi runs on the LDL^T (or L L^T) m_inverse made for rho (symmetric
    // M only).
    const bool have_ldlt = m_inverse->factorization().symmetric();
    method_ = have_ldlt ? NsgsMethod::kJacobi : NsgsMethod::kNone;
  }
  return method_;
}

bool NsgsPhase::Prepare(NsgsMethod method, MInverse* m_inverse, SolveRun* run) {
  SolverSummary& summary = *run->summary;
  if (!run->scaling.m_regular) {
    // Out of NSGS' scope, whether M is singular or indefinite: the same
    // answer for both (the Newton and hybrid policies take such an M).
    summary.status = SolverStatus::kInvalidInput;
    summary.message = "NSGS needs M positive definite (W = H^T M^-1 H): " +
                      run->scaling.m_not_regular_reason;
    return false;
  }
  if (method == NsgsMethod::kJacobi && !jacobi_ready_) {
    jacobi_ = std::make_unique<ProjectedJacobiSolver>(
        m_inverse->factorization(), run->scaling.rho, run->scaling.q_free_norm);
    jacobi_ready_ = true;
  }
  if (method == NsgsMethod::kGaussSeidel && !delassus_ready_) {
    std::string message;
    if (!delassus_.Compute(*run->problem, m_inverse, &message)) {
      summary.status = SolverStatus::kNumericalIssue;
      summary.message =
          "NSGS: the Delassus operator could not be built: " + message;
      return false;
    }
    nsgs_ = std::make_unique<NsgsSolver>(delassus_);
    delassus_ready_ = true;
    summary.delassus_entries = 9LL * delassus_.num_blocks();
  }
  return true;
}

bool NsgsPhase::Run(const SolverOptions& options,
                    MInverse* m_inverse,
                    SolveRun* run,
                    double tol,
                    int max_sweeps,
                    NsgsResult* result,
                    bool warm_start) {
  SolverSummary& summary = *run->summary;
  ScopedTimer timer(&summary.timings.nsgs);
  const NsgsMethod method = Method(options, m_inverse, run);
  if (method == NsgsMethod::kNone ||
      StopsBetweenStages(run, options, "the NSGS sweeps") ||
      !Prepare(method, m_inverse, run))
    return false;
  const int first_sweep = summary.nsgs_sweeps;
  const int window = warm_start ? options.hybrid.warm_contraction_window : 0;
  ContractionTest contraction(window, options.hybrid.warm_contraction_ratio);
  // NSGS checks its error at (run->r, run->v), the iterate recorded here.
  auto on_check = [&](int sweep, const ErrorMeasures& errors) {
    IterationRecord record;
    record.phase = IterationPhase::kNsgs;
    record.iteration = first_sweep + sweep;
    run->recorder.Record(run->v, run->r, std::move(record), errors);
    contraction.Feed(sweep, errors.Worst());
    return !run->recorder.aborted() && !contraction.poor();
  };
  NsgsOptions nsgs_options = options.nsgs;
  if (window > 0) {
    nsgs_options.error_check_frequency =
        std::min(nsgs_options.error_check_frequency, window);
  }
  // NsgsSolver and ProjectedJacobiSolver share Run's signature: one call for
  // whichever sweeper this solve uses.
  const auto sweep = [&](auto& sweeper) {
    return sweeper.Run(*run->problem,
                       nsgs_options,
                       tol,
                       max_sweeps,
                       run->deadline,
                       &run->r,
                       &run->v,
                       on_check);
  };
  *result = method == NsgsMethod::kJacobi ? sweep(*jacobi_) : sweep(*nsgs_);
  summary.nsgs_sweeps += result->sweeps;
  summary.status = result->status;
  summary.message = result->message;
  if (contraction.poor() && !run->recorder.aborted()) {
    summary.message = "NSGS warm start stopped after " +
                      std::to_string(result->sweeps) +
                      " sweeps: poor contraction";
  }
  return true;
}

}  // namespace fcsn::internal
