// The rows of fcsn/summary_table.h reach SolverSummary::FullReport(): every
// row of the summary and of its timings is printed as "name value" with the
// value it holds.
#include "fcsn/summary_table.h"

#include <gtest/gtest.h>

#include <string>
#include <type_traits>

namespace fcsn {
namespace {

// Gives every row a distinctive value and records "name value" as the report
// should print it.
template <typename S>
struct Fill {
  S* s;
  std::vector<std::string>* expected;
  int next = 7;
  void Section(const char*) {}
  template <typename T>
  void Field(const char* name, T S::*member, const char*) {
    T& field = s->*member;
    std::string text;
    if constexpr (std::is_same_v<T, bool>) {
      field = true;
      text = "true";
    } else if constexpr (std::is_same_v<T, std::string>) {
      field = "ord" + std::to_string(next);
      text = field;
    } else if constexpr (std::is_integral_v<T>) {
      field = static_cast<T>(next);
      text = std::to_string(next);
    } else {
      field = next + 0.5;  // exact in the report's 4 significant digits
      text = std::to_string(next) + ".5";
    }
    ++next;
    expected->push_back(std::string(name) + " " + text);
  }
  template <typename Sub>
  void Group(const char*, Sub S::*member) {
    Fill<Sub> rows{&(s->*member), expected, 50};
    SummaryFields<Sub>::Visit(rows);
  }
};

TEST(SummaryTableTest, FullReportPrintsEveryRow) {
  SolverSummary summary;
  std::vector<std::string> expected;
  Fill<SolverSummary> fill{&summary, &expected};
  SummaryFields<SolverSummary>::Visit(fill);
  ASSERT_GT(expected.size(), 40u);
  const std::string report = summary.FullReport();
  for (const std::string& row : expected)
    EXPECT_NE(report.find(" " + row), std::string::npos) << row << "\n"
                                                         << report;
  EXPECT_NE(report.find("timings: total 50.5"), std::string::npos) << report;
}

}  // namespace
}  // namespace fcsn
