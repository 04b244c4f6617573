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
#include "python/src/record.h"

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
                  const std::array<Enum, N>& all,
                  const char* doc) {
  const std::string text = std::string(doc) + " One of: " + NamesOf(all) + ".";
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
      },
      text.c_str());
}

// Every options class: a repr of the fields changed from their defaults, the
// defaults in the docstrings, copies.
template <typename T>
void Finish(py::class_<T>* c) {
  c->def("__repr__", &OptionsRepr)
      .def("__copy__", [](const T& o) { return T(o); })
      .def("__deepcopy__", [](const T& o, py::dict) { return T(o); });
  AppendDefaults(*c);
}

void BindRho(py::module_& m) {
  using R = RhoOptions;
  py::class_<R> c(m,
                  "RhoOptions",
                  "Per-contact scaling rho of the residuals and its "
                  "continuation (SolverOptions.rho).");
  c.def(py::init<>());
  EnumProperty(&c,
               "rule",
               &R::rule,
               kAllRhoRules,
               "How rho is computed: 'constant' (value), 'diagonal' "
               "(diag(M) estimate of W_aa), 'exact' (W_aa = H_a^T M^-1 H_a), "
               "'split-exact' (rho_N = 1/W_NN, rho_T = 1/lambda_max(W_TT)).");
  c.def_readwrite(
       "value", &R::value, "rho of every component for rule 'constant'; > 0.")
      .def_readwrite("factor",
                     &R::factor,
                     "Multiplies the rule's rho (e.g. 0.5 for more "
                     "conservative steps); > 0.")
      .def_readwrite("initial_boost",
                     &R::initial_boost,
                     "Newton starts with rho times this boost, reduced when "
                     "the merit stalls; >= 1 (1: no continuation).")
      .def_readwrite("warm_initial_boost",
                     &R::warm_initial_boost,
                     "The initial boost of a solve started from a guess; >= 1.")
      .def_readwrite("tail_error",
                     &R::tail_error,
                     "The first iterate whose worst measure is below this "
                     "(unit-free) multiplies the boost by tail_boost_factor.")
      .def_readwrite("tail_boost_factor",
                     &R::tail_boost_factor,
                     "Once per solve; >= 1 (1: off).")
      .def_readwrite("boost_reduction",
                     &R::boost_reduction,
                     "A stall divides the boost by this; > 1.")
      .def_readwrite("boost_window",
                     &R::boost_window,
                     "Iterations over which a stall is judged; >= 1.")
      .def_readwrite("boost_stall_ratio",
                     &R::boost_stall_ratio,
                     "Stall: the merit did not drop below this times its "
                     "value boost_window iterations earlier; in (0, 1).");
  Finish(&c);
}

void BindLineSearch(py::module_& m) {
  using L = LineSearchOptions;
  py::class_<L> c(m,
                  "LineSearchOptions",
                  "Line search on the merit 1/2 ||D G||^2 "
                  "(SolverOptions.line_search).");
  c.def(py::init<>());
  EnumProperty(&c,
               "type",
               &L::type,
               kAllLineSearchTypes,
               "'none' takes full Newton steps (the hybrid's NSGS fallback is "
               "the safeguard); the others are monotone or non-monotone "
               "searches.");
  EnumProperty(&c,
               "on_failure",
               &L::on_failure,
               kAllFailurePolicies,
               "No acceptable step: 'stop' the solve, 'accept' the last "
               "trial, or 'fallback' to NSGS (hybrid; as 'stop' otherwise).");
  c.def_readwrite("sufficient_decrease",
                  &L::sufficient_decrease,
                  "Armijo constant sigma; nominal 1e-4, in (0, 1).")
      .def_readwrite("min_shrink",
                     &L::min_shrink,
                     "Backtracking: smallest factor alpha is multiplied by.")
      .def_readwrite("max_shrink",
                     &L::max_shrink,
                     "Backtracking: largest factor alpha is multiplied by.")
      .def_readwrite("goldstein_m1",
                     &L::goldstein_m1,
                     "Goldstein bracket, Armijo side; 0 < m1 < m2 < 1.")
      .def_readwrite("goldstein_m2",
                     &L::goldstein_m2,
                     "Goldstein bracket, other side; 0 < m1 < m2 < 1.")
      .def_readwrite("non_monotone_window",
                     &L::non_monotone_window,
                     "'non-monotone': compare against the max merit of this "
                     "many last iterates; >= 1.")
      .def_readwrite("max_trials",
                     &L::max_trials,
                     "Trial steps per Newton iteration (one residual "
                     "evaluation each); >= 1.")
      .def_readwrite("min_step",
                     &L::min_step,
                     "Smallest step length tried; below it the search fails.");
  Finish(&c);
}

