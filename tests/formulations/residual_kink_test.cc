// The documented generalized-Jacobian element at each kink of the four
// per-contact residuals (formulations/residual.h, formulations.md §3.5): the
// one-sided limit along a given direction, different from the other side's.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "contact_point.h"
#include "fcsn/types.h"
#include "formulations/coulomb_cone.h"
#include "formulations/residual.h"
#include "test_util.h"

namespace fcsn {
namespace {

using testing::CaseOf;
using testing::FiniteDifferenceJacobian;
using testing::Jacobian;
using testing::Matrix36;
using testing::Point;
using testing::RelativeDistance;
using testing::Residual;
using testing::Shifted;
using testing::Vector6;

// The element returned at p equals the one-sided limit of Jacobians along p + t
// d (t -> 0+), measured by central FD at p + t d, and differs from the limit
// along `other` (so the point is a genuine kink and the check can fail).
// `columns` selects the Jacobian columns compared (u then r), to leave out a
// variable whose FD would straddle a second kink.
void ExpectOneSidedLimit(Formulation f,
                         const Point& p,
                         const Vector6& d,
                         const Vector6& other,
                         const std::vector<int>& columns = {0, 1, 2, 3, 4, 5}) {
  const double t = 1e-4;
  const double h = 1e-8;
  const Matrix36 j = Jacobian(f, p);
  const Matrix36 side = FiniteDifferenceJacobian(f, Shifted(p, t * d), h);
  const Matrix36 far_side =
      FiniteDifferenceJacobian(f, Shifted(p, t * other), h);
  Eigen::MatrixXd js(3, columns.size()), ss(3, columns.size()),
      os(3, columns.size());
  for (std::size_t k = 0; k < columns.size(); ++k) {
    js.col(k) = j.col(columns[k]);
    ss.col(k) = side.col(columns[k]);
    os.col(k) = far_side.col(columns[k]);
  }
  EXPECT_LE(RelativeDistance(js, ss), 1e-3) << ToString(f) << "\nJ=\n"
                                            << js << "\nside=\n"
                                            << ss;
  EXPECT_GT(RelativeDistance(js, os), 1e-2) << ToString(f) << "\nJ=\n"
                                            << js << "\nother=\n"
                                            << os;
  EXPECT_TRUE(j.allFinite());
}

// The element returned at p equals the FD Jacobian at p itself (F is smooth
// there although a "degenerate" test of the formula fires, e.g. s_T = 0 with R
// = 0).
void ExpectSmoothThere(Formulation f, const Point& p) {
  EXPECT_LE(
      RelativeDistance(Jacobian(f, p), FiniteDifferenceJacobian(f, p, 1e-7)),
      1e-7)
      << ToString(f);
}

Vector6 Direction(double u_n,
                  double u_t1,
                  double u_t2,
                  double r_n,
                  double r_t1,
                  double r_t2) {
  Vector6 d;
  d << u_n, u_t1, u_t2, r_n, r_t1, r_t2;
  return d;
}

TEST(KinkTest, AlartCurnierAndJeanMoreauNormalSwitchTakesTheInactiveSide) {
  // s_N = r_N - rho_N u_N = 0 exactly; s_T far from 0.
  const Point p{Eigen::Vector3d(1.0, 0.3, -0.2),
                Eigen::Vector3d(2.0, 0.4, 0.1),
                0.5,
                Eigen::Vector3d(2.0, 1.5, 1.5)};
  const Vector6 inactive = Direction(1, 0, 0, 0, 0, 0);  // u_N up: s_N < 0
  for (Formulation f : {Formulation::kAlartCurnier, Formulation::kJeanMoreau}) {
    ExpectOneSidedLimit(f, p, inactive, -inactive);
    const Matrix36 j = Jacobian(f, p);
    EXPECT_EQ(j(0, 3), 1.0);  // B_NN = 1
    EXPECT_EQ(j(0, 0), 0.0);  // A_NN = 0
  }
}

TEST(KinkTest, DiskBoundaryTakesTheStickSide) {
  // ||s_T|| = R exactly: r_T = (0.375, 0.5), ||r_T|| = 0.625 = mu r_N with u =
  // 0... keep u_T != 0 off: u_N = 0, u_T = 0 gives s_T = r_T. Both AC (R = mu
  // s_N) and JM (R = mu r_N) have R = 0.625.
  const Point p{Eigen::Vector3d(0.0, 0.0, 0.0),
                Eigen::Vector3d(1.0, 0.375, 0.5),
                0.625,
                Eigen::Vector3d(1.5, 0.7, 0.7)};
  const Vector6 inward =
      Direction(0, 0, 0, 0, -0.375, -0.5);  // shrink r_T: stick
  for (Formulation f : {Formulation::kAlartCurnier, Formulation::kJeanMoreau}) {
    ExpectOneSidedLimit(f, p, inward, -inward);
    const Matrix36 j = Jacobian(f, p);
    const Eigen::Matrix2d b_tt = j.block<2, 2>(1, 4);
    EXPECT_EQ(b_tt, Eigen::Matrix2d::Zero());  // stick
  }
}

TEST(KinkTest, ZeroTangentialSlipWithZeroRadiusIsTheSmoothOpenRow) {
  // s_T = 0 with R = 0: F_T = r_T on a neighbourhood, so B_TT = I is the only
  // valid element.
  const Eigen::Vector3d rho(2.0, 0.5, 0.5);
  // AC, s_N < 0 (open contact, u_N > 0), s_T = 0 (r_T = rho_T u_T).
  ExpectSmoothThere(Formulation::kAlartCurnier,
                    Point{Eigen::Vector3d(1.0, 0.4, -0.2),
                          Eigen::Vector3d(0.5, 0.2, -0.1),
                          0.5,
                          rho});
  // JM, r_N < 0.
  ExpectSmoothThere(Formulation::kJeanMoreau,
                    Point{Eigen::Vector3d(1.0, 0.4, -0.2),
                          Eigen::Vector3d(-0.5, 0.2, -0.1),
                          0.5,
                          rho});
  // mu = 0, every formulation with a tangential row F_T = r_T, at r_T = u_T =
  // 0.
  for (Formulation f : {Formulation::kAlartCurnier,
                        Formulation::kJeanMoreau,
                        Formulation::kFischerBurmeister}) {
    const Point q{Eigen::Vector3d(-0.3, 0.0, 0.0),
                  Eigen::Vector3d(0.5, 0.0, 0.0),
                  0.0,
                  rho};
    ExpectSmoothThere(f, q);
    const Eigen::Matrix2d b_tt = Jacobian(f, q).block<2, 2>(1, 4);
    EXPECT_EQ(b_tt, Eigen::Matrix2d::Identity()) << ToString(f);
  }
  // s_T = 0 with R > 0 is inside the disk: smooth stick.
  ExpectSmoothThere(Formulation::kAlartCurnier,
                    Point{Eigen::Vector3d(-0.3, 0.4, -0.2),
                          Eigen::Vector3d(0.5, 0.2, -0.1),
                          0.5,
                          rho});
}

TEST(KinkTest, JeanMoreauClampedRadiusTakesTheZeroRadiusSide) {
  // r_N = 0 exactly, s_T far from 0: the clamped side R = 0 (r_N < 0).
  const Point p{Eigen::Vector3d(0.3, 0.5, -0.2),
                Eigen::Vector3d(0.0, 0.4, 0.1),
                0.8,
                Eigen::Vector3d(1.0, 1.0, 1.0)};
  const Vector6 clamped = Direction(0, 0, 0, -1, 0, 0);
  ExpectOneSidedLimit(Formulation::kJeanMoreau, p, clamped, -clamped);
  // r_N < 0: R = 0, smooth.
  ExpectSmoothThere(Formulation::kJeanMoreau,
                    Point{p.u, Eigen::Vector3d(-0.5, 0.4, 0.1), 0.8, p.rho});
}

TEST(KinkTest, NaturalMapConeBoundariesTakeTheInteriorFormula) {
  const double mu = 0.625;
  const Eigen::Vector3d rho(1.0, 3.0, 0.2);  // only rho_N = 1 is used by NM
  // u_T = (-0.375, -0.5): ||u_T|| = 0.625, mu ||u_T|| = 0.390625, all exact in
  // binary.
  const Eigen::Vector3d u(0.0, -0.375, -0.5);
  const Vector6 up = Direction(0, 0, 0, 1, 0, 0);
  // z = r - u^ = (r_N - 0.390625, 0.375, 0.5); ||z_T|| = 0.625 = mu z_N for r_N
  // = 1.390625.
  const Point on_cone{u, Eigen::Vector3d(1.390625, 0.0, 0.0), mu, rho};
  ExpectOneSidedLimit(Formulation::kNaturalMap, on_cone, up, -up);
  EXPECT_EQ(Jacobian(Formulation::kNaturalMap, on_cone).rightCols<3>(),
            Eigen::Matrix3d::Zero());
  // mu ||z_T|| = -z_N for r_N = 0 (r = 0: a grazing take-off, itself a
  // solution).
  const Point on_polar{u, Eigen::Vector3d(0.0, 0.0, 0.0), mu, rho};
  ExpectOneSidedLimit(Formulation::kNaturalMap, on_polar, -up, up);
  EXPECT_EQ(Jacobian(Formulation::kNaturalMap, on_polar).rightCols<3>(),
            Eigen::Matrix3d::Identity());
  // Apex z = 0: r = u^; interior formula (B = 0), the limit from inside K.
  const Point apex{u, Eigen::Vector3d(0.390625, -0.375, -0.5), mu, rho};
  EXPECT_EQ(Residual(Formulation::kNaturalMap, apex), apex.r);
  EXPECT_EQ(Jacobian(Formulation::kNaturalMap, apex).rightCols<3>(),
            Eigen::Matrix3d::Zero());
  ExpectOneSidedLimit(Formulation::kNaturalMap, apex, up, -up);
  // mu = 0 on the ray z_T = 0, z_N > 0: J_P = diag(1, 0, 0) is the (smooth)
  // Jacobian.
  ExpectSmoothThere(Formulation::kNaturalMap,
                    Point{Eigen::Vector3d(-0.5, 0.3, 0.1),
                          Eigen::Vector3d(1.0, 0.3, 0.1),
                          0.0,
                          Eigen::Vector3d(1.0, 1.0, 1.0)});
}

TEST(KinkTest, ZeroTangentialVelocityUsesTheLimitAlongPlusT1) {
  // u_T = 0 with the rest smooth: the element is the limit along u_T = t e_T1,
  // not along -e_T1.
  const Vector6 plus_t1 = Direction(0, 1, 0, 0, 0, 0);
  const Eigen::Vector3d rho(1.3, 0.8, 0.8);
  // NM with z in the boundary region (so that d||u_T||/du_T matters).
  const Point nm{Eigen::Vector3d(0.2, 0.0, 0.0),
                 Eigen::Vector3d(0.5, 1.0, -0.3),
                 0.8,
                 rho};
  ASSERT_EQ(CaseOf(Formulation::kNaturalMap, nm),
            static_cast<int>(ConeRegion::kBoundary));
  ExpectOneSidedLimit(Formulation::kNaturalMap, nm, plus_t1, -plus_t1);
  // FB, generic r.
  const Point fb{Eigen::Vector3d(0.2, 0.0, 0.0),
                 Eigen::Vector3d(0.5, 1.0, -0.3),
                 0.8,
                 rho};
  ExpectOneSidedLimit(Formulation::kFischerBurmeister, fb, plus_t1, -plus_t1);
}

TEST(KinkTest, FischerBurmeisterAtTheOriginIsTheDiagonalLimit) {
  const double c = 1.0 - 1.0 / std::sqrt(2.0);
  const Eigen::Vector3d rho(2.0, 1.0, 1.0);
  // mu > 0: dphi/dx = dphi/dy = c I, so B = c diag(mu, 1, 1), A = rho_N c dE/du
  // (u-_T = e_T1).
  const double mu = 0.7;
  const Point origin{Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero(), mu, rho};
  const Matrix36 j = Jacobian(Formulation::kFischerBurmeister, origin);
  Eigen::Matrix3d d_e;
  d_e << 1.0, mu, 0.0, 0.0, mu, 0.0, 0.0, 0.0, mu;
  EXPECT_LE((j.leftCols<3>() - rho(0) * c * d_e).norm(), 1e-15);
  EXPECT_LE((j.rightCols<3>() -
             c * Eigen::Vector3d(mu, 1.0, 1.0).asDiagonal().toDenseMatrix())
                .norm(),
            1e-15);
  // It is the limit along x = y = t e_N with u_T = kappa t e_T1, kappa -> 0.
  // The Jacobian is constant along rays (F is positively homogeneous), so FD at
  // t = 1 with a small kappa suffices.
  const double kappa = 1e-6;
  const Point ray{Eigen::Vector3d(1.0 / rho(0), kappa, 0.0),
                  Eigen::Vector3d(1.0 / mu, 0.0, 0.0),
                  mu,
                  rho};
  EXPECT_LE(RelativeDistance(j,
                             FiniteDifferenceJacobian(
                                 Formulation::kFischerBurmeister, ray, 1e-9)),
            1e-5);
  // mu = 0 (scalar FB): the limit along r_N = rho_N u_N = t.
  const Point origin0{
      Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero(), 0.0, rho};
  const Point ray0{Eigen::Vector3d(1.0 / rho(0), 0.0, 0.0),
                   Eigen::Vector3d(1.0, 0.0, 0.0),
                   0.0,
                   rho};
  const Matrix36 j0 = Jacobian(Formulation::kFischerBurmeister, origin0);
  EXPECT_LE(RelativeDistance(j0,
                             FiniteDifferenceJacobian(
                                 Formulation::kFischerBurmeister, ray0, 1e-7)),
            1e-7);
  EXPECT_DOUBLE_EQ(j0(0, 3), c);
}

TEST(KinkTest,
     FischerBurmeisterOnTheBoundaryOfTheSquareRootUsesTheDocumentedPath) {
  // Grazing take-off: r = 0, u_N = 0, u_T != 0 -> x = 0, y = rho_N (mu ||u_T||,
  // mu u_T) on bd L, so lambda_1 = 0. With mu = 0.5, rho_N = 2, u_T = (0.375,
  // 0.5): y = (0.625, 0.375, 0.5) exactly.
  const double mu = 0.5;
  const Point p{Eigen::Vector3d(0.0, 0.375, 0.5),
                Eigen::Vector3d::Zero(),
                mu,
                Eigen::Vector3d(2.0, 1.0, 1.0)};
  EXPECT_EQ(Residual(Formulation::kFischerBurmeister, p),
            Eigen::Vector3d::Zero());
  // w^ = (0.6, 0.8); documented path r + t (1/mu, -w^).
  const Vector6 path = Direction(0, 0, 0, 1.0 / mu, -0.6, -0.8);
  const Vector6 other =
      Direction(1, 0, 0, 0, 0, 0);  // u_N up: y into the interior of L
  ExpectOneSidedLimit(Formulation::kFischerBurmeister, p, path, other);
  // Stick on the cone boundary: u = 0, ||r_T|| = mu r_N, x = (0.625, 0.375,
  // 0.5) on bd L, y = 0. u_T = 0 there too, so only the r columns (and u_N) are
  // compared.
  const Point q{Eigen::Vector3d::Zero(),
                Eigen::Vector3d(1.0, 0.375, 0.5),
                0.625,
                Eigen::Vector3d(1.0, 1.0, 1.0)};
  EXPECT_LE(Residual(Formulation::kFischerBurmeister, q).norm(), 1e-16);
  const Vector6 path_q = Direction(0, 0, 0, 1.0 / 0.625, -0.6, -0.8);
  ExpectOneSidedLimit(Formulation::kFischerBurmeister,
                      q,
                      path_q,
                      Direction(0, 0, 0, 0, 0.6, 0.8),
                      {0, 3, 4, 5});
}

}  // namespace
}  // namespace fcsn
