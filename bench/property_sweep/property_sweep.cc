// The property tests' cases in bulk (tests/property): for every family and
// solver policy, the verdicts of N generated cases under the checker of
// property_check.h, as a markdown table, then the first violations found with
// their numbers. bench/property_sweep/run.sh builds and runs it and writes
// bench/results/property.md.
//
//   property_sweep [--cases N] [--first-seed S] [--examples K]
//     N cases per family (default 200), seeds S ... S + N - 1 (default 0,
//     the property test's seeds come first), the first K violating cases of
//     every policy and family listed (default 2).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "property_runner.h"

namespace {

using fcsn::property::Family;
using fcsn::property::Policy;

// One row of the table: verdicts of one policy on one family.
struct Tally {
  int cases = 0;
  int converged = 0;
  int criterion = 0;  // converged, the checker disagrees
  int friction = 0;   // converged, a slip not opposed
  int other = 0;      // finite or message violations
  int rescaled = 0;   // rescaled pairs compared
  int changed = 0;    // verdict changed with the units
  int bit_exact = 0;  // same counts and bits up to the units
  int violating = 0;  // cases with any violation
  double seconds = 0;
  std::map<std::string, int> statuses;  // not converged, by status
};

struct Args {
  int cases = 200;
  int first_seed = 0;
  int examples = 2;
};

Args Parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    const int value = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--cases")) a.cases = value;
    if (!std::strcmp(argv[i], "--first-seed")) a.first_seed = value;
    if (!std::strcmp(argv[i], "--examples")) a.examples = value;
  }
  return a;
}

// The rescaled solve's units: the property test's rule (varied with the seed).
fcsn::property::UnitExponents ExponentsFor(int seed) {
  constexpr int kRange = 24;
  const auto wrap = [](int x) { return x % (2 * kRange + 1) - kRange; };
  return {wrap(7 * seed + 3), wrap(13 * seed + 5), wrap(29 * seed + 11)};
}

void Run(Family family,
         const Policy& policy,
         int seed,
         int listed,
         Tally* t,
         std::vector<std::string>* examples) {
  using namespace fcsn::property;
  const GeneratedCase c = MakeCase(family, seed);
  const fcsn::SolverOptions options =
      MakeOptions(policy, c.tolerance, Budget());
  const auto start = std::chrono::steady_clock::now();
  const Outcome out = SolveAndCheck(c.problem, options);
  const RescaleComparison r =
      CompareRescaled(c.problem, options, out, ExponentsFor(seed));
  t->seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  ++t->cases;
  if (out.summary.IsConverged()) {
    ++t->converged;
  } else {
    ++t->statuses[fcsn::ToString(out.summary.status)];
  }
  bool criterion = false, friction = false, other = false;
  for (const Violation& v : out.violations) {
    criterion |= v.invariant == "criterion";
    friction |= v.invariant == "friction";
    other |= v.invariant != "criterion" && v.invariant != "friction";
  }
  t->criterion += criterion;
  t->friction += friction;
  t->other += other;
  if (r.compared) {
    ++t->rescaled;
    t->changed += !r.same_status;
    t->bit_exact += r.same_bits;
  }
  const bool bad = !out.violations.empty() || (r.compared && !r.same_status);
  t->violating += bad;
  if (bad && t->violating <= listed) {
    examples->push_back(
        std::string(policy.name) + " on " + c.description + ": " +
        Describe(out.violations) +
        (r.compared && !r.same_status ? " verdict changed: " + r.detail : ""));
  }
}

void PrintRow(const char* policy, const char* family, const Tally& t) {
  std::string others;
  for (const auto& [status, count] : t.statuses) {
    others +=
        (others.empty() ? "" : ", ") + status + " " + std::to_string(count);
  }
  std::printf(
      "| %s | %s | %d | %d | %d | %d | %d | %d/%d | %d/%d | %s | %.2f |\n",
      policy,
      family,
      t.cases,
      t.converged,
      t.criterion,
      t.friction,
      t.other,
      t.changed,
      t.rescaled,
      t.bit_exact,
      t.rescaled,
      others.empty() ? "-" : others.c_str(),
      t.seconds);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace fcsn::property;
  const Args args = Parse(argc, argv);
  std::vector<std::string> examples;
  std::printf(
      "| policy | family | cases | converged | criterion violated | friction "
      "violated | finite/message violated | verdict changed by 2^k units | "
      "bit-exact under 2^k units | not converged | seconds |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const Policy& policy : kAllPolicies) {
    Tally all;
    for (Family family : kAllFamilies) {
      Tally t;
      for (int s = 0; s < args.cases; ++s) {
        Run(family, policy, args.first_seed + s, args.examples, &t, &examples);
      }
      PrintRow(policy.name, ToString(family), t);
      all.cases += t.cases;
      all.converged += t.converged;
      all.criterion += t.criterion;
      all.friction += t.friction;
      all.other += t.other;
      all.rescaled += t.rescaled;
      all.changed += t.changed;
      all.bit_exact += t.bit_exact;
      all.violating += t.violating;
      all.seconds += t.seconds;
      for (const auto& [status, count] : t.statuses) {
        all.statuses[status] += count;
      }
    }
    PrintRow(policy.name, "**all**", all);
    std::fflush(stdout);
  }
  std::printf("\nThe first violating cases of every policy and family:\n\n");
  for (const std::string& example : examples) {
    std::printf("- %s\n", example.c_str());
  }
  return 0;
}
