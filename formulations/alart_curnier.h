// formulations/alart_curnier.h: Alart-Curnier residual (formulations.md §3.1).
//
//   s_N = r_N - rho_N u_N,   s_T = r_T - Rho_T u_T,   R = mu (s_N)_+
//   F_N = r_N - (s_N)_+
//   F_T = r_T - P_D(R)(s_T)
//
// with Rho_T = diag(rho_T1, rho_T2), s^ = s_T/||s_T||,
// Gamma = (I - s^ s^T)/||s_T||.
//
// Case split (A = dF/du, B = dF/dr; A_NT = B_NT = 0 in every case):
//
//   normal active    s_N > 0     F_N = rho_N u_N   A_NN = rho_N, B_NN = 0
//   normal inactive  s_N <= 0    F_N = r_N         A_NN = 0,     B_NN = 1
//
//   tangential  condition             F_T         A_TN          A_TT
//                                                 B_TN          B_TT
//   stick       R > 0, ||s_T|| <= R   Rho_T u_T   0             Rho_T
//                                                 0             0
//   slip        R > 0, ||s_T|| > R    r_T - R s^  mu rho_N s^   R Gamma Rho_T
//                                                 -mu s^        I - R Gamma
//   open        R = 0                 r_T         0             0
//                                                 0             I
//
// Kinks (formulations.md §3.5):
// * s_N = 0: inactive (strict s_N > 0, as Siconos STD).
// * ||s_T|| = R > 0: stick (<=). ||s_T|| = 0 with R > 0: stick; no division.
// * Deviation from the literal §3.5 row "||s_T|| = 0 -> stick": when R = 0
//   (s_N <= 0 or mu = 0) the tangential rows are "open" even at s_T = 0.
//   There R = 0 on a neighbourhood (or on the side s_N < 0 that the s_N = 0
//   rule picks), F_T = r_T is smooth, and the stick element (A_TT = Rho_T,
//   B_TT = 0) is not in its generalized Jacobian; it would also make Newton
//   drive u_T to 0 at an open or frictionless contact.
//
// Reference: P. Alart, A. Curnier, CMAME 92 (1991); Siconos
// FrictionContact/fc3d_AlartCurnier_functions.c (computeAlartCurnierSTD), and
// the generated fc3d_AlartCurnierFABGenerated.c for distinct rho_T1, rho_T2
// (column j of A_TT scaled by rho_Tj).
#ifndef FCSN_FORMULATIONS_ALART_CURNIER_H_
#define FCSN_FORMULATIONS_ALART_CURNIER_H_

#include <Eigen/Core>

#include "formulations/residual.h"

namespace fcsn::internal {

// The radius R of the friction disk (the header's formula).
double AlartCurnierRadius(const Eigen::Vector3d& u,
                          const Eigen::Vector3d& r,
                          double mu,
                          const Eigen::Vector3d& rho);

// F (non-null) and, when A and B are both non-null, the Jacobian blocks, on
// the point's tangential piece or the prescribed one (DiskPiece). A, B: both
// null or both set.
void AlartCurnierResidual(const Eigen::Vector3d& u,
                          const Eigen::Vector3d& r,
                          double mu,
                          const Eigen::Vector3d& rho,
                          Eigen::Vector3d* F,
                          Eigen::Matrix3d* A,
                          Eigen::Matrix3d* B,
                          DiskPiece piece = DiskPiece::kNone);

}  // namespace fcsn::internal

#endif  // FCSN_FORMULATIONS_ALART_CURNIER_H_
