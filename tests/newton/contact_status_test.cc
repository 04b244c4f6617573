// Tests of fcsn/contact_status.h: the per-contact results (status, r, u = H^T
// v + w recomputed from v, û = u + mu ||u_T|| e_N) of a hand-made solution,
// and their agreement with the solver's per-iteration counts on a solved
// problem.
#include "fcsn/contact_status.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <vector>

#include "fcsn/solver.h"

namespace fcsn {
namespace {

SparseMatrix Sparse(const Eigen::MatrixXd& dense) {
  SparseMatrix A = dense.sparseView();
  A.makeCompressed();
  return A;
}

// Three contacts on a 3-dof body, H = [I I I]: u_a = v + w_a. Reactions: a
// stick (interior), a slip (boundary), a take-off (zero) contact.
GlobalProblem ThreeContacts() {
  GlobalProblem p;
  p.M = Sparse(Eigen::MatrixXd::Identity(3, 3));
  Eigen::MatrixXd H(3, 9);
  H << Eigen::MatrixXd::Identity(3, 3), Eigen::MatrixXd::Identity(3, 3),
      Eigen::MatrixXd::Identity(3, 3);
  p.H = Sparse(H);
  p.f = Eigen::VectorXd::Zero(3);
  p.w = Eigen::VectorXd{{0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 2.0, 3.0, 4.0}};
  p.mu = Eigen::VectorXd{{0.5, 0.5, 0.25}};
  return p;
}

TEST(ContactResultsTest, StatusReactionAndVelocities) {
  const GlobalProblem p = ThreeContacts();
  Solution x;
  x.v = Eigen::VectorXd{{0.0, 0.0, 0.0}};
  x.r = Eigen::VectorXd{{2.0, 0.1, 0.0, 2.0, -1.0, 0.0, 0.0, 0.0, 0.0}};
  x.u = Eigen::VectorXd::Constant(9, 99.0);  // not read: u comes from v
  std::vector<ContactResult> results;
  ASSERT_TRUE(ContactResults(p, x, &results));
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].status, ContactStatus::kStick);
  EXPECT_EQ(results[1].status, ContactStatus::kSlip);
  EXPECT_EQ(results[2].status, ContactStatus::kTakeOff);
  EXPECT_EQ(results[1].r, Eigen::Vector3d(2.0, -1.0, 0.0));
  EXPECT_EQ(results[0].u, Eigen::Vector3d::Zero());
  EXPECT_EQ(results[0].u_hat, Eigen::Vector3d::Zero());
  // u_1 = (0, 1, 0): û_N = 0.5 * 1.
  EXPECT_EQ(results[1].u, Eigen::Vector3d(0.0, 1.0, 0.0));
  EXPECT_EQ(results[1].u_hat, Eigen::Vector3d(0.5, 1.0, 0.0));
  // u_2 = (2, 3, 4): ||u_T|| = 5, û_N = 2 + 0.25 * 5.
  EXPECT_EQ(results[2].u_hat, Eigen::Vector3d(3.25, 3.0, 4.0));
}

// One contact, M = I, H = I (u = v + w), mu = 0.5, r_N = 1, in units where
// forces are times `force` and velocities times `velocity`.
Solution OneContactSolution(const Eigen::Vector3d& r,
                            const Eigen::Vector3d& u,
                            double force,
                            double velocity) {
  Solution x;
  x.r = force * r;
  x.v = velocity * u;
  return x;
}

GlobalProblem OneContactProblem(double mass) {
  GlobalProblem p;
  p.M = Sparse(mass * Eigen::MatrixXd::Identity(3, 3));
  p.H = Sparse(Eigen::MatrixXd::Identity(3, 3));
  p.f = Eigen::VectorXd::Zero(3);
  p.w = Eigen::VectorXd::Zero(3);
  p.mu = Eigen::VectorXd::Constant(1, 0.5);
  return p;
}

// A sliding contact whose reaction sits inside the cone by more than the
// tolerance is slip (its slip is visible), in every unit system; the same
// reaction with a slip below tol s_u is stick; a grazing contact (u_N = 0,
// r = 0) is take-off. The velocity scale s_u is one velocity unit (given as
// the floor: the rest of a body that these contacts belong to).
TEST(ContactResultsTest, LabelsReadBothSidesInAnyUnits) {
  struct Case {
    Eigen::Vector3d r, u;
    ContactStatus expected;
  };
  const std::vector<Case> cases = {
      {{1, -0.4999, 0}, {0, 1e-3, 0}, ContactStatus::kSlip},
      {{1, -0.4999, 0}, {0, 1e-12, 0}, ContactStatus::kStick},
      {{1, 0.1, 0.1}, {0, 0, 0}, ContactStatus::kStick},
      {{1, 0, 0.5}, {0, 0, 0}, ContactStatus::kSlip},   // impending slip
      {{0, 0, 0}, {0, 0, 0}, ContactStatus::kTakeOff},  // grazing
      {{-1e-3, 0, 0}, {1, 0, 0}, ContactStatus::kTakeOff},
  };
  for (double force : {1e-12, 1.0, 1e12}) {
    for (double velocity : {1e-12, 1.0, 1e12}) {
      const GlobalProblem p = OneContactProblem(force / velocity);
      ContactStatusScales scales;  // tol 1e-8
      scales.velocity_floor = velocity;
      for (const Case& c : cases) {
        std::vector<ContactStatus> statuses;
        ASSERT_TRUE(
            ClassifySolution(p,
                             OneContactSolution(c.r, c.u, force, velocity),
                             scales,
                             &statuses));
        EXPECT_EQ(statuses[0], c.expected)
            << "r " << c.r.transpose() << ", u " << c.u.transpose()
            << ", force unit " << force << ", velocity unit " << velocity;
      }
    }
  }
}

