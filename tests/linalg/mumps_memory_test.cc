// MUMPS' memory savers (LinearSolverOptions::low_rank_tolerance, out_of_core):
// block low-rank factors are smaller and still solve to about the tolerance
// (to full accuracy when the mixed-precision refinement drives them), the
// out-of-core factorization gives the in-core solution and leaves no file
// behind, also after a failure, and the options are validated.
#include <gtest/gtest.h>
#include <stdlib.h>  // mkdtemp

#include <cmath>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "linalg/mumps_solver.h"
#include "test_matrices.h"

namespace fcsn::internal {
namespace {

namespace fs = std::filesystem;
using ::fcsn::testing::BackwardError;
using ::fcsn::testing::Laplacian3D;
using ::fcsn::testing::NearlyDependentRows;
using ::fcsn::testing::TestSystem;
using ::fcsn::testing::ToEigen;

// 3D grid of 24^3 unknowns ordered by AMD: its largest fronts (~1100
// variables) are large enough for MUMPS' BLR blocking, so compression is
// observable (with METIS the fronts of this grid are not; they are from 32^3
// on, too slow for a unit test).
constexpr int kGrid = 24;
// BLR dropping tolerance of the tests (CNTL(7), on the scaled matrix).
constexpr double kLowRankTolerance = 1e-6;

// Analyses, factorizes and solves `system` with `options`; the solution of
// J x = (1, ..., 1) in *x, and the solver (still alive) returned.
std::unique_ptr<MumpsSolver> SolveOnes(const LinearSolverOptions& options,
                                       const TestSystem& system,
                                       Eigen::VectorXd* x) {
  std::string message;
  std::unique_ptr<MumpsSolver> solver = MumpsSolver::Create(options, &message);
  EXPECT_NE(solver, nullptr) << message;
  if (!solver) return nullptr;
  EXPECT_EQ(solver->Analyze(system.pattern, &message),
            LinearSolverStatus::kSuccess)
      << message;
  EXPECT_EQ(solver->Factorize(system.values.data(), &message),
            LinearSolverStatus::kSuccess)
      << message;
  *x = Eigen::VectorXd::Ones(system.pattern.n);
  EXPECT_EQ(solver->Solve(x, &message), LinearSolverStatus::kSuccess)
      << message;
  return solver;
}

// A fresh empty directory under the system temporary directory, removed by
// the destructor.
class TempParent {
 public:
  TempParent() {
    std::string pattern =
        (fs::temp_directory_path() / "fcsn-ooc-test-XXXXXX").string();
    path_ = mkdtemp(pattern.data()) ? pattern : "";
  }
  ~TempParent() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }
  // Regular files anywhere below the directory.
  int CountFiles() const {
    int files = 0;
    for (const auto& entry : fs::recursive_directory_iterator(path_)) {
      files += entry.is_regular_file() ? 1 : 0;
    }
    return files;
  }
  bool IsEmpty() const { return fs::is_empty(path_); }

