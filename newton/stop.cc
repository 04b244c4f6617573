// The deadline and the stop request of a solve (see stop.h).
#include "newton/stop.h"

#include <chrono>
#include <cmath>
#include <string>

#include "linalg/mumps_comm.h"
#include "newton/solve_run.h"

namespace fcsn::internal {
namespace {

// Time limits above this many seconds (about 31.7 years) mean no limit: the
// deadline start + limit is held in the clock's signed 64-bit nanosecond
// count, which overflows near 9.2e9 s; any limit a solve can reach is far
// below.
constexpr double kLongestTimeLimitSeconds = 1e9;

// flag on any rank (MPI MUMPS), else flag.
bool OnAnyRank(bool flag, const SolverOptions& options) {
  if (options.linear_solver.type != LinearSolverType::kMumps) return flag;
  return AnyRank(flag, options.linear_solver.mpi_communicator);
}

bool Raised(const std::atomic<bool>* flag) {
  return flag != nullptr && flag->load(std::memory_order_acquire);
}

}  // namespace

SteadyClock::time_point Deadline(SteadyClock::time_point start,
                                 double limit_seconds) {
  if (!(std::isfinite(limit_seconds) &&
        limit_seconds < kLongestTimeLimitSeconds)) {
    return SteadyClock::time_point::max();
  }
  return start + std::chrono::duration_cast<SteadyClock::duration>(
                     std::chrono::duration<double>(limit_seconds));
}

bool StopAsked(const std::atomic<bool>* solver_flag,
               const SolverOptions& options) {
  return OnAnyRank(Raised(solver_flag) || Raised(options.stop), options);
}

bool StopsBetweenStages(SolveRun* run,
                        const SolverOptions& options,
                        const char* stage) {
  // The stop request first: a caller who asked to stop wants to hear so,
  // even when the time ran out too.
  SolverSummary& summary = *run->summary;
  if (StopAsked(run->stop_request, options)) {
    summary.status = SolverStatus::kAborted;
    summary.message = std::string("stopped on request before ") + stage +
                      "; the best point so far is returned";
    return true;
  }
  const bool late = run->deadline != SteadyClock::time_point::max() &&
                    SteadyClock::now() >= run->deadline;
  if (!OnAnyRank(late, options)) return false;
  summary.status = SolverStatus::kTimeLimit;
  summary.message = std::string("time limit reached before ") + stage +
                    "; the best point so far is returned";
  return true;
}

bool StoppedEarly(const SolverSummary& summary) {
  return summary.status == SolverStatus::kTimeLimit ||
         summary.status == SolverStatus::kAborted;
}

void ExplainStop(SolveRun* run) {
  SolverSummary& summary = *run->summary;
  if (summary.status != SolverStatus::kAborted || !run->recorder.stop_asked()) {
    return;
  }
  summary.message =
      "stopped on request after " + std::to_string(summary.iterations) +
      " Newton iterations and " + std::to_string(summary.nsgs_sweeps) +
      " NSGS sweeps; the best point is returned";
}

}  // namespace fcsn::internal