// Two contacts, one with a reaction far above the other's: a reaction below
// tol ||r|| is take-off; a velocity floor raises the velocity threshold.
TEST(ContactResultsTest, MarginsFollowTheScales) {
  GlobalProblem p = ThreeContacts();
  Solution x;
  x.v = Eigen::VectorXd::Zero(3);
  p.w.setZero();
  x.r = Eigen::VectorXd{{1.0, 0.0, 0.0, 1e-10, 0.0, 0.0, 1e-6, 0.0, 0.0}};
  std::vector<ContactStatus> statuses;
  ASSERT_TRUE(ClassifySolution(p, x, ContactStatusScales(), &statuses));
  EXPECT_EQ(statuses[0], ContactStatus::kStick);
  EXPECT_EQ(statuses[1], ContactStatus::kTakeOff);
  EXPECT_EQ(statuses[2], ContactStatus::kStick);
  // A tangential velocity of 1e-20 at rest: slip against no floor, stick
  // against a floor of 1e-11 (threshold 1e-19).
  p.w[1] = 1e-20;
  ASSERT_TRUE(ClassifySolution(p, x, ContactStatusScales(), &statuses));
  EXPECT_EQ(statuses[0], ContactStatus::kSlip);
  ContactStatusScales with_floor;
  with_floor.velocity_floor = 1e-11;
  ASSERT_TRUE(ClassifySolution(p, x, with_floor, &statuses));
  EXPECT_EQ(statuses[0], ContactStatus::kStick);
}

TEST(ContactResultsTest, WrongSizesAreRefused) {
  const GlobalProblem p = ThreeContacts();
  Solution x;
  x.v = Eigen::VectorXd::Zero(3);
  x.r = Eigen::VectorXd::Zero(6);
  std::vector<ContactResult> results(1);
  EXPECT_FALSE(ContactResults(p, x, &results));
  EXPECT_EQ(results.size(), 1u);
  x.r = Eigen::VectorXd::Zero(9);
  x.v = Eigen::VectorXd::Zero(2);
  EXPECT_FALSE(ContactResults(p, x, &results));
}

// Two blocks on the plane, one pushed sideways harder than friction holds
// (slides), one gently (sticks). The results of the solver's answer classify
// them so, agree with the last iteration record, and satisfy r ⟂ û.
TEST(ContactResultsTest, AgreesWithTheSolverCounts) {
  GlobalProblem p;
  p.M = Sparse(Eigen::MatrixXd::Identity(6, 6));
  Eigen::Matrix3d frame;  // columns (N, T1, T2) = (e_z, e_x, e_y)
  frame << 0, 1, 0,       //
      0, 0, 1,            //
      1, 0, 0;
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(6, 6);
  H.topLeftCorner(3, 3) = frame;
  H.bottomRightCorner(3, 3) = frame;
  p.H = Sparse(H);
  p.f = Eigen::VectorXd{{2.0, 0.0, -1.0, 0.1, 0.0, -1.0}};
  p.w = Eigen::VectorXd::Zero(6);
  p.mu = Eigen::VectorXd::Constant(2, 0.5);
  SolverOptions options;
  options.tolerance = 1e-12;
  Solver solver(options);
  Solution x;
  const SolverSummary summary = solver.Solve(p, nullptr, &x);
  ASSERT_TRUE(summary.IsConverged()) << summary.message;
  std::vector<ContactResult> results;
  ASSERT_TRUE(ContactResults(p, x, &results));
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].status, ContactStatus::kSlip);
  EXPECT_EQ(results[1].status, ContactStatus::kStick);
  for (const ContactResult& c : results) {
    EXPECT_LE(std::abs(c.r.dot(c.u_hat)),
              1e-9 * c.r.norm() * (1.0 + c.u_hat.norm()));
  }
  if (!summary.history.empty()) {
    EXPECT_EQ(summary.history.back().slip, 1);
    EXPECT_EQ(summary.history.back().stick, 1);
  }
}

}  // namespace
}  // namespace fcsn
