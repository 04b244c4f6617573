// fcsn::Solver: the orchestrator of one solve (fcsn/solver.h). It picks M's
// services and has them check the input (minverse/m_services.h), prepares the
// solve in stages (solver/solve_setup.h: J's analysis, rho, q_free, the cold
// start), scales the merit and the Newton system (newton/solve_run.h), runs
// the chosen policy
//
//   SolverType::kNewton  the Newton driver (newton/newton_driver.h),
//   SolverType::kNsgs    one NSGS phase (solver/nsgs_phase.h),
//   SolverType::kHybrid  warm start, Newton, fallbacks (solver/hybrid.h),
//
// and returns the best iterate with the measures recomputed at it.
#include "fcsn/solver.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <memory>
#include <string>

#include "fcsn/error_measures.h"
#include "fcsn/option_table.h"
#include "linalg/stopwatch.h"
#include "minverse/m_services.h"
#include "newton/iterate_recorder.h"
#include "newton/newton_driver.h"
#include "newton/progress_log.h"
#include "newton/solve_run.h"
#include "newton/stop.h"
#include "solver/hybrid.h"
#include "solver/nsgs_phase.h"
#include "solver/solve_input.h"
#include "solver/solve_setup.h"

namespace fcsn {

using internal::CarriesNoInformation;
using internal::Deadline;
using internal::Resolved;
using internal::ScopedTimer;
using internal::SecondsSince;
using internal::SolveRun;
using internal::SteadyClock;
using internal::WhyInvalidGuess;

class Solver::Impl {
 public:
  explicit Impl(const SolverOptions& options)
      : options_(options), setup_(options_) {}

  const SolverOptions& options() const { return options_; }
  void set_options(const SolverOptions& options) {
    // Every other option is read at each Solve(); the linear solver is built
    // from its options, so any change of them rebuilds it (and its analysis).
    if (!SameOptions(options_.linear_solver, options.linear_solver))
      setup_.ForgetLinearSolver();
    options_ = options;
  }

  // local_m: M distributed (fcsn/solver.h), nullptr: problem.M.
  SolverSummary Solve(const GlobalProblem& problem,
                      const LocalMatrixEntries* local_m,
                      const Solution* guess,
                      Solution* solution);
  SetupSummary Setup(const GlobalProblem& problem) {
    return setup_.AnalyzeOnly(problem);
  }
  void RequestStop() { stop_requested_.store(true, std::memory_order_release); }

 private:
  // Starts the run: iterate, deadline, counters; false (status set) on a bad
  // guess.
  bool Start(const GlobalProblem& problem,
             const Solution* guess,
             SolveRun* run);
  // The row weights D and column scales C (newton/solve_run.h).
  void SetScales(SolveRun* run) const;
  void RunPolicy(SolveRun* run);
  void Finish(SolveRun* run, Solution* solution);

