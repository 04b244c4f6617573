// Matrix decoding for the FCLib reader: /fclib_global/{M,H} stored as
// triplets (nz >= 0), CSC (nz = -1) or CSR (nz = -2) (layout: fcsn/fclib_io.h)
// into one compressed-column matrix, plus the upper-triangle rules of
// formulations.md §10.9. Internal to fcsn_problem (not installed).
#ifndef FCSN_PROBLEM_FCLIB_MATRIX_H_
#define FCSN_PROBLEM_FCLIB_MATRIX_H_

#include <string>

#include "fcsn/problem.h"
#include "problem/fclib_hdf5.h"

namespace fcsn::internal {

// What ReadMatrix saw of one stored matrix.
struct MatrixStats {
  std::string format;
  long stored_nnz = 0;
  long explicit_zeros = 0;
  long duplicates = 0;
};

// The header of /fclib_global/<name>: declared sizes and storage.
struct MatrixHeader {
  std::string name;  // "M" or "H"
  int rows = 0;
  int cols = 0;
  int nz = 0;  // >= 0 triplets, -1 CSC, -2 CSR
};

// Reads {m, n, nz} of /fclib_global/<name> and checks their ranges. Allocates
// nothing that depends on them: the caller cross-checks rows and cols against
// the vectors (whose extents the file backs) before calling ReadMatrix.
bool ReadMatrixHeader(Hdf5Reader* reader,
                      const std::string& name,
                      MatrixHeader* header);

// Reads {i, p, x} in the storage the header gives into a compressed-column
// rows x cols matrix (duplicates summed, explicit zeros kept).
bool ReadMatrix(Hdf5Reader* reader,
                const MatrixHeader& header,
                SparseMatrix* out,
                MatrixStats* stats);

// "row k" or "column k" for the first row or column of `a` without a nonzero
// value (a is then singular), or "" if there is none.
std::string FirstZeroRowOrColumn(const SparseMatrix& a);

// Square, no nonzero value below the diagonal, at least one strictly above.
bool IsUpperTriangleOnly(const SparseMatrix& a);

}  // namespace fcsn::internal

#endif  // FCSN_PROBLEM_FCLIB_MATRIX_H_
