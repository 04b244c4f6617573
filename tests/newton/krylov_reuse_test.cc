// SolverOptions::krylov_reuse_iterations (newton/newton_direction.h): Newton
// directions by FGMRES on the previous factors of J. At the direction level:
// once the merit contracts, a reused direction is an inexact Newton direction
// within its forcing term, its slope is the true (D G)^T D J d, no
// factorization is done for it, and the factors serve once.
// The gate: CountChangedContactsUpToRowScales counts exactly the contacts
// whose rows of J moved other than by a factor each, and an attempt is
// refused (no inner iteration) when more than K/2 contacts changed; a boost
// of rho between the factorization and the attempt is absorbed. At the
// solver level: every shared problem converges by the criterion of
// formulations.md §9.1 with reuse on, the reuse path is taken, an attempt
// short of its forcing term falls back to a factorization, and the default
// (auto) engages from n + m = 5,000 on only, so the small shared problems
// never enter it.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "fcsn/error_measures.h"
#include "fcsn/options.h"
#include "fcsn/solver.h"
#include "linalg/linear_solver.h"
#include "minverse/shared_m.h"
#include "newton/newton_direction.h"
#include "newton/newton_system.h"
#include "newton/solve_run.h"
#include "shared_problem.h"
#include "test_problems.h"
#include "test_util.h"

namespace fcsn {
namespace {

// A lattice's system at a pseudo-random iterate, with row weights and column
// scales far from 1 so that a slip of D or C in the reuse path shows.
class ReusedDirectionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    problem_ = testing::MakeLatticeOnFloor(3, 3, 2, 0.4, 1.2, 1e-3);
    system_.Build(problem_);
    system_.SetMatrixValues(problem_, m_);
    run_.problem = &problem_;
    run_.m = &m_;
    run_.summary = &summary_;
    run_.weight_eq = 0.5;
    run_.weight_contact = 4.0;
    run_.column_v = 3.0;
    run_.column_r = 0.25;
    run_.newton_rho = Eigen::VectorXd::Ones(problem_.m());
    std::mt19937 generator(7);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    run_.v = Eigen::VectorXd::NullaryExpr(problem_.n(),
                                          [&] { return uniform(generator); });
    run_.r = Eigen::VectorXd::NullaryExpr(problem_.m(),
                                          [&] { return uniform(generator); });
    options_.linear_solver.type = LinearSolverType::kEigenLU;
    std::string message;
    linear_ = internal::LinearSolver::Create(options_.linear_solver, &message);
    ASSERT_NE(linear_, nullptr) << message;
    ASSERT_EQ(linear_->Analyze(system_.pattern(), &message),
              internal::LinearSolverStatus::kSuccess)
        << message;
  }

  // J and D G at run_.(v, r).
  void Evaluate() {
    system_.Evaluate(problem_,
                     options_.formulation,
                     run_.newton_rho,
                     run_.v,
                     run_.r,
                     /*with_jacobian=*/true);
    DG_.resize(problem_.n() + problem_.m());
    internal::Weigh(run_, system_.residual(), &DG_);
  }

  internal::LinearSolverStatus Compute() {
    std::string message;
    return direction_.Compute(
        options_, system_, linear_.get(), run_, DG_, DG_.norm(), &message);
  }

  // Exact Newton steps (reuse off) from run_.(v, r) until one contracts the
  // merit by 1 / ratio at least (2: where the reuse may start); false if none
  // does.
  // factorized_ holds D J C of the last factorization.
  bool StepUntilContracting(double ratio = 0.5) {
    options_.krylov_reuse_iterations = 0;
    direction_.Reset();
    Evaluate();
    for (int k = 0; k < 30; ++k) {
      if (Compute() != internal::LinearSolverStatus::kSuccess) return false;
      factorized_ = ScaledValues();
      const double previous = DG_.norm();
      Step(1.0);
      Evaluate();
      if (DG_.norm() <= ratio * previous && DG_.norm() > 0.0) return true;
    }
    return false;
  }

