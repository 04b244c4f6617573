// formulations/coulomb_cone.h: the Coulomb friction cone of one contact and
// its projections (formulations.md §1.3, §2).
//
// Local frame (N, T1, T2), x = (x_N, x_T), t = ||x_T||, mu >= 0:
//
//   K_mu  = { x : ||x_T|| <= mu x_N }    (mu = 0: the ray x_T = 0, x_N >= 0)
//   K*_mu = { y : mu ||y_T|| <= y_N }    (mu = 0: the half-space y_N >= 0)
//
// Projection onto K_mu (closed form, §2.1) and the element J_P of its
// generalized Jacobian (§2.4), with k = 1/(1+mu^2), x^ = x_T/t:
//
//   region    condition               P_K(x)          J_P(x)
//   interior  x_N >= 0, t <= mu x_N   x               I_3 (mu > 0)
//   polar     mu t <= -x_N            0               0
//   boundary  otherwise (t > 0)       c (1, mu x^)    see below
//             c = (x_N + mu t) k
//
//   boundary: J_P = k [ 1      mu x^T      ] + (mu c / t) [ 0  0           ]
//                     [ mu x^  mu^2 x^ x^T ]              [ 0  I - x^ x^T  ]
//
// Kinks (formulations.md §3.5): on t = mu x_N and at the apex the interior
// formula (J_P = I, the limit from inside K); on mu t = -x_N the polar one
// (J_P = 0). The test x_N >= 0 in the interior case matters only for mu = 0,
// where t <= mu x_N alone would accept x_N < 0 (a slip in §2.1's formula).
// For mu = 0 the interior region {x_T = 0, x_N >= 0} has an empty interior,
// so I_3 is not a limit of Jacobians there: the boundary formula at mu = 0,
// J_P = diag(1, 0, 0), is returned instead (P_K = ((x_N)_+, 0, 0) is smooth
// in x_T).
//
// Dual cone (§2.2): P_K*(y) = y + P_K(-y) (Moreau), so that
//   x = P_K(x) + P_-K*(x),  P_-K*(x) = -P_K*(-x),  P_K(x) . P_-K*(x) = 0.
//
// Disk D(R) in R^2, R >= 0 (§2.3): P_D(s) = s if ||s|| <= R, else R s^ with
// s^ = s/||s||. Outside: dP_D/ds = R Gamma, Gamma = (I - s^ s^T)/||s||, and
// dP_D/dR = s^. Inside (||s|| <= R, s = 0 included): dP_D/ds = I, dP_D/dR = 0.
//
// De Saxce modified velocity (§1.3): u^ = u + mu ||u_T|| e_N, and
//   Du^ = du^/du = [ 1  mu u-_T^T ],   u-_T = u_T / ||u_T||.
//                  [ 0  I_2       ]
// At u_T = 0, ||u_T|| is not differentiable; fcsn uses u-_T = (1, 0)
// (TangentAtZero()), the limit along u_T = t e_T1, t -> 0+, an element of the
// B-subdifferential (formulations.md §3.3a, §3.5).
//
// Reference: formulations.md §1.3, §2; the closed form is the one of Siconos
// linalg/projectionOnCone.c.
//
// Usage:
//   fcsn::CoulombCone cone(mu);
//   Eigen::Matrix3d J;
//   Eigen::Vector3d p = cone.Project(x, &J);  // P_K(x), element of dP_K(x)
//   Eigen::Vector3d q = fcsn::ProjectOntoCone(mu, x);
#ifndef FCSN_FORMULATIONS_COULOMB_CONE_H_
#define FCSN_FORMULATIONS_COULOMB_CONE_H_

#include <Eigen/Core>

namespace fcsn {

// Where x lies with respect to K_mu: which formula of the projection applies.
enum class ConeRegion {
  kInterior,  // x in K_mu, boundary and apex included: P_K(x) = x
  kPolar,     // x in -K*_mu, boundary included: P_K(x) = 0
  kBoundary,  // neither: P_K(x) is on the ray through (1, mu x_T/||x_T||)
};

// Coulomb cone K_mu as a small value type (no heap). mu: finite, >= 0.
class CoulombCone {
 public:
  // Unit tangent used for d||u_T||/du_T at u_T = 0 (see the file comment).
  static Eigen::Vector2d TangentAtZero() { return Eigen::Vector2d(1.0, 0.0); }

  explicit CoulombCone(double mu) : mu_(mu) {}

  double mu() const { return mu_; }

  // ||x_T|| <= mu x_N (and x_N >= 0).
  bool Contains(const Eigen::Vector3d& x) const;
  // mu ||y_T|| <= y_N.
  bool DualContains(const Eigen::Vector3d& y) const;
  // Which case of the closed-form projection applies (ties: file comment).
  ConeRegion Classify(const Eigen::Vector3d& x) const;

  // P_K(x). If J is not null, it receives the element J_P(x) described in the
  // file comment.
  Eigen::Vector3d Project(const Eigen::Vector3d& x,
                          Eigen::Matrix3d* J = nullptr) const;
  // P_{K*}(y) = y + P_K(-y).
  Eigen::Vector3d ProjectOntoDual(const Eigen::Vector3d& y) const;
  // P_{-K*}(x) = x - P_K(x), the projection onto the polar cone.
  Eigen::Vector3d ProjectOntoPolar(const Eigen::Vector3d& x) const;

  // u^ = u + mu ||u_T|| e_N. If D is not null, it receives Du^, with
  // u-_T = TangentAtZero() at u_T = 0.
  Eigen::Vector3d ModifiedVelocity(const Eigen::Vector3d& u,
                                   Eigen::Matrix3d* D = nullptr) const;

 private:
  double mu_;
};

// P_{K_mu}(x), free-function form (used by the error measures, §9.1).
Eigen::Vector3d ProjectOntoCone(double mu, const Eigen::Vector3d& x);
// P_{K*_mu}(y).
Eigen::Vector3d ProjectOntoDualCone(double mu, const Eigen::Vector3d& y);

// P_{D(R)}(s) for the disk of radius R (R < 0 is treated as R = 0). Optional
// outputs: the Jacobians d_ds = dP/ds (2x2) and d_dR = dP/dR (2-vector), with
// the conventions of the file comment.
Eigen::Vector2d ProjectOntoDisk(double R,
                                const Eigen::Vector2d& s,
                                Eigen::Matrix2d* d_ds = nullptr,
                                Eigen::Vector2d* d_dR = nullptr);

}  // namespace fcsn

#endif  // FCSN_FORMULATIONS_COULOMB_CONE_H_
