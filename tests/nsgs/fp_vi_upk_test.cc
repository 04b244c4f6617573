// Tests of nsgs/fp_vi_upk.h: the paper's FP-VI-UPK local step.
// * One contact, repeated single projections (as successive sweeps would do
//   with q fixed) reach the analytic solutions of take-off, stick and slip.
// * The self-adaptive rho follows the rule of the header: it shrinks by tau
//   until rho ||W dr|| <= L ||dr|| when the step overshoots, and grows by 1/tau
//   when the step is timid (ratio < L_min) and the local error went down.
// * NSGS with it converges on a shared problem to the solution of NSGS-AC, by
//   different iterates (its fixed number of projections per sweep sets it
//   apart: solving the local problem to 1e-14 would make the two identical).
#include "nsgs/fp_vi_upk.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <chrono>
#include <cmath>
#include <iostream>
#include <string>

#include "fcsn/fclib_io.h"
#include "fcsn/options.h"
#include "fcsn/problem.h"
#include "minverse/block_rho.h"
#include "minverse/delassus.h"
#include "nsgs/local_solvers.h"
#include "nsgs/nsgs.h"
#include "shared_problem.h"
#include "test_util.h"

namespace fcsn::internal {
namespace {

using C = FpViUpkConstants;

// Repeated single projections from r = 0 until the local error is below tol.
// Returns the number of projections, or -1 if max_calls were not enough.
int ProjectUntil(const Eigen::Matrix3d& W,
                 const Eigen::Vector3d& q,
                 double mu,
                 double tol,
                 int max_calls,
                 Eigen::Vector3d* r) {
  const double rho_ref = 1.0 / LargestEigenvalue(W);
  double rho = 0.0;  // start from rho_ref
  r->setZero();
  for (int k = 0; k < max_calls; ++k) {
    const FpViUpkStepInfo info =
        FpViUpkProjections(W, q, mu, rho_ref, 1, &rho, r);
    EXPECT_TRUE(info.finite);
    EXPECT_EQ(info.projections, 1);
    if (LocalNaturalMapError(W, q, mu, rho_ref, *r) <= tol) return k + 1;
  }
  return -1;
}

Eigen::Matrix3d SpdMatrix() {
  Eigen::Matrix3d A;
  A << 2.0, 0.3, -0.2, 0.3, 1.5, 0.1, -0.2, 0.1, 1.0;
  return A;
}

constexpr double kLocalTol = 1e-12;
constexpr int kMaxCalls = 2000;

TEST(FpViUpkTest, TakeOffConvergesToZero) {
  Eigen::Vector3d r;
  const Eigen::Vector3d q(0.5, 0.2, -0.1);  // separating: q_N > 0
  ASSERT_GT(ProjectUntil(SpdMatrix(), q, 0.5, kLocalTol, kMaxCalls, &r), 0);
  EXPECT_LE(r.norm(), 1e-10 * q.norm());
}

// W diagonal, mu large: the solution sticks with u = 0, r = -W^-1 q.
TEST(FpViUpkTest, StickConvergesToTheSticking) {
  const Eigen::Matrix3d W = Eigen::Vector3d(2.0, 1.0, 1.0).asDiagonal();
  const Eigen::Vector3d q(-1.0, 0.1, 0.05);
  Eigen::Vector3d r;
  ASSERT_GT(ProjectUntil(W, q, 1.0, kLocalTol, kMaxCalls, &r), 0);
  const Eigen::Vector3d expected = -W.inverse() * q;
  EXPECT_LE(testing::RelativeDistance(r, expected), 1e-10);
}

// W = I, mu = 0.5, q_T large: slip, r_N = -q_N, r_T = -mu r_N q_T / ||q_T||,
// u_T = q_T + r_T opposite to r_T.
TEST(FpViUpkTest, SlipConvergesToTheConeBoundary) {
  const Eigen::Matrix3d W = Eigen::Matrix3d::Identity();
  const double mu = 0.5;
  const Eigen::Vector3d q(-1.0, 1.2, -1.6);
  Eigen::Vector3d r;
  ASSERT_GT(ProjectUntil(W, q, mu, kLocalTol, kMaxCalls, &r), 0);
  const Eigen::Vector2d t = -mu * q.tail<2>().normalized();
  const Eigen::Vector3d expected(1.0, t[0], t[1]);
  EXPECT_LE(testing::RelativeDistance(r, expected), 1e-10);
}

// On a coupled W, the iteration reaches the one-contact Alart–Curnier Newton's
// answer.
TEST(FpViUpkTest, AgreesWithLocalNewtonOnCoupledW) {
  const Eigen::Matrix3d W = SpdMatrix();
  const Eigen::Vector3d q(-1.0, 0.7, 0.4);
  for (const double mu : {0.1, 0.5, 2.0}) {
    Eigen::Vector3d r_fp;
    ASSERT_GT(ProjectUntil(W, q, mu, kLocalTol, kMaxCalls, &r_fp), 0) << mu;
    Eigen::Vector3d r_ac = Eigen::Vector3d::Zero();
    Eigen::Vector3d rho_ac;
    ASSERT_TRUE(SplitSpectralRho(W, &rho_ac));
    const double rho_ref = 1.0 / LargestEigenvalue(W);
    const LocalSolveInfo ac =
        SolveContactAlartCurnier(W, q, mu, rho_ac, rho_ref, 50, 1e-14, &r_ac);
    ASSERT_TRUE(ac.converged);
    EXPECT_LE(testing::RelativeDistance(r_fp, r_ac), 1e-9) << mu;
  }
}

// A step with rho lambda > L overshoots: the trials shrink rho by tau until
// rho_j lambda <= L. With W = lambda I and an interior point (no projection
// active), ||u_j - u_k|| = lambda ||r_j - r_k||, so the accepted trial is the
// first j with rho tau^j lambda <= L, and rho is not grown (ratio > L_min).
TEST(FpViUpkTest, RhoShrinksWhenTheStepOvershoots) {
  const double lambda = 4.0;
  const Eigen::Matrix3d W = lambda * Eigen::Matrix3d::Identity();
  const Eigen::Vector3d q(-1.0, 0.01, 0.0);  // sticks for mu = 1
  Eigen::Vector3d r(0.1, 0.0, 0.0);
  double rho = 10.0 / lambda;
  const FpViUpkStepInfo info =
      FpViUpkProjections(W, q, 1.0, 1.0 / lambda, 1, &rho, &r);
  double expected = 10.0 / lambda;
  int trials = 1;
  while (expected * lambda > C::kL) {
    expected *= C::kTau;
    ++trials;
  }
  EXPECT_EQ(info.trials, trials);
  EXPECT_GT(info.trials, 1);
  EXPECT_EQ(info.rejected, 0);
  EXPECT_DOUBLE_EQ(info.rho_out, expected);
  EXPECT_DOUBLE_EQ(rho, info.rho_out);
  EXPECT_LT(rho, info.rho_in);
  EXPECT_LE(rho * lambda, C::kL);
}

// A timid step (rho lambda < L_min) that lowers the local error makes rho grow
// by 1/tau; one that does not lower it (r already the solution) keeps rho.
TEST(FpViUpkTest, RhoGrowsWhenTheStepIsTimid) {
  const double lambda = 4.0;
  const Eigen::Matrix3d W = lambda * Eigen::Matrix3d::Identity();
  const Eigen::Vector3d q(-1.0, 0.01, 0.0);
  Eigen::Vector3d r(0.1, 0.0, 0.0);
  const double rho_start = 0.05 / lambda;
  double rho = rho_start;
  const FpViUpkStepInfo info =
      FpViUpkProjections(W, q, 1.0, 1.0 / lambda, 1, &rho, &r);
  EXPECT_EQ(info.trials, 1);
  EXPECT_LT(info.error_out, info.error_in);
  EXPECT_DOUBLE_EQ(rho, rho_start / C::kTau);

  // Repeated timid steps keep growing it until the ratio reaches L_min.
  for (int k = 0; k < 20; ++k) {
    FpViUpkProjections(W, q, 1.0, 1.0 / lambda, 1, &rho, &r);
  }
  EXPECT_GE(rho * lambda, C::kLMin);
  EXPECT_LE(rho * lambda, C::kL / C::kTau);

  // At the solution dr = 0: (A) holds, (G) does not (no decrease): rho stays.
  Eigen::Vector3d solution = -q / lambda;
  double rho_fixed = 0.05 / lambda;
  FpViUpkProjections(W, q, 1.0, 1.0 / lambda, 1, &rho_fixed, &solution);
  EXPECT_DOUBLE_EQ(rho_fixed, 0.05 / lambda);
}

TEST(FpViUpkTest, StartsFromRhoRefAndCapsGrowth) {
  const Eigen::Matrix3d W = Eigen::Matrix3d::Zero();  // singular: no bound
  const Eigen::Vector3d q(-1.0, 0.0, 0.0);
  Eigen::Vector3d r = Eigen::Vector3d::Zero();
  double rho = -1.0;
  const FpViUpkStepInfo info = FpViUpkProjections(W, q, 0.3, 2.0, 1, &rho, &r);
  EXPECT_DOUBLE_EQ(info.rho_in, 2.0);
  for (int k = 0; k < 200; ++k) FpViUpkProjections(W, q, 0.3, 2.0, 5, &rho, &r);
  EXPECT_TRUE(std::isfinite(rho));
  EXPECT_LE(rho, C::kMaxRhoGrowth * 2.0);
}

TEST(FpViUpkTest, DoesTheRequestedNumberOfProjections) {
  const Eigen::Matrix3d W = SpdMatrix();
  const Eigen::Vector3d q(-1.0, 0.7, 0.4);
  Eigen::Vector3d r_one = Eigen::Vector3d::Zero();
  Eigen::Vector3d r_three = r_one;
  double rho_one = 0.0;
  double rho_three = 0.0;
  const double rho_ref = 1.0 / LargestEigenvalue(W);
  for (int k = 0; k < 3; ++k) {
    FpViUpkProjections(W, q, 0.5, rho_ref, 1, &rho_one, &r_one);
  }
  const FpViUpkStepInfo info =
      FpViUpkProjections(W, q, 0.5, rho_ref, 3, &rho_three, &r_three);
  EXPECT_EQ(info.projections, 3);
  EXPECT_EQ(r_one, r_three);  // three calls of one = one call of three
  EXPECT_EQ(rho_one, rho_three);
}

using testing::ReadSharedProblem;

// NSGS-FP-VI-UPK and NSGS-AC on a shared FEM problem: the same solution within
// the tolerance, reached by different iterates.
TEST(FpViUpkNsgsTest, SameSolutionAsAcByDifferentIterates) {
  const GlobalProblem problem = ReadSharedProblem("CubeH8.hdf5");
  Delassus delassus;
  std::string error;
  ASSERT_TRUE(delassus.Compute(problem, &error)) << error;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(60);
  const double tol = 1e-8;
  NsgsOptions options;
  options.error_check_frequency = 1;

  // After one sweep from r = 0 the iterates already differ.
  options.local_solver = LocalSolverType::kAlartCurnierNewton;
  Eigen::VectorXd r_ac = Eigen::VectorXd::Zero(problem.m());
  Eigen::VectorXd v_ac;
  RunNsgs(problem, delassus, options, tol, 1, deadline, &r_ac, &v_ac);
  options.local_solver = LocalSolverType::kFixedPointViUpk;
  Eigen::VectorXd r_fp = Eigen::VectorXd::Zero(problem.m());
  Eigen::VectorXd v_fp;
  RunNsgs(problem, delassus, options, tol, 1, deadline, &r_fp, &v_fp);
  EXPECT_GT(testing::RelativeDistance(r_ac, r_fp), 1e-6);

  // Run to convergence.
  options.local_solver = LocalSolverType::kAlartCurnierNewton;
  r_ac.setZero();
  const NsgsResult ac =
      RunNsgs(problem, delassus, options, tol, 100000, deadline, &r_ac, &v_ac);
  options.local_solver = LocalSolverType::kFixedPointViUpk;
  r_fp.setZero();
  const NsgsResult fp =
      RunNsgs(problem, delassus, options, tol, 100000, deadline, &r_fp, &v_fp);
  ASSERT_EQ(ac.status, SolverStatus::kConverged) << ac.message;
  ASSERT_EQ(fp.status, SolverStatus::kConverged) << fp.message;
  EXPECT_NE(ac.sweeps, fp.sweeps);
  // Both meet the criterion at tol; v (M SPD) and H r = M v - f are unique
  // and agree within a margin of 1e3 tol.
  EXPECT_LE(testing::RelativeDistance(v_ac, v_fp), 1e3 * tol);
  EXPECT_LE(testing::RelativeDistance(problem.H * r_ac, problem.H * r_fp),
            1e3 * tol);
  std::cout << "[ fp-vi-upk ] sweeps to " << tol << ": NSGS-AC " << ac.sweeps
            << ", NSGS-FP-VI-UPK " << fp.sweeps << "\n";
}

}  // namespace
}  // namespace fcsn::internal
