// newton/solve_run.h: the state of one Solver::Solve() shared by its phases
// (newton/newton_driver.h, solver/nsgs_phase.h, solver/hybrid.h).
//
// Scaling of the Newton system and of its merit (fixed for the solve):
//   D = diag(1/s_eq on the n equilibrium rows, 1/s_c on the m contact rows),
//   s_eq = max(||f||, ||M v0||, ||H r0||),  s_c = ||rho .* q_free||,
//   merit = ||D G(v, r)||;
//   C = diag(column_v on v, column_r on r), column_v = ||q_free|| / max|H_ij|,
//   column_r = s_c: the unknowns in the same units (D J C is unit-free).
#ifndef FCSN_NEWTON_SOLVE_RUN_H_
#define FCSN_NEWTON_SOLVE_RUN_H_

#include <Eigen/Core>
#include <atomic>
#include <chrono>
#include <functional>

#include "fcsn/error_measures.h"
#include "fcsn/options.h"
#include "fcsn/problem.h"
#include "fcsn/summary.h"
#include "linalg/stopwatch.h"
#include "minverse/m_services.h"
#include "minverse/rho.h"
#include "newton/iterate_recorder.h"

namespace fcsn::internal {

struct EarlyFactors;  // newton/early_factorization.h

// State of one Solve().
struct SolveRun {
  const GlobalProblem* problem = nullptr;
  // M and M^-1 as this solve uses them (minverse/m_services.h): every use of
  // M goes through it (problem->M is empty when M is distributed).
  MServices* m = nullptr;
  SolverSummary* summary = nullptr;
  // The linear solver's mixed-precision counters when the solve started
  // (they accumulate over the solver's lifetime).
  int refinement_steps_at_start = 0;
  int precision_fallbacks_at_start = 0;
  // The analyses it redid inside factorizations, and their seconds
  // (LinearSolverStats::reanalyses: the adaptive block ordering of J).
  int reanalyses_at_start = 0;
  double reanalysis_seconds_at_start = 0.0;
  SteadyClock::time_point start;
  SteadyClock::time_point deadline = SteadyClock::time_point::max();
  // Solver::RequestStop()'s flag (newton/stop.h).
  const std::atomic<bool>* stop_request = nullptr;
  ScalingData scaling;
  // The solve by M's factors for the floor of the error measures
  // (fcsn/error_measures.h; RegularSolve): empty while M is not factored, or
  // when it is not regular.
  MSolveFunction m_solve;
  // One Gauss-Seidel sweep on (v, r) with M's factors, for Newton's
  // stick-slip fronts (newton/transport_sweep.h, MakeTransport); empty when
  // M's factors cannot serve (not local, not symmetric or not regular).
  std::function<bool(Eigen::VectorXd* v, Eigen::VectorXd* r)> transport;
  double weight_eq = 1.0;       // 1 / s_eq on the equilibrium rows of D
  double weight_contact = 1.0;  // 1 / s_c on the contact rows of D
  double column_v = 1.0;        // C on v: a velocity
  double column_r = 1.0;        // C on r: an impulse
  Eigen::VectorXd v, r;         // current iterate
  bool has_guess = false;       // Solve() was given a starting point
  double rho_boost = 1.0;       // RhoOptions::initial_boost, then reduced
  bool tail_boosted = false;    // RhoOptions::tail_boost_factor applied
  // Newton's rho: scaling.rho * rho_boost (SetRhoBoost), but the tail
  // boost's settled slips keep scaling.rho (newton/tail_rho.h).
  Eigen::VectorXd newton_rho;
  // The floor s_eps last solved for with this M and H (Measure()): at an
  // iterate of this solve, or at the previous solve's returned point when M
  // and H are bit for bit the same (SolveSetup keeps it across solves).
  internal::EarlierFloor measured_floor;
  IterateRecorder recorder;  // every phase records its iterates here
  // Not null: J's factorization made on the setup thread before rho
  // (newton/early_factorization.h), offered to the first Newton direction.
  EarlyFactors* early_factors = nullptr;
};

// Sets Newton's rho boost: run->rho_boost = boost and run->newton_rho = boost
// * run->scaling.rho (the one place of that product).
inline void SetRhoBoost(double boost, SolveRun* run) {
  run->rho_boost = boost;
  run->newton_rho = boost * run->scaling.rho;
}

// DG = D G: the residual G (n + m entries) weighted by the rows of D.
inline void Weigh(const SolveRun& run,
                  const Eigen::VectorXd& G,
                  Eigen::VectorXd* DG) {
  const int n = run.problem->n();
  const int m = run.problem->m();
  DG->head(n) = run.weight_eq * G.head(n);
  DG->tail(m) = run.weight_contact * G.tail(m);
}

// The error measures of (run->v, run->r), timed. They may take the floor
// s_eps last solved for with the same M and H (run->measured_floor;
// problem/error_measures_detail.h: the measures are then the exact ones, or
// larger e_dual and e_comp, never smaller), and keep the one solved for.
inline ErrorMeasures Measure(SolveRun* run) {
  ScopedTimer timer(&run->summary->timings.error_measures);
  return run->m->Measure(*run->problem,
                         run->v,
                         run->r,
                         run->m_solve,
                         run->scaling.q_free_norm,
                         &run->measured_floor);
}

// Newton's start without a guess (SolverOptions::cold_start, newton/cold_start.h)
// into (run->v, run->r), from M^-1 f (run->m), q_free and rho (run->scaling)
// and rho.initial_boost: the one place both policies start Newton cold
// (solver/solve_setup.h for kNewton, RunHybrid when no warm-up sweep ran).
void ApplyColdStart(const SolverOptions& options, SolveRun* run);

// The measures of the returned point into run->summary, and a note in its
// message when M was not regular (ScalingData::m_regular).
void ReportMeasures(const ErrorMeasures& returned, SolveRun* run);

// The status must agree with the measures of the returned point (`returned`,
// recomputed from the returned v and r): kConverged with returned above
// tolerance would be a bug, and becomes kNumericalIssue with a message naming
// the inconsistency, never a reported success. Other statuses are kept.
void ConfirmConvergence(const ErrorMeasures& returned,
                        double tolerance,
                        SolverSummary* summary);

}  // namespace fcsn::internal

#endif  // FCSN_NEWTON_SOLVE_RUN_H_
