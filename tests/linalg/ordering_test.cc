// METIS ordering: graph symmetrization, the perm/iperm convention, and the
// PERM_IN mapping it feeds to MUMPS (formulations.md §4.4).
#include "linalg/ordering.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <numeric>
#include <random>
#include <thread>

#include "test_matrices.h"

namespace fcsn::internal {
namespace {

using ::fcsn::testing::Arrowhead;
using ::fcsn::testing::FromTriplets;
using ::fcsn::testing::Laplacian3D;
using ::fcsn::testing::RandomUnsymmetric;

TEST(SymmetrizedGraph, IsThePatternOfJPlusJTransposeWithoutDiagonal) {
  // J = [x x . ; . x . ; x x x]: edges {0,1} (from J01), {0,2} (J20), {1,2}
  // (J21).
  const auto system = FromTriplets(3,
                                   {{0, 0, 1},
                                    {0, 1, 1},
                                    {1, 1, 1},
                                    {2, 0, 1},
                                    {2, 1, 1},
                                    {2, 2, 1},
                                    {1, 0, 0}});
  const AdjacencyGraph graph = SymmetrizedGraph(system.pattern);
  EXPECT_EQ(graph.offsets, (std::vector<int>{0, 2, 4, 6}));
  EXPECT_EQ(graph.adjacency, (std::vector<int>{1, 2, 0, 2, 0, 1}));
}

TEST(MetisOrdering, PermAndIpermAreInversePermutations) {
  const auto system = RandomUnsymmetric(500, 3, 0.3, 9);
  std::vector<int> perm, iperm;
  std::string message;
  ASSERT_EQ(ComputeMetisOrdering(system.pattern, &perm, &iperm, &message),
            LinearSolverStatus::kSuccess)
      << message;
  ASSERT_EQ(perm.size(), 500u);
  for (int i = 0; i < 500; ++i) EXPECT_EQ(perm[iperm[i]], i);
  std::vector<int> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> identity(500);
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_EQ(sorted, identity);
}

TEST(MetisOrdering, IpermIsThePositionOfEachVariable) {
  // In a star graph the hub (variable 0) is a separator: nested dissection (and
  // minimum degree, which METIS uses on small graphs) eliminates it last or, on
  // a tie with the last leaf, one before last. So iperm[0], the position of
  // variable 0, is n - 1 or n - 2; perm names the variable at each position.
  constexpr int kN = 200;
  std::vector<int> perm, iperm;
  ASSERT_EQ(ComputeMetisOrdering(Arrowhead(kN).pattern, &perm, &iperm, nullptr),
            LinearSolverStatus::kSuccess);
  EXPECT_GE(iperm[0], kN - 2);
  EXPECT_EQ(perm[iperm[0]], 0);
}

TEST(MetisOrdering, EdgelessGraphGetsTheIdentity) {
  const auto diagonal =
      FromTriplets(4, {{0, 0, 1}, {1, 1, 1}, {2, 2, 1}, {3, 3, 1}});
  std::vector<int> perm, iperm;
  ASSERT_EQ(ComputeMetisOrdering(diagonal.pattern, &perm, &iperm, nullptr),
            LinearSolverStatus::kSuccess);
  EXPECT_EQ(perm, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(iperm, (std::vector<int>{0, 1, 2, 3}));
}

TEST(MetisOrdering, RejectsAnInvalidPattern) {
  auto system = Laplacian3D(3);
  system.pattern.row_index[2] = 99;
  std::vector<int> perm, iperm;
  std::string message;
  EXPECT_EQ(ComputeMetisOrdering(system.pattern, &perm, &iperm, &message),
            LinearSolverStatus::kInvalidInput);
  EXPECT_FALSE(message.empty());
}

// Pattern of a vector Laplacian-like operator on a k x k x k grid with 3 dofs
// per node: every dof is coupled to the 3 dofs of its node and of its 6 grid
// neighbours. Node-major numbering (dof 3 node + c): with blocks of 3 the
// quotient is the grid graph; component-major (dof c nodes + node): blocks
// of 3 consecutive dofs hold one component of 3 nodes along x.
SparsityPattern VectorGrid(int k, bool component_major = false) {
  const int nodes = k * k * k;
  SparsityPattern pattern;
  pattern.n = 3 * nodes;
  pattern.col_ptr.assign(1, 0);
  auto dof = [nodes, component_major](int node, int c) {
    return component_major ? c * nodes + node : 3 * node + c;
  };
  std::vector<std::vector<int>> columns(pattern.n);
  for (int z = 0; z < k; ++z) {
    for (int y = 0; y < k; ++y) {
      for (int x = 0; x < k; ++x) {
        std::vector<int> near = testing::GridStencil7(k, x, y, z);
        const int self = near.front();
        std::sort(near.begin(), near.end());
        for (int c = 0; c < 3; ++c) {
          std::vector<int>& column = columns[dof(self, c)];
          for (int node : near) {
            for (int d = 0; d < 3; ++d) column.push_back(dof(node, d));
          }
          std::sort(column.begin(), column.end());
        }
      }
    }
  }
  for (const std::vector<int>& column : columns) {
    pattern.row_index.insert(
        pattern.row_index.end(), column.begin(), column.end());
    pattern.col_ptr.push_back(static_cast<int>(pattern.row_index.size()));
  }
  return pattern;
}

void IgnoreSignal(int) {}

// METIS 5.1 installs its own SIGABRT and SIGTERM handlers around each call
// and then restores the ones it found: two overlapping calls could leave its
// handlers installed. Every call takes one process-wide lock, so orderings
// computed concurrently (the Solver's two setup threads, or two Solvers in two
// threads) leave the caller's handlers in place.
TEST(MetisOrdering, ConcurrentCallsLeaveTheSignalHandlersAlone) {
  struct sigaction mine = {}, old_abort = {}, old_terminate = {};
  mine.sa_handler = IgnoreSignal;
  sigemptyset(&mine.sa_mask);
  ASSERT_EQ(sigaction(SIGABRT, &mine, &old_abort), 0);
  ASSERT_EQ(sigaction(SIGTERM, &mine, &old_terminate), 0);
  const auto system = Laplacian3D(6);
  auto order = [&system] {
    std::vector<int> perm, iperm;
    for (int k = 0; k < 200; ++k) {
      ComputeMetisOrdering(system.pattern, &perm, &iperm, nullptr);
    }
  };
  std::thread first(order), second(order);
  first.join();
  second.join();
  struct sigaction abort_now = {}, terminate_now = {};
  sigaction(SIGABRT, &old_abort, &abort_now);
  sigaction(SIGTERM, &old_terminate, &terminate_now);
  EXPECT_EQ(abort_now.sa_handler, &IgnoreSignal);
  EXPECT_EQ(terminate_now.sa_handler, &IgnoreSignal);
}

TEST(UniformBlocks, StartsEverySizeVariablesWithAShorterLastBlock) {
  EXPECT_EQ(UniformBlocks(7, 3), (std::vector<int>{0, 3, 6}));
  EXPECT_EQ(UniformBlocks(6, 3), (std::vector<int>{0, 3}));
  EXPECT_TRUE(UniformBlocks(0, 3).empty());
}

TEST(QuotientGraph, HasOneVertexPerBlockAndTheBlockSizesAsWeights) {
  // Path 0-1-2-3-4 in blocks {0, 1}, {2}, {3, 4}: the quotient is the path
  // 0-1-2 (the edge inside a block disappears).
  const auto path = FromTriplets(
      5, {{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {3, 4, 1}, {0, 0, 1}, {4, 4, 1}});
  const AdjacencyGraph graph = SymmetrizedGraph(path.pattern);
  std::vector<int> weights;
  const AdjacencyGraph quotient =
      QuotientGraph(graph, 5, std::vector<int>{0, 2, 3}, &weights);
  EXPECT_EQ(quotient.offsets, (std::vector<int>{0, 1, 3, 4}));
  EXPECT_EQ(quotient.adjacency, (std::vector<int>{1, 0, 2, 1}));
  EXPECT_EQ(weights, (std::vector<int>{2, 1, 2}));
}

// QuotientGraphOfPattern is QuotientGraph of the symmetrized graph, built
// without it, and counts that graph's edges: random patterns stored one way,
// both ways or mixed, blocks of 1-4 variables, and blocks that do not group
// neighbours.
TEST(QuotientGraph, OfThePatternIsTheQuotientOfTheSymmetrizedGraph) {
  std::mt19937 random(11);
  for (int trial = 0; trial < 30; ++trial) {
    const int n = 2 + 5 * trial;
    std::bernoulli_distribution stored(0.05 + 0.03 * (trial % 10));
    std::bernoulli_distribution symmetric(trial % 3 == 0 ? 1.0 : 0.5);
    std::vector<std::vector<int>> columns(n);
    for (int j = 0; j < n; ++j) {
      if (trial % 2 == 0) columns[j].push_back(j);  // with or without diagonal
      for (int i = 0; i < j; ++i) {
        if (!stored(random)) continue;
        columns[j].push_back(i);
        if (symmetric(random)) columns[i].push_back(j);
      }
    }
    SparsityPattern pattern;
    pattern.n = n;
    pattern.col_ptr.push_back(0);
    for (std::vector<int>& column : columns) {
      std::sort(column.begin(), column.end());
      pattern.row_index.insert(
          pattern.row_index.end(), column.begin(), column.end());
      pattern.col_ptr.push_back(static_cast<int>(pattern.row_index.size()));
    }
    std::vector<int> blocks;
    std::uniform_int_distribution<int> size(1, 4);
    for (int i = 0; i < n; i += size(random)) blocks.push_back(i);
    const AdjacencyGraph graph = SymmetrizedGraph(pattern);
    std::vector<int> want_weights, weights;
    const AdjacencyGraph want = QuotientGraph(graph, n, blocks, &want_weights);
    long long graph_edges = -1;
    const AdjacencyGraph got =
        QuotientGraphOfPattern(pattern, blocks, &weights, &graph_edges);
    EXPECT_EQ(got.offsets, want.offsets) << trial;
    EXPECT_EQ(got.adjacency, want.adjacency) << trial;
    EXPECT_EQ(weights, want_weights) << trial;
    EXPECT_EQ(graph_edges, static_cast<long long>(graph.adjacency.size()))
        << trial;
  }
}

TEST(BlockOrdering, KeepsEachBlockContiguousOnALargePattern) {
  SparsityPattern pattern = VectorGrid(19);  // n = 20,577
  ASSERT_GE(pattern.n, kBlockOrderingMinSize);
  pattern.block_starts = UniformBlocks(pattern.n, 3);
  std::vector<int> perm, iperm;
  ASSERT_EQ(ComputeMetisOrdering(pattern, &perm, &iperm, nullptr),
            LinearSolverStatus::kSuccess);
  for (int i = 0; i < pattern.n; ++i) ASSERT_EQ(perm[iperm[i]], i);
  for (int block = 0; block < pattern.n / 3; ++block) {
    const int first = iperm[3 * block];
    EXPECT_EQ(first % 3, 0) << "block " << block;
    EXPECT_EQ(iperm[3 * block + 1], first + 1) << "block " << block;
    EXPECT_EQ(iperm[3 * block + 2], first + 2) << "block " << block;
  }
}

TEST(BlockOrdering, IgnoresTheBlocksBelowTheSizeThreshold) {
  SparsityPattern pattern = VectorGrid(10);  // n = 3000
  std::vector<int> plain_perm, plain_iperm, perm, iperm;
  ASSERT_EQ(ComputeMetisOrdering(pattern, &plain_perm, &plain_iperm, nullptr),
            LinearSolverStatus::kSuccess);
  pattern.block_starts = UniformBlocks(pattern.n, 3);
  ASSERT_EQ(ComputeMetisOrdering(pattern, &perm, &iperm, nullptr),
            LinearSolverStatus::kSuccess);
  EXPECT_EQ(perm, plain_perm);
}

TEST(BlockOrdering, IgnoresBlocksThatDoNotGroupNeighbours) {
  // Blocks of 3 consecutive dofs of a component-major numbering: the quotient
  // keeps too many edges.
  SparsityPattern pattern = VectorGrid(19, /*component_major=*/true);
  std::vector<int> plain_perm, plain_iperm, perm, iperm;
  ASSERT_EQ(ComputeMetisOrdering(pattern, &plain_perm, &plain_iperm, nullptr),
            LinearSolverStatus::kSuccess);
  pattern.block_starts = UniformBlocks(pattern.n, 3);
  std::vector<int> weights;
  const AdjacencyGraph graph = SymmetrizedGraph(pattern);
  const AdjacencyGraph quotient =
      QuotientGraph(graph, pattern.n, pattern.block_starts, &weights);
  ASSERT_GT(kBlockOrderingMinEdgeRatio * quotient.adjacency.size(),
            graph.adjacency.size());
  ASSERT_EQ(ComputeMetisOrdering(pattern, &perm, &iperm, nullptr),
            LinearSolverStatus::kSuccess);
  EXPECT_EQ(perm, plain_perm);
}

TEST(BlockOrdering, ReportsWhetherTheBlocksWereUsedAndTheEdges) {
  SparsityPattern pattern = VectorGrid(19);
  pattern.block_starts = UniformBlocks(pattern.n, 3);
  std::vector<int> perm, iperm;
  OrderingReport report;
  ASSERT_EQ(ComputeMetisOrdering(pattern, &perm, &iperm, nullptr, &report),
            LinearSolverStatus::kSuccess);
  EXPECT_TRUE(report.by_blocks);
  EXPECT_EQ(report.graph_edges,
            static_cast<long long>(SymmetrizedGraph(pattern).adjacency.size()));
  // Node blocks of a 7-point grid: the quotient is the grid graph itself, 6
  // neighbours per interior node against 3 * 20 per interior node's dofs.
  EXPECT_GT(report.quotient_edges, 0);
  EXPECT_LT(kBlockOrderingMinEdgeRatio * report.quotient_edges,
            report.graph_edges);
  pattern.block_starts.clear();
  ASSERT_EQ(ComputeMetisOrdering(pattern, &perm, &iperm, nullptr, &report),
            LinearSolverStatus::kSuccess);
  EXPECT_FALSE(report.by_blocks);
  EXPECT_EQ(report.quotient_edges, 0);
  SparsityPattern small = VectorGrid(10);
  small.block_starts = UniformBlocks(small.n, 3);
  ASSERT_EQ(ComputeMetisOrdering(small, &perm, &iperm, nullptr, &report),
            LinearSolverStatus::kSuccess);
  EXPECT_FALSE(report.by_blocks);
}

TEST(AdaptiveBlockOrderingRule, ReordersAtTheBreakEvenOfTheAssumedLoss) {
  const double reanalysis = 4e10;  // flops
  const double break_even = reanalysis / kBlockOrderingAssumedLoss;
  EXPECT_FALSE(ShouldReorderWithoutBlocks(0.0, reanalysis));
  EXPECT_FALSE(ShouldReorderWithoutBlocks(0.99 * break_even, reanalysis));
  EXPECT_TRUE(ShouldReorderWithoutBlocks(break_even, reanalysis));
  EXPECT_TRUE(ShouldReorderWithoutBlocks(10 * break_even, reanalysis));
}

TEST(AdaptiveBlockOrderingRule, EstimateIsProportionalToTheGraphsEdges) {
  OrderingReport report;
  report.by_blocks = true;
  report.graph_edges = 600;
  report.quotient_edges = 100;
  EXPECT_DOUBLE_EQ(EstimatedReanalysisFlops(report),
                   600 * kReanalysisFlopsPerEdge);
  report.graph_edges = 1200;
  EXPECT_DOUBLE_EQ(EstimatedReanalysisFlops(report),
                   1200 * kReanalysisFlopsPerEdge);
}

TEST(BlockOrdering, RejectsInvalidBlockStarts) {
  SparsityPattern pattern = VectorGrid(3);
  std::vector<int> perm, iperm;
  std::string message;
  for (const std::vector<int>& starts : {std::vector<int>{1, 3},
                                         std::vector<int>{0, 3, 3},
                                         std::vector<int>{0, pattern.n}}) {
    pattern.block_starts = starts;
    EXPECT_EQ(ComputeMetisOrdering(pattern, &perm, &iperm, &message),
              LinearSolverStatus::kInvalidInput);
    EXPECT_NE(message.find("block_starts"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace fcsn::internal
