#include "fcsn/solver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <exception>
#include <limits>
#include <string>

#include "fcsn/contact_status.h"
#include "fcsn/error_measures.h"
#include "linalg/linear_solver.h"
#include "newton/delassus.h"
#include "newton/line_search.h"
#include "newton/newton_system.h"
#include "newton/nsgs.h"
#include "newton/rho.h"

namespace fcsn {

using internal::LinearSolver;
using internal::LinearSolverStatus;
using Clock = std::chrono::steady_clock;

namespace {

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// %.3e of x, for messages.
std::string FormatNumber(double x) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.3e", x);
  return text;
}

// Adds the wall time of its scope to *accumulator.
class ScopedTimer {
 public:
  explicit ScopedTimer(double* accumulator)
      : accumulator_(accumulator), start_(Clock::now()) {}
  ~ScopedTimer() { *accumulator_ += SecondsSince(start_); }
  ScopedTimer(const ScopedTimer&) = delete;
  ScopedTimer& operator=(const ScopedTimer&) = delete;

 private:
  double* accumulator_;
  Clock::time_point start_;
};

// The contact statuses of fcsn/contact_status.h (one rule for the library).
using ContactState = ContactStatus;

// Contact statuses of r into *states (nc entries) and their counts into the
// record.
void ClassifyContacts(const Eigen::VectorXd& mu,
                      const Eigen::VectorXd& r,
                      std::vector<ContactState>* states,
                      IterationRecord* record) {
  fcsn::ClassifyContacts(mu, r, states);
  record->take_off = record->stick = record->slip = 0;
  for (ContactState state : *states) {
    switch (state) {
      case ContactState::kTakeOff:
        ++record->take_off;
        break;
      case ContactState::kStick:
        ++record->stick;
        break;
      case ContactState::kSlip:
        ++record->slip;
        break;
    }
  }
}

// Detects Newton's round-off floor (SolverStatus::kRoundOffLimit): full steps
// (alpha = 1) that keep every contact state and fail to halve the least worst
// measure seen on that set of states, kWindow times in a row. With the states
// fixed the semismooth residual is one smooth piece, on which Newton converges
// quadratically near a solution; repeated failure to halve the error there
// means rounding, not the method, sets it.
class RoundOffWatch {
 public:
  // Feeds one iterate; true when the floor is reached.
  bool Update(const std::vector<ContactState>& states,
              double alpha,
              double worst) {
    const bool same_piece = alpha == 1.0 && states == previous_;
    previous_ = states;
    if (!same_piece || !std::isfinite(worst)) {
      least_ = worst;
      stalls_ = 0;
      return false;
    }
    stalls_ = worst < 0.5 * least_ ? 0 : stalls_ + 1;
    least_ = std::min(least_, worst);
    return stalls_ >= kWindow && least_ <= kCeiling;
  }
  void Reset() {
    previous_.clear();
    stalls_ = 0;
  }
  // Least worst measure on the current set of states: the floor estimate.
  double floor() const { return least_; }

 private:
  // Three non-halving full steps: one can be an unlucky rounding, three in a
  // row on one smooth piece cannot be quadratic convergence.
  static constexpr int kWindow = 3;
  // A floor above sqrt(eps) would need a Newton system conditioned worse than
  // 1/sqrt(eps); a plateau that high is reported as a stall (or the budgets),
  // never as round-off.
  static constexpr double kCeiling = 1.4901161193847656e-08;  // sqrt(2^-52)
  std::vector<ContactState> previous_;
  double least_ = std::numeric_limits<double>::infinity();
  int stalls_ = 0;
};

// Every field of LinearSolverOptions (fcsn/linear_solver_options.h) equal.
bool SameLinearSolverOptions(const LinearSolverOptions& a,
                             const LinearSolverOptions& b) {
  return a.type == b.type && a.ordering == b.ordering &&
         a.workspace_relaxation_percent == b.workspace_relaxation_percent &&
         a.max_workspace_retries == b.max_workspace_retries &&
         a.detect_null_pivots == b.detect_null_pivots &&
         a.null_pivot_threshold == b.null_pivot_threshold &&
         a.precision == b.precision &&
         a.refinement_tolerance == b.refinement_tolerance &&
         a.max_refinement_steps == b.max_refinement_steps &&
         a.mpi_communicator == b.mpi_communicator;
}

// The problem the solver works on: M expanded when given as an upper triangle
// (GlobalProblem::m_upper_triangle). A flagged problem that fails Validate()
// goes through unchanged, so that Solve() reports why.
const GlobalProblem& Resolved(const GlobalProblem& problem,
                              GlobalProblem* storage) {
  if (!problem.m_upper_triangle || !problem.Validate().empty()) return problem;
  return WithFullM(problem, storage);
}

// The error measures of fcsn/error_measures.h into a record or a summary.
template <typename Target>
void CopyMeasures(const ErrorMeasures& errors, Target* target) {
  target->e_cone = errors.e_cone;
  target->e_dual = errors.e_dual;
  target->e_comp = errors.e_comp;
  target->e_eq = errors.e_eq;
  target->e_nat = errors.e_nat;
}

}  // namespace

