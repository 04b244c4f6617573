// Tests of problem/m_symmetry.h, the one symmetry rule of the library:
// round-off asymmetry passes, anything above kSymmetryTolerance (relative, max
// norm) does not, independently of the scale of M.
#include "problem/m_symmetry.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>

namespace fcsn::internal {
namespace {

// A symmetric 3 x 3 M with max entry 4 and M(0, 1) off by delta (relative to
// max |M|), times scale.
SparseMatrix Perturbed(double delta, double scale) {
  Eigen::Matrix3d m;
  m << 4.0, 1.0, 0.5, 1.0, 3.0, -1.0, 0.5, -1.0, 2.0;
  m(0, 1) += delta * 4.0;
  return SparseMatrix((scale * m).sparseView());
}

TEST(MSymmetryTest, ToleranceIsRelativeInTheMaxNorm) {
  for (double scale : {1e-12, 1.0, 1e12}) {
    EXPECT_TRUE(IsSymmetricM(Perturbed(0.0, scale))) << scale;
    EXPECT_TRUE(IsSymmetricM(Perturbed(0.5 * kSymmetryTolerance, scale)))
        << scale;
    EXPECT_FALSE(IsSymmetricM(Perturbed(2.0 * kSymmetryTolerance, scale)))
        << scale;
  }
}

TEST(MSymmetryTest, UpperTriangleAndNonSquareAreNotSymmetric) {
  const SparseMatrix full = Perturbed(0.0, 1.0);
  const SparseMatrix upper = full.triangularView<Eigen::Upper>();
  EXPECT_FALSE(IsSymmetricM(upper));
  EXPECT_FALSE(IsSymmetricM(SparseMatrix(3, 2)));
  EXPECT_TRUE(IsSymmetricM(SparseMatrix(0, 0)));
  EXPECT_TRUE(IsSymmetricM(SparseMatrix(full.diagonal().asDiagonal())));
}

}  // namespace
}  // namespace fcsn::internal
