// formulations/natural_map.h: natural map in the original variables
// (formulations.md §3.3a).
//
//   u^ = u + mu ||u_T|| e_N,   z = r - rho_N u^,   F(u, r) = r - P_K(z)
//   A = dF/du = rho_N J_P(z) Du^,   B = dF/dr = I_3 - J_P(z)
//   Du^ = [ 1  mu u-_T^T ],   u-_T = u_T / ||u_T||
//         [ 0  I_2       ]
//
// Case split (J_P from coulomb_cone.h, §2.4):
//   z in K          F = rho_N u^,  A = rho_N Du^,  B = 0
//   z in -K*        F = r,         A = 0,          B = I
//   otherwise       projection onto the boundary ray of K
// With rho_N = 1 this is the function of the error measure e_nat (§9.1).
//
// rho: only the scalar rho_N is used (a non-scalar scaling of u^ would change
// the zero set).
//
// Kinks (formulations.md §3.5):
// * P_K boundaries: interior formula, J_P = I on ||z_T|| = mu z_N and at the
//   apex, J_P = 0 on mu ||z_T|| = -z_N. For mu = 0, J_P = diag(1, 0, 0) when
//   z_T = 0, z_N >= 0 (see coulomb_cone.h).
// * u_T = 0: u-_T = (1, 0), the limit along u_T = t e_T1, t -> 0+ (an element
//   of the B-subdifferential; CoulombCone::TangentAtZero()). Du^ stays unit
//   upper triangular, hence invertible.
//
// Reference: formulations.md §3.3a; V. Acary, M. Bremond, O. Huber, INRIA
// RR-9118 (2018). Siconos' scaled form (fc3d_NaturalMap*Generated.c) is not
// used: it loses r_N at mu = 0.
#ifndef FCSN_FORMULATIONS_NATURAL_MAP_H_
#define FCSN_FORMULATIONS_NATURAL_MAP_H_

#include <Eigen/Core>

namespace fcsn::internal {

// F (non-null) and, when A and B are both non-null, the Jacobian blocks. A, B:
// both null or both set.
void NaturalMapResidual(const Eigen::Vector3d& u,
                        const Eigen::Vector3d& r,
                        double mu,
                        const Eigen::Vector3d& rho,
                        Eigen::Vector3d* F,
                        Eigen::Matrix3d* A,
                        Eigen::Matrix3d* B);

}  // namespace fcsn::internal

#endif  // FCSN_FORMULATIONS_NATURAL_MAP_H_
