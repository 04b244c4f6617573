// Python classes of the options (fcsn/options.h, fcsn/linear_solver_options.h),
// 1:1 with the C++ structs: a property per row of fcsn/option_table.h under
// its C++ name, with the row's meaning and range as its docstring, every enum
// as its ToString name ("ac", "split-exact", ...). Assigning an unknown name
// raises ValueError listing the accepted ones. SolverOptions.set/get and
// fcsn.option_table() reach every row by its dotted name.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <string>
#include <type_traits>

#include "fcsn/option_table.h"
#include "fcsn/options.h"
#include "fcsn/types.h"
#include "python/src/bindings.h"
#include "python/src/record.h"

namespace fcsn::python {
namespace {

namespace py = pybind11;

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

// Binds the rows of OptionFields<S> (fcsn/option_table.h) as properties of
// the Python class of S.
template <typename S>
struct RowBinder {
  py::class_<S>* c;

  template <typename T, typename Rule>
  void Field(const char* name,
             T S::*member,
             const Rule& rule,
             const char* doc) {
    if constexpr (std::is_enum_v<T>) {
      EnumProperty(c, name, member, *rule.all, doc);
    } else {
      std::string text = std::string(doc) + " ";
      if constexpr (std::is_same_v<Rule, Range>) {
        text += "Range: " + Describe(rule, std::is_integral_v<T>) + ".";
      } else {
        text += "Range: " + Describe(rule) + ".";
      }
      c->def_readwrite(name, member, text.c_str());
    }
  }
  template <typename Check>
  void Relation(const char*, Check, const char*) {}
  template <typename Sub>
  void Group(const char* name, Sub S::*member) {
    // "fcsn.RhoOptions.": the nested classes are bound first.
    const py::object type = py::type::of<Sub>();
    const std::string doc =
        "fcsn." + py::str(type.attr("__name__")).cast<std::string>() + ".";
    c->def_readwrite(name, member, doc.c_str());
  }
};

// A class of options whose properties are the rows of OptionFields<S>.
template <typename S>
py::class_<S> BindRows(py::module_& m, const char* name, const char* doc) {
  py::class_<S> c(m, name, doc);
  c.def(py::init<>());
  RowBinder<S> binder{&c};
  OptionFields<S>::Visit(binder);
  return c;
}

template <typename S>
void BindFinished(py::module_& m, const char* name, const char* doc) {
  py::class_<S> c = BindRows<S>(m, name, doc);
  Finish(&c);
}

void BindNested(py::module_& m) {
  BindFinished<RhoOptions>(m,
                           "RhoOptions",
                           "Per-contact scaling rho of the residuals and its "
                           "continuation (SolverOptions.rho).");
  BindFinished<LineSearchOptions>(
      m,
      "LineSearchOptions",
      "Line search on the merit 1/2 ||D G||^2 (SolverOptions.line_search).");
  BindFinished<LinearSolverOptions>(
      m,
      "LinearSolverOptions",
      "The sparse solver of every Newton step J d = -G "
      "(SolverOptions.linear_solver).");
  BindFinished<NsgsOptions>(
      m,
      "NsgsOptions",
      "Nonsmooth Gauss-Seidel on the reduced problem (SolverOptions.nsgs; "
      "pure NSGS and the hybrid).");
  BindFinished<HybridOptions>(
      m,
      "HybridOptions",
      "NSGS -> Newton hybrid with NSGS fallback (SolverOptions.hybrid, "
      "solver='hybrid').");
}

// SolverOptions.set(name, value): a str as text, a bool or number as a
// number (fcsn::SetOption); ValueError with the sentence on failure.
void SetByName(SolverOptions& o, const std::string& name, py::object value) {
  std::string why;
  if (py::isinstance<py::str>(value)) {
    why = SetOption(&o, name, value.cast<std::string>());
  } else if (py::isinstance<py::bool_>(value) ||
             py::isinstance<py::int_>(value) ||
             py::isinstance<py::float_>(value)) {
    why = SetOption(&o, name, value.cast<double>());
  } else {
    why = "option " + name + ": give a str, bool, int or float";
  }
  if (!why.empty()) throw py::value_error(why);
}

// SolverOptions.get(name): the row's value as float, int, bool or str.
py::object GetByName(const SolverOptions& o, const std::string& name) {
  std::string text;
  if (std::string why = GetOption(o, name, &text); !why.empty())
    throw py::value_error(why);
  for (const OptionInfo& row : SolverOptionTable()) {
    if (row.name != name) continue;
    if (row.type == "real") return py::float_(std::stod(text));
    if (row.type == "integer") return py::int_(std::stoll(text));
    if (row.type == "flag") return py::bool_(text == "true");
  }
  return py::str(text);
}

py::list OptionTableList() {
  py::list rows;
  for (const OptionInfo& row : SolverOptionTable()) {
    py::dict d;
    d["name"] = row.name;
    d["type"] = row.type;
    d["range"] = row.range;
    d["default"] = row.default_value;
    d["doc"] = row.doc;
    rows.append(d);
  }
  return rows;
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
  py::class_<O> c =
      BindRows<O>(m,
                  "SolverOptions",
                  "Every setting of a solve (fcsn/options.h). Keyword "
                  "arguments of fcsn.solve, fcsn.Solver and make_options name "
                  "these fields; nested ones are given as dicts. set(name, "
                  "value) and get(name) reach any field by its dotted name "
                  "('rho.initial_boost'); fcsn.option_table() lists them.");
  c.def_property("iteration_callback",
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
           "field.")
      .def("set",
           &SetByName,
           py::arg("name"),
           py::arg("value"),
           "Sets the field of dotted name (e.g. 'rho.initial_boost') from a "
           "str, bool, int or float; ValueError for an unknown name or a "
           "value of the wrong type (the range is validate()'s).")
      .def("get",
           &GetByName,
           py::arg("name"),
           "The field of dotted name as float, int, bool or str.");
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
  BindNested(m);
  BindSolverOptions(m);
  m.def("option_table",
        &OptionTableList,
        "Every option of SolverOptions (fcsn/option_table.h) in field order: "
        "dicts with name (dotted), type, range, default and doc.");
  // SolverOptions.krylov_reuse_iterations choosing the budget from the size.
  m.attr("AUTO_KRYLOV_REUSE") = kAutoKrylovReuse;
}

}  // namespace fcsn::python
