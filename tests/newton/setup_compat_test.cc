// Code written for fcsn 27892dd, where Solver::Setup() returned a
// SolverSummary whose kConverged meant "ready", still compiles (with a
// deprecation warning, silenced here) and behaves as it did.
#include <gtest/gtest.h>

#include "fcsn/solver.h"
#include "test_problems.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace fcsn {
namespace {

TEST(SetupCompatTest, OldStyleSetupStillMeansReadyAsConverged) {
  const GlobalProblem problem = testing::MakeLatticeOnFloor(3, 2, 2, 0.3, 0.8);
  Solver solver;
  const SolverSummary ready = solver.Setup(problem);
  EXPECT_EQ(ready.status, SolverStatus::kConverged) << ready.message;
  EXPECT_EQ(ready.analyses, 1);

  GlobalProblem broken = problem;
  broken.mu[0] = -1.0;
  const SolverSummary rejected = solver.Setup(broken);
  EXPECT_EQ(rejected.status, SolverStatus::kInvalidInput);
  EXPECT_FALSE(rejected.message.empty());
}

}  // namespace
}  // namespace fcsn
