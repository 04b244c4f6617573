// Tests of MFactorization::DiagonalBlocks' batched elimination-tree solves
// (linalg/m_factorization.h): W_aa = H_a^T M^-1 H_a of a batch of contacts
// share one pass over the union of their reaches, which must give every block
// the bits of the one-contact solve (batch 1) whatever the batch size and the
// grouping, and agree with W_aa formed from full solves M^-1 H_a. On the
// shared problems, a lattice (contacts sharing bodies), a lattice large enough
// for nested dissection (linalg/fill_ordering.h) and a problem whose contacts
// share dofs exactly (duplicated columns of H).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "fcsn/fclib_io.h"
#include "linalg/fill_ordering.h"
#include "linalg/m_factorization.h"
#include "shared_problem.h"
#include "test_problems.h"
#include "test_util.h"

namespace fcsn::internal {
namespace {

// Full solves against the elimination-tree reach: the same factors, other
// operation order; a few hundred ulps of the largest block.
constexpr double kSolveAgreement = 1e-12;

// W_aa = H_a^T (M^-1 H_a) from full solves with the same factorization (the
// reference way: dense right-hand sides, no reach), symmetrized.
// Every stride-th contact only (the others are left zero).
std::vector<Eigen::Matrix3d> BlocksBySolves(const MFactorization& factors,
                                            const SparseMatrix& H,
                                            int stride) {
  std::vector<Eigen::Matrix3d> blocks(H.cols() / 3, Eigen::Matrix3d::Zero());
  for (int a = 0; a < static_cast<int>(blocks.size()); a += stride) {
    const Eigen::MatrixXd Ha = Eigen::MatrixXd(H.middleCols(3 * a, 3));
    Eigen::MatrixXd X;
    EXPECT_TRUE(factors.Solve(Ha, &X));
    const Eigen::Matrix3d w = Ha.transpose() * X;
    blocks[a] = 0.5 * (w + w.transpose());
  }
  return blocks;
}

bool SameBits(const Eigen::Matrix3d& a, const Eigen::Matrix3d& b) {
  return std::memcmp(a.data(), b.data(), sizeof(double) * 9) == 0;
}

// Every batch size gives the bits of batch 1; all agree with full solves
// (every solve_stride-th contact). The simplicial LDL^T at any size (no
// supernodal Cholesky: newton/supernodal_cholesky_test.cc tests that one).
void ExpectBatchesExact(const GlobalProblem& problem,
                        const std::string& what,
                        int solve_stride = 1) {
  MFactorization factors(std::numeric_limits<int>::max());
  std::string error;
  ASSERT_TRUE(factors.Factorize(problem.M, &error)) << what << ": " << error;
  ASSERT_EQ(factors.type(), MFactorizationType::kSimplicialLdlt) << what;
  std::vector<Eigen::Matrix3d> single;
  factors.DiagonalBlocks(problem.H, &single, 1);
  ASSERT_EQ(static_cast<int>(single.size()), problem.nc()) << what;
  // 3 and 7 leave a partial last batch; nc + 5 puts all in one (up to 40
  // contacts: wide panels are slow on the large lattice).
  for (int batch :
       {2, 3, 7, kDiagonalBlockBatch, std::min(problem.nc() + 5, 40)}) {
    std::vector<Eigen::Matrix3d> batched;
    factors.DiagonalBlocks(problem.H, &batched, batch);
    ASSERT_EQ(batched.size(), single.size()) << what;
    for (int a = 0; a < problem.nc(); ++a) {
      EXPECT_TRUE(SameBits(batched[a], single[a]))
          << what << " batch " << batch << " contact " << a;
    }
  }
  const std::vector<Eigen::Matrix3d> solved =
      BlocksBySolves(factors, problem.H, solve_stride);
  double largest = 0.0;
  for (const Eigen::Matrix3d& w : solved) largest = std::max(largest, w.norm());
  for (int a = 0; a < problem.nc(); a += solve_stride) {
    EXPECT_LE((single[a] - solved[a]).norm(), kSolveAgreement * largest)
        << what << " contact " << a;
  }
}

TEST(DiagonalBlocksTest, BatchesGiveTheBitsOfOneContactSolvesOnSharedProblems) {
  for (const char* file : testing::kSharedProblemFiles) {
    const GlobalProblem problem = testing::ReadSharedProblem(file);
    ASSERT_GT(problem.n(), 0) << file;
    ExpectBatchesExact(problem, file);
  }
}

TEST(DiagonalBlocksTest, BatchesGiveTheBitsOfOneContactSolvesOnALattice) {
  ExpectBatchesExact(testing::MakeLatticeOnFloor(6, 5, 3, 0.3, 1.5), "lattice");
  ExpectBatchesExact(testing::MakeBoxStack(5, 0.5, 0.3), "box stack");
}

// A spring lattice above kNestedDissectionMinDofs: M's LDL^T (the path of a
// large M that is not positive definite) is ordered by METIS (a permutation
// of all dofs, not AMD's), and the blocks still hold.
TEST(DiagonalBlocksTest, NestedDissectionAboveTheThreshold) {
  const GlobalProblem problem =
      testing::MakeLatticeOnFloor(30, 30, 8, 0.3, 1.5);
  ASSERT_GE(problem.n(), kNestedDissectionMinDofs);
  const SparseMatrix full =
      SparseMatrix(problem.M.selfadjointView<Eigen::Lower>());
  OrderingPermutation nested;
  ASSERT_TRUE(NestedDissection(full, &nested));
  ASSERT_EQ(nested.size(), problem.n());
  std::vector<int> seen(problem.n(), 0);
  for (int k = 0; k < problem.n(); ++k) ++seen[nested.indices()[k]];
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), problem.n());
  OrderingPermutation amd;
  Eigen::AMDOrdering<int>()(full, amd);
  EXPECT_FALSE(nested.indices() == amd.indices());
  // Full solves of n = 21,600 are slow: every 30th contact (30 of 900).
  ExpectBatchesExact(problem, "large lattice", 30);
}

