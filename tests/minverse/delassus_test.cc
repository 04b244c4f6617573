// Tests of minverse/delassus.h: W and q_free built from one sparse factorization
// of M against dense H^T M^-1 H and H^T M^-1 f + w, the block sparsity, the
// velocity recovery, and failures on singular, indefinite or malformed M.
#include "minverse/delassus.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include "fcsn/fclib_io.h"
#include "fcsn/problem.h"
#include "test_problems.h"
#include "test_util.h"

namespace fcsn::internal {
namespace {

// Relative tolerance of the sparse-vs-dense comparison on the small shared
// problems.
constexpr double kDenseAgreement = 1e-12;

struct DelassusCase {
  std::string file;
  MStorage storage;
};

// Readable parameter in gtest messages.
void PrintTo(const DelassusCase& c, std::ostream* os) {
  *os << c.file << (c.storage == MStorage::kAsStored ? " (M as stored)" : "");
}

std::string CaseName(const ::testing::TestParamInfo<DelassusCase>& info) {
  return testing::TestNameFromFile(info.param.file) +
         (info.param.storage == MStorage::kAsStored ? "_AsStored" : "_Auto");
}

class DelassusSharedProblemTest
    : public ::testing::TestWithParam<DelassusCase> {};

TEST_P(DelassusSharedProblemTest, MatchesDenseReduction) {
  GlobalProblem problem;
  FclibFileInfo info;
  std::string error;
  ReadOptions read_options;
  read_options.m_storage = GetParam().storage;
  ASSERT_TRUE(ReadGlobalProblem(testing::SharedProblem(GetParam().file),
                                read_options,
                                &problem,
                                &info,
                                &error))
      << error;

  Delassus delassus;
  ASSERT_TRUE(delassus.Compute(problem, &error)) << error;
  ASSERT_EQ(delassus.nc(), problem.nc());

  const Eigen::MatrixXd M = Eigen::MatrixXd(problem.M);
  const Eigen::MatrixXd H = Eigen::MatrixXd(problem.H);
  const bool symmetric = (M - M.transpose()).cwiseAbs().maxCoeff() == 0.0;
  EXPECT_EQ(delassus.factorization_type(),
            symmetric ? MFactorizationType::kSimplicialLdlt
                      : MFactorizationType::kSparseLu);

  const Eigen::PartialPivLU<Eigen::MatrixXd> lu(M);
  const Eigen::MatrixXd W_dense = H.transpose() * lu.solve(H);
  const Eigen::VectorXd q_dense =
      H.transpose() * lu.solve(problem.f) + problem.w;
  const Eigen::MatrixXd W = Eigen::MatrixXd(delassus.ToSparse());
  EXPECT_LE(testing::RelativeDistance(W, W_dense), kDenseAgreement);
  EXPECT_LE(testing::RelativeDistance(delassus.q_free(), q_dense),
            kDenseAgreement);
  EXPECT_NEAR(
      delassus.q_free_norm(), q_dense.norm(), kDenseAgreement * q_dense.norm());

  // Every block that is not stored is zero in the dense reduction.
  const double w_scale = W_dense.norm();
  int stored = 0;
  for (int a = 0; a < problem.nc(); ++a) {
    EXPECT_LE(
        (delassus.DiagonalBlock(a) - W_dense.block<3, 3>(3 * a, 3 * a)).norm(),
        kDenseAgreement * w_scale);
    for (int k = delassus.RowBegin(a); k < delassus.RowEnd(a); ++k) {
      if (k > delassus.RowBegin(a)) {
        EXPECT_LT(delassus.BlockColumn(k - 1), delassus.BlockColumn(k));
      }
      ++stored;
    }
  }
  EXPECT_EQ(stored, delassus.num_blocks());
  EXPECT_LE((W - W_dense).norm(), kDenseAgreement * w_scale);

  // Velocity recovery with the kept factorization.
  const Eigen::VectorXd r = Eigen::VectorXd::LinSpaced(problem.m(), 0.5, 1.5);
  Eigen::VectorXd v;
  ASSERT_TRUE(delassus.RecoverVelocity(problem, r, &v));
  const Eigen::VectorXd v_dense = lu.solve(H * r + problem.f);
  EXPECT_LE(testing::RelativeDistance(v, v_dense), kDenseAgreement);
  // And u = W r + q_free is H^T v + w.
  const Eigen::VectorXd u = H.transpose() * v + problem.w;
  EXPECT_LE(testing::RelativeDistance(u, W * r + delassus.q_free()), 1e-10);
}

INSTANTIATE_TEST_SUITE_P(
    SharedProblems,
    DelassusSharedProblemTest,
    ::testing::Values(
        DelassusCase{"GFC3D_Example00.hdf5", MStorage::kAuto},
        DelassusCase{"GFC3D_Example00_badly_scaled.hdf5", MStorage::kAuto},
        DelassusCase{"GFC3D_Example0.hdf5", MStorage::kAuto},
        DelassusCase{"GFC3D_Example1.hdf5", MStorage::kAuto},
        DelassusCase{"GFC3D_OneContact.hdf5", MStorage::kAuto},
        DelassusCase{"GFC3D_TwoRods1.hdf5", MStorage::kAuto},
        DelassusCase{"CubeH8.hdf5", MStorage::kAuto},
        DelassusCase{"CubeH8.hdf5", MStorage::kAsStored},
        DelassusCase{"Box_Stacks-i0122-82-5.hdf5", MStorage::kAuto}),
    CaseName);

// Box_Stacks (rigid boxes, diagonal M): W couples only contacts that share a
// box, far fewer than nc^2 blocks.
TEST(DelassusTest, RigidBoxStacksIsBlockSparse) {
  GlobalProblem problem;
  std::string error;
  ASSERT_TRUE(
      ReadGlobalProblem(testing::SharedProblem("Box_Stacks-i0122-82-5.hdf5"),
                        ReadOptions{},
                        &problem,
                        nullptr,
                        &error))
      << error;
  Delassus delassus;
  ASSERT_TRUE(delassus.Compute(problem, &error)) << error;
  EXPECT_LT(delassus.num_blocks(), problem.nc() * problem.nc() / 2);
  EXPECT_GE(delassus.num_blocks(), problem.nc());
}

// Two free particles (3 dof each), two contacts on each: the blocks between
// contacts of different particles are absent.
TEST(DelassusTest, BlocksOnlyBetweenContactsSharingADof) {
  GlobalProblem problem;
  problem.M.resize(6, 6);
  for (int i = 0; i < 6; ++i) problem.M.insert(i, i) = 1.0 + i;
  problem.M.makeCompressed();
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(6, 12);
  H.block<3, 3>(0, 0) = Eigen::Matrix3d::Identity();
  H.block<3, 3>(0, 3) =
      Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitX()).toRotationMatrix();
  H.block<3, 3>(3, 6) = Eigen::Matrix3d::Identity();
  H.block<3, 3>(3, 9) =
      Eigen::AngleAxisd(0.7, Eigen::Vector3d::UnitY()).toRotationMatrix();
  problem.H = H.sparseView();
  problem.f = Eigen::VectorXd::Constant(6, -1.0);
  problem.w = Eigen::VectorXd::Zero(12);
  problem.mu = Eigen::VectorXd::Constant(4, 0.5);

