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
//   3. calls SolverOptions::iteration_callback (kAbort sets aborted());
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
#include <chrono>
#include <limits>
#include <vector>

#include "fcsn/contact_status.h"
#include "fcsn/error_measures.h"
#include "fcsn/options.h"
#include "fcsn/problem.h"
#include "fcsn/summary.h"
#include "linalg/stopwatch.h"

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
  // the solve.
  void Start(const GlobalProblem* problem,
             const SolverOptions* options,
             SolverSummary* summary,
             SteadyClock::time_point start);

  // Records the iterate (v, r) whose measures are `errors` (steps 1-4 above).
  void Record(const Eigen::VectorXd& v,
              const Eigen::VectorXd& r,
              IterationRecord record,
              const ErrorMeasures& errors);

  // The iteration callback returned kAbort.
  bool aborted() const { return aborted_; }
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
  std::vector<ContactStatus> states_;
};

}  // namespace fcsn::internal

#endif  // FCSN_NEWTON_ITERATE_RECORDER_H_
