// fcsn::Solver: the orchestrator of one solve (fcsn/solver.h). It validates the
// input, prepares the per-solve state (newton/solve_run.h: rho, scaling of the
// merit and of the Newton system), runs the chosen policy
//
//   SolverType::kNewton  the Newton driver (newton/newton_driver.h),
//   SolverType::kNsgs    one NSGS phase (newton/nsgs_phase.h),
//   SolverType::kHybrid  warm start, Newton, fallbacks (newton/hybrid.h),
//
// and returns the best iterate with the measures recomputed at it.
#include "fcsn/solver.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <future>
#include <memory>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

#include "fcsn/error_measures.h"
#include "fcsn/option_table.h"
#include "linalg/blas_threads.h"
#include "linalg/distributed_jacobian_solver.h"
#include "linalg/linear_solver.h"
#include "linalg/m_factorization.h"
#include "newton/cold_start.h"
#include "newton/distributed_m.h"
#include "newton/early_factorization.h"
#include "newton/hybrid.h"
#include "newton/iterate_recorder.h"
#include "newton/linear_solver_use.h"
#include "newton/newton_driver.h"
#include "newton/newton_system.h"
#include "newton/nsgs_phase.h"
#include "newton/progress_log.h"
#include "newton/rho.h"
#include "newton/solve_input.h"
#include "newton/solve_run.h"
#include "newton/stop.h"
#include "newton/transport_sweep.h"

namespace fcsn {

using internal::CarriesNoInformation;
using internal::CopyFactorizationReport;
using internal::Deadline;
using internal::DistributedMatrix;
using internal::LinearSolver;
using internal::LinearSolverStatus;
using internal::Resolved;
using internal::ScopedTimer;
using internal::SecondsSince;
using internal::SolveRun;
using internal::SteadyClock;
using internal::WhyInvalid;
using internal::WhyInvalidGuess;

class Solver::Impl {
 public:
  explicit Impl(const SolverOptions& options) : options_(options) {}

  const SolverOptions& options() const { return options_; }
  void set_options(const SolverOptions& options) {
    // Every other option is read at each Solve(); the linear solver is built
    // from its options, so any change of them rebuilds it (and its analysis).
    if (!SameOptions(options_.linear_solver, options.linear_solver)) {
      linear_.reset();
      analyzed_ = false;
      distributed_.Reset();
    }
    options_ = options;
  }

  // local_m: M distributed (fcsn/solver.h), nullptr: problem.M.
  SolverSummary Solve(const GlobalProblem& problem,
                      const LocalMatrixEntries* local_m,
                      const Solution* guess,
                      Solution* solution);
  SetupSummary Setup(const GlobalProblem& problem);
  void RequestStop() { stop_requested_.store(true, std::memory_order_release); }

 private:
  // The linear solver of J (DistributedJacobianSolver when distributed_m is
  // not null), created or replaced when missing or of the other kind; false
  // with summary's status and message set on failure.
  bool EnsureLinearSolver(const DistributedMatrix* distributed_m,
                          SolverSummary* summary);
  // Pattern of J and symbolic analysis, when the patterns of M and H (or of
  // the local entries of a distributed M, on any rank) are new; false with
  // summary's status and message set on failure. early: J's first
  // factorization will be the early one (NewtonSystem::SetEarlyFactorization).
  bool EnsureAnalysis(const GlobalProblem& problem,
                      const DistributedMatrix* distributed_m,
                      SolverSummary* summary,
                      bool early = false);
  // J's pattern and analysis on a second thread (EnsureAnalysis() into a
  // summary of its own) while M is factorized and W_aa computed
  // (SolverOptions::setup_threads): when J's pattern is new and M's side has
  // work (new factors, or kept factors with a new H).
  using Analysis = std::future<std::pair<bool, SolverSummary>>;
  bool OverlapsAnalysis(const SolveRun& run) const;
  // SolverOptions::setup_threads applies: 2 asked for, at least
  // kTwoSetupThreadsMinDofs dofs and a machine with 2 hardware threads (both
  // uses of the second thread).
  bool TwoSetupThreads(const GlobalProblem& problem) const;
  // The second thread started (J's pattern and ordering), M ordered, then M
  // factorized unless that needs another ordering (MInverse::Order). With `early`, the second
  // thread then factorizes J of the predicted bonded start into early_
  // (newton/early_factorization.h). An invalid future when no thread could be
  // started.
  Analysis StartAnalysis(const GlobalProblem& problem, bool early);
  // When rho's W_aa may use the second setup thread: once J's analysis on it
  // (if any) is done; empty with setup_threads = 1 or a small problem.
  internal::SecondThreadReady SecondSetupThread(const GlobalProblem& problem,
                                                const Analysis& analysis) const;
  // Waits for the second thread and adds its summary's timings, analyses and
  // factorizations to *summary; false with its status and message on failure.
  static bool FinishAnalysis(Analysis* analysis, SolverSummary* summary);
  // Starts the run: iterate, deadline, counters; false (status set) on a bad
  // guess.
  bool Start(const GlobalProblem& problem,
             const Solution* guess,
             SolveRun* run);
  // rho and q_free, the Newton system's values; false (status set) on failure.
  bool Prepare(SolveRun* run);
  // The row weights D and column scales C (newton/solve_run.h).
  void SetScales(SolveRun* run) const;
  void RunPolicy(SolveRun* run);
  void Finish(SolveRun* run, Solution* solution);

