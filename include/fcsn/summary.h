// fcsn/summary.h: what a solve returns besides (v, u, r): status, message,
// counters, timings and the per-iteration history. Modeled on Ceres'
// Solver::Summary.
#ifndef FCSN_SUMMARY_H_
#define FCSN_SUMMARY_H_

#include <string>
#include <vector>

#include "fcsn/types.h"

namespace fcsn {

// One Newton iteration (IterationPhase::kNewton) or one NSGS error check
// (IterationPhase::kNsgs); ToString(phase) gives "newton" or "nsgs".
struct IterationRecord {
  IterationPhase phase = IterationPhase::kNewton;
  int iteration = 0;  // Newton iteration or NSGS sweep index within the solve
  // Error measures of the iterate (fcsn/error_measures.h): the criterion
  // max(e_cone, e_dual, e_comp, e_eq) <= tol, and e_nat, reported only.
  double e_cone = 0.0;
  double e_dual = 0.0;
  double e_comp = 0.0;
  double e_eq = 0.0;
  double e_nat = 0.0;
  // max(e_cone, e_dual, e_comp, e_eq): the criterion's value (NaN if any is).
  double WorstError() const;
  double merit = 0.0;        // ||D G|| of the iterate (Newton), 0 for NSGS
  double step_length = 0.0;  // accepted alpha (Newton)
  int line_search_trials =
      0;                 // residual evaluations of this iteration's line search
  int take_off = 0;      // contact statuses of the iterate: r = 0
  int stick = 0;         //   r in the interior of K (||r_T|| < mu r_N)
  int slip = 0;          //   r on the boundary of K, r != 0
  double seconds = 0.0;  // wall time since the start of the solve
  // Newton: the rho boost in effect (RhoOptions::initial_boost, reduced by the
  // continuation). A reduction restarts from the iterate of least merit under
  // the previous boost, recorded again under the same iteration number.
  double rho_boost = 1.0;
};

struct Timings {
  double total = 0.0;
  double setup = 0.0;          // pattern of J, rho, q_free, Delassus data
  double analysis = 0.0;       // symbolic factorization (ordering included)
  double factorization = 0.0;  // numeric factorizations
  double linear_solve = 0.0;   // triangular solves
  double residual_jacobian =
      0.0;  // G(z) and the values of J (outside the line search)
  double line_search = 0.0;     // trial residual evaluations
  double nsgs = 0.0;            // NSGS sweeps (hybrid and pure NSGS)
  double error_measures = 0.0;  // error-measure evaluations
};

struct SolverSummary {
  SolverStatus status = SolverStatus::kInvalidInput;
  std::string message;
  int iterations = 0;  // Newton iterations
  int nsgs_sweeps = 0;
  int line_search_trials = 0;
  int analyses = 0;        // symbolic factorizations in this solve
  int factorizations = 0;  // numeric factorizations in this solve
  int linear_solves = 0;
  int regularized_factorizations =
      0;  // J + delta E refactorizations after a singular J
  // SolverOptions::krylov_reuse_iterations: Newton directions found by FGMRES
  // on the previous factors (no factorization), and the inner iterations of
  // all FGMRES runs, those that fell back to a factorization included.
  int reused_factor_directions = 0;
  int krylov_iterations = 0;
  // Newton directions on J's early factorization: at a bonded cold start of a
  // large problem with SolverOptions::setup_threads = 2, J of the first
  // iterate is factorized on the second setup thread before rho is known
  // (0 or 1; that factorization is counted in `factorizations` and timed in
  // timings.factorization whether its factors served or not).
  int early_factorizations_used = 0;
  int fallbacks = 0;       // Newton -> NSGS hand-overs (hybrid)
  int rho_reductions = 0;  // rho continuation steps (RhoOptions)
  // Restarts with an Armijo search after a stall at the final rho (RhoOptions).
  int line_search_safeguards = 0;
  // Newton steps taken although the line search found no acceptable step
  // (LineSearchFailurePolicy::kAcceptStep).
  int accepted_line_search_failures = 0;
  // Entries of the Delassus operator W stored for NSGS in this solve (9 per
  // 3 x 3 block); 0 when W was not formed. delassus_over_budget: the hybrid
  // declined to form W (HybridOptions::delassus_budget_per_nonzero): no warm
  // start, fallbacks by projected Jacobi.
  long long delassus_entries = 0;
  bool delassus_over_budget = false;
  // FactorizationPrecision::kMixed: single-precision solves of the iterative
  // refinement, and factorizations redone in double precision.
  int refinement_steps = 0;
  int precision_fallbacks = 0;
  // Error measures of the returned (v, r) (fcsn/error_measures.h): converged
  // iff max(e_cone, e_dual, e_comp, e_eq) <= tol. e_nat and Siconos'
  // gfc3d_compute_error value are reported for comparison only.
  double e_cone = 0.0;
  double e_dual = 0.0;
  double e_comp = 0.0;
  double e_eq = 0.0;
  double e_nat = 0.0;
  double siconos_error = 0.0;
  // The velocity scale s_u of e_dual and e_comp and its round-off floor s_eps
  // (velocity units), and whether s_eps came from diag(M) (M not regular).
  // Where the other velocity scales exceed s_eps 100 times, s_eps is the one
  // last solved for with the same M and H (an earlier iterate, or the
  // previous Solve()'s answer) and s_u is then the exact one unless s_eps
  // grew past them (docs/criterion.md).
  double velocity_scale = 0.0;
  double velocity_floor = 0.0;
  bool floor_from_diagonal = false;
  // The last successful factorization, as the linear solver reports it
  // (MUMPS; 0 for the other backends unless said otherwise): flops (RINFOG(3),
  // the full-rank count; an estimate for the other backends) and, with block
  // low-rank compression (LinearSolverOptions::low_rank_tolerance), the
  // effective flops (RINFOG(14)); entries of the L and U factors (INFOG(29))
  // and after compression (INFOG(35); equal to factor_entries without BLR).
  double last_factorization_flops = 0.0;
  double last_factorization_effective_flops = 0.0;
  long long factor_entries = 0;
  long long compressed_factor_entries = 0;
  // MUMPS memory in MB (10^6 bytes), summed over the MPI processes: the
  // analysis estimate for the mode in use (full-rank or BLR, in-core or
  // out-of-core: INFOG(17), (37), (27), (39)), the memory the last
  // factorization effectively used (INFOG(22)), and the out-of-core files it
  // wrote (RINFOG(16); 0 in-core).
  double estimated_memory_mb = 0.0;
  double factorization_memory_mb = 0.0;
  double out_of_core_disk_mb = 0.0;
  std::string ordering_used;
  Timings timings;
  std::vector<IterationRecord> history;

  bool IsConverged() const { return status == SolverStatus::kConverged; }
  // The criterion's value max(e_cone, e_dual, e_comp, e_eq) of the returned
  // point (NaN if any is NaN).
  double WorstError() const;
  // One line: status, iterations, errors, time.
  std::string BriefReport() const;
  // Several lines: counters, timings, and the history table.
  std::string FullReport() const;
};

// What Solver::Setup() returns: whether the solver is ready, why not, and the
// structure-only work it did (analyses; timings.setup, analysis and total).
struct SetupSummary {
  SetupStatus status = SetupStatus::kInvalidInput;
  std::string message;  // why not ready; empty when ready
  int analyses = 0;     // symbolic factorizations done by this Setup()
  Timings timings;

  bool IsReady() const { return status == SetupStatus::kReady; }

  // For code written when Setup() returned a SolverSummary (fcsn 27892dd and
  // before), whose kConverged meant "ready": keeps it compiling and behaving
  // as it did. New code tests IsReady().
  [[deprecated("Solver::Setup() returns a SetupSummary: test IsReady()")]]
  operator SolverSummary() const;
};

}  // namespace fcsn

#endif  // FCSN_SUMMARY_H_
