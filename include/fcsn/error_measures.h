// fcsn/error_measures.h: the solver-independent error of a point (v, r),
// formulations.md §9.1 (revised), defined here once for the library, the CLI,
// the benchmarks and the tests.
//
// Convergence criterion (unit-free: each measure is invariant under separate
// rescalings of forces, velocities and masses; |.| entrywise, 2-norms,
// 0/0 := 0):
//
//   u     = H^T v + w                  (recomputed from v, never a solver's u)
//   û_a   = u_a + mu_a ||u_T,a|| e_N   (De Saxcé velocity)
//   q_free = H^T M^-1 f + w            (velocity without contact forces)
//   s_u   = max( || |H^T| |v| + |w| ||, ||û||, ||q_free|| )    scale of u
//
//   e_cone = || [ dist(r_a, K_a) ]_a ||   / ||r||       r ∈ K
//   e_dual = || [ dist(û_a, K*_a) ]_a ||  / s_u         û ∈ K*
//   e_comp = Σ_a | r_a · û_a |           / (||r|| s_u)  r ⟂ û
//   e_eq   = || M v - H r - f || / || |M| |v| + |H| |r| + |f| ||
//                                  (componentwise backward error of the balance)
//
//   converged at tol  <=>  max(e_cone, e_dual, e_comp, e_eq) <= tol
//
// ||q_free|| in s_u is fcsn's addition to formulations.md §9.1 (Siconos'
// gfc3d_compute_error_r normalizes by it too): at rest (v = 0 and w = 0, a
// resting stack) the other two terms are themselves round-off, u is noise
// of the size of its scale, and e_dual, e_comp would be O(1) at a correctly
// rounded solution. ||q_free|| is the velocity the step would produce
// without contact forces, a scale that does not vanish there; it is a
// velocity, so the measures stay unit-free. Callers without q_free pass 0
// (the term drops out).
//
// dist(x, K_mu) = ||x - P_K(x)||; dist(y, K*_mu) = ||P_K(-y)|| (Moreau), so
// that mu = 0 gives the ray K and the half-space K* = {y_N >= 0}.
//
// Reported, never deciding convergence (comparison with published numbers):
//
//   F_nat,a = r_a - P_{K_a}(r_a - û_a)            (rho = 1)
//   e_nat   = ||F_nat|| / ||q_free||              (||F_nat|| if ||q_free|| = 0)
//   siconos_error = ||f + H r - M v|| / max(||f||, ||M v||, ||H r||)
//                 + ||F_nat|| / max(||u||, ||r||)
//     (Siconos 4.4 gfc3d_compute_error, §9.2: each division only when its
//      denominator exceeds DBL_EPSILON; converged there iff < tol, strictly)
//
// Cost of ComputeErrorMeasures: one pass over the entries of M and H and one
// over the contacts, O(nnz(M) + nnz(H)); no solve with M. Only q_free needs a
// factorization of M: ComputeQFreeNorm, once per problem, for callers without
// one (`fcsn check`); the solver passes the norm from its one factorization of
// M per solve instead.
//
// Usage:
//   double q_free_norm = 0.0;  // 0: unknown (drops out of s_u and e_nat)
//   if (!fcsn::ComputeQFreeNorm(problem, &q_free_norm, &error)) { ... }
//   fcsn::ErrorMeasures e =
//       fcsn::ComputeErrorMeasures(problem, v, r, q_free_norm);
//   if (e.Converged(1e-8)) { ... }   // e.Worst() <= 1e-8
#ifndef FCSN_ERROR_MEASURES_H_
#define FCSN_ERROR_MEASURES_H_

#include <Eigen/Core>
#include <string>

#include "fcsn/problem.h"

namespace fcsn {

struct ErrorMeasures {
  // The criterion (§9.1).
  double e_cone = 0.0;  // r outside K, relative to ||r||
  double e_dual = 0.0;  // û outside K*, relative to s_u
  double e_comp = 0.0;  // complementarity gap, relative to ||r|| s_u
  double e_eq = 0.0;    // backward error of M v = H r + f
  // Reported only.
  double e_nat = 0.0;          // ||F_nat|| / ||q_free||
  double siconos_error = 0.0;  // Siconos 4.4 gfc3d_compute_error value
  double q_free_norm = 0.0;    // ||H^T M^-1 f + w||, as passed in

  // max(e_cone, e_dual, e_comp, e_eq); NaN if any of them is NaN.
  double Worst() const;
  // Worst() <= tol (false if it is NaN).
  bool Converged(double tol) const { return Worst() <= tol; }
  // "e_cone 1.2e-12, e_dual ..., e_comp ..., e_eq ..." for messages.
  std::string Describe() const;
};

// ||q_free|| = ||H^T M^-1 f + w|| (for s_u and e_nat). Factorizes M once
// (SimplicialLDLT if M is symmetric by the library's one rule, relative
// asymmetry <= 1e-13 in the max norm, SparseLU otherwise, with a residual check)
// and returns false plus a one-line message if M is singular (structurally:
// an empty row or column, or numerically) or the solve is inaccurate. The
// problem must pass Validate().
bool ComputeQFreeNorm(const GlobalProblem& p,
                      double* q_free_norm,
                      std::string* error);

// The measures at (v, r); u = H^T v + w is recomputed. v must have n entries
// and r m entries. q_free_norm enters s_u and e_nat (0: unknown).
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