  SolverOptions options_;
  internal::NewtonSystem system_;
  std::unique_ptr<LinearSolver> linear_;
  // linear_ when it is the distributed kind (M distributed), else nullptr.
  internal::DistributedJacobianSolver* distributed_linear_ = nullptr;
  bool analyzed_ = false;
  // M distributed over the ranks (Solve's local_m), bound per solve.
  internal::DistributedM distributed_;
  // The one factorization of M of a solve and what derives from it (q_free,
  // rho's W_aa, NSGS, projected Jacobi): bound in Prepare(), factorized once.
  internal::MInverse m_inverse_;
  internal::NewtonDriver newton_;
  internal::NsgsPhase nsgs_;
  // J's factorization made by the second setup thread, for the first Newton
  // direction of the solve (SolveRun::early_factors).
  internal::EarlyFactors early_;
  // Solver::RequestStop(), read by the solve's checks (newton/stop.h).
  std::atomic<bool> stop_requested_{false};
};

bool Solver::Impl::EnsureLinearSolver(const DistributedMatrix* distributed_m,
                                      SolverSummary* summary) {
  const bool distributed = distributed_m != nullptr;
  if (linear_ && distributed == (distributed_linear_ != nullptr)) return true;
  linear_.reset();
  distributed_linear_ = nullptr;
  analyzed_ = false;
  std::string message;
  if (distributed) {
    auto linear = internal::DistributedJacobianSolver::Create(
        options_.linear_solver, &message);
    distributed_linear_ = linear.get();
    linear_ = std::move(linear);
  } else {
    linear_ = LinearSolver::Create(options_.linear_solver, &message);
  }
  if (!linear_) {
    summary->status = SolverStatus::kInvalidInput;
    summary->message = "linear solver: " + message;
  }
  return linear_ != nullptr;
}

bool Solver::Impl::EnsureAnalysis(const GlobalProblem& problem,
                                  const DistributedMatrix* distributed_m,
                                  SolverSummary* summary,
                                  bool early) {
  if (!EnsureLinearSolver(distributed_m, summary)) return false;
  // Collective with M distributed: every rank asks, whatever its own answer.
  const bool block_changed = distributed_m != nullptr &&
                             distributed_linear_->BlockChangedOnAnyRank(
                                 distributed_m->rows(), distributed_m->cols());
  if (analyzed_ && system_.SamePattern(problem) && !block_changed) return true;
  {
    ScopedTimer timer(&summary->timings.setup);
    system_.Build(problem);
    if (distributed_m != nullptr) {
      distributed_linear_->SetLocalBlock(distributed_m->rows(),
                                         distributed_m->cols());
    }
  }
  ScopedTimer timer(&summary->timings.analysis);
  std::string message;
  system_.SetEarlyFactorization(early);
  const LinearSolverStatus status =
      linear_->Analyze(system_.pattern(), &message);
  ++summary->analyses;
  analyzed_ = status == LinearSolverStatus::kSuccess;
  if (!analyzed_) {
    summary->status = SolverStatus::kLinearSolverFailed;
    summary->message = std::string("analysis failed (") +
                       internal::ToString(status) + "): " + message;
  }
  return analyzed_;
}

SetupSummary Solver::Impl::Setup(const GlobalProblem& problem) {
  SetupSummary setup;
  const SteadyClock::time_point start = SteadyClock::now();
  SolverSummary summary;
  if (std::string why = WhyInvalid(options_, problem); !why.empty()) {
    setup.status = SetupStatus::kInvalidInput;
    setup.message = why;
  } else if (options_.solver == SolverType::kNsgs ||
             EnsureAnalysis(problem, nullptr, &summary)) {
    setup.status = SetupStatus::kReady;
  } else {
    setup.status = summary.status == SolverStatus::kInvalidInput
                       ? SetupStatus::kInvalidInput
                       : SetupStatus::kLinearSolverFailed;
    setup.message = summary.message;
  }
  setup.analyses = summary.analyses;
  setup.timings = summary.timings;
  setup.timings.total = SecondsSince(start);
  return setup;
}

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
  if (linear_) {
    run->refinement_steps_at_start = linear_->stats().refinement_steps;
    run->precision_fallbacks_at_start = linear_->stats().precision_fallbacks;
    run->reanalyses_at_start = linear_->stats().reanalyses;
    run->reanalysis_seconds_at_start = linear_->stats().reanalysis_seconds;
  }
  run->stop_request = &stop_requested_;
  run->recorder.Start(
      &problem, &options_, &summary, run->start, run->stop_request);
  early_.ready = false;
  run->early_factors = &early_;
  nsgs_.Start();
  return true;
}

