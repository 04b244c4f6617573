// report_format.cc: see report_format.h.
#include "report_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace fcsn_bench {

std::string Fmt(const char* format, double x) {
  char b[64];
  std::snprintf(b, sizeof(b), format, x);
  return b;
}
std::string Sci(double x) {
  if (std::isnan(x)) return "nan";
  return Fmt("%.2e", x);
}
std::string Secs(double x) {
  if (std::isnan(x)) return "";
  return x >= 100 ? Fmt("%.0f", x) : Fmt("%.3g", x);
}
std::string CsvQuote(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

double Median(std::vector<double> x) {
  if (x.empty()) return NAN;
  std::sort(x.begin(), x.end());
  const size_t k = x.size() / 2;
  return x.size() % 2 ? x[k] : 0.5 * (x[k - 1] + x[k]);
}

}  // namespace fcsn_bench
