// Tests of the reuse of M's factorization and of rho's W_aa blocks across
// Solve() calls of one fcsn::Solver (linalg/m_factorization.h): a
// kept solver returns, step after step, the same bits as a fresh solver given
// the same guess, whether M and H are unchanged (reused) or changed (detected,
// refactorized).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "fcsn/options.h"
#include "fcsn/solver.h"
#include "test_problems.h"

namespace fcsn {
namespace {

// Solves `steps` with one kept solver and with a fresh solver per step, each
// warm-started from the kept solver's previous solution; expects identical
// statuses, iterations and bits of (v, u, r). J's last factors of the
// previous solve, which only a kept solver holds, are not offered to its
// first direction (krylov_reuse_iterations = 0): FGMRES on them gives other
// bits by design (tests/newton/krylov_reuse_test.cc tests that reuse). Nor
// does the first step take the rho the previous solve ended with
// (RhoOptions::warm_first_step_keeps_slips), which only a kept solver knows.
void ExpectKeptEqualsFresh(const std::vector<GlobalProblem>& steps,
                           SolverOptions options) {
  options.krylov_reuse_iterations = 0;
  options.rho.warm_first_step_keeps_slips = false;
  Solver kept(options);
  Solution previous;
  for (size_t k = 0; k < steps.size(); ++k) {
    SCOPED_TRACE("step " + std::to_string(k));
    Solution x_kept, x_fresh;
    const SolverSummary s_kept = kept.Solve(steps[k], &previous, &x_kept);
    Solver fresh(options);
    const SolverSummary s_fresh = fresh.Solve(steps[k], &previous, &x_fresh);
    ASSERT_TRUE(s_kept.status == SolverStatus::kConverged ||
                s_kept.status == SolverStatus::kRoundOffLimit)
        << s_kept.message;
    EXPECT_EQ(s_kept.status, s_fresh.status);
    EXPECT_EQ(s_kept.iterations, s_fresh.iterations);
    EXPECT_EQ(x_kept.v, x_fresh.v);
    EXPECT_EQ(x_kept.r, x_fresh.r);
    EXPECT_EQ(x_kept.u, x_fresh.u);
    previous = x_kept;
  }
}

// Steps of one lattice: pull and floor change, and, from step 2 on, M or H.
std::vector<GlobalProblem> Steps() {
  std::vector<GlobalProblem> steps;
  for (int k = 0; k < 6; ++k) {
    steps.push_back(
        testing::MakeLatticeOnFloor(5, 4, 2, 0.3, 0.6 + 0.2 * k, 1e-3 * k));
  }
  // Step 3: one ulp more mass on dof 0 (M changed, H the same).
  double& m00 = steps[3].M.coeffRef(0, 0);
  m00 = std::nextafter(m00, 2.0 * m00);
  // Step 4: back to the original M, one H entry 1 % larger.
  steps[4].H.valuePtr()[0] *= 1.01;
  return steps;
}

TEST(SolverReuseTest, KeptSolverGivesTheBitsOfAFreshOneHybrid) {
  SolverOptions options;
  options.tolerance = 1e-10;
  ExpectKeptEqualsFresh(Steps(), options);
}

TEST(SolverReuseTest, KeptSolverGivesTheBitsOfAFreshOneNewton) {
  SolverOptions options;
  options.solver = SolverType::kNewton;
  options.rho.rule = RhoRule::kExactDelassus;
  ExpectKeptEqualsFresh(Steps(), options);
}

TEST(SolverReuseTest, KeptSolverGivesTheBitsOfAFreshOneNsgs) {
  SolverOptions options;
  options.solver = SolverType::kNsgs;
  options.tolerance = 1e-8;
  ExpectKeptEqualsFresh(Steps(), options);
}

// An upper-triangle M is expanded into a new object at every solve: the
// comparison is by value, so the factors are still reused, and still correct.
TEST(SolverReuseTest, UpperTriangleMIsComparedByValue) {
  std::vector<GlobalProblem> steps = Steps();
  for (GlobalProblem& p : steps) {
    p.M = SparseMatrix(p.M.triangularView<Eigen::Upper>());
    p.m_upper_triangle = true;
  }
  ExpectKeptEqualsFresh(steps, SolverOptions());
}

}  // namespace
}  // namespace fcsn
