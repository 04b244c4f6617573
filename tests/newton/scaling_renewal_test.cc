// LinearSolverOptions::reuse_scaling at the direction level
// (NewtonDirection::RenewScalingOnNewRho, newton/newton_direction.h): MUMPS'
// scaling of J is computed by the first factorization of a Newton run and
// again after each change of rho's boost (ICNTL(8) = 77), and reused by the
// factorizations in between (ICNTL(8) = -1); with reuse_scaling = false every
// factorization computes its own. Read from MumpsSolver::Icntl(8) after each
// direction, on a lattice's system at a pseudo-random iterate.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "fcsn/options.h"
#include "lattice_iterate.h"
#include "linalg/mumps_solver.h"
#include "newton/newton_direction.h"
#include "newton/newton_system.h"
#include "newton/solve_run.h"

namespace fcsn {
namespace {

constexpr int kComputed = 77;  // ICNTL(8): scaling computed from the values
constexpr int kReused = -1;    // ICNTL(8): the scaling held by MUMPS

class ScalingRenewalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::SetUpLatticeAtRandomIterate(
        11, &problem_, &system_, &summary_, &run_);
    run_.rho_boost = 1.0;
    options_.krylov_reuse_iterations = 0;  // every direction factorizes
    // Single-precision factors, the ones whose scaling is reused.
    options_.linear_solver.precision = FactorizationPrecision::kMixed;
  }

  // A MUMPS solver of `options_` with J's pattern analysed.
  void MakeLinearSolver() {
    std::string message;
    linear_ = internal::MumpsSolver::Create(options_.linear_solver, &message);
    ASSERT_NE(linear_, nullptr) << message;
    ASSERT_EQ(linear_->Analyze(system_.pattern(), &message),
              internal::LinearSolverStatus::kSuccess)
        << message;
  }

  // One factorized direction at run_.(v, r), then a small step; the ICNTL(8)
  // its factorization ran with.
  int DirectionScaling() {
    system_.Evaluate(problem_,
                     options_.formulation,
                     run_.newton_rho,
                     run_.v,
                     run_.r,
                     /*with_jacobian=*/true);
    Eigen::VectorXd DG(problem_.n() + problem_.m());
    internal::Weigh(run_, system_.residual(), &DG);
    const int factorizations = summary_.factorizations;
    std::string message;
    EXPECT_EQ(
        direction_.Compute(
            options_, system_, linear_.get(), run_, DG, DG.norm(), &message),
        internal::LinearSolverStatus::kSuccess)
        << message;
    EXPECT_EQ(summary_.factorizations, factorizations + 1);
    run_.v += 0.1 * direction_.d().head(problem_.n());
    run_.r += 0.1 * direction_.d().tail(problem_.m());
    return linear_->Icntl(8);
  }

  // rho's boost times `factor`, as the tail boost does.
  void Boost(double factor) {
    run_.rho_boost *= factor;
    run_.newton_rho *= factor;
  }

  GlobalProblem problem_;
  internal::NewtonSystem system_;
  SolverSummary summary_;
  internal::SolveRun run_;
  SolverOptions options_;
  std::unique_ptr<internal::MumpsSolver> linear_;
  internal::NewtonDirection direction_;
};

TEST_F(ScalingRenewalTest, ComputedAtARunsStartAndAfterEachNewBoost) {
  MakeLinearSolver();
  direction_.Reset();
  EXPECT_EQ(DirectionScaling(), kComputed);
  EXPECT_EQ(DirectionScaling(), kReused);
  EXPECT_EQ(DirectionScaling(), kReused);
  Boost(30.0);
  EXPECT_EQ(DirectionScaling(), kComputed);
  EXPECT_EQ(DirectionScaling(), kReused);
  Boost(1.0 / 3.0);
  EXPECT_EQ(DirectionScaling(), kComputed);
  direction_.Reset();  // a new run of the same Solver: as a fresh one
  EXPECT_EQ(DirectionScaling(), kComputed);
  EXPECT_EQ(DirectionScaling(), kReused);
}

TEST_F(ScalingRenewalTest, EveryFactorizationComputesItsOwnWithoutReuse) {
  options_.linear_solver.reuse_scaling = false;
  MakeLinearSolver();
  direction_.Reset();
  for (int k = 0; k < 3; ++k) EXPECT_EQ(DirectionScaling(), kComputed);
}

}  // namespace
}  // namespace fcsn
