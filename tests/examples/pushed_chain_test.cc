// Stick-slip fronts (bench/results/fronts.md): a stiff bar pushed along a
// plane (examples/pushed_bodies) with 500 and 2000 contacts, the default
// policy, warm-started steps. Without the transport sweep Newton advanced
// the front one contact per iteration: the largest count per step was 39
// at 500 contacts and every front step failed at 2000. The counts are
// deterministic; the bound leaves room for round-off-level differences
// between machines (a step converging one iteration later).
#include <gtest/gtest.h>

#include "fcsn/options.h"
#include "pushed_chain_model.h"

namespace fcsn::pushed_bodies {
namespace {

// Largest Newton count per step asserted (measured: 4 at both sizes).
constexpr int kMaxIterationsPerStep = 8;

void ExpectBoundedFronts(int nodes) {
  ChainOptions options;
  options.nodes = nodes;
  options.steps = 20;  // the front crosses the whole bar by step 14
  SolverOptions solver;
  const ChainRun run = RunChain(options, solver);
  EXPECT_EQ(run.unconverged, 0);
  EXPECT_LE(run.max_iterations, kMaxIterationsPerStep);
  EXPECT_GE(run.front_steps, 10);  // the front did run along the bar
  int sweeps = 0;
  for (const ChainStep& step : run.steps) sweeps += step.sweeps;
  EXPECT_GT(sweeps, 0);  // by the transport sweeps
  EXPECT_EQ(run.steps.back().sliding, nodes);
}

TEST(PushedChainTest, FiveHundredContacts) { ExpectBoundedFronts(500); }
TEST(PushedChainTest, TwoThousandContacts) { ExpectBoundedFronts(2000); }

}  // namespace
}  // namespace fcsn::pushed_bodies
