// Python classes of the solve report (fcsn/summary.h), read-only and 1:1 with
// the C++ fields; the status is its ToString name ("converged", ...).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "fcsn/summary.h"
#include "python/src/bindings.h"

namespace fcsn::python {
namespace {

namespace py = pybind11;

void BindIterationRecord(py::module_& m) {
  using R = IterationRecord;
  py::class_<R>(m, "IterationRecord", "fcsn::IterationRecord (summary.h)")
      .def_property_readonly(
          "phase", [](const R& r) { return std::string(ToString(r.phase)); })
      .def_readonly("iteration", &R::iteration)
      .def_readonly("e_cone", &R::e_cone)
      .def_readonly("e_dual", &R::e_dual)
      .def_readonly("e_comp", &R::e_comp)
      .def_readonly("e_eq", &R::e_eq)
      .def_readonly("e_nat", &R::e_nat)
      .def_property_readonly("error", &R::WorstError)
      .def_readonly("merit", &R::merit)
      .def_readonly("step_length", &R::step_length)
      .def_readonly("line_search_trials", &R::line_search_trials)
      .def_readonly("take_off", &R::take_off)
      .def_readonly("stick", &R::stick)
      .def_readonly("slip", &R::slip)
      .def_readonly("seconds", &R::seconds)
      .def_readonly("rho_boost", &R::rho_boost);
}

void BindTimings(py::module_& m) {
  py::class_<Timings>(m, "Timings", "fcsn::Timings (seconds)")
      .def_readonly("total", &Timings::total)
      .def_readonly("setup", &Timings::setup)
      .def_readonly("analysis", &Timings::analysis)
      .def_readonly("factorization", &Timings::factorization)
      .def_readonly("linear_solve", &Timings::linear_solve)
      .def_readonly("residual_jacobian", &Timings::residual_jacobian)
      .def_readonly("line_search", &Timings::line_search)
      .def_readonly("nsgs", &Timings::nsgs)
      .def_readonly("error_measures", &Timings::error_measures);
}

}  // namespace

void BindSummary(py::module_& m) {
  BindIterationRecord(m);
  BindTimings(m);
  using S = SolverSummary;
  py::class_<S>(m, "SolverSummary", "fcsn::SolverSummary (summary.h)")
      .def_property_readonly(
          "status", [](const S& s) { return std::string(ToString(s.status)); })
      .def_property_readonly("converged", &S::IsConverged)
      .def_property_readonly("error", &S::WorstError)
      .def_readonly("message", &S::message)
      .def_readonly("iterations", &S::iterations)
      .def_readonly("nsgs_sweeps", &S::nsgs_sweeps)
      .def_readonly("line_search_trials", &S::line_search_trials)
      .def_readonly("analyses", &S::analyses)
      .def_readonly("factorizations", &S::factorizations)
      .def_readonly("linear_solves", &S::linear_solves)
      .def_readonly("regularized_factorizations",
                    &S::regularized_factorizations)
      .def_readonly("reused_factor_directions", &S::reused_factor_directions)
      .def_readonly("early_factorizations_used", &S::early_factorizations_used)
      .def_readonly("krylov_iterations", &S::krylov_iterations)
      .def_readonly("line_search_safeguards", &S::line_search_safeguards)
      .def_readonly("accepted_line_search_failures",
                    &S::accepted_line_search_failures)
      .def_readonly("fallbacks", &S::fallbacks)
      .def_readonly("rho_reductions", &S::rho_reductions)
      .def_readonly("delassus_entries", &S::delassus_entries)
      .def_readonly("delassus_over_budget", &S::delassus_over_budget)
      .def_readonly("refinement_steps", &S::refinement_steps)
      .def_readonly("precision_fallbacks", &S::precision_fallbacks)
      .def_readonly("e_cone", &S::e_cone)
      .def_readonly("e_dual", &S::e_dual)
      .def_readonly("e_comp", &S::e_comp)
      .def_readonly("e_eq", &S::e_eq)
      .def_readonly("e_nat", &S::e_nat)
      .def_readonly("siconos_error", &S::siconos_error)
      .def_readonly("last_factorization_flops", &S::last_factorization_flops)
      .def_readonly("last_factorization_effective_flops",
                    &S::last_factorization_effective_flops)
      .def_readonly("factor_entries", &S::factor_entries)
      .def_readonly("compressed_factor_entries", &S::compressed_factor_entries)
      .def_readonly("estimated_memory_mb", &S::estimated_memory_mb)
      .def_readonly("factorization_memory_mb", &S::factorization_memory_mb)
      .def_readonly("out_of_core_disk_mb", &S::out_of_core_disk_mb)
      .def_readonly("ordering_used", &S::ordering_used)
      .def_readonly("timings", &S::timings)
      .def_readonly("history", &S::history)
      .def("brief_report", &S::BriefReport)
      .def("full_report", &S::FullReport);
}

}  // namespace fcsn::python
