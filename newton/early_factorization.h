// newton/early_factorization.h: J's first factorization on the second setup
// thread, before rho and q_free exist, at a bonded cold start.
//
// At v = 0 with w round-off every contact rests (u_a ~ 0), and the bonded
// start (newton/cold_start.h) closes and sticks it: s_a = r_a - Rho_a u_a is
// about r_a, a positive normal reaction with zero tangential parts. Its rows
// of J are then [Rho_a H_a^T, 0] for the Alart-Curnier-type residuals, so the
// first Newton matrix (newton/newton_direction.h) is
//
//   D J C = L P0 R   and   (D J C)^-1 = R^-1 P0^-1 L^-1
//
// with P0 the unscaled J at rho = 1 and unit normal reactions, R the column
// scales C (column_v on v, column_r on r) and L the diagonal of the row
// weights times Rho and the boost on the contact rows.
//
// P0 needs neither rho (W_aa, the longest part of the setup) nor q_free, so it
// is factorized on the second setup thread right after J's analysis, while
// the first thread computes rho; the first Newton direction then costs one
// solve. With its contact rows negated P0 is [[M, -H], [-H^T, 0]], symmetric
// when M is exactly: it is then factorized by LDL^T
// (LinearSolver::FactorizeSymmetric, half the flops of the LU), the sign
// being one more diagonal scaling in L. The prediction is checked, not trusted: the factors serve only when
// the first D J C is L P0 R entry by entry (DiagonallyEquivalent), e.g. not
// after NSGS warm-up sweeps or with the Fischer-Burmeister residual; J is then
// factorized as usual and the early factorization was spent for nothing (its
// time and count stay in the summary).
#ifndef FCSN_NEWTON_EARLY_FACTORIZATION_H_
#define FCSN_NEWTON_EARLY_FACTORIZATION_H_

#include <Eigen/Core>
#include <string>
#include <vector>

#include "fcsn/options.h"
#include "fcsn/problem.h"
#include "fcsn/summary.h"
#include "linalg/linear_solver.h"
#include "newton/newton_system.h"

namespace fcsn::internal {

// The factors the linear solver holds from the setup thread.
struct EarlyFactors {
  // The linear solver holds the factors of `values` (P0), not yet used.
  bool ready = false;
  std::vector<double> values;  // P0, in the pattern's CSC order
};

// Whether the first J of a solve is predicted bonded before rho and q_free
// exist: no guess, cold start bonded or auto, at least one contact, a
// residual with a stick piece (not Fischer-Burmeister), and w round-off
// (||w||_inf <= kColdStartRoundOff ||q||_inf) against the free motion
// estimated with diag(M) for M, q = H^T diag(M)^-1 f. A wrong prediction costs
// time (the early factorization is not used), never accuracy.
bool PredictsBondedStart(const SolverOptions& options,
                         const GlobalProblem& problem,
                         bool has_guess);

// Writes M (m's products) and -H and then P0 into `system` (built for
// `problem`) and factorizes P0 with `linear` (analysed for system's pattern);
// *early is ready on success. Counts the factorization and its time into
// *summary.
void FactorizeBondedStart(const GlobalProblem& problem,
                          const MServices& m,
                          Formulation formulation,
                          NewtonSystem* system,
                          LinearSolver* linear,
                          EarlyFactors* early,
                          SolverSummary* summary);

// The row scales L with scaled = L early R entry by entry (R: column_v on the
// first n columns, column_r on the others; each row's ratio equal to within
// round-off, an entry zero in one exactly when zero in the other, every row
// with an entry), or false. `pattern` is the CSC pattern of both value arrays.
bool DiagonallyEquivalent(const SparsityPattern& pattern,
                          int n,
                          const std::vector<double>& scaled,
                          const std::vector<double>& early,
                          double column_v,
                          double column_r,
                          Eigen::VectorXd* row_scale);

}  // namespace fcsn::internal

#endif  // FCSN_NEWTON_EARLY_FACTORIZATION_H_
