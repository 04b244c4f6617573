// Tests of newton/newton_system.h beyond the finite-difference check of J
// (global_jacobian_fd_test.cc): the pattern of J (valid CSC, M's and H's
// entries, an explicit diagonal, full B_a blocks, A H^T rows on the union of
// the dofs of a contact), the pattern comparison, the values against the dense
// assembly [[M, -H], [A H^T, B]] with A, B from formulations/residual.h, the
// residual G, Multiply, ScaledValues (D J C) and the contact diagonal slots.
#include "newton/newton_system.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "fcsn/types.h"
#include "formulations/residual.h"
#include "minverse/shared_m.h"
#include "test_problems.h"
#include "test_util.h"

namespace fcsn::internal {
namespace {

Eigen::MatrixXd DenseFromPattern(const SparsityPattern& pattern,
                                 const std::vector<double>& values) {
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(pattern.n, pattern.n);
  for (int j = 0; j < pattern.n; ++j) {
    for (int k = pattern.col_ptr[j]; k < pattern.col_ptr[j + 1]; ++k) {
      J(pattern.row_index[k], j) += values[k];
    }
  }
  return J;
}

// Entries (row, column) stored in the pattern.
std::set<std::pair<int, int>> Entries(const SparsityPattern& pattern) {
  std::set<std::pair<int, int>> out;
  for (int j = 0; j < pattern.n; ++j) {
    for (int k = pattern.col_ptr[j]; k < pattern.col_ptr[j + 1]; ++k) {
      out.emplace(pattern.row_index[k], j);
    }
  }
  return out;
}

// A random point of a problem, away from the kinks of the residuals.
void RandomPoint(const GlobalProblem& p,
                 unsigned seed,
                 Eigen::VectorXd* v,
                 Eigen::VectorXd* r) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  *v = Eigen::VectorXd::NullaryExpr(p.n(), [&] { return uniform(generator); });
  *r = Eigen::VectorXd::NullaryExpr(p.m(), [&] { return uniform(generator); });
}

class NewtonSystemTest : public ::testing::Test {
 protected:
  void SetUp() override {
    problem_ = testing::MakeLatticeOnFloor(3, 3, 2, 0.4, 1.2, 1e-3);
    system_.Build(problem_);
    system_.SetMatrixValues(problem_, m_);
  }
  GlobalProblem problem_;
  SharedM m_;  // M = problem_.M
  NewtonSystem system_;
};

// Exactly the entries of M, the diagonal, -H, A H^T (row n + c of contact a
// on the union of the rows of H_a) and the full 3 x 3 blocks B_a.
TEST_F(NewtonSystemTest, PatternHoldsExactlyTheBlocksOfJ) {
  const SparsityPattern& pattern = system_.pattern();
  const int n = problem_.n();
  const int m = problem_.m();
  EXPECT_EQ(CheckPattern(pattern), "");
  EXPECT_EQ(pattern.n, n + m);
  std::set<std::pair<int, int>> expected;
  for (int j = 0; j < n; ++j) {
    expected.emplace(j, j);
    for (SparseMatrix::InnerIterator it(problem_.M, j); it; ++it) {
      expected.emplace(static_cast<int>(it.row()), j);
    }
  }
  for (int c = 0; c < m; ++c) {
    const int a = c / 3;
    for (SparseMatrix::InnerIterator it(problem_.H, c); it; ++it) {
      expected.emplace(static_cast<int>(it.row()), n + c);
    }
    for (int k = 3 * a; k < 3 * a + 3; ++k) {
      for (SparseMatrix::InnerIterator it(problem_.H, k); it; ++it) {
        expected.emplace(n + c, static_cast<int>(it.row()));
      }
      expected.emplace(n + c, n + k);
    }
  }
  EXPECT_EQ(Entries(pattern), expected);
  EXPECT_EQ(pattern.nnz(), static_cast<int>(expected.size()));
}

// The blocks for METIS' block ordering (linalg/ordering.h): the velocity dofs
// in node triples, then every contact unknown alone.
TEST_F(NewtonSystemTest, BlocksAreNodeTriplesThenSingleContactUnknowns) {
  const std::vector<int>& starts = system_.pattern().block_starts;
  const int n = problem_.n();
  const int m = problem_.m();
  ASSERT_EQ(n % 3, 0);
  ASSERT_EQ(starts.size(), static_cast<size_t>(n / 3 + m));
  for (int k = 0; k < n / 3; ++k) EXPECT_EQ(starts[k], 3 * k);
  for (int c = 0; c < m; ++c) EXPECT_EQ(starts[n / 3 + c], n + c);
  EXPECT_EQ(CheckPattern(system_.pattern()), "");
}

TEST_F(NewtonSystemTest, SamePatternComparesThePatternsOnly) {
  GlobalProblem scaled = problem_;
  scaled.M *= 3.0;
  scaled.H *= -2.0;
  EXPECT_TRUE(system_.SamePattern(scaled));
  GlobalProblem larger = testing::MakeLatticeOnFloor(4, 3, 2, 0.4, 1.2);
  EXPECT_FALSE(system_.SamePattern(larger));
  GlobalProblem extra = problem_;
  extra.M.coeffRef(0, problem_.n() - 1) = 1e-3;  // one more stored entry
  extra.M.makeCompressed();
  EXPECT_FALSE(system_.SamePattern(extra));
}

TEST_F(NewtonSystemTest, ValuesAndResidualMatchTheDenseAssembly) {
  const int n = problem_.n();
  const int m = problem_.m();
  const int nc = problem_.nc();
  const Eigen::VectorXd rho = Eigen::VectorXd::Constant(m, 0.7);
  for (Formulation formulation : kAllFormulations) {
    Eigen::VectorXd v, r;
    RandomPoint(problem_, 7, &v, &r);
    system_.Evaluate(problem_, formulation, rho, v, r, /*with_jacobian=*/true);
    const Eigen::VectorXd u = problem_.H.transpose() * v + problem_.w;
    Eigen::VectorXd F(m);
    std::vector<Eigen::Matrix3d> A(nc), B(nc);
    EvaluateAll(formulation, u, r, problem_.mu, rho, &F, A.data(), B.data());
    Eigen::MatrixXd J = Eigen::MatrixXd::Zero(n + m, n + m);
    const Eigen::MatrixXd H = Eigen::MatrixXd(problem_.H);
    J.topLeftCorner(n, n) = Eigen::MatrixXd(problem_.M);
    J.topRightCorner(n, m) = -H;
    for (int a = 0; a < nc; ++a) {
      J.block(n + 3 * a, 0, 3, n) = A[a] * H.middleCols(3 * a, 3).transpose();
      J.block<3, 3>(n + 3 * a, n + 3 * a) = B[a];
    }
    const Eigen::MatrixXd J_system =
        DenseFromPattern(system_.pattern(), system_.values());
    EXPECT_LE((J_system - J).norm(), 1e-14 * J.norm()) << ToString(formulation);
    EXPECT_LE(testing::RelativeDistance(system_.u(), u), 1e-15);
    Eigen::VectorXd G(n + m);
    G.head(n) = problem_.M * v - problem_.H * r - problem_.f;
    G.tail(m) = F;
    EXPECT_LE(testing::RelativeDistance(system_.residual(), G), 1e-14);

    // Multiply and ScaledValues against the dense J.
    Eigen::VectorXd x, y;
    RandomPoint(problem_, 11, &v, &r);
    x.resize(n + m);
    x << v, r;
    system_.Multiply(x, &y);
    EXPECT_LE(testing::RelativeDistance(y, J * x), 1e-14);
    std::vector<double> scaled;
    system_.ScaledValues(2.0, 3.0, 5.0, 7.0, &scaled);
    Eigen::VectorXd D(n + m), C(n + m);
    D << Eigen::VectorXd::Constant(n, 2.0), Eigen::VectorXd::Constant(m, 3.0);
    C << Eigen::VectorXd::Constant(n, 5.0), Eigen::VectorXd::Constant(m, 7.0);
    EXPECT_LE((DenseFromPattern(system_.pattern(), scaled) -
               D.asDiagonal() * J * C.asDiagonal())
                  .norm(),
              1e-14 * 70.0 * J.norm());
  }
}

// Without the Jacobian, only the residual is updated.
TEST_F(NewtonSystemTest, ResidualOnlyKeepsTheValues) {
  const Eigen::VectorXd rho = Eigen::VectorXd::Constant(problem_.m(), 0.7);
  Eigen::VectorXd v, r;
  RandomPoint(problem_, 3, &v, &r);
  system_.Evaluate(problem_, Formulation::kAlartCurnier, rho, v, r, true);
  const std::vector<double> values = system_.values();
  const Eigen::VectorXd G = system_.residual();
  RandomPoint(problem_, 4, &v, &r);
  system_.Evaluate(problem_, Formulation::kAlartCurnier, rho, v, r, false);
  EXPECT_EQ(system_.values(), values);
  EXPECT_NE(system_.residual(), G);
}

TEST_F(NewtonSystemTest, ContactDiagonalSlotsAddressTheDiagonalOfB) {
  const SparsityPattern& pattern = system_.pattern();
  const int n = problem_.n();
  ASSERT_EQ(static_cast<int>(system_.contact_diagonal_slots().size()),
            problem_.m());
  for (int i = 0; i < problem_.m(); ++i) {
    const int slot = system_.contact_diagonal_slots()[i];
    EXPECT_EQ(pattern.row_index[slot], n + i);
    EXPECT_GE(slot, pattern.col_ptr[n + i]);
    EXPECT_LT(slot, pattern.col_ptr[n + i + 1]);
  }
}

// A stored zero of M keeps its slot, so a later problem with the same pattern
// reuses the analysis.
TEST(NewtonSystemEdgeTest, ExplicitZerosKeepTheirSlots) {
  GlobalProblem p = testing::MakeBoxStack(2, 0.5, 0.1);
  for (int j = 0; j < p.M.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(p.M, j); it; ++it) {
      if (it.row() == 0 && j == 0) it.valueRef() = 0.0;
    }
  }
  SharedM m;
  NewtonSystem system;
  system.Build(p);
  system.SetMatrixValues(p, m);
  EXPECT_EQ(CheckPattern(system.pattern()), "");
  const Eigen::MatrixXd J = DenseFromPattern(system.pattern(), system.values());
  EXPECT_EQ(J(0, 0), 0.0);
  EXPECT_TRUE(Entries(system.pattern()).count({0, 0}));
  EXPECT_TRUE(system.SamePattern(p));
}

