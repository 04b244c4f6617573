// The cold start of a gravity-settling step of the coarse masonry wall
// (SolverOptions::cold_start, issue 17): its contacts are closed with w_N
// zero up to round-off, so from v = 0 the sign of round-off picks which
// contacts Newton's first step closes; from the free-flight point (auto takes
// it here) the applied forces decide, and Newton needs a fraction of the
// iterations (13 -> 5 when this test was written; bench/results/
// gravity_steps.md).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "fcsn/options.h"
#include "fcsn/problem.h"
#include "fcsn/solver.h"
#include "masonry_wall_model.h"

namespace fcsn::masonry {
namespace {

// The problem of step `step` of the coarse wall, the earlier steps solved
// warm as the example does.
GlobalProblem GravityStep(int step) {
  std::string error;
  WallOptions wall_options = WallOptions::Coarse();
  wall_options.num_steps = step;
  std::unique_ptr<MasonryWall> wall = MasonryWall::Create(wall_options, &error);
  EXPECT_NE(wall, nullptr) << error;
  GlobalProblem problem;
  if (wall == nullptr) return problem;
  SolverOptions options;
  options.solver = SolverType::kNewton;
  options.tolerance = 1e-10;
  Solver solver(options);
  Solution solution;
  for (int k = 1; k < step; ++k) {
    wall->BuildStepProblem(&problem);
    const Solution guess = wall->last_solution();
    EXPECT_TRUE(solver.Solve(problem, &guess, &solution).IsConverged());
    EXPECT_TRUE(wall->Advance(solution, &error)) << error;
  }
  wall->BuildStepProblem(&problem);
  return problem;
}

SolverSummary ColdSolve(const GlobalProblem& problem, ColdStart cold_start) {
  SolverOptions options;
  options.solver = SolverType::kNewton;
  options.tolerance = 1e-10;
  options.cold_start = cold_start;
  Solution solution;
  return Solver(options).Solve(problem, nullptr, &solution);
}

TEST(MasonryColdStartTest, FreeFlightSettlesAGravityStepInFewIterations) {
  const GlobalProblem problem = GravityStep(3);
  ASSERT_GT(problem.nc(), 0);
  // The premise: w is round-off (closed gaps).
  EXPECT_LT(problem.w.lpNorm<Eigen::Infinity>(), 1e-15);
  const SolverSummary zero = ColdSolve(problem, ColdStart::kZero);
  const SolverSummary automatic = ColdSolve(problem, ColdStart::kAuto);
  ASSERT_TRUE(zero.IsConverged()) << zero.BriefReport();
  ASSERT_TRUE(automatic.IsConverged()) << automatic.BriefReport();
  // At most half of the zero start's iterations (13 -> 5 when written).
  EXPECT_LE(2 * automatic.iterations, zero.iterations)
      << automatic.iterations << " vs " << zero.iterations;
}

}  // namespace
}  // namespace fcsn::masonry
