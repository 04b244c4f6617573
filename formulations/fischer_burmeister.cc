#include "formulations/fischer_burmeister.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "formulations/coulomb_cone.h"

namespace fcsn::internal {
namespace {

// 1 - 1/sqrt(2): dphi/dx = dphi/dy at w = 0 (limit along x = y = t e_N).
constexpr double kOriginSlope = 1.0 - 0.70710678118654752440;

// Below sqrt(lambda_1) <= kDegenerateRatio sqrt(lambda_2), sqrt(lambda_1)
// carries no correct digit relative to w, so the lambda_1 = 0 limit is used
// (see the header).
constexpr double kDegenerateRatio = std::numeric_limits<double>::epsilon();

// Arrow matrix L_a of the Jordan product: a∘b = L_a b.
Eigen::Matrix3d Arrow(const Eigen::Vector3d& a) {
  Eigen::Matrix3d l = a(0) * Eigen::Matrix3d::Identity();
  l.block<1, 2>(0, 1) = a.tail<2>().transpose();
  l.block<2, 1>(1, 0) = a.tail<2>();
  return l;
}

// Scalar FB for mu = 0: a + b - sqrt(a^2 + b^2), with its partial derivatives.
double ScalarFischerBurmeister(double a, double b, double* d_a, double* d_b) {
  if (a == 0.0 && b == 0.0) {
    *d_a = kOriginSlope;
    *d_b = kOriginSlope;
    return 0.0;
  }
  const double n = std::hypot(a, b);
  *d_a = 1.0 - a / n;
  *d_b = 1.0 - b / n;
  // For a + b > 0 use the cancellation-free form 2ab / (a + b + n).
  return a + b > 0.0 ? 2.0 * a * b / (a + b + n) : a + b - n;
}

}  // namespace

Eigen::Vector3d SocFischerBurmeister(const Eigen::Vector3d& x,
                                     const Eigen::Vector3d& y,
                                     Eigen::Matrix3d* dphi_dx,
                                     Eigen::Matrix3d* dphi_dy) {
  const double w_n = x.squaredNorm() + y.squaredNorm();
  if (w_n == 0.0) {
    if (dphi_dx != nullptr) {
      *dphi_dx = kOriginSlope * Eigen::Matrix3d::Identity();
      *dphi_dy = kOriginSlope * Eigen::Matrix3d::Identity();
    }
    return Eigen::Vector3d::Zero();
  }
  const Eigen::Vector2d x_t = x.tail<2>();
  const Eigen::Vector2d y_t = y.tail<2>();
  const Eigen::Vector2d w_t = 2.0 * (x(0) * x_t + y(0) * y_t);
  const double norm_w_t = w_t.norm();
  const Eigen::Vector2d w_hat = norm_w_t > 0.0 ? Eigen::Vector2d(w_t / norm_w_t)
                                               : CoulombCone::TangentAtZero();
  const double lambda_2 = w_n + norm_w_t;
  // det(w) = (x_N^2 - |x_T|^2)^2 + (y_N^2 - |y_T|^2)^2
  //        + 2 (|x_N y_T - y_N x_T|^2 + (x_N y_N - x_T.y_T)^2 + (x_T1 y_T2 -
  //        x_T2 y_T1)^2).
  const double norm_x_t = x_t.norm();
  const double norm_y_t = y_t.norm();
  const double det_x = (x(0) - norm_x_t) * (x(0) + norm_x_t);
  const double det_y = (y(0) - norm_y_t) * (y(0) + norm_y_t);
  const double cross_n = x(0) * y(0) - x_t.dot(y_t);
  const double cross_z = x_t(0) * y_t(1) - x_t(1) * y_t(0);
  const double det_w = det_x * det_x + det_y * det_y +
                       2.0 * ((x(0) * y_t - y(0) * x_t).squaredNorm() +
                              cross_n * cross_n + cross_z * cross_z);
  const double lambda_1 = std::min(det_w / lambda_2, lambda_2);
  const double sq_1 = std::sqrt(lambda_1);
  const double sq_2 = std::sqrt(lambda_2);
  Eigen::Vector3d s;
  s(0) = 0.5 * (sq_1 + sq_2);
  s.tail<2>() = (0.5 * (sq_2 - sq_1)) * w_hat;

  if (dphi_dx != nullptr) {
    Eigen::Vector3d v_1(1.0, -w_hat(0), -w_hat(1));
    Eigen::Vector3d v_2(1.0, w_hat(0), w_hat(1));
    const Eigen::Matrix3d p_1 = 0.5 * v_1 * v_1.transpose();
    const Eigen::Matrix3d p_2 = 0.5 * v_2 * v_2.transpose();
    const Eigen::Vector3d v_perp(0.0, -w_hat(1), w_hat(0));
    const Eigen::Matrix3d p_perp = v_perp * v_perp.transpose();
    const Eigen::Matrix3d l_x = Arrow(x);
    const Eigen::Matrix3d l_y = Arrow(y);
    if (sq_1 > kDegenerateRatio * sq_2) {
      const Eigen::Matrix3d l_s_inv =
          p_1 / sq_1 + p_2 / sq_2 + (2.0 / (sq_1 + sq_2)) * p_perp;
      *dphi_dx = Eigen::Matrix3d::Identity() - l_s_inv * l_x;
      *dphi_dy = Eigen::Matrix3d::Identity() - l_s_inv * l_y;
    } else {
      const Eigen::Matrix3d l_s_inv_regular = (p_2 + 2.0 * p_perp) / sq_2;
      *dphi_dx = Eigen::Matrix3d::Identity() - p_1 - l_s_inv_regular * l_x;
      *dphi_dy = Eigen::Matrix3d::Identity() - l_s_inv_regular * l_y;
    }
  }
  return x + y - s;
}

void FischerBurmeisterResidual(const Eigen::Vector3d& u,
                               const Eigen::Vector3d& r,
                               double mu,
                               const Eigen::Vector3d& rho,
                               Eigen::Vector3d* F,
                               Eigen::Matrix3d* A,
                               Eigen::Matrix3d* B) {
  const double rho_n = rho(0);
  if (!(mu > 0.0)) {
    double d_a = 0.0;
    double d_b = 0.0;
    (*F)(0) = ScalarFischerBurmeister(r(0), rho_n * u(0), &d_a, &d_b);
    F->tail<2>() = r.tail<2>();
    if (A != nullptr) {
      A->setZero();
      (*A)(0, 0) = rho_n * d_b;
      B->setIdentity();
      (*B)(0, 0) = d_a;
    }
    return;
  }
  const Eigen::Vector3d x(mu * r(0), r(1), r(2));
  const double norm_u_t = u.tail<2>().norm();
  const Eigen::Vector3d y =
      rho_n * Eigen::Vector3d(u(0) + mu * norm_u_t, mu * u(1), mu * u(2));
  if (A == nullptr) {
    *F = SocFischerBurmeister(x, y, nullptr, nullptr);
    return;
  }
  Eigen::Matrix3d dphi_dx;
  Eigen::Matrix3d dphi_dy;
  *F = SocFischerBurmeister(x, y, &dphi_dx, &dphi_dy);
  // B = dphi/dx diag(mu, 1, 1).
  *B = dphi_dx;
  B->col(0) *= mu;
  // A = rho_N dphi/dy dE/du, dE/du = [1 mu u-_T^T; 0 mu I_2].
  const Eigen::Vector2d u_bar = norm_u_t > 0.0
                                    ? Eigen::Vector2d(u.tail<2>() / norm_u_t)
                                    : CoulombCone::TangentAtZero();
  Eigen::Matrix3d d_e = mu * Eigen::Matrix3d::Identity();
  d_e(0, 0) = 1.0;
  d_e.block<1, 2>(0, 1) = mu * u_bar.transpose();
  *A = rho_n * dphi_dy * d_e;
}

}  // namespace fcsn::internal
