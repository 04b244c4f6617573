#include "formulations/jean_moreau.h"

#include "formulations/disk_friction.h"

namespace fcsn::internal {

double JeanMoreauRadius(const Eigen::Vector3d& /*u*/,
                        const Eigen::Vector3d& r,
                        double mu,
                        const Eigen::Vector3d& /*rho*/) {
  return r(0) > 0.0 ? mu * r(0) : 0.0;
}

void JeanMoreauResidual(const Eigen::Vector3d& u,
                        const Eigen::Vector3d& r,
                        double mu,
                        const Eigen::Vector3d& rho,
                        Eigen::Vector3d* F,
                        Eigen::Matrix3d* A,
                        Eigen::Matrix3d* B,
                        DiskPiece piece) {
  const double s_n = r(0) - rho(0) * u(0);
  const double radius = JeanMoreauRadius(u, r, mu, rho);
  // R = mu (r_N)_+ does not depend on u; dR/dr_N = mu for r_N > 0 and 0 on the
  // clamped side.
  const double d_radius_d_r_n = r(0) > 0.0 ? mu : 0.0;
  EvaluateNormalRow(u, r, rho, s_n > 0.0, F, A, B);
  EvaluateDiskRows(u, r, rho, radius, 0.0, d_radius_d_r_n, F, A, B, piece);
}

}  // namespace fcsn::internal
