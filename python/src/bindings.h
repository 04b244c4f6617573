// Pieces of the fcsn Python extension module (fcsn._fcsn), each adding its
// classes and functions to the module.
#ifndef FCSN_PYTHON_SRC_BINDINGS_H_
#define FCSN_PYTHON_SRC_BINDINGS_H_

#include <pybind11/pybind11.h>

#include <exception>
#include <memory>
#include <string>

#include "fcsn/options.h"
#include "fcsn/summary.h"

namespace fcsn::python {

// SolverOptions::iteration_callback set from Python: calls fn(record); a
// truthy return aborts the solve (CallbackResult::kAbort). A Python exception
// also aborts and is kept in `error`, for the caller of Solve() to re-raise.
// Called from the solve, which runs with the GIL released: takes the GIL.
struct PythonCallback {
  struct State {
    pybind11::object fn;
    std::exception_ptr error;
  };
  std::shared_ptr<State> state;

  CallbackResult operator()(const IterationRecord& record) const;
};

// SolverOptions::log set from Python: calls fn(line), with the GIL taken. A
// Python exception is kept in `error` (later lines are dropped) and raised by
// the caller of Solve() when it returns; the solve itself goes on.
struct PythonLog {
  struct State {
    pybind11::object fn;
    std::exception_ptr error;
  };
  std::shared_ptr<State> state;

  void operator()(const std::string& line) const;
};

// SolverOptions and its nested option structs (options_bindings.cc).
void BindOptions(pybind11::module_& m);
// SolverSummary, IterationRecord and Timings, read-only (summary_bindings.cc).
void BindSummary(pybind11::module_& m);
// The Solver over problem views and read_fclib (solver_bindings.cc).
void BindSolver(pybind11::module_& m);
// MoreauJeanOptions and MoreauJean, the theta-method step problem
// (time_stepping_bindings.cc).
void BindTimeStepping(pybind11::module_& m);

}  // namespace fcsn::python

#endif  // FCSN_PYTHON_SRC_BINDINGS_H_
