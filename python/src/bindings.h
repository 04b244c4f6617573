// Pieces of the fcsn Python extension module (fcsn._fcsn), each adding its
// classes and functions to the module.
#ifndef FCSN_PYTHON_SRC_BINDINGS_H_
#define FCSN_PYTHON_SRC_BINDINGS_H_

#include <pybind11/pybind11.h>

namespace fcsn::python {

// SolverOptions and its nested option structs (options_bindings.cc).
void BindOptions(pybind11::module_& m);
// SolverSummary, IterationRecord and Timings, read-only (summary_bindings.cc).
void BindSummary(pybind11::module_& m);
// The Solver over problem views and read_fclib (solver_bindings.cc).
void BindSolver(pybind11::module_& m);

}  // namespace fcsn::python

#endif  // FCSN_PYTHON_SRC_BINDINGS_H_
