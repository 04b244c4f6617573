// The cold start of gravity-settling steps of the coarse masonry wall
// (SolverOptions::cold_start): their contacts are closed with w_N
// zero up to round-off, so from v = 0 the sign of round-off picks which
// contacts Newton's first step closes. Free flight (v = M^-1 f) lets the
// applied forces decide instead; bonded (auto takes it here) starts every
// resting contact closed and sticking. Both need a fraction of the zero
// start's iterations (13-18 -> 4 at tol 1e-10 when this test was written;
// bench/results/gravity_steps.md).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "fcsn/options.h"
#include "fcsn/problem.h"
#include "fcsn/solver.h"
#include "masonry_wall_model.h"

namespace fcsn::masonry {
namespace {

SolverOptions NewtonAt(double tolerance) {
  SolverOptions options;
  options.solver = SolverType::kNewton;
  options.tolerance = tolerance;
  return options;
}

// The problem of step `step` of the wall (the coarse one unless given), the
// earlier steps solved warm as the example does.
GlobalProblem WallStep(int step,
                       WallOptions wall_options = WallOptions::Coarse(),
                       SolverOptions options = NewtonAt(1e-10)) {
  std::string error;
  wall_options.num_steps = step;
  std::unique_ptr<MasonryWall> wall = MasonryWall::Create(wall_options, &error);
  EXPECT_NE(wall, nullptr) << error;
  GlobalProblem problem;
  if (wall == nullptr) return problem;
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
  // The starts compared alone: with the tail boost (RhoOptions) the zero
  // start of one of these steps took 10 iterations, under 3 x the automatic
  // start's 4.
  options.rho.tail_boost_factor = 1.0;
  Solution solution;
  return Solver(options).Solve(problem, nullptr, &solution);
}

TEST(MasonryColdStartTest, GravityStepsSettleInFewIterations) {
  // Step 2: the first loaded step (w = 0 exactly, the free motion a rigid
  // fall, u_N round-off at the block-block contacts); step 3: w round-off.
  for (int step : {2, 3}) {
    SCOPED_TRACE("step " + std::to_string(step));
    const GlobalProblem problem = WallStep(step);
    ASSERT_GT(problem.nc(), 0);
    // The premise: w is round-off (closed gaps).
    EXPECT_LT(problem.w.lpNorm<Eigen::Infinity>(), 1e-15);
    const SolverSummary zero = ColdSolve(problem, ColdStart::kZero);
    const SolverSummary automatic = ColdSolve(problem, ColdStart::kAuto);
    ASSERT_TRUE(zero.IsConverged()) << zero.BriefReport();
    ASSERT_TRUE(automatic.IsConverged()) << automatic.BriefReport();
    // A few iterations, at most half of the zero start's (4 vs 18 and 4 vs
    // 13 at this tolerance when written; the zero start's count moves with
    // round-off: 11 on step 3 with one BLAS thread instead of two).
    EXPECT_LE(automatic.iterations, 6);
    EXPECT_LE(2 * automatic.iterations, zero.iterations)
        << automatic.iterations << " vs " << zero.iterations;
  }
  // Free flight on step 3 (not on step 2, where the free motion leaves the
  // block-block contacts at round-off): at most half.
  const GlobalProblem problem = WallStep(3);
  const SolverSummary zero = ColdSolve(problem, ColdStart::kZero);
  const SolverSummary free = ColdSolve(problem, ColdStart::kFreeFlight);
  ASSERT_TRUE(free.IsConverged()) << free.BriefReport();
  EXPECT_LE(2 * free.iterations, zero.iterations)
      << free.iterations << " vs " << zero.iterations;
}

TEST(MasonryColdStartTest, TheFirstShearStepStartsAtTheFreeFlight) {
  // Step 22 of the deck's wall (688 contacts): the shear load's first step
  // after the wall settled. From v = 0 its resting contacts start bonded,
  // those the free flight separates pull and open, and the slip set
  // overshoots: 7 iterations at tol 1e-8 (16 and 31 at refine 3 and 4); from
  // the free flight 3 (3 and 5 there; bench/results/fronts.md).
  // The earlier steps as `masonry_wall --tolerance 1e-8 --solver hybrid`
  // solves them (its settled wall has real gaps where Newton at 1e-10 closes
  // them, and there the start from v = 0 took 2 iterations).
  SolverOptions time_loop;
  time_loop.tolerance = 1e-8;
  const GlobalProblem problem = WallStep(22, WallOptions(), time_loop);
  ASSERT_EQ(problem.nc(), 688);
  // The premise: off rest (the auto rule's bonded start does not apply).
  ASSERT_GT(problem.w.lpNorm<Eigen::Infinity>(), 1e-12);
  SolverOptions options;
  options.tolerance = 1e-8;
  Solution solution;
  const SolverSummary automatic =
      Solver(options).Solve(problem, nullptr, &solution);
  ASSERT_TRUE(automatic.IsConverged()) << automatic.BriefReport();
  EXPECT_LE(automatic.iterations, 5);
}

}  // namespace
}  // namespace fcsn::masonry
