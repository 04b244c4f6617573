// The checks, state, n = 0 shortcut, counters and timings that LinearSolver's
// template methods do once for every backend (linalg/linear_solver.h):
// first on a fake backend that records which hooks run, then once per real
// backend (TEST_P), so that no backend can bypass them.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <tuple>

#include "linalg/linear_solver.h"
#include "linalg/stopwatch.h"
#include "test_matrices.h"

namespace fcsn::internal {
namespace {

using ::fcsn::testing::BackwardError;
using ::fcsn::testing::RandomUnsymmetric;
using ::fcsn::testing::TestSystem;
using ::fcsn::testing::ToEigen;

// J = 2 I whatever the values: DoSolve halves rhs. Records the hook calls and
// can be told to fail, lose its factors, return non-finite entries or spend
// busy time refactorizing inside the solve.
class FakeBackend final : public LinearSolver {
 public:
  int analyze_calls = 0, factorize_calls = 0, solve_calls = 0;
  LinearSolverStatus factorize_result = LinearSolverStatus::kSuccess;
  LinearSolverStatus solve_result = LinearSolverStatus::kSuccess;
  bool lose_factors_in_solve = false;
  bool non_finite_solution = false;
  double refactorization_busy_seconds = 0;

 private:
  LinearSolverStatus DoAnalyze(const SparsityPattern& pattern,
                               std::string* /*message*/) override {
    ++analyze_calls;
    EXPECT_GT(pattern.n, 0);
    return LinearSolverStatus::kSuccess;
  }
  LinearSolverStatus DoFactorize(const double* values,
                                 std::string* message) override {
    ++factorize_calls;
    EXPECT_NE(values, nullptr);
    return linalg_detail::Report(factorize_result, "fake factorize", message);
  }
  LinearSolverStatus DoSolve(Eigen::VectorXd* rhs,
                             std::string* message) override {
    ++solve_calls;
    EXPECT_EQ(rhs->size(), pattern().n);
    const SteadyClock::time_point start = SteadyClock::now();
    while (SecondsSince(start) < refactorization_busy_seconds) {
    }
    if (refactorization_busy_seconds > 0) {
      CountRefactorizationSeconds(SecondsSince(start));
    }
    if (lose_factors_in_solve) DiscardFactorization();
    *rhs *= 0.5;
    if (non_finite_solution) (*rhs)[0] = std::nan("");
    return linalg_detail::Report(solve_result, "fake solve", message);
  }
};

// 3 x 3 tridiagonal pattern.
SparsityPattern Tridiagonal3() {
  SparsityPattern pattern;
  pattern.n = 3;
  pattern.col_ptr = {0, 2, 5, 7};
  pattern.row_index = {0, 1, 0, 1, 2, 1, 2};
  return pattern;
}

TEST(LinearSolverBase, RejectedCallsNeverReachTheBackend) {
  FakeBackend solver;
  const SparsityPattern pattern = Tridiagonal3();
  const std::vector<double> values(7, 1.0);
  std::string message;
  EXPECT_EQ(solver.Factorize(values.data(), &message),
            LinearSolverStatus::kNotReady);
  Eigen::VectorXd x = Eigen::VectorXd::Ones(3);
  EXPECT_EQ(solver.Solve(&x, &message), LinearSolverStatus::kNotReady);
  SparsityPattern bad = pattern;
  bad.row_index[1] = 3;
  EXPECT_EQ(solver.Analyze(bad, &message), LinearSolverStatus::kInvalidInput);

  ASSERT_EQ(solver.Analyze(pattern, &message), LinearSolverStatus::kSuccess);
  EXPECT_EQ(solver.Factorize(nullptr, &message),
            LinearSolverStatus::kInvalidInput);
  std::vector<double> nan_values = values;
  nan_values[4] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(solver.Factorize(nan_values.data(), &message),
            LinearSolverStatus::kInvalidInput);
  EXPECT_EQ(solver.Solve(&x, &message), LinearSolverStatus::kNotReady);

  ASSERT_EQ(solver.Factorize(values.data(), &message),
            LinearSolverStatus::kSuccess);
  Eigen::VectorXd wrong_size = Eigen::VectorXd::Ones(2);
  EXPECT_EQ(solver.Solve(&wrong_size, &message),
            LinearSolverStatus::kInvalidInput);
  EXPECT_EQ(solver.Solve(nullptr, &message), LinearSolverStatus::kInvalidInput);
  x[1] = std::numeric_limits<double>::infinity();
  EXPECT_EQ(solver.Solve(&x, &message), LinearSolverStatus::kInvalidInput);

  EXPECT_EQ(solver.analyze_calls, 1);
  EXPECT_EQ(solver.factorize_calls, 1);
  EXPECT_EQ(solver.solve_calls, 0);
  EXPECT_EQ(solver.stats().analyses, 1);
  EXPECT_EQ(solver.stats().factorizations, 1);
  EXPECT_EQ(solver.stats().solves, 0);
}

TEST(LinearSolverBase, EmptySystemIsAnsweredWithoutTheBackend) {
  FakeBackend solver;
  SparsityPattern empty;
  empty.col_ptr = {0};
  ASSERT_EQ(solver.Analyze(empty, nullptr), LinearSolverStatus::kSuccess);
  ASSERT_EQ(solver.Factorize(nullptr, nullptr), LinearSolverStatus::kSuccess);
  Eigen::VectorXd none(0);
  EXPECT_EQ(solver.Solve(&none, nullptr), LinearSolverStatus::kSuccess);
  EXPECT_EQ(solver.analyze_calls + solver.factorize_calls + solver.solve_calls,
            0);
  EXPECT_EQ(solver.stats().analyses, 1);
  EXPECT_EQ(solver.stats().factorizations, 1);
  EXPECT_EQ(solver.stats().solves, 1);
  EXPECT_EQ(solver.stats().ordering_used, "none");
}

TEST(LinearSolverBase, FailuresKeepTheBackendMessageAndTheState) {
  FakeBackend solver;
  const std::vector<double> values(7, 1.0);
  std::string message = "stale";
  ASSERT_EQ(solver.Analyze(Tridiagonal3(), &message),
            LinearSolverStatus::kSuccess);
  EXPECT_EQ(message, "");  // cleared on success
  solver.factorize_result = LinearSolverStatus::kSingular;
  EXPECT_EQ(solver.Factorize(values.data(), &message),
            LinearSolverStatus::kSingular);
  EXPECT_EQ(message, "fake factorize");
  Eigen::VectorXd x = Eigen::VectorXd::Ones(3);
  EXPECT_EQ(solver.Solve(&x, &message), LinearSolverStatus::kNotReady);
  EXPECT_EQ(solver.stats().factorizations, 1);  // counted, failed or not

  solver.factorize_result = LinearSolverStatus::kSuccess;
  ASSERT_EQ(solver.Factorize(values.data(), &message),
            LinearSolverStatus::kSuccess);
  EXPECT_EQ(message, "");
  ASSERT_EQ(solver.Solve(&x, &message), LinearSolverStatus::kSuccess);
  EXPECT_EQ(x, Eigen::VectorXd::Constant(3, 0.5));

  // A non-finite "solution" is never a success.
  solver.non_finite_solution = true;
  EXPECT_EQ(solver.Solve(&x, &message), LinearSolverStatus::kSingular);
  EXPECT_NE(message.find("non-finite"), std::string::npos) << message;
  // A backend that lost its factors in a failed solve is not ready until the
  // next Factorize.
  solver.non_finite_solution = false;
  solver.solve_result = LinearSolverStatus::kFailure;
  solver.lose_factors_in_solve = true;
  x.setOnes();
  EXPECT_EQ(solver.Solve(&x, &message), LinearSolverStatus::kFailure);
  EXPECT_EQ(message, "fake solve");
  EXPECT_EQ(solver.Solve(&x, &message), LinearSolverStatus::kNotReady);
  EXPECT_EQ(solver.solve_calls, 3);
}

TEST(LinearSolverBase, RefactorizationInsideSolveIsTimedOnce) {
  FakeBackend solver;
  const std::vector<double> values(7, 1.0);
  ASSERT_EQ(solver.Analyze(Tridiagonal3(), nullptr),
            LinearSolverStatus::kSuccess);
  ASSERT_EQ(solver.Factorize(values.data(), nullptr),
            LinearSolverStatus::kSuccess);
  // 2 ms of busy refactorization: far above the clock's resolution.
  solver.refactorization_busy_seconds = 2e-3;
  const LinearSolverStats before = solver.stats();
  Eigen::VectorXd x = Eigen::VectorXd::Ones(3);
  const SteadyClock::time_point start = SteadyClock::now();
  ASSERT_EQ(solver.Solve(&x, nullptr), LinearSolverStatus::kSuccess);
  const double wall = SecondsSince(start);
  const double factorization =
      solver.stats().factorization_seconds - before.factorization_seconds;
  const double solve = solver.stats().solve_seconds - before.solve_seconds;
  EXPECT_GE(factorization, solver.refactorization_busy_seconds);
  EXPECT_GE(solve, 0.0);
  // Counted in both timers, the sum would exceed the call's wall time by the
  // refactorization.
  EXPECT_LE(factorization + solve, wall);
  EXPECT_EQ(solver.stats().factorizations, before.factorizations);
}

// ---- The same contract on every real backend, once per backend. ----

using Backend = std::tuple<LinearSolverType, FactorizationPrecision>;

class LinearSolverCommonChecks : public ::testing::TestWithParam<Backend> {
 protected:
  std::unique_ptr<LinearSolver> MakeSolver() const {
    LinearSolverOptions options;
    options.type = std::get<0>(GetParam());
    options.precision = std::get<1>(GetParam());
    std::string message;
    std::unique_ptr<LinearSolver> solver =
        LinearSolver::Create(options, &message);
    EXPECT_NE(solver, nullptr) << message;
    return solver;
  }
};

TEST_P(LinearSolverCommonChecks, PhasesOutOfOrderAreNotReady) {
  const TestSystem system = RandomUnsymmetric(50, 3, 0.2, 1);
  auto solver = MakeSolver();
  ASSERT_NE(solver, nullptr);
  std::string message;
  EXPECT_EQ(solver->Factorize(system.values.data(), &message),
            LinearSolverStatus::kNotReady);
  EXPECT_FALSE(message.empty());
  Eigen::VectorXd x = Eigen::VectorXd::Ones(50);
  EXPECT_EQ(solver->Solve(&x, nullptr), LinearSolverStatus::kNotReady);
  ASSERT_EQ(solver->Analyze(system.pattern, nullptr),
            LinearSolverStatus::kSuccess);
  EXPECT_EQ(solver->Solve(&x, &message), LinearSolverStatus::kNotReady);
  EXPECT_EQ(solver->stats().factorizations, 0);
}

TEST_P(LinearSolverCommonChecks, InvalidPatternsAreRejected) {
  const TestSystem good = RandomUnsymmetric(30, 3, 0.2, 2);
  auto solver = MakeSolver();
  ASSERT_NE(solver, nullptr);
  std::string message;

  SparsityPattern out_of_range = good.pattern;
  out_of_range.row_index[out_of_range.col_ptr[4]] = 30;
  EXPECT_EQ(solver->Analyze(out_of_range, &message),
            LinearSolverStatus::kInvalidInput);
  EXPECT_NE(message.find("out of range"), std::string::npos) << message;

  SparsityPattern negative = good.pattern;
  negative.row_index[0] = -1;
  EXPECT_EQ(solver->Analyze(negative, &message),
            LinearSolverStatus::kInvalidInput);

  SparsityPattern unsorted = good.pattern;
  int column = 0;
  while (unsorted.col_ptr[column + 1] - unsorted.col_ptr[column] < 2) ++column;
  std::swap(unsorted.row_index[unsorted.col_ptr[column]],
            unsorted.row_index[unsorted.col_ptr[column] + 1]);
  EXPECT_EQ(solver->Analyze(unsorted, &message),
            LinearSolverStatus::kInvalidInput);
  EXPECT_NE(message.find("not sorted"), std::string::npos) << message;

  SparsityPattern duplicate = good.pattern;
  duplicate.row_index[duplicate.col_ptr[column] + 1] =
      duplicate.row_index[duplicate.col_ptr[column]];
  EXPECT_EQ(solver->Analyze(duplicate, &message),
            LinearSolverStatus::kInvalidInput);
  EXPECT_NE(message.find("duplicated"), std::string::npos) << message;

  SparsityPattern short_col_ptr = good.pattern;
  short_col_ptr.col_ptr.pop_back();
  EXPECT_EQ(solver->Analyze(short_col_ptr, nullptr),
            LinearSolverStatus::kInvalidInput);

  SparsityPattern decreasing = good.pattern;
  decreasing.col_ptr[3] = decreasing.col_ptr[4] + 1;
  EXPECT_EQ(solver->Analyze(decreasing, nullptr),
            LinearSolverStatus::kInvalidInput);

  // A rejected pattern leaves the solver not ready.
  EXPECT_EQ(solver->Factorize(good.values.data(), nullptr),
            LinearSolverStatus::kNotReady);
  EXPECT_EQ(solver->stats().analyses, 0);
}

TEST_P(LinearSolverCommonChecks, InvalidValuesAndRightHandSidesAreRejected) {
  TestSystem system = RandomUnsymmetric(40, 3, 0.2, 4);
  auto solver = MakeSolver();
  ASSERT_NE(solver, nullptr);
  std::string message;
  ASSERT_EQ(solver->Analyze(system.pattern, &message),
            LinearSolverStatus::kSuccess);
  EXPECT_EQ(solver->Factorize(nullptr, &message),
            LinearSolverStatus::kInvalidInput);
  std::vector<double> bad = system.values;
  bad[7] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(solver->Factorize(bad.data(), &message),
            LinearSolverStatus::kInvalidInput);
  EXPECT_NE(message.find("not finite"), std::string::npos) << message;

  ASSERT_EQ(solver->Factorize(system.values.data(), &message),
            LinearSolverStatus::kSuccess);
  Eigen::VectorXd wrong_size = Eigen::VectorXd::Ones(39);
  EXPECT_EQ(solver->Solve(&wrong_size, &message),
            LinearSolverStatus::kInvalidInput);
  EXPECT_EQ(solver->Solve(nullptr, &message),
            LinearSolverStatus::kInvalidInput);
  Eigen::VectorXd infinite = Eigen::VectorXd::Ones(40);
  infinite[3] = std::numeric_limits<double>::infinity();
  EXPECT_EQ(solver->Solve(&infinite, &message),
            LinearSolverStatus::kInvalidInput);
  // The factors survive a rejected right-hand side.
  Eigen::VectorXd b = Eigen::VectorXd::Ones(40);
  Eigen::VectorXd x = b;
  ASSERT_EQ(solver->Solve(&x, &message), LinearSolverStatus::kSuccess)
      << message;
  // A backward-stable LU: a small multiple of eps (see the conformance suite).
  EXPECT_LE(BackwardError(ToEigen(system.pattern, system.values), x, b), 1e-12);
  EXPECT_EQ(solver->stats().factorizations, 1);
  EXPECT_EQ(solver->stats().solves, 1);
}

TEST_P(LinearSolverCommonChecks, EmptySystemIsSolved) {
  auto solver = MakeSolver();
  ASSERT_NE(solver, nullptr);
  SparsityPattern empty;
  empty.col_ptr = {0};
  ASSERT_EQ(solver->Analyze(empty, nullptr), LinearSolverStatus::kSuccess);
  ASSERT_EQ(solver->Factorize(nullptr, nullptr), LinearSolverStatus::kSuccess);
  Eigen::VectorXd none(0);
  EXPECT_EQ(solver->Solve(&none, nullptr), LinearSolverStatus::kSuccess);
  EXPECT_EQ(solver->stats().ordering_used, "none");
  // The solver goes on with a real system afterwards.
  const TestSystem system = RandomUnsymmetric(20, 3, 0.2, 6);
  ASSERT_EQ(solver->Analyze(system.pattern, nullptr),
            LinearSolverStatus::kSuccess);
  ASSERT_EQ(solver->Factorize(system.values.data(), nullptr),
            LinearSolverStatus::kSuccess);
  Eigen::VectorXd x = Eigen::VectorXd::Ones(20);
  EXPECT_EQ(solver->Solve(&x, nullptr), LinearSolverStatus::kSuccess);
  EXPECT_EQ(solver->stats().analyses, 2);
  EXPECT_EQ(solver->stats().solves, 2);
}

TEST_P(LinearSolverCommonChecks, CountersAndTimingsCoverEveryAcceptedCall) {
  const TestSystem system = RandomUnsymmetric(200, 3, 0.2, 8);
  auto solver = MakeSolver();
  ASSERT_NE(solver, nullptr);
  const SteadyClock::time_point start = SteadyClock::now();
  ASSERT_EQ(solver->Analyze(system.pattern, nullptr),
            LinearSolverStatus::kSuccess);
  for (int k = 0; k < 2; ++k) {
    ASSERT_EQ(solver->Factorize(system.values.data(), nullptr),
              LinearSolverStatus::kSuccess);
    for (int s = 0; s < 3; ++s) {
      Eigen::VectorXd x = Eigen::VectorXd::Ones(200);
      ASSERT_EQ(solver->Solve(&x, nullptr), LinearSolverStatus::kSuccess);
    }
  }
  const double wall = SecondsSince(start);
  const LinearSolverStats& stats = solver->stats();
  EXPECT_EQ(stats.analyses, 1);
  EXPECT_EQ(stats.factorizations, 2);
  EXPECT_EQ(stats.solves, 6);
  // Every phase did real work on a 200 x 200 system (the steady clock
  // resolves nanoseconds), and the phases are disjoint parts of the calls.
  EXPECT_GT(stats.analysis_seconds, 0.0);
  EXPECT_GT(stats.factorization_seconds, 0.0);
  EXPECT_GT(stats.solve_seconds, 0.0);
  EXPECT_LE(stats.analysis_seconds + stats.factorization_seconds +
                stats.solve_seconds,
            wall);
  EXPECT_GT(stats.factor_entries, 0);
}

std::string BackendName(const ::testing::TestParamInfo<Backend>& info) {
  return std::string(ToString(std::get<0>(info.param))) + "_" +
         ToString(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(
    EveryBackend,
    LinearSolverCommonChecks,
    ::testing::Values(
        Backend{LinearSolverType::kMumps, FactorizationPrecision::kDouble},
        Backend{LinearSolverType::kMumps, FactorizationPrecision::kMixed},
        Backend{LinearSolverType::kEigenLU, FactorizationPrecision::kDouble},
        Backend{LinearSolverType::kDense, FactorizationPrecision::kDouble}),
    BackendName);

}  // namespace
}  // namespace fcsn::internal
