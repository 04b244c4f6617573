// Singular and nearly singular M (fcsn/error_measures.h, minverse/rho.h): a
// static step of a floating body (M := K, a null space of rigid motions that
// only the contacts remove) is solved by the default policy without M^-1
// (no NSGS phase, diag(M) in the scaling and in the criterion's floor), and
// reports so; pure NSGS refuses it as out of scope, with the same answer for a
// singular and an indefinite M; a family of nearly singular M (a weak mass
// term, condition 1e6 ... 1e14) ends converged by an independent dense check,
// or at round-off-limit. Every returned point is finite.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <string>
#include <vector>

#include "fcsn/solver.h"
#include "test_problems.h"
#include "test_util.h"

namespace fcsn {
namespace {

// The measures' max by dense linear algebra (formulations.md §9.1 with the
// round-off floor of testing::DenseVelocityFloor), sharing only the
// definitions with the library.
double DenseWorst(const GlobalProblem& p, const Solution& x) {
  const Eigen::MatrixXd M(p.M), H(p.H);
  const Eigen::VectorXd u = H.transpose() * x.v + p.w;
  Eigen::VectorXd u_hat = u;
  double cone = 0, dual = 0, comp = 0;
  for (int a = 0; a < p.nc(); ++a) {
    const double mu = p.mu[a];
    u_hat[3 * a] += mu * u.segment<2>(3 * a + 1).norm();
    const Eigen::Vector3d r_a = x.r.segment<3>(3 * a);
    const double rn = r_a[0], rt = r_a.tail<2>().norm();
    const double un = u_hat[3 * a], ut = u.segment<2>(3 * a + 1).norm();
    if (!(rn >= 0 && rt <= mu * rn))
      cone += std::pow(mu * rt <= -rn ? std::hypot(rn, rt)
                                      : (rt - mu * rn) / std::hypot(1, mu),
                       2);
    if (!(mu * ut <= un))
      dual += std::pow(ut <= -mu * un ? std::hypot(un, ut)
                                      : (mu * ut - un) / std::hypot(1, mu),
                       2);
    comp += std::abs(r_a.dot(u_hat.segment<3>(3 * a)));
  }
  const Eigen::VectorXd b = M.cwiseAbs() * x.v.cwiseAbs() +
                            H.cwiseAbs() * x.r.cwiseAbs() + p.f.cwiseAbs();
  const double s_u = std::max(
      {(H.cwiseAbs().transpose() * x.v.cwiseAbs() + p.w.cwiseAbs()).norm(),
       u_hat.norm(),
       testing::DenseVelocityFloor(M, H, b)});
  auto ratio = [](double a, double c) { return c > 0 ? a / c : 0.0; };
  return std::max({ratio(std::sqrt(cone), x.r.norm()),
                   ratio(std::sqrt(dual), s_u),
                   ratio(comp, x.r.norm() * s_u),
                   ratio((M * x.v - H * x.r - p.f).norm(), b.norm())});
}

// The lattice block on the floor with M := M - (1 - mass) I: mass 0 leaves
// the stiffness alone (singular: rigid motions), mass > 0 a weak mass term.
GlobalProblem FloatingLattice(double mass, double pull_ratio) {
  GlobalProblem p = testing::MakeLatticeOnFloor(4, 3, 2, 0.5, pull_ratio);
  SparseMatrix identity(p.n(), p.n());
  identity.setIdentity();
  p.M = p.M - (1.0 - mass) * identity;
  p.M.prune(0.0);
  p.M.makeCompressed();
  return p;
}

SolverOptions Options(SolverType type) {
  SolverOptions options;
  options.solver = type;
  options.tolerance = 1e-10;
  return options;
}

bool Mentions(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

// Sticking contacts remove the rigid motions: J is regular, the default
// policy and pure Newton converge, by the dense check too, and say that M
// was not regular.
TEST(SingularMTest, FloatingBodyHeldByItsContactsIsSolved) {
  const GlobalProblem p = FloatingLattice(0.0, 0.3);
  ASSERT_TRUE(p.Validate().empty()) << p.Validate();
  for (SolverType type : {SolverType::kHybrid, SolverType::kNewton}) {
    Solver solver(Options(type));
    Solution x;
    const SolverSummary s = solver.Solve(p, nullptr, &x);
    EXPECT_EQ(s.status, SolverStatus::kConverged) << s.FullReport();
    EXPECT_TRUE(Mentions(s.message, "not regular")) << s.message;
    EXPECT_EQ(s.nsgs_sweeps, 0);
    EXPECT_TRUE(s.floor_from_diagonal);
    ASSERT_TRUE(x.v.allFinite() && x.r.allFinite());
    EXPECT_LE(DenseWorst(p, x), 1e-10) << s.FullReport();
  }
}

// Pure NSGS needs W = H^T M^-1 H: a singular and an indefinite M get the
// same answer, invalid input, with a finite point.
TEST(SingularMTest, NsgsRefusesSingularAndIndefiniteMAlike) {
  for (double mass : {0.0, -1e-3}) {
    const GlobalProblem p = FloatingLattice(mass, 0.3);
    Solver solver(Options(SolverType::kNsgs));
    Solution x;
    const SolverSummary s = solver.Solve(p, nullptr, &x);
    EXPECT_EQ(s.status, SolverStatus::kInvalidInput) << s.FullReport();
    EXPECT_TRUE(Mentions(s.message, "positive definite")) << s.message;
  }
}

// Nearly singular M: a weak mass term below the stiffness (condition of M
// about 1 / mass relative to h^2 k). Each solve converges by the dense check
// or ends at round-off-limit; never a wrong "converged".
TEST(SingularMTest, NearlySingularMConvergesOrReachesRoundOff) {
  for (double mass : {1e-4, 1e-8, 1e-12}) {
    for (double pull : {0.3, 1.5}) {
      const GlobalProblem p = FloatingLattice(mass, pull);
      Solver solver(Options(SolverType::kHybrid));
      Solution x;
      const SolverSummary s = solver.Solve(p, nullptr, &x);
      const std::string what = "mass " + std::to_string(mass) + ", pull " +
                               std::to_string(pull) + ": " + s.FullReport();
      ASSERT_TRUE(x.v.allFinite() && x.r.allFinite()) << what;
      if (s.status == SolverStatus::kConverged) {
        EXPECT_LE(DenseWorst(p, x), 1e-10 * (1 + 1e-6)) << what;
      } else {
        EXPECT_EQ(s.status, SolverStatus::kRoundOffLimit) << what;
        EXPECT_FALSE(s.message.empty());
      }
    }
  }
}

}  // namespace
}  // namespace fcsn
