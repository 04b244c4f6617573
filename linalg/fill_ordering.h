// linalg/fill_ordering.h: the fill-reducing ordering P of the LDL^T of M
// (linalg/m_factorization.h), P M P^T = L D L^T, chosen by the size of M:
//
//   n <  kNestedDissectionMinDofs:  approximate minimum degree (Eigen's AMD);
//   n >= kNestedDissectionMinDofs:  METIS nested dissection (METIS_NodeND on
//                                   the graph of M without its diagonal, or on
//                                   its quotient by blocks of kDofsPerNode
//                                   dofs (linalg/ordering.h), default options:
//                                   deterministic), AMD if METIS fails.
//
// Why by size (bench/results/rho_setup.md): on 3D finite-element M, nested
// dissection's separators give far less fill than minimum degree once the
// mesh is large (the refine-3 wall, n = 133,853: the simplicial LDL^T and the
// W_aa reach solves of minverse/rho.h in 13 s instead of 115 s; refine 2, n =
// 43,745: half the reach work); on small M (the 688-contact wall, n = 7205)
// it orders slower than AMD and saves nothing. Below the threshold the factors are the
// ones AMD always gave, bit for bit.
#ifndef FCSN_LINALG_FILL_ORDERING_H_
#define FCSN_LINALG_FILL_ORDERING_H_

#include <Eigen/Core>
#include <Eigen/OrderingMethods>

#include "fcsn/problem.h"

namespace fcsn::internal {

// Also the size from which M gets CHOLMOD's supernodal Cholesky and the second
// setup thread its share of W_aa (linalg/m_factorization.h).
// Between the 688-contact wall (n = 7205: AMD orders faster; with the
// threshold at 5000 its solves took the same time, same iterations) and the
// elastic bar (n = 19,089: cold solves 1.9 -> 1.0 s and 1.5 -> 0.63 s when it
// was lowered from 20,000, W_aa and LDL^T of M being 1.0 of its 1.8 s;
// bench/results/m_setup.md, 2026-11-24); every FCLib problem of ../shared
// and every golden history is below it, so their bits do not change.
constexpr int kNestedDissectionMinDofs = 10000;
// The dofs of M are taken in blocks of this many consecutive ones (the 3
// velocity dofs of a finite-element node in FCLib's 3D problems) for METIS'
// block ordering (linalg/ordering.h), which only applies when the blocks
// group neighbours: at refine 2 it orders M in 0.065 s instead of 0.42 s, for
// 5 % more entries in L (9.12 M against 8.70 M, means of five METIS seeds;
// bench/results/refine2_speed.md).
constexpr int kDofsPerNode = 3;

using OrderingPermutation =
    Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int>;

// METIS nested dissection of the symmetric pattern `full` (both triangles
// stored), as Eigen's orderings return it (the inverse permutation P^-1).
// False (perm untouched) when METIS fails.
bool NestedDissection(const SparseMatrix& full, OrderingPermutation* perm);

// The ordering functor of Eigen::SimplicialLDLT (called with the full
// symmetric pattern of M).
struct FillReducingOrdering {
  typedef OrderingPermutation PermutationType;
  template <typename MatrixType>
  void operator()(const MatrixType& full, OrderingPermutation& perm) {
    if (full.rows() < kNestedDissectionMinDofs ||
        !NestedDissection(full, &perm)) {
      Eigen::AMDOrdering<int>()(full, perm);
    }
  }
};

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_FILL_ORDERING_H_
