// The warm boost fitted to the guess's pieces (newton/warm_boost.h): the
// first of B, B/q, ..., 1 under which no contact that the rule's rho has on
// its stick piece or off its disk is on its slip piece. Contacts of one unit
// normal impulse and mu = 1/2 (disk radius 1/2 at u_N = 0), rho = 1.
#include "newton/warm_boost.h"

#include <gtest/gtest.h>

#include <vector>

namespace fcsn::internal {
namespace {

struct Contacts {
  Eigen::VectorXd u, r, mu, rho;
  explicit Contacts(int nc)
      : u(Eigen::VectorXd::Zero(3 * nc)),
        r(Eigen::VectorXd::Zero(3 * nc)),
        mu(Eigen::VectorXd::Constant(nc, 0.5)),
        rho(Eigen::VectorXd::Ones(3 * nc)) {}
  void Set(int a, Eigen::Vector3d u_a, Eigen::Vector3d r_a) {
    u.segment<3>(3 * a) = u_a;
    r.segment<3>(3 * a) = r_a;
  }
  double Fit(Formulation formulation, double boost, double reduction) const {
    return WarmBoostKeepingPieces(formulation, u, r, mu, rho, boost, reduction);
  }
};

TEST(WarmBoostTest, ReducedUntilAStickingContactStaysOnItsStickPiece) {
  // r_T = 0.2 inside the disk; u_T = 0.01: s_T = 0.2 - beta 0.01 stays in
  // the disk for beta = 10 (0.1), leaves it for beta = 100 (0.8).
  for (Formulation f : {Formulation::kAlartCurnier, Formulation::kJeanMoreau}) {
    Contacts c(2);
    c.Set(0, {0.0, 0.01, 0.0}, {1.0, 0.2, 0.0});
    c.Set(1, {0.0, -0.1, 0.0}, {1.0, 0.45, 0.0});  // slips under any beta
    EXPECT_EQ(c.Fit(f, 100.0, 10.0), 10.0);
    c.u(1) = 0.0;  // a sticking contact at rest: the boost is kept
    EXPECT_EQ(c.Fit(f, 100.0, 10.0), 100.0);
  }
}

TEST(WarmBoostTest, ASlipThatTheBoostPutsOnItsStickPieceDoesNotCount) {
  // r_T = 0.6 outside the disk (a guess need not be feasible), u_T = 0.002:
  // slip under rho (0.598), stick under 100 rho (0.4).
  Contacts c(1);
  c.Set(0, {0.0, 0.002, 0.0}, {1.0, 0.6, 0.0});
  EXPECT_EQ(c.Fit(Formulation::kAlartCurnier, 100.0, 10.0), 100.0);
}

TEST(WarmBoostTest, AContactOffItsDiskUnderTheRulesRhoCounts) {
  // Alart-Curnier's radius mu (r_N - beta u_N)_+: r_N = -0.1, u_N = -0.005
  // leaves the disk empty for beta <= 10 (-0.05) and not under 100 (0.4),
  // where s_T = -5 is outside it.
  Contacts c(1);
  c.Set(0, {-0.005, 0.05, 0.0}, {-0.1, 0.0, 0.0});
  EXPECT_EQ(c.Fit(Formulation::kAlartCurnier, 100.0, 10.0), 10.0);
}

TEST(WarmBoostTest, TheReductionStopsAtOne) {
  // u_T = 0.5: s_T = 0.2 - 0.5 beta is in the disk only for beta <= 1.4.
  Contacts c(1);
  c.Set(0, {0.0, 0.5, 0.0}, {1.0, 0.2, 0.0});
  EXPECT_EQ(c.Fit(Formulation::kAlartCurnier, 50.0, 10.0), 1.0);
  EXPECT_EQ(c.Fit(Formulation::kAlartCurnier, 1.0, 10.0), 1.0);
  // Each T row with its own rho: a small rho_T1 keeps the contact inside.
  c.rho(1) = 0.01;
  EXPECT_EQ(c.Fit(Formulation::kAlartCurnier, 50.0, 10.0), 50.0);
}

// RhoOptions::warm_keeps_settled_slips: the contacts a run ended at the
// rule's rho (the tail rule's settled slips) start the next run at it.
TEST(WarmBoostTest, ContactsThatEndedAtTheRulesRhoStartAtItAgain) {
  const Eigen::VectorXd rho =
      (Eigen::VectorXd(9) << 1, 2, 2, 3, 4, 4, 5, 6, 6).finished();
  Eigen::VectorXd ended = 3000.0 * rho;
  ended.segment<3>(3) = rho.segment<3>(3);  // contact 1: a settled slip
  const std::vector<bool> at_rule = ContactsAtTheRulesRho(ended, rho, 3000.0);
  EXPECT_EQ(at_rule, (std::vector<bool>{false, true, false}));
  Eigen::VectorXd start = 100.0 * rho;
  EXPECT_EQ(StartAtTheRulesRho(at_rule, rho, &start), 1);
  EXPECT_EQ(start.segment<3>(0), 100.0 * rho.segment<3>(0));
  EXPECT_EQ(start.segment<3>(3), rho.segment<3>(3));
  EXPECT_EQ(start.segment<3>(6), 100.0 * rho.segment<3>(6));
}

TEST(WarmBoostTest, ARunThatEndedUnboostedKeepsNoContact) {
  const Eigen::VectorXd rho = Eigen::VectorXd::Ones(6);
  const std::vector<bool> at_rule = ContactsAtTheRulesRho(rho, rho, 1.0);
  EXPECT_EQ(at_rule, (std::vector<bool>{false, false}));
  Eigen::VectorXd start = 100.0 * rho;
  EXPECT_EQ(StartAtTheRulesRho(at_rule, rho, &start), 0);
  EXPECT_EQ(start, 100.0 * rho);
}

TEST(WarmBoostTest, EndedFactorsAreNewtonsRhoOverTheRules) {
  const Eigen::VectorXd rho =
      (Eigen::VectorXd(6) << 1, 2, 2, 3, 4, 4).finished();
  Eigen::VectorXd ended = 3000.0 * rho;
  ended.segment<3>(3) = rho.segment<3>(3);
  EXPECT_EQ(EndedFactors(ended, rho), Eigen::Vector2d(3000.0, 1.0));
  // A contact whose rho is 0 (no boost to keep) has factor 1, not NaN.
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(3);
  EXPECT_EQ(EndedFactors(zero, zero), Eigen::VectorXd::Ones(1));
}

// RhoOptions::warm_first_step_keeps_slips: only contacts on their slip piece
// at the guess under both the start's rho and their larger ended one.
TEST(WarmBoostTest, TheFirstStepKeepsTheEndedRhoOfSlipsOnly) {
  for (Formulation f : {Formulation::kAlartCurnier, Formulation::kJeanMoreau}) {
    Contacts c(5);
    // 0: r_T at the disk's edge against u_T: s_T = 0.5 + beta 0.001 slips
    //    under 100 and 3000.
    c.Set(0, {0.0, -0.001, 0.0}, {1.0, 0.5, 0.0});
    // 1: the same contact, a settled slip: ended at the rule's rho.
    c.Set(1, {0.0, -0.001, 0.0}, {1.0, 0.5, 0.0});
    // 2: sticking at rest under any beta.
    c.Set(2, {0.0, 0.0, 0.0}, {1.0, 0.2, 0.0});
    // 3: s_T = 0.6 - beta 0.0003 slips under 100 (0.57), sticks under 3000
    //    (-0.3).
    c.Set(3, {0.0, 0.0003, 0.0}, {1.0, 0.6, 0.0});
    // 4: the first contact again, ended under a smaller rho than its start.
    c.Set(4, {0.0, -0.001, 0.0}, {1.0, 0.5, 0.0});
    const Eigen::VectorXd ended =
        (Eigen::VectorXd(5) << 3000.0, 1.0, 3000.0, 3000.0, 10.0).finished();
    Eigen::VectorXd newton_rho = 100.0 * c.rho;
    newton_rho.segment<3>(3) = c.rho.segment<3>(3);
    const Eigen::VectorXd start = newton_rho;
    const std::vector<int> kept = FirstStepAtTheEndedFactors(
        f, c.u, c.r, c.mu, c.rho, ended, &newton_rho);
    EXPECT_EQ(kept, std::vector<int>{0});
    EXPECT_EQ(newton_rho.segment<3>(0), 3000.0 * c.rho.segment<3>(0));
    EXPECT_EQ(newton_rho.tail(12), start.tail(12));
  }
}

}  // namespace
}  // namespace fcsn::internal
