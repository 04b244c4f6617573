// The LDL^T input of MUMPS (see mumps_symmetric.h).
#include "linalg/mumps_symmetric.h"

#include <vector>

namespace fcsn::internal {

void BuildSymmetricInput(const SparsityPattern& pattern,
                         const MumpsAnalysisInput& unsymmetric,
                         SymmetricInput* symmetric) {
  MumpsAnalysisInput& in = symmetric->input;
  in = MumpsAnalysisInput();
  in.n = pattern.n;
  in.perm_in = unsymmetric.perm_in;
  in.icntl7 = unsymmetric.icntl7;
  in.symmetric = true;
  symmetric->upper_slots.clear();
  symmetric->mirror_slots.clear();
  size_t lower = 0;
  for (int j = 0; j < pattern.n; ++j) {
    for (int p = pattern.col_ptr[j]; p < pattern.col_ptr[j + 1]; ++p) {
      if (pattern.row_index[p] >= j) ++lower;
    }
  }
  in.irn.reserve(lower);
  in.jcn.reserve(lower);
  in.value_slots.reserve(lower);
  symmetric->upper_slots.reserve(pattern.nnz() - lower);
  symmetric->mirror_slots.reserve(pattern.nnz() - lower);
  // The mirror (j, i) of (i, j) is in column i. Columns are visited in
  // increasing j, so the mirrors asked of column i have increasing rows j:
  // one cursor per column, advanced past the rows below j, finds them all in
  // O(nnz) (the rows of a column are sorted, as CheckPattern requires).
  std::vector<int> cursor(pattern.col_ptr.begin(), pattern.col_ptr.end() - 1);
  for (int j = 0; j < pattern.n; ++j) {
    for (int p = pattern.col_ptr[j]; p < pattern.col_ptr[j + 1]; ++p) {
      const int i = pattern.row_index[p];
      int& c = cursor[i];
      while (c < pattern.col_ptr[i + 1] && pattern.row_index[c] < j) ++c;
      const int mirror =
          c < pattern.col_ptr[i + 1] && pattern.row_index[c] == j ? c : -1;
      if (i >= j) {
        in.irn.push_back(i + 1);
        in.jcn.push_back(j + 1);
        in.value_slots.push_back(p);
        // Below the diagonal without a mirror: compared with an upper zero.
        if (i > j && mirror < 0) {
          symmetric->upper_slots.push_back(p);
          symmetric->mirror_slots.push_back(-1);
        }
      } else {
        symmetric->upper_slots.push_back(p);
        symmetric->mirror_slots.push_back(mirror);
      }
    }
  }
}

bool SymmetricValues(const SymmetricInput& symmetric, const double* values) {
  for (size_t k = 0; k < symmetric.upper_slots.size(); ++k) {
    const int mirror = symmetric.mirror_slots[k];
    const double below = mirror >= 0 ? values[mirror] : 0.0;
    if (values[symmetric.upper_slots[k]] != below) return false;
  }
  return true;
}

}  // namespace fcsn::internal
