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

// The stored arrays of one matrix (i, p, x as in the file).
struct StoredArrays {
  std::vector<int> p, i;
  std::vector<double> x;
};

std::string Dims(const MatrixHeader& h) {
  return std::to_string(h.rows) + " x " + std::to_string(h.cols);
}

// nz >= 0: nz triplets (i = row, p = column).
bool DecodeTriplets(Hdf5Reader* reader,
                    const MatrixHeader& h,
                    const StoredArrays& a,
                    std::vector<Triplet>* triplets) {
  const size_t count = static_cast<size_t>(h.nz);
  if (a.p.size() < count || a.i.size() < count || a.x.size() < count) {
    return reader->Fail(h.name + " is stored as " + std::to_string(h.nz) +
                        " triplets but i, p, x have " +
                        std::to_string(a.i.size()) + ", " +
                        std::to_string(a.p.size()) + ", " +
                        std::to_string(a.x.size()) + " entries");
  }
  triplets->reserve(count);
  for (size_t k = 0; k < count; ++k) {
    if (a.i[k] < 0 || a.i[k] >= h.rows || a.p[k] < 0 || a.p[k] >= h.cols) {
      return reader->Fail(h.name + " triplet " + std::to_string(k) +
                          " has index (" + std::to_string(a.i[k]) + ", " +
                          std::to_string(a.p[k]) + ") outside the " + Dims(h) +
                          " matrix");
    }
    triplets->emplace_back(a.i[k], a.p[k], a.x[k]);
  }
  return true;
}

// Checks the outer pointers of a CSC/CSR matrix: outer + 1 of them, from 0,
// monotone, and backed by i and x.
bool CheckPointers(Hdf5Reader* reader,
                   const MatrixHeader& h,
                   const StoredArrays& a,
                   int outer) {
  const char* kind = h.nz == -1 ? "column" : "row";
  const std::string format = h.nz == -1 ? "csc" : "csr";
  if (a.p.size() < static_cast<size_t>(outer) + 1) {
    return reader->Fail(h.name + " is " + format + " but p has " +
                        std::to_string(a.p.size()) + " entries, expected " +
                        std::to_string(static_cast<long>(outer) + 1) + " " +
                        kind + " pointers");
  }
  if (a.p[0] != 0)
    return reader->Fail(h.name + " " + kind + " pointer p[0] is not 0");
  for (int k = 0; k < outer; ++k) {
    if (a.p[k + 1] < a.p[k]) {
      return reader->Fail(
          h.name + " " + kind + " pointers p are not monotone (p[" +
          std::to_string(k + 1) + "] < p[" + std::to_string(k) + "])");
    }
  }
  const size_t count = static_cast<size_t>(a.p[outer]);
  if (a.i.size() < count || a.x.size() < count) {
    return reader->Fail(h.name + " has " + std::to_string(count) +
                        " entries by its pointers but i, x have " +
                        std::to_string(a.i.size()) + ", " +
                        std::to_string(a.x.size()));
  }
  return true;
}

// nz == -1 (CSC) or -2 (CSR).
bool DecodeCompressed(Hdf5Reader* reader,
                      const MatrixHeader& h,
                      const StoredArrays& a,
                      std::vector<Triplet>* triplets) {
  const bool csc = h.nz == -1;
  const int outer = csc ? h.cols : h.rows;
  const int inner = csc ? h.rows : h.cols;
  if (!CheckPointers(reader, h, a, outer)) return false;
  triplets->reserve(static_cast<size_t>(a.p[outer]));
  for (int k = 0; k < outer; ++k) {
    for (int e = a.p[k]; e < a.p[k + 1]; ++e) {
      if (a.i[e] < 0 || a.i[e] >= inner) {
        return reader->Fail(h.name + " entry " + std::to_string(e) +
                            " has index " + std::to_string(a.i[e]) +
                            " outside the " + Dims(h) + " matrix");
      }
      if (csc) {
        triplets->emplace_back(a.i[e], k, a.x[e]);
      } else {
        triplets->emplace_back(k, a.i[e], a.x[e]);
      }
    }
  }
  return true;
}

}  // namespace

bool ReadMatrixHeader(Hdf5Reader* reader,
                      const std::string& name,
                      MatrixHeader* header) {
  const std::string group = "/fclib_global/" + name;
  if (!reader->RequireGroup(group)) return false;
  MatrixHeader h;
  h.name = name;
  if (!reader->ReadScalarInt(group + "/m", &h.rows) ||
      !reader->ReadScalarInt(group + "/n", &h.cols) ||
      !reader->ReadScalarInt(group + "/nz", &h.nz)) {
    return false;
  }
  if (h.rows < 0 || h.cols < 0 || h.rows == std::numeric_limits<int>::max() ||
      h.cols == std::numeric_limits<int>::max()) {
    return reader->Fail(name + " has invalid dimensions " + Dims(h));
  }
  if (h.nz < -2) {
    return reader->Fail(
        name + "/nz = " + std::to_string(h.nz) +
        " is not a storage FCLib knows (>= 0 triplet, -1 CSC, -2 CSR)");
  }
  *header = h;
  return true;
}

bool ReadMatrix(Hdf5Reader* reader,
                const MatrixHeader& header,
                SparseMatrix* out,
                MatrixStats* stats) {
  const std::string group = "/fclib_global/" + header.name;
  StoredArrays a;
  if (!reader->ReadInts(group + "/p", &a.p) ||
      !reader->ReadInts(group + "/i", &a.i) ||
      !reader->ReadDoubles(group + "/x", &a.x)) {
    return false;
  }
  std::vector<Triplet> triplets;
  stats->format = header.nz >= 0 ? "triplet" : header.nz == -1 ? "csc" : "csr";
  const bool ok = header.nz >= 0
                      ? DecodeTriplets(reader, header, a, &triplets)
                      : DecodeCompressed(reader, header, a, &triplets);
  if (!ok) return false;
  stats->stored_nnz = static_cast<long>(triplets.size());
  out->resize(header.rows, header.cols);
  // Sums duplicates and keeps explicit zeros as structural entries.
  out->setFromTriplets(triplets.begin(), triplets.end());
  out->makeCompressed();
  stats->duplicates = stats->stored_nnz - static_cast<long>(out->nonZeros());
  stats->explicit_zeros = static_cast<long>(
      std::count(out->valuePtr(), out->valuePtr() + out->nonZeros(), 0.0));
  return true;
}

std::string FirstZeroRowOrColumn(const SparseMatrix& a) {
  std::vector<char> row_used(static_cast<size_t>(a.rows()), 0);
  std::vector<char> col_used(static_cast<size_t>(a.cols()), 0);
  for (int j = 0; j < a.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(a, j); it; ++it) {
      if (it.value() == 0.0) continue;
      row_used[static_cast<size_t>(it.row())] = 1;
      col_used[static_cast<size_t>(it.col())] = 1;
    }
  }
  for (size_t k = 0; k < row_used.size(); ++k) {
    if (!row_used[k]) return "row " + std::to_string(k);
  }
  for (size_t k = 0; k < col_used.size(); ++k) {
    if (!col_used[k]) return "column " + std::to_string(k);
  }
  return "";
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

}  // namespace fcsn::internal
