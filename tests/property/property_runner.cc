#include "property_runner.h"

#include <cmath>
#include <sstream>

namespace fcsn::property {
namespace {

bool ScaledEqual(const Eigen::VectorXd& base,
                 const Eigen::VectorXd& scaled,
                 int exponent) {
  if (base.size() != scaled.size()) return false;
  for (Eigen::Index i = 0; i < base.size(); ++i) {
    if (std::ldexp(base[i], exponent) != scaled[i]) return false;
  }
  return true;
}

std::string Counts(const SolverSummary& s) {
  std::ostringstream out;
  out << ToString(s.status) << " (" << s.iterations << " it, " << s.nsgs_sweeps
      << " sweeps, " << s.factorizations << " fact)";
  return out.str();
}

}  // namespace

SolverOptions MakeOptions(const Policy& policy,
                          double tol,
                          const Budget& budget) {
  SolverOptions o;
  o.solver = policy.solver;
  o.formulation = policy.formulation;
  o.tolerance = tol;
  o.max_iterations = budget.max_iterations;
  o.nsgs.max_sweeps = budget.max_sweeps;
  o.time_limit_seconds = budget.time_limit_seconds;
  o.setup_threads = 1;
  o.record_history = false;
  return o;
}

Outcome SolveAndCheck(const GlobalProblem& problem,
                      const SolverOptions& options) {
  Outcome out;
  Solver solver(options);
  out.summary = solver.Solve(problem, nullptr, &out.solution);
  out.violations = CheckOutcome(problem, options, out.summary, out.solution);
  return out;
}

RescaleComparison CompareRescaled(const GlobalProblem& problem,
                                  const SolverOptions& options,
                                  const Outcome& base,
                                  const UnitExponents& units) {
  const GlobalProblem scaled_problem = Rescaled(problem, units);
  Solver solver(options);
  Solution scaled;
  const SolverSummary s = solver.Solve(scaled_problem, nullptr, &scaled);
  RescaleComparison c;
  c.detail = Counts(base.summary) + " vs " + Counts(s) + " in units 2^(" +
             std::to_string(units.force) + ", " +
             std::to_string(units.velocity) + ", " +
             std::to_string(units.mass) + ")";
  c.compared = base.summary.status != SolverStatus::kTimeLimit &&
               s.status != SolverStatus::kTimeLimit;
  c.same_status = s.status == base.summary.status;
  c.same_counts = c.same_status && s.iterations == base.summary.iterations &&
                  s.nsgs_sweeps == base.summary.nsgs_sweeps &&
                  s.factorizations == base.summary.factorizations;
  c.same_bits = c.same_counts &&
                ScaledEqual(base.solution.v, scaled.v, units.velocity) &&
                ScaledEqual(base.solution.r, scaled.r, units.force);
  return c;
}

}  // namespace fcsn::property
