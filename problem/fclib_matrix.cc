// Decoding of FCLib sparse matrices (fclib_matrix.h): triplet, CSC and CSR
// storages into one compressed-column matrix, and the upper-triangle rules.
#include "problem/fclib_matrix.h"

#include <Eigen/SparseCore>
#include <algorithm>
#include <limits>
#include <string>
#include <vector>

namespace fcsn::internal {
namespace {

using Triplet = Eigen::Triplet<double, int>;

}  // namespace

// Reads /fclib_global/<name> in any of the three storages into a compressed
// column matrix.
bool ReadMatrix(Hdf5Reader* reader,
                const std::string& name,
                SparseMatrix* out,
                MatrixStats* stats) {
  const std::string group = "/fclib_global/" + name;
  if (!reader->RequireGroup(group)) return false;
  int rows = 0, cols = 0, nz = 0;
  if (!reader->ReadScalarInt(group + "/m", &rows) ||
      !reader->ReadScalarInt(group + "/n", &cols) ||
      !reader->ReadScalarInt(group + "/nz", &nz)) {
    return false;
  }
  if (rows < 0 || cols < 0 || rows == std::numeric_limits<int>::max() ||
      cols == std::numeric_limits<int>::max()) {
    return reader->Fail(name + " has invalid dimensions " +
                        std::to_string(rows) + " x " + std::to_string(cols));
  }
  if (nz < -2) {
    return reader->Fail(
        name + "/nz = " + std::to_string(nz) +
        " is not a storage FCLib knows (>= 0 triplet, -1 CSC, -2 CSR)");
  }
  std::vector<int> p, i;
  std::vector<double> x;
  if (!reader->ReadInts(group + "/p", &p) ||
      !reader->ReadInts(group + "/i", &i) ||
      !reader->ReadDoubles(group + "/x", &x)) {
    return false;
  }
  const std::string dims = std::to_string(rows) + " x " + std::to_string(cols);
  std::vector<Triplet> triplets;
  if (nz >= 0) {
    stats->format = "triplet";
    const size_t count = static_cast<size_t>(nz);
    if (p.size() < count || i.size() < count || x.size() < count) {
      return reader->Fail(name + " is stored as " + std::to_string(nz) +
                          " triplets but i, p, x have " +
                          std::to_string(i.size()) + ", " +
                          std::to_string(p.size()) + ", " +
                          std::to_string(x.size()) + " entries");
    }
    triplets.reserve(count);
    for (size_t k = 0; k < count; ++k) {
      if (i[k] < 0 || i[k] >= rows || p[k] < 0 || p[k] >= cols) {
        return reader->Fail(name + " triplet " + std::to_string(k) +
                            " has index (" + std::to_string(i[k]) + ", " +
                            std::to_string(p[k]) + ") outside the " + dims +
                            " matrix");
      }
      triplets.emplace_back(i[k], p[k], x[k]);
    }
  } else {
    const bool csc = nz == -1;
    stats->format = csc ? "csc" : "csr";
    const int outer = csc ? cols : rows;
    const int inner = csc ? rows : cols;
    const char* pointer_kind = csc ? "column" : "row";
    if (p.size() < static_cast<size_t>(outer) + 1) {
      return reader->Fail(name + " is " + stats->format + " but p has " +
                          std::to_string(p.size()) + " entries, expected " +
                          std::to_string(outer + 1) + " " + pointer_kind +
                          " pointers");
    }
    if (p[0] != 0)
      return reader->Fail(name + " " + pointer_kind + " pointer p[0] is not 0");
    for (int k = 0; k < outer; ++k) {
      if (p[k + 1] < p[k]) {
        return reader->Fail(
            name + " " + pointer_kind + " pointers p are not monotone (p[" +
            std::to_string(k + 1) + "] < p[" + std::to_string(k) + "])");
      }
    }
    const size_t count = static_cast<size_t>(p[outer]);
    if (i.size() < count || x.size() < count) {
      return reader->Fail(name + " has " + std::to_string(count) +
                          " entries by its pointers but i, x have " +
                          std::to_string(i.size()) + ", " +
                          std::to_string(x.size()));
    }
    triplets.reserve(count);
    for (int k = 0; k < outer; ++k) {
      for (int e = p[k]; e < p[k + 1]; ++e) {
        if (i[e] < 0 || i[e] >= inner) {
          return reader->Fail(name + " entry " + std::to_string(e) +
                              " has index " + std::to_string(i[e]) +
                              " outside the " + dims + " matrix");
        }
        if (csc) {
          triplets.emplace_back(i[e], k, x[e]);
        } else {
          triplets.emplace_back(k, i[e], x[e]);
        }
      }
    }
  }
  stats->stored_nnz = static_cast<long>(triplets.size());
  out->resize(rows, cols);
  // Sums duplicates and keeps explicit zeros as structural entries.
  out->setFromTriplets(triplets.begin(), triplets.end());
  out->makeCompressed();
  stats->duplicates = stats->stored_nnz - static_cast<long>(out->nonZeros());
  stats->explicit_zeros = static_cast<long>(
      std::count(out->valuePtr(), out->valuePtr() + out->nonZeros(), 0.0));
  return true;
}

// Square, no nonzero value below the diagonal, at least one strictly above.
bool IsUpperTriangleOnly(const SparseMatrix& a) {
  if (a.rows() != a.cols()) return false;
  bool strictly_upper = false;
  for (int j = 0; j < a.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(a, j); it; ++it) {
      if (it.value() == 0.0) continue;
      if (it.row() > it.col()) return false;
      if (it.row() < it.col()) strictly_upper = true;
    }
  }
  return strictly_upper;
}

// U + U^T - diag(U), keeping U's pattern (and its mirror).
SparseMatrix SymmetrizeUpper(const SparseMatrix& u) {
  std::vector<Triplet> triplets;
  triplets.reserve(2 * static_cast<size_t>(u.nonZeros()));
  for (int j = 0; j < u.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(u, j); it; ++it) {
      triplets.emplace_back(it.row(), it.col(), it.value());
      if (it.row() != it.col())
        triplets.emplace_back(it.col(), it.row(), it.value());
    }
  }
  SparseMatrix s(u.rows(), u.cols());
  s.setFromTriplets(triplets.begin(), triplets.end());
  s.makeCompressed();
  return s;
}

}  // namespace fcsn::internal