class Solver::Impl {
 public:
  explicit Impl(const SolverOptions& options) : options_(options) {}

  const SolverOptions& options() const { return options_; }
  void set_options(const SolverOptions& options) {
    // Every other option is read at each Solve(); the linear solver is built
    // from its options, so any change of them rebuilds it (and its analysis).
    if (!SameLinearSolverOptions(options_.linear_solver,
                                 options.linear_solver)) {
      linear_.reset();
      analyzed_ = false;
    }
    options_ = options;
  }

  SolverSummary Solve(const GlobalProblem& problem,
                      const Solution* guess,
                      Solution* solution);
  SolverSummary Setup(const GlobalProblem& problem);
  // Pattern of J and symbolic analysis, when the patterns of M and H are new.
  bool EnsureAnalysis(const GlobalProblem& problem, SolverSummary* summary);

 private:
  // The NSGS phases' method: Gauss-Seidel on W, projected Jacobi when W would
  // exceed the hybrid's memory budget, none if Jacobi cannot run either.
  enum class NsgsMethod { kUnknown, kGaussSeidel, kJacobi, kNone };

  // State of one Solve().
  struct Run {
    const GlobalProblem* problem = nullptr;
    SolverSummary* summary = nullptr;
    // The linear solver's mixed-precision counters when the solve started
    // (they accumulate over the solver's lifetime).
    int refinement_steps_at_start = 0;
    int precision_fallbacks_at_start = 0;
    Clock::time_point start;
    Clock::time_point deadline;
    internal::ScalingData scaling;
    double weight_eq = 1.0;       // 1 / s_eq on the equilibrium rows of D
    double weight_contact = 1.0;  // 1 / s_c on the contact rows of D
    // Column scales C of the Newton system (NewtonSystem::ScaledValues): a
    // velocity for v, an impulse for r.
    double column_v = 1.0;
    double column_r = 1.0;
    Eigen::VectorXd v, r;  // current iterate
    Eigen::VectorXd best_v, best_r;
    double best_score = std::numeric_limits<double>::infinity();
    bool aborted = false;
    bool has_guess = false;       // Solve() was given a starting point
    bool delassus_ready = false;  // delassus_ holds this problem's W
    double rho_boost = 1.0;       // RhoOptions::initial_boost, then reduced
    Eigen::VectorXd newton_rho;   // scaling.rho * rho_boost: Newton's rho
    // Contact states of the last recorded iterate (Record()).
    std::vector<ContactState> states;
    // How the NSGS phases of this solve sweep (ChooseNsgsMethod).
    NsgsMethod nsgs_method = NsgsMethod::kUnknown;
    bool jacobi_ready = false;  // jacobi_ is set up for this problem
  };

  bool Prepare(const GlobalProblem& problem, Run* run);
  // Newton from (run->v, run->r) until convergence, failure or the budgets;
  // with detect_stall, stops with kStalled when the merit has not dropped below
  // hybrid.stall_ratio times its value hybrid.stall_window iterations earlier.
  void RunNewton(Run* run, bool detect_stall);
  // NSGS sweeps from run->r (run->v recovered); false if the Delassus data
  // cannot be built. warm_start: the hybrid's warm start, which also stops on
  // poor contraction (HybridOptions::warm_contraction_window); the result's
  // status is then kAborted with run->aborted false.
  bool RunNsgsPhase(Run* run,
                    double tol,
                    int max_sweeps,
                    internal::NsgsResult* result,
                    bool warm_start = false);
  void RunHybrid(Run* run);
  // Chooses (once per solve) how NSGS phases sweep: Gauss-Seidel on W when W
  // fits the memory budget of HybridOptions (counted, nothing factored) or the
  // solver is pure NSGS; otherwise projected Jacobi on the LDL^T of M kept by
  // the rho computation (sets summary.delassus_over_budget), or none when M
  // was not symmetric (then no such factorization exists).
  NsgsMethod ChooseNsgsMethod(Run* run);
  // The error measures of (run->v, run->r), timed.
  ErrorMeasures Measure(Run* run);
  // Records the iterate (run->v, run->r) whose measures are `errors`: fills the
  // record's measures, time and contact counts (states into run->states),
  // keeps the best iterate, calls the callback (run->aborted) and appends the
  // record to the history.
  void Record(Run* run, IterationRecord record, const ErrorMeasures& errors);
  void Finish(Run* run, Solution* solution);

