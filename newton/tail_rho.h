// newton/tail_rho.h: which contacts the tail boost leaves at the rule's rho
// (RhoOptions::tail_unboost_slips; Alart-Curnier and Jean-Moreau, solves
// from a guess).
//
// The tail boost multiplies Newton's rho by tail_boost_factor at the first
// iterate z_k whose worst measure is below tail_error. Per contact a, with
// rho_a the rule's (unboosted) rho, Rho_T,a its diagonal on the T rows, and
// dz = (dv, dr) the last Newton step, du = H^T dv:
//
//   settled slip  a is on its slip piece at z_k (under the rho before the
//                 boost) and
//                     ||Rho_T,a u_T,a||  >  ||dr_T,a - Rho_T,a du_T,a||,
//                 i.e. under the rule's rho its slip margin (||s_T|| - mu r_N
//                 at the answer, where r_T opposes u_T) exceeds what the last
//                 step changed s_T = r_T - Rho_T u_T by. Newton's tail steps
//                 shrink, so the next one keeps a on its slip piece.
//
// A settled slip keeps the rule's rho (newton_rho_a = rho_a, all three rows);
// every other contact gets the boosted rho (newton_rho_a = boost rho_a).
//
// Why: on the slip piece the rows hold the direction s_T / ||s_T||. Under a
// boosted rho it follows u_T, a small difference of velocities that turns
// with each step where the slip is slow, and Newton's tail loses its
// quadratic rate; under the rule's rho it follows r_T, which the balance sets
// nearly right by then. Where the margin does not exceed the step's change
// (a slip at the kink: the walls' slowly creeping contacts), the boost keeps
// the contact off the kink, which is what the tail boost is for. Pushed 3D
// blocks (5313 contacts, E = 1e9): median Newton iterations per front step
// 9 -> 8; the walls' cold and warm steps unchanged (bench/results/fronts.md).
#ifndef FCSN_NEWTON_TAIL_RHO_H_
#define FCSN_NEWTON_TAIL_RHO_H_

#include <Eigen/Core>

#include "formulations/residual.h"

namespace fcsn::internal {

// Sets the settled slips' entries of *newton_rho (size 3 nc, the boosted
// rho on entry) to rho's, the rule's, from the pieces at z_k (pieces[0..nc)),
// u at z_k and the last step's du and dr (all size 3 nc, frame N, T1, T2).
// Returns the number of settled slips.
int UnboostSettledSlips(const Eigen::VectorXd& rho,
                        const DiskPiece* pieces,
                        const Eigen::VectorXd& u,
                        const Eigen::VectorXd& du,
                        const Eigen::VectorXd& dr,
                        Eigen::VectorXd* newton_rho);

}  // namespace fcsn::internal

#endif  // FCSN_NEWTON_TAIL_RHO_H_
