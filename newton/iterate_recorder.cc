#include "newton/iterate_recorder.h"

#include <cmath>
#include <utility>

#include "newton/stop.h"

namespace fcsn::internal {
namespace {

// Counts of each contact status into the record.
void CountStates(const std::vector<ContactStatus>& states,
                 IterationRecord* record) {
  record->take_off = record->stick = record->slip = 0;
  for (ContactStatus state : states) {
    switch (state) {
      case ContactStatus::kTakeOff:
        ++record->take_off;
        break;
      case ContactStatus::kStick:
        ++record->stick;
        break;
      case ContactStatus::kSlip:
        ++record->slip;
        break;
    }
  }
}

}  // namespace

void IterateRecorder::Start(const GlobalProblem* problem,
                            const SolverOptions* options,
                            SolverSummary* summary,
                            SteadyClock::time_point start,
                            const std::atomic<bool>* stop_request) {
  problem_ = problem;
  options_ = options;
  summary_ = summary;
  start_ = start;
  best_score_ = std::numeric_limits<double>::infinity();
  aborted_ = false;
  stop_request_ = stop_request;
  stop_asked_ = false;
  log_.Start(options);
  states_.clear();
}

void IterateRecorder::Record(const Eigen::VectorXd& v,
                             const Eigen::VectorXd& r,
                             IterationRecord record,
                             const ErrorMeasures& errors) {
  const double score = errors.Worst();
  if (std::isfinite(score) && score < best_score_) {
    best_score_ = score;
    best_v_ = v;
    best_r_ = r;
  }
  CopyMeasures(errors, &record);
  record.seconds = SecondsSince(start_);
  ClassifyContacts(problem_->mu, r, &states_);
  CountStates(states_, &record);
  log_.Row(record);
  if (options_->iteration_callback &&
      options_->iteration_callback(record) == CallbackResult::kAbort) {
    aborted_ = true;
  }
  // After the callback, which may itself have asked to stop (a Python
  // callback that saw Ctrl-C).
  if (StopAsked(stop_request_, *options_)) aborted_ = stop_asked_ = true;
  if (options_->record_history) summary_->history.push_back(std::move(record));
}

}  // namespace fcsn::internal
