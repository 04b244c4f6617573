// The adaptive block ordering of MumpsSolver (linalg/ordering.h): a large
// pattern with block_starts is analysed by blocks first, and analysed again
// on its variables' graph inside a later Factorize() once the factorizations
// have cost enough flops (a count: the same factorization in every run); the
// re-analysis is counted and timed as an analysis, the
// solutions stay exact, and small patterns and given orderings never change.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "linalg/mumps_solver.h"
#include "linalg/ordering.h"
#include "test_matrices.h"

namespace fcsn::internal {
namespace {

using ::fcsn::testing::BackwardError;
using ::fcsn::testing::FromTriplets;
using ::fcsn::testing::GridStencil7;
using ::fcsn::testing::TestSystem;
using ::fcsn::testing::ToEigen;

// 3 dofs per node of a k x k x k grid, each coupled to the 3 dofs of its
// node and of its 6 grid neighbours, node-major (blocks of 3 group
// neighbours), with diagonally dominant unsymmetric values: a large pattern
// whose factorizations have many flops per edge of its graph (3D nested
// dissection), so that the rule's switch comes after a few dozen of them.
TestSystem VectorGrid3D(int k) {
  std::vector<std::tuple<int, int, double>> triplets;
  for (int z = 0; z < k; ++z) {
    for (int y = 0; y < k; ++y) {
      for (int x = 0; x < k; ++x) {
        const std::vector<int> near = GridStencil7(k, x, y, z);
        const int a = near.front();
        for (int b : near) {
          for (int p = 0; p < 3; ++p) {
            for (int q = 0; q < 3; ++q) {
              const double value = a == b ? (p == q ? 30.0 : 0.5)
                                          : -0.5 - 0.1 * ((p + 2 * q) % 3);
              triplets.emplace_back(3 * a + p, 3 * b + q, value);
            }
          }
        }
      }
    }
  }
  TestSystem system = FromTriplets(3 * k * k * k, triplets);
  system.pattern.block_starts = UniformBlocks(system.pattern.n, 3);
  return system;
}

constexpr int kGridSide = 19;  // n = 20,577 >= kBlockOrderingMinSize

std::unique_ptr<MumpsSolver> MakeMumps() {
  LinearSolverOptions options;  // METIS, precision auto
  options.adaptive_block_ordering = true;
  std::string message;
  auto solver = MumpsSolver::Create(options, &message);
  EXPECT_NE(solver, nullptr) << message;
  return solver;
}

// Factorizes and solves J x = b once; the backward error of x.
double FactorizeAndSolve(const TestSystem& system, MumpsSolver* solver) {
  std::string message;
  EXPECT_EQ(solver->Factorize(system.values.data(), &message),
            LinearSolverStatus::kSuccess)
      << message;
  const Eigen::VectorXd b =
      Eigen::VectorXd::LinSpaced(system.pattern.n, 1.0, 2.0);
  Eigen::VectorXd x = b;
  EXPECT_EQ(solver->Solve(&x, &message), LinearSolverStatus::kSuccess)
      << message;
  return BackwardError(ToEigen(system.pattern, system.values), x, b);
}

// Factorizes `count` times.
void Factorize(const TestSystem& system, int count, MumpsSolver* solver) {
  std::string message;
  for (int k = 0; k < count; ++k) {
    ASSERT_EQ(solver->Factorize(system.values.data(), &message),
              LinearSolverStatus::kSuccess)
        << message;
  }
}

// Factorizes until the adaptive rule re-analyses (or `max_count` times), and
// checks that it does so exactly at the first factorization where
// kBlockOrderingAssumedLoss times the flops factorized since the analysis
// (`flops` before the call, then MUMPS' count of each factorization) reach
// its estimate R: a count, whatever the factorizations' times. Returns the
// factorizations done.
int FactorizeUntilReanalysis(const TestSystem& system,
                             int max_count,
                             MumpsSolver* solver,
                             double flops = 0.0) {
  const double estimate = solver->stats().reanalysis_estimate_flops;
  const int reanalyses = solver->stats().reanalyses;
  std::string message;
  for (int k = 1; k <= max_count; ++k) {
    const bool due = kBlockOrderingAssumedLoss * flops >= estimate;
    EXPECT_EQ(solver->Factorize(system.values.data(), &message),
              LinearSolverStatus::kSuccess)
        << message;
    EXPECT_EQ(solver->stats().reanalyses, reanalyses + (due ? 1 : 0)) << k;
    if (due) return k;
    flops += solver->stats().last_factorization_flops;
  }
  return max_count;
}

TEST(AdaptiveBlockOrdering, LargePatternStartsByBlocksThenReordersOnce) {
  const TestSystem system = VectorGrid3D(kGridSide);
  ASSERT_GE(system.pattern.n, kBlockOrderingMinSize);
  auto solver = MakeMumps();
  std::string message;
  ASSERT_EQ(solver->Analyze(system.pattern, &message),
            LinearSolverStatus::kSuccess)
      << message;
  const LinearSolverStats& stats = solver->stats();
  EXPECT_EQ(stats.ordering_used, "metis-blocks");
  // R: proportional to the edges of the variables' graph.
  std::vector<int> perm, iperm;
  OrderingReport report;
  ASSERT_EQ(
      ComputeMetisOrdering(system.pattern, &perm, &iperm, nullptr, &report),
      LinearSolverStatus::kSuccess);
  ASSERT_TRUE(report.by_blocks);
  EXPECT_GT(report.graph_edges, report.quotient_edges);
  EXPECT_DOUBLE_EQ(stats.reanalysis_estimate_flops,
                   kReanalysisFlopsPerEdge * report.graph_edges);
  // The first factorization has no cost yet to outweigh the re-analysis.
  EXPECT_LT(FactorizeAndSolve(system, solver.get()), 1e-12);
  EXPECT_EQ(stats.reanalyses, 0);
  const int count = FactorizeUntilReanalysis(
      system, 2000, solver.get(), stats.last_factorization_flops);
  RecordProperty("factorizations_until_reanalysis", std::to_string(count));
  ASSERT_EQ(stats.reanalyses, 1);
  EXPECT_EQ(stats.ordering_used, "metis");
  EXPECT_EQ(stats.reanalysis_estimate_flops, 0.0);
  EXPECT_EQ(stats.analyses, 2);
  EXPECT_GT(stats.reanalysis_seconds, 0.0);
  EXPECT_LE(stats.reanalysis_seconds, stats.analysis_seconds);
  EXPECT_LT(FactorizeAndSolve(system, solver.get()), 1e-12);
  // Once on the variables' graph, the analysis stays.
  Factorize(system, 5, solver.get());
  EXPECT_EQ(stats.reanalyses, 1);
  EXPECT_EQ(stats.analyses, 2);
}

TEST(AdaptiveBlockOrdering, NewAnalysisStartsByBlocksAgain) {
  const TestSystem system = VectorGrid3D(kGridSide);
  auto solver = MakeMumps();
  std::string message;
  ASSERT_EQ(solver->Analyze(system.pattern, &message),
            LinearSolverStatus::kSuccess);
  FactorizeUntilReanalysis(system, 2000, solver.get());
  ASSERT_EQ(solver->stats().ordering_used, "metis");
  // The rule counts the factorizations of the new analysis only.
  ASSERT_EQ(solver->Analyze(system.pattern, &message),
            LinearSolverStatus::kSuccess);
  EXPECT_EQ(solver->stats().ordering_used, "metis-blocks");
  EXPECT_EQ(solver->stats().analyses, 3);
  EXPECT_LT(FactorizeAndSolve(system, solver.get()), 1e-12);
  EXPECT_EQ(solver->stats().reanalyses, 1);
}

TEST(AdaptiveBlockOrdering, SmallPatternNeverUsesTheBlocks) {
  const TestSystem system = VectorGrid3D(13);  // n = 6591
  ASSERT_LT(system.pattern.n, kBlockOrderingMinSize);
  auto solver = MakeMumps();
  std::string message;
  ASSERT_EQ(solver->Analyze(system.pattern, &message),
            LinearSolverStatus::kSuccess);
  EXPECT_EQ(solver->stats().ordering_used, "metis");
  EXPECT_EQ(solver->stats().reanalysis_estimate_flops, 0.0);
  Factorize(system, 20, solver.get());
  EXPECT_EQ(solver->stats().reanalyses, 0);
  EXPECT_EQ(solver->stats().analyses, 1);
}

TEST(AdaptiveBlockOrdering, OffByDefault) {
  const TestSystem system = VectorGrid3D(kGridSide);
  LinearSolverOptions options;
  EXPECT_FALSE(options.adaptive_block_ordering);
  std::string message;
  auto solver = MumpsSolver::Create(options, &message);
  ASSERT_NE(solver, nullptr) << message;
  ASSERT_EQ(solver->Analyze(system.pattern, &message),
            LinearSolverStatus::kSuccess);
  EXPECT_EQ(solver->stats().ordering_used, "metis");
  EXPECT_EQ(solver->stats().reanalysis_estimate_flops, 0.0);
  // The ordering of the pattern without blocks.
  std::vector<int> perm, iperm;
  SparsityPattern plain = system.pattern;
  plain.block_starts.clear();
  ASSERT_EQ(ComputeMetisOrdering(plain, &perm, &iperm, nullptr),
            LinearSolverStatus::kSuccess);
  auto given = MakeMumps();
  ASSERT_EQ(given->AnalyzeWithOrdering(plain, iperm, &message),
            LinearSolverStatus::kSuccess);
  EXPECT_EQ(solver->stats().estimated_flops, given->stats().estimated_flops);
  Factorize(system, 3, solver.get());
  EXPECT_EQ(solver->stats().reanalyses, 0);
}

// SparsityPattern::blocks_first asks for the blocks with the option off (the
// Solver's analysis before J's early factorization), and the adaptive rule
// then applies as with the option on.
TEST(AdaptiveBlockOrdering, BlocksFirstPatternUsesThemWithTheOptionOff) {
  TestSystem system = VectorGrid3D(kGridSide);
  system.pattern.blocks_first = true;
  LinearSolverOptions options;
  std::string message;
  auto solver = MumpsSolver::Create(options, &message);
  ASSERT_NE(solver, nullptr) << message;
  ASSERT_EQ(solver->Analyze(system.pattern, &message),
            LinearSolverStatus::kSuccess);
  EXPECT_EQ(solver->stats().ordering_used, "metis-blocks");
  EXPECT_GT(solver->stats().reanalysis_estimate_flops, 0.0);
  FactorizeUntilReanalysis(system, 2000, solver.get());
  EXPECT_EQ(solver->stats().reanalyses, 1);
  EXPECT_EQ(solver->stats().ordering_used, "metis");
}

TEST(AdaptiveBlockOrdering, GivenOrderingIsNeverReplaced) {
  const TestSystem system = VectorGrid3D(kGridSide);
  std::vector<int> perm, iperm;
  ASSERT_EQ(ComputeMetisOrdering(system.pattern, &perm, &iperm, nullptr),
            LinearSolverStatus::kSuccess);
  auto solver = MakeMumps();
  std::string message;
  ASSERT_EQ(solver->AnalyzeWithOrdering(system.pattern, iperm, &message),
            LinearSolverStatus::kSuccess);
  EXPECT_EQ(solver->stats().ordering_used, "user");
  EXPECT_EQ(solver->stats().reanalysis_estimate_flops, 0.0);
  Factorize(system, 5, solver.get());
  EXPECT_EQ(solver->stats().reanalyses, 0);
}

}  // namespace
}  // namespace fcsn::internal
