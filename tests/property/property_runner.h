// Solver policies under test and one checked solve, shared by the property
// test, the sweep (bench/property_sweep) and the solver fuzzer.
#ifndef FCSN_TESTS_PROPERTY_PROPERTY_RUNNER_H_
#define FCSN_TESTS_PROPERTY_PROPERTY_RUNNER_H_

#include <array>
#include <string>
#include <vector>

#include "fcsn/options.h"
#include "fcsn/solver.h"
#include "property_check.h"
#include "property_problems.h"

namespace fcsn::property {

// Every top-level algorithm, and every formulation under pure Newton (NSGS
// has no formulation; the hybrid runs with the default one).
struct Policy {
  const char* name;
  SolverType solver;
  Formulation formulation;
};
inline constexpr std::array<Policy, 6> kAllPolicies = {{
    {"nsn-ac", SolverType::kNewton, Formulation::kAlartCurnier},
    {"nsn-jm", SolverType::kNewton, Formulation::kJeanMoreau},
    {"nsn-nm", SolverType::kNewton, Formulation::kNaturalMap},
    {"nsn-fb", SolverType::kNewton, Formulation::kFischerBurmeister},
    {"nsgs", SolverType::kNsgs, Formulation::kAlartCurnier},
    {"hybrid", SolverType::kHybrid, Formulation::kAlartCurnier},
}};

// Budgets that keep a solve of a small case in milliseconds; the time limit
// is a guard against hangs only (a kTimeLimit verdict is never compared).
struct Budget {
  int max_iterations = 100;
  int max_sweeps = 2000;
  double time_limit_seconds = 2.0;
};

// The library's defaults but for the policy, the tolerance, the budget, one
// setup thread (no thread scheduling in the results) and no history.
SolverOptions MakeOptions(const Policy& policy,
                          double tol,
                          const Budget& budget);

struct Outcome {
  SolverSummary summary;
  Solution solution;
  std::vector<Violation> violations;
};

// One cold solve (no guess) and its invariants (property_check.h).
Outcome SolveAndCheck(const GlobalProblem& problem,
                      const SolverOptions& options);

// The same problem in units changed by powers of two (exact): the verdict
// must be the same. Whether the solver is also bit-exact (same counts, same
// solution up to the units) is reported, not required.
struct RescaleComparison {
  bool compared = false;     // false when either solve hit the time limit
  bool same_status = false;  // the invariant
  bool same_counts = false;  // iterations, sweeps, factorizations
  bool same_bits = false;    // (v, r) equal up to the exact unit factors
  std::string detail;        // both statuses and counts, for messages
};
RescaleComparison CompareRescaled(const GlobalProblem& problem,
                                  const SolverOptions& options,
                                  const Outcome& base,
                                  const UnitExponents& units);

}  // namespace fcsn::property

#endif  // FCSN_TESTS_PROPERTY_PROPERTY_RUNNER_H_
