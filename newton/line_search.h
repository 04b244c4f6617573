// newton/line_search.h: step-length selection for a Newton direction d on the merit
//
//   theta(alpha) = 1/2 ||D G(z + alpha d)||^2,
//   theta'(0)    = (D G)^T D J d   (= -2 theta(0) for an exact direction J d = -G,
//                                   whatever the positive diagonal weighting D)
//
// Tests (formulations.md §6), with Delta(alpha) = theta(alpha) - theta(0):
//   kArmijo:      Delta(alpha) <= sigma alpha theta'(0)
//   kNonMonotone: theta(alpha) <= max(last k merits) + sigma alpha theta'(0)
//   kGoldstein:   m2 alpha theta'(0) <= Delta(alpha) <= m1 alpha theta'(0);
//                 too little decrease -> shrink (alpha_max = alpha); too much
//                 (step too short) -> alpha_min = alpha, extrapolate while no
//                 upper bracket exists, bisect otherwise.
// Backtracking uses the minimizer of the quadratic through theta(0), theta'(0),
// theta(alpha), clamped to [min_shrink, max_shrink] * alpha. Delta is computed
// as 1/2 (DG_a - DG_0).(DG_a + DG_0) so that a small improvement of a large
// merit is not lost to cancellation.
#ifndef FCSN_NEWTON_LINE_SEARCH_H_
#define FCSN_NEWTON_LINE_SEARCH_H_

#include <Eigen/Core>
#include <deque>
#include <functional>

#include "fcsn/options.h"

namespace fcsn::internal {

struct LineSearchResult {
  bool success = false;
  double alpha = 0.0;  // accepted step (or the last one tried, on failure)
  int trials = 0;      // residual evaluations
};

// evaluate(alpha) evaluates the weighted residual D G(z + alpha d) and returns
// a reference to it; the reference must stay valid until the next call. DG0 is
// D G(z). recent_merits holds the merits of the last iterates (for
// kNonMonotone; the current one included). For kNone the full step is accepted
// after one evaluation.
// slope is theta'(0) (see above); it must be negative.
LineSearchResult RunLineSearch(
    const LineSearchOptions& options,
    const Eigen::VectorXd& DG0,
    double slope,
    const std::deque<double>& recent_merits,
    const std::function<const Eigen::VectorXd&(double)>& evaluate);

}  // namespace fcsn::internal

#endif  // FCSN_NEWTON_LINE_SEARCH_H_
