// nsgs/fp_vi_upk.h: the NSGS local step of NSGS-FP-VI-UPK as the masonry
// paper runs it (Acary–Brémond–Dubois draft, masonry_wall.md §1.2): a fixed
// point on the natural map with a self-adaptive rho, a FEW projections per
// contact per sweep, not a local problem solved to a tolerance (solving it to
// 1e-14, as SolveContactFixedPointViUpk of local_solvers.h does, makes the
// sweeps those of NSGS-AC: the one-contact solution is unique).
//
// One-contact problem (contact a, the others frozen; formulations.md §7.2):
//
//   u = W r + q,   W = W_aa,   q = q_loc,
//   r = P_K(r - rho û(u)),   û(u) = u + mu ||u_T|| e_N   (natural-map fixed
//   point; its fixed points are the solutions for every rho > 0).
//
// One projection from r_k, u_k = W r_k + q, with the contact's carried rho
// (formulations.md §7.3, Siconos fc3d_projection.c:350-513, "PLI"):
//
//   for j = 0, 1, ..., kMaxTrials - 1:
//     rho_j = rho tau^j,   r_j = P_K(r_k - rho_j û(u_k)),   u_j = W r_j + q
//     accept j as soon as   rho_j ||u_j - u_k|| <= L ||r_j - r_k||         (A)
//   (no j accepted: the last trial is taken)
//   r_{k+1} = r_j,  and the rho carried to the next projection is
//     rho_j / tau   if  rho_j ||u_j - u_k|| < L_min ||r_j - r_k||
//                   and e(r_j) < e(r_k)                                     (G)
//     rho_j         otherwise,
//   then capped at kMaxRhoGrowth rho_ref.
//
// Constants (formulations.md §7.3, Siconos' defaults):
//   tau   = 2/3  shrink factor of a rejected trial; 1/tau = 3/2 is the growth.
//   L     = 0.9  acceptance bound (A) on rho times the local Lipschitz ratio
//                ||u_j - u_k|| / ||r_j - r_k|| = ||W dr|| / ||dr|| of r -> u
//                along the step: the step must not overshoot (rho lambda < 1
//                is what makes the projection contract when W is SPD).
//   L_min = 0.3  growth bound (G): a step this far below the bound is timid,
//                and rho grows, provided the local error went down.
//   kMaxTrials = 10 trials per projection (Siconos: 10).
//   kMaxRhoGrowth = 1e8: cap on rho / rho_ref; with a singular W the ratio in
//                (A) can stay 0 and rho would grow without bound.
// e is the unit-free local natural-map error LocalNaturalMapError of
// local_solvers.h (scaled by rho_ref = 1 / lambda_max(W_aa)).
//
// fcsn's choices: the first rho of a contact is rho_ref = 1 / lambda_max(W_aa)
// (Siconos starts at 1.0, which depends on the units); there is no take-off
// shortcut and no keep-or-discard (the paper's step is the plain projection;
// a non-finite projection is refused: r stays at the last finite iterate).
//
// Usage (inside a sweep; rho survives from sweep to sweep):
//   FpViUpkStepInfo info = FpViUpkProjections(W_aa, q_loc, mu, rho_ref,
//                                             /*projections=*/1, &rho_a, &r_a);
#ifndef FCSN_NSGS_FP_VI_UPK_H_
#define FCSN_NSGS_FP_VI_UPK_H_

#include <Eigen/Core>

namespace fcsn::internal {

// The constants of the rule above.
struct FpViUpkConstants {
  static constexpr double kTau = 2.0 / 3.0;
  static constexpr double kL = 0.9;
  static constexpr double kLMin = 0.3;
  static constexpr int kMaxTrials = 10;
  static constexpr double kMaxRhoGrowth = 1e8;
};

// What FpViUpkProjections did.
struct FpViUpkStepInfo {
  int projections = 0;     // projections taken (accepted r_j)
  int trials = 0;          // projections computed, rejected trials included
  int rejected = 0;        // projections whose every trial failed (A)
  double rho_in = 0.0;     // the carried rho at entry (after the start rule)
  double rho_out = 0.0;    // the carried rho at exit
  double error_in = 0.0;   // e(r) at entry
  double error_out = 0.0;  // e(r) at exit
  bool finite = true;      // false: a non-finite projection was refused
};

// `projections` (>= 1) projections of the rule above from *r. *rho is the
// contact's carried step (in: last value, or a non-positive or non-finite
// value to start from rho_ref; out: the value to carry). rho_ref > 0.
FpViUpkStepInfo FpViUpkProjections(const Eigen::Matrix3d& W,
                                   const Eigen::Vector3d& q,
                                   double mu,
                                   double rho_ref,
                                   int projections,
                                   double* rho,
                                   Eigen::Vector3d* r);

}  // namespace fcsn::internal

#endif  // FCSN_NSGS_FP_VI_UPK_H_
