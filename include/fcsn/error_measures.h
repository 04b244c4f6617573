// fcsn/error_measures.h: the solver-independent error of a point (v, r),
// formulations.md §9.
//
// fcsn's definition (§9.1, eq. (13) of Acary-Bremond-Dubois), defined here
// once for the library, the CLI and the tests:
//
//   u       = H^T v + w         (always recomputed from v, never a solver's u)
//   q_free  = H^T M^-1 f + w
//   F_nat,a = r_a - P_{K_a}(r_a - (u_a + mu_a ||u_T,a|| e_N))
//                               (per contact, rho = 1, original cone)
//   e_nat   = ||F_nat||_2 / ||q_free||_2                  (1 if ||q_free|| = 0)
//   e_eq    = ||M v - H r - f||_2 / max(||f||, ||M v||, ||H r||)  (1 if 0)
//   converged at tol  <=>  e_nat <= tol and e_eq <= tol
//
// Siconos' gfc3d_compute_error (§9.2, numerics 4.4), for comparison only:
//
//   e_eq_s        = ||f + H r - M v|| / max(||f||, ||M v||, ||H r||)
//   e_c           = ||F_nat(r, u)|| / max(||u||, ||r||)
//   siconos_error = e_eq_s + e_c   (Siconos: converged iff < tol, strictly)
//
// where each division happens only if its denominator exceeds DBL_EPSILON
// (otherwise the term is left undivided).
//
// Usage:
//   double q_free_norm;
//   if (!fcsn::ComputeQFreeNorm(problem, &q_free_norm, &error)) {
//     ...  // M is singular
//   }
//   fcsn::ErrorMeasures e =
//       fcsn::ComputeErrorMeasures(problem, v, r, q_free_norm);
//   if (e.Converged(1e-8)) { ... }
#ifndef FCSN_ERROR_MEASURES_H_
#define FCSN_ERROR_MEASURES_H_

#include <Eigen/Core>
#include <string>

#include "fcsn/problem.h"

namespace fcsn {

struct ErrorMeasures {
  double e_nat = 0.0;          // ||F_nat|| / ||q_free||
  double e_eq = 0.0;           // relative residual of M v = H r + f
  double siconos_error = 0.0;  // Siconos 4.4 gfc3d_compute_error value
  double q_free_norm = 0.0;    // ||H^T M^-1 f + w||, as passed in
  // e_nat <= tol and e_eq <= tol (false if either is NaN).
  bool Converged(double tol) const { return e_nat <= tol && e_eq <= tol; }
};

// ||q_free|| = ||H^T M^-1 f + w||. Factorizes M once (SimplicialLDLT if M is
// symmetric, SparseLU otherwise, with a residual check) and returns false plus
// a one-line message if M is singular or the solve is inaccurate. The problem
// must pass Validate().
bool ComputeQFreeNorm(const GlobalProblem& p,
                      double* q_free_norm,
                      std::string* error);

// e_nat, e_eq and Siconos' measure at (v, r); u = H^T v + w is recomputed.
// Cheap: a few mat-vecs, no factorization. v must have n entries and r m
// entries.
ErrorMeasures ComputeErrorMeasures(const GlobalProblem& p,
                                   const Eigen::VectorXd& v,
                                   const Eigen::VectorXd& r,
                                   double q_free_norm);

// ||F_nat(r, u)||_2, unnormalized (u and r of size m; u is used as given).
double NaturalMapResidualNorm(const GlobalProblem& p,
                              const Eigen::VectorXd& u,
                              const Eigen::VectorXd& r);

}  // namespace fcsn

#endif  // FCSN_ERROR_MEASURES_H_
