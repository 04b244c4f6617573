// formulations/disk_friction.h: rows shared by Alart-Curnier and Jean-Moreau
// (formulations.md §3.1-§3.2). Internal and header-only, so that both
// residuals inline it.
//
//   normal row:   F_N = r_N - (s_N)_+,        s_N = r_N - rho_N u_N
//   tangential:   F_T = r_T - P_D(R)(s_T),    s_T = r_T - Rho_T u_T
//
// Rho_T = diag(rho_T1, rho_T2). The caller gives the radius R >= 0 and its
// partial derivatives dR/du_N, dR/dr_N (AC: R = mu (s_N)_+; JM:
// R = mu (r_N)_+). Tangential split, with s^ = s_T/||s_T|| and
// Gamma = (I - s^ s^T)/||s_T||:
//
//   R > 0, ||s_T|| <= R:  F_T = Rho_T u_T,   dF_T/du_T = Rho_T,
//                         every other tangential entry 0
//   R > 0, ||s_T|| > R:   F_T = r_T - R s^,  dF_T/du_T = R Gamma Rho_T,
//                         dF_T/dr_T = I - R Gamma,
//                         dF_T/du_N = -s^ dR/du_N,  dF_T/dr_N = -s^ dR/dr_N
//   R = 0:                F_T = r_T,         dF_T/dr_T = I, others 0
//
// Only the "R > 0, ||s_T|| > R" branch divides, by ||s_T|| > R > 0. A
// prescribed piece (DiskPiece, formulations/residual.h) takes the first or
// the second branch whatever ||s_T|| is, but for R = 0 and, for kSlip,
// s_T = 0.
#ifndef FCSN_FORMULATIONS_DISK_FRICTION_H_
#define FCSN_FORMULATIONS_DISK_FRICTION_H_

#include <Eigen/Core>

#include "formulations/residual.h"

namespace fcsn::internal {

// The piece of the point: kNone for R <= 0 (open), else kStick or kSlip.
inline DiskPiece DiskPieceAt(double norm_s_t, double radius) {
  if (!(radius > 0.0)) return DiskPiece::kNone;
  return norm_s_t <= radius ? DiskPiece::kStick : DiskPiece::kSlip;
}

// Writes F(0) and, if A, B are non-null, zeroes A and B and writes A(0,0),
// B(0,0).
inline void EvaluateNormalRow(const Eigen::Vector3d& u,
                              const Eigen::Vector3d& r,
                              const Eigen::Vector3d& rho,
                              bool active,
                              Eigen::Vector3d* F,
                              Eigen::Matrix3d* A,
                              Eigen::Matrix3d* B) {
  (*F)(0) = active ? rho(0) * u(0) : r(0);
  if (A != nullptr) {
    A->setZero();
    B->setZero();
    (*A)(0, 0) = active ? rho(0) : 0.0;
    (*B)(0, 0) = active ? 0.0 : 1.0;
  }
}

// Writes F(1:2) and, if A, B are non-null, their rows 1:2 (A, B already zeroed
// by EvaluateNormalRow), on the point's piece or the prescribed one.
inline void EvaluateDiskRows(const Eigen::Vector3d& u,
                             const Eigen::Vector3d& r,
                             const Eigen::Vector3d& rho,
                             double radius,
                             double d_radius_d_u_n,
                             double d_radius_d_r_n,
                             Eigen::Vector3d* F,
                             Eigen::Matrix3d* A,
                             Eigen::Matrix3d* B,
                             DiskPiece piece) {
  const Eigen::Vector2d rho_u_t(rho(1) * u(1), rho(2) * u(2));
  if (!(radius > 0.0)) {
    F->tail<2>() = r.tail<2>();
    if (B != nullptr) B->block<2, 2>(1, 1).setIdentity();
    return;
  }
  const Eigen::Vector2d s_t = r.tail<2>() - rho_u_t;
  const double norm_s_t = s_t.norm();
  const bool slip_prescribed = piece == DiskPiece::kSlip && norm_s_t > 0.0;
  if (piece == DiskPiece::kStick ||
      (!slip_prescribed &&
       DiskPieceAt(norm_s_t, radius) == DiskPiece::kStick)) {
    F->tail<2>() = rho_u_t;
    if (A != nullptr) {
      (*A)(1, 1) = rho(1);
      (*A)(2, 2) = rho(2);
    }
    return;
  }
  const Eigen::Vector2d s_hat = s_t / norm_s_t;
  F->tail<2>() = r.tail<2>() - radius * s_hat;
  if (A != nullptr) {
    const Eigen::Matrix2d r_gamma =
        (radius / norm_s_t) *
        (Eigen::Matrix2d::Identity() - s_hat * s_hat.transpose());
    A->block<2, 1>(1, 0) = -d_radius_d_u_n * s_hat;
    A->block<2, 1>(1, 1) = rho(1) * r_gamma.col(0);
    A->block<2, 1>(1, 2) = rho(2) * r_gamma.col(1);
    B->block<2, 1>(1, 0) = -d_radius_d_r_n * s_hat;
    B->block<2, 2>(1, 1) = Eigen::Matrix2d::Identity() - r_gamma;
  }
}

}  // namespace fcsn::internal

#endif  // FCSN_FORMULATIONS_DISK_FRICTION_H_
