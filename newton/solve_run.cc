// The state of one Solve() (see solve_run.h).
#include "newton/solve_run.h"

#include <string>

namespace fcsn::internal {

// Converged must agree with the measures of what is returned (recomputed
// from the returned v and r): a disagreement would be a bug, and is reported
// as one (kNumericalIssue) rather than as a success.
void ConfirmConvergence(const ErrorMeasures& returned,
                        double tolerance,
                        SolverSummary* summary) {
  if (summary->status != SolverStatus::kConverged ||
      returned.Converged(tolerance)) {
    return;
  }
  summary->status = SolverStatus::kNumericalIssue;
  summary->message =
      "internal inconsistency: convergence was reported but the returned "
      "point has " +
      returned.Describe();
}

}  // namespace fcsn::internal
