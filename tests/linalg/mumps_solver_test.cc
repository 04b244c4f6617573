// MUMPS-specific checks: the ordering MUMPS really uses (INFOG(7)), the METIS
// -> PERM_IN convention measured by fill, METIS vs AMD fill on a 3D grid,
// control parameters, null-pivot detection, workspace retries, and the
// mixed-precision factorization (single LU refined in double, with its
// fallbacks to double precision).
#include "linalg/mumps_solver.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

#include "linalg/ordering.h"
#include "linalg/stopwatch.h"
#include "test_matrices.h"

namespace fcsn::internal {
namespace {

using ::fcsn::testing::Arrowhead;
using ::fcsn::testing::BackwardError;
using ::fcsn::testing::ContactSaddlePoint;
using ::fcsn::testing::Laplacian3D;
using ::fcsn::testing::NearlyDependentRows;
using ::fcsn::testing::RandomUnsymmetric;
using ::fcsn::testing::TestSystem;
using ::fcsn::testing::ToEigen;

std::unique_ptr<MumpsSolver> MakeMumps(
    Ordering ordering,
    FactorizationPrecision precision = FactorizationPrecision::kDouble) {
  LinearSolverOptions options;
  options.ordering = ordering;
  options.precision = precision;
  std::string message;
  auto solver = MumpsSolver::Create(options, &message);
  EXPECT_NE(solver, nullptr) << message;
  return solver;
}

TEST(MumpsSolver, ReportsTheOrderingItActuallyUsed) {
  const TestSystem system = ContactSaddlePoint(4, 12, 0);
  const struct {
    Ordering requested;
    int icntl7;
    const char* used;
  } cases[] = {{Ordering::kMetis, 1, "metis"},
               {Ordering::kAmd, 0, "amd"},
               {Ordering::kScotch, 3, "scotch"}};
  for (const auto& c : cases) {
    auto solver = MakeMumps(c.requested);
    std::string message;
    ASSERT_EQ(solver->Analyze(system.pattern, &message),
              LinearSolverStatus::kSuccess)
        << message;
    EXPECT_EQ(solver->Icntl(7), c.icntl7) << ToString(c.requested);
    EXPECT_EQ(solver->stats().ordering_used, c.used) << ToString(c.requested);
    if (c.requested == Ordering::kMetis) {
      EXPECT_EQ(solver->Infog(7), 1);  // "ordering given by the user" (PERM_IN)
      EXPECT_GT(solver->stats().ordering_seconds, 0.0);
    }
  }
  auto automatic = MakeMumps(Ordering::kAuto);
  ASSERT_EQ(automatic->Analyze(system.pattern, nullptr),
            LinearSolverStatus::kSuccess);
  EXPECT_NE(automatic->stats().ordering_used, "unknown");
  EXPECT_NE(automatic->stats().ordering_used, "metis");
}

TEST(MumpsSolver, ControlParametersAreSetAsDocumented) {
  auto solver = MakeMumps(Ordering::kMetis);
  for (int i : {1, 2, 3, 4})
    EXPECT_EQ(solver->Icntl(i), 0) << "ICNTL(" << i << ")";
  EXPECT_EQ(solver->Icntl(5), 0);    // assembled
  EXPECT_EQ(solver->Icntl(18), 0);   // centralized
  EXPECT_EQ(solver->Icntl(14), 30);  // default relaxation
  EXPECT_EQ(solver->Icntl(24), 1);   // null-pivot detection
  EXPECT_EQ(solver->Icntl(0), 0);    // out of range
  EXPECT_EQ(solver->Infog(81), 0);
}

TEST(MumpsSolver, MetisIpermThroughPermInGivesTheExpectedFill) {
  // On a 12^3 grid, PERM_IN = iperm + 1 (iperm[i] = position of variable i)
  // must give nested-dissection fill: no worse than AMD. Passing perm instead
  // (the wrong convention: the variable at each position) scrambles the order
  // and multiplies the fill (measured: about 5x; the natural order gives 15x).
  const TestSystem grid = Laplacian3D(12);
  std::vector<int> perm, iperm;
  ASSERT_EQ(ComputeMetisOrdering(grid.pattern, &perm, &iperm, nullptr),
            LinearSolverStatus::kSuccess);
  auto right = MakeMumps(Ordering::kMetis);
  auto wrong = MakeMumps(Ordering::kMetis);
  auto amd = MakeMumps(Ordering::kAmd);
  ASSERT_EQ(right->AnalyzeWithOrdering(grid.pattern, iperm, nullptr),
            LinearSolverStatus::kSuccess);
  ASSERT_EQ(wrong->AnalyzeWithOrdering(grid.pattern, perm, nullptr),
            LinearSolverStatus::kSuccess);
  ASSERT_EQ(amd->Analyze(grid.pattern, nullptr), LinearSolverStatus::kSuccess);
  EXPECT_EQ(right->stats().ordering_used, "user");
  EXPECT_EQ(right->Infog(7), 1);
  const long long right_entries = right->stats().estimated_factor_entries;
  EXPECT_LE(right_entries, amd->stats().estimated_factor_entries);
  EXPECT_GE(wrong->stats().estimated_factor_entries, 3 * right_entries);

  // Analyze() with Ordering::kMetis uses exactly that convention, and the
  // numeric factorization (no delayed pivots on this diagonally dominant
  // matrix) matches the estimate.
  auto metis = MakeMumps(Ordering::kMetis);
  ASSERT_EQ(metis->Analyze(grid.pattern, nullptr),
            LinearSolverStatus::kSuccess);
  EXPECT_EQ(metis->stats().estimated_factor_entries, right_entries);
  ASSERT_EQ(metis->Factorize(grid.values.data(), nullptr),
            LinearSolverStatus::kSuccess);
  EXPECT_EQ(metis->stats().factor_entries, right_entries);
}

// A given ordering of a large pattern (n >= kBlockOrderingMinSize) is
// analysed by column counts (ICNTL(58) = 2), a smaller one by MUMPS' default
// (1, which keeps its bits); either analysis must predict the factors the
// numeric phase then builds and solve to round-off.
TEST(MumpsSolver, LargeGivenOrderingsAreAnalysedByColumnCounts) {
  for (const int k : {12, 28}) {  // n = 1728 and 21,952
    const TestSystem grid = Laplacian3D(k);
    auto solver = MakeMumps(Ordering::kMetis);
    std::string message;
    ASSERT_EQ(solver->Analyze(grid.pattern, &message),
              LinearSolverStatus::kSuccess)
        << message;
    const bool large = grid.pattern.n >= kBlockOrderingMinSize;
    EXPECT_EQ(solver->Icntl(58), large ? 2 : 1) << "n = " << grid.pattern.n;
    ASSERT_EQ(solver->Factorize(grid.values.data(), &message),
              LinearSolverStatus::kSuccess)
        << message;
    EXPECT_EQ(solver->stats().factor_entries,
              solver->stats().estimated_factor_entries);
    Eigen::VectorXd x = Eigen::VectorXd::Ones(grid.pattern.n);
    const Eigen::VectorXd b = x;
    ASSERT_EQ(solver->Solve(&x, &message), LinearSolverStatus::kSuccess);
    EXPECT_LT(BackwardError(ToEigen(grid.pattern, grid.values), x, b), 1e-14);
  }
}

TEST(MumpsSolver, RejectsAGivenOrderingThatIsNotAPermutation) {
  const TestSystem star = Arrowhead(10);
  auto solver = MakeMumps(Ordering::kMetis);
  std::string message;
  EXPECT_EQ(solver->AnalyzeWithOrdering(
                star.pattern, {0, 1, 2, 3, 4, 5, 6, 7, 8, 8}, &message),
            LinearSolverStatus::kInvalidInput);
  EXPECT_NE(message.find("permutation"), std::string::npos);
}

TEST(MumpsSolver, MetisFillOn3DGridIsNotWorseThanAmd) {
  // 37^3 = 50653 unknowns, 7-point stencil: nested dissection should beat
  // minimum degree. Only the analyses run (the estimates INFOG(20), RINFOG(1)
  // are exact for this diagonally dominant matrix, which needs no delayed
  // pivots), which keeps the test fast.
  const TestSystem grid = Laplacian3D(37);
  auto metis = MakeMumps(Ordering::kMetis);
  auto amd = MakeMumps(Ordering::kAmd);
  std::string message;
  ASSERT_EQ(metis->Analyze(grid.pattern, &message),
            LinearSolverStatus::kSuccess)
      << message;
  ASSERT_EQ(amd->Analyze(grid.pattern, &message), LinearSolverStatus::kSuccess)
      << message;
  const double metis_entries =
      static_cast<double>(metis->stats().estimated_factor_entries);
  const double amd_entries =
      static_cast<double>(amd->stats().estimated_factor_entries);
  RecordProperty("metis_factor_entries", std::to_string(metis_entries));
  RecordProperty("amd_factor_entries", std::to_string(amd_entries));
  RecordProperty("metis_flops", std::to_string(metis->stats().estimated_flops));
  RecordProperty("amd_flops", std::to_string(amd->stats().estimated_flops));
  EXPECT_EQ(metis->stats().ordering_used, "metis");
  EXPECT_LE(metis_entries, 1.1 * amd_entries);
  EXPECT_LE(metis->stats().estimated_flops, 1.1 * amd->stats().estimated_flops);
}

TEST(MumpsSolver, NullPivotThresholdFlagsRoundOffRankDeficiency) {
  // Row 40 := row 12 on a random matrix: singular, but round-off leaves a tiny
  // nonzero pivot that the default threshold (eps 1e-5 ||A||) may miss. A
  // relative threshold of 1e-10 catches it.
  TestSystem system = RandomUnsymmetric(150, 3, 0.2, 21);
  // Give rows 12 and 40 the same pattern by building both from row 12's
  // entries.
  std::vector<std::tuple<int, int, double>> triplets;
  for (int j = 0; j < system.pattern.n; ++j) {
    for (int p = system.pattern.col_ptr[j]; p < system.pattern.col_ptr[j + 1];
         ++p) {
      const int i = system.pattern.row_index[p];
      if (i == 40) continue;
      triplets.emplace_back(i, j, system.values[p]);
      if (i == 12) triplets.emplace_back(40, j, system.values[p] * 0.3);
    }
  }
  triplets.emplace_back(40, 40, 0.0);
  const TestSystem singular = ::fcsn::testing::FromTriplets(150, triplets);
  LinearSolverOptions options;
  options.precision = FactorizationPrecision::kDouble;
  options.null_pivot_threshold = 1e-10;
  auto solver = MumpsSolver::Create(options, nullptr);
  ASSERT_EQ(solver->Analyze(singular.pattern, nullptr),
            LinearSolverStatus::kSuccess);
  std::string message;
  EXPECT_EQ(solver->Factorize(singular.values.data(), &message),
            LinearSolverStatus::kSingular);
  EXPECT_NE(message.find("null pivot"), std::string::npos) << message;
  EXPECT_GT(solver->Infog(28), 0);
}

TEST(MumpsSolver, WorkspaceShortageIsRetriedWithALargerRelaxation) {
  // Half of the diagonal entries are zero and, with a given ordering, MUMPS
  // ignores ICNTL(6): numerical pivoting delays many pivots and the real fill
  // exceeds the analysis estimate (measured: 64k vs 40k entries), so without
  // relaxation the first factorizations fail with -9 and are retried.
  const TestSystem system = RandomUnsymmetric(500, 2, 0.5, 5);
  LinearSolverOptions options;
  options.workspace_relaxation_percent = 0;
  options.max_workspace_retries = 8;
  auto solver = MumpsSolver::Create(options, nullptr);
  ASSERT_EQ(solver->Analyze(system.pattern, nullptr),
            LinearSolverStatus::kSuccess);
  std::string message;
  ASSERT_EQ(solver->Factorize(system.values.data(), &message),
            LinearSolverStatus::kSuccess)
      << message;
  EXPECT_GE(solver->stats().workspace_retries, 1);
  EXPECT_GT(solver->Icntl(14), 0);
  Eigen::VectorXd b = Eigen::VectorXd::Ones(system.pattern.n);
  Eigen::VectorXd x = b;
  ASSERT_EQ(solver->Solve(&x, &message), LinearSolverStatus::kSuccess)
      << message;
  EXPECT_LE(BackwardError(ToEigen(system.pattern, system.values), x, b), 1e-12);

  // The enlarged relaxation is kept: refactorizing needs no new retry.
  const int retries = solver->stats().workspace_retries;
  ASSERT_EQ(solver->Factorize(system.values.data(), &message),
            LinearSolverStatus::kSuccess);
  EXPECT_EQ(solver->stats().workspace_retries, retries);

  // Without retries the shortage is reported, with the relaxation reached.
  options.max_workspace_retries = 0;
  auto no_retry = MumpsSolver::Create(options, nullptr);
  ASSERT_EQ(no_retry->Analyze(system.pattern, nullptr),
            LinearSolverStatus::kSuccess);
  EXPECT_EQ(no_retry->Factorize(system.values.data(), &message),
            LinearSolverStatus::kOutOfMemory);
  EXPECT_NE(message.find("ICNTL(14)"), std::string::npos) << message;
  Eigen::VectorXd y = b;
  EXPECT_EQ(no_retry->Solve(&y, nullptr), LinearSolverStatus::kNotReady);
}

// Factorizes and solves one right-hand side; returns the backward error.
double FactorizeAndSolve(MumpsSolver* solver,
                         const TestSystem& system,
                         unsigned seed) {
  std::string message;
  EXPECT_EQ(solver->Analyze(system.pattern, &message),
            LinearSolverStatus::kSuccess)
      << message;
  EXPECT_EQ(solver->Factorize(system.values.data(), &message),
            LinearSolverStatus::kSuccess)
      << message;
  std::srand(seed);
  const Eigen::VectorXd b = Eigen::VectorXd::Random(system.pattern.n);
  Eigen::VectorXd x = b;
  EXPECT_EQ(solver->Solve(&x, &message), LinearSolverStatus::kSuccess)
      << message;
  return BackwardError(ToEigen(system.pattern, system.values), x, b);
}

TEST(MumpsMixedPrecision, RefinedSolutionHasDoublePrecisionBackwardError) {
  const TestSystem system =
      ContactSaddlePoint(/*k=*/5, /*contacts=*/20, /*state_seed=*/1);
  auto solver = MakeMumps(Ordering::kMetis, FactorizationPrecision::kMixed);
  const double error = FactorizeAndSolve(solver.get(), system, 8);
  // LinearSolverOptions::refinement_tolerance, measured the same way.
  EXPECT_LE(error, LinearSolverOptions().refinement_tolerance);
  // One single-precision solve cannot reach 1e-14: the refinement ran.
  EXPECT_GE(solver->stats().refinement_steps, 2);
  EXPECT_EQ(solver->stats().precision_fallbacks, 0);
}

TEST(MumpsMixedPrecision, RefinementStopsAtTheCallersSufficientResidual) {
  // LinearSolver::Solve's sufficient_residual reaches the decorator: the
  // refinement stops once ||b - J x||_2 is within it, after fewer single
  // solves than the full one.
  const TestSystem system =
      ContactSaddlePoint(/*k=*/5, /*contacts=*/20, /*state_seed=*/1);
  auto solver = MakeMumps(Ordering::kMetis, FactorizationPrecision::kMixed);
  ASSERT_LE(FactorizeAndSolve(solver.get(), system, 8),
            LinearSolverOptions().refinement_tolerance);
  const int full_steps = solver->stats().refinement_steps;
  ASSERT_GE(full_steps, 2);
  const Eigen::SparseMatrix<double> J = ToEigen(system.pattern, system.values);
  const Eigen::VectorXd b = Eigen::VectorXd::Ones(system.pattern.n);
  const double sufficient = 1e-4 * b.norm();
  Eigen::VectorXd x = b;
  std::string message;
  ASSERT_EQ(solver->Solve(&x,
                          &message,
                          [&](const Eigen::VectorXd& r) {
                            return r.norm() <= sufficient;
                          }),
            LinearSolverStatus::kSuccess)
      << message;
  EXPECT_LT(solver->stats().refinement_steps - full_steps, full_steps);
  EXPECT_LE((b - J * x).norm(), sufficient);
  EXPECT_EQ(solver->stats().precision_fallbacks, 0);
}

TEST(MumpsMixedPrecision, IllConditionedMatrixFallsBackToDouble) {
  // cond ~ 1e9: a single-precision LU (eps 6e-8) is no preconditioner, the
  // refinement stalls, and the double factorization takes over.
  const TestSystem system = NearlyDependentRows(1e-9);
  auto solver = MakeMumps(Ordering::kMetis, FactorizationPrecision::kMixed);
  const double error = FactorizeAndSolve(solver.get(), system, 9);
  EXPECT_LE(error, 1e-12);
  EXPECT_EQ(solver->stats().precision_fallbacks, 1);
  // A well-conditioned matrix on the same pattern goes back to single.
  const TestSystem easy = NearlyDependentRows(1.0);
  std::string message;
  ASSERT_EQ(solver->Factorize(easy.values.data(), &message),
            LinearSolverStatus::kSuccess)
      << message;
  Eigen::VectorXd x = Eigen::VectorXd::Ones(easy.pattern.n);
  ASSERT_EQ(solver->Solve(&x, &message), LinearSolverStatus::kSuccess);
  EXPECT_EQ(solver->stats().precision_fallbacks, 1);
  EXPECT_LE(BackwardError(ToEigen(easy.pattern, easy.values),
                          x,
                          Eigen::VectorXd::Ones(easy.pattern.n)),
            LinearSolverOptions().refinement_tolerance);
}

TEST(MumpsMixedPrecision, SolveFallbackIsTimedOnceAsAFactorization) {
  // One refinement step cannot reach 1e-14 with single-precision factors
  // (eps 6e-8), so Solve() falls back: it refactorizes in double precision.
  // That refactorization counts in factorization_seconds only: counted in the
  // solve timer as well, the two timers would exceed the call's wall time.
  const TestSystem system = RandomUnsymmetric(300, 3, 0.2, 5);
  LinearSolverOptions options;
  options.precision = FactorizationPrecision::kMixed;
  options.max_refinement_steps = 1;
  auto solver = MumpsSolver::Create(options, nullptr);
  ASSERT_NE(solver, nullptr);
  std::string message;
  ASSERT_EQ(solver->Analyze(system.pattern, &message),
            LinearSolverStatus::kSuccess);
  ASSERT_EQ(solver->Factorize(system.values.data(), &message),
            LinearSolverStatus::kSuccess);
  ASSERT_EQ(solver->stats().precision_fallbacks, 0);
  const LinearSolverStats before = solver->stats();
  Eigen::VectorXd x = Eigen::VectorXd::Ones(system.pattern.n);
  const SteadyClock::time_point start = SteadyClock::now();
  ASSERT_EQ(solver->Solve(&x, &message), LinearSolverStatus::kSuccess)
      << message;
  const double wall = SecondsSince(start);
  EXPECT_EQ(solver->stats().precision_fallbacks, 1);
  EXPECT_EQ(solver->stats().refinement_steps, 1);
  EXPECT_EQ(solver->stats().factorizations, before.factorizations);
  const double factorization =
      solver->stats().factorization_seconds - before.factorization_seconds;
  const double solve = solver->stats().solve_seconds - before.solve_seconds;
  EXPECT_GT(factorization, 0.0);
  EXPECT_GE(solve, 0.0);
  EXPECT_LE(factorization + solve, wall);
}

TEST(MumpsMixedPrecision, RepeatedFallbacksStayInDoubleUntilReanalysis) {
  const TestSystem hard = NearlyDependentRows(1e-9);
  auto solver = MakeMumps(Ordering::kMetis, FactorizationPrecision::kMixed);
  std::string message;
  ASSERT_EQ(solver->Analyze(hard.pattern, &message),
            LinearSolverStatus::kSuccess);
  for (int k = 0; k < 4; ++k) {
    ASSERT_EQ(solver->Factorize(hard.values.data(), &message),
              LinearSolverStatus::kSuccess);
    Eigen::VectorXd x = Eigen::VectorXd::Ones(hard.pattern.n);
    ASSERT_EQ(solver->Solve(&x, &message), LinearSolverStatus::kSuccess);
  }
  // Two fallbacks, then double precision directly: no more refinement.
  EXPECT_EQ(solver->stats().precision_fallbacks, 2);
  const int steps = solver->stats().refinement_steps;
  Eigen::VectorXd x = Eigen::VectorXd::Ones(hard.pattern.n);
  ASSERT_EQ(solver->Factorize(hard.values.data(), &message),
            LinearSolverStatus::kSuccess);
  ASSERT_EQ(solver->Solve(&x, &message), LinearSolverStatus::kSuccess);
  EXPECT_EQ(solver->stats().refinement_steps, steps);
  // A new analysis starts in single precision again.
  const TestSystem easy = NearlyDependentRows(1.0);
  FactorizeAndSolve(solver.get(), easy, 3);
  EXPECT_GT(solver->stats().refinement_steps, steps);
  EXPECT_EQ(solver->stats().precision_fallbacks, 2);
}

TEST(MumpsMixedPrecision, ValuesOutsideTheFloatRangeUseDouble) {
  for (double scale : {1e40, 1e-40}) {
    TestSystem system = RandomUnsymmetric(120, 3, 0.2, 5);
    for (double& value : system.values) value *= scale;
    auto solver = MakeMumps(Ordering::kMetis, FactorizationPrecision::kMixed);
    EXPECT_LE(FactorizeAndSolve(solver.get(), system, 2), 1e-12) << scale;
    EXPECT_EQ(solver->stats().precision_fallbacks, 1) << scale;
    EXPECT_EQ(solver->stats().refinement_steps, 0) << scale;
  }
}

// Entries below the float range that are negligible next to the others (the
// 1e-38 round-off of LMGC90 files, or an equilibrated Newton system) do not
// force double precision: flushing them is below the cast's own rounding.
TEST(MumpsMixedPrecision, NegligibleTinyEntriesStayInSingle) {
  TestSystem system = RandomUnsymmetric(120, 3, 0.2, 5);
  for (size_t k = 0; k < system.values.size(); k += 7) system.values[k] = 4e-41;
  auto solver = MakeMumps(Ordering::kMetis, FactorizationPrecision::kMixed);
  EXPECT_LE(FactorizeAndSolve(solver.get(), system, 2),
            LinearSolverOptions().refinement_tolerance);
  EXPECT_EQ(solver->stats().precision_fallbacks, 0);
  EXPECT_GE(solver->stats().refinement_steps, 1);
}

TEST(MumpsMixedPrecision, SingularMatrixIsReportedNeverSolved) {
  // Exactly dependent rows: singular in both arithmetics. Either phase may
  // report it (the single factorization sees round-off, not zero), but never
  // a "solution".
  const TestSystem singular = NearlyDependentRows(0.0);
  LinearSolverOptions options;
  options.precision = FactorizationPrecision::kMixed;
  options.null_pivot_threshold = 1e-10;
  auto solver = MumpsSolver::Create(options, nullptr);
  std::string message;
  ASSERT_EQ(solver->Analyze(singular.pattern, &message),
            LinearSolverStatus::kSuccess);
  LinearSolverStatus status =
      solver->Factorize(singular.values.data(), &message);
  if (status == LinearSolverStatus::kSuccess) {
    Eigen::VectorXd x = Eigen::VectorXd::Ones(singular.pattern.n);
    status = solver->Solve(&x, &message);
  }
  EXPECT_EQ(status, LinearSolverStatus::kSingular) << message;
  EXPECT_FALSE(message.empty());
}

TEST(MumpsMixedPrecision, AutoChoosesSingleOnlyForLargeFactorizations) {
  // Small: the analysis estimates far below 1e7 flops, double precision.
  auto small = MakeMumps(Ordering::kMetis, FactorizationPrecision::kAuto);
  const TestSystem few = RandomUnsymmetric(120, 3, 0.2, 5);
  EXPECT_LE(FactorizeAndSolve(small.get(), few, 1), 1e-12);
  EXPECT_LT(small->stats().estimated_flops, 1e7);
  EXPECT_EQ(small->stats().refinement_steps, 0);
  // A 3D grid of 22^3 unknowns: above the threshold, refined single.
  auto large = MakeMumps(Ordering::kMetis, FactorizationPrecision::kAuto);
  const TestSystem grid = Laplacian3D(22);
  EXPECT_LE(FactorizeAndSolve(large.get(), grid, 2),
            LinearSolverOptions().refinement_tolerance);
  EXPECT_GE(large->stats().estimated_flops, 1e7);
  EXPECT_GT(large->stats().refinement_steps, 0);
  EXPECT_EQ(large->stats().precision_fallbacks, 0);
}

TEST(MumpsMixedPrecision, RefinementOptionsAreValidated) {
  LinearSolverOptions options;
  options.refinement_tolerance = 1e-20;
  EXPECT_NE(options.Validate().find("refinement_tolerance"), std::string::npos);
  options.refinement_tolerance = std::nan("");
  EXPECT_NE(options.Validate().find("refinement_tolerance"), std::string::npos);
  options = LinearSolverOptions();
  options.max_refinement_steps = 0;
  EXPECT_NE(options.Validate().find("max_refinement_steps"), std::string::npos);
  std::string message;
  EXPECT_EQ(MumpsSolver::Create(options, &message), nullptr);
  EXPECT_NE(message.find("max_refinement_steps"), std::string::npos);
  for (FactorizationPrecision p : kAllFactorizationPrecisions) {
    EXPECT_EQ(FactorizationPrecisionFromString(ToString(p)), p);
  }
  EXPECT_FALSE(FactorizationPrecisionFromString("quad").has_value());
}

}  // namespace
}  // namespace fcsn::internal
