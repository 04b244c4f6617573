#include "option_values.h"

#include <charconv>
#include <cmath>
#include <system_error>
#include <type_traits>

#include "fcsn/option_table.h"

namespace fcsn::testing {
namespace {

bool InRange(const Range& r, double x) {
  if (r.has_special && x == r.special) return true;
  if (!std::isfinite(x)) return false;
  const bool above = r.low_open ? x > r.low : x >= r.low;
  const bool below = r.high_open ? x < r.high : x <= r.high;
  return above && below;
}

template <typename T>
std::string NumberText(T x) {
  if constexpr (std::is_integral_v<T>) {
    return std::to_string(x);
  } else {
    char text[32];  // the shortest text that reads back as x
    const auto [end, ec] = std::to_chars(text, text + sizeof(text), x);
    return std::string(text, ec == std::errc() ? end : text);
  }
}

template <typename T, typename Rule>
std::string OtherValue(const T& value, const Rule& rule) {
  if constexpr (std::is_same_v<T, bool>) {
    return value ? "false" : "true";
  } else if constexpr (std::is_enum_v<T>) {
    for (T e : *rule.all) {
      if (e != value) return ToString(e);
    }
    return "";
  } else if constexpr (std::is_same_v<T, std::string>) {
    return value == "fcsn-option-test" ? "" : "fcsn-option-test";
  } else {
    const double v = static_cast<double>(value);
    const double middle = 0.5 * (rule.low + rule.high);
    for (double x :
         {v + 1, v - 1, v * 2, v / 2, rule.low, rule.high, middle, 1.0}) {
      const T candidate = static_cast<T>(x);
      if (candidate != value && static_cast<double>(candidate) == x &&
          InRange(rule, x))
        return NumberText(candidate);
    }
    return "";
  }
}

}  // namespace

std::vector<OptionValue> NonDefaultOptionValues() {
  std::vector<OptionValue> values;
  const SolverOptions defaults;
  ForEachOption<SolverOptions>(
      [&](const std::string& name, auto access, const auto& rule, const char*) {
        values.push_back({name, OtherValue(access(defaults), rule)});
      });
  return values;
}

}  // namespace fcsn::testing
