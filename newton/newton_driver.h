// newton/newton_driver.h: the global semismooth Newton loop in z = (v, r)
// (fcsn/solver.h), as a driver of named parts. Each iteration k:
//
//   1. evaluate G(z_k), J(z_k) and the merit ||D G||; record the iterate
//      (newton/iterate_recorder.h);
//   2. end at the iterate: converged (max(e_cone, e_dual, e_comp, e_eq) <=
//      tol), non-finite residual, callback abort, round-off floor
//      (newton/stall_detection.h);
//   2b. a stick-slip front advancing one contact per iteration
//      (newton/front_detector.h): one Gauss-Seidel sweep with M's factors
//      (newton/transport_sweep.h) moves it as far as the load takes it,
//      and the run goes on from the swept point;
//   3. rho continuation: the first iterate after the start with max(e_cone,
//      e_dual, e_comp, e_eq) < RhoOptions::tail_error multiplies the boost by
//      tail_boost_factor (once per solve; not for Fischer-Burmeister; in a
//      run from a guess the settled slips keep the rule's rho,
//      newton/tail_rho.h), and
//      G, J and the merit are evaluated again under the boosted rho, which
//      the iterate's direction and line search then use; under a boosted rho
//      (RhoOptions::initial_boost > 1), a stall of the merit over
//      boost_window iterations divides the boost by boost_reduction and
//      restarts from the iterate of least merit under the previous boost;
//   4. end on the budgets: the stall test (hybrid only), max_iterations, the
//      deadline;
//   4b. the pieces of the model (AC, JM, full steps; newton/piece_choice.h):
//      a slip that reversed sticks, and while a front moves, the contacts
//      that the last step repeated would put outside their disk slip; G, J
//      and D G are then evaluated again on those pieces;
//   5. direction: J d = -G (newton/newton_direction.h: factorization with
//      the singular-J regularization, mixed-precision re-entry, solve);
//   6. globalization: the line search on 1/2 ||D G||^2 (newton/line_search.h)
//      and, when it finds no acceptable step, the failure policy
//      (LineSearchFailurePolicy: kAcceptStep takes the last trial step and
//      counts it in SolverSummary::accepted_line_search_failures; kStop and
//      kFallback end the run with kLineSearchFailed, the hybrid then falls
//      back to NSGS for kFallback only);
//   7. z_{k+1} = z_k + alpha d.
//
// At the start of a run from a guess (AC, JM), the warm boost is first
// lowered where it would move the guess's contacts onto their slip pieces
// (newton/warm_boost.h).
//
// The driver owns its workspace, sized at the first run and reused after.
#ifndef FCSN_NEWTON_NEWTON_DRIVER_H_
#define FCSN_NEWTON_NEWTON_DRIVER_H_

#include <Eigen/Core>
#include <deque>
#include <limits>
#include <vector>

#include "fcsn/options.h"
#include "linalg/linear_solver.h"
#include "newton/front_detector.h"
#include "newton/newton_direction.h"
#include "newton/newton_system.h"
#include "newton/piece_choice.h"
#include "newton/solve_run.h"
#include "newton/stall_detection.h"

namespace fcsn::internal {

// Transport sweeps per Newton run: each costs 2 nc + 1 solves with M's
// factors; a front that one sweep does not settle gets a few more.
inline constexpr int kMaxFrontSweeps = 4;

class NewtonDriver {
 public:
  // Newton from (run->v, run->r) until convergence, failure or the budgets;
  // sets run->summary's status and message. With detect_stall, stops with
  // kStalled when the merit has not dropped below hybrid.stall_ratio times
  // its value hybrid.stall_window iterations earlier. The system holds the
  // problem's pattern and matrix values, linear its analysis.
  void Run(const SolverOptions& options,
           NewtonSystem* system,
           LinearSolver* linear,
           SolveRun* run,
           bool detect_stall);

 private:
  // Progress of one Newton run (reset by a rho restart).
  struct Progress {
    MeritWindow merits;                // for both stall tests
    std::deque<double> recent_merits;  // 1/2 merit^2, non-monotone search
    RoundOffWatch round_off;
    PieceWatch piece;    // the continuation's test of one smooth piece
    double alpha = 0.0;  // the last accepted step (recorded next iteration)
    int trials = 0;      // its line-search trials
    // Iteration of the point this run (or its last rho restart) began at.
    int start_iteration = 0;
    // Least merit under the current rho; its iterate is where a rho reduction
    // restarts. (Merits under one rho are comparable and, unlike e_nat, do
    // not depend on the units of M and f.) A cold start is left out
    // (TrackProgress).
    double least_merit = std::numeric_limits<double>::infinity();
    // An Armijo search replaces full steps after a stall at the final rho.
    bool safeguarded = false;
  };