  // D J C with the current values.
  std::vector<double> ScaledValues() const {
    std::vector<double> scaled;
    system_.ScaledValues(run_.weight_eq,
                         run_.weight_contact,
                         run_.column_v,
                         run_.column_r,
                         &scaled);
    return scaled;
  }

  // CountChangedContactsUpToRowScales of the current values against
  // `factorized`; the factor of each contact row in *row_scales if given.
  int ChangedContacts(const std::vector<double>& factorized,
                      double relative,
                      std::vector<double>* row_scales = nullptr) const {
    std::vector<double> scales, workspace;
    return internal::CountChangedContactsUpToRowScales(
        system_,
        internal::ScalesOf(run_),
        factorized,
        relative,
        row_scales != nullptr ? row_scales : &scales,
        &workspace);
  }

  // D J d with the current values, computed here.
  Eigen::VectorXd WeightedProduct(const Eigen::VectorXd& d) const {
    Eigen::VectorXd Jd, DJd(d.size());
    system_.Multiply(d, &Jd);
    internal::Weigh(run_, Jd, &DJd);
    return DJd;
  }

  void Step(double alpha) {
    run_.v += alpha * direction_.d().head(problem_.n());
    run_.r += alpha * direction_.d().tail(problem_.m());
  }

  GlobalProblem problem_;
  internal::SharedM m_;  // M = problem_.M
  internal::NewtonSystem system_;
  SolverSummary summary_;
  internal::SolveRun run_;
  SolverOptions options_;
  std::unique_ptr<internal::LinearSolver> linear_;
  internal::NewtonDirection direction_;
  Eigen::VectorXd DG_;
  std::vector<double> factorized_;
};

TEST_F(ReusedDirectionTest, ReusedDirectionIsInexactNewtonWithItsTrueSlope) {
  ASSERT_TRUE(StepUntilContracting());
  const int factorizations = summary_.factorizations;
  // Budget n + m: FGMRES is then exact at the latest at breakdown, so the
  // reuse cannot fail for lack of iterations.
  ASSERT_LE(problem_.n() + problem_.m(), 100);
  options_.krylov_reuse_iterations = 100;
  ASSERT_EQ(Compute(), internal::LinearSolverStatus::kSuccess);
  EXPECT_EQ(summary_.factorizations, factorizations);
  EXPECT_EQ(summary_.reused_factor_directions, 1);
  EXPECT_GE(summary_.krylov_iterations, 1);
  const Eigen::VectorXd DJd = WeightedProduct(direction_.d());
  // Within the largest forcing term 0.01, and the slope the exact one of the
  // inexact direction (not -||D G||^2).
  EXPECT_LE((DG_ + DJd).norm(), 0.01 * DG_.norm());
  EXPECT_NEAR(direction_.slope(), DG_.dot(DJd), 1e-12 * DG_.squaredNorm());
  EXPECT_LT(direction_.slope(), 0.0);
  // The factors serve once: the next iterate factorizes, contracting or not.
  Step(1.0);
  Evaluate();
  ASSERT_EQ(Compute(), internal::LinearSolverStatus::kSuccess);
  EXPECT_EQ(summary_.factorizations, factorizations + 1);
  EXPECT_EQ(summary_.reused_factor_directions, 1);
}

// eta_k: Eisenstat-Walker's 0.9 (merit ratio)^2, at most 0.01, and never
// below tol / merit (no oversolving at the last iterates).
TEST(ForcingTerm, EisenstatWalkerCappedAndFlooredByTheTolerance) {
  using internal::NewtonDirection;
  EXPECT_DOUBLE_EQ(NewtonDirection::ForcingTerm(1e-4, 1.0, 1e-14), 0.9e-8);
  EXPECT_DOUBLE_EQ(NewtonDirection::ForcingTerm(0.05, 1.0, 0.0), 0.9 * 0.0025);
  EXPECT_DOUBLE_EQ(NewtonDirection::ForcingTerm(0.5, 1.0, 0.0), 0.01);
  // The floor: a residual of tol in merit units is enough.
  EXPECT_DOUBLE_EQ(NewtonDirection::ForcingTerm(1e-4, 1.0, 1e-8), 1e-4);
  // Still capped when the merit is near the tolerance.
  EXPECT_DOUBLE_EQ(NewtonDirection::ForcingTerm(1e-9, 1.0, 1e-8), 0.01);
  // A zero merit has no floor to take.
  EXPECT_DOUBLE_EQ(NewtonDirection::ForcingTerm(0.0, 1.0, 1e-8), 0.0);
}

