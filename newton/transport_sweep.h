// newton/transport_sweep.h: one nonlinear Gauss-Seidel sweep over the
// contacts on z = (v, r) without the Delassus operator W, for Newton's
// stick-slip fronts (newton/newton_driver.h, FrontDetector).
//
//   v = M^-1 (H r + f)
//   for a = 1 .. nc, then a = nc .. 1 (symmetric: a front moves as far
//   whichever way the contacts are numbered along it):
//     u_a = H_a^T v + w_a,  q_a = u_a - W_aa r_a
//     r_a' = the one-contact solution of u_a = W_aa r_a' + q_a
//            (nsgs/local_solvers.h, NsgsOptions' local solver)
//     v   += M^-1 H_a (r_a' - r_a)
//
// Carried out on the factors P M P^T = L D L^T without v
// (linalg/contact_reach.h): y = L^-1 P (H r + f) once, then per contact
// u_a = Y_a^T D^-1 y + w_a and y += Y_a (r_a' - r_a) with Y_a = L^-1 P H_a on
// a's elimination-tree reach, and v = P^T L^-T D^-1 y at the end.
//
// W_aa = H_a^T M^-1 H_a are the blocks rho is made of (MInverse). Why: in
// the generalized Jacobian of every formulation a sticking contact is rigid
// (u_T = 0), so Newton's model lays all the excess load on the first
// sticking contact behind a stick-slip front, and the front advances one
// contact per iteration. A Gauss-Seidel sweep passes each contact's new
// reaction on to the next one through v, and moves the front as far as the
// load takes it in one pass (bench/results/fronts.md). Cost: the reach
// solves of the W_aa blocks twice (batches of kReachBatch contacts), one
// forward and one backward solve, no W.
#ifndef FCSN_NEWTON_TRANSPORT_SWEEP_H_
#define FCSN_NEWTON_TRANSPORT_SWEEP_H_

#include <Eigen/Core>
#include <functional>
#include <vector>

#include "fcsn/options.h"
#include "fcsn/problem.h"
#include "linalg/m_factorization.h"

namespace fcsn::internal {

// The sweep above on (*v, *r). False, (*v, *r) unchanged, when a solve
// fails or the result is not finite. `factorization` must be symmetric()
// and regular; `blocks` holds W_aa for every contact.
bool TransportSweep(const GlobalProblem& problem,
                    const MFactorization& factorization,
                    const std::vector<Eigen::Matrix3d>& blocks,
                    const NsgsOptions& options,
                    Eigen::VectorXd* v,
                    Eigen::VectorXd* r);

// A sweep bound to one solve's problem and M's factors (SolveRun::transport):
// true when (*v, *r) were swept.
using TransportFunction =
    std::function<bool(Eigen::VectorXd*, Eigen::VectorXd*)>;

// TransportSweep on `problem` with m_inverse's factors and W_aa blocks
// (computed at first use when rho did not), or an empty function when they
// cannot serve: no local factors (m_inverse null: MServices::sweep_factors),
// M not factored, not symmetric or not regular. `problem` and
// `m_inverse` must outlive the function (`options` is copied).
TransportFunction MakeTransport(const GlobalProblem& problem,
                                MInverse* m_inverse,
                                const NsgsOptions& options);

}  // namespace fcsn::internal

#endif  // FCSN_NEWTON_TRANSPORT_SWEEP_H_
