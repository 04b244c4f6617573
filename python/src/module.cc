// fcsn._fcsn: the compiled part of the fcsn Python package (python/fcsn/ wraps
// it with scipy.sparse / numpy conversion and keyword options).
#include <pybind11/pybind11.h>

#include "fcsn/config.h"
#include "python/src/bindings.h"

PYBIND11_MODULE(_fcsn, m) {
  m.doc() = "fcsn: global frictional contact by semismooth Newton (C++ core)";
  m.attr("__version__") = FCSN_VERSION;
  fcsn::python::BindOptions(m);
  fcsn::python::BindSummary(m);
  fcsn::python::BindSolver(m);
}
