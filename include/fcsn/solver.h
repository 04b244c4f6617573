// fcsn/solver.h: the solver object.
//
// Solves  M v = H r + f,  u = H^T v + w,  K* ∋ û ⟂ r ∈ K  (fcsn/problem.h) by a
// global semismooth Newton method in z = (v, r):
//
//   G(z) = [ M v - H r - f ; F(H^T v + w, r) ] = 0,
//   J    = [[ M, -H ], [ A H^T, B ]],
//
// F the per-contact residual chosen by SolverOptions::formulation, (A, B) its
// generalized Jacobian blocks (formulations/), each step J d = -G solved by a
// sparse LU (MUMPS by default) whose symbolic analysis is done once per
// sparsity pattern, globalized by a line search on 1/2 ||D G||^2. Convergence
// is decided by the unit-free measures of fcsn/error_measures.h,
// max(e_cone, e_dual, e_comp, e_eq) <= tolerance, whatever the solver and the
// formulation; Solve() recomputes them at the returned point before it
// reports kConverged.
//
// Usage (time stepping):
//   fcsn::Solver solver(options);
//   fcsn::Solution x;           // empty: no guess at the first step
//   for (each step) {
//     fcsn::SolverSummary s = solver.Solve(problem, &x, &x);
//     // warm start from x (the previous step's v, r), result in x
//   }
//
// The analysis is redone only when the patterns of M or H change (an O(nnz)
// comparison); the summary counts analyses. Solve() never throws and never
// prints (SolverOptions::log hands progress lines to the caller).
//
// Stopping: SolverOptions::time_limit_seconds covers the whole solve, setup
// included; RequestStop() or SolverOptions::stop interrupt it. Either way the
// solve returns the best point found, with status kTimeLimit or kAborted,
// within about one stage of the setup or one factorization of J.
#ifndef FCSN_SOLVER_H_
#define FCSN_SOLVER_H_

#include <memory>

#include "fcsn/options.h"
#include "fcsn/problem.h"
#include "fcsn/summary.h"

namespace fcsn {

class Solver {
 public:
  explicit Solver(const SolverOptions& options = SolverOptions());
  ~Solver();
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;

  const SolverOptions& options() const;
  // Takes effect at the next Solve(); keeps the analysis when the linear-solver
  // options are equal.
  void set_options(const SolverOptions& options);

  // Optional: does the structure-only work for problem's patterns of M and H
  // ahead of the first Solve() (pattern of J, ordering, symbolic analysis),
  // e.g. before a time loop. Solve() does it itself when needed, so later
  // solves with the same patterns count zero analyses either way. The result
  // reports status (SetupStatus::kReady, or why not with a message), analyses
  // and timings.
  SetupSummary Setup(const GlobalProblem& problem);

  // guess: optional starting point (v and r used; u ignored); nullptr means
  // the start of SolverOptions::cold_start (or the NSGS warm start of the
  // hybrid). An empty guess, or one whose v and r are all exactly 0, counts as
  // nullptr: it carries no information. solution: receives (v, u = H^T v + w,
  // r), the best iterate found even when the solve did not converge. guess and
  // solution may alias.
  SolverSummary Solve(const GlobalProblem& problem,
                      const Solution* guess,
                      Solution* solution);

  // Asks the running Solve() to stop, e.g. from a GUI thread or a watchdog:
  // thread-safe (it sets a std::atomic<bool>), the only member that may be
  // called while another thread is inside Solve(). The solve ends at its
  // next check (see SolverOptions::stop: between setup stages, at every
  // Newton iteration and NSGS error check) with SolverStatus::kAborted and
  // the best point. A request made while no solve runs stops the next
  // Solve() at its first check; every Solve() clears the request when it
  // returns.
  void RequestStop();

  // The same solve with M distributed over the ranks of
  // options().linear_solver.mpi_communicator: local_m holds this
  // rank's entries of M (fcsn/problem.h, LocalMatrixEntries); problem holds
  // everything else, replicated on every rank (H, f, w, mu, and M as an
  // n x n matrix with no stored entry: its size gives n). M is never
  // gathered: the Newton matrix is factorized by MUMPS with distributed
  // assembled input (ICNTL(18) = 3; the host contributes the H and contact
  // blocks, every rank its entries of M), M v and diag(M) are summed over the
  // ranks, q_free = H^T M^-1 f + w (and W_aa = H_a^T M^-1 H_a for the exact
  // rho rules, by 3 solves per contact) come from a second MUMPS
  // factorization of M alone.
  //
  // Collective: every rank calls it with the same problem, options and
  // guess (a fingerprint of H, f, w, mu, the guess and the main options is
  // compared; a difference fails the solve on every rank), and an
  // iteration_callback must answer the same on every rank. Every rank gets
  // the same status, iterations and solution bits. A failure
  // on one rank (a local entry out of range or not finite, sizes that differ)
  // is a kInvalidInput of the solve on every rank, with one message naming
  // the first failing rank; no rank waits for another that gave up.
  //
  // Scope: SolverType::kNewton with any formulation, line search and rho
  // rule. kInvalidInput for SolverType::kNsgs and kHybrid (they need W or
  // M^-1 per contact), for a linear solver other than MUMPS, for
  // m_upper_triangle = true, for a problem.M with stored entries and for
  // n = 0 (MUMPS needs a positive size).
  // FactorizationPrecision::kMixed is solved in double precision
  // (distributed MUMPS is d-MUMPS). Results agree with Solve(problem with
  // the summed M, ...) up to round-off (the sums are taken in another
  // order). Reuse across calls: the analyses are kept while the patterns of
  // H and of every rank's entries are unchanged, the factors of M while
  // every rank's entries are bit for bit unchanged. Setup() is for a
  // replicated M; this overload analyses on its first call. In the seq
  // flavour there is one process and local_m is the whole M.
  SolverSummary Solve(const GlobalProblem& problem,
                      const LocalMatrixEntries& local_m,
                      const Solution* guess,
                      Solution* solution);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fcsn

#endif  // FCSN_SOLVER_H_
