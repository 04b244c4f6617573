// formulations/jean_moreau.h: Jean-Moreau / Christensen-Pang residual
// (formulations.md §3.2).
//
//   s_N = r_N - rho_N u_N,   s_T = r_T - Rho_T u_T,   R = mu (r_N)_+
//   F_N = r_N - (s_N)_+          (as Alart-Curnier)
//   F_T = r_T - P_D(R)(s_T)      (the radius comes from r_N, not from s_N)
//
// with Rho_T = diag(rho_T1, rho_T2), s^ = s_T/||s_T||,
// Gamma = (I - s^ s^T)/||s_T||.
//
// Case split (A = dF/du, B = dF/dr; A_NT = B_NT = A_TN = 0 in every case):
//
//   normal active    s_N > 0     F_N = rho_N u_N   A_NN = rho_N, B_NN = 0
//   normal inactive  s_N <= 0    F_N = r_N         A_NN = 0,     B_NN = 1
//
//   tangential   condition              F_T          A_TT           B_TN
//                                                                   B_TT
//   in disk      R > 0, ||s_T|| <= R    Rho_T u_T    Rho_T          0
//                                                                   0
//   outside      R > 0, ||s_T|| > R     r_T - R s^   R Gamma Rho_T  -mu s^
//                                                                   I - R Gamma
//   radius zero  R = 0                  r_T          0              0
//   (r_N <= 0 or mu = 0)                                            I
//
// Kinks (formulations.md §3.5):
// * s_N = 0: inactive. ||s_T|| = R > 0: in disk (<=).
// * r_N <= 0: R = 0 (clamped; Siconos' hand-written JM lets R go negative,
//   §10.11). At r_N = 0 this is the limit from the side r_N < 0.
// * As in alart_curnier.h, s_T = 0 with R = 0 takes the "radius zero" rows
//   (F_T = r_T is smooth there), not the stick rows.
//
// Reference: P. W. Christensen, A. Klarbring, J.-S. Pang, N. Stromberg,
// IJNME 42 (1998); Siconos FrictionContact/fc3d_AlartCurnier_functions.c
// (computeAlartCurnierJeanMoreau).
#ifndef FCSN_FORMULATIONS_JEAN_MOREAU_H_
#define FCSN_FORMULATIONS_JEAN_MOREAU_H_

#include <Eigen/Core>

#include "formulations/residual.h"

namespace fcsn::internal {

// The radius R of the friction disk (the header's formula).
double JeanMoreauRadius(const Eigen::Vector3d& u,
                        const Eigen::Vector3d& r,
                        double mu,
                        const Eigen::Vector3d& rho);

// F (non-null) and, when A and B are both non-null, the Jacobian blocks, on
// the point's tangential piece or the prescribed one (DiskPiece). A, B: both
// null or both set.
void JeanMoreauResidual(const Eigen::Vector3d& u,
                        const Eigen::Vector3d& r,
                        double mu,
                        const Eigen::Vector3d& rho,
                        Eigen::Vector3d* F,
                        Eigen::Matrix3d* A,
                        Eigen::Matrix3d* B,
                        DiskPiece piece = DiskPiece::kNone);

}  // namespace fcsn::internal

#endif  // FCSN_FORMULATIONS_JEAN_MOREAU_H_
