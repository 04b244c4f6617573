// Properties of the Coulomb cone projections and Jacobians
// (formulations/coulomb_cone.h).
#include "formulations/coulomb_cone.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "test_util.h"

namespace fcsn {
namespace {

using ::fcsn::testing::RelativeDistance;

// Friction coefficients exercised everywhere: frictionless, small, unit, large.
const std::vector<double> kMus = {0.0, 0.1, 1.0, 5.0};
// Round-off tolerance for identities that hold exactly in exact arithmetic.
constexpr double kExactTol = 1e-14;

Eigen::Vector3d RandomVector(std::mt19937_64& rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  return Eigen::Vector3d(normal(rng), normal(rng), normal(rng));
}

// Central finite differences of f: R^3 -> R^3.
template <typename Function>
Eigen::Matrix3d FiniteDifference(const Function& f,
                                 const Eigen::Vector3d& x,
                                 double h) {
  Eigen::Matrix3d j;
  for (int k = 0; k < 3; ++k) {
    Eigen::Vector3d e = Eigen::Vector3d::Zero();
    e(k) = h;
    j.col(k) = (f(x + e) - f(x - e)) / (2.0 * h);
  }
  return j;
}

TEST(CoulombConeTest, ProjectionIsIdempotentAndLandsInTheCone) {
  std::mt19937_64 rng(1);
  for (double mu : kMus) {
    const CoulombCone cone(mu);
    for (int i = 0; i < 2000; ++i) {
      const Eigen::Vector3d x = RandomVector(rng);
      const Eigen::Vector3d p = cone.Project(x);
      EXPECT_LE((p - cone.Project(p)).norm(), kExactTol * x.norm())
          << "mu=" << mu;
      EXPECT_GE(p(0), 0.0);
      EXPECT_LE(p.tail<2>().norm(), mu * p(0) + kExactTol * x.norm())
          << "mu=" << mu;
      EXPECT_EQ(ProjectOntoCone(mu, x), p);
    }
  }
}

TEST(CoulombConeTest, MoreauDecompositionWithOrthogonality) {
  std::mt19937_64 rng(2);
  for (double mu : kMus) {
    const CoulombCone cone(mu);
    for (int i = 0; i < 2000; ++i) {
      const Eigen::Vector3d x = 3.0 * RandomVector(rng);
      const Eigen::Vector3d p = cone.Project(x);
      // P_{-K*}(x) = -P_{K*}(-x).
      const Eigen::Vector3d q = -cone.ProjectOntoDual(-x);
      EXPECT_LE((x - p - q).norm(), kExactTol * x.norm());
      EXPECT_LE(std::abs(p.dot(q)), kExactTol * x.squaredNorm()) << "mu=" << mu;
      // -q in K*: mu ||q_T|| <= -q_N.
      EXPECT_LE(mu * q.tail<2>().norm(), -q(0) + kExactTol * x.norm());
      EXPECT_LE((cone.ProjectOntoPolar(x) - q).norm(), kExactTol * x.norm());
    }
  }
}

TEST(CoulombConeTest, DualProjectionIsIdempotentAndLandsInTheDualCone) {
  std::mt19937_64 rng(3);
  for (double mu : kMus) {
    const CoulombCone cone(mu);
    for (int i = 0; i < 2000; ++i) {
      const Eigen::Vector3d y = RandomVector(rng);
      const Eigen::Vector3d p = ProjectOntoDualCone(mu, y);
      EXPECT_LE(mu * p.tail<2>().norm(), p(0) + kExactTol * y.norm());
      EXPECT_LE((p - cone.ProjectOntoDual(p)).norm(), kExactTol * y.norm());
      if (mu > 0.0) {
        // K*_mu = K_{1/mu}.
        EXPECT_LE((p - ProjectOntoCone(1.0 / mu, y)).norm(), 1e-13 * y.norm());
      }
    }
  }
}

TEST(CoulombConeTest, ClosedFormCases) {
  // mu = 0: "t <= mu x_N" alone would accept x_N < 0 on the axis; the
  // projection must be 0 there.
  EXPECT_EQ(ProjectOntoCone(0.0, Eigen::Vector3d(-2.0, 0.0, 0.0)),
            Eigen::Vector3d::Zero());
  EXPECT_EQ(ProjectOntoCone(0.0, Eigen::Vector3d(2.0, 3.0, -1.0)),
            Eigen::Vector3d(2.0, 0.0, 0.0));
  EXPECT_EQ(ProjectOntoCone(0.0, Eigen::Vector3d(0.0, 3.0, -1.0)),
            Eigen::Vector3d::Zero());
  // Boundary case by hand: mu = 1, x = (0, 2, 0) -> c = 1, P = (1, 1, 0).
  EXPECT_LE((ProjectOntoCone(1.0, Eigen::Vector3d(0.0, 2.0, 0.0)) -
             Eigen::Vector3d(1.0, 1.0, 0.0))
                .norm(),
            kExactTol);
  const CoulombCone cone(0.5);
  EXPECT_EQ(cone.Classify(Eigen::Vector3d(1.0, 0.5, 0.0)),
            ConeRegion::kInterior);
  EXPECT_EQ(cone.Classify(Eigen::Vector3d(-0.5, 1.0, 0.0)), ConeRegion::kPolar);
  EXPECT_EQ(cone.Classify(Eigen::Vector3d(0.0, 1.0, 0.0)),
            ConeRegion::kBoundary);
  EXPECT_EQ(cone.Classify(Eigen::Vector3d::Zero()), ConeRegion::kInterior);
  EXPECT_TRUE(cone.Contains(Eigen::Vector3d(1.0, 0.5, 0.0)));
  EXPECT_FALSE(cone.Contains(Eigen::Vector3d(1.0, 0.6, 0.0)));
  EXPECT_TRUE(cone.DualContains(Eigen::Vector3d(1.0, 2.0, 0.0)));
  EXPECT_FALSE(cone.DualContains(Eigen::Vector3d(1.0, 2.1, 0.0)));
}

TEST(CoulombConeTest,
     ProjectionJacobianMatchesFiniteDifferencesAwayFromBoundaries) {
  std::mt19937_64 rng(4);
  std::uniform_real_distribution<double> mu_dist(0.0, 3.0);
  int checked[3] = {0, 0, 0};
  for (int i = 0; i < 6000; ++i) {
    const double mu = i % 2 == 0 ? kMus[(i / 2) % kMus.size()] : mu_dist(rng);
    const CoulombCone cone(mu);
    const Eigen::Vector3d x = RandomVector(rng);
    const double t = x.tail<2>().norm();
    // Margin to the two region boundaries and to t = 0 (where the boundary
    // formula curves as 1/t).
    const double margin = 1e-2;
    if (std::abs(t - mu * x(0)) < margin || std::abs(mu * t + x(0)) < margin ||
        t < margin)
      continue;
    Eigen::Matrix3d j;
    cone.Project(x, &j);
    const Eigen::Matrix3d fd = FiniteDifference(
        [&](const Eigen::Vector3d& z) { return cone.Project(z); }, x, 1e-7);
    EXPECT_LE((j - fd).norm(), 1e-6 * std::max(1.0, j.norm()))
        << "mu=" << mu << " x=" << x.transpose();
    ++checked[static_cast<int>(cone.Classify(x))];
  }
  for (int region = 0; region < 3; ++region)
    EXPECT_GT(checked[region], 500) << region;
}

TEST(CoulombConeTest,
     ProjectionJacobianOnBoundariesIsTheDocumentedOneSidedLimit) {
  const double mu = 0.625;
  const CoulombCone cone(mu);
  const auto project = [&](const Eigen::Vector3d& z) {
    return cone.Project(z);
  };
  // t = mu x_N exactly (0.375^2 + 0.5^2 = 0.625^2): interior formula, the limit
  // from inside K.
  const Eigen::Vector3d on_cone(1.0, 0.375, 0.5);
  Eigen::Matrix3d j;
  cone.Project(on_cone, &j);
  EXPECT_EQ(j, Eigen::Matrix3d::Identity());
  const Eigen::Vector3d inward(1.0, 0.0, 0.0);
  const double side = 1e-4;
  const double h = 1e-8;
  EXPECT_LE((j - FiniteDifference(project, on_cone + side * inward, h)).norm(),
            1e-6);
  EXPECT_GT((j - FiniteDifference(project, on_cone - side * inward, h)).norm(),
            0.1);
  // mu t = -x_N exactly: polar formula (J_P = 0), the limit from inside the
  // polar cone.
  const Eigen::Vector3d on_polar(-0.625 * 0.625, 0.375, 0.5);
  cone.Project(on_polar, &j);
  EXPECT_EQ(j, Eigen::Matrix3d::Zero());
  EXPECT_LE((j - FiniteDifference(project, on_polar - side * inward, h)).norm(),
            1e-6);
  EXPECT_GT((j - FiniteDifference(project, on_polar + side * inward, h)).norm(),
            0.1);
  // Apex: interior formula.
  cone.Project(Eigen::Vector3d::Zero(), &j);
  EXPECT_EQ(j, Eigen::Matrix3d::Identity());
  // mu = 0 on the ray: diag(1, 0, 0), the (smooth) Jacobian of ((x_N)_+, 0, 0).
  const CoulombCone ray(0.0);
  ray.Project(Eigen::Vector3d(2.0, 0.0, 0.0), &j);
  const Eigen::Matrix3d fd =
      FiniteDifference([&](const Eigen::Vector3d& z) { return ray.Project(z); },
                       Eigen::Vector3d(2.0, 0.0, 0.0),
                       1e-7);
  EXPECT_LE((j - fd).norm(), 1e-9);
}

TEST(CoulombConeTest, DiskProjectionAndJacobians) {
  std::mt19937_64 rng(5);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> radius_dist(0.0, 2.0);
  for (int i = 0; i < 2000; ++i) {
    const Eigen::Vector2d s(normal(rng), normal(rng));
    const double radius = radius_dist(rng);
    if (std::abs(s.norm() - radius) < 1e-2) continue;
    Eigen::Matrix2d d_ds;
    Eigen::Vector2d d_dr;
    const Eigen::Vector2d p = ProjectOntoDisk(radius, s, &d_ds, &d_dr);
    EXPECT_LE(p.norm(), radius * (1.0 + kExactTol));
    EXPECT_LE((ProjectOntoDisk(radius, p) - p).norm(), kExactTol);
    const double h = 1e-7;
    Eigen::Matrix2d fd_s;
    for (int k = 0; k < 2; ++k) {
      Eigen::Vector2d e = Eigen::Vector2d::Zero();
      e(k) = h;
      fd_s.col(k) =
          (ProjectOntoDisk(radius, s + e) - ProjectOntoDisk(radius, s - e)) /
          (2.0 * h);
    }
    const Eigen::Vector2d fd_r =
        (ProjectOntoDisk(radius + h, s) - ProjectOntoDisk(radius - h, s)) /
        (2.0 * h);
    EXPECT_LE((d_ds - fd_s).norm(), 1e-6);
    EXPECT_LE((d_dr - fd_r).norm(), 1e-6);
  }
  // s = 0, R = 0: inside (<=), identity, no division.
  Eigen::Matrix2d d_ds;
  Eigen::Vector2d d_dr;
  EXPECT_EQ(ProjectOntoDisk(0.0, Eigen::Vector2d::Zero(), &d_ds, &d_dr),
            Eigen::Vector2d::Zero());
  EXPECT_EQ(d_ds, Eigen::Matrix2d::Identity());
  EXPECT_EQ(d_dr, Eigen::Vector2d::Zero());
  // Negative radius acts as 0.
  EXPECT_EQ(ProjectOntoDisk(-1.0, Eigen::Vector2d(1.0, 0.0)),
            Eigen::Vector2d::Zero());
}

TEST(CoulombConeTest, ModifiedVelocityAndItsJacobian) {
  std::mt19937_64 rng(6);
  for (double mu : kMus) {
    const CoulombCone cone(mu);
    const auto u_hat = [&](const Eigen::Vector3d& u) {
      return cone.ModifiedVelocity(u);
    };
    for (int i = 0; i < 500; ++i) {
      const Eigen::Vector3d u = RandomVector(rng);
      if (u.tail<2>().norm() < 1e-2) continue;
      Eigen::Matrix3d d;
      const Eigen::Vector3d v = cone.ModifiedVelocity(u, &d);
      EXPECT_EQ(v(0), u(0) + mu * u.tail<2>().norm());
      EXPECT_LE(RelativeDistance(d, FiniteDifference(u_hat, u, 1e-7)), 1e-7);
    }
    // u_T = 0: the documented limit along +e_T1.
    const Eigen::Vector3d u0(0.3, 0.0, 0.0);
    Eigen::Matrix3d d;
    cone.ModifiedVelocity(u0, &d);
    const Eigen::Matrix3d plus =
        FiniteDifference(u_hat, u0 + Eigen::Vector3d(0, 1e-4, 0), 1e-8);
    EXPECT_LE((d - plus).norm(), 1e-6) << "mu=" << mu;
  }
}

TEST(CoulombConeTest, NoNanAtDegeneratePoints) {
  const std::vector<double> values = {0.0, 1.0, -1.0, 1e-300, -1e-160, 1e-160};
  for (double mu : {0.0, 0.5}) {
    const CoulombCone cone(mu);
    for (double a : values) {
      for (double b : values) {
        for (double c : values) {
          const Eigen::Vector3d x(a, b, c);
          Eigen::Matrix3d j;
          Eigen::Matrix3d d;
          Eigen::Matrix2d d_ds;
          Eigen::Vector2d d_dr;
          EXPECT_TRUE(cone.Project(x, &j).allFinite());
          EXPECT_TRUE(j.allFinite());
          EXPECT_TRUE(cone.ProjectOntoDual(x).allFinite());
          EXPECT_TRUE(cone.ModifiedVelocity(x, &d).allFinite());
          EXPECT_TRUE(d.allFinite());
          EXPECT_TRUE(
              ProjectOntoDisk(a, x.tail<2>(), &d_ds, &d_dr).allFinite());
          EXPECT_TRUE(d_ds.allFinite() && d_dr.allFinite());
        }
      }
    }
  }
}

}  // namespace
}  // namespace fcsn
