// Tests of the setup on two threads (SolverOptions::setup_threads):
// M's factorization in two parts (MFactorization::Order, FactorizeOrdered;
// MInverse::Order, FactorizeOrdered) gives the bits of the one-part
// Factorize() or refuses to factorize, never calls METIS in its second part
// (a small M needs none: it factorizes without Order()); and
// a Solver with setup_threads = 2 returns the statuses, histories and bits of
// one with setup_threads = 1, also when M needs the LDL^T fallback; the
// caller's BLAS threads are back after it.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "fcsn/options.h"
#include "fcsn/solver.h"
#include "linalg/blas_threads.h"
#include "linalg/fill_ordering.h"
#include "linalg/m_factorization.h"
#include "test_problems.h"

namespace fcsn::internal {
namespace {

// A small lattice, for MFactorization(0) (supernodal at any size).
GlobalProblem Small() { return testing::MakeLatticeOnFloor(6, 5, 3, 0.3, 0.8); }

// n = 21,600 >= kNestedDissectionMinDofs: M's supernodal Cholesky in two
// parts, the second thread's share of W_aa.
GlobalProblem Large() {
  return testing::MakeLatticeOnFloor(30, 30, 8, 0.3, 1.5, 1e-3);
}

// kTwoSetupThreadsMinDofs <= n = 2700 < kNestedDissectionMinDofs: two threads,
// M's simplicial LDL^T on the first while J is analyzed on the second.
GlobalProblem Medium() {
  return testing::MakeLatticeOnFloor(20, 15, 3, 0.3, 1.5, 1e-3);
}

// M with its first diagonal entry negated: symmetric, not positive definite.
SparseMatrix Indefinite(SparseMatrix M) {
  M.coeffRef(0, 0) = -M.coeff(0, 0);
  return M;
}

void ExpectSameFactors(const MFactorization& a,
                       const MFactorization& b,
                       const GlobalProblem& problem) {
  ASSERT_EQ(a.type(), b.type());
  Eigen::VectorXd xa, xb;
  ASSERT_TRUE(a.Solve(problem.f, &xa));
  ASSERT_TRUE(b.Solve(problem.f, &xb));
  EXPECT_EQ(xa, xb);
  std::vector<Eigen::Matrix3d> wa, wb;
  a.DiagonalBlocks(problem.H, &wa);
  b.DiagonalBlocks(problem.H, &wb);
  ASSERT_EQ(wa.size(), wb.size());
  for (size_t k = 0; k < wa.size(); ++k) EXPECT_EQ(wa[k], wb[k]) << k;
}

TEST(SetupThreadsTest, OrderedFactorizationHasTheBitsOfTheOnePartOne) {
  const GlobalProblem problem = Small();
  MFactorization two_parts(0), one_part(0);
  std::string error;
  two_parts.Order(problem.M);
  EXPECT_EQ(two_parts.analyses(), 1);
  ASSERT_TRUE(two_parts.FactorizeOrdered(problem.M, &error)) << error;
  EXPECT_EQ(two_parts.type(), MFactorizationType::kSupernodalCholesky);
  EXPECT_EQ(two_parts.analyses(), 1);  // the second part did not order
  EXPECT_EQ(two_parts.factorizations(), 1);
  ASSERT_TRUE(one_part.Factorize(problem.M, &error)) << error;
  ExpectSameFactors(two_parts, one_part, problem);
  // An unchanged pattern keeps the analysis: Order() does nothing more.
  two_parts.Order(problem.M);
  ASSERT_TRUE(two_parts.FactorizeOrdered(problem.M, &error)) << error;
  EXPECT_EQ(two_parts.analyses(), 1);
  EXPECT_EQ(two_parts.factorizations(), 2);
}

TEST(SetupThreadsTest, FactorizeOrderedRefusesWhatNeedsAnOrdering) {
  const GlobalProblem problem = Small();
  std::string error;
  {
    SCOPED_TRACE("no Order()");
    MFactorization factors(0);
    EXPECT_FALSE(factors.FactorizeOrdered(problem.M, &error));
    EXPECT_EQ(factors.type(), MFactorizationType::kNone);
    EXPECT_EQ(factors.analyses(), 0);
    EXPECT_FALSE(error.empty());
  }
  {
    SCOPED_TRACE("not positive definite: the LDL^T is left to Factorize()");
    const SparseMatrix M = Indefinite(problem.M);
    MFactorization factors(0);
    factors.Order(M);
    EXPECT_FALSE(factors.FactorizeOrdered(M, &error));
    EXPECT_EQ(factors.type(), MFactorizationType::kNone);
    ASSERT_TRUE(factors.Factorize(M, &error)) << error;
    EXPECT_EQ(factors.type(), MFactorizationType::kSimplicialLdlt);
  }
  {
    SCOPED_TRACE("not symmetric: the LU is left to Factorize()");
    SparseMatrix M = problem.M;
    M.coeffRef(1, 0) *= 1.5;
    MFactorization factors(0);
    factors.Order(M);
    EXPECT_FALSE(factors.FactorizeOrdered(M, &error));
    EXPECT_EQ(factors.type(), MFactorizationType::kNone);
    ASSERT_TRUE(factors.Factorize(M, &error)) << error;
    EXPECT_EQ(factors.type(), MFactorizationType::kSparseLu);
  }
}

// Below kNestedDissectionMinDofs (and the supernodal size) M is ordered by AMD
// or COLAMD, no METIS call: the second part factorizes without Order(), as
// Factorize() does, also when M needs the LDL^T or the LU.
TEST(SetupThreadsTest, FactorizeOrderedFactorizesASmallMWithoutAnOrdering) {
  const GlobalProblem problem = Small();
  ASSERT_LT(problem.n(), kNestedDissectionMinDofs);
  SparseMatrix not_symmetric = problem.M;
  not_symmetric.coeffRef(1, 0) *= 1.5;
  const std::vector<std::pair<SparseMatrix, MFactorizationType>> cases = {
      {problem.M, MFactorizationType::kSimplicialLdlt},
      {Indefinite(problem.M), MFactorizationType::kSimplicialLdlt},
      {not_symmetric, MFactorizationType::kSparseLu}};
  for (const auto& [M, type] : cases) {
    SCOPED_TRACE(ToString(type));
    MFactorization two_parts, one_part;  // default sizes: both above n
    std::string error;
    two_parts.Order(M);
    EXPECT_EQ(two_parts.analyses(), 0) << "Order() has nothing to do";
    ASSERT_TRUE(two_parts.FactorizeOrdered(M, &error)) << error;
    EXPECT_EQ(two_parts.type(), type);
    ASSERT_TRUE(one_part.Factorize(M, &error)) << error;
    GlobalProblem with_m = problem;
    with_m.M = M;
    ExpectSameFactors(two_parts, one_part, with_m);
  }
}

TEST(SetupThreadsTest, MInverseInTwoPartsHasTheBitsOfOnePart) {
  const GlobalProblem problem = Large();
  ASSERT_GE(problem.n(), kNestedDissectionMinDofs);
  MInverse two_parts, one_part;
  std::string error;
  two_parts.Bind(problem);
  EXPECT_FALSE(two_parts.FactorizeOrdered()) << "not ordered yet";
  two_parts.Order();
  ASSERT_TRUE(two_parts.FactorizeOrdered());
  ASSERT_TRUE(two_parts.ComputeQFree(&error)) << error;
  EXPECT_EQ(two_parts.factorization().factorizations(), 1);
  one_part.Bind(problem);
  ASSERT_TRUE(one_part.ComputeQFree(&error)) << error;
  EXPECT_EQ(two_parts.q_free(), one_part.q_free());
  EXPECT_EQ(two_parts.free_velocity(), one_part.free_velocity());
  EXPECT_EQ(two_parts.DiagonalBlocks(), one_part.DiagonalBlocks());
  // The next step with the same M keeps the factors: nothing to order.
  GlobalProblem step = problem;
  step.f *= 2.0;
  two_parts.Bind(step);
  EXPECT_TRUE(two_parts.reused_factors());
  two_parts.Order();
  EXPECT_TRUE(two_parts.FactorizeOrdered());
  EXPECT_EQ(two_parts.factorization().factorizations(), 1);
  EXPECT_EQ(two_parts.factorization().analyses(), 1);
}

// Solves with setup_threads 1 and 2 (a fresh Solver each, then a second step
// on the same Solver) and expects the same statuses, histories and bits.
// With one BLAS thread throughout: the two-thread setup runs BLAS on one
// thread (linalg/blas_threads.h), and a threaded BLAS splits a product
// differently on more, which changes its last bits.
void ExpectSameSolves(const GlobalProblem& problem, SolverType solver) {
  const SingleBlasThread one_blas_thread(true);
  SolverOptions options;
  options.solver = solver;
  options.tolerance = 1e-8;
  std::vector<SolverSummary> summaries;
  std::vector<Solution> solutions;
  for (int threads : {1, 2}) {
    options.setup_threads = threads;
    Solver s(options);
    for (int step = 0; step < 2; ++step) {
      solutions.emplace_back();
      const Solution* guess = step == 0 ? nullptr : &solutions[0];
      summaries.push_back(s.Solve(problem, guess, &solutions.back()));
    }
  }
  for (int k = 0; k < 2; ++k) {
    SCOPED_TRACE("step " + std::to_string(k));
    const SolverSummary& one = summaries[k];
    const SolverSummary& two = summaries[2 + k];
    EXPECT_EQ(one.status, two.status);
    EXPECT_EQ(one.message, two.message);
    EXPECT_EQ(one.iterations, two.iterations);
    EXPECT_EQ(one.analyses, two.analyses);
    ASSERT_EQ(one.history.size(), two.history.size());
    for (size_t i = 0; i < one.history.size(); ++i) {
      EXPECT_EQ(one.history[i].merit, two.history[i].merit) << i;
    }
    EXPECT_EQ(solutions[k].v, solutions[2 + k].v);
    EXPECT_EQ(solutions[k].r, solutions[2 + k].r);
  }
}

TEST(SetupThreadsTest, TwoThreadsGiveTheBitsOfOne) {
  const GlobalProblem problem = Large();
  ExpectSameSolves(problem, SolverType::kNewton);
  ExpectSameSolves(problem, SolverType::kHybrid);
}

TEST(SetupThreadsTest, TwoThreadsGiveTheBitsOfOneBelowTheSupernodalSize) {
  GlobalProblem problem = Medium();
  ASSERT_GE(problem.n(), kTwoSetupThreadsMinDofs);
  ASSERT_LT(problem.n(), kNestedDissectionMinDofs);
  ExpectSameSolves(problem, SolverType::kNewton);
  ExpectSameSolves(problem, SolverType::kHybrid);
  problem.M = Indefinite(problem.M);
  ExpectSameSolves(problem, SolverType::kNewton);
}

// A second cold solve on the same Solver whose contacts changed (the last
// one dropped: the same M, another pattern of H) overlaps J's new analysis
// with the new W_aa while M's factors are kept: the bits of one thread.
TEST(SetupThreadsTest, TwoThreadsGiveTheBitsOfOneWhenTheContactsChange) {
  const SingleBlasThread one_blas_thread(true);
  const GlobalProblem first = Medium();
  const GlobalProblem next = testing::WithoutLastContact(first);
  std::vector<Solution> solutions(2);
  std::vector<SolverSummary> summaries;
  for (int threads : {1, 2}) {
    SolverOptions options;
    options.tolerance = 1e-8;
    options.setup_threads = threads;
    Solver solver(options);
    Solution solution;
    ASSERT_TRUE(solver.Solve(first, nullptr, &solution).IsConverged());
    summaries.push_back(solver.Solve(next, nullptr, &solutions[threads - 1]));
  }
  ASSERT_EQ(summaries[0].status, SolverStatus::kConverged);
  EXPECT_EQ(summaries[0].status, summaries[1].status);
  EXPECT_EQ(summaries[0].iterations, summaries[1].iterations);
  EXPECT_EQ(summaries[0].analyses, 1);
  EXPECT_EQ(summaries[1].analyses, 1);
  EXPECT_EQ(solutions[0].v, solutions[1].v);
  EXPECT_EQ(solutions[0].r, solutions[1].r);
}

TEST(SetupThreadsTest, TwoThreadsGiveTheBitsOfOneWithTheLdltFallback) {
  GlobalProblem problem = Large();
  problem.M = Indefinite(problem.M);
  ExpectSameSolves(problem, SolverType::kNewton);
}

// The setup lowers a threaded OpenBLAS to one thread while its two threads
// run (linalg/blas_threads.h) and gives the caller's setting back, also when
// the setup fails.
TEST(SetupThreadsTest, TheCallersBlasThreadsAreBackAfterTheSolve) {
  using SetThreads = void (*)(int);
  const auto set = reinterpret_cast<SetThreads>(
      dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
  if (set == nullptr || BlasThreads() == 0) {
    GTEST_SKIP() << "no OpenBLAS thread setting";
  }
  const int callers = BlasThreads();
  set(2);
  SolverOptions options;
  options.tolerance = 1e-8;
  GlobalProblem problem = Large();
  Solution solution;
  EXPECT_TRUE(Solver(options).Solve(problem, nullptr, &solution).IsConverged());
  EXPECT_EQ(BlasThreads(), 2);
  problem.M.coeffRef(0, 0) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(
      Solver(options).Solve(problem, nullptr, &solution).IsConverged());
  EXPECT_EQ(BlasThreads(), 2);
  set(callers);
}

TEST(SetupThreadsTest, ValidateAcceptsOneOrTwo) {
  SolverOptions options;
  EXPECT_EQ(options.setup_threads, 2);
  for (int threads : {1, 2}) {
    options.setup_threads = threads;
    EXPECT_EQ(options.Validate(), "") << threads;
  }
  for (int threads : {0, 3, -1}) {
    options.setup_threads = threads;
    EXPECT_NE(options.Validate().find("setup_threads"), std::string::npos)
        << threads;
  }
}

}  // namespace
}  // namespace fcsn::internal
