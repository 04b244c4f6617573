// Tests of SolverOptions::Validate() (the rows of fcsn/option_table.h): the defaults are
// valid; every range check rejects each way out of its range with a sentence
// naming the field; the accepted boundary values pass; the first violation in
// field order is the one reported; and the option enums' names.
#include "fcsn/options.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace fcsn {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Case {
  const char* field;  // expected in the message
  std::function<void(SolverOptions*)> change;
};

// One case per way out of each range (every branch of every check), by
// options struct, in the order Validate() checks the fields.
std::vector<Case> InvalidSolverCases() {
  return {
      {"SolverOptions::tolerance", [](SolverOptions* o) { o->tolerance = 0; }},
      {"SolverOptions::tolerance", [](SolverOptions* o) { o->tolerance = 1; }},
      {"SolverOptions::tolerance",
       [](SolverOptions* o) { o->tolerance = kNaN; }},
      {"SolverOptions::max_iterations",
       [](SolverOptions* o) { o->max_iterations = -1; }},
      {"SolverOptions::time_limit_seconds",
       [](SolverOptions* o) { o->time_limit_seconds = 0; }},
      {"SolverOptions::time_limit_seconds",
       [](SolverOptions* o) { o->time_limit_seconds = kNaN; }},
      {"SolverOptions::singular_regularization",
       [](SolverOptions* o) { o->singular_regularization = -1e-9; }},
      {"SolverOptions::singular_regularization",
       [](SolverOptions* o) { o->singular_regularization = 1; }},
      {"SolverOptions::singular_regularization",
       [](SolverOptions* o) { o->singular_regularization = kNaN; }},
  };
}

std::vector<Case> InvalidRhoCases() {
  return {
      {"rho.value", [](SolverOptions* o) { o->rho.value = 0; }},
      {"rho.value", [](SolverOptions* o) { o->rho.value = kInf; }},
      {"rho.factor", [](SolverOptions* o) { o->rho.factor = -1; }},
      {"rho.factor", [](SolverOptions* o) { o->rho.factor = kNaN; }},
      {"rho.initial_boost",
       [](SolverOptions* o) { o->rho.initial_boost = 0.5; }},
      {"rho.initial_boost",
       [](SolverOptions* o) { o->rho.initial_boost = kInf; }},
      {"rho.warm_initial_boost",
       [](SolverOptions* o) { o->rho.warm_initial_boost = 0.5; }},
      {"rho.warm_initial_boost",
       [](SolverOptions* o) { o->rho.warm_initial_boost = kNaN; }},
      {"rho.tail_error", [](SolverOptions* o) { o->rho.tail_error = 0; }},
      {"rho.tail_error", [](SolverOptions* o) { o->rho.tail_error = kInf; }},
      {"rho.tail_boost_factor",
       [](SolverOptions* o) { o->rho.tail_boost_factor = 0.5; }},
      {"rho.tail_boost_factor",
       [](SolverOptions* o) { o->rho.tail_boost_factor = kNaN; }},
      {"rho.boost_reduction",
       [](SolverOptions* o) { o->rho.boost_reduction = 1; }},
      {"rho.boost_reduction",
       [](SolverOptions* o) { o->rho.boost_reduction = kInf; }},
      {"rho.boost_window", [](SolverOptions* o) { o->rho.boost_window = 0; }},
      {"rho.boost_stall_ratio",
       [](SolverOptions* o) { o->rho.boost_stall_ratio = 0; }},
      {"rho.boost_stall_ratio",
       [](SolverOptions* o) { o->rho.boost_stall_ratio = 1.5; }},
  };
}

