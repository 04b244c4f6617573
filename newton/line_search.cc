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

// Trial evaluations of one search: Delta(alpha) = theta(alpha) - theta(0),
// each counted in result->trials; a non-finite Delta is +inf.
class MeritChange {
 public:
  MeritChange(const Eigen::VectorXd& DG0,
              const std::function<const Eigen::VectorXd&(double)>& evaluate,
              LineSearchResult* result)
      : DG0_(DG0), evaluate_(evaluate), result_(result) {}
  double operator()(double alpha) const {
    const Eigen::VectorXd& DG = evaluate_(alpha);
    ++result_->trials;
    const double delta = 0.5 * (DG - DG0_).dot(DG + DG0_);
    return std::isfinite(delta) ? delta
                                : std::numeric_limits<double>::infinity();
  }

 private:
  const Eigen::VectorXd& DG0_;
  const std::function<const Eigen::VectorXd&(double)>& evaluate_;
  LineSearchResult* result_;
};

// kArmijo and kNonMonotone: backtrack until Delta(alpha) <= reference +
// sigma alpha theta'(0), reference the allowed increase over theta(0).
void Backtracking(const LineSearchOptions& options,
                  double slope,
                  double reference,
                  const MeritChange& delta_at,
                  LineSearchResult* result) {
  double alpha = 1.0;
  while (result->trials < options.max_trials && alpha >= options.min_step) {
    const double delta = delta_at(alpha);
    result->alpha = alpha;
    if (delta <= reference + options.sufficient_decrease * alpha * slope) {
      result->success = true;
      return;
    }
    alpha = std::isfinite(delta) ? Backtrack(options, alpha, slope, delta)
                                 : options.min_shrink * alpha;
  }
}

// kGoldstein: shrink while the decrease is too little (alpha too long),
// extrapolate or bisect while it is too much (alpha too short).
void Goldstein(const LineSearchOptions& options,
               double slope,
               const MeritChange& delta_at,
               LineSearchResult* result) {
  double alpha = 1.0;
  double lo = 0.0;
  double hi = std::numeric_limits<double>::infinity();
  while (result->trials < options.max_trials && alpha >= options.min_step) {
    const double delta = delta_at(alpha);
    result->alpha = alpha;
    if (delta > options.goldstein_m1 * alpha * slope) {  // too long
      hi = alpha;
      alpha = std::isfinite(delta) ? Backtrack(options, alpha, slope, delta)
                                   : options.min_shrink * alpha;
      alpha = std::max(alpha, lo + options.min_shrink * (hi - lo));
    } else if (delta < options.goldstein_m2 * alpha * slope) {  // too short
      lo = alpha;
      if (std::isinf(hi)) {
        if (2.0 * alpha > kMaxExtrapolatedStep) {
          result->success = true;
          return;
        }
        alpha *= 2.0;
      } else {
        alpha = 0.5 * (lo + hi);
      }
    } else {
      result->success = true;
      return;
    }
  }
}

}  // namespace

LineSearchResult RunLineSearch(
    const LineSearchOptions& options,
    const Eigen::VectorXd& DG0,
    double slope,
    const std::deque<double>& recent_merits,
    const std::function<const Eigen::VectorXd&(double)>& evaluate) {
  LineSearchResult result;
  const MeritChange delta_at(DG0, evaluate, &result);
  switch (options.type) {
    case LineSearchType::kNone:
      delta_at(1.0);
      result.success = true;
      result.alpha = 1.0;
      return result;
    case LineSearchType::kArmijo:
      Backtracking(options, slope, 0.0, delta_at, &result);
      return result;
    case LineSearchType::kNonMonotone: {
      const double theta0 = 0.5 * DG0.squaredNorm();
      double reference = 0.0;  // allowed increase over theta0
      for (double merit : recent_merits)
        reference = std::max(reference, merit - theta0);
      Backtracking(options, slope, reference, delta_at, &result);
      return result;
    }
    case LineSearchType::kGoldstein:
      Goldstein(options, slope, delta_at, &result);
      return result;
  }
  return result;
}

}  // namespace fcsn::internal
