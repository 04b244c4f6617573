// One-contact solvers for NSGS (see local_solvers.h for the math).
#include "nsgs/local_solvers.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "formulations/coulomb_cone.h"
#include "formulations/residual.h"

namespace fcsn::internal {
namespace {

constexpr double kEpsilon = std::numeric_limits<double>::epsilon();

// Armijo on 1/2 ||F||^2 along the Newton direction, whose slope is -||F||^2:
// accept alpha when phi(alpha) <= (1 - 2 sigma alpha) phi(0). Halving, at most
// kMaxLineSearchTrials trials (Siconos' one-contact damped Newton also stops
// after 10).
constexpr double kArmijoSigma = 1e-4;
constexpr int kMaxLineSearchTrials = 10;

// A Newton step with ||dr|| <= kStagnationFactor eps ||r|| changes nothing
// (Siconos: 10 eps).
constexpr double kStagnationFactor = 10.0;

// A pivot below kPivotTolerance times the largest entry of the 3 x 3 matrix
// counts as zero.
constexpr double kPivotTolerance = 1e-14;

// FP-VI-UPK constants (formulations.md §7.3, Siconos fc3d_projection.c): shrink
// factor tau, acceptance ratio L, growth ratio L_min, at most 10 shrinks per
// iteration.
constexpr double kTau = 2.0 / 3.0;
constexpr double kL = 0.9;
constexpr double kLMin = 0.3;
constexpr int kMaxStepReductions = 10;
// The self-adaptive rho grows only while the contact stays far from its
// Lipschitz bound; capping it at kMaxRhoGrowth * rho_ref keeps it finite when W
// is singular (growth never stops then).
constexpr double kMaxRhoGrowth = 1e8;

// De Saxcé velocity û = u + mu ||u_T|| e_N.
Eigen::Vector3d DeSaxce(double mu, const Eigen::Vector3d& u) {
  Eigen::Vector3d out = u;
  out[0] += mu * u.tail<2>().norm();
  return out;
}

}  // namespace

bool SolvePartialPivot3(const Eigen::Matrix3d& A,
                        const Eigen::Vector3d& b,
                        Eigen::Vector3d* x) {
  Eigen::Matrix3d a = A;
  Eigen::Vector3d y = b;
  const double scale = a.cwiseAbs().maxCoeff();
  if (!(scale > 0.0) || !std::isfinite(scale)) return false;
  const double tiny = kPivotTolerance * scale;
  for (int k = 0; k < 3; ++k) {
    int pivot = k;
    for (int i = k + 1; i < 3; ++i) {
      if (std::abs(a(i, k)) > std::abs(a(pivot, k))) pivot = i;
    }
    if (!(std::abs(a(pivot, k)) > tiny)) return false;
    if (pivot != k) {
      a.row(k).swap(a.row(pivot));
      std::swap(y[k], y[pivot]);
    }
    for (int i = k + 1; i < 3; ++i) {
      const double factor = a(i, k) / a(k, k);
      a.row(i) -= factor * a.row(k);
      y[i] -= factor * y[k];
    }
  }
  Eigen::Vector3d out;
  for (int k = 2; k >= 0; --k) {
    double sum = y[k];
    for (int j = k + 1; j < 3; ++j) sum -= a(k, j) * out[j];
    out[k] = sum / a(k, k);
  }
  if (!out.allFinite()) return false;
  *x = out;
  return true;
}

double LocalNaturalMapError(const Eigen::Matrix3d& W,
                            const Eigen::Vector3d& q,
                            double mu,
                            double rho_ref,
                            const Eigen::Vector3d& r) {
  const Eigen::Vector3d u = W * r + q;
  const Eigen::Vector3d residual =
      r - fcsn::ProjectOntoCone(mu, r - rho_ref * DeSaxce(mu, u));
  const double denominator = rho_ref * q.norm();
  return residual.norm() / (denominator > 0.0 ? denominator : 1.0);
}

LocalSolveInfo SolveContactAlartCurnier(const Eigen::Matrix3d& W,
                                        const Eigen::Vector3d& q,
                                        double mu,
                                        const Eigen::Vector3d& rho,
                                        double rho_ref,
                                        int max_iterations,
                                        double tolerance,
                                        Eigen::Vector3d* r) {
  LocalSolveInfo info;
  if (q[0] >= 0.0) {
    r->setZero();
    info.converged = true;
    info.error = 0.0;
    return info;
  }
  Eigen::Vector3d x = r->allFinite() ? *r : Eigen::Vector3d::Zero();
  const double target = tolerance * rho.cwiseProduct(q).norm();
  Eigen::Vector3d F;
  Eigen::Matrix3d A;
  Eigen::Matrix3d B;
  fcsn::EvaluateContact(
      Formulation::kAlartCurnier, W * x + q, x, mu, rho, &F, &A, &B);
  double phi = 0.5 * F.squaredNorm();
  Eigen::Vector3d x_trial;
  Eigen::Vector3d F_trial;
  Eigen::Matrix3d A_trial;
  Eigen::Matrix3d B_trial;
  Eigen::Vector3d dx;
  for (int it = 0; it < max_iterations; ++it) {
    if (std::sqrt(2.0 * phi) <= target) break;
    const Eigen::Matrix3d J = A * W + B;
    if (!SolvePartialPivot3(J, -F, &dx)) break;
    double alpha = 1.0;
    bool accepted = false;
    double phi_trial = phi;
    for (int trial = 0; trial < kMaxLineSearchTrials; ++trial) {
      x_trial = x + alpha * dx;
      fcsn::EvaluateContact(Formulation::kAlartCurnier,
                            W * x_trial + q,
                            x_trial,
                            mu,
                            rho,
                            &F_trial,
                            &A_trial,
                            &B_trial);
      phi_trial = 0.5 * F_trial.squaredNorm();
      if (phi_trial <= (1.0 - 2.0 * kArmijoSigma * alpha) * phi) {
        accepted = true;
        break;
      }
      alpha *= 0.5;
    }
    if (!accepted) break;
    x = x_trial;
    F = F_trial;
    A = A_trial;
    B = B_trial;
    phi = phi_trial;
    info.iterations = it + 1;
    if ((alpha * dx).norm() <= kStagnationFactor * kEpsilon * x.norm()) break;
  }
  info.converged = std::sqrt(2.0 * phi) <= target;
  *r = x;
  info.error = LocalNaturalMapError(W, q, mu, rho_ref, x);
  return info;
}

LocalSolveInfo SolveContactFixedPointViUpk(const Eigen::Matrix3d& W,
                                           const Eigen::Vector3d& q,
                                           double mu,
                                           double rho_ref,
                                           int max_iterations,
                                           double tolerance,
                                           double* rho,
                                           Eigen::Vector3d* r) {
  LocalSolveInfo info;
  if (q[0] >= 0.0) {
    r->setZero();
    info.converged = true;
    info.error = 0.0;
    return info;
  }
  Eigen::Vector3d x = r->allFinite() ? *r : Eigen::Vector3d::Zero();
  double rho_k = (*rho > 0.0 && std::isfinite(*rho)) ? *rho : rho_ref;
  const double rho_max = kMaxRhoGrowth * rho_ref;
  double error = LocalNaturalMapError(W, q, mu, rho_ref, x);
  // The error of the iterates is not monotone: the best one is returned.
  Eigen::Vector3d best = x;
  double best_error = error;
  Eigen::Vector3d y;
  for (int it = 0; it < max_iterations && error > tolerance; ++it) {
    const Eigen::Vector3d u_k = W * x + q;
    const Eigen::Vector3d u_hat = DeSaxce(mu, u_k);
    double rho_trial = rho_k / kTau;
    double du = 0.0;
    double dr = 0.0;
    for (int reduction = 0; reduction < kMaxStepReductions; ++reduction) {
      rho_trial *= kTau;
      y = fcsn::ProjectOntoCone(mu, x - rho_trial * u_hat);
      du = (W * (y - x)).norm();
      dr = (y - x).norm();
      if (rho_trial * du <= kL * dr) break;
    }
    const double new_error = LocalNaturalMapError(W, q, mu, rho_ref, y);
    rho_k = (rho_trial * du < kLMin * dr && new_error < error)
                ? rho_trial / kTau
                : rho_trial;
    rho_k = std::min(rho_k, rho_max);
    x = y;
    error = new_error;
    info.iterations = it + 1;
    if (error < best_error) {
      best = x;
      best_error = error;
    }
  }
  info.converged = best_error <= tolerance;
  info.error = best_error;
  *rho = rho_k;
  *r = best;
  return info;
}

LocalSolveInfo SolveContact(LocalSolverType type,
                            const Eigen::Matrix3d& W,
                            const Eigen::Vector3d& q,
                            double mu,
                            const ContactScaling& scaling,
                            int max_iterations,
                            double tolerance,
                            double* rho_fp,
                            Eigen::Vector3d* r) {
  const Eigen::Vector3d previous = *r;
  const double previous_error =
      previous.allFinite()
          ? LocalNaturalMapError(W, q, mu, scaling.rho_ref, previous)
          : std::numeric_limits<double>::infinity();
  Eigen::Vector3d x = previous;
  LocalSolveInfo info;
  switch (type) {
    case LocalSolverType::kAlartCurnierNewton: {
      info = SolveContactAlartCurnier(W,
                                      q,
                                      mu,
                                      scaling.rho_ac,
                                      scaling.rho_ref,
                                      max_iterations,
                                      tolerance,
                                      &x);
      if (!info.converged) {
        // Fixed-point iterations from the Newton iterate; keep whichever of the
        // two is better.
        Eigen::Vector3d y = x;
        const LocalSolveInfo fallback = SolveContactFixedPointViUpk(
            W, q, mu, scaling.rho_ref, max_iterations, tolerance, rho_fp, &y);
        info.iterations += fallback.iterations;
        if (y.allFinite() && fallback.error <= info.error) {
          x = y;
          info.converged = fallback.converged;
          info.error = fallback.error;
        }
      }
      break;
    }
    case LocalSolverType::kFixedPointViUpk:
      info = SolveContactFixedPointViUpk(
          W, q, mu, scaling.rho_ref, max_iterations, tolerance, rho_fp, &x);
      break;
  }
  if (x.allFinite() && info.error <= previous_error) {
    *r = x;
    info.kept = true;
  } else {
    info.kept = false;
    info.error = previous_error;
  }
  return info;
}

}  // namespace fcsn::internal