std::vector<Case> InvalidLineSearchCases() {
  return {
      {"line_search.sufficient_decrease",
       [](SolverOptions* o) { o->line_search.sufficient_decrease = 0; }},
      {"line_search.sufficient_decrease",
       [](SolverOptions* o) { o->line_search.sufficient_decrease = 0.5; }},
      {"line_search.min_shrink",
       [](SolverOptions* o) { o->line_search.min_shrink = 0; }},
      {"line_search.max_shrink",
       [](SolverOptions* o) { o->line_search.max_shrink = 1; }},
      {"line_search.min_shrink/max_shrink",
       [](SolverOptions* o) {
         o->line_search.min_shrink = 0.6;
         o->line_search.max_shrink = 0.5;
       }},
      {"line_search.goldstein_m1",
       [](SolverOptions* o) { o->line_search.goldstein_m1 = 0; }},
      {"line_search.goldstein_m2",
       [](SolverOptions* o) { o->line_search.goldstein_m2 = 1; }},
      {"line_search.goldstein_m1/m2",
       [](SolverOptions* o) { o->line_search.goldstein_m1 = 0.95; }},
      {"line_search.non_monotone_window",
       [](SolverOptions* o) { o->line_search.non_monotone_window = 0; }},
      {"line_search.max_trials",
       [](SolverOptions* o) { o->line_search.max_trials = 0; }},
      {"line_search.min_step",
       [](SolverOptions* o) { o->line_search.min_step = 0; }},
      {"line_search.min_step",
       [](SolverOptions* o) { o->line_search.min_step = 1; }},
  };
}

std::vector<Case> InvalidLinearSolverAndNsgsCases() {
  return {
      {"SolverOptions::linear_solver.max_refinement_steps",
       [](SolverOptions* o) { o->linear_solver.max_refinement_steps = 0; }},
      {"nsgs.max_sweeps", [](SolverOptions* o) { o->nsgs.max_sweeps = -1; }},
      {"nsgs.error_check_frequency",
       [](SolverOptions* o) { o->nsgs.error_check_frequency = 0; }},
      {"nsgs.local_max_iterations",
       [](SolverOptions* o) { o->nsgs.local_max_iterations = 0; }},
      {"nsgs.local_tolerance",
       [](SolverOptions* o) { o->nsgs.local_tolerance = 0; }},
      {"nsgs.local_tolerance",
       [](SolverOptions* o) { o->nsgs.local_tolerance = 1; }},
  };
}

std::vector<Case> InvalidHybridCases() {
  return {
      {"hybrid.warm_sweeps",
       [](SolverOptions* o) { o->hybrid.warm_sweeps = -1; }},
      {"hybrid.warm_sweeps_with_guess",
       [](SolverOptions* o) { o->hybrid.warm_sweeps_with_guess = -1; }},
      {"hybrid.warm_contraction_window",
       [](SolverOptions* o) { o->hybrid.warm_contraction_window = -1; }},
      {"hybrid.warm_contraction_ratio",
       [](SolverOptions* o) { o->hybrid.warm_contraction_ratio = 0; }},
      {"hybrid.warm_contraction_ratio",
       [](SolverOptions* o) { o->hybrid.warm_contraction_ratio = 1.1; }},
      {"hybrid.stall_window",
       [](SolverOptions* o) { o->hybrid.stall_window = 0; }},
      {"hybrid.stall_ratio",
       [](SolverOptions* o) { o->hybrid.stall_ratio = 0; }},
      {"hybrid.stall_ratio",
       [](SolverOptions* o) { o->hybrid.stall_ratio = 1; }},
      {"hybrid.fallback_sweeps",
       [](SolverOptions* o) { o->hybrid.fallback_sweeps = 0; }},
      {"hybrid.max_fallbacks",
       [](SolverOptions* o) { o->hybrid.max_fallbacks = -1; }},
      {"hybrid.delassus_budget_per_nonzero",
       [](SolverOptions* o) { o->hybrid.delassus_budget_per_nonzero = -1; }},
      {"hybrid.delassus_budget_per_nonzero",
       [](SolverOptions* o) { o->hybrid.delassus_budget_per_nonzero = kInf; }},
      {"hybrid.delassus_min_budget",
       [](SolverOptions* o) { o->hybrid.delassus_min_budget = -1; }},
  };
}

std::vector<Case> InvalidCases() {
  std::vector<Case> cases;
  for (auto group : {InvalidSolverCases,
                     InvalidRhoCases,
                     InvalidLineSearchCases,
                     InvalidLinearSolverAndNsgsCases,
                     InvalidHybridCases}) {
    for (Case& c : group()) cases.push_back(std::move(c));
  }
  return cases;
}

