// newton/iterate_recorder.h: the one place where every phase of a solve
// (Newton iterations, NSGS error checks) records an iterate (v, r).
//
// Recording (v, r) with its error measures E (fcsn/error_measures.h):
//   1. keeps (v, r) as the best iterate when max(e_cone, e_dual, e_comp, e_eq)
//      is finite and below the best so far (Solve() returns the best iterate
//      when it does not converge);
//   2. completes the IterationRecord: the measures of E, the wall time since
//      the start of the solve, and the contact-status counts of r
//      (fcsn/contact_status.h), whose per-contact states stay readable;
//   3. writes its row to the progress log (SolverOptions::log,
//      newton/progress_log.h), calls SolverOptions::iteration_callback
//      (kAbort sets aborted()) and reads the stop request (newton/stop.h:
//      Solver::RequestStop(), SolverOptions::stop), which sets aborted() and
//      stop_asked(): every phase then ends as on the callback's kAbort;
//   4. appends the record to SolverSummary::history (record_history).
//
// Usage:
//   IterateRecorder recorder;
//   recorder.Start(&problem, &options, &summary, start);
//   IterationRecord record;
//   record.phase = IterationPhase::kNewton;
//   recorder.Record(v, r, std::move(record), errors);
//   if (recorder.aborted()) ...
#ifndef FCSN_NEWTON_ITERATE_RECORDER_H_
#define FCSN_NEWTON_ITERATE_RECORDER_H_

#include <Eigen/Core>
#include <atomic>
#include <chrono>
#include <limits>
#include <vector>

#include "fcsn/contact_status.h"
#include "fcsn/error_measures.h"
#include "fcsn/options.h"
#include "fcsn/problem.h"
#include "fcsn/summary.h"
#include "linalg/stopwatch.h"
#include "newton/progress_log.h"

namespace fcsn::internal {

// The error measures of fcsn/error_measures.h into a record or a summary.
template <typename Target>
void CopyMeasures(const ErrorMeasures& errors, Target* target) {
  target->e_cone = errors.e_cone;
  target->e_dual = errors.e_dual;
  target->e_comp = errors.e_comp;
  target->e_eq = errors.e_eq;
  target->e_nat = errors.e_nat;
}

class IterateRecorder {
 public:
  // Starts a solve: no best iterate, not aborted. The pointers must outlive
  // the solve; stop_request (Solver::RequestStop()'s flag) may be null.
  void Start(const GlobalProblem* problem,
             const SolverOptions* options,
             SolverSummary* summary,
             SteadyClock::time_point start,
             const std::atomic<bool>* stop_request = nullptr);

  // Records the iterate (v, r) whose measures are `errors` (steps 1-4 above).
  void Record(const Eigen::VectorXd& v,
              const Eigen::VectorXd& r,
              IterationRecord record,
              const ErrorMeasures& errors);

  // The iteration callback returned kAbort, or a stop was asked.
  bool aborted() const { return aborted_; }
  // A stop was asked (Solver::RequestStop(), SolverOptions::stop).
  bool stop_asked() const { return stop_asked_; }
  // A finite best iterate exists.
  bool has_best() const {
    return best_score_ < std::numeric_limits<double>::infinity();
  }
  const Eigen::VectorXd& best_v() const { return best_v_; }
  const Eigen::VectorXd& best_r() const { return best_r_; }
  // Contact states of the last recorded iterate.
  const std::vector<ContactStatus>& states() const { return states_; }

 private:
  const GlobalProblem* problem_ = nullptr;
  const SolverOptions* options_ = nullptr;
  SolverSummary* summary_ = nullptr;
  SteadyClock::time_point start_;
  Eigen::VectorXd best_v_, best_r_;
  double best_score_ = std::numeric_limits<double>::infinity();
  bool aborted_ = false;
  const std::atomic<bool>* stop_request_ = nullptr;
  bool stop_asked_ = false;
  std::vector<ContactStatus> states_;
  ProgressLog log_;
};

}  // namespace fcsn::internal

#endif  // FCSN_NEWTON_ITERATE_RECORDER_H_
