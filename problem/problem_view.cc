// ProblemViewConverter (fcsn/problem_view.h): checks a view over caller-owned
// arrays, builds the solver's CSC copy with a slot map (caller's entry k ->
// slot of the copy's value array), and later refreshes only the values.
//
// Each matrix goes through: CheckView (structure, O(nnz), never reads outside
// what the sizes and pointers describe), then either SamePattern + CopyValues
// (no allocation) or Rebuild (sort the entries by (column, row), one slot per
// distinct position). GlobalProblem::Validate() then judges the values.
#include "fcsn/problem_view.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

namespace fcsn {
namespace {

using MatrixMap = ProblemViewConverter::MatrixMap;

// The CSC copy uses int indices (fcsn::SparseMatrix, MUMPS, METIS).
constexpr std::int64_t kMaxIndex = std::numeric_limits<int>::max();

std::string Prefix(const char* name, const SparseView& a) {
  return std::string(name) + " (" + ToString(a.format) + "): ";
}

// Extent of the compressed dimension (pointers) and of the other one.
std::int64_t OuterSize(const SparseView& a) {
  return a.format == SparseFormat::kCsr ? a.rows : a.cols;
}
std::int64_t InnerSize(const SparseView& a) {
  return a.format == SparseFormat::kCsr ? a.cols : a.rows;
}

// Number of entries the view describes (valid after CheckPointers).
std::int64_t EntryCount(const SparseView& a) {
  if (a.format == SparseFormat::kCoo) return a.nnz;
  return a.ptr[OuterSize(a)] - a.index_base;
}

std::string CheckSizes(const char* name, const SparseView& a) {
  if (a.rows < 0 || a.cols < 0 || a.rows > kMaxIndex || a.cols > kMaxIndex) {
    return Prefix(name, a) + "size " + std::to_string(a.rows) + " x " +
           std::to_string(a.cols) + " is negative or exceeds 32-bit indices";
  }
  if (a.index_base != 0 && a.index_base != 1) {
    return Prefix(name, a) + "index_base = " + std::to_string(a.index_base) +
           " must be 0 or 1";
  }
  return "";
}

// Compressed formats: ptr[0] == base, nondecreasing, a 32-bit entry count.
std::string CheckPointers(const char* name, const SparseView& a) {
  if (a.ptr.is_null()) return Prefix(name, a) + "the pointer array is null";
  if (a.ptr[0] != a.index_base) {
    return Prefix(name, a) + "ptr[0] = " + std::to_string(a.ptr[0]) +
           ", expected the index base " + std::to_string(a.index_base);
  }
  const std::int64_t outer = OuterSize(a);
  for (std::int64_t j = 0; j < outer; ++j) {
    if (a.ptr[j + 1] < a.ptr[j]) {
      return Prefix(name, a) + "pointers decrease at ptr[" +
             std::to_string(j + 1) + "] = " + std::to_string(a.ptr[j + 1]) +
             " < ptr[" + std::to_string(j) + "] = " + std::to_string(a.ptr[j]);
    }
  }
  if (EntryCount(a) > kMaxIndex) {
    return Prefix(name, a) + std::to_string(EntryCount(a)) +
           " entries exceed 32-bit indices";
  }
  return "";
}

// Every index array entry in [base, base + extent).
std::string CheckIndices(const char* name,
                         const SparseView& a,
                         const IndexArray& index,
                         const char* array,
                         std::int64_t extent,
                         const char* extent_name) {
  const std::int64_t count = EntryCount(a);
  for (std::int64_t k = 0; k < count; ++k) {
    const std::int64_t i = index[k] - a.index_base;
    if (i < 0 || i >= extent) {
      return Prefix(name, a) + array + "[" + std::to_string(k) +
             "] = " + std::to_string(index[k]) + " is outside the " +
             std::to_string(extent) + " " + extent_name + " (index base " +
             std::to_string(a.index_base) + ")";
    }
  }
  return "";
}

std::string CheckView(const char* name, const SparseView& a) {
  std::string e = CheckSizes(name, a);
  if (!e.empty()) return e;
  if (a.format == SparseFormat::kCoo) {
    if (a.nnz < 0 || a.nnz > kMaxIndex) {
      return Prefix(name, a) + "nnz = " + std::to_string(a.nnz) +
             " is negative or exceeds 32-bit indices";
    }
  } else {
    e = CheckPointers(name, a);
    if (!e.empty()) return e;
  }
  const bool coo = a.format == SparseFormat::kCoo;
  if (EntryCount(a) > 0 && (a.index.is_null() || a.values == nullptr ||
                            (coo && a.coo_col.is_null()))) {
    return Prefix(name, a) + std::to_string(EntryCount(a)) +
           " entries but a null index or value array";
  }
  if (coo) {
    e = CheckIndices(name, a, a.index, "row_index", a.rows, "rows");
    if (!e.empty()) return e;
    return CheckIndices(name, a, a.coo_col, "col_index", a.cols, "columns");
  }
  const bool csr = a.format == SparseFormat::kCsr;
  return CheckIndices(name,
                      a,
                      a.index,
                      csr ? "col_index" : "row_index",
                      InnerSize(a),
                      csr ? "columns" : "rows");
}

// The view (already checked) has the pattern recorded in m.
bool SamePattern(const MatrixMap& m, const SparseView& a) {
  if (m.format != a.format || m.rows != a.rows || m.cols != a.cols ||
      static_cast<std::int64_t>(m.index.size()) != EntryCount(a)) {
    return false;
  }
  const int base = a.index_base;
  for (std::size_t j = 0; j < m.ptr.size(); ++j) {
    if (a.ptr[j] - base != m.ptr[j]) return false;
  }
  for (std::size_t k = 0; k < m.index.size(); ++k) {
    if (a.index[k] - base != m.index[k]) return false;
  }
  for (std::size_t k = 0; k < m.coo_col.size(); ++k) {
    if (a.coo_col[k] - base != m.coo_col[k]) return false;
  }
  return true;
}

// The CSC copy *a was built from m and still has its shape.
bool CopyIntact(const MatrixMap& m, const SparseMatrix& a) {
  return a.rows() == m.rows && a.cols() == m.cols && a.isCompressed() &&
         a.nonZeros() == m.slots;
}

void CopyValues(const MatrixMap& m, const double* values, SparseMatrix* a) {
  double* out = a->valuePtr();
  std::fill(out, out + m.slots, 0.0);
  for (std::size_t k = 0; k < m.slot.size(); ++k) out[m.slot[k]] += values[k];
}

// Records the view's pattern in m, 0-based.
void RecordPattern(const SparseView& a, MatrixMap* m) {
  m->format = a.format;
  m->rows = a.rows;
  m->cols = a.cols;
  const int base = a.index_base;
  const std::int64_t count = EntryCount(a);
  const std::int64_t ptr_size =
      a.format == SparseFormat::kCoo ? 0 : OuterSize(a) + 1;
  m->ptr.resize(ptr_size);
  for (std::int64_t j = 0; j < ptr_size; ++j)
    m->ptr[j] = static_cast<int>(a.ptr[j] - base);
  m->index.resize(count);
  for (std::int64_t k = 0; k < count; ++k)
    m->index[k] = static_cast<int>(a.index[k] - base);
  m->coo_col.resize(a.format == SparseFormat::kCoo ? count : 0);
  for (std::size_t k = 0; k < m->coo_col.size(); ++k)
    m->coo_col[k] = static_cast<int>(a.coo_col[k] - base);
}

// Row and column of each of the caller's entries, from the recorded pattern.
void EntryPositions(const MatrixMap& m,
                    std::vector<int>* row,
                    std::vector<int>* col) {
  row->resize(m.index.size());
  col->resize(m.index.size());
  if (m.format == SparseFormat::kCoo) {
    *row = m.index;
    *col = m.coo_col;
    return;
  }
  const bool csr = m.format == SparseFormat::kCsr;
  for (std::size_t j = 0; j + 1 < m.ptr.size(); ++j) {
    for (int k = m.ptr[j]; k < m.ptr[j + 1]; ++k) {
      (csr ? *row : *col)[k] = static_cast<int>(j);
      (csr ? *col : *row)[k] = m.index[k];
    }
  }
}

// Builds the CSC pattern of *a from m (sorted, one slot per distinct
// position) and m's slot map.
void Rebuild(MatrixMap* m, SparseMatrix* a) {
  std::vector<int> row, col;
  EntryPositions(*m, &row, &col);
  std::vector<int> order(m->index.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int x, int y) {
    return col[x] != col[y] ? col[x] < col[y] : row[x] < row[y];
  });
  m->slot.resize(order.size());
  std::vector<int> inner;
  std::vector<int> outer(m->cols + 1, 0);
  for (std::size_t t = 0; t < order.size(); ++t) {
    const int k = order[t];
    const bool repeat =
        t > 0 && row[order[t - 1]] == row[k] && col[order[t - 1]] == col[k];
    if (!repeat) {
      inner.push_back(row[k]);
      ++outer[col[k] + 1];
    }
    m->slot[k] = static_cast<int>(inner.size()) - 1;
  }
  std::partial_sum(outer.begin(), outer.end(), outer.begin());
  m->slots = static_cast<int>(inner.size());
  a->resize(m->rows, m->cols);
  a->resizeNonZeros(m->slots);
  std::copy(outer.begin(), outer.end(), a->outerIndexPtr());
  std::copy(inner.begin(), inner.end(), a->innerIndexPtr());
}

std::string CopyVector(const char* name,
                       const VectorView& x,
                       Eigen::Index zeros_size,
                       Eigen::VectorXd* out) {
  if (x.size < 0) {
    return std::string(name) + " has a negative size " + std::to_string(x.size);
  }
  if (x.size > 0 && x.data == nullptr) {
    return std::string(name) + " has " + std::to_string(x.size) +
           " entries but a null data pointer";
  }
  if (x.size == 0 && zeros_size > 0) {
    out->setZero(zeros_size);
    return "";
  }
  *out = Eigen::Map<const Eigen::VectorXd>(x.data, x.size);
  return "";
}

}  // namespace

