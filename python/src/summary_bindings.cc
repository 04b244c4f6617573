// Python classes of the solve report (fcsn/summary.h), read-only and 1:1 with
// the C++ fields; statuses are their ToString names ("converged", ...). They
// pickle, so that results can be stored or sent to other processes.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "fcsn/summary.h"
#include "fcsn/summary_table.h"
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

// Binds the rows of SummaryFields<S> (fcsn/summary_table.h) as read-only
// attributes of the record class of S.
template <typename S>
struct RecordRows {
  RecordBinder<S>* b;
  void Section(const char*) {}
  template <typename T>
  void Field(const char* name, T S::*member, const char* doc) {
    b->Field(name, member, doc);
  }
  template <typename Sub>
  void Group(const char* name, Sub S::*member) {
    b->Field(name, member, "Wall times (fcsn.Timings), seconds.");
  }
};

void BindTimings(py::module_& m) {
  RecordBinder<Timings> b(m,
                          "Timings",
                          "Wall times of one solve or setup, in seconds. Two "
                          "setup threads overlap, so the parts may add up to "
                          "more than total.");
  RecordRows<Timings> rows{&b};
  SummaryFields<Timings>::Visit(rows);
  b.Finish();
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
  RecordRows<S> rows{&b};
  SummaryFields<S>::Visit(rows);
  b.Field("history",
          &S::history,
          "One IterationRecord per iteration (options.record_history).");
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
