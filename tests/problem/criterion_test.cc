// The convergence criterion of formulations.md §9.1 (fcsn/error_measures.h):
// each of e_cone, e_dual, e_comp, e_eq catches its own violation, with values
// checked by hand and against an independent dense implementation written
// here; the measures do not change when forces, velocities and masses are
// rescaled (the reason for the criterion); mu = 0 and mu = 1e6 are handled;
// degenerate zero scales give 0; a resting contact is judged against the
// round-off floor s_eps of the velocity scale, never against a physical
// velocity such as the free fall ||q_free||.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "fcsn/error_measures.h"
#include "fcsn/fclib_io.h"
#include "test_problems.h"
#include "test_util.h"

namespace fcsn {
namespace {

// ----- Independent dense implementation (no cone projection: distances to a
// cone in the (x_N, ||x_T||) half-plane, as distances to a ray).

// Distance of (x_N, t), t >= 0, to the ray {t = k x_N, x_N >= 0}... expressed
// for the cone { t <= slope * x_N }: inside 0, in the polar cone the norm,
// otherwise the distance to the boundary line.
double DistanceToConeIn2d(double x_n, double t, double slope) {
  if (x_n >= 0.0 && t <= slope * x_n) return 0.0;
  if (slope * t <= -x_n) return std::hypot(x_n, t);
  return std::abs(t - slope * x_n) / std::sqrt(1.0 + slope * slope);
}

// dist(y, K*_mu), K*_mu = { mu t <= y_N }.
double DistanceToDualIn2d(double y_n, double t, double mu) {
  if (mu * t <= y_n) return 0.0;
  if (t <= -mu * y_n) return std::hypot(y_n, t);
  return std::abs(mu * t - y_n) / std::sqrt(1.0 + mu * mu);
}

ErrorMeasures DenseMeasures(const GlobalProblem& p,
                            const Eigen::VectorXd& v,
                            const Eigen::VectorXd& r) {
  const Eigen::MatrixXd M(p.M), H(p.H);
  const Eigen::VectorXd u = H.transpose() * v + p.w;
  const Eigen::VectorXd u_scale =
      H.cwiseAbs().transpose() * v.cwiseAbs() + p.w.cwiseAbs();
  Eigen::VectorXd u_hat = u;
  double cone2 = 0, dual2 = 0, comp = 0;
  for (int a = 0; a < p.nc(); ++a) {
    const double mu = p.mu[a];
    u_hat[3 * a] += mu * u.segment<2>(3 * a + 1).norm();
    const double rn = r[3 * a], rt = r.segment<2>(3 * a + 1).norm();
    const double un = u_hat[3 * a], ut = u.segment<2>(3 * a + 1).norm();
    cone2 += std::pow(DistanceToConeIn2d(rn, rt, mu), 2);
    dual2 += std::pow(DistanceToDualIn2d(un, ut, mu), 2);
    comp += std::abs(r.segment<3>(3 * a).dot(u_hat.segment<3>(3 * a)));
  }
  const Eigen::VectorXd b = M.cwiseAbs() * v.cwiseAbs() +
                            H.cwiseAbs() * r.cwiseAbs() + p.f.cwiseAbs();
  const double s_u = std::max(
      {u_scale.norm(), u_hat.norm(), testing::DenseVelocityFloor(M, H, b)});
  auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };
  ErrorMeasures e;
  e.e_cone = ratio(std::sqrt(cone2), r.norm());
  e.e_dual = ratio(std::sqrt(dual2), s_u);
  e.e_comp = ratio(comp, r.norm() * s_u);
  e.e_eq = ratio((M * v - H * r - p.f).norm(), b.norm());
  return e;
}

void ExpectSameMeasures(const ErrorMeasures& a,
                        const ErrorMeasures& b,
                        double relative,
                        double absolute,
                        const std::string& what) {
  auto near = [&](double x, double y) {
    return std::abs(x - y) <=
           relative * std::max(std::abs(x), std::abs(y)) + absolute;
  };
  EXPECT_TRUE(near(a.e_cone, b.e_cone))
      << what << ": " << a.Describe() << " vs " << b.Describe();
  EXPECT_TRUE(near(a.e_dual, b.e_dual))
      << what << ": " << a.Describe() << " vs " << b.Describe();
  EXPECT_TRUE(near(a.e_comp, b.e_comp))
      << what << ": " << a.Describe() << " vs " << b.Describe();
  EXPECT_TRUE(near(a.e_eq, b.e_eq))
      << what << ": " << a.Describe() << " vs " << b.Describe();
}

using testing::OneContact;  // M = I, H = I: v = r + f, u = v + w

TEST(CriterionTest, EachMeasureCatchesItsOwnCondition) {
  const Eigen::Vector3d zero = Eigen::Vector3d::Zero();
  {  // r = (1, 1, 0) outside K_0.5, balance kept (f = v - r, v = 0), u = 0.
    const Eigen::Vector3d r(1, 1, 0);
    const GlobalProblem p = OneContact(0.5, -r, zero);
    const ErrorMeasures e = ComputeErrorMeasures(p, zero, r);
    // dist = |1 - 0.5| / sqrt(1.25) over ||r|| = sqrt(2).
    EXPECT_NEAR(e.e_cone, 0.5 / std::sqrt(1.25) / std::sqrt(2.0), 1e-15);
    EXPECT_EQ(e.e_dual, 0.0);
    EXPECT_EQ(e.e_comp, 0.0);
    EXPECT_EQ(e.e_eq, 0.0);
  }
  {  // r = 0, u = v = (-1, 0, 0): penetration, û outside K*.
    const GlobalProblem p = OneContact(0.5, Eigen::Vector3d(-1, 0, 0), zero);
    const ErrorMeasures e =
        ComputeErrorMeasures(p, Eigen::Vector3d(-1, 0, 0), zero);
    EXPECT_EQ(e.e_cone, 0.0);
    EXPECT_DOUBLE_EQ(e.e_dual, 1.0);
    EXPECT_EQ(e.e_comp, 0.0);
    EXPECT_EQ(e.e_eq, 0.0);
  }
  {  // r = (1, 0, 0) in K, u = (1, 0, 0) in K*, but r . û = 1: not
     // complementary. f = v - r = 0.
    const Eigen::Vector3d r(1, 0, 0), v(1, 0, 0);
    const GlobalProblem p = OneContact(0.5, zero, zero);
    const ErrorMeasures e = ComputeErrorMeasures(p, v, r);
    EXPECT_EQ(e.e_cone, 0.0);
    EXPECT_EQ(e.e_dual, 0.0);
    EXPECT_DOUBLE_EQ(e.e_comp, 1.0);
    EXPECT_EQ(e.e_eq, 0.0);
  }
  {  // Contact law exact (take-off), balance off: v = (2, 0, 0), f = (1, 0, 0).
    const GlobalProblem p = OneContact(0.5, Eigen::Vector3d(1, 0, 0), zero);
    const ErrorMeasures e =
        ComputeErrorMeasures(p, Eigen::Vector3d(2, 0, 0), zero);
    EXPECT_EQ(e.e_cone, 0.0);
    EXPECT_EQ(e.e_dual, 0.0);
    EXPECT_EQ(e.e_comp, 0.0);
    EXPECT_DOUBLE_EQ(e.e_eq, 1.0 / 3.0);
    EXPECT_FALSE(e.Converged(0.3));
    EXPECT_TRUE(e.Converged(0.34));
  }
}

TEST(CriterionTest, FrictionlessAndNearlyUnboundedFriction) {
  const Eigen::Vector3d zero = Eigen::Vector3d::Zero();
  {  // mu = 0: K is the ray, a tangential force is a violation; K* is the
     // half-space, any sliding velocity with u_N >= 0 is admissible.
    const Eigen::Vector3d r(1, 0, 0), v(0, 3, -4);
    const GlobalProblem p = OneContact(0.0, v - r, zero);
    const ErrorMeasures e = ComputeErrorMeasures(p, v, r);
    EXPECT_EQ(e.Worst(), 0.0);
    const Eigen::Vector3d r_bad(1, 0.1, 0);
    const GlobalProblem q = OneContact(0.0, v - r_bad, zero);
    EXPECT_NEAR(
        ComputeErrorMeasures(q, v, r_bad).e_cone, 0.1 / r_bad.norm(), 1e-15);
  }
  {  // mu = 1e6: K is nearly the half-space r_N >= 0 (a force 0.1 outside the
     // boundary in the tangential direction is only 1e-7 away from K), and a
     // sliding velocity makes û_N = mu ||u_T|| huge.
    const double mu = 1e6;
    const Eigen::Vector3d r(1e-7, 0.05, 0);  // ||r_T|| <= mu r_N = 0.1
    const GlobalProblem p = OneContact(mu, -r, zero);
    EXPECT_EQ(ComputeErrorMeasures(p, zero, r).Worst(), 0.0);
    const Eigen::Vector3d r_out(1e-7, 0.2, 0);  // outside: 0.2 > 0.1
    const GlobalProblem q = OneContact(mu, -r_out, zero);
    const ErrorMeasures e = ComputeErrorMeasures(q, zero, r_out);
    EXPECT_NEAR(e.e_cone, 0.1 / std::sqrt(1.0 + mu * mu) / r_out.norm(), 1e-15);
    ExpectSameMeasures(e, DenseMeasures(q, zero, r_out), 1e-9, 1e-14, "mu 1e6");
    // Slip with the friction force opposed to the sliding velocity: exact.
    const Eigen::Vector3d v(0, 1e-3, 0), r_slip(1e-7, -0.1, 0);
    const GlobalProblem t = OneContact(mu, v - r_slip, zero);
    EXPECT_LE(ComputeErrorMeasures(t, v, r_slip).Worst(), 1e-15);
    // Friction force orthogonal to the sliding velocity: r . û = r_N mu
    // ||u_T|| = 1e-4, over ||r|| s_u = 0.1 * 1e3.
    const Eigen::Vector3d r_slide(1e-7, 0, -0.1);
    const GlobalProblem s = OneContact(mu, v - r_slide, zero);
    const ErrorMeasures slide = ComputeErrorMeasures(s, v, r_slide);
    EXPECT_NEAR(slide.e_comp, 1e-6, 1e-12);
    EXPECT_FALSE(slide.Converged(1e-8));
    ExpectSameMeasures(
        slide, DenseMeasures(s, v, r_slide), 1e-9, 1e-14, "sliding");
  }
}

TEST(CriterionTest, ZeroScalesGiveZero) {
  const GlobalProblem p =
      OneContact(0.3, Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero());
  const ErrorMeasures e =
      ComputeErrorMeasures(p, Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero());
  EXPECT_EQ(e.e_cone, 0.0);
  EXPECT_EQ(e.e_dual, 0.0);
  EXPECT_EQ(e.e_comp, 0.0);
  EXPECT_EQ(e.e_eq, 0.0);
  EXPECT_TRUE(e.Converged(0.0));
}

TEST(CriterionTest, NonFiniteInputsAreNeverConverged) {
  const GlobalProblem p =
      OneContact(0.3, Eigen::Vector3d(-1, 0, 0), Eigen::Vector3d::Zero());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (double bad : {nan, inf}) {
    const ErrorMeasures ev = ComputeErrorMeasures(
        p, Eigen::Vector3d(0, bad, 0), Eigen::Vector3d(1, 0, 0));
    EXPECT_FALSE(ev.Converged(1.0)) << ev.Describe();
    const ErrorMeasures er = ComputeErrorMeasures(
        p, Eigen::Vector3d::Zero(), Eigen::Vector3d(bad, 0, 0));
    EXPECT_FALSE(er.Converged(1.0)) << er.Describe();
  }
}

// Subnormal velocities (a dof no force acts on, left at round-off of round-off)
// are measured like any other: finite, the same as at a normal scale
// (positively homogeneous), never NaN from an overflowing rescaling.
TEST(CriterionTest, SubnormalVelocitiesGiveFiniteMeasures) {
  const double tiny = 4.9e-320;  // subnormal
  ASSERT_EQ(std::fpclassify(tiny), FP_SUBNORMAL);
  const GlobalProblem p =
      OneContact(0.3, Eigen::Vector3d(-1, 0, 0), Eigen::Vector3d::Zero());
  for (const Eigen::Vector3d& v : {Eigen::Vector3d(0, tiny, 0),
                                   Eigen::Vector3d(tiny, 0, tiny),
                                   Eigen::Vector3d(-tiny, tiny, 0)}) {
    const ErrorMeasures e =
        ComputeErrorMeasures(p, v, Eigen::Vector3d(1, 0, 0));
    EXPECT_TRUE(std::isfinite(e.e_cone) && std::isfinite(e.e_dual) &&
                std::isfinite(e.e_comp) && std::isfinite(e.e_nat))
        << e.Describe();
  }
}

// An iterate near overflow (|r| ~ 1e301 over M_ii ~ 1e-14: the round-off
// floor |H^T| M^-1 |H| |r| and with it the velocity scale are beyond
// double's range): the relative measures cannot be formed and are NaN, so
// the point is never judged converged (x / inf would give 0).
TEST(CriterionTest, ScalesBeyondDoubleRangeGiveNaNNotZero) {
  GlobalProblem p =
      OneContact(0.3, Eigen::Vector3d(-1, 0, 0), Eigen::Vector3d::Zero());
  p.M *= 1e-14;
  const Eigen::Vector3d v(1e301, 1e290, -1e290);
  const ErrorMeasures e =
      ComputeErrorMeasures(p, v, Eigen::Vector3d(1e301, 0, 0));
  EXPECT_TRUE(std::isinf(e.velocity_scale) || std::isinf(e.velocity_floor))
      << e.Describe();
  EXPECT_TRUE(std::isnan(e.e_dual)) << e.Describe();
  EXPECT_TRUE(std::isnan(e.e_comp)) << e.Describe();
  EXPECT_FALSE(e.Converged(1e-4)) << e.Describe();
}

// A reaction of subnormal size outside the cone (mu = 0, r_T = 2e-317, r_N
// = 0) is outside the cone at its own scale: e_cone = 1. (Eigen's blueNorm()
// is 0 for subnormal vectors, which made it 0 / 0 = 0: `converged`, a solver
// fuzz finding.)
TEST(CriterionTest, SubnormalReactionsAreMeasuredAtTheirScale) {
  const GlobalProblem p =
      OneContact(0.0, Eigen::Vector3d(-1, 0, 0), Eigen::Vector3d::Zero());
  const Eigen::Vector3d r(
      0, -2.0722615146145237e-317, -2.0722615146145237e-317);
  const ErrorMeasures e = ComputeErrorMeasures(p, Eigen::Vector3d::Zero(), r);
  EXPECT_NEAR(e.e_cone, 1.0, 1e-12) << e.Describe();
  EXPECT_FALSE(e.Converged(1e-4)) << e.Describe();
}

// A slow slip under a large free fall: u_T = 1e-8 against ||q_free|| ~ 1.
// With friction along the slip (wrong) r . û is 0.55 of ||r|| s_u at the
// answer's own scale: not converged (a floor at ||q_free|| called it
// converged at 5.5e-9). With friction opposing the slip it converges.
TEST(CriterionTest, SlowSlipIsJudgedAtItsOwnScale) {
  const double slip = 1e-8;
  const Eigen::Vector3d u(0, slip, 0);  // M = I, H = I, w = 0: u = v
  for (double sign : {1.0, -1.0}) {
    const Eigen::Vector3d r(1, sign * 0.3, 0);
    const GlobalProblem p = OneContact(0.3, u - r, Eigen::Vector3d::Zero());
    const ErrorMeasures e = ComputeErrorMeasures(p, u, r);
    EXPECT_LT(e.velocity_floor, 1e-3 * slip) << e.Describe();
    if (sign > 0) {
      EXPECT_GT(e.e_comp, 0.1) << e.Describe();
      EXPECT_FALSE(e.Converged(1e-8)) << e.Describe();
    } else {
      EXPECT_TRUE(e.Converged(1e-12)) << e.Describe();
    }
  }
}

// A resting contact: v = 0 and w = 0 at the solution. v = 0 exactly is
// converged; velocities are then judged against the round-off floor s_eps =
// c eps || |H^T| |M^-1 b| || (here c eps (|f| + |r|)): a penetration at that
// level is O(1), far below it is not.
TEST(CriterionTest, RestingContactIsJudgedAgainstTheRoundOffFloor) {
  const Eigen::Vector3d f(-9.81e-3, 0, 0);  // gravity impulse over one step
  const GlobalProblem p = OneContact(0.3, f, Eigen::Vector3d::Zero());
  const Eigen::Vector3d r = -f;
  const ErrorMeasures exact =
      ComputeErrorMeasures(p, Eigen::Vector3d::Zero(), r);
  EXPECT_EQ(exact.Worst(), 0.0) << exact.Describe();
  const double floor = kVelocityFloorFactor *
                       std::numeric_limits<double>::epsilon() * 2 * f.norm();
  EXPECT_NEAR(exact.velocity_floor, floor, 1e-3 * floor);
  const Eigen::Vector3d penetrating(-floor, 0, 0);
  EXPECT_GT(ComputeErrorMeasures(p, penetrating, r).e_dual, 0.1);
  const Eigen::Vector3d tiny(-1e-6 * floor, 0, 0);
  EXPECT_LE(ComputeErrorMeasures(p, tiny, r).Worst(), 1e-5);
}

// A singular M (a floating body: M = K with a rigid-body mode) has no M^-1:
// the floor uses diag(M), and the measures stay finite and unit-free.
TEST(CriterionTest, SingularMUsesTheDiagonalFloor) {
  GlobalProblem p =
      OneContact(0.3, Eigen::Vector3d(-1, 0, 0), Eigen::Vector3d::Zero());
  Eigen::Matrix3d k;
  k << 1, -1, 0, -1, 1, 0, 0, 0, 1;  // singular: (1, 1, 0) is a null vector
  p.M = k.sparseView();
  const Eigen::Vector3d v(0.5, 0.5, 0), r(1, 0, 0);
  const ErrorMeasures e = ComputeErrorMeasures(p, v, r);
  EXPECT_TRUE(e.floor_from_diagonal);
  EXPECT_TRUE(std::isfinite(e.Worst())) << e.Describe();
  ExpectSameMeasures(e, DenseMeasures(p, v, r), 1e-12, 1e-15, "singular M");
}

// ----- Shared problems: reference solutions and their perturbations, against
// the dense implementation and under changes of units.

struct Loaded {
  std::string file;
  GlobalProblem problem;
  Eigen::VectorXd v, r;
};

std::vector<Loaded> LoadReferenceProblems() {
  std::ifstream in(testing::SharedProblem("reference_solutions.json"));
  const nlohmann::json all = nlohmann::json::parse(in).at("problems");
  std::vector<Loaded> out;
  for (const auto& [key, value] : all.items()) {
    Loaded l;
    l.file = key.substr(0, key.find('|'));
    std::string error;
    ReadOptions options;
    options.m_storage = key.find("M=symmetrized") == std::string::npos
                            ? MStorage::kAsStored
                            : MStorage::kSymmetrized;
    if (!ReadGlobalProblem(testing::SharedProblem(l.file),
                           options,
                           &l.problem,
                           nullptr,
                           &error)) {
      ADD_FAILURE() << error;
      continue;
    }
    const auto v = value.at("v").get<std::vector<double>>();
    const auto r = value.at("r").get<std::vector<double>>();
    l.v = Eigen::Map<const Eigen::VectorXd>(v.data(), v.size());
    l.r = Eigen::Map<const Eigen::VectorXd>(r.data(), r.size());
    out.push_back(std::move(l));
  }
  return out;
}

// Points of a reference problem: the solution and three perturbations (r
// pushed out of the cones, u pushed into penetration, v off the balance).
std::vector<std::pair<Eigen::VectorXd, Eigen::VectorXd>> TestPoints(
    const Loaded& l) {
  std::vector<std::pair<Eigen::VectorXd, Eigen::VectorXd>> points = {
      {l.v, l.r}};
  Eigen::VectorXd r_out = l.r;
  for (int a = 0; a < l.problem.nc(); ++a)
    r_out[3 * a + 1] += 0.5 * l.r.norm() / std::sqrt(l.problem.nc());
  points.push_back({l.v, r_out});
  const Eigen::VectorXd v_down =
      l.v - 0.01 * (l.v.norm() + 1e-3) * Eigen::VectorXd::Ones(l.v.size());
  points.push_back({v_down, l.r});
  std::mt19937 rng(7);
  std::normal_distribution<double> normal;
  Eigen::VectorXd v_noise = l.v;
  for (int i = 0; i < v_noise.size(); ++i)
    v_noise[i] += 1e-3 * (std::abs(l.v[i]) + 1e-6) * normal(rng);
  points.push_back({v_noise, l.r});
  return points;
}

TEST(CriterionTest, MatchesTheDenseImplementationOnSharedProblems) {
  int checked = 0;
  for (const Loaded& l : LoadReferenceProblems()) {
    for (const auto& [v, r] : TestPoints(l)) {
      ExpectSameMeasures(ComputeErrorMeasures(l.problem, v, r),
                         DenseMeasures(l.problem, v, r),
                         1e-10,
                         1e-14,
                         l.file);
      ++checked;
    }
    // The solution meets the criterion, every perturbation fails it.
    const auto points = TestPoints(l);
    EXPECT_TRUE(
        ComputeErrorMeasures(l.problem, points[0].first, points[0].second)
            .Converged(1e-9))
        << l.file;
    for (size_t k = 1; k < points.size(); ++k) {
      const ErrorMeasures e =
          ComputeErrorMeasures(l.problem, points[k].first, points[k].second);
      EXPECT_FALSE(e.Converged(1e-6))
          << l.file << " point " << k << ": " << e.Describe();
    }
  }
  EXPECT_GE(checked, 20);
}

// Units: masses times alpha, impulses (f) times beta, H times delta, and w
// times delta beta / alpha describe the same physics, with v times beta / alpha
// and r times beta / delta. Every measure is unchanged, at the solution and at
// the perturbed points, over 300 orders of magnitude.
TEST(CriterionTest, InvariantUnderChangesOfUnits) {
  struct Units {
    double alpha, beta, delta;
  };
  const std::vector<Units> all_units = {{1e-12, 1, 1},
                                        {1e150, 1, 1},
                                        {1, 1e8, 1},
                                        {1, 1, 1e-6},
                                        {1e3, 1e-7, 1e5},
                                        {1e-100, 1e100, 1e-50}};
  for (const Loaded& l : LoadReferenceProblems()) {
    for (const Units& s : all_units) {
      GlobalProblem p = l.problem;
      p.M *= s.alpha;
      p.f *= s.beta;
      p.H *= s.delta;
      p.w *= s.delta * s.beta / s.alpha;
      for (const auto& [v, r] : TestPoints(l)) {
        const ErrorMeasures base = ComputeErrorMeasures(l.problem, v, r);
        const ErrorMeasures scaled = ComputeErrorMeasures(
            p, v * (s.beta / s.alpha), r * (s.beta / s.delta));
        ExpectSameMeasures(base,
                           scaled,
                           1e-9,
                           1e-15,
                           l.file + " alpha " + std::to_string(s.alpha));
      }
    }
  }
}

}  // namespace
}  // namespace fcsn
