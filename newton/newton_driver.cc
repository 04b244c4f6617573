#include "newton/newton_driver.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "linalg/mumps_comm.h"
#include "newton/line_search.h"
#include "newton/tail_rho.h"
#include "newton/warm_boost.h"
#include "problem/format_number.h"

namespace fcsn::internal {
namespace {

// Equal sizes and values, bit for bit.
bool SameValues(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() && a == b;
}

}  // namespace

void NewtonDriver::Run(const SolverOptions& options,
                       NewtonSystem* system,
                       LinearSolver* linear,
                       SolveRun* run,
                       bool detect_stall) {
  options_ = &options;
  system_ = system;
  linear_ = linear;
  run_ = run;
  detect_stall_ = detect_stall;
  const int n = run->problem->n();
  const int m = run->problem->m();
  DG_.resize(n + m);
  DG_trial_.resize(n + m);
  v_trial_.resize(n);
  r_trial_.resize(m);
  progress_ = Progress();
  progress_.start_iteration = run->summary->iterations;
  front_.Reset();
  front_sweeps_ = 0;
  pieces_.Start(run->has_guess);
  point_pieces_.resize(m / 3);
  ahead_pieces_.resize(m / 3);
  direction_.Reset();
  StartFromThePreviousRun();
  for (;;) {
    const int k = run->summary->iterations;
    if (k > progress_.start_iteration) EndTheFirstStepsRho();
    ErrorMeasures errors;
    double merit = EvaluateAndRecord(k, &errors);
    if (EndsAtIterate(k, merit, errors)) return;
    if (SweepsFront(k, merit)) continue;
    TrackProgress(k, merit);
    if (BoostInTheTail(k, errors)) merit = Evaluate();
    if (ReduceRhoOnStall(k, merit)) continue;
    if (EndsOnBudget(k)) return;
    ChoosePieces(merit, errors.Worst());
    if (!ComputeDirection(k, merit) || !Globalize(k, merit)) return;
    if (PiecesApply()) pieces_.StepTaken(progress_.alpha * direction_.d());
    run->v += progress_.alpha * direction_.d().head(n);
    run->r += progress_.alpha * direction_.d().tail(m);
    ++run->summary->iterations;
  }
}

void NewtonDriver::StartFromThePreviousRun() {
  const bool from_guess = run_->has_guess && run_->summary->iterations == 0;
  // A time step started from the previous step's solution: the last factors
  // of that step's converged run may serve the first direction
  // (newton/newton_direction.h checks they still apply).
  const bool after_converged_run =
      from_guess && run_->summary->nsgs_sweeps == 0 && previous_run_converged_;
  if (after_converged_run) direction_.OfferPreviousFactors();
  // The contacts at the rule's rho are those of the run just before only.
  if (!previous_run_converged_) ended_at_rule_.clear();
  previous_run_converged_ = false;
  first_step_contacts_.clear();
  if (!from_guess) return;
  const GlobalProblem& problem = *run_->problem;
  const Eigen::VectorXd u = problem.H.transpose() * run_->v + problem.w;
  FitWarmBoost(u);
  KeepSettledSlips();
  if (after_converged_run && SameValues(run_->v, ended_v_) &&
      SameValues(run_->r, ended_r_)) {
    KeepBoostedSlipsForTheFirstStep(u);
  }
}

double NewtonDriver::Evaluate() {
  ScopedTimer timer(&run_->summary->timings.residual_jacobian);
  system_->Evaluate(*run_->problem,
                    options_->formulation,
                    run_->newton_rho,
                    run_->v,
                    run_->r,
                    /*with_jacobian=*/true);
  Weigh(*run_, system_->residual(), &DG_);
  return DG_.norm();
}

bool NewtonDriver::PiecesApply() const {
  // A line search needs the merit's own slope along the direction: with one
  // (LineSearchOptions, or the safeguard), the model keeps the point's pieces.
  return HasDiskPieces(options_->formulation) && pieces_.active() &&
         !progress_.safeguarded &&
         options_->line_search.type == LineSearchType::kNone;
}

void NewtonDriver::ChoosePieces(double merit, double worst) {
  if (!PiecesApply()) return;
  const Formulation formulation = options_->formulation;
  const GlobalProblem& problem = *run_->problem;
  const Eigen::VectorXd& rho = run_->newton_rho;
  // The system was last evaluated at the iterate: its u is z_k's.
  ClassifyDiskPieces(formulation,
                     system_->u(),
                     run_->r,
                     problem.mu,
                     rho,
                     point_pieces_.data(),
                     &s_t_);
  const bool look_ahead = pieces_.Begin(point_pieces_, s_t_, merit, worst);
  if (look_ahead) {
    const int n = problem.n();
    v_trial_ = run_->v + pieces_.last_step().head(n);
    r_trial_ = run_->r + pieces_.last_step().tail(problem.m());
    ScopedTimer timer(&run_->summary->timings.residual_jacobian);
    system_->Evaluate(problem, formulation, rho, v_trial_, r_trial_, false);
    ClassifyDiskPieces(formulation,
                       system_->u(),
                       r_trial_,
                       problem.mu,
                       rho,
                       ahead_pieces_.data(),
                       &s_t_trial_);
    pieces_.LookAhead(point_pieces_, ahead_pieces_);
  }
  if (pieces_.Prescribed() == nullptr && !look_ahead) return;
  // G, J and D G at the iterate again, on the chosen pieces (or on its own
  // after a look-ahead that chose none: the system holds the trial point).
  ScopedTimer timer(&run_->summary->timings.residual_jacobian);
  system_->Evaluate(problem,
                    formulation,
                    rho,
                    run_->v,
                    run_->r,
                    /*with_jacobian=*/true,
                    pieces_.Prescribed());
  Weigh(*run_, system_->residual(), &DG_);
}

double NewtonDriver::EvaluateAndRecord(int k, ErrorMeasures* errors) {
  const double merit = Evaluate();
  *errors = Measure(run_);
  IterationRecord record;
  record.phase = IterationPhase::kNewton;
  record.iteration = k;
  record.merit = merit;
  record.step_length = progress_.alpha;
  record.line_search_trials = progress_.trials;
  record.rho_boost = run_->rho_boost;
  run_->recorder.Record(run_->v, run_->r, std::move(record), *errors);
  return merit;
}

bool NewtonDriver::End(SolverStatus status, std::string message) {
  run_->summary->status = status;
  run_->summary->message = std::move(message);
  return true;
}

bool NewtonDriver::EndsAtIterate(int k,
                                 double merit,
                                 const ErrorMeasures& errors) {
  // The message is cleared: not an earlier phase's (NSGS warm start).
  if (errors.Converged(options_->tolerance)) {
    previous_run_converged_ = true;
    ended_at_rule_ = ContactsAtTheRulesRho(
        run_->newton_rho, run_->scaling.rho, run_->rho_boost);
    ended_factors_ = EndedFactors(run_->newton_rho, run_->scaling.rho);
    ended_v_ = run_->v;
    ended_r_ = run_->r;
    return End(SolverStatus::kConverged, "");
  }
  if (!std::isfinite(merit) || !run_->v.allFinite() || !run_->r.allFinite()) {
    return End(
        SolverStatus::kNumericalIssue,
        "the residual is not finite at Newton iteration " + std::to_string(k));
  }
  if (run_->recorder.aborted())
    return End(SolverStatus::kAborted, "aborted by the iteration callback");
  RoundOffWatch& round_off = progress_.round_off;
  if (round_off.Update(
          run_->recorder.states(), progress_.alpha, errors.Worst())) {
    return End(SolverStatus::kRoundOffLimit,
               "the measures stopped decreasing at the level round-off "
               "allows: best max(e_cone, e_dual, e_comp, e_eq) " +
                   FormatNumber(round_off.floor()) + " > tol " +
                   FormatNumber(options_->tolerance) + " (Newton iteration " +
                   std::to_string(k) + "; velocity floor s_eps " +
                   FormatNumber(errors.velocity_floor) + ")");
  }
  return false;
}

bool NewtonDriver::SweepsFront(int k, double merit) {
  if (!run_->transport || front_sweeps_ >= kMaxFrontSweeps ||
      !front_.Update(run_->recorder.states(), merit)) {
    return false;
  }
  ++front_sweeps_;
  {
    ScopedTimer timer(&run_->summary->timings.nsgs);
    if (!run_->transport(&run_->v, &run_->r)) return false;
  }
  ++run_->summary->nsgs_sweeps;
  // The swept point starts a new run: its merit is not comparable with the
  // stall windows' and the restart point's, which were Newton's.
  progress_ = Progress();
  progress_.start_iteration = k;
  front_.Reset();
  pieces_.Reset();
  return true;
}

void NewtonDriver::TrackProgress(int k, double merit) {
  // The starting point of a Newton run is left out of the stall tests: a full
  // semismooth Newton step from an NSGS or fallback point typically raises
  // the merit once before converging (wall problems: 0.3 -> 9 -> ... ->
  // 1e-9), which is progress, not a stall.
  if (k > progress_.start_iteration) progress_.merits.Add(merit);
  // Nor is a cold start a restart point. It knows nothing of the contacts
  // (v = r = 0, or only the resting contacts closed), so its merit, the
  // balance residual alone, is often the least of the run, and a restart
  // there repeats the same path under a smaller rho. A cold 688-contact wall
  // step (LowWall_FEM-i00004-688-00238) failed that way after 100 iterations
  // under boosts 30, 3, 1 and the Armijo safeguard; restarting from the least
  // merit after the start it converges in 34, and another step in 26 instead
  // of 36; the other 48 walls take no such restart
  // (bench/results/cold_restart.md).
  if (k == 0 && !run_->has_guess && run_->summary->nsgs_sweeps == 0) return;
  if (merit < progress_.least_merit) {
    progress_.least_merit = merit;
    least_merit_v_ = run_->v;
    least_merit_r_ = run_->r;
  }
}

bool NewtonDriver::BoostInTheTail(int k, const ErrorMeasures& errors) {
  const RhoOptions& rho = options_->rho;
  // Never after a stall reduction (RhoOptions::tail_boost_factor says why).
  if (run_->tail_boosted || k <= progress_.start_iteration ||
      run_->summary->rho_reductions > 0 || rho.tail_boost_factor == 1.0 ||
      options_->formulation == Formulation::kFischerBurmeister ||
      !(errors.Worst() < rho.tail_error)) {
    return false;
  }
  run_->tail_boosted = true;
  const double boost = run_->rho_boost * rho.tail_boost_factor;
  // A step was taken since the run's start (k > start_iteration), so the
  // direction holds it. Runs from a guess only (RhoOptions says why).
  const int n = run_->problem->n();
  const bool has_step = direction_.d().size() == n + run_->problem->m();
  if (rho.tail_unboost_slips && run_->has_guess && has_step &&
      HasDiskPieces(options_->formulation)) {
    BoostAllButSettledSlips(boost);
  } else {
    SetRhoBoost(boost, run_);
  }
  return true;
}

void NewtonDriver::BoostAllButSettledSlips(double boost) {
  const GlobalProblem& problem = *run_->problem;
  const int n = problem.n();
  // The pieces at the iterate under the rho before the boost (the system was
  // last evaluated there); the last step is alpha d.
  ClassifyDiskPieces(options_->formulation,
                     system_->u(),
                     run_->r,
                     problem.mu,
                     run_->newton_rho,
                     point_pieces_.data(),
                     &s_t_);
  const Eigen::VectorXd& d = direction_.d();
  const Eigen::VectorXd du =
      progress_.alpha * (problem.H.transpose() * d.head(n));
  const Eigen::VectorXd dr = progress_.alpha * d.tail(problem.m());
  SetRhoBoost(boost, run_);
  UnboostSettledSlips(run_->scaling.rho,
                      point_pieces_.data(),
                      system_->u(),
                      du,
                      dr,
                      &run_->newton_rho);
}

void NewtonDriver::FitWarmBoost(const Eigen::VectorXd& u) {
  const RhoOptions& rho = options_->rho;
  if (!rho.warm_boost_keeps_pieces || run_->rho_boost <= 1.0 ||
      !HasDiskPieces(options_->formulation)) {
    return;
  }
  const GlobalProblem& problem = *run_->problem;
  const double boost = WarmBoostKeepingPieces(options_->formulation,
                                              u,
                                              run_->r,
                                              problem.mu,
                                              run_->scaling.rho,
                                              run_->rho_boost,
                                              rho.boost_reduction);
  if (boost < run_->rho_boost) SetRhoBoost(boost, run_);
}

void NewtonDriver::KeepSettledSlips() {
  if (!options_->rho.warm_keeps_settled_slips ||
      !HasDiskPieces(options_->formulation) ||
      3 * ended_at_rule_.size() !=
          static_cast<size_t>(run_->scaling.rho.size())) {
    return;
  }
  StartAtTheRulesRho(ended_at_rule_, run_->scaling.rho, &run_->newton_rho);
}

void NewtonDriver::KeepBoostedSlipsForTheFirstStep(const Eigen::VectorXd& u) {
  const Eigen::VectorXd& rho = run_->scaling.rho;
  if (!options_->rho.warm_first_step_keeps_slips ||
      !HasDiskPieces(options_->formulation) ||
      3 * ended_factors_.size() != rho.size()) {
    return;
  }
  const GlobalProblem& problem = *run_->problem;
  first_step_rho_ = run_->newton_rho;
  first_step_contacts_ = FirstStepAtTheEndedFactors(options_->formulation,
                                                    u,
                                                    run_->r,
                                                    problem.mu,
                                                    rho,
                                                    ended_factors_,
                                                    &run_->newton_rho);
}

void NewtonDriver::EndTheFirstStepsRho() {
  for (int a : first_step_contacts_) {
    run_->newton_rho.segment<3>(3 * a) = first_step_rho_.segment<3>(3 * a);
  }
  first_step_contacts_.clear();
}

bool NewtonDriver::ReduceRhoOnStall(int k, double merit) {
  // rho continuation (RhoOptions): a stall under a boosted rho first lowers
  // the boost and restarts from the iterate of least merit under it; the
  // stall test of EndsOnBudget only sees runs at the final rho. A piece that
  // stops converging under a boost (PieceWatch, newton/stall_detection.h)
  // drops it to 1 at once. At the final rho, without a fallback
  // (detect_stall_) and without a line search, the safeguard of RhoOptions
  // switches on an Armijo search once.
  const RhoOptions& rho = options_->rho;
  const bool piece_stalled =
      progress_.piece.Update(run_->recorder.states(), merit, run_->rho_boost) &&
      run_->rho_boost > 1.0;
  if (!piece_stalled &&
      !progress_.merits.Stalled(rho.boost_window, rho.boost_stall_ratio)) {
    return false;
  }
  if (run_->rho_boost > 1.0) {
    SetRhoBoost(piece_stalled
                    ? 1.0
                    : std::max(1.0, run_->rho_boost / rho.boost_reduction),
                run_);
    ++run_->summary->rho_reductions;
  } else if (!detect_stall_ && !progress_.safeguarded &&
             options_->line_search.type == LineSearchType::kNone) {
    progress_.safeguarded = true;
    ++run_->summary->line_search_safeguards;
  } else {
    return false;
  }
  RestartFromLeastMerit(k);
  return true;
}

void NewtonDriver::RestartFromLeastMerit(int k) {
  run_->v = least_merit_v_;
  run_->r = least_merit_r_;
  progress_.least_merit = std::numeric_limits<double>::infinity();
  progress_.merits.Clear();
  progress_.recent_merits.clear();
  progress_.round_off.Reset();
  progress_.piece.Reset();
  pieces_.Reset();
  progress_.start_iteration = k;
  progress_.alpha = 0.0;
  progress_.trials = 0;
  direction_.Reset();
}

bool NewtonDriver::EndsOnBudget(int k) {
  const HybridOptions& hybrid = options_->hybrid;
  if (detect_stall_ &&
      progress_.merits.Stalled(hybrid.stall_window, hybrid.stall_ratio)) {
    return End(SolverStatus::kStalled,
               "Newton stalled at iteration " + std::to_string(k));
  }
  if (k >= options_->max_iterations) {
    return End(
        SolverStatus::kMaxIterations,
        "no convergence after " + std::to_string(k) + " Newton iterations");
  }
  if (DeadlinePassed()) {
    return End(
        SolverStatus::kTimeLimit,
        "time limit reached after " + std::to_string(k) + " Newton iterations");
  }
  return false;
}

bool NewtonDriver::DeadlinePassed() const {
  if (run_->deadline == SteadyClock::time_point::max()) return false;
  const bool passed = SteadyClock::now() >= run_->deadline;
  // MPI MUMPS (linalg/mumps_comm.h): the clocks of the ranks differ, and all
  // ranks must take the same branch before the next MUMPS call.
  if (options_->linear_solver.type != LinearSolverType::kMumps) return passed;
  return AnyRank(passed, options_->linear_solver.mpi_communicator);
}

bool NewtonDriver::ComputeDirection(int k, double merit) {
  std::string message;
  const LinearSolverStatus status = direction_.Compute(
      *options_, *system_, linear_, *run_, DG_, merit, &message);
  if (status == LinearSolverStatus::kSuccess) return true;
  End(SolverStatus::kLinearSolverFailed,
      "Newton iteration " + std::to_string(k) + ": " + ToString(status) + ": " +
          message);
  return false;
}

bool NewtonDriver::Globalize(int k, double merit) {
  LineSearchOptions options = options_->line_search;
  if (progress_.safeguarded) options.type = LineSearchType::kArmijo;
  std::deque<double>& recent_merits = progress_.recent_merits;
  recent_merits.push_back(0.5 * merit * merit);
  while (static_cast<int>(recent_merits.size()) > options.non_monotone_window)
    recent_merits.pop_front();
  LineSearchResult search;
  {
    ScopedTimer timer(&run_->summary->timings.line_search);
    const Eigen::VectorXd& d = direction_.d();
    const int n = run_->problem->n();
    const int m = run_->problem->m();
    auto evaluate = [&](double step) -> const Eigen::VectorXd& {
      v_trial_ = run_->v + step * d.head(n);
      r_trial_ = run_->r + step * d.tail(m);
      system_->Evaluate(*run_->problem,
                        options_->formulation,
                        run_->newton_rho,
                        v_trial_,
                        r_trial_,
                        /*with_jacobian=*/false);
      Weigh(*run_, system_->residual(), &DG_trial_);
      return DG_trial_;
    };
    if (options.type == LineSearchType::kNone) {
      // The full step: the next iteration evaluates the new point anyway.
      search.success = true;
      search.alpha = 1.0;
    } else {
      search = RunLineSearch(
          options, DG_, direction_.slope(), recent_merits, evaluate);
    }
  }
  run_->summary->line_search_trials += search.trials;
  progress_.alpha = search.alpha;
  progress_.trials = search.trials;
  if (search.success) return true;
  switch (options.on_failure) {
    case LineSearchFailurePolicy::kAcceptStep:
      ++run_->summary->accepted_line_search_failures;
      return true;
    case LineSearchFailurePolicy::kStop:
    case LineSearchFailurePolicy::kFallback:
      break;
  }
  End(SolverStatus::kLineSearchFailed,
      "line search found no acceptable step at Newton iteration " +
          std::to_string(k) + " after " + std::to_string(search.trials) +
          " trials");
  return false;
}

}  // namespace fcsn::internal
