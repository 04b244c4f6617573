// The front detector (newton/front_detector.h) and the transport sweep
// (newton/transport_sweep.h) on their own; the whole method on pushed
// chains is tests/examples/pushed_chain_test.cc.
#include "newton/transport_sweep.h"

#include <gtest/gtest.h>

#include <vector>

#include "fcsn/error_measures.h"
#include "linalg/m_factorization.h"
#include "minverse/rho.h"
#include "newton/front_detector.h"
#include "pushed_chain_model.h"

namespace fcsn::internal {
namespace {

using S = ContactStatus;

TEST(FrontDetectorTest, OneSwitchPerSlowIterationIsAFront) {
  FrontDetector front;
  std::vector<S> states(6, S::kStick);
  EXPECT_FALSE(front.Update(states, 1.0));  // no previous iterate
  for (int k = 0; k < kFrontWindow; ++k) {
    states[k] = S::kSlip;  // one more contact slips, merit falls slowly
    const bool seen = front.Update(states, 0.9 - 0.01 * k);
    EXPECT_EQ(seen, k + 1 == kFrontWindow) << k;
  }
  // The window starts anew after a report.
  states[4] = S::kSlip;
  EXPECT_FALSE(front.Update(states, 0.8));
}

TEST(FrontDetectorTest, FastDecreaseNoChangeOrManyChangesAreNot) {
  std::vector<S> states(6, S::kStick);
  FrontDetector fast;
  fast.Update(states, 1.0);
  for (int k = 0; k < 5; ++k) {
    states[k] = S::kSlip;
    EXPECT_FALSE(fast.Update(states, 1e-2 / (k + 1) / (k + 1) / 100));
  }
  FrontDetector settled;
  std::vector<S> same(6, S::kStick);
  for (int k = 0; k < 5; ++k) EXPECT_FALSE(settled.Update(same, 1.0));
  FrontDetector many;
  std::vector<S> flips(6, S::kStick);
  for (int k = 0; k < 5; ++k) {
    for (S& s : flips) s = s == S::kStick ? S::kSlip : S::kStick;
    EXPECT_FALSE(many.Update(flips, 1.0));
  }
}

// A pushed chain step whose front must run far: from the previous step's
// answer, one sweep reaches a point that meets the criterion, where Newton
// would need one iteration per contact the front crosses.
TEST(TransportSweepTest, OneSweepMovesTheWholeFront) {
  pushed_bodies::ChainOptions options;
  options.nodes = 200;
  options.ramp_steps = 4;  // the front crosses ~75 contacts per step
  pushed_bodies::Chain chain = pushed_bodies::MakeChain(options);
  const GlobalProblem p = pushed_bodies::StepProblem(options, chain, 2);
  MInverse m_inverse;
  m_inverse.Bind(p);
  ScalingData scaling;
  std::string error;
  ASSERT_TRUE(ComputeScaling(p, RhoOptions(), &scaling, &error, &m_inverse))
      << error;
  const TransportFunction sweep = MakeTransport(p, &m_inverse, NsgsOptions());
  ASSERT_TRUE(sweep);
  Eigen::VectorXd v = Eigen::VectorXd::Zero(p.n());
  Eigen::VectorXd r = Eigen::VectorXd::Zero(p.m());
  const ErrorMeasures before = ComputeErrorMeasures(p, v, r);
  ASSERT_TRUE(sweep(&v, &r));
  const ErrorMeasures after = ComputeErrorMeasures(p, v, r);
  EXPECT_GT(before.Worst(), 1e-2) << before.Describe();
  EXPECT_LT(after.Worst(), 1e-6) << after.Describe();
}

TEST(TransportSweepTest, NotOfferedWithoutRegularSymmetricFactors) {
  GlobalProblem p;
  p.M.resize(3, 3);
  p.M.insert(0, 0) = 1.0;
  p.M.insert(1, 1) = 1.0;  // M singular: M_22 = 0
  p.H.resize(3, 3);
  p.H.setIdentity();
  p.f = Eigen::Vector3d(0, 0, -1);
  p.w = Eigen::Vector3d::Zero();
  p.mu = Eigen::VectorXd::Constant(1, 0.3);
  MInverse m_inverse;
  m_inverse.Bind(p);
  ScalingData scaling;
  std::string error;
  ComputeScaling(p, RhoOptions(), &scaling, &error, &m_inverse);
  EXPECT_FALSE(MakeTransport(p, &m_inverse, NsgsOptions()));
}

}  // namespace
}  // namespace fcsn::internal
