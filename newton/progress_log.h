// newton/progress_log.h: the lines of SolverOptions::log, an opt-in progress
// log in the manner of Ceres' minimizer progress:
//
//   setup: n 7205, m 2064, nc 688, hybrid/ac: 0.412 s (1 analysis: 0.102 s)
//   nsgs warm start
//    phase  iter    e_cone    e_dual    e_comp      e_eq     merit  alpha  take-off  stick  slip  time_s
//     nsgs     0  1.00e+00  ...          -      -        688      0     0   0.415
//   newton
//    phase  iter    e_cone ...
//   newton     0  3.10e-02 ...  4.2e-01  0.000       12    600    76   0.520
//   end: converged, 5 Newton iterations, 20 NSGS sweeps, 0.913 s
//
// One row per recorded iterate (Newton iteration, NSGS error check), a
// header when the phase changes. Nothing is formatted when the log is unset.
#ifndef FCSN_NEWTON_PROGRESS_LOG_H_
#define FCSN_NEWTON_PROGRESS_LOG_H_

#include "fcsn/options.h"
#include "fcsn/summary.h"

namespace fcsn::internal {

struct SolveRun;  // newton/solve_run.h

// The rows of one solve and the phase headers before them.
class ProgressLog {
 public:
  // A new solve; options must outlive it.
  void Start(const SolverOptions* options);
  // The header when record.phase differs from the last row's, then the row.
  void Row(const IterationRecord& record);

 private:
  const SolverOptions* options_ = nullptr;
  bool has_phase_ = false;
  IterationPhase phase_ = IterationPhase::kNewton;
  bool newton_seen_ = false;  // later NSGS rows are a fallback
};

// The line after the setup: sizes, policy, setup and analysis times.
void LogSetup(const SolverOptions& options, const SolveRun& run);
// The last line: status, counts, time, and the message when there is one.
void LogEnd(const SolverOptions& options, const SolverSummary& summary);

}  // namespace fcsn::internal

#endif  // FCSN_NEWTON_PROGRESS_LOG_H_
