// Tests of the option rows (fcsn/option_table.h, api/option_table.cc):
// every row reads and writes its field by name, as text and as a number; the
// defaults read back as themselves; Validate() rejects a value just outside
// each bound with the row's name; SameOptions() sees every row; bad names and
// values are refused with a sentence.
#include "fcsn/option_table.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <type_traits>
#include <utility>

#include "option_values.h"

namespace fcsn {
namespace {

TEST(OptionTableTest, NamesAreUniqueAndDefaultsReadBack) {
  const std::vector<OptionInfo> rows = SolverOptionTable();
  ASSERT_GT(rows.size(), 50u);
  std::set<std::string> names;
  const SolverOptions defaults;
  for (const OptionInfo& row : rows) {
    EXPECT_TRUE(names.insert(row.name).second) << row.name;
    EXPECT_FALSE(row.doc.empty()) << row.name;
    std::string text;
    ASSERT_EQ(GetOption(defaults, row.name, &text), "") << row.name;
    EXPECT_EQ(text, row.default_value) << row.name;
    SolverOptions options;
    ASSERT_EQ(SetOption(&options, row.name, text), "") << row.name;
    EXPECT_TRUE(SameOptions(options, defaults)) << row.name;
  }
  EXPECT_EQ(names.count("rho.initial_boost"), 1u);
  EXPECT_EQ(names.count("linear_solver.out_of_core_directory"), 1u);
}

TEST(OptionTableTest, EveryRowReachesItsField) {
  const SolverOptions defaults;
  for (const testing::OptionValue& v : testing::NonDefaultOptionValues()) {
    ASSERT_FALSE(v.text.empty()) << v.name << ": no other valid value";
    SolverOptions options;
    ASSERT_EQ(SetOption(&options, v.name, v.text), "") << v.name;
    EXPECT_EQ(options.Validate(), "") << v.name << " = " << v.text;
    EXPECT_FALSE(SameOptions(options, defaults)) << v.name;
    std::string text;
    ASSERT_EQ(GetOption(options, v.name, &text), "");
    SolverOptions copy;
    ASSERT_EQ(SetOption(&copy, v.name, text), "") << v.name;
    EXPECT_TRUE(SameOptions(copy, options)) << v.name;
    double number = 0.0;
    if (GetOption(options, v.name, &number).empty()) {  // numbers and flags
      SolverOptions by_number;
      ASSERT_EQ(SetOption(&by_number, v.name, number), "") << v.name;
      EXPECT_TRUE(SameOptions(by_number, options)) << v.name;
    }
  }
}

// A value just outside each finite bound of each number row is rejected,
// naming the row; the rows' ranges are what Validate() checks.
TEST(OptionTableTest, ValidateRejectsJustOutsideEachBound) {
  int checked = 0;
  ForEachOption<SolverOptions>([&](const std::string& name,
                                   auto access,
                                   const auto& rule,
                                   const char*) {
    if constexpr (std::is_same_v<std::decay_t<decltype(rule)>, Range>) {
      using T = std::decay_t<decltype(access(std::declval<SolverOptions&>()))>;
      const bool integer = std::is_integral_v<T>;
      for (const bool low : {true, false}) {
        const double bound = low ? rule.low : rule.high;
        if (!std::isfinite(bound)) continue;
        const bool open = low ? rule.low_open : rule.high_open;
        const double direction = low ? -1.0 : 1.0;
        double outside =
            open ? bound
                 : (integer ? bound + direction
                            : std::nextafter(bound, direction * INFINITY));
        if (rule.has_special && outside == rule.special) outside += direction;
        SolverOptions options;
        access(options) = static_cast<T>(outside);
        const std::string why = options.Validate();
        EXPECT_NE(why.find("SolverOptions::" + name + " = "), std::string::npos)
            << name << " = " << outside << ": \"" << why << "\"";
        ++checked;
      }
    }
  });
  EXPECT_GT(checked, 40);
}

// LinearSolverOptions::Validate() (inline in its header, for targets that
// do not link the library) accepts and rejects as the table's rows do.
TEST(OptionTableTest, LinearSolverValidateAgreesWithTheRows) {
  int checked = 0;
  ForEachOption<LinearSolverOptions>([&](const std::string& name,
                                         auto access,
                                         const auto& rule,
                                         const char*) {
    if constexpr (std::is_same_v<std::decay_t<decltype(rule)>, Range>) {
      using T =
          std::decay_t<decltype(access(std::declval<LinearSolverOptions&>()))>;
      for (const bool low : {true, false}) {
        const double bound = low ? rule.low : rule.high;
        if (!std::isfinite(bound)) continue;
        const double direction = low ? -1.0 : 1.0;
        const double inside = (low ? rule.low_open : rule.high_open)
                                  ? std::nextafter(bound, -direction * INFINITY)
                                  : bound;
        const double outside =
            (low ? rule.low_open : rule.high_open)
                ? bound
                : (std::is_integral_v<T>
                       ? bound + direction
                       : std::nextafter(bound, direction * INFINITY));
        LinearSolverOptions options;
        access(options) = static_cast<T>(outside);
        EXPECT_NE(options.Validate().find(name), std::string::npos) << name;
        access(options) = static_cast<T>(inside);
        EXPECT_EQ(options.Validate(), "") << name << " = " << inside;
        ++checked;
      }
    }
  });
  LinearSolverOptions long_directory;
  long_directory.out_of_core_directory =
      std::string(LinearSolverOptions::kMaxOutOfCoreDirectoryLength + 1, 'd');
  EXPECT_NE(long_directory.Validate(), "");
  EXPECT_GE(checked, 10);
}

TEST(OptionTableTest, RefusesUnknownNamesAndValuesOfTheWrongType) {
  SolverOptions options;
  EXPECT_NE(SetOption(&options, "rho.nope", "1").find("rho.nope"),
            std::string::npos);
  EXPECT_NE(SetOption(&options, "rho", "1"), "");  // a group, not a row
  EXPECT_NE(SetOption(&options, "max_iterations", "1.5"), "");
  EXPECT_NE(SetOption(&options, "max_iterations", "3e9"), "");
  EXPECT_NE(SetOption(&options, "tolerance", "abc"), "");
  EXPECT_NE(SetOption(&options, "tolerance", ""), "");
  EXPECT_NE(SetOption(&options, "solver", "fast"), "");
  EXPECT_NE(SetOption(&options, "solver", 1.0), "");
  EXPECT_NE(SetOption(&options, "record_history", 0.5), "");
  EXPECT_TRUE(SameOptions(options, SolverOptions()));  // nothing changed
  double x = 0.0;
  EXPECT_NE(GetOption(options, "solver", &x), "");
  EXPECT_EQ(SetOption(&options, "max_iterations", "1e3"), "");
  EXPECT_EQ(options.max_iterations, 1000);
  EXPECT_EQ(SetOption(&options, "time_limit_seconds", "inf"), "");
  EXPECT_EQ(options.Validate(), "");
}

TEST(OptionTableTest, DescribesTheRules) {
  EXPECT_EQ(Describe(Range::Open(0, 1), false), "in (0, 1)");
  EXPECT_EQ(Describe(Range::AtLeast(1), false), "finite and >= 1");
  EXPECT_EQ(Describe(Range::AtLeast(0), true), ">= 0");
  EXPECT_EQ(Describe(Range::Above(0).InfinityMeansNone(), false),
            "> 0 (infinity for none)");
  EXPECT_EQ(Describe(Range::Closed(0, 100).Or(-1, "auto"), true),
            "in [0, 100] or -1 (auto)");
  EXPECT_EQ(Describe(Choice(kAllSolverTypes)),
            "one of: " + NamesOf(kAllSolverTypes));
}

}  // namespace
}  // namespace fcsn
