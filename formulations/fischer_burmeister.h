// formulations/fischer_burmeister.h: Fischer-Burmeister function for the
// second-order-cone form of the contact law (formulations.md §3.4).
//
// mu > 0. K_mu and K*_mu are mapped onto L = {x : ||x_T|| <= x_N}:
//   x = D r = (mu r_N, r_T),   y = rho_N E(u),
//   E(u) = (u_N + mu ||u_T||, mu u_T),
//   K* ∋ u^ ⟂ r ∈ K  <=>  L ∋ y ⟂ x ∈ L,
//   F(u, r) = phi(x, y) = x + y - (x∘x + y∘y)^(1/2).
// Jordan algebra: a∘b = (a^T b, a_N b_T + b_N a_T) = L_a b,
//   L_a = [ a_N  a_T^T   ]
//         [ a_T  a_N I_2 ]
//   w = x∘x + y∘y = (||x||^2 + ||y||^2, 2 (x_N x_T + y_N y_T)),
//   l1, l2 = w_N -/+ ||w_T||,   w^ = w_T/||w_T||,
//   s = w^(1/2) = 1/2 (sqrt(l1) + sqrt(l2), (sqrt(l2) - sqrt(l1)) w^).
// l1 is computed as det(w)/l2, with det(w) = w_N^2 - ||w_T||^2 written as a
// sum of squares, so it keeps full relative accuracy near the boundary of L.
//
// Jacobians, smooth case (l1 > 0):
//   dphi/dx = I - L_s^-1 L_x,   dphi/dy = I - L_s^-1 L_y,
//   L_s^-1 = P1/sqrt(l1) + P2/sqrt(l2) + 2 Pp/(sqrt(l1) + sqrt(l2)),
//   P1, P2 = 1/2 [ 1       -/+w^T ],   Pp = [ 0  0          ]
//                [ -/+w^   w^ w^T ]         [ 0  I - w^ w^T ]
//   B = dphi/dx D,   A = rho_N dphi/dy dE/du,
//   dE/du = [ 1  mu u-_T^T ],   u-_T = u_T/||u_T||.
//           [ 0  mu I_2    ]
// F_N and the first rows of A, B are in these scaled units (x_N = mu r_N).
//
// mu = 0: scalar FB on the normal pair and F_T = r_T (the scaled form would
// lose r_N): F_N = a + b - sqrt(a^2 + b^2), a = r_N, b = rho_N u_N.
//
// rho: only the scalar rho_N is used (a non-scalar scaling of y would change
// the zero set).
//
// Kinks (formulations.md §3.5), each a one-sided limit of Jacobians:
// * w = 0 (x = y = 0; a = b = 0 for mu = 0): dphi/dx = dphi/dy =
//   (1 - 1/sqrt(2)) I, the limit along x = y = t e_N, t -> 0+.
// * w_T = 0, w != 0: w^ = (1, 0); L_s^-1 = w_N^(-1/2) I for any w^.
// * l1 = 0 < l2 (w on the boundary of L; then x = x_N (1, w^) and
//   y = y_N (1, w^)): the limit along x + t (1, -w^), t -> 0+, i.e. along
//   r + t (1/mu, -w^). There P1 L_x / sqrt(l1) -> P1 and
//   P1 L_y / sqrt(l1) -> 0. Used when sqrt(l1) <= eps sqrt(l2)
//   (eps = machine epsilon), below which sqrt(l1) is rounding noise.
// * u_T = 0: u-_T = (1, 0) (CoulombCone::TangentAtZero()), the limit along
//   u_T = t e_T1, t -> 0+.
// No branch divides by zero.
//
// Reference: M. Fukushima, Z.-Q. Luo, P. Tseng, SIAM J. Optim. 12 (2001);
// formulations.md §3.4. Siconos' FischerBurmeisterGenerated.c is not used
// (generated code without its generator, rho ignored, 500 eps thresholds).
#ifndef FCSN_FORMULATIONS_FISCHER_BURMEISTER_H_
#define FCSN_FORMULATIONS_FISCHER_BURMEISTER_H_

#include <Eigen/Core>

namespace fcsn::internal {

// F (non-null) and, when A and B are both non-null, the Jacobian blocks. A, B:
// both null or both set.
void FischerBurmeisterResidual(const Eigen::Vector3d& u,
                               const Eigen::Vector3d& r,
                               double mu,
                               const Eigen::Vector3d& rho,
                               Eigen::Vector3d* F,
                               Eigen::Matrix3d* A,
                               Eigen::Matrix3d* B);

// The SOC Fischer-Burmeister function phi(x, y) in R^3 and, if dphi_dx, dphi_dy
// are non-null, the element of its generalized Jacobian described above.
Eigen::Vector3d SocFischerBurmeister(const Eigen::Vector3d& x,
                                     const Eigen::Vector3d& y,
                                     Eigen::Matrix3d* dphi_dx,
                                     Eigen::Matrix3d* dphi_dy);

}  // namespace fcsn::internal

#endif  // FCSN_FORMULATIONS_FISCHER_BURMEISTER_H_
