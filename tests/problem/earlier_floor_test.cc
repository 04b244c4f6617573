// The floor s_eps of an earlier iterate (problem/error_measures_detail.h,
// internal::EarlierFloor): reported without a solve with M where the other
// velocity scales exceed it kEarlierFloorMargin times, the measures then
// equal the exact ones; solved for again (and kept) where they do not, as
// at rest.
#include <gtest/gtest.h>

#include <Eigen/Dense>

#include "fcsn/error_measures.h"
#include "problem/error_measures_detail.h"
#include "test_problems.h"

namespace fcsn {
namespace {

struct CountingSolve {
  Eigen::LDLT<Eigen::MatrixXd> ldlt;
  int calls = 0;
  MSolveFunction Function() {
    return [this](const Eigen::VectorXd& b, Eigen::VectorXd* x) {
      ++calls;
      *x = ldlt.solve(b);
      return true;
    };
  }
};

void ExpectSameMeasures(const ErrorMeasures& a, const ErrorMeasures& b) {
  EXPECT_EQ(a.e_cone, b.e_cone);
  EXPECT_EQ(a.e_dual, b.e_dual);
  EXPECT_EQ(a.e_comp, b.e_comp);
  EXPECT_EQ(a.e_eq, b.e_eq);
  EXPECT_EQ(a.velocity_scale, b.velocity_scale);
}

TEST(EarlierFloorTest, ServesMovingPointsAndIsSolvedForAgainAtRest) {
  const GlobalProblem p = testing::MakeLatticeOnFloor(3, 2, 2, 0.3, 0.8, 0.0);
  CountingSolve solve;
  solve.ldlt.compute(Eigen::MatrixXd(p.M));
  const MSolveFunction m_solve = solve.Function();
  const Eigen::VectorXd v0 = Eigen::VectorXd::LinSpaced(p.n(), -1.0, 2.0);
  const Eigen::VectorXd v1 = 0.5 * v0.reverse();
  const Eigen::VectorXd r = Eigen::VectorXd::LinSpaced(p.m(), 0.1, 1.0);

  internal::EarlierFloor floor;
  const ErrorMeasures first =
      internal::ComputeErrorMeasures(p, v0, r, m_solve, 0.0, &floor);
  EXPECT_EQ(solve.calls, 1);
  ASSERT_TRUE(floor.known);
  EXPECT_EQ(floor.velocity_floor, first.velocity_floor);
  ASSERT_GT(first.velocity_floor, 0.0);
  ASSERT_LE(internal::kEarlierFloorMargin * first.velocity_floor,
            first.velocity_scale);

  // Another moving point: the earlier floor serves, no solve.
  const ErrorMeasures second =
      internal::ComputeErrorMeasures(p, v1, r, m_solve, 0.0, &floor);
  EXPECT_EQ(solve.calls, 1);
  const ErrorMeasures exact =
      internal::ComputeErrorMeasures(p, v1, r, m_solve, 0.0, nullptr);
  EXPECT_EQ(solve.calls, 2);
  ExpectSameMeasures(second, exact);

  // At rest (v = 0, w = 0) the floor is the scale of u: solved for again,
  // and kept.
  GlobalProblem rest = p;
  rest.w.setZero();
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(p.n());
  const ErrorMeasures at_rest =
      internal::ComputeErrorMeasures(rest, zero, r, m_solve, 0.0, &floor);
  EXPECT_EQ(solve.calls, 3);
  EXPECT_EQ(floor.velocity_floor, at_rest.velocity_floor);
  ExpectSameMeasures(
      at_rest,
      internal::ComputeErrorMeasures(rest, zero, r, m_solve, 0.0, nullptr));
}

}  // namespace
}  // namespace fcsn
