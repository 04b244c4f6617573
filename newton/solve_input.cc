// The checks of a solve's input (newton/solve_input.h).
#include "newton/solve_input.h"

#include <string>

namespace fcsn::internal {

const GlobalProblem& Resolved(const GlobalProblem& problem,
                              GlobalProblem* storage) {
  if (!problem.m_upper_triangle || !problem.Validate().empty()) return problem;
  return WithFullM(problem, storage);
}

std::string WhyInvalid(const SolverOptions& options,
                       const GlobalProblem& problem) {
  if (std::string why = options.Validate(); !why.empty()) return why;
  return problem.Validate();
}

std::string WhyInvalidGuess(const GlobalProblem& problem,
                            const Solution* guess) {
  const int n = problem.n();
  const int m = problem.m();
  if (guess == nullptr || (guess->v.size() == n && guess->r.size() == m &&
                           guess->v.allFinite() && guess->r.allFinite())) {
    return "";
  }
  return "the guess must hold finite v of size " + std::to_string(n) +
         " and r of size " + std::to_string(m) + " (got " +
         std::to_string(guess->v.size()) + " and " +
         std::to_string(guess->r.size()) + ")";
}

bool CarriesNoInformation(const GlobalProblem& problem, const Solution* guess) {
  if (guess == nullptr) return false;
  if (guess->v.size() == 0 && guess->r.size() == 0) return true;
  return guess->v.size() == problem.n() && guess->r.size() == problem.m() &&
         (guess->v.array() == 0.0).all() && (guess->r.array() == 0.0).all();
}

}  // namespace fcsn::internal
