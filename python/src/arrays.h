// Arrays between numpy / scipy and fcsn for the Python module: inputs viewed
// (fcsn::SparseView, VectorView: checked lengths, no copy), outputs handed to
// numpy without a copy (the arrays own the C++ buffers through a capsule).
// Every invalid input raises ValueError with a one-line message.
#ifndef FCSN_PYTHON_SRC_ARRAYS_H_
#define FCSN_PYTHON_SRC_ARRAYS_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <utility>

#include "fcsn/problem.h"
#include "fcsn/problem_view.h"

namespace fcsn::python {

// A C++ object handed to numpy: the arrays keep it alive through a capsule.
template <typename T>
pybind11::capsule Owner(T&& value, T** out) {
  T* owned = new T(std::forward<T>(value));
  *out = owned;
  return pybind11::capsule(owned, [](void* p) { delete static_cast<T*>(p); });
}

// x handed to numpy without a copy (the array owns the buffer).
pybind11::array_t<double> ToNumpy(Eigen::VectorXd&& x);
// (data, indices, indptr, (rows, cols)) of a CSC matrix, for scipy, without a
// copy.
pybind11::tuple ToScipyParts(SparseMatrix&& a);

// Raises ValueError(message) unless condition.
void Require(bool condition, const std::string& message);
// a, named `name` in errors, as int32 or int64 indices / float64 values
// (contiguous 1-D arrays, viewed, not copied).
IndexArray Indices(const std::string& name, const pybind11::array& a);
VectorView Values(const std::string& name, const pybind11::array& a);
// A view over (format, rows, cols, data, a, b) with format "csc"/"csr" (a =
// indices, b = indptr) or "coo" (a = row, b = col), with the lengths of the
// arrays checked against what the view will read.
SparseView ViewOf(const char* name, const pybind11::tuple& spec);
// Copies x (a float64 vector, named `what` in errors) of the given size into
// *out; returns out.
Eigen::VectorXd* CopyVector(const std::string& what,
                            const pybind11::object& x,
                            Eigen::Index size,
                            Eigen::VectorXd* out);
// Fills *problem through *converter from the arrays python/fcsn prepares.
void FillProblem(const pybind11::tuple& M,
                 const pybind11::tuple& H,
                 const pybind11::array& f,
                 const pybind11::array& w,
                 const pybind11::array& mu,
                 bool m_upper_triangle,
                 ProblemViewConverter* converter,
                 GlobalProblem* problem);

}  // namespace fcsn::python

#endif  // FCSN_PYTHON_SRC_ARRAYS_H_
