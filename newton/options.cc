#include "fcsn/options.h"

#include <cmath>
#include <sstream>

namespace fcsn {
namespace {

// Formats "SolverOptions::<field> = <value> <requirement>".
template <typename T>
std::string Violation(const char* field, T value, const char* requirement) {
  std::ostringstream out;
  out << "SolverOptions::" << field << " = " << value << " " << requirement
      << ".";
  return out.str();
}

bool Positive(double x) { return std::isfinite(x) && x > 0.0; }
bool AtLeastOne(double x) { return std::isfinite(x) && x >= 1.0; }

// The checks of SolverOptions::Validate() on the top-level fields.
std::string ValidateTopLevel(const SolverOptions& options) {
  if (!(std::isfinite(options.tolerance) && options.tolerance > 0.0 &&
        options.tolerance < 1.0)) {
    return Violation("tolerance", options.tolerance, "must lie in (0, 1)");
  }
  if (options.max_iterations < 0)
    return Violation("max_iterations", options.max_iterations, "must be >= 0");
  if (!(options.time_limit_seconds > 0.0)) {
    return Violation("time_limit_seconds",
                     options.time_limit_seconds,
                     "must be > 0 (infinity for none)");
  }
  if (!(std::isfinite(options.singular_regularization) &&
        options.singular_regularization >= 0.0 &&
        options.singular_regularization < 1.0)) {
    return Violation("singular_regularization",
                     options.singular_regularization,
                     "must lie in [0, 1)");
  }
  if (options.krylov_reuse_iterations < kAutoKrylovReuse ||
      options.krylov_reuse_iterations > 100) {
    return Violation("krylov_reuse_iterations",
                     options.krylov_reuse_iterations,
                     "must lie in [0, 100] or be kAutoKrylovReuse (-1)");
  }
  if (options.setup_threads < 1 || options.setup_threads > 2) {
    return Violation("setup_threads", options.setup_threads, "must be 1 or 2");
  }
  return "";
}

// The checks of SolverOptions::Validate() on SolverOptions::rho.
std::string ValidateRho(const RhoOptions& rho) {
  if (!Positive(rho.value))
    return Violation("rho.value", rho.value, "must be finite and > 0");
  if (!Positive(rho.factor))
    return Violation("rho.factor", rho.factor, "must be finite and > 0");
  if (!AtLeastOne(rho.initial_boost)) {
    return Violation(
        "rho.initial_boost", rho.initial_boost, "must be finite and >= 1");
  }
  if (!AtLeastOne(rho.warm_initial_boost)) {
    return Violation("rho.warm_initial_boost",
                     rho.warm_initial_boost,
                     "must be finite and >= 1");
  }
  if (!Positive(rho.tail_error))
    return Violation(
        "rho.tail_error", rho.tail_error, "must be finite and > 0");
  if (!AtLeastOne(rho.tail_boost_factor)) {
    return Violation("rho.tail_boost_factor",
                     rho.tail_boost_factor,
                     "must be finite and >= 1");
  }
  if (!(std::isfinite(rho.boost_reduction) && rho.boost_reduction > 1.0)) {
    return Violation(
        "rho.boost_reduction", rho.boost_reduction, "must be finite and > 1");
  }
  if (rho.boost_window < 1)
    return Violation("rho.boost_window", rho.boost_window, "must be >= 1");
  if (!(rho.boost_stall_ratio > 0.0 && rho.boost_stall_ratio <= 1.0)) {
    return Violation(
        "rho.boost_stall_ratio", rho.boost_stall_ratio, "must lie in (0, 1]");
  }
  return "";
}

// The checks of SolverOptions::Validate() on SolverOptions::line_search.
std::string ValidateLineSearch(const LineSearchOptions& ls) {
  if (!(ls.sufficient_decrease > 0.0 && ls.sufficient_decrease < 0.5)) {
    return Violation("line_search.sufficient_decrease",
                     ls.sufficient_decrease,
                     "must lie in (0, 0.5)");
  }
  if (!(ls.min_shrink > 0.0 && ls.min_shrink <= ls.max_shrink &&
        ls.max_shrink < 1.0)) {
    return Violation(
        "line_search.min_shrink/max_shrink",
        std::to_string(ls.min_shrink) + "/" + std::to_string(ls.max_shrink),
        "must satisfy 0 < min_shrink <= max_shrink < 1");
  }
  if (!(ls.goldstein_m1 > 0.0 && ls.goldstein_m1 < ls.goldstein_m2 &&
        ls.goldstein_m2 < 1.0)) {
    return Violation(
        "line_search.goldstein_m1/m2",
        std::to_string(ls.goldstein_m1) + "/" + std::to_string(ls.goldstein_m2),
        "must satisfy 0 < m1 < m2 < 1");
  }
  if (ls.non_monotone_window < 1) {
    return Violation("line_search.non_monotone_window",
                     ls.non_monotone_window,
                     "must be >= 1");
  }
  if (ls.max_trials < 1)
    return Violation("line_search.max_trials", ls.max_trials, "must be >= 1");
  if (!(ls.min_step > 0.0 && ls.min_step < 1.0)) {
    return Violation("line_search.min_step", ls.min_step, "must lie in (0, 1)");
  }
  return "";
}

// The checks of SolverOptions::Validate() on SolverOptions::nsgs.
std::string ValidateNsgs(const NsgsOptions& nsgs) {
  if (nsgs.max_sweeps < 0)
    return Violation("nsgs.max_sweeps", nsgs.max_sweeps, "must be >= 0");
  if (nsgs.error_check_frequency < 1) {
    return Violation("nsgs.error_check_frequency",
                     nsgs.error_check_frequency,
                     "must be >= 1");
  }
  if (nsgs.local_max_iterations < 1) {
    return Violation(
        "nsgs.local_max_iterations", nsgs.local_max_iterations, "must be >= 1");
  }
  if (!(nsgs.local_tolerance > 0.0 && nsgs.local_tolerance < 1.0)) {
    return Violation(
        "nsgs.local_tolerance", nsgs.local_tolerance, "must lie in (0, 1)");
  }
  if (nsgs.fp_projections < 1) {
    return Violation(
        "nsgs.fp_projections", nsgs.fp_projections, "must be >= 1");
  }
  return "";
}

// The checks of SolverOptions::Validate() on SolverOptions::hybrid.
std::string ValidateHybrid(const HybridOptions& hybrid) {
  if (hybrid.warm_sweeps_with_guess < 0) {
    return Violation("hybrid.warm_sweeps_with_guess",
                     hybrid.warm_sweeps_with_guess,
                     "must be >= 0");
  }
  if (hybrid.warm_contraction_window < 0) {
    return Violation("hybrid.warm_contraction_window",
                     hybrid.warm_contraction_window,
                     "must be >= 0");
  }
  if (!(hybrid.warm_contraction_ratio > 0.0 &&
        hybrid.warm_contraction_ratio <= 1.0)) {
    return Violation("hybrid.warm_contraction_ratio",
                     hybrid.warm_contraction_ratio,
                     "must lie in (0, 1]");
  }
  if (hybrid.warm_sweeps < 0)
    return Violation("hybrid.warm_sweeps", hybrid.warm_sweeps, "must be >= 0");
  if (hybrid.stall_window < 1)
    return Violation(
        "hybrid.stall_window", hybrid.stall_window, "must be >= 1");
  if (!(hybrid.stall_ratio > 0.0 && hybrid.stall_ratio < 1.0)) {
    return Violation(
        "hybrid.stall_ratio", hybrid.stall_ratio, "must lie in (0, 1)");
  }
  if (hybrid.fallback_sweeps < 1) {
    return Violation(
        "hybrid.fallback_sweeps", hybrid.fallback_sweeps, "must be >= 1");
  }
  if (!(hybrid.delassus_budget_per_nonzero >= 0.0 &&
        std::isfinite(hybrid.delassus_budget_per_nonzero))) {
    return Violation("hybrid.delassus_budget_per_nonzero",
                     hybrid.delassus_budget_per_nonzero,
                     "must be finite and >= 0");
  }
  if (hybrid.delassus_min_budget < 0) {
    return Violation("hybrid.delassus_min_budget",
                     hybrid.delassus_min_budget,
                     "must be >= 0");
  }
  if (hybrid.max_fallbacks < 0)
    return Violation(
        "hybrid.max_fallbacks", hybrid.max_fallbacks, "must be >= 0");
  return "";
}

}  // namespace

const char* ToString(LineSearchFailurePolicy x) {
  switch (x) {
    case LineSearchFailurePolicy::kStop:
      return "stop";
    case LineSearchFailurePolicy::kAcceptStep:
      return "accept";
    case LineSearchFailurePolicy::kFallback:
      return "fallback";
  }
  return "?";
}

const char* ToString(ColdStart x) {
  switch (x) {
    case ColdStart::kZero:
      return "zero";
    case ColdStart::kFreeFlight:
      return "free-flight";
    case ColdStart::kBonded:
      return "bonded";
    case ColdStart::kAuto:
      return "auto";
    case ColdStart::kApproaching:
      return "approaching";
  }
  return "?";
}

const char* ToString(CallbackResult x) {
  switch (x) {
    case CallbackResult::kContinue:
      return "continue";
    case CallbackResult::kAbort:
      return "abort";
  }
  return "?";
}

std::string SolverOptions::Validate() const {
  // The first violation, in the order of the fields.
  if (std::string why = ValidateTopLevel(*this); !why.empty()) return why;
  if (std::string why = ValidateRho(rho); !why.empty()) return why;
  if (std::string why = ValidateLineSearch(line_search); !why.empty())
    return why;
  if (std::string why = linear_solver.Validate(); !why.empty()) return why;
  if (std::string why = ValidateNsgs(nsgs); !why.empty()) return why;
  return ValidateHybrid(hybrid);
}

}  // namespace fcsn