  Delassus delassus;
  std::string error;
  ASSERT_TRUE(delassus.Compute(problem, &error)) << error;
  EXPECT_EQ(delassus.num_blocks(), 8);
  for (int a = 0; a < 4; ++a) {
    for (int k = delassus.RowBegin(a); k < delassus.RowEnd(a); ++k) {
      EXPECT_EQ(delassus.BlockColumn(k) / 2, a / 2);
    }
  }
  // sum_{b != a} W_ab r_b uses the stored blocks only.
  const Eigen::VectorXd r = Eigen::VectorXd::LinSpaced(12, 1.0, 2.0);
  const Eigen::MatrixXd W = Eigen::MatrixXd(delassus.ToSparse());
  for (int a = 0; a < 4; ++a) {
    const Eigen::Vector3d expected =
        W.middleRows<3>(3 * a) * r -
        W.block<3, 3>(3 * a, 3 * a) * r.segment<3>(3 * a);
    EXPECT_LE((delassus.OffDiagonalProduct(a, r) - expected).norm(),
              1e-14 * expected.norm());
  }
}

// CountBlocks (the hybrid's memory budget check) counts what Compute stores:
// the block-sparse rigid Box_Stacks, two particles with two contacts each, and
// a small elastic lattice, where every pair of contacts is coupled.
TEST(DelassusTest, CountBlocksMatchesTheStoredBlocks) {
  GlobalProblem box_stacks;
  std::string error;
  ASSERT_TRUE(
      ReadGlobalProblem(testing::SharedProblem("Box_Stacks-i0122-82-5.hdf5"),
                        ReadOptions{},
                        &box_stacks,
                        nullptr,
                        &error))
      << error;
  const GlobalProblem lattice =
      testing::MakeLatticeOnFloor(4, 3, 2, 0.5, 0.8, 0.01);
  for (const GlobalProblem* problem :
       {static_cast<const GlobalProblem*>(&box_stacks), &lattice}) {
    Delassus delassus;
    ASSERT_TRUE(delassus.Compute(*problem, &error)) << error;
    EXPECT_EQ(
        Delassus::CountBlocks(*problem, std::numeric_limits<long long>::max()),
        delassus.num_blocks());
  }
  EXPECT_EQ(Delassus::CountBlocks(lattice, 1000), 144);  // 12^2 blocks
}

// The count stops once it exceeds the cap: for one body with 1600 contacts it
// returns after the first block rows, not after the 1600^2 pairs.
TEST(DelassusTest, CountBlocksStopsAboveTheCap) {
  const GlobalProblem problem =
      testing::MakeLatticeOnFloor(40, 40, 2, 0.5, 0.8, 0.01);
  const long long full =
      Delassus::CountBlocks(problem, std::numeric_limits<long long>::max());
  EXPECT_EQ(full, 1600LL * 1600LL);
  const long long capped = Delassus::CountBlocks(problem, 5000);
  EXPECT_GT(capped, 5000);
  EXPECT_LE(capped, 5000 + 1600);  // at most one more block row
  EXPECT_EQ(Delassus::CountBlocks(problem, 0), 1600);
}

// BuildCost = 9 per block + 3 k_c nnz(M_c) per component: two particles (3
// diagonal dofs each) with two contacts each store 8 blocks, so
// 72 + 2 * 3 * 2 * 3 = 108; and it stops above the cap.
TEST(DelassusTest, BuildCostCountsBlocksAndSolves) {
  GlobalProblem problem;
  problem.M.resize(6, 6);
  for (int i = 0; i < 6; ++i) problem.M.insert(i, i) = 1.0 + i;
  problem.M.makeCompressed();
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(6, 12);
  H.block<3, 3>(0, 0) = Eigen::Matrix3d::Identity();
  H.block<3, 3>(0, 3) = Eigen::Matrix3d::Identity();
  H.block<3, 3>(3, 6) = Eigen::Matrix3d::Identity();
  H.block<3, 3>(3, 9) = Eigen::Matrix3d::Identity();
  problem.H = H.sparseView();
  problem.f = Eigen::VectorXd::Zero(6);
  problem.w = Eigen::VectorXd::Zero(12);
  problem.mu = Eigen::VectorXd::Constant(4, 0.5);
  EXPECT_EQ(Delassus::BuildCost(problem, std::numeric_limits<long long>::max()),
            108);
  EXPECT_GT(Delassus::BuildCost(problem, 50), 50);

  const GlobalProblem lattice =
      testing::MakeLatticeOnFloor(40, 40, 2, 0.5, 0.8, 0.01);
  const long long nonzeros = lattice.M.nonZeros() + lattice.H.nonZeros();
  EXPECT_GT(Delassus::BuildCost(lattice, 16 * nonzeros), 16 * nonzeros);
  problem.H.resize(5, 12);  // H does not match M
  EXPECT_EQ(Delassus::BuildCost(problem, 1000), 0);
}

TEST(DelassusTest, CountBlocksOfDegenerateProblems) {
  GlobalProblem problem;
  problem.M = Eigen::Matrix3d::Identity().sparseView();
  problem.H.resize(3, 0);
  problem.f = Eigen::Vector3d(1.0, 2.0, 3.0);
  problem.w.resize(0);
  problem.mu.resize(0);
  EXPECT_EQ(Delassus::CountBlocks(problem, 10), 0);  // no contact
  problem.H.resize(4, 3);                            // H does not match M
  EXPECT_EQ(Delassus::CountBlocks(problem, 10), 0);
  // A contact attached to no dof (H_a = 0) still has its diagonal block.
  problem.H.resize(3, 3);
  EXPECT_EQ(Delassus::CountBlocks(problem, 10), 1);
}

GlobalProblem OneParticleProblem(const Eigen::Matrix3d& M) {
  GlobalProblem problem;
  problem.M = M.sparseView();
  problem.H = Eigen::Matrix3d::Identity().sparseView();
  problem.f = Eigen::Vector3d(0.0, 0.0, -1.0);
  problem.w = Eigen::Vector3d::Zero();
  problem.mu = Eigen::VectorXd::Constant(1, 0.3);
  return problem;
}

TEST(DelassusTest, RejectsSingularSymmetricM) {
  Eigen::Matrix3d M;
  M << 1, 1, 0, 1, 1, 0, 0, 0, 2;
  Delassus delassus;
  std::string error;
  EXPECT_FALSE(delassus.Compute(OneParticleProblem(M), &error));
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(delassus.nc(), 0);
  EXPECT_EQ(delassus.factorization_type(), MFactorizationType::kNone);
  Eigen::VectorXd v;
  EXPECT_FALSE(delassus.RecoverVelocity(
      OneParticleProblem(M), Eigen::Vector3d::Ones(), &v));
}

TEST(DelassusTest, RejectsIndefiniteSymmetricM) {
  const Eigen::Matrix3d M = Eigen::Vector3d(1.0, -2.0, 3.0).asDiagonal();
  Delassus delassus;
  std::string error;
  EXPECT_FALSE(delassus.Compute(OneParticleProblem(M), &error));
  EXPECT_NE(error.find("not positive definite"), std::string::npos) << error;
}

TEST(DelassusTest, RejectsSingularNonSymmetricM) {
  Eigen::Matrix3d M;
  M << 1, 2, 0, 0, 0, 0, 0, 0, 2;
  Delassus delassus;
  std::string error;
  EXPECT_FALSE(delassus.Compute(OneParticleProblem(M), &error));
  EXPECT_FALSE(error.empty());
}

TEST(DelassusTest, RejectsInconsistentSizes) {
  GlobalProblem problem = OneParticleProblem(Eigen::Matrix3d::Identity());
  problem.w = Eigen::VectorXd::Zero(6);
  Delassus delassus;
  std::string error;
  EXPECT_FALSE(delassus.Compute(problem, &error));
  EXPECT_NE(error.find("sizes"), std::string::npos) << error;
}

TEST(DelassusTest, NonSymmetricMUsesLu) {
  Eigen::Matrix3d M;
  M << 4, 1, 0, 0, 3, 1, 0, 0, 2;  // an upper triangle kept "as stored"
  const GlobalProblem problem = OneParticleProblem(M);
  Delassus delassus;
  std::string error;
  ASSERT_TRUE(delassus.Compute(problem, &error)) << error;
  EXPECT_EQ(delassus.factorization_type(), MFactorizationType::kSparseLu);
  EXPECT_STREQ(ToString(delassus.factorization_type()), "sparse-lu");
  const Eigen::Matrix3d W_dense = M.inverse();
  EXPECT_LE((Eigen::MatrixXd(delassus.ToSparse()) - W_dense).norm(),
            1e-14 * W_dense.norm());
  Eigen::VectorXd x;
  ASSERT_TRUE(delassus.Solve(Eigen::Vector3d(1.0, 2.0, 3.0), &x));
  EXPECT_LE((M * x - Eigen::Vector3d(1.0, 2.0, 3.0)).norm(), 1e-14);
}

TEST(DelassusTest, ZeroContacts) {
  GlobalProblem problem;
  problem.M = Eigen::Matrix3d::Identity().sparseView();
  problem.H.resize(3, 0);
  problem.f = Eigen::Vector3d(1.0, 2.0, 3.0);
  problem.w.resize(0);
  problem.mu.resize(0);
  Delassus delassus;
  std::string error;
  ASSERT_TRUE(delassus.Compute(problem, &error)) << error;
  EXPECT_EQ(delassus.nc(), 0);
  EXPECT_EQ(delassus.num_blocks(), 0);
  EXPECT_EQ(delassus.q_free_norm(), 0.0);
  Eigen::VectorXd v;
  ASSERT_TRUE(delassus.RecoverVelocity(problem, Eigen::VectorXd(), &v));
  EXPECT_EQ(v, problem.f);
}

}  // namespace
}  // namespace fcsn::internal

