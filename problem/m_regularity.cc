#include "problem/m_regularity.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>

#include "problem/format_number.h"

namespace fcsn::internal {
namespace {

// y_0: entries in [-1, 1] from a 64-bit linear congruential sequence (Knuth's
// MMIX constants), the same on every machine. Any fixed vector would do
// unless it were orthogonal to the eigenvector of lambda_min; signs and sizes
// that vary make that improbable for an assembled M.
Eigen::VectorXd StartVector(int n) {
  Eigen::VectorXd y(n);
  std::uint64_t state = 0x2545F4914F6CDD1DULL;
  for (int i = 0; i < n; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const double unit = static_cast<double>(state >> 11) * 0x1.0p-53;
    y[i] = 2.0 * unit - 1.0;
  }
  return y;
}

}  // namespace

double MaxAbsDiagonal(const SparseMatrix& M) {
  double out = 0.0;
  for (int j = 0; j < M.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(M, j); it; ++it) {
      if (it.row() == it.col()) out = std::max(out, std::abs(it.value()));
    }
  }
  return out;
}

bool RegularPivots(const Eigen::VectorXd& d,
                   double max_diagonal,
                   std::string* message) {
  const int n = static_cast<int>(d.size());
  if (n == 0) return true;
  const double reference = std::max(d.cwiseAbs().maxCoeff(), max_diagonal);
  // A pivot below n eps times the reference is zero to working precision.
  const double tiny = n * std::numeric_limits<double>::epsilon() * reference;
  for (int i = 0; i < n; ++i) {
    if (!(d[i] > 0.0)) {
      *message = "M is symmetric but not positive definite (LDL^T pivot " +
                 std::to_string(i) + " is " + FormatNumber(d[i]) + ")";
      return false;
    }
    if (d[i] <= tiny) {
      *message = "M is numerically singular (LDL^T pivot " + std::to_string(i) +
                 " is " + FormatNumber(d[i]) +
                 ", largest pivot or diagonal entry " +
                 FormatNumber(reference) + ")";
      return false;
    }
  }
  return true;
}

double SmallestEigenvalueBound(int n, const MSolveFunction& solve) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Eigen::VectorXd y = StartVector(n), x;
  y /= y.norm();
  double bound = nan;
  for (int k = 0; k < kInverseIterations; ++k) {
    if (!solve(y, &x) || !x.allFinite()) return nan;
    // Rayleigh quotient of M^-1 at the unit vector y: y^T M^-1 y.
    const double quotient = y.dot(x);
    bound = 1.0 / quotient;
    const double size = x.norm();
    if (!(size > 0.0) || !std::isfinite(size)) return nan;
    y = x / size;
  }
  return bound;
}

bool IsRegular(const Eigen::VectorXd& d,
               double max_diagonal,
               const MSolveFunction& solve,
               std::string* message) {
  const int n = static_cast<int>(d.size());
  if (n == 0) return true;
  if (!RegularPivots(d, max_diagonal, message)) return false;
  const double tau = n * std::numeric_limits<double>::epsilon() * max_diagonal;
  const double bound = SmallestEigenvalueBound(n, solve);
  if (!(bound > tau)) {
    *message =
        "M is numerically singular (its smallest eigenvalue is at "
        "most " +
        FormatNumber(bound) + ", below n eps max M_ii = " + FormatNumber(tau) +
        ")";
    return false;
  }
  return true;
}

}  // namespace fcsn::internal
