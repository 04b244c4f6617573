// report_format.h: number and text formatting shared by compare_siconos'
// console lines, CSV and Markdown reports.
#ifndef FCSN_BENCH_COMPARE_SICONOS_REPORT_FORMAT_H_
#define FCSN_BENCH_COMPARE_SICONOS_REPORT_FORMAT_H_

#include <string>
#include <vector>

namespace fcsn_bench {

// printf of one double with `format` (at most 63 characters).
std::string Fmt(const char* format, double x);
// "%.2e", or "nan".
std::string Sci(double x);
// Seconds: "%.3g" below 100, "%.0f" from 100; "" for NaN.
std::string Secs(double x);
// s, double-quoted (quotes doubled) when it holds a comma, quote or newline.
std::string CsvQuote(const std::string& s);
// Median (mean of the two middle values for an even count); NaN if empty.
double Median(std::vector<double> x);

}  // namespace fcsn_bench

#endif  // FCSN_BENCH_COMPARE_SICONOS_REPORT_FORMAT_H_
