// J's early factorization (newton/early_factorization.h): the diagonal
// equivalence test finds L of scaled = L P0 R and refuses anything else; the
// bonded start is predicted only where it is due; and a Solver on two setup
// threads at a bonded cold start takes its first direction from the factors
// made before rho, with the iterations and, to round-off, the solution of one
// setup thread (which factorizes as usual), for Newton and the hybrid.
#include "newton/early_factorization.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "fcsn/options.h"
#include "fcsn/solver.h"
#include "linalg/fill_ordering.h"
#include "linalg/m_factorization.h"
#include "test_problems.h"
#include "test_util.h"

namespace fcsn::internal {
namespace {

// 3 x 3 pattern, n = 1 "velocity" column then two "contact" columns:
//   [ 2  .  5 ]
//   [ 1  3  . ]
//   [ .  4  6 ]
SparsityPattern Pattern() {
  SparsityPattern pattern;
  pattern.n = 3;
  pattern.col_ptr = {0, 2, 4, 6};
  pattern.row_index = {0, 1, 1, 2, 0, 2};
  return pattern;
}

// L P R for P of Pattern() (CSC order), R = (cv, cr, cr).
std::vector<double> Scaled(const std::vector<double>& P,
                           const std::vector<double>& L,
                           double cv,
                           double cr) {
  const SparsityPattern pattern = Pattern();
  std::vector<double> scaled(P.size());
  for (int j = 0; j < 3; ++j) {
    for (int p = pattern.col_ptr[j]; p < pattern.col_ptr[j + 1]; ++p)
      scaled[p] = L[pattern.row_index[p]] * P[p] * (j < 1 ? cv : cr);
  }
  return scaled;
}

TEST(EarlyFactorizationTest, DiagonallyEquivalentFindsTheRowScales) {
  const std::vector<double> P = {2, 1, 3, 4, 5, 6};
  const std::vector<double> L = {0.5, -7.0, 1e-6};
  Eigen::VectorXd rows;
  ASSERT_TRUE(DiagonallyEquivalent(
      Pattern(), 1, Scaled(P, L, 3.0, 1e5), P, 3.0, 1e5, &rows));
  for (int i = 0; i < 3; ++i)
    EXPECT_NEAR(rows[i], L[i], 1e-15 * std::abs(L[i]));
  // Explicit zeros in both (a stick contact's B block) are fine.
  std::vector<double> P0 = P;
  P0[3] = 0.0;
  ASSERT_TRUE(DiagonallyEquivalent(
      Pattern(), 1, Scaled(P0, L, 3.0, 1e5), P0, 3.0, 1e5, &rows));
}

TEST(EarlyFactorizationTest, DiagonallyEquivalentRefusesAnotherMatrix) {
  const std::vector<double> P = {2, 1, 3, 4, 5, 6};
  const std::vector<double> L = {0.5, -7.0, 1e-6};
  const std::vector<double> good = Scaled(P, L, 3.0, 1e5);
  Eigen::VectorXd rows;
  {
    SCOPED_TRACE("one entry off by 1e-9 of itself (another piece's row)");
    std::vector<double> scaled = good;
    scaled[2] *= 1.0 + 1e-9;
    EXPECT_FALSE(
        DiagonallyEquivalent(Pattern(), 1, scaled, P, 3.0, 1e5, &rows));
  }
  {
    SCOPED_TRACE("an entry zero in the current matrix only");
    std::vector<double> scaled = good;
    scaled[5] = 0.0;
    EXPECT_FALSE(
        DiagonallyEquivalent(Pattern(), 1, scaled, P, 3.0, 1e5, &rows));
  }
  {
    SCOPED_TRACE("an entry zero in P0 only");
    std::vector<double> P0 = P;
    P0[0] = 0.0;
    EXPECT_FALSE(DiagonallyEquivalent(Pattern(), 1, good, P0, 3.0, 1e5, &rows));
  }
  {
    SCOPED_TRACE("the column scales of another matrix");
    EXPECT_FALSE(DiagonallyEquivalent(Pattern(), 1, good, P, 3.0, 2e5, &rows));
  }
  {
    SCOPED_TRACE("a row without entries");
    const std::vector<double> zero_row = {2, 0, 0, 4, 5, 6};
    EXPECT_FALSE(DiagonallyEquivalent(Pattern(),
                                      1,
                                      Scaled(zero_row, L, 3.0, 1e5),
                                      zero_row,
                                      3.0,
                                      1e5,
                                      &rows));
  }
  {
    SCOPED_TRACE("sizes");
    EXPECT_FALSE(DiagonallyEquivalent(
        Pattern(), 1, std::vector<double>(5, 1.0), P, 3.0, 1e5, &rows));
  }
}

// n = 10,800 >= kNestedDissectionMinDofs, w = 0 (gap 0): at rest, and every
// bottom node pushed along its first tangent by twice its own gravity impulse
// (about twice what friction holds under a column of 3 nodes at mu = 0.3), so
// that the bonded first step is not the solution.
GlobalProblem AtRest(int nx = 40, int ny = 30) {
  GlobalProblem problem = testing::MakeLatticeOnFloor(nx, ny, 3, 0.3, 1.0);
  const Eigen::VectorXd normal = problem.H.transpose() * problem.f;
  Eigen::VectorXd push = Eigen::VectorXd::Zero(problem.m());
  for (int a = 0; a < problem.nc(); ++a)
    push[3 * a + 1] = 2.0 * std::abs(normal[3 * a]);
  problem.f += problem.H * push;
  return problem;
}

TEST(EarlyFactorizationTest, PredictsTheBondedStartOnlyWhereItIsDue) {
  GlobalProblem problem = testing::MakeLatticeOnFloor(4, 4, 2, 0.3, 1.5);
  ASSERT_EQ(problem.w.lpNorm<Eigen::Infinity>(), 0.0);
  SolverOptions options;
  EXPECT_TRUE(PredictsBondedStart(options, problem, false));
  EXPECT_FALSE(PredictsBondedStart(options, problem, true)) << "a guess";
  options.cold_start = ColdStart::kBonded;
  EXPECT_TRUE(PredictsBondedStart(options, problem, false));
  for (ColdStart start : {ColdStart::kZero, ColdStart::kFreeFlight}) {
    options.cold_start = start;
    EXPECT_FALSE(PredictsBondedStart(options, problem, false));
  }
  options = SolverOptions();
  options.formulation = Formulation::kFischerBurmeister;
  EXPECT_FALSE(PredictsBondedStart(options, problem, false));
  options = SolverOptions();
  // Round-off w is at rest, a real gap is not.
  problem.w.setConstant(1e-18);
  EXPECT_TRUE(PredictsBondedStart(options, problem, false));
  const GlobalProblem gap =
      testing::MakeLatticeOnFloor(4, 4, 2, 0.3, 1.5, 1e-3);
  EXPECT_FALSE(PredictsBondedStart(options, gap, false));
}

struct Solved {
  SolverSummary summary;
  Solution solution;
};

Solved SolveWith(const GlobalProblem& problem,
                 SolverOptions options,
                 int threads,
                 const Solution* guess = nullptr) {
  options.setup_threads = threads;
  options.tolerance = 1e-10;
  Solved out;
  Solver solver(options);
  out.summary = solver.Solve(problem, guess, &out.solution);
  return out;
}

bool TwoHardwareThreads() { return std::thread::hardware_concurrency() >= 2; }

TEST(EarlyFactorizationTest, FirstDirectionUsesTheEarlyFactors) {
  if (!TwoHardwareThreads()) GTEST_SKIP() << "one hardware thread";
  const GlobalProblem problem = AtRest();
  ASSERT_GE(problem.n(), kNestedDissectionMinDofs);
  for (SolverType type : {SolverType::kNewton, SolverType::kHybrid}) {
    SCOPED_TRACE(fcsn::ToString(type));
    SolverOptions options;
    options.solver = type;
    const Solved one = SolveWith(problem, options, 1);
    const Solved two = SolveWith(problem, options, 2);
    ASSERT_EQ(one.summary.status, SolverStatus::kConverged);
    ASSERT_EQ(two.summary.status, SolverStatus::kConverged);
    EXPECT_EQ(one.summary.early_factorizations_used, 0);
    EXPECT_EQ(two.summary.early_factorizations_used, 1);
    if (type == SolverType::kNewton) {
      EXPECT_GE(one.summary.iterations, 2) << "a step after the first";
    }
    EXPECT_EQ(one.summary.iterations, two.summary.iterations);
    EXPECT_EQ(one.summary.factorizations, two.summary.factorizations);
    EXPECT_LE(testing::RelativeDistance(one.solution.v, two.solution.v), 1e-8);
    EXPECT_LE(testing::RelativeDistance(one.solution.r, two.solution.r), 1e-8);
    // The early factors replace the first iteration's factorization only.
    ASSERT_GE(two.summary.history.size(), 2u);
    EXPECT_NEAR(two.summary.history[1].merit,
                one.summary.history[1].merit,
                1e-6 * one.summary.history[1].merit +
                    1e-12 * one.summary.history[0].merit);
  }
}

// The second setup thread, and so the early factorization, from
// kTwoSetupThreadsMinDofs on (M's simplicial LDL^T below the supernodal size
// on the first thread); below it one thread factorizes as usual.
TEST(EarlyFactorizationTest, UsedFromTheTwoThreadSize) {
  if (!TwoHardwareThreads()) GTEST_SKIP() << "one hardware thread";
  const GlobalProblem medium = AtRest(20, 15);  // n = 2700
  ASSERT_GE(medium.n(), kTwoSetupThreadsMinDofs);
  ASSERT_LT(medium.n(), kNestedDissectionMinDofs);
  const Solved two = SolveWith(medium, SolverOptions(), 2);
  ASSERT_EQ(two.summary.status, SolverStatus::kConverged);
  EXPECT_EQ(two.summary.early_factorizations_used, 1);
  const Solved one = SolveWith(medium, SolverOptions(), 1);
  EXPECT_EQ(one.summary.iterations, two.summary.iterations);
  EXPECT_LE(testing::RelativeDistance(one.solution.r, two.solution.r), 1e-8);
  const GlobalProblem small = AtRest(8, 6);  // n = 432
  ASSERT_LT(small.n(), kTwoSetupThreadsMinDofs);
  const Solved below = SolveWith(small, SolverOptions(), 2);
  ASSERT_EQ(below.summary.status, SolverStatus::kConverged);
  EXPECT_EQ(below.summary.early_factorizations_used, 0);
}

// A time step whose contacts changed keeps M's factors but needs J's analysis
// and new W_aa: they overlap, so at a bonded start the second thread's early
// factors serve the first direction, with one thread's iterations.
TEST(EarlyFactorizationTest, UsedWhenTheContactsChangeAndMIsKept) {
  if (!TwoHardwareThreads()) GTEST_SKIP() << "one hardware thread";
  const GlobalProblem first = AtRest(20, 15);
  const GlobalProblem next = testing::WithoutLastContact(first);
  for (int threads : {1, 2}) {
    SCOPED_TRACE(threads);
    SolverOptions options;
    options.setup_threads = threads;
    options.tolerance = 1e-10;
    Solver solver(options);
    Solution solution;
    ASSERT_TRUE(solver.Solve(first, nullptr, &solution).IsConverged());
    const SolverSummary summary = solver.Solve(next, nullptr, &solution);
    ASSERT_EQ(summary.status, SolverStatus::kConverged);
    EXPECT_EQ(summary.analyses, 1) << "a new pattern of J";
    EXPECT_EQ(summary.early_factorizations_used, threads == 2 ? 1 : 0);
    EXPECT_EQ(summary.iterations,
              SolveWith(next, options, 1).summary.iterations);
  }
}

TEST(EarlyFactorizationTest, NotTriedWithAGuessOrOffRest) {
  if (!TwoHardwareThreads()) GTEST_SKIP() << "one hardware thread";
  const GlobalProblem problem = AtRest();
  SolverOptions options;
  const Solved cold = SolveWith(problem, options, 2);
  ASSERT_EQ(cold.summary.status, SolverStatus::kConverged);
  const Solved warm = SolveWith(problem, options, 2, &cold.solution);
  EXPECT_EQ(warm.summary.early_factorizations_used, 0);
  // Off rest nothing is factorized early: the counts of one thread.
  const GlobalProblem gap =
      testing::MakeLatticeOnFloor(20, 20, 9, 0.3, 1.5, 1e-3);
  const Solved one = SolveWith(gap, options, 1);
  const Solved two = SolveWith(gap, options, 2);
  EXPECT_EQ(two.summary.early_factorizations_used, 0);
  EXPECT_EQ(one.summary.factorizations, two.summary.factorizations);
}

TEST(EarlyFactorizationTest, EveryFormulationConvergesWithOrWithoutThem) {
  if (!TwoHardwareThreads()) GTEST_SKIP() << "one hardware thread";
  const GlobalProblem problem = AtRest();
  for (Formulation formulation : kAllFormulations) {
    SCOPED_TRACE(fcsn::ToString(formulation));
    SolverOptions options;
    options.formulation = formulation;
    const Solved one = SolveWith(problem, options, 1);
    const Solved two = SolveWith(problem, options, 2);
    EXPECT_EQ(two.summary.status, one.summary.status);
    EXPECT_EQ(two.summary.iterations, one.summary.iterations);
    // Used or refused, the early factorization is counted: at most one more.
    EXPECT_LE(
        two.summary.factorizations,
        one.summary.factorizations + 1 - two.summary.early_factorizations_used);
  }
}

}  // namespace
}  // namespace fcsn::internal
