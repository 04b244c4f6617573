// The mixed-precision decorator (linalg/mixed_precision.h) on dense
// stand-ins for the single- and double-precision factorizations, without
// MUMPS: the refinement reaches double-precision accuracy, each fallback path
// (unrepresentable values, failed single factorization, stalled refinement)
// is taken and counted once, and repeated fallbacks stay in double precision
// until the next analysis.
#include "linalg/mixed_precision.h"

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <cstdlib>
#include <limits>
#include <optional>

#include "test_matrices.h"

namespace fcsn::internal {
namespace {

using ::fcsn::testing::BackwardError;
using ::fcsn::testing::RandomUnsymmetric;
using ::fcsn::testing::TestSystem;
using ::fcsn::testing::ToEigen;

// Dense LU in arithmetic Real of the values on `pattern`, counting its calls.
// `forced` makes the next factorizations fail with that status;
// `solve_scale` multiplies every solution, turning the factors into a bad
// preconditioner (the refinement x += 3 J^-1 r diverges).
template <typename Real>
class DenseFactorization final : public NumericFactorization {
 public:
  using Matrix = Eigen::Matrix<Real, Eigen::Dynamic, Eigen::Dynamic>;
  using Vector = Eigen::Matrix<Real, Eigen::Dynamic, 1>;

  explicit DenseFactorization(const SparsityPattern* pattern)
      : pattern_(pattern) {}

  LinearSolverStatus Factorize(const double* values,
                               std::string* message) override {
    ++factorizations;
    factorized_ = false;
    if (forced) return linalg_detail::Report(*forced, "forced", message);
    const SparsityPattern& p = *pattern_;
    Matrix J = Matrix::Zero(p.n, p.n);
    for (int j = 0; j < p.n; ++j) {
      for (int q = p.col_ptr[j]; q < p.col_ptr[j + 1]; ++q) {
        J(p.row_index[q], j) = static_cast<Real>(values[q]);
      }
    }
    lu_.compute(J);
    if (!(lu_.matrixLU().diagonal().cwiseAbs().minCoeff() > Real(0))) {
      return linalg_detail::Report(
          LinearSolverStatus::kSingular, "zero pivot", message);
    }
    factorized_ = true;
    return LinearSolverStatus::kSuccess;
  }
  LinearSolverStatus Solve(Eigen::VectorXd* rhs,
                           std::string* /*message*/) override {
    ++solves;
    const Vector x = lu_.solve(rhs->cast<Real>());
    *rhs = solve_scale * x.template cast<double>();
    return LinearSolverStatus::kSuccess;
  }
  bool factorized() const override { return factorized_; }

  int factorizations = 0, solves = 0;
  std::optional<LinearSolverStatus> forced;
  double solve_scale = 1.0;

 private:
  const SparsityPattern* pattern_;
  Eigen::PartialPivLU<Matrix> lu_;
  bool factorized_ = false;
};

class MixedPrecisionTest : public ::testing::Test {
 protected:
  // The decorator around fresh stand-ins, analysed for `system`.
  void SetUpFor(const TestSystem& system) {
    system_ = system;
    low_.emplace(&system_.pattern);
    high_.emplace(&system_.pattern);
    mixed_.emplace(LinearSolverOptions(), &*low_, &*high_);
    mixed_->Reset(&system_.pattern);
  }
  // Solves J x = b for a random b; returns the backward error of x.
  double SolveRandom(unsigned seed) {
    std::srand(seed);
    const Eigen::VectorXd b = Eigen::VectorXd::Random(system_.pattern.n);
    Eigen::VectorXd x = b;
    std::string message;
    EXPECT_EQ(mixed_->Solve(&x, &message), LinearSolverStatus::kSuccess)
        << message;
    return BackwardError(ToEigen(system_.pattern, system_.values), x, b);
  }
  LinearSolverStatus Factorize() {
    std::string message;
    return mixed_->Factorize(system_.values.data(), &message);
  }

