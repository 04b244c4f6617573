// Tests of linalg/m_factorization.h: the owner of M's factorization (MInverse)
// factorizes once across everything a hybrid solve derives from M (rho,
// q_free, the Delassus operator for NSGS, projected Jacobi, the error
// measures), lazily, and reuses its symbolic analysis while the pattern of M
// is unchanged; MFactorization's solves and acceptance rules.
#include "linalg/m_factorization.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "fcsn/error_measures.h"
#include "fcsn/fclib_io.h"
#include "fcsn/options.h"
#include "minverse/delassus.h"
#include "minverse/rho.h"
#include "nsgs/nsgs.h"
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
      ComputeErrorMeasures(problem,
                           v,
                           r,
                           RegularSolve(m_inverse.factorization()),
                           m_inverse.q_free_norm());
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

// A failure is computed once and reported again with its message; q_free
// then comes from diag(M) (here zero: the free velocity is zero) and M is
// not regular, for that reason.
TEST(MInverseTest, ReportsAFailedFactorizationWithoutRetrying) {
  GlobalProblem p = testing::MakeLatticeOnFloor(3, 3, 2, 0.3, 0.5);
  p.M *= 0.0;
  MInverse m_inverse;
  m_inverse.Bind(p);
  std::string first, second;
  EXPECT_FALSE(m_inverse.Factorize(&first));
  EXPECT_TRUE(m_inverse.ComputeQFree(&second)) << second;
  EXPECT_FALSE(m_inverse.regular());
  EXPECT_EQ(first, m_inverse.not_regular_reason());
  EXPECT_TRUE(m_inverse.free_velocity().isZero(0.0));
  EXPECT_NE(first.find("singular"), std::string::npos) << first;
  EXPECT_EQ(m_inverse.factorization().factorizations(), 1);
  EXPECT_EQ(m_inverse.factorization().type(), MFactorizationType::kNone);
  EXPECT_TRUE(m_inverse.DiagonalBlocks().empty());
}

// Time stepping with a constant M and H (linear elasticity): the next step
// (new f and w) keeps the factors and W_aa, and gets the q_free of a fresh
// owner, bit for bit.
TEST(MInverseTest, ReusesFactorsAndBlocksWhileMAndHAreUnchanged) {
  const GlobalProblem first = testing::MakeLatticeOnFloor(4, 3, 2, 0.3, 1.2);
  MInverse m_inverse;
  ScalingData scaling;
  std::string error;
  m_inverse.Bind(first);
  ASSERT_TRUE(ComputeScaling(first, RhoOptions(), &scaling, &error, &m_inverse))
      << error;
  EXPECT_FALSE(m_inverse.reused_factors());

  GlobalProblem next = first;  // another object, same M and H
  next.f *= 1.5;
  next.w.setConstant(0.25);
  m_inverse.Bind(next);
  EXPECT_TRUE(m_inverse.reused_factors());
  EXPECT_TRUE(m_inverse.reused_blocks());
  ScalingData reused;
  ASSERT_TRUE(ComputeScaling(next, RhoOptions(), &reused, &error, &m_inverse))
      << error;
  EXPECT_EQ(m_inverse.factorization().factorizations(), 1);

  ScalingData fresh;
  ASSERT_TRUE(ComputeScaling(next, RhoOptions(), &fresh, &error)) << error;
  EXPECT_EQ(reused.q_free, fresh.q_free);
  EXPECT_EQ(reused.rho, fresh.rho);
  EXPECT_NE(reused.q_free, scaling.q_free);
}

