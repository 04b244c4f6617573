// newton/cold_start.h: the starting iterate of a solve given no guess
// (SolverOptions::cold_start, fcsn/options.h).
//
//   zero:         v = 0,        r = 0
//   free-flight:  v = M^-1 f,   r = 0   (M v = H r + f holds; u = q_free)
//   bonded:       v = 0,        r = 0 but at the resting contacts (below),
//                 which start closed and sticking
//   auto:         bonded when the problem is at rest, ||w||_inf <=
//   (default)     kColdStartRoundOff ||q_free - w||_inf (w round-off against
//                 the free velocities H^T M^-1 f), else the resting and the
//                 approaching contacts closed (a contact in both sets gets
//                 the approaching reaction), at v = 0 where the free flight
//                 slides an approaching contact (||q_T,a|| > mu_a |q_N,a|),
//                 else at the free flight v = M^-1 f (FreeFlightSticks)
//   approaching:  v = 0,        r = 0 but at the approaching contacts (below),
//                 which start closed and sticking
//
// Why: at v = 0 with w_N = 0 up to round-off, every contact sits on the kink
// s_N = -rho_N w_N = 0 and round-off picks its piece (formulations/
// alart_curnier.h takes s_N <= 0 as open).
//
// Resting contacts: a contact whose u_a = H_a^T v + w_a at the start is
// round-off, ||u_a||_inf <= kColdStartRoundOff ||q_free - w||_inf, with
// r_a = 0, sits at s_a = 0, the apex of every kink of its residual, where
// every piece is an element of the generalized Jacobian. The closed-stick
// piece (F_a = Rho u_a, A_a = Rho, B_a = 0: a bonded contact) is chosen by
// starting it at
//
//   r_a = (kRestingReaction rho_N,a ||q_free - w||_inf, 0, 0),
//
// so that s_N > 0 and ||s_T|| <= R = mu s_N with a margin of >= 1e3 over
// round-off even under the rho boost (30). Newton's first step does not
// depend on that value (B_a = 0, and the equilibrium rows are linear in r).
//
// Approaching contacts: (q_free)_N,a < -kColdStartRoundOff ||q_free - w||_inf,
// the contacts that the free flight drives together. At the start's v such a
// contact may have a real gap or slide (u0_a = H_a^T v + w_a: w_a at v = 0);
// it is started on the closed-stick piece all the same, with
//
//   r_N,a = kStickMargin boost (rho_N,a (u0_N,a)_+ + rho_T,a ||u0_T,a|| / mu_a)
//           + the resting reaction above,
//
// rho_T,a the larger tangential rho: s_N > 0 and ||s_T|| <= mu s_N under the
// initial boost. Newton's first step then solves the bonded problem on them
// (u_a = 0) and leaves the others free, as in the zero start's second step,
// one iteration earlier and from a better balanced point. A contact with mu_a
// = 0 and w_T,a != 0 cannot stick; it is only closed.
#ifndef FCSN_NEWTON_COLD_START_H_
#define FCSN_NEWTON_COLD_START_H_

#include <Eigen/Core>

#include "fcsn/options.h"
#include "fcsn/problem.h"

namespace fcsn::internal {

// Whether w is round-off against the free velocities (the auto rule's test).
// q_free = H^T M^-1 f + w, same size as w.
bool AtRest(const Eigen::VectorXd& w, const Eigen::VectorXd& q_free);

// Whether the free flight slides no approaching contact: ||q_T,a|| <=
// mu_a |q_N,a| wherever (q_free)_N,a < -kColdStartRoundOff ||q_free - w||_inf
// (the auto rule's choice of v off rest). Why: a body loaded from rest, the
// first shear step of a wall, falls and is pushed within its cones; at v = 0
// its resting contacts are bonded, the ones the free flight separates pull,
// Newton's first step opens them and overloads their neighbours, and the
// slip set overshoots and retreats for many iterations (masonry wall step 22,
// 5600 contacts: 16 iterations; from the free flight 3). Where the free
// flight slides, a sliding wall, the resting contacts closed at v = 0 stay
// closed in the answer (bench/results/cold_approaching.md).
bool FreeFlightSticks(const GlobalProblem& problem,
                      const Eigen::VectorXd& q_free);

// Sets the starting (v, r) of a solve without a guess by `cold_start`; on
// entry v = 0 (size n) and r = 0 (size m). free_velocity = M^-1 f, q_free =
// H^T M^-1 f + w, rho the rule's rho (size m), boost the rho boost of
// Newton's first iterate (RhoOptions::initial_boost).
void ApplyColdStart(ColdStart cold_start,
                    const GlobalProblem& problem,
                    const Eigen::VectorXd& free_velocity,
                    const Eigen::VectorXd& q_free,
                    const Eigen::VectorXd& rho,
                    double boost,
                    Eigen::VectorXd* v,
                    Eigen::VectorXd* r);

}  // namespace fcsn::internal

#endif  // FCSN_NEWTON_COLD_START_H_
