// linalg/gmres.h: flexible GMRES (FGMRES, Saad 1993) from x0 = 0, without
// restart, for A x = b with a right preconditioner P ~ A:
//
//   v_1 = b / ||b||;  for j = 1, 2, ...:  z_j = P^-1 v_j,  w = A z_j,
//   Arnoldi (modified Gram-Schmidt) w -> h_{1..j+1, j}, v_{j+1};
//   x_j = Z_j y_j,  y_j = argmin || ||b|| e_1 - Hbar_j y ||  (Givens QR),
//
// so that ||b - A x_j|| = |g_{j+1}| (exact arithmetic) is known at every step
// without forming x_j. Storing Z_j (the flexible variant) spares the final
// preconditioner application of right-preconditioned GMRES (x = P^-1 V y):
// P^-1 costs as much as the rest of an iteration together when P^-1 is a
// sparse triangular solve.
//
// Stops at the first j with |g_{j+1}| <= relative_tolerance ||b||, at a
// breakdown (h_{j+1,j} = 0: x_j is exact), after max_iterations, when the
// preconditioner fails, or (GmresOptions::give_up_early) when the rate so far
// predicts the budget will not do. The caller checks the true residual if it
// needs it.
//
// Usage:
//   GmresOptions options{/*max_iterations=*/10, /*relative_tolerance=*/1e-2};
//   GmresResult result = Gmres(multiply, precondition, b, options, &x);
//   if (result.status != LinearSolverStatus::kSuccess) { ... }
//   if (!result.converged) { ... }
#ifndef FCSN_LINALG_GMRES_H_
#define FCSN_LINALG_GMRES_H_

#include <Eigen/Core>
#include <functional>
#include <string>
#include <vector>

#include "linalg/linear_solver.h"

namespace fcsn::internal {

struct GmresOptions {
  int max_iterations = 10;
  double relative_tolerance = 1e-2;
  // Give up at iteration j >= 2 when the mean contraction per iteration so
  // far, c = (|g_{j+1}| / ||b||)^(1/j), kept up, would need more than
  // max_iterations iterations in all to reach relative_tolerance: the rest of
  // the budget would most likely be spent in vain (for a caller with a
  // fallback, e.g. a factorization, that it then pays anyway).
  bool give_up_early = false;
};

struct GmresResult {
  // Inner iterations done (preconditioner applications, products by A).
  int iterations = 0;
  // Stopped by GmresOptions::give_up_early.
  bool gave_up = false;
  // |g_{j+1}| / ||b|| of the last iteration (1 before the first).
  double relative_residual = 1.0;
  bool converged = false;
  // kSuccess unless the preconditioner failed (its status).
  LinearSolverStatus status = LinearSolverStatus::kSuccess;
  // relative_residual after each iteration (for diagnostics).
  std::vector<double> history;
};

// y = A x.
using GmresMultiply =
    std::function<void(const Eigen::VectorXd&, Eigen::VectorXd*)>;
// x := P^-1 x; a status other than kSuccess stops the iteration.
using GmresPrecondition = std::function<LinearSolverStatus(Eigen::VectorXd*)>;

// *x = x_j of the last iteration (0 if none was done). b must be finite.
GmresResult Gmres(const GmresMultiply& multiply,
                  const GmresPrecondition& precondition,
                  const Eigen::VectorXd& b,
                  const GmresOptions& options,
                  Eigen::VectorXd* x);

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_GMRES_H_
