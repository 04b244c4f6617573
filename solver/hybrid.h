// solver/hybrid.h: the default policy, NSGS warm start -> Newton -> NSGS
// fallback (SolverType::kHybrid, formulations.md §8, HybridOptions).
//
//   1. warm start (only when the NSGS phases are Gauss-Seidel on W): NSGS
//      sweeps until the criterion reaches max(tol, sqrt(tol)), the sweep
//      budget (warm_sweeps, or warm_sweeps_with_guess with a guess), or a
//      poor contraction; it may solve the problem outright;
//   2. Newton (newton/newton_driver.h), with the stall test where the
//      fallback is Gauss-Seidel on W;
//   3. on a Newton failure (stalled, linear solver failed, numerical issue, or
//      line search failed under LineSearchFailurePolicy::kFallback), at most
//      max_fallbacks times: fallback_sweeps NSGS sweeps from the best iterate
//      so far, then back to 2. Converged, the budgets, the round-off limit and
//      an abort end the solve, as does a line-search failure under kStop.
#ifndef FCSN_SOLVER_HYBRID_H_
#define FCSN_SOLVER_HYBRID_H_

#include <functional>

#include "fcsn/options.h"
#include "linalg/m_factorization.h"
#include "newton/solve_run.h"
#include "solver/nsgs_phase.h"

namespace fcsn::internal {

// Newton from run's iterate (NewtonDriver::Run on the solver's system and
// linear solver), with or without the stall test.
using NewtonRunner = std::function<void(bool detect_stall)>;

void RunHybrid(const SolverOptions& options,
               MInverse* m_inverse,
               NsgsPhase* nsgs,
               const NewtonRunner& run_newton,
               SolveRun* run);

}  // namespace fcsn::internal

#endif  // FCSN_SOLVER_HYBRID_H_
