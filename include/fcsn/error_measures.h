// fcsn/error_measures.h: the solver-independent error of a point (v, r),
// formulations.md §9.1 (revised), defined here once for the library, the CLI,
// the benchmarks and the tests.
//
// Convergence criterion (unit-free: each measure is invariant under separate
// rescalings of forces, velocities and masses; |.| entrywise, 2-norms,
// 0/0 := 0, eps = DBL_EPSILON):
//
//   u     = H^T v + w                  (recomputed from v, never a solver's u)
//   û_a   = u_a + mu_a ||u_T,a|| e_N   (De Saxcé velocity)
//   b     = |M| |v| + |H| |r| + |f|    (size of the balance's terms, n entries)
//   x     = M^-1 b        when M is regular (below), else
//   x_i   = b_i / |M_ii|  (0 where M_ii = 0)
//   s_eps = c eps || |H^T| |x| ||      round-off floor of u, c = kVelocityFloorFactor
//   s_u   = max( || |H^T| |v| + |w| ||, ||û||, s_eps )        scale of u
//
//   e_cone = || [ dist(r_a, K_a) ]_a ||   / ||r||       r ∈ K
//   e_dual = || [ dist(û_a, K*_a) ]_a ||  / s_u         û ∈ K*
//   e_comp = Σ_a | r_a · û_a |           / (||r|| s_u)  r ⟂ û
//   e_eq   = || M v - H r - f || / || b ||   (componentwise backward error of
//                                             the balance)
//
//   converged at tol  <=>  max(e_cone, e_dual, e_comp, e_eq) <= tol
//
// The rest-state floor s_eps. When v and w are round-off (a body at rest on
// its supports) the first two terms of s_u are round-off too, and e_dual,
// e_comp would be O(1) at a correct answer. s_eps is the velocity that a
// relative perturbation eps of each term of the balance produces: a balance
// known to e_eq ~ eps cannot fix v, hence u, more precisely than
// |M^-1 (eps b)| through |H^T|. It is a round-off level, not a physical
// velocity: it vanishes with eps, so a slip that the tolerance can see is
// judged at its own scale. (A physical velocity as the floor, e.g. the free
// fall ||H^T M^-1 f + w|| of the step, hides slips far below it: friction
// along slowly slipping contacts, or r.û at 0.47 ||r|| s_u on a nearly
// singular M, were "converged" with it.)
//
// c = 1e4 = 1 / 1e-4, the loosest tolerance SolverOptions documents: for
// every tol <= 1e-4 the largest velocity violation accepted at rest,
// tol c eps || |H^T| |x| ||, is at most the round-off velocity
// eps || |H^T| |x| || itself, so the floor never hides a violation that
// floating point resolves. A smaller c asks more than round-off allows of
// the answers at rest: with c = 1, Newton's iterates on a rigid box resting
// on four corner contacts (J singular, regularized) hover at e_comp 1e-9 to
// 3e-4 and end at max-iterations after 100 iterations at tol 1e-10; with
// c = 1e4 they converge (tests/newton/hybrid_test.cc, box piles).
// What remains beyond round-off at rest is the method's own noise: an answer
// whose v = M^-1 (H r + f) is recovered from r (NSGS) carries velocities of
// about 0.1 eps || |H^T| |x| ||, so NSGS ends such steps at its round-off
// limit, and Newton, whose contact rows fix u, polishes them in one more
// iteration (bench/results/criterion.md).
//
// M regular: M factors as L D L^T with positive pivots and no sign of a
// smallest eigenvalue below n eps max|M_ii| (positive definite to working
// precision: pivots and a few inverse iterations, problem/m_regularity.h),
// or, M not symmetric, an LU that succeeds.
// Otherwise (M singular: a static step of a floating body, M := K, held only
// by its contacts; or M indefinite) M^-1 b is meaningless or does not exist,
// and the floor uses diag(M) instead. For a positive definite M
// (M^-1)_ii >= 1 / M_ii, so the diagonal floor is the smaller, stricter one.
//
// dist(x, K_mu) = ||x - P_K(x)||; dist(y, K*_mu) = ||P_K(-y)|| (Moreau), so
// that mu = 0 gives the ray K and the half-space K* = {y_N >= 0}.
//
// Reported, never deciding convergence (comparison with published numbers):
//
//   F_nat,a = r_a - P_{K_a}(r_a - û_a)            (rho = 1)
//   e_nat   = ||F_nat|| / ||q_free||,  q_free = H^T M^-1 f + w
//             (||F_nat|| when q_free is unknown)
//   siconos_error = ||f + H r - M v|| / max(||f||, ||M v||, ||H r||)
//                 + ||F_nat|| / max(||u||, ||r||)
//     (Siconos 4.4 gfc3d_compute_error, §9.2: each division only when its
//      denominator exceeds DBL_EPSILON; converged there iff < tol, strictly)
//
// Cost: one pass over the entries of M and H and one over the contacts,
// O(nnz(M) + nnz(H)), plus one solve with M's factors for s_eps. The
// self-contained ComputeErrorMeasures(p, v, r) factorizes M at every call
// (a tool judging one answer: `fcsn check`, tests); the solver passes a solve
// with the factors it holds.
//
// Usage:
//   fcsn::ErrorMeasures e = fcsn::ComputeErrorMeasures(problem, v, r);
//   if (e.Converged(1e-8)) { ... }   // e.Worst() <= 1e-8
#ifndef FCSN_ERROR_MEASURES_H_
#define FCSN_ERROR_MEASURES_H_

