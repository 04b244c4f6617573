// The per-contact numbers of the rho rules (minverse/block_rho.h).
#include "minverse/block_rho.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace fcsn::internal {

bool SplitSpectralRho(const Eigen::Matrix3d& W, Eigen::Vector3d* rho) {
  const double w_nn = W(0, 0);
  const double lambda_max = LargestTangentEigenvalue(W);
  if (!(w_nn > 0.0) || !(lambda_max > 0.0) || !std::isfinite(w_nn) ||
      !std::isfinite(lambda_max)) {
    return false;
  }
  *rho = Eigen::Vector3d(1.0 / w_nn, 1.0 / lambda_max, 1.0 / lambda_max);
  return true;
}

double LargestEigenvalue(const Eigen::Matrix3d& W) {
  const Eigen::Matrix3d symmetric = 0.5 * (W + W.transpose());
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> solver;
  solver.computeDirect(symmetric, Eigen::EigenvaluesOnly);
  return solver.eigenvalues()[2];
}

double LargestTangentEigenvalue(const Eigen::Matrix3d& W) {
  // lambda_max of the symmetric 2 x 2 part: (s + d)/2, s = trace, d = sqrt(s^2
  // - 4 det).
  const double off = 0.5 * (W(1, 2) + W(2, 1));
  const double s = W(1, 1) + W(2, 2);
  const double det = W(1, 1) * W(2, 2) - off * off;
  const double d = std::sqrt(std::max(0.0, s * s - 4.0 * det));
  return 0.5 * (s + d);
}

double MedianOfUsable(std::vector<double> values) {
  if (values.empty()) return 1.0;
  const size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + mid, values.end());
  return values[mid];
}

}  // namespace fcsn::internal
