// LinearSolver::FactorizeSymmetric (MUMPS' LDL^T, SYM = 2, on the lower
// triangle of the analysed pattern, linalg/mumps_symmetric.h): solves a
// symmetric indefinite saddle-point system to double-precision accuracy in
// every precision mode with about half the LU's flops; refuses values that
// are not exactly symmetric; hands over to the LU at the next Factorize();
// follows a new analysis; and is unavailable in the other backends.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "linalg/linear_solver.h"
#include "linalg/mumps_symmetric.h"
#include "test_matrices.h"

namespace fcsn::internal {
namespace {

using ::fcsn::testing::BackwardError;
using ::fcsn::testing::FromTriplets;
using ::fcsn::testing::TestSystem;
using ::fcsn::testing::ToEigen;

// [[M, -H], [-H^T, 0]]: M the SPD 7-point operator (6.5, -1) of a k x k x k
// grid (nv = k^3), H with `contacts` columns of two entries each; the contact
// diagonal kept as explicit zeros (the slots of J's B blocks).
TestSystem Saddle(int k, int contacts) {
  const int nv = k * k * k;
  std::vector<std::tuple<int, int, double>> t;
  for (int i = 0; i < nv; ++i) {
    t.emplace_back(i, i, 6.5);
    for (int step : {1, k, k * k}) {
      // Neighbours along x, y, z that stay in the grid.
      const bool inside = (step == 1 ? i % k : (i / step) % k) + 1 < k;
      if (!inside) continue;
      t.emplace_back(i, i + step, -1.0);
      t.emplace_back(i + step, i, -1.0);
    }
  }
  for (int c = 0; c < contacts; ++c) {
    const int row = nv + c;
    for (int j = 0; j < 2; ++j) {
      const int dof = (37 * c + 11 * j) % nv;
      const double h = 1.0 + 0.1 * ((c + j) % 5);
      t.emplace_back(dof, row, -h);
      t.emplace_back(row, dof, -h);
    }
    t.emplace_back(row, row, 0.0);
  }
  return FromTriplets(nv + contacts, t);
}

std::unique_ptr<LinearSolver> Make(LinearSolverType type,
                                   FactorizationPrecision precision) {
  LinearSolverOptions options;
  options.type = type;
  options.precision = precision;
  std::string message;
  auto solver = LinearSolver::Create(options, &message);
  EXPECT_NE(solver, nullptr) << message;
  return solver;
}

double SolveError(const TestSystem& system, LinearSolver* solver) {
  const Eigen::VectorXd b =
      Eigen::VectorXd::LinSpaced(system.pattern.n, -1.0, 2.0);
  Eigen::VectorXd x = b;
  std::string message;
  EXPECT_EQ(solver->Solve(&x, &message), LinearSolverStatus::kSuccess)
      << message;
  return BackwardError(ToEigen(system.pattern, system.values), x, b);
}

class SymmetricFactorizationTest
    : public ::testing::TestWithParam<FactorizationPrecision> {};

TEST_P(SymmetricFactorizationTest, SolvesWithAboutHalfTheFlops) {
  const TestSystem system = Saddle(12, 200);
  auto solver = Make(LinearSolverType::kMumps, GetParam());
  std::string message;
  ASSERT_EQ(solver->Analyze(system.pattern, &message),
            LinearSolverStatus::kSuccess)
      << message;
  ASSERT_EQ(solver->FactorizeSymmetric(system.values.data(), &message),
            LinearSolverStatus::kSuccess)
      << message;
  EXPECT_LT(SolveError(system, solver.get()), 1e-13);
  const double ldlt_flops = solver->stats().last_factorization_flops;
  // The LU of the same matrix on the same analysis, then LDL^T again.
  ASSERT_EQ(solver->Factorize(system.values.data(), &message),
            LinearSolverStatus::kSuccess);
  EXPECT_LT(SolveError(system, solver.get()), 1e-13);
  EXPECT_LT(ldlt_flops, 0.75 * solver->stats().last_factorization_flops);
  ASSERT_EQ(solver->FactorizeSymmetric(system.values.data(), &message),
            LinearSolverStatus::kSuccess);
  EXPECT_LT(SolveError(system, solver.get()), 1e-13);
  EXPECT_EQ(solver->stats().factorizations, 3);
}

TEST_P(SymmetricFactorizationTest, TheNextFactorizeUsesTheLu) {
  TestSystem system = Saddle(7, 40);
  auto solver = Make(LinearSolverType::kMumps, GetParam());
  std::string message;
  ASSERT_EQ(solver->Analyze(system.pattern, &message),
            LinearSolverStatus::kSuccess);
  ASSERT_EQ(solver->FactorizeSymmetric(system.values.data(), &message),
            LinearSolverStatus::kSuccess);
  // Unsymmetric values: the contact rows scaled by 3 (a J with rho = 3).
  for (int j = 0; j < system.pattern.n; ++j) {
    for (int p = system.pattern.col_ptr[j]; p < system.pattern.col_ptr[j + 1];
         ++p) {
      if (system.pattern.row_index[p] >= 343) system.values[p] *= 3.0;
    }
  }
  EXPECT_EQ(solver->FactorizeSymmetric(system.values.data(), &message),
            LinearSolverStatus::kInvalidInput);
  EXPECT_NE(message.find("symmetric"), std::string::npos) << message;
  Eigen::VectorXd x = Eigen::VectorXd::Ones(system.pattern.n);
  EXPECT_EQ(solver->Solve(&x, &message), LinearSolverStatus::kNotReady);
  ASSERT_EQ(solver->Factorize(system.values.data(), &message),
            LinearSolverStatus::kSuccess)
      << message;
  EXPECT_LT(SolveError(system, solver.get()), 1e-13);
}

TEST_P(SymmetricFactorizationTest, FollowsANewAnalysis) {
  auto solver = Make(LinearSolverType::kMumps, GetParam());
  std::string message;
  for (int k : {6, 7}) {
    const TestSystem system = Saddle(k, 30);
    ASSERT_EQ(solver->Analyze(system.pattern, &message),
              LinearSolverStatus::kSuccess);
    ASSERT_EQ(solver->FactorizeSymmetric(system.values.data(), &message),
              LinearSolverStatus::kSuccess)
        << message;
    EXPECT_LT(SolveError(system, solver.get()), 1e-13) << k;
  }
}

// SparsityPattern::symmetric_first: Analyze() only orders; the LDL^T's
// analysis gives the estimates; the LU is analysed at its first Factorize(),
// as analysis time (reanalysis_seconds) of the same analysis.
TEST_P(SymmetricFactorizationTest, SymmetricFirstPostponesTheLuAnalysis) {
  TestSystem system = Saddle(12, 200);
  system.pattern.symmetric_first = true;
  auto solver = Make(LinearSolverType::kMumps, GetParam());
  std::string message;
  ASSERT_EQ(solver->Analyze(system.pattern, &message),
            LinearSolverStatus::kSuccess)
      << message;
  EXPECT_EQ(solver->stats().estimated_flops, 0.0);
  EXPECT_EQ(solver->stats().ordering_used, "metis");
  ASSERT_EQ(solver->FactorizeSymmetric(system.values.data(), &message),
            LinearSolverStatus::kSuccess)
      << message;
  EXPECT_LT(SolveError(system, solver.get()), 1e-13);
  const double ldlt_estimate = solver->stats().estimated_flops;
  EXPECT_GT(ldlt_estimate, 0.0);
  EXPECT_GT(solver->stats().estimated_memory_mb, 0.0);
  EXPECT_EQ(solver->stats().reanalysis_seconds, 0.0);
  ASSERT_EQ(solver->Factorize(system.values.data(), &message),
            LinearSolverStatus::kSuccess)
      << message;
  EXPECT_LT(SolveError(system, solver.get()), 1e-13);
  EXPECT_GT(solver->stats().estimated_flops, 1.3 * ldlt_estimate);
  EXPECT_GT(solver->stats().reanalysis_seconds, 0.0);
  EXPECT_EQ(solver->stats().analyses, 1);
  EXPECT_EQ(solver->stats().reanalyses, 0);
  // Both factors stay usable in turn, with no analysis more.
  ASSERT_EQ(solver->FactorizeSymmetric(system.values.data(), &message),
            LinearSolverStatus::kSuccess);
  EXPECT_LT(SolveError(system, solver.get()), 1e-13);
}

TEST_P(SymmetricFactorizationTest, SymmetricFirstStillFactorizesTheLuFirst) {
  TestSystem system = Saddle(7, 40);
  system.pattern.symmetric_first = true;
  auto solver = Make(LinearSolverType::kMumps, GetParam());
  std::string message;
  ASSERT_EQ(solver->Analyze(system.pattern, &message),
            LinearSolverStatus::kSuccess);
  ASSERT_EQ(solver->Factorize(system.values.data(), &message),
            LinearSolverStatus::kSuccess)
      << message;
  EXPECT_LT(SolveError(system, solver.get()), 1e-13);
  EXPECT_GT(solver->stats().estimated_flops, 0.0);
  ASSERT_EQ(solver->FactorizeSymmetric(system.values.data(), &message),
            LinearSolverStatus::kSuccess)
      << message;
  EXPECT_LT(SolveError(system, solver.get()), 1e-13);
}

INSTANTIATE_TEST_SUITE_P(Precisions,
                         SymmetricFactorizationTest,
                         ::testing::Values(FactorizationPrecision::kDouble,
                                           FactorizationPrecision::kMixed,
                                           FactorizationPrecision::kAuto));

TEST(SymmetricFactorization, AnEntryWithoutMirrorMustBeZero) {
  // Column 0 holds (1, 0) = 2, column 1 has no (0, 1): symmetric only if 0.
  TestSystem system = FromTriplets(2, {{0, 0, 3.0}, {1, 0, 0.0}, {1, 1, 5.0}});
  auto solver = Make(LinearSolverType::kMumps, FactorizationPrecision::kDouble);
  std::string message;
  ASSERT_EQ(solver->Analyze(system.pattern, &message),
            LinearSolverStatus::kSuccess);
  EXPECT_EQ(solver->FactorizeSymmetric(system.values.data(), &message),
            LinearSolverStatus::kSuccess)
      << message;
  system.values[1] = 2.0;
  EXPECT_EQ(solver->FactorizeSymmetric(system.values.data(), &message),
            LinearSolverStatus::kInvalidInput);
}

// BuildSymmetricInput's one-pass mirror search against the definition (a
// search of column i for row j), on random patterns with and without mirrors.
TEST(SymmetricFactorization, InputMatchesTheDefinitionOnRandomPatterns) {
  std::mt19937 random(7);
  for (int trial = 0; trial < 20; ++trial) {
    const int n = 1 + trial * 3;
    SparsityPattern pattern;
    pattern.n = n;
    pattern.col_ptr.push_back(0);
    std::bernoulli_distribution stored(trial % 2 == 0 ? 0.3 : 0.7);
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) {
        if (i == j || stored(random)) pattern.row_index.push_back(i);
      }
      pattern.col_ptr.push_back(static_cast<int>(pattern.row_index.size()));
    }
    MumpsAnalysisInput unsymmetric;
    unsymmetric.perm_in.resize(n);
    SymmetricInput built;
    BuildSymmetricInput(pattern, unsymmetric, &built);
    std::vector<int> irn, jcn, slots, upper, mirrors;
    for (int j = 0; j < n; ++j) {
      for (int p = pattern.col_ptr[j]; p < pattern.col_ptr[j + 1]; ++p) {
        const int i = pattern.row_index[p];
        int mirror = -1;
        for (int q = pattern.col_ptr[i]; q < pattern.col_ptr[i + 1]; ++q) {
          if (pattern.row_index[q] == j) mirror = q;
        }
        if (i >= j) {
          irn.push_back(i + 1);
          jcn.push_back(j + 1);
          slots.push_back(p);
          if (i > j && mirror < 0) {
            upper.push_back(p);
            mirrors.push_back(-1);
          }
        } else {
          upper.push_back(p);
          mirrors.push_back(mirror);
        }
      }
    }
    EXPECT_EQ(built.input.irn, irn) << trial;
    EXPECT_EQ(built.input.jcn, jcn) << trial;
    EXPECT_EQ(built.input.value_slots, slots) << trial;
    EXPECT_EQ(built.upper_slots, upper) << trial;
    EXPECT_EQ(built.mirror_slots, mirrors) << trial;
    EXPECT_EQ(built.input.n, n);
    EXPECT_TRUE(built.input.symmetric);
  }
}

TEST(SymmetricFactorization, UnavailableInTheOtherBackends) {
  const TestSystem system = Saddle(4, 10);
  for (LinearSolverType type :
       {LinearSolverType::kEigenLU, LinearSolverType::kDense}) {
    auto solver = Make(type, FactorizationPrecision::kDouble);
    std::string message;
    ASSERT_EQ(solver->Analyze(system.pattern, &message),
              LinearSolverStatus::kSuccess);
    EXPECT_EQ(solver->FactorizeSymmetric(system.values.data(), &message),
              LinearSolverStatus::kUnavailable);
    EXPECT_FALSE(message.empty());
    ASSERT_EQ(solver->Factorize(system.values.data(), &message),
              LinearSolverStatus::kSuccess);
    EXPECT_LT(SolveError(system, solver.get()), 1e-12);
  }
}

}  // namespace
}  // namespace fcsn::internal
