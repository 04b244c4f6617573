#include "fcsn/summary.h"

#include <cstdio>
#include <string>
#include <vector>

#include "fcsn/error_measures.h"
#include "fcsn/summary_table.h"

namespace fcsn {
namespace {

std::string Format(
    const char* format, double a, double b = 0, double c = 0, double d = 0) {
  char buffer[256];
  std::snprintf(buffer, sizeof(buffer), format, a, b, c, d);
  return buffer;
}

// The rows of fcsn/summary_table.h for FullReport(): one line per section,
// "  title: name value, name value", wrapped before 100 columns.
template <typename S>
struct ReportRows {
  const S& s;
  std::string* out;
  std::string line;

  static std::string Text(double x) { return Format("%.4g", x); }
  static std::string Text(int x) { return std::to_string(x); }
  static std::string Text(long long x) { return std::to_string(x); }
  static std::string Text(bool x) { return x ? "true" : "false"; }
  static std::string Text(const std::string& x) { return x.empty() ? "-" : x; }

  void Flush() {
    if (line.empty()) return;
    if (line.back() == ',') line.pop_back();
    *out += line + "\n";
    line.clear();
  }
  void Section(const char* title) {
    Flush();
    line = std::string("  ") + title + ":";
  }
  template <typename T>
  void Field(const char* name, T S::*member, const char*) {
    const std::string piece =
        std::string(" ") + name + " " + Text(s.*member) + ",";
    if (line.size() + piece.size() > 99) {
      Flush();
      line = "   ";
    }
    line += piece;
  }
  template <typename Sub>
  void Group(const char* name, Sub S::*member) {
    Flush();
    ReportRows<Sub> rows{s.*member, out, std::string("  ") + name + ":"};
    SummaryFields<Sub>::Visit(rows);
    rows.Flush();
  }
};

// The per-iteration table of FullReport(): a header and one line per record.
std::string HistoryTable(const std::vector<IterationRecord>& history) {
  std::string out =
      "  phase   iter      e_cone      e_dual      e_comp        e_eq "
      "      e_nat       merit   alpha trials take-off stick slip "
      "rho-boost\n";
  for (const IterationRecord& h : history) {
    char line[256];
    std::snprintf(
        line,
        sizeof(line),
        "  %-6s %5d %11.3e %11.3e %11.3e %11.3e %11.3e %11.3e %7.4f %6d "
        "%8d %5d %4d %9g\n",
        ToString(h.phase),
        h.iteration,
        h.e_cone,
        h.e_dual,
        h.e_comp,
        h.e_eq,
        h.e_nat,
        h.merit,
        h.step_length,
        h.line_search_trials,
        h.take_off,
        h.stick,
        h.slip,
        h.rho_boost);
    out += line;
  }
  return out;
}

}  // namespace

double IterationRecord::WorstError() const {
  ErrorMeasures e;
  e.e_cone = e_cone;
  e.e_dual = e_dual;
  e.e_comp = e_comp;
  e.e_eq = e_eq;
  return e.Worst();
}

double SolverSummary::WorstError() const {
  ErrorMeasures e;
  e.e_cone = e_cone;
  e.e_dual = e_dual;
  e.e_comp = e_comp;
  e.e_eq = e_eq;
  return e.Worst();
}

std::string SolverSummary::BriefReport() const {
  std::string out = std::string(ToString(status)) + ": " +
                    std::to_string(iterations) + " Newton iterations, " +
                    std::to_string(nsgs_sweeps) + " NSGS sweeps, ";
  out += Format("e_cone %.3e, e_dual %.3e, e_comp %.3e, e_eq %.3e, ",
                e_cone,
                e_dual,
                e_comp,
                e_eq);
  out += Format("e_nat %.3e, %.3f s", e_nat, timings.total);
  if (!message.empty()) out += " (" + message + ")";
  return out;
}

std::string SolverSummary::FullReport() const {
  std::string out = BriefReport() + "\n";
  ReportRows<SolverSummary> rows{*this, &out, ""};
  SummaryFields<SolverSummary>::Visit(rows);
  rows.Flush();
  if (!history.empty()) out += HistoryTable(history);
  return out;
}

}  // namespace fcsn

namespace fcsn {

SetupSummary::operator SolverSummary() const {
  SolverSummary summary;
  switch (status) {
    case SetupStatus::kReady:
      summary.status = SolverStatus::kConverged;
      break;
    case SetupStatus::kInvalidInput:
      summary.status = SolverStatus::kInvalidInput;
      break;
    case SetupStatus::kLinearSolverFailed:
      summary.status = SolverStatus::kLinearSolverFailed;
      break;
    case SetupStatus::kInternalError:
      summary.status = SolverStatus::kNumericalIssue;  // as Solve() reports it
      break;
  }
  summary.message = message;
  summary.analyses = analyses;
  summary.timings = timings;
  return summary;
}

}  // namespace fcsn
