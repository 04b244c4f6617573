// The assembled global Jacobian J(z) of newton/newton_system.h, z = (v, r),
// against central finite differences of the assembled residual G(z), for all
// four formulations, on shared FCLib problems and generated lattices. The
// per-contact blocks (A_a, B_a) are checked in tests/formulations; this test
// checks what the assembly adds: the slots of M, -H, A H^T and B in the pattern
// of J, and u = H^T v + w feeding the contact rows.
//
// Points are random and generic, so that no contact sits on a kink of its
// residual (where J is one documented element of the generalized Jacobian and
// differences do not converge to it): a column whose one-sided differences
// disagree (a kink crossed within the step) is skipped and counted, and the
// test requires that almost every column was checked.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>
#include <string>
#include <vector>

#include "fcsn/fclib_io.h"
#include "fcsn/problem.h"
#include "fcsn/types.h"
#include "minverse/shared_m.h"
#include "newton/newton_system.h"
#include "test_problems.h"
#include "test_util.h"

namespace fcsn {
namespace {

using internal::NewtonSystem;

// J as a dense matrix from the pattern and the values of the last Evaluate().
Eigen::MatrixXd DenseJacobian(const NewtonSystem& system) {
  const internal::SparsityPattern& pattern = system.pattern();
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(pattern.n, pattern.n);
  for (int j = 0; j < pattern.n; ++j)
    for (int k = pattern.col_ptr[j]; k < pattern.col_ptr[j + 1]; ++k)
      J(pattern.row_index[k], j) += system.values()[k];
  return J;
}

struct FdOutcome {
  double worst_relative_error = 0;  // over the checked columns
  int checked = 0;
  int skipped = 0;  // one-sided differences disagree: a kink within the step
};

// Central differences of G along every coordinate of z = (v, r) at (v, r).
FdOutcome CompareWithDifferences(const GlobalProblem& problem,
                                 Formulation formulation,
                                 const Eigen::VectorXd& rho,
                                 const Eigen::VectorXd& v,
                                 const Eigen::VectorXd& r) {
  internal::SharedM m;  // M = problem.M
  NewtonSystem system;
  system.Build(problem);
  system.SetMatrixValues(problem, m);
  system.Evaluate(problem, formulation, rho, v, r, /*with_jacobian=*/true);
  const Eigen::MatrixXd J = DenseJacobian(system);
  const Eigen::VectorXd G0 = system.residual();
  const int n = problem.n(), size = n + problem.m();
  Eigen::VectorXd z(size);
  z << v, r;
  auto residual_at = [&](const Eigen::VectorXd& point) {
    system.Evaluate(problem,
                    formulation,
                    rho,
                    point.head(n),
                    point.tail(problem.m()),
                    /*with_jacobian=*/false);
    return Eigen::VectorXd(system.residual());
  };
  FdOutcome outcome;
  for (int j = 0; j < size; ++j) {
    // Step ~ cbrt(eps) relative to the coordinate: the central-difference
    // optimum balancing truncation O(h^2) against round-off O(eps / h).
    const double h = 6e-6 * std::max(1.0, std::abs(z[j]));
    Eigen::VectorXd plus = z, minus = z;
    plus[j] += h;
    minus[j] -= h;
    const Eigen::VectorXd Gp = residual_at(plus), Gm = residual_at(minus);
    const Eigen::VectorXd forward = (Gp - G0) / h, backward = (G0 - Gm) / h;
    const double column_scale = std::max(1.0, J.col(j).norm());
    // Smooth along j: forward and backward agree to first order in h.
    if ((forward - backward).norm() > 1e-3 * column_scale) {
      ++outcome.skipped;
      continue;
    }
    const Eigen::VectorXd central = (Gp - Gm) / (2 * h);
    outcome.worst_relative_error =
        std::max(outcome.worst_relative_error,
                 (central - J.col(j)).norm() / column_scale);
    ++outcome.checked;
  }
  return outcome;
}

// A generic point: v of the size of M^{-1} f, r inside or outside the cone at
// random, so that contacts take every branch (separating, sticking, sliding).
void RandomPoint(const GlobalProblem& problem,
                 std::mt19937* rng,
                 Eigen::VectorXd* v,
                 Eigen::VectorXd* r,
                 Eigen::VectorXd* rho) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const double v_scale = std::max(1e-3, problem.f.cwiseAbs().maxCoeff());
  *v = Eigen::VectorXd::NullaryExpr(problem.n(), [&] { return unit(*rng); });
  *v *= v_scale;
  *r = Eigen::VectorXd::NullaryExpr(problem.m(), [&] { return unit(*rng); });
  *rho = Eigen::VectorXd::NullaryExpr(
      problem.m(), [&] { return 0.5 + 0.5 * (1.0 + unit(*rng)); });
}

struct Case {
  std::string name;
  GlobalProblem problem;
};

std::vector<Case> Cases() {
  std::vector<Case> cases;
  cases.push_back({"Lattice", testing::MakeLatticeOnFloor(3, 2, 2, 0.4, 1.3)});
  cases.push_back({"BoxStack", testing::MakeBoxStack(2, 0.6, 0.2)});
  for (const char* file : {"GFC3D_TwoRods1.hdf5", "GFC3D_Example1.hdf5"}) {
    GlobalProblem problem;
    std::string error;
    if (ReadGlobalProblem(
            testing::SharedProblem(file), {}, &problem, nullptr, &error)) {
      GlobalProblem full;
      cases.push_back({file, WithFullM(problem, &full)});
    } else {
      ADD_FAILURE() << error;
    }
  }
  return cases;
}

class GlobalJacobianFdTest : public ::testing::TestWithParam<Formulation> {};

TEST_P(GlobalJacobianFdTest, MatchesCentralDifferences) {
  std::mt19937 rng(20261123);
  for (const Case& c : Cases()) {
    for (int trial = 0; trial < 3; ++trial) {
      Eigen::VectorXd v, r, rho;
      RandomPoint(c.problem, &rng, &v, &r, &rho);
      const FdOutcome outcome =
          CompareWithDifferences(c.problem, GetParam(), rho, v, r);
      const int size = c.problem.n() + c.problem.m();
      SCOPED_TRACE(c.name + " trial " + std::to_string(trial));
      // Central differences with this step are accurate to ~1e-9 relative;
      // 1e-6 leaves room for curvature without hiding a wrong slot (O(1)).
      EXPECT_LT(outcome.worst_relative_error, 1e-6);
      EXPECT_GE(outcome.checked, size - size / 20)
          << outcome.skipped << " columns skipped";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllFormulations,
                         GlobalJacobianFdTest,
                         ::testing::Values(Formulation::kAlartCurnier,
                                           Formulation::kJeanMoreau,
                                           Formulation::kNaturalMap,
                                           Formulation::kFischerBurmeister),
                         [](const ::testing::TestParamInfo<Formulation>& info) {
                           std::string name = ToString(info.param);
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c)))
                               c = '_';
                           return name;
                         });

