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
  x.v = Eigen::VectorXd{{0.0, 3.0, 4.0}};
  x.r = Eigen::VectorXd{{2.0, 0.1, 0.0, 2.0, 0.6, 0.8, 0.0, 0.0, 0.0}};
  x.u = Eigen::VectorXd::Constant(9, 99.0);  // not read: u comes from v
  std::vector<ContactResult> results;
  ASSERT_TRUE(ContactResults(p, x, &results));
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].status, ContactStatus::kStick);
  EXPECT_EQ(results[1].status, ContactStatus::kSlip);
  EXPECT_EQ(results[2].status, ContactStatus::kTakeOff);
  EXPECT_EQ(results[1].r, Eigen::Vector3d(2.0, 0.6, 0.8));
  // u_0 = (0, 3, 4): ||u_T|| = 5, û_N = 0 + 0.5 * 5.
  EXPECT_EQ(results[0].u, Eigen::Vector3d(0.0, 3.0, 4.0));
  EXPECT_EQ(results[0].u_hat, Eigen::Vector3d(2.5, 3.0, 4.0));
  // u_1 = (0, 4, 4): û_N = 0.5 * sqrt(32).
  EXPECT_EQ(results[1].u, Eigen::Vector3d(0.0, 4.0, 4.0));
  EXPECT_DOUBLE_EQ(results[1].u_hat[0], 0.5 * std::sqrt(32.0));
  // u_2 = (2, 6, 8): ||u_T|| = 10, û_N = 2 + 0.25 * 10.
  EXPECT_EQ(results[2].u_hat, Eigen::Vector3d(4.5, 6.0, 8.0));
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
