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

// Reads /fclib_global/<name> in any of the three storages into a compressed
// column matrix (duplicates summed, explicit zeros kept).
bool ReadMatrix(Hdf5Reader* reader,
                const std::string& name,
                SparseMatrix* out,
                MatrixStats* stats);

// Square, no nonzero value below the diagonal, at least one strictly above.
bool IsUpperTriangleOnly(const SparseMatrix& a);

// U + U^T - diag(U), keeping U's pattern (and its mirror).
SparseMatrix SymmetrizeUpper(const SparseMatrix& u);

}  // namespace fcsn::internal

#endif  // FCSN_PROBLEM_FCLIB_MATRIX_H_
