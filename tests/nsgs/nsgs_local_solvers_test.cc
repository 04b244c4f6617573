// Tests of nsgs/local_solvers.h on analytic one-contact problems u = W r + q:
// take-off, stick, slip, frictionless, and random SPD W (r in K, û in K*, r . û
// = 0), for both local solvers.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "fcsn/types.h"
#include "minverse/block_rho.h"
#include "nsgs/local_solvers.h"

namespace fcsn::internal {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

// Enough iterations for the linearly convergent fixed point to reach round-off
// on these cases.
constexpr int kFixedPointIterations = 2000;

ContactScaling ScalingOf(const Eigen::Matrix3d& W) {
  ContactScaling scaling;
  EXPECT_TRUE(SplitSpectralRho(W, &scaling.rho_ac));
  scaling.rho_ref = 1.0 / LargestEigenvalue(W);
  return scaling;
}

// Solves with the given local solver from r = 0 and returns r.
Eigen::Vector3d Solve(LocalSolverType type,
                      const Eigen::Matrix3d& W,
                      const Eigen::Vector3d& q,
                      double mu,
                      LocalSolveInfo* info_out = nullptr) {
  const ContactScaling scaling = ScalingOf(W);
  double rho_fp = 0.0;
  Eigen::Vector3d r = Eigen::Vector3d::Zero();
  const int iterations =
      type == LocalSolverType::kAlartCurnierNewton ? 50 : kFixedPointIterations;
  const LocalSolveInfo info =
      SolveContact(type, W, q, mu, scaling, iterations, 1e-14, &rho_fp, &r);
  if (info_out != nullptr) *info_out = info;
  return r;
}

// Checks the Signorini-Coulomb law: r in K, û in K*, r . û = 0, relative to the
// problem's scale.
void ExpectSolvesContact(const Eigen::Matrix3d& W,
                         const Eigen::Vector3d& q,
                         double mu,
                         const Eigen::Vector3d& r,
                         double tol) {
  const Eigen::Vector3d u = W * r + q;
  Eigen::Vector3d u_hat = u;
  u_hat[0] += mu * u.tail<2>().norm();
  const double r_scale = std::max(r.norm(), q.norm() / W.norm());
  EXPECT_LE(r.tail<2>().norm(), mu * r[0] + tol * r_scale)
      << "r = " << r.transpose();
  EXPECT_GE(r[0], -tol * r_scale);
  EXPECT_LE(mu * u_hat.tail<2>().norm(), u_hat[0] + tol * q.norm())
      << "u = " << u.transpose();
  EXPECT_LE(std::abs(r.dot(u_hat)), tol * r_scale * q.norm());
}

class LocalSolverTest : public ::testing::TestWithParam<LocalSolverType> {};

TEST_P(LocalSolverTest, TakeOffGivesZero) {
  LocalSolveInfo info;
  const Eigen::Vector3d r = Solve(GetParam(),
                                  Eigen::Matrix3d::Identity(),
                                  Eigen::Vector3d(1.0, 0.3, -0.2),
                                  0.5,
                                  &info);
  EXPECT_EQ(r, Eigen::Vector3d::Zero());
  EXPECT_TRUE(info.converged);
  EXPECT_EQ(info.iterations, 0);
}

TEST_P(LocalSolverTest, SticksWhenFrictionIsLarge) {
  // W = I, q = (-1, 0.1, 0): r = -q = (1, -0.1, 0) is in K for mu >= 0.1, u =
  // 0.
  const Eigen::Vector3d q(-1.0, 0.1, 0.0);
  const Eigen::Vector3d r =
      Solve(GetParam(), Eigen::Matrix3d::Identity(), q, 1.0);
  EXPECT_LE((r - Eigen::Vector3d(1.0, -0.1, 0.0)).norm(), 1e-12);
}

TEST_P(LocalSolverTest, SlipsWhenFrictionIsSmall) {
  // W = I, q = (-1, 0.1, 0), mu = 0.05: r_N = 1 (u_N = 0), r_T = -mu r_N e_T1,
  // u_T = (0.05, 0).
  const Eigen::Vector3d q(-1.0, 0.1, 0.0);
  const Eigen::Vector3d r =
      Solve(GetParam(), Eigen::Matrix3d::Identity(), q, 0.05);
  EXPECT_LE((r - Eigen::Vector3d(1.0, -0.05, 0.0)).norm(), 1e-12);
}

TEST_P(LocalSolverTest, SlipsInAnObliqueDirection) {
  // W = 2 I, q = (-2, 3, 4), mu = 0.3: r_N = 1, r_T = -0.3 (3, 4)/5, u_T = q_T
  // + 2 r_T.
  const Eigen::Vector3d q(-2.0, 3.0, 4.0);
  const Eigen::Vector3d r =
      Solve(GetParam(), 2.0 * Eigen::Matrix3d::Identity(), q, 0.3);
  EXPECT_LE((r - Eigen::Vector3d(1.0, -0.18, -0.24)).norm(), 1e-12);
}

TEST_P(LocalSolverTest, FrictionlessPushesAlongTheNormal) {
  const Eigen::Vector3d q(-1.0, 0.5, 0.2);
  const Eigen::Vector3d r =
      Solve(GetParam(), Eigen::Matrix3d::Identity(), q, 0.0);
  EXPECT_LE((r - Eigen::Vector3d(1.0, 0.0, 0.0)).norm(), 1e-12);
}

TEST_P(LocalSolverTest, IsInvariantToUnits) {
  // Scaling W by s and q by 1 gives r / s (impulses in other units).
  const Eigen::Vector3d q(-1.0, 0.1, 0.0);
  const double s = 1e-8;
  const Eigen::Vector3d r =
      Solve(GetParam(), s * Eigen::Matrix3d::Identity(), q, 0.05);
  EXPECT_LE((s * r - Eigen::Vector3d(1.0, -0.05, 0.0)).norm(), 1e-12);
}

TEST_P(LocalSolverTest, SolvesRandomSpdProblems) {
  std::mt19937 generator(12345);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    Eigen::Matrix3d G;
    for (int i = 0; i < 9; ++i) G(i) = uniform(generator);
    const Eigen::Matrix3d W =
        G * G.transpose() + 0.1 * Eigen::Matrix3d::Identity();
    const Eigen::Vector3d q(-std::abs(uniform(generator)) - 0.01,
                            uniform(generator),
                            uniform(generator));
    const double mu = 0.05 + std::abs(uniform(generator));
    LocalSolveInfo info;
    const Eigen::Vector3d r = Solve(GetParam(), W, q, mu, &info);
    SCOPED_TRACE("trial " + std::to_string(trial));
    EXPECT_TRUE(info.converged);
    EXPECT_LE(info.error, 1e-10);
    ExpectSolvesContact(W, q, mu, r, 1e-10);
  }
}