TEST_F(ReusedDirectionTest, CountsTheContactsWhoseRowsMoved) {
  Evaluate();
  const std::vector<double> before = ScaledValues();
  EXPECT_EQ(ChangedContacts(before, 0.0), 0);
  // Only contact 0's r moves, v and so every u stay: only its rows of A H^T
  // and B can change, those of J's other rows and contacts cannot.
  const int nc = problem_.m() / 3;
  ASSERT_GE(nc, 4);
  run_.r.head<3>() = Eigen::Vector3d(2.0, 1.5, -1.0);
  Evaluate();
  EXPECT_LE(ChangedContacts(before, 0.0), 1);
  // Every r far away: the rows of most contacts move by more than 1 %.
  run_.r = -3.0 * run_.r.array() + 0.5;
  Evaluate();
  EXPECT_GE(ChangedContacts(before, 1e-2), nc / 2);
  // A relative change of 0 counts any change of shape.
  EXPECT_GE(ChangedContacts(before, 0.0), ChangedContacts(before, 1e-2));
  // An infinite one only those with a row of reversed sign.
  EXPECT_LE(ChangedContacts(before, 1e300), ChangedContacts(before, 1e-2));
}

// The previous solve's factors (NewtonDirection::OfferPreviousFactors): a
// contact whose rows only changed by a factor each (rho's boost) is unchanged
// up to row scales, with that factor; a change of shape is counted.
TEST_F(ReusedDirectionTest, RowScalesAbsorbAFactorPerRow) {
  Evaluate();
  std::vector<double> factorized = ScaledValues();
  const int n = problem_.n();
  const internal::SparsityPattern& pattern = system_.pattern();
  // Contact 0's rows were a quarter of today's; one entry of contact 1's
  // first row was something else.
  int shape_slot = -1;
  for (int j = 0; j < pattern.n; ++j) {
    for (int p = pattern.col_ptr[j]; p < pattern.col_ptr[j + 1]; ++p) {
      const int row = pattern.row_index[p];
      if (row >= n && row < n + 3) factorized[p] *= 0.25;
      if (row == n + 3 && factorized[p] != 0.0) shape_slot = p;
    }
  }
  ASSERT_GE(shape_slot, 0);
  std::vector<double> row_scales;
  EXPECT_EQ(ChangedContacts(factorized, 1e-2, &row_scales), 0);
  ASSERT_EQ(row_scales.size(), static_cast<size_t>(problem_.m()));
  for (int i = 0; i < problem_.m(); ++i) {
    EXPECT_NEAR(row_scales[i], i < 3 ? 4.0 : 1.0, 1e-12) << i;
  }
  factorized[shape_slot] *= -2.0;
  EXPECT_EQ(ChangedContacts(factorized, 1e-2, &row_scales), 1);
  EXPECT_EQ(row_scales[3], 1.0);
}

TEST_F(ReusedDirectionTest, RefusesWhenMoreThanHalfTheBudgetOfContactsMoved) {
  ASSERT_TRUE(StepUntilContracting());
  // The gate's count (rows changed by more than 1 %) at this iterate.
  const int changed = ChangedContacts(factorized_, 1e-2);
  ASSERT_GE(changed, 1) << "no contact moved: the gate is not exercised";
  ASSERT_LE(2 * changed, 100);
  const int factorizations = summary_.factorizations;
  // Budget 2 changed - 1: refused before any inner iteration.
  options_.krylov_reuse_iterations = 2 * changed - 1;
  ASSERT_EQ(Compute(), internal::LinearSolverStatus::kSuccess);
  EXPECT_EQ(summary_.factorizations, factorizations + 1);
  EXPECT_EQ(summary_.krylov_iterations, 0);
  EXPECT_EQ(summary_.reused_factor_directions, 0);
}

