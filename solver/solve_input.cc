// The checks of a solve's input (solver/solve_input.h).
#include "solver/solve_input.h"

#include <cmath>
#include <string>

namespace fcsn::internal {

const GlobalProblem& Resolved(const GlobalProblem& problem,
                              GlobalProblem* storage) {
  if (!problem.m_upper_triangle || !problem.Validate().empty()) return problem;
  return WithFullM(problem, storage);
}

namespace {

// "v[5] = nan" for the first entry of x that is not finite, "" if none.
std::string FirstNonFinite(const char* name, const Eigen::VectorXd& x) {
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i])) {
      return std::string(name) + "[" + std::to_string(i) +
             "] = " + std::to_string(x[i]);
    }
  }
  return "";
}

}  // namespace

std::string WhyInvalidGuess(const GlobalProblem& problem,
                            const Solution* guess) {
  const int n = problem.n();
  const int m = problem.m();
  if (guess == nullptr) return "";
  if (guess->v.size() != n || guess->r.size() != m) {
    return "the guess must hold v of size " + std::to_string(n) +
           " and r of size " + std::to_string(m) + " (got " +
           std::to_string(guess->v.size()) + " and " +
           std::to_string(guess->r.size()) + ")";
  }
  std::string bad = FirstNonFinite("v", guess->v);
  if (bad.empty()) bad = FirstNonFinite("r", guess->r);
  return bad.empty() ? "" : "the guess is not finite: " + bad;
}

bool CarriesNoInformation(const GlobalProblem& problem, const Solution* guess) {
  if (guess == nullptr) return false;
  if (guess->v.size() == 0 && guess->r.size() == 0) return true;
  return guess->v.size() == problem.n() && guess->r.size() == problem.m() &&
         (guess->v.array() == 0.0).all() && (guess->r.array() == 0.0).all();
}

}  // namespace fcsn::internal