namespace fcsn::internal {
namespace {

// W equals that of a fresh Delassus on `problem` (entries and q_free).
void ExpectFreshW(const Delassus& delassus, const GlobalProblem& problem) {
  Delassus fresh;
  std::string error;
  ASSERT_TRUE(fresh.Compute(problem, &error)) << error;
  EXPECT_EQ(SparseMatrix(delassus.ToSparse() - fresh.ToSparse()).norm(), 0.0);
  EXPECT_EQ(delassus.num_blocks(), fresh.num_blocks());
  EXPECT_EQ(delassus.q_free(), fresh.q_free());
}

// Time stepping: a new f keeps W (same owner, same factors of M, same H); the
// smallest change of H or M, or another owner, builds it again. Rigid boxes
// (one component of M per box) and an elastic lattice (one component).
TEST(DelassusTest, KeepsWWhileMAndHAreUnchanged) {
  for (const GlobalProblem& first :
       {testing::MakeBoxStack(4, 0.5, 0.2),
        testing::MakeLatticeOnFloor(4, 3, 2, 0.3, 1.2)}) {
    MInverse m_inverse;
    Delassus delassus;
    std::string error;
    m_inverse.Bind(first);
    ASSERT_TRUE(delassus.Compute(first, &m_inverse, &error)) << error;
    EXPECT_FALSE(delassus.reused());

    GlobalProblem next = first;
    next.f *= 1.5;
    m_inverse.Bind(next);
    ASSERT_TRUE(delassus.Compute(next, &m_inverse, &error)) << error;
    EXPECT_TRUE(delassus.reused());
    ExpectFreshW(delassus, next);

    GlobalProblem h_changed = next;
    double& h0 = h_changed.H.valuePtr()[0];
    h0 = std::nextafter(h0, 2.0 * h0);
    m_inverse.Bind(h_changed);
    ASSERT_TRUE(delassus.Compute(h_changed, &m_inverse, &error)) << error;
    EXPECT_FALSE(delassus.reused());
    ExpectFreshW(delassus, h_changed);

    GlobalProblem m_changed = h_changed;
    double& m0 = m_changed.M.valuePtr()[0];
    m0 = std::nextafter(m0, 2.0 * m0);
    m_inverse.Bind(m_changed);
    ASSERT_TRUE(delassus.Compute(m_changed, &m_inverse, &error)) << error;
    EXPECT_FALSE(delassus.reused());
    ExpectFreshW(delassus, m_changed);

    MInverse other;
    other.Bind(m_changed);
    ASSERT_TRUE(delassus.Compute(m_changed, &other, &error)) << error;
    EXPECT_FALSE(delassus.reused());
  }
}

}  // namespace
}  // namespace fcsn::internal