// M's columns stored in descending row order (a compressed matrix need not
// sort them) and an H column without entries: the same J, entry for entry,
// as with the rows ascending, and a valid pattern.
TEST(NewtonSystemEdgeTest, UnsortedColumnsAndAnEmptyHColumnGiveTheSameJ) {
  GlobalProblem sorted = testing::MakeLatticeOnFloor(3, 2, 2, 0.4, 1.2, 1e-3);
  for (int k = sorted.H.outerIndexPtr()[1]; k < sorted.H.outerIndexPtr()[2];
       ++k) {
    sorted.H.valuePtr()[k] = 0.0;  // column 1 of H: zero values, then none
  }
  sorted.H.prune(0.0);
  ASSERT_EQ(sorted.H.outerIndexPtr()[1], sorted.H.outerIndexPtr()[2]);
  int longest = 0;  // some column must have rows to reorder
  for (int j = 0; j < sorted.M.outerSize(); ++j) {
    longest = std::max(
        longest, sorted.M.outerIndexPtr()[j + 1] - sorted.M.outerIndexPtr()[j]);
  }
  ASSERT_GE(longest, 3);
  GlobalProblem reversed = sorted;
  for (int j = 0; j < reversed.M.outerSize(); ++j) {
    const int begin = reversed.M.outerIndexPtr()[j];
    const int end = reversed.M.outerIndexPtr()[j + 1];
    std::reverse(reversed.M.innerIndexPtr() + begin,
                 reversed.M.innerIndexPtr() + end);
    std::reverse(reversed.M.valuePtr() + begin, reversed.M.valuePtr() + end);
  }
  SharedM m;
  NewtonSystem a, b;
  a.Build(sorted);
  a.SetMatrixValues(sorted, m);
  b.Build(reversed);
  b.SetMatrixValues(reversed, m);
  EXPECT_EQ(CheckPattern(a.pattern()), "");
  EXPECT_EQ(a.pattern().col_ptr, b.pattern().col_ptr);
  EXPECT_EQ(a.pattern().row_index, b.pattern().row_index);
  EXPECT_EQ(a.values(), b.values());
}

}  // namespace
}  // namespace fcsn::internal
