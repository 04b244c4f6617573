// Conformance suite: every LinearSolver backend x every ordering (and MUMPS in
// both factorization precisions) must pass the
// same checks (house_style.md §7.11): correct solves on unsymmetric systems
// with zero diagonal entries and on contact saddle-point matrices,
// refactorization on a fixed pattern without a new analysis, singular matrices
// reported as kSingular, and argument errors reported, never crashing.
#include "linalg/linear_solver.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <tuple>

#include "test_matrices.h"

namespace fcsn::internal {
namespace {

using ::fcsn::testing::BackwardError;
using ::fcsn::testing::ContactSaddlePoint;
using ::fcsn::testing::RandomUnsymmetric;
using ::fcsn::testing::RandomUnsymmetricValues;
using ::fcsn::testing::TestSystem;
using ::fcsn::testing::ToEigen;

// A backward-stable LU gives a normwise backward error of a small multiple of
// eps; pivot growth in threshold pivoting (MUMPS' CNTL(1) = 0.01) can cost a
// few more digits.
constexpr double kBackwardTolerance = 1e-12;

using Param = std::tuple<LinearSolverType, Ordering, FactorizationPrecision>;

class LinearSolverConformance : public ::testing::TestWithParam<Param> {
 protected:
  LinearSolverOptions Options() const {
    LinearSolverOptions options;
    options.type = std::get<0>(GetParam());
    options.ordering = std::get<1>(GetParam());
    options.precision = std::get<2>(GetParam());
    return options;
  }
  std::unique_ptr<LinearSolver> MakeSolver() const {
    std::string message;
    std::unique_ptr<LinearSolver> solver =
        LinearSolver::Create(Options(), &message);
    EXPECT_NE(solver, nullptr) << message;
    return solver;
  }
  // Factorizes `values` and checks two solves against their right-hand sides.
  void FactorizeAndCheck(LinearSolver* solver,
                         const SparsityPattern& pattern,
                         const std::vector<double>& values,
                         unsigned seed) {
    std::string message;
    ASSERT_EQ(solver->Factorize(values.data(), &message),
              LinearSolverStatus::kSuccess)
        << message;
    EXPECT_TRUE(message.empty()) << message;
    const Eigen::SparseMatrix<double> J = ToEigen(pattern, values);
    for (int k = 0; k < 2; ++k) {
      std::srand(seed + k);
      const Eigen::VectorXd b = Eigen::VectorXd::Random(pattern.n);
      Eigen::VectorXd x = b;
      ASSERT_EQ(solver->Solve(&x, &message), LinearSolverStatus::kSuccess)
          << message;
      ASSERT_TRUE(x.allFinite());
      EXPECT_LE(BackwardError(J, x, b), kBackwardTolerance);
      EXPECT_LE((J * x - b).norm() / b.norm(),
                1e-10);  // these systems have cond ~ 1e1..1e3
    }
  }
};

TEST_P(LinearSolverConformance, RefactorizesRandomUnsymmetricWithZeroDiagonal) {
  constexpr int kN = 400, kPerColumn = 4;
  constexpr double kSwap = 0.3;
  const TestSystem system =
      RandomUnsymmetric(kN, kPerColumn, kSwap, /*seed=*/7);
  int zero_diagonals = 0;
  const Eigen::SparseMatrix<double> J = ToEigen(system.pattern, system.values);
  for (int i = 0; i < kN; ++i) zero_diagonals += J.coeff(i, i) == 0.0;
  ASSERT_GT(zero_diagonals, kN / 5);

  auto solver = MakeSolver();
  ASSERT_NE(solver, nullptr);
  std::string message;
  ASSERT_EQ(solver->Analyze(system.pattern, &message),
            LinearSolverStatus::kSuccess)
      << message;
  FactorizeAndCheck(solver.get(), system.pattern, system.values, 1);
  for (unsigned value_seed : {11u, 12u, 13u}) {
    const std::vector<double> values =
        RandomUnsymmetricValues(kN, kPerColumn, kSwap, /*seed=*/7, value_seed);
    FactorizeAndCheck(solver.get(), system.pattern, values, value_seed);
  }
  EXPECT_EQ(solver->stats().analyses, 1);
  EXPECT_EQ(solver->stats().factorizations, 4);
  EXPECT_EQ(solver->stats().solves, 8);
  EXPECT_FALSE(solver->stats().ordering_used.empty());
  EXPECT_GT(solver->stats().factor_entries, 0);
}

TEST_P(LinearSolverConformance,
       RefactorizesContactSaddlePointAcrossContactStates) {
  // J = [[M, -H], [A H^T, B]] with stick (B = 0), slide and open contacts; the
  // states rotate between factorizations while the pattern stays fixed.
  const TestSystem first =
      ContactSaddlePoint(/*k=*/5, /*contacts=*/20, /*state_seed=*/0);
  auto solver = MakeSolver();
  ASSERT_NE(solver, nullptr);
  std::string message;
  ASSERT_EQ(solver->Analyze(first.pattern, &message),
            LinearSolverStatus::kSuccess)
      << message;
  for (unsigned state_seed : {0u, 1u, 2u}) {
    const TestSystem system = ContactSaddlePoint(5, 20, state_seed);
    ASSERT_EQ(system.pattern.row_index, first.pattern.row_index);
    FactorizeAndCheck(solver.get(), first.pattern, system.values, state_seed);
  }
  EXPECT_EQ(solver->stats().analyses, 1);
  EXPECT_EQ(solver->stats().factorizations, 3);
}

// Returns `system` with every stored value of row `row` set to 0 (slots kept).
TestSystem WithZeroRow(TestSystem system, int row) {
  for (size_t p = 0; p < system.values.size(); ++p) {
    if (system.pattern.row_index[p] == row) system.values[p] = 0.0;
  }
  return system;
}

TEST_P(LinearSolverConformance, SingularMatrixIsReportedAndRecoverable) {
  const TestSystem good = RandomUnsymmetric(200, 3, 0.3, /*seed=*/3);
  auto solver = MakeSolver();
  ASSERT_NE(solver, nullptr);
  std::string message;
  ASSERT_EQ(solver->Analyze(good.pattern, &message),
            LinearSolverStatus::kSuccess)
      << message;

  // A zero row stays exactly zero under any elimination order and scaling.
  const TestSystem zero_row = WithZeroRow(good, 57);
  EXPECT_EQ(solver->Factorize(zero_row.values.data(), &message),
            LinearSolverStatus::kSingular);
  EXPECT_FALSE(message.empty());
  Eigen::VectorXd x = Eigen::VectorXd::Ones(good.pattern.n);
  EXPECT_EQ(solver->Solve(&x, &message), LinearSolverStatus::kNotReady);

  // A zero column likewise.
  TestSystem zero_column = good;
  for (int p = good.pattern.col_ptr[120]; p < good.pattern.col_ptr[121]; ++p) {
    zero_column.values[p] = 0.0;
  }
  EXPECT_EQ(solver->Factorize(zero_column.values.data(), &message),
            LinearSolverStatus::kSingular)
      << message;

  // A rank-one 2 x 2 block [[1, 1], [1, 1]] decoupled from the rest.
  std::vector<std::tuple<int, int, double>> triplets;
  for (int i = 0; i < 30; ++i) triplets.emplace_back(i, i, 2.0 + i % 3);
  for (int i = 0; i + 1 < 30; i += 3) triplets.emplace_back(i, i + 1, 0.5);
  for (int i : {10, 11}) {
    for (int j : {10, 11})
      triplets.emplace_back(i, j, i == j ? -(2.0 + i % 3) + 1.0 : 1.0);
  }
  const TestSystem rank_deficient = ::fcsn::testing::FromTriplets(30, triplets);
  auto block_solver = MakeSolver();
  ASSERT_EQ(block_solver->Analyze(rank_deficient.pattern, &message),
            LinearSolverStatus::kSuccess);
  EXPECT_EQ(block_solver->Factorize(rank_deficient.values.data(), &message),
            LinearSolverStatus::kSingular)
      << message;

  // The same solver recovers with good values on the same pattern, without a
  // new analysis.
  FactorizeAndCheck(solver.get(), good.pattern, good.values, 5);
  EXPECT_EQ(solver->stats().analyses, 1);
}

TEST_P(LinearSolverConformance, PhasesOutOfOrderAreNotReady) {
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

TEST_P(LinearSolverConformance, InvalidPatternsAreRejected) {
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

TEST_P(LinearSolverConformance, InvalidValuesAndRightHandSidesAreRejected) {
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
  EXPECT_LE(BackwardError(ToEigen(system.pattern, system.values), x, b),
            kBackwardTolerance);
}

TEST_P(LinearSolverConformance, ReanalysisWithANewPattern) {
  auto solver = MakeSolver();
  ASSERT_NE(solver, nullptr);
  for (int n : {60, 90}) {
    const TestSystem system = RandomUnsymmetric(n, 3, 0.2, n);
    ASSERT_EQ(solver->Analyze(system.pattern, nullptr),
              LinearSolverStatus::kSuccess);
    FactorizeAndCheck(solver.get(), system.pattern, system.values, n);
  }
  EXPECT_EQ(solver->stats().analyses, 2);
}

TEST_P(LinearSolverConformance, EmptyAndOneByOneSystems) {
  auto solver = MakeSolver();
  ASSERT_NE(solver, nullptr);
  SparsityPattern empty;
  empty.col_ptr = {0};
  ASSERT_EQ(solver->Analyze(empty, nullptr), LinearSolverStatus::kSuccess);
  ASSERT_EQ(solver->Factorize(nullptr, nullptr), LinearSolverStatus::kSuccess);
  Eigen::VectorXd none(0);
  EXPECT_EQ(solver->Solve(&none, nullptr), LinearSolverStatus::kSuccess);

  SparsityPattern one;
  one.n = 1;
  one.col_ptr = {0, 1};
  one.row_index = {0};
  const double value = -4.0;
  ASSERT_EQ(solver->Analyze(one, nullptr), LinearSolverStatus::kSuccess);
  ASSERT_EQ(solver->Factorize(&value, nullptr), LinearSolverStatus::kSuccess);
  Eigen::VectorXd x = Eigen::VectorXd::Constant(1, 2.0);
  ASSERT_EQ(solver->Solve(&x, nullptr), LinearSolverStatus::kSuccess);
  EXPECT_DOUBLE_EQ(x[0], -0.5);
  const double zero = 0.0;
  EXPECT_EQ(solver->Factorize(&zero, nullptr), LinearSolverStatus::kSingular);
}

std::string ParamName(const ::testing::TestParamInfo<Param>& info) {
  std::string name = std::string(ToString(std::get<0>(info.param))) + "_" +
                     ToString(std::get<1>(info.param)) + "_" +
                     ToString(std::get<2>(info.param));
  for (char& c : name) {
    if (c == '-') c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(
    AllBackendsAllOrderings,
    LinearSolverConformance,
    ::testing::Combine(::testing::ValuesIn(kAllLinearSolverTypes),
                       ::testing::ValuesIn(kAllOrderings),
                       ::testing::Values(FactorizationPrecision::kDouble)),
    ParamName);

// Single-precision LU refined in double must meet the same contract.
INSTANTIATE_TEST_SUITE_P(
    MumpsMixedPrecisionAllOrderings,
    LinearSolverConformance,
    ::testing::Combine(::testing::Values(LinearSolverType::kMumps),
                       ::testing::ValuesIn(kAllOrderings),
                       ::testing::Values(FactorizationPrecision::kMixed)),
    ParamName);

TEST(LinearSolverCreate, RejectsInvalidOptionsWithAMessage) {
  LinearSolverOptions options;
  options.workspace_relaxation_percent = -1;
  std::string message;
  EXPECT_EQ(LinearSolver::Create(options, &message), nullptr);
  EXPECT_NE(message.find("workspace_relaxation_percent"), std::string::npos)
      << message;
  options = LinearSolverOptions();
  options.null_pivot_threshold = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(LinearSolver::Create(options, nullptr), nullptr);
  options = LinearSolverOptions();
  options.max_workspace_retries = 100;
  EXPECT_NE(options.Validate(), "");
  EXPECT_EQ(LinearSolverOptions().Validate(), "");
}

TEST(LinearSolverStatusNames, AreDistinct) {
  const LinearSolverStatus all[] = {LinearSolverStatus::kSuccess,
                                    LinearSolverStatus::kSingular,
                                    LinearSolverStatus::kOutOfMemory,
                                    LinearSolverStatus::kInvalidInput,
                                    LinearSolverStatus::kNotReady,
                                    LinearSolverStatus::kUnavailable,
                                    LinearSolverStatus::kFailure};
  std::set<std::string> names;
  for (LinearSolverStatus s : all) names.insert(ToString(s));
  EXPECT_EQ(names.size(), std::size(all));
}

}  // namespace
}  // namespace fcsn::internal
