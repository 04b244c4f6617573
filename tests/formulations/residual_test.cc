// Per-contact residuals and generalized Jacobians of the four formulations
// (formulations/residual.h): finite-difference checks away from kinks, exact
// zeros at one-contact solutions, scale invariance, no NaN, and the batched
// interface. The element at each kink: residual_kink_test.cc.
#include "formulations/residual.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "alloc_counter.h"
#include "contact_point.h"
#include "fcsn/types.h"
#include "formulations/coulomb_cone.h"
#include "test_util.h"

namespace fcsn {
namespace {

using ::fcsn::testing::RelativeDistance;
using testing::CaseOf;
using testing::FiniteDifferenceJacobian;
using testing::Jacobian;
using testing::Matrix36;
using testing::Point;
using testing::Residual;
using testing::Shifted;
using testing::Vector6;

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