  // G, J (into the system, D G into DG_) and the merit ||D G|| at the
  // iterate under run_->newton_rho.
  double Evaluate();
  // Step 1: Evaluate(), the iterate recorded; *errors its measures.
  double EvaluateAndRecord(int k, ErrorMeasures* errors);
  // Step 2; true when the run ends here.
  bool EndsAtIterate(int k, double merit, const ErrorMeasures& errors);
  // Step 2b: a stick-slip front advancing one contact per iteration
  // (newton/front_detector.h): one transport sweep (SolveRun::transport,
  // newton/transport_sweep.h), at most kMaxFrontSweeps per run; true when
  // (v, r) were swept and the run goes on from them.
  bool SweepsFront(int k, double merit);
  // Feeds the merit to the stall tests and keeps the least-merit iterate.
  void TrackProgress(int k, double merit);
  // Step 3, the tail boost (once per solve); true when rho was just boosted,
  // and the iterate is then evaluated again under it (Evaluate()), so that
  // its direction and line search are those of the boosted rho.
  bool BoostInTheTail(int k, const ErrorMeasures& errors);
  // The tail boost with RhoOptions::tail_unboost_slips: every contact's rho
  // times boost but the settled slips' (newton/tail_rho.h).
  void BoostAllButSettledSlips(double boost);
  // The start of a run as the previous run ended: the offer of its factors,
  // and, from a guess, the rules below.
  void StartFromThePreviousRun();
  // At the start of a solve from a guess (AC, JM), u = H^T v + w at the
  // guess: the largest warm boost under which the guess keeps the pieces of
  // the rule's rho (RhoOptions::warm_boost_keeps_pieces, newton/warm_boost.h).
  void FitWarmBoost(const Eigen::VectorXd& u);
  // Then the contacts the previous run, if it converged, ended at the rule's
  // rho start at it (RhoOptions::warm_keeps_settled_slips).
  void KeepSettledSlips();
  // Then, when the guess is the previous converged run's answer, its slips
  // that ended under a larger rho take that rho for the first step
  // (RhoOptions::warm_first_step_keeps_slips, newton/warm_boost.h) ...
  void KeepBoostedSlipsForTheFirstStep(const Eigen::VectorXd& u);
  // ... and the start's rho again from the second iterate on.
  void EndTheFirstStepsRho();
  // Step 3; true when rho was reduced, or the line-search safeguard switched
  // on, and the run restarts from the iterate of least merit.
  bool ReduceRhoOnStall(int k, double merit);
  // Restarts the run at iteration k from the iterate of least merit.
  void RestartFromLeastMerit(int k);
  // Step 4; true when the run ends here.
  bool EndsOnBudget(int k);
  // The time limit has passed (on any rank, with MPI MUMPS).
  bool DeadlinePassed() const;
  // Step 4b (AC and JM): the pieces of the next model (PieceChoice); when
  // they differ from the iterate's own, G, J and DG_ are evaluated again on
  // them.
  void ChoosePieces(double merit, double worst);
  // Whether the piece rules apply to this run and its next step.
  bool PiecesApply() const;
  // Step 5; false (status set) when no direction could be computed.
  bool ComputeDirection(int k, double merit);
  // Step 6; false (status set) when the failure policy ends the run.
  bool Globalize(int k, double merit);
  // Ends the run with this status and message; returns true.
  bool End(SolverStatus status, std::string message);

  // Bound for the duration of Run().
  const SolverOptions* options_ = nullptr;
  NewtonSystem* system_ = nullptr;
  LinearSolver* linear_ = nullptr;
  SolveRun* run_ = nullptr;
  bool detect_stall_ = false;

  Progress progress_;
  FrontDetector front_;
  int front_sweeps_ = 0;
  PieceChoice pieces_;
  std::vector<DiskPiece> point_pieces_, ahead_pieces_;
  Eigen::VectorXd s_t_, s_t_trial_;
  // Kept across Run() calls, and so across the solves of one Solver: the
  // direction's factors, and whether the last run ended converged.
  NewtonDirection direction_;
  bool previous_run_converged_ = false;
  // Per contact: the previous run converged and ended it at the rule's rho
  // (empty when that run did not converge).
  std::vector<bool> ended_at_rule_;
  // The previous converged run's rho factors per contact (EndedFactors) and
  // its answer; the contacts whose first step takes those factors, and the
  // start's rho they return to.
  Eigen::VectorXd ended_factors_, ended_v_, ended_r_;
  std::vector<int> first_step_contacts_;
  Eigen::VectorXd first_step_rho_;
  Eigen::VectorXd DG_, DG_trial_, v_trial_, r_trial_;
  Eigen::VectorXd least_merit_v_, least_merit_r_;
};

}  // namespace fcsn::internal

#endif  // FCSN_NEWTON_NEWTON_DRIVER_H_