  SolverOptions options_;
  internal::NewtonSystem system_;
  std::unique_ptr<LinearSolver> linear_;
  bool analyzed_ = false;
  // The one factorization of M of a solve and what derives from it (q_free,
  // rho's W_aa, NSGS, projected Jacobi): bound in Prepare(), factorized once.
  internal::MInverse m_inverse_;
  internal::Delassus delassus_;
  std::unique_ptr<internal::NsgsSolver> nsgs_;
  std::unique_ptr<internal::ProjectedJacobiSolver> jacobi_;
  // Workspace reused across iterations and solves.
  Eigen::VectorXd DG_, DG_trial_, d_, v_trial_, r_trial_, Jd_, DJd_;
  Eigen::VectorXd least_merit_v_, least_merit_r_;
  std::vector<double> scaled_values_, regularized_values_;
};

bool Solver::Impl::EnsureAnalysis(const GlobalProblem& problem,
                                  SolverSummary* summary) {
  if (!linear_) {
    std::string message;
    linear_ = LinearSolver::Create(options_.linear_solver, &message);
    if (!linear_) {
      summary->status = SolverStatus::kInvalidInput;
      summary->message = "linear solver: " + message;
      return false;
    }
    analyzed_ = false;
  }
  if (!analyzed_ || !system_.SamePattern(problem)) {
    {
      ScopedTimer timer(&summary->timings.setup);
      system_.Build(problem);
    }
    ScopedTimer timer(&summary->timings.analysis);
    std::string message;
    const LinearSolverStatus status =
        linear_->Analyze(system_.pattern(), &message);
    ++summary->analyses;
    if (status != LinearSolverStatus::kSuccess) {
      analyzed_ = false;
      summary->status = SolverStatus::kLinearSolverFailed;
      summary->message = std::string("analysis failed (") +
                         internal::ToString(status) + "): " + message;
      return false;
    }
    analyzed_ = true;
  }
  return true;
}

SolverSummary Solver::Impl::Setup(const GlobalProblem& problem) {
  SolverSummary summary;
  const Clock::time_point start = Clock::now();
  if (std::string why = options_.Validate(); !why.empty()) {
    summary.status = SolverStatus::kInvalidInput;
    summary.message = why;
  } else if (std::string why = problem.Validate(); !why.empty()) {
    summary.status = SolverStatus::kInvalidInput;
    summary.message = why;
  } else if (options_.solver == SolverType::kNsgs ||
             EnsureAnalysis(problem, &summary)) {
    summary.status = SolverStatus::kConverged;
    summary.message = "ready";
  }
  summary.timings.total = SecondsSince(start);
  return summary;
}

bool Solver::Impl::Prepare(const GlobalProblem& problem, Run* run) {
  SolverSummary& summary = *run->summary;
  {
    ScopedTimer timer(&summary.timings.setup);
    std::string message;
    m_inverse_.Bind(problem);
    if (!internal::ComputeScaling(
            problem, options_.rho, &run->scaling, &message, &m_inverse_)) {
      summary.status = SolverStatus::kInvalidInput;
      summary.message = message;
      return false;
    }
  }
  if (options_.solver == SolverType::kNsgs)
    return true;  // no Newton system needed
  if (!EnsureAnalysis(problem, &summary)) return false;
  system_.SetMatrixValues(problem);
  return true;
}

ErrorMeasures Solver::Impl::Measure(Run* run) {
  ScopedTimer timer(&run->summary->timings.error_measures);
  return ComputeErrorMeasures(
      *run->problem, run->v, run->r, run->scaling.q_free_norm);
}

void Solver::Impl::Record(Run* run,
                          IterationRecord record,
                          const ErrorMeasures& errors) {
  const double score = errors.Worst();
  if (std::isfinite(score) && score < run->best_score) {
    run->best_score = score;
    run->best_v = run->v;
    run->best_r = run->r;
  }
  CopyMeasures(errors, &record);
  record.seconds = SecondsSince(run->start);
  ClassifyContacts(run->problem->mu, run->r, &run->states, &record);
  if (options_.iteration_callback &&
      options_.iteration_callback(record) == CallbackResult::kAbort) {
    run->aborted = true;
  }
  if (options_.record_history)
    run->summary->history.push_back(std::move(record));
}

