// METIS_NodeND wrapper; see ordering.h for the perm/iperm convention.
#include "linalg/ordering.h"

#include <metis.h>

#include <algorithm>
#include <limits>
#include <mutex>
#include <numeric>
#include <type_traits>

namespace fcsn::internal {

static_assert(std::is_same_v<idx_t, int>,
              "fcsn passes int arrays to METIS: it needs a METIS built with "
              "IDXTYPEWIDTH 32");

namespace {

// The graph on n vertices whose edges are the vertex pairs the enumerator
// hands to its callback, each pair stored both ways and every neighbour list
// sorted without duplicates. The enumerator runs twice: once to count the
// pairs per vertex, once to place them.
template <typename ForEachPair>
AdjacencyGraph UndirectedGraph(int n, const ForEachPair& for_each_pair) {
  std::vector<int> start(n + 1, 0);
  for_each_pair([&start](int a, int b) {
    ++start[a + 1];
    ++start[b + 1];
  });
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<int> neighbours(start[n]);
  std::vector<int> fill(start.begin(), start.end() - 1);
  for_each_pair([&](int a, int b) {
    neighbours[fill[a]++] = b;
    neighbours[fill[b]++] = a;
  });
  AdjacencyGraph graph;
  graph.offsets.assign(n + 1, 0);
  graph.adjacency.reserve(neighbours.size());
  for (int v = 0; v < n; ++v) {
    auto first = neighbours.begin() + start[v];
    auto last = neighbours.begin() + start[v + 1];
    std::sort(first, last);
    last = std::unique(first, last);
    graph.adjacency.insert(graph.adjacency.end(), first, last);
    graph.offsets[v + 1] = static_cast<int>(graph.adjacency.size());
  }
  return graph;
}

}  // namespace

AdjacencyGraph SymmetrizedGraph(const SparsityPattern& pattern) {
  // Every off-diagonal entry, both ways (a pair stored both ways appears
  // twice until the lists are deduplicated).
  return UndirectedGraph(pattern.n, [&pattern](const auto& add) {
    for (int j = 0; j < pattern.n; ++j) {
      for (int p = pattern.col_ptr[j]; p < pattern.col_ptr[j + 1]; ++p) {
        const int i = pattern.row_index[p];
        if (i != j) add(i, j);
      }
    }
  });
}

double EstimatedReanalysisFlops(const OrderingReport& report) {
  return kReanalysisFlopsPerEdge * static_cast<double>(report.graph_edges);
}

bool ShouldReorderWithoutBlocks(double factorization_flops,
                                double reanalysis_flops) {
  return kBlockOrderingAssumedLoss * factorization_flops >= reanalysis_flops;
}

std::vector<int> UniformBlocks(int n, int size) {
  std::vector<int> starts;
  starts.reserve(n / size + 1);
  for (int i = 0; i < n; i += size) starts.push_back(i);
  return starts;
}

namespace {

// The block of each of the n variables, and in *weights the block sizes.
std::vector<int> BlockOf(int n,
                         const std::vector<int>& block_starts,
                         std::vector<int>* weights) {
  const int blocks = static_cast<int>(block_starts.size());
  std::vector<int> block_of(n);
  weights->resize(blocks);
  for (int k = 0; k < blocks; ++k) {
    const int end = k + 1 < blocks ? block_starts[k + 1] : n;
    (*weights)[k] = end - block_starts[k];
    for (int i = block_starts[k]; i < end; ++i) block_of[i] = k;
  }
  return block_of;
}

// 2 |E| for the undirected edges E of J + J^T without the diagonal: every
// off-diagonal entry counts once, minus the pairs stored both ways. The
// mirror of a lower entry (i, j) is looked up in column i with one cursor per
// column, as columns j come in increasing order (rows sorted: CheckPattern).
long long SymmetrizedEdges(const SparsityPattern& pattern) {
  long long off_diagonal = 0, mirrored = 0;
  std::vector<int> cursor(pattern.col_ptr.begin(), pattern.col_ptr.end() - 1);
  for (int j = 0; j < pattern.n; ++j) {
    for (int p = pattern.col_ptr[j]; p < pattern.col_ptr[j + 1]; ++p) {
      const int i = pattern.row_index[p];
      if (i == j) continue;
      ++off_diagonal;
      if (i < j) continue;
      int& c = cursor[i];
      while (c < pattern.col_ptr[i + 1] && pattern.row_index[c] < j) ++c;
      if (c < pattern.col_ptr[i + 1] && pattern.row_index[c] == j) ++mirrored;
    }
  }
  return 2 * (off_diagonal - mirrored);
}

}  // namespace

AdjacencyGraph QuotientGraphOfPattern(const SparsityPattern& pattern,
                                      const std::vector<int>& block_starts,
                                      std::vector<int>* weights,
                                      long long* graph_edges) {
  const int blocks = static_cast<int>(block_starts.size());
  const std::vector<int> block_of = BlockOf(pattern.n, block_starts, weights);
  // The blocks met in each block's columns, each once (last_seen[l] == k).
  std::vector<int> column_start(blocks + 1, 0);
  std::vector<int> column_blocks;
  std::vector<int> last_seen(blocks, -1);
  for (int k = 0; k < blocks; ++k) {
    last_seen[k] = k;  // no self loop
    const int end = k + 1 < blocks ? block_starts[k + 1] : pattern.n;
    for (int j = block_starts[k]; j < end; ++j) {
      for (int p = pattern.col_ptr[j]; p < pattern.col_ptr[j + 1]; ++p) {
        const int l = block_of[pattern.row_index[p]];
        if (last_seen[l] == k) continue;
        last_seen[l] = k;
        column_blocks.push_back(l);
      }
    }
    column_start[k + 1] = static_cast<int>(column_blocks.size());
  }
  // Both directions of every block pair, sorted without duplicates.
  AdjacencyGraph quotient = UndirectedGraph(blocks, [&](const auto& add) {
    for (int k = 0; k < blocks; ++k) {
      for (int q = column_start[k]; q < column_start[k + 1]; ++q) {
        add(k, column_blocks[q]);
      }
    }
  });
  *graph_edges = SymmetrizedEdges(pattern);
  return quotient;
}

AdjacencyGraph QuotientGraph(const AdjacencyGraph& graph,
                             int n,
                             const std::vector<int>& block_starts,
                             std::vector<int>* weights) {
  const int blocks = static_cast<int>(block_starts.size());
  const std::vector<int> block_of = BlockOf(n, block_starts, weights);
  AdjacencyGraph quotient;
  quotient.offsets.assign(blocks + 1, 0);
  // last_seen[l] == k: block l is already a neighbour of block k.
  std::vector<int> last_seen(blocks, -1);
  for (int k = 0; k < blocks; ++k) {
    last_seen[k] = k;  // no self loop
    const int first = static_cast<int>(quotient.adjacency.size());
    const int end = k + 1 < blocks ? block_starts[k + 1] : n;
    for (int i = block_starts[k]; i < end; ++i) {
      for (int p = graph.offsets[i]; p < graph.offsets[i + 1]; ++p) {
        const int l = block_of[graph.adjacency[p]];
        if (last_seen[l] == k) continue;
        last_seen[l] = k;
        quotient.adjacency.push_back(l);
      }
    }
    std::sort(quotient.adjacency.begin() + first, quotient.adjacency.end());
    quotient.offsets[k + 1] = static_cast<int>(quotient.adjacency.size());
  }
  return quotient;
}

namespace {

// METIS 5.1 (GKlib's gk_sigtrap / gk_siguntrap) installs its own SIGABRT and
// SIGTERM handlers around each call and then restores the ones it found: two
// calls that overlap in time can leave its handlers installed for good (then
// a later signal jumps into a finished call). The handlers are one resource of
// the process, so every METIS call of the process takes this one lock, from
// whichever thread or Solver (tests/linalg/ordering_test.cc).
std::mutex& MetisCallLock() {
  static std::mutex lock;
  return lock;
}

// METIS_NodeND with default options (0-based), vertex weights optional.
// refinement_iterations: METIS_OPTION_NITER, 0 for METIS' default.
int RunNodeNd(AdjacencyGraph* graph,
              int n,
              std::vector<int>* weights,
              int refinement_iterations,
              std::vector<int>* perm,
              std::vector<int>* iperm) {
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_NUMBERING] = 0;  // C-style 0-based adjacency and output
  if (refinement_iterations > 0) {
    options[METIS_OPTION_NITER] = refinement_iterations;
  }
  idx_t nvtxs = n;
  perm->resize(n);
  iperm->resize(n);
  const std::lock_guard<std::mutex> guard(MetisCallLock());
  return METIS_NodeND(&nvtxs,
                      graph->offsets.data(),
                      graph->adjacency.data(),
                      weights != nullptr ? weights->data() : nullptr,
                      options,
                      perm->data(),
                      iperm->data());
}

// The block ordering applies: blocks that group neighbours, i.e. a quotient
// with at most 1 / kBlockOrderingMinEdgeRatio of the variables' edges.
bool BlocksPay(long long quotient_edges, long long graph_edges) {
  return quotient_edges > 0 &&
         kBlockOrderingMinEdgeRatio * static_cast<double>(quotient_edges) <=
             static_cast<double>(graph_edges);
}

// METIS on the quotient, then the variables block by block in the blocks'
// elimination order.
int OrderByBlocks(AdjacencyGraph* quotient,
                  std::vector<int>* weights,
                  const std::vector<int>& block_starts,
                  int n,
                  std::vector<int>* perm,
                  std::vector<int>* iperm) {
  const int blocks = static_cast<int>(block_starts.size());
  std::vector<int> block_perm, block_iperm;
  const int code = RunNodeNd(quotient,
                             blocks,
                             weights,
                             kLargeGraphRefinementIterations,
                             &block_perm,
                             &block_iperm);
  if (code != METIS_OK) return code;
  perm->resize(n);
  iperm->resize(n);
  int position = 0;
  for (int b = 0; b < blocks; ++b) {
    const int k = block_perm[b];
    const int end = k + 1 < blocks ? block_starts[k + 1] : n;
    for (int i = block_starts[k]; i < end; ++i) {
      (*perm)[position] = i;
      (*iperm)[i] = position++;
    }
  }
  return METIS_OK;
}

void Fill(OrderingReport* report,
          bool by_blocks,
          long long graph_edges,
          long long quotient_edges) {
  if (report == nullptr) return;
  report->by_blocks = by_blocks;
  report->graph_edges = graph_edges;
  report->quotient_edges = quotient_edges;
}

// METIS' return code as a status and message.
LinearSolverStatus MetisStatus(int code, int n, std::string* message) {
  using linalg_detail::Report;
  switch (code) {
    case METIS_OK:
      return Report(LinearSolverStatus::kSuccess, "", message);
    case METIS_ERROR_MEMORY:
      return Report(
          LinearSolverStatus::kOutOfMemory,
          "METIS_NodeND ran out of memory (n = " + std::to_string(n) + ")",
          message);
    case METIS_ERROR_INPUT:
      return Report(LinearSolverStatus::kFailure,
                    "METIS_NodeND rejected its input graph (METIS_ERROR_INPUT)",
                    message);
    default:
      return Report(LinearSolverStatus::kFailure,
                    "METIS_NodeND failed with code " + std::to_string(code),
                    message);
  }
}

}  // namespace

