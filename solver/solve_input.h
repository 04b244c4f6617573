// solver/solve_input.h: the checks of a solve's input before any work
// (fcsn::Solver, solver/solver.cc): the problem as the solver sees it, whether
// the guess is valid, and which guesses count as none (options and problem:
// MServices::Accept, minverse/m_services.h).
#ifndef FCSN_SOLVER_SOLVE_INPUT_H_
#define FCSN_SOLVER_SOLVE_INPUT_H_

#include <string>

#include "fcsn/options.h"
#include "fcsn/problem.h"
#include "fcsn/solver.h"

namespace fcsn::internal {

// The problem the solver works on: M expanded when given as an upper triangle
// (GlobalProblem::m_upper_triangle) into *storage. A flagged problem that
// fails Validate() goes through unchanged, so that Solve() reports why.
const GlobalProblem& Resolved(const GlobalProblem& problem,
                              GlobalProblem* storage);

// "" if guess is no guess (nullptr) or a valid one for problem, else why not.
std::string WhyInvalidGuess(const GlobalProblem& problem,
                            const Solution* guess);

// Whether guess is one that counts as no guess (SolverOptions::cold_start):
// an empty Solution (the first step of a time-stepping loop), or v and r
// exactly zero at the problem's sizes (the previous step's solution while
// the bodies were at rest). Both tell nothing a cold start would not, and an
// all-zero start sits on the kink that the cold start exists to avoid (a wall's
// first loaded step: 200 iterations from it at refine 3). A guess of other
// sizes stays a guess, and WhyInvalidGuess refuses it.
bool CarriesNoInformation(const GlobalProblem& problem, const Solution* guess);

}  // namespace fcsn::internal

#endif  // FCSN_SOLVER_SOLVE_INPUT_H_