TEST_P(LocalSolverTest, KeepOrDiscardNeverIncreasesTheLocalError) {
  std::mt19937 generator(7);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (int trial = 0; trial < 100; ++trial) {
    Eigen::Matrix3d G;
    for (int i = 0; i < 9; ++i) G(i) = uniform(generator);
    const Eigen::Matrix3d W =
        G * G.transpose() + 0.01 * Eigen::Matrix3d::Identity();
    const Eigen::Vector3d q(
        uniform(generator), uniform(generator), uniform(generator));
    const double mu = std::abs(uniform(generator));
    const ContactScaling scaling = ScalingOf(W);
    Eigen::Vector3d r(
        std::abs(uniform(generator)), uniform(generator), uniform(generator));
    const double before = LocalNaturalMapError(W, q, mu, scaling.rho_ref, r);
    double rho_fp = 0.0;
    // One iteration only: the solver may not converge, but r never gets worse.
    const LocalSolveInfo info =
        SolveContact(GetParam(), W, q, mu, scaling, 1, 1e-14, &rho_fp, &r);
    EXPECT_LE(LocalNaturalMapError(W, q, mu, scaling.rho_ref, r), before);
    EXPECT_DOUBLE_EQ(info.error,
                     LocalNaturalMapError(W, q, mu, scaling.rho_ref, r));
  }
}

