// The symmetry test of M (see m_symmetry.h).
#include "problem/m_symmetry.h"

#include <algorithm>
#include <cmath>

namespace fcsn::internal {
namespace {

double MaxAbs(const SparseMatrix& a) {
  double out = 0.0;
  for (int j = 0; j < a.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(a, j); it; ++it) {
      out = std::max(out, std::abs(it.value()));
    }
  }
  return out;
}

}  // namespace

bool IsSymmetricM(const SparseMatrix& M) {
  if (M.rows() != M.cols()) return false;
  const SparseMatrix transposed = M.transpose();
  const SparseMatrix difference = M - transposed;
  return MaxAbs(difference) <= kSymmetryTolerance * MaxAbs(M);
}

}  // namespace fcsn::internal
