// METIS ordering: graph symmetrization, the perm/iperm convention, and the
// PERM_IN mapping it feeds to MUMPS (formulations.md §4.4).
#include "linalg/ordering.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

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

}  // namespace
}  // namespace fcsn::internal
