// nsgs/nsgs.h: nonsmooth Gauss–Seidel (NSGS) on the reduced problem
// (formulations.md §7).
//
//   u = W r + q_free,   K*_a ∋ û_a ⟂ r_a ∈ K_a,
//   W = H^T M^-1 H,     q_free = H^T M^-1 f + w
//
// One sweep visits the contacts in increasing order; for contact a it forms
//
//   q_loc = q_free,a + sum_{b != a} W_ab r_b    (stored blocks of row a)
//
// and solves the one-contact problem u_a = W_aa r_a + q_loc with the chosen
// local solver and keep-or-discard (local_solvers.h), or, for
// LocalSolverType::kFixedPointViUpk, takes NsgsOptions::fp_projections
// projections of the paper's FP-VI-UPK (fp_vi_upk.h). rho per contact: split
// spectral from W_aa for Alart–Curnier (a contact with W_aa ≈ 0 takes the
// median of the others, §5), 1/lambda_max(W_aa) as the start of the
// self-adaptive FP-VI-UPK step, which is carried over from sweep to sweep.
//
// Stopping. After each sweep the cheap error ||r_{k+1} - r_k|| / ||r_{k+1}|| is
// formed. The true error (the measures of fcsn/error_measures.h at
// v = M^-1 (H r + f), formulations.md §9.1) is computed every
// `error_check_frequency` sweeps, when the cheap error falls below a working
// tolerance (initially tol), and at the last sweep. The run ends converged when
// the criterion max(e_cone, e_dual, e_comp, e_eq) <= tol holds. If a
// check triggered by the cheap error finds the true error above tol, the
// working tolerance is divided by 10, so that later checks come only after more
// progress. Other ends: max_sweeps (kMaxIterations), the deadline (kTimeLimit,
// checked before each sweep), r unchanged over 10 sweeps with the error still
// above tol (kRoundOffLimit: a fixed point of the sweeps in floating point),
// a non-finite error (kNumericalIssue). The returned v
// always belongs to the returned r, and `errors` are those of (r, v).
//
// The sweep loop does not allocate: NsgsSolver allocates its workspace once in
// the constructor. Error checks call fcsn::ComputeErrorMeasures and one solve
// with M.
//
// Usage:
//   fcsn::internal::Delassus delassus;
//   if (!delassus.Compute(problem, &error)) { ... }
//   Eigen::VectorXd r = Eigen::VectorXd::Zero(problem.m()), v;
//   NsgsResult result = RunNsgs(problem, delassus, options.nsgs, 1e-8, 1000,
//                               std::chrono::steady_clock::time_point::max(),
//                               &r, &v);
#ifndef FCSN_NSGS_NSGS_H_
#define FCSN_NSGS_NSGS_H_

#include <Eigen/Core>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "fcsn/error_measures.h"
#include "fcsn/options.h"
#include "fcsn/problem.h"
#include "fcsn/types.h"
#include "linalg/m_factorization.h"
#include "minverse/delassus.h"
#include "nsgs/local_solvers.h"

namespace fcsn::internal {

struct NsgsResult {
  SolverStatus status = SolverStatus::kInvalidInput;
  std::string message;
  int sweeps = 0;          // sweeps done in this run
  int error_checks = 0;    // true-error evaluations
  int local_discards = 0;  // local results rejected by keep-or-discard
  ErrorMeasures errors;    // of the returned (r, v)
  // ||r_{k+1} - r_k|| / ||r_{k+1}|| of the last sweep.
  double cheap_error = 0.0;
};

// Called after each true-error check; returning false stops the run with
// SolverStatus::kAborted.
using NsgsCheckCallback =
    std::function<bool(int sweep, const ErrorMeasures& errors)>;

// NSGS with a kept workspace: per-contact rho (AC) and the self-adaptive
// FP-VI-UPK steps survive between Run() calls (hybrid warm starts and
// fallbacks). The Delassus object must outlive it.
class NsgsSolver {
 public:
  explicit NsgsSolver(const Delassus& delassus);

