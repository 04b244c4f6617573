// newton/warm_boost.h: the largest warm boost that leaves the guess's pieces
// as the rule's rho sees them (RhoOptions::warm_boost_keeps_pieces;
// Alart-Curnier and Jean-Moreau, solves from a guess).
//
// A solve from a guess z_0 = (v_0, r_0) starts Newton under the warm boost
// B = RhoOptions::warm_initial_boost. With u = H^T v_0 + w and, per contact
// a, its disk piece P_a(beta) at (u_a, r_a) under beta rho_a
// (formulations/residual.h, ClassifyDiskPieces: the piece of
// s_T = r_T - beta Rho_T u_T against the disk mu (r_N - beta rho_N u_N)_+),
// the start boost is the first of
//
//     B, B / q, B / q^2, ..., 1        (q = RhoOptions::boost_reduction,
//                                       the last clamped to 1)
//
// under which no contact is on its slip piece that is on its stick piece or
// off its disk under the rule's rho:  P_a(1) != slip  =>  P_a(beta) != slip.
//
// Why: the boost's premise is that the guess's velocities are nearly right.
// A contact that the boost alone puts on its slip piece has a velocity the
// guess's impulse does not account for (beta |u_T| beyond its stick margin):
// the boost magnifies that error, and Newton's first step then puts the
// contact at full friction, from where the retreat takes one share of the
// overshoot per iteration. A guess from a loosely converged step (the
// refine-4 wall's step 22, 9832 contacts, after a step solved to 1e-4): 232
// contacts move to their slip pieces under 100 and none under 30; the first
// step under 100 puts 1592 on slip pieces and the solve ends at the time
// limit after 46 iterations, under 10 it converges in 3. Where the guess's
// pieces do not depend on the boost (the walls' and the pushed blocks' warm
// steps) the boost is kept (bench/results/fronts.md).
//
// The contacts that the previous converged run of the same Solver ended at
// the rule's rho (RhoOptions::warm_keeps_settled_slips: the settled slips of
// the tail boost, newton/tail_rho.h) start the next run from a guess at the
// rule's rho, the others at the boost above: with the previous answer as the
// guess, the first Newton matrix is the previous run's last one up to a
// factor per row, so its factors give the first direction
// (newton/newton_direction.h).
//
// The contacts that run ended on their slip piece under a boosted rho (the
// slips the tail rule left boosted: near their kink, or still turning) would
// start at the warm boost, and their slip rows would differ from the last
// matrix's by more than a factor per row: the ended factor beta_a (30 B,
// the tail boost) against B moves s_T = r_T - beta Rho_T u_T, whose
// direction the slip rows hold, wherever beta rho |u_T| is not negligible
// against mu r_N. On the pushed 5313-contact block of Young's modulus 2e11
// there were 78-113 such contacts per front step, with rho |u_T| from 1e-9
// to 1e-2 of mu r_N, and the first direction's offer of the last factors
// was refused on every front step. With
// RhoOptions::warm_first_step_keeps_slips, when the guess is the last
// answer, each such contact a whose ended factor beta_a exceeds its start
// factor and which is on its slip piece at the guess under both takes
// beta_a rho_a for Newton's first step only, and its start rho from the
// second iterate on: the first model is then the last one up to row
// factors, and its direction takes the last factors, while the run goes on
// under the warm boost (kept for the whole run, beta_a cost the block one
// iteration per front step: bench/results/fronts.md).
#ifndef FCSN_NEWTON_WARM_BOOST_H_
#define FCSN_NEWTON_WARM_BOOST_H_

#include <Eigen/Core>
#include <vector>

#include "fcsn/types.h"

namespace fcsn::internal {

// The start boost above, from u and r at the guess (size 3 nc, frame N, T1,
// T2), mu (size nc), the rule's rho (size 3 nc), the warm boost B >= 1 and
// the reduction q > 1. For AC and JM only (asserted by the classification).
double WarmBoostKeepingPieces(Formulation formulation,
                              const Eigen::VectorXd& u,
                              const Eigen::VectorXd& r,
                              const Eigen::VectorXd& mu,
                              const Eigen::VectorXd& rho,
                              double boost,
                              double reduction);

// RhoOptions::warm_keeps_settled_slips: which contacts of a converged run
// ended at the rule's rho, from Newton's rho of its last iterate (size 3 nc)
// and the rule's (the tail rule copies the rule's values, so they are equal
// bit for bit); all false when the run ended unboosted (boost 1).
std::vector<bool> ContactsAtTheRulesRho(const Eigen::VectorXd& newton_rho,
                                        const Eigen::VectorXd& rho,
                                        double boost);

// Sets those contacts' entries of *newton_rho (boosted on entry) to the
// rule's rho; `at_rule` must have one entry per contact. Returns how many.
int StartAtTheRulesRho(const std::vector<bool>& at_rule,
                       const Eigen::VectorXd& rho,
                       Eigen::VectorXd* newton_rho);

// Per contact, the factor beta_a = newton_rho / rho of a run's last iterate
// (from the first T entry; the three entries share it; 1 where that rho is
// 0), size nc.
Eigen::VectorXd EndedFactors(const Eigen::VectorXd& newton_rho,
                             const Eigen::VectorXd& rho);

// The contacts above: those with ended[a] larger than their factor in
// *newton_rho (the start's, size 3 nc) and on their slip piece at (u, r)
// under both; their entries of *newton_rho become ended[a] rho_a. Returns
// their indices (ascending). AC and JM only (asserted by the classification).
std::vector<int> FirstStepAtTheEndedFactors(Formulation formulation,
                                            const Eigen::VectorXd& u,
                                            const Eigen::VectorXd& r,
                                            const Eigen::VectorXd& mu,
                                            const Eigen::VectorXd& rho,
                                            const Eigen::VectorXd& ended,
                                            Eigen::VectorXd* newton_rho);

}  // namespace fcsn::internal

#endif  // FCSN_NEWTON_WARM_BOOST_H_
