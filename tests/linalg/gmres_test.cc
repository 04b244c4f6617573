// FGMRES (linalg/gmres.h) on dense random systems: the recurrence's residual
// is the true one, the exact preconditioner converges in one iteration, a
// preconditioner of a low-rank perturbation in rank + 1, the budget, the
// preconditioner's failure and a hopeless rate (when asked) stop it, and
// b = 0 gives x = 0.
#include "linalg/gmres.h"

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <random>

namespace fcsn::internal {
namespace {

Eigen::MatrixXd RandomWellConditioned(int n, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  Eigen::MatrixXd a(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) a(i, j) = uniform(engine);
  // Diagonal dominance keeps cond(a) small for any seed.
  a.diagonal().array() += 2.0 * n;
  return a;
}

Eigen::VectorXd RandomVector(int n, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  Eigen::VectorXd v(n);
  for (int i = 0; i < n; ++i) v[i] = uniform(engine);
  return v;
}

GmresMultiply MultiplyBy(const Eigen::MatrixXd& a) {
  return [&a](const Eigen::VectorXd& x, Eigen::VectorXd* y) { *y = a * x; };
}

GmresPrecondition InverseOf(const Eigen::PartialPivLU<Eigen::MatrixXd>& lu) {
  return [&lu](Eigen::VectorXd* x) {
    *x = lu.solve(*x);
    return LinearSolverStatus::kSuccess;
  };
}

GmresPrecondition Identity() {
  return [](Eigen::VectorXd*) { return LinearSolverStatus::kSuccess; };
}

TEST(GmresTest, ExactPreconditionerConvergesInOneIteration) {
  const Eigen::MatrixXd a = RandomWellConditioned(30, 1);
  const Eigen::VectorXd b = RandomVector(30, 2);
  const Eigen::PartialPivLU<Eigen::MatrixXd> lu(a);
  Eigen::VectorXd x;
  const GmresResult result =
      Gmres(MultiplyBy(a), InverseOf(lu), b, GmresOptions{5, 1e-12}, &x);
  EXPECT_TRUE(result.converged);
  EXPECT_EQ(result.iterations, 1);
  EXPECT_LE((b - a * x).norm(), 1e-12 * b.norm());
}

TEST(GmresTest, LowRankChangeConvergesInRankPlusOneIterations) {
  const int n = 40, rank = 3;
  const Eigen::MatrixXd a_old = RandomWellConditioned(n, 3);
  Eigen::MatrixXd a = a_old;
  // A change of a few rows, as the contact rows of J between Newton iterates.
  for (int k = 0; k < rank; ++k) a.row(5 + 7 * k) += RandomVector(n, 10 + k);
  const Eigen::VectorXd b = RandomVector(n, 4);
  const Eigen::PartialPivLU<Eigen::MatrixXd> lu_old(a_old);
  Eigen::VectorXd x;
  const GmresResult result =
      Gmres(MultiplyBy(a), InverseOf(lu_old), b, GmresOptions{20, 1e-10}, &x);
  EXPECT_TRUE(result.converged);
  EXPECT_LE(result.iterations, rank + 1);
  EXPECT_LE((b - a * x).norm(), 1e-9 * b.norm());
}

TEST(GmresTest, RecurrenceResidualIsTheTrueResidualAtEveryBudget) {
  const int n = 25;
  const Eigen::MatrixXd a = RandomWellConditioned(n, 5);
  const Eigen::VectorXd b = RandomVector(n, 6);
  for (int budget = 1; budget <= 6; ++budget) {
    Eigen::VectorXd x;
    const GmresResult result =
        Gmres(MultiplyBy(a), Identity(), b, GmresOptions{budget, 1e-14}, &x);
    ASSERT_EQ(result.iterations, budget);
    EXPECT_FALSE(result.converged);
    ASSERT_EQ(static_cast<int>(result.history.size()), budget);
    const double true_relative = (b - a * x).norm() / b.norm();
    EXPECT_NEAR(result.relative_residual, true_relative, 1e-12);
    // GMRES minimizes the residual over nested spaces: never increasing.
    if (budget > 1) {
      EXPECT_LE(result.history[budget - 1], result.history[budget - 2]);
    }
  }
}

TEST(GmresTest, StopsAtTheToleranceAndReportsIt) {
  const int n = 25;
  const Eigen::MatrixXd a = RandomWellConditioned(n, 7);
  const Eigen::VectorXd b = RandomVector(n, 8);
  Eigen::VectorXd x;
  const GmresResult result =
      Gmres(MultiplyBy(a), Identity(), b, GmresOptions{n, 1e-3}, &x);
  EXPECT_TRUE(result.converged);
  EXPECT_LE(result.relative_residual, 1e-3);
  // Not one iteration more than needed.
  ASSERT_GE(result.iterations, 2);
  EXPECT_GT(result.history[result.iterations - 2], 1e-3);
}

TEST(GmresTest, PreconditionerFailureStopsWithItsStatus) {
  const Eigen::MatrixXd a = RandomWellConditioned(10, 9);
  const Eigen::VectorXd b = RandomVector(10, 10);
  int calls = 0;
  const GmresPrecondition failing_second = [&calls](Eigen::VectorXd*) {
    return ++calls == 2 ? LinearSolverStatus::kNotReady
                        : LinearSolverStatus::kSuccess;
  };
  Eigen::VectorXd x;
  const GmresResult result =
      Gmres(MultiplyBy(a), failing_second, b, GmresOptions{10, 1e-14}, &x);
  EXPECT_EQ(result.status, LinearSolverStatus::kNotReady);
  EXPECT_FALSE(result.converged);
  EXPECT_EQ(result.iterations, 1);
  EXPECT_LT((b - a * x).norm(), b.norm());
}

TEST(GmresTest, GivesUpEarlyOnlyWhenTheRateCannotMeetTheBudget) {
  // diag(1..n) without preconditioner: GMRES contracts slowly (the spectrum
  // spreads over [1, n]), far from 1e-10 in 8 iterations.
  const int n = 200;
  Eigen::MatrixXd a = Eigen::MatrixXd::Zero(n, n);
  for (int i = 0; i < n; ++i) a(i, i) = i + 1.0;
  const Eigen::VectorXd b = Eigen::VectorXd::Ones(n);
  GmresOptions options{8, 1e-10};
  Eigen::VectorXd x;
  const GmresResult full = Gmres(MultiplyBy(a), Identity(), b, options, &x);
  EXPECT_EQ(full.iterations, 8);
  EXPECT_FALSE(full.converged);
  EXPECT_FALSE(full.gave_up);
  options.give_up_early = true;
  const GmresResult early = Gmres(MultiplyBy(a), Identity(), b, options, &x);
  EXPECT_TRUE(early.gave_up);
  EXPECT_FALSE(early.converged);
  EXPECT_LT(early.iterations, 8);
  EXPECT_GE(early.iterations, 2);
  // A reachable tolerance is not given up on.
  options.relative_tolerance = 0.5;
  const GmresResult loose = Gmres(MultiplyBy(a), Identity(), b, options, &x);
  EXPECT_TRUE(loose.converged);
  EXPECT_FALSE(loose.gave_up);
}

TEST(GmresTest, ZeroRightHandSideGivesZero) {
  const Eigen::MatrixXd a = RandomWellConditioned(8, 11);
  Eigen::VectorXd x = Eigen::VectorXd::Ones(8);
  const GmresResult result = Gmres(MultiplyBy(a),
                                   Identity(),
                                   Eigen::VectorXd::Zero(8),
                                   GmresOptions{4, 1e-8},
                                   &x);
  EXPECT_TRUE(result.converged);
  EXPECT_EQ(result.iterations, 0);
  EXPECT_EQ(x.norm(), 0.0);
}

}  // namespace
}  // namespace fcsn::internal
