// newton/newton_direction.h: the Newton direction of one iteration.
//
// With the row weights D and column scales C of newton/solve_run.h, the
// direction solves the scaled system
//
//   (D J C) y = -D G,   d = C y,
//
// by one numeric factorization of D J C on the analysed pattern and one solve.
// When D J C is singular (rank-deficient H with sticking contacts) and
// SolverOptions::singular_regularization = delta0 > 0, the proximal matrix
//
//   D J C + delta E,   E the identity on the contact rows/columns (B blocks),
//   delta = max(1e-12, delta0 min(1, ||D G||)), times 100 per retry (3 tries),
//
// is factored instead. A J found singular at the previous iteration goes
// straight to the regularized matrix. Mixed precision can find J singular only
// in the solve (its double-precision refactorization); the regularization is
// then tried once more.
//
// The slope of the merit theta = 1/2 ||D G||^2 along d: -||D G||^2 for an
// exact direction, (D G)^T D J d for a regularized one.
//
// Usage (inside the Newton driver, J evaluated at the iterate):
//   NewtonDirection direction;
//   direction.Reset();                       // at the start of a Newton run
//   std::string message;
//   if (direction.Compute(options, &system, linear, run, DG, merit, &message)
//       != LinearSolverStatus::kSuccess) { ... }
//   use direction.d(), direction.slope()
#ifndef FCSN_NEWTON_NEWTON_DIRECTION_H_
#define FCSN_NEWTON_NEWTON_DIRECTION_H_

#include <Eigen/Core>
#include <string>
#include <vector>

#include "fcsn/options.h"
#include "linalg/linear_solver.h"
#include "newton/newton_system.h"
#include "newton/solve_run.h"

namespace fcsn::internal {

class NewtonDirection {
 public:
  // Forgets the previous iteration's singular J (a new Newton run or rho).
  void Reset() { previous_singular_ = false; }

  // The direction at the iterate whose J the system holds (Evaluate with the
  // Jacobian) and whose weighted residual is DG, merit = ||DG||. Counts
  // factorizations, regularized factorizations and solves into
  // run.summary, times them, and on failure returns the status with
  // *message set.
  LinearSolverStatus Compute(const SolverOptions& options,
                             const NewtonSystem& system,
                             LinearSolver* linear,
                             const SolveRun& run,
                             const Eigen::VectorXd& DG,
                             double merit,
                             std::string* message);

  const Eigen::VectorXd& d() const { return d_; }
  double slope() const { return slope_; }

 private:
  // D J C factored unless the last J was singular and may be regularized.
  LinearSolverStatus Factorize(bool may_regularize,
                               const NewtonSystem& system,
                               LinearSolver* linear,
                               const SolveRun& run,
                               std::string* message);
  // Factors D J C + delta E, growing delta while it stays singular.
  LinearSolverStatus FactorizeRegularized(const SolverOptions& options,
                                          const NewtonSystem& system,
                                          LinearSolver* linear,
                                          const SolveRun& run,
                                          double merit,
                                          std::string* message);
  // d = C y with (D J C) y = -D G on the current factors.
  LinearSolverStatus Solve(LinearSolver* linear,
                           const SolveRun& run,
                           const Eigen::VectorXd& DG,
                           std::string* message);

  std::vector<double> scaled_values_, regularized_values_;
  Eigen::VectorXd d_, Jd_, DJd_;
  double slope_ = 0.0;
  bool previous_singular_ = false;
  bool regularized_ = false;
};

}  // namespace fcsn::internal

#endif  // FCSN_NEWTON_NEWTON_DIRECTION_H_
