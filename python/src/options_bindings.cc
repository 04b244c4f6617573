// Python classes of the options (fcsn/options.h, fcsn/linear_solver_options.h),
// 1:1 with the C++ structs: every field under its C++ name, every enum as its
// ToString name ("ac", "split-exact", ...). Assigning an unknown name raises
// ValueError listing the accepted ones.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <string>

#include "fcsn/options.h"
#include "fcsn/types.h"
#include "python/src/bindings.h"

namespace fcsn::python {
namespace {

namespace py = pybind11;

constexpr std::array<LineSearchFailurePolicy, 3> kAllFailurePolicies = {
    LineSearchFailurePolicy::kStop,
    LineSearchFailurePolicy::kAcceptStep,
    LineSearchFailurePolicy::kFallback};

// A str property for an enum member: reads ToString, writes FromString.
template <typename Class, typename Enum, std::size_t N>
void EnumProperty(py::class_<Class>* c,
                  const char* name,
                  Enum Class::*member,
                  const std::array<Enum, N>& all) {
  c->def_property(
      name,
      [member](const Class& o) { return std::string(ToString(o.*member)); },
      [member, all, name](Class& o, const std::string& value) {
        const std::optional<Enum> e = FromStringIn(all, value);
        if (!e) {
          throw py::value_error(std::string(name) + " = '" + value +
                                "' is not one of: " + NamesOf(all));
        }
        o.*member = *e;
      });
}

void BindRho(py::module_& m) {
  py::class_<RhoOptions> c(m, "RhoOptions", "fcsn::RhoOptions (options.h)");
  c.def(py::init<>());
  EnumProperty(&c, "rule", &RhoOptions::rule, kAllRhoRules);
  c.def_readwrite("value", &RhoOptions::value)
      .def_readwrite("factor", &RhoOptions::factor)
      .def_readwrite("initial_boost", &RhoOptions::initial_boost)
      .def_readwrite("warm_initial_boost", &RhoOptions::warm_initial_boost)
      .def_readwrite("tail_error", &RhoOptions::tail_error)
      .def_readwrite("tail_boost_factor", &RhoOptions::tail_boost_factor)
      .def_readwrite("boost_reduction", &RhoOptions::boost_reduction)
      .def_readwrite("boost_window", &RhoOptions::boost_window)
      .def_readwrite("boost_stall_ratio", &RhoOptions::boost_stall_ratio);
}

void BindLineSearch(py::module_& m) {
  using L = LineSearchOptions;
  py::class_<L> c(m, "LineSearchOptions", "fcsn::LineSearchOptions");
  c.def(py::init<>());
  EnumProperty(&c, "type", &L::type, kAllLineSearchTypes);
  EnumProperty(&c, "on_failure", &L::on_failure, kAllFailurePolicies);
  c.def_readwrite("sufficient_decrease", &L::sufficient_decrease)
      .def_readwrite("min_shrink", &L::min_shrink)
      .def_readwrite("max_shrink", &L::max_shrink)
      .def_readwrite("goldstein_m1", &L::goldstein_m1)
      .def_readwrite("goldstein_m2", &L::goldstein_m2)
      .def_readwrite("non_monotone_window", &L::non_monotone_window)
      .def_readwrite("max_trials", &L::max_trials)
      .def_readwrite("min_step", &L::min_step);
}

void BindLinearSolver(py::module_& m) {
  using L = LinearSolverOptions;
  py::class_<L> c(m, "LinearSolverOptions", "fcsn::LinearSolverOptions");
  c.def(py::init<>());
  EnumProperty(&c, "type", &L::type, kAllLinearSolverTypes);
  EnumProperty(&c, "ordering", &L::ordering, kAllOrderings);
  EnumProperty(&c, "precision", &L::precision, kAllFactorizationPrecisions);
  c.def_readwrite("workspace_relaxation_percent",
                  &L::workspace_relaxation_percent)
      .def_readwrite("max_workspace_retries", &L::max_workspace_retries)
      .def_readwrite("detect_null_pivots", &L::detect_null_pivots)
      .def_readwrite("null_pivot_threshold", &L::null_pivot_threshold)
      .def_readwrite("refinement_tolerance", &L::refinement_tolerance)
      .def_readwrite("max_refinement_steps", &L::max_refinement_steps)
      .def_readwrite("mpi_communicator", &L::mpi_communicator)
      .def_readwrite("low_rank_tolerance", &L::low_rank_tolerance)
      .def_readwrite("out_of_core", &L::out_of_core)
      .def_readwrite("adaptive_block_ordering", &L::adaptive_block_ordering)
      .def_readwrite("out_of_core_directory", &L::out_of_core_directory);
}

void BindNsgsHybrid(py::module_& m) {
  py::class_<NsgsOptions> n(m, "NsgsOptions", "fcsn::NsgsOptions");
  n.def(py::init<>());
  EnumProperty(
      &n, "local_solver", &NsgsOptions::local_solver, kAllLocalSolverTypes);
  n.def_readwrite("max_sweeps", &NsgsOptions::max_sweeps)
      .def_readwrite("error_check_frequency",
                     &NsgsOptions::error_check_frequency)
      .def_readwrite("local_max_iterations", &NsgsOptions::local_max_iterations)
      .def_readwrite("local_tolerance", &NsgsOptions::local_tolerance)
      .def_readwrite("fp_projections", &NsgsOptions::fp_projections);
  using H = HybridOptions;
  py::class_<H>(m, "HybridOptions", "fcsn::HybridOptions")
      .def(py::init<>())
      .def_readwrite("warm_sweeps", &H::warm_sweeps)
      .def_readwrite("warm_sweeps_with_guess", &H::warm_sweeps_with_guess)
      .def_readwrite("warm_contraction_window", &H::warm_contraction_window)
      .def_readwrite("warm_contraction_ratio", &H::warm_contraction_ratio)
      .def_readwrite("stall_window", &H::stall_window)
      .def_readwrite("stall_ratio", &H::stall_ratio)
      .def_readwrite("fallback_sweeps", &H::fallback_sweeps)
      .def_readwrite("max_fallbacks", &H::max_fallbacks)
      .def_readwrite("delassus_budget_per_nonzero",
                     &H::delassus_budget_per_nonzero)
      .def_readwrite("delassus_min_budget", &H::delassus_min_budget);
}

py::object CallbackOf(const SolverOptions& o) {
  const auto* callback = o.iteration_callback.target<PythonCallback>();
  return callback != nullptr ? callback->state->fn : py::none();
}

void SetCallback(SolverOptions& o, const py::object& fn) {
  if (fn.is_none()) {
    o.iteration_callback = nullptr;
    return;
  }
  if (!PyCallable_Check(fn.ptr())) {
    throw py::value_error("iteration_callback must be callable or None");
  }
  o.iteration_callback = PythonCallback{
      std::make_shared<PythonCallback::State>(PythonCallback::State{fn, {}})};
}

void BindSolverOptions(py::module_& m) {
  using O = SolverOptions;
  py::class_<O> c(m, "SolverOptions", "fcsn::SolverOptions (options.h)");
  c.def(py::init<>());
  EnumProperty(&c, "solver", &O::solver, kAllSolverTypes);
  EnumProperty(&c, "formulation", &O::formulation, kAllFormulations);
  EnumProperty(&c, "cold_start", &O::cold_start, kAllColdStarts);
  c.def_readwrite("tolerance", &O::tolerance)
      .def_readwrite("max_iterations", &O::max_iterations)
      .def_readwrite("time_limit_seconds", &O::time_limit_seconds)
      .def_readwrite("singular_regularization", &O::singular_regularization)
      .def_readwrite("krylov_reuse_iterations", &O::krylov_reuse_iterations)
      .def_readwrite("setup_threads", &O::setup_threads)
      .def_readwrite("rho", &O::rho)
      .def_readwrite("line_search", &O::line_search)
      .def_readwrite("linear_solver", &O::linear_solver)
      .def_readwrite("nsgs", &O::nsgs)
      .def_readwrite("hybrid", &O::hybrid)
      .def_readwrite("record_history", &O::record_history)
      .def_property("iteration_callback",
                    &CallbackOf,
                    &SetCallback,
                    "None or fn(IterationRecord) -> truthy to abort")
      .def("validate", &O::Validate, "'' if valid, else one sentence")
      .def("__copy__", [](const O& o) { return O(o); })
      .def("__deepcopy__", [](const O& o, py::dict) { return O(o); });
}

}  // namespace

CallbackResult PythonCallback::operator()(const IterationRecord& record) const {
  try {
    const bool abort = py::bool_(state->fn(record));
    return abort ? CallbackResult::kAbort : CallbackResult::kContinue;
  } catch (...) {
    state->error = std::current_exception();
    return CallbackResult::kAbort;
  }
}

void BindOptions(py::module_& m) {
  BindRho(m);
  BindLineSearch(m);
  BindLinearSolver(m);
  BindNsgsHybrid(m);
  BindSolverOptions(m);
  // SolverOptions.krylov_reuse_iterations choosing the budget from the size.
  m.attr("AUTO_KRYLOV_REUSE") = kAutoKrylovReuse;
}

}  // namespace fcsn::python
