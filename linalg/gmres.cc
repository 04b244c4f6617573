#include "linalg/gmres.h"

#include <cmath>

namespace fcsn::internal {
namespace {

// Upper Hessenberg least-squares problem of the Arnoldi process, reduced to
// upper triangular form by Givens rotations as the columns arrive.
class HessenbergQr {
 public:
  HessenbergQr(int max_columns, double beta)
      : h_(Eigen::MatrixXd::Zero(max_columns + 1, max_columns)),
        cosine_(max_columns),
        sine_(max_columns),
        g_(Eigen::VectorXd::Zero(max_columns + 1)) {
    g_[0] = beta;
  }
  // Column j (j + 2 entries h_{0..j+1, j}) in, rotated; returns |g_{j+1}|.
  double AddColumn(int j, const Eigen::VectorXd& column) {
    h_.col(j).head(j + 2) = column.head(j + 2);
    for (int i = 0; i < j; ++i) {
      const double a = h_(i, j), b = h_(i + 1, j);
      h_(i, j) = cosine_[i] * a + sine_[i] * b;
      h_(i + 1, j) = -sine_[i] * a + cosine_[i] * b;
    }
    const double a = h_(j, j), b = h_(j + 1, j);
    const double r = std::hypot(a, b);
    cosine_[j] = r > 0.0 ? a / r : 1.0;
    sine_[j] = r > 0.0 ? b / r : 0.0;
    h_(j, j) = r;
    h_(j + 1, j) = 0.0;
    g_[j + 1] = -sine_[j] * g_[j];
    g_[j] = cosine_[j] * g_[j];
    return std::abs(g_[j + 1]);
  }
  // y of the first k columns (R y = g, R upper triangular).
  Eigen::VectorXd Solution(int k) const {
    return h_.topLeftCorner(k, k).triangularView<Eigen::Upper>().solve(
        g_.head(k));
  }

 private:
  Eigen::MatrixXd h_;
  Eigen::VectorXd cosine_, sine_, g_;
};

// GmresOptions::give_up_early after `iterations` >= 2 iterations at
// relative residual `residual` (> tolerance).
bool Hopeless(const GmresOptions& options, int iterations, double residual) {
  if (!options.give_up_early || iterations < 2) return false;
  const double log_rate = std::log(residual) / iterations;
  if (!(log_rate < 0.0)) return true;  // no contraction at all
  const double needed = std::log(options.relative_tolerance) / log_rate;
  return needed > options.max_iterations;
}

}  // namespace

GmresResult Gmres(const GmresMultiply& multiply,
                  const GmresPrecondition& precondition,
                  const Eigen::VectorXd& b,
                  const GmresOptions& options,
                  Eigen::VectorXd* x) {
  GmresResult result;
  x->setZero(b.size());
  const double beta = b.norm();
  if (beta == 0.0) {
    result.relative_residual = 0.0;
    result.converged = true;
    return result;
  }
  const int budget = options.max_iterations;
  std::vector<Eigen::VectorXd> v(1, b / beta), z;
  HessenbergQr qr(budget, beta);
  Eigen::VectorXd w, column(budget + 1);
  for (int k = 0; k < budget; ++k) {
    z.push_back(v[k]);
    result.status = precondition(&z[k]);
    if (result.status != LinearSolverStatus::kSuccess) break;
    multiply(z[k], &w);
    for (int i = 0; i <= k; ++i) {
      column[i] = w.dot(v[i]);
      w -= column[i] * v[i];
    }
    column[k + 1] = w.norm();
    result.relative_residual = qr.AddColumn(k, column) / beta;
    result.history.push_back(result.relative_residual);
    result.iterations = k + 1;
    // Breakdown: the Krylov space is invariant and x_{k+1} is exact.
    const bool breakdown = column[k + 1] == 0.0;
    if (breakdown || result.relative_residual <= options.relative_tolerance) {
      result.converged = true;
      break;
    }
    if (Hopeless(options, result.iterations, result.relative_residual)) {
      result.gave_up = true;
      break;
    }
    v.push_back(w / column[k + 1]);
  }
  if (result.iterations == 0) return result;
  const Eigen::VectorXd y = qr.Solution(result.iterations);
  for (int i = 0; i < result.iterations; ++i) *x += y[i] * z[i];
  return result;
}

}  // namespace fcsn::internal
