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

AdjacencyGraph SymmetrizedGraph(const SparsityPattern& pattern) {
  const int n = pattern.n;
  AdjacencyGraph graph;
  // Degree upper bound of each vertex in J + J^T: its column entries plus its
  // row entries.
  std::vector<int> count(n + 1, 0);
  for (int j = 0; j < n; ++j) {
    for (int p = pattern.col_ptr[j]; p < pattern.col_ptr[j + 1]; ++p) {
      const int i = pattern.row_index[p];
      if (i == j) continue;
      ++count[i + 1];
      ++count[j + 1];
    }
  }
  std::vector<int> start(n + 1, 0);
  std::partial_sum(count.begin(), count.end(), start.begin());
  std::vector<int> neighbours(start[n]);
  std::vector<int> fill(start.begin(), start.end() - 1);
  for (int j = 0; j < n; ++j) {
    for (int p = pattern.col_ptr[j]; p < pattern.col_ptr[j + 1]; ++p) {
      const int i = pattern.row_index[p];
      if (i == j) continue;
      neighbours[fill[i]++] = j;
      neighbours[fill[j]++] = i;
    }
  }
  // Sort and deduplicate each list (a symmetric pair (i, j), (j, i) appears
  // twice).
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

double EstimatedReanalysisSeconds(const OrderingReport& report,
                                  double quotient_ordering_seconds,
                                  double symbolic_seconds) {
  const double edge_ratio = report.quotient_edges > 0
                                ? static_cast<double>(report.graph_edges) /
                                      static_cast<double>(report.quotient_edges)
                                : 1.0;
  return quotient_ordering_seconds * edge_ratio + symbolic_seconds;
}

bool ShouldReorderWithoutBlocks(double factorization_seconds,
                                double reanalysis_seconds) {
  return kBlockOrderingAssumedLoss * factorization_seconds >=
         reanalysis_seconds;
}

std::vector<int> UniformBlocks(int n, int size) {
  std::vector<int> starts;
  starts.reserve(n / size + 1);
  for (int i = 0; i < n; i += size) starts.push_back(i);
  return starts;
}

AdjacencyGraph QuotientGraph(const AdjacencyGraph& graph,
                             int n,
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
  const bool by_blocks =
      !quotient.adjacency.empty() &&
      kBlockOrderingMinEdgeRatio *
              static_cast<double>(quotient.adjacency.size()) <=
          static_cast<double>(graph->adjacency.size());
  if (report != nullptr) {
    report->by_blocks = by_blocks;
    report->graph_edges = static_cast<long long>(graph->adjacency.size());
    report->quotient_edges = static_cast<long long>(quotient.adjacency.size());
  }
  if (!by_blocks) {
    const int iterations =
        n >= kBlockOrderingMinSize ? kLargeGraphRefinementIterations : 0;
    return RunNodeNd(graph, n, nullptr, iterations, perm, iperm);
  }
  const int blocks = static_cast<int>(block_starts.size());
  std::vector<int> block_perm, block_iperm;
  const int code =
      RunNodeNd(&quotient, blocks, &weights, 0, &block_perm, &block_iperm);
  if (code != METIS_OK) return code;
  // The variables block by block, in the blocks' elimination order.
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
  AdjacencyGraph graph = SymmetrizedGraph(pattern);
  if (graph.adjacency.empty()) {
    // METIS needs at least one edge; any order is optimal for a diagonal
    // matrix.
    std::iota(perm->begin(), perm->end(), 0);
    std::iota(iperm->begin(), iperm->end(), 0);
    return Report(LinearSolverStatus::kSuccess, "", message);
  }
  const std::vector<int> no_blocks;
  const int code =
      NestedDissectionOrder(&graph,
                            n,
                            use_blocks ? pattern.block_starts : no_blocks,
                            perm,
                            iperm,
                            report);
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

}  // namespace fcsn::internal
