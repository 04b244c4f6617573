// The Newton solver with MUMPS' memory savers on a wall-like FE problem (an
// elastic lattice block pulled on an uneven floor, tests/test_problems.h):
// block low-rank factors (tolerance 1e-8) still converge by fcsn's criterion,
// recomputed at the returned point, with no more stored factor entries than
// the full-rank solve; out-of-core factors give the in-core iterates.
#include <gtest/gtest.h>
#include <stdlib.h>  // mkdtemp

#include <filesystem>
#include <string>

#include "fcsn/solver.h"
#include "test_problems.h"
#include "test_util.h"

namespace fcsn {
namespace {

// 14 x 14 x 6 nodes: n = 3528, 196 contacts, pulled below the friction limit
// on a floor with gaps, so that contacts stick, slide and open.
GlobalProblem Wall() {
  return testing::MakeLatticeOnFloor(14, 14, 6, 0.5, 0.8, 1e-3);
}

SolverSummary SolveWall(const LinearSolverOptions& linear, Solution* out) {
  SolverOptions options;
  options.solver = SolverType::kNewton;
  options.tolerance = 1e-10;
  options.record_history = true;
  options.linear_solver = linear;
  Solver solver(options);
  return solver.Solve(Wall(), nullptr, out);
}

TEST(MemoryOptionsSolve, LowRankConvergesByTheCriterion) {
  Solution exact, approximate;
  const SolverSummary full = SolveWall(LinearSolverOptions(), &exact);
  LinearSolverOptions blr;
  blr.low_rank_tolerance = 1e-8;
  const SolverSummary low_rank = SolveWall(blr, &approximate);
  ASSERT_TRUE(full.IsConverged()) << full.FullReport();
  ASSERT_TRUE(low_rank.IsConverged()) << low_rank.FullReport();
  EXPECT_LE(low_rank.WorstError(), 1e-10);
  EXPECT_EQ(low_rank.factor_entries, full.factor_entries);
  EXPECT_LE(low_rank.compressed_factor_entries, full.factor_entries);
  EXPECT_LE(low_rank.last_factorization_effective_flops,
            full.last_factorization_flops);
  // The same solution, to the accuracy the tolerance allows.
  EXPECT_LE(testing::RelativeDistance(approximate.r, exact.r), 1e-6);
}

TEST(MemoryOptionsSolve, OutOfCoreTakesTheInCoreIteratesAndCleansUp) {
  std::string dir = testing::TempDir() + "/ooc-solve-XXXXXX";
  ASSERT_NE(mkdtemp(dir.data()), nullptr);
  Solution in_core, out_of_core;
  const SolverSummary reference = SolveWall(LinearSolverOptions(), &in_core);
  LinearSolverOptions ooc;
  ooc.out_of_core = true;
  ooc.out_of_core_directory = dir;
  const SolverSummary summary = SolveWall(ooc, &out_of_core);
  ASSERT_TRUE(summary.IsConverged()) << summary.FullReport();
  EXPECT_GT(summary.out_of_core_disk_mb, 0.0);
  ASSERT_EQ(summary.history.size(), reference.history.size());
  for (size_t k = 0; k < summary.history.size(); ++k) {
    const double merit = reference.history[k].merit;
    EXPECT_NEAR(summary.history[k].merit, merit, 1e-9 * (1 + merit)) << k;
  }
  EXPECT_LE(testing::RelativeDistance(out_of_core.r, in_core.r), 1e-10);
  EXPECT_TRUE(std::filesystem::is_empty(dir));
}

}  // namespace
}  // namespace fcsn
