#include "formulations/alart_curnier.h"

#include "formulations/disk_friction.h"

namespace fcsn::internal {

void AlartCurnierResidual(const Eigen::Vector3d& u,
                          const Eigen::Vector3d& r,
                          double mu,
                          const Eigen::Vector3d& rho,
                          Eigen::Vector3d* F,
                          Eigen::Matrix3d* A,
                          Eigen::Matrix3d* B) {
  const double s_n = r(0) - rho(0) * u(0);
  const bool active = s_n > 0.0;
  const double radius = active ? mu * s_n : 0.0;
  // dR/du_N = -mu rho_N and dR/dr_N = mu on the active side, 0 otherwise.
  const double d_radius_d_u_n = active ? -mu * rho(0) : 0.0;
  const double d_radius_d_r_n = active ? mu : 0.0;
  EvaluateNormalRow(u, r, rho, active, F, A, B);
  EvaluateDiskRows(u, r, rho, radius, d_radius_d_u_n, d_radius_d_r_n, F, A, B);
}

}  // namespace fcsn::internal
