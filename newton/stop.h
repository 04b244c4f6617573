// newton/stop.h: the ends of a solve that come from outside its iterations:
// the wall-clock deadline (SolverOptions::time_limit_seconds, the whole
// solve, setup included) and a stop request (Solver::RequestStop(),
// SolverOptions::stop).
//
// The Newton loop and the NSGS sweeps already test the deadline; the setup
// tests both between its stages (StopsBetweenStages), the iterate recorder
// tests the stop request at every recorded iterate (newton/iterate_recorder.h)
// and ends the phases as an aborting iteration callback would. Every test
// is collective under MPI MUMPS: the ranks' clocks and flags differ, but all
// ranks must take the same branch before the next MUMPS call.
#ifndef FCSN_NEWTON_STOP_H_
#define FCSN_NEWTON_STOP_H_

#include <atomic>

#include "fcsn/options.h"
#include "fcsn/summary.h"
#include "linalg/stopwatch.h"

namespace fcsn::internal {

struct SolveRun;  // newton/solve_run.h

// start + limit_seconds; time_point::max() for no limit (not finite, or above
// kLongestTimeLimitSeconds).
SteadyClock::time_point Deadline(SteadyClock::time_point start,
                                 double limit_seconds);

// The caller asked the solve to stop: solver_flag (Solver::RequestStop(),
// may be null) or options.stop reads true, on any rank.
bool StopAsked(const std::atomic<bool>* solver_flag,
               const SolverOptions& options);

// A check between two stages of the setup, or before a phase (stage names
// what comes next, for the message): when the deadline has passed or a stop was asked, sets the
// status (kTimeLimit, kAborted) and the message and returns true.
bool StopsBetweenStages(SolveRun* run,
                        const SolverOptions& options,
                        const char* stage);

// The status of a solve that StopsBetweenStages ended during the setup (the
// only ends of the setup that still return a point).
bool StoppedEarly(const SolverSummary& summary);

// After the phases: a solve that a stop request ended reports it as such
// (the phases report any abort as the iteration callback's).
void ExplainStop(SolveRun* run);

// Clears Solver::RequestStop()'s flag when a Solve() returns, however.
class ClearOnReturn {
 public:
  explicit ClearOnReturn(std::atomic<bool>* flag) : flag_(flag) {}
  ~ClearOnReturn() { flag_->store(false); }
  ClearOnReturn(const ClearOnReturn&) = delete;
  ClearOnReturn& operator=(const ClearOnReturn&) = delete;

 private:
  std::atomic<bool>* flag_;
};

}  // namespace fcsn::internal

#endif  // FCSN_NEWTON_STOP_H_