TEST_P(LocalSolverTest, NonFiniteStartIsReplaced) {
  const Eigen::Vector3d q(-1.0, 0.1, 0.0);
  const Eigen::Matrix3d W = Eigen::Matrix3d::Identity();
  Eigen::Vector3d r(std::numeric_limits<double>::quiet_NaN(), 0.0, 0.0);
  double rho_fp = 0.0;
  const LocalSolveInfo info = SolveContact(
      GetParam(), W, q, 1.0, ScalingOf(W), 2000, 1e-14, &rho_fp, &r);
  EXPECT_TRUE(info.kept);
  EXPECT_LE((r - Eigen::Vector3d(1.0, -0.1, 0.0)).norm(), 1e-12);
}

std::string SolverName(const ::testing::TestParamInfo<LocalSolverType>& info) {
  return info.param == LocalSolverType::kAlartCurnierNewton ? "AlartCurnier"
                                                            : "FixedPointViUpk";
}

INSTANTIATE_TEST_SUITE_P(BothLocalSolvers,
                         LocalSolverTest,
                         ::testing::Values(LocalSolverType::kAlartCurnierNewton,
                                           LocalSolverType::kFixedPointViUpk),
                         SolverName);

TEST(LocalSolverAlartCurnierTest, StickConvergesInFewNewtonSteps) {
  const Eigen::Matrix3d W = Eigen::Matrix3d::Identity();
  const Eigen::Vector3d q(-1.0, 0.1, 0.0);
  Eigen::Vector3d rho;
  ASSERT_TRUE(SplitSpectralRho(W, &rho));
  Eigen::Vector3d r = Eigen::Vector3d::Zero();
  const LocalSolveInfo info =
      SolveContactAlartCurnier(W, q, 1.0, rho, 1.0, 20, 1e-14, &r);
  EXPECT_TRUE(info.converged);
  EXPECT_LE(info.iterations, 3);
}

TEST(LocalSolverFixedPointTest, CarriesRhoOver) {
  const Eigen::Matrix3d W = Eigen::Vector3d(1.0, 0.01, 0.01).asDiagonal();
  const Eigen::Vector3d q(-1.0, 0.1, 0.0);
  double rho = 0.0;  // start from rho_ref
  Eigen::Vector3d r = Eigen::Vector3d::Zero();
  SolveContactFixedPointViUpk(W, q, 0.3, 1.0, 50, 1e-14, &rho, &r);
  EXPECT_GT(rho, 0.0);
  EXPECT_TRUE(std::isfinite(rho));
}

TEST(SplitSpectralRhoTest, DiagonalAndDegenerate) {
  Eigen::Vector3d rho;
  ASSERT_TRUE(
      SplitSpectralRho(Eigen::Vector3d(2.0, 4.0, 8.0).asDiagonal(), &rho));
  EXPECT_LE((rho - Eigen::Vector3d(0.5, 0.125, 0.125)).norm(), kEps);
  const Eigen::Vector3d unchanged = rho;
  EXPECT_FALSE(SplitSpectralRho(Eigen::Matrix3d::Zero(), &rho));
  EXPECT_EQ(rho, unchanged);
  // lambda_max of [[2, 1], [1, 2]] is 3.
  Eigen::Matrix3d W = Eigen::Matrix3d::Identity();
  W.block<2, 2>(1, 1) << 2.0, 1.0, 1.0, 2.0;
  ASSERT_TRUE(SplitSpectralRho(W, &rho));
  EXPECT_NEAR(rho[1], 1.0 / 3.0, 4 * kEps);
  EXPECT_NEAR(LargestEigenvalue(W), 3.0, 8 * kEps);
}

TEST(SolvePartialPivot3Test, NeedsPivotingAndDetectsSingular) {
  Eigen::Matrix3d A;
  A << 0.0, 1.0, 2.0, 1.0, 0.0, 3.0, 4.0, -3.0, 8.0;
  const Eigen::Vector3d b(1.0, 2.0, 3.0);
  Eigen::Vector3d x;
  ASSERT_TRUE(SolvePartialPivot3(A, b, &x));
  EXPECT_LE((A * x - b).norm(), 1e-14 * b.norm() * A.norm());
  Eigen::Matrix3d S;
  S << 1.0, 2.0, 3.0, 2.0, 4.0, 6.0, 0.0, 1.0, 1.0;
  EXPECT_FALSE(SolvePartialPivot3(S, b, &x));
  EXPECT_FALSE(SolvePartialPivot3(Eigen::Matrix3d::Zero(), b, &x));
}

}  // namespace
}  // namespace fcsn::internal