const char* ToString(SparseFormat x) {
  switch (x) {
    case SparseFormat::kCsc:
      return "csc";
    case SparseFormat::kCsr:
      return "csr";
    case SparseFormat::kCoo:
      return "coo";
  }
  return "?";
}

std::optional<SparseFormat> SparseFormatFromString(std::string_view s) {
  for (SparseFormat x :
       {SparseFormat::kCsc, SparseFormat::kCsr, SparseFormat::kCoo}) {
    if (s == ToString(x)) return x;
  }
  return std::nullopt;
}

SparseView CompressedViewBuilder::operator()(std::int64_t rows,
                                             std::int64_t cols,
                                             IndexArray ptr,
                                             IndexArray index,
                                             const double* values,
                                             int index_base) const {
  SparseView a;
  a.format = format;
  a.rows = rows;
  a.cols = cols;
  a.ptr = ptr;
  a.index = index;
  a.values = values;
  a.index_base = index_base;
  return a;
}

SparseView CooView(std::int64_t rows,
                   std::int64_t cols,
                   std::int64_t nnz,
                   IndexArray row_index,
                   IndexArray col_index,
                   const double* values,
                   int index_base) {
  SparseView a = CscView(rows, cols, {}, row_index, values, index_base);
  a.format = SparseFormat::kCoo;
  a.coo_col = col_index;
  a.nnz = nnz;
  return a;
}

