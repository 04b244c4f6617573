// Tests of the default policy (SolverType::kHybrid: NSGS warm start, Newton,
// NSGS fallback) and of pure NSGS through the public Solver, on rigid
// hyperstatic problems where r is not unique: solutions are compared through v
// and H r, never r alone.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "fcsn/fclib_io.h"
#include "fcsn/solver.h"
#include "test_problems.h"
#include "test_util.h"

namespace fcsn {
namespace {

GlobalProblem LoadBoxStacks() {
  GlobalProblem problem;
  FclibFileInfo info;
  std::string error;
  EXPECT_TRUE(
      ReadGlobalProblem(testing::SharedProblem("Box_Stacks-i0122-82-5.hdf5"),
                        ReadOptions(),
                        &problem,
                        &info,
                        &error))
      << error;
  return problem;
}

TEST(HybridTest, DefaultPolicyIsTheHybrid) {
  EXPECT_EQ(SolverOptions().solver, SolverType::kHybrid);
  EXPECT_EQ(SolverOptions().hybrid.warm_sweeps, 100);
}

// Box_Stacks: Siconos' global Newton fails on it (1 iteration, error 1e-2); the
// default must not.
TEST(HybridTest, DefaultSolvesBoxStacks) {
  const GlobalProblem problem = LoadBoxStacks();
  for (double tol : {1e-8, 1e-10}) {
    SolverOptions options;
    options.tolerance = tol;
    Solver solver(options);
    Solution x;
    const SolverSummary s = solver.Solve(problem, nullptr, &x);
    EXPECT_EQ(s.status, SolverStatus::kConverged) << s.FullReport();
    EXPECT_LE(s.WorstError(), tol);
  }
}

// The three policies agree on v and H r (r itself is not unique on Box_Stacks).
TEST(HybridTest, PoliciesAgreeOnVelocitiesAndForcesOfBoxStacks) {
  const GlobalProblem problem = LoadBoxStacks();
  Solution reference;
  bool have_reference = false;
  for (SolverType type : kAllSolverTypes) {
    SolverOptions options;
    options.solver = type;
    options.tolerance = 1e-11;
    Solver solver(options);
    Solution x;
    const SolverSummary s = solver.Solve(problem, nullptr, &x);
    ASSERT_EQ(s.status, SolverStatus::kConverged) << ToString(type) << "\n"
                                                  << s.FullReport();
    if (!have_reference) {
      reference = x;
      have_reference = true;
      continue;
    }
    EXPECT_LE(testing::RelativeDistance(x.v, reference.v), 1e-7)
        << ToString(type);
    EXPECT_LE(
        testing::RelativeDistance(problem.H * x.r, problem.H * reference.r),
        1e-7)
        << ToString(type);
  }
}

// A generated pile of rigid boxes with 4 redundant contacts per interface, at
// rest and pushed.
TEST(HybridTest, DefaultSolvesGeneratedBoxPiles) {
  for (int boxes : {1, 3, 6}) {
    for (double push : {0.0, 0.5, 2.0}) {
      const GlobalProblem problem = testing::MakeBoxStack(boxes, 0.4, push);
      Solver solver{SolverOptions()};
      Solution x;
      const SolverSummary s = solver.Solve(problem, nullptr, &x);
      EXPECT_EQ(s.status, SolverStatus::kConverged)
          << boxes << " boxes, push " << push << "\n"
          << s.FullReport();
      if (push == 0.0) {
        // At rest: the floor carries the whole weight impulse, nothing moves.
        double floor_normal = 0.0;
        for (int a = 0; a < 4; ++a) floor_normal += x.r[3 * a];
        EXPECT_NEAR(floor_normal, 9.81 * 1e-2 * boxes, 1e-8 * boxes);
        EXPECT_LE(x.v.norm(), 1e-8);
      }
    }
  }
}

// Without regularization pure Newton meets a singular J on Box_Stacks; the
// hybrid falls back to NSGS and still converges, and the summary says a
// fallback happened.
TEST(HybridTest, FallsBackToNsgsWhenNewtonFails) {
  const GlobalProblem problem = LoadBoxStacks();
  SolverOptions options;
  options.singular_regularization = 0.0;
  options.hybrid.warm_sweeps = 0;
  Solver solver(options);
  Solution x;
  const SolverSummary s = solver.Solve(problem, nullptr, &x);
  EXPECT_EQ(s.status, SolverStatus::kConverged) << s.FullReport();
  EXPECT_GE(s.fallbacks, 1) << s.FullReport();
  EXPECT_GT(s.nsgs_sweeps, 0);
  bool saw_nsgs = false;
  for (const IterationRecord& h : s.history)
    saw_nsgs = saw_nsgs || h.phase == IterationPhase::kNsgs;
  EXPECT_TRUE(saw_nsgs);
}

// Warm start on a pile that NSGS solves well (Box_Stacks: the worst measure
// drops 15x per 5 sweeps): the sweeps run to the switch tolerance and save
// Newton iterations from the zero start (4 against 7 at tol 1e-8; the margin
// of one iteration is for round-off between machines). (Box_Stacks rests, w = 0:
// the bonded start of the default auto gives Newton a start as good as the
// sweeps', which ColdStartTest covers.)
TEST(HybridTest, WarmStartRunsWhileNsgsContracts) {
  const GlobalProblem problem = LoadBoxStacks();
  SolverOptions options;
  options.tolerance = 1e-8;
  options.cold_start = ColdStart::kZero;
  const SolverSummary warm = Solver(options).Solve(problem, nullptr, nullptr);
  ASSERT_EQ(warm.status, SolverStatus::kConverged) << warm.FullReport();
  options.hybrid.warm_sweeps = 0;
  const SolverSummary cold = Solver(options).Solve(problem, nullptr, nullptr);
  ASSERT_EQ(cold.status, SolverStatus::kConverged) << cold.FullReport();
  // More sweeps than a stalling pile gets (WarmStartStopsOnPoorContraction).
  EXPECT_GT(warm.nsgs_sweeps, 2 * options.hybrid.warm_contraction_window)
      << warm.FullReport();
  EXPECT_LE(warm.iterations + 2, cold.iterations)
      << warm.FullReport() << cold.FullReport();
}

// Generated rigid piles of 8 and 16 boxes: NSGS stalls (the worst measure
// drops 5 % from sweep 5 to 10). The warm start stops after one window of
// poor contraction instead of spending its 100 sweeps, and still helps:
// without it Newton stalls and needs a fallback.
TEST(HybridTest, WarmStartStopsOnPoorContraction) {
  for (int boxes : {8, 16}) {
    const GlobalProblem problem = testing::MakeBoxStack(boxes, 0.5, 0.3);
    SolverOptions options;
    options.tolerance = 1e-8;
    const SolverSummary s = Solver(options).Solve(problem, nullptr, nullptr);
    ASSERT_EQ(s.status, SolverStatus::kConverged) << s.FullReport();
    const int window = options.hybrid.warm_contraction_window;
    EXPECT_GE(s.nsgs_sweeps, window) << boxes << " boxes";
    EXPECT_LE(s.nsgs_sweeps, 2 * window) << boxes << " boxes";
    EXPECT_EQ(s.fallbacks, 0);

    options.hybrid.warm_sweeps = 0;
    const SolverSummary cold = Solver(options).Solve(problem, nullptr, nullptr);
    ASSERT_EQ(cold.status, SolverStatus::kConverged) << cold.FullReport();
    EXPECT_LT(s.iterations, cold.iterations) << boxes << " boxes";

    options.hybrid.warm_sweeps = 100;
    options.hybrid.warm_contraction_window = 0;  // the test disabled
    const SolverSummary full = Solver(options).Solve(problem, nullptr, nullptr);
    EXPECT_EQ(full.nsgs_sweeps, 100) << full.FullReport();
  }
}

TEST(HybridTest, ValidateChecksTheContractionTest) {
  SolverOptions options;
  options.hybrid.warm_contraction_window = -1;
  EXPECT_NE(options.Validate().find("warm_contraction_window"),
            std::string::npos);
  options = SolverOptions();
  for (double ratio : {0.0, 1.5, std::nan("")}) {
    options.hybrid.warm_contraction_ratio = ratio;
    EXPECT_NE(options.Validate().find("warm_contraction_ratio"),
              std::string::npos)
        << ratio;
  }
  options.hybrid.warm_contraction_ratio = 1.0;  // stop only if no progress
  EXPECT_EQ(options.Validate(), "");
}

TEST(HybridTest, PureNsgsReachesModerateAccuracy) {
  const GlobalProblem problem =
      testing::MakeLatticeOnFloor(6, 5, 2, 0.3, 1.2, 0.1);
  SolverOptions options;
  options.solver = SolverType::kNsgs;
  options.tolerance = 1e-6;
  for (LocalSolverType local : kAllLocalSolverTypes) {
    options.nsgs.local_solver = local;
    Solver solver(options);
    Solution x;
    const SolverSummary s = solver.Solve(problem, nullptr, &x);
    EXPECT_EQ(s.status, SolverStatus::kConverged) << ToString(local) << "\n"
                                                  << s.FullReport();
    EXPECT_EQ(s.iterations, 0);
    EXPECT_EQ(s.factorizations, 0);
    EXPECT_GT(s.nsgs_sweeps, 0);
  }
}

}  // namespace
}  // namespace fcsn

namespace fcsn {
namespace {

// Time stepping: with the previous step's solution as the guess, the hybrid
// goes straight to Newton (HybridOptions::warm_sweeps_with_guess = 0) and never
// builds the Delassus operator.
TEST(HybridTest, AGuessSkipsTheNsgsWarmStart) {
  GlobalProblem problem = testing::MakeLatticeOnFloor(6, 5, 2, 0.3, 1.2, 0.1);
  Solver solver{SolverOptions()};
  Solution x;
  const SolverSummary cold = solver.Solve(problem, nullptr, &x);
  ASSERT_EQ(cold.status, SolverStatus::kConverged) << cold.FullReport();
  EXPECT_GT(cold.nsgs_sweeps, 0);
  problem.f *= 1.01;
  const SolverSummary warm = solver.Solve(problem, &x, &x);
  ASSERT_EQ(warm.status, SolverStatus::kConverged) << warm.FullReport();
  EXPECT_EQ(warm.nsgs_sweeps, 0) << warm.FullReport();
  EXPECT_LE(warm.iterations, 4) << warm.FullReport();
  EXPECT_EQ(warm.analyses, 0);
}

}  // namespace
}  // namespace fcsn