bool Solver::Impl::OverlapsAnalysis(const SolveRun& run) const {
  const GlobalProblem& problem = *run.problem;
  const bool analysis_kept = linear_ && distributed_linear_ == nullptr &&
                             analyzed_ && system_.SamePattern(problem);
  return TwoSetupThreads(problem) && options_.solver != SolverType::kNsgs &&
         run.distributed_m == nullptr && !analysis_kept &&
         !m_inverse_.reused_blocks();
}

bool Solver::Impl::TwoSetupThreads(const GlobalProblem& problem) const {
  return options_.setup_threads >= 2 &&
         problem.n() >= internal::kTwoSetupThreadsMinDofs &&
         std::thread::hardware_concurrency() >= 2;
}

Solver::Impl::Analysis Solver::Impl::StartAnalysis(const GlobalProblem& problem,
                                                   bool early) {
  Analysis analysis;
  try {
    // J's pattern and graph are built while M is ordered; the METIS calls
    // themselves take turns (linalg/ordering.cc).
    analysis = std::async(std::launch::async, [this, &problem, early] {
      SolverSummary own;
      const bool analyzed = EnsureAnalysis(problem, nullptr, &own, early);
      if (analyzed && early) {
        internal::FactorizeBondedStart(problem,
                                       options_.formulation,
                                       &system_,
                                       linear_.get(),
                                       &early_,
                                       &own);
      }
      return std::make_pair(analyzed, std::move(own));
    });
  } catch (const std::system_error&) {
    m_inverse_.Order();
    return Analysis();  // no thread: the analysis follows M's setup
  }
  m_inverse_.Order();
  if (!m_inverse_.FactorizeOrdered()) analysis.wait();
  return analysis;
}

internal::SecondThreadReady Solver::Impl::SecondSetupThread(
    const GlobalProblem& problem, const Analysis& analysis) const {
  if (!TwoSetupThreads(problem)) return {};
  if (!analysis.valid()) return [] { return true; };
  return [&analysis] {
    return analysis.wait_for(std::chrono::seconds(0)) ==
           std::future_status::ready;
  };
}

bool Solver::Impl::FinishAnalysis(Analysis* analysis, SolverSummary* summary) {
  const auto [analyzed, own] = analysis->get();
  summary->timings.setup += own.timings.setup;
  summary->timings.analysis += own.timings.analysis;
  summary->timings.factorization += own.timings.factorization;
  summary->analyses += own.analyses;
  summary->factorizations += own.factorizations;
  if (!analyzed) {
    summary->status = own.status;
    summary->message = own.message;
  }
  return analyzed;
}

