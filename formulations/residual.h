// formulations/residual.h: per-contact residuals F(u, r; mu, rho) in R^3 and
// their generalized Jacobian blocks A = dF/du, B = dF/dr (3x3, order N, T1,
// T2) for the four formulations of formulations.md §3.
//
// For one contact (r_N >= 0 compressive, u_N >= 0 separating):
//
//   F(u, r) = 0  <=>  K*_mu  ∋  u + mu ||u_T|| e_N  ⟂  r  ∈  K_mu
//
// with s_N = r_N - rho_N u_N and s_T = r_T - diag(rho_T1, rho_T2) u_T:
//
//   kAlartCurnier       F_N = r_N - (s_N)_+               alart_curnier.h
//                       F_T = r_T - P_D(mu (s_N)_+)(s_T)
//   kJeanMoreau         F_N = r_N - (s_N)_+               jean_moreau.h
//                       F_T = r_T - P_D(mu (r_N)_+)(s_T)
//   kNaturalMap         F = r - P_K(r - rho_N u^),        natural_map.h
//                       u^ = u + mu ||u_T|| e_N
//   kFischerBurmeister  F = phi_FB(D r, rho_N E(u))       fischer_burmeister.h
//                       (second-order-cone Jordan algebra)
//
// Scaling rho = (rho_N, rho_T1, rho_T2), all > 0:
// * AC and JM use the three values componentwise (as Siconos' generated
//   code). Their zero set does not depend on rho as long as rho_T1 = rho_T2;
//   with rho_T1 != rho_T2 the slip rule becomes u_T = -l diag(rho_T)^-1 r_T,
//   an anisotropic law. Keep rho_T1 = rho_T2 for Coulomb friction.
// * NM and FB are cone-complementarity functions: only a positive scalar
//   multiple of u keeps their zero set, so they use the scalar rho_N and
//   ignore rho_T1, rho_T2.
//
// Every kink has a fixed, documented element, a one-sided limit of Jacobians
// (formulations.md §3.5; details in each header). No branch divides by zero
// and finite inputs (|.| < 1e150, so that squares do not overflow) give
// finite outputs.
//
// Usage (Newton driver):
//   Eigen::VectorXd F(3 * nc);
//   std::vector<Eigen::Matrix3d> A(nc), B(nc);
//   fcsn::EvaluateAll(fcsn::Formulation::kAlartCurnier, u, r, mu, rho, &F,
//                     A.data(), B.data());
#ifndef FCSN_FORMULATIONS_RESIDUAL_H_
#define FCSN_FORMULATIONS_RESIDUAL_H_

#include <Eigen/Core>

#include "fcsn/types.h"

namespace fcsn {

// The tangential piece of a disk formulation (AC, JM) at one contact, with
// radius R (AC: mu (s_N)_+, JM: mu (r_N)_+): kStick ||s_T|| <= R, kSlip
// ||s_T|| > R, kNone R = 0 (the contact is open: F_T = r_T). Prescribed to
// EvaluateAll, kStick and kSlip evaluate that piece's formula and its
// Jacobian at the point even where the point lies on the other piece (the
// formulas extend smoothly across ||s_T|| = R), and kNone lets the point
// choose. An open contact, and a prescribed kSlip at s_T = 0, keep the
// point's own piece.
enum class DiskPiece : signed char { kNone, kStick, kSlip };

// Whether the formulation has disk pieces (AC and JM; NM and FB have none).
bool HasDiskPieces(Formulation formulation);

// For AC and JM: each contact's piece at (u, r) into pieces[0..nc) and its
// s_T = r_T - Rho_T u_T into (*s_t)[2a..2a+1] (s_t resized to 2 nc). nc is
// mu.size(). Not to be called for NM and FB (asserted).
void ClassifyDiskPieces(Formulation formulation,
                        const Eigen::VectorXd& u,
                        const Eigen::VectorXd& r,
                        const Eigen::VectorXd& mu,
                        const Eigen::VectorXd& rho,
                        DiskPiece* pieces,
                        Eigen::VectorXd* s_t);

// One contact. F only when A == nullptr && B == nullptr; otherwise both must be
// non-null (if only one is given, the other block is computed into scratch
// storage and discarded). F must be non-null.
void EvaluateContact(Formulation formulation,
                     const Eigen::Vector3d& u,
                     const Eigen::Vector3d& r,
                     double mu,
                     const Eigen::Vector3d& rho,
                     Eigen::Vector3d* F,
                     Eigen::Matrix3d* A,
                     Eigen::Matrix3d* B);

// Batched over nc contacts: u, r, rho have 3*nc entries, mu has nc; F (size
// 3nc) is preallocated by the caller; A and B point to arrays of nc
// preallocated Matrix3d, or are both nullptr (F only). No allocation inside.
// Contact a uses entries 3a..3a+2. If only one of A, B is non-null, only F is
// evaluated. nc is taken as mu.size(); if u, r, rho or F are shorter than 3 nc
// (a caller bug), only the contacts they fully cover are evaluated (checked by
// assert in debug builds). pieces: nullptr, or nc prescribed DiskPiece values
// (AC and JM; NM and FB ignore them).
void EvaluateAll(Formulation formulation,
                 const Eigen::VectorXd& u,
                 const Eigen::VectorXd& r,
                 const Eigen::VectorXd& mu,
                 const Eigen::VectorXd& rho,
                 Eigen::VectorXd* F,
                 Eigen::Matrix3d* A,
                 Eigen::Matrix3d* B,
                 const DiskPiece* pieces = nullptr);

}  // namespace fcsn

#endif  // FCSN_FORMULATIONS_RESIDUAL_H_
