// The regularity test of M (problem/m_regularity.h) on pivots given directly,
// including an ordering that hides a near-singular block from max|d|.
#include "problem/m_regularity.h"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <limits>
#include <string>

namespace fcsn::internal {
namespace {

TEST(MRegularity, WellConditionedPivotsPass) {
  std::string message;
  EXPECT_TRUE(RegularPivots(Eigen::Vector3d(2.0, 1.0, 3.0), 3.0, &message));
  EXPECT_TRUE(message.empty());
  EXPECT_TRUE(RegularPivots(Eigen::VectorXd(), 0.0, &message));
}

// Pivots of M = [1e6 0 0; 0 9.1e-7 692; 0 692 5.2e11] in the natural order
// (test (1) of the header):
// the last pivot is the Schur complement 5.2e11 - 692^2 / 9.1e-7 ~ 4.4e6, so
// max|d| alone (4.4e6) passes the pivot 9.1e-7 (2e-13 of it), although the
// lower block is singular to ~1e-17 relative; max M_ii = 5.2e11 does not.
TEST(MRegularity, TheLargestDiagonalEntrySeesWhatTheOrderingHides) {
  const Eigen::Vector3d d(1e6, 9.1e-7, 4.4e6);
  std::string message;
  EXPECT_TRUE(RegularPivots(d, 4.4e6, &message));
  EXPECT_FALSE(RegularPivots(d, 5.2e11, &message));
  EXPECT_NE(message.find("numerically singular"), std::string::npos) << message;
  EXPECT_NE(message.find("pivot 1"), std::string::npos) << message;
}

TEST(MRegularity, ThresholdIsNEpsTimesTheReference) {
  const double eps = std::numeric_limits<double>::epsilon();
  std::string message;
  // n = 2, reference 1: a pivot of 2 eps is zero, 4 eps is not.
  EXPECT_FALSE(RegularPivots(Eigen::Vector2d(1.0, 2 * eps), 1.0, &message));
  EXPECT_TRUE(RegularPivots(Eigen::Vector2d(1.0, 4 * eps), 1.0, &message));
}

TEST(MRegularity, NonPositiveOrNonFinitePivotsFail) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::string message;
  EXPECT_FALSE(RegularPivots(Eigen::Vector2d(1.0, -1.0), 1.0, &message));
  EXPECT_NE(message.find("not positive definite"), std::string::npos);
  EXPECT_FALSE(RegularPivots(Eigen::Vector2d(1.0, 0.0), 1.0, &message));
  EXPECT_FALSE(RegularPivots(Eigen::Vector2d(1.0, nan), 1.0, &message));
}

// Test (2): the inverse iterations find the small eigenvalue whatever the
// order hides. M = Q diag(1, 1e3, lambda) Q^T for a rotation Q, solved by its
// inverse Q diag(1, 1e-3, 1 / lambda) Q^T (exact up to round-off in the
// entries, whatever lambda).
MSolveFunction InverseOfRotatedDiagonal(double lambda) {
  const Eigen::Matrix3d q =
      Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized())
          .toRotationMatrix();
  const Eigen::Matrix3d inverse =
      q * Eigen::Vector3d(1.0, 1e-3, 1.0 / lambda).asDiagonal() * q.transpose();
  return [inverse](const Eigen::VectorXd& b, Eigen::VectorXd* x) {
    *x = inverse * b;
    return true;
  };
}

TEST(MRegularity, InverseIterationsBoundTheSmallestEigenvalue) {
  for (double lambda : {1e-2, 1e-8, 1e-14}) {
    const double bound =
        SmallestEigenvalueBound(3, InverseOfRotatedDiagonal(lambda));
    EXPECT_GE(bound, lambda * (1 - 1e-6)) << lambda;
    EXPECT_LE(bound, lambda * 1.01) << lambda;
  }
}

TEST(MRegularity, NearlySingularMFailsWithPivotsThatPass) {
  const Eigen::Vector3d d(1.0, 1.0, 1.0);  // pivots that pass (1)
  std::string message;
  EXPECT_TRUE(IsRegular(d, 1e3, InverseOfRotatedDiagonal(1e-8), &message))
      << message;
  EXPECT_FALSE(IsRegular(d, 1e3, InverseOfRotatedDiagonal(1e-14), &message));
  EXPECT_NE(message.find("smallest eigenvalue"), std::string::npos) << message;
}

TEST(MRegularity, AFailedSolveIsNotRegular) {
  const MSolveFunction fails = [](const Eigen::VectorXd&, Eigen::VectorXd*) {
    return false;
  };
  std::string message;
  EXPECT_TRUE(std::isnan(SmallestEigenvalueBound(2, fails)));
  EXPECT_FALSE(IsRegular(Eigen::Vector2d(1.0, 1.0), 1.0, fails, &message));
}

TEST(MRegularity, MaxAbsDiagonalReadsTheDiagonalOnly) {
  SparseMatrix m(3, 3);
  m.insert(0, 0) = -2.0;
  m.insert(1, 2) = 50.0;
  m.insert(2, 1) = 50.0;
  m.insert(2, 2) = 1.5;
  EXPECT_EQ(MaxAbsDiagonal(m), 2.0);
  EXPECT_EQ(MaxAbsDiagonal(SparseMatrix(0, 0)), 0.0);
}

}  // namespace
}  // namespace fcsn::internal
