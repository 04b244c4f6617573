// The lines of the progress log (see progress_log.h).
#include "newton/progress_log.h"

#include <cstdio>
#include <string>

#include "newton/solve_run.h"

namespace fcsn::internal {
namespace {

// printf into a std::string (the lines are short; 256 bytes hold any row).
template <typename... Args>
std::string Format(const char* format, Args... args) {
  char line[256];
  std::snprintf(line, sizeof(line), format, args...);
  return line;
}

const char* PhaseName(const SolverOptions& options,
                      IterationPhase phase,
                      bool newton_seen) {
  switch (phase) {
    case IterationPhase::kNewton:
      return "newton";
    case IterationPhase::kNsgs:
      if (options.solver != SolverType::kHybrid) return "nsgs";
      return newton_seen ? "nsgs fallback" : "nsgs warm start";
  }
  return "?";
}

}  // namespace

void ProgressLog::Start(const SolverOptions* options) {
  options_ = options;
  has_phase_ = false;
  newton_seen_ = false;
}

void ProgressLog::Row(const IterationRecord& record) {
  if (!options_ || !options_->log) return;
  const std::function<void(const std::string&)>& log = options_->log;
  if (!has_phase_ || record.phase != phase_) {
    log(PhaseName(*options_, record.phase, newton_seen_));
    log(" phase  iter    e_cone    e_dual    e_comp      e_eq     merit  "
        "alpha  take-off  stick  slip  time_s");
    has_phase_ = true;
    phase_ = record.phase;
  }
  const bool newton = record.phase == IterationPhase::kNewton;
  newton_seen_ = newton_seen_ || newton;
  // Merit and step length belong to Newton; NSGS rows show "-".
  const std::string merit =
      newton ? Format("%9.2e", record.merit) : std::string("        -");
  const std::string alpha =
      newton ? Format("%5.3f", record.step_length) : std::string("    -");
  log(Format("%6s %5d %9.2e %9.2e %9.2e %9.2e %s  %s  %8d %6d %5d %7.3f",
             ToString(record.phase),
             record.iteration,
             record.e_cone,
             record.e_dual,
             record.e_comp,
             record.e_eq,
             merit.c_str(),
             alpha.c_str(),
             record.take_off,
             record.stick,
             record.slip,
             record.seconds));
}

void LogSetup(const SolverOptions& options, const SolveRun& run) {
  if (!options.log) return;
  const GlobalProblem& problem = *run.problem;
  const SolverSummary& summary = *run.summary;
  options.log(Format("setup: n %d, m %d, nc %d, %s/%s: %.3f s (%d %s: %.3f s)",
                     problem.n(),
                     problem.m(),
                     problem.nc(),
                     ToString(options.solver),
                     ToString(options.formulation),
                     SecondsSince(run.start),
                     summary.analyses,
                     summary.analyses == 1 ? "analysis" : "analyses",
                     summary.timings.analysis));
}

void LogEnd(const SolverOptions& options, const SolverSummary& summary) {
  if (!options.log) return;
  std::string line = Format(
      "end: %s, %d Newton iterations, %d NSGS sweeps, "
      "error %.3e, %.3f s",
      ToString(summary.status),
      summary.iterations,
      summary.nsgs_sweeps,
      summary.WorstError(),
      summary.timings.total);
  if (!summary.message.empty()) line += ": " + summary.message;
  options.log(line);
}

}  // namespace fcsn::internal
