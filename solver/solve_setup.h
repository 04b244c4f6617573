// solver/solve_setup.h: what a solve prepares before its first iteration,
// and what it keeps for the next solve (time stepping). Stages of Prepare(),
// in order:
//
//   1. bind M    M's services (minverse/m_services.h) take problem.M's values
//                (the factors of an equal M are kept);
//   2. start J   J's pattern and symbolic analysis on a second thread while M
//                is factorized (SolverOptions::setup_threads; with the early
//                factorization of the predicted bonded start,
//                newton/early_factorization.h);
//   3. scale     rho and q_free (minverse/rho.h), x = M^-1 b for the
//                criterion's floor (and the floor of the previous solve's
//                answer while M and H are the same bits: KeepFloor), the
//                transport sweep on M's factors;
//   4. start     Newton's cold start (ApplyColdStart, newton/solve_run.h) when
//                the policy is pure Newton; the hybrid applies the same
//                function when Newton starts cold without warm-up sweeps;
//   5. finish J  the analysis joined (or run here), M and -H written into J's
//                values.
//
// Kept across solves: J's linear solver of the kind M's services need and its
// analysis while J's pattern is unchanged, both implementations of M's
// services with their factors (MChoice), the Newton system, and the round-off
// floor s_eps of the last answer (problem/error_measures_detail.h): the next
// solve's measures start from it when its M and H are bit for bit the same
// (MServices::reused_blocks), so a time step whose velocities stay far above
// s_eps solves with M only for q_free.
#ifndef FCSN_SOLVER_SOLVE_SETUP_H_
#define FCSN_SOLVER_SOLVE_SETUP_H_

#include <future>
#include <memory>
#include <utility>

#include "fcsn/options.h"
#include "fcsn/problem.h"
#include "fcsn/summary.h"
#include "linalg/linear_solver.h"
#include "minverse/m_services.h"
#include "newton/early_factorization.h"
#include "newton/newton_system.h"
#include "newton/solve_run.h"

namespace fcsn::internal {

class SolveSetup {
 public:
  // options: the solver's, read at each call (it outlives this object).
  explicit SolveSetup(const SolverOptions& options) : options_(options) {}
  SolveSetup(const SolveSetup&) = delete;
  SolveSetup& operator=(const SolveSetup&) = delete;

  // Forgets J's linear solver, its analysis and M's distributed factorization
  // (the linear solver's options changed).
  void ForgetLinearSolver();
  // Solver::Setup(): the input checked and J analyzed for `problem` (M in
  // this process), nothing factorized.
  SetupSummary AnalyzeOnly(const GlobalProblem& problem);
  // M's services of a solve given its local entries (null: M = problem.M).
  MServices* Pick(const LocalMatrixEntries* local_m) {
    return m_choice_.Pick(local_m);
  }
  // The run's counters at its start (the linear solver's lifetime counters)
  // and its early factors (none yet).
  void Begin(SolveRun* run);
  // The linear solver's counters of the run (since Begin()) and its report
  // (ordering, factor sizes) into run->summary.
  void End(SolveRun* run) const;
  // Stages 1-5 above for run->problem with run->m; false with the summary's
  // status and message set on failure or a stop request between stages.
  bool Prepare(SolveRun* run);
  // After the returned point of a prepared run was measured: its floor
  // (run.measured_floor) for the next solve with the same M's services.
  void KeepFloor(const SolveRun& run);

  NewtonSystem* system() { return &system_; }
  // J's linear solver; null before the first analysis.
  LinearSolver* linear() { return linear_.get(); }

 private:
  using Analysis = std::future<std::pair<bool, SolverSummary>>;

  // The linear solver of J of the kind m needs
  // (MServices::CreateJacobianSolver), created or replaced when missing or of
  // another kind; false with summary's status and message set on failure.
  bool EnsureLinearSolver(const MServices& m, SolverSummary* summary);
  // Pattern of J and symbolic analysis, when the patterns of M and H (or of
  // the part of M outside J's values, on any rank) are new; false with
  // summary's status and message set on failure. early: J's first
  // factorization will be the early one (NewtonSystem::SetEarlyFactorization).
  bool EnsureAnalysis(const GlobalProblem& problem,
                      const MServices& m,
                      SolverSummary* summary,
                      bool early = false);
  // Stages 1-3; *analysis valid when J's analysis runs on a second thread.
  bool BindAndScale(SolveRun* run, Analysis* analysis);
  // J's pattern and analysis on a second thread (EnsureAnalysis() into a
  // summary of its own) while M is factorized and W_aa computed
  // (SolverOptions::setup_threads): when J's pattern is new and M's side has
  // work (new factors, or kept factors with a new H).
  bool OverlapsAnalysis(const SolveRun& run) const;
  // SolverOptions::setup_threads applies: 2 asked for, at least
  // kTwoSetupThreadsMinDofs dofs and a machine with 2 hardware threads (both
  // uses of the second thread).
  bool TwoSetupThreads(const GlobalProblem& problem) const;
  // The second thread started (J's pattern and ordering), M ordered, then M
  // factorized unless that needs another ordering (MServices::Order). With
  // `early`, the second thread then factorizes J of the predicted bonded
  // start into early_. An invalid future when no thread could be started.
  Analysis StartAnalysis(const GlobalProblem& problem,
                         MServices* m,
                         bool early);
  // When rho's W_aa may use the second setup thread: once J's analysis on it
  // (if any) is done; empty with setup_threads = 1 or a small problem.
  SecondThreadReady SecondSetupThread(const GlobalProblem& problem,
                                      const Analysis& analysis) const;
  // Stage 5.
  bool FinishJ(SolveRun* run, Analysis* analysis);
  // Waits for the second thread and adds its summary's timings, analyses and
  // factorizations to *summary; false with its status and message on failure.
  static bool JoinAnalysis(Analysis* analysis, SolverSummary* summary);

  const SolverOptions& options_;
  NewtonSystem system_;
  std::unique_ptr<LinearSolver> linear_;
  bool analyzed_ = false;
  // M's services, shared-memory or distributed (Solve's local_m), each kept
  // across solves with its factors; picked per solve.
  MChoice m_choice_;
  // J's factorization made by the second setup thread, for the first Newton
  // direction of the solve (SolveRun::early_factors).
  EarlyFactors early_;
  // KeepFloor(): the last answer's floor and the services that measured it
  // (null: none to offer).
  EarlierFloor kept_floor_;
  const MServices* kept_floor_m_ = nullptr;
};

}  // namespace fcsn::internal

#endif  // FCSN_SOLVER_SOLVE_SETUP_H_