  SolverOptions options_;
  // J's linear solver and analysis, M's services, the Newton system: kept
  // across solves, prepared for each (solver/solve_setup.h).
  internal::SolveSetup setup_;
  internal::NewtonDriver newton_;
  internal::NsgsPhase nsgs_;
  // Solver::RequestStop(), read by the solve's checks (newton/stop.h).
  std::atomic<bool> stop_requested_{false};
};

bool Solver::Impl::Start(const GlobalProblem& problem,
                         const Solution* guess,
                         SolveRun* run) {
  SolverSummary& summary = *run->summary;
  if (std::string why = WhyInvalidGuess(problem, guess); !why.empty()) {
    summary.status = SolverStatus::kInvalidInput;
    summary.message = why;
    return false;
  }
  run->deadline = Deadline(run->start, options_.time_limit_seconds);
  run->has_guess = guess != nullptr;
  if (guess != nullptr) {
    run->v = guess->v;
    run->r = guess->r;
  } else {
    run->v = Eigen::VectorXd::Zero(problem.n());
    run->r = Eigen::VectorXd::Zero(problem.m());
  }
  setup_.Begin(run);
  run->stop_request = &stop_requested_;
  run->recorder.Start(
      &problem, &options_, &summary, run->start, run->stop_request);
  nsgs_.Start();
  return true;
}

void Solver::Impl::SetScales(SolveRun* run) const {
  const GlobalProblem& problem = *run->problem;
  internal::SetRhoBoost(run->has_guess ? options_.rho.warm_initial_boost
                                       : options_.rho.initial_boost,
                        run);
  // Row weights of the merit: the denominators of e_eq and (rho-scaled) e_nat,
  // fixed for the solve.
  Eigen::VectorXd m_v;
  run->m->Multiply(problem, run->v, &m_v);
  const double s_eq =
      std::max({problem.f.norm(), m_v.norm(), (problem.H * run->r).norm()});
  const double s_c = run->scaling.rho.cwiseProduct(run->scaling.q_free).norm();
  run->weight_eq = s_eq > 0.0 ? 1.0 / s_eq : 1.0;
  run->weight_contact = s_c > 0.0 ? 1.0 / s_c : 1.0;
  // The unknowns in the same units: r on the contact rows' impulse scale,
  // v on the free velocity's. q_free is a local velocity (u = H^T v + w);
  // dividing by H's largest entry gives a velocity in v's units (H carries
  // lengths for rotations, or any unit the caller's v and u differ by), so
  // that D J C is the same matrix, bit for bit, under any change of units by
  // powers of two, and MUMPS' scaling of it with it.
  run->column_r = s_c > 0.0 ? s_c : 1.0;
  double h_max = 0.0;
  for (int k = 0; k < problem.H.outerSize(); ++k) {
    for (SparseMatrix::InnerIterator it(problem.H, k); it; ++it) {
      h_max = std::max(h_max, std::abs(it.value()));
    }
  }
  const double column_v = h_max > 0.0 ? run->scaling.q_free_norm / h_max : 0.0;
  run->column_v = column_v > 0.0 && std::isfinite(column_v) ? column_v : 1.0;
}

void Solver::Impl::RunPolicy(SolveRun* run) {
  auto run_newton = [this, run](bool detect_stall) {
    newton_.Run(options_, setup_.system(), setup_.linear(), run, detect_stall);
  };
  switch (options_.solver) {
    case SolverType::kNewton:
      run_newton(/*detect_stall=*/false);
      break;
    case SolverType::kNsgs: {
      internal::NsgsResult result;
      nsgs_.Run(options_,
                run->m->sweep_factors(),
                run,
                options_.tolerance,
                options_.nsgs.max_sweeps,
                &result);
      break;
    }
    case SolverType::kHybrid:
      internal::RunHybrid(
          options_, run->m->sweep_factors(), &nsgs_, run_newton, run);
      break;
  }
}

void Solver::Impl::Finish(SolveRun* run, Solution* solution) {
  SolverSummary& summary = *run->summary;
  const GlobalProblem& problem = *run->problem;
  if (summary.status != SolverStatus::kConverged && run->recorder.has_best()) {
    run->v = run->recorder.best_v();
    run->r = run->recorder.best_r();
  }
  if (solution != nullptr) {
    solution->v = run->v;
    solution->r = run->r;
    solution->u = problem.H.transpose() * run->v + problem.w;
  }
  const ErrorMeasures errors = internal::Measure(run);
  internal::ReportMeasures(errors, run);
  internal::ConfirmConvergence(errors, options_.tolerance, &summary);
  setup_.End(run);
}

SolverSummary Solver::Impl::Solve(const GlobalProblem& problem,
                                  const LocalMatrixEntries* local_m,
                                  const Solution* guess,
                                  Solution* solution) {
  const internal::ClearOnReturn clear_stop_request(&stop_requested_);
  SolverSummary summary;
  SolveRun run;
  run.problem = &problem;
  run.summary = &summary;
  run.start = SteadyClock::now();
  if (CarriesNoInformation(problem, guess)) guess = nullptr;
  run.m = setup_.Pick(local_m);
  if (std::string why = run.m->Accept(options_, problem, local_m, guess);
      !why.empty()) {
    summary.status = SolverStatus::kInvalidInput;
    summary.message = why;
  } else if (Start(problem, guess, &run)) {
    const bool prepared = setup_.Prepare(&run);
    internal::LogSetup(options_, run);
    if (prepared) {
      SetScales(&run);
      RunPolicy(&run);
      internal::ExplainStop(&run);
    }
    if (prepared || internal::StoppedEarly(summary)) Finish(&run, solution);
    if (prepared) setup_.KeepFloor(run);
  }
  summary.timings.total = SecondsSince(run.start);
  internal::LogEnd(options_, summary);
  return summary;
}

Solver::Solver(const SolverOptions& options)
    : impl_(std::make_unique<Impl>(options)) {}
Solver::~Solver() = default;

SetupSummary Solver::Setup(const GlobalProblem& problem) {
  try {
    GlobalProblem storage;
    return impl_->Setup(Resolved(problem, &storage));
  } catch (const std::exception& e) {
    SetupSummary setup;
    setup.status = SetupStatus::kInternalError;
    setup.message = std::string("internal error: ") + e.what();
    return setup;
  }
}

void Solver::RequestStop() { impl_->RequestStop(); }

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
    return impl_->Solve(Resolved(problem, &storage), nullptr, guess, solution);
  } catch (const std::exception& e) {
    SolverSummary summary;
    summary.status = SolverStatus::kNumericalIssue;
    summary.message = std::string("internal error: ") + e.what();
    return summary;
  }
}

SolverSummary Solver::Solve(const GlobalProblem& problem,
                            const LocalMatrixEntries& local_m,
                            const Solution* guess,
                            Solution* solution) {
  // As above; problem.m_upper_triangle is refused, not resolved, here.
  try {
    return impl_->Solve(problem, &local_m, guess, solution);
  } catch (const std::exception& e) {
    SolverSummary summary;
    summary.status = SolverStatus::kNumericalIssue;
    summary.message = std::string("internal error: ") + e.what();
    return summary;
  }
}

}  // namespace fcsn
