// Property tests of every solver policy on generated problems
// (property_problems.h): whatever the family, conditioning, friction, gaps and
// units, a solve never crashes or returns non-finite values, a kConverged
// answer meets the revised criterion of formulations.md §9.1 as an
// independent checker computes it (property_check.h) and its friction opposes
// every slip faster than the tolerance's velocity, any other status explains
// itself, and no policy's verdict changes when the units change by powers of
// two. That change is exact: NSGS's sweeps see the same numbers times powers
// of two, and Newton factorizes the same matrix D J C bit for bit (its scales
// carry the units, newton/solve_run.h), so both runs of a case take the same
// path on one machine. How many answers are also bit-exact is printed, not
// asserted.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <tuple>

#include "property_runner.h"

namespace fcsn::property {
namespace {

// Cases per (family, policy): 5 families x 6 policies x 10 = 300 cases, each
// solved twice (as generated, and in other units).
constexpr int kSeedsPerFamily = 10;
// Unit exponents of the rescaled solve, varied with the seed: forces,
// velocities and masses move by up to 2^±24 (~1.7e7), far from overflow and
// subnormals for the generated magnitudes (1e-48 ... 1e48 at worst).
constexpr int kExponentRange = 24;

UnitExponents ExponentsFor(int seed) {
  const auto wrap = [](int x) {
    return x % (2 * kExponentRange + 1) - kExponentRange;
  };
  return {wrap(7 * seed + 3), wrap(13 * seed + 5), wrap(29 * seed + 11)};
}

class PropertyTest : public ::testing::TestWithParam<std::tuple<Family, int>> {
};

TEST_P(PropertyTest, InvariantsHoldForEveryCase) {
  const Family family = std::get<0>(GetParam());
  const Policy& policy = kAllPolicies[std::get<1>(GetParam())];
  int bit_exact = 0, compared = 0, flipped = 0;
  for (int seed = 0; seed < kSeedsPerFamily; ++seed) {
    const GeneratedCase c = MakeCase(family, seed);
    const SolverOptions options = MakeOptions(policy, c.tolerance, Budget());
    const Outcome out = SolveAndCheck(c.problem, options);
    EXPECT_TRUE(out.violations.empty())
        << policy.name << " on " << c.description << ": "
        << Describe(out.violations);
    const RescaleComparison r =
        CompareRescaled(c.problem, options, out, ExponentsFor(seed));
    if (!r.compared) continue;
    ++compared;
    bit_exact += r.same_bits ? 1 : 0;
    flipped += r.same_status ? 0 : 1;
    EXPECT_TRUE(r.same_status)
        << policy.name << " on " << c.description
        << ": the verdict changed with the units: " << r.detail;
  }
  std::printf(
      "%s / %s: bit-exact under power-of-two units in %d of %d, verdict "
      "changed in %d\n",
      ToString(family),
      policy.name,
      bit_exact,
      compared,
      flipped);
}

std::string Name(
    const ::testing::TestParamInfo<std::tuple<Family, int>>& info) {
  std::string name = std::string(ToString(std::get<0>(info.param))) + "_" +
                     kAllPolicies[std::get<1>(info.param)].name;
  for (char& ch : name) {
    if (ch == '-') ch = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(
    AllFamiliesAndPolicies,
    PropertyTest,
    ::testing::Combine(::testing::ValuesIn(kAllFamilies),
                       ::testing::Range(0,
                                        static_cast<int>(kAllPolicies.size()))),
    Name);

}  // namespace
}  // namespace fcsn::property
