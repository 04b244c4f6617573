// problem/m_symmetry.h: the one symmetry test of M in the library.
// It decides how M is factored wherever that happens (linalg/m_factorization.h
// for rho, NSGS, projected Jacobi and the solver's q_free; ComputeQFreeNorm of
// fcsn/error_measures.h for callers without a solver, e.g. `fcsn check`):
//
//   M symmetric  <=>  M square and
//       max_ij |M_ij - M_ji| <= kSymmetryTolerance * max_ij |M_ij|
//
// with kSymmetryTolerance = 1e-13: an assembled FEM matrix is symmetric up to
// the round-off of its element sums, a few ulps (2.2e-16) of each entry, far
// below it; an upper triangle taken "as stored" misses its whole lower part,
// O(max |M|) above it. The test is entrywise in the max norm (scale-invariant,
// O(nnz(M))). A symmetric M is factored as L D L^T from its lower triangle.
#ifndef FCSN_PROBLEM_M_SYMMETRY_H_
#define FCSN_PROBLEM_M_SYMMETRY_H_

#include "fcsn/problem.h"

namespace fcsn::internal {

// Relative asymmetry (max norm) below which M counts as symmetric (see above).
inline constexpr double kSymmetryTolerance = 1e-13;

// The test above; false for a non-square M.
bool IsSymmetricM(const SparseMatrix& M);

}  // namespace fcsn::internal

#endif  // FCSN_PROBLEM_M_SYMMETRY_H_