void BindLinearSolver(py::module_& m) {
  using L = LinearSolverOptions;
  py::class_<L> c(m,
                  "LinearSolverOptions",
                  "The sparse solver of every Newton step J d = -G "
                  "(SolverOptions.linear_solver).");
  c.def(py::init<>());
  EnumProperty(&c,
               "type",
               &L::type,
               kAllLinearSolverTypes,
               "Backend: 'mumps' (production), 'eigen' (SparseLU, fallback), "
               "'dense' (small test systems).");
  EnumProperty(&c,
               "ordering",
               &L::ordering,
               kAllOrderings,
               "Fill-reducing ordering, computed once per pattern.");
  EnumProperty(&c,
               "precision",
               &L::precision,
               kAllFactorizationPrecisions,
               "MUMPS arithmetic: 'double', 'mixed' (single-precision LU "
               "refined in double), 'auto' (mixed from 1e7 flops).");
  c.def_readwrite("workspace_relaxation_percent",
                  &L::workspace_relaxation_percent,
                  "MUMPS ICNTL(14): % added to the estimated workspace; "
                  "[0, 10000].")
      .def_readwrite("max_workspace_retries",
                     &L::max_workspace_retries,
                     "Retries with doubled relaxation after a workspace "
                     "shortage; [0, 20].")
      .def_readwrite("detect_null_pivots",
                     &L::detect_null_pivots,
                     "MUMPS null-pivot detection: a singular J is reported, "
                     "never solved with fixed-up factors.")
      .def_readwrite("null_pivot_threshold",
                     &L::null_pivot_threshold,
                     "Relative null-pivot threshold (CNTL(3)); 0 keeps MUMPS' "
                     "default; [0, 1).")
      .def_readwrite("refinement_tolerance",
                     &L::refinement_tolerance,
                     "Mixed precision: target backward error; [1e-16, 1e-6].")
      .def_readwrite("max_refinement_steps",
                     &L::max_refinement_steps,
                     "Mixed precision: refinement steps before falling back "
                     "to double; [1, 100].")
      .def_readwrite("mpi_communicator",
                     &L::mpi_communicator,
                     "MPI flavour only: Fortran handle of the communicator "
                     "(comm.py2f()); the default means MPI_COMM_WORLD.")
      .def_readwrite("low_rank_tolerance",
                     &L::low_rank_tolerance,
                     "MUMPS block low-rank compression: 0 off, else its "
                     "relative tolerance (1e-10 to 1e-6 usual); [0, 1).")
      .def_readwrite("out_of_core",
                     &L::out_of_core,
                     "MUMPS writes the factors to files "
                     "(out_of_core_directory).")
      .def_readwrite("adaptive_block_ordering",
                     &L::adaptive_block_ordering,
                     "'metis', n + m >= 20000: order J's block graph first "
                     "(faster analysis, a few % more flops).")
      .def_readwrite("out_of_core_directory",
                     &L::out_of_core_directory,
                     "Parent folder of the out-of-core files; '' is the "
                     "system's temporary folder. At most 200 characters.");
  Finish(&c);
}