// The tail boost between the factorization and the attempt: rho x 30 scales
// the rows of every sticking contact and every closed normal row; with the
// row factors the reused direction is still within its forcing term.
TEST_F(ReusedDirectionTest, AbsorbsABoostOfRho) {
  // Contracting by 100, so that the merit under the boost (at most 30 times
  // larger) still contracts by 2.
  ASSERT_TRUE(StepUntilContracting(0.01));
  const int factorizations = summary_.factorizations;
  const int changed = ChangedContacts(factorized_, 1e-2);
  run_.newton_rho *= 30.0;
  Evaluate();
  const int after = ChangedContacts(factorized_, 1e-2);
  ASSERT_LE(after, changed + 2);
  // The gate's budget: FGMRES needs at most `after` + 1 iterations when the
  // factors stand for the boosted rows, many more when they do not.
  options_.krylov_reuse_iterations = 2 * std::max(1, after);
  ASSERT_EQ(Compute(), internal::LinearSolverStatus::kSuccess);
  EXPECT_EQ(summary_.factorizations, factorizations);
  EXPECT_EQ(summary_.reused_factor_directions, 1);
  const Eigen::VectorXd DJd = WeightedProduct(direction_.d());
  EXPECT_LE((DG_ + DJd).norm(), 0.01 * DG_.norm());
}

// An attempt that the gate lets through but that does not reach the forcing
// term within K inner iterations factorizes J instead. Here M's diagonal is
// scaled by random factors in [1, 1000] after the factorization, and f moved
// so that G at the iterate stays (the merit still contracts): the contact
// rows, all the gate looks at, are as before, but the factors no longer
// precondition D J C.
TEST_F(ReusedDirectionTest, AnAttemptShortOfItsForcingTermFactorizes) {
  ASSERT_TRUE(StepUntilContracting());
  const int changed = ChangedContacts(factorized_, 1e-2);
  const int factorizations = summary_.factorizations;
  options_.krylov_reuse_iterations = std::max(1, 2 * changed);
  const SparseMatrix before = problem_.M;
  std::mt19937 generator(11);
  std::uniform_real_distribution<double> factor(1.0, 1000.0);
  for (int j = 0; j < problem_.M.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(problem_.M, j); it; ++it) {
      if (it.row() == it.col()) it.valueRef() *= factor(generator);
    }
  }
  problem_.f += (problem_.M - before) * run_.v;
  system_.SetMatrixValues(problem_, m_);
  const double merit = DG_.norm();
  Evaluate();
  ASSERT_NEAR(DG_.norm(), merit, 1e-12 * merit);
  ASSERT_EQ(Compute(), internal::LinearSolverStatus::kSuccess);
  EXPECT_GE(summary_.krylov_iterations, 1);
  EXPECT_EQ(summary_.reused_factor_directions, 0);
  EXPECT_EQ(summary_.factorizations, factorizations + 1);
  // The factorized direction is exact.
  EXPECT_NEAR(
      (DG_ + WeightedProduct(direction_.d())).norm(), 0.0, 1e-10 * DG_.norm());
}

TEST_F(ReusedDirectionTest, ResetForgetsTheFactors) {
  ASSERT_TRUE(StepUntilContracting());
  const int factorizations = summary_.factorizations;
  options_.krylov_reuse_iterations = 100;
  direction_.Reset();  // a new run: the factors belong to another J
  ASSERT_EQ(Compute(), internal::LinearSolverStatus::kSuccess);
  EXPECT_EQ(summary_.factorizations, factorizations + 1);
  EXPECT_EQ(summary_.reused_factor_directions, 0);
  EXPECT_EQ(direction_.slope(), -DG_.squaredNorm());
}

// Sums of the counters over the shared problems, and convergence of each.
struct Totals {
  int iterations = 0, factorizations = 0, reused = 0, krylov = 0;
};

