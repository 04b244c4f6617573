// Python classes of the solve report (fcsn/summary.h), read-only and 1:1 with
// the C++ fields; statuses are their ToString names ("converged", ...). They
// pickle, so that results can be stored or sent to other processes.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "fcsn/summary.h"
#include "python/src/bindings.h"
#include "python/src/record.h"

namespace fcsn::python {
namespace {

namespace py = pybind11;

constexpr char kErrorDoc[] =
    "max(e_cone, e_dual, e_comp, e_eq): the convergence criterion's value "
    "(NaN if any is NaN); converged iff <= tolerance.";

void BindIterationRecord(py::module_& m) {
  using R = IterationRecord;
  RecordBinder<R> b(
      m,
      "IterationRecord",
      "One Newton iteration or one NSGS error check of a solve "
      "(SolverSummary.history; the iteration_callback's argument).");
  b.EnumField("phase",
              &R::phase,
              kAllIterationPhases,
              "What produced the record: a Newton iteration or an NSGS check.")
      .Field("iteration",
             &R::iteration,
             "Newton iteration or NSGS sweep index within the solve.")
      .Field("e_cone",
             &R::e_cone,
             "Unit-free distance of r to the friction cone (error_measures.h).")
      .Field("e_dual",
             &R::e_dual,
             "Unit-free distance of the De Saxce velocity to the dual cone.")
      .Field("e_comp", &R::e_comp, "Unit-free complementarity gap.")
      .Field("e_eq",
             &R::e_eq,
             "Componentwise backward error of the balance M v = H r + f.")
      .Field(
          "e_nat",
          &R::e_nat,
          "Natural-map residual, unit-free; reported only, not a criterion.");
  b.cls().def_property_readonly("error", &R::WorstError, kErrorDoc);
  b.Field("merit", &R::merit, "||D G|| of the iterate (Newton); 0 for NSGS.")
      .Field("step_length",
             &R::step_length,
             "Accepted line-search step alpha in (0, 1] (Newton).")
      .Field("line_search_trials",
             &R::line_search_trials,
             "Residual evaluations of this iteration's line search.")
      .Field("take_off", &R::take_off, "Contacts with r = 0 at the iterate.")
      .Field("stick",
             &R::stick,
             "Contacts with r inside the cone (||r_T|| < mu r_N).")
      .Field(
          "slip", &R::slip, "Contacts with r on the cone's boundary, r != 0.")
      .Field("seconds",
             &R::seconds,
             "Wall time since the start of the solve, in seconds.")
      .Field("rho_boost",
             &R::rho_boost,
             "Newton: the rho boost in effect (RhoOptions.initial_boost, "
             "reduced by the continuation); >= 1.");
  b.Finish();
}

void BindTimings(py::module_& m) {
  using T = Timings;
  RecordBinder<T> b(m,
                    "Timings",
                    "Wall times of one solve or setup, in seconds. Two setup "
                    "threads overlap, so the parts may add up to more than "
                    "total.");
  b.Field("total", &T::total, "The whole call.")
      .Field("setup", &T::setup, "Pattern of J, rho, q_free, Delassus data.")
      .Field("analysis",
             &T::analysis,
             "Symbolic factorizations, ordering included.")
      .Field("factorization", &T::factorization, "Numeric factorizations.")
      .Field("linear_solve", &T::linear_solve, "Triangular solves.")
      .Field("residual_jacobian",
             &T::residual_jacobian,
             "G(z) and the values of J, outside the line search.")
      .Field("line_search", &T::line_search, "Trial residual evaluations.")
      .Field("nsgs", &T::nsgs, "NSGS sweeps (hybrid and pure NSGS).")
      .Field(
          "error_measures", &T::error_measures, "Error-measure evaluations.");
  b.Finish();
}

void BindSummaryCounters(RecordBinder<SolverSummary>* b) {
  using S = SolverSummary;
  b->Field("iterations", &S::iterations, "Newton iterations.")
      .Field("nsgs_sweeps", &S::nsgs_sweeps, "NSGS sweeps.")
      .Field("line_search_trials",
             &S::line_search_trials,
             "Residual evaluations of all line searches.")
      .Field("analyses",
             &S::analyses,
             "Symbolic factorizations in this solve (0 when a Solver reuses "
             "the analysis of an unchanged pattern).")
      .Field("factorizations",
             &S::factorizations,
             "Numeric factorizations in this solve.")
      .Field("linear_solves", &S::linear_solves, "Linear solves.")
      .Field("regularized_factorizations",
             &S::regularized_factorizations,
             "Refactorizations of J + delta E after a singular J.")
      .Field("reused_factor_directions",
             &S::reused_factor_directions,
             "Newton directions found by FGMRES on previous factors.")
      .Field("early_factorizations_used",
             &S::early_factorizations_used,
             "0 or 1: the first direction used J's early factorization.")
      .Field("krylov_iterations",
             &S::krylov_iterations,
             "Inner FGMRES iterations, all runs.")
      .Field("line_search_safeguards",
             &S::line_search_safeguards,
             "Restarts with an Armijo search after a stall at the final rho.")
      .Field("accepted_line_search_failures",
             &S::accepted_line_search_failures,
             "Steps taken although the line search failed (on_failure = "
             "'accept').")
      .Field("fallbacks", &S::fallbacks, "Newton -> NSGS hand-overs (hybrid).")
      .Field("rho_reductions",
             &S::rho_reductions,
             "rho continuation steps (RhoOptions).")
      .Field("delassus_entries",
             &S::delassus_entries,
             "Entries of the Delassus operator W stored for NSGS (0: not "
             "formed).")
      .Field("delassus_over_budget",
             &S::delassus_over_budget,
             "The hybrid declined to form W (HybridOptions budget).")
      .Field("refinement_steps",
             &S::refinement_steps,
             "Mixed precision: single-precision solves of the refinement.")
      .Field("precision_fallbacks",
             &S::precision_fallbacks,
             "Mixed precision: factorizations redone in double precision.");
}

void BindSummaryMeasures(RecordBinder<SolverSummary>* b) {
  using S = SolverSummary;
  b->Field("e_cone", &S::e_cone, "e_cone of the returned point (unit-free).")
      .Field("e_dual", &S::e_dual, "e_dual of the returned point (unit-free).")
      .Field("e_comp", &S::e_comp, "e_comp of the returned point (unit-free).")
      .Field("e_eq", &S::e_eq, "e_eq of the returned point (unit-free).")
      .Field("e_nat", &S::e_nat, "Natural-map residual; reported only.")
      .Field("siconos_error",
             &S::siconos_error,
             "Siconos' gfc3d_compute_error value, for comparison only.")
      .Field("velocity_scale",
             &S::velocity_scale,
             "s_u, the velocity scale of e_dual and e_comp (velocity units).")
      .Field("velocity_floor",
             &S::velocity_floor,
             "s_eps, the round-off floor of s_u (velocity units).")
      .Field("floor_from_diagonal",
             &S::floor_from_diagonal,
             "s_eps came from diag(M): M was not regular.")
      .Field("last_factorization_flops",
             &S::last_factorization_flops,
             "Flops of the last factorization (MUMPS RINFOG(3)).")
      .Field("last_factorization_effective_flops",
             &S::last_factorization_effective_flops,
             "The same with block low-rank compression (RINFOG(14)).")
      .Field("factor_entries",
             &S::factor_entries,
             "Entries of the L and U factors (INFOG(29)).")
      .Field("compressed_factor_entries",
             &S::compressed_factor_entries,
             "Factor entries after BLR compression (INFOG(35)).")
      .Field("estimated_memory_mb",
             &S::estimated_memory_mb,
             "MUMPS' analysis estimate of its memory, MB (10^6 bytes).")
      .Field("factorization_memory_mb",
             &S::factorization_memory_mb,
             "Memory the last factorization used, MB.")
      .Field("out_of_core_disk_mb",
             &S::out_of_core_disk_mb,
             "Out-of-core factor files written, MB (0 in-core).")
      .Field("ordering_used",
             &S::ordering_used,
             "The fill-reducing ordering the linear solver used.")
      .Field("timings", &S::timings, "Wall times (fcsn.Timings), seconds.")
      .Field("history",
             &S::history,
             "One IterationRecord per iteration (options.record_history).");
}

void BindSolverSummary(py::module_& m) {
  using S = SolverSummary;
  RecordBinder<S> b(m,
                    "SolverSummary",
                    "The report of one solve: status, message, counters, the "
                    "error measures of the returned point, timings, history.");
  b.EnumField("status",
              &S::status,
              kAllSolverStatuses,
              "Outcome of the solve; 'converged' iff error <= tolerance.")
      .Field("message",
             &S::message,
             "Why the solve stopped, in one sentence ('' when converged).");
  b.cls()
      .def_property_readonly(
          "converged", &S::IsConverged, "status == 'converged'.")
      .def_property_readonly("error", &S::WorstError, kErrorDoc)
      .def("brief_report",
           &S::BriefReport,
           "One line: status, iterations, errors, time.")
      .def("full_report",
           &S::FullReport,
           "Several lines: counters, timings and the history table.");
  BindSummaryCounters(&b);
  BindSummaryMeasures(&b);
  b.Finish({"status",
            "iterations",
            "error",
            "nsgs_sweeps",
            "analyses",
            "factorizations"});
}

void BindSetupSummary(py::module_& m) {
  using S = SetupSummary;
  RecordBinder<S> b(m,
                    "SetupSummary",
                    "What Solver.setup returns: whether the solver is ready "
                    "for the problem's patterns, and the work it did.");
  b.EnumField("status",
              &S::status,
              kAllSetupStatuses,
              "'ready' when the next solves can reuse the analysis.")
      .Field("message", &S::message, "Why not ready; '' when ready.")
      .Field("analyses",
             &S::analyses,
             "Symbolic factorizations done by this setup.")
      .Field("timings",
             &S::timings,
             "Wall times (setup, analysis, total), seconds.");
  b.cls().def_property_readonly("ready", &S::IsReady, "status == 'ready'.");
  b.Finish();
}

}  // namespace

void BindSummary(py::module_& m) {
  BindIterationRecord(m);
  BindTimings(m);
  BindSolverSummary(m);
  BindSetupSummary(m);
}

}  // namespace fcsn::python
