// The first Newton direction of a solve started from the caller's guess may
// use the factors of the previous solve's last J (newton/newton_direction.h,
// NewtonDirection::OfferPreviousFactors): time stepping with one Solver. Here
// a lattice sticking on its floor is solved cold, then again from that
// solution with f changed by 1 % (the next step of a body at rest): the second
// solve converges by formulations.md §9.1 without a factorization. The offer
// is refused, and J factorized as before, when the budget is 0, when M
// changed, when the second solve is cold, and after an unconverged solve.
#include <gtest/gtest.h>

#include "fcsn/options.h"
#include "fcsn/solver.h"
#include "shared_problem.h"
#include "test_problems.h"

namespace fcsn {
namespace {

// A 3 x 3 x 2 lattice held by friction (pull 0.3 of mu times its weight).
GlobalProblem StickingLattice() {
  return testing::MakeLatticeOnFloor(3, 3, 2, /*mu=*/0.5, /*pull_ratio=*/0.3);
}

// The next step of the lattice at rest: the same M, H, w and mu, f 1 % larger.
GlobalProblem NextStep(const GlobalProblem& problem) {
  GlobalProblem next = problem;
  next.f *= 1.01;
  return next;
}

SolverOptions NewtonOptions() {
  SolverOptions options;
  options.solver = SolverType::kNewton;
  return options;
}

// Solves `first` cold and then `second` from its solution with one Solver;
// the second solve's summary, checked converged by the criterion.
SolverSummary SolveTwice(const SolverOptions& options,
                         const GlobalProblem& first,
                         const GlobalProblem& second,
                         bool warm = true) {
  Solver solver(options);
  Solution x;
  const SolverSummary cold = solver.Solve(first, nullptr, &x);
  EXPECT_EQ(cold.status, SolverStatus::kConverged) << cold.message;
  Solution y;
  const SolverSummary s = solver.Solve(second, warm ? &x : nullptr, &y);
  EXPECT_EQ(s.status, SolverStatus::kConverged) << s.message;
  EXPECT_TRUE(
      testing::CriterionMeasures(second, y).Converged(options.tolerance));
  return s;
}

// The first direction comes from the previous step's factors; the step's
// second, polishing, iteration (u at rest is round-off after the first) may
// factorize once.
TEST(PreviousFactorsTest, AStepAtRestTakesAtMostOneFactorization) {
  const GlobalProblem p = StickingLattice();
  const SolverSummary s = SolveTwice(NewtonOptions(), p, NextStep(p));
  EXPECT_LE(s.factorizations, 1) << s.FullReport();
  EXPECT_GE(s.reused_factor_directions, 1);
  EXPECT_GE(s.krylov_iterations, s.reused_factor_directions);
  EXPECT_EQ(s.analyses, 0);
}

TEST(PreviousFactorsTest, BudgetZeroFactorizes) {
  SolverOptions options = NewtonOptions();
  options.krylov_reuse_iterations = 0;
  const GlobalProblem p = StickingLattice();
  const SolverSummary s = SolveTwice(options, p, NextStep(p));
  EXPECT_GE(s.factorizations, 1);
  EXPECT_EQ(s.reused_factor_directions, 0);
  EXPECT_EQ(s.krylov_iterations, 0);
}

TEST(PreviousFactorsTest, ANewMFactorizes) {
  const GlobalProblem p = StickingLattice();
  GlobalProblem next = NextStep(p);
  next.M *= 1.5;  // same pattern, other values: the equilibrium rows moved
  const SolverSummary s = SolveTwice(NewtonOptions(), p, next);
  EXPECT_GE(s.factorizations, 1);
  EXPECT_EQ(s.reused_factor_directions, 0);
  EXPECT_EQ(s.krylov_iterations, 0);
}

TEST(PreviousFactorsTest, AColdSolveFactorizes) {
  const GlobalProblem p = StickingLattice();
  const SolverSummary s =
      SolveTwice(NewtonOptions(), p, NextStep(p), /*warm=*/false);
  EXPECT_GE(s.factorizations, 1);
  EXPECT_EQ(s.reused_factor_directions, 0);
}

TEST(PreviousFactorsTest, NoOfferAfterAnUnconvergedSolve) {
  const GlobalProblem p = StickingLattice();
  // A tolerance below round-off: the run ends unconverged next to the
  // solution, with factors that the gate would otherwise accept.
  SolverOptions unreachable = NewtonOptions();
  unreachable.tolerance = 1e-30;
  unreachable.max_iterations = 5;
  Solver solver(unreachable);
  Solution x;
  const SolverSummary first = solver.Solve(p, nullptr, &x);
  ASSERT_NE(first.status, SolverStatus::kConverged);
  ASSERT_GE(first.factorizations, 1);
  ASSERT_TRUE(testing::CriterionMeasures(p, x).Converged(1e-8));
  solver.set_options(NewtonOptions());
  Solution y;
  const GlobalProblem next = NextStep(p);
  const SolverSummary s = solver.Solve(next, &x, &y);
  EXPECT_EQ(s.status, SolverStatus::kConverged) << s.message;
  EXPECT_GE(s.factorizations, 1);
  EXPECT_EQ(s.reused_factor_directions, 0);
}

}  // namespace
}  // namespace fcsn
