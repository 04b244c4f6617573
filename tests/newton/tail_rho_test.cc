// The tail boost's settled slips (newton/tail_rho.h): a contact on its slip
// piece whose margin ||Rho_T u_T|| exceeds the last step's change of
// s_T = r_T - Rho_T u_T gets the rule's rho back; a slip at the kink (margin
// within the change), a sticking or an open contact keeps the boost; the
// margin and the change are read with each T row's own rho.
#include "newton/tail_rho.h"

#include <gtest/gtest.h>

#include <vector>

namespace fcsn::internal {
namespace {

using P = DiskPiece;

constexpr double kBoost = 3000.0;

// Two contacts' rho: N 2, T 4 (and T2 given separately where it matters).
Eigen::VectorXd Rho(int nc, double rho_t2 = 4.0) {
  Eigen::VectorXd rho(3 * nc);
  for (int a = 0; a < nc; ++a) rho.segment<3>(3 * a) << 2.0, 4.0, rho_t2;
  return rho;
}

TEST(TailRhoTest, ASlipWhoseMarginExceedsTheStepsChangeIsUnboosted) {
  const Eigen::VectorXd rho = Rho(2);
  Eigen::VectorXd u = Eigen::VectorXd::Zero(6), du = u, dr = u;
  u.segment<2>(1) << 1.0, 0.0;  // margin 4
  u.segment<2>(4) << 1.0, 0.0;
  du(1) = 0.5;  // change |0 - 4 * 0.5| = 2 < 4
  du(4) = 0.5;
  dr(4) = -3.0;  // change |-3 - 2| = 5 > 4: at the kink
  Eigen::VectorXd newton_rho = kBoost * rho;
  const std::vector<P> pieces = {P::kSlip, P::kSlip};
  EXPECT_EQ(UnboostSettledSlips(rho, pieces.data(), u, du, dr, &newton_rho), 1);
  EXPECT_EQ(newton_rho.segment<3>(0), rho.segment<3>(0));
  EXPECT_EQ(newton_rho.segment<3>(3), kBoost * rho.segment<3>(3));
}

TEST(TailRhoTest, StickingAndOpenContactsKeepTheBoost) {
  const Eigen::VectorXd rho = Rho(3);
  Eigen::VectorXd u = Eigen::VectorXd::Constant(9, 1.0);  // margins ~5.7
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(9);
  Eigen::VectorXd newton_rho = kBoost * rho;
  const std::vector<P> pieces = {P::kStick, P::kNone, P::kSlip};
  EXPECT_EQ(UnboostSettledSlips(rho, pieces.data(), u, zero, zero, &newton_rho),
            1);
  EXPECT_EQ(newton_rho.head(6), kBoost * rho.head(6));
  EXPECT_EQ(newton_rho.tail(3), rho.tail(3));
}

TEST(TailRhoTest, AStillSlipAtTheKinkKeepsTheBoost) {
  // u_T = 0 on the slip piece (s_T on the disk's rim): no margin, even
  // without a step.
  const Eigen::VectorXd rho = Rho(1);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(3);
  Eigen::VectorXd newton_rho = kBoost * rho;
  const std::vector<P> pieces = {P::kSlip};
  EXPECT_EQ(
      UnboostSettledSlips(rho, pieces.data(), zero, zero, zero, &newton_rho),
      0);
  EXPECT_EQ(newton_rho, kBoost * rho);
}

TEST(TailRhoTest, EachTangentRowUsesItsOwnRho) {
  // T1's rho 4, T2's 1: u_T = (0, 2) has margin 2 (not 8); a change of 3 in
  // r_T2 exceeds it.
  const Eigen::VectorXd rho = Rho(1, /*rho_t2=*/1.0);
  Eigen::VectorXd u = Eigen::VectorXd::Zero(3), du = u, dr = u;
  u(2) = 2.0;
  dr(2) = 3.0;
  Eigen::VectorXd newton_rho = kBoost * rho;
  const std::vector<P> pieces = {P::kSlip};
  EXPECT_EQ(UnboostSettledSlips(rho, pieces.data(), u, du, dr, &newton_rho), 0);
  dr(2) = 1.5;
  EXPECT_EQ(UnboostSettledSlips(rho, pieces.data(), u, du, dr, &newton_rho), 1);
  EXPECT_EQ(newton_rho, rho);
}

}  // namespace
}  // namespace fcsn::internal
