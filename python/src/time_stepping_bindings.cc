// fcsn::MoreauJean (fcsn/time_stepping.h) for Python: the theta-method step
// problem of a linear structure, so that a Python time loop forms M^ and f^
// with the library's code rather than its own.
//
// Matrices arrive as the arrays of a canonical scipy CSC matrix (data
// float64, indices and indptr int32, indices sorted and unique in each column:
// python/fcsn/__init__.py prepares them) and are checked before Eigen reads
// them; vectors as float64 arrays. Each call copies its inputs (a step is
// O(n) copies beside the solve) and returns new numpy arrays.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "fcsn/problem.h"
#include "fcsn/time_stepping.h"
#include "python/src/bindings.h"

namespace fcsn::python {
namespace {

namespace py = pybind11;
using DoubleArray =
    py::array_t<double, py::array::c_style | py::array::forcecast>;
using IntArray = py::array_t<int, py::array::c_style | py::array::forcecast>;

void Require(bool condition, const std::string& message) {
  if (!condition) throw py::value_error(message);
}

// A copy of the CSC matrix (data, indices, indptr, rows, cols); ValueError
// when the arrays do not describe one with sorted, unique row indices.
SparseMatrix CscCopy(const char* name, const py::tuple& parts) {
  Require(parts.size() == 5, std::string(name) + ": malformed CSC parts");
  const DoubleArray data = parts[0].cast<DoubleArray>();
  const IntArray indices = parts[1].cast<IntArray>();
  const IntArray indptr = parts[2].cast<IntArray>();
  const int rows = parts[3].cast<int>();
  const int cols = parts[4].cast<int>();
  const std::string what = std::string(name) + " (csc): ";
  Require(rows >= 0 && cols >= 0 && indptr.size() == cols + 1,
          what + "indptr must have cols + 1 entries");
  const int* ptr = indptr.data();
  const int* index = indices.data();
  Require(ptr[0] == 0 && ptr[cols] == indices.size() &&
              indices.size() == data.size(),
          what + "indptr must run from 0 to the length of indices and data");
  for (int j = 0; j < cols; ++j) {
    Require(ptr[j] <= ptr[j + 1], what + "indptr must not decrease");
    for (int k = ptr[j]; k < ptr[j + 1]; ++k) {
      Require(index[k] >= 0 && index[k] < rows &&
                  (k == ptr[j] || index[k - 1] < index[k]),
              what + "row indices must be in range, sorted and unique");
    }
  }
  return Eigen::Map<const SparseMatrix>(
      rows, cols, ptr[cols], ptr, index, data.data());
}

Eigen::VectorXd Vector(const DoubleArray& x) {
  Require(x.ndim() == 1, "vectors must be 1-D arrays");
  return Eigen::Map<const Eigen::VectorXd>(x.data(), x.shape(0));
}

py::array_t<double> ToNumpy(const Eigen::VectorXd& x) {
  return py::array_t<double>(x.size(), x.data());
}

void RequireSizes(bool ok, const MoreauJean& stepper) {
  Require(ok,
          "a vector does not have the size n = " + std::to_string(stepper.n()) +
              " (3 nc for H's columns, nc for the gaps)");
}

// Forms the stepper from options and matrices; K and C may be None.
void Setup(MoreauJean* stepper,
           const MoreauJeanOptions& options,
           const py::tuple& M,
           const py::object& K,
           const py::object& C) {
  const SparseMatrix k = K.is_none() ? SparseMatrix() : CscCopy("K", K);
  const SparseMatrix c = C.is_none() ? SparseMatrix() : CscCopy("C", C);
  const std::string error = stepper->Setup(options, CscCopy("M", M), k, c);
  Require(error.empty(), error);
}

// (data, indices, indptr, rows, cols) copies of M^.
py::tuple IterationMatrix(const MoreauJean& stepper) {
  const SparseMatrix& a = stepper.iteration_matrix();
  return py::make_tuple(py::array_t<double>(a.nonZeros(), a.valuePtr()),
                        py::array_t<int>(a.nonZeros(), a.innerIndexPtr()),
                        py::array_t<int>(a.outerSize() + 1, a.outerIndexPtr()),
                        a.rows(),
                        a.cols());
}

}  // namespace

void BindTimeStepping(py::module_& m) {
  py::class_<MoreauJeanOptions>(
      m,
      "MoreauJeanOptions",
      "h, theta, rayleigh_alpha, rayleigh_beta of the theta-method "
      "(fcsn/time_stepping.h); see fcsn.MoreauJean.")
      .def(py::init<>())
      .def_readwrite("h", &MoreauJeanOptions::h)
      .def_readwrite("theta", &MoreauJeanOptions::theta)
      .def_readwrite("rayleigh_alpha", &MoreauJeanOptions::rayleigh_alpha)
      .def_readwrite("rayleigh_beta", &MoreauJeanOptions::rayleigh_beta);
  py::class_<MoreauJean>(
      m,
      "MoreauJean",
      "fcsn::MoreauJean (fcsn/time_stepping.h), the theta-method step "
      "problem; python/fcsn wraps it as fcsn.MoreauJean.")
      .def(py::init<>())
      .def("setup", &Setup, "Forms M^ from (options, M, K or None, C or None).")
      .def("n", &MoreauJean::n, "Number of dofs n.")
      .def("iteration_matrix",
           &IterationMatrix,
           "(data, indices, indptr, rows, cols) copies of M^.")
      .def(
          "external_impulse",
          [](const MoreauJean& s,
             const DoubleArray& begin,
             const DoubleArray& end) {
            Eigen::VectorXd p;
            RequireSizes(s.ExternalImpulse(Vector(begin), Vector(end), &p), s);
            return ToNumpy(p);
          },
          "p = h ((1-theta) F_begin + theta F_end).")
      .def(
          "free_term",
          [](const MoreauJean& s,
             const DoubleArray& q,
             const DoubleArray& v,
             const DoubleArray& impulse) {
            Eigen::VectorXd f;
            RequireSizes(s.FreeTerm(Vector(q), Vector(v), Vector(impulse), &f),
                         s);
            return ToNumpy(f);
          },
          "f^ of the step from (q, v) and the impulse.")
      .def(
          "gap_free_term",
          [](const MoreauJean& s,
             const py::tuple& H,
             const DoubleArray& gaps,
             const DoubleArray& q,
             const DoubleArray& v) {
            Eigen::VectorXd w;
            RequireSizes(
                s.GapFreeTerm(
                    CscCopy("H", H), Vector(gaps), Vector(q), Vector(v), &w),
                s);
            return ToNumpy(w);
          },
          "w of the step from (H parts, gaps, q, v).")
      .def(
          "predicted_displacement",
          [](const MoreauJean& s, const DoubleArray& q, const DoubleArray& v) {
            Eigen::VectorXd q_tilde;
            RequireSizes(
                s.PredictedDisplacement(Vector(q), Vector(v), &q_tilde), s);
            return ToNumpy(q_tilde);
          },
          "q~ = q + (1-theta) h v.")
      .def(
          "advance",
          [](const MoreauJean& s,
             const DoubleArray& v_next,
             const DoubleArray& q,
             const DoubleArray& v) {
            Eigen::VectorXd q_new = Vector(q), v_new = Vector(v);
            RequireSizes(s.Advance(Vector(v_next), &q_new, &v_new), s);
            return py::make_tuple(ToNumpy(q_new), ToNumpy(v_new));
          },
          "(q_next, v_next) after the solve.");
}

}  // namespace fcsn::python