bool Solver::Impl::Prepare(SolveRun* run) {
  const GlobalProblem& problem = *run->problem;
  SolverSummary& summary = *run->summary;
  // The two setup threads are the parallelism of the setup; BLAS threads of
  // their own would only queue for the cores (linalg/blas_threads.h). Made
  // before the analysis' future, so it ends after that thread is joined.
  internal::SingleBlasThread single_blas(run->distributed_m == nullptr &&
                                         TwoSetupThreads(problem));
  Analysis analysis;  // valid when J's analysis runs on a second thread
  {
    ScopedTimer timer(&summary.timings.setup);
    std::string message;
    bool scaled = false;
    if (run->distributed_m != nullptr) {
      scaled = distributed_.ComputeScaling(
          problem, options_, &run->scaling, &message);
    } else {
      m_inverse_.Bind(problem);
      if (OverlapsAnalysis(*run)) {
        analysis = StartAnalysis(
            problem,
            internal::PredictsBondedStart(options_, problem, run->has_guess));
      }
      scaled = internal::ComputeScaling(problem,
                                        options_.rho,
                                        &run->scaling,
                                        &message,
                                        &m_inverse_,
                                        SecondSetupThread(problem, analysis));
    }
    if (!scaled) {
      summary.status = SolverStatus::kInvalidInput;
      summary.message = message;
      return false;
    }
    run->m_solve = run->distributed_m != nullptr
                       ? distributed_.m_solve()
                       : internal::RegularSolve(m_inverse_.factorization());
    run->transport =
        run->distributed_m != nullptr
            ? internal::TransportFunction()
            : internal::MakeTransport(problem, &m_inverse_, options_.nsgs);
  }
  if (options_.solver == SolverType::kNsgs)
    return true;  // no Newton system needed (NSGS derives v from r)
  // The starts other than zero use M^-1 f and q_free (made by the scaling).
  // The hybrid applies it itself when Newton starts without NSGS sweeps
  // (RunHybrid): the warm-up sweeps have no pieces to choose.
  if (!run->has_guess && options_.solver == SolverType::kNewton) {
    internal::ApplyColdStart(options_.cold_start,
                             problem,
                             run->distributed_m != nullptr
                                 ? distributed_.free_velocity()
                                 : m_inverse_.free_velocity(),
                             run->scaling.q_free,
                             run->scaling.rho,
                             options_.rho.initial_boost,
                             &run->v,
                             &run->r);
  }
  // Checked on every rank (collective under MPI MUMPS); J's analysis on a
  // second thread is waited for anyway, and the check after it stops.
  if (internal::StopsBetweenStages(run, options_, "J's symbolic analysis") &&
      !analysis.valid()) {
    return false;
  }
  const bool analyzed =
      analysis.valid() ? FinishAnalysis(&analysis, &summary)
                       : EnsureAnalysis(problem, run->distributed_m, &summary);
  single_blas.Release();
  if (!analyzed ||
      internal::StopsBetweenStages(run, options_, "the first factorization")) {
    return false;
  }
  system_.SetMatrixValues(problem, run->distributed_m);
  return true;
}

void Solver::Impl::SetScales(SolveRun* run) const {
  const GlobalProblem& problem = *run->problem;
  run->rho_boost = run->has_guess ? options_.rho.warm_initial_boost
                                  : options_.rho.initial_boost;
  run->newton_rho = run->rho_boost * run->scaling.rho;
  // Row weights of the merit: the denominators of e_eq and (rho-scaled) e_nat,
  // fixed for the solve.
  Eigen::VectorXd m_v;
  internal::MultiplyM(problem, run->distributed_m, run->v, &m_v);
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
    newton_.Run(options_, &system_, linear_.get(), run, detect_stall);
  };
  switch (options_.solver) {
    case SolverType::kNewton:
      run_newton(/*detect_stall=*/false);
      break;
    case SolverType::kNsgs: {
      internal::NsgsResult result;
      nsgs_.Run(options_,
                &m_inverse_,
                run,
                options_.tolerance,
                options_.nsgs.max_sweeps,
                &result);
      break;
    }
    case SolverType::kHybrid:
      internal::RunHybrid(options_, &m_inverse_, &nsgs_, run_newton, run);
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
  if (linear_) {
    const internal::LinearSolverStats& stats = linear_->stats();
    summary.ordering_used = stats.ordering_used;
    CopyFactorizationReport(stats, &summary);
    summary.refinement_steps =
        stats.refinement_steps - run->refinement_steps_at_start;
    summary.precision_fallbacks =
        stats.precision_fallbacks - run->precision_fallbacks_at_start;
    // A re-analysis inside a factorization (adaptive block ordering) is an
    // analysis, timed by the Newton direction as factorization. (A linear
    // solver replaced during the solve starts its counters at 0.)
    const double reanalysis = std::max(
        0.0, stats.reanalysis_seconds - run->reanalysis_seconds_at_start);
    summary.analyses +=
        std::max(0, stats.reanalyses - run->reanalyses_at_start);
    summary.timings.analysis += reanalysis;
    summary.timings.factorization -= reanalysis;
  }
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
  std::string why = local_m != nullptr
                        ? distributed_.Bind(options_, problem, *local_m, guess)
                        : WhyInvalid(options_, problem);
  if (local_m != nullptr && why.empty())
    run.distributed_m = distributed_.matrix();
  if (!why.empty()) {
    summary.status = SolverStatus::kInvalidInput;
    summary.message = why;
  } else if (Start(problem, guess, &run)) {
    const bool prepared = Prepare(&run);
    internal::LogSetup(options_, run);
    if (prepared) {
      SetScales(&run);
      RunPolicy(&run);
      internal::ExplainStop(&run);
    }
    if (prepared || internal::StoppedEarly(summary)) Finish(&run, solution);
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
