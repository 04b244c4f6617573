// Per-contact residuals and generalized Jacobians of the four formulations
// (formulations/residual.h): finite-difference checks away from kinks, the
// documented element at each kink (formulations.md §3.5), exact zeros at
// one-contact solutions, scale invariance, no NaN, and the batched interface.
#include "formulations/residual.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "alloc_counter.h"
#include "fcsn/types.h"
#include "formulations/coulomb_cone.h"
#include "test_util.h"

namespace fcsn {
namespace {

using ::fcsn::testing::RelativeDistance;
using Matrix36 = Eigen::Matrix<double, 3, 6>;
using Vector6 = Eigen::Matrix<double, 6, 1>;

// One contact: the arguments of EvaluateContact.
struct Point {
  Eigen::Vector3d u;
  Eigen::Vector3d r;
  double mu;
  Eigen::Vector3d rho;
};

Point Shifted(const Point& p, const Vector6& d) {
  Point q = p;
  q.u += d.head<3>();
  q.r += d.tail<3>();
  return q;
}

Eigen::Vector3d Residual(Formulation f, const Point& p) {
  Eigen::Vector3d F;
  EvaluateContact(f, p.u, p.r, p.mu, p.rho, &F, nullptr, nullptr);
  return F;
}

// [A B] = [dF/du dF/dr].
Matrix36 Jacobian(Formulation f, const Point& p) {
  Eigen::Vector3d F;
  Eigen::Matrix3d A;
  Eigen::Matrix3d B;
  EvaluateContact(f, p.u, p.r, p.mu, p.rho, &F, &A, &B);
  Matrix36 j;
  j << A, B;
  return j;
}

// Central differences of F with step h in every one of the six variables (u,
// r).
Matrix36 FiniteDifferenceJacobian(Formulation f, const Point& p, double h) {
  Matrix36 j;
  for (int k = 0; k < 6; ++k) {
    Vector6 e = Vector6::Zero();
    e(k) = h;
    j.col(k) =
        (Residual(f, Shifted(p, e)) - Residual(f, Shifted(p, -e))) / (2.0 * h);
  }
  return j;
}

// Distance of p to the nonsmooth set of formulation f, measured on the
// quantities whose sign or zero changes the formula (the case splits of each
// header). Large when p is far from every kink.
double KinkDistance(Formulation f, const Point& p) {
  const Eigen::Vector3d& u = p.u;
  const Eigen::Vector3d& r = p.r;
  const Eigen::Vector3d& rho = p.rho;
  const double mu = p.mu;
  const double s_n = r(0) - rho(0) * u(0);
  const Eigen::Vector2d s_t(r(1) - rho(1) * u(1), r(2) - rho(2) * u(2));
  const double norm_u_t = u.tail<2>().norm();
  switch (f) {
    case Formulation::kAlartCurnier: {
      const double radius = mu * std::max(0.0, s_n);
      return std::min(
          {std::abs(s_n), std::abs(s_t.norm() - radius), s_t.norm()});
    }
    case Formulation::kJeanMoreau: {
      const double radius = mu * std::max(0.0, r(0));
      return std::min({std::abs(s_n),
                       std::abs(r(0)),
                       std::abs(s_t.norm() - radius),
                       s_t.norm()});
    }
    case Formulation::kNaturalMap: {
      const Eigen::Vector3d z =
          r - rho(0) * CoulombCone(mu).ModifiedVelocity(u);
      const double t = z.tail<2>().norm();
      return std::min(
          {norm_u_t, std::abs(t - mu * z(0)), std::abs(mu * t + z(0)), t});
    }
    case Formulation::kFischerBurmeister: {
      if (mu == 0.0) return std::hypot(r(0), rho(0) * u(0));
      const Eigen::Vector3d x(mu * r(0), r(1), r(2));
      const Eigen::Vector3d y =
          rho(0) * Eigen::Vector3d(u(0) + mu * norm_u_t, mu * u(1), mu * u(2));
      const double w_n = x.squaredNorm() + y.squaredNorm();
      const double norm_w_t =
          (2.0 * (x(0) * x.tail<2>() + y(0) * y.tail<2>())).norm();
      // sqrt(lambda_1) relative to sqrt(w_N), and ||u_T||.
      return std::min(std::sqrt(std::max(0.0, w_n - norm_w_t) / w_n), norm_u_t);
    }
  }
  return 0.0;
}

// Which case of the header's split applies (for coverage counts); -1 when not
// tracked.
int CaseOf(Formulation f, const Point& p) {
  const double s_n = p.r(0) - p.rho(0) * p.u(0);
  const Eigen::Vector2d s_t(p.r(1) - p.rho(1) * p.u(1),
                            p.r(2) - p.rho(2) * p.u(2));
  switch (f) {
    case Formulation::kAlartCurnier:
    case Formulation::kJeanMoreau: {
      const double radius =
          p.mu * std::max(0.0, f == Formulation::kAlartCurnier ? s_n : p.r(0));
      if (!(radius > 0.0)) return 0;        // tangential open
      return s_t.norm() <= radius ? 1 : 2;  // stick : slip
    }
    case Formulation::kNaturalMap: {
      const CoulombCone cone(p.mu);
      return static_cast<int>(
          cone.Classify(p.r - p.rho(0) * cone.ModifiedVelocity(p.u)));
    }
    case Formulation::kFischerBurmeister:
      return -1;
  }
  return -1;
}

double LogUniform(std::mt19937_64& rng, double lo, double hi) {
  std::uniform_real_distribution<double> d(std::log(lo), std::log(hi));
  return std::exp(d(rng));
}

// Random point from a mixture that visits every case: generic, near stick, near
// take-off, near slip.
Point RandomPoint(std::mt19937_64& rng, double mu) {
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  Point p;
  p.mu = mu;
  // Three independent scalings in [0.1, 10].
  p.rho = Eigen::Vector3d(LogUniform(rng, 0.1, 10.0),
                          LogUniform(rng, 0.1, 10.0),
                          LogUniform(rng, 0.1, 10.0));
  const double angle = 2.0 * M_PI * uniform(rng);
  const Eigen::Vector2d dir(std::cos(angle), std::sin(angle));
  switch (std::uniform_int_distribution<int>(0, 3)(rng)) {
    case 0:
      p.u = Eigen::Vector3d(normal(rng), normal(rng), normal(rng));
      p.r = Eigen::Vector3d(normal(rng), normal(rng), normal(rng));
      break;
    case 1: {  // stick-like: r inside K, small u
      const double r_n = 0.2 + std::abs(normal(rng));
      p.r << r_n, (mu * r_n * 0.9 * uniform(rng)) * dir;
      p.u = 0.1 * Eigen::Vector3d(normal(rng), normal(rng), normal(rng));
      break;
    }
    case 2:  // take-off-like
      p.u = Eigen::Vector3d(
          0.2 + std::abs(normal(rng)), normal(rng), normal(rng));
      p.r = 0.1 * Eigen::Vector3d(normal(rng), normal(rng), normal(rng));
      break;
    default: {  // slip-like
      const double r_n = 0.2 + std::abs(normal(rng));
      p.r << r_n, (mu * r_n * (1.0 + 0.2 * normal(rng))) * dir;
      p.u << 0.1 * normal(rng),
          -(0.2 + std::abs(normal(rng))) * dir +
              0.1 * Eigen::Vector2d(normal(rng), normal(rng));
      break;
    }
  }
  return p;
}

class ResidualTest : public ::testing::TestWithParam<Formulation> {};

INSTANTIATE_TEST_SUITE_P(AllFormulations,
                         ResidualTest,
                         ::testing::ValuesIn(kAllFormulations),
                         [](const ::testing::TestParamInfo<Formulation>& info) {
                           return std::string(ToString(info.param));
                         });

TEST_P(ResidualTest, JacobianMatchesCentralFiniteDifferencesAwayFromKinks) {
  const Formulation f = GetParam();
  std::mt19937_64 rng(7);
  // The four fixed friction coefficients, then random ones (encoded as -1).
  const std::vector<double> mus = {0.0, 0.1, 1.0, 5.0, -1.0};
  // Kink margin and FD step: the FD truncation error is ~ (h / margin)^2, the
  // round-off ~ eps / h.
  const double margin = 2e-2;
  const double h = 1e-7;
  const int wanted = 1000;
  std::vector<int> case_count(3, 0);
  for (double mu_case : mus) {
    int accepted = 0;
    for (int attempt = 0; attempt < 50 * wanted && accepted < wanted;
         ++attempt) {
      const double mu = mu_case >= 0.0 ? mu_case : LogUniform(rng, 0.01, 3.0);
      const Point p = RandomPoint(rng, mu);
      if (KinkDistance(f, p) < margin) continue;
      ++accepted;
      const Matrix36 j = Jacobian(f, p);
      const Matrix36 fd = FiniteDifferenceJacobian(f, p, h);
      ASSERT_LE(RelativeDistance(j, fd), 1e-6)
          << "mu=" << mu << " u=" << p.u.transpose() << " r=" << p.r.transpose()
          << " rho=" << p.rho.transpose() << "\nJ=\n"
          << j << "\nFD=\n"
          << fd;
      const int c = CaseOf(f, p);
      if (c >= 0) ++case_count[c];
    }
    EXPECT_EQ(accepted, wanted) << "mu=" << mu_case;
  }
  if (f != Formulation::kFischerBurmeister) {
    for (int c = 0; c < 3; ++c) EXPECT_GT(case_count[c], 100) << "case " << c;
  }
}

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

// Scale of the inputs, for relative residual tolerances: covers the mu-scaled
// FB units too.
double InputScale(const Point& p) {
  const double rho_max = p.rho.maxCoeff();
  return std::max(1.0, p.mu) *
         (p.r.norm() + rho_max * (1.0 + p.mu) * p.u.norm());
}

// Exact one-contact solutions (formulations.md §1.3) of each kind, and nearby
// non-solutions.
enum class Kind { kTakeOff, kStick, kSlip };

Point RandomSolution(std::mt19937_64& rng, Kind kind, double mu) {
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  const double rho_t =
      LogUniform(rng, 0.1, 10.0);  // rho_T1 = rho_T2 (isotropic law)
  Point p{Eigen::Vector3d::Zero(),
          Eigen::Vector3d::Zero(),
          mu,
          Eigen::Vector3d(LogUniform(rng, 0.1, 10.0), rho_t, rho_t)};
  const double angle = 2.0 * M_PI * uniform(rng);
  const Eigen::Vector2d dir(std::cos(angle), std::sin(angle));
  const double size = LogUniform(rng, 1e-3, 1e3);
  switch (kind) {
    case Kind::kTakeOff:
      p.u << size * (0.1 + uniform(rng)), size * normal(rng),
          size * normal(rng);
      break;
    case Kind::kStick:
      p.r << size, (mu * size * 0.95 * uniform(rng)) * dir;
      break;
    case Kind::kSlip:
      p.r << size, (mu * size) * dir;
      p.u.tail<2>() = -LogUniform(rng, 1e-2, 1e2) * p.r.tail<2>();
      break;
  }
  return p;
}

bool IsZero(Formulation f, const Point& p) {
  return Residual(f, p).norm() <= 1e-14 * InputScale(p);
}

TEST(ZerosTest, ExactSolutionsAreZerosOfEveryFormulation) {
  std::mt19937_64 rng(11);
  for (double mu : {0.0, 0.1, 1.0, 5.0}) {
    for (Kind kind : {Kind::kTakeOff, Kind::kStick, Kind::kSlip}) {
      if (kind == Kind::kSlip && mu == 0.0) continue;  // no slip on a ray
      for (int i = 0; i < 300; ++i) {
        const Point p = RandomSolution(rng, kind, mu);
        for (Formulation f : kAllFormulations) {
          EXPECT_TRUE(IsZero(f, p))
              << ToString(f) << " kind=" << static_cast<int>(kind)
              << " mu=" << mu << " F=" << Residual(f, p).transpose()
              << " u=" << p.u.transpose() << " r=" << p.r.transpose();
        }
      }
    }
  }
}

TEST(ZerosTest, OffSolutionPointsAreNotZerosAndAllFormulationsAgree) {
  std::mt19937_64 rng(12);
  std::normal_distribution<double> normal(0.0, 1.0);
  int solutions = 0;
  int non_solutions = 0;
  for (double mu : {0.0, 0.1, 1.0, 5.0}) {
    for (int i = 0; i < 3000; ++i) {
      const Kind kind = static_cast<Kind>(i % 3);
      if (kind == Kind::kSlip && mu == 0.0) continue;
      Point p = RandomSolution(rng, kind, mu);
      // Half the points are perturbed off the solution set in one variable.
      const bool perturbed = (i / 3) % 2 == 1;
      if (perturbed) {
        const double scale = 1e-3 * (p.u.norm() + p.r.norm());
        switch (kind) {
          case Kind::kTakeOff:  // a compressive impulse at an opening contact
            p.r(0) += scale;
            break;
          case Kind::kStick:
            if (mu > 0.0) {  // sliding while r is strictly inside the cone
              p.u(1 + i % 2) += scale * (normal(rng) > 0 ? 1.0 : -1.0);
            } else {  // frictionless: u_T is free, so move normally instead
              p.u(0) += scale * (normal(rng) > 0 ? 1.0 : -1.0);
            }
            break;
          case Kind::kSlip:  // slip velocity no longer opposite to r_T
            p.u.tail<2>() = Eigen::Vector2d(-p.u(2), p.u(1));
            break;
        }
      }
      perturbed ? ++non_solutions : ++solutions;
      for (Formulation f : kAllFormulations) {
        EXPECT_EQ(IsZero(f, p), !perturbed)
            << ToString(f) << " kind=" << static_cast<int>(kind) << " mu=" << mu
            << " F=" << Residual(f, p).transpose();
      }
    }
  }
  EXPECT_GT(solutions, 1000);
  EXPECT_GT(non_solutions, 1000);
  // Generic random points are not solutions for any formulation.
  for (int i = 0; i < 2000; ++i) {
    const Point p = RandomPoint(rng, i % 2 == 0 ? 0.0 : 0.6);
    for (Formulation f : kAllFormulations)
      EXPECT_FALSE(IsZero(f, p)) << ToString(f);
  }
}

TEST(ZerosTest, NaturalMapAndFischerBurmeisterUseTheScalarRhoN) {
  std::mt19937_64 rng(13);
  for (int i = 0; i < 200; ++i) {
    Point p = RandomPoint(rng, 0.7);
    Point q = p;
    q.rho.tail<2>() *= 3.0;
    for (Formulation f :
         {Formulation::kNaturalMap, Formulation::kFischerBurmeister}) {
      EXPECT_EQ(Residual(f, p), Residual(f, q));
      EXPECT_EQ(Jacobian(f, p), Jacobian(f, q));
    }
  }
}

TEST_P(ResidualTest, ScaleInvariance) {
  // F(alpha u, beta r; rho beta/alpha) = beta F(u, r; rho), A' = (beta/alpha)
  // A, B' = B.
  const Formulation f = GetParam();
  std::mt19937_64 rng(14);
  int checked = 0;
  for (int i = 0; i < 2000; ++i) {
    const double mu = i % 5 == 0 ? 0.0 : LogUniform(rng, 0.05, 5.0);
    const Point p = RandomPoint(rng, mu);
    // Near a kink rounding may pick the other side, and the FB Jacobian loses
    // about eps / sqrt(lambda_1) relative accuracy.
    if (KinkDistance(f, p) < 1e-4) continue;
    const double alpha = LogUniform(rng, 1e-2, 1e2);
    const double beta = LogUniform(rng, 1e-2, 1e2);
    const Point q{alpha * p.u, beta * p.r, mu, (beta / alpha) * p.rho};
    EXPECT_LE(RelativeDistance(Residual(f, q), beta * Residual(f, p)), 1e-12);
    const Matrix36 jp = Jacobian(f, p);
    const Matrix36 jq = Jacobian(f, q);
    // Compared as one 3x6 matrix: a block that nearly cancels (e.g. A of FB at
    // take-off, I - L_s^-1 L_y ~ 1e-5) is only accurate relative to [A B].
    Matrix36 jq_rescaled = jq;
    jq_rescaled.leftCols<3>() *= alpha / beta;
    EXPECT_LE(RelativeDistance(jq_rescaled, jp), 1e-12)
        << "mu=" << mu << " u=" << p.u.transpose() << " r=" << p.r.transpose();
    ++checked;
  }
  EXPECT_GT(checked, 1900);
}

TEST_P(ResidualTest, NoNanAtDegeneratePoints) {
  const Formulation f = GetParam();
  const std::vector<double> values = {0.0, 1.0, -1.0, 1e-300, -1e-160, 1e-160};
  int evaluated = 0;
  for (double mu : {0.0, 0.5, 1e-300}) {
    for (const Eigen::Vector3d& rho :
         {Eigen::Vector3d(1.0, 1.0, 1.0), Eigen::Vector3d(1e-3, 1e3, 2.0)}) {
      for (int code = 0; code < 6 * 6 * 6 * 6 * 6 * 6; ++code) {
        int c = code;
        Vector6 v;
        for (int k = 0; k < 6; ++k) {
          v(k) = values[c % 6];
          c /= 6;
        }
        const Point p{v.head<3>(), v.tail<3>(), mu, rho};
        Eigen::Vector3d F;
        Eigen::Matrix3d A;
        Eigen::Matrix3d B;
        EvaluateContact(f, p.u, p.r, mu, rho, &F, &A, &B);
        ASSERT_TRUE(F.allFinite() && A.allFinite() && B.allFinite())
            << ToString(f) << " mu=" << mu << " u=" << p.u.transpose()
            << " r=" << p.r.transpose();
        ++evaluated;
      }
    }
  }
  EXPECT_EQ(evaluated, 3 * 2 * 46656);
}

TEST_P(ResidualTest, BatchedEvaluationMatchesPerContactAndDoesNotAllocate) {
  const Formulation f = GetParam();
  std::mt19937_64 rng(15);
  const int nc = 200;
  Eigen::VectorXd u(3 * nc), r(3 * nc), mu(nc), rho(3 * nc), F(3 * nc),
      F_only(3 * nc);
  for (int a = 0; a < nc; ++a) {
    const Point p = RandomPoint(rng, a % 4 == 0 ? 0.0 : 0.3 * (a % 7));
    u.segment<3>(3 * a) = p.u;
    r.segment<3>(3 * a) = p.r;
    rho.segment<3>(3 * a) = p.rho;
    mu(a) = p.mu;
  }
  std::vector<Eigen::Matrix3d> A(nc), B(nc);
  testing::StartCountingAllocations();
  EvaluateAll(f, u, r, mu, rho, &F, A.data(), B.data());
  EvaluateAll(f, u, r, mu, rho, &F_only, nullptr, nullptr);
  EXPECT_EQ(testing::StopCountingAllocations(), 0);
  EXPECT_EQ(F, F_only);
  for (int a = 0; a < nc; ++a) {
    Eigen::Vector3d Fa;
    Eigen::Matrix3d Aa;
    Eigen::Matrix3d Ba;
    EvaluateContact(f,
                    u.segment<3>(3 * a),
                    r.segment<3>(3 * a),
                    mu(a),
                    rho.segment<3>(3 * a),
                    &Fa,
                    &Aa,
                    &Ba);
    EXPECT_EQ(Fa, F.segment<3>(3 * a));
    EXPECT_EQ(Aa, A[a]);
    EXPECT_EQ(Ba, B[a]);
    // A single requested block is still filled.
    Eigen::Matrix3d only_b;
    EvaluateContact(f,
                    u.segment<3>(3 * a),
                    r.segment<3>(3 * a),
                    mu(a),
                    rho.segment<3>(3 * a),
                    &Fa,
                    nullptr,
                    &only_b);
    EXPECT_EQ(only_b, Ba);
  }
}

}  // namespace
}  // namespace fcsn
