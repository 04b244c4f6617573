// The operations on the option rows of fcsn/option_table.h: validation, text
// and number access by dotted name, equality.
#include "fcsn/option_table.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <type_traits>

namespace fcsn {
namespace {

template <typename T>
constexpr bool kIsNumber = std::is_arithmetic_v<T> && !std::is_same_v<T, bool>;

std::string Number(double x) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", x);
  return text;
}

template <typename T>
bool Accepts(const Range& r, T value) {
  const double x = static_cast<double>(value);
  if (r.has_special && x == r.special) return true;
  if (std::isnan(x)) return false;
  if (std::isinf(x)) return r.infinity_means_none && x > 0.0;
  if (x < r.low || (r.low_open && x == r.low)) return false;
  return !(x > r.high || (r.high_open && x == r.high));
}
bool Accepts(const Flag&, bool) { return true; }
bool Accepts(const Text& t, const std::string& s) {
  return s.size() <= t.max_length && s.find('\0') == std::string::npos;
}
template <typename Enum, std::size_t N>
bool Accepts(const ChoiceRule<Enum, N>& rule, Enum e) {
  for (Enum x : *rule.all) {
    if (x == e) return true;
  }
  return false;
}

// Describe() with the integer-ness of T for numbers.
template <typename T>
std::string RuleText(const Range& r) {
  return Describe(r, std::is_integral_v<T>);
}
template <typename T, typename Rule>
std::string RuleText(const Rule& rule) {
  return Describe(rule);
}

template <typename T>
const char* TypeName() {
  if constexpr (std::is_same_v<T, bool>) {
    return "flag";
  } else if constexpr (std::is_enum_v<T>) {
    return "choice";
  } else if constexpr (std::is_same_v<T, std::string>) {
    return "text";
  } else if constexpr (std::is_integral_v<T>) {
    return "integer";
  } else {
    return "real";
  }
}

template <typename T>
std::string ToText(const T& value) {
  if constexpr (std::is_same_v<T, bool>) {
    return value ? "true" : "false";
  } else if constexpr (std::is_enum_v<T>) {
    return ToString(value);
  } else if constexpr (std::is_same_v<T, std::string>) {
    return value;
  } else if constexpr (std::is_integral_v<T>) {
    return std::to_string(value);
  } else {
    // The shortest text that reads back as the same bits.
    char text[32];
    const auto [end, ec] = std::to_chars(text, text + sizeof(text), value);
    return ec == std::errc() ? std::string(text, end) : std::string("nan");
  }
}

// value as T when it is one (an integer type: integral and representable).
template <typename T>
bool FromNumber(double value, T* out) {
  if constexpr (std::is_same_v<T, bool>) {
    if (value != 0.0 && value != 1.0) return false;
    *out = value == 1.0;
  } else if constexpr (std::is_integral_v<T>) {
    // 2^63 and above (and NaN) do not fit; the bounds are exact in double.
    constexpr double kLimit = std::is_same_v<T, int> ? 2147483648.0 : 0x1p63;
    if (!(value >= -kLimit && value < kLimit) || std::trunc(value) != value)
      return false;
    *out = static_cast<T>(value);
  } else {
    *out = value;
  }
  return true;
}

bool ParseDouble(std::string_view text, double* x) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, *x);
  return ec == std::errc() && ptr == end && !text.empty();
}

template <typename T, typename Rule>
bool FromText(std::string_view text, const Rule& rule, T* out) {
  if constexpr (std::is_same_v<T, bool>) {
    if (text == "true" || text == "1")
      *out = true;
    else if (text == "false" || text == "0")
      *out = false;
    else
      return false;
    return true;
  } else if constexpr (std::is_enum_v<T>) {
    const std::optional<T> e = FromStringIn(*rule.all, text);
    if (e) *out = *e;
    return e.has_value();
  } else if constexpr (std::is_same_v<T, std::string>) {
    *out = std::string(text);
    return true;
  } else {
    if constexpr (std::is_integral_v<T>) {
      const char* end = text.data() + text.size();
      T parsed{};
      const auto [ptr, ec] = std::from_chars(text.data(), end, parsed);
      if (ec == std::errc() && ptr == end && !text.empty()) {
        *out = parsed;
        return true;
      }
    }
    double x = 0.0;
    return ParseDouble(text, &x) && FromNumber(x, out);
  }
}

// Finds row `name` of SolverOptions and calls act(field, rule) on it; false
// when there is no such row.
template <typename Options, typename Act>
bool WithRow(Options& options, std::string_view name, Act act) {
  bool found = false;
  ForEachOption<SolverOptions>(
      [&](const std::string& row, auto access, const auto& rule, const char*) {
        if (found || row != name) return;
        found = true;
        act(access(options), rule);
      });
  return found;
}

std::string UnknownName(std::string_view name) {
  return "no option named '" + std::string(name) +
         "' (fcsn::SolverOptionTable() lists them).";
}

