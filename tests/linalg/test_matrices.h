// tests/linalg/test_matrices.h: sparse test systems for the linear-solver tests
// and benchmark.
//
// Every generator returns a pattern in the LinearSolver contract (CSC, sorted,
// no duplicates) plus values in the pattern's order; structural zeros (explicit
// slots holding 0) are kept, as in the Newton matrix. All generators are
// deterministic functions of their arguments.
#ifndef FCSN_TESTS_LINALG_TEST_MATRICES_H_
#define FCSN_TESTS_LINALG_TEST_MATRICES_H_

#include <Eigen/SparseCore>
#include <cstdint>
#include <tuple>
#include <vector>

#include "linalg/linear_solver.h"

namespace fcsn::testing {

struct TestSystem {
  internal::SparsityPattern pattern;
  std::vector<double> values;
};

// (row, column, value) triplets -> TestSystem; duplicates are summed, entries
// with value 0 kept.
TestSystem FromTriplets(
    int n, const std::vector<std::tuple<int, int, double>>& triplets);

// The system as an Eigen matrix (for residuals).
Eigen::SparseMatrix<double> ToEigen(const internal::SparsityPattern& pattern,
                                    const std::vector<double>& values);

// ||J x - b||_inf / (||J||_inf ||x||_inf + ||b||_inf): normwise backward error
// of x.
double BackwardError(const Eigen::SparseMatrix<double>& J,
                     const Eigen::VectorXd& x,
                     const Eigen::VectorXd& b);

// n x n random sparse unsymmetric matrix, well conditioned: a strictly
// diagonally dominant matrix (about `per_column` off-diagonal entries per
// column, unsymmetric pattern) whose rows are then swapped in random pairs, so
// that about `swap_fraction` of the diagonal entries become 0 (their slots are
// kept in the pattern). The condition number stays that of the dominant matrix.
TestSystem RandomUnsymmetric(int n,
                             int per_column,
                             double swap_fraction,
                             std::uint32_t seed);

// New values on the pattern of RandomUnsymmetric(n, per_column,
// swap_fraction, seed): same structure and row swap, values redrawn from
// `value_seed`.
std::vector<double> RandomUnsymmetricValues(int n,
                                            int per_column,
                                            double swap_fraction,
                                            std::uint32_t seed,
                                            std::uint32_t value_seed);

// Contact-like Newton matrix (formulations.md §4.1)
//   J = [[M, -H], [A H^T, B]]
//   M: n_v x n_v SPD, 3 dofs per node of a k x k x k grid with 27-point
//      coupling (FEM-like);
//   H: n_v x 3 nc, contact a touching the 3 dofs of two grid nodes;
//   per contact, 3 x 3 blocks (A_a, B_a) chosen by state (a + state_seed) % 3:
//      stick (A = I, B = 0), slide (generic A, B with B_NN = 0),
//      open (A = 0, B = I).
// The pattern is the same for every state_seed (B keeps its full 3 x 3 slots
// even when zero).
TestSystem ContactSaddlePoint(int k, int contacts, std::uint32_t state_seed);

// Node (x, y, z) of a k x k x k grid, numbered (z k + y) k + x, followed by
// its face neighbours inside the grid (up to 6): a 7-point stencil.
std::vector<int> GridStencil7(int k, int x, int y, int z);

// 7-point 3D Laplacian-like operator on a k x k x k grid (n = k^3) with a small
// convection term, so that values are unsymmetric but the pattern symmetric.
TestSystem Laplacian3D(int k);

// Star graph: variable 0 coupled to all others (arrowhead matrix), diagonally
// dominant.
TestSystem Arrowhead(int n);

// RandomUnsymmetric(150, 3, 0.2, 21) with row 40 := 0.3 * row 12 + tiny *
// (row 40's own entries): nonsingular for tiny != 0 with a condition number
// of order 1 / tiny (singular for tiny = 0). Ill-conditioned enough at
// tiny = 1e-9 for a single-precision LU (eps 6e-8) to be no preconditioner.
TestSystem NearlyDependentRows(double tiny);

}  // namespace fcsn::testing

#endif  // FCSN_TESTS_LINALG_TEST_MATRICES_H_