void Solver::Impl::RunNewton(Run* run, bool detect_stall) {
  const GlobalProblem& problem = *run->problem;
  SolverSummary& summary = *run->summary;
  const int n = problem.n();
  const int m = problem.m();
  const Formulation formulation = options_.formulation;
  const Eigen::VectorXd& rho = run->newton_rho;
  DG_.resize(n + m);
  DG_trial_.resize(n + m);
  DJd_.resize(n + m);
  v_trial_.resize(n);
  r_trial_.resize(m);
  auto weigh = [&](const Eigen::VectorXd& G, Eigen::VectorXd* DG) {
    DG->head(n) = run->weight_eq * G.head(n);
    DG->tail(m) = run->weight_contact * G.tail(m);
  };

  std::deque<double> recent_merits;
  std::vector<double> merits;
  RoundOffWatch round_off;
  double alpha = 0.0;
  int trials = 0;
  bool previous_singular = false;
  // Iteration of the point this Newton run (or its last rho restart) began at.
  int start_iteration = summary.iterations;
  // Iterate of least merit under the current rho: where a rho reduction
  // restarts. (Merits under one rho are comparable and, unlike e_nat, do not
  // depend on the units of M and f.)
  double least_merit = std::numeric_limits<double>::infinity();
  // True when the last merit has not dropped below `ratio` times the merit
  // `window` iterations earlier (both stall tests below).
  auto stalled = [&merits](int window, double ratio) {
    return static_cast<int>(merits.size()) > window &&
           merits.back() > ratio * merits[merits.size() - 1 - window];
  };
  for (;;) {
    const int k = summary.iterations;
    {
      ScopedTimer timer(&summary.timings.residual_jacobian);
      system_.Evaluate(
          problem, formulation, rho, run->v, run->r, /*with_jacobian=*/true);
      weigh(system_.residual(), &DG_);
    }
    const double merit = DG_.norm();
    const ErrorMeasures errors = Measure(run);
    {
      IterationRecord record;
      record.phase = "newton";
      record.iteration = k;
      record.merit = merit;
      record.step_length = alpha;
      record.line_search_trials = trials;
      record.rho_boost = run->rho_boost;
      Record(run, std::move(record), errors);
    }
    if (errors.Converged(options_.tolerance)) {
      summary.status = SolverStatus::kConverged;
      summary.message.clear();  // not an earlier phase's (NSGS warm start)
      return;
    }
    if (!std::isfinite(merit) || !run->v.allFinite() || !run->r.allFinite()) {
      summary.status = SolverStatus::kNumericalIssue;
      summary.message =
          "the residual is not finite at Newton iteration " + std::to_string(k);
      return;
    }
    if (run->aborted) {
      summary.status = SolverStatus::kAborted;
      summary.message = "aborted by the iteration callback";
      return;
    }
    if (round_off.Update(run->states, alpha, errors.Worst())) {
      summary.status = SolverStatus::kRoundOffLimit;
      summary.message =
          "the measures stopped decreasing at the level round-off allows: "
          "best max(e_cone, e_dual, e_comp, e_eq) " +
          FormatNumber(round_off.floor()) + " > tol " +
          FormatNumber(options_.tolerance) + " (Newton iteration " +
          std::to_string(k) + ")";
      return;
    }
    // The starting point of a Newton run is left out of the stall test: a full
    // semismooth Newton step from an NSGS or fallback point typically raises
    // the merit once before converging (wall problems: 0.3 -> 9 -> ... ->
    // 1e-9), which is progress, not a stall.
    if (k > start_iteration) merits.push_back(merit);
    if (merit < least_merit) {
      least_merit = merit;
      least_merit_v_ = run->v;
      least_merit_r_ = run->r;
    }
    // rho continuation (RhoOptions): a stall under a boosted rho first lowers
    // the boost and restarts from the iterate of least merit under it; the
    // stall test below only sees runs at the final rho.
    const RhoOptions& rho_options = options_.rho;
    if (run->rho_boost > 1.0 &&
        stalled(rho_options.boost_window, rho_options.boost_stall_ratio)) {
      run->rho_boost =
          std::max(1.0, run->rho_boost / rho_options.boost_reduction);
      run->newton_rho = run->rho_boost * run->scaling.rho;
      ++summary.rho_reductions;
      run->v = least_merit_v_;
      run->r = least_merit_r_;
      least_merit = std::numeric_limits<double>::infinity();
      merits.clear();
      recent_merits.clear();
      round_off.Reset();
      start_iteration = k;
      previous_singular = false;
      alpha = 0.0;
      trials = 0;
      continue;
    }
    if (detect_stall &&
        stalled(options_.hybrid.stall_window, options_.hybrid.stall_ratio)) {
      summary.status = SolverStatus::kStalled;
      summary.message = "Newton stalled at iteration " + std::to_string(k);
      return;
    }
    if (k >= options_.max_iterations) {
      summary.status = SolverStatus::kMaxIterations;
      summary.message =
          "no convergence after " + std::to_string(k) + " Newton iterations";
      return;
    }
    if (Clock::now() >= run->deadline) {
      summary.status = SolverStatus::kTimeLimit;
      summary.message = "time limit reached after " + std::to_string(k) +
                        " Newton iterations";
      return;
    }

    std::string message;
    LinearSolverStatus status;
    bool regularized = false;
    const bool may_regularize = options_.singular_regularization > 0.0;
    // Proximal term on r (SolverOptions::singular_regularization): J + delta
    // E. delta is floored where MUMPS' null-pivot test would still fire on
    // round-off (B is O(1)), and grown by 100 while J + delta E stays
    // singular.
    auto factorize_regularized = [&] {
      ScopedTimer timer(&summary.timings.factorization);
      constexpr double kMinDelta = 1e-12;
      constexpr int kMaxTries = 3;
      double delta = std::max(
          kMinDelta, options_.singular_regularization * std::min(1.0, merit));
      for (int attempt = 0;
           attempt < kMaxTries && status == LinearSolverStatus::kSingular;
           ++attempt, delta *= 100.0) {
        regularized_values_ = scaled_values_;
        for (int slot : system_.contact_diagonal_slots())
          regularized_values_[slot] += delta;
        status = linear_->Factorize(regularized_values_.data(), &message);
        ++summary.factorizations;
        ++summary.regularized_factorizations;
        regularized = true;
      }
    };
    auto solve = [&] {
      ScopedTimer timer(&summary.timings.linear_solve);
      d_ = -DG_;
      status = linear_->Solve(&d_, &message);
      ++summary.linear_solves;
      d_.head(n) *= run->column_v;
      d_.tail(m) *= run->column_r;
      if (status == LinearSolverStatus::kSuccess && !d_.allFinite()) {
        status = LinearSolverStatus::kFailure;
        message = "the Newton direction is not finite";
      }
    };
    {
      ScopedTimer timer(&summary.timings.factorization);
      // A J found singular at the previous iteration almost always is again
      // (the sticking set changes slowly): go straight to the regularized
      // matrix and save a failed factorization.
      status = LinearSolverStatus::kSingular;
      system_.ScaledValues(run->weight_eq,
                           run->weight_contact,
                           run->column_v,
                           run->column_r,
                           &scaled_values_);
      if (!(may_regularize && previous_singular)) {
        status = linear_->Factorize(scaled_values_.data(), &message);
        ++summary.factorizations;
      }
    }
    previous_singular = status == LinearSolverStatus::kSingular;
    if (status == LinearSolverStatus::kSingular && may_regularize) {
      factorize_regularized();
    }
    if (status == LinearSolverStatus::kSuccess) solve();
    // Mixed precision can find J singular only in Solve(), when its
    // double-precision refactorization sees what the single one did not.
    if (status == LinearSolverStatus::kSingular && may_regularize &&
        !regularized) {
      previous_singular = true;
      factorize_regularized();
      if (status == LinearSolverStatus::kSuccess) solve();
    }
    if (status != LinearSolverStatus::kSuccess) {
      summary.status = SolverStatus::kLinearSolverFailed;
      summary.message = "Newton iteration " + std::to_string(k) + ": " +
                        internal::ToString(status) + ": " + message;
      return;
    }
    // Slope of the merit along d: exact direction -> -||DG||^2; regularized ->
    // (DG)^T D J d.
    double slope = -merit * merit;
    if (regularized) {
      system_.Multiply(d_, &Jd_);
      weigh(Jd_, &DJd_);
      slope = DG_.dot(DJd_);
    }

    recent_merits.push_back(0.5 * merit * merit);
    while (static_cast<int>(recent_merits.size()) >
           options_.line_search.non_monotone_window) {
      recent_merits.pop_front();
    }
    internal::LineSearchResult search;
    {
      ScopedTimer timer(&summary.timings.line_search);
      auto evaluate = [&](double step) -> const Eigen::VectorXd& {
        v_trial_ = run->v + step * d_.head(n);
        r_trial_ = run->r + step * d_.tail(m);
        system_.Evaluate(problem,
                         formulation,
                         rho,
                         v_trial_,
                         r_trial_,
                         /*with_jacobian=*/false);
        weigh(system_.residual(), &DG_trial_);
        return DG_trial_;
      };
      if (options_.line_search.type == LineSearchType::kNone) {
        search.success = true;
        search.alpha =
            1.0;  // the next iteration evaluates the new point anyway
      } else {
        search = internal::RunLineSearch(
            options_.line_search, DG_, slope, recent_merits, evaluate);
      }
    }
    summary.line_search_trials += search.trials;
    alpha = search.alpha;
    trials = search.trials;
    if (!search.success) {
      switch (options_.line_search.on_failure) {
        case LineSearchFailurePolicy::kAcceptStep:
          break;
        case LineSearchFailurePolicy::kStop:
        case LineSearchFailurePolicy::kFallback:
          summary.status = SolverStatus::kLineSearchFailed;
          summary.message =
              "line search found no acceptable step at Newton iteration " +
              std::to_string(k) + " after " + std::to_string(search.trials) +
              " trials";
          return;
      }
    }
    run->v += alpha * d_.head(n);
    run->r += alpha * d_.tail(m);
    ++summary.iterations;
  }
}