// Contacts on exactly the same dofs: H = [H0, 2 H0, H0 with its contacts in
// reverse order], so every dof is touched by three contacts, two of which may
// sit in one batch with the same reach.
TEST(DiagonalBlocksTest, ContactsSharingDofs) {
  GlobalProblem problem = testing::MakeLatticeOnFloor(4, 3, 2, 0.3, 1.5);
  const SparseMatrix H0 = problem.H;
  const int nc0 = static_cast<int>(H0.cols() / 3);
  std::vector<Eigen::Triplet<double>> entries;
  for (int copy = 0; copy < 3; ++copy) {
    for (int a = 0; a < nc0; ++a) {
      const int source = copy == 2 ? nc0 - 1 - a : a;
      const double scale = copy == 1 ? 2.0 : 1.0;
      for (int k = 0; k < 3; ++k) {
        for (SparseMatrix::InnerIterator it(H0, 3 * source + k); it; ++it) {
          entries.emplace_back(static_cast<int>(it.row()),
                               3 * (copy * nc0 + a) + k,
                               scale * it.value());
        }
      }
    }
  }
  problem.H.resize(H0.rows(), 9 * nc0);
  problem.H.setFromTriplets(entries.begin(), entries.end());
  problem.w = Eigen::VectorXd::Zero(9 * nc0);
  problem.mu = Eigen::VectorXd::Constant(3 * nc0, 0.3);  // nc = 3 nc0
  ExpectBatchesExact(problem, "shared dofs");

  MFactorization factors;
  std::string error;
  ASSERT_TRUE(factors.Factorize(problem.M, &error)) << error;
  std::vector<Eigen::Matrix3d> blocks;
  factors.DiagonalBlocks(problem.H, &blocks);
  for (int a = 0; a < nc0; ++a) {
    // Same dofs, same block; twice H_a, four times the block (scaling by 2
    // is exact in binary floating point).
    EXPECT_TRUE(SameBits(blocks[2 * nc0 + nc0 - 1 - a], blocks[a])) << a;
    EXPECT_TRUE(SameBits(blocks[nc0 + a], 4.0 * blocks[a])) << a;
  }
}

}  // namespace
}  // namespace fcsn::internal
