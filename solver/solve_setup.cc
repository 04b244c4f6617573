// J's analysis, M's services and the scaling of a solve, in stages
// (solver/solve_setup.h).
#include "solver/solve_setup.h"

#include <chrono>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

#include "linalg/blas_threads.h"
#include "linalg/stopwatch.h"
#include "newton/linear_solver_use.h"
#include "newton/stop.h"
#include "newton/transport_sweep.h"

namespace fcsn::internal {

bool SolveSetup::EnsureLinearSolver(const MServices& m,
                                    SolverSummary* summary) {
  if (m.JacobianSolverFits(linear_.get())) return true;
  linear_.reset();
  analyzed_ = false;
  std::string message;
  linear_ = m.CreateJacobianSolver(options_.linear_solver, &message);
  if (!linear_) {
    summary->status = SolverStatus::kInvalidInput;
    summary->message = "linear solver: " + message;
  }
  return linear_ != nullptr;
}

bool SolveSetup::EnsureAnalysis(const GlobalProblem& problem,
                                const MServices& m,
                                SolverSummary* summary,
                                bool early) {
  if (!EnsureLinearSolver(m, summary)) return false;
  // Collective with M distributed: every rank asks, whatever its own answer.
  const bool block_changed = m.JacobianBlockChanged(*linear_);
  if (analyzed_ && system_.SamePattern(problem) && !block_changed) return true;
  {
    ScopedTimer timer(&summary->timings.setup);
    system_.Build(problem);
    m.SetJacobianBlock(linear_.get());
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
    summary->message =
        std::string("analysis failed (") + ToString(status) + "): " + message;
  }
  return analyzed_;
}

SetupSummary SolveSetup::AnalyzeOnly(const GlobalProblem& problem) {
  SetupSummary setup;
  const SteadyClock::time_point start = SteadyClock::now();
  SolverSummary summary;
  MServices* m = m_choice_.Pick(nullptr);
  if (std::string why = m->Accept(options_, problem, nullptr, nullptr);
      !why.empty()) {
    setup.status = SetupStatus::kInvalidInput;
    setup.message = why;
  } else if (options_.solver == SolverType::kNsgs ||
             EnsureAnalysis(problem, *m, &summary)) {
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

bool SolveSetup::OverlapsAnalysis(const SolveRun& run) const {
  const GlobalProblem& problem = *run.problem;
  const bool analysis_kept = run.m->JacobianSolverFits(linear_.get()) &&
                             analyzed_ && system_.SamePattern(problem);
  return TwoSetupThreads(problem) && options_.solver != SolverType::kNsgs &&
         run.m->CanOverlapSetup() && !analysis_kept;
}

bool SolveSetup::TwoSetupThreads(const GlobalProblem& problem) const {
  return options_.setup_threads >= 2 &&
         problem.n() >= kTwoSetupThreadsMinDofs &&
         std::thread::hardware_concurrency() >= 2;
}

SolveSetup::Analysis SolveSetup::StartAnalysis(const GlobalProblem& problem,
                                               MServices* m,
                                               bool early) {
  Analysis analysis;
  try {
    // J's pattern and graph are built while M is ordered; the METIS calls
    // themselves take turns (linalg/ordering.cc).
    analysis = std::async(std::launch::async, [this, &problem, m, early] {
      SolverSummary own;
      const bool analyzed = EnsureAnalysis(problem, *m, &own, early);
      if (analyzed && early) {
        FactorizeBondedStart(problem,
                             *m,
                             options_.formulation,
                             &system_,
                             linear_.get(),
                             &early_,
                             &own);
      }
      return std::make_pair(analyzed, std::move(own));
    });
  } catch (const std::system_error&) {
    m->Order();
    return Analysis();  // no thread: the analysis follows M's setup
  }
  m->Order();
  if (!m->FactorizeOrdered()) analysis.wait();
  return analysis;
}

SecondThreadReady SolveSetup::SecondSetupThread(
    const GlobalProblem& problem, const Analysis& analysis) const {
  if (!TwoSetupThreads(problem)) return {};
  if (!analysis.valid()) return [] { return true; };
  return [&analysis] {
    return analysis.wait_for(std::chrono::seconds(0)) ==
           std::future_status::ready;
  };
}

bool SolveSetup::JoinAnalysis(Analysis* analysis, SolverSummary* summary) {
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

void SolveSetup::Begin(SolveRun* run) {
  if (linear_) {
    const LinearSolverStats& stats = linear_->stats();
    run->refinement_steps_at_start = stats.refinement_steps;
    run->precision_fallbacks_at_start = stats.precision_fallbacks;
    run->reanalyses_at_start = stats.reanalyses;
    run->reanalysis_seconds_at_start = stats.reanalysis_seconds;
  }
  early_.ready = false;
  run->early_factors = &early_;
}

void SolveSetup::End(SolveRun* run) const {
  SolverSummary& summary = *run->summary;
  if (linear_) {
    const LinearSolverStats& stats = linear_->stats();
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

bool SolveSetup::BindAndScale(SolveRun* run, Analysis* analysis) {
  const GlobalProblem& problem = *run->problem;
  SolverSummary& summary = *run->summary;
  MServices& m = *run->m;
  ScopedTimer timer(&summary.timings.setup);
  std::string message;
  m.Bind(problem);
  if (OverlapsAnalysis(*run)) {
    *analysis = StartAnalysis(
        problem, &m, PredictsBondedStart(options_, problem, run->has_guess));
  }
  if (!m.ComputeScaling(problem,
                        options_,
                        SecondSetupThread(problem, *analysis),
                        &run->scaling,
                        &message)) {
    summary.status = SolverStatus::kInvalidInput;
    summary.message = message;
    return false;
  }
  run->m_solve = m.MSolve();
  run->transport = MakeTransport(problem, m.sweep_factors(), options_.nsgs);
  // Offered once: a solve that fails before its answer is measured leaves
  // nothing for the next one.
  if (kept_floor_m_ == &m && m.reused_blocks())
    run->measured_floor = kept_floor_;
  kept_floor_m_ = nullptr;
  return true;
}

void SolveSetup::KeepFloor(const SolveRun& run) {
  kept_floor_ = run.measured_floor;
  kept_floor_m_ = run.measured_floor.known ? run.m : nullptr;
}

bool SolveSetup::FinishJ(SolveRun* run, Analysis* analysis) {
  // Checked on every rank (collective under MPI MUMPS); J's analysis on a
  // second thread is waited for anyway, and the check after it stops.
  if (StopsBetweenStages(run, options_, "J's symbolic analysis") &&
      !analysis->valid()) {
    return false;
  }
  const bool analyzed =
      analysis->valid() ? JoinAnalysis(analysis, run->summary)
                        : EnsureAnalysis(*run->problem, *run->m, run->summary);
  return analyzed;
}

bool SolveSetup::Prepare(SolveRun* run) {
  // The two setup threads are the parallelism of the setup; BLAS threads of
  // their own would only queue for the cores (linalg/blas_threads.h). Made
  // before the analysis' future, so it ends after that thread is joined.
  SingleBlasThread single_blas(!run->m->collective() &&
                               TwoSetupThreads(*run->problem));
  Analysis analysis;  // valid when J's analysis runs on a second thread
  if (!BindAndScale(run, &analysis)) return false;
  if (options_.solver == SolverType::kNsgs)
    return true;  // no Newton system needed (NSGS derives v from r)
  // The hybrid applies the cold start itself when Newton starts without NSGS
  // sweeps (RunHybrid): the warm-up sweeps have no pieces to choose.
  if (!run->has_guess && options_.solver == SolverType::kNewton)
    ApplyColdStart(options_, run);
  const bool analyzed = FinishJ(run, &analysis);
  single_blas.Release();
  if (!analyzed ||
      StopsBetweenStages(run, options_, "the first factorization")) {
    return false;
  }
  system_.SetMatrixValues(*run->problem, *run->m);
  return true;
}

void SolveSetup::ForgetLinearSolver() {
  linear_.reset();
  analyzed_ = false;
  m_choice_.ResetDistributed();
}

}  // namespace fcsn::internal
