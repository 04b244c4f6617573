// nsgs/local_solvers.h: one-contact solvers used inside NSGS sweeps
// (formulations.md §7.3).
//
// Problem of contact a with the other contacts frozen:
//
//   u = W r + q,   K* ∋ û = u + mu ||u_T|| e_N  ⟂  r ∈ K = {||r_T|| <= mu r_N}
//
// W = W_aa (3 x 3, positive semidefinite), q = q_a + sum_{b != a} W_ab r_b.
// When q_N >= 0 the take-off r = 0 solves it (u = q, u_N >= 0), and both
// solvers return it at once.
//
// * SolveContactAlartCurnier: semismooth Newton on the Alart–Curnier residual
//   F(W r + q, r) = 0 (formulations.md §3.1, fcsn::EvaluateContact). Step:
//   (A W + B) dr = -F by 3 x 3 Gaussian elimination with partial pivoting;
//   Armijo backtracking on 1/2 ||F||^2; rho = (1/W_NN, 1/lambda_max(W_TT),
//   1/lambda_max(W_TT)) (SPLIT_SPECTRAL_NORM, §5). Stops when
//   ||F|| <= tol ||rho ∘ q|| (both are impulses), on a singular step matrix,
//   on a failed line search or after max_iterations.
// * SolveContactFixedPointViUpk: projected fixed point on the natural map
//   iterated to a tolerance (the PLI half of the AC hybrid below; NSGS with
//   LocalSolverType::kFixedPointViUpk takes the paper's few projections per
//   sweep instead, nsgs/fp_vi_upk.h),
//   r <- P_K(r - rho û(W r + q)), with self-adaptive scalar rho ("FP-VI-UPK",
//   Siconos' PLI; tau = 2/3, L = 0.9, L_min = 0.3). rho is carried over between
//   calls by the caller. Returns the iterate with the smallest e_loc (the error
//   of the iterates is not monotone).
// * SolveContact: either solver plus keep-or-discard: the new r is kept only if
//   it is finite and its e_loc is not larger than that of the previous r. When
//   the AC Newton stops without converging, FP-VI-UPK iterations continue from
//   its iterate and the better of the two is taken (as Siconos'
//   ONECONTACT_NSN_GP_HYBRID).
//
// Local error (natural map, used for stopping FP-VI-UPK and keep-or-discard):
//
//   e_loc(r) = ||r - P_K(r - rho_ref û(W r + q))|| / (rho_ref ||q||),
//   rho_ref  = 1 / lambda_max(W)   (1 when W = 0).
//
// Its zero set is the solution set for any rho_ref > 0; the scaling by rho_ref
// makes it independent of the units of r and u (unlike rho = 1, which fails on
// badly scaled W).
#ifndef FCSN_NSGS_LOCAL_SOLVERS_H_
#define FCSN_NSGS_LOCAL_SOLVERS_H_

#include <Eigen/Core>
#include <vector>

#include "fcsn/types.h"

namespace fcsn::internal {

// What a one-contact solve did.
struct LocalSolveInfo {
  int iterations = 0;      // Newton or fixed-point iterations
  bool converged = false;  // the solver's own stopping test was met
  // SolveContact only: false if the previous r was restored.
  bool kept = true;
  double error = 0.0;  // e_loc of the returned r
};

// Per-contact data the sweeps compute once from W_aa.
struct ContactScaling {
  // Split spectral rho for Alart–Curnier.
  Eigen::Vector3d rho_ac = Eigen::Vector3d::Ones();
  // 1 / lambda_max(W_aa), > 0: scaling of e_loc, first FP-VI-UPK step.
  double rho_ref = 1.0;
};

// Solves A x = b by Gaussian elimination with partial pivoting. Returns false
// when a pivot is zero or below 1e-14 times the largest entry of A (x
// unchanged).
bool SolvePartialPivot3(const Eigen::Matrix3d& A,
                        const Eigen::Vector3d& b,
                        Eigen::Vector3d* x);

// e_loc(r) as defined above; q = 0 uses 1 as the denominator.
double LocalNaturalMapError(const Eigen::Matrix3d& W,
                            const Eigen::Vector3d& q,
                            double mu,
                            double rho_ref,
                            const Eigen::Vector3d& r);

// Alart–Curnier Newton from the starting point *r; *r receives the last
// accepted iterate.
LocalSolveInfo SolveContactAlartCurnier(const Eigen::Matrix3d& W,
                                        const Eigen::Vector3d& q,
                                        double mu,
                                        const Eigen::Vector3d& rho,
                                        double rho_ref,
                                        int max_iterations,
                                        double tolerance,
                                        Eigen::Vector3d* r);

// FP-VI-UPK from the starting point *r. *rho is the self-adaptive step (in:
// last value, or a non-positive value to start from rho_ref; out: the value to
// carry over). Stops when e_loc <= tolerance or after max_iterations.
LocalSolveInfo SolveContactFixedPointViUpk(const Eigen::Matrix3d& W,
                                           const Eigen::Vector3d& q,
                                           double mu,
                                           double rho_ref,
                                           int max_iterations,
                                           double tolerance,
                                           double* rho,
                                           Eigen::Vector3d* r);

// The chosen solver with keep-or-discard (see the header comment). rho_fp is
// the contact's FP-VI-UPK step, carried over between sweeps.
LocalSolveInfo SolveContact(LocalSolverType type,
                            const Eigen::Matrix3d& W,
                            const Eigen::Vector3d& q,
                            double mu,
                            const ContactScaling& scaling,
                            int max_iterations,
                            double tolerance,
                            double* rho_fp,
                            Eigen::Vector3d* r);

}  // namespace fcsn::internal

#endif  // FCSN_NSGS_LOCAL_SOLVERS_H_
