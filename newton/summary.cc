#include "fcsn/summary.h"

#include <cstdio>
#include <string>
#include <vector>

#include "fcsn/error_measures.h"

namespace fcsn {
namespace {

std::string Format(
    const char* format, double a, double b = 0, double c = 0, double d = 0) {
  char buffer[256];
  std::snprintf(buffer, sizeof(buffer), format, a, b, c, d);
  return buffer;
}

// FullReport()'s line on the last factorization (sizes, flops, memory).
std::string FactorizationLine(const SolverSummary& s) {
  char buffer[320];
  std::snprintf(buffer,
                sizeof(buffer),
                "  factors: %lld entries (%lld compressed), %.3e flops "
                "(%.3e effective); MUMPS memory %.0f MB estimated, %.0f MB "
                "used, %.0f MB on disk\n",
                s.factor_entries,
                s.compressed_factor_entries,
                s.last_factorization_flops,
                s.last_factorization_effective_flops,
                s.estimated_memory_mb,
                s.factorization_memory_mb,
                s.out_of_core_disk_mb);
  return buffer;
}

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
  out += Format("  velocity scale s_u %.3e, round-off floor s_eps %.3e",
                velocity_scale,
                velocity_floor);
  out += floor_from_diagonal ? " (from diag(M): M not regular)\n" : "\n";
  out += "  analyses " + std::to_string(analyses) + ", factorizations " +
         std::to_string(factorizations) + ", linear solves " +
         std::to_string(linear_solves) + ", line-search trials " +
         std::to_string(line_search_trials) + ", regularized factorizations " +
         std::to_string(regularized_factorizations) + ", fallbacks " +
         std::to_string(fallbacks) + ", rho reductions " +
         std::to_string(rho_reductions) + ", line-search safeguards " +
         std::to_string(line_search_safeguards) +
         ", accepted line-search failures " +
         std::to_string(accepted_line_search_failures) + ", Delassus entries " +
         std::to_string(delassus_entries) +
         (delassus_over_budget ? " (W over budget, not formed)" : "") +
         ", ordering " + (ordering_used.empty() ? "-" : ordering_used) + "\n";
  if (refinement_steps > 0 || precision_fallbacks > 0) {
    out += "  mixed precision: refinement steps " +
           std::to_string(refinement_steps) + ", fallbacks to double " +
           std::to_string(precision_fallbacks) + "\n";
  }
  if (factor_entries > 0) out += FactorizationLine(*this);
  out += Format(
      "  time: setup %.4f, analysis %.4f, factorization %.4f, solve %.4f,",
      timings.setup,
      timings.analysis,
      timings.factorization,
      timings.linear_solve);
  out += Format(
      " residual+jacobian %.4f, line search %.4f, nsgs %.4f, errors %.4f s\n",
      timings.residual_jacobian,
      timings.line_search,
      timings.nsgs,
      timings.error_measures);
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