  const double tolerance_ = LinearSolverOptions().refinement_tolerance;
  TestSystem system_;
  std::optional<DenseFactorization<float>> low_;
  std::optional<DenseFactorization<double>> high_;
  std::optional<MixedPrecisionFactorization> mixed_;
};

TEST_F(MixedPrecisionTest, RefinementReachesDoublePrecisionAccuracy) {
  SetUpFor(RandomUnsymmetric(120, 3, 0.2, 5));
  ASSERT_EQ(Factorize(), LinearSolverStatus::kSuccess);
  EXPECT_TRUE(mixed_->uses_low());
  EXPECT_LE(SolveRandom(1), tolerance_);
  // One single-precision solve (eps 6e-8) cannot reach 1e-14.
  EXPECT_GE(mixed_->refinement_steps(), 2);
  EXPECT_EQ(low_->solves, mixed_->refinement_steps());
  EXPECT_EQ(mixed_->precision_fallbacks(), 0);
  EXPECT_EQ(high_->factorizations, 0);
  EXPECT_EQ(mixed_->refactorization_seconds(), 0.0);
}

TEST_F(MixedPrecisionTest, RefinementStopsAtTheCallersSufficientResidual) {
  SetUpFor(RandomUnsymmetric(120, 3, 0.2, 5));
  ASSERT_EQ(Factorize(), LinearSolverStatus::kSuccess);
  const Eigen::SparseMatrix<double> J =
      ToEigen(system_.pattern, system_.values);
  std::srand(3);
  const Eigen::VectorXd b = Eigen::VectorXd::Random(system_.pattern.n);
  std::string message;
  // Full refinement: the steps it takes, and the residual of each prefix.
  Eigen::VectorXd full = b;
  ASSERT_EQ(mixed_->Solve(&full, &message), LinearSolverStatus::kSuccess);
  const int full_steps = mixed_->refinement_steps();
  ASSERT_GE(full_steps, 2);
  // A single-precision solve leaves ||r|| ~ 1e-6 ||b||: asking for 1e-3 ||b||
  // stops after it, with the residual within what was asked.
  Eigen::VectorXd x = b;
  const double sufficient = 1e-3 * b.norm();
  const ResidualTest test = [&](const Eigen::VectorXd& r) {
    return r.norm() <= sufficient;
  };
  ASSERT_EQ(mixed_->Solve(&x, &test, &message), LinearSolverStatus::kSuccess);
  EXPECT_EQ(mixed_->refinement_steps() - full_steps, 1);
  EXPECT_LE((b - J * x).norm(), sufficient);
  EXPECT_GT(BackwardError(J, x, b), tolerance_);
  // No test: the full refinement.
  x = b;
  ASSERT_EQ(mixed_->Solve(&x, nullptr, &message), LinearSolverStatus::kSuccess);
  EXPECT_EQ(mixed_->refinement_steps() - full_steps - 1, full_steps);
  EXPECT_LE(BackwardError(J, x, b), tolerance_);
  // A test that is never true changes nothing either: the backward-error
  // target stops the refinement; the test saw every residual before that.
  int calls = 0;
  const ResidualTest never = [&](const Eigen::VectorXd&) {
    ++calls;
    return false;
  };
  x = b;
  ASSERT_EQ(mixed_->Solve(&x, &never, &message), LinearSolverStatus::kSuccess);
  EXPECT_EQ(calls, full_steps - 1);
  EXPECT_EQ(mixed_->refinement_steps() - 2 * full_steps - 1, full_steps);
  EXPECT_EQ(mixed_->precision_fallbacks(), 0);
}

TEST_F(MixedPrecisionTest, UnrefinedSolveIsOneSinglePrecisionSolve) {
  SetUpFor(RandomUnsymmetric(120, 3, 0.2, 5));
  ASSERT_EQ(Factorize(), LinearSolverStatus::kSuccess);
  std::srand(9);
  const Eigen::VectorXd b = Eigen::VectorXd::Random(system_.pattern.n);
  Eigen::VectorXd x = b;
  std::string message;
  ASSERT_EQ(mixed_->SolveUnrefined(&x, &message), LinearSolverStatus::kSuccess);
  EXPECT_EQ(low_->solves, 1);
  EXPECT_EQ(mixed_->refinement_steps(), 0);
  // Single-precision accuracy (eps 6e-8), not the refined 1e-14.
  const double error =
      BackwardError(ToEigen(system_.pattern, system_.values), x, b);
  EXPECT_GT(error, tolerance_);
  EXPECT_LE(error, 1e-5);
  // With the double factors (after a fallback) it is their solve.
  low_->forced = LinearSolverStatus::kSingular;
  ASSERT_EQ(Factorize(), LinearSolverStatus::kSuccess);
  x = b;
  ASSERT_EQ(mixed_->SolveUnrefined(&x, &message), LinearSolverStatus::kSuccess);
  EXPECT_EQ(high_->solves, 1);
  EXPECT_LE(BackwardError(ToEigen(system_.pattern, system_.values), x, b),
            1e-12);
}

TEST_F(MixedPrecisionTest, StalledRefinementRefactorizesInDoubleOnce) {
  SetUpFor(RandomUnsymmetric(120, 3, 0.2, 5));
  low_->solve_scale = 3.0;
  ASSERT_EQ(Factorize(), LinearSolverStatus::kSuccess);
  EXPECT_LE(SolveRandom(2), 1e-12);
  // Step 1 triples the residual (2 ||b|| -> 4 ||b||): stalled after 2 steps.
  EXPECT_EQ(mixed_->refinement_steps(), 2);
  EXPECT_EQ(mixed_->precision_fallbacks(), 1);
  EXPECT_EQ(high_->factorizations, 1);
  EXPECT_EQ(high_->solves, 1);
  EXPECT_GT(mixed_->refactorization_seconds(), 0.0);
  EXPECT_FALSE(mixed_->uses_low());
  // The double factors serve the next solves: no new fallback, no
  // refactorization.
  EXPECT_LE(SolveRandom(3), 1e-12);
  EXPECT_EQ(mixed_->precision_fallbacks(), 1);
  EXPECT_EQ(high_->factorizations, 1);
  EXPECT_EQ(low_->solves, 2);
}

TEST_F(MixedPrecisionTest, RepeatedFallbacksStayInDoubleUntilReset) {
  SetUpFor(RandomUnsymmetric(120, 3, 0.2, 5));
  low_->solve_scale = 3.0;
  for (int k = 0; k < 2; ++k) {
    ASSERT_EQ(Factorize(), LinearSolverStatus::kSuccess);
    SolveRandom(k);
  }
  EXPECT_EQ(mixed_->precision_fallbacks(), 2);
  // Third factorization: straight to double, not a new fallback.
  ASSERT_EQ(Factorize(), LinearSolverStatus::kSuccess);
  SolveRandom(7);
  EXPECT_EQ(low_->factorizations, 2);
  EXPECT_EQ(mixed_->precision_fallbacks(), 2);
  // A new analysis starts in single precision again.
  low_->solve_scale = 1.0;
  mixed_->Reset(&system_.pattern);
  ASSERT_EQ(Factorize(), LinearSolverStatus::kSuccess);
  EXPECT_TRUE(mixed_->uses_low());
  EXPECT_LE(SolveRandom(8), tolerance_);
  EXPECT_EQ(mixed_->precision_fallbacks(), 2);
}

TEST_F(MixedPrecisionTest, FailedSingleFactorizationLetsDoubleDecide) {
  SetUpFor(RandomUnsymmetric(120, 3, 0.2, 5));
  // Singular in single precision is not singular in double precision.
  low_->forced = LinearSolverStatus::kSingular;
  ASSERT_EQ(Factorize(), LinearSolverStatus::kSuccess);
  EXPECT_FALSE(mixed_->uses_low());
  EXPECT_EQ(mixed_->precision_fallbacks(), 1);
  EXPECT_LE(SolveRandom(4), 1e-12);
  EXPECT_EQ(mixed_->refinement_steps(), 0);
  // Out of memory would fail in double too: reported, no fallback.
  low_->forced = LinearSolverStatus::kOutOfMemory;
  mixed_->Reset(&system_.pattern);
  EXPECT_EQ(Factorize(), LinearSolverStatus::kOutOfMemory);
  EXPECT_EQ(mixed_->precision_fallbacks(), 1);
  EXPECT_EQ(high_->factorizations, 1);
  EXPECT_FALSE(mixed_->factorized());
}

TEST_F(MixedPrecisionTest, ValuesOutsideTheFloatRangeGoToDouble) {
  TestSystem system = RandomUnsymmetric(120, 3, 0.2, 5);
  for (double& value : system.values) value *= 1e40;
  SetUpFor(system);
  ASSERT_EQ(Factorize(), LinearSolverStatus::kSuccess);
  EXPECT_EQ(low_->factorizations, 0);
  EXPECT_EQ(mixed_->precision_fallbacks(), 1);
  EXPECT_LE(SolveRandom(5), 1e-12);
}

TEST(FitsInFloat, AcceptsOnlyWhatTheCastRoundsRelatively) {
  const double huge = 1e40, tiny = 4e-41;  // beyond float's range each way
  EXPECT_TRUE(FitsInFloat({1.0, -2.0, 0.0}));
  EXPECT_FALSE(FitsInFloat({1.0, huge}));
  EXPECT_FALSE(FitsInFloat({1.0, std::numeric_limits<double>::quiet_NaN()}));
  // Flushing 4e-41 to float next to 1 is below the cast's own rounding
  // (FLT_EPSILON * 1); next to 1e-36 it is not (FLT_EPSILON * 1e-36 = 1e-43).
  EXPECT_TRUE(FitsInFloat({1.0, tiny}));
  EXPECT_FALSE(FitsInFloat({1e-36, tiny}));
}

}  // namespace
}  // namespace fcsn::internal
