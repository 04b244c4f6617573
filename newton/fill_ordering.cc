// Nested dissection through METIS (see fill_ordering.h).
#include "newton/fill_ordering.h"

#include <metis.h>

#include <vector>

namespace fcsn::internal {

bool NestedDissection(const SparseMatrix& full, OrderingPermutation* perm) {
  const int n = static_cast<int>(full.rows());
  // The adjacency graph of METIS: CSR of the pattern without the diagonal
  // (the pattern is symmetric, so the columns of `full` serve as rows).
  std::vector<idx_t> start(n + 1, 0);
  std::vector<idx_t> adjacent;
  adjacent.reserve(full.nonZeros());
  for (int j = 0; j < n; ++j) {
    for (SparseMatrix::InnerIterator it(full, j); it; ++it) {
      if (it.row() != j) adjacent.push_back(static_cast<idx_t>(it.row()));
    }
    start[j + 1] = static_cast<idx_t>(adjacent.size());
  }
  idx_t size = n;
  std::vector<idx_t> order(n);     // order[k]: the old index at position k
  std::vector<idx_t> position(n);  // its inverse
  if (METIS_NodeND(&size,
                   start.data(),
                   adjacent.data(),
                   nullptr,
                   nullptr,
                   order.data(),
                   position.data()) != METIS_OK) {
    return false;
  }
  perm->resize(n);
  for (int k = 0; k < n; ++k) perm->indices()[k] = static_cast<int>(order[k]);
  return true;
}

}  // namespace fcsn::internal
