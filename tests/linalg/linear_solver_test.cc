// Conformance suite: every LinearSolver backend (MUMPS with every ordering, in
// both factorization precisions) must pass the same numerical checks
// (house_style.md §7.11): correct solves on unsymmetric systems with zero
// diagonal entries and on contact saddle-point matrices, refactorization on a
// fixed pattern without a new analysis, singular matrices reported as
// kSingular. The argument, state and counter checks the LinearSolver base does
// for every backend are in linear_solver_base_test.cc.
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

TEST_P(LinearSolverConformance, OneByOneSystem) {
  auto solver = MakeSolver();
  ASSERT_NE(solver, nullptr);
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

// The ordering is part of the name only for MUMPS: the other backends ignore
// it.
std::string ParamName(const ::testing::TestParamInfo<Param>& info) {
  const LinearSolverType type = std::get<0>(info.param);
  std::string name = ToString(type);
  if (type == LinearSolverType::kMumps) {
    name += std::string("_") + ToString(std::get<1>(info.param));
  }
  name += std::string("_") + ToString(std::get<2>(info.param));
  for (char& c : name) {
    if (c == '-') c = '_';
  }
  return name;
}

// MUMPS with every ordering, in double precision and in single precision
// refined in double (which must meet the same contract).
INSTANTIATE_TEST_SUITE_P(
    MumpsAllOrderings,
    LinearSolverConformance,
    ::testing::Combine(::testing::Values(LinearSolverType::kMumps),
                       ::testing::ValuesIn(kAllOrderings),
                       ::testing::Values(FactorizationPrecision::kDouble,
                                         FactorizationPrecision::kMixed)),
    ParamName);

// Eigen SparseLU (always COLAMD) and the dense LU ignore the ordering and the
// precision: one instance each.
INSTANTIATE_TEST_SUITE_P(
    OrderingFreeBackends,
    LinearSolverConformance,
    ::testing::Combine(::testing::Values(LinearSolverType::kEigenLU,
                                         LinearSolverType::kDense),
                       ::testing::Values(Ordering::kMetis),
                       ::testing::Values(FactorizationPrecision::kDouble)),
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
