// fcsn/problem_view.h: a global problem over caller-owned arrays (FEM codes,
// Python), and the converter that turns it into a fcsn::GlobalProblem.
//
//   M v = H r + f,  u = H^T v + w,  K* ∋ û ⟂ r ∈ K       (fcsn/problem.h)
//
// A SparseView describes one matrix stored by the caller, without copying:
//   kCsc: ptr = cols + 1 column pointers, index = the row of each entry
//   kCsr: ptr = rows + 1 row pointers,    index = the column of each entry
//   kCoo: nnz triplets (index[k], coo_col[k], values[k]); ptr unused
// with int32 or int64 indices (IndexArray), 0- or 1-based (index_base, which
// applies to pointers and indices alike). Entries of a column (row) may come
// in any order; duplicates are summed (scipy's and FCLib's convention); an
// explicit zero stays a structural entry. A GlobalProblemView adds f (n), w
// (m, or size 0 for zeros) and mu (nc = m / 3), and says whether M holds only
// the upper triangle U of a symmetric matrix (then U + U^T - diag(U) is used,
// GlobalProblem::m_upper_triangle).
//
// Cost, stated honestly: the solver works on its own CSC copy (32-bit indices,
// sorted, duplicates summed). ProblemViewConverter::Fill builds that copy on
// the first call and whenever the sparsity pattern changes (O(nnz log nnz),
// allocates); on later calls with the same pattern it compares the pattern
// (O(nnz)) and copies the values (O(nnz)) into the existing arrays, without
// any allocation, so that the Solver keeps its symbolic analysis.
//
// Errors: Fill returns "" on success, otherwise one line naming the matrix or
// vector and what is wrong (negative sizes, an index base other than 0 or 1,
// a null array, a first pointer other than the base, decreasing pointers, an
// index outside the matrix, sizes beyond 32-bit indices, then everything
// GlobalProblem::Validate() checks: NaN or infinite values, mu < 0, a
// nonzero below the diagonal of a declared upper triangle). A view never
// makes Fill read outside the arrays its sizes and pointers describe, and an
// invalid view never crashes; after a failure the next Fill rebuilds.
//
// Usage (time stepping, CSR matrices with int64 indices of a FEM code):
//   fcsn::GlobalProblemView view;
//   view.M = fcsn::CsrView(n, n, row_ptr, col_index, values);
//   view.H = fcsn::CscView(n, m, h_ptr, h_rows, h_values, /*index_base=*/1);
//   view.f = {f, n};  view.w = {w, m};  view.mu = {mu, nc};
//   fcsn::ProblemViewConverter converter;
//   fcsn::GlobalProblem problem;
//   for (each step) {
//     /* update values, f ... in place */
//     if (std::string e = converter.Fill(view, &problem); !e.empty()) {...}
//     summary = solver.Solve(problem, &x, &x);
//   }
#ifndef FCSN_PROBLEM_VIEW_H_
#define FCSN_PROBLEM_VIEW_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fcsn/problem.h"

namespace fcsn {

// Storage of a SparseView.
enum class SparseFormat {
  kCsc,  // "csc": compressed sparse column
  kCsr,  // "csr": compressed sparse row
  kCoo,  // "coo": triplets (row, column, value)
};
const char* ToString(SparseFormat x);
std::optional<SparseFormat> SparseFormatFromString(std::string_view s);

// A caller-owned array of int32 or int64 indices (exactly one pointer set;
// both null: no array).
class IndexArray {
 public:
  IndexArray() = default;
  IndexArray(const std::int32_t* data) : i32_(data) {}  // NOLINT: implicit
  IndexArray(const std::int64_t* data) : i64_(data) {}  // NOLINT: implicit
  bool is_null() const { return i32_ == nullptr && i64_ == nullptr; }
  bool is_64bit() const { return i64_ != nullptr; }
  std::int64_t operator[](std::int64_t k) const {
    return i32_ != nullptr ? i32_[k] : i64_[k];
  }

