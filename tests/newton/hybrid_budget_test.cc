// Tests of the default policy's budget for the Delassus operator W
// (HybridOptions::delassus_budget_per_nonzero, delassus_min_budget): one
// elastic body with many contacts would need c^2 dense 3 x 3 blocks, so the
// hybrid must not form W there and must still solve the problem (by Newton
// alone), while the rigid piles, whose W is block-sparse, keep their NSGS warm
// start.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>

#include "fcsn/fclib_io.h"
#include "fcsn/solver.h"
#include "test_problems.h"
#include "test_util.h"

namespace fcsn {
namespace {

// The budget of HybridOptions; W's stored entries are at most this.
long long Budget(const GlobalProblem& problem, const HybridOptions& hybrid) {
  const double nonzeros =
      static_cast<double>(problem.M.nonZeros() + problem.H.nonZeros());
  return std::max(
      hybrid.delassus_min_budget,
      static_cast<long long>(hybrid.delassus_budget_per_nonzero * nonzeros));
}

GlobalProblem LoadBoxStacks() {
  GlobalProblem problem;
  std::string error;
  EXPECT_TRUE(
      ReadGlobalProblem(testing::SharedProblem("Box_Stacks-i0122-82-5.hdf5"),
                        ReadOptions(),
                        &problem,
                        nullptr,
                        &error))
      << error;
  return problem;
}

// 40 x 40 x 2 nodes, 1600 contacts on one elastic body: a dense W would store
// 1600^2 blocks, 23 million entries (184 MB), ~60 times nnz(M) + nnz(H).
// The default policy forms none of it and converges by Newton alone.
TEST(HybridBudgetTest, LargeElasticBodyFormsNoDenseDelassus) {
  const GlobalProblem problem =
      testing::MakeLatticeOnFloor(40, 40, 2, 0.5, 0.8, 0.01);
  ASSERT_EQ(problem.nc(), 1600);
  SolverOptions options;
  options.tolerance = 1e-8;
  Solver solver(options);
  Solution x;
  const SolverSummary s = solver.Solve(problem, nullptr, &x);
  EXPECT_EQ(s.status, SolverStatus::kConverged) << s.FullReport();
  EXPECT_LE(s.delassus_entries, Budget(problem, options.hybrid));
  EXPECT_TRUE(s.delassus_over_budget);
  EXPECT_EQ(s.nsgs_sweeps, 0) << s.FullReport();
  EXPECT_EQ(s.fallbacks, 0);
}

// Box_Stacks (rigid, about 2 contacts per box): W is block-sparse, within the
// budget, and the warm start runs.
TEST(HybridBudgetTest, RigidBoxStacksKeepsTheWarmStart) {
  const GlobalProblem problem = LoadBoxStacks();
  Solver solver{SolverOptions()};
  Solution x;
  const SolverSummary s = solver.Solve(problem, nullptr, &x);
  EXPECT_EQ(s.status, SolverStatus::kConverged) << s.FullReport();
  EXPECT_FALSE(s.delassus_over_budget);
  EXPECT_GT(s.delassus_entries, 0);
  EXPECT_LE(s.delassus_entries, Budget(problem, SolverOptions().hybrid));
  EXPECT_GT(s.nsgs_sweeps, 0);
}

// The budget is an option: raised, a 10 x 10 x 2 lattice (100 contacts, 90000
// entries) forms W; at the default it does not (its cost is 300 times
// nnz(M) + nnz(H)); at 0, even a one-box pile runs without the warm start.
TEST(HybridBudgetTest, BudgetFollowsTheOptions) {
  const GlobalProblem lattice =
      testing::MakeLatticeOnFloor(10, 10, 2, 0.5, 0.8, 0.01);
  SolverOptions options;
  options.tolerance = 1e-8;
  options.hybrid.delassus_min_budget = 100000000;
  Solution x;
  SolverSummary s = Solver(options).Solve(lattice, nullptr, &x);
  EXPECT_EQ(s.status, SolverStatus::kConverged) << s.FullReport();
  EXPECT_EQ(s.delassus_entries, 90000);
  EXPECT_FALSE(s.delassus_over_budget);
  EXPECT_GT(s.nsgs_sweeps, 0);

  options.hybrid = HybridOptions();
  s = Solver(options).Solve(lattice, nullptr, &x);
  EXPECT_EQ(s.status, SolverStatus::kConverged) << s.FullReport();
  EXPECT_EQ(s.delassus_entries, 0);
  EXPECT_TRUE(s.delassus_over_budget);
  EXPECT_EQ(s.nsgs_sweeps, 0);

  options.hybrid.delassus_min_budget = 0;
  options.hybrid.delassus_budget_per_nonzero = 0.0;
  s = Solver(options).Solve(testing::MakeBoxStack(1, 0.4, 0.5), nullptr, &x);
  EXPECT_EQ(s.status, SolverStatus::kConverged) << s.FullReport();
  EXPECT_EQ(s.nsgs_sweeps, 0);
  EXPECT_TRUE(s.delassus_over_budget);
}

// A tall rigid pile (200 boxes, 800 contacts with 4 per interface, W of 86112
// entries: 5.5 times nnz(M) + nnz(H)) is cheap to reduce and keeps its warm
// start, without which Newton does not converge in 100 iterations.
TEST(HybridBudgetTest, TallRigidPileKeepsTheWarmStart) {
  const GlobalProblem problem = testing::MakeBoxStack(200, 0.5, 0.3);
  SolverOptions options;
  options.tolerance = 1e-8;
  const SolverSummary s = Solver(options).Solve(problem, nullptr, nullptr);
  EXPECT_EQ(s.status, SolverStatus::kConverged) << s.FullReport();
  EXPECT_FALSE(s.delassus_over_budget);
  EXPECT_GT(s.delassus_entries, Budget(problem, HybridOptions()) / 1000);
  EXPECT_LE(s.delassus_entries, Budget(problem, HybridOptions()));
}

// Options under which Newton fails on Box_Stacks (no regularization: J is
// singular), with no warm start and a zero W budget.
SolverOptions FailingNewtonOverBudget() {
  SolverOptions options;
  options.singular_regularization = 0.0;
  options.hybrid.warm_sweeps = 0;
  options.hybrid.delassus_min_budget = 0;
  options.hybrid.delassus_budget_per_nonzero = 0.0;
  return options;
}

// Over the budget the fallback sweeps by projected Jacobi on the LDL^T of M
// kept by the rho computation: still no W, and the solve still converges.
TEST(HybridBudgetTest, FallsBackToProjectedJacobiOverBudget) {
  const GlobalProblem problem = LoadBoxStacks();
  Solution x;
  const SolverSummary s =
      Solver(FailingNewtonOverBudget()).Solve(problem, nullptr, &x);
  EXPECT_EQ(s.status, SolverStatus::kConverged) << s.FullReport();
  EXPECT_TRUE(s.delassus_over_budget);
  EXPECT_EQ(s.delassus_entries, 0);
  EXPECT_GE(s.fallbacks, 1);
  EXPECT_GT(s.nsgs_sweeps, 0);
}

// A non-symmetric M is factored by a discarded LU, so over the budget there is
// nothing to sweep with: a Newton failure ends the solve, and the message says
// why no fallback happened.
TEST(HybridBudgetTest, NoFallbackOverBudgetWithoutAnLdlt) {
  GlobalProblem problem = LoadBoxStacks();
  problem.M.coeffRef(0, 1) = 1e-3 * problem.M.coeff(0, 0);
  problem.M.makeCompressed();
  Solution x;
  const SolverSummary s =
      Solver(FailingNewtonOverBudget()).Solve(problem, nullptr, &x);
  EXPECT_NE(s.status, SolverStatus::kConverged) << s.FullReport();
  EXPECT_TRUE(s.delassus_over_budget);
  EXPECT_EQ(s.fallbacks, 0);
  EXPECT_EQ(s.nsgs_sweeps, 0);
  EXPECT_NE(s.message.find("no NSGS fallback"), std::string::npos) << s.message;
}

TEST(HybridBudgetTest, ValidateRejectsANegativeBudget) {
  SolverOptions options;
  options.hybrid.delassus_budget_per_nonzero = -1.0;
  EXPECT_NE(options.Validate().find("delassus_budget_per_nonzero"),
            std::string::npos);
  options = SolverOptions();
  options.hybrid.delassus_budget_per_nonzero =
      std::numeric_limits<double>::infinity();
  EXPECT_FALSE(options.Validate().empty());
  options = SolverOptions();
  options.hybrid.delassus_min_budget = -1;
  EXPECT_NE(options.Validate().find("delassus_min_budget"), std::string::npos);
}

}  // namespace
}  // namespace fcsn
