// For every row of fcsn/option_table.h, a valid value other than its
// default: what the front-end tests (CLI, C, the table itself) set through
// each front end to show that every row reaches it.
#ifndef FCSN_TESTS_OPTION_VALUES_H_
#define FCSN_TESTS_OPTION_VALUES_H_

#include <string>
#include <vector>

namespace fcsn::testing {

struct OptionValue {
  std::string name;  // dotted row name
  std::string text;  // a valid value other than the default, as text
};

// One per row of SolverOptions, in the table's order. Numbers are chosen
// among default +- 1, default * 2, default / 2, the range's bounds and its
// middle, by a range check written here (not the library's).
std::vector<OptionValue> NonDefaultOptionValues();

}  // namespace fcsn::testing

#endif  // FCSN_TESTS_OPTION_VALUES_H_
