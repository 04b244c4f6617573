// Nested dissection through METIS (see fill_ordering.h).
#include "linalg/fill_ordering.h"

#include <metis.h>

#include <vector>

#include "linalg/ordering.h"

namespace fcsn::internal {

bool NestedDissection(const SparseMatrix& full, OrderingPermutation* perm) {
  const int n = static_cast<int>(full.rows());
  // The adjacency graph of METIS: CSR of the pattern without the diagonal
  // (the pattern is symmetric, so the columns of `full` serve as rows).
  AdjacencyGraph graph;
  graph.offsets.assign(n + 1, 0);
  graph.adjacency.reserve(full.nonZeros());
  for (int j = 0; j < n; ++j) {
    for (SparseMatrix::InnerIterator it(full, j); it; ++it) {
      if (it.row() != j) graph.adjacency.push_back(static_cast<int>(it.row()));
    }
    graph.offsets[j + 1] = static_cast<int>(graph.adjacency.size());
  }
  if (graph.adjacency.empty()) return false;  // diagonal M: AMD is exact
  std::vector<int> order;     // order[k]: the old index at position k
  std::vector<int> position;  // its inverse
  if (NestedDissectionOrder(
          &graph, n, UniformBlocks(n, kDofsPerNode), &order, &position) !=
      METIS_OK) {
    return false;
  }
  perm->resize(n);
  for (int k = 0; k < n; ++k) perm->indices()[k] = order[k];
  return true;
}

}  // namespace fcsn::internal
