// linalg/local_entries.h: the one check of a rank's local entries of a matrix
// distributed over MPI ranks (distributed_matrix.h, mumps_distributed.h):
//
//   A = sum over ranks p of sum over p's local entries k of
//       a_k e_{row_k} e_{col_k}^T,   0 <= row_k < rows, 0 <= col_k < cols.
//
// CheckLocalEntries walks the entries once, in order, and returns the code of
// the first violation (the sizes first, then for each entry its indices, then
// its value when values are given); the callers turn the code into their own
// sentence and agree on it over the ranks (mumps_comm.h, FirstFailure).
#ifndef FCSN_LINALG_LOCAL_ENTRIES_H_
#define FCSN_LINALG_LOCAL_ENTRIES_H_

#include <cstddef>
#include <vector>

namespace fcsn::internal {

// Reasons a rank refuses its local entries (0: none).
enum LocalEntriesError : int {
  kLocalEntriesOk = 0,
  kLocalSizeMismatch = 1,     // rows, cols (and values) differ in size
  kLocalIndexOutOfRange = 2,  // a row outside 0..rows-1 or column outside
  kLocalNotFinite = 3,        // a value is NaN or infinite
};

// values == nullptr: the pattern alone (rows and cols of equal size).
int CheckLocalEntries(int rows,
                      int cols,
                      const std::vector<int>& local_rows,
                      const std::vector<int>& local_cols,
                      const std::vector<double>* values);

// kLocalNotFinite if one of x[0..size) is not finite, else kLocalEntriesOk.
int CheckFiniteValues(const double* x, std::size_t size);

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_LOCAL_ENTRIES_H_