template <typename T, typename Rule>
std::string NotAValue(std::string_view name,
                      std::string_view given,
                      const Rule& rule) {
  return "option " + std::string(name) + " = '" + std::string(given) +
         "' is not a " + TypeName<T>() + " (" + RuleText<T>(rule) + ").";
}

// The first row or relation of Root that options violates, as a sentence
// "<prefix><name> = <value> must be <rule>.", or "".
template <typename Root>
std::string FirstViolation(const Root& options, const std::string& prefix) {
  std::string why;
  ForEachOption<Root>(
      [&](const std::string& name, auto access, const auto& rule, const char*) {
        const auto& value = access(options);
        using T = std::decay_t<decltype(value)>;
        if (!why.empty() || Accepts(rule, value)) return;
        std::ostringstream out;
        out << prefix << name << " = ";
        if constexpr (std::is_same_v<T, std::string>) {
          out << "(" << value.size() << " bytes)";
        } else if constexpr (kIsNumber<T>) {
          out << value;  // 6 digits: a message, not a round trip
        } else {
          out << ToText(value);
        }
        out << " must be " << RuleText<T>(rule) << ".";
        why = out.str();
      },
      [&](const std::string& group,
          const char* name,
          auto check,
          const char* requirement) {
        if (why.empty() && !check(options))
          why = prefix + group + name + " " + requirement + ".";
      });
  return why;
}

template <typename Root>
bool SameRows(const Root& a, const Root& b) {
  bool same = true;
  ForEachOption<Root>(
      [&](const std::string&, auto access, const auto&, const char*) {
        same = same && access(a) == access(b);
      });
  return same;
}

}  // namespace

std::string Describe(const Range& r, bool integer) {
  std::string text;
  const bool low = std::isfinite(r.low);
  const bool high = std::isfinite(r.high);
  if (low && high) {
    text = std::string("in ") + (r.low_open ? "(" : "[") + Number(r.low) +
           ", " + Number(r.high) + (r.high_open ? ")" : "]");
  } else if (low) {
    text = std::string(integer || r.infinity_means_none ? "" : "finite and ") +
           (r.low_open ? "> " : ">= ") + Number(r.low);
  } else {
    text = integer ? "an integer" : "finite";
  }
  if (r.infinity_means_none) text += " (infinity for none)";
  if (r.has_special)
    text += " or " + Number(r.special) + " (" + r.special_name + ")";
  return text;
}

std::string Describe(const Flag&) { return "true or false"; }

std::string Describe(const Text& t) {
  return "at most " + std::to_string(t.max_length) + " bytes, no NUL";
}

std::vector<OptionInfo> SolverOptionTable() {
  std::vector<OptionInfo> rows;
  const SolverOptions defaults;
  ForEachOption<SolverOptions>([&](const std::string& name,
                                   auto access,
                                   const auto& rule,
                                   const char* doc) {
    using T = std::decay_t<decltype(access(defaults))>;
    rows.push_back({name,
                    TypeName<T>(),
                    RuleText<T>(rule),
                    ToText(access(defaults)),
                    doc});
  });
  return rows;
}

std::string SetOption(SolverOptions* options,
                      std::string_view name,
                      std::string_view text) {
  std::string why;
  const bool found =
      WithRow(*options, name, [&](auto& field, const auto& rule) {
        using T = std::decay_t<decltype(field)>;
        if (!FromText(text, rule, &field)) why = NotAValue<T>(name, text, rule);
      });
  return found ? why : UnknownName(name);
}

std::string SetOption(SolverOptions* options,
                      std::string_view name,
                      double value) {
  std::string why;
  const bool found =
      WithRow(*options, name, [&](auto& field, const auto& rule) {
        using T = std::decay_t<decltype(field)>;
        bool ok = false;
        if constexpr (std::is_arithmetic_v<T>) ok = FromNumber(value, &field);
        if (!ok) why = NotAValue<T>(name, ToText(value), rule);
      });
  return found ? why : UnknownName(name);
}

std::string GetOption(const SolverOptions& options,
                      std::string_view name,
                      std::string* text) {
  const bool found =
      WithRow(options, name, [&](const auto& field, const auto&) {
        *text = ToText(field);
      });
  return found ? "" : UnknownName(name);
}

std::string GetOption(const SolverOptions& options,
                      std::string_view name,
                      double* value) {
  std::string why;
  const bool found =
      WithRow(options, name, [&](const auto& field, const auto&) {
        using T = std::decay_t<decltype(field)>;
        if constexpr (std::is_arithmetic_v<T>) {
          *value = static_cast<double>(field);
        } else {
          why = "option " + std::string(name) + " is a " + TypeName<T>() +
                ", not a number: read it as text.";
        }
      });
  return found ? why : UnknownName(name);
}

bool SameOptions(const SolverOptions& a, const SolverOptions& b) {
  return SameRows(a, b);
}

bool SameOptions(const LinearSolverOptions& a, const LinearSolverOptions& b) {
  return SameRows(a, b);
}

std::string SolverOptions::Validate() const {
  return FirstViolation(*this, "SolverOptions::");
}

}  // namespace fcsn