// Stale factors would be wrong: the smallest change of one value of M (one
// ulp of a diagonal entry), of H, or of the sign of a stored zero is caught,
// and the results are those of a fresh owner.
TEST(MInverseTest, DetectsTheSmallestChangeOfMOrH) {
  const GlobalProblem first = testing::MakeLatticeOnFloor(4, 3, 2, 0.3, 1.2);
  auto check = [&first](const GlobalProblem& next, bool same_m) {
    MInverse m_inverse;
    std::string error;
    m_inverse.Bind(first);
    ASSERT_TRUE(m_inverse.ComputeQFree(&error)) << error;
    m_inverse.DiagonalBlocks();
    m_inverse.Bind(next);
    EXPECT_EQ(m_inverse.reused_factors(), same_m);
    EXPECT_FALSE(m_inverse.reused_blocks());
    ASSERT_TRUE(m_inverse.ComputeQFree(&error)) << error;
    EXPECT_EQ(m_inverse.factorization().factorizations(), same_m ? 1 : 2);
    MInverse fresh;
    fresh.Bind(next);
    ASSERT_TRUE(fresh.ComputeQFree(&error)) << error;
    EXPECT_EQ(m_inverse.q_free(), fresh.q_free());
    const std::vector<Eigen::Matrix3d> blocks = m_inverse.DiagonalBlocks();
    const std::vector<Eigen::Matrix3d>& expected = fresh.DiagonalBlocks();
    ASSERT_EQ(blocks.size(), expected.size());
    for (size_t a = 0; a < blocks.size(); ++a)
      EXPECT_EQ(blocks[a], expected[a]);
  };
  GlobalProblem m_ulp = first;
  double& m00 = m_ulp.M.coeffRef(0, 0);
  m00 = std::nextafter(m00, 2.0 * m00);
  check(m_ulp, /*same_m=*/false);

  GlobalProblem h_value = first;
  double& h0 = h_value.H.valuePtr()[0];
  h0 = std::nextafter(h0, 2.0 * h0);
  check(h_value, /*same_m=*/true);

  // An explicit zero of H stored as -0.0 (same pattern, == compares equal).
  GlobalProblem with_zero = first;
  with_zero.H.coeffRef(with_zero.n() - 1, 0) = 0.0;
  with_zero.H.makeCompressed();
  GlobalProblem minus_zero = with_zero;
  minus_zero.H.coeffRef(with_zero.n() - 1, 0) = -0.0;
  MInverse m_inverse;
  std::string error;
  m_inverse.Bind(with_zero);
  ASSERT_TRUE(m_inverse.ComputeQFree(&error)) << error;
  m_inverse.DiagonalBlocks();
  m_inverse.Bind(minus_zero);
  EXPECT_TRUE(m_inverse.reused_factors());
  EXPECT_FALSE(m_inverse.reused_blocks());
}

// A new pattern of M with the same entries per column and the same values (a
// zero stored in another row) is a new M.
TEST(MInverseTest, DetectsAMovedEntryOfM) {
  const GlobalProblem first = testing::MakeLatticeOnFloor(3, 3, 2, 0.3, 1.2);
  const int p = first.n() - 2;
  const int q = first.n() - 1;
  // Explicit zeros far from the diagonal: a at (p, 0), (q, 1), b at (q, 0),
  // (p, 1), and their transposes; each column gains one entry in both.
  auto with_zeros = [&first](int row0, int row1) {
    GlobalProblem x = first;
    x.M.coeffRef(row0, 0) = x.M.coeffRef(0, row0) = 0.0;
    x.M.coeffRef(row1, 1) = x.M.coeffRef(1, row1) = 0.0;
    x.M.makeCompressed();
    return x;
  };
  const GlobalProblem a = with_zeros(p, q);
  const GlobalProblem b = with_zeros(q, p);
  ASSERT_EQ(a.M.nonZeros(), b.M.nonZeros());
  ASSERT_TRUE(std::equal(a.M.outerIndexPtr(),
                         a.M.outerIndexPtr() + a.n() + 1,
                         b.M.outerIndexPtr()));
  MInverse m_inverse;
  std::string error;
  m_inverse.Bind(a);
  ASSERT_TRUE(m_inverse.ComputeQFree(&error)) << error;
  m_inverse.Bind(b);
  EXPECT_FALSE(m_inverse.reused_factors());
}

// A failed factorization is never carried into the next solve.
TEST(MInverseTest, DoesNotReuseAFailure) {
  GlobalProblem p = testing::MakeLatticeOnFloor(3, 3, 2, 0.3, 0.5);
  p.M *= 0.0;
  MInverse m_inverse;
  std::string error;
  m_inverse.Bind(p);
  EXPECT_FALSE(m_inverse.Factorize(&error));
  m_inverse.Bind(p);
  EXPECT_FALSE(m_inverse.reused_factors());
  EXPECT_FALSE(m_inverse.Factorize(&error));
  EXPECT_EQ(m_inverse.factorization().factorizations(), 2);
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

// Positive definite in exact arithmetic but with condition ~7e22: the lower
// 2 x 2 block [9.13e-7 692.15; 692.15 5.2478e11] has determinant 4.0 against
// products of 4.8e5 (a solver fuzzer input). Whatever order the LDL^T takes,
// M is not regular, so that the floor of the error measures uses diag(M).
TEST(MFactorizationTest, NearlySingularBlockIsNotRegularInAnyOrder) {
  SparseMatrix m(3, 3);
  m.insert(0, 0) = 933069.23637986183;
  m.insert(1, 1) = 9.1291614046085143e-07;
  m.insert(1, 2) = 692.15228941099861;
  m.insert(2, 1) = 692.15228941099861;
  m.insert(2, 2) = 524778539640.86591;
  m.makeCompressed();
  MFactorization factorization;
  std::string error;
  ASSERT_TRUE(factorization.Factorize(m, &error)) << error;
  EXPECT_FALSE(factorization.CheckPositiveDefinite(&error));
  EXPECT_FALSE(error.empty());
  EXPECT_FALSE(RegularSolve(factorization));
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
  EXPECT_STREQ(ToString(MFactorizationType::kSupernodalCholesky),
               "supernodal-cholesky");
}

}  // namespace
}  // namespace fcsn::internal
