#include "formulations/coulomb_cone.h"

#include <algorithm>

namespace fcsn {

bool CoulombCone::Contains(const Eigen::Vector3d& x) const {
  return x(0) >= 0.0 && x.tail<2>().norm() <= mu_ * x(0);
}

bool CoulombCone::DualContains(const Eigen::Vector3d& y) const {
  return mu_ * y.tail<2>().norm() <= y(0);
}

ConeRegion CoulombCone::Classify(const Eigen::Vector3d& x) const {
  const double t = x.tail<2>().norm();
  if (x(0) >= 0.0 && t <= mu_ * x(0)) return ConeRegion::kInterior;
  if (mu_ * t <= -x(0)) return ConeRegion::kPolar;
  return ConeRegion::kBoundary;
}

Eigen::Vector3d CoulombCone::Project(const Eigen::Vector3d& x,
                                     Eigen::Matrix3d* J) const {
  const double x_n = x(0);
  const double t = x.tail<2>().norm();
  if (x_n >= 0.0 && t <= mu_ * x_n) {
    if (J != nullptr) {
      if (mu_ > 0.0) {
        J->setIdentity();
      } else {
        // mu = 0: the region is the ray itself; return the limit from the
        // boundary case.
        J->setZero();
        (*J)(0, 0) = 1.0;
      }
    }
    return x;
  }
  if (mu_ * t <= -x_n) {
    if (J != nullptr) J->setZero();
    return Eigen::Vector3d::Zero();
  }
  // Boundary case. Here t > 0: t = 0 falls in one of the two cases above for
  // any x_N.
  const double k = 1.0 / (1.0 + mu_ * mu_);
  const double c = (x_n + mu_ * t) * k;
  const Eigen::Vector2d x_hat = x.tail<2>() / t;
  if (J != nullptr) {
    const Eigen::Matrix2d xx = x_hat * x_hat.transpose();
    (*J)(0, 0) = k;
    J->block<1, 2>(0, 1) = (k * mu_) * x_hat.transpose();
    J->block<2, 1>(1, 0) = (k * mu_) * x_hat;
    J->block<2, 2>(1, 1) = (k * mu_ * mu_) * xx +
                           (mu_ * c / t) * (Eigen::Matrix2d::Identity() - xx);
  }
  Eigen::Vector3d p;
  p(0) = c;
  p.tail<2>() = (mu_ * c) * x_hat;
  return p;
}

Eigen::Vector3d CoulombCone::ProjectOntoDual(const Eigen::Vector3d& y) const {
  return y + Project(-y);
}

Eigen::Vector3d CoulombCone::ProjectOntoPolar(const Eigen::Vector3d& x) const {
  return x - Project(x);
}

Eigen::Vector3d CoulombCone::ModifiedVelocity(const Eigen::Vector3d& u,
                                              Eigen::Matrix3d* D) const {
  const double norm_u_t = u.tail<2>().norm();
  Eigen::Vector3d u_hat = u;
  u_hat(0) += mu_ * norm_u_t;
  if (D != nullptr) {
    const Eigen::Vector2d u_bar = norm_u_t > 0.0
                                      ? Eigen::Vector2d(u.tail<2>() / norm_u_t)
                                      : TangentAtZero();
    D->setIdentity();
    D->block<1, 2>(0, 1) = mu_ * u_bar.transpose();
  }
  return u_hat;
}

Eigen::Vector3d ProjectOntoCone(double mu, const Eigen::Vector3d& x) {
  return CoulombCone(mu).Project(x);
}

Eigen::Vector3d ProjectOntoDualCone(double mu, const Eigen::Vector3d& y) {
  return CoulombCone(mu).ProjectOntoDual(y);
}

Eigen::Vector2d ProjectOntoDisk(double R,
                                const Eigen::Vector2d& s,
                                Eigen::Matrix2d* d_ds,
                                Eigen::Vector2d* d_dR) {
  const double radius = std::max(R, 0.0);
  const double norm_s = s.norm();
  if (norm_s <= radius) {
    if (d_ds != nullptr) d_ds->setIdentity();
    if (d_dR != nullptr) d_dR->setZero();
    return s;
  }
  // Outside: norm_s > radius >= 0, so the division is safe.
  const Eigen::Vector2d s_hat = s / norm_s;
  if (d_ds != nullptr) {
    *d_ds = (radius / norm_s) *
            (Eigen::Matrix2d::Identity() - s_hat * s_hat.transpose());
  }
  if (d_dR != nullptr) *d_dR = s_hat;
  return radius * s_hat;
}

}  // namespace fcsn
