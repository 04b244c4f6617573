// Tests of newton/m_factorization.h: the owner of M's factorization (MInverse)
// factorizes once across everything a hybrid solve derives from M (rho,
// q_free, the Delassus operator for NSGS, projected Jacobi, the error
// measures), lazily, and reuses its symbolic analysis while the pattern of M
// is unchanged; MFactorization's solves and acceptance rules.
#include "newton/m_factorization.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <chrono>
#include <string>

#include "fcsn/error_measures.h"
#include "fcsn/fclib_io.h"
#include "fcsn/options.h"
#include "newton/delassus.h"
#include "newton/nsgs.h"
#include "newton/rho.h"
#include "test_problems.h"
#include "test_util.h"

namespace fcsn::internal {
namespace {

constexpr auto kNoDeadline = std::chrono::steady_clock::time_point::max();

// The sequence of a hybrid solve on one owner: rho and q_free (setup), the
// Delassus operator and NSGS sweeps (warm start, fallback), projected Jacobi
// (the over-budget fallback), the error measures; one factorization of M.
TEST(MInverseTest, OneHybridSolveFactorizesMOnce) {
  const GlobalProblem problem = testing::MakeLatticeOnFloor(5, 4, 2, 0.3, 1.2);
  MInverse m_inverse;
  m_inverse.Bind(problem);
  EXPECT_EQ(m_inverse.factorization().factorizations(), 0);  // lazy

  ScalingData scaling;
  std::string error;
  ASSERT_TRUE(
      ComputeScaling(problem, RhoOptions(), &scaling, &error, &m_inverse))
      << error;
  EXPECT_EQ(m_inverse.factorization().factorizations(), 1);

  Delassus delassus;
  ASSERT_TRUE(delassus.Compute(problem, &m_inverse, &error)) << error;
  EXPECT_EQ(delassus.q_free(), scaling.q_free);  // the owner's, not recomputed
  Eigen::VectorXd r = Eigen::VectorXd::Zero(problem.m()), v;
  NsgsSolver nsgs(delassus);
  nsgs.Run(problem, NsgsOptions(), 1e-12, 20, kNoDeadline, &r, &v);

  ProjectedJacobiSolver jacobi(
      m_inverse.factorization(), scaling.rho, m_inverse.q_free_norm());
  const NsgsResult result =
      jacobi.Run(problem, NsgsOptions(), 1e-12, 20, kNoDeadline, &r, &v);
  EXPECT_NE(result.status, SolverStatus::kInvalidInput) << result.message;

  const ErrorMeasures errors =
      ComputeErrorMeasures(problem, v, r, m_inverse.q_free_norm());
  EXPECT_EQ(errors.q_free_norm, scaling.q_free_norm);

  EXPECT_EQ(m_inverse.factorization().factorizations(), 1);
  EXPECT_EQ(m_inverse.factorization().analyses(), 1);
}

// Time stepping: new values on the same pattern refactorize without a new
// analysis; a new pattern is analysed again.
TEST(MInverseTest, KeepsTheAnalysisWhileThePatternIsUnchanged) {
  GlobalProblem step = testing::MakeLatticeOnFloor(4, 3, 2, 0.3, 1.2);
  MInverse m_inverse;
  std::string error;
  m_inverse.Bind(step);
  ASSERT_TRUE(m_inverse.ComputeQFree(&error)) << error;
  const Eigen::VectorXd q_first = m_inverse.q_free();

  step.M *= 2.0;
  m_inverse.Bind(step);
  ASSERT_TRUE(m_inverse.ComputeQFree(&error)) << error;
  EXPECT_EQ(m_inverse.factorization().factorizations(), 2);
  EXPECT_EQ(m_inverse.factorization().analyses(), 1);
  // w = 0 on a touching floor: q_free = H^T M^-1 f halves.
  EXPECT_LE(testing::RelativeDistance(m_inverse.q_free(), 0.5 * q_first),
            1e-12);

  const GlobalProblem other = testing::MakeLatticeOnFloor(3, 3, 2, 0.3, 1.2);
  m_inverse.Bind(other);
  ASSERT_TRUE(m_inverse.Factorize(&error)) << error;
  EXPECT_EQ(m_inverse.factorization().analyses(), 2);
}

// A failure is computed once and reported again with its message.
TEST(MInverseTest, ReportsAFailedFactorizationWithoutRetrying) {
  GlobalProblem p = testing::MakeLatticeOnFloor(3, 3, 2, 0.3, 0.5);
  p.M *= 0.0;
  MInverse m_inverse;
  m_inverse.Bind(p);
  std::string first, second;
  EXPECT_FALSE(m_inverse.Factorize(&first));
  EXPECT_FALSE(m_inverse.ComputeQFree(&second));
  EXPECT_EQ(first, second);
  EXPECT_NE(first.find("singular"), std::string::npos) << first;
  EXPECT_EQ(m_inverse.factorization().factorizations(), 1);
  EXPECT_EQ(m_inverse.factorization().type(), MFactorizationType::kNone);
  EXPECT_TRUE(m_inverse.DiagonalBlocks().empty());
}

TEST(MInverseTest, UnboundOwnerFailsCleanly) {
  MInverse m_inverse;
  std::string error;
  EXPECT_FALSE(m_inverse.ComputeQFree(&error));
  EXPECT_FALSE(error.empty());
}

// rho and Newton accept any nonsingular symmetric M; NSGS needs it positive
// definite (CheckPositiveDefinite), checked on the same factorization.
TEST(MFactorizationTest, IndefiniteMServesRhoButNotTheDelassusOperator) {
  GlobalProblem p = testing::MakeLatticeOnFloor(3, 3, 2, 0.3, 0.5);
  p.M.coeffRef(7, 7) = -p.M.coeffRef(7, 7) - 10.0;
  MInverse m_inverse;
  m_inverse.Bind(p);
  ScalingData scaling;
  std::string error;
  ASSERT_TRUE(ComputeScaling(p, RhoOptions(), &scaling, &error, &m_inverse))
      << error;
  EXPECT_FALSE(m_inverse.factorization().CheckPositiveDefinite(&error));
  EXPECT_NE(error.find("not positive definite"), std::string::npos) << error;
  Delassus delassus;
  EXPECT_FALSE(delassus.Compute(p, &m_inverse, &error));
  EXPECT_EQ(delassus.factorization_type(), MFactorizationType::kNone);
  EXPECT_EQ(m_inverse.factorization().factorizations(), 1);
}

// The allocation-free solve of projected Jacobi against Solve(), LDL^T only.
TEST(MFactorizationTest, SolveWithoutAllocationMatchesSolve) {
  const GlobalProblem p = testing::MakeBoxStack(3, 0.5, 0.2);
  MFactorization factorization;
  std::string error;
  ASSERT_TRUE(factorization.Factorize(p.M, &error)) << error;
  ASSERT_EQ(factorization.type(), MFactorizationType::kSimplicialLdlt);
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(p.n(), -1.0, 2.0);
  Eigen::VectorXd x_solve, x(p.n()), work(p.n());
  ASSERT_TRUE(factorization.Solve(b, &x_solve));
  ASSERT_TRUE(factorization.SolveWithoutAllocation(b, &x, &work));
  EXPECT_LE(testing::RelativeDistance(x, x_solve), 1e-14);
  EXPECT_LE(testing::RelativeDistance(p.M * x, b), 1e-13);

  SparseMatrix upper = p.M.triangularView<Eigen::Upper>();
  upper.coeffRef(0, 1) += 1.0;  // not symmetric: LU
  ASSERT_TRUE(factorization.Factorize(upper, &error)) << error;
  EXPECT_EQ(factorization.type(), MFactorizationType::kSparseLu);
  EXPECT_FALSE(factorization.SolveWithoutAllocation(b, &x, &work));
  ASSERT_TRUE(factorization.Solve(b, &x));
  EXPECT_LE(testing::RelativeDistance(upper * x, b), 1e-13);
}

TEST(MFactorizationTest, RejectsNonSquareM) {
  MFactorization factorization;
  std::string error;
  EXPECT_FALSE(factorization.Factorize(SparseMatrix(3, 2), &error));
  EXPECT_NE(error.find("square"), std::string::npos) << error;
  EXPECT_EQ(factorization.type(), MFactorizationType::kNone);
}

// The self-contained path of the error measures (ComputeQFreeNorm, `fcsn
// check`) and the solver's owner give the same ||q_free||, with M symmetric
// (LDL^T in both) or an upper triangle taken as stored (LU in both).
TEST(MInverseTest, QFreeNormAgreesWithTheSelfContainedPath) {
  for (const char* file : testing::kSharedProblemFiles) {
    for (MStorage storage : {MStorage::kAuto, MStorage::kAsStored}) {
      GlobalProblem problem;
      ReadOptions read_options;
      read_options.m_storage = storage;
      std::string error;
      ASSERT_TRUE(ReadGlobalProblem(testing::SharedProblem(file),
                                    read_options,
                                    &problem,
                                    nullptr,
                                    &error))
          << error;
      double self_contained = 0.0;
      ASSERT_TRUE(ComputeQFreeNorm(problem, &self_contained, &error))
          << file << ": " << error;
      GlobalProblem full;  // M expanded as the solver does
      const GlobalProblem& resolved = WithFullM(problem, &full);
      MInverse m_inverse;
      m_inverse.Bind(resolved);
      ASSERT_TRUE(m_inverse.ComputeQFree(&error)) << file << ": " << error;
      EXPECT_NEAR(
          m_inverse.q_free_norm(), self_contained, 1e-12 * self_contained)
          << file;
    }
  }
}

TEST(MFactorizationTest, TypeNames) {
  EXPECT_STREQ(ToString(MFactorizationType::kNone), "none");
  EXPECT_STREQ(ToString(MFactorizationType::kSimplicialLdlt),
               "simplicial-ldlt");
  EXPECT_STREQ(ToString(MFactorizationType::kSparseLu), "sparse-lu");
}

}  // namespace
}  // namespace fcsn::internal