std::string ProblemViewConverter::Fill(const GlobalProblemView& view,
                                       GlobalProblem* problem) {
  if (problem == nullptr) return "the target problem is null";
  const GlobalProblem* previous = last_target_;
  last_target_ = nullptr;  // until this Fill succeeds
  last_fill_failed_validation_ = false;
  std::string e = CheckView("M", view.M);
  if (e.empty()) e = CheckView("H", view.H);
  if (!e.empty()) return e;
  const bool refresh = problem == previous && SamePattern(m_, view.M) &&
                       SamePattern(h_, view.H) && CopyIntact(m_, problem->M) &&
                       CopyIntact(h_, problem->H);
  if (!refresh) {
    RecordPattern(view.M, &m_);
    RecordPattern(view.H, &h_);
    Rebuild(&m_, &problem->M);
    Rebuild(&h_, &problem->H);
    ++rebuilds_;
  }
  CopyValues(m_, view.M.values, &problem->M);
  CopyValues(h_, view.H.values, &problem->H);
  e = CopyVector("f", view.f, 0, &problem->f);
  if (e.empty()) e = CopyVector("w", view.w, problem->H.cols(), &problem->w);
  if (e.empty()) e = CopyVector("mu", view.mu, 0, &problem->mu);
  if (!e.empty()) return e;
  problem->m_upper_triangle = view.m_upper_triangle;
  if (problem->HasEqualityConstraints()) {
    problem->G = SparseMatrix();
    problem->b.resize(0);
  }
  e = problem->Validate();
  if (!e.empty()) {
    last_fill_failed_validation_ = true;
    return e;
  }
  last_target_ = problem;
  last_fill_rebuilt_ = !refresh;
  return "";
}

std::string ProblemViewConverter::RefreshValues(const double* m_values,
                                                const double* h_values,
                                                GlobalProblem* problem) const {
  if (problem == nullptr) return "the target problem is null";
  if (last_target_ == nullptr || !CopyIntact(m_, problem->M) ||
      !CopyIntact(h_, problem->H)) {
    return "no successful Fill built this problem's M and H";
  }
  if (m_values != nullptr) CopyValues(m_, m_values, &problem->M);
  if (h_values != nullptr) CopyValues(h_, h_values, &problem->H);
  return "";
}

}  // namespace fcsn