bool Solver::Impl::RunNsgsPhase(Run* run,
                                double tol,
                                int max_sweeps,
                                internal::NsgsResult* result,
                                bool warm_start) {
  SolverSummary& summary = *run->summary;
  const GlobalProblem& problem = *run->problem;
  ScopedTimer timer(&summary.timings.nsgs);
  const NsgsMethod method = ChooseNsgsMethod(run);
  if (method == NsgsMethod::kNone) return false;
  if (method == NsgsMethod::kJacobi && !run->jacobi_ready) {
    jacobi_ = std::make_unique<internal::ProjectedJacobiSolver>(
        m_inverse_.factorization(), run->scaling.rho, run->scaling.q_free_norm);
    run->jacobi_ready = true;
  }
  if (method == NsgsMethod::kGaussSeidel && !run->delassus_ready) {
    std::string message;
    if (!delassus_.Compute(problem, &m_inverse_, &message)) {
      summary.status = SolverStatus::kNumericalIssue;
      summary.message =
          "NSGS: the Delassus operator could not be built: " + message;
      return false;
    }
    nsgs_ = std::make_unique<internal::NsgsSolver>(delassus_);
    run->delassus_ready = true;
    summary.delassus_entries = 9LL * delassus_.num_blocks();
  }
  const int first_sweep = summary.nsgs_sweeps;
  // Warm start: the worst measure must drop below ratio times its value at a
  // check at least `window` sweeps before (the reference), else stop.
  const int window = warm_start ? options_.hybrid.warm_contraction_window : 0;
  int reference_sweep = 0;
  double reference_worst = std::numeric_limits<double>::infinity();
  bool poor_contraction = false;
  // NSGS checks its error at (run->r, run->v), the iterate recorded here.
  auto on_check = [&](int sweep, const ErrorMeasures& errors) {
    IterationRecord record;
    record.phase = "nsgs";
    record.iteration = first_sweep + sweep;
    Record(run, std::move(record), errors);
    if (window > 0 && (sweep == 0 || sweep >= reference_sweep + window)) {
      poor_contraction =
          errors.Worst() >
          options_.hybrid.warm_contraction_ratio * reference_worst;
      reference_sweep = sweep;
      reference_worst = errors.Worst();
    }
    return !run->aborted && !poor_contraction;
  };
  NsgsOptions nsgs_options = options_.nsgs;
  if (window > 0) {
    nsgs_options.error_check_frequency =
        std::min(nsgs_options.error_check_frequency, window);
  }
  if (method == NsgsMethod::kJacobi) {
    *result = jacobi_->Run(problem,
                           nsgs_options,
                           tol,
                           max_sweeps,
                           run->deadline,
                           &run->r,
                           &run->v,
                           on_check);
  } else {
    *result = nsgs_->Run(problem,
                         nsgs_options,
                         tol,
                         max_sweeps,
                         run->deadline,
                         &run->r,
                         &run->v,
                         on_check);
  }
  summary.nsgs_sweeps += result->sweeps;
  summary.status = result->status;
  summary.message = result->message;
  if (poor_contraction && !run->aborted) {
    summary.message = "NSGS warm start stopped after " +
                      std::to_string(result->sweeps) +
                      " sweeps: poor contraction";
  }
  return true;
}