  // r (size m) is the starting point and the result; v (size n) receives M^-1
  // (H r + f). Runs until errors.Converged(tol), max_sweeps sweeps, or
  // the deadline. A non-finite or wrongly sized r is replaced by 0.
  NsgsResult Run(const GlobalProblem& problem,
                 const NsgsOptions& options,
                 double tol,
                 int max_sweeps,
                 std::chrono::steady_clock::time_point deadline,
                 Eigen::VectorXd* r,
                 Eigen::VectorXd* v,
                 const NsgsCheckCallback& on_check = {});

  const ContactScaling& scaling(int a) const { return scaling_[a]; }

 private:
  // One sweep over all contacts; returns the number of discarded local results.
  int Sweep(const GlobalProblem& problem,
            const NsgsOptions& options,
            Eigen::VectorXd* r);

  const Delassus& delassus_;
  std::vector<ContactScaling> scaling_;  // nc
  std::vector<double> rho_fp_;  // nc, FP-VI-UPK step carried over sweeps
  Eigen::VectorXd r_previous_;  // m
};

// Projected Jacobi (Uzawa) on the global problem (formulations.md §7.5): the
// hybrid's NSGS phase when W would exceed its memory budget
// (HybridOptions::delassus_budget_per_nonzero). One sweep is
//
//   v = M^-1 (f + H r),   u = H^T v + w,
//   r_a <- P_{K_a}(r_a - rho_a (u_a + mu_a ||u_T,a|| e_N))   for every a,
//
// with solves on the kept LDL^T factorization of M (the solve's one, owned by
// MInverse, linalg/m_factorization.h: no further factorization, no W). The
// step is rho_a = kJacobiRelaxation min(rho_N,a, rho_T,a) of the given
// per-contact scaling (formulations.md §5). Stopping rule, result and callback
// as NsgsSolver::Run (local_discards stays 0). Sweeps do not allocate: the
// workspace is allocated in the constructor, and M^-1 b is applied by
// MFactorization::SolveWithoutAllocation.
class ProjectedJacobiSolver {
 public:
  // factorization: a symmetric factorization of problem.M (symmetric()); it must
  // outlive the solver. rho: 3 nc entries (rho_N, rho_T1, rho_T2) per contact.
  // q_free_norm: ||H^T M^-1 f + w|| (the denominator of the reported e_nat).
  ProjectedJacobiSolver(const MFactorization& factorization,
                        const Eigen::VectorXd& rho,
                        double q_free_norm);

  // As NsgsSolver::Run; kInvalidInput if the sizes of the factorization or of
  // rho do not match the problem, or a step is not finite and positive.
  NsgsResult Run(const GlobalProblem& problem,
                 const NsgsOptions& options,
                 double tol,
                 int max_sweeps,
                 std::chrono::steady_clock::time_point deadline,
                 Eigen::VectorXd* r,
                 Eigen::VectorXd* v,
                 const NsgsCheckCallback& on_check = {});

 private:
  // x = M^-1 b from the factors, no allocation; false if x is not finite.
  bool SolveM(const Eigen::VectorXd& b, Eigen::VectorXd* x);
  void Sweep(const GlobalProblem& problem, Eigen::VectorXd* r);

  const MFactorization& factorization_;
  Eigen::VectorXd step_;  // nc: rho_a
  double q_free_norm_ = 0.0;
  Eigen::VectorXd rhs_, work_, v_;  // n
  Eigen::VectorXd u_, r_previous_;  // m
};

// One-shot convenience wrapper: NsgsSolver(delassus).Run(...).
NsgsResult RunNsgs(const GlobalProblem& problem,
                   const Delassus& delassus,
                   const NsgsOptions& options,
                   double tol,
                   int max_sweeps,
                   std::chrono::steady_clock::time_point deadline,
                   Eigen::VectorXd* r,
                   Eigen::VectorXd* v,
                   const NsgsCheckCallback& on_check = {});

}  // namespace fcsn::internal

#endif  // FCSN_NSGS_NSGS_H_
