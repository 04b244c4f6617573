// An independent checker of solver outcomes for the property tests, the
// sweep and the solver fuzzer (one implementation for all three).
//
// It evaluates the criterion of formulations.md §9.1 as revised (|.|
// entrywise, 2-norms, 0/0 := 0, eps = DBL_EPSILON), densely and in long
// double, from the formulas alone (it does not call fcsn's
// ComputeErrorMeasures):
//
//   u = H^T v + w,  û_a = u_a + mu_a ||u_T,a|| e_N
//   b = |M||v| + |H||r| + |f|
//   x = M^-1 b if M is regular, else x_i = b_i / |M_ii| (0 where M_ii = 0)
//   s_eps = c eps || |H^T| |x| ||,  c = kVelocityFloorFactor
//   s_u = max(|| |H^T||v| + |w| ||, ||û||, s_eps)
//   e_cone = ||[dist(r_a, K_a)]_a|| / ||r||
//   e_dual = ||[dist(û_a, K*_a)]_a|| / s_u,  dist(y, K*) = ||P_K(-y)||
//   e_comp = Σ_a |r_a · û_a| / (||r|| s_u)
//   e_eq = ||M v - H r - f|| / || |M||v| + |H||r| + |f| ||
//
// and the invariants every solve must keep, whatever the policy:
//   finite:   no NaN or Inf in the returned (v, u, r) (unless the input was
//             rejected);
//   message:  any status but kConverged comes with a non-empty message;
//   criterion: kConverged => the checker's worst measure <= Allowed(tol);
//   friction: kConverged => at each contact that slips faster than the
//             tolerance's velocity (||u_T,a|| > Allowed(tol) s_u), friction
//             opposes the slip and sits on the cone's boundary, within the
//             slack that the four measures imply (FrictionBounds below).
#ifndef FCSN_TESTS_PROPERTY_PROPERTY_CHECK_H_
#define FCSN_TESTS_PROPERTY_PROPERTY_CHECK_H_

#include <string>
#include <vector>

#include "fcsn/error_measures.h"
#include "fcsn/options.h"
#include "fcsn/problem.h"
#include "fcsn/summary.h"

namespace fcsn::property {

// The c of s_eps: the library's (a definition, not a computation; the
// checker computes everything else itself).
inline constexpr double kVelocityFloorFactor = fcsn::kVelocityFloorFactor;

// Slack of the criterion invariant: the library evaluates the measures in
// double, each with a relative round-off of a few eps in its ratio and an
// absolute one of about (n + m) eps in its numerator's cancellations (e_eq's
// M v - H r - f, e_comp's r_a · û_a), amplified by mu in e_dual and e_comp
// (û_N = u_N + mu ||u_T|| carries mu times the round-off of u_T: on the
// generated cases with mu = 1e6 the double and long double e_comp differ by
// up to 4e-12). kRelativeSlack covers the first with a wide margin; the
// second is kRoundOffUnits (n + m) (1 + max mu) eps. Without mu = 1e6 both
// are far below any tolerance a case is solved at (>= 1e-10); with it the
// criterion is only checkable to ~1e-7, which is what double allows.
inline constexpr double kRelativeSlack = 1e-6;
inline constexpr double kRoundOffUnits = 16.0;

// The worst measure a converged solve of `problem` at `tol` may show.
double Allowed(const GlobalProblem& problem, double tol);

struct CheckerMeasures {
  long double e_cone = 0, e_dual = 0, e_comp = 0, e_eq = 0;
  long double s_u = 0;    // the velocity scale (with the floor)
  long double s_eps = 0;  // the round-off floor alone
  bool m_regular = true;  // x from M^-1 b (else the diagonal rule)
  long double Worst() const;
};

// The measures at (v, r) (u recomputed). problem.m_upper_triangle must be
// false (the generators and the fuzzer build full matrices).
CheckerMeasures Measure(const GlobalProblem& problem,
                        const Eigen::VectorXd& v,
                        const Eigen::VectorXd& r);

// One broken invariant: its name (finite, message, criterion, friction) and
// the numbers that break it.
struct Violation {
  std::string invariant;
  std::string detail;
};

// Every invariant of one solve outcome (the contract above).
std::vector<Violation> CheckOutcome(const GlobalProblem& problem,
                                    const SolverOptions& options,
                                    const SolverSummary& summary,
                                    const Solution& solution);

// "invariant: detail; invariant: detail" for messages.
std::string Describe(const std::vector<Violation>& violations);

}  // namespace fcsn::property

#endif  // FCSN_TESTS_PROPERTY_PROPERTY_CHECK_H_
