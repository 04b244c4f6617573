#include "newton/line_search.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fcsn::internal {
namespace {

// Largest step the Goldstein extrapolation may try: beyond a few full Newton
// steps the local model behind the direction no longer says anything.
constexpr double kMaxExtrapolatedStep = 8.0;

// Minimizer of q(t) = theta0 + slope t + c t^2 through q(alpha) = theta0 +
// delta, clamped.
double Backtrack(const LineSearchOptions& options,
                 double alpha,
                 double slope,
                 double delta) {
  const double curvature = (delta - slope * alpha) / (alpha * alpha);
  double next = options.max_shrink * alpha;
  if (curvature > 0.0) next = -slope / (2.0 * curvature);
  return std::clamp(
      next, options.min_shrink * alpha, options.max_shrink * alpha);
}

}  // namespace

LineSearchResult RunLineSearch(
    const LineSearchOptions& options,
    const Eigen::VectorXd& DG0,
    double slope,
    const std::deque<double>& recent_merits,
    const std::function<const Eigen::VectorXd&(double)>& evaluate) {
  LineSearchResult result;
  const double theta0 = 0.5 * DG0.squaredNorm();
  auto delta_at = [&](double alpha) {
    const Eigen::VectorXd& DG = evaluate(alpha);
    ++result.trials;
    const double delta = 0.5 * (DG - DG0).dot(DG + DG0);
    return std::isfinite(delta) ? delta
                                : std::numeric_limits<double>::infinity();
  };

  double alpha = 1.0;
  switch (options.type) {
    case LineSearchType::kNone: {
      delta_at(alpha);
      result.success = true;
      result.alpha = alpha;
      return result;
    }
    case LineSearchType::kArmijo:
    case LineSearchType::kNonMonotone: {
      double reference = 0.0;  // allowed increase over theta0
      if (options.type == LineSearchType::kNonMonotone) {
        for (double merit : recent_merits)
          reference = std::max(reference, merit - theta0);
      }
      while (result.trials < options.max_trials && alpha >= options.min_step) {
        const double delta = delta_at(alpha);
        result.alpha = alpha;
        if (delta <= reference + options.sufficient_decrease * alpha * slope) {
          result.success = true;
          return result;
        }
        alpha = std::isfinite(delta) ? Backtrack(options, alpha, slope, delta)
                                     : options.min_shrink * alpha;
      }
      return result;
    }
    case LineSearchType::kGoldstein: {
      double lo = 0.0;
      double hi = std::numeric_limits<double>::infinity();
      while (result.trials < options.max_trials && alpha >= options.min_step) {
        const double delta = delta_at(alpha);
        result.alpha = alpha;
        if (delta > options.goldstein_m1 * alpha *
                        slope) {  // too little decrease: too long
          hi = alpha;
          alpha = std::isfinite(delta) ? Backtrack(options, alpha, slope, delta)
                                       : options.min_shrink * alpha;
          alpha = std::max(alpha, lo + options.min_shrink * (hi - lo));
        } else if (delta < options.goldstein_m2 * alpha *
                               slope) {  // too much decrease: too short
          lo = alpha;
          if (std::isinf(hi)) {
            if (2.0 * alpha > kMaxExtrapolatedStep) {
              result.success = true;
              return result;
            }
            alpha *= 2.0;
          } else {
            alpha = 0.5 * (lo + hi);
          }
        } else {
          result.success = true;
          return result;
        }
      }
      return result;
    }
  }
  return result;
}

}  // namespace fcsn::internal
