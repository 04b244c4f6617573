// problem/m_regularity.h: the one test, in the library, of whether a
// symmetric M is positive definite to working precision ("regular": M^-1
// then serves q_free, rho, NSGS and the floor s_eps of the error measures,
// fcsn/error_measures.h). It reads the pivots d of a factorization
// P M P^T = L D L^T in any symmetric order P (D itself, or the squared
// diagonal of L for P M P^T = L L^T) and solves with those factors:
//
//   tau = n eps max_i |M_ii|
//   M regular  <=>  every d_i > n eps max(max|d|, max_i |M_ii|)      (1)
//                   and lambda~ > tau                                 (2)
//
//   lambda~ = y_k^T y_k / y_k^T M^-1 y_k,  y_{j+1} = M^-1 y_j / ||.||,
//             k = kInverseIterations, y_0 a fixed vector (below)
//
// Why both. For a positive definite M every pivot is a diagonal entry of a
// Schur complement, so lambda_min <= d_i <= max_i M_ii: a small pivot proves
// M nearly singular (1), but an ordering can hide the cancellation in a pivot
// that is not small. M = [1e6 0 0; 0 18519 -148164; 0 -148164 1185377]
// (lower block singular to 1.5e-17 relative, condition ~1e17) gives, in the
// natural order, d = (1e6, 18519, 9.3e-10), which passes (1) for n = 3, and
// (1e6, 1185377, 1.5e-11) in the reverse one, which fails it. (2) is the
// Rayleigh quotient of M^-1 after k inverse iterations: lambda~ >=
// lambda_min(M) for every y, whatever the order, and it converges to
// lambda_min by the factor (lambda_min / lambda_2)^2 per iteration. So every
// M with lambda_min > tau (condition below 1 / (n eps)) passes, and a nearly
// singular one is seen after a few solves. A pivot that is not positive, or
// a failed or non-finite solve, fails. Cost: O(n) and k solves with the
// factors (less than one factorization).
#ifndef FCSN_PROBLEM_M_REGULARITY_H_
#define FCSN_PROBLEM_M_REGULARITY_H_

#include <Eigen/Core>
#include <string>

#include "fcsn/error_measures.h"
#include "fcsn/problem.h"

namespace fcsn::internal {

// Inverse iterations of (2): the component of y_0 along the eigenvector of
// lambda_min grows by lambda_2 / lambda_min per solve, so 4 solves make a
// start component of 1e-3 dominate once lambda_2 / lambda_min >= 1e2, far
// below the gap 1 / (n eps) the test separates.
inline constexpr int kInverseIterations = 4;

// max_i |M_ii| (0 for an empty M).
double MaxAbsDiagonal(const SparseMatrix& M);

// Test (1) for the pivots d, given max_diagonal = max_i |M_ii|. False with
// the first failing pivot named in *message.
bool RegularPivots(const Eigen::VectorXd& d,
                   double max_diagonal,
                   std::string* message);

// lambda~ of (2) for the n x n M that `solve` inverts; NaN when a solve
// fails or is not finite.
double SmallestEigenvalueBound(int n, const MSolveFunction& solve);

// (1) and (2): false with the reason in *message.
bool IsRegular(const Eigen::VectorXd& d,
               double max_diagonal,
               const MSolveFunction& solve,
               std::string* message);

}  // namespace fcsn::internal

#endif  // FCSN_PROBLEM_M_REGULARITY_H_