// The check itself can fail: a Jacobian with one wrong slot is caught.
TEST(GlobalJacobianFdTest, DetectsACorruptedEntry) {
  const GlobalProblem problem = testing::MakeLatticeOnFloor(2, 2, 1, 0.5, 1.2);
  std::mt19937 rng(7);
  Eigen::VectorXd v, r, rho;
  RandomPoint(problem, &rng, &v, &r, &rho);
  internal::SharedM m;  // M = problem.M
  NewtonSystem system;
  system.Build(problem);
  system.SetMatrixValues(problem, m);
  system.Evaluate(problem, Formulation::kAlartCurnier, rho, v, r, true);
  Eigen::MatrixXd J = DenseJacobian(system);
  // Perturbing -H's block in J by 1 % must show up against differences of G.
  const int n = problem.n();
  J(0, n) *= 1.01;
  J(0, n) += 1e-2;
  Eigen::VectorXd z(n + problem.m());
  z << v, r;
  const double h = 1e-6;
  Eigen::VectorXd plus = z, minus = z;
  plus[n] += h;
  minus[n] -= h;
  system.Evaluate(problem,
                  Formulation::kAlartCurnier,
                  rho,
                  plus.head(n),
                  plus.tail(problem.m()),
                  false);
  const Eigen::VectorXd Gp = system.residual();
  system.Evaluate(problem,
                  Formulation::kAlartCurnier,
                  rho,
                  minus.head(n),
                  minus.tail(problem.m()),
                  false);
  const Eigen::VectorXd central = (Gp - system.residual()) / (2 * h);
  EXPECT_GT((central - J.col(n)).norm() / std::max(1.0, J.col(n).norm()), 1e-4);
}

}  // namespace
}  // namespace fcsn
