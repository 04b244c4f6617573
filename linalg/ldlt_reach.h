// linalg/ldlt_reach.h: elimination-tree reach solves on Eigen's simplicial
// LDL^T of M, one of the factorizations linalg/m_factorization.h keeps.
//
//   P M P^T = L D L^T (unit lower L),  Y_a = L^-1 P H_a on contact a's reach
//   (the elimination-tree ancestors of the pivots of its dofs; the sparse
//   triangular solve visits those columns of L only):
//     W_aa = Y_a^T D^-1 Y_a       for every contact (DiagonalBlocksFromLdlt),
//                                 a batch of contacts per pass;
//     Y_a itself                  one contact at a time (LdltReach), for the
//                                 sweeps of linalg/contact_reach.h.
#ifndef FCSN_LINALG_LDLT_REACH_H_
#define FCSN_LINALG_LDLT_REACH_H_

#include <Eigen/Core>
#include <Eigen/SparseCholesky>
#include <memory>
#include <vector>

#include "fcsn/problem.h"
#include "linalg/contact_reach.h"
#include "linalg/fill_ordering.h"

namespace fcsn::internal {

using Ldlt =
    Eigen::SimplicialLDLT<SparseMatrix, Eigen::Lower, FillReducingOrdering>;

// W_aa for every contact (H: n rows, 3 nc columns), batch_contacts contacts
// per pass at most (the pass's panel is also bounded in memory). Each W_aa
// gets the same operations in the same order whatever the batch.
void DiagonalBlocksFromLdlt(const Ldlt& ldlt,
                            const SparseMatrix& H,
                            int batch_contacts,
                            std::vector<Eigen::Matrix3d>* W);

// Y_a of a few contacts at a time on the factors of `ldlt` (kept by
// reference: they must outlive this object and not change), one pass over
// the union of their reaches. Allocation-free after the first call but for
// the output's growth; not thread-safe.
class LdltReach {
 public:
  // Batches of at most `max_count` contacts.
  LdltReach(const Ldlt& ldlt, int max_count);
  ~LdltReach();
  LdltReach(const LdltReach&) = delete;
  LdltReach& operator=(const LdltReach&) = delete;

  // (*out)[b] = Y_a of a = contacts[b] on the union reach of the batch
  // (zero rows outside a's own reach), with 1 / d per pivot; count <=
  // max_count.
  void Solve(const SparseMatrix& H,
             const int* contacts,
             int count,
             std::vector<ContactReach>* out);

 private:
  struct Work;
  const Ldlt& ldlt_;
  std::vector<int> parent_;
  Eigen::VectorXd inverse_d_;
  std::unique_ptr<Work> work_;
};

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_LDLT_REACH_H_
