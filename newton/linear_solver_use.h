// newton/linear_solver_use.h: what fcsn::Solver compares of its linear
// solver's options (to keep the analysis) and copies of its report (into the
// summary).
#ifndef FCSN_NEWTON_LINEAR_SOLVER_USE_H_
#define FCSN_NEWTON_LINEAR_SOLVER_USE_H_

#include "fcsn/linear_solver_options.h"
#include "fcsn/summary.h"
#include "linalg/linear_solver.h"

namespace fcsn::internal {

// What the linear solver reports about its last factorization and memory.
void CopyFactorizationReport(const LinearSolverStats& stats,
                             SolverSummary* summary);

}  // namespace fcsn::internal

#endif  // FCSN_NEWTON_LINEAR_SOLVER_USE_H_