int NestedDissectionOrder(AdjacencyGraph* graph,
                          int n,
                          const std::vector<int>& block_starts,
                          std::vector<int>* perm,
                          std::vector<int>* iperm,
                          OrderingReport* report) {
  AdjacencyGraph quotient;
  std::vector<int> weights;
  if (n >= kBlockOrderingMinSize && !block_starts.empty()) {
    quotient = QuotientGraph(*graph, n, block_starts, &weights);
  }
  const long long graph_edges = static_cast<long long>(graph->adjacency.size());
  const long long quotient_edges =
      static_cast<long long>(quotient.adjacency.size());
  const bool by_blocks = BlocksPay(quotient_edges, graph_edges);
  Fill(report, by_blocks, graph_edges, quotient_edges);
  if (!by_blocks) {
    const int iterations =
        n >= kBlockOrderingMinSize ? kLargeGraphRefinementIterations : 0;
    return RunNodeNd(graph, n, nullptr, iterations, perm, iperm);
  }
  return OrderByBlocks(&quotient, &weights, block_starts, n, perm, iperm);
}

LinearSolverStatus ComputeMetisOrdering(const SparsityPattern& pattern,
                                        std::vector<int>* perm,
                                        std::vector<int>* iperm,
                                        std::string* message,
                                        OrderingReport* report,
                                        bool use_blocks) {
  using linalg_detail::Report;
  if (report != nullptr) *report = OrderingReport();
  if (std::string why = CheckPattern(pattern); !why.empty()) {
    return Report(LinearSolverStatus::kInvalidInput, why, message);
  }
  // The symmetrized graph stores up to 2 nnz int indices.
  if (pattern.nnz() > std::numeric_limits<int>::max() / 2) {
    return Report(LinearSolverStatus::kInvalidInput,
                  "the pattern has " + std::to_string(pattern.nnz()) +
                      " entries; the symmetrized graph would overflow METIS' "
                      "32-bit indices",
                  message);
  }
  const int n = pattern.n;
  perm->resize(n);
  iperm->resize(n);
  const std::vector<int> no_blocks;
  const std::vector<int>& blocks =
      use_blocks ? pattern.block_starts : no_blocks;
  // Large and blocked: the quotient straight from the pattern; the variables'
  // graph only when the blocks do not pay.
  if (n >= kBlockOrderingMinSize && !blocks.empty()) {
    std::vector<int> weights;
    long long graph_edges = 0;
    AdjacencyGraph quotient =
        QuotientGraphOfPattern(pattern, blocks, &weights, &graph_edges);
    const long long quotient_edges =
        static_cast<long long>(quotient.adjacency.size());
    if (graph_edges > 0 && BlocksPay(quotient_edges, graph_edges)) {
      Fill(report, true, graph_edges, quotient_edges);
      return MetisStatus(
          OrderByBlocks(&quotient, &weights, blocks, n, perm, iperm),
          n,
          message);
    }
  }
  AdjacencyGraph graph = SymmetrizedGraph(pattern);
  if (graph.adjacency.empty()) {
    // METIS needs at least one edge; any order is optimal for a diagonal
    // matrix.
    std::iota(perm->begin(), perm->end(), 0);
    std::iota(iperm->begin(), iperm->end(), 0);
    return Report(LinearSolverStatus::kSuccess, "", message);
  }
  const int code =
      NestedDissectionOrder(&graph, n, blocks, perm, iperm, report);
  return MetisStatus(code, n, message);
}

}  // namespace fcsn::internal
