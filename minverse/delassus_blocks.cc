// Block structure of W: components of M, contacts per component, and the
// assembly of the summed blocks (see delassus_blocks.h).
#include "minverse/delassus_blocks.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace fcsn::internal {
namespace {

// Connected components of the graph of M (dofs i, j linked when M_ij or M_ji
// is stored), numbered in order of their smallest dof. Returns their number.
int ConnectedComponents(const SparseMatrix& M, std::vector<int>* component) {
  const int n = static_cast<int>(M.rows());
  std::vector<int> parent(n);
  for (int i = 0; i < n; ++i) parent[i] = i;
  auto find = [&parent](int i) {
    while (parent[i] != i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  };
  for (int j = 0; j < M.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(M, j); it; ++it) {
      const int a = find(static_cast<int>(it.row()));
      const int b = find(j);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
  }
  component->assign(n, -1);
  int count = 0;
  for (int i = 0; i < n; ++i) {
    const int root = find(i);
    if ((*component)[root] < 0) (*component)[root] = count++;
    (*component)[i] = (*component)[root];
  }
  return count;
}

// Fills the dof layout of graph (component_start, component_dofs,
// local_index) from graph->component.
void LayOutComponentDofs(ComponentGraph* graph) {
  const int n = static_cast<int>(graph->component.size());
  const std::vector<int>& component = graph->component;
  std::vector<int>& start = graph->component_start;
  start.assign(graph->num_components + 1, 0);
  for (int p = 0; p < n; ++p) ++start[component[p] + 1];
  for (int c = 0; c < graph->num_components; ++c) start[c + 1] += start[c];
  graph->component_dofs.resize(n);
  graph->local_index.resize(n);
  std::vector<int> next(start.begin(), start.end() - 1);
  for (int p = 0; p < n; ++p) {
    const int slot = next[component[p]]++;
    graph->component_dofs[slot] = p;
    graph->local_index[p] = slot - start[component[p]];
  }
}

// Sums the contributions into block-CSC (column b = contact b): the diagonal
// block first in its column (always stored), then the others in order of
// appearance, exact zeros (no shared dof, or cancellation) dropped.
void SumIntoBlockCsc(const std::vector<Contribution>& contributions,
                     int nc,
                     std::vector<int>* csc_start_out,
                     std::vector<int>* csc_row_out,
                     std::vector<Eigen::Matrix3d>* csc_blocks_out) {
  std::vector<int>& csc_start = *csc_start_out;
  std::vector<int>& csc_row = *csc_row_out;
  std::vector<Eigen::Matrix3d>& csc_blocks = *csc_blocks_out;
  std::vector<int> column_start(nc + 1, 0);
  for (const Contribution& entry : contributions) ++column_start[entry.b + 1];
  for (int b = 0; b < nc; ++b) column_start[b + 1] += column_start[b];
  std::vector<int> by_column(contributions.size());
  {
    std::vector<int> next(column_start.begin(), column_start.end() - 1);
    for (int e = 0; e < static_cast<int>(contributions.size()); ++e) {
      by_column[next[contributions[e].b]++] = e;
    }
  }
  csc_start.assign(nc + 1, 0);
  csc_row.clear();
  csc_blocks.clear();
  std::vector<int> slot_of(nc, -1);
  for (int b = 0; b < nc; ++b) {
    const int begin = static_cast<int>(csc_row.size());
    slot_of[b] = begin;
    csc_row.push_back(b);
    csc_blocks.push_back(Eigen::Matrix3d::Zero());
    for (int k = column_start[b]; k < column_start[b + 1]; ++k) {
      const Contribution& entry = contributions[by_column[k]];
      if (slot_of[entry.a] < begin) {
        slot_of[entry.a] = static_cast<int>(csc_row.size());
        csc_row.push_back(entry.a);
        csc_blocks.push_back(Eigen::Matrix3d::Zero());
      }
      csc_blocks[slot_of[entry.a]] += entry.block;
    }
    for (int k = begin; k < static_cast<int>(csc_row.size()); ++k) {
      slot_of[csc_row[k]] = -1;
    }
    // Compact: drop exact-zero off-diagonal blocks.
    int kept = begin + 1;
    for (int k = begin + 1; k < static_cast<int>(csc_row.size()); ++k) {
      if (!(csc_blocks[k].array() == 0.0).all()) {
        csc_row[kept] = csc_row[k];
        csc_blocks[kept] = csc_blocks[k];
        ++kept;
      }
    }
    csc_row.resize(kept);
    csc_blocks.resize(kept);
    csc_start[b + 1] = kept;
  }
}

}  // namespace

void BuildComponentGraph(const GlobalProblem& problem, ComponentGraph* graph) {
  const int nc = problem.m() / 3;
  graph->num_components = ConnectedComponents(problem.M, &graph->component);
  const int num_components = graph->num_components;
  std::vector<std::pair<int, int>> pairs;  // (component, contact), by contact
  std::vector<int> last_contact(num_components, -1);
  graph->touch_start.assign(nc + 1, 0);
  for (int a = 0; a < nc; ++a) {
    for (int j = 3 * a; j < 3 * a + 3; ++j) {
      for (SparseMatrix::InnerIterator it(problem.H, j); it; ++it) {
        const int c = graph->component[it.row()];
        if (last_contact[c] != a) {
          last_contact[c] = a;
          pairs.emplace_back(c, a);
        }
      }
    }
    graph->touch_start[a + 1] = static_cast<int>(pairs.size());
  }
  graph->contact_components.resize(pairs.size());
  for (size_t k = 0; k < pairs.size(); ++k) {
    graph->contact_components[k] = pairs[k].first;
  }
  graph->contact_start.assign(num_components + 1, 0);
  for (const auto& [c, a] : pairs) ++graph->contact_start[c + 1];
  for (int c = 0; c < num_components; ++c) {
    graph->contact_start[c + 1] += graph->contact_start[c];
  }
  graph->component_contacts.resize(pairs.size());
  std::vector<int> next(graph->contact_start.begin(),
                        graph->contact_start.end() - 1);
  for (const auto& [c, a] : pairs) graph->component_contacts[next[c]++] = a;
  LayOutComponentDofs(graph);
}

void AssembleBlockCsr(std::vector<Contribution>* contributions,
                      int nc,
                      std::vector<int>* row_start_out,
                      std::vector<int>* block_column_out,
                      std::vector<Eigen::Matrix3d>* blocks_out,
                      std::vector<int>* diagonal_index_out) {
  std::vector<int> csc_start;
  std::vector<int> csc_row;
  std::vector<Eigen::Matrix3d> csc_blocks;
  SumIntoBlockCsc(*contributions, nc, &csc_start, &csc_row, &csc_blocks);
  std::vector<Contribution>().swap(*contributions);
  std::vector<int>& row_start = *row_start_out;
  std::vector<int>& block_column = *block_column_out;
  std::vector<Eigen::Matrix3d>& blocks = *blocks_out;
  std::vector<int>& diagonal_index = *diagonal_index_out;
  // Block-CSC -> block-CSR. Columns are visited in increasing order, so the
  // columns of each block row come out sorted.
  const int num_blocks = static_cast<int>(csc_row.size());
  row_start.assign(nc + 1, 0);
  for (int k = 0; k < num_blocks; ++k) ++row_start[csc_row[k] + 1];
  for (int a = 0; a < nc; ++a) row_start[a + 1] += row_start[a];
  block_column.resize(num_blocks);
  blocks.resize(num_blocks);
  diagonal_index.assign(nc, -1);
  std::vector<int> next(row_start.begin(), row_start.end() - 1);
  for (int b = 0; b < nc; ++b) {
    for (int k = csc_start[b]; k < csc_start[b + 1]; ++k) {
      const int a = csc_row[k];
      const int slot = next[a]++;
      block_column[slot] = b;
      blocks[slot] = csc_blocks[k];
      if (a == b) diagonal_index[a] = slot;
    }
  }
}

}  // namespace fcsn::internal