Solver::Impl::NsgsMethod Solver::Impl::ChooseNsgsMethod(Run* run) {
  if (run->nsgs_method != NsgsMethod::kUnknown) return run->nsgs_method;
  run->nsgs_method = NsgsMethod::kGaussSeidel;
  if (options_.solver != SolverType::kHybrid) return run->nsgs_method;
  const GlobalProblem& problem = *run->problem;
  const HybridOptions& hybrid = options_.hybrid;
  const double nonzeros =
      static_cast<double>(problem.M.nonZeros() + problem.H.nonZeros());
  // Clamped below 2^63 for the conversion (the factor is finite, not bounded).
  const long long budget =
      std::max(hybrid.delassus_min_budget,
               static_cast<long long>(std::min(
                   hybrid.delassus_budget_per_nonzero * nonzeros, 1e18)));
  if (internal::Delassus::BuildCost(problem, budget) > budget) {
    run->summary->delassus_over_budget = true;
    // Jacobi runs on the LDL^T m_inverse_ made for rho (symmetric M only).
    const bool have_ldlt = m_inverse_.factorization().type() ==
                           internal::MFactorizationType::kSimplicialLdlt;
    run->nsgs_method = have_ldlt ? NsgsMethod::kJacobi : NsgsMethod::kNone;
  }
  return run->nsgs_method;
}

