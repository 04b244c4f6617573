// The round-off floor s_eps of the criterion (docs/criterion.md) across the
// solves of one Solver: a time step with the same M and H judges its points
// with the floor of the previous step's answer where the other velocity
// scales exceed it 100 times (no solve with M for it), and the measures it
// reports are then those of a measurement in full; a changed M has its floor
// solved for again (a point at rest: tests/problem/earlier_floor_test.cc).
#include <gtest/gtest.h>

#include "fcsn/error_measures.h"
#include "fcsn/solver.h"
#include "problem/error_measures_detail.h"
#include "test_problems.h"

namespace fcsn {
namespace {

// A sliding lattice block: every point of its solves moves far above s_eps.
GlobalProblem SlidingBlock() {
  return testing::MakeLatticeOnFloor(4, 3, 2, /*mu=*/0.3, /*pull_ratio=*/1.5);
}

// The same step under a larger pull: M and H unchanged, the answer moves.
GlobalProblem NextStep(const GlobalProblem& p) {
  GlobalProblem next = p;
  next.f *= 1.25;
  return next;
}

void ExpectMeasuredInFull(const SolverSummary& summary,
                          const GlobalProblem& p,
                          const Solution& x) {
  const ErrorMeasures full = ComputeErrorMeasures(p, x.v, x.r);
  EXPECT_DOUBLE_EQ(summary.velocity_scale, full.velocity_scale);
  EXPECT_DOUBLE_EQ(summary.e_dual, full.e_dual);
  EXPECT_DOUBLE_EQ(summary.e_comp, full.e_comp);
  EXPECT_DOUBLE_EQ(summary.e_cone, full.e_cone);
}

TEST(KeptFloorTest, AWarmStepJudgesWithTheLastAnswersFloor) {
  const GlobalProblem p = SlidingBlock();
  Solver solver(SolverOptions{});
  Solution x;
  const SolverSummary first = solver.Solve(p, nullptr, &x);
  ASSERT_TRUE(first.IsConverged()) << first.BriefReport();

  const GlobalProblem next = NextStep(p);
  const SolverSummary second = solver.Solve(next, &x, &x);
  ASSERT_TRUE(second.IsConverged()) << second.BriefReport();
  const ErrorMeasures full = ComputeErrorMeasures(next, x.v, x.r);
  // The new answer has another floor: the reported one is the last answer's.
  ASSERT_NE(full.velocity_floor, first.velocity_floor);
  EXPECT_EQ(second.velocity_floor, first.velocity_floor);
  ASSERT_LE(internal::kEarlierFloorMargin * first.velocity_floor,
            full.velocity_scale);
  // Far below the other scales, it leaves the verdict's measures as they are.
  ExpectMeasuredInFull(second, next, x);
}

TEST(KeptFloorTest, AChangedMSolvesForItsFloor) {
  const GlobalProblem p = SlidingBlock();
  Solver solver(SolverOptions{});
  Solution x;
  const SolverSummary first = solver.Solve(p, nullptr, &x);
  ASSERT_TRUE(first.IsConverged()) << first.BriefReport();

  GlobalProblem heavier = NextStep(p);
  heavier.M *= 1.5;
  const SolverSummary second = solver.Solve(heavier, &x, &x);
  ASSERT_TRUE(second.IsConverged()) << second.BriefReport();
  // Solved for in this solve (at an iterate or the answer), not carried.
  EXPECT_NE(second.velocity_floor, first.velocity_floor);
  ExpectMeasuredInFull(second, heavier, x);
}

}  // namespace
}  // namespace fcsn