Totals SolveSharedProblems(const SolverOptions& options) {
  Totals totals;
  for (const char* file : testing::kSharedProblemFiles) {
    SCOPED_TRACE(file);
    const GlobalProblem p = testing::ReadSharedProblem(file);
    Solution x;
    const SolverSummary s = Solver(options).Solve(p, nullptr, &x);
    EXPECT_EQ(s.status, SolverStatus::kConverged) << s.message;
    const ErrorMeasures e = testing::CriterionMeasures(p, x);
    EXPECT_TRUE(e.Converged(options.tolerance)) << e.Worst();
    // Each Newton iteration took its direction from a factorization or from
    // the reused factors.
    EXPECT_GE(s.factorizations + s.reused_factor_directions, s.iterations);
    EXPECT_LE(s.reused_factor_directions, s.krylov_iterations);
    totals.iterations += s.iterations;
    totals.factorizations += s.factorizations;
    totals.reused += s.reused_factor_directions;
    totals.krylov += s.krylov_iterations;
  }
  return totals;
}

TEST(KrylovReuseTest, SharedProblemsConvergeWithReusedFactors) {
  for (SolverType solver : {SolverType::kNewton, SolverType::kHybrid}) {
    SCOPED_TRACE(ToString(solver));
    SolverOptions options;
    options.solver = solver;
    // 100: the gate lets up to 50 changed contacts try, so that the hybrid's
    // few Newton iterations on these small problems take the reuse too.
    options.krylov_reuse_iterations = 100;
    const Totals totals = SolveSharedProblems(options);
    EXPECT_GT(totals.reused, 0);
    EXPECT_LT(totals.factorizations, totals.iterations + totals.reused);
  }
}

TEST(KrylovReuseTest, AutoBudgetEngagesFromTheSizeOn) {
  EXPECT_EQ(SolverOptions().krylov_reuse_iterations, kAutoKrylovReuse);
  // Box_Stacks (n + m = 696) and below 5,000: off; 688-contact wall (9,269),
  // elastic bar (25,452) and refine-2 wall (51,401): 10.
  EXPECT_EQ(internal::KrylovReuseBudget(kAutoKrylovReuse, 696), 0);
  EXPECT_EQ(internal::KrylovReuseBudget(kAutoKrylovReuse, 4999), 0);
  EXPECT_EQ(internal::KrylovReuseBudget(kAutoKrylovReuse, 5000), 10);
  EXPECT_EQ(internal::KrylovReuseBudget(kAutoKrylovReuse, 9269), 10);
  EXPECT_EQ(internal::KrylovReuseBudget(kAutoKrylovReuse, 51401), 10);
  // An explicit budget holds at every size.
  EXPECT_EQ(internal::KrylovReuseBudget(0, 51401), 0);
  EXPECT_EQ(internal::KrylovReuseBudget(7, 100), 7);
  // The first direction of a warm solve on the previous solve's factors:
  // 10 at every size unless set.
  EXPECT_EQ(internal::PreviousFactorsBudget(kAutoKrylovReuse), 10);
  EXPECT_EQ(internal::PreviousFactorsBudget(0), 0);
  EXPECT_EQ(internal::PreviousFactorsBudget(7), 7);
}

TEST(KrylovReuseTest, OffByDefaultOnSmallProblems) {
  SolverOptions options;
  options.solver = SolverType::kNewton;
  const Totals totals = SolveSharedProblems(options);
  EXPECT_EQ(totals.reused, 0);
  EXPECT_EQ(totals.krylov, 0);
}

TEST(KrylovReuseTest, ValidateBoundsTheBudget) {
  SolverOptions options;
  options.krylov_reuse_iterations = -2;
  EXPECT_NE(options.Validate().find("krylov_reuse_iterations"),
            std::string::npos);
  options.krylov_reuse_iterations = kAutoKrylovReuse;
  EXPECT_EQ(options.Validate(), "");
  options.krylov_reuse_iterations = 101;
  EXPECT_NE(options.Validate().find("krylov_reuse_iterations"),
            std::string::npos);
  options.krylov_reuse_iterations = 100;
  EXPECT_EQ(options.Validate(), "");
}

}  // namespace
}  // namespace fcsn