void Solver::Impl::RunHybrid(Run* run) {
  SolverSummary& summary = *run->summary;
  const double tol = options_.tolerance;
  // Warm start: NSGS until its own error reaches the switch tolerance sqrt(tol)
  // (Siconos' VI-EG hybrid switches there too), the sweep budget, or a poor
  // contraction (HybridOptions::warm_contraction_window); it may also solve
  // the problem outright. Only when W fits the memory budget: projected Jacobi
  // (the over-budget NSGS phase) costs a solve with M per sweep, as much as a
  // Newton iteration on a stiff elastic bar, and does not contract there; it
  // only serves as the fallback.
  const int warm_sweeps = run->has_guess
                              ? options_.hybrid.warm_sweeps_with_guess
                              : options_.hybrid.warm_sweeps;
  if (warm_sweeps > 0 && ChooseNsgsMethod(run) == NsgsMethod::kGaussSeidel) {
    internal::NsgsResult result;
    if (!RunNsgsPhase(run,
                      std::max(tol, std::sqrt(tol)),
                      warm_sweeps,
                      &result,
                      /*warm_start=*/true)) {
      return;
    }
    if (result.errors.Converged(tol)) {
      summary.status = SolverStatus::kConverged;
      return;
    }
    if (summary.status == SolverStatus::kTimeLimit || run->aborted) return;
  }
  // Newton's stall test hands over to NSGS, which pays only where NSGS is
  // Gauss-Seidel on W. Over the W budget the fallback is projected Jacobi,
  // which does not contract on FEM walls: there Newton runs to its own end as
  // pure Newton does (refined walls, tol 1e-8: with the stall test 100
  // iterations and 150 Jacobi sweeps without convergence, 2 of 3 steps;
  // without it 33 and 43 iterations, bench/results/default_policy.md), and
  // Jacobi only follows hard failures.
  const bool detect_stall = ChooseNsgsMethod(run) == NsgsMethod::kGaussSeidel;
  for (;;) {
    RunNewton(run, detect_stall);
    switch (summary.status) {
      case SolverStatus::kConverged:
      case SolverStatus::kMaxIterations:
      case SolverStatus::kTimeLimit:
      case SolverStatus::kInvalidInput:
      case SolverStatus::kRoundOffLimit:  // NSGS cannot do better
      case SolverStatus::kAborted:
        return;
      case SolverStatus::kLineSearchFailed:
      case SolverStatus::kLinearSolverFailed:
      case SolverStatus::kNumericalIssue:
      case SolverStatus::kStalled:
        break;
    }
    if (run->aborted || summary.fallbacks >= options_.hybrid.max_fallbacks)
      return;
    if (ChooseNsgsMethod(run) == NsgsMethod::kNone) {
      summary.message +=
          " (no NSGS fallback: W would exceed the memory budget of "
          "HybridOptions::delassus_budget_per_nonzero, and M is not "
          "symmetric, so projected Jacobi has no LDL^T factorization)";
      return;
    }
    // Fallback: NSGS sweeps from the best iterate so far, then Newton again.
    const std::string newton_failure = summary.message;
    ++summary.fallbacks;
    run->v = run->best_v;
    run->r = run->best_r;
    internal::NsgsResult result;
    if (!RunNsgsPhase(run, tol, options_.hybrid.fallback_sweeps, &result))
      return;
    if (result.errors.Converged(tol)) {
      summary.status = SolverStatus::kConverged;
      summary.message =
          "converged in NSGS after Newton failed (" + newton_failure + ")";
      return;
    }
    if (summary.status == SolverStatus::kTimeLimit) return;
  }
}

void Solver::Impl::Finish(Run* run, Solution* solution) {
  SolverSummary& summary = *run->summary;
  const GlobalProblem& problem = *run->problem;
  if (summary.status != SolverStatus::kConverged &&
      run->best_score < std::numeric_limits<double>::infinity()) {
    run->v = run->best_v;
    run->r = run->best_r;
  }
  if (solution != nullptr) {
    solution->v = run->v;
    solution->r = run->r;
    solution->u = problem.H.transpose() * run->v + problem.w;
  }
  const ErrorMeasures errors = Measure(run);
  CopyMeasures(errors, &summary);
  summary.siconos_error = errors.siconos_error;
  // The status must agree with the measures of what is returned (recomputed
  // here from the returned v and r); a disagreement would be a bug, and is
  // reported as one rather than as a success.
  if (summary.status == SolverStatus::kConverged &&
      !errors.Converged(options_.tolerance)) {
    summary.status = SolverStatus::kNumericalIssue;
    summary.message =
        "internal inconsistency: convergence was reported but the returned "
        "point has " +
        errors.Describe();
  }
  if (linear_) {
    summary.ordering_used = linear_->stats().ordering_used;
    summary.last_factorization_flops =
        linear_->stats().last_factorization_flops;
    summary.refinement_steps =
        linear_->stats().refinement_steps - run->refinement_steps_at_start;
    summary.precision_fallbacks = linear_->stats().precision_fallbacks -
                                  run->precision_fallbacks_at_start;
  }
}

