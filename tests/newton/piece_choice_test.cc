// The pieces of Newton's next model (newton/piece_choice.h): a slip whose
// s_T reversed across a step sticks; while a front moves, contacts that the
// last step repeated would put outside their disk slip, no more of them than
// the step itself added; no look-ahead below kLookAheadError, after a
// rising merit, or without a step.
#include "newton/piece_choice.h"

#include <gtest/gtest.h>

#include <vector>

namespace fcsn::internal {
namespace {

using P = DiskPiece;

// s_T of four contacts, each along +x or -x.
Eigen::VectorXd St(std::vector<double> x) {
  Eigen::VectorXd s = Eigen::VectorXd::Zero(2 * x.size());
  for (size_t a = 0; a < x.size(); ++a) s(2 * a) = x[a];
  return s;
}

const Eigen::VectorXd kStep = Eigen::VectorXd::Ones(5);  // any step

std::vector<P> Model(const PieceChoice& choice, size_t nc) {
  const P* pieces = choice.Prescribed();
  if (pieces == nullptr) return {};
  return std::vector<P>(pieces, pieces + nc);
}

TEST(PieceChoiceTest, NothingBeforeTheFirstStep) {
  PieceChoice choice;
  choice.Start(/*warm_started=*/true);
  EXPECT_FALSE(choice.Begin({P::kSlip, P::kStick}, St({1, 1}), 1.0, 0.5));
  EXPECT_EQ(choice.Prescribed(), nullptr);
}

TEST(PieceChoiceTest, ASlipThatReversedSticks) {
  PieceChoice choice;
  choice.Start(/*warm_started=*/true);
  const std::vector<P> pieces = {P::kSlip, P::kSlip, P::kStick, P::kNone};
  choice.Begin(pieces, St({1, 1, 1, 1}), 1.0, 1e-3);
  choice.StepTaken(kStep);
  // Contact 0 reversed; 1 kept its direction; 2 was not slipping in the
  // model; 3 is open.
  EXPECT_FALSE(choice.Begin(pieces, St({-1, 2, -1, -1}), 0.5, 1e-3));
  EXPECT_EQ(Model(choice, 4),
            (std::vector<P>{P::kStick, P::kSlip, P::kStick, P::kNone}));
  // The next step's model held contact 0 stuck: a slip there by point is
  // not a reversal of that model.
  choice.StepTaken(kStep);
  EXPECT_FALSE(choice.Begin(pieces, St({1, 2, 1, 1}), 0.2, 1e-3));
  EXPECT_EQ(choice.Prescribed(), nullptr);
}

TEST(PieceChoiceTest, LookAheadAddsNoMoreSlipsThanTheStepDid) {
  PieceChoice choice;
  choice.Start(/*warm_started=*/true);
  const Eigen::VectorXd s = St({-1, -1, -1, 1, 1, 1});
  const Eigen::VectorXd step = Eigen::VectorXd::Ones(7);
  choice.Begin(
      {P::kSlip, P::kStick, P::kStick, P::kStick, P::kStick, P::kStick},
      s,
      1.0,
      0.1);
  choice.StepTaken(step);
  // The step added one slip (contact 1): a look-ahead adding one applies.
  const std::vector<P> one = {
      P::kSlip, P::kSlip, P::kStick, P::kStick, P::kStick, P::kStick};
  ASSERT_TRUE(choice.Begin(one, s, 0.6, 0.1));
  EXPECT_EQ(choice.last_step(), step);
  choice.LookAhead(
      one, {P::kSlip, P::kSlip, P::kSlip, P::kStick, P::kStick, P::kStick});
  EXPECT_EQ(
      Model(choice, 6),
      (std::vector<P>{
          P::kSlip, P::kSlip, P::kSlip, P::kStick, P::kStick, P::kStick}));
  choice.StepTaken(step);
  // The model had 3 slip pieces and the point has 4: the step added one, and
  // a look-ahead adding two is refused.
  const std::vector<P> four = {
      P::kSlip, P::kSlip, P::kSlip, P::kSlip, P::kStick, P::kStick};
  ASSERT_TRUE(choice.Begin(four, s, 0.4, 0.1));
  choice.LookAhead(
      four, {P::kSlip, P::kSlip, P::kSlip, P::kSlip, P::kSlip, P::kSlip});
  EXPECT_EQ(choice.Prescribed(), nullptr);
}

TEST(PieceChoiceTest, NoLookAheadInTheTailOrWhenTheMeritRises) {
  const Eigen::VectorXd s = St({-1, -1, 1, 1});
  const std::vector<P> before = {P::kSlip, P::kStick, P::kStick, P::kStick};
  const std::vector<P> after = {P::kSlip, P::kSlip, P::kStick, P::kStick};
  {
    PieceChoice choice;
    choice.Start(/*warm_started=*/true);
    choice.Begin(before, s, 1.0, 0.1);
    choice.StepTaken(kStep);
    EXPECT_FALSE(choice.Begin(after, s, 0.6, 0.5 * kLookAheadError));
  }
  {
    PieceChoice choice;
    choice.Start(/*warm_started=*/true);
    choice.Begin(before, s, 1.0, 0.1);
    choice.StepTaken(kStep);
    EXPECT_FALSE(choice.Begin(after, s, 1.5, 0.1));  // the merit rose
  }
  {
    PieceChoice choice;
    choice.Start(/*warm_started=*/true);
    choice.Begin(before, s, 1.0, 0.1);
    choice.StepTaken(kStep);
    EXPECT_FALSE(choice.Begin(before, s, 0.6, 0.1));  // no slip added
  }
}

TEST(PieceChoiceTest, NothingFromAColdStart) {
  PieceChoice choice;
  choice.Start(/*warm_started=*/false);
  choice.Begin({P::kSlip, P::kStick, P::kStick, P::kStick},
               St({-1, -1, 1, 1}),
               1.0,
               0.1);
  choice.StepTaken(kStep);
  // A look-ahead's conditions hold and contact 0 reversed: neither rule.
  EXPECT_FALSE(choice.Begin(
      {P::kSlip, P::kSlip, P::kStick, P::kStick}, St({1, -1, 1, 1}), 0.6, 0.1));
  EXPECT_EQ(choice.Prescribed(), nullptr);
}

TEST(PieceChoiceTest, ARisingMeritAfterALookAheadEndsThem) {
  PieceChoice choice;
  choice.Start(/*warm_started=*/true);
  const Eigen::VectorXd s = St({-1, -1, -1, 1, 1, 1});
  choice.Begin(
      {P::kSlip, P::kStick, P::kStick, P::kStick, P::kStick, P::kStick},
      s,
      1.0,
      0.1);
  choice.StepTaken(Eigen::VectorXd::Ones(7));
  const std::vector<P> three = {
      P::kSlip, P::kSlip, P::kSlip, P::kStick, P::kStick, P::kStick};
  ASSERT_TRUE(choice.Begin(three, s, 0.6, 0.1));
  choice.LookAhead(
      three, {P::kSlip, P::kSlip, P::kSlip, P::kSlip, P::kStick, P::kStick});
  ASSERT_NE(choice.Prescribed(), nullptr);
  choice.StepTaken(Eigen::VectorXd::Ones(7));
  // The merit rose after the look-ahead: none from now on, even while the
  // front moves and the merit falls again.
  EXPECT_FALSE(choice.Begin(
      {P::kSlip, P::kSlip, P::kSlip, P::kSlip, P::kSlip, P::kStick},
      s,
      0.7,
      0.1));
  choice.StepTaken(Eigen::VectorXd::Ones(7));
  EXPECT_FALSE(
      choice.Begin({P::kSlip, P::kSlip, P::kSlip, P::kSlip, P::kSlip, P::kSlip},
                   s,
                   0.3,
                   0.1));
  // Reset forgets the step.
  choice.Reset();
  EXPECT_FALSE(
      choice.Begin({P::kSlip, P::kSlip, P::kSlip, P::kSlip, P::kSlip, P::kSlip},
                   s,
                   0.3,
                   0.1));
}

}  // namespace
}  // namespace fcsn::internal
