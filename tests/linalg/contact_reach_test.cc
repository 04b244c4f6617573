// Tests of the split solves and contact reaches of MFactorization
// (linalg/contact_reach.h): on the simplicial LDL^T and the supernodal
// Cholesky alike, BackwardSolve(ForwardSolve(b)) is M^-1 b, and for every
// batch of contacts the reach rows give H_a^T M^-1 b = Y_a^T D^-1 y and
// W_aa = Y_a^T D^-1 Y_a as the dense inverse of M does, whether a contact's
// reach is computed alone or within a batch; misuse is refused.
#include "linalg/contact_reach.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "fcsn/problem.h"
#include "linalg/m_factorization.h"
#include "test_problems.h"

namespace fcsn::internal {
namespace {

// Two factorizations of well-conditioned test matrices (dense LLT against
// sparse): a few hundred ulps of the largest entry.
constexpr double kAgreement = 1e-11;

struct Case {
  GlobalProblem problem;
  Eigen::MatrixXd inverse;  // dense M^-1
};

Case MakeCase() {
  Case c{testing::MakeLatticeOnFloor(7, 5, 3, 0.3, 1.5), {}};
  const Eigen::MatrixXd m = Eigen::MatrixXd(c.problem.M);
  c.inverse = m.llt().solve(Eigen::MatrixXd::Identity(m.rows(), m.cols()));
  return c;
}

// H_a^T M^-1 b (3) from y = L^-1 P b and the reach of a.
Eigen::Vector3d LocalVelocity(const ContactReach& reach,
                              const Eigen::VectorXd& y) {
  Eigen::Vector3d u = Eigen::Vector3d::Zero();
  for (int k = 0; k < reach.size(); ++k) {
    for (int j = 0; j < 3; ++j) {
      u[j] += reach.rows[3 * k + j] * y[reach.pivots[k]] * reach.inverse_d[k];
    }
  }
  return u;
}

Eigen::Matrix3d Block(const ContactReach& reach) {
  Eigen::Matrix3d w = Eigen::Matrix3d::Zero();
  for (int k = 0; k < reach.size(); ++k) {
    const Eigen::Map<const Eigen::Vector3d> row(&reach.rows[3 * k]);
    w += row * row.transpose() * reach.inverse_d[k];
  }
  return w;
}

void ExpectReachesMatchTheInverse(int supernodal_min_dofs,
                                  MFactorizationType expected_type) {
  const Case c = MakeCase();
  const GlobalProblem& p = c.problem;
  MFactorization factors(supernodal_min_dofs);
  std::string error;
  ASSERT_TRUE(factors.Factorize(p.M, &error)) << error;
  ASSERT_EQ(factors.type(), expected_type);
  const Eigen::VectorXd b = p.f + p.H * Eigen::VectorXd::Ones(p.m());
  Eigen::VectorXd y, x, work;
  ASSERT_TRUE(factors.ForwardSolve(b, &y));
  ASSERT_TRUE(factors.BackwardSolve(y, &x, &work));
  const Eigen::VectorXd expected_x = c.inverse * b;
  EXPECT_LE((x - expected_x).norm(), kAgreement * expected_x.norm());
  const Eigen::MatrixXd h = Eigen::MatrixXd(p.H);
  const double scale = (h.transpose() * expected_x).norm();
  std::vector<ContactReach> batch_reaches, alone;
  for (int first = 0; first < p.nc(); first += kReachBatch) {
    std::vector<int> contacts;
    for (int a = first; a < std::min(p.nc(), first + kReachBatch); ++a) {
      contacts.push_back(p.nc() - 1 - a);  // any order
    }
    const int count = static_cast<int>(contacts.size());
    ASSERT_TRUE(factors.Reach(p.H, contacts.data(), count, &batch_reaches));
    ASSERT_EQ(static_cast<int>(batch_reaches.size()), count);
    for (int k = 0; k < count; ++k) {
      const int a = contacts[k];
      const Eigen::MatrixXd ha = h.middleCols(3 * a, 3);
      const Eigen::Vector3d u = ha.transpose() * expected_x;
      EXPECT_LE((LocalVelocity(batch_reaches[k], y) - u).norm(),
                kAgreement * scale)
          << "contact " << a;
      const Eigen::Matrix3d w = ha.transpose() * c.inverse * ha;
      EXPECT_LE((Block(batch_reaches[k]) - w).norm(), kAgreement * w.norm())
          << "contact " << a;
      ASSERT_TRUE(factors.Reach(p.H, &a, 1, &alone));
      EXPECT_LE((LocalVelocity(alone[0], y) - u).norm(), kAgreement * scale)
          << "contact " << a << " alone";
    }
  }
}

TEST(ContactReachTest, SimplicialLdltMatchesTheDenseInverse) {
  ExpectReachesMatchTheInverse(kNestedDissectionMinDofs,
                               MFactorizationType::kSimplicialLdlt);
}

TEST(ContactReachTest, SupernodalCholeskyMatchesTheDenseInverse) {
  ExpectReachesMatchTheInverse(0, MFactorizationType::kSupernodalCholesky);
}

TEST(ContactReachTest, MisuseIsRefused) {
  const Case c = MakeCase();
  const GlobalProblem& p = c.problem;
  std::vector<ContactReach> reaches;
  Eigen::VectorXd y, x, work;
  MFactorization none;
  const int zero = 0;
  EXPECT_FALSE(none.Reach(p.H, &zero, 1, &reaches));
  EXPECT_FALSE(none.ForwardSolve(p.f, &y));
  MFactorization factors(0);
  std::string error;
  ASSERT_TRUE(factors.Factorize(p.M, &error)) << error;
  const int outside = p.nc();
  EXPECT_FALSE(factors.Reach(p.H, &outside, 1, &reaches));
  std::vector<int> too_many(kReachBatch + 1, 0);
  EXPECT_FALSE(factors.Reach(p.H, too_many.data(), kReachBatch + 1, &reaches));
  EXPECT_FALSE(factors.ForwardSolve(Eigen::VectorXd::Zero(p.n() + 1), &y));
  EXPECT_FALSE(
      factors.BackwardSolve(Eigen::VectorXd::Zero(p.n() + 1), &x, &work));
}

}  // namespace
}  // namespace fcsn::internal