 private:
  std::string path_;
};

TEST(MumpsLowRank, CompressesTheFactorsAndSolvesToAboutTheTolerance) {
  const TestSystem system = Laplacian3D(kGrid);
  const auto J = ToEigen(system.pattern, system.values);
  const Eigen::VectorXd b = Eigen::VectorXd::Ones(system.pattern.n);
  LinearSolverOptions options;
  options.ordering = Ordering::kAmd;
  options.precision = FactorizationPrecision::kDouble;
  Eigen::VectorXd exact, approximate;
  auto full_rank = SolveOnes(options, system, &exact);
  options.low_rank_tolerance = kLowRankTolerance;
  auto low_rank = SolveOnes(options, system, &approximate);
  ASSERT_TRUE(full_rank && low_rank);
  EXPECT_EQ(full_rank->Icntl(35), 0);
  EXPECT_EQ(low_rank->Icntl(35), 2);
  const LinearSolverStats& fr = full_rank->stats();
  const LinearSolverStats& lr = low_rank->stats();
  // Without BLR the compressed counts are the full-rank ones.
  EXPECT_EQ(fr.compressed_factor_entries, fr.factor_entries);
  EXPECT_DOUBLE_EQ(fr.last_factorization_effective_flops,
                   fr.last_factorization_flops);
  // With BLR: the same full-rank reference, fewer stored entries and flops.
  EXPECT_EQ(lr.factor_entries, fr.factor_entries);
  EXPECT_LT(lr.compressed_factor_entries, lr.factor_entries);
  EXPECT_LT(lr.last_factorization_effective_flops, lr.last_factorization_flops);
  EXPECT_GT(lr.estimated_memory_mb, 0.0);
  // Memory is reported; at this size BLR's workspace outweighs its savings
  // (60 MB against 50 MB full-rank), so no ordering is asserted.
  EXPECT_GT(lr.factorization_memory_mb, 0.0);
  EXPECT_GT(fr.factorization_memory_mb, 0.0);
  // The exact LU is accurate to round-off; the BLR one to a modest multiple
  // of the dropping tolerance (the grid operator is well conditioned), and
  // it is not exact (the compression did drop something).
  EXPECT_LT(BackwardError(J, exact, b), 1e-14);
  const double blr_error = BackwardError(J, approximate, b);
  EXPECT_LT(blr_error, 100 * kLowRankTolerance);
  EXPECT_GT(blr_error, 1e-14);
}

TEST(MumpsLowRank, MixedPrecisionRefinesTheLowRankSolveToFullAccuracy) {
  const TestSystem system = Laplacian3D(kGrid);
  LinearSolverOptions options;
  options.ordering = Ordering::kAmd;
  options.precision = FactorizationPrecision::kMixed;
  options.low_rank_tolerance = kLowRankTolerance;
  Eigen::VectorXd x;
  auto solver = SolveOnes(options, system, &x);
  ASSERT_TRUE(solver);
  EXPECT_LT(solver->stats().compressed_factor_entries,
            solver->stats().factor_entries);
  // Residuals in double against the exact J: refined, not fallen back.
  EXPECT_EQ(solver->stats().precision_fallbacks, 0);
  EXPECT_GE(solver->stats().refinement_steps, 2);
  EXPECT_LE(BackwardError(ToEigen(system.pattern, system.values),
                          x,
                          Eigen::VectorXd::Ones(system.pattern.n)),
            options.refinement_tolerance);
}

TEST(MumpsOutOfCore, SolvesLikeInCoreAndRemovesItsFiles) {
  TempParent parent;
  ASSERT_FALSE(parent.path().empty());
  const TestSystem system = Laplacian3D(12);
  LinearSolverOptions options;
  options.precision = FactorizationPrecision::kDouble;
  Eigen::VectorXd in_core, out_of_core;
  auto reference = SolveOnes(options, system, &in_core);
  options.out_of_core = true;
  options.out_of_core_directory = parent.path();
  {
    auto solver = SolveOnes(options, system, &out_of_core);
    ASSERT_TRUE(solver && reference);
    EXPECT_EQ(solver->Icntl(22), 1);
    // The factors are on disk while the solver lives.
    EXPECT_GT(parent.CountFiles(), 0);
    EXPECT_GT(solver->stats().out_of_core_disk_mb, 0.0);
    EXPECT_EQ(reference->stats().out_of_core_disk_mb, 0.0);
    EXPECT_EQ(solver->stats().factor_entries,
              reference->stats().factor_entries);
    // Same factorization, only stored elsewhere: the same solution up to
    // round-off in the order of the solves' operations.
    EXPECT_LE((out_of_core - in_core).lpNorm<Eigen::Infinity>(),
              1e-13 * in_core.lpNorm<Eigen::Infinity>());
  }
  EXPECT_TRUE(parent.IsEmpty());
}

TEST(MumpsOutOfCore, RemovesItsFilesAfterAFailedFactorization) {
  TempParent parent;
  ASSERT_FALSE(parent.path().empty());
  LinearSolverOptions options;
  options.precision = FactorizationPrecision::kDouble;
  options.out_of_core = true;
  options.out_of_core_directory = parent.path();
  {
    const TestSystem regular = Laplacian3D(8);
    const TestSystem singular = NearlyDependentRows(0.0);
    std::string message;
    auto solver = MumpsSolver::Create(options, &message);
    ASSERT_NE(solver, nullptr) << message;
    // Factors on disk first, then a singular matrix on the next pattern.
    ASSERT_EQ(solver->Analyze(regular.pattern, &message),
              LinearSolverStatus::kSuccess);
    ASSERT_EQ(solver->Factorize(regular.values.data(), &message),
              LinearSolverStatus::kSuccess);
    EXPECT_GT(parent.CountFiles(), 0);
    ASSERT_EQ(solver->Analyze(singular.pattern, &message),
              LinearSolverStatus::kSuccess);
    EXPECT_EQ(solver->Factorize(singular.values.data(), &message),
              LinearSolverStatus::kSingular);
  }
  EXPECT_TRUE(parent.IsEmpty());
}

TEST(MumpsOutOfCore, AMissingDirectoryIsRejectedAtCreation) {
  LinearSolverOptions options;
  options.out_of_core = true;
  options.out_of_core_directory = "/nonexistent-fcsn-directory/ooc";
  std::string message;
  EXPECT_EQ(MumpsSolver::Create(options, &message), nullptr);
  EXPECT_NE(message.find("out_of_core_directory"), std::string::npos)
      << message;
}

TEST(MemoryOptions, InvalidValuesAreRejectedWithASentence) {
  for (double tolerance : {-1e-8, 1.0, std::nan("")}) {
    LinearSolverOptions options;
    options.low_rank_tolerance = tolerance;
    EXPECT_NE(options.Validate().find("low_rank_tolerance"), std::string::npos)
        << tolerance;
    std::string message;
    EXPECT_EQ(MumpsSolver::Create(options, &message), nullptr);
    EXPECT_NE(message.find("low_rank_tolerance"), std::string::npos);
  }
  LinearSolverOptions options;
  options.low_rank_tolerance = 1e-8;
  EXPECT_EQ(options.Validate(), "");
  options.out_of_core_directory =
      std::string(LinearSolverOptions::kMaxOutOfCoreDirectoryLength + 1, 'd');
  EXPECT_NE(options.Validate().find("out_of_core_directory"),
            std::string::npos);
}

}  // namespace
}  // namespace fcsn::internal
