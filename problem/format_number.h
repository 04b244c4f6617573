// problem/format_number.h: the library's one format of a number in a
// message, "%.3e" ("1.234e-09"): every message that quotes a measure, a
// pivot or a floor prints it so.
#ifndef FCSN_PROBLEM_FORMAT_NUMBER_H_
#define FCSN_PROBLEM_FORMAT_NUMBER_H_

#include <cstdio>
#include <string>

namespace fcsn::internal {

inline std::string FormatNumber(double x) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.3e", x);
  return text;
}

}  // namespace fcsn::internal

#endif  // FCSN_PROBLEM_FORMAT_NUMBER_H_
