// The CLI's options against the rows of fcsn/option_table.h: `fcsn options
// --json` lists every row; --set reaches every row (all set at once to a
// valid value other than the default and read back from the options'
// values); short flags and --set land on the same row; bad names, values
// and ranges exit 2 with one line; `fcsn solve --json` reports the options
// it solved with and every row of the summary table.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli_runner.h"
#include "fcsn/option_table.h"
#include "fcsn/summary_table.h"
#include "option_values.h"
#include "test_util.h"

namespace fcsn {
namespace {

// The JSON value of a row as the text SetOption reads.
std::string AsText(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  return value.dump();
}

TEST(OptionsCliTest, ListsEveryRow) {
  const RunResult r = RunFcsn("options --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json out = nlohmann::json::parse(r.out);
  const std::vector<OptionInfo> table = SolverOptionTable();
  ASSERT_EQ(out["options"].size(), table.size());
  for (std::size_t k = 0; k < table.size(); ++k) {
    EXPECT_EQ(out["options"][k]["name"], table[k].name);
    EXPECT_EQ(out["options"][k]["default"], table[k].default_value);
    EXPECT_EQ(out["options"][k]["value"], table[k].default_value);
  }
}

TEST(OptionsCliTest, SetReachesEveryRow) {
  std::string args = "options --json";
  const std::vector<testing::OptionValue> values =
      testing::NonDefaultOptionValues();
  for (const testing::OptionValue& v : values)
    args += " --set '" + v.name + "=" + v.text + "'";
  const RunResult r = RunFcsn(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json out = nlohmann::json::parse(r.out);
  for (std::size_t k = 0; k < values.size(); ++k) {
    const testing::OptionValue& v = values[k];
    EXPECT_EQ(out["options"][k]["value"], v.text) << v.name;
    SolverOptions expected;
    SolverOptions from_json;
    ASSERT_EQ(SetOption(&expected, v.name, v.text), "");
    ASSERT_EQ(SetOption(&from_json, v.name, AsText(out["values"][v.name])), "")
        << v.name;
    EXPECT_TRUE(SameOptions(expected, from_json)) << v.name;
  }
}

TEST(OptionsCliTest, ShortFlagsAndSetNameTheSameRows) {
  const RunResult r = RunFcsn(
      "options --json --tol 1e-7 --rho-boost 3 --out-of-core "
      "--set nsgs.max_sweeps=7");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json values = nlohmann::json::parse(r.out)["values"];
  EXPECT_EQ(values["tolerance"], 1e-7);
  EXPECT_EQ(values["rho.initial_boost"], 3.0);
  EXPECT_EQ(values["linear_solver.out_of_core"], true);
  EXPECT_EQ(values["nsgs.max_sweeps"], 7);
  // --set is applied after the short flags.
  const RunResult both =
      RunFcsn("options --json --tol 1e-7 --set tolerance=1e-9");
  EXPECT_EQ(nlohmann::json::parse(both.out)["values"]["tolerance"], 1e-9);
}

TEST(OptionsCliTest, BadNamesValuesAndRangesExitTwoWithOneLine) {
  for (const char* args : {"options --set rho.nope=1",
                           "options --set tolerance",
                           "options --set max_iterations=1.5",
                           "options --set solver=fast",
                           "options --set rho.boost_window=0",
                           "options --tol abc"}) {
    const RunResult r = RunFcsn(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

// Expects a key per row of SummaryFields<S> in *json (nested for groups).
template <typename S>
struct SummaryKeys {
  const nlohmann::json* json;
  int checked = 0;
  void Section(const char*) {}
  template <typename T>
  void Field(const char* name, T S::*, const char*) {
    EXPECT_TRUE(json->contains(name)) << name;
    ++checked;
  }
  template <typename Sub>
  void Group(const char* name, Sub S::*) {
    ASSERT_TRUE(json->contains(name)) << name;
    SummaryKeys<Sub> nested{&(*json)[name]};
    SummaryFields<Sub>::Visit(nested);
    checked += nested.checked;
  }
};

TEST(OptionsCliTest, SolveReportsItsOptions) {
  const RunResult r =
      RunFcsn("solve --json --no-history --solver nsn --set max_iterations=0 " +
              testing::SharedProblem("CubeH8.hdf5"));
  ASSERT_EQ(r.exit_code, 1) << r.err;  // not converged in 0 iterations
  const nlohmann::json out = nlohmann::json::parse(r.out);
  EXPECT_EQ(out["iterations"], 0);
  EXPECT_EQ(out["options"]["max_iterations"], 0);
  EXPECT_EQ(out["options"]["solver"], "nsn");
  EXPECT_EQ(out["options"].size(), SolverOptionTable().size());
  // Every row of fcsn/summary_table.h is a key of the report.
  SummaryKeys<SolverSummary> keys{&out};
  SummaryFields<SolverSummary>::Visit(keys);
  EXPECT_GT(keys.checked, 40);
}

}  // namespace
}  // namespace fcsn
