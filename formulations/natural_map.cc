#include "formulations/natural_map.h"

#include "formulations/coulomb_cone.h"

namespace fcsn::internal {

void NaturalMapResidual(const Eigen::Vector3d& u,
                        const Eigen::Vector3d& r,
                        double mu,
                        const Eigen::Vector3d& rho,
                        Eigen::Vector3d* F,
                        Eigen::Matrix3d* A,
                        Eigen::Matrix3d* B) {
  const CoulombCone cone(mu);
  const double rho_n = rho(0);
  if (A == nullptr) {
    *F = r - cone.Project(r - rho_n * cone.ModifiedVelocity(u));
    return;
  }
  Eigen::Matrix3d d_u_hat;
  Eigen::Matrix3d j_p;
  const Eigen::Vector3d u_hat = cone.ModifiedVelocity(u, &d_u_hat);
  *F = r - cone.Project(r - rho_n * u_hat, &j_p);
  *A = rho_n * j_p * d_u_hat;
  *B = Eigen::Matrix3d::Identity() - j_p;
}

}  // namespace fcsn::internal
