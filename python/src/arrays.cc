// numpy / scipy arrays to and from fcsn (python/src/arrays.h).
#include "python/src/arrays.h"

#include <string>

namespace fcsn::python {

namespace py = pybind11;

py::array_t<double> ToNumpy(Eigen::VectorXd&& x) {
  Eigen::VectorXd* owned = nullptr;
  py::capsule base = Owner(std::move(x), &owned);
  return py::array_t<double>(owned->size(), owned->data(), base);
}

py::tuple ToScipyParts(SparseMatrix&& a) {
  SparseMatrix* owned = nullptr;
  py::capsule base = Owner(std::move(a), &owned);
  owned->makeCompressed();
  const py::ssize_t nnz = owned->nonZeros();
  return py::make_tuple(
      py::array_t<double>(nnz, owned->valuePtr(), base),
      py::array_t<int>(nnz, owned->innerIndexPtr(), base),
      py::array_t<int>(owned->outerSize() + 1, owned->outerIndexPtr(), base),
      py::make_tuple(owned->rows(), owned->cols()));
}

void Require(bool condition, const std::string& message) {
  if (!condition) throw py::value_error(message);
}

namespace {

void RequireVector(const std::string& name, const py::array& a) {
  Require(a.ndim() == 1 && (a.flags() & py::array::c_style) != 0,
          name + " must be a contiguous 1-D array");
}

}  // namespace

IndexArray Indices(const std::string& name, const py::array& a) {
  RequireVector(name, a);
  const char kind = a.dtype().kind();
  Require((kind == 'i') && (a.itemsize() == 4 || a.itemsize() == 8),
          name + " must hold int32 or int64 indices");
  if (a.itemsize() == 4) return static_cast<const std::int32_t*>(a.data());
  return static_cast<const std::int64_t*>(a.data());
}

VectorView Values(const std::string& name, const py::array& a) {
  RequireVector(name, a);
  Require(a.dtype().kind() == 'f' && a.itemsize() == 8,
          name + " must hold float64 values");
  return {static_cast<const double*>(a.data()), a.shape(0)};
}

namespace {

std::int64_t Last(const IndexArray& a, py::ssize_t size) {
  return size > 0 ? a[size - 1] : 0;
}

}  // namespace

SparseView ViewOf(const char* name, const py::tuple& spec) {
  Require(spec.size() == 6, std::string(name) + ": malformed matrix spec");
  const std::string format = spec[0].cast<std::string>();
  const std::int64_t rows = spec[1].cast<std::int64_t>();
  const std::int64_t cols = spec[2].cast<std::int64_t>();
  const std::string prefix = std::string(name) + " (" + format + "): ";
  const py::array data = spec[3].cast<py::array>();
  const py::array a = spec[4].cast<py::array>();
  const py::array b = spec[5].cast<py::array>();
  const VectorView values = Values(prefix + "data", data);
  if (format == "coo") {
    Require(a.size() == data.size() && b.size() == data.size(),
            prefix + "row, col and data must have the same length");
    return CooView(rows,
                   cols,
                   data.size(),
                   Indices(prefix + "row", a),
                   Indices(prefix + "col", b),
                   values.data);
  }
  Require(format == "csc" || format == "csr",
          prefix + "the format must be csc, csr or coo");
  const bool csc = format == "csc";
  const IndexArray index = Indices(prefix + "indices", a);
  const IndexArray ptr = Indices(prefix + "indptr", b);
  Require(b.size() == (csc ? cols : rows) + 1,
          prefix + "indptr has " + std::to_string(b.size()) +
              " entries, expected " + (csc ? "cols" : "rows") + " + 1");
  const std::int64_t nnz = Last(ptr, b.size());
  Require(nnz <= a.size() && nnz <= data.size(),
          prefix + "indptr[-1] = " + std::to_string(nnz) +
              " exceeds the length of indices or data");
  return csc ? CscView(rows, cols, ptr, index, values.data)
             : CsrView(rows, cols, ptr, index, values.data);
}

Eigen::VectorXd* CopyVector(const std::string& what,
                            const py::object& x,
                            Eigen::Index size,
                            Eigen::VectorXd* out) {
  const VectorView view = Values(what, x.cast<py::array>());
  Require(view.size == size,
          what + " has " + std::to_string(view.size) + " entries, expected " +
              std::to_string(size));
  *out = Eigen::Map<const Eigen::VectorXd>(view.data, view.size);
  return out;
}

void FillProblem(const py::tuple& M,
                 const py::tuple& H,
                 const py::array& f,
                 const py::array& w,
                 const py::array& mu,
                 bool m_upper_triangle,
                 ProblemViewConverter* converter,
                 GlobalProblem* problem) {
  GlobalProblemView view;
  view.M = ViewOf("M", M);
  view.H = ViewOf("H", H);
  view.m_upper_triangle = m_upper_triangle;
  view.f = Values("f", f);
  view.w = Values("w", w);
  view.mu = Values("mu", mu);
  const std::string error = converter->Fill(view, problem);
  Require(error.empty(), error);
}

}  // namespace fcsn::python
