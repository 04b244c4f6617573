#include "solver/hybrid.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace fcsn::internal {
namespace {

// Step 1 of hybrid.h; true when the solve ends in the warm start.
bool WarmStartEnds(const SolverOptions& options,
                   MInverse* m_inverse,
                   NsgsPhase* nsgs,
                   SolveRun* run) {
  const double tol = options.tolerance;
  // Warm start: NSGS until its own error reaches the switch tolerance
  // sqrt(tol) (Siconos' VI-EG hybrid switches there too), the sweep budget, or
  // a poor contraction (HybridOptions::warm_contraction_window); it may also
  // solve the problem outright. Only when W fits the memory budget: projected
  // Jacobi (the over-budget NSGS phase) costs a solve with M per sweep, as
  // much as a Newton iteration on a stiff elastic bar, and does not contract
  // there; it only serves as the fallback.
  const int warm_sweeps = run->has_guess ? options.hybrid.warm_sweeps_with_guess
                                         : options.hybrid.warm_sweeps;
  if (warm_sweeps <= 0 ||
      nsgs->Method(options, m_inverse, run) != NsgsMethod::kGaussSeidel) {
    return false;
  }
  NsgsResult result;
  if (!nsgs->Run(options,
                 m_inverse,
                 run,
                 std::max(tol, std::sqrt(tol)),
                 warm_sweeps,
                 &result,
                 /*warm_start=*/true)) {
    return true;
  }
  if (result.errors.Converged(tol)) {
    run->summary->status = SolverStatus::kConverged;
    return true;
  }
  return run->summary->status == SolverStatus::kTimeLimit ||
         run->recorder.aborted();
}

// Whether a Newton run that ended with `status` hands over to NSGS.
bool FallsBack(const SolverOptions& options, SolverStatus status) {
  switch (status) {
    case SolverStatus::kConverged:
    case SolverStatus::kMaxIterations:
    case SolverStatus::kTimeLimit:
    case SolverStatus::kInvalidInput:
    case SolverStatus::kRoundOffLimit:  // NSGS cannot do better
    case SolverStatus::kAborted:
      return false;
    case SolverStatus::kLineSearchFailed:
      return options.line_search.on_failure ==
             LineSearchFailurePolicy::kFallback;
    case SolverStatus::kLinearSolverFailed:
    case SolverStatus::kNumericalIssue:
    case SolverStatus::kStalled:
      return true;
  }
  return false;
}

}  // namespace

void RunHybrid(const SolverOptions& options,
               MInverse* m_inverse,
               NsgsPhase* nsgs,
               const NewtonRunner& run_newton,
               SolveRun* run) {
  SolverSummary& summary = *run->summary;
  if (WarmStartEnds(options, m_inverse, nsgs, run)) return;
  // Newton starting cold without warm-up sweeps (W over its budget, or none
  // asked for) starts as pure Newton does (SolverOptions::cold_start).
  if (!run->has_guess && summary.nsgs_sweeps == 0) ApplyColdStart(options, run);
  // Newton's stall test hands over to NSGS, which pays only where NSGS is
  // Gauss-Seidel on W. Over the W budget the fallback is projected Jacobi,
  // which does not contract on FEM walls: there Newton runs to its own end as
  // pure Newton does (refined walls, tol 1e-8: with the stall test 100
  // iterations and 150 Jacobi sweeps without convergence, 2 of 3 steps;
  // without it 33 and 43 iterations, bench/results/default_policy.md), and
  // Jacobi only follows hard failures.
  const bool detect_stall =
      nsgs->Method(options, m_inverse, run) == NsgsMethod::kGaussSeidel;
  for (;;) {
    run_newton(detect_stall);
    if (!FallsBack(options, summary.status) || run->recorder.aborted() ||
        summary.fallbacks >= options.hybrid.max_fallbacks) {
      return;
    }
    if (nsgs->Method(options, m_inverse, run) == NsgsMethod::kNone) {
      summary.message +=
          run->scaling.m_regular
              ? " (no NSGS fallback: W would exceed the memory budget of "
                "HybridOptions::delassus_budget_per_nonzero, and M is not "
                "symmetric, so projected Jacobi has no LDL^T factorization)"
              : " (no NSGS fallback: M is not regular)";
      return;
    }
    // Fallback: NSGS sweeps from the best iterate so far, then Newton again.
    const std::string newton_failure = summary.message;
    ++summary.fallbacks;
    run->v = run->recorder.best_v();
    run->r = run->recorder.best_r();
    NsgsResult result;
    if (!nsgs->Run(options,
                   m_inverse,
                   run,
                   options.tolerance,
                   options.hybrid.fallback_sweeps,
                   &result)) {
      return;
    }
    if (result.errors.Converged(options.tolerance)) {
      summary.status = SolverStatus::kConverged;
      summary.message =
          "converged in NSGS after Newton failed (" + newton_failure + ")";
      return;
    }
    if (summary.status == SolverStatus::kTimeLimit) return;
  }
}

}  // namespace fcsn::internal
