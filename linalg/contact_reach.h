// linalg/contact_reach.h: one contact's block of L^-1 P H on its reach, as the
// symmetric factorizations of M give it (linalg/m_factorization.h).
//
//   P M P^T = L D L^T (D = I for the supernodal L L^T),
//   Y_a = L^-1 P H_a  (n x 3), nonzero only on the elimination-tree ancestors
//         of the pivots of contact a's dofs: its reach.
//
// With y = L^-1 P b (MFactorization::ForwardSolve), the local velocity of a
// is H_a^T M^-1 b = Y_a^T D^-1 y, and b += H_a dr is y += Y_a dr: a sweep
// over the contacts (newton/transport_sweep.h) costs the reaches, not one
// solve of n unknowns per contact.
#ifndef FCSN_LINALG_CONTACT_REACH_H_
#define FCSN_LINALG_CONTACT_REACH_H_

#include <vector>

namespace fcsn::internal {

struct ContactReach {
  std::vector<int> pivots;        // the nonzero rows of Y_a (pivot order)
  std::vector<double> rows;       // 3 per pivot: that row of Y_a
  std::vector<double> inverse_d;  // 1 / d per pivot (1 for an L L^T)

  int size() const { return static_cast<int>(pivots.size()); }
  void Clear() {
    pivots.clear();
    rows.clear();
    inverse_d.clear();
  }
  // Appends a row of Y_a unless it is zero (outside a's reach in a batch's
  // union reach, or a zero inside it: either adds nothing).
  void Append(int pivot, const double* row, double inverse_pivot) {
    if (row[0] == 0.0 && row[1] == 0.0 && row[2] == 0.0) return;
    pivots.push_back(pivot);
    rows.insert(rows.end(), row, row + 3);
    inverse_d.push_back(inverse_pivot);
  }
};

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_CONTACT_REACH_H_
