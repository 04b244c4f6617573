// Tests of SolverOptions::cold_start (newton/cold_start.h): the starting
// iterate of a solve without a guess. Free flight starts at v = M^-1 f, r = 0;
// auto takes it only when w is round-off against the free velocities; a
// guess always wins; every shared problem converges from free flight by the
// criterion of formulations.md §9.1; and on a lattice whose w_N is zero up to
// round-off (the masonry wall's gravity steps in miniature) the free-flight
// start needs fewer Newton iterations than v = 0, where round-off decides the
// first pieces.
#include "newton/cold_start.h"

#include <gtest/gtest.h>

#include <Eigen/SparseCholesky>
#include <string>

#include "fcsn/error_measures.h"
#include "fcsn/fclib_io.h"
#include "fcsn/options.h"
#include "fcsn/solver.h"
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

TEST(ColdStartTest, NamesRoundTrip) {
  for (ColdStart c : kAllColdStarts) {
    EXPECT_EQ(ColdStartFromString(ToString(c)), c);
  }
  EXPECT_STREQ(ToString(ColdStart::kZero), "zero");
  EXPECT_STREQ(ToString(ColdStart::kFreeFlight), "free-flight");
  EXPECT_STREQ(ToString(ColdStart::kAuto), "auto");
  EXPECT_FALSE(ColdStartFromString("free_flight").has_value());
  EXPECT_EQ(SolverOptions().cold_start, ColdStart::kZero);
}

TEST(ColdStartTest, AutoTakesFreeFlightOnlyForRoundOffGaps) {
  const Eigen::VectorXd free_motion = Eigen::VectorXd::Constant(6, -1e-3);
  Eigen::VectorXd w = Eigen::VectorXd::Zero(6);
  using internal::StartsInFreeFlight;
  EXPECT_TRUE(StartsInFreeFlight(ColdStart::kAuto, w, free_motion + w));
  w[0] = 1e-20;
  EXPECT_TRUE(StartsInFreeFlight(ColdStart::kAuto, w, free_motion + w));
  w[0] = 1e-6;  // a real gap: 1e-3 of the free motion
  EXPECT_FALSE(StartsInFreeFlight(ColdStart::kAuto, w, free_motion + w));
  EXPECT_TRUE(StartsInFreeFlight(ColdStart::kFreeFlight, w, free_motion + w));
  EXPECT_FALSE(StartsInFreeFlight(ColdStart::kZero, 0 * w, free_motion));
}

TEST(ColdStartTest, FreeFlightStartsAtMInverseF) {
  const GlobalProblem p = LatticeWithRoundOffGaps();
  const Eigen::VectorXd v_free = FreeVelocity(p);
  const Solution zero = StartingIterate(p, ColdStart::kZero);
  EXPECT_EQ(zero.v.norm(), 0.0);
  EXPECT_EQ(zero.r.norm(), 0.0);
  for (ColdStart c : {ColdStart::kFreeFlight, ColdStart::kAuto}) {
    SCOPED_TRACE(ToString(c));
    const Solution x = StartingIterate(p, c);
    EXPECT_LT(testing::RelativeDistance(x.v, v_free), 1e-12);
    EXPECT_EQ(x.r.norm(), 0.0);
  }
  // Real gaps (1 % of the lattice's spacing per step): auto keeps v = 0.
  const GlobalProblem gapped = testing::MakeLatticeOnFloor(6,
                                                           5,
                                                           2,
                                                           0.3,
                                                           0.5,
                                                           /*gap=*/1e-2);
  EXPECT_EQ(StartingIterate(gapped, ColdStart::kAuto).v.norm(), 0.0);
  EXPECT_GT(StartingIterate(gapped, ColdStart::kFreeFlight).v.norm(), 0.0);
}

TEST(ColdStartTest, GuessWinsOverFreeFlight) {
  const GlobalProblem p = LatticeWithRoundOffGaps();
  Solution guess;
  guess.v = Eigen::VectorXd::Constant(p.n(), 0.25);
  guess.r = Eigen::VectorXd::Constant(p.m(), 0.5);
  const Solution x = StartingIterate(p, ColdStart::kFreeFlight, &guess);
  EXPECT_EQ(x.v, guess.v);
  EXPECT_EQ(x.r, guess.r);
}

TEST(ColdStartTest, FreeFlightSavesIterationsWhenGapsAreRoundOff) {
  const GlobalProblem p = LatticeWithRoundOffGaps();
  SolverOptions options;
  options.solver = SolverType::kNewton;
  options.tolerance = 1e-10;
  Solution x;
  const SolverSummary zero = Solver(options).Solve(p, nullptr, &x);
  options.cold_start = ColdStart::kAuto;
  const SolverSummary free = Solver(options).Solve(p, nullptr, &x);
  ASSERT_EQ(zero.status, SolverStatus::kConverged) << zero.message;
  ASSERT_EQ(free.status, SolverStatus::kConverged) << free.message;
  EXPECT_LT(free.iterations, zero.iterations);
}

TEST(ColdStartTest, SharedProblemsConvergeFromFreeFlight) {
  for (const char* file : testing::kSharedProblemFiles) {
    SCOPED_TRACE(file);
    GlobalProblem p;
    std::string error;
    ASSERT_TRUE(ReadGlobalProblem(
        testing::SharedProblem(file), ReadOptions(), &p, nullptr, &error))
        << error;
    for (SolverType solver : {SolverType::kNewton, SolverType::kHybrid}) {
      SolverOptions options;
      options.solver = solver;
      options.cold_start = ColdStart::kFreeFlight;
      Solution x;
      const SolverSummary s = Solver(options).Solve(p, nullptr, &x);
      EXPECT_EQ(s.status, SolverStatus::kConverged) << s.message;
      double q_free_norm = 0.0;
      ASSERT_TRUE(ComputeQFreeNorm(p, &q_free_norm, &error)) << error;
      const ErrorMeasures e = ComputeErrorMeasures(p, x.v, x.r, q_free_norm);
      EXPECT_TRUE(e.Converged(options.tolerance)) << e.Worst();
    }
  }
}

}  // namespace
}  // namespace fcsn
