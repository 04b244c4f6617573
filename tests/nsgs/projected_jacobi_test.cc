// Tests of ProjectedJacobiSolver (nsgs/nsgs.h, formulations.md §7.5): it
// solves elastic problems with solves on the LDL^T of M only (no W), agrees
// with NSGS on W, checks its inputs, and handles the degenerate cases.
#include <gtest/gtest.h>

#include <Eigen/SparseCholesky>
#include <chrono>
#include <limits>
#include <string>

#include "fcsn/error_measures.h"
#include "fcsn/options.h"
#include "minverse/block_rho.h"
#include "minverse/delassus.h"
#include "nsgs/nsgs.h"
#include "test_problems.h"

namespace fcsn::internal {
namespace {

constexpr auto kNoDeadline = std::chrono::steady_clock::time_point::max();

// Per-contact rho = 1 / lambda_max(W_aa), from the Delassus diagonal blocks.
Eigen::VectorXd SpectralRho(const GlobalProblem& problem) {
  Delassus delassus;
  std::string error;
  EXPECT_TRUE(delassus.Compute(problem, &error)) << error;
  Eigen::VectorXd rho(problem.m());
  for (int a = 0; a < problem.nc(); ++a) {
    rho.segment<3>(3 * a).setConstant(
        1.0 / LargestEigenvalue(delassus.DiagonalBlock(a)));
  }
  return rho;
}

// An elastic lattice (one body, 30 contacts, sticking and sliding contacts):
// projected Jacobi converges to tol and to NSGS's velocities.
TEST(ProjectedJacobiTest, SolvesAnElasticLatticeLikeNsgs) {
  const GlobalProblem problem =
      testing::MakeLatticeOnFloor(6, 5, 2, 0.3, 1.2, 0.1);
  MFactorization factorization;
  std::string factor_error;
  ASSERT_TRUE(factorization.Factorize(problem.M, &factor_error))
      << factor_error;
  Delassus delassus;
  std::string error;
  ASSERT_TRUE(delassus.Compute(problem, &error)) << error;
  ProjectedJacobiSolver jacobi(
      factorization, SpectralRho(problem), delassus.q_free_norm());
  Eigen::VectorXd r, v;
  const NsgsResult result =
      jacobi.Run(problem, NsgsOptions(), 1e-9, 2000, kNoDeadline, &r, &v);
  ASSERT_EQ(result.status, SolverStatus::kConverged) << result.message;
  EXPECT_LE(result.errors.Worst(), 1e-9);
  EXPECT_LE(ComputeErrorMeasures(
                problem, v, r, delassus.m_solve(), delassus.q_free_norm())
                .Worst(),
            1e-9);
  EXPECT_EQ(result.local_discards, 0);

  Eigen::VectorXd r_nsgs, v_nsgs;
  const NsgsResult nsgs = RunNsgs(problem,
                                  delassus,
                                  NsgsOptions(),
                                  1e-11,
                                  10000,
                                  kNoDeadline,
                                  &r_nsgs,
                                  &v_nsgs);
  ASSERT_EQ(nsgs.status, SolverStatus::kConverged) << nsgs.message;
  EXPECT_LE((v - v_nsgs).norm(), 1e-6 * v_nsgs.norm());
}

TEST(ProjectedJacobiTest, RejectsMismatchedInputs) {
  const GlobalProblem problem =
      testing::MakeLatticeOnFloor(3, 3, 2, 0.3, 0.5, 0.0);
  MFactorization factorization;
  std::string factor_error;
  ASSERT_TRUE(factorization.Factorize(problem.M, &factor_error))
      << factor_error;
  Eigen::VectorXd r, v;
  // rho for one contact too few
  ProjectedJacobiSolver short_rho(
      factorization, Eigen::VectorXd::Ones(problem.m() - 3), 1.0);
  EXPECT_EQ(short_rho.Run(problem, NsgsOptions(), 1e-8, 10, kNoDeadline, &r, &v)
                .status,
            SolverStatus::kInvalidInput);
  // a zero rho
  Eigen::VectorXd rho = Eigen::VectorXd::Ones(problem.m());
  rho.segment<3>(3).setZero();
  ProjectedJacobiSolver zero_rho(factorization, rho, 1.0);
  EXPECT_EQ(zero_rho.Run(problem, NsgsOptions(), 1e-8, 10, kNoDeadline, &r, &v)
                .status,
            SolverStatus::kInvalidInput);
  // a factorization of another M
  const GlobalProblem other =
      testing::MakeLatticeOnFloor(4, 3, 2, 0.3, 0.5, 0.0);
  MFactorization other_factorization;
  std::string other_error;
  ASSERT_TRUE(other_factorization.Factorize(other.M, &other_error))
      << other_error;
  ProjectedJacobiSolver wrong_m(
      other_factorization, Eigen::VectorXd::Ones(problem.m()), 1.0);
  EXPECT_EQ(
      wrong_m.Run(problem, NsgsOptions(), 1e-8, 10, kNoDeadline, &r, &v).status,
      SolverStatus::kInvalidInput);
}

// No contact: v = M^-1 f at once, converged before any sweep.
TEST(ProjectedJacobiTest, ZeroContacts) {
  GlobalProblem problem;
  problem.M = (2.0 * Eigen::Matrix3d::Identity()).sparseView();
  problem.H.resize(3, 0);
  problem.f = Eigen::Vector3d(1.0, 2.0, 3.0);
  problem.w.resize(0);
  problem.mu.resize(0);
  MFactorization factorization;
  std::string factor_error;
  ASSERT_TRUE(factorization.Factorize(problem.M, &factor_error))
      << factor_error;
  ProjectedJacobiSolver jacobi(factorization, Eigen::VectorXd(), 0.0);
  Eigen::VectorXd r, v;
  const NsgsResult result =
      jacobi.Run(problem, NsgsOptions(), 1e-12, 10, kNoDeadline, &r, &v);
  EXPECT_EQ(result.status, SolverStatus::kConverged) << result.message;
  EXPECT_EQ(result.sweeps, 0);
  EXPECT_LE((v - 0.5 * problem.f).norm(), 1e-15);
}

// A non-finite start is replaced by r = 0, as in NSGS.
TEST(ProjectedJacobiTest, NonFiniteStartIsReset) {
  const GlobalProblem problem =
      testing::MakeLatticeOnFloor(3, 3, 2, 0.3, 0.5, 0.0);
  MFactorization factorization;
  std::string factor_error;
  ASSERT_TRUE(factorization.Factorize(problem.M, &factor_error))
      << factor_error;
  ProjectedJacobiSolver jacobi(factorization, SpectralRho(problem), 1.0);
  Eigen::VectorXd r = Eigen::VectorXd::Constant(
      problem.m(), std::numeric_limits<double>::quiet_NaN());
  Eigen::VectorXd v;
  const NsgsResult result =
      jacobi.Run(problem, NsgsOptions(), 1e-8, 500, kNoDeadline, &r, &v);
  EXPECT_NE(result.status, SolverStatus::kNumericalIssue) << result.message;
  EXPECT_NE(result.status, SolverStatus::kInvalidInput) << result.message;
  EXPECT_TRUE(r.allFinite());
  EXPECT_TRUE(v.allFinite());
  EXPECT_LE(result.errors.e_eq, 1e-12) << result.errors.Describe();
}

}  // namespace
}  // namespace fcsn::internal