SolverSummary Solver::Impl::Solve(const GlobalProblem& problem,
                                  const Solution* guess,
                                  Solution* solution) {
  SolverSummary summary;
  Run run;
  run.problem = &problem;
  run.summary = &summary;
  run.start = Clock::now();
  auto finish_timing = [&] { summary.timings.total = SecondsSince(run.start); };

  if (std::string why = options_.Validate(); !why.empty()) {
    summary.status = SolverStatus::kInvalidInput;
    summary.message = why;
    finish_timing();
    return summary;
  }
  if (std::string why = problem.Validate(); !why.empty()) {
    summary.status = SolverStatus::kInvalidInput;
    summary.message = why;
    finish_timing();
    return summary;
  }
  const int n = problem.n();
  const int m = problem.m();
  // An empty Solution (the first step of a time-stepping loop) is no guess.
  if (guess != nullptr && guess->v.size() == 0 && guess->r.size() == 0)
    guess = nullptr;
  if (guess != nullptr && (guess->v.size() != n || guess->r.size() != m ||
                           !guess->v.allFinite() || !guess->r.allFinite())) {
    summary.status = SolverStatus::kInvalidInput;
    summary.message = "the guess must hold finite v of size " +
                      std::to_string(n) + " and r of size " +
                      std::to_string(m) + " (got " +
                      std::to_string(guess->v.size()) + " and " +
                      std::to_string(guess->r.size()) + ")";
    finish_timing();
    return summary;
  }
  const double limit = options_.time_limit_seconds;
  run.deadline = std::isfinite(limit) && limit < 1e9
                     ? run.start + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(limit))
                     : Clock::time_point::max();
  run.has_guess = guess != nullptr;
  if (guess != nullptr) {
    run.v = guess->v;
    run.r = guess->r;
  } else {
    run.v = Eigen::VectorXd::Zero(n);
    run.r = Eigen::VectorXd::Zero(m);
  }
  if (linear_) {
    run.refinement_steps_at_start = linear_->stats().refinement_steps;
    run.precision_fallbacks_at_start = linear_->stats().precision_fallbacks;
  }
  if (!Prepare(problem, &run)) {
    finish_timing();
    return summary;
  }
  run.rho_boost = options_.rho.initial_boost;
  run.newton_rho = run.rho_boost * run.scaling.rho;
  // Row weights of the merit: the denominators of e_eq and (rho-scaled) e_nat,
  // fixed for the solve.
  const double s_eq = std::max({problem.f.norm(),
                                (problem.M * run.v).norm(),
                                (problem.H * run.r).norm()});
  const double s_c = run.scaling.rho.cwiseProduct(run.scaling.q_free).norm();
  run.weight_eq = s_eq > 0.0 ? 1.0 / s_eq : 1.0;
  run.weight_contact = s_c > 0.0 ? 1.0 / s_c : 1.0;
  // The unknowns in the same units: r on the contact rows' impulse scale,
  // v on the free velocity's.
  run.column_r = s_c > 0.0 ? s_c : 1.0;
  run.column_v = run.scaling.q_free_norm > 0.0 ? run.scaling.q_free_norm : 1.0;

  switch (options_.solver) {
    case SolverType::kNewton:
      RunNewton(&run, /*detect_stall=*/false);
      break;
    case SolverType::kNsgs: {
      internal::NsgsResult result;
      RunNsgsPhase(&run, options_.tolerance, options_.nsgs.max_sweeps, &result);
      break;
    }
    case SolverType::kHybrid:
      RunHybrid(&run);
      break;
  }
  Finish(&run, solution);
  finish_timing();
  return summary;
}

Solver::Solver(const SolverOptions& options)
    : impl_(std::make_unique<Impl>(options)) {}
Solver::~Solver() = default;
SolverSummary Solver::Setup(const GlobalProblem& problem) {
  try {
    GlobalProblem storage;
    return impl_->Setup(Resolved(problem, &storage));
  } catch (const std::exception& e) {
    SolverSummary summary;
    summary.status = SolverStatus::kNumericalIssue;
    summary.message = std::string("internal error: ") + e.what();
    return summary;
  }
}
const SolverOptions& Solver::options() const { return impl_->options(); }
void Solver::set_options(const SolverOptions& options) {
  impl_->set_options(options);
}

SolverSummary Solver::Solve(const GlobalProblem& problem,
                            const Solution* guess,
                            Solution* solution) {
  // Nothing escapes to the host program: an allocation failure (the only
  // exception the numerical code can raise) becomes a status.
  try {
    GlobalProblem storage;
    return impl_->Solve(Resolved(problem, &storage), guess, solution);
  } catch (const std::exception& e) {
    SolverSummary summary;
    summary.status = SolverStatus::kNumericalIssue;
    summary.message = std::string("internal error: ") + e.what();
    return summary;
  }
}

}  // namespace fcsn
