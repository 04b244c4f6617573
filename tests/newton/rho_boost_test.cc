// Tests of the boosts of the rho continuation (RhoOptions, fcsn/options.h)
// that depend on where a solve starts or stands: warm_initial_boost for a
// solve from the caller's guess, and the tail boost (tail_error,
// tail_boost_factor) once the measures of the criterion fall below
// tail_error. Behaviour read from the iteration records' rho_boost.
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <algorithm>
#include <string>

#include "fcsn/solver.h"
#include "shared_problem.h"
#include "test_problems.h"

namespace fcsn {
namespace {

SolverOptions NewtonOnly() {
  SolverOptions options;
  options.solver = SolverType::kNewton;
  options.formulation = Formulation::kAlartCurnier;
  options.tolerance = 1e-10;
  return options;
}

double Worst(const IterationRecord& h) {
  return std::max({h.e_cone, h.e_dual, h.e_comp, h.e_eq});
}

// A solve from the caller's guess starts Newton under warm_initial_boost, one
// without a guess (or with a guess that carries no information, all zero)
// under initial_boost; both converge.
TEST(RhoBoostTest, WarmStartUsesTheWarmBoost) {
  const GlobalProblem problem = testing::ReadSharedProblem("CubeH8.hdf5");
  SolverOptions options = NewtonOnly();
  options.rho.initial_boost = 30.0;
  options.rho.warm_initial_boost = 7.0;
  Solver solver(options);
  Solution cold;
  SolverSummary s = solver.Solve(problem, nullptr, &cold);
  ASSERT_EQ(s.status, SolverStatus::kConverged) << s.FullReport();
  ASSERT_FALSE(s.history.empty());
  EXPECT_EQ(s.history.front().rho_boost, 30.0);

  Solution zero;
  zero.v = Eigen::VectorXd::Zero(problem.n());
  zero.r = Eigen::VectorXd::Zero(problem.m());
  s = solver.Solve(problem, &zero, &zero);
  ASSERT_FALSE(s.history.empty());
  EXPECT_EQ(s.history.front().rho_boost, 30.0) << "an all-zero guess is none";

  Solution guess = cold;  // a perturbed solution is a guess
  guess.r *= 0.9;
  Solution warm;
  s = solver.Solve(problem, &guess, &warm);
  ASSERT_EQ(s.status, SolverStatus::kConverged) << s.FullReport();
  ASSERT_FALSE(s.history.empty());
  EXPECT_EQ(s.history.front().rho_boost, 7.0);
}

// The warm boost is lowered at a guess whose pieces it changes
// (RhoOptions::warm_boost_keeps_pieces, newton/warm_boost.h): the next step of
// a pulled lattice (larger pull, a floor) from the previous step's answer,
// where the new load gives sticking contacts a velocity at the guess. With
// the rule off the solve starts under the warm boost itself. Both converge.
TEST(RhoBoostTest, WarmBoostIsLoweredWhereItChangesTheGuesssPieces) {
  const GlobalProblem before =
      testing::MakeLatticeOnFloor(5, 4, 2, 0.3, 0.6, 0.0);
  const GlobalProblem after =
      testing::MakeLatticeOnFloor(5, 4, 2, 0.3, 0.8, 1e-3);
  SolverOptions options = NewtonOnly();
  Solution guess;
  ASSERT_EQ(Solver(options).Solve(before, nullptr, &guess).status,
            SolverStatus::kConverged);
  for (bool fit : {true, false}) {
    SCOPED_TRACE(fit ? "fitted" : "not fitted");
    options.rho.warm_boost_keeps_pieces = fit;
    Solution x;
    const SolverSummary s = Solver(options).Solve(after, &guess, &x);
    ASSERT_EQ(s.status, SolverStatus::kConverged) << s.FullReport();
    ASSERT_FALSE(s.history.empty());
    if (fit) {
      EXPECT_LT(s.history.front().rho_boost, options.rho.warm_initial_boost);
    } else {
      EXPECT_EQ(s.history.front().rho_boost, options.rho.warm_initial_boost);
    }
  }
}

// The tail boost: every iterate up to and including the first one after the
// start whose worst measure is below tail_error runs under initial_boost,
// every later one under initial_boost x tail_boost_factor (no stall
// reduction happens here); factor 1 keeps the boost. Two thresholds move the
// switch. GFC3D_Example1 from the zero start, tol 1e-10: 5 iterations with
// the worst measure going 0.19, 0.18, 9e-3, 9e-6, 1e-10.
TEST(RhoBoostTest, TailBoostMultipliesOnceBelowTheTailError) {
  const GlobalProblem problem =
      testing::ReadSharedProblem("GFC3D_Example1.hdf5");
  for (double tail_error : {1e-3, 1e-7}) {
    SCOPED_TRACE("tail_error " + std::to_string(tail_error));
    SolverOptions options = NewtonOnly();
    options.cold_start = ColdStart::kZero;
    options.rho.initial_boost = 30.0;
    options.rho.tail_error = tail_error;
    options.rho.tail_boost_factor = 5.0;
    Solver solver(options);
    Solution x;
    const SolverSummary s = solver.Solve(problem, nullptr, &x);
    ASSERT_EQ(s.status, SolverStatus::kConverged) << s.FullReport();
    ASSERT_EQ(s.rho_reductions, 0);
    size_t first_below = s.history.size();
    for (size_t i = 1; i < s.history.size(); ++i) {
      if (Worst(s.history[i]) < tail_error) {
        first_below = i;
        break;
      }
    }
    ASSERT_LT(first_below + 1, s.history.size())
        << "the tail must start before the last iterate";
    for (size_t i = 0; i < s.history.size(); ++i) {
      EXPECT_EQ(s.history[i].rho_boost, i <= first_below ? 30.0 : 150.0)
          << "iterate " << i;
    }

    options.rho.tail_boost_factor = 1.0;
    solver.set_options(options);
    const SolverSummary off = solver.Solve(problem, nullptr, &x);
    ASSERT_EQ(off.status, SolverStatus::kConverged) << off.FullReport();
    for (const IterationRecord& h : off.history) EXPECT_EQ(h.rho_boost, 30.0);
  }
}

// The iterate where the tail boost starts already takes the boosted rho's
// Newton step: the iterate after it is the one a solve started there under
// the boosted rho reaches in one step (not the previous rho's step, with the
// boost acting one iterate later).
TEST(RhoBoostTest, TheTailBoostIterateStepsUnderTheBoostedRho) {
  // A lattice sliding on an uneven floor: slipping contacts, whose Newton
  // step depends on rho.
  const GlobalProblem problem =
      testing::MakeLatticeOnFloor(8, 6, 3, 0.3, 1.5, 0.2);
  SolverOptions options = NewtonOnly();
  options.cold_start = ColdStart::kZero;
  options.rho.initial_boost = 30.0;
  options.rho.tail_boost_factor = 5.0;
  Solution x;
  const SolverSummary full = Solver(options).Solve(problem, nullptr, &x);
  ASSERT_EQ(full.status, SolverStatus::kConverged) << full.FullReport();
  size_t b = 0;  // the boost iterate: the last one recorded under 30
  while (b + 1 < full.history.size() && full.history[b + 1].rho_boost == 30.0)
    ++b;
  ASSERT_GE(b, 1u);
  ASSERT_LT(b + 1, full.history.size()) << full.FullReport();
  ASSERT_EQ(full.history[b + 1].rho_boost, 150.0);
  // z_b and z_{b+1}: the same solve stopped there (the errors decrease, so
  // the returned best iterate is the last one).
  auto stopped_at = [&](int iterations) {
    SolverOptions stop = options;
    stop.max_iterations = iterations;
    Solution z;
    const SolverSummary s = Solver(stop).Solve(problem, nullptr, &z);
    EXPECT_EQ(s.status, SolverStatus::kMaxIterations);
    EXPECT_EQ(s.iterations, iterations);
    return z;
  };
  const Solution zb = stopped_at(static_cast<int>(b));
  const Solution next = stopped_at(static_cast<int>(b) + 1);
  // One full Newton step from z_b under 30 x 5, no further boost.
  SolverOptions boosted = options;
  boosted.rho.warm_initial_boost = 150.0;
  boosted.rho.tail_boost_factor = 1.0;
  boosted.max_iterations = 1;
  Solution step;
  Solver(boosted).Solve(problem, &zb, &step);
  const double scale = next.v.norm() + next.r.norm();
  EXPECT_LE((step.v - next.v).norm() + (step.r - next.r).norm(), 1e-8 * scale);
  // The step under 30 leads elsewhere: the test tells the two apart.
  boosted.rho.warm_initial_boost = 30.0;
  Solver(boosted).Solve(problem, &zb, &step);
  EXPECT_GT((step.v - next.v).norm() + (step.r - next.r).norm(), 1e-6 * scale);
}

// Where a rho reduction restarts: the iterate of least merit under the
// previous boost, a cold start excluded (its merit, that of the balance
// alone at v = r = 0, is often the least and says nothing of the contacts).
// A window of 2 with a ratio of 1e-6 makes the
// continuation restart as soon as it has a window of merits.
//
// The first record under a smaller boost is the restart; returns its index
// (0 when there is none) and sets *least to the index of least merit among
// the records before it, from `first` on.
size_t FirstRestart(const SolverSummary& s, size_t first, size_t* least) {
  for (size_t i = 1; i < s.history.size(); ++i) {
    if (s.history[i].rho_boost == s.history[0].rho_boost) continue;
    *least = first;
    for (size_t j = first; j < i; ++j)
      if (s.history[j].merit < s.history[*least].merit) *least = j;
    return i;
  }
  return 0;
}

TEST(RhoBoostTest, ReductionRestartsFromTheLeastMeritAfterAColdStart) {
  const GlobalProblem problem =
      testing::ReadSharedProblem("GFC3D_OneContact.hdf5");
  SolverOptions options = NewtonOnly();
  options.cold_start = ColdStart::kZero;
  options.rho.initial_boost = 30.0;
  options.rho.tail_boost_factor = 1.0;
  options.rho.boost_window = 2;
  options.rho.boost_stall_ratio = 1e-6;
  Solver solver(options);
  Solution x;
  SolverSummary s = solver.Solve(problem, nullptr, &x);
  size_t least = 0;
  const size_t restart = FirstRestart(s, 1, &least);
  ASSERT_GT(restart, 0u) << s.FullReport();
  // The zero start (v = 0, r = 0) has the least merit of the first boost;
  // the restart is at the least of the later iterates instead.
  ASSERT_LT(s.history[0].merit, s.history[least].merit) << s.FullReport();
  EXPECT_EQ(s.history[restart].e_eq, s.history[least].e_eq);
  EXPECT_EQ(s.history[restart].e_cone, s.history[least].e_cone);
  EXPECT_NE(s.history[restart].e_eq, s.history[0].e_eq);
}

// After a stall reduction the tail boost stays off for the rest of the solve
// (RhoOptions::tail_boost_factor): the boost never rises again once it has
// been lowered. A stall test so strict that every window stalls (window 1,
// ratio 1e-6) lowers the boost 30 -> 3 at iterate 2 (worst measure 9e-3, above
// tail_error); the next iterate is below tail_error, where the tail boost used
// to raise the boost to 15.
TEST(RhoBoostTest, NoTailBoostAfterAStallReduction) {
  const GlobalProblem problem =
      testing::ReadSharedProblem("GFC3D_Example1.hdf5");
  SolverOptions options = NewtonOnly();
  options.cold_start = ColdStart::kZero;
  options.rho.initial_boost = 30.0;
  options.rho.tail_error = 1e-3;
  options.rho.tail_boost_factor = 5.0;
  options.rho.boost_window = 1;
  options.rho.boost_stall_ratio = 1e-6;
  Solver solver(options);
  Solution x;
  const SolverSummary s = solver.Solve(problem, nullptr, &x);
  ASSERT_GT(s.rho_reductions, 0) << s.FullReport();
  bool reduced = false;
  bool below_tail_after_reduction = false;
  for (size_t i = 1; i < s.history.size(); ++i) {
    reduced = reduced || s.history[i].rho_boost < s.history[i - 1].rho_boost;
    if (reduced && i + 1 < s.history.size() &&
        Worst(s.history[i]) < options.rho.tail_error) {
      below_tail_after_reduction = true;
    }
    if (reduced) {
      EXPECT_LE(s.history[i].rho_boost, s.history[i - 1].rho_boost)
          << "iterate " << i << "\n"
          << s.FullReport();
    }
  }
  EXPECT_TRUE(below_tail_after_reduction)
      << "the tail threshold must be crossed after the reduction\n"
      << s.FullReport();
}

}  // namespace
}  // namespace fcsn
