// A lattice's Newton system at a pseudo-random iterate, shared by the tests
// of Newton directions (krylov_reuse_test, scaling_renewal_test).
#ifndef FCSN_TESTS_NEWTON_LATTICE_ITERATE_H_
#define FCSN_TESTS_NEWTON_LATTICE_ITERATE_H_

#include <Eigen/Core>
#include <cstdint>
#include <random>

#include "fcsn/problem.h"
#include "fcsn/summary.h"
#include "newton/newton_system.h"
#include "newton/solve_run.h"
#include "test_problems.h"

namespace fcsn::testing {

// *problem = MakeLatticeOnFloor(3, 3, 2, 0.4, 1.2, 1e-3) with its system
// built and valued; *run points at problem and summary, with rho = 1 and
// (v, r) drawn uniformly in [-1, 1] from `seed` (v first). The four objects
// must stay where they are while run is used.
inline void SetUpLatticeAtRandomIterate(std::uint32_t seed,
                                        GlobalProblem* problem,
                                        internal::NewtonSystem* system,
                                        SolverSummary* summary,
                                        internal::SolveRun* run) {
  *problem = MakeLatticeOnFloor(3, 3, 2, 0.4, 1.2, 1e-3);
  system->Build(*problem);
  system->SetMatrixValues(*problem);
  run->problem = problem;
  run->summary = summary;
  run->newton_rho = Eigen::VectorXd::Ones(problem->m());
  std::mt19937 generator(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  run->v = Eigen::VectorXd::NullaryExpr(problem->n(),
                                        [&] { return uniform(generator); });
  run->r = Eigen::VectorXd::NullaryExpr(problem->m(),
                                        [&] { return uniform(generator); });
}

}  // namespace fcsn::testing

#endif  // FCSN_TESTS_NEWTON_LATTICE_ITERATE_H_
