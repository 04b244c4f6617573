// fcsn._fcsn: the compiled part of the fcsn Python package (python/fcsn/ wraps
// it with scipy.sparse / numpy conversion and keyword options).
#include <pybind11/pybind11.h>

#include "fcsn/build_info.h"
#include "fcsn/config.h"
#include "python/src/bindings.h"

PYBIND11_MODULE(_fcsn, m) {
  m.doc() = "fcsn: global frictional contact by semismooth Newton (C++ core)";
  m.attr("__version__") = FCSN_VERSION;
  fcsn::python::BindOptions(m);
  fcsn::python::BindSummary(m);
  fcsn::python::BindSolver(m);
  fcsn::python::BindTimeStepping(m);
  m.def(
      "build_info",
      [] {
        const fcsn::BuildInfo info = fcsn::GetBuildInfo();
        pybind11::dict d;
        d["version"] = info.version;
        d["mumps_version"] = info.mumps_version;
        d["mumps_flavor"] = info.mumps_flavor;
        d["blas"] = info.blas;
        d["blas_kernel"] = info.blas_kernel;
        d["blas_threads"] = info.blas_threads;
        d["blas_kernel_below_cpu"] = info.blas_kernel_below_cpu;
        return d;
      },
      "fcsn's and MUMPS' versions and the loaded OpenBLAS (configuration, "
      "kernel family, threads; see include/fcsn/build_info.h), as a dict.");
}
