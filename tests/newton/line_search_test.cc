// newton/line_search.h on model residuals DG(alpha) along a direction, with
// the merit theta(alpha) = 1/2 ||DG(alpha)||^2 and the declared slope
// theta'(0): every kind accepts what its test allows, rejects what it does
// not, and fails (success = false) within its budgets on an ascent direction.
#include "newton/line_search.h"

#include <gtest/gtest.h>

#include <cmath>
#include <deque>
#include <functional>
#include <limits>

namespace fcsn::internal {
namespace {

const Eigen::VectorXd kG0 = (Eigen::VectorXd(3) << 1.0, -2.0, 0.5).finished();
const double kTheta0 = 0.5 * kG0.squaredNorm();

// A residual along the direction: DG(alpha) = shape(alpha) G0.
struct Model {
  std::function<double(double)> shape;
  Eigen::VectorXd value;
  int calls = 0;
  const Eigen::VectorXd& operator()(double alpha) {
    ++calls;
    value = shape(alpha) * kG0;
    return value;
  }
  double Merit(double alpha) const {
    const double s = shape(alpha);
    return s * s * kTheta0;
  }
};

LineSearchResult Search(LineSearchType type,
                        Model* model,
                        double slope,
                        std::deque<double> recent = {kTheta0},
                        LineSearchOptions options = {}) {
  options.type = type;
  return RunLineSearch(options,
                       kG0,
                       slope,
                       recent,
                       [model](double alpha) -> const Eigen::VectorXd& {
                         return (*model)(alpha);
                       });
}

// Exact Newton direction on a linear residual: theta'(0) = -2 theta(0).
TEST(LineSearchTest, EveryKindTakesTheFullNewtonStepOnALinearResidual) {
  for (LineSearchType type : {LineSearchType::kNone,
                              LineSearchType::kArmijo,
                              LineSearchType::kNonMonotone,
                              LineSearchType::kGoldstein}) {
    Model model{[](double a) { return 1.0 - a; }};
    const LineSearchResult result = Search(type, &model, -2 * kTheta0);
    SCOPED_TRACE(ToString(type));
    EXPECT_TRUE(result.success);
    EXPECT_EQ(result.alpha, 1.0);
    EXPECT_LE(result.trials, 1);
  }
}

// An overshooting step: theta(1) = 100 theta(0). Armijo backtracks to a step
// that satisfies its test; the accepted merit is checked against the model.
TEST(LineSearchTest, ArmijoBacktracksToSufficientDecrease) {
  Model model{[](double a) { return 1.0 - a + 10.0 * a * a; }};
  const double slope = -2 * kTheta0;
  const LineSearchResult result =
      Search(LineSearchType::kArmijo, &model, slope);
  ASSERT_TRUE(result.success);
  EXPECT_LT(result.alpha, 1.0);
  EXPECT_GT(result.trials, 1);
  const LineSearchOptions defaults;
  EXPECT_LE(model.Merit(result.alpha),
            kTheta0 + defaults.sufficient_decrease * result.alpha * slope);
}

// A step that raises the merit a little: Armijo must backtrack, the
// non-monotone search accepts it against an older, larger merit.
TEST(LineSearchTest, NonMonotoneAcceptsAnIncreaseBelowTheRecentMaximum) {
  Model model{
      [](double a) { return 1.0 + 0.1 * a; }};  // theta(1) = 1.21 theta0
  const double slope = -2 * kTheta0;            // as declared by Newton
  const std::deque<double> recent = {4.0 * kTheta0, kTheta0};
  Model armijo_model = model;
  const LineSearchResult armijo =
      Search(LineSearchType::kArmijo, &armijo_model, slope, recent);
  EXPECT_FALSE(armijo.success && armijo.alpha == 1.0);
  const LineSearchResult non_monotone =
      Search(LineSearchType::kNonMonotone, &model, slope, recent);
  EXPECT_TRUE(non_monotone.success);
  EXPECT_EQ(non_monotone.alpha, 1.0);
}

// Goldstein: the declared slope underestimates the decrease (theta'(0) =
// -0.1 theta(0) while the residual is linear, zero at alpha = 1): alpha = 0.05
// decreases too much for the m2 side, so the search extrapolates; what it
// accepts satisfies both inequalities.
TEST(LineSearchTest, GoldsteinAcceptsOnlyInsideItsBracket) {
  Model model{[](double a) { return 1.0 - a; }};
  const double slope = -0.1 * kTheta0;
  LineSearchOptions options;
  const LineSearchResult result =
      Search(LineSearchType::kGoldstein, &model, slope, {kTheta0}, options);
  ASSERT_TRUE(result.success);
  const double delta = model.Merit(result.alpha) - kTheta0;
  EXPECT_LE(delta, options.goldstein_m1 * result.alpha * slope);
  EXPECT_GE(delta, options.goldstein_m2 * result.alpha * slope);
}

// A direction of ascent for every alpha > 0: each search fails within
// max_trials and reports the last step it tried.
TEST(LineSearchTest, EveryMonotoneKindFailsOnAnAscentDirection) {
  for (LineSearchType type : {LineSearchType::kArmijo,
                              LineSearchType::kNonMonotone,
                              LineSearchType::kGoldstein}) {
    Model model{[](double a) { return 1.0 + a; }};
    LineSearchOptions options;
    options.max_trials = 12;
    const LineSearchResult result =
        Search(type, &model, -2 * kTheta0, {kTheta0}, options);
    SCOPED_TRACE(ToString(type));
    EXPECT_FALSE(result.success);
    EXPECT_LE(result.trials, options.max_trials);
    EXPECT_EQ(model.calls, result.trials);
    EXPECT_GT(result.alpha, 0.0);
    EXPECT_LT(result.alpha, 1.0);
  }
}

// min_step ends the search before max_trials when the steps get too small.
TEST(LineSearchTest, MinStepEndsTheSearch) {
  Model model{[](double a) { return 1.0 + a; }};
  LineSearchOptions options;
  options.max_trials = 1000;
  options.min_step = 1e-3;
  const LineSearchResult result =
      Search(LineSearchType::kArmijo, &model, -2 * kTheta0, {kTheta0}, options);
  EXPECT_FALSE(result.success);
  EXPECT_LT(result.trials, 20);  // shrink >= x10 per trial: 1 -> 1e-3 in <= 10
}

// A residual that is not finite beyond alpha = 0.3 (e.g. an overflow): the
// search backtracks past it and accepts a finite, decreasing step.
TEST(LineSearchTest, NonFiniteTrialsAreRejected) {
  Model model{[](double a) {
    return a > 0.3 ? std::numeric_limits<double>::quiet_NaN() : 1.0 - a;
  }};
  const LineSearchResult result =
      Search(LineSearchType::kArmijo, &model, -2 * kTheta0);
  ASSERT_TRUE(result.success);
  EXPECT_LE(result.alpha, 0.3);
  EXPECT_LT(model.Merit(result.alpha), kTheta0);
}

}  // namespace
}  // namespace fcsn::internal