TEST(SolverOptionsTest, DefaultsAreValid) {
  EXPECT_EQ(SolverOptions().Validate(), "");
}

TEST(SolverOptionsTest, EveryRangeCheckRejectsWithTheFieldName) {
  for (const Case& c : InvalidCases()) {
    SolverOptions options;
    c.change(&options);
    const std::string why = options.Validate();
    EXPECT_NE(why.find(c.field), std::string::npos)
        << "expected " << c.field << ", got \"" << why << "\"";
    EXPECT_EQ(why.back(), '.') << why;  // one sentence
  }
}

// The accepted edges of the ranges.
TEST(SolverOptionsTest, BoundaryValuesAreAccepted) {
  const std::vector<std::function<void(SolverOptions*)>> edges = {
      [](SolverOptions* o) { o->tolerance = 1e-300; },
      [](SolverOptions* o) { o->max_iterations = 0; },
      [](SolverOptions* o) { o->time_limit_seconds = kInf; },
      [](SolverOptions* o) { o->singular_regularization = 0; },
      [](SolverOptions* o) { o->rho.initial_boost = 1; },
      [](SolverOptions* o) { o->rho.boost_window = 1; },
      [](SolverOptions* o) { o->rho.boost_stall_ratio = 1; },
      [](SolverOptions* o) {
        o->line_search.min_shrink = o->line_search.max_shrink = 0.5;
      },
      [](SolverOptions* o) { o->line_search.non_monotone_window = 1; },
      [](SolverOptions* o) { o->line_search.max_trials = 1; },
      [](SolverOptions* o) { o->nsgs.max_sweeps = 0; },
      [](SolverOptions* o) { o->nsgs.error_check_frequency = 1; },
      [](SolverOptions* o) { o->hybrid.warm_sweeps = 0; },
      [](SolverOptions* o) { o->hybrid.warm_contraction_window = 0; },
      [](SolverOptions* o) { o->hybrid.warm_contraction_ratio = 1; },
      [](SolverOptions* o) { o->hybrid.fallback_sweeps = 1; },
      [](SolverOptions* o) { o->hybrid.delassus_budget_per_nonzero = 0; },
      [](SolverOptions* o) { o->hybrid.delassus_min_budget = 0; },
      [](SolverOptions* o) { o->hybrid.max_fallbacks = 0; },
  };
  for (size_t k = 0; k < edges.size(); ++k) {
    SolverOptions options;
    edges[k](&options);
    EXPECT_EQ(options.Validate(), "") << "edge " << k;
  }
}

// Several violations: the first in the table's order (top level, rho, line
// search, linear solver, nsgs, hybrid; a relation after its fields) is
// reported.
TEST(SolverOptionsTest, ReportsTheFirstViolationInFieldOrder) {
  const std::vector<Case> cases = InvalidCases();
  SolverOptions options;
  for (auto it = cases.rbegin(); it != cases.rend(); ++it) {
    it->change(&options);
    const std::string why = options.Validate();
    EXPECT_NE(why.find(it->field), std::string::npos)
        << "expected " << it->field << ", got \"" << why << "\"";
  }
}

TEST(SolverOptionsTest, MessageNamesTheValueAndTheRequirement) {
  SolverOptions options;
  options.max_iterations = -3;
  EXPECT_EQ(options.Validate(),
            "SolverOptions::max_iterations = -3 must be >= 0.");
}

TEST(SolverOptionsTest, EnumNames) {
  EXPECT_STREQ(ToString(LineSearchFailurePolicy::kStop), "stop");
  EXPECT_STREQ(ToString(LineSearchFailurePolicy::kAcceptStep), "accept");
  EXPECT_STREQ(ToString(LineSearchFailurePolicy::kFallback), "fallback");
  EXPECT_STREQ(ToString(CallbackResult::kContinue), "continue");
  EXPECT_STREQ(ToString(CallbackResult::kAbort), "abort");
}

}  // namespace
}  // namespace fcsn