void BindNsgs(py::module_& m) {
  using N = NsgsOptions;
  py::class_<N> c(m,
                  "NsgsOptions",
                  "Nonsmooth Gauss-Seidel on the reduced problem "
                  "(SolverOptions.nsgs; pure NSGS and the hybrid).");
  c.def(py::init<>());
  EnumProperty(&c,
               "local_solver",
               &N::local_solver,
               kAllLocalSolverTypes,
               "One-contact solver: 'ac' (Alart-Curnier Newton) or "
               "'fp-vi-upk' (natural-map fixed point).");
  c.def_readwrite(
       "max_sweeps", &N::max_sweeps, "Sweep budget of a pure NSGS solve; >= 1.")
      .def_readwrite("error_check_frequency",
                     &N::error_check_frequency,
                     "Compute the true error every this many sweeps; >= 1.")
      .def_readwrite("local_max_iterations",
                     &N::local_max_iterations,
                     "Iterations of the one-contact solver; >= 1.")
      .def_readwrite("local_tolerance",
                     &N::local_tolerance,
                     "Relative tolerance of the one-contact solver; > 0.")
      .def_readwrite("fp_projections",
                     &N::fp_projections,
                     "'fp-vi-upk': projections per contact per sweep; >= 1.");
  Finish(&c);
}

