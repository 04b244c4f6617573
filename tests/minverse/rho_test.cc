// Tests of minverse/rho.h: the per-contact rho of every rule and q_free, against
// dense computations with M^-1 formed in the test; the elimination-tree
// diagonal blocks W_aa = H_a^T M^-1 H_a (MInverse::DiagonalBlocks) against
// the dense H^T M^-1 H, for symmetric (LDL^T) and non-symmetric (LU) M; the
// guard for contacts attached to no free dof.
#include "minverse/rho.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <string>
#include <vector>

#include "fcsn/fclib_io.h"
#include "linalg/m_factorization.h"
#include "shared_problem.h"
#include "test_problems.h"
#include "test_util.h"

namespace fcsn::internal {
namespace {

// Sparse (factorization) against dense (LU of the dense M) on well-conditioned
// test problems: agreement to a few hundred ulps of the entries.
constexpr double kDenseAgreement = 1e-11;

// W = H^T M^-1 H with a dense LU of M.
Eigen::MatrixXd DenseDelassus(const GlobalProblem& p) {
  const Eigen::MatrixXd H = Eigen::MatrixXd(p.H);
  return H.transpose() * Eigen::MatrixXd(p.M).lu().solve(H);
}

Eigen::Matrix3d SymmetricBlock(const Eigen::MatrixXd& W, int a) {
  const Eigen::Matrix3d block = W.block<3, 3>(3 * a, 3 * a);
  return 0.5 * (block + block.transpose());
}

double LambdaMax(const Eigen::Matrix3d& w) {
  return Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(w)
      .eigenvalues()
      .maxCoeff();
}

// Expects every W_aa of m_inverse to match the dense blocks.
void ExpectBlocksMatchDense(const GlobalProblem& problem,
                            MInverse* m_inverse,
                            const std::string& what) {
  const Eigen::MatrixXd W = DenseDelassus(problem);
  const std::vector<Eigen::Matrix3d>& blocks = m_inverse->DiagonalBlocks();
  ASSERT_EQ(static_cast<int>(blocks.size()), problem.nc()) << what;
  double largest = 0.0;
  for (int a = 0; a < problem.nc(); ++a) {
    largest = std::max(largest, SymmetricBlock(W, a).norm());
  }
  for (int a = 0; a < problem.nc(); ++a) {
    EXPECT_LE((blocks[a] - SymmetricBlock(W, a)).norm(),
              kDenseAgreement * largest)
        << what << " contact " << a;
  }
}

// The lattice with a skew-symmetric perturbation on the pattern of M: not
// symmetric (factored by LU), still invertible.
GlobalProblem NonSymmetricLattice() {
  GlobalProblem p = testing::MakeLatticeOnFloor(4, 3, 2, 0.3, 0.8);
  SparseMatrix skew = p.M;
  for (int j = 0; j < skew.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(skew, j); it; ++it) {
      it.valueRef() = it.row() < j ? 1e-3 * (1 + (it.row() + j) % 5) : 0.0;
    }
  }
  p.M = p.M + SparseMatrix(skew - SparseMatrix(skew.transpose()));
  p.M.makeCompressed();
  return p;
}

// Zeroes the columns `first`..`first + count - 1` of H (a contact, or part of
// it, attached to no dof).
void ZeroColumns(GlobalProblem* p, int first, int count) {
  for (int c = first; c < first + count; ++c) {
    for (SparseMatrix::InnerIterator it(p->H, c); it; ++it) {
      it.valueRef() = 0.0;
    }
  }
}

TEST(RhoTest, EliminationTreeBlocksMatchDenseOnSharedProblems) {
  for (const char* file : testing::kSharedProblemFiles) {
    const GlobalProblem problem = testing::ReadSharedProblem(file);
    ASSERT_GT(problem.n(), 0) << file;
    MInverse m_inverse;
    m_inverse.Bind(problem);
    std::string error;
    ASSERT_TRUE(m_inverse.Factorize(&error)) << file << ": " << error;
    EXPECT_EQ(m_inverse.factorization().type(),
              MFactorizationType::kSimplicialLdlt)
        << file;
    ExpectBlocksMatchDense(problem, &m_inverse, file);
  }
}

TEST(RhoTest, EliminationTreeBlocksMatchDenseOnGeneratedProblems) {
  const GlobalProblem lattice = testing::MakeLatticeOnFloor(5, 4, 3, 0.3, 1.5);
  const GlobalProblem boxes = testing::MakeBoxStack(4, 0.5, 0.3);
  for (const GlobalProblem* p : {&lattice, &boxes}) {
    MInverse m_inverse;
    m_inverse.Bind(*p);
    std::string error;
    ASSERT_TRUE(m_inverse.Factorize(&error)) << error;
    ExpectBlocksMatchDense(*p, &m_inverse, "generated");
  }
}

TEST(RhoTest, LuBlocksMatchDenseForNonSymmetricM) {
  const GlobalProblem p = NonSymmetricLattice();
  MInverse m_inverse;
  m_inverse.Bind(p);
  std::string error;
  ASSERT_TRUE(m_inverse.Factorize(&error)) << error;
  EXPECT_EQ(m_inverse.factorization().type(), MFactorizationType::kSparseLu);
  EXPECT_FALSE(m_inverse.symmetric());
  ExpectBlocksMatchDense(p, &m_inverse, "non-symmetric lattice");

  // An upper triangle taken "as stored".
  GlobalProblem upper;
  ReadOptions read_options;
  read_options.m_storage = MStorage::kAsStored;
  ASSERT_TRUE(ReadGlobalProblem(testing::SharedProblem("CubeH8.hdf5"),
                                read_options,
                                &upper,
                                nullptr,
                                &error))
      << error;
  m_inverse.Bind(upper);
  ASSERT_TRUE(m_inverse.Factorize(&error)) << error;
  EXPECT_EQ(m_inverse.factorization().type(), MFactorizationType::kSparseLu);
  ExpectBlocksMatchDense(upper, &m_inverse, "CubeH8 as stored");
}

// Every rule against its definition with dense W_aa; q_free against the
// dense H^T M^-1 f + w. On a sliding lattice and on the LU path.
TEST(RhoTest, EveryRuleMatchesItsDenseDefinition) {
  const GlobalProblem lattice = testing::MakeLatticeOnFloor(4, 3, 2, 0.3, 1.5);
  const GlobalProblem skewed = NonSymmetricLattice();
  for (const GlobalProblem* p : {&lattice, &skewed}) {
    const Eigen::MatrixXd W = DenseDelassus(*p);
    const Eigen::VectorXd q_dense = Eigen::MatrixXd(p->H).transpose() *
                                        Eigen::MatrixXd(p->M).lu().solve(p->f) +
                                    p->w;
    const Eigen::VectorXd d = p->M.diagonal();
    const Eigen::MatrixXd H = Eigen::MatrixXd(p->H);
    const Eigen::MatrixXd W_diag =
        H.transpose() * d.cwiseInverse().asDiagonal() * H;
    for (RhoRule rule : kAllRhoRules) {
      RhoOptions options;
      options.rule = rule;
      options.factor = 2.5;
      options.value = 3.0;
      ScalingData scaling;
      std::string error;
      ASSERT_TRUE(ComputeScaling(*p, options, &scaling, &error)) << error;
      EXPECT_LE(testing::RelativeDistance(scaling.q_free, q_dense),
                kDenseAgreement);
      EXPECT_NEAR(scaling.q_free_norm,
                  q_dense.norm(),
                  kDenseAgreement * q_dense.norm());
      EXPECT_EQ(scaling.m_symmetric, p == &lattice);
      ASSERT_EQ(scaling.rho.size(), p->m());
      for (int a = 0; a < p->nc(); ++a) {
        const Eigen::Matrix3d w = SymmetricBlock(W, a);
        Eigen::Vector3d expected;
        switch (rule) {
          case RhoRule::kConstant:
            expected.setConstant(3.0);
            break;
          case RhoRule::kDiagonalEstimate:
            expected.setConstant(1.0 / LambdaMax(SymmetricBlock(W_diag, a)));
            break;
          case RhoRule::kExactDelassus:
            expected.setConstant(1.0 / LambdaMax(w));
            break;
          case RhoRule::kSplitExactDelassus: {
            const double lt = Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d>(
                                  w.bottomRightCorner<2, 2>())
                                  .eigenvalues()
                                  .maxCoeff();
            expected = Eigen::Vector3d(1.0 / w(0, 0), 1.0 / lt, 1.0 / lt);
            break;
          }
        }
        expected *= 2.5;
        EXPECT_LE((scaling.rho.segment<3>(3 * a) - expected).norm(),
                  1e-9 * expected.norm())
            << ToString(rule) << " contact " << a;
      }
    }
  }
}

// A contact attached to no dof (H_a = 0, W_aa = 0) takes the median rho of
// the others; with the split rule, a contact without tangential coupling
// (W_TT = 0) takes 1/lambda_max(W_aa) for its tangential rho.
TEST(RhoTest, UncoupledContactsFollowTheGuard) {
  GlobalProblem p = testing::MakeLatticeOnFloor(4, 3, 2, 0.3, 1.5);
  ZeroColumns(&p, 0, 3);      // contact 0: no dof
  ZeroColumns(&p, 3 + 1, 2);  // contact 1: normal only
  for (RhoRule rule : {RhoRule::kExactDelassus,
                       RhoRule::kSplitExactDelassus,
                       RhoRule::kDiagonalEstimate}) {
    RhoOptions options;
    options.rule = rule;
    ScalingData scaling;
    std::string error;
    ASSERT_TRUE(ComputeScaling(p, options, &scaling, &error)) << error;
    std::vector<double> others;
    for (int a = 1; a < p.nc(); ++a) others.push_back(scaling.rho[3 * a]);
    std::nth_element(
        others.begin(), others.begin() + others.size() / 2, others.end());
    const double median = others[others.size() / 2];
    EXPECT_EQ(scaling.rho.segment<3>(0), Eigen::Vector3d::Constant(median))
        << ToString(rule);
    // Contact 1: W_aa = diag(W_NN, 0, 0), so lambda_max = W_NN and every rule
    // gives 1 / W_NN everywhere.
    EXPECT_NEAR(scaling.rho[4], scaling.rho[3], 1e-14 * scaling.rho[3])
        << ToString(rule);
    EXPECT_NEAR(scaling.rho[5], scaling.rho[3], 1e-14 * scaling.rho[3])
        << ToString(rule);
  }
}

// RhoFromBlocks on given blocks: the median of an odd and an even number of
// usable contacts, and 1 (times factor) when no contact is usable.
TEST(RhoTest, RhoFromBlocksAppliesTheMedianRule) {
  RhoOptions options;
  options.rule = RhoRule::kExactDelassus;
  options.factor = 1.0;
  std::vector<Eigen::Matrix3d> W = {Eigen::Matrix3d::Identity(),
                                    Eigen::Matrix3d::Zero(),
                                    2.0 * Eigen::Matrix3d::Identity(),
                                    4.0 * Eigen::Matrix3d::Identity()};
  Eigen::VectorXd rho = RhoFromBlocks(W, options);
  // Usable rho: 1, 0.5, 0.25 -> median 0.5.
  EXPECT_EQ(rho.segment<3>(3), Eigen::Vector3d::Constant(0.5));
  EXPECT_EQ(rho[0], 1.0);
  EXPECT_EQ(rho[9], 0.25);
  W.push_back(8.0 * Eigen::Matrix3d::Identity());
  rho = RhoFromBlocks(W, options);
  // Usable rho: 1, 0.5, 0.25, 0.125 -> element 2 of the sorted list, 0.5.
  EXPECT_EQ(rho.segment<3>(3), Eigen::Vector3d::Constant(0.5));
  options.factor = 3.0;
  rho = RhoFromBlocks(std::vector<Eigen::Matrix3d>(2, Eigen::Matrix3d::Zero()),
                      options);
  EXPECT_EQ(rho, Eigen::VectorXd::Constant(6, 3.0));
}

// A singular M has no M^-1: the scaling says so and takes diag(M)^-1
// instead (the diagonal-estimate blocks, finite rho and q_free).
TEST(RhoTest, SingularMIsReportedAndTheDiagonalStandsIn) {
  GlobalProblem p = testing::MakeLatticeOnFloor(3, 3, 2, 0.3, 0.5);
  p.M.coeffRef(4, 4) = 0.0;  // one dof without mass nor stiffness
  for (int j = 0; j < p.M.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(p.M, j); it; ++it) {
      if (it.row() == 4 || j == 4) it.valueRef() = 0.0;
    }
  }
  ScalingData scaling;
  std::string error;
  ASSERT_TRUE(ComputeScaling(p, RhoOptions(), &scaling, &error)) << error;
  EXPECT_FALSE(scaling.m_regular);
  EXPECT_FALSE(scaling.m_not_regular_reason.empty());
  EXPECT_TRUE(scaling.rho.allFinite());
  EXPECT_TRUE((scaling.rho.array() > 0).all());
  EXPECT_TRUE(scaling.q_free.allFinite());
  EXPECT_EQ(scaling.rho,
            RhoFromBlocks(DiagonalEstimateBlocks(p), RhoOptions()));
}

// The owner passed in is used (and factorized once); without one, the same
// numbers.
TEST(RhoTest, UsesTheGivenOwnerOfTheFactorization) {
  const GlobalProblem p = testing::MakeLatticeOnFloor(4, 3, 2, 0.3, 1.5);
  MInverse m_inverse;
  m_inverse.Bind(p);
  ScalingData with_owner, without_owner;
  std::string error;
  ASSERT_TRUE(ComputeScaling(p, RhoOptions(), &with_owner, &error, &m_inverse))
      << error;
  ASSERT_TRUE(ComputeScaling(p, RhoOptions(), &without_owner, &error)) << error;
  EXPECT_EQ(m_inverse.factorization().factorizations(), 1);
  EXPECT_EQ(with_owner.rho, without_owner.rho);
  EXPECT_EQ(with_owner.q_free, without_owner.q_free);
  EXPECT_EQ(m_inverse.q_free(), with_owner.q_free);
}

}  // namespace
}  // namespace fcsn::internal