#include <Eigen/Core>
#include <functional>
#include <string>

#include "fcsn/problem.h"

namespace fcsn {

// c of the round-off floor s_eps (see the header comment).
inline constexpr double kVelocityFloorFactor = 1e4;

struct ErrorMeasures {
  // The criterion (§9.1).
  double e_cone = 0.0;  // r outside K, relative to ||r||
  double e_dual = 0.0;  // û outside K*, relative to s_u
  double e_comp = 0.0;  // complementarity gap, relative to ||r|| s_u
  double e_eq = 0.0;    // backward error of M v = H r + f
  // The scales of u used above (velocity units).
  double velocity_scale = 0.0;  // s_u
  double velocity_floor = 0.0;  // s_eps
  // s_eps came from diag(M): M was not regular (or not given).
  bool floor_from_diagonal = false;
  // Reported only.
  double e_nat = 0.0;          // ||F_nat|| / ||q_free||
  double siconos_error = 0.0;  // Siconos 4.4 gfc3d_compute_error value
  double q_free_norm = 0.0;    // ||H^T M^-1 f + w|| (0: unknown)

  // max(e_cone, e_dual, e_comp, e_eq); NaN if any of them is NaN. A
  // measure whose scale is beyond double's range (an iterate near overflow)
  // is NaN: such a point is never judged converged.
  double Worst() const;
  // Worst() <= tol (false if it is NaN).
  bool Converged(double tol) const { return Worst() <= tol; }
  // "e_cone 1.2e-12, e_dual ..., e_comp ..., e_eq ..." for messages.
  std::string Describe() const;
};

// x = M^-1 b with the caller's factors of a regular M (the header comment);
// false when the solve fails or x is not finite. An empty function means M is
// not regular: the floor then uses diag(M).
using MSolveFunction =
    std::function<bool(const Eigen::VectorXd& b, Eigen::VectorXd* x)>;

// The measures at (v, r), self-contained: factorizes M (SimplicialLDLT when M
// is symmetric by the library's one rule, problem/m_symmetry.h, SparseLU
// otherwise) for s_eps and q_free. v must have n entries and r m entries; the
// problem must pass Validate().
ErrorMeasures ComputeErrorMeasures(const GlobalProblem& p,
                                   const Eigen::VectorXd& v,
                                   const Eigen::VectorXd& r);

// The same with a solve by M's factors that the caller holds (empty: M not
// regular) and ||q_free|| for the reported e_nat (0: unknown).
ErrorMeasures ComputeErrorMeasures(const GlobalProblem& p,
                                   const Eigen::VectorXd& v,
                                   const Eigen::VectorXd& r,
                                   const MSolveFunction& m_solve,
                                   double q_free_norm);

// ||q_free|| = ||H^T M^-1 f + w|| (for the reported e_nat). Factorizes M once
// (SimplicialLDLT if M is symmetric, SparseLU otherwise or when the LDL^T
// solve is inaccurate, with a residual check) and returns false plus a
// one-line message if M is singular (structurally: an empty row or column, or
// numerically) or the solve is inaccurate. The problem must pass Validate().
bool ComputeQFreeNorm(const GlobalProblem& p,
                      double* q_free_norm,
                      std::string* error);

// ||F_nat(r, u)||_2, unnormalized (u and r of size m; u is used as given).
double NaturalMapResidualNorm(const GlobalProblem& p,
                              const Eigen::VectorXd& u,
                              const Eigen::VectorXd& r);

}  // namespace fcsn

#endif  // FCSN_ERROR_MEASURES_H_
