// Tests of SolverOptions::cold_start (newton/cold_start.h): the starting
// iterate of a solve without a guess. Free flight starts at v = M^-1 f, r = 0;
// bonded closes exactly the contacts at rest (u_a round-off, r_a = 0) with a
// tiny normal reaction; approaching closes the contacts the free flight drives
// together; auto is bonded when the whole w is round-off, else closes both,
// at the free flight when it slides none of the approaching contacts; a
// guess always wins, unless it is all zero (then it is no guess); every shared
// problem converges from every start by the criterion of formulations.md §9.1
// (the masonry gravity step is in tests/examples/masonry_cold_start_test.cc).
#include "newton/cold_start.h"

#include <gtest/gtest.h>

#include <Eigen/SparseCholesky>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "fcsn/error_measures.h"
#include "fcsn/options.h"
#include "fcsn/solver.h"
#include "shared_problem.h"
#include "test_problems.h"
#include "test_util.h"

namespace fcsn {
namespace {

// M^-1 f by an independent sparse Cholesky.
Eigen::VectorXd FreeVelocity(const GlobalProblem& p) {
  Eigen::SimplicialLLT<SparseMatrix> llt(p.M);
  EXPECT_EQ(llt.info(), Eigen::Success);
  return llt.solve(p.f);
}

// The iterate a pure Newton solve starts from: with no iteration allowed the
// solver returns its starting point.
Solution StartingIterate(const GlobalProblem& p,
                         ColdStart cold_start,
                         const Solution* guess = nullptr) {
  SolverOptions options;
  options.solver = SolverType::kNewton;
  options.cold_start = cold_start;
  options.max_iterations = 0;
  Solution x;
  Solver(options).Solve(p, guess, &x);
  return x;
}

// A lattice at rest on a flat floor (w = 0) whose w_N then receives
// alternating round-off of 1e-20: the contacts sit on the kink s_N = 0 at
// v = 0, on either side of it by the sign of the noise.
GlobalProblem LatticeWithRoundOffGaps() {
  GlobalProblem p = testing::MakeLatticeOnFloor(6, 5, 2, 0.3, 0.5);
  for (int a = 0; a < p.nc(); ++a) p.w[3 * a] = (a % 2 == 0 ? 1e-20 : -1e-20);
  return p;
}

// The lattice on an uneven floor: w_N = 1e-2 sin(1.3 i + 0.7 j), zero (to
// round-off) only at the contact (0, 0).
GlobalProblem GappedLattice() {
  return testing::MakeLatticeOnFloor(6, 5, 2, 0.3, 0.5, /*gap=*/1e-2);
}

// Contacts started closed: r_N > 0 (and r_T = 0 everywhere).
int ClosedAtStart(const Solution& x) {
  int closed = 0;
  for (int a = 0; 3 * a < x.r.size(); ++a) {
    EXPECT_EQ(x.r.segment<2>(3 * a + 1).norm(), 0.0);
    closed += x.r[3 * a] > 0.0;
  }
  return closed;
}

TEST(ColdStartTest, NamesRoundTrip) {
  for (ColdStart c : kAllColdStarts) {
    EXPECT_EQ(ColdStartFromString(ToString(c)), c);
  }
  EXPECT_STREQ(ToString(ColdStart::kZero), "zero");
  EXPECT_STREQ(ToString(ColdStart::kFreeFlight), "free-flight");
  EXPECT_STREQ(ToString(ColdStart::kBonded), "bonded");
  EXPECT_STREQ(ToString(ColdStart::kAuto), "auto");
  EXPECT_STREQ(ToString(ColdStart::kApproaching), "approaching");
  EXPECT_FALSE(ColdStartFromString("free_flight").has_value());
  EXPECT_EQ(SolverOptions().cold_start, ColdStart::kAuto);
}

TEST(ColdStartTest, AtRestOnlyWhenWIsRoundOff) {
  const Eigen::VectorXd free_motion = Eigen::VectorXd::Constant(6, -1e-3);
  Eigen::VectorXd w = Eigen::VectorXd::Zero(6);
  EXPECT_TRUE(internal::AtRest(w, free_motion + w));
  w[0] = 1e-20;
  EXPECT_TRUE(internal::AtRest(w, free_motion + w));
  w[0] = 1e-6;  // a real gap: 1e-3 of the free motion
  EXPECT_FALSE(internal::AtRest(w, free_motion + w));
  EXPECT_FALSE(internal::AtRest(Eigen::VectorXd(), Eigen::VectorXd()));
}

TEST(ColdStartTest, FreeFlightStartsAtMInverseF) {
  const GlobalProblem p = LatticeWithRoundOffGaps();
  const Solution zero = StartingIterate(p, ColdStart::kZero);
  EXPECT_EQ(zero.v.norm(), 0.0);
  EXPECT_EQ(zero.r.norm(), 0.0);
  const Solution x = StartingIterate(p, ColdStart::kFreeFlight);
  EXPECT_LT(testing::RelativeDistance(x.v, FreeVelocity(p)), 1e-12);
  EXPECT_EQ(x.r.norm(), 0.0);
}

TEST(ColdStartTest, BondedClosesExactlyTheRestingContacts) {
  const GlobalProblem p = LatticeWithRoundOffGaps();
  for (ColdStart c : {ColdStart::kBonded, ColdStart::kAuto}) {
    SCOPED_TRACE(ToString(c));
    const Solution x = StartingIterate(p, c);
    EXPECT_EQ(x.v.norm(), 0.0);
    EXPECT_EQ(ClosedAtStart(x), p.nc());
    // Tiny: far below the reactions that carry the lattice's weight.
    const Solution solved = [&] {
      SolverOptions options;
      options.solver = SolverType::kNewton;
      Solution y;
      Solver(options).Solve(p, nullptr, &y);
      return y;
    }();
    EXPECT_LT(x.r.lpNorm<Eigen::Infinity>(),
              1e-4 * solved.r.lpNorm<Eigen::Infinity>());
  }
  // Real gaps: bonded closes the one contact at w = 0.
  const GlobalProblem gapped = GappedLattice();
  EXPECT_EQ(ClosedAtStart(StartingIterate(gapped, ColdStart::kBonded)), 1);
}

// The contacts the free flight drives together, (q_free)_N < 0 beyond
// round-off, by an independent M^-1 f.
std::vector<bool> Approaching(const GlobalProblem& p) {
  const Eigen::VectorXd q = p.H.transpose() * FreeVelocity(p) + p.w;
  const double free_motion = (q - p.w).lpNorm<Eigen::Infinity>();
  std::vector<bool> approaching(p.nc());
  for (int a = 0; a < p.nc(); ++a)
    approaching[a] = q[3 * a] < -kColdStartRoundOff * free_motion;
  return approaching;
}

// The lattice on the uneven floor pushed sideways and lifted at every third
// column: some contacts approach, some separate, and every one has a gap
// or slides at v = 0 (w_T != 0).
GlobalProblem MixedLattice() {
  GlobalProblem p = GappedLattice();
  for (int a = 0; a < p.nc(); ++a) {
    p.w[3 * a + 1] = 0.02 * std::cos(0.9 * a);
    if (a % 3 == 0) p.w[3 * a] -= 0.5;  // approaching faster than gravity
    if (a % 3 == 1) p.w[3 * a] += 0.5;  // separating
  }
  return p;
}

TEST(ColdStartTest, ApproachingClosesExactlyTheContactsTheFreeFlightCloses) {
  const GlobalProblem p = MixedLattice();
  const std::vector<bool> approaching = Approaching(p);
  const int expected = static_cast<int>(
      std::count(approaching.begin(), approaching.end(), true));
  ASSERT_GT(expected, 0);
  ASSERT_LT(expected, p.nc());
  const Eigen::VectorXd q_free = p.H.transpose() * FreeVelocity(p) + p.w;
  ASSERT_FALSE(internal::AtRest(p.w, q_free));
  // The free flight slides none of them: auto starts there (no contact is
  // resting at u = q_free), approaching at v = 0; the same contacts close.
  ASSERT_TRUE(internal::FreeFlightSticks(p, q_free));
  for (ColdStart c : {ColdStart::kApproaching, ColdStart::kAuto}) {
    SCOPED_TRACE(ToString(c));
    const Solution x = StartingIterate(p, c);
    if (c == ColdStart::kAuto) {
      EXPECT_LT(testing::RelativeDistance(x.v, FreeVelocity(p)), 1e-12);
    } else {
      EXPECT_EQ(x.v.norm(), 0.0);
    }
    EXPECT_EQ(ClosedAtStart(x), expected);
    for (int a = 0; a < p.nc(); ++a) {
      EXPECT_EQ(x.r[3 * a] > 0.0, approaching[a]) << a;
    }
  }
}

// MixedLattice with two resting contacts (w_a = 0) that the free flight
// separates: each is pushed off the floor through its own normal, f +=
// c H e_N,a, with c twice what cancels its (q_free)_N under gravity.
GlobalProblem MixedLatticeWithSeparatingRestingContacts() {
  GlobalProblem p = MixedLattice();
  const Eigen::SimplicialLLT<SparseMatrix> llt(p.M);
  for (int a : {2, 5}) {
    p.w.segment<3>(3 * a).setZero();
    const Eigen::VectorXd h_n = p.H.col(3 * a);
    const double q_n = h_n.dot(llt.solve(p.f));
    const double w_nn = h_n.dot(llt.solve(h_n));
    if (q_n <= 0.0) p.f += (-2.0 * q_n / w_nn + 1.0) * h_n;
  }
  return p;
}

// Contacts whose u_a = w_a is round-off at v = 0 (exactly zero here).
std::vector<bool> Resting(const GlobalProblem& p) {
  std::vector<bool> resting(p.nc());
  for (int a = 0; a < p.nc(); ++a)
    resting[a] = p.w.segment<3>(3 * a).squaredNorm() == 0.0;
  return resting;
}

TEST(ColdStartTest, AutoOffRestClosesTheRestingAndTheApproachingContacts) {
  // Off rest, auto closes both sets; approaching and bonded each close only
  // their own. The premise, checked: a resting contact that separates and
  // an approaching contact that is not resting exist.
  const GlobalProblem p = MixedLatticeWithSeparatingRestingContacts();
  const std::vector<bool> approaching = Approaching(p);
  const std::vector<bool> resting = Resting(p);
  ASSERT_FALSE(internal::AtRest(p.w, p.H.transpose() * FreeVelocity(p) + p.w));
  int resting_only = 0, approaching_only = 0;
  for (int a = 0; a < p.nc(); ++a) {
    resting_only += resting[a] && !approaching[a];
    approaching_only += approaching[a] && !resting[a];
  }
  ASSERT_EQ(resting_only, 2);
  ASSERT_GT(approaching_only, 0);
  // and the free flight slides an approaching contact (auto stays at v = 0).
  ASSERT_FALSE(
      internal::FreeFlightSticks(p, p.H.transpose() * FreeVelocity(p) + p.w));
  const Solution automatic = StartingIterate(p, ColdStart::kAuto);
  const Solution only_approaching = StartingIterate(p, ColdStart::kApproaching);
  const Solution bonded = StartingIterate(p, ColdStart::kBonded);
  EXPECT_EQ(automatic.v.norm(), 0.0);
  for (int a = 0; a < p.nc(); ++a) {
    SCOPED_TRACE(a);
    EXPECT_EQ(automatic.r[3 * a] > 0.0, resting[a] || approaching[a]);
    EXPECT_EQ(only_approaching.r[3 * a] > 0.0, approaching[a]);
    EXPECT_EQ(bonded.r[3 * a] > 0.0, resting[a]);
  }
  // An approaching contact keeps its approaching reaction under auto.
  for (int a = 0; a < p.nc(); ++a) {
    if (approaching[a]) {
      EXPECT_EQ(automatic.r[3 * a], only_approaching.r[3 * a]) << a;
    }
  }
  SolverOptions options;
  options.solver = SolverType::kNewton;
  options.tolerance = 1e-10;
  Solution x;
  const SolverSummary s = Solver(options).Solve(p, nullptr, &x);
  ASSERT_EQ(s.status, SolverStatus::kConverged) << s.message;
  EXPECT_TRUE(testing::CriterionMeasures(p, x).Converged(options.tolerance));
}

TEST(ColdStartTest, ApproachingContactsStickThroughTheFirstStep) {
  // Started on the closed-stick piece (F_a = Rho u_a, linear), a contact
  // ends Newton's first full step with u_a = 0: bonded, although it had a gap
  // or slid at v = 0. A contact started on another piece would not.
  const GlobalProblem p = MixedLattice();
  const std::vector<bool> approaching = Approaching(p);
  SolverOptions options;
  options.solver = SolverType::kNewton;
  options.cold_start = ColdStart::kApproaching;
  options.max_iterations = 1;
  Solution x;
  Solver(options).Solve(p, nullptr, &x);
  const Eigen::VectorXd u = p.H.transpose() * x.v + p.w;
  const double scale = p.w.lpNorm<Eigen::Infinity>();
  int bonded = 0;
  for (int a = 0; a < p.nc(); ++a) {
    if (!approaching[a]) continue;
    EXPECT_LE(u.segment<3>(3 * a).lpNorm<Eigen::Infinity>(), 1e-12 * scale)
        << a;
    ++bonded;
  }
  EXPECT_GT(bonded, 0);
}

TEST(ColdStartTest, ApproachingStartsOnTheStickPieceAndConverges) {
  // Newton's first iterate puts every approaching contact on the closed-
  // stick piece: the statuses of the start's history say so, and the solve
  // converges by the criterion.
  const GlobalProblem p = MixedLattice();
  const std::vector<bool> approaching = Approaching(p);
  const int expected = static_cast<int>(
      std::count(approaching.begin(), approaching.end(), true));
  for (SolverType solver : {SolverType::kNewton, SolverType::kHybrid}) {
    SCOPED_TRACE(ToString(solver));
    SolverOptions options;
    options.solver = solver;
    options.hybrid.warm_sweeps = 0;
    options.tolerance = 1e-10;
    options.cold_start = ColdStart::kApproaching;
    Solution x;
    const SolverSummary s = Solver(options).Solve(p, nullptr, &x);
    ASSERT_EQ(s.status, SolverStatus::kConverged) << s.message;
    ASSERT_FALSE(s.history.empty());
    EXPECT_EQ(s.history.front().stick, expected);
    EXPECT_EQ(s.history.front().take_off, p.nc() - expected);
    EXPECT_TRUE(testing::CriterionMeasures(p, x).Converged(options.tolerance));
  }
}

TEST(ColdStartTest, GuessWinsOverEveryColdStart) {
  const GlobalProblem p = LatticeWithRoundOffGaps();
  Solution guess;
  guess.v = Eigen::VectorXd::Constant(p.n(), 0.25);
  guess.r = Eigen::VectorXd::Zero(p.m());
  for (ColdStart c : kAllColdStarts) {
    SCOPED_TRACE(ToString(c));
    const Solution x = StartingIterate(p, c, &guess);
    EXPECT_EQ(x.v, guess.v);
    EXPECT_EQ(x.r, guess.r);
  }
}

// A guess of exactly zero (a time-stepping code passing the previous step's
// solution while everything rested) carries no information: the cold start
// applies as without a guess, for pure Newton and for the hybrid (whose
// warm-up then sweeps warm_sweeps, not warm_sweeps_with_guess). A guess with
// one entry off zero, or of the wrong sizes, stays a guess.
TEST(ColdStartTest, AnAllZeroGuessIsNoGuess) {
  const GlobalProblem p = LatticeWithRoundOffGaps();
  Solution zero_guess;
  zero_guess.v = Eigen::VectorXd::Zero(p.n());
  zero_guess.r = Eigen::VectorXd::Zero(p.m());
  for (ColdStart c : kAllColdStarts) {
    SCOPED_TRACE(ToString(c));
    const Solution none = StartingIterate(p, c);
    const Solution x = StartingIterate(p, c, &zero_guess);
    EXPECT_EQ(x.v, none.v);
    EXPECT_EQ(x.r, none.r);
  }
  EXPECT_EQ(ClosedAtStart(StartingIterate(p, ColdStart::kAuto, &zero_guess)),
            p.nc());
  Solution nearly_zero = zero_guess;
  nearly_zero.v[0] = 1e-300;
  EXPECT_EQ(ClosedAtStart(StartingIterate(p, ColdStart::kAuto, &nearly_zero)),
            0);
  for (SolverType solver : {SolverType::kNewton, SolverType::kHybrid}) {
    SCOPED_TRACE(ToString(solver));
    SolverOptions options;
    options.solver = solver;
    options.tolerance = 1e-10;
    options.hybrid.warm_sweeps_with_guess = 0;
    Solution x;
    const SolverSummary none = Solver(options).Solve(p, nullptr, &x);
    const SolverSummary zero = Solver(options).Solve(p, &zero_guess, &x);
    ASSERT_EQ(zero.status, SolverStatus::kConverged) << zero.message;
    EXPECT_EQ(zero.iterations, none.iterations);
    EXPECT_EQ(zero.nsgs_sweeps, none.nsgs_sweeps);
  }
  Solution wrong_sizes;
  wrong_sizes.v = Eigen::VectorXd::Zero(p.n() + 1);
  wrong_sizes.r = Eigen::VectorXd::Zero(p.m());
  Solution x;
  EXPECT_EQ(Solver(SolverOptions()).Solve(p, &wrong_sizes, &x).status,
            SolverStatus::kInvalidInput);
}

// The summary of a solve of p without a guess, by `options` from `start`.
SolverSummary SolveFrom(const GlobalProblem& p,
                        SolverOptions options,
                        ColdStart start) {
  options.cold_start = start;
  Solution x;
  return Solver(options).Solve(p, nullptr, &x);
}

TEST(ColdStartTest, BondedSolvesTheRestingLatticeInTwoSteps) {
  // Every contact sticks at the solution (pull 0.5 mu): the bonded first step
  // is the answer, where the zero start's first step closes half of them.
  const GlobalProblem p = LatticeWithRoundOffGaps();
  SolverOptions options;
  options.solver = SolverType::kNewton;
  options.tolerance = 1e-10;
  const SolverSummary zero = SolveFrom(p, options, ColdStart::kZero);
  const SolverSummary bonded = SolveFrom(p, options, ColdStart::kAuto);
  ASSERT_EQ(zero.status, SolverStatus::kConverged) << zero.message;
  ASSERT_EQ(bonded.status, SolverStatus::kConverged) << bonded.message;
  // The bonded first step is the answer up to round-off of u (about 0.1 of
  // the criterion's floor); a second full step on the same states polishes
  // it.
  EXPECT_LE(bonded.iterations, 2) << bonded.FullReport();
  EXPECT_LT(bonded.iterations, zero.iterations);
}

TEST(ColdStartTest, TheHybridStartsBondedOnlyWithoutWarmUpSweeps) {
  // Without warm-up sweeps (none asked for here; W over its budget on FEM
  // walls) the hybrid's Newton starts bonded as pure Newton does; after
  // sweeps it starts from NSGS's iterate, so auto and zero solve alike.
  const GlobalProblem p = LatticeWithRoundOffGaps();
  SolverOptions options;
  options.solver = SolverType::kHybrid;
  options.tolerance = 1e-10;
  const SolverSummary swept = SolveFrom(p, options, ColdStart::kAuto);
  const SolverSummary swept_zero = SolveFrom(p, options, ColdStart::kZero);
  ASSERT_EQ(swept.status, SolverStatus::kConverged) << swept.message;
  EXPECT_EQ(swept.iterations, swept_zero.iterations);
  EXPECT_EQ(swept.nsgs_sweeps, swept_zero.nsgs_sweeps);
  options.hybrid.warm_sweeps = 0;
  const SolverSummary zero = SolveFrom(p, options, ColdStart::kZero);
  const SolverSummary bonded = SolveFrom(p, options, ColdStart::kAuto);
  ASSERT_EQ(bonded.status, SolverStatus::kConverged) << bonded.message;
  EXPECT_EQ(bonded.nsgs_sweeps, 0);
  EXPECT_LE(bonded.iterations, 2) << bonded.FullReport();
  EXPECT_LT(bonded.iterations, zero.iterations);
}

TEST(ColdStartTest, SharedProblemsConvergeFromEveryColdStart) {
  for (const char* file : testing::kSharedProblemFiles) {
    SCOPED_TRACE(file);
    const GlobalProblem p = testing::ReadSharedProblem(file);
    ASSERT_GT(p.n(), 0);
    for (ColdStart c : kAllColdStarts) {
      for (SolverType solver : {SolverType::kNewton, SolverType::kHybrid}) {
        SCOPED_TRACE(std::string(ToString(c)) + " " + ToString(solver));
        SolverOptions options;
        options.solver = solver;
        options.cold_start = c;
        Solution x;
        const SolverSummary s = Solver(options).Solve(p, nullptr, &x);
        EXPECT_EQ(s.status, SolverStatus::kConverged) << s.message;
        const ErrorMeasures e = testing::CriterionMeasures(p, x);
        EXPECT_TRUE(e.Converged(options.tolerance)) << e.Worst();
      }
    }
  }
}

}  // namespace
}  // namespace fcsn