 private:
  const std::int32_t* i32_ = nullptr;
  const std::int64_t* i64_ = nullptr;
};

// One sparse matrix over caller-owned arrays (see the top of the file).
struct SparseView {
  SparseFormat format = SparseFormat::kCsc;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  IndexArray ptr;      // kCsc: cols + 1 entries; kCsr: rows + 1; kCoo: unused
  IndexArray index;    // kCsc: row of each entry; kCsr, kCoo: see the top
  IndexArray coo_col;  // kCoo only: the column of each entry
  const double* values = nullptr;
  std::int64_t nnz = 0;  // kCoo: number of triplets; compressed: unused
  int index_base = 0;    // 0 or 1
};

// The builders of a SparseView, one per storage (see the top of the file):
//   CscView(rows, cols, col_ptr, row_index, values, index_base = 0)
//   CsrView(rows, cols, row_ptr, col_index, values, index_base = 0)
//   CooView(rows, cols, nnz, row_index, col_index, values, index_base = 0)
// The two compressed ones are one builder, for format kCsc or kCsr (function
// objects: they are called as functions).
struct CompressedViewBuilder {
  SparseFormat format;
  SparseView operator()(std::int64_t rows,
                        std::int64_t cols,
                        IndexArray ptr,
                        IndexArray index,
                        const double* values,
                        int index_base = 0) const;
};
inline constexpr CompressedViewBuilder CscView{SparseFormat::kCsc};
inline constexpr CompressedViewBuilder CsrView{SparseFormat::kCsr};
SparseView CooView(std::int64_t rows,
                   std::int64_t cols,
                   std::int64_t nnz,
                   IndexArray row_index,
                   IndexArray col_index,
                   const double* values,
                   int index_base = 0);

// A caller-owned vector.
struct VectorView {
  const double* data = nullptr;
  std::int64_t size = 0;
};

struct GlobalProblemView {
  SparseView M;                   // n x n
  bool m_upper_triangle = false;  // M holds the upper triangle of a symmetric
                                  // matrix (GlobalProblem::m_upper_triangle)
  SparseView H;                   // n x m, m = 3 nc
  VectorView f;                   // n
  VectorView w;                   // m; size 0: w = 0
  VectorView mu;                  // nc
};

// Fills GlobalProblems from views; keeps the pattern of the last build and
// the map from the caller's entries to the slots of the CSC copy.
class ProblemViewConverter {
 public:
  // Fills *problem from view ("" on success, else one line; see the top).
  // Refreshes values only when the patterns of M and H are those of the last
  // successful Fill into the same *problem; rebuilds otherwise.
  std::string Fill(const GlobalProblemView& view, GlobalProblem* problem);

  // Refreshes only the values of problem->M and problem->H on the patterns
  // of the last successful Fill: m_values and h_values hold the caller's
  // entries in that Fill's order (a null array keeps the matrix's values).
  // The pattern is not read again (the caller keeps it); no allocation.
  // *problem is that Fill's target or a copy of it. "" on success, else one
  // line (no successful Fill, or matrices of another shape). The values are
  // not judged: call GlobalProblem::Validate() after.
  std::string RefreshValues(const double* m_values,
                            const double* h_values,
                            GlobalProblem* problem) const;

  // Whether the last successful Fill rebuilt the patterns, and how many
  // rebuilds this converter has done.
  bool last_fill_rebuilt() const { return last_fill_rebuilt_; }
  int rebuilds() const { return rebuilds_; }
  // Whether the last failed Fill read the view's arrays and failed
  // GlobalProblem::Validate() (NaN or infinite values, mu < 0, ...), rather
  // than on the view itself (sizes, null arrays, pointers, indices).
  bool last_fill_failed_validation() const {
    return last_fill_failed_validation_;
  }

  // One matrix: the caller's pattern (0-based, as int32) and, for each of the
  // caller's entries, its slot in the CSC copy's value array.
  struct MatrixMap {
    SparseFormat format = SparseFormat::kCsc;
    std::int64_t rows = -1;
    std::int64_t cols = -1;
    std::vector<int> ptr;
    std::vector<int> index;
    std::vector<int> coo_col;
    std::vector<int> slot;
    int slots = 0;  // entries of the CSC copy (duplicates summed)
  };

 private:
  MatrixMap m_;
  MatrixMap h_;
  const GlobalProblem* last_target_ = nullptr;
  bool last_fill_rebuilt_ = false;
  bool last_fill_failed_validation_ = false;
  int rebuilds_ = 0;
};

}  // namespace fcsn

#endif  // FCSN_PROBLEM_VIEW_H_
