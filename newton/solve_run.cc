// The state of one Solve() (see solve_run.h).
#include "newton/solve_run.h"

#include <string>

#include "newton/cold_start.h"

namespace fcsn::internal {

void ApplyColdStart(const SolverOptions& options, SolveRun* run) {
  ApplyColdStart(options.cold_start,
                 *run->problem,
                 run->m->free_velocity(),
                 run->scaling.q_free,
                 run->scaling.rho,
                 options.rho.initial_boost,
                 &run->v,
                 &run->r);
}

void ReportMeasures(const ErrorMeasures& returned, SolveRun* run) {
  SolverSummary* summary = run->summary;
  CopyMeasures(returned, summary);
  summary->siconos_error = returned.siconos_error;
  summary->velocity_scale = returned.velocity_scale;
  summary->velocity_floor = returned.velocity_floor;
  summary->floor_from_diagonal = returned.floor_from_diagonal;
  if (!run->scaling.m_regular) {
    const std::string note =
        "M is not regular (" + run->scaling.m_not_regular_reason +
        "): diag(M)^-1 stood in for M^-1 in the scaling and the criterion's "
        "floor, and no NSGS phase ran";
    summary->message =
        summary->message.empty() ? note : summary->message + "; " + note;
  }
}

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
