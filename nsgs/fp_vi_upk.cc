// FP-VI-UPK projections with the self-adaptive rho (see fp_vi_upk.h for the
// rule and its constants).
#include "nsgs/fp_vi_upk.h"

#include <algorithm>
#include <cmath>

#include "formulations/coulomb_cone.h"
#include "nsgs/local_solvers.h"

namespace fcsn::internal {
namespace {

using C = FpViUpkConstants;

// The outcome of one projection from r_k.
struct Projection {
  Eigen::Vector3d r;      // r_j
  double rho = 0.0;       // rho_j
  double du = 0.0;        // ||u_j - u_k||
  double dr = 0.0;        // ||r_j - r_k||
  bool accepted = false;  // (A) held
  int trials = 0;
};

// Trials rho tau^j until (A) holds (or kMaxTrials are spent).
Projection Project(const Eigen::Matrix3d& W,
                   const Eigen::Vector3d& q,
                   double mu,
                   double rho,
                   const Eigen::Vector3d& r_k) {
  Eigen::Vector3d u_hat = W * r_k + q;  // u_k, then û(u_k)
  u_hat[0] += mu * u_hat.tail<2>().norm();
  Projection p;
  p.rho = rho;
  for (int j = 0; j < C::kMaxTrials; ++j, p.rho *= C::kTau) {
    p.r = fcsn::ProjectOntoCone(mu, r_k - p.rho * u_hat);
    const Eigen::Vector3d step = p.r - r_k;
    p.du = (W * step).norm();  // u_j - u_k = W (r_j - r_k)
    p.dr = step.norm();
    p.trials = j + 1;
    if (p.rho * p.du <= C::kL * p.dr) {
      p.accepted = true;
      break;
    }
    if (j + 1 == C::kMaxTrials) break;  // keep rho_j of the last trial
  }
  return p;
}

}  // namespace

FpViUpkStepInfo FpViUpkProjections(const Eigen::Matrix3d& W,
                                   const Eigen::Vector3d& q,
                                   double mu,
                                   double rho_ref,
                                   int projections,
                                   double* rho,
                                   Eigen::Vector3d* r) {
  FpViUpkStepInfo info;
  double rho_k = (*rho > 0.0 && std::isfinite(*rho)) ? *rho : rho_ref;
  const double rho_max = C::kMaxRhoGrowth * rho_ref;
  rho_k = std::min(rho_k, rho_max);
  info.rho_in = rho_k;
  Eigen::Vector3d x = r->allFinite() ? *r : Eigen::Vector3d::Zero();
  double error = LocalNaturalMapError(W, q, mu, rho_ref, x);
  info.error_in = error;
  for (int k = 0; k < projections; ++k) {
    const Projection p = Project(W, q, mu, rho_k, x);
    info.trials += p.trials;
    if (!p.r.allFinite() || !std::isfinite(p.rho)) {
      info.finite = false;
      break;
    }
    if (!p.accepted) ++info.rejected;
    const double new_error = LocalNaturalMapError(W, q, mu, rho_ref, p.r);
    const bool timid = p.rho * p.du < C::kLMin * p.dr && new_error < error;
    rho_k = std::min(timid ? p.rho / C::kTau : p.rho, rho_max);
    x = p.r;
    error = new_error;
    ++info.projections;
  }
  info.rho_out = rho_k;
  info.error_out = error;
  *rho = rho_k;
  *r = x;
  return info;
}

}  // namespace fcsn::internal
