// Tests of the supernodal Cholesky path of MFactorization
// (linalg/supernodal_cholesky.h, linalg/m_factorization.h): forced on small
// problems (MFactorization(0)), its x = M^-1 b (Solve and
// SolveWithoutAllocation) and its W_aa = H_a^T M^-1 H_a (supernodal reach
// solves, every batch size) must match the dense inverse of M; a symmetric M
// that is not positive definite falls back to the LDL^T; an unchanged pattern
// keeps the symbolic analysis; above kNestedDissectionMinDofs it is the
// default, its blocks match full solves, and MInverse reuses it across time
// steps.
#include "linalg/supernodal_cholesky.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <string>
#include <vector>

#include "fcsn/problem.h"
#include "linalg/fill_ordering.h"
#include "linalg/m_factorization.h"
#include "shared_problem.h"
#include "test_problems.h"
#include "test_util.h"

namespace fcsn::internal {
namespace {

// Two factorizations (dense LLT, supernodal Cholesky) of well-conditioned
// test matrices: a few hundred ulps of the largest entry.
constexpr double kAgreement = 1e-11;

double MaxNorm(const std::vector<Eigen::Matrix3d>& blocks) {
  double largest = 0.0;
  for (const Eigen::Matrix3d& w : blocks) largest = std::max(largest, w.norm());
  return largest;
}

// W_aa of every contact and x = M^-1 f from the dense inverse of M.
void ExpectMatchesDenseInverse(const GlobalProblem& problem,
                               const std::string& what) {
  MFactorization factors(0);
  std::string error;
  ASSERT_TRUE(factors.Factorize(problem.M, &error)) << what << ": " << error;
  ASSERT_EQ(factors.type(), MFactorizationType::kSupernodalCholesky) << what;
  EXPECT_TRUE(factors.symmetric());
  EXPECT_TRUE(factors.CheckPositiveDefinite(&error)) << what << ": " << error;
  const Eigen::MatrixXd dense_m = Eigen::MatrixXd(problem.M);
  const Eigen::LLT<Eigen::MatrixXd> llt(dense_m);
  const Eigen::MatrixXd inverse =
      llt.solve(Eigen::MatrixXd::Identity(problem.n(), problem.n()));
  const Eigen::VectorXd expected_x = inverse * problem.f;
  Eigen::VectorXd x;
  ASSERT_TRUE(factors.Solve(problem.f, &x)) << what;
  EXPECT_LE((x - expected_x).norm(), kAgreement * expected_x.norm()) << what;
  Eigen::VectorXd x2 = Eigen::VectorXd::Zero(problem.n());
  Eigen::VectorXd work = Eigen::VectorXd::Zero(problem.n());
  ASSERT_TRUE(factors.SolveWithoutAllocation(problem.f, &x2, &work)) << what;
  EXPECT_EQ(x2, x) << what << ": one solve, two entry points";
  const Eigen::MatrixXd dense_h = Eigen::MatrixXd(problem.H);
  std::vector<Eigen::Matrix3d> expected(problem.nc());
  for (int a = 0; a < problem.nc(); ++a) {
    const Eigen::MatrixXd ha = dense_h.middleCols(3 * a, 3);
    expected[a] = ha.transpose() * inverse * ha;
  }
  const double largest = MaxNorm(expected);
  ASSERT_GT(largest, 0.0) << what;
  // 3 and 7 leave a partial last batch; nc + 5 puts all in one.
  for (int batch : {1, 3, 7, kSupernodalBatch, problem.nc() + 5}) {
    std::vector<Eigen::Matrix3d> blocks;
    factors.DiagonalBlocks(problem.H, &blocks, batch);
    ASSERT_EQ(static_cast<int>(blocks.size()), problem.nc()) << what;
    for (int a = 0; a < problem.nc(); ++a) {
      EXPECT_LE((blocks[a] - expected[a]).norm(), kAgreement * largest)
          << what << " batch " << batch << " contact " << a;
    }
  }
}

TEST(SupernodalCholeskyTest, MatchesTheDenseInverseOnLattices) {
  ExpectMatchesDenseInverse(testing::MakeLatticeOnFloor(6, 5, 3, 0.3, 1.5),
                            "lattice");
  ExpectMatchesDenseInverse(testing::MakeLatticeOnFloor(9, 7, 4, 0.3, 1.5),
                            "larger lattice");
  ExpectMatchesDenseInverse(testing::MakeBoxStack(5, 0.5, 0.3), "box stack");
}

// The W_aa shared with a second thread (SecondThreadReady), from the start or
// from the 5th batch on, are the same bits as with one thread, at batch sizes
// that give a few or many batches; the readiness is polled between batches.
TEST(SupernodalCholeskyTest, SecondThreadGivesTheSameBits) {
  const GlobalProblem problem = testing::MakeLatticeOnFloor(9, 7, 4, 0.3, 1.5);
  MFactorization factors(0);
  std::string error;
  ASSERT_TRUE(factors.Factorize(problem.M, &error)) << error;
  ASSERT_EQ(factors.type(), MFactorizationType::kSupernodalCholesky);
  for (int batch : {1, 3, kSupernodalBatch}) {
    std::vector<Eigen::Matrix3d> alone;
    factors.DiagonalBlocks(problem.H, &alone, batch);
    int polls = 0;
    const SecondThreadReady from_start = [&polls] {
      ++polls;
      return true;
    };
    const SecondThreadReady later = [&polls] { return ++polls > 5; };
    for (const SecondThreadReady* second : {&from_start, &later}) {
      polls = 0;
      std::vector<Eigen::Matrix3d> shared;
      factors.DiagonalBlocks(problem.H, &shared, batch, *second);
      ASSERT_EQ(shared.size(), alone.size());
      EXPECT_GE(polls, 1) << "batch " << batch;
      for (size_t a = 0; a < alone.size(); ++a) {
        EXPECT_EQ(shared[a], alone[a]) << "batch " << batch << " contact " << a;
      }
    }
  }
}

TEST(SupernodalCholeskyTest, MatchesTheDenseInverseOnSharedProblems) {
  int supernodal = 0;
  for (const char* file : testing::kSharedProblemFiles) {
    const GlobalProblem problem = testing::ReadSharedProblem(file);
    if (problem.n() > 3000) continue;  // the dense inverse would be slow
    MFactorization probe(0);
    std::string error;
    ASSERT_TRUE(probe.Factorize(problem.M, &error)) << file << ": " << error;
    if (probe.type() != MFactorizationType::kSupernodalCholesky) continue;
    ExpectMatchesDenseInverse(problem, file);
    ++supernodal;
  }
  EXPECT_GT(supernodal, 0) << "no shared problem took the supernodal path";
}

// M = I + h^2 K with one diagonal entry made negative: symmetric, not
// positive definite. The Cholesky fails, the LDL^T takes M, and its solves
// are right.
TEST(SupernodalCholeskyTest, IndefiniteFallsBackToLdlt) {
  GlobalProblem problem = testing::MakeLatticeOnFloor(5, 4, 3, 0.3, 1.5);
  problem.M.coeffRef(7, 7) = -problem.M.coeff(7, 7);
  MFactorization factors(0);
  std::string error;
  ASSERT_TRUE(factors.Factorize(problem.M, &error)) << error;
  EXPECT_EQ(factors.type(), MFactorizationType::kSimplicialLdlt);
  EXPECT_FALSE(factors.CheckPositiveDefinite(&error));
  Eigen::VectorXd x;
  ASSERT_TRUE(factors.Solve(problem.f, &x));
  EXPECT_LE((problem.M * x - problem.f).norm(), kAgreement * problem.f.norm());
}

// New values on the same pattern: one analysis, the new factors.
TEST(SupernodalCholeskyTest, SamePatternKeepsTheAnalysis) {
  GlobalProblem problem = testing::MakeLatticeOnFloor(5, 4, 3, 0.3, 1.5);
  MFactorization factors(0);
  std::string error;
  ASSERT_TRUE(factors.Factorize(problem.M, &error)) << error;
  problem.M *= 2.0;
  ASSERT_TRUE(factors.Factorize(problem.M, &error)) << error;
  EXPECT_EQ(factors.type(), MFactorizationType::kSupernodalCholesky);
  EXPECT_EQ(factors.analyses(), 1);
  EXPECT_EQ(factors.factorizations(), 2);
  Eigen::VectorXd x;
  ASSERT_TRUE(factors.Solve(problem.f, &x));
  EXPECT_LE((problem.M * x - problem.f).norm(), kAgreement * problem.f.norm());
}

// Above kNestedDissectionMinDofs the supernodal Cholesky is the default;
// every 30th W_aa against full solves M^-1 H_a (n = 21,600: no dense inverse).
TEST(SupernodalCholeskyTest, DefaultAboveTheThreshold) {
  const GlobalProblem problem =
      testing::MakeLatticeOnFloor(30, 30, 8, 0.3, 1.5);
  ASSERT_GE(problem.n(), kNestedDissectionMinDofs);
  MFactorization factors;
  std::string error;
  ASSERT_TRUE(factors.Factorize(problem.M, &error)) << error;
  ASSERT_EQ(factors.type(), MFactorizationType::kSupernodalCholesky);
  std::vector<Eigen::Matrix3d> blocks;
  factors.DiagonalBlocks(problem.H, &blocks);
  ASSERT_EQ(static_cast<int>(blocks.size()), problem.nc());
  const double largest = MaxNorm(blocks);
  for (int a = 0; a < problem.nc(); a += 30) {
    const Eigen::MatrixXd ha = Eigen::MatrixXd(problem.H.middleCols(3 * a, 3));
    Eigen::MatrixXd x;
    ASSERT_TRUE(factors.Solve(ha, &x));
    EXPECT_LE((problem.M * x - ha).norm(), kAgreement * ha.norm()) << a;
    const Eigen::Matrix3d solved = ha.transpose() * x;
    EXPECT_LE((blocks[a] - solved).norm(), kAgreement * largest) << a;
  }

  // The owner of a solve (MInverse) on this path: q_free, then a time step
  // with the same M and H and another f keeps the factors and the blocks.
  MInverse m_inverse;
  m_inverse.Bind(problem);
  ASSERT_TRUE(m_inverse.ComputeQFree(&error)) << error;
  EXPECT_EQ(m_inverse.factorization().type(),
            MFactorizationType::kSupernodalCholesky);
  EXPECT_TRUE(m_inverse.symmetric());
  const std::vector<Eigen::Matrix3d> first = m_inverse.DiagonalBlocks();
  GlobalProblem step = problem;
  step.f *= 2.0;
  m_inverse.Bind(step);
  EXPECT_TRUE(m_inverse.reused_factors());
  EXPECT_TRUE(m_inverse.reused_blocks());
  ASSERT_TRUE(m_inverse.ComputeQFree(&error)) << error;
  EXPECT_EQ(m_inverse.factorization().factorizations(), 1);
  const Eigen::VectorXd residual = step.M * m_inverse.free_velocity() - step.f;
  EXPECT_LE(residual.norm(), kAgreement * step.f.norm());
  EXPECT_EQ(m_inverse.DiagonalBlocks().size(), first.size());
}

}  // namespace
}  // namespace fcsn::internal