void BindHybrid(py::module_& m) {
  using H = HybridOptions;
  py::class_<H> c(m,
                  "HybridOptions",
                  "NSGS -> Newton hybrid with NSGS fallback "
                  "(SolverOptions.hybrid, solver='hybrid').");
  c.def(py::init<>())
      .def_readwrite("warm_sweeps",
                     &H::warm_sweeps,
                     "NSGS sweeps before the first Newton iteration; >= 0.")
      .def_readwrite("warm_sweeps_with_guess",
                     &H::warm_sweeps_with_guess,
                     "The same when the solve is given a guess; >= 0.")
      .def_readwrite("warm_contraction_window",
                     &H::warm_contraction_window,
                     "The warm start ends when NSGS contracts poorly over "
                     "this many sweeps; 0 disables that test.")
      .def_readwrite("warm_contraction_ratio",
                     &H::warm_contraction_ratio,
                     "Poor contraction: the worst measure did not drop below "
                     "this ratio over the window; in (0, 1).")
      .def_readwrite("stall_window",
                     &H::stall_window,
                     "Newton stalls when its merit has not dropped below "
                     "stall_ratio times its value this many iterations ago.")
      .def_readwrite(
          "stall_ratio", &H::stall_ratio, "See stall_window; in (0, 1).")
      .def_readwrite("fallback_sweeps",
                     &H::fallback_sweeps,
                     "NSGS sweeps at each fallback before Newton restarts.")
      .def_readwrite("max_fallbacks",
                     &H::max_fallbacks,
                     "Newton -> NSGS -> Newton fallbacks allowed per solve.")
      .def_readwrite("delassus_budget_per_nonzero",
                     &H::delassus_budget_per_nonzero,
                     "W is formed only if its cost in entries is at most this "
                     "times nnz(M) + nnz(H) (or delassus_min_budget).")
      .def_readwrite("delassus_min_budget",
                     &H::delassus_min_budget,
                     "Cost of W (entries) always allowed.");
  Finish(&c);
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

py::object LogOf(const SolverOptions& o) {
  const auto* log = o.log.target<PythonLog>();
  return log != nullptr ? log->state->fn : py::none();
}

void SetLog(SolverOptions& o, const py::object& fn) {
  if (fn.is_none()) {
    o.log = nullptr;
    return;
  }
  if (!PyCallable_Check(fn.ptr()))
    throw py::value_error("log must be callable or None");
  o.log =
      PythonLog{std::make_shared<PythonLog::State>(PythonLog::State{fn, {}})};
}

void BindSolverOptions(py::module_& m) {
  using O = SolverOptions;
  py::class_<O> c(m,
                  "SolverOptions",
                  "Every setting of a solve (fcsn/options.h). Keyword "
                  "arguments of fcsn.solve, fcsn.Solver and make_options name "
                  "these fields; nested ones are given as dicts.");
  c.def(py::init<>());
  EnumProperty(&c,
               "solver",
               &O::solver,
               kAllSolverTypes,
               "Algorithm: 'nsn' (semismooth Newton), 'nsgs' (Gauss-Seidel), "
               "'hybrid' (NSGS warm start, Newton, NSGS fallback).");
  EnumProperty(&c,
               "formulation",
               &O::formulation,
               kAllFormulations,
               "Per-contact residual of Newton: Alart-Curnier, Jean-Moreau, "
               "natural map, Fischer-Burmeister.");
  EnumProperty(&c,
               "cold_start",
               &O::cold_start,
               kAllColdStarts,
               "Starting point without a guess (or with an all-zero one); "
               "'auto' closes the resting and approaching contacts.");
  c.def_readwrite("tolerance",
                  &O::tolerance,
                  "Converged iff max(e_cone, e_dual, e_comp, e_eq) <= "
                  "tolerance; unit-free, nominal 1e-4 to 1e-12.")
      .def_readwrite("max_iterations",
                     &O::max_iterations,
                     "Newton iterations (one factorization each); >= 1.")
      .def_readwrite("time_limit_seconds",
                     &O::time_limit_seconds,
                     "Wall-clock budget of one solve, in seconds; > 0.")
      .def_readwrite("singular_regularization",
                     &O::singular_regularization,
                     "Weight of the proximal term added when J is singular "
                     "(unit-free; 0 disables it); nominal 1e-8 to 1e-4.")
      .def_readwrite("krylov_reuse_iterations",
                     &O::krylov_reuse_iterations,
                     "FGMRES iterations on the previous factors before a new "
                     "factorization: AUTO_KRYLOV_REUSE (-1, by size), 0 off, "
                     "or [1, 100].")
      .def_readwrite("setup_threads",
                     &O::setup_threads,
                     "Threads of the setup of a problem with n >= 1000; "
                     "1 or 2.")
      .def_readwrite("rho", &O::rho, "fcsn.RhoOptions.")
      .def_readwrite("line_search", &O::line_search, "fcsn.LineSearchOptions.")
      .def_readwrite(
          "linear_solver", &O::linear_solver, "fcsn.LinearSolverOptions.")
      .def_readwrite("nsgs", &O::nsgs, "fcsn.NsgsOptions.")
      .def_readwrite("hybrid", &O::hybrid, "fcsn.HybridOptions.")
      .def_readwrite("record_history",
                     &O::record_history,
                     "Keep one IterationRecord per iteration in the summary.")
      .def_property("iteration_callback",
                    &CallbackOf,
                    &SetCallback,
                    "None, or fn(IterationRecord) called after every "
                    "iteration; a truthy return aborts the solve.")
      .def_property("log",
                    &LogOf,
                    &SetLog,
                    "None, or fn(line) called with each progress line (the "
                    "setup, each phase, one line per iteration, the end); "
                    "verbose=True sets one that prints to sys.stdout.")
      .def("validate",
           &O::Validate,
           "'' if every field is in range, else one sentence naming the "
           "field.");
  Finish(&c);
}

}  // namespace

CallbackResult PythonCallback::operator()(const IterationRecord& record) const {
  py::gil_scoped_acquire gil;
  try {
    const bool abort = py::bool_(state->fn(record));
    return abort ? CallbackResult::kAbort : CallbackResult::kContinue;
  } catch (...) {
    state->error = std::current_exception();
    return CallbackResult::kAbort;
  }
}

void PythonLog::operator()(const std::string& line) const {
  py::gil_scoped_acquire gil;
  if (state->error) return;
  try {
    state->fn(line);
  } catch (...) {
    state->error = std::current_exception();
  }
}

void BindOptions(py::module_& m) {
  BindRho(m);
  BindLineSearch(m);
  BindLinearSolver(m);
  BindNsgs(m);
  BindHybrid(m);
  BindSolverOptions(m);
  // SolverOptions.krylov_reuse_iterations choosing the budget from the size.
  m.attr("AUTO_KRYLOV_REUSE") = kAutoKrylovReuse;
}

}  // namespace fcsn::python
