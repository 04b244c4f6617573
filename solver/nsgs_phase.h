// solver/nsgs_phase.h: the NSGS phases of a solve (pure NSGS, the hybrid's
// warm start and fallbacks; formulations.md §7, §8).
//
// Method (chosen once per solve): Gauss-Seidel on the Delassus operator
// W = H^T M^-1 H (nsgs/nsgs.h) when W fits the memory budget of
// HybridOptions (counted before anything is factored) or the solver is pure
// NSGS; otherwise projected Jacobi on the solve's LDL^T of M (MInverse,
// linalg/m_factorization.h; sets SolverSummary::delassus_over_budget), or none
// when M was not symmetric (no such factorization exists).
//
// Each error check of a phase records the iterate (newton/iterate_recorder.h)
// under IterationPhase::kNsgs with the sweep index counted over the solve.
// The hybrid's warm start also stops on poor contraction: the worst measure
// must drop below HybridOptions::warm_contraction_ratio times its value at a
// check at least warm_contraction_window sweeps before.
//
// Usage:
//   NsgsPhase nsgs;                            // kept by the solver
//   nsgs.Start();                              // at each solve
//   NsgsResult result;
//   if (!nsgs.Run(options, &m_inverse, &run, tol, sweeps, &result)) ...
#ifndef FCSN_SOLVER_NSGS_PHASE_H_
#define FCSN_SOLVER_NSGS_PHASE_H_

#include <memory>

#include "fcsn/options.h"
#include "linalg/m_factorization.h"
#include "minverse/delassus.h"
#include "newton/solve_run.h"
#include "nsgs/nsgs.h"

namespace fcsn::internal {

enum class NsgsMethod { kUnknown, kGaussSeidel, kJacobi, kNone };

class NsgsPhase {
 public:
  // A new solve: the method is chosen again, W and Jacobi rebuilt when used.
  void Start();

  // The method of this solve's NSGS phases (chosen at the first call).
  NsgsMethod Method(const SolverOptions& options,
                    MInverse* m_inverse,
                    SolveRun* run);

  // NSGS sweeps from run->r (run->v recovered), at most max_sweeps, until the
  // criterion meets tol; summary's sweeps, status and message set from the
  // result. False (status set when W failed, or when the deadline passed
  // or a stop was asked before the sweeps: newton/stop.h) if the phase
  // cannot run.
  // warm_start: the hybrid's warm start, which also stops on poor
  // contraction; the result's status is then kAborted with
  // run->recorder.aborted() false.
  bool Run(const SolverOptions& options,
           MInverse* m_inverse,
           SolveRun* run,
           double tol,
           int max_sweeps,
           NsgsResult* result,
           bool warm_start = false);

 private:
  // Builds W (and the Gauss-Seidel solver) or the Jacobi solver for this
  // solve if not done yet; false (status set) if W cannot be built.
  bool Prepare(NsgsMethod method, MInverse* m_inverse, SolveRun* run);

  Delassus delassus_;
  std::unique_ptr<NsgsSolver> nsgs_;
  std::unique_ptr<ProjectedJacobiSolver> jacobi_;
  NsgsMethod method_ = NsgsMethod::kUnknown;
  bool delassus_ready_ = false;  // delassus_ holds this solve's W
  bool jacobi_ready_ = false;    // jacobi_ is set up for this solve
};

}  // namespace fcsn::internal

#endif  // FCSN_SOLVER_NSGS_PHASE_H_
