#include "formulations/alart_curnier.h"

#include "formulations/disk_friction.h"

namespace fcsn::internal {

double AlartCurnierRadius(const Eigen::Vector3d& u,
                          const Eigen::Vector3d& r,
                          double mu,
                          const Eigen::Vector3d& rho) {
  const double s_n = r(0) - rho(0) * u(0);
  return s_n > 0.0 ? mu * s_n : 0.0;
}

void AlartCurnierResidual(const Eigen::Vector3d& u,
                          const Eigen::Vector3d& r,
                          double mu,
                          const Eigen::Vector3d& rho,
                          Eigen::Vector3d* F,
                          Eigen::Matrix3d* A,
                          Eigen::Matrix3d* B,
                          DiskPiece piece) {
  const bool active = r(0) - rho(0) * u(0) > 0.0;
  const double radius = AlartCurnierRadius(u, r, mu, rho);
  // dR/du_N = -mu rho_N and dR/dr_N = mu on the active side, 0 otherwise.
  const double d_radius_d_u_n = active ? -mu * rho(0) : 0.0;
  const double d_radius_d_r_n = active ? mu : 0.0;
  EvaluateNormalRow(u, r, rho, active, F, A, B);
  EvaluateDiskRows(
      u, r, rho, radius, d_radius_d_u_n, d_radius_d_r_n, F, A, B, piece);
}

}  // namespace fcsn::internal
